/* runtime/ops/reduce_dims.h — the dims argument of a reduction, shared by
 * the public reduce.h and the private iterator (reduce_iter.h). */
#ifndef TSR_OPS_REDUCE_DIMS_H
#define TSR_OPS_REDUCE_DIMS_H
#include <stdint.h>
#include "../tensor.h"

/* The dims of a reduction: n < 0 (or n == 0, as 1.13 reads dim=[]) reduces
 * every dim; negative dims wrap. */
typedef struct { int n; int64_t d[TSR_MAX_DIMS]; } tsr_dims;

#endif
