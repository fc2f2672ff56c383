/* src/bind/nnf_loss.c — the losses of torch.nn.functional that 1.13
 * composes: margin_ranking_loss, hinge_embedding_loss,
 * cosine_embedding_loss and poisson_nll_loss are ATen composites (C++
 * operators: Tensor op Scalar is add.Scalar and friends, Scalar - Tensor a
 * filled tensor with sub_), multilabel_soft_margin_loss and
 * gaussian_nll_loss are Python functions (Python's operators); each is
 * computed here op by op in 1.13's order, so the values round as 1.13's and
 * the graph carries 1.13's grad_fn names. soft_margin_loss is its own ATen
 * op (runtime/ops/nn.c, SoftMarginLossBackward0). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "autograd.h"
#include "bind/areas.h"
#include "bind/bind.h"
#include "bind/nnf.h"
#include "bind/table.h"
#include "bind/tensor.h"
#include "ops/binary.h"
#include "ops/compare.h"
#include "ops/factory.h"
#include "ops/reduce.h"
#include "ops/unary.h"
#include "value.h"

#define MOD "torch.nn.functional"

/* ------------------------------------------------------------ tensor steps */

/* A composite's temporaries, released together; a NULL step (its error
 * is the runtime's record) fails the rest. */
typedef struct {
    tsr_tensor *t[48];
    int n;
    bool fail;
} Pool;

static tsr_tensor *hold(Pool *p, tsr_tensor *t)
{
    if (!t || p->n == 48) {
        if (t) tsr_tensor_release(t);
        p->fail = true;
        return NULL;
    }
    return p->t[p->n++] = t;
}

static void pool_free(Pool *p)
{
    for (int i = 0; i < p->n; i++) tsr_tensor_release(p->t[i]);
}

/* out recorded as key over in[0..n) when they need a graph */
static tsr_tensor *rec(Pool *p, tsr_tensor *out, const char *key, int n, tsr_tensor *const *in, const tsr_ag_args *a)
{
    if (!hold(p, out)) return NULL;
    tsr_ag_args d = {0};
    d.ndims = -1;
    if (tsr_ag_needed(n, in) && tsr_ag_record(key, n, in, a ? a : &d, out, false) < 0) {
        p->fail = true;
        return NULL;
    }
    return out;
}

static tsr_tensor *tt(Pool *p, tsr_binop op, tsr_tensor *a, tsr_tensor *b)
{
    if (p->fail) return NULL;
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    tsr_tensor *in[2] = {a, b};
    const char *key = op == TSR_BINOP_ADD ? "add" : op == TSR_BINOP_SUB ? "sub" : op == TSR_BINOP_MUL ? "mul" : "div";
    return rec(p, tsr_binary(op, &x, &y, NULL, NULL), key, 2, in, NULL);
}

/* C++'s a op s (scalar_first: s op a) */
static tsr_tensor *ts(Pool *p, tsr_binop op, tsr_tensor *a, double s, bool scalar_first)
{
    if (p->fail) return NULL;
    return hold(p, tsr_ag_scalar_op(op, a, s, scalar_first));
}

static tsr_tensor *un(Pool *p, tsr_unop op, tsr_tensor *a)
{
    if (p->fail) return NULL;
    tsr_tensor *in[1] = {a};
    return rec(p, tsr_unary(op, a, NULL, NULL), tsr_unop_name(op), 1, in, NULL);
}

/* x.clamp_min_(0) (ClampMinBackward0) */
static tsr_tensor *clamp0(Pool *p, tsr_tensor *a)
{
    if (p->fail) return NULL;
    tsr_operand lo = tsr_operand_scalar(tsr_scalar_float(0.0));
    tsr_ag_args ca = {0};
    ca.ndims = -1;
    ca.has_d0 = true;
    tsr_tensor *in[1] = {a};
    return rec(p, tsr_clamp(a, &lo, NULL, NULL), "clamp_min", 1, in, &ca);
}

/* target op s: a mask */
static tsr_tensor *cmp_s(Pool *p, tsr_cmpop op, tsr_tensor *a, double s)
{
    if (p->fail) return NULL;
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_scalar(tsr_scalar_float(s));
    return hold(p, tsr_compare(op, &x, &y, NULL));
}

