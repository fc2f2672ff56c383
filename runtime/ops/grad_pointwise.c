/* runtime/ops/grad_pointwise.c — backward formulas of pointwise ops and
 * special functions, as derivatives.yaml / FunctionsManual.cpp of 1.13
 * write them, in the same order of operations (grad_pointwise.h). */
#include "grad_pointwise.h"
#include "autograd_formula.h"
#include <float.h>
#include <math.h>
#include <string.h>
#include "error.h"
#include "ops/binary.h"
#include "ops/bessel.h"
#include "ops/compare.h"
#include "ops/linalg.h"
#include "ops/reduce.h"
#include "ops/factory.h"
#include "ops/rearrange.h"
#include "ops/scan.h"
#include "ops/scatter.h"
#include "ops/special.h"
#include "ops/unary.h"

/* recorded with create_graph (autograd_create.c), as bin / bins are */
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
/* where(cond, g, 0) */
static tsr_tensor *where0(F *c, const tsr_tensor *cond, const tsr_tensor *g)
{
    if (c->fail || !cond || !g) return NULL;
    return keep(c, tsr__ag_where0(cond, g, false));
}
/* i0(x) / i1(x), recorded with create_graph (I0Backward0 / SpecialI1Backward0) */
static tsr_tensor *bessel(F *c, tsr_bessel_op op, const tsr_tensor *x)
{
    if (c->fail || !x) return NULL;
    const tsr_tensor *in[1] = {x};
    return record_on(c, keep(c, tsr_bessel(op, x, NULL)), op == TSR_BESSEL_I0 ? "i0" : "special_i1", 1, in, NULL);
}
/* a.conj() as 1.13's formulas write it (ConjBackward0 with
 * create_graph), its values materialized; a itself when real */
static tsr_tensor *cj(F *c, const tsr_tensor *a)
{
    if (c->fail || !a) return NULL;
    if (!tsr_dtype_is_complex(a->dtype)) return (tsr_tensor *)a;
    return keep(c, tsr__ag_conj_values(a));
}
#define MUL(a, b) bin(c, TSR_BINOP_MUL, (a), (b))
#define DIV(a, b) bin(c, TSR_BINOP_DIV, (a), (b))

/* lerp.Scalar (weight in d0): self grad * (1 - weight), end grad * weight */
int tsr__bw_lerp(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0)) give(c, gin, 0, bins(c, TSR_BINOP_MUL, g, 1.0 - n->a.d0));
    if (NEED(1)) give(c, gin, 1, bins(c, TSR_BINOP_MUL, g, n->a.d0));
    return finish(c, n, gin);
}

/* lerp.Tensor (self, end, weight) */
int tsr__bw_lerp_t(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *w = SAVED(2);
    /* end's, self's, weight's: 1.13 takes the inputs in their names' sorted order */
    if (NEED(1)) give(c, gin, 1, MUL(g, cj(c, w)));
    if (NEED(0)) give(c, gin, 0, MUL(g, cj(c, sbin(c, TSR_BINOP_SUB, 1.0, w))));
    if (NEED(2)) give(c, gin, 2, MUL(g, cj(c, bin(c, TSR_BINOP_SUB, SAVED(1), SAVED(0)))));
    return finish(c, n, gin);
}

/* addcmul(self, tensor1, tensor2, value d0) */
int tsr__bw_addcmul(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0)) give(c, gin, 0, (tsr_tensor *)g);
    if (NEED(1)) give(c, gin, 1, MUL(g, cj(c, bins(c, TSR_BINOP_MUL, SAVED(2), n->a.d0))));
    if (NEED(2)) give(c, gin, 2, MUL(g, cj(c, bins(c, TSR_BINOP_MUL, SAVED(1), n->a.d0))));
    return finish(c, n, gin);
}

/* addcdiv: tensor1 grad * (value / tensor2), tensor2 -grad * (value * tensor1 / (tensor2 * tensor2)) */
int tsr__bw_addcdiv(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *t2 = SAVED(2);
    if (NEED(0)) give(c, gin, 0, (tsr_tensor *)g);
    if (NEED(1)) give(c, gin, 1, MUL(g, cj(c, sbin(c, TSR_BINOP_DIV, n->a.d0, t2))));
    if (NEED(2)) {
        tsr_tensor *q = DIV(bins(c, TSR_BINOP_MUL, SAVED(1), n->a.d0), MUL(t2, t2));
        give(c, gin, 2, MUL(un(c, TSR_UNOP_NEG, g), cj(c, q)));
    }
    return finish(c, n, gin);
}

