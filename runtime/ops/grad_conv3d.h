/* runtime/ops/grad_conv3d.h — the backward formulas of the 3-D pooling
 * and convolution ops (grad_conv3d.c): rows of autograd_fn.c's table. */
#ifndef TSR_OPS_GRAD_CONV3D_H
#define TSR_OPS_GRAD_CONV3D_H

#include "../autograd_node.h"

/* avg_pool3d: input 0 saved; kernel, stride, padding in dims[0..8],
 * count_include_pad in flag, divisor_override in i0 when has_d0. */
int tsr__bw_avg_pool3d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
/* _adaptive_avg_pool3d: input 0 saved. */
int tsr__bw_adaptive_avg_pool3d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);

/* conv_tbc: inputs (self, weight, bias) saved, pad in i0; conv_tbc_backward
 * computes all three gradients. */
int tsr__bw_conv_tbc(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
/* fractional_max_pool2d / 3d: input 0 saved, the indices kept (extra[0]). */
int tsr__bw_fractional_max_pool2d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_fractional_max_pool3d(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);

#endif
