/* runtime/ops/indexdim.c — index_add_, index_copy_, index_fill_, put_,
 * masked_scatter_ (PyTorch 1.13 TensorAdvancedIndexing.cpp). The dim ops work
 * slice by slice through views, in index order, as 1.13's CPU loops do: an
 * error part-way leaves the earlier slices written, as there. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "../error.h"
#include "../iter.h"
#include "../view.h"
#include "binary.h"
#include "copy.h"
#include "index_dev.h"
#include "advindex.h"
#include "index.h"
#include "indexdim.h"
#include "shape.h"
#include "walk.h"


static tsr_tensor *cloned(const tsr_tensor *self) { return tsr_clone(self, TSR_MF_PRESERVE); }

/* self.select(dim, i) that also works on a 0-dim self (itself). */
static tsr_tensor *slice_of(const tsr_tensor *t, int d, int64_t i)
{
    return t->ndim ? tsr_view_select(t, d, i) : tsr_view_alias(t);
}

int tsr_index_add_(tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *source, tsr_scalar alpha)
{
    int d = tsr_wrap_dim(dim, self->ndim);
    if (d < 0) return -1;
    int64_t numel = tsr_tensor_numel(index);
    if (index->ndim > 1) {
        char is[256];
        size_t k = (size_t)snprintf(is, sizeof is, "[");
        for (int i = 0; i < index->ndim; i++) k += (size_t)snprintf(is + k, sizeof is - k, "%s%" PRId64, i ? ", " : "", index->sizes[i]);
        snprintf(is + k, sizeof is - k, "]");
        tsr_error_set(TSR_ERR_INDEX, "index_add_(): Index is supposed to be a vector, but got dim: %d with type: %s and "
                      "size: %s", index->ndim, tsr_dtype_scalar_name(index->dtype), is);
        return -1;
    }
    if (index->dtype != TSR_INT64 && index->dtype != TSR_INT32) {
        tsr_error_set(TSR_ERR_RUNTIME, "index_add_(): Expected dtype int32/int64 for index but got: %s",
                      tsr_dtype_scalar_name(index->dtype));
        return -1;
    }
    if (self->dtype != source->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "index_add_(): self (%s) and source (%s) must have the same scalar type",
                      tsr_dtype_scalar_name(self->dtype), tsr_dtype_scalar_name(source->dtype));
        return -1;
    }
    if (!(d == 0 || d < source->ndim)) {
        tsr_error_set(TSR_ERR_INDEX, "index_add_(): Indexing dim %d is out of bounds of the source tensor with dim %d", d,
                      source->ndim);
        return -1;
    }
    int64_t ssize = source->ndim ? source->sizes[d] : 1;
    if (numel != ssize) {
        tsr_error_set(TSR_ERR_RUNTIME, "index_add_(): Number of indices (%" PRId64 ") should be equal to "
                      "source.size(dim): (%" PRId64 "), for dim: %d", numel, ssize, d);
        return -1;
    }
    if (tsr_tensor_is_meta(self)) return 0;
    if (tsr__dev_external(self) || tsr__dev_external(index) || tsr__dev_external(source)) {
        /* index_add_cuda_impl's getSliceSize: the slices compared by size */
        int64_t dst_slice = 1, src_slice = 1;
        for (int k = 0; k < self->ndim; k++)
            if (k != d) dst_slice *= self->sizes[k];
        for (int k = 0; k < source->ndim; k++)
            if (k != d) src_slice *= source->sizes[k];
        if (dst_slice != src_slice) {
            tsr_error_set(TSR_ERR_RUNTIME, "Source/destination tensor have different slice sizes (%" PRId64 " vs %"
                          PRId64 ")", dst_slice, src_slice);
            return -1;
        }
        int64_t bad[2];
        int r = tsr__dev_index_dim(TSR_KI_ADD, "aten::index_add.out", self, source, d, index, NULL, alpha, false, bad);
        if (r == 1) tsr_error_set(TSR_ERR_INDEX, "index out of range in self");
        return r == 0 ? 0 : -1;
    }
    int64_t size = self->ndim ? self->sizes[d] : 1;
    tsr_binary_opts o = {.has_alpha = true, .alpha = alpha};
    for (int64_t i = 0; i < numel; i++) {
        int64_t v = tsr_tensor_get_int64_at(index, i);
        if (v < 0 || v >= size) {
            tsr_error_set(TSR_ERR_INDEX, "index out of range in self");
            return -1;
        }
        tsr_tensor *a = slice_of(self, d, v), *b = a ? slice_of(source, d, i) : NULL;
        tsr_operand ob = tsr_operand_tensor(b);
        tsr_tensor *r = b ? tsr_binary_(TSR_BINOP_ADD, a, &ob, &o) : NULL;
        tsr_tensor_release(a);
        tsr_tensor_release(b);
        if (!r) return -1;
        tsr_tensor_release(r);
    }
    return 0;
}

