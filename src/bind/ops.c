/* src/bind/ops.c — the elementwise engine as the language sees it: Tensor
 * operators (+ - * / // % ** & | ^ << >> ~, unary - +, comparisons, the
 * reflected and augmented forms) and the :explain recording shared with the
 * torch.* functions of ops_fn.c. The operator path is lean on purpose: no
 * argument parsing, no allocation beyond the result (SEMANTICS.md §1.3–1.5;
 * torch/_tensor.py gives the reflected forms: 1 / x is x.reciprocal() * 1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/explain.h"
#include "bind/ops.h"

/* ------------------------------------------------------------ operands */

int ops_operand(Value *v, tsr_operand *o)
{
    const VType *t = v->type;
    if (t == &t_tensor) { *o = tsr_operand_tensor(tensor_of(v)); return 1; }
    if (t == &t_int) { *o = tsr_operand_scalar(tsr_scalar_int(v->u.i)); return 1; }
    if (t == &t_float) { *o = tsr_operand_scalar(tsr_scalar_float(v->u.f)); return 1; }
    if (t == &t_bool) { *o = tsr_operand_scalar(tsr_scalar_bool(v->u.i != 0)); return 1; }
    if (t == &t_complex) { *o = tsr_operand_scalar(tsr_scalar_complex(v->u.c.re, v->u.c.im)); return 1; }
    return 0;
}

void ops_warn(void)
{
    const char *w = tsr_warning_take();
    if (w) fprintf(stderr, "UserWarning: %s\n", w);
}

/* ------------------------------------------------------------ :explain */

/* Refusal texts live for the whole session: the trace may keep them. */
static const char *intern(const char *s)
{
    static struct Str { struct Str *next; char s[]; } *pool;
    for (struct Str *p = pool; p; p = p->next)
        if (!strcmp(p->s, s)) return p->s;
    size_t n = strlen(s);
    struct Str *p = malloc(sizeof *p + n + 1);
    if (!p) return "";
    memcpy(p->s, s, n + 1);
    p->next = pool;
    pool = p;
    return p->s;
}

const char *ops_rule_text(OpsRule r, tsr_dtype common)
{
    switch (r) {
    case RULE_COMMON: return NULL;
    case RULE_FLOAT:
        return tsr_dtype_is_integral(common, true) ? "division of integers (and atan2) gives the default float dtype"
                                                   : "the common dtype is already floating: it is kept";
    case RULE_DOUBLE: return "float_power computes in float64 (complex128 for complex operands)";
    case RULE_BOOL: return "comparisons and logical ops compute in the common dtype and return bool";
    case RULE_UNARY_FLOAT:
        return tsr_dtype_is_integral(common, true) ? "a float function of an integer or bool tensor gives the default float dtype"
                                                   : "a float function keeps a floating or complex input dtype";
    case RULE_SAME: return "keeps the input dtype (out= must have exactly that dtype)";
    case RULE_ABS: return tsr_dtype_is_complex(common) ? "abs of a complex tensor gives its real dtype"
                                                       : "keeps the input dtype (out= must have exactly that dtype)";
    case RULE_SELF: return "the result keeps self's dtype; the value is cast to it";
    case RULE_RECIPROCAL_MUL: return "x.__rtruediv__(s) is x.reciprocal() * s";
    case RULE_RPOW: return "s ** x is torch.tensor(s, dtype=result_type(s, x)) ** x";
    }
    return NULL;
}

