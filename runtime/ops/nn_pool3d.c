/* runtime/ops/nn_pool3d.c — more pooling layers as 1.13's CPU kernels
 * compute them: max_unpool2d (MaxUnpooling.cpp's checks, MaxUnpoolKernel.cpp's
 * loop: an out-of-range index is remembered, the last one reported, after
 * the loop). The values are copied, not computed, so the kernel moves each
 * element's bytes; the dtype refusal is the float32/float64 dispatch's. */
#include <math.h>
#include <string.h>

#include "nn_conv.h"
#include "nn_pool3d.h"
#include "copy.h"
#include "shape.h"
#include "../error.h"
#include "../internal.h"
#include "../named.h"

tsr_tensor *tsr_nn_max_unpool2d(const tsr_tensor *x, const tsr_tensor *indices, int n, const int64_t *osz)
{
    if (tsr__nn_cpu_only("max_unpool2d", x) < 0) return NULL;
    char b[256], c[256];
    if (x->names || indices->names) {
        tsr_names_refuse("aten::max_unpool2d");
        return NULL;
    }
    if (indices->dtype != TSR_INT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "elements in indices should be type int64 but got: %s",
                      tsr_dtype_scalar_name(indices->dtype));
        return NULL;
    }
    if (n != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "There should be exactly two elements (height, width) in output_size, but "
                      "got %d elements.", n);
        return NULL;
    }
    if (x->ndim != 3 && x->ndim != 4) {
        tsr_error_set(TSR_ERR_RUNTIME, "Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with "
                      "%d dimensions.", x->ndim);
        return NULL;
    }
    bool same = x->ndim == indices->ndim;
    for (int i = 0; same && i < x->ndim; i++) same = x->sizes[i] == indices->sizes[i];
    if (!same) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected shape of indices to be same as that of the input tensor (%s) but got "
                      "indices tensor with shape: %s", tsr__fmt_list(b, sizeof b, x->ndim, x->sizes),
                      tsr__fmt_list(c, sizeof c, indices->ndim, indices->sizes));
        return NULL;
    }
    for (int i = 1; i < x->ndim; i++)
        if (x->sizes[i] <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "max_unpooling2d_forward_out_cpu(): Expected input to have non-zero size "
                          "for non-batch dimensions, but got %s with dimension %d being empty.",
                          tsr__fmt_list(b, sizeof b, x->ndim, x->sizes), i);
            return NULL;
        }
    bool batched = x->ndim == 4;
    tsr_memory_format mf = batched ? tsr_tensor_suggest_memory_format(x) : TSR_MF_CONTIGUOUS;
    int64_t shape[4], numel;
    for (int i = 0; i < x->ndim - 2; i++) shape[i] = x->sizes[i];
    shape[x->ndim - 2] = osz[0], shape[x->ndim - 1] = osz[1];
    if (tsr_check_sizes(x->ndim, shape, &numel) < 0) return NULL;
    tsr_tensor *out = tsr_tensor_empty_format(x->ndim, shape, x->dtype, x->device, mf);
    if (!out || tsr_zero_(out) < 0) goto fail;
    if (numel == 0 || tsr_tensor_is_meta(out)) return out;
    if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64) {
        tsr__not_implemented("max_unpool2d", x->dtype);
        goto fail;
    }
    if (tsr_tensor_has_bits(x)) {   /* a lazy conj/neg view: its values first */
        tsr_tensor *v = tsr_resolve_bits(x), *r = v ? tsr_nn_max_unpool2d(v, indices, n, osz) : NULL;
        tsr_tensor_release(v);
        tsr_tensor_release(out);
        return r;
    }
    int64_t N = batched ? x->sizes[0] : 1, C = x->sizes[x->ndim - 3], H = x->sizes[x->ndim - 2];
    int64_t W = x->sizes[x->ndim - 1], plane = osz[0] * osz[1], bad = 0;
    bool has_bad = false;
    int sz = tsr_dtype_itemsize(x->dtype), o = batched ? 1 : 0;
    const char *xb = tsr_tensor_ptr(x, NULL);
    const int64_t *ib = tsr_tensor_ptr(indices, NULL);
    char *ob = tsr_tensor_ptr(out, NULL);
    int64_t xs[4] = {0}, is[4] = {0}, os[4] = {0};
    for (int i = 0; i < 3; i++) xs[i + 1] = x->strides[i + o], is[i + 1] = indices->strides[i + o],
                                os[i + 1] = out->strides[i + o];
    if (batched) xs[0] = x->strides[0], is[0] = indices->strides[0], os[0] = out->strides[0];
    bool cl = mf == TSR_MF_CHANNELS_LAST;   /* 1.13's channels-last loop runs channels innermost */
    for (int64_t b0 = 0; b0 < N; b0++) {
        if (tsr_check_interrupt() < 0) goto fail;
        for (int64_t a = 0; a < (cl ? H * W : C); a++)
            for (int64_t e = 0; e < (cl ? C : H * W); e++) {
                int64_t ch = cl ? e : a, hw = cl ? a : e, h = hw / W, w = hw % W;
                int64_t m = ib[b0 * is[0] + ch * is[1] + h * is[2] + w * is[3]];
                if (m < 0 || m >= plane) {
                    bad = m, has_bad = true;
                    continue;
                }
                memcpy(ob + (b0 * os[0] + ch * os[1] + (m / osz[1]) * os[2] + (m % osz[1]) * os[3]) * sz,
                       xb + (b0 * xs[0] + ch * xs[1] + h * xs[2] + w * xs[3]) * sz, (size_t)sz);
            }
    }
    if (has_bad) {
        tsr_error_set(TSR_ERR_RUNTIME, "Found an invalid max index: %lld (output volumes are of size %lldx%lld",
                      (long long)bad, (long long)osz[0], (long long)osz[1]);
        goto fail;
    }
    return out;
