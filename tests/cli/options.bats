#!/usr/bin/env bats
# Command-line options, usage errors and exit statuses.

load helpers

@test "opt-1.1: --help prints usage on stdout, status 0" {
    run --separate-stderr tsr_run --help
    assert_success
    assert_output --partial "tsr"
    assert_output --regexp "[Uu]sage"
    [ -z "$stderr" ]
}

@test "opt-1.2: -h is --help" {
    run --separate-stderr tsr_run --help
    local long=$output
    run --separate-stderr tsr_run -h
    assert_success
    assert_equal "$output" "$long"
}

@test "opt-1.3: --help names every option" {
    run --separate-stderr tsr_run --help
    assert_success
    for opt in -e -i --keep-going --brief-errors --help --version; do
        assert_output --partial -- "$opt"
    done
}

@test "opt-2.1: --version prints 'tsr VERSION', status 0" {
    run --separate-stderr tsr_run --version
    assert_success
    assert_output "tsr $TSR_VERSION"
    [ -z "$stderr" ]
}

@test "opt-2.2: -V is --version" {
    run --separate-stderr tsr_run -V
    assert_success
    assert_output "tsr $TSR_VERSION"
}

@test "opt-3.1: unknown long option: message and usage on stderr, status 2" {
    run --separate-stderr tsr_run --foo
    assert_failure 2
    assert_output ""
    use_stderr
    assert_line --index 0 "tsr: unknown option '--foo'"
    assert_line --index 1 --regexp "[Uu]sage"
}

@test "opt-3.2: unknown short option, status 2" {
    run --separate-stderr tsr_run -Z
    assert_failure 2
    use_stderr
    assert_line --index 0 "tsr: unknown option '-Z'"
}

@test "opt-3.3: -e without its argument is a usage error, status 2" {
    run --separate-stderr tsr_run -e
    assert_failure 2
    assert_output ""
    [ -n "$stderr" ]
}

@test "opt-4.1: missing script file: message on stderr, status 2" {
    run --separate-stderr tsr_run x.tsr
    assert_failure 2
    assert_output ""
    use_stderr
    assert_output "tsr: cannot open 'x.tsr': No such file or directory"
}

@test "opt-4.2: a directory as the script is a usage error, status 2" {
    mkdir adir
    run --separate-stderr tsr_run adir
    assert_failure 2
    use_stderr
    assert_output --regexp "^tsr: cannot (open|read) 'adir'"
}

@test "opt-5.1: status 0 when every statement succeeds" {
    mkscript ok.tsr $'x = 1\nx + 1\n'
    run tsr_run ok.tsr
    assert_success
    run tsr_run -e 'x = 1'
    assert_success
    run tsr_stdin $'x = 1\nx\n'
    assert_success
}

@test "opt-5.2: status 1 when a statement fails (script, -e, stdin)" {
    mkscript bad.tsr $'1/0\n'
    run tsr_run bad.tsr
    assert_failure 1
    run tsr_run -e '1/0'
    assert_failure 1
    run tsr_stdin $'1/0\n'
    assert_failure 1
}

@test "opt-5.3: SIGINT in batch mode ends with status 130" {
    find_python || skip "python3 needed to deliver SIGINT"
    mkscript spin.tsr $'while True: pass\n'
    # Python starts tsr with SIGINT at its default disposition (a background
    # job of a non-interactive shell would ignore it), sends SIGINT and
    # reports the status as a shell does (128 + signal when killed).
    run "$PYTHON" -c '
import signal, subprocess, sys, time
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL)
time.sleep(1)
p.send_signal(signal.SIGINT)
try:
    rc = p.wait(timeout=20)
except subprocess.TimeoutExpired:
    p.kill(); print("tsr did not stop on SIGINT"); sys.exit(99)
sys.exit(128 - rc if rc < 0 else rc)
' "$TSR" spin.tsr
    assert_failure 130
}

@test "opt-6.1: arguments after the script belong to the script" {
    mkscript args.tsr $'print("ran")\n'
    run --separate-stderr tsr_run args.tsr --foo bar
    assert_success
    assert_output "ran"
}
