/* runtime/ops/nn_interp_aa.c — F.interpolate(antialias=True): 1.13's
 * _upsample_bilinear2d_aa / _upsample_bicubic2d_aa and their backward
 * (UpSampleKernel.cpp, the separable kernels ported from Pillow), with the
 * arithmetic of the AVX2 build (GCC contracts a * b + c into fused
 * multiply-adds):
 *
 *   scale s = area_pixel_compute_scale in the dtype T (float for float32);
 *   support = (s >= 1 ? n/2 * s : n/2) with n = 2 (triangle) or 4 (cubic,
 *   a = -0.5); taps = ceilf(support) * 2 + 1;
 *   for output i: center = (T)(s * (i + 0.5)), xmin = max((int64)((center -
 *   support) + 0.5), 0), xsize = min((int64)((center + support) + 0.5), in)
 *   - xmin, w_j = filter((T)(((T)(xmin + j) - center + 0.5) * invscale))
 *   with invscale = s >= 1 ? 1 / s : 1, normalised by their sum (in T);
 *   forward: the last dimension first into a temporary, then the height,
 *   each value v = t0 * w0, then the taps j = 1.. in order: GCC vectorises
 *   that loop as an in-order reduction of 128-bit vectors (4 floats, 2
 *   doubles), so the first whole vectors' worth of taps add rounded
 *   products (v + t_j * w_j) and the remainder fuse (fma(t_j, w_j, v));
 *   backward: for each output row, column and channel, gi[ymin + y][xmin +
 *   x] = fma(wx[x] * wy[y], g, gi[...]) in y-major order.
 * float32 and float64 only, as 1.13 ("compute_indices_weights_aa" not
 * implemented for other dtypes). */
#include <math.h>
#include <string.h>

#include "error.h"
#include "internal.h"
#include "ops/copy.h"
#include "ops/factory.h"
#include "ops/nn_interp.h"
#include "ops/nn_interp_dev.h"

typedef struct {
    int64_t xmin, xsize;
} aa_span;

