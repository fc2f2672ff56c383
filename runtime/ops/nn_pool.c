/* runtime/ops/nn_pool.c — the pooling layers as 1.13's CPU kernels compute
 * them: max_pool2d_with_indices (MaxPoolKernel.cpp: the first maximum,
 * NaN wins), max_pool1d (MaxPooling.cpp's own checks), avg_pool2d
 * (AvgPoolKernel.cpp: sum in scalar_t, float for bfloat16, then one
 * division by the int64 divisor), adaptive_avg_pool2d (sum / kh / kw; an
 * output of 1x1 is mean(-1, -2)), adaptive_max_pool2d; the 1-D forms run
 * the 2-D kernels over (1, L) as 1.13 does. Output memory format follows
 * input.suggest_memory_format(). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn_conv.h"
#include "nn_pool_grad.h"
#include "nn_pool_dev.h"
#include "copy.h"
#include "factory.h"
#include "indexdim.h"
#include "scatter.h"
#include "reduce.h"
#include "../error.h"
#include "../internal.h"
#include "../named.h"
#include "../view.h"

static tsr_tensor *take(tsr_tensor **t, tsr_tensor *r)
{
    tsr_tensor_release(*t);
    *t = r;
    return r;
}

static char *sizes_of(char *buf, size_t n, const tsr_tensor *t) { return tsr__fmt_list(buf, n, t->ndim, t->sizes); }

/* The geometry of one 2-D pooling: a 4-D input and output (batch added). */
typedef struct {
    int64_t N, C, H, W, OH, OW, kh, kw, sh, sw, ph, pw, dh, dw;
    bool cip, hasdiv;
    int64_t div;
} Pool;

typedef enum { P_MAX, P_AVG, P_AMAX, P_AAVG } PoolKind;

#define START(a, b, c) (((a) * (c)) / (b))
#define END(a, b, c) ((((a) + 1) * (c) + (b) - 1) / (b))

/* One kernel per dtype: T storage, A accumulate, LD/ST convert. */
#define POOL_KERNEL(NAME, T, A, LD, ST)                                                                         \
    static void NAME(PoolKind kind, const Pool *p, const tsr_tensor *x, tsr_tensor *out, tsr_tensor *ind)      \
    {                                                                                                          \
        const T *xb = tsr_tensor_ptr(x, NULL);                                                                 \
        T *ob = tsr_tensor_ptr(out, NULL);                                                                     \
        int64_t *ib = ind ? tsr_tensor_ptr(ind, NULL) : NULL;                                                  \
        const int64_t *xs = x->strides, *os = out->strides;                                                    \
        for (int64_t n = 0; n < p->N; n++)                                                                     \
            for (int64_t c = 0; c < p->C; c++) {                                                               \
                const T *src = xb + n * xs[0] + c * xs[1];                                                     \
                for (int64_t oh = 0; oh < p->OH; oh++)                                                         \
                    for (int64_t ow = 0; ow < p->OW; ow++) {                                                   \
                        int64_t o = n * os[0] + c * os[1] + oh * os[2] + ow * os[3];                           \
                        if (kind == P_MAX || kind == P_AMAX) {                                                 \
                            int64_t h0, h1, w0, w1, dh = 1, dw = 1;                                            \
                            if (kind == P_MAX) {                                                               \
                                h0 = oh * p->sh - p->ph, w0 = ow * p->sw - p->pw;                              \
                                h1 = h0 + (p->kh - 1) * p->dh + 1 < p->H ? h0 + (p->kh - 1) * p->dh + 1 : p->H; \
                                w1 = w0 + (p->kw - 1) * p->dw + 1 < p->W ? w0 + (p->kw - 1) * p->dw + 1 : p->W; \
                                dh = p->dh, dw = p->dw;                                                        \
                                while (h0 < 0) h0 += dh;                                                       \
                                while (w0 < 0) w0 += dw;                                                       \
                            } else {                                                                           \
                                h0 = START(oh, p->OH, p->H), h1 = END(oh, p->OH, p->H);                        \
                                w0 = START(ow, p->OW, p->W), w1 = END(ow, p->OW, p->W);                        \
                            }                                                                                  \
                            int64_t mi = h0 * p->W + w0;                                                       \
                            A mv = -INFINITY;                                                                  \
                            for (int64_t ih = h0; ih < h1; ih += dh)                                           \
                                for (int64_t iw = w0; iw < w1; iw += dw) {                                     \
                                    A v = LD(src[ih * xs[2] + iw * xs[3]]);                                    \
                                    if (v > mv || isnan(v)) mv = v, mi = ih * p->W + iw;                       \
                                }                                                                              \
                            ob[o] = ST(mv);                                                                    \
                            if (ib) ib[o] = mi;                                                                \
                        } else if (kind == P_AVG) {                                                            \
                            int64_t h0 = oh * p->sh - p->ph, w0 = ow * p->sw - p->pw;                          \
                            int64_t h1 = h0 + p->kh < p->H + p->ph ? h0 + p->kh : p->H + p->ph;                \
                            int64_t w1 = w0 + p->kw < p->W + p->pw ? w0 + p->kw : p->W + p->pw;                \
                            int64_t size = (h1 - h0) * (w1 - w0);                                              \
                            if (h0 < 0) h0 = 0;                                                                \
                            if (w0 < 0) w0 = 0;                                                                \
                            if (h1 > p->H) h1 = p->H;                                                          \
                            if (w1 > p->W) w1 = p->W;                                                          \
                            if (h0 >= h1 || w0 >= w1) {                                                        \
                                ob[o] = ST((A)0);                                                              \
                                continue;                                                                      \
                            }                                                                                  \
                            int64_t div = p->hasdiv ? p->div : p->cip ? size : (h1 - h0) * (w1 - w0);          \
                            A sum = 0;                                                                         \
                            for (int64_t ih = h0; ih < h1; ih++)                                               \
                                for (int64_t iw = w0; iw < w1; iw++) sum += LD(src[ih * xs[2] + iw * xs[3]]);  \
                            ob[o] = ST((A)(sum / (A)div));                                                     \
                        } else {                                                                               \
                            int64_t h0 = START(oh, p->OH, p->H), h1 = END(oh, p->OH, p->H);                    \
                            int64_t w0 = START(ow, p->OW, p->W), w1 = END(ow, p->OW, p->W);                    \
                            A sum = 0;                                                                         \
                            for (int64_t ih = h0; ih < h1; ih++)                                               \
                                for (int64_t iw = w0; iw < w1; iw++) sum += LD(src[ih * xs[2] + iw * xs[3]]);  \
                            ob[o] = ST((A)((A)(sum / (A)(h1 - h0)) / (A)(w1 - w0)));                           \
                        }                                                                                      \
                    }                                                                                          \
            }                                                                                                  \
    }

