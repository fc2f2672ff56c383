/* runtime/ops/nn_grid.c — affine_grid_generator and its backward as 1.13's
 * AffineGridGenerator.cpp composes them:
 *   linspace_from_neg_one(n) = n <= 1 ? tensor(0) : linspace(-1, 1, n), times
 *     (n - 1) and divided by n unless align_corners;
 *   base grid (N, [D,] H, W, k + 1): last dim (x from W, y from H, [z from D], 1);
 *   grid = base.view(N, S, k + 1).bmm(theta.transpose(1, 2)).view(N, ..., k);
 *   grad_theta = base.view(N, S, k + 1).transpose(1, 2).bmm(grad.view(N, S, k))
 *     .transpose(1, 2). */
#include "error.h"
#include "ops/binary.h"
#include "ops/blas.h"
#include "ops/copy.h"
#include "ops/factory.h"
#include "ops/nn_grid.h"
#include "view.h"

static tsr_tensor *scalar_op(tsr_binop op, tsr_tensor *t, int64_t v)
{
    tsr_operand a = tsr_operand_tensor(t), b = tsr_operand_scalar(tsr_scalar_int(v));
    tsr_tensor *r = tsr_binary(op, &a, &b, NULL, NULL);
    tsr_tensor_release(t);
    return r;
}

static tsr_tensor *linspace_from_neg_one(tsr_dtype dt, tsr_device dev, int64_t n, bool ac)
{
    if (n <= 1) return tsr_full(0, NULL, tsr_scalar_int(0), dt, dev);
    tsr_tensor *r = tsr_linspace(tsr_scalar_int(-1), tsr_scalar_int(1), n, dt, dev);
    if (r && !ac) {
        r = scalar_op(TSR_BINOP_MUL, r, n - 1);
        if (r) r = scalar_op(TSR_BINOP_DIV, r, n);
    }
    return r;
}

/* copies lin (unsqueezed `unsq` times at the end) into base[..., k] */
static int fill_coord(tsr_tensor *base, int64_t k, tsr_tensor *lin, int unsq)
{
    if (!lin) return -1;
    tsr_tensor *v = lin;
    for (int i = 0; i < unsq && v && lin->ndim; i++) {
        tsr_tensor *u = tsr_view_unsqueeze(v, -1);
        tsr_tensor_release(v);
        v = u;
    }
    tsr_tensor *dst = v ? tsr_view_select(base, -1, k) : NULL;
    int rc = dst ? tsr_copy_(dst, v) : -1;
    tsr_tensor_release(dst);
    tsr_tensor_release(v);
    return rc;
}

/* size: N, C, [D,] H, W (n = 4 or 5) */
static tsr_tensor *base_grid(tsr_dtype dt, tsr_device dev, int n, const int64_t *size, bool ac)
{
    int k = n - 2;
    int64_t bs[5] = {size[0]};
    for (int i = 0; i < k; i++) bs[1 + i] = size[2 + i];
    bs[1 + k] = k + 1;
    tsr_tensor *base = tsr_tensor_empty(k + 2, bs, dt, dev);
    if (!base) return NULL;
    int rc = 0;
    for (int i = 0; i < k && rc == 0; i++)   /* x from the last size, y, z from the earlier ones */
        rc = fill_coord(base, i, linspace_from_neg_one(dt, dev, size[n - 1 - i], ac), i);
    tsr_tensor *last = rc == 0 ? tsr_view_select(base, -1, k) : NULL;
    if (!last || tsr_fill_(last, tsr_scalar_int(1)) < 0) rc = -1;
    tsr_tensor_release(last);
    if (rc < 0) {
        tsr_tensor_release(base);
        return NULL;
    }
    return base;
}

tsr_tensor *tsr_nn_affine_base_flat(tsr_dtype dt, tsr_device dev, int n, const int64_t *size, bool ac)
{
    tsr_tensor *base = base_grid(dt, dev, n, size, ac);
    if (!base) return NULL;
    int64_t s = 1;
    for (int i = 2; i < n; i++) s *= size[i];
    int64_t vs[3] = {size[0], s, n - 1};
    tsr_tensor *v = tsr_view_view(base, 3, vs);
    tsr_tensor_release(base);
    return v;
}

tsr_tensor *tsr_nn_affine_grid(const tsr_tensor *theta, int n, const int64_t *size, bool align_corners)
{
    tsr_tensor *b = tsr_nn_affine_base_flat(theta->dtype, theta->device, n, size, align_corners);
    tsr_tensor *tt = b ? tsr_view_transpose(theta, 1, 2) : NULL;
    tsr_tensor *g = tt ? tsr_bmm(b, tt, NULL) : NULL;
    tsr_tensor_release(b);
    tsr_tensor_release(tt);
    if (!g) return NULL;
    int64_t os[5] = {size[0]};
    for (int i = 2; i < n; i++) os[i - 1] = size[i];
    os[n - 1] = n - 2;
    tsr_tensor *r = tsr_view_view(g, n, os);
    tsr_tensor_release(g);
    return r;
}

tsr_tensor *tsr_nn_affine_grid_backward(const tsr_tensor *grad, int n, const int64_t *size, bool align_corners)
{
    tsr_tensor *b = tsr_nn_affine_base_flat(grad->dtype, grad->device, n, size, align_corners);
    tsr_tensor *bt = b ? tsr_view_transpose(b, 1, 2) : NULL;
    int64_t gs[3] = {size[0], b ? b->sizes[1] : 0, n - 2};
    tsr_tensor *gv = bt ? tsr_view_view(grad, 3, gs) : NULL;
    tsr_tensor *m = gv ? tsr_bmm(bt, gv, NULL) : NULL;
    tsr_tensor_release(b);
    tsr_tensor_release(bt);
    tsr_tensor_release(gv);
    if (!m) return NULL;
    tsr_tensor *r = tsr_view_transpose(m, 1, 2);
    tsr_tensor_release(m);
    return r;
}
