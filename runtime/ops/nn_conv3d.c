/* runtime/ops/nn_conv3d.c — the 3-d convolution backends of 1.13's
 * Convolution.cpp: Mkldnn for float32 (use_mkldnn, the 5-D oneDNN primitive
 * of nn_dnnl.c), Slow3d (ConvolutionMM3d.cpp: Unfold3dCopyCPU columns
 * [C*kT*kH*kW][P] and one cpublas::gemm per batch element, beta 1 over the
 * copied bias), SlowDilated3d (NaiveDilatedConvolution.cpp: the same
 * columns with dilation, output zeroed or filled with the bias, beta 1) and
 * SlowTranspose3d (ConvTranspose3d.cpp: gemm, col2vol into the zeroed
 * output, then the bias). groups > 1 runs each group alone, as
 * _convolution_nogroup_backend does; every output is contiguous. Their
 * backward (ConvolutionBackward0) uses the same gemms, col2vol in
 * Unfold3dAccCPU's order and grad_output.sum({0, 2, 3, 4}) for the bias
 * (per batch element for the dilated backend). */
#include <string.h>

#include "nn_conv.h"
#include "nn_dnnl.h"
#include "binary.h"
#include "blas.h"
#include "copy.h"
#include "factory.h"
#include "reduce.h"
#include "../error.h"
#include "../internal.h"
#include "../iter.h"
#include "../view.h"

bool tsr__conv3d_use_mkldnn(const tsr_tensor *x, const tsr_tensor *w, const int64_t *stride, const int64_t *dil,
                            int64_t groups)
{
    if (x->dtype == TSR_BFLOAT16 && tsr__dnnl_bf16_usable()) return true;   /* mkldnn_bf16_device_check() */
    if (x->dtype != TSR_FLOAT32) return false;
    bool strided = false, dilated = false;
    for (int i = 0; i < 3; i++) strided |= stride[i] != 1, dilated |= dil[i] != 1;
    int64_t kh = w->sizes[3], kw = w->sizes[4], n = x->sizes[0];
    bool c1 = strided || dilated || n >= 16 || kw != 1 || kh != 1 || tsr_get_num_threads() > 1;
    bool c2 = groups > 1 || (kw > 3 && kh > 3) || n > 1 || n * x->sizes[1] * x->sizes[2] * x->sizes[3] > 20480;
    return c1 && c2;
}

/* vol2col of one batch element and group: src contiguous [C][T][H][W];
 * dst [C*kT*kH*kW][OT*OH*OW], zeros in the padding. */
static void unfold3d(char *dst, const char *src, int isz, int64_t C, const int64_t *I, const int64_t *k,
                     const int64_t *st, const int64_t *pd, const int64_t *dl, const int64_t *O)
{
    int64_t P = O[0] * O[1] * O[2];
    for (int64_t c = 0; c < C; c++)
        for (int64_t a = 0; a < k[0]; a++)
            for (int64_t b = 0; b < k[1]; b++)
                for (int64_t e = 0; e < k[2]; e++) {
                    char *row = dst + (((c * k[0] + a) * k[1] + b) * k[2] + e) * P * isz;
                    for (int64_t t = 0; t < O[0]; t++) {
                        int64_t it = t * st[0] - pd[0] + a * dl[0];
                        for (int64_t y = 0; y < O[1]; y++) {
                            int64_t iy = y * st[1] - pd[1] + b * dl[1];
                            for (int64_t x = 0; x < O[2]; x++) {
                                int64_t ix = x * st[2] - pd[2] + e * dl[2];
                                char *d = row + ((t * O[1] + y) * O[2] + x) * isz;
                                if (it < 0 || it >= I[0] || iy < 0 || iy >= I[1] || ix < 0 || ix >= I[2])
                                    memset(d, 0, (size_t)isz);
                                else
                                    memcpy(d, src + ((c * I[0] + it) * I[1] + iy) * I[2] * isz + ix * isz, (size_t)isz);
                            }
                        }
                    }
                }
}

static tsr_scalar num(tsr_dtype dt, int v)
{
    return tsr_dtype_is_floating(dt) ? tsr_scalar_float(v) : tsr_scalar_int(v);
}