#define ID(v) (v)
POOL_KERNEL(pool_f32, float, float, ID, ID)
POOL_KERNEL(pool_f64, double, double, ID, ID)
POOL_KERNEL(pool_bf16, tsr_bfloat16, float, tsr_bfloat16_to_float, tsr_float_to_bfloat16)

/* avg_pool2d of int64 (max is not dispatched for integers) */
static void pool_i64(PoolKind kind, const Pool *p, const tsr_tensor *x, tsr_tensor *out, tsr_tensor *ind)
{
    (void)kind; (void)ind;
    const int64_t *xb = tsr_tensor_ptr(x, NULL), *xs = x->strides, *os = out->strides;
    int64_t *ob = tsr_tensor_ptr(out, NULL);
    for (int64_t n = 0; n < p->N; n++)
        for (int64_t c = 0; c < p->C; c++)
            for (int64_t oh = 0; oh < p->OH; oh++)
                for (int64_t ow = 0; ow < p->OW; ow++) {
                    const int64_t *src = xb + n * xs[0] + c * xs[1];
                    int64_t o = n * os[0] + c * os[1] + oh * os[2] + ow * os[3];
                    int64_t h0 = oh * p->sh - p->ph, w0 = ow * p->sw - p->pw;
                    int64_t h1 = h0 + p->kh < p->H + p->ph ? h0 + p->kh : p->H + p->ph;
                    int64_t w1 = w0 + p->kw < p->W + p->pw ? w0 + p->kw : p->W + p->pw;
                    int64_t size = (h1 - h0) * (w1 - w0);
                    if (h0 < 0) h0 = 0;
                    if (w0 < 0) w0 = 0;
                    if (h1 > p->H) h1 = p->H;
                    if (w1 > p->W) w1 = p->W;
                    if (h0 >= h1 || w0 >= w1) {
                        ob[o] = 0;
                        continue;
                    }
                    int64_t div = p->hasdiv ? p->div : p->cip ? size : (h1 - h0) * (w1 - w0), sum = 0;
                    for (int64_t ih = h0; ih < h1; ih++)
                        for (int64_t iw = w0; iw < w1; iw++) sum += src[ih * xs[2] + iw * xs[3]];
                    ob[o] = sum / div;
                }
}

/* Runs kind over x (3-D or 4-D), output (and int64 indices) in x's
 * suggested memory format; kname names the dtype refusal. */
static tsr_tensor *run_pool(PoolKind kind, const char *kname, const tsr_tensor *x, Pool *p, tsr_tensor **indices)
{
    if (tsr_tensor_has_bits(x)) {
        tsr_tensor *c = tsr_resolve_bits(x), *r = c ? run_pool(kind, kname, c, p, indices) : NULL;
        tsr_tensor_release(c);
        return r;
    }
    if (tsr__pool_external(x)) {
        static const char *const cuda_names[] = {"max_pool2d_with_indices_out_cuda_frame", "avg_pool2d_out_cuda_frame",
                                                 "adaptive_max_pool2d_cuda", "adaptive_avg_pool2d_cuda"};
        static const tsr_pool_kind kinds[] = {TSR_POOL_MAX, TSR_POOL_AVG, TSR_POOL_ADAPTIVE_MAX, TSR_POOL_ADAPTIVE_AVG};
        tsr_pool_geom g = {.nd = 2, .k = {p->kh, p->kw}, .s = {p->sh, p->sw}, .p = {p->ph, p->pw},
                           .d = {p->dh ? p->dh : 1, p->dw ? p->dw : 1}, .o = {p->OH, p->OW}, .cip = p->cip,
                           .hasdiv = p->hasdiv, .div = p->div};
        (void)kname;
        return tsr__pool_dev(kinds[kind], cuda_names[kind], x, &g, indices);
    }
    tsr_dtype d = x->dtype;
    bool ok = d == TSR_FLOAT32 || d == TSR_FLOAT64 || d == TSR_BFLOAT16 || (kind == P_AVG && d == TSR_INT64);
    if (!ok) {
        tsr__not_implemented(kname, d);
        return NULL;
    }
    bool batched = x->ndim == 4;
    tsr_memory_format mf = tsr_tensor_suggest_memory_format(x);
    int64_t osz[4] = {batched ? x->sizes[0] : p->C, batched ? p->C : p->OH, batched ? p->OH : p->OW, p->OW};
    tsr_tensor *out = tsr_tensor_empty_format(x->ndim, osz, d, x->device, batched ? mf : TSR_MF_CONTIGUOUS);
    tsr_tensor *ind = out && indices ? tsr_tensor_empty_format(x->ndim, osz, TSR_INT64, x->device,
                                                               batched ? mf : TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *x4 = NULL, *o4 = NULL, *i4 = NULL;
    if (!out || (indices && !ind)) goto fail;
    if (!tsr_tensor_is_meta(out) && tsr_tensor_numel(out) > 0) {
        x4 = batched ? tsr_tensor_retain((tsr_tensor *)x) : tsr_view_unsqueeze(x, 0);
        o4 = batched ? tsr_tensor_retain(out) : tsr_view_unsqueeze(out, 0);
        i4 = !ind ? NULL : batched ? tsr_tensor_retain(ind) : tsr_view_unsqueeze(ind, 0);
        if (!x4 || !o4 || (ind && !i4)) goto fail;
        if (tsr_check_interrupt() < 0) goto fail;
        p->N = x4->sizes[0];
        switch (d) {
        case TSR_FLOAT32: pool_f32(kind, p, x4, o4, i4); break;
        case TSR_FLOAT64: pool_f64(kind, p, x4, o4, i4); break;
        case TSR_BFLOAT16: pool_bf16(kind, p, x4, o4, i4); break;
        default: pool_i64(kind, p, x4, o4, i4); break;
        }
    }
    tsr_tensor_release(x4);
    tsr_tensor_release(o4);
    tsr_tensor_release(i4);
    if (indices) *indices = ind;
    return out;
fail:
    tsr_tensor_release(x4);
    tsr_tensor_release(o4);
    tsr_tensor_release(i4);
    tsr_tensor_release(out);
    tsr_tensor_release(ind);
    return NULL;
}

/* div_rtn and pooling_output_shape(_pad_lr) of Pool.h */
static int out_shape(int64_t in, int64_t k, int64_t pad, int64_t s, int64_t dil, bool ceil, int64_t *out)
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

/* pool2d_shape_check's part after the sizes */
static int shape_check(const tsr_tensor *x, const Pool *p, tsr_memory_format mf)
{
    char b[256];
    if (p->kw <= 0 || p->kh <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "kernel size should be greater than zero, but got kH: %lld kW: %lld",
                      (long long)p->kh, (long long)p->kw);
        return -1;
    }
    if (p->sw <= 0 || p->sh <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "stride should be greater than zero, but got dH: %lld dW: %lld",
                      (long long)p->sh, (long long)p->sw);
        return -1;
    }
    if (p->dh <= 0 || p->dw <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "dilation should be greater than zero, but got dilationH: %lld dilationW: %lld",
                      (long long)p->dh, (long long)p->dw);
        return -1;
    }
    int nd = x->ndim;
    bool valid = x->sizes[1] != 0 && x->sizes[2] != 0;
    if (mf == TSR_MF_CHANNELS_LAST) {
        if (!(nd == 4 && valid && x->sizes[3] != 0)) {
            tsr_error_set(TSR_ERR_RUNTIME, "Expected 4D (batch mode) tensor expected for input with channels_last layout "
                          "with optional 0 dim batch size for input, but got: %s", sizes_of(b, sizeof b, x));
            return -1;
        }
    } else if (!((nd == 3 && x->sizes[0] != 0 && valid) || (nd == 4 && valid && x->sizes[3] != 0))) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, "
                      "but got:%s", sizes_of(b, sizeof b, x));
        return -1;
    }
    if (!(p->kw / 2 >= p->pw && p->kh / 2 >= p->ph)) {
        tsr_error_set(TSR_ERR_RUNTIME, "pad should be smaller than or equal to half of kernel size, but got padW = %lld, "
                      "padH = %lld, kW = %lld, kH = %lld", (long long)p->pw, (long long)p->ph, (long long)p->kw,
                      (long long)p->kh);
        return -1;
    }
    if (p->OW < 1 || p->OH < 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "Given input size: (%lldx%lldx%lld). Calculated output size: "
                      "(%lldx%lldx%lld). Output size is too small", (long long)p->C, (long long)p->H, (long long)p->W,
                      (long long)p->C, (long long)p->OH, (long long)p->OW);
        return -1;
    }
    return 0;
}

