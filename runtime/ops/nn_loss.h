/* runtime/ops/nn_loss.h — the losses 1.13 computes in a dedicated ATen op
 * with its own backward node: soft_margin_loss (SoftMarginLossBackward0),
 * multi_margin_loss (MultiMarginLossBackward0), multilabel_margin_loss
 * (MultilabelMarginLossBackward0). */
#ifndef TSR_OPS_NN_LOSS_H
#define TSR_OPS_NN_LOSS_H
#include "nn.h"

/* soft_margin_loss_out: out = log(exp(-x * t) + 1) in x's dtype (neg_out,
 * mul_, exp_, add_, log_ in place), then mean / sum. NEW or NULL. */
tsr_tensor *tsr_nn_soft_margin_loss(const tsr_tensor *x, const tsr_tensor *t, tsr_reduction red);
/* soft_margin_loss_backward: -norm * t * z / (1 + z) * g, z = exp(-t * x),
 * norm 1 / numel for mean; in x's dtype. NEW or NULL. */
tsr_tensor *tsr_nn_soft_margin_loss_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *t,
                                             tsr_reduction red);
/* multi_margin_loss (p 1 or 2, margin, weight or NULL): 1.13's CPU kernel
 * (float32 / float64, int64 targets). NEW or NULL. */
tsr_tensor *tsr_nn_multi_margin_loss(const tsr_tensor *x, const tsr_tensor *t, int p, double margin,
                                     const tsr_tensor *w, tsr_reduction red);
tsr_tensor *tsr_nn_multi_margin_loss_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *t, int p,
                                              double margin, const tsr_tensor *w, tsr_reduction red);
/* multilabel_margin_loss: 1.13's CPU kernel (float32 / float64, int64
 * targets, -1 ends a frame's labels); the backward recomputes is_target. */
tsr_tensor *tsr_nn_multilabel_margin_loss(const tsr_tensor *x, const tsr_tensor *t, tsr_reduction red);
tsr_tensor *tsr_nn_multilabel_margin_loss_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *t,
                                                   tsr_reduction red);
/* torch.pdist(x, p): the upper-triangle row distances of a 2-D x (1.13's
 * _pdist_forward CPU kernel, p 0, 1, 2 and inf); its backward from the
 * forward's result dist. NEW or NULL. */
tsr_tensor *tsr_pdist(const tsr_tensor *x, double p);
tsr_tensor *tsr_pdist_backward(const tsr_tensor *g, const tsr_tensor *x, double p, const tsr_tensor *dist);

#endif