void ops_explain(const char *op, const char *symbol, int n, const tsr_operand *in, OpsRule rule,
                 const tsr_tensor *result, const tsr_tensor *out, bool inplace)
{
    ExplainStep st;
    memset(&st, 0, sizeof st);
    st.op = op;
    st.symbol = symbol;
    if (n > EXPLAIN_MAX_OPERANDS) n = EXPLAIN_MAX_OPERANDS;
    st.noperands = n;
    for (int k = 0; k < n; k++) st.operands[k] = in[k];
    /* result_type must not disturb a pending error: it records none. */
    tsr_dtype common = tsr_result_type(n, in, &st.promo);
    st.dtype_rule = ops_rule_text(rule, common);
    st.result = result ? result->dtype : TSR_DTYPE_UNDEFINED;
    st.device = result ? result->device : (n && in[0].t ? in[0].t->device : TSR_CPU);
    if (result) {
        st.ndim = result->ndim;
        memcpy(st.shape, result->sizes, sizeof(int64_t) * (size_t)result->ndim);
    } else {
        int nd[EXPLAIN_MAX_OPERANDS], m = 0;
        const int64_t *sz[EXPLAIN_MAX_OPERANDS];
        for (int k = 0; k < n; k++)
            if (in[k].t) { nd[m] = in[k].t->ndim; sz[m++] = in[k].t->sizes; }
        int had = tsr_error_occurred();
        int r = tsr_broadcast_shapes(m, nd, sz, st.shape);
        st.ndim = r < 0 ? 0 : r;
        if (!had && r < 0) tsr_error_clear();
    }
    st.inplace = inplace;
    st.has_out = out && !inplace;
    st.out_dtype = out ? out->dtype : TSR_DTYPE_UNDEFINED;
    if (!result && out && tsr_error_occurred()) {
        const char *m = tsr_error_message();
        if (!strncmp(m, "result type ", 12) || !strncmp(m, "Found dtype ", 12) || strstr(m, "doesn't match the broadcast shape"))
            st.refused = intern(m);
    }
    explain_record(&st);
}

/* ------------------------------------------------------------ running ops */

Value *ops_finish(tsr_tensor *r, Value *same)
{
    if (!r) return bind_runtime_error();
    if (same && r == tensor_of(same)) {
        tsr_tensor_release(r);
        return incref(same);
    }
    return v_tensor(r);
}

/* The dtype checks TensorIterator makes while it is built, before any kernel
 * is looked up: an in-place or out= op whose kernel does not exist for the
 * common dtype still reports the cast first (`i32 |= 1.5`). pow(Tensor,
 * Scalar) is built with check_all_same_dtype: "Found dtype Int but expected
 * Float". 0, or -1 with the error recorded. */
static int out_precheck(tsr_binop op, const tsr_operand *a, const tsr_operand *b, const tsr_tensor *out,
                        const tsr_binary_opts *opts)
{
    if (op == TSR_BINOP_FLOAT_POWER || op == TSR_BINOP_SUB) return 0;   /* their own checks come first */
    if (opts && opts->has_alpha) return 0;
    /* TensorIterator broadcasts the inputs before it looks at dtypes */
    int nd[2], m = 0;
    const int64_t *sz[2];
    if (a->t) { nd[m] = a->t->ndim; sz[m++] = a->t->sizes; }
    if (b->t) { nd[m] = b->t->ndim; sz[m++] = b->t->sizes; }
    int64_t shape[TSR_MAX_DIMS];
    if (m == 2 && tsr_broadcast_shapes(m, nd, sz, shape) < 0) return -1;
    tsr_operand o[2] = {*a, *b};
    tsr_dtype dt = tsr_result_type(2, o, NULL);
    if ((op == TSR_BINOP_DIV || op == TSR_BINOP_ATAN2) && tsr_dtype_is_integral(dt, true)) dt = tsr_default_dtype();
    if (op == TSR_BINOP_POW && !b->t && a->t) {
        if (out->dtype != dt) {
            tsr_error_set(TSR_ERR_RUNTIME, "Found dtype %s but expected %s", tsr_dtype_scalar_name(out->dtype),
                          tsr_dtype_scalar_name(dt));
            return -1;
        }
        return 0;
    }
    if (!tsr_can_cast(dt, out->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                      tsr_dtype_scalar_name(dt), tsr_dtype_scalar_name(out->dtype));
        return -1;
    }
    return 0;
}

/* pow(Tensor, Scalar) converts the exponent to the common dtype with an
 * overflow check for integers, Half and BFloat16 (float and double keep it
 * in double): "value cannot be converted to type int8_t without overflow". */
static int pow_exponent_check(const tsr_operand *a, const tsr_operand *b)
{
    tsr_operand o[2] = {*a, *b};
    tsr_dtype dt = tsr_result_type(2, o, NULL);
    if (tsr_dtype_is_integral(dt, true) && b->s.kind == TSR_SCALAR_INT && b->s.i < 0) return 0;
    if (dt == TSR_BOOL || !(tsr_dtype_is_integral(dt, false) || dt == TSR_FLOAT16 || dt == TSR_BFLOAT16)) return 0;
    return tsr_scalar_check_fits(b->s, dt);
}

