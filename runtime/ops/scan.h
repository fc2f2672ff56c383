/* runtime/ops/scan.h — cumulative ops along a dim (cumsum, cumprod, cummax,
 * cummin, logcumsumexp) with 1.13's accumulation types and tie rules.
 * Results are NEW references; an out= tensor is resized and returned. */
#ifndef TSR_OPS_SCAN_H
#define TSR_OPS_SCAN_H
#include <stdbool.h>
#include <stdint.h>
#include "../tensor.h"

/* cumsum (prod: cumprod) along dim; dtype TSR_DTYPE_UNDEFINED: out's dtype,
 * else int64 for integral and bool inputs, else x's. */
tsr_tensor *tsr_cumsum(const tsr_tensor *x, int64_t dim, tsr_dtype dtype, bool prod, tsr_tensor *out);
/* logcumsumexp along dim (float32, float64, bfloat16). */
tsr_tensor *tsr_logcumsumexp(const tsr_tensor *x, int64_t dim, tsr_tensor *out);
/* cummax / cummin: new references in *values / *indices. 0 or -1. */
int tsr_cummax(const tsr_tensor *x, int64_t dim, bool is_max, tsr_tensor *ov, tsr_tensor *oi, tsr_tensor **values,
               tsr_tensor **indices);

#endif