static tsr_tensor *where3(Pool *p, tsr_tensor *cond, tsr_tensor *a, tsr_tensor *b)
{
    if (p->fail) return NULL;
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    tsr_tensor *in[3] = {cond, a, b};
    return rec(p, tsr_where(cond, &x, &y, NULL), "where", 3, in, NULL);
}

static tsr_tensor *sum_dim(Pool *p, tsr_tensor *a, int64_t d)
{
    if (p->fail) return NULL;
    tsr_dims dims = {.n = 1, .d = {d}};
    tsr_ag_args sa = {0};
    sa.ndims = 1;
    sa.dims[0] = d;
    tsr_tensor *in[1] = {a};
    return rec(p, tsr_sum(a, &dims, false, TSR_DTYPE_UNDEFINED, NULL), "sum_dim", 1, in, &sa);
}

/* apply_loss_reduction: mean() / sum() of everything, or a itself */
static tsr_tensor *reduce_all(Pool *p, tsr_tensor *a, tsr_reduction red)
{
    if (p->fail || red == TSR_REDUCTION_NONE) return a;
    tsr_dims all = {.n = -1};
    tsr_tensor *in[1] = {a};
    if (red == TSR_REDUCTION_MEAN)
        return rec(p, tsr_mean(a, &all, false, TSR_DTYPE_UNDEFINED, NULL), "mean", 1, in, NULL);
    return rec(p, tsr_sum(a, &all, false, TSR_DTYPE_UNDEFINED, NULL), "sum", 1, in, NULL);
}

static tsr_tensor *zeros_like(Pool *p, const tsr_tensor *a)
{
    if (p->fail) return NULL;
    return hold(p, tsr_zeros(a->ndim, a->sizes, a->dtype, a->device));
}

/* The pool's result r as a value (or the error), the pool released. */
static Value *pool_result(Pool *p, tsr_tensor *r)
{
    Value *v = !p->fail && r ? v_tensor(tsr_tensor_retain(r)) : NULL;
    pool_free(p);
    return v ? v : exc_pending() ? NULL : bind_runtime_error();
}

/* ------------------------------------------------------------ arguments */

/* tensor argument i or 1.13's AttributeError of the Python body's first
 * use of it (".dim", ".size") */
static tsr_tensor *tensor_arg(Value *v, const char *attr)
{
    if (v && is_tensor(v)) return tensor_of(v);
    exc_set("AttributeError", "'%s' object has no attribute '%s'", v ? v->type->name : "NoneType", attr);
    return NULL;
}

/* margin= as a float (int accepted) */
static int margin_arg(Value *v, const char *fname, double dflt, double *out)
{
    *out = dflt;
    if (!v || is_none(v)) return 0;
    return args_float(v, fname, "margin", out);
}

/* "[2, 3]" (c10's IntArrayRef) or "torch.Size([2, 3])" */
static char *size_str(char *buf, size_t n, const tsr_tensor *t, bool torch_size)
{
    size_t k = (size_t)snprintf(buf, n, torch_size ? "torch.Size([" : "[");
    for (int i = 0; i < t->ndim && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? ", " : "", (long long)t->sizes[i]);
    if (k < n) snprintf(buf + k, n - k, torch_size ? "])" : "]");
    return buf;
}

/* The Python losses' own reduction check: size_average / reduce through
 * legacy_get_string, then "X is not valid". */
static int reduction_py(Value *size_average, Value *reduce, Value *reduction, tsr_reduction *out)
{
    if ((size_average && !is_none(size_average)) || (reduce && !is_none(reduce)))
        return bind_nnf_reduction(size_average, reduce, NULL, out);
    const char *s = "mean";
    if (reduction && !is_none(reduction)) {
        if (reduction->type != &t_str) return bind_nnf_reduction(NULL, NULL, reduction, out);
        s = reduction->u.s.p;
    }
    if (!strcmp(s, "none")) *out = TSR_REDUCTION_NONE;
    else if (!strcmp(s, "mean")) *out = TSR_REDUCTION_MEAN;
    else if (!strcmp(s, "sum")) *out = TSR_REDUCTION_SUM;
    else return exc_set("ValueError", "%s is not valid", s), -1;
    return 0;
}

