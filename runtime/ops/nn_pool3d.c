/* runtime/ops/nn_pool3d.c — more pooling layers as 1.13's CPU kernels
 * compute them: max_unpool2d (MaxUnpooling.cpp's checks, MaxUnpoolKernel.cpp's
 * loop: an out-of-range index is remembered, the last one reported, after
 * the loop). The values are copied, not computed, so the kernel moves each
 * element's bytes; the dtype refusal is the float32/float64 dispatch's.
 * Then max_pool3d, adaptive_max_pool3d, avg_pool3d, adaptive_avg_pool3d and
 * fractional max pooling, each over contiguous (N * C) slices. */
#include <math.h>
#include <string.h>

#include "nn_conv.h"
#include "nn_pool3d.h"
#include "nn_pool_dev.h"
#include "compare.h"
#include "copy.h"
#include "factory.h"
#include "rearrange.h"
#include "reduce.h"
#include "scatter.h"
#include "shape.h"
#include "../device.h"
#include "../error.h"
#include "../internal.h"
#include "../named.h"
#include "../view.h"

/* The CPU kernels' "Found an invalid max index" check on the device: the
 * last index out of [0, vol) in order (the CPU loop's order, flattened),
 * read back to the host when there is one. 0, or -1 with the error. */
static int unpool_dev_check(const tsr_tensor *order, int64_t vol, int nd, const int64_t *osz)
{
    int64_t n = tsr_tensor_numel(order), last = 0, pos = -1;
    tsr_tensor *f = tsr_reshape(order, 1, &n), *lt = NULL, *ge = NULL, *bad = NULL, *bf = NULL, *fl = NULL;
    tsr_tensor *hv = NULL, *hp = NULL;
    int rc = -1;
    tsr_operand of = tsr_operand_tensor(f), z = tsr_operand_scalar(tsr_scalar_int(0));
    tsr_operand ov = tsr_operand_scalar(tsr_scalar_int(vol));
    if (!f || !(lt = tsr_compare(TSR_CMP_LT, &of, &z, NULL)) || !(ge = tsr_compare(TSR_CMP_GE, &of, &ov, NULL)))
        goto done;
    tsr_operand ol = tsr_operand_tensor(lt), og = tsr_operand_tensor(ge);
    if (!(bad = tsr_compare(TSR_CMP_LOGICAL_OR, &ol, &og, NULL)) || !(bf = tsr_to_dtype(bad, TSR_FLOAT32, false)) ||
        !(fl = tsr_flip(bf, 1, &last)) || tsr_max_dim(fl, 0, false, true, NULL, NULL, &hv, &hp) < 0)
        goto done;
    if (tsr_tensor_get_double(hv, NULL) > 0) {   /* one of them is bad */
        pos = n - 1 - tsr_tensor_get_int64(hp, NULL);
        int64_t m = tsr_tensor_get_int64(f, &pos);
        if (nd == 2)
            tsr_error_set(TSR_ERR_RUNTIME, "Found an invalid max index: %lld (output volumes are of size %lldx%lld",
                          (long long)m, (long long)osz[0], (long long)osz[1]);
        else
            tsr_error_set(TSR_ERR_RUNTIME, "Found an invalid max index: %lld (output volumes are of size "
                          "%lldx%lldx%lld", (long long)m, (long long)osz[0], (long long)osz[1], (long long)osz[2]);
        goto done;
    }
    rc = 0;
done:
    tsr_tensor_release(f);
    tsr_tensor_release(lt);
    tsr_tensor_release(ge);
    tsr_tensor_release(bad);
    tsr_tensor_release(bf);
    tsr_tensor_release(fl);
    tsr_tensor_release(hv);
    tsr_tensor_release(hp);
    return rc;
}

/* max_unpool on a device: out (zeroed, x's leading dims, then nd output
 * dims) gets x's values at their flat plane indices (checked first), a
 * scatter along the flattened plane on the device. */
static int unpool_dev(tsr_tensor *out, const tsr_tensor *x, const tsr_tensor *indices, int nd)
{
    int64_t in = 1, vol = 1;
    for (int i = 0; i < nd; i++) in *= x->sizes[x->ndim - 1 - i], vol *= out->sizes[out->ndim - 1 - i];
    int64_t lead = in ? tsr_tensor_numel(x) / in : 0, xs[2] = {lead, in}, os[2] = {lead, vol};
    tsr_tensor *x2 = tsr_reshape(x, 2, xs), *i2 = x2 ? tsr_reshape(indices, 2, xs) : NULL;
    tsr_tensor *t = i2 ? tsr_zeros(2, os, x->dtype, x->device) : NULL, *tv = NULL;
    int rc = -1;
    if (t && tsr_scatter_(t, 1, i2, x2, NULL, TSR_SCATTER_NONE) == 0 && (tv = tsr_view_view(t, out->ndim, out->sizes)))
        rc = tsr_copy_(out, tv);
    tsr_tensor_release(x2);
    tsr_tensor_release(i2);
    tsr_tensor_release(t);
    tsr_tensor_release(tv);
    return rc;
}