fail:
    tsr_tensor_release(out);
    return NULL;
}

tsr_tensor *tsr_nn_max_unpool2d_backward(const tsr_tensor *g, const tsr_tensor *indices)
{
    if (tsr_tensor_has_bits(g)) {
        tsr_tensor *v = tsr_resolve_bits(g), *r = v ? tsr_nn_max_unpool2d_backward(v, indices) : NULL;
        tsr_tensor_release(v);
        return r;
    }
    int nd = indices->ndim;
    if (nd < 2 || g->ndim != nd) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_unpool2d backward: the gradient's and indices' dimensions differ");
        return NULL;
    }
    tsr_tensor *r = tsr_tensor_empty(nd, indices->sizes, g->dtype, g->device);
    if (!r || tsr_tensor_numel(r) == 0 || tsr_tensor_is_meta(r)) return r;
    int64_t lead = 1, H = indices->sizes[nd - 2], W = indices->sizes[nd - 1], OW = g->sizes[nd - 1];
    int64_t plane = g->sizes[nd - 2] * OW;
    for (int i = 0; i < nd - 2; i++) lead *= indices->sizes[i];
    int sz = tsr_dtype_itemsize(g->dtype);
    const char *gb = tsr_tensor_ptr(g, NULL);
    const int64_t *ib = tsr_tensor_ptr(indices, NULL);
    char *rb = tsr_tensor_ptr(r, NULL);
    for (int64_t l = 0; l < lead; l++) {
        if (tsr_check_interrupt() < 0) goto fail;
        int64_t go = 0, io = 0, rem = l;   /* the leading dims' offsets in g and indices */
        for (int i = nd - 3; i >= 0; i--) {
            int64_t c = rem % indices->sizes[i];
            rem /= indices->sizes[i];
            go += c * g->strides[i], io += c * indices->strides[i];
        }
        for (int64_t h = 0; h < H; h++)
            for (int64_t w = 0; w < W; w++) {
                int64_t m = ib[io + h * indices->strides[nd - 2] + w * indices->strides[nd - 1]];
                if (m < 0 || m >= plane) {
                    tsr_error_set(TSR_ERR_INDEX, "index %lld is out of bounds for dimension 2 with size %lld",
                                  (long long)m, (long long)plane);
                    goto fail;
                }
                int64_t src = go + (m / OW) * g->strides[nd - 2] + (m % OW) * g->strides[nd - 1];
                memcpy(rb + ((l * H + h) * W + w) * sz, gb + src * sz, (size_t)sz);
            }
    }
    return r;
