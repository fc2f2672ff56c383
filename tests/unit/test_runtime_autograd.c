/* tests/unit/test_runtime_autograd.c — every backward formula of the
 * runtime's table against central finite differences in float64: the
 * forward runs through the runtime, the graph is recorded as the call path
 * records it, and the gradient of sum(w * f(x)) for fixed weights w is
 * compared element by element. A formula the walk does not know fails. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "tsr.h"
#include "autograd.h"
#include "autograd_node.h"
#include "ops/indexdim.h"
#include "ops/dispatch.h"
#include "ops/bessel.h"
#include "ops/distance.h"
#include "ops/linalg.h"
#include "ops/nn.h"
#include "ops/nn_bilinear.h"
#include "ops/nn_conv.h"
#include "ops/nn_pool_grad.h"
#include "ops/nn_loss.h"
#include "ops/nn_more.h"
#include "ops/nn_misc2.h"
#include "ops/nn_norm_grad.h"
#include "ops/nn_pool3d.h"
#include "ops/rearrange.h"
#include "ops/reduce.h"
#include "ops/scan.h"
#include "ops/nn_grid.h"
#include "ops/nn_interp.h"
#include "ops/scatter.h"
#include "ops/sort.h"
#include "ops/sparse.h"
#include "ops/special.h"

#define L(...) ((const int64_t[]){__VA_ARGS__})

typedef struct {
    const char *key;
    int nin;                 /* tensor inputs */
    int nd[3];               /* their ranks */
    int64_t sz[3][5];        /* their sizes */
    int domain;              /* 0: any, 1: positive, 2: (-1, 1), 3: an integer index input 1,
                              * 6: (0, 1) and input 1 needs no grad, 7: input 1 needs no grad */
    tsr_ag_args a;
} Case;

static tsr_tensor *bin(tsr_binop op, const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    return tsr_binary(op, &x, &y, NULL, NULL);
}

static tsr_tensor *un(tsr_unop op, const tsr_tensor *a) { return tsr_unary(op, a, NULL, NULL); }

static tsr_dims dims_of(const tsr_ag_args *a)
{
    tsr_dims d = {.n = a->ndims < 0 ? -1 : a->ndims};
    for (int i = 0; i < a->ndims; i++) d.d[i] = a->dims[i];
    return d;
}

/* The forward of key on in (float64), as the language's call computes it. NEW reference. */
/* torch.nn.functional's formulas (an in-place key's forward is its
 * out-of-place one); the index inputs of nll_loss / embedding are fixed */
static const int64_t nll_target[3] = {2, 0, 3}, emb_index[4] = {1, 3, 1, 0};
static const int64_t put_index[2] = {0, 2};
static const int64_t ebag_index[6] = {1, 3, 1, 0, 4, 2}, ebag_offsets[4] = {0, 2, 2, 4};   /* embedding_bag's */
static const int64_t sm_target[6] = {1, -1, -1, 1, -1, 1};   /* soft_margin_loss's target */
static const int64_t mm_target[3] = {3, 0, 1};                 /* multi_margin_loss's, input (3, 4) */
static const int64_t mlm_target[4] = {3, 0, -1, 1};            /* multilabel_margin_loss's, input (4) */   /* index_put_key's key [tensor([0, 2])] */
static tsr_tensor *fixed_index(const int64_t *v, int64_t n)
{
    tsr_tensor *t = tsr_empty(1, &n, TSR_INT64, TSR_CPU, TSR_MF_CONTIGUOUS);
    for (int64_t i = 0; t && i < n; i++) tsr_tensor_set_at(t, i, tsr_scalar_int(v[i]));
    return t;
}

/* nll_loss2d's target: nll_target as (1, 1, 3) */
static tsr_tensor *nll2d_target(void)
{
    tsr_tensor *t = fixed_index(nll_target, 3), *v = t ? tsr_view_view(t, 3, L(1, 1, 3)) : NULL;
    tsr_tensor_release(t);
    return v;
}

/* the bool mask of index_put_mask / masked_select: every third element of 6 */
static tsr_tensor *fixed_mask(void)
{
    int64_t n = 6;
    tsr_tensor *t = tsr_empty(1, &n, TSR_BOOL, TSR_CPU, TSR_MF_CONTIGUOUS);
    for (int64_t i = 0; t && i < n; i++) tsr_tensor_set_at(t, i, tsr_scalar_bool(i % 3 == 1));
    return t;
}

/* The index (mask) of the indexing formulas of issue 19, which the binding
 * keeps on the node; NULL for other keys. NEW reference. */
static tsr_tensor *idx19(const char *k)
{
    static const int64_t add[3] = {0, 2, 0}, fill[2] = {2, 0}, sc[6] = {0, 1, 2, 3, 0, 1}, tk[4] = {0, 5, 5, -1},
                         pt[3] = {1, 4, 7};
    if (!strcmp(k, "index_add")) return fixed_index(add, 3);
    if (!strcmp(k, "index_fill") || !strcmp(k, "index_fill_t")) return fixed_index(fill, 2);
    if (!strcmp(k, "put")) return fixed_index(pt, 3);
    tsr_tensor *flat = !strncmp(k, "scatter", 7) ? fixed_index(sc, 6) : !strcmp(k, "take") ? fixed_index(tk, 4) : NULL;
    if (flat) {
        tsr_tensor *r = tsr_reshape(flat, 2, !strcmp(k, "take") ? L(2, 2) : L(2, 3));
        tsr_tensor_release(flat);
        return r;
    }
    if (!strcmp(k, "masked_scatter")) {   /* (4, 3), every third element */
        int64_t n = 12;
        tsr_tensor *m = tsr_empty(1, &n, TSR_BOOL, TSR_CPU, TSR_MF_CONTIGUOUS), *r;
        for (int64_t i = 0; m && i < n; i++) tsr_tensor_set_at(m, i, tsr_scalar_bool(i % 3 == 1));
        r = tsr_reshape(m, 2, L(4, 3));
        tsr_tensor_release(m);
        return r;
    }
    return NULL;
}

/* The pooling formulas over a 3-D input: kernel, stride, padding as (h, w)
 * pairs in dims[0..5] (the adaptive forms: the output size in dims[0..1]);
 * *ind receives the max forms' indices when asked. */
static tsr_tensor *fwd_pool(const char *key, const tsr_ag_args *a, tsr_tensor *x, tsr_tensor **ind)
{
    const int64_t *d = a->dims, one[2] = {1, 1};
    tsr_tensor *i = NULL, *r = NULL;
    if (!strcmp(key, "max_pool2d")) r = tsr_nn_max_pool2d(x, 2, d, 2, d + 2, 2, d + 4, 2, one, a->flag, &i);
    else if (!strcmp(key, "avg_pool2d")) r = tsr_nn_avg_pool2d(x, 2, d, 2, d + 2, 2, d + 4, false, a->flag, a->has_d0, a->i0);
    else if (!strcmp(key, "adaptive_avg_pool2d")) r = tsr_nn_adaptive_avg_pool2d(x, 2, d);
    else if (!strcmp(key, "adaptive_max_pool2d")) r = tsr_nn_adaptive_max_pool2d(x, 2, d, &i);
    else if (!strcmp(key, "adaptive_max_pool3d")) r = tsr_nn_adaptive_max_pool3d(x, 3, d, &i);
    else if (!strcmp(key, "max_pool3d")) r = tsr_nn_max_pool3d(x, 1, d, 1, d + 1, 1, d + 2, 1, one, false, &i);
    else if (!strncmp(key, "fractional_max_pool", 19)) {   /* fixed samples, 0.3 each, for (N, C) planes */
        int nsp = key[19] == '3' ? 3 : 2;
        int64_t sz[3] = {x->sizes[0], x->sizes[1], nsp};
        tsr_tensor *s = tsr_full(3, sz, tsr_scalar_float(0.3), x->dtype, TSR_CPU);
        r = s ? tsr_nn_fractional_max_pool(x, nsp, nsp, d, nsp, d + 3, s, &i) : NULL;
        tsr_tensor_release(s);
    }
    else if (!strcmp(key, "avg_pool3d")) r = tsr_nn_avg_pool3d(x, 3, d, 3, d + 3, 3, d + 6, false, a->flag, a->has_d0, a->i0);
    else if (!strcmp(key, "adaptive_avg_pool3d")) r = tsr_nn_adaptive_avg_pool3d(x, 3, d);
    else if (!strcmp(key, "max_unpool2d")) {   /* x (1, 2, 2) into (3, 3) planes at fixed places */
        int64_t sz[3] = {1, 2, 2}, at[4] = {0, 4, 5, 7};
        i = tsr_empty(3, sz, TSR_INT64, TSR_CPU, TSR_MF_CONTIGUOUS);
        for (int k = 0; i && k < 4; k++) tsr_tensor_set_at(i, k, tsr_scalar_int(at[k]));
        r = i ? tsr_nn_max_unpool2d(x, i, 2, d) : NULL;
    }
    else if (!strcmp(key, "max_unpool3d")) {   /* x (1, 2, 1, 2) into (2, 2, 2) volumes at fixed places */
        int64_t sz[4] = {1, 2, 1, 2}, at[4] = {0, 3, 5, 6}, st[3] = {1, 1, 1};
        i = tsr_empty(4, sz, TSR_INT64, TSR_CPU, TSR_MF_CONTIGUOUS);
        for (int k = 0; i && k < 4; k++) tsr_tensor_set_at(i, k, tsr_scalar_int(at[k]));
        r = i ? tsr_nn_max_unpool3d(x, i, 3, d, 3, st, 3) : NULL;
    }
    if (ind) *ind = i;
    else tsr_tensor_release(i);
    return r;
}

static tsr_tensor *fwd_nn(const char *k, const tsr_ag_args *a, tsr_tensor **in)
{
    char key[40];
    snprintf(key, sizeof key, "%s", k);
    size_t l = strlen(key);
    if (l > 1 && key[l - 1] == '_') key[l - 1] = 0;
    static const struct { const char *k; tsr_nn_act act; } acts[] = {
        {"silu", TSR_NN_SILU}, {"mish", TSR_NN_MISH}, {"hardsigmoid", TSR_NN_HARDSIGMOID}, {"hardswish", TSR_NN_HARDSWISH},
        {"elu", TSR_NN_ELU}, {"celu", TSR_NN_CELU},
    };
    for (size_t i = 0; i < sizeof acts / sizeof *acts; i++)
        if (!strcmp(key, acts[i].k)) return tsr_nn_activation(acts[i].act, in[0], a->d0, false);
    tsr_reduction red = (tsr_reduction)a->i0;
    if (!strcmp(key, "gelu")) return tsr_nn_gelu(in[0], a->flag ? "tanh" : "none");
    if (!strcmp(key, "softplus")) return tsr_nn_softplus(in[0], a->d0, a->d1);
    if (!strcmp(key, "hardtanh")) return tsr_nn_hardtanh(in[0], a->d0, a->d1, false, "hardtanh");
    if (!strcmp(key, "leaky_relu")) return tsr_nn_leaky_relu(in[0], a->d0, false);
    if (!strcmp(key, "threshold")) return tsr_nn_threshold(in[0], a->d0, 20.0, false);
    if (!strcmp(key, "log_sigmoid")) return tsr_nn_log_sigmoid(in[0]);
    if (!strcmp(key, "glu")) return tsr_nn_glu(in[0], a->i0);
    if (!strcmp(key, "im2col")) return tsr_nn_im2col(in[0], a->dims, a->dims + 2, a->dims + 4, a->dims + 6);
    if (!strcmp(key, "col2im")) return tsr_nn_col2im(in[0], a->dims + 8, a->dims, a->dims + 2, a->dims + 4, a->dims + 6);
    if (!strcmp(key, "hardshrink")) return tsr_nn_hardshrink(in[0], a->d0);
    if (!strcmp(key, "prelu")) return tsr_nn_prelu(in[0], in[1]);
    if (!strcmp(key, "embedding_bag")) {   /* sum with per-sample weights; the other results dropped */
        tsr_tensor *ix = fixed_index(ebag_index, 6), *off = fixed_index(ebag_offsets, 4), *o2b, *bs, *mi;
        tsr_tensor *r = tsr_nn_embedding_bag(in[0], ix, off, (int)a->i0, in[1], false, NULL, &o2b, &bs, &mi);
        tsr_tensor_release(ix);
        tsr_tensor_release(off);
        tsr_tensor_release(o2b);
        tsr_tensor_release(bs);
        tsr_tensor_release(mi);
        return r;
    }
    if (!strcmp(key, "softshrink")) return tsr_nn_softshrink(in[0], a->d0);
    if (!strncmp(key, "upsample_nearest", 16)) {   /* scales' bits in dims[5..8): out = floor(in * scale) */
        double sc[3];
        int64_t out[3];
        memcpy(sc, a->dims + 5, sizeof sc);
        for (int i = 0; i < in[0]->ndim - 2; i++) out[i] = (int64_t)((double)in[0]->sizes[2 + i] * sc[i]);
        return tsr_nn_upsample_nearest(in[0], out, sc, strstr(key, "exact") != NULL);
    }
    if (!strcmp(key, "upsample_linear1d") || !strcmp(key, "upsample_bilinear2d") || !strcmp(key, "upsample_trilinear3d")) {
        double sc[3];   /* as upsample_nearest; align_corners in keepdim */
        int64_t out[3];
        memcpy(sc, a->dims + 5, sizeof sc);
        for (int i = 0; i < in[0]->ndim - 2; i++) out[i] = (int64_t)((double)in[0]->sizes[2 + i] * sc[i]);
        return tsr_nn_upsample_linear(in[0], out, sc, a->keepdim);
    }
    if (!strcmp(key, "grid_sampler_2d")) return tsr_nn_grid_sampler(in[0], in[1], (int)a->i0, (int)a->i1, a->flag);
    if (!strcmp(key, "affine_grid_generator")) return tsr_nn_affine_grid(in[0], a->ndims, a->dims, a->flag);
    if (!strcmp(key, "upsample_bilinear2d_aa") || !strcmp(key, "upsample_bicubic2d_aa")) {   /* antialias=True */
        double sc[2];
        int64_t out[2];
        memcpy(sc, a->dims + 5, sizeof sc);
        for (int i = 0; i < 2; i++) out[i] = (int64_t)((double)in[0]->sizes[2 + i] * sc[i]);
        return tsr_nn_upsample_aa(in[0], out, sc, a->keepdim, strstr(key, "bicubic") != NULL);
    }
    if (!strcmp(key, "upsample_bicubic2d")) {
        double sc[2];
        int64_t out[2];
        memcpy(sc, a->dims + 5, sizeof sc);
        for (int i = 0; i < 2; i++) out[i] = (int64_t)((double)in[0]->sizes[2 + i] * sc[i]);
        return tsr_nn_upsample_bicubic(in[0], out, sc, a->keepdim);
    }
    if (!strcmp(key, "pixel_shuffle")) return tsr_nn_pixel_shuffle(in[0], a->i0);
    if (!strcmp(key, "pixel_unshuffle")) return tsr_nn_pixel_unshuffle(in[0], a->i0);
    if (!strcmp(key, "rrelu_with_noise")) return tsr_nn_rrelu(in[0], a->d0, a->d1, false, false, NULL, NULL);
    if (!strcmp(key, "mse_loss")) return tsr_nn_mse_loss(in[0], in[1], red);
    if (!strcmp(key, "smooth_l1_loss")) return tsr_nn_smooth_l1_loss(in[0], in[1], red, a->d0);
    if (!strcmp(key, "huber_loss")) return tsr_nn_huber_loss(in[0], in[1], red, a->d0);
    if (!strcmp(key, "soft_margin_loss")) {
        tsr_tensor *t = fixed_index(sm_target, 6), *r = tsr_nn_soft_margin_loss(in[0], t, red);
        tsr_tensor_release(t);
        return r;
    }
    if (!strcmp(key, "multi_margin_loss")) {
        tsr_tensor *t = fixed_index(mm_target, 3), *r = tsr_nn_multi_margin_loss(in[0], t, (int)a->i1, a->d0, NULL, red);
        tsr_tensor_release(t);
        return r;
    }
    if (!strcmp(key, "multilabel_margin_loss")) {
        tsr_tensor *t = fixed_index(mlm_target, 4), *r = tsr_nn_multilabel_margin_loss(in[0], t, red);
        tsr_tensor_release(t);
        return r;
    }
    if (!strcmp(key, "pdist")) return tsr_pdist(in[0], a->d0);
    if (!strcmp(key, "sub_s")) { tsr_operand m = tsr_operand_scalar(tsr_scalar_float(a->d0)); tsr_operand x = tsr_operand_tensor(in[0]); return tsr_binary(TSR_BINOP_SUB, &x, &m, NULL, NULL); }
    if (!strcmp(key, "binary_cross_entropy")) return tsr_nn_binary_cross_entropy(in[0], in[1], NULL, red);
    if (!strcmp(key, "binary_cross_entropy_with_logits")) return tsr_nn_bce_with_logits(in[0], in[1], NULL, NULL, red);
    if (!strcmp(key, "clamp_min")) { tsr_operand lo = tsr_operand_scalar(tsr_scalar_float(a->d0)); return tsr_clamp(in[0], &lo, NULL, NULL); }
    if (!strcmp(key, "constant_pad_nd")) return tsr_constant_pad_nd(in[0], a->ndims, a->dims, tsr_scalar_int(0));
    if (!strcmp(key, "div_s")) { tsr_operand d = tsr_operand_scalar(tsr_scalar_float(a->d0)); tsr_operand x = tsr_operand_tensor(in[0]); return tsr_binary(TSR_BINOP_DIV, &x, &d, NULL, NULL); }
    if (!strcmp(key, "cumprod")) return tsr_cumsum(in[0], a->i0, TSR_DTYPE_UNDEFINED, true, NULL);
    if (!strcmp(key, "norm_p") || !strcmp(key, "vector_norm")) {
        tsr_dims d = {.n = a->ndims};
        for (int i = 0; i < a->ndims; i++) d.d[i] = a->dims[i];
        return tsr_norm(in[0], a->d0, &d, a->keepdim, TSR_DTYPE_UNDEFINED, NULL);
    }
    if (!strcmp(key, "div_rounding")) {
        return bin(TSR_BINOP_DIV_FLOOR, in[0], in[1]);
    }
    if (!strcmp(key, "add_s")) { tsr_operand m = tsr_operand_scalar(tsr_scalar_float(a->d0)); tsr_operand x = tsr_operand_tensor(in[0]); return tsr_binary(TSR_BINOP_ADD, &x, &m, NULL, NULL); }
    if (!strcmp(key, "mul_s")) { tsr_operand m = tsr_operand_scalar(tsr_scalar_float(a->d0)); tsr_operand x = tsr_operand_tensor(in[0]); return tsr_binary(TSR_BINOP_MUL, &x, &m, NULL, NULL); }
    if (!strcmp(key, "index_put_mask") || !strcmp(key, "masked_select")) {
        tsr_tensor *m = fixed_mask(), *r;
        tsr_operand v = tsr_operand_tensor(in[1] ? in[1] : in[0]);
        r = key[0] == 'i' ? tsr_masked_fill(in[0], m, &v) : tsr_masked_select(in[0], m);
        tsr_tensor_release(m);
        return r;
    }
    if (!strcmp(key, "nll_loss")) {
        tsr_tensor *t = fixed_index(nll_target, 3), *r = tsr_nn_nll_loss(in[0], t, NULL, red, a->i1, NULL);
        tsr_tensor_release(t);
        return r;
    }
    if (!strcmp(key, "nll_loss2d")) {   /* input (1, 4, 1, 3), target (1, 1, 3) */
        tsr_tensor *t = nll2d_target(), *r = t ? tsr_nn_nll_loss2d(in[0], t, NULL, red, a->i1, NULL) : NULL;
        tsr_tensor_release(t);
        return r;
    }
    if (!strcmp(key, "convolution")) {   /* conv1d / conv_transpose1d: dims stride, padding, dilation, output_padding */
        const int64_t *d = a->dims;
        int nsp = a->ndims, q = nsp == 3 ? 3 : 2;   /* conv3d: the lists 3 apart */
        return a->flag ? tsr_nn_conv_transpose(in[0], in[1], in[2], nsp, nsp, d, nsp, d + q, nsp, d + 3 * q, a->i0, nsp,
                                               d + 2 * q)
                       : tsr_nn_conv(in[0], in[1], in[2], nsp, nsp, d, nsp, d + q, nsp, d + 2 * q, a->i0, NULL);
    }
    if (!strcmp(key, "conv_tbc")) return tsr_nn_conv_tbc(in[0], in[1], in[2], a->i0);
    if (!strcmp(key, "embedding")) {
        tsr_tensor *t = fixed_index(emb_index, 4), *r = tsr_nn_embedding(in[0], t);
        tsr_tensor_release(t);
        return r;
    }
    if (strstr(key, "_pad") && (key[1] == 'e'))
        return tsr_nn_pad_mode(in[0], a->ndims, a->dims, a->i0 == 1 ? "reflect" : "replicate", false, 0);
    if (!strcmp(key, "native_batch_norm")) return tsr_nn_batch_norm(in[0], NULL, NULL, in[1], in[2], true, 0.1, a->d0);
    if (!strcmp(key, "native_layer_norm")) return tsr_nn_layer_norm(in[0], a->ndims, a->dims, in[1], in[2], a->d0);
    if (!strcmp(key, "copy_slices")) {   /* base.clone() with the region written from src */
        tsr_tensor *r = tsr_clone(in[0], TSR_MF_CONTIGUOUS), *v = r ? tsr_view_alias(r) : NULL;
        for (int d = 0; v && d < a->ndims; d++) {
            tsr_tensor *t = tsr_view_narrow(v, d, a->dims[2 * d], a->dims[2 * d + 1]);
            tsr_tensor_release(v);
            v = t;
        }
        int rc = v ? tsr_copy_(v, in[1]) : -1;
        tsr_tensor_release(v);
        if (rc < 0) tsr_tensor_release(r);
        return rc < 0 ? NULL : r;
    }
    if (!strcmp(key, "copy_slices_view") || !strcmp(key, "as_strided_view")) {   /* region: as_strided of the base */
        const int nd = a->ndims;
        if (key[0] == 'a') return tsr_view_as_strided(in[0], nd, a->dims, a->dims + nd, a->i0);
        tsr_tensor *r = tsr_clone(in[0], TSR_MF_CONTIGUOUS), *v = r ? tsr_view_as_strided(r, nd, a->dims, a->dims + nd, a->i0) : NULL;
        int rc = v ? tsr_copy_(v, in[1]) : -1;
        tsr_tensor_release(v);
        if (rc < 0) tsr_tensor_release(r);
        return rc < 0 ? NULL : r;
    }
    if (!strcmp(key, "native_group_norm")) return tsr_nn_group_norm(in[0], a->i0, in[1], in[2], a->d0);
    if (!strcmp(key, "trilinear"))
        return tsr_trilinear(in[0], in[1], in[2], (uint64_t)a->i0, (uint64_t)a->i1, (uint64_t)a->i2, (uint64_t)a->dims[0], 1);
    return fwd_pool(key, a, in[0], NULL);
}