Value *ops_binary(tsr_binop op, const char *name, const char *symbol, const tsr_operand *a, const tsr_operand *b,
                  Value *outv, const tsr_binary_opts *opts, Value *self_inplace)
{
    tsr_tensor *out = outv ? tensor_of(outv) : NULL, *r;
    if (op == TSR_BINOP_POW && !b->t && a->t && pow_exponent_check(a, b) < 0) {
        r = NULL;
        goto done;
    }
    if ((self_inplace || out) && out_precheck(op, a, b, self_inplace ? tensor_of(self_inplace) : out, opts) < 0) {
        r = NULL;
        goto done;
    }
    if (self_inplace) r = tsr_binary_(op, tensor_of(self_inplace), b, opts);
    else r = tsr_binary(op, a, b, out, opts);
done:
    if (out) ops_warn();
    if (explain_active()) {
        tsr_operand in[2] = {*a, *b};
        OpsRule rule = op == TSR_BINOP_DIV || op == TSR_BINOP_ATAN2 ? RULE_FLOAT
                     : op == TSR_BINOP_FLOAT_POWER ? RULE_DOUBLE : RULE_COMMON;
        ops_explain(name, symbol, 2, in, rule, r, self_inplace ? tensor_of(self_inplace) : out, self_inplace != NULL);
    }
    return ops_finish(r, self_inplace ? self_inplace : outv);
}

/* abs of a complex tensor into out= (UnaryOps.cpp abs_out): a real out
 * receives the magnitudes if the real dtype can be cast to it; a complex out
 * must have the input's dtype. In place is refused. */
