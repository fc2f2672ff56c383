#!/usr/bin/env bats
# :explain EXPR, :table [can_cast] and :help promotion (src/cmd/explain.c,
# printed by src/show/explain.c).
# The dtypes asserted here are PyTorch 1.13's (SEMANTICS.md §1.2-1.5); the
# words are tsr's own layout: header "N. op: ...", one line per operand
# (what, dtype as result_type counts it, tier, category), then labelled lines
# rule / why / result_type / op rule / in-place / result.

load helpers

I32='torch.ones(2, dtype=torch.int32)'

# assert_text PHRASE — $output with its lines joined by single spaces (the
# printer wraps its sentences at 80 columns) contains PHRASE.
assert_text() {
    local flat
    flat=$(printf '%s\n' "$output" | sed -e 's/^ *//' | tr '\n' ' ' | tr -s ' ')
    [[ $flat == *"$1"* ]] || fail "output does not contain: $1"$'\n'"$output"
}

# explain TEXT — tsr with TEXT on standard input, stdout and stderr apart.
explain() {
    run --separate-stderr tsr_stdin "$1"
}

# --------------------------------------------------------------- operands and tiers

@test "explain-1.1: a float scalar over an int32 tensor: the scalar decides, float32" {
    explain ":explain $I32 + 5.0"$'\n'
    assert_success
    assert_line --index 0 --regexp '^1\. add: .+ \+ .+$'
    assert_line --regexp '^   a  tensor, shape \(2,\) +int32 +dimensioned tensor +integral$'
    assert_line --regexp '^   b  5\.0 +float32 +Python scalar +floating$'
    assert_line '      a Python float counts as the default dtype, float32'
    assert_line --regexp '^   rule: +a lower tier has a higher category and contributes its own dtype$'
    assert_text 'promote_types(int32, float32) = float32'
    assert_line --regexp '^   result_type: float32, decided by the Python scalar b$'
    assert_line --regexp '^   result: +float32, shape \(2,\)$'
    # then the value, as the REPL prints it
    assert_line --index $(( ${#lines[@]} - 1 )) 'tensor([6., 6.])'
    [ -z "$stderr" ]
}

@test "explain-1.2: an int scalar has the tensor's category: it does not count, int32 stands" {
    explain ":explain $I32 + 5"$'\n'
    assert_success
    assert_line --regexp '^   b  5 +int64 +Python scalar +integral$'
    assert_line '      a Python int counts as int64'
    assert_line --regexp "^   rule: +lower tiers are not of a higher category, so the higher tier's"
    assert_text 'does not count: int32'
    assert_line --regexp '^   result_type: int32, decided by the dimensioned tensor a$'
    assert_line --regexp '^   result: +int32, shape \(2,\)$'
    assert_line 'tensor([6, 6], dtype=torch.int32)'
}

@test "explain-1.3: a zero-dim float64 tensor over an int32 tensor decides; over float16 it does not" {
    explain ":explain $I32 + torch.tensor(1.0, dtype=torch.float64)"$'\n'
    assert_success
    assert_line --regexp '^   b  tensor, shape \(\) +float64 +zero-dim tensor +floating$'
    assert_line --regexp '^   result_type: float64, decided by the zero-dim tensor b$'
    assert_line --regexp '^   result: +float64, shape \(2,\), broadcast from a \(2,\) and b \(\)$'
    explain ':explain torch.ones(2, dtype=torch.float16) + torch.tensor(1.0, dtype=torch.float64)'$'\n'
    assert_success
    assert_line --regexp '^   result_type: float16, decided by the dimensioned tensor a$'
    assert_text 'so it does not count: float16 stands.'
    assert_line 'tensor([2., 2.], dtype=torch.float16)'
}

@test "explain-1.4: a zero-dim tensor against a Python scalar: torch.tensor(5) + 2.5 is float32" {
    explain ':explain torch.tensor(5) + 2.5'$'\n'
    assert_success
    assert_line --regexp '^   a  tensor, shape \(\) +int64 +zero-dim tensor +integral$'
    assert_line --regexp '^   result_type: float32, decided by the Python scalar b$'
    assert_line --regexp '^   result: +float32, shape \(\)$'
    assert_line 'tensor(7.5000)'
}

@test "explain-1.5: bool: promoted with an int scalar (int64); bool + uint8 tensors is uint8" {
    explain ':explain torch.ones(2, dtype=torch.bool) + 5'$'\n'
    assert_success
    assert_line --regexp "^   rule: +the higher tier is bool, so it is promoted with the lower tier's"
    assert_text 'promote_types(bool, int64) = int64'
    assert_line --regexp '^   result_type: int64, decided by the Python scalar b$'
    assert_line 'tensor([6, 6])'
    explain ':explain torch.ones(2, dtype=torch.bool) + torch.ones(2, dtype=torch.uint8)'$'\n'
    assert_success
    assert_text 'promote_types(bool, uint8) = uint8'
    assert_line --regexp '^   result: +uint8, shape \(2,\)$'
}

@test "explain-1.6: tensors of one tier: promote_types(int8, uint8) = int16, with broadcasting" {
    explain ':explain torch.ones(3, 1, dtype=torch.int8) + torch.ones(2, dtype=torch.uint8)'$'\n'
    assert_success
    assert_line --regexp '^   rule: +one tier only: promote_types over its operands$'
    assert_text 'promote_types(int8, uint8) = int16.'
    assert_line --regexp '^   result_type: int16, decided by the dimensioned tensors a and b$'
    assert_line --regexp '^   result: +int16, shape \(3, 2\), broadcast from a \(3, 1\) and b \(2,\)$'
}

@test "explain-1.7: a complex scalar with float16 gives complex32, the experimental ComplexHalf" {
    explain ':explain torch.ones(2, dtype=torch.float16) + 1j'$'\n'
    assert_success
    assert_line --regexp '^   b  1j +complex64 +Python scalar +complex$'
    assert_line '      a Python complex counts as the default complex dtype, complex64'
    assert_line --regexp '^   rule: +a complex lower tier over a floating higher tier gives the'
    assert_text 'the complex type of float16: complex32.'
    assert_line --regexp '^   result_type: complex32, decided by the Python scalar b$'
    assert_line --regexp '^   note: +complex32 \(ComplexHalf\) is experimental'
    assert_text 'experimental in PyTorch 1.13'
    assert_line --regexp '^   result: +complex32, shape \(2,\)$'
}

@test "explain-1.8: three tiers: the zero-dim and scalar tiers combine first, then meet the tensors" {
    explain $'m = torch.ones(2, dtype=torch.bool)\n:explain torch.where(m, torch.tensor(2.0, dtype=torch.float64), 1j)\n'
    assert_success
    assert_text 'the result is the complex type of float64: complex128.'
    assert_text 'The zero-dim tensor b and the Python scalar c together (complex128) are complex'
    assert_line --regexp '^   result: +complex128, shape \(2,\)'
    assert_line 'tensor([2.+0.j, 2.+0.j], dtype=torch.complex128)'
}

# --------------------------------------------------------------- per-op rules

@test "explain-2.1: integer true division: common dtype int32, then the default float dtype" {
    explain ":explain $I32 / 2"$'\n'
    assert_success
    assert_line --index 0 --regexp '^1\. div: '
    assert_line --regexp '^   result_type: int32, decided by the dimensioned tensor a$'
    assert_line --regexp '^   op rule: '
    assert_text 'default float dtype'
    assert_text 'int32 -> float32'
    assert_line --regexp '^   result: +float32, shape \(2,\)$'
    assert_line 'tensor([0.5000, 0.5000])'
}

@test "explain-2.2: a comparison computes in the common dtype and returns bool" {
    explain ":explain $I32 == 1.5"$'\n'
    assert_success
    assert_line --index 0 --regexp '^1\. eq: '
    assert_line --regexp '^   result_type: float32, decided by the Python scalar b$'
    assert_line --regexp '^   op rule: '
    assert_text 'return bool'
    assert_text 'float32 -> bool'
    assert_line --regexp '^   result: +bool, shape \(2,\)$'
    assert_line 'tensor([False, False])'
}

@test "explain-2.3: an in-place cast that can_cast refuses: why, then PyTorch's error; x unchanged" {
    explain "x = $I32"$'\n:explain x.add_(1.5)\nx\n'
    assert_failure
    assert_line --regexp '^   b  1\.5 +float32 +Python scalar +floating$'
    assert_line --regexp '^   result_type: float32, decided by the Python scalar b$'
    assert_line --regexp '^   in-place: +REFUSED: '
    assert_text 'can_cast(float32, int32) is False'
    assert_text 'an integral output cannot accept a floating-point result'
    refute_line --regexp '^   result:'
    assert_line --index $(( ${#lines[@]} - 1 )) 'tensor([1, 1], dtype=torch.int32)'
    use_stderr
    assert_line --partial "RuntimeError: result type Float can't be cast to the desired output type Int"
}

@test "explain-2.4: an in-place op that may cast: computed in the common dtype, cast into self" {
    explain $'x = torch.ones(2, dtype=torch.uint8)\n:explain x.add_(torch.ones(2, dtype=torch.int32))\n'
    assert_success
    assert_line --regexp '^   result_type: int32, decided by the dimensioned tensors a and b$'
    assert_line --regexp '^   in-place: +computed in int32, then cast into self \(uint8\)'
    assert_line --regexp '^   result: +uint8, shape \(2,\)$'
}

@test "explain-2.5: steps in evaluation order, numbered, one per operation" {
    explain ":explain ($I32 + 1) * 2.5"$'\n'
    assert_success
    assert_line --index 0 --regexp '^1\. add: '
    assert_line --regexp '^2\. mul: '
    assert_line --regexp '^   result: +int32, shape \(2,\)$'
    assert_line --regexp '^   result: +float32, shape \(2,\)$'
    assert_line --index $(( ${#lines[@]} - 1 )) 'tensor([5., 5.])'
}

@test "explain-2.6: a float scalar counts as the default dtype, whatever it is" {
    explain $'torch.set_default_dtype(torch.float64)\n'":explain $I32 + 5.0"$'\n'
    assert_success
    assert_line '      a Python float counts as the default dtype, float64'
    assert_line --regexp '^   result: +float64, shape \(2,\)$'
}

@test "explain-2.7: an int scalar that does not fit is converted with wrap-around" {
    explain ':explain torch.ones(2, dtype=torch.uint8) + 1000'$'\n'
    assert_success
    assert_line --regexp '^   note: +1000 does not fit uint8, but values are never inspected'
    assert_line 'tensor([233, 233], dtype=torch.uint8)'
}

# --------------------------------------------------------------- no ops, errors, limits

@test "explain-3.1: an expression without tensor operations says so, then its value" {
    explain $':explain 1 + 2\n'
    assert_success
    assert_output $'no tensor operations\n3'
}

@test "explain-3.2: a failing operation: its step, then the error as the session reports it" {
    explain $':explain torch.ones(2) + torch.ones(3)\n7\n'
    assert_line --index 0 --regexp '^1\. add: '
    assert_line --regexp '^   result: +none: the operation fails'
    assert_line --index $(( ${#lines[@]} - 1 )) '7'
    use_stderr
    assert_line --partial 'RuntimeError: The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0'
}

@test "explain-3.3: steps before the failing one are shown; an error before any op shows none" {
    explain $':explain (torch.ones(2) + 1) + torch.ones(3)\n:explain nosuch + 1\n8\n'
    assert_line --index 0 --regexp '^1\. add: '
    assert_line --regexp '^2\. add: '
    refute_output --partial 'no tensor operations'
    assert_line --index $(( ${#lines[@]} - 1 )) '8'
    use_stderr
    assert_line --partial 'RuntimeError: The size of tensor a (2) must match the size of tensor b (3)'
    assert_line --partial "NameError: name 'nosuch' is not defined"
}

@test "explain-3.4: steps come in evaluation order with what EXPR prints; None is not printed" {
    explain ':explain print(torch.ones(1) + 1)'$'\n'
    assert_success
    assert_line --index 0 --regexp '^1\. add: '
    assert_line --index $(( ${#lines[@]} - 1 )) 'tensor([2.])'
    refute_line 'None'
}

@test "explain-3.5: many operations: the first 64 are shown, the rest counted" {
    explain ':explain [torch.ones(1) * i for i in range(70)][-1]'$'\n'
    assert_success
    assert_line --regexp '^64\. mul: '
    refute_line --regexp '^65\. '
    assert_line '... and 6 more operations, not shown'
    assert_line --index $(( ${#lines[@]} - 1 )) 'tensor([69.])'
}

@test "explain-3.6: within 80 columns and without escape sequences when not a terminal" {
    explain ":explain ($I32 + torch.tensor(1.0, dtype=torch.float64)) * 1j + torch.ones(3, 1, 1, 1, 1, 2, dtype=torch.int8)"$'\n:table\n:table can_cast\n:help promotion\n'
    assert_success
    refute_escapes "$output"
    local l
    for l in "${lines[@]}"; do
        [ "${#l}" -le 80 ] || fail "line longer than 80 columns: $l"
    done
}

@test "explain-3.7: :explain without EXPR prints its usage" {
    explain $':explain\n1\n'
    assert_output '1'
    use_stderr
    assert_line 'usage: :explain EXPR'
}

# --------------------------------------------------------------- :table

# cell ROW COLUMN — the cell of the last table in $output (short names).
cell() {
    printf '%s\n' "$output" | awk -v r="$1" -v c="$2" '
        /^    / { n = split($0, h, " "); for (i = 1; i <= n; i++) col[h[i]] = i + 1; next }
        $1 == r { v = $(col[c]) }
        END { print v }'
}

@test "table-1.1: :table is torch.promote_types, a legend, then 13 rows" {
    explain $':table\n'
    assert_success
    assert_line --index 0 --regexp '^torch\.promote_types\(row, column\)'
    assert_equal "${#lines[@]}" 15
    assert_equal "$(cell i32 f16)" f16
    assert_equal "$(cell bool u8)" u8
    assert_equal "$(cell u8 i8)" i16
    assert_equal "$(cell f16 bf16)" f32
    assert_equal "$(cell f64 c64)" c128
    assert_equal "$(cell c32 f32)" c64
    assert_equal "$(cell bool bool)" bool
}

@test "table-1.2: every promote_types cell is torch 1.13's" {
    explain $':table promote_types\n'
    assert_success
    assert_output "torch.promote_types(row, column)  (u=uint i=int f=float bf=bfloat c=complex)
     bool   u8   i8  i16  i32  i64  f16 bf16  f32  f64  c32  c64 c128
bool bool   u8   i8  i16  i32  i64  f16 bf16  f32  f64  c32  c64 c128
u8     u8   u8  i16  i16  i32  i64  f16 bf16  f32  f64  c32  c64 c128
i8     i8  i16   i8  i16  i32  i64  f16 bf16  f32  f64  c32  c64 c128
i16   i16  i16  i16  i16  i32  i64  f16 bf16  f32  f64  c32  c64 c128
i32   i32  i32  i32  i32  i32  i64  f16 bf16  f32  f64  c32  c64 c128
i64   i64  i64  i64  i64  i64  i64  f16 bf16  f32  f64  c32  c64 c128
f16   f16  f16  f16  f16  f16  f16  f16  f32  f32  f64  c32  c64 c128
bf16 bf16 bf16 bf16 bf16 bf16 bf16  f32 bf16  f32  f64  c64  c64 c128
f32   f32  f32  f32  f32  f32  f32  f32  f32  f32  f64  c64  c64 c128
f64   f64  f64  f64  f64  f64  f64  f64  f64  f64  f64 c128 c128 c128
c32   c32  c32  c32  c32  c32  c32  c32  c64  c64 c128  c32  c64 c128
c64   c64  c64  c64  c64  c64  c64  c64  c64  c64 c128  c64  c64 c128
c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128"
}

@test "table-1.3: :table can_cast marks what out= and in-place ops accept" {
    explain $':table can_cast\n'
    assert_success
    assert_line --index 0 --regexp '^torch\.can_cast\(row, column\)'
    assert_equal "$(cell f32 i32)" .
    assert_equal "$(cell i32 u8)" y
    assert_equal "$(cell i32 f16)" y
    assert_equal "$(cell c64 f64)" .
    assert_equal "$(cell u8 bool)" .
    assert_equal "$(cell bool c128)" y
    assert_line 'bool    y    y    y    y    y    y    y    y    y    y    y    y    y'
}

@test "table-1.4: an unknown table is a usage error" {
    explain $':table nosuch\n1\n'
    assert_output '1'
    use_stderr
    assert_line --partial 'usage: :table'
}

# --------------------------------------------------------------- :help

@test "help-1.1: :help promotion states the three tiers, the categories and the cast rules" {
    explain $':help promotion\n'
    assert_success
    assert_output --partial 'dimensioned tensors, zero-dim tensors, Python scalars'
    assert_text 'complex > floating > integral > bool'
    assert_text 'If a Python scalar is of a higher category than the tensor operands'
    assert_text 'If a zero-dim tensor has a higher category than the dimensioned operands'
    assert_text 'If there are no higher-category zero-dim operands'
    assert_text 'an int as int64'
    assert_text 'values are never inspected'
    assert_line '  - an integral output cannot accept a floating-point result,'
    assert_line '  - a boolean output cannot accept a non-boolean result,'
    assert_line '  - a non-complex output cannot accept a complex result'
    assert_line '  torch.int16'
    local l
    for l in "${lines[@]}"; do
        [ "${#l}" -le 80 ] || fail "line longer than 80 columns: $l"
    done
}

@test "help-1.2: :help lists :explain and :table and the promotion topic" {
    explain $':help\n:help explain\n'
    assert_success
    assert_line --regexp '^  :explain EXPR +how each operation in EXPR got its dtype$'
    assert_line --regexp '^  :table \[can_cast\] +the promote_types table'
    assert_line --regexp '^Topics:.* promotion'
    assert_line ':explain EXPR'
}

@test "explain-3.8: on a terminal the step headers are bold; NO_COLOR turns that off" {
    need_pty
    local script=$'expect >>>\\s\nsend :explain torch.ones(2) + 1\\r\nexpect tensor([2., 2.])\nexpect >>>\\s\nsend \\x04\neof\n'
    PTY_TERM=xterm-256color run pty_tsr <<<"$script"
    assert_success
    assert_output --partial $'\e[1m1. add: '
    PTY_TERM=xterm-256color NO_COLOR=1 run pty_tsr <<<"$script"
    assert_success
    assert_output --partial '1. add: '
    refute_output --partial $'\e[1m1. add: '
}
