/* runtime/ops/nn_pool_dev.h — pooling on a device (cuda), composed of
 * device-aware ops (nn_pool_dev.c): windows as strided views of the padded
 * input, reduced on the device; window tables (indices, divisors) depend on
 * sizes only and are built on the host. Results are NEW references or NULL
 * with the error recorded; arguments are borrowed. */
#ifndef TSR_OPS_NN_POOL_DEV_H
#define TSR_OPS_NN_POOL_DEV_H
#include <stdbool.h>
#include "../tensor.h"

/* The geometry of one pooling over nd (2 or 3) trailing spatial dims:
 * kernel, stride, padding, dilation, output sizes; avg's count_include_pad
 * and divisor_override. */
typedef struct {
    int nd;
    int64_t k[3], s[3], p[3], d[3], o[3];
    bool cip, hasdiv;
    int64_t div;
} tsr_pool_geom;

typedef enum { TSR_POOL_MAX, TSR_POOL_AVG, TSR_POOL_ADAPTIVE_MAX, TSR_POOL_ADAPTIVE_AVG } tsr_pool_kind;

static inline bool tsr__pool_external(const tsr_tensor *t)
{
    return t && t->device.type != TSR_DEV_CPU && t->device.type != TSR_DEV_META;
}

/* kind over x (nd + 1 or nd + 2 dims); adaptive kinds read g->o only. The
 * output (and the int64 flat plane indices of the max kinds into *indices
 * when indices is not NULL) in x's suggested memory format when batched.
 * kname names the dtype refusal ("X" not implemented for 'T'). */
tsr_tensor *tsr__pool_dev(tsr_pool_kind kind, const char *kname, const tsr_tensor *x, const tsr_pool_geom *g,
                          tsr_tensor **indices);
/* The gradient of x from grad_output go: the max kinds scatter-add go at
 * the indices; avg and adaptive avg spread go / divisor over each window. */
tsr_tensor *tsr__pool_dev_backward(tsr_pool_kind kind, const char *kname, const tsr_tensor *go, const tsr_tensor *x,
                                   const tsr_tensor *indices, const tsr_pool_geom *g);

#endif
