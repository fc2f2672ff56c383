/* runtime/ops/special.h — the torch.special kernels that are not aliases of
 * unary.h/binary.h ops: sinc, erfcx, ndtri, log_ndtr, entr, xlogy, xlog1py,
 * zeta, igamma(c), polygamma, mvlgamma, ndtr and the orthogonal polynomials,
 * with 1.13's dtype lists and result-dtype rules. Results are NEW references
 * (out itself when given) or NULL with the error recorded. */
#ifndef TSR_OPS_SPECIAL_H
#define TSR_OPS_SPECIAL_H
#include "../iter.h"
#include "../op.h"
#include "../promote.h"

/* ORDER SPECIAL */
typedef enum {
    /* unary, unary_float_op */
    TSR_SPECIAL_SINC, TSR_SPECIAL_ERFCX, TSR_SPECIAL_NDTRI, TSR_SPECIAL_LOG_NDTR, TSR_SPECIAL_ENTR,
    TSR_SPECIAL_TRIGAMMA, TSR_SPECIAL_POLYGAMMA,   /* polygamma(1, x) and polygamma(n >= 2, x) */
    /* binary: binary_float_op except igamma/igammac (the common dtype) */
    TSR_SPECIAL_XLOGY, TSR_SPECIAL_XLOG1PY, TSR_SPECIAL_ZETA, TSR_SPECIAL_IGAMMA, TSR_SPECIAL_IGAMMAC,
    TSR_SPECIAL_CHEBYSHEV_T, TSR_SPECIAL_CHEBYSHEV_U, TSR_SPECIAL_CHEBYSHEV_V, TSR_SPECIAL_CHEBYSHEV_W,
    TSR_SPECIAL_SHIFTED_CHEBYSHEV_T, TSR_SPECIAL_SHIFTED_CHEBYSHEV_U, TSR_SPECIAL_SHIFTED_CHEBYSHEV_V,
    TSR_SPECIAL_SHIFTED_CHEBYSHEV_W, TSR_SPECIAL_HERMITE_H, TSR_SPECIAL_HERMITE_HE, TSR_SPECIAL_LAGUERRE_L,
    TSR_SPECIAL_LEGENDRE_P,
    TSR_SPECIAL_COUNT
} tsr_special_op;

/* Descriptor i of the table (the named ops, then those found by name
 * only: runtime/ops/dispatch.h); NULL past the end. */
const tsr_op *tsr_special_op_at(int i);
/* The op's descriptor (runtime/op.h); NULL for an unknown op. */
const tsr_op *tsr_special_desc(tsr_special_op op);
/* true for the two-operand ops (XLOGY and after). */
bool tsr_special_is_binary(tsr_special_op op);

/* op(x) into out (borrowed, may be NULL) for a unary op. */
tsr_tensor *tsr_special_unary(tsr_special_op op, const tsr_tensor *x, tsr_tensor *out);
/* x.op_(): in place; returns a NEW reference to x or NULL. */
tsr_tensor *tsr_special_unary_(tsr_special_op op, tsr_tensor *x);
/* op(a, b) for a binary op; either operand may be a wrapped Python scalar
 * (not both), promoted as PyTorch promotes a wrapped number. */
tsr_tensor *tsr_special_binary(tsr_special_op op, const tsr_operand *a, const tsr_operand *b, tsr_tensor *out);
tsr_tensor *tsr_special_binary_(tsr_special_op op, tsr_tensor *self, const tsr_operand *b);

/* torch.polygamma(n, x): n == 0 runs digamma, n == 1 trigamma, else the
 * polygamma kernel; n < 0: "polygamma(n, x) does not support negative n.".
 * inplace: out is x. The descriptor of the kernel n runs is
 * tsr_polygamma_desc(n). */
tsr_tensor *tsr_polygamma(int64_t n, const tsr_tensor *x, tsr_tensor *out, bool inplace);
const tsr_op *tsr_polygamma_desc(int64_t n);

/* torch.mvlgamma(x, p) (special.multigammaln): 1.13's composite of arange,
 * lgamma_, a sum over the new last dimension and add_. inplace: x.mvlgamma_(p)
 * (the arange takes x's dtype, so integer tensors fail as 1.13's do). out:
 * an out= tensor or NULL. */
tsr_tensor *tsr_mvlgamma(const tsr_tensor *x, int64_t p, tsr_tensor *out, bool inplace);

/* special.ndtr(x): (1 + erf(x * M_SQRT1_2)) * 0.5 of the existing ops, as
 * 1.13 composes it; out= receives a copy after the can_cast check. */
tsr_tensor *tsr_special_ndtr(const tsr_tensor *x, tsr_tensor *out);

/* special.round(x, decimals=): round.decimals, which (unlike torch.round)
 * has no integer shortcut: integer and bool tensors raise "round_vml_cpu"
 * (decimals == 0) or "round_cpu" not implemented. */
tsr_tensor *tsr_special_round(const tsr_tensor *x, int64_t decimals, tsr_tensor *out);

#endif
