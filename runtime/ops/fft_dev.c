/* runtime/ops/fft_dev.c — torch.fft on cuda: 1.13's native/cuda/
 * SpectralOps.cpp over the backend's fft entry. _exec_fft's geometry: the
 * batch dims first, sorted by stride, collapsed into one, the transformed
 * dims after them; the input handed to cuFFT in its own strides when they
 * fit the advanced data layout (else a contiguous copy); the output
 * contiguous in that order, then seen through the inverse permutation, so
 * results have PyTorch's CUDA strides. The norm= scale (a mul_ by a Python
 * float in PyTorch) and the conjugates are done by the backend's launch. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../device.h"
#include "../error.h"
#include "../internal.h"
#include "../kernels.h"
#include "../view.h"
#include "copy.h"
#include "factory.h"
#include "fft.h"
#include "shape.h"

enum { CUFFT_MAX_NDIM = 3 };

bool fft_on_device(const tsr_tensor *x) { return x->device.type != TSR_DEV_CPU && x->device.type != TSR_DEV_META; }

/* _fft_normalization_scale: sizes twosided, dims all transformed dims. */
static double norm_scale(tsr_fft_norm norm, const int64_t *sizes, int nd, const int64_t *dims)
{
    if (norm == TSR_FFT_NORM_NONE) return 1.0;
    int64_t n = 1;
    for (int i = 0; i < nd; i++) n *= sizes[dims[i]];
    return 1.0 / (norm == TSR_FFT_NORM_BY_ROOT_N ? sqrt((double)n) : (double)n);
}

/* std::sort of a few dims by stride, largest first: libstdc++ sorts up to
 * 16 elements by insertion, which keeps ties in order; so does this. */
static void sort_by_stride(int64_t *d, int n, const int64_t *strides)
{
    for (int i = 1; i < n; i++) {
        int64_t v = d[i];
        int j = i;
        for (; j > 0 && strides[d[j - 1]] < strides[v]; j--) d[j] = d[j - 1];
        d[j] = v;
    }
}

/* cuFFT's advanced layout of a batched view (sizes/strides in elements,
 * dim 0 the batch): embed, stride, dist. False when the strides do not
 * fit one (the caller copies to a contiguous layout). */
static bool embed_of(int rank, const int64_t *sz, const int64_t *st, int64_t *embed, int64_t *stride, int64_t *dist)
{
    int64_t s[CUFFT_MAX_NDIM + 1];
    for (int i = rank; i >= 1; i--)   /* a size-1 dim's stride is free */
        s[i] = sz[i] != 1 ? st[i] : i == rank ? 1 : s[i + 1] * sz[i + 1];
    if (s[rank] < 1) return false;
    embed[0] = sz[1];
    for (int j = 1; j < rank; j++) {
        if (s[j] < 1 || s[j] % s[j + 1]) return false;
        embed[j] = s[j] / s[j + 1];
        if (embed[j] < sz[j + 1]) return false;
    }
    *stride = s[rank];
    *dist = sz[0] == 1 ? s[1] * sz[1] : st[0];
    return *dist >= 1;
}

/* _exec_fft: the transform of self over dims (1 to 3 of them) into a new
 * tensor of out_sizes (type: TSR_KFFT_*). owned: self is a private
 * temporary the backend may overwrite (C2R may, and conj_in does). */