/* out = conv3d(x, w) (+ bias) by columns and gemm, x and out contiguous */
static int slow3d(tsr_tensor *out, const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias, const int64_t *st,
                  const int64_t *pd, const int64_t *dl, int64_t groups, bool dilated)
{
    tsr_dtype dt = x->dtype;
    int64_t N = x->sizes[0], C = x->sizes[1], O = w->sizes[0], Cg = C / groups, Og = O / groups;
    const int64_t *I = x->sizes + 2, *k = w->sizes + 2, *OS = out->sizes + 2;
    int64_t P = OS[0] * OS[1] * OS[2], K = Cg * k[0] * k[1] * k[2], IV = I[0] * I[1] * I[2];
    int isz = tsr_dtype_itemsize(dt);
    if (bias) {
        int64_t bs[4] = {O, 1, 1, 1};
        tsr_tensor *bv = tsr_view_view(bias, 4, bs), *be = bv ? tsr_view_expand(bv, 5, out->sizes) : NULL;
        int rc = be ? tsr_copy_(out, be) : -1;
        tsr_tensor_release(bv);
        tsr_tensor_release(be);
        if (rc < 0) return -1;
    } else if (dilated && tsr_fill_(out, num(dt, 0)) < 0) {
        return -1;
    }
    bool beta1 = bias || dilated;
    tsr_tensor *wc = tsr_contiguous(w, TSR_MF_CONTIGUOUS), *xc = wc ? tsr_contiguous(x, TSR_MF_CONTIGUOUS) : NULL;
    int64_t kp = K * P;
    tsr_tensor *colt = xc ? tsr_tensor_empty(1, &kp, dt, x->device) : NULL;
    int rc = -1;
    if (!colt) goto done;
    char *cols = tsr_tensor_ptr(colt, NULL), *ob = tsr_tensor_ptr(out, NULL);
    const char *xb = tsr_tensor_ptr(xc, NULL), *wb = tsr_tensor_ptr(wc, NULL);
    for (int64_t n = 0; n < N; n++) {
        if (tsr_check_interrupt() < 0) goto done;
        for (int64_t g = 0; g < groups; g++) {
            unfold3d(cols, xb + (n * C + g * Cg) * IV * isz, isz, Cg, I, k, st, pd, dl, OS);
            tsr_gemm(dt, false, false, P, Og, K, num(dt, 1), cols, P, wb + g * Og * K * isz, K,
                     num(dt, beta1 ? 1 : 0), ob + (n * O + g * Og) * P * isz, P);
        }
    }
    rc = 0;
done:
    tsr_tensor_release(colt);
    tsr_tensor_release(wc);
    tsr_tensor_release(xc);
    return rc;
}

tsr_tensor *tsr__conv3d_forward(const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias, const int64_t *st,
                                const int64_t *pd, const int64_t *dl, int64_t groups)
{
    char b1[256];
    if (dl[0] <= 0 || dl[1] <= 0 || dl[2] <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "non-positive dilation is not supported");
        return NULL;
    }
    int64_t osz[5] = {x->sizes[0], w->sizes[0], 0, 0, 0};
    for (int i = 0; i < 3; i++)
        osz[i + 2] = (x->sizes[i + 2] + 2 * pd[i] - dl[i] * (w->sizes[i + 2] - 1) - 1) / st[i] + 1;
    if (x->sizes[0] == 0 || x->sizes[1] == 0) {   /* ConvBackend::Empty */
        if (tsr_tensor_numel(w) == 0) osz[1] = 0;
        return tsr_tensor_empty(5, osz, x->dtype, x->device);
    }
    if (tsr_tensor_numel(x) == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "Only zero batch or zero channel inputs are supported, but got input shape: %s",
                      tsr__fmt_list(b1, sizeof b1, x->ndim, x->sizes));
        return NULL;
    }
    if (tsr__conv_external(x)) {
        int64_t op[3] = {0, 0, 0};
        return tsr__conv_dev(x, w, bias, 3, st, pd, dl, op, groups, false);
    }
    bool mkldnn = tsr__conv3d_use_mkldnn(x, w, st, dl, groups), dilated = dl[0] != 1 || dl[1] != 1 || dl[2] != 1;
    tsr_dtype d = x->dtype;
    if (mkldnn) {
        if (w->dtype != d || (bias && bias->dtype != d)) {
            bool wb = w->dtype != d;
            char b1[64], b2[64];
            tsr_error_set(TSR_ERR_RUNTIME, "Input type (%s) and %s type (%s) should be the same or input should be a "
                          "MKLDNN tensor and %s is a dense tensor", tsr_dtype_aten_type_string(d, b1, sizeof b1),
                          wb ? "weight" : "bias", tsr_dtype_aten_type_string(wb ? w->dtype : bias->dtype, b2, sizeof b2),
                          wb ? "weight" : "bias");
            return NULL;
        }
    } else {
        bool ok = dilated ? d == TSR_FLOAT32 || d == TSR_FLOAT64 || d == TSR_INT64 || d == TSR_BFLOAT16
                          : d != TSR_BOOL && d != TSR_FLOAT16 && d != TSR_COMPLEX32;
        if (!ok) {
            tsr__not_implemented(dilated ? "slow_conv_dilated<>" : "compute_columns3d", d);
            return NULL;
        }
        if (w->dtype != d) {
            tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(d),
                          tsr_dtype_scalar_name(w->dtype));
            return NULL;
        }
    }
    tsr_tensor *out = tsr_tensor_empty(5, osz, d, x->device);
    if (!out || tsr_tensor_is_meta(out)) return out;
    int dn = mkldnn ? tsr__conv2d_dnnl(out, x, w, bias, st, pd, dl, groups, false) : 1;   /* 1: not taken */
    if (dn < 0 || (dn > 0 && slow3d(out, x, w, bias, st, pd, dl, groups, dilated) < 0)) {
        tsr_tensor_release(out);
        return NULL;
    }
    return out;
}

