/* src/bind/ops_fn.c — the elementwise ops as torch.NAME functions, Tensor
 * methods and in-place methods NAME_, with PyTorch 1.13's signatures. Calls
 * are matched the way torch/csrc/utils/python_arg_parser.cpp matches them
 * (overloads in order; one plausible overload gives its precise TypeError,
 * else "received an invalid combination of arguments"), so the messages are
 * PyTorch's. Signatures are parsed once at start-up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/explain.h"
#include "bind/ops.h"

/* ------------------------------------------------------------ signatures */

enum { T_TENSOR, T_NUMBER, T_INT, T_FLOAT, T_BOOL, T_STR, T_DTYPE };
static const char *const ptype_name[] = {"Tensor", "Number", "int", "float", "bool", "str", "torch.dtype"};

#define MAXP 6
#define OUT_SLOT (MAXP - 1)
#define MAXSIG 5

typedef struct {
    char name[24];
    char type;
    bool opt;       /* has a default */
    bool none;      /* accepts None */
    bool kwonly;
    char slot;      /* index in the function's argument layout; OUT_SLOT for out */
} Param;

typedef struct {
    Param p[MAXP];
    int n, min_args, max_pos;
} Sig;

typedef enum {
    K_BIN, K_DIV, K_UN, K_CMP, K_PRED, K_POSINF, K_NEGINF, K_CLAMP, K_CLAMP_MIN, K_CLAMP_MAX, K_LERP, K_WHERE,
    K_WHERE_M, K_ISCLOSE, K_ALLCLOSE, K_EQUAL, K_MFILL, K_POSITIVE, K_PROMOTE, K_RESULT_TYPE, K_CAN_CAST,
} Kind;

enum { F_FN = 1, F_M = 2, F_I = 4, F_NUMS = 8 };

typedef struct {
    const char *name;
    Kind kind;
    int code;
    unsigned flags;
    int hidden_f, hidden_m;     /* deprecated overloads PyTorch keeps but never lists */
    const char *sigs;           /* function signatures, '|' between overloads */
    Sig fs[MAXSIG], ms[MAXSIG];
    int nfs, nms;
    char iname[24];
} OpDef;

typedef struct {
    Value *v[MAXP];
    char type[MAXP];
    int sig;
} Bound;

static int parse_sig(const char *text, Sig *s)
{
    memset(s, 0, sizeof *s);
    bool kwonly = false;
    int slot = 0;
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == ',') p++;
        if (!*p) break;
        if (*p == '*') { kwonly = true; p++; continue; }
        char ty[16], nm[24];
        int len = 0;
        if (sscanf(p, "%15s %23[a-z_0-9=.eNoTrFlsu-]%n", ty, nm, &len) != 2) return -1;
        p += len;
        Param *q = &s->p[s->n++];
        size_t tl = strlen(ty);
        if (ty[tl - 1] == '?') { q->none = true; ty[--tl] = 0; }
        for (int t = 0; t <= T_DTYPE; t++)
            if (!strcmp(ty, ptype_name[t]) || (t == T_DTYPE && !strcmp(ty, "dtype"))) q->type = (char)t;
        char *eq = strchr(nm, '=');
        if (eq) { *eq = 0; q->opt = true; }
        snprintf(q->name, sizeof q->name, "%s", nm);
        q->kwonly = kwonly;
        q->slot = (char)(!strcmp(nm, "out") ? OUT_SLOT : slot++);
        if (!q->opt) s->min_args++;
        if (!kwonly) s->max_pos++;
    }
    return 0;
}

/* The method form: without self (the first Tensor input) and without out. */
static bool method_sig(const Sig *f, Sig *m)
{
    if (!f->n || f->p[0].type != T_TENSOR || (strcmp(f->p[0].name, "input") && strcmp(f->p[0].name, "self"))) return false;
    memset(m, 0, sizeof *m);
    for (int i = 1; i < f->n; i++) {
        if (f->p[i].slot == OUT_SLOT) continue;
        m->p[m->n++] = f->p[i];
        if (!f->p[i].opt) m->min_args++;
        if (!f->p[i].kwonly) m->max_pos++;
    }
    return true;
}

/* ------------------------------------------------------------ matching */

static bool is_num(Value *v)
{
    return v->type == &t_int || v->type == &t_float || v->type == &t_bool || v->type == &t_complex;
}

static bool check(const Param *p, Value *v, bool nums)
{
    switch (p->type) {
    case T_TENSOR: return is_tensor(v) || (nums && p->slot != OUT_SLOT && is_num(v));
    case T_NUMBER: return is_num(v) || (is_tensor(v) && tensor_of(v)->ndim == 0);
    case T_INT:
        return v->type == &t_int || (is_tensor(v) && tensor_of(v)->ndim == 0 &&
                                     tsr_dtype_is_integral(tensor_of(v)->dtype, false));
    case T_FLOAT:
        return v->type == &t_int || v->type == &t_float || v->type == &t_bool ||
               (is_tensor(v) && tensor_of(v)->ndim == 0);
    case T_BOOL: return v->type == &t_bool;
    case T_STR: return v->type == &t_str;
    case T_DTYPE: return is_dtype(v);
    }
    return false;
}

static void extra_args(const char *fname, const Sig *s, int nargs)
{
    if (s->min_args != s->max_pos)
        exc_set("TypeError", "%s() takes from %d to %d positional arguments but %d were given", fname, s->min_args,
                s->max_pos, nargs);
    else
        exc_set("TypeError", "%s() takes %d positional argument%s but %d %s given", fname, s->max_pos,
                s->max_pos == 1 ? "" : "s", nargs, nargs == 1 ? "was" : "were");
}

