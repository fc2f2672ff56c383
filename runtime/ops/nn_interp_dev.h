/* runtime/ops/nn_interp_dev.h — F.interpolate's upsampling on a device
 * (cuda), composed of device-aware ops (nn_interp_dev.c): per spatial dim,
 * index_select of host-built source indices times host-built weights.
 * Results are NEW references or NULL with the error recorded; arguments are
 * borrowed. */
#ifndef TSR_OPS_NN_INTERP_DEV_H
#define TSR_OPS_NN_INTERP_DEV_H
#include <stdbool.h>
#include "../tensor.h"

/* ORDER: the nearest kinds first, then those with weights */
typedef enum {
    TSR_INTERP_NEAREST, TSR_INTERP_NEAREST_EXACT, TSR_INTERP_LINEAR, TSR_INTERP_CUBIC, TSR_INTERP_AA_LINEAR,
    TSR_INTERP_AA_CUBIC
} tsr_interp_kind;

static inline bool tsr__interp_external(const tsr_tensor *t)
{
    return t && t->device.type != TSR_DEV_CPU && t->device.type != TSR_DEV_META;
}

/* upsample of x (N, C, k spatial dims) to out[k] (scales as the CPU
 * kernels take them: NULL or <= 0 entries for none), in x's suggested
 * memory format, after the common checks. */
tsr_tensor *tsr__upsample_dev(tsr_interp_kind kind, const tsr_tensor *x, const int64_t *out, const double *scales,
                              bool align_corners);
/* Its backward: the contiguous gradient of the input of in_sizes from g. */
tsr_tensor *tsr__upsample_dev_backward(tsr_interp_kind kind, const tsr_tensor *g, const int64_t *in_sizes,
                                       const double *scales, bool align_corners);

/* Internal (nn_interp_aa.c): the antialiased taps of one dim of in -> out
 * as the CPU kernels compute them (T = double when dbl, else float):
 * *taps per output, (*idx)[o * taps + j] the source (clamped to in - 1 past
 * the window, weight 0 there) and (*w)[...] the normalised weight. *idx
 * and *w NEW (tsr_free). 0 or -1. */
int tsr__upsample_aa_taps(int64_t in, int64_t out, double scale, bool ac, bool cubic, bool dbl, int64_t *taps,
                          int64_t **idx, double **w);

#endif