/* *d += *s in dt */
static void acc(tsr_dtype dt, char *d, const char *s)
{
    switch (dt) {
    case TSR_FLOAT32: *(float *)d += *(const float *)s; break;
    case TSR_FLOAT64: *(double *)d += *(const double *)s; break;
    default: *(int64_t *)d += *(const int64_t *)s; break;
    }
}

tsr_tensor *tsr__conv_transpose3d_forward(const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias,
                                          const int64_t *st, const int64_t *pd, const int64_t *dl, const int64_t *op,
                                          int64_t groups)
{
    int64_t osz[5] = {x->sizes[0], w->sizes[1] * groups, 0, 0, 0};
    for (int i = 0; i < 3; i++)
        osz[i + 2] = (x->sizes[i + 2] - 1) * st[i] - 2 * pd[i] + (dl[i] * (w->sizes[i + 2] - 1) + 1) + op[i];
    if (x->sizes[0] == 0 || x->sizes[1] == 0) return tsr_tensor_empty(5, osz, x->dtype, x->device);
    /* slow_conv_transpose3d_shape_check */
    if (dl[0] <= 0 || dl[1] <= 0 || dl[2] <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "dilation should be greater than zero, but got dilation_depth: %lld, "
                      "dilation_height: %lld, dilation_width: %lld", (long long)dl[0], (long long)dl[1],
                      (long long)dl[2]);
        return NULL;
    }
    bool opok = true;
    for (int i = 0; i < 3; i++) opok &= op[i] < st[i] || op[i] < dl[i];
    if (!opok) {
        tsr_error_set(TSR_ERR_RUNTIME, "output padding must be smaller than either stride or dilation, but got "
                      "output_padding_depth: %lld output_padding_height: %lld output_padding_width: %lld "
                      "stride_depth: %lld stride_height: %lld stride_width: %lld dilation_depth: %lld "
                      "dilation_height: %lld dilation_width: %lld", (long long)op[0], (long long)op[1],
                      (long long)op[2], (long long)st[0], (long long)st[1], (long long)st[2], (long long)dl[0],
                      (long long)dl[1], (long long)dl[2]);
        return NULL;
    }
    if (osz[2] < 1 || osz[3] < 1 || osz[4] < 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "Given input size per channel: (%lld x %lld x %lld). Calculated output size per "
                      "channel: (%lld x %lld x %lld). Output size is too small", (long long)x->sizes[2],
                      (long long)x->sizes[3], (long long)x->sizes[4], (long long)osz[2], (long long)osz[3],
                      (long long)osz[4]);
        return NULL;
    }
    if (tsr__conv_external(x)) return tsr__conv_dev(x, w, bias, 3, st, pd, dl, op, groups, true);
    tsr_dtype dt = x->dtype;
    if (dt != TSR_FLOAT32 && dt != TSR_FLOAT64 && dt != TSR_INT64) {
        tsr__not_implemented("slow_conv_transpose3d_out_cpu", dt);
        return NULL;
    }
    const tsr_tensor *ps[2] = {w, bias};
    for (int i = 0; i < 2; i++)
        if (ps[i] && ps[i]->dtype != dt) {
            tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(dt),
                          tsr_dtype_scalar_name(ps[i]->dtype));
            return NULL;
        }
    tsr_tensor *out = tsr_tensor_empty(5, osz, dt, x->device);
    if (!out || tsr_tensor_is_meta(out)) return out;
    tsr_tensor *xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS), *wc = xc ? tsr_contiguous(w, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *bc = wc && bias ? tsr_contiguous(bias, TSR_MF_CONTIGUOUS) : NULL, *colt = NULL;
    int64_t N = x->sizes[0], Cin = x->sizes[1], Cg = Cin / groups, Og = w->sizes[1], O = Og * groups;
    const int64_t *I = x->sizes + 2, *k = w->sizes + 2, *OS = osz + 2;
    int64_t P = I[0] * I[1] * I[2], M = Og * k[0] * k[1] * k[2], OV = OS[0] * OS[1] * OS[2], mp = M * P;
    int isz = tsr_dtype_itemsize(dt);
    if (!wc || (bias && !bc) || tsr_fill_(out, num(dt, 0)) < 0 || !(colt = tsr_tensor_empty(1, &mp, dt, x->device)))
        goto fail;
    char *cols = tsr_tensor_ptr(colt, NULL), *ob = tsr_tensor_ptr(out, NULL);
    const char *xb = tsr_tensor_ptr(xc, NULL), *wb = tsr_tensor_ptr(wc, NULL);
    for (int64_t n = 0; n < N; n++) {
        if (tsr_check_interrupt() < 0) goto fail;
        for (int64_t g = 0; g < groups; g++) {
            tsr_gemm(dt, false, true, P, M, Cg, num(dt, 1), xb + (n * Cin + g * Cg) * P * isz, P,
                     wb + g * Cg * M * isz, M, num(dt, 0), cols, P);
            char *o = ob + (n * O + g * Og) * OV * isz;
            for (int64_t c = 0; c < M; c++) {   /* col2vol */
                int64_t we = c % k[2], he = (c / k[2]) % k[1], te = (c / k[2] / k[1]) % k[0], cv = c / k[0] / k[1] / k[2];
                for (int64_t t = 0; t < I[0]; t++) {
                    int64_t ti = t * st[0] - pd[0] + te * dl[0];
                    if (ti < 0 || ti >= OS[0]) continue;
                    for (int64_t h = 0; h < I[1]; h++) {
                        int64_t hi = h * st[1] - pd[1] + he * dl[1];
                        if (hi < 0 || hi >= OS[1]) continue;
                        for (int64_t wq = 0; wq < I[2]; wq++) {
                            int64_t wi = wq * st[2] - pd[2] + we * dl[2];
                            if (wi < 0 || wi >= OS[2]) continue;
                            acc(dt, o + (((cv * OS[0] + ti) * OS[1] + hi) * OS[2] + wi) * isz,
                                cols + (c * P + (t * I[1] + h) * I[2] + wq) * isz);
                        }
                    }
                }
            }
            if (bc) {
                const char *bb = (const char *)tsr_tensor_ptr(bc, NULL) + g * Og * isz;
                for (int64_t c = 0; c < Og; c++)
                    for (int64_t q = 0; q < OV; q++) acc(dt, o + (c * OV + q) * isz, bb + c * isz);
            }
        }
    }
    tsr_tensor_release(colt);
    tsr_tensor_release(xc);
    tsr_tensor_release(wc);
    tsr_tensor_release(bc);
    return out;
fail:
    tsr_tensor_release(colt);
    tsr_tensor_release(xc);
    tsr_tensor_release(wc);
    tsr_tensor_release(bc);
    tsr_tensor_release(out);
    return NULL;
}

