/* runtime/ops/nn_conv_dev.c — convolution on a device (cuda), composed of
 * device-aware primitives: zero padding (a zero tensor and a copy into its
 * narrowed view), im2col as an as_strided window view made contiguous by the
 * device copy kernel, one bmm per group on cuBLAS, the bias added by the
 * elementwise engine. A transposed convolution is the plain one over the
 * input with stride - 1 zeros between its elements, padded by
 * dilation * (k - 1) - padding, with the weight flipped and its channel dims
 * swapped; the input gradient of a convolution is that transposed one, the
 * weight gradient a bmm of the columns with grad_output. The host never
 * reads device memory. */
#include <stdio.h>
#include <string.h>

#include "nn_conv.h"
#include "binary.h"
#include "blas.h"
#include "copy.h"
#include "factory.h"
#include "reduce.h"
#include "rearrange.h"
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

static tsr_tensor *reshape(const tsr_tensor *t, int n, const int64_t *sizes)
{
    tsr_tensor *c = tsr_contiguous(t, TSR_MF_CONTIGUOUS), *r = c ? tsr_view_view(c, n, sizes) : NULL;
    tsr_tensor_release(c);
    return r;
}

static tsr_tensor *permuted(const tsr_tensor *t, int n, const int64_t *dims)
{
    tsr_tensor *p = tsr_view_permute(t, n, dims), *r = p ? tsr_contiguous(p, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor_release(p);
    return r;
}

/* x (N, C, S...) widened by lo[i] before and hi[i] after spatial dim i with
 * zeros; a negative amount crops. The overlap is copied on the device. */
static tsr_tensor *pad_crop(const tsr_tensor *x, int dim, const int64_t *lo, const int64_t *hi)
{
    bool same = true;
    for (int i = 0; i < dim; i++) same = same && lo[i] == 0 && hi[i] == 0;
    if (same) return tsr_tensor_retain((tsr_tensor *)x);
    int64_t sz[5] = {x->sizes[0], x->sizes[1]};
    for (int i = 0; i < dim; i++) sz[i + 2] = x->sizes[i + 2] + lo[i] + hi[i];
    tsr_tensor *r = tsr_zeros(dim + 2, sz, x->dtype, x->device), *dst = r ? tsr_tensor_retain(r) : NULL;
    tsr_tensor *src = dst ? tsr_tensor_retain((tsr_tensor *)x) : NULL;
    for (int i = 0; src && i < dim; i++) {
        int64_t d0 = lo[i] > 0 ? lo[i] : 0, s0 = lo[i] < 0 ? -lo[i] : 0;
        int64_t n = x->sizes[i + 2] - s0 - (hi[i] < 0 ? -hi[i] : 0);
        if (n <= 0) break;   /* nothing overlaps: all zeros */
        if (!take(&dst, tsr_view_narrow(dst, i + 2, d0, n)) || !take(&src, tsr_view_narrow(src, i + 2, s0, n))) break;
        if (i == dim - 1 && tsr_copy_(dst, src) < 0) take(&r, NULL);
    }
    if (!src || !dst) take(&r, NULL);
    tsr_tensor_release(dst);
    tsr_tensor_release(src);
    return r;
}

/* (N, C, (S - 1) * st + 1 ...) zeros with x's elements st apart */
static tsr_tensor *spread(const tsr_tensor *x, int dim, const int64_t *st)
{
    bool unit = true;
    for (int i = 0; i < dim; i++) unit = unit && st[i] == 1;
    if (unit) return tsr_tensor_retain((tsr_tensor *)x);
    int64_t sz[5] = {x->sizes[0], x->sizes[1]};
    for (int i = 0; i < dim; i++) sz[i + 2] = (x->sizes[i + 2] - 1) * st[i] + 1;
    tsr_tensor *r = tsr_zeros(dim + 2, sz, x->dtype, x->device), *v = NULL;
    if (!r) return NULL;
    int64_t vst[5] = {r->strides[0], r->strides[1]};
    for (int i = 0; i < dim; i++) vst[i + 2] = r->strides[i + 2] * st[i];
    if (!(v = tsr_view_as_strided(r, dim + 2, x->sizes, vst, TSR_VIEW_KEEP_OFFSET)) || tsr_copy_(v, x) < 0)
        take(&r, NULL);
    tsr_tensor_release(v);
    return r;
}

/* im2col of the padded xp (N, C, Sp...): (groups, N * P, C / groups * K)
 * with P the product of osz, K of k; rows (n, output position), columns
 * (channel, kernel offset) as the weight (O, C / groups, k...) lays out. */
static tsr_tensor *columns(const tsr_tensor *xp, int dim, int64_t groups, const int64_t *k, const int64_t *st,
                           const int64_t *dl, const int64_t *osz)
{
    int64_t N = xp->sizes[0], Cg = xp->sizes[1] / groups, P = 1, K = 1;
    int64_t sz[9] = {N, groups, Cg}, sd[9] = {xp->strides[0], Cg * xp->strides[1], xp->strides[1]}, perm[9];
    for (int i = 0; i < dim; i++) {
        sz[3 + i] = osz[i], sd[3 + i] = st[i] * xp->strides[i + 2];
        sz[3 + dim + i] = k[i], sd[3 + dim + i] = dl[i] * xp->strides[i + 2];
        P *= osz[i], K *= k[i];
    }
    int n = 3 + 2 * dim, q = 0;
    perm[q++] = 1, perm[q++] = 0;
    for (int i = 0; i < dim; i++) perm[q++] = 3 + i;
    perm[q++] = 2;
    for (int i = 0; i < dim; i++) perm[q++] = 3 + dim + i;
    tsr_tensor *w = tsr_view_as_strided(xp, n, sz, sd, TSR_VIEW_KEEP_OFFSET);
    tsr_tensor *c = w ? permuted(w, n, perm) : NULL;
    tsr_tensor_release(w);
    int64_t cs[3] = {groups, N * P, Cg * K};
    if (c) take(&c, tsr_view_view(c, 3, cs));
    return c;
}

/* the output rows of a bmm (groups, N * P, Og) as (N, groups * Og, osz...) */
static tsr_tensor *rows_to_output(const tsr_tensor *r, int dim, int64_t N, const int64_t *osz)
{
    int64_t groups = r->sizes[0], Og = r->sizes[2], sz[6] = {groups, N}, perm[6] = {1, 0, dim + 2}, os[5] = {N, groups * Og};
    for (int i = 0; i < dim; i++) sz[2 + i] = osz[i], perm[3 + i] = 2 + i, os[2 + i] = osz[i];
    sz[2 + dim] = Og;
    tsr_tensor *v = tsr_view_view(r, dim + 3, sz), *p = v ? permuted(v, dim + 3, perm) : NULL;
    tsr_tensor_release(v);
    if (p) take(&p, tsr_view_view(p, dim + 2, os));
    return p;
}

/* grad_output g (N, O, osz...) as bmm rows (groups, N * P, Og) */
static tsr_tensor *output_to_rows(const tsr_tensor *g, int dim, int64_t groups)
{
    int64_t N = g->sizes[0], Og = g->sizes[1] / groups, P = 1;
    for (int i = 0; i < dim; i++) P *= g->sizes[i + 2];
    int64_t sz[4] = {N, groups, Og, P}, perm[4] = {1, 0, 3, 2}, rs[3] = {groups, N * P, Og};
    tsr_tensor *v = reshape(g, 4, sz), *p = v ? permuted(v, 4, perm) : NULL;
    tsr_tensor_release(v);
    if (p) take(&p, tsr_view_view(p, 3, rs));
    return p;
}

static tsr_tensor *bin(tsr_binop op, const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_operand oa = tsr_operand_tensor(a), ob = tsr_operand_tensor(b);
    return tsr_binary(op, &oa, &ob, NULL, NULL);
}

/* the convolution of the batched x (N, C, S...) and w (O, C / groups, k...)
 * on x's device, bias NULL or (O); st/pd/dl dim entries each. */
static tsr_tensor *conv_forward(const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias, int dim,
                                const int64_t *st, const int64_t *pd, const int64_t *dl, int64_t groups)
{
    int64_t N = x->sizes[0], O = w->sizes[0], Og = O / groups, Kc = w->sizes[1], osz[3], k[3];
    for (int i = 0; i < dim; i++) {
        k[i] = w->sizes[i + 2];
        osz[i] = (x->sizes[i + 2] + 2 * pd[i] - dl[i] * (k[i] - 1) - 1) / st[i] + 1;
        Kc *= k[i];
    }
    tsr_tensor *xp = pad_crop(x, dim, pd, pd), *cols = xp ? columns(xp, dim, groups, k, st, dl, osz) : NULL;
    int64_t ws[3] = {groups, Og, Kc};
    tsr_tensor *wm = cols ? reshape(w, 3, ws) : NULL, *wt = wm ? tsr_view_transpose(wm, 1, 2) : NULL;
    tsr_tensor *r = wt ? tsr_bmm(cols, wt, NULL) : NULL, *out = r ? rows_to_output(r, dim, N, osz) : NULL;
    if (out && bias) {
        int64_t bs[4] = {O, 1, 1, 1};
        tsr_tensor *bv = tsr_view_view(bias, dim + 1, bs);
        take(&out, bv ? bin(TSR_BINOP_ADD, out, bv) : NULL);
        tsr_tensor_release(bv);
    }
    tsr_tensor_release(xp);
    tsr_tensor_release(cols);
    tsr_tensor_release(wm);
    tsr_tensor_release(wt);
    tsr_tensor_release(r);
    return out;
}

/* the transposed convolution's weight (Cin, Og, k...) as a plain
 * convolution's (groups * Og, Cin / groups, k...), kernel flipped */
static tsr_tensor *transposed_weight(const tsr_tensor *w, int dim, int64_t groups)
{
    int64_t Cin = w->sizes[0], Og = w->sizes[1], sz[6] = {groups, Cin / groups, Og}, perm[6] = {0, 2, 1}, fl[3];
    int64_t os[5] = {groups * Og, Cin / groups};
    for (int i = 0; i < dim; i++) sz[3 + i] = w->sizes[i + 2], perm[3 + i] = 3 + i, fl[i] = 3 + i, os[2 + i] = w->sizes[i + 2];
    tsr_tensor *v = tsr_view_view(w, dim + 3, sz), *p = v ? tsr_view_permute(v, dim + 3, perm) : NULL;
    tsr_tensor *f = p ? tsr_flip(p, dim, fl) : NULL, *r = f ? reshape(f, dim + 2, os) : NULL;
    tsr_tensor_release(v);
    tsr_tensor_release(p);
    tsr_tensor_release(f);
    return r;
}

static tsr_tensor *conv_transpose_forward(const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias, int dim,
                                          const int64_t *st, const int64_t *pd, const int64_t *dl, const int64_t *op,
                                          int64_t groups)
{
    int64_t lo[3], hi[3], one[3] = {1, 1, 1}, zero[3] = {0, 0, 0};
    for (int i = 0; i < dim; i++) lo[i] = dl[i] * (w->sizes[i + 2] - 1) - pd[i], hi[i] = lo[i] + op[i];
    tsr_tensor *wc = transposed_weight(w, dim, groups), *xs = wc ? spread(x, dim, st) : NULL;
    tsr_tensor *xp = xs ? pad_crop(xs, dim, lo, hi) : NULL;
    tsr_tensor *r = xp ? conv_forward(xp, wc, bias, dim, one, zero, dl, groups) : NULL;
    tsr_tensor_release(wc);
    tsr_tensor_release(xs);
    tsr_tensor_release(xp);
    return r;
}

/* the weight gradient of a convolution of x (N, C, S...) whose
 * grad_output is g (N, O, osz...): (O, C / groups, k...) */
static tsr_tensor *weight_grad(const tsr_tensor *x, const tsr_tensor *g, int dim, const int64_t *k, const int64_t *st,
                               const int64_t *pd, const int64_t *dl, int64_t groups)
{
    int64_t O = g->sizes[1], Cg = x->sizes[1] / groups, osz[3], ws[5] = {O, Cg};
    for (int i = 0; i < dim; i++) osz[i] = g->sizes[i + 2], ws[i + 2] = k[i];
    tsr_tensor *xp = pad_crop(x, dim, pd, pd), *cols = xp ? columns(xp, dim, groups, k, st, dl, osz) : NULL;
    tsr_tensor *gr = cols ? output_to_rows(g, dim, groups) : NULL, *gt = gr ? tsr_view_transpose(gr, 1, 2) : NULL;
    tsr_tensor *r = gt ? tsr_bmm(gt, cols, NULL) : NULL, *out = r ? reshape(r, dim + 2, ws) : NULL;
    tsr_tensor_release(xp);
    tsr_tensor_release(cols);
    tsr_tensor_release(gr);
    tsr_tensor_release(gt);
    tsr_tensor_release(r);
    return out;
}

static tsr_tensor *bias_grad(const tsr_tensor *g, int dim)
{
    tsr_dims dims = {.n = dim + 1};
    dims.d[0] = 0;
    for (int i = 0; i < dim; i++) dims.d[i + 1] = i + 2;
    return tsr_sum(g, &dims, false, TSR_DTYPE_UNDEFINED, NULL);
}

static bool external(const tsr_tensor *t) { return t && t->device.type != TSR_DEV_CPU && t->device.type != TSR_DEV_META; }

static const char *type_string(const tsr_tensor *t, char *buf, size_t n)
{
    char b[48];
    tsr_dtype_aten_type_string(t->dtype, b, sizeof b);
    if (external(t) && !strncmp(b, "torch.", 6)) snprintf(buf, n, "torch.cuda.%s", b + 6);
    else if (external(t) && !strncmp(b, "CPU", 3)) snprintf(buf, n, "CUDA%s", b + 3);
    else snprintf(buf, n, "%s", b);
    return buf;
}

int tsr__conv_dev_check(const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias)
{
    if (!external(x) && !external(w) && !external(bias)) return 0;
    const tsr_tensor *ps[2] = {w, bias};
    const char *names[2] = {"weight", "bias"};
    for (int i = 0; i < 2; i++) {
        const tsr_tensor *p = ps[i];
        if (!p || (tsr_device_equal(p->device, x->device) && p->dtype == x->dtype)) continue;
        char a[96], b[96];
        /* check_input_same_type_as_parameters (ConvUtils.h) */
        tsr_error_set(TSR_ERR_RUNTIME, "Input type (%s) and %s type (%s) should be the same%s", type_string(x, a, sizeof a),
                      names[i], type_string(p, b, sizeof b),
                      external(x) ? "" : i ? " or input should be a MKLDNN tensor and bias is a dense tensor"
                                          : " or input should be a MKLDNN tensor and weight is a dense tensor");
        return -1;
    }
    return 0;
}

/* the CUDA kernels of 1.13 that a dtype cuDNN does not take reaches */
static int dtype_check(const tsr_tensor *x, int dim, bool transposed)
{
    tsr_dtype d = x->dtype;
    if (d == TSR_FLOAT16 || d == TSR_FLOAT32 || d == TSR_FLOAT64 || d == TSR_BFLOAT16) return 0;
    tsr__not_implemented(transposed ? (dim == 3 ? "slow_conv_transpose3d_out_cuda" : "slow_conv_transpose2d_out_cuda")
                                    : (dim == 3 ? "slow_conv3d_cuda" : "slow_conv2d_cuda"), d);
    return -1;
}

tsr_tensor *tsr__conv_dev(const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias, int dim, const int64_t *st,
                          const int64_t *pd, const int64_t *dl, const int64_t *op, int64_t groups, bool transposed)
{
    char b1[256];
    for (int i = 0; i < dim; i++)
        if (dl[i] <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "dilation should be greater than zero, but got %s",
                          tsr__fmt_list(b1, sizeof b1, dim, dl));
            return NULL;
        }
    int64_t osz[5] = {x->sizes[0], transposed ? w->sizes[1] * groups : w->sizes[0]};
    for (int i = 0; i < dim; i++) {
        int64_t k = w->sizes[i + 2];
        osz[i + 2] = transposed ? (x->sizes[i + 2] - 1) * st[i] - 2 * pd[i] + dl[i] * (k - 1) + 1 + op[i]
                                : (x->sizes[i + 2] + 2 * pd[i] - dl[i] * (k - 1) - 1) / st[i] + 1;
    }
    if (x->sizes[0] == 0 || x->sizes[1] == 0) {   /* ConvBackend::Empty */
        if (!transposed && tsr_tensor_numel(w) == 0) osz[1] = 0;
        return tsr_tensor_empty(dim + 2, osz, x->dtype, x->device);
    }
    if (tsr_tensor_numel(x) == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "Only zero batch or zero channel inputs are supported, but got input shape: %s",
                      tsr__fmt_list(b1, sizeof b1, x->ndim, x->sizes));
        return NULL;
    }
    for (int i = 0; transposed && i < dim; i++)
        if (osz[i + 2] < 1) {
            tsr_error_set(TSR_ERR_RUNTIME, "Output size is too small");
            return NULL;
        }
    if (dtype_check(x, dim, transposed) < 0) return NULL;
    tsr_tensor *r = transposed ? conv_transpose_forward(x, w, bias, dim, st, pd, dl, op, groups)
                               : conv_forward(x, w, bias, dim, st, pd, dl, groups);
    /* cudnn_conv_suggest_memory_format: channels last when x or w is */
    tsr_memory_format cl = dim == 2 ? TSR_MF_CHANNELS_LAST : TSR_MF_CHANNELS_LAST_3D;
    if (r && dim >= 2 && (tsr_tensor_suggest_memory_format(x) == cl || tsr_tensor_suggest_memory_format(w) == cl))
        take(&r, tsr_contiguous(r, cl));
    return r;
}

