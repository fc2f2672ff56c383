/* runtime/ops/binary.h — binary elementwise ops (add sub mul div remainder
 * fmod pow atan2 hypot maximum/minimum fmax/fmin bitwise and shifts, logaddexp,
 * copysign, nextafter, heaviside, gcd/lcm, ldexp, lerp, addcmul/addcdiv,
 * where, masked_fill) over tensors and wrapped Python scalars with PyTorch's
 * promotion (SEMANTICS.md §1.3–1.5). Results are NEW references (out itself
 * when given) or NULL with the error recorded. */
#ifndef TSR_OPS_BINARY_H
#define TSR_OPS_BINARY_H
#include "../iter.h"
#include "../op.h"
#include "../promote.h"

/* ORDER BINOP */
typedef enum {
    TSR_BINOP_ADD, TSR_BINOP_SUB, TSR_BINOP_MUL,
    TSR_BINOP_DIV,            /* true division (/, div, true_divide) */
    TSR_BINOP_DIV_TRUNC,      /* div(rounding_mode='trunc') */
    TSR_BINOP_DIV_FLOOR,      /* div(rounding_mode='floor'), floor_divide, // */
    TSR_BINOP_REMAINDER,      /* %: sign of the divisor */
    TSR_BINOP_FMOD,           /* sign of the dividend */
    TSR_BINOP_POW, TSR_BINOP_FLOAT_POWER, TSR_BINOP_ATAN2, TSR_BINOP_HYPOT,
    TSR_BINOP_MAXIMUM, TSR_BINOP_MINIMUM, TSR_BINOP_FMAX, TSR_BINOP_FMIN,
    TSR_BINOP_BITWISE_AND, TSR_BINOP_BITWISE_OR, TSR_BINOP_BITWISE_XOR,
    TSR_BINOP_LSHIFT, TSR_BINOP_RSHIFT,
    TSR_BINOP_NEXTAFTER, TSR_BINOP_HEAVISIDE,
    TSR_BINOP_GCD, TSR_BINOP_LCM,
    TSR_BINOP_COUNT
} tsr_binop;

/* torch function name: "add", "div", "floor_divide", "bitwise_left_shift"... */
const char *tsr_binop_name(tsr_binop op);
/* The op's descriptor (runtime/op.h); NULL for an unknown op. */
const tsr_op *tsr_binop_desc(tsr_binop op);
/* Descriptor i of the binary table: the named ops, then those found by
 * name only (runtime/ops/dispatch.h); NULL past the end. */
const tsr_op *tsr_binary_op_at(int i);
/* clamp_min / clamp_max with a Tensor bound: the maximum / minimum kernels. */
extern const tsr_op tsr_op_clamp_min_tensor, tsr_op_clamp_max_tensor;
/* div's rounding_mode: NULL (true division), "trunc" or "floor" into *op;
 * 0, or -1 with "div expected rounding_mode to be one of None, 'trunc', or
 * 'floor' but found 'x'". */
int tsr_div_rounding_mode(const char *mode, tsr_binop *op);

typedef struct {
    bool has_alpha;           /* add/sub alpha= (default 1) */
    tsr_scalar alpha;
} tsr_binary_opts;

/* a <op> b, either operand a tensor or a wrapped scalar (both scalars is the
 * caller's TypeError). out: an out= tensor (borrowed) or NULL. opts may be
 * NULL. Returns a NEW reference (out itself when given) or NULL. */
tsr_tensor *tsr_binary(tsr_binop op, const tsr_operand *a, const tsr_operand *b, tsr_tensor *out,
                       const tsr_binary_opts *opts);
/* self.<op>_(b): in place; returns a NEW reference to self or NULL. */
tsr_tensor *tsr_binary_(tsr_binop op, tsr_tensor *self, const tsr_operand *b, const tsr_binary_opts *opts);
/* s ** x for a Python number s (Tensor.__rpow__): s must fit the dtype
 * result_type(s, x) ("value cannot be converted to type uint8 without
 * overflow"). NEW reference or NULL. */
tsr_tensor *tsr_rpow(const tsr_operand *s, const tsr_tensor *x);

/* Descriptors of lerp (Tensor and Scalar weight), where and masked_fill. */
extern const tsr_op tsr_op_lerp_tensor, tsr_op_lerp_scalar, tsr_op_where, tsr_op_masked_fill;
/* torch.lerp(start, end, weight): weight a tensor or a scalar. */
tsr_tensor *tsr_lerp(const tsr_tensor *start, const tsr_tensor *end, const tsr_operand *weight, tsr_tensor *out);
tsr_tensor *tsr_lerp_(tsr_tensor *self, const tsr_tensor *end, const tsr_operand *weight);
/* addcmul / addcdiv (descriptors below): self + value * t1 * t2 (or / t2)
 * in the common dtype; value NULL means 1. addcdiv of two integral (or bool)
 * tensor1/tensor2 is refused with 1.13's message. tsr_addc_ writes into
 * self (div picks addcdiv_). NEW reference (out / self when given) or NULL. */
extern const tsr_op tsr_op_addcmul, tsr_op_addcdiv;
tsr_tensor *tsr_addcmul(const tsr_tensor *self, const tsr_tensor *t1, const tsr_tensor *t2, const tsr_scalar *value,
                        tsr_tensor *out);
tsr_tensor *tsr_addcdiv(const tsr_tensor *self, const tsr_tensor *t1, const tsr_tensor *t2, const tsr_scalar *value,
                        tsr_tensor *out);
tsr_tensor *tsr_addc_(bool div, tsr_tensor *self, const tsr_tensor *t1, const tsr_tensor *t2, const tsr_scalar *value);
/* torch.ldexp(x, e) = x * 2.0 ** e (mul's dtype rules and out= checks);
 * inplace: into x (out must be x). NEW reference or NULL. */
tsr_tensor *tsr_ldexp(const tsr_tensor *x, const tsr_tensor *e, tsr_tensor *out, bool inplace);
/* torch.where(cond, a, b): cond must be bool. */
tsr_tensor *tsr_where(const tsr_tensor *cond, const tsr_operand *a, const tsr_operand *b, tsr_tensor *out);
/* x.masked_fill(mask, value) / masked_fill_: value a scalar or a zero-dim
 * tensor, which must fit x's dtype ("value cannot be converted to type
 * int8_t without overflow"). */
tsr_tensor *tsr_masked_fill(const tsr_tensor *x, const tsr_tensor *mask, const tsr_operand *value);
int tsr_masked_fill_(tsr_tensor *x, const tsr_tensor *mask, const tsr_operand *value);

#endif
