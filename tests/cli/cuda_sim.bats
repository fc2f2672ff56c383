#!/usr/bin/env bats
# Tensors on cuda, computed (issue 22), tested without a GPU: TSR_CUDA=sim
# loads libtsr_cuda_sim.so, cuda/backend.cu built with g++ over an emulated
# CUDA runtime (cuda/sim_runtime.h) whose device memory host code cannot
# touch, so a host access to a cuda tensor's memory crashes here as it would
# on a GPU. The expected text is what PyTorch prints for the same statements
# on a GPU (values that a GPU computes alike: exact, or printed to 4 digits).

load helpers

sim() {
    SO=$(dirname "$TSR")/libtsr_cuda_sim.so
    [ -f "$SO" ] || skip "no libtsr_cuda_sim.so beside $TSR"
    export TSR_CUDA=sim
}

@test "cuda-sim-1.1: creation, transfers, printing, views and elementwise kernels" {
    sim
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_sim/compute.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_sim/compute.out")"
}

@test "cuda-sim-1.2: an op without a CUDA kernel raises the dispatcher's error, never computes on the host" {
    sim
    for e in 'torch.ones(3, device="cuda").sum()' 'torch.ones(2, device="cuda") @ torch.ones(2, device="cuda")' \
             'torch.cat([torch.ones(2, device="cuda")])' 'torch.ones(3, device="cuda")[torch.tensor([0, 2])]' \
             'torch.mvlgamma(torch.ones(3, device="cuda"), 1)' 'torch.nn.functional.softmax(torch.ones(3, device="cuda"), 0)'; do
        run --separate-stderr "$TSR" --brief-errors -e "$e"
        assert_failure 1
        assert_output --regexp "^NotImplementedError: Could not run 'aten::[a-z_.A-Z]+' with arguments from the 'CUDA' backend\\."
    done
}

@test "cuda-sim-1.3: devices: the CPU-scalar exception, mixed devices, two GPUs, memory counters" {
    sim
    export TSR_CUDA_SIM_DEVICES=2
    run --separate-stderr "$TSR" --brief-errors --keep-going -e 'x = torch.ones(2, device="cuda:1")' \
        -e 'x + torch.tensor(2.)' -e 'x + torch.ones(2)' -e 'x + torch.ones(2, device="cuda")' \
        -e '(x.to("cuda:0") * 3).cpu()' -e 'torch.cuda.memory_allocated(1), torch.cuda.memory_allocated(0)' \
        -e 'torch.cuda.device_count(), torch.cuda.is_available()'
    assert_output "tensor([3., 3.], device='cuda:1')
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:1 and cpu!
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:1 and cuda:0!
tensor([3., 3.])
(512, 0)
(2, True)"
}

@test "cuda-sim-1.4: factories and conversions give the device the CPU's values" {
    sim
    for e in 'torch.arange(7, dtype=torch.float64)' 'torch.linspace(-1, 1, 9)' 'torch.logspace(0, 2, 5)' \
             'torch.eye(4, 3)' 'torch.tril_indices(4, 3)' 'torch.hann_window(8)' 'torch.full((2, 3), 2.5)' \
             'torch.tensor([[1, 2], [3, 4]], dtype=torch.int8)' 'torch.zeros(2, 3).t()'; do
        cpu=$("$TSR" -e "$e.tolist()")
        dev=$(TSR_DEFAULT_DEVICE= "$TSR" -e "torch.set_default_device('cuda')" -e "$e.tolist()")
        [ "$cpu" = "$dev" ] || { echo "$e: cpu $cpu, cuda $dev"; return 1; }
    done
}

@test "cuda-sim-1.5: random sampling on cuda is refused, not drawn on the host" {
    sim
    run --separate-stderr "$TSR" --brief-errors -e 'torch.randn(3, device="cuda")'
    assert_failure 1
    assert_output "NotImplementedError: tsr: random sampling is implemented for CPU tensors only"
}
