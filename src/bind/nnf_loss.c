/* src/bind/nnf_loss.c — the torch.nn.functional losses 1.13 composes of
 * other ops (in torch/nn/functional.py or as CompositeImplicitAutograd ATen
 * functions in Loss.cpp): margin_ranking_loss, hinge_embedding_loss,
 * cosine_embedding_loss, poisson_nll_loss, gaussian_nll_loss and
 * multilabel_soft_margin_loss, with the torch.* spellings that take the
 * reduction as an int. Each runs the same ops in the same order through the
 * language's call path, so values, dtypes and the recorded graph nodes are
 * 1.13's; the checks 1.13 makes before them raise its messages. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "autograd.h"
#include "bind/areas.h"
#include "bind/bind.h"
#include "bind/ops.h"
#include "bind/table.h"
#include "bind/tensor.h"
#include "ops/binary.h"
#include "ops/nn_loss.h"
#include "names.h"
#include "value.h"

#define MOD "torch.nn.functional"

/* The intermediate values of one composition, released together. */
typedef struct {
    Value *v[40];
    int n;
} Pool;

static Value *keep(Pool *p, Value *v)
{
    if (v && p->n < 40) p->v[p->n++] = v;
    return v;
}

static void drain(Pool *p)
{
    for (int i = 0; i < p->n; i++) decref(p->v[i]);
    p->n = 0;
}

/* obj.name(*pos) through the call path; kept in p. */
static Value *pcall(Pool *p, Value *obj, const char *name, int n, Value **pos)
{
    Value *f = value_getattr(obj, name);
    if (!f) return NULL;
    Value *r = value_call0(f, n, pos);
    decref(f);
    return keep(p, r);
}

static Value *pcall1(Pool *p, Value *obj, const char *name, Value *x) { return obj ? pcall(p, obj, name, 1, &x) : NULL; }

static Value *pbin(Pool *p, int op, Value *a, Value *b) { return a && b ? keep(p, value_binop(op, a, b)) : NULL; }

static Value *pf(Pool *p, double d) { return keep(p, v_float(d)); }

static Value *pi(Pool *p, int64_t i) { return keep(p, v_int(i)); }

/* C++'s `x op scalar` (add / sub / mul with a Scalar: AddBackward1,
 * SubBackward1, MulBackward1); kept in p. */
static Value *scal(Pool *p, tsr_binop op, Value *x, double sc)
{
    if (!x) return NULL;
    tsr_tensor *t = tensor_of(x);
    tsr_operand a = tsr_operand_tensor(t), b = tsr_operand_scalar(tsr_scalar_float(sc));
    tsr_tensor *r = tsr_binary(op, &a, &b, NULL, NULL);
    tsr_ag_args ga = {.ndims = -1, .d0 = sc};
    const char *key = op == TSR_BINOP_ADD ? "add_s" : op == TSR_BINOP_SUB ? "sub_s" : "mul_s";
    if (!r || tsr_ag_record(key, 1, &t, &ga, r, false) < 0) {
        tsr_tensor_release(r);
        bind_runtime_error();
        return NULL;
    }
    return keep(p, v_tensor(r));
}

/* The returned value r taken out of p (a new reference), the rest released. */
static Value *finish(Pool *p, Value *r)
{
    if (r) incref(r);
    drain(p);
    return r;
}

static void warn(const char *msg)
{
    if (!bind_warnings_ignored()) fprintf(stderr, "UserWarning: %s\n", msg);
}

/* _Reduction.legacy_get_string(size_average, reduce) with its warning, or
 * the reduction string as given; NULL: not a str (*bad set to it). */
static const char *reduction_str(Value *size_average, Value *reduce, Value *reduction)
{
    if ((size_average && !is_none(size_average)) || (reduce && !is_none(reduce))) {
        bool sa = !size_average || is_none(size_average) || value_truth(size_average) == 1;
        bool rd = !reduce || is_none(reduce) || value_truth(reduce) == 1;
        const char *s = sa && rd ? "mean" : rd ? "sum" : "none";
        char msg[160];
        snprintf(msg, sizeof msg, "size_average and reduce args will be deprecated, please use reduction='%s' instead.", s);
        warn(msg);
        return s;
    }
    if (!reduction) return "mean";
    if (reduction->type != &t_str) return NULL;
    return reduction->u.s.p;
}

/* _Reduction.get_enum (after legacy_get_enum): 0 none, 1 mean, 2 sum; -1
 * with the ValueError. */
static int reduction_enum(Value *size_average, Value *reduce, Value *reduction)
{
    const char *s = reduction_str(size_average, reduce, reduction);
    if (!s) {
        Value *r = value_str(reduction);
        exc_set("ValueError", "%s is not a valid value for reduction", r ? r->u.s.p : "?");
        if (r) decref(r);
        return -1;
    }
    if (!strcmp(s, "none")) return 0;
    if (!strcmp(s, "mean")) return 1;
    if (!strcmp(s, "sum")) return 2;
    if (!strcmp(s, "elementwise_mean")) {
        warn("reduction='elementwise_mean' is deprecated, please use reduction='mean' instead.");
        return 1;
    }
    return exc_set("ValueError", "%s is not a valid value for reduction", s), -1;
}