/* hypot: grad * self / result, grad * other / result */
int tsr__bw_hypot(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *y = SAVED(TSR_AG_OUT);
    if (NEED(1)) give(c, gin, 1, DIV(MUL(g, SAVED(1)), y));
    if (NEED(0)) give(c, gin, 0, DIV(MUL(g, SAVED(0)), y));
    return finish(c, n, gin);
}

/* fmod / remainder (Tensor other): self grad; other -grad * self.div(other,
 * rounding_mode='trunc' / 'floor') */
int tsr__bw_fmod(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_binop q = !strcmp(n->f->key, "fmod") ? TSR_BINOP_DIV_TRUNC : TSR_BINOP_DIV_FLOOR;
    if (NEED(0)) give(c, gin, 0, (tsr_tensor *)g);
    if (NEED(1)) give(c, gin, 1, MUL(un(c, TSR_UNOP_NEG, g), bin(c, q, SAVED(0), SAVED(1))));
    return finish(c, n, gin);
}

/* the first input's gradient is grad (fmod / remainder by a number, frac) */
int tsr__bw_first(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (NEED(0)) give(c, gin, 0, (tsr_tensor *)g);
    return finish(c, n, gin);
}

/* clamp_min.Tensor / clamp_max.Tensor(self, bound): self where(self >= min
 * (<= max), grad, 0), the bound where(self < min (> max), grad, 0) */
int tsr__bw_clamp_bound(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *b = SAVED(1);
    bool mn = !strcmp(n->f->key, "clamp_min_t");
    if (NEED(0)) give(c, gin, 0, where0(c, cmp(c, mn ? TSR_CMP_GE : TSR_CMP_LE, x, b), g));
    if (NEED(1)) give(c, gin, 1, where0(c, cmp(c, mn ? TSR_CMP_LT : TSR_CMP_GT, x, b), g));
    return finish(c, n, gin);
}

/* clamp.Tensor(self, min?, max?): clamp_backward and clamp_backward_min_max */
int tsr__bw_clamp_tensor(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    tsr_tensor *lo = n->in_present[1] ? SAVED(1) : NULL, *hi = n->in_present[2] ? SAVED(2) : NULL;
    if (NEED(0)) {
        tsr_tensor *m = lo && hi ? cmp(c, TSR_CMP_LOGICAL_AND, cmp(c, TSR_CMP_GE, x, lo), cmp(c, TSR_CMP_LE, x, hi))
                      : lo       ? cmp(c, TSR_CMP_GE, x, lo)
                      : hi       ? cmp(c, TSR_CMP_LE, x, hi)
                                 : NULL;
        give(c, gin, 0, m ? where0(c, m, g) : (tsr_tensor *)g);
    }
    if (lo && hi) {
        if (NEED(1))   /* below min, unless min > max */
            give(c, gin, 1, where0(c, cmp(c, TSR_CMP_LOGICAL_AND, cmp(c, TSR_CMP_LT, x, lo), cmp(c, TSR_CMP_LT, lo, hi)), g));
        if (NEED(2))   /* above max, or max < min */
            give(c, gin, 2, where0(c, cmp(c, TSR_CMP_LOGICAL_OR, cmp(c, TSR_CMP_GT, x, hi), cmp(c, TSR_CMP_LT, hi, lo)), g));
    } else if (lo && NEED(1)) {
        give(c, gin, 1, where0(c, cmp(c, TSR_CMP_LT, x, lo), g));
    } else if (hi && NEED(2)) {
        give(c, gin, 2, where0(c, cmp(c, TSR_CMP_GT, x, hi), g));
    }
    return finish(c, n, gin);
}

/* erfinv: 0.5 * sqrt(M_PI) * exp(self.erfinv().pow(2)) * grad (the constant one double) */
int tsr__bw_erfinv(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *e = un(c, TSR_UNOP_EXP, bins(c, TSR_BINOP_POW, un(c, TSR_UNOP_ERFINV, SAVED(0)), 2.0));
    give(c, gin, 0, MUL(bins(c, TSR_BINOP_MUL, e, 0.5 * sqrt(M_PI)), g));
    return finish(c, n, gin);
}

