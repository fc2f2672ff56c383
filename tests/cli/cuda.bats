#!/usr/bin/env bats
# The CUDA backend from the host's side (issue 22): one tsr binary with no
# CUDA library linked, the backend loaded with dlopen on first use, PyTorch's
# messages where there is no driver or no GPU, and TSR_CUDA=0 making a build
# with the backend answer exactly as a CPU-only PyTorch 1.13.

load helpers

# the backend that $TSR would load, or skip
need_backend() {
    SO=$(dirname "$TSR")/libtsr_cuda.so
    [ -f "$SO" ] || skip "no CUDA backend beside $TSR (built only where nvcc is found)"
    unset TSR_CUDA
}

# whether this machine has a CUDA driver and GPU (then the no-GPU messages
# cannot be seen)
has_gpu() { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; }

@test "cuda-1.1: the tsr binary links no CUDA library" {
    command -v ldd >/dev/null || skip "no ldd"
    run ldd "$TSR"
    assert_success
    refute_output --partial cudart
    refute_output --partial cublas
    refute_output --partial libcuda
}

@test "cuda-1.2: TSR_CUDA=0 answers as a CPU-only PyTorch even beside a backend" {
    export TSR_CUDA=0
    run --separate-stderr "$TSR" --brief-errors --keep-going -e 'torch.cuda.is_available()' -e 'torch.cuda.device_count()' \
        -e 'torch.zeros(1, device="cuda")' -e 'torch.cuda.FloatTensor(2)' -e 'torch.cuda.current_device()'
    assert_output $'False\n0\nAssertionError: Torch not compiled with CUDA enabled\nTypeError: type torch.cuda.FloatTensor not available. Torch not compiled with CUDA enabled.\nAssertionError: Torch not compiled with CUDA enabled'
}

@test "cuda-2.1: with the backend and no driver: not available, PyTorch's driver message, no crash" {
    need_backend
    has_gpu && skip "this machine has a GPU"
    run --separate-stderr "$TSR" --brief-errors --keep-going -e 'torch.cuda.is_available()' -e 'torch.cuda.device_count()' \
        -e 'torch.zeros(2, device="cuda")' -e 'torch.ones(2).cuda()' -e 'torch.cuda.FloatTensor(3, 4)' \
        -e 'torch.cuda.current_device()' -e 'torch.cuda.synchronize()' -e 'torch.cuda.memory_allocated()' \
        -e 'torch.cuda.manual_seed(1)' -e 'torch.cuda.empty_cache()' -e '1 + 1'
    assert_failure 1   # (errors were reported; the session went on to 1 + 1)
    driver="RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx"
    nogpu="RuntimeError: No CUDA GPUs are available"
    [ "${lines[0]}" = False ]
    [ "${lines[1]}" = 0 ]
    for i in 2 3 4 5 6; do
        [ "${lines[$i]}" = "$driver" ] || [ "${lines[$i]}" = "$nogpu" ]
    done
    [ "${lines[7]}" = 0 ]
    [ "${lines[8]}" = 2 ]
}

@test "cuda-2.2: the seed-003 transfer example stops at the first cuda call with the driver message" {
    need_backend
    has_gpu && skip "this machine has a GPU"
    mkscript s.tsr $'import torch.cuda\na = torch.cuda.FloatTensor(3, 4)\nprint(a)\n'
    run --separate-stderr "$TSR" s.tsr
    assert_failure 1
    [[ "$stderr" == *"Error: "*"driver"* || "$stderr" == *"No CUDA GPUs are available"* ]]
}