/* ------------------------------------------------------------ backward */

/* *d += *s in dt (bfloat16: c10::BFloat16's float add, rounded) */
static void acc_grad(tsr_dtype dt, char *d, const char *s)
{
    if (dt == TSR_BFLOAT16) {
        tsr_bfloat16 *p = (tsr_bfloat16 *)d;
        *p = tsr_float_to_bfloat16(tsr_bfloat16_to_float(*p) + tsr_bfloat16_to_float(*(const tsr_bfloat16 *)s));
    } else {
        acc(dt, d, s);
    }
}

/* Unfold3dAccCPU / col2hvol: cols [C*kT*kH*kW][O volume] summed into the
 * zeroed dst [C][I volume] in channel, kernel, output position order */
static void fold3d(tsr_dtype dt, char *dst, const char *cols, int64_t C, const int64_t *I, const int64_t *k,
                   const int64_t *st, const int64_t *pd, const int64_t *dl, const int64_t *O)
{
    int isz = tsr_dtype_itemsize(dt);
    int64_t P = O[0] * O[1] * O[2];
    for (int64_t c = 0; c < C; c++)
        for (int64_t a = 0; a < k[0]; a++)
            for (int64_t b = 0; b < k[1]; b++)
                for (int64_t e = 0; e < k[2]; e++) {
                    const char *row = cols + (((c * k[0] + a) * k[1] + b) * k[2] + e) * P * isz;
                    for (int64_t t = 0; t < O[0]; t++) {
                        int64_t it = t * st[0] - pd[0] + a * dl[0];
                        if (it < 0 || it >= I[0]) continue;
                        for (int64_t y = 0; y < O[1]; y++) {
                            int64_t iy = y * st[1] - pd[1] + b * dl[1];
                            if (iy < 0 || iy >= I[1]) continue;
                            for (int64_t x = 0; x < O[2]; x++) {
                                int64_t ix = x * st[2] - pd[2] + e * dl[2];
                                if (ix >= 0 && ix < I[2])
                                    acc_grad(dt, dst + (((c * I[0] + it) * I[1] + iy) * I[2] + ix) * isz,
                                             row + ((t * O[1] + y) * O[2] + x) * isz);
                            }
                        }
                    }
                }
}