/* The Python losses' own test: "X is not valid" unless none / mean / sum. */
static int reduction_py(Value *size_average, Value *reduce, Value *reduction)
{
    const char *s = reduction_str(size_average, reduce, reduction);
    if (!s) {
        exc_set("TypeError", "unsupported operand type(s) for +: '%s' and 'str'", reduction->type->name);
        return -1;
    }
    if (!strcmp(s, "none")) return 0;
    if (!strcmp(s, "mean")) return 1;
    if (!strcmp(s, "sum")) return 2;
    return exc_set("ValueError", "%s is not valid", s), -1;
}

/* apply_loss_reduction(loss, reduction) */
static Value *apply_reduction(Pool *p, Value *loss, int64_t red)
{
    if (!loss) return NULL;
    if (red == 1) return pcall(p, loss, "mean", 0, NULL);
    if (red == 2) return pcall(p, loss, "sum", 0, NULL);
    return loss;
}

/* The TypeError of the ATen function's argument parser for a non-tensor. */
static int need_tensor(Value *v, const char *op, const char *arg, int pos)
{
    if (v && is_tensor(v)) return 0;
    return exc_set("TypeError", "%s(): argument '%s' (position %d) must be Tensor, not %s", op, arg, pos,
                   v ? v->type->name : "NoneType"), -1;
}

/* 1.13's named-tensor refusal of the ATen op (schema) when x or y has names; -1 then. */
static int named_refused(const char *schema, const tsr_tensor *x, const tsr_tensor *y)
{
    if (!x->names && !(y && y->names)) return 0;
    tsr_names_refuse(schema);
    bind_runtime_error();
    return -1;
}

/* C++'s `scalar - t`: empty_like(t).fill_(scalar).sub_(t) (t's dtype). */
static Value *scalar_minus(Pool *p, Value *torch, double s, Value *t)
{
    Value *e = t ? pcall1(p, torch, "empty_like", t) : NULL;
    if (!e || !pcall1(p, e, "fill_", pf(p, s))) return NULL;
    return pcall1(p, e, "sub_", t) ? e : NULL;
}

/* ------------------------------------------------------------ the ATen compositions */

/* (-target * (input1 - input2) + margin).clamp_min_(0) */
static Value *margin_ranking(Value **v, double margin, int64_t red)
{
    Pool p = {0};
    Value *d = pbin(&p, OP_SUB, v[0], v[1]), *nt = keep(&p, value_unop(OP_NEG, v[2]));
    Value *o = scal(&p, TSR_BINOP_ADD, pbin(&p, OP_MUL, nt, d), margin);
    if (!o || !pcall1(&p, o, "clamp_min_", pi(&p, 0))) return finish(&p, NULL);
    return finish(&p, apply_reduction(&p, o, red));
}

static Value *hinge_embedding(Value **v, double margin, int64_t red)
{
    Pool p = {0};
    Value *torch = bind_module("torch");
    Value *zeros = pcall1(&p, torch, "zeros_like", v[0]);
    Value *mc = zeros ? scalar_minus(&p, torch, margin, v[0]) : NULL;
    if (!mc || !pcall1(&p, mc, "clamp_min_", pi(&p, 0))) return finish(&p, NULL);
    Value *a1[3] = {pcall1(&p, v[1], "ne", pi(&p, 1)), mc, zeros};
    Value *om = a1[0] ? pcall(&p, torch, "where", 3, a1) : NULL;
    Value *a2[3] = {om ? pcall1(&p, v[1], "ne", pi(&p, -1)) : NULL, v[0], zeros};
    Value *os = a2[0] ? pcall(&p, torch, "where", 3, a2) : NULL;
    return finish(&p, apply_reduction(&p, pbin(&p, OP_ADD, om, os), red));
}

static Value *cosine_embedding(Value **v, double margin, int64_t red)
{
    tsr_tensor *a = tensor_of(v[0]), *b = tensor_of(v[1]);
    int td = tensor_of(v[2])->ndim;
    char s1[96], s2[96];
    if (td != 1 && td != 0)
        return exc_set("RuntimeError", "0D or 1D target tensor expected, multi-target not supported");
    if (td == 1 && a->ndim != 2)   /* 1.13 checks input1 only; input2 fails later in its sum */
        return exc_set("RuntimeError", "1D target tensor expects 2D input tensors, but found inputs with sizes %s and %s.",
                       bind_sizes_str(s1, sizeof s1, a), bind_sizes_str(s2, sizeof s2, b));
    if (td == 0 && a->ndim != 1)
        return exc_set("RuntimeError", "0D target tensor expects 1D input tensors, but found inputs with sizes %s and %s.",
                       bind_sizes_str(s1, sizeof s1, a), bind_sizes_str(s2, sizeof s2, b));
    Pool p = {0};
    Value *torch = bind_module("torch"), *dim = pi(&p, td);
    Value *ps = pcall1(&p, pbin(&p, OP_MUL, v[0], v[1]), "sum", dim);
    Value *m1 = ps ? scal(&p, TSR_BINOP_ADD, pcall1(&p, pbin(&p, OP_MUL, v[0], v[0]), "sum", dim), 1e-12) : NULL;
    Value *m2 = m1 ? scal(&p, TSR_BINOP_ADD, pcall1(&p, pbin(&p, OP_MUL, v[1], v[1]), "sum", dim), 1e-12) : NULL;
    Value *den = pbin(&p, OP_MUL, m1, m2);
    if (!den || !pcall(&p, den, "sqrt_", 0, NULL)) return finish(&p, NULL);
    Value *cos = pbin(&p, OP_TRUEDIV, ps, den);
    Value *zeros = cos ? pcall1(&p, torch, "zeros_like", cos) : NULL;
    Value *pos = zeros ? scalar_minus(&p, torch, 1.0, cos) : NULL;
    Value *neg = pos ? scal(&p, TSR_BINOP_SUB, cos, margin) : NULL;
    if (!neg || !pcall1(&p, neg, "clamp_min_", pi(&p, 0))) return finish(&p, NULL);
    Value *a1[3] = {pcall1(&p, v[2], "eq", pi(&p, 1)), pos, zeros};
    Value *op = a1[0] ? pcall(&p, torch, "where", 3, a1) : NULL;
    Value *a2[3] = {op ? pcall1(&p, v[2], "eq", pi(&p, -1)) : NULL, neg, zeros};
    Value *on = a2[0] ? pcall(&p, torch, "where", 3, a2) : NULL;
    return finish(&p, apply_reduction(&p, pbin(&p, OP_ADD, op, on), red));
}

