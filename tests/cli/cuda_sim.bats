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
    for e in 'torch.ones(3, device="cuda").renorm(2, 0, 1)' 'torch.ones(2, device="cuda").outer(torch.ones(2, device="cuda"))' \
             'torch.ones(2, 2, device="cuda").matrix_exp()' 'torch.ones(3, device="cuda").frexp()' \
             'torch.mvlgamma(torch.ones(3, device="cuda"), 1)' 'torch.nn.functional.pdist(torch.ones(3, 2, device="cuda"))'; do
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

@test "cuda-sim-1.5: a sampler without a CUDA kernel yet is refused, not drawn on the host (cuda_random.bats has the rest)" {
    sim
    for e in 'torch.randperm(3, device="cuda")' 'torch.poisson(torch.ones(3, device="cuda"))' \
             'torch.multinomial(torch.ones(3, device="cuda"), 2)'; do
        run --separate-stderr "$TSR" --brief-errors -e "$e"
        assert_failure 1
        assert_output --regexp "^NotImplementedError: Could not run 'aten::(randperm.generator_out|poisson|multinomial)' with arguments from the 'CUDA' backend\\."
    done
}

@test "cuda-sim-1.6: the current device: set_device, torch.cuda.device(i), properties" {
    sim
    export TSR_CUDA_SIM_DEVICES=2
    run --separate-stderr "$TSR" --brief-errors --keep-going -e 'torch.cuda.current_device()' \
        -e 'torch.cuda.get_device_capability(0)' -e 'torch.cuda.get_device_properties(1).multi_processor_count' \
        -e 'torch.cuda.set_device(1)' -e 'torch.cuda.current_device(), torch.ones(1, device="cuda").device' \
        -e 'torch.ones(1).cuda().device' \
        -e $'with torch.cuda.device(0):\n    print(torch.cuda.current_device(), torch.zeros(1, device="cuda").device)' \
        -e 'torch.cuda.current_device()' -e 'torch.cuda.set_device(2)' -e 'torch.ones(1, device="cuda:7")'
    assert_output "0
(9, 0)
132
(1, device(type='cuda', index=1))
device(type='cuda', index=1)
0 cuda:0
1
RuntimeError: CUDA error: invalid device ordinal
RuntimeError: CUDA error: invalid device ordinal"
}

@test "cuda-sim-1.7: backward through device kernels and across devices (ToCopyBackward0 moves the gradient back)" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going \
        -e 'x = torch.tensor([1., 2., 3.], device="cuda", requires_grad=True)' \
        -e '((x * 2).exp() - x).backward(torch.ones(3, device="cuda"))' -e 'x.grad' \
        -e 'w = torch.ones(2, 3, device="cuda", requires_grad=True)' \
        -e '(w * torch.tensor([1., 2., 3.], device="cuda")).backward(torch.ones(2, 3, device="cuda"))' -e 'w.grad' \
        -e 'c = torch.ones(2, requires_grad=True)' -e 'y = c.cuda() * 3' -e 'y.grad_fn.next_functions[0][0].name()' \
        -e 'y.backward(torch.ones(2, device="cuda"))' -e 'c.grad' \
        -e 'z = torch.ones(2, device="cuda", requires_grad=True)' \
        -e '(z.cpu().double() * 2).backward(torch.ones(2, dtype=torch.float64))' -e 'z.grad'
    assert_output "tensor([ 13.7781, 108.1963, 805.8576], device='cuda:0')
tensor([[1., 2., 3.],
        [1., 2., 3.]], device='cuda:0')
'ToCopyBackward0'
tensor([3., 3.])
tensor([2., 2.], device='cuda:0')"
}

@test "cuda-sim-1.8: torch.save writes cuda storages with their location; torch.load restores them there" {
    sim
    export TSR_CUDA_SIM_DEVICES=2
    run --separate-stderr "$TSR" --brief-errors --keep-going \
        -e 'x = torch.arange(6.).view(2, 3).cuda(1).t()' -e 'torch.save({"a": x, "b": torch.ones(2)}, "ck.pt")' \
        -e 'd = torch.load("ck.pt")' -e 'd["a"], d["a"].stride()' -e 'torch.load("ck.pt", map_location="cpu")["a"].device'
    assert_output "(tensor([[0., 3.],
        [1., 4.],
        [2., 5.]], device='cuda:1'), (1, 3))
device(type='cpu')"
    TSR_CUDA_SIM_DEVICES=1 run --separate-stderr "$TSR" --brief-errors -e 'torch.load("ck.pt")'
    assert_output "RuntimeError: Attempting to deserialize object on CUDA device 1 but torch.cuda.device_count() is 1. Please use torch.load with map_location to map your storages to an existing device."
    TSR_CUDA=0 run --separate-stderr "$TSR" --brief-errors -e 'torch.load("ck.pt")'
    assert_output "RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU."
    if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import torch' 2>/dev/null; then
        run /usr/bin/python3 -c 'import torch; d = torch.load("ck.pt", map_location="cpu"); print(d["a"].tolist(), d["a"].stride())'
        assert_output "[[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]] (1, 3)"
    fi
}

@test "cuda-sim-1.9: seed 003's transfers between GPUs and torch.cuda.device(i) on three GPUs" {
    sim
    export TSR_CUDA_SIM_DEVICES=3
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_sim/seed003.tsr"
    assert_success
    assert_output "torch.Size([3, 4]) cuda:0
cpu
cuda:0
cuda:1
0
0
1 1
0
2"
}

@test "cuda-sim-1.10: torch.autograd.grad on cuda, with create_graph (a gradient of a gradient)" {
    sim
    run --separate-stderr "$TSR" -e 'x = torch.tensor([1.0, 2.0, 3.0], device="cuda", requires_grad=True)
print(torch.autograd.grad((x * x).sum(), x))
x2 = torch.tensor([1.0, 2.0], device="cuda", requires_grad=True)
g, = torch.autograd.grad((x2.exp() * 2).sum(), [x2], create_graph=True)
print(g)
print(torch.autograd.grad(g.sum(), x2))'
    assert_success
    assert_output "(tensor([2., 4., 6.], device='cuda:0'),)
tensor([ 5.4366, 14.7781], device='cuda:0', grad_fn=<MulBackward0>)
(tensor([ 5.4366, 14.7781], device='cuda:0'),)"
}
