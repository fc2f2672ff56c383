#!/usr/bin/env bats
# The pointwise functions added to the binding table: how the program shows
# them (:explain of a ternary op, --list-functions, the frexp named tuple,
# conj of a real tensor) beyond what the conformance cases print.

load helpers

@test "pointwise-1.1: :explain of addcmul: three operands, the common dtype of all three" {
    run --separate-stderr tsr_stdin ':explain torch.addcmul(torch.ones(2), torch.tensor([1, 2]), torch.ones(2, dtype=torch.float64), value=2)'$'\n'
    assert_success
    assert_line --index 0 --regexp '^1\. addcmul: '
    assert_line --regexp '^   c  tensor, shape \(2,\) +float64 +dimensioned tensor +floating$'
    assert_line --regexp '^   result: +float64, shape \(2,\)$'
    assert_line 'tensor([3., 5.], dtype=torch.float64)'
    [ -z "$stderr" ]
}

@test "pointwise-1.2: --list-functions has the function, method and in-place forms 1.13 has, and no others" {
    run --separate-stderr tsr_run --list-functions
    assert_success
    for name in torch.logaddexp torch.logaddexp2 torch.rsub torch.copysign Tensor.copysign_ torch.nextafter \
                torch.heaviside torch.gcd_ torch.lcm_ torch.ldexp_ Tensor.addcmul_ Tensor.addcdiv_ torch.conj \
                torch.conj_physical_ torch.resolve_conj torch.resolve_neg torch.frexp torch.clamp_ torch.clamp_min_ \
                torch.clamp_max_ torch.broadcast_shapes; do
        assert_line "$name"
    done
    refute_line Tensor.rsub
    refute_line Tensor.logaddexp_
    refute_line torch.addcmul_
    refute_line torch.copysign_
}

@test "pointwise-1.3: frexp's named tuple unpacks, indexes and answers its field names" {
    run --separate-stderr tsr_stdin $'r = torch.frexp(torch.tensor([8.0]))\nm, e = r\nprint(m, e, len(r))\nprint(r.exponent is r[1], r[-2] is m)\ntype(r)\n'
    assert_success
    assert_line 'tensor([0.5000]) tensor([4], dtype=torch.int32) 2'
    assert_line 'True True'
    assert_line "<class 'torch.return_types.frexp'>"
    [ -z "$stderr" ]
}

@test "pointwise-1.4: conj of a real tensor is the tensor itself; of a complex one a view with the conjugate bit" {
    run --separate-stderr tsr_stdin $'t = torch.ones(2)\nprint(torch.conj(t) is t, t.resolve_conj() is t)\nx = torch.tensor([1j])\ny = torch.conj(x)\nprint(y, y.is_conj(), y._base is x)\n'
    assert_success
    assert_line 'True True'
    assert_line 'tensor([0.-1.j]) True True'
    [ -z "$stderr" ]
}
