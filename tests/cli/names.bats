#!/usr/bin/env bats
# Named tensors as a user meets them: :explain's names section (src/show/
# explain.c), :help names (src/cmd/names.c), the refusal and the names of a
# script's results. Names asserted here are PyTorch 1.13's (SEMANTICS.md §2).

load helpers

NC="x = torch.ones(2, 3, names=('N', 'C'))"

# assert_text PHRASE — $output with its lines joined by single spaces contains PHRASE.
assert_text() {
    local flat
    flat=$(printf '%s\n' "$output" | sed -e 's/^ *//' | tr '\n' ' ' | tr -s ' ')
    [[ $flat == *"$1"* ]] || fail "output does not contain: $1"$'\n'"$output"
}

@test "names-1.1: :explain lines the name lists up from the right and shows the unified names" {
    run --separate-stderr tsr_stdin "$NC"$'\n'":explain x * torch.ones(2, 1, 3, names=('B', None, 'C'))"$'\n'
    assert_success
    assert_text "rule: unifies names from inputs"
    assert_line "                a        'N'  'C'"
    assert_line "                b   'B' None  'C'"
    assert_line "                =   'B'  'N'  'C'"
    assert_text "names=('B', 'N', 'C'))"
}

@test "names-1.2: :explain names the pair that failed to unify" {
    run --separate-stderr tsr_stdin "$NC"$'\n'":explain x + torch.ones(3, names=('N',))"$'\n'
    assert_text "no result: Error when attempting to broadcast dims ['N', 'C'] and dims ['N']: dim 'C' and dim 'N' are at the same position from the right but do not match."
}

@test "names-1.3: :explain of a unary op: keeps input names" {
    run --separate-stderr tsr_stdin "$NC"$'\n'":explain x.sin()"$'\n'
    assert_success
    assert_text "rule: keeps input names"
}

@test "names-1.4: :explain of unnamed operands has no names section" {
    run --separate-stderr tsr_stdin ":explain torch.ones(2) + 1"$'\n'
    assert_success
    refute_output --partial "names:"
}

@test "names-2.1: :help names lists the rule families" {
    run --separate-stderr tsr_stdin ":help names"$'\n'
    assert_success
    assert_text "keeps input names"
    assert_text "unifies names"
    assert_text "removes dimensions"
    assert_text "permutes dimensions"
    assert_text "contracts away dims"
    assert_text "out= and in-place"
}

@test "names-2.2: :help lists the names topic" {
    run --separate-stderr tsr_stdin ":help"$'\n'
    assert_success
    assert_output --partial "Topics: promotion names"
}

@test "names-3.1: an op without a names rule refuses with PyTorch's message" {
    run --separate-stderr "$TSR" -e "$NC"$'\n'"x.permute(1, 0)"
    assert_failure
    output=$stderr
    assert_text "aten::permute is not yet supported with named tensors. Please drop names via \`tensor = tensor.rename(None)\`"
}

@test "names-3.2: a script prints the names of its results" {
    run --separate-stderr "$TSR" -e "$NC"$'\n'"print(x.sum('C').names, (x + 1).names, x.t().names)"
    assert_success
    assert_output "('N',) ('N', 'C') ('C', 'N')"
}

@test "names-4.1: TSR_NAMES_LOG lists the calls that ran with named tensors (scripts/named-coverage)" {
    run --separate-stderr env TSR_NAMES_LOG="$BATS_TEST_TMPDIR/log" "$TSR" -e "$NC" -e "x.abs()" -e "torch.ones(2).abs()" \
        -e "torch.sum(x, 'C')" -e "x.rename(None).exp()" -e "x.names"
    assert_success
    run cat "$BATS_TEST_TMPDIR/log"
    assert_output $'torch.ones\nTensor.abs\ntorch.sum\nTensor.rename\nTensor.names'
}

WARN="UserWarning: Named tensors and all their associated APIs are an experimental feature and subject to change. Please do not use them for anything important until they are released as stable. (Triggered internally at  ./c10/core/TensorImpl.h:1758.)"

@test "names-5.1: the first named tensor of a script warns once, as 1.13 (UserWarning on stderr)" {
    printf '%s\n' "$NC" "y = torch.zeros(2, names=('A',))" "x.sum('C')" > s.tsr
    run --separate-stderr "$TSR" s.tsr
    assert_success
    assert_output "tensor([3., 3.], names=('N',))"
    [ "$stderr" = "$WARN" ] || fail "stderr: $stderr"
}

@test "names-5.2: the names API and the names setter warn the first time too; unnamed work does not" {
    run --separate-stderr "$TSR" -e "torch.ones(2) + 1" -e "x = torch.ones(2, 3)" -e "x.names = ('A', None)" -e "x.rename('B', 'C').names"
    assert_success
    [ "$stderr" = "$WARN" ] || fail "stderr: $stderr"
    run --separate-stderr "$TSR" -e "torch.ones(2, 3).refine_names('N', 'C').names"
    [ "$stderr" = "$WARN" ] || fail "stderr: $stderr"
    run --separate-stderr "$TSR" -e "torch.ones(2, 3).sum()"
    [ -z "$stderr" ] || fail "stderr: $stderr"
}

@test "names-5.3: at the REPL the warning comes once, after the statement that first names a tensor" {
    run --separate-stderr tsr_stdin "$NC"$'\n'"torch.ones(1, names=('B',))"$'\n'
    assert_success
    [ "$stderr" = "$WARN" ] || fail "stderr: $stderr"
}

@test "names-5.4: PYTHONWARNINGS=ignore silences it (the conformance runner sets it, as the oracle does)" {
    run --separate-stderr env PYTHONWARNINGS=ignore "$TSR" -e "$NC" -e "x.names"
    assert_success
    [ -z "$stderr" ] || fail "stderr: $stderr"
}
