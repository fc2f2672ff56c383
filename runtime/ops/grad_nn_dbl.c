/* runtime/ops/grad_nn_dbl.c — the backward-of-backward formulas of
 * torch.nn.functional's fused backward kernels (create_graph=True), as
 * derivatives.yaml / Convolution.cpp / FunctionsManual.cpp of 1.13 write
 * them, in their order of operations (grad_nn_dbl.h). Each is the formula
 * of a node 1.13 records over a backward kernel (ConvolutionBackwardBackward0,
 * MaxPool2DWithIndicesBackwardBackward0, ...); the ops it computes with
 * record in turn while the engine creates a graph, so third derivatives
 * follow. */
#include "grad_nn_dbl.h"
#include "autograd_formula.h"
#include <stdio.h>
#include <string.h>
#include "error.h"
#include "view.h"
#include "ops/copy.h"
#include "ops/factory.h"
#include "ops/join.h"
#include "ops/nn_conv.h"
#include "ops/nn.h"
#include "ops/nn_norm_grad.h"
#include "ops/nn_pool3d.h"
#include "ops/scatter.h"

/* the gradient of output k of a node (NULL: none arrived) */
static const tsr_tensor *out_grad(const tsr_node *n, const tsr_tensor *g, int k)
{
    if (n->nout > 1) return n->outg ? n->outg[k] : NULL;
    return k == 0 ? g : NULL;
}

static tsr_tensor *ag_keep(F *c, tsr_tensor *t) { return c->fail ? (tsr_tensor_release(t), NULL) : keep(c, t); }

/* at::convolution(x, w, None, ...) as 1.13's double backward calls it
 * (batched input, dim spatial dims): ConvolutionBackward0 while creating */
static tsr_tensor *conv(F *c, const tsr_tensor *x, const tsr_tensor *w, int dim, const int64_t *st, const int64_t *pd,
                        const int64_t *dl, bool transposed, const int64_t *op, int64_t groups)
{
    if (c->fail || !x || !w) return NULL;
    tsr_tensor *r = keep(c, tsr_nn_conv_graph(x, w, NULL, dim, dim, st, dim, pd, dim, dl, groups, NULL,
                                              transposed ? dim : 0, transposed ? op : NULL));
    /* a non-transposed call keeps the output_padding it was given (1.13's
       own backward of it then refuses a nonzero one) */
    tsr_node *fn = r && !transposed && op ? tsr_tensor_grad_fn(r) : NULL;
    if (fn && fn->f && !strcmp(fn->f->key, "convolution"))
        for (int i = 0; i < dim; i++) fn->a.dims[3 * (dim == 3 ? 3 : 2) + i] = op[i];
    tsr_node_release(fn);
    return r;
}

static tsr_tensor *tr01(F *c, const tsr_tensor *a)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_transpose(a, 0, 1));
}

static tsr_tensor *narrow(F *c, const tsr_tensor *a, int64_t d, int64_t start, int64_t len)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_narrow(a, d, start, len));
}

/* t.contiguous(): t itself when it is, else clone (CloneBackward0) */
static const tsr_tensor *contig(F *c, const tsr_tensor *t, tsr_memory_format mf)
{
    if (c->fail || !t || tsr_tensor_is_contiguous_as(t, mf)) return t;
    const tsr_tensor *in[1] = {t};
    return record_on(c, keep(c, tsr_clone(t, mf)), "clone", 1, in, NULL);
}

static tsr_tensor *add(F *c, tsr_tensor *a, tsr_tensor *b)
{
    if (!a) return b;
    if (!b) return a;
    return bin(c, TSR_BINOP_ADD, a, b);
}

int tsr__ag_conv_params(const tsr_node *n, tsr_conv_params *p)
{
    const int64_t *d = n->a.dims;
    p->dim = n->a.ndims;
    int q = p->dim == 3 ? 3 : 2;   /* the lists' spacing in dims (ConvolutionBackward0's layout) */
    for (int i = 0; i < p->dim; i++) {
        p->st[i] = d[i];
        p->pd[i] = d[q + i];
        p->dl[i] = d[2 * q + i];
        p->op[i] = d[3 * q + i];
    }
    p->groups = n->a.i0;
    p->transposed = n->a.flag;
    return 0;
}

/* convolution_backward(grad_output, input, weight, ...): 1.13's
 * _convolution_double_backward(ggI, ggW, ggb, gO, weight, input, ...):
 * ggO = conv(ggI, w) + conv(input, ggW) + ggb; gI = convT(gO, ggW) (conv
 * of a transposed forward); gW = conv(ggI^T, gO^T)^T with stride and
 * dilation swapped, per group, narrowed to the weight's size. */
