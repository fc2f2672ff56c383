/* runtime/ops/nn_pool_grad.c — the gradients of the pooling layers as
 * 1.13's CPU kernels compute them (MaxPoolKernel.cpp cpu_max_pool_backward,
 * AvgPoolKernel.cpp cpu_avg_pool_backward, AdaptiveAvgPoolKernel.cpp
 * cpu_adaptive_avg_pool_backward): grad_input starts at zero in the
 * input's suggested memory format and each output's contribution is added
 * in output order, so every input element sums its terms as 1.13 does
 * (the channels_last kernels visit the same outputs per channel in the
 * same order). */
#include <string.h>

#include "nn_pool_grad.h"
#include "nn_pool_dev.h"
#include "copy.h"
#include "../error.h"
#include "../internal.h"
#include "../view.h"

typedef enum { G_MAX, G_AVG, G_AAVG } GradKind;

typedef struct {
    int64_t N, C, H, W, OH, OW, kh, kw, sh, sw, ph, pw, div;
    bool cip, hasdiv;
} Geo;

#define START(a, b, c) (((a) * (c)) / (b))
#define END(a, b, c) ((((a) + 1) * (c) + (b) - 1) / (b))

/* One kernel per dtype: T storage; every operation rounds to T as the
 * scalar_t arithmetic of the 1.13 kernels does (float for bfloat16, then
 * rounded back). */
#define POOL_GRAD_KERNEL(NAME, T, LD, ST)                                                                        \
    static void NAME(GradKind kind, const Geo *p, const tsr_tensor *g, tsr_tensor *gi, const tsr_tensor *ind)  \
    {                                                                                                          \
        const T *gb = tsr_tensor_ptr(g, NULL);                                                                 \
        T *ib = tsr_tensor_ptr(gi, NULL);                                                                      \
        const int64_t *xb = ind ? tsr_tensor_ptr(ind, NULL) : NULL;                                            \
        const int64_t *gs = g->strides, *is = gi->strides, *xs = ind ? ind->strides : NULL;                   \
        for (int64_t n = 0; n < p->N; n++)                                                                     \
            for (int64_t c = 0; c < p->C; c++) {                                                               \
                T *dst = ib + n * is[0] + c * is[1];                                                           \
                for (int64_t oh = 0; oh < p->OH; oh++)                                                         \
                    for (int64_t ow = 0; ow < p->OW; ow++) {                                                   \
                        T gv = gb[n * gs[0] + c * gs[1] + oh * gs[2] + ow * gs[3]];                            \
                        if (kind == G_MAX) {                                                                   \
                            int64_t m = xb[n * xs[0] + c * xs[1] + oh * xs[2] + ow * xs[3]];                   \
                            T *d = dst + (m / p->W) * is[2] + (m % p->W) * is[3];                              \
                            *d = ST(LD(*d) + LD(gv));                                                          \
                            continue;                                                                          \
                        }                                                                                      \
                        int64_t h0, h1, w0, w1;                                                                \
                        T delta;                                                                               \
                        if (kind == G_AVG) {                                                                   \
                            h0 = oh * p->sh - p->ph, w0 = ow * p->sw - p->pw;                                  \
                            h1 = h0 + p->kh < p->H + p->ph ? h0 + p->kh : p->H + p->ph;                        \
                            w1 = w0 + p->kw < p->W + p->pw ? w0 + p->kw : p->W + p->pw;                        \
                            int64_t size = (h1 - h0) * (w1 - w0);                                              \
                            if (h0 < 0) h0 = 0;                                                                \
                            if (w0 < 0) w0 = 0;                                                                \
                            if (h1 > p->H) h1 = p->H;                                                          \
                            if (w1 > p->W) w1 = p->W;                                                          \
                            int64_t div = p->hasdiv ? p->div : p->cip ? size : (h1 - h0) * (w1 - w0);          \
                            delta = ST(LD(gv) / (LD(ST(0)) + (div)));                                          \
                        } else {                                                                               \
                            h0 = START(oh, p->OH, p->H), h1 = END(oh, p->OH, p->H);                            \
                            w0 = START(ow, p->OW, p->W), w1 = END(ow, p->OW, p->W);                            \
                            delta = ST(LD(ST(LD(gv) / (LD(ST(0)) + (h1 - h0)))) / (LD(ST(0)) + (w1 - w0)));    \
                        }                                                                                      \
                        for (int64_t ih = h0; ih < h1; ih++)                                                   \
                            for (int64_t iw = w0; iw < w1; iw++) {                                             \
                                T *d = dst + ih * is[2] + iw * is[3];                                          \
                                *d = ST(LD(*d) + LD(delta));                                                   \
                            }                                                                                  \
                    }                                                                                          \
            }                                                                                                  \
    }

#define ID(v) (v)
POOL_GRAD_KERNEL(grad_f32, float, ID, ID)
POOL_GRAD_KERNEL(grad_f64, double, ID, ID)
POOL_GRAD_KERNEL(grad_bf16, tsr_bfloat16, tsr_bfloat16_to_float, tsr_float_to_bfloat16)

