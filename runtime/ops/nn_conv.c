/* runtime/ops/nn_conv.c — conv1d / conv2d as 1.13's Convolution.cpp: the
 * batchify step, convolution_same, _convolution's checks (check_shape_forward
 * order and wording), conv1d viewed as 2-D, and the CPU backends Slow2d
 * (ConvolutionMM2d.cpp: unfolded2d_copy + cpublas::gemm per batch element,
 * beta 1 over the bias copied into the output) and SlowDilated2d
 * (NaiveDilatedConvolution.cpp: the same columns, output zeroed or filled
 * with the bias, beta 1). groups > 1 runs each group alone, as 1.13 does.
 * The channels_last layouts use the transposed gemm of the _channels_last
 * unfold. float32 calls that 1.13 hands to oneDNN (use_mkldnn) keep its
 * dtype messages and are computed by the same im2col + gemm. */
#include <stdio.h>
#include <string.h>

#include "nn_conv.h"
#include "nn_dnnl.h"
#include "binary.h"
#include "blas.h"
#include "copy.h"
#include "factory.h"
#include "nn.h"
#include "../error.h"
#include "../internal.h"
#include "../iter.h"
#include "../view.h"
#include "viewcopy.h"

static tsr_tensor *take(tsr_tensor **t, tsr_tensor *r)
{
    tsr_tensor_release(*t);
    *t = r;
    return r;
}

/* "Float" -> "torch.FloatTensor" as the legacy type names print */
/* expand_param_if_needed: one value repeated, or exactly dim values. */
static int expand_param(const char *name, int n, const int64_t *in, int dim, int64_t *out)
{
    if (n == 1) {
        for (int i = 0; i < dim; i++) out[i] = in[0];
        return 0;
    }
    if (n != dim) {
        char b[256];
        tsr_error_set(TSR_ERR_RUNTIME, "expected %s to be a single integer value or a list of %d values to match the "
                      "convolution dimensions, but got %s=%s", name, dim, name, tsr__fmt_list(b, sizeof b, n, in));
        return -1;
    }
    memcpy(out, in, sizeof(int64_t) * (size_t)dim);
    return 0;
}

/* ConvParams::use_mkldnn of 1.13 for a 4-D input and weight: more shapes go
 * to oneDNN when more than one intra-op thread runs. */
int tsr_nn_conv2d_bias_check(const tsr_tensor *x, const tsr_tensor *bias)
{
    if (!bias || bias->dtype == x->dtype) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "Input type (%s) and bias type (%s) should be the same",
                  tsr_dtype_typemeta_name(x->dtype), tsr_dtype_typemeta_name(bias->dtype));
    return -1;
}

bool tsr__conv_use_mkldnn(const tsr_tensor *x, const tsr_tensor *w, const int64_t *stride, const int64_t *dil,
                       int64_t groups)
{
    if (x->dtype == TSR_BFLOAT16 && tsr__dnnl_bf16_usable()) return true;   /* mkldnn_bf16_device_check() */
    if (x->dtype != TSR_FLOAT32) return false;
    bool strided = stride[0] != 1 || stride[1] != 1, dilated = dil[0] != 1 || dil[1] != 1;
    int64_t kh = w->sizes[2], kw = w->sizes[3], n = x->sizes[0];
    bool c1 = strided || dilated || n >= 16 || kw != 1 || kh != 1 || tsr_get_num_threads() > 1;
    bool c2 = groups > 1 || (kw > 3 && kh > 3) || n > 1 || n * x->sizes[1] * x->sizes[2] * x->sizes[3] > 20480;
    return c1 && c2;
}

/* The columns of one batch element and group: src points at channel 0 of
 * the group, strides sc/sh/sw in elements; dst is [C*kh*kw][P] (cl false)
 * or [P][kh*kw*C] (cl true), zeros where the window is in the padding. */
void tsr__conv_unfold(char *dst, const char *src, int isz, int64_t C, int64_t H, int64_t W, int64_t sc, int64_t sh,
                   int64_t sw, const int64_t *k, const int64_t *st, const int64_t *pd, const int64_t *dl, int64_t OH,
                   int64_t OW, bool cl)
{
    int64_t P = OH * OW, K = C * k[0] * k[1];
    for (int64_t c = 0; c < C; c++)
        for (int64_t i = 0; i < k[0]; i++)
            for (int64_t j = 0; j < k[1]; j++)
                for (int64_t y = 0; y < OH; y++) {
                    int64_t iy = y * st[0] - pd[0] + i * dl[0];
                    for (int64_t x = 0; x < OW; x++) {
                        int64_t ix = x * st[1] - pd[1] + j * dl[1], p = y * OW + x;
                        int64_t row = cl ? (i * k[1] + j) * C + c : (c * k[0] + i) * k[1] + j;
                        char *d = cl ? dst + (p * K + row) * isz : dst + (row * P + p) * isz;
                        if (iy < 0 || iy >= H || ix < 0 || ix >= W) memset(d, 0, (size_t)isz);
                        else memcpy(d, src + (c * sc + iy * sh + ix * sw) * isz, (size_t)isz);
                    }
                }
}

