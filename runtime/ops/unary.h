/* runtime/ops/unary.h — unary elementwise ops and clamp (SEMANTICS.md §1.4
 * unary_float_op / unary_op; §1.5). Float functions give integer and bool
 * inputs the default dtype; rounding, abs, neg, sign... keep the input dtype
 * and require out= of that dtype. NEW reference or NULL. */
#ifndef TSR_OPS_UNARY_H
#define TSR_OPS_UNARY_H
#include "../iter.h"
#include "../op.h"
#include "../promote.h"

/* ORDER UNOP */
typedef enum {
    TSR_UNOP_NEG, TSR_UNOP_ABS, TSR_UNOP_SIGN, TSR_UNOP_SGN, TSR_UNOP_RECIPROCAL, TSR_UNOP_SQUARE,
    TSR_UNOP_ACOS, TSR_UNOP_ACOSH, TSR_UNOP_ASIN, TSR_UNOP_ASINH, TSR_UNOP_ATAN, TSR_UNOP_ATANH,
    TSR_UNOP_CEIL, TSR_UNOP_COS, TSR_UNOP_COSH, TSR_UNOP_DEG2RAD, TSR_UNOP_DIGAMMA, TSR_UNOP_ERF,
    TSR_UNOP_ERFC, TSR_UNOP_ERFINV, TSR_UNOP_EXP, TSR_UNOP_EXPM1, TSR_UNOP_FLOOR, TSR_UNOP_FRAC,
    TSR_UNOP_LOG, TSR_UNOP_LOG10, TSR_UNOP_LOG1P, TSR_UNOP_LOG2, TSR_UNOP_RAD2DEG, TSR_UNOP_ROUND,
    TSR_UNOP_RSQRT, TSR_UNOP_SIGMOID, TSR_UNOP_SIN, TSR_UNOP_SINH, TSR_UNOP_SQRT, TSR_UNOP_TAN,
    TSR_UNOP_TANH, TSR_UNOP_TRUNC, TSR_UNOP_EXP2, TSR_UNOP_LGAMMA, TSR_UNOP_LOGIT, TSR_UNOP_RELU,
    TSR_UNOP_BITWISE_NOT, TSR_UNOP_NAN_TO_NUM,
    TSR_UNOP_CONJ_PHYSICAL,   /* complex conjugate; a copy of any other dtype */
    TSR_UNOP_COUNT
} tsr_unop;
const char *tsr_unop_name(tsr_unop op);
/* The op's descriptor (runtime/op.h); NULL for an unknown op. */
const tsr_op *tsr_unop_desc(tsr_unop op);

/* Descriptor i of the unary table: the named ops, then those found by name
 * only (runtime/ops/dispatch.h); NULL past the end. */
const tsr_op *tsr_unary_op_at(int i);

typedef struct {
    int64_t decimals;                 /* round(decimals=) */
    bool has_eps; double eps;         /* logit(eps=) */
    bool has_nan, has_posinf, has_neginf;   /* nan_to_num replacements (default 0, max, lowest) */
    double nan, posinf, neginf;
} tsr_unary_opts;

/* op(x) into out (borrowed, may be NULL); opts may be NULL. abs of a complex
 * tensor into out= takes a real out of a dtype its real dtype casts to, or a
 * complex out of its own dtype; in place it is refused. */
tsr_tensor *tsr_unary(tsr_unop op, const tsr_tensor *x, tsr_tensor *out, const tsr_unary_opts *opts);
/* x.op_(): in place; returns a NEW reference to x or NULL. */
tsr_tensor *tsr_unary_(tsr_unop op, tsr_tensor *x, const tsr_unary_opts *opts);

/* clamp/clip: min and max are tensors, scalars, or NULL (absent); both
 * absent: "torch.clamp: At least one of 'min' or 'max' must not be None". */
tsr_tensor *tsr_clamp(const tsr_tensor *x, const tsr_operand *min, const tsr_operand *max, tsr_tensor *out);
tsr_tensor *tsr_clamp_(tsr_tensor *x, const tsr_operand *min, const tsr_operand *max);
/* clamp_min / clamp_max (is_max) with one bound into out, or in place
 * (out == x). A Tensor bound runs the maximum / minimum kernel (bool
 * computes, complex reaches the kernel's "not implemented"). */
tsr_tensor *tsr_clamp_bound(const tsr_tensor *x, const tsr_operand *bound, bool is_max, tsr_tensor *out, bool inplace);
/* The descriptor of the clamp kernel these bounds run (either may be NULL). */
const tsr_op *tsr_clamp_desc(const tsr_operand *lo, const tsr_operand *hi);

/* torch.isposinf / isneginf (negative): bool; complex refused. */
tsr_tensor *tsr_signed_inf(const tsr_tensor *x, bool negative, tsr_tensor *out);
const tsr_op *tsr_signed_inf_desc(bool negative);
/* conj, conj_physical, resolve_conj, resolve_neg (UnaryOps.cpp). A real
 * tensor is its own conjugate: conj, and conj_physical without out=, return
 * x itself (a NEW reference to it), as 1.13 returns the same tensor; into
 * out= conj_physical copies (out must have x's dtype). conj of a complex
 * tensor is a view with the conjugate bit flipped (tensor.h); resolve_conj
 * and resolve_neg are in copy.h. */
tsr_tensor *tsr_conj(tsr_tensor *x);
tsr_tensor *tsr_conj_physical(tsr_tensor *x, tsr_tensor *out);
tsr_tensor *tsr_conj_physical_(tsr_tensor *x);
/* torch.frexp: x's mantissa (NEW reference, x's dtype) and *exponent (NEW
 * reference, int32), into mant_out / exp_out when given (both or neither).
 * NULL with "torch.frexp() only supports floating-point dtypes" or the out=
 * dtype errors of 1.13. */
tsr_tensor *tsr_frexp(const tsr_tensor *x, tsr_tensor *mant_out, tsr_tensor *exp_out, tsr_tensor **exponent);
const tsr_op *tsr_frexp_desc(void);
/* +x: 0, or -1 with "The `+` operator, on a bool tensor is not supported." */
int tsr_positive_check(const tsr_tensor *x);
/* ~x: bitwise_not of an integral or bool tensor, else TypeError "~
 * (operator.invert) is only implemented on integer and Boolean-type tensors". */
tsr_tensor *tsr_invert(const tsr_tensor *x);

#endif