static tsr_tensor *exec_fft(const tsr_tensor *self, const int64_t *out_sizes, int nd, const int64_t *dims, int type,
                            bool forward, double scale, bool conj_in, bool conj_out, bool owned)
{
    const tsr_backend *be = tsr_device_backend(self->device);
    if (!be) return NULL;
    if (!be->fft) {
        tsr_error_no_kernel(type == TSR_KFFT_C2C ? "aten::_fft_c2c" : type == TSR_KFFT_R2C ? "aten::_fft_r2c"
                                                                                            : "aten::_fft_c2r",
                            tsr_device_backend_name(self->device.type), "CPU, Meta");
        return NULL;
    }
    int ndim = self->ndim, nb = ndim - nd;
    int64_t perm[TSR_MAX_DIMS], bsz[CUFFT_MAX_NDIM + 1], batch = 1;
    bool tr[TSR_MAX_DIMS] = {false};
    for (int i = 0; i < nd; i++) tr[dims[i]] = true;
    for (int d = 0, k = 0; d < ndim; d++)
        if (!tr[d]) perm[k++] = d;
    sort_by_stride(perm, nb, self->strides);
    for (int i = 0; i < nd; i++) perm[nb + i] = dims[i];
    for (int i = 0; i < nb; i++) batch *= self->sizes[perm[i]];
    bsz[0] = batch;
    for (int i = 0; i < nd; i++) bsz[1 + i] = self->sizes[dims[i]];

    tsr_tensor *in = NULL, *out = NULL, *r = NULL, *p = tsr_view_permute(self, ndim, perm);
    if (!p) return NULL;
    in = tsr_reshape(p, nd + 1, bsz);
    tsr_tensor_release(p);
    if (!in) return NULL;
    bool cplx_in = type != TSR_KFFT_R2C, cplx_out = type != TSR_KFFT_C2R;
    tsr_dtype real = cplx_in ? tsr_dtype_to_real(self->dtype) : self->dtype;
    int64_t bos[CUFFT_MAX_NDIM + 1];
    bos[0] = batch;
    for (int i = 0; i < nd; i++) bos[1 + i] = out_sizes[dims[i]];
    if (!(out = tsr_tensor_empty(nd + 1, bos, cplx_out ? tsr_dtype_to_complex(real) : real, self->device))) goto done;
    if (tsr_tensor_numel(out) > 0 && tsr_tensor_numel(in) > 0) {
        tsr_kfft K;
        memset(&K, 0, sizeof K);
        K.type = type;
        K.dtype = real == TSR_FLOAT64 ? TSR_KD_FLOAT64 : TSR_KD_FLOAT32;
        K.rank = nd;
        K.forward = forward;
        K.conj_in = conj_in;
        K.conj_out = conj_out;
        K.batch = batch;
        K.scale = scale;
        for (int i = 0; i < nd; i++) K.n[i] = bsz[1 + i] > bos[1 + i] ? bsz[1 + i] : bos[1 + i];
        /* R2C reads its reals as if they were complex: aligned to two of them */
        uintptr_t addr = (uintptr_t)tsr_tensor_ptr(in, NULL);
        bool copy = ((type == TSR_KFFT_C2R || conj_in) && !owned) ||
                    (type == TSR_KFFT_R2C && addr % (uintptr_t)(2 * tsr_dtype_itemsize(real)) != 0) ||
                    !embed_of(nd, in->sizes, in->strides, K.inembed, &K.istride, &K.idist);
        if (copy) {
            tsr_tensor *c = tsr_clone(in, TSR_MF_CONTIGUOUS);
            tsr_tensor_release(in);
            if (!(in = c)) goto done;
            if (!embed_of(nd, in->sizes, in->strides, K.inembed, &K.istride, &K.idist)) {
                tsr_error_set(TSR_ERR_RUNTIME, "tsr: no cuFFT layout for a contiguous input");
                goto done;
            }
        }
        if (!embed_of(nd, out->sizes, out->strides, K.onembed, &K.ostride, &K.odist)) {
            tsr_error_set(TSR_ERR_RUNTIME, "tsr: no cuFFT layout for a contiguous output");
            goto done;
        }
        K.in = tsr_tensor_ptr(in, NULL);
        K.out = tsr_tensor_ptr(out, NULL);
        if (be->fft(&K, self->device.index) < 0) goto done;
    }
    /* the batch shape back, and the inverse permutation */
    int64_t os[TSR_MAX_DIMS], bn = 1;
    for (int i = nb - 1; i >= 0; i--) {
        os[perm[i]] = bn * out->strides[0];
        bn *= out_sizes[perm[i]];
    }
    for (int i = nb; i < ndim; i++) os[perm[i]] = out->strides[1 + i - nb];
    r = tsr_view_as_strided(out, ndim, out_sizes, os, TSR_VIEW_KEEP_OFFSET);
done:
    tsr_tensor_release(in);
    tsr_tensor_release(out);
    return r;
}

tsr_tensor *fft_dev_to_complex(const tsr_tensor *x, tsr_dtype dtype)
{
    tsr_tensor *z = tsr_zeros_like(x, dtype, x->device, TSR_MF_PRESERVE), *re;
    if (!z) return NULL;
    if (!(re = tsr_view_real(z)) || tsr_copy_(re, x) < 0) {
        tsr_tensor_release(re);
        tsr_tensor_release(z);
        return NULL;
    }
    tsr_tensor_release(re);
    return z;
}

static int refuse_bits(const tsr_tensor *x)
{
    if (!tsr_tensor_has_bits(x)) return 0;
    tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: conjugate or negative views on %s are not supported yet; "
                  "call .resolve_conj() / .resolve_neg() first", tsr_device_type_name(x->device.type));
    return -1;
}