fail:
    tsr_tensor_release(r);
    return NULL;
}

/* pooling_output_shape of Pool.h (as nn_pool.c's) */
static int out_size(int64_t in, int64_t k, int64_t pad, int64_t s, int64_t dil, bool ceil, int64_t *out)
{
    if (s == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "stride should not be zero");
        return -1;
    }
    if (pad < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "pad must be non-negative, but got pad: %lld", (long long)pad);
        return -1;
    }
    if (pad > k / 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "pad should be at most half of kernel size, but got pad=%lld and kernel_size=%lld",
                      (long long)pad, (long long)k);
        return -1;
    }
    int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil ? s - 1 : 0);
    int64_t q = num / s, r = num % s;
    if (r != 0 && ((r < 0) != (s < 0))) q--;
    int64_t o = q + 1;
    if (ceil && (o - 1) * s >= in + pad) o--;
    *out = o;
    return 0;
}

#define MP3_BODY(T)                                                                                                   \
    for (int64_t sl = 0; sl < S; sl++) {                                                                             \
        if (tsr_check_interrupt() < 0) return -1;                                                                    \
        const T *ip = (const T *)xb + sl * IT * IH * IW;                                                             \
        T *op = (T *)ob + sl * OT * OH * OW;                                                                         \
        int64_t *zp = ib + sl * OT * OH * OW;                                                                        \
        for (int64_t ti = 0; ti < OT; ti++)                                                                          \
            for (int64_t i = 0; i < OH; i++)                                                                         \
                for (int64_t j = 0; j < OW; j++) {                                                                   \
                    int64_t t0 = ti * d[0] - p[0], h0 = i * d[1] - p[1], w0 = j * d[2] - p[2];                       \
                    int64_t t1 = t0 + (k[0] - 1) * dl[0] + 1, h1 = h0 + (k[1] - 1) * dl[1] + 1;                      \
                    int64_t w1 = w0 + (k[2] - 1) * dl[2] + 1;                                                        \
                    if (t1 > IT) t1 = IT;                                                                            \
                    if (h1 > IH) h1 = IH;                                                                            \
                    if (w1 > IW) w1 = IW;                                                                            \
                    while (t0 < 0) t0 += dl[0];                                                                      \
                    while (h0 < 0) h0 += dl[1];                                                                      \
                    while (w0 < 0) w0 += dl[2];                                                                      \
                    int64_t mi = t0 * IH * IW + h0 * IW + w0, o = (ti * OH + i) * OW + j;                            \
                    T mv = -INFINITY;                                                                                \
                    for (int64_t z = t0; z < t1; z += dl[0])                                                         \
                        for (int64_t y = h0; y < h1; y += dl[1])                                                     \
                            for (int64_t x_ = w0; x_ < w1; x_ += dl[2]) {                                            \
                                int64_t at = (z * IH + y) * IW + x_;                                                 \
                                T v = ip[at];                                                                        \
                                if (v > mv || isnan(v)) mv = v, mi = at;                                             \
                            }                                                                                        \
                    op[o] = mv, zp[o] = mi;                                                                          \
                }                                                                                                    \
    }

