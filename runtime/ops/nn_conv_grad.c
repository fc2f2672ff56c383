/* runtime/ops/nn_conv_grad.c — ConvolutionBackward0: 1.13's
 * convolution_backward (Convolution.cpp) for the CPU backend the forward
 * picks: Mkldnn (float32, oneDNN's backward_data / backward_weights in
 * nn_dnnl.c), Slow2d (ConvolutionMM2d.cpp), SlowDilated2d
 * (NaiveDilatedConvolution.cpp) and SlowTranspose2d
 * (NaiveConvolutionTranspose2d.cpp); the slow ones run per group and
 * concatenate (_convolution_backward_nogroup_backend). The gemms are the
 * same cpublas calls, and the col2im sums in the same order, so the bits
 * agree. Also the graph F.conv* records (batchify, 'same' padding). */
#include <stdio.h>
#include <string.h>

#include "nn_conv.h"
#include "nn_dnnl.h"
#include "binary.h"
#include "blas.h"
#include "copy.h"
#include "factory.h"
#include "nn.h"
#include "reduce.h"
#include "../autograd.h"
#include "../error.h"
#include "../internal.h"
#include "../view.h"

static tsr_tensor *take(tsr_tensor **t, tsr_tensor *r)
{
    tsr_tensor_release(*t);
    *t = r;
    return r;
}

/* *d += *s in dt (bfloat16: c10::BFloat16's float add, rounded) */
static void acc(tsr_dtype dt, char *d, const char *s)
{
    switch (dt) {
    case TSR_FLOAT32: *(float *)d += *(const float *)s; break;
    case TSR_FLOAT64: *(double *)d += *(const double *)s; break;
    default: {
        tsr_bfloat16 *p = (tsr_bfloat16 *)d;
        *p = tsr_float_to_bfloat16(tsr_bfloat16_to_float(*p) + tsr_bfloat16_to_float(*(const tsr_bfloat16 *)s));
    }
    }
}

/* col2im into the zeroed dst of one batch element ([C][H][W], or [H][W][C]
 * when cl), from cols laid out as tsr__conv_unfold writes them. The order
 * of the sums is unfolded2d_acc's / col2im's: channel, kernel row, kernel
 * column, output pixel; channels_last: output pixel, kernel row, column
 * (unfolded2d_acc_channels_last, col2im_channels_last). */
static void fold(tsr_dtype dt, char *dst, const char *cols, int64_t C, int64_t H, int64_t W, const int64_t *k,
                 const int64_t *st, const int64_t *pd, const int64_t *dl, int64_t OH, int64_t OW, bool cl)
{
    int isz = tsr_dtype_itemsize(dt);
    int64_t P = OH * OW, K = C * k[0] * k[1];
    if (!cl) {
        for (int64_t c = 0; c < C; c++)
            for (int64_t i = 0; i < k[0]; i++)
                for (int64_t j = 0; j < k[1]; j++) {
                    const char *src = cols + ((c * k[0] + i) * k[1] + j) * P * isz;
                    for (int64_t y = 0; y < OH; y++) {
                        int64_t iy = y * st[0] - pd[0] + i * dl[0];
                        if (iy < 0 || iy >= H) continue;
                        for (int64_t x = 0; x < OW; x++) {
                            int64_t ix = x * st[1] - pd[1] + j * dl[1];
                            if (ix >= 0 && ix < W)
                                acc(dt, dst + ((c * H + iy) * W + ix) * isz, src + (y * OW + x) * isz);
                        }
                    }
                }
        return;
    }
    for (int64_t y = 0; y < OH; y++)
        for (int64_t x = 0; x < OW; x++)
            for (int64_t i = 0; i < k[0]; i++) {
                int64_t iy = y * st[0] - pd[0] + i * dl[0];
                if (iy < 0 || iy >= H) continue;
                for (int64_t j = 0; j < k[1]; j++) {
                    int64_t ix = x * st[1] - pd[1] + j * dl[1];
                    if (ix < 0 || ix >= W) continue;
                    const char *src = cols + ((y * OW + x) * K + (i * k[1] + j) * C) * isz;
                    char *d = dst + (iy * W + ix) * C * isz;
                    for (int64_t c = 0; c < C; c++) acc(dt, d + c * isz, src + c * isz);
                }
            }
}

