#!/usr/bin/env bats
# torch.nn.functional on cuda (softmax family, activations, losses,
# normalisation), tested without a GPU: TSR_CUDA=sim runs the compositions of
# device-aware ops (runtime/ops/nn_dev.c) over memory the host's code cannot
# touch. Expected text: PyTorch 1.13 on the CPU for the same statements,
# printed as for tensors on cuda:0 (cuda_nn/oracle.py), for values a GPU
# computes alike (exact, or printed to 4 digits); hand-written where the CPU
# has no kernel (float16) or names its kernel otherwise.

load helpers

sim() {
    SO=$(dirname "$TSR")/libtsr_cuda_sim.so
    [ -f "$SO" ] || skip "no libtsr_cuda_sim.so beside $TSR"
    export TSR_CUDA=sim
}

# runs cuda_nn/NAME.tsr and compares with cuda_nn/NAME.out
script() {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going "$BATS_TEST_DIRNAME/cuda_nn/$1.tsr"
    [ "$status" -le 1 ]   # 1: a line raised, as its expected text says
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_nn/$1.out")"
}

@test "cuda-nn-1.1: softmax, log_softmax, softmin: dims, dtype=, views, -inf, empty, bfloat16, backward" {
    script softmax
}

@test "cuda-nn-1.2: softmax on float16 (CUDA has the kernel, the CPU has not) and the device's kernel name in errors" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going \
        -e 'x = torch.tensor([[1., 2., 3.], [4., 5., 7.]], device="cuda").half()' -e 'x.softmax(1)' \
        -e 'x.log_softmax(0)' -e 'x.softmax(1, dtype=torch.float32)' \
        -e 'torch.ones(3, dtype=torch.int64, device="cuda").softmax(0)'
    assert_output "tensor([[0.0900, 0.2448, 0.6650],
        [0.0420, 0.1142, 0.8438]], device='cuda:0', dtype=torch.float16)
tensor([[-3.0488, -3.0488, -4.0195],
        [-0.0486, -0.0486, -0.0181]], device='cuda:0', dtype=torch.float16)
tensor([[0.0900, 0.2447, 0.6652],
        [0.0420, 0.1142, 0.8438]], device='cuda:0')
RuntimeError: \"host_softmax\" not implemented for 'Long'"
}

@test "cuda-nn-2.1: activations: functions, methods, in-place forms, parameters, views, integer inputs" {
    script act
}

@test "cuda-nn-2.2: activations' backward on cuda (and through in-place forms)" {
    script act_grad
}

@test "cuda-nn-2.3: float16 and bfloat16 activations and softmax compute in float and round once, forward and backward" {
    script lowp
}

@test "cuda-nn-2.4: activations' errors name CUDA's kernels; rrelu's training noise (the CPU's generator) is refused" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going -e 'x = torch.tensor([-1, 2], device="cuda")' \
        -e 'torch.nn.functional.gelu(x)' -e 'torch.nn.functional.silu(x)' -e 'torch.nn.functional.leaky_relu(x)' \
        -e 'torch.nn.functional.softshrink(x.float(), -1.)' -e 'torch.nn.functional.threshold(x.bool(), 0, 1)' \
        -e 'torch.nn.functional.glu(x.float()[:1])' -e 'torch.nn.functional.rrelu(x.float(), training=True)'
    assert_failure 1
    assert_line --index 0 "RuntimeError: \"GeluCUDAKernelImpl\" not implemented for 'Long'"
    assert_line --index 1 "RuntimeError: \"silu_cuda\" not implemented for 'Long'"
    assert_line --index 2 "RuntimeError: \"leaky_relu_cuda\" not implemented for 'Long'"
    assert_line --index 3 "RuntimeError: lambda must be greater or equal to 0, but found to be -1."
    assert_line --index 4 "RuntimeError: \"threshold_cuda\" not implemented for 'Bool'"
    assert_line --index 5 "RuntimeError: Halving dimension must be even, but dimension 0 is size 1"
    assert_line --index 6 --regexp "^NotImplementedError: Could not run 'aten::rrelu_with_noise' with arguments from the 'CUDA' backend\\."
}

@test "cuda-nn-3.1: losses: reductions, weights, ignore_index, label smoothing, class probabilities, spatial targets" {
    script loss
}

@test "cuda-nn-3.2: losses' backward on cuda" {
    script loss_grad
}

@test "cuda-nn-3.3: float16 and bfloat16 losses (CUDA's kernels; the CPU has few)" {
    script loss_lowp
}