tsr_tensor *tsr_nn_max_unpool2d(const tsr_tensor *x, const tsr_tensor *indices, int n, const int64_t *osz)
{
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
    if (tsr__pool_external(x) || tsr__pool_external(indices)) {
        if (!tsr_device_equal(x->device, indices->device)) {   /* the scatter's own check */
            char d1[32], d2[32];
            tsr_error_set(TSR_ERR_RUNTIME, "Expected all tensors to be on the same device, but found at least two "
                          "devices, %s and %s!", tsr_device_str(x->device, d1, sizeof d1),
                          tsr_device_str(indices->device, d2, sizeof d2));
            goto fail;
        }
        tsr_tensor *order = mf == TSR_MF_CHANNELS_LAST ? tsr_view_permute(indices, 4, (const int64_t[]){0, 2, 3, 1})
                                                       : tsr_tensor_retain((tsr_tensor *)indices);
        int rc = order ? unpool_dev_check(order, osz[0] * osz[1], 2, osz) : -1;
        tsr_tensor_release(order);
        if (rc < 0 || unpool_dev(out, x, indices, 2) < 0) goto fail;
        return out;
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
    if (tsr__pool_external(g)) {   /* a gather of the flattened planes on the device */
        int64_t in = indices->sizes[nd - 2] * indices->sizes[nd - 1], pl = g->sizes[nd - 2] * g->sizes[nd - 1];
        int64_t lead = in ? tsr_tensor_numel(indices) / in : 0, gs[2] = {lead, pl}, is2[2] = {lead, in};
        tsr_tensor *g2 = tsr_reshape(g, 2, gs), *i2 = g2 ? tsr_reshape(indices, 2, is2) : NULL;
        tsr_tensor *r2 = i2 ? tsr_gather(g2, 1, i2) : NULL, *r = r2 ? tsr_reshape(r2, nd, indices->sizes) : NULL;
        tsr_tensor_release(g2);
        tsr_tensor_release(i2);
        tsr_tensor_release(r2);
        return r;
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

/* ---- the one max-pooling frame of this file (max_pool3d, adaptive and
 * fractional max pooling): per output, the first maximum (NaN wins) of its
 * window of one contiguous I[0] x I[1] x I[2] slice; axis a's window for
 * output o is [lo[a][o], hi[a][o]) by step[a], and the index starts at the
 * window's first element, as DilatedMaxPool3d.cpp's, AdaptiveMaxPooling3d.cpp's
 * and FractionalMaxPool3d.cpp's loops all do. */
#define WINMAX_BODY(T)                                                                                               \
    {                                                                                                                \
        const T *ip = xb;                                                                                            \
        T *op = ob;                                                                                                  \
        int64_t at = 0;                                                                                              \
        for (int64_t a = 0; a < O[0]; a++)                                                                           \
            for (int64_t b = 0; b < O[1]; b++)                                                                       \
                for (int64_t c = 0; c < O[2]; c++, at++) {                                                           \
                    int64_t t0 = lo[0][a], h0 = lo[1][b], w0 = lo[2][c];                                             \
                    int64_t mi = (t0 * I[1] + h0) * I[2] + w0;                                                       \
                    T mv = -INFINITY;                                                                                \
                    for (int64_t z = t0; z < hi[0][a]; z += step[0])                                                 \
                        for (int64_t y = h0; y < hi[1][b]; y += step[1])                                             \
                            for (int64_t x_ = w0; x_ < hi[2][c]; x_ += step[2]) {                                    \
                                int64_t q = (z * I[1] + y) * I[2] + x_;                                              \
                                T v = ip[q];                                                                         \
                                if (v > mv || isnan(v)) mv = v, mi = q;                                              \
                            }                                                                                        \
                    op[at] = mv, zp[at] = mi;                                                                        \
                }                                                                                                    \
    }

static void winmax(tsr_dtype dt, const void *xb, void *ob, int64_t *zp, const int64_t *I, const int64_t *O,
                   int64_t *const *lo, int64_t *const *hi, const int64_t *step)
{
    if (dt == TSR_FLOAT32) WINMAX_BODY(float)
    else WINMAX_BODY(double)
}

/* Window bounds for the three axes (O[0] + O[1] + O[2] each) in *buf (NEW). */
static int win_alloc(tsr_tensor **buf, const int64_t *O, int64_t **lo, int64_t **hi)
{
    int64_t n = 2 * (O[0] + O[1] + O[2]);
    if (!(*buf = tsr_tensor_empty(1, &n, TSR_INT64, (tsr_device){.type = TSR_DEV_CPU}))) return -1;
    int64_t *p = tsr_tensor_ptr(*buf, NULL);
    for (int a = 0; a < 3; a++) lo[a] = p, hi[a] = p + O[a], p += 2 * O[a];
    return 0;
}

/* S slices of contiguous x into out and ind (contiguous) by winmax, the
 * same windows for every slice */
static int winmax_run(tsr_dtype dt, const void *xb, void *ob, int64_t *ib, int64_t S, const int64_t *I,
                      const int64_t *O, const int64_t *step, int64_t *const *lo, int64_t *const *hi)
{
    int64_t iv = I[0] * I[1] * I[2], ov = O[0] * O[1] * O[2];
    int isz = tsr_dtype_itemsize(dt);
    for (int64_t sl = 0; sl < S; sl++) {
        if (tsr_check_interrupt() < 0) return -1;
        winmax(dt, (const char *)xb + sl * iv * isz, (char *)ob + sl * ov * isz, ib + sl * ov, I, O, lo, hi, step);
    }
    return 0;
}

/* the kernel over contiguous x, out, ind: S slices of IT x IH x IW */
static int mp3_run(tsr_dtype dt, const void *xb, void *ob, int64_t *ib, int64_t S, int64_t IT, int64_t IH, int64_t IW,
                   int64_t OT, int64_t OH, int64_t OW, const int64_t *k, const int64_t *d, const int64_t *p,
                   const int64_t *dl)
{
    const int64_t I[3] = {IT, IH, IW}, O[3] = {OT, OH, OW};
    int64_t *lo[3], *hi[3];
    tsr_tensor *buf = NULL;
    if (win_alloc(&buf, O, lo, hi) < 0) return -1;
    for (int a = 0; a < 3; a++)
        for (int64_t o = 0; o < O[a]; o++) {
            int64_t s0 = o * d[a] - p[a], e = s0 + (k[a] - 1) * dl[a] + 1;
            while (s0 < 0) s0 += dl[a];
            lo[a][o] = s0, hi[a][o] = e > I[a] ? I[a] : e;
        }
    int rc = winmax_run(dt, xb, ob, ib, S, I, O, dl, lo, hi);
    tsr_tensor_release(buf);
    return rc;
}

tsr_tensor *tsr_nn_max_pool3d(const tsr_tensor *x, int nk, const int64_t *kin, int ns, const int64_t *sin, int np,
                              const int64_t *pin, int nd, const int64_t *dlin, bool ceil, tsr_tensor **indices)
{
    const char *fn = "max_pool3d_with_indices_out_cpu_template()";
    char b[256];
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
    if (tsr__pool_external(x)) {
        tsr_pool_geom g = {.nd = 3};
        memcpy(g.k, k, sizeof k), memcpy(g.s, d, sizeof d), memcpy(g.p, p, sizeof p), memcpy(g.d, dl, sizeof dl);
        memcpy(g.o, o, sizeof o);
        return tsr__pool_dev(TSR_POOL_MAX, "max_pool3d_with_indices_out_frame", x, &g, indices);
    }
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
    if (tsr__pool_external(x)) {
        tsr_pool_geom q = {.nd = 3};
        return tsr__pool_dev_backward(TSR_POOL_MAX, "max_pool3d_with_indices_backward_out_frame", g, x, indices, &q);
    }
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

static int amp3_run(tsr_dtype dt, const void *xb, void *ob, int64_t *ib, int64_t S, const int64_t *I, const int64_t *O)
{
    int64_t *lo[3], *hi[3], one[3] = {1, 1, 1};
    tsr_tensor *buf = NULL;
    if (win_alloc(&buf, O, lo, hi) < 0) return -1;
    for (int a = 0; a < 3; a++)
        for (int64_t o = 0; o < O[a]; o++) lo[a][o] = o * I[a] / O[a], hi[a][o] = ((o + 1) * I[a] + O[a] - 1) / O[a];
    int rc = winmax_run(dt, xb, ob, ib, S, I, O, one, lo, hi);
    tsr_tensor_release(buf);
    return rc;
}

tsr_tensor *tsr_nn_adaptive_max_pool3d(const tsr_tensor *x, int n, const int64_t *osz, tsr_tensor **indices)
{
    char b[256];
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
    if (tsr__pool_external(x)) {
        tsr_pool_geom g = {.nd = 3, .o = {osz[0], osz[1], osz[2]}};
        return tsr__pool_dev(TSR_POOL_ADAPTIVE_MAX, "adaptive_max_pool3d_cuda", x, &g, indices);
    }
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
    if (tsr__pool_external(x) || tsr__pool_external(indices)) {
        if (!tsr_device_equal(x->device, indices->device)) {
            char d1[32], d2[32];
            tsr_error_set(TSR_ERR_RUNTIME, "Expected all tensors to be on the same device, but found at least two "
                          "devices, %s and %s!", tsr_device_str(x->device, d1, sizeof d1),
                          tsr_device_str(indices->device, d2, sizeof d2));
            goto fail;
        }
        if (unpool_dev_check(indices, osz[0] * osz[1] * osz[2], 3, osz) < 0 || unpool_dev(out, x, indices, 3) < 0)
            goto fail;
        return out;
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

/* ---- avg_pool3d, adaptive_avg_pool3d (AveragePool3d.cpp and
 * AdaptiveAveragePooling3d.cpp of 1.13: the TH-era frame loops over
 * contiguous slices; avg_pool3d sums in scalar_t and stores 0 + sum / div,
 * adaptive sums in scalar_t (Half rounds every step) and divides by kT,
 * kH, kW one after the other) */

static void avg3_window(const int64_t *o, const int64_t *k, const int64_t *d, const int64_t *p, const int64_t *I,
                        int64_t *s, int64_t *e, int64_t *pool)
{
    *pool = 1;
    for (int i = 0; i < 3; i++) {
        s[i] = o[i] * d[i] - p[i];
        e[i] = s[i] + k[i] < I[i] + p[i] ? s[i] + k[i] : I[i] + p[i];
        *pool *= e[i] - s[i];
        if (s[i] < 0) s[i] = 0;
        if (e[i] > I[i]) e[i] = I[i];
    }
}

/* the divide_factor of both frames (an int in 1.13) */
static int64_t avg3_div(const int64_t *s, const int64_t *e, int64_t pool, bool cip, bool hasdiv, int64_t div)
{
    if (hasdiv) return (int)div;
    return (int)(cip ? pool : (e[0] - s[0]) * (e[1] - s[1]) * (e[2] - s[2]));
}

#define AVG3_BODY(T)                                                                                                 \
    for (int64_t sl = 0; sl < S; sl++) {                                                                             \
        if (tsr_check_interrupt() < 0) return -1;                                                                    \
        const T *ip = (const T *)xb + sl * I[0] * I[1] * I[2];                                                       \
        T *op = (T *)ob + sl * O[0] * O[1] * O[2];                                                                   \
        int64_t at = 0, oi[3], s[3], e[3], pool;                                                                     \
        for (oi[0] = 0; oi[0] < O[0]; oi[0]++)                                                                       \
            for (oi[1] = 0; oi[1] < O[1]; oi[1]++)                                                                   \
                for (oi[2] = 0; oi[2] < O[2]; oi[2]++, at++) {                                                       \
                    avg3_window(oi, k, d, p, I, s, e, &pool);                                                        \
                    op[at] = 0;                                                                                      \
                    if (s[0] >= e[0] || s[1] >= e[1] || s[2] >= e[2]) continue;                                      \
                    int64_t f = avg3_div(s, e, pool, cip, hasdiv, div);                                              \
                    T sum = 0;                                                                                       \
                    for (int64_t z = s[0]; z < e[0]; z++)                                                            \
                        for (int64_t y = s[1]; y < e[1]; y++)                                                        \
                            for (int64_t x_ = s[2]; x_ < e[2]; x_++) sum += ip[(z * I[1] + y) * I[2] + x_];          \
                    op[at] += (T)(sum / (T)f);                                                                       \
                }                                                                                                    \
    }

#define AVG3_BACK(T)                                                                                                 \
    for (int64_t sl = 0; sl < S; sl++) {                                                                             \
        if (tsr_check_interrupt() < 0) return -1;                                                                    \
        T *ip = (T *)xb + sl * I[0] * I[1] * I[2];                                                                   \
        const T *op = (const T *)ob + sl * O[0] * O[1] * O[2];                                                       \
        int64_t at = 0, oi[3], s[3], e[3], pool;                                                                     \
        for (oi[0] = 0; oi[0] < O[0]; oi[0]++)                                                                       \
            for (oi[1] = 0; oi[1] < O[1]; oi[1]++)                                                                   \
                for (oi[2] = 0; oi[2] < O[2]; oi[2]++, at++) {                                                       \
                    avg3_window(oi, k, d, p, I, s, e, &pool);                                                        \
                    int64_t f = avg3_div(s, e, pool, cip, hasdiv, div);                                              \
                    T val = op[at];                                                                                  \
                    for (int64_t z = s[0]; z < e[0]; z++)                                                            \
                        for (int64_t y = s[1]; y < e[1]; y++)                                                        \
                            for (int64_t x_ = s[2]; x_ < e[2]; x_++) ip[(z * I[1] + y) * I[2] + x_] += val / (T)f;   \
                }                                                                                                    \
    }

/* back: xb is the (zeroed) gradient of the input, ob the output's */
static int avg3_run(bool back, tsr_dtype dt, void *xb, void *ob, int64_t S, const int64_t *I, const int64_t *O,
                    const int64_t *k, const int64_t *d, const int64_t *p, bool cip, bool hasdiv, int64_t div)
{
    if (back) {
        if (dt == TSR_FLOAT32) {
            AVG3_BACK(float)
        } else {
            AVG3_BACK(double)
        }
        return 0;
    }
    if (dt == TSR_FLOAT32) {
        AVG3_BODY(float)
    } else if (dt == TSR_FLOAT64) {
        AVG3_BODY(double)
    } else {
        AVG3_BODY(int64_t)
    }
    return 0;
}

/* The geometry of avg_pool3d: meta::avg_pool3d's argument checks, then
 * pooling_output_shape and pool3d_shape_check (check_input_size). */
static int avg3_geometry(const tsr_tensor *x, int nk, const int64_t *kin, int ns, const int64_t *sin, int np,
                         const int64_t *pin, bool ceil, bool hasdiv, int64_t div, int64_t *k, int64_t *d, int64_t *p,
                         int64_t *I, int64_t *O)
{
    char b[256];
    if (nk != 1 && nk != 3) {
        tsr_error_set(TSR_ERR_RUNTIME, "avg_pool3d: kernel_size must be a single int, or a tuple of three ints");
        return -1;
    }
    if (ns != 0 && ns != 1 && ns != 3) {
        tsr_error_set(TSR_ERR_RUNTIME, "avg_pool3d: stride must be omitted, a single int, or a tuple of three ints");
        return -1;
    }
    if (np != 1 && np != 3) {
        tsr_error_set(TSR_ERR_RUNTIME, "avg_pool3d: padding must be a single int, or a tuple of three ints");
        return -1;
    }
    if (x->ndim != 4 && x->ndim != 5) {
        tsr_error_set(TSR_ERR_RUNTIME, "non-empty 4D or 5D (batch mode) tensor expected for input");
        return -1;
    }
    if (hasdiv && div == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "divisor must be not zero");
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        k[i] = kin[nk == 3 ? i : 0];
        d[i] = ns == 0 ? k[i] : sin[ns == 3 ? i : 0];
        p[i] = pin[np == 3 ? i : 0];
        I[i] = x->sizes[x->ndim - 3 + i];
    }
    for (int i = 0; i < 3; i++)
        if (out_size(I[i], k[i], p[i], d[i], 1, ceil, &O[i]) < 0) return -1;
    if (k[0] <= 0 || k[1] <= 0 || k[2] <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "kernel size should be greater than zero, but got kT: %lld kH: %lld kW: %lld",
                      (long long)k[0], (long long)k[1], (long long)k[2]);
        return -1;
    }
    if (d[0] <= 0 || d[1] <= 0 || d[2] <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "stride should be greater than zero, but got dT: %lld dH: %lld dW: %lld",
                      (long long)d[0], (long long)d[1], (long long)d[2]);
        return -1;
    }
    for (int i = x->ndim == 5 ? 1 : 0; i < x->ndim; i++)
        if (x->sizes[i] <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "avg_pool3d(): Expected input's non-batch dimensions to have positive length, "
                          "but input has a shape of %s and non-batch dimension %lld has length zero!",
                          tsr__fmt_list(b, sizeof b, x->ndim, x->sizes), (long long)x->sizes[i]);
            return -1;
        }
    if (I[0] < k[0] || I[1] < k[1] || I[2] < k[2]) {
        tsr_error_set(TSR_ERR_RUNTIME, "input image (T: %lld H: %lld W: %lld) smaller than kernel size (kT: %lld kH: "
                      "%lld kW: %lld)", (long long)I[0], (long long)I[1], (long long)I[2], (long long)k[0],
                      (long long)k[1], (long long)k[2]);
        return -1;
    }
    if (k[0] / 2 < p[0] || k[2] / 2 < p[2] || k[1] / 2 < p[1]) {
        tsr_error_set(TSR_ERR_RUNTIME, "pad should be smaller than or equal to half of kernel size, but got kT: %lld "
                      "kW: %lld kH: %lld padT: %lld padW: %lld padH: %lld", (long long)k[0], (long long)k[2],
                      (long long)k[1], (long long)p[0], (long long)p[2], (long long)p[1]);
        return -1;
    }
    if (O[0] < 1 || O[1] < 1 || O[2] < 1) {
        int64_t C = x->sizes[x->ndim - 4];
        tsr_error_set(TSR_ERR_RUNTIME, "Given input size: (%lldx%lldx%lldx%lld). Calculated output size: "
                      "(%lldx%lldx%lldx%lld). Output size is too small", (long long)C, (long long)I[0],
                      (long long)I[1], (long long)I[2], (long long)C, (long long)O[0], (long long)O[1],
                      (long long)O[2]);
        return -1;
    }
    return 0;
}

/* x contiguous with its lazy conj/neg bits resolved: NEW or NULL */
static tsr_tensor *plain_contig(const tsr_tensor *x)
{
    tsr_tensor *c = tsr_contiguous(x, TSR_MF_CONTIGUOUS);
    if (c && tsr_tensor_has_bits(c)) {
        tsr_tensor *v = tsr_resolve_bits(c);
        tsr_tensor_release(c);
        c = v;
    }
    return c;
}

tsr_tensor *tsr_nn_avg_pool3d(const tsr_tensor *x, int nk, const int64_t *kin, int ns, const int64_t *sin, int np,
                              const int64_t *pin, bool ceil, bool cip, bool hasdiv, int64_t div)
{
    if (x->names) {
        tsr_names_refuse("aten::avg_pool3d");
        return NULL;
    }
    int64_t k[3], d[3], p[3], I[3], O[3], shape[5], numel;
    if (avg3_geometry(x, nk, kin, ns, sin, np, pin, ceil, hasdiv, div, k, d, p, I, O) < 0) return NULL;
    if (tsr__pool_external(x)) {
        tsr_pool_geom g = {.nd = 3, .d = {1, 1, 1}, .cip = cip, .hasdiv = hasdiv, .div = div};
        memcpy(g.k, k, sizeof k), memcpy(g.s, d, sizeof d), memcpy(g.p, p, sizeof p), memcpy(g.o, O, sizeof O);
        return tsr__pool_dev(TSR_POOL_AVG, "avg_pool3d_out_cuda", x, &g, NULL);
    }
    for (int i = 0; i < x->ndim - 3; i++) shape[i] = x->sizes[i];
    for (int i = 0; i < 3; i++) shape[x->ndim - 3 + i] = O[i];
    if (tsr_check_sizes(x->ndim, shape, &numel) < 0) return NULL;
    tsr_tensor *out = tsr_tensor_empty(x->ndim, shape, x->dtype, x->device), *xc = NULL;
    if (!out || numel == 0 || tsr_tensor_is_meta(out)) return out;
    if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64 && x->dtype != TSR_INT64) {
        tsr__not_implemented("avg_pool3d_out_frame", x->dtype);
        goto fail;
    }
    if (!(xc = plain_contig(x))) goto fail;
    if (avg3_run(false, x->dtype, tsr_tensor_ptr(xc, NULL), tsr_tensor_ptr(out, NULL), numel / (O[0] * O[1] * O[2]),
                 I, O, k, d, p, cip, hasdiv, div) < 0)
        goto fail;
    tsr_tensor_release(xc);
    return out;
fail:
    tsr_tensor_release(xc);
    tsr_tensor_release(out);
    return NULL;
}

tsr_tensor *tsr_nn_avg_pool3d_backward(const tsr_tensor *g, const tsr_tensor *x, const int64_t *k, const int64_t *d,
                                       const int64_t *p, bool cip, bool hasdiv, int64_t div)
{
    if (tsr__pool_external(x)) {
        tsr_pool_geom q = {.nd = 3, .d = {1, 1, 1}, .cip = cip, .hasdiv = hasdiv, .div = div};
        memcpy(q.k, k, sizeof q.k), memcpy(q.s, d, sizeof q.s), memcpy(q.p, p, sizeof q.p);
        return tsr__pool_dev_backward(TSR_POOL_AVG, "avg_pool3d_backward_out_cuda", g, x, NULL, &q);
    }
    tsr_tensor *r = tsr_tensor_empty(x->ndim, x->sizes, x->dtype, x->device), *gc = NULL;
    if (!r || tsr_zero_(r) < 0) goto fail;
    if (tsr_tensor_numel(r) == 0 || tsr_tensor_numel(g) == 0 || tsr_tensor_is_meta(r)) return r;
    if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64) {
        tsr__not_implemented("avg_pool3d_backward_out_frame", x->dtype);
        goto fail;
    }
    if (!(gc = plain_contig(g))) goto fail;
    int nd = x->ndim;
    const int64_t *I = x->sizes + nd - 3, *O = g->sizes + nd - 3;
    if (avg3_run(true, x->dtype, tsr_tensor_ptr(r, NULL), tsr_tensor_ptr(gc, NULL),
                 tsr_tensor_numel(r) / (I[0] * I[1] * I[2]), I, O, k, d, p, cip, hasdiv, div) < 0)
        goto fail;
    tsr_tensor_release(gc);
    return r;
fail:
    tsr_tensor_release(gc);
    tsr_tensor_release(r);
    return NULL;
}