int tsr__conv_dev_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, int dim, const int64_t *st,
                           const int64_t *pd, const int64_t *dl, bool transposed, int64_t groups, const bool *mask,
                           tsr_tensor **gi, tsr_tensor **gw, tsr_tensor **gb)
{
    int64_t k[3], op[3], O = transposed ? w->sizes[1] * groups : w->sizes[0];
    for (int i = 0; i < dim; i++) k[i] = w->sizes[i + 2];
    if (x->sizes[0] == 0 || x->sizes[1] == 0) {   /* ConvBackend::Empty */
        if (mask[0] && !(*gi = tsr_zeros(x->ndim, x->sizes, x->dtype, x->device))) return -1;
        if (mask[1] && !(*gw = tsr_zeros(w->ndim, w->sizes, w->dtype, w->device))) return -1;
        if (mask[2] && !(*gb = tsr_zeros(1, &O, w->dtype, w->device))) return -1;
        return 0;
    }
    if (dtype_check(x, dim, transposed) < 0) return -1;
    if (mask[0]) {
        if (transposed) {   /* the plain convolution of grad_output, the same weight */
            *gi = conv_forward(g, w, NULL, dim, st, pd, dl, groups);
            /* an output_padding of stride or more (below the dilation) left
             * grad_output windows past x's size */
            for (int i = 0; *gi && i < dim; i++)
                if ((*gi)->sizes[i + 2] != x->sizes[i + 2]) take(gi, tsr_view_narrow(*gi, i + 2, 0, x->sizes[i + 2]));
        } else {            /* the transposed one, output_padding making up x's size */
            for (int i = 0; i < dim; i++)
                op[i] = x->sizes[i + 2] - ((g->sizes[i + 2] - 1) * st[i] - 2 * pd[i] + dl[i] * (k[i] - 1) + 1);
            *gi = conv_transpose_forward(g, w, NULL, dim, st, pd, dl, op, groups);
        }
        if (!*gi) return -1;
    }
    if (mask[1] && !(*gw = transposed ? weight_grad(g, x, dim, k, st, pd, dl, groups)
                                      : weight_grad(x, g, dim, k, st, pd, dl, groups)))
        return -1;
    if (mask[2] && !(*gb = bias_grad(g, dim))) return -1;
    return 0;
}
