#!/usr/bin/env bats
# The interactive session as a Python user expects it (issue 12): Ctrl-C,
# pasted doctest blocks, exit/quit, `_`, auto-indent, history blocks. Driven
# through a pseudo-terminal (ptydrive.py) as tests/cli/repl.bats is.

load helpers

setup() {
    [ -x "$TSR" ] || skip "no tsr binary at $TSR (run make first)"
    need_pty
    export XDG_STATE_HOME="$BATS_TEST_TMPDIR/state"
    export HOME="$BATS_TEST_TMPDIR/home"
    mkdir -p "$HOME"
    unset TSR_HISTORY NO_COLOR
    cd "$BATS_TEST_TMPDIR" || return 1
}

# spin_and_interrupt [N]  — ptydrive lines: start a loop that prints 'spin'
# and then runs forever, press Ctrl-C N times (default 1) once it spins,
# wait for the prompt.
spin_and_interrupt() {
    local n=${1:-1}
    printf '%s\n' "send for i in range(10 ** 12): i == 1 and print('spin')\\r" 'expect ...\s' 'send \r' 'expect/re ^spin$'
    for ((k = 0; k < n; k++)); do printf '%s\n' 'send \x03'; done
    printf '%s\n' 'expect/re ^>>> '
}

@test "sess-1.1: one Ctrl-C during a statement prints one KeyboardInterrupt" {
    run pty_tsr < <(echo 'expect >>>\s'; spin_and_interrupt; printf '%s\n' 'send 6 * 7\r' 'expect/re ^42$' 'expect >>>\s' 'send \x04' 'eof')
    assert_success
    [ "$(grep -c 'KeyboardInterrupt' <<<"$output")" -eq 1 ]
}

@test "sess-1.2: five statements interrupted in turn: the session goes on, its variables kept" {
    run pty_tsr < <(
        printf '%s\n' 'expect >>>\s' 'send keep = 7\r' 'expect >>>\s'
        for k in 1 2 3 4 5; do spin_and_interrupt; done
        printf '%s\n' 'send keep * 6\r' 'expect/re ^42$' 'expect >>>\s' 'send \x04' 'eof')
    assert_success
    [ "$(grep -c 'KeyboardInterrupt' <<<"$output")" -eq 5 ]
}

@test "sess-1.3: Ctrl-C pressed four times while one statement runs does not exit" {
    run pty_tsr < <(echo 'expect >>>\s'; spin_and_interrupt 4; printf '%s\n' 'send 6 * 7\r' 'expect/re ^42$' 'expect >>>\s' 'send \x04' 'eof')
    # (the terminal may discard output on each Ctrl-C, so only the
    # session's survival is checked)
    assert_success
    assert_line '42'
}

@test "sess-1.4: Ctrl-C at an idle prompt, twice and more, does not exit" {
    run pty_tsr <<'EOF'
expect >>>\s
send \x03
expect/re ^KeyboardInterrupt$
expect >>>\s
send \x03
expect/re ^KeyboardInterrupt$
expect >>>\s
send \x03
expect/re ^KeyboardInterrupt$
expect >>>\s
send 6 * 7\r
expect/re ^42$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "sess-1.5: the interrupt is forgotten when the prompt returns: the next tensor op runs" {
    run pty_tsr < <(echo 'expect >>>\s'; spin_and_interrupt; printf '%s\n' 'send torch.ones(2) + 1\r' 'expect tensor([2., 2.])' 'expect >>>\s' 'send \x04' 'eof')
    assert_success
    [ "$(grep -c 'KeyboardInterrupt' <<<"$output")" -eq 1 ]
}

@test "sess-2.1: a pasted '>>>' block runs every statement, its output lines skipped, its ':' commands run" {
    run pty_tsr <<'EOF'
expect >>>\s
send \e[200~>>> a = 1\r>>> b = a + 1\r>>> if b:\r...     print(b * 10)\r20\r>>> :info torch.ones(3)\r>>> b\r2\r\e[201~\r
expect/re ^shape +\(3,\)$
expect/re ^2$
expect >>>\s
send a + b\r
expect/re ^3$
expect >>>\s
send \x04
eof
EOF
    assert_success
    assert_line "20"
    refute_output --partial "Error"
}

@test "sess-2.2: a pasted indented doctest block" {
    run pty_tsr <<'EOF'
expect >>>\s
send \e[200~    >>> a = 6\r    >>> a * 7\r    42\r\e[201~\r
expect/re ^42$
expect >>>\s
send \x04
eof
EOF
    assert_success
    refute_output --partial "Error"
}
