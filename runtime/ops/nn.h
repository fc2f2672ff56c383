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

/* F.leaky_relu: x > 0 ? x : x * slope. */
tsr_tensor *tsr_nn_leaky_relu(tsr_tensor *x, double slope, bool inplace);
/* F.hardtanh / relu6: clamp(x, lo, hi); kname names a bool refusal. */
tsr_tensor *tsr_nn_hardtanh(tsr_tensor *x, double lo, double hi, bool inplace, const char *kname);
/* F.normalize: x / norm(x, p, dim, keepdim).clamp_min(eps).expand_as(x). */
tsr_tensor *tsr_nn_normalize(const tsr_tensor *x, double p, int64_t dim, double eps, tsr_tensor *out);
/* F.one_hot: int64 indices, num_classes -1 infers max + 1. */
tsr_tensor *tsr_nn_one_hot(const tsr_tensor *t, int64_t num_classes);
/* F.mse_loss / F.l1_loss on same-shape (broadcast) operands. */
tsr_tensor *tsr_nn_mse_loss(const tsr_tensor *x, const tsr_tensor *t, tsr_reduction red);
tsr_tensor *tsr_nn_l1_loss(const tsr_tensor *x, const tsr_tensor *t, tsr_reduction red);
/* Internal (the losses of nn.c and nn_loss.c): apply_loss_reduction, l's
 * mean() or sum() of everything, or l itself for 'none' (steals l). */
tsr_tensor *tsr__nn_reduce_loss(tsr_tensor *l, tsr_reduction red);
/* F.nll_loss (nll_loss_nd) for 1-D and 2-D inputs: target int64 class
 * indices; weight NULL or one per class. *total_weight (NULL: not wanted)
 * receives the reduced forms' total weight, for the backward. */
tsr_tensor *tsr_nn_nll_loss(const tsr_tensor *x, const tsr_tensor *target, const tsr_tensor *weight,
                            tsr_reduction red, int64_t ignore_index, double *total_weight);
/* nll_loss_nd's first checks: at least 1 dim, the batch sizes agree
 * (ValueError). 0 or -1. */
int tsr_nn_nll_loss_check(const tsr_tensor *x, const tsr_tensor *target);
/* nll_loss2d: x (N, C, H, W), target (N, H, W) int64, as 1.13's
 * LossNLL2d.cpp (float32, float64, bfloat16). */
tsr_tensor *tsr_nn_nll_loss2d(const tsr_tensor *x, const tsr_tensor *target, const tsr_tensor *weight,
                              tsr_reduction red, int64_t ignore_index, double *total_weight);
tsr_tensor *tsr_nn_nll_loss2d_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *target,
                                       const tsr_tensor *weight, tsr_reduction red, int64_t ignore_index,
                                       double total_weight);
/* nll_loss_nd of an input of 3 or more dims (N, C, d1, ...): nll_loss2d
 * on a 4-D input, else on the input viewed as (N, C, 1, d1 * d2 ...) and
 * the target as (N, 1, d1 * d2 ...) ("Expected target size [N, d1, ...],
 * got ..."), the unreduced result viewed back to (N, d1, ...). */
tsr_tensor *tsr_nn_nll_loss_spatial(const tsr_tensor *x, const tsr_tensor *target, const tsr_tensor *weight,
                                    tsr_reduction red, int64_t ignore_index, double *total_weight);
/* The views nll_loss_nd makes of a 3-D or more-than-4-D input and its
 * target (x contiguous first); *xv and *tv new references. 0 or -1. */
int tsr_nn_nll_loss_nd_views(const tsr_tensor *x, const tsr_tensor *target, tsr_tensor **xv, tsr_tensor **tv);
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
/* F.softsign, F.tanhshrink (1.13's Python compositions), F.threshold. */
tsr_tensor *tsr_nn_softsign(const tsr_tensor *x);
tsr_tensor *tsr_nn_tanhshrink(const tsr_tensor *x);
tsr_tensor *tsr_nn_threshold(tsr_tensor *x, double threshold, double value, bool inplace);
/* F.pairwise_distance: norm(x1 - x2 + eps, p) over the last dim of the
 * larger operand; F.cosine_similarity (dim, eps) as 1.13 computes it. */