@test "cuda-nn-3.4: a target out of range and an input outside [0, 1] raise (1.13's CUDA asserts on the device), never crash" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going \
        -e 'lg = torch.zeros(3, 4, device="cuda")' -e 'torch.nn.functional.nll_loss(lg, torch.tensor([1, 2, 4], device="cuda"))' \
        -e 'torch.nn.functional.cross_entropy(lg, torch.tensor([1, -3, 0], device="cuda"), reduction="none")' \
        -e 'torch.nn.functional.binary_cross_entropy(torch.tensor([0.5, 1.5], device="cuda"), torch.ones(2, device="cuda"))' \
        -e 'torch.nn.functional.nll_loss(lg, torch.tensor([1, 2], device="cuda"))'
    assert_failure 1
    assert_output "IndexError: Target 4 is out of bounds.
IndexError: Target -3 is out of bounds.
RuntimeError: all elements of input should be between 0 and 1
ValueError: Expected input batch_size (3) to match target batch_size (2)."
}

@test "cuda-nn-4.1: layer, group, batch and instance norm on cuda: affine, eval, running stats updated on the device, layouts" {
    script norm
}

@test "cuda-nn-4.2: normalisation, distances, embedding and dropout's backward on cuda" {
    script norm_grad
}

@test "cuda-nn-4.3: normalize, cosine_similarity, pairwise_distance, embedding, one_hot, dropout in evaluation" {
    script misc
}

@test "cuda-nn-4.4: dropout in training draws from the CUDA generator (bernoulli_): the feature and alpha forms as 1.13's _dropout_impl, the mask shared by the backward" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going -e 'F = torch.nn.functional' \
        -e 'torch.manual_seed(5); a = F.dropout2d(torch.ones(3, 4, 1, device="cuda"), 0.5); torch.manual_seed(5); b = torch.empty(3, 4, 1, device="cuda").bernoulli_(0.5).div_(0.5); bool((a == b).all())' \
        -e 'torch.manual_seed(2); a = F.alpha_dropout(torch.ones(6, device="cuda"), 0.5, True); torch.manual_seed(2); m = torch.empty(6, device="cuda").bernoulli_(0.5); bool(((m == 1) == (a > 0)).all())' \
        -e 'torch.manual_seed(3); a = F.feature_alpha_dropout(torch.ones(2, 5, 3, device="cuda"), 0.5, True); torch.manual_seed(3); m = torch.empty(2, 5, 1, device="cuda").bernoulli_(0.5); bool(((m == 1) == (a > 0)).all())' \
        -e 'torch.manual_seed(5); a = F.dropout(torch.ones(1000, device="cuda"), 0.25); bool(((a == 0) | (a == 4. / 3)).all()), 150 < int((a == 0).sum()) < 350, a.device' \
        -e 'x = torch.ones(4, device="cuda", requires_grad=True); torch.manual_seed(1); y = F.dropout(x, 0.5); y.sum().backward(); bool((x.grad == y.detach()).all())'
    assert_success
    assert_output "True
True
True
(True, True, device(type='cuda', index=0))
True"
}

@test "cuda-nn-4.6: gumbel_softmax draws its noise on cuda (exponential_), the hard form one-hot rows" {
    sim
    run --separate-stderr "$TSR" --brief-errors \
        -e 'torch.manual_seed(0); g = torch.nn.functional.gumbel_softmax(torch.tensor([[1., 2., 3.], [0., 0., 5.]], device="cuda"), tau=0.5, hard=True); g.sum(1), ((g == 0) | (g == 1)).all(), g.device'
    assert_success
    assert_output "(tensor([1., 1.], device='cuda:0'), tensor(True, device='cuda:0'), device(type='cuda', index=0))"
}

@test "cuda-nn-4.5: what stays on the host refuses: embedding's max_norm renorm and sparse gradient, rrelu's training noise" {
    sim
    for e in 'torch.nn.functional.embedding(torch.tensor([0], device="cuda"), torch.ones(2, 2, device="cuda"), max_norm=1.)' \
             'w = torch.ones(2, 2, device="cuda", requires_grad=True); torch.nn.functional.embedding(torch.tensor([0], device="cuda"), w, sparse=True).sum().backward()'; do
        run --separate-stderr "$TSR" --brief-errors -e "$e"
        assert_failure 1
        assert_output --regexp "^NotImplementedError: Could not run 'aten::embedding_(renorm_|sparse_backward)' with arguments from the 'CUDA' backend\\."
    done
}

@test "cuda-nn-4.7: second derivatives whose formulas make ones or zeros make them on the gradient's device (glu, huber, soft margin)" {
    script dbl_grad
}