/* polygamma(k, x), PolygammaBackward0 with create_graph */
static tsr_tensor *polyg(F *c, int64_t k, const tsr_tensor *x)
{
    tsr_ag_args a = {0};
    a.ndims = -1;
    a.i0 = k;
    const tsr_tensor *in[1] = {x};
    return record_on(c, keep(c, tsr_polygamma(k, x, NULL, false)), "polygamma", 1, in, &a);
}

/* lgamma: grad * digamma(self); digamma: grad * polygamma(1, self) */
int tsr__bw_lgamma(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *d = NULL;
    if (!c->fail) d = !strcmp(n->f->key, "lgamma") ? un(c, TSR_UNOP_DIGAMMA, x) : polyg(c, 1, x);
    give(c, gin, 0, MUL(g, d));
    return finish(c, n, gin);
}

/* polygamma(n i0, self): grad * polygamma(n + 1, self) */
int tsr__bw_polygamma(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *d = NULL;
    if (!c->fail) d = polyg(c, n->a.i0 + 1, x);
    give(c, gin, 0, MUL(g, d));
    return finish(c, n, gin);
}

/* logit_backward(grad, self, eps d0 when has_d0): outside [eps, 1 - eps]
 * 0, outside [0, 1] without eps NaN, else grad / (x * (1 - x)); the bounds
 * in the input's dtype as the kernel's scalar_t */
int tsr__bw_logit(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    double lo = 0.0, hi = 1.0;
    if (n->a.has_d0) {
        lo = n->a.d0;
        hi = 1.0 - n->a.d0;
        if (x && x->dtype != TSR_FLOAT64) {
            lo = (double)(float)n->a.d0;
            hi = (double)(1.0f - (float)n->a.d0);
        }
    }
    tsr_tensor *v = DIV(g, MUL(x, sbin(c, TSR_BINOP_SUB, 1.0, x)));
    if (tsr__ag_creating()) {   /* grad mode on: infinitely_differentiable_logit_backward (double bounds) */
        lo = n->a.has_d0 ? n->a.d0 : 0.0;
        hi = n->a.has_d0 ? 1.0 - n->a.d0 : 1.0;
        tsr_tensor *in = cmp(c, TSR_CMP_LOGICAL_AND, cmps(c, TSR_CMP_GE, x, lo), cmps(c, TSR_CMP_LE, x, hi));
        tsr_tensor *fill = c->fail ? NULL : keep(c, tsr_full(0, NULL, tsr_scalar_float(n->a.has_d0 ? 0.0 : NAN), x->dtype,
                                                              TSR_CPU));
        give(c, gin, 0, c->fail ? NULL : keep(c, tsr__ag_where(in, v, fill)));
        return finish(c, n, gin);
    }
    tsr_tensor *out = cmp(c, TSR_CMP_LOGICAL_OR, cmps(c, TSR_CMP_LT, x, lo), cmps(c, TSR_CMP_GT, x, hi));
    tsr_tensor *r = NULL;
    if (!c->fail) {
        tsr_operand a = tsr_operand_scalar(tsr_scalar_float(n->a.has_d0 ? 0.0 : NAN)), b = tsr_operand_tensor(v);
        r = keep(c, tsr_where(out, &a, &b, NULL));
    }
    give(c, gin, 0, r);
    return finish(c, n, gin);
}

/* xlogy(self, other): self xlogy(grad, other).masked_fill((self == 0) & (other <= 0), 0),
 * other grad * self / other; xlogy_s (other a number d0): xlogy(grad, other),
 * masked where self == 0 unless other > 0 */
