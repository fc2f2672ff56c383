#!/usr/bin/env bats
# The error report: location, message, source line, caret; --brief-errors;
# colors and escape codes.

load helpers

@test "errors-1.1: LANGUAGE.md's example, exactly" {
    mkscript demo.tsr $'x = torch.ones(3)\nz = torch.ones(4)\ny = x + z\n'
    run --separate-stderr tsr_run demo.tsr
    assert_failure 1
    assert_output ""
    use_stderr
    assert_output "demo.tsr:3:7: RuntimeError: The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0
    y = x + z
        ~~^~~"
}

@test "errors-1.2: three lines: location line, source indented by 4, caret line" {
    mkscript s.tsr $'a = 1\nb = a / 0\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 1
    use_stderr
    assert_equal "${#lines[@]}" 3
    assert_line --index 0 "s.tsr:2:7: ZeroDivisionError: division by zero"
    assert_line --index 1 "    b = a / 0"
}

@test "errors-2.1: caret under a name" {
    mkscript s.tsr $'x = 1\ny = x + nope\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 1
    use_stderr
    assert_line --index 0 "s.tsr:2:9: NameError: name 'nope' is not defined"
    assert_caret "${lines[1]}" "${lines[2]}" "nope"
}

@test "errors-2.2: caret under the operator, tildes under its operands" {
    mkscript s.tsr $'n = 1\nm = n // 0\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 1
    use_stderr
    assert_line --index 0 "s.tsr:2:7: ZeroDivisionError: integer division or modulo by zero"
    assert_line --index 1 "    m = n // 0"
    assert_line --index 2 "        ~~^^~~"
}

@test "errors-2.3: caret column of an error inside an indented block" {
    mkscript s.tsr $'def f(x):\n    return x + \'a\'\nf(1)\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 1
    use_stderr
    assert_line --index 0 --regexp "^s\\.tsr:2:14: TypeError: unsupported operand type\\(s\\) for \\+: 'int' and 'str'\$"
    assert_caret "${lines[1]}" "${lines[2]}" "+"
}

@test "errors-2.4: a rejected argument: the report ends with source and caret lines" {
    mkscript s.tsr $'torch.zeros(2, dtype=3)\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 1
    use_stderr
    # PyTorch's message for this one spans several lines.
    assert_line --index 0 --regexp '^s\.tsr:1:[0-9]+: TypeError: '
    local n=${#lines[@]}
    assert_equal "${lines[n-2]}" "    torch.zeros(2, dtype=3)"
    [[ ${lines[n-1]} =~ ^\ +[~^]+$ ]] || fail "not a caret line: ${lines[n-1]}"
}

@test "errors-2.5: a syntax error gives its position" {
    mkscript s.tsr $'x = 1\ny = (2 +\nprint(x)\nz = 3 3\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 1
    assert_output ""
    use_stderr
    assert_line --index 0 --regexp '^s\.tsr:[0-9]+:[0-9]+: SyntaxError: '
}

@test "errors-2.6: a syntax error's caret is under the offending token" {
    mkscript s.tsr $'x = 1 2\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 1
    use_stderr
    assert_line --index 0 --regexp '^s\.tsr:1:7: SyntaxError: '
    assert_line --index 1 "    x = 1 2"
    assert_caret "${lines[1]}" "${lines[2]}" "2"
}

@test "errors-3.1: --brief-errors: one line 'Type: message' on stdout, in order" {
    run --separate-stderr tsr_stdin $'1\n1/0\n2\nnope\n3\n' --brief-errors
    assert_failure 1
    assert_output "1
ZeroDivisionError: division by zero
2
NameError: name 'nope' is not defined
3"
    [ -z "$stderr" ]
}

@test "errors-3.2: --brief-errors with a script and --keep-going" {
    mkscript s.tsr $'print(\'a\')\ntorch.ones(3) + torch.ones(4)\nprint(\'b\')\n'
    run --separate-stderr tsr_run --brief-errors --keep-going s.tsr
    assert_failure 1
    assert_output "a
RuntimeError: The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0
b"
    [ -z "$stderr" ]
}

@test "errors-3.3: --brief-errors with -e stops at the first error" {
    run --separate-stderr tsr_run --brief-errors -e $'print(1)\n1/0\nprint(2)'
    assert_failure 1
    assert_output $'1\nZeroDivisionError: division by zero'
}

@test "errors-4.1: no escape codes when stderr is not a terminal, even with TERM set" {
    mkscript s.tsr $'1/0\n'
    TERM=xterm-256color run --separate-stderr tsr_run s.tsr
    assert_failure 1
    refute_escapes "$stderr"
    refute_escapes "$output"
}

@test "errors-4.2: no prompts, colors or escape codes on a pipe" {
    run --separate-stderr env TERM=xterm-256color bash -c 'printf "x = 1\nx\n1/0\nx + 1\n" | timeout 60 "$0" 2>err; echo "rc=$?"; cat err >&2' "$TSR"
    assert_output $'1\n2\nrc=1'
    refute_escapes "$output"
    refute_escapes "$stderr"
    refute_output --partial ">>>"
}

@test "errors-4.3: NO_COLOR: no escape codes even on a terminal" {
    need_pty
    mkscript s.tsr $'print(\'x\')\n1/0\n'
    PTY_TERM=xterm-256color NO_COLOR=1 run pty_tsr s.tsr </dev/null
    assert_failure 1
    assert_line "x"
    assert_line --partial "ZeroDivisionError: division by zero"
    refute_escapes "$output"
}

@test "errors-4.4: on a terminal without NO_COLOR the report keeps its text" {
    need_pty
    mkscript s.tsr $'1/0\n'
    PTY_TERM=xterm-256color run pty_tsr s.tsr </dev/null
    assert_failure 1
    # Colors may wrap the parts; with them removed the report is the same.
    local plain
    plain=$(printf '%s' "$output" | sed $'s/\e\\[[0-9;]*m//g')
    [[ $plain == *"s.tsr:1:2: ZeroDivisionError: division by zero"* ]]
}
