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

/* median / nanmedian / mode (kind). dim NULL (median, nanmedian only): the
 * value of everything, *indices NULL. Along dim: values and indices as
 * 1.13 picks them (index-tiebroken nth_element; mode: the smallest most
 * frequent value, its index where std::sort leaves the group's last). */
enum { TSR_MEDIAN, TSR_NANMEDIAN, TSR_MODE };
int tsr_median(const tsr_tensor *x, const int64_t *dim, bool keepdim, int kind, tsr_tensor *ov, tsr_tensor *oi,
               tsr_tensor **values, tsr_tensor **indices);
/* topk: the k largest (smallest) along dim, as TopKImpl.h picks them
 * (partial_sort when k * 64 <= n, else nth_element and a sort of the
 * first k - 1). 0 or -1 ("selected index k out of range"). */
int tsr_topk(const tsr_tensor *x, int64_t k, int64_t dim, bool largest, bool sorted, tsr_tensor *ov, tsr_tensor *oi,
             tsr_tensor **values, tsr_tensor **indices);
/* kthvalue: the k-th smallest along dim (Sorting.cpp's quick select). */
int tsr_kthvalue(const tsr_tensor *x, int64_t k, int64_t dim, bool keepdim, tsr_tensor *ov, tsr_tensor *oi,
                 tsr_tensor **values, tsr_tensor **indices);

/* libstdc++'s std::sort with operator< (NaN compares false) over the keys
 * fkeys[order[j]] (ikeys when non-NULL: integral keys): order is permuted in
 * place. 0, or -1 when the buffer cannot be allocated. */
int tsr__std_sort_order(int64_t n, const double *fkeys, const int64_t *ikeys, int64_t *order);

#endif