/* Two values from a list of one or two (the first is H). */
static void two(int n, const int64_t *v, int64_t dflt_h, int64_t dflt_w, int64_t *h, int64_t *w)
{
    if (n == 0) *h = dflt_h, *w = dflt_w;
    else if (n == 1) *h = *w = v[0];
    else *h = v[0], *w = v[1];
}

static tsr_tensor *max_pool2d(const tsr_tensor *x, int nk, const int64_t *k, int ns, const int64_t *s, int np,
                              const int64_t *pd, int nd, const int64_t *dl, bool ceil, tsr_tensor **indices)
{
    if (nk != 1 && nk != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool2d: kernel_size must either be a single int, or a tuple of two ints");
        return NULL;
    }
    if (ns != 0 && ns != 1 && ns != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool2d: stride must either be omitted, a single int, or a tuple of two ints");
        return NULL;
    }
    if (np != 1 && np != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool2d: padding must be either be a single int, or a tuple of two ints");
        return NULL;
    }
    if (nd != 1 && nd != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool2d: dilation must be either a single int, or a tuple of two ints");
        return NULL;
    }
    Pool p = {0};
    two(nk, k, 0, 0, &p.kh, &p.kw);
    two(ns, s, p.kh, p.kw, &p.sh, &p.sw);
    two(np, pd, 0, 0, &p.ph, &p.pw);
    two(nd, dl, 1, 1, &p.dh, &p.dw);
    tsr_memory_format mf = tsr_tensor_suggest_memory_format(x);
    if (mf == TSR_MF_CHANNELS_LAST && x->ndim != 4) {
        tsr_error_set(TSR_ERR_RUNTIME, "non-empty 4D (batch mode) tensor expected for input with channels_last layout");
        return NULL;
    }
    if (mf == TSR_MF_CONTIGUOUS && x->ndim != 3 && x->ndim != 4) {
        tsr_error_set(TSR_ERR_RUNTIME, "non-empty 3D or 4D (batch mode) tensor expected for input");
        return NULL;
    }
    int b = x->ndim - 3;
    p.C = x->sizes[b], p.H = x->sizes[b + 1], p.W = x->sizes[b + 2];
    if (out_shape(p.H, p.kh, p.ph, p.sh, p.dh, ceil, &p.OH) < 0 || out_shape(p.W, p.kw, p.pw, p.sw, p.dw, ceil, &p.OW) < 0 ||
        shape_check(x, &p, mf) < 0)
        return NULL;
    tsr_tensor *ind = NULL, *r = run_pool(P_MAX, "max_pool2d", x, &p, &ind);
    if (indices) *indices = ind;
    else tsr_tensor_release(ind);
    return r;
}

/* check1d of Pooling.cpp */
static int check1d(const char *fn, const char *arg, int n)
{
    if (n == 1) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "%s() argument '%s' should contain one int (got %d)", fn, arg, n);
    return -1;
}

/* checkDimRange(fn, self, 2, 4) */
static int dim_range(const char *fn, const tsr_tensor *x)
{
    if (x->ndim >= 2 && x->ndim < 4) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "Expected 2 to 3 dimensions, but got %d-dimensional tensor for argument #1 'self' "
                  "(while checking arguments for %s)", x->ndim, fn);
    return -1;
}