static void missing_args(const char *fname, const Sig *s, int idx)
{
    char buf[256];
    size_t n = 0;
    int miss = 0;
    buf[0] = 0;
    for (int i = idx; i < s->n; i++)
        if (!s->p[i].opt) {
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s\"%s\"", miss ? ", " : "", s->p[i].name);
            miss++;
            if (n >= sizeof buf) n = sizeof buf - 1;
        }
    /* sic: python_arg_parser.cpp pluralises the wrong way round */
    exc_set("TypeError", "%s() missing %d required positional argument%s: %s", fname, miss, miss == 1 ? "s" : "", buf);
}

/* FunctionSignature::parse over a->pos[off..] and the keywords. */
static int sig_parse(const char *fname, const Sig *s, CallArgs *a, int off, bool nums, Bound *b, bool raise)
{
    int nargs = a->npos - off, argpos = 0, used_kw = 0;
    if (nargs > s->max_pos) {
        if (raise) extra_args(fname, s, nargs);
        return -1;
    }
    for (int i = 0; i < s->n; i++) {
        const Param *p = &s->p[i];
        Value *obj = NULL;
        bool kw = false;
        if (argpos < nargs) obj = a->pos[off + argpos];
        else {
            kw = true;
            for (int k = 0; k < a->nkw; k++)
                if (!strcmp(a->kwnames[k], p->name)) { obj = a->kw[k]; break; }
        }
        if ((!obj && p->opt) || (obj && is_none(obj) && p->none)) {
            b->v[(int)p->slot] = NULL;
        } else if (!obj) {
            if (raise) missing_args(fname, s, i);
            return -1;
        } else if (check(p, obj, nums)) {
            b->v[(int)p->slot] = obj;
            b->type[(int)p->slot] = p->type;
        } else {
            if (raise) {
                if (kw) exc_set("TypeError", "%s(): argument '%s' must be %s, not %s", fname, p->name,
                                ptype_name[(int)p->type], type_name(obj));
                else exc_set("TypeError", "%s(): argument '%s' (position %d) must be %s, not %s", fname, p->name,
                             argpos + 1, ptype_name[(int)p->type], type_name(obj));
            }
            return -1;
        }
        if (!kw) argpos++;
        else if (obj) used_kw++;
    }
    if (used_kw < a->nkw) {
        if (raise)
            for (int k = 0; k < a->nkw; k++) {
                int idx = -1;
                for (int i = 0; i < s->n; i++)
                    if (!strcmp(s->p[i].name, a->kwnames[k])) idx = i;
                if (idx < 0) return exc_seti("TypeError", "%s() got an unexpected keyword argument '%s'", fname, a->kwnames[k]);
                if (idx < nargs) return exc_seti("TypeError", "%s() got multiple values for argument '%s'", fname, a->kwnames[k]);
            }
        return -1;
    }
    return 0;
}

static void sig_text(const Sig *s, char *buf, size_t cap)
{
    size_t n = 0;
    bool star = false;
    buf[0] = 0;
    for (int i = 0; i < s->n && n < cap; i++) {
        if (s->p[i].kwonly && !star) {
            n += (size_t)snprintf(buf + n, cap - n, "%s*", i ? ", " : "");
            star = true;
        }
        if (n < cap)
            n += (size_t)snprintf(buf + n, cap - n, "%s%s %s", (i || star) ? ", " : "", ptype_name[(int)s->p[i].type],
                                  s->p[i].name);
    }
}

Value *bind_invalid_combination(const char *fname, CallArgs *a); /* types.c */

/* PythonArgParser::raw_parse + print_error. off: 1 when a->pos[0] is self. */
static int parse_call(const OpDef *d, const char *fname, CallArgs *a, int off, bool method, Bound *b)
{
    const Sig *ss = method ? d->ms : d->fs;
    int n = method ? d->nms : d->nfs, hidden = method ? d->hidden_m : d->hidden_f;
    bool nums = d->flags & F_NUMS;
    memset(b, 0, sizeof *b);
    if (method && n == 1 && ss[0].n == 0) {   /* METH_NOARGS */
        if (a->npos > off) return exc_seti("TypeError", "_TensorBase.%s() takes no arguments (%d given)", fname, a->npos - off);
        if (a->nkw) return exc_seti("TypeError", "_TensorBase.%s() takes no keyword arguments", fname);
        return 0;
    }
    if (n + hidden == 1) return sig_parse(fname, &ss[0], a, off, nums, b, true);
    for (int i = 0; i < n; i++) {
        if (sig_parse(fname, &ss[i], a, off, nums, b, false) == 0) {
            b->sig = i;
            return 0;
        }
        memset(b, 0, sizeof *b);
    }
    int nargs = a->npos - off + a->nkw, plaus = -1, nplaus = 0;
    for (int i = 0; i < n; i++)
        if (nargs >= ss[i].min_args && nargs <= ss[i].n) { plaus = i; nplaus++; }
    if (nplaus == 1 && sig_parse(fname, &ss[plaus], a, off, nums, b, true) < 0) return -1;
    CallArgs rest = {a->pos + off, a->npos - off, a->kwnames, a->kw, a->nkw};
    bind_invalid_combination(fname, &rest);
    if (n == 1) {
        char msg[1024], sig[512];
        const char *m = exc_message();
        size_t len = strlen(m), tail = strlen("one of:");
        sig_text(&ss[0], sig, sizeof sig);
        snprintf(msg, sizeof msg, "%.*s(%s)", (int)(len > tail ? len - tail : len), m, sig);
        exc_clear();
        exc_set("TypeError", "%s", msg);
    }
    return -1;
}

