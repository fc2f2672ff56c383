/* runtime/ops/nn_misc2.h — more torch.nn.functional kernels (issue 19):
 * prelu, embedding_bag, ctc_loss and their backward formulas. */
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
/* PreluBackwardBackward0 (formula "prelu_backward", the two-output node
 * create_graph records over (grad_output, self, weight)): 1.13's
 * prelu_double_backward, recorded. */
int tsr__bw_prelu_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);

/* torch.embedding_bag(weight, indices, offsets, ..., mode, per_sample_weights,
 * include_last_offset, padding_idx (NULL: None)) as 1.13's _embedding_bag CPU kernel:
 * indices 1-D (int32/int64, offsets promoted with them), mode 0 sum / 1 mean
 * / 2 max, psw (NULL: none) the per-sample weights (sum only), padding_idx
 * checked against weight.size(0) and wrapped. Bags m < offsets.size(0) - include_last run
 * from offsets[m] to offsets[m + 1] (the last to the end without
 * include_last); sums add sequentially (fma with a weight), mean divides by
 * max(bag size, 1), max keeps the first largest; empty bags are 0. The
 * weight of float32 / float16, unit stride and no padding_idx takes 1.13's
 * fast path (its errors for bad indices and offsets), the rest the slow one.
 * *o2b, *bag_size, *max_ind receive 1.13's other three results. NEW or NULL. */
tsr_tensor *tsr_nn_embedding_bag(const tsr_tensor *weight, const tsr_tensor *indices, const tsr_tensor *offsets,
                                 int mode, const tsr_tensor *psw, bool include_last, const int64_t *padding_idx,
                                 tsr_tensor **o2b, tsr_tensor **bag_size, tsr_tensor **max_ind);

/* EmbeddingBagBackward0 (formula "embedding_bag"; inputs weight and
 * per_sample_weights, saved; kept: indices, offset2bag, bag_size,
 * max_indices; a.i0 mode, a.i1 padding_idx, a.flag scale_grad_by_freq). */
int tsr__bw_embedding_bag(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);

/* at::_ctc_loss on the CPU as 1.13's LossCTC.cpp: log_probs (T, N, C)
 * float32 / float64, targets (int64; padded (N, S) or concatenated 1-D),
 * il / tl the N input and target lengths, blank. Returns the negative log
 * likelihood (N) and sets *log_alpha (N, T, 2 * max target length + 1).
 * 1.13's checks and messages. NEW (both) or NULL. */
tsr_tensor *tsr_nn_ctc_loss(const tsr_tensor *log_probs, const tsr_tensor *targets, int64_t nil, const int64_t *il,
                            int64_t ntl, const int64_t *tl, int64_t blank, tsr_tensor **log_alpha);

/* CtcLossBackward0 (formula "ctc_loss"; input log_probs and the result
 * saved; kept: targets, log_alpha, input and target lengths (int64); a.i0
 * blank, a.flag zero_infinity): 1.13's ctc_loss_backward_cpu_template. */
int tsr__bw_ctc_loss(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);

#endif