/* The 4-D convolution proper (input N,C,H,W, weight O,C/g,kh,kw, both
 * already checked); out has the backend's memory format. */
static int conv2d_compute(tsr_tensor *out, const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias,
                          const int64_t *st, const int64_t *pd, const int64_t *dl, int64_t groups, bool cl,
                          bool dilated)
{
    int64_t N = x->sizes[0], C = x->sizes[1], H = x->sizes[2], W = x->sizes[3];
    int64_t O = w->sizes[0], k[2] = {w->sizes[2], w->sizes[3]};
    int64_t OH = out->sizes[2], OW = out->sizes[3], P = OH * OW, Cg = C / groups, Og = O / groups;
    int64_t K = Cg * k[0] * k[1];
    int isz = tsr_dtype_itemsize(x->dtype);
    tsr_scalar one = tsr_dtype_is_complex(x->dtype) ? tsr_scalar_complex(1, 0)
                   : tsr_dtype_is_floating(x->dtype) ? tsr_scalar_float(1) : tsr_scalar_int(1);
    tsr_scalar zero = tsr_dtype_is_complex(x->dtype) ? tsr_scalar_complex(0, 0)
                    : tsr_dtype_is_floating(x->dtype) ? tsr_scalar_float(0) : tsr_scalar_int(0);
    if (bias) {
        int64_t bs[3] = {O, 1, 1};
        tsr_tensor *bv = tsr_view_view(bias, 3, bs), *be = bv ? tsr_view_expand(bv, 4, out->sizes) : NULL;
        int rc = be ? tsr_copy_(out, be) : -1;
        tsr_tensor_release(bv);
        tsr_tensor_release(be);
        if (rc < 0) return -1;
    } else if (dilated && tsr_fill_(out, zero) < 0) {
        return -1;
    }
    bool beta1 = bias || dilated;
    /* weight per group, [Og][K] in the unfold's row order */
    tsr_tensor *wc = tsr_contiguous(w, cl ? TSR_MF_CHANNELS_LAST : TSR_MF_CONTIGUOUS);
    tsr_tensor *xc = wc ? tsr_contiguous(x, cl ? TSR_MF_CHANNELS_LAST : TSR_MF_CONTIGUOUS) : NULL;
    int64_t kp = K * P;
    tsr_tensor *colt = xc ? tsr_tensor_empty(1, &kp, x->dtype, x->device) : NULL;
    char *cols = colt ? tsr_tensor_ptr(colt, NULL) : NULL;
    int rc = -1;
    if (!colt) goto done;
    const char *xb = tsr_tensor_ptr(xc, NULL), *wb = tsr_tensor_ptr(wc, NULL);
    char *ob = tsr_tensor_ptr(out, NULL);
    for (int64_t n = 0; n < N; n++) {
        if (tsr_check_interrupt() < 0) goto done;
        for (int64_t g = 0; g < groups; g++) {
            const char *src = xb + (n * xc->strides[0] + g * Cg * xc->strides[1]) * isz;
            tsr__conv_unfold(cols, src, isz, Cg, H, W, xc->strides[1], xc->strides[2], xc->strides[3], k, st, pd, dl, OH, OW,
                   cl);
            const char *wg = wb + g * Og * K * isz;
            if (cl) {
                char *o = ob + (n * out->strides[0] + g * Og) * isz;
                tsr_gemm(x->dtype, true, false, Og, P, K, one, wg, K, cols, K, beta1 ? one : zero, o, O);
            } else {
                char *o = ob + (n * out->strides[0] + g * Og * P) * isz;
                tsr_gemm(x->dtype, false, false, P, Og, K, one, cols, P, wg, K, beta1 ? one : zero, o, P);
            }
        }
    }
    rc = 0;
done:
    tsr_tensor_release(colt);
    tsr_tensor_release(wc);
    tsr_tensor_release(xc);
    return rc;
}

/* slow_conv_transpose2d per batch element and group: columns = weight^T @
 * input (gemm, beta 0), col2im summed into the zeroed output, then the
 * bias added (its k = 1 gemm). out is contiguous. */
