#!/usr/bin/env bats
# tests/cli/reduce.bats — reductions in the program: Ctrl-C during a long
# reduction comes back as KeyboardInterrupt and leaves the name unbound.
load helpers

@test "reduce-1.1: Ctrl-C stops a var along a dim; the name stays unbound" {
    need_pty
    PTY_TIMEOUT=120 run pty_tsr <<'EOF2'
expect >>>\s
send x = torch.ones(20000, 5000)\r
expect >>>\s
send print('go'); v = x.var(0)\r
expect/re ^go$
send \x03
expect/re KeyboardInterrupt$
expect >>>\s
send v\r
expect/re NameError: name 'v' is not defined$
expect >>>\s
send \x04
eof
EOF2
    assert_success
}

@test "reduce-1.2: a reduction's dim error is IndexError with 1.13's text" {
    run --separate-stderr "$TSR" --brief-errors -e "torch.ones(2).sum(3)"
    assert_failure
    assert_output "IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 3)"
}