int tsr__bw_convolution_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *gO = SAVED(0), *x = SAVED(1), *w = SAVED(2);
    const tsr_tensor *ggI = out_grad(n, g, 0), *ggW = out_grad(n, g, 1), *ggb = out_grad(n, g, 2);
    tsr_conv_params p;
    tsr__ag_conv_params(n, &p);
    int dim = p.dim;
    bool tr = p.transposed;
    int64_t groups = p.groups;
    if (!tr && x && x->ndim > 4) groups = w->sizes[1] > 0 ? x->sizes[1] / w->sizes[1] : -1;
    bool nonempty = x && tsr_tensor_numel(x) != 0;
    tsr_tensor *ggO = NULL;
    if (nonempty && ggI) ggO = conv(c, ggI, w, dim, p.st, p.pd, p.dl, tr, p.op, groups);
    if (nonempty && ggW) ggO = add(c, ggO, conv(c, x, ggW, dim, p.st, p.pd, p.dl, tr, p.op, groups));
    if (ggb && !c->fail) {   /* ggb.contiguous().view(1, C, 1, ...).expand(gO.sizes()) */
        int64_t sz[TSR_MAX_DIMS];
        for (int i = 0; i < gO->ndim; i++) sz[i] = 1;
        sz[1] = ggb->sizes[0];
        const tsr_tensor *gc = contig(c, ggb, TSR_MF_CONTIGUOUS);
        tsr_tensor *v = c->fail ? NULL : keep(c, tsr__ag_view(gc, gO->ndim, sz));
        tsr_tensor *e = c->fail ? NULL : keep(c, tsr__ag_expand(v, gO->ndim, gO->sizes));
        ggO = add(c, ggO, e);
    }
    tsr_tensor *gW = NULL;
    if (ggI && nonempty && !c->fail) {   /* gw_conv_params: groups 1, stride and dilation swapped */
        tsr_tensor *gOt = tr01(c, gO), *ggIt = tr01(c, (tsr_tensor *)ggI), *gWt = NULL;
        const int64_t *st = p.dl, *dl = p.st;
        if (groups == 1) {
            gWt = tr ? conv(c, gOt, ggIt, dim, st, p.pd, dl, false, p.op, 1)
                     : conv(c, ggIt, gOt, dim, st, p.pd, dl, false, p.op, 1);
        } else if (groups > 0) {   /* per group (subvariable), then cat on dim 1; owned here, not in c */
            tsr_tensor **parts = tsr_calloc((size_t)groups, sizeof *parts);
            int64_t li = ggIt->sizes[0] / groups, lo = gOt->sizes[0] / groups;
            if (!parts) c->fail = true;
            for (int64_t k = 0; k < groups && !c->fail; k++) {
                tsr_tensor *a = tsr__ag_narrow(ggIt, 0, li * k, li), *b = tsr__ag_narrow(gOt, 0, lo * k, lo);
                if (a && b)
                    parts[k] = tsr_nn_conv_graph(tr ? b : a, tr ? a : b, NULL, dim, dim, st, dim, p.pd, dim, dl, 1,
                                                 NULL, 0, NULL);
                tsr_tensor_release(a);
                tsr_tensor_release(b);
                if (!parts[k]) c->fail = true;
            }
            if (!c->fail) {
                tsr_ag_args ca = {0};
                ca.ndims = -1;
                ca.i0 = 1;
                gWt = record_on(c, keep(c, tsr_cat((int)groups, (const tsr_tensor *const *)parts, 1, NULL)), "cat",
                                (int)groups, (const tsr_tensor *const *)parts, &ca);
            }
            for (int64_t k = 0; parts && k < groups; k++) tsr_tensor_release(parts[k]);
            tsr_free(parts);
        }
        gW = tr01(c, gWt);
        for (int i = 2; gW && i < gW->ndim && !c->fail; i++)
            if (gW->sizes[i] > w->sizes[i]) gW = narrow(c, gW, i, 0, w->sizes[i]);
    }
    tsr_tensor *gI = NULL;
    if (nonempty && ggW && !c->fail) {
        if (tr) {
            gI = conv(c, gO, ggW, dim, p.st, p.pd, p.dl, false, p.op, groups);
            for (int i = 2; gI && i < gI->ndim && !c->fail; i++)
                if (gI->sizes[i] > x->sizes[i]) gI = narrow(c, gI, i, 0, x->sizes[i]);
        } else {   /* the output padding that gives back the input's size */
            int64_t op[TSR_MAX_DIMS];
            for (int i = 0; i < dim; i++) {
                int64_t k = w->sizes[2 + i], expect = (k - 1) * p.dl[i] - 2 * p.pd[i] +
                                                      (p.st[i] * (gO->sizes[2 + i] - 1) + 1);
                op[i] = expect != x->sizes[2 + i] ? x->sizes[2 + i] - expect : p.op[i];
            }
            gI = conv(c, gO, ggW, dim, p.st, p.pd, p.dl, true, op, groups);
        }
    }
    give(c, gin, 0, ggO);
    give(c, gin, 1, gI);
    give(c, gin, 2, gW);
    return finish(c, n, gin);
}