static int conv_transpose2d_compute(tsr_tensor *out, const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias,
                                    const int64_t *st, const int64_t *pd, const int64_t *dl, int64_t groups)
{
    int64_t N = x->sizes[0], Cin = x->sizes[1], H = x->sizes[2], W = x->sizes[3];
    int64_t Og = w->sizes[1], kh = w->sizes[2], kw = w->sizes[3], Cg = Cin / groups, O = Og * groups;
    int64_t OH = out->sizes[2], OW = out->sizes[3], P = H * W, M = Og * kh * kw;
    int isz = tsr_dtype_itemsize(x->dtype);
    tsr_dtype dt = x->dtype;
    tsr_scalar one = tsr_dtype_is_floating(dt) ? tsr_scalar_float(1) : tsr_scalar_int(1);
    tsr_scalar zero = tsr_dtype_is_floating(dt) ? tsr_scalar_float(0) : tsr_scalar_int(0);
    if (tsr_fill_(out, zero) < 0) return -1;
    tsr_tensor *xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS), *wc = xc ? tsr_contiguous(w, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *bc = wc && bias ? tsr_contiguous(bias, TSR_MF_CONTIGUOUS) : NULL;
    int64_t mp = M * P;
    tsr_tensor *colt = wc && (!bias || bc) ? tsr_tensor_empty(1, &mp, dt, x->device) : NULL;
    int rc = -1;
    if (!colt) goto done;
    char *cols = tsr_tensor_ptr(colt, NULL), *ob = tsr_tensor_ptr(out, NULL);
    const char *xb = tsr_tensor_ptr(xc, NULL), *wb = tsr_tensor_ptr(wc, NULL);
    for (int64_t n = 0; n < N; n++) {
        if (tsr_check_interrupt() < 0) goto done;
        for (int64_t g = 0; g < groups; g++) {
            const char *in = xb + (n * Cin + g * Cg) * P * isz, *wg = wb + g * Cg * M * isz;
            tsr_gemm(dt, false, true, P, M, Cg, one, in, P, wg, M, zero, cols, P);
            char *o = ob + (n * O + g * Og) * OH * OW * isz;
            for (int64_t c = 0; c < M; c++) {
                int64_t wo = c % kw, ho = (c / kw) % kh, ci = c / kh / kw;
                for (int64_t hc = 0; hc < H; hc++) {
                    int64_t hi = hc * st[0] - pd[0] + ho * dl[0];
                    if (hi < 0 || hi >= OH) continue;
                    for (int64_t wcn = 0; wcn < W; wcn++) {
                        int64_t wi = wcn * st[1] - pd[1] + wo * dl[1];
                        if (wi < 0 || wi >= OW) continue;
                        char *dst = o + ((ci * OH + hi) * OW + wi) * isz;
                        const char *src = cols + (c * P + hc * W + wcn) * isz;
                        switch (dt) {
                        case TSR_FLOAT32: *(float *)dst += *(const float *)src; break;
                        case TSR_FLOAT64: *(double *)dst += *(const double *)src; break;
                        default: *(int64_t *)dst += *(const int64_t *)src; break;
                        }
                    }
                }
            }
            if (bc) {
                const char *bb = (const char *)tsr_tensor_ptr(bc, NULL) + g * Og * isz;
                for (int64_t c = 0; c < Og; c++)
                    for (int64_t k = 0; k < OH * OW; k++) {
                        char *dst = o + (c * OH * OW + k) * isz;
                        switch (dt) {
                        case TSR_FLOAT32: *(float *)dst += ((const float *)bb)[c]; break;
                        case TSR_FLOAT64: *(double *)dst += ((const double *)bb)[c]; break;
                        default: *(int64_t *)dst += ((const int64_t *)bb)[c]; break;
                        }
                    }
            }
        }
    }
    rc = 0;
done:
    tsr_tensor_release(colt);
    tsr_tensor_release(xc);
    tsr_tensor_release(wc);
    tsr_tensor_release(bc);
    return rc;
}

/* at::_convolution for a batched input; transposed with output_padding
 * (nopad entries) runs slow_conv_transpose2d. */
static tsr_tensor *convolution_t(const tsr_tensor *input, const tsr_tensor *weight, const tsr_tensor *bias, int nstride,
                                 const int64_t *stride_, int npad, const int64_t *padding_, int ndil,
                                 const int64_t *dilation_, int64_t groups, bool transposed, int nopad,
                                 const int64_t *opad_);

/* The transposed backend after _convolution's checks: conv1d as (1, L),
 * slow_conv_transpose2d_shape_check's checks, then the kernel. */
