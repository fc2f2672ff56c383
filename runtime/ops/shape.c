/* runtime/ops/shape.c — the shape functions that may copy: reshape (a view
 * when the strides allow it, else a contiguous clone) and flatten, which is
 * reshape over a range of dims. Above view and copy, which never call it. */
#include "../error.h"
#include "../view.h"
#include "copy.h"
#include "shape.h"

tsr_tensor *tsr_reshape(const tsr_tensor *t, int n, const int64_t *sizes)
{
    int64_t shape[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    if (n > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr supports at most %d dimensions, got %d", TSR_MAX_DIMS, n);
        return NULL;
    }
    if (tsr_infer_size(n, sizes, tsr_tensor_numel(t), shape) < 0) return NULL;
    if (tsr_compute_stride(t->ndim, t->sizes, t->strides, n, shape, strides))
        return tsr_tensor_alias(t, n, shape, strides, t->storage_offset);
    tsr_tensor *c = tsr_clone(t, TSR_MF_CONTIGUOUS);
    if (!c) return NULL;
    tsr_strides_contiguous(n, shape, strides);
    tsr_tensor *v = tsr_tensor_alias(c, n, shape, strides, c->storage_offset);
    tsr_tensor_release(c);
    if (v) tsr_tensor_unview(v);   /* _unsafe_view of a fresh copy: not a view */
    return v;
}

tsr_tensor *tsr_view_flatten(const tsr_tensor *t, int64_t start_dim, int64_t end_dim)
{
    int s = tsr_wrap_dim(start_dim, t->ndim);
    if (s < 0) return NULL;
    int e = tsr_wrap_dim(end_dim, t->ndim);
    if (e < 0) return NULL;
    if (s > e) {
        tsr_error_set(TSR_ERR_RUNTIME, "flatten() has invalid args: start_dim cannot come after end_dim");
        return NULL;
    }
    if (t->ndim == 0) {
        int64_t one = 1;
        return tsr_reshape(t, 1, &one);
    }
    if (s == e) return tsr_tensor_retain((tsr_tensor *)t);   /* 1.13 returns self */
    int64_t sizes[TSR_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < s; i++) sizes[n++] = t->sizes[i];
    int64_t p = 1;
    for (int i = s; i <= e; i++) p *= t->sizes[i];
    sizes[n++] = p;
    for (int i = e + 1; i < t->ndim; i++) sizes[n++] = t->sizes[i];
    return tsr_reshape(t, n, sizes);
}