/* ------------------------------------------------------------ argument values */

/* A Tensor-or-Number argument as an operand; a 0-dim tensor given for a
 * Number parameter is its value (python_arg_parser's Scalar). */
static int arg_operand(const Bound *b, int slot, tsr_operand *o, const char *fname)
{
    Value *v = b->v[slot];
    if (is_tensor(v) && b->type[slot] == T_NUMBER) {
        tsr_scalar s;
        if (bind_scalar(v, fname, "other", &s) < 0) return -1;
        *o = tsr_operand_scalar(s);
        return 0;
    }
    ops_operand(v, o);
    return 0;
}

static int arg_scalar(Value *v, const char *fname, const char *arg, tsr_scalar *s)
{
    return bind_scalar(v, fname, arg, s);
}

static int arg_double(Value *v, double *out)
{
    tsr_scalar s;
    if (bind_scalar(v, "", "", &s) < 0) return -1;
    *out = tsr_scalar_to_double(s);
    return 0;
}

/* Two Python numbers (torch.add(5, 5)): PyTorch wraps both; the first as a
 * zero-dim tensor of the dtype result_type counts it as gives the same answer. */
static tsr_tensor *scalar_tensor(const tsr_operand *o)
{
    return tsr_full(0, NULL, o->s, tsr_operand_promo_dtype(o), TSR_CPU);
}


/* ------------------------------------------------------------ running */

#define finish ops_finish

static void explain3(const char *name, int n, const tsr_operand *in, OpsRule rule, const tsr_tensor *r,
                     const tsr_tensor *out, bool inplace)
{
    if (explain_active()) ops_explain(name, NULL, n, in, rule, r, out, inplace);
}

static Value *run_binary(const OpDef *d, const char *fname, Bound *b, Value *self_inplace)
{
    tsr_operand x, y;
    tsr_binary_opts opts = {0};
    tsr_binop op = (tsr_binop)d->code;
    if (arg_operand(b, 0, &x, fname) < 0 || arg_operand(b, 1, &y, fname) < 0) return NULL;
    if (d->kind == K_DIV && b->v[2]) {
        const char *m = b->v[2]->u.s.p;
        if (!strcmp(m, "trunc")) op = TSR_BINOP_DIV_TRUNC;
        else if (!strcmp(m, "floor")) op = TSR_BINOP_DIV_FLOOR;
        else return exc_set("RuntimeError", "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'", m);
    }
    if ((op == TSR_BINOP_ADD || op == TSR_BINOP_SUB) && b->v[2]) {
        opts.has_alpha = true;
        if (arg_scalar(b->v[2], fname, "alpha", &opts.alpha) < 0) return NULL;
    }
    if (self_inplace && op == TSR_BINOP_FLOAT_POWER) {
        tsr_operand o[2] = {x, y};
        tsr_dtype want = tsr_dtype_is_complex(tsr_result_type(2, o, NULL)) ? TSR_COMPLEX128 : TSR_FLOAT64;
        if (tensor_of(self_inplace)->dtype != want)
            return exc_set("RuntimeError", "the base given to float_power_ has dtype %s but the operation's result requires dtype %s",
                           tsr_dtype_scalar_name(tensor_of(self_inplace)->dtype), tsr_dtype_scalar_name(want));
    }
    if (!x.t && !y.t) {   /* both Python numbers: only for ops that take numbers as tensors */
        tsr_tensor *t = scalar_tensor(&x);
        if (!t) return bind_runtime_error();
        x = tsr_operand_tensor(t);
        Value *r = ops_binary(op, fname, NULL, &x, &y, b->v[OUT_SLOT], &opts, NULL);
        tsr_tensor_release(t);
        return r;
    }
    return ops_binary(op, fname, NULL, &x, &y, b->v[OUT_SLOT], &opts, self_inplace);
}

static Value *run_unary(const OpDef *d, const char *fname, Bound *b, Value *self, bool inplace)
{
    tsr_unary_opts o = {0};
    tsr_unop op = (tsr_unop)d->code;
    if (op == TSR_UNOP_ROUND && b->v[1]) {
        if (bind_int(b->v[1], fname, "decimals", &o.decimals) < 0) return NULL;
    }
    if (op == TSR_UNOP_LOGIT && b->v[1]) {
        o.has_eps = true;
        if (arg_double(b->v[1], &o.eps) < 0) return NULL;
    }
    if (op == TSR_UNOP_NAN_TO_NUM) {
        if (b->v[1] && (o.has_nan = true, arg_double(b->v[1], &o.nan) < 0)) return NULL;
        if (b->v[2] && (o.has_posinf = true, arg_double(b->v[2], &o.posinf) < 0)) return NULL;
        if (b->v[3] && (o.has_neginf = true, arg_double(b->v[3], &o.neginf) < 0)) return NULL;
    }
    (void)self;
    return ops_unary(op, fname, NULL, b->v[0], b->v[OUT_SLOT], &o, inplace);
}