static tsr_tensor *conv_transposed(const tsr_tensor *input, const tsr_tensor *weight, const tsr_tensor *bias, int dim,
                                   int64_t *st, int64_t *pd, int64_t *dl, int64_t *op, int64_t groups)
{
    tsr_tensor *x = NULL, *w = NULL, *out = NULL;
    if (dim == 1) {
        x = tsr_contiguous(input, TSR_MF_CONTIGUOUS);
        if (!x || !take(&x, tsr_view_unsqueeze(x, 2)) || !(w = tsr_view_unsqueeze(weight, 2))) goto fail;
        st[1] = st[0], pd[1] = pd[0], dl[1] = dl[0], op[1] = op[0];
        st[0] = 1, pd[0] = 0, dl[0] = 1, op[0] = 0;
    } else {
        x = tsr_tensor_retain((tsr_tensor *)input);
        w = tsr_tensor_retain((tsr_tensor *)weight);
    }
    int64_t osz[4] = {x->sizes[0], w->sizes[1] * groups, 0, 0};
    for (int i = 0; i < 2; i++)
        osz[i + 2] = (x->sizes[i + 2] - 1) * st[i] - 2 * pd[i] + (dl[i] * (w->sizes[i + 2] - 1) + 1) + op[i];
    if (x->sizes[0] == 0 || x->sizes[1] == 0) {   /* ConvBackend::Empty */
        if (!(out = tsr_tensor_empty(4, osz, x->dtype, x->device))) goto fail;
        goto view;
    }
    if (dl[0] <= 0 || dl[1] <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "dilation should be greater than zero, but got dilation_height: %lld, "
                      "dilation_width: %lld", (long long)dl[0], (long long)dl[1]);
        goto fail;
    }
    if (!((op[1] < st[1] || op[1] < dl[1]) && (op[0] < st[0] || op[0] < dl[0]))) {
        tsr_error_set(TSR_ERR_RUNTIME, "output padding must be smaller than either stride or dilation, but got "
                      "output_padding_height: %lld output_padding_width: %lld stride_height: %lld stride_width: %lld "
                      "dilation_height: %lld dilation_width: %lld", (long long)op[0], (long long)op[1],
                      (long long)st[0], (long long)st[1], (long long)dl[0], (long long)dl[1]);
        goto fail;
    }
    if (osz[2] < 1 || osz[3] < 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "Given input size per channel: (%lld x %lld). Calculated output size per "
                      "channel: (%lld x %lld). Output size is too small", (long long)x->sizes[2], (long long)x->sizes[3],
                      (long long)osz[2], (long long)osz[3]);
        goto fail;
    }
    if (tsr__conv_external(x)) {
        if (!(out = tsr__conv_dev(x, w, bias, 2, st, pd, dl, op, groups, true))) goto fail;
        goto view;
    }
    tsr_dtype d = x->dtype;
    if (d != TSR_FLOAT32 && d != TSR_FLOAT64 && d != TSR_INT64) {   /* complex reaches here from conv_transpose2d */
        tsr__not_implemented("slow_conv_transpose2d_out_cpu", d);
        goto fail;
    }
    const tsr_tensor *ps[2] = {w, bias};
    for (int i = 0; i < 2; i++)
        if (ps[i] && ps[i]->dtype != d) {
            tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(d),
                          tsr_dtype_scalar_name(ps[i]->dtype));
            goto fail;
        }
    if (!(out = tsr_tensor_empty(4, osz, d, x->device))) goto fail;
    if (!tsr_tensor_is_meta(out) && conv_transpose2d_compute(out, x, w, bias, st, pd, dl, groups) < 0) goto fail;
view:
    if (dim == 1 && !take(&out, tsr_view_squeeze_dim(out, 2))) goto fail;
    tsr_tensor_release(x);
    tsr_tensor_release(w);
    return out;
fail:
    tsr_tensor_release(x);
    tsr_tensor_release(w);
    tsr_tensor_release(out);
    return NULL;
}

static tsr_tensor *convolution(const tsr_tensor *input, const tsr_tensor *weight, const tsr_tensor *bias, int nstride,
                               const int64_t *stride_, int npad, const int64_t *padding_, int ndil,
                               const int64_t *dilation_, int64_t groups)
{
    int64_t zero = 0;
    return convolution_t(input, weight, bias, nstride, stride_, npad, padding_, ndil, dilation_, groups, false, 1, &zero);
}