/* max_pool_double_backward(grad, indices, dim): the gradient gathered at
 * the indices, grad.contiguous(mf).view(lead..., -1).gather(-1,
 * indices.view(lead..., -1)).view(indices.sizes()) */
static tsr_tensor *max_pool_dbl(F *c, const tsr_tensor *gg, const tsr_tensor *ind, int pdim)
{
    if (c->fail || !gg || !ind) return NULL;
    int nd = ind->ndim - pdim + 1;
    int64_t sz[TSR_MAX_DIMS], gsz[TSR_MAX_DIMS];
    for (int i = 0; i < nd - 1; i++) sz[i] = gsz[i] = ind->sizes[i];
    sz[nd - 1] = 1;
    for (int i = nd - 1; i < ind->ndim; i++) sz[nd - 1] *= ind->sizes[i];
    gsz[nd - 1] = 1;
    for (int i = nd - 1; i < gg->ndim; i++) gsz[nd - 1] *= gg->sizes[i];
    tsr_tensor *iv = ag_keep(c, tsr_view_view(ind, nd, sz));
    const tsr_tensor *gc = contig(c, gg, tsr_tensor_suggest_memory_format(ind));
    tsr_tensor *gv = c->fail ? NULL : keep(c, tsr__ag_view(gc, nd, gsz));
    if (c->fail) return NULL;
    tsr_ag_args a = {0};
    a.ndims = -1;
    a.i0 = nd - 1;
    const tsr_tensor *in[2] = {gv, iv};
    tsr_tensor *r = record_on(c, keep(c, tsr_gather(gv, nd - 1, iv)), "gather", 2, in, &a);
    return c->fail ? NULL : keep(c, tsr__ag_view(r, ind->ndim, ind->sizes));
}

/* zeros_like(self) for a backward kernel's self input: 1.13's codegen
 * keeps only self's TypeAndSize and makes contiguous zeros of it */
static void self_zeros(F *c, tsr_node *n, tsr_tensor **gin)
{
    if (c->fail || !NEED(1)) return;
    give(c, gin, 1, keep(c, tsr_zeros(n->in_nd[1], n->in_sizes[1], n->in_dtype[1], n->in_device[1])));
}

/* max_pool{2,3}d_with_indices_backward / adaptive_max_pool{2,3}d_backward
 * (grad_output, self; the indices kept): grad_output's gradient
 * max_pool_double_backward(grad, indices, 2 or 3), self's zeros_like */
int tsr__bw_max_pool_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    int pdim = strstr(n->f->key, "3d") ? 3 : 2;
    if (NEED(0)) give(c, gin, 0, max_pool_dbl(c, g, n->nextra ? n->extra[0] : NULL, pdim));
    self_zeros(c, n, gin);
    return finish(c, n, gin);
}

/* avg_pool{2,3}d_backward / _adaptive_avg_pool{2,3}d_backward
 * (grad_output, self; the forward node's args): grad_output's gradient the
 * forward pooling of grad, recorded with those args (avg: kernel, stride,
 * padding of k entries each in dims, count_include_pad flag, divisor i0
 * when has_d0, ceil_mode i1; adaptive: to grad_output's last k sizes),
 * self's zeros_like */
int tsr__bw_avg_pool_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    const char *key = n->f->key;
    bool adaptive = !strncmp(key, "adaptive", 8), three = strstr(key, "3d") != NULL;
    int k = three ? 3 : 2;
    const int64_t *d = n->a.dims, *out = n->in_sizes[0] + n->in_nd[0] - k;
    if (NEED(0) && !c->fail) {
        bool ceil = n->a.i1 != 0;
        tsr_tensor *r = adaptive ? (three ? tsr_nn_adaptive_avg_pool3d(g, 3, out) : tsr_nn_adaptive_avg_pool2d(g, 2, out))
                      : three ? tsr_nn_avg_pool3d(g, 3, d, 3, d + 3, 3, d + 6, ceil, n->a.flag, n->a.has_d0, n->a.i0)
                              : tsr_nn_avg_pool2d(g, 2, d, 2, d + 2, 2, d + 4, ceil, n->a.flag, n->a.has_d0, n->a.i0);
        char base[32];
        snprintf(base, sizeof base, "%.*s", (int)(strlen(key) - 9), key);
        const tsr_tensor *in[1] = {g};
        give(c, gin, 0, record_on(c, keep(c, r), base, 1, in, &n->a));
    }
    self_zeros(c, n, gin);
    return finish(c, n, gin);
}

