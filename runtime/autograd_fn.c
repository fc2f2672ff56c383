/* runtime/autograd_fn.c — the backward formulas, one row per derivatives.yaml
 * entry of 1.13 (tools/autograd/derivatives.yaml, FunctionsManual.cpp), in
 * the same order of operations so that values round as PyTorch's do. The
 * engine sums each result to its input's shape and casts it to its dtype
 * (validate_outputs), so formulas return the broadcast gradient. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "autograd.h"
#include "autograd_formula.h"
#include "autograd_node.h"
#include "error.h"
#include "ops/advindex.h"
#include "ops/binary.h"
#include "ops/blas.h"
#include "ops/compare.h"
#include "ops/copy.h"
#include "ops/factory.h"
#include "ops/grad_nn_dbl.h"
#include "ops/grad_conv3d.h"
#include "ops/grad_pointwise.h"
#include "ops/grad_linalg2.h"
#include "ops/grad_index2.h"
#include "ops/index.h"
#include "ops/indexdim.h"
#include "ops/join.h"
#include "ops/linalg.h"
#include "ops/sleef.h"
#include "ops/viewcopy.h"
#include "ops/distance.h"
#include "ops/nn.h"
#include "ops/nn_bilinear.h"
#include "ops/nn_conv.h"
#include "ops/nn_dnnl.h"
#include "ops/nn_loss.h"
#include "ops/nn_more.h"
#include "ops/nn_grid.h"
#include "ops/nn_misc2.h"
#include "ops/nn_interp.h"
#include "ops/nn_norm_grad.h"
#include "ops/nn_pool_grad.h"
#include "ops/nn_pool3d.h"
#include "ops/rearrange.h"
#include "ops/reduce.h"
#include "ops/scan.h"
#include "ops/scatter.h"
#include "ops/search.h"
#include "ops/shape.h"
#include "ops/stats.h"
#include "ops/sparse.h"
#include "ops/unary.h"
#include "view.h"

static tsr_tensor *sbin(F *c, tsr_binop op, double s, const tsr_tensor *a)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_binary_s(op, a, s, true));
}
static tsr_tensor *un(F *c, tsr_unop op, const tsr_tensor *a)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_unary(op, a));
}
static tsr_tensor *cmp(F *c, tsr_cmpop op, const tsr_tensor *a, const tsr_tensor *b)
{
    if (c->fail || !a || !b) return NULL;
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    return keep(c, tsr_compare(op, &x, &y, NULL));
}
static tsr_tensor *cmps(F *c, tsr_cmpop op, const tsr_tensor *a, double s)
{
    if (c->fail || !a) return NULL;
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_scalar(tsr_scalar_float(s));
    return keep(c, tsr_compare(op, &x, &y, NULL));
}
/* where(cond, a, 0) / where(cond, 0, b) (WhereBackward0 with create_graph) */
static tsr_tensor *where0(F *c, const tsr_tensor *cond, const tsr_tensor *a, bool zero_first)
{
    if (c->fail || !cond || !a) return NULL;
    return keep(c, tsr__ag_where0(cond, a, zero_first));
}
/* a.conj() as 1.13's formulas write it (ConjBackward0 with
 * create_graph), its values materialized; a itself when real */
static tsr_tensor *cj(F *c, const tsr_tensor *a)
{
    if (c->fail || !a) return NULL;
    if (!tsr_dtype_is_complex(a->dtype)) return (tsr_tensor *)a;
    return keep(c, tsr__ag_conj_values(a));
}
/* Zeros on the device of `like` (the gradient, mostly: a cuda gradient's
 * zeros are made there). */
static tsr_tensor *zeros(F *c, const tsr_tensor *like, int nd, const int64_t *sizes, tsr_dtype dt)
{
    if (c->fail || !like) return NULL;
    return keep(c, tsr_zeros(nd, sizes, dt, like->device));
}
/* Zeros shaped as input i, on its device (a cuda input's gradient is
 * computed there). */
static tsr_tensor *zeros_in(F *c, tsr_node *n, int i, const tsr_tensor *g)
{
    if (c->fail) return NULL;
    return keep(c, tsr_zeros(n->in_nd[i], n->in_sizes[i], g ? g->dtype : n->in_dtype[i], n->in_device[i]));
}
static tsr_tensor *reshape(F *c, const tsr_tensor *a, int nd, const int64_t *sizes)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_reshape(a, nd, sizes));
}
static tsr_tensor *unsq(F *c, const tsr_tensor *a, int64_t d)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_unsqueeze(a, d));
}
static tsr_tensor *expand(F *c, const tsr_tensor *a, int nd, const int64_t *sizes)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_expand(a, nd, sizes));
}
static tsr_tensor *transpose(F *c, const tsr_tensor *a, int64_t d0, int64_t d1)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_transpose(a, d0, d1));
}
static tsr_tensor *sum_dims(F *c, const tsr_tensor *a, const tsr_dims *d, bool keepdim)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_sum(a, d, keepdim));
}
static tsr_tensor *sum_dim1(F *c, const tsr_tensor *a, int64_t dim, bool keepdim)
{
    tsr_dims d = {.n = 1, .d = {dim}};
    return sum_dims(c, a, &d, keepdim);
}
static tsr_tensor *masked_fill0(F *c, const tsr_tensor *a, const tsr_tensor *mask)
{
    if (c->fail || !a || !mask) return NULL;
    return keep(c, tsr__ag_masked_fill0(a, mask));
}

/* The dims of a reduction recorded in a (ndims < 0: all), wrapped and
 * sorted, for restoring them in the gradient. Returns how many. */
static int red_dims(const tsr_node *n, int nd, int64_t *out)
{
    int k = 0;
    if (n->a.ndims <= 0) {
        for (int d = 0; d < nd; d++) out[k++] = d;
        return k;
    }
    bool seen[TSR_MAX_DIMS] = {0};
    for (int i = 0; i < n->a.ndims; i++) {
        int64_t d = n->a.dims[i] < 0 ? n->a.dims[i] + nd : n->a.dims[i];
        if (nd == 0) d = 0;
        if (d >= 0 && d < TSR_MAX_DIMS) seen[d] = true;
    }
    for (int d = 0; d < (nd ? nd : 1); d++)
        if (seen[d]) out[k++] = d;
    return k;
}

/* unsqueeze_multiple: g with the reduced dims put back (keepdim False). */
static tsr_tensor *restore(F *c, tsr_node *n, const tsr_tensor *g, int nd)
{
    /* a reduction of everything (no dims given) broadcasts back as it is */
    if (n->a.keepdim || nd == 0 || n->a.ndims <= 0) return (tsr_tensor *)g;
    int64_t dims[TSR_MAX_DIMS];
    int k = red_dims(n, nd, dims);
    const tsr_tensor *r = g;
    for (int i = 0; i < k; i++) r = unsq(c, r, dims[i]);
    return (tsr_tensor *)r;
}

/* ------------------------------------------------------------ pointwise */

static int bw_add(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0)) give(c, gin, 0, (tsr_tensor *)g);
    if (NEED(1)) give(c, gin, 1, n->a.has_d0 && n->a.d0 != 1.0 ? bins(c, TSR_BINOP_MUL, g, n->a.d0) : (tsr_tensor *)g);
    return finish(c, n, gin);
}

static int bw_sub(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0)) give(c, gin, 0, (tsr_tensor *)g);
    if (NEED(1)) give(c, gin, 1, n->a.has_d0 && n->a.d0 != 1.0 ? bins(c, TSR_BINOP_MUL, un(c, TSR_UNOP_NEG, g), n->a.d0)
                                                               : un(c, TSR_UNOP_NEG, g));
    return finish(c, n, gin);
}

/* rsub(self, other, alpha) = other - alpha * self */
static int bw_rsub(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0)) give(c, gin, 0, n->a.has_d0 && n->a.d0 != 1.0 ? bins(c, TSR_BINOP_MUL, un(c, TSR_UNOP_NEG, g), n->a.d0)
                                                               : un(c, TSR_UNOP_NEG, g));
    if (NEED(1)) give(c, gin, 1, (tsr_tensor *)g);
    return finish(c, n, gin);
}

/* handle_r_to_c(self_st, r): the real part of a complex gradient r of a
 * real input i, at::real (SelectBackward0 over ViewAsRealBackward0) with
 * create_graph; r itself otherwise (the engine's cast takes the same part) */
static tsr_tensor *r_to_c(F *c, tsr_node *n, int i, tsr_tensor *r)
{
    if (c->fail || !r || !tsr__ag_creating() || !tsr_dtype_is_complex(r->dtype) ||
        tsr_dtype_is_complex(n->in_dtype[i]))
        return r;
    tsr_tensor *re = keep(c, tsr_view_real(r));
    if (re && tsr_ag_record_part(r, re, false) < 0) c->fail = true;
    return c->fail ? NULL : re;
}

static int bw_mul(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(1)) give(c, gin, 1, r_to_c(c, n, 1, bin(c, TSR_BINOP_MUL, g, cj(c, SAVED(0)))));
    if (NEED(0)) give(c, gin, 0, r_to_c(c, n, 0, bin(c, TSR_BINOP_MUL, g, cj(c, SAVED(1)))));
    return finish(c, n, gin);
}

static int bw_div(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *other = SAVED(1);
    if (NEED(1)) {   /* -grad * ((self / other) / other).conj() */
        tsr_tensor *q = bin(c, TSR_BINOP_DIV, bin(c, TSR_BINOP_DIV, SAVED(0), other), other);
        give(c, gin, 1, r_to_c(c, n, 1, bin(c, TSR_BINOP_MUL, un(c, TSR_UNOP_NEG, g), cj(c, q))));
    }
    if (NEED(0)) give(c, gin, 0, r_to_c(c, n, 0, bin(c, TSR_BINOP_DIV, g, cj(c, other))));
    return finish(c, n, gin);
}

static int bw_neg(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, un(c, TSR_UNOP_NEG, g));
    return finish(c, n, gin);
}

static int bw_zero(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    for (int i = 0; i < n->nnext; i++)
        if (NEED(i)) give(c, gin, i, zeros(c, g, g->ndim, g->sizes, g->dtype));
    return finish(c, n, gin);
}

/* fill.Tensor / fill_.Tensor(self, value): self zeros_like(grad), value grad.sum() (FillBackward1 / 3) */
static int bw_fill_t(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0)) give(c, gin, 0, zeros(c, g, g->ndim, g->sizes, g->dtype));
    if (NEED(1)) give(c, gin, 1, sum_dims(c, g, &(tsr_dims){.n = -1}, false));
    return finish(c, n, gin);
}

static int bw_pass(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, (tsr_tensor *)g);
    return finish(c, n, gin);
}

/* _to_copy_backward: the gradient back on the input's device (its dtype is
 * validate_outputs' cast). */
static int bw_to_copy(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    tsr_device d = n->in_device[0];
    if (tsr_device_equal(g->device, d) || g->sparse || tsr_device_is_meta(g->device) || tsr_device_is_meta(d))
        return bw_pass(n, g, gin);
    F c0 = {0}, *c = &c0;
    tsr_tensor *m = tsr_to_device(g, d, g->dtype, false);
    if (!m) return -1;
    give(c, gin, 0, m);
    tsr_tensor_release(m);
    return finish(c, n, gin);
}

/* pow(self, exponent scalar d0): grad * (exponent * self.pow(exponent - 1)) */
/* x ** e for a complex number e (d0 + d1 i): grad * (e * x.pow(e - 1)).conj()
 * (PowBackward0, MulBackward1 and ConjBackward0 with create_graph) */
static tsr_tensor *pow_complex_grad(F *c, const tsr_tensor *g, const tsr_tensor *x, double re, double im)
{
    if (c->fail || !g || !x) return NULL;
    if (re == 0.0 && im == 0.0) return zeros(c, g, x->ndim, x->sizes, g->dtype);
    tsr_operand xo = tsr_operand_tensor(x), em1 = tsr_operand_scalar(tsr_scalar_complex(re - 1.0, im));
    tsr_tensor *p = keep(c, tsr_binary(TSR_BINOP_POW, &xo, &em1, NULL, NULL));
    tsr_ag_args pa = {0};
    pa.ndims = -1;
    pa.d0 = re - 1.0;
    pa.d1 = im;
    pa.has_d1 = true;
    const tsr_tensor *pin[1] = {x};
    p = record_on(c, p, "pow", 1, pin, &pa);   /* PowBackward0 of the complex exponent - 1 */
    tsr_tensor *q = p && !c->fail ? keep(c, tsr__ag_mul_complex(p, re, im)) : NULL;
    return q ? bin(c, TSR_BINOP_MUL, g, cj(c, q)) : NULL;
}

static int bw_pow(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    double e = n->a.d0;
    tsr_tensor *x = SAVED(0);
    if (n->a.has_d1) {   /* a complex exponent */
        give(c, gin, 0, pow_complex_grad(c, g, x, e, n->a.d1));
        return finish(c, n, gin);
    }
    if (e == 0.0) give(c, gin, 0, zeros(c, g, x ? x->ndim : 0, x ? x->sizes : NULL, g->dtype));
    else give(c, gin, 0, bin(c, TSR_BINOP_MUL, g, cj(c, sbin(c, TSR_BINOP_MUL, e, bins(c, TSR_BINOP_POW, x, e - 1)))));
    return finish(c, n, gin);
}

/* pow(Scalar self d0, Tensor exponent) (PowBackward2): pow_backward_exponent,
 * grad * (result * log(self)).conj(), where(exponent >= 0, 0, ...) first when self is 0 */
static int bw_pow_scalar(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    double b = n->a.d0;
    tsr_tensor *v = cj(c, bins(c, TSR_BINOP_MUL, SAVED(TSR_AG_OUT), log(b)));
    if (b == 0.0) v = where0(c, cmps(c, TSR_CMP_GE, SAVED(0), 0.0), v, true);
    give(c, gin, 0, bin(c, TSR_BINOP_MUL, g, v));
    return finish(c, n, gin);
}

/* pow(self, exponent) both tensors (pow_backward_self / _exponent) */
static int bw_pow_t(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *e = SAVED(1);
    if (NEED(1)) {   /* grad * where(self == 0 & exponent >= 0, 0, (result * self.log()).conj()); first, as 1.13 */
        tsr_tensor *ege = NULL;   /* exponent >= 0; a complex one: imag == 0 and real >= 0 (1.13's is_real_exp) */
        if (!c->fail && tsr_dtype_is_complex(e->dtype))
            ege = bin(c, TSR_BINOP_BITWISE_AND, cmps(c, TSR_CMP_EQ, keep(c, tsr_view_imag(e)), 0.0),
                      cmps(c, TSR_CMP_GE, keep(c, tsr_view_real(e)), 0.0));
        else
            ege = cmps(c, TSR_CMP_GE, e, 0.0);
        tsr_tensor *cond = bin(c, TSR_BINOP_BITWISE_AND, cmps(c, TSR_CMP_EQ, x, 0.0), ege);
        tsr_tensor *v = cj(c, bin(c, TSR_BINOP_MUL, SAVED(TSR_AG_OUT), un(c, TSR_UNOP_LOG, x)));
        give(c, gin, 1, bin(c, TSR_BINOP_MUL, g, where0(c, cond, v, true)));
    }
    if (NEED(0)) {
        tsr_tensor *v = bin(c, TSR_BINOP_MUL, g, cj(c, bin(c, TSR_BINOP_MUL, e, bin(c, TSR_BINOP_POW, x, bins(c, TSR_BINOP_SUB, e, 1)))));
        give(c, gin, 0, where0(c, cmps(c, TSR_CMP_EQ, e, 0.0), v, true));
    }
    return finish(c, n, gin);
}

/* The forward's input x: saved slot 0, or for an in-place form whose
 * formula needs the old values (a row that saves nothing), the copy of
 * them kept in extra[0]. */
static tsr_tensor *selfx(F *c, tsr_node *n)
{
    if (!(n->f->save & 1u) && n->nextra > 0 && !n->released) return n->extra[0];
    return keep_saved(c, n, 0);
}

/* cuda: an activation's gradient from nn_dev.c, in float for the halves as
 * 1.13's CUDA kernels (not under create_graph: the composed formulas below
 * record themselves); returns from the formula */
static bool dev_bw(const tsr_tensor *x) { return x && tsr__nn_on_device(x) && !tsr__ag_creating(); }
#define DEV_ACT_BW(act, g, x, a, b, cc, res)                                                    \
    do {                                                                                        \
        if (dev_bw(x)) {                                                                        \
            give(c, gin, 0, keep(c, tsr__act_backward_dev((act), (g), (x), (a), (b), (cc), (res)))); \
            return finish(c, n, gin);                                                           \
        }                                                                                       \
    } while (0)

#define UNARY_SELF(fname, expr)                                                  \
    static int fname(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)         \
    {                                                                            \
        F c0 = {0}, *c = &c0;                                                    \
        tsr_tensor *x = selfx(c, n);                                             \
        (void)x;                                                                 \
        give(c, gin, 0, (expr));                                                 \
        return finish(c, n, gin);                                                \
    }
#define UNARY_OUT(fname, expr)                                                   \
    static int fname(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)         \
    {                                                                            \
        F c0 = {0}, *c = &c0;                                                    \
        tsr_tensor *y = SAVED(TSR_AG_OUT);                                       \
        give(c, gin, 0, (expr));                                                 \
        return finish(c, n, gin);                                                \
    }
/* bfloat16 in the activations' backward kernels of 1.13 (their BFloat16
 * specialisations): both operands widened to float, the formula computed in
 * float with float coefficients, the result rounded once. up/down are the
 * two conversions (identities for other dtypes). */
static tsr_tensor *up(F *c, const tsr_tensor *t, bool bf)
{
    if (!bf || c->fail || !t) return (tsr_tensor *)t;
    return keep(c, tsr_to_dtype(t, TSR_FLOAT32, false));
}
static tsr_tensor *down(F *c, const tsr_tensor *t, bool bf)
{
    if (!bf || c->fail || !t) return (tsr_tensor *)t;
    return keep(c, tsr_to_dtype(t, TSR_BFLOAT16, false));
}
#define UNARY_SELF_F(fname, expr)                                                \
    static int fname(tsr_node *n, const tsr_tensor *g_, tsr_tensor **gin)        \
    {                                                                            \
        F c0 = {0}, *c = &c0;                                                    \
        bool bf_ = g_->dtype == TSR_BFLOAT16;                                    \
        tsr_tensor *x = up(c, selfx(c, n), bf_), *g = up(c, g_, bf_);            \
        (void)x;                                                                 \
        give(c, gin, 0, down(c, (expr), bf_));                                   \
        return finish(c, n, gin);                                                \
    }
#define UNARY_OUT_F(fname, expr)                                                 \
    static int fname(tsr_node *n, const tsr_tensor *g_, tsr_tensor **gin)        \
    {                                                                            \
        F c0 = {0}, *c = &c0;                                                    \
        bool bf_ = g_->dtype == TSR_BFLOAT16;                                    \
        tsr_tensor *y = up(c, SAVED(TSR_AG_OUT), bf_), *g = up(c, g_, bf_);      \
        give(c, gin, 0, down(c, (expr), bf_));                                   \
        return finish(c, n, gin);                                                \
    }
#define MUL(a, b) bin(c, TSR_BINOP_MUL, (a), (b))
#define DIV(a, b) bin(c, TSR_BINOP_DIV, (a), (b))

UNARY_OUT(bw_exp, MUL(g, cj(c, y)))
UNARY_SELF(bw_log, DIV(g, cj(c, x)))
UNARY_SELF(bw_sin, MUL(g, cj(c, un(c, TSR_UNOP_COS, x))))
UNARY_SELF(bw_cos, MUL(g, un(c, TSR_UNOP_NEG, cj(c, un(c, TSR_UNOP_SIN, x)))))   /* grad * -self.sin().conj() */
UNARY_SELF(bw_sinh, MUL(g, cj(c, un(c, TSR_UNOP_COSH, x))))
UNARY_SELF(bw_cosh, MUL(g, cj(c, un(c, TSR_UNOP_SINH, x))))
UNARY_OUT(bw_tan, MUL(g, cj(c, sbin(c, TSR_BINOP_ADD, 1.0, bins(c, TSR_BINOP_POW, y, 2.0)))))

/* tanh_backward(dy, y): dy * (1 - y * y).conj(); float32 / float64 /
 * bfloat16 (widened) through 1.13's fused kernel. Recorded as
 * TanhBackwardBackward0 with create_graph. */
static tsr_tensor *tanh_bw(F *c, const tsr_tensor *g_, const tsr_tensor *y0)
{
    if (c->fail || !g_ || !y0) return NULL;
    bool was = tsr__ag_set_creating(false), bf = g_->dtype == TSR_BFLOAT16;
    tsr_dtype d = y0->dtype;
    tsr_tensor *r;
    if ((d == TSR_FLOAT32 || d == TSR_FLOAT64 || d == TSR_BFLOAT16) && g_->dtype == d &&
        y0->device.type == TSR_DEV_CPU) {   /* (the kernel is host code; cuda composes) */
        tsr_tensor *y = up(c, y0, bf), *g = up(c, g_, bf);
        r = down(c, y && g ? keep(c, tsr_nn_tanh_backward(g, y)) : NULL, bf);
    } else if ((d == TSR_FLOAT16 || d == TSR_BFLOAT16) && g_->dtype == d && tsr__nn_on_device(y0)) {
        /* cuda: in float, rounded once */
        tsr_tensor *y = keep(c, tsr_to_dtype(y0, TSR_FLOAT32, false)), *g = keep(c, tsr_to_dtype(g_, TSR_FLOAT32, false));
        r = MUL(g, cj(c, sbin(c, TSR_BINOP_SUB, 1.0, MUL(y, y))));
        r = c->fail ? NULL : keep(c, tsr_to_dtype(r, d, false));
    } else {
        r = MUL(g_, cj(c, sbin(c, TSR_BINOP_SUB, 1.0, MUL(y0, y0))));
    }
    tsr__ag_set_creating(was);
    const tsr_tensor *in[2] = {g_, y0};
    return record_on(c, r, "tanh_backward", 2, in, NULL);
}
static int bw_tanh(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, tanh_bw(c, g, SAVED(TSR_AG_OUT)));
    return finish(c, n, gin);
}
/* sigmoid_backward(dy, y): dy * (1 - y) * y (bfloat16 widened), complex
 * dy * ((1 - y) * y).conj();
 * SigmoidBackwardBackward0 with create_graph */
static tsr_tensor *sigmoid_bw(F *c, const tsr_tensor *g_, const tsr_tensor *y0)
{
    if (c->fail || !g_ || !y0) return NULL;
    bool was = tsr__ag_set_creating(false), bf = g_->dtype == TSR_BFLOAT16;
    tsr_tensor *y = up(c, y0, bf), *g = up(c, g_, bf), *r;
    if (tsr_dtype_is_complex(y0->dtype))   /* the kernel's a * conj((1 - b) * b) */
        r = MUL(g, cj(c, MUL(sbin(c, TSR_BINOP_SUB, 1.0, y), y)));
    else
        r = down(c, MUL(MUL(g, sbin(c, TSR_BINOP_SUB, 1.0, y)), y), bf);
    tsr__ag_set_creating(was);
    const tsr_tensor *in[2] = {g_, y0};
    return record_on(c, r, "sigmoid_backward", 2, in, NULL);
}
static int bw_sigmoid(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, sigmoid_bw(c, g, SAVED(TSR_AG_OUT)));
    return finish(c, n, gin);
}
/* threshold_backward(dy, self, threshold): 0 where self <= threshold, else
 * dy (relu's from its result); ThresholdBackwardBackward0 with create_graph */
static tsr_tensor *threshold_bw(F *c, const tsr_tensor *g, const tsr_tensor *x, double th)
{
    if (c->fail || !g || !x) return NULL;
    bool was = tsr__ag_set_creating(false);
    tsr_tensor *r = where0(c, cmps(c, TSR_CMP_LE, x, th), g, true);
    tsr__ag_set_creating(was);
    tsr_ag_args a = {0};
    a.ndims = -1;
    a.d0 = th;
    const tsr_tensor *in[2] = {g, x};
    return record_on(c, r, "threshold_backward", 2, in, &a);
}
static int bw_relu(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, threshold_bw(c, g, SAVED(TSR_AG_OUT), 0.0));
    return finish(c, n, gin);
}
/* the backward ops' own derivatives (derivatives.yaml): inputs
 * (grad_output, output or self). tanh_backward: grad_output
 * tanh_backward(grad, output.conj()), output grad.conj() * (-2 *
 * output.conj() * grad_output) (1.13's graph) */
static int bw_tanh_backward(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0)) give(c, gin, 0, tanh_bw(c, g, cj(c, SAVED(1))));
    if (NEED(1)) give(c, gin, 1, MUL(cj(c, g), MUL(sbin(c, TSR_BINOP_MUL, -2.0, cj(c, SAVED(1))), SAVED(0))));
    return finish(c, n, gin);
}
/* sigmoid_backward: grad_output sigmoid_backward(grad, output.conj()),
 * output grad.conj() * grad_output * (-2 * output.conj() + 1) */
static int bw_sigmoid_backward(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0)) give(c, gin, 0, sigmoid_bw(c, g, cj(c, SAVED(1))));
    if (NEED(1))
        give(c, gin, 1, MUL(MUL(cj(c, g), SAVED(0)), bins(c, TSR_BINOP_ADD, sbin(c, TSR_BINOP_MUL, -2.0, cj(c, SAVED(1))), 1.0)));
    return finish(c, n, gin);
}
static int bw_threshold_backward(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0)) give(c, gin, 0, threshold_bw(c, g, SAVED(1), n->a.d0));
    if (NEED(1)) give(c, gin, 1, zeros(c, g, g->ndim, g->sizes, g->dtype));
    return finish(c, n, gin);
}
UNARY_OUT(bw_sqrt, DIV(g, sbin(c, TSR_BINOP_MUL, 2.0, cj(c, y))))
UNARY_OUT(bw_rsqrt, MUL(sbin(c, TSR_BINOP_MUL, -0.5, g), cj(c, bins(c, TSR_BINOP_POW, y, 3.0))))
UNARY_OUT(bw_reciprocal, MUL(un(c, TSR_UNOP_NEG, g), cj(c, MUL(y, y))))
UNARY_OUT(bw_exp2, bins(c, TSR_BINOP_MUL, MUL(g, cj(c, y)), M_LN2))
UNARY_OUT(bw_expm1, MUL(g, cj(c, bins(c, TSR_BINOP_ADD, y, 1.0))))
UNARY_SELF(bw_abs, MUL(g, un(c, TSR_UNOP_SGN, x)))
UNARY_SELF(bw_log2, DIV(g, bins(c, TSR_BINOP_MUL, cj(c, x), 0.6931471805599453)))
UNARY_SELF(bw_log10, DIV(g, bins(c, TSR_BINOP_MUL, cj(c, x), 2.3025850929940456)))
UNARY_SELF(bw_log1p, DIV(g, cj(c, bins(c, TSR_BINOP_ADD, x, 1.0))))
UNARY_SELF(bw_asin, MUL(g, cj(c, un(c, TSR_UNOP_RSQRT, bins(c, TSR_BINOP_ADD, MUL(un(c, TSR_UNOP_NEG, x), x), 1.0)))))
UNARY_SELF(bw_acos, MUL(g, un(c, TSR_UNOP_NEG, cj(c, un(c, TSR_UNOP_RSQRT, bins(c, TSR_BINOP_ADD, MUL(un(c, TSR_UNOP_NEG, x), x), 1.0))))))
UNARY_SELF(bw_atan, DIV(g, cj(c, bins(c, TSR_BINOP_ADD, MUL(x, x), 1.0))))
UNARY_SELF(bw_erf, MUL(sbin(c, TSR_BINOP_MUL, 2.0 / sqrt(M_PI), un(c, TSR_UNOP_EXP, un(c, TSR_UNOP_NEG, bins(c, TSR_BINOP_POW, x, 2.0)))), g))
UNARY_SELF(bw_square, MUL(g, cj(c, sbin(c, TSR_BINOP_MUL, 2.0, bins(c, TSR_BINOP_POW, x, 1.0)))))

/* sgn: 1.13's sgn_backward; zeros for a real self */
static int bw_sgn(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *y = SAVED(TSR_AG_OUT);
    if (c->fail) return finish(c, n, gin);
    if (tsr_dtype_is_complex(x->dtype)) {   /* ((gx - (sgn * sgn) * gx.conj()) / (2. * abs)).masked_fill_(abs == 0., 0.) */
        tsr_tensor *ab = un(c, TSR_UNOP_ABS, x);
        tsr_tensor *v = DIV(bin(c, TSR_BINOP_SUB, g, MUL(MUL(y, y), cj(c, g))), sbin(c, TSR_BINOP_MUL, 2.0, ab));
        give(c, gin, 0, masked_fill0(c, v, cmps(c, TSR_CMP_EQ, ab, 0.0)));
        return finish(c, n, gin);
    }
    if (tsr__ag_creating()) {   /* a real self: 1.13's efficient zero tensor, no graph */
        give(c, gin, 0, zeros(c, g, g->ndim, g->sizes, g->dtype));
        return finish(c, n, gin);
    }
    tsr_tensor *ab = un(c, TSR_UNOP_ABS, x), *q = DIV(g, x), *re = NULL;
    if (q && !c->fail) re = tsr_dtype_is_complex(q->dtype) ? keep(c, tsr_view_real(q)) : q;
    tsr_tensor *v = bin(c, TSR_BINOP_SUB, DIV(g, ab), MUL(re, y)), *r = NULL;
    if (v && !c->fail) {
        tsr_operand z = tsr_operand_scalar(tsr_scalar_float(0.0)), b = tsr_operand_tensor(v);
        r = keep(c, tsr_where(cmps(c, TSR_CMP_EQ, ab, 0.0), &z, &b, NULL));
    }
    give(c, gin, 0, r);
    return finish(c, n, gin);
}

/* conj (a complex input's conjugate view): grad.conj(), itself a conj view
 * (ConjBackward0 with create_graph) */
static int bw_conj(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, c->fail ? NULL : keep(c, tsr__ag_conj(g)));
    return finish(c, n, gin);
}

/* diag_embed(offset i0, dim1 i1, dim2 i2): grad.diagonal(offset, dim1, dim2) */
static int bw_diag_embed(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, keep(c, tsr__ag_diagonal(g, n->a.i0, n->a.i1, n->a.i2)));   /* DiagonalBackward0 with create_graph */
    return finish(c, n, gin);
}

/* angle: a complex self gives where(self == 0, 0, grad * self / |self|^2 * 1j),
 * a real one zeros_like(self) (1.13's angle_backward) */
static int bw_angle(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    if (c->fail) return finish(c, n, gin);
    if (!tsr_dtype_is_complex(x->dtype)) {
        give(c, gin, 0, zeros(c, x, x->ndim, x->sizes, x->dtype));
        return finish(c, n, gin);
    }
    /* where(self == 0, 0, grad * self / self.abs().pow(2) * 1j), the
     * operands created right to left as 1.13's build evaluates them */
    tsr_tensor *p = bins(c, TSR_BINOP_POW, un(c, TSR_UNOP_ABS, x), 2.0);
    tsr_tensor *q = DIV(MUL(g, x), p);
    tsr_tensor *qi = q && !c->fail ? keep(c, tsr__ag_mul_complex(q, 0.0, 1.0)) : NULL;
    tsr_tensor *z = cmps(c, TSR_CMP_EQ, x, 0.0);
    give(c, gin, 0, where0(c, z, qi, true));
    return finish(c, n, gin);
}

/* clamp(self, min d0?, max d1?) */
static int bw_clamp(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *mask = NULL;
    if (n->a.has_d0 && n->a.has_d1)
        mask = bin(c, TSR_BINOP_BITWISE_AND, cmps(c, TSR_CMP_GE, x, n->a.d0), cmps(c, TSR_CMP_LE, x, n->a.d1));
    else if (n->a.has_d0) mask = cmps(c, TSR_CMP_GE, x, n->a.d0);
    else if (n->a.has_d1) mask = cmps(c, TSR_CMP_LE, x, n->a.d1);
    give(c, gin, 0, mask ? where0(c, mask, g, false) : (tsr_tensor *)g);
    return finish(c, n, gin);
}

/* maximum / minimum: each input's at::where(self == other, grad / 2,
 * grad).masked_fill_(loses, 0), other's first (1.13's order) */
static tsr_tensor *max_grad(F *c, const tsr_tensor *g, const tsr_tensor *a, const tsr_tensor *b, const tsr_tensor *lose)
{
    tsr_tensor *half = bins(c, TSR_BINOP_DIV, g, 2.0), *eq = cmp(c, TSR_CMP_EQ, a, b);
    tsr_tensor *base = c->fail ? NULL : keep(c, tsr__ag_where(eq, half, g));
    return masked_fill0(c, base, lose);
}
static int bw_maximum(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *a = SAVED(0), *b = SAVED(1);
    tsr_cmpop lose_a = !strcmp(n->f->key, "maximum") ? TSR_CMP_LT : TSR_CMP_GT;
    if (NEED(1)) give(c, gin, 1, max_grad(c, g, a, b, cmp(c, lose_a, b, a)));
    if (NEED(0)) give(c, gin, 0, max_grad(c, g, a, b, cmp(c, lose_a, a, b)));
    return finish(c, n, gin);
}

/* where(condition, self, other): inputs (condition, self, other) */
static int bw_where(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *cond = SAVED(0);
    if (NEED(2)) give(c, gin, 2, where0(c, cond, g, true));   /* other's first, as 1.13 */
    if (NEED(1)) give(c, gin, 1, where0(c, cond, g, false));
    return finish(c, n, gin);
}

/* ------------------------------------------------------------ reductions */

static int bw_sum(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    int nd = n->in_nd[0];
    give(c, gin, 0, expand(c, restore(c, n, g, nd), nd, n->in_sizes[0]));
    return finish(c, n, gin);
}

/* mean_backward: sum_backward(grad) / n */
static tsr_tensor *mean_grad(F *c, tsr_node *n, const tsr_tensor *g)
{
    int nd = n->in_nd[0];
    int64_t numel = 1, out = 1;
    for (int d = 0; d < nd; d++) numel *= n->in_sizes[0][d];
    for (int d = 0; d < n->out_nd; d++) out *= n->out_sizes[d];
    double cnt = out ? (double)numel / (double)out : (double)numel;
    return bins(c, TSR_BINOP_DIV, expand(c, restore(c, n, g, nd), nd, n->in_sizes[0]), cnt);
}

static int bw_mean(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, mean_grad(c, n, g));
    return finish(c, n, gin);
}

/* evenly_distribute_backward: max() / min() of everything */
static int bw_max_all(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *y = SAVED(TSR_AG_OUT), *mask = NULL;
    if (!c->fail) {
        bool nan = isnan(tsr_tensor_get_double(y, NULL));
        mask = nan ? keep(c, tsr_predicate(TSR_PRED_ISNAN, x, NULL)) : cmp(c, TSR_CMP_EQ, x, y);
    }
    tsr_dims all = {.n = -1};
    tsr_tensor *gi = DIV(g, sum_dims(c, mask, &all, false));
    /* zeros on the gradient's device (a cuda graph's gradients stay there) */
    tsr_tensor *r = NULL, *z = c->fail ? NULL : keep(c, tsr_zeros(x ? x->ndim : 0, x ? x->sizes : NULL, g->dtype,
                                                                  g->device));
    if (!c->fail) {   /* zeros_like(self).masked_fill_(mask, grad / count): MaskedFillBackward1 */
        tsr_operand v = tsr_operand_tensor(gi);
        const tsr_tensor *in[3] = {z, mask, gi};
        r = record_on(c, keep(c, tsr_masked_fill(z, mask, &v)), "masked_fill_tensor", 3, in, NULL);
    }
    give(c, gin, 0, r);
    return finish(c, n, gin);
}

