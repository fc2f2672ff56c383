#!/usr/bin/env bats
# Limits that give errors instead of crashes; broken pipes; huge input.

load helpers

rep() { # rep STRING N — STRING repeated N times
    local s
    printf -v s '%*s' "$2" ''
    printf '%s' "${s// /$1}"
}

@test "limits-1.1: 200 nested parentheses work" {
    run --separate-stderr tsr_run -e "$(rep '(' 200)1$(rep ')' 200)"
    assert_success
    assert_output "1"
}

@test "limits-1.2: 200 nested lists work" {
    local code
    code="$(rep '[' 200)$(rep ']' 200)"
    run --separate-stderr tsr_run -e "$code"
    assert_success
    assert_output "$code"
}

@test "limits-1.3: 201 nested brackets: SyntaxError: too many nested parentheses" {
    run --separate-stderr tsr_run -e "$(rep '(' 201)1$(rep ')' 201)"
    assert_failure 1
    use_stderr
    assert_line --index 0 --regexp '^<string>:1:[0-9]+: SyntaxError: too many nested parentheses$'
}

@test "limits-1.4: 100000 open brackets: SyntaxError, no crash" {
    run --separate-stderr tsr_run -e "$(rep '[(' 50000)"
    assert_failure 1
    use_stderr
    assert_line --index 0 --regexp 'SyntaxError: too many nested parentheses$'
}

@test "limits-1.5: nesting error on stdin, then the session goes on" {
    run --separate-stderr tsr_stdin "$(rep '(' 300)1$(rep ')' 300)"$'\n6 * 7\n'
    assert_failure 1
    assert_output "42"
    use_stderr
    assert_line --index 0 --regexp '^<stdin>:1:[0-9]+: SyntaxError: too many nested parentheses$'
}

@test "limits-2.1: runaway recursion: RecursionError" {
    mkscript s.tsr $'def f():\n    return f()\nf()\n'
    run --separate-stderr tsr_run s.tsr
    assert_failure 1
    use_stderr
    assert_line --index 0 --regexp '^s\.tsr:[0-9]+:[0-9]+: RecursionError: maximum recursion depth exceeded'
}

@test "limits-2.2: recursion with arguments and arithmetic: RecursionError, session goes on" {
    run --separate-stderr tsr_stdin $'def g(n): return g(n + 1) + 1\ng(0)\n6 * 7\n'
    assert_failure 1
    assert_output "42"
    use_stderr
    assert_line --regexp 'RecursionError: maximum recursion depth exceeded'
}

@test "limits-2.3: deep but bounded recursion works" {
    run --separate-stderr tsr_stdin $'def d(n):\n    if n == 0:\n        return 0\n    return d(n - 1) + 1\nd(500)\n'
    assert_success
    assert_output "500"
}

@test "limits-3.1: a 16 MiB one-line statement from a pipe is read whole" {
    # len([123456789012345,123456789012345,...]) — 1 Mi elements, 16 MiB.
    run --separate-stderr bash -c '
        { printf "len(["; yes 123456789012345, | tr -d "\n" | head -c 16777216; printf "])\n"; } |
        timeout 120 "$0"' "$TSR"
    assert_success
    assert_output "1048576"
}

@test "limits-3.2: a 16 MiB string literal from a pipe" {
    run --separate-stderr bash -c '
        { printf "s = \x27"; yes a | tr -d "\n" | head -c 16777216; printf "\x27\nlen(s)\n"; } |
        timeout 120 "$0"' "$TSR"
    assert_success
    assert_output "16777216"
}

@test "limits-4.1: 'tsr script.tsr | head -1' ends quietly" {
    mkscript many.tsr $'for i in range(200000):\n    print(i)\n'
    run --separate-stderr bash -c '"$0" many.tsr 2>err | head -1; echo "${PIPESTATUS[0]}" >status' "$TSR"
    assert_success
    assert_output "0"
    [ -z "$stderr" ]
    [ ! -s err ] || { cat err | fail; }
    # 0, 1 or killed by SIGPIPE (141) — never a crash (abort, segfault).
    local st
    st=$(cat status)
    [[ $st == 0 || $st == 1 || $st == 141 ]] || fail "tsr ended with status $st"
}

@test "limits-4.2: printed values into a closed pipe: quiet too" {
    # 50000 top-level expression statements, each printing its value.
    yes 'torch.arange(8)' | head -n 50000 > many.tsr
    run --separate-stderr bash -c '"$0" many.tsr 2>err | head -1; echo "${PIPESTATUS[0]}" >status' "$TSR"
    assert_success
    assert_output "tensor([0, 1, 2, 3, 4, 5, 6, 7])"
    [ ! -s err ] || { cat err | fail; }
    local st
    st=$(cat status)
    [[ $st == 0 || $st == 1 || $st == 141 ]] || fail "tsr ended with status $st"
}

@test "limits-5.1: data nested 300000 deep is built, compared, printed and freed without a crash" {
    cat > deep.tsr <<'TSR'
l = []
for i in range(300000):
    l = [l]
m = []
for i in range(300000):
    m = [m]
l == m
t = ()
for i in range(300000):
    t = (t,)
hash(t)
l
l = None
m = None
print('done')
TSR
    run --separate-stderr "$TSR" --keep-going deep.tsr
    assert_failure 1
    assert_output "done"
    [[ "$stderr" == *"RecursionError: maximum recursion depth exceeded in comparison"* ]]
    [[ "$stderr" == *"RecursionError: maximum recursion depth exceeded while calling a Python object"* ]]
    [[ "$stderr" == *"RecursionError: maximum recursion depth exceeded while getting the repr of an object"* ]]
}
