/* runtime/kernels_scan.h — the scan and sort family a computing backend
 * offers (bodies in cuda/scan.h), included from kernels.h: cumulative ops,
 * per-row sorts and the selections built on them (kthvalue, median, mode),
 * and the binary searches of searchsorted / bucketize. Plain C, shared by
 * the runtime (ops/scan_dev.c) and the backends. */
#ifndef TSR_KERNELS_SCAN_H
#define TSR_KERNELS_SCAN_H
#include <stdint.h>

/* X(ID): one thread per row. The input (data[1]) is contiguous, seen as
 * (outer, n, inner): row r = (r / inner, r % inner) has its n elements
 * inner apart, all of dtype.
 *   CUMSUM, CUMPROD: data[0] (like the input) = the running sum / product,
 *     accumulated in acc_type<dtype, true> (float for float16, bfloat16
 *     and float32; int64 wrapping for the integers, which the store
 *     truncates as an accumulation in dtype would; complex part by part),
 *     rounded into dtype at each output only;
 *   LOGCUMSUMEXP: log(cumsum(exp)), 1.13's log_add_exp, likewise;
 *   CUMMAX, CUMMIN: data[0] the running extreme, data[2] (int64) its index:
 *     the later of equal values, and any NaN (which then stays);
 *   SORT: data[0] the row sorted (NaN greatest; stable; `descending`),
 *     data[2] the original positions;
 *   KTHVALUE (k: 0-based rank), MEDIAN (a NaN in the row: the first NaN),
 *     NANMEDIAN (the lower median of the non-NaN values), MODE (the
 *     smallest of the most frequent values, at its last position): one
 *     value and index per row, data[0] and data[2] contiguous (outer, inner);
 *   SEARCH: searchsorted. data[1] holds `outer` sorted rows of n boundaries
 *     (one row shared by all when outer is 1 and `shared`), data[3] the
 *     values, `inner` of them per row, data[4] the sorter (int64, like the
 *     boundaries) or NULL; data[0] gets each value's insertion point
 *     (int64, or int32 when `out_int32`): the first boundary > value with
 *     `right`, else >= value (NaN greatest).
 * The sorts use scratch the backend allocates (32 bytes an element).
 * ORDER KSCAN */
#define TSR_SCAN_LIST(X) \
    X(CUMSUM) X(CUMPROD) X(LOGCUMSUMEXP) X(CUMMAX) X(CUMMIN) X(SORT) X(KTHVALUE) X(MEDIAN) X(NANMEDIAN) X(MODE) \
    X(SEARCH)

typedef enum {
#define TSR_KS_ENUM_(id) TSR_KS_##id,
    TSR_SCAN_LIST(TSR_KS_ENUM_)
#undef TSR_KS_ENUM_
    TSR_KS_COUNT
} tsr_kscan_op;

typedef struct {
    int32_t op, dtype;
    int32_t descending, right, out_int32, shared;
    int64_t outer, n, inner;
    int64_t k;            /* KTHVALUE's rank, 0-based */
    char *data[5];
} tsr_kscan;

#endif