int tsr__ag_record_backward(F *c, const char *key, int nin, const tsr_tensor *const *in, const tsr_ag_args *a,
                            int nout, tsr_tensor **outs)
{
    if (c->fail) return -1;
    for (int k = 0; k < nout; k++)
        if (outs[k] && outs[k]->autograd) {   /* never a tensor with a graph of its own: a copy carries the node */
            tsr_tensor *cl = tsr_clone(outs[k], TSR_MF_PRESERVE);
            tsr_tensor_release(outs[k]);
            outs[k] = cl;
            if (!cl) c->fail = true;
        }
    if (c->fail) return -1;
    if (tsr__ag_record_outs(key, nin, (tsr_tensor *const *)in, a, nout, outs) < 0) {
        c->fail = true;
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ normalization */

#define B(op, a, b) bin(c, TSR_BINOP_##op, (a), (b))
#define S(op, a, s) bins(c, TSR_BINOP_##op, (a), (double)(s))

static tsr_tensor *sum1(F *c, const tsr_tensor *a, int64_t d, bool keepdim)
{
    if (c->fail || !a) return NULL;
    tsr_dims ds = {.n = 1};
    ds.d[0] = d;
    return keep(c, tsr__ag_sum(a, &ds, keepdim));
}
static tsr_tensor *unsq(F *c, const tsr_tensor *a, int64_t d)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_unsqueeze(a, d));
}
static tsr_tensor *expand_as(F *c, const tsr_tensor *a, const tsr_tensor *t)
{
    if (c->fail || !a || !t) return NULL;
    return keep(c, tsr__ag_expand(a, t->ndim, t->sizes));
}
static tsr_tensor *reshape(F *c, const tsr_tensor *a, int nd, const int64_t *sizes)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_reshape(a, nd, sizes));
}
/* a ** e of a tensor without a graph (the saved statistics) */
static tsr_tensor *powc(F *c, const tsr_tensor *a, double e)
{
    if (c->fail || !a) return NULL;
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_scalar(tsr_scalar_float(e));
    return keep(c, tsr_binary(TSR_BINOP_POW, &x, &y, NULL, NULL));
}
static tsr_tensor *ones0(F *c, const tsr_tensor *like, int nd)
{
    if (c->fail || !like) return NULL;
    int64_t one = 1;
    return keep(c, tsr_full(nd, &one, tsr_scalar_float(1.0), like->dtype, like->device));
}
static tsr_tensor *addt(F *c, tsr_tensor *a, tsr_tensor *b) { return a ? B(ADD, a, b) : b; }

/* batchnorm_double_backward's helpers: the sum over every dim but 1 (dim 0
 * first, then the last ones down to 2), src unsqueezed to broadcast along
 * dim 1, and gamma-like 1-D tensors expanded to the input */
static tsr_tensor *sum_exclude_dim1(F *c, const tsr_tensor *t, bool keepdim)
{
    tsr_tensor *r = sum1(c, t, 0, keepdim);
    for (int64_t d = r ? r->ndim - 1 : 0; r && d > (keepdim ? 1 : 0); d--) r = sum1(c, r, d, keepdim);
    return r;
}
static tsr_tensor *unsqueeze_dim1(F *c, tsr_tensor *src, const tsr_tensor *target)
{
    while (src && src->ndim < target->ndim - 1) src = unsq(c, src, 1);
    if (src && src->ndim == target->ndim - 1) src = unsq(c, src, 0);
    return src;
}
static tsr_tensor *expand_as_dim1(F *c, tsr_tensor *src, const tsr_tensor *target)
{
    while (src && src->ndim < target->ndim - 1) src = unsq(c, src, 1);
    return expand_as(c, src, target);
}

/* native_batch_norm_backward (grad_out, input, weight, save_mean,
 * save_invstd; train flag, eps d0; the forward's mean and invstd kept,
 * extra[0..1]): 1.13's batchnorm_double_backward */