/* the (values, indices) formulas of runtime/ops/grad_pointwise.c and the
 * value-selecting ones: values, and *ix the indices when asked */
static tsr_tensor *fwd_validx(const char *k, const tsr_ag_args *a, tsr_tensor *x, tsr_tensor **ix)
{
    tsr_tensor *v = NULL, *i = NULL;
    int rc = -1;
    if (!strcmp(k, "cummax") || !strcmp(k, "cummin")) rc = tsr_cummax(x, a->i0, k[4] == 'a', NULL, NULL, &v, &i);
    else if (!strcmp(k, "median_dim")) rc = tsr_median(x, &a->i0, a->keepdim, TSR_MEDIAN, NULL, NULL, &v, &i);
    else if (!strcmp(k, "nanmedian_dim")) rc = tsr_median(x, &a->i0, a->keepdim, TSR_NANMEDIAN, NULL, NULL, &v, &i);
    else if (!strcmp(k, "mode")) rc = tsr_median(x, &a->i0, a->keepdim, TSR_MODE, NULL, NULL, &v, &i);
    else if (!strcmp(k, "kthvalue")) rc = tsr_kthvalue(x, a->i1, a->i0, a->keepdim, NULL, NULL, &v, &i);
    else if (!strcmp(k, "median")) rc = tsr_median(x, NULL, false, TSR_MEDIAN, NULL, NULL, &v, &i);
    else if (!strcmp(k, "nanmedian")) rc = tsr_median(x, NULL, false, TSR_NANMEDIAN, NULL, NULL, &v, &i);
    if (rc < 0) return NULL;
    if (ix) *ix = i;
    else tsr_tensor_release(i);
    return v;
}

/* the pointwise and special-function formulas of runtime/ops/grad_pointwise.c */
static tsr_tensor *fwd_pointwise(const char *k, const tsr_ag_args *a, tsr_tensor **in)
{
    tsr_operand x0 = tsr_operand_tensor(in[0]), s0 = tsr_operand_scalar(tsr_scalar_float(a->d0));
    tsr_operand x1 = tsr_operand_tensor(in[1] ? in[1] : in[0]), x2 = tsr_operand_tensor(in[2] ? in[2] : in[0]);
    tsr_scalar v = tsr_scalar_float(a->d0);
    if (!strcmp(k, "lerp")) return tsr_lerp(in[0], in[1], &s0, NULL);
    if (!strcmp(k, "angle")) return tsr_op_run(tsr_op_find_name("angle"), &x0, NULL, false);
    if (!strcmp(k, "diag_embed")) return tsr_diag_embed(in[0], a->i0, a->i1, a->i2);
    if (!strcmp(k, "lerp_t")) return tsr_lerp(in[0], in[1], &x2, NULL);
    if (!strcmp(k, "addcmul")) return tsr_addcmul(in[0], in[1], in[2], &v, NULL);
    if (!strcmp(k, "addcdiv")) return tsr_addcdiv(in[0], in[1], in[2], &v, NULL);
    if (!strcmp(k, "hypot")) return bin(TSR_BINOP_HYPOT, in[0], in[1]);
    if (!strcmp(k, "fmod")) return bin(TSR_BINOP_FMOD, in[0], in[1]);
    if (!strcmp(k, "remainder")) return bin(TSR_BINOP_REMAINDER, in[0], in[1]);
    if (!strcmp(k, "fmod_s")) return tsr_binary(TSR_BINOP_FMOD, &x0, &s0, NULL, NULL);
    if (!strcmp(k, "remainder_s")) return tsr_binary(TSR_BINOP_REMAINDER, &x0, &s0, NULL, NULL);
    if (!strcmp(k, "clamp_tensor")) return tsr_clamp(in[0], &x1, &x2, NULL);
    tsr_operand hi = tsr_operand_scalar(tsr_scalar_float(a->d1));
    if (!strcmp(k, "clamp_max")) return tsr_clamp(in[0], NULL, &hi, NULL);
    if (!strcmp(k, "clamp_min_t")) return tsr_clamp(in[0], &x1, NULL, NULL);
    if (!strcmp(k, "clamp_max_t")) return tsr_clamp(in[0], NULL, &x1, NULL);
    if (!strcmp(k, "erfinv")) return un(TSR_UNOP_ERFINV, in[0]);
    if (!strcmp(k, "lgamma")) return un(TSR_UNOP_LGAMMA, in[0]);
    if (!strcmp(k, "digamma")) return un(TSR_UNOP_DIGAMMA, in[0]);
    if (!strcmp(k, "polygamma") || !strcmp(k, "polygamma_")) return tsr_polygamma(a->i0, in[0], NULL, false);
    if (!strcmp(k, "erfc")) return un(TSR_UNOP_ERFC, in[0]);
    if (!strcmp(k, "acosh")) return un(TSR_UNOP_ACOSH, in[0]);
    if (!strcmp(k, "asinh")) return un(TSR_UNOP_ASINH, in[0]);
    if (!strcmp(k, "atanh")) return un(TSR_UNOP_ATANH, in[0]);
    if (!strcmp(k, "i0")) return tsr_bessel(TSR_BESSEL_I0, in[0], NULL);
    if (!strcmp(k, "special_i1")) return tsr_bessel(TSR_BESSEL_I1, in[0], NULL);
    if (!strcmp(k, "fmax")) return bin(TSR_BINOP_FMAX, in[0], in[1]);
    if (!strcmp(k, "fmin")) return bin(TSR_BINOP_FMIN, in[0], in[1]);
    if (!strcmp(k, "copysign") || !strcmp(k, "copysign_s")) {
        tsr_operand io[2] = {x0, k[8] ? s0 : x1};
        return tsr_op_run(tsr_op_find("copysign.Tensor"), io, NULL, false);
    }
    if (!strcmp(k, "logaddexp") || !strcmp(k, "logaddexp2")) {
        tsr_operand io[2] = {x0, x1};
        return tsr_op_run(tsr_op_find(k), io, NULL, false);
    }
    if (!strcmp(k, "logit")) {
        tsr_unary_opts o = {.has_eps = a->has_d0, .eps = a->d0};
        return tsr_unary(TSR_UNOP_LOGIT, in[0], NULL, &o);
    }
    if (!strcmp(k, "xlogy")) return tsr_special_binary(TSR_SPECIAL_XLOGY, &x0, &x1, NULL);
    if (!strcmp(k, "xlogy_s")) return tsr_special_binary(TSR_SPECIAL_XLOGY, &x0, &s0, NULL);
    if (!strcmp(k, "xlogy_self_s")) return tsr_special_binary(TSR_SPECIAL_XLOGY, &s0, &x0, NULL);
    if (!strcmp(k, "sinc")) return tsr_special_unary(TSR_SPECIAL_SINC, in[0], NULL);
    if (!strcmp(k, "deg2rad")) return un(TSR_UNOP_DEG2RAD, in[0]);
    if (!strcmp(k, "rad2deg")) return un(TSR_UNOP_RAD2DEG, in[0]);
    if (!strcmp(k, "frac")) return un(TSR_UNOP_FRAC, in[0]);
    if (!strcmp(k, "nan_to_num")) return un(TSR_UNOP_NAN_TO_NUM, in[0]);
    if (!strcmp(k, "logcumsumexp")) return tsr_logcumsumexp(in[0], a->i0, NULL);
    if (!strcmp(k, "dist")) return tsr_dist(in[0], in[1], a->d0);
    if (!strcmp(k, "var_mean") || !strcmp(k, "std_mean")) {   /* output 0 alone; both: autograd_var_mean_outputs */
        tsr_dims d = dims_of(a);
        return tsr_var(in[0], &d, a->i0, a->keepdim, k[0] == 's', NULL, NULL, "var");
    }
    if (!strcmp(k, "renorm")) return tsr_renorm(in[0], a->d0, a->i0, a->d1, NULL);
    tsr_tensor *vi = fwd_validx(k, a, in[0], NULL);
    if (vi) return vi;
    return fwd_nn(k, a, in);
}

static tsr_tensor *fwd(const Case *c, tsr_tensor **in);

/* An activation's backward op (elu_backward(grad, self), ...) as a function
 * of (grad, self): the engine's gradient of the forward op at self. */
static tsr_tensor *act_backward_fwd(const char *base, const tsr_ag_args *a, tsr_tensor *g, tsr_tensor *x)
{
    bool was = tsr_grad_enabled();
    tsr_set_grad_enabled(true);
    Case bc = {.key = base, .nin = 1, .a = *a};
    tsr_tensor *xc = tsr_clone(x, TSR_MF_CONTIGUOUS), *res = NULL;
    xc->requires_grad = true;
    tsr_tensor *ins[3] = {xc, NULL, NULL};   /* fwd may read in[1] before it picks the key */
    tsr_tensor *y = fwd(&bc, ins);
    if (y && !strcmp(base, "embedding")) {   /* the index the binding keeps */
        tsr_tensor *ix = fixed_index(emb_index, 4);
        if (tsr_ag_record(base, 1, &xc, a, y, false) < 0 || tsr_ag_keep(y, ix) < 0) {
            tsr_tensor_release(y);
            y = NULL;
        }
        tsr_tensor_release(ix);
        if (y && tsr_autograd_run(1, &y, &g, false, 1, &xc, true, &res, 0) < 0) res = NULL;
        tsr_tensor_release(y);
        y = NULL;
    } else if (y && tsr_ag_record(base, 1, &xc, a, y, false) == 0 &&
        tsr_autograd_run(1, &y, &g, false, 1, &xc, true, &res, 0) < 0)
        res = NULL;
    tsr_tensor_release(y);
    tsr_tensor_release(xc);
    tsr_set_grad_enabled(was);
    if (res) tsr_tensor_unview(res);
    return res;
}

/* The pooling and convolution backward kernels as functions of (grad,
 * self[, weight]) (their nodes under create_graph): the forward's
 * indices from fwd_pool of the base key at self; a convolution's
 * grad_input. NULL for another key. */
static tsr_tensor *fwd_pool_backward(const Case *c, tsr_tensor **in)
{
    const char *k = c->key;
    const tsr_ag_args *a = &c->a;
    const int64_t *d = a->dims;
    if (!strcmp(k, "convolution_backward")) {
        bool mask[3] = {true, false, false};
        tsr_tensor *gi = NULL, *gw = NULL, *gb = NULL;
        if (tsr_nn_conv_backward(in[0], in[1], in[2], a->ndims, d, d + 2, d + 4, a->flag, d + 6, a->i0, mask, &gi, &gw,
                                 &gb) < 0)
            return NULL;
        return gi;
    }
    if (!strcmp(k, "native_batch_norm_backward")) {   /* grad_input of (grad, self, weight), training */
        tsr_tensor *sm = NULL, *si = NULL, *y = tsr_nn_batch_norm_ex(in[1], NULL, NULL, in[2], NULL, true, 0.1, a->d0,
                                                                      &sm, &si), *dx = NULL;
        if (y && tsr_nn_batch_norm_backward(in[0], in[1], in[2], sm, si, true, &dx, NULL, NULL) < 0) dx = NULL;
        tsr_tensor_release(y), tsr_tensor_release(sm), tsr_tensor_release(si);
        return dx;
    }
    if (!strcmp(k, "native_layer_norm_backward")) {   /* grad_input of (grad, self), no weight */
        tsr_tensor *dx = NULL;
        return tsr_nn_layer_norm_backward(in[0], in[1], NULL, a->ndims, a->dims, a->d0, &dx, NULL, NULL) < 0 ? NULL : dx;
    }
    if (!strcmp(k, "avg_pool2d_backward"))
        return tsr_nn_avg_pool2d_backward(in[0], in[1], d, d + 2, d + 4, a->flag, a->has_d0, a->i0);
    if (!strcmp(k, "adaptive_avg_pool2d_backward")) return tsr_nn_adaptive_avg_pool2d_backward(in[0], in[1]);
    if (!strcmp(k, "hardshrink_backward") || !strcmp(k, "softshrink_backward"))
        return tsr_nn_shrink_backward(in[0], in[1], a->d0, k[0] == 'h' ? "hardshrink_backward_cpu" : "softshrink_backward_cpu");
    if (strstr(k, "_pad") && strstr(k, "_backward"))
        return tsr_nn_pad_mode_backward(in[0], in[1], a->ndims, a->dims, a->i0 == 1 ? "reflect" : "replicate");
    if (!strncmp(k, "upsample_", 9) && strstr(k, "_backward")) {   /* of grad: the input's sizes in dims, scales' bits in dims[5..8) */
        double sc[3];
        memcpy(sc, a->dims + 5, sizeof sc);
        if (strstr(k, "nearest")) return tsr_nn_upsample_nearest_backward(in[0], a->dims, sc, strstr(k, "exact") != NULL);
        if (strstr(k, "_aa")) return tsr_nn_upsample_aa_backward(in[0], a->dims, sc, a->keepdim, strstr(k, "bicubic") != NULL);
        if (strstr(k, "bicubic")) return tsr_nn_upsample_bicubic_backward(in[0], a->dims, sc, a->keepdim);
        return tsr_nn_upsample_linear_backward(in[0], a->dims, sc, a->keepdim);
    }
    if (!strcmp(k, "avg_pool3d_backward"))
        return tsr_nn_avg_pool3d_backward(in[0], in[1], d, d + 3, d + 6, a->flag, a->has_d0, a->i0);
    if (!strcmp(k, "adaptive_avg_pool3d_backward")) return tsr_nn_adaptive_avg_pool3d_backward(in[0], in[1]);
    char base[40];
    size_t l = strlen(k);
    if (l < 10 || strcmp(k + l - 9, "_backward") || !strstr(k, "max_pool")) return NULL;
    snprintf(base, sizeof base, "%.*s", (int)(l - 9), k);
    tsr_tensor *ind = NULL, *p = fwd_pool(base, a, in[1], &ind), *r = NULL;
    tsr_tensor_release(p);
    if (ind) r = strstr(k, "3d") ? tsr_nn_max_pool3d_backward(in[0], in[1], ind) : tsr_nn_max_pool2d_backward(in[0], in[1], ind);
    tsr_tensor_release(ind);
    return r;
}

/* A loss's (or glu's) backward kernel as a function of (grad, self[,
 * target]): the engine's gradient of the base op at self for grad. */
static tsr_tensor *loss_backward_fwd(const Case *c, tsr_tensor **in)
{
    static const char *const bases[][2] = {
        {"binary_cross_entropy_backward", "binary_cross_entropy"}, {"glu_backward", "glu"},
        {"huber_loss_backward", "huber_loss"}, {"prelu_backward", "prelu"}, {"rrelu_with_noise_backward", "rrelu_with_noise"},
        {"smooth_l1_loss_backward", "smooth_l1_loss"},
    };
    const char *base = NULL;
    for (size_t i = 0; i < sizeof bases / sizeof *bases; i++)
        if (!strcmp(c->key, bases[i][0])) base = bases[i][1];
    if (!base) return NULL;
    bool was = tsr_grad_enabled();
    tsr_set_grad_enabled(true);
    int nb = c->nin - 1;
    Case bc = {.key = base, .nin = nb, .a = c->a};
    tsr_tensor *xc = tsr_clone(in[1], TSR_MF_CONTIGUOUS), *res = NULL;
    xc->requires_grad = true;
    tsr_tensor *ins[3] = {xc, nb > 1 ? in[2] : NULL, NULL};
    tsr_tensor *y = fwd(&bc, ins);
    if (y && tsr_ag_record(base, nb, ins, &c->a, y, false) == 0 &&
        tsr_autograd_run(1, &y, &in[0], false, 1, &xc, true, &res, 0) < 0)
        res = NULL;
    tsr_tensor_release(y);
    tsr_tensor_release(xc);
    tsr_set_grad_enabled(was);
    return res;
}

