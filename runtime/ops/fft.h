/* runtime/ops/fft.h — torch.fft (1.13's SpectralOps.cpp over pocketfft):
 * the three ATen primitives _fft_c2c, _fft_r2c, _fft_c2r, the 22 torch.fft
 * functions on top of them, the window functions and stft/istft.
 * Ownership: NEW references or NULL with the error recorded; inputs borrowed. */
#ifndef TSR_OPS_FFT_H
#define TSR_OPS_FFT_H
#include <stdbool.h>
#include "../tensor.h"

/* ATen's fft_norm_mode. ORDER FFTNORM */
typedef enum { TSR_FFT_NORM_NONE, TSR_FFT_NORM_BY_ROOT_N, TSR_FFT_NORM_BY_N } tsr_fft_norm;

/* The primitives (aten::_fft_c2c, _fft_r2c, _fft_c2r): dims already wrapped
 * and distinct. c2c needs a complex input; r2c a float32/float64 one (onesided:
 * the last dim becomes n/2+1, else it is completed by conjugate symmetry);
 * c2r transforms dims[..nd-1] complex-to-complex backward, then the last one
 * to last_dim_size reals. Meta inputs give meta results. */
tsr_tensor *tsr_fft_c2c_raw(const tsr_tensor *x, int nd, const int64_t *dims, tsr_fft_norm norm, bool forward);
tsr_tensor *tsr_fft_r2c_raw(const tsr_tensor *x, int nd, const int64_t *dims, tsr_fft_norm norm, bool onesided);
tsr_tensor *tsr_fft_c2r_raw(const tsr_tensor *x, int nd, const int64_t *dims, tsr_fft_norm norm,
                            int64_t last_dim_size);

/* The torch.fft transforms. ORDER FFTKIND */
typedef enum { TSR_FFT_FFT, TSR_FFT_IFFT, TSR_FFT_RFFT, TSR_FFT_IRFFT, TSR_FFT_HFFT, TSR_FFT_IHFFT } tsr_fft_kind;

/* torch.fft.fft/ifft/rfft/irfft/hfft/ihfft(input, n, dim, norm, out=):
 * has_n false for n=None; norm NULL for None. Returns out itself (a new
 * reference) when given. */
tsr_tensor *tsr_fft1(tsr_fft_kind kind, const tsr_tensor *x, bool has_n, int64_t n, int64_t dim, const char *norm,
                     tsr_tensor *out);
/* The n-dimensional forms (fft2 is fftn with dim=(-2,-1)): ns < 0 for s=None,
 * nd < 0 for dim=None. */
tsr_tensor *tsr_fftn(tsr_fft_kind kind, const tsr_tensor *x, int ns, const int64_t *s, int nd, const int64_t *dims,
                     const char *norm, tsr_tensor *out);
/* fftfreq(n, d) / rfftfreq(n, d) in dtype (UNDEFINED: the default) on device. */
tsr_tensor *tsr_fftfreq(bool rfft, int64_t n, double d, tsr_dtype dtype, tsr_device device, tsr_tensor *out);
/* fftshift / ifftshift over dims (nd < 0: every dim), a roll by size/2
 * ((size+1)/2 for the inverse). */
tsr_tensor *tsr_fftshift(const tsr_tensor *x, int nd, const int64_t *dims, bool inverse);

/* Window functions (TensorFactories.cpp). ORDER WINDOW */
typedef enum { TSR_WIN_HANN, TSR_WIN_HAMMING, TSR_WIN_BLACKMAN, TSR_WIN_BARTLETT, TSR_WIN_KAISER } tsr_window_kind;
/* fname: "hann_window", ...; a, b: hamming's alpha and beta, kaiser's beta in a.
 * dtype UNDEFINED: the default dtype. */
tsr_tensor *tsr_window(tsr_window_kind kind, int64_t length, bool periodic, double a, double b, tsr_dtype dtype,
                       tsr_device device);

/* torch.stft / torch.istft (SpectralOps.cpp). has_*: the optional ints given;
 * window may be NULL; pad_mode "reflect", "constant", "replicate", "circular";
 * onesided < 0 for None; return_complex < 0 for None (stft then warns and,
 * for a real input, returns the real view (..., 2)). */
tsr_tensor *tsr_stft(const tsr_tensor *x, int64_t n_fft, bool has_hop, int64_t hop, bool has_win, int64_t win_length,
                     const tsr_tensor *window, bool center, const char *pad_mode, bool normalized, int onesided,
                     int return_complex);
tsr_tensor *tsr_istft(const tsr_tensor *x, int64_t n_fft, bool has_hop, int64_t hop, bool has_win, int64_t win_length,
                      const tsr_tensor *window, bool center, bool normalized, int onesided, bool has_length,
                      int64_t length, bool return_complex);

/* ---- device paths (runtime/ops/fft_dev.c): torch.fft's primitives on a device whose memory
 * the host cannot read (cuda): 1.13's _fft_c2c_cufft, _fft_r2c_cufft and
 * _fft_c2r_cufft (native/cuda/SpectralOps.cpp) over the backend's batched
 * FFT entry (kernels.h tsr_kfft). The callers in fft.c keep the CPU's
 * checks. NEW references or NULL with the error recorded; inputs borrowed. */

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
