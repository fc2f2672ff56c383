#!/usr/bin/env bats
# F.interpolate's family from the command line: what the conformance oracle
# cannot show (the deprecation warnings on stderr).

load helpers

@test "nnf_interp-1.1: F.upsample and F.upsample_nearest warn that they are deprecated; F.interpolate does not" {
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.upsample(torch.ones(1, 1, 2), scale_factor=2).shape)'
    assert_success
    assert_output 'torch.Size([1, 1, 4])'
    [ "$stderr" = 'UserWarning: nn.functional.upsample is deprecated. Use nn.functional.interpolate instead.' ]
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.upsample_nearest(torch.ones(1, 1, 2), size=3).shape)'
    assert_success
    assert_output 'torch.Size([1, 1, 3])'
    [ "$stderr" = 'UserWarning: nn.functional.upsample_nearest is deprecated. Use nn.functional.interpolate instead.' ]
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.interpolate(torch.ones(1, 1, 2), size=3).shape)'
    assert_success
    [ -z "$stderr" ]
}

@test "nnf_interp-1.2: F.upsample_bilinear warns that it is deprecated; the interpolating modes do not warn" {
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.upsample_bilinear(torch.ones(1, 1, 2, 2), size=3).shape)'
    assert_success
    assert_output 'torch.Size([1, 1, 3, 3])'
    [ "$stderr" = 'UserWarning: nn.functional.upsample_bilinear is deprecated. Use nn.functional.interpolate instead.' ]
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.interpolate(torch.ones(1, 1, 2, 2), size=3, mode="bicubic").shape)'
    assert_success
    [ -z "$stderr" ]
}

@test "nnf_interp-1.3: F.affine_grid and F.grid_sample warn when align_corners is not given; affine_grid on unit-size grids with align_corners=True" {
    local w='UserWarning: Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. Please specify align_corners=True if the old behavior is desired. See the documentation of grid_sample for details.'
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.affine_grid(torch.eye(2, 3).unsqueeze(0), (1, 1, 2, 2)).shape)'
    assert_success
    assert_output 'torch.Size([1, 2, 2, 2])'
    [ "$stderr" = "$w" ]
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 1, 1, 2)).shape)'
    assert_success
    assert_output 'torch.Size([1, 1, 1, 1])'
    [ "$stderr" = "$w" ]
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.affine_grid(torch.eye(2, 3).unsqueeze(0), (1, 1, 1, 2), align_corners=True).shape)'
    assert_success
    [ "$stderr" = 'UserWarning: Since version 1.3.0, affine_grid behavior has changed for unit-size grids when align_corners=True. This is not an intended use case of affine_grid. See the documentation of affine_grid for details.' ]
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 1, 1, 2), align_corners=False).shape)'
    assert_success
    [ -z "$stderr" ]
}