#define AA_IMPL(SUF, T, FMA, CEILF, VF)                                                                              \
    static T filter_##SUF(T x, bool cubic)                                                                       \
    {                                                                                                            \
        if (x < 0.0) x = -x;                                                                                     \
        if (!cubic) return x < 1.0 ? (T)(1.0 - (double)x) : (T)0.0;                                             \
        if (x < 1.0) {   /* ((a + 2) * x - (a + 3)) * x * x + 1 in double, a = -0.5 */                          \
            double xd = (double)x;                                                                               \
            return (T)fma(fma(1.5, xd, -2.5) * xd, xd, 1.0);                                                     \
        }                                                                                                        \
        if (x < 2.0) return (T)((double)FMA(FMA(x - 5, x, (T)8), x, (T)-4) * -0.5);                             \
        return (T)0.0;                                                                                           \
    }                                                                                                            \
    /* HelperInterpBase::_compute_weights_aa for output i; w has taps entries */                                 \
    static void weights_##SUF(int64_t i, int64_t in, T s, T support, T *w, int64_t taps, bool cubic,             \
                              aa_span *sp)                                                                       \
    {                                                                                                            \
        T center = (T)((double)s * ((double)i + 0.5)), total = 0;                                                \
        T invscale = s >= 1.0 ? (T)(1.0 / (double)s) : (T)1.0;                                                   \
        int64_t lo = (int64_t)((double)(T)(center - support) + 0.5), hi = (int64_t)((double)(T)(center + support) + 0.5); \
        sp->xmin = lo > 0 ? lo : 0;                                                                              \
        sp->xsize = (hi < in ? hi : in) - sp->xmin;                                                              \
        int64_t j = 0;                                                                                           \
        for (; j < sp->xsize; j++) {                                                                             \
            T v = filter_##SUF((T)(((double)(T)((T)(j + sp->xmin) - center) + 0.5) * (double)invscale), cubic);  \
            w[j] = v;                                                                                            \
            total += v;                                                                                          \
        }                                                                                                        \
        for (j = 0; j < sp->xsize; j++)                                                                          \
            if (total != 0.0) w[j] /= total;                                                                     \
        for (; j < taps; j++) w[j] = 0;                                                                          \
    }                                                                                                            \
    static T scale_##SUF(int64_t in, int64_t out, bool ac, double scale)                                         \
    {                                                                                                            \
        if (ac) return out > 1 ? (T)(in - 1) / (T)(out - 1) : (T)0;                                              \
        return scale > 0 ? (T)(1.0 / scale) : (T)in / (T)out;                                                    \
    }                                                                                                            \
    static int64_t taps_##SUF(T s, bool cubic, T *support)                                                       \
    {                                                                                                            \
        int n = cubic ? 4 : 2;                                                                                   \
        *support = s >= 1.0 ? (T)((n * 0.5) * (double)s) : (T)(n * 0.5);                                        \
        return (int64_t)CEILF((float)*support) * 2 + 1;                                                          \
    }                                                                                                            \
    /* one separable pass along dimension dim (2 or 3) of src (N, C, H, W) into dst */                          \
    static int pass_##SUF(const tsr_tensor *src, tsr_tensor *dst, int dim, bool ac, double scale, bool cubic)    \
    {                                                                                                            \
        int64_t in = src->sizes[dim], out = dst->sizes[dim];                                                     \
        T support, s = scale_##SUF(in, out, ac, scale);                                                          \
        int64_t taps = taps_##SUF(s, cubic, &support);                                                           \
        T *w = tsr_malloc((size_t)(out * taps) * sizeof *w);                                                     \
        aa_span *sp = w ? tsr_malloc((size_t)out * sizeof *sp) : NULL;                                           \
        if (!sp) {                                                                                               \
            tsr_free(w);                                                                                         \
            return -1;                                                                                           \
        }                                                                                                        \
        for (int64_t i = 0; i < out; i++) weights_##SUF(i, in, s, support, w + i * taps, taps, cubic, sp + i);   \
        const T *sb = tsr_tensor_ptr(src, NULL);                                                                 \
        T *db = tsr_tensor_ptr(dst, NULL);                                                                       \
        int64_t idx[4] = {0, 0, 0, 0}, total = tsr_tensor_numel(dst), sstep = src->strides[dim];                 \
        for (int64_t k = 0; k < total; k++) {                                                                    \
            if ((k & 0xffff) == 0 && tsr_check_interrupt() < 0) {                                                \
                tsr_free(w);                                                                                     \
                tsr_free(sp);                                                                                    \
                return -1;                                                                                       \
            }                                                                                                    \
            int64_t o = idx[dim], so = 0, dof = 0;                                                               \
            for (int d = 0; d < 4; d++) {                                                                        \
                so += (d == dim ? sp[o].xmin : idx[d]) * src->strides[d];                                        \
                dof += idx[d] * dst->strides[d];                                                                 \
            }                                                                                                    \
            const T *wt = w + o * taps, *p = sb + so;                                                            \
            T v = p[0] * wt[0];                                                                                  \
            int64_t full = (sp[o].xsize - 1) / VF * VF;   /* the vectorised in-order part */                     \
            for (int64_t j = 1; j < sp[o].xsize; j++) {                                                          \
                T pr = p[j * sstep] * wt[j];                                                                     \
                v = j - 1 < full ? v + pr : FMA(p[j * sstep], wt[j], v);                                         \
            }                                                                                                    \
            db[dof] = v;                                                                                         \
            for (int d = 3; d >= 0; d--) {                                                                       \
                if (++idx[d] < dst->sizes[d]) break;                                                             \
                idx[d] = 0;                                                                                      \
            }                                                                                                    \
        }                                                                                                        \
        tsr_free(w);                                                                                             \
        tsr_free(sp);                                                                                            \
        return 0;                                                                                                \
    }                                                                                                            \
    /* cpu_upsample_genNd_backward_aa into gi (contiguous, zeroed) from g (contiguous) */                       \
    static int back_##SUF(const tsr_tensor *g, tsr_tensor *gi, bool ac, const double *scales, bool cubic)        \
    {                                                                                                            \
        int64_t C = gi->sizes[0] * gi->sizes[1], IH = gi->sizes[2], IW = gi->sizes[3];                           \
        int64_t OH = g->sizes[2], OW = g->sizes[3];                                                              \
        T suph, supw, sh = scale_##SUF(IH, OH, ac, scales ? scales[0] : -1.0);                                   \
        T sw = scale_##SUF(IW, OW, ac, scales ? scales[1] : -1.0);                                               \
        int64_t th = taps_##SUF(sh, cubic, &suph), tw = taps_##SUF(sw, cubic, &supw);                            \
        T *wy = tsr_malloc((size_t)(th + tw) * sizeof *wy);                                                      \
        if (!wy) return -1;                                                                                      \
        T *wx = wy + th;                                                                                         \
        const T *gb = tsr_tensor_ptr(g, NULL);                                                                   \
        T *ib = tsr_tensor_ptr(gi, NULL);                                                                        \
        aa_span y, x;                                                                                            \
        for (int64_t oh = 0; oh < OH; oh++) {                                                                    \
            if (tsr_check_interrupt() < 0) {                                                                     \
                tsr_free(wy);                                                                                    \
                return -1;                                                                                       \
            }                                                                                                    \
            weights_##SUF(oh, IH, sh, suph, wy, th, cubic, &y);                                                  \
            for (int64_t ow = 0; ow < OW; ow++) {                                                                \
                weights_##SUF(ow, IW, sw, supw, wx, tw, cubic, &x);                                              \
                for (int64_t c = 0; c < C; c++) {                                                                \
                    T gv = gb[c * OH * OW + oh * OW + ow];                                                       \
                    for (int64_t a = 0; a < y.xsize; a++)                                                        \
                        for (int64_t b = 0; b < x.xsize; b++) {                                                  \
                            T *o = ib + c * IH * IW + (y.xmin + a) * IW + x.xmin + b;                            \
                            *o = FMA(wx[b] * wy[a], gv, *o);                                                     \
                        }                                                                                        \
                }                                                                                                \
            }                                                                                                    \
        }                                                                                                        \
        tsr_free(wy);                                                                                            \
        return 0;                                                                                                \
    }

