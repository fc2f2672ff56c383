/* runtime/ops/nn_interp.c — nearest upsampling (UpSample.h's
 * nearest_neighbor_compute_source_index and nearest_neighbor_exact_...,
 * with compute_scales_value<float>): the source index of output index d is
 * min(floorf(d * s), in - 1) (exact: floorf((d + 0.5f) * s)), s the float
 * (float)(1.0 / scale) when a scale is given, else (float)in / out. Nearest
 * is a gather, so one byte-copying body serves every dtype. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "ops/copy.h"
#include "ops/nn_interp.h"
#include "ops/nn_interp_dev.h"

static float nearest_scale(int64_t in, int64_t out, double scale)
{
    return scale > 0 ? (float)(1.0 / scale) : (float)in / (float)out;
}

static int64_t nearest_src(int64_t d, float s, int64_t in, bool exact)
{
    int64_t i = exact ? (int64_t)floorf(((float)d + 0.5f) * s) : (int64_t)floorf((float)d * s);
    return i < in - 1 ? i : in - 1;
}

/* the dtypes 1.13's CPU nearest kernels dispatch (compute_indices_weights_nearest:
 * FLOATING_TYPES_AND2(Byte, BFloat16); Half refuses on the CPU) */
static bool nearest_dtype_ok(tsr_dtype d)
{
    return d == TSR_FLOAT32 || d == TSR_FLOAT64 || d == TSR_BFLOAT16 || d == TSR_UINT8;
}

/* the checks every upsample kernel makes first (upsample_Nd_common_check) */
int tsr__nn_upsample_check(const tsr_tensor *x, const int64_t *out, bool and_output)
{
    int k = x->ndim - 2;
    if (k < 1 || k > 3) {
        tsr_error_set(TSR_ERR_RUNTIME, "It is expected input_size equals to %d, but got size %d", k < 1 ? 3 : 5, x->ndim);
        return -1;
    }
    int64_t inner = 1;
    for (int i = 1; i < x->ndim; i++) inner *= x->sizes[i];
    if (tsr_tensor_numel(x) == 0 && inner == 0) {
        char buf[256];
        int n = 0;
        for (int i = 0; i < x->ndim; i++)
            n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%lld", i ? ", " : "", (long long)x->sizes[i]);
        tsr_error_set(TSR_ERR_RUNTIME, "Non-empty %dD data tensor expected but got a tensor with sizes [%s]", x->ndim, buf);
        return -1;
    }
    for (int i = 0; i < k; i++)
        if (x->sizes[2 + i] <= 0 || out[i] <= 0) {
            static const char *ax[3][3] = {{"W"}, {"H", "W"}, {"D", "H", "W"}};
            char a[128] = "", b[128] = "";
            int na = 0, nb = 0;
            for (int j = 0; j < k; j++) {
                na += snprintf(a + na, sizeof a - (size_t)na, "%s%s: %lld", j ? ", " : "", ax[k - 1][j], (long long)x->sizes[2 + j]);
                nb += snprintf(b + nb, sizeof b - (size_t)nb, "%s%s: %lld", j ? ", " : "", ax[k - 1][j], (long long)out[j]);
            }
            tsr_error_set(TSR_ERR_RUNTIME, "Input and output sizes should be greater than 0, but got input (%s) %soutput (%s)", a,
                          and_output ? "and " : "", b);
            return -1;
        }
    return 0;
}

