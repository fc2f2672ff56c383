/* runtime/ops/rearrange.c — flip, roll, rot90, repeat/tile, repeat_interleave,
 * tril/triu, diag and friends, broadcast_tensors, meshgrid (1.13's
 * TensorTransformations.cpp, TensorShape.cpp, TriangularOps.cpp). Element
 * moves are views (negative strides for flip) handed to copy_. */
#include <stdlib.h>
#include <string.h>
#include "../error.h"
#include "../op.h"
#include "../internal.h"
#include "../iter.h"
#include "../view.h"
#include "copy.h"
#include "index_dev.h"
#include "scatter.h"
#include "join.h"
#include "rearrange.h"
#include "shape.h"

/* A new tensor laid out like t (preserve_format) with t's values copied
 * from src (same shape). */
static tsr_tensor *copy_like(const tsr_tensor *t, const tsr_tensor *src)
{
    int64_t st[TSR_MAX_DIMS];
    tsr_strides_preserve(t->ndim, t->sizes, t->strides, st);
    tsr_tensor *r = tsr_tensor_empty_strided(t->ndim, t->sizes, st, t->dtype, t->device);
    if (r && tsr_copy_(r, src) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

tsr_tensor *tsr_flip(const tsr_tensor *t, int n, const int64_t *dims)
{
    bool flip[TSR_MAX_DIMS] = {false};
    for (int i = 0; i < n; i++) {
        int d = tsr_wrap_dim(dims[i], t->ndim);
        if (d < 0) return NULL;
        if (flip[d]) {
            tsr_error_set(TSR_ERR_RUNTIME, "dim %d appears multiple times in the list of dims", d);
            return NULL;
        }
        flip[d] = true;
    }
    int64_t st[TSR_MAX_DIMS], off = t->storage_offset;
    bool empty = tsr_tensor_numel(t) == 0;
    for (int d = 0; d < t->ndim; d++) {
        st[d] = t->strides[d];
        if (flip[d] && !empty) {
            off += (t->sizes[d] - 1) * t->strides[d];
            st[d] = -t->strides[d];
        }
    }
    tsr_tensor *v = tsr_tensor_alias(t, t->ndim, t->sizes, st, off);
    if (!v) return NULL;
    tsr_tensor *r = copy_like(t, v);
    tsr_tensor_release(v);
    return r;
}

tsr_tensor *tsr_flip_lr_ud(const tsr_tensor *t, bool lr)
{
    if (t->ndim < (lr ? 2 : 1)) {
        tsr_error_set(TSR_ERR_RUNTIME, "Input must be >= %d-d.", lr ? 2 : 1);
        return NULL;
    }
    int64_t d = lr ? 1 : 0;
    return tsr_flip(t, 1, &d);
}

/* roll_cpu: one shift along one dim, as a cat of two narrows. */
static tsr_tensor *roll1(const tsr_tensor *t, int64_t shift, int64_t dim)
{
    if (tsr_tensor_numel(t) == 0) return tsr_clone(t, TSR_MF_PRESERVE);
    int d = tsr_wrap_dim(dim, t->ndim);
    if (d < 0) return NULL;
    int64_t size = t->sizes[d], start = (size - shift) % size;
    if (start < 0) start += size;
    tsr_tensor *p[2] = {tsr_view_narrow(t, d, start, size - start), NULL};
    if (p[0]) p[1] = tsr_view_narrow(t, d, 0, start);
    tsr_tensor *r = p[1] ? tsr_cat(2, (const tsr_tensor *const *)p, d, NULL) : NULL;
    tsr_tensor_release(p[0]);
    tsr_tensor_release(p[1]);
    return r;
}

tsr_tensor *tsr_roll(const tsr_tensor *t, int ns, const int64_t *shifts, int nd, const int64_t *dims)
{
    if (nd == 1 && ns == 1) return roll1(t, shifts[0], dims[0]);
    if (ns == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "`shifts` required");
        return NULL;
    }
    if (nd == 0 && ns == 1) {
        int64_t n = tsr_tensor_numel(t);
        tsr_tensor *c = tsr_contiguous(t, TSR_MF_CONTIGUOUS);
        tsr_tensor *f = c ? tsr_view_view(c, 1, &n) : NULL;
        tsr_tensor *r = f ? roll1(f, shifts[0], 0) : NULL;
        tsr_tensor *v = r ? tsr_view_view(r, t->ndim, t->sizes) : NULL;
        tsr_tensor_release(c);
        tsr_tensor_release(f);
        tsr_tensor_release(r);
        return v;
    }
    if (ns != nd) {
        tsr_error_set(TSR_ERR_RUNTIME, "shifts and dimensions must align. shifts: %d, dims:%d", ns, nd);
        return NULL;
    }
    tsr_tensor *r = tsr_tensor_retain((tsr_tensor *)t);
    for (int i = 0; i < ns && r; i++) {
        tsr_tensor *x = roll1(r, shifts[i], dims[i]);
        tsr_tensor_release(r);
        r = x;
    }
    return r;
}

tsr_tensor *tsr_rot90(const tsr_tensor *t, int64_t k, int nd, const int64_t *dims)
{
    int64_t n = t->ndim;
    if (nd != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "expected total rotation dims == 2, but got dims = %d", nd);
        return NULL;
    }
    if (n < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "expected total dims >= 2, but got total dims = %lld", (long long)n);
        return NULL;
    }
    if (dims[0] == dims[1] || llabs(dims[0] - dims[1]) == n) {
        tsr_error_set(TSR_ERR_RUNTIME, "expected rotation dims to be different, but got dim0 = %lld and dim1 = %lld",
                      (long long)dims[0], (long long)dims[1]);
        return NULL;
    }
    for (int i = 0; i < 2; i++)
        if (dims[i] >= n || dims[i] < -n) {
            tsr_error_set(TSR_ERR_RUNTIME, "Rotation dim%d out of range, dim%d = %lld", i, i, (long long)dims[i]);
            return NULL;
        }
    k = (4 + (k % 4)) % 4;
    tsr_tensor *f, *r;
    switch (k) {
    case 1: case 3:
        f = tsr_flip(t, 1, &dims[k == 1 ? 1 : 0]);
        r = f ? tsr_view_transpose(f, dims[0], dims[1]) : NULL;
        tsr_tensor_release(f);
        return r;
    case 2: return tsr_flip(t, 2, dims);
    default: return tsr_clone(t, TSR_MF_CONTIGUOUS);
    }
}