tsr_tensor *tsr_nn_pairwise_distance(const tsr_tensor *x1, const tsr_tensor *x2, double p, double eps, bool keepdim);
tsr_tensor *tsr_nn_cosine_similarity(const tsr_tensor *x1, const tsr_tensor *x2, int64_t dim, double eps);
/* F.dropout: x itself when p == 0, not training or empty; else x * noise,
 * noise = empty_like(x).bernoulli_(1 - p).div_(1 - p) from the default
 * generator (zeros when p == 1); in place writes x. */
tsr_tensor *tsr_nn_dropout(tsr_tensor *x, double p, bool train, bool inplace);
/* F.dropout's noise for p in (0, 1]: the mask divided by 1 - p (x's shape,
 * contiguous), or a 0-dim zero when p == 1; draws from the default generator. */
tsr_tensor *tsr_nn_dropout_noise(const tsr_tensor *x, double p);
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

/* The elementwise activations with their own kernels in 1.13, composed
 * from the runtime's kernels in the kernels' order of operations; float32
 * and float64, and bfloat16 where the kernel dispatches it (computed in
 * float32, rounded once, as 1.13's reduced-precision path does; silu's
 * Vectorized<BFloat16> rounds every step); other
 * dtypes: "\"silu_cpu\" not implemented for 'Long'".
 *   silu       x / (1 + exp(-x))
 *   hardsigmoid min(max(x + 3, 0), 6) / 6
 *   hardswish  x * min(max(x + 3, 0), 6) / 6
 *   mish       x * tanh(log1p(exp(x)))            (no bfloat16)
 *   elu        x > 0 ? x * scale : (exp(x * input_scale) - 1) * (alpha * scale)
 *              scale = input_scale = 1 for elu(alpha); selu: 1.13's alpha and scale;
 *              celu(alpha): input_scale 1 / alpha ("ZeroDivisionError: alpha
 *              cannot be 0 for CELU")
 * alpha: elu's and celu's; inplace writes x (its dtype). */
typedef enum { TSR_NN_SILU, TSR_NN_HARDSIGMOID, TSR_NN_HARDSWISH, TSR_NN_MISH, TSR_NN_ELU, TSR_NN_SELU,
               TSR_NN_CELU } tsr_nn_act;
tsr_tensor *tsr_nn_activation(tsr_nn_act act, tsr_tensor *x, double alpha, bool inplace);

/* gelu(x, approximate "none" | "tanh"; else "approximate argument must be
 * either none or tanh."): x * 0.5 * (1 + erf(x * M_SQRT1_2)), or
 * 0.5 * x * (1 + tanh(kBeta * (x + 0.044715 * x * x * x))) as GeluKernelImpl
 * computes them (a contiguous float32/bfloat16 input with "none", which
 * 1.13 gives oneDNN, is refused as not supported yet); softplus(x, beta, threshold): x * beta > threshold ? x :
 * log1p(exp(x * beta)) / beta (bfloat16 in float, rounded once).
 * float32/64 and bfloat16. */
tsr_tensor *tsr_nn_gelu(const tsr_tensor *x, const char *approximate);
/* gelu(approximate='tanh')'s input gradient from g and x, float32 or
 * float64 of one dtype (nn_gelu_grad.c). NEW reference or NULL. */
tsr_tensor *tsr_nn_gelu_tanh_backward(const tsr_tensor *g, const tsr_tensor *x);
/* elu_kernel of float32 / float64 (negcoef = alpha * scale and the others
 * already in the dtype's precision). */