static tsr_tensor *fwd(const Case *c, tsr_tensor **in)
{
    tsr_tensor *lb = loss_backward_fwd(c, in);
    if (lb) return lb;
    static const char *const act_bases[][2] = {
        {"elu_backward", "elu"}, {"gelu_backward", "gelu"}, {"hardswish_backward", "hardswish"},
        {"hardtanh_backward", "hardtanh"},
        {"leaky_relu_backward", "leaky_relu"}, {"log_sigmoid_backward", "log_sigmoid"}, {"softplus_backward", "softplus"},
    };
    /* the view ops' backward ops: the gradient of the view of a base
     * input whose shape the case keeps in dims[0..ndims) */
    static const char *const view_bases[][2] = {
        {"diagonal_backward", "diagonal"}, {"embedding_dense_backward", "embedding"}, {"unfold_backward", "unfold"},
    };
    tsr_tensor *pb = fwd_pool_backward(c, in);
    if (pb) return pb;
    for (size_t i = 0; i < sizeof view_bases / sizeof *view_bases; i++)
        if (!strcmp(c->key, view_bases[i][0])) {
            tsr_tensor *x = tsr_zeros(c->a.ndims, c->a.dims, TSR_FLOAT64, TSR_CPU);
            tsr_tensor *r = act_backward_fwd(view_bases[i][1], &c->a, in[0], x);
            tsr_tensor_release(x);
            return r;
        }
    if (!strcmp(c->key, "elu_backward") && c->a.i2) {   /* is_result: elu_'s kernel of (grad, result in[1]) */
        bool was = tsr_grad_enabled();
        tsr_set_grad_enabled(true);
        tsr_tensor *xc = tsr_clone(in[1], TSR_MF_CONTIGUOUS), *y = tsr_clone(in[1], TSR_MF_CONTIGUOUS), *res = NULL;
        xc->requires_grad = true;
        if (tsr_ag_record(c->a.flag ? "celu_" : "elu_", 1, &xc, &c->a, y, false) == 0 &&
            tsr_autograd_run(1, &y, &in[0], false, 1, &xc, true, &res, 0) < 0)
            res = NULL;
        tsr_tensor_release(y);
        tsr_tensor_release(xc);
        tsr_set_grad_enabled(was);
        return res;
    }
    for (size_t i = 0; i < sizeof act_bases / sizeof *act_bases; i++)
        if (!strcmp(c->key, act_bases[i][0])) {
            const char *base = act_bases[i][1];
            if (c->a.flag && !strcmp(base, "elu")) base = "celu";
            return act_backward_fwd(base, &c->a, in[0], in[1]);
        }
    const char *k = c->key;
    const tsr_ag_args *a = &c->a;
    tsr_dims d = dims_of(a);
    if (!strcmp(k, "zero_")) return tsr_zeros(in[0]->ndim, in[0]->sizes, in[0]->dtype, in[0]->device);
    if (!strncmp(k, "fill", 4)) {   /* fill / fill_ (2.5), fill_t / fill_t_ (the 0-dim input 1) */
        tsr_tensor *f = tsr_zeros(in[0]->ndim, in[0]->sizes, in[0]->dtype, in[0]->device);
        int rc = !strncmp(k, "fill_t", 6) ? tsr_fill_tensor_(f, in[1]) : tsr_fill_(f, tsr_scalar_float(2.5));
        if (rc < 0) { tsr_tensor_release(f); return NULL; }
        return f;
    }
    if (!strcmp(k, "index_put_fn")) {   /* index_put(base, (put_index,), values, accumulate flag) */
        tsr_tensor *ix = fixed_index(put_index, 2);
        const tsr_tensor *ixs[1] = {ix};
        tsr_tensor *r = tsr_index_put(in[0], 1, ixs, in[1], a->flag);
        tsr_tensor_release(ix);
        return r;
    }
    if (!strcmp(k, "index_put_key")) {   /* base.clone()[put_index] = value */
        tsr_tensor *r = tsr_clone(in[0], TSR_MF_CONTIGUOUS), *ix = fixed_index(put_index, 2);
        tsr_sub it = {.kind = TSR_SUB_TENSOR, .t = ix};
        int rc = r && ix ? tsr_subscript_assign(r, 1, &it, in[1]) : -1;
        tsr_tensor_release(ix);
        if (rc < 0) tsr_tensor_release(r);
        return rc < 0 ? NULL : r;
    }
    tsr_operand x0 = tsr_operand_tensor(in[0]);
    struct { const char *k; tsr_unop op; } unops[] = {
        {"abs", TSR_UNOP_ABS}, {"acos", TSR_UNOP_ACOS}, {"asin", TSR_UNOP_ASIN}, {"atan", TSR_UNOP_ATAN},
        {"ceil", TSR_UNOP_CEIL}, {"cos", TSR_UNOP_COS}, {"cosh", TSR_UNOP_COSH}, {"erf", TSR_UNOP_ERF},
        {"exp", TSR_UNOP_EXP}, {"exp2", TSR_UNOP_EXP2}, {"expm1", TSR_UNOP_EXPM1}, {"floor", TSR_UNOP_FLOOR},
        {"log", TSR_UNOP_LOG}, {"log10", TSR_UNOP_LOG10}, {"log1p", TSR_UNOP_LOG1P}, {"log2", TSR_UNOP_LOG2},
        {"neg", TSR_UNOP_NEG}, {"reciprocal", TSR_UNOP_RECIPROCAL}, {"relu", TSR_UNOP_RELU}, {"round", TSR_UNOP_ROUND},
        {"rsqrt", TSR_UNOP_RSQRT}, {"sigmoid", TSR_UNOP_SIGMOID}, {"sgn", TSR_UNOP_SGN}, {"sign", TSR_UNOP_SIGN}, {"sin", TSR_UNOP_SIN},
        {"sinh", TSR_UNOP_SINH}, {"sqrt", TSR_UNOP_SQRT}, {"square", TSR_UNOP_SQUARE}, {"tan", TSR_UNOP_TAN},
        {"tanh", TSR_UNOP_TANH}, {"trunc", TSR_UNOP_TRUNC},
    };
    for (size_t i = 0; i < sizeof unops / sizeof *unops; i++)
        if (!strcmp(k, unops[i].k)) return un(unops[i].op, in[0]);
    if (!strcmp(k, "sub_s")) {
        tsr_operand y = tsr_operand_scalar(tsr_scalar_float(a->d0));
        return tsr_binary(TSR_BINOP_SUB, &x0, &y, NULL, NULL);
    }
    if (!strcmp(k, "tanh_backward")) return tsr_nn_tanh_backward(in[0], in[1]);
    if (!strcmp(k, "index_put_impl")) {   /* self.clone().index_put_((index,), values, accumulate=True) */
        tsr_tensor *r = tsr_clone(in[0], TSR_MF_CONTIGUOUS);
        const tsr_tensor *ix[1] = {in[2]};
        if (r && tsr_index_put_(r, 1, ix, in[1], true) < 0) {
            tsr_tensor_release(r);
            r = NULL;
        }
        return r;
    }
    if (!strcmp(k, "softmax_backward_data") || !strcmp(k, "log_softmax_backward_data"))
        return tsr_softmax_backward_kernel(in[0], in[1], a->i0, k[0] == 'l');
    if (!strcmp(k, "mse_loss_backward")) {   /* norm d0 * (x - t) * grad */
        tsr_operand nm = tsr_operand_scalar(tsr_scalar_float(a->d0));
        tsr_tensor *d = bin(TSR_BINOP_SUB, in[1], in[2]), *r = NULL;
        tsr_operand dv = tsr_operand_tensor(d);
        tsr_tensor *m = d ? tsr_binary(TSR_BINOP_MUL, &nm, &dv, NULL, NULL) : NULL;
        if (m) r = bin(TSR_BINOP_MUL, m, in[0]);
        tsr_tensor_release(d);
        tsr_tensor_release(m);
        return r;
    }
    if (!strcmp(k, "nll_loss2d_backward")) {
        tsr_tensor *t = nll2d_target();
        tsr_tensor *r = t ? tsr_nn_nll_loss2d_backward(in[0], in[1], t, NULL, (tsr_reduction)a->i0, a->i1, a->d0) : NULL;
        tsr_tensor_release(t);
        return r;
    }
    if (!strcmp(k, "soft_margin_loss_backward")) {
        tsr_tensor *t = fixed_index(sm_target, 6);
        tsr_tensor *r = t ? tsr_nn_soft_margin_loss_backward(in[0], in[1], t, (tsr_reduction)a->i0) : NULL;
        tsr_tensor_release(t);
        return r;
    }
    if (!strcmp(k, "nll_loss_backward")) {
        tsr_tensor *t = fixed_index(nll_target, 3);
        tsr_tensor *r = tsr_nn_nll_loss_backward(in[0], in[1], t, NULL, (tsr_reduction)a->i0, a->i1, a->d0);
        tsr_tensor_release(t);
        return r;
    }
    if (!strcmp(k, "select_backward") || !strcmp(k, "slice_backward")) {   /* zeros of the full size (dims[2] along
                                                                              dim i0) with the piece copied in */
        int64_t sz[TSR_MAX_DIMS];
        int nd = 0;
        for (int d = 0; d < in[0]->ndim; d++) {
            if (d == a->i0 && a->i2 == 0) sz[nd++] = a->dims[2];
            sz[nd++] = d == a->i0 && a->i2 == 1 ? a->dims[2] : in[0]->sizes[d];
        }
        if (a->i2 == 0 && a->i0 == in[0]->ndim) sz[nd++] = a->dims[2];
        tsr_tensor *z = tsr_zeros(nd, sz, in[0]->dtype, TSR_CPU);
        tsr_tensor *v = a->i2 == 0 ? tsr_view_select(z, a->i0, a->i1) : tsr_view_slice(z, a->i0, a->i1, a->dims[0], a->dims[1]);
        tsr_copy_(v, in[0]);
        tsr_tensor_release(v);
        return z;
    }
    if (!strcmp(k, "sigmoid_backward")) {   /* g * (1 - y) * y */
        tsr_operand one = tsr_operand_scalar(tsr_scalar_float(1.0)), y = tsr_operand_tensor(in[1]);
        tsr_tensor *d = tsr_binary(TSR_BINOP_SUB, &one, &y, NULL, NULL), *m = bin(TSR_BINOP_MUL, in[0], d);
        tsr_tensor *r = bin(TSR_BINOP_MUL, m, in[1]);
        tsr_tensor_release(d);
        tsr_tensor_release(m);
        return r;
    }
    if (!strcmp(k, "threshold_backward")) {   /* where(self <= threshold, 0, grad) */
        tsr_operand th = tsr_operand_scalar(tsr_scalar_float(a->d0)), x1 = tsr_operand_tensor(in[1]);
        tsr_operand z = tsr_operand_scalar(tsr_scalar_float(0.0));
        tsr_tensor *m = tsr_compare(TSR_CMP_LE, &x1, &th, NULL), *r = m ? tsr_where(m, &z, &x0, NULL) : NULL;
        tsr_tensor_release(m);
        return r;
    }
    if (!strcmp(k, "add")) {
        tsr_binary_opts o = {.has_alpha = a->has_d0, .alpha = tsr_scalar_float(a->d0)};
        tsr_operand y = tsr_operand_tensor(in[1]);
        return tsr_binary(TSR_BINOP_ADD, &x0, &y, NULL, &o);
    }
    if (!strcmp(k, "sub")) return bin(TSR_BINOP_SUB, in[0], in[1]);
    if (!strcmp(k, "rsub")) return bin(TSR_BINOP_SUB, in[1], in[0]);
    if (!strcmp(k, "rsub_s")) { tsr_operand s = tsr_operand_scalar(tsr_scalar_float(2.0)); return tsr_binary(TSR_BINOP_SUB, &s, &x0, NULL, NULL); }
    if (!strcmp(k, "mul")) return bin(TSR_BINOP_MUL, in[0], in[1]);
    if (!strcmp(k, "div")) return bin(TSR_BINOP_DIV, in[0], in[1]);
    if (!strcmp(k, "maximum")) return bin(TSR_BINOP_MAXIMUM, in[0], in[1]);
    if (!strcmp(k, "minimum")) return bin(TSR_BINOP_MINIMUM, in[0], in[1]);
    if (!strcmp(k, "pow_t")) return bin(TSR_BINOP_POW, in[0], in[1]);
    if (!strcmp(k, "pow")) { tsr_operand e = tsr_operand_scalar(tsr_scalar_float(a->d0)); return tsr_binary(TSR_BINOP_POW, &x0, &e, NULL, NULL); }
    if (!strcmp(k, "pow_scalar")) { tsr_operand b = tsr_operand_scalar(tsr_scalar_float(a->d0)); return tsr_binary(TSR_BINOP_POW, &b, &x0, NULL, NULL); }
    if (!strcmp(k, "clamp")) {
        tsr_operand lo = tsr_operand_scalar(tsr_scalar_float(a->d0)), hi = tsr_operand_scalar(tsr_scalar_float(a->d1));
        return tsr_clamp(in[0], a->has_d0 ? &lo : NULL, a->has_d1 ? &hi : NULL, NULL);
    }
    if (!strcmp(k, "where")) {
        tsr_operand p = tsr_operand_tensor(in[1]), q = tsr_operand_tensor(in[2]);
        return tsr_where(in[0], &p, &q, NULL);
    }
    if (!strcmp(k, "sum") || !strcmp(k, "sum_dim")) return tsr_sum(in[0], &d, a->keepdim, TSR_DTYPE_UNDEFINED, NULL);
    if (!strcmp(k, "mean") || !strcmp(k, "mean_dim")) return tsr_mean(in[0], &d, a->keepdim, TSR_DTYPE_UNDEFINED, NULL);
    if (!strcmp(k, "prod")) return tsr_prod(in[0], NULL, false, TSR_DTYPE_UNDEFINED, NULL);
    if (!strcmp(k, "prod_dim")) return tsr_prod(in[0], &a->dims[0], a->keepdim, TSR_DTYPE_UNDEFINED, NULL);
    if (!strcmp(k, "amax") || !strcmp(k, "amin")) return tsr_amax(in[0], &d, a->keepdim, !strcmp(k, "amax"), NULL);
    if (!strcmp(k, "max") || !strcmp(k, "min")) return tsr_max_all(in[0], !strcmp(k, "max"));
    if (!strcmp(k, "logsumexp")) return tsr_logsumexp(in[0], &d, a->keepdim, NULL);
    if (!strcmp(k, "var") || !strcmp(k, "std"))
        return tsr_var(in[0], &d, a->i0, a->keepdim, !strcmp(k, "std"), NULL, NULL, "var");
    if (!strcmp(k, "norm") || !strcmp(k, "norm0")) {   /* p = 2 over dims (norm0: all): sqrt(sum(x*x)) */
        tsr_tensor *sq = bin(TSR_BINOP_MUL, in[0], in[0]), *s = tsr_sum(sq, &d, a->keepdim, TSR_DTYPE_UNDEFINED, NULL);
        tsr_tensor *r = un(TSR_UNOP_SQRT, s);
        tsr_tensor_release(sq);
        tsr_tensor_release(s);
        return r;
    }
    if (!strcmp(k, "softmax") || !strcmp(k, "log_softmax")) return tsr_softmax(in[0], a->i0, TSR_DTYPE_UNDEFINED, !strcmp(k, "log_softmax"));
    if (!strcmp(k, "cumsum")) return tsr_cumsum(in[0], a->i0, TSR_DTYPE_UNDEFINED, false, NULL);
    if (!strcmp(k, "mm")) return tsr_mm(in[0], in[1], NULL);
    if (!strcmp(k, "bmm")) return tsr_bmm(in[0], in[1], NULL);
    if (!strcmp(k, "mv")) return tsr_mv(in[0], in[1], NULL);
    if (!strcmp(k, "dot")) return tsr_dot(in[0], in[1], NULL);
    if (!strcmp(k, "vdot")) return tsr_vdot(in[0], in[1], NULL);
    if (!strcmp(k, "addmm")) return tsr_addmm(in[0], in[1], in[2], tsr_scalar_float(a->d0), tsr_scalar_float(a->d1), NULL, false);
    if (!strcmp(k, "addmv")) return tsr_addmv(in[0], in[1], in[2], tsr_scalar_float(a->d0), tsr_scalar_float(a->d1), NULL, false);
    if (!strcmp(k, "addr")) return tsr_addr(in[0], in[1], in[2], tsr_scalar_float(a->d0), tsr_scalar_float(a->d1), NULL, false);
    if (!strcmp(k, "baddbmm")) return tsr_baddbmm(in[0], in[1], in[2], tsr_scalar_float(a->d0), tsr_scalar_float(a->d1), NULL, false);
    if (!strcmp(k, "linalg_cross")) return tsr_linalg_cross(in[0], in[1], a->i0, NULL);
    if (!strcmp(k, "linalg_det")) return tsr_linalg_det(in[0]);
    if (!strcmp(k, "linalg_inv")) {
        tsr_tensor *inv = NULL, *info = NULL;
        if (tsr_linalg_inv_ex(in[0], "linalg.inv", &inv, &info) < 0) return NULL;
        tsr_tensor_release(info);
        return inv;
    }
    if (!strcmp(k, "cholesky") || !strcmp(k, "linalg_cholesky")) {   /* of (X + X^T) / 2: what the formula's gradient assumes */
        tsr_tensor *xt = tsr_view_transpose(in[0], -2, -1), *sm = bin(TSR_BINOP_ADD, in[0], xt), *l = NULL, *info = NULL;
        tsr_operand h = tsr_operand_scalar(tsr_scalar_float(0.5)), y = tsr_operand_tensor(sm);
        tsr_tensor *sy = tsr_binary(TSR_BINOP_MUL, &y, &h, NULL, NULL);
        int rc = tsr_linalg_cholesky_ex(sy, a->flag, "linalg.cholesky", false, &l, &info);
        tsr_tensor_release(xt), tsr_tensor_release(sm), tsr_tensor_release(sy), tsr_tensor_release(info);
        return rc < 0 ? NULL : l;
    }
    if (!strcmp(k, "cdist")) return tsr_cdist(in[0], in[1], a->d0, 2);
    if (!strcmp(k, "linalg_eigvalsh")) {   /* of (X + X^T) / 2, as for cholesky */
        tsr_tensor *xt = tsr_view_transpose(in[0], -2, -1), *sm = bin(TSR_BINOP_ADD, in[0], xt), *l = NULL;
        tsr_operand h = tsr_operand_scalar(tsr_scalar_float(0.5)), y = tsr_operand_tensor(sm);
        tsr_tensor *sy = tsr_binary(TSR_BINOP_MUL, &y, &h, NULL, NULL);
        int rc = tsr_linalg_eigh(sy, a->flag ? "U" : "L", &l, NULL);
        tsr_tensor_release(xt), tsr_tensor_release(sm), tsr_tensor_release(sy);
        return rc < 0 ? NULL : l;
    }
    if (!strcmp(k, "linalg_svdvals")) {
        tsr_tensor *sv = NULL;
        return tsr_linalg_svd(in[0], false, NULL, &sv, NULL) < 0 ? NULL : sv;
    }
    if (!strcmp(k, "linalg_pinv")) return tsr_linalg_pinv(in[0], NULL, NULL, false);
    if (!strcmp(k, "linalg_matrix_exp")) return tsr_linalg_matrix_exp(in[0]);
    if (!strcmp(k, "linalg_solve")) {
        tsr_tensor *x = NULL, *info = NULL;
        if (tsr_linalg_solve_ex(in[0], in[1], a->flag, "linalg.solve", &x, &info) < 0) return NULL;
        tsr_tensor_release(info);
        return x;
    }
    if (!strcmp(k, "linalg_solve_triangular")) {   /* upper flag, left i0, unitriangular i1 */
        tsr_tensor *x = NULL;
        return tsr_linalg_solve_triangular(in[0], in[1], a->flag, a->i0 != 0, a->i1 != 0, &x) < 0 ? NULL : x;
    }
    if (!strcmp(k, "linalg_slogdet")) {
        tsr_tensor *sg = NULL, *l = NULL;
        if (tsr_linalg_slogdet(in[0], &sg, &l) < 0) return NULL;
        tsr_tensor_release(sg);
        return l;
    }
    if (!strcmp(k, "addbmm")) return tsr_addbmm(in[0], in[1], in[2], tsr_scalar_float(a->d0), tsr_scalar_float(a->d1), NULL, false);
    if (!strcmp(k, "view") || !strcmp(k, "reshape_alias") || !strcmp(k, "unsafe_view")) return tsr_reshape(in[0], 1, L(6));
    if (!strcmp(k, "squeeze")) return tsr_view_squeeze(in[0]);
    if (!strcmp(k, "squeeze_dim") || !strcmp(k, "squeeze_mm")) return tsr_view_squeeze_dim(in[0], a->i0);
    if (!strcmp(k, "unsqueeze") || !strcmp(k, "unsqueeze_")) return tsr_view_unsqueeze(in[0], a->i0);
    if (!strcmp(k, "t")) return tsr_view_t(in[0]);
    if (!strcmp(k, "transpose")) return tsr_view_transpose(in[0], a->i0, a->i1);
    if (!strcmp(k, "permute")) return tsr_view_permute(in[0], a->ndims, a->dims);
    if (!strcmp(k, "expand")) return tsr_view_expand(in[0], 2, L(4, 3));
    if (!strcmp(k, "select")) return tsr_view_select(in[0], a->i0, a->i1);
    if (!strcmp(k, "slice") || !strcmp(k, "narrow")) return tsr_view_slice(in[0], a->i0, a->i1, a->dims[0], a->dims[1]);
    if (!strcmp(k, "clone") || !strcmp(k, "alias") || !strcmp(k, "to_copy")) return tsr_clone(in[0], TSR_MF_CONTIGUOUS);
    if (!strcmp(k, "cat")) return tsr_cat(2, (const tsr_tensor *const *)in, a->i0, NULL);
    if (!strcmp(k, "stack")) return tsr_stack(2, (const tsr_tensor *const *)in, a->i0, NULL);
    if (!strcmp(k, "gather")) return tsr_gather(in[0], a->i0, in[1]);
    if (!strcmp(k, "index_select")) return tsr_index_select(in[0], a->i0, in[1]);
    if (!strcmp(k, "index")) return tsr_index(in[0], 1, (const tsr_tensor *const *)&in[1]);
    if (!strcmp(k, "flip")) return tsr_flip(in[0], a->ndims, a->dims);
    if (!strcmp(k, "atan2")) return bin(TSR_BINOP_ATAN2, in[0], in[1]);
    if (!strcmp(k, "masked_fill")) { tsr_operand v = tsr_operand_scalar(tsr_scalar_float(0.5)); return tsr_masked_fill(in[0], in[1], &v); }
    if (!strcmp(k, "repeat")) return tsr_repeat(in[0], a->ndims, a->dims);
    if (!strcmp(k, "sort") || !strcmp(k, "topk")) {   /* values along dim 1, descending by flipping the sign twice */
        tsr_tensor *v = NULL, *ix = NULL;
        if (tsr_max_dim(in[0], a->i0, true, true, NULL, NULL, &v, &ix) < 0) return NULL;
        tsr_tensor_release(ix);
        return v;
    }
    if (!strcmp(k, "max_dim") || !strcmp(k, "min_dim")) {
        tsr_tensor *v = NULL, *ix = NULL;
        if (tsr_max_dim(in[0], a->i0, a->keepdim, !strcmp(k, "max_dim"), NULL, NULL, &v, &ix) < 0) return NULL;
        tsr_tensor_release(ix);
        return v;
    }
    /* views, shapes and indexing (issue 19) */
    if (!strcmp(k, "diagonal")) return tsr_view_diagonal(in[0], a->i0, a->i1, a->i2);
    if (!strcmp(k, "diag")) return tsr_diag(in[0], a->i0, NULL);
    if (!strcmp(k, "tril") || !strcmp(k, "triu")) return tsr_tril(in[0], a->i0, !strcmp(k, "triu"), NULL);
    if (!strcmp(k, "trace")) return tsr_trace(in[0]);
    if (!strcmp(k, "roll")) return tsr_roll(in[0], a->ndims, a->dims, (int)a->i0, a->dims + a->ndims);
    if (!strcmp(k, "rot90")) return tsr_rot90(in[0], a->i0, 2, a->dims);
    if (!strcmp(k, "unfold")) return tsr_view_unfold(in[0], a->i0, a->i1, a->i2);
    if (!strcmp(k, "copy_backwards")) return tsr_clone(in[1], TSR_MF_CONTIGUOUS);
    if (!strcmp(k, "masked_fill_tensor")) { tsr_operand v = tsr_operand_tensor(in[2]); return tsr_masked_fill(in[0], in[1], &v); }
    /* the multi-output nodes: output 0 alone (the others get zeros) */
    if (!strcmp(k, "split") || !strcmp(k, "split_with_sizes") || !strcmp(k, "unsafe_split") ||
        !strcmp(k, "unsafe_split_with_sizes"))
        return tsr_view_narrow(in[0], a->i0, 0, a->dims[0]);
    if (!strcmp(k, "unbind")) return tsr_view_select(in[0], a->i0, 0);
    tsr_tensor *ix = idx19(k), *r = NULL;
    if (ix) {
        tsr_scalar v = tsr_scalar_float(0.5);
        if (!strcmp(k, "index_add")) r = tsr_index_add(in[0], a->i0, ix, in[1], tsr_scalar_float(a->d0));
        else if (!strcmp(k, "index_fill")) r = tsr_index_fill(in[0], a->i0, ix, v, NULL);
        else if (!strcmp(k, "index_fill_t")) r = tsr_index_fill(in[0], a->i0, ix, v, in[1]);
        else if (!strcmp(k, "scatter")) r = tsr_scatter(in[0], a->i0, ix, in[1], NULL, TSR_SCATTER_NONE);
        else if (!strcmp(k, "scatter_v")) r = tsr_scatter(in[0], a->i0, ix, NULL, &v, TSR_SCATTER_NONE);
        else if (!strcmp(k, "scatter_add")) r = tsr_scatter(in[0], a->i0, ix, in[1], NULL, TSR_SCATTER_ADD);
        else if (!strcmp(k, "take")) r = tsr_take(in[0], ix);
        else if (!strcmp(k, "put")) r = tsr_put(in[0], ix, in[1], a->flag);
        else if (!strcmp(k, "masked_scatter")) r = tsr_masked_scatter(in[0], ix, in[1]);
        tsr_tensor_release(ix);
        return r;
    }
    return fwd_pointwise(k, a, in);
}

