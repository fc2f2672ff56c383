#!/usr/bin/env bats
# The elementwise ops on cuda (cuda/kern.h's kernels), tested without a GPU:
# TSR_CUDA=sim runs them in libtsr_cuda_sim.so over memory the host code
# cannot touch. The expected text (cuda_pointwise/*.out) is what PyTorch 1.13
# prints for the same statements on a GPU: cuda_pointwise/oracle.py runs them
# on the CPU and prints them with the device suffix; the values are exact or
# printed to 4 digits that a GPU's last-bit differences do not change.

load helpers

sim() {
    SO=$(dirname "$TSR")/libtsr_cuda_sim.so
    [ -f "$SO" ] || skip "no libtsr_cuda_sim.so beside $TSR"
    export TSR_CUDA=sim
}

script() {
    sim
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_pointwise/$1.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_pointwise/$1.out")"
}

@test "cuda-pointwise-1.1: binary ops: pow and its scalar forms, floor/trunc division, remainder, fmod, bitwise, shifts, logical, atan2..lcm, zeta, igamma(c), the orthogonal polynomials" {
    script binary
}

@test "cuda-pointwise-1.2: unary ops: float functions, sinc, entr, polygamma, ndtri, erfcx, log_ndtr, ndtr, angle, rounding, sign, predicates, nan_to_num, logit, round(decimals), in place" {
    script unary
}

@test "cuda-pointwise-1.3: where, clamp (scalar and tensor bounds), lerp, addcmul/addcdiv, masked_fill" {
    script ternary
}

@test "cuda-pointwise-1.4: a dtype the CUDA kernel does not take, and ops without a kernel, are refused" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going -e 'x = torch.ones(3, device="cuda")' \
        -e 'x & 1' -e 'x << 1' -e 'torch.gcd(x, x)' -e 'torch.ones(2, dtype=torch.bool, device="cuda") - True'
    assert_output "RuntimeError: \"bitwise_and_cuda\" not implemented for 'Float'
RuntimeError: \"lshift_cuda\" not implemented for 'Float'
RuntimeError: \"gcd_cuda\" not implemented for 'Float'
RuntimeError: Subtraction, the \`-\` operator, with two bool tensors is not supported. Use the \`^\` or \`logical_xor()\` operator instead."
    for e in 'torch.where(torch.ones(3, device="cuda") > 0)' 'torch.i0(torch.ones(3, device="cuda"))' \
             'torch.tensor([1j], device="cuda").log1p()'; do
        run --separate-stderr "$TSR" --brief-errors -e "$e"
        assert_failure 1
        assert_output --regexp "^NotImplementedError: Could not run 'aten::[a-z_.A-Z0-9]+' with arguments from the 'CUDA' backend\\."
    done
}

@test "cuda-pointwise-1.5: promotion, broadcasting, strided and zero-dim operands, out= and in-place forms, augmented operators" {
    script mixed
}

# The same scripts on a real GPU with libtsr_cuda.so (skipped without one):
# the device's own libm (a few ulp from the host's) gives the same 4 digits.
has_gpu() { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; }

@test "cuda-pointwise-2.1: the scripts of 1.1-1.5 on a GPU" {
    [ -f "$(dirname "$TSR")/libtsr_cuda.so" ] || skip "no libtsr_cuda.so beside $TSR"
    has_gpu || skip "no GPU on this machine"
    unset TSR_CUDA
    for f in binary unary ternary mixed; do
        run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_pointwise/$f.tsr"
        assert_success
        assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_pointwise/$f.out")"
    done
}

@test "cuda-pointwise-1.6: gcd in the dtype's width: abs of the most negative value stays negative, as calc_gcd's scalar_t arithmetic leaves it" {
    SO=$(dirname "$TSR")/libtsr_cuda_sim.so
    [ -f "$SO" ] || skip "no libtsr_cuda_sim.so beside $TSR"
    export TSR_CUDA=sim
    run --separate-stderr "$TSR" -e 'for dt in [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8]:
    lo = torch.iinfo(dt).min
    print(torch.gcd(torch.tensor([lo, 12, lo], dtype=dt, device="cuda"), torch.tensor([6, 18, 0], dtype=dt, device="cuda")))'
    assert_success
    assert_output "tensor([  -2,    6, -128], device='cuda:0', dtype=torch.int8)
tensor([    -2,      6, -32768], device='cuda:0', dtype=torch.int16)
tensor([         -2,           6, -2147483648], device='cuda:0',
       dtype=torch.int32)
tensor([                  -2,                    6, -9223372036854775808],
       device='cuda:0')
tensor([6, 6, 0], device='cuda:0', dtype=torch.uint8)"
}
