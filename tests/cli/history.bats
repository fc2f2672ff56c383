#!/usr/bin/env bats
# The REPL's history file.

load helpers

setup() {
    pty_session_setup
}

# A session that enters two statements, then is killed (SIGKILL): what is in
# the history file was written as each statement was entered.
killed_session() {
    pty_tsr <<'EOF'
expect >>>\s
send hist_a = 1\r
expect >>>\s
send hist_a + 41\r
expect/re ^42$
expect >>>\s
kill KILL
eof
EOF
}

@test "hist-1.1: statements go to \$XDG_STATE_HOME/tsr/history as they are entered" {
    run killed_session
    assert_failure 137
    [ -f "$XDG_STATE_HOME/tsr/history" ]
    grep -qFx 'hist_a = 1' "$XDG_STATE_HOME/tsr/history"
    grep -qFx 'hist_a + 41' "$XDG_STATE_HOME/tsr/history"
}

@test "hist-1.2: without XDG_STATE_HOME: ~/.local/state/tsr/history" {
    unset XDG_STATE_HOME
    run killed_session
    assert_failure 137
    grep -qFx 'hist_a = 1' "$HOME/.local/state/tsr/history"
}

@test "hist-1.3: TSR_HISTORY overrides the path" {
    export TSR_HISTORY="$BATS_TEST_TMPDIR/my-history"
    run killed_session
    assert_failure 137
    grep -qFx 'hist_a + 41' "$TSR_HISTORY"
    [ ! -e "$XDG_STATE_HOME/tsr/history" ]
}

@test "hist-1.4: TSR_HISTORY empty: no history file" {
    export TSR_HISTORY=
    run killed_session
    assert_failure 137
    [ ! -e "$XDG_STATE_HOME/tsr/history" ]
    [ ! -e "$HOME/.local/state/tsr/history" ]
}

@test "hist-1.5: the history of an earlier session is recalled with Up" {
    mkdir -p "$XDG_STATE_HOME/tsr"
    printf '6 * 7\n' > "$XDG_STATE_HOME/tsr/history"
    run pty_tsr <<'EOF'
expect >>>\s
send \x10\r
expect/re ^42$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "hist-2.1: an unwritable history location: one warning, the session goes on" {
    : > "$BATS_TEST_TMPDIR/not-a-dir"
    export XDG_STATE_HOME="$BATS_TEST_TMPDIR/not-a-dir"   # a file: mkdir fails, even for root
    run pty_tsr <<'EOF'
expect >>>\s
send 6 * 7\r
expect/re ^42$
expect >>>\s
send 5 * 5\r
expect/re ^25$
expect >>>\s
send \x04
eof
EOF
    assert_success
    [ "$(grep -c '^tsr: warning:' <<<"$output")" -eq 1 ]
}

@test "hist-2.2: TSR_HISTORY in a missing directory tree: one warning" {
    : > "$BATS_TEST_TMPDIR/file"
    export TSR_HISTORY="$BATS_TEST_TMPDIR/file/sub/history"
    run pty_tsr <<'EOF'
expect >>>\s
send 6 * 7\r
expect/re ^42$
expect >>>\s
send \x04
eof
EOF
    assert_success
    [ "$(grep -c '^tsr: warning:' <<<"$output")" -eq 1 ]
}