/* isposinf / isneginf: isinf(x) & (x > 0) — integers are never infinite. */
static Value *run_signed_inf(Kind k, const char *fname, Bound *b)
{
    tsr_tensor *x = tensor_of(b->v[0]), *out = b->v[OUT_SLOT] ? tensor_of(b->v[OUT_SLOT]) : NULL;
    if (tsr_dtype_is_complex(x->dtype)) return exc_set("RuntimeError", "%s does not support complex inputs.", fname);
    tsr_tensor *inf = tsr_predicate(TSR_PRED_ISINF, x, NULL), *sgn = NULL, *r = NULL;
    tsr_operand xo = tsr_operand_tensor(x), zero = tsr_operand_scalar(tsr_scalar_int(0));
    if (inf) sgn = tsr_compare(k == K_POSINF ? TSR_CMP_GT : TSR_CMP_LT, &xo, &zero, NULL);
    if (sgn) {
        tsr_operand a = tsr_operand_tensor(inf), c = tsr_operand_tensor(sgn);
        r = tsr_compare(TSR_CMP_LOGICAL_AND, &a, &c, out);
        if (out) ops_warn();
    }
    tsr_tensor_release(inf);
    tsr_tensor_release(sgn);
    explain3(fname, 1, &xo, RULE_BOOL, r, out, false);
    return finish(r, b->v[OUT_SLOT]);
}

/* clamp with Scalar bounds is a unary op with check_all_same_dtype ("Found
 * dtype Long but expected Char"); in place, its refusal names self's dtype
 * the TypeMeta way ("... desired output type signed char"). Tensor bounds
 * make a ternary op with the ordinary can_cast check. */
static int clamp_precheck(const tsr_tensor *x, const tsr_operand *lo, const tsr_operand *hi, const tsr_tensor *out,
                          bool inplace)
{
    tsr_operand o[3];
    int n = 0;
    o[n++] = tsr_operand_tensor(x);
    if (lo) o[n++] = *lo;
    if (hi) o[n++] = *hi;
    if (n == 1) return 0;
    bool scalars = (!lo || !lo->t) && (!hi || !hi->t);
    /* TensorIterator broadcasts the inputs before it looks at dtypes */
    int nd[3], m = 0;
    const int64_t *sz[3];
    for (int k = 0; k < n; k++)
        if (o[k].t) { nd[m] = o[k].t->ndim; sz[m++] = o[k].t->sizes; }
    int64_t shape[TSR_MAX_DIMS];
    if (m > 1 && tsr_broadcast_shapes(m, nd, sz, shape) < 0) return -1;
    tsr_dtype dt = tsr_result_type(n, o, NULL);
    if (tsr_dtype_is_complex(dt)) return 0;
    if (inplace) {
        if (!tsr_can_cast(dt, x->dtype)) {
            tsr_error_set(TSR_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                          tsr_dtype_scalar_name(dt), scalars ? tsr_dtype_typemeta_name(x->dtype) : tsr_dtype_scalar_name(x->dtype));
            return -1;
        }
        return 0;
    }
    if (scalars && out->dtype != dt) {
        tsr_error_set(TSR_ERR_RUNTIME, "Found dtype %s but expected %s", tsr_dtype_scalar_name(out->dtype),
                      tsr_dtype_scalar_name(dt));
        return -1;
    }
    return 0;
}

static Value *run_clamp(const OpDef *d, const char *fname, Bound *b, Value *self_inplace)
{
    tsr_operand lo, hi, *plo = NULL, *phi = NULL;
    int lslot = d->kind == K_CLAMP_MAX ? -1 : 1, hslot = d->kind == K_CLAMP ? 2 : d->kind == K_CLAMP_MAX ? 1 : -1;
    if (lslot >= 0 && b->v[lslot]) {
        if (arg_operand(b, lslot, &lo, fname) < 0) return NULL;
        plo = &lo;
    }
    if (hslot >= 0 && b->v[hslot]) {
        if (arg_operand(b, hslot, &hi, fname) < 0) return NULL;
        phi = &hi;
    }
    tsr_tensor *x = tensor_of(b->v[0]), *out = b->v[OUT_SLOT] ? tensor_of(b->v[OUT_SLOT]) : NULL, *r;
    if ((out || self_inplace) && clamp_precheck(x, plo, phi, out, self_inplace != NULL) < 0) {
        r = NULL;
        goto done;
    }
    r = self_inplace ? tsr_clamp_(x, plo, phi) : tsr_clamp(x, plo, phi, out);
done:
    if (out) ops_warn();
    if (explain_active()) {
        tsr_operand in[3];
        int n = 0;
        in[n++] = tsr_operand_tensor(x);
        if (plo) in[n++] = lo;
        if (phi) in[n++] = hi;
        ops_explain(fname, NULL, n, in, RULE_COMMON, r, self_inplace ? x : out, self_inplace != NULL);
    }
    return finish(r, self_inplace ? self_inplace : b->v[OUT_SLOT]);
}

static Value *run_lerp(const char *fname, Bound *b, Value *self_inplace)
{
    tsr_tensor *s = tensor_of(b->v[0]), *e = tensor_of(b->v[1]), *out = b->v[OUT_SLOT] ? tensor_of(b->v[OUT_SLOT]) : NULL;
    tsr_operand w;
    if (arg_operand(b, 2, &w, fname) < 0) return NULL;
    if (e->dtype != s->dtype)
        return exc_set("RuntimeError", "expected dtype %s for `end` but got dtype %s", tsr_dtype_typemeta_name(s->dtype),
                       tsr_dtype_typemeta_name(e->dtype));
    if (w.t && w.t->dtype != s->dtype)
        return exc_set("RuntimeError", "expected dtype %s for `weight` but got dtype %s", tsr_dtype_typemeta_name(s->dtype),
                       tsr_dtype_typemeta_name(w.t->dtype));
    tsr_tensor *r = self_inplace ? tsr_lerp_(s, e, &w) : tsr_lerp(s, e, &w, out);
    if (out) ops_warn();
    if (explain_active()) {
        tsr_operand in[3] = {tsr_operand_tensor(s), tsr_operand_tensor(e), w};
        ops_explain(fname, NULL, 3, in, RULE_SELF, r, self_inplace ? s : out, self_inplace != NULL);
    }
    return finish(r, self_inplace ? self_inplace : b->v[OUT_SLOT]);
}