tsr_tensor *tsr_repeat(const tsr_tensor *t, int n, const int64_t *repeats)
{
    if (n < t->ndim) {
        tsr_error_set(TSR_ERR_RUNTIME, "Number of dimensions of repeat dims can not be smaller than number of "
                      "dimensions of tensor");
        return NULL;
    }
    int extra = n - t->ndim;
    int64_t padded[TSR_MAX_DIMS], target[TSR_MAX_DIMS], numel;
    for (int i = 0; i < n; i++) {
        padded[i] = i < extra ? 1 : t->sizes[i - extra];
        target[i] = padded[i] * repeats[i];
    }
    if (tsr_check_sizes(n, target, &numel) < 0) return NULL;
    tsr_tensor *r = tsr_tensor_empty(n, target, t->dtype, t->device);
    if (!r || numel == 0 || tsr_device_is_meta(r->device)) return r;
    if (2 * n > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr supports at most %d dimensions, got %d", TSR_MAX_DIMS, 2 * n);
        goto fail;
    }
    /* r viewed as (r0, s0, r1, s1, ...) receives t viewed as (1, s0, 1, s1, ...) */
    int64_t rs[TSR_MAX_DIMS], rst[TSR_MAX_DIMS], xs[TSR_MAX_DIMS], xst[TSR_MAX_DIMS];
    for (int i = 0; i < n; i++) {
        rs[2 * i] = repeats[i];
        rs[2 * i + 1] = padded[i];
        xs[2 * i] = repeats[i];
        xs[2 * i + 1] = padded[i];
        xst[2 * i] = 0;
        xst[2 * i + 1] = i < extra ? 0 : t->strides[i - extra];
    }
    tsr_strides_contiguous(2 * n, rs, rst);
    tsr_tensor *rv = tsr_tensor_alias(r, 2 * n, rs, rst, 0);
    tsr_tensor *xv = rv ? tsr_tensor_alias(t, 2 * n, xs, xst, t->storage_offset) : NULL;
    int rc = xv ? tsr_copy_(rv, xv) : -1;
    tsr_tensor_release(rv);
    tsr_tensor_release(xv);
    if (rc < 0) goto fail;
    return r;
fail:
    tsr_tensor_release(r);
    return NULL;
}

