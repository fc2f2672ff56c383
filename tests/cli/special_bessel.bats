#!/usr/bin/env bats
# torch.special's Bessel family as a user calls it: listed, computed, and
# named in errors the way 1.13 names them.

load helpers

@test "bessel-1.1: --list-functions lists the 16 Bessel-family functions and torch.i0's forms" {
    run --separate-stderr tsr_run --list-functions
    assert_success
    for f in airy_ai bessel_j0 bessel_j1 bessel_y0 bessel_y1 i0 i0e i1 i1e modified_bessel_i0 modified_bessel_i1 \
             modified_bessel_k0 modified_bessel_k1 scaled_modified_bessel_k0 scaled_modified_bessel_k1 spherical_bessel_j0; do
        assert_line "torch.special.$f"
    done
    assert_line "torch.i0"
    assert_line "Tensor.i0"
    assert_line "Tensor.i0_"
    refute_line "Tensor.i1"
}

@test "bessel-1.2: an int64 input computes in float32; out= of int64 is refused" {
    run --separate-stderr tsr_run --brief-errors --keep-going -e $'torch.special.bessel_j0(torch.tensor([0, 1]))\ntorch.special.i1(torch.tensor([1]), out=torch.empty(1, dtype=torch.int64))'
    assert_line --index 0 "tensor([1.0000, 0.7652])"
    assert_line --index 1 "RuntimeError: result type Float can't be cast to the desired output type Long"
}

@test "bessel-1.3: argument errors name torch.special's functions special_NAME" {
    run --separate-stderr tsr_run --brief-errors -e 'torch.special.airy_ai(1.0)'
    assert_failure
    assert_output "TypeError: special_airy_ai(): argument 'x' (position 1) must be Tensor, not float"
}

@test "bessel-1.4: float16 has no kernel: 1.13's message names the kernel" {
    run --separate-stderr tsr_run --brief-errors -e 'torch.special.i0e(torch.ones(1, dtype=torch.float16))'
    assert_failure
    assert_output "RuntimeError: \"i0e_cpu\" not implemented for 'Half'"
}