/* ------------------------------------------------------------ ATen composites */

/* margin_ranking_loss(input1, input2, target, margin=0, size_average=None,
 * reduce=None, reduction='mean'): (-target * (input1 - input2) + margin).clamp_min_(0) */
static Value *f_margin_ranking(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[7] = {0};
    if (args_parse(a, "margin_ranking_loss", "def input1, input2, target, margin=, size_average=, reduce=, reduction=",
                   v) < 0)
        return NULL;
    tsr_reduction red;
    if (bind_nnf_reduction(v[4], v[5], v[6], &red) < 0) return NULL;
    tsr_tensor *x1 = tensor_arg(v[0], "dim"), *x2 = x1 ? tensor_arg(v[1], "dim") : NULL;
    tsr_tensor *t = x2 ? tensor_arg(v[2], "dim") : NULL;
    double margin;
    if (!t || margin_arg(v[3], "margin_ranking_loss", 0.0, &margin) < 0) return NULL;
    if (x1->ndim != x2->ndim || x1->ndim != t->ndim) {
        char s1[256], s2[256], s3[256];
        return exc_set("RuntimeError", "margin_ranking_loss : All input tensors should have same dimension but got "
                       "sizes: input1: %s, input2: %s, target: %s ", size_str(s1, sizeof s1, x1, true),
                       size_str(s2, sizeof s2, x2, true), size_str(s3, sizeof s3, t, true));
    }
    Pool p = {0};
    tsr_tensor *r = un(&p, TSR_UNOP_NEG, t);
    r = tt(&p, TSR_BINOP_MUL, r, tt(&p, TSR_BINOP_SUB, x1, x2));
    r = clamp0(&p, ts(&p, TSR_BINOP_ADD, r, margin, false));
    return pool_result(&p, reduce_all(&p, r, red));
}

/* hinge_embedding_loss(input, target, margin=1.0, ...): where(target != 1,
 * (margin - self).clamp_min_(0), 0) + where(target != -1, self, 0) */
static Value *f_hinge_embedding(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[6] = {0};
    if (args_parse(a, "hinge_embedding_loss", "def input, target, margin=, size_average=, reduce=, reduction=", v) < 0)
        return NULL;
    tsr_reduction red;
    double margin;
    if (bind_nnf_reduction(v[3], v[4], v[5], &red) < 0 || margin_arg(v[2], "hinge_embedding_loss", 1.0, &margin) < 0)
        return NULL;
    if (!is_tensor(v[0]) || !is_tensor(v[1]))
        return exc_set("TypeError", "hinge_embedding_loss(): argument '%s' (position %d) must be Tensor, not %s",
                       is_tensor(v[0]) ? "target" : "input", is_tensor(v[0]) ? 2 : 1,
                       (is_tensor(v[0]) ? v[1] : v[0])->type->name);
    tsr_tensor *x = tensor_of(v[0]), *t = tensor_of(v[1]);
    Pool p = {0};
    tsr_tensor *z = zeros_like(&p, x);
    tsr_tensor *mc = clamp0(&p, ts(&p, TSR_BINOP_SUB, x, margin, true));
    tsr_tensor *om = where3(&p, cmp_s(&p, TSR_CMP_NE, t, 1.0), mc, z);
    tsr_tensor *os = where3(&p, cmp_s(&p, TSR_CMP_NE, t, -1.0), x, z);
    return pool_result(&p, reduce_all(&p, tt(&p, TSR_BINOP_ADD, om, os), red));
}

