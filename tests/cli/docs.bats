#!/usr/bin/env bats
# The documents promise only what works: every example of README.md and
# man/tsr.1 runs and shows tsr's real output (tests/docs/run, whose header
# gives the marker convention).

load helpers

setup() {
    [ -x "$TSR" ] || skip "no tsr binary at $TSR (run make first)"
    DOCS_RUN="$BATS_TEST_DIRNAME/../docs/run"
    ROOT="$BATS_TEST_DIRNAME/../.."
    cd "$BATS_TEST_TMPDIR" || return 1
}

@test "docs-1.1: every example in README.md shows tsr's real output" {
    run "$DOCS_RUN" "$ROOT/README.md"
    assert_success
    assert_line --regexp '^[1-9][0-9]* passed, 0 failed$'
}

@test "docs-1.2: every example in man/tsr.1 shows tsr's real output" {
    run "$DOCS_RUN" "$ROOT/man/tsr.1"
    assert_success
    assert_line --regexp '^[1-9][0-9]* passed, 0 failed$'
}

@test "docs-2.1: a false claim fails: wrong output, a missing method, a shell example" {
    printf '%s\n' 'Prose.' '```' '>>> 1 + 1' '3' '```' '```' '>>> torch.ones(2).nosuch()' 'tensor(2.)' '```' \
        '```' '$ tsr -e "print(4)"' '5' '```' '```' '>>> 2 + 2' '4' '```' > claims.md
    run "$DOCS_RUN" claims.md
    assert_failure 1
    assert_line "not ok: the example at claims.md:3"
    assert_line "not ok: the example at claims.md:7"
    assert_line "not ok: the example at claims.md:11"
    assert_line "1 passed, 3 failed"
}

@test "docs-2.2: a line of '...' in shown output stands for any lines; prose blocks are not run" {
    printf '%s\n' '```' '>>> for i in range(5): print(i)' '0' '...' '4' '```' '```' 'not an example' '```' > ok.md
    run "$DOCS_RUN" ok.md
    assert_success
    assert_line "1 passed, 0 failed"
}
