#!/usr/bin/env bats
# Reductions on cuda (sum, nansum, mean, nanmean, prod, amax/amin, aminmax,
# max/min, argmax/argmin, all/any, count_nonzero, var/std, norms), tested without a GPU: TSR_CUDA=sim runs the
# backend's reduce kernels (cuda/reduce.h) over memory the host's code
# cannot touch. Expected text: PyTorch 1.13 on the CPU for the same
# statements, printed as for tensors on cuda:0 (cuda_reduce/oracle.py), for
# values a GPU computes alike whatever its summation order (integers,
# halves, or printed to 4 digits).

load helpers

sim() {
    SO=$(dirname "$TSR")/libtsr_cuda_sim.so
    [ -f "$SO" ] || skip "no libtsr_cuda_sim.so beside $TSR"
    export TSR_CUDA=sim
}

@test "cuda-reduce-1.1: sum, mean, prod, extremes, all/any, count_nonzero: dims, keepdim, dtypes, views, NaN, ties, two passes" {
    sim
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_reduce/reduce.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_reduce/reduce.out")"
}

@test "cuda-reduce-1.2: out= on cuda, and results used on the device and copied back" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going \
        -e 'x = torch.arange(6., device="cuda").reshape(2, 3); o = torch.empty(3, device="cuda")' \
        -e 'torch.sum(x, 0, out=o); o' \
        -e 'oo = torch.zeros(2, 3, device="cuda").t(); torch.amax(x.t(), 1, keepdim=True, out=oo[:, :1]); oo' \
        -e 'v = torch.empty(2, device="cuda"); i = torch.empty(2, dtype=torch.long, device="cuda"); torch.max(x, 1, out=(v, i)); v, i' \
        -e '(x - x.mean(1, keepdim=True)).cpu(), x.sum().item(), x.argmax(1).tolist()'
    assert_success
    assert_output "tensor([3., 5., 7.], device='cuda:0')
tensor([[3., 0.],
        [4., 0.],
        [5., 0.]], device='cuda:0')
(tensor([2., 5.], device='cuda:0'), tensor([2, 2], device='cuda:0'))
(tensor([[-1.,  0.,  1.],
        [-1.,  0.,  1.]]), 15.0, [2, 2])"
}

@test "cuda-reduce-1.3: errors as the CPU's, in the device's kernel names" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going \
        -e 'torch.ones(3, dtype=torch.int64, device="cuda").mean()' -e 'torch.zeros(0, device="cuda").max()' \
        -e 'torch.ones(2, dtype=torch.bool, device="cuda").argmax()' \
        -e 'torch.ones(2, dtype=torch.complex64, device="cuda").amax()' \
        -e 'torch.zeros(0, 3, device="cuda").amax(0)' -e 'torch.ones(2, 3, device="cuda").sum(2)' \
        -e 'torch.ones(2, 3, device="cuda").sum((1, -1))' -e 'torch.ones(3, dtype=torch.int32, device="cuda").var()' \
        -e 'torch.ones(3, dtype=torch.int32, device="cuda").norm()' \
        -e 'torch.linalg.vector_norm(torch.zeros(0, device="cuda"), float("inf"))' \
        -e 'torch.ones(2, dtype=torch.complex64, device="cuda").aminmax()' \
        -e 'torch.ones(2, 2, dtype=torch.complex64, device="cuda").aminmax(dim=0)' \
        -e 'torch.ones(2, dtype=torch.int64, device="cuda").nanmean()'
    assert_output "RuntimeError: mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long
RuntimeError: max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.
RuntimeError: \"argmax_cuda\" not implemented for 'Bool'
RuntimeError: \"max_values_cuda\" not implemented for 'ComplexFloat'
IndexError: amax(): Expected reduction dim 0 to have non-zero size.
IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 2)
RuntimeError: dim 1 appears multiple times in the list of dims
RuntimeError: std and var only support floating point and complex dtypes
RuntimeError: norm(): input dtype should be either floating point or complex. Got Int instead.
RuntimeError: linalg.vector_norm cannot compute the inf norm on an empty tensor because the operation does not have an identity
RuntimeError: \"aminmax_all_cuda\" not implemented for 'ComplexFloat'
RuntimeError: \"aminmax_cuda\" not implemented for 'ComplexFloat'
RuntimeError: nanmean(): expected input to have floating point dtype but got Long"
}

@test "cuda-reduce-1.4: what has no device path yet refuses with the dispatcher's error" {
    sim
    for e in 'torch.ones(3, device="cuda").renorm(2, 0, 1)' \
             'torch.ones(3, dtype=torch.complex32, device="cuda").sum()' 'torch.ones(3, device="cuda").logsumexp(0)' \
             'torch.ones(3, dtype=torch.complex32, device="cuda").var()' \
             'torch.sum(torch.ones(3, device="cuda"), 0, out=torch.empty(()))'; do
        run --separate-stderr "$TSR" --brief-errors -e "$e"
        assert_failure 1
        assert_output --regexp "^NotImplementedError: Could not run 'aten::[a-z_.A-Z]+' with arguments from the 'CUDA' backend\\."
    done
}

@test "cuda-reduce-1.5: var/std and their _mean forms (Welford), vector and matrix norms (p 0, 1, 2, inf, -inf, other)" {
    sim
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_reduce/moments.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_reduce/moments.out")"
}

@test "cuda-reduce-1.6: backward through the reductions keeps gradients on cuda, max/min(dim)'s scatter included" {
    sim
    run --separate-stderr "$TSR" --brief-errors -e 'torch.ones(1, device="cuda", requires_grad=True).sum().backward()'
    [[ "$output" != *"aten::backward"* ]] || skip "the gate refuses Tensor.backward on cuda in this tree"
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_reduce/backward.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_reduce/backward.out")"
    run --separate-stderr "$TSR" --brief-errors \
        -e 'x = torch.tensor([[1., 5.], [3., 2.]], device="cuda", requires_grad=True)' -e 'x.min(1).values.sum().backward()' \
        -e 'x.grad' -e 'x.grad = None' -e 'torch.max(x, 0)[0].sum().backward()' -e 'x.grad'
    assert_success
    assert_output "tensor([[1., 0.],
        [0., 1.]], device='cuda:0')
tensor([[0., 1.],
        [1., 0.]], device='cuda:0')"
}
