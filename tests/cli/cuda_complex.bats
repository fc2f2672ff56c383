#!/usr/bin/env bats
# Complex tensors on cuda (cuda/complex.h's kernels, conj/neg views resolved
# on the device, complex sums and norms, cuBLAS's complex products), tested
# without a GPU: TSR_CUDA=sim runs them in libtsr_cuda_sim.so over memory the
# host code cannot touch. The expected text (cuda_complex/*.out) is what
# PyTorch 1.13 prints for the same statements on a GPU: cuda_pointwise/oracle.py
# runs them on the CPU and prints them with the device suffix; the values are
# exact or printed to 4 digits that a GPU's last-bit differences do not change.

load helpers

sim() {
    SO=$(dirname "$TSR")/libtsr_cuda_sim.so
    [ -f "$SO" ] || skip "no libtsr_cuda_sim.so beside $TSR"
    export TSR_CUDA=sim
}

script() {
    sim
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_complex/$1.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_complex/$1.out")"
}

@test "cuda-complex-1.1: complex64/complex128 arithmetic (alpha, mixed dtypes, scalars), abs, angle, sgn, reciprocal, exp/log family, sqrt/rsqrt, trig and inverse, sigmoid, pow forms, comparisons, predicates, where, masked_fill, addcmul/addcdiv, lerp, in place, casts" {
    script elementwise
}

@test "cuda-complex-1.2: conj and neg views on cuda: resolve_conj/resolve_neg, conj_physical(_), ops reading and writing conjugated tensors, view_as_real/complex, complex(), polar, vdot, adjoint and conjugated products" {
    script views
}

@test "cuda-complex-1.3: complex sum and mean, norms of complex tensors, the matmul family with complex dtypes" {
    script reduce
}

@test "cuda-complex-1.4: backward through complex ops computes on cuda" {
    script grad
}

@test "cuda-complex-1.5: complex32: copies, casts, add, mul, neg, comparisons, where, conj_physical" {
    script complex32
}

@test "cuda-complex-1.6: isclose and allclose (equal_nan, rtol, atol; complex, float, integer) compose device ops" {
    script isclose
}

@test "cuda-complex-1.7: what has no complex kernel on cuda yet is refused, never computed on the host" {
    sim
    for e in 'a.log1p()' 'a.expm1()' 'h / h' 'h.exp()' 'h.prod()' 'h.all()' 'h.sum()'; do
        run --separate-stderr "$TSR" --brief-errors -e 'a = torch.tensor([1+2j, 3-1j], device="cuda")' \
            -e 'h = a.to(torch.complex32)' -e "$e"
        assert_failure 1
        assert_output --regexp "^NotImplementedError: Could not run 'aten::[a-z_.A-Z0-9]+' with arguments from the 'CUDA' backend\\."
    done
}

@test "cuda-complex-1.8: complex var/std/var_mean/std_mean (the parts' variances) and prod (pairwise products), the input left as it was" {
    script moments
}

@test "cuda-complex-1.9: complex beside other dtypes: out=, promotion, indexing, joins, item and tolist" {
    script mixed
}

@test "cuda-complex-1.10: z ** 0 and z ** 1 are pow_Tensor_Scalar_out's fill_(1) and copy_(base) on cuda too (NaN ** 0 is 1)" {
    sim
    run --separate-stderr "$TSR" -e 'z = torch.tensor([1+2j, -3j, 2.5, complex("nan")], device="cuda")' \
        -e 'print(z ** 1); print(z ** 0); w = z.clone(); w.pow_(0); print(w)' \
        -e 'print(torch.tensor([float("nan"), 2.0], device="cuda") ** 0)'
    assert_success
    assert_output "tensor([1.0000+2.j, -0.0000-3.j, 2.5000+0.j,    nan+0.j], device='cuda:0')
tensor([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j], device='cuda:0')
tensor([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j], device='cuda:0')
tensor([1., 1.], device='cuda:0')"
}
