#!/usr/bin/env bats
# Random numbers on cuda as PyTorch 1.13's CUDA generator draws them
# (CUDAGeneratorImpl, native/cuda/DistributionTemplates.h), tested in the
# simulator (TSR_CUDA=sim), whose Philox is cuda/philox.h; the device build
# calls curand itself. Expected values come from tests/cli/cuda_random/
# oracle.py (Philox and 1.13's thread mapping in Python, printed by PyTorch)
# or from Random123's known answers, never from tsr.

load helpers

sim() {
    SO=$(dirname "$TSR")/libtsr_cuda_sim.so
    [ -f "$SO" ] || skip "no libtsr_cuda_sim.so beside $TSR"
    export TSR_CUDA=sim
}

@test "cuda-random-1.1: Philox4x32-10 known answers: seed 0's first thread gives Random123's all-zero vector" {
    sim
    # counter (0,0,0,0), key (0,0) -> 6627e8d5 e169c58d bc57ac4c 9b00dbd8: thread 0's
    # first draw, as two 64-bit values (x<<32|y for element 0, z<<32|w for the
    # element one full grid, 1056 x 256 threads, later)
    run --separate-stderr "$TSR" -e '_ = torch.manual_seed(0)' \
        -e 'x = torch.empty(270337, dtype=torch.int64, device="cuda").random_(torch.iinfo(torch.int64).min, None)' \
        -e 'x[0].item(), x[270336].item()'
    assert_success
    assert_output "(7361108121267848589, -4875238626587255848)"
}

@test "cuda-random-1.2: rand, randn, normal, uniform_, normal_, exponential_, cauchy_, log_normal_, geometric_, bernoulli_, random_, randint draw 1.13's values" {
    sim
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_random/values.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_random/values.out")"
}

@test "cuda-random-1.3: determinism: a seed repeats its draws, the next draw differs, get/set_rng_state round-trips" {
    sim
    run --separate-stderr "$TSR" -e 'torch.cuda.manual_seed(42); a = torch.randn(1000, device="cuda").cpu()' \
        -e 'b = torch.randn(1000, device="cuda").cpu()' \
        -e 'torch.cuda.manual_seed(42); c = torch.randn(1000, device="cuda").cpu()' \
        -e 'torch.equal(a, c), torch.equal(a, b)' \
        -e 's = torch.cuda.get_rng_state(); d = torch.rand(5, 7, device="cuda").cpu()' \
        -e 'torch.rand(3, device="cuda"); torch.cuda.set_rng_state(s); torch.equal(d, torch.rand(5, 7, device="cuda").cpu())' \
        -e 's.dtype, s.shape, bool((s[:800] == 255).all()), s[800:808].view(torch.int64).item()' \
        -e 'torch.manual_seed(42); torch.equal(a, torch.randn(1000, device="cuda").cpu())' \
        -e 'torch.cuda.manual_seed_all(42); torch.equal(a, torch.randn(1000, device="cuda").cpu())' \
        -e 'torch.cuda.initial_seed()' \
        -e 'torch.cuda.seed(); torch.cuda.initial_seed() != 42, torch.cuda.initial_seed() < 2**53' \
        -e 'torch.seed() == torch.cuda.initial_seed()'
    assert_success
    assert_output "(True, False)
True
(torch.uint8, torch.Size([816]), True, 42)
True
True
42
(True, True)
True"
}

@test "cuda-random-1.4: each kernel advances the offset by calc_execution_policy's counter_offset" {
    sim
    # grid = min(ceil(n/256), 132 * 2048/256); counter_offset = ((n-1)/(256*grid*4) + 1) * 4
    run --separate-stderr "$TSR" -e 'off = lambda: torch.cuda.get_rng_state()[808:].view(torch.int64).item()' \
        -e 'torch.cuda.manual_seed(7); print(off())' \
        -e 'for n in [1, 1000, 1081344, 1081345, 2162689, 0]:
    a = off(); torch.rand(n, device="cuda"); print(n, off() - a)' \
        -e 'a = off(); torch.randn(1081345, dtype=torch.float64, device="cuda"); print(off() - a)' \
        -e 'a = off(); torch.randint(5, (3000000,), device="cuda"); print(off() - a)' \
        -e 'a = off(); torch.empty(10, device="cuda").bernoulli_(0.5).exponential_(); print(off() - a)' \
        -e 'a = off(); torch.empty(100000, device="cuda").bernoulli_(torch.ones(1)); print(off() - a)' \
        -e 'torch.cuda.manual_seed(7); print(off())'
    assert_success
    assert_output "0
1 4
1000 4
1081344 4
1081345 8
2162689 12
0 0
8
12
8
12
0"
}

