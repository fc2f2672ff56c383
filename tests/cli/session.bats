#!/usr/bin/env bats
# The interactive session as a Python user expects it (issue 12): Ctrl-C,
# pasted doctest blocks, exit/quit, `_`, auto-indent, history blocks. Driven
# through a pseudo-terminal (ptydrive.py) as tests/cli/repl.bats is.

load helpers

setup() {
    pty_session_setup
}

# spin_and_interrupt [N]  — ptydrive lines: start a loop that prints 'spin'
# and then runs forever, press Ctrl-C N times (default 1) once it spins,
# wait for the prompt.
spin_and_interrupt() {
    local n=${1:-1}
    printf '%s\n' "send for i in range(10 ** 12): i == 1 and print('spin')\\r" 'expect ...\s' 'send \r' 'expect/re ^spin$'
    for ((k = 0; k < n; k++)); do printf '%s\n' 'send \x03'; done
    printf '%s\n' 'expect/re ^>>> '
}

@test "sess-1.1: one Ctrl-C during a statement prints one KeyboardInterrupt" {
    run pty_tsr < <(echo 'expect >>>\s'; spin_and_interrupt; printf '%s\n' 'send 6 * 7\r' 'expect/re ^42$' 'expect >>>\s' 'send \x04' 'eof')
    assert_success
    [ "$(grep -c 'KeyboardInterrupt' <<<"$output")" -eq 1 ]
}

@test "sess-1.2: five statements interrupted in turn: the session goes on, its variables kept" {
    run pty_tsr < <(
        printf '%s\n' 'expect >>>\s' 'send keep = 7\r' 'expect >>>\s'
        for k in 1 2 3 4 5; do spin_and_interrupt; done
        printf '%s\n' 'send keep * 6\r' 'expect/re ^42$' 'expect >>>\s' 'send \x04' 'eof')
    assert_success
    [ "$(grep -c 'KeyboardInterrupt' <<<"$output")" -eq 5 ]
}

@test "sess-1.3: Ctrl-C pressed four times while one statement runs does not exit" {
    # (the Ctrl-Cs after the first reach an idle prompt, each clearing the
    # line: the sleep lets the last one land before 6 * 7 is typed, which a
    # late one would clear under load)
    run pty_tsr < <(echo 'expect >>>\s'; spin_and_interrupt 4
                    printf '%s\n' 'sleep 1' 'send 6 * 7\r' 'expect/re ^42$' 'expect >>>\s' 'send \x04' 'eof')
    # (the terminal may discard output on each Ctrl-C, so only the
    # session's survival is checked)
    assert_success
    assert_line '42'
}