/* Half arithmetic as c10's: every operation in float, rounded back */
static inline tsr_half h_add(tsr_half a, tsr_half b) { return tsr_float_to_half(tsr_half_to_float(a) + tsr_half_to_float(b)); }
static inline tsr_half h_div(tsr_half a, int64_t b)
{
    return tsr_float_to_half(tsr_half_to_float(a) / tsr_half_to_float(tsr_float_to_half((float)(int)b)));
}
#define F_ADD(a, b) ((a) + (b))
#define F_DIV(a, b) ((a) / (int)(b))

#define AAVG3_LOOP(BODY)                                                                                             \
    for (int64_t sl = 0; sl < S; sl++) {                                                                             \
        if (tsr_check_interrupt() < 0) return -1;                                                                    \
        int64_t at = 0;                                                                                              \
        for (int64_t a = 0; a < O[0]; a++)                                                                           \
            for (int64_t b = 0; b < O[1]; b++)                                                                       \
                for (int64_t c = 0; c < O[2]; c++, at++) {                                                           \
                    int64_t t0 = a * I[0] / O[0], t1 = ((a + 1) * I[0] + O[0] - 1) / O[0];                           \
                    int64_t h0 = b * I[1] / O[1], h1 = ((b + 1) * I[1] + O[1] - 1) / O[1];                           \
                    int64_t w0 = c * I[2] / O[2], w1 = ((c + 1) * I[2] + O[2] - 1) / O[2];                           \
                    BODY                                                                                             \
                }                                                                                                    \
    }