tsr_tensor *tsr_nn_elu_forward(const tsr_tensor *x, double negcoef, double poscoef, double input_scale);
/* mish forward (float32, float64) as 1.13's mish_kernel: x * tanh(log1p(exp(x))),
 * Sleef's exp, log1p and tanh on whole vector chunks of contiguous rows,
 * libm's on the rest (a fused kernel, unlike the unary ops, whose tails
 * also take Sleef). NEW or NULL. */
tsr_tensor *tsr_nn_mish_forward(const tsr_tensor *x);
/* gelu(approximate='tanh') of float32 / float64 as 1.13's kernel. */
tsr_tensor *tsr_nn_gelu_tanh_forward(const tsr_tensor *x, tsr_tensor *out);
/* tanh_backward (from the output y), silu_backward and mish_backward (from
 * the input x) of float32 / float64, as 1.13's kernels (nn_gelu_grad.c). */
tsr_tensor *tsr_nn_tanh_backward(const tsr_tensor *g, const tsr_tensor *y);
tsr_tensor *tsr_nn_silu_backward(const tsr_tensor *g, const tsr_tensor *x);
tsr_tensor *tsr_nn_mish_backward(const tsr_tensor *g, const tsr_tensor *x);
tsr_tensor *tsr_nn_softplus(const tsr_tensor *x, double beta, double threshold);

/* F.logsigmoid (log_sigmoid_forward): min(x, 0) - log1p(exp(-|x|)) on the
 * contiguous input; float32/64 and bfloat16. */
tsr_tensor *tsr_nn_log_sigmoid(const tsr_tensor *x);
/* out= of F.gelu, F.softplus (a TensorIterator's checks: out's overlaps,
 * "Found dtype Double but expected Float", the device; then resize_output
 * with its warning) and F.logsigmoid (log_sigmoid_forward_out: out resized
 * as x without a warning, "expected scalar type Float but found Double"
 * after the kernel's own dtype check) (nn_out.c). NEW reference to out, or
 * NULL with the error. */
tsr_tensor *tsr_nn_gelu_out(const tsr_tensor *x, const char *approximate, tsr_tensor *out);
tsr_tensor *tsr_nn_softplus_out(const tsr_tensor *x, double beta, double threshold, tsr_tensor *out);
tsr_tensor *tsr_nn_log_sigmoid_out(const tsr_tensor *x, tsr_tensor *out);
/* nll_loss_backward: the gradient of nll_loss's input x (its shape and
 * dtype) for the output gradient g, with the forward's total weight. */
tsr_tensor *tsr_nn_nll_loss_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *target,
                                     const tsr_tensor *weight, tsr_reduction red, int64_t ignore_index,
                                     double total_weight);
/* embedding_dense_backward: the [num_weights, dim] gradient of the weight
 * from g ([*indices.shape, dim]); padding_idx < 0: none. */
tsr_tensor *tsr_nn_embedding_backward(const tsr_tensor *g, const tsr_tensor *indices, int64_t num_weights,
                                      int64_t padding_idx, bool scale_grad_by_freq);
/* embedding_sparse_backward (sparse=True): the rows of g whose index is not
 * padding_idx as an uncoalesced sparse COO gradient of size
 * [num_weights, dim] (indices [1, nnz] int64, values [nnz, dim]). */
tsr_tensor *tsr_nn_embedding_sparse_backward(const tsr_tensor *g, const tsr_tensor *indices, int64_t num_weights,
                                             int64_t padding_idx);
/* F.embedding(max_norm=)'s torch.embedding_renorm_: the rows indices name
 * (each once) whose norm_type-norm exceeds max_norm scaled in place to
 * max_norm / (norm + 1e-7) of themselves. 0 or -1. */
int tsr_nn_embedding_renorm_(tsr_tensor *weight, const tsr_tensor *indices, double max_norm, double norm_type);

/* gelu(approximate='none') goes through oneDNN for x (1.13's use_mkldnn). */
bool tsr__gelu_uses_dnnl(const tsr_tensor *x);
/* gelu(approximate='none') through oneDNN (g NULL: the forward, else the
 * gradient for g): tsr__gelu_dnnl (nn_dnnl.c). */
