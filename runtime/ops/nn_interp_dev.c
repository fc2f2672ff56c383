/* runtime/ops/nn_interp_dev.c — F.interpolate's nearest, nearest-exact,
 * linear / bilinear / trilinear, bicubic and antialiased resampling on a device (cuda),
 * composed of device-aware ops. Every kind is separable: along each spatial
 * dim, last first, the output is sum over taps of index_select(y, dim,
 * index_t) * weight_t, the indices and weights depending on sizes only, so
 * built on the host as 1.13's CUDA kernels compute them (UpSample.cuh:
 * area_pixel_compute_scale / _source_index in the accumulate type, float
 * for float32 and the halves; the cubic coefficients with A = -0.75; the
 * W taps combined first, then H, then D, as the kernels' expressions nest).
 * antialias=True takes nn_interp_aa.c's taps and weights (each output's
 * window, padded to the widest with zero weights). Backward: the transposed
 * taps, index_add of grad * weight along each dim, the first dim first. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn_interp_dev.h"
#include "binary.h"
#include "copy.h"
#include "factory.h"
#include "indexdim.h"
#include "scatter.h"
#include "../device.h"
#include "../error.h"
#include "../internal.h"
#include "../view.h"

static tsr_tensor *take(tsr_tensor **t, tsr_tensor *r)
{
    tsr_tensor_release(*t);
    *t = r;
    return r;
}

/* The taps of one dim: n taps, each with out indices and weights. */
typedef struct {
    int n;
    int64_t **idx;
    double **w;   /* w[i] NULL for nearest */
} Taps;

static void taps_free(Taps *t)
{
    for (int i = 0; i < t->n && t->idx; i++) tsr_free(t->idx[i]);
    for (int i = 0; i < t->n && t->w; i++) tsr_free(t->w[i]);
    tsr_free(t->idx);
    tsr_free(t->w);
}

static int taps_alloc(Taps *t, int n, int64_t out, bool weights)
{
    t->n = n;
    if (!(t->idx = tsr_calloc((size_t)n, sizeof *t->idx)) || !(t->w = tsr_calloc((size_t)n, sizeof *t->w))) return -1;
    for (int i = 0; i < n; i++) {
        if (!(t->idx[i] = tsr_malloc((size_t)(out ? out : 1) * sizeof(int64_t)))) return -1;
        if (weights && !(t->w[i] = tsr_malloc((size_t)(out ? out : 1) * sizeof(double)))) return -1;
    }
    return 0;
}

/* area_pixel_compute_scale: in the accumulate type (f32: float) */
static double area_scale(int64_t in, int64_t out, bool ac, double scale, bool f32)
{
    if (ac) {
        if (out <= 1) return 0;
        return f32 ? (double)((float)(in - 1) / (float)(out - 1)) : (double)(in - 1) / (double)(out - 1);
    }
    if (scale > 0) return f32 ? (double)(float)(1.0 / scale) : 1.0 / scale;
    return f32 ? (double)((float)in / (float)out) : (double)in / (double)out;
}

/* area_pixel_compute_source_index */
static double source_index(double s, int64_t d, bool ac, bool cubic, bool f32)
{
    if (ac) return f32 ? (double)((float)s * (float)d) : s * (double)d;
    double src = f32 ? (double)((float)s * ((float)d + 0.5f) - 0.5f) : s * ((double)d + 0.5) - 0.5;
    return !cubic && src < 0 ? 0 : src;
}

static double cc1(double x, double A, bool f32)
{
    if (f32) {
        float fx = (float)x, fa = (float)A;
        return (double)(((fa + 2) * fx - (fa + 3)) * fx * fx + 1);
    }
    return ((A + 2) * x - (A + 3)) * x * x + 1;
}

static double cc2(double x, double A, bool f32)
{
    if (f32) {
        float fx = (float)x, fa = (float)A;
        return (double)(((fa * fx - 5 * fa) * fx + 8 * fa) * fx - 4 * fa);
    }
    return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
}

