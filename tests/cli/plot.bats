#!/usr/bin/env bats
# :plot, :hist and :show draw a tensor in the terminal (Unicode braille and
# blocks), with the value range on the axes; colour only on a terminal
# without NO_COLOR.

load helpers

setup() {
    [ -x "$TSR" ] || skip "no tsr binary at $TSR (run make first)"
    cd "$BATS_TEST_TMPDIR" || return 1
}

@test "plot-1.1: :plot of a line: 12 braille rows, the range on the axis, no colour in a pipe" {
    run --separate-stderr "$TSR" - <<<$':plot torch.arange(10.)\n'
    assert_success
    assert_equal "${#lines[@]}" 14
    assert_line --index 0 --regexp '^9 ┤⠀+[⢀⡠⠤⠒]+⠉$'
    assert_line --index 11 --regexp '^0 ┤'
    assert_line --index 12 --regexp '^  └─+$'
    assert_line --index 13 --regexp '^   0 +9$'
    refute_output --partial $'\e['
    # the lowest value is the bottom-left dot, the highest the top-right one
    [[ "${lines[11]}" == "0 ┤⣀"* ]]
}

@test "plot-1.2: :plot of a constant and of a long tensor" {
    run --separate-stderr "$TSR" - <<<$':plot torch.ones(5)\n:plot torch.linspace(-1, 1, 1000)\n'
    assert_success
    assert_line --index 0 --regexp '^1 ┤'
    assert_line --index 14 --regexp '^ 1 ┤'
    assert_line --index 25 --regexp '^-1 ┤'
}

@test "plot-1.3: :plot refuses what it cannot draw, with the error type" {
    run --separate-stderr "$TSR" - <<<$':plot 3\n:plot torch.ones(2, 2)\n:plot torch.ones(2, dtype=torch.complex64)\n:plot torch.ones(0)\n'
    assert_failure 1
    [[ "$stderr" == *"TypeError: :plot needs a tensor, not int"* ]]
    [[ "$stderr" == *"ValueError: :plot needs a 1-D tensor, not 2-D"* ]]
    [[ "$stderr" == *"TypeError: :plot needs real values, not complex64"* ]]
    [[ "$stderr" == *"ValueError: :plot needs at least one element"* ]]
}

@test "plot-2.1: :hist counts every value once, in 20 bins, the range in the labels" {
    run --separate-stderr "$TSR" - <<<$':hist torch.arange(100.)\n'
    assert_success
    assert_equal "${#lines[@]}" 21
    assert_line --index 0 --regexp '^ +0 +4\.95 +│█+ +5$'
    assert_line --index 19 --regexp '^ +94\.05 +99 +│█+ +5$'
    assert_line --index 20 "100 values in [0, 99]"
}

@test "plot-2.2: :hist of values with inf and nan leaves those out and says so" {
    run --separate-stderr "$TSR" - <<<$':hist torch.tensor([1., 2., float("inf"), float("nan")])\n'
    assert_success
    assert_line --index 20 "2 values in [1, 2], 2 not finite (left out)"
}

@test "plot-3.1: :show draws a 2-D tensor with the ramp, the shape and the range" {
    run --separate-stderr "$TSR" - <<<$':show torch.arange(4.).view(2, 2)\n'
    assert_success
    assert_line --index 0 '  --'
    assert_line --index 1 '**@@'
    assert_line --index 2 "2 x 2, values from 0 (' ') to 3 ('@')"
}

@test "plot-3.2: :show samples a large tensor" {
    run --separate-stderr "$TSR" - <<<$':show torch.rand(100, 200)\n'
    assert_success
    assert_equal "${#lines[@]}" 41
    assert_line --index 40 --regexp '^100 x 200 \(shown 40 x 60, sampled\), values from '
}

@test "plot-4.1: colour on a terminal that has it, none with NO_COLOR or TERM=dumb" {
    need_pty
    export XDG_STATE_HOME="$BATS_TEST_TMPDIR/state"
    unset NO_COLOR
    script() { printf '%s\n' 'expect >>>\s' 'send :plot torch.arange(3.)\r' 'expect >>>\s' 'send \x04' 'eof'; }
    PTY_TERM=xterm run pty_tsr < <(script)
    assert_success
    assert_output --partial $'\e[36m'
    NO_COLOR=1 PTY_TERM=xterm run pty_tsr < <(script)
    assert_success
    refute_output --partial $'\e[36m'
    run pty_tsr < <(script)
    assert_success
    refute_output --partial $'\e[36m'
}