/* cosine_embedding_loss(input1, input2, target, margin=0, ...) */
static Value *f_cosine_embedding(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[7] = {0};
    if (args_parse(a, "cosine_embedding_loss", "def input1, input2, target, margin=, size_average=, reduce=, reduction=",
                   v) < 0)
        return NULL;
    tsr_reduction red;
    double margin;
    if (bind_nnf_reduction(v[4], v[5], v[6], &red) < 0 || margin_arg(v[3], "cosine_embedding_loss", 0.0, &margin) < 0)
        return NULL;
    for (int i = 0; i < 3; i++)
        if (!is_tensor(v[i]))
            return exc_set("TypeError", "cosine_embedding_loss(): argument '%s' (position %d) must be Tensor, not %s",
                           i == 0 ? "input1" : i == 1 ? "input2" : "target", i + 1, v[i]->type->name);
    tsr_tensor *x1 = tensor_of(v[0]), *x2 = tensor_of(v[1]), *t = tensor_of(v[2]);
    int td = t->ndim;
    char s1[256], s2[256];
    if (td != 0 && td != 1) return exc_set("RuntimeError", "0D or 1D target tensor expected, multi-target not supported");
    if (td == 1 && x1->ndim != 2)   /* 1.13 checks input1 only */
        return exc_set("RuntimeError", "1D target tensor expects 2D input tensors, but found inputs with sizes %s and %s.",
                       size_str(s1, sizeof s1, x1, false), size_str(s2, sizeof s2, x2, false));
    if (td == 0 && x1->ndim != 1)
        return exc_set("RuntimeError", "0D target tensor expects 1D input tensors, but found inputs with sizes %s and %s.",
                       size_str(s1, sizeof s1, x1, false), size_str(s2, sizeof s2, x2, false));
    const double eps = 1e-12;   /* EPSILON of Loss.cpp */
    Pool p = {0};
    tsr_tensor *prod = sum_dim(&p, tt(&p, TSR_BINOP_MUL, x1, x2), td);
    tsr_tensor *m1 = ts(&p, TSR_BINOP_ADD, sum_dim(&p, tt(&p, TSR_BINOP_MUL, x1, x1), td), eps, false);
    tsr_tensor *m2 = ts(&p, TSR_BINOP_ADD, sum_dim(&p, tt(&p, TSR_BINOP_MUL, x2, x2), td), eps, false);
    tsr_tensor *den = un(&p, TSR_UNOP_SQRT, tt(&p, TSR_BINOP_MUL, m1, m2));
    tsr_tensor *cos = tt(&p, TSR_BINOP_DIV, prod, den);
    tsr_tensor *z = p.fail ? NULL : zeros_like(&p, cos);
    tsr_tensor *pos = ts(&p, TSR_BINOP_SUB, cos, 1.0, true);
    tsr_tensor *neg = clamp0(&p, ts(&p, TSR_BINOP_SUB, cos, margin, false));
    tsr_tensor *op = where3(&p, cmp_s(&p, TSR_CMP_EQ, t, 1.0), pos, z);
    tsr_tensor *on = where3(&p, cmp_s(&p, TSR_CMP_EQ, t, -1.0), neg, z);
    return pool_result(&p, reduce_all(&p, tt(&p, TSR_BINOP_ADD, op, on), red));
}

/* poisson_nll_loss(input, target, log_input=True, full=False,
 * size_average=None, eps=1e-8, reduce=None, reduction='mean') */
static Value *f_poisson_nll(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[8] = {0};
    if (args_parse(a, "poisson_nll_loss",
                   "def input, target, log_input=, full=, size_average=, eps=, reduce=, reduction=", v) < 0)
        return NULL;
    tsr_reduction red;
    if (reduction_py(v[4], v[6], v[7], &red) < 0) return NULL;
    double eps = 1e-8;
    if (v[5] && !is_none(v[5]) && args_float(v[5], "poisson_nll_loss", "eps", &eps) < 0) return NULL;
    int log_input = v[2] ? value_truth(v[2]) : 1, full = v[3] ? value_truth(v[3]) : 0;
    if (log_input < 0 || full < 0) return NULL;
    if (!is_tensor(v[0]) || !is_tensor(v[1]))
        return exc_set("TypeError", "poisson_nll_loss(): argument '%s' (position %d) must be Tensor, not %s",
                       is_tensor(v[0]) ? "target" : "input", is_tensor(v[0]) ? 2 : 1,
                       (is_tensor(v[0]) ? v[1] : v[0])->type->name);
    tsr_tensor *x = tensor_of(v[0]), *t = tensor_of(v[1]);
    Pool p = {0};
    tsr_tensor *loss;
    if (log_input) loss = tt(&p, TSR_BINOP_SUB, un(&p, TSR_UNOP_EXP, x), tt(&p, TSR_BINOP_MUL, t, x));
    else loss = tt(&p, TSR_BINOP_SUB, x, tt(&p, TSR_BINOP_MUL, t, un(&p, TSR_UNOP_LOG, ts(&p, TSR_BINOP_ADD, x, eps, false))));
    if (full) {   /* target * log(target) - target + 0.5 * log(2 * pi * target), 0 where target <= 1 */
        tsr_tensor *st = tt(&p, TSR_BINOP_SUB, tt(&p, TSR_BINOP_MUL, t, un(&p, TSR_UNOP_LOG, t)), t);
        tsr_tensor *lg = un(&p, TSR_UNOP_LOG, ts(&p, TSR_BINOP_MUL, t, 2 * M_PI, true));
        st = tt(&p, TSR_BINOP_ADD, st, ts(&p, TSR_BINOP_MUL, lg, 0.5, true));
        tsr_tensor *mask = cmp_s(&p, TSR_CMP_LE, t, 1.0);
        if (!p.fail) {
            tsr_operand z = tsr_operand_scalar(tsr_scalar_float(0.0));
            tsr_tensor *in[2] = {st, mask};
            st = rec(&p, tsr_masked_fill(st, mask, &z), "masked_fill", 2, in, NULL);
        }
        loss = tt(&p, TSR_BINOP_ADD, loss, st);
    }
    return pool_result(&p, reduce_all(&p, loss, red));
}

