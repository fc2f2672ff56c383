/* runtime/tensor.c — tensor headers, sizes with overflow checks, default and
 * memory-format strides, contiguity predicates (SEMANTICS.md §4.1–4.3,
 * c10/core/TensorImpl.cpp, MemoryFormat.h), element access. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "error.h"
#include "internal.h"
#include "tensor.h"

static const char *const layout_names[TSR_LAYOUT_COUNT] = {
    "torch.strided", "torch.sparse_coo", "torch.sparse_csr", "torch.sparse_csc",
    "torch.sparse_bsr", "torch.sparse_bsc", "torch._mkldnn",
};
_Static_assert(sizeof layout_names / sizeof layout_names[0] == TSR_LAYOUT_COUNT, "layout_names");

const char *tsr_layout_name(tsr_layout l)
{
    return (unsigned)l < TSR_LAYOUT_COUNT ? layout_names[l] : "torch.strided";
}

const char *tsr_memory_format_name(tsr_memory_format mf)
{
    switch (mf) {
    case TSR_MF_CONTIGUOUS: return "torch.contiguous_format";
    case TSR_MF_PRESERVE: return "torch.preserve_format";
    case TSR_MF_CHANNELS_LAST: return "torch.channels_last";
    case TSR_MF_CHANNELS_LAST_3D: return "torch.channels_last_3d";
    }
    return "torch.contiguous_format";
}

char *tsr__fmt_list(char *buf, size_t n, int count, const int64_t *v)
{
    size_t k = 0;
    if (n == 0) return buf;
    buf[0] = 0;
    k += (size_t)snprintf(buf + k, n - k, "[");
    for (int i = 0; i < count && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, i ? ", %lld" : "%lld", (long long)v[i]);
    if (k < n) snprintf(buf + k, n - k, "]");
    return buf;
}

int tsr__sparse_refused(const tsr_tensor *t)
{
    tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: this operation does not support tensors of layout %s (no kernel for "
                  "the '%s' backend)", tsr_layout_name(t->layout), tsr_device_is_meta(t->device) ? "SparseMeta" : "SparseCPU");
    return -1;
}

tsr_tensor *tsr__sparse_alias(const tsr_tensor *t)
{
    tsr_tensor *v = tsr__header(t->storage, t->ndim, t->dtype, t->device);
    tsr_sparse *sp = v ? tsr_malloc(sizeof *sp) : NULL;
    if (!sp) {
        tsr_tensor_release(v);
        return NULL;
    }
    *sp = *t->sparse;
    tsr_tensor_retain(sp->indices);
    tsr_tensor_retain(sp->values);
    for (int d = 0; d < t->ndim; d++) {
        v->sizes[d] = t->sizes[d];
        v->strides[d] = t->strides[d];
    }
    v->layout = t->layout;
    v->sparse = sp;
    return v;
}

/* ---- headers and refcounts ---- */

#define HDR_SMALL_DIMS 4
#define HDR_KEEP 256
static __thread tsr_tensor *hdr_free;
static __thread int hdr_nfree;

tsr_tensor *tsr__header(tsr_storage *s, int ndim, tsr_dtype dtype, tsr_device device)
{
    if (ndim < 0 || ndim > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr supports at most %d dimensions, got %d", TSR_MAX_DIMS, ndim);
        return NULL;
    }
    tsr_tensor *t;
    int cap = ndim > HDR_SMALL_DIMS ? ndim : HDR_SMALL_DIMS;
    if (cap == HDR_SMALL_DIMS && hdr_free) {
        /* a header kept by tsr_tensor_release: small operations make and drop many */
        if (tsr_fault_tick()) {
            tsr_error_nomem(sizeof *t);
            return NULL;
        }
        t = hdr_free;
        hdr_free = *(tsr_tensor **)t;
        hdr_nfree--;
    } else {
        t = tsr_malloc(sizeof *t + 2 * (size_t)cap * sizeof(int64_t));
        if (!t) return NULL;
    }
    memset(t, 0, sizeof *t);
    t->dims_cap = cap;
    t->refcount = 1;
    t->storage = tsr_storage_retain(s);
    t->ndim = ndim;
    t->sizes = t->dims;
    t->strides = t->dims + ndim;
    t->dtype = dtype;
    t->device = device;
    t->layout = TSR_LAYOUT_STRIDED;
    return t;
}

tsr_tensor *tsr_tensor_retain(tsr_tensor *t)
{
    if (t) __atomic_add_fetch(&t->refcount, 1, __ATOMIC_RELAXED);
    return t;
}