/* value_selecting_reduction_backward: max(dim) / min(dim); extra[0] indices */
static int bw_max_dim(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (n->released || !n->extra[0]) {
        SAVED(TSR_AG_OUT);   /* raises the second-backward error */
        if (!c->fail) c->fail = true;
        return finish(c, n, gin);
    }
    const tsr_tensor *gg = g, *ix = n->extra[0];
    int nd = n->in_nd[0];
    if (!n->a.keepdim && nd > 0) {
        gg = unsq(c, g, n->a.i0);
        ix = unsq(c, ix, n->a.i0);
    }
    tsr_tensor *r = NULL, *z = c->fail ? NULL : keep(c, tsr_zeros(nd, n->in_sizes[0], g->dtype, g->device));
    if (!c->fail) {   /* zeros.scatter_(dim, indices, grad): ScatterBackward0 with create_graph */
        const tsr_tensor *in[2] = {z, gg};
        r = record_on(c, keep(c, tsr_scatter(z, n->a.i0, ix, gg, NULL, TSR_SCATTER_NONE)), "scatter", 2, in, &n->a);
        if (r && tsr__ag_creating() && tsr_ag_keep(r, ix) < 0) c->fail = true;
    }
    give(c, gin, 0, r);
    return finish(c, n, gin);
}

/* amax / amin: scale_grad_by_count */
static int bw_amax(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *y = SAVED(TSR_AG_OUT);
    int nd = n->in_nd[0];
    tsr_tensor *mask = cmp(c, TSR_CMP_EQ, restore(c, n, y, nd), x);
    tsr_dims d = {.n = 0};
    d.n = red_dims(n, nd, d.d);
    if (nd == 0) d.n = -1;
    give(c, gin, 0, MUL(DIV(restore(c, n, g, nd), sum_dims(c, mask, &d, true)), mask));
    return finish(c, n, gin);
}

static int bw_logsumexp(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *y = SAVED(TSR_AG_OUT);
    int nd = n->in_nd[0];
    give(c, gin, 0, MUL(restore(c, n, g, nd), un(c, TSR_UNOP_EXP, bin(c, TSR_BINOP_SUB, x, restore(c, n, y, nd)))));
    return finish(c, n, gin);
}

/* var_backward (correction in i0); a std key: std_backward */
static tsr_tensor *var_grad(F *c, tsr_node *n, const tsr_tensor *g)
{
    tsr_tensor *x = SAVED(0);
    const tsr_tensor *gg = g;
    if (!strncmp(n->f->key, "std", 3)) {   /* std, std_mean: (grad / (result * 2)).masked_fill_(result == 0, 0) */
        tsr_tensor *y = SAVED(TSR_AG_OUT);
        gg = masked_fill0(c, DIV(g, bins(c, TSR_BINOP_MUL, y, 2.0)), cmps(c, TSR_CMP_EQ, y, 0.0));
    }
    int nd = n->in_nd[0];
    int64_t size = 1;
    tsr_dims d = {.n = 0};
    d.n = red_dims(n, nd, d.d);
    for (int i = 0; i < d.n && nd; i++) size *= n->in_sizes[0][d.d[i]];
    if (nd == 0 || n->a.ndims <= 0) {
        size = 1;
        for (int i = 0; i < nd; i++) size *= n->in_sizes[0][i];
        d.n = -1;
    } else if (!n->a.keepdim && nd > 1) {
        gg = restore(c, n, gg, nd);
    }
    double dof = (double)(size - n->a.i0);
    tsr_tensor *mean = NULL;
    if (!c->fail) mean = keep(c, tsr__ag_mean(x, &d, d.n >= 0));   /* self.mean(dim, true) / self.mean() */
    tsr_tensor *r;
    if (dof <= 0) r = bins(c, TSR_BINOP_MUL, gg, NAN);
    else r = MUL(sbin(c, TSR_BINOP_MUL, 2.0 / dof, gg), bin(c, TSR_BINOP_SUB, x, mean));
    return r;
}

static int bw_var(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, var_grad(c, n, g));
    return finish(c, n, gin);
}

/* var_mean_backward / std_mean_backward: one node, output 0 the var (std),
 * output 1 the mean: var_backward(gvar) + mean_backward(gmean), either
 * alone when the other output's gradient is undefined */
static int bw_var_mean(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    const tsr_tensor *gv = n->nout > 1 ? (n->outg ? n->outg[0] : NULL) : g;
    const tsr_tensor *gm = n->nout > 1 && n->outg ? n->outg[1] : NULL;
    tsr_tensor *r = gv ? var_grad(c, n, gv) : NULL;
    if (gm) {
        tsr_tensor *aux = mean_grad(c, n, gm);
        r = r ? bin(c, TSR_BINOP_ADD, r, aux) : aux;
    }
    give(c, gin, 0, r);
    return finish(c, n, gin);
}

/* norm_backward for p in d0: 0, 1, 2, +-inf, p < 1, p < 2 and the rest
 * as FunctionsManual.cpp's norm_backward */
static int bw_norm(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *y = SAVED(TSR_AG_OUT);
    int nd = n->in_nd[0];
    double p = n->a.d0;
    const tsr_tensor *gg = restore(c, n, g, nd), *yy = restore(c, n, y, nd);
    tsr_tensor *r;
    if (p == 0.0) {   /* an undefined gradient: nothing flows */
        r = NULL;
    } else if (p == 1.0) {
        r = MUL(un(c, TSR_UNOP_SGN, x), gg);
    } else if (p == 2.0) {
        r = MUL(gg, masked_fill0(c, DIV(x, yy), cmps(c, TSR_CMP_EQ, yy, 0.0)));
    } else if (isinf(p)) {   /* amax(abs(self)) respecting nans: self.sgn() * ((grad / mask.sum(dim, true)) * mask) */
        tsr_tensor *ax = un(c, TSR_UNOP_ABS, x), *mask = NULL;
        if (!c->fail) mask = bin(c, TSR_BINOP_BITWISE_OR, cmp(c, TSR_CMP_EQ, ax, yy), keep(c, tsr_predicate(TSR_PRED_ISNAN, ax, NULL)));
        tsr_dims d = {.n = 0};
        d.n = red_dims(n, nd, d.d);
        if (nd == 0) d.n = -1;
        r = MUL(un(c, TSR_UNOP_SGN, x), MUL(DIV(gg, sum_dims(c, mask, &d, true)), mask));
    } else if (p < 1.0) {
        tsr_tensor *sc = MUL(un(c, TSR_UNOP_SGN, x), masked_fill0(c, bins(c, TSR_BINOP_POW, un(c, TSR_UNOP_ABS, x), p - 1),
                                                                     cmps(c, TSR_CMP_EQ, x, 0.0)));
        r = MUL(MUL(sc, gg), bins(c, TSR_BINOP_POW, yy, 1 - p));
    } else {
        tsr_tensor *sc = p < 2.0 ? MUL(un(c, TSR_UNOP_SGN, x), bins(c, TSR_BINOP_POW, un(c, TSR_UNOP_ABS, x), p - 1))
                                 : MUL(x, bins(c, TSR_BINOP_POW, un(c, TSR_UNOP_ABS, x), p - 2));
        tsr_tensor *sv = masked_fill0(c, DIV(gg, bins(c, TSR_BINOP_POW, yy, p - 1)), cmps(c, TSR_CMP_EQ, yy, 0.0));
        r = MUL(sc, sv);
    }
    give(c, gin, 0, r);
    return finish(c, n, gin);
}

/* where(cond, a, scalar s) / where(cond, scalar s, a) with s kept in a's dtype */
static tsr_tensor *where_s(F *c, const tsr_tensor *cond, const tsr_tensor *a, tsr_scalar s, bool scalar_first)
{
    if (c->fail || !cond || !a) return NULL;
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_scalar(s);
    return keep(c, scalar_first ? tsr_where(cond, &y, &x, NULL) : tsr_where(cond, &x, &y, NULL));
}

/* 1.13's cumprod_backward when the input has zeros (grad mode off): before
 * the first zero z1 reversed_cumsum(w masked to [0, z1)) / input; at z1
 * (prod of input over (z1, z2) with 1 elsewhere).cumprod * grad on [z1, z2),
 * summed, times output[z1 - 1] (1 when z1 == 0); 0 after. */
static tsr_tensor *cumprod_zeros(F *c, const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *y,
                                 const tsr_tensor *w, tsr_tensor *iz, int64_t d)
{
    tsr_tensor *xc = cj(c, x), *gi = c->fail ? NULL : keep(c, tsr_zeros(x->ndim, x->sizes, g->dtype, g->device));
    tsr_tensor *cs = c->fail ? NULL : keep(c, tsr_cumsum(iz, d, TSR_DTYPE_UNDEFINED, false, NULL));
    tsr_tensor *mask0 = cmps(c, TSR_CMP_EQ, cs, 0.0);
    tsr_tensor *t = where_s(c, mask0, w, tsr_scalar_float(0.0), false), *f = NULL, *r = NULL;
    if (!c->fail) f = keep(c, tsr_flip(t, 1, &d));
    if (!c->fail) f = keep(c, tsr_cumsum(f, d, TSR_DTYPE_UNDEFINED, false, NULL));
    if (!c->fail) f = keep(c, tsr_flip(f, 1, &d));
    r = DIV(f, xc);
    if (!c->fail) r = keep(c, tsr_masked_select(r, mask0));
    if (!c->fail && tsr_masked_scatter_(gi, mask0, r) < 0) c->fail = true;
    tsr_tensor *mask1 = cmps(c, TSR_CMP_EQ, cs, 1.0), *fzi = NULL, *mv = NULL;
    if (!c->fail && tsr_max_dim(mask1, d, true, true, NULL, NULL, &mv, &fzi) < 0) c->fail = true;
    if (!c->fail) keep(c, mv), keep(c, fzi);
    /* the first zero: mask1 where mask1's running count is 1 (zeros_like.scatter_(fzi, 1) & mask1) */
    tsr_tensor *c1 = c->fail ? NULL : keep(c, tsr_cumsum(mask1, d, TSR_DTYPE_UNDEFINED, false, NULL));
    tsr_tensor *fzm = cmp(c, TSR_CMP_LOGICAL_AND, mask1, cmps(c, TSR_CMP_EQ, c1, 1.0));
    tsr_tensor *mask = cmp(c, TSR_CMP_LOGICAL_AND, mask1, cmps(c, TSR_CMP_GE, c1, 2.0));
    tsr_tensor *p = where_s(c, mask, xc, tsr_scalar_float(1.0), false);
    if (!c->fail) p = keep(c, tsr_cumsum(p, d, TSR_DTYPE_UNDEFINED, true, NULL));
    p = MUL(p, where_s(c, mask1, g, tsr_scalar_float(0.0), false));
    p = sum_dim1(c, p, d, true);
    tsr_tensor *idx = NULL;
    if (!c->fail) {
        tsr_operand a = tsr_operand_tensor(fzi), one = tsr_operand_scalar(tsr_scalar_int(1));
        idx = keep(c, tsr_binary(TSR_BINOP_SUB, &a, &one, NULL, NULL));
    }
    tsr_tensor *fz0 = cmps(c, TSR_CMP_EQ, fzi, 0.0);
    idx = where_s(c, fz0, idx, tsr_scalar_int(0), true);
    tsr_tensor *ga = c->fail ? NULL : keep(c, tsr_gather(cj(c, y), d, idx));
    ga = where_s(c, fz0, ga, tsr_scalar_float(1.0), true);
    p = MUL(p, ga);
    if (!c->fail) p = keep(c, tsr_masked_select(p, fzm));
    if (!c->fail && tsr_masked_scatter_(gi, fzm, p) < 0) c->fail = true;
    return gi;
}

/* cumprod_backward(dim i0): reversed_cumsum(output.conj() * grad, dim) /
 * input.conj() without zeros in the input, else cumprod_zeros */
static int bw_cumprod(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *y = SAVED(TSR_AG_OUT);
    if (c->fail) return finish(c, n, gin);
    int64_t d = n->a.i0, numel = tsr_tensor_numel(x);
    if (x->ndim == 0 || numel <= 1 || x->sizes[d] == 1) {
        give(c, gin, 0, (tsr_tensor *)g);
        return finish(c, n, gin);
    }
    tsr_dims all = {.n = -1};
    tsr_tensor *iz = cmps(c, TSR_CMP_EQ, x, 0.0);
    tsr_tensor *nz = sum_dims(c, iz, &all, false);
    bool zeros_in = !c->fail && tsr_tensor_get_int64(nz, NULL) != 0;
    if (zeros_in && tsr__ag_creating()) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "create_graph=True: the derivative of CumprodBackward0 of an input "
                      "with zeros is not implemented.");
        c->fail = true;
    }
    tsr_tensor *w = MUL(cj(c, y), g), *f = NULL, *s = NULL;
    if (zeros_in) {
        give(c, gin, 0, cumprod_zeros(c, g, x, y, w, iz, d));
        return finish(c, n, gin);
    }
    tsr_ag_args fa = {0}, ca = {0};
    fa.ndims = 1;
    fa.dims[0] = d;
    ca.ndims = -1;
    ca.i0 = d;
    const tsr_tensor *in[1] = {w};
    if (!c->fail) f = record_on(c, keep(c, tsr_flip(w, 1, &d)), "flip", 1, in, &fa);
    in[0] = f;
    if (!c->fail) s = record_on(c, keep(c, tsr_cumsum(f, d, TSR_DTYPE_UNDEFINED, false, NULL)), "cumsum", 1, in, &ca);
    in[0] = s;
    if (!c->fail) s = record_on(c, keep(c, tsr_flip(s, 1, &d)), "flip", 1, in, &fa);
    give(c, gin, 0, DIV(s, cj(c, x)));
    return finish(c, n, gin);
}

/* div(self, other, rounding_mode): zeros for both (1.13 prints +0 where grad * 0 would be -0) */
static int bw_div_rounding(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    for (int i = 0; i < n->nnext; i++)
        if (NEED(i)) give(c, gin, i, zeros(c, g, g->ndim, g->sizes, g->dtype));
    return finish(c, n, gin);
}

/* prod_safe_zeros_backward along dim: grad * (exclusive cumprod from the
 * front * exclusive cumprod from the back) */
static tsr_tensor *prod_safe_zeros(F *c, const tsr_tensor *gg, const tsr_tensor *x, int64_t dim)
{
    if (c->fail) return NULL;
    if (tsr_tensor_numel(x) == 0) return expand(c, gg, x->ndim, x->sizes);
    int64_t os[TSR_MAX_DIMS], len = x->sizes[dim];
    memcpy(os, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
    os[dim] = 1;
    tsr_tensor *ones = keep(c, tsr_full(x->ndim, os, tsr_scalar_float(1.0), gg->dtype, gg->device));
    tsr_tensor *front = c->fail ? NULL : keep(c, tsr_view_narrow(x, dim, 0, len - 1));
    tsr_tensor *back = c->fail ? NULL : keep(c, tsr_view_narrow(x, dim, 1, len - 1));
    if (c->fail) return NULL;
    back = keep(c, tsr_flip(back, 1, &dim));
    const tsr_tensor *p1[2] = {ones, front}, *p2[2] = {ones, back};
    tsr_tensor *en = c->fail ? NULL : keep(c, tsr_cat(2, p1, dim, NULL));
    tsr_tensor *er = c->fail ? NULL : keep(c, tsr_cat(2, p2, dim, NULL));
    if (!c->fail) en = keep(c, tsr_cumsum(en, dim, TSR_DTYPE_UNDEFINED, true, NULL));
    if (!c->fail) er = keep(c, tsr_cumsum(er, dim, TSR_DTYPE_UNDEFINED, true, NULL));
    if (!c->fail) er = keep(c, tsr_flip(er, 1, &dim));
    return MUL(gg, MUL(en, er));
}

/* prod_backward: (grad * result) / input when no element is zero, else the
 * product of the others, as FunctionsManual.cpp's prod_safe_zeros_backward. */
static int bw_prod(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *y = SAVED(TSR_AG_OUT);
    int nd = n->in_nd[0];
    const tsr_tensor *gg = restore(c, n, g, nd), *yy = restore(c, n, y, nd);
    tsr_tensor *r = NULL;
    if (!c->fail) {
        tsr_tensor *z = cmps(c, TSR_CMP_EQ, x, 0.0);
        tsr_dims all = {.n = -1};
        tsr_tensor *nz = sum_dims(c, z, &all, false);
        if (!c->fail && tsr_tensor_get_int64(nz, NULL) == 0) {
            r = MUL(gg, cj(c, DIV(yy, x)));   /* grad * (result / input).conj() */
        } else if (!c->fail && tsr__ag_creating()) {
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "create_graph=True: the derivative of %s of an input with zeros is "
                          "not implemented.", n->name);
            c->fail = true;
        } else if (!c->fail && n->a.ndims <= 0) {
            /* one zero: its gradient is the product of the others; more: all zero */
            r = zeros_in(c, n, 0, g);
            if (!c->fail && tsr_tensor_get_int64(nz, NULL) == 1) {
                tsr_operand one = tsr_operand_scalar(tsr_scalar_float(1.0));
                tsr_tensor *xs = keep(c, tsr_masked_fill(x, z, &one));
                tsr_tensor *p = xs ? keep(c, tsr_prod(xs, NULL, false, TSR_DTYPE_UNDEFINED, NULL)) : NULL;
                tsr_operand v = tsr_operand_tensor(MUL(g, p));
                if (!c->fail) r = keep(c, tsr_masked_fill(r, z, &v));
            }
        } else if (!c->fail) {
            int64_t dim = n->a.dims[0] < 0 ? n->a.dims[0] + nd : n->a.dims[0];
            r = nd == 0 ? (tsr_tensor *)g : prod_safe_zeros(c, gg, x, dim);
        }
    }
    give(c, gin, 0, r);
    return finish(c, n, gin);
}

/* the softmax backward kernels take bfloat16, float32 and float64 CPU
 * tensors of one dtype; others (complex, meta) compose the formula */
static bool soft_kernel(const tsr_tensor *g, const tsr_tensor *y)
{
    if (y->device.type != TSR_DEV_CPU && !tsr_device_is_meta(y->device))   /* cuda: float16 too, in float */
        return (y->dtype == TSR_FLOAT16 || y->dtype == TSR_BFLOAT16 || y->dtype == TSR_FLOAT32 ||
                y->dtype == TSR_FLOAT64) && g->dtype == y->dtype;
    return (y->dtype == TSR_BFLOAT16 || y->dtype == TSR_FLOAT32 || y->dtype == TSR_FLOAT64) && g->dtype == y->dtype &&
           !tsr_device_is_meta(y->device);
}

/* _softmax_backward_data: output * (grad - (grad * output).sum(dim, true));
 * _log_softmax_backward_data: grad - exp(output) * grad.sum(dim, true).
 * Recorded as SoftmaxBackwardDataBackward0 / LogSoftmaxBackwardDataBackward0
 * with create_graph. */
static tsr_tensor *softmax_bw(F *c, const tsr_tensor *g, const tsr_tensor *y, int64_t d, bool lg)
{
    if (c->fail || !g || !y) return NULL;
    bool was = tsr__ag_set_creating(false);
    tsr_tensor *r;
    if (y->ndim == 0) r = zeros(c, g, 0, NULL, g->dtype);
    else if (soft_kernel(g, y)) r = keep(c, tsr_softmax_backward_kernel(g, y, d, lg));
    else if (lg) r = bin(c, TSR_BINOP_SUB, g, MUL(un(c, TSR_UNOP_EXP, y), sum_dim1(c, g, d, true)));
    else r = MUL(y, bin(c, TSR_BINOP_SUB, g, sum_dim1(c, MUL(g, y), d, true)));
    tsr__ag_set_creating(was);
    tsr_ag_args a = {0};
    a.ndims = -1;
    a.i0 = d;
    const tsr_tensor *in[2] = {g, y};
    return record_on(c, r, lg ? "log_softmax_backward_data" : "softmax_backward_data", 2, in, &a);
}
static int bw_softmax(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *y = SAVED(TSR_AG_OUT);
    give(c, gin, 0, softmax_bw(c, g, y, y && y->ndim ? n->a.i0 : 0, false));
    return finish(c, n, gin);
}
static int bw_log_softmax(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, softmax_bw(c, g, SAVED(TSR_AG_OUT), n->a.i0, true));
    return finish(c, n, gin);
}
/* their own backward: inputs (grad_output, output), dim i0 */
static int bw_softmax_backward_data(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *go = SAVED(0), *y = SAVED(1);
    int64_t d = n->a.i0;
    if (NEED(0)) give(c, gin, 0, softmax_bw(c, g, y, d, false));
    if (NEED(1)) {   /* softmax_double_backward */
        tsr_tensor *a = bin(c, TSR_BINOP_SUB, MUL(go, g), MUL(sum_dim1(c, MUL(y, go), d, true), g));
        give(c, gin, 1, bin(c, TSR_BINOP_SUB, a, MUL(go, sum_dim1(c, MUL(y, g), d, true))));
    }
    return finish(c, n, gin);
}
static int bw_log_softmax_backward_data(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *go = SAVED(0), *y = SAVED(1);
    int64_t d = n->a.i0;
    if (NEED(0)) give(c, gin, 0, bin(c, TSR_BINOP_SUB, g, sum_dim1(c, MUL(g, un(c, TSR_UNOP_EXP, y)), d, true)));
    if (NEED(1)) give(c, gin, 1, MUL(MUL(un(c, TSR_UNOP_NEG, sum_dim1(c, go, d, true)), un(c, TSR_UNOP_EXP, y)), g));
    return finish(c, n, gin);
}

/* cumsum_backward: grad.flip(dim).cumsum(dim).flip(dim) */
static int bw_cumsum(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (g->ndim == 0 || g->sizes[n->a.i0] == 0) {
        give(c, gin, 0, (tsr_tensor *)g);
        return finish(c, n, gin);
    }
    int64_t d = n->a.i0;
    tsr_ag_args fa = {0}, ca = {0};
    fa.ndims = 1;
    fa.dims[0] = d;
    ca.ndims = -1;
    ca.i0 = d;
    const tsr_tensor *in[1] = {g};
    tsr_tensor *f = record_on(c, keep(c, tsr_flip(g, 1, &d)), "flip", 1, in, &fa);
    in[0] = f;
    tsr_tensor *s = f ? record_on(c, keep(c, tsr_cumsum(f, d, TSR_DTYPE_UNDEFINED, false, NULL)), "cumsum", 1, in, &ca)
                      : NULL;
    in[0] = s;
    give(c, gin, 0, s ? record_on(c, keep(c, tsr_flip(s, 1, &d)), "flip", 1, in, &fa) : NULL);
    return finish(c, n, gin);
}

/* ------------------------------------------------------------ matmul family */

static tsr_tensor *mm(F *c, const tsr_tensor *a, const tsr_tensor *b)
{
    if (c->fail || !a || !b) return NULL;
    return keep(c, tsr__ag_mm(a, b));
}
static tsr_tensor *tt(F *c, const tsr_tensor *a)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_t(a));
}

/* mm_mat1_backward / mm_mat2_backward: for a column-major input (strides
 * [1, rows]) 1.13 computes the transposed product and transposes it */
static bool col_major(const tsr_tensor *t)
{
    return t && t->ndim == 2 && t->strides[0] == 1 && t->strides[1] == t->sizes[0];
}
static tsr_tensor *mat1_grad(F *c, const tsr_tensor *g, const tsr_tensor *m1, const tsr_tensor *m2)
{
    if (col_major(m1)) return tt(c, mm(c, cj(c, m2), tt(c, g)));
    return mm(c, g, cj(c, tt(c, m2)));
}
static tsr_tensor *mat2_grad(F *c, const tsr_tensor *g, const tsr_tensor *m1, const tsr_tensor *m2)
{
    if (col_major(m2)) return tt(c, mm(c, tt(c, g), cj(c, m1)));
    return mm(c, cj(c, tt(c, m1)), g);
}

static int bw_mm(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(1)) give(c, gin, 1, mat2_grad(c, g, SAVED(0), n->saved[1].t));   /* mat2's first, as 1.13 */
    if (NEED(0)) give(c, gin, 0, mat1_grad(c, g, n->saved[0].t, SAVED(1)));
    return finish(c, n, gin);
}

/* addmm(self, mat1, mat2, beta d0, alpha d1) */
static int bw_addmm(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    double beta = n->a.d0, alpha = n->a.d1;
    if (NEED(0)) give(c, gin, 0, beta == 1.0 ? (tsr_tensor *)g : bins(c, TSR_BINOP_MUL, g, beta));
    if (NEED(1)) {
        tsr_tensor *r = mat1_grad(c, g, n->saved[1].t, SAVED(2));
        give(c, gin, 1, alpha == 1.0 ? r : bins(c, TSR_BINOP_MUL, r, alpha));
    }
    if (NEED(2)) {
        tsr_tensor *r = mat2_grad(c, g, SAVED(1), n->saved[2].t);
        give(c, gin, 2, alpha == 1.0 ? r : bins(c, TSR_BINOP_MUL, r, alpha));
    }
    return finish(c, n, gin);
}

static int bw_bmm(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(1) && !c->fail) {   /* mat2's first, as 1.13 */
        tsr_tensor *a = cj(c, transpose(c, SAVED(0), 1, 2));
        if (!c->fail) give(c, gin, 1, keep(c, tsr__ag_bmm(a, g)));
    }
    if (NEED(0) && !c->fail) {
        tsr_tensor *b = cj(c, transpose(c, SAVED(1), 1, 2));
        if (!c->fail) give(c, gin, 0, keep(c, tsr__ag_bmm(g, b)));
    }
    return finish(c, n, gin);
}

static int bw_mv(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0)) {
        tsr_tensor *v = cj(c, SAVED(1));
        if (!c->fail) give(c, gin, 0, keep(c, tsr__ag_outer(g, v)));
    }
    if (NEED(1)) {
        tsr_tensor *m = tt(c, cj(c, SAVED(0)));
        if (!c->fail) give(c, gin, 1, keep(c, tsr__ag_mv(m, g)));
    }
    return finish(c, n, gin);
}

/* vdot(self, other): other grad * self, then self grad.conj() * other
 * (1.13's order: the inputs' names sorted) */
static int bw_vdot(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(1)) give(c, gin, 1, MUL(g, SAVED(0)));
    if (NEED(0)) give(c, gin, 0, MUL(cj(c, g), SAVED(1)));
    return finish(c, n, gin);
}

/* conj_physical (a complex input): grad.conj_physical() (ConjPhysicalBackward0) */
static int bw_conj_physical(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, tsr_dtype_is_complex(g->dtype) ? un(c, TSR_UNOP_CONJ_PHYSICAL, g) : (tsr_tensor *)g);
    return finish(c, n, gin);
}

static int bw_dot(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0)) give(c, gin, 0, MUL(g, cj(c, SAVED(1))));
    if (NEED(1)) give(c, gin, 1, MUL(g, cj(c, SAVED(0))));
    return finish(c, n, gin);
}

/* ------------------------------------------------------------ views and shapes */

static int bw_reshape(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, reshape(c, g, n->in_nd[0], n->in_sizes[0]));
    return finish(c, n, gin);
}

/* squeeze / squeeze(dim) / squeeze_(dim): unsqueeze_to(grad, self.sizes()),
 * one unsqueeze per dim of size 1 the input had (with create_graph; a
 * reshape otherwise) */
static int bw_squeeze(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    if (!tsr__ag_creating()) return bw_reshape(n, g, gin);
    F c0 = {0}, *c = &c0;
    int nd = n->in_nd[0];
    const tsr_tensor *r = g;
    if (!strcmp(n->f->key, "squeeze_dim") || !strcmp(n->f->key, "squeeze_mm")) {
        if (nd > 0 && n->out_nd < nd) {   /* the squeezed dim: where the sizes first differ */
            int d = 0;
            while (d < n->out_nd && n->out_sizes[d] == n->in_sizes[0][d]) d++;
            r = unsq(c, r, d);
        }
    } else {
        for (int d = 0; d < nd; d++)
            if (n->in_sizes[0][d] == 1) r = unsq(c, r, d);
    }
    give(c, gin, 0, (tsr_tensor *)r);
    return finish(c, n, gin);
}

static int bw_t(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, tt(c, g));
    return finish(c, n, gin);
}

static int bw_transpose(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, transpose(c, g, n->a.i0, n->a.i1));
    return finish(c, n, gin);
}

static int bw_permute(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    int64_t inv[TSR_MAX_DIMS];
    int nd = n->a.ndims;
    for (int i = 0; i < nd; i++) {
        int64_t d = n->a.dims[i] < 0 ? n->a.dims[i] + nd : n->a.dims[i];
        inv[d] = i;
    }
    give(c, gin, 0, keep(c, tsr__ag_permute(g, nd, inv)));
    return finish(c, n, gin);
}

/* expand / squeeze / unsqueeze all come back by sum_to or reshape; the
 * engine's sum_to makes expand's (ExpandBackward0 is at::sum_to). */
static int bw_expand(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, keep(c, tsr__ag_sum_to(g, n->in_nd[0], n->in_sizes[0])));
    return finish(c, n, gin);
}

static int bw_unsqueeze(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, keep(c, tsr__ag_squeeze_dim(g, n->a.i0)));
    return finish(c, n, gin);
}

/* select / slice / narrow: zeros of the input's shape with the gradient
 * copied into the piece (select_backward, slice_backward). kind in i2:
 * 0 select(dim i0, index i1), 1 slice(dim i0, start i1, end dims[0], step dims[1]) */
static int bw_piece(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *z = zeros_in(c, n, 0, g), *v = NULL;
    if (!c->fail)
        v = keep(c, n->a.i2 == 0 ? tsr_view_select(z, n->a.i0, n->a.i1)
                                 : tsr_view_slice(z, n->a.i0, n->a.i1, n->a.dims[0], n->a.dims[1]));
    if (!c->fail && tsr_copy_(v, g) < 0) c->fail = true;
    const tsr_tensor *in[1] = {g};
    give(c, gin, 0, record_on(c, z, n->a.i2 == 0 ? "select_backward" : "slice_backward", 1, in, &n->a));
    return finish(c, n, gin);
}

/* select_backward / slice_backward (their own backward): the piece of grad
 * (SelectBackward0 / SliceBackward0 with create_graph) */
static int bw_piece_backward(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *v = keep(c, n->a.i2 == 0 ? tsr_view_select(g, n->a.i0, n->a.i1)
                                         : tsr_view_slice(g, n->a.i0, n->a.i1, n->a.dims[0], n->a.dims[1]));
    const tsr_tensor *in[1] = {g};
    give(c, gin, 0, record_on(c, v, n->a.i2 == 0 ? "select" : "slice", 1, in, &n->a));
    return finish(c, n, gin);
}

/* grad.contiguous(): grad itself, or its copy (CloneBackward0 with
 * create_graph) */
static tsr_tensor *contig(F *c, const tsr_tensor *g)
{
    if (c->fail || !g) return NULL;
    if (tsr_tensor_is_contiguous(g)) return (tsr_tensor *)g;
    const tsr_tensor *in[1] = {g};
    return record_on(c, keep(c, tsr_contiguous(g, TSR_MF_CONTIGUOUS)), "clone", 1, in, NULL);
}

/* view_as_real: view_as_complex(grad.contiguous()) (ViewAsComplexBackward0
 * with create_graph) */
static int bw_view_as_real(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *gc = contig(c, g);
    const tsr_tensor *in[1] = {gc};
    give(c, gin, 0, gc ? record_on(c, keep(c, tsr_view_as_complex(gc)), "view_as_complex", 1, in, NULL) : NULL);
    return finish(c, n, gin);
}

/* view_as_complex: view_as_real(grad.contiguous().resolve_conj())
 * (ViewAsRealBackward0 with create_graph) */
static int bw_view_as_complex(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *gc = contig(c, g), *gr = gc;
    if (gc && gc->conj) {   /* resolve_conj: a copy (CloneBackward0 with create_graph) */
        const tsr_tensor *cin[1] = {gc};
        gr = record_on(c, keep(c, tsr_resolve_conj(gc)), "clone", 1, cin, NULL);
    }
    const tsr_tensor *in[1] = {gr};
    give(c, gin, 0, gr ? record_on(c, keep(c, tsr_view_as_real(gr)), "view_as_real", 1, in, NULL) : NULL);
    return finish(c, n, gin);
}

/* cat(tensors, dim i0): narrow of the gradient per input */
static int bw_cat(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    int64_t off = 0;
    int d = (int)n->a.i0;
    for (int i = 0; i < n->nnext && !c->fail; i++) {
        if (n->in_nd[i] == 1 && n->in_sizes[i][0] == 0 && g->ndim != 1) continue;   /* legacy empty input */
        int64_t len = n->in_sizes[i][d];
        if (NEED(i)) give(c, gin, i, keep(c, tsr__ag_narrow(g, d, off, len)));
        off += len;
    }
    return finish(c, n, gin);
}

/* stack(tensors, dim i0): select of the gradient per input */
static int bw_stack(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    for (int i = 0; i < n->nnext && !c->fail; i++)
        if (NEED(i)) give(c, gin, i, keep(c, tsr__ag_select(g, n->a.i0, i)));
    return finish(c, n, gin);
}

/* gather(self, dim i0, index): zeros.scatter_add(dim, index, grad) */
static int bw_gather(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *ix = SAVED(1), *z = zeros_in(c, n, 0, g);
    if (!c->fail) {   /* zeros.scatter_add_(dim, index, grad): ScatterAddBackward0 with create_graph */
        const tsr_tensor *in[2] = {z, g};
        tsr_tensor *r = record_on(c, keep(c, tsr_scatter(z, n->a.i0, ix, g, NULL, TSR_SCATTER_ADD)), "scatter_add", 2, in,
                                  &n->a);
        if (r && tsr__ag_creating() && tsr_ag_keep(r, ix) < 0) c->fail = true;
        give(c, gin, 0, r);
    }
    return finish(c, n, gin);
}

/* index_select(self, dim i0, index): zeros.index_add_(dim, index, grad) */
static int bw_index_select(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *ix = SAVED(1), *z = zeros_in(c, n, 0, g);
    if (!c->fail && tsr_index_add_(z, n->a.i0, ix, g, tsr_scalar_int(1)) < 0) c->fail = true;
    if (!c->fail && tsr__ag_creating()) {   /* zeros.index_add_(dim, index, grad): IndexAddBackward0 */
        const tsr_tensor *in[2] = {z, g};
        tsr_ag_args a = n->a;
        a.has_d0 = false;
        if (record_on(c, z, "index_add", 2, in, &a) && tsr_ag_keep(z, ix) < 0) c->fail = true;
    }
    give(c, gin, 0, z);
    return finish(c, n, gin);
}

/* index(self, indices...): zeros.index_put_(indices, grad, accumulate=True);
 * inputs 1.. are the index tensors (NULL slots: a[:, idx]) */
static int bw_index(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    const tsr_tensor *ix[TSR_AG_MAXIN] = {0};
    for (int i = 1; i < n->nnext && !c->fail; i++)
        if (n->in_present[i]) ix[i - 1] = SAVED(i);
    tsr_tensor *z = zeros_in(c, n, 0, g);
    if (!c->fail && tsr_index_put_(z, n->nnext - 1, ix, g, true) < 0) c->fail = true;
    if (!c->fail && tsr__ag_creating()) {   /* _index_put_impl_(zeros, indices, grad, accumulate): IndexPutImplBackward0 */
        const tsr_tensor *in[TSR_AG_MAXIN] = {z, g};
        int k = 2;
        for (int i = 1; i < n->nnext && k < TSR_AG_MAXIN; i++) in[k++] = ix[i - 1];
        if (n->nnext + 1 > TSR_AG_MAXIN) {
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "create_graph=True: the derivative of IndexBackward0 with %d "
                          "indices is not implemented.", n->nnext - 1);
            c->fail = true;
        } else {
            record_on(c, z, "index_put_impl", k, in, NULL);
        }
    }
    give(c, gin, 0, z);
    return finish(c, n, gin);
}

