/* runtime/ops/nn_grid_sample.c — grid_sampler (F.grid_sample) of 1.13: its
 * checks, and the 2-d forward of modes bilinear and nearest with every
 * padding mode, with the arithmetic of 1.13's vectorised CPU kernel
 * (GridSamplerKernel.cpp) as its AVX2 build evaluates it:
 *   unnormalize: align_corners (g + 1) * ((size - 1) / 2), else
 *     fma(g + 1, size / 2, -0.5);
 *   border: clip to [0, size - 1]; reflection: reflect_coordinates then clip;
 *   bilinear: w = x - floor(x), e = 1 - w (n, s likewise), nw = s * e, ne = s * w,
 *     sw = n * e, se = n * w; out = fma(se_v, se, fma(sw_v, sw, fma(ne_v, ne,
 *     nw_v * nw))), a tap outside the input reading 0;
 *   nearest: the input at (round-half-even(y), round-half-even(x)), 0 outside.
 * backward (2-d, bilinear and nearest): grad_input gets g * nw, g * ne, g * sw,
 *   g * se scattered corner by corner over each chunk of output points (8
 *   float / 4 double lanes: the flattened output plane when the grid slice is
 *   contiguous, else each row); grad_grid of bilinear sums over the channels
 *   gx = fma(fma(se_v - sw_v, n, (ne_v - nw_v) * s), g, gx) (gy with
 *   (sw_v - nw_v) * e and (se_v - ne_v) * w) and multiplies by the
 *   coordinate's gradient (the unnormalize factor, 0 where border/reflection
 *   clip, negated where reflection flips); nearest's grad_grid is 0.
 *   bicubic (forward only): t = x - floor(x), coefficients cc1(x) =
 *     fma(fma(1.25, x, -2.25) * x, x, 1), cc2(x) = ((-0.75x + 3.75)x - 6)x + 3,
 *     each of the 4 rows (fma(c0, v0, c1 * v1) + c2 * v2) + c3 * v3 over its
 *     padded taps, then fma(c3, r3, fma(c2, r2, fma(c1, r1, c0 * r0))).
 *   its backward (2-d): grad_input[padded tap] += (g * cx[i]) * cy[j], tap
 *     by tap over the chunk's lanes; gx = fma(-((v * g) * cx'[i]), cy[j], gx)
 *     (gy likewise), times the unnormalize factor (no padding gradient).
 * 3-d input: see GS3 below. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "ops/copy.h"
#include "ops/nn_grid.h"

static void sizes_str(const tsr_tensor *t, char *buf, size_t n)
{
    size_t o = (size_t)snprintf(buf, n, "[");
    for (int i = 0; i < t->ndim; i++) o += (size_t)snprintf(buf + o, n - o, "%s%lld", i ? ", " : "", (long long)t->sizes[i]);
    snprintf(buf + o, n - o, "]");
}

int tsr_nn_grid_sampler_check(const tsr_tensor *input, const tsr_tensor *grid, int mode)
{
    char a[160], b[160];
    sizes_str(input, a, sizeof a);
    sizes_str(grid, b, sizeof b);
    if (input->ndim < 1 || grid->ndim < 1 || input->sizes[0] != grid->sizes[0]) {
        tsr_error_set(TSR_ERR_RUNTIME, "grid_sampler(): expected grid and input to have same batch size, but got input with "
                      "sizes %s and grid with sizes %s", a, b);
        return -1;
    }
    if (grid->sizes[grid->ndim - 1] != input->ndim - 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "grid_sampler(): expected grid to have size %d in last dimension, but got grid with "
                      "sizes %s", input->ndim - 2, b);
        return -1;
    }
    for (int i = 2; i < input->ndim; i++)
        if (input->sizes[i] <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "grid_sampler(): expected input to have non-empty spatial dimensions, but input "
                          "has sizes %s with dimension %d being empty", a, i);
            return -1;
        }
    if (input->ndim == 4 && grid->ndim == 4) return 0;
    if (input->ndim == 5 && grid->ndim == 5) {
        if (mode == 2) {
            tsr_error_set(TSR_ERR_RUNTIME, "grid_sampler(): bicubic interpolation only supports 4D input");
            return -1;
        }
        return 0;
    }
    int want = input->ndim == 4 ? 4 : 5;
    tsr_error_set(TSR_ERR_RUNTIME, "grid_sampler(): expected %dD input and grid with same number of dimensions, but got "
                  "input with sizes %s and grid with sizes %s", want, a, b);
    return -1;
}

/* the source coordinate of normalized g along a dimension of size n */
static double coord_f(float g, int64_t n, bool ac, int pad)
{
    float x;
    if (ac)
        x = (g + 1.0f) * ((float)(n - 1) / 2);
    else
        x = fmaf(g + 1.0f, (float)n / 2, -0.5f);
    if (pad == 2) {   /* reflection */
        if (ac && n == 1) return 0.0;
        float span = ac ? (float)((n - 1) * 2) : (float)(n * 2);
        if (span == 0) {
            x = 0;
        } else {
            float in = ac ? fabsf(x) : fabsf(x + 0.5f);
            float flips = truncf(in / span);
            float extra = in - flips * span;
            float o = span - extra;
            x = o < extra || isnan(o) ? o : extra;   /* Vectorized minimum: NaN propagates */
            if (isnan(extra)) x = extra;
            if (!ac) x = x - 0.5f;
        }
    }
    if (pad >= 1) {   /* clip_coordinates: minimum(max_val, maximum(x, 0)) */
        float m = (float)(n - 1);
        if (!isnan(x)) x = x < 0 ? 0 : x > m ? m : x;
    }
    return x;
}