#define A(...) ((tsr_ag_args){__VA_ARGS__})
static const Case cases[] = {
    {"abs", 1, {2}, {{2, 3}}, 0, A(.ndims = -1)}, {"acos", 1, {1}, {{4}}, 2, A(.ndims = -1)},
    {"add", 2, {2, 1}, {{2, 3}, {3}}, 0, A(.has_d0 = true, .d0 = 2.5)}, {"addmm", 3, {1, 2, 2}, {{2}, {3, 4}, {4, 2}}, 0, A(.d0 = 0.5, .d1 = 2)},
    {"alias", 1, {2}, {{2, 3}}, 0, A(.ndims = 0)}, {"angle", 1, {2}, {{2, 3}}, 1, A(.ndims = 0)}, {"sgn", 1, {2}, {{2, 3}}, 1, A(.ndims = 0)}, {"diag_embed", 1, {2}, {{2, 3}}, 0, A(.i0 = 1, .i1 = 1, .i2 = 2)}, {"amax", 1, {2}, {{3, 4}}, 0, A(.ndims = 1, .dims = {1})},
    {"amin", 1, {2}, {{3, 4}}, 0, A(.ndims = 1, .dims = {0}, .keepdim = true)}, {"asin", 1, {1}, {{4}}, 2, A(.ndims = 0)},
    {"atan", 1, {1}, {{4}}, 0, A(.ndims = 0)}, {"atan2", 2, {1, 1}, {{4}, {4}}, 0, A(.ndims = 0)},
    {"masked_fill", 2, {2, 2}, {{2, 3}, {2, 3}}, 5, A(.ndims = 0)}, {"repeat", 1, {2}, {{2, 3}}, 0, A(.ndims = 3, .dims = {2, 1, 2})},
    {"sort", 1, {2}, {{3, 4}}, 0, A(.i0 = 1)}, {"topk", 1, {2}, {{3, 4}}, 0, A(.i0 = 0)}, {"bmm", 2, {3, 3}, {{2, 2, 3}, {2, 3, 2}}, 0, A(.ndims = 0)},
    {"cat", 2, {2, 2}, {{2, 3}, {1, 3}}, 0, A(.i0 = 0)}, {"ceil", 1, {1}, {{5}}, 0, A(.ndims = 0)},
    {"clamp", 1, {2}, {{3, 3}}, 0, A(.has_d0 = true, .d0 = -0.3, .has_d1 = true, .d1 = 0.4)}, {"clone", 1, {1}, {{4}}, 0, A(.ndims = 0)},
    {"cos", 1, {1}, {{4}}, 0, A(.ndims = 0)}, {"cosh", 1, {1}, {{4}}, 0, A(.ndims = 0)}, {"cumsum", 1, {2}, {{3, 4}}, 0, A(.i0 = 1)},
    {"div", 2, {2, 2}, {{2, 2}, {2, 2}}, 1, A(.ndims = 0)}, {"dot", 2, {1, 1}, {{5}, {5}}, 0, A(.ndims = 0)}, {"vdot", 2, {1, 1}, {{4}, {4}}, 0, A(.ndims = 0)}, {"erf", 1, {1}, {{4}}, 0, A(.ndims = 0)},
    {"exp", 1, {2}, {{2, 2}}, 0, A(.ndims = 0)}, {"exp2", 1, {1}, {{3}}, 0, A(.ndims = 0)}, {"expand", 1, {2}, {{1, 3}}, 0, A(.ndims = 0)},
    {"expm1", 1, {1}, {{3}}, 0, A(.ndims = 0)}, {"flip", 1, {2}, {{2, 3}}, 0, A(.ndims = 1, .dims = {1})}, {"floor", 1, {1}, {{4}}, 0, A(.ndims = 0)},
    {"gather", 2, {2, 2}, {{3, 4}, {3, 2}}, 3, A(.i0 = 1)}, {"index", 2, {2, 1}, {{4, 3}, {5}}, 3, A(.ndims = 0)},
    {"index_select", 2, {2, 1}, {{4, 3}, {5}}, 3, A(.i0 = 0)}, {"log", 1, {1}, {{4}}, 1, A(.ndims = 0)}, {"log10", 1, {1}, {{4}}, 1, A(.ndims = 0)},
    {"log1p", 1, {1}, {{4}}, 1, A(.ndims = 0)}, {"log2", 1, {1}, {{4}}, 1, A(.ndims = 0)}, {"log_softmax", 1, {2}, {{3, 4}}, 0, A(.i0 = 1)},
    {"logsumexp", 1, {2}, {{3, 4}}, 0, A(.ndims = 1, .dims = {0})}, {"max", 1, {2}, {{3, 4}}, 0, A(.ndims = 0)},
    {"max_dim", 1, {2}, {{3, 4}}, 0, A(.i0 = 1)}, {"maximum", 2, {1, 1}, {{5}, {5}}, 0, A(.ndims = 0)},
    {"mean", 1, {2}, {{3, 4}}, 0, A(.ndims = -1)}, {"mean_dim", 1, {3}, {{2, 3, 2}}, 0, A(.ndims = 2, .dims = {0, 2})},
    {"min", 1, {1}, {{6}}, 0, A(.ndims = 0)}, {"min_dim", 1, {2}, {{3, 4}}, 0, A(.i0 = 0, .keepdim = true)},
    {"minimum", 2, {2, 1}, {{2, 3}, {3}}, 0, A(.ndims = 0)}, {"mm", 2, {2, 2}, {{2, 3}, {3, 4}}, 0, A(.ndims = 0)},
    {"mul", 2, {2, 1}, {{2, 3}, {3}}, 0, A(.ndims = 0)}, {"mv", 2, {2, 1}, {{2, 3}, {3}}, 0, A(.ndims = 0)},
    {"narrow", 1, {2}, {{4, 3}}, 0, A(.i0 = 0, .i1 = 1, .i2 = 1, .dims = {3, 1})}, {"neg", 1, {1}, {{3}}, 0, A(.ndims = 0)},
    {"norm", 1, {2}, {{3, 4}}, 0, A(.ndims = 1, .dims = {1}, .d0 = 2)}, {"norm0", 1, {2}, {{3, 4}}, 0, A(.ndims = -1, .d0 = 2)}, {"permute", 1, {3}, {{2, 3, 4}}, 0, A(.ndims = 3, .dims = {2, 0, 1})},
    {"pow", 1, {1}, {{4}}, 1, A(.d0 = 2.5)}, {"pow_t", 2, {1, 1}, {{4}, {4}}, 1, A(.ndims = 0)},
    {"pow_scalar", 1, {1}, {{4}}, 0, A(.d0 = 2.0)}, {"pow_scalar", 1, {1}, {{4}}, 0, A(.d0 = 0.5)},
    {"prod", 1, {2}, {{2, 3}}, 0, A(.ndims = -1)}, {"prod_dim", 1, {2}, {{2, 3}}, 0, A(.ndims = 1, .dims = {1})},
    {"reciprocal", 1, {1}, {{4}}, 1, A(.ndims = 0)}, {"relu", 1, {1}, {{6}}, 0, A(.ndims = 0)}, {"reshape_alias", 1, {2}, {{2, 3}}, 0, A(.ndims = 0)},
    {"round", 1, {1}, {{4}}, 0, A(.ndims = 0)}, {"rsqrt", 1, {1}, {{4}}, 1, A(.ndims = 0)}, {"rsub", 2, {1, 1}, {{3}, {3}}, 0, A(.ndims = 0)},
    {"rsub_s", 1, {1}, {{3}}, 0, A(.ndims = 0)}, {"select", 1, {2}, {{3, 4}}, 0, A(.i0 = 1, .i1 = 2)},
    {"sigmoid", 1, {1}, {{5}}, 0, A(.ndims = 0)}, {"sign", 1, {1}, {{4}}, 0, A(.ndims = 0)}, {"sin", 1, {1}, {{4}}, 0, A(.ndims = 0)},
    {"sinh", 1, {1}, {{4}}, 0, A(.ndims = 0)}, {"slice", 1, {2}, {{5, 2}}, 0, A(.i0 = 0, .i1 = 1, .i2 = 1, .dims = {5, 2})},
    {"softmax", 1, {2}, {{3, 4}}, 0, A(.i0 = 0)}, {"sqrt", 1, {1}, {{4}}, 1, A(.ndims = 0)}, {"square", 1, {1}, {{4}}, 0, A(.ndims = 0)},
    {"squeeze", 1, {3}, {{2, 1, 3}}, 0, A(.ndims = 0)}, {"squeeze_dim", 1, {3}, {{2, 1, 3}}, 0, A(.i0 = 1)},
    {"squeeze_mm", 1, {2}, {{1, 3}}, 0, A(.i0 = 0)}, {"stack", 2, {2, 2}, {{2, 3}, {2, 3}}, 0, A(.i0 = 1)},
    {"std", 1, {2}, {{3, 4}}, 0, A(.ndims = 1, .dims = {1}, .i0 = 1)}, {"sub", 2, {2, 2}, {{2, 3}, {1, 3}}, 0, A(.ndims = 0)},
    {"sum", 1, {2}, {{3, 4}}, 0, A(.ndims = -1)}, {"sum_dim", 1, {2}, {{3, 4}}, 0, A(.ndims = 1, .dims = {-1}, .keepdim = true)},
    {"t", 1, {2}, {{2, 3}}, 0, A(.ndims = 0)}, {"tan", 1, {1}, {{4}}, 2, A(.ndims = 0)}, {"tanh", 1, {1}, {{4}}, 0, A(.ndims = 0)},
    {"to_copy", 1, {1}, {{4}}, 0, A(.ndims = 0)}, {"transpose", 1, {3}, {{2, 3, 4}}, 0, A(.i0 = 0, .i1 = 2)},
    {"trunc", 1, {1}, {{4}}, 0, A(.ndims = 0)}, {"unsafe_view", 1, {2}, {{3, 2}}, 0, A(.ndims = 0)}, {"unsqueeze", 1, {1}, {{3}}, 0, A(.i0 = 1)},
    {"unsqueeze_", 1, {2}, {{2, 3}}, 0, A(.i0 = 2)},
    {"var", 1, {2}, {{3, 4}}, 0, A(.ndims = -1, .i0 = 1)}, {"view", 1, {2}, {{2, 3}}, 0, A(.ndims = 0)},
    {"where", 3, {2, 2, 2}, {{2, 3}, {2, 3}, {2, 3}}, 4, A(.ndims = 0)},
    /* views, shapes and indexing (issue 19) */
    {"diagonal", 1, {3}, {{2, 3, 4}}, 0, A(.i0 = 1, .i1 = 2, .i2 = 0)}, {"diag", 1, {1}, {{3}}, 0, A(.i0 = 1)},
    {"diag", 1, {2}, {{3, 4}}, 0, A(.i0 = -1)}, {"diag", 1, {2}, {{3, 3}}, 0, A(.i0 = 1)},
    {"tril", 1, {2}, {{3, 4}}, 0, A(.i0 = 1)}, {"triu", 1, {3}, {{2, 3, 4}}, 0, A(.i0 = -1)},
    {"trace", 1, {2}, {{3, 4}}, 0, A(.ndims = 0)},
    {"roll", 1, {2}, {{3, 4}}, 0, A(.ndims = 2, .dims = {1, -3, 0, 1}, .i0 = 2)}, {"roll", 1, {2}, {{3, 4}}, 0, A(.ndims = 1, .dims = {5}, .i0 = 0)},
    {"rot90", 1, {3}, {{2, 3, 4}}, 0, A(.i0 = 1, .ndims = 2, .dims = {2, 1})}, {"rot90", 1, {2}, {{2, 3}}, 0, A(.i0 = -2, .ndims = 2, .dims = {0, 1})},
    {"index_add", 2, {2, 2}, {{4, 3}, {3, 3}}, 0, A(.i0 = 0, .has_d0 = true, .d0 = 2.5)},
    {"index_fill", 1, {2}, {{3, 4}}, 0, A(.i0 = 1)}, {"index_fill_t", 2, {2, 0}, {{3, 4}, {0}}, 0, A(.i0 = 1)},
    {"scatter", 2, {2, 2}, {{4, 3}, {2, 3}}, 0, A(.i0 = 0)}, {"scatter_v", 1, {2}, {{4, 3}}, 0, A(.i0 = 0)},
    {"scatter_add", 2, {2, 2}, {{4, 3}, {2, 3}}, 0, A(.i0 = 0)}, {"take", 1, {2}, {{4, 3}}, 0, A(.ndims = 0)},
    {"put", 2, {2, 1}, {{4, 3}, {3}}, 0, A(.flag = false)}, {"put", 2, {2, 1}, {{4, 3}, {3}}, 0, A(.flag = true)},
    {"masked_scatter", 2, {2, 2}, {{4, 3}, {2, 4}}, 0, A(.ndims = 0)},
    {"split", 1, {2}, {{5, 3}}, 0, A(.i0 = 0, .ndims = 3, .dims = {2, 2, 1})},
    {"split_with_sizes", 1, {2}, {{2, 5}}, 0, A(.i0 = 1, .ndims = 2, .dims = {1, 4})},
    {"unsafe_split", 1, {2}, {{5, 3}}, 0, A(.i0 = 0, .ndims = 3, .dims = {2, 2, 1})},
    {"unsafe_split_with_sizes", 1, {2}, {{2, 5}}, 0, A(.i0 = 1, .ndims = 2, .dims = {1, 4})}, {"unbind", 1, {2}, {{3, 4}}, 0, A(.i0 = 1, .ndims = 4)},
    {"masked_fill_tensor", 3, {2, 2, 0}, {{2, 3}, {2, 3}, {0}}, 5, A(.ndims = 0)},
    {"copy_backwards", 2, {2, 2}, {{2, 3}, {2, 3}}, 0, A(.ndims = 0)},
    {"unfold", 1, {3}, {{2, 5, 3}}, 0, A(.i0 = 1, .i1 = 3, .i2 = 1)}, {"unfold", 1, {2}, {{7, 2}}, 0, A(.i0 = 0, .i1 = 2, .i2 = 3)},
    /* torch.nn.functional */
    {"elu", 1, {2}, {{2, 3}}, 0, A(.d0 = 0.7, .d1 = 1.0)}, {"elu_", 1, {2}, {{2, 3}}, 0, A(.d0 = 1.3, .d1 = 1.0)},
    {"celu", 1, {1}, {{6}}, 0, A(.d0 = 2.0)}, {"celu_", 1, {1}, {{6}}, 0, A(.d0 = 0.5)},
    {"gelu", 1, {1}, {{6}}, 0, A(.flag = false)}, {"gelu", 1, {1}, {{6}}, 0, A(.flag = true)},
    {"silu", 1, {1}, {{6}}, 0, A(.ndims = 0)}, {"silu_", 1, {1}, {{6}}, 0, A(.ndims = 0)},
    {"mish", 1, {1}, {{6}}, 0, A(.ndims = 0)}, {"mish_", 1, {1}, {{6}}, 0, A(.ndims = 0)},
    {"hardsigmoid", 1, {1}, {{6}}, 0, A(.ndims = 0)}, {"hardsigmoid_", 1, {1}, {{6}}, 0, A(.ndims = 0)},
    {"hardswish", 1, {1}, {{6}}, 0, A(.ndims = 0)}, {"hardswish_", 1, {1}, {{6}}, 0, A(.ndims = 0)},
    {"softplus", 1, {1}, {{6}}, 0, A(.d0 = 2.0, .d1 = 1.0)}, {"log_sigmoid", 1, {2}, {{2, 3}}, 0, A(.ndims = 0)},
    {"hardtanh", 1, {1}, {{6}}, 0, A(.d0 = -0.5, .d1 = 0.6)}, {"hardtanh_", 1, {1}, {{6}}, 0, A(.d0 = -0.5, .d1 = 0.6)},
    {"leaky_relu", 1, {1}, {{6}}, 0, A(.d0 = 0.2)}, {"leaky_relu_", 1, {1}, {{6}}, 0, A(.d0 = 0.2)},
    {"threshold", 1, {1}, {{6}}, 0, A(.d0 = 0.1)}, {"threshold_", 1, {1}, {{6}}, 0, A(.d0 = 0.1)},
    {"glu", 1, {2}, {{3, 4}}, 0, A(.i0 = 1)}, {"glu", 1, {2}, {{4, 3}}, 0, A(.i0 = 0)},
    /* kernel, dilation, padding, stride pairs; im2col's input (col2im's output) size */
    {"im2col", 1, {4}, {{1, 2, 4, 3}}, 0, A(.dims = {2, 2, 1, 2, 1, 0, 2, 1, 4, 3})},
    {"col2im", 1, {3}, {{1, 8, 6}}, 0, A(.dims = {2, 2, 2, 1, 1, 0, 1, 2, 3, 4})},
    {"hardshrink", 1, {1}, {{6}}, 0, A(.d0 = 0.3)}, {"softshrink", 1, {1}, {{6}}, 0, A(.d0 = 0.3)},
    /* sizes, then the scale factors' bits: 1.5 = 0x3ff8..., 0.7 = 0x3fe6666666666666, (the 3-d rows are conformance cases: a case holds 4-d sizes at most) */
    {"upsample_nearest1d", 1, {3}, {{1, 2, 3}}, 0, A(.dims = {1, 2, 3, 0, 0, 0x3ff8000000000000}, .flag = true)},
    {"upsample_nearest2d", 1, {4}, {{1, 2, 3, 4}}, 0, A(.dims = {1, 2, 3, 4, 0, 0x3ff8000000000000, 0x3fe6666666666666}, .flag = true)},
    {"upsample_nearest_exact1d", 1, {3}, {{1, 2, 3}}, 0, A(.dims = {1, 2, 3, 0, 0, 0x3ff8000000000000}, .flag = true)},
    {"upsample_nearest_exact2d", 1, {4}, {{1, 2, 3, 4}}, 0, A(.dims = {1, 2, 3, 4, 0, 0x3ff8000000000000, 0x3fe6666666666666}, .flag = true)},
    {"upsample_linear1d", 1, {3}, {{1, 2, 3}}, 0, A(.dims = {1, 2, 3, 0, 0, 0x3ff8000000000000}, .flag = true)},
    {"upsample_linear1d", 1, {3}, {{2, 1, 4}}, 0, A(.dims = {2, 1, 4, 0, 0, 0x3fe6666666666666}, .flag = true, .keepdim = true)},
    {"upsample_bilinear2d", 1, {4}, {{1, 2, 3, 4}}, 0, A(.dims = {1, 2, 3, 4, 0, 0x3ff8000000000000, 0x3fe6666666666666}, .flag = true)},
    {"upsample_bilinear2d", 1, {4}, {{1, 2, 3, 4}}, 0, A(.dims = {1, 2, 3, 4, 0, 0x3fe6666666666666, 0x3ff8000000000000}, .flag = true, .keepdim = true)},
    {"upsample_bicubic2d", 1, {4}, {{1, 2, 3, 4}}, 0, A(.dims = {1, 2, 3, 4, 0, 0x3ff8000000000000, 0x3fe6666666666666}, .flag = true)},
    /* antialias: scales 0.6 x 0.5 (down) and 1.5 x 0.7 */
    {"upsample_bilinear2d_aa", 1, {4}, {{1, 2, 5, 6}}, 0, A(.dims = {1, 2, 5, 6, 0, 0x3fe3333333333333, 0x3fe0000000000000}, .flag = true)},
    {"upsample_bilinear2d_aa", 1, {4}, {{1, 1, 4, 6}}, 0, A(.dims = {1, 1, 4, 6, 0, 0x3ff8000000000000, 0x3fe6666666666666}, .flag = true, .keepdim = true)},
    {"upsample_bicubic2d_aa", 1, {4}, {{1, 2, 5, 6}}, 0, A(.dims = {1, 2, 5, 6, 0, 0x3fe3333333333333, 0x3fe0000000000000}, .flag = true)},
    {"upsample_bicubic2d_aa", 1, {4}, {{1, 1, 4, 6}}, 0, A(.dims = {1, 1, 4, 6, 0, 0x3ff8000000000000, 0x3fe6666666666666}, .flag = true, .keepdim = true)},
    {"upsample_bicubic2d", 1, {4}, {{1, 1, 4, 3}}, 0, A(.dims = {1, 1, 4, 3, 0, 0x3fe6666666666666, 0x3ff8000000000000}, .flag = true, .keepdim = true)},
    /* grid points in (-1, 1): bilinear, zeros / border padding */
    {"grid_sampler_2d", 2, {4, 4}, {{1, 2, 3, 4}, {1, 2, 3, 2}}, 2, A(.i0 = 0, .i1 = 0, .flag = false)},
    {"grid_sampler_2d", 2, {4, 4}, {{1, 1, 4, 3}, {1, 3, 2, 2}}, 2, A(.i0 = 0, .i1 = 1, .flag = true)},
    {"affine_grid_generator", 1, {3}, {{2, 2, 3}}, 0, A(.dims = {2, 1, 3, 2}, .ndims = 4, .flag = false)},
    {"affine_grid_generator", 1, {3}, {{1, 3, 4}}, 0, A(.dims = {1, 1, 2, 3, 2}, .ndims = 5, .flag = true)},
    {"pixel_shuffle", 1, {4}, {{1, 4, 2, 3}}, 0, A(.i0 = 2)}, {"pixel_unshuffle", 1, {3}, {{1, 4, 2}}, 0, A(.i0 = 2)},
    /* evaluation mode (the mean slope); training multiplies by the kept noise (conformance cases) */
    {"rrelu_with_noise", 1, {1}, {{6}}, 0, A(.d0 = 0.1, .d1 = 0.3)}, {"rrelu_with_noise_", 1, {1}, {{6}}, 0, A(.d0 = 0.1, .d1 = 0.3)},
    {"mse_loss", 2, {2, 2}, {{2, 3}, {2, 3}}, 0, A(.i0 = TSR_REDUCTION_MEAN)},
    {"mse_loss", 2, {2, 2}, {{2, 3}, {2, 3}}, 0, A(.i0 = TSR_REDUCTION_NONE)},
    {"smooth_l1_loss", 2, {2, 2}, {{2, 3}, {2, 3}}, 0, A(.i0 = TSR_REDUCTION_MEAN, .d0 = 0.5)},
    {"huber_loss", 2, {2, 2}, {{2, 3}, {2, 3}}, 0, A(.i0 = TSR_REDUCTION_SUM, .d0 = 0.4)},
    {"soft_margin_loss", 1, {1}, {{6}}, 0, A(.i0 = TSR_REDUCTION_MEAN)},
    {"multi_margin_loss", 1, {2}, {{3, 4}}, 0, A(.i0 = TSR_REDUCTION_MEAN, .i1 = 2, .d0 = 1.5)},
    {"multi_margin_loss", 1, {2}, {{3, 4}}, 0, A(.i0 = TSR_REDUCTION_NONE, .i1 = 1, .d0 = 1.0)},
    {"multilabel_margin_loss", 1, {1}, {{4}}, 0, A(.i0 = TSR_REDUCTION_MEAN)},
    {"pdist", 1, {2}, {{4, 3}}, 0, A(.d0 = 2)}, {"pdist", 1, {2}, {{4, 9}}, 0, A(.d0 = 1)},
    {"pdist", 1, {2}, {{4, 3}}, 0, A(.d0 = INFINITY)}, {"pdist", 1, {2}, {{4, 3}}, 0, A(.d0 = 3)},
    {"pdist", 1, {2}, {{3, 10}}, 0, A(.d0 = 1.5)},
    {"soft_margin_loss", 1, {1}, {{6}}, 0, A(.i0 = TSR_REDUCTION_NONE)}, {"sub_s", 1, {1}, {{4}}, 0, A(.d0 = 0.5)},
    {"binary_cross_entropy", 2, {2, 2}, {{2, 3}, {2, 3}}, 6, A(.i0 = TSR_REDUCTION_MEAN)},
    {"binary_cross_entropy_with_logits", 2, {2, 2}, {{2, 3}, {2, 3}}, 7, A(.i0 = TSR_REDUCTION_SUM)},
    {"nll_loss", 1, {2}, {{3, 4}}, 0, A(.i0 = TSR_REDUCTION_MEAN, .i1 = -100, .d0 = 3)},
    {"nll_loss", 1, {2}, {{3, 4}}, 0, A(.i0 = TSR_REDUCTION_NONE, .i1 = 0, .d0 = 0)},
    {"nll_loss2d", 1, {4}, {{1, 4, 1, 3}}, 0, A(.i0 = TSR_REDUCTION_MEAN, .i1 = -100, .d0 = 3)},
    {"nll_loss2d", 1, {4}, {{1, 4, 1, 3}}, 0, A(.i0 = TSR_REDUCTION_NONE, .i1 = 0, .d0 = 0)},
    {"nll_loss2d", 1, {4}, {{1, 4, 1, 3}}, 0, A(.i0 = TSR_REDUCTION_SUM, .i1 = 3, .d0 = 2)},
    /* padding_idx and scale_grad_by_freq change the gradient by design, not the forward: the conformance cases */
    {"embedding", 1, {2}, {{5, 3}}, 0, A(.i0 = 5, .i1 = -1)},
    {"clamp_min", 1, {1}, {{6}}, 0, A(.has_d0 = true, .d0 = 0.2)},
    {"constant_pad_nd", 1, {2}, {{2, 3}}, 0, A(.ndims = 4, .dims = {1, -1, 2, 0})},
    {"div_s", 1, {1}, {{4}}, 0, A(.d0 = 3.0)}, {"cumprod", 1, {2}, {{3, 4}}, 0, A(.i0 = 1)},
    {"norm_p", 1, {2}, {{3, 4}}, 0, A(.ndims = 1, .dims = {1}, .d0 = 3)}, {"norm_p", 1, {2}, {{3, 4}}, 0, A(.ndims = -1, .d0 = 1.5)},
    {"vector_norm", 1, {2}, {{3, 4}}, 0, A(.ndims = 1, .dims = {1}, .d0 = 2.5, .keepdim = true)},
    {"norm_p", 1, {2}, {{3, 4}}, 0, A(.ndims = 1, .dims = {0}, .d0 = 0.5)}, {"norm_p", 1, {2}, {{3, 4}}, 0, A(.ndims = -1, .d0 = INFINITY)},
    {"div_rounding", 2, {1, 1}, {{4}, {4}}, 0, A(.ndims = 0)},
    {"prod_dim", 1, {2}, {{2, 3}}, 8, A(.ndims = 1, .dims = {1})}, {"add_s", 1, {1}, {{4}}, 0, A(.d0 = 0.5)}, {"mul_s", 1, {1}, {{4}}, 0, A(.d0 = -1.5)},
    {"index_put_mask", 2, {1, 0}, {{6}, {0}}, 0, A(.ndims = 0)}, {"masked_select", 1, {1}, {{6}}, 0, A(.ndims = 0)},
    {"convolution", 3, {3, 3, 1}, {{2, 4, 7}, {6, 2, 3}, {6}}, 0, A(.ndims = 1, .dims = {2, 0, 1, 0, 2, 0, 0, 0}, .i0 = 2)},
    {"convolution", 3, {3, 3, 1}, {{2, 4, 5}, {4, 3, 2}, {6}}, 0,
     A(.ndims = 1, .dims = {2, 0, 1, 0, 1, 0, 1, 0}, .i0 = 2, .flag = true)},
    {"convolution", 3, {5, 5, 1}, {{2, 4, 3, 4, 3}, {4, 2, 2, 2, 2}, {4}}, 0,
     A(.ndims = 3, .dims = {1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0}, .i0 = 2)},
    {"convolution", 3, {5, 5, 1}, {{1, 2, 4, 3, 4}, {2, 2, 2, 1, 2}, {2}}, 0,
     A(.ndims = 3, .dims = {1, 1, 1, 0, 0, 0, 2, 1, 1, 0, 0, 0}, .i0 = 1)},
    {"convolution", 3, {5, 5, 1}, {{1, 4, 2, 2, 3}, {4, 2, 2, 2, 1}, {4}}, 0,
     A(.ndims = 3, .dims = {2, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0}, .i0 = 2, .flag = true)},
    {"conv_tbc", 3, {3, 3, 1}, {{5, 2, 3}, {3, 3, 4}, {4}}, 0, A(.i0 = 1)},
    {"conv_tbc", 3, {3, 3, 1}, {{4, 1, 2}, {2, 2, 3}, {3}}, 0, A(.i0 = 0)},
    {"max_pool2d", 1, {3}, {{2, 5, 6}}, 0, A(.dims = {3, 2, 2, 1, 1, 0})},
    /* the backward kernels' own nodes (create_graph): (grad, self[, weight]) */
    {"convolution_backward", 3, {3, 3, 3}, {{2, 6, 3}, {2, 4, 7}, {6, 2, 3}}, 0, A(.ndims = 1, .dims = {2, 0, 0, 0, 1, 0, 0, 0}, .i0 = 2)},
    {"convolution_backward", 3, {3, 3, 3}, {{2, 6, 6}, {2, 4, 5}, {4, 3, 2}}, 0,
     A(.ndims = 1, .dims = {1, 0, 0, 0, 1, 0, 0, 0}, .i0 = 2, .flag = true)},
    /* self needs no grad: the double backward (as 1.13's) takes the saved statistics as constants */
    {"native_batch_norm_backward", 3, {2, 2, 1}, {{4, 3}, {4, 3}, {3}}, 7, A(.flag = true, .d0 = 1e-3)},
    {"native_batch_norm_backward", 3, {3, 3, 1}, {{2, 3, 2}, {2, 3, 2}, {3}}, 7, A(.flag = true, .d0 = 1e-3)},
    {"native_layer_norm_backward", 2, {2, 2}, {{3, 4}, {3, 4}}, 7, A(.ndims = 1, .dims = {4}, .d0 = 1e-3)},
    {"smooth_l1_loss_backward", 3, {2, 2, 2}, {{2, 3}, {2, 3}, {2, 3}}, 0, A(.i0 = TSR_REDUCTION_NONE, .d0 = 0.5)},
    {"huber_loss_backward", 3, {2, 2, 2}, {{2, 3}, {2, 3}, {2, 3}}, 0, A(.i0 = TSR_REDUCTION_NONE, .d0 = 0.4)},
    {"binary_cross_entropy_backward", 3, {2, 2, 2}, {{2, 3}, {2, 3}, {2, 3}}, 12, A(.i0 = TSR_REDUCTION_NONE)},
    {"glu_backward", 2, {2, 2}, {{3, 2}, {3, 4}}, 0, A(.i0 = 1)},
    {"avg_pool3d_backward", 2, {4, 4}, {{2, 1, 2, 2}, {2, 3, 4, 5}}, 7, A(.dims = {2, 2, 2, 2, 2, 2, 0, 0, 0}, .flag = true)},
    {"adaptive_avg_pool3d_backward", 2, {4, 4}, {{2, 2, 3, 3}, {2, 3, 5, 4}}, 7, A(.dims = {2, 3, 3})},
    {"fractional_max_pool2d_backward", 2, {4, 4}, {{1, 2, 3, 4}, {1, 2, 6, 7}}, 7, A(.dims = {2, 3, 0, 3, 4})},
    {"fractional_max_pool3d_backward", 2, {5, 5}, {{1, 2, 2, 3, 3}, {1, 2, 4, 5, 6}}, 7, A(.dims = {2, 2, 3, 2, 3, 3})},
    {"upsample_nearest3d", 1, {5}, {{1, 1, 2, 2, 3}}, 0, A(.dims = {1, 1, 2, 2, 3, 0x3ff8000000000000, 0x4000000000000000, 0x3fe6666666666666}, .flag = true)},
    {"upsample_nearest_exact3d", 1, {5}, {{1, 1, 2, 2, 3}}, 0, A(.dims = {1, 1, 2, 2, 3, 0x3ff8000000000000, 0x4000000000000000, 0x3fe6666666666666}, .flag = true)},
    {"upsample_trilinear3d", 1, {5}, {{1, 1, 2, 2, 3}}, 0, A(.dims = {1, 1, 2, 2, 3, 0x3ff8000000000000, 0x4000000000000000, 0x3fe6666666666666}, .flag = true)},
    {"upsample_nearest1d_backward", 1, {3}, {{1, 2, 4}}, 0, A(.dims = {1, 2, 3, 0, 0, 0x3ff8000000000000}, .flag = true)},
    {"upsample_nearest_exact1d_backward", 1, {3}, {{1, 2, 4}}, 0, A(.dims = {1, 2, 3, 0, 0, 0x3ff8000000000000}, .flag = true)},
    {"upsample_linear1d_backward", 1, {3}, {{1, 2, 4}}, 0, A(.dims = {1, 2, 3, 0, 0, 0x3ff8000000000000}, .flag = true)},
    {"upsample_nearest2d_backward", 1, {4}, {{1, 2, 4, 2}}, 0, A(.dims = {1, 2, 3, 4, 0, 0x3ff8000000000000, 0x3fe6666666666666}, .flag = true)},
    {"upsample_nearest_exact2d_backward", 1, {4}, {{1, 2, 4, 2}}, 0, A(.dims = {1, 2, 3, 4, 0, 0x3ff8000000000000, 0x3fe6666666666666}, .flag = true)},
    {"upsample_bilinear2d_backward", 1, {4}, {{1, 2, 4, 2}}, 0, A(.dims = {1, 2, 3, 4, 0, 0x3ff8000000000000, 0x3fe6666666666666}, .flag = true)},
    {"upsample_bicubic2d_backward", 1, {4}, {{1, 2, 4, 2}}, 0, A(.dims = {1, 2, 3, 4, 0, 0x3ff8000000000000, 0x3fe6666666666666}, .flag = true)},
    {"upsample_bilinear2d_aa_backward", 1, {4}, {{1, 2, 3, 3}}, 0, A(.dims = {1, 2, 5, 6, 0, 0x3fe3333333333333, 0x3fe0000000000000}, .flag = true)},
    {"upsample_bicubic2d_aa_backward", 1, {4}, {{1, 2, 3, 3}}, 0, A(.dims = {1, 2, 5, 6, 0, 0x3fe3333333333333, 0x3fe0000000000000}, .flag = true)},
    {"upsample_nearest3d_backward", 1, {5}, {{1, 1, 3, 4, 2}}, 0, A(.dims = {1, 1, 2, 2, 3, 0x3ff8000000000000, 0x4000000000000000, 0x3fe6666666666666}, .flag = true)},
    {"upsample_nearest_exact3d_backward", 1, {5}, {{1, 1, 3, 4, 2}}, 0, A(.dims = {1, 1, 2, 2, 3, 0x3ff8000000000000, 0x4000000000000000, 0x3fe6666666666666}, .flag = true)},
    {"upsample_trilinear3d_backward", 1, {5}, {{1, 1, 3, 4, 2}}, 0, A(.dims = {1, 1, 2, 2, 3, 0x3ff8000000000000, 0x4000000000000000, 0x3fe6666666666666}, .flag = true)},
    {"reflection_pad1d_backward", 2, {2, 2}, {{2, 8}, {2, 5}}, 7, A(.ndims = 2, .dims = {2, 1}, .i0 = 1)},
    {"reflection_pad2d_backward", 2, {3, 3}, {{1, 7, 8}, {1, 4, 5}}, 7, A(.ndims = 4, .dims = {1, 2, 3, 0}, .i0 = 1)},
    {"reflection_pad3d_backward", 2, {4, 4}, {{1, 3, 5, 5}, {1, 2, 3, 3}}, 7, A(.ndims = 6, .dims = {1, 1, 2, 0, 0, 1}, .i0 = 1)},
    {"replication_pad1d_backward", 2, {2, 2}, {{2, 8}, {2, 4}}, 7, A(.ndims = 2, .dims = {3, 1}, .i0 = 2)},
    {"replication_pad2d_backward", 2, {3, 3}, {{1, 6, 5}, {1, 3, 3}}, 7, A(.ndims = 4, .dims = {2, 0, 1, 2}, .i0 = 2)},
    {"replication_pad3d_backward", 2, {4, 4}, {{1, 3, 3, 5}, {1, 2, 2, 3}}, 7, A(.ndims = 6, .dims = {1, 1, 1, 0, 0, 1}, .i0 = 2)},
    {"hardshrink_backward", 2, {2, 2}, {{2, 3}, {2, 3}}, 7, A(.d0 = 0.3)},
    {"softshrink_backward", 2, {2, 2}, {{2, 3}, {2, 3}}, 7, A(.d0 = 0.3)},
    {"max_pool2d_backward", 2, {3, 3}, {{2, 2, 2}, {2, 4, 4}}, 7, A(.dims = {2, 2, 2, 2, 0, 0})},
    {"adaptive_max_pool2d_backward", 2, {3, 3}, {{2, 2, 3}, {2, 4, 5}}, 7, A(.dims = {2, 3})},
    {"avg_pool2d_backward", 2, {3, 3}, {{2, 2, 2}, {2, 4, 5}}, 7, A(.dims = {2, 2, 2, 2, 0, 0}, .flag = true)},
    {"adaptive_avg_pool2d_backward", 2, {3, 3}, {{2, 2, 3}, {2, 4, 5}}, 7, A(.dims = {2, 3})},
    {"max_pool3d_backward", 2, {4, 4}, {{1, 1, 2, 1}, {1, 2, 4, 2}}, 7, A(.dims = {2, 2, 0})},
    {"adaptive_max_pool3d_backward", 2, {4, 4}, {{1, 1, 2, 1}, {1, 2, 4, 2}}, 7, A(.dims = {1, 2, 1})},
    {"avg_pool2d", 1, {3}, {{2, 5, 6}}, 0, A(.dims = {3, 2, 2, 1, 1, 1}, .flag = true)},
    {"avg_pool2d", 1, {3}, {{2, 5, 6}}, 0, A(.dims = {3, 3, 2, 2, 1, 1})},
    {"avg_pool2d", 1, {3}, {{1, 4, 4}}, 0, A(.dims = {2, 2, 1, 1, 0, 0}, .has_d0 = true, .i0 = 3)},
    {"adaptive_avg_pool2d", 1, {3}, {{2, 5, 7}}, 0, A(.dims = {3, 4})},
    {"adaptive_max_pool2d", 1, {3}, {{2, 5, 7}}, 0, A(.dims = {3, 4})},
    {"max_unpool2d", 1, {3}, {{1, 2, 2}}, 0, A(.dims = {3, 3})},
    {"max_unpool3d", 1, {4}, {{1, 2, 1, 2}}, 0, A(.dims = {2, 2, 2})},
    {"max_pool3d", 1, {4}, {{2, 3, 4, 3}}, 0, A(.dims = {2, 1, 1})},
    {"adaptive_max_pool3d", 1, {4}, {{2, 3, 4, 5}}, 0, A(.dims = {2, 3, 2})},
    {"fractional_max_pool2d", 1, {4}, {{1, 2, 6, 7}}, 0, A(.dims = {2, 3, 0, 3, 4})},
    {"fractional_max_pool3d", 1, {5}, {{1, 2, 4, 5, 6}}, 0, A(.dims = {2, 2, 3, 2, 3, 3})},
    {"avg_pool3d", 1, {4}, {{2, 3, 4, 5}}, 0, A(.dims = {2, 3, 2, 1, 2, 2, 1, 1, 1}, .flag = true)},
    {"avg_pool3d", 1, {4}, {{1, 3, 4, 4}}, 0, A(.dims = {2, 2, 3, 1, 1, 2, 1, 0, 1})},
    {"avg_pool3d", 1, {4}, {{1, 2, 3, 4}}, 0, A(.dims = {2, 2, 2, 1, 1, 1, 0, 0, 0}, .has_d0 = true, .i0 = 3)},
    {"adaptive_avg_pool3d", 1, {4}, {{2, 3, 5, 4}}, 0, A(.dims = {2, 3, 3})},
    {"reflection_pad1d", 1, {2}, {{2, 5}}, 0, A(.ndims = 2, .dims = {2, 1}, .i0 = 1)},
    {"reflection_pad2d", 1, {3}, {{1, 4, 5}}, 0, A(.ndims = 4, .dims = {1, 2, 3, 0}, .i0 = 1)},
    {"reflection_pad3d", 1, {4}, {{1, 2, 3, 3}}, 0, A(.ndims = 6, .dims = {1, 1, 2, 0, 0, 1}, .i0 = 1)},
    {"replication_pad1d", 1, {2}, {{2, 4}}, 0, A(.ndims = 2, .dims = {3, 1}, .i0 = 2)},
    {"replication_pad2d", 1, {3}, {{1, 3, 3}}, 0, A(.ndims = 4, .dims = {2, 0, 1, 2}, .i0 = 2)},
    {"replication_pad3d", 1, {4}, {{1, 2, 2, 3}}, 0, A(.ndims = 6, .dims = {1, 1, 1, 0, 0, 1}, .i0 = 2)},
    {"native_batch_norm", 3, {2, 1, 1}, {{4, 3}, {3}, {3}}, 0, A(.flag = true, .d0 = 1e-5)},
    {"native_batch_norm", 3, {3, 1, 1}, {{2, 3, 4}, {3}, {3}}, 0, A(.flag = true, .d0 = 1e-3)},
    {"native_layer_norm", 3, {2, 1, 1}, {{3, 5}, {5}, {5}}, 0, A(.ndims = 1, .dims = {5}, .d0 = 1e-5)},
    {"native_layer_norm", 3, {3, 2, 2}, {{2, 3, 4}, {3, 4}, {3, 4}}, 0, A(.ndims = 2, .dims = {3, 4}, .d0 = 1e-3)},
    {"copy_slices", 2, {2, 2}, {{3, 4}, {3, 2}}, 0, A(.ndims = 2, .dims = {0, 3, 1, 2})},
    /* base (3, 4) contiguous, region [:, 1:3]: sizes, strides, the base's strides; offset 1 */
    {"copy_slices_view", 2, {2, 2}, {{3, 4}, {3, 2}}, 0, A(.ndims = 2, .dims = {3, 2, 4, 1, 4, 1}, .i0 = 1)},
    {"copy_slices_view", 2, {2, 0}, {{3, 4}, {0}}, 0, A(.ndims = 1, .dims = {3, 4, 4, 1}, .i0 = 2)},
    {"as_strided_view", 1, {2}, {{3, 4}}, 0, A(.ndims = 2, .dims = {2, 2, 1, 4, 4, 1}, .i0 = 5)},
    {"zero_", 1, {2}, {{2, 3}}, 0, A()},
    {"fill", 1, {2}, {{2, 3}}, 0, A()}, {"fill_", 1, {2}, {{2, 3}}, 0, A()},
    {"fill_t", 2, {2, 0}, {{2, 3}, {0}}, 0, A()}, {"fill_t_", 2, {2, 0}, {{2, 3}, {0}}, 0, A()},
    {"index_put_fn", 2, {2, 1}, {{4, 3}, {3}}, 0, A(.i0 = 1, .i1 = 1, .flag = false)},
    {"index_put_fn", 2, {2, 2}, {{4, 3}, {2, 3}}, 0, A(.i0 = 1, .i1 = 1, .flag = true)},
    {"index_put_key", 2, {1, 1}, {{4}, {2}}, 0, A(.ndims = 1, .dims = {TSR_SUB_TENSOR, 0, 0, 0, 0, 1})},
    {"native_group_norm", 3, {3, 1, 1}, {{2, 4, 3}, {4}, {4}}, 0, A(.i0 = 2, .d0 = 1e-5)},
    {"native_group_norm", 3, {4, 1, 1}, {{2, 6, 2, 2}, {6}, {6}}, 0, A(.i0 = 3, .d0 = 1e-3)},
    /* bilinear's _trilinear: (B, n), (A, n, m), (B, m) */
    /* runtime/ops/grad_pointwise.c */
    {"lerp", 2, {2, 1}, {{2, 3}, {3}}, 0, A(.d0 = 0.3)}, {"lerp_t", 3, {1, 2, 1}, {{3}, {2, 3}, {3}}, 0, A(.ndims = 0)},
    {"addcmul", 3, {2, 2, 1}, {{2, 3}, {2, 1}, {3}}, 0, A(.d0 = 0.5)}, {"addcdiv", 3, {1, 1, 1}, {{4}, {4}, {4}}, 1, A(.d0 = -1.5)},
    {"hypot", 2, {2, 1}, {{2, 3}, {3}}, 0, A(.ndims = 0)}, {"fmod", 2, {1, 1}, {{5}, {5}}, 1, A(.ndims = 0)},
    {"remainder", 2, {1, 1}, {{5}, {5}}, 1, A(.ndims = 0)}, {"fmod_s", 1, {1}, {{5}}, 0, A(.d0 = 0.7)},
    {"remainder_s", 1, {1}, {{5}}, 0, A(.d0 = -0.7)}, {"clamp_tensor", 3, {1, 1, 1}, {{6}, {6}, {6}}, 0, A(.ndims = 0)},
    {"clamp_max", 1, {1}, {{6}}, 0, A(.has_d1 = true, .d1 = 0.2)}, {"clamp_min_t", 2, {1, 1}, {{6}, {6}}, 0, A(.ndims = 0)},
    {"clamp_max_t", 2, {2, 1}, {{2, 3}, {3}}, 0, A(.ndims = 0)},
    {"acosh", 1, {1}, {{5}}, 9, A(.ndims = 0)}, {"asinh", 1, {2}, {{2, 3}}, 0, A(.ndims = 0)},
    {"atanh", 1, {1}, {{5}}, 2, A(.ndims = 0)}, {"logaddexp", 2, {2, 1}, {{2, 3}, {3}}, 0, A(.ndims = 0)},
    {"logaddexp2", 2, {1, 1}, {{4}, {4}}, 0, A(.ndims = 0)},
    {"i0", 1, {1}, {{5}}, 0, A(.ndims = 0)}, {"special_i1", 1, {1}, {{5}}, 0, A(.ndims = 0)},     {"fmax", 2, {1, 1}, {{5}, {5}}, 0, A(.ndims = 0)}, {"fmin", 2, {2, 1}, {{2, 3}, {3}}, 0, A(.ndims = 0)},
    {"copysign", 2, {1, 1}, {{5}, {5}}, 0, A(.ndims = 0)}, {"copysign_s", 1, {1}, {{5}}, 0, A(.d0 = -1.5)},
    {"erfinv", 1, {1}, {{5}}, 2, A(.ndims = 0)}, {"lgamma", 1, {1}, {{5}}, 1, A(.ndims = 0)},
    {"digamma", 1, {1}, {{5}}, 1, A(.ndims = 0)}, {"polygamma", 1, {1}, {{5}}, 1, A(.i0 = 2)},
    {"polygamma_", 1, {1}, {{5}}, 1, A(.i0 = 1)}, {"erfc", 1, {2}, {{2, 3}}, 0, A(.ndims = 0)},
    {"logit", 1, {1}, {{6}}, 6, A(.ndims = 0)}, {"logit", 1, {1}, {{6}}, 6, A(.has_d0 = true, .d0 = 0.2)},
    {"xlogy", 2, {1, 1}, {{4}, {4}}, 1, A(.ndims = 0)}, {"xlogy_s", 1, {1}, {{4}}, 0, A(.d0 = 1.7)},
    {"xlogy_self_s", 1, {1}, {{4}}, 1, A(.d0 = 2.5)}, {"sinc", 1, {1}, {{5}}, 0, A(.ndims = 0)},
    {"deg2rad", 1, {1}, {{3}}, 0, A(.ndims = 0)}, {"rad2deg", 1, {1}, {{3}}, 0, A(.ndims = 0)},
    {"frac", 1, {1}, {{4}}, 0, A(.ndims = 0)},
    {"logcumsumexp", 1, {2}, {{3, 4}}, 0, A(.i0 = 1)}, {"logcumsumexp", 1, {1}, {{5}}, 0, A(.i0 = 0)},
    {"cummax", 1, {2}, {{3, 4}}, 0, A(.i0 = 1)}, {"cummin", 1, {2}, {{3, 4}}, 0, A(.i0 = 0)},
    {"median", 1, {2}, {{3, 3}}, 0, A(.ndims = -1)}, {"nanmedian", 1, {1}, {{6}}, 0, A(.ndims = -1)},
    {"median_dim", 1, {2}, {{3, 5}}, 0, A(.i0 = 1)}, {"nanmedian_dim", 1, {2}, {{3, 4}}, 0, A(.i0 = 0, .keepdim = true)},
    {"dist", 2, {2, 1}, {{2, 3}, {3}}, 0, A(.d0 = 2)}, {"dist", 2, {1, 1}, {{4}, {4}}, 0, A(.d0 = 3)},
    {"dist", 2, {1, 1}, {{4}, {4}}, 0, A(.d0 = 1.5)}, {"dist", 2, {1, 1}, {{4}, {4}}, 0, A(.d0 = 1)},
    {"renorm", 1, {2}, {{3, 4}}, 0, A(.d0 = 2, .i0 = 0, .d1 = 1.2)}, {"renorm", 1, {2}, {{3, 4}}, 0, A(.d0 = 3, .i0 = 1, .d1 = 1.3)},
    {"var_mean", 1, {2}, {{3, 4}}, 0, A(.ndims = 1, .dims = {1}, .i0 = 1)},
    {"std_mean", 1, {2}, {{3, 4}}, 0, A(.ndims = 1, .dims = {0}, .i0 = 0, .keepdim = true)},
    {"mode", 1, {2}, {{3, 4}}, 0, A(.i0 = 1)}, {"kthvalue", 1, {2}, {{4, 3}}, 0, A(.i0 = 0, .i1 = 2)}, {"nan_to_num", 1, {1}, {{4}}, 0, A(.ndims = 0)},
    /* gradC: the matmul family */
    {"addmv", 3, {1, 2, 1}, {{1}, {3, 4}, {4}}, 0, A(.d0 = 0.5, .d1 = 2)},
    {"addr", 3, {2, 1, 1}, {{3, 4}, {3}, {4}}, 0, A(.d0 = 2, .d1 = -0.5)},
    {"baddbmm", 3, {3, 3, 3}, {{2, 3, 4}, {2, 3, 5}, {2, 5, 4}}, 0, A(.d0 = 0.5, .d1 = 1.5)},
    {"addbmm", 3, {1, 3, 3}, {{4}, {2, 3, 5}, {2, 5, 4}}, 0, A(.d0 = -1, .d1 = 0.5)},
    {"linalg_cross", 2, {2, 2}, {{2, 3}, {2, 3}}, 0, A(.i0 = -1)}, {"linalg_cross", 2, {2, 2}, {{3, 2}, {3, 1}}, 0, A(.i0 = 0)},
    {"linalg_det", 1, {2}, {{3, 3}}, 0, A()}, {"linalg_det", 1, {3}, {{2, 2, 2}}, 0, A()},
    {"linalg_inv", 1, {2}, {{3, 3}}, 0, A()}, {"linalg_inv", 1, {3}, {{2, 2, 2}}, 0, A()},
    {"linalg_slogdet", 1, {2}, {{3, 3}}, 0, A()},
    {"cholesky", 1, {2}, {{3, 3}}, 9, A(.flag = false)}, {"linalg_cholesky", 1, {2}, {{3, 3}}, 9, A(.flag = true)},
    {"linalg_cholesky", 1, {3}, {{2, 3, 3}}, 9, A(.flag = false)},
    {"cdist", 2, {2, 2}, {{3, 2}, {4, 2}}, 0, A(.d0 = 2)}, {"cdist", 2, {3, 3}, {{2, 3, 2}, {1, 4, 2}}, 0, A(.d0 = 1.5)},
    {"cdist", 2, {2, 2}, {{3, 2}, {4, 2}}, 0, A(.d0 = 3)}, {"cdist", 2, {2, 2}, {{3, 2}, {4, 2}}, 0, A(.d0 = 1)},
    {"cdist", 2, {2, 2}, {{3, 2}, {4, 2}}, 0, A(.d0 = 0.5)},
    {"linalg_eigvalsh", 1, {2}, {{3, 3}}, 10, A(.flag = false)}, {"linalg_eigvalsh", 1, {3}, {{2, 3, 3}}, 10, A(.flag = true)},
    {"linalg_svdvals", 1, {2}, {{3, 3}}, 0, A()}, {"linalg_svdvals", 1, {2}, {{2, 4}}, 0, A()},
    {"linalg_svdvals", 1, {3}, {{2, 4, 2}}, 0, A()},
    {"linalg_pinv", 1, {2}, {{3, 3}}, 0, A()}, {"linalg_pinv", 1, {2}, {{2, 4}}, 0, A()}, {"linalg_pinv", 1, {3}, {{2, 4, 3}}, 0, A()},
    {"linalg_matrix_exp", 1, {2}, {{3, 3}}, 2, A()}, {"linalg_matrix_exp", 1, {3}, {{2, 2, 2}}, 2, A()},
    {"linalg_solve", 2, {2, 2}, {{3, 3}, {3, 2}}, 0, A(.flag = true)}, {"linalg_solve", 2, {3, 1}, {{2, 3, 3}, {3}}, 0, A(.flag = true)},
    {"linalg_solve", 2, {2, 2}, {{3, 3}, {2, 3}}, 0, A(.flag = false)},
    {"linalg_solve_triangular", 2, {2, 2}, {{3, 3}, {3, 2}}, 0, A(.flag = true, .i0 = 1)},
    {"linalg_solve_triangular", 2, {2, 2}, {{3, 3}, {2, 3}}, 0, A(.flag = false, .i0 = 0)},
    {"linalg_solve_triangular", 2, {3, 3}, {{2, 3, 3}, {2, 3, 2}}, 0, A(.flag = false, .i0 = 1, .i1 = 1)},
    {"sub_s", 1, {1}, {{4}}, 0, A(.d0 = 0.75)},
    {"index_put_impl", 3, {2, 2, 1}, {{4, 3}, {2, 3}, {2}}, 11, A(.ndims = 0)},
    {"diagonal_backward", 1, {1}, {{3}}, 0, A(.i0 = 0, .i1 = 0, .i2 = 1, .ndims = 2, .dims = {3, 4})},
    {"diagonal_backward", 1, {1}, {{2}}, 0, A(.i0 = 1, .i1 = 1, .i2 = 0, .ndims = 2, .dims = {3, 3})},
    {"unfold_backward", 1, {3}, {{2, 3, 2}}, 0, A(.i0 = 1, .i1 = 2, .i2 = 2, .ndims = 2, .dims = {2, 7})},
    {"embedding_dense_backward", 1, {2}, {{4, 3}}, 0, A(.i0 = 5, .i1 = -1, .ndims = 2, .dims = {5, 3})},
    {"embedding_dense_backward", 1, {2}, {{4, 3}}, 0, A(.i0 = 5, .i1 = 1, .ndims = 2, .dims = {5, 3})},
    {"elu_backward", 2, {1, 1}, {{6}, {6}}, 0, A(.d0 = 0.7, .d1 = 1.0)},
    {"elu_backward", 2, {1, 1}, {{6}, {6}}, 0, A(.d0 = 1.6732632423543772, .d1 = 1.0507009873554805)},
    {"elu_backward", 2, {1, 1}, {{6}, {6}}, 0, A(.d0 = 2.0, .flag = true)},
    {"elu_backward", 2, {1, 1}, {{6}, {6}}, 0, A(.d0 = 0.7, .d1 = 1.2, .i2 = 1)},   /* elu_: of the result */
    {"elu_backward", 2, {1, 1}, {{6}, {6}}, 0, A(.d0 = 1.3, .flag = true, .i2 = 1)},   /* celu_ */
    {"rrelu_with_noise_backward", 2, {1, 1}, {{6}, {6}}, 0, A(.d0 = 0.1, .d1 = 0.3)},
    {"hardswish_backward", 2, {1, 1}, {{6}, {6}}, 0, A(.ndims = 0)},
    {"gelu_backward", 2, {1, 1}, {{6}, {6}}, 0, A(.flag = false)}, {"gelu_backward", 2, {1, 1}, {{6}, {6}}, 0, A(.flag = true)},
    {"hardtanh_backward", 2, {1, 1}, {{6}, {6}}, 0, A(.d0 = -0.5, .d1 = 0.6)},
    {"leaky_relu_backward", 2, {1, 1}, {{6}, {6}}, 0, A(.d0 = 0.2)},
    {"log_sigmoid_backward", 2, {1, 1}, {{6}, {6}}, 0, A(.ndims = 0)},
    {"softplus_backward", 2, {1, 1}, {{6}, {6}}, 0, A(.d0 = 2.0, .d1 = 1.0)},
    {"softmax_backward_data", 2, {2, 2}, {{3, 4}, {3, 4}}, 2, A(.i0 = 1)},
    {"log_softmax_backward_data", 2, {2, 2}, {{3, 4}, {3, 4}}, 0, A(.i0 = 0)},
    {"mse_loss_backward", 3, {0, 2, 2}, {{0}, {2, 3}, {2, 3}}, 0, A(.d0 = 2.0 / 6.0, .i0 = TSR_REDUCTION_MEAN)},
    {"mse_loss_backward", 3, {2, 2, 2}, {{2, 3}, {2, 3}, {2, 3}}, 0, A(.d0 = 2.0, .i0 = TSR_REDUCTION_NONE)},
    {"nll_loss_backward", 2, {0, 2}, {{0}, {3, 4}}, 0, A(.i0 = TSR_REDUCTION_MEAN, .i1 = -100, .d0 = 3)},
    {"nll_loss2d_backward", 2, {0, 4}, {{0}, {1, 4, 1, 3}}, 0, A(.i0 = TSR_REDUCTION_MEAN, .i1 = -100, .d0 = 3)},
    {"nll_loss2d_backward", 2, {3, 4}, {{1, 1, 3}, {1, 4, 1, 3}}, 0, A(.i0 = TSR_REDUCTION_NONE, .i1 = 0, .d0 = 0)},
    {"soft_margin_loss_backward", 2, {1, 1}, {{6}, {6}}, 0, A(.i0 = TSR_REDUCTION_NONE)},
    {"soft_margin_loss_backward", 2, {0, 1}, {{0}, {6}}, 0, A(.i0 = TSR_REDUCTION_MEAN)},
    {"soft_margin_loss_backward", 2, {0, 1}, {{0}, {6}}, 0, A(.i0 = TSR_REDUCTION_SUM)},
    {"nll_loss_backward", 2, {1, 2}, {{3}, {3, 4}}, 0, A(.i0 = TSR_REDUCTION_NONE, .i1 = 0, .d0 = 0)},
    {"select_backward", 1, {2}, {{3, 2}}, 0, A(.i0 = 1, .i1 = 2, .i2 = 0, .dims = {0, 0, 4})},
    {"slice_backward", 1, {2}, {{2, 3}}, 0, A(.i0 = 0, .i1 = 1, .i2 = 1, .dims = {5, 2, 5})},
    {"tanh_backward", 2, {2, 1}, {{2, 3}, {3}}, 2, A(.ndims = 0)}, {"sigmoid_backward", 2, {1, 1}, {{4}, {4}}, 2, A(.ndims = 0)},
    {"threshold_backward", 2, {1, 1}, {{6}, {6}}, 0, A(.d0 = 0.1)},
    {"prelu", 2, {3, 1}, {{2, 3, 2}, {3}}, 0, A(.ndims = 0)},
    {"prelu_backward", 3, {3, 3, 1}, {{2, 3, 2}, {2, 3, 2}, {3}}, 0, A(.ndims = 0)},   /* its grad_input output */
    {"prelu_backward", 3, {2, 2, 1}, {{4, 3}, {4, 3}, {1}}, 0, A(.ndims = 0)},
    {"embedding_bag", 2, {2, 1}, {{5, 3}, {6}}, 0, A(.i0 = 0, .i1 = -1, .i2 = 4)},
    {"trilinear", 3, {2, 3, 2}, {{3, 4}, {2, 4, 5}, {3, 5}}, 0, A(.i0 = 0xA, .i1 = 0x1, .i2 = 0x6, .dims = {0xC, 1}, .ndims = 2)},
};