/* zeros of x's shape and dtype in x's suggested memory format, g's kernel
 * run over 4-D views (a batch of one added to 3-D tensors). */
static tsr_tensor *run(GradKind kind, const char *kname, Geo *p, const tsr_tensor *g, const tsr_tensor *x,
                       const tsr_tensor *ind)
{
    if (tsr__pool_external(x)) {
        static const tsr_pool_kind kinds[] = {[G_MAX] = TSR_POOL_MAX, [G_AVG] = TSR_POOL_AVG,
                                              [G_AAVG] = TSR_POOL_ADAPTIVE_AVG};
        tsr_pool_geom q = {.nd = 2, .k = {p->kh, p->kw}, .s = {p->sh, p->sw}, .p = {p->ph, p->pw}, .d = {1, 1},
                           .cip = p->cip, .hasdiv = p->hasdiv, .div = p->div};
        return tsr__pool_dev_backward(kinds[kind], kname, g, x, ind, &q);
    }
    tsr_dtype d = x->dtype;
    if (d != TSR_FLOAT32 && d != TSR_FLOAT64 && d != TSR_BFLOAT16) {
        tsr__not_implemented(kname, d);
        return NULL;
    }
    if (g->dtype != d || g->ndim != x->ndim || (x->ndim != 3 && x->ndim != 4)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: expected a gradient of the output's dtype and rank", kname);
        return NULL;
    }
    tsr_memory_format mf = x->ndim == 4 ? tsr_tensor_suggest_memory_format(x) : TSR_MF_CONTIGUOUS;
    tsr_tensor *gi = tsr_tensor_empty_format(x->ndim, x->sizes, d, x->device, mf), *g4 = NULL, *i4 = NULL, *x4 = NULL;
    tsr_tensor *gc = NULL;
    if (!gi) return NULL;
    if (tsr_tensor_is_meta(gi) || tsr_tensor_numel(gi) == 0) return gi;
    memset(tsr_tensor_ptr(gi, NULL), 0, (size_t)tsr_tensor_numel(gi) * (size_t)tsr_tensor_itemsize(gi));
    if (tsr_tensor_numel(g) == 0) return gi;
    gc = tsr_tensor_has_bits(g) ? tsr_resolve_bits(g) : tsr_tensor_retain((tsr_tensor *)g);
    if (!gc) goto fail;
    bool b = x->ndim == 4;
    g4 = b ? tsr_tensor_retain(gc) : tsr_view_unsqueeze(gc, 0);
    x4 = b ? tsr_tensor_retain(gi) : tsr_view_unsqueeze(gi, 0);
    i4 = !ind ? NULL : b ? tsr_tensor_retain((tsr_tensor *)ind) : tsr_view_unsqueeze(ind, 0);
    if (!g4 || !x4 || (ind && !i4) || tsr_check_interrupt() < 0) goto fail;
    p->N = x4->sizes[0], p->C = x4->sizes[1], p->H = x4->sizes[2], p->W = x4->sizes[3];
    p->OH = g4->sizes[2], p->OW = g4->sizes[3];
    switch (d) {
    case TSR_FLOAT32: grad_f32(kind, p, g4, x4, i4); break;
    case TSR_FLOAT64: grad_f64(kind, p, g4, x4, i4); break;
    default: grad_bf16(kind, p, g4, x4, i4); break;
    }
    tsr_tensor_release(gc);
    tsr_tensor_release(g4);
    tsr_tensor_release(x4);
    tsr_tensor_release(i4);
    return gi;
fail:
    tsr_tensor_release(gc);
    tsr_tensor_release(g4);
    tsr_tensor_release(x4);
    tsr_tensor_release(i4);
    tsr_tensor_release(gi);
    return NULL;
}

tsr_tensor *tsr_nn_max_pool2d_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *indices)
{
    Geo p = {0};
    return run(G_MAX, "max_pool2d_with_indices_backward", &p, g, x, indices);
}

tsr_tensor *tsr_nn_avg_pool2d_backward(const tsr_tensor *g, const tsr_tensor *x, const int64_t *k, const int64_t *s,
                                       const int64_t *p, bool cip, bool hasdiv, int64_t div)
{
    Geo q = {.kh = k[0], .kw = k[1], .sh = s[0], .sw = s[1], .ph = p[0], .pw = p[1], .cip = cip, .hasdiv = hasdiv,
             .div = div};
    return run(G_AVG, "avg_pool2d_backward_cpu", &q, g, x, NULL);
}

tsr_tensor *tsr_nn_adaptive_avg_pool2d_backward(const tsr_tensor *g, const tsr_tensor *x)
{
    Geo p = {0};
    return run(G_AAVG, "adaptive_avg_pool2d_backward_cpu", &p, g, x, NULL);
}