static double coord_d(double g, int64_t n, bool ac, int pad)
{
    double x;
    if (ac)
        x = (g + 1.0) * ((double)(n - 1) / 2);
    else
        x = fma(g + 1.0, (double)n / 2, -0.5);
    if (pad == 2) {
        if (ac && n == 1) return 0.0;
        double span = ac ? (double)((n - 1) * 2) : (double)(n * 2);
        if (span == 0) {
            x = 0;
        } else {
            double in = ac ? fabs(x) : fabs(x + 0.5);
            double flips = trunc(in / span);
            double extra = in - flips * span;
            double o = span - extra;
            x = o < extra || isnan(o) ? o : extra;
            if (isnan(extra)) x = extra;
            if (!ac) x = x - 0.5;
        }
    }
    if (pad >= 1) {
        double m = (double)(n - 1);
        if (!isnan(x)) x = x < 0 ? 0 : x > m ? m : x;
    }
    return x;
}

static tsr_tensor *grid_sampler_3d(const tsr_tensor *input, const tsr_tensor *grid, int mode, int pad, bool ac);
static int grid_sampler_3d_backward(const tsr_tensor *go, const tsr_tensor *input, const tsr_tensor *grid, int mode,
                                    int pad, bool ac, bool need_input, tsr_tensor **g_input, tsr_tensor **g_grid);

/* x (a floored or rounded coordinate) inside [0, n) */
static bool inside(double x, int64_t n) { return x > -1 && x < (double)n; }

/* bicubic (A = -0.75) in the vectorised kernel's arithmetic */
static float gcc1f(float x) { return fmaf(fmaf(1.25f, x, -2.25f) * x, x, 1.0f); }
static float gcc2f(float x) { return ((-0.75f * x + 3.75f) * x - 6.0f) * x + 3.0f; }
static double gcc1d(double x) { return fma(fma(1.25, x, -2.25) * x, x, 1.0); }
static double gcc2d(double x) { return ((-0.75 * x + 3.75) * x - 6.0) * x + 3.0; }

/* a bicubic tap's coordinate after padding (compute_coordinates): the tap is an integer */
static double tap_coord(double x, int64_t n, bool ac, int pad, bool f)
{
    if (pad == 0) return x;
    if (pad == 2) {
        if (ac && n == 1) return 0;
        double span = ac ? (double)((n - 1) * 2) : (double)(n * 2);
        double in = ac ? fabs(x) : fabs(x + 0.5);
        double flips = f ? (double)truncf((float)in / (float)span) : trunc(in / span);
        double extra = f ? (double)((float)in - (float)flips * (float)span) : in - flips * span;
        double o = span - extra;
        x = o < extra ? o : extra;
        if (!ac) x = x - 0.5;
    }
    double m = (double)(n - 1);
    return x < 0 ? 0 : x > m ? m : x;
}