static int build_taps(tsr_interp_kind kind, int64_t in, int64_t out, double scale, bool ac, bool f32, Taps *t)
{
    memset(t, 0, sizeof *t);
    if (kind == TSR_INTERP_AA_LINEAR || kind == TSR_INTERP_AA_CUBIC) {   /* nn_interp_aa.c's weights */
        int64_t n, *iv = NULL;
        double *wv = NULL;
        int rc = tsr__upsample_aa_taps(in, out, scale, ac, kind == TSR_INTERP_AA_CUBIC, !f32, &n, &iv, &wv);
        if (rc == 0 && (rc = taps_alloc(t, (int)n, out, true)) == 0)
            for (int64_t d = 0; d < out; d++)
                for (int64_t j = 0; j < n; j++) t->idx[j][d] = iv[d * n + j], t->w[j][d] = wv[d * n + j];
        tsr_free(iv);
        tsr_free(wv);
        return rc;
    }
    if (taps_alloc(t, kind == TSR_INTERP_LINEAR ? 2 : kind == TSR_INTERP_CUBIC ? 4 : 1, out,
                   kind >= TSR_INTERP_LINEAR) < 0)
        return -1;
    if (kind == TSR_INTERP_NEAREST || kind == TSR_INTERP_NEAREST_EXACT) {
        /* compute_scales_value<float>, nearest_neighbor(_exact)_compute_source_index */
        float s = scale > 0 ? (float)(1.0 / scale) : (float)in / (float)out;
        for (int64_t d = 0; d < out; d++) {
            int64_t i = kind == TSR_INTERP_NEAREST_EXACT ? (int64_t)floorf(((float)d + 0.5f) * s)
                                                         : (int64_t)floorf((float)d * s);
            t->idx[0][d] = i < in - 1 ? i : in - 1;
        }
        return 0;
    }
    double s = area_scale(in, out, ac, scale, f32);
    for (int64_t d = 0; d < out; d++) {
        double src = source_index(s, d, ac, kind == TSR_INTERP_CUBIC, f32);
        if (kind == TSR_INTERP_LINEAR) {
            int64_t i0 = (int64_t)src, p = i0 < in - 1 ? 1 : 0;
            double l1 = f32 ? (double)((float)src - (float)i0) : src - (double)i0;
            double l0 = f32 ? (double)(1.0f - (float)l1) : 1.0 - l1;
            t->idx[0][d] = i0, t->idx[1][d] = i0 + p, t->w[0][d] = l0, t->w[1][d] = l1;
        } else {
            double fl = f32 ? (double)floorf((float)src) : floor(src);
            int64_t i0 = (int64_t)fl;
            double tt = f32 ? (double)((float)src - (float)fl) : src - fl, A = -0.75;
            double c[4] = {cc2(f32 ? (double)((float)tt + 1.0f) : tt + 1.0, A, f32), cc1(tt, A, f32),
                           cc1(f32 ? (double)(1.0f - (float)tt) : 1.0 - tt, A, f32),
                           cc2(f32 ? (double)((1.0f - (float)tt) + 1.0f) : (1.0 - tt) + 1.0, A, f32)};
            for (int k = 0; k < 4; k++) {
                int64_t j = i0 - 1 + k;
                t->idx[k][d] = j < 0 ? 0 : j > in - 1 ? in - 1 : j;   /* upsample_get_value_bounded */
                t->w[k][d] = c[k];
            }
        }
    }
    return 0;
}

static tsr_tensor *from_host(int64_t n, const int64_t *iv, const double *dv, tsr_dtype dt, tsr_device dev)
{
    tsr_tensor *h = tsr_tensor_empty(1, &n, iv ? TSR_INT64 : TSR_FLOAT64, TSR_CPU);
    if (!h) return NULL;
    if (n) memcpy(tsr_tensor_ptr(h, NULL), iv ? (const void *)iv : (const void *)dv, (size_t)n * 8);
    tsr_tensor *r = tsr_to_device(h, dev, dt, false);
    tsr_tensor_release(h);
    return r;
}

/* the weights of one dim as (out, 1, ...) for a tensor of nd dims at dim */
static tsr_tensor *weight_view(const double *w, int64_t out, int nd, int dim, tsr_dtype dt, tsr_device dev)
{
    tsr_tensor *t = from_host(out, NULL, w, dt, dev);
    int64_t sz[5];
    for (int i = 0; i < nd - dim; i++) sz[i] = 1;
    sz[0] = out;
    if (t) take(&t, tsr_view_view(t, nd - dim, sz));
    return t;
}

static tsr_tensor *mul_add(tsr_tensor *acc, const tsr_tensor *v, const tsr_tensor *w)
{
    tsr_operand ov = tsr_operand_tensor(v), ow = tsr_operand_tensor(w);
    tsr_tensor *p = tsr_binary(TSR_BINOP_MUL, &ov, &ow, NULL, NULL);
    if (!p || !acc) return p;
    tsr_operand oa = tsr_operand_tensor(acc), op = tsr_operand_tensor(p);
    tsr_tensor *r = tsr_binary(TSR_BINOP_ADD, &oa, &op, NULL, NULL);
    tsr_tensor_release(p);
    return r;
}

static bool dtype_ok(tsr_interp_kind kind, tsr_dtype d)
{
    if (kind >= TSR_INTERP_AA_LINEAR) return d == TSR_FLOAT32 || d == TSR_FLOAT64;
    if (d == TSR_FLOAT32 || d == TSR_FLOAT64 || d == TSR_FLOAT16 || d == TSR_BFLOAT16) return true;
    return d == TSR_UINT8 && kind <= TSR_INTERP_NEAREST_EXACT;
}