/* The c2c passes of _fft_c2c_cufft (and of _fft_r2c_cufft after its R2C):
 * up to three dims a pass, those of the smallest strides first; the scale
 * and conj_out on the last. Steals work. */
static tsr_tensor *c2c_passes(tsr_tensor *work, const int64_t *sizes, int nd, const int64_t *dims, bool forward,
                              double scale, bool conj_out)
{
    int64_t sorted[TSR_MAX_DIMS];
    memcpy(sorted, dims, sizeof *sorted * (size_t)nd);
    while (nd > 0 && work) {
        sort_by_stride(sorted, nd, work->strides);
        int m = nd < CUFFT_MAX_NDIM ? nd : CUFFT_MAX_NDIM;
        bool last = nd == m;
        tsr_tensor *r = exec_fft(work, sizes, m, sorted + nd - m, TSR_KFFT_C2C, forward, last ? scale : 1.0, false,
                                 last && conj_out, false);
        tsr_tensor_release(work);
        work = r;
        nd -= m;
    }
    return work;
}

tsr_tensor *fft_dev_c2c(const tsr_tensor *x, int nd, const int64_t *dims, tsr_fft_norm norm, bool forward,
                        bool conj_out)
{
    if (refuse_bits(x) < 0) return NULL;
    if (nd == 0) return tsr_clone(x, TSR_MF_PRESERVE);
    return c2c_passes(tsr_tensor_retain((tsr_tensor *)x), x->sizes, nd, dims, forward,
                      norm_scale(norm, x->sizes, nd, dims), conj_out);
}

tsr_tensor *fft_dev_r2c(const tsr_tensor *x, int nd, const int64_t *dims, tsr_fft_norm norm, bool onesided,
                        bool conj_out)
{
    if (refuse_bits(x) < 0) return NULL;
    double scale = norm_scale(norm, x->sizes, nd, dims);
    if (!onesided) {
        /* the full spectrum of a real signal: its complex copy (in x's
         * layout) through c2c, whose result 1.13 fills in by conjugate
         * symmetry (the same values) */
        tsr_tensor *z = fft_dev_to_complex(x, tsr_dtype_to_complex(x->dtype));
        if (!z) return NULL;
        tsr_tensor *r = c2c_passes(z, x->sizes, nd, dims, true, scale, conj_out);
        if (!r || nd == 1) return r;
        /* 1.13 fills a contiguous two-sided result */
        tsr_tensor *c = tsr_contiguous(r, TSR_MF_CONTIGUOUS);
        tsr_tensor_release(r);
        return c;
    }
    int64_t last = dims[nd - 1], osz[TSR_MAX_DIMS];
    memcpy(osz, x->sizes, sizeof *osz * (size_t)x->ndim);
    osz[last] = x->sizes[last] / 2 + 1;
    tsr_tensor *r = exec_fft(x, osz, 1, &last, TSR_KFFT_R2C, true, nd == 1 ? scale : 1.0, false,
                             nd == 1 && conj_out, false);
    if (!r || nd == 1) return r;
    return c2c_passes(r, osz, nd - 1, dims, true, scale, conj_out);
}

tsr_tensor *fft_dev_c2r(const tsr_tensor *x, int nd, const int64_t *dims, tsr_fft_norm norm, int64_t last_dim_size,
                        bool conj_in)
{
    if (refuse_bits(x) < 0) return NULL;
    int64_t last = dims[nd - 1], osz[TSR_MAX_DIMS];
    memcpy(osz, x->sizes, sizeof *osz * (size_t)x->ndim);
    osz[last] = last_dim_size;
    if (conj_in && nd > 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr: fft_dev_c2r conjugates the input of a one-dimensional c2r only");
        return NULL;
    }
    /* the c2c transforms first; a lone C2R gets a contiguous copy, which
     * cuFFT may overwrite (gh-34551) */
    tsr_tensor *t = nd > 1 ? fft_dev_c2c(x, nd - 1, dims, TSR_FFT_NORM_NONE, false, false)
                           : tsr_clone(x, TSR_MF_CONTIGUOUS);
    if (!t) return NULL;
    tsr_tensor *r = exec_fft(t, osz, 1, &last, TSR_KFFT_C2R, false, norm_scale(norm, osz, nd, dims), conj_in,
                             false, true);
    tsr_tensor_release(t);
    return r;
}