void tsr_tensor_release(tsr_tensor *t)
{
    if (!t || __atomic_sub_fetch(&t->refcount, 1, __ATOMIC_ACQ_REL) != 0) return;
    if (t->autograd) tsr__autograd_free(t->autograd);
    if (t->sparse) {
        tsr_tensor_release(t->sparse->indices);
        tsr_tensor_release(t->sparse->values);
        tsr_free(t->sparse);
    }
    tsr_tensor_release(t->base);   /* a base has no base: one level */
    tsr_storage_release(t->storage);
    tsr_free((void *)t->names);
    if (t->sizes != t->dims) tsr_free(t->sizes);   /* grown by tsr_tensor_resize_ (iter.c) */
    if (t->dims_cap == HDR_SMALL_DIMS && hdr_nfree < HDR_KEEP) {
        *(tsr_tensor **)t = hdr_free;
        hdr_free = t;
        hdr_nfree++;
        return;
    }
    tsr_free(t);
}

/* ---- sizes ---- */

int tsr_mul_overflow(int64_t a, int64_t b, int64_t *out)
{
    if (__builtin_mul_overflow(a, b, out)) {
        tsr_error_set(TSR_ERR_RUNTIME, "integer multiplication overflow: %lld * %lld",
                      (long long)a, (long long)b);
        return -1;
    }
    return 0;
}

int tsr_check_sizes(int ndim, const int64_t *sizes, int64_t *numel)
{
    char buf[1024];
    if (ndim < 0 || ndim > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr supports at most %d dimensions, got %d", TSR_MAX_DIMS, ndim);
        return -1;
    }
    for (int i = 0; i < ndim; i++)
        if (sizes[i] < 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "Trying to create tensor with negative dimension %lld: %s",
                          (long long)sizes[i], tsr__fmt_list(buf, sizeof buf, ndim, sizes));
            return -1;
        }
    int64_t n = 1;
    bool over = false;
    for (int i = 0; i < ndim; i++)
        if (__builtin_mul_overflow(n, sizes[i], &n)) over = true;
    /* An overflowing product with a zero factor is still zero elements. */
    for (int i = 0; i < ndim; i++)
        if (sizes[i] == 0) { n = 0; over = false; }
    if (over) {
        tsr_error_set(TSR_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s",
                      tsr__fmt_list(buf, sizeof buf, ndim, sizes));
        return -1;
    }
    if (numel) *numel = n;
    return 0;
}

int tsr__storage_nbytes(int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset,
                        int itemsize, uint64_t *out)
{
    for (int i = 0; i < ndim; i++)
        if (sizes[i] == 0) { *out = 0; return 0; }
    uint64_t n = 1;
    bool over = offset < 0;
    for (int i = 0; i < ndim && !over; i++) {
        uint64_t term;
        if (sizes[i] < 0 || strides[i] < 0 ||
            __builtin_mul_overflow((uint64_t)(sizes[i] - 1), (uint64_t)strides[i], &term) ||
            __builtin_add_overflow(n, term, &n))
            over = true;
    }
    if (!over && (__builtin_add_overflow(n, (uint64_t)offset, &n) ||
                  __builtin_mul_overflow(n, (uint64_t)itemsize, &n) || n > (uint64_t)INT64_MAX))
        over = true;
    if (over) {
        char a[512], b[512];
        tsr_error_set(TSR_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s and strides=%s",
                      tsr__fmt_list(a, sizeof a, ndim, sizes), tsr__fmt_list(b, sizeof b, ndim, strides));
        return -1;
    }
    *out = n;
    return 0;
}

/* ---- strides (§4.1) ---- */

void tsr_strides_contiguous(int ndim, const int64_t *sizes, int64_t *out)
{
    uint64_t z = 1;   /* sizes whose product overflows are refused elsewhere; wrap meanwhile */
    for (int d = ndim - 1; d >= 0; d--) {
        out[d] = (int64_t)z;
        z *= sizes[d] > 1 ? (uint64_t)sizes[d] : 1;
    }
}

int tsr_strides_for_format(int ndim, const int64_t *sizes, tsr_memory_format mf, int64_t *out)
{
    switch (mf) {
    case TSR_MF_CONTIGUOUS:
        tsr_strides_contiguous(ndim, sizes, out);
        return 0;
    case TSR_MF_CHANNELS_LAST:
        if (ndim != 4) {
            tsr_error_set(TSR_ERR_RUNTIME, "required rank 4 tensor to use channels_last format");
            return -1;
        }
        out[1] = 1;
        out[3] = sizes[1];
        out[2] = out[3] * sizes[3];
        out[0] = out[2] * sizes[2];
        return 0;
    case TSR_MF_CHANNELS_LAST_3D:
        if (ndim != 5) {
            tsr_error_set(TSR_ERR_RUNTIME, "required rank 5 tensor to use channels_last_3d format");
            return -1;
        }
        out[1] = 1;
        out[4] = sizes[1];
        out[3] = out[4] * sizes[4];
        out[2] = out[3] * sizes[3];
        out[0] = out[2] * sizes[2];
        return 0;
    case TSR_MF_PRESERVE:
        break;
    }
    tsr_error_set(TSR_ERR_RUNTIME, "unsupported memory format Preserve");
    return -1;
}