/* torch.where(condition): nonzero(condition, as_tuple=True). */
static Value *nonzero_tuple(tsr_tensor *c)
{
    int nd = c->ndim ? c->ndim : 1;
    int64_t n = tsr_tensor_numel(c), cnt = 0;
    if (tsr_tensor_is_meta(c)) return exc_set("NotImplementedError", "Cannot copy out of meta tensor; no data!");
    for (int64_t i = 0; i < n; i++) {
        tsr_scalar s;
        if (tsr_tensor_get_at(c, i, &s) < 0) return bind_runtime_error();
        cnt += tsr_scalar_to_bool(s);
    }
    Value *tup = v_tuple((size_t)nd);
    int64_t *cols[TSR_MAX_DIMS];
    for (int d = 0; d < nd; d++) {
        tsr_tensor *t = tsr_tensor_empty(1, &cnt, TSR_INT64, TSR_CPU);
        Value *v = v_tensor(t);
        if (!v) {
            for (int k = d; k < nd; k++) tup->u.seq.items[k] = v_none();
            decref(tup);
            return NULL;
        }
        tup->u.seq.items[d] = v;
        cols[d] = cnt ? tsr_tensor_ptr(t, NULL) : NULL;
    }
    int64_t idx[TSR_MAX_DIMS], k = 0;
    for (int64_t i = 0; i < n; i++) {
        tsr_scalar s;
        tsr_tensor_get_at(c, i, &s);
        if (!tsr_scalar_to_bool(s)) continue;
        if (c->ndim == 0) { cols[0][k++] = 0; continue; }
        tsr_unravel(c->ndim, c->sizes, i, idx);
        for (int d = 0; d < nd; d++) cols[d][k] = idx[d];
        k++;
    }
    return tup;
}

static Value *run_where(const char *fname, Bound *b, int cslot, int aslot, int bslot)
{
    tsr_tensor *c = tensor_of(b->v[cslot]), *out = b->v[OUT_SLOT] ? tensor_of(b->v[OUT_SLOT]) : NULL;
    if (!b->v[aslot]) return nonzero_tuple(c);
    tsr_operand x, y;
    if (arg_operand(b, aslot, &x, fname) < 0 || arg_operand(b, bslot, &y, fname) < 0) return NULL;
    tsr_tensor *r = tsr_where(c, &x, &y, out);
    if (out) ops_warn();
    if (explain_active()) {
        tsr_operand in[3] = {tsr_operand_tensor(c), x, y};
        ops_explain(fname, NULL, 3, in, RULE_COMMON, r, out, false);
    }
    return finish(r, b->v[OUT_SLOT]);
}

static Value *run_masked_fill(const char *fname, Bound *b, Value *self_inplace)
{
    tsr_tensor *x = tensor_of(b->v[0]), *m = tensor_of(b->v[1]);
    tsr_operand v;
    if (arg_operand(b, 2, &v, fname) < 0) return NULL;
    tsr_tensor *r;
    /* the value is converted to self's dtype with an overflow check */
    tsr_scalar sv;
    if (v.t ? (v.t->ndim == 0 && !tsr_tensor_is_meta(v.t) && tsr_tensor_get_at(v.t, 0, &sv) == 0 &&
               tsr_scalar_check_fits(sv, x->dtype) < 0)
            : tsr_scalar_check_fits(v.s, x->dtype) < 0)
        return bind_runtime_error();
    if (self_inplace) r = tsr_masked_fill_(x, m, &v) < 0 ? NULL : tsr_tensor_retain(x);
    else r = tsr_masked_fill(x, m, &v);
    if (explain_active()) {
        tsr_operand in[3] = {tsr_operand_tensor(x), tsr_operand_tensor(m), v};
        ops_explain(fname, NULL, 3, in, RULE_SELF, r, self_inplace ? x : NULL, self_inplace != NULL);
    }
    return finish(r, self_inplace);
}

static Value *run_close(const OpDef *d, const char *fname, Bound *b)
{
    tsr_tensor *x = tensor_of(b->v[0]), *y = tensor_of(b->v[1]);
    if (d->kind == K_EQUAL) {
        int r = tsr_equal(x, y);
        return r < 0 ? bind_runtime_error() : v_bool(r);
    }
    double rtol = 1e-05, atol = 1e-08;
    bool equal_nan = b->v[4] ? b->v[4]->u.i != 0 : false;
    if ((b->v[2] && arg_double(b->v[2], &rtol) < 0) || (b->v[3] && arg_double(b->v[3], &atol) < 0)) return NULL;
    (void)fname;
    if (d->kind == K_ALLCLOSE) {
        int r = tsr_allclose(x, y, rtol, atol, equal_nan);
        return r < 0 ? bind_runtime_error() : v_bool(r);
    }
    return v_tensor(tsr_isclose(x, y, rtol, atol, equal_nan));
}

static Value *run_result_type(Bound *b)
{
    tsr_operand o[2];
    for (int k = 0; k < 2; k++) {
        Value *v = b->v[k];
        if (is_tensor(v)) o[k] = tsr_operand_tensor(tensor_of(v));
        else ops_operand(v, &o[k]);
    }
    return v_dtype(tsr_result_type(2, o, NULL));
}