tsr_tensor *tsr_index_add(const tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *source,
                          tsr_scalar alpha)
{
    tsr_tensor *c = cloned(self);
    if (c && tsr_index_add_(c, dim, index, source, alpha) < 0) { tsr_tensor_release(c); return NULL; }
    return c;
}

static void fmt_slice(char *buf, size_t cap, const tsr_tensor *t, int d)
{
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < t->ndim && k < cap; i++)
        if (i != d) k += (size_t)snprintf(buf + k, cap - k, "%s%" PRId64, k ? " " : "", t->sizes[i]);
}

int tsr_index_copy_(tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *source)
{
    int d = tsr_wrap_dim(dim, self->ndim);
    if (d < 0) return -1;
    int64_t n = tsr_tensor_numel(index);
    if (index->ndim >= 2) {
        tsr_error_set(TSR_ERR_INDEX, "index_copy_(): Index should have dimension 1 or 0 (got %d)", index->ndim);
        return -1;
    }
    if (source->ndim == 0 && n != 1) {
        tsr_error_set(TSR_ERR_INDEX, "index_copy_(): When source is scalar, index should have one element (got %" PRId64
                      ")", n);
        return -1;
    }
    if (source->ndim != self->ndim && source->ndim != 0 && self->ndim != 0) {
        tsr_error_set(TSR_ERR_INDEX, "index_copy_(): When source and destination are not scalars, their dimensionality "
                      "must match. Source dimensionality (%d), destination dimensionality (%d)", source->ndim, self->ndim);
        return -1;
    }
    if (index->dtype != TSR_INT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "index_copy_(): Expected a long tensor for index, but got %s",
                      tsr_dtype_scalar_name(index->dtype));
        return -1;
    }
    if (self->dtype != source->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "index_copy_(): self and source expected to have the same dtype, but got (self) "
                      "%s and (source) %s", tsr_dtype_scalar_name(self->dtype), tsr_dtype_scalar_name(source->dtype));
        return -1;
    }
    bool same = (self->ndim ? self->ndim - 1 : 0) == (source->ndim ? source->ndim - 1 : 0);
    for (int i = 0, j = 0; same && i < self->ndim; i++) {
        if (i == d) continue;
        while (j == d) j++;
        if (j >= source->ndim || self->sizes[i] != source->sizes[j]) same = false;
        j++;
    }
    if (!same) {
        char a[256], b[256];
        fmt_slice(a, sizeof a, self, d);
        fmt_slice(b, sizeof b, source, d);
        tsr_error_set(TSR_ERR_RUNTIME, "index_copy_(): Source/destination tensor must have same slice shapes. "
                      "Destination slice shape: %s at dimension %d and source slice shape: %s at dimension 0.", a, d, b);
        return -1;
    }
    if (source->ndim && n != source->sizes[d]) {
        tsr_error_set(TSR_ERR_INDEX, "index_copy_(): Number of indices (%" PRId64 ") should be equal to source.size(dim) "
                      "(%" PRId64 ")", n, source->sizes[d]);
        return -1;
    }
    if (tsr_tensor_is_meta(self)) return 0;
    int64_t size = self->ndim ? self->sizes[d] : 1;
    if (tsr__dev_external(self) || tsr__dev_external(index) || tsr__dev_external(source)) {
        int64_t bad[2];
        int r = tsr__dev_index_dim(TSR_KI_PUT, "aten::index_copy.out", self, source, d, index, NULL, tsr_scalar_int(1),
                                   false, bad);
        if (r == 1)
            tsr_error_set(TSR_ERR_INDEX, "index_copy_(): index %" PRId64 " is out of bounds for dimension %d with size %"
                          PRId64, bad[0], d, size);
        return r == 0 ? 0 : -1;
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t v = tsr_tensor_get_int64_at(index, i);
        if (v < 0 || v >= size) {
            tsr_error_set(TSR_ERR_INDEX, "index_copy_(): index %" PRId64 " is out of bounds for dimension %d with size %"
                          PRId64, v, d, size);
            return -1;
        }
        tsr_tensor *a = slice_of(self, d, v), *b = a ? slice_of(source, d, i) : NULL;
        int r = b ? tsr_copy_(a, b) : -1;
        tsr_tensor_release(a);
        tsr_tensor_release(b);
        if (r < 0) return -1;
    }
    return 0;
}