static tsr_tensor *convolution_t(const tsr_tensor *input, const tsr_tensor *weight, const tsr_tensor *bias, int nstride,
                                 const int64_t *stride_, int npad, const int64_t *padding_, int ndil,
                                 const int64_t *dilation_, int64_t groups, bool transposed, int nopad,
                                 const int64_t *opad_)
{
    int k = weight->ndim, dim = k - 2;
    char b1[256], b2[256];
    if (dim <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "weight should have at least three dimensions");
        return NULL;
    }
    if (groups <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "non-positive groups is not supported");
        return NULL;
    }
    if (dim > 3) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "convolution with %d spatial dimensions is not supported by tsr yet", dim);
        return NULL;
    }
    int64_t st[3], pd[3], dl[3], op[3];
    if (expand_param("stride", nstride, stride_, dim, st) < 0 || expand_param("padding", npad, padding_, dim, pd) < 0 ||
        expand_param("dilation", ndil, dilation_, dim, dl) < 0 ||
        expand_param("output_padding", nopad, opad_, dim, op) < 0)
        return NULL;
    for (int i = 0; i < dim; i++)
        if (pd[i] < 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "negative padding is not supported");
            return NULL;
        }
    for (int i = 0; i < dim; i++)
        if (op[i] < 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "negative output_padding is not supported");
            return NULL;
        }
    for (int i = 0; i < dim; i++)
        if (st[i] <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "non-positive stride is not supported");
            return NULL;
        }
    const int64_t *ws = weight->sizes;
    if (input->ndim != k) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected %d-dimensional input for %d-dimensional weight %s, but got "
                      "%d-dimensional input of size %s instead", k, k, tsr__fmt_list(b1, sizeof b1, k, ws),
                      input->ndim, tsr__fmt_list(b2, sizeof b2, input->ndim, input->sizes));
        return NULL;
    }
    if (ws[0] < groups) {
        tsr_error_set(TSR_ERR_RUNTIME, "Given groups=%lld, expected weight to be at least %lld at dimension 0, but got "
                      "weight of size %s instead", (long long)groups, (long long)groups,
                      tsr__fmt_list(b1, sizeof b1, k, ws));
        return NULL;
    }
    if (ws[0] % groups) {
        tsr_error_set(TSR_ERR_RUNTIME, "Given groups=%lld, expected weight to be divisible by %lld at dimension 0, but "
                      "got weight of size [%s] instead", (long long)groups, (long long)groups,
                      tsr__fmt_list(b1, sizeof b1, k, ws));
        return NULL;
    }
    if (transposed) {
        if (input->sizes[1] != ws[0]) {
            tsr_error_set(TSR_ERR_RUNTIME, "Given transposed=1, weight of size %s, expected input%s to have %lld "
                          "channels, but got %lld channels instead", tsr__fmt_list(b1, sizeof b1, k, ws),
                          tsr__fmt_list(b2, sizeof b2, input->ndim, input->sizes), (long long)ws[0],
                          (long long)input->sizes[1]);
            return NULL;
        }
        if (bias && !(bias->ndim == 1 && bias->sizes[0] == ws[1] * groups)) {
            tsr_error_set(TSR_ERR_RUNTIME, "Given transposed=1, weight of size %s, expected bias to be 1-dimensional "
                          "with %lld elements, but got bias of size %s instead", tsr__fmt_list(b1, sizeof b1, k, ws),
                          (long long)(ws[1] * groups), tsr__fmt_list(b2, sizeof b2, bias->ndim, bias->sizes));
            return NULL;
        }
        if (dim == 3) return tsr__conv_transpose3d_forward(input, weight, bias, st, pd, dl, op, groups);
        return conv_transposed(input, weight, bias, dim, st, pd, dl, op, groups);
    }
    if (input->sizes[1] != ws[1] * groups) {
        tsr_error_set(TSR_ERR_RUNTIME, "Given groups=%lld, weight of size %s, expected input%s to have %lld channels, "
                      "but got %lld channels instead", (long long)groups, tsr__fmt_list(b1, sizeof b1, k, ws),
                      tsr__fmt_list(b2, sizeof b2, input->ndim, input->sizes), (long long)(ws[1] * groups),
                      (long long)input->sizes[1]);
        return NULL;
    }
    if (bias && !(bias->ndim == 1 && bias->sizes[0] == ws[0])) {
        tsr_error_set(TSR_ERR_RUNTIME, "Given weight of size %s, expected bias to be 1-dimensional with %lld elements, "
                      "but got bias of size %s instead", tsr__fmt_list(b1, sizeof b1, k, ws), (long long)ws[0],
                      tsr__fmt_list(b2, sizeof b2, bias->ndim, bias->sizes));
        return NULL;
    }
    bool small = false;
    size_t l1 = 0, l2 = 0;
    for (int i = 0; i < dim; i++) {
        int64_t is = input->sizes[i + 2] + 2 * pd[i], ks = dl[i] * (ws[i + 2] - 1) + 1;
        if (is < ks) small = true;
        l1 += (size_t)snprintf(b1 + l1, sizeof b1 - l1, "%s%lld", i ? " x " : "", (long long)is);
        l2 += (size_t)snprintf(b2 + l2, sizeof b2 - l2, "%s%lld", i ? " x " : "", (long long)ks);
    }
    if (small) {
        tsr_error_set(TSR_ERR_RUNTIME, "Calculated padded input size per channel: (%s). Kernel size: (%s). Kernel size "
                      "can't be greater than actual input size", b1, b2);
        return NULL;
    }
    if (dim == 3) return tsr__conv3d_forward(input, weight, bias, st, pd, dl, groups);
    /* conv1d runs as a 2-D convolution over (1, L) */
    tsr_tensor *x = NULL, *w = NULL, *out = NULL;
    if (dim == 1) {
        x = tsr_contiguous(input, TSR_MF_CONTIGUOUS);
        if (!x || !take(&x, tsr_view_unsqueeze(x, 2)) || !(w = tsr_view_unsqueeze(weight, 2))) goto fail;
        st[1] = st[0], pd[1] = pd[0], dl[1] = dl[0];
        st[0] = 1, pd[0] = 0, dl[0] = 1;
    } else {
        x = tsr_tensor_retain((tsr_tensor *)input);
        w = tsr_tensor_retain((tsr_tensor *)weight);
    }
    if (dl[0] <= 0 || dl[1] <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "dilation should be greater than zero, but got %s",
                      tsr__fmt_list(b1, sizeof b1, 2, dl));
        goto fail;
    }
    if (tsr__conv_external(x)) {
        if (!(out = tsr__conv_dev(x, w, bias, 2, st, pd, dl, op, groups, false))) goto fail;
        goto view;
    }
    int64_t osz[4] = {x->sizes[0], ws[0], 0, 0};
    for (int i = 0; i < 2; i++) osz[i + 2] = (x->sizes[i + 2] + 2 * pd[i] - dl[i] * (w->sizes[i + 2] - 1) - 1) / st[i] + 1;
    if (x->sizes[0] == 0 || x->sizes[1] == 0) {   /* ConvBackend::Empty */
        if (tsr_tensor_numel(w) == 0) osz[1] = 0;
        if (!(out = tsr_tensor_empty(4, osz, x->dtype, x->device))) goto fail;
        goto view;
    }
    if (tsr_tensor_numel(x) == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "Only zero batch or zero channel inputs are supported, but got input shape: %s",
                      tsr__fmt_list(b1, sizeof b1, x->ndim, x->sizes));
        goto fail;
    }
    bool mkldnn = tsr__conv_use_mkldnn(x, w, st, dl, groups);
    if (mkldnn) {
        if (w->dtype != x->dtype || (bias && bias->dtype != x->dtype)) {
            tsr_dtype_aten_type_string(x->dtype, b1, sizeof b1);
            tsr_dtype_aten_type_string(w->dtype != x->dtype ? w->dtype : bias->dtype, b2, sizeof b2);
            tsr_error_set(TSR_ERR_RUNTIME, "Input type (%s) and %s type (%s) should be the same or input should be a "
                          "MKLDNN tensor and %s is a dense tensor", b1, w->dtype != x->dtype ? "weight" : "bias", b2,
                          w->dtype != x->dtype ? "weight" : "bias");
            goto fail;
        }
    } else {
        tsr_dtype d = x->dtype;
        bool ok = d != TSR_BOOL && d != TSR_FLOAT16 && d != TSR_COMPLEX32;
        if (!ok) {
            tsr__not_implemented("slow_conv2d_cpu", d);
            goto fail;
        }
        if (w->dtype != d) {
            tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(d),
                          tsr_dtype_scalar_name(w->dtype));
            goto fail;
        }
    }
    bool cl = tsr_tensor_suggest_memory_format(x) == TSR_MF_CHANNELS_LAST ||
              tsr_tensor_suggest_memory_format(w) == TSR_MF_CHANNELS_LAST;
    if (!(out = tsr_tensor_empty_format(4, osz, x->dtype, x->device, cl ? TSR_MF_CHANNELS_LAST : TSR_MF_CONTIGUOUS)))
        goto fail;
    if (!tsr_tensor_is_meta(out)) {
        int dn = mkldnn ? tsr__conv2d_dnnl(out, x, w, bias, st, pd, dl, groups, cl) : 1;   /* 1: not taken */
        if (dn < 0 || (dn > 0 && conv2d_compute(out, x, w, bias, st, pd, dl, groups, cl, dl[0] != 1 || dl[1] != 1) < 0))
            goto fail;
    }
