#!/usr/bin/env bats
# torch.nn.functional on cuda (softmax family, activations, losses,
# normalisation), tested without a GPU: TSR_CUDA=sim runs the compositions of
# device-aware ops (runtime/ops/nn_dev.c) over memory the host's code cannot
# touch. Expected text: PyTorch 1.13 on the CPU for the same statements,
# printed as for tensors on cuda:0 (cuda_nn/oracle.py), for values a GPU
# computes alike (exact, or printed to 4 digits); hand-written where the CPU
# has no kernel (float16) or names its kernel otherwise.

load helpers

sim() {
    SO=$(dirname "$TSR")/libtsr_cuda_sim.so
    [ -f "$SO" ] || skip "no libtsr_cuda_sim.so beside $TSR"
    export TSR_CUDA=sim
}

# runs cuda_nn/NAME.tsr and compares with cuda_nn/NAME.out
script() {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going "$BATS_TEST_DIRNAME/cuda_nn/$1.tsr"
    [ "$status" -le 1 ]   # 1: a line raised, as its expected text says
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_nn/$1.out")"
}

@test "cuda-nn-1.1: softmax, log_softmax, softmin: dims, dtype=, views, -inf, empty, bfloat16, backward" {
    script softmax
}

@test "cuda-nn-1.2: softmax on float16 (CUDA has the kernel, the CPU has not) and the device's kernel name in errors" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going \
        -e 'x = torch.tensor([[1., 2., 3.], [4., 5., 7.]], device="cuda").half()' -e 'x.softmax(1)' \
        -e 'x.log_softmax(0)' -e 'x.softmax(1, dtype=torch.float32)' \
        -e 'torch.ones(3, dtype=torch.int64, device="cuda").softmax(0)'
    assert_output "tensor([[0.0900, 0.2448, 0.6650],
        [0.0420, 0.1142, 0.8438]], device='cuda:0', dtype=torch.float16)
tensor([[-3.0488, -3.0488, -4.0195],
        [-0.0486, -0.0486, -0.0181]], device='cuda:0', dtype=torch.float16)
tensor([[0.0900, 0.2447, 0.6652],
        [0.0420, 0.1142, 0.8438]], device='cuda:0')
RuntimeError: \"host_softmax\" not implemented for 'Long'"
}