tsr_tensor *tsr_tile(const tsr_tensor *t, int n, const int64_t *reps)
{
    int64_t r[TSR_MAX_DIMS];
    int m = n;
    if (t->ndim > n) {
        int extra = t->ndim - n;
        for (int i = 0; i < extra; i++) r[i] = 1;
        memcpy(r + extra, reps, sizeof(int64_t) * (size_t)n);
        m = t->ndim;
    } else {
        memcpy(r, reps, sizeof(int64_t) * (size_t)n);
    }
    return tsr_repeat(t, m, r);
}

/* Element k of an integral tensor t (1-d or 0-dim), as int64. */
static int64_t elem(const tsr_tensor *t, int64_t k)
{
    return t->ndim == 0 ? tsr_tensor_get_int64(t, NULL) : tsr_tensor_get_int64(t, &k);
}

/* at::repeat_interleave(repeats): each index i repeated repeats[i] times. */
static tsr_tensor *repeat_indices(const tsr_tensor *rep, int64_t output_size)
{
    if (rep->dtype != TSR_INT64 && rep->dtype != TSR_INT32) {   /* AT_DISPATCH_INDEX_TYPES comes first */
        tsr__not_implemented("repeat_interleave_cpu", rep->dtype);
        return NULL;
    }
    if (rep->ndim != 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "repeat_interleave only accept 1D vector as repeat");
        return NULL;
    }
    int64_t n = rep->sizes[0], total = 0;
    if (n == 0) return tsr_tensor_empty(1, &n, rep->dtype, rep->device);
    if (tsr_device_is_meta(rep->device)) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
        return NULL;
    }
    if (tsr__dev_external(rep)) return tsr__dev_repeat_indices(rep, output_size);
    bool neg = false;
    for (int64_t i = 0; i < n; i++) {
        total += elem(rep, i);
        neg |= elem(rep, i) < 0;
    }
    if (output_size >= 0) total = output_size;
    else if (neg) {
        tsr_error_set(TSR_ERR_RUNTIME, "repeats can not be negative");
        return NULL;
    }
    tsr_tensor *r = tsr_tensor_empty(1, &total, rep->dtype, rep->device);
    if (!r) return NULL;
    int64_t k = 0;
    for (int64_t i = 0; i < n && k < total; i++)
        for (int64_t j = 0; j < elem(rep, i) && k < total; j++) tsr_tensor_set_at(r, k++, tsr_scalar_int(i));
    return r;
}

tsr_tensor *tsr_repeat_interleave(const tsr_tensor *self, const tsr_tensor *repeats, int64_t rint, bool has_dim,
                                  int64_t dim, int64_t output_size)
{
    if (!self) return repeat_indices(repeats, output_size);
    tsr_tensor *input = NULL, *rep = NULL, *idx = NULL, *r = NULL;
    if (has_dim) input = tsr_tensor_retain((tsr_tensor *)self);
    else {
        int64_t m1 = -1;
        input = tsr_reshape(self, 1, &m1);
        dim = 0;
    }
    if (!input) return NULL;
    int d = tsr_wrap_dim(dim, input->ndim);
    if (d < 0) goto done;
    int64_t len = input->ndim ? input->sizes[d] : 1;
    if (!repeats) {
        int64_t one = 1;
        rep = tsr_tensor_empty(1, &one, TSR_INT64, self->device);
        if (!rep || tsr_tensor_set_at(rep, 0, tsr_scalar_int(rint)) < 0) goto done;
        repeats = rep;
    }
    if (repeats->ndim == 0 || (repeats->ndim == 1 && repeats->sizes[0] == 1)) {
        int64_t one = 1;
        tsr_tensor *v = tsr_reshape(repeats, 1, &one);
        tsr_tensor *e = v ? tsr_view_expand(v, 1, &len) : NULL;
        tsr_tensor_release(v);
        tsr_tensor_release(rep);
        rep = e;
        if (!rep) goto done;
        repeats = rep;
    } else if (repeats->ndim == 1) {
        if (repeats->sizes[0] != len) {
            tsr_error_set(TSR_ERR_RUNTIME, "repeats must have the same size as input along dim");
            goto done;
        }
    } else {
        tsr_error_set(TSR_ERR_RUNTIME, "repeats must be 0-dim or 1-dim tensor");
        goto done;
    }
    idx = repeat_indices(repeats, output_size);
    if (!idx) goto done;
    /* input.index_select(dim, idx) */
    if (tsr__dev_external(input)) {
        r = tsr_index_select(input, d, idx);
        goto done;
    }
    int64_t sizes[TSR_MAX_DIMS];
    memcpy(sizes, input->sizes, sizeof(int64_t) * (size_t)input->ndim);
    int64_t m = idx->sizes[0];
    sizes[d] = m;
    r = tsr_tensor_empty(input->ndim, sizes, input->dtype, input->device);
    for (int64_t k = 0; r && k < m; k++) {
        tsr_tensor *dst = tsr_view_select(r, d, k);
        tsr_tensor *src = dst ? tsr_view_select(input, d, tsr_tensor_get_int64_at(idx, k)) : NULL;
        int rc = src ? tsr_copy_(dst, src) : -1;
        tsr_tensor_release(dst);
        tsr_tensor_release(src);
        if (rc < 0) {
            tsr_tensor_release(r);
            r = NULL;
        }
    }
done:
    tsr_tensor_release(input);
    tsr_tensor_release(rep);
    tsr_tensor_release(idx);
    return r;
}