tsr_tensor *tsr_index_copy(const tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *source)
{
    tsr_tensor *c = cloned(self);
    if (c && tsr_index_copy_(c, dim, index, source) < 0) { tsr_tensor_release(c); return NULL; }
    return c;
}

int tsr_index_fill_(tsr_tensor *self, int64_t dim, const tsr_tensor *index, tsr_scalar value, const tsr_tensor *value_t)
{
    if (value_t) {
        if (value_t->ndim != 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                          "%d dimension(s).", value_t->ndim);
            return -1;
        }
        if (tsr_tensor_item(value_t, &value) < 0) return -1;
    }
    if (index->dtype != TSR_INT64) {
        tsr_error_set(TSR_ERR_INDEX, "index_fill_(): Expected dtype int64 for index.");
        return -1;
    }
    if (tsr_check_no_partial_overlap(self, index) < 0) return -1;
    if (!tsr_dtype_is_complex(self->dtype) && value.kind == TSR_SCALAR_COMPLEX) {
        tsr_error_set(TSR_ERR_RUNTIME, "index_fill_(): Converting complex Scalar to non-complex type is not supported");
        return -1;
    }
    int d = tsr_wrap_dim(dim, self->ndim ? self->ndim : 1);
    if (d < 0) return -1;
    if (index->ndim > 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "Index has to be a vector/scalar");
        return -1;
    }
    if (tsr_scalar_check_fits(value, self->dtype) < 0) return -1;
    if (tsr_tensor_is_meta(self)) return 0;
    int64_t size = self->ndim ? self->sizes[d] : 1, n = tsr_tensor_numel(index);
    if (tsr__dev_external(self) || tsr__dev_external(index)) {
        unsigned char v[16] = {0};
        int64_t bad[2];
        tsr_scalar_store(self->dtype, v, value);
        int r = n ? tsr__dev_index_dim(TSR_KI_FILL, "aten::index_fill_.int_Scalar", self, NULL, d, index, v,
                                       tsr_scalar_int(1), true, bad) : 0;
        if (r == 1)
            tsr_error_set(TSR_ERR_INDEX, "index %" PRId64 " is out of bounds for dimension %d with size %" PRId64, bad[0],
                          d, size);
        return r == 0 ? 0 : -1;
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t v = tsr_tensor_get_int64_at(index, i);
        if (v < -size || v >= size) {
            tsr_error_set(TSR_ERR_INDEX, "index %" PRId64 " is out of bounds for dimension %d with size %" PRId64, v, d,
                          size);
            return -1;
        }
        tsr_tensor *a = slice_of(self, d, v < 0 ? v + size : v);
        int r = a ? tsr_fill_(a, value) : -1;
        tsr_tensor_release(a);
        if (r < 0) return -1;
    }
    return 0;
}

tsr_tensor *tsr_index_fill(const tsr_tensor *self, int64_t dim, const tsr_tensor *index, tsr_scalar value,
                           const tsr_tensor *value_t)
{
    tsr_tensor *c = cloned(self);
    if (c && tsr_index_fill_(c, dim, index, value, value_t) < 0) { tsr_tensor_release(c); return NULL; }
    return c;
}

/* put_ on a device: self.flatten()[index[i]] = (or +=) source.flatten()[i],
 * through a contiguous copy of self when self is not one. 0 or -1. */