/* The 1-D forms: x.unsqueeze(-2), the 2-D op over (1, L), squeeze(-2). */
static tsr_tensor *squeeze2(tsr_tensor *r) { return r ? take(&r, tsr_view_squeeze_dim(r, -2)) : NULL; }

static tsr_tensor *max_pool1d(const tsr_tensor *x, int nk, const int64_t *k, int ns, const int64_t *s, int np,
                              const int64_t *pd, int nd, const int64_t *dl, bool ceil, tsr_tensor **indices)
{
    char b[256];
    if (!indices && tsr__pool_external(x)) {   /* 1.13's max_pool1d off the CPU: max_pool1d_with_indices */
        tsr_tensor *ind = NULL, *r = max_pool1d(x, nk, k, ns, s, np, pd, nd, dl, ceil, &ind);
        tsr_tensor_release(ind);
        return r;
    }
    if (indices) {   /* max_pool1d_with_indices */
        if (ns == 0) s = k, ns = nk;
        if (dim_range("max_pool1d", x) < 0 || check1d("max_pool1d", "kernel_size", nk) < 0 ||
            check1d("max_pool1d", "stride", ns) < 0 || check1d("max_pool1d", "padding", np) < 0 ||
            check1d("max_pool1d", "dilation", nd) < 0)
            return NULL;
        int64_t k2[2] = {1, k[0]}, s2[2] = {1, s[0]}, p2[2] = {0, pd[0]}, d2[2] = {1, dl[0]};
        tsr_tensor *x2 = tsr_view_unsqueeze(x, -2), *ind = NULL;
        if (!x2) return NULL;
        tsr_tensor *r = squeeze2(max_pool2d(x2, 2, k2, 2, s2, 2, p2, 2, d2, ceil, &ind));
        ind = squeeze2(ind);
        if (r && !ind) take(&r, NULL);
        tsr_tensor_release(x2);
        *indices = ind;
        return r;
    }
    if (!((x->ndim == 2 || x->ndim == 3) && x->sizes[x->ndim - 1] != 0 && x->sizes[x->ndim - 2] != 0)) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size "
                      "for input, but got:%s", sizes_of(b, sizeof b, x));
        return NULL;
    }
    if (nk != 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 "
                      "but got size %d", nk);
        return NULL;
    }
    if (ns != 0 && ns != 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size "
                      "1 but got size %d", ns);
        return NULL;
    }
    if (np != 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool1d() padding must be an int, list of ints, or tuple of ints of size 1 but "
                      "got size %d", np);
        return NULL;
    }
    if (nd != 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool1d() dilation must be an int, list of ints or tuple of ints of size 1 but "
                      "got size %d", nd);
        return NULL;
    }
    int64_t kk = k[0], ss = ns ? s[0] : k[0], pp = pd[0], dd = dl[0];
    if (kk <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool1d() kernel_size must be greater than zero, but got %lld", (long long)kk);
        return NULL;
    }
    if (ss <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool1d() stride must be greater than zero, but got %lld", (long long)ss);
        return NULL;
    }
    if (pp < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool1d() padding must be non-negative, but got %lld", (long long)pp);
        return NULL;
    }
    if (pp > kk / 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool1d() padding should be at most half of kernel size, but got padding=%lld "
                      "and kernel_size=%lld", (long long)pp, (long long)kk);
        return NULL;
    }
    if (dd <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool1d() dilation must be greater than zero, but got %lld", (long long)dd);
        return NULL;
    }
    Pool p = {.kh = 1, .kw = kk, .sh = 1, .sw = ss, .ph = 0, .pw = pp, .dh = 1, .dw = dd, .H = 1, .OH = 1};
    if (out_shape(x->sizes[x->ndim - 1], kk, pp, ss, dd, ceil, &p.OW) < 0) return NULL;
    if (p.OW < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_pool1d() Invalid computed output size: %lld", (long long)p.OW);
        return NULL;
    }
    if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64 && x->dtype != TSR_BFLOAT16) {
        tsr__not_implemented("max_pool1d_impl", x->dtype);
        return NULL;
    }
    /* the kernel over (C, 1, L) planes, output contiguous */
    tsr_tensor *x3 = tsr_view_unsqueeze(x, -2), *r = NULL;
    if (!x3) return NULL;
    p.C = x3->sizes[x3->ndim - 3], p.W = x->sizes[x->ndim - 1];
    tsr_tensor *plain = x3;
    if (plain) {
        /* run_pool's format for a 4-D view follows the input; 1.13 gives a contiguous output */
        int64_t osz[3];
        for (int i = 0; i < x->ndim - 1; i++) osz[i] = x->sizes[i];
        osz[x->ndim - 1] = p.OW;
        r = tsr_tensor_empty(x->ndim, osz, x->dtype, x->device);
        tsr_tensor *o3 = r ? tsr_view_unsqueeze(r, -2) : NULL, *x4 = NULL, *o4 = NULL;
        if (o3 && !tsr_tensor_is_meta(r) && tsr_tensor_numel(r) > 0) {
            x4 = plain->ndim == 4 ? tsr_tensor_retain(plain) : tsr_view_unsqueeze(plain, 0);
            o4 = o3->ndim == 4 ? tsr_tensor_retain(o3) : tsr_view_unsqueeze(o3, 0);
            if (x4 && o4) {
                p.N = x4->sizes[0];
                if (x->dtype == TSR_FLOAT32) pool_f32(P_MAX, &p, x4, o4, NULL);
                else if (x->dtype == TSR_FLOAT64) pool_f64(P_MAX, &p, x4, o4, NULL);
                else pool_bf16(P_MAX, &p, x4, o4, NULL);
            } else {
                take(&r, NULL);
            }
        } else if (!o3) {
            take(&r, NULL);
        }
        tsr_tensor_release(o3);
        tsr_tensor_release(x4);
        tsr_tensor_release(o4);
    }
    tsr_tensor_release(x3);
    return r;
}

static tsr_tensor *plain_of(const tsr_tensor *x)
{
    tsr_tensor *c = tsr_tensor_has_bits(x) ? tsr_resolve_bits(x) : tsr_tensor_retain((tsr_tensor *)x);
    if (!c || !c->names) return c;
    tsr_tensor *a = tsr_tensor_alias(c, c->ndim, c->sizes, c->strides, c->storage_offset);
    tsr_tensor_release(c);
    return a;
}

