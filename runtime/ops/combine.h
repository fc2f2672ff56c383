/* runtime/ops/combine.h — building tensors from parts: complex and polar
 * (two real tensors into one complex), cartesian_prod, combinations and
 * block_diag (TensorShape.cpp, Itertools.cpp, 1.13). NEW references or NULL
 * with 1.13's errors; inputs are borrowed. */
#ifndef TSR_OPS_COMBINE_H
#define TSR_OPS_COMBINE_H
#include "../tensor.h"

/* complex(real, imag) and polar(abs, angle): both half/float/double of one
 * dtype, broadcast; the result is the matching complex dtype. */
tsr_tensor *tsr_complex(const tsr_tensor *re, const tsr_tensor *im);
tsr_tensor *tsr_polar(const tsr_tensor *abs, const tsr_tensor *angle);
/* complex / polar (polar true) with out=: the inputs' checks first, then
 * out's dtype ("Expected object of scalar type ComplexFloat but got scalar
 * type Float for argument 'out'"); out resized to the broadcast shape. A new
 * reference to out, or NULL. */
tsr_tensor *tsr_complex_out(const tsr_tensor *a, const tsr_tensor *b, bool polar, tsr_tensor *out);
/* cartesian_prod of n 1-D tensors: (prod of sizes, n); one tensor is
 * returned itself (a new reference). */
tsr_tensor *tsr_cartesian_prod(int n, const tsr_tensor *const *ts);
/* combinations(r, with_replacement) of a 1-D tensor's elements, as rows. */
tsr_tensor *tsr_combinations(const tsr_tensor *t, int64_t r, bool with_replacement);
/* block_diag of n tensors of at most 2 dims, in result_type of them all. */
tsr_tensor *tsr_block_diag(int n, const tsr_tensor *const *ts);

#endif