/* ExpandUtils.cpp infer_dense_strides. */
static void infer_dense_strides(int nd, const int64_t *sizes, const int64_t *strides, int64_t *out)
{
    int perm[TSR_MAX_DIMS];
    if (nd == 0) return;
    if (nd == 1) { out[0] = 1; return; }
    for (int i = 0; i < nd; i++) perm[i] = nd - 1 - i;
    for (int i = 1; i < nd; i++) {
        int j = i;
        for (int k = i - 1; k >= 0; k--) {
            int d0 = perm[k], d1 = perm[j], c;
            if (strides[d0] == 0 || strides[d1] == 0) c = 0;
            else if (strides[d0] < strides[d1]) c = -1;
            else if (strides[d0] > strides[d1]) c = 1;
            else c = sizes[d0] > sizes[d1] ? 1 : 0;
            if (c > 0) {
                int tmp = perm[k]; perm[k] = perm[j]; perm[j] = tmp;
                j = k;
            } else if (c < 0) {
                break;
            }
        }
    }
    int64_t acc = 1;
    for (int i = 0; i < nd; i++) {
        int d = perm[i];
        out[d] = acc;
        if (sizes[d] > 1) acc *= sizes[d];
    }
}

void tsr_strides_preserve(int ndim, const int64_t *sizes, const int64_t *strides, int64_t *out)
{
    if (tsr_geom_is_non_overlapping_and_dense(ndim, sizes, strides))
        memcpy(out, strides, (size_t)ndim * sizeof *out);
    else
        infer_dense_strides(ndim, sizes, strides, out);
}

/* ---- predicates (§4.2) ---- */

static bool numel_zero(int nd, const int64_t *sizes)
{
    for (int i = 0; i < nd; i++)
        if (sizes[i] == 0) return true;
    return false;
}

static bool walk(int nd, const int64_t *sizes, const int64_t *strides, const int *order)
{
    if (numel_zero(nd, sizes)) return true;
    int64_t z = 1;
    for (int k = 0; k < nd; k++) {
        int d = order[k];
        if (sizes[d] != 1) {
            if (strides[d] != z) return false;
            z *= sizes[d];
        }
    }
    return true;
}

static const int order_cl[4] = {1, 3, 2, 0};
static const int order_cl3d[5] = {1, 4, 3, 2, 0};

bool tsr_geom_is_contiguous(int nd, const int64_t *sizes, const int64_t *strides)
{
    int order[TSR_MAX_DIMS];
    for (int k = 0; k < nd; k++) order[k] = nd - 1 - k;
    return walk(nd, sizes, strides, order);
}

bool tsr_geom_is_channels_last(int nd, const int64_t *sizes, const int64_t *strides)
{
    return nd == 4 && walk(nd, sizes, strides, order_cl);
}

bool tsr_geom_is_channels_last_3d(int nd, const int64_t *sizes, const int64_t *strides)
{
    return nd == 5 && walk(nd, sizes, strides, order_cl3d);
}

static bool nonoverlapping_dense_walk(int nd, const int64_t *sizes, const int64_t *strides)
{
    if (nd == 1) return sizes[0] < 2 || strides[0] == 1;
    int perm[TSR_MAX_DIMS];
    for (int i = 0; i < nd; i++) perm[i] = i;
    /* stable sort by stride, size<2 dims last */
    for (int i = 1; i < nd; i++)
        for (int j = i; j > 0; j--) {
            int a = perm[j - 1], b = perm[j];
            bool a_small = sizes[a] < 2, b_small = sizes[b] < 2;
            bool swap = a_small && !b_small ? true : (!a_small && b_small ? false
                        : (!a_small && !b_small && strides[a] > strides[b]));
            if (!swap) break;
            perm[j - 1] = b;
            perm[j] = a;
        }
    int64_t req = 1;
    for (int i = 0; i < nd; i++) {
        int d = perm[i];
        if (sizes[d] < 2) return true;
        if (strides[d] != req) return false;
        req *= sizes[d];
    }
    return true;
}

bool tsr_geom_is_non_overlapping_and_dense(int nd, const int64_t *sizes, const int64_t *strides)
{
    if (tsr_geom_is_contiguous(nd, sizes, strides)) return true;
    if (nd == 4 && tsr_geom_is_channels_last(nd, sizes, strides)) return true;
    if (nd == 5 && tsr_geom_is_channels_last_3d(nd, sizes, strides)) return true;
    return nonoverlapping_dense_walk(nd, sizes, strides);
}

static bool strides_like(int nd, const int64_t *sizes, const int64_t *strides, const int *order)
{
    if (strides[1] == 0) return false;
    int64_t min = 0;
    for (int k = 0; k < nd; k++) {
        int d = order[k];
        if (sizes[d] == 0) return false;
        if (strides[d] < min) return false;
        if (d == 0 && min == strides[1]) return false;
        min = strides[d];
        if (sizes[d] > 1) min *= sizes[d];
    }
    return true;
}

