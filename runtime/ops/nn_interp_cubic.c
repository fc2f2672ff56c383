/* runtime/ops/nn_interp_cubic.c — upsample_bicubic2d and its backward with
 * the arithmetic of 1.13's CPU kernels (A = -0.75, clamped taps):
 *
 *   forward (UpSampleKernel.cpp, HelperInterpCubic; the AVX2 build, whose
 *   GCC contracts a * b + c into fused multiply-adds):
 *     s as for the linear modes; r = s * d (align_corners) or s * (d + 0.5) -
 *     0.5 in double for float32 (fma in double for float64), not clamped;
 *     i = floor((float)r), t = (T)(r - i);
 *     w = cc2(t + 1), cc1(t), cc1(x2), cc2(x2 + 1) with x2 = (T)(1 - t),
 *     cc1(x) = (fma(A + 2, x, -(A + 3)) * x) * x + 1,
 *     cc2(x) = fma(fma(A, x, -5A), x, 8A) * x - 4A;
 *     taps min(max(i - 1 + j, 0), in - 1); per dimension, outermost first,
 *     v = fma(t3, w3, fma(t2, w2, fma(t0, w0, t1 * w1))). bfloat16: a
 *     bfloat16 scale, t and the coefficients rounded at each operation, v
 *     summed in order with each product and sum rounded.
 *   backward (UpSampleBicubic2d.cpp, built without FMA): the weights with
 *     plain float arithmetic (r = s * (float)(d + 0.5) - 0.5f rounded each
 *     step; float64: in double); for each output (y, x) and channel, taps i
 *     (x) outer, j (y) inner: gi[clamped] += (g * wy[j]) * wx[i]; equal
 *     sizes copy. bfloat16 rounds every operation, the source index's too. */
#include <math.h>
#include <string.h>

#include "error.h"
#include "ops/copy.h"
#include "ops/nn_interp.h"
#include "ops/nn_interp_dev.h"

typedef struct {
    int64_t i[4];
    double w[4];
} cub_w;

static float bf(float v) { return tsr_bfloat16_to_float(tsr_float_to_bfloat16(v)); }

#define A_ (-0.75)

/* the coefficients in float with the forward's (fused) or the backward's (plain) arithmetic */
static float cc1f(float x, bool fused)
{
    float a = fused ? fmaf(1.25f, x, -2.25f) : 1.25f * x - 2.25f;
    return a * x * x + 1.0f;
}

static float cc2f(float x, bool fused)
{
    if (fused) return fmaf(fmaf(-0.75f, x, 3.75f), x, -6.0f) * x + 3.0f;
    return ((-0.75f * x + 3.75f) * x - 6.0f) * x + 3.0f;
}

static double cc1d(double x, bool fused)
{
    double a = fused ? fma(1.25, x, -2.25) : 1.25 * x - 2.25;
    return a * x * x + 1.0;
}

static double cc2d(double x, bool fused)
{
    if (fused) return fma(fma(-0.75, x, 3.75), x, -6.0) * x + 3.0;
    return ((-0.75 * x + 3.75) * x - 6.0) * x + 3.0;
}

/* the forward's coefficients of bfloat16: each operation rounded (c10::BFloat16's operators) */
static float cc1b(float x)
{
    float a = bf(bf(1.25f * x) - 2.25f);
    return bf(bf(bf(a * x) * x) + 1.0f);
}

static float cc2b(float x)
{
    float a = bf(bf(-0.75f * x) + 3.75f), b = bf(bf(a * x) - 6.0f);
    return bf(bf(b * x) + 3.0f);
}

