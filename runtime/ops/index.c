/* runtime/ops/index.c — nonzero (aten/src/ATen/native/TensorAdvancedIndexing.cpp
 * nonzero_out_cpu, nonzero_numpy): count, then write the coordinates of each
 * non-zero element in row-major order. */
#include "../error.h"
#include "../view.h"
#include "copy.h"
#include "index.h"
#include "index_dev.h"
#include "scatter.h"
#include "walk.h"

/* The rows of a (rows, n) block, as NEW references in cols; 0 or -1. */
static int block_rows(tsr_tensor *block, int rows, int *nd, tsr_tensor **cols)
{
    for (int d = 0; d < rows; d++) {
        cols[d] = tsr_view_select(block, 0, d);
        if (!cols[d]) {
            while (d--) tsr_tensor_release(cols[d]);
            return -1;
        }
    }
    *nd = rows;
    return 0;
}

/* nonzero_tuple on a device: the (n, ndim) result transposed into the
 * (ndim, n) block on the device; a zero-dim c gives one row of zeros. */
static int nonzero_tuple_dev(const tsr_tensor *c, int *nd, tsr_tensor **cols)
{
    tsr_tensor *nz = tsr__dev_nonzero(c), *block = NULL;
    if (!nz) return -1;
    int rows = c->ndim ? c->ndim : 1, rc = -1;
    int64_t shape[2] = {rows, nz->sizes[0]};
    if (!(block = tsr_tensor_empty(2, shape, TSR_INT64, c->device))) goto done;
    if (c->ndim == 0) {
        if (tsr_zero_(block) < 0) goto done;
    } else {
        tsr_tensor *t = tsr_view_transpose(nz, 0, 1);
        int r = t ? tsr_copy_(block, t) : -1;
        tsr_tensor_release(t);
        if (r < 0) goto done;
    }
    rc = block_rows(block, rows, nd, cols);
done:
    tsr_tensor_release(nz);
    tsr_tensor_release(block);
    return rc;
}

int tsr_nonzero_tuple(const tsr_tensor *c, int *nd, tsr_tensor **cols)
{
    if (tsr_tensor_is_meta(c)) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
        return -1;
    }
    int rows = c->ndim ? c->ndim : 1;
    if (tsr__dev_external(c)) return nonzero_tuple_dev(c, nd, cols);
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
    int rc = block_rows(block, rows, nd, cols);
    tsr_tensor_release(block);
    return rc;
}

/* ------------------------------------------------------------ nonzero */

typedef struct { tsr_dtype dt; int nd; const int64_t *sizes; int64_t n, cnt, cap, *out; } nz_ctx;

static bool nz_test(tsr_dtype dt, const char *p)
{
    if (dt == TSR_BOOL || dt == TSR_UINT8 || dt == TSR_INT8) return *p != 0;
    return tsr_scalar_to_bool(tsr_scalar_load(dt, p));
}

static int nz_count(char **p, const int64_t *inner, int64_t n, int64_t row, void *ctx)
{
    nz_ctx *c = ctx;
    (void)row;
    int64_t cnt = 0;
    if (c->dt == TSR_BOOL || c->dt == TSR_UINT8 || c->dt == TSR_INT8) {
        const char *q = p[0];
        for (int64_t i = 0; i < n; i++) cnt += q[i * inner[0]] != 0;
    } else {
        for (int64_t i = 0; i < n; i++) cnt += nz_test(c->dt, p[0] + i * inner[0]);
    }
    c->cnt += cnt;
    return 0;
}

static int nz_fill(char **p, const int64_t *inner, int64_t n, int64_t row, void *ctx)
{
    nz_ctx *c = ctx;
    for (int64_t i = 0; i < n && c->cnt < c->cap; i++) {
        if (!nz_test(c->dt, p[0] + i * inner[0])) continue;
        int64_t *o = c->out + c->cnt * c->nd;
        if (c->nd == 1) o[0] = i;
        else if (c->nd > 1) tsr_unravel(c->nd, c->sizes, row * n + i, o);
        c->cnt++;
    }
    return 0;
}

tsr_tensor *tsr_nonzero(const tsr_tensor *c)
{
    if (tsr_tensor_is_meta(c)) {
        tsr_meta_refused("nonzero");
        return NULL;
    }
    if (tsr__dev_external(c)) return tsr__dev_nonzero(c);
    walk w = {.nd = c->ndim, .nop = 1};
    for (int d = 0; d < c->ndim; d++) w.sizes[d] = c->sizes[d];
    walk_operand(&w, 0, c);
    nz_ctx x = {.dt = c->dtype, .nd = c->ndim, .sizes = c->sizes};
    if (walk_run(&w, nz_count, &x) < 0) return NULL;
    int64_t shape[2] = {x.cnt, c->ndim};
    tsr_tensor *r = tsr_tensor_empty(2, shape, TSR_INT64, c->device);
    if (!r) return NULL;
    x.cap = x.cnt;
    x.cnt = 0;
    x.out = x.cap && c->ndim ? tsr_tensor_ptr(r, NULL) : NULL;
    if (x.out && walk_run(&w, nz_fill, &x) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}
