#!/usr/bin/env bats
# How a script runs (issue 12): a file is parsed whole before it runs, as
# Python compiles it; -k, standard input and doctest files go statement by
# statement; indented doctest and '>>> :command'; several -e in order.

load helpers

@test "run-1.1: a syntax error on the last line: nothing runs, the error as a script reports it" {
    mkscript s.tsr $'print(\'first\')\nx = 2\nprint(x)\nif x\n    pass\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 1
    assert_output ""
    use_stderr
    assert_line --index 0 "s.tsr:4:5: SyntaxError: expected ':'"
    assert_line --index 1 "    if x"
}

@test "run-1.2: a 'break' outside a loop at the end: nothing runs (Python's compile-time check)" {
    mkscript s.tsr $'print(\'first\')\nbreak\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 1
    assert_output ""
    use_stderr
    assert_line --index 0 --regexp "^s\\.tsr:2:1: SyntaxError: 'break' outside loop\$"
}

@test "run-1.3: a runtime error still runs what comes before it" {
    mkscript s.tsr $'print(\'first\')\n1 / 0\nprint(\'never\')\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 1
    assert_output "first"
}

@test "run-1.4: -k reports each syntax error and runs the rest statement by statement" {
    mkscript s.tsr $'print(\'first\')\nif x\nprint(\'last\')\n'
    run --separate-stderr tsr_run -k s.tsr
    assert_failure 1
    assert_output $'first\nlast'
}

@test "run-1.5: standard input goes statement by statement" {
    run --separate-stderr "$TSR" - <<<$'print(\'first\')\nif x\n'
    assert_failure 1
    assert_output "first"
}

@test "run-2.1: several -e run in order, sharing their names" {
    run --separate-stderr "$TSR" -e 'x = 20' -e 'y = x + 1' -e 'print(x + y)'
    assert_success
    assert_output "41"
}

@test "run-2.2: an -e that fails stops the ones after it" {
    run --separate-stderr "$TSR" -e 'print(1)' -e '1 / 0' -e 'print(3)'
    assert_failure 1
    assert_output "1"
}

@test "run-3.1: doctest lines indented consistently (as in a docstring)" {
    mkscript doc.tsr $'Some prose.\n\n    >>> a = torch.tensor([1, 2])\n    >>> a * 2\n    tensor([2, 4])\n    >>> for i in range(2):\n    ...     print(i)\n    0\n    1\n'
    run --separate-stderr tsr_run doc.tsr
    assert_success
    assert_output $'tensor([2, 4])\n0\n1'
}

@test "run-3.2: '>>> :command' in a doctest file runs the command" {
    mkscript doc.tsr $'>>> x = torch.ones(2, dtype=torch.int32)\n>>> :explain x + 1.5\n>>> x * 2\ntensor([2, 2], dtype=torch.int32)\n'
    run --separate-stderr tsr_run doc.tsr
    assert_success
    assert_output --partial "promote_types(int32, float32) = float32"
    assert_line "tensor([2, 2], dtype=torch.int32)"
    [ -z "$stderr" ]
}

@test "run-3.3: a doctest error reports the file's own line" {
    mkscript doc.tsr $'prose\n\n  >>> a = 1\n  >>> a + b\n'
    run --separate-stderr tsr_run doc.tsr
    assert_failure 1
    use_stderr
    assert_line --index 0 --regexp "^doc\\.tsr:4:[0-9]+: NameError: name 'b' is not defined\$"
}

@test "run-3.4: '>>> :command' in doctest on standard input" {
    run --separate-stderr "$TSR" - <<<$'>>> x = torch.ones(2)\n>>> :info x\n'
    assert_success
    assert_line --regexp '^shape +\(2,\)$'
}

@test "run-4.1: ':load' parses a script whole first and runs a doctest file with its commands" {
    mkscript bad.tsr $'print(\'ran\')\nif x\n'
    mkscript dt.tsr $'  >>> q = torch.ones(2)\n  >>> :info q\n'
    run --separate-stderr "$TSR" - <<<$':load bad.tsr\n:load dt.tsr\nq\n'
    assert_failure 1
    refute_line "ran"
    assert_line --regexp '^shape +\(2,\)$'
    assert_line "tensor([1., 1.])"
    [[ "$stderr" == "bad.tsr:2:5: SyntaxError: expected ':'"* ]]
}