static tsr_tensor *zeros5(const int64_t *sizes, int nd, tsr_dtype dt, tsr_device dev)
{
    tsr_tensor *t = tsr_tensor_empty(nd, sizes, dt, dev);
    if (t && tsr_fill_(t, num(dt, 0)) < 0) {
        tsr_tensor_release(t);
        t = NULL;
    }
    return t;
}

/* grad_bias: grad_output.sum({0, 2, 3, 4}) per group (each group's slice
 * made contiguous, as subtensor() hands it to the backends), or for the dilated
 * backend grad_bias += grad_output[n].sum({1, 2, 3}) per batch element */
static tsr_tensor *bias_grad(const tsr_tensor *g, int64_t groups, bool dilated)
{
    int64_t O = g->sizes[1], Og = O / groups;
    tsr_tensor *gb = NULL;
    for (int64_t q = 0; q < groups; q++) {
        /* one group, not dilated: grad_output as it came (at::sum_out); else a contiguous slice */
        tsr_tensor *v = tsr_view_narrow(g, 1, q * Og, Og), *s = NULL;
        tsr_tensor *gc = !v ? NULL : groups == 1 && !dilated ? tsr_tensor_retain(v) : tsr_contiguous(v, TSR_MF_CONTIGUOUS);
        if (gc && !dilated) {
            tsr_dims dims = {.n = 4, .d = {0, 2, 3, 4}};
            s = tsr_sum(gc, &dims, false, TSR_DTYPE_UNDEFINED, NULL);
        } else if (gc && (s = zeros5(&Og, 1, g->dtype, g->device))) {
            for (int64_t n = 0; n < g->sizes[0] && s; n++) {
                tsr_dims dims = {.n = 3, .d = {1, 2, 3}};
                tsr_tensor *gn = tsr_view_select(gc, 0, n), *t = gn ? tsr_sum(gn, &dims, false, TSR_DTYPE_UNDEFINED, NULL) : NULL;
                tsr_operand ot = tsr_operand_tensor(t);
                tsr_tensor *r = t ? tsr_binary_(TSR_BINOP_ADD, s, &ot, NULL) : NULL;
                tsr_tensor_release(gn);
                tsr_tensor_release(t);
                if (!r) {
                    tsr_tensor_release(s);
                    s = NULL;
                }
                tsr_tensor_release(r);
            }
        }
        if (s && groups == 1) gb = tsr_tensor_retain(s);
        else if (s && (gb || (gb = tsr_tensor_empty(1, &O, g->dtype, g->device)))) {
            tsr_tensor *dv = tsr_view_narrow(gb, 0, q * Og, Og);
            if (!dv || tsr_copy_(dv, s) < 0) {
                tsr_tensor_release(gb);
                gb = NULL;
            }
            tsr_tensor_release(dv);
        }
        bool ok = s && gb;
        tsr_tensor_release(v);
        tsr_tensor_release(gc);
        tsr_tensor_release(s);
        if (!ok) {
            tsr_tensor_release(gb);
            return NULL;
        }
    }
    return gb;
}