view:
    if (dim == 1 && !take(&out, tsr_view_squeeze_dim(out, 2))) goto fail;
    tsr_tensor_release(x);
    tsr_tensor_release(w);
    return out;
fail:
    tsr_tensor_release(x);
    tsr_tensor_release(w);
    tsr_tensor_release(out);
    return NULL;
}

/* convolution_same: 'same' padding, an extra zero column on the right
 * (constant_pad_nd) when the total padding is odd. */
static tsr_tensor *convolution_same(const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias, int nstride,
                                    const int64_t *stride, int ndil, const int64_t *dil, int64_t groups)
{
    int k = w->ndim, dim = k - 2;
    char b1[256], b2[256];
    if (k <= 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "weight should have at least three dimensions");
        return NULL;
    }
    if (k != x->ndim) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected %d-dimensional input for %d-dimensional weight%s, but got "
                      "%d-dimensional input of size %s instead", k, k, tsr__fmt_list(b1, sizeof b1, k, w->sizes),
                      x->ndim, tsr__fmt_list(b2, sizeof b2, x->ndim, x->sizes));
        return NULL;
    }
    if (nstride != dim && nstride != 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "stride cannot broadcast to %d dimensions", dim);
        return NULL;
    }
    if (ndil != dim && ndil != 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "dilation cannot broadcast to %d dimensions", dim);
        return NULL;
    }
    for (int i = 0; i < nstride; i++)
        if (stride[i] != 1) {
            tsr_error_set(TSR_ERR_RUNTIME, "padding='same' is not supported for strided convolutions");
            return NULL;
        }
    int64_t pl[3] = {0, 0, 0}, pr[3] = {0, 0, 0}, padnd[6] = {0, 0, 0, 0, 0, 0};
    bool sym = true;
    for (int i = 0; i < dim && i < 3; i++) {
        int64_t d = ndil == 1 ? dil[0] : dil[i];
        int64_t total = d * (w->sizes[i + 2] - 1);
        pl[i] = total / 2;
        pr[i] = total - pl[i];
        if (pl[i] != pr[i]) sym = false;
    }
    if (sym) return convolution(x, w, bias, nstride, stride, dim, pl, ndil, dil, groups);
    static bool warned;   /* TORCH_WARN_ONCE */
    if (!warned) {
        warned = true;
        tsr_warning_set("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy "
                        "of the input be created");
    }
    for (int i = 0; i < dim; i++) {
        int64_t delta = pr[i] - pl[i];
        int idx = 2 * (dim - 1 - i);
        if (delta > 0) padnd[idx + 1] = delta;
        else {
            padnd[idx] = delta;
            pl[i] = pr[i];
        }
    }
    tsr_tensor *px = tsr_constant_pad_nd(x, 2 * dim, padnd, tsr_scalar_int(0));
    if (!px) return NULL;
    tsr_tensor *r = convolution(px, w, bias, nstride, stride, dim, pl, ndil, dil, groups);
    tsr_tensor_release(px);
    return r;
}