int tsr__bw_xlogy(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    bool sc = !strcmp(n->f->key, "xlogy_s");
    tsr_tensor *y = sc ? NULL : SAVED(1);
    if (!sc && NEED(1)) give(c, gin, 1, DIV(MUL(g, x), y));   /* other first (1.13's generated order) */
    if (NEED(0) && !c->fail) {
        tsr_tensor *l = NULL, *mask = NULL;
        tsr_operand a = tsr_operand_tensor(g);
        tsr_operand b = sc ? tsr_operand_scalar(tsr_scalar_float(n->a.d0)) : tsr_operand_tensor(y);
        l = keep(c, tsr_special_binary(TSR_SPECIAL_XLOGY, &a, &b, NULL));
        const tsr_tensor *in[2] = {g, y};
        l = record_on(c, l, sc ? "xlogy_s" : "xlogy", sc ? 1 : 2, in, &n->a);   /* XlogyBackward0 / 2 */
        if (!sc) mask = cmp(c, TSR_CMP_LOGICAL_AND, cmps(c, TSR_CMP_EQ, x, 0.0), cmps(c, TSR_CMP_LE, y, 0.0));
        else if (!(n->a.d0 > 0.0)) mask = cmps(c, TSR_CMP_EQ, x, 0.0);
        if (mask && l && !c->fail) l = keep(c, tsr__ag_masked_fill0(l, mask));
        give(c, gin, 0, l);
    }
    return finish(c, n, gin);
}

/* sinc_backward: where(self * self * pi == 0, 0, grad * (((x pi) cos(x pi) - sin(x pi)) / (x x pi)).conj())
 * (the quotient first: its bits are 1.13's in bfloat16) */
int tsr__bw_sinc(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    tsr_tensor *xp = bins(c, TSR_BINOP_MUL, x, M_PI), *xxp = bins(c, TSR_BINOP_MUL, MUL(x, x), M_PI);
    tsr_tensor *num = bin(c, TSR_BINOP_SUB, MUL(xp, un(c, TSR_UNOP_COS, xp)), un(c, TSR_UNOP_SIN, xp));
    tsr_tensor *v = MUL(g, cj(c, DIV(num, xxp))), *r = NULL;
    tsr_tensor *cond = cmps(c, TSR_CMP_EQ, xxp, 0.0);
    if (!c->fail) r = keep(c, tsr__ag_where0(cond, v, true));
    give(c, gin, 0, r);
    return finish(c, n, gin);
}

/* deg2rad / rad2deg: grad * (pi / 180) / grad * (180 / pi) */
int tsr__bw_deg2rad(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    double k = !strcmp(n->f->key, "deg2rad") ? M_PI / 180.0 : 57.295779513082320876798154814105170332405472466564;
    give(c, gin, 0, c->fail ? NULL : keep(c, tsr__ag_binary_w(TSR_BINOP_MUL, g, k)));
    return finish(c, n, gin);
}

/* nan_to_num: grad * isfinite(self) */
int tsr__bw_nan_to_num(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *fin = NULL;
    if (!c->fail) fin = keep(c, tsr_predicate(TSR_PRED_ISFINITE, x, NULL));
    give(c, gin, 0, MUL(g, fin));
    return finish(c, n, gin);
}

/* xlogy(self a number d0, other): other grad * self / other */
int tsr__bw_xlogy_self_s(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    give(c, gin, 0, DIV(bins(c, TSR_BINOP_MUL, g, n->a.d0), SAVED(0)));
    return finish(c, n, gin);
}

/* ------------------------------------------------------------ scans */

static tsr_tensor *flipd(F *c, const tsr_tensor *a, int64_t d)
{
    if (c->fail || !a) return NULL;
    tsr_ag_args fa = {0};
    fa.ndims = 1;
    fa.dims[0] = d;
    const tsr_tensor *in[1] = {a};
    return record_on(c, keep(c, tsr_flip(a, 1, &d)), "flip", 1, in, &fa);
}
/* flip(logcumsumexp(flip(x, dim), dim), dim), recorded with create_graph */
static tsr_tensor *rev_lcse(F *c, const tsr_tensor *a, int64_t d)
{
    tsr_tensor *f = flipd(c, a, d);
    if (c->fail) return NULL;
    tsr_ag_args la = {0};
    la.ndims = -1;
    la.i0 = d;
    const tsr_tensor *in[1] = {f};
    return flipd(c, record_on(c, keep(c, tsr_logcumsumexp(f, d, NULL)), "logcumsumexp", 1, in, &la), d);
}

/* logcumsumexp_backward(grad, self, result, dim i0), real dtypes, as
 * 1.13's: grad_min = lowest; log_grad_positive = where(grad > 0,
 * grad.log(), grad_min), log_grad_negative = where(grad < 0,
 * (-grad).log(), grad_min); exp(reverse_logcumsumexp(log_grad - result) +
 * self) of each, the positive minus the negative */
