/* src/bind/pointwise.c — the pointwise area of the binding table: the
 * elementwise ops (and comparisons, predicates, promotion queries) as rows
 * with PyTorch 1.13's signatures, their function, method and in-place forms,
 * and one handler that runs the runtime op a row names (bind/table.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/explain.h"
#include "bind/areas.h"
#include "bind/ops.h"
#include "bind/table.h"
#include "ops/reduce.h"

typedef enum {
    K_BIN, K_DIV, K_UN, K_CMP, K_PRED, K_POSINF, K_NEGINF, K_CLAMP, K_CLAMP_MIN, K_CLAMP_MAX, K_LERP, K_WHERE,
    K_WHERE_M, K_ISCLOSE, K_ALLCLOSE, K_EQUAL, K_MFILL, K_POSITIVE, K_PROMOTE, K_RESULT_TYPE, K_CAN_CAST,
    K_RSUB, K_LDEXP, K_ADDCMUL, K_ADDCDIV, K_RESOLVE, K_CONJ, K_CONJ_PHYSICAL, K_FREXP,
    K_OP,   /* the runtime descriptor the row names (.op): its operands, out= and in-place */
} Kind;

typedef BindRow OpDef;
typedef BindArgs Bound;
#define OUT_SLOT BIND_OUT
#define T_NUMBER BT_NUMBER
#define T_TENSOR BT_TENSOR

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

/* ------------------------------------------------------------ running */

#define finish ops_finish

static void explain_step(const tsr_op *desc, const char *name, int n, const tsr_operand *in, const tsr_tensor *r,
                         const tsr_tensor *out, bool inplace)
{
    if (explain_active()) ops_explain(desc, name, NULL, n, in, r, out, inplace);
}

static Value *run_binary(const OpDef *d, const char *fname, Bound *b, Value *self_inplace)
{
    tsr_operand x, y;
    tsr_binary_opts opts = {0};
    tsr_binop op = (tsr_binop)d->code;
    if (arg_operand(b, 0, &x, fname) < 0 || arg_operand(b, 1, &y, fname) < 0) return NULL;
    if (d->kind == K_DIV && b->v[2] && tsr_div_rounding_mode(b->v[2]->u.s.p, &op) < 0) return bind_runtime_error();
    if ((op == TSR_BINOP_ADD || op == TSR_BINOP_SUB) && b->v[2]) {
        opts.has_alpha = true;
        if (arg_scalar(b->v[2], fname, "alpha", &opts.alpha) < 0) return NULL;
    }
    return ops_binary(op, fname, NULL, &x, &y, b->v[OUT_SLOT], &opts, self_inplace);
}

