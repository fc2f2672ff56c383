/* runtime/ops/join.c — cat, stack and their torch/functional cousins, and the
 * split family (TensorShape.cpp, 1.13). cat copies each input into a narrow
 * of the output, so dtype conversion is copy_'s; splits are narrows/selects. */
#include <stdlib.h>
#include <string.h>
#include "../error.h"
#include "../internal.h"
#include "../iter.h"
#include "../promote.h"
#include "../view.h"
#include "copy.h"
#include "join.h"
#include "shape.h"

static const char overlap_msg[] = "unsupported operation: some elements of the input tensor and the written-to "
                                  "tensor refer to a single memory location. Please clone() the tensor before "
                                  "performing the operation.";

/* at::assert_no_overlap: full or partial overlap of two dense tensors. */
static int check_no_overlap(const tsr_tensor *a, const tsr_tensor *b)
{
    if (tsr_tensor_numel(a) == 0 || tsr_tensor_numel(b) == 0) return 0;
    if (a->storage != b->storage || !a->storage->data) return 0;
    if (!tsr_tensor_is_non_overlapping_and_dense(a) || !tsr_tensor_is_non_overlapping_and_dense(b)) return 0;
    int64_t as = a->storage_offset * tsr_tensor_itemsize(a), ae = as + tsr_tensor_nbytes(a);
    int64_t bs = b->storage_offset * tsr_tensor_itemsize(b), be = bs + tsr_tensor_nbytes(b);
    if (as < be && bs < ae) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s", overlap_msg);
        return -1;
    }
    return 0;
}

/* at::native::resize_output then the structured kernels' restride: out gets
 * (nd, sizes) laid out in mf when its shape changes. 0 or -1. */
static int resize_out(tsr_tensor *out, int nd, const int64_t *sizes, tsr_memory_format mf)
{
    bool same = out->ndim == nd && !memcmp(out->sizes, sizes, sizeof(int64_t) * (size_t)nd);
    if (same) return 0;
    if (tsr_tensor_numel(out) != 0) tsr_warn_output_resized(out, nd, sizes);
    if (tsr_tensor_resize_(out, nd, sizes) < 0) return -1;
    if (mf != TSR_MF_CONTIGUOUS) {
        int64_t st[TSR_MAX_DIMS];
        if (tsr_strides_for_format(nd, sizes, mf, st) == 0) memcpy(out->strides, st, sizeof(int64_t) * (size_t)nd);
    }
    return 0;
}

static bool skip_legacy(const tsr_tensor *t)
{
    return t->ndim == 1 && t->sizes[0] == 0;
}

static bool external(tsr_device d) { return d.type != TSR_DEV_CPU && d.type != TSR_DEV_META; }

/* The device check of 1.13's generated CUDA wrapper (RegisterCUDA.cpp:
 * check_and_update_common_device over out, then each of tensors; the
 * first device seen is the common one). Only where a tensor is on a device
 * whose kernel runs the check; 0 or -1. */
static int cat_device_check(int n, const tsr_tensor *const *ts, const tsr_tensor *out)
{
    bool ext = out && external(out->device);
    for (int i = 0; i < n && !ext; i++) ext = external(ts[i]->device);
    if (!ext) return 0;
    tsr_device common = out ? out->device : ts[0]->device;
    for (int i = 0; i < n; i++)
        if (!tsr_device_equal(common, ts[i]->device)) {
            char a[32], b[32];
            tsr_error_set(TSR_ERR_RUNTIME, "Expected all tensors to be on the same device, but found at least two "
                          "devices, %s and %s! (when checking argument for argument tensors in method %s)",
                          tsr_device_str(common, a, sizeof a), tsr_device_str(ts[i]->device, b, sizeof b),
                          out ? "wrapper_cat_out_out" : "wrapper_cat");
            return -1;
        }
    return 0;
}

