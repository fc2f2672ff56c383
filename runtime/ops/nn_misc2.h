/* runtime/ops/nn_misc2.h — more torch.nn.functional kernels (issue 19):
 * prelu and its backward formula. */
#ifndef TSR_OPS_NN_MISC2_H
#define TSR_OPS_NN_MISC2_H

#include "../autograd_node.h"
#include "../tensor.h"

/* torch.prelu(x, w) as 1.13's prelu_cpu: w has one element (shared) or
 * x.size(1) elements (one per channel; x of one dimension has one channel);
 * w of more than one dimension, a 0-dim x with a per-channel w, a channel
 * mismatch, a w whose dtype is not x's (bfloat16 x takes a float32 w) and
 * dtypes other than float32 / float64 / bfloat16 are refused with 1.13's
 * messages. y = x > 0 ? x : w * x, contiguous. NEW or NULL. */
tsr_tensor *tsr_nn_prelu(const tsr_tensor *x, const tsr_tensor *w);

/* PreluBackward0 (formula "prelu"; inputs x, w saved): grad_input =
 * x > 0 ? g : w * g, grad_weight = the sum of (x > 0 ? 0 : x * g) over
 * every dim but 1 (all dims for a shared w), shaped as w. */
int tsr__bw_prelu(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);

#endif