tsr_tensor *tsr_nn_grid_sampler(const tsr_tensor *input, const tsr_tensor *grid, int mode, int pad, bool ac)
{
    if (tsr_nn_grid_sampler_check(input, grid, mode) < 0) return NULL;
    tsr_dtype dt = input->dtype;
    if (dt != TSR_FLOAT32 && dt != TSR_FLOAT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "grid_sampler_%dd_cpu not implemented for %s", input->ndim - 2, tsr_dtype_scalar_name(dt));
        return NULL;
    }
    if (grid->dtype != dt) {
        tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(dt),
                      tsr_dtype_scalar_name(grid->dtype));
        return NULL;
    }
    if (input->ndim == 5) return grid_sampler_3d(input, grid, mode, pad, ac);
    int64_t N = input->sizes[0], C = input->sizes[1], H = input->sizes[2], W = input->sizes[3];
    int64_t Ho = grid->sizes[1], Wo = grid->sizes[2];
    int64_t os[4] = {N, C, Ho, Wo};
    tsr_tensor *r = tsr_tensor_empty(4, os, dt, input->device);
    if (!r || tsr_tensor_is_meta(input) || tsr_tensor_numel(r) == 0) return r;
    tsr_tensor *xr = tsr_resolve_bits(input), *gr = xr ? tsr_resolve_bits(grid) : NULL;
    if (!gr) {
        tsr_tensor_release(xr);
        tsr_tensor_release(r);
        return NULL;
    }
    int isz = tsr_tensor_itemsize(input);
    const char *xb = tsr_tensor_ptr(xr, NULL), *gb = tsr_tensor_ptr(gr, NULL);
    char *rb = tsr_tensor_ptr(r, NULL);
    bool f = dt == TSR_FLOAT32;
    int failed = 0;
    for (int64_t n = 0; n < N && !failed; n++)
        for (int64_t h = 0; h < Ho; h++) {
            if (tsr_check_interrupt() < 0) {
                failed = 1;
                break;
            }
            for (int64_t w = 0; w < Wo; w++) {
                const char *gp = gb + (n * gr->strides[0] + h * gr->strides[1] + w * gr->strides[2]) * isz;
                double gx, gy;
                if (f)
                    gx = *(const float *)gp, gy = *(const float *)(gp + gr->strides[3] * isz);
                else
                    gx = *(const double *)gp, gy = *(const double *)(gp + gr->strides[3] * isz);
                int cp = mode == 2 ? 0 : pad;   /* bicubic pads each tap instead */
                double x = f ? coord_f((float)gx, W, ac, cp) : coord_d(gx, W, ac, cp);
                double y = f ? coord_f((float)gy, H, ac, cp) : coord_d(gy, H, ac, cp);
                for (int64_t c = 0; c < C; c++) {
                    const char *xp = xb + (n * xr->strides[0] + c * xr->strides[1]) * isz;
                    char *dst = rb + (n * r->strides[0] + c * r->strides[1] + h * r->strides[2] + w * r->strides[3]) * isz;
#define AT(yy, xx) (f ? (double)*(const float *)(xp + ((int64_t)(yy) * xr->strides[2] + (int64_t)(xx) * xr->strides[3]) * isz) \
                      : *(const double *)(xp + ((int64_t)(yy) * xr->strides[2] + (int64_t)(xx) * xr->strides[3]) * isz))
                    if (mode == 2) {   /* bicubic: rows over x, then over y */
                        double ix = floor(x), iy = floor(y), r4[4];
                        double tx = f ? (double)((float)x - (float)ix) : x - ix, ty = f ? (double)((float)y - (float)iy) : y - iy;
                        double cx[4], cy[4];
                        for (int k = 0; k < 2; k++) {
                            double t = k ? ty : tx, *cf = k ? cy : cx;
                            if (f) {
                                float tt = (float)t, t2 = 1.0f - tt;
                                cf[0] = gcc2f(tt + 1.0f), cf[1] = gcc1f(tt), cf[2] = gcc1f(t2), cf[3] = gcc2f(t2 + 1.0f);
                            } else {
                                double t2 = 1.0 - t;
                                cf[0] = gcc2d(t + 1.0), cf[1] = gcc1d(t), cf[2] = gcc1d(t2), cf[3] = gcc2d(t2 + 1.0);
                            }
                        }
                        for (int i = 0; i < 5; i++) {
                            double v[4];
                            const double *cf = i < 4 ? cx : cy;
                            if (i < 4) {
                                double yy = tap_coord(iy - 1 + i, H, ac, pad, f);
                                for (int j = 0; j < 4; j++) {
                                    double xx = tap_coord(ix - 1 + j, W, ac, pad, f);
                                    v[j] = inside(xx, W) && inside(yy, H) ? AT(yy, xx) : 0.0;
                                }
                            } else
                                memcpy(v, r4, sizeof v);
                            double acc;
                            if (i < 4)
                                acc = f ? (double)(((fmaf((float)cf[0], (float)v[0], (float)cf[1] * (float)v[1]) +
                                                     (float)cf[2] * (float)v[2]) + (float)cf[3] * (float)v[3]))
                                        : (fma(cf[0], v[0], cf[1] * v[1]) + cf[2] * v[2]) + cf[3] * v[3];
                            else
                                acc = f ? (double)fmaf((float)cf[3], (float)v[3],
                                                       fmaf((float)cf[2], (float)v[2],
                                                            fmaf((float)cf[1], (float)v[1], (float)cf[0] * (float)v[0])))
                                        : fma(cf[3], v[3], fma(cf[2], v[2], fma(cf[1], v[1], cf[0] * v[0])));
                            if (i < 4) r4[i] = acc;
                            else if (f) *(float *)dst = (float)acc;
                            else *(double *)dst = acc;
                        }
                        continue;
                    }
                    if (mode == 1) {   /* nearest */
                        double xn = f ? (double)nearbyintf((float)x) : nearbyint(x);
                        double yn = f ? (double)nearbyintf((float)y) : nearbyint(y);
                        double v = inside(xn, W) && inside(yn, H) ? AT(yn, xn) : 0.0;
                        if (f) *(float *)dst = (float)v;
                        else *(double *)dst = v;
                        continue;
                    }
                    double x0 = floor(x), y0 = floor(y);
                    double v[4];
                    for (int k = 0; k < 4; k++) {
                        double yy = y0 + (k >> 1), xx = x0 + (k & 1);
                        v[k] = inside(xx, W) && inside(yy, H) ? AT(yy, xx) : 0.0;
                    }
#undef AT
                    if (f) {
                        float wx = (float)x - (float)x0, ex = 1.0f - wx, ny = (float)y - (float)y0, sy = 1.0f - ny;
                        float nw = sy * ex, ne = sy * wx, sw = ny * ex, se = ny * wx;
                        float o = (float)v[0] * nw;
                        o = fmaf((float)v[1], ne, o);
                        o = fmaf((float)v[2], sw, o);
                        *(float *)dst = fmaf((float)v[3], se, o);
                    } else {
                        double wx = x - x0, ex = 1.0 - wx, ny = y - y0, sy = 1.0 - ny;
                        double nw = sy * ex, ne = sy * wx, sw = ny * ex, se = ny * wx;
                        *(double *)dst = fma(v[3], se, fma(v[2], sw, fma(v[1], ne, v[0] * nw)));
                    }
                }
            }
        }
    tsr_tensor_release(xr);
    tsr_tensor_release(gr);
    if (failed) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

/* the coordinate and its gradient multiplier (apply_get_grad) in float or double */
static double coord_grad(double g, int64_t n, bool ac, int pad, bool f, double *mult)
{
    double sf = f ? (double)(ac ? (float)(n - 1) / 2 : (float)n / 2) : (ac ? (double)(n - 1) / 2 : (double)n / 2);
    double x;
    if (f)
        x = ac ? (double)(((float)g + 1.0f) * (float)sf) : (double)fmaf((float)g + 1.0f, (float)sf, -0.5f);
    else
        x = ac ? (g + 1.0) * sf : fma(g + 1.0, sf, -0.5);
    double gm = sf;
    if (pad == 2) {
        if (ac && n == 1) {
            *mult = 0;
            return 0;
        }
        double span = ac ? (double)((n - 1) * 2) : (double)(n * 2);
        double in = ac ? x : (f ? (double)((float)x + 0.5f) : x + 0.5);
        bool neg = in < 0;
        double a = fabs(in);
        double flips = f ? (double)truncf((float)a / (float)span) : trunc(a / span);
        double extra = f ? (double)((float)a - (float)flips * (float)span) : a - flips * span;
        double refl = f ? (double)((float)span - (float)extra) : span - extra;
        bool more = extra > refl;
        x = more ? refl : extra;
        if (!ac) x = f ? (double)((float)x - 0.5f) : x - 0.5;
        double sign = more != neg ? -1.0 : 1.0;
        gm = f ? (double)((float)sign * (float)gm) : sign * gm;
    }
    if (pad >= 1) {   /* clip_coordinates_get_grad: borders count as outside */
        double m = (double)(n - 1);
        double lo = x > 0 ? x : 0;   /* maximum(x, 0): +0 for x <= 0 */
        if (isnan(x)) lo = x;
        bool in_lo = !(lo == 0 && !signbit(lo));
        double res = lo < m ? lo : m;
        if (isnan(lo)) res = lo;
        bool in_hi = !(res == m);
        x = res;
        if (!(in_lo && in_hi)) gm = 0;
    }
    *mult = gm;
    return x;
}