static const char *kernel_name(tsr_interp_kind kind, int k, bool back, char *buf, size_t n)
{
    static const char *const lin[4] = {NULL, "upsample_linear1d", "upsample_bilinear2d", "upsample_trilinear3d"};
    if (kind >= TSR_INTERP_AA_LINEAR) snprintf(buf, n, "compute_indices_weights_aa");
    else if (kind == TSR_INTERP_CUBIC) snprintf(buf, n, "upsample_bicubic2d%s_out_frame", back ? "_backward" : "");
    else if (kind == TSR_INTERP_LINEAR) snprintf(buf, n, "%s%s_out_frame", lin[k], back ? "_backward" : "");
    else snprintf(buf, n, "upsample_nearest%dd%s_out_frame", k, back ? "_backward" : "");
    return buf;
}

tsr_tensor *tsr__upsample_dev(tsr_interp_kind kind, const tsr_tensor *x, const int64_t *out, const double *scales,
                              bool align_corners)
{
    int k = x->ndim - 2;
    char b[64];
    if (!dtype_ok(kind, x->dtype)) {
        tsr__not_implemented(kernel_name(kind, k, false, b, sizeof b), x->dtype);
        return NULL;
    }
    bool nearest = kind <= TSR_INTERP_NEAREST_EXACT, f32 = x->dtype != TSR_FLOAT64;
    tsr_dtype acc = nearest ? x->dtype : f32 ? TSR_FLOAT32 : TSR_FLOAT64;
    tsr_memory_format mf = tsr_tensor_suggest_memory_format(x);
    tsr_tensor *y = tsr_to_dtype(x, acc, false);
    for (int i = k - 1; y && i >= 0; i--) {
        int dim = 2 + i;
        Taps t;
        tsr_tensor *sum = NULL;
        if (build_taps(kind, x->sizes[dim], out[i], scales ? scales[i] : -1.0, align_corners, f32, &t) == 0) {
            bool ok = true;
            for (int j = 0; ok && j < t.n; j++) {
                tsr_tensor *ix = from_host(out[i], t.idx[j], NULL, TSR_INT64, x->device);
                tsr_tensor *g = ix ? tsr_index_select(y, dim, ix) : NULL, *w = NULL;
                if (nearest) take(&sum, tsr_tensor_retain(g));
                else if (g && (w = weight_view(t.w[j], out[i], y->ndim, dim, acc, x->device))) take(&sum, mul_add(sum, g, w));
                else take(&sum, NULL);
                ok = sum != NULL;
                tsr_tensor_release(ix);
                tsr_tensor_release(g);
                tsr_tensor_release(w);
            }
        }
        taps_free(&t);
        take(&y, sum);
    }
    if (y && !nearest) take(&y, tsr_to_dtype(y, x->dtype, false));
    if (y) take(&y, tsr_contiguous(y, kind == TSR_INTERP_AA_CUBIC ? TSR_MF_CONTIGUOUS : mf));
    return y;
}

tsr_tensor *tsr__upsample_dev_backward(tsr_interp_kind kind, const tsr_tensor *g, const int64_t *in_sizes,
                                       const double *scales, bool align_corners)
{
    int k = g->ndim - 2;
    char b[64];
    if (!dtype_ok(kind, g->dtype) || g->dtype == TSR_UINT8) {
        tsr__not_implemented(kernel_name(kind, k, true, b, sizeof b), g->dtype);
        return NULL;
    }
    bool nearest = kind <= TSR_INTERP_NEAREST_EXACT, f32 = g->dtype != TSR_FLOAT64;
    tsr_dtype acc = f32 ? TSR_FLOAT32 : TSR_FLOAT64;
    tsr_tensor *y = tsr_to_dtype(g, acc, false);
    int64_t sz[5];
    memcpy(sz, g->sizes, sizeof(int64_t) * (size_t)g->ndim);
    for (int i = 0; y && i < k; i++) {
        int dim = 2 + i;
        Taps t;
        sz[dim] = in_sizes[dim];
        tsr_tensor *z = NULL;
        if (build_taps(kind, in_sizes[dim], g->sizes[dim], scales ? scales[i] : -1.0, align_corners, f32, &t) == 0 &&
            (z = tsr_zeros(g->ndim, sz, acc, g->device))) {
            for (int j = 0; z && j < t.n; j++) {
                tsr_tensor *ix = from_host(g->sizes[dim], t.idx[j], NULL, TSR_INT64, g->device), *w = NULL, *src = NULL;
                tsr_operand oy = tsr_operand_tensor(y), ow;
                if (ix && nearest) src = tsr_tensor_retain(y);
                else if (ix && (w = weight_view(t.w[j], g->sizes[dim], y->ndim, dim, acc, g->device))) {
                    ow = tsr_operand_tensor(w);
                    src = tsr_binary(TSR_BINOP_MUL, &oy, &ow, NULL, NULL);
                }
                if (!src || tsr_index_add_(z, dim, ix, src, tsr_scalar_int(1)) < 0) take(&z, NULL);
                tsr_tensor_release(ix);
                tsr_tensor_release(w);
                tsr_tensor_release(src);
            }
        }
        taps_free(&t);
        take(&y, z);
    }
    if (y) take(&y, tsr_to_dtype(y, g->dtype, false));
    if (y) take(&y, tsr_contiguous(y, TSR_MF_CONTIGUOUS));
    return y;
}
