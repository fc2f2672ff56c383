#!/usr/bin/env bats
# Standard input that is not a terminal: REPL semantics, no prompts.

load helpers

@test "stdin-1.1: values printed, no banner and no prompts" {
    run --separate-stderr tsr_stdin $'1 + 1\nx = 3\nx * 2\n'
    assert_success
    assert_output $'2\n6'
    [ -z "$stderr" ]
}

@test "stdin-1.2: errors are reported with <stdin>:LINE:COL and the run goes on, status 1" {
    run --separate-stderr tsr_stdin $'1 + 1\n1/0\n2 + 2\n'
    assert_failure 1
    assert_output $'2\n4'
    use_stderr
    assert_line --index 0 --regexp '^<stdin>:2:[0-9]+: ZeroDivisionError: division by zero$'
}

@test "stdin-1.3: a trailing ';' suppresses the value" {
    run --separate-stderr tsr_stdin $'7;\n8\n'
    assert_success
    assert_output "8"
}

@test "stdin-1.4: a block needs no blank line after it" {
    run --separate-stderr tsr_stdin $'for i in range(3):\n    print(i * 10)\nprint(\'end\')\n'
    assert_success
    assert_output $'0\n10\n20\nend'
}

@test "stdin-1.5: a failed statement does not stop later ones using earlier names" {
    run --separate-stderr tsr_stdin $'x = 2\ny = x + undefined\nx * 21\ny\n'
    assert_failure 1
    assert_output "42"
    use_stderr
    assert_line --index 0 --regexp "^<stdin>:2:[0-9]+: NameError: name 'undefined' is not defined\$"
    assert_line --regexp "^<stdin>:4:1: NameError: name 'y' is not defined\$"
}

@test "stdin-1.6: last line without a newline is still run" {
    run --separate-stderr tsr_stdin $'6 * 7'
    assert_success
    assert_output "42"
}

@test "stdin-1.7: empty input: nothing printed, status 0" {
    run --separate-stderr tsr_stdin ''
    assert_success
    assert_output ""
    [ -z "$stderr" ]
}

@test "stdin-1.8: expression statements inside a block print nothing" {
    run --separate-stderr tsr_stdin $'for i in range(3):\n    i * 10\n5\n'
    assert_success
    assert_output "5"
}

@test "stdin-2.1: doctest mode on standard input" {
    run --separate-stderr tsr_stdin $'>>> 2 ** 10\n1024\n>>> print(\'x\')\nx\n'
    assert_success
    assert_output $'1024\nx'
}