AA_IMPL(f, float, fmaf, ceilf, 4)
AA_IMPL(d, double, fma, ceilf, 2)

#define AA_TAPS(SUF, T)                                                                                              \
    static int aa_taps_##SUF(int64_t in, int64_t out, double scale, bool ac, bool cubic, int64_t *taps, int64_t **idx, \
                             double **w)                                                                         \
    {                                                                                                            \
        T support, s = scale_##SUF(in, out, ac, scale);                                                          \
        int64_t n = taps_##SUF(s, cubic, &support);                                                              \
        T *wt = tsr_malloc((size_t)(n > 0 ? n : 1) * sizeof *wt);                                                \
        *idx = wt ? tsr_malloc((size_t)(out * n > 0 ? out * n : 1) * sizeof **idx) : NULL;                      \
        *w = *idx ? tsr_malloc((size_t)(out * n > 0 ? out * n : 1) * sizeof **w) : NULL;                        \
        if (!*w) {                                                                                               \
            tsr_free(wt), tsr_free(*idx);                                                                        \
            *idx = NULL;                                                                                         \
            return -1;                                                                                           \
        }                                                                                                        \
        for (int64_t i = 0; i < out; i++) {                                                                      \
            aa_span sp;                                                                                          \
            weights_##SUF(i, in, s, support, wt, n, cubic, &sp);                                                 \
            for (int64_t j = 0; j < n; j++) {                                                                    \
                int64_t k = j < sp.xsize ? sp.xmin + j : in - 1;                                                 \
                (*idx)[i * n + j] = k < in - 1 ? k : in - 1;                                                     \
                (*w)[i * n + j] = j < sp.xsize ? (double)wt[j] : 0.0;                                            \
            }                                                                                                    \
        }                                                                                                        \
        tsr_free(wt);                                                                                            \
        *taps = n;                                                                                               \
        return 0;                                                                                                \
    }