/* max_pool1d / max_pool2d (with_indices or not): names propagate. */
static tsr_tensor *named_max(bool one, const tsr_tensor *x, int nk, const int64_t *k, int ns, const int64_t *s, int np,
                             const int64_t *pd, int nd, const int64_t *dl, bool ceil, tsr_tensor **indices)
{
    tsr_tensor *px = plain_of(x), *ind = NULL, *r = NULL;
    if (!px) return NULL;
    r = one ? max_pool1d(px, nk, k, ns, s, np, pd, nd, dl, ceil, indices ? &ind : NULL)
            : max_pool2d(px, nk, k, ns, s, np, pd, nd, dl, ceil, indices ? &ind : NULL);
    tsr_tensor_release(px);
    if (r && x->names && (tsr_names_propagate(r, x->names, x->ndim) < 0 ||
                          (ind && tsr_names_propagate(ind, x->names, x->ndim) < 0))) {
        take(&r, NULL);
        take(&ind, NULL);
    }
    if (indices) *indices = ind;
    return r;
}

tsr_tensor *tsr_nn_max_pool2d(const tsr_tensor *x, int nk, const int64_t *k, int ns, const int64_t *s, int np,
                              const int64_t *pd, int nd, const int64_t *dl, bool ceil, tsr_tensor **indices)
{
    return named_max(false, x, nk, k, ns, s, np, pd, nd, dl, ceil, indices);
}

tsr_tensor *tsr_nn_max_pool1d(const tsr_tensor *x, int nk, const int64_t *k, int ns, const int64_t *s, int np,
                              const int64_t *pd, int nd, const int64_t *dl, bool ceil, tsr_tensor **indices)
{
    return named_max(true, x, nk, k, ns, s, np, pd, nd, dl, ceil, indices);
}

tsr_tensor *tsr_nn_avg_pool2d(const tsr_tensor *x, int nk, const int64_t *k, int ns, const int64_t *s, int np,
                              const int64_t *pd, bool ceil, bool cip, bool hasdiv, int64_t div)
{
    if (x->names) {
        tsr_names_refuse("aten::avg_pool2d");
        return NULL;
    }
    if (nk != 1 && nk != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "avg_pool2d: kernel_size must either be a single int, or a tuple of two ints");
        return NULL;
    }
    if (ns != 0 && ns != 1 && ns != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "avg_pool2d: stride must either be omitted, a single int, or a tuple of two ints");
        return NULL;
    }
    if (np != 1 && np != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "avg_pool2d: padding must either be a single int, or a tuple of two ints");
        return NULL;
    }
    if (hasdiv && div == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "divisor must be not zero");
        return NULL;
    }
    if (x->ndim < 3) {
        tsr_error_set(TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got -3)",
                      x->ndim ? -x->ndim : -1, x->ndim ? x->ndim - 1 : 0);
        return NULL;
    }
    Pool p = {.dh = 1, .dw = 1, .cip = cip, .hasdiv = hasdiv, .div = div};
    two(nk, k, 0, 0, &p.kh, &p.kw);
    two(ns, s, p.kh, p.kw, &p.sh, &p.sw);
    two(np, pd, 0, 0, &p.ph, &p.pw);
    int n = x->ndim;
    p.C = x->sizes[n - 3], p.H = x->sizes[n - 2], p.W = x->sizes[n - 1];
    tsr_memory_format mf = tsr_tensor_suggest_memory_format(x);
    if (out_shape(p.H, p.kh, p.ph, p.sh, 1, ceil, &p.OH) < 0 || out_shape(p.W, p.kw, p.pw, p.sw, 1, ceil, &p.OW) < 0 ||
        shape_check(x, &p, mf) < 0)
        return NULL;
    return run_pool(P_AVG, "avg_pool2d", x, &p, NULL);
}

tsr_tensor *tsr_nn_avg_pool1d(const tsr_tensor *x, int nk, const int64_t *k, int ns, const int64_t *s, int np,
                              const int64_t *pd, bool ceil, bool cip)
{
    if (ns == 0) s = k, ns = nk;
    if (x->names) {
        tsr_names_refuse("aten::unsqueeze");
        return NULL;
    }
    if (dim_range("avg_pool1d", x) < 0 || check1d("avg_pool1d", "kernel_size", nk) < 0 ||
        check1d("avg_pool1d", "stride", ns) < 0 || check1d("avg_pool1d", "padding", np) < 0)
        return NULL;
    int64_t k2[2] = {1, k[0]}, s2[2] = {1, s[0]}, p2[2] = {0, pd[0]};
    tsr_tensor *x2 = tsr_view_unsqueeze(x, -2);
    if (!x2) return NULL;
    tsr_tensor *r = squeeze2(tsr_nn_avg_pool2d(x2, 2, k2, 2, s2, 2, p2, ceil, cip, false, 0));
    tsr_tensor_release(x2);
    return r;
}

tsr_tensor *tsr_nn_adaptive_avg_pool2d(const tsr_tensor *x, int n, const int64_t *osz)
{
    char b[256];
    if (n != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "adaptive_avg_pool2d: output_size must be 2");
        return NULL;
    }
    if (osz[0] < 0 || osz[1] < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 "
                      "but received {%lld, %lld}", (long long)osz[0], (long long)osz[1]);
        return NULL;
    }
    if (osz[0] == 1 && osz[1] == 1) {   /* mean over hw */
        tsr_dims dims = {.n = 2, .d = {-1, -2}};
        tsr_tensor *r = tsr_mean(x, &dims, true, TSR_DTYPE_UNDEFINED, NULL);
        if (r && x->ndim == 4 && tsr_tensor_suggest_memory_format(x) == TSR_MF_CHANNELS_LAST) {
            int64_t c = x->sizes[1], st[4] = {c, 1, c, c};
            take(&r, tsr_view_as_strided(r, 4, r->sizes, st, TSR_VIEW_KEEP_OFFSET));
        }
        return r;
    }
    if (x->names) {
        tsr_names_refuse("aten::_adaptive_avg_pool2d");
        return NULL;
    }
    for (int i = -2; i <= -1; i++)
        if (x->ndim >= 2 && x->sizes[x->ndim + i] <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch "
                          "dimensions, but input has sizes %s with dimension %d being empty", sizes_of(b, sizeof b, x),
                          x->ndim + i);
            return NULL;
        }
    if (x->ndim != 3 && x->ndim != 4) {
        tsr_error_set(TSR_ERR_RUNTIME, "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got %s",
                      sizes_of(b, sizeof b, x));
        return NULL;
    }
    Pool p = {.OH = osz[0], .OW = osz[1]};
    p.C = x->sizes[x->ndim - 3], p.H = x->sizes[x->ndim - 2], p.W = x->sizes[x->ndim - 1];
    return run_pool(P_AAVG, "adaptive_avg_pool2d", x, &p, NULL);
}