@test "cuda-random-1.5: ranges and dtypes" {
    sim
    run --separate-stderr "$TSR" -e '_ = torch.manual_seed(1)' \
        -e 'x = torch.rand(100000, device="cuda").cpu(); bool(x.min() >= 0), bool(x.max() < 1)' \
        -e 'x = torch.rand(100000, dtype=torch.float64, device="cuda").cpu(); bool(x.min() > 0), bool(x.max() < 1)' \
        -e 'x = torch.randn(100000, device="cuda").cpu(); bool(x.mean().abs() < 0.02), bool((x.std() - 1).abs() < 0.02)' \
        -e 'torch.randint(3, 7, (1000,), device="cuda").cpu().unique()' \
        -e 'torch.empty(10000, dtype=torch.uint8, device="cuda").random_().cpu().unique().numel()' \
        -e 'torch.empty(1000, dtype=torch.bool, device="cuda").bernoulli_(0.5).cpu().unique()' \
        -e 'x = torch.empty(1000, device="cuda").exponential_(3).cpu(); bool(x.min() > 0)' \
        -e 'x = torch.empty(1000, device="cuda").uniform_(-5, -4).cpu(); bool(x.min() >= -5), bool(x.max() < -4)' \
        -e 'torch.rand(2, dtype=torch.bfloat16, device="cuda").dtype, torch.randn(2, 2, dtype=torch.float16, device="cuda").dtype' \
        -e 'torch.randint(5, (2,), device="cuda").dtype, torch.randn(3, dtype=torch.complex64, device="cuda").dtype' \
        -e 'x = torch.ones(2, 3, device="cuda", dtype=torch.float64); y = torch.rand_like(x); y.device, y.dtype, y.shape' \
        -e 'torch.randn_like(x).device, torch.randint_like(x, 10).dtype, torch.bernoulli(x, 0.5).device' \
        -e 'torch.bernoulli(torch.full((1000,), 0.5, device="cuda")).cpu().unique(), torch.empty(3).bernoulli_(torch.ones(3, device="cuda"))'
    assert_success
    assert_output "(True, True)
(True, True)
(True, True)
tensor([3, 4, 5, 6])
256
tensor([False,  True])
True
(True, True)
(torch.bfloat16, torch.float16)
(torch.int64, torch.complex64)
(device(type='cuda', index=0), torch.float64, torch.Size([2, 3]))
(device(type='cuda', index=0), torch.float64, device(type='cuda', index=0))
(tensor([0., 1.]), tensor([1., 1., 1.]))"
}

@test "cuda-random-1.6: errors: dtypes, a CPU generator, bad states; unported samplers refuse" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going \
        -e 'torch.empty(3, dtype=torch.long, device="cuda").normal_()' \
        -e 'torch.empty(3, dtype=torch.int32, device="cuda").exponential_()' \
        -e 'torch.empty(3, dtype=torch.complex64, device="cuda").bernoulli_(0.5)' \
        -e 'torch.empty(3, dtype=torch.complex64, device="cuda").random_()' \
        -e 'torch.empty(3, dtype=torch.int32, device="cuda").random_(torch.iinfo(torch.int64).min, None)' \
        -e 'torch.rand(3, device="cuda", generator=torch.Generator())' \
        -e 'torch.cuda.set_rng_state(torch.zeros(10, dtype=torch.uint8))' \
        -e 'torch.cuda.set_rng_state(torch.zeros(816))' \
        -e 's = torch.cuda.get_rng_state(); s[808] = 2; torch.cuda.set_rng_state(s)' \
        -e 'torch.cuda.get_rng_state(3)' \
        -e 'torch.cuda.set_rng_state(5)' \
        -e 'torch.empty(3, device="cuda").bernoulli_(torch.ones(3, dtype=torch.long))' \
        -e 'torch.empty(3, dtype=torch.complex64, device="cuda").bernoulli_(torch.ones(3))' \
        -e 'torch.normal(torch.zeros(3, device="cuda"), -torch.ones(3, device="cuda"))' \
        -e 'torch.empty(3, dtype=torch.bool, device="cuda").geometric_(0.5)' \
        -e 'torch.empty(3, dtype=torch.int64, device="cuda").cauchy_()' \
        -e 'torch.randperm(3, device="cuda")'
    assert_output "RuntimeError: \"normal_kernel_cuda\" not implemented for 'Long'