/* ------------------------------------------------------------ tril / triu */

/* 1.13 reads self.size(-2) first: its IndexError for fewer than 2 dims. */
static int check_matrix(const tsr_tensor *t)
{
    if (t->ndim == 0) {
        tsr_error_set(TSR_ERR_INDEX, "Dimension specified as -2 but tensor has no dimensions");
        return -1;
    }
    return t->ndim < 2 ? tsr_wrap_dim(-2, t->ndim) : 0;
}

int tsr_tril_(tsr_tensor *t, int64_t diagonal, bool upper)
{
    if (check_matrix(t) < 0) return -1;
    if (tsr_device_is_meta(t->device) || tsr_tensor_numel(t) == 0) return 0;
    if (tsr__dev_external(t)) return tsr__dev_tri(t, diagonal, upper);
    int nd = t->ndim, isz = tsr_tensor_itemsize(t);
    int64_t rows = t->sizes[nd - 2], cols = t->sizes[nd - 1], sr = t->strides[nd - 2], sc = t->strides[nd - 1];
    int64_t batch = tsr_tensor_numel(t) / (rows * cols), idx[TSR_MAX_DIMS] = {0};
    char *base = tsr_tensor_ptr(t, NULL);
    for (int64_t b = 0; b < batch; b++) {
        int64_t off = 0;
        for (int d = 0; d < nd - 2; d++) off += idx[d] * t->strides[d];
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < cols; j++) {
                bool zero = upper ? j - i < diagonal : j - i > diagonal;
                if (zero) memset(base + (off + i * sr + j * sc) * isz, 0, (size_t)isz);
            }
        for (int d = nd - 3; d >= 0; d--) {
            if (++idx[d] < t->sizes[d]) break;
            idx[d] = 0;
        }
        if (tsr_check_interrupt() < 0) return -1;
    }
    return 0;
}

