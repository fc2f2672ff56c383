#!/usr/bin/env bats
# torch.nn.functional's 3-D pooling, unpooling and lp pooling from the
# command line: a pool / unpool round trip with its graph, and the
# runtime's refusals reaching stderr with exit status 1.

load helpers

@test "nnf-pool3d-1.1: max_pool3d then max_unpool3d round-trips the maxima and backpropagates through both nodes" {
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nx = torch.arange(8.0).reshape(1, 1, 2, 2, 2).requires_grad_()\no, i = F.max_pool3d(x, 2, return_indices=True)\nu = F.max_unpool3d(o, i, 2)\nprint(u.flatten().tolist(), u.grad_fn.name(), o.grad_fn.name())\nu.sum().backward()\nprint(x.grad.flatten().tolist())'
    assert_success
    assert_output $'[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 7.0] MaxUnpool3DBackward0 MaxPool3DWithIndicesBackward0\n[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]'
}

@test "nnf-pool3d-1.2: lp_pool2d composes pow, avg_pool2d and the sign/relu/abs product as 1.13's Python does" {
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nprint(F.lp_pool2d(torch.full((1, 1, 2, 2), 3.0), 2, 2))'
    assert_success
    assert_output 'tensor([[[[6.]]]])'
}

@test "nnf-pool3d-1.3: an out-of-range unpooling index and a bfloat16 max_pool3d fail with 1.13's messages" {
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nF.max_unpool2d(torch.ones(1, 1, 1, 1), torch.tensor([[[[9]]]]), 2)'
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"RuntimeError: Found an invalid max index: 9 (output volumes are of size 2x2"* ]]
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nF.max_pool3d(torch.ones(1, 2, 2, 2, dtype=torch.bfloat16), 2)'
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"\"max_pool3d_with_indices_cpu\" not implemented for 'BFloat16'"* ]]
}

@test "nnf-pool3d-2.1: avg_pool3d and adaptive_avg_pool3d average their windows and record AvgPool3DBackward0 / AdaptiveAvgPool3DBackward0" {
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nx = torch.arange(8.0).reshape(1, 1, 2, 2, 2).requires_grad_()\na = F.avg_pool3d(x, 2)\nb = F.adaptive_avg_pool3d(x, (2, 1, 1))\nprint(a.flatten().tolist(), b.flatten().tolist(), a.grad_fn.name(), b.grad_fn.name())\n(a.sum() + b.sum()).backward()\nprint(x.grad.flatten().tolist())'
    assert_success
    assert_output $'[3.5] [1.5, 5.5] AvgPool3DBackward0 AdaptiveAvgPool3DBackward0\n[0.375, 0.375, 0.375, 0.375, 0.375, 0.375, 0.375, 0.375]'
}

@test "nnf-pool3d-2.2: fractional_max_pool2d with given samples returns the maxima and their indices; an int64 input fails as 1.13's dispatch" {
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nx = torch.arange(16.0).reshape(1, 1, 4, 4)\no, i = F.fractional_max_pool2d(x, 2, output_size=2, return_indices=True, _random_samples=torch.full((1, 1, 2), 0.5))\nprint(o.flatten().tolist(), i.flatten().tolist())'
    assert_success
    assert_output '[5.0, 7.0, 13.0, 15.0] [5, 7, 13, 15]'
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nF.fractional_max_pool3d(torch.ones(1, 1, 4, 4, 4, dtype=torch.int64), 2, output_size=2, _random_samples=torch.ones(1, 1, 3, dtype=torch.int64))'
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"\"fractional_max_pool3d_out_frame\" not implemented for 'Long'"* ]]
}