/* soft_margin_loss(input, target, size_average=None, reduce=None,
 * reduction='mean'): its ATen op, SoftMarginLossBackward0 over input (the
 * target is not differentiable) */
static Value *f_soft_margin(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[5] = {0};
    if (args_parse(a, "soft_margin_loss", "def input, target, size_average=, reduce=, reduction=", v) < 0) return NULL;
    tsr_reduction red;
    if (bind_nnf_reduction(v[2], v[3], v[4], &red) < 0) return NULL;
    if (!is_tensor(v[0]) || !is_tensor(v[1]))
        return exc_set("TypeError", "soft_margin_loss(): argument '%s' (position %d) must be Tensor, not %s",
                       is_tensor(v[0]) ? "target" : "input", is_tensor(v[0]) ? 2 : 1,
                       (is_tensor(v[0]) ? v[1] : v[0])->type->name);
    tsr_tensor *x = tensor_of(v[0]), *t = tensor_of(v[1]);
    if (tsr_grad_enabled() && tsr_tensor_requires_grad(t))
        return exc_set("RuntimeError", "the derivative for 'target' is not implemented.");
    tsr_tensor *r = tsr_nn_soft_margin_loss(x, t, red);
    if (!r) return bind_runtime_error();
    tsr_ag_args ga = {0};
    ga.i0 = red;
    if (tsr_ag_needed(1, &x) && (tsr_ag_record("soft_margin_loss", 1, &x, &ga, r, false) < 0 || tsr_ag_keep(r, t) < 0)) {
        tsr_tensor_release(r);
        return bind_runtime_error();
    }
    return v_tensor(r);
}

/* ------------------------------------------------------------ Python compositions */

static Value *call_kw(Value *obj, const char *name, int n, Value **pos, int nkw, const char **kwn, Value **kw)
{
    Value *f = value_getattr(obj, name);
    if (!f) return NULL;
    CallArgs c = {pos, n, kwn, kw, nkw};
    Value *r = value_call(f, &c);
    decref(f);
    return r;
}

/* Replaces *v by r (NULL on error), releasing the old one; returns r. */
static Value *step(Value **v, Value *r)
{
    if (*v) decref(*v);
    return *v = r;
}

/* loss.mean() / loss.sum() / loss (steals loss) */
static Value *py_reduce(Value *loss, tsr_reduction red)
{
    if (!loss || red == TSR_REDUCTION_NONE) return loss;
    Value *r = call_kw(loss, red == TSR_REDUCTION_MEAN ? "mean" : "sum", 0, NULL, 0, NULL, NULL);
    decref(loss);
    return r;
}

/* multilabel_soft_margin_loss(input, target, weight=None, size_average=None,
 * reduce=None, reduction='mean') */