int tsr__bw_batch_norm_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *gO = SAVED(0), *input = SAVED(1), *gamma = n->in_present[2] ? SAVED(2) : NULL;
    const tsr_tensor *ggI = out_grad(n, g, 0), *ggG = out_grad(n, g, 1), *ggB = out_grad(n, g, 2);
    bool training = n->a.flag, affine = gamma != NULL;
    if (!c->fail && n->nextra < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "batch_norm's double backward lost its statistics");
        c->fail = true;
    }
    if (c->fail) return finish(c, n, gin);
    tsr_tensor *gamma_e, *ggG_e = NULL, *ggB_e = NULL;
    if (affine) {
        gamma_e = expand_as_dim1(c, gamma, input);
        if (ggG) ggG_e = expand_as_dim1(c, (tsr_tensor *)ggG, input);
        if (ggB) ggB_e = expand_as_dim1(c, (tsr_tensor *)ggB, input);
    } else {
        gamma_e = ones0(c, input, 0);
    }
    int64_t M = input->sizes[0];
    for (int i = 2; i < input->ndim; i++) M *= input->sizes[i];
    /* evaluation: running_mean and running_var.add(eps).pow(-0.5), which the forward kept as the statistics */
    tsr_tensor *mu = unsqueeze_dim1(c, n->extra[0], input);
    tsr_tensor *input_sub_mu = B(SUB, input, mu);
    tsr_tensor *s12 = n->extra[1];
    if (!training && n->nextra > 2 && !c->fail) {   /* running_var.add(eps).pow(-0.5) in the input's dtype */
        tsr_operand rv = tsr_operand_tensor(n->extra[2]), e = tsr_operand_scalar(tsr_scalar_float(n->a.d0));
        s12 = powc(c, keep(c, tsr_binary(TSR_BINOP_ADD, &rv, &e, NULL, NULL)), -0.5);
    }
    s12 = unsqueeze_dim1(c, s12, input);
    tsr_tensor *s1 = powc(c, s12, 2), *s32 = powc(c, s12, 3);
    /* The ops run in the order 1.13's build evaluates the C++ (a method's
       object before its argument, an operator's right operand before its
       left): the order the graph's nodes are made in decides, three
       derivatives down, the order gradients are summed in. */
    tsr_tensor *in_s32 = B(MUL, input_sub_mu, s32);
    tsr_tensor *t, *u;
    t = B(MUL, gO, input_sub_mu);
    tsr_tensor *gOinmu_sum = sum_exclude_dim1(c, t, true);
    tsr_tensor *gO_sum = sum_exclude_dim1(c, gO, true);
    tsr_tensor *gI = NULL;
    if (ggI && training) {
        tsr_tensor *ggI_sum = sum_exclude_dim1(c, ggI, true);
        t = B(MUL, ggI, input_sub_mu);
        tsr_tensor *ggIinmu_sum = sum_exclude_dim1(c, t, true);
        tsr_tensor *all_sub = S(DIV, B(MUL, ggI_sum, gO_sum), M);
        t = B(MUL, gO, ggI);
        all_sub = B(SUB, all_sub, sum_exclude_dim1(c, t, true));
        t = B(MUL, s1, gOinmu_sum);
        t = S(MUL, B(MUL, t, ggIinmu_sum), 3. / (double)M);
        all_sub = B(ADD, all_sub, t);
        tsr_tensor *gI_0t = S(DIV, B(MUL, in_s32, all_sub), M);
        u = B(SUB, S(DIV, gO_sum, M), gO);
        t = S(DIV, B(MUL, ggIinmu_sum, s32), M);
        tsr_tensor *gI_1t = B(MUL, t, u);
        u = B(SUB, S(DIV, ggI_sum, M), ggI);
        t = S(DIV, B(MUL, gOinmu_sum, s32), M);
        tsr_tensor *gI_2t = B(MUL, t, u);
        t = B(ADD, B(ADD, gI_0t, gI_1t), gI_2t);
        gI = B(MUL, gamma_e, t);
    }
    if (affine && ggG) {
        tsr_tensor *term;
        if (training) {
            tsr_tensor *t0 = B(MUL, gO, s12);
            tsr_tensor *t1 = S(DIV, B(MUL, s12, gO_sum), -M);
            u = sum_exclude_dim1(c, B(MUL, gO, input_sub_mu), true);
            tsr_tensor *t2 = S(DIV, B(MUL, in_s32, u), -M);
            t = B(ADD, B(ADD, t0, t1), t2);
            term = B(MUL, ggG_e, t);
        } else {
            term = B(MUL, B(MUL, ggG_e, s12), gO);
        }
        gI = addt(c, gI, term);
    }
    tsr_tensor *gG = NULL;
    if (affine && ggI) {
        if (training) {   /* ggI * the first backward's grad_input with gamma 1 */
            tsr_tensor *h0 = S(DIV, B(MUL, ones0(c, input, 0), s12), M);
            t = S(MUL, gO, M);
            tsr_tensor *h1 = B(SUB, t, sum_exclude_dim1(c, gO, true));
            u = sum_exclude_dim1(c, B(MUL, gO, input_sub_mu), true);
            t = B(MUL, B(MUL, input_sub_mu, s1), u);
            h1 = B(SUB, h1, t);
            t = B(MUL, h0, h1);
            gG = sum_exclude_dim1(c, B(MUL, ggI, t), false);
        } else {
            gG = sum_exclude_dim1(c, B(MUL, B(MUL, ggI, gO), s12), false);
        }
    }
    tsr_tensor *ggO = NULL;
    if (ggI) {
        if (training) {
            tsr_tensor *h0 = S(DIV, B(MUL, gamma_e, s12), M);
            t = S(MUL, ggI, M);
            tsr_tensor *h1 = B(SUB, t, sum_exclude_dim1(c, ggI, true));
            u = sum_exclude_dim1(c, B(MUL, ggI, input_sub_mu), true);
            t = B(MUL, B(MUL, input_sub_mu, s1), u);
            h1 = B(SUB, h1, t);
            ggO = B(MUL, h0, h1);
        } else {
            ggO = B(MUL, B(MUL, ggI, s12), gamma_e);
        }
    }
    if (ggG) ggO = addt(c, ggO, B(MUL, B(MUL, ggG_e, input_sub_mu), s12));
    if (ggB) ggO = addt(c, ggO, ggB_e);
    give(c, gin, 0, ggO);
    give(c, gin, 1, gI);
    give(c, gin, 2, gG);
    return finish(c, n, gin);
}