/* Slow3d / SlowDilated3d / SlowTranspose3d backward, each group alone:
 * the gemms of ConvolutionMM3d.cpp, NaiveDilatedConvolution.cpp and
 * ConvTranspose3d.cpp over contiguous operands */
static int slow3d_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, const int64_t *st,
                           const int64_t *pd, const int64_t *dl, bool transposed, int64_t groups, const bool *mask,
                           tsr_tensor **gi, tsr_tensor **gw)
{
    tsr_dtype dt = x->dtype;
    int isz = tsr_dtype_itemsize(dt);
    int64_t N = x->sizes[0], C = x->sizes[1], Cg = C / groups, O = g->sizes[1], Og = O / groups;
    const int64_t *I = x->sizes + 2, *k = w->sizes + 2, *OS = g->sizes + 2;
    int64_t IV = I[0] * I[1] * I[2], P = OS[0] * OS[1] * OS[2], kv = k[0] * k[1] * k[2];
    /* columns: [Cg*kv][P] of the input (forward) or [Og*kv][IV] of grad_output (transposed) */
    int64_t rows = transposed ? Og * kv : Cg * kv, cl = transposed ? IV : P, n_cols = rows * cl;
    tsr_tensor *gc = tsr_contiguous(g, TSR_MF_CONTIGUOUS), *xc = gc ? tsr_contiguous(x, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *wc = xc ? tsr_contiguous(w, TSR_MF_CONTIGUOUS) : NULL, *colt = NULL;
    int rc = -1;
    if (!wc || !(colt = tsr_tensor_empty(1, &n_cols, dt, x->device))) goto done;
    if (mask[0] && !(*gi = zeros5(x->sizes, 5, dt, x->device))) goto done;
    if (mask[1] && !(*gw = zeros5(w->sizes, 5, dt, x->device))) goto done;
    char *cols = tsr_tensor_ptr(colt, NULL);
    const char *gob = tsr_tensor_ptr(gc, NULL), *xb = tsr_tensor_ptr(xc, NULL), *wb = tsr_tensor_ptr(wc, NULL);
    char *ib = mask[0] ? tsr_tensor_ptr(*gi, NULL) : NULL, *wgb = mask[1] ? tsr_tensor_ptr(*gw, NULL) : NULL;
    tsr_scalar one = num(dt, 1), zero = num(dt, 0);
    for (int64_t q = 0; q < groups; q++) {
        for (int64_t n = 0; n < N; n++) {
            if (tsr_check_interrupt() < 0) goto done;
            const char *go = gob + (n * O + q * Og) * P * isz, *xn = xb + (n * C + q * Cg) * IV * isz;
            if (transposed) {   /* columns = vol2col(grad_output) */
                unfold3d(cols, go, isz, Og, OS, k, st, pd, dl, I);
                if (mask[0])
                    tsr_gemm(dt, false, false, IV, Cg, rows, one, cols, IV, wb + q * Cg * rows * isz, rows, zero,
                             ib + (n * C + q * Cg) * IV * isz, IV);
                if (mask[1])
                    tsr_gemm(dt, true, false, rows, Cg, IV, one, cols, IV, xn, IV, one, wgb + q * Cg * rows * isz, rows);
                continue;
            }
            if (mask[0]) {   /* columns = weight^T @ grad_output, then col2vol */
                tsr_gemm(dt, false, true, P, rows, Og, one, go, P, wb + q * Og * rows * isz, rows, zero, cols, P);
                fold3d(dt, ib + (n * C + q * Cg) * IV * isz, cols, Cg, I, k, st, pd, dl, OS);
            }
            if (mask[1]) {   /* grad_weight += grad_output @ columns^T */
                unfold3d(cols, xn, isz, Cg, I, k, st, pd, dl, OS);
                tsr_gemm(dt, true, false, rows, Og, P, one, cols, P, go, P, one, wgb + q * Og * rows * isz, rows);
            }
        }
    }
    rc = 0;
done:
    tsr_tensor_release(colt);
    tsr_tensor_release(gc);
    tsr_tensor_release(xc);
    tsr_tensor_release(wc);
    return rc;
}

int tsr__conv3d_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, const int64_t *st,
                         const int64_t *pd, const int64_t *dl, bool transposed, int64_t groups, const bool *mask,
                         tsr_tensor **gi, tsr_tensor **gw, tsr_tensor **gb)
{
    *gi = *gw = *gb = NULL;
    int64_t O = transposed ? w->sizes[1] * groups : w->sizes[0];
    bool dilated = dl[0] != 1 || dl[1] != 1 || dl[2] != 1;
    if (x->sizes[0] == 0 || x->sizes[1] == 0) {   /* ConvBackend::Empty */
        if (mask[0] && !(*gi = tsr_zeros(5, x->sizes, x->dtype, x->device))) goto fail;
        if (mask[1] && !(*gw = tsr_zeros(5, w->sizes, w->dtype, w->device))) goto fail;
        if (mask[2] && !(*gb = tsr_zeros(1, &O, w->dtype, w->device))) goto fail;
        return 0;
    }
    if (!transposed && tsr__conv3d_use_mkldnn(x, w, st, dl, groups)) {
        tsr_tensor *wtmp = NULL;
        if (mask[0] && !(*gi = tsr_tensor_empty(5, x->sizes, x->dtype, x->device))) goto fail;
        if ((mask[1] || mask[2]) && !(wtmp = tsr_tensor_empty(5, w->sizes, w->dtype, w->device))) goto fail;
        if (mask[2] && !(*gb = tsr_tensor_empty(1, &O, w->dtype, w->device))) {
            tsr_tensor_release(wtmp);
            goto fail;
        }
        int rc = tsr__conv2d_dnnl_backward(*gi, wtmp, *gb, g, x, w, st, pd, dl, groups, false);
        if (mask[1]) *gw = tsr_tensor_retain(wtmp);
        tsr_tensor_release(wtmp);
        if (rc < 0) goto fail;
        if (rc == 0) return 0;
        tsr_tensor_release(*gi), tsr_tensor_release(*gw), tsr_tensor_release(*gb);   /* no oneDNN: as the forward */
        *gi = *gw = *gb = NULL;
    }
    if ((mask[0] || mask[1]) && slow3d_backward(g, x, w, st, pd, dl, transposed, groups, mask, gi, gw) < 0) goto fail;
    if (mask[2] && !(*gb = bias_grad(g, groups, dilated && !transposed))) goto fail;
    return 0;
fail:
    tsr_tensor_release(*gi), tsr_tensor_release(*gw), tsr_tensor_release(*gb);
    *gi = *gw = *gb = NULL;
    return -1;
}