static tsr_tensor *abs_complex_out(const tsr_tensor *t, tsr_tensor *out, bool inplace)
{
    tsr_dtype real = tsr_dtype_to_real(t->dtype);
    if (inplace) {
        tsr_error_set(TSR_ERR_RUNTIME, "In-place abs is not supported for complex tensors.");
        return NULL;
    }
    if (tsr_dtype_is_complex(out->dtype) ? out->dtype != t->dtype : !tsr_can_cast(real, out->dtype)) {
        if (tsr_dtype_is_complex(out->dtype))
            tsr_error_set(TSR_ERR_RUNTIME, "Found dtype %s but expected %s", tsr_dtype_scalar_name(out->dtype),
                          tsr_dtype_scalar_name(t->dtype));
        else
            tsr_error_set(TSR_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                          tsr_dtype_scalar_name(real), tsr_dtype_scalar_name(out->dtype));
        return NULL;
    }
    if (out->dtype == real) return tsr_unary(TSR_UNOP_ABS, t, out, NULL);
    tsr_tensor *r = tsr_unary(TSR_UNOP_ABS, t, NULL, NULL);
    if (!r) return NULL;
    bool same = out->ndim == r->ndim && !memcmp(out->sizes, r->sizes, sizeof(int64_t) * (size_t)r->ndim);
    if ((!same && tsr_tensor_resize_(out, r->ndim, r->sizes) < 0) || tsr_copy_(out, r) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    tsr_tensor_release(r);
    return tsr_tensor_retain(out);
}

Value *ops_unary(tsr_unop op, const char *name, const char *symbol, Value *x, Value *outv,
                 const tsr_unary_opts *opts, bool inplace)
{
    tsr_tensor *t = tensor_of(x), *out = outv ? tensor_of(outv) : NULL, *r;
    if (op == TSR_UNOP_ABS && tsr_dtype_is_complex(t->dtype) && (inplace || out)) {
        r = abs_complex_out(t, out, inplace);
        goto done;
    }
    r = inplace ? tsr_unary_(op, t, opts) : tsr_unary(op, t, out, opts);
done:
    if (out) ops_warn();
    if (explain_active()) {
        tsr_operand in = tsr_operand_tensor(t);
        OpsRule rule = ops_unary_rule(op);
        ops_explain(name, symbol, 1, &in, rule, r, inplace ? t : out, inplace);
    }
    return ops_finish(r, inplace ? x : outv);
}

Value *ops_compare(tsr_cmpop op, const char *name, const char *symbol, const tsr_operand *a, const tsr_operand *b,
                   Value *outv, Value *self_inplace)
{
    tsr_tensor *out = outv ? tensor_of(outv) : NULL, *r;
    if (self_inplace) r = tsr_compare_(op, tensor_of(self_inplace), b);
    else r = tsr_compare(op, a, b, out);
    if (out) ops_warn();
    if (explain_active()) {
        tsr_operand in[2] = {*a, *b};
        ops_explain(name, symbol, 2, in, RULE_BOOL, r, self_inplace ? tensor_of(self_inplace) : out,
                    self_inplace != NULL);
    }
    return ops_finish(r, self_inplace ? self_inplace : outv);
}

/* The dtype rule of a unary op for :explain (unary.c's kinds). */
OpsRule ops_unary_rule(tsr_unop op)
{
    switch (op) {
    case TSR_UNOP_NEG: case TSR_UNOP_SIGN: case TSR_UNOP_SGN: case TSR_UNOP_CEIL: case TSR_UNOP_FLOOR:
    case TSR_UNOP_ROUND: case TSR_UNOP_TRUNC: case TSR_UNOP_FRAC: case TSR_UNOP_RELU: case TSR_UNOP_BITWISE_NOT:
    case TSR_UNOP_NAN_TO_NUM: case TSR_UNOP_DEG2RAD: case TSR_UNOP_RAD2DEG:
        return RULE_SAME;
    case TSR_UNOP_ABS: return RULE_ABS;
    case TSR_UNOP_SQUARE: return RULE_COMMON;
    default: return RULE_UNARY_FLOAT;
    }
}

/* ------------------------------------------------------------ operator slots */

/* PyTorch's op name and in-place name for each operator. ORDER OP */
static const struct { int kind; int code; const char *name, *iname; } opmap[OP__NBIN] = {
    [OP_ADD] = {0, TSR_BINOP_ADD, "add", "add_"},
    [OP_SUB] = {0, TSR_BINOP_SUB, "sub", "sub_"},
    [OP_MUL] = {0, TSR_BINOP_MUL, "mul", "mul_"},
    [OP_TRUEDIV] = {0, TSR_BINOP_DIV, "div", "div_"},
    [OP_FLOORDIV] = {0, TSR_BINOP_DIV_FLOOR, "floor_divide", "floor_divide_"},
    [OP_MOD] = {0, TSR_BINOP_REMAINDER, "remainder", "remainder_"},
    [OP_POW] = {0, TSR_BINOP_POW, "pow", "pow_"},
    [OP_MATMUL] = {-1, 0, "matmul", NULL},
    [OP_LSHIFT] = {0, TSR_BINOP_LSHIFT, "__lshift__", "__ilshift__"},
    [OP_RSHIFT] = {0, TSR_BINOP_RSHIFT, "__rshift__", "__irshift__"},
    [OP_AND] = {0, TSR_BINOP_BITWISE_AND, "bitwise_and", "bitwise_and_"},
    [OP_OR] = {0, TSR_BINOP_BITWISE_OR, "bitwise_or", "bitwise_or_"},
    [OP_XOR] = {0, TSR_BINOP_BITWISE_XOR, "bitwise_xor", "bitwise_xor_"},
};

/* s ** x: torch.tensor(s, dtype=result_type(s, x)) ** x — the scalar must fit
 * that dtype as torch.tensor checks it (tensor_new.cpp wording: "uint8"). */
static Value *rpow(Value *self, const tsr_operand *s)
{
    tsr_operand o[2] = {*s, tsr_operand_tensor(tensor_of(self))};
    tsr_dtype dt = tsr_result_type(2, o, NULL);
    if (tsr_dtype_is_integral(dt, false) && s->s.kind == TSR_SCALAR_INT) {
        tsr_iinfo ii;
        if (tsr_dtype_iinfo(dt, &ii) == 0 && (s->s.i < ii.min || (s->s.i > 0 && (uint64_t)s->s.i > ii.max)))
            return exc_set("RuntimeError", "value cannot be converted to type %s without overflow", tsr_dtype_name(dt));
    }
    return ops_binary(TSR_BINOP_POW, "pow", "**", s, &o[1], NULL, NULL, NULL);
}

/* other / x: x.reciprocal() * other */
static Value *rtruediv(Value *self, const tsr_operand *s)
{
    Value *rec = ops_unary(TSR_UNOP_RECIPROCAL, "reciprocal", NULL, self, NULL, NULL, false);
    if (!rec) return NULL;
    tsr_operand a = tsr_operand_tensor(tensor_of(rec));
    Value *r = ops_binary(TSR_BINOP_MUL, "mul", "*", &a, s, NULL, NULL, NULL);
    decref(rec);
    return r;
}

Value *ops_tensor_binop(int op, Value *self, Value *other, int reflected)
{
    tsr_operand a = tsr_operand_tensor(tensor_of(self)), b;
    if (op < 0 || op >= OP__NBIN || opmap[op].kind < 0 || !ops_operand(other, &b)) return value_not_implemented();
    tsr_binop bop = (tsr_binop)opmap[op].code;
    const char *sym = op_symbol[op];
    if (!reflected) return ops_binary(bop, opmap[op].name, sym, &a, &b, NULL, NULL, NULL);
    switch (op) {
    case OP_ADD: case OP_MUL: case OP_AND: case OP_OR: case OP_XOR:   /* __radd__ is self.add(other) */
        return ops_binary(bop, opmap[op].name, sym, &a, &b, NULL, NULL, NULL);
    case OP_TRUEDIV: return rtruediv(self, &b);
    case OP_POW: return rpow(self, &b);
    case OP_SUB: return ops_binary(bop, "rsub", sym, &b, &a, NULL, NULL, NULL);
    default: return ops_binary(bop, opmap[op].name, sym, &b, &a, NULL, NULL, NULL);
    }
}

Value *ops_tensor_inplace(int op, Value *self, Value *other)
{
    tsr_operand a = tsr_operand_tensor(tensor_of(self)), b;
    if (op < 0 || op >= OP__NBIN || opmap[op].kind < 0 || !ops_operand(other, &b)) return value_not_implemented();
    return ops_binary((tsr_binop)opmap[op].code, opmap[op].iname, op_symbol[op], &a, &b, NULL, NULL, self);
}

Value *ops_tensor_unop(int op, Value *self)
{
    tsr_tensor *t = tensor_of(self);
    switch (op) {
    case OP_NEG: return ops_unary(TSR_UNOP_NEG, "neg", "-", self, NULL, NULL, false);
    case OP_POS: return ops_positive(self);
    case OP_INVERT:
        if (!tsr_dtype_is_integral(t->dtype, true))
            return exc_set("TypeError", "~ (operator.invert) is only implemented on integer and Boolean-type tensors");
        return ops_unary(TSR_UNOP_BITWISE_NOT, "bitwise_not", "~", self, NULL, NULL, false);
    }
    return value_not_implemented();
}

Value *ops_positive(Value *x)
{
    if (tensor_of(x)->dtype == TSR_BOOL)
        return exc_set("RuntimeError", "The `+` operator, on a bool tensor is not supported.");
    return incref(x);
}

/* ORDER OP: comparisons map onto tsr_cmpop. */
static const struct { tsr_cmpop code; const char *name; } cmpmap[] = {
    {TSR_CMP_LT, "lt"}, {TSR_CMP_LE, "le"}, {TSR_CMP_EQ, "eq"}, {TSR_CMP_NE, "ne"}, {TSR_CMP_GT, "gt"}, {TSR_CMP_GE, "ge"},
};
_Static_assert(sizeof cmpmap / sizeof *cmpmap == OP__COUNT - OP_LT, "ORDER OP");

Value *ops_tensor_compare(int op, Value *self, Value *other, int reflected)
{
    (void)reflected; /* already mirrored: the answer is self op other */
    tsr_operand a = tsr_operand_tensor(tensor_of(self)), b;
    if (op < OP_LT || op >= OP__COUNT || !ops_operand(other, &b)) return value_not_implemented();
    int k = op - OP_LT;
    return ops_compare(cmpmap[k].code, cmpmap[k].name, op_symbol[op], &a, &b, NULL, NULL);
}
