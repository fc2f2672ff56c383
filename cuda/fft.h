/* cuda/fft.h — the FFT launch's own small kernels (kernels.h tsr_kfft),
 * compiled by nvcc and g++ alike: the input's conjugate before a transform
 * (hfft's conj_physical), the output's scale (the norm= modes, PyTorch's
 * mul_ by a Python float: each part times the scale in the output's
 * precision) and conjugate (ihfft's) after it. cuFFT does the transform. */
#ifndef TSR_CUDA_FFT_H
#define TSR_CUDA_FFT_H
#include <stdint.h>

/* Sizes of one side of a transform: the complex side of R2C (the output)
 * and C2R (the input) is one-sided along the last dim. */
KHD void kf_sizes(const tsr_kfft &f, bool out, int64_t *sz)
{
    for (int d = 0; d < f.rank; d++) sz[d] = f.n[d];
    if ((out && f.type == TSR_KFFT_R2C) || (!out && f.type == TSR_KFFT_C2R)) sz[f.rank - 1] = f.n[f.rank - 1] / 2 + 1;
}

/* Elements of one side (batch included). */
KHD int64_t kf_count(const tsr_kfft &f, bool out)
{
    int64_t sz[3], n = f.batch;
    kf_sizes(f, out, sz);
    for (int d = 0; d < f.rank; d++) n *= sz[d];
    return n;
}

/* Offset (in elements of the side) of its i-th element in row-major
 * order, through cuFFT's advanced layout. */
KHD int64_t kf_offset(const tsr_kfft &f, bool out, int64_t i)
{
    int64_t sz[3], idx[3];
    kf_sizes(f, out, sz);
    for (int d = f.rank - 1; d >= 0; d--) {
        idx[d] = i % sz[d];
        i /= sz[d];
    }
    const int64_t *embed = out ? f.onembed : f.inembed;
    int64_t lin = idx[0];
    for (int d = 1; d < f.rank; d++) lin = lin * embed[d] + idx[d];
    return i * (out ? f.odist : f.idist) + lin * (out ? f.ostride : f.istride);
}

/* One element of the fix-up: a complex side gets conj and scale, the real
 * output of C2R the scale. R is the real type. */
template <typename R> KHD void kf_fix(const tsr_kfft &f, bool out, R *data, int64_t i, bool conj, R scale)
{
    int64_t o = kf_offset(f, out, i);
    bool cplx = out ? f.type != TSR_KFFT_C2R : f.type != TSR_KFFT_R2C;
    if (!cplx) {
        data[o] = data[o] * scale;
        return;
    }
    R *c = data + 2 * o;
    if (scale != (R)1) c[0] = c[0] * scale, c[1] = c[1] * scale;
    if (conj) c[1] = -c[1];
}
#endif