/* the cubic coefficients and their derivatives at t (get_cubic_coefficients(_grad)) */
static void cubic_coeffs(double t, bool f, double *c, double *cg)
{
    if (f) {
        float tt = (float)t, t2 = 1.0f - tt, x;
        c[0] = gcc2f(tt + 1.0f), c[1] = gcc1f(tt), c[2] = gcc1f(t2), c[3] = gcc2f(t2 + 1.0f);
        x = -1.0f - tt, cg[0] = (2.25f * x + 7.5f) * x + 6.0f;
        x = 0.0f - tt, cg[1] = (-3.75f * x - 4.5f) * x;
        x = 1.0f - tt, cg[2] = (3.75f * x - 4.5f) * x;
        x = 2.0f - tt, cg[3] = (-2.25f * x + 7.5f) * x - 6.0f;
    } else {
        double t2 = 1.0 - t, x;
        c[0] = gcc2d(t + 1.0), c[1] = gcc1d(t), c[2] = gcc1d(t2), c[3] = gcc2d(t2 + 1.0);
        x = -1.0 - t, cg[0] = (2.25 * x + 7.5) * x + 6.0;
        x = 0.0 - t, cg[1] = (-3.75 * x - 4.5) * x;
        x = 1.0 - t, cg[2] = (3.75 * x - 4.5) * x;
        x = 2.0 - t, cg[3] = (-2.25 * x + 7.5) * x - 6.0;
    }
}

/* one channel of a chunk of the bicubic backward: for each tap (i over x,
 * j over y) grad_input[tap] += (g * cx[i]) * cy[j] lane by lane, then
 * gx = gx - ((v * g) * cx'[i]) * cy[j] (one fused multiply-subtract), gy likewise */
static void bicubic_backward(const char *xp, const int64_t *xst, int isz, char *gq, const char *gop, int64_t H, int64_t W,
                             int64_t len, const int64_t *pidx, const double *xs, const double *ys, double *gxs,
                             double *gys, bool ac, int pad, bool f)
{
    double cx[8][4], cy[8][4], cxg[8][4], cyg[8][4], g[8], ix[8], iy[8];
    for (int64_t l = 0; l < len; l++) {
        ix[l] = floor(xs[l]), iy[l] = floor(ys[l]);
        cubic_coeffs(f ? (double)((float)xs[l] - (float)ix[l]) : xs[l] - ix[l], f, cx[l], cxg[l]);
        cubic_coeffs(f ? (double)((float)ys[l] - (float)iy[l]) : ys[l] - iy[l], f, cy[l], cyg[l]);
        g[l] = f ? *(const float *)(gop + pidx[l] * isz) : *(const double *)(gop + pidx[l] * isz);
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            for (int64_t l = 0; l < len && gq; l++) {
                double xx = tap_coord(ix[l] - 1 + i, W, ac, pad, f), yy = tap_coord(iy[l] - 1 + j, H, ac, pad, f);
                if (!inside(xx, W) || !inside(yy, H)) continue;
                char *d = gq + ((int64_t)yy * W + (int64_t)xx) * isz;
                if (f) *(float *)d += ((float)g[l] * (float)cx[l][i]) * (float)cy[l][j];
                else *(double *)d += (g[l] * cx[l][i]) * cy[l][j];
            }
            for (int64_t l = 0; l < len; l++) {
                double xx = tap_coord(ix[l] - 1 + i, W, ac, pad, f), yy = tap_coord(iy[l] - 1 + j, H, ac, pad, f);
                double v = 0;
                if (inside(xx, W) && inside(yy, H)) {
                    const char *q = xp + ((int64_t)yy * xst[0] + (int64_t)xx * xst[1]) * isz;
                    v = f ? *(const float *)q : *(const double *)q;
                }
                if (f) {
                    float px = ((float)v * (float)g[l]) * (float)cxg[l][i], py = ((float)v * (float)g[l]) * (float)cyg[l][j];
                    gxs[l] = fmaf(-px, (float)cy[l][j], (float)gxs[l]);
                    gys[l] = fmaf(-py, (float)cx[l][i], (float)gys[l]);
                } else {
                    double px = (v * g[l]) * cxg[l][i], py = (v * g[l]) * cyg[l][j];
                    gxs[l] = fma(-px, cy[l][j], gxs[l]);
                    gys[l] = fma(-py, cx[l][i], gys[l]);
                }
            }
        }
}

