/* runtime/ops/nn_interp_linear.c — linear interpolation: upsample_linear1d,
 * upsample_bilinear2d, upsample_trilinear3d and their backwards, with the
 * arithmetic of 1.13's CPU kernels (UpSampleKernel.cpp) as its AVX2 build
 * evaluates it (GCC contracts a * b + c into one fused multiply-add; the
 * placement is reproduced with explicit fmaf/fma):
 *
 *   weights per output index d of one dimension (in -> out):
 *     in == out: (d, d, 1, 0)
 *     s = area_pixel_compute_scale (in the dtype: float for float32/bfloat16)
 *     r = s * d (align_corners) or fma(s, d + 0.5, -0.5) clamped at 0, both in
 *         double for float32 (the source index is never rounded to float)
 *     i0 = (int64)r, i1 = i0 + (i0 < in - 1), w1 = (T)(r - i0), w0 = 1 - w1 in T
 *   generic (any layout but channels_last-contiguous 4-d/5-d): per dimension,
 *     outermost first, v = fma(t0, w0, t1 * w1), t0/t1 the next dimension's
 *     values at i0/i1 (Interpolate<n, ..., 2>)
 *   channels_last-contiguous 4-d/5-d (cpu_upsample_linear_channels_last):
 *     weights w_k the products of the per-dimension weights, terms in the
 *     order (d0)h0w0, h0w1, h1w0, h1w1, ...; channels in the vector part
 *     (C - C % lanes, lanes 8 for float, 4 for double):
 *     fma(t0, w0, fma(t1, w1, ... fma(t[n-1], w[n-1], t[n-2] * w[n-2])));
 *     the tail channels: float sums the products in double, left to right;
 *     double: fma(t[n-1], w[n-1], ... fma(t2, w2, fma(t0, w0, t1 * w1)))
 *   backward: grad_input (contiguous, zeroed) += (w_outer * ... * w_inner) * g
 *     as one fma per term, terms in the order above, outputs in order.
 * bfloat16: the scale is rounded to bfloat16 (the source index is not), the
 * weights and their products too; the generic kernel and the backward round
 * each product and sum to bfloat16 (c10::BFloat16's operators), the
 * channels_last kernel computes as float does (16 lanes) and rounds once. */
#include <math.h>
#include <string.h>

#include "error.h"
#include "ops/copy.h"
#include "ops/nn_interp.h"
#include "ops/nn_interp_dev.h"

typedef struct {
    int64_t i0, i1;
    double w0, w1;   /* the weights in the dtype's precision */
} lin_w;

static float bf(float v) { return tsr_bfloat16_to_float(tsr_float_to_bfloat16(v)); }

static void linear_weights(int64_t in, int64_t out, bool ac, double scale, tsr_dtype dt, lin_w *w)
{
    bool dbl = dt == TSR_FLOAT64;
    double s;
    if (ac)
        s = out > 1 ? (dbl ? (double)(in - 1) / (double)(out - 1) : (double)((float)(in - 1) / (float)(out - 1))) : 0.0;
    else if (scale > 0)
        s = dbl ? 1.0 / scale : (double)(float)(1.0 / scale);
    else
        s = dbl ? (double)in / (double)out : (double)((float)in / (float)out);
    if (dt == TSR_BFLOAT16) s = bf((float)s);   /* the scale is a BFloat16; the source index is not rounded */
    for (int64_t d = 0; d < out; d++) {
        if (in == out) {
            w[d] = (lin_w){d, d, 1.0, 0.0};
            continue;
        }
        double r = ac ? s * (double)d : fma(s, (double)d + 0.5, -0.5);
        if (!ac && r < 0) r = 0;
        int64_t i0 = (int64_t)r;
        w[d].i0 = i0;
        w[d].i1 = i0 + (i0 < in - 1 ? 1 : 0);
        if (dbl) {
            w[d].w1 = r - (double)i0;
            w[d].w0 = 1.0 - w[d].w1;
        } else {
            float l1 = (float)(r - (double)i0);
            if (dt == TSR_BFLOAT16) l1 = bf(l1);
            float l0 = 1.0f - l1;
            if (dt == TSR_BFLOAT16) l0 = bf(l0);
            w[d].w1 = l1;
            w[d].w0 = l0;
        }
    }
}