RuntimeError: \"exponential_cuda\" not implemented for 'Int'
RuntimeError: \"bernoulli_scalar_cuda_\" not implemented for 'ComplexFloat'
RuntimeError: \"random_kernel_cuda\" not implemented for 'ComplexFloat'
RuntimeError: random_full_64_bits_range_kernel_cuda handles only int64, double, float and bfloat16
RuntimeError: Expected a 'cuda' device type for generator but found 'cpu'
RuntimeError: RNG state is wrong size
TypeError: RNG state must be a torch.ByteTensor
RuntimeError: offset must be a multiple of 4
IndexError: tuple index out of range
AttributeError: 'int' object has no attribute 'clone'
RuntimeError: expected probabilities tensor to have floating type, got Long
RuntimeError: \"bernoulli_tensor_cuda_self_\" not implemented for 'ComplexFloat'
RuntimeError: normal expects all elements of std >= 0.0
RuntimeError: \"geometric_cuda\" not implemented for 'Bool'
RuntimeError: \"cauchy_cuda\" not implemented for 'Long'
NotImplementedError: Could not run 'aten::randperm.generator_out' with arguments from the 'CUDA' backend. This could be because the operator doesn't exist for this backend, or was omitted during the selective/custom build process (if using custom build). If you are a Facebook employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes for possible resolutions. 'aten::randperm.generator_out' is only available for these backends: [CPU, Meta, BackendSelect, Python, FuncTorchDynamicLayerBackMode, Functionalize, Named, Conjugate, Negative, ZeroTensor, ADInplaceOrView, AutogradOther, AutogradCPU, AutogradCUDA, AutogradHIP, AutogradXLA, AutogradMPS, AutogradIPU, AutogradXPU, AutogradHPU, AutogradVE, AutogradLazy, AutogradMeta, AutogradPrivateUse1, AutogradPrivateUse2, AutogradPrivateUse3, AutogradNestedTensor, Tracer, AutocastCPU, AutocastCUDA, FuncTorchBatched, FuncTorchVmapMode, Batched, VmapMode, FuncTorchGradWrapper, PythonTLSSnapshot, FuncTorchDynamicLayerFrontMode, PythonDispatcher]."
}

@test "cuda-random-1.7: one generator per device; manual_seed seeds the current one, manual_seed_all every one" {
    sim
    export TSR_CUDA_SIM_DEVICES=2
    run --separate-stderr "$TSR" -e 'torch.cuda.manual_seed_all(5)' \
        -e 'a = torch.rand(4, device="cuda:0").cpu(); b = torch.rand(4, device="cuda:1").cpu(); torch.equal(a, b)' \
        -e 'torch.cuda.set_device(1); torch.cuda.manual_seed(6); torch.cuda.initial_seed(), torch.cuda.get_rng_state(0)[800:808].view(torch.int64).item()' \
        -e '[s[800:].view(torch.int64).tolist() for s in torch.cuda.get_rng_state_all()]' \
        -e 'torch.cuda.set_rng_state(torch.cuda.get_rng_state(1), 0); torch.cuda.get_rng_state(0)[800:].view(torch.int64).tolist()' \
        -e 'torch.cuda.seed_all(); s = torch.cuda.get_rng_state_all(); torch.equal(s[0], s[1])'
    assert_success
    assert_output "True
(6, 5)
[[5, 4], [6, 0]]
[6, 0]
True"
}

@test "cuda-random-1.8: without a GPU the seed functions queue (None), the queries give 1.13's errors" {
    sim
    export TSR_CUDA_SIM_DEVICES=0
    run --separate-stderr "$TSR" --brief-errors --keep-going -e 'torch.cuda.manual_seed(1), torch.cuda.manual_seed_all(1), torch.cuda.seed(), torch.cuda.seed_all()' \
        -e 'torch.cuda.get_rng_state_all(), torch.cuda.set_rng_state(torch.zeros(1, dtype=torch.uint8))' \
        -e 'torch.cuda.initial_seed()' -e 'torch.cuda.get_rng_state()' -e '_ = torch.manual_seed(3)'
    assert_output "(None, None, None, None)
([], None)
RuntimeError: No CUDA GPUs are available
RuntimeError: No CUDA GPUs are available"
    TSR_CUDA=0 run --separate-stderr "$TSR" --brief-errors --keep-going -e 'torch.cuda.manual_seed(1), torch.cuda.get_rng_state_all()' \
        -e 'torch.cuda.initial_seed()' -e 'torch.cuda.get_rng_state()'
    assert_output "(None, [])
AssertionError: Torch not compiled with CUDA enabled
AssertionError: Torch not compiled with CUDA enabled"
}

@test "cuda-random-1.9: torch.Generator(device='cuda'): seed 67280421310721, offset 0, its own stream; device types checked" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going \
        -e 'g = torch.Generator(device="cuda"); g.device, g.initial_seed(), g.get_state()[800:].view(torch.int64).tolist()' \
        -e '_ = g.manual_seed(0); a = torch.rand(5, device="cuda", generator=g)' \
        -e 'torch.manual_seed(0); torch.equal(a.cpu(), torch.rand(5, device="cuda").cpu()), g.get_state()[808:].view(torch.int64).item()' \
        -e 'torch.Generator("cuda:0").device, g.seed() < 2**53' \
        -e 'torch.rand(3, generator=g)' -e 'torch.randperm(3, generator=g)' \
        -e 'torch.empty(3, device="cuda").normal_(generator=torch.Generator())'
    assert_output "(device(type='cuda'), 67280421310721, [67280421310721, 0])
(True, 4)
(device(type='cuda', index=0), True)
RuntimeError: Expected a 'cpu' device type for generator but found 'cuda'
RuntimeError: Expected a 'cpu' device type for generator but found 'cuda'
RuntimeError: Expected a 'cuda' device type for generator but found 'cpu'"
    TSR_CUDA=0 run --separate-stderr "$TSR" --brief-errors -e 'torch.Generator(device="cuda")'
    assert_output "RuntimeError: Device type CUDA is not supported for torch.Generator() api."
}
