# tests/cli/helpers.bash — shared setup of the Bats tests of the tsr program.
# Load it first in every .bats file:   load helpers

load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

# `run --separate-stderr` needs Bats 1.5.
bats_require_minimum_version 1.5.0

TSR=${TSR:-$BATS_TEST_DIRNAME/../../tsr}
TSR_VERSION=$(cat "$BATS_TEST_DIRNAME/../../VERSION")
PTYDRIVE=$BATS_TEST_DIRNAME/ptydrive.py
# The tests expect what a CPU-only PyTorch prints; tests/cli/cuda.bats unsets
# this to try the CUDA backend (libtsr_cuda.so) where it was built.
export TSR_CUDA=0
# The kernels of OpenBLAS and oneDNN as on a CPU with AVX2 and without AVX-512,
# as tests/conformance/run picks them: the expected values hold on every
# x86-64 machine (tests/cli/onednn_bf16.bats lifts the oneDNN cap itself)
export OPENBLAS_CORETYPE=Haswell ONEDNN_MAX_CPU_ISA=AVX2

setup() {
    [ -x "$TSR" ] || skip "no tsr binary at $TSR (run make first)"
    # A clean, predictable environment: no history in the user's home, no colors
    # decided by the caller's environment, no terminal.
    export XDG_STATE_HOME="$BATS_TEST_TMPDIR/state"
    export HOME="$BATS_TEST_TMPDIR/home"
    mkdir -p "$HOME"
    unset TSR_HISTORY NO_COLOR
    cd "$BATS_TEST_TMPDIR" || return 1
}

# tsr_run ARG...  — tsr with standard input from /dev/null (never a terminal,
# even when the suite is started from one).
# Every call is bounded by timeout(1) so that a hang fails the test instead
# of stalling the suite (status 124 then).
TSR_TEST_TIMEOUT=${TSR_TEST_TIMEOUT:-60}
tsr_run() {
    timeout -k 5 "$TSR_TEST_TIMEOUT" "$TSR" "$@" </dev/null
}

# tsr_stdin TEXT ARG...  — tsr reading TEXT from a pipe.
tsr_stdin() {
    local text=$1
    shift
    printf '%s' "$text" | timeout -k 5 "$TSR_TEST_TIMEOUT" "$TSR" "$@"
}

# mkscript NAME TEXT  — writes TEXT to NAME in the test's directory.
mkscript() {
    printf '%s' "$2" > "$BATS_TEST_TMPDIR/$1"
}

# use_stderr — point $output and $lines at $stderr so that bats-assert's
# assert_output / assert_line check the error stream after run --separate-stderr.
use_stderr() {
    output=$stderr
    lines=("${stderr_lines[@]}")
}

# refute_escapes TEXT  — fails when TEXT holds an ESC byte (color or cursor codes).
refute_escapes() {
    if [[ $1 == *$'\e'* ]]; then
        printf 'unexpected escape sequence in:\n%q\n' "$1" | fail
    fi
}

# Python 3 for the pseudo-terminal driver.
find_python() {
    PYTHON=$(command -v python3 2>/dev/null || true)
    [ -n "$PYTHON" ] || { [ -x /usr/bin/python3 ] && PYTHON=/usr/bin/python3; }
    [ -n "$PYTHON" ]
}

# pty_tsr ARG... < SCRIPT  — tsr on a pseudo-terminal (TERM=dumb), driven by
# the ptydrive.py SCRIPT on standard input (expect/send lines). The transcript
# is the output; the status is tsr's (124 when an expect timed out).
# PTY_TERM changes TERM.
pty_tsr() {
    TERM=${PTY_TERM:-dumb} "$PYTHON" "$PTYDRIVE" -t "${PTY_TIMEOUT:-10}" -- "$TSR" "$@"
}

# need_pty — skip the test when no Python 3 is there to drive a terminal.
need_pty() {
    find_python || skip "python3 not found: the pseudo-terminal tests need it"
}

# pty_session_setup — the setup of the interactive-session tests: a tsr
# binary, a terminal driver, a private HOME and state directory (so history
# files are the test's own), no TSR_HISTORY or NO_COLOR from outside.
pty_session_setup() {
    [ -x "$TSR" ] || skip "no tsr binary at $TSR (run make first)"
    need_pty
    export XDG_STATE_HOME="$BATS_TEST_TMPDIR/state"
    export HOME="$BATS_TEST_TMPDIR/home"
    mkdir -p "$HOME"
    unset TSR_HISTORY NO_COLOR
    cd "$BATS_TEST_TMPDIR" || return 1
}

# caret_at LINE  — the 0-based column of the first '^' in LINE (-1 if none).
caret_at() {
    local s=${1%%^*}
    if [ "$s" = "$1" ]; then echo -1; else echo "${#s}"; fi
}

# assert_caret SOURCE_LINE CARET_LINE TOKEN  — the context lines of an error
# report: SOURCE_LINE is indented by 4 spaces, CARET_LINE is spaces then
# '^' (or '~~^~~'), and its '^' stands under the first occurrence of TOKEN.
assert_caret() {
    local src=$1 car=$2 tok=$3
    [[ $src == "    "* ]] || { printf 'source line not indented by 4 spaces: %q\n' "$src" | fail; return; }
    [[ $car =~ ^\ +~*\^+~*$ ]] || { printf 'not a caret line: %q\n' "$car" | fail; return; }
    local before=${src%%"$tok"*}
    [ "$before" != "$src" ] || { printf 'token %q not in %q\n' "$tok" "$src" | fail; return; }
    local want=${#before} got
    got=$(caret_at "$car")
    if [ "$got" -ne "$want" ]; then
        printf 'caret at column %d, token %q at column %d\n%s\n%s\n' "$got" "$tok" "$want" "$src" "$car" | fail
    fi
}