tsr_tensor *tsr_nn_adaptive_avg_pool1d(const tsr_tensor *x, int n, const int64_t *osz)
{
    if (x->names) {
        tsr_names_refuse("aten::unsqueeze");
        return NULL;
    }
    if (dim_range("adaptive_avg_pool1d", x) < 0 || check1d("adaptive_avg_pool1d", "output_size", n) < 0) return NULL;
    int64_t o2[2] = {1, osz[0]};
    tsr_tensor *x2 = tsr_view_unsqueeze(x, -2);
    if (!x2) return NULL;
    tsr_tensor *r = squeeze2(tsr_nn_adaptive_avg_pool2d(x2, 2, o2));
    tsr_tensor_release(x2);
    return r;
}

tsr_tensor *tsr_nn_adaptive_max_pool2d(const tsr_tensor *x, int n, const int64_t *osz, tsr_tensor **indices)
{
    char b[256];
    if (x->names) {
        tsr_names_refuse("aten::adaptive_max_pool2d");
        return NULL;
    }
    if (x->ndim != 3 && x->ndim != 4) {
        tsr_error_set(TSR_ERR_RUNTIME, "adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: %s",
                      sizes_of(b, sizeof b, x));
        return NULL;
    }
    for (int i = 1; i < x->ndim; i++)
        if (x->sizes[i] <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "adaptive_max_pool2d(): Expected input to have non-zero size for non-batch "
                          "dimensions, but input has sizes %s with dimension %d being empty", sizes_of(b, sizeof b, x), i);
            return NULL;
        }
    if (n != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "adaptive_max_pool2d(): internal error: output_size.size() must be 2");
        return NULL;
    }
    int64_t shape[4];
    for (int i = 0; i < x->ndim - 2; i++) shape[i] = x->sizes[i];
    shape[x->ndim - 2] = osz[0], shape[x->ndim - 1] = osz[1];
    int64_t numel;
    if (tsr_check_sizes(x->ndim, shape, &numel) < 0) return NULL;
    Pool p = {.OH = osz[0], .OW = osz[1]};
    p.C = x->sizes[x->ndim - 3], p.H = x->sizes[x->ndim - 2], p.W = x->sizes[x->ndim - 1];
    tsr_tensor *ind = NULL, *r = run_pool(P_AMAX, "adaptive_max_pool2d", x, &p, &ind);
    *indices = ind;
    return r;
}

tsr_tensor *tsr_nn_adaptive_max_pool1d(const tsr_tensor *x, int n, const int64_t *osz, tsr_tensor **indices)
{
    char b[256];
    *indices = NULL;
    if (x->names) {
        tsr_names_refuse("aten::unsqueeze");
        return NULL;
    }
    if (dim_range("adaptive_max_pool1d", x) < 0 || check1d("adaptive_max_pool1d", "output_size", n) < 0) return NULL;
    for (int i = 1; i < x->ndim; i++)
        if (x->sizes[i] <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "adaptive_max_pool1d(): Expected input to have non-zero size for non-batch "
                          "dimensions, but input has sizes %s with dimension %d being empty", sizes_of(b, sizeof b, x), i);
            return NULL;
        }
    int64_t o2[2] = {1, osz[0]};
    tsr_tensor *x2 = tsr_view_unsqueeze(x, -2), *ind = NULL;
    if (!x2) return NULL;
    tsr_tensor *r = squeeze2(tsr_nn_adaptive_max_pool2d(x2, 2, o2, &ind));
    ind = squeeze2(ind);
    tsr_tensor_release(x2);
    if (r && !ind) take(&r, NULL);
    *indices = ind;
    return r;
}

/* ------------------------------------------------------------ F.pad's reflect / replicate / circular */

/* "[ torch.FloatTensor{2,0,3} ]" as 1.13 prints a tensor in the
 * reflection_pad messages */
static char *tensor_desc(char *buf, size_t n, const tsr_tensor *t)
{
    size_t k = (size_t)snprintf(buf, n, "[ torch.%sTensor{", tsr_dtype_scalar_name(t->dtype));
    for (int i = 0; i < t->ndim && k < n; i++) k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? "," : "", (long long)t->sizes[i]);
    if (k < n) snprintf(buf + k, n - k, "} ]");
    return buf;
}

/* The source index of output index j along one padded dim of input size s. */
static int64_t pad_src(int mode, int64_t j, int64_t s, int64_t pl, int64_t pr)
{
    if (mode == 3) {   /* _pad_circular's copies: the core, then the left and right strips from it */
        int64_t o = s + pl + pr, l0 = pl > 0 ? pl : 0, r0 = pr > 0 ? pr : 0;
        if (pl > 0 && j < pl) j = o - pl - r0 + j;
        else if (pr > 0 && j >= o - pr) j = l0 + j - (o - pr);
        return j - l0 + (pl < 0 ? -pl : 0);
    }
    int64_t istart = pl < 0 ? -pl : 0, ostart = pl > 0 ? pl : 0, ip;
    if (j < pl) ip = mode == 1 ? pl * 2 - j : pl;
    else if (j < s + pl) ip = j;
    else ip = mode == 1 ? (s + pl - 1) * 2 - j : s + pl - 1;
    return ip - ostart + istart;
}

/* The source indices of each padded dim as a device tensor: along dim, the
 * out[j] = pad_src(j) gather (forward) or its index_add (backward); the
 * padded dims are independent, so one dim at a time. NEW or NULL. */