tsr_tensor *tsr_cat(int n, const tsr_tensor *const *ts, int64_t dim, tsr_tensor *out)
{
    for (int i = 0; i < n; i++)
        if (ts[i]->sparse) return tsr_sparse_cat(n, ts, dim, out);   /* cat_sparse */
    if (cat_device_check(n, ts, out) < 0) return NULL;
    for (int i = 0; i < n; i++)
        if (ts[i]->ndim == 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "zero-dimensional tensor (at position %d) cannot be concatenated", i);
            return NULL;
        }
    int valid = -1;
    for (int i = 0; i < n && valid < 0; i++)
        if (!skip_legacy(ts[i])) valid = i;
    int d = 0;
    if (valid >= 0 && (d = tsr_wrap_dim(dim, ts[valid]->ndim)) < 0) return NULL;
    if (n == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.cat(): expected a non-empty list of Tensors");
        return NULL;
    }
    /* compute_output_memory_format: the inputs' common suggestion, else contiguous */
    tsr_memory_format mf = tsr_tensor_suggest_memory_format(ts[0]);
    for (int i = 1; i < n; i++)
        if (tsr_tensor_suggest_memory_format(ts[i]) != mf) mf = TSR_MF_CONTIGUOUS;
    tsr_dtype dt = ts[0]->dtype;
    for (int i = 1; i < n; i++) dt = tsr_promote_types(dt, ts[i]->dtype);
    if (out) {
        if (!tsr_can_cast(dt, out->dtype)) {
            tsr_error_set(TSR_ERR_RUNTIME, "torch.cat(): input types can't be cast to the desired output type %s",
                          tsr_dtype_scalar_name(out->dtype));
            return NULL;
        }
        dt = out->dtype;
    }
    int nd = 1;
    int64_t sizes[TSR_MAX_DIMS] = {0};
    tsr_device dev = ts[0]->device;
    bool meta = false;
    for (int i = 0; i < n; i++) meta |= tsr_device_is_meta(ts[i]->device);
    if (valid >= 0) {
        const tsr_tensor *v = ts[valid];
        nd = v->ndim;
        memcpy(sizes, v->sizes, sizeof(int64_t) * (size_t)nd);
        sizes[d] = 0;
        for (int i = 0; i < n; i++) {
            const tsr_tensor *t = ts[i];
            if (skip_legacy(t)) continue;
            if (t->ndim != nd) {
                tsr_error_set(TSR_ERR_RUNTIME, "Tensors must have same number of dimensions: got %d and %d", nd, t->ndim);
                return NULL;
            }
            for (int k = 0; k < nd; k++)
                if (k != d && t->sizes[k] != v->sizes[k]) {
                    tsr_error_set(TSR_ERR_RUNTIME, "Sizes of tensors must match except in dimension %d. Expected "
                                  "size %lld but got size %lld for tensor number %d in the list.", d,
                                  (long long)v->sizes[k], (long long)t->sizes[k], i);
                    return NULL;
                }
            sizes[d] += t->sizes[d];
        }
        dev = v->device;
    } else {
        mf = TSR_MF_CONTIGUOUS;
    }
    if (meta) dev = (tsr_device){.type = TSR_DEV_META};
    tsr_tensor *r;
    if (out) {
        if (resize_out(out, nd, sizes, mf) < 0) return NULL;
        if (valid >= 0) {
            if (tsr_check_no_internal_overlap(out) < 0) return NULL;
            for (int i = 0; i < n; i++)
                if (check_no_overlap(out, ts[i]) < 0) return NULL;
        }
        r = tsr_tensor_retain(out);
    } else {
        r = tsr_tensor_empty_format(nd, sizes, dt, dev, mf);
        if (!r) return NULL;
    }
    if (tsr_device_is_meta(r->device) || valid < 0) return r;
    /* out= is written whole or not at all (each copy_ alone would be) */
    bool hold = out != NULL;
    if (hold && tsr_interrupt_hold() < 0) {
        hold = false;
        goto fail;
    }
    int64_t off = 0;
    for (int i = 0; i < n; i++) {
        const tsr_tensor *t = ts[i];
        if (skip_legacy(t)) continue;
        if (t->sizes[d] == 0) continue;
        tsr_tensor *part = tsr_view_narrow(r, d, off, t->sizes[d]);
        int rc = part ? tsr_copy_(part, t) : -1;
        tsr_tensor_release(part);
        if (rc < 0 || tsr_check_interrupt() < 0) goto fail;
        off += t->sizes[d];
    }
    if (hold) tsr_interrupt_unhold();
    return r;
fail:
    if (hold) tsr_interrupt_unhold();
    tsr_tensor_release(r);
    return NULL;
}

static tsr_tensor *unsqueeze(const tsr_tensor *t, int64_t dim)
{
    return t->sparse ? tsr_sparse_unsqueeze(t, dim) : tsr_view_unsqueeze(t, dim);
}