int tsr_nn_grid_sampler_backward(const tsr_tensor *go, const tsr_tensor *input, const tsr_tensor *grid, int mode, int pad,
                                 bool ac, bool need_input, tsr_tensor **g_input, tsr_tensor **g_grid)
{
    *g_input = *g_grid = NULL;
    tsr_dtype dt = input->dtype;
    bool f = dt == TSR_FLOAT32;
    if (dt != TSR_FLOAT32 && dt != TSR_FLOAT64) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: this grid_sample backward is not implemented yet");
        return -1;
    }
    if (input->ndim == 5)
        return grid_sampler_3d_backward(go, input, grid, mode, pad, ac, need_input, g_input, g_grid);
    tsr_tensor *gi = need_input ? tsr_tensor_empty(4, input->sizes, dt, input->device) : NULL;
    tsr_tensor *gg = tsr_tensor_empty(4, grid->sizes, dt, grid->device);
    tsr_tensor *goc = tsr_contiguous(go, TSR_MF_CONTIGUOUS);
    tsr_tensor *gor = goc ? tsr_resolve_bits(goc) : NULL;
    tsr_tensor_release(goc);
    tsr_tensor *xr = gor ? tsr_resolve_bits(input) : NULL, *gr = xr ? tsr_resolve_bits(grid) : NULL;
    if (!gg || (need_input && !gi) || !gr) {
        tsr_tensor_release(gi);
        tsr_tensor_release(gg);
        tsr_tensor_release(gor);
        tsr_tensor_release(xr);
        return -1;
    }
    int isz = tsr_tensor_itemsize(input);
    int64_t N = input->sizes[0], C = input->sizes[1], H = input->sizes[2], W = input->sizes[3];
    int64_t Ho = grid->sizes[1], Wo = grid->sizes[2], S = Ho * Wo;
    if (gi && tsr_tensor_numel(gi)) memset(tsr_tensor_ptr(gi, NULL), 0, (size_t)tsr_tensor_numel(gi) * (size_t)isz);
    char *gip = gi ? tsr_tensor_ptr(gi, NULL) : NULL, *ggp = tsr_tensor_ptr(gg, NULL);
    const char *xb = tsr_tensor_ptr(xr, NULL), *gb = tsr_tensor_ptr(gr, NULL), *gob = tsr_tensor_ptr(gor, NULL);
    int64_t lanes = f ? 8 : 4;
    int failed = 0;
    for (int64_t n = 0; n < N && !failed; n++) {
        if (tsr_check_interrupt() < 0) {
            failed = 1;
            break;
        }
        /* the grid slice's iteration: the whole plane when contiguous, else row by row */
        bool flat = (Ho <= 1 || gr->strides[1] == Wo * 2) && (Wo <= 1 || gr->strides[2] == 2) && gr->strides[3] == 1;
        int64_t rows = flat ? 1 : Ho, per = flat ? S : Wo;
        for (int64_t row = 0; row < rows; row++)
            for (int64_t c0 = 0; c0 < per; c0 += lanes) {
                int64_t len = per - c0 < lanes ? per - c0 : lanes;
                double xs[8], ys[8], mx[8], my[8];
                int64_t pidx[8];
                for (int64_t l = 0; l < len; l++) {
                    int64_t p = row * per + c0 + l, h = p / Wo, w = p % Wo;
                    pidx[l] = p;
                    const char *gp = gb + (n * gr->strides[0] + h * gr->strides[1] + w * gr->strides[2]) * isz;
                    double gx = f ? *(const float *)gp : *(const double *)gp;
                    double gy = f ? *(const float *)(gp + gr->strides[3] * isz) : *(const double *)(gp + gr->strides[3] * isz);
                    xs[l] = coord_grad(gx, W, ac, mode == 2 ? 0 : pad, f, &mx[l]);   /* bicubic pads each tap */
                    ys[l] = coord_grad(gy, H, ac, mode == 2 ? 0 : pad, f, &my[l]);
                }
                double gxs[8] = {0}, gys[8] = {0};
                for (int64_t c = 0; c < C; c++) {
                    const char *xp = xb + (n * xr->strides[0] + c * xr->strides[1]) * isz;
                    char *gq = gip ? gip + ((n * C + c) * H * W) * isz : NULL;
                    const char *gop = gob + ((n * C + c) * S) * isz;
#define IN(yy, xx) (f ? (double)*(const float *)(xp + ((int64_t)(yy) * xr->strides[2] + (int64_t)(xx) * xr->strides[3]) * isz) \
                      : *(const double *)(xp + ((int64_t)(yy) * xr->strides[2] + (int64_t)(xx) * xr->strides[3]) * isz))
                    if (mode == 2) {
                        bicubic_backward(xp, xr->strides + 2, isz, gq, gop, H, W, len, pidx, xs, ys, gxs, gys, ac, pad, f);
                        continue;
                    }
                    if (mode == 1) {
                        if (gq)
                            for (int64_t l = 0; l < len; l++) {
                                double xn = f ? (double)nearbyintf((float)xs[l]) : nearbyint(xs[l]);
                                double yn = f ? (double)nearbyintf((float)ys[l]) : nearbyint(ys[l]);
                                if (!inside(xn, W) || !inside(yn, H)) continue;
                                char *d = gq + ((int64_t)yn * W + (int64_t)xn) * isz;
                                double gv = f ? *(const float *)(gop + pidx[l] * isz) : *(const double *)(gop + pidx[l] * isz);
                                if (f) *(float *)d += (float)gv;
                                else *(double *)d += gv;
                            }
                        continue;
                    }
                    for (int k = 0; k < 4 && gq; k++)   /* corner by corner over the chunk's lanes */
                        for (int64_t l = 0; l < len; l++) {
                            double x0 = floor(xs[l]), y0 = floor(ys[l]);
                            double xx = x0 + (k & 1), yy = y0 + (k >> 1);
                            if (!inside(xx, W) || !inside(yy, H)) continue;
                            double gv = f ? *(const float *)(gop + pidx[l] * isz) : *(const double *)(gop + pidx[l] * isz);
                            char *d = gq + ((int64_t)yy * W + (int64_t)xx) * isz;
                            if (f) {
                                float wx = (float)xs[l] - (float)x0, ny = (float)ys[l] - (float)y0;
                                float wxk = k & 1 ? wx : 1.0f - wx, wyk = k >> 1 ? ny : 1.0f - ny;
                                *(float *)d += (float)gv * (wyk * wxk);
                            } else {
                                double wx = xs[l] - x0, ny = ys[l] - y0;
                                double wxk = k & 1 ? wx : 1.0 - wx, wyk = k >> 1 ? ny : 1.0 - ny;
                                *(double *)d += gv * (wyk * wxk);
                            }
                        }
                    for (int64_t l = 0; l < len; l++) {
                        double x0 = floor(xs[l]), y0 = floor(ys[l]), v[4];
                        for (int k = 0; k < 4; k++) {
                            double xx = x0 + (k & 1), yy = y0 + (k >> 1);
                            v[k] = inside(xx, W) && inside(yy, H) ? IN(yy, xx) : 0.0;
                        }
                        double gv = f ? *(const float *)(gop + pidx[l] * isz) : *(const double *)(gop + pidx[l] * isz);
                        if (f) {
                            float wx = (float)xs[l] - (float)x0, e = 1.0f - wx, ny = (float)ys[l] - (float)y0, s = 1.0f - ny;
                            float tx = fmaf((float)v[3] - (float)v[2], ny, ((float)v[1] - (float)v[0]) * s);
                            float ty = fmaf((float)v[3] - (float)v[1], wx, ((float)v[2] - (float)v[0]) * e);
                            gxs[l] = fmaf(tx, (float)gv, (float)gxs[l]);
                            gys[l] = fmaf(ty, (float)gv, (float)gys[l]);
                        } else {
                            double wx = xs[l] - x0, e = 1.0 - wx, ny = ys[l] - y0, s = 1.0 - ny;
                            double tx = fma(v[3] - v[2], ny, (v[1] - v[0]) * s);
                            double ty = fma(v[3] - v[1], wx, (v[2] - v[0]) * e);
                            gxs[l] = fma(tx, gv, gxs[l]);
                            gys[l] = fma(ty, gv, gys[l]);
                        }
                    }
#undef IN
                }
                for (int64_t l = 0; l < len; l++) {
                    char *d = ggp + ((n * S + pidx[l]) * 2) * isz;
                    double ox = mode == 1 ? 0 : gxs[l] * mx[l], oy = mode == 1 ? 0 : gys[l] * my[l];
                    if (f) ((float *)d)[0] = mode == 1 ? 0.0f : (float)gxs[l] * (float)mx[l],
                           ((float *)d)[1] = mode == 1 ? 0.0f : (float)gys[l] * (float)my[l];
                    else ((double *)d)[0] = ox, ((double *)d)[1] = oy;
                }
            }
    }
    tsr_tensor_release(gor);
    tsr_tensor_release(xr);
    tsr_tensor_release(gr);
    if (failed) {
        tsr_tensor_release(gi);
        tsr_tensor_release(gg);
        return -1;
    }
    *g_input = gi;
    *g_grid = gg;
    return 0;
}