#define AAVG3_FWD(T, ADD, DIV)                                                                                       \
    {                                                                                                                \
        const T *X = xb;                                                                                             \
        T *Y = ob;                                                                                                   \
        AAVG3_LOOP(const T *ip = X + sl * I[0] * I[1] * I[2]; T sum = zero;                                        \
                   for (int64_t z = t0; z < t1; z++) for (int64_t y = h0; y < h1; y++)                               \
                       for (int64_t x_ = w0; x_ < w1; x_++) sum = ADD(sum, ip[(z * I[1] + y) * I[2] + x_]);          \
                   Y[sl * O[0] * O[1] * O[2] + at] = DIV(DIV(DIV(sum, t1 - t0), h1 - h0), w1 - w0);)                 \
    }

#define AAVG3_BWD(T, ADD, DIV)                                                                                       \
    {                                                                                                                \
        T *X = xb;                                                                                                   \
        const T *Y = ob;                                                                                             \
        AAVG3_LOOP(T *ip = X + sl * I[0] * I[1] * I[2];                                                             \
                   T gd = DIV(DIV(DIV(Y[sl * O[0] * O[1] * O[2] + at], t1 - t0), h1 - h0), w1 - w0);                 \
                   for (int64_t z = t0; z < t1; z++) for (int64_t y = h0; y < h1; y++)                               \
                       for (int64_t x_ = w0; x_ < w1; x_++) {                                                        \
                           T *q = ip + (z * I[1] + y) * I[2] + x_;                                                   \
                           *q = ADD(*q, gd);                                                                         \
                       })                                                                                            \
    }

