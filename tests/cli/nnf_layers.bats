#!/usr/bin/env bats
# torch.nn.functional's layers (conv, pooling, normalization) from the
# command line: the graphs they record (the inputs of layers without a
# backward formula are refused), 1.13's once-only warning of padding='same',
# and batch_norm's in-place update of the running statistics.

load helpers

@test "nnf-layers-1.1: the layers without a derivative refuse inputs that need a graph (conv records one), and compute under no_grad" {
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nx = torch.ones(1, 1, 4, 4, requires_grad=True)\nprint(F.conv2d(x, torch.ones(1, 1, 2, 2)).grad_fn.name())'
    assert_success
    assert_output 'ConvolutionBackward0'
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nx = torch.ones(1, 1, 4, 4, requires_grad=True)\nF.local_response_norm(x, 2)'
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"NotImplementedError: the derivative for 'local_response_norm' is not implemented."* ]]
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nx = torch.ones(2, 3, requires_grad=True)\nF.alpha_dropout(x, 0.5, True)'
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"NotImplementedError: the derivative for 'alpha_dropout' is not implemented."* ]]
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nx = torch.ones(1, 1, 4, 4, requires_grad=True)\nwith torch.no_grad():\n    print(F.avg_pool2d(x, 2).sum(), F.conv2d(x, torch.ones(1, 1, 2, 2)).sum())'
    assert_success
    assert_output 'tensor(4.) tensor(36.)'
}

@test "nnf-layers-1.2: padding='same' with an even kernel warns once, as 1.13's TORCH_WARN_ONCE" {
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nw = torch.ones(1, 1, 2)\nprint(F.conv1d(torch.ones(1, 1, 4), w, padding="same"))\nprint(F.conv1d(torch.ones(1, 1, 3), w, padding="same"))'
    assert_success
    assert_output $'tensor([[[2., 2., 2., 1.]]])\ntensor([[[2., 2., 1.]]])'
    [ "$stderr" = "UserWarning: Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy of the input be created" ]
}

@test "nnf-layers-1.4: asymmetric 'same' padding is a zero pad on the right then symmetric padding, as convolution_same" {
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\ntorch.manual_seed(3);\nx = torch.randn(1, 2, 5, 6, dtype=torch.float64)\nw = torch.randn(3, 2, 4, 2, dtype=torch.float64)\nprint(torch.equal(F.conv2d(x, w, padding="same"), F.conv2d(F.pad(x, (0, 1, 1, 2)), w)), F.conv2d(x, w, padding="same").shape)'
    assert_success
    assert_output 'True torch.Size([1, 3, 5, 6])'
}

@test "nnf-layers-1.3: batch_norm in training updates running_mean and running_var in place" {
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nrm = torch.zeros(2)\nrv = torch.ones(2)\nv = rm._version\nF.batch_norm(torch.tensor([[1., 2.], [3., 6.]]), rm, rv, training=True);\nprint(rm, rv, rm._version > v)'
    assert_success
    assert_output 'tensor([0.2000, 0.4000]) tensor([1.1000, 1.7000]) True'
}

@test "nnf-layers-1.5: pooling, layer_norm, batch_norm and reflect/replicate/circular pads record graphs" {
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nx = torch.ones(1, 1, 4, 4, requires_grad=True)\nprint(F.max_pool2d(x, 2).grad_fn.name(), F.layer_norm(x, (4,)).grad_fn.name(), F.batch_norm(x, None, None, training=True).grad_fn.name(), F.pad(x, (1, 1, 1, 1), mode="reflect").grad_fn.name())'
    assert_success
    assert_output 'MaxPool2DWithIndicesBackward0 NativeLayerNormBackward0 NativeBatchNormBackward0 ReflectionPad2DBackward0'
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nx = torch.ones(1, 1, 4, requires_grad=True)\ny = F.pad(x, (1, 1), mode="circular")\ny.backward(torch.arange(6.).view(1, 1, 6))\nprint(y.grad_fn.name(), x.grad)'
    assert_success
    assert_output 'torch::autograd::CopySlices tensor([[[6., 2., 3., 4.]]])'
}

@test "nnf-layers-1.6: group_norm and bilinear record 1.13's nodes and backpropagate" {
    run --separate-stderr tsr_run -e $'import torch.nn.functional as F\nx = torch.ones(2, 4, 3, requires_grad=True)\nw = torch.ones(4, requires_grad=True)\ny = F.group_norm(x, 2, w)\ny.sum().backward()\nb = F.bilinear(torch.ones(2, 3, requires_grad=True), torch.ones(2, 2), torch.ones(1, 3, 2))\nprint(y.grad_fn.name(), w.grad, b.grad_fn.next_functions[0][0].name())'
    assert_success
    assert_output 'NativeGroupNormBackward0 tensor([0., 0., 0., 0.]) TrilinearBackward0'
}
