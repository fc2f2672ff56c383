/* runtime/view.c — views as new headers on the same storage (Torch7 THTensor
 * narrow/select/transpose), with the checks and messages of PyTorch 1.13
 * (SEMANTICS.md §4.5; aten/src/ATen/native/TensorShape.cpp, TensorUtils.cpp
 * computeStride, ExpandUtils.cpp inferExpandGeometry). */
#include <stdio.h>
#include <string.h>
#include "error.h"
#include "internal.h"
#include "view.h"
#include "named.h"
#include "names.h"

int tsr_wrap_dim(int64_t dim, int ndim)
{
    int64_t n = ndim > 0 ? ndim : 1;        /* a 0-dim tensor wraps like a 1-dim one */
    if (dim < -n || dim > n - 1) {
        tsr_error_set(TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                      (long long)-n, (long long)(n - 1), (long long)dim);
        return -1;
    }
    return (int)(dim < 0 ? dim + n : dim);
}

tsr_tensor *tsr_view_alias(const tsr_tensor *t)
{
    return tsr_tensor_alias(t, t->ndim, t->sizes, t->strides, t->storage_offset);
}

tsr_tensor *tsr_view_narrow(const tsr_tensor *t, int64_t dim, int64_t start, int64_t length)
{
    if (t->ndim == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "narrow() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    int d = tsr_wrap_dim(dim, t->ndim);
    if (d < 0) return NULL;
    int64_t cur = t->sizes[d];
    if (start != cur) {
        if (start < -cur || start > cur - 1) {
            tsr_error_set(TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                          (long long)-cur, (long long)(cur - 1), (long long)start);
            return NULL;
        }
        if (start < 0) start += cur;
    }
    if (!(length >= 0 && start <= cur - length)) {
        tsr_error_set(TSR_ERR_RUNTIME, "start (%lld) + length (%lld) exceeds dimension size (%lld).",
                      (long long)start, (long long)length, (long long)cur);
        return NULL;
    }
    tsr_tensor *v = tsr_view_alias(t);
    if (!v) return NULL;
    v->storage_offset += start * t->strides[d];
    v->sizes[d] = length;
    return v;
}

tsr_tensor *tsr_view_select(const tsr_tensor *t, int64_t dim, int64_t index)
{
    char buf[1024];
    if (t->ndim == 0) {
        tsr_error_set(TSR_ERR_INDEX, "select() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    int d = tsr_wrap_dim(dim, t->ndim);
    if (d < 0) return NULL;
    int64_t size = t->sizes[d];
    if (index < -size || index >= size) {
        tsr_error_set(TSR_ERR_INDEX, "select(): index %lld out of range for tensor of size %s at dimension %d",
                      (long long)index, tsr__fmt_list(buf, sizeof buf, t->ndim, t->sizes), d);
        return NULL;
    }
    if (index < 0) index += size;
    int64_t sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < t->ndim; i++)
        if (i != d) {
            sizes[n] = t->sizes[i];
            strides[n++] = t->strides[i];
        }
    return tsr_tensor_alias(t, n, sizes, strides, t->storage_offset + index * t->strides[d]);
}

tsr_tensor *tsr_view_slice(const tsr_tensor *t, int64_t dim, int64_t start, int64_t stop, int64_t step)
{
    if (step <= 0) {
        tsr_error_set(TSR_ERR_VALUE, "step must be greater than zero");
        return NULL;
    }
    if (t->ndim == 0) {
        tsr_error_set(TSR_ERR_INDEX, "slice() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    int d = tsr_wrap_dim(dim, t->ndim);
    if (d < 0) return NULL;
    int64_t size = t->sizes[d];
    if (start < 0) start = start < -size ? 0 : start + size;
    if (stop < 0) stop = stop < -size ? 0 : stop + size;
    if (start > size) start = size;
    if (stop > size) stop = size;
    if (stop < start) stop = start;
    tsr_tensor *v = tsr_view_alias(t);
    if (!v) return NULL;
    v->storage_offset += start * t->strides[d];
    /* ATen's (end - start + step - 1) / step and stride * step wrap as int64
     * does; a size that wraps negative fails setStrided's bounds check */
    v->sizes[d] = (int64_t)((uint64_t)(stop - start) + (uint64_t)step - 1) / step;
    v->strides[d] = (int64_t)((uint64_t)t->strides[d] * (uint64_t)step);
    if (v->sizes[d] < 0) {
        char a[512], b[512];
        tsr_error_set(TSR_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s and strides=%s",
                      tsr__fmt_list(a, sizeof a, v->ndim, v->sizes), tsr__fmt_list(b, sizeof b, v->ndim, v->strides));
        tsr_tensor_release(v);
        return NULL;
    }
    return v;
}

tsr_tensor *tsr_view_transpose(const tsr_tensor *t, int64_t d0, int64_t d1)
{
    int a = tsr_wrap_dim(d0, t->ndim);
    if (a < 0) return NULL;
    int b = tsr_wrap_dim(d1, t->ndim);
    if (b < 0) return NULL;
    tsr_tensor *v = tsr_view_alias(t);
    if (!v || t->ndim == 0) return v;
    v->sizes[a] = t->sizes[b];
    v->sizes[b] = t->sizes[a];
    v->strides[a] = t->strides[b];
    v->strides[b] = t->strides[a];
    return v;
}

tsr_tensor *tsr_view_t(const tsr_tensor *t)
{
    if (t->ndim > 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "t() expects a tensor with <= 2 dimensions, but self is %dD", t->ndim);
        return NULL;
    }
    return tsr_view_transpose(t, 0, t->ndim < 2 ? 0 : 1);
}

tsr_tensor *tsr_view_permute(const tsr_tensor *t, int n, const int64_t *dims)
{
    if (n != t->ndim) {
        tsr_error_set(TSR_ERR_RUNTIME,
                      "permute(sparse_coo): number of dimensions in the tensor input does not match the "
                      "length of the desired ordering of dimensions i.e. input.dim() = %d is not equal to "
                      "len(dims) = %d", t->ndim, n);
        return NULL;
    }
    int64_t sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    bool seen[TSR_MAX_DIMS] = {false};
    for (int i = 0; i < n; i++) {
        int d = tsr_wrap_dim(dims[i], t->ndim);
        if (d < 0) return NULL;
        if (seen[d]) {
            tsr_error_set(TSR_ERR_RUNTIME, "permute(): duplicate dims are not allowed.");
            return NULL;
        }
        seen[d] = true;
        sizes[i] = t->sizes[d];
        strides[i] = t->strides[d];
    }
    return tsr_tensor_alias(t, n, sizes, strides, t->storage_offset);
}

int tsr_infer_size(int n, const int64_t *sizes, int64_t numel, int64_t *out)
{
    char buf[1024];
    int infer = -1;
    int64_t prod = 1;
    for (int i = 0; i < n; i++) {
        out[i] = sizes[i];
        if (sizes[i] == -1) {
            if (infer >= 0) {
                tsr_error_set(TSR_ERR_RUNTIME, "only one dimension can be inferred");
                return -1;
            }
            infer = i;
        } else if (sizes[i] >= 0) {
            if (__builtin_mul_overflow(prod, sizes[i], &prod)) prod = -1;
        } else {
            tsr_error_set(TSR_ERR_RUNTIME, "invalid shape dimension %lld", (long long)sizes[i]);
            return -1;
        }
    }
    if (numel == prod || (infer >= 0 && prod > 0 && numel % prod == 0)) {
        if (infer >= 0) {
            if (prod == 0) {
                tsr_error_set(TSR_ERR_RUNTIME,
                              "cannot reshape tensor of 0 elements into shape %s because the unspecified "
                              "dimension size -1 can be any value and is ambiguous",
                              tsr__fmt_list(buf, sizeof buf, n, sizes));
                return -1;
            }
            out[infer] = numel / prod;
        }
        return 0;
    }
    if (infer >= 0 && prod == 0) {
        tsr_error_set(TSR_ERR_RUNTIME,
                      "cannot reshape tensor of 0 elements into shape %s because the unspecified "
                      "dimension size -1 can be any value and is ambiguous",
                      tsr__fmt_list(buf, sizeof buf, n, sizes));
        return -1;
    }
    tsr_error_set(TSR_ERR_RUNTIME, "shape '%s' is invalid for input of size %lld",
                  tsr__fmt_list(buf, sizeof buf, n, sizes), (long long)numel);
    return -1;
}

int tsr_compute_stride(int oldn, const int64_t *oldshape, const int64_t *oldstride,
                       int newn, const int64_t *newshape, int64_t *newstride)
{
    if (oldn == 0) {
        for (int i = 0; i < newn; i++) newstride[i] = 1;
        return 1;
    }
    int64_t numel = 1;
    for (int i = 0; i < oldn; i++) numel *= oldshape[i];
    if (numel == 0) {
        bool same = oldn == newn;
        for (int i = 0; same && i < oldn; i++) same = oldshape[i] == newshape[i];
        if (same) {
            memcpy(newstride, oldstride, (size_t)oldn * sizeof *newstride);
            return 1;
        }
        tsr_strides_contiguous(newn, newshape, newstride);
        return 1;
    }
    int view_d = newn - 1;
    int64_t chunk_base = oldstride[oldn - 1], tensor_numel = 1, view_numel = 1;
    for (int td = oldn - 1; td >= 0; td--) {
        tensor_numel *= oldshape[td];
        if (td == 0 || (oldshape[td - 1] != 1 && oldstride[td - 1] != tensor_numel * chunk_base)) {
            while (view_d >= 0 && (view_numel < tensor_numel || newshape[view_d] == 1)) {
                newstride[view_d] = view_numel * chunk_base;
                view_numel *= newshape[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel) return 0;
            if (td > 0) {
                chunk_base = oldstride[td - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    return view_d == -1;
}

tsr_tensor *tsr_view_view(const tsr_tensor *t, int n, const int64_t *sizes)
{
    int64_t shape[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    if (n > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr supports at most %d dimensions, got %d", TSR_MAX_DIMS, n);
        return NULL;
    }
    if (tsr_infer_size(n, sizes, tsr_tensor_numel(t), shape) < 0) return NULL;
    if (!tsr_compute_stride(t->ndim, t->sizes, t->strides, n, shape, strides)) {
        tsr_error_set(TSR_ERR_RUNTIME,
                      "view size is not compatible with input tensor's size and stride (at least one "
                      "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
        return NULL;
    }
    return tsr_tensor_alias(t, n, shape, strides, t->storage_offset);
}

tsr_tensor *tsr_view_expand(const tsr_tensor *t, int n, const int64_t *target)
{
    char a[1024], b[1024];
    if (n < t->ndim) {
        tsr_error_set(TSR_ERR_RUNTIME,
                      "expand(torch.%s%s{%s}, size=%s): the number of sizes provided (%d) must be greater "
                      "or equal to the number of dimensions in the tensor (%d)",
                      t->device.type == TSR_DEV_CUDA ? "cuda." : "", tsr_dtype_traits_of(t->dtype)->tensor_type,
                      tsr__fmt_list(a, sizeof a, t->ndim, t->sizes), tsr__fmt_list(b, sizeof b, n, target),
                      n, t->ndim);
        return NULL;
    }
    if (n > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr supports at most %d dimensions, got %d", TSR_MAX_DIMS, n);
        return NULL;
    }
    int64_t sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    for (int i = n - 1; i >= 0; i--) {
        int off = n - 1 - i;
        int dim = t->ndim - 1 - off;
        int64_t size = dim >= 0 ? t->sizes[dim] : 1;
        int64_t stride = dim >= 0 ? t->strides[dim] : (i == n - 1 ? 1 : sizes[i + 1] * strides[i + 1]);
        int64_t ts = target[i];
        if (ts == -1) {
            if (dim < 0) {
                tsr_error_set(TSR_ERR_RUNTIME,
                              "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension %d", i);
                return NULL;
            }
            ts = size;
        }
        if (size != ts) {
            if (size != 1) {
                tsr_error_set(TSR_ERR_RUNTIME,
                              "The expanded size of the tensor (%lld) must match the existing size (%lld) at "
                              "non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
                              (long long)ts, (long long)size, i, tsr__fmt_list(a, sizeof a, n, target),
                              tsr__fmt_list(b, sizeof b, t->ndim, t->sizes));
                return NULL;
            }
            size = ts;
            stride = 0;
        }
        sizes[i] = size;
        strides[i] = stride;
    }
    if (tsr_check_sizes(n, sizes, NULL) < 0) return NULL;
    return tsr_tensor_alias(t, n, sizes, strides, t->storage_offset);
}

tsr_tensor *tsr_view_expand_as(const tsr_tensor *t, const tsr_tensor *other)
{
    return tsr_view_expand(t, other->ndim, other->sizes);
}

tsr_tensor *tsr_view_squeeze(const tsr_tensor *t)
{
    int64_t sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < t->ndim; i++)
        if (t->sizes[i] != 1) {
            sizes[n] = t->sizes[i];
            strides[n++] = t->strides[i];
        }
    return tsr_tensor_alias(t, n, sizes, strides, t->storage_offset);
}

tsr_tensor *tsr_view_squeeze_dim(const tsr_tensor *t, int64_t dim)
{
    int d = tsr_wrap_dim(dim, t->ndim);
    if (d < 0) return NULL;
    if (t->ndim == 0 || t->sizes[d] != 1) return tsr_view_alias(t);
    int64_t sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < t->ndim; i++)
        if (i != d) {
            sizes[n] = t->sizes[i];
            strides[n++] = t->strides[i];
        }
    return tsr_tensor_alias(t, n, sizes, strides, t->storage_offset);
}

tsr_tensor *tsr_view_unsqueeze(const tsr_tensor *t, int64_t dim)
{
    int d = tsr_wrap_dim(dim, t->ndim + 1);
    if (d < 0) return NULL;
    if (t->ndim + 1 > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr supports at most %d dimensions, got %d", TSR_MAX_DIMS, t->ndim + 1);
        return NULL;
    }
    int64_t sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    for (int i = 0, j = 0; i <= t->ndim; i++) {
        if (i == d) {
            sizes[i] = 1;
            strides[i] = d == t->ndim ? 1 : t->sizes[d] * t->strides[d];
        } else {
            sizes[i] = t->sizes[j];
            strides[i] = t->strides[j++];
        }
    }
    return tsr_tensor_alias(t, t->ndim + 1, sizes, strides, t->storage_offset);
}

tsr_tensor *tsr_view_unflatten(const tsr_tensor *t, int64_t dim, int n, const int64_t *usizes)
{
    return tsr_view_unflatten_names(t, dim, n, usizes, NULL);
}

tsr_tensor *tsr_view_unflatten_names(const tsr_tensor *t, int64_t dim, int n, const int64_t *usizes,
                                     const tsr_name *names)
{
    char buf[1024];
    int d = tsr_wrap_dim(dim, t->ndim);
    if (d < 0) return NULL;
    if (n == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "unflatten: sizes must be non-empty");
        return NULL;
    }
    if (t->names && !names) {
        tsr_error_set(TSR_ERR_RUNTIME, "unflatten: input is a named tensor but no names were given for unflattened sizes");
        return NULL;
    }
    if (t->ndim - 1 + n > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr supports at most %d dimensions, got %d", TSR_MAX_DIMS, t->ndim - 1 + n);
        return NULL;
    }
    int64_t inferred[TSR_MAX_DIMS];
    int64_t dsize = t->ndim ? t->sizes[d] : 1;
    if (tsr_infer_size(n, usizes, dsize, inferred) < 0) {
        if (tsr_error_kind() == TSR_ERR_RUNTIME && strncmp(tsr_error_message(), "shape '", 7) == 0) {
            tsr_error_clear();
            if (t->names) {
                char nb[1024], dn[256];
                tsr_names_format(nb, sizeof nb, t->names, t->ndim);
                if (t->names[d]) snprintf(dn, sizeof dn, "'%s'", t->names[d]);
                else snprintf(dn, sizeof dn, "None");
                tsr_error_set(TSR_ERR_RUNTIME, "unflatten: Provided sizes %s don't multiply up to the size of dim %d "
                              "(%s: %lld) in Tensor%s", tsr__fmt_list(buf, sizeof buf, n, usizes), d, dn,
                              (long long)dsize, nb);
            } else {
                tsr_error_set(TSR_ERR_RUNTIME,
                              "unflatten: Provided sizes %s don't multiply up to the size of dim %lld (%lld) in the input tensor",
                              tsr__fmt_list(buf, sizeof buf, n, usizes), (long long)dim, (long long)dsize);
            }
        }
        return NULL;
    }
    int64_t sizes[TSR_MAX_DIMS];
    int k = 0;
    for (int i = 0; i < d; i++) sizes[k++] = t->sizes[i];
    for (int i = 0; i < n; i++) sizes[k++] = inferred[i];
    for (int i = d + 1; i < t->ndim; i++) sizes[k++] = t->sizes[i];
    tsr_tensor *r = tsr_view_view(t, k, sizes);
    if (r && names) {
        tsr_name nm[TSR_MAX_DIMS];
        int m = 0;
        for (int i = 0; i < d; i++) nm[m++] = t->names ? t->names[i] : NULL;
        for (int i = 0; i < n; i++) nm[m++] = names[i];
        for (int i = d + 1; i < t->ndim; i++) nm[m++] = t->names ? t->names[i] : NULL;
        if (tsr_tensor_set_names(r, nm, m) < 0) {
            tsr_tensor_release(r);
            return NULL;
        }
    }
    return r;
}

tsr_tensor *tsr_view_as_strided(const tsr_tensor *t, int n, const int64_t *sizes,
                                const int64_t *strides, int64_t offset)
{
    if (offset == TSR_VIEW_KEEP_OFFSET) offset = t->storage_offset;
    tsr_tensor *v = tsr_tensor_from_storage(t->storage, offset, n, sizes, strides, t->dtype);
    if (v) {
        v->device = t->device;
        v->layout = t->layout;
        v->base = tsr_tensor_retain(t->base ? t->base : (tsr_tensor *)t);
    }
    return v;
}

tsr_tensor *tsr_view_unfold(const tsr_tensor *t, int64_t dim, int64_t size, int64_t step)
{
    int d = tsr_wrap_dim(dim, t->ndim);
    if (d < 0) return NULL;
    int64_t max_size = t->ndim == 0 ? 1 : t->sizes[d];
    if (size > max_size) {
        tsr_error_set(TSR_ERR_RUNTIME, "maximum size for tensor at dimension %d is %lld but size is %lld",
                      d, (long long)max_size, (long long)size);
        return NULL;
    }
    if (size < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "size is %lld but must be >= 0", (long long)size);
        return NULL;
    }
    if (step <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "step is %lld but must be > 0", (long long)step);
        return NULL;
    }
    if (t->ndim + 1 > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr supports at most %d dimensions, got %d", TSR_MAX_DIMS, t->ndim + 1);
        return NULL;
    }
    int64_t sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    for (int i = 0; i < t->ndim; i++) {
        sizes[i] = t->sizes[i];
        strides[i] = t->strides[i];
    }
    int n = t->ndim;
    sizes[n] = size;
    strides[n] = t->ndim == 0 ? 1 : t->strides[d];
    if (t->ndim > 0) {
        sizes[d] = (t->sizes[d] - size) / step + 1;
        strides[d] = step * t->strides[d];
    }
    return tsr_tensor_alias(t, n + 1, sizes, strides, t->storage_offset);
}

tsr_tensor *tsr_view_diagonal(const tsr_tensor *t, int64_t offset, int64_t dim1, int64_t dim2)
{
    int d1 = tsr_wrap_dim(dim1, t->ndim);
    if (d1 < 0) return NULL;
    int d2 = tsr_wrap_dim(dim2, t->ndim);
    if (d2 < 0) return NULL;
    if (d1 == d2) {
        tsr_error_set(TSR_ERR_RUNTIME, "diagonal dimensions cannot be identical %lld, %lld",
                      (long long)dim1, (long long)dim2);
        return NULL;
    }
    int64_t n;
    int64_t off = t->storage_offset;
    if (offset >= 0) {
        n = t->sizes[d1] < t->sizes[d2] - offset ? t->sizes[d1] : t->sizes[d2] - offset;
    } else {
        n = t->sizes[d1] + offset < t->sizes[d2] ? t->sizes[d1] + offset : t->sizes[d2];
    }
    if (n <= 0) n = 0;
    else if (offset >= 0) off += offset * t->strides[d2];
    else off -= offset * t->strides[d1];
    int64_t sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    int k = 0;
    for (int i = 0; i < t->ndim; i++)
        if (i != d1 && i != d2) {
            sizes[k] = t->sizes[i];
            strides[k++] = t->strides[i];
        }
    sizes[k] = n;
    strides[k++] = t->strides[d1] + t->strides[d2];
    return tsr_tensor_alias(t, k, sizes, strides, off);
}

static tsr_tensor *complex_part(const tsr_tensor *t, int part)
{
    tsr_tensor *v = tsr_view_alias(t);
    if (!v) return NULL;
    v->dtype = tsr_dtype_to_real(t->dtype);
    for (int i = 0; i < v->ndim; i++) v->strides[i] *= 2;
    v->storage_offset = t->storage_offset * 2 + part;
    /* the imaginary part of a conj view is a view with the negative bit
     * (1.13's at::imag: view_as_real(self._conj())._neg_view()) */
    v->neg = part == 1 ? t->conj != t->neg : t->neg;
    v->conj = false;
    return v;
}

tsr_tensor *tsr_view_real(const tsr_tensor *t)
{
    if (!tsr_dtype_is_complex(t->dtype)) return tsr_tensor_retain((tsr_tensor *)t);
    return complex_part(t, 0);
}

tsr_tensor *tsr_view_imag(const tsr_tensor *t)
{
    if (!tsr_dtype_is_complex(t->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "imag is not implemented for tensors with non-complex dtypes.");
        return NULL;
    }
    return complex_part(t, 1);
}

static tsr_tensor *view_dtype(const tsr_tensor *t, tsr_dtype dtype);

tsr_tensor *tsr_view_dtype(const tsr_tensor *t, tsr_dtype dtype)
{
    tsr_tensor *v = view_dtype(t, dtype);
    if (v) tsr_tensor_unview(v);   /* 1.13: x.view(dtype)._is_view() is False */
    return v;
}

static tsr_tensor *view_dtype(const tsr_tensor *t, tsr_dtype dtype)
{
    int from = tsr_dtype_itemsize(t->dtype), to = tsr_dtype_itemsize(dtype);
    const char *a = tsr_dtype_scalar_name(t->dtype), *b = tsr_dtype_scalar_name(dtype);
    if (!tsr_dtype_valid(dtype)) {
        tsr_error_set(TSR_ERR_VALUE, "invalid dtype %d", (int)dtype);
        return NULL;
    }
    tsr_tensor *v;
    if (t->conj && dtype != t->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.Tensor.view is not supported for conjugate view tensors when "
                      "converting to a different dtype.");
        return NULL;
    }
    if (from == to) {
        v = tsr_view_alias(t);
        if (v) v->dtype = dtype;
        return v;
    }
    int last = t->ndim - 1;
    if (t->ndim == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "self.dim() cannot be 0 to view %s as %s (different element sizes)", a, b);
        return NULL;
    }
    if (from > to) {
        int64_t r = from / to;
        if (t->strides[last] != 1) {
            tsr_error_set(TSR_ERR_RUNTIME, "self.stride(-1) must be 1 to view %s as %s (different element sizes), but got %lld",
                          a, b, (long long)t->strides[last]);
            return NULL;
        }
        v = tsr_view_alias(t);
        if (!v) return NULL;
        for (int i = 0; i < last; i++) v->strides[i] *= r;
        v->sizes[last] *= r;
        v->storage_offset *= r;
    } else {
        int64_t r = to / from;
        if (t->sizes[last] % r != 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "self.size(-1) must be divisible by %lld to view %s as %s (different element sizes), but got %lld",
                          (long long)r, a, b, (long long)t->sizes[last]);
            return NULL;
        }
        if (t->strides[last] != 1) {
            tsr_error_set(TSR_ERR_RUNTIME, "self.stride(-1) must be 1 to view %s as %s (different element sizes), but got %lld",
                          a, b, (long long)t->strides[last]);
            return NULL;
        }
        if (t->storage_offset % r != 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "self.storage_offset() must be divisible by %lld to view %s as %s (different element sizes), but got %lld",
                          (long long)r, a, b, (long long)t->storage_offset);
            return NULL;
        }
        for (int i = 0; i < last; i++)
            if (t->strides[i] % r != 0) {
                tsr_error_set(TSR_ERR_RUNTIME, "self.stride(%d) must be divisible by %lld to view %s as %s (different element sizes), but got %lld",
                              i, (long long)r, a, b, (long long)t->strides[i]);
                return NULL;
            }
        v = tsr_view_alias(t);
        if (!v) return NULL;
        for (int i = 0; i < last; i++) v->strides[i] /= r;
        v->sizes[last] /= r;
        v->storage_offset /= r;
    }
    v->dtype = dtype;
    return v;
}

int tsr_movedim_order(int nd, int n, const int64_t *src, int ndst, const int64_t *dst, int64_t *perm)
{
    char a[1024], b[1024];
    if (n != ndst) {
        tsr_error_set(TSR_ERR_RUNTIME, "movedim: Invalid source or destination dims: source (%s dims) should "
                      "contain the same number of dims as destination (%s dims)",
                      tsr__fmt_list(a, sizeof a, n, src), tsr__fmt_list(b, sizeof b, ndst, dst));
        return -1;
    }
    if (n > (nd ? nd : 1)) {   /* more dims than the tensor has: some must repeat or be out of range */
        for (int i = 0; i < n; i++)
            if (tsr_wrap_dim(src[i], nd) < 0 || tsr_wrap_dim(dst[i], nd) < 0) return -1;
        tsr_error_set(TSR_ERR_RUNTIME, "movedim: repeated dim in `source` (%s)", tsr__fmt_list(a, sizeof a, n, src));
        return -1;
    }
    int s[TSR_MAX_DIMS], d[TSR_MAX_DIMS], order[TSR_MAX_DIMS];
    bool used_s[TSR_MAX_DIMS] = {false}, used_d[TSR_MAX_DIMS] = {false};
    for (int i = 0; i < n; i++) {
        if ((s[i] = tsr_wrap_dim(src[i], nd)) < 0) return -1;
        if ((d[i] = tsr_wrap_dim(dst[i], nd)) < 0) return -1;
    }
    for (int i = 0; i < n; i++) {
        if (used_s[s[i]]) {
            tsr_error_set(TSR_ERR_RUNTIME, "movedim: repeated dim in `source` (%s)", tsr__fmt_list(a, sizeof a, n, src));
            return -1;
        }
        used_s[s[i]] = true;
    }
    for (int i = 0; i < n; i++) {
        if (used_d[d[i]]) {
            tsr_error_set(TSR_ERR_RUNTIME, "movedim: repeated dim in `destination` (%s)", tsr__fmt_list(b, sizeof b, n, dst));
            return -1;
        }
        used_d[d[i]] = true;
    }
    if (nd == 0) return 1;
    for (int i = 0; i < nd; i++) order[i] = -1;
    for (int i = 0; i < n; i++) order[d[i]] = s[i];
    for (int i = 0, rs = 0; i < nd; i++) {
        if (order[i] >= 0) continue;
        while (used_s[rs]) rs++;
        order[i] = rs++;
    }
    for (int i = 0; i < nd; i++) perm[i] = order[i];
    return 0;
}

tsr_tensor *tsr_view_movedim(const tsr_tensor *t, int n, const int64_t *src, int ndst, const int64_t *dst)
{
    int64_t perm[TSR_MAX_DIMS];
    int rc = tsr_movedim_order(t->ndim, n, src, ndst, dst, perm);
    if (rc < 0) return NULL;
    return rc ? tsr_view_alias(t) : tsr_view_permute(t, t->ndim, perm);
}

int tsr_dim_of_name(const tsr_tensor *t, const char *name)
{
    if (!name) {
        tsr_error_set(TSR_ERR_RUNTIME, "Please look up dimensions by name, got: name = None.");
        return -1;
    }
    for (int i = 0; t->names && i < t->ndim; i++)
        if (t->names[i] && !strcmp(t->names[i], name)) return i;
    char buf[1024];
    tsr_names_format(buf, sizeof buf, t->names, t->ndim);
    tsr_error_set(TSR_ERR_RUNTIME, "Name '%s' not found in Tensor%s.", name, buf);
    return -1;
}

tsr_tensor *tsr_view_narrow_tensor(const tsr_tensor *t, int64_t dim, const tsr_tensor *start, int64_t length)
{
    if (start->ndim != 0 || !tsr_dtype_is_integral(start->dtype, false)) {
        tsr_error_set(TSR_ERR_RUNTIME, "start must be an 0-dim integral Tensor.");
        return NULL;
    }
    int64_t s = tsr_tensor_get_int64_at(start, 0);
    if (tsr_error_occurred()) return NULL;
    return tsr_view_narrow(t, dim, s, length);
}

tsr_tensor *tsr_view_as_strided_checked(const tsr_tensor *t, int n, const int64_t *sizes, int ns,
                                        const int64_t *strides, int64_t offset)
{
    if (n != ns) {
        tsr_error_set(TSR_ERR_RUNTIME, "mismatch in length of strides and shape");
        return NULL;
    }
    return tsr_view_as_strided(t, n, sizes, strides, offset);
}

tsr_tensor *tsr_view_mT(const tsr_tensor *t)
{
    if (t->ndim == 0) return tsr_tensor_retain((tsr_tensor *)t);   /* 1.13 returns self */
    if (t->ndim < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "tensor.mT is only supported on matrices or batches of matrices. Got %d-D tensor.",
                      t->ndim);
        return NULL;
    }
    return tsr_view_transpose(t, -2, -1);
}