/* native_layer_norm_backward (grad_out, input, mean, rstd, weight, bias;
 * the normalized shape in dims, eps d0): 1.13's layer_norm_double_backward
 * over the input as (M, N) rows; mean and rstd recomputed as the forward
 * computed them */
int tsr__bw_layer_norm_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *gO_t = SAVED(0), *input_t = SAVED(1), *gamma = n->in_present[4] ? SAVED(4) : NULL;
    const tsr_tensor *ggI = out_grad(n, g, 0), *ggG = out_grad(n, g, 1), *ggB = out_grad(n, g, 2);
    if (c->fail) return finish(c, n, gin);
    int axis = input_t->ndim - n->a.ndims;
    int64_t M = 1, N = 1;
    for (int i = 0; i < input_t->ndim; i++) *(i < axis ? &M : &N) *= input_t->sizes[i];
    int64_t mn[2] = {M, N}, m1[2] = {M, 1}, n1[2] = {1, N};
    tsr_tensor *mean = NULL, *rstd = NULL;
    if (tsr__nn_on_device(input_t)) {   /* cuda: the statistics composed on the device */
        if (tsr__layer_norm_stats_dev(input_t, M, N, n->a.d0, &mean, &rstd) < 0) c->fail = true;
        mean = keep(c, mean);
        rstd = keep(c, rstd);
    } else {
        tsr_tensor *xc = keep(c, tsr_contiguous(input_t, TSR_MF_CONTIGUOUS));
        mean = c->fail ? NULL : keep(c, tsr_tensor_empty(2, m1, input_t->dtype, TSR_CPU));
        rstd = c->fail ? NULL : keep(c, tsr_tensor_empty(2, m1, input_t->dtype, TSR_CPU));
        if (!c->fail && M * N > 0)
            tsr__layer_norm_stats(input_t->dtype, tsr_tensor_ptr(xc, NULL), M, N, n->a.d0, tsr_tensor_ptr(mean, NULL),
                                  tsr_tensor_ptr(rstd, NULL));
    }
    tsr_tensor *input = reshape(c, input_t, 2, mn), *gO = reshape(c, gO_t, 2, mn);
    bool affine = gamma != NULL;
    tsr_tensor *gamma_e, *ggG_e = NULL, *ggB_e = NULL, *ggI_e = NULL;
    if (affine) {
        gamma_e = reshape(c, gamma, 2, n1);
        if (ggG) ggG_e = reshape(c, ggG, 2, n1);
        if (ggB) ggB_e = reshape(c, ggB, 2, n1);
    } else {
        gamma_e = ones0(c, input_t, 1);
    }
    if (ggI) ggI_e = reshape(c, ggI, 2, mn);
    tsr_tensor *input_sub_mu = B(SUB, input, mean);
    tsr_tensor *s12 = rstd, *s1 = powc(c, s12, 2), *s32 = powc(c, s12, 3);
    tsr_tensor *in_s32 = B(MUL, input_sub_mu, s32);
    tsr_tensor *gI = NULL, *t, *u;   /* in 1.13's evaluation order, as batch_norm's */
    if (ggI) {
        tsr_tensor *gxhat = B(MUL, gO, gamma_e);
        tsr_tensor *gxhat_mu_sum = sum1(c, B(MUL, gxhat, input_sub_mu), 1, true);
        tsr_tensor *gxhat_sum = sum1(c, gxhat, 1, true);
        tsr_tensor *ggI_sum = sum1(c, ggI_e, 1, true);
        tsr_tensor *ggI_mu_sum = sum1(c, B(MUL, ggI_e, input_sub_mu), 1, true);
        tsr_tensor *all_sub = S(DIV, B(MUL, ggI_sum, gxhat_sum), N);
        t = sum1(c, B(MUL, ggI_e, gxhat), 1, true);
        all_sub = B(SUB, all_sub, t);
        t = B(MUL, s1, gxhat_mu_sum);
        t = S(MUL, B(MUL, t, ggI_mu_sum), 3. / (double)N);
        all_sub = B(ADD, all_sub, t);
        tsr_tensor *gI_0t = S(DIV, B(MUL, in_s32, all_sub), N);
        u = B(SUB, S(DIV, gxhat_sum, N), gxhat);
        t = S(DIV, B(MUL, ggI_mu_sum, s32), N);
        tsr_tensor *gI_1t = B(MUL, t, u);
        u = B(SUB, S(DIV, ggI_sum, N), ggI_e);
        t = S(DIV, B(MUL, gxhat_mu_sum, s32), N);
        tsr_tensor *gI_2t = B(MUL, t, u);
        gI = B(ADD, B(ADD, gI_0t, gI_1t), gI_2t);
    }
    if (affine && ggG) {
        tsr_tensor *t0 = B(MUL, B(MUL, gO, ggG_e), s12);
        u = sum1(c, B(MUL, gO, ggG_e), 1, true);
        tsr_tensor *t1 = S(DIV, B(MUL, s12, u), -N);
        t = B(MUL, gO, ggG_e);
        u = sum1(c, B(MUL, t, input_sub_mu), 1, true);
        tsr_tensor *t2 = S(DIV, B(MUL, in_s32, u), -N);
        gI = addt(c, gI, B(ADD, B(ADD, t0, t1), t2));
    }
    if (gI) gI = reshape(c, gI, input_t->ndim, input_t->sizes);
    tsr_tensor *gG = NULL, *ggO = NULL;
    for (int pass = 0; pass < 2; pass++) {   /* the first backward's grad_input of ggI: with gamma 1 (gG), gamma (ggO) */
        if (!ggI || (pass == 0 && !affine)) continue;
        tsr_tensor *h0 = S(DIV, B(MUL, pass ? gamma_e : ones0(c, input_t, 0), s12), N);
        t = S(MUL, ggI_e, N);
        tsr_tensor *h1 = B(SUB, t, sum1(c, ggI_e, 1, true));
        u = sum1(c, B(MUL, ggI_e, input_sub_mu), 1, true);
        t = B(MUL, input_sub_mu, s1);
        h1 = B(SUB, h1, B(MUL, t, u));
        t = B(MUL, h0, h1);
        if (pass) {
            ggO = t;
        } else {
            gG = sum1(c, B(MUL, gO, t), 0, false);
            gG = reshape(c, gG, gamma->ndim, gamma->sizes);
        }
    }
    if (ggG) ggO = addt(c, ggO, B(MUL, B(MUL, ggG_e, input_sub_mu), s12));
    if (ggB) ggO = addt(c, ggO, ggB_e);
    if (ggO) ggO = reshape(c, expand_as(c, ggO, input), input_t->ndim, input_t->sizes);
    give(c, gin, 0, ggO);
    give(c, gin, 1, gI);
    give(c, gin, 4, gG);
    return finish(c, n, gin);
}

