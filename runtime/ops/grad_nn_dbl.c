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
#include <string.h>
#include "error.h"
#include "view.h"
#include "ops/copy.h"
#include "ops/factory.h"
#include "ops/join.h"
#include "ops/nn_conv.h"
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
        for (int i = 0; i < dim; i++) fn->a.dims[6 + i] = op[i];
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
    for (int i = 0; i < p->dim; i++) {
        p->st[i] = d[i];
        p->pd[i] = d[2 + i];
        p->dl[i] = d[4 + i];
        p->op[i] = d[6 + i];
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
    give(c, gin, 1, keep(c, tsr_zeros(n->in_nd[1], n->in_sizes[1], n->in_dtype[1], TSR_CPU)));
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

/* avg_pool2d_backward (grad_output, self; kernel, stride, padding in
 * dims[0..5], count_include_pad flag, divisor i0 when has_d0, ceil_mode
 * i1): grad_output's gradient avg_pool2d(grad, ...), self's zeros_like */
int tsr__bw_avg_pool2d_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    const int64_t *d = n->a.dims;
    if (NEED(0) && !c->fail) {
        tsr_tensor *r = keep(c, tsr_nn_avg_pool2d(g, 2, d, 2, d + 2, 2, d + 4, n->a.i1 != 0, n->a.flag, n->a.has_d0,
                                                  n->a.i0));
        const tsr_tensor *in[1] = {g};
        give(c, gin, 0, record_on(c, r, "avg_pool2d", 1, in, &n->a));
    }
    self_zeros(c, n, gin);
    return finish(c, n, gin);
}

/* _adaptive_avg_pool2d_backward (grad_output, self): grad_output's
 * gradient _adaptive_avg_pool2d(grad, grad_output's last two sizes) */
int tsr__bw_adaptive_avg_pool2d_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0) && !c->fail) {
        int nd = n->in_nd[0];
        tsr_tensor *r = keep(c, tsr_nn_adaptive_avg_pool2d(g, 2, n->in_sizes[0] + nd - 2));
        const tsr_tensor *in[1] = {g};
        tsr_ag_args a = {0};
        a.ndims = 2;
        a.dims[0] = -1;
        a.dims[1] = -2;
        a.keepdim = true;
        give(c, gin, 0, record_on(c, r, "adaptive_avg_pool2d", 1, in, &a));
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