bool tsr_geom_strides_like_channels_last(int nd, const int64_t *sizes, const int64_t *strides)
{
    return nd == 4 && strides_like(nd, sizes, strides, order_cl);
}

bool tsr_geom_strides_like_channels_last_3d(int nd, const int64_t *sizes, const int64_t *strides)
{
    return nd == 5 && strides_like(nd, sizes, strides, order_cl3d);
}

tsr_memory_format tsr_geom_suggest_memory_format(int nd, const int64_t *sizes, const int64_t *strides)
{
    if (tsr_geom_strides_like_channels_last(nd, sizes, strides)) return TSR_MF_CHANNELS_LAST;
    if (tsr_geom_strides_like_channels_last_3d(nd, sizes, strides)) return TSR_MF_CHANNELS_LAST_3D;
    return TSR_MF_CONTIGUOUS;
}

bool tsr_tensor_is_contiguous(const tsr_tensor *t)
{
    return tsr_geom_is_contiguous(t->ndim, t->sizes, t->strides);
}

bool tsr_tensor_is_contiguous_as(const tsr_tensor *t, tsr_memory_format mf)
{
    switch (mf) {
    case TSR_MF_CHANNELS_LAST: return tsr_geom_is_channels_last(t->ndim, t->sizes, t->strides);
    case TSR_MF_CHANNELS_LAST_3D:
        /* c10: cl3d-contiguity is computed only when not channels_last-contiguous */
        return tsr_geom_is_channels_last_3d(t->ndim, t->sizes, t->strides);
    default: return tsr_tensor_is_contiguous(t);
    }
}

bool tsr_tensor_is_non_overlapping_and_dense(const tsr_tensor *t)
{
    return tsr_geom_is_non_overlapping_and_dense(t->ndim, t->sizes, t->strides);
}

tsr_memory_format tsr_tensor_suggest_memory_format(const tsr_tensor *t)
{
    return tsr_geom_suggest_memory_format(t->ndim, t->sizes, t->strides);
}

/* ---- construction ---- */

static tsr_tensor *make(int ndim, const int64_t *sizes, const int64_t *strides, tsr_dtype dtype,
                        tsr_device device)
{
    uint64_t nbytes;
    if (!tsr_dtype_valid(dtype)) {
        tsr_error_set(TSR_ERR_VALUE, "invalid dtype %d", (int)dtype);
        return NULL;
    }
    if (tsr__storage_nbytes(ndim, sizes, strides, 0, tsr_dtype_itemsize(dtype), &nbytes) < 0)
        return NULL;
    device = tsr_device_normalize(device);
    tsr_storage *s = tsr_storage_new(nbytes, dtype, device);
    if (!s) return NULL;
    tsr_tensor *t = tsr__header(s, ndim, dtype, device);
    tsr_storage_release(s);
    if (!t) return NULL;
    if (ndim) memcpy(t->sizes, sizes, (size_t)ndim * sizeof *sizes);
    if (ndim) memcpy(t->strides, strides, (size_t)ndim * sizeof *strides);
    return t;
}

tsr_tensor *tsr_tensor_empty_format(int ndim, const int64_t *sizes, tsr_dtype dtype,
                                    tsr_device device, tsr_memory_format mf)
{
    int64_t strides[TSR_MAX_DIMS];
    int64_t numel;
    if (tsr_check_sizes(ndim, sizes, &numel) < 0) return NULL;
    if (tsr_strides_for_format(ndim, sizes, mf, strides) < 0) return NULL;
    /* The element count times itemsize must fit too (PyTorch's message names sizes only). */
    int64_t nb;
    if (__builtin_mul_overflow(numel, (int64_t)tsr_dtype_itemsize(dtype), &nb)) {
        char buf[1024];
        tsr_error_set(TSR_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s",
                      tsr__fmt_list(buf, sizeof buf, ndim, sizes));
        return NULL;
    }
    return make(ndim, sizes, strides, dtype, device);
}

tsr_tensor *tsr_tensor_empty(int ndim, const int64_t *sizes, tsr_dtype dtype, tsr_device device)
{
    return tsr_tensor_empty_format(ndim, sizes, dtype, device, TSR_MF_CONTIGUOUS);
}

tsr_tensor *tsr_tensor_empty_strided(int ndim, const int64_t *sizes, const int64_t *strides,
                                     tsr_dtype dtype, tsr_device device)
{
    if (tsr_check_sizes(ndim, sizes, NULL) < 0) return NULL;
    return make(ndim, sizes, strides, dtype, device);
}