int tsr__bw_logcumsumexp(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (g->ndim == 0 || tsr_tensor_numel(g) == 0) {
        give(c, gin, 0, (tsr_tensor *)g);
        return finish(c, n, gin);
    }
    tsr_tensor *x = SAVED(0), *y = SAVED(TSR_AG_OUT);
    if (!c->fail && tsr_dtype_is_complex(g->dtype)) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for 'logcumsumexp' of a complex input is not implemented.");
        c->fail = true;
    }
    int64_t d = n->a.i0;
    double low = g->dtype == TSR_FLOAT64 ? -1.7976931348623157e308 : g->dtype == TSR_FLOAT32 ? -3.4028234663852886e38
               : g->dtype == TSR_FLOAT16 ? -65504.0 : -3.3895313892515355e38;
    tsr_tensor *gmin = c->fail ? NULL : keep(c, tsr_full(0, NULL, tsr_scalar_float(low), g->dtype, TSR_CPU));
    tsr_tensor *lg = un(c, TSR_UNOP_LOG, g);
    tsr_tensor *pos = c->fail ? NULL : keep(c, tsr__ag_where(cmps(c, TSR_CMP_GT, g, 0.0), lg, gmin));
    tsr_tensor *lng = un(c, TSR_UNOP_LOG, un(c, TSR_UNOP_NEG, g));
    tsr_tensor *neg = c->fail ? NULL : keep(c, tsr__ag_where(cmps(c, TSR_CMP_LT, g, 0.0), lng, gmin));
    tsr_tensor *op = un(c, TSR_UNOP_EXP, bin(c, TSR_BINOP_ADD, rev_lcse(c, bin(c, TSR_BINOP_SUB, pos, y), d), x));
    tsr_tensor *on = un(c, TSR_UNOP_EXP, bin(c, TSR_BINOP_ADD, rev_lcse(c, bin(c, TSR_BINOP_SUB, neg, y), d), x));
    give(c, gin, 0, bin(c, TSR_BINOP_SUB, op, on));
    return finish(c, n, gin);
}

/* cummaxmin_backward: zeros(self).scatter_add_(dim i0, indices extra[0], grad) */
int tsr__bw_cummax(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (n->released || !n->extra[0]) {
        SAVED(TSR_AG_OUT);   /* raises the second-backward error */
        c->fail = true;
        return finish(c, n, gin);
    }
    int nd = n->in_nd[0];
    tsr_tensor *z = keep(c, tsr_zeros(nd, n->in_sizes[0], g->dtype, g->device));
    int64_t numel = 1;
    for (int i = 0; i < nd; i++) numel *= n->in_sizes[0][i];
    if (numel == 0 || c->fail) give(c, gin, 0, z);
    else {   /* ScatterAddBackward0 with create_graph */
        tsr_ag_args a = {0};
        a.ndims = -1;
        a.i0 = nd ? n->a.i0 : 0;
        const tsr_tensor *in[2] = {z, g};
        tsr_tensor *r = record_on(c, keep(c, tsr_scatter(z, a.i0, n->extra[0], g, NULL, TSR_SCATTER_ADD)), "scatter_add", 2,
                                  in, &a);
        if (r && tsr__ag_creating() && tsr_ag_keep(r, n->extra[0]) < 0) c->fail = true;
        give(c, gin, 0, r);
    }
    return finish(c, n, gin);
}

/* ------------------------------------------------------------ norms */

static tsr_tensor *masked0(F *c, const tsr_tensor *a, const tsr_tensor *mask)
{   /* a.masked_fill(mask, 0): MaskedFillBackward0 with create_graph */
    if (c->fail || !a || !mask) return NULL;
    return keep(c, tsr__ag_masked_fill0(a, mask));
}

/* norm_backward(grad, self, p, norm, dims, keepdim=True) of FunctionsManual.cpp
 * with grad and norm already of the reduced shape kept (or 0-dim); dims: the
 * reduced dims for the inf case (NULL: all). NULL for p == 0 (no gradient). */
