#!/usr/bin/env bats
# The interactive REPL, driven through a pseudo-terminal (ptydrive.py).
# Each test feeds ptydrive a script of expect/send lines; the output is the
# transcript, the status is tsr's (124 when an expected text never came).

load helpers

setup() {
    pty_session_setup
}

@test "repl-1.1: banner and prompt; Ctrl-D on an empty line leaves with status 0" {
    run pty_tsr <<EOF
expect tsr $TSR_VERSION — a tensor calculator with PyTorch's rules. Type :help for help, Ctrl-D to leave.
expect >>>\s
send \x04
eof
EOF
    assert_success
    assert_line --index 0 "tsr $TSR_VERSION — a tensor calculator with PyTorch's rules. Type :help for help, Ctrl-D to leave."
}

@test "repl-1.2: an expression's value is printed as repr" {
    run pty_tsr <<'EOF'
expect >>>\s
send 'a' + 'b'\r
expect 'ab'
expect >>>\s
send torch.arange(3)\r
expect tensor([0, 1, 2])
expect >>>\s
send x = None\r
expect >>>\s
send x\r
expect >>>\s
send \x04
eof
EOF
    assert_success
    refute_line "None"
}

@test "repl-1.3: :quit leaves with status 0" {
    run pty_tsr <<'EOF'
expect >>>\s
send :quit\r
eof
EOF
    assert_success
}

@test "repl-2.1: continuation prompt '... ' after 'if 1:', blank line ends the block" {
    run pty_tsr <<'EOF'
expect >>>\s
send if 1:\r
expect ...\s
send     print(6 * 7)\r
expect ...\s
send \r
expect/re ^42$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "repl-2.2: continuation inside open brackets and after a backslash" {
    run pty_tsr <<'EOF'
expect >>>\s
send (1 +\r
expect ...\s
send 40)\r
expect/re ^41$
expect >>>\s
send 40 + \\\r
expect ...\s
send 2\r
expect/re ^42$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "repl-2.3: a leading '>>> ' is stripped from pasted lines" {
    run pty_tsr <<'EOF'
expect >>>\s
send >>> 6 * 7\r
expect/re ^42$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "repl-3.1: Tab completes a variable name" {
    run pty_tsr <<'EOF'
expect >>>\s
send unusual_name_41 = 41\r
expect >>>\s
send unusual_na\t
expect me_41
send  + 1\r
expect/re ^42$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "repl-3.2: Tab completes a module attribute after a dot" {
    run pty_tsr <<'EOF'
expect >>>\s
send torch.linsp\t
expect ace
send (0, 1, 2)\r
expect tensor([0., 1.])
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "repl-4.1: Ctrl-C abandons the input: KeyboardInterrupt, then a fresh prompt works" {
    run pty_tsr <<'EOF'
expect >>>\s
send x = (1,\r
expect ...\s
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
    assert_line "KeyboardInterrupt"
}

@test "repl-4.2: Ctrl-C on a half-typed line" {
    run pty_tsr <<'EOF'
expect >>>\s
send 1 +\s
send \x03
expect/re ^KeyboardInterrupt$
expect >>>\s
send 5 * 5\r
expect/re ^25$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "repl-4.3: Ctrl-C interrupts a running loop, the session goes on" {
    run pty_tsr <<'EOF'
expect >>>\s
send for i in range(10 ** 12):\r
expect ...\s
send     x = i == 1 and print('spinning')\r
expect ...\s
send \r
expect/re ^spinning$
send \x03
expect/re KeyboardInterrupt$
expect >>>\s
send 6 * 7\r
expect/re ^42$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "repl-5.1: an error is reported and the session goes on" {
    run pty_tsr <<'EOF'
expect >>>\s
send 1/0\r
expect ZeroDivisionError: division by zero
expect >>>\s
send 6 * 7\r
expect/re ^42$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "repl-6.1: :vars lists bound names with a summary" {
    run pty_tsr <<'EOF'
expect >>>\s
send xv = 3\r
expect >>>\s
send :vars\r
expect/re ^xv\s+int\s+3\s*$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "repl-6.2: :help prints help on the commands" {
    run pty_tsr <<'EOF'
expect >>>\s
send :help\r
expect :vars
expect >>>\s
send \x04
eof
EOF
    assert_success
    assert_output --partial ":load"
    assert_output --partial ":time"
    refute_output --partial "Error"
}

@test "repl-6.3: :help TOPIC" {
    run pty_tsr <<'EOF'
expect >>>\s
send :help torch.zeros\r
expect :help torch.zeros
expect zeros
expect >>>\s
send \x04
eof
EOF
    assert_success
    refute_output --partial "Error:"
}

@test "repl-6.4: :load runs a script in the session" {
    mkscript lib.tsr $'loaded_value = 6 * 7\nprint(\'loaded\')\n'
    run pty_tsr <<'EOF'
expect >>>\s
send :load lib.tsr\r
expect/re ^loaded$
expect >>>\s
send loaded_value + 0\r
expect/re ^42$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "repl-6.5: :time runs the statement once and prints the wall time" {
    run pty_tsr <<'EOF'
expect >>>\s
send t = 0\r
expect >>>\s
send :time t += 1\r
expect/re ^wall time: [0-9]+(\.[0-9]+)? (ns|us|µs|ms|s)$
expect >>>\s
send t * 10\r
expect/re ^10$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "repl-6.6: :timeit prints loops, best and median" {
    run pty_tsr <<'EOF'
expect >>>\s
send :timeit 1 + 1\r
expect/re ^[0-9]+ loops?, best: [0-9]+(\.[0-9]+)? (ns|us|µs|ms|s), median: [0-9]+(\.[0-9]+)? (ns|us|µs|ms|s)$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "repl-7.1: -i stays in the REPL after -e, with its variables" {
    run pty_tsr -i -e 'x_i = 41' <<'EOF'
expect >>>\s
send x_i + 1\r
expect/re ^42$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "repl-7.2: -i stays in the REPL after a script" {
    mkscript s.tsr $'from_script = 40\n'
    run pty_tsr -i s.tsr <<'EOF'
expect >>>\s
send from_script + 2\r
expect/re ^42$
expect >>>\s
send \x04
eof
EOF
    assert_success
}