/* _index_put_impl_(self, indices, values, accumulate=True) (inputs self,
 * values, then the indices, saved): self's gradient is grad, values'
 * grad.index(indices) (IndexBackward0 with create_graph) */
static int bw_index_put_impl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    const tsr_tensor *ix[TSR_AG_MAXIN] = {0}, *in[TSR_AG_MAXIN] = {g};
    for (int i = 2; i < n->nnext && !c->fail; i++) in[i - 1] = ix[i - 2] = n->in_present[i] ? SAVED(i) : NULL;
    if (NEED(0)) give(c, gin, 0, (tsr_tensor *)g);
    if (NEED(1) && !c->fail)
        give(c, gin, 1, record_on(c, keep(c, tsr_index(g, n->nnext - 2, ix)), "index", n->nnext - 1, in, NULL));
    return finish(c, n, gin);
}

static int bw_flip(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    const tsr_tensor *in[1] = {g};
    give(c, gin, 0, record_on(c, keep(c, tsr_flip(g, n->a.ndims, n->a.dims)), "flip", 1, in, &n->a));
    return finish(c, n, gin);
}

/* atan2_backward: recip = (self * self + other * other).reciprocal() */
static int bw_atan2(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *a = SAVED(0), *b = SAVED(1);
    tsr_tensor *recip = un(c, TSR_UNOP_RECIPROCAL, bin(c, TSR_BINOP_ADD, MUL(a, a), MUL(b, b)));
    if (NEED(0)) give(c, gin, 0, MUL(MUL(g, b), recip));
    if (NEED(1)) give(c, gin, 1, MUL(MUL(g, un(c, TSR_UNOP_NEG, a)), recip));
    return finish(c, n, gin);
}

/* masked_fill(self, mask, number): grad.masked_fill(mask, 0) */
static int bw_masked_fill(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, masked_fill0(c, g, SAVED(1)));
    return finish(c, n, gin);
}

/* sort / topk: value_selecting_reduction_backward with keepdim (extra[0]
 * the indices, i0 the dim) */
static int bw_sort(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (n->released || !n->extra[0]) {
        SAVED(TSR_AG_OUT);
        c->fail = true;
        return finish(c, n, gin);
    }
    int nd = n->in_nd[0];
    tsr_tensor *z = zeros_in(c, n, 0, g);
    if (!c->fail) {   /* zeros.scatter_(dim, indices, grad): ScatterBackward0 with create_graph */
        tsr_ag_args a = {0};
        a.ndims = -1;
        a.i0 = nd ? n->a.i0 : 0;
        const tsr_tensor *in[2] = {z, g};
        tsr_tensor *r = record_on(c, keep(c, tsr_scatter(z, a.i0, n->extra[0], g, NULL, TSR_SCATTER_NONE)), "scatter", 2, in,
                                  &a);
        if (r && tsr__ag_creating() && tsr_ag_keep(r, n->extra[0]) < 0) c->fail = true;
        give(c, gin, 0, r);
    }
    return finish(c, n, gin);
}

/* repeat(repeats in dims): the gradient of each copy summed back
 * (repeat_backward): grad viewed as [r0, s0, r1, s1, ...], summed over the r's */
static int bw_repeat(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{   /* 1.13's repeat_backward: the leading (new) dims summed one at a time,
       then one reshape to (repeat, size) pairs (repeat > 1 only) and one sum */
    F c0 = {0}, *c = &c0;
    int nr = n->a.ndims, nd = n->in_nd[0], lead = nr - nd;
    for (int i = 0; i < nr; i++)
        if (n->a.dims[i] == 0) {
            give(c, gin, 0, zeros(c, g, nd, n->in_sizes[0], g->dtype));
            return finish(c, n, gin);
        }
    const tsr_tensor *r = g;
    for (int i = 0; i < lead; i++) r = sum_dim1(c, r, 0, false);
    int64_t shape[2 * TSR_MAX_DIMS];
    tsr_dims d = {.n = 0};
    int k = 0;
    for (int i = 0; i < nd; i++) {
        if (n->a.dims[i + lead] != 1) {
            shape[k++] = n->a.dims[i + lead];
            d.d[d.n++] = k - 1;
        }
        shape[k++] = n->in_sizes[0][i];
    }
    if (k > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for 'repeat' of more than %d dims is not implemented.",
                      TSR_MAX_DIMS / 2);
        c->fail = true;
    }
    if (d.n && !c->fail) r = sum_dims(c, reshape(c, r, k, shape), &d, false);
    give(c, gin, 0, (tsr_tensor *)r);
    return finish(c, n, gin);
}

/* ------------------------------------------------------------ torch.nn.functional */
/* The activation and loss kernels' backward bodies (BinaryOpsKernel.cpp,
 * Activation.cpp, Loss.cpp of 1.13) composed in their order of operations. */

/* where(cond, a, b) of two kept tensors */
static tsr_tensor *sel(F *c, const tsr_tensor *cond, const tsr_tensor *a, const tsr_tensor *b)
{
    if (c->fail || !cond || !a || !b) return NULL;
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    return keep(c, tsr_where(cond, &x, &y, NULL));
}
#define SMUL(a, s) bins(c, TSR_BINOP_MUL, (a), (s))
#define OR(a, b) bin(c, TSR_BINOP_BITWISE_OR, (a), (b))
#define AND(a, b) bin(c, TSR_BINOP_BITWISE_AND, (a), (b))

/* ---- the activations' fused backward kernels under create_graph ----
 * 1.13 records leaky_relu_backward, hardtanh_backward, elu_backward,
 * softplus_backward, log_sigmoid_backward and hardswish_backward as ops of
 * their own (LeakyReluBackwardBackward0, ...): the value is the kernel's,
 * computed with recording off, and one node over (grad, self) records it;
 * over (grad, result) for the in-place forms that save their result
 * (elu_, celu_, leaky_relu_: is_result, a.i2 1 in elu_backward's args). */
static int fused_bw(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin, tsr_backward_fn plain, const char *bkey)
{
    bool of_result = !(n->f->save & 1u) && (n->f->save & TSR_SAVE_OUT);
    if (!tsr__ag_creating() || !n->nnext) return plain(n, g, gin);
    bool was = tsr__ag_set_creating(false);
    int rc = plain(n, g, gin);
    tsr__ag_set_creating(was);
    if (rc < 0 || !gin[0]) return rc;
    F c0 = {0}, *c = &c0;
    tsr_tensor *r = gin[0];
    gin[0] = NULL;
    if (r == g || r->autograd) {   /* never the gradient itself: the node goes onto r */
        tsr_tensor *cl = tsr_clone(r, TSR_MF_PRESERVE);
        tsr_tensor_release(r);
        r = cl;
    }
    keep(c, r);
    const tsr_tensor *in[2] = {g, SAVED(of_result ? TSR_AG_OUT : 0)};
    tsr_ag_args a = n->a;
    if (!strcmp(bkey, "elu_backward")) {   /* elu_backward with celu's coefficients; is_result */
        a.flag = !strncmp(n->f->key, "celu", 4);
        a.i2 = of_result;
    }
    give(c, gin, 0, record_on(c, r, bkey, 2, in, &a));
    return finish(c, n, gin);
}

/* The forward formula's value on (grad, self) taken from a backward node's
 * inputs (grad_output, self): a copy of that node with self in slot 0. */
static int again_bw(tsr_node *n, const tsr_tensor *g, tsr_tensor **out, const char *base, tsr_backward_fn plain,
                    const char *bkey)
{
    tsr_node tmp = *n;
    tmp.f = tsr__ag_formula(base);
    /* a formula of the result (elu_'s): self_or_result in the output's slot */
    tmp.saved[tmp.f && !(tmp.f->save & 1u) && (tmp.f->save & TSR_SAVE_OUT) ? TSR_AG_OUT : 0] = n->saved[1];
    tmp.in_dtype[0] = n->in_dtype[1];
    tmp.in_nd[0] = n->in_nd[1];
    memcpy(tmp.in_sizes[0], n->in_sizes[1], sizeof tmp.in_sizes[0]);
    tmp.nnext = 1;
    tsr_tensor *gi[TSR_AG_MAXIN] = {0};
    int rc = tmp.f ? fused_bw(&tmp, g, gi, plain, bkey) : -1;
    *out = gi[0];
    return rc;
}

/* a coefficient as the kernel's scalar_t holds it */
static double coef(const tsr_node *n, double v) { return n->in_dtype[0] == TSR_FLOAT64 ? v : (double)(float)v; }

/* elu_backward(is_result false): x <= 0 ? grad * negiptcoef * negcoef *
 * exp(x * negiptcoef) : grad * poscoef. elu/selu: alpha d0, scale d1,
 * input_scale 1; celu: alpha d0, scale 1, input_scale 1 / alpha. */
static int bw_elu(tsr_node *n, const tsr_tensor *g_, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    bool bf = g_->dtype == TSR_BFLOAT16;
    tsr_tensor *x = up(c, SAVED(0), bf), *g = up(c, g_, bf);
    bool celu = !strcmp(n->f->key, "celu");
    double alpha = n->a.d0, scale = celu ? 1.0 : n->a.d1, iscale = celu ? 1.0 / (double)(float)alpha : 1.0;   /* 1.13: 1.0 / alpha.toFloat() */
    double negcoef = coef(n, coef(n, alpha) * coef(n, scale));
    DEV_ACT_BW(TSR_DACT_ELU, g_, SAVED(0), negcoef, scale, iscale, false);
    tsr_tensor *neg = MUL(SMUL(SMUL(g, iscale), negcoef), un(c, TSR_UNOP_EXP, SMUL(x, iscale)));
    give(c, gin, 0, down(c, sel(c, cmps(c, TSR_CMP_LE, x, 0.0), neg, SMUL(g, scale)), bf));
    return finish(c, n, gin);
}

/* GeluBackward0: approximate 'none' (flag false) or 'tanh' */
static int bw_gelu(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    DEV_ACT_BW(n->a.flag ? TSR_DACT_GELU_TANH : TSR_DACT_GELU, g, x, 0, 0, 0, false);
    bool cpu = x && x->device.type == TSR_DEV_CPU;   /* the kernels below are host code */
    if (!n->a.flag && x && cpu && tsr__gelu_uses_dnnl(x) && g->dtype == x->dtype) {   /* oneDNN's, as 1.13 */
        give(c, gin, 0, keep(c, tsr__gelu_dnnl(x, g)));
    } else if (!n->a.flag) {   /* dy * (0.5 * (1 + erf(x * kAlpha)) + x * (kBeta * exp(x * x * -0.5))) */
        const double kbeta = M_2_SQRTPI * M_SQRT1_2 * 0.5;
        tsr_tensor *cdf = sbin(c, TSR_BINOP_MUL, 0.5, sbin(c, TSR_BINOP_ADD, 1.0, un(c, TSR_UNOP_ERF, SMUL(x, M_SQRT1_2))));
        tsr_tensor *pdf = sbin(c, TSR_BINOP_MUL, kbeta, un(c, TSR_UNOP_EXP, SMUL(MUL(x, x), -0.5)));
        give(c, gin, 0, MUL(g, bin(c, TSR_BINOP_ADD, cdf, MUL(x, pdf))));
    } else if (x && cpu && (x->dtype == TSR_FLOAT32 || x->dtype == TSR_FLOAT64) && g->dtype == x->dtype) {
        give(c, gin, 0, keep(c, tsr_nn_gelu_tanh_backward(g, x)));   /* GeluBackwardKernelImpl (nn_gelu_grad.c) */
    } else if (x && x->dtype == TSR_BFLOAT16) {   /* 1.13's bfloat16 rounding here is not reproduced yet */
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for 'gelu' (approximate='tanh') of bfloat16 is not "
                      "supported by tsr yet");
        c->fail = true;
    } else {
        const double kbeta = M_SQRT2 * M_2_SQRTPI * 0.5, kkappa = 0.044715;
        tsr_tensor *xsq = MUL(x, x), *xcube = MUL(xsq, x);
        tsr_tensor *inner = sbin(c, TSR_BINOP_MUL, kbeta, bin(c, TSR_BINOP_ADD, x, sbin(c, TSR_BINOP_MUL, kkappa, xcube)));
        tsr_tensor *th;
        if (inner && inner->dtype == TSR_FLOAT32 && !c->fail) {   /* the scalar body's std::tanh(float): libm's, rounded */
            tsr_tensor *id = keep(c, tsr_to_dtype(inner, TSR_FLOAT64, false));
            th = keep(c, c->fail ? NULL : tsr_to_dtype(un(c, TSR_UNOP_TANH, id), TSR_FLOAT32, false));
        } else {
            th = un(c, TSR_UNOP_TANH, inner);
        }
        tsr_tensor *right = sbin(c, TSR_BINOP_ADD, 1.0, th);
        tsr_tensor *tder = sbin(c, TSR_BINOP_SUB, 1.0, MUL(th, th));
        tsr_tensor *ider = sbin(c, TSR_BINOP_MUL, kbeta, sbin(c, TSR_BINOP_ADD, 1.0, sbin(c, TSR_BINOP_MUL, coef(n, 3.0 * coef(n, kkappa)), xsq)));
        /* the scalar body's 0.5 literals are doubles: left, left_derivative,
         * right_derivative and the product with dy are computed in double */
        const tsr_tensor *xd = x, *gd = g;
        if (x && x->dtype != TSR_FLOAT64 && !c->fail) {
            xd = keep(c, tsr_to_dtype(x, TSR_FLOAT64, false));
            gd = keep(c, tsr_to_dtype(g, TSR_FLOAT64, false));
            right = keep(c, c->fail ? NULL : tsr_to_dtype(right, TSR_FLOAT64, false));
            /* 1 - tanh_inner * tanh_inner is contracted to one fma in 1.13's
             * build: the exact square (double), one subtraction, rounded to float */
            tsr_tensor *thd = keep(c, c->fail ? NULL : tsr_to_dtype(th, TSR_FLOAT64, false));
            tder = sbin(c, TSR_BINOP_SUB, 1.0, MUL(thd, thd));
            tder = keep(c, c->fail ? NULL : tsr_to_dtype(tder, TSR_FLOAT32, false));
            tder = keep(c, c->fail ? NULL : tsr_to_dtype(tder, TSR_FLOAT64, false));
            ider = keep(c, c->fail ? NULL : tsr_to_dtype(ider, TSR_FLOAT64, false));
        }
        tsr_tensor *left = sbin(c, TSR_BINOP_MUL, 0.5, xd), *ld = sbin(c, TSR_BINOP_MUL, 0.5, right);
        tsr_tensor *rd = MUL(MUL(left, tder), ider), *r = MUL(gd, bin(c, TSR_BINOP_ADD, ld, rd));
        if (r && !c->fail && r->dtype != g->dtype) r = keep(c, tsr_to_dtype(r, g->dtype, false));
        give(c, gin, 0, r);
    }
    return finish(c, n, gin);
}

/* sigmoid = 1 / (1 + exp(-x)) */
static tsr_tensor *sigm(F *c, const tsr_tensor *x)
{
    return sbin(c, TSR_BINOP_DIV, 1.0, sbin(c, TSR_BINOP_ADD, 1.0, un(c, TSR_UNOP_EXP, un(c, TSR_UNOP_NEG, x))));
}

/* dy * sigmoid * (1 + x * (1 - sigmoid)) */
UNARY_SELF(bw_silu_ops, MUL(MUL(g, sigm(c, x)), sbin(c, TSR_BINOP_ADD, 1.0, MUL(x, sbin(c, TSR_BINOP_SUB, 1.0, sigm(c, x))))))
static int bw_silu(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = selfx(c, n);
    if (c->fail || !x) return finish(c, n, gin);
    if (tsr__ag_creating()) {   /* grad mode on: infinitely_differentiable_silu_backward */
        tsr_tensor *sg = un(c, TSR_UNOP_SIGMOID, x);
        give(c, gin, 0, MUL(MUL(g, sg), sbin(c, TSR_BINOP_ADD, 1.0, MUL(x, sbin(c, TSR_BINOP_SUB, 1.0, sg)))));
        return finish(c, n, gin);
    }
    DEV_ACT_BW(TSR_DACT_SILU, g, x, 0, 0, 0, false);
    if ((x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64) || g->dtype != x->dtype || x->device.type != TSR_DEV_CPU)
        return bw_silu_ops(n, g, gin);   /* bfloat16 rounds after each operation in 1.13 */
    give(c, gin, 0, keep(c, tsr_nn_silu_backward(g, x)));
    return finish(c, n, gin);
}

/* dy * (tanh_softplus + x * sigmoid * (1 - tanh_softplus * tanh_softplus)) */
static int bw_mish(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = selfx(c, n);
    DEV_ACT_BW(TSR_DACT_MISH, g, x, 0, 0, 0, false);
    if (x && (x->dtype == TSR_FLOAT32 || x->dtype == TSR_FLOAT64) && g->dtype == x->dtype && !tsr__ag_creating() &&
        x->device.type == TSR_DEV_CPU) {
        give(c, gin, 0, keep(c, tsr_nn_mish_backward(g, x)));
        return finish(c, n, gin);
    }
    /* (grad mode on: infinitely_differentiable_mish_backward) */
    tsr_tensor *s = tsr__ag_creating() ? un(c, TSR_UNOP_SIGMOID, x) : sigm(c, x);
    tsr_tensor *ts = un(c, TSR_UNOP_TANH, un(c, TSR_UNOP_LOG1P, un(c, TSR_UNOP_EXP, x)));
    give(c, gin, 0, MUL(g, bin(c, TSR_BINOP_ADD, ts, MUL(MUL(x, s), sbin(c, TSR_BINOP_SUB, 1.0, MUL(ts, ts))))));
    return finish(c, n, gin);
}

/* softplus(beta d0, threshold d1): z = exp(x * beta);
 * x * beta > threshold ? dy : dy * z / (z + 1) */
static int bw_softplus(tsr_node *n, const tsr_tensor *g_, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    DEV_ACT_BW(TSR_DACT_SOFTPLUS, g_, SAVED(0), n->a.d0, n->a.d1, 0, false);
    bool bf = g_->dtype == TSR_BFLOAT16;
    tsr_tensor *x = up(c, SAVED(0), bf), *g = up(c, g_, bf), *xb = SMUL(x, n->a.d0), *z = un(c, TSR_UNOP_EXP, xb);
    give(c, gin, 0, down(c, sel(c, cmps(c, TSR_CMP_GT, xb, n->a.d1), g, DIV(MUL(g, z), bins(c, TSR_BINOP_ADD, z, 1.0))),
                         bf));
    return finish(c, n, gin);
}

/* hardtanh(min d0, max d1): x <= min || x >= max ? 0 : dy; 1.13's
 * bfloat16 backward names the kernel it borrows */
static int bw_hardtanh(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (g->dtype == TSR_BFLOAT16 && g->device.type == TSR_DEV_CPU) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"hardshrink_backward_cpu\" not implemented for 'BFloat16'");
        c->fail = true;
        return finish(c, n, gin);
    }
    tsr_tensor *x = SAVED(0);
    give(c, gin, 0, where0(c, OR(cmps(c, TSR_CMP_LE, x, n->a.d0), cmps(c, TSR_CMP_GE, x, n->a.d1)), g, true));
    return finish(c, n, gin);
}

/* channel_shuffle / native_channel_shuffle: 1.13 records a NotImplemented
 * node whose backward raises */
static int bw_not_implemented(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    (void)g;
    tsr_error_set(TSR_ERR_RUNTIME, "derivative for %s is not implemented",
                  strcmp(n->f->key, "channel_shuffle") ? "aten::native_channel_shuffle" : "channel_shuffle");
    c->fail = true;
    return finish(c, n, gin);
}

/* im2col / col2im: kernel, dilation, padding, stride as (h, w) pairs in
 * dims[0..7], im2col's input height and width in dims[8..9]; each one's
 * gradient is the other, recorded as it under create_graph */
static int bw_im2col(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    const int64_t *d = n->a.dims;
    bool im = !strcmp(n->f->key, "im2col");
    const tsr_tensor *in[1] = {g};   /* recorded as the other op (1.13: Col2ImBackward0 / Im2ColBackward0), same args */
    tsr_tensor *r = im ? tsr_nn_col2im(g, d + 8, d, d + 2, d + 4, d + 6) : tsr_nn_im2col(g, d, d + 2, d + 4, d + 6);
    give(c, gin, 0, record_on(c, keep(c, r), im ? "col2im" : "im2col", 1, in, &n->a));
    return finish(c, n, gin);
}

/* glu(dim i0): glu_backward */
static int bw_glu_k(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    if (!c->fail) give(c, gin, 0, keep(c, tsr_nn_glu_backward(g, x, n->a.i0)));
    return finish(c, n, gin);
}
/* A fused backward kernel (plain) under create_graph: its value computed
 * with recording off, recorded as one node KEY_backward over grad_output
 * (nin 1: the upsample kernels) or (grad_output, self) (nin 2: pooling,
 * padding, glu, shrink) that keeps the forward's indices (1.13's
 * MaxPool2DWithIndicesBackwardBackward0, UpsampleNearest1DBackwardBackward1, ...). */
static int kernel_node_bw(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin, tsr_backward_fn plain, int nin)
{
    if (!tsr__ag_creating()) return plain(n, g, gin);
    bool was = tsr__ag_set_creating(false);
    int rc = plain(n, g, gin);
    tsr__ag_set_creating(was);
    if (rc < 0 || !gin[0]) return rc;
    F c0 = {0}, *c = &c0;
    tsr_tensor *out[1] = {gin[0]};
    gin[0] = NULL;
    char key[64];
    snprintf(key, sizeof key, "%s_backward", n->f->key);
    const tsr_tensor *in[2] = {g, nin > 1 ? SAVED(0) : NULL};
    if (tsr__ag_record_backward(c, key, nin, in, &n->a, 1, out) == 0 && n->nextra && tsr_ag_keep(out[0], n->extra[0]) < 0)
        c->fail = true;
    give(c, gin, 0, keep(c, out[0]));
    return finish(c, n, gin);
}
static int pool_bw(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin, tsr_backward_fn plain)
{
    return kernel_node_bw(n, g, gin, plain, 2);
}
static int bw_glu(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin) { return pool_bw(n, g, gin, bw_glu_k); }

/* glu_backward (grad_output, self; dim i0): 1.13's
 * glu_double_backward_grad_output (grad * glu_backward(ones, self), its two
 * halves added) and glu_double_backward */
static int bw_glu_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *gO = SAVED(0), *x = SAVED(1);
    if (c->fail) return finish(c, n, gin);
    int64_t dim = n->a.i0 < 0 ? n->a.i0 + x->ndim : n->a.i0, h = x->sizes[dim] / 2;
    if (NEED(0)) {
        int64_t sz[TSR_MAX_DIMS];
        memcpy(sz, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
        sz[dim] = h;
        tsr_tensor *ones = keep(c, tsr_full(x->ndim, sz, tsr_scalar_float(1.0), x->dtype, x->device));
        tsr_tensor *out[1] = {c->fail ? NULL : tsr_nn_glu_backward(ones, x, dim)};   /* recorded: this node again */
        if (!out[0]) c->fail = true;
        const tsr_tensor *in[2] = {ones, x};
        tsr__ag_record_backward(c, "glu_backward", 2, in, &n->a, 1, out);
        tsr_tensor *tmp = MUL(g, keep(c, out[0]));
        give(c, gin, 0, bin(c, TSR_BINOP_ADD, c->fail ? NULL : keep(c, tsr__ag_narrow(tmp, dim, 0, h)),
                            c->fail ? NULL : keep(c, tsr__ag_narrow(tmp, dim, h, h))));
    }
    if (NEED(1) && !c->fail) {
        tsr_tensor *a = keep(c, tsr__ag_narrow(x, dim, 0, h)), *b = c->fail ? NULL : keep(c, tsr__ag_narrow(x, dim, h, h));
        tsr_tensor *sg = un(c, TSR_UNOP_SIGMOID, b), *osg = sbin(c, TSR_BINOP_SUB, 1.0, sg), *sos = MUL(sg, osg);
        tsr_tensor *g1 = c->fail ? NULL : keep(c, tsr__ag_narrow(g, dim, 0, h));
        tsr_tensor *g2 = c->fail ? NULL : keep(c, tsr__ag_narrow(g, dim, h, h));
        tsr_tensor *g2a = MUL(g2, a);
        tsr_tensor *gi1 = MUL(MUL(g2, gO), sos);
        tsr_tensor *so = bin(c, TSR_BINOP_SUB, MUL(sos, osg), MUL(sg, sos));
        tsr_tensor *gi2 = bin(c, TSR_BINOP_ADD, MUL(MUL(g2a, gO), so), MUL(MUL(g1, gO), sos));
        if (!c->fail) {
            const tsr_tensor *parts[2] = {gi1, gi2};
            tsr_ag_args ca = {0};
            ca.ndims = -1;
            ca.i0 = dim;
            give(c, gin, 1, record_on(c, keep(c, tsr_cat(2, parts, dim, NULL)), "cat", 2, parts, &ca));
        }
    }
    return finish(c, n, gin);
}

/* upsample_nearest{k}d / _upsample_nearest_exact{k}d (.vec): the input's
 * sizes in dims[0..ndim), the scale factors' bits in dims[5..8) (0: none) */
static int bw_upsample_nearest_k(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    double sc[3];
    for (int i = 0; i < 3; i++) memcpy(&sc[i], &n->a.dims[5 + i], sizeof sc[i]);
    bool exact = strstr(n->f->key, "exact") != NULL;
    give(c, gin, 0, keep(c, tsr_nn_upsample_nearest_backward(g, n->a.dims, n->a.flag ? sc : NULL, exact)));
    return finish(c, n, gin);
}

/* upsample_linear1d / bilinear2d / trilinear3d / bicubic2d (.vec): as the
 * nearest ones, align_corners in keepdim */
static int bw_upsample_linear_k(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    double sc[3];
    for (int i = 0; i < 3; i++) memcpy(&sc[i], &n->a.dims[5 + i], sizeof sc[i]);
    const double *scp = n->a.flag ? sc : NULL;
    const char *k = n->f->key;
    give(c, gin, 0, keep(c, strstr(k, "_aa") ? tsr_nn_upsample_aa_backward(g, n->a.dims, scp, n->a.keepdim,
                                                                            strstr(k, "bicubic") != NULL)
                            : !strcmp(k, "upsample_bicubic2d")
                                ? tsr_nn_upsample_bicubic_backward(g, n->a.dims, scp, n->a.keepdim)
                                : tsr_nn_upsample_linear_backward(g, n->a.dims, scp, n->a.keepdim)));
    return finish(c, n, gin);
}

static int bw_upsample_nearest(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    return kernel_node_bw(n, g, gin, bw_upsample_nearest_k, 1);
}
static int bw_upsample_linear(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    return kernel_node_bw(n, g, gin, bw_upsample_linear_k, 1);
}

/* upsample_*_backward (grad_output; the forward's args): grad_output's
 * gradient the forward upsample of grad to grad_output's size, with the
 * forward's scales (1.13: upsample_X(grad, output_size, scale_factors)) */
static int bw_upsample_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    char base[48];
    snprintf(base, sizeof base, "%.*s", (int)(strlen(n->f->key) - 9), n->f->key);
    double sc[3];
    for (int i = 0; i < 3; i++) memcpy(&sc[i], &n->a.dims[5 + i], sizeof sc[i]);
    const double *scp = n->a.flag ? sc : NULL;
    const int64_t *out = n->in_sizes[0] + 2;
    tsr_tensor *r = NULL;
    if (strstr(base, "_aa")) r = tsr_nn_upsample_aa(g, out, scp, n->a.keepdim, strstr(base, "bicubic") != NULL);
    else if (strstr(base, "nearest")) r = tsr_nn_upsample_nearest(g, out, scp, strstr(base, "exact") != NULL);
    else if (strstr(base, "bicubic")) r = tsr_nn_upsample_bicubic(g, out, scp, n->a.keepdim);
    else r = tsr_nn_upsample_linear(g, out, scp, n->a.keepdim);
    const tsr_tensor *in[1] = {g};
    if (NEED(0)) give(c, gin, 0, record_on(c, keep(c, r), base, 1, in, &n->a));
    else tsr_tensor_release(r);
    return finish(c, n, gin);
}

static int bw_pad_mode_k(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
static int bw_pad_mode(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin) { return pool_bw(n, g, gin, bw_pad_mode_k); }

/* reflection_pad / replication_pad{1,2,3}d_backward (grad_output, self):
 * grad_output's gradient the pad of grad, self's zeros */
static int bw_pad_mode_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    char base[48];
    snprintf(base, sizeof base, "%.*s", (int)(strlen(n->f->key) - 9), n->f->key);
    if (NEED(0)) {
        tsr_tensor *r = keep(c, tsr_nn_pad_mode(g, n->a.ndims, n->a.dims, n->a.i0 == 1 ? "reflect" : "replicate", false, 0));
        const tsr_tensor *in[1] = {g};
        give(c, gin, 0, record_on(c, r, base, 1, in, &n->a));
    }
    if (NEED(1) && !c->fail) give(c, gin, 1, zeros_in(c, n, 1, g));
    return finish(c, n, gin);
}

/* affine_grid_generator(size in dims[0..ndims), align_corners in flag):
 * 1.13's affine_grid_generator_4D / _5D_backward, base_grid.view(N, -1,
 * k + 1).transpose(1, 2).bmm(grad.view(N, -1, k)).transpose(1, 2), which
 * under create_graph records ViewBackward0, BmmBackward0, TransposeBackward0 */
static int bw_affine_grid(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (!tsr__ag_creating()) {
        give(c, gin, 0, keep(c, tsr_nn_affine_grid_backward(g, n->a.ndims, n->a.dims, n->a.flag)));
        return finish(c, n, gin);
    }
    tsr_tensor *b = keep(c, tsr_nn_affine_base_flat(g->dtype, g->device, n->a.ndims, n->a.dims, n->a.flag));
    tsr_tensor *bt = transpose(c, b, 1, 2), *m = NULL;
    int64_t gs[3] = {n->a.dims[0], b ? b->sizes[1] : 0, n->a.ndims - 2};
    tsr_tensor *gv = c->fail ? NULL : keep(c, tsr__ag_view(g, 3, gs));
    if (!c->fail) m = keep(c, tsr__ag_bmm(bt, gv));
    give(c, gin, 0, transpose(c, m, 1, 2));
    return finish(c, n, gin);
}

/* A fused backward kernel 1.13 has no derivative for, under create_graph:
 * its results outs[0..nout) recorded as one torch::autograd::NotImplemented
 * node KEY over the tensors of in[0..nin) that require grad (the autograd
 * not-implemented fallback's edges), or over all of them, an absent one an
 * empty edge (codegen's not_implemented rows: all_edges). 0 or -1. */
static int record_not_implemented(F *c, const char *key, int nin, const tsr_tensor *const *in, bool all_edges, int nout,
                                  tsr_tensor **outs)
{
    const tsr_tensor *e[TSR_AG_MAXIN];
    int ne = 0;
    for (int i = 0; i < nin; i++)
        if (all_edges || (in[i] && tsr_tensor_requires_grad(in[i]))) e[ne++] = in[i];
    if (!ne) return 0;
    return tsr__ag_record_backward(c, key, ne, e, NULL, nout, outs);
}

/* grid_sampler_2d / _3d(input, grid; mode i0, padding i1, align_corners flag);
 * under create_graph both results on one NotImplemented node of
 * aten::grid_sampler_2d_backward / _3d_backward (1.13's fallback) */
static int bw_grid_sampler(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *grid = SAVED(1), *gx = NULL, *gg = NULL;
    bool was = tsr__ag_set_creating(false);
    if (!c->fail && tsr_nn_grid_sampler_backward(g, x, grid, (int)n->a.i0, (int)n->a.i1, n->a.flag, NEED(0), &gx, &gg) < 0)
        c->fail = 1;
    tsr__ag_set_creating(was);
    if (!NEED(0)) tsr_tensor_release(gx), gx = NULL;
    if (!NEED(1)) tsr_tensor_release(gg), gg = NULL;
    tsr_tensor *outs[2] = {gx, gg};
    if (!c->fail && was) {
        const tsr_tensor *in[3] = {g, x, grid};
        bool d3 = strcmp(n->f->key, "grid_sampler_2d") != 0;
        const char *key = d3 ? "grid_sampler_3d_backward" : "grid_sampler_2d_backward";
        record_not_implemented(c, key, 3, in, false, 2, outs);
    }
    give(c, gin, 0, outs[0] ? keep(c, outs[0]) : NULL);
    give(c, gin, 1, outs[1] ? keep(c, outs[1]) : NULL);
    return finish(c, n, gin);
}

/* embedding_bag (weight, per_sample_weights): the kernels of nn_misc2.c; under
 * create_graph their results recorded as 1.13's NotImplemented nodes, the
 * per-sample weights' of aten::_embedding_bag_per_sample_weights_backward
 * (fallback edges) first, then the weight's of _embedding_bag_dense_backward
 * over (grad, per_sample_weights), whose backward 1.13 then runs first */
static int bw_embedding_bag(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    if (!tsr__ag_creating()) return tsr__bw_embedding_bag(n, g, gin);
    F c0 = {0}, *c = &c0;
    if (n->a.keepdim && NEED(0) && tsr_tensor_requires_grad(g)) {   /* sparse=True: 1.13 records the sparse path's ops */
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative of %s with sparse=True (a higher-order gradient, "
                      "create_graph=True) is not implemented.", n->name);
        c->fail = true;
        return finish(c, n, gin);
    }
    tsr_tensor *w = SAVED(0), *psw = NEED(1) || n->saved[1].t ? SAVED(1) : NULL;
    if (c->fail) return finish(c, n, gin);
    tsr__ag_set_creating(false);
    int rc = tsr__bw_embedding_bag(n, g, gin);
    tsr__ag_set_creating(true);
    if (rc < 0) return rc;
    tsr_tensor *o1[1] = {gin[1]}, *o0[1] = {gin[0]};
    gin[0] = gin[1] = NULL;
    if (o1[0]) {
        const tsr_tensor *in[2] = {g, w};
        record_not_implemented(c, "_embedding_bag_per_sample_weights_backward", 2, in, false, 1, o1);
    }
    if (o0[0]) {
        const tsr_tensor *in[2] = {g, psw};
        record_not_implemented(c, "_embedding_bag_dense_backward", 2, in, true, 1, o0);
    }
    give(c, gin, 0, o0[0] ? keep(c, o0[0]) : NULL);
    give(c, gin, 1, o1[0] ? keep(c, o1[0]) : NULL);
    return finish(c, n, gin);
}

/* pixel_shuffle / pixel_unshuffle(factor i0): the other one of dy */
static int bw_pixel_shuffle(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    bool up = !strcmp(n->f->key, "pixel_shuffle");
    const tsr_tensor *in[1] = {g};   /* the other op of grad, recorded (PixelUnshuffleBackward0 / PixelShuffleBackward0) */
    give(c, gin, 0, record_on(c, keep(c, up ? tsr_nn_pixel_unshuffle(g, n->a.i0) : tsr_nn_pixel_shuffle(g, n->a.i0)),
                              up ? "pixel_unshuffle" : "pixel_shuffle", 1, in, &n->a));
    return finish(c, n, gin);
}