tsr_tensor *tsr_nn_gelu_erf_dnnl(const tsr_tensor *x, const tsr_tensor *g);

/* ---- device paths (runtime/ops/nn_dev.c): torch.nn.functional's ops on a device the host
 * cannot read (cuda), composed of device-aware runtime ops (the elementwise
 * engine, the device reductions, copies) in the compute type PyTorch's CUDA
 * kernels use (float for float16 / bfloat16). Internal to the runtime.
 * Results are NEW references or NULL with the error set; arguments borrowed. */

/* x lives on a device other than the CPU and meta. */
bool tsr__nn_on_device(const tsr_tensor *x);
/* softmax / log_softmax (lg) of in along dim (already wrapped), as 1.13's
 * host_softmax: exp(x - amax) / sum, or (x - amax) - log(sum), in float for
 * the halves, the result of in's dtype, contiguous. */
tsr_tensor *tsr__softmax_dev(const tsr_tensor *in, int64_t dim, bool lg);
/* _softmax_backward_data (lg: _log_softmax_backward_data) as 1.13's
 * host_softmax_backward: y * (g - sum(g * y)) or g - exp(y) * sum(g). */
tsr_tensor *tsr__softmax_backward_dev(const tsr_tensor *g, const tsr_tensor *y, int64_t dim, bool lg);

/* The elementwise activations with their own CUDA kernels, each computing
 * in float for the halves (opmath) and rounding once, as 1.13's
 * ActivationXKernel.cu do. Parameters a, b, c by kind (below). */
typedef enum {
    TSR_DACT_GELU,        /* x * 0.5 * (1 + erf(x / sqrt 2)) */
    TSR_DACT_GELU_TANH,   /* 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))) */
    TSR_DACT_SILU,        /* x / (1 + exp(-x)) */
    TSR_DACT_MISH,        /* x * tanh(log1p(exp(x))) */
    TSR_DACT_ELU,         /* x <= 0 ? (exp(x * c) - 1) * a : x * b (a negcoef, b poscoef, c input scale) */
    TSR_DACT_HARDSIGMOID, /* min(max(x + 3, 0), 6) / 6 */
    TSR_DACT_HARDSWISH,   /* x * min(max(x + 3, 0), 6) / 6 */
    TSR_DACT_SOFTPLUS,    /* x * a > b ? x : log1p(exp(x * a)) / a (a beta, b threshold) */
    TSR_DACT_LOG_SIGMOID, /* min(x, 0) - log1p(exp(-|x|)) */
    TSR_DACT_SOFTSHRINK,  /* x > a ? x - a : x < -a ? x + a : 0 */
    TSR_DACT_HARDSHRINK,  /* -a <= x <= a ? 0 : x */
    TSR_DACT_LEAKY,       /* x > 0 ? x : x * a */
    TSR_DACT_COUNT
} tsr_dact;
/* act(x) on x's device, of x's dtype (float16, bfloat16, float32 or
 * float64; another: 1.13's CUDA kernel name in the "not implemented"
 * error); inplace: written into x, x returned (a new reference). */
tsr_tensor *tsr__act_dev(tsr_dact act, tsr_tensor *x, double a, double b, double c, bool inplace);
/* The gradient of act at x (the forward's input; TSR_DACT_ELU with is_result:
 * x is the forward's result) for the output gradient g, in float for the
 * halves as 1.13's CUDA backward kernels compute it, of g's dtype.
 * TSR_DACT_LEAKY (a the slope) and TSR_DACT_SHRINK_BW (soft- and
 * hardshrink's, a lambd) are backward-only kinds. */
tsr_tensor *tsr__act_backward_dev(tsr_dact act, const tsr_tensor *g, const tsr_tensor *x, double a, double b,
                                  double c, bool is_result);

/* nll_loss on x (C) with a 0-dim target, or (N, C, *) with target (N, *),
 * int64 or uint8, after the CPU's checks: the picked -x[t] * weight[t]
 * (gather, index_select), ignore_index's terms 0, reduced; *total_weight
 * (when not NULL) the summed weight, copied to the host as .item() does.
 * A target outside [0, C) is the CPU's IndexError (1.13's CUDA asserts). */
