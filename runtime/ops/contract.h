/* runtime/ops/contract.h — tensordot and einsum (1.13's Linear.cpp): both
 * reduce to permutes, sums and one mm / pairwise bmms, in 1.13's order.
 * Results are NEW references or NULL with the error recorded. */
#ifndef TSR_OPS_CONTRACT_H
#define TSR_OPS_CONTRACT_H
#include "../tensor.h"

/* torch.tensordot(a, b, dims) with the dims lists already made (1.13's
 * Python wrapper turns dims=n into [-n..-1] and [0..n-1]): "both dimension
 * lists should have same length", 
 * "contracted dimensions need to match, but first has size 2 in dim 0 and
 * second has size 3 in dim 1". A size-1 dim on one side is summed away. */
tsr_tensor *tsr_tensordot(const tsr_tensor *a, const tsr_tensor *b, int n1, const int64_t *dims1, int n2,
                          const int64_t *dims2);
/* tensordot's out=: the out tensor must have the result's dtype ("tensordot:
 * Expected the output tensor to have dtype float, but got an output tensor
 * with dtype double"); resize_output, copy. */
tsr_tensor *tsr_tensordot_out(const tsr_tensor *a, const tsr_tensor *b, int n1, const int64_t *dims1, int n2,
                              const int64_t *dims2, tsr_tensor *out);
/* torch.einsum(equation, operands): path NULL contracts left to right, else
 * path holds npath operand indices taken in pairs (opt_einsum's format). */
tsr_tensor *tsr_einsum(const char *equation, int num_ops, const tsr_tensor *const *operands, int npath,
                       const int64_t *path);
/* Internal (nn_bilinear.c's _trilinear): 1.13's sumproduct_pair with
 * keepdim, (left * right).sum(sum_dims) by permute + bmm. */
tsr_tensor *tsr__sumproduct_pair(const tsr_tensor *left, const tsr_tensor *right, int nsum, const int64_t *sum_dims);

#endif