tsr_tensor *tsr_tensor_from_storage(tsr_storage *s, int64_t offset, int ndim, const int64_t *sizes,
                                    const int64_t *strides, tsr_dtype dtype)
{
    int64_t cstrides[TSR_MAX_DIMS];
    char a[512], b[512];
    uint64_t need;
    if (tsr_check_sizes(ndim, sizes, NULL) < 0) return NULL;
    if (!strides) {
        tsr_strides_contiguous(ndim, sizes, cstrides);
        strides = cstrides;
    }
    for (int i = 0; i < ndim; i++)
        if (strides[i] < 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "as_strided: Negative strides are not supported at the moment, got strides: %s",
                          tsr__fmt_list(a, sizeof a, ndim, strides));
            return NULL;
        }
    int isz = tsr_dtype_itemsize(dtype);
    if (offset < 0) {
        /* setStrided checks the bounds (with the offset as given) before
         * set_storage_offset refuses it (1.13's TensorUtils / TensorImpl) */
        int64_t off_bytes, total;
        if (tsr__storage_nbytes(ndim, sizes, strides, 0, isz, &need) < 0) return NULL;
        if (need && !__builtin_mul_overflow(offset, (int64_t)isz, &off_bytes) &&
            !__builtin_add_overflow((int64_t)need, off_bytes, &total) && total > (int64_t)s->nbytes) {
            tsr_error_set(TSR_ERR_RUNTIME,
                          "setStorage: sizes %s, strides %s, storage offset %lld, and itemsize %d requiring "
                          "a storage size of %lld are out of bounds for storage of size %zu",
                          tsr__fmt_list(a, sizeof a, ndim, sizes), tsr__fmt_list(b, sizeof b, ndim, strides),
                          (long long)offset, isz, (long long)total, s->nbytes);
            return NULL;
        }
        tsr_error_set(TSR_ERR_RUNTIME, "Tensor: invalid storage offset %lld", (long long)offset);
        return NULL;
    }
    if (tsr__storage_nbytes(ndim, sizes, strides, offset, isz, &need) < 0) return NULL;
    if (need > s->nbytes) {
        tsr_error_set(TSR_ERR_RUNTIME,
                      "setStorage: sizes %s, strides %s, storage offset %lld, and itemsize %d requiring "
                      "a storage size of %llu are out of bounds for storage of size %zu",
                      tsr__fmt_list(a, sizeof a, ndim, sizes), tsr__fmt_list(b, sizeof b, ndim, strides),
                      (long long)offset, isz, (unsigned long long)need, s->nbytes);
        return NULL;
    }
    tsr_tensor *t = tsr__header(s, ndim, dtype, s->device);
    if (!t) return NULL;
    t->storage_offset = offset;
    if (ndim) memcpy(t->sizes, sizes, (size_t)ndim * sizeof *sizes);
    if (ndim) memcpy(t->strides, strides, (size_t)ndim * sizeof *strides);
    return t;
}

tsr_tensor *tsr_tensor_alias(const tsr_tensor *t, int ndim, const int64_t *sizes,
                             const int64_t *strides, int64_t offset)
{
    if (t->sparse) {   /* a sparse tensor's storage holds nothing to view */
        tsr__sparse_refused(t);
        return NULL;
    }
    tsr_tensor *v = tsr__header(t->storage, ndim, t->dtype, t->device);
    if (!v) return NULL;
    v->layout = t->layout;
    v->requires_grad = false;
    v->conj = t->conj;   /* a view of a conj view is one too */
    v->neg = t->neg;
    v->storage_offset = offset;
    v->base = tsr_tensor_retain(t->base ? t->base : (tsr_tensor *)t);
    if (ndim) memcpy(v->sizes, sizes, (size_t)ndim * sizeof *sizes);
    if (ndim) memcpy(v->strides, strides, (size_t)ndim * sizeof *strides);
    return v;
}

void tsr_flip_signs(tsr_dtype d, bool conj, bool neg, void *p, int64_t stride, int64_t n)
{
    unsigned char *b = p;
    int sz = tsr_dtype_itemsize(d);
    if (tsr_dtype_is_complex(d)) {
        /* little-endian: the sign bit is the top bit of each part's last byte */
        int half = sz / 2;
        for (int64_t k = 0; k < n; k++, b += stride) {
            if (conj != neg) b[sz - 1] ^= 0x80;   /* conj: -im; neg: -re, -im; both: -re */
            if (neg) b[half - 1] ^= 0x80;
        }
    } else if (neg && tsr_dtype_is_floating(d)) {
        for (int64_t k = 0; k < n; k++, b += stride) b[sz - 1] ^= 0x80;
    } else if (neg && d != TSR_BOOL) {
        for (int64_t k = 0; k < n; k++, b += stride) {
            tsr_scalar s = tsr_scalar_load(d, b);
            tsr_scalar_store(d, b, tsr_scalar_int(-s.i));
        }
    }
}

void tsr_tensor_unview(tsr_tensor *v)
{
    tsr_tensor_release(v->base);
    v->base = NULL;
}