/* One call of an op in one of its forms. self: the tensor of a method call
 * (a->pos does not hold it), NULL for torch.NAME. */
static Value *op_call(const OpDef *d, Value *self, CallArgs *a, bool inplace)
{
    const char *fname = inplace ? d->iname : d->name;
    Bound b;
    Value *stack[16], **pos = stack;
    CallArgs ca = *a;
    int off = 0;
    if (self) {   /* positions in messages do not count self */
        if (a->npos + 1 > 16) return exc_set("TypeError", "%s(): too many arguments", fname);
        pos[0] = self;
        for (int i = 0; i < a->npos; i++) pos[i + 1] = a->pos[i];
        ca.pos = pos;
        ca.npos = a->npos + 1;
        off = 1;
    }
    if (parse_call(d, fname, &ca, off, self != NULL, &b) < 0) return NULL;
    if (self) {
        if (d->kind == K_WHERE_M) b.v[0] = self;
        else b.v[0] = self, b.type[0] = T_TENSOR;
    }
    Value *si = inplace ? self : NULL;
    switch (d->kind) {
    case K_BIN: case K_DIV: return run_binary(d, fname, &b, si);
    case K_UN: return run_unary(d, fname, &b, self, inplace);
    case K_CMP: {
        tsr_operand x, y;
        if (arg_operand(&b, 0, &x, fname) < 0 || arg_operand(&b, 1, &y, fname) < 0) return NULL;
        return ops_compare((tsr_cmpop)d->code, fname, NULL, &x, &y, b.v[OUT_SLOT], si);
    }
    case K_PRED: {
        tsr_tensor *x = tensor_of(b.v[0]), *out = inplace ? x : b.v[OUT_SLOT] ? tensor_of(b.v[OUT_SLOT]) : NULL;
        tsr_tensor *r = tsr_predicate((tsr_predop)d->code, x, out);
        if (out && !inplace) ops_warn();
        tsr_operand in = tsr_operand_tensor(x);
        explain3(fname, 1, &in, RULE_BOOL, r, out, inplace);
        return finish(r, inplace ? si : b.v[OUT_SLOT]);
    }
    case K_POSINF: case K_NEGINF: return run_signed_inf(d->kind, fname, &b);
    case K_CLAMP: case K_CLAMP_MIN: case K_CLAMP_MAX: return run_clamp(d, fname, &b, si);
    case K_LERP: return run_lerp(fname, &b, si);
    case K_WHERE: return run_where(fname, &b, 0, 1, 2);
    case K_WHERE_M: return run_where(fname, &b, 1, 0, 2);
    case K_ISCLOSE: case K_ALLCLOSE: case K_EQUAL: return run_close(d, fname, &b);
    case K_MFILL: return run_masked_fill(fname, &b, si);
    case K_POSITIVE: return ops_positive(b.v[0]);
    case K_PROMOTE: {
        tsr_dtype r = tsr_promote_types_checked(dtype_of(b.v[0]), dtype_of(b.v[1]));
        return r == TSR_DTYPE_UNDEFINED ? bind_runtime_error() : v_dtype(r);
    }
    case K_RESULT_TYPE: return run_result_type(&b);
    case K_CAN_CAST: return v_bool(tsr_can_cast(dtype_of(b.v[0]), dtype_of(b.v[1])));
    }
    return exc_set("RuntimeError", "internal error: op kind %d", (int)d->kind);
}

/* ------------------------------------------------------------ the table */

#define TT "Tensor input, Tensor other, *, Tensor? out=None"
#define TN "Tensor input, Number other, *, Tensor? out=None"
#define NT "Number self, Tensor other"
#define UN "Tensor input, *, Tensor? out=None"
#define CMP TT "|" TN
#define ALPHA "Tensor input, Tensor other, *, Number alpha=1, Tensor? out=None"
#define POW "Tensor input, Tensor exponent, *, Tensor? out=None|Number self, Tensor exponent, *, Tensor? out=None|" \
            "Tensor input, Number exponent, *, Tensor? out=None"
#define BITW TT "|" NT "|" TN
#define FMI (F_FN | F_M | F_I)
#define FM (F_FN | F_M)
#define B(n, c, fl, s) {n, K_BIN, TSR_BINOP_##c, fl, 0, 0, s}
#define U(n, c) {n, K_UN, TSR_UNOP_##c, FMI, 0, 0, UN}
#define C(n, c) {n, K_CMP, TSR_CMP_##c, FMI, 0, 0, CMP}

