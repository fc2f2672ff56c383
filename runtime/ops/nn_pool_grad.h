/* runtime/ops/nn_pool_grad.h — the backward kernels of the pooling layers
 * (nn_pool_grad.c), as 1.13's CPU kernels compute them; the autograd
 * formulas of autograd_fn.c call them. Results are NEW references or NULL
 * with the error recorded; arguments are borrowed. */
#ifndef TSR_OPS_NN_POOL_GRAD_H
#define TSR_OPS_NN_POOL_GRAD_H
#include <stdbool.h>
#include "../tensor.h"

/* max_pool2d_with_indices_backward and adaptive_max_pool2d_backward: the
 * gradient of x (3-D or 4-D) from g and the forward's plane indices: zeros
 * in x's suggested memory format, g added at each index in output order. */
tsr_tensor *tsr_nn_max_pool2d_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *indices);
/* avg_pool2d_backward: k, s, p are (h, w) pairs; each output's gradient
 * divided once by its divisor, then added over its window. */
tsr_tensor *tsr_nn_avg_pool2d_backward(const tsr_tensor *g, const tsr_tensor *x, const int64_t *k, const int64_t *s,
                                       const int64_t *p, bool count_include_pad, bool has_divisor, int64_t divisor);
/* _adaptive_avg_pool2d_backward: g / kh / kw added over each window. */
tsr_tensor *tsr_nn_adaptive_avg_pool2d_backward(const tsr_tensor *g, const tsr_tensor *x);
/* reflection_pad / replication_pad{1,2,3}d backward (mode "reflect" or
 * "replicate", the npad pads F.pad took): the gradient of x. */
tsr_tensor *tsr_nn_pad_mode_backward(const tsr_tensor *g, const tsr_tensor *x, int npad, const int64_t *pad,
                                     const char *mode);

#endif