/* hardshrink / softshrink(lambd d0): shrink_backward, -lambd <= x <= lambd ? 0 : dy */
static int bw_shrink_k(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    if (x && tsr__nn_on_device(x)) {   /* (create_graph records around this, kernel_node_bw) */
        give(c, gin, 0, keep(c, tsr__act_backward_dev(TSR_DACT_HARDSHRINK, g, x, n->a.d0, 0, 0, false)));
        return finish(c, n, gin);
    }
    const char *k = !strcmp(n->f->key, "hardshrink") ? "hardshrink_backward_cpu" : "softshrink_backward_cpu";
    if (!c->fail) give(c, gin, 0, keep(c, tsr_nn_shrink_backward(g, x, n->a.d0, k)));
    return finish(c, n, gin);
}
static int bw_shrink(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin) { return pool_bw(n, g, gin, bw_shrink_k); }

/* hardshrink_backward / softshrink_backward (grad_out, self; lambd d0):
 * grad_out's gradient the same kernel of grad, self's zeros_like(grad) */
static int bw_shrink_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(1);
    bool hard = n->f->key[0] == 'h';
    if (NEED(0) && !c->fail) {
        const tsr_tensor *in[2] = {g, x};
        tsr_tensor *r = keep(c, tsr_nn_shrink_backward(g, x, n->a.d0, hard ? "hardshrink_backward_cpu" : "softshrink_backward_cpu"));
        give(c, gin, 0, record_on(c, r, n->f->key, 2, in, &n->a));
    }
    if (NEED(1) && !c->fail) give(c, gin, 1, keep(c, tsr_zeros_like(g, g->dtype, g->device, TSR_MF_PRESERVE)));
    return finish(c, n, gin);
}

/* rrelu_with_noise(lower d0, upper d1, training flag), the noise kept:
 * rrelu_with_noise_backward(grad, self_or_result, noise, ...) at slot (in
 * place the result stands for self: its sign is self's). Under
 * create_graph one RreluWithNoiseBackwardBackward0 node over (grad,
 * self_or_result) that keeps the noise. */
static int rrelu_bw(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin, int slot)
{
    F c0 = {0}, *c = &c0;
    const tsr_tensor *noise = n->nextra > 0 ? n->extra[0] : NULL;
    if (!noise && n->a.flag) {
        tsr_error_set(TSR_ERR_RUNTIME, "rrelu_with_noise: the noise was not kept");
        c->fail = true;
    }
    bool was = tsr__ag_set_creating(false);
    tsr_tensor *x = SAVED(slot), *r = NULL;
    if (!c->fail) r = keep(c, tsr_nn_rrelu_backward(g, x, noise, n->a.d0, n->a.d1, n->a.flag));
    tsr__ag_set_creating(was);
    if (was && r && !c->fail) {
        if (r == g || r->autograd) r = keep(c, tsr_clone(r, TSR_MF_PRESERVE));   /* the node goes onto r */
        const tsr_tensor *in[2] = {g, SAVED(slot)};
        r = record_on(c, r, "rrelu_with_noise_backward", 2, in, &n->a);
        if (r && noise && tsr_ag_keep(r, noise) < 0) c->fail = true;
    }
    give(c, gin, 0, r);
    return finish(c, n, gin);
}
static int bw_rrelu(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    return rrelu_bw(n, g, gin, strcmp(n->f->key, "rrelu_with_noise") ? TSR_AG_OUT : 0);
}

/* rrelu_with_noise_backward (grad_output, self_or_result; the noise
 * kept): grad_output's gradient the same kernel of grad (recorded again),
 * self's zeros_like(grad) */
static int bw_rrelu_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0)) {
        tsr_tensor *gi[TSR_AG_MAXIN] = {0};
        if (rrelu_bw(n, g, gi, 1) < 0) c->fail = true;
        give(c, gin, 0, gi[0] ? keep(c, gi[0]) : NULL);
        for (int k = 1; k < TSR_AG_MAXIN; k++) tsr_tensor_release(gi[k]);
    }
    if (NEED(1) && !c->fail) give(c, gin, 1, zeros(c, g, g->ndim, g->sizes, g->dtype));
    return finish(c, n, gin);
}

/* leaky_relu(negative_slope d0): x > 0 ? dy : dy * negval */
UNARY_SELF_F(bw_leaky_relu_k, sel(c, cmps(c, TSR_CMP_GT, x, 0.0), g, SMUL(g, n->a.d0)))
static int bw_leaky_relu(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    DEV_ACT_BW(TSR_DACT_LEAKY, g, selfx(c, n), n->a.d0, 0, 0, false);
    finish(c, n, gin);
    return bw_leaky_relu_k(n, g, gin);
}
/* threshold(threshold d0): x <= threshold ? 0 : dy */
UNARY_SELF(bw_threshold, threshold_bw(c, g, x, n->a.d0))   /* ThresholdBackwardBackward0 with create_graph */
/* (x > -3 && x < 3) ? dy * (1 / 6) : 0, 1 / 6 the float 1.0f / 6.0f in
 * every dtype (1.13's hardsigmoid_backward kernel, double included) */
UNARY_SELF_F(bw_hardsigmoid_k, where0(c, AND(cmps(c, TSR_CMP_GT, x, -3.0), cmps(c, TSR_CMP_LT, x, 3.0)),
                                    SMUL(g, (double)(1.0f / 6.0f)), false))

/* hardsigmoid_backward(grad, self): with create_graph the kernel's result
 * recorded over (grad, self) as 1.13 records this op, which has no formula
 * (a torch::autograd::NotImplemented node, whose backward raises) */
static int bw_hardsigmoid(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    if (!tsr__ag_creating()) {
        F c0 = {0}, *c = &c0;
        DEV_ACT_BW(TSR_DACT_HARDSIGMOID, g, selfx(c, n), 0, 0, 0, false);
        finish(c, n, gin);
        return bw_hardsigmoid_k(n, g, gin);
    }
    bool was = tsr__ag_set_creating(false);
    int rc = bw_hardsigmoid_k(n, g, gin);
    tsr__ag_set_creating(was);
    if (rc < 0 || !gin[0]) return rc;
    F c0 = {0}, *c = &c0;
    const tsr_tensor *x = selfx(c, n), *in[2];
    int k = 0;   /* the node's edges: those of the inputs that require grad */
    if (tsr_tensor_requires_grad(g)) in[k++] = g;
    if (x && tsr_tensor_requires_grad(x)) in[k++] = x;
    if (!c->fail && k && tsr_ag_record("hardsigmoid_backward", k, (tsr_tensor *const *)in, NULL, gin[0], false) < 0)
        c->fail = true;
    return finish(c, n, gin);
}

/* x < -3 ? 0 : x <= 3 ? dy * ((x / 3) + 0.5) : dy */
static int bw_hardswish(tsr_node *n, const tsr_tensor *g_, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    DEV_ACT_BW(TSR_DACT_HARDSWISH, g_, selfx(c, n), 0, 0, 0, false);
    bool bf = g_->dtype == TSR_BFLOAT16;
    tsr_tensor *x = up(c, selfx(c, n), bf), *g = up(c, g_, bf);
    tsr_tensor *mid = MUL(g, bins(c, TSR_BINOP_ADD, bins(c, TSR_BINOP_DIV, x, 3.0), 0.5));
    give(c, gin, 0, down(c, where0(c, cmps(c, TSR_CMP_LT, x, -3.0), sel(c, cmps(c, TSR_CMP_LE, x, 3.0), mid, g), true),
                         bf));
    return finish(c, n, gin);
}

/* log_sigmoid_backward with buffer = exp(-|x|):
 * (max_deriv - sign * (b / (1 + b))) * dy, max_deriv / sign 1 / 1 for x < 0, else 0 / -1 */
static int bw_log_sigmoid(tsr_node *n, const tsr_tensor *g_, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    DEV_ACT_BW(TSR_DACT_LOG_SIGMOID, g_, SAVED(0), 0, 0, 0, false);
    bool bf = g_->dtype == TSR_BFLOAT16;
    tsr_tensor *x = up(c, SAVED(0), bf), *g = up(c, g_, bf);
    tsr_tensor *b = un(c, TSR_UNOP_EXP, un(c, TSR_UNOP_NEG, un(c, TSR_UNOP_ABS, x)));
    b = up(c, down(c, b, bf), bf);   /* bfloat16: the forward's buffer, stored as bfloat16 */
    tsr_tensor *q = DIV(b, sbin(c, TSR_BINOP_ADD, 1.0, b));
    give(c, gin, 0, down(c, MUL(sel(c, cmps(c, TSR_CMP_LT, x, 0.0), sbin(c, TSR_BINOP_SUB, 1.0, q), q), g), bf));
    return finish(c, n, gin);
}

/* the losses' norm: 1 / numel for 'mean' (reduction in i0), else 1 */
static double loss_norm(const tsr_node *n, double k)
{
    if (n->a.i0 != TSR_REDUCTION_MEAN) return k;
    int64_t numel = 1;
    for (int d = 0; d < n->in_nd[0]; d++) numel *= n->in_sizes[0][d];
    return k / (double)numel;
}

/* mse_loss_backward(grad, x, t): norm * (x - t) * grad (MseLossBackwardBackward0
 * with create_graph: norm d0, reduction i0) */
static tsr_tensor *mse_bw(F *c, const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *t, double norm, int64_t red)
{
    if (c->fail || !g || !x || !t) return NULL;
    bool was = tsr__ag_set_creating(false);
    tsr_tensor *r = MUL(sbin(c, TSR_BINOP_MUL, norm, bin(c, TSR_BINOP_SUB, x, t)), g);
    tsr__ag_set_creating(was);
    tsr_ag_args a = {0};
    a.ndims = -1;
    a.d0 = norm;
    a.i0 = red;
    const tsr_tensor *in[3] = {g, x, t};
    return record_on(c, r, "mse_loss_backward", 3, in, &a);
}
/* self: mse_loss_backward(grad, self, target); target: mse_loss_backward(grad, target, self) */
static int bw_mse_loss(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    double norm = coef(n, loss_norm(n, 2.0));
    if (NEED(0)) give(c, gin, 0, mse_bw(c, g, SAVED(0), SAVED(1), norm, n->a.i0));
    if (NEED(1)) give(c, gin, 1, mse_bw(c, g, SAVED(1), SAVED(0), norm, n->a.i0));
    return finish(c, n, gin);
}
/* mse_loss_double_backward(v, input): 2 * v, divided by input's numel for 'mean' */
static tsr_tensor *mse_double(F *c, const tsr_tensor *v, const tsr_tensor *input, int64_t red)
{
    tsr_tensor *r = sbin(c, TSR_BINOP_MUL, 2.0, v);
    if (red == TSR_REDUCTION_MEAN && input) r = bins(c, TSR_BINOP_DIV, r, (double)tsr_tensor_numel(input));
    return r;
}
/* its own backward: inputs (grad_output, self, target) */
static int bw_mse_loss_backward(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *go = SAVED(0), *x = SAVED(1), *t = SAVED(2);
    if (NEED(0)) give(c, gin, 0, mse_bw(c, g, x, t, n->a.d0, n->a.i0));
    if (NEED(1)) give(c, gin, 1, mse_double(c, MUL(g, go), x, n->a.i0));
    if (NEED(2)) give(c, gin, 2, un(c, TSR_UNOP_NEG, mse_double(c, MUL(g, go), t, n->a.i0)));
    return finish(c, n, gin);
}

/* The elements of a pointwise loss backward (x = input - target) that
 * 1.13's cpu_kernel_vec gives to the scalar body: past the last whole
 * 2 * Vec::size() chunk of contiguous inputs, every element of strided
 * ones (a bool mask of x's shape), or NULL when none (or on failure). */
static tsr_tensor *loss_tail(F *c, const tsr_tensor *x, const tsr_tensor *in0, const tsr_tensor *in1)
{
    if (c->fail || !x || !in0 || !in1 || tsr_tensor_numel(x) == 0) return NULL;
    if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64) return NULL;
    if (x->device.type != TSR_DEV_CPU) return NULL;   /* CUDA's kernels have one body */
    int64_t numel = tsr_tensor_numel(x), step = x->dtype == TSR_FLOAT64 ? 8 : 16;
    bool vec = tsr_tensor_is_contiguous(in0) && tsr_tensor_is_contiguous(in1) && tsr__sleef_usable();
    int64_t vend = vec ? numel - numel % step : 0;
    if (vend == numel) return NULL;
    tsr_tensor *m = keep(c, tsr_zeros(x->ndim, x->sizes, TSR_BOOL, TSR_CPU));
    int64_t len = numel;
    tsr_tensor *flat = m ? keep(c, tsr_view_view(m, 1, &len)) : NULL;
    tsr_tensor *tail = flat ? keep(c, tsr_view_narrow(flat, 0, vend, numel - vend)) : NULL;
    if (tail && tsr_fill_(tail, tsr_scalar_bool(true)) < 0) c->fail = true;
    return c->fail ? NULL : m;
}

/* (v as double) OP d, rounded back to v's dtype: a scalar body mixing its
 * scalar_t with a double parameter */
static tsr_tensor *dbl_op(F *c, tsr_binop op, const tsr_tensor *v, double d)
{
    if (c->fail || !v) return NULL;
    tsr_tensor *vd = keep(c, tsr_to_dtype(v, TSR_FLOAT64, false));
    tsr_tensor *q = bins(c, op, vd, d);
    return q ? keep(c, tsr_to_dtype(q, v->dtype, false)) : NULL;
}

/* smooth_l1_backward (beta d0), its vector body: x = self - target;
 * norm * (|x| >= beta ? (x > 0 ? 1 : -1) : x / beta) * grad */
static int bw_smooth_l1_k(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = bin(c, TSR_BINOP_SUB, SAVED(0), SAVED(1));
    tsr_tensor *one = NULL, *mone = NULL;
    if (!c->fail) {
        one = keep(c, tsr_full(0, NULL, tsr_scalar_float(1.0), x->dtype, x->device));
        mone = keep(c, tsr_full(0, NULL, tsr_scalar_float(-1.0), x->dtype, x->device));
    }
    double beta = coef(n, n->a.d0), norm = coef(n, loss_norm(n, 1.0));   /* scalar_t beta_val(beta) */
    tsr_tensor *pn = sel(c, cmps(c, TSR_CMP_GT, x, 0.0), one, mone);
    tsr_tensor *o = sel(c, cmps(c, TSR_CMP_GE, un(c, TSR_UNOP_ABS, x), beta), pn, bins(c, TSR_BINOP_DIV, x, beta));
    tsr_tensor *r = MUL(sbin(c, TSR_BINOP_MUL, norm, o), g);
    /* 1.13's kernel is cpu_kernel_vec: the blend above on whole 2 * Vec::size()
     * chunks of contiguous inputs; the rest (and strided inputs) take its
     * scalar body, whose middle case is norm * x * grad / beta */
    tsr_tensor *m = loss_tail(c, x, SAVED(0), SAVED(1));
    {
        if (m) {
            /* ... / beta with the double beta, as are the scalar body's comparisons */
            double bd = n->a.d0;
            tsr_tensor *mid = dbl_op(c, TSR_BINOP_DIV, MUL(sbin(c, TSR_BINOP_MUL, norm, x), g), bd);
            tsr_tensor *xd = c->fail ? NULL : keep(c, tsr_to_dtype(x, TSR_FLOAT64, false));
            tsr_tensor *sc = sel(c, cmps(c, TSR_CMP_LE, xd, -bd), sbin(c, TSR_BINOP_MUL, -norm, g),
                                 sel(c, cmps(c, TSR_CMP_GE, xd, bd), sbin(c, TSR_BINOP_MUL, norm, g), mid));
            r = sel(c, m, sc, r);
        }
    }
    if (NEED(0)) give(c, gin, 0, r);
    if (NEED(1)) give(c, gin, 1, un(c, TSR_UNOP_NEG, r));
    return finish(c, n, gin);
}

/* huber_backward (delta d0): x <= -delta ? -norm * grad * delta :
 * x >= delta ? norm * grad * delta : norm * x * grad */
static int bw_huber_k(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    double norm = coef(n, loss_norm(n, 1.0)), d = coef(n, n->a.d0);   /* scalar_t delta_val(delta) */
    tsr_tensor *x = bin(c, TSR_BINOP_SUB, SAVED(0), SAVED(1));
    /* the vector body: norm * clamp(x, -delta, delta) * grad, the clamped value -1 * delta or 1 * delta */
    tsr_tensor *lo = sbin(c, TSR_BINOP_MUL, coef(n, norm * -d), g), *hi = sbin(c, TSR_BINOP_MUL, coef(n, norm * d), g);
    tsr_tensor *mid = MUL(sbin(c, TSR_BINOP_MUL, norm, x), g);
    tsr_tensor *r = sel(c, cmps(c, TSR_CMP_LE, x, -d), lo, sel(c, cmps(c, TSR_CMP_GE, x, d), hi, mid));
    tsr_tensor *m = loss_tail(c, x, SAVED(0), SAVED(1));
    if (m) {   /* the scalar body: its delta is the double parameter */
        double dd = n->a.d0;
        tsr_tensor *xd = keep(c, tsr_to_dtype(x, TSR_FLOAT64, false));
        tsr_tensor *slo = dbl_op(c, TSR_BINOP_MUL, sbin(c, TSR_BINOP_MUL, -norm, g), dd);
        tsr_tensor *shi = dbl_op(c, TSR_BINOP_MUL, sbin(c, TSR_BINOP_MUL, norm, g), dd);
        r = sel(c, m, sel(c, cmps(c, TSR_CMP_LE, xd, -dd), slo, sel(c, cmps(c, TSR_CMP_GE, xd, dd), shi, mid)), r);
    }
    if (NEED(0)) give(c, gin, 0, r);
    if (NEED(1)) give(c, gin, 1, un(c, TSR_UNOP_NEG, r));
    return finish(c, n, gin);
}

/* binary_cross_entropy_backward: grad * (input - target) /
 * max((1 - input) * input, EPSILON), times weight, / numel for 'mean'.
 * Inputs (self, target[, weight]). */
/* A loss kernel's value (plain, the formula on (grad, self, target)) at
 * self (swap: at (grad, target, self)), recording off. NULL on failure. */
static tsr_tensor *loss_kernel(F *c, tsr_node *n, int s0, int s1, const tsr_tensor *g, tsr_backward_fn plain,
                               const tsr_formula *f)
{
    if (c->fail) return NULL;
    tsr_node tmp = *n;
    int from[2] = {s0, s1};
    for (int k = 0; k < 2; k++) {
        tmp.saved[k] = n->saved[from[k]];
        tmp.in_nd[k] = n->in_nd[from[k]];
        memcpy(tmp.in_sizes[k], n->in_sizes[from[k]], sizeof tmp.in_sizes[k]);
        tmp.in_dtype[k] = n->in_dtype[from[k]];
        tmp.in_present[k] = true;
    }
    tmp.f = f;
    tmp.nnext = 2;
    tmp.next[0].node = n;   /* wanted */
    tmp.next[1].node = NULL;
    tsr_tensor *gi[TSR_AG_MAXIN] = {0};
    bool was = tsr__ag_set_creating(false);
    int rc = plain(&tmp, g, gi);
    tsr__ag_set_creating(was);
    for (int k = 1; k < TSR_AG_MAXIN; k++) tsr_tensor_release(gi[k]);
    if (rc < 0 || !gi[0]) {
        tsr_tensor_release(gi[0]);
        c->fail = true;
        return NULL;
    }
    return gi[0];
}

/* smooth_l1_loss / huber_loss: self's gradient the kernel at (grad, self,
 * target), target's the kernel at (grad, target, self) (1.13's formulas);
 * under create_graph each one node SmoothL1LossBackwardBackward0 /
 * HuberLossBackwardBackward0 over those three. */
static int loss_bw(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin, tsr_backward_fn plain, const char *bkey)
{
    if (!tsr__ag_creating()) return plain(n, g, gin);
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *t = SAVED(1);
    for (int side = 0; side < 2 && !c->fail; side++) {
        if (!NEED(side)) continue;
        tsr_tensor *out[1] = {loss_kernel(c, n, side, 1 - side, g, plain, n->f)};
        const tsr_tensor *in[3] = {g, side ? t : x, side ? x : t};
        tsr__ag_record_backward(c, bkey, 3, in, &n->a, 1, out);
        give(c, gin, side, keep(c, out[0]));
    }
    return finish(c, n, gin);
}
static int bw_smooth_l1(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    return loss_bw(n, g, gin, bw_smooth_l1_k, "smooth_l1_loss_backward");
}
static int bw_huber(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    return loss_bw(n, g, gin, bw_huber_k, "huber_loss_backward");
}

/* smooth_l1_loss_backward / huber_loss_backward (grad_output, self,
 * target): grad_output's gradient the kernel at (grad, self, target)
 * (huber, reduced: (kernel(ones) * grad).sum()); self's
 * X_double_backward(grad * grad_output, self, target): (grad *
 * grad_output) * (|self - target| < beta) / beta (smooth_l1; huber without
 * / beta) [/ numel]; target's its negation. */
static int bw_loss_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    bool huber = n->f->key[0] == 'h';
    tsr_backward_fn plain = huber ? bw_huber_k : bw_smooth_l1_k;
    const tsr_formula *base = tsr__ag_formula(huber ? "huber_loss" : "smooth_l1_loss");
    tsr_tensor *gO = SAVED(0), *x = SAVED(1), *t = SAVED(2);
    double p = n->a.d0;
    if (NEED(0) && !c->fail) {   /* the kernel again, recorded as this node over (grad, self, target) */
        bool ones_ = huber && n->a.i0 != TSR_REDUCTION_NONE;
        tsr_tensor *go = ones_ ? keep(c, tsr_full(gO->ndim, gO->sizes, tsr_scalar_float(1.0), gO->dtype, gO->device)) : NULL;
        if (!ones_) go = (tsr_tensor *)g;
        tsr_tensor *out[1] = {go ? loss_kernel(c, n, 1, 2, go, plain, base) : NULL};
        const tsr_tensor *in[3] = {go, x, t};
        tsr__ag_record_backward(c, n->f->key, 3, in, &n->a, 1, out);
        tsr_tensor *r = keep(c, out[0]);
        if (ones_) {   /* huber_loss_double_backward_grad_output: (kernel(ones) * grad).sum() */
            tsr_dims all = {.n = -1};
            r = c->fail ? NULL : keep(c, tsr__ag_sum(MUL(r, g), &all, false));
        }
        give(c, gin, 0, r);
    }
    if ((NEED(1) || NEED(2)) && !c->fail) {
        tsr_tensor *gg = MUL(g, gO);
        tsr_tensor *m = cmps(c, TSR_CMP_LT, un(c, TSR_UNOP_ABS, bin(c, TSR_BINOP_SUB, x, t)), p);
        tsr_tensor *r;
        if (huber) {
            r = MUL(gg, m);
        } else if (p == 0) {
            r = c->fail ? NULL : keep(c, tsr_zeros(g->ndim, g->sizes, g->dtype, g->device));
        } else {
            r = bins(c, TSR_BINOP_DIV, MUL(gg, c->fail ? NULL : keep(c, tsr_to_dtype(m, g->dtype, false))), p);
        }
        if (n->a.i0 == TSR_REDUCTION_MEAN && r) r = bins(c, TSR_BINOP_DIV, r, (double)tsr_tensor_numel(x));
        if (NEED(1)) give(c, gin, 1, r);
        if (NEED(2)) give(c, gin, 2, un(c, TSR_UNOP_NEG, r));
    }
    return finish(c, n, gin);
}

/* binary_cross_entropy_backward (grad_output, self, target; the weight
 * kept): 1.13's binary_cross_entropy_double_backward_grad_output,
 * _double_backward and _double_backward_target (eps 1e-12) */
static int bw_bce_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *gO = SAVED(0), *x = SAVED(1), *t = SAVED(2), *w = n->nextra ? n->extra[0] : NULL;
    const double eps = 1e-12;
    double numel = x ? (double)tsr_tensor_numel(x) : 1;
    bool mean = n->a.i0 == TSR_REDUCTION_MEAN;
    if (NEED(0) && !c->fail) {   /* (x - t) / ((x + eps) * (1 - x + eps)) * grad */
        tsr_tensor *d = MUL(bins(c, TSR_BINOP_ADD, x, eps), bins(c, TSR_BINOP_ADD, sbin(c, TSR_BINOP_SUB, 1.0, x), eps));
        tsr_tensor *r = bin_(c, TSR_BINOP_MUL, DIV(bin(c, TSR_BINOP_SUB, x, t), d), g);   /* ggO *= grad */
        if (w) r = MUL(r, w);
        if (mean) r = bins(c, TSR_BINOP_DIV, r, numel);
        give(c, gin, 0, r);
    }
    if (NEED(1) && !c->fail) {   /* (x*x - 2*x*t + t) / ((x + eps)^2 * (1 - x + eps)^2) * (grad * grad_output) */
        tsr_tensor *a = bins(c, TSR_BINOP_ADD, x, eps), *b = bins(c, TSR_BINOP_ADD, sbin(c, TSR_BINOP_SUB, 1.0, x), eps);
        tsr_tensor *num = bin(c, TSR_BINOP_ADD, bin(c, TSR_BINOP_SUB, MUL(x, x), MUL(bins(c, TSR_BINOP_MUL, x, 2.0), t)), t);
        tsr_tensor *den = MUL(bins(c, TSR_BINOP_POW, a, 2.0), bins(c, TSR_BINOP_POW, b, 2.0));
        tsr_tensor *r = bin_(c, TSR_BINOP_MUL, DIV(num, den), MUL(g, gO));   /* gI *= grad * grad_output */
        if (w) r = MUL(r, w);
        if (mean) r = bins(c, TSR_BINOP_DIV, r, numel);
        give(c, gin, 1, r);
    }
    if (NEED(2) && !c->fail) {   /* -grad * grad_output [* weight] / max((1 - x) * x, eps) */
        tsr_tensor *r = MUL(un(c, TSR_UNOP_NEG, g), gO);
        if (w) r = MUL(r, w);
        tsr_operand e = tsr_operand_scalar(tsr_scalar_float(eps));
        tsr_tensor *den = bin_(c, TSR_BINOP_MUL, sbin(c, TSR_BINOP_SUB, 1.0, x), x);   /* neg_self.mul_(self) */
        if (den && !c->fail) {   /* denom.clamp_min_(eps) under NoGradGuard: the values, not the graph */
            tsr_tensor *cl = tsr_clamp_bound(den, &e, false, NULL, true);
            if (!cl) c->fail = true;
            tsr_tensor_release(cl);
        }
        r = bin_(c, TSR_BINOP_DIV, r, den);   /* res.div_(denom) */
        if (mean) r = bins(c, TSR_BINOP_DIV, r, t ? (double)tsr_tensor_numel(t) : 1);
        give(c, gin, 2, r);
    }
    return finish(c, n, gin);
}

/* binary_cross_entropy_backward(grad, self, target, weight, reduction):
 * grad * (x - t) / max((1 - x) * x, EPSILON) [* weight] [/ numel] */
static int bw_bce_k(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *t = SAVED(1), *r = NULL;
    if (!c->fail) {
        tsr_operand eps = tsr_operand_scalar(tsr_scalar_float(1e-12));
        tsr_tensor *p = MUL(sbin(c, TSR_BINOP_SUB, 1.0, x), x);
        tsr_tensor *m = p ? keep(c, tsr_clamp_bound(p, &eps, false, NULL, false)) : NULL;
        r = DIV(MUL(g, bin(c, TSR_BINOP_SUB, x, t)), m);
    }
    if (n->nextra > 0) r = MUL(r, n->extra[0]);
    if (n->a.i0 == TSR_REDUCTION_MEAN && x) r = bins(c, TSR_BINOP_DIV, r, (double)tsr_tensor_numel(x));
    give(c, gin, 0, r);
    return finish(c, n, gin);
}

/* binary_cross_entropy: self's gradient the kernel above (under
 * create_graph one BinaryCrossEntropyBackwardBackward0 node over (grad,
 * self, target) keeping the weight); target's 1.13's
 * binary_cross_entropy_target_backward: (log(1 - self) - log(self)) *
 * grad [* weight] [/ numel] */
static int bw_bce(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *t = SAVED(1);
    if (NEED(0) && !c->fail) {
        tsr_tensor *gi[TSR_AG_MAXIN] = {0};
        tsr_node tmp = *n;
        tmp.next[1].node = NULL;
        bool was = tsr__ag_set_creating(false);
        if (bw_bce_k(&tmp, g, gi) < 0) c->fail = true;
        tsr__ag_set_creating(was);
        tsr_tensor *out[1] = {gi[0]};
        if (!c->fail && was) {
            const tsr_tensor *in[3] = {g, x, t};
            if (tsr__ag_record_backward(c, "binary_cross_entropy_backward", 3, in, &n->a, 1, out) == 0 && n->nextra &&
                tsr_ag_keep(out[0], n->extra[0]) < 0)
                c->fail = true;
        }
        give(c, gin, 0, keep(c, out[0]));
    }
    if (NEED(1) && !c->fail) {
        /* (1 - self).log_().sub_(self.log()) */
        tsr_tensor *l1 = sbin(c, TSR_BINOP_SUB, 1.0, x);
        l1 = c->fail ? NULL : keep(c, tsr__ag_unary_(TSR_UNOP_LOG, l1));
        tsr_tensor *gt = bin(c, TSR_BINOP_SUB, l1, un(c, TSR_UNOP_LOG, x));
        gt = bin_(c, TSR_BINOP_MUL, gt, g);   /* grad_target.mul_(grad) */
        if (n->nextra > 0) gt = MUL(gt, n->extra[0]);
        if (n->a.i0 == TSR_REDUCTION_MEAN && t) gt = bins(c, TSR_BINOP_DIV, gt, (double)tsr_tensor_numel(t));
        give(c, gin, 1, gt);
    }
    return finish(c, n, gin);
}

/* binary_cross_entropy_with_logits_backward; inputs (self, target), extra
 * weight / pos_weight (i1 bit 0 / bit 1 say which are kept):
 * pos_weight: t = pos_weight * target, (t + 1 - target) * sigmoid(x) - t;
 * else sigmoid(x) - target; times grad, times weight, / numel for 'mean' */
static int bw_bce_logits(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *t = SAVED(1), *r;
    const tsr_tensor *w = (n->a.i1 & 1) ? n->extra[0] : NULL, *pw = (n->a.i1 & 2) ? n->extra[(n->a.i1 & 1) ? 1 : 0] : NULL;
    if (NEED(1) && !c->fail) {   /* binary_cross_entropy_with_logits_target_backward */
        tsr_tensor *gt;
        if (pw) {   /* (log_sigmoid(-self) - log_sigmoid(self) * pos_weight) * grad */
            tsr_tensor *ln = keep(c, tsr_nn_log_sigmoid(un(c, TSR_UNOP_NEG, x)));
            tsr_tensor *lp = keep(c, tsr_nn_log_sigmoid(x));
            gt = MUL(bin(c, TSR_BINOP_SUB, ln, MUL(lp, pw)), g);
        } else {
            gt = MUL(un(c, TSR_UNOP_NEG, x), g);
        }
        if (w) gt = MUL(gt, w);
        if (n->a.i0 == TSR_REDUCTION_MEAN && t) gt = bins(c, TSR_BINOP_DIV, gt, (double)tsr_tensor_numel(t));
        give(c, gin, 1, gt);
    }
    tsr_tensor *sg = un(c, TSR_UNOP_SIGMOID, x);
    if (pw) {
        tsr_tensor *pt = MUL(pw, t);
        r = bin(c, TSR_BINOP_SUB, MUL(bin(c, TSR_BINOP_SUB, bins(c, TSR_BINOP_ADD, pt, 1.0), t), sg), pt);
    } else {
        r = bin(c, TSR_BINOP_SUB, sg, t);
    }
    r = MUL(r, g);
    if (w) r = MUL(r, w);
    if (n->a.i0 == TSR_REDUCTION_MEAN && x) r = bins(c, TSR_BINOP_DIV, r, (double)tsr_tensor_numel(x));
    if (NEED(0)) give(c, gin, 0, r);
    return finish(c, n, gin);
}

/* nll_loss2d_backward: as nll_loss's (NllLoss2DBackwardBackward0 with
 * create_graph, over (grad, self), keeping target and weight) */
static int bw_nll_loss2d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    if (!c->fail) {
        const tsr_tensor *w = n->nextra > 1 ? n->extra[1] : NULL;
        tsr_tensor *r = keep(c, tsr_nn_nll_loss2d_backward(g, x, n->extra[0], w, (tsr_reduction)n->a.i0, n->a.i1,
                                                           n->a.d0));
        const tsr_tensor *in[2] = {g, x};
        r = record_on(c, r, "nll_loss2d_backward", 2, in, &n->a);
        for (int k = 0; r && tsr__ag_creating() && k < n->nextra && !c->fail; k++)
            if (tsr_ag_keep(r, n->extra[k]) < 0) c->fail = true;
        give(c, gin, 0, r);
    }
    return finish(c, n, gin);
}
/* its own backward: grad_output's nll_loss2d(grad, target, weight, ...)
 * (NllLoss2DBackward0), self's zeros */
static int bw_nll_loss2d_backward(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (n->nextra < 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "NllLoss2DBackwardBackward0: the target was not kept");
        c->fail = true;
    }
    if (NEED(0) && !c->fail) {
        const tsr_tensor *w = n->nextra > 1 ? n->extra[1] : NULL;
        double tw = 0;
        tsr_tensor *r = keep(c, tsr_nn_nll_loss2d(g, n->extra[0], w, (tsr_reduction)n->a.i0, n->a.i1, &tw));
        tsr_ag_args a = n->a;
        a.d0 = tw;
        const tsr_tensor *in[1] = {g};
        r = record_on(c, r, "nll_loss2d", 1, in, &a);
        for (int k = 0; r && tsr__ag_creating() && k < n->nextra && !c->fail; k++)
            if (tsr_ag_keep(r, n->extra[k]) < 0) c->fail = true;
        give(c, gin, 0, r);
    }
    if (NEED(1)) give(c, gin, 1, zeros(c, g, g->ndim, g->sizes, g->dtype));
    return finish(c, n, gin);
}

/* multi_margin_loss_backward: input self (saved); extra target[, weight];
 * reduction i0, p i1, margin d0. Under create_graph 1.13 records the
 * kernel as a torch::autograd::NotImplemented node over (grad, self). */
static int bw_multi_margin_loss_k(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    if (!c->fail) {
        const tsr_tensor *w = n->nextra > 1 ? n->extra[1] : NULL;
        give(c, gin, 0, keep(c, tsr_nn_multi_margin_loss_backward(g, x, n->extra[0], (int)n->a.i1, n->a.d0, w,
                                                                  (tsr_reduction)n->a.i0)));
    }
    return finish(c, n, gin);
}

/* multilabel_margin_loss_backward: input self (saved); extra target; reduction i0 */
static int bw_multilabel_margin_loss_k(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    if (!c->fail)
        give(c, gin, 0, keep(c, tsr_nn_multilabel_margin_loss_backward(g, x, n->extra[0], (tsr_reduction)n->a.i0)));
    return finish(c, n, gin);
}
static int bw_multi_margin_loss(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    return pool_bw(n, g, gin, bw_multi_margin_loss_k);
}
static int bw_multilabel_margin_loss(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    return pool_bw(n, g, gin, bw_multilabel_margin_loss_k);
}