/* The view with the conjugate bit flipped (conj of a complex tensor); v
 * itself for a real one. Steals v. */
static tsr_tensor *conj_view(tsr_tensor *v)
{
    if (v && tsr_dtype_is_complex(v->dtype)) v->conj = !v->conj;
    return v;
}

tsr_tensor *tsr_view_mH(const tsr_tensor *t)
{
    if (t->ndim == 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "tensor.mH is only supported on matrices or batches of matrices. Got 1-D tensor.");
        return NULL;
    }
    if (t->ndim == 0 && tsr_dtype_is_complex(t->dtype)) return conj_view(tsr_view_alias(t));
    return conj_view(tsr_view_mT(t));
}

tsr_tensor *tsr_view_H(const tsr_tensor *t)
{
    if (t->ndim != 2 && t->ndim != 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "tensor.H is only supported on matrices (2-D tensors). Got %d-D tensor.", t->ndim);
        return NULL;
    }
    return conj_view(t->ndim == 0 ? tsr_view_alias(t) : tsr_view_t(t));
}

int tsr_tensor_dim_query(const tsr_tensor *t, int64_t dim, bool stride, int64_t *out)
{
    int w = tsr_wrap_dim(dim, t->ndim);
    if (w < 0) return -1;
    if (t->ndim == 0) {
        tsr_error_set(TSR_ERR_INDEX, "Dimension specified as %lld but tensor has no dimensions", (long long)dim);
        return -1;
    }
    *out = stride ? t->strides[w] : t->sizes[w];
    return 0;
}