static tsr_tensor *norm_bw(F *c, const tsr_tensor *g, const tsr_tensor *x, double p, const tsr_tensor *nrm,
                           const tsr_dims *dims)
{
    if (c->fail) return NULL;
    if (p == 0.0) return NULL;
    if (p == 1.0) return MUL(un(c, TSR_UNOP_SGN, x), g);
    if (p == 2.0) return MUL(g, masked0(c, DIV(x, nrm), cmps(c, TSR_CMP_EQ, nrm, 0.0)));
    if (isinf(p)) {
        tsr_tensor *ax = un(c, TSR_UNOP_ABS, x), *mask = NULL, *cnt = NULL;
        tsr_tensor *nan = c->fail ? NULL : keep(c, tsr_predicate(TSR_PRED_ISNAN, ax, NULL));
        mask = cmp(c, TSR_CMP_LOGICAL_OR, cmp(c, TSR_CMP_EQ, ax, nrm), nan);
        tsr_dims all = {.n = -1};
        if (!c->fail) cnt = keep(c, tsr_sum(mask, dims ? dims : &all, true, TSR_DTYPE_UNDEFINED, NULL));
        return MUL(un(c, TSR_UNOP_SGN, x), MUL(DIV(g, cnt), mask));
    }
    if (p < 1.0) {
        tsr_tensor *sc = MUL(un(c, TSR_UNOP_SGN, x), masked0(c, bins(c, TSR_BINOP_POW, un(c, TSR_UNOP_ABS, x), p - 1),
                                                             cmps(c, TSR_CMP_EQ, x, 0.0)));
        return MUL(MUL(sc, g), bins(c, TSR_BINOP_POW, nrm, 1 - p));
    }
    tsr_tensor *sc = p < 2.0 ? MUL(un(c, TSR_UNOP_SGN, x), bins(c, TSR_BINOP_POW, un(c, TSR_UNOP_ABS, x), p - 1))
                             : MUL(x, bins(c, TSR_BINOP_POW, un(c, TSR_UNOP_ABS, x), p - 2));
    tsr_tensor *sv = masked0(c, DIV(g, bins(c, TSR_BINOP_POW, nrm, p - 1)), cmps(c, TSR_CMP_EQ, nrm, 0.0));
    return MUL(sc, sv);
}

/* dist(self, other, p d0): +-norm_backward(grad, self - other, p, result) */
int tsr__bw_dist(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    /* each input's formula on its own, other's first (1.13's generated order):
       norm_backward(grad, self - other, p, result), negated for other */
    for (int i = 1; i >= 0 && !c->fail; i--) {
        if (!NEED(i)) continue;
        tsr_tensor *diff = bin(c, TSR_BINOP_SUB, SAVED(0), SAVED(1));
        tsr_tensor *r = norm_bw(c, g, diff, n->a.d0, SAVED(TSR_AG_OUT), NULL);
        if (r) give(c, gin, i, i ? un(c, TSR_UNOP_NEG, r) : r);
        else if (i && !c->fail) {   /* p == 0: 1.13 negates the undefined gradient */
            tsr_error_set(TSR_ERR_RUNTIME, "Expected a proper Tensor but got None (or an undefined Tensor in C++) for "
                                           "argument #0 'self'");
            c->fail = true;
        }
    }
    return finish(c, n, gin);
}

/* renorm_backward(grad, self, p d0, dim i0, maxnorm d1): in the CPU
 * accumulate type (float: double), norm = vector_norm(self, p, dims, true,
 * acc) and nb = norm_backward((self.conj() * grad).sum(dims, true, acc),
 * self, p, norm); where(norm > maxnorm, (factor * (grad - invnorm *
 * nb)).to(grad's dtype), grad) with invnorm = (norm + 1e-7).reciprocal(),
 * factor = invnorm * maxnorm, each op recorded with create_graph */
