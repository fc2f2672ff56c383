/* runtime/ops/nn_bilinear.h — at::_trilinear and at::bilinear as 1.13's
 * Linear.cpp computes them (the forward and, through _trilinear with the
 * lists permuted, _trilinear_backward). Results are NEW references or NULL
 * with the error recorded; arguments are borrowed. */
#ifndef TSR_OPS_NN_BILINEAR_H
#define TSR_OPS_NN_BILINEAR_H
#include <stdint.h>
#include "../tensor.h"

/* at::_trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim):
 * (i1.unsqueeze(expand1) * i2.unsqueeze(expand2) * i3.unsqueeze(expand3))
 * .sum(sumdim), unrolled over unroll_dim with two sumproduct_pair bmms per
 * slice added into zeros. The lists are given as bitmasks of dims (the
 * order of a list does not matter to 1.13's kernel). */
tsr_tensor *tsr_trilinear(const tsr_tensor *i1, const tsr_tensor *i2, const tsr_tensor *i3, uint64_t expand1,
                          uint64_t expand2, uint64_t expand3, uint64_t sumdim, int64_t unroll_dim);

/* _trilinear_backward: the gradients of i1, i2, i3 (want[k] false: *gk
 * untouched) from g, each a _trilinear with the lists exchanged. 0, or -1
 * with the error recorded and nothing returned. */
int tsr_trilinear_backward(const tsr_tensor *g, const tsr_tensor *i1, const tsr_tensor *i2, const tsr_tensor *i3,
                           uint64_t expand1, uint64_t expand2, uint64_t expand3, uint64_t sumdim, const bool want[3],
                           tsr_tensor **g1, tsr_tensor **g2, tsr_tensor **g3);

/* The masks at::bilinear hands _trilinear: {1,3}, {0}, {1,2}, sumdim {2,3},
 * unroll_dim 1. */
#define TSR_BILINEAR_E1 ((uint64_t)0xA)
#define TSR_BILINEAR_E2 ((uint64_t)0x1)
#define TSR_BILINEAR_E3 ((uint64_t)0x6)
#define TSR_BILINEAR_SUM ((uint64_t)0xC)

/* at::bilinear with its pieces for the graph (parts NULL: not wanted):
 * parts[0], parts[1] the inputs reshaped to (-1, features), parts[2]
 * _trilinear's result, parts[3] that reshaped to the output's size (the
 * result itself when there is no bias); NEW references, NULL when absent. */
tsr_tensor *tsr_nn_bilinear_ex(const tsr_tensor *x1, const tsr_tensor *x2, const tsr_tensor *w, const tsr_tensor *bias,
                               tsr_tensor **parts);

#endif