int64_t tsr_tensor_numel(const tsr_tensor *t)
{
    uint64_t n = 1;   /* a zero size makes it 0 even after the others wrap */
    for (int i = 0; i < t->ndim; i++) n *= (uint64_t)t->sizes[i];
    return (int64_t)n;
}

int64_t tsr_tensor_nbytes(const tsr_tensor *t)
{
    return tsr_tensor_numel(t) * tsr_dtype_itemsize(t->dtype);
}

bool tsr_tensor_is_meta(const tsr_tensor *t) { return t->device.type == TSR_DEV_META; }

void *tsr_tensor_ptr(const tsr_tensor *t, const int64_t *idx)
{
    if (!t->storage->data) return NULL;
    int64_t off = t->storage_offset;
    for (int i = 0; idx && i < t->ndim; i++) off += idx[i] * t->strides[i];
    return (char *)t->storage->data + off * tsr_dtype_itemsize(t->dtype);
}

/* ---- element access ---- */

void tsr_unravel(int ndim, const int64_t *sizes, int64_t linear, int64_t *idx)
{
    for (int d = ndim - 1; d >= 0; d--) {
        int64_t s = sizes[d] > 0 ? sizes[d] : 1;
        idx[d] = linear % s;
        linear /= s;
    }
}

static int no_data(const tsr_tensor *t)
{
    if (t->sparse) return tsr__sparse_refused(t);
    if (t->device.type == TSR_DEV_META) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
        return 1;
    }
    return 0;
}

/* One element of a tensor on a device the host cannot read, moved through
 * host memory by the device's backend (a synchronizing copy): the element
 * accessors stay correct there, one element at a time. */
static int device_element(const tsr_tensor *t, void *dev, void *host, bool write)
{
    const tsr_backend *be = tsr_device_backend(t->device);
    if (!be) return -1;
    size_t n = (size_t)tsr_tensor_itemsize(t);
    return write ? be->copy(dev, t->device, host, TSR_CPU, n) : be->copy(host, TSR_CPU, dev, t->device, n);
}

int tsr_tensor_get(const tsr_tensor *t, const int64_t *idx, tsr_scalar *out)
{
    if (no_data(t)) {
        *out = tsr_scalar_float(NAN);
        return -1;
    }
    const void *p = tsr_tensor_ptr(t, idx);
    _Alignas(16) unsigned char tmp[16];
    if (t->device.type != TSR_DEV_CPU) {
        if (device_element(t, (void *)p, tmp, false) < 0) {
            *out = tsr_scalar_float(NAN);
            return -1;
        }
        p = tmp;
    }
    if (tsr_tensor_has_bits(t)) {
        if (p != tmp) memcpy(tmp, p, (size_t)tsr_tensor_itemsize(t));
        tsr_flip_signs(t->dtype, t->conj, t->neg, tmp, 0, 1);
        p = tmp;
    }
    *out = tsr_scalar_load(t->dtype, p);
    return 0;
}

int tsr_tensor_set(tsr_tensor *t, const int64_t *idx, tsr_scalar v)
{
    if (t->device.type == TSR_DEV_META) return 0;   /* writes to meta are no-ops */
    if (no_data(t)) return -1;
    void *p = tsr_tensor_ptr(t, idx);
    _Alignas(16) unsigned char tmp[16];
    void *q = t->device.type == TSR_DEV_CPU ? p : tmp;
    tsr_scalar_store(t->dtype, q, v);
    if (tsr_tensor_has_bits(t)) tsr_flip_signs(t->dtype, t->conj, t->neg, q, 0, 1);   /* store conj(v) */
    return q == p ? 0 : device_element(t, p, tmp, true);
}

double tsr_tensor_get_double(const tsr_tensor *t, const int64_t *idx)
{
    tsr_scalar s;
    tsr_tensor_get(t, idx, &s);
    return tsr_scalar_to_double(s);
}

int64_t tsr_tensor_get_int64(const tsr_tensor *t, const int64_t *idx)
{
    tsr_scalar s;
    if (tsr_tensor_get(t, idx, &s) < 0) return 0;
    return tsr_scalar_to_int64(s);
}

void tsr_tensor_get_complex(const tsr_tensor *t, const int64_t *idx, double *re, double *im)
{
    tsr_scalar s;
    tsr_tensor_get(t, idx, &s);
    tsr_scalar_to_complex(s, re, im);
}

int tsr_tensor_get_at(const tsr_tensor *t, int64_t linear, tsr_scalar *out)
{
    int64_t idx[TSR_MAX_DIMS];
    tsr_unravel(t->ndim, t->sizes, linear, idx);
    return tsr_tensor_get(t, idx, out);
}

int tsr_tensor_set_at(tsr_tensor *t, int64_t linear, tsr_scalar v)
{
    int64_t idx[TSR_MAX_DIMS];
    tsr_unravel(t->ndim, t->sizes, linear, idx);
    return tsr_tensor_set(t, idx, v);
}