/* v as the gemm's scalar_t (the floating dtypes this file sees) */
static tsr_scalar num(tsr_dtype dt, int v)
{
    return tsr_dtype_is_floating(dt) ? tsr_scalar_float(v) : tsr_scalar_int(v);
}

static tsr_tensor *zeros_fmt(int nd, const int64_t *sizes, tsr_dtype dt, tsr_device dev, bool cl)
{
    tsr_tensor *t = tsr_tensor_empty_format(nd, sizes, dt, dev, cl ? TSR_MF_CHANNELS_LAST : TSR_MF_CONTIGUOUS);
    if (t && tsr_fill_(t, num(dt, 0)) < 0) take(&t, NULL);
    return t;
}

static tsr_tensor *sum_dims(const tsr_tensor *t, int n, const int64_t *d)
{
    tsr_dims dims = {.n = n};
    memcpy(dims.d, d, sizeof(int64_t) * (size_t)n);
    return tsr_sum(t, &dims, false, TSR_DTYPE_UNDEFINED, NULL);
}

/* Slow2d / SlowDilated2d of one group: x [N,C,H,W], w [O,C,kh,kw],
 * g [N,O,OH,OW] (any strides; made contiguous in the backend layout). */
static int slow_nogroup(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, const int64_t *st,
                        const int64_t *pd, const int64_t *dl, bool cl, bool dilated, const bool *mask, tsr_tensor **gi,
                        tsr_tensor **gw, tsr_tensor **gb)
{
    tsr_memory_format mf = cl ? TSR_MF_CHANNELS_LAST : TSR_MF_CONTIGUOUS;
    tsr_dtype dt = x->dtype;
    int isz = tsr_dtype_itemsize(dt);
    int64_t N = x->sizes[0], C = x->sizes[1], H = x->sizes[2], W = x->sizes[3], O = w->sizes[0];
    int64_t k[2] = {w->sizes[2], w->sizes[3]}, OH = g->sizes[2], OW = g->sizes[3], P = OH * OW, K = C * k[0] * k[1];
    tsr_tensor *gc = tsr_contiguous(g, mf), *xc = gc ? tsr_contiguous(x, mf) : NULL;
    tsr_tensor *wc = xc ? tsr_contiguous(w, mf) : NULL, *colt = NULL;
    int64_t kp = K * P;
    int rc = -1;
    if (!wc || !(colt = tsr_tensor_empty(1, &kp, dt, x->device))) goto done;
    char *cols = tsr_tensor_ptr(colt, NULL);
    const char *gob = tsr_tensor_ptr(gc, NULL), *xb = tsr_tensor_ptr(xc, NULL), *wb = tsr_tensor_ptr(wc, NULL);
    tsr_scalar one = num(dt, 1), zero = num(dt, 0);
    if (mask[0]) {   /* columns = weight^T @ grad_output, then col2im */
        if (!(*gi = zeros_fmt(4, x->sizes, dt, x->device, cl))) goto done;
        char *ib = tsr_tensor_ptr(*gi, NULL);
        for (int64_t n = 0; n < N; n++) {
            if (tsr_check_interrupt() < 0) goto done;
            const char *go = gob + n * O * P * isz;
            if (cl) tsr_gemm(dt, false, false, K, P, O, one, wb, K, go, O, zero, cols, K);
            else tsr_gemm(dt, false, true, P, K, O, one, go, P, wb, K, zero, cols, P);
            fold(dt, ib + n * C * H * W * isz, cols, C, H, W, k, st, pd, dl, OH, OW, cl);
        }
    }
    if (mask[1]) {   /* grad_weight += grad_output @ columns^T per batch element */
        if (!(*gw = zeros_fmt(4, w->sizes, dt, x->device, cl))) goto done;
        char *wgb = tsr_tensor_ptr(*gw, NULL);
        for (int64_t n = 0; n < N; n++) {
            if (tsr_check_interrupt() < 0) goto done;
            const char *go = gob + n * O * P * isz;
            tsr__conv_unfold(cols, xb + n * xc->strides[0] * isz, isz, C, H, W, xc->strides[1], xc->strides[2],
                             xc->strides[3], k, st, pd, dl, OH, OW, cl);
            if (cl) tsr_gemm(dt, false, true, K, O, P, one, cols, K, go, O, one, wgb, K);
            else tsr_gemm(dt, true, false, K, O, P, one, cols, P, go, P, one, wgb, K);
        }
    }
    if (mask[2]) {
        if (!dilated) {   /* at::sum_out(grad_bias, grad_output, {0, 2, 3}) over grad_output as it came */
            if (!(*gb = sum_dims(g, 3, (const int64_t[]){0, 2, 3}))) goto done;
        } else {          /* grad_bias += grad_output_n.sum({1, 2}) per batch element */
            if (!(*gb = zeros_fmt(1, &O, dt, x->device, false))) goto done;
            for (int64_t n = 0; n < N; n++) {
                tsr_tensor *gn = tsr_view_select(gc, 0, n), *s = gn ? sum_dims(gn, 2, (const int64_t[]){1, 2}) : NULL;
                tsr_operand os = tsr_operand_tensor(s);
                tsr_tensor *r = s ? tsr_binary_(TSR_BINOP_ADD, *gb, &os, NULL) : NULL;
                tsr_tensor_release(gn);
                tsr_tensor_release(s);
                if (!r) goto done;
                tsr_tensor_release(r);
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

/* slow_conv_transpose2d_backward of one group: x [N,Cin,H,W],
 * w [Cin,Og,kh,kw], g [N,Og,OH,OW]; contiguous. columns = im2col(grad
 * output) (a plain copy when no columns are needed: the same values). */
static int transpose_nogroup(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, const int64_t *st,
                             const int64_t *pd, const int64_t *dl, const bool *mask, tsr_tensor **gi, tsr_tensor **gw,
                             tsr_tensor **gb)
{
    tsr_dtype dt = x->dtype;
    int isz = tsr_dtype_itemsize(dt);
    int64_t N = x->sizes[0], Cin = x->sizes[1], H = x->sizes[2], W = x->sizes[3], Og = w->sizes[1];
    int64_t k[2] = {w->sizes[2], w->sizes[3]}, OH = g->sizes[2], OW = g->sizes[3], P = H * W, M = Og * k[0] * k[1];
    tsr_tensor *gc = tsr_contiguous(g, TSR_MF_CONTIGUOUS), *xc = gc ? tsr_contiguous(x, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *wc = xc ? tsr_contiguous(w, TSR_MF_CONTIGUOUS) : NULL, *colt = NULL;
    int64_t mp = M * P;
    int rc = -1;
    if (!wc || !(colt = tsr_tensor_empty(1, &mp, dt, x->device))) goto done;
    char *cols = tsr_tensor_ptr(colt, NULL);
    const char *gob = tsr_tensor_ptr(gc, NULL), *xb = tsr_tensor_ptr(xc, NULL), *wb = tsr_tensor_ptr(wc, NULL);
    tsr_scalar one = num(dt, 1), zero = num(dt, 0);
    if (mask[0] && !(*gi = zeros_fmt(4, x->sizes, dt, x->device, false))) goto done;
    if (mask[1] && !(*gw = zeros_fmt(4, w->sizes, dt, x->device, false))) goto done;
    if (mask[0] || mask[1]) {
        for (int64_t n = 0; n < N; n++) {
            if (tsr_check_interrupt() < 0) goto done;
            tsr__conv_unfold(cols, gob + n * Og * OH * OW * isz, isz, Og, OH, OW, OH * OW, OW, 1, k, st, pd, dl, H, W,
                             false);
            if (mask[0])
                tsr_gemm(dt, false, false, P, Cin, M, one, cols, P, wb, M, zero,
                         (char *)tsr_tensor_ptr(*gi, NULL) + n * Cin * P * isz, P);
            if (mask[1])
                tsr_gemm(dt, true, false, M, Cin, P, one, cols, P, xb + n * Cin * P * isz, P, one,
                         tsr_tensor_ptr(*gw, NULL), M);
        }
    }
    if (mask[2] && !(*gb = sum_dims(gc, 3, (const int64_t[]){0, 2, 3}))) goto done;
    rc = 0;
done:
    tsr_tensor_release(colt);
    tsr_tensor_release(gc);
    tsr_tensor_release(xc);
    tsr_tensor_release(wc);
    return rc;
}

/* subtensor(): the g-th of groups slices along dim, contiguous in its own
 * suggested layout */
static tsr_tensor *subtensor(const tsr_tensor *t, int64_t dim, int64_t groups, int64_t g)
{
    int64_t n = t->sizes[dim] / groups;
    tsr_tensor *v = tsr_view_narrow(t, dim, n * g, n);
    if (v) take(&v, tsr_contiguous(v, tsr_tensor_suggest_memory_format(t)));
    return v;
}

/* *dst's slice g of groups along dim = part (dst made like the full
 * tensor of sizes on the first call). 0 or -1. */
static int put(tsr_tensor **dst, const tsr_tensor *part, int nd, const int64_t *sizes, int64_t dim, int64_t groups,
               int64_t g)
{
    if (!*dst && !(*dst = tsr_tensor_empty_format(nd, sizes, part->dtype, part->device,
                                                  tsr_tensor_suggest_memory_format(part))))
        return -1;
    int64_t n = sizes[dim] / groups;
    tsr_tensor *v = tsr_view_narrow(*dst, dim, n * g, n);
    int rc = v ? tsr_copy_(v, part) : -1;
    tsr_tensor_release(v);
    return rc;
}

/* The slow backends over groups: per group, then concatenated (the cat of
 * dims 1, 0, 0 as copies into the full results). */
static int slow_groups(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, const int64_t *st,
                       const int64_t *pd, const int64_t *dl, int64_t groups, bool transposed, bool cl, bool dilated,
                       const bool *mask, tsr_tensor **gi, tsr_tensor **gw, tsr_tensor **gb)
{
    if (groups == 1)
        return transposed ? transpose_nogroup(g, x, w, st, pd, dl, mask, gi, gw, gb)
                          : slow_nogroup(g, x, w, st, pd, dl, cl, dilated, mask, gi, gw, gb);
    int64_t O = transposed ? w->sizes[1] * groups : w->sizes[0];
    for (int64_t i = 0; i < groups; i++) {
        tsr_tensor *gg = subtensor(g, 1, groups, i), *xg = gg ? subtensor(x, 1, groups, i) : NULL;
        tsr_tensor *wg = xg ? subtensor(w, 0, groups, i) : NULL, *p[3] = {NULL, NULL, NULL};
        int r = !wg ? -1
                : transposed ? transpose_nogroup(gg, xg, wg, st, pd, dl, mask, &p[0], &p[1], &p[2])
                             : slow_nogroup(gg, xg, wg, st, pd, dl, cl, dilated, mask, &p[0], &p[1], &p[2]);
        if (r == 0 && mask[0]) r = put(gi, p[0], 4, x->sizes, 1, groups, i);
        if (r == 0 && mask[1]) r = put(gw, p[1], 4, w->sizes, 0, groups, i);
        if (r == 0 && mask[2]) r = put(gb, p[2], 1, &O, 0, groups, i);
        for (int q = 0; q < 3; q++) tsr_tensor_release(p[q]);
        tsr_tensor_release(gg);
        tsr_tensor_release(xg);
        tsr_tensor_release(wg);
        if (r < 0) return -1;
    }
    return 0;
}

int tsr_nn_conv_backward(const tsr_tensor *g, const tsr_tensor *input, const tsr_tensor *weight, int dim,
                         const int64_t *stride, const int64_t *padding, const int64_t *dilation, bool transposed,
                         const int64_t *opad, int64_t groups, const bool *mask, tsr_tensor **gi, tsr_tensor **gw,
                         tsr_tensor **gb)
{
    *gi = *gw = *gb = NULL;   /* the output size is g's */
    if (tsr__conv_external(input) || tsr__conv_external(g) || tsr__conv_external(weight)) {
        if (!tsr__conv_external(input) || !tsr__conv_external(g) || !tsr__conv_external(weight)) {
            tsr_error_set(TSR_ERR_RUNTIME, "Expected all tensors to be on the same device");
            return -1;
        }
        if (tsr__conv_dev_backward(g, input, weight, dim, stride, padding, dilation, transposed, groups, mask, gi, gw,
                                   gb) == 0)
            return 0;
        take(gi, NULL), take(gw, NULL), take(gb, NULL);
        return -1;
    }
    for (int i = 0; !transposed && opad && i < dim; i++)
        if (opad[i] != 0) {   /* a non-transposed convolution of the double backward of a transposed one */
            char buf[256];
            int len = 0;
            for (int k = 0; k < dim && len < 200; k++) len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%lld",
                                                                      k ? " " : "", (long long)opad[k]);
            tsr_error_set(TSR_ERR_RUNTIME, "output_padding is not supported for non-transposed convolutions; got: %s", buf);
            return -1;
        }
    if (tsr_tensor_is_meta(input)) {   /* 1.13's meta convolution backend has no backward */
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "convolution_backward_overrideable: You are likely triggering this with "
                      "tensor backend other than CPU/CUDA/MKLDNN, if this is intended, please use TORCH_LIBRARY_IMPL "
                      "to override this function ");
        return -1;
    }
    if (dim == 3) return tsr__conv3d_backward(g, input, weight, stride, padding, dilation, transposed, groups, mask, gi,
                                              gw, gb);
    int64_t st[2] = {1, 1}, pd[2] = {0, 0}, dl[2] = {1, 1};
    tsr_tensor *x = NULL, *w = NULL, *g4 = NULL;
    if (dim == 1) {   /* view1d_as_2d: (N, C, 1, L) */
        st[1] = stride[0], pd[1] = padding[0], dl[1] = dilation[0];
        x = tsr_contiguous(input, TSR_MF_CONTIGUOUS);
        if (!x || !take(&x, tsr_view_unsqueeze(x, 2)) || !(w = tsr_view_unsqueeze(weight, 2)) ||
            !(g4 = tsr_view_unsqueeze(g, 2)))
            goto fail;
    } else {
        memcpy(st, stride, sizeof st), memcpy(pd, padding, sizeof pd), memcpy(dl, dilation, sizeof dl);
        x = tsr_tensor_retain((tsr_tensor *)input);
        w = tsr_tensor_retain((tsr_tensor *)weight);
        g4 = tsr_tensor_retain((tsr_tensor *)g);
    }
    int64_t O = transposed ? w->sizes[1] * groups : w->sizes[0];
    if (x->sizes[0] == 0 || x->sizes[1] == 0) {   /* ConvBackend::Empty */
        if (mask[0] && !(*gi = tsr_zeros(4, x->sizes, x->dtype, x->device))) goto fail;
        if (mask[1] && !(*gw = tsr_zeros(4, w->sizes, w->dtype, w->device))) goto fail;
        if (mask[2] && !(*gb = tsr_zeros(1, &O, w->dtype, w->device))) goto fail;
    } else if (!transposed && tsr__conv_use_mkldnn(x, w, st, dl, groups)) {
        bool cl = tsr_tensor_suggest_memory_format(x) == TSR_MF_CHANNELS_LAST ||
                  tsr_tensor_suggest_memory_format(w) == TSR_MF_CHANNELS_LAST;
        tsr_tensor *wtmp = NULL;
        if (mask[0] && !(*gi = tsr_tensor_empty_format(4, x->sizes, x->dtype, x->device,
                                                       cl ? TSR_MF_CHANNELS_LAST : TSR_MF_CONTIGUOUS)))
            goto fail;
        if ((mask[1] || mask[2]) && !(wtmp = tsr_tensor_empty(4, w->sizes, w->dtype, w->device))) goto fail;
        if (mask[2] && !(*gb = tsr_tensor_empty(1, &O, w->dtype, w->device))) {
            tsr_tensor_release(wtmp);
            goto fail;
        }
        int rc = tsr__conv2d_dnnl_backward(*gi, wtmp, *gb, g4, x, w, st, pd, dl, groups, cl);
        /* mkldnn_convolution_backward_weights: mkldnn_to_dense(...).to(ChannelsLast) when channels last */
        if (mask[1]) *gw = cl ? tsr_contiguous(wtmp, TSR_MF_CHANNELS_LAST) : tsr_tensor_retain(wtmp);
        tsr_tensor_release(wtmp);
        if (rc < 0 || (mask[1] && !*gw)) goto fail;
        if (rc > 0) {   /* no oneDNN: the forward computed with im2col, and so does this */
            take(gi, NULL), take(gw, NULL), take(gb, NULL);
            if (slow_groups(g4, x, w, st, pd, dl, groups, false, cl, dl[0] != 1 || dl[1] != 1, mask, gi, gw, gb) < 0)
                goto fail;
        }
    } else {
        bool cl = !transposed && (tsr_tensor_suggest_memory_format(x) == TSR_MF_CHANNELS_LAST ||
                                  tsr_tensor_suggest_memory_format(w) == TSR_MF_CHANNELS_LAST);
        if (slow_groups(g4, x, w, st, pd, dl, groups, transposed, cl, dl[0] != 1 || dl[1] != 1, mask, gi, gw, gb) < 0)
            goto fail;
    }
    if (dim == 1) {   /* view3d */
        if (*gi && !take(gi, tsr_view_squeeze_dim(*gi, 2))) goto fail;
        if (*gw && !take(gw, tsr_view_squeeze_dim(*gw, 2))) goto fail;
    }
    tsr_tensor_release(x);
    tsr_tensor_release(w);
    tsr_tensor_release(g4);
    return 0;
fail:
    tsr_tensor_release(x);
    tsr_tensor_release(w);
    tsr_tensor_release(g4);
    take(gi, NULL);
    take(gw, NULL);
    take(gb, NULL);
    return -1;
}

/* ------------------------------------------------------------ the graph */

/* expand_param_if_needed after the forward's checks: one value repeated */
static void expand(int n, const int64_t *in, int dim, int64_t *out)
{
    for (int i = 0; i < dim; i++) out[i] = n == 1 ? in[0] : in[i];
}

tsr_tensor *tsr_nn_conv_graph(const tsr_tensor *input, const tsr_tensor *weight, const tsr_tensor *bias, int nsp,
                              int nstride, const int64_t *stride, int npad, const int64_t *padding, int ndil,
                              const int64_t *dilation, int64_t groups, const char *padmode, int nopad,
                              const int64_t *opad)
{
    bool transposed = opad != NULL;
    tsr_tensor *r = transposed ? tsr_nn_conv_transpose(input, weight, bias, nsp, nstride, stride, npad, padding, nopad,
                                                       opad, groups, ndil, dilation)
                               : tsr_nn_conv(input, weight, bias, nsp, nstride, stride, npad, padding, ndil, dilation,
                                             groups, padmode);
    tsr_tensor *const ins[3] = {(tsr_tensor *)input, (tsr_tensor *)weight, (tsr_tensor *)bias};
    if (!r || !tsr_ag_needed(bias ? 3 : 2, ins)) return r;
    if (tsr_dtype_is_complex(r->dtype)) {
        tsr_tensor_release(r);
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative of a complex convolution is not supported by tsr yet");
        return NULL;
    }
    int dim = nsp;
    tsr_ag_args a = {.ndims = dim, .i0 = groups, .flag = transposed};
    int q = dim == 3 ? 3 : 2;   /* the node's stride, padding, dilation, output_padding: q entries apart */
    int64_t *st = a.dims, *pd = a.dims + q, *dl = a.dims + 2 * q, *op = a.dims + 3 * q;
    int64_t zero = 0;
    expand(nstride, stride, dim, st);
    expand(ndil, dilation, dim, dl);
    expand(transposed ? nopad : 1, transposed ? opad : &zero, dim, op);
    if (padmode) expand(1, &zero, dim, pd);
    else expand(npad, padding, dim, pd);
    bool batched = input->ndim == nsp + 2;
    tsr_tensor *xb = NULL, *xp = NULL, *r4 = NULL, *out = NULL;
    if (batched) {
        xb = tsr_tensor_retain((tsr_tensor *)input);
    } else {
        tsr_ag_args ua = {.i0 = 0};
        if (!(xb = tsr_view_unsqueeze(input, 0)) || tsr_ag_record("unsqueeze", 1, ins, &ua, xb, false) < 0) goto fail;
    }
    xp = tsr_tensor_retain(xb);
    if (padmode && !strcmp(padmode, "same")) {   /* convolution_same's padding and its extra column */
        int64_t padnd[6] = {0, 0, 0, 0, 0, 0};
        bool sym = true;
        for (int i = 0; i < dim; i++) {
            int64_t total = dl[i] * (weight->sizes[i + 2] - 1), left = total / 2, right = total - left;
            pd[i] = left;
            if (left != right) {
                sym = false;
                padnd[2 * (dim - 1 - i) + 1] = right - left;
            }
        }
        if (!sym) {
            tsr_ag_args pa = {.ndims = 2 * dim};
            memcpy(pa.dims, padnd, sizeof(int64_t) * (size_t)(2 * dim));
            if (!take(&xp, tsr_constant_pad_nd(xb, 2 * dim, padnd, tsr_scalar_int(0))) ||
                tsr_ag_record("constant_pad_nd", 1, &xb, &pa, xp, false) < 0)
                goto fail;
        }
    }
    if (!(r4 = batched ? tsr_tensor_retain(r) : tsr_view_unsqueeze(r, 0))) goto fail;
    tsr_tensor *const cin[3] = {xp, (tsr_tensor *)weight, (tsr_tensor *)bias};
    if (tsr_ag_record("convolution", 3, cin, &a, r4, false) < 0) goto fail;
    if (batched) {
        out = tsr_tensor_retain(r4);
    } else {
        tsr_ag_args sa = {.i0 = 0};
        if (!(out = tsr_view_squeeze_dim(r4, 0)) || tsr_ag_record("squeeze_dim", 1, &r4, &sa, out, false) < 0)
            goto fail;
    }
    tsr_tensor_release(r);
    tsr_tensor_release(xb);
    tsr_tensor_release(xp);
    tsr_tensor_release(r4);
    return out;
fail:
    tsr_tensor_release(r);
    tsr_tensor_release(xb);
    tsr_tensor_release(xp);
    tsr_tensor_release(r4);
    tsr_tensor_release(out);
    return NULL;
}
