/* runtime/ops/fft_dev.h — torch.fft's primitives on a device whose memory
 * the host cannot read (cuda): 1.13's _fft_c2c_cufft, _fft_r2c_cufft and
 * _fft_c2r_cufft (native/cuda/SpectralOps.cpp) over the backend's batched
 * FFT entry (kernels.h tsr_kfft). The callers in fft.c keep the CPU's
 * checks. NEW references or NULL with the error recorded; inputs borrowed. */
#ifndef TSR_OPS_FFT_DEV_H
#define TSR_OPS_FFT_DEV_H
#include <stdbool.h>
#include "../tensor.h"
#include "fft.h"

/* Whether x lives on such a device. */
bool fft_on_device(const tsr_tensor *x);
/* x.to(dtype) for a real x and a complex dtype, as zeros in x's layout
 * (preserve_format) whose real parts are copied from x: no complex kernel. */
tsr_tensor *fft_dev_to_complex(const tsr_tensor *x, tsr_dtype dtype);
/* c2c over dims (any number, up to three per cuFFT call); conj_out:
 * the result conjugated. */
tsr_tensor *fft_dev_c2c(const tsr_tensor *x, int nd, const int64_t *dims, tsr_fft_norm norm, bool forward,
                        bool conj_out);
/* r2c of a float32/float64 x; onesided false gives the full spectrum
 * (complex copy of x, then c2c). conj_out: the result conjugated (the
 * inverse transforms of a real input), computed instead of 1.13's lazy
 * conjugate view, since conjugate views do not compute on cuda yet. */
tsr_tensor *fft_dev_r2c(const tsr_tensor *x, int nd, const int64_t *dims, tsr_fft_norm norm, bool onesided,
                        bool conj_out);
/* c2r: c2c backward over dims[..nd-1], then the last dim to last_dim_size
 * reals; conj_in (nd 1 only): the input conjugated first (hfft). */
tsr_tensor *fft_dev_c2r(const tsr_tensor *x, int nd, const int64_t *dims, tsr_fft_norm norm, int64_t last_dim_size,
                        bool conj_in);
#endif
