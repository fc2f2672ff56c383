/* src/bind/ops.c — the elementwise engine as the language sees it: Tensor
 * operators (+ - * / // % ** & | ^ << >> ~, unary - +, comparisons, the
 * reflected and augmented forms) and the :explain recording shared with the
 * torch.* functions of pointwise.c. The operator path is lean on purpose: no
 * argument parsing, no allocation beyond the result (SEMANTICS.md §1.3–1.5;
 * torch/_tensor.py gives the reflected forms: 1 / x is x.reciprocal() * 1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/explain.h"
#include "bind/ops.h"
#include "bind/table_grad.h"
#include "autograd.h"
#include "ops/dispatch.h"
#include "ops/sparse.h"

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
    if (w && !bind_warnings_ignored()) fprintf(stderr, "UserWarning: %s\n", w);
}

/* ------------------------------------------------------------ :explain */

void ops_explain(const tsr_op *desc, const char *name, const char *symbol, int n, const tsr_operand *in,
                 const tsr_tensor *result, const tsr_tensor *out, bool inplace)
{
    tsr_op_step st;
    tsr_op_explain(desc, n, in, result, out, inplace, &st);
    ExplainStep e;
    memset(&e, 0, sizeof e);
    e.op = name;
    e.symbol = symbol;
    e.noperands = st.noperands < EXPLAIN_MAX_OPERANDS ? st.noperands : EXPLAIN_MAX_OPERANDS;
    for (int k = 0; k < e.noperands; k++) e.operands[k] = st.operands[k];
    e.promo = st.promo;
    e.dtype_rule = st.rule_text;
    e.ndim = st.ndim;
    memcpy(e.shape, st.shape, sizeof(int64_t) * (size_t)st.ndim);
    e.result = st.result;
    e.device = st.device;
    e.inplace = st.inplace;
    e.has_out = st.has_out;
    e.out_dtype = st.out_dtype;
    e.compute = st.compute;
    e.out_check = st.out_check;
    e.out_castable = st.out_castable;
    e.refused = st.refused[0] ? st.refused : NULL;
    e.out_t = out;
    explain_record(&e);
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

Value *ops_binary(tsr_binop op, const char *name, const char *symbol, const tsr_operand *a, const tsr_operand *b,
                  Value *outv, const tsr_binary_opts *opts, Value *self_inplace)
{
    tsr_tensor *out = outv ? tensor_of(outv) : NULL, *r;
    if (self_inplace) r = tsr_binary_(op, tensor_of(self_inplace), b, opts);
    else r = tsr_binary(op, a, b, out, opts);
    if (out) ops_warn();
    if (explain_active()) {
        tsr_operand in[2] = {*a, *b};
        ops_explain(tsr_binop_desc(op), name, symbol, 2, in, r, self_inplace ? tensor_of(self_inplace) : out,
                    self_inplace != NULL);
    }
    return ops_finish(r, self_inplace ? self_inplace : outv);
}

Value *ops_run(const tsr_op *desc, const char *name, const char *symbol, const tsr_operand *in, Value *outv,
               Value *self_inplace)
{
    tsr_tensor *out = self_inplace ? tensor_of(self_inplace) : outv ? tensor_of(outv) : NULL;
    tsr_tensor *r = tsr_op_run(desc, in, out, self_inplace != NULL);
    if (outv) ops_warn();
    if (explain_active()) ops_explain(desc, name, symbol, desc->arity, in, r, out, self_inplace != NULL);
    return ops_finish(r, self_inplace ? self_inplace : outv);
}

Value *ops_unary(tsr_unop op, const char *name, const char *symbol, Value *x, Value *outv,
                 const tsr_unary_opts *opts, bool inplace)
{
    tsr_tensor *t = tensor_of(x), *out = outv ? tensor_of(outv) : NULL;
    tsr_tensor *r = inplace ? tsr_unary_(op, t, opts) : tsr_unary(op, t, out, opts);
    if (out) ops_warn();
    if (explain_active()) {
        tsr_operand in = tsr_operand_tensor(t);
        ops_explain(tsr_unop_desc(op), name, symbol, 1, &in, r, inplace ? t : out, inplace);
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
        ops_explain(tsr_cmpop_desc(op), name, symbol, 2, in, r, self_inplace ? tensor_of(self_inplace) : out,
                    self_inplace != NULL);
    }
    return ops_finish(r, self_inplace ? self_inplace : outv);
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

/* s ** x (torch/_tensor.py __rpow__), checked and computed by the runtime. */
static Value *rpow(Value *self, const tsr_operand *s)
{
    tsr_tensor *x = tensor_of(self);
    tsr_tensor *r = tsr_rpow(s, x);
    if (explain_active()) {
        tsr_operand in[2] = {*s, tsr_operand_tensor(x)};
        ops_explain(tsr_binop_desc(TSR_BINOP_POW), "pow", "**", 2, in, r, NULL, false);
    }
    return ops_finish(r, NULL);
}

/* x.reciprocal() (the first step of other / x) */
static Value *binop_plain_rec(Value *self)
{
    return ops_unary(TSR_UNOP_RECIPROCAL, "reciprocal", NULL, self, NULL, NULL, false);
}

static bool ops_operand_ok(Value *v)
{
    tsr_operand o;
    return ops_operand(v, &o);
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

/* a @ b (Tensor.__matmul__ / __rmatmul__): tensors only; anything else is
 * NotImplemented, so Python raises "unsupported operand type(s) for @". */
static Value *matmul_op(Value *self, Value *other, int reflected)
{
    if (other->type != &t_tensor) return value_not_implemented();
    tsr_tensor *a = tensor_of(self), *b = tensor_of(other);   /* tsr_matmul knows the math bits */
    return ops_finish(reflected ? tsr_matmul(b, a, NULL) : tsr_matmul(a, b, NULL), NULL);
}

/* A named operand of an op 1.13 refuses: the fallback names the operator's
 * own overload (__lshift__.Scalar, remainder_.Tensor), not the functional's. */
static bool named_refused(tsr_binop bop, const char *name, const tsr_operand *a, const tsr_operand *b,
                          const char *scalar)
{
    const tsr_op *desc = tsr_binop_desc(bop);
    if (!((a->t && a->t->names) || (b->t && b->t->names)) || tsr_op_names_rule(desc) != TSR_NAMES_REFUSE) return false;
    const char *dot = desc->aten ? strchr(desc->aten, '.') : NULL;
    char s[96];
    if (!name)   /* reflected: the functional's Scalar_Tensor overload */
        snprintf(s, sizeof s, "aten::%.*s.Scalar_Tensor", dot ? (int)(dot - desc->aten) : 64, desc->aten);
    else
        snprintf(s, sizeof s, "aten::%s%s", name, !dot ? "" : b->t ? ".Tensor" : scalar);
    tsr_names_refuse(s);
    return true;
}

/* the overload a Python number gets (probed): | and ^ wrap it into a tensor */
static const char *scalar_overload(int op, bool inplace)
{
    return op == OP_OR || op == OP_XOR || (inplace && op == OP_AND) ? ".Tensor" : ".Scalar";
}

static Value *binop_plain(int op, Value *self, Value *other, int reflected)
{
    if (op == OP_MATMUL) return matmul_op(self, other, reflected);
    tsr_operand a = tsr_operand_tensor(tensor_of(self)), b;
    if (op < 0 || op >= OP__NBIN || opmap[op].kind < 0 || !ops_operand(other, &b)) return value_not_implemented();
    tsr_binop bop = (tsr_binop)opmap[op].code;
    const char *sym = op_symbol[op];
    bool commutes = op == OP_ADD || op == OP_MUL || op == OP_AND || op == OP_OR || op == OP_XOR;
    if ((!reflected || commutes) && named_refused(bop, opmap[op].name, &a, &b, scalar_overload(op, false)))
        return bind_runtime_error();
    if (reflected && (op == OP_MOD || op == OP_LSHIFT || op == OP_RSHIFT) && named_refused(bop, NULL, &a, &b, NULL))
        return bind_runtime_error();
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

static Value *inplace_plain(int op, Value *self, Value *other)
{
    tsr_operand a = tsr_operand_tensor(tensor_of(self)), b;
    if (op < 0 || op >= OP__NBIN || opmap[op].kind < 0 || !ops_operand(other, &b)) return value_not_implemented();
    if (named_refused((tsr_binop)opmap[op].code, opmap[op].iname, &a, &b, scalar_overload(op, true)))
        return bind_runtime_error();
    return ops_binary((tsr_binop)opmap[op].code, opmap[op].iname, op_symbol[op], &a, &b, NULL, NULL, self);
}

static Value *unop_plain(int op, Value *self)
{
    tsr_tensor *t = tensor_of(self);
    switch (op) {
    case OP_NEG: return ops_unary(TSR_UNOP_NEG, "neg", "-", self, NULL, NULL, false);
    case OP_POS: return ops_positive(self);
    case OP_INVERT: {
        tsr_tensor *r = tsr_invert(t);
        if (r && explain_active()) {
            tsr_operand in = tsr_operand_tensor(t);
            ops_explain(tsr_unop_desc(TSR_UNOP_BITWISE_NOT), "bitwise_not", "~", 1, &in, r, NULL, false);
        }
        return ops_finish(r, NULL);
    }
    }
    return value_not_implemented();
}

/* The operator slots: the plain computation, then the autograd step
 * (table_grad.h) under the name of the op 1.13 records. */
static const char *grad_key(int op)
{
    switch (op) {
    case OP_ADD: return "add";
    case OP_SUB: return "sub";
    case OP_MUL: return "mul";
    case OP_TRUEDIV: return "div";
    case OP_POW: return "pow";
    case OP_MATMUL: return "matmul";
    default: return op >= 0 && op < OP__NBIN && opmap[op].name ? opmap[op].name : "?";
    }
}

/* The operators on tensors. Every one has a device path (the elementwise
 * engine's kernels for + - * / // % ** & | ^ << >>, and @ on cuBLAS): an op
 * or dtype without a device kernel raises the dispatcher's error where it
 * runs. */
Value *ops_tensor_binop(int op, Value *self, Value *other, int reflected)
{
    if (tsr_is_sparse(tensor_of(self)) || (is_tensor(other) && tsr_is_sparse(tensor_of(other))))
        return bind_sparse_operator(op, self, other, reflected);
    if (reflected && op == OP_TRUEDIV && ops_operand_ok(other)) {   /* x.reciprocal() * other */
        Value *rec = bind_grad_operator("reciprocal", self, NULL, binop_plain_rec(self), false);
        if (!rec) return NULL;
        Value *r = bind_grad_operator("mul", rec, other, binop_plain(OP_MUL, rec, other, 0), false);
        decref(rec);
        return r;
    }
    Value *r = binop_plain(op, self, other, reflected);
    if (!reflected) return bind_grad_operator(grad_key(op), self, other, r, false);
    switch (op) {
    case OP_ADD: case OP_MUL: return bind_grad_operator(grad_key(op), self, other, r, false);
    case OP_SUB: return bind_grad_operator("rsub", self, other, r, false);
    case OP_POW: return bind_grad_operator("pow", other, self, r, false);
    case OP_MATMUL: return bind_grad_operator("matmul", other, self, r, false);
    default: return bind_grad_operator(grad_key(op), other, self, r, false);
    }
}

Value *ops_tensor_inplace(int op, Value *self, Value *other)
{
    if (tsr_is_sparse(tensor_of(self)) || (is_tensor(other) && tsr_is_sparse(tensor_of(other))))
        return bind_sparse_operator(op, self, other, 0);
    if (tsr_ag_check_inplace(tensor_of(self)) < 0) return bind_runtime_error();
    tsr_tensor *ts[2] = {tensor_of(self), is_tensor(other) ? tensor_of(other) : NULL};
    if (tsr_ag_needed(2, ts)) {   /* self before the op, for a formula that needs it */
        tsr_tensor *old = tsr_clone(ts[0], TSR_MF_PRESERVE);
        if (!old) return bind_runtime_error();
        tsr_ag_inplace_old(old);
        tsr_tensor_release(old);
    }
    Value *r = bind_grad_operator(grad_key(op), self, other, inplace_plain(op, self, other), true);
    tsr_ag_inplace_old(NULL);
    return r;
}

Value *ops_tensor_unop(int op, Value *self)
{
    if (tsr_is_sparse(tensor_of(self))) return bind_sparse_operator(op == OP_NEG ? -1 : op, self, NULL, 0);
    Value *r = unop_plain(op, self);
    return op == OP_NEG ? bind_grad_operator("neg", self, NULL, r, false) : r;
}

Value *ops_positive(Value *x)
{
    if (tsr_positive_check(tensor_of(x)) < 0) return bind_runtime_error();
    return incref(x);
}

/* ORDER OP: comparisons map onto tsr_cmpop. */
static const struct { tsr_cmpop code; const char *name; } cmpmap[] = {
    {TSR_CMP_LT, "lt"}, {TSR_CMP_LE, "le"}, {TSR_CMP_EQ, "eq"}, {TSR_CMP_NE, "ne"}, {TSR_CMP_GT, "gt"}, {TSR_CMP_GE, "ge"},
};
_Static_assert(sizeof cmpmap / sizeof *cmpmap == OP__COUNT - OP_LT, "ORDER OP");

Value *ops_tensor_compare(int op, Value *self, Value *other, int reflected)
{
    if (tsr_is_sparse(tensor_of(self)) || (is_tensor(other) && tsr_is_sparse(tensor_of(other))))
        return bind_sparse_operator(op, self, other, reflected);
    (void)reflected; /* already mirrored: the answer is self op other */
    tsr_operand a = tsr_operand_tensor(tensor_of(self)), b;
    if (op < OP_LT || op >= OP__COUNT || !ops_operand(other, &b)) return value_not_implemented();
    int k = op - OP_LT;
    return ops_compare(cmpmap[k].code, cmpmap[k].name, op_symbol[op], &a, &b, NULL, NULL);
}

int ops_out_arg(Value *o, const char *fname, const char *gname, int n, Value **vals, tsr_tensor **out)
{
    *out = NULL;
    if (!o || is_none(o)) return 0;
    if (!is_tensor(o)) return exc_seti("TypeError", "%s(): argument 'out' must be Tensor, not %s", fname, type_name(o));
    tsr_tensor *in[8];
    int k = 0;
    for (int i = 0; i < n && k < 8; i++)
        if (vals[i] && is_tensor(vals[i])) in[k++] = tensor_of(vals[i]);
    if (tsr_ag_needed(k, in))
        return exc_seti("RuntimeError", "%s(): functions with out=... arguments don't support automatic "
                        "differentiation, but one of the arguments requires grad.", gname);
    *out = tensor_of(o);
    return 0;
}
