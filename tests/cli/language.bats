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