static bool linear_dtype_ok(tsr_dtype d) { return d == TSR_FLOAT32 || d == TSR_FLOAT64 || d == TSR_BFLOAT16; }

/* one dimension's weights for each of k dims, in one allocation */
static lin_w *all_weights(int k, const int64_t *in, const int64_t *out, bool ac, const double *scales, tsr_dtype dt,
                          lin_w **w)
{
    int64_t total = 0;
    for (int i = 0; i < k; i++) total += out[i];
    lin_w *buf = tsr_malloc((size_t)(total ? total : 1) * sizeof *buf);
    if (!buf) return NULL;
    for (int i = 0, o = 0; i < k; o += (int)out[i], i++) {
        w[i] = buf + o;
        linear_weights(in[i], out[i], ac, scales ? scales[i] : -1.0, dt, w[i]);
    }
    return buf;
}

/* the generic kernel's value at output position o (k dims) of the plane at p */
static double gen_value(const char *p, tsr_dtype dt, int dim, int k, lin_w *const *w, const int64_t *o,
                        const int64_t *st)
{
    const lin_w *q = &w[dim][o[dim]];
    const char *p0 = p + q->i0 * st[dim], *p1 = p + q->i1 * st[dim];
    double t0, t1;
    if (dim == k - 1) {
        switch (dt) {
        case TSR_FLOAT32: t0 = *(const float *)p0, t1 = *(const float *)p1; break;
        case TSR_FLOAT64: t0 = *(const double *)p0, t1 = *(const double *)p1; break;
        default: t0 = tsr_bfloat16_to_float(*(const tsr_bfloat16 *)p0), t1 = tsr_bfloat16_to_float(*(const tsr_bfloat16 *)p1);
        }
    } else {
        t0 = gen_value(p0, dt, dim + 1, k, w, o, st);
        t1 = gen_value(p1, dt, dim + 1, k, w, o, st);
    }
    switch (dt) {
    case TSR_FLOAT32: return fmaf((float)t0, (float)q->w0, (float)t1 * (float)q->w1);
    case TSR_FLOAT64: return fma(t0, q->w0, t1 * q->w1);
    default: return bf(bf((float)t0 * (float)q->w0) + bf((float)t1 * (float)q->w1));
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

static double load(const char *p, tsr_dtype dt)
{
    switch (dt) {
    case TSR_FLOAT32: return *(const float *)p;
    case TSR_FLOAT64: return *(const double *)p;
    default: return tsr_bfloat16_to_float(*(const tsr_bfloat16 *)p);
    }
}

/* the channels_last kernel's value of channel c from its n terms t[] */
static double cl_value(tsr_dtype dt, int n, const double *t, const double *wt, bool vec)
{
    if (dt != TSR_FLOAT64) {   /* bfloat16 converts its vectors to float: float's arithmetic */
        if (vec) {
            float acc = fmaf((float)t[n - 1], (float)wt[n - 1], (float)t[n - 2] * (float)wt[n - 2]);
            for (int j = n - 3; j >= 0; j--) acc = fmaf((float)t[j], (float)wt[j], acc);
            return acc;
        }
        double acc = t[0] * wt[0];
        for (int j = 1; j < n; j++) acc += t[j] * wt[j];
        return (float)acc;
    }
    if (vec) {
        double acc = fma(t[n - 1], wt[n - 1], t[n - 2] * wt[n - 2]);
        for (int j = n - 3; j >= 0; j--) acc = fma(t[j], wt[j], acc);
        return acc;
    }
    double acc = fma(t[0], wt[0], t[1] * wt[1]);
    for (int j = 2; j < n; j++) acc = fma(t[j], wt[j], acc);
    return acc;
}

tsr_tensor *tsr_nn_upsample_linear(const tsr_tensor *x, const int64_t *out, const double *scales, bool align_corners)
{
    int k = x->ndim - 2;
    if (tsr__nn_upsample_check(x, out, k == 1) < 0) return NULL;   /* linear1d's message says "and output" */
    if (tsr__interp_external(x)) return tsr__upsample_dev(TSR_INTERP_LINEAR, x, out, scales, align_corners);
    bool cl = (k == 2 && tsr_tensor_is_contiguous_as(x, TSR_MF_CHANNELS_LAST)) ||
              (k == 3 && tsr_tensor_is_contiguous_as(x, TSR_MF_CHANNELS_LAST_3D));
    if (!linear_dtype_ok(x->dtype)) {   /* the channels_last kernel dispatches by its own name */
        tsr_error_set(TSR_ERR_RUNTIME, "\"%s\" not implemented for '%s'",
                      !cl ? "compute_indices_weights_linear" : k == 2 ? "upsample_bilinear2d_channels_last"
                                                                     : "upsample_trilinear3d_channels_last",
                      tsr_dtype_scalar_name(x->dtype));
        return NULL;
    }
    int64_t os[5];
    os[0] = x->sizes[0], os[1] = x->sizes[1];
    for (int i = 0; i < k; i++) os[2 + i] = out[i];
    tsr_memory_format mf = tsr_tensor_suggest_memory_format(x);
    tsr_tensor *r = tsr_tensor_empty_format(x->ndim, os, x->dtype, x->device, mf);
    if (!r || tsr_tensor_is_meta(x) || tsr_tensor_numel(r) == 0) return r;
    tsr_tensor *xr = tsr_resolve_bits(x);
    if (!xr) {
        tsr_tensor_release(r);
        return NULL;
    }
    lin_w *w[3];
    lin_w *buf = all_weights(k, x->sizes + 2, out, align_corners, scales, x->dtype, w);
    if (!buf) {
        tsr_tensor_release(xr);
        tsr_tensor_release(r);
        return NULL;
    }
    tsr_dtype dt = x->dtype;
    int isz = tsr_tensor_itemsize(x);
    int64_t lanes = dt == TSR_FLOAT32 ? 8 : dt == TSR_FLOAT64 ? 4 : 16;
    int64_t nvec = lanes ? x->sizes[1] - x->sizes[1] % lanes : 0;
    int64_t st[3], rst[3];
    for (int i = 0; i < k; i++) st[i] = xr->strides[2 + i] * isz, rst[i] = r->strides[2 + i] * isz;
    const char *xb = tsr_tensor_ptr(xr, NULL);
    char *rb = tsr_tensor_ptr(r, NULL);
    int64_t o3[3] = {1, 1, 1};
    for (int i = 0; i < k; i++) o3[3 - k + i] = out[i];
    int failed = 0;
    for (int64_t n = 0; n < os[0] && !failed; n++)
        for (int64_t c = 0; c < os[1]; c++) {
            if (tsr_check_interrupt() < 0) {
                failed = 1;
                break;
            }
            const char *xp = xb + (n * xr->strides[0] + c * xr->strides[1]) * isz;
            char *rp = rb + (n * r->strides[0] + c * r->strides[1]) * isz;
            int64_t o[3];
            for (o[0] = 0; o[0] < o3[0]; o[0]++)
                for (o[1] = 0; o[1] < o3[1]; o[1]++)
                    for (o[2] = 0; o[2] < o3[2]; o[2]++) {
                        const int64_t *op = o + 3 - k;
                        char *dst = rp;
                        for (int i = 0; i < k; i++) dst += op[i] * rst[i];
                        if (!cl) {
                            store(dst, dt, gen_value(xp, dt, 0, k, w, op, st));
                            continue;
                        }
                        double t[8], wt[8];
                        int nt = 1 << k;
                        for (int j = 0; j < nt; j++) {
                            const char *q = xp;
                            float wf = 1.0f;
                            double wd = 1.0;
                            for (int i = 0; i < k; i++) {
                                const lin_w *lw = &w[i][op[i]];
                                bool hi = (j >> (k - 1 - i)) & 1;
                                q += (hi ? lw->i1 : lw->i0) * st[i];
                                double wv = hi ? lw->w1 : lw->w0;
                                if (i == 0) wf = (float)wv, wd = wv;
                                else wf *= (float)wv, wd *= wv;
                                if (dt == TSR_BFLOAT16) wf = bf(wf);
                            }
                            t[j] = load(q, dt);
                            wt[j] = dt == TSR_FLOAT64 ? wd : (double)wf;
                        }
                        store(dst, dt, cl_value(dt, nt, t, wt, c < nvec));
                    }
        }
    tsr_free(buf);
    tsr_tensor_release(xr);
    if (failed) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

tsr_tensor *tsr_nn_upsample_linear_backward(const tsr_tensor *g, const int64_t *in_sizes, const double *scales,
                                            bool align_corners)
{
    int nd = g->ndim, k = nd - 2;
    if (tsr__interp_external(g) && k >= 1 && k <= 3)
        return tsr__upsample_dev_backward(TSR_INTERP_LINEAR, g, in_sizes, scales, align_corners);
    if (k < 1 || k > 3 || !linear_dtype_ok(g->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"upsample_linear_backward\" not implemented for '%s'", tsr_dtype_scalar_name(g->dtype));
        return NULL;
    }
    tsr_tensor *r = tsr_tensor_empty(nd, in_sizes, g->dtype, g->device);
    if (!r || tsr_tensor_is_meta(g)) return r;
    int64_t rn = tsr_tensor_numel(r);
    tsr_dtype dt = g->dtype;
    int isz = tsr_tensor_itemsize(r);
    char *rp = tsr_tensor_ptr(r, NULL);
    if (rn) memset(rp, 0, (size_t)rn * (size_t)isz);
    if (!rn || !tsr_tensor_numel(g)) return r;
    tsr_tensor *gc = tsr_contiguous(g, TSR_MF_CONTIGUOUS);
    tsr_tensor *gr = gc ? tsr_resolve_bits(gc) : NULL;
    tsr_tensor_release(gc);
    if (!gr) {
        tsr_tensor_release(r);
        return NULL;
    }
    lin_w *w[3];
    lin_w *buf = all_weights(k, in_sizes + 2, g->sizes + 2, align_corners, scales, dt, w);
    if (!buf) {
        tsr_tensor_release(gr);
        tsr_tensor_release(r);
        return NULL;
    }
    int64_t ins[3] = {1, 1, 1}, outs[3] = {1, 1, 1};
    for (int i = 0; i < k; i++) ins[3 - k + i] = in_sizes[2 + i], outs[3 - k + i] = g->sizes[2 + i];
    int64_t planes = in_sizes[0] * in_sizes[1], isl = ins[0] * ins[1] * ins[2], osl = outs[0] * outs[1] * outs[2];
    int64_t ist[3] = {ins[1] * ins[2], ins[2], 1};
    const char *gp = tsr_tensor_ptr(gr, NULL);
    int failed = 0, nt = 1 << k;
    for (int64_t p = 0; p < planes && !failed; p++) {
        if (tsr_check_interrupt() < 0) {
            failed = 1;
            break;
        }
        char *rq = rp + p * isl * isz;
        const char *gq = gp + p * osl * isz;
        int64_t o[3];
        for (o[0] = 0; o[0] < outs[0]; o[0]++)
            for (o[1] = 0; o[1] < outs[1]; o[1]++)
                for (o[2] = 0; o[2] < outs[2]; o[2]++) {
                    const int64_t *op = o + 3 - k;
                    double gv = load(gq + ((o[0] * outs[1] + o[1]) * outs[2] + o[2]) * isz, dt);
                    for (int j = 0; j < nt; j++) {
                        int64_t off = 0;
                        float wf = 1.0f;
                        double wd = 1.0;
                        for (int i = 0; i < k; i++) {
                            const lin_w *lw = &w[i][op[i]];
                            bool hi = (j >> (k - 1 - i)) & 1;
                            off += (hi ? lw->i1 : lw->i0) * ist[3 - k + i];
                            double wv = hi ? lw->w1 : lw->w0;
                            if (i == 0) wf = (float)wv, wd = wv;
                            else wf *= (float)wv, wd *= wv;
                            if (dt == TSR_BFLOAT16) wf = bf(wf);
                        }
                        char *dst = rq + off * isz;
                        switch (dt) {
                        case TSR_FLOAT32: *(float *)dst = fmaf(wf, (float)gv, *(float *)dst); break;
                        case TSR_FLOAT64: *(double *)dst = fma(wd, gv, *(double *)dst); break;
                        default:
                            store(dst, dt, bf(load(dst, dt) + bf(wf * (float)gv)));
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
