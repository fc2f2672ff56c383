#!/usr/bin/env bats
# torch.fft on cuda (cuFFT through the backend's fft entry, runtime/ops/
# fft_dev.c), tested without a GPU: TSR_CUDA=sim runs the transforms in
# libtsr_cuda_sim.so (cuda/sim_cufft.h, a direct DFT) over memory the host
# code cannot touch. The expected text (cuda_fft/*.out) is what PyTorch 1.13
# prints for the same statements on a GPU: cuda_join/oracle.py runs them on
# the CPU and prints them with the device suffix; the strides, which 1.13's
# CUDA path gives otherwise than its CPU one, are written out (#!).

load helpers

sim() {
    SO=$(dirname "$TSR")/libtsr_cuda_sim.so
    [ -f "$SO" ] || skip "no libtsr_cuda_sim.so beside $TSR"
    export TSR_CUDA=sim
}

@test "cuda-fft-1.1: fft/ifft/rfft/irfft/hfft/ihfft, 2-d and n-d forms, norm=, n=/s=, batches, strided inputs, out=, shifts, frequencies" {
    sim
    run --separate-stderr "$TSR" --keep-going --brief-errors "$BATS_TEST_DIRNAME/cuda_fft/fft.tsr"
    assert_failure 1
    assert_output "$(cat "$BATS_TEST_DIRNAME/cuda_fft/fft.out")"
}

@test "cuda-fft-1.2: what cuda does not compute yet refuses with the dispatcher's error: half precision, stft/istft" {
    sim
    for e in 'torch.fft.fft(torch.ones(4, dtype=torch.float16, device="cuda"))' \
             'torch.fft.rfft2(torch.ones(2, 4, dtype=torch.float16, device="cuda"))' \
             'torch.fft.ifftn(torch.ones(4, dtype=torch.complex32, device="cuda"))' \
             'torch.stft(torch.ones(8, device="cuda"), 4, return_complex=True)' \
             'torch.istft(torch.ones(3, 3, dtype=torch.complex64, device="cuda"), 4)'; do
        run --separate-stderr "$TSR" --brief-errors -e "$e"
        assert_failure 1
        assert_output --regexp "^NotImplementedError: Could not run 'aten::(fft_[a-z0-9]+|stft|istft)' with arguments from the 'CUDA' backend\\."
    done
}

@test "cuda-fft-1.3: backward: a transform of a cuda tensor that requires grad refuses as on the CPU (tsr has no fft derivatives yet), never crashes" {
    sim
    for f in fft rfft ihfft fftshift; do
        run --separate-stderr "$TSR" --brief-errors -e "torch.fft.$f(torch.arange(4., device='cuda', requires_grad=True))"
        assert_failure 1
        assert_output "NotImplementedError: the derivative for '$f' is not implemented."
    done
    run --separate-stderr "$TSR" --brief-errors -e "x = torch.arange(4., device='cuda', requires_grad=True)" \
        -e "torch.fft.irfft(x, n=6)"
    assert_failure 1
    assert_output "NotImplementedError: the derivative for 'irfft' is not implemented."
}

@test "cuda-fft-1.4: cuFFT plans are cached by description: 39 sizes in turn, each again, the same values" {
    sim
    # sums of rfft(arange(n)).imag for n = 8 and 39, PyTorch 1.13: 15.3137, 749.58
    run --separate-stderr "$TSR" \
        -e "a = [torch.fft.rfft(torch.arange(float(n), device='cuda')).imag.sum().item() for n in range(1, 40)]" \
        -e "b = [torch.fft.rfft(torch.arange(float(n), device='cuda')).imag.sum().item() for n in range(1, 40)]" \
        -e "print(a == b, round(a[7], 4), round(a[38], 2))"
    assert_success
    assert_output "True 15.3137 749.58"
}
