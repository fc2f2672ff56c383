#!/usr/bin/env bats
# tsr -e CODE

load helpers

@test "e-1.1: -e prints an expression's value" {
    run --separate-stderr tsr_run -e '6 * 7'
    assert_success
    assert_output "42"
    [ -z "$stderr" ]
}

@test "e-1.2: -e runs several statements and lines" {
    run --separate-stderr tsr_run -e $'x = 20\ny = x + 1\ny * 2'
    assert_success
    assert_output "42"
}

@test "e-1.3: -e: ';' statements, the last one suppressed" {
    run --separate-stderr tsr_run -e 'x = 1; x + 1; x + 2;'
    assert_success
    refute_output --partial "3"
}

@test "e-2.1: -e stops at the first error, status 1, location <string>" {
    run --separate-stderr tsr_run -e $'print(1)\n1/0\nprint(2)'
    assert_failure 1
    assert_output "1"
    use_stderr
    assert_line --index 0 --regexp '^<string>:2:[0-9]+: ZeroDivisionError: division by zero$'
}

@test "e-2.2: -e: error context lines follow the message" {
    run --separate-stderr tsr_run -e 'print(undefined_name)'
    assert_failure 1
    use_stderr
    assert_line --index 0 "<string>:1:7: NameError: name 'undefined_name' is not defined"
    assert_line --index 1 "    print(undefined_name)"
    assert_caret "${lines[1]}" "${lines[2]}" "undefined_name"
}

@test "e-3.1: -e does not read standard input" {
    run --separate-stderr bash -c 'echo "print(\"from stdin\")" | timeout 60 "$0" -e "print(\"from -e\")"' "$TSR"
    assert_success
    assert_output "from -e"
}