/* _pdist_backward: input self (saved), the result (saved); p d0. Under
 * create_graph the kernel's value is recorded as 1.13's
 * PdistBackwardBackward0 over (grad, self, result), whose own derivative
 * 1.13 does not implement (bw_fused_not_implemented). */
static int bw_pdist(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *r = SAVED(TSR_AG_OUT);
    if (c->fail) return finish(c, n, gin);
    bool was = tsr__ag_set_creating(false);
    tsr_tensor *out[1] = {keep(c, tsr_pdist_backward(g, x, n->a.d0, r))};
    tsr__ag_set_creating(was);
    if (was && out[0]) {
        const tsr_tensor *in[3] = {g, x, r};
        tsr_tensor_retain(out[0]);   /* the recorder may replace it by a copy */
        tsr__ag_record_backward(c, "pdist_backward", 3, in, &n->a, 1, out);
        if (!c->fail) keep(c, out[0]);
        else tsr_tensor_release(out[0]);
    }
    give(c, gin, 0, c->fail ? NULL : out[0]);
    return finish(c, n, gin);
}

/* _pdist_backward / _cdist_backward as nodes (PdistBackwardBackward0,
 * CdistBackwardBackward0): 1.13's derivatives.yaml has no formula for
 * either, so differentiating them raises its not_implemented error */
static int bw_fused_not_implemented(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    (void)g;
    tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for '_%s' is not implemented.", n->f->key);
    c->fail = true;
    return finish(c, n, gin);
}

/* soft_margin_loss_backward: input self (saved); extra target; reduction
 * i0 (SoftMarginLossBackwardBackward0 over (grad, self) with create_graph) */
static int bw_soft_margin_loss_k(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    if (!c->fail) give(c, gin, 0, keep(c, tsr_nn_soft_margin_loss_backward(g, x, n->extra[0], (tsr_reduction)n->a.i0)));
    return finish(c, n, gin);
}
static int bw_soft_margin_loss(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    return pool_bw(n, g, gin, bw_soft_margin_loss_k);
}

/* soft_margin_loss_backward (grad_output, self; target kept): 1.13's
 * soft_margin_loss_double_backward_grad_output (the kernel again; reduced:
 * (kernel(ones) * grad).sum()) and soft_margin_loss_double_backward:
 * z = (self * -target).exp(), (grad * grad_output) * (target * target) * z /
 * ((z + 1) * (z + 1)) [/= numel] */
static int bw_soft_margin_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *gO = SAVED(0), *x = SAVED(1), *t = n->nextra ? n->extra[0] : NULL;
    if (!t && !c->fail) {
        tsr_error_set(TSR_ERR_RUNTIME, "SoftMarginLossBackwardBackward0: the target was not kept");
        c->fail = true;
    }
    bool red = n->a.i0 != TSR_REDUCTION_NONE;
    if (NEED(0) && !c->fail) {
        tsr_tensor *go = red ? keep(c, tsr_full(gO->ndim, gO->sizes, tsr_scalar_float(1.0), gO->dtype, gO->device)) : (tsr_tensor *)g;
        tsr_tensor *out[1] = {go ? tsr_nn_soft_margin_loss_backward(go, x, t, (tsr_reduction)n->a.i0) : NULL};
        if (!out[0]) c->fail = true;
        const tsr_tensor *in[2] = {go, x};
        if (tsr__ag_record_backward(c, "soft_margin_loss_backward", 2, in, &n->a, 1, out) == 0 && out[0] &&
            tsr_ag_keep(out[0], t) < 0)
            c->fail = true;
        tsr_tensor *r = keep(c, out[0]);
        if (red) {
            tsr_dims all = {.n = -1};
            r = c->fail ? NULL : keep(c, tsr__ag_sum(MUL(r, g), &all, false));
        }
        give(c, gin, 0, r);
    }
    if (NEED(1) && !c->fail) {
        tsr_tensor *nt = keep(c, tsr_unary(TSR_UNOP_NEG, t, NULL, NULL)), *tt = MUL(t, t);
        tsr_tensor *z = un(c, TSR_UNOP_EXP, MUL(x, nt)), *z1 = bins(c, TSR_BINOP_ADD, z, 1.0);
        tsr_tensor *r = DIV(MUL(MUL(MUL(g, gO), tt), z), MUL(z1, z1));
        if (n->a.i0 == TSR_REDUCTION_MEAN && x) r = bins(c, TSR_BINOP_DIV, r, (double)tsr_tensor_numel(x));
        give(c, gin, 1, r);
    }
    return finish(c, n, gin);
}

/* nll_loss_backward: input self; extra target[, weight]; reduction i0,
 * ignore_index i1, the forward's total weight d0. With create_graph:
 * NllLossBackwardBackward0 over (grad, self), keeping target and weight. */
static int bw_nll_loss(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    if (!c->fail) {
        const tsr_tensor *w = n->nextra > 1 ? n->extra[1] : NULL;
        tsr_tensor *r = keep(c, tsr_nn_nll_loss_backward(g, x, n->extra[0], w, (tsr_reduction)n->a.i0, n->a.i1, n->a.d0));
        const tsr_tensor *in[2] = {g, x};
        r = record_on(c, r, "nll_loss_backward", 2, in, &n->a);
        for (int k = 0; r && tsr__ag_creating() && k < n->nextra && !c->fail; k++)
            if (tsr_ag_keep(r, n->extra[k]) < 0) c->fail = true;
        give(c, gin, 0, r);
    }
    return finish(c, n, gin);
}
/* its own backward: grad_output's nll_loss(grad, target, weight, ...)
 * (NllLossBackward0), self's zeros */
static int bw_nll_loss_backward(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (n->nextra < 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "NllLossBackwardBackward0: the target was not kept");
        c->fail = true;
    }
    if (NEED(0) && !c->fail) {
        const tsr_tensor *w = n->nextra > 1 ? n->extra[1] : NULL;
        double tw = 0;
        tsr_tensor *r = keep(c, tsr_nn_nll_loss(g, n->extra[0], w, (tsr_reduction)n->a.i0, n->a.i1, &tw));
        tsr_ag_args a = n->a;
        a.d0 = tw;
        const tsr_tensor *in[1] = {g};
        r = record_on(c, r, "nll_loss", 1, in, &a);
        for (int k = 0; r && tsr__ag_creating() && k < n->nextra && !c->fail; k++)
            if (tsr_ag_keep(r, n->extra[k]) < 0) c->fail = true;
        give(c, gin, 0, r);
    }
    if (NEED(1)) give(c, gin, 1, zeros(c, g, g->ndim, g->sizes, g->dtype));
    return finish(c, n, gin);
}

/* embedding(weight, indices extra[0]): num_weights i0, padding_idx i1,
 * scale_grad_by_freq flag */
static int bw_embedding(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (n->released) {
        SAVED(0);
        c->fail = true;
    }
    if (!c->fail && n->a.keepdim) {   /* sparse=True: embedding_sparse_backward */
        if (n->a.flag) {
            tsr_error_set(TSR_ERR_RUNTIME, "embedding_backward: scale_grad_by_freq not supported with sparse gradients");
            c->fail = true;
        } else if (tsr__ag_creating() && tsr_tensor_requires_grad(g)) {
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative of %s with sparse=True (a higher-order gradient, "
                          "create_graph=True) is not implemented.", n->name);
            c->fail = true;
        } else {
            give(c, gin, 0, keep(c, tsr_nn_embedding_sparse_backward(g, n->extra[0], n->a.i0, n->a.i1)));
        }
    } else if (!c->fail) {   /* EmbeddingDenseBackwardBackward0 with create_graph, keeping the indices */
        tsr_tensor *r = keep(c, tsr_nn_embedding_backward(g, n->extra[0], n->a.i0, n->a.i1, n->a.flag));
        const tsr_tensor *in[1] = {g};
        r = record_on(c, r, "embedding_dense_backward", 1, in, &n->a);
        if (r && tsr__ag_creating() && tsr_ag_keep(r, n->extra[0]) < 0) c->fail = true;
        give(c, gin, 0, r);
    }
    return finish(c, n, gin);
}

/* the backward ops' own backward: diagonal_backward (grad.diagonal(offset,
 * dim1, dim2)), unfold_backward (grad.unfold(dim, size, step)) and
 * embedding_dense_backward (embedding_dense_double_backward:
 * grad.index_select(0, indices.reshape(-1)), masked at padding_idx, viewed
 * as indices.shape + [-1]) */
static int bw_view_backward(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    const char *k = n->f->key;
    const tsr_tensor *in[1] = {g};
    if (!strcmp(k, "diagonal_backward")) {
        give(c, gin, 0, record_on(c, keep(c, tsr_view_diagonal(g, n->a.i0, n->a.i1, n->a.i2)), "diagonal", 1, in, &n->a));
    } else if (!strcmp(k, "unfold_backward")) {
        give(c, gin, 0, record_on(c, keep(c, tsr_view_unfold(g, n->a.i0, n->a.i1, n->a.i2)), "unfold", 1, in, &n->a));
    } else if (n->nextra < 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: the indices were not kept", n->name);
        c->fail = true;
    } else {
        tsr_tensor *ix = n->extra[0];
        int64_t m1 = -1;
        tsr_tensor *flat = keep(c, tsr_reshape(ix, 1, &m1)), *r = NULL;
        tsr_ag_args sa = {0};
        sa.ndims = -1;
        if (flat) r = record_on(c, keep(c, tsr_index_select(g, 0, flat)), "index_select", 1, in, &sa);
        if (r && tsr__ag_creating() && tsr_ag_keep(r, flat) < 0) c->fail = true;
        if (r && n->a.i1 >= 0) {   /* masked_fill_((indices == padding_idx).reshape(-1, 1), 0) */
            int64_t sz[2] = {-1, 1};
            tsr_tensor *m = cmps(c, TSR_CMP_EQ, flat, (double)n->a.i1);
            r = masked_fill0(c, r, m ? keep(c, tsr_reshape(m, 2, sz)) : NULL);
        }
        int64_t vs[TSR_MAX_DIMS + 1];
        int nv = ix->ndim;
        memcpy(vs, ix->sizes, (size_t)nv * sizeof *vs);
        vs[nv++] = -1;
        const tsr_tensor *vin[1] = {r};
        give(c, gin, 0, r ? record_on(c, keep(c, tsr_view_view(r, nv, vs)), "view", 1, vin, NULL) : NULL);
    }
    return finish(c, n, gin);
}

/* constant_pad_nd(pad in dims): constant_pad_nd(grad, -pad) */
static int bw_constant_pad(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    int64_t neg[TSR_MAX_DIMS];
    for (int i = 0; i < n->a.ndims; i++) neg[i] = -n->a.dims[i];
    tsr_ag_args a = n->a;
    memcpy(a.dims, neg, (size_t)n->a.ndims * sizeof *neg);
    const tsr_tensor *in[1] = {g};
    give(c, gin, 0, record_on(c, keep(c, tsr_constant_pad_nd(g, n->a.ndims, neg, tsr_scalar_int(0))), "constant_pad_nd", 1,
                              in, &a));
    return finish(c, n, gin);
}

/* div(self, Scalar other d0): grad / other */
/* mul.Scalar / div.Scalar's backward: 1.13's (grad op
 * scalar_to_tensor(s)).to(self's dtype). The scalar is a 0-dim float64
 * tensor, not a wrapped number: against a 0-dim grad of another dtype the
 * op runs in float64 and the result is rounded back (MulBackward0 under
 * ToCopyBackward0); against a grad with dims it is the plain op. */
static tsr_tensor *op_scalar_tensor(F *c, tsr_binop op, tsr_node *n, const tsr_tensor *g, double s)
{
    if (c->fail) return NULL;
    if (g->ndim > 0 || g->dtype == TSR_FLOAT64 || tsr_dtype_is_complex(g->dtype))
        return keep(c, tsr__ag_binary_w(op, g, s));
    tsr_tensor *t = keep(c, tsr_full(0, NULL, tsr_scalar_float(s), TSR_FLOAT64, TSR_CPU));
    tsr_tensor *r = bin(c, op, g, t);
    return r ? keep(c, tsr__ag_to_dtype(r, n->in_dtype[0])) : NULL;
}

static int bw_div_s(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, op_scalar_tensor(c, TSR_BINOP_DIV, n, g, n->a.d0));
    return finish(c, n, gin);
}

/* the in-place activations, from their result y:
 * elu_: y <= 0 ? grad * negiptcoef * (y + negcoef) : grad * poscoef */
static int bw_elu_(tsr_node *n, const tsr_tensor *g_, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    bool bf = g_->dtype == TSR_BFLOAT16;
    tsr_tensor *y = up(c, SAVED(TSR_AG_OUT), bf), *g = up(c, g_, bf);
    bool celu = !strcmp(n->f->key, "celu_");
    double alpha = n->a.d0, scale = celu ? 1.0 : n->a.d1, iscale = celu ? 1.0 / (double)(float)alpha : 1.0;
    double negcoef = coef(n, coef(n, alpha) * coef(n, scale));
    DEV_ACT_BW(TSR_DACT_ELU, g_, SAVED(TSR_AG_OUT), negcoef, scale, iscale, true);
    tsr_tensor *neg = MUL(SMUL(g, iscale), bins(c, TSR_BINOP_ADD, y, negcoef));
    give(c, gin, 0, down(c, sel(c, cmps(c, TSR_CMP_LE, y, 0.0), neg, SMUL(g, scale)), bf));
    return finish(c, n, gin);
}
UNARY_OUT_F(bw_leaky_relu_k_, sel(c, cmps(c, TSR_CMP_GT, y, 0.0), g, SMUL(g, n->a.d0)))
static int bw_leaky_relu_(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    DEV_ACT_BW(TSR_DACT_LEAKY, g, SAVED(TSR_AG_OUT), n->a.d0, 0, 0, false);
    finish(c, n, gin);
    return bw_leaky_relu_k_(n, g, gin);
}


/* mul(self, Scalar other d0): grad * other */
static int bw_mul_s(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (n->a.has_d1) {   /* a complex number s: grad * s.conj() */
        give(c, gin, 0, c->fail ? NULL : keep(c, tsr__ag_mul_complex_w(g, n->a.d0, -n->a.d1)));
        return finish(c, n, gin);
    }
    give(c, gin, 0, op_scalar_tensor(c, TSR_BINOP_MUL, n, g, n->a.d0));
    return finish(c, n, gin);
}

/* index_put_(self, (bool mask extra[0],), values): self's gradient is
 * grad.index_put((mask,), 0); values' the masked elements summed to its shape */
static int bw_index_put_mask(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (n->released || !n->extra[0]) {
        SAVED(TSR_AG_OUT);
        c->fail = true;
        return finish(c, n, gin);
    }
    if (tsr__ag_creating()) {   /* 1.13's index_put_((mask,), values): its formula recorded */
        const tsr_tensor *ix[1] = {n->extra[0]};
        return tsr__bw_index_put_tensors(n, g, 1, ix, false, gin);
    }
    if (NEED(0)) give(c, gin, 0, masked_fill0(c, g, n->extra[0]));
    if (NEED(1) && !c->fail) give(c, gin, 1, keep(c, tsr_masked_select(g, n->extra[0])));
    return finish(c, n, gin);
}

/* index_put_ of self[key] = value by an advanced-indexing key (the
 * assignment's IndexPutBackward0): the key's items in dims (6 per item:
 * kind, i, start, stop, step, bare; ndims items), its tensors in extra in
 * order. self gets the gradient with the indexed elements zeroed, value
 * the indexed gradient (summed to its shape by the engine). */
static int bw_index_put_key(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_sub items[TSR_MAX_DIMS / 6];
    int nt = 0;
    if (n->released) {
        SAVED(TSR_AG_OUT);
        c->fail = true;
        return finish(c, n, gin);
    }
    for (int k = 0; k < n->a.ndims; k++) {
        const int64_t *e = n->a.dims + 6 * k;
        items[k] = (tsr_sub){.kind = (tsr_sub_kind)e[0], .i = e[1], .start = e[2], .stop = e[3], .step = e[4],
                             .bare = e[5] != 0};
        if (items[k].kind == TSR_SUB_TENSOR) items[k].t = n->extra[nt++];
    }
    if (tsr__ag_creating()) {   /* a key of tensors (and an Ellipsis: None indices) is 1.13's index_put_(indices) */
        const tsr_tensor *ix[TSR_MAX_DIMS];
        bool tensors = n->a.ndims > 0;
        int used = 0, ne = 0, ni = 0;
        for (int k = 0; k < n->a.ndims; k++) {
            if (items[k].kind == TSR_SUB_ELLIPSIS) ne++;
            else if (items[k].kind != TSR_SUB_TENSOR || items[k].t->ndim == 0) tensors = false;
            else used += items[k].t->dtype == TSR_BOOL || items[k].t->dtype == TSR_UINT8 ? items[k].t->ndim : 1;
        }
        tensors = tensors && ne <= 1 && used <= n->in_nd[0];
        for (int k = 0; tensors && k < n->a.ndims; k++) {
            if (items[k].kind != TSR_SUB_ELLIPSIS) ix[ni++] = items[k].t;
            else
                for (int d = used; d < n->in_nd[0]; d++) ix[ni++] = NULL;
        }
        if (tensors) return tsr__bw_index_put_tensors(n, g, ni, ix, false, gin);
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "create_graph=True: the derivative of IndexPutBackward0 of an "
                      "assignment by a key with basic items is not implemented.");
        c->fail = true;
        return finish(c, n, gin);
    }
    if (NEED(1)) give(c, gin, 1, keep(c, tsr_subscript(g, n->a.ndims, items)));
    if (NEED(0) && !c->fail) {
        tsr_tensor *r = keep(c, tsr_clone(g, TSR_MF_CONTIGUOUS));
        tsr_tensor *z = c->fail ? NULL : keep(c, tsr_zeros(0, NULL, g->dtype, g->device));
        if (!c->fail && tsr_subscript_assign(r, n->a.ndims, items, z) < 0) c->fail = true;
        give(c, gin, 0, r);
    }
    return finish(c, n, gin);
}

/* masked_select(self, mask extra[0]): zeros of self's shape with the
 * gradient scattered where mask is true (masked_scatter) */
static int bw_masked_select(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (n->released || !n->extra[0]) {
        SAVED(TSR_AG_OUT);
        c->fail = true;
        return finish(c, n, gin);
    }
    tsr_tensor *z = zeros_in(c, n, 0, g);
    tsr_tensor *r = c->fail ? NULL : keep(c, tsr_masked_scatter(z, n->extra[0], g));
    if (r && tsr__ag_creating()) {   /* zeros.masked_scatter_(mask, grad): MaskedScatterBackward0 */
        const tsr_tensor *in[2] = {z, g};
        if (!record_on(c, r, "masked_scatter", 2, in, NULL) || tsr_ag_keep(r, n->extra[0]) < 0) c->fail = true;
    }
    give(c, gin, 0, r);
    return finish(c, n, gin);
}

/* convolution(input, weight, bias?, stride, padding, dilation, transposed,
 * output_padding, groups): convolution_backward with grad_input_mask;
 * dims [0,2) stride, [2,4) padding, [4,6) dilation, [6,8) output_padding
 * (ndims spatial entries each), groups i0, transposed flag */
static int bw_convolution(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *w = SAVED(1), *r[3] = {NULL, NULL, NULL};
    bool mask[3] = {NEED(0), NEED(1), NEED(2) && n->in_present[2]};
    const int64_t *d = n->a.dims, q = n->a.ndims == 3 ? 3 : 2;   /* q: the lists' spacing in dims */
    bool was = tsr__ag_set_creating(false);   /* one kernel; under create_graph its node records it */
    if (!c->fail && tsr_nn_conv_backward(g, x, w, n->a.ndims, d, d + q, d + 2 * q, n->a.flag, d + 3 * q, n->a.i0, mask, &r[0],
                                         &r[1], &r[2]) < 0)
        c->fail = true;
    tsr__ag_set_creating(was);
    if (was && !c->fail) {   /* ConvolutionBackwardBackward0 over (grad_output, input, weight) */
        const tsr_tensor *in[3] = {g, x, w};
        tsr__ag_record_backward(c, "convolution_backward", 3, in, &n->a, 3, r);
    }
    for (int i = 0; i < 3; i++)
        if (r[i]) give(c, gin, i, keep(c, r[i]));
    return finish(c, n, gin);
}

/* ------------------------------------------------------------ pooling (nn_pool_grad.c) */

/* max_pool2d_with_indices / adaptive_max_pool2d: input 0 saved, the
 * indices kept (extra[0]). */
static int bw_max_pool2d_k(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    if (!c->fail && NEED(0)) give(c, gin, 0, keep(c, tsr_nn_max_pool2d_backward(g, x, n->extra[0])));
    return finish(c, n, gin);
}

static int bw_max_pool2d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin) { return pool_bw(n, g, gin, bw_max_pool2d_k); }
static int bw_avg_pool3d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin) { return pool_bw(n, g, gin, tsr__bw_avg_pool3d); }
static int bw_adaptive_avg_pool3d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    return pool_bw(n, g, gin, tsr__bw_adaptive_avg_pool3d);
}
static int bw_fractional_max_pool2d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    return pool_bw(n, g, gin, tsr__bw_fractional_max_pool2d);
}
static int bw_fractional_max_pool3d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    return pool_bw(n, g, gin, tsr__bw_fractional_max_pool3d);
}

/* max_pool_double_backward(grad, indices, dim) as 1.13 computes it, for
 * create_graph: grad.contiguous().view(lead..., -1).gather(-1, indices
 * viewed so).view(indices' sizes) (ViewBackward0, GatherBackward0, a
 * CloneBackward0 first when grad is not contiguous) */
static tsr_tensor *max_pool_dbl(F *c, const tsr_tensor *g, const tsr_tensor *ix, int dim)
{
    if (c->fail || !g || !ix) return NULL;
    int nd = ix->ndim - dim + 1;
    int64_t gs[TSR_MAX_DIMS], is[TSR_MAX_DIMS], lead = 1;
    for (int d = 0; d < nd - 1; d++) gs[d] = is[d] = ix->sizes[d], lead *= ix->sizes[d];
    gs[nd - 1] = lead ? tsr_tensor_numel(g) / lead : 0;
    is[nd - 1] = lead ? tsr_tensor_numel(ix) / lead : 0;
    const tsr_tensor *gc = g, *in[2];
    if (!tsr_tensor_is_contiguous(g)) {
        in[0] = g;
        gc = record_on(c, keep(c, tsr_clone(g, TSR_MF_CONTIGUOUS)), "clone", 1, in, NULL);
    }
    tsr_tensor *gv = c->fail ? NULL : keep(c, tsr__ag_view(gc, nd, gs));
    tsr_tensor *iv = c->fail ? NULL : keep(c, tsr_view_view(ix, nd, is));
    if (c->fail) return NULL;
    tsr_ag_args a = {0};
    a.ndims = -1;
    a.i0 = nd - 1;
    in[0] = gv, in[1] = iv;
    tsr_tensor *r = record_on(c, keep(c, tsr_gather(gv, nd - 1, iv)), "gather", 2, in, &a);
    return c->fail ? NULL : keep(c, tsr__ag_view(r, ix->ndim, ix->sizes));
}

static int bw_max_unpool3d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0) && tsr__ag_creating() && tsr_tensor_numel(n->extra[0]))
        give(c, gin, 0, max_pool_dbl(c, g, n->extra[0], 3));
    else if (NEED(0)) give(c, gin, 0, keep(c, tsr_nn_max_unpool3d_backward(g, n->extra[0])));
    return finish(c, n, gin);
}

/* max_pool3d_with_indices / adaptive_max_pool3d: input 0 saved, the
 * indices kept (extra[0]) */
static int bw_max_pool3d_k(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    if (!c->fail && NEED(0)) give(c, gin, 0, keep(c, tsr_nn_max_pool3d_backward(g, x, n->extra[0])));
    return finish(c, n, gin);
}
static int bw_max_pool3d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin) { return pool_bw(n, g, gin, bw_max_pool3d_k); }

/* max_unpool2d: the indices kept (extra[0]); max_pool_double_backward */
static int bw_max_unpool2d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0) && tsr__ag_creating() && tsr_tensor_numel(n->extra[0]))
        give(c, gin, 0, max_pool_dbl(c, g, n->extra[0], 2));
    else if (NEED(0)) give(c, gin, 0, keep(c, tsr_nn_max_unpool2d_backward(g, n->extra[0])));
    return finish(c, n, gin);
}

/* avg_pool2d: kernel, stride, padding in dims[0..5] (h, w pairs),
 * count_include_pad in flag, divisor_override in i0 when has_d0. */
static int bw_avg_pool2d_k(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    const int64_t *d = n->a.dims;
    if (!c->fail && NEED(0))
        give(c, gin, 0, keep(c, tsr_nn_avg_pool2d_backward(g, x, d, d + 2, d + 4, n->a.flag, n->a.has_d0, n->a.i0)));
    return finish(c, n, gin);
}

static int bw_adaptive_avg_pool2d_k(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    if (!c->fail && NEED(0)) give(c, gin, 0, keep(c, tsr_nn_adaptive_avg_pool2d_backward(g, x)));
    return finish(c, n, gin);
}
static int bw_avg_pool2d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin) { return pool_bw(n, g, gin, bw_avg_pool2d_k); }
static int bw_adaptive_avg_pool2d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    return pool_bw(n, g, gin, bw_adaptive_avg_pool2d_k);
}

/* native_layer_norm: inputs (input, weight, bias), the normalized shape
 * in dims, eps in d0 (nn_norm_grad.c). */
static int bw_layer_norm(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *w = n->in_present[1] ? SAVED(1) : NULL, *r[3] = {0};
    bool was = tsr__ag_set_creating(false);   /* one kernel; under create_graph its node records it */
    if (!c->fail && tsr_nn_layer_norm_backward(g, x, w, n->a.ndims, n->a.dims, n->a.d0, NEED(0) ? &r[0] : NULL,
                                               NEED(1) ? &r[1] : NULL, NEED(2) ? &r[2] : NULL) < 0)
        c->fail = true;
    tsr__ag_set_creating(was);
    if (was && !c->fail) {   /* NativeLayerNormBackwardBackward0 over (grad_out, input, mean, rstd, weight, bias) */
        const tsr_tensor *in[6] = {g, x, NULL, NULL, w, n->in_present[2] ? SAVED(2) : NULL};
        tsr__ag_record_backward(c, "native_layer_norm_backward", 6, in, &n->a, 3, r);
    }
    for (int i = 0; i < 3; i++)
        if (r[i]) give(c, gin, i, keep(c, r[i]));
    return finish(c, n, gin);
}

/* native_batch_norm: inputs (input, weight, bias), training in flag; the
 * mean and invstd it normalized with kept (extra[0], extra[1]). */
static int bw_batch_norm(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *w = n->in_present[1] ? SAVED(1) : NULL, *r[3] = {0};
    if (!c->fail && n->nextra < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "batch_norm's backward lost its statistics");
        c->fail = true;
    }
    bool was = tsr__ag_set_creating(false);   /* one kernel; under create_graph its node records it */
    if (!c->fail && tsr_nn_batch_norm_backward(g, x, w, n->extra[0], n->extra[1], n->a.flag, NEED(0) ? &r[0] : NULL,
                                               NEED(1) ? &r[1] : NULL, NEED(2) ? &r[2] : NULL) < 0)
        c->fail = true;
    tsr__ag_set_creating(was);
    if (was && !c->fail) {   /* NativeBatchNormBackwardBackward0 over (grad_out, input, weight, save_mean, save_invstd) */
        const tsr_tensor *in[5] = {g, x, w, NULL, NULL};
        if (tsr__ag_record_backward(c, "native_batch_norm_backward", 5, in, &n->a, 3, r) == 0) {
            tsr_tensor *o = r[0] ? r[0] : r[1] ? r[1] : r[2];
            for (int k = 0; o && k < n->nextra && !c->fail; k++)
                if (tsr_ag_keep(o, n->extra[k]) < 0) c->fail = true;
        }
    }
    for (int i = 0; i < 3; i++)
        if (r[i]) give(c, gin, i, keep(c, r[i]));
    return finish(c, n, gin);
}

/* _trilinear: inputs (i1, i2, i3) saved, the expand1 / expand2 / expand3
 * masks in i0..i2, sumdim's in dims[0], unroll_dim in dims[1]: 1.13's
 * _trilinear_backward, each gradient _trilinear again with grad in the
 * input's place (recorded as TrilinearBackward0 under create_graph) */
static int bw_trilinear(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *a = SAVED(0), *b = SAVED(1), *d = SAVED(2);
    if (c->fail) return finish(c, n, gin);
    int64_t e[3] = {n->a.i0, n->a.i1, n->a.i2}, sum = n->a.dims[0];
    const tsr_tensor *ins[3] = {a, b, d};
    for (int k = 0; k < 3 && !c->fail; k++) {
        if (!NEED(k)) continue;
        const tsr_tensor *in[3] = {ins[0], ins[1], ins[2]};
        int64_t m[3] = {e[0], e[1], e[2]};
        in[k] = g;   /* grad in input k's place, sumdim as its expand mask, input k's mask as sumdim */
        m[k] = sum;
        tsr_ag_args ta = {.i0 = m[0], .i1 = m[1], .i2 = m[2], .dims = {e[k], 1}, .ndims = 2};
        tsr_tensor *r = keep(c, tsr_trilinear(in[0], in[1], in[2], (uint64_t)m[0], (uint64_t)m[1], (uint64_t)m[2],
                                              (uint64_t)e[k], 1));
        give(c, gin, k, record_on(c, r, "trilinear", 3, in, &ta));
    }
    return finish(c, n, gin);
}

/* native_group_norm: inputs (input, weight, bias), the group count in i0;
 * the mean and rstd it normalized with kept (extra[0], extra[1]). As 1.13:
 * native_group_norm_backward's kernel, but with grad mode on (create_graph)
 * or gradients for the mean / rstd outputs the composite of
 * tsr__bw_group_norm_dbl. */
static int bw_group_norm(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    if (tsr__ag_creating() || (n->nout > 1 && n->outg && (n->outg[1] || n->outg[2])))
        return tsr__bw_group_norm_dbl(n, g, gin);
    F c0 = {0}, *c = &c0;
    if (n->nout > 1 && n->outg) g = n->outg[0];   /* a node whose outputs 1 and 2 a create_graph run showed */
    if (!g) return finish(c, n, gin);
    tsr_tensor *x = SAVED(0), *w = n->in_present[1] ? SAVED(1) : NULL, *r[3] = {0};
    if (!c->fail && n->nextra < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "group_norm's backward lost its statistics");
        c->fail = true;
    }
    if (!c->fail && tsr_nn_group_norm_backward(g, x, w, n->extra[0], n->extra[1], n->a.i0, NEED(0) ? &r[0] : NULL,
                                               NEED(1) ? &r[1] : NULL, NEED(2) ? &r[2] : NULL) < 0)
        c->fail = true;
    for (int i = 0; i < 3; i++)
        if (r[i]) give(c, gin, i, keep(c, r[i]));
    return finish(c, n, gin);
}

/* CopySlices with create_graph, as 1.13's CopySlices::apply records it:
 * result = empty_strided(base).copy_(grad) (CopyBackwards), grad_slice =
 * result.as_strided(view) (AsStridedBackward0), the op's backward on
 * grad_slice.clone() (CloneBackward0; n->sub's formula, or for an
 * assignment CopyBackwards' zeros for the view and the clone for the
 * value), grad_slice.copy_(the view's gradient) (CopySlices); result goes
 * to the base, the op's other gradients to its other inputs. */

/* CopySlices' last step: the view function's gradients sg[1..] go to the
 * other inputs, base's (r, with the region written) to input 0 */
static int copy_slices_finish(F *c, tsr_node *n, tsr_tensor **gin, tsr_tensor **sg, tsr_tensor *r)
{
    tsr_tensor_release(sg[0]);
    for (int i = 1; i < n->nnext; i++) {
        if (!c->fail && NEED(i)) gin[i] = sg[i];
        else tsr_tensor_release(sg[i]);
    }
    if (NEED(0)) give(c, gin, 0, r);
    return finish(c, n, gin);
}
static int bw_copy_slices_rec(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin, const tsr_ag_args *va)
{
    F c0 = {0}, *c = &c0;
    const int nd = va->ndims;
    tsr_node *fn = n->sub;
    tsr_tensor *sg[TSR_AG_MAXIN] = {0};
    if (fn && !tsr__ag_dbl_ok(fn->f->key)) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative of %s (a higher-order gradient, create_graph=True) is "
                      "not implemented.", fn->name);
        c->fail = true;
        return finish(c, n, gin);
    }
    tsr_tensor *r = keep(c, tsr_tensor_empty_strided(n->in_nd[0], n->in_sizes[0], va->dims + 2 * nd, g->dtype,
                                                     g->device));
    tsr_tensor *cin[2] = {r, (tsr_tensor *)g};
    tsr_ag_args none = {0};
    none.ndims = -1;
    if (!c->fail && (tsr_copy_(r, g) < 0 || tsr_ag_record("copy_backwards", 2, cin, &none, r, true) < 0))
        c->fail = true;
    const tsr_tensor *in[1] = {r};
    tsr_tensor *v = c->fail ? NULL : record_on(c, keep(c, tsr_view_as_strided(r, nd, va->dims, va->dims + nd, va->i0)),
                                               "as_strided_view", 1, in, va);
    in[0] = v;
    tsr_tensor *gv = c->fail ? NULL : record_on(c, keep(c, tsr_clone(v, TSR_MF_CONTIGUOUS)), "clone", 1, in, NULL);
    if (!c->fail && fn && fn->f->bw(fn, gv, sg) < 0) c->fail = true;
    if (!c->fail && !fn && NEED(1)) sg[1] = tsr_tensor_retain(gv);
    tsr_tensor *s0 = sg[0] ? sg[0] : c->fail ? NULL : keep(c, tsr_zeros(v->ndim, v->sizes, g->dtype, g->device));
    if (!c->fail && (tsr_copy_(v, s0) < 0 || tsr_ag_record_setitem(r, v, s0) < 0)) c->fail = true;
    return copy_slices_finish(c, n, gin, sg, r);
}

/* CopySlices of base[region].copy_(src): inputs (base before the copy,
 * src); the region per dim d of base in dims[2d] (start), dims[2d+1]
 * (length), ndims of them. base gets the gradient with the region zeroed
 * (CopyBackwards' zeros for self), src the region's gradient (a copy);
 * with create_graph as copy_slices_view over a contiguous base. */
static int bw_copy_slices(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    const int bd = n->in_nd[0];
    if (tsr__ag_creating() && tsr_tensor_requires_grad(g) && 2 * bd + bd <= TSR_MAX_DIMS) {
        tsr_ag_args va = {0};   /* the region as a view of a contiguous base, in copy_slices_view's layout */
        int64_t st = 1;
        va.ndims = bd;
        for (int d = bd - 1; d >= 0; d--) {
            bool cut = d < n->a.ndims;
            va.dims[d] = cut ? n->a.dims[2 * d + 1] : n->in_sizes[0][d];
            va.dims[bd + d] = va.dims[2 * bd + d] = st;
            va.i0 += cut ? n->a.dims[2 * d] * st : 0;
            st *= n->in_sizes[0][d];
        }
        return bw_copy_slices_rec(n, g, gin, &va);
    }
    F c0 = {0}, *c = &c0;
    tsr_tensor *v = keep(c, tsr_view_alias(g));
    for (int d = 0; d < n->a.ndims && !c->fail; d++) v = keep(c, tsr_view_narrow(v, d, n->a.dims[2 * d], n->a.dims[2 * d + 1]));
    if (!c->fail && NEED(1)) give(c, gin, 1, keep(c, tsr_clone(v, TSR_MF_CONTIGUOUS)));
    if (!c->fail && NEED(0)) {
        tsr_tensor *r = keep(c, tsr_clone(g, TSR_MF_CONTIGUOUS)), *z = r ? keep(c, tsr_view_alias(r)) : NULL;
        for (int d = 0; d < n->a.ndims && !c->fail; d++)
            z = keep(c, tsr_view_narrow(z, d, n->a.dims[2 * d], n->a.dims[2 * d + 1]));
        if (!c->fail && tsr_zero_(z) < 0) c->fail = true;
        give(c, gin, 0, r);
    }
    return finish(c, n, gin);
}