static OpDef defs[120] = {
    {"add", K_BIN, TSR_BINOP_ADD, FMI | F_NUMS, 2, 1, ALPHA},
    {"sub", K_BIN, TSR_BINOP_SUB, FMI | F_NUMS, 2, 1, ALPHA},
    {"subtract", K_BIN, TSR_BINOP_SUB, FMI | F_NUMS, 0, 0, ALPHA "|Tensor input, Number other, Number alpha=1"},
    B("mul", MUL, FMI | F_NUMS, TT),
    B("multiply", MUL, FMI | F_NUMS, TT "|Tensor input, Number other"),
    {"div", K_DIV, TSR_BINOP_DIV, FMI | F_NUMS, 2, 2, TT "|Tensor input, Tensor other, *, str? rounding_mode, Tensor? out=None"},
    {"divide", K_DIV, TSR_BINOP_DIV, FMI | F_NUMS, 0, 0,
     TT "|Tensor input, Tensor other, *, str? rounding_mode, Tensor? out=None|Tensor input, Number other, *, str? rounding_mode|"
        "Tensor input, Number other"},
    B("true_divide", DIV, FMI | F_NUMS, TT "|Tensor input, Number other"),
    B("floor_divide", DIV_FLOOR, FMI | F_NUMS, TT "|Tensor input, Number other"),
    B("remainder", REMAINDER, FMI, TT "|" NT "|" TN),
    B("fmod", FMOD, FMI, TT "|" TN),
    B("pow", POW, FMI, POW),
    B("float_power", FLOAT_POWER, FMI, POW),
    B("atan2", ATAN2, FMI, TT),
    B("arctan2", ATAN2, FMI, TT),
    B("hypot", HYPOT, FMI, TT),
    B("maximum", MAXIMUM, FM, TT),
    B("minimum", MINIMUM, FM, TT),
    B("fmax", FMAX, FM, TT),
    B("fmin", FMIN, FM, TT),
    B("bitwise_and", BITWISE_AND, FMI, BITW),
    B("bitwise_or", BITWISE_OR, FMI, BITW),
    B("bitwise_xor", BITWISE_XOR, FMI, BITW),
    B("bitwise_left_shift", LSHIFT, FMI, BITW),
    B("bitwise_right_shift", RSHIFT, FMI, BITW),
    U("neg", NEG), U("negative", NEG), U("abs", ABS), U("absolute", ABS), U("sign", SIGN), U("sgn", SGN),
    U("reciprocal", RECIPROCAL), U("square", SQUARE), U("acos", ACOS), U("arccos", ACOS), U("acosh", ACOSH),
    U("arccosh", ACOSH), U("asin", ASIN), U("arcsin", ASIN), U("asinh", ASINH), U("arcsinh", ASINH), U("atan", ATAN),
    U("arctan", ATAN), U("atanh", ATANH), U("arctanh", ATANH), U("ceil", CEIL), U("cos", COS), U("cosh", COSH),
    U("deg2rad", DEG2RAD), U("digamma", DIGAMMA), U("erf", ERF), U("erfc", ERFC), U("erfinv", ERFINV), U("exp", EXP),
    U("expm1", EXPM1), U("floor", FLOOR), U("frac", FRAC), U("log", LOG), U("log10", LOG10), U("log1p", LOG1P),
    U("log2", LOG2), U("rad2deg", RAD2DEG), U("rsqrt", RSQRT), U("sigmoid", SIGMOID), U("sin", SIN), U("sinh", SINH),
    U("sqrt", SQRT), U("tan", TAN), U("tanh", TANH), U("trunc", TRUNC), U("fix", TRUNC), U("exp2", EXP2),
    U("lgamma", LGAMMA), U("bitwise_not", BITWISE_NOT),
    {"round", K_UN, TSR_UNOP_ROUND, FMI, 0, 0, UN "|Tensor input, *, int decimals, Tensor? out=None"},
    {"logit", K_UN, TSR_UNOP_LOGIT, FMI, 0, 0, "Tensor input, float? eps=None, *, Tensor? out=None"},
    {"relu", K_UN, TSR_UNOP_RELU, FMI, 0, 0, "Tensor input"},
    {"nan_to_num", K_UN, TSR_UNOP_NAN_TO_NUM, FMI, 0, 0,
     "Tensor input, float? nan=None, float? posinf=None, float? neginf=None, *, Tensor? out=None"},
    C("eq", EQ), C("ne", NE), C("lt", LT), C("le", LE), C("gt", GT), C("ge", GE), C("greater", GT),
    C("greater_equal", GE), C("less", LT), C("less_equal", LE), C("not_equal", NE),
    {"logical_and", K_CMP, TSR_CMP_LOGICAL_AND, FMI, 0, 0, TT},
    {"logical_or", K_CMP, TSR_CMP_LOGICAL_OR, FMI, 0, 0, TT},
    {"logical_xor", K_CMP, TSR_CMP_LOGICAL_XOR, FMI, 0, 0, TT},
    {"logical_not", K_PRED, TSR_PRED_LOGICAL_NOT, FMI, 0, 0, UN},
    {"isnan", K_PRED, TSR_PRED_ISNAN, FM, 0, 0, "Tensor input"},
    {"isinf", K_PRED, TSR_PRED_ISINF, FM, 0, 0, "Tensor input"},
    {"isfinite", K_PRED, TSR_PRED_ISFINITE, FM, 0, 0, "Tensor input"},
    {"signbit", K_PRED, TSR_PRED_SIGNBIT, FM, 0, 0, UN},
    {"isposinf", K_POSINF, 0, FM, 0, 0, UN},
    {"isneginf", K_NEGINF, 0, FM, 0, 0, UN},
    {"clamp", K_CLAMP, 0, FMI, 0, 0,
     "Tensor input, Tensor? min=None, Tensor? max=None, *, Tensor? out=None|"
     "Tensor input, Number? min=None, Number? max=None, *, Tensor? out=None"},
    {"clip", K_CLAMP, 0, FMI, 0, 0,
     "Tensor input, Tensor? min=None, Tensor? max=None, *, Tensor? out=None|"
     "Tensor input, Number? min=None, Number? max=None, *, Tensor? out=None"},
    {"clamp_min", K_CLAMP_MIN, 0, FMI, 0, 0,
     "Tensor input, Tensor min, *, Tensor? out=None|Tensor input, Number min, *, Tensor? out=None"},
    {"clamp_max", K_CLAMP_MAX, 0, FMI, 0, 0,
     "Tensor input, Tensor max, *, Tensor? out=None|Tensor input, Number max, *, Tensor? out=None"},
    {"lerp", K_LERP, 0, FMI, 0, 0,
     "Tensor input, Tensor end, Tensor weight, *, Tensor? out=None|Tensor input, Tensor end, Number weight, *, Tensor? out=None"},
    {"where", K_WHERE, 0, F_FN, 0, 0,
     "Tensor condition|Tensor condition, Tensor input, Tensor other, *, Tensor? out=None|"
     "Tensor condition, Number self, Tensor other|Tensor condition, Tensor input, Number other|"
     "Tensor condition, Number self, Number other"},
    {"where", K_WHERE_M, 0, F_M, 0, 0, "Tensor self, Tensor condition, Tensor other"},
    {"isclose", K_ISCLOSE, 0, FM, 0, 0,
     "Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False"},
    {"allclose", K_ALLCLOSE, 0, FM, 0, 0,
     "Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False"},
    {"equal", K_EQUAL, 0, FM, 0, 0, "Tensor input, Tensor other"},
    {"masked_fill", K_MFILL, 0, FMI, 0, 0, "Tensor input, Tensor mask, Tensor value|Tensor input, Tensor mask, Number value"},
    {"positive", K_POSITIVE, 0, FM, 0, 0, "Tensor input"},
    {"promote_types", K_PROMOTE, 0, F_FN, 0, 0, "dtype type1, dtype type2"},
    {"result_type", K_RESULT_TYPE, 0, F_FN, 0, 0,
     "Tensor tensor, Tensor other|Number scalar, Tensor tensor|Tensor tensor, Number other|Number scalar1, Number scalar2"},
    {"can_cast", K_CAN_CAST, 0, F_FN, 0, 0, "dtype from, dtype to"},
};
#define NDEFS ((int)(sizeof defs / sizeof defs[0]))  /* rows past the last are empty */