/* A deterministic value for element i of input k in the case's domain; away
 * from kinks (abs, relu, clamp bounds) and integers (floor, round). */
static double val(int domain, int k, int64_t i)
{
    if (domain == 10) {   /* symmetric 3x3 matrices */
        int64_t r = i % 9 / 3, q = i % 3;
        i = i / 9 * 9 + (r < q ? r : q) * 3 + (r < q ? q : r);
        domain = 0;
    }
    double u = sin(1.7 * (double)(i + 1) + 0.9 * k) * 0.9;   /* in (-0.9, 0.9), distinct */
    if (domain == 1) return 0.6 + fabs(u) * 1.5;
    if (domain == 2) return u * 0.8;
    if (domain == 6 || domain == 12) return 0.5 + u * 0.5;   /* 12: every input in (0, 1) needs grad */
    if (domain == 9) return i % 9 % 4 == 0 ? 3.0 + u : u * 0.5;   /* 3x3 diagonally dominant matrices */
    if (domain == 8) return i % 4 == 1 ? 0.0 : u * 1.3 + 0.05;   /* zeros */
    if (domain == 9) return 1.2 + fabs(u) * 1.5;   /* above 1 (acosh) */
    return u * 1.3 + 0.05;
}

static tsr_tensor *make(const Case *c, int k)
{
    tsr_dtype dt = TSR_FLOAT64;
    bool index = (c->domain == 3 && k == 1) || (c->domain == 4 && k == 0) || (c->domain == 5 && k == 1) ||
                 (c->domain == 11 && k == 2);
    if (index) dt = c->domain >= 4 && c->domain != 11 ? TSR_BOOL : TSR_INT64;
    tsr_tensor *t = tsr_empty(c->nd[k], c->sz[k], dt, TSR_CPU, TSR_MF_CONTIGUOUS);
    if (!t) return NULL;
    int64_t n = tsr_tensor_numel(t);
    for (int64_t i = 0; i < n; i++) {
        tsr_scalar s = dt == TSR_BOOL ? tsr_scalar_bool(i % 3 == 0) : dt == TSR_INT64 ? tsr_scalar_int((i * 7 + 1) % (c->domain == 3 && !strcmp(c->key, "gather") ? 4 : 4))
                                                                  : tsr_scalar_float(val(c->domain, k, i));
        tsr_tensor_set_at(t, i, s);
    }
    if (!index && !(c->domain >= 6 && k == 1)) t->requires_grad = true;
    return t;
}