/* the kernel over contiguous x, out, ind: S slices of IT x IH x IW */
static int mp3_run(tsr_dtype dt, const void *xb, void *ob, int64_t *ib, int64_t S, int64_t IT, int64_t IH, int64_t IW,
                   int64_t OT, int64_t OH, int64_t OW, const int64_t *k, const int64_t *d, const int64_t *p,
                   const int64_t *dl)
{
    if (dt == TSR_FLOAT32) {
        MP3_BODY(float)
    } else {
        MP3_BODY(double)
    }
    return 0;
}

tsr_tensor *tsr_nn_max_pool3d(const tsr_tensor *x, int nk, const int64_t *kin, int ns, const int64_t *sin, int np,
                              const int64_t *pin, int nd, const int64_t *dlin, bool ceil, tsr_tensor **indices)
{
    const char *fn = "max_pool3d_with_indices_out_cpu_template()";
    char b[256];
    if (tsr__nn_cpu_only("max_pool3d_with_indices", x) < 0) return NULL;
    if (x->names) {
        tsr_names_refuse("aten::max_pool3d_with_indices");
        return NULL;
    }
    if (nk != 1 && nk != 3) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool3d: kernel_size must either be a single int, or a tuple of three ints");
        return NULL;
    }
    if (ns != 0 && ns != 1 && ns != 3) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool3d: stride must either be omitted, a single int, or a tuple of three ints");
        return NULL;
    }
    if (np != 1 && np != 3) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool3d: padding must be either be a single int, or a tuple of three ints");
        return NULL;
    }
    if (nd != 1 && nd != 3) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool3d: dilation must be either a single int, or a tuple of three ints");
        return NULL;
    }
    if (x->ndim != 4 && x->ndim != 5) {
        tsr_error_set(TSR_ERR_RUNTIME, "non-empty 4D or 5D (batch mode) tensor expected for input");
        return NULL;
    }
    int64_t k[3], d[3], p[3], dl[3], in[3], o[3];
    for (int i = 0; i < 3; i++) {
        k[i] = kin[nk == 3 ? i : 0];
        d[i] = ns == 0 ? k[i] : sin[ns == 3 ? i : 0];
        p[i] = pin[np == 3 ? i : 0];
        dl[i] = dlin[nd == 3 ? i : 0];
        in[i] = x->sizes[x->ndim - 3 + i];
    }
    for (int i = 0; i < 3; i++)
        if (out_size(in[i], k[i], p[i], d[i], dl[i], ceil, &o[i]) < 0) return NULL;
    int64_t C = x->sizes[x->ndim - 4];
    for (int i = 1; i < x->ndim; i++)
        if (x->sizes[i] <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "%s: Expected input's non-batch dimensions to have positive length, but input "
                          "has a shape of %s and non-batch dimension %lld has length zero!", fn,
                          tsr__fmt_list(b, sizeof b, x->ndim, x->sizes), (long long)x->sizes[i]);
            return NULL;
        }
    if (k[0] <= 0 || k[1] <= 0 || k[2] <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "kernel size should be greater than zero, but got kT: %lld kH: %lld kW: %lld",
                      (long long)k[0], (long long)k[1], (long long)k[2]);
        return NULL;
    }
    if (d[0] <= 0 || d[1] <= 0 || d[2] <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "stride should be greater than zero, but got dT: %lld dH: %lld dW: %lld",
                      (long long)d[0], (long long)d[1], (long long)d[2]);
        return NULL;
    }
    if (dl[0] <= 0 || dl[1] <= 0 || dl[2] <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "dilation should be greater than zero, but got dilationT: %lld dilationH: %lld "
                      "dilationW: %lld", (long long)dl[0], (long long)dl[1], (long long)dl[2]);
        return NULL;
    }
    if (o[0] < 1 || o[1] < 1 || o[2] < 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "Given input size: (%lldx%lldx%lldx%lld). Calculated output size: "
                      "(%lldx%lldx%lldx%lld). Output size is too small", (long long)C, (long long)in[0],
                      (long long)in[1], (long long)in[2], (long long)C, (long long)o[0], (long long)o[1],
                      (long long)o[2]);
        return NULL;
    }
    int64_t shape[5], numel;
    for (int i = 0; i < x->ndim - 3; i++) shape[i] = x->sizes[i];
    for (int i = 0; i < 3; i++) shape[x->ndim - 3 + i] = o[i];
    if (tsr_check_sizes(x->ndim, shape, &numel) < 0) return NULL;
    tsr_tensor *out = tsr_tensor_empty(x->ndim, shape, x->dtype, x->device);
    tsr_tensor *ind = out ? tsr_tensor_empty(x->ndim, shape, TSR_INT64, x->device) : NULL, *xc = NULL;
    if (!ind) goto fail;
    if (numel > 0 && !tsr_tensor_is_meta(out)) {
        if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64) {
            tsr__not_implemented("max_pool3d_with_indices_cpu", x->dtype);
            goto fail;
        }
        if (!(xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS))) goto fail;
        if (tsr_tensor_has_bits(xc)) {
            tsr_tensor *v = tsr_resolve_bits(xc);
            tsr_tensor_release(xc);
            if (!(xc = v)) goto fail;
        }
        int64_t S = tsr_tensor_numel(x) / (in[0] * in[1] * in[2]);
        if (mp3_run(x->dtype, tsr_tensor_ptr(xc, NULL), tsr_tensor_ptr(out, NULL), tsr_tensor_ptr(ind, NULL), S, in[0],
                    in[1], in[2], o[0], o[1], o[2], k, d, p, dl) < 0)
            goto fail;
    }
    tsr_tensor_release(xc);
    if (indices) *indices = ind;
    else tsr_tensor_release(ind);
    return out;