int tsr__bw_renorm(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    if (c->fail) return finish(c, n, gin);
    tsr_dims rd = {.n = 0};
    for (int d = 0; d < x->ndim; d++)
        if (d != n->a.i0) rd.d[rd.n++] = d;
    if (rd.n == 0) rd.n = -1;   /* 1-D: every dim but dim is none; 1.13 reduces over an empty list: all */
    double p = n->a.d0, maxnorm = n->a.d1;
    bool cplx = tsr_dtype_is_complex(x->dtype);
    tsr_dtype acc = cplx ? x->dtype : x->dtype == TSR_FLOAT64 || x->dtype == TSR_FLOAT32 ? TSR_FLOAT64 : TSR_FLOAT32;
    tsr_ag_args ra = {0};   /* vector_norm's and sum's args as the bindings record them */
    ra.ndims = rd.n;
    for (int i = 0; i < rd.n; i++) ra.dims[i] = rd.d[i];
    ra.keepdim = true;
    ra.d0 = p;
    const tsr_tensor *in[1] = {x};
    tsr_tensor *nrm = record_on(c, keep(c, tsr_norm(x, p, &rd, true, cplx ? TSR_DTYPE_UNDEFINED : acc, NULL)),
                                "vector_norm", 1, in, &ra);
    tsr_tensor *go = MUL(cj(c, x), g);
    if (!c->fail) {   /* SumBackward1 with create_graph */
        in[0] = go;
        go = record_on(c, keep(c, tsr_sum(go, &rd, true, cplx ? TSR_DTYPE_UNDEFINED : acc, NULL)),
                       rd.n < 0 ? "sum" : "sum_dim", 1, in, &ra);
    }
    tsr_tensor *nb = norm_bw(c, go, x, p, nrm, &rd);
    tsr_tensor *inv = un(c, TSR_UNOP_RECIPROCAL, bins(c, TSR_BINOP_ADD, nrm, 1e-7));
    tsr_tensor *factor = bins(c, TSR_BINOP_MUL, inv, maxnorm);
    tsr_tensor *v = nb ? MUL(factor, bin(c, TSR_BINOP_SUB, g, MUL(inv, nb))) : MUL(factor, g);
    if (!c->fail) v = keep(c, tsr__ag_to_dtype(v, g->dtype));
    if (!c->fail) give(c, gin, 0, keep(c, tsr__ag_where(cmps(c, TSR_CMP_GT, nrm, maxnorm), v, g)));
    return finish(c, n, gin);
}

/* erfc: -2.0 / sqrt(M_PI) * exp(-(self.pow(2))) * grad */
int tsr__bw_erfc(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *e = un(c, TSR_UNOP_EXP, un(c, TSR_UNOP_NEG, bins(c, TSR_BINOP_POW, SAVED(0), 2.0)));
    give(c, gin, 0, MUL(bins(c, TSR_BINOP_MUL, e, -2.0 / sqrt(M_PI)), g));
    return finish(c, n, gin);
}

/* a node of 1.13's torch::autograd::NotImplemented: its backward raises
 * (remainder(Number, Tensor): remainder.Scalar_Tensor has no formula) */
int tsr__bw_not_implemented_op(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    (void)g;
    tsr_error_set(TSR_ERR_RUNTIME, "derivative for aten::remainder is not implemented");
    c->fail = true;
    return finish(c, n, gin);
}

/* ------------------------------------------------------------ inverse hyperbolic, logaddexp */

/* acosh: grad * (self * self - 1).rsqrt(); asinh: grad * (self.pow(2) + 1).rsqrt();
 * atanh: grad * 1 / (1 - self.pow(2)) (conj of each for complex) */
int tsr__bw_ahyp(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    const char *k = n->f->key;
    tsr_tensor *x = SAVED(0);
    if (!strcmp(k, "acosh")) {   /* real: (self * self - 1).rsqrt(); complex: ((self + 1).rsqrt() * (self - 1).rsqrt()).conj() */
        if (tsr_dtype_is_complex(x->dtype)) {
            tsr_tensor *m = un(c, TSR_UNOP_RSQRT, bins(c, TSR_BINOP_SUB, x, 1.0));   /* the right operand first, as 1.13's build */
            give(c, gin, 0, MUL(g, cj(c, MUL(un(c, TSR_UNOP_RSQRT, bins(c, TSR_BINOP_ADD, x, 1.0)), m))));
        } else {
            give(c, gin, 0, MUL(g, un(c, TSR_UNOP_RSQRT, bins(c, TSR_BINOP_SUB, MUL(x, x), 1.0))));
        }
        return finish(c, n, gin);
    }
    tsr_tensor *sq = bins(c, TSR_BINOP_POW, x, 2.0);
    if (!strcmp(k, "atanh")) {   /* grad * 1 / (1 - self.pow(2)).conj() */
        tsr_tensor *d = cj(c, sbin(c, TSR_BINOP_SUB, 1.0, sq));
        give(c, gin, 0, DIV(bins(c, TSR_BINOP_MUL, g, 1.0), d));
    }
    else give(c, gin, 0, MUL(g, cj(c, un(c, TSR_UNOP_RSQRT, bins(c, TSR_BINOP_ADD, sq, 1.0)))));
    return finish(c, n, gin);
}