/* Each of ts unsqueezed at dim (new references into us[]); 0 or -1. */
static int unsqueeze_all(int n, const tsr_tensor *const *ts, int64_t dim, tsr_tensor **us)
{
    for (int i = 0; i < n; i++) {
        us[i] = unsqueeze(ts[i], dim);
        if (!us[i]) {
            while (i-- > 0) tsr_tensor_release(us[i]);
            return -1;
        }
    }
    return 0;
}

tsr_tensor *tsr_stack(int n, const tsr_tensor *const *ts, int64_t dim, tsr_tensor *out)
{
    if (n == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "stack expects a non-empty TensorList");
        return NULL;
    }
    int d = tsr_wrap_dim(dim, ts[0]->ndim + 1);
    if (d < 0) return NULL;
    for (int i = 1; i < n; i++) {
        bool same = ts[i]->ndim == ts[0]->ndim &&
                    !memcmp(ts[i]->sizes, ts[0]->sizes, sizeof(int64_t) * (size_t)ts[0]->ndim);
        if (!same) {
            char x[512], y[512];
            tsr_error_set(TSR_ERR_RUNTIME, "stack expects each tensor to be equal size, but got %s at entry 0 and %s "
                          "at entry %d", tsr__fmt_list(x, sizeof x, ts[0]->ndim, ts[0]->sizes),
                          tsr__fmt_list(y, sizeof y, ts[i]->ndim, ts[i]->sizes), i);
            return NULL;
        }
    }
    tsr_tensor **us = tsr_calloc((size_t)n, sizeof *us);
    if (!us) {
        return NULL;
    }
    tsr_tensor *r = NULL;
    if (unsqueeze_all(n, ts, d, us) == 0) {
        r = tsr_cat(n, (const tsr_tensor *const *)us, d, out);
        for (int i = 0; i < n; i++) tsr_tensor_release(us[i]);
    }
    free(us);
    return r;
}

tsr_tensor *tsr_atleast(const tsr_tensor *t, int nd)
{
    int64_t one = 1;
    if (t->ndim >= nd) return tsr_tensor_retain((tsr_tensor *)t);
    if (t->ndim == 0) {
        int64_t s[3] = {1, 1, 1};
        return tsr_view_view(t, nd, s);
    }
    if (nd == 2) return unsqueeze(t, 0);
    /* atleast_3d: (N) -> (1, N, 1); (M, N) -> (M, N, 1) */
    if (t->ndim == 1) {
        tsr_tensor *a = unsqueeze(t, 0);
        tsr_tensor *b = a ? unsqueeze(a, -1) : NULL;
        tsr_tensor_release(a);
        return b;
    }
    (void)one;
    return unsqueeze(t, -1);
}

tsr_tensor *tsr_stack_kind(char kind, const char *fname, int n, const tsr_tensor *const *ts, tsr_tensor *out)
{
    if (n == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s expects a non-empty TensorList", fname);
        return NULL;
    }
    tsr_tensor **us = tsr_calloc((size_t)n, sizeof *us);
    if (!us) {
        return NULL;
    }
    tsr_tensor *r = NULL;
    int i;
    for (i = 0; i < n; i++) {
        const tsr_tensor *t = ts[i];
        if (kind == 'c') {   /* column_stack: 0- and 1-dim inputs become columns */
            int64_t s[2] = {tsr_tensor_numel(t), 1};
            us[i] = t->ndim <= 1 ? tsr_reshape(t, 2, s) : tsr_tensor_retain((tsr_tensor *)t);
        } else {
            us[i] = tsr_atleast(t, kind == 'h' ? 1 : kind == 'v' ? 2 : 3);
        }
        if (!us[i]) goto done;
    }
    int64_t d = kind == 'h' ? (us[0]->ndim == 1 ? 0 : 1) : kind == 'v' ? 0 : kind == 'd' ? 2 : 1;
    r = tsr_cat(n, (const tsr_tensor *const *)us, d, out);
done:
    tsr_tensors_free(i, us);
    return r;
}

/* ------------------------------------------------------------ splits */

void tsr_tensors_free(int n, tsr_tensor **parts)
{
    if (!parts) return;
    for (int i = 0; i < n; i++) tsr_tensor_release(parts[i]);
    free(parts);
}

static tsr_tensor **parts_new(int64_t n)
{
    tsr_tensor **p = tsr_calloc((size_t)(n > 0 ? n : 1), sizeof *p);
    return p;
}