int tsr_view_inplace_check(const tsr_tensor *t, const char *schema)
{
    if (t->names) {
        for (int i = 0; i < t->ndim; i++)
            if (t->names[i]) return tsr_names_refuse(schema);
    }
    if (!strcmp(schema, "aten::t_") && t->ndim > 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "t_() expects a tensor with <= 2 dimensions, but self is %dD", t->ndim);
        return -1;
    }
    return 0;
}

tsr_tensor *tsr_view_inplace(tsr_tensor *t, const tsr_tensor *v, const char *schema)
{
    if (tsr_view_inplace_check(t, schema) < 0) return NULL;
    tsr_tensor *r = t;
    if (v->ndim <= t->dims_cap) {
        tsr_tensor_retain(t);
    } else {
        r = tsr__header(t->storage, v->ndim, t->dtype, t->device);
        if (!r) return NULL;
        r->layout = t->layout;
        r->requires_grad = t->requires_grad;
        r->conj = t->conj;
        r->neg = t->neg;
        r->base = t->base ? tsr_tensor_retain(t->base) : NULL;
        r->autograd = t->autograd;
        t->autograd = NULL;
    }
    r->ndim = v->ndim;
    r->sizes = r->dims;
    r->strides = r->dims + v->ndim;
    if (v->ndim) memmove(r->sizes, v->sizes, (size_t)v->ndim * sizeof *v->sizes);
    if (v->ndim) memmove(r->strides, v->strides, (size_t)v->ndim * sizeof *v->strides);
    r->storage_offset = v->storage_offset;
    return r;
}