/* sum(w * f(in)) with w[i] = 1 + i/10 */
static double loss(const tsr_tensor *out)
{
    double s = 0;
    int64_t n = tsr_tensor_numel(out);
    for (int64_t i = 0; i < n; i++) s += (1.0 + (double)i / 10.0) * tsr_tensor_get_double_at(out, i);
    return s;
}

/* What the bindings keep on the node besides its inputs (indices,
 * statistics, an in-place form's old values), as they keep it. */
static void setup_kept(const Case *c, tsr_tensor **in, tsr_tensor *out)
{
    if (!strcmp(c->key, "max_dim") || !strcmp(c->key, "min_dim") || !strcmp(c->key, "sort") || !strcmp(c->key, "topk")) {
        tsr_tensor *v = NULL, *ix = NULL;
        bool keepdim = c->a.keepdim || c->key[0] == 's' || c->key[0] == 't';
        tsr_max_dim(in[0], c->a.i0, keepdim, strcmp(c->key, "min_dim") != 0, NULL, NULL, &v, &ix);
        tsr_ag_keep(out, ix);
        tsr_tensor_release(v);
        tsr_tensor_release(ix);
    }
    if (strstr(c->key, "cumm") || strstr(c->key, "median_dim") || !strcmp(c->key, "mode") || !strcmp(c->key, "kthvalue")) {
        tsr_tensor *ix = NULL, *v = fwd_validx(c->key, &c->a, in[0], &ix);
        tsr_ag_keep(out, ix);
        tsr_tensor_release(v);
        tsr_tensor_release(ix);
    }
    /* what the F bindings keep for their formulas: the index inputs, an
     * in-place form's old values */
    size_t kl = strlen(c->key);
    tsr_tensor *kept = !strcmp(c->key, "nll_loss") || !strcmp(c->key, "nll_loss_backward") ? fixed_index(nll_target, 3)
                     : !strcmp(c->key, "nll_loss2d") || !strcmp(c->key, "nll_loss2d_backward") ? nll2d_target()
                     : !strcmp(c->key, "embedding") || !strcmp(c->key, "embedding_dense_backward") ? fixed_index(emb_index, 4)
                     : !strcmp(c->key, "soft_margin_loss") || !strcmp(c->key, "soft_margin_loss_backward") ? fixed_index(sm_target, 6)
                     : !strcmp(c->key, "multi_margin_loss") ? fixed_index(mm_target, 3)
                     : !strcmp(c->key, "multilabel_margin_loss") ? fixed_index(mlm_target, 4)
                     : !strcmp(c->key, "index_put_key") || !strcmp(c->key, "index_put_fn") ? fixed_index(put_index, 2)
                     : !strcmp(c->key, "index_put_mask") || !strcmp(c->key, "masked_select") ? fixed_mask()
                     : c->key[kl - 1] == '_' ? tsr_clone(in[0], TSR_MF_CONTIGUOUS) : NULL;
    if (kept) tsr_ag_keep(out, kept);
    tsr_tensor_release(kept);
    if ((kept = idx19(c->key))) tsr_ag_keep(out, kept);
    tsr_tensor_release(kept);
    if (!strcmp(c->key, "native_batch_norm_backward")) {   /* the forward's statistics at self */
        tsr_tensor *sm = NULL, *si = NULL, *r = tsr_nn_batch_norm_ex(in[1], NULL, NULL, in[2], NULL, true, 0.1, c->a.d0,
                                                                      &sm, &si);
        tsr_ag_keep(out, sm);
        tsr_ag_keep(out, si);
        tsr_tensor_release(r), tsr_tensor_release(sm), tsr_tensor_release(si);
    }
    if (strstr(c->key, "max_pool") && strstr(c->key, "_backward")) {   /* the indices of the base at self */
        char base[40];
        snprintf(base, sizeof base, "%.*s", (int)(strlen(c->key) - 9), c->key);
        tsr_tensor *ind = NULL, *p = fwd_pool(base, &c->a, in[1], &ind);
        tsr_ag_keep(out, ind);
        tsr_tensor_release(p);
        tsr_tensor_release(ind);
    }
    if (!strcmp(c->key, "native_batch_norm")) {   /* the statistics the binding keeps */
        tsr_tensor *sm = NULL, *si = NULL, *r = tsr_nn_batch_norm_ex(in[0], NULL, NULL, in[1], in[2], true, 0.1, c->a.d0,
                                                                      &sm, &si);
        tsr_ag_keep(out, sm);
        tsr_ag_keep(out, si);
        tsr_tensor_release(r);
        tsr_tensor_release(sm);
        tsr_tensor_release(si);
    }
    if (!strcmp(c->key, "native_group_norm")) {   /* the statistics the binding keeps */
        tsr_tensor *sm = NULL, *si = NULL, *r = tsr_nn_group_norm_ex(in[0], c->a.i0, in[1], in[2], c->a.d0, &sm, &si);
        tsr_ag_keep(out, sm);
        tsr_ag_keep(out, si);
        tsr_tensor_release(r);
        tsr_tensor_release(sm);
        tsr_tensor_release(si);
    }
    if (!strcmp(c->key, "embedding_bag")) {   /* indices, offsets, bag_size, max_indices, as the binding keeps them */
        tsr_tensor *k[4] = {fixed_index(ebag_index, 6), fixed_index(ebag_offsets, 4), NULL, NULL}, *o2b;
        tsr_tensor *r = tsr_nn_embedding_bag(in[0], k[0], k[1], (int)c->a.i0, in[1], false, NULL, &o2b, &k[2], &k[3]);
        for (int j = 0; j < 4; j++) {
            tsr_ag_keep(out, k[j]);
            tsr_tensor_release(k[j]);
        }
        tsr_tensor_release(r);
        tsr_tensor_release(o2b);
    }
    if ((strstr(c->key, "max_pool") || strstr(c->key, "max_unpool")) && !strstr(c->key, "_backward")) {   /* the indices the pooling bindings keep */
        tsr_tensor *ind = NULL, *r = fwd_pool(c->key, &c->a, in[0], &ind);
        tsr_ag_keep(out, ind);
        tsr_tensor_release(r);
        tsr_tensor_release(ind);
    }
}

static int check_case(const Case *c)
{
    tsr_tensor *in[3] = {0};
    int ok = 1;
    for (int k = 0; k < c->nin; k++) in[k] = make(c, k);
    tsr_tensor *out = fwd(c, in);
    if (!out) {
        printf("    %s: forward failed: %s\n", c->key, tsr_error_message());
        tsr_error_clear();
        ok = 0;
        goto done;
    }
    if (tsr_ag_record(c->key, c->nin, in, &c->a, out, false) < 0) {
        printf("    %s: record failed: %s\n", c->key, tsr_error_message());
        tsr_error_clear();
        ok = 0;
        goto done;
    }
    setup_kept(c, in, out);
    tsr_tensor *w = tsr_empty(out->ndim, out->sizes, TSR_FLOAT64, TSR_CPU, TSR_MF_CONTIGUOUS);
    for (int64_t i = 0; i < tsr_tensor_numel(w); i++) tsr_tensor_set_at(w, i, tsr_scalar_float(1.0 + (double)i / 10.0));
    if (tsr_autograd_run(1, &out, &w, false, 0, NULL, false, NULL, false) < 0) {
        printf("    %s: backward failed: %s\n", c->key, tsr_error_message());
        tsr_error_clear();
        ok = 0;
    }
    tsr_tensor_release(w);
    tsr_set_grad_enabled(false);
    for (int k = 0; ok && k < c->nin; k++) {
        if (!in[k]->requires_grad) continue;
        tsr_tensor *g = tsr_tensor_grad(in[k]);
        int64_t n = tsr_tensor_numel(in[k]);
        for (int64_t i = 0; ok && i < n; i++) {
            double x = tsr_tensor_get_double_at(in[k], i), h = 1e-6;
            tsr_tensor_set_at(in[k], i, tsr_scalar_float(x + h));
            tsr_tensor *p = fwd(c, in);
            double lp = loss(p);   /* before the next write: a view's values follow its input */
            tsr_tensor_set_at(in[k], i, tsr_scalar_float(x - h));
            tsr_tensor *m = fwd(c, in);
            double lm = loss(m);
            tsr_tensor_set_at(in[k], i, tsr_scalar_float(x));
            double fd = (lp - lm) / (2 * h), an = g ? tsr_tensor_get_double_at(g, i) : 0.0;
            tsr_tensor_release(p);
            tsr_tensor_release(m);
            if (fabs(fd - an) > 1e-5 * (1 + fabs(fd))) {
                printf("    %s: input %d element %lld: analytic %.9g, finite difference %.9g\n", c->key, k, (long long)i,
                       an, fd);
                ok = 0;
            }
        }
        tsr_tensor_release(g);
    }
    tsr_set_grad_enabled(true);
done:
    tsr_tensor_release(out);
    for (int k = 0; k < c->nin; k++) tsr_tensor_release(in[k]);
    return ok;
}