/* 3-d (GridSampler.cpp's scalar kernels, built without FMA): plain arithmetic
 * in the dtype; grid_sampler_compute_source_index with std::fmod reflection
 * and safe_downgrade_to_int_range; bilinear sums the in-bounds corners
 * tnw .. bse into 0; the backward scatters corner * g and sums grad_grid
 * terms val * a * b * g in the corners' order, times the coordinate's
 * multiplier. */
#define GS3_SRC(T, FMOD, FLOOR)                                                                               \
    static T gs3_src_##T(T c, int64_t size, int pad, bool ac, T *grad)                                        \
    {                                                                                                         \
        T gu = ac ? (T)(size - 1) / 2 : (T)size / 2, gr = 1, gcl = 1;                                         \
        c = ac ? ((c + 1) / 2) * (T)(size - 1) : ((c + 1) * (T)size - 1) / 2;                                 \
        if (pad == 2) {                                                                                       \
            int64_t lo = ac ? 0 : -1, hi = ac ? 2 * (size - 1) : 2 * size - 1;                                \
            if (lo == hi) {                                                                                   \
                c = 0, gr = 0;                                                                                \
            } else {                                                                                          \
                T mn = (T)lo / 2, span = (T)(hi - lo) / 2;                                                    \
                c = c - mn;                                                                                   \
                int m = 1;                                                                                    \
                if (c < 0) m = -1, c = -c;                                                                    \
                T extra = FMOD(c, span);                                                                      \
                int flips = (int)FLOOR(c / span);                                                             \
                if (flips % 2 == 0) c = extra + mn, gr = (T)m;                                                \
                else c = span - extra + mn, gr = (T)-m;                                                       \
            }                                                                                                 \
        }                                                                                                     \
        if (pad >= 1) {   /* clip_coordinates(_set_grad): NaN is size - 1 forward, kept backward */          \
            if (!grad && isnan(c)) c = (T)(size - 1);                                                         \
            if (c <= 0) c = 0, gcl = 0;                                                                       \
            else if (c >= (T)(size - 1)) c = (T)(size - 1), gcl = 0;                                          \
            else if (!(c > 0)) gcl = 0;                                                                       \
        }                                                                                                     \
        if (grad) *grad = pad == 2 ? gu * gr * gcl : pad == 1 ? gu * gcl : gu;                                \
        if (!isfinite(c) || c > (T)(INT32_MAX - 1) || c < (T)INT32_MIN) c = -100;                             \
        return c;                                                                                             \
    }
GS3_SRC(float, fmodf, floorf)
GS3_SRC(double, fmod, floor)

static bool in3(int64_t z, int64_t y, int64_t x, int64_t D, int64_t H, int64_t W)
{
    return z >= 0 && z < D && y >= 0 && y < H && x >= 0 && x < W;
}