double tsr_tensor_get_double_at(const tsr_tensor *t, int64_t linear)
{
    int64_t idx[TSR_MAX_DIMS];
    tsr_unravel(t->ndim, t->sizes, linear, idx);
    return tsr_tensor_get_double(t, idx);
}

int64_t tsr_tensor_get_int64_at(const tsr_tensor *t, int64_t linear)
{
    int64_t idx[TSR_MAX_DIMS];
    tsr_unravel(t->ndim, t->sizes, linear, idx);
    return tsr_tensor_get_int64(t, idx);
}

void tsr_tensor_get_complex_at(const tsr_tensor *t, int64_t linear, double *re, double *im)
{
    int64_t idx[TSR_MAX_DIMS];
    tsr_unravel(t->ndim, t->sizes, linear, idx);
    tsr_tensor_get_complex(t, idx, re, im);
}

static const char *const local_scalar_meta =
    "Could not run 'aten::_local_scalar_dense' with arguments from the 'Meta' backend. This could be because "
    "the operator doesn't exist for this backend, or was omitted during the selective/custom build process (if "
    "using custom build). If you are a Facebook employee using PyTorch on mobile, please visit "
    "https://fburl.com/ptmfixes for possible resolutions. 'aten::_local_scalar_dense' is only available for "
    "these backends: [CPU, BackendSelect, Python, FuncTorchDynamicLayerBackMode, Functionalize, Named, "
    "Conjugate, Negative, ZeroTensor, ADInplaceOrView, AutogradOther, AutogradCPU, AutogradCUDA, AutogradHIP, "
    "AutogradXLA, AutogradMPS, AutogradIPU, AutogradXPU, AutogradHPU, AutogradVE, AutogradLazy, AutogradMeta, "
    "AutogradPrivateUse1, AutogradPrivateUse2, AutogradPrivateUse3, AutogradNestedTensor, Tracer, AutocastCPU, "
    "AutocastCUDA, FuncTorchBatched, FuncTorchVmapMode, Batched, VmapMode, FuncTorchGradWrapper, "
    "PythonTLSSnapshot, FuncTorchDynamicLayerFrontMode, PythonDispatcher].";

int tsr_tensor_item(const tsr_tensor *t, tsr_scalar *out)
{
    if (tsr_tensor_numel(t) != 1) {
        tsr_error_set(TSR_ERR_VALUE, "only one element tensors can be converted to Python scalars");
        return -1;
    }
    if (tsr_tensor_is_meta(t)) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "%s", local_scalar_meta);
        return -1;
    }
    if (t->device.type != TSR_DEV_CPU) {   /* the element fetched from the device (a synchronizing copy) */
        const tsr_backend *be = tsr_device_backend(t->device);
        tsr_tensor *h = be ? tsr_tensor_empty_strided(0, NULL, NULL, t->dtype, TSR_CPU) : NULL;
        if (!h) return -1;
        h->conj = t->conj;
        h->neg = t->neg;
        int rc = be->copy(tsr_tensor_ptr(h, NULL), TSR_CPU, tsr_tensor_ptr(t, NULL), t->device,
                          (size_t)tsr_tensor_itemsize(t));
        if (rc == 0) rc = tsr_tensor_get_at(h, 0, out);
        tsr_tensor_release(h);
        return rc;
    }
    return tsr_tensor_get_at(t, 0, out);
}

int tsr_tensor_is_nonzero(const tsr_tensor *t)
{
    int64_t n = tsr_tensor_numel(t);
    if (n == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "Boolean value of Tensor with no values is ambiguous");
        return -1;
    }
    if (n > 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "Boolean value of Tensor with more than one value is ambiguous");
        return -1;
    }
    tsr_scalar s;
    if (tsr_tensor_item(t, &s) < 0) return -1;
    /* (native/TensorProperties.cpp is_nonzero: a complex value is compared
     * with 0+0j, unlike a cast to bool, which reads the real part) */
    if (s.kind == TSR_SCALAR_COMPLEX) return s.re != 0 || s.im != 0;
    return tsr_scalar_to_bool(s);
}

int tsr_tensor_set_requires_grad(tsr_tensor *t, bool on, bool method)
{
    if (on && !tsr_dtype_is_floating(t->dtype) && !tsr_dtype_is_complex(t->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "only Tensors of floating point %sdtype can require gradients",
                      method ? "" : "and complex ");
        return -1;
    }
    t->requires_grad = on;
    return 0;
}

