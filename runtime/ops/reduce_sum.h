/* runtime/ops/reduce_sum.h — private to runtime/ops/reduce*.c: the cascade
 * sum slab loops of SumKernel.cpp, one per float/complex dtype. */
#ifndef TSR_OPS_REDUCE_SUM_H
#define TSR_OPS_REDUCE_SUM_H
#include "reduce_iter.h"

/* The slab loop summing into an output of dtype d (input of the same dtype,
 * output zero-filled first), or NULL when 1.13's sum_cpu (nan: nansum_cpu)
 * has no kernel for d. */
rloop2d reduce_sum_loop(tsr_dtype d, bool nan);

#endif