/* the 8 corners' offsets and weights of (ix, iy, iz): t/b, n/s, w/e as 1.13 names them */
#define GS3_BODY(T)                                                                                           \
    int64_t xw = (int64_t)floor(ix), yn = (int64_t)floor(iy), zt = (int64_t)floor(iz);                        \
    int64_t cx[8], cy[8], cz[8];                                                                              \
    for (int k = 0; k < 8; k++) cz[k] = zt + (k >> 2), cy[k] = yn + ((k >> 1) & 1), cx[k] = xw + (k & 1);    \
    T wt[8];                                                                                                  \
    wt[0] = ((T)cx[7] - ix) * ((T)cy[7] - iy) * ((T)cz[7] - iz);                                              \
    wt[1] = (ix - (T)cx[6]) * ((T)cy[6] - iy) * ((T)cz[6] - iz);                                              \
    wt[2] = ((T)cx[5] - ix) * (iy - (T)cy[5]) * ((T)cz[5] - iz);                                              \
    wt[3] = (ix - (T)cx[4]) * (iy - (T)cy[4]) * ((T)cz[4] - iz);                                              \
    wt[4] = ((T)cx[3] - ix) * ((T)cy[3] - iy) * (iz - (T)cz[3]);                                              \
    wt[5] = (ix - (T)cx[2]) * ((T)cy[2] - iy) * (iz - (T)cz[2]);                                              \
    wt[6] = ((T)cx[1] - ix) * (iy - (T)cy[1]) * (iz - (T)cz[1]);                                              \
    wt[7] = (ix - (T)cx[0]) * (iy - (T)cy[0]) * (iz - (T)cz[0]);

#define GS3_FWD(T)                                                                                            \
    static int gs3_fwd_##T(const tsr_tensor *x, const tsr_tensor *g, tsr_tensor *r, int mode, int pad, bool ac) \
    {                                                                                                         \
        const T *xp = tsr_tensor_ptr(x, NULL), *gp = tsr_tensor_ptr(g, NULL);                                 \
        T *rp = tsr_tensor_ptr(r, NULL);                                                                      \
        int64_t N = x->sizes[0], C = x->sizes[1], D = x->sizes[2], H = x->sizes[3], W = x->sizes[4];          \
        int64_t Do = g->sizes[1], Ho = g->sizes[2], Wo = g->sizes[3];                                         \
        const int64_t *xs = x->strides, *gs = g->strides;                                                     \
        for (int64_t n = 0; n < N; n++)                                                                       \
            for (int64_t d = 0; d < Do; d++)                                                                  \
                for (int64_t h = 0; h < Ho; h++)                                                              \
                    if (tsr_check_interrupt() < 0) return -1;                                                 \
                    else                                                                                      \
                    for (int64_t w = 0; w < Wo; w++) {                                                        \
                        const T *q = gp + n * gs[0] + d * gs[1] + h * gs[2] + w * gs[3];                      \
                        T ix = gs3_src_##T(q[0], W, pad, ac, NULL), iy = gs3_src_##T(q[gs[4]], H, pad, ac, NULL); \
                        T iz = gs3_src_##T(q[2 * gs[4]], D, pad, ac, NULL);                                   \
                        T *o = rp + ((n * C * Do + d) * Ho + h) * Wo + w;                                     \
                        if (mode == 1) {                                                                      \
                            int64_t xn = (int64_t)round(ix), ynn = (int64_t)round(iy), zn = (int64_t)round(iz); \
                            for (int64_t c = 0; c < C; c++)                                                   \
                                o[c * Do * Ho * Wo] = in3(zn, ynn, xn, D, H, W)                               \
                                    ? xp[n * xs[0] + c * xs[1] + zn * xs[2] + ynn * xs[3] + xn * xs[4]] : 0;  \
                            continue;                                                                         \
                        }                                                                                     \
                        GS3_BODY(T)                                                                           \
                        for (int64_t c = 0; c < C; c++) {                                                     \
                            T acc = 0;                                                                        \
                            const T *xc = xp + n * xs[0] + c * xs[1];                                         \
                            for (int k = 0; k < 8; k++)                                                       \
                                if (in3(cz[k], cy[k], cx[k], D, H, W))                                        \
                                    acc += xc[cz[k] * xs[2] + cy[k] * xs[3] + cx[k] * xs[4]] * wt[k];         \
                            o[c * Do * Ho * Wo] = acc;                                                        \
                        }                                                                                     \
                    }                                                                                         \
        return 0;                                                                                             \
    }
GS3_FWD(float)
GS3_FWD(double)