@test "sess-1.4: Ctrl-C at an idle prompt, twice and more, does not exit" {
    run pty_tsr <<'EOF'
expect >>>\s
send \x03
expect/re ^KeyboardInterrupt$
expect >>>\s
send \x03
expect/re ^KeyboardInterrupt$
expect >>>\s
send \x03
expect/re ^KeyboardInterrupt$
expect >>>\s
send 6 * 7\r
expect/re ^42$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "sess-1.5: the interrupt is forgotten when the prompt returns: the next tensor op runs" {
    run pty_tsr < <(echo 'expect >>>\s'; spin_and_interrupt; printf '%s\n' 'send torch.ones(2) + 1\r' 'expect tensor([2., 2.])' 'expect >>>\s' 'send \x04' 'eof')
    assert_success
    [ "$(grep -c 'KeyboardInterrupt' <<<"$output")" -eq 1 ]
}

@test "sess-2.1: a pasted '>>>' block runs every statement, its output lines skipped, its ':' commands run" {
    run pty_tsr <<'EOF'
expect >>>\s
send \e[200~>>> a = 1\r>>> b = a + 1\r>>> if b:\r...     print(b * 10)\r20\r>>> :info torch.ones(3)\r>>> b\r2\r\e[201~\r
expect/re ^shape +\(3,\)$
expect/re ^2$
expect >>>\s
send a + b\r
expect/re ^3$
expect >>>\s
send \x04
eof
EOF
    assert_success
    assert_line "20"
    refute_output --partial "Error"
}

@test "sess-2.2: a pasted indented doctest block" {
    run pty_tsr <<'EOF'
expect >>>\s
send \e[200~    >>> a = 6\r    >>> a * 7\r    42\r\e[201~\r
expect/re ^42$
expect >>>\s
send \x04
eof
EOF
    assert_success
    refute_output --partial "Error"
}

@test "sess-3.1: exit alone prints Python's hint; exit() leaves with status 0" {
    run pty_tsr <<'EOF'
expect >>>\s
send exit\r
expect/re ^Use exit\(\) or Ctrl-D \(i\.e\. EOF\) to exit$
expect >>>\s
send quit\r
expect/re ^Use quit\(\) or Ctrl-D \(i\.e\. EOF\) to exit$
expect >>>\s
send exit()\r
eof
EOF
    assert_success
}

@test "sess-3.2: quit(3) leaves with status 3; exit(n) in a script too, nothing after it runs" {
    run pty_tsr <<'EOF'
expect >>>\s
send quit(3)\r
eof
EOF
    assert_failure 3
    run --separate-stderr "$TSR" -e 'print(1)' -e 'exit(5)' -e 'print(2)'
    assert_failure 5
    assert_output "1"
    run --separate-stderr "$TSR" -e 'exit("bye")'
    assert_failure 1
    [ "$stderr" = "bye" ]
}

@test "sess-3.3: _ holds the last value printed at the prompt" {
    run pty_tsr <<'EOF'
expect >>>\s
send 6 * 7\r
expect/re ^42$
expect >>>\s
send x = 1\r
expect >>>\s
send _ + 1\r
expect/re ^43$
expect >>>\s
send torch.ones(2)\r
expect >>>\s
send _.dtype\r
expect/re ^torch\.float32$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "sess-3.4: auto-indent after a line ending in ':', kept on the next lines, a blank line ends the block" {
    run pty_tsr <<'EOF'
expect >>>\s
send for i in range(2):\r
expect/re ^\.\.\.     $
send if i:\r
expect/re ^\.\.\.         $
send print('in', i)\r
expect/re ^\.\.\.         $
send \r
expect/re ^in 1$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "sess-3.5: a block is one history entry, recalled whole with Up, in a later session too" {
    run pty_tsr <<'EOF'
expect >>>\s
send for i in range(2):\r
expect ...\s
send print(i + 10)\r
expect ...\s
send \r
expect/re ^11$
expect >>>\s
send \x04
eof
EOF
    assert_success
    run pty_tsr <<'EOF'
expect >>>\s
send \x10\r
expect/re ^10$
expect/re ^11$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "sess-3.6: the history file is created with mode 0600" {
    run pty_tsr <<'EOF'
expect >>>\s
send 1\r
expect >>>\s
send \x04
eof
EOF
    assert_success
    [ "$(stat -c %a "$XDG_STATE_HOME/tsr/history")" = 600 ]
}

# session NAME: ptydrive lines entering NAME_0 .. NAME_19, then kill -9
history_session() {
    echo 'expect >>>\s'
    for k in $(seq 0 19); do printf 'send %s_%d = %d\\r\nexpect >>>\\s\n' "$1" "$k" "$k"; done
    printf '%s\n' 'kill KILL' 'eof'
}

@test "sess-3.7: two concurrent sessions, both killed with -9, lose no history line" {
    history_session alpha > a.script
    history_session beta > b.script
    pty_tsr < a.script > a.out & pa=$!
    pty_tsr < b.script > b.out & pb=$!
    wait "$pa" || true
    wait "$pb" || true
    for name in alpha beta; do
        for k in $(seq 0 19); do
            grep -qFx "${name}_$k = $k" "$XDG_STATE_HOME/tsr/history" || { echo "missing ${name}_$k"; return 1; }
        done
    done
}

@test "sess-3.8: an older history file of one line per entry keeps its entries apart" {
    mkdir -p "$XDG_STATE_HOME/tsr"
    printf 'legacy = 5\nlegacy * 7\n' > "$XDG_STATE_HOME/tsr/history"
    run pty_tsr <<'EOF'
expect >>>\s
send \x10\x10\r
expect >>>\s
send \x10\x10\r
expect/re ^35$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "sess-4.1: 'torch.zeros?' prints what help(torch.zeros) prints" {
    run --separate-stderr "$TSR" -e 'help(torch.zeros)'
    assert_success
    assert_line --index 0 "Help on built-in function zeros in module torch:"
    assert_line --index 1 --regexp '^zeros\(\*size, \*, out=None, dtype=None'
    run pty_tsr <<'EOF'
expect >>>\s
send torch.zeros?\r
expect Help on built-in function zeros in module torch:
expect/re ^zeros\(\*size, \*, out=None
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "sess-4.2: help(len) and ':help len' print Python's own text for a built-in" {
    run --separate-stderr "$TSR" -e 'help(len)'
    assert_success
    assert_output $'Help on built-in function len in module builtins:\n\nlen(obj, /)\n    Return the number of items in a container.'
    run pty_tsr <<'EOF'
expect >>>\s
send :help len\r
expect/re ^len\(obj, /\)$
expect/re ^    Return the number of items in a container\.$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "sess-4.3: a missing PyTorch op gets a note at the prompt, a typo the nearest name" {
    run pty_tsr <<'EOF'
expect >>>\s
send torch.lobpcg\r
expect/re ^AttributeError: module 'torch' has no attribute 'lobpcg'$
expect/re ^note: torch\.lobpcg is in PyTorch 1\.13 but not in tsr yet$
expect >>>\s
send torch.zeross(2)\r
expect/re ^AttributeError: module 'torch' has no attribute 'zeross'$
expect/re ^Did you mean: 'zeros'\?$
expect >>>\s
send torch.special.i0ee\r
expect/re ^Did you mean: 'i0e'\?$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "sess-4.4: outside the prompt the error stays PyTorch's alone" {
    run --separate-stderr "$TSR" --brief-errors -k -e 'torch.lobpcg'
    assert_failure 1
    assert_output "AttributeError: module 'torch' has no attribute 'lobpcg'"
    run --separate-stderr "$TSR" -e 'torch.zeross'
    assert_failure 1
    refute_output --partial "Did you mean"
    [[ "$stderr" != *"Did you mean"* ]]
}

@test "sess-5.1: :vars shows type, shape and dtype columns" {
    run --separate-stderr "$TSR" - <<<$'x = torch.ones(2, 3)\nn = 3\nz = torch.tensor(1.5, dtype=torch.float64)\nv = torch.arange(4)\n:vars\n'
    assert_success
    assert_line --index 0 --regexp '^name +type +shape +dtype +value$'
    assert_line --index 1 --regexp '^x +Tensor +\(2, 3\) +float32 +tensor\(\[\[1\., 1\., 1\.\], \[1\., 1\., 1\.\]\]\)$'
    assert_line --index 2 --regexp '^n +int +3$'
    assert_line --index 3 --regexp '^z +Tensor +\(\) +float64 +tensor\(1\.5000, dtype=torch\.float64\)$'
    assert_line --index 4 --regexp '^v +Tensor +\(4,\) +int64 +tensor\(\[0, 1, 2, 3\]\)$'
}

@test "sess-5.2: :reset forgets the names bound; torch stays" {
    run --separate-stderr "$TSR" - <<<$'a = 1\nb = torch.ones(1)\n:reset\n:vars\ntorch.zeros(1)\na\n'
    assert_failure 1
    assert_output $'(2 names removed)\n(no variables)\ntensor([0.])'
    [[ "$stderr" == *"NameError: name 'a' is not defined"* ]]
}

@test "sess-5.3: Tab after ':load' completes file names" {
    mkdir -p sub
    echo 'loaded_ok = 41 + 1' > sub/my-script.tsr
    run pty_tsr <<'EOF'
expect >>>\s
send :load su\t
expect sub/
send my\t
expect my-script.tsr
send \r
expect >>>\s
send loaded_ok\r
expect/re ^42$
expect >>>\s
send \x04
eof
EOF
    assert_success
}

@test "sess-2.3: a pasted block of plain code runs at once on Enter, as Python 3.13's" {
    run pty_tsr <<'EOF'
expect >>>\s
send \e[200~a = 1\rb = 2\rprint(a + b)\e[201~\r
expect/re ^3$
expect >>>\s
send \e[200~for i in range(2):\r    print(i * 7)\e[201~\r
expect/re ^7$
expect >>>\s
send \x04
eof
EOF
    assert_success
    refute_output --partial "Error"
}