tsr_tensor *tsr__nll_loss_dev(const tsr_tensor *x, const tsr_tensor *target, const tsr_tensor *weight,
                              tsr_reduction red, int64_t ignore_index, double *total_weight);
/* its gradient at x: zeros with -weight[t] * g (g / total_weight for
 * 'mean') scattered at the targets */
tsr_tensor *tsr__nll_loss_backward_dev(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *target,
                                       const tsr_tensor *weight, tsr_reduction red, int64_t ignore_index,
                                       double total_weight);
/* binary_cross_entropy's unreduced loss (t - 1) * max(log1p(-x), -100) -
 * t * max(log(x), -100), in float for the halves; an input outside [0, 1]
 * is the CPU's RuntimeError (1.13's CUDA asserts). */
tsr_tensor *tsr__bce_dev(const tsr_tensor *x, const tsr_tensor *t);

/* The normalisations on cuda after the CPU's checks, in float for the
 * halves (1.13's CUDA kernels' acc type), results of x's dtype.
 * layer_norm over the last nshape dims; the backward recomputes the rows'
 * mean and rstd from x. *dx / *dw / *db as tsr_nn_layer_norm_backward. */
tsr_tensor *tsr__layer_norm_dev(const tsr_tensor *x, int nshape, const tsr_tensor *w, const tsr_tensor *b, double eps);
/* layer_norm's row statistics of x seen as (M, N): *mean and *rstd (M, 1)
 * of x's dtype (computed in float for the halves). 0 or -1. */
int tsr__layer_norm_stats_dev(const tsr_tensor *x, int64_t M, int64_t N, double eps, tsr_tensor **mean,
                              tsr_tensor **rstd);
int tsr__layer_norm_backward_dev(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, int nshape,
                                 const int64_t *shape, double eps, tsr_tensor **dx, tsr_tensor **dw, tsr_tensor **db);
/* batch_norm over every dim but 1: training, the batch's mean and biased
 * variance, the running stats (when given) updated in place with momentum
 * and the unbiased variance; evaluation, the running stats. *save_mean /
 * *save_invstd (NULL: not wanted) the per-channel mean and 1 / sqrt(var +
 * eps) it used (float for the halves). */
tsr_tensor *tsr__batch_norm_dev(const tsr_tensor *x, tsr_tensor *rmean, tsr_tensor *rvar, const tsr_tensor *w,
                                const tsr_tensor *b, bool training, double momentum, double eps, tsr_tensor **save_mean,
                                tsr_tensor **save_invstd);
int tsr__batch_norm_backward_dev(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *mean,
                                 const tsr_tensor *invstd, bool train, tsr_tensor **dx, tsr_tensor **dw,
                                 tsr_tensor **db);
/* group_norm over (N, G, C / G * spatial); *mean / *rstd (N, G) of x's
 * dtype when mean is not NULL, as CUDA's kernel keeps them for the backward. */
tsr_tensor *tsr__group_norm_dev(const tsr_tensor *x, int64_t G, const tsr_tensor *w, const tsr_tensor *b, double eps,
                                tsr_tensor **mean, tsr_tensor **rstd);
int tsr__group_norm_backward_dev(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *mean,
                                 const tsr_tensor *rstd, int64_t G, tsr_tensor **dx, tsr_tensor **dw, tsr_tensor **db);

/* embedding_dense_backward: zeros (num_weights, dim) with g's rows added
 * at their indices (index_add_), padding_idx's rows left out,
 * scale_grad_by_freq dividing each row by its index's count. ix: the
 * indices flattened, int64. */
tsr_tensor *tsr__embedding_backward_dev(const tsr_tensor *g, const tsr_tensor *ix, int64_t num_weights,
                                        int64_t padding_idx, bool scale_grad_by_freq);

#endif
