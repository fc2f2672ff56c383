#!/usr/bin/env bats
# The cuda run mode (TSR_DEFAULT_DEVICE) and scripts/gpu-check (issue 22):
# the mode against a CPU-only build and the CUDA simulator, the script's
# classes and summary against stand-ins for a tsr with a GPU (a shell script
# that runs the real tsr on the CPU and prints cuda's device text), and the
# script itself with TSR_CUDA=sim where the simulator is built.

load helpers

GPU_CHECK=$BATS_TEST_DIRNAME/../../scripts/gpu-check

# the simulator beside $TSR, or skip
need_sim() {
    [ -f "$(dirname "$TSR")/libtsr_cuda_sim.so" ] || skip "no CUDA simulator (libtsr_cuda_sim.so) beside $TSR"
    export TSR_CUDA=sim
}

# fake_gpu_tsr [SHELL CODE]: writes ./fake-tsr, a tsr whose cuda is the CPU
# printed with cuda's device text; SHELL CODE, when given, runs first in the
# cuda run of a case (whose path is in $case; the real tsr is "$real")
fake_gpu_tsr() {
    cat > fake-tsr <<EOF
#!/usr/bin/env bash
real='$TSR'
if [ "\${TSR_DEFAULT_DEVICE:-}" = cuda ]; then
    unset TSR_DEFAULT_DEVICE
    case=\${!#}
    case \$case in *.tsr) ${1:-:} ;; esac
    TSR_CUDA=0 "\$real" "\$@" | sed -e '1s/^False\$/True/' -e "s/^\\(tensor(\\[[^]]*\\]\\))\$/\\1, device='cuda:0')/"
    exit "\${PIPESTATUS[0]}"
fi
TSR_CUDA=0 exec "\$real" "\$@"
EOF
    chmod +x fake-tsr
    export TSR_CUDA=fake   # (gpu-check refuses TSR_CUDA=0)
}

# assert_summary PASSED FAILED: the five class lines in order, then the tally last
assert_summary() {
    local classes
    classes=$(printf '%s\n' "${lines[@]}" | grep -E '^(same|close|unsupported|differs|crashed): [0-9]+' | cut -d: -f1 | tr '\n' ' ')
    [ "$classes" = "same close unsupported differs crashed " ] || fail "class lines: $classes"
    assert_line --regexp '^unsupported: [0-9]+( \([^:,]+: [0-9]+(, [^:,]+: [0-9]+)*\))?$'
    [ "${lines[${#lines[@]} - 1]}" = "$1 passed, $2 failed" ] || fail "tally: ${lines[${#lines[@]} - 1]}, not $1 passed, $2 failed"
}

@test "gpucheck-1.1: TSR_DEFAULT_DEVICE=cpu is the plain CPU session" {
    run --separate-stderr env TSR_DEFAULT_DEVICE=cpu "$TSR" -e 'print(torch.ones(2))' -e 'print(repr(torch.get_default_device()))'
    assert_success
    assert_output $'tensor([1., 1.])\ndevice(type=\'cpu\')'
}

@test "gpucheck-1.2: TSR_DEFAULT_DEVICE=cuda without CUDA fails at the first tensor, as torch.set_default_device('cuda')" {
    run --separate-stderr env TSR_DEFAULT_DEVICE=cuda "$TSR" --brief-errors -k -e 'print(1)' -e 'torch.ones(2)' -e 'torch.zeros(1)'
    assert_failure 1
    assert_output $'1\nAssertionError: Torch not compiled with CUDA enabled\nAssertionError: Torch not compiled with CUDA enabled'
    local env_out=$output
    run --separate-stderr "$TSR" --brief-errors -k -e "torch.set_default_device('cuda')" -e 'print(1)' -e 'torch.ones(2)' \
        -e 'torch.zeros(1)'
    assert_failure 1
    assert_output "$env_out"
}

@test "gpucheck-1.3: an invalid TSR_DEFAULT_DEVICE reports set_default_device's error and exits 1 before the script" {
    run --separate-stderr env TSR_DEFAULT_DEVICE=gpu "$TSR" --brief-errors -e 'print(1)'
    assert_failure 1
    want=$("$TSR" --brief-errors -e "torch.set_default_device('gpu')" || true)
    assert_output "$want"
    assert_output --partial "device string: gpu"
    run --separate-stderr env TSR_DEFAULT_DEVICE=gpu "$TSR" -e 'print(1)'
    assert_failure 1
    assert_output ""
    [[ ${stderr_lines[0]} == "<TSR_DEFAULT_DEVICE>:1:1: RuntimeError: Expected one of cpu, cuda, "* ]]
    [ "${stderr_lines[1]}" = "    torch.set_default_device('gpu')" ]
}

@test "gpucheck-1.4: TSR_DEFAULT_DEVICE is a string, never code; empty is unset" {
    run --separate-stderr env "TSR_DEFAULT_DEVICE=cpu'); print('injected" "$TSR" --brief-errors -e 'print(1)'
    assert_failure 1
    assert_output "RuntimeError: Invalid device string: 'cpu'); print('injected'"
    run --separate-stderr env 'TSR_DEFAULT_DEVICE=a\b' "$TSR" --brief-errors -e 'print(1)'
    assert_failure 1
    assert_output --partial 'a\b'
    run --separate-stderr env TSR_DEFAULT_DEVICE= "$TSR" -e 'print(torch.ones(1))'
    assert_success
    assert_output 'tensor([1.])'
}

@test "gpucheck-1.5: TSR_DEFAULT_DEVICE=meta, and the REPL's standard input, start on that device" {
    run --separate-stderr tsr_stdin $'torch.ones(2)\n'
    assert_success
    assert_output 'tensor([1., 1.])'
    TSR_DEFAULT_DEVICE=meta run --separate-stderr tsr_stdin $'torch.ones(2)\n'
    assert_success
    assert_output "tensor(..., device='meta', size=(2,))"
}