/* CopySlices of base[key] = value for a basic-indexing key (1.13's
 * CopySlices around CopyBackwards / FillBackward0): inputs (base before the
 * write, value if a tensor). The region is the view written: its sizes in
 * dims[0 .. nd), strides in dims[nd .. 2nd), the base's strides in
 * dims[2nd ..), its offset from the base's in i0, nd in ndims. The base's
 * gradient is a copy in the base's strides with the region zeroed, the
 * value's the region (summed to its shape by the engine). */
static int bw_copy_slices_view(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    if (tsr__ag_creating() && tsr_tensor_requires_grad(g)) return bw_copy_slices_rec(n, g, gin, &n->a);
    F c0 = {0}, *c = &c0;
    const int nd = n->a.ndims;
    tsr_tensor *r = keep(c, tsr_tensor_empty_strided(n->in_nd[0], n->in_sizes[0], n->a.dims + 2 * nd, g->dtype,
                                                     g->device));
    if (!c->fail && tsr_copy_(r, g) < 0) c->fail = true;
    tsr_tensor *v = c->fail ? NULL : keep(c, tsr_view_as_strided(r, nd, n->a.dims, n->a.dims + nd, n->a.i0));
    if (!c->fail && NEED(1)) give(c, gin, 1, keep(c, tsr_clone(v, TSR_MF_CONTIGUOUS)));
    if (!c->fail && tsr_zero_(v) < 0) c->fail = true;
    if (NEED(0)) give(c, gin, 0, r);
    return finish(c, n, gin);
}

/* CopySlices around an in-place op on a view (n->sub, the op's node): the
 * view's geometry as for copy_slices_view. The op's backward runs on the
 * region's gradient; its gradient for input 0 (the view's old values) goes
 * back into the region, its others to the op's other inputs. */
/* whether the op's backward run on g gives a result that needs a graph
 * (the engine's rule, for CopySlices' op node): g or a saved tensor requires grad */
static bool sub_needs_graph(const tsr_node *fn, const tsr_tensor *g)
{
    if (tsr_tensor_requires_grad(g)) return true;
    for (int i = 0; i < TSR_AG_NSAVED; i++) {
        const tsr_saved *s = &fn->saved[i];
        if (s->t && (s->is_output || (s->orig && tsr_tensor_requires_grad(s->orig)))) return true;
    }
    return false;
}

static int bw_copy_slices_fn(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    if (tsr__ag_creating() && sub_needs_graph(n->sub, g)) return bw_copy_slices_rec(n, g, gin, &n->a);
    F c0 = {0}, *c = &c0;
    const int nd = n->a.ndims;
    tsr_node *fn = n->sub;
    tsr_tensor *sg[TSR_AG_MAXIN] = {0};
    tsr_tensor *r = keep(c, tsr_tensor_empty_strided(n->in_nd[0], n->in_sizes[0], n->a.dims + 2 * nd, g->dtype,
                                                     g->device));
    if (!c->fail && tsr_copy_(r, g) < 0) c->fail = true;
    tsr_tensor *v = c->fail ? NULL : keep(c, tsr_view_as_strided(r, nd, n->a.dims, n->a.dims + nd, n->a.i0));
    tsr_tensor *gv = c->fail ? NULL : keep(c, tsr_clone(v, TSR_MF_CONTIGUOUS));
    if (!c->fail && fn->f->bw(fn, gv, sg) < 0) c->fail = true;
    if (!c->fail && (sg[0] ? tsr_copy_(v, sg[0]) : tsr_zero_(v)) < 0) c->fail = true;
    return copy_slices_finish(c, n, gin, sg, r);
}

/* A view's grad_fn made again after its base changed in place (1.13's
 * AsStridedBackward0 over the base's new grad_fn): the view's geometry as
 * for copy_slices_view; the base's gradient is zeros in the base's strides
 * with the region set to g (views without internal overlap only). */
/* _maybe_overlapping_memory of 1.13's as_strided_backward: dims by stride
 * ascending, each stride past the span of the smaller ones */
static bool maybe_overlap(int nd, const int64_t *sizes, const int64_t *strides)
{
    int ord[TSR_MAX_DIMS];
    for (int i = 0; i < nd; i++) ord[i] = i;
    for (int i = 1; i < nd; i++)   /* a stable insertion sort by stride */
        for (int j = i; j > 0 && strides[ord[j]] < strides[ord[j - 1]]; j--) {
            int t = ord[j];
            ord[j] = ord[j - 1], ord[j - 1] = t;
        }
    int64_t span = 0;
    for (int i = 0; i < nd; i++) {
        if (strides[ord[i]] <= span) return true;
        span += strides[ord[i]] * (sizes[ord[i]] - 1);
    }
    return false;
}

static int64_t min_storage(int nd, const int64_t *sizes, const int64_t *strides, int64_t offset)
{
    int64_t n = offset + 1;
    for (int i = 0; i < nd; i++) n += (sizes[i] - 1) * strides[i];
    return n;
}

/* AsStridedBackward0 with create_graph: 1.13's as_strided_backward. grad's
 * dims of size 1 squeezed (SqueezeBackward1) and of stride 0 summed
 * (SumBackward1), last first; zeros of the storage both geometries span,
 * as_strided to the view's and copy_(grad) (CopySlices); the storage
 * as_strided to the base's geometry (AsStridedBackward0). Geometries that
 * may overlap themselves (1.13's index_add_ path) refuse. */
static int bw_as_strided_rec(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    const int nd = n->a.ndims, bd = n->in_nd[0];
    const int64_t *vs = n->a.dims, *vst = n->a.dims + nd, *bs = n->in_sizes[0], *bst = n->a.dims + 2 * nd;
    int64_t os[TSR_MAX_DIMS], ost[TSR_MAX_DIMS], is[TSR_MAX_DIMS], ist[TSR_MAX_DIMS];
    int on = 0, inn = 0;
    bool empty = false;
    const tsr_tensor *gg = g;
    for (int d = nd - 1; d >= 0 && !c->fail; d--) {
        if (vs[d] == 0) empty = true;
        else if (vs[d] == 1) gg = keep(c, tsr__ag_squeeze_dim(gg, d));
        else if (vst[d] == 0) gg = sum_dim1(c, gg, d, false);
        else os[on] = vs[d], ost[on++] = vst[d];
    }
    for (int d = bd - 1; d >= 0; d--) {
        if (bs[d] == 0) empty = true;
        else if (bs[d] != 1) is[inn] = bs[d], ist[inn++] = bst[d];
    }
    for (int i = 0; i < on / 2; i++) {   /* collected last first */
        int64_t t = os[i], u = ost[i];
        os[i] = os[on - 1 - i], ost[i] = ost[on - 1 - i], os[on - 1 - i] = t, ost[on - 1 - i] = u;
    }
    for (int i = 0; i < inn / 2; i++) {
        int64_t t = is[i], u = ist[i];
        is[i] = is[inn - 1 - i], ist[i] = ist[inn - 1 - i], is[inn - 1 - i] = t, ist[inn - 1 - i] = u;
    }
    if (c->fail) return finish(c, n, gin);
    if (empty) {   /* zeros of the input's sizes, no graph */
        give(c, gin, 0, zeros_in(c, n, 0, g));
        return finish(c, n, gin);
    }
    if (maybe_overlap(on, os, ost) || maybe_overlap(inn, is, ist) || 2 * bd + 1 > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "create_graph=True: the derivative of AsStridedBackward0 of a view "
                      "that may overlap itself is not implemented.");
        c->fail = true;
        return finish(c, n, gin);
    }
    int64_t inp_off = n->a.i0 < 0 ? -n->a.i0 : 0, out_off = n->a.i0 < 0 ? 0 : n->a.i0;
    int64_t size = min_storage(inn, is, ist, inp_off), s2 = min_storage(on, os, ost, out_off);
    if (s2 > size) size = s2;
    tsr_tensor *st = keep(c, tsr_zeros(1, &size, g->dtype, g->device));
    tsr_tensor *sv = c->fail ? NULL : keep(c, tsr_view_as_strided(st, on, os, ost, out_off));
    if (!c->fail && (tsr_copy_(sv, gg) < 0 || tsr_ag_record_setitem(st, sv, gg) < 0)) c->fail = true;
    tsr_tensor *r = c->fail ? NULL : keep(c, tsr_view_as_strided(st, bd, bs, bst, inp_off));
    tsr_ag_args a = {0};   /* as_strided_view's args: r's geometry over the storage's */
    a.ndims = bd;
    for (int d = 0; d < bd; d++) a.dims[d] = bs[d], a.dims[bd + d] = bst[d];
    a.dims[2 * bd] = 1;
    a.i0 = inp_off;
    const tsr_tensor *in[1] = {st};
    give(c, gin, 0, record_on(c, r, "as_strided_view", 1, in, &a));
    return finish(c, n, gin);
}

static int bw_as_strided_view(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    if (tsr__ag_creating() && tsr_tensor_requires_grad(g)) return bw_as_strided_rec(n, g, gin);
    F c0 = {0}, *c = &c0;
    const int nd = n->a.ndims;
    tsr_tensor *r = keep(c, tsr_tensor_empty_strided(n->in_nd[0], n->in_sizes[0], n->a.dims + 2 * nd, g->dtype,
                                                     g->device));
    if (!c->fail && tsr_zero_(r) < 0) c->fail = true;
    tsr_tensor *v = c->fail ? NULL : keep(c, tsr_view_as_strided(r, nd, n->a.dims, n->a.dims + nd, n->a.i0));
    if (!c->fail && tsr_copy_(v, g) < 0) c->fail = true;
    if (NEED(0)) give(c, gin, 0, r);
    return finish(c, n, gin);
}

/* reflection_pad / replication_pad: the pads in dims (ndims of them), i0
 * 1 for reflect, 2 for replicate. */
static int bw_pad_mode_k(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    if (!c->fail && NEED(0))
        give(c, gin, 0, keep(c, tsr_nn_pad_mode_backward(g, x, n->a.ndims, n->a.dims, n->a.i0 == 1 ? "reflect" : "replicate")));
    return finish(c, n, gin);
}

/* to_dense_backward: the gradient at the sparse input's (coalesced) indices. */
static int bw_to_dense(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    give(c, gin, 0, x ? keep(c, tsr_sparse_mask(g, x)) : NULL);
    return finish(c, n, gin);
}

/* sparse_coo_tensor(indices extra[0], values): sparse_constructor_values_backward */
static int bw_sparse_coo(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (n->released || !n->extra[0]) {
        SAVED(TSR_AG_OUT);
        c->fail = true;
        return finish(c, n, gin);
    }
    give(c, gin, 0, keep(c, tsr_sparse_values_at(g, n->extra[0], n->out_sizes)));
    return finish(c, n, gin);
}

/* values(sparse self): values_backward, a coalesced sparse tensor on self's indices */
static int bw_sparse_values(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    tsr_tensor *gi = x ? keep(c, tsr_clone(x->sparse->indices, TSR_MF_CONTIGUOUS)) : NULL;
    tsr_tensor *gv = gi ? keep(c, tsr_clone(g, TSR_MF_CONTIGUOUS)) : NULL;
    if (gv) give(c, gin, 0, keep(c, tsr_sparse_wrap(x->ndim, x->sizes, tsr_tensor_retain(gi), tsr_tensor_retain(gv), true)));
    return finish(c, n, gin);
}

/* sparse self * scalar d0 (MulBackward0 of the wrapped scalar) */
static int bw_mul_sparse_s(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, g->sparse ? keep(c, tsr_sparse_mul_scalar(g, tsr_scalar_float(n->a.d0))) : bins(c, TSR_BINOP_MUL, g, n->a.d0));
    return finish(c, n, gin);
}

/* torch.sparse.sum(self, dims): _sparse_sum_backward */
static int bw_sparse_sum(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    tsr_dims dims = {0};
    dims.n = n->a.ndims;
    for (int i = 0; i < dims.n; i++) dims.d[i] = n->a.dims[i];
    if (x) give(c, gin, 0, keep(c, tsr_sparse_sum_backward(g, x, &dims)));
    return finish(c, n, gin);
}

/* The formulas of sparse outputs whose gradient is sparse: neg, t,
 * transpose(i0, i1), div by the scalar d0, sub (alpha d0 when has_d0). */
static tsr_tensor *sparse_grad(F *c, const tsr_tensor *g)
{
    if (g->sparse) return (tsr_tensor *)g;
    tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: a strided gradient of a sparse result is not supported");
    c->fail = true;
    return NULL;
}

static int bw_neg_sparse(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *s = sparse_grad(c, g);
    if (s) give(c, gin, 0, keep(c, tsr_sparse_unary(TSR_UNOP_NEG, s, NULL)));
    return finish(c, n, gin);
}

static int bw_t_sparse(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *s = sparse_grad(c, g);
    if (s) give(c, gin, 0, keep(c, tsr_sparse_t(s)));
    return finish(c, n, gin);
}

static int bw_transpose_sparse(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *s = sparse_grad(c, g);
    if (s) give(c, gin, 0, keep(c, tsr_sparse_transpose(s, n->a.i0, n->a.i1)));
    return finish(c, n, gin);
}

static int bw_div_sparse_s(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *s = sparse_grad(c, g);
    if (s) give(c, gin, 0, keep(c, tsr_sparse_div_scalar(s, tsr_scalar_float(n->a.d0))));
    return finish(c, n, gin);
}

static int bw_sub_sparse(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *s = sparse_grad(c, g);
    if (s && NEED(0)) give(c, gin, 0, s);
    if (s && NEED(1)) give(c, gin, 1, keep(c, tsr_sparse_mul_scalar(s, tsr_scalar_float(n->a.has_d0 ? -n->a.d0 : -1.0))));
    return finish(c, n, gin);
}

/* select of a sparse tensor: select_backward has no SparseCPU kernel in 1.13 */
static int bw_select_sparse(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (g->sparse) {
        tsr_error_no_kernel("aten::select_backward", "SparseCPU",
                            "CPU, CUDA, HIP, MPS, IPU, XPU, HPU, VE, Meta, PrivateUse1, PrivateUse2, PrivateUse3, FPGA, "
                            "ORT, Vulkan, Metal, QuantizedCPU, QuantizedCUDA, QuantizedHIP, QuantizedMPS, QuantizedIPU, "
                            "QuantizedXPU, QuantizedHPU, QuantizedVE, QuantizedMeta, QuantizedPrivateUse1, "
                            "QuantizedPrivateUse2, QuantizedPrivateUse3, CustomRNGKeyId, MkldnnCPU, SparseCsrCPU, "
                            "SparseCsrCUDA");
    } else {
        /* select_backward makes a strided gradient, which validate_outputs refuses for the sparse input */
        tsr_error_set(TSR_ERR_RUNTIME, "Function SelectBackward0 returned an invalid gradient at index 0 - expected "
                      "layout Sparse but got Strided");
    }
    c->fail = true;
    return finish(c, n, gin);
}

/* ------------------------------------------------------------ views, shapes and indexing (issue 19) */

/* diagonal(offset i0, dim1 i1, dim2 i2): diagonal_backward, zeros of the
 * input's shape with the gradient copied into the same diagonal */
static int bw_diagonal(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *z = zeros_in(c, n, 0, g), *v = NULL;
    if (!c->fail) v = keep(c, tsr_view_diagonal(z, n->a.i0, n->a.i1, n->a.i2));
    if (!c->fail && tsr_copy_(v, g) < 0) c->fail = true;
    const tsr_tensor *in[1] = {g};
    give(c, gin, 0, record_on(c, z, "diagonal_backward", 1, in, &n->a));   /* DiagonalBackwardBackward0 */
    return finish(c, n, gin);
}

/* diag(diagonal i0): diag_backward, grad.diag(diagonal) for a vector or a
 * square matrix, else diagonal_backward over dims 0 and 1 */
static int bw_diag(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    const tsr_tensor *in[1] = {g};
    if (n->in_nd[0] == 1 || n->in_sizes[0][0] == n->in_sizes[0][1]) {   /* grad.diag(diagonal): DiagBackward0 */
        give(c, gin, 0, record_on(c, keep(c, tsr_diag(g, n->a.i0, NULL)), "diag", 1, in, &n->a));
    } else {   /* diagonal_backward(grad, sizes, diagonal, 0, 1): DiagonalBackwardBackward0 */
        tsr_tensor *z = zeros_in(c, n, 0, g), *v = NULL;
        if (!c->fail) v = keep(c, tsr_view_diagonal(z, n->a.i0, 0, 1));
        if (!c->fail && tsr_copy_(v, g) < 0) c->fail = true;
        tsr_ag_args a = {0};
        a.ndims = -1;
        a.i0 = n->a.i0;
        a.i1 = 0;
        a.i2 = 1;
        give(c, gin, 0, record_on(c, z, "diagonal_backward", 1, in, &a));
    }
    return finish(c, n, gin);
}

/* tril / triu(diagonal i0): grad.tril(diagonal) / grad.triu(diagonal) */
static int bw_tril(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    const tsr_tensor *in[1] = {g};
    give(c, gin, 0, record_on(c, keep(c, tsr_tril(g, n->a.i0, !strcmp(n->f->key, "triu"), NULL)), n->f->key, 1, in, &n->a));
    return finish(c, n, gin);
}

/* trace: trace_backward, zeros(rows * cols) with the gradient at every
 * (cols + 1)-th element, viewed as the input; as in 1.13, a matrix with more
 * rows than columns also gets it past the diagonal (rows 4, cols 2: [3, 0]) */
static int bw_trace(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    int64_t rows = n->in_sizes[0][0], cols = n->in_sizes[0][1], numel = rows * cols;
    tsr_tensor *z = c->fail ? NULL : keep(c, tsr_zeros(1, &numel, g->dtype, g->device)), *v = NULL;   /* grad.options() */
    if (!c->fail) v = keep(c, tsr_view_slice(z, 0, 0, numel, cols + 1));
    if (!c->fail && tsr_copy_(v, g) < 0) c->fail = true;
    if (!c->fail && tsr__ag_creating()) {   /* IndexFillBackward1 over the zeros, then ViewBackward0 */
        tsr_tensor *ix = keep(c, tsr_arange(tsr_scalar_int(0), tsr_scalar_int(numel), tsr_scalar_int(cols + 1), TSR_INT64,
                                            g->device));
        tsr_ag_args a = {0};
        a.ndims = -1;
        const tsr_tensor *in[2] = {z, g};
        if (ix && record_on(c, z, "index_fill_t", 2, in, &a) && tsr_ag_keep(z, ix) < 0) c->fail = true;
        tsr_tensor *vw = c->fail ? NULL : keep(c, tsr_view_view(z, 2, n->in_sizes[0]));
        const tsr_tensor *vin[1] = {z};
        give(c, gin, 0, record_on(c, vw, "view", 1, vin, NULL));
        return finish(c, n, gin);
    }
    give(c, gin, 0, reshape(c, z, 2, n->in_sizes[0]));
    return finish(c, n, gin);
}

/* roll(shifts dims[0..ndims), dims dims[ndims..ndims+i0)): roll_backward,
 * grad.roll(-shifts, dims) */
static int bw_roll(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    int64_t neg[TSR_MAX_DIMS];
    int ns = n->a.ndims;
    for (int i = 0; i < ns; i++) neg[i] = -n->a.dims[i];
    tsr_ag_args a = n->a;
    memcpy(a.dims, neg, (size_t)ns * sizeof *neg);
    const tsr_tensor *in[1] = {g};
    give(c, gin, 0, record_on(c, keep(c, tsr_roll(g, ns, neg, (int)n->a.i0, n->a.dims + ns)), "roll", 1, in, &a));
    return finish(c, n, gin);
}

/* rot90(k i0, dims dims[0..2)): grad.rot90(-k, dims) */
static int bw_rot90(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_ag_args a = n->a;   /* rot90(grad, -k, dims): Rot90Backward0 with create_graph */
    a.i0 = -n->a.i0;
    const tsr_tensor *in[1] = {g};
    give(c, gin, 0, record_on(c, keep(c, tsr_rot90(g, -n->a.i0, 2, n->a.dims)), "rot90", 1, in, &a));
    return finish(c, n, gin);
}

/* The index (or mask) a formula keeps in extra[0]; NULL with the "second
 * time" error once the graph was freed. */
static tsr_tensor *kept_index(F *c, tsr_node *n)
{
    if (c->fail) return NULL;
    if (n->released || !n->extra[0]) {
        SAVED(TSR_AG_OUT);
        if (!c->fail) tsr_error_set(TSR_ERR_RUNTIME, "autograd formula: the index was not kept");
        c->fail = true;
        return NULL;
    }
    return n->extra[0];
}

/* grad.index_select(dim, index), recorded with create_graph (IndexSelectBackward0) */
static tsr_tensor *isel_rec(F *c, const tsr_tensor *g, int64_t dim, const tsr_tensor *ix)
{
    if (c->fail || !g || !ix) return NULL;
    tsr_ag_args a = {0};
    a.ndims = -1;
    a.i0 = dim;
    const tsr_tensor *in[2] = {g, ix};
    return record_on(c, keep(c, tsr_index_select(g, dim, ix)), "index_select", 2, in, &a);
}

/* grad.masked_select(mask), recorded with create_graph (MaskedSelectBackward0, the mask kept) */
static tsr_tensor *msel_rec(F *c, const tsr_tensor *g, tsr_tensor *mask)
{
    if (c->fail || !g || !mask) return NULL;
    const tsr_tensor *in[1] = {g};
    tsr_tensor *r = record_on(c, keep(c, tsr_masked_select(g, mask)), "masked_select", 1, in, NULL);
    if (r && tsr__ag_creating() && tsr_tensor_requires_grad(r) && tsr_ag_keep(r, mask) < 0) c->fail = true;
    return r;
}

/* index_add(self, dim i0, index, source, alpha d0): self grad; source
 * maybe_multiply(grad.index_select(dim, index).expand_as(source), alpha) */
static int bw_index_add(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *ix = kept_index(c, n);
    if (NEED(0)) give(c, gin, 0, (tsr_tensor *)g);
    if (NEED(1) && !c->fail) {
        tsr_tensor *s, *i1 = n->in_nd[1] > 0 || !ix->ndim ? ix : keep(c, tsr_view_squeeze_dim(ix, 0));
        tsr_ag_args sa = {0};   /* grad.index_select(dim, index): IndexSelectBackward0 with create_graph */
        sa.ndims = -1;
        sa.i0 = n->a.i0;
        const tsr_tensor *in[2] = {g, i1};
        s = c->fail ? NULL : record_on(c, keep(c, tsr_index_select(g, n->a.i0, i1)), "index_select", 2, in, &sa);
        if (n->in_nd[1] > 0) s = expand(c, s, n->in_nd[1], n->in_sizes[1]);
        if (n->a.has_d0 && n->a.d0 != 1.0) s = bins(c, TSR_BINOP_MUL, s, n->a.d0);
        give(c, gin, 1, s);
    }
    return finish(c, n, gin);
}

/* index_fill(self, dim i0, index, value): self grad.index_fill(dim, index, 0);
 * a tensor value (IndexFillBackward1): grad.index_select(dim, unique(index)).sum() */
static int bw_index_fill(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *ix = kept_index(c, n);
    if (NEED(0) && !c->fail) {   /* grad.index_fill(dim, index, 0): IndexFillBackward0 with create_graph */
        const tsr_tensor *in[1] = {g};
        tsr_tensor *r = record_on(c, keep(c, tsr_index_fill(g, n->a.i0, ix, tsr_scalar_int(0), NULL)), "index_fill", 1, in,
                                  &n->a);
        if (r && tsr__ag_creating() && tsr_ag_keep(r, ix) < 0) c->fail = true;
        give(c, gin, 0, r);
    }
    if (n->nnext > 1 && NEED(1) && !c->fail) {
        tsr_tensor *u = NULL, *inv = NULL, *cnt = NULL;
        if (tsr_unique(ix, true, false, false, false, NULL, &u, &inv, &cnt) < 0) c->fail = true;
        tsr_tensor_release(inv);
        tsr_tensor_release(cnt);
        keep(c, u);
        tsr_dims all = {.n = -1};
        if (!c->fail) give(c, gin, 1, sum_dims(c, isel_rec(c, g, n->a.i0, u), &all, false));
    }
    return finish(c, n, gin);
}

/* scatter(self, dim i0, index, src or value) / scatter_add: self
 * grad.scatter(dim, index, 0) (scatter_add: grad); src grad.gather(dim, index) */
static int bw_scatter(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *ix = kept_index(c, n);
    bool add = !strcmp(n->f->key, "scatter_add");
    tsr_scalar zero = tsr_scalar_int(0);
    const tsr_tensor *in[2] = {g, ix};
    if (NEED(0) && !c->fail && add) give(c, gin, 0, (tsr_tensor *)g);
    if (NEED(0) && !c->fail && !add) {   /* grad.scatter(dim, index, 0): ScatterBackward1 with create_graph */
        tsr_tensor *r = record_on(c, keep(c, tsr_scatter(g, n->a.i0, ix, NULL, &zero, TSR_SCATTER_NONE)), "scatter_v", 1,
                                  in, &n->a);
        if (r && tsr__ag_creating() && tsr_ag_keep(r, ix) < 0) c->fail = true;
        give(c, gin, 0, r);
    }
    if (n->nnext > 1 && NEED(1) && !c->fail)   /* grad.gather(dim, index): GatherBackward0 */
        give(c, gin, 1, record_on(c, keep(c, tsr_gather(g, n->a.i0, ix)), "gather", 2, in, &n->a));
    return finish(c, n, gin);
}

/* take(self, index): zeros_like(self).put_(index, grad, accumulate=True) */
static int bw_take(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *ix = kept_index(c, n), *z = zeros_in(c, n, 0, g);
    tsr_tensor *r = c->fail ? NULL : keep(c, tsr_put(z, ix, g, true));
    if (r && tsr__ag_creating()) {   /* zeros.put_(index, grad, accumulate): PutBackward0 */
        tsr_ag_args a = {0};
        a.ndims = -1;
        a.flag = true;
        const tsr_tensor *in[2] = {z, g};
        if (!record_on(c, r, "put", 2, in, &a) || tsr_ag_keep(r, ix) < 0) c->fail = true;
    }
    give(c, gin, 0, r);
    return finish(c, n, gin);
}

/* put(self, index, source, accumulate flag): self grad (accumulate) or
 * grad.put(index, zeros_like(source)); source grad.take(index).reshape_as(source) */
static int bw_put(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *ix = kept_index(c, n);
    if (NEED(0) && !c->fail && n->a.flag) give(c, gin, 0, (tsr_tensor *)g);
    if (NEED(0) && !c->fail && !n->a.flag) {   /* grad.put(index, zeros_like(source)): PutBackward0 with create_graph */
        tsr_tensor *z = zeros_in(c, n, 1, g), *r = c->fail ? NULL : keep(c, tsr_put(g, ix, z, false));
        tsr_ag_args a = {0};
        a.ndims = -1;
        const tsr_tensor *in[2] = {g, z};
        if (r && record_on(c, r, "put", 2, in, &a) && tsr__ag_creating() && tsr_ag_keep(r, ix) < 0) c->fail = true;
        give(c, gin, 0, r);
    }
    if (NEED(1) && !c->fail) {   /* grad.take(index): TakeBackward0 with create_graph */
        const tsr_tensor *in[1] = {g};
        tsr_tensor *r = record_on(c, keep(c, tsr_take(g, ix)), "take", 1, in, NULL);
        if (r && tsr__ag_creating() && tsr_ag_keep(r, ix) < 0) c->fail = true;
        give(c, gin, 1, reshape(c, r, n->in_nd[1], n->in_sizes[1]));
    }
    return finish(c, n, gin);
}

/* masked_scatter(self, mask, source): self grad.masked_fill(mask, 0); source
 * masked_scatter_backward: grad.masked_select(mask), zeros appended up to
 * source's numel, viewed as source (each recorded with create_graph) */
static int bw_masked_scatter(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *mask = kept_index(c, n);
    if (NEED(0)) give(c, gin, 0, masked_fill0(c, g, mask));
    if (NEED(1) && !c->fail) {
        int64_t numel = 1;
        for (int i = 0; i < n->in_nd[1]; i++) numel *= n->in_sizes[1][i];
        tsr_tensor *sel = msel_rec(c, g, mask);
        if (!c->fail && numel > tsr_tensor_numel(sel)) {   /* cat with zeros: CatBackward0 with create_graph */
            int64_t rest = numel - tsr_tensor_numel(sel);
            const tsr_tensor *parts[2] = {sel, zeros(c, g, 1, &rest, g->dtype)};
            tsr_ag_args a = {0};
            a.ndims = -1;
            if (!c->fail) sel = record_on(c, keep(c, tsr_cat(2, parts, 0, NULL)), "cat", 2, parts, &a);
        }
        give(c, gin, 1, c->fail ? NULL : keep(c, tsr__ag_view(sel, n->in_nd[1], n->in_sizes[1])));   /* ViewBackward0 */
    }
    return finish(c, n, gin);
}

/* a torch::autograd::NotImplemented node of a derivatives.yaml row whose
 * formula is not_implemented: backward raises for the key itself */
static int bw_not_implemented_row(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    (void)g;
    tsr_error_set(TSR_ERR_RUNTIME, "derivative for %s is not implemented", n->f->key);
    c->fail = true;
    return finish(c, n, gin);
}

/* 1.13's torch::autograd::NotImplemented nodes of ops with no derivative
 * (key "op" or "op.overload"): backward raises for aten::op */
static int bw_not_implemented_aten(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    (void)g;
    tsr_error_set(TSR_ERR_RUNTIME, "derivative for aten::%.*s is not implemented", (int)strcspn(n->f->key, "."),
                  n->f->key);
    c->fail = true;
    return finish(c, n, gin);
}

/* unfold(dim i0, size i1, step i2): unfold_backward, each window's gradient
 * added into zeros of the input's shape, windows in order */
static int bw_unfold(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    int nd = n->in_nd[0];
    if (nd == 0) {   /* a 0-dim input unfolds into [1] */
        give(c, gin, 0, reshape(c, g, 0, NULL));
        return finish(c, n, gin);
    }
    int d = (int)n->a.i0;
    tsr_tensor *z = zeros_in(c, n, 0, g);
    int64_t nwin = g->sizes[d], last = nd - 1;
    for (int64_t w = 0; w < nwin && !c->fail; w++) {
        tsr_tensor *piece = keep(c, tsr_view_narrow(z, d, w * n->a.i2, n->a.i1));
        tsr_tensor *gw = c->fail ? NULL : keep(c, tsr_view_select(g, d, w));
        int64_t dd = d;
        tsr_tensor *m = c->fail ? NULL : keep(c, tsr_view_movedim(gw, 1, &last, 1, &dd));
        if (c->fail) break;
        tsr_operand o = tsr_operand_tensor(m);
        tsr_tensor *r = tsr_binary_(TSR_BINOP_ADD, piece, &o, NULL);
        if (!r) c->fail = true;
        tsr_tensor_release(r);
        /* temporaries are bounded: release this window's views now */
        for (int k = 0; k < 3 && c->n > 1; k++) tsr_tensor_release(c->t[--c->n]);
    }
    const tsr_tensor *in[1] = {g};
    give(c, gin, 0, record_on(c, z, "unfold_backward", 1, in, &n->a));   /* UnfoldBackwardBackward0 */
    return finish(c, n, gin);
}

/* zeros_like(src).copy_(src) (diff with n=0): CopyBackwards, inputs (the
 * zeros, no grad; src): src gets the gradient */
static int bw_copy_backwards(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0)) give(c, gin, 0, zeros(c, g, g->ndim, g->sizes, g->dtype));
    if (NEED(1)) give(c, gin, 1, (tsr_tensor *)g);
    return finish(c, n, gin);
}

/* split / split_with_sizes / unsafe_split / unsafe_split_with_sizes (dim i0,
 * the outputs' lengths in dims[0..ndims))
 * and unbind (dim i0, ndims outputs): a multi-output node; an output without
 * a gradient contributes zeros (split_backward: cat, unbind_backward: stack) */
static int bw_split(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    int nout = n->a.ndims, d = (int)n->a.i0, nd = n->in_nd[0];
    bool unbind = !strcmp(n->f->key, "unbind");
    tsr_tensor **parts = tsr_calloc((size_t)(nout > 0 ? nout : 1), sizeof *parts);
    if (!parts) {
        c->fail = true;
        return finish(c, n, gin);
    }
    for (int k = 0; k < nout && !c->fail; k++) {
        tsr_tensor *gk = n->outg && n->nout > 1 ? n->outg[k] : k == 0 ? (tsr_tensor *)g : NULL;
        if (!gk) {
            int64_t sz[TSR_MAX_DIMS];
            int m = 0;
            for (int i = 0; i < nd; i++)
                if (!(unbind && i == d)) sz[m++] = i == d ? n->a.dims[k] : n->in_sizes[0][i];
            gk = zeros(c, g, m, sz, g->dtype);
        }
        parts[k] = gk;
    }
    if (!c->fail) {
        tsr_tensor *r = keep(c, unbind ? tsr_stack(nout, (const tsr_tensor *const *)parts, d, NULL)
                                       : tsr_cat(nout, (const tsr_tensor *const *)parts, d, NULL));
        tsr_ag_args a = {0};
        a.ndims = -1;
        a.i0 = d;
        if (nout <= TSR_AG_MAXIN) r = record_on(c, r, unbind ? "stack" : "cat", nout, (const tsr_tensor *const *)parts, &a);
        else if (tsr__ag_creating()) {
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "create_graph=True: the derivative of a split into more than %d pieces "
                          "is not implemented.", TSR_AG_MAXIN);
            c->fail = true;
        }
        give(c, gin, 0, r);
    }
    tsr_free(parts);
    return finish(c, n, gin);
}

/* masked_fill(self, mask, value tensor): self grad.masked_fill(mask, 0);
 * value masked_fill_backward: grad.masked_select(mask).sum() */
static int bw_masked_fill_tensor(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *mask = SAVED(1);
    if (NEED(0)) give(c, gin, 0, masked_fill0(c, g, mask));
    if (NEED(2) && !c->fail) {
        tsr_dims all = {.n = -1};
        give(c, gin, 2, sum_dims(c, msel_rec(c, g, mask), &all, false));
    }
    return finish(c, n, gin);
}

/* the fused activation backward kernels as recorded with create_graph, and
 * their own backward (derivatives.yaml: grad_output gets the same kernel,
 * self the double-backward formula) */
#define FUSED(name, plain, key)                                                        \
    static int name(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin) { return fused_bw(n, g, gin, plain, key); }
FUSED(bw_leaky_relu_c, bw_leaky_relu, "leaky_relu_backward")
FUSED(bw_hardtanh_c, bw_hardtanh, "hardtanh_backward")
FUSED(bw_elu_c, bw_elu, "elu_backward")
FUSED(bw_leaky_relu_c_, bw_leaky_relu_, "leaky_relu_backward")   /* over (grad, result), self_is_result */
FUSED(bw_elu_c_, bw_elu_, "elu_backward")                        /* over (grad, result), is_result (a.i2) */
FUSED(bw_softplus_c, bw_softplus, "softplus_backward")
FUSED(bw_log_sigmoid_c, bw_log_sigmoid, "log_sigmoid_backward")
FUSED(bw_hardswish_c, bw_hardswish, "hardswish_backward")
static int bw_gelu_c(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    return fused_bw(n, g, gin, bw_gelu, "gelu_backward");
}
#undef FUSED

