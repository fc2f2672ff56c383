/* runtime/ops/bessel.h — torch.special's Bessel, modified Bessel and Airy
 * functions and i0/i0e/i1/i1e: unary float ops (integer and bool inputs give
 * the default dtype) on 1.13's Cephes ports. NEW reference or NULL. */
#ifndef TSR_OPS_BESSEL_H
#define TSR_OPS_BESSEL_H
#include "../op.h"
#include "../tensor.h"

/* ORDER BESSEL */
typedef enum {
    TSR_BESSEL_J0, TSR_BESSEL_J1, TSR_BESSEL_Y0, TSR_BESSEL_Y1,
    TSR_BESSEL_MODIFIED_I0, TSR_BESSEL_MODIFIED_I1, TSR_BESSEL_MODIFIED_K0, TSR_BESSEL_MODIFIED_K1,
    TSR_BESSEL_SCALED_K0, TSR_BESSEL_SCALED_K1, TSR_BESSEL_SPHERICAL_J0, TSR_BESSEL_AIRY_AI,
    TSR_BESSEL_I0, TSR_BESSEL_I0E, TSR_BESSEL_I1, TSR_BESSEL_I1E,
    TSR_BESSEL_COUNT
} tsr_bessel_op;

/* Descriptor i of the table (the named ops, then those found by name
 * only: runtime/ops/dispatch.h); NULL past the end. */
const tsr_op *tsr_bessel_op_at(int i);
/* The op's descriptor (runtime/op.h); NULL for an unknown op. */
const tsr_op *tsr_bessel_desc(tsr_bessel_op op);

/* op(x) into out (borrowed, may be NULL: a new tensor). Float32 and float64
 * compute (bfloat16 too for i0 and i0e); others raise 1.13's
 * "<op>_cpu" not implemented for '<dtype>'. */
tsr_tensor *tsr_bessel(tsr_bessel_op op, const tsr_tensor *x, tsr_tensor *out);
/* x.op_() in place (Tensor.i0_): returns a NEW reference to x or NULL. */
tsr_tensor *tsr_bessel_(tsr_bessel_op op, tsr_tensor *x);

/* kaiser_window's kernel (UnaryOpsKernel.cpp): w[i] for i < n of a window of
 * L points, in w's dtype (contiguous float32/float64; else 1.13's "not
 * implemented" message). 0 or -1. */
int tsr_kaiser_fill(tsr_tensor *w, int64_t n, int64_t L, double beta);
#endif
