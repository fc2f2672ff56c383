/* runtime/ops/viewcopy.c — narrow_copy, ravel and the view scatters
 * (TensorShape.cpp 1.13: select_scatter, slice_scatter, diagonal_scatter,
 * as_strided_scatter clone the input, then copy src into the view). */
#include <string.h>
#include "../error.h"
#include "../internal.h"
#include "../iter.h"
#include "../view.h"
#include "copy.h"
#include "scatter.h"
#include "viewcopy.h"

tsr_tensor *tsr_narrow_copy(const tsr_tensor *t, int64_t dim, int64_t start, int64_t length)
{
    if (t->ndim > 0 && (dim >= t->ndim || dim < -t->ndim)) {
        /* narrow_copy_dense_cpu_out's unwrapped TORCH_INTERNAL_ASSERT-style check */
        tsr_error_set(TSR_ERR_RUNTIME, "Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, but got "
                      "false.  (Could this error message be improved?  If so, please report an enhancement request "
                      "to PyTorch.)");
        return NULL;
    }
    tsr_tensor *v = tsr_view_narrow(t, dim, start, length);
    if (!v) return NULL;
    tsr_tensor *r = tsr_clone(v, TSR_MF_CONTIGUOUS);
    tsr_tensor_release(v);
    return r;
}

tsr_tensor *tsr_narrow_copy_out(const tsr_tensor *t, int64_t dim, int64_t start, int64_t length, tsr_tensor *out)
{
    if (tsr_tensor_is_meta(t) || tsr_tensor_is_meta(out)) {
        tsr_meta_refused("narrow_copy.out");
        return NULL;
    }
    if (t->ndim > 0 && t->dtype != out->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected self.dtype() == output.dtype() to be true, but got false.  (Could "
                      "this error message be improved?  If so, please report an enhancement request to PyTorch.)");
        return NULL;
    }
    tsr_tensor *r = tsr_narrow_copy(t, dim, start, length);
    if (!r) return NULL;
    bool same = out->ndim == r->ndim && !memcmp(out->sizes, r->sizes, sizeof(int64_t) * (size_t)r->ndim);
    int e = !same && tsr_tensor_resize_(out, r->ndim, r->sizes) < 0 ? -1 : tsr_copy_(out, r);
    tsr_tensor_release(r);
    return e < 0 ? NULL : tsr_tensor_retain(out);
}

tsr_tensor *tsr_ravel(const tsr_tensor *t)
{
    int64_t m1 = -1;
    tsr_tensor *c = tsr_contiguous(t, TSR_MF_CONTIGUOUS);
    tsr_tensor *r = c ? tsr_view_view(c, 1, &m1) : NULL;
    tsr_tensor_release(c);
    return r;
}

static tsr_tensor *view_of(tsr_scatter_view kind, const tsr_tensor *t, const tsr_scatter_args *a)
{
    switch (kind) {
    case TSR_SV_SELECT: return tsr_view_select(t, a->dim, a->index);
    case TSR_SV_SLICE:
        return tsr_view_slice(t, a->dim, a->has_start ? a->start : 0, a->has_end ? a->end : TSR_SLICE_END, a->step);
    case TSR_SV_DIAGONAL: return tsr_view_diagonal(t, a->offset, a->dim1, a->dim2);
    default: return tsr_view_as_strided(t, a->n, a->sizes, a->strides, a->storage_offset);
    }
}

tsr_tensor *tsr_view_scatter(tsr_scatter_view kind, const tsr_tensor *input, const tsr_tensor *src,
                             const tsr_scatter_args *a)
{
    tsr_tensor *out = tsr_clone(input, TSR_MF_PRESERVE);
    if (!out) return NULL;
    tsr_tensor *v = view_of(kind, out, a);
    if (!v) goto fail;
    if (v->ndim != src->ndim || memcmp(v->sizes, src->sizes, sizeof(int64_t) * (size_t)src->ndim)) {
        char x[512], y[512];
        tsr_error_set(TSR_ERR_RUNTIME, "expected src to have a size equal to the slice of self. src size = %s, slice "
                      "size = %s", tsr__fmt_list(x, sizeof x, src->ndim, src->sizes),
                      tsr__fmt_list(y, sizeof y, v->ndim, v->sizes));
        tsr_tensor_release(v);
        goto fail;
    }
    int rc = tsr_copy_(v, src);
    tsr_tensor_release(v);
    if (rc < 0) goto fail;
    return out;
fail:
    tsr_tensor_release(out);
    return NULL;
}

tsr_tensor *tsr_view_as_real(const tsr_tensor *t)
{
    if (!tsr_dtype_is_complex(t->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "view_as_real is only supported for complex tensors");
        return NULL;
    }
    if (t->conj) {
        tsr_error_set(TSR_ERR_RUNTIME, "view_as_real doesn't work on unresolved conjugated tensors.  To resolve the "
                      "conjugate tensor so you can view it as real, use self.resolve_conj(); however, be warned that "
                      "the resulting tensor will NOT alias the original.");
        return NULL;
    }
    if (t->ndim + 1 > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr supports at most %d dimensions, got %d", TSR_MAX_DIMS, t->ndim + 1);
        return NULL;
    }
    int64_t sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    for (int i = 0; i < t->ndim; i++) {
        sizes[i] = t->sizes[i];
        strides[i] = t->strides[i] * 2;
    }
    sizes[t->ndim] = 2;
    strides[t->ndim] = 1;
    tsr_tensor *v = tsr_tensor_alias(t, t->ndim + 1, sizes, strides, t->storage_offset * 2);
    if (v) v->dtype = tsr_dtype_to_real(t->dtype);
    return v;
}

tsr_tensor *tsr_view_as_complex(const tsr_tensor *t)
{
    if (t->dtype != TSR_FLOAT16 && t->dtype != TSR_FLOAT32 && t->dtype != TSR_FLOAT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "view_as_complex is only supported for half, float and double tensors, but "
                      "got a tensor of scalar type: %s", tsr_dtype_scalar_name(t->dtype));
        return NULL;
    }
    const char *bad = NULL;
    int last = t->ndim - 1;
    if (t->ndim == 0) bad = "Input tensor must have one or more dimensions";
    else if (t->sizes[last] != 2) bad = "Tensor must have a last dimension of size 2";
    else if (t->strides[last] != 1) bad = "Tensor must have a last dimension with stride 1";
    for (int i = 0; !bad && i < last; i++)
        if (t->strides[i] % 2) bad = "Tensor must have a stride divisible by 2 for all but last dimension";
    if (!bad && t->storage_offset % 2) bad = "Tensor must have a storage_offset divisible by 2";
    if (bad) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s", bad);
        return NULL;
    }
    int64_t strides[TSR_MAX_DIMS];
    for (int i = 0; i < last; i++) strides[i] = t->strides[i] / 2;
    tsr_tensor *v = tsr_tensor_alias(t, last, t->sizes, strides, t->storage_offset / 2);
    if (v) v->dtype = tsr_dtype_to_complex(t->dtype);
    return v;
}
