/* runtime/ops/grad_conv3d.c — the backward formulas of the 3-D pooling
 * and convolution ops, as 1.13's derivatives.yaml names them; the kernels
 * live beside their forwards (nn_pool3d.c, nn_conv3d.c). */
#include "grad_conv3d.h"
#include "nn_conv.h"
#include "nn_pool3d.h"
#include "../autograd_formula.h"

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

int tsr__bw_conv_tbc(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *w = SAVED(1), *b = SAVED(2), *r[3] = {NULL, NULL, NULL};
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