static Value *poisson_nll(Value **v, bool log_input, bool full, double eps, int64_t red)
{
    Pool p = {0};
    Value *torch = bind_module("torch"), *loss;
    if (log_input)
        loss = pbin(&p, OP_SUB, pcall1(&p, torch, "exp", v[0]), pbin(&p, OP_MUL, v[1], v[0]));
    else
        loss = pbin(&p, OP_SUB, v[0], pbin(&p, OP_MUL, v[1], pcall1(&p, torch, "log", scal(&p, TSR_BINOP_ADD, v[0], eps))));
    if (loss && full) {   /* target * log(target) - target + 0.5 * log(2 * pi * target), 0 where target <= 1 */
        Value *st = pbin(&p, OP_SUB, pbin(&p, OP_MUL, v[1], pcall1(&p, torch, "log", v[1])), v[1]);
        Value *lg = st ? pcall1(&p, torch, "log", scal(&p, TSR_BINOP_MUL, v[1], 2 * M_PI)) : NULL;
        st = pbin(&p, OP_ADD, st, scal(&p, TSR_BINOP_MUL, lg, 0.5));
        Value *mf[2] = {st ? pcall1(&p, v[1], "le", pi(&p, 1)) : NULL, pi(&p, 0)};
        Value *m = mf[0] ? pcall(&p, st, "masked_fill", 2, mf) : NULL;
        if (!m || !pcall1(&p, loss, "add_", m)) loss = NULL;
    }
    return finish(&p, apply_reduction(&p, loss, red));
}

/* ------------------------------------------------------------ torch.* spellings */

static int red_int(Value *v, const char *fname, int64_t dflt, int64_t *out)
{
    *out = dflt;
    return v ? args_int(v, fname, "reduction", out) : 0;
}

/* The ATen parser's converters: an absent value takes dflt; another type
 * (None included) is "f(): argument 'x' (position n) must be float, not T".
 * kind "Number" for a Scalar argument. */
static int pos_float(Value *v, const char *fname, const char *arg, int pos, const char *kind, double dflt, double *out)
{
    *out = dflt;
    if (!v) return 0;
    if (!is_int_like(v) && !is_type(v, &t_float) && !(is_tensor(v) && tensor_of(v)->ndim == 0))
        return exc_set("TypeError", "%s(): argument '%s' (position %d) must be %s, not %s", fname, arg, pos, kind,
                       v->type->name), -1;
    return args_float(v, fname, arg, out);
}

static int pos_bool(Value *v, const char *fname, const char *arg, int pos, bool dflt, bool *out)
{
    *out = dflt;
    if (!v) return 0;
    if (!is_type(v, &t_bool))
        return exc_set("TypeError", "%s(): argument '%s' (position %d) must be bool, not %s", fname, arg, pos,
                       v->type->name), -1;
    return args_bool(v, fname, arg, out);
}

/* torch.margin_ranking_loss / hinge_embedding_loss / cosine_embedding_loss
 * (input1, input2, target, margin=0.0, reduction=1) */
static Value *t_margin3(Value *self, CallArgs *a, void *d)
{
    (void)self;
    const char *name = d;
    bool cos = !strcmp(name, "cosine_embedding_loss");
    Value *v[5];
    double m;
    int64_t red;
    if (args_parse(a, name, "def input1, input2, target, margin=, reduction=", v) < 0 ||
        need_tensor(v[0], name, "input1", 1) < 0 || need_tensor(v[1], name, "input2", 2) < 0 ||
        need_tensor(v[2], name, "target", 3) < 0 || pos_float(v[3], name, "margin", 4, "float", 0.0, &m) < 0 ||
        red_int(v[4], name, 1, &red) < 0)
        return NULL;
    return cos ? cosine_embedding(v, m, red) : margin_ranking(v, m, red);
}

/* torch.hinge_embedding_loss(input, target, margin=1.0, reduction=1) */
static Value *t_hinge(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[4];
    double m;
    int64_t red;
    if (args_parse(a, "hinge_embedding_loss", "def input, target, margin=, reduction=", v) < 0 ||
        need_tensor(v[0], "hinge_embedding_loss", "input", 1) < 0 ||
        need_tensor(v[1], "hinge_embedding_loss", "target", 2) < 0 ||
        pos_float(v[2], "hinge_embedding_loss", "margin", 3, "float", 1.0, &m) < 0 || red_int(v[3], "hinge_embedding_loss", 1, &red) < 0)
        return NULL;
    return hinge_embedding(v, m, red);
}