tsr_tensor *tsr_nn_upsample_nearest(const tsr_tensor *x, const int64_t *out, const double *scales, bool exact)
{
    int k = x->ndim - 2;
    if (tsr__nn_upsample_check(x, out, false) < 0) return NULL;
    if (tsr__interp_external(x))
        return tsr__upsample_dev(exact ? TSR_INTERP_NEAREST_EXACT : TSR_INTERP_NEAREST, x, out, scales, false);
    if (!nearest_dtype_ok(x->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"compute_indices_weights_nearest\" not implemented for '%s'",
                      tsr_dtype_scalar_name(x->dtype));
        return NULL;
    }
    int64_t os[5];
    os[0] = x->sizes[0], os[1] = x->sizes[1];
    for (int i = 0; i < k; i++) os[2 + i] = out[i];
    tsr_memory_format mf = tsr_tensor_suggest_memory_format(x);
    tsr_tensor *r = tsr_tensor_empty_format(x->ndim, os, x->dtype, x->device, mf);
    if (!r || tsr_tensor_is_meta(x)) return r;
    tsr_tensor *xr = tsr_resolve_bits(x);
    if (!xr) {
        tsr_tensor_release(r);
        return NULL;
    }
    /* per-dimension source offsets (in bytes) of every output index */
    int isz = tsr_tensor_itemsize(x);
    int64_t *src[3] = {NULL, NULL, NULL}, total = 0;
    for (int i = 0; i < k; i++) total += out[i];
    int64_t *buf = tsr_malloc((size_t)total * sizeof *buf);
    if (!buf) {
        tsr_tensor_release(xr);
        tsr_tensor_release(r);
        return NULL;
    }
    for (int i = 0, o = 0; i < k; o += (int)out[i], i++) {
        src[i] = buf + o;
        float s = nearest_scale(x->sizes[2 + i], out[i], scales ? scales[i] : -1.0);
        for (int64_t d = 0; d < out[i]; d++) src[i][d] = nearest_src(d, s, x->sizes[2 + i], exact) * xr->strides[2 + i] * isz;
    }
    const char *xb = tsr_tensor_ptr(xr, NULL);
    char *rb = tsr_tensor_ptr(r, NULL);
    int64_t d0 = k >= 3 ? out[0] : 1, d1 = k >= 2 ? out[k - 2] : 1, d2 = out[k - 1];
    int64_t rs0 = k >= 3 ? r->strides[2] : 0, rs1 = k >= 2 ? r->strides[x->ndim - 2] : 0, rs2 = r->strides[x->ndim - 1];
    int failed = 0;
    for (int64_t n = 0; n < os[0] && !failed; n++)
        for (int64_t c = 0; c < os[1]; c++) {
            if (tsr_check_interrupt() < 0) {
                failed = 1;
                break;
            }
            const char *xp = xb + (n * xr->strides[0] + c * xr->strides[1]) * isz;
            char *rp = rb + (n * r->strides[0] + c * r->strides[1]) * isz;
            for (int64_t a = 0; a < d0; a++)
                for (int64_t b = 0; b < d1; b++) {
                    const char *xq = xp + (k >= 3 ? src[0][a] : 0) + (k >= 2 ? src[k - 2][b] : 0);
                    char *rq = rp + (a * rs0 + b * rs1) * isz;
                    for (int64_t e = 0; e < d2; e++) memcpy(rq + e * rs2 * isz, xq + src[k - 1][e], (size_t)isz);
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

tsr_tensor *tsr_nn_upsample_nearest_backward(const tsr_tensor *g, const int64_t *in_sizes, const double *scales,
                                             bool exact)
{
    int nd = g->ndim, k = nd - 2;
    if (tsr__interp_external(g) && k >= 1 && k <= 3)
        return tsr__upsample_dev_backward(exact ? TSR_INTERP_NEAREST_EXACT : TSR_INTERP_NEAREST, g, in_sizes, scales,
                                          false);
    if (k < 1 || k > 3 || (g->dtype != TSR_FLOAT32 && g->dtype != TSR_FLOAT64 && g->dtype != TSR_BFLOAT16)) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"upsample_nearest_backward\" not implemented for '%s'", tsr_dtype_scalar_name(g->dtype));
        return NULL;
    }
    tsr_tensor *r = tsr_tensor_empty(nd, in_sizes, g->dtype, g->device);
    if (!r || tsr_tensor_is_meta(g)) return r;
    tsr_tensor *gc = tsr_contiguous(g, TSR_MF_CONTIGUOUS);
    tsr_tensor *gr = gc ? tsr_resolve_bits(gc) : NULL;
    tsr_tensor_release(gc);
    if (!gr) {
        tsr_tensor_release(r);
        return NULL;
    }
    int64_t ins[3] = {1, 1, 1}, outs[3] = {1, 1, 1};
    for (int i = 0; i < k; i++) ins[3 - k + i] = in_sizes[2 + i], outs[3 - k + i] = g->sizes[2 + i];
    float s[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        int j = i - (3 - k);
        s[i] = j < 0 ? 1.0f : nearest_scale(ins[i], outs[i], scales ? scales[j] : -1.0);
    }
    int64_t planes = in_sizes[0] * in_sizes[1], isz = ins[0] * ins[1] * ins[2], osz = outs[0] * outs[1] * outs[2];
    int64_t rn = tsr_tensor_numel(r);
    int failed = 0;
    void *rp = tsr_tensor_ptr(r, NULL);
    const void *gp = tsr_tensor_ptr(gr, NULL);
    if (rn) memset(rp, 0, (size_t)rn * (size_t)tsr_tensor_itemsize(r));
    for (int64_t p = 0; p < planes && !failed; p++) {
        if (tsr_check_interrupt() < 0) {
            failed = 1;
            break;
        }
        for (int64_t a = 0; a < outs[0]; a++) {
            int64_t ia = nearest_src(a, s[0], ins[0], exact);
            for (int64_t b = 0; b < outs[1]; b++) {
                int64_t ib = nearest_src(b, s[1], ins[1], exact);
                for (int64_t e = 0; e < outs[2]; e++) {
                    int64_t ie = nearest_src(e, s[2], ins[2], exact);
                    int64_t ri = p * isz + (ia * ins[1] + ib) * ins[2] + ie, gi = p * osz + (a * outs[1] + b) * outs[2] + e;
                    switch (g->dtype) {
                    case TSR_FLOAT32: ((float *)rp)[ri] += ((const float *)gp)[gi]; break;
                    case TSR_FLOAT64: ((double *)rp)[ri] += ((const double *)gp)[gi]; break;
                    default:
                        ((tsr_bfloat16 *)rp)[ri] = tsr_float_to_bfloat16(tsr_bfloat16_to_float(((tsr_bfloat16 *)rp)[ri]) +
                                                                         tsr_bfloat16_to_float(((const tsr_bfloat16 *)gp)[gi]));
                    }
                }
            }
        }
    }
    tsr_tensor_release(gr);
    if (failed) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}
