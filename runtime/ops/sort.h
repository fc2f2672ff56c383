/* runtime/ops/sort.h — sort along a dim with 1.13's order of equal
 * elements (std::sort / std::stable_sort on (value, index) pairs, NaN
 * largest). Results are NEW references. */
#ifndef TSR_OPS_SORT_H
#define TSR_OPS_SORT_H
#include <stdbool.h>
#include <stdint.h>
#include "../tensor.h"

/* values and indices of x sorted along dim into *values / *indices; ov / oi
 * (out=) are resized and written too. 0 or -1. */
int tsr_sort(const tsr_tensor *x, int64_t dim, bool descending, bool stable, tsr_tensor *ov, tsr_tensor *oi,
             tsr_tensor **values, tsr_tensor **indices);

#endif
