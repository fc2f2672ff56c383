#!/usr/bin/env bats
# The fast kernels on cuda, tested without a GPU: TSR_CUDA=sim runs the
# contiguous elementwise path (cuda/fast.h: four-element vector moves, the
# scalar tail, misaligned views beside strided ones on the general path),
# the block reductions and nonzero's block scan (cuda/block.h), whose
# threads the simulator runs as fibers with barriers, shared memory and warp
# shuffles (cuda/sim_runtime.h's sim_launch_blocks). Expected text: PyTorch
# 1.13 on the CPU for the same statements, printed as for tensors on cuda:0
# (cuda_reduce/oracle.py), for values a GPU computes alike whatever its
# summation order (integers, float64 sums of integers, or 4 digits).

load helpers

sim() {
    SO=$(dirname "$TSR")/libtsr_cuda_sim.so
    [ -f "$SO" ] || skip "no libtsr_cuda_sim.so beside $TSR"
    export TSR_CUDA=sim
}

@test "cuda-speed-1.1: elementwise: contiguous, tails of 1-3, misaligned views, strided, scalars, casts, in place, out=" {
    sim
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_speed/elementwise.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_speed/elementwise.out")"
}

@test "cuda-speed-1.2: block reductions of 1, 31, 32, 33, 1023, 1024, 1025, 4097, 70000 elements, rows, NaN, backward" {
    sim
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_speed/reduce.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_speed/reduce.out")"
}

@test "cuda-speed-1.3: nonzero, masked_select, repeat_interleave: the block scan over up to 4300 chunks" {
    sim
    run --separate-stderr "$TSR" "$BATS_TEST_DIRNAME/cuda_speed/nonzero.tsr"
    assert_success
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_speed/nonzero.out")"
}

@test "cuda-speed-1.4: a negative repeat found by the block scan refuses as the CPU does" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going \
        -e 'r = torch.ones(70000, dtype=torch.long, device="cuda"); r[66666] = -1; torch.repeat_interleave(r)' \
        -e 'torch.repeat_interleave(torch.tensor([1, -2], device="cuda"))' \
        -e 'torch.repeat_interleave(torch.tensor([1, 2], device="cuda"))'
    assert_output "RuntimeError: repeats can not be negative
RuntimeError: repeats can not be negative
tensor([0, 1, 1], device='cuda:0')"
}