static int put_dev(tsr_tensor *self, const tsr_tensor *index, const tsr_tensor *source, bool accumulate, int64_t n)
{
    const tsr_tensor *ops[2] = {index, source};
    if (tsr__dev_same_device(self, 2, ops) < 0) return -1;
    int nd = index->ndim ? index->ndim : 1, item = tsr_tensor_itemsize(self), r = -1;
    int64_t isz[TSR_MAX_DIMS];
    for (int i = 0; i < nd; i++) isz[i] = index->ndim ? index->sizes[i] : 1;
    tsr_tensor *dst = tsr_contiguous(self, TSR_MF_CONTIGUOUS), *src = dst ? tsr_reshape(source, nd, isz) : NULL;
    if (!src) goto done;
    walk w = {.nd = nd, .nop = 3};
    w.base[0] = tsr_tensor_ptr(dst, NULL);
    w.base[1] = tsr_tensor_ptr(src, NULL);
    w.base[2] = tsr_tensor_ptr(index, NULL);
    for (int i = 0; i < nd; i++) {
        w.sizes[i] = isz[i];
        w.st[0][i] = 0;
        w.st[1][i] = src->strides[i] * item;
        w.st[2][i] = index->ndim ? index->strides[i] * 8 : 0;
    }
    int oi[1] = {2};
    int64_t size[1] = {n}, step[1] = {item}, bad[2];
    r = tsr__dev_index_walk(self->device, "aten::put_", accumulate ? TSR_KI_ADD : TSR_KI_PUT, self->dtype, &w, 0, 1, 1,
                            oi, size, step, true, NULL, tsr_scalar_int(1), bad);
    if (r == 1) {
        tsr_error_set(TSR_ERR_INDEX, "out of range: tried to access index %" PRId64 " on a tensor of %" PRId64
                      " elements.", bad[0], n);
        r = -1;
    }
    if (r == 0 && dst != self) r = tsr_copy_(self, dst);
done:
    tsr_tensor_release(dst);
    tsr_tensor_release(src);
    return r;
}

int tsr_put_(tsr_tensor *self, const tsr_tensor *index, const tsr_tensor *source, bool accumulate)
{
    if (index->dtype != TSR_INT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "put_(): Expected a long tensor for index, but got %s",
                      tsr_dtype_scalar_name(index->dtype));
        return -1;
    }
    if (self->dtype != source->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "put_(): self and source expected to have the same dtype, but got self.dtype = %s "
                      "and source.dtype = %s", tsr_dtype_scalar_name(self->dtype), tsr_dtype_scalar_name(source->dtype));
        return -1;
    }
    int64_t m = tsr_tensor_numel(index), n = tsr_tensor_numel(self);
    if (tsr_tensor_numel(source) != m) {
        tsr_error_set(TSR_ERR_INDEX, "put_(): Expected source and index to have the same number of elements, but got "
                      "source.numel() = %" PRId64 ", index.numel() = %" PRId64, tsr_tensor_numel(source), m);
        return -1;
    }
    if (m == 0 || tsr_tensor_is_meta(self)) return 0;
    if (tsr__dev_external(self) || tsr__dev_external(index) || tsr__dev_external(source))
        return put_dev(self, index, source, accumulate, n);
    int64_t idx[TSR_MAX_DIMS];
    for (int64_t i = 0; i < m; i++) {
        int64_t v = tsr_tensor_get_int64_at(index, i);
        if (v < -n || v >= n) {
            tsr_error_set(TSR_ERR_INDEX, "out of range: tried to access index %" PRId64 " on a tensor of %" PRId64
                          " elements.", v, n);
            return -1;
        }
        if (v < 0) v += n;
        tsr_unravel(self->ndim, self->sizes, v, idx);
        char *dst = tsr_tensor_ptr(self, idx);
        tsr_scalar s;
        if (tsr_tensor_get_at(source, i, &s) < 0) return -1;
        if (accumulate) {
            tsr_scalar a = tsr_scalar_load(self->dtype, dst);
            if (a.kind == TSR_SCALAR_BOOL) a.i = a.i || tsr_scalar_to_bool(s);
            else if (a.kind == TSR_SCALAR_INT) a.i = (int64_t)((uint64_t)a.i + (uint64_t)tsr_scalar_to_int64(s));
            else if (a.kind == TSR_SCALAR_FLOAT) a.d += tsr_scalar_to_double(s);
            else { double re, im; tsr_scalar_to_complex(s, &re, &im); a.re += re; a.im += im; }
            s = a;
        }
        tsr_scalar_store(self->dtype, dst, s);
    }
    return 0;
}

tsr_tensor *tsr_put(const tsr_tensor *self, const tsr_tensor *index, const tsr_tensor *source, bool accumulate)
{
    tsr_tensor *c = cloned(self);
    if (c && tsr_put_(c, index, source, accumulate) < 0) { tsr_tensor_release(c); return NULL; }
    return c;
}

typedef struct { const tsr_tensor *src; int64_t k, n; tsr_dtype dt; } msc_ctx;