fail:
    tsr_tensor_release(xc);
    tsr_tensor_release(out);
    tsr_tensor_release(ind);
    return NULL;
}

tsr_tensor *tsr_nn_max_pool3d_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *indices)
{
    tsr_tensor *r = tsr_tensor_empty(x->ndim, x->sizes, x->dtype, x->device), *gc = NULL, *ic = NULL;
    if (!r || tsr_zero_(r) < 0) goto fail;
    if (tsr_tensor_numel(g) == 0 || tsr_tensor_is_meta(r)) return r;
    if (!(gc = tsr_contiguous(g, TSR_MF_CONTIGUOUS)) || !(ic = tsr_contiguous(indices, TSR_MF_CONTIGUOUS))) goto fail;
    if (tsr_tensor_has_bits(gc)) {
        tsr_tensor *v = tsr_resolve_bits(gc);
        tsr_tensor_release(gc);
        if (!(gc = v)) goto fail;
    }
    int nd = x->ndim;
    int64_t in = x->sizes[nd - 3] * x->sizes[nd - 2] * x->sizes[nd - 1];
    int64_t on = g->sizes[nd - 3] * g->sizes[nd - 2] * g->sizes[nd - 1], S = tsr_tensor_numel(x) / in;
    const int64_t *ip = tsr_tensor_ptr(ic, NULL);
    for (int64_t sl = 0; sl < S; sl++) {
        if (tsr_check_interrupt() < 0) goto fail;
        for (int64_t o = 0; o < on; o++) {
            int64_t m = ip[sl * on + o];
            if (m == -1) continue;
            if (x->dtype == TSR_FLOAT32)
                ((float *)tsr_tensor_ptr(r, NULL))[sl * in + m] += ((const float *)tsr_tensor_ptr(gc, NULL))[sl * on + o];
            else
                ((double *)tsr_tensor_ptr(r, NULL))[sl * in + m] += ((const double *)tsr_tensor_ptr(gc, NULL))[sl * on + o];
        }
    }
    tsr_tensor_release(gc);
    tsr_tensor_release(ic);
    return r;
fail:
    tsr_tensor_release(gc);
    tsr_tensor_release(ic);
    tsr_tensor_release(r);
    return NULL;
}