static Value *f_multilabel_soft_margin(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[6] = {0};
    if (args_parse(a, "multilabel_soft_margin_loss", "def input, target, weight=, size_average=, reduce=, reduction=",
                   v) < 0)
        return NULL;
    tsr_reduction red = TSR_REDUCTION_MEAN;
    const char *rs = v[5] && v[5]->type == &t_str ? v[5]->u.s.p : "mean";
    bool legacy = (v[3] && !is_none(v[3])) || (v[4] && !is_none(v[4]));
    if (legacy && bind_nnf_reduction(v[3], v[4], NULL, &red) < 0) return NULL;
    Value *F = bind_module(MOD), *one = v_int(1), *loss = NULL, *t1 = NULL, *t2 = NULL, *ni = NULL, *r = NULL;
    /* -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input)) */
    if (!(t1 = call_kw(F, "logsigmoid", 1, &v[0], 0, NULL, NULL)) || !step(&t1, value_binop(OP_MUL, v[1], t1)) ||
        !(t2 = value_binop(OP_SUB, one, v[1])) || !(ni = value_unop(OP_NEG, v[0])) ||
        !step(&ni, call_kw(F, "logsigmoid", 1, &ni, 0, NULL, NULL)) || !step(&t2, value_binop(OP_MUL, t2, ni)) ||
        !(loss = value_binop(OP_ADD, t1, t2)) || !step(&loss, value_unop(OP_NEG, loss)))
        goto done;
    if (v[2] && !is_none(v[2]) && !step(&loss, value_binop(OP_MUL, loss, v[2]))) goto done;
    {
        tsr_tensor *x = tensor_of(v[0]);
        Value *cd = v_int(x->ndim - 1), *c = v_int(x->ndim ? x->sizes[x->ndim - 1] : 1);
        const char *dk[1] = {"dim"};
        bool ok = step(&loss, call_kw(loss, "sum", 0, NULL, 1, dk, &cd)) && step(&loss, value_binop(OP_TRUEDIV, loss, c));
        decref(cd);
        decref(c);
        if (!ok) goto done;
    }
    if (!legacy) {
        if (!strcmp(rs, "none")) red = TSR_REDUCTION_NONE;
        else if (!strcmp(rs, "mean")) red = TSR_REDUCTION_MEAN;
        else if (!strcmp(rs, "sum")) red = TSR_REDUCTION_SUM;
        else {
            exc_set("ValueError", "%s is not valid", rs);
            goto done;
        }
    }
    r = py_reduce(loss, red);
    loss = NULL;
done:
    decref(one);
    if (t1) decref(t1);
    if (t2) decref(t2);
    if (ni) decref(ni);
    if (loss) decref(loss);
    return r;
}

static bool same_sizes(const tsr_tensor *a, int na, const tsr_tensor *b, int nb)
{
    if (na != nb) return false;
    for (int i = 0; i < na; i++)
        if (a->sizes[i] != b->sizes[i]) return false;
    return true;
}

/* gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction='mean') */
static Value *f_gaussian_nll(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[6] = {0};
    if (args_parse(a, "gaussian_nll_loss", "def input, target, var, full=, eps=, reduction=", v) < 0) return NULL;
    for (int i = 0; i < 3; i += 2)
        if (!is_tensor(v[i])) return exc_set("AttributeError", "'%s' object has no attribute 'size'", v[i]->type->name);
    tsr_tensor *x = tensor_of(v[0]), *var = tensor_of(v[2]);
    Value *vv = v[2];
    incref(vv);
    Value *r = NULL, *loss = NULL, *lg = NULL, *q = NULL;
    if (!same_sizes(x, x->ndim, var, var->ndim)) {
        if (x->ndim > 0 && same_sizes(x, x->ndim - 1, var, var->ndim)) {
            Value *m1 = v_int(-1);
            step(&vv, call_kw(bind_module("torch"), "unsqueeze", 2, (Value *[]){vv, m1}, 0, NULL, NULL));
            decref(m1);
            if (!vv) return NULL;
        } else if (!(x->ndim > 0 && var->ndim > 0 && same_sizes(x, x->ndim - 1, var, var->ndim - 1) &&
                     var->sizes[var->ndim - 1] == 1)) {
            decref(vv);
            return exc_set("ValueError", "var is of incorrect size");
        }
    }
    tsr_reduction red = TSR_REDUCTION_MEAN;
    const char *rs = v[5] && v[5]->type == &t_str ? v[5]->u.s.p : "mean";
    if (!strcmp(rs, "none")) red = TSR_REDUCTION_NONE;
    else if (!strcmp(rs, "sum")) red = TSR_REDUCTION_SUM;
    else if (strcmp(rs, "mean")) {
        decref(vv);
        return exc_set("ValueError", "%s is not valid", rs);
    }
    double eps = 1e-6;
    int full = v[3] ? value_truth(v[3]) : 0;
    if ((v[4] && !is_none(v[4]) && args_float(v[4], "gaussian_nll_loss", "eps", &eps) < 0) || full < 0) {
        decref(vv);
        return NULL;
    }
    {   /* torch.any(var < 0) */
        tsr_tensor *vt = tensor_of(vv);
        tsr_operand x0 = tsr_operand_tensor(vt), z = tsr_operand_scalar(tsr_scalar_float(0.0));
        tsr_tensor *neg = tsr_compare(TSR_CMP_LT, &x0, &z, NULL), *anyv = NULL;
        if (neg) anyv = tsr_all_any(neg, NULL, false, false, NULL);
        bool bad = anyv && tsr_tensor_get_int64(anyv, NULL) != 0;
        tsr_tensor_release(neg);
        tsr_tensor_release(anyv);
        if (!anyv) {
            decref(vv);
            return bind_runtime_error();
        }
        if (bad) {
            decref(vv);
            return exc_set("ValueError", "var has negative entry/entries");
        }
    }
    /* var = var.clone(); with torch.no_grad(): var.clamp_(min=eps) */
    if (!step(&vv, call_kw(vv, "clone", 0, NULL, 0, NULL, NULL))) return NULL;
    {
        bool was = tsr_grad_enabled();
        tsr_set_grad_enabled(false);
        Value *e = v_float(eps), *c;
        const char *mk[1] = {"min"};
        c = call_kw(vv, "clamp_", 0, NULL, 1, mk, &e);
        tsr_set_grad_enabled(was);
        decref(e);
        if (!c) goto done;
        decref(c);
    }
    /* 0.5 * (torch.log(var) + (input - target)**2 / var) */
    {
        Value *two = v_int(2), *half = v_float(0.5);
        bool ok = (lg = call_kw(vv, "log", 0, NULL, 0, NULL, NULL)) && (q = value_binop(OP_SUB, v[0], v[1])) &&
                  step(&q, value_binop(OP_POW, q, two)) && step(&q, value_binop(OP_TRUEDIV, q, vv)) &&
                  (loss = value_binop(OP_ADD, lg, q)) && step(&loss, value_binop(OP_MUL, half, loss));
        decref(two);
        decref(half);
        if (!ok) goto done;
    }
    if (full) {   /* loss += 0.5 * math.log(2 * math.pi) */
        Value *c = v_float(0.5 * log(2 * M_PI));
        bool ok = step(&loss, call_kw(loss, "add_", 1, &c, 0, NULL, NULL)) != NULL;
        decref(c);
        if (!ok) goto done;
    }
    r = py_reduce(loss, red);
    loss = NULL;
done:
    decref(vv);
    if (lg) decref(lg);
    if (q) decref(q);
    if (loss) decref(loss);
    return r;
}

void bind_nnf_loss_init(void)
{
    Value *m = bind_module(MOD);
    module_add(m, "margin_ranking_loss", v_builtin("margin_ranking_loss", f_margin_ranking, NULL, NULL));
    module_add(m, "hinge_embedding_loss", v_builtin("hinge_embedding_loss", f_hinge_embedding, NULL, NULL));
    module_add(m, "cosine_embedding_loss", v_builtin("cosine_embedding_loss", f_cosine_embedding, NULL, NULL));
    module_add(m, "poisson_nll_loss", v_builtin("poisson_nll_loss", f_poisson_nll, NULL, NULL));
    module_add(m, "soft_margin_loss", v_builtin("soft_margin_loss", f_soft_margin, NULL, NULL));
    module_add(m, "multilabel_soft_margin_loss",
               v_builtin("multilabel_soft_margin_loss", f_multilabel_soft_margin, NULL, NULL));
    module_add(m, "gaussian_nll_loss", v_builtin("gaussian_nll_loss", f_gaussian_nll, NULL, NULL));
}