static int msc_row(char **p, const int64_t *inner, int64_t n, int64_t row, void *ctx)
{
    msc_ctx *c = ctx;
    (void)row;
    for (int64_t i = 0; i < n; i++) {
        if (!p[1][i * inner[1]]) continue;
        if (c->k >= c->n) {
            tsr_error_set(TSR_ERR_RUNTIME, "Number of elements of source < number of ones in mask");
            return -1;
        }
        tsr_scalar s;
        if (tsr_tensor_get_at(c->src, c->k++, &s) < 0) return -1;
        tsr_scalar_store(c->dt, p[0] + i * inner[0], s);
    }
    return 0;
}

/* masked_scatter_ on a device: self[mask] = the first count(mask) values
 * of source in row-major order (nonzero, then an index_put_ of
 * source.flatten()[:count]). m is mask expanded to self's shape. */
static int masked_scatter_dev(tsr_tensor *self, const tsr_tensor *m, const tsr_tensor *source)
{
    const tsr_tensor *ops[2] = {m, source};
    if (tsr__dev_same_device(self, 2, ops) < 0) return -1;
    int64_t one = 1;
    tsr_tensor *s1 = self->ndim ? tsr_tensor_retain(self) : tsr_view_view(self, 1, &one);
    tsr_tensor *m1 = !s1 ? NULL : m->ndim ? tsr_tensor_retain((tsr_tensor *)m) : tsr_view_view(m, 1, &one);
    tsr_tensor *cols[TSR_MAX_DIMS], *flat = NULL, *vals = NULL;
    int nd = 0, r = -1;
    if (!m1 || tsr_nonzero_tuple(m1, &nd, cols) < 0) goto done;
    int64_t count = nd ? cols[0]->sizes[0] : 0, n = tsr_tensor_numel(source);
    if (count > n) {
        tsr_error_set(TSR_ERR_RUNTIME, "Number of elements of source < number of ones in mask");
    } else if (count == 0) {
        r = 0;
    } else if ((flat = tsr_reshape(source, 1, &n)) && (vals = tsr_view_narrow(flat, 0, 0, count))) {
        r = tsr_index_put_(s1, nd, (const tsr_tensor *const *)cols, vals, false);
    }
    for (int k = 0; k < nd; k++) tsr_tensor_release(cols[k]);
done:
    tsr_tensor_release(flat);
    tsr_tensor_release(vals);
    tsr_tensor_release(s1);
    tsr_tensor_release(m1);
    return r;
}

int tsr_masked_scatter_(tsr_tensor *self, const tsr_tensor *mask, const tsr_tensor *source)
{
    if (self->dtype != source->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "masked_scatter: expected self and source to have same dtypes but got%s and %s",
                      tsr_dtype_scalar_name(self->dtype), tsr_dtype_scalar_name(source->dtype));
        return -1;
    }
    if (mask->dtype != TSR_BOOL && mask->dtype != TSR_UINT8) {
        tsr_error_set(TSR_ERR_RUNTIME, "masked_scatter_ only supports boolean masks, but got mask with dtype %s",
                      tsr_dtype_name(mask->dtype));
        return -1;
    }
    tsr_tensor *m = tsr_view_expand(mask, self->ndim, self->sizes);
    if (!m) return -1;
    int r = 0;
    if (tsr__dev_external(self) || tsr__dev_external(mask) || tsr__dev_external(source)) {
        r = masked_scatter_dev(self, m, source);
    } else if (!tsr_tensor_is_meta(self)) {
        walk w = {.nd = self->ndim, .nop = 2};
        memcpy(w.sizes, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
        walk_operand(&w, 0, self);
        walk_operand(&w, 1, m);
        msc_ctx c = {.src = source, .n = tsr_tensor_numel(source), .dt = self->dtype};
        r = walk_run(&w, msc_row, &c);
    }
    tsr_tensor_release(m);
    return r;
}

tsr_tensor *tsr_masked_scatter(const tsr_tensor *self, const tsr_tensor *mask, const tsr_tensor *source)
{
    int nds[2] = {mask->ndim, self->ndim};
    const int64_t *szs[2] = {mask->sizes, self->sizes};
    int64_t shape[TSR_MAX_DIMS];
    int nd = tsr_broadcast_shapes(2, nds, szs, shape);
    if (nd < 0) return NULL;
    tsr_tensor *s = tsr_view_expand(self, nd, shape), *m = s ? tsr_view_expand(mask, nd, shape) : NULL;
    tsr_tensor *c = m ? tsr_clone(s, TSR_MF_CONTIGUOUS) : NULL;
    if (c && tsr_masked_scatter_(c, m, source) < 0) { tsr_tensor_release(c); c = NULL; }
    tsr_tensor_release(s);
    tsr_tensor_release(m);
    return c;
}