/* torch.poisson_nll_loss(input, target, log_input, full, eps, reduction) */
static Value *t_poisson(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    const char *n = "poisson_nll_loss";
    Value *v[6];
    bool li, full;
    double eps;
    int64_t red;
    if (args_parse(a, n, "def input, target, log_input, full, eps, reduction", v) < 0 ||
        need_tensor(v[0], n, "input", 1) < 0 || need_tensor(v[1], n, "target", 2) < 0 ||
        pos_bool(v[2], n, "log_input", 3, true, &li) < 0 || pos_bool(v[3], n, "full", 4, false, &full) < 0 ||
        pos_float(v[4], n, "eps", 5, "float", 1e-8, &eps) < 0 || args_int(v[5], n, "reduction", &red) < 0)
        return NULL;
    return poisson_nll(v, li, full, eps, red);
}

/* ------------------------------------------------------------ F's defs */

/* margin_ranking_loss / cosine_embedding_loss(input1, input2, target,
 * margin=0, size_average=None, reduce=None, reduction='mean') */
static Value *f_margin3(Value *self, CallArgs *a, void *d)
{
    (void)self;
    const char *name = d;
    bool cos = !strcmp(name, "cosine_embedding_loss");
    Value *v[7];
    if (args_parse(a, name, "def input1, input2, target, margin=, size_average=, reduce=, reduction=", v) < 0) return NULL;
    int red = reduction_enum(v[4], v[5], v[6]);
    if (red < 0) return NULL;
    if (!cos) {
        for (int i = 0; i < 3; i++)
            if (!is_tensor(v[i])) return exc_set("AttributeError", "'%s' object has no attribute 'dim'", v[i]->type->name);
        tsr_tensor *x = tensor_of(v[0]), *y = tensor_of(v[1]), *t = tensor_of(v[2]);
        if (x->ndim != y->ndim || x->ndim != t->ndim) {
            char s[3][96];
            return exc_set("RuntimeError",
                           "margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: "
                           "torch.Size(%s), input2: torch.Size(%s), target: torch.Size(%s) ",
                           bind_sizes_str(s[0], 96, x), bind_sizes_str(s[1], 96, y), bind_sizes_str(s[2], 96, t));
        }
    }
    double m;
    if (need_tensor(v[0], name, "input1", 1) < 0 || need_tensor(v[1], name, "input2", 2) < 0 ||
        need_tensor(v[2], name, "target", 3) < 0 || pos_float(v[3], name, "margin", 4, "float", 0.0, &m) < 0)
        return NULL;
    return cos ? cosine_embedding(v, m, red) : margin_ranking(v, m, red);
}

/* hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction='mean') */
static Value *f_hinge(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    const char *n = "hinge_embedding_loss";
    Value *v[6];
    double m;
    if (args_parse(a, n, "def input, target, margin=, size_average=, reduce=, reduction=", v) < 0) return NULL;
    int red = reduction_enum(v[3], v[4], v[5]);
    if (red < 0 || need_tensor(v[0], n, "input", 1) < 0 || need_tensor(v[1], n, "target", 2) < 0 ||
        pos_float(v[2], n, "margin", 3, "float", 1.0, &m) < 0)
        return NULL;
    return hinge_embedding(v, m, red);
}

/* poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None, reduction='mean') */
static Value *f_poisson(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    const char *n = "poisson_nll_loss";
    Value *v[8];
    bool li, full;
    double eps;
    if (args_parse(a, n, "def input, target, log_input=, full=, size_average=, eps=, reduce=, reduction=", v) < 0) return NULL;
    int red = reduction_py(v[4], v[6], v[7]);
    if (red < 0 || need_tensor(v[0], n, "input", 1) < 0 || need_tensor(v[1], n, "target", 2) < 0 ||
        pos_bool(v[2], n, "log_input", 3, true, &li) < 0 || pos_bool(v[3], n, "full", 4, false, &full) < 0 ||
        pos_float(v[5], n, "eps", 5, "float", 1e-8, &eps) < 0)
        return NULL;
    return poisson_nll(v, li, full, eps, red);
}

/* gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction='mean'): 1.13's Python body */
static Value *f_gaussian(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[6];
    if (args_parse(a, "gaussian_nll_loss", "def input, target, var, full=, eps=, reduction=", v) < 0) return NULL;
    for (int i = 0; i < 3; i += 2)
        if (!is_tensor(v[i])) return exc_set("AttributeError", "'%s' object has no attribute 'size'", v[i]->type->name);
    Pool p = {0};
    Value *torch = bind_module("torch"), *var = v[2];
    tsr_tensor *x = tensor_of(v[0]), *vt = tensor_of(var);
    bool same = x->ndim == vt->ndim;
    for (int i = 0; same && i < x->ndim; i++) same = x->sizes[i] == vt->sizes[i];
    if (!same) {
        int xp = x->ndim ? x->ndim - 1 : 0, vp = vt->ndim ? vt->ndim - 1 : 0;
        bool short1 = xp == vt->ndim, pre = xp == vp;
        for (int i = 0; short1 && i < xp; i++) short1 = x->sizes[i] == vt->sizes[i];
        for (int i = 0; pre && i < xp; i++) pre = x->sizes[i] == vt->sizes[i];
        if (short1) {
            Value *ua[2] = {var, pi(&p, -1)};
            if (!(var = pcall(&p, torch, "unsqueeze", 2, ua))) return finish(&p, NULL);
        } else if (pre && vt->ndim == 0) {
            return finish(&p, exc_set("IndexError", "Dimension specified as -1 but tensor has no dimensions"));
        } else if (!(pre && vt->sizes[vt->ndim - 1] == 1)) {
            return finish(&p, exc_set("ValueError", "var is of incorrect size"));
        }
    }
    int red = reduction_py(NULL, NULL, v[5]);
    if (red < 0) return finish(&p, NULL);
    Value *neg = pcall1(&p, torch, "any", pcall1(&p, var, "lt", pi(&p, 0)));
    int t = neg ? value_truth(neg) : -1;
    if (t < 0) return finish(&p, NULL);
    if (t) return finish(&p, exc_set("ValueError", "var has negative entry/entries"));
    if (!(var = pcall(&p, var, "clone", 0, NULL))) return finish(&p, NULL);
    bool on = tsr_grad_enabled();
    tsr_set_grad_enabled(false);   /* with torch.no_grad(): var.clamp_(min=eps) */
    Value *f = value_getattr(var, "clamp_"), *e = v[4] ? v[4] : pf(&p, 1e-6), *cl = NULL;
    const char *kn[1] = {"min"};
    if (f) {
        CallArgs c = {NULL, 0, kn, &e, 1};
        cl = keep(&p, value_call(f, &c));
        decref(f);
    }
    tsr_set_grad_enabled(on);
    if (!cl) return finish(&p, NULL);
    /* 0.5 * (torch.log(var) + (input - target)**2 / var) */
    Value *sq = pbin(&p, OP_POW, pbin(&p, OP_SUB, v[0], v[1]), pi(&p, 2));
    Value *loss = pbin(&p, OP_MUL, pf(&p, 0.5), pbin(&p, OP_ADD, pcall1(&p, torch, "log", var), pbin(&p, OP_TRUEDIV, sq, var)));
    int full = loss && v[3] ? value_truth(v[3]) : 0;
    if (full < 0) return finish(&p, NULL);
    if (full && !pcall1(&p, loss, "add_", pf(&p, 0.5 * log(2 * M_PI)))) return finish(&p, NULL);   /* loss += */
    return finish(&p, apply_reduction(&p, loss, red));
}

/* multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction='mean') */
static Value *f_mlsm(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[6];
    if (args_parse(a, "multilabel_soft_margin_loss", "def input, target, weight=, size_average=, reduce=, reduction=", v) < 0)
        return NULL;
    const char *rs = reduction_str(v[3], v[4], v[5]);
    Pool p = {0};
    Value *F = bind_module(MOD);
    /* -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input)) */
    Value *l1 = pbin(&p, OP_MUL, v[1], pcall1(&p, F, "logsigmoid", v[0]));
    Value *ni = l1 ? keep(&p, value_unop(OP_NEG, v[0])) : NULL;
    Value *l2 = pbin(&p, OP_MUL, pbin(&p, OP_SUB, pi(&p, 1), v[1]), ni ? pcall1(&p, F, "logsigmoid", ni) : NULL);
    Value *s = pbin(&p, OP_ADD, l1, l2), *loss = s ? keep(&p, value_unop(OP_NEG, s)) : NULL;
    if (loss && v[2] && !is_none(v[2])) loss = pbin(&p, OP_MUL, loss, v[2]);
    Value *nd = loss ? pcall(&p, v[0], "dim", 0, NULL) : NULL;
    Value *cd = nd ? pbin(&p, OP_SUB, nd, pi(&p, 1)) : NULL;
    Value *C = cd ? pcall1(&p, v[0], "size", cd) : NULL;
    if (!C) return finish(&p, NULL);
    Value *sf = value_getattr(loss, "sum"), *sm = NULL;
    const char *kn[1] = {"dim"};
    if (sf) {
        CallArgs c = {NULL, 0, kn, &cd, 1};
        sm = keep(&p, value_call(sf, &c));
        decref(sf);
    }
    loss = pbin(&p, OP_TRUEDIV, sm, C);
    if (!loss) return finish(&p, NULL);
    if (!rs) return finish(&p, exc_set("TypeError", "unsupported operand type(s) for +: '%s' and 'str'", v[5]->type->name));
    if (!strcmp(rs, "none")) return finish(&p, loss);
    if (!strcmp(rs, "mean")) return finish(&p, pcall(&p, loss, "mean", 0, NULL));
    if (!strcmp(rs, "sum")) return finish(&p, pcall(&p, loss, "sum", 0, NULL));
    return finish(&p, exc_set("ValueError", "%s is not valid", rs));
}

/* soft_margin_loss(input, target, size_average=None, reduce=None,
 * reduction='mean') and torch._C._nn's (input, target, reduction=1): the
 * runtime's kernel, SoftMarginLossBackward0 over the input (the target is
 * not differentiable). */