/* t.unsqueeze_(d) of a temporary: UnsqueezeBackward1 over it */
static tsr_tensor *unsq_(F *c, const tsr_tensor *a, int64_t d)
{
    if (c->fail || !a) return NULL;
    tsr_ag_args x = {0};
    x.ndims = -1;
    x.i0 = d;
    const tsr_tensor *in[1] = {a};
    return record_on(c, keep(c, tsr_view_unsqueeze(a, d)), "unsqueeze_", 1, in, &x);
}

/* var_std_mean_backward({dvar, dmean}, X, var, mean, dims (2, 3), correction 0,
 * keepdim, a variance) of 4-d X: var_backward's (2 / dof) * dvar * (X -
 * X.mean(dims, true)) plus mean_backward's dmean.expand(X's sizes) / count */
static tsr_tensor *var_mean_bw(F *c, const tsr_tensor *dvar, const tsr_tensor *dmean, const tsr_tensor *X)
{
    if (c->fail || !X) return NULL;
    double cnt = (double)(X->sizes[2] * X->sizes[3]);
    tsr_tensor *r = NULL;
    if (dvar) {
        tsr_dims ds = {.n = 2, .d = {2, 3}};
        tsr_tensor *mu = c->fail ? NULL : keep(c, tsr__ag_mean(X, &ds, true));
        tsr_tensor *xc = B(SUB, X, mu);
        r = B(MUL, S(MUL, dvar, 2.0 / cnt), xc);
    }
    if (dmean) r = addt(c, r, S(DIV, expand_as(c, dmean, X), cnt));
    return r;
}