/* ------------------------------------------------------------ conv_tbc */

/* the k-th tap of conv_tbc (ConvolutionTBC.cpp): input rows from *is,
 * output rows from *os, *t of them (<= 0: none) */
static void tbc_tap(int64_t k, int64_t ilen, int64_t olen, int64_t real_pad, int64_t *is, int64_t *os, int64_t *t)
{
    *is = k - real_pad > 0 ? k - real_pad : 0;
    *os = real_pad - k > 0 ? real_pad - k : 0;
    *t = (ilen + real_pad - k < olen ? ilen + real_pad - k : olen) - *os;
}

/* a.narrow(0, start, t).view({t * a.size(1), a.size(2)}): NEW or NULL */
static tsr_tensor *rows2d(const tsr_tensor *a, int64_t start, int64_t t)
{
    tsr_tensor *n = tsr_view_narrow(a, 0, start, t);
    int64_t sz[2] = {t * a->sizes[1], a->sizes[2]};
    tsr_tensor *v = n ? tsr_view_view(n, 2, sz) : NULL;
    tsr_tensor_release(n);
    return v;
}

/* o.addmm_(a, b) (beta 1, alpha 1); each argument stolen. 0 or -1. */
static int addmm_steal(tsr_tensor *o, tsr_tensor *a, tsr_tensor *b)
{
    tsr_tensor *r = o && a && b ? tsr_addmm(o, a, b, tsr_scalar_int(1), tsr_scalar_int(1), NULL, true) : NULL;
    tsr_tensor_release(r);
    tsr_tensor_release(o);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    return r ? 0 : -1;
}

