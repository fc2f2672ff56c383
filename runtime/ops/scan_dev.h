/* runtime/ops/scan_dev.h — private to runtime/ops/: the scan, sort and
 * search family on a device whose memory the host cannot read (cuda),
 * through the backend's scan entry (runtime/kernels_scan.h). The callers
 * (scan.c, sort.c, search.c) keep the CPU's checks and result rules. */
#ifndef TSR_OPS_SCAN_DEV_H
#define TSR_OPS_SCAN_DEV_H
#include <stdbool.h>
#include <stdint.h>
#include "../tensor.h"

/* Whether x lives on a device the host cannot read. */
bool scan_on_device(const tsr_tensor *x);
/* Scan or sort op (TSR_KS_*, not SEARCH) of x along dim: x is cast to
 * dtype and made contiguous; v (dtype) and ix (int64, or NULL) are
 * contiguous results on x's device: x's shape for the scans and SORT, one
 * element per row for the selections (KTHVALUE with rank k). 0, or -1 with
 * an error ("Could not run 'ATEN' ..." when the backend has no kernel). */
int scan_device(int op, const tsr_tensor *x, int64_t dim, tsr_dtype dtype, tsr_tensor *v, tsr_tensor *ix,
                int64_t k, bool descending, const char *aten);
/* searchsorted on the device: bk (rows of n sorted boundaries) and vk
 * (inner values per row; shared: one row for all) contiguous of one dtype
 * (int64 or float64), sk the contiguous int64 sorter or NULL, into the
 * contiguous r (int64, or int32 with out_int32). 0 or -1. */
int search_device(const tsr_tensor *bk, const tsr_tensor *vk, const tsr_tensor *sk, bool shared, int64_t rows,
                  int64_t n, int64_t inner, bool right, tsr_tensor *r, const char *aten);

#endif
