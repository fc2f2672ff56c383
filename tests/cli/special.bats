#!/usr/bin/env bats
# torch.special and its torch / Tensor forms as a user meets them: the
# listing, the parser's names in messages, out= warnings on stderr.

load helpers

@test "special-1.1: --list-functions lists the torch.special functions and their torch/Tensor forms" {
    run --separate-stderr tsr_run --list-functions
    assert_success
    for f in expit exp2 expm1 log1p erf erfc erfinv gammaln digamma psi round logit sinc erfcx ndtr ndtri \
             log_ndtr entr xlogy xlog1py zeta polygamma multigammaln gammainc gammaincc \
             chebyshev_polynomial_t chebyshev_polynomial_u chebyshev_polynomial_v chebyshev_polynomial_w \
             shifted_chebyshev_polynomial_t shifted_chebyshev_polynomial_u shifted_chebyshev_polynomial_v \
             shifted_chebyshev_polynomial_w hermite_polynomial_h hermite_polynomial_he laguerre_polynomial_l \
             legendre_polynomial_p; do
        assert_line "torch.special.$f"
    done
    for f in torch.polygamma torch.mvlgamma torch.igamma torch.igammac torch.xlogy torch.sinc \
             Tensor.polygamma Tensor.polygamma_ Tensor.mvlgamma_ Tensor.igamma_ Tensor.igammac_ Tensor.xlogy_ \
             Tensor.sinc_; do
        assert_line "$f"
    done
}

@test "special-1.2: argument errors name the function as python_arg_parser does (special_...), --brief-errors on stdout" {
    mkscript s.tsr $'torch.special.erfcx(1)\n'
    run --separate-stderr tsr_run --brief-errors s.tsr
    assert_failure
    assert_output "TypeError: special_erfcx(): argument 'input' (position 1) must be Tensor, not int"
    mkscript t.tsr $'torch.special.polygamma(torch.tensor([1.0]), 1)\n'
    run --separate-stderr tsr_run --brief-errors t.tsr
    assert_failure
    assert_output "TypeError: special_polygamma(): argument 'n' (position 1) must be int, not Tensor"
}

@test "special-1.3: an out= of another shape is resized with 1.13's warning on stderr (composites too)" {
    mkscript s.tsr $'o = torch.zeros(3)\ntorch.special.ndtr(torch.tensor([0.0, 1.0]), out=o)\ntorch.mvlgamma(torch.tensor([2.5]), 2, out=o)\n'
    run --separate-stderr tsr_run s.tsr
    assert_success
    assert_output $'tensor([0.5000, 0.8413])\ntensor([0.8570])'
    assert_equal "$(printf '%s\n' "$stderr" | grep -c 'UserWarning: An output with one or more elements was resized')" 2
}
