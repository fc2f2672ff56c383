/* runtime/ops/index.c — nonzero (aten/src/ATen/native/TensorAdvancedIndexing.cpp
 * nonzero_out_cpu, nonzero_numpy): count, then write the coordinates of each
 * non-zero element in row-major order. */
#include "../error.h"
#include "../view.h"
#include "index.h"

int tsr_nonzero_tuple(const tsr_tensor *c, int *nd, tsr_tensor **cols)
{
    if (tsr_tensor_is_meta(c)) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
        return -1;
    }
    int rows = c->ndim ? c->ndim : 1;
    int64_t n = tsr_tensor_numel(c), cnt = 0;
    for (int64_t i = 0; i < n; i++) {
        tsr_scalar s;
        if (tsr_tensor_get_at(c, i, &s) < 0) return -1;
        cnt += tsr_scalar_to_bool(s);
        if ((i & 0xffff) == 0 && tsr_check_interrupt() < 0) return -1;
    }
    int64_t shape[2] = {rows, cnt};
    tsr_tensor *block = tsr_tensor_empty(2, shape, TSR_INT64, c->device);
    if (!block) return -1;
    int64_t *p = cnt ? tsr_tensor_ptr(block, NULL) : NULL, idx[TSR_MAX_DIMS], k = 0;
    for (int64_t i = 0; i < n && k < cnt; i++) {
        tsr_scalar s;
        tsr_tensor_get_at(c, i, &s);
        if (!tsr_scalar_to_bool(s)) continue;
        if (c->ndim == 0) { p[k++] = 0; continue; }
        tsr_unravel(c->ndim, c->sizes, i, idx);
        for (int d = 0; d < rows; d++) p[d * cnt + k] = idx[d];
        k++;
    }
    for (int d = 0; d < rows; d++) {
        cols[d] = tsr_view_select(block, 0, d);
        if (!cols[d]) {
            while (d--) tsr_tensor_release(cols[d]);
            tsr_tensor_release(block);
            return -1;
        }
    }
    tsr_tensor_release(block);
    *nd = rows;
    return 0;
}
