#!/usr/bin/env bats
# out= seen from the command line: the UserWarning of ATen's resize_output
# names the shape 1.13's own out= path resizes to (the oracle silences
# warnings, so the conformance cases cannot show it).

load helpers

# $1: expression; $2: the shape out had; $3: the shape 1.13's warning names
warns_resize() {
    run --separate-stderr tsr_run -e "$1"
    assert_success
    [[ "$stderr" == "UserWarning: An output with one or more elements was resized since it had shape $2, which does not match the required output shape $3. This behavior is deprecated"* ]] ||
        { echo "$1: $stderr"; return 1; }
}

@test "out-1.1: matmul's out= warns with the shape of the path 1.13 takes (mm of an unsqueezed vector, folded batches)" {
    warns_resize 'torch.matmul(torch.ones(2, 3, 4), torch.ones(4, 5), out=torch.zeros(3)).shape' '[3]' '[2, 3, 5]'
    warns_resize 'torch.matmul(torch.ones(3), torch.ones(3, 5), out=torch.zeros(2)).shape' '[2]' '[1, 5]'
    warns_resize 'torch.matmul(torch.ones(3, 4), torch.ones(4), out=torch.zeros(2)).shape' '[2]' '[3]'
    warns_resize 'torch.matmul(torch.ones(2, 3, 4), torch.ones(2, 4, 5), out=torch.zeros(3)).shape' '[3]' '[2, 3, 5]'
    warns_resize 'torch.matmul(torch.ones(3), torch.ones(3), out=torch.zeros(3)).shape' '[3]' '[]'
    warns_resize 'torch.matmul(torch.ones(2, 3, 4), torch.ones(4, 5), out=torch.zeros(6, 5)).shape' '[6, 5]' '[2, 3, 5]'
    warns_resize 'torch.matmul(torch.ones(2, 3, 4), torch.ones(4), out=torch.zeros(6)).shape' '[6]' '[2, 3]'
    warns_resize 'torch.matmul(torch.ones(4), torch.ones(2, 4, 5), out=torch.zeros(6)).shape' '[6]' '[2, 5]'
}

@test "out-1.2: matmul's out= of the right shape, or with no elements, is resized without a warning" {
    run --separate-stderr tsr_run -e $'o = torch.zeros(2, 3, 5)\nprint(torch.matmul(torch.ones(2, 3, 4), torch.ones(4, 5), out=o) is o)\ne = torch.zeros(0)\nprint(torch.matmul(torch.ones(3), torch.ones(3, 5), out=e) is e, e.shape)'
    assert_success
    assert_output $'True\nTrue torch.Size([5])'
    [ -z "$stderr" ]
}

@test "out-1.3: histc, special.ndtr, cumsum, sum and cat warn as resize_output does when they resize a non-empty out=" {
    warns_resize 'torch.histc(torch.tensor([1., 2, 3]), bins=4, out=torch.zeros(3))' '[3]' '[4]'
    warns_resize 'torch.special.ndtr(torch.tensor([0., 1]), out=torch.zeros(3))' '[3]' '[2]'
    warns_resize 'torch.cumsum(torch.ones(2), 0, out=torch.zeros(3))' '[3]' '[2]'
    warns_resize 'torch.sum(torch.ones(2, 2), 0, out=torch.zeros(3))' '[3]' '[2]'
    warns_resize 'torch.cat([torch.ones(2), torch.ones(1)], out=torch.zeros(2))' '[2]' '[3]'
}

@test "out-1.4: diff's out= warns when a second call resizes it" {
    warns_resize $'o = torch.empty(0)\ntorch.diff(torch.tensor([1., 4, 9, 16]), out=o)\ntorch.diff(torch.tensor([1., 4, 9, 16]), n=2, out=o)' '[3]' '[2]'
}

@test "out-1.5: out= of F.gelu, F.softplus, F.linear, F.avg_pool2d and torch.orgqr warns as resize_output; F.logsigmoid resizes without a warning" {
    warns_resize 'import torch.nn.functional as F; F.gelu(torch.ones(2, 3), approximate="tanh", out=torch.zeros(5)).shape' '[5]' '[2, 3]'
    warns_resize 'import torch.nn.functional as F; F.softplus(torch.ones(2, 3), out=torch.zeros(5)).shape' '[5]' '[2, 3]'
    warns_resize 'import torch.nn.functional as F; F.linear(torch.ones(2, 3), torch.ones(4, 3), torch.ones(4), out=torch.zeros(5)).shape' '[5]' '[2, 4]'
    warns_resize 'import torch.nn.functional as F; F.linear(torch.ones(3), torch.ones(4, 3), out=torch.zeros(2, 3)).shape' '[2, 3]' '[1, 4]'
    warns_resize 'import torch.nn.functional as F; F.avg_pool2d(torch.ones(1, 4, 4), 2, out=torch.zeros(5)).shape' '[5]' '[1, 2, 2]'
    warns_resize 'torch.orgqr(torch.eye(3), torch.zeros(2), out=torch.zeros(5)).shape' '[5]' '[3, 3]'
    run --separate-stderr tsr_run -e 'import torch.nn.functional as F; F.logsigmoid(torch.ones(2, 3), out=torch.zeros(5)).shape'
    assert_success
    assert_output 'torch.Size([2, 3])'
    [ -z "$stderr" ]
}
