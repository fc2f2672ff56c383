#!/usr/bin/env bats
# :grad through F.conv1d / F.conv2d (ConvolutionBackward0 with its saved
# input and weight shapes and the gradients of input, weight and bias).

load helpers

SETUP='import torch.nn.functional as F
x = torch.ones(1, 2, 3, requires_grad=True)
w = torch.ones(2, 2, 2, requires_grad=True)
b = torch.zeros(2, requires_grad=True)
y = F.conv1d(x, w, b, padding=1).sum()
'

@test "grad-conv-1.1: :grad draws ConvolutionBackward0 with its three edges" {
    run --separate-stderr tsr_stdin "$SETUP:grad y"$'\n'
    assert_success
    assert_line --index 1 "SumBackward0"
    assert_line --index 3 "   └─ ConvolutionBackward0  saved [1, 2, 3], [2, 2, 2]"
    assert_line --index 6 "      ├─ AccumulateGrad  leaf [1, 2, 3] float32"
    assert_line --index 7 "      │  grad: tensor([[[4., 4., 4.],"
    assert_line "      └─ AccumulateGrad  leaf [2] float32"
    assert_line "         grad: tensor([4., 4.])"
}

@test "grad-conv-1.2: a conv2d of an unbatched input shows the batchify nodes" {
    run --separate-stderr tsr_stdin $'import torch.nn.functional as F\nx = torch.ones(2, 3, 3, requires_grad=True)\n:grad F.conv2d(x, torch.ones(1, 2, 2, 2)).sum()\n'
    assert_success
    assert_line --index 3 "   └─ SqueezeBackward1"
    assert_line --partial "ConvolutionBackward0  saved [1, 2, 3, 3], [1, 2, 2, 2]"
    assert_line --partial "UnsqueezeBackward0"
}