static tsr_tensor *pad_index(int mode, int64_t n, int64_t s, int64_t pl, int64_t pr, tsr_device dev)
{
    tsr_tensor *h = tsr_tensor_empty(1, &n, TSR_INT64, TSR_CPU);
    if (!h) return NULL;
    int64_t *p = tsr_tensor_ptr(h, NULL);
    for (int64_t j = 0; j < n; j++) p[j] = pad_src(mode, j, s, pl, pr);
    tsr_tensor *r = tsr_to_device(h, dev, TSR_DTYPE_UNDEFINED, false);
    tsr_tensor_release(h);
    return r;
}

/* reflect (1), replicate (2), circular (3) of x on its device: index_select
 * along each padded dim, the last first */
static tsr_tensor *pad_mode_dev(const tsr_tensor *x, int m, int k, const int64_t *pad)
{
    int nd = x->ndim;
    tsr_tensor *y = tsr_tensor_retain((tsr_tensor *)x);
    for (int i = 0; y && i < k; i++) {
        int d = nd - 1 - i;
        int64_t s = x->sizes[d], n = s + pad[2 * i] + pad[2 * i + 1];
        tsr_tensor *ix = pad_index(m, n, s, pad[2 * i], pad[2 * i + 1], x->device);
        take(&y, ix ? tsr_index_select(y, d, ix) : NULL);
        tsr_tensor_release(ix);
    }
    if (y) take(&y, tsr_contiguous(y, TSR_MF_CONTIGUOUS));
    return y;
}

/* its backward: the transposed gathers (index_add into zeros), the first
 * padded dim last */
static tsr_tensor *pad_mode_dev_backward(const tsr_tensor *g, const tsr_tensor *x, int m, int k, const int64_t *pad)
{
    int nd = x->ndim;
    int64_t sz[TSR_MAX_DIMS];
    memcpy(sz, g->sizes, sizeof(int64_t) * (size_t)nd);
    tsr_tensor *y = tsr_tensor_retain((tsr_tensor *)g);
    for (int i = k - 1; y && i >= 0; i--) {
        int d = nd - 1 - i;
        int64_t s = x->sizes[d], n = g->sizes[d];
        sz[d] = s;
        tsr_tensor *ix = pad_index(m, n, s, pad[2 * i], pad[2 * i + 1], x->device);
        tsr_tensor *z = ix ? tsr_zeros(nd, sz, g->dtype, g->device) : NULL;
        if (z && tsr_index_add_(z, d, ix, y, tsr_scalar_int(1)) < 0) take(&z, NULL);
        take(&y, z);
        tsr_tensor_release(ix);
    }
    return y;
}

tsr_tensor *tsr_nn_pad_mode(const tsr_tensor *x, int npad, const int64_t *pad, const char *mode, bool has_value,
                            double value)
{
    char b1[256];
    int m = !strcmp(mode, "reflect") ? 1 : !strcmp(mode, "replicate") ? 2 : 3;
    if (has_value && value != 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "Padding mode \"%s\" doesn't take in value argument", mode);
        return NULL;
    }
    int k = npad / 2, nd = x->ndim;
    if (!((npad == 2 && (nd == 2 || nd == 3)) || (npad == 4 && (nd == 3 || nd == 4)) ||
          (npad == 6 && (nd == 4 || nd == 5)))) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported "
                      "for now");
        return NULL;
    }
    int64_t osz[TSR_MAX_DIMS];
    memcpy(osz, x->sizes, sizeof(int64_t) * (size_t)nd);
    if (m == 3) {
        if (npad + 4 != nd * 2) {
            tsr_error_set(TSR_ERR_RUNTIME, "Invalid padding size, expected %d but got %d", 2 * (nd - 2), npad);
            return NULL;
        }
        if (x->names) {   /* _pad_circular checks the size, then self.new_empty(...) */
            tsr_names_refuse("aten::new_empty");
            return NULL;
        }
        for (int i = 0; i < k; i++) {
            int d = nd - 1 - i;
            int64_t pl = pad[2 * i], pr = pad[2 * i + 1], s = x->sizes[d];
            osz[d] = s + pl + pr;
            if (!(pl <= s && pr <= s)) {
                tsr_error_set(TSR_ERR_RUNTIME, "Padding value causes wrapping around more than once.");
                return NULL;
            }
            if (osz[d] < 0) {
                tsr_error_set(TSR_ERR_RUNTIME, "Negative padding value is resulting in an empty dimension");
                return NULL;
            }
        }
    } else {
        char sch[48];
        snprintf(sch, sizeof sch, "aten::%s_pad%dd", m == 1 ? "reflection" : "replication", k);
        if (x->names) {
            tsr_names_refuse(sch);
            return NULL;
        }
        bool batched = nd == k + 2, valid = true;
        for (int d = batched ? 1 : 0; d < nd; d++) valid = valid && x->sizes[d] != 0;
        if (!valid) {
            if (m == 1)
                tsr_error_set(TSR_ERR_RUNTIME, "%dD or %dD (batch mode) tensor expected for input, but got: %s", k + 1,
                              k + 2, tensor_desc(b1, sizeof b1, x));
            else
                tsr_error_set(TSR_ERR_RUNTIME, "Expected %dD or %dD (batch mode) tensor with possibly 0 batch size and "
                              "other non-zero dimensions for input, but got: %s", k + 1, k + 2,
                              tsr__fmt_list(b1, sizeof b1, nd, x->sizes));
            return NULL;
        }
        static const char *axis[3] = {"W", "H", "D"};
        if (m == 1)
            for (int i = 0; i < k; i++) {
                int d = nd - 1 - i;
                int64_t pl = pad[2 * i], pr = pad[2 * i + 1];
                if (!(pl < x->sizes[d] && pr < x->sizes[d])) {
                    if (k == 1)
                        tsr_error_set(TSR_ERR_RUNTIME, "Argument #4: Padding size should be less than the corresponding "
                                      "input dimension, but got: padding (%lld, %lld) at dimension %d of input %s",
                                      (long long)pl, (long long)pr, d, tsr__fmt_list(b1, sizeof b1, nd, x->sizes));
                    else
                        tsr_error_set(TSR_ERR_RUNTIME, "Argument #%d: Padding size should be less than the "
                                      "corresponding input dimension, but got: padding (%lld, %lld) at dimension %d of "
                                      "input %d", 4 + 2 * i, (long long)pl, (long long)pr, d, nd);
                    return NULL;
                }
            }
        bool small = false;
        for (int i = 0; i < k; i++) {
            int d = nd - 1 - i;
            osz[d] = x->sizes[d] + pad[2 * i] + pad[2 * i + 1];
            if (osz[d] < 1) small = true;
        }
        if (small) {
            size_t n = 0;
            if (m == 1 && k == 1) n += (size_t)snprintf(b1, sizeof b1, "2");
            n += (size_t)snprintf(b1 + n, sizeof b1 - n, "input (");
            for (int i = k - 1; i >= 0; i--)
                n += (size_t)snprintf(b1 + n, sizeof b1 - n, "%s%s: %lld", i == k - 1 ? "" : m == 1 ? ", " : " ",
                                      axis[i], (long long)x->sizes[nd - 1 - i]);
            n += (size_t)snprintf(b1 + n, sizeof b1 - n, m == 1 ? ")is too small. Calculated output " :
                                  k == 1 ? ") is too small. Calculated output " : " ) is too small. Calculated output ");
            for (int i = k - 1; i >= 0; i--)
                n += (size_t)snprintf(b1 + n, sizeof b1 - n, "%s%s: %lld", i == k - 1 ? "" : " ", axis[i],
                                      (long long)osz[nd - 1 - i]);
            tsr_error_set(TSR_ERR_RUNTIME, "%s", b1);
            return NULL;
        }
        tsr_dtype d = x->dtype;
        if (!(d == TSR_FLOAT32 || d == TSR_FLOAT64 || d == TSR_COMPLEX64 || d == TSR_COMPLEX128)) {
            char kn[40];
            snprintf(kn, sizeof kn, m == 1 ? "reflection_pad%dd" : "replication_pad%dd_cpu", k);
            tsr__not_implemented(kn, d);
            return NULL;
        }
    }
    if (tsr__pool_external(x)) return pad_mode_dev(x, m, k, pad);
    tsr_tensor *src = tsr_tensor_has_bits(x) ? tsr_resolve_bits(x) : tsr_tensor_retain((tsr_tensor *)x);
    tsr_tensor *out = src ? tsr_tensor_empty(nd, osz, x->dtype, x->device) : NULL;
    if (!out) goto done;
    int64_t numel = tsr_tensor_numel(out), idx[TSR_MAX_DIMS] = {0};
    if (tsr_tensor_is_meta(out) || numel == 0) goto done;
    int isz = tsr_dtype_itemsize(x->dtype);
    const char *sb = tsr_tensor_ptr(src, NULL);
    char *ob = tsr_tensor_ptr(out, NULL);
    for (int64_t e = 0; e < numel; e++) {
        int64_t off = 0;
        for (int d = 0; d < nd; d++) {
            int i = nd - 1 - d;   /* the pad pair of dim d, when padded */
            int64_t si = i < k ? pad_src(m, idx[d], x->sizes[d], pad[2 * i], pad[2 * i + 1]) : idx[d];
            off += si * src->strides[d];
        }
        memcpy(ob + e * isz, sb + off * isz, (size_t)isz);
        for (int d = nd - 1; d >= 0; d--) {
            if (++idx[d] < osz[d]) break;
            idx[d] = 0;
        }
    }