AA_TAPS(f, float)
AA_TAPS(d, double)

int tsr__upsample_aa_taps(int64_t in, int64_t out, double scale, bool ac, bool cubic, bool dbl, int64_t *taps,
                          int64_t **idx, double **w)
{
    return dbl ? aa_taps_d(in, out, scale, ac, cubic, taps, idx, w) : aa_taps_f(in, out, scale, ac, cubic, taps, idx, w);
}

static int aa_dtype_ok(tsr_dtype dt)
{
    if (dt == TSR_FLOAT32 || dt == TSR_FLOAT64) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "\"compute_indices_weights_aa\" not implemented for '%s'", tsr_dtype_scalar_name(dt));
    return -1;
}

tsr_tensor *tsr_nn_upsample_aa(const tsr_tensor *x, const int64_t *out, const double *scales, bool align_corners,
                               bool cubic)
{
    if (tsr__nn_upsample_check(x, out, false) < 0 || aa_dtype_ok(x->dtype) < 0) return NULL;
    if (tsr__interp_external(x))
        return tsr__upsample_dev(cubic ? TSR_INTERP_AA_CUBIC : TSR_INTERP_AA_LINEAR, x, out, scales, align_corners);
    /* bilinear keeps x's suggested memory format, bicubic is contiguous (1.13's outputs) */
    tsr_memory_format mf = cubic ? TSR_MF_CONTIGUOUS : tsr_tensor_suggest_memory_format(x);
    int64_t os[4] = {x->sizes[0], x->sizes[1], out[0], out[1]}, ts[4] = {x->sizes[0], x->sizes[1], x->sizes[2], out[1]};
    tsr_tensor *r = tsr_tensor_empty_format(4, os, x->dtype, x->device, mf);
    if (!r || tsr_tensor_is_meta(x) || tsr_tensor_numel(r) == 0) return r;
    tsr_tensor *xr = tsr_resolve_bits(x);
    tsr_tensor *tmp = xr ? tsr_tensor_empty_format(4, ts, x->dtype, x->device, tsr_tensor_suggest_memory_format(x)) : NULL;
    bool dbl = x->dtype == TSR_FLOAT64;
    double s0 = scales ? scales[0] : -1.0, s1 = scales ? scales[1] : -1.0;
    int rc = !tmp ? -1
           : dbl ? (pass_d(xr, tmp, 3, align_corners, s1, cubic) < 0 ? -1 : pass_d(tmp, r, 2, align_corners, s0, cubic))
                 : (pass_f(xr, tmp, 3, align_corners, s1, cubic) < 0 ? -1 : pass_f(tmp, r, 2, align_corners, s0, cubic));
    tsr_tensor_release(xr);
    tsr_tensor_release(tmp);
    if (rc < 0) tsr__take(&r, NULL);
    return r;
}

tsr_tensor *tsr_nn_upsample_aa_backward(const tsr_tensor *g, const int64_t *in_sizes, const double *scales,
                                        bool align_corners, bool cubic)
{
    if (aa_dtype_ok(g->dtype) < 0) return NULL;
    if (tsr__interp_external(g))
        return tsr__upsample_dev_backward(cubic ? TSR_INTERP_AA_CUBIC : TSR_INTERP_AA_LINEAR, g, in_sizes, scales,
                                          align_corners);
    tsr_tensor *gi = tsr_zeros(4, in_sizes, g->dtype, g->device);
    if (!gi || tsr_tensor_is_meta(g) || tsr_tensor_numel(gi) == 0) return gi;
    tsr_tensor *gc = tsr_contiguous(g, TSR_MF_CONTIGUOUS);
    int rc = !gc ? -1
           : g->dtype == TSR_FLOAT64 ? back_d(gc, gi, align_corners, scales, cubic)
                                     : back_f(gc, gi, align_corners, scales, cubic);
    tsr_tensor_release(gc);
    if (rc < 0) tsr__take(&gi, NULL);
    return gi;
}