/* maybe_wrap_dim without the 0-dim allowance: "Dimension specified as 0 but
 * tensor has no dimensions". */
static int wrap_dim_strict(int64_t dim, int ndim)
{
    if (ndim == 0) {
        tsr_error_set(TSR_ERR_INDEX, "Dimension specified as %lld but tensor has no dimensions", (long long)dim);
        return -1;
    }
    return tsr_wrap_dim(dim, ndim);
}

/* n narrows of t along d with the given lengths (starting at 0). */
static int narrows(const tsr_tensor *t, int d, int n, const int64_t *lens, tsr_tensor ***parts)
{
    tsr_tensor **p = parts_new(n);
    if (!p) return -1;
    int64_t off = 0;
    for (int i = 0; i < n; i++) {
        p[i] = tsr_view_narrow(t, d, off, lens[i]);
        if (!p[i]) {
            tsr_tensors_free(i, p);
            return -1;
        }
        off += lens[i];
    }
    *parts = p;
    return n;
}

int tsr_split(const tsr_tensor *t, int64_t split_size, int64_t dim, tsr_tensor ***parts)
{
    if (t->ndim == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "split expects at least a 1-dimensional tensor");
        return -1;
    }
    if (split_size < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "split expects split_size be non-negative, but got split_size=%lld",
                      (long long)split_size);
        return -1;
    }
    int d = tsr_wrap_dim(dim, t->ndim);
    if (d < 0) return -1;
    int64_t size = t->sizes[d];
    if (split_size == 0 && size != 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "split_size can only be 0 if dimension size is 0, but got dimension size of %lld",
                      (long long)size);
        return -1;
    }
    int64_t n = 1;
    if (split_size != 0) n = (size + split_size - 1) / split_size > 1 ? (size + split_size - 1) / split_size : 1;
    int64_t *lens = tsr_malloc(sizeof *lens * (size_t)n);
    if (!lens) {
        return -1;
    }
    for (int64_t i = 0; i < n; i++) lens[i] = split_size;
    lens[n - 1] = split_size - (split_size * n - size);
    int rc = narrows(t, d, (int)n, lens, parts);
    free(lens);
    return rc;
}

int tsr_split_with_sizes(const tsr_tensor *t, int n, const int64_t *sizes, int64_t dim, tsr_tensor ***parts)
{
    char buf[1024];
    if (t->ndim == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "split expects at least a 1-dimensional tensor");
        return -1;
    }
    int d = tsr_wrap_dim(dim, t->ndim);
    if (d < 0) return -1;
    int64_t sum = 0;
    for (int i = 0; i < n; i++) {
        if (sizes[i] < 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "split_with_sizes expects split_sizes have only non-negative entries, but "
                          "got split_sizes=%s", tsr__fmt_list(buf, sizeof buf, n, sizes));
            return -1;
        }
        sum += sizes[i];
    }
    if (sum != t->sizes[d]) {
        tsr_error_set(TSR_ERR_RUNTIME, "split_with_sizes expects split_sizes to sum exactly to %lld (input tensor's "
                      "size at dimension %d), but got split_sizes=%s", (long long)t->sizes[d], d,
                      tsr__fmt_list(buf, sizeof buf, n, sizes));
        return -1;
    }
    return narrows(t, d, n, sizes, parts);
}

int tsr_chunk(const tsr_tensor *t, int64_t chunks, int64_t dim, tsr_tensor ***parts)
{
    if (t->ndim == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "chunk expects at least a 1-dimensional tensor");
        return -1;
    }
    if (chunks <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "chunk expects `chunks` to be greater than 0, got: %lld", (long long)chunks);
        return -1;
    }
    int d = tsr_wrap_dim(dim, t->ndim);
    if (d < 0) return -1;
    int64_t size = t->sizes[d], split = (size + chunks - 1) / chunks;
    if (split == 0 && size == 0) {
        int64_t *lens = tsr_calloc((size_t)chunks, sizeof *lens);
        if (!lens) {
            return -1;
        }
        int rc = tsr_split_with_sizes(t, (int)chunks, lens, d, parts);
        free(lens);
        return rc;
    }
    return tsr_split(t, split, d, parts);
}

