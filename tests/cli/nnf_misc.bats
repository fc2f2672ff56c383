#!/usr/bin/env bats
# torch.nn.functional's in-place activations and channel dropouts from the
# command line: what the conformance oracle cannot show (warnings on stderr).

load helpers

@test "nnf_misc-1.1: dropout2d warns about a 2-D input and about a 3-D input read as (N, C, L); 4-D is silent" {
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.dropout2d(torch.ones(2, 3), 0.0).shape)'
    assert_success
    assert_output 'torch.Size([2, 3])'
    [[ "$stderr" == 'UserWarning: dropout2d: Received a 2-D input to dropout2d, which is deprecated'* ]]
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.dropout2d(torch.ones(2, 3, 4), 0.0).shape)'
    assert_success
    [[ "$stderr" == 'UserWarning: dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D'* ]]
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.dropout2d(torch.ones(1, 2, 3, 4), 0.0).shape)'
    assert_success
    [ -z "$stderr" ]
}

@test "nnf_misc-1.2: dropout3d warns about a 3-D input (and keeps its shape); dropout1d refuses it 4-D" {
    run --separate-stderr tsr_run -e 'print(torch.nn.functional.dropout3d(torch.ones(2, 3, 4), 0.5).shape)'
    assert_success
    assert_output 'torch.Size([2, 3, 4])'
    [[ "$stderr" == *'(i.e. 4D or 5D inputs).' ]]
    run tsr_run -e 'torch.nn.functional.dropout1d(torch.ones(1, 2, 3, 4))'
    assert_failure
    assert_output --partial 'RuntimeError: dropout1d: Expected 2D or 3D input, but received a 4D input.'
}

@test "nnf_misc-1.3: F.relu_ and F.leaky_relu_ change their argument in place" {
    run tsr_run -e $'x = torch.tensor([-1.0, 2.0])\n_ = torch.nn.functional.leaky_relu_(x, 0.5)\nprint(x)\n_ = torch.nn.functional.relu_(x)\nprint(x)'
    assert_success
    assert_output $'tensor([-0.5000,  2.0000])\ntensor([0., 2.])'
}
