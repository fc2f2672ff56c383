#!/usr/bin/env bats
# The 3-d convolutions and conv_tbc from the command line: values, the
# ConvolutionBackward0 / ConvTbcBackward0 nodes and their gradients, and a
# shape error reaching stderr with exit status 1.

load helpers

@test "nnf-conv3d-1.1: conv3d of ones sums each window; the gradient flows back through ConvolutionBackward0" {
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nx = torch.ones(1, 1, 3, 3, 3, dtype=torch.float64, requires_grad=True)\nw = torch.ones(1, 1, 2, 2, 2, dtype=torch.float64, requires_grad=True)\no = F.conv3d(x, w)\nprint(o.flatten().tolist(), o.grad_fn.name())\no.sum().backward()\nprint(x.grad[0, 0, 0].tolist(), w.grad.flatten().tolist())'
    assert_success
    assert_output $'[8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0] ConvolutionBackward0\n[[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]] [8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0]'
}

@test "nnf-conv3d-1.2: conv_transpose3d spreads each input over the kernel; conv_tbc records ConvTbcBackward0" {
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nprint(F.conv_transpose3d(torch.ones(1, 1, 1, 1, 2), torch.ones(1, 1, 1, 1, 2)).flatten().tolist())\nx = torch.ones(3, 1, 2, requires_grad=True)\no = torch.conv_tbc(x, torch.ones(2, 2, 1), torch.zeros(1), 1)\nprint(o.flatten().tolist(), o.grad_fn.name())'
    assert_success
    assert_output $'[1.0, 2.0, 1.0]\n[2.0, 4.0, 4.0, 2.0] ConvTbcBackward0'
}

@test "nnf-conv3d-1.3: a weight with the wrong channel count fails with 1.13's message" {
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nF.conv3d(torch.ones(1, 2, 3, 3, 3), torch.ones(1, 1, 2, 2, 2))'
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"RuntimeError: Given groups=1, weight of size [1, 1, 2, 2, 2], expected input[1, 2, 3, 3, 3] to have 1 channels, but got 2 channels instead"* ]]
}
