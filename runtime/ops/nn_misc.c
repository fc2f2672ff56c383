/* runtime/ops/nn_misc.c — feature dropout's noise (see nn_misc.h). */
#include "nn_misc.h"
#include <math.h>

#include "binary.h"
#include "factory.h"
#include "nn.h"
#include "random.h"
#include "../error.h"
#include "../internal.h"

/* the bernoulli_(q) (N, C, 1, ...) mask of make_feature_noise. NEW or NULL. */
static tsr_tensor *feature_mask(const tsr_tensor *x, double q)
{
    if (x->ndim < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "Feature dropout requires at least 2 dimensions in the input");
        return NULL;
    }
    int64_t sizes[TSR_MAX_DIMS];
    for (int i = 0; i < x->ndim; i++) sizes[i] = i < 2 ? x->sizes[i] : 1;
    tsr_tensor *noise = tsr_empty(x->ndim, sizes, x->dtype, x->device, TSR_MF_CONTIGUOUS);
    /* (cuda: the CUDA generator, as 1.13's _dropout_impl's bernoulli_) */
    if (noise && tsr_bernoulli_(noise, q, tsr__nn_on_device(x) ? NULL : tsr_default_generator()) < 0)
        tsr__take(&noise, NULL);
    return noise;
}

/* t op= s in place; 0 or -1. */
static int bin_s_(tsr_binop op, tsr_tensor *t, tsr_scalar s)
{
    tsr_operand o = tsr_operand_scalar(s);
    return tsr__done(tsr_binary_(op, t, &o, NULL));
}

tsr_tensor *tsr_nn_feature_noise(const tsr_tensor *x, double p)
{
    if (p == 1) return tsr_zeros(0, NULL, x->dtype, x->device);
    tsr_tensor *noise = feature_mask(x, 1 - p);
    if (noise && bin_s_(TSR_BINOP_DIV, noise, tsr_scalar_float(1 - p)) < 0) tsr__take(&noise, NULL);
    return noise;
}

tsr_tensor *tsr_nn_feature_alpha_noise(const tsr_tensor *x, double p, tsr_tensor **b)
{
    const double alpha = 1.7580993408473766, a = 1. / sqrt((alpha * alpha * p + 1) * (1 - p));
    *b = NULL;
    tsr_tensor *noise = feature_mask(x, 1 - p);
    if (!noise) return NULL;
    tsr_operand on = tsr_operand_tensor(noise), m1 = tsr_operand_scalar(tsr_scalar_int(-1));
    /* b = noise.add(-1).mul_(alpha * a).add_(alpha * a * p); noise.mul_(a) */
    if (!(*b = tsr_binary(TSR_BINOP_ADD, &on, &m1, NULL, NULL)) || bin_s_(TSR_BINOP_MUL, *b, tsr_scalar_float(alpha * a)) < 0 ||
        bin_s_(TSR_BINOP_ADD, *b, tsr_scalar_float(alpha * a * p)) < 0 || bin_s_(TSR_BINOP_MUL, noise, tsr_scalar_float(a)) < 0) {
        tsr__take(b, NULL);
        tsr__take(&noise, NULL);
    }
    return noise;
}