/* opad non-NULL: the transposed convolution with output_padding. */
static tsr_tensor *conv_mode(const tsr_tensor *x, const tsr_tensor *weight, const tsr_tensor *bias, int nstride,
                             const int64_t *stride, int npad, const int64_t *padding, int ndil, const int64_t *dilation,
                             int64_t groups, const char *padmode, int nopad, const int64_t *opad)
{
    if (opad)
        return convolution_t(x, weight, bias, nstride, stride, npad, padding, ndil, dilation, groups, true, nopad, opad);
    if (padmode && !strcmp(padmode, "same"))
        return convolution_same(x, weight, bias, nstride, stride, ndil, dilation, groups);
    if (padmode && !strcmp(padmode, "valid")) {
        int64_t zero = 0;
        return convolution(x, weight, bias, nstride, stride, 1, &zero, ndil, dilation, groups);
    }
    if (padmode) {
        tsr_error_set(TSR_ERR_RUNTIME, "Invalid padding string: '%s'", padmode);
        return NULL;
    }
    return convolution(x, weight, bias, nstride, stride, npad, padding, ndil, dilation, groups);
}

static tsr_tensor *bin(tsr_binop op, const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_operand oa = tsr_operand_tensor(a), ob = tsr_operand_tensor(b);
    return tsr_binary(op, &oa, &ob, NULL, NULL);
}

/* complex_to_real: the real and imaginary parts as strided real views. */
static int complex_parts(const tsr_tensor *t, tsr_tensor **re, tsr_tensor **im)
{
    tsr_tensor *c = tsr_resolve_conj(t), *v = c ? tsr_view_as_real(c) : NULL;
    *re = v ? tsr_view_select(v, v->ndim - 1, 0) : NULL;
    *im = *re ? tsr_view_select(v, v->ndim - 1, 1) : NULL;
    tsr_tensor_release(c);
    tsr_tensor_release(v);
    if (*im) return 0;
    tsr_tensor_release(*re);
    *re = NULL;
    return -1;
}

/* t1 + 1j * t3 (t1, t3 real, same shape) as complex multiplication and
 * addition give it: real t1 + 0 * t3, imaginary 0 + t3 (signed zeros as
 * they come out), each copied into its part of a new complex tensor. */
static tsr_tensor *complex_assemble(const tsr_tensor *t1, const tsr_tensor *t3, tsr_dtype dt)
{
    tsr_operand o1 = tsr_operand_tensor(t1), o3 = tsr_operand_tensor(t3), z = tsr_operand_scalar(tsr_scalar_float(0));
    tsr_tensor *m = tsr_binary(TSR_BINOP_MUL, &o3, &z, NULL, NULL), *re = NULL, *im = NULL, *r = NULL, *v = NULL;
    tsr_operand om = tsr_operand_tensor(m);
    if (m && (re = tsr_binary(TSR_BINOP_ADD, &o1, &om, NULL, NULL)) && (im = tsr_binary(TSR_BINOP_ADD, &z, &o3, NULL, NULL)) &&
        (r = tsr_tensor_empty(t1->ndim, t1->sizes, dt, t1->device)) && (v = tsr_view_as_real(r))) {
        tsr_tensor *p0 = tsr_view_select(v, v->ndim - 1, 0), *p1 = p0 ? tsr_view_select(v, v->ndim - 1, 1) : NULL;
        if (!p1 || tsr_copy_(p0, re) < 0 || tsr_copy_(p1, im) < 0) take(&r, NULL);
        tsr_tensor_release(p0);
        tsr_tensor_release(p1);
    } else {
        take(&r, NULL);
    }
    tsr_tensor_release(m);
    tsr_tensor_release(re);
    tsr_tensor_release(im);
    tsr_tensor_release(v);
    return r;
}

/* complex_convolution(_mode): the Gauss trick over three real
 * convolutions, a - b + i * (c - a - b). */
