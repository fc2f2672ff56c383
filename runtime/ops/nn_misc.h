/* runtime/ops/nn_misc.h — more torch.nn.functional kernels: feature dropout's noise. */
#ifndef TSR_OPS_NN_MISC_H
#define TSR_OPS_NN_MISC_H

#include "../tensor.h"

/* torch.feature_dropout's noise (Dropout.cpp's _dropout_impl with
 * feature_dropout) for p in (0, 1]: p == 1 gives zeros({}); else an
 * (N, C, 1, ...) tensor of x's dtype, bernoulli_(1 - p) from the default
 * generator, divided by 1 - p. x needs 2 dimensions or more. NEW or NULL. */
tsr_tensor *tsr_nn_feature_noise(const tsr_tensor *x, double p);

/* feature_alpha_dropout's noise for p in (0, 1): the (N, C, 1, ...)
 * bernoulli_(1 - p) mask m; returns m * a and sets *b to
 * (m - 1) * alpha * a + alpha * a * p (alpha 1.7580993408473766,
 * a = 1 / sqrt((alpha^2 p + 1)(1 - p))). NEW (both) or NULL. */
tsr_tensor *tsr_nn_feature_alpha_noise(const tsr_tensor *x, double p, tsr_tensor **b);

#endif
