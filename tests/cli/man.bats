#!/usr/bin/env bats
# The manual page man/tsr.1.

load helpers

MANPAGE=$BATS_TEST_DIRNAME/../../man/tsr.1

setup() {
    [ -f "$MANPAGE" ] || fail "man/tsr.1 is missing"
}

@test "man-1.1: groff -man -ww -z: no warnings" {
    command -v groff >/dev/null || skip "groff not installed"
    run groff -man -ww -z "$MANPAGE"
    assert_success
    assert_output ""
}

@test "man-1.2: man -l renders at 80 columns with nothing on stderr" {
    command -v man >/dev/null || skip "man not installed"
    command -v groff >/dev/null || skip "groff not installed"
    run --separate-stderr env MANWIDTH=80 man -l "$MANPAGE"
    assert_success
    [ -z "$stderr" ] || { printf '%s\n' "$stderr" | fail; }
    for section in NAME SYNOPSIS DESCRIPTION OPTIONS "THE LANGUAGE" "REPL COMMANDS" \
                   FILES ENVIRONMENT "EXIT STATUS" EXAMPLES "SEE ALSO"; do
        assert_line "$section"
    done
}

@test "man-1.3: every option, command and variable is documented" {
    local word
    for word in '\-e' '\-i' '\-\-keep\-going' '\-k' '\-\-brief\-errors' '\-\-help' '\-h' \
                '\-\-version' '\-V' ':help' ':vars' ':load' ':time' ':timeit' ':info' \
                ':storage' ':explain' ':table' ':quit' NO_COLOR XDG_STATE_HOME TSR_HISTORY \
                OMP_NUM_THREADS 130; do
        grep -qF -- "$word" "$MANPAGE" || fail "man/tsr.1 does not mention $word"
    done
}

@test "man-1.4: the page's version is VERSION's" {
    run grep -E '^\.TH ' "$MANPAGE"
    assert_output --partial "\"tsr $TSR_VERSION\""
}