/* forward (xb the input, ob the output) or backward (xb the zeroed
 * gradient of the input, ob the output's), S contiguous slices */
static int aavg3_run(bool back, tsr_dtype dt, void *xb, void *ob, int64_t S, const int64_t *I, const int64_t *O)
{
    if (dt == TSR_FLOAT16) {
        tsr_half zero = tsr_float_to_half(0.0f);
        if (back) AAVG3_BWD(tsr_half, h_add, h_div) else AAVG3_FWD(tsr_half, h_add, h_div)
    } else if (dt == TSR_FLOAT32) {
        float zero = 0;
        if (back) AAVG3_BWD(float, F_ADD, F_DIV) else AAVG3_FWD(float, F_ADD, F_DIV)
        (void)zero;
    } else {
        double zero = 0;
        if (back) AAVG3_BWD(double, F_ADD, F_DIV) else AAVG3_FWD(double, F_ADD, F_DIV)
        (void)zero;
    }
    return 0;
}

tsr_tensor *tsr_nn_adaptive_avg_pool3d(const tsr_tensor *x, int n, const int64_t *osz)
{
    char b[256];
    if (n != 3) {
        tsr_error_set(TSR_ERR_RUNTIME, "adaptive_avg_pool3d: output_size must be 3");
        return NULL;
    }
    if (osz[0] < 0 || osz[1] < 0 || osz[2] < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 "
                      "but received {%lld, %lld,%lld}", (long long)osz[0], (long long)osz[1], (long long)osz[2]);
        return NULL;
    }
    if (osz[0] == 1 && osz[1] == 1 && osz[2] == 1) {   /* mean over thw */
        tsr_dims dims = {.n = 3, .d = {-1, -2, -3}};
        tsr_tensor *r = tsr_mean(x, &dims, true, TSR_DTYPE_UNDEFINED, NULL);
        if (r && x->names && tsr_names_propagate(r, x->names, x->ndim) < 0) {   /* keepdim: every name stays */
            tsr_tensor_release(r);
            r = NULL;
        }
        return r;
    }
    if (x->names) {
        tsr_names_refuse("aten::_adaptive_avg_pool3d");
        return NULL;
    }
    for (int i = 1; i < x->ndim; i++)
        if (x->sizes[i] <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch "
                          "dimensions, but input has sizes %s with dimension %d being empty",
                          tsr__fmt_list(b, sizeof b, x->ndim, x->sizes), i);
            return NULL;
        }
    if (x->ndim != 4 && x->ndim != 5) {
        tsr_error_set(TSR_ERR_RUNTIME, "adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got %s",
                      tsr__fmt_list(b, sizeof b, x->ndim, x->sizes));
        return NULL;
    }
    int64_t shape[5], numel;
    for (int i = 0; i < x->ndim - 3; i++) shape[i] = x->sizes[i];
    for (int i = 0; i < 3; i++) shape[x->ndim - 3 + i] = osz[i];
    if (tsr_check_sizes(x->ndim, shape, &numel) < 0) return NULL;
    if (tsr__pool_external(x)) {
        tsr_pool_geom g = {.nd = 3, .o = {osz[0], osz[1], osz[2]}};
        return tsr__pool_dev(TSR_POOL_ADAPTIVE_AVG, "adaptive_avg_pool3d_cuda", x, &g, NULL);
    }
    tsr_tensor *out = tsr_tensor_empty(x->ndim, shape, x->dtype, x->device), *xc = NULL;
    if (!out || numel == 0 || tsr_tensor_is_meta(out)) return out;
    if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64 && x->dtype != TSR_FLOAT16) {
        tsr__not_implemented("adaptive_avg_pool3d_cpu", x->dtype);
        goto fail;
    }
    if (!(xc = plain_contig(x))) goto fail;
    const int64_t *I = x->sizes + x->ndim - 3;
    if (aavg3_run(false, x->dtype, tsr_tensor_ptr(xc, NULL), tsr_tensor_ptr(out, NULL), numel / (osz[0] * osz[1] * osz[2]),
                  I, osz) < 0)
        goto fail;
    tsr_tensor_release(xc);
    return out;
