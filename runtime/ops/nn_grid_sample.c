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
 * 3-d input, mode bicubic and the backward are not implemented (they refuse). */
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

/* x (a floored or rounded coordinate) inside [0, n) */
static bool inside(double x, int64_t n) { return x > -1 && x < (double)n; }

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
    if (input->ndim == 5 || mode == 2) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: grid_sample(%s) is not implemented yet",
                      mode == 2 ? "mode='bicubic'" : "5-D input");
        return NULL;
    }
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
                double x = f ? coord_f((float)gx, W, ac, pad) : coord_d(gx, W, ac, pad);
                double y = f ? coord_f((float)gy, H, ac, pad) : coord_d(gy, H, ac, pad);
                for (int64_t c = 0; c < C; c++) {
                    const char *xp = xb + (n * xr->strides[0] + c * xr->strides[1]) * isz;
                    char *dst = rb + (n * r->strides[0] + c * r->strides[1] + h * r->strides[2] + w * r->strides[3]) * isz;
#define AT(yy, xx) (f ? (double)*(const float *)(xp + ((int64_t)(yy) * xr->strides[2] + (int64_t)(xx) * xr->strides[3]) * isz) \
                      : *(const double *)(xp + ((int64_t)(yy) * xr->strides[2] + (int64_t)(xx) * xr->strides[3]) * isz))
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