tsr_tensor *tsr_tril(const tsr_tensor *t, int64_t diagonal, bool upper, tsr_tensor *out)
{
    if (check_matrix(t) < 0) return NULL;
    if (out && out->dtype != t->dtype) return tsr_out_assign(tsr_tensor_retain((tsr_tensor *)t), out, true);
    tsr_tensor *r = tsr_clone(t, TSR_MF_CONTIGUOUS);
    if (r && tsr_tril_(r, diagonal, upper) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return tsr_out_assign(r, out, true);
}

/* TriangularOps.cpp get_tril_size. */
static int64_t tril_size(int64_t row, int64_t col, int64_t offset)
{
    if (row == 0 || col == 0) return 0;
    int64_t first = offset > 0 ? (col < 1 + offset ? col : 1 + offset) : row + offset > 0;
    int64_t last = col < row + offset ? col : row + offset;
    if (last < 0) last = 0;
    int64_t nall = row < row + offset ? row : row + offset;
    if (nall < 0) nall = 0;
    int64_t ntrap = last - first + 1;
    int64_t size = (first + last) * ntrap >> 1;
    if (nall - ntrap > 0) size += (nall - ntrap) * col;
    return size;
}

tsr_tensor *tsr_tril_indices(int64_t row, int64_t col, int64_t offset, bool upper, tsr_dtype dtype, tsr_device dev)
{
    if (row < 0 || col < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s must be non-negative, got%lld", row < 0 ? "row" : "col",
                      (long long)(row < 0 ? row : col));
        return NULL;
    }
    int64_t n = upper ? row * col - tril_size(row, col, offset - 1) : tril_size(row, col, offset);
    int64_t sizes[2] = {2, n};
    tsr_tensor *r = tsr_tensor_empty(2, sizes, dtype, dev);
    if (!r) return NULL;
    if (dtype != TSR_INT32 && dtype != TSR_INT64) {   /* AT_DISPATCH_INDEX_TYPES */
        tsr_tensor_release(r);
        tsr__not_implemented(upper ? "triu_indices" : "tril_indices", dtype);
        return NULL;
    }
    if (tsr_device_is_meta(dev)) return r;
    int64_t i = 0, rr, c;
    if (upper) { rr = 0; c = offset > 0 ? offset : 0; }
    else { rr = -offset > 0 ? -offset : 0; c = 0; }
    while (i < n) {
        tsr_tensor_set_at(r, i, tsr_scalar_int(rr));
        tsr_tensor_set_at(r, n + i, tsr_scalar_int(c));
        i++;
        c++;
        if (upper) {
            if (c >= col) {
                rr++;
                c = rr + offset > 0 ? rr + offset : 0;
            }
        } else if (c > rr + offset || c >= col) {
            rr++;
            c = 0;
        }
    }
    return r;
}

tsr_tensor *tsr_diag_embed(const tsr_tensor *t, int64_t offset, int64_t dim1, int64_t dim2)
{
    int nd = t->ndim + 1;
    int d1 = tsr_wrap_dim(dim1, nd), d2 = d1 < 0 ? -1 : tsr_wrap_dim(dim2, nd);
    if (d1 < 0 || d2 < 0) return NULL;
    if (d1 == d2) {
        tsr_error_set(TSR_ERR_RUNTIME, "diagonal dimensions cannot be identical %lld, %lld", (long long)dim1,
                      (long long)dim2);
        return NULL;
    }
    if (t->ndim == 0) {
        tsr_error_set(TSR_ERR_INDEX, "Dimension specified as -1 but tensor has no dimensions");
        return NULL;
    }
    int64_t len = llabs(offset) + t->sizes[t->ndim - 1], sizes[TSR_MAX_DIMS];
    int lo = d1 < d2 ? d1 : d2, hi = d1 < d2 ? d2 : d1, k = 0;
    for (int i = 0; i < nd; i++) sizes[i] = (i == lo || i == hi) ? len : t->sizes[k++];
    tsr_tensor *r = tsr_tensor_empty(nd, sizes, t->dtype, t->device);
    if (!r || tsr_zero_(r) < 0) goto fail;
    tsr_tensor *dg = tsr_view_diagonal(r, offset, d1, d2);
    int rc = dg ? tsr_copy_(dg, t) : -1;
    tsr_tensor_release(dg);
    if (rc < 0) goto fail;
    return r;
fail:
    tsr_tensor_release(r);
    return NULL;
}

tsr_tensor *tsr_diag(const tsr_tensor *t, int64_t diagonal, tsr_tensor *out)
{
    if (t->ndim != 1 && t->ndim != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "matrix or a vector expected");
        return NULL;
    }
    if (out && out->dtype != t->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(t->dtype),
                      tsr_dtype_scalar_name(out->dtype));
        return NULL;
    }
    if (t->dtype == TSR_FLOAT16) {
        tsr__not_implemented("diag", t->dtype);
        return NULL;
    }
    tsr_tensor *r;
    if (t->ndim == 1) {
        r = tsr_diag_embed(t, diagonal, 0, 1);
    } else {
        /* the 1.13 kernel sizes the result min(rows, cols - k) (k >= 0) or
         * min(rows + k, cols): a negative size fails in numel */
        int64_t sz = diagonal >= 0 ? (t->sizes[0] < t->sizes[1] - diagonal ? t->sizes[0] : t->sizes[1] - diagonal)
                                   : (t->sizes[0] + diagonal < t->sizes[1] ? t->sizes[0] + diagonal : t->sizes[1]);
        if (sz < 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "numel: integer multiplication overflow");
            return NULL;
        }
        tsr_tensor *dg = tsr_view_diagonal(t, diagonal, 0, 1);
        r = dg ? tsr_clone(dg, TSR_MF_CONTIGUOUS) : NULL;
        tsr_tensor_release(dg);
    }
    return tsr_out_assign(r, out, true);
}