/* inputs (grad_output, self); the forward's key in a.i2's table below */
static const struct { const char *bkey, *base; tsr_backward_fn plain; } act_bw[] = {
    {"elu_backward", "elu", bw_elu},           {"gelu_backward", "gelu", bw_gelu},
    {"hardswish_backward", "hardswish", bw_hardswish},
    {"hardtanh_backward", "hardtanh", bw_hardtanh}, {"leaky_relu_backward", "leaky_relu", bw_leaky_relu},
    {"log_sigmoid_backward", "log_sigmoid", bw_log_sigmoid}, {"softplus_backward", "softplus", bw_softplus},
};

static int bw_act_backward(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    size_t k = 0;
    while (k < sizeof act_bw / sizeof *act_bw && strcmp(act_bw[k].bkey, n->f->key)) k++;
    const char *key = n->f->key, *base = act_bw[k].base;
    /* celu records elu_backward with its own coefficients: the base formula by the forward's key;
       is_result (a.i2): the in-place forms' kernel of the result */
    if (!strcmp(key, "elu_backward")) base = n->a.i2 ? (n->a.flag ? "celu_" : "elu_") : n->a.flag ? "celu" : "elu";
    tsr_backward_fn plain = !strcmp(key, "elu_backward") && n->a.i2 ? bw_elu_ : act_bw[k].plain;
    if (NEED(0)) {
        tsr_tensor *r = NULL;
        if (again_bw(n, g, &r, base, plain, key) < 0) c->fail = true;
        give(c, gin, 0, r ? keep(c, r) : NULL);
    }
    if (NEED(1) && !c->fail) {
        tsr_tensor *go = SAVED(0), *x = SAVED(1), *r = NULL;
        if (!strcmp(key, "leaky_relu_backward") || !strcmp(key, "hardtanh_backward")) {
            r = zeros(c, g, g->ndim, g->sizes, g->dtype);
        } else if (!strcmp(key, "elu_backward") && n->a.i2) {   /* is_result: grad * gO * input_scale * (result < 0) */
            double iscale = n->a.flag ? 1.0 / (double)(float)n->a.d0 : 1.0;
            tsr_tensor *m = cmps(c, TSR_CMP_LT, x, 0.0);
            r = MUL(bins(c, TSR_BINOP_MUL, MUL(g, go), iscale), m ? keep(c, tsr_to_dtype(m, g->dtype, false)) : NULL);
        } else if (!strcmp(key, "elu_backward")) {   /* elu_backward(grad * gO * input_scale, ...) * (self < 0) */
            double iscale = !strcmp(base, "celu") ? 1.0 / (double)(float)n->a.d0 : 1.0;
            tsr_tensor *t = bins(c, TSR_BINOP_MUL, MUL(g, go), iscale), *e = NULL;
            if (t && !c->fail && again_bw(n, t, &e, base, bw_elu, key) < 0) c->fail = true;
            if (e) keep(c, e);
            tsr_tensor *m = cmps(c, TSR_CMP_LT, x, 0.0);
            r = MUL(e, m ? keep(c, tsr_to_dtype(m, g->dtype, false)) : NULL);
        } else if (!strcmp(key, "softplus_backward")) {   /* sigmoid_backward(grad * gO, (x beta).sigmoid()) * (x beta < th) * beta */
            tsr_tensor *xb = bins(c, TSR_BINOP_MUL, x, n->a.d0);
            tsr_tensor *sb = sigmoid_bw(c, MUL(g, go), un(c, TSR_UNOP_SIGMOID, xb));
            tsr_tensor *m = cmps(c, TSR_CMP_LT, xb, n->a.d1);
            r = bins(c, TSR_BINOP_MUL, MUL(sb, m ? keep(c, tsr_to_dtype(m, g->dtype, false)) : NULL), n->a.d0);
        } else if (!strcmp(key, "log_sigmoid_backward")) {   /* z = self.sigmoid(): grad * gO * (z - 1) * z */
            tsr_tensor *z = un(c, TSR_UNOP_SIGMOID, x);
            r = MUL(MUL(MUL(g, go), bins(c, TSR_BINOP_SUB, z, 1.0)), z);
        } else if (!strcmp(key, "gelu_backward") && n->a.flag) {   /* gelu_double_backward, 'tanh' */
            const double kbeta = M_SQRT2 * M_2_SQRTPI * 0.5, kkappa = 0.044715;
            tsr_tensor *x3 = bins(c, TSR_BINOP_POW, x, 3.0);
            tsr_tensor *inner = sbin(c, TSR_BINOP_MUL, kbeta, bin(c, TSR_BINOP_ADD, x, sbin(c, TSR_BINOP_MUL, kkappa, x3)));
            tsr_tensor *th = un(c, TSR_UNOP_TANH, inner);
            tsr_tensor *sech = sbin(c, TSR_BINOP_DIV, 1.0, un(c, TSR_UNOP_COSH, inner));
            tsr_tensor *f = sbin(c, TSR_BINOP_MUL, 0.5, x);
            tsr_tensor *gg = sbin(c, TSR_BINOP_SUB, 1.0, MUL(th, th));
            tsr_tensor *h = sbin(c, TSR_BINOP_MUL, kbeta, sbin(c, TSR_BINOP_ADD, 1.0, MUL(sbin(c, TSR_BINOP_MUL, 3 * kkappa, x), x)));
            tsr_tensor *fgh = MUL(sbin(c, TSR_BINOP_MUL, 0.5, gg), h);
            tsr_tensor *gp = MUL(MUL(sbin(c, TSR_BINOP_MUL, 2.0, sech), MUL(un(c, TSR_UNOP_NEG, sech), th)), h);
            tsr_tensor *gpfh = MUL(MUL(f, h), gp);
            tsr_tensor *hp = sbin(c, TSR_BINOP_MUL, kbeta, sbin(c, TSR_BINOP_MUL, 6 * kkappa, x));
            tsr_tensor *hpfg = MUL(MUL(f, gg), hp);
            r = MUL(MUL(g, go), bin(c, TSR_BINOP_ADD, bin(c, TSR_BINOP_ADD, bin(c, TSR_BINOP_ADD, fgh, fgh), gpfh), hpfg));
        } else if (!strcmp(key, "gelu_backward")) {   /* gelu_double_backward, 'none' */
            const double kbeta = M_2_SQRTPI * M_SQRT1_2 * 0.5;
            tsr_tensor *sq = MUL(x, x);
            tsr_tensor *pdf = sbin(c, TSR_BINOP_MUL, kbeta, un(c, TSR_UNOP_EXP, sbin(c, TSR_BINOP_MUL, -0.5, sq)));
            tsr_tensor *dd = bin(c, TSR_BINOP_SUB, sbin(c, TSR_BINOP_MUL, 2.0, pdf), MUL(sq, pdf));
            r = MUL(MUL(g, go), dd);
        } else {   /* hardswish: where(-3 < self < 3, grad * gO / 3, 0) */
            tsr_tensor *m = cmp(c, TSR_CMP_LOGICAL_AND, cmps(c, TSR_CMP_GT, x, -3.0), cmps(c, TSR_CMP_LT, x, 3.0));
            r = where0(c, m, bins(c, TSR_BINOP_DIV, MUL(g, go), 3.0), false);
        }
        give(c, gin, 1, r);
    }
    return finish(c, n, gin);
}

/* ------------------------------------------------------------ the table */

/* Sorted by key (bsearch). */
/* ------------------------------------------------------------ matmul family (gradC) */

/* maybe_multiply(t, s): t itself when s == 1 */
static tsr_tensor *mmul(F *c, tsr_tensor *t, double s)
{
    return s == 1.0 ? t : bins(c, TSR_BINOP_MUL, t, s);
}
static tsr_tensor *bmm_(F *c, const tsr_tensor *a, const tsr_tensor *b)
{
    if (c->fail || !a || !b) return NULL;
    return keep(c, tsr__ag_bmm(a, b));
}
static tsr_tensor *mv_(F *c, const tsr_tensor *a, const tsr_tensor *b)
{
    if (c->fail || !a || !b) return NULL;
    return keep(c, tsr__ag_mv(a, b));
}
static tsr_tensor *ger_(F *c, const tsr_tensor *a, const tsr_tensor *b)
{
    if (c->fail || !a || !b) return NULL;
    return keep(c, tsr__ag_outer(a, b));
}

/* addmv(self, mat, vec, beta d0, alpha d1) */
static int bw_addmv(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0)) give(c, gin, 0, mmul(c, (tsr_tensor *)g, n->a.d0));
    if (NEED(1)) give(c, gin, 1, mmul(c, ger_(c, g, cj(c, SAVED(2))), n->a.d1));
    if (NEED(2)) give(c, gin, 2, mmul(c, mv_(c, cj(c, tt(c, SAVED(1))), g), n->a.d1));
    return finish(c, n, gin);
}

/* addr(self, vec1, vec2, beta d0, alpha d1) */
static int bw_addr(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0)) give(c, gin, 0, mmul(c, (tsr_tensor *)g, n->a.d0));
    if (NEED(1)) give(c, gin, 1, mmul(c, mv_(c, g, cj(c, SAVED(2))), n->a.d1));
    if (NEED(2)) give(c, gin, 2, mmul(c, mv_(c, tt(c, g), cj(c, SAVED(1))), n->a.d1));
    return finish(c, n, gin);
}

/* baddbmm(self, batch1, batch2, beta d0, alpha d1); addbmm expands the 2-D
 * gradient over the batch first */
static int bw_baddbmm_any(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin, bool sum)
{
    F c0 = {0}, *c = &c0;
    /* batch1's, batch2's, then self's: 1.13's generated code takes the
     * inputs in their names' sorted order; addbmm expands grad for each */
    int64_t sz[3] = {n->in_sizes[1][0], n->in_sizes[1][1], n->in_sizes[2][2]};
    if (NEED(1)) {
        tsr_tensor *ge = sum ? expand(c, unsq(c, g, 0), 3, sz) : (tsr_tensor *)g;
        give(c, gin, 1, mmul(c, bmm_(c, ge, cj(c, transpose(c, SAVED(2), 1, 2))), n->a.d1));
    }
    if (NEED(2)) {
        tsr_tensor *ge = sum ? expand(c, unsq(c, g, 0), 3, sz) : (tsr_tensor *)g;
        give(c, gin, 2, mmul(c, bmm_(c, cj(c, transpose(c, SAVED(1), 1, 2)), ge), n->a.d1));
    }
    if (NEED(0)) give(c, gin, 0, mmul(c, (tsr_tensor *)g, n->a.d0));
    return finish(c, n, gin);
}
static int bw_baddbmm(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin) { return bw_baddbmm_any(n, g, gin, false); }
static int bw_addbmm(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin) { return bw_baddbmm_any(n, g, gin, true); }

/* ------------------------------------------------------------ linear algebra (gradC) */

static tsr_tensor *matmul_(F *c, const tsr_tensor *a, const tsr_tensor *b)
{
    if (c->fail || !a || !b) return NULL;
    return keep(c, tsr__ag_matmul(a, b));   /* 1.13's decomposition with create_graph */
}
/* a.conj(): the lazy conjugate view (ConjBackward0) */
static tsr_tensor *cjv(F *c, const tsr_tensor *a)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_conj(a));
}
/* A^H of the last two dims: transpose(-2, -1).conj() as 1.13's mH() */
static tsr_tensor *mH(F *c, const tsr_tensor *a)
{
    if (c->fail || !a) return NULL;
    return cjv(c, transpose(c, a, a->ndim - 2, a->ndim - 1));
}

/* linalg_cross(self, other, dim i0): cross(other.conj(), grad), cross(grad, self.conj()) */
static int bw_linalg_cross(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(1)) {   /* 1.13's generated code computes the last input's first */
        tsr_tensor *x = cjv(c, SAVED(0));
        if (!c->fail) give(c, gin, 1, keep(c, tsr__ag_linalg_cross(g, x, n->a.i0)));
    }
    if (NEED(0)) {
        tsr_tensor *o = cjv(c, SAVED(1));
        if (!c->fail) give(c, gin, 0, keep(c, tsr__ag_linalg_cross(o, g, n->a.i0)));
    }
    return finish(c, n, gin);
}

/* linalg_inv_ex: -at::matmul(inverse.mH(), at::matmul(grad, inverse.mH())),
 * the two mH() two views (two nodes with create_graph), inner first */
static int bw_linalg_inv(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *inv = SAVED(TSR_AG_OUT);
    tsr_tensor *inner = matmul_(c, g, mH(c, inv));
    give(c, gin, 0, un(c, TSR_UNOP_NEG, matmul_(c, mH(c, inv), inner)));
    return finish(c, n, gin);
}

/* linalg_solve(A^H, diag_embed(v expanded to n)): v A^{-H} as 1.13's det and
 * slogdet backward compute it in backward (no LU kept) */
static tsr_tensor *solve_diag(F *c, const tsr_tensor *A, const tsr_tensor *v)
{
    if (c->fail || !A || !v) return NULL;
    int64_t sz[TSR_MAX_DIMS];
    for (int i = 0; i < A->ndim - 1; i++) sz[i] = A->sizes[i];
    tsr_tensor *e = expand(c, unsq(c, v, -1), A->ndim - 1, sz);
    tsr_tensor *d = e ? keep(c, tsr__ag_diag_embed(e, 0, -2, -1)) : NULL;
    d = transpose(c, d, A->ndim - 2, A->ndim - 1);   /* F-transposed, as 1.13 passes it */
    tsr_tensor *ah = mH(c, A);
    if (c->fail) return NULL;
    if (!tsr__ag_creating()) {   /* the solve without its checks, as before */
        tsr_tensor *x = NULL, *info = NULL;
        if (tsr_linalg_solve_ex(ah, d, true, NULL, &x, &info) < 0) {
            c->fail = true;
            return NULL;
        }
        keep(c, info);
        return keep(c, x);
    }
    return keep(c, tsr__ag_linalg_solve(ah, d, true));
}

/* whether any element of the bool tensor m is true; false on error */
static bool any_true(F *c, const tsr_tensor *m)
{
    tsr_dims all = {.n = -1};
    tsr_tensor *t = c->fail ? NULL : keep(c, tsr_sum(m, &all, false, TSR_DTYPE_UNDEFINED, NULL));
    tsr_scalar v;
    return t && tsr_tensor_item(t, &v) == 0 && tsr_scalar_to_double(v) > 0;
}

/* linalg_det_backward in grad mode (create_graph): linalg_solve(A^H,
 * diag_embed(grad * det.conj()).mT()) for a non-singular A; 1.13 takes an
 * SVD-based formula where |det| is small, which is not recorded here */
static int det_grad_mode(F *c, tsr_node *n, const tsr_tensor *g, const tsr_tensor *A, const tsr_tensor *det,
                         tsr_tensor **gin)
{
    double eps = A->dtype == TSR_FLOAT64 || A->dtype == TSR_COMPLEX128 ? DBL_EPSILON : FLT_EPSILON;
    tsr_tensor *small = cmps(c, TSR_CMP_LT, keep(c, tsr_unary(TSR_UNOP_ABS, det, NULL, NULL)), 100.0 * eps);
    if (any_true(c, small)) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "create_graph=True: the derivative of 'linalg_det' at a (nearly) "
                      "singular matrix is not implemented.");
        c->fail = true;
    }
    give(c, gin, 0, solve_diag(c, A, MUL(g, cjv(c, det))));
    return finish(c, n, gin);
}

/* _linalg_det: d = grad * conj(det) on a diagonal, solved with the LU
 * factorisation _linalg_det made (of A^T when A is contiguous and real),
 * its zero pivots replaced by the dtype's epsilon so that a singular A
 * gives the limit of nearby matrices: 1.13's linalg_det_backward when grad
 * mode is off (every backward without create_graph). The signs of the zeros
 * a singular A gets come from these very solves. */
static int bw_linalg_det(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *A = SAVED(0), *det = SAVED(TSR_AG_OUT);
    if (c->fail) return finish(c, n, gin);
    if (tsr_tensor_numel(A) == 0) {
        give(c, gin, 0, zeros_in(c, n, 0, g));
        return finish(c, n, gin);
    }
    if (tsr__ag_creating()) return det_grad_mode(c, n, g, A, det, gin);
    tsr_tensor *v = MUL(g, cj(c, det));
    int64_t sz[TSR_MAX_DIMS];
    for (int i = 0; i < A->ndim - 1; i++) sz[i] = A->sizes[i];
    tsr_tensor *e = expand(c, unsq(c, v, -1), A->ndim - 1, sz);
    tsr_tensor *d = e ? keep(c, tsr_diag_embed(e, 0, -2, -1)) : NULL;
    d = transpose(c, d, A->ndim - 2, A->ndim - 1);   /* F-transposed, as 1.13 passes it */
    bool use_at = tsr_tensor_is_contiguous(A) && !tsr_dtype_is_complex(A->dtype);
    tsr_tensor *lu = NULL, *piv = NULL, *info = NULL, *r = NULL;
    const tsr_tensor *fa = use_at ? mH(c, A) : A;
    if (c->fail || tsr_linalg_lu_factor_ex(fa, true, NULL, "linalg.det", &lu, &piv, &info) < 0) {
        c->fail = true;
        return finish(c, n, gin);
    }
    keep(c, lu), keep(c, piv), keep(c, info);
    /* LU + diag_embed(where(LU.diagonal() == 0, eps, 0)): every entry gets
     * the sum, so a -0 in LU becomes +0 as in 1.13 */
    tsr_tensor *z = cmps(c, TSR_CMP_EQ, keep(c, tsr_view_diagonal(lu, 0, -2, -1)), 0.0);
    tsr_tensor *pert = NULL;
    if (!c->fail) {
        double eps = A->dtype == TSR_FLOAT64 || A->dtype == TSR_COMPLEX128 ? DBL_EPSILON : FLT_EPSILON;
        tsr_operand p = tsr_operand_scalar(tsr_scalar_float(eps)), q = tsr_operand_scalar(tsr_scalar_float(0.0));
        tsr_tensor *w = keep(c, tsr_where(z, &p, &q, NULL));
        pert = w ? keep(c, tsr_diag_embed(w, 0, -2, -1)) : NULL;
    }
    tsr_tensor *lu2 = bin(c, TSR_BINOP_ADD, lu, pert);
    if (!c->fail) {
        if (tsr_linalg_lu_solve(lu2, piv, d, true, !use_at, &r) < 0) c->fail = true;
        else keep(c, r);
    }
    give(c, gin, 0, r);
    return finish(c, n, gin);
}

/* _linalg_slogdet: grad_logabsdet A^{-H} by linalg_solve (real A) */
static int bw_linalg_slogdet(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *A = SAVED(0);
    if (!c->fail && tsr_tensor_numel(A) == 0) give(c, gin, 0, zeros_in(c, n, 0, g));
    else give(c, gin, 0, solve_diag(c, A, g));
    return finish(c, n, gin);
}

/* _linalg_solve_ex(A, B, left flag): linalg_solve_backward of 1.13 outside
 * grad mode: gB = lu_solve(LU, pivots, gX, left, adjoint) with the LU the
 * forward used (of A^T when A is contiguous and real, then no adjoint);
 * gA = -gB X^H (left) or -X^H gB; a vector B works as a column */
static int bw_linalg_solve(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *A = SAVED(0), *X = SAVED(TSR_AG_OUT);
    if (c->fail) return finish(c, n, gin);
    bool left = n->a.flag;
    bool vec = X->ndim == 1;
    if (!vec && X->ndim == A->ndim - 1) {
        vec = true;
        for (int i = 0; i < X->ndim; i++) vec &= X->sizes[i] == A->sizes[i];
    }
    if (tsr__ag_creating()) {   /* 1.13 in grad mode: gB = linalg_solve(A^H, gX, left), no LU kept */
        tsr_tensor *gm = vec ? unsq(c, g, -1) : (tsr_tensor *)g, *ah = mH(c, A);   /* 1.13's build: the right argument first */
        tsr_tensor *gB = c->fail ? NULL : keep(c, tsr__ag_linalg_solve(ah, gm, left));
        if (NEED(0)) {
            tsr_tensor *xh = mH(c, vec ? unsq(c, X, -1) : X);
            tsr_tensor *gA = un(c, TSR_UNOP_NEG, left ? matmul_(c, gB, xh) : matmul_(c, xh, gB));
            give(c, gin, 0, vec && gA ? keep(c, tsr__ag_squeeze_dim(gA, gA->ndim - 1)) : gA);
        }
        if (NEED(1)) give(c, gin, 1, vec && gB ? keep(c, tsr__ag_squeeze_dim(gB, gB->ndim - 1)) : gB);
        return finish(c, n, gin);
    }
    bool use_t = tsr_tensor_is_contiguous(A) && !tsr_dtype_is_complex(A->dtype);
    const tsr_tensor *fa = use_t ? transpose(c, A, A->ndim - 2, A->ndim - 1) : A;
    tsr_tensor *lu = NULL, *piv = NULL, *info = NULL, *gB = NULL;
    if (!c->fail && tsr_linalg_lu_factor_ex(fa, true, NULL, "linalg.lu_factor", &lu, &piv, &info) < 0) c->fail = true;
    if (!c->fail) keep(c, lu), keep(c, piv), keep(c, info);
    tsr_tensor *gm = vec ? unsq(c, g, -1) : (tsr_tensor *)g;
    if (!c->fail && tsr_linalg_lu_solve(lu, piv, gm, left, !use_t, &gB) < 0) c->fail = true;
    if (!c->fail) keep(c, gB);
    if (NEED(0)) {
        tsr_tensor *xh = mH(c, vec ? unsq(c, X, -1) : X);
        give(c, gin, 0, un(c, TSR_UNOP_NEG, left ? matmul_(c, gB, xh) : matmul_(c, xh, gB)));
    }
    if (NEED(1)) {
        tsr_tensor *r = gB;
        if (vec && r && !c->fail) r = keep(c, tsr_view_squeeze_dim(r, r->ndim - 1));
        give(c, gin, 1, r);
    }
    return finish(c, n, gin);
}

static tsr_tensor *tril_(F *c, const tsr_tensor *a, int64_t k)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_tril(a, k, false));
}
static tsr_tensor *solve_tri(F *c, const tsr_tensor *a, const tsr_tensor *b, bool upper, bool left)
{
    if (c->fail || !a || !b) return NULL;
    return keep(c, tsr__ag_solve_triangular(a, b, upper, left, false));
}

/* linalg_solve_triangular(A, B, upper flag, left i0, unitriangular i1):
 * 1.13's linalg_solve_triangular_backward: gB = solve_triangular(A^H,
 * grad, !upper, left, unitriangular); gA = -gB X^H (left) or -X^H gB,
 * then its triu(unitriangular) / tril(-unitriangular) */
static int bw_solve_triangular(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *A = SAVED(0), *X = SAVED(TSR_AG_OUT);
    bool upper = n->a.flag, left = n->a.i0 != 0, unit = n->a.i1 != 0;
    tsr_tensor *gB = c->fail ? NULL : keep(c, tsr__ag_solve_triangular(mH(c, A), g, !upper, left, unit));
    if (NEED(0)) {
        tsr_tensor *xh = mH(c, X);
        tsr_tensor *gA = un(c, TSR_UNOP_NEG, left ? matmul_(c, gB, xh) : matmul_(c, xh, gB));
        give(c, gin, 0, gA && !c->fail ? keep(c, tsr__ag_tril(gA, upper ? (int64_t)unit : -(int64_t)unit, upper)) : NULL);
    }
    if (NEED(1)) give(c, gin, 1, gB);
    return finish(c, n, gin);
}

/* cholesky / linalg_cholesky_ex (upper flag): cholesky_backward of 1.13 */
static int bw_cholesky(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *L = SAVED(TSR_AG_OUT), *gL = (tsr_tensor *)g;
    if (n->a.flag) {
        L = mH(c, L);
        gL = mH(c, gL);
    }
    tsr_tensor *gA = tril_(c, matmul_(c, mH(c, L), gL), 0);
    gA = bins(c, TSR_BINOP_MUL, bin(c, TSR_BINOP_ADD, gA, mH(c, tril_(c, gA, -1))), 0.5);
    gA = solve_tri(c, mH(c, L), gA, true, true);
    gA = solve_tri(c, L, gA, false, false);
    give(c, gin, 0, gA);
    return finish(c, n, gin);
}

/* linalg_matrix_exp: linalg_matrix_exp_differential(A, grad, adjoint): the
 * upper right block of exp([[A^H, G], [0, A^H]]), the zeros filled by three
 * copy_ into narrowed views in 1.13's order (top left A^H, bottom right
 * A^H, top right grad; CopySlices with create_graph, A^H one mH() for
 * both, as differential_analytic_matrix_function computes it), then matrix_exp and two narrows (LinalgMatrixExpBackward0,
 * SliceBackward0) */
static int bw_matrix_exp(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *A = SAVED(0);
    if (c->fail) return finish(c, n, gin);
    int nd = A->ndim;
    int64_t m = A->sizes[nd - 1], sz[TSR_MAX_DIMS];
    for (int i = 0; i < nd; i++) sz[i] = A->sizes[i];
    sz[nd - 2] *= 2;
    sz[nd - 1] *= 2;
    tsr_tensor *big = zeros(c, A, nd, sz, A->dtype);
    tsr_tensor *cur = big ? keep(c, tsr_view_alias(big)) : NULL;   /* the meta matrix before each copy */
    static const int64_t rows[3] = {0, 1, 0}, cols[3] = {0, 1, 1};   /* in units of m */
    const tsr_tensor *Ah = mH(c, A);   /* adjoint ? self.transpose(-2, -1).conj() : self, once */
    for (int k = 0; k < 3 && !c->fail; k++) {
        const tsr_tensor *src = k == 2 ? g : Ah;
        tsr_tensor *blk = keep(c, tsr_view_narrow(big, nd - 2, rows[k] * m, m));
        blk = blk ? keep(c, tsr_view_narrow(blk, nd - 1, cols[k] * m, m)) : NULL;
        if (!blk || !src || tsr_copy_(blk, src) < 0) {
            c->fail = true;
            break;
        }
        if (!tsr__ag_creating()) continue;
        tsr_ag_args ra = {0};
        ra.ndims = nd;
        for (int d = 0; d < nd; d++) ra.dims[2 * d] = 0, ra.dims[2 * d + 1] = sz[d];
        ra.dims[2 * (nd - 2)] = rows[k] * m, ra.dims[2 * (nd - 2) + 1] = m;
        ra.dims[2 * (nd - 1)] = cols[k] * m, ra.dims[2 * (nd - 1) + 1] = m;
        tsr_tensor *nxt = keep(c, k == 2 ? tsr_tensor_retain(big) : tsr_view_alias(big));
        const tsr_tensor *in[2] = {cur, src};
        cur = record_on(c, nxt, "copy_slices", 2, in, &ra);
    }
    tsr_tensor *e = c->fail ? NULL : keep(c, tsr_linalg_matrix_exp(big));
    const tsr_tensor *ein[1] = {big};
    e = record_on(c, e, "linalg_matrix_exp", 1, ein, NULL);
    tsr_tensor *r = e ? keep(c, tsr__ag_narrow(e, nd - 2, 0, m)) : NULL;
    give(c, gin, 0, r ? keep(c, tsr__ag_narrow(r, nd - 1, m, m)) : NULL);
    return finish(c, n, gin);
}

/* _cdist_backward(grad, x1, x2, p, dist) of 1.13's kernel, element by
 * element over diff = x1_i - x2_j, summed over j; 0 where dist is 0 */
static tsr_tensor *cdist_grad(F *c, const tsr_tensor *g, const tsr_tensor *x1, const tsr_tensor *x2,
                              const tsr_tensor *dist, double p)
{
    if (c->fail || !g || !x1 || !x2 || !dist) return NULL;
    if ((x1->dtype == TSR_FLOAT32 || x1->dtype == TSR_FLOAT64) && !tsr__ag_creating())   /* 1.13's kernel */
        return keep(c, tsr_cdist_backward(g, x1, x2, p, dist));
    tsr_tensor *diff = bin(c, TSR_BINOP_SUB, unsq(c, x1, -2), unsq(c, x2, -3));   /* (.., r1, r2, m) */
    tsr_tensor *gg = unsq(c, g, -1), *dd = unsq(c, dist, -1), *r;
    if (p == 0) return zeros(c, g, x1->ndim, x1->sizes, g->dtype);
    tsr_tensor *zero = cmps(c, TSR_CMP_EQ, dd, 0.0);
    if (p == 1) {
        r = MUL(gg, un(c, TSR_UNOP_SIGN, diff));
    } else if (p == 2) {
        r = where0(c, zero, bin(c, TSR_BINOP_DIV, MUL(gg, diff), dd), true);
    } else if (isinf(p)) {
        tsr_tensor *ad = un(c, TSR_UNOP_ABS, diff);
        tsr_tensor *m = sbin(c, TSR_BINOP_SUB, 1.0, sbin(c, TSR_BINOP_MINIMUM, 1.0,
                                                        un(c, TSR_UNOP_CEIL, un(c, TSR_UNOP_ABS, bin(c, TSR_BINOP_SUB, ad, dd)))));
        r = MUL(MUL(gg, un(c, TSR_UNOP_SIGN, diff)), m);
    } else if (p < 2) {
        tsr_tensor *v = bin(c, TSR_BINOP_DIV, MUL(MUL(un(c, TSR_UNOP_SIGN, diff), bins(c, TSR_BINOP_POW, un(c, TSR_UNOP_ABS, diff), p - 1)), gg),
                            bins(c, TSR_BINOP_POW, dd, p - 1));
        tsr_tensor *z = zero;
        if (p < 1) z = cmp(c, TSR_CMP_LOGICAL_OR, expand(c, zero, diff ? diff->ndim : 0, diff ? diff->sizes : NULL),
                           cmps(c, TSR_CMP_EQ, diff, 0.0));
        r = where0(c, z, v, true);
    } else {
        tsr_tensor *v = bin(c, TSR_BINOP_DIV, MUL(MUL(diff, bins(c, TSR_BINOP_POW, un(c, TSR_UNOP_ABS, diff), p - 2)), gg),
                            bins(c, TSR_BINOP_POW, dd, p - 1));
        r = where0(c, zero, v, true);
    }
    return sum_dim1(c, r, -2, false);
}

/* t.contiguous(): t itself when it is, else clone (CloneBackward0) */
static const tsr_tensor *contiguous_rec(F *c, const tsr_tensor *t)
{
    if (c->fail || !t || tsr_tensor_is_contiguous(t)) return t;
    const tsr_tensor *in[1] = {t};
    return record_on(c, keep(c, tsr_clone(t, TSR_MF_CONTIGUOUS)), "clone", 1, in, NULL);
}

/* _cdist_backward(grad, x1, x2, p, dist), under create_graph its value
 * recorded as one CdistBackwardBackward0 node over (grad.contiguous(), x1,
 * x2, dist.contiguous()) (the value from the views, as the plain backward) */
static tsr_tensor *cdist_grad_node(F *c, tsr_node *n, const tsr_tensor *g, const tsr_tensor *x1, const tsr_tensor *x2,
                                   const tsr_tensor *dist)
{
    if (c->fail || !g || !dist || !tsr__ag_creating()) return cdist_grad(c, g, x1, x2, dist, n->a.d0);
    tsr__ag_set_creating(false);
    tsr_tensor *out[1] = {cdist_grad(c, g, x1, x2, dist, n->a.d0)};
    tsr__ag_set_creating(true);
    if (c->fail || !out[0]) return NULL;
    const tsr_tensor *in[4] = {contiguous_rec(c, g), x1, x2, contiguous_rec(c, dist)};
    if (c->fail) return NULL;
    tsr_tensor_retain(out[0]);   /* kept by c; the recorder may replace it by a copy */
    if (tsr__ag_record_backward(c, "cdist_backward", 4, in, &n->a, 1, out) < 0) {
        tsr_tensor_release(out[0]);
        return NULL;
    }
    return keep(c, out[0]);
}

/* _cdist_forward(x1, x2, p d0): x1's gradient _cdist_backward(grad.contiguous(),
 * x1, x2, p, result), x2's _cdist_backward(grad.mT().contiguous(), x2, x1, p,
 * result.mT().contiguous()) */
static int bw_cdist(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x1 = SAVED(0), *x2 = SAVED(1), *d = SAVED(TSR_AG_OUT);
    if (c->fail) return finish(c, n, gin);
    if (NEED(0)) give(c, gin, 0, cdist_grad_node(c, n, g, x1, x2, d));
    if (NEED(1))
        give(c, gin, 1, cdist_grad_node(c, n, transpose(c, g, g->ndim - 2, g->ndim - 1), x2, x1,
                                        transpose(c, d, d->ndim - 2, d->ndim - 1)));
    return finish(c, n, gin);
}

/* linalg_pinv: 1.13's pinv_backward, in the smaller of the two shapes */
static int bw_pinv(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *A = SAVED(0), *P = SAVED(TSR_AG_OUT);
    if (c->fail) return finish(c, n, gin);
    int64_t m = A->sizes[A->ndim - 2], k = A->sizes[A->ndim - 1];
    tsr_tensor *ph = mH(c, P), *gh = mH(c, g), *r;
    /* the return expression's operands are created right to left, as
     * 1.13's build evaluates them (the order of the recorded nodes) */
    if (m <= k) {
        tsr_tensor *K = matmul_(c, gh, P), *kph = matmul_(c, K, ph);
        tsr_tensor *d = matmul_(c, matmul_(c, ph, P), bin(c, TSR_BINOP_SUB, gh, matmul_(c, K, A)));   /* right arg first */
        tsr_tensor *b = matmul_(c, matmul_(c, A, P), kph);
        r = bin(c, TSR_BINOP_ADD, un(c, TSR_UNOP_NEG, mH(c, matmul_(c, P, K))), kph);
        r = bin(c, TSR_BINOP_ADD, bin(c, TSR_BINOP_SUB, r, b), d);
    } else {
        tsr_tensor *K = matmul_(c, P, gh), *phk = matmul_(c, ph, K);
        tsr_tensor *d = matmul_(c, matmul_(c, phk, P), A);
        tsr_tensor *b = matmul_(c, matmul_(c, bin(c, TSR_BINOP_SUB, gh, matmul_(c, A, K)), P), ph);
        r = bin(c, TSR_BINOP_ADD, un(c, TSR_UNOP_NEG, mH(c, matmul_(c, K, P))), b);
        r = bin(c, TSR_BINOP_SUB, bin(c, TSR_BINOP_ADD, r, phk), d);
    }
    give(c, gin, 0, r);
    return finish(c, n, gin);
}