static Value *run_op(const OpDef *d, const char *fname, Bound *b, Value *self_inplace)
{
    tsr_operand in[TSR_OP_MAX_OPERANDS];
    for (int k = 0; k < d->desc->arity; k++)
        if (arg_operand(b, k, &in[k], fname) < 0) return NULL;
    return ops_run(d->desc, fname, NULL, in, b->v[OUT_SLOT], self_inplace);
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

static Value *run_signed_inf(Kind k, const char *fname, Bound *b)
{
    tsr_tensor *x = tensor_of(b->v[0]), *out = b->v[OUT_SLOT] ? tensor_of(b->v[OUT_SLOT]) : NULL;
    tsr_tensor *r = tsr_signed_inf(x, k == K_NEGINF, out);
    if (r && out) ops_warn();
    tsr_operand xo = tsr_operand_tensor(x);
    if (r || !tsr_dtype_is_complex(x->dtype)) explain_step(tsr_signed_inf_desc(k == K_NEGINF), fname, 1, &xo, r, out, false);
    return finish(r, b->v[OUT_SLOT]);
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
    tsr_tensor *x = tensor_of(b->v[0]), *out = self_inplace ? x : b->v[OUT_SLOT] ? tensor_of(b->v[OUT_SLOT]) : NULL, *r;
    if (d->kind == K_CLAMP) r = self_inplace ? tsr_clamp_(x, plo, phi) : tsr_clamp(x, plo, phi, out);
    else r = tsr_clamp_bound(x, plo ? plo : phi, d->kind == K_CLAMP_MAX, out, self_inplace != NULL);
    if (out && !self_inplace) ops_warn();
    if (explain_active() && (plo || phi)) {
        tsr_operand in[3];
        int n = 0;
        in[n++] = tsr_operand_tensor(x);
        if (plo) in[n++] = lo;
        if (phi) in[n++] = hi;
        ops_explain(tsr_clamp_desc(plo, phi), fname, NULL, n, in, r, out, self_inplace != NULL);
    }
    return finish(r, self_inplace ? self_inplace : b->v[OUT_SLOT]);
}

static Value *run_lerp(const char *fname, Bound *b, Value *self_inplace)
{
    tsr_tensor *s = tensor_of(b->v[0]), *e = tensor_of(b->v[1]), *out = b->v[OUT_SLOT] ? tensor_of(b->v[OUT_SLOT]) : NULL;
    tsr_operand w;
    if (arg_operand(b, 2, &w, fname) < 0) return NULL;
    tsr_tensor *r = self_inplace ? tsr_lerp_(s, e, &w) : tsr_lerp(s, e, &w, out);
    if (out) ops_warn();
    if (explain_active()) {
        tsr_operand in[3] = {tsr_operand_tensor(s), tsr_operand_tensor(e), w};
        ops_explain(w.t ? &tsr_op_lerp_tensor : &tsr_op_lerp_scalar, fname, NULL, 3, in, r, self_inplace ? s : out,
                    self_inplace != NULL);
    }
    return finish(r, self_inplace ? self_inplace : b->v[OUT_SLOT]);
}

/* torch.where(condition): nonzero(condition, as_tuple=True). */
static Value *nonzero_tuple(tsr_tensor *c)
{
    tsr_tensor *cols[TSR_MAX_DIMS];
    int nd;
    if (tsr_nonzero_tuple(c, &nd, cols) < 0) return bind_runtime_error();
    Value *tup = v_tuple((size_t)nd);
    for (int d = 0; d < nd; d++) {
        Value *v = tup ? v_tensor(cols[d]) : NULL;   /* v_tensor steals cols[d] */
        if (!tup) tsr_tensor_release(cols[d]);
        else if (!v) {
            for (int k = d + 1; k < nd; k++) tsr_tensor_release(cols[k]);
            for (int k = d; k < nd; k++) tup->u.seq.items[k] = v_none();
            decref(tup);
            return NULL;
        } else tup->u.seq.items[d] = v;
    }
    return tup;
}

static Value *run_where(const char *fname, Bound *b, int cslot, int aslot, int bslot)
{
    tsr_tensor *c = tensor_of(b->v[cslot]), *out = b->v[OUT_SLOT] ? tensor_of(b->v[OUT_SLOT]) : NULL;
    if (!b->v[aslot]) {   /* where(condition) is nonzero(as_tuple=True): no device kernel yet */
        if (bind_on_external(b->v[cslot])) return bind_device_no_kernel("nonzero", c->device), NULL;
        return nonzero_tuple(c);
    }
    tsr_operand x, y;
    if (arg_operand(b, aslot, &x, fname) < 0 || arg_operand(b, bslot, &y, fname) < 0) return NULL;
    tsr_tensor *r = tsr_where(c, &x, &y, out);
    if (out) ops_warn();
    if (explain_active()) {
        tsr_operand in[3] = {tsr_operand_tensor(c), x, y};
        ops_explain(&tsr_op_where, fname, NULL, 3, in, r, out, false);
    }
    return finish(r, b->v[OUT_SLOT]);
}

static Value *run_masked_fill(const char *fname, Bound *b, Value *self_inplace)
{
    tsr_tensor *x = tensor_of(b->v[0]), *m = tensor_of(b->v[1]);
    tsr_operand v;
    if (arg_operand(b, 2, &v, fname) < 0) return NULL;
    tsr_tensor *r;
    if (self_inplace) r = tsr_masked_fill_(x, m, &v) < 0 ? NULL : tsr_tensor_retain(x);
    else r = tsr_masked_fill(x, m, &v);
    if (explain_active()) {
        tsr_operand in[3] = {tsr_operand_tensor(x), tsr_operand_tensor(m), v};
        ops_explain(&tsr_op_masked_fill, fname, NULL, 3, in, r, self_inplace ? x : NULL, self_inplace != NULL);
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

/* torch.rsub(input, other, alpha=1): other - alpha * input (sub's rules). */
static Value *run_rsub(const char *fname, Bound *b)
{
    tsr_operand x, y;
    tsr_binary_opts opts = {0};
    if (arg_operand(b, 0, &x, fname) < 0 || arg_operand(b, 1, &y, fname) < 0) return NULL;
    if (b->v[2]) {
        opts.has_alpha = true;
        if (arg_scalar(b->v[2], fname, "alpha", &opts.alpha) < 0) return NULL;
    }
    return ops_binary(TSR_BINOP_SUB, fname, NULL, &y, &x, NULL, &opts, NULL);
}

static Value *run_ldexp(const char *fname, Bound *b, Value *self_inplace)
{
    tsr_tensor *x = tensor_of(b->v[0]), *e = tensor_of(b->v[1]);
    tsr_tensor *out = self_inplace ? x : b->v[OUT_SLOT] ? tensor_of(b->v[OUT_SLOT]) : NULL;
    tsr_tensor *r = tsr_ldexp(x, e, out, self_inplace != NULL);
    if (out && !self_inplace) ops_warn();
    (void)fname;
    return finish(r, self_inplace ? self_inplace : b->v[OUT_SLOT]);
}

static Value *run_addc(const OpDef *d, const char *fname, Bound *b, Value *self_inplace)
{
    tsr_tensor *x = tensor_of(b->v[0]), *t1 = tensor_of(b->v[1]), *t2 = tensor_of(b->v[2]);
    tsr_tensor *out = b->v[OUT_SLOT] ? tensor_of(b->v[OUT_SLOT]) : NULL, *r;
    tsr_scalar v, *pv = NULL;
    bool div = d->kind == K_ADDCDIV;
    if (b->v[3]) {
        if (arg_scalar(b->v[3], fname, "value", &v) < 0) return NULL;
        pv = &v;
    }
    if (self_inplace) r = tsr_addc_(div, x, t1, t2, pv);
    else r = div ? tsr_addcdiv(x, t1, t2, pv, out) : tsr_addcmul(x, t1, t2, pv, out);
    if (out) ops_warn();
    if (explain_active()) {
        tsr_operand in[3] = {tsr_operand_tensor(x), tsr_operand_tensor(t1), tsr_operand_tensor(t2)};
        ops_explain(div ? &tsr_op_addcdiv : &tsr_op_addcmul, fname, NULL, 3, in, r, self_inplace ? x : out,
                    self_inplace != NULL);
    }
    return finish(r, self_inplace ? self_inplace : b->v[OUT_SLOT]);
}

/* conj, conj_physical, resolve_conj/neg: the runtime returns x itself where
 * 1.13 returns the same tensor, and then the result is the same value. */
static Value *run_conj(const OpDef *d, const char *fname, Bound *b, Value *self_inplace)
{
    Value *x = b->v[0], *outv = self_inplace ? NULL : b->v[OUT_SLOT];
    tsr_tensor *t = tensor_of(x), *out = outv ? tensor_of(outv) : NULL, *r;
    if (d->kind == K_RESOLVE) r = strstr(fname, "neg") ? tsr_resolve_neg(t) : tsr_resolve_conj(t);
    else if (d->kind == K_CONJ) r = tsr_conj(t);
    else r = self_inplace ? tsr_conj_physical_(t) : tsr_conj_physical(t, out);
    if (out) ops_warn();
    if (explain_active() && d->kind == K_CONJ_PHYSICAL && (out || self_inplace || tsr_dtype_is_complex(t->dtype))) {
        tsr_operand in = tsr_operand_tensor(t);
        ops_explain(tsr_unop_desc(TSR_UNOP_CONJ_PHYSICAL), fname, NULL, 1, &in, r, self_inplace ? t : out,
                    self_inplace != NULL);
    }
    return finish(r, outv ? outv : x);
}

static Value *run_frexp(const char *fname, Bound *b)
{
    Value *outv = b->v[OUT_SLOT];
    tsr_tensor *mo = NULL, *eo = NULL, *e = NULL;
    if (outv) {
        if (seq_len(outv) != 2)   /* TensorList[2] */
            return exc_set("TypeError", "expected tuple of 2 elements but got %zu", seq_len(outv));
        mo = tensor_of(seq_get(outv, 0));
        eo = tensor_of(seq_get(outv, 1));
    }
    tsr_tensor *m = tsr_frexp(tensor_of(b->v[0]), mo, eo, &e);
    if (outv) ops_warn();
    if (explain_active()) {
        tsr_operand in = tsr_operand_tensor(tensor_of(b->v[0]));
        ops_explain(tsr_frexp_desc(), fname, NULL, 1, &in, m, mo, false);
    }
    if (!m) return bind_runtime_error();
    Value *items[2];
    if (outv) {
        tsr_tensor_release(m);
        tsr_tensor_release(e);
        items[0] = incref(seq_get(outv, 0));
        items[1] = incref(seq_get(outv, 1));
    } else {
        items[0] = v_tensor(m);
        items[1] = v_tensor(e);
        if (!items[0] || !items[1]) {
            decref(items[0]);
            decref(items[1]);
            return NULL;
        }
    }
    return v_return_type(outv ? &rt_frexp_out : &rt_frexp, items);
}

/* The handler of every row of this area: runs the op its kind names. */
static Value *op_call(const OpDef *d, const char *fname, Bound *bp, Value *self, bool inplace)
{
    Bound b = *bp;
    Value *si = inplace ? self : NULL;
    switch (d->kind) {
    case K_BIN: case K_DIV: return run_binary(d, fname, &b, si);
    case K_UN: return run_unary(d, fname, &b, self, inplace);
    case K_OP: return run_op(d, fname, &b, si);
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
        explain_step(tsr_predop_desc((tsr_predop)d->code), fname, 1, &in, r, out, inplace);
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
    case K_RSUB: return run_rsub(fname, &b);
    case K_LDEXP: return run_ldexp(fname, &b, si);
    case K_ADDCMUL: case K_ADDCDIV: return run_addc(d, fname, &b, si);
    case K_RESOLVE: case K_CONJ: case K_CONJ_PHYSICAL: return run_conj(d, fname, &b, si);
    case K_FREXP: return run_frexp(fname, &b);
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
/* 1.13's deprecated add(Tensor input, Scalar alpha, Tensor other) */
#define ALPHA_DEPRECATED "!Tensor input, Number alpha, Tensor other, *, Tensor? out=None"
#define POW "Tensor input, Tensor exponent, *, Tensor? out=None|Number self, Tensor exponent, *, Tensor? out=None|" \
            "Tensor input, Number exponent, *, Tensor? out=None"
#define BITW TT "|" NT "|" TN
/* addcmul / addcdiv, with 1.13's deprecated (input, value, tensor1, tensor2) */
#define ADDC "Tensor input, Tensor tensor1, Tensor tensor2, *, Number value=1, Tensor? out=None|" \
             "!Tensor input, Number value, Tensor tensor1, Tensor tensor2, *, Tensor? out=None"
#define F_FN BIND_FN
#define F_FNI (BIND_FN | BIND_FN_INPLACE)
#define F_FNU BIND_FN_UNDERSCORE
#define F_M BIND_METHOD
#define F_NUMS BIND_NUMS
#define FMI (BIND_FN | BIND_METHOD | BIND_INPLACE)
#define FM (BIND_FN | BIND_METHOD)
#define ROW(n, k, c, fl, hf, hm, s) {.name = n, .kind = k, .code = c, .flags = fl, .hidden_f = hf, .hidden_m = hm, \
                                    .sigs = s, .handler = op_call}
#define B(n, c, fl, s) ROW(n, K_BIN, TSR_BINOP_##c, fl, 0, 0, s)
/* A row that names its runtime op by ATen name: nothing else to declare. */
#define P(n, at, fl, s) {.name = n, .kind = K_OP, .flags = fl, .sigs = s, .handler = op_call, .op = at}
#define U(n, at) P(n, at, FMI | F_FNU, UN)
#define U1(n, at) P(n, at, FMI, UN)   /* no torch.NAME_ in 1.13 */
#define C(n, c) ROW(n, K_CMP, TSR_CMP_##c, FMI, 0, 0, CMP)

static OpDef defs[] = {
    ROW("add", K_BIN, TSR_BINOP_ADD, FMI | F_NUMS, 1, 0, ALPHA "|" ALPHA_DEPRECATED),
    ROW("sub", K_BIN, TSR_BINOP_SUB, FMI | F_NUMS, 1, 0, ALPHA "|" ALPHA_DEPRECATED),
    ROW("subtract", K_BIN, TSR_BINOP_SUB, FMI | F_NUMS, 0, 0, ALPHA "|Tensor input, Number other, Number alpha=1"),
    B("mul", MUL, FMI | F_NUMS, TT),
    B("multiply", MUL, FMI | F_NUMS, TT "|Tensor input, Number other"),
    ROW("div", K_DIV, TSR_BINOP_DIV, FMI | F_NUMS, 1, 1, TT "|Tensor input, Tensor other, *, str? rounding_mode, Tensor? out=None|"
                                                      "Tensor input, Number other, *, str? rounding_mode"),
    ROW("divide", K_DIV, TSR_BINOP_DIV, FMI | F_NUMS, 0, 0,
     TT "|Tensor input, Tensor other, *, str? rounding_mode, Tensor? out=None|Tensor input, Number other, *, str? rounding_mode|"
        "Tensor input, Number other"),
    B("true_divide", DIV, FMI | F_NUMS, TT "|Tensor input, Number other"),
    B("floor_divide", DIV_FLOOR, FMI | F_NUMS, TT "|Tensor input, Number other"),
    B("remainder", REMAINDER, FMI, TT "|" NT "|" TN),
    B("fmod", FMOD, FMI, TT "|" TN),
    B("pow", POW, FMI, POW),
    B("float_power", FLOAT_POWER, FMI, POW),
    P("atan2", "atan2", FMI, TT),
    P("arctan2", "atan2", FMI, TT),
    P("hypot", "hypot", FMI, TT),
    P("maximum", "maximum", FM, TT),
    P("minimum", "minimum", FM, TT),
    P("fmax", "fmax", FM, TT),
    P("fmin", "fmin", FM, TT),
    B("bitwise_and", BITWISE_AND, FMI, BITW),
    B("bitwise_or", BITWISE_OR, FMI, BITW),
    B("bitwise_xor", BITWISE_XOR, FMI, BITW),
    B("bitwise_left_shift", LSHIFT, FMI, BITW),
    B("bitwise_right_shift", RSHIFT, FMI, BITW),
    U("neg", "neg"), U("negative", "neg"), U("abs", "abs"), U1("absolute", "abs"), U1("sign", "sign"), U1("sgn", "sgn"),
    U("reciprocal", "reciprocal"), U("square", "square"), U("acos", "acos"), U("arccos", "acos"), U("acosh", "acosh"),
    U("arccosh", "acosh"), U("asin", "asin"), U("arcsin", "asin"), U("asinh", "asinh"), U("arcsinh", "asinh"), U("atan", "atan"),
    U("arctan", "atan"), U("atanh", "atanh"), U("arctanh", "atanh"), U("ceil", "ceil"), U("cos", "cos"), U("cosh", "cosh"),
    U("deg2rad", "deg2rad"), U1("digamma", "digamma"), U("erf", "erf"), U("erfc", "erfc"), U1("erfinv", "erfinv"), U("exp", "exp"),
    U("expm1", "expm1"), U("floor", "floor"), U("frac", "frac"), U("log", "log"), U("log10", "log10"), U("log1p", "log1p"),
    U("log2", "log2"), U("rad2deg", "rad2deg"), U("rsqrt", "rsqrt"), U("sigmoid", "sigmoid"), U("sin", "sin"), U("sinh", "sinh"),
    U("sqrt", "sqrt"), U("tan", "tan"), U("tanh", "tanh"), U("trunc", "trunc"), U("fix", "trunc"), U("exp2", "exp2"),
    U1("lgamma", "lgamma"), U1("bitwise_not", "bitwise_not"), P("angle", "angle", FM, UN),
    ROW("round", K_UN, TSR_UNOP_ROUND, FMI | F_FNU, 0, 0, UN "|Tensor input, *, int decimals, Tensor? out=None"),
    ROW("logit", K_UN, TSR_UNOP_LOGIT, FMI | F_FNU, 0, 0, "Tensor input, float? eps=None, *, Tensor? out=None"),
    ROW("relu", K_UN, TSR_UNOP_RELU, FMI | F_FNU, 0, 0, "Tensor input"),
    ROW("nan_to_num", K_UN, TSR_UNOP_NAN_TO_NUM, FMI | F_FNU, 0, 0,
     "Tensor input, float? nan=None, float? posinf=None, float? neginf=None, *, Tensor? out=None"),
    C("eq", EQ), C("ne", NE), C("lt", LT), C("le", LE), C("gt", GT), C("ge", GE), C("greater", GT),
    C("greater_equal", GE), C("less", LT), C("less_equal", LE), C("not_equal", NE),
    ROW("logical_and", K_CMP, TSR_CMP_LOGICAL_AND, FMI, 0, 0, TT),
    ROW("logical_or", K_CMP, TSR_CMP_LOGICAL_OR, FMI, 0, 0, TT),
    ROW("logical_xor", K_CMP, TSR_CMP_LOGICAL_XOR, FMI, 0, 0, TT),
    ROW("logical_not", K_PRED, TSR_PRED_LOGICAL_NOT, FMI, 0, 0, UN),
    ROW("isnan", K_PRED, TSR_PRED_ISNAN, FM, 0, 0, "Tensor input"),
    ROW("isinf", K_PRED, TSR_PRED_ISINF, FM, 0, 0, "Tensor input"),
    ROW("isfinite", K_PRED, TSR_PRED_ISFINITE, FM, 0, 0, "Tensor input"),
    ROW("signbit", K_PRED, TSR_PRED_SIGNBIT, FM, 0, 0, UN),
    ROW("isposinf", K_POSINF, 0, FM, 0, 0, UN),
    ROW("isneginf", K_NEGINF, 0, FM, 0, 0, UN),
    ROW("clamp", K_CLAMP, 0, FMI, 0, 0,
     "Tensor input, Tensor? min=None, Tensor? max=None, *, Tensor? out=None|"
     "Tensor input, Number? min=None, Number? max=None, *, Tensor? out=None"),
    ROW("clip", K_CLAMP, 0, FMI | F_FNU, 0, 0,
     "Tensor input, Tensor? min=None, Tensor? max=None, *, Tensor? out=None|"
     "Tensor input, Number? min=None, Number? max=None, *, Tensor? out=None"),
    ROW("clamp_min", K_CLAMP_MIN, 0, FMI, 0, 0,
     "Tensor input, Tensor min, *, Tensor? out=None|Tensor input, Number min, *, Tensor? out=None"),
    ROW("clamp_max", K_CLAMP_MAX, 0, FMI, 0, 0,
     "Tensor input, Tensor max, *, Tensor? out=None|Tensor input, Number max, *, Tensor? out=None"),
    ROW("lerp", K_LERP, 0, FMI, 0, 0,
     "Tensor input, Tensor end, Tensor weight, *, Tensor? out=None|Tensor input, Tensor end, Number weight, *, Tensor? out=None"),
    ROW("where", K_WHERE, 0, F_FN, 0, 0,
     "Tensor condition|Tensor condition, Tensor input, Tensor other, *, Tensor? out=None|"
     "Tensor condition, Number self, Tensor other|Tensor condition, Tensor input, Number other|"
     "Tensor condition, Number self, Number other"),
    ROW("where", K_WHERE_M, 0, F_M, 0, 0, "Tensor self, Tensor condition, Tensor other"),
    ROW("isclose", K_ISCLOSE, 0, FM, 0, 0,
     "Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False"),
    ROW("allclose", K_ALLCLOSE, 0, FM, 0, 0,
     "Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False"),
    ROW("equal", K_EQUAL, 0, FM, 0, 0, "Tensor input, Tensor other"),
    ROW("masked_fill", K_MFILL, 0, FMI, 0, 0, "Tensor input, Tensor mask, Tensor value|Tensor input, Tensor mask, Number value"),
    ROW("positive", K_POSITIVE, 0, FM, 0, 0, "Tensor input"),
    ROW("promote_types", K_PROMOTE, 0, F_FN, 0, 0, "dtype type1, dtype type2"),
    ROW("result_type", K_RESULT_TYPE, 0, F_FN, 0, 0,
     "Tensor tensor, Tensor other|Number scalar, Tensor tensor|Tensor tensor, Number other|Number scalar1, Number scalar2"),
    ROW("can_cast", K_CAN_CAST, 0, F_FN, 0, 0, "dtype from, dtype to"),
    P("logaddexp", "logaddexp", FM, TT),
    P("logaddexp2", "logaddexp2", FM, TT),
    ROW("rsub", K_RSUB, 0, F_FN, 0, 0,
     "Tensor input, Tensor other, *, Number alpha=1|Tensor input, Number other, Number alpha=1"),
    P("copysign", "copysign.Tensor", FMI, TT "|" TN),
    P("nextafter", "nextafter", FMI, TT),
    B("heaviside", HEAVISIDE, FMI, "Tensor input, Tensor values, *, Tensor? out=None"),
    P("gcd", "gcd", FMI, TT), P("gcd_", "gcd", F_FNI, "Tensor input, Tensor other"),
    P("lcm", "lcm", FMI, TT), P("lcm_", "lcm", F_FNI, "Tensor input, Tensor other"),
    ROW("ldexp", K_LDEXP, 0, FMI, 0, 0, TT),
    ROW("ldexp_", K_LDEXP, 0, F_FNI, 0, 0, "Tensor input, Tensor other"),
    ROW("addcmul", K_ADDCMUL, 0, FMI, 0, 0, ADDC),
    ROW("addcdiv", K_ADDCDIV, 0, FMI, 0, 0, ADDC),
    ROW("conj", K_CONJ, 0, FM, 0, 0, "Tensor input"),
    ROW("resolve_conj", K_RESOLVE, 0, FM, 0, 0, "Tensor input"),
    ROW("resolve_neg", K_RESOLVE, 0, FM, 0, 0, "Tensor input"),
    ROW("conj_physical", K_CONJ_PHYSICAL, 0, FMI, 0, 0, UN),
    ROW("conj_physical_", K_CONJ_PHYSICAL, 0, F_FNI, 0, 0, "Tensor input"),
    ROW("frexp", K_FREXP, 0, FM, 0, 0, "Tensor input, *, Tensor[]? out=None"),
    ROW("clamp_", K_CLAMP, 0, F_FNI, 0, 0,
     "Tensor input, Tensor? min=None, Tensor? max=None|Tensor input, Number? min=None, Number? max=None"),
    ROW("clamp_min_", K_CLAMP_MIN, 0, F_FNI, 0, 0, "Tensor input, Tensor min|Tensor input, Number min"),
    ROW("clamp_max_", K_CLAMP_MAX, 0, F_FNI, 0, 0, "Tensor input, Tensor max|Tensor input, Number max"),
};
/* ------------------------------------------------------------ threads */

static Value *f_set_num_threads(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (args_meth_o(a, "torch.set_num_threads") < 0) return NULL;
    Value *n = a->pos[0];
    if (n->type != &t_int) return exc_set("RuntimeError", "set_num_threads expects an int, but got %s", type_name(n));
    if (n->u.i > 1 << 20 || tsr_set_num_threads(n->u.i < 1 ? 0 : (int)n->u.i) < 0) return bind_runtime_error();
    return v_none();
}

static Value *f_get_num_threads(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (args_meth_noargs(a, "torch.get_num_threads") < 0) return NULL;
    return v_int(tsr_get_num_threads());
}

/* ------------------------------------------------------------ broadcast_shapes */

/* torch/functional.py broadcast_shapes, step by step: ints and tuples or
 * lists of sizes, compared with Python's operators, errors in its words. */
static Value *f_broadcast_shapes(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *shapes[1];   /* def broadcast_shapes(*shapes): CPython's binding (a->pos is the tuple) */
    if (bind_args(a, "broadcast_shapes", "def *shapes", shapes) < 0) return NULL;
    decref(shapes[0]);
    size_t max_len = 0;
    for (int k = 0; k < a->npos; k++) {
        Value *sh = a->pos[k];
        if (is_int_like(sh)) { if (max_len < 1) max_len = 1; }
        else if (sh->type == &t_tuple || sh->type == &t_list || sh->type == &t_size) {
            if (max_len < seq_len(sh)) max_len = seq_len(sh);
        }
    }
    Value *res = v_list(max_len), *one = v_int(1), *zero = v_int(0), *out = NULL;
    if (!res || !one || !zero) goto done;
    for (size_t i = 0; i < max_len; i++) res->u.seq.items[i] = incref(one);
    for (int k = 0; k < a->npos; k++) {
        Value *sh = a->pos[k];
        bool single = is_int_like(sh);
        if (!single && sh->type != &t_tuple && sh->type != &t_list && sh->type != &t_size) {
            Value *r = value_repr(sh);
            if (r) exc_set("RuntimeError", "('Input shapes should be of type ints, a tuple of ints, or a list of ints, "
                           "got ', %s)", r->u.s.p);
            decref(r);
            goto done;
        }
        size_t n = single ? 1 : seq_len(sh);
        for (size_t j = 1; j <= n; j++) {
            Value *x = single ? sh : seq_get(sh, n - j), **slot = &res->u.seq.items[max_len - j];
            Value *lt = value_compare(OP_LT, x, zero);
            int neg = lt ? value_truth(lt) : -1;
            decref(lt);
            if (neg < 0) goto done;
            if (neg) {
                Value *str = value_str(x);
                if (str) exc_set("RuntimeError", "Trying to create tensor with negative dimension (%s): (%s)",
                                 str->u.s.p, str->u.s.p);
                decref(str);
                goto done;
            }
            int e1 = value_eq(x, one), e2 = e1 ? e1 : value_eq(x, *slot);
            if (e1 < 0 || e2 < 0) goto done;
            if (e1 || e2) continue;
            int r1 = value_eq(*slot, one);
            if (r1 < 0) goto done;
            if (!r1) {
                exc_set("RuntimeError", "Shape mismatch: objects cannot be broadcast to a single shape");
                goto done;
            }
            decref(*slot);
            *slot = incref(x);
        }
    }
    int64_t sizes[64];
    if (max_len > 64) {
        exc_set("RuntimeError", "too many dimensions");
        goto done;
    }
    for (size_t i = 0; i < max_len; i++) {
        Value *x = res->u.seq.items[i];
        if (!is_int_like(x)) {
            exc_set("TypeError", "torch.Size() takes an iterable of 'int' (item %zu is '%s')", i, type_name(x));
            goto done;
        }
        sizes[i] = x->u.i;
    }
    out = v_size((int)max_len, sizes);
done:
    decref(res);
    decref(one);
    decref(zero);
    return out;
}

void bind_pointwise_init(void)
{
    Value *torch = bind_module("torch");
    bind_table_register(defs, (int)(sizeof defs / sizeof defs[0]));
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        if (!strcmp(defs[i].name, "abs")) bind_table_alias_method("__abs__", &defs[i]);
    module_add_fn(torch, "set_num_threads", f_set_num_threads);
    module_add_fn(torch, "get_num_threads", f_get_num_threads);
    module_add_fn(torch, "broadcast_shapes", f_broadcast_shapes);
}