static void cubic_weights(int64_t in, int64_t out, bool ac, double scale, tsr_dtype dt, bool fused, cub_w *w)
{
    bool dbl = dt == TSR_FLOAT64;
    double s;
    if (ac)
        s = out > 1 ? (dbl ? (double)(in - 1) / (double)(out - 1) : (double)((float)(in - 1) / (float)(out - 1))) : 0.0;
    else if (scale > 0)
        s = dbl ? 1.0 / scale : (double)(float)(1.0 / scale);
    else
        s = dbl ? (double)in / (double)out : (double)((float)in / (float)out);
    if (dt == TSR_BFLOAT16) s = bf((float)s);
    for (int64_t d = 0; d < out; d++) {
        double r;
        if (dbl)
            r = ac ? s * (double)d : fused ? fma(s, (double)d + 0.5, -0.5) : s * ((double)d + 0.5) - 0.5;
        else if (fused)   /* fmaf(s, d + 0.5f, -0.5f), exact in double */
            r = ac ? s * (double)d : s * ((double)d + 0.5) - 0.5;
        else if (dt == TSR_BFLOAT16)   /* every operation a BFloat16's */
            r = ac ? bf((float)s * (float)d) : bf(bf((float)s * bf((float)d + 0.5f)) - 0.5f);
        else
            r = ac ? (float)s * (float)d : (float)s * (float)((double)d + 0.5) - 0.5f;
        int64_t i0 = (int64_t)floorf((float)r);
        for (int j = 0; j < 4; j++) {
            int64_t k = i0 - 1 + j;
            w[d].i[j] = k < 0 ? 0 : k > in - 1 ? in - 1 : k;
        }
        if (dbl) {
            double t = r - (double)i0, x2 = 1.0 - t;
            w[d].w[0] = cc2d(t + 1.0, fused), w[d].w[1] = cc1d(t, fused);
            w[d].w[2] = cc1d(x2, fused), w[d].w[3] = cc2d(x2 + 1.0, fused);
        } else if (dt == TSR_BFLOAT16) {
            float t = bf((float)(r - (double)i0)), x2 = bf(1.0f - t);
            w[d].w[0] = cc2b(bf(t + 1.0f)), w[d].w[1] = cc1b(t);
            w[d].w[2] = cc1b(x2), w[d].w[3] = cc2b(bf(x2 + 1.0f));
        } else {
            float t = (float)(r - (double)i0);
            float x2 = (float)(1.0 - (double)t);
            w[d].w[0] = cc2f((float)((double)t + 1.0), fused), w[d].w[1] = cc1f(t, fused);
            w[d].w[2] = cc1f(x2, fused), w[d].w[3] = cc2f((float)((double)x2 + 1.0), fused);
        }
    }
}

static double load(const char *p, tsr_dtype dt)
{
    switch (dt) {
    case TSR_FLOAT32: return *(const float *)p;
    case TSR_FLOAT64: return *(const double *)p;
    default: return tsr_bfloat16_to_float(*(const tsr_bfloat16 *)p);
    }
}

static void store(char *p, tsr_dtype dt, double v)
{
    switch (dt) {
    case TSR_FLOAT32: *(float *)p = (float)v; break;
    case TSR_FLOAT64: *(double *)p = v; break;
    default: *(tsr_bfloat16 *)p = tsr_float_to_bfloat16((float)v);
    }
}

/* the value of dimension dim (0: h, 1: w) at output (oh, ow) of the plane at p */
static double cub_value(const char *p, tsr_dtype dt, int dim, const cub_w *const *w, const int64_t *o, const int64_t *st)
{
    const cub_w *q = &w[dim][o[dim]];
    double t[4];
    for (int j = 0; j < 4; j++) {
        const char *pj = p + q->i[j] * st[dim];
        t[j] = dim == 1 ? load(pj, dt) : cub_value(pj, dt, 1, w, o, st);
    }
    switch (dt) {
    case TSR_FLOAT32: {
        float acc = fmaf((float)t[0], (float)q->w[0], (float)t[1] * (float)q->w[1]);
        acc = fmaf((float)t[2], (float)q->w[2], acc);
        return fmaf((float)t[3], (float)q->w[3], acc);
    }
    case TSR_FLOAT64: return fma(t[3], q->w[3], fma(t[2], q->w[2], fma(t[0], q->w[0], t[1] * q->w[1])));
    default: {
        float acc = bf((float)t[0] * (float)q->w[0]);
        for (int j = 1; j < 4; j++) acc = bf(acc + bf((float)t[j] * (float)q->w[j]));
        return acc;
    }
    }
}

tsr_tensor *tsr_nn_upsample_bicubic(const tsr_tensor *x, const int64_t *out, const double *scales, bool align_corners)
{
    if (tsr__nn_upsample_check(x, out, false) < 0) return NULL;
    if (tsr__interp_external(x)) return tsr__upsample_dev(TSR_INTERP_CUBIC, x, out, scales, align_corners);
    tsr_dtype dt = x->dtype;
    if (dt != TSR_FLOAT32 && dt != TSR_FLOAT64 && dt != TSR_BFLOAT16) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"compute_indices_weights_cubic\" not implemented for '%s'", tsr_dtype_scalar_name(dt));
        return NULL;
    }
    int64_t os[4] = {x->sizes[0], x->sizes[1], out[0], out[1]};
    tsr_tensor *r = tsr_tensor_empty(4, os, dt, x->device);   /* contiguous, whatever x's layout */
    if (!r || tsr_tensor_is_meta(x) || tsr_tensor_numel(r) == 0) return r;
    tsr_tensor *xr = tsr_resolve_bits(x);
    cub_w *buf = xr ? tsr_malloc((size_t)(out[0] + out[1]) * sizeof *buf) : NULL;
    if (!buf) {
        tsr_tensor_release(xr);
        tsr_tensor_release(r);
        return NULL;
    }
    const cub_w *w[2] = {buf, buf + out[0]};
    for (int i = 0; i < 2; i++)
        cubic_weights(x->sizes[2 + i], out[i], align_corners, scales ? scales[i] : -1.0, dt, true, buf + (i ? out[0] : 0));
    int isz = tsr_tensor_itemsize(x);
    int64_t st[2] = {xr->strides[2] * isz, xr->strides[3] * isz};
    const char *xb = tsr_tensor_ptr(xr, NULL);
    char *rb = tsr_tensor_ptr(r, NULL);
    int failed = 0;
    for (int64_t n = 0; n < os[0] && !failed; n++)
        for (int64_t c = 0; c < os[1]; c++) {
            if (tsr_check_interrupt() < 0) {
                failed = 1;
                break;
            }
            const char *xp = xb + (n * xr->strides[0] + c * xr->strides[1]) * isz;
            char *rp = rb + (n * r->strides[0] + c * r->strides[1]) * isz;
            int64_t o[2];
            for (o[0] = 0; o[0] < out[0]; o[0]++)
                for (o[1] = 0; o[1] < out[1]; o[1]++)
                    store(rp + (o[0] * r->strides[2] + o[1] * r->strides[3]) * isz, dt, cub_value(xp, dt, 0, w, o, st));
        }
    tsr_free(buf);
    tsr_tensor_release(xr);
    if (failed) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

