#!/usr/bin/env bats
# Hostile inputs that once crashed tsr: each gives an error (or a plain
# result) and the session goes on.

load helpers

@test "rel-1.1: torch.tensor of lists in a cycle: RecursionError, session goes on" {
    # PyTorch 1.13 overflows its stack here; tsr stops at the recursion limit.
    run --separate-stderr tsr_stdin $'a = [[1]]; a[0].append(a)\ntorch.tensor(a)\nb = (1, [2]); b[1].append(b)\ntorch.tensor(b)\n6 * 7\n'
    assert_failure 1
    assert_output "42"
    use_stderr
    assert_line --index 0 --regexp '^<stdin>:2:[0-9]+: RecursionError: maximum recursion depth exceeded$'
    assert_line --regexp '^<stdin>:4:[0-9]+: RecursionError: maximum recursion depth exceeded$'
}
