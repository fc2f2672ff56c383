#!/usr/bin/env bats
# torch.fft, the window functions and stft as a user meets them: the
# listing, the parser's fft_ names in messages, stft's warning on stderr.

load helpers

@test "fft-1.1: --list-functions lists the 22 torch.fft functions, the windows and stft/istft" {
    run --separate-stderr tsr_run --list-functions
    assert_success
    for f in fft ifft fft2 ifft2 fftn ifftn rfft irfft rfft2 irfft2 rfftn irfftn hfft ihfft hfft2 ihfft2 \
             hfftn ihfftn fftfreq rfftfreq fftshift ifftshift; do
        assert_line "torch.fft.$f"
    done
    for f in hann_window hamming_window blackman_window bartlett_window kaiser_window stft istft; do
        assert_line "torch.$f"
    done
    assert_line "Tensor.stft"
    assert_line "Tensor.istft"
}

@test "fft-1.2: argument errors name the function as python_arg_parser does (fft_...)" {
    mkscript s.tsr $'torch.fft.fft([1.0, 2.0])\n'
    run --separate-stderr tsr_run --brief-errors s.tsr
    assert_failure
    assert_output "TypeError: fft_fft(): argument 'input' (position 1) must be Tensor, not list"
}

@test "fft-1.3: stft of a real signal without return_complex warns on stderr and returns the real (..., 2) form" {
    mkscript s.tsr $'torch.stft(torch.arange(8.), 4).shape\ntorch.stft(torch.arange(8.), 4, return_complex=False).shape\n'
    run --separate-stderr tsr_run s.tsr
    assert_success
    assert_output $'torch.Size([3, 9, 2])\ntorch.Size([3, 9, 2])'
    assert_equal "$(printf '%s\n' "$stderr" | grep -c 'UserWarning: stft will soon require the return_complex parameter')" 1
}

@test "fft-1.4: a spectrum at the prompt: the peak of a 5 Hz sine" {
    mkscript s.tsr $'import math\nt = torch.arange(64.) / 64\nX = torch.fft.rfft(torch.sin(t * 2 * math.pi * 5))\nX.abs().argmax()\nX.shape\n'
    run --separate-stderr tsr_run s.tsr
    assert_success
    assert_output $'tensor(5)\ntorch.Size([33])'
}