TEST(autograd_every_formula_matches_finite_differences)
{
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) CHECK(check_case(&cases[i]));
}

/* ---- create_graph: second derivatives by finite differences ---- */

/* The case's first gradients gr[k] of sum(w * f(in)) (w as loss()),
 * recorded (create) or not. 0 or -1. */
static int first_grads(const Case *c, tsr_tensor **in, tsr_tensor **gr, bool create)
{
    tsr_tensor *out = fwd(c, in);
    if (!out || tsr_ag_record(c->key, c->nin, in, &c->a, out, false) < 0) {
        tsr_tensor_release(out);
        return -1;
    }
    setup_kept(c, in, out);
    tsr_tensor *w = tsr_empty(out->ndim, out->sizes, TSR_FLOAT64, TSR_CPU, TSR_MF_CONTIGUOUS);
    for (int64_t i = 0; w && i < tsr_tensor_numel(w); i++) tsr_tensor_set_at(w, i, tsr_scalar_float(1.0 + (double)i / 10.0));
    tsr_tensor *req[3], *res[3] = {0};
    int m = 0, pos[3];
    for (int k = 0; k < c->nin; k++)
        if (in[k]->requires_grad) pos[m] = k, req[m++] = in[k];
    int rc = w ? tsr_autograd_run(1, &out, &w, create, m, req, true, res, create ? TSR_AG_CREATE_GRAPH : 0) : -1;
    for (int k = 0; k < m; k++) gr[pos[k]] = res[k];
    tsr_tensor_release(w);
    tsr_tensor_release(out);
    return rc;
}

/* sum_k v_k . gr_k with v_k[i] = 0.3 + 0.2 i */
static double vdot(int n, tsr_tensor **gr)
{
    double s = 0;
    for (int k = 0; k < n; k++)
        for (int64_t i = 0; gr[k] && i < tsr_tensor_numel(gr[k]); i++)
            s += (0.3 + 0.2 * (double)i) * tsr_tensor_get_double_at(gr[k], i);
    return s;
}

/* Keys whose first gradient records a node 1.13 cannot differentiate: the
 * second backward must raise 1.13's error, kind and message */
static const struct {
    const char *key, *msg;
    tsr_errkind kind;
} refused_dbl[] = {
    {"cdist", "the derivative for '_cdist_backward' is not implemented.", TSR_ERR_NOT_IMPLEMENTED},
    {"embedding_bag", "derivative for _embedding_bag_dense_backward is not implemented", TSR_ERR_RUNTIME},
    {"grid_sampler_2d", "derivative for aten::grid_sampler_2d_backward is not implemented", TSR_ERR_RUNTIME},
    {"pdist", "the derivative for '_pdist_backward' is not implemented.", TSR_ERR_NOT_IMPLEMENTED},
};

/* their nodes, which may run under create_graph only to raise */
static bool refusing_node(const char *key)
{
    static const char *const k[] = {"_embedding_bag_dense_backward", "_embedding_bag_per_sample_weights_backward",
                                    "cdist_backward", "grid_sampler_2d_backward", "grid_sampler_3d_backward",
                                    "pdist_backward"};
    for (size_t i = 0; i < sizeof k / sizeof *k; i++)
        if (!strcmp(k[i], key)) return true;
    return false;
}

static const char *refused_msg(const char *key, tsr_errkind *kind)
{
    for (size_t i = 0; i < sizeof refused_dbl / sizeof *refused_dbl; i++)
        if (!strcmp(refused_dbl[i].key, key)) {
            if (kind) *kind = refused_dbl[i].kind;
            return refused_dbl[i].msg;
        }
    return NULL;
}

static int check_double(const Case *c)
{
    tsr_tensor *in[3] = {0}, *gr[3] = {0}, *h[3] = {0}, *v[3] = {0};
    int ok = 1, n = c->nin;
    for (int k = 0; k < n; k++) in[k] = make(c, k);
    int rc0 = first_grads(c, in, gr, true);
    if (rc0 < 0 && tsr_error_kind() == TSR_ERR_NOT_IMPLEMENTED &&
        strstr(tsr_error_message(), "create_graph=True")) {   /* a refusal by design (prod of zeros) */
        tsr_error_clear();
        goto done;
    }
    if (rc0 < 0) {
        printf("    %s: first gradient with create_graph failed: %s\n", c->key, tsr_error_message());
        tsr_error_clear();
        ok = 0;
        goto done;
    }
    int m = 0;
    tsr_tensor *outs[3];
    for (int k = 0; k < n; k++) {
        if (!gr[k] || !tsr_tensor_requires_grad(gr[k])) continue;   /* linear in that input: no graph */
        v[m] = tsr_empty(gr[k]->ndim, gr[k]->sizes, TSR_FLOAT64, TSR_CPU, TSR_MF_CONTIGUOUS);
        for (int64_t i = 0; i < tsr_tensor_numel(v[m]); i++) tsr_tensor_set_at(v[m], i, tsr_scalar_float(0.3 + 0.2 * (double)i));
        outs[m++] = gr[k];
    }
    tsr_tensor *req[3], *res[3] = {0};
    int nr = 0, pos[3];
    for (int k = 0; k < n; k++)
        if (in[k]->requires_grad) pos[nr] = k, req[nr++] = in[k];
    int rc = m ? tsr_autograd_run(m, outs, v, false, nr, req, true, res, 0) : 0;
    for (int k = 0; k < nr; k++) h[pos[k]] = res[k];
    tsr_errkind want_kind;
    const char *want = refused_msg(c->key, &want_kind);
    if (want) {   /* 1.13's refusal, exactly */
        if (rc == 0 || tsr_error_kind() != want_kind || strcmp(tsr_error_message(), want)) {
            printf("    %s: second backward should raise \"%s\", got %s\n", c->key, want,
                   rc == 0 ? "a result" : tsr_error_message());
            ok = 0;
        }
        tsr_error_clear();
        goto done;
    }
    if (rc < 0 && tsr_error_kind() == TSR_ERR_RUNTIME && !strncmp(tsr_error_message(), "derivative for aten::", 21)) {
        tsr_error_clear();   /* 1.13 records a NotImplemented node there (hardsigmoid_backward): its refusal */
        goto done;
    }
    if (rc < 0) {
        printf("    %s: second backward failed: %s\n", c->key, tsr_error_message());
        tsr_error_clear();
        ok = 0;
        goto done;
    }
    for (int j = 0; ok && j < n; j++) {
        if (!in[j]->requires_grad) continue;
        for (int64_t i = 0; ok && i < tsr_tensor_numel(in[j]); i++) {
            double x = tsr_tensor_get_double_at(in[j], i), e = 1e-5, lp, lm;
            tsr_tensor *gp[3] = {0}, *gm[3] = {0};
            tsr_tensor_set_at(in[j], i, tsr_scalar_float(x + e));
            int r1 = first_grads(c, in, gp, false);
            lp = vdot(n, gp);
            tsr_tensor_set_at(in[j], i, tsr_scalar_float(x - e));
            int r2 = first_grads(c, in, gm, false);
            lm = vdot(n, gm);
            tsr_tensor_set_at(in[j], i, tsr_scalar_float(x));
            for (int k = 0; k < n; k++) tsr_tensor_release(gp[k]), tsr_tensor_release(gm[k]);
            double fd = (lp - lm) / (2 * e), an = h[j] ? tsr_tensor_get_double_at(h[j], i) : 0.0;
            if (r1 < 0 || r2 < 0 || fabs(fd - an) > 1e-4 * (1 + fabs(fd))) {
                printf("    %s: input %d element %lld: second derivative %.9g, finite difference %.9g\n", c->key, j,
                       (long long)i, an, fd);
                ok = 0;
            }
        }
    }
done:
    for (int k = 0; k < 3; k++) {
        tsr_tensor_release(in[k]);
        tsr_tensor_release(gr[k]);
        tsr_tensor_release(h[k]);
        tsr_tensor_release(v[k]);
    }
    return ok;
}

TEST(autograd_double_backward_matches_finite_differences)
{
    int n = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        /* eigvalsh's node recomputes the eigenvectors from its input, not the case's (X + X^T) / 2:
         * autograd_decompositions_second_order_match_finite_differences */
        if (tsr__ag_dbl_ok(cases[i].key) && (cases[i].domain >= 0) && strcmp(cases[i].key, "linalg_eigvalsh")) {
            CHECK(check_double(&cases[i]));
            n++;
        }
    CHECK(n >= 40);
    /* every formula that may run with create_graph has a case */
    for (int i = 0; tsr__ag_dbl_at(i); i++) {
        /* covered by their forward's case; grid_sampler_3d's 5-d inputs: conformance case
         * autograd/dbl_grad_grid_ebag; CopySlices around an in-place op's node: conformance case
         * autograd/dbl_grad_simple_nodes */
        bool found = refusing_node(tsr__ag_dbl_at(i)) || !strcmp(tsr__ag_dbl_at(i), "grid_sampler_3d") ||
                     !strcmp(tsr__ag_dbl_at(i), "copy_slices_fn");
        /* multi-output decompositions: autograd_decompositions_second_order_match_finite_differences */
        found = found || !strcmp(tsr__ag_dbl_at(i), "linalg_eigh") || !strcmp(tsr__ag_dbl_at(i), "linalg_eigvalsh") ||
                !strcmp(tsr__ag_dbl_at(i), "linalg_qr") || !strcmp(tsr__ag_dbl_at(i), "linalg_svd");
        for (size_t j = 0; j < sizeof cases / sizeof *cases && !found; j++)
            found = !strcmp(cases[j].key, tsr__ag_dbl_at(i)) && (cases[j].domain >= 0);
        /* complex inputs or outputs, which the float64 walk cannot take: conformance case
         * autograd/dbl_grad_complex */
        found = found || !strcmp(tsr__ag_dbl_at(i), "conj") || !strcmp(tsr__ag_dbl_at(i), "conj_physical") ||
                !strcmp(tsr__ag_dbl_at(i), "view_as_real") ||
                !strcmp(tsr__ag_dbl_at(i), "view_as_complex");
        /* linalg_eig's complex outputs: conformance case autograd/dbl_grad_linalg_eig */
        found = found || !strcmp(tsr__ag_dbl_at(i), "linalg_eig");
        if (!found) printf("    no second-order case for %s\n", tsr__ag_dbl_at(i));
        CHECK(found);
    }
    for (int i = 1; tsr__ag_dbl_at(i); i++) CHECK(strcmp(tsr__ag_dbl_at(i - 1), tsr__ag_dbl_at(i)) < 0);
}

/* the formula table is binary-searched: a row out of order is silently missed */
TEST(autograd_formula_table_is_sorted)
{
    for (int i = 1; tsr__ag_formula_at(i); i++) {
        const char *a = tsr__ag_formula_at(i - 1)->key, *b = tsr__ag_formula_at(i)->key;
        if (strcmp(a, b) >= 0) printf("    out of order: %s before %s\n", a, b);
        CHECK(strcmp(a, b) < 0);
    }
}

TEST(autograd_every_formula_has_a_case)
{
    for (int i = 0; tsr__ag_formula_at(i); i++) {
        const char *k = tsr__ag_formula_at(i)->key;
        bool found = false;
        /* sparse inputs or outputs: autograd_to_dense_sparse and autograd_sparse_chain below */
        found = !strcmp(k, "to_dense") || !strcmp(k, "sparse_coo_tensor") || !strcmp(k, "coalesce") ||
                !strcmp(k, "values") || !strcmp(k, "mul_sparse_s") || !strcmp(k, "select_sparse") || !strcmp(k, "sparse_sum") ||
                !strcmp(k, "neg_sparse") || !strcmp(k, "t_sparse") || !strcmp(k, "transpose_sparse") ||
                !strcmp(k, "div_sparse_s") || !strcmp(k, "sub_sparse");
        found = found || !strcmp(tsr__ag_formula_at(i)->name, "torch::autograd::NotImplemented");   /* raises */
        /* the fused backward nodes 1.13 cannot differentiate (refused_dbl) */
        found = found || refusing_node(k);
        /* CopySlices around an in-place op's node: built only by an in-place op on a view
         * (conformance cases autograd/grad_inplace_view*) */
        found = found || !strcmp(k, "copy_slices_fn");
        /* complex inputs or outputs, which the float64 walk cannot take: conformance cases
         * autograd/grad_complex_parts, autograd/bw2_conj, autograd/grad_vdot_conj_physical */
        found = found || !strcmp(k, "view_as_real") || !strcmp(k, "view_as_complex") || !strcmp(k, "conj") ||
                !strcmp(k, "conj_physical");
        /* 5-d inputs, more than a case's sizes hold: conformance case nnf/interp_nearest_grad */
        found = found || !strcmp(k, "upsample_nearest3d") || !strcmp(k, "upsample_nearest_exact3d");
        /* likewise: conformance cases nnf/interp_linear_grad, interp_linear, grid_sample_3d */
        found = found || !strcmp(k, "upsample_trilinear3d") || !strcmp(k, "grid_sampler_3d");
        /* 1.13's formula holds for log_softmax'ed input only: autograd_ctc_loss_matches_finite_differences */
        found = found || !strcmp(k, "ctc_loss");
        /* multi-output decompositions: autograd_decompositions_match_finite_differences; linalg_eig's
         * complex outputs: conformance case autograd/bw2_linalg_eig */
        found = found || !strcmp(k, "linalg_qr") || !strcmp(k, "linalg_svd") || !strcmp(k, "linalg_eigh") ||
                !strcmp(k, "linalg_eig");
        for (size_t j = 0; j < sizeof cases / sizeof *cases && !found; j++) found = !strcmp(cases[j].key, k);
        if (!found) printf("    no finite-difference case for %s\n", k);
        CHECK(found);
    }
}

/* ctc_loss(log_softmax(x)) (1.13's CTC gradient is that of normalised log
 * probabilities): padded targets with a repeat, one shorter input */
static tsr_tensor *ctc_fwd(tsr_tensor *x, bool record)
{
    static const int64_t tg[6] = {1, 1, 2, 2, 0, 0}, il[2] = {5, 4}, tl[2] = {3, 1};
    int64_t ts[2] = {2, 3};
    tsr_tensor *t = tsr_empty(2, ts, TSR_INT64, TSR_CPU, TSR_MF_CONTIGUOUS), *la = NULL;
    for (int i = 0; i < 6; i++) tsr_tensor_set_at(t, i, tsr_scalar_int(tg[i]));
    tsr_tensor *y = tsr_softmax(x, 2, TSR_DTYPE_UNDEFINED, true);
    tsr_ag_args sa = {.i0 = 2};
    if (record) tsr_ag_record("log_softmax", 1, &x, &sa, y, false);
    tsr_tensor *r = tsr_nn_ctc_loss(y, t, 2, il, 2, tl, 0, &la);
    if (record && r) {
        tsr_ag_args ca = {.i0 = 0};
        tsr_tensor *ilt = fixed_index(il, 2), *tlt = fixed_index(tl, 2);
        tsr_ag_record("ctc_loss", 1, &y, &ca, r, false);
        tsr_ag_keep(r, t);
        tsr_ag_keep(r, la);
        tsr_ag_keep(r, ilt);
        tsr_ag_keep(r, tlt);
        tsr_tensor_release(ilt);
        tsr_tensor_release(tlt);
    }
    tsr_tensor_release(t);
    tsr_tensor_release(la);
    tsr_tensor_release(y);
    return r;
}

TEST(autograd_ctc_loss_matches_finite_differences)
{
    int64_t xs[3] = {5, 2, 3};
    tsr_tensor *x = tsr_empty(3, xs, TSR_FLOAT64, TSR_CPU, TSR_MF_CONTIGUOUS);
    for (int64_t i = 0; i < 30; i++) tsr_tensor_set_at(x, i, tsr_scalar_float(val(0, 0, i)));
    x->requires_grad = true;
    tsr_tensor *out = ctc_fwd(x, true);
    CHECK(out != NULL);
    if (!out) return;
    tsr_tensor *w = tsr_empty(1, &xs[1], TSR_FLOAT64, TSR_CPU, TSR_MF_CONTIGUOUS);
    for (int64_t i = 0; i < 2; i++) tsr_tensor_set_at(w, i, tsr_scalar_float(1.0 + (double)i / 10.0));
    CHECK(tsr_autograd_run(1, &out, &w, false, 0, NULL, false, NULL, false) == 0);
    tsr_tensor *g = tsr_tensor_grad(x);
    CHECK(g != NULL);
    tsr_set_grad_enabled(false);
    for (int64_t i = 0; g && i < 30; i++) {
        double v = tsr_tensor_get_double_at(x, i), h = 1e-6;
        tsr_tensor_set_at(x, i, tsr_scalar_float(v + h));
        tsr_tensor *p = ctc_fwd(x, false);
        double lp = loss(p);
        tsr_tensor_set_at(x, i, tsr_scalar_float(v - h));
        tsr_tensor *m = ctc_fwd(x, false);
        double lm = loss(m), fd = (lp - lm) / (2 * h), an = tsr_tensor_get_double_at(g, i);
        tsr_tensor_set_at(x, i, tsr_scalar_float(v));
        tsr_tensor_release(p);
        tsr_tensor_release(m);
        if (fabs(fd - an) > 1e-5 * (1 + fabs(fd))) printf("    ctc_loss: element %lld: analytic %.9g, finite difference %.9g\n", (long long)i, an, fd);
        CHECK(fabs(fd - an) <= 1e-5 * (1 + fabs(fd)));
    }
    tsr_set_grad_enabled(true);
    tsr_tensor_release(g);
    tsr_tensor_release(w);
    tsr_tensor_release(out);
    tsr_tensor_release(x);
}

TEST(autograd_errors)
{
    tsr_tensor *x = tsr_ones(1, L(3), TSR_FLOAT32, TSR_CPU);
    x->requires_grad = true;
    tsr_tensor *y = tsr_clone(x, TSR_MF_CONTIGUOUS);
    CHECK(tsr_ag_record("no_such_formula", 1, &x, NULL, y, false) < 0);
    CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_NOT_IMPLEMENTED);
    CHECK_STR(tsr_error_message(), "the derivative for 'no_such_formula' is not implemented.");
    tsr_error_clear();
    CHECK(tsr_ag_record("clone", 1, &x, NULL, y, false) == 0);
    CHECK(tsr_autograd_run(1, &y, NULL, false, 0, NULL, false, NULL, false) < 0);
    CHECK_STR(tsr_error_message(), "grad can be implicitly created only for scalar outputs");
    tsr_error_clear();
    CHECK(tsr_autograd_run(1, &x, NULL, false, 0, NULL, false, NULL, false) < 0);
    tsr_error_clear();
    tsr_tensor *z = tsr_ones(1, L(3), TSR_FLOAT32, TSR_CPU);
    CHECK(tsr_autograd_run(1, &z, NULL, false, 0, NULL, false, NULL, false) < 0);
    CHECK_STR(tsr_error_message(), "element 0 of tensors does not require grad and does not have a grad_fn");
    tsr_error_clear();
    CHECK(tsr_ag_check_inplace(x) < 0);
    CHECK_STR(tsr_error_message(), "a leaf Variable that requires grad is being used in an in-place operation.");
    tsr_error_clear();
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(z);
}

/* ToDenseBackward0: d/dvalues of sum(w * to_dense(s)) is w at s's coalesced
 * indices (duplicates share one entry); the gradient is sparse. */
TEST(autograd_to_dense_sparse)
{
    int64_t isz[2] = {2, 3}, vsz[1] = {3}, sz[2] = {2, 3};
    tsr_tensor *ind = tsr_tensor_empty(2, isz, TSR_INT64, TSR_CPU);
    tsr_tensor *val = tsr_tensor_empty(1, vsz, TSR_FLOAT64, TSR_CPU);
    const int64_t ix[6] = {1, 0, 1, 2, 1, 2};   /* (1, 2), (0, 1), (1, 2) */
    for (int i = 0; i < 6; i++) tsr_tensor_set_at(ind, i, tsr_scalar_int(ix[i]));
    for (int i = 0; i < 3; i++) tsr_tensor_set_at(val, i, tsr_scalar_float(1.0 + i));
    tsr_tensor *s = tsr_sparse_coo_tensor(ind, val, 2, sz);
    CHECK(s != NULL);
    s->requires_grad = true;
    tsr_tensor *d = tsr_sparse_to_dense(s);
    CHECK(d && tsr_ag_record("to_dense", 1, &s, NULL, d, false) == 0);
    tsr_tensor *w = tsr_empty(2, sz, TSR_FLOAT64, TSR_CPU, TSR_MF_CONTIGUOUS);
    for (int64_t i = 0; i < 6; i++) tsr_tensor_set_at(w, i, tsr_scalar_float(1.0 + (double)i / 10.0));
    CHECK(tsr_autograd_run(1, &d, &w, false, 0, NULL, false, NULL, false) == 0);
    tsr_tensor *g = tsr_tensor_grad(s);
    CHECK(g && g->sparse && tsr_sparse_nnz(g) == 2);
    if (g && g->sparse && tsr_sparse_nnz(g) == 2) {
        tsr_tensor *gi = tsr_sparse_indices(g, false), *gv = tsr_sparse_values(g, false);
        /* sorted unique indices (0, 1) and (1, 2): w at linear offsets 1 and 5 */
        CHECK(tsr_tensor_get_double_at(gi, 0) == 0 && tsr_tensor_get_double_at(gi, 2) == 1);
        CHECK(tsr_tensor_get_double_at(gi, 1) == 1 && tsr_tensor_get_double_at(gi, 3) == 2);
        CHECK(fabs(tsr_tensor_get_double_at(gv, 0) - 1.1) < 1e-12 && fabs(tsr_tensor_get_double_at(gv, 1) - 1.5) < 1e-12);
        tsr_tensor_release(gi);
        tsr_tensor_release(gv);
    }
    tsr_tensor_release(g);
    tsr_tensor_release(w);
    tsr_tensor_release(d);
    tsr_tensor_release(s);
    tsr_tensor_release(ind);
    tsr_tensor_release(val);
}