fail:
    tsr_tensor_release(xc);
    tsr_tensor_release(out);
    return NULL;
}

tsr_tensor *tsr_nn_adaptive_avg_pool3d_backward(const tsr_tensor *g, const tsr_tensor *x)
{
    if (tsr__pool_external(x)) {
        tsr_pool_geom q = {.nd = 3};
        return tsr__pool_dev_backward(TSR_POOL_ADAPTIVE_AVG, "adaptive_avg_pool3d_backward_cuda", g, x, NULL, &q);
    }
    tsr_tensor *r = tsr_tensor_empty(x->ndim, x->sizes, x->dtype, x->device), *gc = NULL;
    if (!r || tsr_zero_(r) < 0) goto fail;
    if (tsr_tensor_numel(r) == 0 || tsr_tensor_numel(g) == 0 || tsr_tensor_is_meta(r)) return r;
    if (!(gc = plain_contig(g))) goto fail;
    int nd = x->ndim;
    const int64_t *I = x->sizes + nd - 3, *O = g->sizes + nd - 3;
    if (aavg3_run(true, x->dtype, tsr_tensor_ptr(r, NULL), tsr_tensor_ptr(gc, NULL),
                  tsr_tensor_numel(r) / (I[0] * I[1] * I[2]), I, O) < 0)
        goto fail;
    tsr_tensor_release(gc);
    return r;
fail:
    tsr_tensor_release(gc);
    tsr_tensor_release(r);
    return NULL;
}