static const tsr_formula formulas[] = {
    {"_embedding_bag_dense_backward", "torch::autograd::NotImplemented", 0, bw_not_implemented_row},
    {"_embedding_bag_per_sample_weights_backward", "torch::autograd::NotImplemented", 0, bw_not_implemented_aten},
    {"abs", "AbsBackward0", 1, bw_abs},
    {"acos", "AcosBackward0", 1, bw_acos},
    {"acosh", "AcoshBackward0", 1, tsr__bw_ahyp},
    {"adaptive_avg_pool2d", "AdaptiveAvgPool2DBackward0", 1, bw_adaptive_avg_pool2d},
    {"adaptive_avg_pool2d_backward", "AdaptiveAvgPool2DBackwardBackward0", 0, tsr__bw_avg_pool_dbl},
    {"adaptive_avg_pool3d", "AdaptiveAvgPool3DBackward0", 1, bw_adaptive_avg_pool3d},
    {"adaptive_avg_pool3d_backward", "AdaptiveAvgPool3DBackwardBackward0", 0, tsr__bw_avg_pool_dbl},
    {"adaptive_max_pool2d", "AdaptiveMaxPool2DBackward0", 1, bw_max_pool2d},
    {"adaptive_max_pool2d_backward", "AdaptiveMaxPool2DBackwardBackward0", 0, tsr__bw_max_pool_dbl},
    {"adaptive_max_pool3d", "AdaptiveMaxPool3DBackward0", 1, bw_max_pool3d},
    {"adaptive_max_pool3d_backward", "AdaptiveMaxPool3DBackwardBackward0", 0, tsr__bw_max_pool_dbl},
    {"add", "AddBackward0", 0, bw_add},
    {"add_s", "AddBackward1", 0, bw_pass},
    {"addbmm", "AddbmmBackward0", 6, bw_addbmm},
    {"addcdiv", "AddcdivBackward0", 6, tsr__bw_addcdiv},
    {"addcmul", "AddcmulBackward0", 6, tsr__bw_addcmul},
    {"addmm", "AddmmBackward0", 6, bw_addmm},
    {"addmv", "AddmvBackward0", 6, bw_addmv},
    {"addr", "AddrBackward0", 6, bw_addr},
    {"affine_grid_generator", "AffineGridGeneratorBackward0", 0, bw_affine_grid},
    {"alias", "AliasBackward0", 0, bw_pass},
    {"amax", "AmaxBackward0", 1 | TSR_SAVE_OUT, bw_amax},
    {"amin", "AminBackward0", 1 | TSR_SAVE_OUT, bw_amax},
    {"angle", "AngleBackward0", 1, bw_angle},
    {"as_strided_view", "AsStridedBackward0", 0, bw_as_strided_view},
    {"asin", "AsinBackward0", 1, bw_asin},
    {"asinh", "AsinhBackward0", 1, tsr__bw_ahyp},
    {"atan", "AtanBackward0", 1, bw_atan},
    {"atan2", "Atan2Backward0", 3, bw_atan2},
    {"atanh", "AtanhBackward0", 1, tsr__bw_ahyp},
    {"avg_pool2d", "AvgPool2DBackward0", 1, bw_avg_pool2d},
    {"avg_pool2d_backward", "AvgPool2DBackwardBackward0", 0, tsr__bw_avg_pool_dbl},
    {"avg_pool3d", "AvgPool3DBackward0", 1, bw_avg_pool3d},
    {"avg_pool3d_backward", "AvgPool3DBackwardBackward0", 0, tsr__bw_avg_pool_dbl},
    {"baddbmm", "BaddbmmBackward0", 6, bw_baddbmm},
    {"binary_cross_entropy", "BinaryCrossEntropyBackward0", 3, bw_bce},
    {"binary_cross_entropy_backward", "BinaryCrossEntropyBackwardBackward0", 7, bw_bce_dbl},
    {"binary_cross_entropy_with_logits", "BinaryCrossEntropyWithLogitsBackward0", 3, bw_bce_logits},
    {"binomial", "torch::autograd::NotImplemented", 0, bw_not_implemented_aten},
    {"bmm", "BmmBackward0", 3, bw_bmm},
    {"cat", "CatBackward0", 0, bw_cat},
    {"cdist", "CdistBackward0", 3 | TSR_SAVE_OUT, bw_cdist},
    {"cdist_backward", "CdistBackwardBackward0", 0, bw_fused_not_implemented},
    {"ceil", "CeilBackward0", 0, bw_zero},
    {"celu", "CeluBackward0", 1, bw_elu_c},
    {"celu_", "CeluBackward1", TSR_SAVE_OUT, bw_elu_c_},
    {"channel_shuffle", "torch::autograd::NotImplemented", 0, bw_not_implemented},
    {"cholesky", "CholeskyBackward0", TSR_SAVE_OUT, bw_cholesky},
    {"clamp", "ClampBackward1", 1, bw_clamp},
    {"clamp_max", "ClampMaxBackward0", 1, bw_clamp},
    {"clamp_max_t", "ClampMaxBackward1", 3, tsr__bw_clamp_bound},
    {"clamp_min", "ClampMinBackward0", 1, bw_clamp},
    {"clamp_min_t", "ClampMinBackward1", 3, tsr__bw_clamp_bound},
    {"clamp_tensor", "ClampBackward0", 7, tsr__bw_clamp_tensor},
    {"clone", "CloneBackward0", 0, bw_pass},
    {"coalesce", "CoalesceBackward0", 0, bw_pass},
    {"col2im", "Col2ImBackward0", 0, bw_im2col},
    {"conj", "ConjBackward0", 0, bw_conj},
    {"conj_physical", "ConjPhysicalBackward0", 0, bw_conj_physical},
    {"constant_pad_nd", "ConstantPadNdBackward0", 0, bw_constant_pad},
    {"conv_tbc", "ConvTbcBackward0", 7, tsr__bw_conv_tbc},
    {"convolution", "ConvolutionBackward0", 3, bw_convolution},
    {"convolution_backward", "ConvolutionBackwardBackward0", 7, tsr__bw_convolution_dbl},
    {"copy_backwards", "torch::autograd::CopyBackwards", 0, bw_copy_backwards},
    {"copy_slices", "torch::autograd::CopySlices", 0, bw_copy_slices},
    {"copy_slices_fn", "torch::autograd::CopySlices", 0, bw_copy_slices_fn},
    {"copy_slices_view", "torch::autograd::CopySlices", 0, bw_copy_slices_view},
    {"copysign", "CopysignBackward0", 1 | TSR_SAVE_OUT, tsr__bw_copysign},
    {"copysign_s", "CopysignBackward1", 1 | TSR_SAVE_OUT, tsr__bw_copysign},
    {"cos", "CosBackward0", 1, bw_cos},
    {"cosh", "CoshBackward0", 1, bw_cosh},
    {"ctc_loss", "CtcLossBackward0", 1 | TSR_SAVE_OUT, tsr__bw_ctc_loss},
    {"cummax", "CummaxBackward0", 0, tsr__bw_cummax},
    {"cummin", "CumminBackward0", 0, tsr__bw_cummax},
    {"cumprod", "CumprodBackward0", 1 | TSR_SAVE_OUT, bw_cumprod},
    {"cumsum", "CumsumBackward0", 0, bw_cumsum},
    {"deg2rad", "Deg2RadBackward0", 0, tsr__bw_deg2rad},
    {"detach_copy", "torch::autograd::NotImplemented", 0, bw_not_implemented_aten},
    {"diag", "DiagBackward0", 0, bw_diag},
    {"diag_embed", "DiagEmbedBackward0", 0, bw_diag_embed},
    {"diagonal", "DiagonalBackward0", 0, bw_diagonal},
    {"diagonal_backward", "DiagonalBackwardBackward0", 0, bw_view_backward},
    {"digamma", "DigammaBackward0", 1, tsr__bw_lgamma},
    {"dist", "DistBackward0", 3 | TSR_SAVE_OUT, tsr__bw_dist},
    {"div", "DivBackward0", 3, bw_div},
    {"div_rounding", "DivBackward2", 0, bw_div_rounding},
    {"div_s", "DivBackward1", 0, bw_div_s},
    {"div_sparse_s", "DivBackward0", 0, bw_div_sparse_s},
    {"dot", "DotBackward0", 3, bw_dot},
    {"elu", "EluBackward0", 1, bw_elu_c},
    {"elu_", "EluBackward1", TSR_SAVE_OUT, bw_elu_c_},
    {"elu_backward", "EluBackwardBackward0", 3, bw_act_backward},
    {"embedding", "EmbeddingBackward0", 0, bw_embedding},
    {"embedding_bag", "EmbeddingBagBackward0", 3, bw_embedding_bag},
    {"embedding_dense_backward", "EmbeddingDenseBackwardBackward0", 0, bw_view_backward},
    {"erf", "ErfBackward0", 1, bw_erf},
    {"erfc", "ErfcBackward0", 1, tsr__bw_erfc},
    {"erfinv", "ErfinvBackward0", 1, tsr__bw_erfinv},
    {"exp", "ExpBackward0", TSR_SAVE_OUT, bw_exp},
    {"exp2", "Exp2Backward0", TSR_SAVE_OUT, bw_exp2},
    {"expand", "ExpandBackward0", 0, bw_expand},
    {"expm1", "Expm1Backward0", TSR_SAVE_OUT, bw_expm1},
    {"fill", "FillBackward0", 0, bw_zero},
    {"fill_", "FillBackward2", 0, bw_zero},
    {"fill_t", "FillBackward1", 0, bw_fill_t},
    {"fill_t_", "FillBackward3", 0, bw_fill_t},
    {"flip", "FlipBackward0", 0, bw_flip},
    {"floor", "FloorBackward0", 0, bw_zero},
    {"fmax", "FmaxBackward0", 3, tsr__bw_fmax},
    {"fmin", "FminBackward0", 3, tsr__bw_fmax},
    {"fmod", "FmodBackward1", 3, tsr__bw_fmod},
    {"fmod_s", "FmodBackward0", 0, tsr__bw_first},
    {"frac", "FracBackward0", 0, tsr__bw_first},
    {"fractional_max_pool2d", "FractionalMaxPool2DBackward0", 1, bw_fractional_max_pool2d},
    {"fractional_max_pool2d_backward", "FractionalMaxPool2DBackwardBackward0", 0, tsr__bw_max_pool_dbl},
    {"fractional_max_pool3d", "FractionalMaxPool3DBackward0", 1, bw_fractional_max_pool3d},
    {"fractional_max_pool3d_backward", "FractionalMaxPool3DBackwardBackward0", 0, tsr__bw_max_pool_dbl},
    {"gather", "GatherBackward0", 2, bw_gather},
    {"gelu", "GeluBackward0", 1, bw_gelu_c},
    {"gelu_backward", "GeluBackwardBackward0", 3, bw_act_backward},
    {"glu", "GluBackward0", 1, bw_glu},
    {"glu_backward", "GluBackwardBackward0", 3, bw_glu_dbl},
    {"grid_sampler_2d", "GridSampler2DBackward0", 3, bw_grid_sampler},
    {"grid_sampler_2d_backward", "torch::autograd::NotImplemented", 0, bw_not_implemented_aten},
    {"grid_sampler_3d", "GridSampler3DBackward0", 3, bw_grid_sampler},
    {"grid_sampler_3d_backward", "torch::autograd::NotImplemented", 0, bw_not_implemented_aten},
    {"hardshrink", "HardshrinkBackward0", 1, bw_shrink},
    {"hardshrink_backward", "HardshrinkBackwardBackward0", 2, bw_shrink_dbl},
    {"hardsigmoid", "HardsigmoidBackward0", 1, bw_hardsigmoid},
    {"hardsigmoid_", "HardsigmoidBackward0", 1, bw_hardsigmoid},
    {"hardsigmoid_backward", "torch::autograd::NotImplemented", 0, bw_not_implemented_aten},
    {"hardswish", "HardswishBackward0", 1, bw_hardswish_c},
    {"hardswish_", "HardswishBackward0", 1, bw_hardswish_c},
    {"hardswish_backward", "HardswishBackwardBackward0", 3, bw_act_backward},
    {"hardtanh", "HardtanhBackward0", 1, bw_hardtanh_c},
    {"hardtanh_", "HardtanhBackward0", 1, bw_hardtanh_c},
    {"hardtanh_backward", "HardtanhBackwardBackward0", 3, bw_act_backward},
    {"huber_loss", "HuberLossBackward0", 3, bw_huber},
    {"huber_loss_backward", "HuberLossBackwardBackward0", 7, bw_loss_dbl},
    {"hypot", "HypotBackward0", 3 | TSR_SAVE_OUT, tsr__bw_hypot},
    {"i0", "I0Backward0", 1, tsr__bw_i0},
    {"im2col", "Im2ColBackward0", 0, bw_im2col},
    {"index", "IndexBackward0", 0xfffe, bw_index},
    {"index_add", "IndexAddBackward0", 0, bw_index_add},
    {"index_fill", "IndexFillBackward0", 0, bw_index_fill},
    {"index_fill_t", "IndexFillBackward1", 0, bw_index_fill},
    {"index_put_fn", "IndexPutBackward0", 0, tsr__bw_index_put_fn},
    {"index_put_impl", "IndexPutImplBackward0", 0xFFFC, bw_index_put_impl},
    {"index_put_key", "IndexPutBackward0", 0, bw_index_put_key},
    {"index_put_mask", "IndexPutBackward0", 0, bw_index_put_mask},
    {"index_select", "IndexSelectBackward0", 2, bw_index_select},
    {"kthvalue", "KthvalueBackward0", 0, bw_max_dim},
    {"leaky_relu", "LeakyReluBackward0", 1, bw_leaky_relu_c},
    {"leaky_relu_", "LeakyReluBackward1", TSR_SAVE_OUT, bw_leaky_relu_c_},
    {"leaky_relu_backward", "LeakyReluBackwardBackward0", 3, bw_act_backward},
    {"lerp", "LerpBackward0", 0, tsr__bw_lerp},
    {"lerp_t", "LerpBackward1", 7, tsr__bw_lerp_t},
    {"lgamma", "LgammaBackward0", 1, tsr__bw_lgamma},
    {"linalg_cholesky", "LinalgCholeskyExBackward0", TSR_SAVE_OUT, bw_cholesky},
    {"linalg_cross", "LinalgCrossBackward0", 3, bw_linalg_cross},
    {"linalg_det", "LinalgDetBackward0", 1 | TSR_SAVE_OUT, bw_linalg_det},
    {"linalg_eig", "LinalgEigBackward0", 0, tsr__bw_linalg_eig},
    {"linalg_eigh", "LinalgEighBackward0", 0, tsr__bw_linalg_eig},
    {"linalg_eigvalsh", "LinalgEighBackward0", 1, tsr__bw_linalg_eigvalsh},
    {"linalg_inv", "LinalgInvExBackward0", TSR_SAVE_OUT, bw_linalg_inv},
    {"linalg_matrix_exp", "LinalgMatrixExpBackward0", 1, bw_matrix_exp},
    {"linalg_pinv", "LinalgPinvBackward0", 1 | TSR_SAVE_OUT, bw_pinv},
    {"linalg_qr", "LinalgQrBackward0", 0, tsr__bw_linalg_qr},
    {"linalg_slogdet", "LinalgSlogdetBackward0", 1, bw_linalg_slogdet},
    {"linalg_solve", "LinalgSolveExBackward0", 1 | TSR_SAVE_OUT, bw_linalg_solve},
    {"linalg_solve_triangular", "LinalgSolveTriangularBackward0", 1 | TSR_SAVE_OUT, bw_solve_triangular},
    {"linalg_svd", "LinalgSvdBackward0", 0, tsr__bw_linalg_svd},
    {"linalg_svdvals", "LinalgSvdBackward0", 1, tsr__bw_linalg_svdvals},
    {"log", "LogBackward0", 1, bw_log},
    {"log10", "Log10Backward0", 1, bw_log10},
    {"log1p", "Log1PBackward0", 1, bw_log1p},
    {"log2", "Log2Backward0", 1, bw_log2},
    {"log_sigmoid", "LogSigmoidBackward0", 1, bw_log_sigmoid_c},
    {"log_sigmoid_backward", "LogSigmoidBackwardBackward0", 3, bw_act_backward},
    {"log_softmax", "LogSoftmaxBackward0", TSR_SAVE_OUT, bw_log_softmax},
    {"log_softmax_backward_data", "LogSoftmaxBackwardDataBackward0", 3, bw_log_softmax_backward_data},
    {"logaddexp", "LogaddexpBackward0", 3, tsr__bw_logaddexp},
    {"logaddexp2", "Logaddexp2Backward0", 3, tsr__bw_logaddexp},
    {"logcumsumexp", "LogcumsumexpBackward0", 1 | TSR_SAVE_OUT, tsr__bw_logcumsumexp},
    {"logit", "LogitBackward0", 1, tsr__bw_logit},
    {"logsumexp", "LogsumexpBackward0", 1 | TSR_SAVE_OUT, bw_logsumexp},
    {"masked_fill", "MaskedFillBackward0", 2, bw_masked_fill},
    {"masked_fill_tensor", "MaskedFillBackward1", 2, bw_masked_fill_tensor},
    {"masked_scatter", "MaskedScatterBackward0", 0, bw_masked_scatter},
    {"masked_select", "MaskedSelectBackward0", 0, bw_masked_select},
    {"max", "MaxBackward1", 1 | TSR_SAVE_OUT, bw_max_all},
    {"max_dim", "MaxBackward0", 0, bw_max_dim},
    {"max_pool2d", "MaxPool2DWithIndicesBackward0", 1, bw_max_pool2d},
    {"max_pool2d_backward", "MaxPool2DWithIndicesBackwardBackward0", 0, tsr__bw_max_pool_dbl},
    {"max_pool3d", "MaxPool3DWithIndicesBackward0", 1, bw_max_pool3d},
    {"max_pool3d_backward", "MaxPool3DWithIndicesBackwardBackward0", 0, tsr__bw_max_pool_dbl},
    {"max_unpool2d", "MaxUnpool2DBackward0", 0, bw_max_unpool2d},
    {"max_unpool3d", "MaxUnpool3DBackward0", 0, bw_max_unpool3d},
    {"maximum", "MaximumBackward0", 3, bw_maximum},
    {"mean", "MeanBackward0", 0, bw_mean},
    {"mean_dim", "MeanBackward1", 0, bw_mean},
    {"median", "MedianBackward0", 1 | TSR_SAVE_OUT, bw_max_all},
    {"median_dim", "MedianBackward1", 0, bw_max_dim},
    {"min", "MinBackward1", 1 | TSR_SAVE_OUT, bw_max_all},
    {"min_dim", "MinBackward0", 0, bw_max_dim},
    {"minimum", "MinimumBackward0", 3, bw_maximum},
    {"mish", "MishBackward0", 1, bw_mish},
    {"mish_", "MishBackward0", 1, bw_mish},
    {"mm", "MmBackward0", 3, bw_mm},
    {"mode", "ModeBackward0", 0, bw_max_dim},
    {"mse_loss", "MseLossBackward0", 3, bw_mse_loss},
    {"mse_loss_backward", "MseLossBackwardBackward0", 7, bw_mse_loss_backward},
    {"mul", "MulBackward0", 3, bw_mul},
    {"mul_s", "MulBackward1", 0, bw_mul_s},
    {"mul_sparse_s", "MulBackward0", 0, bw_mul_sparse_s},
    {"multi_margin_loss", "MultiMarginLossBackward0", 1, bw_multi_margin_loss},
    {"multi_margin_loss_backward", "torch::autograd::NotImplemented", 0, bw_not_implemented_aten},
    {"multilabel_margin_loss", "MultilabelMarginLossBackward0", 1, bw_multilabel_margin_loss},
    {"multilabel_margin_loss_backward", "torch::autograd::NotImplemented", 0, bw_not_implemented_aten},
    {"mv", "MvBackward0", 3, bw_mv},
    {"nan_to_num", "NanToNumBackward0", 1, tsr__bw_nan_to_num},
    {"nanmedian", "NanmedianBackward0", 1 | TSR_SAVE_OUT, bw_max_all},
    {"nanmedian_dim", "NanmedianBackward1", 0, bw_max_dim},
    {"narrow", "SliceBackward0", 0, bw_piece},
    {"narrow_copy", "torch::autograd::NotImplemented", 0, bw_not_implemented_aten},
    {"native_batch_norm", "NativeBatchNormBackward0", 3, bw_batch_norm},
    {"native_batch_norm_backward", "NativeBatchNormBackwardBackward0", 7, tsr__bw_batch_norm_dbl},
    {"native_channel_shuffle", "torch::autograd::NotImplemented", 0, bw_not_implemented},
    {"native_group_norm", "NativeGroupNormBackward0", 3, bw_group_norm},
    {"native_layer_norm", "NativeLayerNormBackward0", 7, bw_layer_norm},
    {"native_layer_norm_backward", "NativeLayerNormBackwardBackward0", 19, tsr__bw_layer_norm_dbl},
    {"neg", "NegBackward0", 0, bw_neg},
    {"neg_sparse", "NegBackward0", 0, bw_neg_sparse},
    {"nll_loss", "NllLossBackward0", 1, bw_nll_loss},
    {"nll_loss2d", "NllLoss2DBackward0", 1, bw_nll_loss2d},
    {"nll_loss2d_backward", "NllLoss2DBackwardBackward0", 2, bw_nll_loss2d_backward},
    {"nll_loss_backward", "NllLossBackwardBackward0", 2, bw_nll_loss_backward},
    {"norm", "NormBackward1", 1 | TSR_SAVE_OUT, bw_norm},
    {"norm0", "NormBackward0", 1 | TSR_SAVE_OUT, bw_norm},
    {"norm_p", "NormBackward1", 1 | TSR_SAVE_OUT, bw_norm},
    {"pdist", "PdistBackward0", 1 | TSR_SAVE_OUT, bw_pdist},
    {"pdist_backward", "PdistBackwardBackward0", 0, bw_fused_not_implemented},
    {"permute", "PermuteBackward0", 0, bw_permute},
    {"pixel_shuffle", "PixelShuffleBackward0", 0, bw_pixel_shuffle},
    {"pixel_unshuffle", "PixelUnshuffleBackward0", 0, bw_pixel_shuffle},
    {"polygamma", "PolygammaBackward0", 1, tsr__bw_polygamma},
    {"polygamma_", "PolygammaBackward1", 1, tsr__bw_polygamma},
    {"pow", "PowBackward0", 1, bw_pow},
    {"pow_scalar", "PowBackward2", 1 | TSR_SAVE_OUT, bw_pow_scalar},
    {"pow_t", "PowBackward1", 3 | TSR_SAVE_OUT, bw_pow_t},
    {"prelu", "PreluBackward0", 3, tsr__bw_prelu},
    {"prelu_backward", "PreluBackwardBackward0", 7, tsr__bw_prelu_dbl},
    {"prod", "ProdBackward0", 1 | TSR_SAVE_OUT, bw_prod},
    {"prod_dim", "ProdBackward1", 1 | TSR_SAVE_OUT, bw_prod},
    {"put", "PutBackward0", 0, bw_put},
    {"rad2deg", "Rad2DegBackward0", 0, tsr__bw_deg2rad},
    {"reciprocal", "ReciprocalBackward0", TSR_SAVE_OUT, bw_reciprocal},
    {"reflection_pad1d", "ReflectionPad1DBackward0", 1, bw_pad_mode},
    {"reflection_pad1d_backward", "ReflectionPad1DBackwardBackward0", 0, bw_pad_mode_dbl},
    {"reflection_pad2d", "ReflectionPad2DBackward0", 1, bw_pad_mode},
    {"reflection_pad2d_backward", "ReflectionPad2DBackwardBackward0", 0, bw_pad_mode_dbl},
    {"reflection_pad3d", "ReflectionPad3DBackward0", 1, bw_pad_mode},
    {"reflection_pad3d_backward", "ReflectionPad3DBackwardBackward0", 0, bw_pad_mode_dbl},
    {"relu", "ReluBackward0", TSR_SAVE_OUT, bw_relu},
    {"remainder", "RemainderBackward1", 3, tsr__bw_fmod},
    {"remainder_s", "RemainderBackward0", 0, tsr__bw_first},
    {"remainder_ss", "torch::autograd::NotImplemented", 0, tsr__bw_not_implemented_op},
    {"renorm", "RenormBackward0", 1, tsr__bw_renorm},
    {"repeat", "RepeatBackward0", 0, bw_repeat},
    {"replication_pad1d", "ReplicationPad1DBackward0", 1, bw_pad_mode},
    {"replication_pad1d_backward", "ReplicationPad1DBackwardBackward0", 0, bw_pad_mode_dbl},
    {"replication_pad2d", "ReplicationPad2DBackward0", 1, bw_pad_mode},
    {"replication_pad2d_backward", "ReplicationPad2DBackwardBackward0", 0, bw_pad_mode_dbl},
    {"replication_pad3d", "ReplicationPad3DBackward0", 1, bw_pad_mode},
    {"replication_pad3d_backward", "ReplicationPad3DBackwardBackward0", 0, bw_pad_mode_dbl},
    {"reshape_alias", "ReshapeAliasBackward0", 0, bw_reshape},
    {"roll", "RollBackward0", 0, bw_roll},
    {"rot90", "Rot90Backward0", 0, bw_rot90},
    {"round", "RoundBackward0", 0, bw_zero},
    {"rrelu_with_noise", "RreluWithNoiseBackward0", 1, bw_rrelu},
    {"rrelu_with_noise_", "RreluWithNoiseBackward1", TSR_SAVE_OUT, bw_rrelu},
    {"rrelu_with_noise_backward", "RreluWithNoiseBackwardBackward0", 3, bw_rrelu_dbl},
    {"rsqrt", "RsqrtBackward0", TSR_SAVE_OUT, bw_rsqrt},
    {"rsub", "RsubBackward0", 0, bw_rsub},
    {"rsub_s", "RsubBackward1", 0, bw_rsub},
    {"scatter", "ScatterBackward0", 0, bw_scatter},
    {"scatter.reduce", "torch::autograd::NotImplemented", 0, bw_not_implemented_aten},
    {"scatter.value_reduce", "torch::autograd::NotImplemented", 0, bw_not_implemented_aten},
    {"scatter_add", "ScatterAddBackward0", 0, bw_scatter},
    {"scatter_v", "ScatterBackward1", 0, bw_scatter},
    {"select", "SelectBackward0", 0, bw_piece},
    {"select_backward", "SelectBackwardBackward0", 0, bw_piece_backward},
    {"select_sparse", "SelectBackward0", 0, bw_select_sparse},
    {"sgn", "SgnBackward0", 1 | TSR_SAVE_OUT, bw_sgn},
    {"sigmoid", "SigmoidBackward0", TSR_SAVE_OUT, bw_sigmoid},
    {"sigmoid_backward", "SigmoidBackwardBackward0", 3, bw_sigmoid_backward},
    {"sign", "SignBackward0", 0, bw_zero},
    {"silu", "SiluBackward0", 1, bw_silu},
    {"silu_", "SiluBackward0", 1, bw_silu},
    {"sin", "SinBackward0", 1, bw_sin},
    {"sinc", "SincBackward0", 1, tsr__bw_sinc},
    {"sinh", "SinhBackward0", 1, bw_sinh},
    {"slice", "SliceBackward0", 0, bw_piece},
    {"slice_backward", "SliceBackwardBackward0", 0, bw_piece_backward},
    {"smooth_l1_loss", "SmoothL1LossBackward0", 3, bw_smooth_l1},
    {"smooth_l1_loss_backward", "SmoothL1LossBackwardBackward0", 7, bw_loss_dbl},
    {"soft_margin_loss", "SoftMarginLossBackward0", 1, bw_soft_margin_loss},
    {"soft_margin_loss_backward", "SoftMarginLossBackwardBackward0", 3, bw_soft_margin_dbl},
    {"softmax", "SoftmaxBackward0", TSR_SAVE_OUT, bw_softmax},
    {"softmax_backward_data", "SoftmaxBackwardDataBackward0", 3, bw_softmax_backward_data},
    {"softplus", "SoftplusBackward0", 1, bw_softplus_c},
    {"softplus_backward", "SoftplusBackwardBackward0", 3, bw_act_backward},
    {"softshrink", "SoftshrinkBackward0", 1, bw_shrink},
    {"softshrink_backward", "SoftshrinkBackwardBackward0", 2, bw_shrink_dbl},
    {"sort", "SortBackward0", 0, bw_sort},
    {"sparse_coo_tensor", "SparseCooTensorWithDimsAndTensorsBackward0", 0, bw_sparse_coo},
    {"sparse_sum", "SparseSumBackward0", 1, bw_sparse_sum},
    {"special_i1", "SpecialI1Backward0", 1 | TSR_SAVE_OUT, tsr__bw_i1},
    {"split", "SplitBackward0", 0, bw_split},
    {"split_with_sizes", "SplitWithSizesBackward0", 0, bw_split},
    {"sqrt", "SqrtBackward0", TSR_SAVE_OUT, bw_sqrt},
    {"square", "PowBackward0", 1, bw_square},
    {"squeeze", "SqueezeBackward0", 0, bw_squeeze},
    {"squeeze_dim", "SqueezeBackward1", 0, bw_squeeze},
    {"squeeze_mm", "SqueezeBackward3", 0, bw_squeeze},
    {"stack", "StackBackward0", 0, bw_stack},
    {"std", "StdBackward0", 1 | TSR_SAVE_OUT, bw_var},
    {"std_mean", "StdMeanBackward0", 1 | TSR_SAVE_OUT, bw_var_mean},
    {"sub", "SubBackward0", 0, bw_sub},
    {"sub_s", "SubBackward1", 0, bw_pass},
    {"sub_sparse", "SubBackward0", 0, bw_sub_sparse},
    {"sum", "SumBackward0", 0, bw_sum},
    {"sum_dim", "SumBackward1", 0, bw_sum},
    {"t", "TBackward0", 0, bw_t},
    {"t_sparse", "TBackward0", 0, bw_t_sparse},
    {"take", "TakeBackward0", 0, bw_take},
    {"tan", "TanBackward0", TSR_SAVE_OUT, bw_tan},
    {"tanh", "TanhBackward0", TSR_SAVE_OUT, bw_tanh},
    {"tanh_backward", "TanhBackwardBackward0", 3, bw_tanh_backward},
    {"threshold", "ThresholdBackward0", 1, bw_threshold},
    {"threshold_", "ThresholdBackward1", 1, bw_threshold},
    {"threshold_backward", "ThresholdBackwardBackward0", 2, bw_threshold_backward},
    {"to_copy", "ToCopyBackward0", 0, bw_to_copy},
    {"to_dense", "ToDenseBackward0", 1, bw_to_dense},
    {"topk", "TopkBackward0", 0, bw_sort},
    {"trace", "TraceBackward0", 0, bw_trace},
    {"transpose", "TransposeBackward0", 0, bw_transpose},
    {"transpose_sparse", "TransposeBackward0", 0, bw_transpose_sparse},
    {"tril", "TrilBackward0", 0, bw_tril},
    {"trilinear", "TrilinearBackward0", 7, bw_trilinear},
    {"triu", "TriuBackward0", 0, bw_tril},
    {"trunc", "TruncBackward0", 0, bw_zero},
    {"unbind", "UnbindBackward0", 0, bw_split},
    {"unfold", "UnfoldBackward0", 0, bw_unfold},
    {"unfold_backward", "UnfoldBackwardBackward0", 0, bw_view_backward},
    {"unsafe_split", "UnsafeSplitBackward0", 0, bw_split},
    {"unsafe_split_with_sizes", "UnsafeSplitWithSizesBackward0", 0, bw_split},
    {"unsafe_view", "UnsafeViewBackward0", 0, bw_reshape},
    {"unsqueeze", "UnsqueezeBackward0", 0, bw_unsqueeze},
    {"unsqueeze_", "UnsqueezeBackward1", 0, bw_unsqueeze},
    {"upsample_bicubic2d", "UpsampleBicubic2DBackward1", 0, bw_upsample_linear},
    {"upsample_bicubic2d_aa", "UpsampleBicubic2DAaBackward1", 0, bw_upsample_linear},
    {"upsample_bicubic2d_aa_backward", "UpsampleBicubic2DAaBackwardBackward1", 0, bw_upsample_dbl},
    {"upsample_bicubic2d_backward", "UpsampleBicubic2DBackwardBackward1", 0, bw_upsample_dbl},
    {"upsample_bilinear2d", "UpsampleBilinear2DBackward1", 0, bw_upsample_linear},
    {"upsample_bilinear2d_aa", "UpsampleBilinear2DAaBackward1", 0, bw_upsample_linear},
    {"upsample_bilinear2d_aa_backward", "UpsampleBilinear2DAaBackwardBackward1", 0, bw_upsample_dbl},
    {"upsample_bilinear2d_backward", "UpsampleBilinear2DBackwardBackward1", 0, bw_upsample_dbl},
    {"upsample_linear1d", "UpsampleLinear1DBackward1", 0, bw_upsample_linear},
    {"upsample_linear1d_backward", "UpsampleLinear1DBackwardBackward1", 0, bw_upsample_dbl},
    {"upsample_nearest1d", "UpsampleNearest1DBackward1", 0, bw_upsample_nearest},
    {"upsample_nearest1d_backward", "UpsampleNearest1DBackwardBackward1", 0, bw_upsample_dbl},
    {"upsample_nearest2d", "UpsampleNearest2DBackward1", 0, bw_upsample_nearest},
    {"upsample_nearest2d_backward", "UpsampleNearest2DBackwardBackward1", 0, bw_upsample_dbl},
    {"upsample_nearest3d", "UpsampleNearest3DBackward1", 0, bw_upsample_nearest},
    {"upsample_nearest3d_backward", "UpsampleNearest3DBackwardBackward1", 0, bw_upsample_dbl},
    {"upsample_nearest_exact1d", "UpsampleNearestExact1DBackward1", 0, bw_upsample_nearest},
    {"upsample_nearest_exact1d_backward", "UpsampleNearestExact1DBackwardBackward1", 0, bw_upsample_dbl},
    {"upsample_nearest_exact2d", "UpsampleNearestExact2DBackward1", 0, bw_upsample_nearest},
    {"upsample_nearest_exact2d_backward", "UpsampleNearestExact2DBackwardBackward1", 0, bw_upsample_dbl},
    {"upsample_nearest_exact3d", "UpsampleNearestExact3DBackward1", 0, bw_upsample_nearest},
    {"upsample_nearest_exact3d_backward", "UpsampleNearestExact3DBackwardBackward1", 0, bw_upsample_dbl},
    {"upsample_trilinear3d", "UpsampleTrilinear3DBackward1", 0, bw_upsample_linear},
    {"upsample_trilinear3d_backward", "UpsampleTrilinear3DBackwardBackward1", 0, bw_upsample_dbl},
    {"values", "ValuesBackward0", 1, bw_sparse_values},
    {"var", "VarBackward0", 1, bw_var},
    {"var_mean", "VarMeanBackward0", 1, bw_var_mean},
    {"vdot", "VdotBackward0", 3, bw_vdot},
    {"vector_norm", "LinalgVectorNormBackward0", 1 | TSR_SAVE_OUT, bw_norm},
    {"view", "ViewBackward0", 0, bw_reshape},
    {"view_as_complex", "ViewAsComplexBackward0", 0, bw_view_as_complex},
    {"view_as_real", "ViewAsRealBackward0", 0, bw_view_as_real},
    {"where", "WhereBackward0", 1, bw_where},
    {"xlogy", "XlogyBackward0", 3, tsr__bw_xlogy},
    {"xlogy_s", "XlogyBackward2", 1, tsr__bw_xlogy},
    {"xlogy_self_s", "XlogyBackward1", 1, tsr__bw_xlogy_self_s},
    {"zero_", "ZeroBackward0", 0, bw_zero},
};

static int cmp_key(const void *k, const void *e) { return strcmp(k, ((const tsr_formula *)e)->key); }

const tsr_formula *tsr__ag_formula(const char *key)
{
    return bsearch(key, formulas, sizeof formulas / sizeof formulas[0], sizeof formulas[0], cmp_key);
}

/* For the unit tests: formula i of the table, NULL past the end. */
const tsr_formula *tsr__ag_formula_at(int i)
{
    return i >= 0 && (size_t)i < sizeof formulas / sizeof formulas[0] ? &formulas[i] : NULL;
}
