#!/usr/bin/env bats
# :grad EXPR and :explain y.backward() (src/cmd/grad.c): the graph drawn from
# the output back to the leaves, with saved shapes and the gradient through
# each node; .grad is left alone. Also the autograd errors of the call path.

load helpers

SETUP='x = torch.tensor([1., 2., 3.], requires_grad=True)
w = torch.tensor([0.5, -1., 2.], requires_grad=True)
y = (x * w).sum()
'

@test "grad-1.1: :grad draws every node back to the leaves with the gradients" {
    run --separate-stderr tsr_stdin "$SETUP:grad y"$'\n'
    assert_success
    assert_line --index 0 "the graph of y, from the output back to the leaves:"
    assert_line --index 1 "SumBackward0"
    assert_line --index 2 "   grad: tensor(1.)"
    assert_line --index 3 "   └─ MulBackward0  saved [3], [3]"
    assert_line --index 4 "      grad: tensor([1., 1., 1.])"
    assert_line --index 5 "      ├─ AccumulateGrad  leaf [3] float32"
    assert_line --index 6 "      │  grad: tensor([ 0.5000, -1.0000,  2.0000])"
    assert_line --index 7 "      └─ AccumulateGrad  leaf [3] float32"
    assert_line --index 8 "         grad: tensor([1., 2., 3.])"
}

@test "grad-1.2: :explain y.backward() draws the same graph" {
    run --separate-stderr tsr_stdin "$SETUP:explain y.backward()"$'\n'
    assert_success
    assert_line --index 1 "SumBackward0"
    assert_line --index 3 "   └─ MulBackward0  saved [3], [3]"
}

@test "grad-1.3: :grad leaves .grad untouched and keeps the graph" {
    run --separate-stderr tsr_stdin "$SETUP:grad y"$'\n'"x.grad is None"$'\n'"y.backward()"$'\n'"x.grad"$'\n'
    assert_success
    assert_line "True"
    assert_line "tensor([ 0.5000, -1.0000,  2.0000])"
}

@test "grad-1.4: a shared node is drawn once" {
    run --separate-stderr tsr_stdin "a = torch.tensor(2., requires_grad=True)"$'\n'"b = a * a"$'\n'"c = b + b"$'\n'":grad c"$'\n'
    assert_success
    assert_output --partial "(drawn above)"
}

@test "grad-1.5: :grad of a non-tensor or a tensor outside a graph" {
    run --separate-stderr tsr_stdin ":grad 3"$'\n'":grad torch.ones(1)"$'\n'
    use_stderr
    assert_output --partial "TypeError: :grad needs a tensor, not int"
    assert_output --partial "element 0 of tensors does not require grad and does not have a grad_fn"
}

@test "grad-2.1: an op without a derivative refuses rather than dropping the graph" {
    run --separate-stderr tsr_stdin "x = torch.tensor([3., 1., 2.], requires_grad=True)"$'\n'"torch.special.erfcx(x)"$'\n'
    use_stderr
    assert_output --partial "NotImplementedError: the derivative for 'erfcx' is not implemented."
}

@test "grad-2.2: a hook that raises stops the backward with its own exception" {
    run --separate-stderr tsr_stdin "x = torch.tensor([1.], requires_grad=True)"$'\n'"def bad(g):"$'\n'"    raise ValueError('no')"$'\n'$'\n'"x.register_hook(bad);"$'\n'"(x * 2).sum().backward()"$'\n'"x.grad is None"$'\n'
    assert_output --partial "True"
    use_stderr
    assert_output --partial "ValueError: no"
}

@test "grad-3.1: create_graph through a node tsr cannot record refuses by name, never a cut gradient" {
    run --separate-stderr tsr_stdin "x = torch.randn(5, 2, 4).log_softmax(2).detach().requires_grad_()"$'\n'"y = torch.nn.functional.ctc_loss(x, torch.tensor([[1, 2], [1, 1]]), [5, 4], [2, 1])"$'\n'"g, = torch.autograd.grad(y, x, create_graph=True)"$'\n'"g is None"$'\n'
    use_stderr
    assert_output --partial "NotImplementedError: the derivative of CtcLossBackward0 (a higher-order gradient, create_graph=True) is not implemented."
}

@test "grad-3.2: create_graph through a node whose inputs need no graph still answers" {
    run --separate-stderr tsr_stdin "x = torch.tensor([1., 2.], requires_grad=True)"$'\n'"w = torch.tensor([[1., 0.], [0., 2.]])"$'\n'"g, = torch.autograd.grad((x.exp() @ w).sum(), x, create_graph=True)"$'\n'"g"$'\n'"torch.autograd.grad(g.sum(), x)"$'\n'
    assert_success
    assert_line "tensor([ 2.7183, 14.7781], grad_fn=<MulBackward0>)"
    assert_line "(tensor([ 2.7183, 14.7781]),)"
}

@test "grad-3.3: backward(create_graph=True) warns of the reference cycle, as 1.13 does; PYTHONWARNINGS=ignore silences it" {
    run --separate-stderr tsr_stdin "x = torch.tensor([1., 2.], requires_grad=True)"$'\n'"(x ** 3).sum().backward(create_graph=True)"$'\n'"x.grad"$'\n'"x.grad = None"$'\n'
    assert_success
    assert_line "tensor([ 3., 12.], grad_fn=<CopyBackwards>)"
    use_stderr
    assert_output --partial "UserWarning: Using backward() with create_graph=True will create a reference cycle"
    PYTHONWARNINGS=ignore run --separate-stderr tsr_stdin "x = torch.tensor([1., 2.], requires_grad=True)"$'\n'"(x ** 3).sum().backward(create_graph=True)"$'\n'
    use_stderr
    refute_output --partial "UserWarning"
}