static Value *fn_call(Value *self, CallArgs *a, void *data)
{
    (void)self;
    return op_call((const OpDef *)data, NULL, a, false);
}

/* Tensor methods receive no data pointer: one stub per table row. */
#define STUB(i)                                                                                      \
    static Value *ms_##i(Value *s, CallArgs *a, void *d) { (void)d; return op_call(&defs[i], s, a, false); } \
    static Value *mi_##i(Value *s, CallArgs *a, void *d) { (void)d; return op_call(&defs[i], s, a, true); }
#define STUB10(t) STUB(t##0) STUB(t##1) STUB(t##2) STUB(t##3) STUB(t##4) STUB(t##5) STUB(t##6) STUB(t##7) STUB(t##8) STUB(t##9)
STUB10() STUB10(1) STUB10(2) STUB10(3) STUB10(4) STUB10(5) STUB10(6) STUB10(7) STUB10(8) STUB10(9) STUB10(10) STUB10(11)
#define ENT(i) {ms_##i, mi_##i},
#define ENT10(t) ENT(t##0) ENT(t##1) ENT(t##2) ENT(t##3) ENT(t##4) ENT(t##5) ENT(t##6) ENT(t##7) ENT(t##8) ENT(t##9)
static const struct { BuiltinFn m, i; } stubs[] = {
    ENT10() ENT10(1) ENT10(2) ENT10(3) ENT10(4) ENT10(5) ENT10(6) ENT10(7) ENT10(8) ENT10(9) ENT10(10) ENT10(11)
};

/* ------------------------------------------------------------ threads */

static Value *f_set_num_threads(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (bind_args(a, "set_num_threads", "int, /", x)) return NULL;
    if (x[0]->type != &t_int) return exc_set("RuntimeError", "set_num_threads expects an int, but got %s", type_name(x[0]));
    if (x[0]->u.i > 1 << 20 || tsr_set_num_threads(x[0]->u.i < 1 ? 0 : (int)x[0]->u.i) < 0) return bind_runtime_error();
    return v_none();
}

static Value *f_get_num_threads(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (bind_args(a, "get_num_threads", "", NULL)) return NULL;
    return v_int(tsr_get_num_threads());
}

BIND_INIT_ORDER(ops_fn_init, 12)
{
    _Static_assert(sizeof stubs / sizeof stubs[0] >= sizeof defs / sizeof defs[0], "one stub per op row");
    Value *torch = bind_module("torch");
    for (int i = 0; i < NDEFS; i++) {
        OpDef *d = &defs[i];
        if (!d->name) break;
        char buf[512];
        snprintf(buf, sizeof buf, "%s", d->sigs);
        d->nfs = d->nms = 0;
        for (char *s = strtok(buf, "|"); s && d->nfs < MAXSIG; s = strtok(NULL, "|")) {
            if (parse_sig(s, &d->fs[d->nfs]) < 0) {
                fprintf(stderr, "tsr: bad signature for %s: %s\n", d->name, s);
                abort();
            }
            if (method_sig(&d->fs[d->nfs], &d->ms[d->nms])) d->nms++;
            d->nfs++;
        }
        snprintf(d->iname, sizeof d->iname, "%s_", d->name);
        if (d->flags & F_FN) module_add(torch, d->name, v_builtin(d->name, fn_call, NULL, d));
        if (d->flags & F_M) bind_tensor_method(d->name, stubs[i].m);
        if (d->flags & F_I) bind_tensor_method(d->iname, stubs[i].i);
        if (!strcmp(d->name, "abs")) bind_tensor_method("__abs__", stubs[i].m);
    }
    module_add_fn(torch, "set_num_threads", f_set_num_threads);
    module_add_fn(torch, "get_num_threads", f_get_num_threads);
}