static tsr_tensor *complex_conv(const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias, int nstride,
                                const int64_t *stride, int npad, const int64_t *padding, int ndil,
                                const int64_t *dilation, int64_t groups, const char *padmode, int nopad,
                                const int64_t *opad)
{
    char b1[64], b2[64];
    if (w->dtype != x->dtype || (bias && bias->dtype != x->dtype)) {
        bool wbad = w->dtype != x->dtype;
        tsr_dtype_aten_type_string(x->dtype, b1, sizeof b1);
        tsr_dtype_aten_type_string(wbad ? w->dtype : bias->dtype, b2, sizeof b2);
        tsr_error_set(TSR_ERR_RUNTIME, "Input type (%s) and %s type (%s) should be the same", b1,
                      wbad ? "weight" : "bias", b2);
        return NULL;
    }
    tsr_tensor *xr = NULL, *xi = NULL, *wr = NULL, *wi = NULL, *br = NULL, *bi = NULL, *a = NULL, *b = NULL, *c = NULL;
    tsr_tensor *xs = NULL, *ws = NULL, *bs = NULL, *t1 = NULL, *t2 = NULL, *t3 = NULL, *t4 = NULL, *r = NULL;
    if (complex_parts(x, &xr, &xi) < 0 || complex_parts(w, &wr, &wi) < 0) goto done;
    if (bias && complex_parts(bias, &br, &bi) < 0) goto done;
#define CONV(X, W, B) conv_mode(X, W, B, nstride, stride, npad, padding, ndil, dilation, groups, padmode, nopad, opad)
    if (!(a = CONV(xr, wr, br)) || !(b = CONV(xi, wi, NULL))) goto done;
    if (!(xs = bin(TSR_BINOP_ADD, xr, xi)) || !(ws = bin(TSR_BINOP_ADD, wr, wi))) goto done;
    if (bias && !(bs = bin(TSR_BINOP_ADD, br, bi))) goto done;
    if (!(c = CONV(xs, ws, bs))) goto done;
#undef CONV
    if (!(t1 = bin(TSR_BINOP_SUB, a, b)) || !(t2 = bin(TSR_BINOP_SUB, c, a)) || !(t3 = bin(TSR_BINOP_SUB, t2, b)))
        goto done;
    if (tsr__conv_external(x)) {   /* no complex arithmetic there: the parts of t1 + 1j * t3, copied in */
        r = complex_assemble(t1, t3, x->dtype);
        goto done;
    }
    tsr_operand oi = tsr_operand_scalar(tsr_scalar_complex(0, 1)), o3 = tsr_operand_tensor(t3);
    if (!(t4 = tsr_binary(TSR_BINOP_MUL, &oi, &o3, NULL, NULL))) goto done;
    r = bin(TSR_BINOP_ADD, t1, t4);
done:
    tsr_tensor_release(xr); tsr_tensor_release(xi); tsr_tensor_release(wr); tsr_tensor_release(wi);
    tsr_tensor_release(br); tsr_tensor_release(bi); tsr_tensor_release(a); tsr_tensor_release(b);
    tsr_tensor_release(c); tsr_tensor_release(xs); tsr_tensor_release(ws); tsr_tensor_release(bs);
    tsr_tensor_release(t1); tsr_tensor_release(t2); tsr_tensor_release(t3); tsr_tensor_release(t4);
    return r;
}

int tsr__nn_cpu_only(const char *op, const tsr_tensor *t)
{
    if (!t || t->device.type == TSR_DEV_CPU || t->device.type == TSR_DEV_META) return 0;
    tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "%s of %s tensors is not supported by tsr yet", op,
                  tsr_device_type_name(t->device.type));
    return -1;
}

tsr_tensor *tsr_nn_conv_transpose(const tsr_tensor *input, const tsr_tensor *weight, const tsr_tensor *bias, int nsp,
                                  int nstride, const int64_t *stride, int npad, const int64_t *padding, int nopad,
                                  const int64_t *opad, int64_t groups, int ndil, const int64_t *dilation)
{
    if (tsr__conv_dev_check(input, weight, bias) < 0) return NULL;
    int nb = nsp + 1;
    if (input->ndim != nb && input->ndim != nb + 1) {
        char b[256];
        tsr_error_set(TSR_ERR_RUNTIME, "Expected %dD (unbatched) or %dD (batched) input to conv_transpose%dd, but got "
                      "input of size: %s", nb, nb + 1, nsp, tsr__fmt_list(b, sizeof b, input->ndim, input->sizes));
        return NULL;
    }
    bool batched = input->ndim == nb + 1;
    tsr_tensor *x = batched ? tsr_tensor_retain((tsr_tensor *)input) : tsr_view_unsqueeze(input, 0), *r = NULL;
    if (!x) return NULL;
    if (tsr_dtype_is_complex(x->dtype) && nsp == 1) {   /* 1.13's conv_transpose2d has no complex branch */
        r = complex_conv(x, weight, bias, nstride, stride, npad, padding, ndil, dilation, groups, NULL, nopad, opad);
    } else {
        r = convolution_t(x, weight, bias, nstride, stride, npad, padding, ndil, dilation, groups, true, nopad, opad);
    }
    tsr_tensor_release(x);
    if (r && !batched) take(&r, tsr_view_squeeze_dim(r, 0));
    return r;
}

tsr_tensor *tsr_nn_conv(const tsr_tensor *input, const tsr_tensor *weight, const tsr_tensor *bias, int nsp,
                        int nstride, const int64_t *stride, int npad, const int64_t *padding, int ndil,
                        const int64_t *dilation, int64_t groups, const char *padmode)
{
    if (tsr__conv_dev_check(input, weight, bias) < 0) return NULL;
    int nb = nsp + 1;
    if (input->ndim != nb && input->ndim != nb + 1) {
        char b[256];
        tsr_error_set(TSR_ERR_RUNTIME, "Expected %dD (unbatched) or %dD (batched) input to conv%dd, but got input of "
                      "size: %s", nb, nb + 1, nsp, tsr__fmt_list(b, sizeof b, input->ndim, input->sizes));
        return NULL;
    }
    bool batched = input->ndim == nb + 1;
    tsr_tensor *x = batched ? tsr_tensor_retain((tsr_tensor *)input) : tsr_view_unsqueeze(input, 0), *r = NULL;
    if (!x) return NULL;
    if (tsr_dtype_is_complex(x->dtype))
        r = complex_conv(x, weight, bias, nstride, stride, npad, padding, ndil, dilation, groups, padmode, 0, NULL);
    else
        r = conv_mode(x, weight, bias, nstride, stride, npad, padding, ndil, dilation, groups, padmode, 0, NULL);
    tsr_tensor_release(x);
    if (r && !batched) take(&r, tsr_view_squeeze_dim(r, 0));
    return r;
}