/* logaddexp: grad / (1 + exp(other - self)) and grad / (1 + exp(self - other));
 * logaddexp2: pow(2, ...) in place of exp */
int tsr__bw_logaddexp(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *y = SAVED(1);
    bool two = !strcmp(n->f->key, "logaddexp2");
    for (int i = 1; i >= 0; i--) {   /* other's first (1.13's generated order) */
        if (!NEED(i)) continue;
        tsr_tensor *d = i == 0 ? bin(c, TSR_BINOP_SUB, y, x) : bin(c, TSR_BINOP_SUB, x, y);
        tsr_tensor *e = two ? sbin(c, TSR_BINOP_POW, 2.0, d) : un(c, TSR_UNOP_EXP, d);
        give(c, gin, i, DIV(g, cj(c, sbin(c, TSR_BINOP_ADD, 1.0, e))));
    }
    return finish(c, n, gin);
}

/* fmax: self grad.masked_fill(!((self >= other) | other.isnan()), 0), other
 * grad.masked_fill((self >= other) | other.isnan(), 0); fmin with <= */
int tsr__bw_fmax(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *y = SAVED(1), *nan = NULL;
    if (!c->fail) nan = keep(c, tsr_predicate(TSR_PRED_ISNAN, y, NULL));
    tsr_cmpop op = !strcmp(n->f->key, "fmax") ? TSR_CMP_GE : TSR_CMP_LE;
    tsr_tensor *self_wins = cmp(c, TSR_CMP_LOGICAL_OR, cmp(c, op, x, y), nan), *self_loses = NULL;
    if (!c->fail) self_loses = keep(c, tsr_predicate(TSR_PRED_LOGICAL_NOT, self_wins, NULL));
    if (NEED(1)) give(c, gin, 1, masked0(c, g, self_wins));   /* other's first, as 1.13 */
    if (NEED(0)) give(c, gin, 0, masked0(c, g, self_loses));
    return finish(c, n, gin);
}

/* copysign: self grad * (result / self).masked_fill_(self == 0, 0); a
 * tensor other zeros (copysign_s: other a number) */
int tsr__bw_copysign(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    if (NEED(0)) give(c, gin, 0, MUL(g, masked0(c, DIV(SAVED(TSR_AG_OUT), x), cmps(c, TSR_CMP_EQ, x, 0.0))));
    if (n->nnext > 1 && NEED(1)) give(c, gin, 1, keep(c, tsr_zeros(n->in_nd[1], n->in_sizes[1], n->in_dtype[1], n->in_device[1])));
    return finish(c, n, gin);
}

/* i0: grad * special_i1(self) */
int tsr__bw_i0(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0);
    give(c, gin, 0, MUL(g, bessel(c, TSR_BESSEL_I1, x)));
    return finish(c, n, gin);
}

/* where(cond, a, s) with s a 0-dim tensor of a's dtype (WhereBackward0 with create_graph) */
static tsr_tensor *where_s(F *c, const tsr_tensor *cond, const tsr_tensor *a, double s)
{
    if (c->fail || !cond || !a) return NULL;
    tsr_tensor *f = keep(c, tsr_full(0, NULL, tsr_scalar_float(s), a->dtype, a->device));
    return c->fail ? NULL : keep(c, tsr__ag_where(cond, a, f));
}

/* special_i1: i1_backward(grad, self, result): with safe = where(|self| >
 * eps, self, eps) (eps the dtype's), grad * where(|self| > eps, safe.i0() -
 * result * safe.reciprocal(), 0.5) */
int tsr__bw_i1(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *y = SAVED(TSR_AG_OUT), *big = NULL;
    double eps = x && x->dtype == TSR_FLOAT32 ? (double)FLT_EPSILON : DBL_EPSILON;
    if (!c->fail) big = cmps(c, TSR_CMP_GT, keep(c, tsr_unary(TSR_UNOP_ABS, x, NULL, NULL)), eps);
    tsr_tensor *safe = where_s(c, big, x, eps);
    tsr_tensor *gx = bin(c, TSR_BINOP_SUB, bessel(c, TSR_BESSEL_I0, safe), MUL(y, un(c, TSR_UNOP_RECIPROCAL, safe)));
    give(c, gin, 0, MUL(g, where_s(c, big, gx, 0.5)));
    return finish(c, n, gin);
}