int tsr__bw_group_norm_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (n->nextra < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "group_norm's backward lost its statistics");
        c->fail = true;
        return finish(c, n, gin);
    }
    tsr_tensor *X = SAVED(0), *gamma = n->in_present[1] ? SAVED(1) : NULL;
    const tsr_tensor *dY = out_grad(n, g, 0), *dmean = out_grad(n, g, 1), *drstd = out_grad(n, g, 2);
    if (c->fail) return finish(c, n, gin);
    int64_t N = X->sizes[0], C = X->sizes[1], G = n->a.i0, D = C / G, HxW = 1;
    for (int i = 2; i < X->ndim; i++) HxW *= X->sizes[i];
    double s = 1.0 / (double)(D * HxW);
    int64_t s4[4] = {N, G, D, HxW}, s1[4] = {N, G, 1, 1}, sg[4] = {1, G, D, 1};
    /* the saved result1 / result2: this node's outputs 1 and 2 while creating */
    tsr_tensor *mean = n->extra[0], *rstd = n->extra[1];
    if (tsr__ag_creating()) {
        mean = keep(c, tsr__ag_output_alias(n, n->extra[0], 1, 3));
        rstd = c->fail ? NULL : keep(c, tsr__ag_output_alias(n, n->extra[1], 2, 3));
    }
    tsr_tensor *X_t = reshape(c, X, 4, s4), *mean_t = reshape(c, mean, 4, s1), *rstd_t = reshape(c, rstd, 4, s1);
    tsr_tensor *dY_t = NULL, *ds = NULL, *db = NULL, *t, *u;
    if (dY) {
        dY_t = reshape(c, dY, 4, s4);
        ds = unsq_(c, sum1(c, B(MUL, dY_t, X_t), 3, false), 3);
        db = unsq_(c, sum1(c, dY_t, 3, false), 3);
    }
    tsr_tensor *dX = NULL, *dgamma = NULL, *dbeta = NULL;
    if (NEED(0)) {
        tsr_tensor *gamma_t = gamma ? reshape(c, gamma, 4, sg) : NULL;
        /* 1.13 computes var = (1 / rstd^2 - eps).clamp_min(0) here, which a variance's
           var_std_mean_backward never reads: its nodes reach nothing */
        tsr_tensor *rstd_cube = B(MUL, B(MUL, rstd_t, rstd_t), rstd_t), *dvar = NULL;
        if (drstd) {   /* -0.5 * rstd_cube * drstd.view(N, G, 1, 1), the right operand first */
            u = c->fail ? NULL : keep(c, tsr__ag_view(drstd, 4, s1));
            dvar = B(MUL, S(MUL, rstd_cube, -0.5), u);
        }
        if (dY) {
            tsr_tensor *a = gamma ? B(MUL, rstd_t, gamma_t) : rstd_t;
            tsr_tensor *b = unsq_(c, sum1(c, gamma ? B(MUL, ds, gamma_t) : ds, 2, false), 2);
            tsr_tensor *cc = unsq_(c, sum1(c, gamma ? B(MUL, db, gamma_t) : db, 2, false), 2);
            b = S(MUL, B(MUL, B(SUB, B(MUL, cc, mean_t), b), rstd_cube), s);   /* (c * mean - b) * rstd_cube * s */
            u = S(MUL, B(MUL, cc, rstd_t), s);                                 /* -b * mean - c * rstd * s */
            t = B(MUL, c->fail ? NULL : keep(c, tsr__ag_unary(TSR_UNOP_NEG, b)), mean_t);
            cc = B(SUB, t, u);
            u = B(MUL, b, X_t);   /* a * dY + b * X + c */
            t = B(MUL, a, dY_t);
            dX = B(ADD, B(ADD, t, u), cc);
            if (dmean && drstd) {
                u = c->fail ? NULL : keep(c, tsr__ag_view(dmean, 4, s1));
                dX = B(ADD, dX, var_mean_bw(c, dvar, u, X_t));   /* dX += */
            }
            dX = reshape(c, dX, X->ndim, X->sizes);
        } else if (dmean && drstd) {
            u = c->fail ? NULL : keep(c, tsr__ag_view(dmean, 4, s1));
            dX = reshape(c, var_mean_bw(c, dvar, u, X_t), X->ndim, X->sizes);
        }
    }
    if (NEED(1) && dY) {   /* ((ds - db * mean) * rstd).sum(0).reshape_as(gamma) */
        t = B(SUB, ds, B(MUL, db, mean_t));
        dgamma = reshape(c, sum1(c, B(MUL, t, rstd_t), 0, false), n->in_nd[1], n->in_sizes[1]);
    }
    if (NEED(2) && dY && !gamma && !c->fail) {   /* db.sum(0).reshape_as(an undefined gamma), as 1.13 */
        tsr_error_set(TSR_ERR_RUNTIME, "shape '[0]' is invalid for input of size %lld", (long long)C);
        c->fail = true;
    }
    if (NEED(2) && dY) dbeta = reshape(c, sum1(c, db, 0, false), n->in_nd[2], n->in_sizes[2]);
    give(c, gin, 0, dX);
    give(c, gin, 1, dgamma);
    give(c, gin, 2, dbeta);
    return finish(c, n, gin);
}
