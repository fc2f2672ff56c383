#!/usr/bin/env bats
# Convolution, pooling, interpolation and padding on cuda, composed of
# device-aware ops (runtime/ops/nn_conv_dev.c, ...), tested without a GPU in
# the simulator (TSR_CUDA=sim), whose device memory the host cannot touch.
# Expected text: PyTorch's CPU result for the same statements with
# device='cuda:0' (cuda_conv/mkout); messages are 1.13's CUDA ones.

load helpers

sim() {
    SO=$(dirname "$TSR")/libtsr_cuda_sim.so
    [ -f "$SO" ] || skip "no libtsr_cuda_sim.so beside $TSR"
    export TSR_CUDA=sim
}

@test "cuda-conv-1.1: conv1d/2d/3d, conv_transpose1d/2d/3d (stride, padding, dilation, groups, bias) and their backward" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going "$BATS_TEST_DIRNAME/cuda_conv/conv.tsr"
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_conv/conv.out")"
}

@test "cuda-conv-1.2: a weight or bias on another device than the input (check_input_same_type_as_parameters)" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going -e 'import torch.nn.functional as F' \
        -e 'x = torch.ones(1, 2, 4, 4, device="cuda")' -e 'F.conv2d(x, torch.ones(3, 2, 2, 2))' \
        -e 'F.conv2d(x.cpu(), torch.ones(3, 2, 2, 2, device="cuda"))' \
        -e 'F.conv2d(x, torch.ones(3, 2, 2, 2, device="cuda"), torch.ones(3))' \
        -e 'F.conv1d(x[0], torch.ones(3, 2, 2, dtype=torch.float64, device="cuda"))'
    assert_output "RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same
RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same or input should be a MKLDNN tensor and weight is a dense tensor
RuntimeError: Input type (torch.cuda.FloatTensor) and bias type (torch.FloatTensor) should be the same
RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.cuda.DoubleTensor) should be the same"
}

@test "cuda-conv-2.1: max/avg/adaptive/lp pooling and max_unpool 1d, 2d and 3d (indices, ceil_mode, dilation, padding) and their backward" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going "$BATS_TEST_DIRNAME/cuda_conv/pool.tsr"
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_conv/pool.out")"
}

@test "cuda-conv-3.1: interpolate nearest, nearest-exact, linear/bilinear/trilinear, bicubic, area, antialias and their backward" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going "$BATS_TEST_DIRNAME/cuda_conv/interp.tsr"
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_conv/interp.out")"
}

@test "cuda-conv-4.1: pad reflect/replicate/circular, unfold/fold, pixel_shuffle/unshuffle and their backward" {
    sim
    run --separate-stderr "$TSR" --brief-errors --keep-going "$BATS_TEST_DIRNAME/cuda_conv/shape.tsr"
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_conv/shape.out")"
}

@test "cuda-conv-4.2: channel_shuffle has no CUDA kernel in 1.13 (CPU and QuantizedCPU only): refused" {
    sim
    run --separate-stderr "$TSR" --brief-errors -e 'torch.nn.functional.channel_shuffle(torch.ones(1, 4, 2, 2, device="cuda"), 2)'
    assert_failure 1
    assert_output --regexp "^NotImplementedError: Could not run 'aten::channel_shuffle' with arguments from the 'CUDA' backend\\."
}
