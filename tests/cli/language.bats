#!/usr/bin/env bats
# The language's program-level parts: sys.argv, sys.exit, uncaught
# exceptions raised by the script, tracebacks through function calls.

load helpers

@test "lang-1.1: sys.argv holds the script and its arguments" {
    mkscript s.tsr $'import sys\nprint(sys.argv)\n'
    run --separate-stderr tsr_run s.tsr a 'b c' --flag
    assert_success
    assert_output "['s.tsr', 'a', 'b c', '--flag']"
}

@test "lang-1.2: tsr's own options after the script are not in sys.argv" {
    mkscript s.tsr $'import sys\nprint(sys.argv)\n'
    run --separate-stderr tsr_run s.tsr x -k --brief-errors y
    assert_success
    assert_output "['s.tsr', 'x', 'y']"
}

@test "lang-1.3: -e gives ['-e', ...] as python -c gives ['-c', ...]" {
    run --separate-stderr tsr_run -e 'import sys; print(sys.argv)' one two
    assert_success
    assert_output "['-e', 'one', 'two']"
}

@test "lang-1.4: standard input gives [''] and - gives ['-']" {
    run --separate-stderr tsr_stdin $'import sys\nprint(sys.argv)\n'
    assert_success
    assert_output "['']"
    run --separate-stderr tsr_stdin $'import sys\nprint(sys.argv)\n' -
    assert_output "['-']"
}

@test "lang-2.1: sys.exit(n) stops the script with status n" {
    mkscript s.tsr $'import sys\nprint("a")\nsys.exit(3)\nprint("b")\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 3
    assert_output "a"
    [ -z "$stderr" ]
}

@test "lang-2.2: sys.exit() is status 0, sys.exit('msg') prints msg and is 1" {
    run --separate-stderr tsr_run -e 'import sys; sys.exit()'
    assert_success
    run --separate-stderr tsr_run -e 'import sys; sys.exit("bye")'
    assert_failure 1
    [ "$stderr" = "bye" ]
}

@test "lang-2.3: --keep-going does not go on past sys.exit" {
    mkscript s.tsr $'import sys\nsys.exit(0)\nprint("b")\n'
    run --separate-stderr tsr_run -k s.tsr
    assert_success
    assert_output ""
}

@test "lang-2.4: SystemExit is caught by name, not by except Exception" {
    mkscript s.tsr $'import sys\ntry:\n    sys.exit(2)\nexcept Exception:\n    print("no")\nexcept SystemExit as e:\n    print("code", e.code)\n'
    run --separate-stderr tsr_run s.tsr
    assert_success
    assert_output "code 2"
}

@test "lang-3.1: an uncaught raise reports file:line:col, type and message" {
    mkscript s.tsr $'x = 1\nraise ValueError("bad value")\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 1
    [[ "${stderr_lines[0]}" == "s.tsr:2:1: ValueError: bad value" ]]
}

@test "lang-4.1: an error inside functions lists each calling frame, outermost last" {
    mkscript demo.tsr $'def inner(x):\n    return x + torch.ones(3)\n\ndef outer(x):\n    y = inner(x)\n    return y\n\nt = torch.ones(2)\nouter(t)\n'
    run --separate-stderr tsr_run demo.tsr
    assert_failure 1
    [ "${stderr_lines[0]}" = "demo.tsr:2:14: RuntimeError: The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0" ]
    [ "${stderr_lines[1]}" = "    return x + torch.ones(3)" ]
    [ "${stderr_lines[2]}" = "           ~~^~~~~~~~~~~~~~~" ]
    [ "${stderr_lines[3]}" = "  in inner, called from demo.tsr:5:9" ]
    [ "${stderr_lines[4]}" = "  in outer, called from demo.tsr:9:1" ]
    [ "${#stderr_lines[@]}" -eq 5 ]
}

@test "lang-4.2: deep recursion shows three frames, then counts the repeats" {
    mkscript rec.tsr $'def f(n):\n    return f(n + 1)\n\nf(0)\n'
    run --separate-stderr tsr_run rec.tsr
    assert_failure 1
    [ "${stderr_lines[0]}" = "rec.tsr:2:12: RecursionError: maximum recursion depth exceeded" ]
    [ "${stderr_lines[3]}" = "  in f, called from rec.tsr:2:12" ]
    [ "${stderr_lines[5]}" = "  in f, called from rec.tsr:2:12" ]
    [ "${stderr_lines[6]}" = "  [Previous line repeated 995 more times]" ]
    [ "${stderr_lines[7]}" = "  in f, called from rec.tsr:4:1" ]
}

@test "lang-4.3: a wrong call has no frame of the function it did not enter" {
    mkscript s.tsr $'def f(a):\n    return a\n\nf(1, 2)\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 1
    [ "${stderr_lines[0]}" = "s.tsr:4:1: TypeError: f() takes 1 positional argument but 2 were given" ]
    [ "${#stderr_lines[@]}" -eq 3 ]
}

@test "lang-4.4: frames on standard input, and a lambda's frame" {
    run --separate-stderr tsr_stdin $'g = lambda v: v[5]\ndef h():\n    return g([1])\nh()\nprint("goes on")\n'
    assert_failure 1
    assert_output "goes on"
    [ "${stderr_lines[0]}" = "<stdin>:1:15: IndexError: list index out of range" ]
    [ "${stderr_lines[3]}" = "  in <lambda>, called from <stdin>:3:12" ]
    [ "${stderr_lines[4]}" = "  in h, called from <stdin>:4:1" ]
}

@test "lang-4.5: a bare re-raise keeps the frames the exception had" {
    mkscript s.tsr $'def f():\n    raise ValueError("x")\n\ndef g():\n    try:\n        f()\n    except ValueError:\n        raise\n\ng()\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 1
    [ "${stderr_lines[0]}" = "s.tsr:2:5: ValueError: x" ]
    [ "${stderr_lines[3]}" = "  in f, called from s.tsr:6:9" ]
    [ "${stderr_lines[4]}" = "  in g, called from s.tsr:10:1" ]
}

@test "lang-4.6: --brief-errors prints the Type: message line only" {
    mkscript demo.tsr $'def f():\n    return 1 / 0\nf()\n'
    run --separate-stderr tsr_run --brief-errors demo.tsr
    assert_failure 1
    assert_output "ZeroDivisionError: division by zero"
}

@test "lang-4.7: finally keeps the frames of the exception passing through" {
    mkscript s.tsr $'def f():\n    try:\n        return [][0]\n    finally:\n        print("cleanup")\n\nf()\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 1
    assert_output "cleanup"
    [ "${stderr_lines[0]}" = "s.tsr:3:16: IndexError: list index out of range" ]
    [ "${stderr_lines[3]}" = "  in f, called from s.tsr:7:1" ]
}