/* ---- fractional_max_pool2d / 3d (FractionalMaxPool2d.cpp and
 * FractionalMaxPool3d.cpp of 1.13): per plane, window starts from its
 * random samples (generate_intervals in scalar_t), then the first maximum
 * (NaN wins) of each kernel-sized window. The 2-D form runs as 3-D with a
 * time axis of 1; its samples are (w, h), the 3-D form's (t, h, w). */

#define FMP_INTERVALS(T)                                                                                             \
    static void fmp_seq_##T(T sample, int64_t in, int64_t out, int64_t k, int64_t *seq)                              \
    {                                                                                                                \
        if (out > 1) {                                                                                               \
            T alpha = (T)(int)(in - k) / (T)(int)(out - 1);                                                          \
            for (int64_t i = 0; i < out - 1; i++) seq[i] = (int)(((T)(int)i + sample) * alpha) - (int)(sample * alpha); \
        }                                                                                                            \
        if (out > 0) seq[out - 1] = in - k;                                                                          \
    }
FMP_INTERVALS(float)
FMP_INTERVALS(double)

/* S contiguous slices of I[0..2]; each slice's windows from its nsp samples */
static int fmp_run(tsr_dtype dt, int nsp, const void *xb, const void *sb, void *ob, int64_t *ib, int64_t S,
                   const int64_t *I, const int64_t *O, const int64_t *k)
{
    int64_t *lo[3], *hi[3], one[3] = {1, 1, 1}, iv = I[0] * I[1] * I[2], ov = O[0] * O[1] * O[2];
    int isz = tsr_dtype_itemsize(dt);
    tsr_tensor *buf = NULL;
    if (win_alloc(&buf, O, lo, hi) < 0) return -1;
    for (int64_t sl = 0; sl < S; sl++) {
        if (tsr_check_interrupt() < 0) {
            tsr_tensor_release(buf);
            return -1;
        }
        for (int a = 3 - nsp; a < 3; a++) {   /* 2-D samples are (w, h); 3-D (t, h, w) */
            int si = nsp == 2 ? 2 - a : a;
            if (dt == TSR_FLOAT32) fmp_seq_float(((const float *)sb)[sl * nsp + si], I[a], O[a], k[a], lo[a]);
            else fmp_seq_double(((const double *)sb)[sl * nsp + si], I[a], O[a], k[a], lo[a]);
        }
        if (nsp == 2) lo[0][0] = 0;
        for (int a = 0; a < 3; a++)
            for (int64_t o = 0; o < O[a]; o++) hi[a][o] = lo[a][o] + k[a];
        winmax(dt, (const char *)xb + sl * iv * isz, (char *)ob + sl * ov * isz, ib + sl * ov, I, O, lo, hi, one);
    }
    tsr_tensor_release(buf);
    return 0;
}