@test "gpucheck-1.6: tsr(1) documents TSR_DEFAULT_DEVICE" {
    grep -q '^\.B TSR_DEFAULT_DEVICE$' "$BATS_TEST_DIRNAME/../../man/tsr.1"
}

@test "gpucheck-2.1: gpu-check refuses TSR_CUDA=0 and a missing tsr, with status 2" {
    run --separate-stderr "$GPU_CHECK" --no-bench --tsr "$TSR" -k pointwise/addc
    assert_failure 2
    [[ $stderr == *"TSR_CUDA=0"* ]]
    unset TSR_CUDA
    run --separate-stderr "$GPU_CHECK" --no-bench --tsr ./no-such-tsr
    assert_failure 2
    [[ $stderr == *"not found"* ]]
}

@test "gpucheck-2.2: gpu-check stops with status 2 when tsr makes no tensors on cuda" {
    cat > cpu-tsr <<EOF
#!/usr/bin/env bash
TSR_CUDA=0 exec '$TSR' "\$@"
EOF
    chmod +x cpu-tsr
    export TSR_CUDA=fake
    run --separate-stderr "$GPU_CHECK" --no-bench --tsr ./cpu-tsr -k pointwise/addc
    assert_failure 2
    assert_output ""
    [[ $stderr == *"tsr makes no tensors on cuda"*"Torch not compiled with CUDA enabled"* ]]
}

@test "gpucheck-2.3: a filter that matches nothing: 0 passed, 0 failed, status 1" {
    fake_gpu_tsr
    run --separate-stderr "$GPU_CHECK" --no-bench --tsr ./fake-tsr -k no-such-case-anywhere
    assert_failure 1
    assert_output "0 passed, 0 failed"
}

@test "gpucheck-2.4: equal outputs but for the device text are 'same'; status 0" {
    fake_gpu_tsr
    run --separate-stderr "$GPU_CHECK" --no-bench --tsr ./fake-tsr -k pointwise/addc -j 2
    assert_success
    assert_line "same: 2"
    assert_line "differs: 0"
    assert_summary 2 0
}

@test "gpucheck-2.5: a missing CUDA kernel is 'unsupported', counted and named, not a failure" {
    fake_gpu_tsr "echo \"NotImplementedError: Could not run 'aten::addcmul' with arguments from the 'CUDA' backend. This could be...\"; exit 1"
    run --separate-stderr "$GPU_CHECK" --no-bench --tsr ./fake-tsr -k pointwise/addc -j 2
    assert_success
    assert_line "unsupported: 2 (no CUDA kernel: 2)"
    assert_line "  commonest missing kernels: aten::addcmul 2"
    assert_summary 2 0
}

@test "gpucheck-2.6: an extra line is 'differs' (shown with the case), a signal is 'crashed'; status 1" {
    fake_gpu_tsr 'case $case in *addcdiv*) kill -SEGV $$ ;; esac; TSR_CUDA=0 "$real" "$@"; echo "tensor([7.])"; exit'
    run --separate-stderr "$GPU_CHECK" --no-bench --tsr ./fake-tsr -k pointwise/addc -j 2
    assert_failure 1
    assert_line "crashed: pointwise/addcdiv (cuda run: killed by signal 11)"
    assert_line --regexp '^differs: pointwise/addcmul \(line [0-9]+; exit status [01] on the cpu, [01] on cuda\)$'
    assert_line "  + cuda: tensor([7.])"
    assert_line "differs: 1"
    assert_line "crashed: 1"
    assert_summary 0 2
}

@test "gpucheck-2.7: a float one unit off in its last printed digit is 'close', ten units 'differs'" {
    grep -q '0\.6931' "$BATS_TEST_DIRNAME/../conformance/cases/names/other-lgamma.out" || skip "names/other-lgamma changed"
    fake_gpu_tsr 'TSR_CUDA=0 "$real" "$@" | sed s/0\.6931/0.6932/; exit "${PIPESTATUS[0]}"'
    run --separate-stderr "$GPU_CHECK" --no-bench --tsr ./fake-tsr -k names/other-lgamma
    assert_success
    assert_line "close: 1"
    assert_summary 1 0
    fake_gpu_tsr 'TSR_CUDA=0 "$real" "$@" | sed s/0\.6931/0.6941/; exit "${PIPESTATUS[0]}"'
    run --separate-stderr "$GPU_CHECK" --no-bench --tsr ./fake-tsr -k names/other-lgamma
    assert_failure 1
    assert_line "  + cuda: tensor([[0.0000, 0.0000, 0.6941],"
    assert_summary 0 1
}

@test "gpucheck-3.1: with the simulator, TSR_DEFAULT_DEVICE=cuda makes tensors on cuda:0" {
    need_sim
    run --separate-stderr env TSR_DEFAULT_DEVICE=cuda "$TSR" -e 'print(torch.ones(2))' -e 'print(torch.get_default_device())'
    assert_success
    assert_output $'tensor([1., 1.], device=\'cuda:0\')\ncuda:0'
}

@test "gpucheck-3.2: gpu-check --no-bench in the simulator: the summary and status 0" {
    need_sim
    run --separate-stderr timeout 60 "$GPU_CHECK" --no-bench --tsr "$TSR" -k tensor-print/b -j 2
    assert_success
    assert_line "same: 3"
    assert_summary 3 0
    # ops without a CUDA kernel yet, or with one: passed either way
    run --separate-stderr timeout 60 "$GPU_CHECK" --no-bench --tsr "$TSR" -k pointwise/a -j 2
    assert_success
    assert_summary 4 0
}