done:
    tsr_tensor_release(src);
    return out;
}

/* reflection_pad / replication_pad backward: zeros of x's shape, each
 * output gradient added at its source in output order (ReflectionPad.cpp,
 * ReplicationPadding.cpp). */
tsr_tensor *tsr_nn_pad_mode_backward(const tsr_tensor *g, const tsr_tensor *x, int npad, const int64_t *pad,
                                     const char *mode)
{
    int m = !strcmp(mode, "reflect") ? 1 : 2, k = npad / 2, nd = x->ndim;
    tsr_dtype d = x->dtype;
    if (d != TSR_FLOAT32 && d != TSR_FLOAT64) {
        char kn[48];
        snprintf(kn, sizeof kn, m == 1 ? "reflection_pad%dd_backward_cpu" : "replication_pad%dd_backward_cpu", k);
        tsr__not_implemented(kn, d);
        return NULL;
    }
    if (g->dtype != d || g->ndim != nd) {
        tsr_error_set(TSR_ERR_RUNTIME, "pad backward: expected a gradient of the output's dtype and rank");
        return NULL;
    }
    if (tsr__pool_external(x)) return pad_mode_dev_backward(g, x, m, k, pad);
    tsr_tensor *gi = tsr_tensor_empty(nd, x->sizes, d, x->device), *gc = NULL;
    if (!gi || tsr_tensor_is_meta(gi) || tsr_tensor_numel(gi) == 0) return gi;
    memset(tsr_tensor_ptr(gi, NULL), 0, (size_t)tsr_tensor_numel(gi) * (size_t)tsr_dtype_itemsize(d));
    gc = tsr_tensor_has_bits(g) ? tsr_resolve_bits(g) : tsr_tensor_retain((tsr_tensor *)g);
    if (!gc) return take(&gi, NULL);
    int64_t numel = tsr_tensor_numel(gc), idx[TSR_MAX_DIMS] = {0};
    const char *gb = tsr_tensor_ptr(gc, NULL);
    char *ib = tsr_tensor_ptr(gi, NULL);
    for (int64_t e = 0; e < numel; e++) {
        int64_t off = 0, goff = 0;
        for (int dd = 0; dd < nd; dd++) {
            int i = nd - 1 - dd;
            int64_t si = i < k ? pad_src(m, idx[dd], x->sizes[dd], pad[2 * i], pad[2 * i + 1]) : idx[dd];
            off += si * gi->strides[dd];
            goff += idx[dd] * gc->strides[dd];
        }
        if (d == TSR_FLOAT32) ((float *)ib)[off] += ((const float *)gb)[goff];
        else ((double *)ib)[off] += ((const double *)gb)[goff];
        for (int dd = nd - 1; dd >= 0; dd--) {
            if (++idx[dd] < gc->sizes[dd]) break;
            idx[dd] = 0;
        }
    }
    tsr_tensor_release(gc);
    return gi;
}