tsr_tensor *tsr_nn_fractional_max_pool(const tsr_tensor *x, int nsp, int nk, const int64_t *kin, int no,
                                       const int64_t *oin, const tsr_tensor *samples, tsr_tensor **indices)
{
    const char *fn = nsp == 2 ? "fractional_max_pool2d" : "fractional_max_pool3d";
    char b[256];
    if (tsr__nn_cpu_only(fn, x) < 0) return NULL;
    if (x->names || samples->names) {
        tsr_names_refuse(nsp == 2 ? "aten::fractional_max_pool2d" : "aten::fractional_max_pool3d");
        return NULL;
    }
    if (nk != nsp) {
        tsr_error_set(TSR_ERR_RUNTIME, nsp == 2 ? "fractional_max_pool2d: kernel_size must either be a single Int or tuple of Ints"
                      : "fractional_max_pool3d: kernel_size must either be a single Int or tuple of three Ints");
        return NULL;
    }
    if (no != nsp) {
        tsr_error_set(TSR_ERR_RUNTIME, nsp == 2 ? "fractional_max_pool2d: output_size must either be a single Int or tuple of Ints"
                      : "fractional_max_pool3d: output_size must either be a single Int or tuple of three Ints");
        return NULL;
    }
    const char *fo = nsp == 2 ? "fractional_max_pool2d()" : "fractional_max_pool3d_out()";
    if (x->ndim != nsp + 1 && x->ndim != nsp + 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: Expected %dD or %dD tensor, but got: %s", fo, nsp + 1, nsp + 2,
                      tsr__fmt_list(b, sizeof b, x->ndim, x->sizes));
        return NULL;
    }
    for (int i = 1; i < x->ndim; i++)
        if (x->sizes[i] <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "%s: Expected input to have non-zero size for non-batch dimensions, but "
                          "got%s with dimension %d being empty.", fo, tsr__fmt_list(b, sizeof b, x->ndim, x->sizes), i);
            return NULL;
        }
    /* time, height, width (the 2-D form: a time of 1) */
    int64_t I[3] = {1, 1, 1}, O[3] = {1, 1, 1}, k[3] = {1, 1, 1};
    for (int i = 0; i < nsp; i++)
        I[3 - nsp + i] = x->sizes[x->ndim - nsp + i], O[3 - nsp + i] = oin[i], k[3 - nsp + i] = kin[i];
    static const char *axis[3] = {"time", "height", "width"};
    for (int i = 3 - nsp; i < 3; i++)
        if (nsp == 2 ? O[i] + k[i] - 1 > I[i] : O[i] + k[i] - 1 >= I[i]) {
            tsr_error_set(TSR_ERR_RUNTIME, "%s: pool %s %lld too large relative to input %s %lld", fo, axis[i],
                          (long long)k[i], axis[i], (long long)I[i]);
            return NULL;
        }
    int64_t shape[5], numel;
    for (int i = 0; i < x->ndim - nsp; i++) shape[i] = x->sizes[i];
    for (int i = 0; i < nsp; i++) shape[x->ndim - nsp + i] = oin[i];
    if (tsr_check_sizes(x->ndim, shape, &numel) < 0) return NULL;
    tsr_tensor *out = tsr_tensor_empty(x->ndim, shape, x->dtype, x->device);
    tsr_tensor *ind = out ? tsr_tensor_empty(x->ndim, shape, TSR_INT64, x->device) : NULL, *xc = NULL, *sc = NULL;
    if (!ind) goto fail;
    if (numel > 0 && !tsr_tensor_is_meta(out)) {
        if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64) {
            tsr__not_implemented(nsp == 2 ? "fractional_max_pool2d_out_frame" : "fractional_max_pool3d_out_frame",
                                 x->dtype);
            goto fail;
        }
        if (samples->dtype != x->dtype) {
            tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(x->dtype),
                          tsr_dtype_scalar_name(samples->dtype));
            goto fail;
        }
        int64_t S = numel / (O[0] * O[1] * O[2]);
        if (tsr_tensor_numel(samples) < S * nsp) {
            tsr_error_set(TSR_ERR_RUNTIME, "%s: _random_samples holds %lld values, %lld needed", fn,
                          (long long)tsr_tensor_numel(samples), (long long)(S * nsp));
            goto fail;
        }
        /* 1.13 reads the samples' data pointer as if contiguous, whatever their strides */
        int64_t nsmp = S * nsp, one = 1;
        if (!(xc = plain_contig(x)) || !(sc = tsr_view_as_strided(samples, 1, &nsmp, &one, TSR_VIEW_KEEP_OFFSET)))
            goto fail;
        if (fmp_run(x->dtype, nsp, tsr_tensor_ptr(xc, NULL), tsr_tensor_ptr(sc, NULL), tsr_tensor_ptr(out, NULL),
                    tsr_tensor_ptr(ind, NULL), S, I, O, k) < 0)
            goto fail;
    }
    tsr_tensor_release(xc);
    tsr_tensor_release(sc);
    if (indices) *indices = ind;
    else tsr_tensor_release(ind);
    return out;
fail:
    tsr_tensor_release(xc);
    tsr_tensor_release(sc);
    tsr_tensor_release(out);
    tsr_tensor_release(ind);
    return NULL;
}

tsr_tensor *tsr_nn_fractional_max_pool_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *indices,
                                                int nsp)
{
    if (nsp == 3) return tsr_nn_max_pool3d_backward(g, x, indices);
    /* 2-D planes as volumes of one frame: the same sums into a contiguous result */
    tsr_tensor *g3 = tsr_view_unsqueeze(g, -3), *x3 = g3 ? tsr_view_unsqueeze(x, -3) : NULL;
    tsr_tensor *i3 = x3 ? tsr_view_unsqueeze(indices, -3) : NULL;
    tsr_tensor *r3 = i3 ? tsr_nn_max_pool3d_backward(g3, x3, i3) : NULL, *r = r3 ? tsr_view_squeeze_dim(r3, -3) : NULL;
    tsr_tensor_release(g3);
    tsr_tensor_release(x3);
    tsr_tensor_release(i3);
    tsr_tensor_release(r3);
    return r;
}
