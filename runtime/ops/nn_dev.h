/* runtime/ops/nn_dev.h — torch.nn.functional's ops on a device the host
 * cannot read (cuda), composed of device-aware runtime ops (the elementwise
 * engine, the device reductions, copies) in the compute type PyTorch's CUDA
 * kernels use (float for float16 / bfloat16). Internal to the runtime.
 * Results are NEW references or NULL with the error set; arguments borrowed. */
#ifndef TSR_OPS_NN_DEV_H
#define TSR_OPS_NN_DEV_H
#include <stdbool.h>
#include "../tensor.h"
#include "nn.h"

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