tsr_tensor *tsr_tensor_set_storage(const tsr_tensor *t, tsr_storage *st, tsr_dtype st_dtype, int64_t offset, int n,
                                   const int64_t *sizes, int ns, const int64_t *strides)
{
    int64_t contig[TSR_MAX_DIMS];
    if (st_dtype != t->dtype) {   /* names self's dtype as caffe2::TypeMeta does ("long int") */
        tsr_error_set(TSR_ERR_RUNTIME,
                      "Expected a Storage of type %s or an UntypedStorage, but got type %s for argument 1 'storage'",
                      tsr_dtype_traits_of(t->dtype)->typemeta_name, tsr_dtype_scalar_name(st_dtype));
        return NULL;
    }
    if (ns && ns != n) {
        tsr_error_set(TSR_ERR_RUNTIME, "unequal size length (%d) and stride length (%d)", n, ns);
        return NULL;
    }
    if (!ns) {
        tsr_strides_contiguous(n, sizes, contig);
        strides = contig;
    }
    /* a storage too small for the view grows, as THTensor's setStorage does
     * (sizes that overflow grow nothing: the view's own checks report them) */
    int64_t last = offset, numel = 1, term;
    bool over = false;
    for (int i = 0; i < n; i++) {
        over = over || __builtin_mul_overflow(numel, sizes[i], &numel);
        if (sizes[i] > 0)
            over = over || __builtin_mul_overflow(sizes[i] - 1, strides[i], &term) ||
                   __builtin_add_overflow(last, term, &last);
    }
    size_t need = 0;
    if (over || !numel || last < 0 || last == INT64_MAX ||
        __builtin_mul_overflow((size_t)last + 1, (size_t)tsr_dtype_itemsize(t->dtype), &need))
        need = 0;
    if (need > st->nbytes && st->resizable && tsr_storage_resize(st, need) < 0) return NULL;
    return tsr_tensor_from_storage(st, offset, n, sizes, strides, t->dtype);
}

tsr_tensor *tsr_tensor_set_source(const tsr_tensor *t, const tsr_tensor *src)
{
    if (src->dtype != t->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected object of scalar type %s but got scalar type %s for argument 'source'",
                      tsr_dtype_scalar_name(t->dtype), tsr_dtype_scalar_name(src->dtype));
        return NULL;
    }
    tsr_tensor *r = tsr_tensor_alias(src, src->ndim, src->sizes, src->strides, src->storage_offset);
    if (r) tsr_tensor_unview(r);   /* x.set_(src) makes no view */
    return r;
}

tsr_tensor *tsr_tensor_resized(const tsr_tensor *t, int n, const int64_t *sizes)
{
    int64_t numel;
    for (int i = 0; i < n; i++)
        if (sizes[i] < 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "numel: integer multiplication overflow");
            return NULL;
        }
    if (tsr_check_sizes(n, sizes, &numel) < 0) return NULL;
    size_t need = (size_t)(numel + (numel ? t->storage_offset : 0)) * (size_t)tsr_tensor_itemsize(t);
    if (need > t->storage->nbytes && tsr_storage_resize(t->storage, need) < 0) return NULL;
    return tsr_tensor_from_storage(t->storage, t->storage_offset, n, sizes, NULL, t->dtype);
}

tsr_tensor *tsr__resized_format(const tsr_tensor *t, int n, const int64_t *sizes, bool has_mf,
                                tsr_memory_format mf)
{
    bool same = n == t->ndim && (n == 0 || !memcmp(sizes, t->sizes, sizeof(int64_t) * (size_t)n));
    tsr_tensor *r = same ? tsr_tensor_from_storage(t->storage, t->storage_offset, n, sizes, t->strides, t->dtype)
                         : tsr_tensor_resized(t, n, sizes);
    if (!r || !has_mf) return r;
    int64_t st[TSR_MAX_DIMS];
    if (mf == TSR_MF_PRESERVE) {
        tsr_error_set(TSR_ERR_RUNTIME, "Unsupported memory formatPreserve");
        goto fail;
    }
    if (tsr_strides_for_format(n, sizes, mf, st) < 0) goto fail;
    tsr_tensor *x = tsr_tensor_from_storage(t->storage, t->storage_offset, n, sizes, st, t->dtype);
    tsr_tensor_release(r);
    return x;
fail:
    tsr_tensor_release(r);
    return NULL;
}

bool tsr_tensor_is_set_to(const tsr_tensor *t, const tsr_tensor *o)
{
    bool same = t->storage == o->storage && t->storage_offset == o->storage_offset && t->ndim == o->ndim;
    for (int i = 0; same && i < t->ndim; i++) same = t->sizes[i] == o->sizes[i] && t->strides[i] == o->strides[i];
    return same;
}

int tsr_tensor_index(const tsr_tensor *t, int64_t *out)
{
    tsr_scalar s;
    if (tsr_tensor_numel(t) != 1 || !tsr_dtype_is_integral(t->dtype, true)) {
        tsr_error_set(TSR_ERR_TYPE, "only integer tensors of a single element can be converted to an index");
        return -1;
    }
    if (tsr_tensor_item(t, &s) < 0) return -1;
    *out = tsr_scalar_to_int64(s);
    return 0;
}