/* values v -> sparse_coo_tensor (duplicate index) -> * 2 -> coalesce ->
 * values -> sum: d/dv of 2 * sum(coalesced values) is 2 for every entry,
 * duplicates included (sparse_constructor_values_backward); a select of
 * the sparse tensor refuses its backward as 1.13 (no SparseCPU kernel). */
TEST(autograd_sparse_chain)
{
    int64_t isz[2] = {1, 3}, vsz[1] = {3}, sz[1] = {4};
    tsr_tensor *ind = tsr_tensor_empty(2, isz, TSR_INT64, TSR_CPU);
    tsr_tensor *val = tsr_tensor_empty(1, vsz, TSR_FLOAT64, TSR_CPU);
    const int64_t ix[3] = {2, 0, 2};
    for (int i = 0; i < 3; i++) {
        tsr_tensor_set_at(ind, i, tsr_scalar_int(ix[i]));
        tsr_tensor_set_at(val, i, tsr_scalar_float(1.0 + i));
    }
    val->requires_grad = true;
    tsr_tensor *s = tsr_sparse_coo_tensor(ind, val, 1, sz);
    CHECK(s && tsr_ag_record("sparse_coo_tensor", 1, &val, NULL, s, false) == 0 && tsr_ag_keep(s, ind) == 0);
    tsr_tensor *m = tsr_sparse_mul_scalar(s, tsr_scalar_float(2.0));
    tsr_ag_args a = {0};
    a.d0 = 2.0;
    a.has_d0 = true;
    CHECK(m && tsr_ag_record("mul_sparse_s", 1, &s, &a, m, false) == 0);
    tsr_tensor *c = tsr_sparse_coalesce(m);
    CHECK(c && c != m && tsr_ag_record("coalesce", 1, &m, NULL, c, false) == 0);
    tsr_tensor *v = tsr_view_alias(c->sparse->values);
    v->requires_grad = false;
    CHECK(tsr_ag_record("values", 1, &c, NULL, v, false) == 0);
    tsr_tensor *t = tsr_sum(v, NULL, false, TSR_DTYPE_UNDEFINED, NULL);
    CHECK(t && tsr_ag_record("sum", 1, &v, NULL, t, false) == 0);
    CHECK(tsr_autograd_run(1, &t, NULL, false, 0, NULL, false, NULL, false) == 0);
    tsr_tensor *g = tsr_tensor_grad(val);
    CHECK(g && !g->sparse && g->ndim == 1 && g->sizes[0] == 3);
    for (int i = 0; g && i < 3; i++) CHECK(tsr_tensor_get_double_at(g, i) == 2.0);
    tsr_tensor_release(g);
    tsr_sub it = {.kind = TSR_SUB_INT, .i = 2};
    tsr_tensor *sel = tsr_ag_subscript(s, 1, &it);
    CHECK(sel && sel->sparse == NULL && sel->ndim == 0);   /* one sparse dim: the dense part */
    if (sel) CHECK(tsr_autograd_run(1, &sel, NULL, false, 0, NULL, false, NULL, false) < 0);
    CHECK_STR(tsr_error_message(), "Function SelectBackward0 returned an invalid gradient at index 0 - expected "
                                   "layout Sparse but got Strided");
    tsr_error_clear();
    tsr_tensor *arr[] = {sel, t, v, c, m, s, ind, val};
    for (size_t i = 0; i < sizeof arr / sizeof *arr; i++) tsr_tensor_release(arr[i]);
}

/* ---- the multi-output decompositions (grad_linalg2.c): every output weighted ---- */

/* key's outputs of A (eigh: of (A + A^T) / 2); how many, -1 on failure */
static int decomp(const char *key, bool full, const tsr_tensor *A, tsr_tensor **o)
{
    if (!strcmp(key, "linalg_qr")) return tsr_linalg_qr(A, full ? "complete" : "reduced", &o[0], &o[1]) < 0 ? -1 : 2;
    if (!strcmp(key, "linalg_svd")) return tsr_linalg_svd(A, full, &o[0], &o[1], &o[2]) < 0 ? -1 : 3;
    tsr_tensor *at = tsr_view_transpose(A, -2, -1), *sm = bin(TSR_BINOP_ADD, A, at);
    tsr_operand h = tsr_operand_scalar(tsr_scalar_float(0.5)), y = tsr_operand_tensor(sm);
    tsr_tensor *sy = tsr_binary(TSR_BINOP_MUL, &y, &h, NULL, NULL);
    int rc = tsr_linalg_eigh(sy, "L", &o[0], &o[1]);
    tsr_tensor_release(at), tsr_tensor_release(sm), tsr_tensor_release(sy);
    return rc < 0 ? -1 : 2;
}

static int check_decomp(const char *key, bool full, int m, int n, unsigned used)
{
    int ok = 1;
    tsr_tensor *A = tsr_empty(2, (int64_t[]){m, n}, TSR_FLOAT64, TSR_CPU, TSR_MF_CONTIGUOUS);
    for (int64_t i = 0; i < m * n; i++) tsr_tensor_set_at(A, i, tsr_scalar_float(sin(1.0 + 1.7 * (double)i) + (i % (n + 1) == 0 ? 2.0 : 0.0)));
    A->requires_grad = true;
    tsr_tensor *o[3] = {0}, *w[3] = {0}, *use[3];
    tsr_ag_args a = {0};
    a.ndims = -1;
    a.flag = full;
    a.i0 = full;
    int no = decomp(key, full, A, o), nu = 0;
    if (no < 0 || tsr_ag_record_multi(key, A, &a, no, o) < 0) {
        printf("    %s: forward failed: %s\n", key, tsr_error_message());
        tsr_error_clear();
        ok = 0;
        goto done;
    }
    for (int k = 0; k < no; k++) {   /* as the binding keeps them: headers on the outputs' storage */
        tsr_tensor *h = tsr_tensor_from_storage(o[k]->storage, o[k]->storage_offset, o[k]->ndim, o[k]->sizes,
                                                o[k]->strides, o[k]->dtype);
        tsr_ag_keep(o[0], h);
        tsr_tensor_release(h);
    }
    for (int k = 0; k < no; k++) {
        if (!(used & (1u << k))) continue;
        w[nu] = tsr_empty(o[k]->ndim, o[k]->sizes, TSR_FLOAT64, TSR_CPU, TSR_MF_CONTIGUOUS);
        for (int64_t i = 0; i < tsr_tensor_numel(w[nu]); i++) tsr_tensor_set_at(w[nu], i, tsr_scalar_float((0.5 + k) * (1.0 + (double)i / 10.0)));
        use[nu++] = o[k];
    }
    if (tsr_autograd_run(nu, use, w, false, 0, NULL, false, NULL, 0) < 0) {
        printf("    %s: backward failed: %s\n", key, tsr_error_message());
        tsr_error_clear();
        ok = 0;
        goto done;
    }
    tsr_tensor *g = tsr_tensor_grad(A);
    tsr_set_grad_enabled(false);
    for (int64_t i = 0; ok && i < m * n; i++) {
        double x = tsr_tensor_get_double_at(A, i), h = 1e-6, l[2];
        for (int s = 0; s < 2; s++) {
            tsr_tensor *p[3] = {0};
            tsr_tensor_set_at(A, i, tsr_scalar_float(s ? x - h : x + h));
            int np = decomp(key, full, A, p);
            l[s] = 0;
            for (int k = 0; k < np; k++)
                if (used & (1u << k)) l[s] += (0.5 + k) * loss(p[k]);
            for (int k = 0; k < np; k++) tsr_tensor_release(p[k]);
        }
        tsr_tensor_set_at(A, i, tsr_scalar_float(x));
        double fd = (l[0] - l[1]) / (2 * h), an = g ? tsr_tensor_get_double_at(g, i) : 0.0;
        if (fabs(fd - an) > 1e-5 * (1 + fabs(fd))) {
            printf("    %s %dx%d used %u: element %lld: analytic %.9g, finite difference %.9g\n", key, m, n, used,
                   (long long)i, an, fd);
            ok = 0;
        }
    }
    tsr_set_grad_enabled(true);
    tsr_tensor_release(g);
done:
    for (int k = 0; k < 3; k++) tsr_tensor_release(o[k]), tsr_tensor_release(w[k]);
    tsr_tensor_release(A);
    return ok;
}

/* <first gradient of the weighted outputs at A, v>, the first gradient taken
 * with create_graph when h is given (and h = its gradient wrt A); -1e300 on failure */
static double decomp_first(const char *key, tsr_tensor *A, unsigned used, const tsr_tensor *v, tsr_tensor **h)
{
    tsr_tensor *o[3] = {0}, *w[3] = {0}, *use[3], *g = NULL;
    tsr_ag_args a = {0};
    a.ndims = -1;
    double r = -1e300;
    bool vals = !strcmp(key, "linalg_eigvalsh");   /* of A itself (lower triangle), one output */
    int no = vals ? (tsr_linalg_eigh(A, "L", &o[0], NULL) < 0 ? -1 : 1) : decomp(key, false, A, o), nu = 0;
    if (no < 0 || (vals ? tsr_ag_record(key, 1, &A, &a, o[0], false) : tsr_ag_record_multi(key, A, &a, no, o)) < 0)
        goto done;
    for (int k = 0; k < no && !vals; k++) {   /* as the binding keeps them: headers on the outputs' storage */
        tsr_tensor *hd = tsr_tensor_from_storage(o[k]->storage, o[k]->storage_offset, o[k]->ndim, o[k]->sizes,
                                                 o[k]->strides, o[k]->dtype);
        tsr_ag_keep(o[0], hd);
        tsr_tensor_release(hd);
    }
    for (int k = 0; k < no; k++) {
        if (!(used & (1u << k))) continue;
        w[nu] = tsr_empty(o[k]->ndim, o[k]->sizes, TSR_FLOAT64, TSR_CPU, TSR_MF_CONTIGUOUS);
        for (int64_t i = 0; i < tsr_tensor_numel(w[nu]); i++) tsr_tensor_set_at(w[nu], i, tsr_scalar_float((0.5 + k) * (1.0 + (double)i / 10.0)));
        use[nu++] = o[k];
    }
    if (tsr_autograd_run(nu, use, w, h != NULL, 1, &A, false, &g, h ? TSR_AG_CREATE_GRAPH : 0) < 0 || !g) goto done;
    r = 0;
    for (int64_t i = 0; i < tsr_tensor_numel(g); i++) r += tsr_tensor_get_double_at(g, i) * tsr_tensor_get_double_at(v, i);
    if (h && (!tsr_tensor_requires_grad(g) || tsr_autograd_run(1, &g, (tsr_tensor *const *)&v, false, 1, &A, false, h, 0) < 0))
        r = -1e300;
done:
    for (int k = 0; k < 3; k++) tsr_tensor_release(o[k]), tsr_tensor_release(w[k]);
    tsr_tensor_release(g);
    return r;
}

/* the second derivative of a decomposition under create_graph (its saved
 * outputs unpacking as the node's outputs) against finite differences of
 * its first gradient; eigvalsh (whose node recomputes the eigenvectors from
 * its input) of a symmetric A perturbed symmetrically, against h_ij + h_ji */
static int check_decomp2(const char *key, int m, unsigned used)
{
    bool sym = !strcmp(key, "linalg_eigvalsh");
    int ok = 1;
    tsr_tensor *A = tsr_empty(2, (int64_t[]){m, m}, TSR_FLOAT64, TSR_CPU, TSR_MF_CONTIGUOUS), *h = NULL;
    tsr_tensor *v = tsr_empty(2, (int64_t[]){m, m}, TSR_FLOAT64, TSR_CPU, TSR_MF_CONTIGUOUS);
    for (int64_t i = 0; i < m * m; i++) {
        int64_t r = i / m, q = i % m, j = sym && q > r ? q * m + r : i;   /* sym: the lower triangle's value */
        tsr_tensor_set_at(A, i, tsr_scalar_float(sin(1.0 + 1.7 * (double)j) + (i % (m + 1) == 0 ? 2.0 : 0.0)));
        tsr_tensor_set_at(v, i, tsr_scalar_float(0.3 + 0.2 * (double)i));
    }
    A->requires_grad = true;
    if (decomp_first(key, A, used, v, &h) < -1e299 || !h) {
        printf("    %s: second backward failed: %s\n", key, tsr_error_message());
        tsr_error_clear();
        ok = 0;
    }
    for (int64_t i = 0; ok && i < m * m; i++) {
        int64_t t = (i % m) * m + i / m;   /* the transposed element */
        if (sym && t > i) continue;
        double x = tsr_tensor_get_double_at(A, i), e = 1e-6;
        tsr_tensor_set_at(A, i, tsr_scalar_float(x + e));
        if (sym) tsr_tensor_set_at(A, t, tsr_scalar_float(x + e));
        double lp = decomp_first(key, A, used, v, NULL);
        tsr_tensor_set_at(A, i, tsr_scalar_float(x - e));
        if (sym) tsr_tensor_set_at(A, t, tsr_scalar_float(x - e));
        double lm = decomp_first(key, A, used, v, NULL);
        tsr_tensor_set_at(A, i, tsr_scalar_float(x));
        if (sym) tsr_tensor_set_at(A, t, tsr_scalar_float(x));
        double fd = (lp - lm) / (2 * e), an = tsr_tensor_get_double_at(h, i);
        if (sym && t != i) an += tsr_tensor_get_double_at(h, t);
        if (fabs(fd - an) > 1e-4 * (1 + fabs(fd))) {
            printf("    %s %dx%d used %u: element %lld: second derivative %.9g, finite difference %.9g\n", key, m, m,
                   used, (long long)i, an, fd);
            ok = 0;
        }
    }
    tsr_tensor_release(A), tsr_tensor_release(v), tsr_tensor_release(h);
    return ok;
}

TEST(autograd_decompositions_second_order_match_finite_differences)
{
    CHECK(check_decomp2("linalg_eigh", 3, 3));
    CHECK(check_decomp2("linalg_eigh", 3, 2));
    CHECK(check_decomp2("linalg_eigh", 4, 1));
    CHECK(check_decomp2("linalg_qr", 3, 3));
    CHECK(check_decomp2("linalg_qr", 3, 1));
    CHECK(check_decomp2("linalg_qr", 4, 2));
    CHECK(check_decomp2("linalg_svd", 3, 7));
    CHECK(check_decomp2("linalg_svd", 3, 2));
    CHECK(check_decomp2("linalg_svd", 4, 4));
    CHECK(check_decomp2("linalg_eigvalsh", 3, 1));
    CHECK(check_decomp2("linalg_eigvalsh", 4, 1));
}

TEST(autograd_decompositions_match_finite_differences)
{
    CHECK(check_decomp("linalg_qr", false, 3, 3, 3));
    CHECK(check_decomp("linalg_qr", false, 4, 2, 1));
    CHECK(check_decomp("linalg_qr", false, 4, 2, 2));
    CHECK(check_decomp("linalg_qr", false, 2, 4, 3));
    CHECK(check_decomp("linalg_qr", true, 2, 4, 3));
    CHECK(check_decomp("linalg_svd", false, 3, 3, 7));
    CHECK(check_decomp("linalg_svd", false, 4, 2, 5));
    CHECK(check_decomp("linalg_svd", false, 2, 4, 1));
    CHECK(check_decomp("linalg_svd", false, 2, 4, 4));
    CHECK(check_decomp("linalg_svd", false, 3, 3, 2));
    CHECK(check_decomp("linalg_eigh", false, 3, 3, 3));
    CHECK(check_decomp("linalg_eigh", false, 4, 4, 2));
}

/* var_mean / std_mean: one node, output 0 the var (std), output 1 the mean,
 * each output weighted when used & (1 << k) */
static void var_mean_outs(bool sd, const tsr_tensor *x, const tsr_dims *d, bool keep, tsr_tensor **o)
{
    o[0] = tsr_var(x, d, 1, keep, sd, NULL, NULL, "var");
    o[1] = tsr_mean(x, d, keep, TSR_DTYPE_UNDEFINED, NULL);
}

static int check_var_mean(bool sd, int dim, bool keep, unsigned used)
{
    int ok = 1;
    tsr_tensor *x = tsr_empty(2, (int64_t[]){3, 4}, TSR_FLOAT64, TSR_CPU, TSR_MF_CONTIGUOUS);
    for (int64_t i = 0; i < 12; i++) tsr_tensor_set_at(x, i, tsr_scalar_float(sin(1.0 + 1.7 * (double)i)));
    x->requires_grad = true;
    tsr_ag_args a = {0};
    a.ndims = dim < 0 ? -1 : 1;
    a.dims[0] = dim;
    a.i0 = 1;
    a.keepdim = keep;
    tsr_dims d = {.n = dim < 0 ? -1 : 1, .d = {dim}};
    tsr_tensor *o[2], *w[2] = {0}, *use[2];
    var_mean_outs(sd, x, &d, keep, o);
    CHECK(o[0] && o[1] && tsr_ag_record_outs(sd ? "std_mean" : "var_mean", 1, &x, &a, 2, o) == 0);
    int nu = 0;
    for (int k = 0; k < 2; k++) {
        if (!(used & (1u << k))) continue;
        w[nu] = tsr_empty(o[k]->ndim, o[k]->sizes, TSR_FLOAT64, TSR_CPU, TSR_MF_CONTIGUOUS);
        for (int64_t i = 0; i < tsr_tensor_numel(w[nu]); i++) tsr_tensor_set_at(w[nu], i, tsr_scalar_float((0.5 + k) * (1.0 + (double)i / 10.0)));
        use[nu++] = o[k];
    }
    CHECK(tsr_autograd_run(nu, use, w, false, 0, NULL, false, NULL, 0) == 0);
    tsr_tensor *g = tsr_tensor_grad(x);
    CHECK(g != NULL);
    tsr_set_grad_enabled(false);
    for (int64_t i = 0; g && ok && i < 12; i++) {
        double v = tsr_tensor_get_double_at(x, i), h = 1e-6, l[2];
        for (int sg = 0; sg < 2; sg++) {
            tsr_tensor *p[2];
            tsr_tensor_set_at(x, i, tsr_scalar_float(sg ? v - h : v + h));
            var_mean_outs(sd, x, &d, keep, p);
            l[sg] = 0;
            for (int k = 0; k < 2; k++) {
                if (used & (1u << k)) l[sg] += (0.5 + k) * loss(p[k]);
                tsr_tensor_release(p[k]);
            }
        }
        tsr_tensor_set_at(x, i, tsr_scalar_float(v));
        double fd = (l[0] - l[1]) / (2 * h), an = tsr_tensor_get_double_at(g, i);
        if (fabs(fd - an) > 1e-5 * (1 + fabs(fd))) {
            printf("    %s dim %d used %u: element %lld: analytic %.9g, finite difference %.9g\n", sd ? "std_mean" : "var_mean",
                   dim, used, (long long)i, an, fd);
            ok = 0;
        }
    }
    tsr_set_grad_enabled(true);
    tsr_tensor_release(g);
    for (int k = 0; k < 2; k++) tsr_tensor_release(o[k]), tsr_tensor_release(w[k]);
    tsr_tensor_release(x);
    return ok;
}

TEST(autograd_var_mean_outputs_match_finite_differences)
{
    for (unsigned used = 1; used <= 3; used++) {
        CHECK(check_var_mean(false, 1, false, used));
        CHECK(check_var_mean(true, 0, true, used));
        CHECK(check_var_mean(false, -1, false, used));
        CHECK(check_var_mean(true, -1, false, used));
    }
}

/* cumprod of an input with zeros (cumprod_backward's masked path) */
TEST(autograd_cumprod_zeros_matches_finite_differences)
{
    static const double v[15] = {0.0, 2.0, -1.5, 0.0, 3.0, 1.5, 0.0, 2.5, 0.5, -2.0, 1.2, 0.8, -0.5, 0.0, 0.0};
    for (int64_t dim = 0; dim < 2; dim++) {
        tsr_tensor *x = tsr_empty(2, (int64_t[]){3, 5}, TSR_FLOAT64, TSR_CPU, TSR_MF_CONTIGUOUS);
        for (int64_t i = 0; i < 15; i++) tsr_tensor_set_at(x, i, tsr_scalar_float(v[i]));
        x->requires_grad = true;
        tsr_ag_args a = {0};
        a.ndims = -1;
        a.i0 = dim;
        tsr_tensor *y = tsr_cumsum(x, dim, TSR_DTYPE_UNDEFINED, true, NULL);
        CHECK(y && tsr_ag_record("cumprod", 1, &x, &a, y, false) == 0);
        tsr_tensor *w = tsr_empty(2, (int64_t[]){3, 5}, TSR_FLOAT64, TSR_CPU, TSR_MF_CONTIGUOUS);
        for (int64_t i = 0; i < 15; i++) tsr_tensor_set_at(w, i, tsr_scalar_float(1.0 + (double)i / 10.0));
        CHECK(tsr_autograd_run(1, &y, &w, false, 0, NULL, false, NULL, 0) == 0);
        tsr_tensor *g = tsr_tensor_grad(x);
        CHECK(g != NULL);
        tsr_set_grad_enabled(false);
        for (int64_t i = 0; g && i < 15; i++) {
            double h = 1e-6, l[2];
            for (int s = 0; s < 2; s++) {
                tsr_tensor_set_at(x, i, tsr_scalar_float(v[i] + (s ? -h : h)));
                tsr_tensor *p = tsr_cumsum(x, dim, TSR_DTYPE_UNDEFINED, true, NULL);
                l[s] = loss(p);
                tsr_tensor_release(p);
            }
            tsr_tensor_set_at(x, i, tsr_scalar_float(v[i]));
            double fd = (l[0] - l[1]) / (2 * h), an = tsr_tensor_get_double_at(g, i);
            if (fabs(fd - an) > 1e-5 * (1 + fabs(fd))) printf("    cumprod dim %lld element %lld: %.9g vs %.9g\n", (long long)dim, (long long)i, an, fd);
            CHECK(fabs(fd - an) <= 1e-5 * (1 + fabs(fd)));
        }
        tsr_set_grad_enabled(true);
        tsr_tensor_release(g), tsr_tensor_release(w), tsr_tensor_release(y), tsr_tensor_release(x);
    }
}