#define AMP3_BODY(T)                                                                                                  \
    for (int64_t sl = 0; sl < S; sl++) {                                                                             \
        if (tsr_check_interrupt() < 0) return -1;                                                                    \
        const T *ip = (const T *)xb + sl * I[0] * I[1] * I[2];                                                       \
        T *op = (T *)ob + sl * O[0] * O[1] * O[2];                                                                   \
        int64_t *zp = ib + sl * O[0] * O[1] * O[2];                                                                  \
        for (int64_t a = 0; a < O[0]; a++)                                                                           \
            for (int64_t b = 0; b < O[1]; b++)                                                                       \
                for (int64_t c = 0; c < O[2]; c++) {                                                                 \
                    int64_t t0 = a * I[0] / O[0], t1 = ((a + 1) * I[0] + O[0] - 1) / O[0];                           \
                    int64_t h0 = b * I[1] / O[1], h1 = ((b + 1) * I[1] + O[1] - 1) / O[1];                           \
                    int64_t w0 = c * I[2] / O[2], w1 = ((c + 1) * I[2] + O[2] - 1) / O[2];                           \
                    int64_t mi = (t0 * I[1] + h0) * I[2] + w0, o = (a * O[1] + b) * O[2] + c;                        \
                    T mv = -INFINITY;                                                                                \
                    for (int64_t z = t0; z < t1; z++)                                                                \
                        for (int64_t y = h0; y < h1; y++)                                                            \
                            for (int64_t x_ = w0; x_ < w1; x_++) {                                                   \
                                int64_t at = (z * I[1] + y) * I[2] + x_;                                             \
                                T v = ip[at];                                                                        \
                                if (v > mv || isnan(v)) mv = v, mi = at;                                             \
                            }                                                                                        \
                    op[o] = mv, zp[o] = mi;                                                                          \
                }                                                                                                    \
    }

static int amp3_run(tsr_dtype dt, const void *xb, void *ob, int64_t *ib, int64_t S, const int64_t *I, const int64_t *O)
{
    if (dt == TSR_FLOAT32) {
        AMP3_BODY(float)
    } else {
        AMP3_BODY(double)
    }
    return 0;
}

tsr_tensor *tsr_nn_adaptive_max_pool3d(const tsr_tensor *x, int n, const int64_t *osz, tsr_tensor **indices)
{
    char b[256];
    if (tsr__nn_cpu_only("adaptive_max_pool3d", x) < 0) return NULL;
    if (x->names) {
        tsr_names_refuse("aten::adaptive_max_pool3d");
        return NULL;
    }
    if (x->ndim != 4 && x->ndim != 5) {
        tsr_error_set(TSR_ERR_RUNTIME, "adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: %s",
                      tsr__fmt_list(b, sizeof b, x->ndim, x->sizes));
        return NULL;
    }
    for (int i = 1; i < x->ndim; i++)
        if (x->sizes[i] <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "adaptive_max_pool3d(): Expected input to have non-zero size for non-batch "
                          "dimensions, but input has sizes %s with dimension %d being empty",
                          tsr__fmt_list(b, sizeof b, x->ndim, x->sizes), i);
            return NULL;
        }
    if (n != 3) {
        tsr_error_set(TSR_ERR_RUNTIME, "adaptive_max_pool3d(): internal error: output_size.size() must be 3");
        return NULL;
    }
    int64_t shape[5], numel, I[3];
    for (int i = 0; i < x->ndim - 3; i++) shape[i] = x->sizes[i];
    for (int i = 0; i < 3; i++) shape[x->ndim - 3 + i] = osz[i], I[i] = x->sizes[x->ndim - 3 + i];
    if (tsr_check_sizes(x->ndim, shape, &numel) < 0) return NULL;
    tsr_tensor *out = tsr_tensor_empty(x->ndim, shape, x->dtype, x->device);
    tsr_tensor *ind = out ? tsr_tensor_empty(x->ndim, shape, TSR_INT64, x->device) : NULL, *xc = NULL;
    if (!ind) goto fail;
    if (numel > 0 && !tsr_tensor_is_meta(out)) {
        if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64) {
            tsr__not_implemented("adaptive_max_pool3d_cpu", x->dtype);
            goto fail;
        }
        if (!(xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS))) goto fail;
        if (tsr_tensor_has_bits(xc)) {
            tsr_tensor *v = tsr_resolve_bits(xc);
            tsr_tensor_release(xc);
            if (!(xc = v)) goto fail;
        }
        int64_t S = tsr_tensor_numel(x) / (I[0] * I[1] * I[2]);
        if (amp3_run(x->dtype, tsr_tensor_ptr(xc, NULL), tsr_tensor_ptr(out, NULL), tsr_tensor_ptr(ind, NULL), S, I,
                     osz) < 0)
            goto fail;
    }
    tsr_tensor_release(xc);
    if (indices) *indices = ind;
    else tsr_tensor_release(ind);
    return out;
