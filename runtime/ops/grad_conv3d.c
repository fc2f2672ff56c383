/* runtime/ops/grad_conv3d.c — the backward formulas of the 3-D pooling
 * and convolution ops, as 1.13's derivatives.yaml names them; the kernels
 * live beside their forwards (nn_pool3d.c, nn_conv3d.c). */
#include "grad_conv3d.h"
#include "nn_conv.h"
#include "nn_pool3d.h"
#include "../autograd_formula.h"
#include "../autograd.h"
#include "../view.h"
#include "blas.h"
#include "factory.h"
#include "copy.h"

int tsr__bw_avg_pool3d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    const int64_t *d = n->a.dims;
    if (!c->fail && NEED(0))
        give(c, gin, 0, keep(c, tsr_nn_avg_pool3d_backward(g, x, d, d + 3, d + 6, n->a.flag, n->a.has_d0, n->a.i0)));
    return finish(c, n, gin);
}

int tsr__bw_adaptive_avg_pool3d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    if (!c->fail && NEED(0)) give(c, gin, 0, keep(c, tsr_nn_adaptive_avg_pool3d_backward(g, x)));
    return finish(c, n, gin);
}

/* dst.addmm_(a, b) in place on dst, a view of a zeros base (beta 1, alpha
 * 1): 1.13's CopySlices on the base around AddmmBackward0 */
static void addmm_rec(F *c, tsr_tensor *dst, const tsr_tensor *a, const tsr_tensor *b)
{
    if (c->fail || !dst || !a || !b) {
        c->fail = true;
        return;
    }
    tsr_tensor *r = tsr_addmm(dst, a, b, tsr_scalar_int(1), tsr_scalar_int(1), NULL, true);
    tsr_ag_args ar = {0};
    ar.ndims = -1;
    ar.d0 = ar.d1 = 1.0;
    tsr_tensor *in[3] = {dst, (tsr_tensor *)a, (tsr_tensor *)b};
    if (!r || tsr_ag_record("addmm", 3, in, &ar, dst, true) < 0) c->fail = true;
    tsr_tensor_release(r);
}
/* a.narrow(0, start, t).view({t * a.size(1), a.size(2)}), recorded when with_graph */
static tsr_tensor *rows_rec(F *c, const tsr_tensor *a, int64_t start, int64_t t, bool with_graph)
{
    if (c->fail || !a) return NULL;
    int64_t sz[2] = {t * a->sizes[1], a->sizes[2]};
    tsr_tensor *nw = keep(c, with_graph ? tsr__ag_narrow(a, 0, start, t) : tsr_view_narrow(a, 0, start, t));
    if (!nw) return NULL;
    return keep(c, with_graph ? tsr__ag_view(nw, 2, sz) : tsr_view_view(nw, 2, sz));
}

/* conv_tbc_backward under create_graph: 1.13's composite function, its ops
 * recorded: dInput / dWeight zeros written tap by tap with addmm_ into views
 * (CopySlices around AddmmBackward0; weight[k].t() as SelectBackward0 /
 * TBackward0, dOutput's rows as SliceBackward0 / ViewBackward0), dBias
 * zeros copy_'d from dOutput.sum(0).sum(0) (CopyBackwards) */
static int conv_tbc_rec(F *c, tsr_node *n, const tsr_tensor *g, tsr_tensor *x, tsr_tensor *w, tsr_tensor *b,
                        tsr_tensor **gin)
{
    int64_t ilen = x->sizes[0], kw = w->sizes[0], pad = n->a.i0, olen = ilen - kw + 1 + pad * 2;
    int64_t real_pad = (olen - ilen + kw - 1) / 2;
    tsr_tensor *gi = keep(c, tsr_zeros_like(x, x->dtype, x->device, TSR_MF_PRESERVE));
    for (int64_t k = 0; k < kw && !c->fail; k++) {
        int64_t is = k - real_pad > 0 ? k - real_pad : 0, os = real_pad - k > 0 ? real_pad - k : 0;
        int64_t t = (ilen + real_pad - k < olen ? ilen + real_pad - k : olen) - os;
        if (t <= 0) continue;
        tsr_tensor *dO = rows_rec(c, g, os, t, true);
        tsr_tensor *dI = rows_rec(c, gi, is, t, false);
        tsr_tensor *wk = c->fail ? NULL : keep(c, tsr__ag_select(w, 0, k));
        tsr_tensor *wt = c->fail ? NULL : keep(c, tsr__ag_t(wk));
        addmm_rec(c, dI, dO, wt);
    }
    tsr_tensor *gw = c->fail ? NULL : keep(c, tsr_zeros_like(w, w->dtype, w->device, TSR_MF_PRESERVE));
    for (int64_t k = 0; k < kw && !c->fail; k++) {
        int64_t is = k - real_pad > 0 ? k - real_pad : 0, os = real_pad - k > 0 ? real_pad - k : 0;
        int64_t t = (ilen + real_pad - k < olen ? ilen + real_pad - k : olen) - os;
        if (t <= 0) continue;
        tsr_tensor *dW = keep(c, tsr_view_select(gw, 0, k));
        tsr_tensor *dO = rows_rec(c, g, os, t, true);
        tsr_tensor *I = rows_rec(c, x, is, t, true);
        I = c->fail ? NULL : keep(c, tsr__ag_t(I));
        addmm_rec(c, dW, I, dO);
    }
    tsr_tensor *gb = c->fail ? NULL : keep(c, tsr_zeros_like(b, b->dtype, b->device, TSR_MF_PRESERVE));
    tsr_dims d0 = {.n = 1, .d = {0}};
    tsr_tensor *s0 = c->fail ? NULL : keep(c, tsr__ag_sum(g, &d0, false));
    tsr_tensor *s1 = c->fail ? NULL : keep(c, tsr__ag_sum(s0, &d0, false));
    if (!c->fail) {
        tsr_ag_args none = {0};
        none.ndims = -1;
        tsr_tensor *cin[2] = {gb, s1};
        if (tsr_copy_(gb, s1) < 0 || tsr_ag_record("copy_backwards", 2, cin, &none, gb, true) < 0) c->fail = true;
    }
    tsr_tensor *r[3] = {gi, gw, gb};
    for (int i = 0; i < 3; i++)
        if (NEED(i)) give(c, gin, i, r[i]);
    return finish(c, n, gin);
}

int tsr__bw_conv_tbc(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *w = SAVED(1), *b = SAVED(2), *r[3] = {NULL, NULL, NULL};
    if (!c->fail && tsr__ag_creating()) return conv_tbc_rec(c, n, g, x, w, b, gin);
    if (!c->fail && tsr_nn_conv_tbc_backward(g, x, w, b, n->a.i0, &r[0], &r[1], &r[2]) < 0) c->fail = true;
    for (int i = 0; i < 3; i++) {
        keep(c, r[i]);
        if (NEED(i)) give(c, gin, i, r[i]);
    }
    return finish(c, n, gin);
}

static int bw_fractional(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin, int nsp)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    if (!c->fail && NEED(0))
        give(c, gin, 0, keep(c, tsr_nn_fractional_max_pool_backward(g, x, n->extra[0], nsp)));
    return finish(c, n, gin);
}

int tsr__bw_fractional_max_pool2d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin) { return bw_fractional(n, g, gin, 2); }
int tsr__bw_fractional_max_pool3d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin) { return bw_fractional(n, g, gin, 3); }
