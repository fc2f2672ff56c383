/* runtime/ops/nn_misc.c — feature dropout's noise (see nn_misc.h). */
#include "nn_misc.h"
#include "binary.h"
#include "factory.h"
#include "random.h"
#include "../error.h"
#include "../internal.h"

tsr_tensor *tsr_nn_feature_noise(const tsr_tensor *x, double p)
{
    if (p == 1) return tsr_zeros(0, NULL, x->dtype, x->device);
    if (x->ndim < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "Feature dropout requires at least 2 dimensions in the input");
        return NULL;
    }
    int64_t sizes[TSR_MAX_DIMS];
    for (int i = 0; i < x->ndim; i++) sizes[i] = i < 2 ? x->sizes[i] : 1;
    tsr_tensor *noise = tsr_empty(x->ndim, sizes, x->dtype, x->device, TSR_MF_CONTIGUOUS);
    tsr_operand q = tsr_operand_scalar(tsr_scalar_float(1 - p));
    if (noise && (tsr_bernoulli_(noise, 1 - p, tsr_default_generator()) < 0 ||
                  tsr__done(tsr_binary_(TSR_BINOP_DIV, noise, &q, NULL)) < 0))
        tsr__take(&noise, NULL);
    return noise;
}