static Value *soft_margin(Value **v, int64_t red)
{
    const char *n = "soft_margin_loss";
    if (need_tensor(v[0], n, "input", 1) < 0 || need_tensor(v[1], n, "target", 2) < 0) return NULL;
    tsr_tensor *x = tensor_of(v[0]), *t = tensor_of(v[1]);
    if (named_refused("aten::soft_margin_loss", x, t) < 0) return NULL;
    if (tsr_ag_needed(1, &t))
        return exc_set("RuntimeError", "The function 'soft_margin_loss' is not differentiable with respect to argument "
                                       "'target'. This input cannot have requires_grad True.");
    tsr_tensor *r = tsr_nn_soft_margin_loss(x, t, (tsr_reduction)red);
    if (!r) return bind_runtime_error();
    tsr_ag_args ga = {.i0 = red};
    if (tsr_ag_needed(1, &x) && (tsr_ag_record("soft_margin_loss", 1, &x, &ga, r, false) < 0 || tsr_ag_keep(r, t) < 0)) {
        tsr_tensor_release(r);
        return bind_runtime_error();
    }
    return v_tensor(r);
}

static Value *f_soft_margin(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[5];
    if (args_parse(a, "soft_margin_loss", "def input, target, size_average=, reduce=, reduction=", v) < 0) return NULL;
    int red = reduction_enum(v[2], v[3], v[4]);
    return red < 0 ? NULL : soft_margin(v, red);
}

static Value *t_soft_margin(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[3];
    int64_t red;
    if (args_parse(a, "soft_margin_loss", "def input, target, reduction=", v) < 0 ||
        red_int(v[2], "soft_margin_loss", 1, &red) < 0)
        return NULL;
    return soft_margin(v, red);
}

/* triplet_margin_loss (ATen, Loss.cpp): the pairwise distances, the swap's
 * minimum, clamp_min(margin + dist_pos - dist_neg, 0), the reduction */
static Value *triplet(Value **v, double margin, double pn, double eps, bool swap, int64_t red)
{
    tsr_tensor *a = tensor_of(v[0]), *b = tensor_of(v[1]), *c = tensor_of(v[2]);
    if (a->ndim != b->ndim || b->ndim != c->ndim)
        return exc_set("RuntimeError", "All inputs should have same dimension but got %dD, %dD and %dD inputs.", a->ndim,
                       b->ndim, c->ndim);
    Pool p = {0};
    Value *torch = bind_module("torch"), *pv = pf(&p, pn), *ev = pf(&p, eps);
    Value *ap[4] = {v[0], v[1], pv, ev}, *an[4] = {v[0], v[2], pv, ev}, *sw[4] = {v[1], v[2], pv, ev};
    Value *dp = pcall(&p, torch, "pairwise_distance", 4, ap);
    Value *dn = dp ? pcall(&p, torch, "pairwise_distance", 4, an) : NULL;
    if (dn && swap) {
        Value *ds = pcall(&p, torch, "pairwise_distance", 4, sw), *mm[2] = {dn, ds};
        dn = ds ? pcall(&p, torch, "min", 2, mm) : NULL;
    }
    Value *o = pbin(&p, OP_SUB, scal(&p, TSR_BINOP_ADD, dn ? dp : NULL, margin), dn);
    Value *cm[2] = {o, pi(&p, 0)};
    o = o ? pcall(&p, torch, "clamp_min", 2, cm) : NULL;
    return finish(&p, apply_reduction(&p, o, red));
}

/* torch.triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction=1) */
static Value *t_triplet(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    const char *n = "triplet_margin_loss";
    Value *v[8];
    double m, pn, eps;
    bool swap;
    int64_t red;
    if (args_parse(a, n, "def anchor, positive, negative, margin=, p=, eps=, swap=, reduction=", v) < 0 ||
        need_tensor(v[0], n, "anchor", 1) < 0 || need_tensor(v[1], n, "positive", 2) < 0 ||
        need_tensor(v[2], n, "negative", 3) < 0 || pos_float(v[3], n, "margin", 4, "float", 1.0, &m) < 0 ||
        pos_float(v[4], n, "p", 5, "float", 2.0, &pn) < 0 || pos_float(v[5], n, "eps", 6, "float", 1e-6, &eps) < 0 ||
        pos_bool(v[6], n, "swap", 7, false, &swap) < 0 || red_int(v[7], n, 1, &red) < 0)
        return NULL;
    return triplet(v, m, pn, eps, swap, red);
}

/* F.triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
 * reduce=None, reduction='mean') */
static Value *f_triplet(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    const char *n = "triplet_margin_loss";
    Value *v[10];
    double m, pn, eps;
    bool swap;
    if (args_parse(a, n, "def anchor, positive, negative, margin=, p=, eps=, swap=, size_average=, reduce=, reduction=",
                   v) < 0)
        return NULL;
    int red = reduction_enum(v[7], v[8], v[9]);
    if (red < 0 || need_tensor(v[0], n, "anchor", 1) < 0 || need_tensor(v[1], n, "positive", 2) < 0 ||
        need_tensor(v[2], n, "negative", 3) < 0 || pos_float(v[3], n, "margin", 4, "float", 1.0, &m) < 0 ||
        pos_float(v[4], n, "p", 5, "float", 2.0, &pn) < 0 || pos_float(v[5], n, "eps", 6, "float", 1e-6, &eps) < 0 ||
        pos_bool(v[6], n, "swap", 7, false, &swap) < 0)
        return NULL;
    return triplet(v, m, pn, eps, swap, red);
}

/* F.triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
 * swap=False, reduction='mean'): 1.13's Python body, the distance a callable of the language */
