/* runtime/ops/nn_misc2.c — prelu (see nn_misc2.h). */
#include "nn_misc2.h"
#include <string.h>

#include "binary.h"
#include "compare.h"
#include "copy.h"
#include "reduce.h"
#include "shape.h"
#include "../autograd_formula.h"
#include "../error.h"
#include "../internal.h"

/* w viewed to broadcast against x: [] for a shared w, [C, 1, ...] (x's
 * dims after 1) per channel. NEW or NULL. */
static tsr_tensor *prelu_weight_view(const tsr_tensor *x, const tsr_tensor *w)
{
    int64_t sizes[TSR_MAX_DIMS];
    int nd = 0;
    if (tsr_tensor_numel(w) != 1) {
        sizes[nd++] = tsr_tensor_numel(w);
        for (int i = 2; i < x->ndim; i++) sizes[nd++] = 1;
    }
    return tsr_reshape(w, nd, sizes);
}

static int prelu_check(const tsr_tensor *x, const tsr_tensor *w)
{
    int64_t wn = tsr_tensor_numel(w);
    if (wn != 1) {
        if (x->ndim == 0) return tsr_error_set(TSR_ERR_RUNTIME, "Not allow zero-dim input tensor."), -1;
        int64_t ch = x->ndim > 1 ? x->sizes[1] : 1;
        if (ch != wn)
            return tsr_error_set(TSR_ERR_RUNTIME, "Mismatch of parameter numbers and input channel size. Found parameter "
                                 "numbers = %lld and channel size = %lld.", (long long)wn, (long long)ch), -1;
    }
    if (w->ndim > 1)
        return tsr_error_set(TSR_ERR_RUNTIME, "prelu: Expected `weight` to be a scalar or 1D tensor, but got ndim = %d",
                             w->ndim), -1;
    if (w->dtype != x->dtype && !(x->dtype == TSR_BFLOAT16 && w->dtype == TSR_FLOAT32))
        return tsr_error_set(TSR_ERR_RUNTIME, "Found dtype %s but expected %s", tsr_dtype_scalar_name(w->dtype),
                             tsr_dtype_scalar_name(x->dtype)), -1;
    if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64 && x->dtype != TSR_BFLOAT16)
        return tsr_error_set(TSR_ERR_RUNTIME, "\"prelu_cpu\" not implemented for '%s'", tsr_dtype_scalar_name(x->dtype)), -1;
    return 0;
}

/* a op b, both tensors; NEW or NULL */
static tsr_tensor *bin2(tsr_binop op, const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    return tsr_binary(op, &x, &y, NULL, NULL);
}

/* x > 0 */
static tsr_tensor *positive(const tsr_tensor *x)
{
    tsr_operand a = tsr_operand_tensor(x), z = tsr_operand_scalar(tsr_scalar_int(0));
    return tsr_compare(TSR_CMP_GT, &a, &z, NULL);
}

tsr_tensor *tsr_nn_prelu(const tsr_tensor *x, const tsr_tensor *w)
{
    if (prelu_check(x, w) < 0) return NULL;
    /* a bfloat16 x's float32 w is rounded to bfloat16 first */
    tsr_tensor *xc = tsr_contiguous(x, tsr_tensor_suggest_memory_format(x)), *wd = tsr_to_dtype(w, x->dtype, false);
    tsr_tensor *wv = xc && wd ? prelu_weight_view(x, wd) : NULL;
    tsr_tensor *prod = wv ? bin2(TSR_BINOP_MUL, xc, wv) : NULL, *pos = prod ? positive(xc) : NULL, *r = NULL;
    tsr_tensor_release(wd);
    if (pos && prod) {
        tsr_operand a = tsr_operand_tensor(xc), b = tsr_operand_tensor(prod);
        r = tsr_where(pos, &a, &b, NULL);
    }
    tsr_tensor_release(xc);
    tsr_tensor_release(wv);
    tsr_tensor_release(prod);
    tsr_tensor_release(pos);
    return r;
}

int tsr__bw_prelu(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *w = SAVED(1);
    if (!c->fail && tsr__ag_creating()) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for 'prelu_backward' is not implemented.");
        c->fail = true;
    }
    if (c->fail) return finish(c, n, gin);
    tsr_memory_format mf = tsr_tensor_suggest_memory_format(x);
    tsr_tensor *gc = keep(c, tsr_contiguous(g, mf)), *xc = keep(c, tsr_contiguous(x, mf));
    tsr_tensor *pos = xc ? keep(c, positive(xc)) : NULL;
    if (NEED(0) && pos && gc) {
        tsr_tensor *wd = keep(c, tsr_to_dtype(w, x->dtype, false));
        tsr_tensor *wv = wd ? keep(c, prelu_weight_view(x, wd)) : NULL, *wg = wv ? keep(c, bin2(TSR_BINOP_MUL, wv, gc)) : NULL;
        if (wg) {
            tsr_operand a = tsr_operand_tensor(gc), b = tsr_operand_tensor(wg);
            give(c, gin, 0, keep(c, tsr_where(pos, &a, &b, NULL)));
        }
    }
    if (NEED(1) && pos && gc) {
        tsr_tensor *xg = keep(c, bin2(TSR_BINOP_MUL, xc, gc)), *col = NULL;
        if (xg) {
            tsr_operand a = tsr_operand_scalar(tsr_scalar_int(0)), b = tsr_operand_tensor(xg);
            col = keep(c, tsr_where(pos, &a, &b, NULL));
        }
        tsr_dims d = {.n = -1};
        if (col && tsr_tensor_numel(w) != 1 && x->ndim > 1) {
            d.n = 0;
            for (int i = 0; i < x->ndim; i++)
                if (i != 1) d.d[d.n++] = i;
        }
        tsr_tensor *s = col ? keep(c, tsr_sum(col, &d, false, col->dtype, NULL)) : NULL;
        if (s && s->dtype != w->dtype) s = keep(c, tsr_to_dtype(s, w->dtype, false));
        if (s) give(c, gin, 1, keep(c, tsr_reshape(s, w->ndim, w->sizes)));
    }
    return finish(c, n, gin);
}
