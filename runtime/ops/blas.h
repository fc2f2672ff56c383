/* runtime/ops/blas.h — the matmul family (mm, addmm, bmm, baddbmm, addbmm,
 * mv, addmv, dot, vdot, inner, outer, matmul) as 1.13's LinearAlgebra.cpp
 * and Blas.cpp compute them: float32/64 and complex64/128 through OpenBLAS
 * with the same gemm/gemv/dot calls, the other dtypes through the loops of
 * BlasKernel.cpp. Ownership as tensor.h: results are NEW references (out
 * itself when given), arguments are borrowed, NULL records the error. */
#ifndef TSR_OPS_BLAS_H
#define TSR_OPS_BLAS_H
#include <stdbool.h>
#include "../op.h"
#include "../tensor.h"

/* a @ b for 2-D a and b ("self must be a matrix", "mat1 and mat2 shapes
 * cannot be multiplied (2x3 and 2x3)", "expected scalar type Float but found
 * Long", '"addmm_impl_cpu_" not implemented for 'Half''). out: out= or NULL. */
tsr_tensor *tsr_mm(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor *out);
/* beta*self + alpha*(m1 @ m2); self broadcast to the result (addmm), or,
 * with inplace, written itself (self.addmm_). beta == 0 ignores self's
 * values (NaN included). */
tsr_tensor *tsr_addmm(tsr_tensor *self, const tsr_tensor *m1, const tsr_tensor *m2, tsr_scalar beta,
                      tsr_scalar alpha, tsr_tensor *out, bool inplace);
/* Batched: bmm (3-D @ 3-D), baddbmm (self + batch), addbmm (sum over the
 * batch added to a 2-D self). */
tsr_tensor *tsr_bmm(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor *out);
tsr_tensor *tsr_baddbmm(tsr_tensor *self, const tsr_tensor *b1, const tsr_tensor *b2, tsr_scalar beta,
                        tsr_scalar alpha, tsr_tensor *out, bool inplace);
tsr_tensor *tsr_addbmm(tsr_tensor *self, const tsr_tensor *b1, const tsr_tensor *b2, tsr_scalar beta,
                       tsr_scalar alpha, tsr_tensor *out, bool inplace);
/* Matrix @ vector. */
tsr_tensor *tsr_mv(const tsr_tensor *m, const tsr_tensor *v, tsr_tensor *out);
tsr_tensor *tsr_addmv(tsr_tensor *self, const tsr_tensor *m, const tsr_tensor *v, tsr_scalar beta,
                      tsr_scalar alpha, tsr_tensor *out, bool inplace);
/* Vector products: dot (no conjugation), vdot (conjugates a). */
tsr_tensor *tsr_dot(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor *out);
tsr_tensor *tsr_vdot(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor *out);
/* torch.matmul / @: every 1-D..N-D combination with batch broadcasting
 * ("both arguments to matmul need to be at least 1D, but they are 0D and 1D"). */
tsr_tensor *tsr_matmul(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor *out);
/* inner (contracts the last dims; a 0-dim operand multiplies) and outer
 * (a.reshape(-1, 1) * b, with the type promotion of mul). */
tsr_tensor *tsr_inner(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor *out);
tsr_tensor *tsr_outer(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor *out);
/* beta*self + alpha*outer(v1, v2), promoted as one TensorIterator op
 * (addr_kernel of 1.13: bool uses and/or, beta == 0 ignores self). */
tsr_tensor *tsr_addr(tsr_tensor *self, const tsr_tensor *v1, const tsr_tensor *v2, tsr_scalar beta,
                     tsr_scalar alpha, tsr_tensor *out, bool inplace);

/* (tsr_out_dtype_check, the structured kernels' out= dtype check, is op.h's.) */

/* The gemm of 1.13's cpublas::gemm on column-major operands: C = alpha *
 * op(A) @ op(B) + beta * C with op = transpose when ta / tb, for dtype dt
 * (float32/64, complex64/128 through OpenBLAS; integers and bfloat16 through
 * BlasKernel.cpp's loops). Never fails; dt must be one addmm accepts. Exposed
 * for the unit tests. */
void tsr_gemm(tsr_dtype dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k, tsr_scalar alpha, const void *a,
              int64_t lda, const void *b, int64_t ldb, tsr_scalar beta, void *c, int64_t ldc);
/* tsr_gemm in panels of nb output columns (nb <= 0: the size-based choice),
 * polling Ctrl-C between them: -1 when interrupted. Exposed for the unit
 * tests (ta / tb: 0 as stored, 1 transposed, 2 conjugate-transposed). */
int tsr__gemm_panels(tsr_dtype dt, int ta, int tb, int64_t m, int64_t n, int64_t k, tsr_scalar alpha, const void *a,
                     int64_t lda, const void *b, int64_t ldb, tsr_scalar beta, void *c, int64_t ldc, int64_t nb);

#endif