fail:
    tsr_tensor_release(xc);
    tsr_tensor_release(out);
    tsr_tensor_release(ind);
    return NULL;
}

tsr_tensor *tsr_nn_max_unpool3d(const tsr_tensor *x, const tsr_tensor *indices, int n, const int64_t *osz, int ns,
                                const int64_t *s, int np)
{
    if (tsr__nn_cpu_only("max_unpool3d", x) < 0) return NULL;
    char b[256], c[256];
    if (x->names || indices->names) {
        tsr_names_refuse("aten::max_unpool3d");
        return NULL;
    }
    if (indices->dtype != TSR_INT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "elements in indices should be type int64");
        return NULL;
    }
    if (x->ndim != 4 && x->ndim != 5) {
        tsr_error_set(TSR_ERR_RUNTIME, "Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with "
                      "%d dimensions.", x->ndim);
        return NULL;
    }
    if (n != 3) {
        tsr_error_set(TSR_ERR_RUNTIME, "There should be exactly three elements (depth, height, width) in output_size, "
                      "but got %d elements.", n);
        return NULL;
    }
    if (ns != 3) {
        tsr_error_set(TSR_ERR_RUNTIME, "There should be exactly three elements (depth, height, width) in stride, but "
                      "got: %d elements.", ns);
        return NULL;
    }
    if (np != 3) {
        tsr_error_set(TSR_ERR_RUNTIME, "There should be exactly three elements (depth, height, width) in padding, but "
                      "got: %d elements.", np);
        return NULL;
    }
    bool same = x->ndim == indices->ndim;
    for (int i = 0; same && i < x->ndim; i++) same = x->sizes[i] == indices->sizes[i];
    if (!same) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected shape of indices to be same as that of the input tensor (%s) but got "
                      "indices tensor with shape: %s", tsr__fmt_list(b, sizeof b, x->ndim, x->sizes),
                      tsr__fmt_list(c, sizeof c, indices->ndim, indices->sizes));
        return NULL;
    }
    for (int i = 1; i < x->ndim; i++)
        if (x->sizes[i] <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "max_unpooling3d_forward_out_cpu(): Expected input to have non-zero size "
                          "for non-batch dimensions, but got %s with dimension %d being empty.",
                          tsr__fmt_list(b, sizeof b, x->ndim, x->sizes), i);
            return NULL;
        }
    if (s[0] <= 0 || s[1] <= 0 || s[2] <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "strides should be greater than zero, but got stride: %s",
                      tsr__fmt_list(b, sizeof b, 3, s));
        return NULL;
    }
    int64_t shape[5], numel;
    for (int i = 0; i < x->ndim - 3; i++) shape[i] = x->sizes[i];
    for (int i = 0; i < 3; i++) shape[x->ndim - 3 + i] = osz[i];
    if (tsr_check_sizes(x->ndim, shape, &numel) < 0) return NULL;
    tsr_tensor *out = tsr_tensor_empty(x->ndim, shape, x->dtype, x->device), *xc = NULL, *ic = NULL;
    if (!out || tsr_zero_(out) < 0) goto fail;
    if (numel == 0 || tsr_tensor_is_meta(out)) return out;
    if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64) {
        tsr__not_implemented("max_unpool3d", x->dtype);
        goto fail;
    }
    if (!(xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS)) || !(ic = tsr_contiguous(indices, TSR_MF_CONTIGUOUS))) goto fail;
    if (tsr_tensor_has_bits(xc)) {
        tsr_tensor *v = tsr_resolve_bits(xc);
        tsr_tensor_release(xc);
        if (!(xc = v)) goto fail;
    }
    int64_t in = x->sizes[x->ndim - 3] * x->sizes[x->ndim - 2] * x->sizes[x->ndim - 1];
    int64_t vol = osz[0] * osz[1] * osz[2], S = tsr_tensor_numel(x) / in, bad = 0;
    bool has_bad = false;
    int sz = tsr_dtype_itemsize(x->dtype);
    const char *xb = tsr_tensor_ptr(xc, NULL);
    const int64_t *ib = tsr_tensor_ptr(ic, NULL);
    char *ob = tsr_tensor_ptr(out, NULL);
    for (int64_t sl = 0; sl < S; sl++) {
        if (tsr_check_interrupt() < 0) goto fail;
        for (int64_t e = 0; e < in; e++) {
            int64_t m = ib[sl * in + e];
            if (m < 0 || m >= vol) {
                bad = m, has_bad = true;
                continue;
            }
            memcpy(ob + (sl * vol + m) * sz, xb + (sl * in + e) * sz, (size_t)sz);
        }
    }
    if (has_bad) {
        tsr_error_set(TSR_ERR_RUNTIME, "Found an invalid max index: %lld (output volumes are of size %lldx%lldx%lld",
                      (long long)bad, (long long)osz[0], (long long)osz[1], (long long)osz[2]);
        goto fail;
    }
    tsr_tensor_release(xc);
    tsr_tensor_release(ic);
    return out;