static Value *f_triplet_dist(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[7];
    if (args_parse(a, "triplet_margin_with_distance_loss",
                   "def anchor, positive, negative, *, distance_function=, margin=, swap=, reduction=", v) < 0)
        return NULL;
    Pool p = {0};
    Value *df = v[3] && !is_none(v[3]) ? v[3] : keep(&p, value_getattr(bind_module(MOD), "pairwise_distance"));
    Value *margin = v[4] ? v[4] : pf(&p, 1.0);
    Value *ap[2] = {v[0], v[1]}, *an[2] = {v[0], v[2]}, *sw[2] = {v[1], v[2]};
    Value *dp = df ? keep(&p, value_call0(df, 2, ap)) : NULL;
    Value *dn = dp ? keep(&p, value_call0(df, 2, an)) : NULL;
    int swap = dn && v[5] ? value_truth(v[5]) : 0;
    if (swap < 0) return finish(&p, NULL);
    if (dn && swap) {
        Value *ds = keep(&p, value_call0(df, 2, sw)), *mm[2] = {dn, ds};
        dn = ds ? pcall(&p, bind_module("torch"), "min", 2, mm) : NULL;
    }
    Value *o = pbin(&p, OP_ADD, pbin(&p, OP_SUB, dp, dn), margin), *cl = NULL;
    if (o) {   /* torch.clamp(..., min=0.0) */
        Value *f = value_getattr(bind_module("torch"), "clamp"), *z = pf(&p, 0.0);
        const char *kn[1] = {"min"};
        if (f) {
            CallArgs c = {&o, 1, kn, &z, 1};
            cl = keep(&p, value_call(f, &c));
            decref(f);
        }
    }
    if (!cl) return finish(&p, NULL);
    int red = reduction_enum(NULL, NULL, v[6]);
    return red < 0 ? finish(&p, NULL) : finish(&p, apply_reduction(&p, cl, red));
}

/* torch._C._nn.multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction=1): the runtime's
 * kernel, MultiMarginLossBackward0 over the input (the weight is not differentiable) */
static Value *multi_margin(Value **v, double pn, double margin, Value *wv, int64_t red)
{
    const char *n = "multi_margin_loss";
    if (need_tensor(v[0], n, "input", 1) < 0 || need_tensor(v[1], n, "target", 2) < 0) return NULL;
    if (wv && !is_none(wv) && !is_tensor(wv))
        return exc_set("TypeError", "multi_margin_loss(): argument 'weight' (position 5) must be Tensor, not %s",
                       wv->type->name);
    tsr_tensor *x = tensor_of(v[0]), *t = tensor_of(v[1]), *w = wv && !is_none(wv) ? tensor_of(wv) : NULL;
    if (named_refused("aten::multi_margin_loss", x, t) < 0 || (w && named_refused("aten::multi_margin_loss", w, NULL) < 0))
        return NULL;
    if (w && tsr_ag_needed(1, &w))
        return exc_set("RuntimeError", "The function 'multi_margin_loss' is not differentiable with respect to argument "
                                       "'weight'. This input cannot have requires_grad True.");
    int p = pn == 1.0 ? 1 : pn == 2.0 ? 2 : 0;
    tsr_tensor *r = tsr_nn_multi_margin_loss(x, t, p, margin, w, (tsr_reduction)red);
    if (!r) return bind_runtime_error();
    tsr_ag_args ga = {.i0 = red, .i1 = p, .d0 = margin};
    if (tsr_ag_needed(1, &x) && (tsr_ag_record("multi_margin_loss", 1, &x, &ga, r, false) < 0 || tsr_ag_keep(r, t) < 0 ||
                                 (w && tsr_ag_keep(r, w) < 0))) {
        tsr_tensor_release(r);
        return bind_runtime_error();
    }
    return v_tensor(r);
}

static Value *t_multi_margin(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    const char *n = "multi_margin_loss";
    Value *v[6];
    double pn, m;
    int64_t red;
    if (args_parse(a, n, "def input, target, p=, margin=, weight=, reduction=", v) < 0 ||
        pos_float(v[2], n, "p", 3, "Number", 1.0, &pn) < 0 || pos_float(v[3], n, "margin", 4, "Number", 1.0, &m) < 0 || red_int(v[5], n, 1, &red) < 0)
        return NULL;
    return multi_margin(v, pn, m, v[4], red);
}

/* F.multi_margin_loss(input, target, p=1, margin=1, weight=None, size_average=None, reduce=None, reduction='mean') */
static Value *f_multi_margin(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    const char *n = "multi_margin_loss";
    Value *v[8];
    double pn, m;
    if (args_parse(a, n, "def input, target, p=, margin=, weight=, size_average=, reduce=, reduction=", v) < 0) return NULL;
    int red = reduction_enum(v[5], v[6], v[7]);
    if (red < 0) return NULL;
    pn = 1.0;
    if (v[2] && (is_int_like(v[2]) || is_type(v[2], &t_float)) && args_float(v[2], n, "p", &pn) < 0) return NULL;
    if (v[2] && !is_int_like(v[2]) && !is_type(v[2], &t_float)) pn = 0;   /* p != 1 and p != 2 */
    if (pn != 1 && pn != 2) return exc_set("ValueError", "only p == 1 and p == 2 supported");
    if (v[4] && !is_none(v[4]) && is_tensor(v[4]) && tensor_of(v[4])->ndim != 1)
        return exc_set("ValueError", "weight must be one-dimensional");
    if (pos_float(v[3], n, "margin", 4, "Number", 1.0, &m) < 0) return NULL;
    return multi_margin(v, pn, m, v[4], red);
}

