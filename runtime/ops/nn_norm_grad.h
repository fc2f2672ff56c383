/* runtime/ops/nn_norm_grad.h — the backward kernels of the normalization
 * layers (nn_norm_grad.c) as 1.13's CPU kernels compute them; the autograd
 * formulas of autograd_fn.c call them. Results are NEW references or NULL
 * with the error recorded; arguments are borrowed. */
#ifndef TSR_OPS_NN_NORM_GRAD_H
#define TSR_OPS_NN_NORM_GRAD_H
#include <stdbool.h>
#include "../tensor.h"

/* native_layer_norm_backward (LayerNormBackwardKernelImplInternal): from
 * g and the forward's x, weight w (NULL: none), the normalized shape and
 * eps; *dx / *dw / *db receive the gradients asked for (NULL pointers:
 * not wanted). 0, or -1 with the error recorded (nothing returned). */
int tsr_nn_layer_norm_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, int nshape,
                               const int64_t *shape, double eps, tsr_tensor **dx, tsr_tensor **dw, tsr_tensor **db);

/* batch_norm's backward (batch_norm_backward_cpu_template and the
 * contiguous / channels_last kernels of batch_norm_kernel.cpp) from g, the
 * forward's x and weight (NULL: none), the per-channel mean and invstd it
 * normalized with (training: the batch's; evaluation: running_mean and
 * 1 / sqrt(running_var + eps)). Outputs as tsr_nn_layer_norm_backward. */
int tsr_nn_batch_norm_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *mean,
                               const tsr_tensor *invstd, bool train, tsr_tensor **dx, tsr_tensor **dw, tsr_tensor **db);

/* batch_norm's forward (nn_norm.c) that also returns the per-channel mean
 * and invstd it used (NEW references, as tsr_nn_batch_norm_backward takes
 * them); save_mean / save_invstd NULL: not wanted. */
tsr_tensor *tsr_nn_batch_norm_ex(const tsr_tensor *x, tsr_tensor *running_mean, tsr_tensor *running_var,
                                 const tsr_tensor *w, const tsr_tensor *b, bool training, double momentum, double eps,
                                 tsr_tensor **save_mean, tsr_tensor **save_invstd);

/* instance_norm (at::instance_norm: batch_norm over (1, N * C, *)) that
 * also returns its pieces for the graph in parts[7] (NEW references, NULL
 * when absent): the contiguous input, its (1, N * C, *) view, the repeated
 * weight and bias, batch_norm's result, its mean and invstd. */
/* instance_norm's first check (1.13's order: before anything else runs):
 * running stats are required when use_input_stats is false. 0/-1. */
int tsr_nn_instance_norm_check(const tsr_tensor *running_mean, const tsr_tensor *running_var, bool use_input_stats);
tsr_tensor *tsr_nn_instance_norm_ex(const tsr_tensor *x, tsr_tensor *running_mean, tsr_tensor *running_var,
                                    const tsr_tensor *w, const tsr_tensor *b, bool use_input_stats, double momentum,
                                    double eps, tsr_tensor **parts);

/* group_norm's forward (nn_norm.c) that also returns the per-(n, group)
 * mean and rstd it normalized with, (N, G) in x's dtype (NEW references;
 * mean NULL: not wanted). */
tsr_tensor *tsr_nn_group_norm_ex(const tsr_tensor *x, int64_t G, const tsr_tensor *w, const tsr_tensor *b, double eps,
                                 tsr_tensor **mean, tsr_tensor **rstd);

/* native_group_norm_backward (GroupNormBackwardKernelImplInternal of
 * group_norm_kernel.cpp) from g, the forward's x, weight w (NULL: none),
 * the forward's mean and rstd and the group count. Outputs as
 * tsr_nn_layer_norm_backward; dx has x's suggested memory format. */
int tsr_nn_group_norm_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *mean,
                               const tsr_tensor *rstd, int64_t G, tsr_tensor **dx, tsr_tensor **dw, tsr_tensor **db);

/* Internal (nn_norm.c): layer_norm's per-row mean and rstd, as its forward. */
void tsr__layer_norm_stats(tsr_dtype d, const void *x, int64_t M, int64_t N, double eps, void *mean, void *rstd);
/* the same for bfloat16, rounded to it as 1.13's forward saves them */
void tsr__layer_norm_stats_bf16(const tsr_bfloat16 *x, int64_t M, int64_t N, double eps, tsr_bfloat16 *mean,
                                tsr_bfloat16 *rstd);

#endif