fail:
    tsr_tensor_release(xc);
    tsr_tensor_release(ic);
    tsr_tensor_release(out);
    return NULL;
}

/* the 2-D gather over (lead, 1, volume) views of g and the indices */
tsr_tensor *tsr_nn_max_unpool3d_backward(const tsr_tensor *g, const tsr_tensor *indices)
{
    int nd = indices->ndim;
    if (nd < 3 || g->ndim != nd) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_unpool3d backward: the gradient's and indices' dimensions differ");
        return NULL;
    }
    int64_t gs[6], is[6];
    for (int i = 0; i < nd - 3; i++) gs[i] = g->sizes[i], is[i] = indices->sizes[i];
    gs[nd - 3] = is[nd - 3] = 1;
    gs[nd - 2] = g->sizes[nd - 3] * g->sizes[nd - 2] * g->sizes[nd - 1];
    is[nd - 2] = indices->sizes[nd - 3] * indices->sizes[nd - 2] * indices->sizes[nd - 1];
    tsr_tensor *g2 = tsr_reshape(g, nd - 1, gs), *i2 = g2 ? tsr_reshape(indices, nd - 1, is) : NULL;
    tsr_tensor *r2 = i2 ? tsr_nn_max_unpool2d_backward(g2, i2) : NULL;
    tsr_tensor *r = r2 ? tsr_reshape(r2, nd, indices->sizes) : NULL;
    tsr_tensor_release(g2);
    tsr_tensor_release(i2);
    tsr_tensor_release(r2);
    return r;
}