/* multilabel_margin_loss: F's (input, target, size_average=None, reduce=None, reduction='mean') and
 * torch._C._nn's (input, target, reduction=1); MultilabelMarginLossBackward0 over the input */
static Value *multilabel_margin(Value **v, int64_t red)
{
    const char *n = "multilabel_margin_loss";
    if (need_tensor(v[0], n, "input", 1) < 0 || need_tensor(v[1], n, "target", 2) < 0) return NULL;
    tsr_tensor *x = tensor_of(v[0]), *t = tensor_of(v[1]);
    if (named_refused("aten::multilabel_margin_loss_forward", x, t) < 0) return NULL;
    tsr_tensor *r = tsr_nn_multilabel_margin_loss(x, t, (tsr_reduction)red);
    if (!r) return bind_runtime_error();
    tsr_ag_args ga = {.i0 = red};
    if (tsr_ag_needed(1, &x) && (tsr_ag_record("multilabel_margin_loss", 1, &x, &ga, r, false) < 0 || tsr_ag_keep(r, t) < 0)) {
        tsr_tensor_release(r);
        return bind_runtime_error();
    }
    return v_tensor(r);
}

static Value *f_multilabel_margin(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[5];
    if (args_parse(a, "multilabel_margin_loss", "def input, target, size_average=, reduce=, reduction=", v) < 0) return NULL;
    int red = reduction_enum(v[2], v[3], v[4]);
    return red < 0 ? NULL : multilabel_margin(v, red);
}

static Value *t_multilabel_margin(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[3];
    int64_t red;
    if (args_parse(a, "multilabel_margin_loss", "def input, target, reduction=", v) < 0 ||
        red_int(v[2], "multilabel_margin_loss", 1, &red) < 0)
        return NULL;
    return multilabel_margin(v, red);
}

/* torch.pdist / F.pdist(input, p=2): the runtime's kernel, PdistBackward0 */
static Value *t_pdist(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[2];
    double p;
    if (args_parse(a, "pdist", "def input, p=", v) < 0 || need_tensor(v[0], "pdist", "input", 1) < 0 ||
        pos_float(v[1], "pdist", "p", 2, "float", 2.0, &p) < 0)
        return NULL;
    tsr_tensor *x = tensor_of(v[0]);
    if (x->ndim == 2 && tsr_dtype_is_floating(x->dtype) && p >= 0 && named_refused("aten::_pdist_forward", x, NULL) < 0)
        return NULL;
    tsr_tensor *r = tsr_pdist(x, p);
    if (!r) return bind_runtime_error();
    tsr_ag_args ga = {.d0 = p};
    if (tsr_ag_needed(1, &x) && tsr_ag_record("pdist", 1, &x, &ga, r, false) < 0) {
        tsr_tensor_release(r);
        return bind_runtime_error();
    }
    return v_tensor(r);
}

static const struct {
    const char *name;
    BuiltinFn fn;
    const char *data;
} f_defs[] = {
    {"margin_ranking_loss", f_margin3, "margin_ranking_loss"},
    {"cosine_embedding_loss", f_margin3, "cosine_embedding_loss"},
    {"hinge_embedding_loss", f_hinge, NULL},
    {"poisson_nll_loss", f_poisson, NULL},
    {"gaussian_nll_loss", f_gaussian, NULL},
    {"multilabel_soft_margin_loss", f_mlsm, NULL},
    {"soft_margin_loss", f_soft_margin, NULL},
    {"multi_margin_loss", f_multi_margin, NULL},
    {"multilabel_margin_loss", f_multilabel_margin, NULL},
    {"triplet_margin_loss", f_triplet, NULL},
    {"triplet_margin_with_distance_loss", f_triplet_dist, NULL},
};

void bind_nnf_loss_init(void)
{
    Value *m = bind_module(MOD), *torch = bind_module("torch");
    for (unsigned i = 0; i < sizeof f_defs / sizeof f_defs[0]; i++)
        module_add(m, f_defs[i].name, v_builtin(f_defs[i].name, f_defs[i].fn, NULL, (void *)f_defs[i].data));
    module_add(torch, "margin_ranking_loss", v_builtin("margin_ranking_loss", t_margin3, NULL, (void *)"margin_ranking_loss"));
    module_add(torch, "cosine_embedding_loss",
               v_builtin("cosine_embedding_loss", t_margin3, NULL, (void *)"cosine_embedding_loss"));
    module_add(torch, "hinge_embedding_loss", v_builtin("hinge_embedding_loss", t_hinge, NULL, NULL));
    module_add(bind_module("torch._C._nn"), "soft_margin_loss", v_builtin("soft_margin_loss", t_soft_margin, NULL, NULL));
    module_add(torch, "triplet_margin_loss", v_builtin("triplet_margin_loss", t_triplet, NULL, NULL));
    module_add(bind_module("torch._C._nn"), "multi_margin_loss", v_builtin("multi_margin_loss", t_multi_margin, NULL, NULL));
    module_add(bind_module("torch._C._nn"), "multilabel_margin_loss",
               v_builtin("multilabel_margin_loss", t_multilabel_margin, NULL, NULL));
    module_add(torch, "pdist", v_builtin("pdist", t_pdist, NULL, NULL));
    module_add(m, "pdist", v_builtin("pdist", t_pdist, NULL, NULL));
    module_add(torch, "poisson_nll_loss", v_builtin("poisson_nll_loss", t_poisson, NULL, NULL));
}
