/* runtime/ops/nn.h — torch.nn.functional's forward ops that 1.13 composes
 * or runs with a kernel of its own (silu, leaky_relu, hardtanh,
 * normalize, one_hot, mse/l1/nll losses and cross_entropy). Results are NEW
 * references or NULL with the error recorded. */
#ifndef TSR_OPS_NN_H
#define TSR_OPS_NN_H
#include <stdbool.h>
#include "../tensor.h"

/* at::Reduction: the losses' reduction= ('none', 'mean', 'sum') */
typedef enum { TSR_REDUCTION_NONE, TSR_REDUCTION_MEAN, TSR_REDUCTION_SUM } tsr_reduction;

/* F.silu: x / (1 + exp(-x)); in place writes x (a new reference to it). */
tsr_tensor *tsr_nn_silu(tsr_tensor *x, bool inplace);
/* F.leaky_relu: x > 0 ? x : x * slope. */
tsr_tensor *tsr_nn_leaky_relu(tsr_tensor *x, double slope, bool inplace);
/* F.hardtanh / relu6: clamp(x, lo, hi); kname names a bool refusal. */
tsr_tensor *tsr_nn_hardtanh(tsr_tensor *x, double lo, double hi, bool inplace, const char *kname);
/* F.normalize: x / norm(x, p, dim, keepdim).clamp_min(eps).expand_as(x). */
tsr_tensor *tsr_nn_normalize(const tsr_tensor *x, double p, int64_t dim, double eps);
/* F.one_hot: int64 indices, num_classes -1 infers max + 1. */
tsr_tensor *tsr_nn_one_hot(const tsr_tensor *t, int64_t num_classes);
/* F.mse_loss / F.l1_loss on same-shape (broadcast) operands. */
tsr_tensor *tsr_nn_mse_loss(const tsr_tensor *x, const tsr_tensor *t, tsr_reduction red);
tsr_tensor *tsr_nn_l1_loss(const tsr_tensor *x, const tsr_tensor *t, tsr_reduction red);
/* F.nll_loss (nll_loss_nd) for 1-D and 2-D inputs: target int64 class
 * indices; weight NULL or one per class. */
tsr_tensor *tsr_nn_nll_loss(const tsr_tensor *x, const tsr_tensor *target, const tsr_tensor *weight,
                            tsr_reduction red, int64_t ignore_index);
/* F.cross_entropy: log_softmax over the class dim, then nll_loss (class
 * indices) or -(log_softmax * target) reduced (class probabilities). */
tsr_tensor *tsr_nn_cross_entropy(const tsr_tensor *x, const tsr_tensor *target, const tsr_tensor *weight,
                                 tsr_reduction red, int64_t ignore_index, double label_smoothing);
/* F.smooth_l1_loss (beta 0 is l1_loss; negative refused) and F.huber_loss
 * (delta must be positive). */
tsr_tensor *tsr_nn_smooth_l1_loss(const tsr_tensor *x, const tsr_tensor *t, tsr_reduction red, double beta);
tsr_tensor *tsr_nn_huber_loss(const tsr_tensor *x, const tsr_tensor *t, tsr_reduction red, double delta);
/* F.binary_cross_entropy: inputs in [0, 1], logs clamped at -100, then times
 * weight (already expanded) and reduced. */
tsr_tensor *tsr_nn_binary_cross_entropy(const tsr_tensor *x, const tsr_tensor *t, const tsr_tensor *w,
                                        tsr_reduction red);
/* F.softsign, F.tanhshrink (1.13's Python compositions), F.hardsigmoid /
 * F.hardswish (swish), F.threshold. */
tsr_tensor *tsr_nn_softsign(const tsr_tensor *x);
tsr_tensor *tsr_nn_tanhshrink(const tsr_tensor *x);
tsr_tensor *tsr_nn_hard(const tsr_tensor *x, bool swish);
tsr_tensor *tsr_nn_threshold(tsr_tensor *x, double threshold, double value, bool inplace);
/* F.pairwise_distance: norm(x1 - x2 + eps, p) over the last dim of the
 * larger operand; F.cosine_similarity (dim, eps) as 1.13 computes it. */
tsr_tensor *tsr_nn_pairwise_distance(const tsr_tensor *x1, const tsr_tensor *x2, double p, double eps, bool keepdim);
tsr_tensor *tsr_nn_cosine_similarity(const tsr_tensor *x1, const tsr_tensor *x2, int64_t dim, double eps);
/* F.dropout: x itself when p == 0, not training or empty; else x * noise,
 * noise = empty_like(x).bernoulli_(1 - p).div_(1 - p) from the default
 * generator (zeros when p == 1); in place writes x. */
tsr_tensor *tsr_nn_dropout(tsr_tensor *x, double p, bool train, bool inplace);
/* torch.constant_pad_nd (F.pad's constant mode): pad pairs from the last
 * dim, negative ones crop; value cast to the dtype. */
tsr_tensor *tsr_constant_pad_nd(const tsr_tensor *self, int npad, const int64_t *pad, tsr_scalar value);
/* F.embedding: weight.index_select(0, indices) viewed as indices' shape +
 * the embedding dim; indices int64 or int32. */
tsr_tensor *tsr_nn_embedding(const tsr_tensor *weight, const tsr_tensor *indices);
/* F.kl_div's ATen op (log_target or not; complex and integral inputs refused)
 * and binary_cross_entropy_with_logits (1.13's in-place chain; weight and
 * pos_weight may be NULL). */
tsr_tensor *tsr_nn_kl_div(const tsr_tensor *x, const tsr_tensor *t, tsr_reduction red, bool log_target);
tsr_tensor *tsr_nn_bce_with_logits(const tsr_tensor *x, const tsr_tensor *t, const tsr_tensor *w,
                                   const tsr_tensor *pw, tsr_reduction red);

#endif