static tsr_tensor *grid_sampler_3d(const tsr_tensor *input, const tsr_tensor *grid, int mode, int pad, bool ac)
{
    int64_t os[5] = {input->sizes[0], input->sizes[1], grid->sizes[1], grid->sizes[2], grid->sizes[3]};
    tsr_tensor *r = tsr_tensor_empty(5, os, input->dtype, input->device);
    if (!r || tsr_tensor_is_meta(input) || tsr_tensor_numel(r) == 0) return r;
    tsr_tensor *xr = tsr_resolve_bits(input), *gr = xr ? tsr_resolve_bits(grid) : NULL;
    int rc = !gr ? -1 : input->dtype == TSR_FLOAT32 ? gs3_fwd_float(xr, gr, r, mode, pad, ac)
                                                    : gs3_fwd_double(xr, gr, r, mode, pad, ac);
    tsr_tensor_release(xr);
    tsr_tensor_release(gr);
    if (rc < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

#define GS3_BWD(T)                                                                                            \
    static int gs3_bwd_##T(const tsr_tensor *go, const tsr_tensor *x, const tsr_tensor *g, tsr_tensor *gi,    \
                            tsr_tensor *gg, int mode, int pad, bool ac)                                       \
    {                                                                                                         \
        const T *xp = tsr_tensor_ptr(x, NULL), *gp = tsr_tensor_ptr(g, NULL), *op = tsr_tensor_ptr(go, NULL); \
        T *ip = gi ? tsr_tensor_ptr(gi, NULL) : NULL, *ggp = tsr_tensor_ptr(gg, NULL);                        \
        int64_t N = x->sizes[0], C = x->sizes[1], D = x->sizes[2], H = x->sizes[3], W = x->sizes[4];          \
        int64_t Do = g->sizes[1], Ho = g->sizes[2], Wo = g->sizes[3], S = Do * Ho * Wo;                       \
        const int64_t *xs = x->strides, *gs = g->strides;                                                     \
        for (int64_t n = 0; n < N; n++)                                                                       \
            for (int64_t d = 0; d < Do; d++)                                                                  \
                for (int64_t h = 0; h < Ho; h++)                                                              \
                    if (tsr_check_interrupt() < 0) return -1;                                                 \
                    else                                                                                      \
                    for (int64_t w = 0; w < Wo; w++) {                                                        \
                        const T *q = gp + n * gs[0] + d * gs[1] + h * gs[2] + w * gs[3];                      \
                        T mx, my, mz;                                                                         \
                        T ix = gs3_src_##T(q[0], W, pad, ac, &mx), iy = gs3_src_##T(q[gs[4]], H, pad, ac, &my); \
                        T iz = gs3_src_##T(q[2 * gs[4]], D, pad, ac, &mz);                                    \
                        int64_t p = (d * Ho + h) * Wo + w;                                                    \
                        T *gq = ggp + (n * S + p) * 3;                                                        \
                        if (mode == 1) {                                                                      \
                            int64_t xn = (int64_t)round(ix), ynn = (int64_t)round(iy), zn = (int64_t)round(iz); \
                            for (int64_t c = 0; c < C && ip; c++)                                             \
                                if (in3(zn, ynn, xn, D, H, W))                                                \
                                    ip[(((n * C + c) * D + zn) * H + ynn) * W + xn] += op[(n * C + c) * S + p]; \
                            gq[0] = gq[1] = gq[2] = 0;                                                        \
                            continue;                                                                         \
                        }                                                                                     \
                        GS3_BODY(T)                                                                           \
                        T gx = 0, gy = 0, gz = 0;                                                             \
                        for (int64_t c = 0; c < C; c++) {                                                     \
                            T gv = op[(n * C + c) * S + p];                                                   \
                            const T *xc = xp + n * xs[0] + c * xs[1];                                         \
                            if (ip)                                                                           \
                                for (int k = 0; k < 8; k++)                                                   \
                                    if (in3(cz[k], cy[k], cx[k], D, H, W))                                    \
                                        ip[(((n * C + c) * D + cz[k]) * H + cy[k]) * W + cx[k]] += wt[k] * gv; \
                            for (int k = 0; k < 8; k++) {                                                     \
                                if (!in3(cz[k], cy[k], cx[k], D, H, W)) continue;                             \
                                T v = xc[cz[k] * xs[2] + cy[k] * xs[3] + cx[k] * xs[4]];                      \
                                int o = 7 - k; /* the opposite corner spans the weights */                    \
                                T dx = k & 1 ? ix - (T)cx[o] : (T)cx[o] - ix;                                 \
                                T dy = (k >> 1) & 1 ? iy - (T)cy[o] : (T)cy[o] - iy;                          \
                                T dz = k >> 2 ? iz - (T)cz[o] : (T)cz[o] - iz;                                \
                                T tx = v * dy * dz * gv, ty = v * dx * dz * gv, tz = v * dx * dy * gv;        \
                                gx = k & 1 ? gx + tx : gx - tx;                                               \
                                gy = (k >> 1) & 1 ? gy + ty : gy - ty;                                        \
                                gz = k >> 2 ? gz + tz : gz - tz;                                              \
                            }                                                                                 \
                        }                                                                                     \
                        gq[0] = mx * gx, gq[1] = my * gy, gq[2] = mz * gz;                                    \
                    }                                                                                         \
        return 0;                                                                                             \
    }
GS3_BWD(float)
GS3_BWD(double)

static int grid_sampler_3d_backward(const tsr_tensor *go, const tsr_tensor *input, const tsr_tensor *grid, int mode,
                                    int pad, bool ac, bool need_input, tsr_tensor **g_input, tsr_tensor **g_grid)
{
    tsr_dtype dt = input->dtype;
    tsr_tensor *gi = need_input ? tsr_tensor_empty(5, input->sizes, dt, input->device) : NULL;
    tsr_tensor *gg = tsr_tensor_empty(5, grid->sizes, dt, grid->device);
    tsr_tensor *goc = tsr_contiguous(go, TSR_MF_CONTIGUOUS);
    tsr_tensor *gor = goc ? tsr_resolve_bits(goc) : NULL;
    tsr_tensor_release(goc);
    tsr_tensor *xr = gor ? tsr_resolve_bits(input) : NULL, *gr = xr ? tsr_resolve_bits(grid) : NULL;
    if (!gg || (need_input && !gi) || !gr) {
        tsr_tensor_release(gi);
        tsr_tensor_release(gg);
        tsr_tensor_release(gor);
        tsr_tensor_release(xr);
        tsr_tensor_release(gr);
        return -1;
    }
    int isz = tsr_tensor_itemsize(input);
    if (gi && tsr_tensor_numel(gi)) memset(tsr_tensor_ptr(gi, NULL), 0, (size_t)tsr_tensor_numel(gi) * (size_t)isz);
    if (tsr_tensor_numel(gg)) memset(tsr_tensor_ptr(gg, NULL), 0, (size_t)tsr_tensor_numel(gg) * (size_t)isz);
    int rc = dt == TSR_FLOAT32 ? gs3_bwd_float(gor, xr, gr, gi, gg, mode, pad, ac)
                               : gs3_bwd_double(gor, xr, gr, gi, gg, mode, pad, ac);
    tsr_tensor_release(gor);
    tsr_tensor_release(xr);
    tsr_tensor_release(gr);
    if (rc < 0) {
        tsr_tensor_release(gi);
        tsr_tensor_release(gg);
        return -1;
    }
    *g_input = gi;
    *g_grid = gg;
    return 0;
}
