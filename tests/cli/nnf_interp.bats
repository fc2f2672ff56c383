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