tsr_tensor *tsr_nn_conv_tbc(const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *b, int64_t pad)
{
    if (x->ndim != 3) {
        tsr_error_set(TSR_ERR_RUNTIME, "Input must have 3 dims: time, batch, in_channel");
        return NULL;
    }
    if (w->ndim != 3) {
        tsr_error_set(TSR_ERR_RUNTIME, "Weight tensor must have 3 dims: kernel_width, in_channels, out_channels.");
        return NULL;
    }
    if (b->ndim != 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "Bias must be 1-D");
        return NULL;
    }
    int64_t ilen = x->sizes[0], B = x->sizes[1], kw = w->sizes[0], olen = ilen - kw + 1 + pad * 2;
    int64_t real_pad = (olen - ilen + kw - 1) / 2;
    if (x->sizes[2] != w->sizes[1]) {
        tsr_error_set(TSR_ERR_RUNTIME, "Input dim 2 (input channels) is not == dim 1 in the weight tensor");
        return NULL;
    }
    if (w->sizes[2] != b->sizes[0]) {
        tsr_error_set(TSR_ERR_RUNTIME, "Bias size must equal dim 2 in the weight tensor (output channels).");
        return NULL;
    }
    int64_t osz[3] = {olen, B, w->sizes[2]}, numel;
    if (tsr_check_sizes(3, osz, &numel) < 0) return NULL;
    tsr_tensor *out = tsr_tensor_empty(3, osz, x->dtype, x->device), *be = out ? tsr_view_expand(b, 3, osz) : NULL;
    if (!be || tsr_copy_(out, be) < 0) goto fail;
    tsr_tensor_release(be);
    be = NULL;
    for (int64_t k = 0; k < kw; k++) {
        if (tsr_check_interrupt() < 0) goto fail;
        int64_t is, os, t;
        tbc_tap(k, ilen, olen, real_pad, &is, &os, &t);
        if (t > 0 && addmm_steal(rows2d(out, os, t), rows2d(x, is, t), tsr_view_select(w, 0, k)) < 0) goto fail;
    }
    return out;
fail:
    tsr_tensor_release(be);
    tsr_tensor_release(out);
    return NULL;
}

int tsr_nn_conv_tbc_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *b,
                             int64_t pad, tsr_tensor **gi, tsr_tensor **gw, tsr_tensor **gb)
{
    int64_t ilen = x->sizes[0], kw = w->sizes[0], olen = ilen - kw + 1 + pad * 2;
    int64_t real_pad = (olen - ilen + kw - 1) / 2, is, os, t;
    tsr_tensor *s0 = NULL, *s1 = NULL;
    *gi = tsr_zeros_like(x, x->dtype, x->device, TSR_MF_PRESERVE);
    for (int64_t k = 0; *gi && k < kw; k++) {   /* dInput += dOutput @ weight[k].t() */
        tbc_tap(k, ilen, olen, real_pad, &is, &os, &t);
        if (t <= 0) continue;
        tsr_tensor *wk = tsr_view_select(w, 0, k), *wt = wk ? tsr_view_t(wk) : NULL;
        tsr_tensor_release(wk);
        if (addmm_steal(rows2d(*gi, is, t), rows2d(g, os, t), wt) < 0) goto fail;
    }
    if (!*gi || !(*gw = tsr_zeros_like(w, w->dtype, w->device, TSR_MF_PRESERVE))) goto fail;
    for (int64_t k = 0; k < kw; k++) {   /* dWeight[k] += input.t() @ dOutput */
        tbc_tap(k, ilen, olen, real_pad, &is, &os, &t);
        if (t <= 0) continue;
        tsr_tensor *xi = rows2d(x, is, t), *xt = xi ? tsr_view_t(xi) : NULL;
        tsr_tensor_release(xi);
        if (addmm_steal(tsr_view_select(*gw, 0, k), xt, rows2d(g, os, t)) < 0) goto fail;
    }
    tsr_dims d0 = {.n = 1, .d = {0}};
    if (!(*gb = tsr_zeros_like(b, b->dtype, b->device, TSR_MF_PRESERVE)) ||
        !(s0 = tsr_sum(g, &d0, false, TSR_DTYPE_UNDEFINED, NULL)) ||
        !(s1 = tsr_sum(s0, &d0, false, TSR_DTYPE_UNDEFINED, NULL)) || tsr_copy_(*gb, s1) < 0)
        goto fail;
    tsr_tensor_release(s0);
    tsr_tensor_release(s1);
    return 0;
fail:
    tsr_tensor_release(s0);
    tsr_tensor_release(s1);
    tsr_tensor_release(*gi), tsr_tensor_release(*gw), tsr_tensor_release(*gb);
    *gi = *gw = *gb = NULL;
    return -1;
}