int tsr_unbind(const tsr_tensor *t, int64_t dim, tsr_tensor ***parts)
{
    if (t->sparse) return tsr_sparse_unbind(t, dim, parts);   /* a select per index */
    int d = wrap_dim_strict(dim, t->ndim);
    if (d < 0) return -1;
    int64_t n = t->sizes[d];
    tsr_tensor **p = parts_new(n);
    if (!p) return -1;
    for (int64_t i = 0; i < n; i++) {
        p[i] = tsr_view_select(t, d, i);
        if (!p[i]) {
            tsr_tensors_free((int)i, p);
            return -1;
        }
    }
    *parts = p;
    return (int)n;
}

static int split_dim_check(const tsr_tensor *t, int64_t dim)
{
    if (t->ndim == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 "
                      "dims");
        return -1;
    }
    return tsr_wrap_dim(dim, t->ndim);
}

int tsr_tensor_split_sections(const tsr_tensor *t, int64_t sections, int64_t dim, tsr_tensor ***parts)
{
    int d = split_dim_check(t, dim);
    if (d < 0) return -1;
    if (sections <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "number of sections must be larger than 0, got %lld", (long long)sections);
        return -1;
    }
    int64_t size = t->sizes[d], min = size / sections, extra = size % sections;
    tsr_tensor **p = parts_new(sections);
    if (!p) return -1;
    int64_t start = 0;
    for (int64_t i = 0; i < sections; i++) {
        int64_t len = i < extra ? min + 1 : min;
        p[i] = tsr_view_slice(t, d, start, start + len, 1);
        if (!p[i]) {
            tsr_tensors_free((int)i, p);
            return -1;
        }
        start += len;
    }
    *parts = p;
    return (int)sections;
}

int tsr_tensor_split_indices(const tsr_tensor *t, int n, const int64_t *idx, int64_t dim, tsr_tensor ***parts)
{
    int d = split_dim_check(t, dim);
    if (d < 0) return -1;
    tsr_tensor **p = parts_new(n + 1);
    if (!p) return -1;
    int64_t start = 0;
    for (int i = 0; i <= n; i++) {
        int64_t end = i < n ? idx[i] : t->sizes[d];
        p[i] = tsr_view_slice(t, d, start, end, 1);
        if (!p[i]) {
            tsr_tensors_free(i, p);
            return -1;
        }
        start = end;
    }
    *parts = p;
    return n + 1;
}

int tsr_tensor_split_tensor(const tsr_tensor *t, const tsr_tensor *ind, int64_t dim, tsr_tensor ***parts)
{
    if (ind->dtype != TSR_INT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "tensor_split expected tensor_indices_or_sections to have dtype of long, but got %s",
                      tsr_dtype_scalar_name(ind->dtype));
        return -1;
    }
    if (ind->ndim > 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                      "one-dimensional tensor, but got a tensor with %d dims", ind->ndim);
        return -1;
    }
    if (ind->ndim == 0) {
        int64_t s = tsr_tensor_get_int64(ind, NULL);
        return tsr_tensor_split_sections(t, s, dim, parts);
    }
    int64_t n = ind->sizes[0];
    int64_t *idx = tsr_malloc(sizeof *idx * (size_t)(n > 0 ? n : 1));
    if (!idx) {
        return -1;
    }
    for (int64_t i = 0; i < n; i++) idx[i] = tsr_tensor_get_int64(ind, &i);
    int rc = tsr_tensor_split_indices(t, (int)n, idx, dim, parts);
    free(idx);
    return rc;
}

int tsr_dirsplit(char kind, const tsr_tensor *t, int64_t sections, int n, const int64_t *idx, tsr_tensor ***parts)
{
    int need = kind == 'h' ? 1 : kind == 'v' ? 2 : 3;
    const char *name = kind == 'h' ? "hsplit" : kind == 'v' ? "vsplit" : "dsplit";
    if (t->ndim < need) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.%s requires a tensor with at least %d dimension, but got a tensor with %d "
                      "dimensions!", name, need, t->ndim);
        return -1;
    }
    int d = kind == 'h' ? (t->ndim == 1 ? 0 : 1) : kind == 'v' ? 0 : 2;
    if (sections < 0) return tsr_tensor_split_indices(t, n, idx, d, parts);
    if (sections == 0 || t->sizes[d] % sections != 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.%s attempted to split along dimension %d, but the size of the dimension "
                      "%lld is not divisible by the split_size %lld!", name, d, (long long)t->sizes[d],
                      (long long)sections);
        return -1;
    }
    return tsr_tensor_split_sections(t, sections, d, parts);
}