tsr_tensor *tsr_diagflat(const tsr_tensor *t, int64_t offset)
{
    int64_t m1 = -1;
    tsr_tensor *f = tsr_reshape(t, 1, &m1);
    tsr_tensor *r = f ? tsr_diag(f, offset, NULL) : NULL;
    tsr_tensor_release(f);
    return r;
}

/* ------------------------------------------------------------ broadcasting views */

int tsr_broadcast_tensors(int n, const tsr_tensor *const *ts, tsr_tensor **res)
{
    int64_t shape[TSR_MAX_DIMS];
    int *ndims = tsr_calloc((size_t)n + 1, sizeof *ndims);
    const int64_t **sz = tsr_calloc((size_t)n + 1, sizeof *sz);
    if (!ndims || !sz) {
        free(ndims);
        free(sz);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        ndims[i] = ts[i]->ndim;
        sz[i] = ts[i]->sizes;
    }
    int nd = tsr_broadcast_shapes(n, ndims, sz, shape);
    free(ndims);
    free(sz);
    if (nd < 0) return -1;
    for (int i = 0; i < n; i++) {
        res[i] = tsr_view_expand(ts[i], nd, shape);
        if (!res[i]) {
            for (int j = 0; j < i; j++) tsr_tensor_release(res[j]);
            return -1;
        }
    }
    return 0;
}

int tsr_meshgrid(int n, const tsr_tensor *const *ts, const char *indexing, tsr_tensor **res)
{
    if (n == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "meshgrid expects a non-empty TensorList");
        return -1;
    }
    for (int i = 0; i + 1 < n; i++) {
        if (ts[i]->dtype != ts[i + 1]->dtype) {
            tsr_error_set(TSR_ERR_RUNTIME, "meshgrid expects all tensors to have the same dtype");
            return -1;
        }
        if (!tsr_device_equal(ts[i]->device, ts[i + 1]->device)) {
            tsr_error_set(TSR_ERR_RUNTIME, "meshgrid expects all tensors to have the same device");
            return -1;
        }
    }
    bool swap = false;
    if (!strcmp(indexing, "xy")) swap = n >= 2;
    else if (strcmp(indexing, "ij")) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: %s",
                      indexing);
        return -1;
    }
    const tsr_tensor *ref[TSR_MAX_DIMS];
    if (n > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr supports at most %d dimensions, got %d", TSR_MAX_DIMS, n);
        return -1;
    }
    for (int i = 0; i < n; i++) ref[i] = ts[i];
    if (swap) {
        ref[0] = ts[1];
        ref[1] = ts[0];
    }
    int64_t shape[TSR_MAX_DIMS], vs[TSR_MAX_DIMS];
    for (int i = 0; i < n; i++) {
        if (ref[i]->ndim > 1) {
            tsr_error_set(TSR_ERR_RUNTIME, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: %d-D "
                          "tensor", ref[i]->ndim);
            return -1;
        }
        shape[i] = tsr_tensor_numel(ref[i]);
        vs[i] = 1;
    }
    for (int i = 0; i < n; i++) {
        vs[i] = -1;
        tsr_tensor *v = tsr_view_view(ref[i], n, vs);
        res[i] = v ? tsr_view_expand(v, n, shape) : NULL;
        tsr_tensor_release(v);
        vs[i] = 1;
        if (!res[i]) {
            for (int j = 0; j < i; j++) tsr_tensor_release(res[j]);
            return -1;
        }
    }
    if (swap) {
        tsr_tensor *x = res[0];
        res[0] = res[1];
        res[1] = x;
    }
    return 0;
}