tsr_tensor *tsr_nn_upsample_bicubic_backward(const tsr_tensor *g, const int64_t *in_sizes, const double *scales,
                                             bool align_corners)
{
    tsr_dtype dt = g->dtype;
    if (tsr__interp_external(g) && g->ndim == 4)
        return tsr__upsample_dev_backward(TSR_INTERP_CUBIC, g, in_sizes, scales, align_corners);
    if (g->ndim != 4 || (dt != TSR_FLOAT32 && dt != TSR_FLOAT64 && dt != TSR_BFLOAT16)) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"upsample_bicubic2d_backward_out_frame\" not implemented for '%s'",
                      tsr_dtype_scalar_name(dt));
        return NULL;
    }
    tsr_tensor *r = tsr_tensor_empty(4, in_sizes, dt, g->device);
    if (!r || tsr_tensor_is_meta(g)) return r;
    int64_t rn = tsr_tensor_numel(r);
    int isz = tsr_tensor_itemsize(r);
    char *rp = tsr_tensor_ptr(r, NULL);
    if (rn) memset(rp, 0, (size_t)rn * (size_t)isz);
    if (!rn || !tsr_tensor_numel(g)) return r;
    tsr_tensor *gc = tsr_contiguous(g, TSR_MF_CONTIGUOUS);
    tsr_tensor *gr = gc ? tsr_resolve_bits(gc) : NULL;
    tsr_tensor_release(gc);
    int64_t ih = in_sizes[2], iw = in_sizes[3], oh = g->sizes[2], ow = g->sizes[3];
    cub_w *buf = gr ? tsr_malloc((size_t)(oh + ow) * sizeof *buf) : NULL;
    if (!buf) {
        tsr_tensor_release(gr);
        tsr_tensor_release(r);
        return NULL;
    }
    cubic_weights(ih, oh, align_corners, scales ? scales[0] : -1.0, dt, false, buf);
    cubic_weights(iw, ow, align_corners, scales ? scales[1] : -1.0, dt, false, buf + oh);
    const cub_w *wy = buf, *wx = buf + oh;
    const char *gp = tsr_tensor_ptr(gr, NULL);
    int64_t planes = in_sizes[0] * in_sizes[1];
    bool same = ih == oh && iw == ow;
    int failed = 0;
    for (int64_t y = 0; y < oh && !failed; y++) {
        if (tsr_check_interrupt() < 0) {
            failed = 1;
            break;
        }
        for (int64_t x = 0; x < ow; x++)
            for (int64_t c = 0; c < planes; c++) {
                const char *gq = gp + ((c * oh + y) * ow + x) * isz;
                char *rq = rp + c * ih * iw * isz;
                if (same) {
                    memcpy(rq + (y * iw + x) * isz, gq, (size_t)isz);
                    continue;
                }
                double gv = load(gq, dt);
                for (int i = 0; i < 4; i++)
                    for (int j = 0; j < 4; j++) {
                        char *dst = rq + (wy[y].i[j] * iw + wx[x].i[i]) * isz;
                        switch (dt) {
                        case TSR_FLOAT32:
                            *(float *)dst += (float)gv * (float)wy[y].w[j] * (float)wx[x].w[i];
                            break;
                        case TSR_FLOAT64: *(double *)dst += gv * wy[y].w[j] * wx[x].w[i]; break;
                        default:
                            store(dst, dt, bf((float)load(dst, dt) + bf(bf((float)gv * (float)wy[y].w[j]) * (float)wx[x].w[i])));
                        }
                    }
            }
    }
    tsr_free(buf);
    tsr_tensor_release(gr);
    if (failed) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}
