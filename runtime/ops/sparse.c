/* runtime/ops/sparse.c — sparse COO tensors as 1.13 builds and combines them
 * (SparseTensor.cpp, SparseTensorMath.cpp, SparseUnaryOps.cpp). Only this
 * file and the printers look inside t->sparse; every other op refuses a
 * sparse operand before it reaches a kernel (op.c, the binding table).
 * The element loops (coalesce, to_dense, add, mm) accumulate in the dtype as
 * 1.13's cpublas::axpy does: y = y + a * x, one element at a time. */
#include <complex.h>
#include <inttypes.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "../internal.h"
#include "../promote.h"
#include "../storage.h"
#include "../view.h"
#include "../iter.h"
#include "binary.h"
#include "compare.h"
#include "copy.h"
#include "factory.h"
#include "join.h"
#include "linalg.h"
#include "../op.h"
#include "reduce.h"
#include "scatter.h"
#include "index.h"
#include "sparse.h"
#include "viewcopy.h"

/* ------------------------------------------------------------ elements */

/* y[k*ys] = y + a * x[k*xs] for k < n in dtype d (a is 1 unless given). */
static void axpy(tsr_dtype d, int64_t n, tsr_scalar a, const char *x, int64_t xs, char *y, int64_t ys)
{
    const tsr_dtype_traits *tr = tsr_dtype_traits_of(d);
    int64_t isz = tr->itemsize;
    xs *= isz;
    ys *= isz;
    switch (tr->category) {
    case TSR_CAT_BOOL:
        for (int64_t k = 0; k < n; k++)
            *(bool *)(y + k * ys) = *(bool *)(y + k * ys) || (tsr_scalar_to_bool(a) && *(const bool *)(x + k * xs));
        return;
    case TSR_CAT_INTEGRAL: {
        uint64_t av = (uint64_t)tsr_scalar_to_int64(a);
        for (int64_t k = 0; k < n; k++) {
            uint64_t r = (uint64_t)tr->load_int64(y + k * ys) + av * (uint64_t)tr->load_int64(x + k * xs);
            tr->store_int64(y + k * ys, (int64_t)r);
        }
        return;
    }
    case TSR_CAT_FLOATING:
        if (d == TSR_FLOAT64) {
            double av = tsr_scalar_to_double(a);
            for (int64_t k = 0; k < n; k++) {
                double *py = (double *)(y + k * ys);
                *py = *py + av * *(const double *)(x + k * xs);
            }
        } else {   /* float, and the halves computed in float as c10::Half's operators */
            float av = (float)tsr_scalar_to_double(a);
            for (int64_t k = 0; k < n; k++) {
                float yv = (float)tr->load_double(y + k * ys), xv = (float)tr->load_double(x + k * xs);
                float p = av * xv;
                if (d != TSR_FLOAT32) {   /* Half * Half is a Half */
                    uint16_t tmp;
                    tr->store_double(&tmp, (double)p);
                    p = (float)tr->load_double(&tmp);
                }
                tr->store_double(y + k * ys, (double)(yv + p));
            }
        }
        return;
    case TSR_CAT_COMPLEX: {
        double re, im;
        tsr_scalar_to_complex(a, &re, &im);
        if (d == TSR_COMPLEX128) {
            double _Complex av = re + im * I;
            for (int64_t k = 0; k < n; k++) {
                double _Complex *py = (double _Complex *)(y + k * ys);
                *py = *py + av * *(const double _Complex *)(x + k * xs);
            }
        } else {
            float _Complex av = (float)re + (float)im * I;
            for (int64_t k = 0; k < n; k++) {
                float _Complex yv = (float _Complex)tr->load_complex(y + k * ys);
                float _Complex xv = (float _Complex)tr->load_complex(x + k * xs);
                tr->store_complex(y + k * ys, (double _Complex)(yv + av * xv));
            }
        }
        return;
    }
    }
}

/* ------------------------------------------------------------ headers */

/* Sparse tensors live on the host here: indices or values on a device the
 * host cannot read are refused as 1.13 refuses an op without a kernel for
 * that backend. -1 with the error, else 0. */
static int sparse_device_check(const tsr_tensor *a, const tsr_tensor *b, tsr_device dev)
{
    const tsr_tensor *e = a && a->device.type != TSR_DEV_CPU && a->device.type != TSR_DEV_META ? a
                        : b && b->device.type != TSR_DEV_CPU && b->device.type != TSR_DEV_META ? b : NULL;
    if (!e && (dev.type == TSR_DEV_CPU || dev.type == TSR_DEV_META)) return 0;
    tsr_device d = e ? e->device : dev;
    char be[32];
    snprintf(be, sizeof be, "Sparse%s", tsr_device_backend_name(d.type));
    tsr_error_no_kernel("aten::_sparse_coo_tensor_with_dims_and_tensors", be, "Meta, SparseCPU, SparseMeta");
    return -1;
}

tsr_tensor *tsr_sparse_wrap(int ndim, const int64_t *sizes, tsr_tensor *indices, tsr_tensor *values, bool coalesced)
{
    tsr_tensor *t = NULL;
    if (sparse_device_check(indices, values, TSR_CPU) < 0) {
        tsr_tensor_release(indices);
        tsr_tensor_release(values);
        return NULL;
    }
    tsr_storage *st = tsr_storage_new(0, values->dtype, values->device);
    if (st) t = tsr__header(st, ndim, values->dtype, values->device);
    tsr_storage_release(st);
    tsr_sparse *sp = t ? tsr_malloc(sizeof *sp) : NULL;
    if (!sp) {
        tsr_tensor_release(t);
        tsr_tensor_release(indices);
        tsr_tensor_release(values);
        return NULL;
    }
    for (int d = 0; d < ndim; d++) {
        t->sizes[d] = sizes[d];
        t->strides[d] = d == 0;   /* what 1.13's SparseTensorImpl reports: (1, 0, ...) */
    }
    t->layout = TSR_LAYOUT_SPARSE_COO;
    sp->indices = indices;
    sp->values = values;
    sp->sparse_dim = (int)indices->sizes[0];
    sp->dense_dim = values->ndim - 1;
    sp->coalesced = coalesced;
    t->sparse = sp;
    return t;
}

static tsr_tensor *wrap_like(const tsr_tensor *t, tsr_tensor *indices, tsr_tensor *values, bool coalesced)
{
    if (!indices || !values) {
        tsr_tensor_release(indices);
        tsr_tensor_release(values);
        return NULL;
    }
    return tsr_sparse_wrap(t->ndim, t->sizes, indices, values, coalesced);
}

static char *fmt_sizes(char *buf, size_t n, const tsr_tensor *t) { return tsr__fmt_list(buf, n, t->ndim, t->sizes); }

/* The rows of a contiguous int64 index tensor: p[d * nnz + k]. */
static tsr_tensor *indices_contig(const tsr_tensor *t) { return tsr_contiguous(t->sparse->indices, TSR_MF_CONTIGUOUS); }

tsr_tensor *tsr_sparse_coo_tensor(const tsr_tensor *indices, const tsr_tensor *values_, int ndim, const int64_t *sizes)
{
    char buf[512], buf2[512];
    if (sparse_device_check(indices, values_, TSR_CPU) < 0) return NULL;
    if (indices->ndim != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "indices must be sparse_dim x nnz, but got: %s",
                      tsr__fmt_list(buf, sizeof buf, indices->ndim, indices->sizes));
        return NULL;
    }
    tsr_tensor *values = values_->ndim == 0 ? tsr_view_unsqueeze(values_, 0) : tsr_tensor_retain((tsr_tensor *)values_);
    tsr_tensor *ind = NULL;
    if (!values) return NULL;
    int64_t sparse_dim = indices->sizes[0], dense_dim = values->ndim - 1, nnz = indices->sizes[1];
    int64_t sz[TSR_MAX_DIMS];
    if (ndim >= 0 && ndim != sparse_dim + dense_dim) {
        tsr_error_set(TSR_ERR_RUNTIME, "number of dimensions must be sparse_dim (%lld) + dense_dim (%lld), but got %d",
                      (long long)sparse_dim, (long long)dense_dim, ndim);
        goto fail;
    }
    if (sparse_dim + dense_dim > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr supports at most %d dimensions", TSR_MAX_DIMS);
        goto fail;
    }
    if (!(ind = tsr_contiguous(indices, TSR_MF_CONTIGUOUS))) goto fail;
    if (tsr_device_is_meta(indices->device) && nnz * sparse_dim > 0) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
        goto fail;
    }
    const int64_t *p = tsr_tensor_ptr(ind, NULL);
    for (int64_t d = 0; d < sparse_dim; d++) {
        int64_t lo = 0, hi = -1;
        for (int64_t k = 0; k < nnz; k++) {
            int64_t x = p[d * nnz + k];
            if (k == 0 || x < lo) lo = x;
            if (k == 0 || x > hi) hi = x;
        }
        if (nnz > 0 && lo < 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "found negative index %lld for dim %lld", (long long)lo, (long long)d);
            goto fail;
        }
        sz[d] = nnz > 0 ? hi + 1 : 0;
    }
    if (ndim >= 0) {
        for (int64_t d = 0; d < sparse_dim && nnz > 0; d++)
            if (sz[d] - 1 >= sizes[d]) {
                tsr_error_set(TSR_ERR_RUNTIME, "size is inconsistent with indices: for dim %lld, size is %lld but found "
                              "index %lld", (long long)d, (long long)sizes[d], (long long)(sz[d] - 1));
                goto fail;
            }
        for (int d = 0; d < ndim; d++) sz[d] = sizes[d];
    } else {
        for (int64_t d = 0; d < dense_dim; d++) sz[sparse_dim + d] = values->sizes[d + 1];
    }
    int n = (int)(sparse_dim + dense_dim);
    int64_t numel;
    if (tsr_check_sizes(n, sz, &numel) < 0) goto fail;
    if (nnz != values->sizes[0]) {
        tsr_error_set(TSR_ERR_RUNTIME, "indices and values must have same nnz, but got nnz from indices: %lld, nnz "
                      "from values: %lld", (long long)nnz, (long long)values->sizes[0]);
        goto fail;
    }
    for (int64_t d = 0; d < dense_dim; d++)
        if (values->sizes[d + 1] != sz[sparse_dim + d]) {
            int64_t ex[TSR_MAX_DIMS];
            ex[0] = nnz;
            for (int64_t e = 0; e < dense_dim; e++) ex[e + 1] = sz[sparse_dim + e];
            tsr_error_set(TSR_ERR_RUNTIME, "values has incorrect size, expected %s, got %s",
                          tsr__fmt_list(buf, sizeof buf, (int)dense_dim + 1, ex),
                          tsr__fmt_list(buf2, sizeof buf2, values->ndim, values->sizes));
            goto fail;
        }
    tsr_tensor_release(ind);
    return tsr_sparse_wrap(n, sz, tsr_tensor_retain((tsr_tensor *)indices), values, nnz < 2);
fail:
    tsr_tensor_release(ind);
    tsr_tensor_release(values);
    return NULL;
}

tsr_tensor *tsr_sparse_empty(int ndim, const int64_t *sizes, tsr_dtype dtype, tsr_device device)
{
    if (sparse_device_check(NULL, NULL, device) < 0) return NULL;
    int64_t numel, isz[2] = {ndim, 0}, vsz[1] = {0};
    uint64_t prod = 1;   /* 1.13's safe_compute_numel: a negative size is a huge unsigned one */
    bool over = false;
    for (int i = 0; i >= 0 && i < ndim && i < TSR_MAX_DIMS; i++)
        over |= __builtin_mul_overflow(prod, (uint64_t)sizes[i], &prod);
    if (over || prod > (uint64_t)INT64_MAX) {
        tsr_error_set(TSR_ERR_RUNTIME, "numel: integer multiplication overflow");
        return NULL;
    }
    if (tsr_check_sizes(ndim, sizes, &numel) < 0) return NULL;
    tsr_tensor *ind = tsr_tensor_empty(2, isz, TSR_INT64, device);
    tsr_tensor *val = tsr_tensor_empty(1, vsz, dtype, device);
    if (!ind || !val) {
        tsr_tensor_release(ind);
        tsr_tensor_release(val);
        return NULL;
    }
    return tsr_sparse_wrap(ndim, sizes, ind, val, true);
}

/* ------------------------------------------------------------ accessors */

static int need_sparse(const tsr_tensor *t, const char *what)
{
    if (tsr_is_sparse(t)) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "%s expected sparse coordinate tensor layout but got Strided", what);
    return -1;
}

tsr_tensor *tsr_sparse_indices(const tsr_tensor *t, bool checked)
{
    if (need_sparse(t, "indices") < 0) return NULL;
    if (checked && !t->sparse->coalesced) {
        tsr_error_set(TSR_ERR_RUNTIME, "Cannot get indices on an uncoalesced tensor, please call .coalesce() first");
        return NULL;
    }
    return tsr_tensor_retain(t->sparse->indices);
}

tsr_tensor *tsr_sparse_values(const tsr_tensor *t, bool checked)
{
    if (need_sparse(t, "values") < 0) return NULL;
    if (checked && !t->sparse->coalesced) {
        tsr_error_set(TSR_ERR_RUNTIME, "Cannot get values on an uncoalesced tensor, please call .coalesce() first");
        return NULL;
    }
    return tsr_tensor_retain(t->sparse->values);
}

int64_t tsr_sparse_nnz(const tsr_tensor *t) { return tsr_is_sparse(t) ? t->sparse->values->sizes[0] : 0; }

/* ------------------------------------------------------------ coalesce */

typedef struct { int64_t key, pos; } Key;

static int cmp_key(const void *a, const void *b)
{
    const Key *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;   /* stable: duplicates in their order */
}

/* The row-major linear index of each nnz over the sparse dims (flatten_indices),
 * sorted with its position. NULL with the error. */
static Key *sorted_keys(const tsr_tensor *t, const int64_t *p, int64_t nnz)
{
    int sd = t->sparse->sparse_dim;
    Key *keys = tsr_malloc((size_t)(nnz ? nnz : 1) * sizeof *keys);
    if (!keys) return NULL;
    for (int64_t k = 0; k < nnz; k++) {
        int64_t key = 0;
        for (int d = 0; d < sd; d++) key = key * t->sizes[d] + p[d * nnz + k];
        keys[k] = (Key){key, k};
    }
    qsort(keys, (size_t)nnz, sizeof *keys, cmp_key);
    return keys;
}

tsr_tensor *tsr_sparse_coalesce(const tsr_tensor *t)
{
    if (need_sparse(t, "coalesce") < 0) return NULL;
    if (t->sparse->coalesced) return tsr_tensor_retain((tsr_tensor *)t);
    int64_t nnz = tsr_sparse_nnz(t);
    if (nnz < 2) return wrap_like(t, tsr_clone(t->sparse->indices, TSR_MF_PRESERVE),
                                  tsr_clone(t->sparse->values, TSR_MF_PRESERVE), true);
    if (tsr_device_is_meta(t->device)) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
        return NULL;
    }
    int sd = t->sparse->sparse_dim;
    tsr_tensor *ind = indices_contig(t), *val = tsr_contiguous(t->sparse->values, TSR_MF_CONTIGUOUS);
    tsr_tensor *ni = NULL, *nv = NULL, *r = NULL;
    Key *keys = NULL;
    if (!ind || !val) goto done;
    const int64_t *p = tsr_tensor_ptr(ind, NULL);
    if (!(keys = sorted_keys(t, p, nnz))) goto done;
    int64_t uniq = 0;
    for (int64_t j = 0; j < nnz; j++) uniq += j == 0 || keys[j].key != keys[j - 1].key;
    int64_t isz[2] = {sd, uniq}, vsz[TSR_MAX_DIMS];
    for (int d = 0; d < val->ndim; d++) vsz[d] = val->sizes[d];
    vsz[0] = uniq;
    if (!(ni = tsr_tensor_empty(2, isz, TSR_INT64, t->device))) goto done;
    if (!(nv = tsr_zeros(val->ndim, vsz, val->dtype, t->device))) goto done;
    int64_t block = 1, isz_b = tsr_dtype_itemsize(val->dtype);
    for (int d = 1; d < val->ndim; d++) block *= val->sizes[d];
    int64_t *q = tsr_tensor_ptr(ni, NULL);
    const char *vp = tsr_tensor_ptr(val, NULL);
    char *np = tsr_tensor_ptr(nv, NULL);
    int64_t i = -1;
    for (int64_t j = 0; j < nnz; j++) {
        if ((j & 4095) == 0 && tsr_check_interrupt() < 0) goto done;
        int64_t pos = keys[j].pos;
        if (j == 0 || keys[j].key != keys[j - 1].key) {
            ++i;
            for (int d = 0; d < sd; d++) q[d * uniq + i] = p[d * nnz + pos];
        }
        axpy(val->dtype, block, tsr_scalar_int(1), vp + pos * block * isz_b, 1, np + i * block * isz_b, 1);
    }
    r = wrap_like(t, ni, nv, true);
    ni = nv = NULL;
done:
    tsr_free(keys);
    tsr_tensor_release(ind);
    tsr_tensor_release(val);
    tsr_tensor_release(ni);
    tsr_tensor_release(nv);
    return r;
}

/* ------------------------------------------------------------ dense <-> sparse */

/* dst (dense, contiguous, sizes of s) += alpha * s, nnz in order
 * (add_dense_sparse_worker_cpu). */
static int add_sparse_into(tsr_tensor *dst, const tsr_tensor *s, tsr_scalar alpha)
{
    int64_t nnz = tsr_sparse_nnz(s);
    if (nnz == 0 || tsr_tensor_numel(dst) == 0) return 0;
    if (tsr_device_is_meta(dst->device)) return 0;
    int sd = s->sparse->sparse_dim;
    tsr_tensor *ind = indices_contig(s), *val = tsr_to_dtype_format(s->sparse->values, dst->dtype, TSR_MF_CONTIGUOUS);
    int rc = -1;
    if (!ind || !val) goto done;
    const int64_t *p = tsr_tensor_ptr(ind, NULL);
    int64_t block = 1, isz = tsr_dtype_itemsize(dst->dtype);
    for (int d = sd; d < dst->ndim; d++) block *= dst->sizes[d];
    const char *vp = tsr_tensor_ptr(val, NULL);
    char *dp = tsr_tensor_ptr(dst, NULL);
    for (int64_t k = 0; k < nnz; k++) {
        if ((k & 4095) == 0 && tsr_check_interrupt() < 0) goto done;
        int64_t off = 0;
        for (int d = 0; d < sd; d++) off = off * dst->sizes[d] + p[d * nnz + k];
        axpy(dst->dtype, block, alpha, vp + k * block * isz, 1, dp + off * block * isz, 1);
    }
    rc = 0;
done:
    tsr_tensor_release(ind);
    tsr_tensor_release(val);
    return rc;
}

tsr_tensor *tsr_sparse_to_dense(const tsr_tensor *t)
{
    if (!tsr_is_sparse(t)) return tsr_tensor_retain((tsr_tensor *)t);
    tsr_tensor *r = tsr_zeros(t->ndim, t->sizes, t->dtype, t->device);
    if (r && add_sparse_into(r, t, tsr_scalar_int(1)) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

tsr_tensor *tsr_to_sparse(const tsr_tensor *x, int64_t sparse_dim, bool has_dim)
{
    if (tsr_is_sparse(x)) {
        if (!has_dim || sparse_dim == x->sparse->sparse_dim) return tsr_tensor_retain((tsr_tensor *)x);
        tsr_error_set(TSR_ERR_RUNTIME, "to_sparse: conversion from Sparse to Sparse with sparse_dim %lld is not "
                      "supported", (long long)sparse_dim);
        return NULL;
    }
    if (!has_dim) sparse_dim = x->ndim;
    if (sparse_dim == 0 && x->ndim > 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "sparse_dim must be >0 if dimensionality > 0");
        return NULL;
    }
    if (sparse_dim < 0 || sparse_dim > x->ndim) {
        tsr_error_set(TSR_ERR_RUNTIME, "sparse_dim must be in [0, %d], but got %lld", x->ndim, (long long)sparse_dim);
        return NULL;
    }
    if (tsr_device_is_meta(x->device)) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
        return NULL;
    }
    int sd = (int)sparse_dim;
    tsr_tensor *xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS), *ni = NULL, *nv = NULL, *r = NULL;
    if (!xc) return NULL;
    int64_t rows = 1, block = 1, isz = tsr_tensor_itemsize(x);
    for (int d = 0; d < sd; d++) rows *= x->sizes[d];
    for (int d = sd; d < x->ndim; d++) block *= x->sizes[d];
    const char *xp = tsr_tensor_ptr(xc, NULL);
    /* a block is kept when any of its elements is non-zero (dense.ne(0) reduced over the dense dims) */
    int64_t nnz = 0;
    bool *keep = tsr_malloc((size_t)(rows ? rows : 1));
    if (!keep) goto done;
    for (int64_t k = 0; k < rows; k++) {
        bool nz = false;
        for (int64_t e = 0; e < block && !nz; e++) {
            tsr_scalar v = tsr_scalar_load(x->dtype, xp + (k * block + e) * isz);
            double re, im;
            tsr_scalar_to_complex(v, &re, &im);
            nz = v.kind == TSR_SCALAR_INT || v.kind == TSR_SCALAR_BOOL ? v.i != 0 : (re != 0 || im != 0);
        }
        keep[k] = nz;
        nnz += nz;
    }
    int64_t isz2[2] = {sd, nnz}, vsz[TSR_MAX_DIMS];
    vsz[0] = nnz;
    for (int d = sd; d < x->ndim; d++) vsz[d - sd + 1] = x->sizes[d];
    if (!(ni = tsr_tensor_empty(2, isz2, TSR_INT64, x->device))) goto done;
    if (!(nv = tsr_tensor_empty(x->ndim - sd + 1, vsz, x->dtype, x->device))) goto done;
    int64_t *q = tsr_tensor_ptr(ni, NULL), idx[TSR_MAX_DIMS];
    char *vp = tsr_tensor_ptr(nv, NULL);
    int64_t j = 0;
    for (int64_t k = 0; k < rows; k++) {
        if (!keep[k]) continue;
        tsr_unravel(sd, x->sizes, k, idx);
        for (int d = 0; d < sd; d++) q[d * nnz + j] = idx[d];
        if (block) memcpy(vp + j * block * isz, xp + k * block * isz, (size_t)(block * isz));
        j++;
    }
    r = tsr_sparse_wrap(x->ndim, x->sizes, ni, nv, true);
    ni = nv = NULL;
done:
    tsr_free(keep);
    tsr_tensor_release(xc);
    tsr_tensor_release(ni);
    tsr_tensor_release(nv);
    return r;
}

tsr_tensor *tsr_sparse_clone(const tsr_tensor *t)
{
    return wrap_like(t, tsr_clone(t->sparse->indices, TSR_MF_PRESERVE), tsr_clone(t->sparse->values, TSR_MF_PRESERVE),
                     t->sparse->coalesced);
}

tsr_tensor *tsr_sparse_to_dtype(const tsr_tensor *t, tsr_dtype dtype, bool copy)
{
    if (dtype == t->dtype && !copy) return tsr_tensor_retain((tsr_tensor *)t);
    return wrap_like(t, tsr_clone(t->sparse->indices, TSR_MF_PRESERVE), tsr_to_dtype(t->sparse->values, dtype, true),
                     t->sparse->coalesced);
}

/* ------------------------------------------------------------ transpose */

tsr_tensor *tsr_sparse_transpose(const tsr_tensor *t, int64_t d0, int64_t d1)
{
    int n = t->ndim;
    int64_t lo = n ? -n : -1, hi = n ? n - 1 : 0;
    int64_t dd[2] = {d0, d1};
    for (int k = 0; k < 2; k++) {
        if (dd[k] < lo || dd[k] > hi) {
            tsr_error_set(TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                          (long long)lo, (long long)hi, (long long)dd[k]);
            return NULL;
        }
        if (dd[k] < 0) dd[k] += n ? n : 1;
    }
    int sd = t->sparse->sparse_dim;
    if (dd[0] == dd[1]) return tsr_tensor_retain((tsr_tensor *)t);
    if (dd[0] >= sd || dd[1] >= sd) {
        tsr_error_set(TSR_ERR_RUNTIME, "sparse transpose: transposed dimensions must be sparse Got sparse_dim: %d, d0: "
                      "%lld, d1: %lld", sd, (long long)dd[0], (long long)dd[1]);
        return NULL;
    }
    tsr_tensor *ind = tsr_clone(t->sparse->indices, TSR_MF_CONTIGUOUS);
    if (!ind) return NULL;
    int64_t nnz = tsr_sparse_nnz(t), *p = tsr_tensor_ptr(ind, NULL);
    if (p)
        for (int64_t k = 0; k < nnz; k++) {
            int64_t a = p[dd[0] * nnz + k];
            p[dd[0] * nnz + k] = p[dd[1] * nnz + k];
            p[dd[1] * nnz + k] = a;
        }
    int64_t sz[TSR_MAX_DIMS];
    for (int d = 0; d < n; d++) sz[d] = t->sizes[d];
    sz[dd[0]] = t->sizes[dd[1]];
    sz[dd[1]] = t->sizes[dd[0]];
    return tsr_sparse_wrap(n, sz, ind, tsr_tensor_retain(t->sparse->values), false);
}

tsr_tensor *tsr_sparse_t(const tsr_tensor *t)
{
    int sd = t->sparse->sparse_dim, dn = t->sparse->dense_dim;
    if (sd > 2 || dn != 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "t() expects a tensor with <= 2 sparse and 0 dense dimensions, but got %d sparse "
                      "and %d dense dimensions", sd, dn);
        return NULL;
    }
    return tsr_sparse_transpose(t, 0, t->ndim < 2 ? 0 : 1);
}

/* ------------------------------------------------------------ pointwise */

tsr_tensor *tsr_sparse_unary(tsr_unop op, const tsr_tensor *t, const tsr_unary_opts *opts)
{
    if (op == TSR_UNOP_NEG || op == TSR_UNOP_DEG2RAD || op == TSR_UNOP_RAD2DEG || op == TSR_UNOP_CONJ_PHYSICAL)
        /* on the values as they are */
        return wrap_like(t, tsr_clone(t->sparse->indices, TSR_MF_PRESERVE), tsr_unary(op, t->sparse->values, NULL, opts),
                         t->sparse->coalesced);
    tsr_tensor *c = tsr_sparse_coalesce(t);
    if (!c) return NULL;
    tsr_tensor *r = wrap_like(c, tsr_clone(c->sparse->indices, TSR_MF_PRESERVE),
                              tsr_unary(op, c->sparse->values, NULL, opts), true);
    tsr_tensor_release(c);
    return r;
}

tsr_tensor *tsr_sparse_predicate(int op, const tsr_tensor *t)
{
    tsr_tensor *c = tsr_sparse_coalesce(t);   /* coalesced_unary_ufunc, as the other predicates of 1.13 */
    if (!c) return NULL;
    tsr_tensor *v = op >= 0 ? tsr_predicate((tsr_predop)op, c->sparse->values, NULL)
                            : tsr_signed_inf(c->sparse->values, op == -2, NULL);
    tsr_tensor *r = wrap_like(c, tsr_clone(c->sparse->indices, TSR_MF_PRESERVE), v, true);
    tsr_tensor_release(c);
    return r;
}

int tsr_sparse_unary_(tsr_unop op, tsr_tensor *t, const tsr_unary_opts *opts, const char *name)
{
    if (op != TSR_UNOP_NEG && op != TSR_UNOP_DEG2RAD && op != TSR_UNOP_RAD2DEG && !t->sparse->coalesced) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s requires coalesced input", name);
        return -1;
    }
    tsr_tensor *r = tsr_unary_(op, t->sparse->values, opts);
    tsr_tensor_release(r);
    return r ? 0 : -1;
}

int tsr_sparse_zero_(tsr_tensor *t)
{
    int64_t isz[2] = {t->sparse->sparse_dim, 0}, vsz[TSR_MAX_DIMS];
    tsr_tensor *v = t->sparse->values;
    for (int d = 0; d < v->ndim; d++) vsz[d] = v->sizes[d];
    vsz[0] = 0;
    tsr_tensor *ni = tsr_tensor_empty(2, isz, TSR_INT64, t->device), *nv = tsr_tensor_empty(v->ndim, vsz, v->dtype, t->device);
    if (!ni || !nv) {
        tsr_tensor_release(ni);
        tsr_tensor_release(nv);
        return -1;
    }
    tsr_tensor_release(t->sparse->indices);
    tsr_tensor_release(t->sparse->values);
    t->sparse->indices = ni;
    t->sparse->values = nv;
    t->sparse->coalesced = false;
    return 0;
}

int tsr_sparse_resize_as_(tsr_tensor *t, const tsr_tensor *o)
{
    int sd = tsr_is_sparse(o) ? o->sparse->sparse_dim : o->ndim, dn = o->ndim - sd;
    char b1[512], b2[512];
    if (tsr_sparse_nnz(t) > 0) {
        if (sd != t->sparse->sparse_dim) {
            tsr_error_set(TSR_ERR_RUNTIME, "changing the number of sparse dimensions (from %d to %d) on a non-empty "
                          "sparse tensor is not supported.", t->sparse->sparse_dim, sd);
            return -1;
        }
        if (dn != t->sparse->dense_dim) {
            tsr_error_set(TSR_ERR_RUNTIME, "changing the number of dense dimensions (from %d to %d) on a non-empty "
                          "sparse tensor is not supported.", t->sparse->dense_dim, dn);
            return -1;
        }
        bool shrink = false, dense_change = false;
        for (int d = 0; d < sd; d++) shrink |= o->sizes[d] < t->sizes[d];
        for (int d = sd; d < o->ndim; d++) dense_change |= o->sizes[d] != t->sizes[d];
        if (shrink) {
            tsr_error_set(TSR_ERR_RUNTIME, "shrinking the size of sparse dimensions (from %s to %s) on a non-empty sparse "
                          "tensor is not supported.", tsr__fmt_list(b1, sizeof b1, sd, t->sizes),
                          tsr__fmt_list(b2, sizeof b2, sd, o->sizes));
            return -1;
        }
        if (dense_change) {
            tsr_error_set(TSR_ERR_RUNTIME, "shrinking the size of dense dimensions (from %s to %s) on a non-empty sparse "
                          "tensor is not supported.", tsr__fmt_list(b1, sizeof b1, dn, t->sizes + sd),
                          tsr__fmt_list(b2, sizeof b2, dn, o->sizes + sd));
            return -1;
        }
    }
    /* a header with o's geometry: t's own dims[] may be too small, so the
     * sizes move only where they fit (they do for nnz 0 with the same rank) */
    if (o->ndim > t->dims_cap) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr: resize_as_ of a sparse tensor to more dimensions than it has room for");
        return -1;
    }
    int64_t isz[2] = {sd, tsr_sparse_nnz(t)}, vsz[TSR_MAX_DIMS];
    if (tsr_sparse_nnz(t) == 0) {
        vsz[0] = 0;
        for (int d = sd; d < o->ndim; d++) vsz[d - sd + 1] = o->sizes[d];
        tsr_tensor *ni = tsr_tensor_empty(2, isz, TSR_INT64, t->device),
                   *nv = tsr_tensor_empty(dn + 1, vsz, t->dtype, t->device);
        if (!ni || !nv) {
            tsr_tensor_release(ni);
            tsr_tensor_release(nv);
            return -1;
        }
        tsr_tensor_release(t->sparse->indices);
        tsr_tensor_release(t->sparse->values);
        t->sparse->indices = ni;
        t->sparse->values = nv;
        t->sparse->sparse_dim = sd;
        t->sparse->dense_dim = dn;
    }
    t->ndim = o->ndim;
    t->sizes = t->dims;
    t->strides = t->dims + o->ndim;
    for (int d = 0; d < o->ndim; d++) {
        t->sizes[d] = o->sizes[d];
        t->strides[d] = d == 0;
    }
    (void)fmt_sizes;
    return 0;
}

/* ------------------------------------------------------------ arithmetic */

tsr_tensor *tsr_sparse_mul_scalar(const tsr_tensor *s, tsr_scalar v)
{
    tsr_operand a = tsr_operand_tensor(s->sparse->values), b = tsr_operand_scalar(v);
    return wrap_like(s, tsr_clone(s->sparse->indices, TSR_MF_PRESERVE), tsr_binary(TSR_BINOP_MUL, &a, &b, NULL, NULL),
                     s->sparse->coalesced);
}

tsr_tensor *tsr_sparse_div_scalar(const tsr_tensor *s, tsr_scalar v)
{
    tsr_operand a = tsr_operand_tensor(s->sparse->values), b = tsr_operand_scalar(v);
    return wrap_like(s, tsr_clone(s->sparse->indices, TSR_MF_PRESERVE), tsr_binary(TSR_BINOP_DIV, &a, &b, NULL, NULL),
                     s->sparse->coalesced);
}

tsr_tensor *tsr_sparse_binary_scalar(tsr_binop op, const tsr_tensor *s, tsr_scalar v)
{
    if (op == TSR_BINOP_POW) {   /* pow_out_sparse_scalar: exponent.toDouble() != 0 */
        double re, im;
        tsr_scalar_to_complex(v, &re, &im);
        if (im != 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "value cannot be converted to type double without overflow");
            return NULL;
        }
        if (re == 0) {
            tsr_error_set(TSR_ERR_RUNTIME,
                          "pow: cannot raise to zeroth power on sparse tensor; it would make the result tensor dense");
            return NULL;
        }
    }
    tsr_tensor *c = tsr_sparse_coalesce(s);
    if (!c) return NULL;
    tsr_operand a = tsr_operand_tensor(c->sparse->values), b = tsr_operand_scalar(v);
    tsr_tensor *r = wrap_like(c, tsr_clone(c->sparse->indices, TSR_MF_PRESERVE), tsr_binary(op, &a, &b, NULL, NULL), true);
    tsr_tensor_release(c);
    return r;
}

tsr_tensor *tsr_sparse_mul_dense(const tsr_tensor *s, const tsr_tensor *d)
{
    bool same = s->ndim == d->ndim;
    for (int k = 0; same && k < s->ndim; k++) same = s->sizes[k] == d->sizes[k];
    if (!same) {   /* the dense operand broadcast to s's sizes */
        int nds[2] = {d->ndim, s->ndim}, n;   /* 1.13 names the dense operand a */
        const int64_t *szs[2] = {d->sizes, s->sizes};
        int64_t bs[TSR_MAX_DIMS];
        if ((n = tsr_broadcast_shapes(2, nds, szs, bs)) < 0) return NULL;
        if (n != s->ndim || memcmp(bs, s->sizes, sizeof(int64_t) * (size_t)n)) {
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: mul of a sparse tensor of size %s by a dense tensor that "
                          "broadcasts it to %s is not supported", fmt_sizes((char[512]){0}, 512, s),
                          tsr__fmt_list((char[512]){0}, 512, n, bs));
            return NULL;
        }
        tsr_tensor *e = tsr_view_expand(d, s->ndim, s->sizes);
        if (!e) return NULL;
        tsr_tensor *r = tsr_sparse_mul_dense(s, e);
        tsr_tensor_release(e);
        return r;
    }
    /* the dense values at the sparse indices, times the sparse values */
    int sd = s->sparse->sparse_dim;
    int64_t nnz = tsr_sparse_nnz(s), vsz[TSR_MAX_DIMS];
    vsz[0] = nnz;
    for (int k = sd; k < d->ndim; k++) vsz[k - sd + 1] = d->sizes[k];
    tsr_tensor *ind = indices_contig(s), *dc = tsr_contiguous(d, TSR_MF_CONTIGUOUS), *g = NULL, *r = NULL;
    if (!ind || !dc || !(g = tsr_tensor_empty(d->ndim - sd + 1, vsz, d->dtype, d->device))) goto done;
    {
        const int64_t *p = tsr_tensor_ptr(ind, NULL);
        int64_t block = 1, isz = tsr_tensor_itemsize(d);
        for (int k = sd; k < d->ndim; k++) block *= d->sizes[k];
        const char *dp = tsr_tensor_ptr(dc, NULL);
        char *gp = tsr_tensor_ptr(g, NULL);
        for (int64_t k = 0; k < nnz && dp; k++) {
            int64_t off = 0;
            for (int e = 0; e < sd; e++) off = off * d->sizes[e] + p[e * nnz + k];
            memcpy(gp + k * block * isz, dp + off * block * isz, (size_t)(block * isz));
        }
        tsr_operand a = tsr_operand_tensor(s->sparse->values), b = tsr_operand_tensor(g);
        r = wrap_like(s, tsr_clone(s->sparse->indices, TSR_MF_PRESERVE), tsr_binary(TSR_BINOP_MUL, &a, &b, NULL, NULL),
                      s->sparse->coalesced);
    }
done:
    tsr_tensor_release(ind);
    tsr_tensor_release(dc);
    tsr_tensor_release(g);
    return r;
}

static bool same_density(const tsr_tensor *a, const tsr_tensor *b)
{
    if (a->ndim != b->ndim || a->sparse->sparse_dim != b->sparse->sparse_dim) return false;
    for (int d = 0; d < a->ndim; d++)
        if (a->sizes[d] != b->sizes[d]) return false;
    return true;
}

tsr_tensor *tsr_sparse_mul(const tsr_tensor *a, const tsr_tensor *b)
{
    char b1[512], b2[512];
    if (!same_density(a, b)) {
        tsr_error_set(TSR_ERR_RUNTIME, "mul(sparse, sparse): operands have incompatible sizes or dimension types: %s vs %s",
                      fmt_sizes(b1, sizeof b1, a), fmt_sizes(b2, sizeof b2, b));
        return NULL;
    }
    tsr_dtype dt = tsr_promote_types(a->dtype, b->dtype);
    int sd = a->sparse->sparse_dim;
    int64_t na = tsr_sparse_nnz(a), nb = tsr_sparse_nnz(b);
    tsr_tensor *ia = indices_contig(a), *ib = indices_contig(b), *r = NULL, *ni = NULL, *nv = NULL;
    Key *kb = NULL;
    int64_t *pos = NULL, m = 0;
    if (!ia || !ib) goto done;
    const int64_t *pa = tsr_tensor_ptr(ia, NULL), *pb = tsr_tensor_ptr(ib, NULL);
    if (!(kb = sorted_keys(b, pb, nb))) goto done;
    /* the intersection probed with each of a's entries in order; b's matches in their order */
    if (!(pos = tsr_malloc((size_t)(na * (nb ? nb : 1) + 1) * 2 * sizeof *pos))) goto done;
    for (int64_t i = 0; i < na; i++) {
        int64_t key = 0;
        for (int d = 0; d < sd; d++) key = key * a->sizes[d] + pa[d * na + i];
        int64_t lo = 0, hi = nb;
        while (lo < hi) {
            int64_t mid = (lo + hi) / 2;
            if (kb[mid].key < key) lo = mid + 1;
            else hi = mid;
        }
        for (int64_t j = lo; j < nb && kb[j].key == key; j++) {
            pos[2 * m] = i;
            pos[2 * m + 1] = kb[j].pos;
            m++;
        }
    }
    int64_t isz[2] = {sd, m};
    if (!(ni = tsr_tensor_empty(2, isz, TSR_INT64, a->device))) goto done;
    int64_t *q = tsr_tensor_ptr(ni, NULL);
    for (int64_t k = 0; k < m; k++)
        for (int d = 0; d < sd; d++) q[d * m + k] = pa[d * na + pos[2 * k]];
    {
        int64_t vsz[1] = {m};
        tsr_tensor *xi = tsr_tensor_empty(1, vsz, TSR_INT64, a->device), *yi = tsr_tensor_empty(1, vsz, TSR_INT64, a->device);
        if (!xi || !yi) {
            tsr_tensor_release(xi);
            tsr_tensor_release(yi);
            goto done;
        }
        int64_t *x = tsr_tensor_ptr(xi, NULL), *y = tsr_tensor_ptr(yi, NULL);
        for (int64_t k = 0; k < m; k++) {
            x[k] = pos[2 * k];
            y[k] = pos[2 * k + 1];
        }
        tsr_tensor *va = tsr_index_select(a->sparse->values, 0, xi), *vb = tsr_index_select(b->sparse->values, 0, yi);
        tsr_tensor_release(xi);
        tsr_tensor_release(yi);
        if (va && vb) {
            tsr_operand oa = tsr_operand_tensor(va), ob = tsr_operand_tensor(vb);
            nv = tsr_binary(TSR_BINOP_MUL, &oa, &ob, NULL, NULL);
        }
        tsr_tensor_release(va);
        tsr_tensor_release(vb);
        if (!nv) goto done;
    }
    (void)dt;
    r = wrap_like(a, ni, nv, a->sparse->coalesced && b->sparse->coalesced);
    ni = nv = NULL;
done:
    tsr_free(kb);
    tsr_free(pos);
    tsr_tensor_release(ia);
    tsr_tensor_release(ib);
    tsr_tensor_release(ni);
    tsr_tensor_release(nv);
    return r;
}

/* sparse + alpha * sparse (add_out_sparse_cpu): the merge of two index
 * lists when both values are contiguous, else their concatenation. */
static tsr_tensor *add_sparse_sparse(const tsr_tensor *t, const tsr_tensor *s, tsr_scalar alpha)
{
    char b1[512], b2[512];
    bool same_size = t->ndim == s->ndim && !memcmp(t->sizes, s->sizes, sizeof(int64_t) * (size_t)t->ndim);
    if (!same_size) {
        tsr_error_set(TSR_ERR_RUNTIME, "add: expected sizes of 'self' and 'other' to match, but %s != %s",
                      fmt_sizes(b1, sizeof b1, t), fmt_sizes(b2, sizeof b2, s));
        return NULL;
    }
    tsr_dtype dt = tsr_promote_types(t->dtype, s->dtype);
    if (tsr_sparse_nnz(s) == 0 && same_density(t, s)) return tsr_sparse_to_dtype(t, dt, true);
    if (tsr_sparse_nnz(t) == 0 && same_density(t, s)) {
        tsr_operand a = tsr_operand_tensor(s->sparse->values), b = tsr_operand_scalar(alpha);
        tsr_tensor *v = tsr_binary(TSR_BINOP_MUL, &a, &b, NULL, NULL), *v2 = v ? tsr_to_dtype(v, dt, false) : NULL;
        tsr_tensor_release(v);
        return wrap_like(s, tsr_clone(s->sparse->indices, TSR_MF_PRESERVE), v2, s->sparse->coalesced);
    }
    if (!same_density(t, s)) {
        tsr_error_set(TSR_ERR_RUNTIME, "add: expected 'self' and 'other' to have same density, but 'self' has %d sparse "
                      "dimensions while 'other' has %d sparse dimensions", t->sparse->sparse_dim, s->sparse->sparse_dim);
        return NULL;
    }
    int sd = t->sparse->sparse_dim;
    int64_t nt = tsr_sparse_nnz(t), ns = tsr_sparse_nnz(s);
    tsr_tensor *tv = t->sparse->values, *sv = s->sparse->values;
    if (!tsr_tensor_is_contiguous(tv) || !tsr_tensor_is_contiguous(sv)) {
        tsr_operand a = tsr_operand_tensor(sv), b = tsr_operand_scalar(alpha);
        tsr_tensor *sv2 = tsr_binary(TSR_BINOP_MUL, &a, &b, NULL, NULL);
        const tsr_tensor *iv[2] = {t->sparse->indices, s->sparse->indices}, *vv[2] = {tv, sv2};
        tsr_tensor *ri = sv2 ? tsr_cat(2, iv, 1, NULL) : NULL, *rv = ri ? tsr_cat(2, vv, 0, NULL) : NULL;
        tsr_tensor *rv2 = rv ? tsr_to_dtype(rv, dt, false) : NULL;
        tsr_tensor_release(sv2);
        tsr_tensor_release(rv);
        tsr_tensor *r = wrap_like(t, ri, rv2, false);
        if (r && tsr_sparse_nnz(r) > tsr_tensor_numel(r)) {
            tsr_tensor *c = tsr_sparse_coalesce(r);
            tsr_tensor_release(r);
            r = c;
        }
        return r;
    }
    tsr_tensor *it = indices_contig(t), *is = indices_contig(s), *r = NULL, *ni = NULL, *nv = NULL;
    tsr_tensor *tvc = tsr_to_dtype(tv, dt, false), *svc = tsr_to_dtype(sv, dt, false);
    if (!it || !is || !tvc || !svc) goto done;
    int64_t isz[2] = {sd, nt + ns}, vsz[TSR_MAX_DIMS], block = 1, esz = tsr_dtype_itemsize(dt);
    for (int d = 0; d < tv->ndim; d++) vsz[d] = tv->sizes[d];
    vsz[0] = nt + ns;
    for (int d = 1; d < tv->ndim; d++) block *= tv->sizes[d];
    if (!(ni = tsr_tensor_empty(2, isz, TSR_INT64, t->device))) goto done;
    if (!(nv = tsr_zeros(tv->ndim, vsz, dt, t->device))) goto done;
    const int64_t *pt = tsr_tensor_ptr(it, NULL), *ps = tsr_tensor_ptr(is, NULL);
    int64_t *q = tsr_tensor_ptr(ni, NULL), cap = nt + ns;
    const char *tp = tsr_tensor_ptr(tvc, NULL), *sp = tsr_tensor_ptr(svc, NULL);
    char *np = tsr_tensor_ptr(nv, NULL);
    int64_t ti = 0, si = 0, ri = 0;
    while (ti < nt || si < ns) {
        int cmp = 0;
        if (ti >= nt) cmp = -1;
        else if (si >= ns) cmp = 1;
        else
            for (int d = 0; d < sd; d++) {
                if (pt[d * nt + ti] < ps[d * ns + si]) { cmp = 1; break; }
                if (pt[d * nt + ti] > ps[d * ns + si]) { cmp = -1; break; }
            }
        if (cmp >= 0) {
            for (int d = 0; d < sd; d++) q[d * cap + ri] = pt[d * nt + ti];
            axpy(dt, block, tsr_scalar_int(1), tp + ti * block * esz, 1, np + ri * block * esz, 1);
            ti++;
        }
        if (cmp <= 0) {
            for (int d = 0; d < sd; d++) q[d * cap + ri] = ps[d * ns + si];
            axpy(dt, block, alpha, sp + si * block * esz, 1, np + ri * block * esz, 1);
            si++;
        }
        ri++;
    }
    {
        tsr_tensor *ni2 = tsr_view_narrow(ni, 1, 0, ri), *nv2 = tsr_view_narrow(nv, 0, 0, ri);
        tsr_tensor *ni3 = ni2 ? tsr_contiguous(ni2, TSR_MF_CONTIGUOUS) : NULL, *nv3 = nv2 ? tsr_contiguous(nv2, TSR_MF_CONTIGUOUS) : NULL;
        tsr_tensor_release(ni2);
        tsr_tensor_release(nv2);
        r = wrap_like(t, ni3, nv3, t->sparse->coalesced && s->sparse->coalesced);
    }
done:
    tsr_tensor_release(it);
    tsr_tensor_release(is);
    tsr_tensor_release(tvc);
    tsr_tensor_release(svc);
    tsr_tensor_release(ni);
    tsr_tensor_release(nv);
    return r;
}

tsr_tensor *tsr_sparse_add(const tsr_tensor *a, const tsr_tensor *b, tsr_scalar alpha)
{
    char b1[512], b2[512];
    if (tsr_is_sparse(a) && tsr_is_sparse(b)) return add_sparse_sparse(a, b, alpha);
    if (tsr_is_sparse(a)) {
        tsr_error_set(TSR_ERR_RUNTIME, "add(sparse, dense) is not supported. Use add(dense, sparse) instead.");
        return NULL;
    }
    /* dense + alpha * sparse (add_out_dense_sparse_cpu): same sizes, no broadcasting */
    bool same = a->ndim == b->ndim;
    for (int d = 0; same && d < a->ndim; d++) same = a->sizes[d] == b->sizes[d];
    if (!same) {
        tsr_error_set(TSR_ERR_RUNTIME, "add: expected 'self' and 'other' to have same size, but self has size %s while "
                      "other has size %s (FYI: dense-sparse addition does not currently support broadcasting)",
                      fmt_sizes(b1, sizeof b1, a), fmt_sizes(b2, sizeof b2, b));
        return NULL;
    }
    tsr_dtype dt = tsr_promote_types(a->dtype, b->dtype);
    tsr_tensor *r = tsr_to_dtype_format(a, dt, TSR_MF_CONTIGUOUS);
    if (r == a) {
        tsr_tensor_release(r);
        r = tsr_clone(a, TSR_MF_CONTIGUOUS);
    }
    if (r && add_sparse_into(r, b, alpha) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

tsr_tensor *tsr_sparse_mm(const tsr_tensor *a, const tsr_tensor *b)
{
    char b1[512], b2[512];
    if (!tsr_is_sparse(a) || tsr_is_sparse(b)) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: only sparse @ dense products are supported");
        return NULL;
    }
    if (a->sparse->sparse_dim != 2 || a->sparse->dense_dim != 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "addmm: matrices expected, got %dD tensor", a->sparse->sparse_dim);
        return NULL;
    }
    if (b->ndim != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "addmm: matrices expected, got %dD tensor", b->ndim);
        return NULL;
    }
    if (a->sizes[1] != b->sizes[0]) {
        tsr_error_set(TSR_ERR_RUNTIME, "addmm: Argument #3 (dense): Expected dim 0 size %lld, got %lld",
                      (long long)a->sizes[1], (long long)b->sizes[0]);
        return NULL;
    }
    if (a->dtype != b->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(b->dtype),
                      tsr_dtype_scalar_name(a->dtype));
        return NULL;
    }
    (void)b1; (void)b2;
    int64_t n = a->sizes[0], p = b->sizes[1], nnz = tsr_sparse_nnz(a), sz[2] = {n, p};
    tsr_tensor *r = tsr_zeros(2, sz, a->dtype, a->device), *ind = NULL, *val = NULL;
    if (!r || nnz == 0 || p == 0 || tsr_device_is_meta(a->device)) return r;
    ind = indices_contig(a);
    val = tsr_contiguous(a->sparse->values, TSR_MF_CONTIGUOUS);
    tsr_tensor *bc = tsr_resolve_bits(b);
    if (!ind || !val || !bc) goto fail;
    const int64_t *pi = tsr_tensor_ptr(ind, NULL);
    int64_t isz = tsr_tensor_itemsize(a);
    const char *vp = tsr_tensor_ptr(val, NULL), *bp = tsr_tensor_ptr(bc, NULL);
    char *rp = tsr_tensor_ptr(r, NULL);
    for (int64_t k = 0; k < nnz; k++) {
        if ((k & 1023) == 0 && tsr_check_interrupt() < 0) goto fail;
        int64_t row = pi[k], col = pi[nnz + k];
        tsr_scalar v = tsr_scalar_load(a->dtype, vp + k * isz);
        axpy(a->dtype, p, v, bp + col * bc->strides[0] * isz, bc->strides[1], rp + row * p * isz, 1);
    }
    tsr_tensor_release(ind);
    tsr_tensor_release(val);
    tsr_tensor_release(bc);
    return r;
fail:
    tsr_tensor_release(ind);
    tsr_tensor_release(val);
    tsr_tensor_release(bc);
    tsr_tensor_release(r);
    return NULL;
}

/* ------------------------------------------------------------ sum */

tsr_tensor *tsr_sparse_sum(const tsr_tensor *s, const tsr_dims *dims, tsr_dtype dtype)
{
    int n = s->ndim, sd = s->sparse->sparse_dim;
    const tsr_tensor *in = s;
    tsr_tensor *own = NULL;
    if (dtype != TSR_DTYPE_UNDEFINED && dtype != s->dtype) {
        if (!(own = tsr_sparse_to_dtype(s, dtype, false))) return NULL;
        in = own;
    }
    if (!dims || dims->n <= 0) {   /* _sparse_sum: the coalesced values summed */
        tsr_tensor *c = tsr_sparse_coalesce(in);
        tsr_tensor *r = c ? tsr_sum(c->sparse->values, NULL, false, TSR_DTYPE_UNDEFINED, NULL) : NULL;
        tsr_tensor_release(c);
        tsr_tensor_release(own);
        return r;
    }
    bool red[TSR_MAX_DIMS] = {false};
    for (int k = 0; k < dims->n; k++) {
        int64_t d = dims->d[k];
        if (d < -n || d >= n) {
            tsr_error_set(TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %lld)",
                          n ? -n : -1, n ? n - 1 : 0, (long long)d);
            tsr_tensor_release(own);
            return NULL;
        }
        if (d < 0) d += n;
        if (red[d]) {
            tsr_error_set(TSR_ERR_RUNTIME, "dim %lld appears multiple times in the list of dims", (long long)d);
            tsr_tensor_release(own);
            return NULL;
        }
        red[d] = true;
    }
    tsr_tensor *c = tsr_sparse_coalesce(in), *r = NULL, *vals = NULL;
    tsr_tensor_release(own);
    if (!c) return NULL;
    int nsr = 0, keep_sd = 0;
    tsr_dims vd = {0};
    for (int d = 0; d < n; d++) {
        if (d < sd) red[d] ? nsr++ : keep_sd++;
        else if (red[d]) vd.d[vd.n++] = d - sd + 1;
    }
    /* dense dims first: the values summed over them */
    tsr_tensor *cv = c->sparse->values;
    vals = vd.n ? tsr_sum(cv, &vd, false, TSR_DTYPE_UNDEFINED, NULL) : tsr_tensor_retain(cv);
    if (!vals) goto done;
    if (nsr == 0) {   /* only dense dims: the same indices, in the sparse tensor's options */
        if (vals->dtype != in->dtype) {
            tsr_error_set(TSR_ERR_RUNTIME, "dtype of values (%s) must match dtype of sparse tensor (%s)",
                          tsr_dtype_scalar_name(vals->dtype), tsr_dtype_scalar_name(in->dtype));
            goto done;
        }
        int64_t sz[TSR_MAX_DIMS];
        int m = 0;
        for (int d = 0; d < n; d++)
            if (!red[d]) sz[m++] = s->sizes[d];
        r = tsr_sparse_wrap(m, sz, tsr_clone(c->sparse->indices, TSR_MF_PRESERVE), tsr_tensor_retain(vals), true);
        goto done;
    }
    if (keep_sd == 0) {   /* every sparse dim: a dense result, from the values as they are (not coalesced) */
        tsr_dims z = {1, {0}};
        tsr_tensor *v0 = vd.n ? tsr_sum(in->sparse->values, &vd, false, TSR_DTYPE_UNDEFINED, NULL)
                              : tsr_tensor_retain(in->sparse->values);
        r = v0 ? tsr_sum(v0, &z, false, TSR_DTYPE_UNDEFINED, NULL) : NULL;
        tsr_tensor_release(v0);
        goto done;
    }
    {
        int64_t nnz = tsr_sparse_nnz(c), isz[2] = {keep_sd, nnz}, sz[TSR_MAX_DIMS];
        tsr_tensor *ni = tsr_tensor_empty(2, isz, TSR_INT64, s->device), *ci = indices_contig(c);
        if (!ni || !ci) {
            tsr_tensor_release(ni);
            tsr_tensor_release(ci);
            goto done;
        }
        const int64_t *p = tsr_tensor_ptr(ci, NULL);
        int64_t *q = tsr_tensor_ptr(ni, NULL);
        int m = 0, row = 0;
        for (int d = 0; d < n; d++) {
            if (red[d]) continue;
            sz[m++] = s->sizes[d];
            if (d < sd) {
                for (int64_t k = 0; k < nnz && p; k++) q[row * nnz + k] = p[d * nnz + k];
                row++;
            }
        }
        tsr_tensor_release(ci);
        tsr_tensor *u = tsr_sparse_wrap(m, sz, ni, tsr_tensor_retain(vals), false);
        if (u) {
            if (tsr_sparse_nnz(u) < 2) u->sparse->coalesced = false;
            r = tsr_sparse_coalesce(u);
            tsr_tensor_release(u);
        }
    }
done:
    tsr_tensor_release(vals);
    tsr_tensor_release(c);
    return r;
}

/* ------------------------------------------------------------ select, unsqueeze, subscripts */

tsr_tensor *tsr_sparse_select(const tsr_tensor *t, int64_t dim, int64_t index)
{
    if (need_sparse(t, "select") < 0) return NULL;
    int d = tsr_wrap_dim(dim, t->ndim);
    if (d < 0) return NULL;
    int64_t size = t->sizes[d];
    if (index < -size || index >= size) {
        char buf[512];
        tsr_error_set(TSR_ERR_INDEX, "select(): index %lld out of range for tensor of size %s at dimension %lld",
                      (long long)index, fmt_sizes(buf, sizeof buf, t), (long long)dim);
        return NULL;
    }
    if (index < 0) index += size;
    int sd = t->sparse->sparse_dim;
    int64_t sz[TSR_MAX_DIMS];
    for (int k = 0, j = 0; k < t->ndim; k++)
        if (k != d) sz[j++] = t->sizes[k];
    if (d >= sd) {   /* a dense dim: the values' dim, indices shared */
        tsr_tensor *nv = tsr_view_select(t->sparse->values, d - sd + 1, index);
        if (!nv) return NULL;
        return tsr_sparse_wrap(t->ndim - 1, sz, tsr_tensor_retain(t->sparse->indices), nv, nv->sizes[0] < 2);
    }
    /* (indices[dim] == index).nonzero().view(-1), then index_select */
    tsr_tensor *row = tsr_view_select(t->sparse->indices, 0, d), *eq = NULL, *nz = NULL, *pos = NULL, *nv = NULL,
               *r = NULL;
    tsr_operand a = {.t = row}, b = {.t = NULL, .s = tsr_scalar_int(index)};
    if (!row || !(eq = tsr_compare(TSR_CMP_EQ, &a, &b, NULL)) || !(nz = tsr_nonzero(eq))) goto done;
    int64_t m = nz->sizes[0];
    if (!(pos = tsr_view_view(nz, 1, &m)) || !(nv = tsr_index_select(t->sparse->values, 0, pos))) goto done;
    if (sd == 1) {   /* the dense part */
        if (m == 1) r = tsr_view_select(nv, 0, 0);
        else {
            tsr_dims dims = {.n = 1, .d = {0}};
            r = tsr_sum(nv, &dims, false, nv->dtype, NULL);
        }
        goto done;
    }
    int64_t keep[TSR_MAX_DIMS], nk = 0;
    for (int k = 0; k < sd; k++)
        if (k != d) keep[nk++] = k;
    tsr_tensor *kt = tsr_tensor_empty(1, &nk, TSR_INT64, TSR_CPU), *ni1 = NULL, *ni = NULL;
    if (kt) memcpy(tsr_tensor_ptr(kt, NULL), keep, (size_t)nk * sizeof *keep);
    if (kt && (ni1 = tsr_index_select(t->sparse->indices, 1, pos))) ni = tsr_index_select(ni1, 0, kt);
    tsr_tensor_release(kt);
    tsr_tensor_release(ni1);
    if (ni) {
        r = tsr_sparse_wrap(t->ndim - 1, sz, ni, nv, m < 2);
        nv = NULL;
    }
done:
    tsr_tensor_release(row);
    tsr_tensor_release(eq);
    tsr_tensor_release(nz);
    tsr_tensor_release(pos);
    tsr_tensor_release(nv);
    return r;
}

static tsr_tensor *no_sparse_kernel(const tsr_tensor *t, const char *op, const char *kernels);

tsr_tensor *tsr_sparse_unsqueeze(const tsr_tensor *t, int64_t dim)
{
    if (need_sparse(t, "unsqueeze") < 0) return NULL;
    int d = tsr_wrap_dim(dim, t->ndim + 1);
    if (d < 0) return NULL;
    if (tsr_device_is_meta(t->device)) return no_sparse_kernel(t, "aten::as_strided", "CPU, Meta, QuantizedCPU");
    int sd = t->sparse->sparse_dim;
    int64_t sz[TSR_MAX_DIMS];
    for (int k = 0, j = 0; k <= t->ndim; k++) sz[k] = k == d ? 1 : t->sizes[j++];
    if (d > sd) {
        tsr_tensor *nv = tsr_view_unsqueeze(t->sparse->values, d - sd + 1);
        if (!nv) return NULL;
        return tsr_sparse_wrap(t->ndim + 1, sz, tsr_tensor_retain(t->sparse->indices), nv, nv->sizes[0] < 2);
    }
    /* cat(indices[:dim], zeros(1, nnz), indices[dim:]) */
    int64_t nnz = tsr_sparse_nnz(t), zs[2] = {1, nnz};
    tsr_tensor *lo = tsr_view_narrow(t->sparse->indices, 0, 0, d);
    tsr_tensor *hi = lo ? tsr_view_narrow(t->sparse->indices, 0, d, sd - d) : NULL;
    tsr_tensor *z = hi ? tsr_zeros(2, zs, TSR_INT64, t->device) : NULL, *ni = NULL;
    if (z) {
        const tsr_tensor *parts[3] = {lo, z, hi};
        ni = tsr_cat(3, parts, 0, NULL);
    }
    tsr_tensor_release(lo);
    tsr_tensor_release(hi);
    tsr_tensor_release(z);
    if (!ni) return NULL;
    return tsr_sparse_wrap(t->ndim + 1, sz, ni, tsr_tensor_retain(t->sparse->values), nnz < 2);
}

/* The backends 1.13 lists for the ops a sparse subscript reaches. */
#define ALL_DENSE "CPU, CUDA, HIP, MPS, IPU, XPU, HPU, VE, Meta, PrivateUse1, PrivateUse2, PrivateUse3, FPGA, ORT, " \
                  "Vulkan, Metal, QuantizedCPU, QuantizedCUDA, QuantizedHIP, QuantizedMPS, QuantizedIPU, QuantizedXPU, " \
                  "QuantizedHPU, QuantizedVE, QuantizedMeta, QuantizedPrivateUse1, QuantizedPrivateUse2, " \
                  "QuantizedPrivateUse3, CustomRNGKeyId, MkldnnCPU, SparseCsrCPU, SparseCsrCUDA"

static tsr_tensor *no_sparse_kernel(const tsr_tensor *t, const char *op, const char *kernels)
{
    tsr_error_no_kernel(op, tsr_device_is_meta(t->device) ? "SparseMeta" : "SparseCPU", kernels);
    return NULL;
}

tsr_tensor *tsr_sparse_subscript(const tsr_tensor *self, int n, const tsr_sub *items)
{
    int specified = 0, ellipses = 0;
    bool advanced = false;
    for (int i = 0; i < n; i++) {
        const tsr_sub *it = &items[i];
        bool mask = it->kind == TSR_SUB_TENSOR && (it->t->dtype == TSR_BOOL || it->t->dtype == TSR_UINT8);
        if (it->kind == TSR_SUB_TENSOR) specified += mask ? it->t->ndim : 1;
        else if (it->kind == TSR_SUB_INT || it->kind == TSR_SUB_SLICE) specified++;
        else if (it->kind == TSR_SUB_ELLIPSIS) ellipses++;
    }
    bool bare = n == 1 && items[0].bare && (items[0].kind == TSR_SUB_INT || items[0].kind == TSR_SUB_SLICE);
    if (specified > self->ndim && !bare) {
        tsr_error_set(TSR_ERR_INDEX, "too many indices for tensor of dimension %d", self->ndim);
        return NULL;
    }
    tsr_tensor *cur = tsr_tensor_retain((tsr_tensor *)self);
    int d = 0;
    for (int i = 0; i < n; i++) {
        const tsr_sub *it = &items[i];
        tsr_tensor *next = NULL;
        int64_t ix = it->i;
        bool select = it->kind == TSR_SUB_INT;
        if (it->kind == TSR_SUB_ELLIPSIS) {
            if (ellipses) d += self->ndim - specified;
            ellipses = 0;
            continue;
        }
        if (it->kind == TSR_SUB_TENSOR && it->t->ndim == 0 && tsr_dtype_is_integral(it->t->dtype, false)) {
            if (tsr_tensor_index(it->t, &ix) < 0) goto fail;
            select = true;
        } else if (it->kind == TSR_SUB_BOOL || (it->kind == TSR_SUB_TENSOR && it->t->ndim == 0 &&
                                                (it->t->dtype == TSR_BOOL || it->t->dtype == TSR_UINT8))) {
            /* the [0] / [] index is made on self's options: a sparse fill_ */
            no_sparse_kernel(self, "aten::fill_.Scalar", "CPU, Meta, QuantizedCPU, SparseCsrCPU");
            goto fail;
        } else if (it->kind == TSR_SUB_TENSOR) {
            advanced = true;
            d++;
            continue;
        }
        if (select) {
            if (cur->ndim == 0) {
                tsr_error_set(TSR_ERR_INDEX, ix ? "index %" PRId64 " is out of bounds for dimension 0 with size 0"
                                                : "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                                  "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number",
                              ix);
                goto fail;
            }
            int64_t size = cur->sizes[d];
            if (ix < -size || ix >= size) {
                tsr_error_set(TSR_ERR_INDEX, "index %" PRId64 " is out of bounds for dimension %d with size %" PRId64,
                              ix, i, size);
                goto fail;
            }
            next = tsr_is_sparse(cur) ? tsr_sparse_select(cur, d, ix) : tsr_view_select(cur, d, ix);
        } else if (it->kind == TSR_SUB_SLICE) {
            next = no_sparse_kernel(self, "aten::as_strided", "CPU, Meta, QuantizedCPU");
        } else {   /* None */
            next = tsr_is_sparse(cur) ? tsr_sparse_unsqueeze(cur, d) : tsr_view_unsqueeze(cur, d);
            d++;
        }
        if (!next) goto fail;
        tsr_tensor_release(cur);
        cur = next;
    }
    if (advanced && tsr_is_sparse(cur)) {
        no_sparse_kernel(self, "aten::index.Tensor", ALL_DENSE);
        goto fail;
    }
    if (advanced || cur == self) {   /* at::alias of a sparse tensor, or an index of the dense part */
        if (cur == self) tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "Cannot access storage of SparseTensorImpl");
        else tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: advanced indexing after a sparse select is not supported");
        goto fail;
    }
    return cur;
fail:
    tsr_tensor_release(cur);
    return NULL;
}

/* ------------------------------------------------------------ norm */

tsr_tensor *tsr_sparse_norm(const tsr_tensor *x, double p, const tsr_dims *dims, bool keepdim, tsr_dtype dtype,
                            tsr_tensor *out)
{
    if (out) return no_sparse_kernel(x, "aten::norm.out", "CPU, Meta");
    if (tsr_device_is_meta(x->device))
        return no_sparse_kernel(x, dtype != TSR_DTYPE_UNDEFINED ? "aten::norm.ScalarOpt_dim_dtype" : "aten::norm.ScalarOpt_dim",
                                "CPU, CUDA, HIP, MPS, IPU, XPU, HPU, VE, Meta, PrivateUse1, PrivateUse2, PrivateUse3, FPGA, "
                                "ORT, Vulkan, Metal, QuantizedCPU, QuantizedCUDA, QuantizedHIP, QuantizedMPS, QuantizedIPU, "
                                "QuantizedXPU, QuantizedHPU, QuantizedVE, QuantizedMeta, QuantizedPrivateUse1, "
                                "QuantizedPrivateUse2, QuantizedPrivateUse3, CustomRNGKeyId, MkldnnCPU, SparseCPU, "
                                "SparseCsrCPU, SparseCsrCUDA");
    if (dims && dims->n > 0) {   /* only full reductions */
        bool full = dims->n == x->ndim, seen[TSR_MAX_DIMS] = {false};
        for (int k = 0; full && k < dims->n; k++) {
            int d = tsr_wrap_dim(dims->d[k], x->ndim);
            if (d < 0) return NULL;
            if (seen[d]) full = false;
            seen[d] = true;
        }
        if (!full) {
            tsr_error_set(TSR_ERR_RUNTIME, "norm_sparse currently only supports full reductions, so 'dim' must either be "
                          "empty or contain all dimensions of the input");
            return NULL;
        }
    }
    if (keepdim) {
        tsr_error_set(TSR_ERR_RUNTIME, "norm_sparse currently does not support keepdim=True");
        return NULL;
    }
    if (dtype != TSR_DTYPE_UNDEFINED) {
        tsr_error_set(TSR_ERR_RUNTIME, "norm_sparse currently does not support 'dtype' argument");
        return NULL;
    }
    /* self.coalesce()._values().norm(p) */
    tsr_tensor *c = tsr_sparse_coalesce(x);
    if (!c) return NULL;
    tsr_dims all = {.n = -1};
    /* 1.13's norm kernel gives 0 for no values whatever p (at::linalg_vector_norm would refuse p < 0, inf) */
    tsr_tensor *r = tsr_norm(c->sparse->values, tsr_sparse_nnz(c) ? p : 2, &all, false, TSR_DTYPE_UNDEFINED, NULL);
    tsr_tensor_release(c);
    return r;
}

tsr_tensor *tsr_sparse_frobenius_norm(const tsr_tensor *x, const tsr_dims *dims, bool keepdim, tsr_tensor *out)
{
    if (dims->n < 2) {   /* at::norm(self, 2, dim, keepdim), copied into out */
        tsr_tensor *r = tsr_sparse_norm(x, 2, dims, keepdim, TSR_DTYPE_UNDEFINED, NULL);
        return r && out ? tsr_out_assign(r, out, false) : r;
    }
    /* sqrt(sum(self * self, dim)): the product is sparse, sum.dim_IntList has no sparse kernel */
    if (tsr_device_is_meta(x->device))
        return no_sparse_kernel(x, "aten::mul.Tensor", "CPU, CUDA, HIP, MPS, IPU, XPU, HPU, VE, Meta, PrivateUse1, "
                                "PrivateUse2, PrivateUse3, FPGA, ORT, Vulkan, Metal, QuantizedCPU, QuantizedCUDA, "
                                "QuantizedHIP, QuantizedMPS, QuantizedIPU, QuantizedXPU, QuantizedHPU, QuantizedVE, "
                                "QuantizedMeta, QuantizedPrivateUse1, QuantizedPrivateUse2, QuantizedPrivateUse3, "
                                "CustomRNGKeyId, MkldnnCPU, SparseCPU, SparseCsrCPU, SparseCsrCUDA, NestedTensorCPU");
    return no_sparse_kernel(x, "aten::sum.dim_IntList", ALL_DENSE ", NestedTensorCPU");
}

/* ------------------------------------------------------------ cat */

tsr_tensor *tsr_sparse_cat(int n, const tsr_tensor *const *ts, int64_t dim, tsr_tensor *out)
{
    const tsr_tensor *any = NULL;
    for (int i = 0; i < n; i++)
        if (ts[i]->sparse && (!any || tsr_device_is_meta(ts[i]->device))) any = ts[i];
    if (out) return no_sparse_kernel(any, "aten::cat.out", "CPU, Meta, QuantizedCPU");
    if (tsr_device_is_meta(any->device))
        return no_sparse_kernel(any, "aten::cat", "CPU, CUDA, HIP, MPS, IPU, XPU, HPU, VE, Meta, PrivateUse1, PrivateUse2, "
                                "PrivateUse3, FPGA, ORT, Vulkan, Metal, QuantizedCPU, QuantizedCUDA, QuantizedHIP, "
                                "QuantizedMPS, QuantizedIPU, QuantizedXPU, QuantizedHPU, QuantizedVE, QuantizedMeta, "
                                "QuantizedPrivateUse1, QuantizedPrivateUse2, QuantizedPrivateUse3, CustomRNGKeyId, "
                                "MkldnnCPU, SparseCPU, SparseCsrCPU, SparseCsrCUDA");
    const tsr_tensor *t0 = ts[0];
    int d = tsr_wrap_dim(dim, t0->ndim);
    if (d < 0) return NULL;
    if (!t0->sparse) {   /* tensors[0].sparse_dim() */
        tsr_error_no_kernel("aten::sparse_dim", "CPU", "SparseCPU, SparseMeta, SparseCsrCPU");
        return NULL;
    }
    int sd = t0->sparse->sparse_dim, dd = t0->sparse->dense_dim;
    char b0[512], b1[512];
    for (int i = 0; i < n; i++) {   /* check_cat_sparse_dims */
        const tsr_tensor *t = ts[i];
        if (!t->sparse) {
            tsr_error_set(TSR_ERR_RUNTIME, "Concatenating sparse tensors, but a dense tensor was found at position %d.", i);
            return NULL;
        }
        bool same = t->ndim == t0->ndim;
        for (int k = 0; same && k < t0->ndim; k++) same = k == d || t->sizes[k] == t0->sizes[k];
        if (!same) {
            tsr_error_set(TSR_ERR_RUNTIME, "All tensors must have the same shape: %s (except in the concatenating "
                          "dimension), but found shape: %s at position %d.", fmt_sizes(b0, sizeof b0, t0),
                          fmt_sizes(b1, sizeof b1, t), i);
            return NULL;
        }
        if (t->sparse->sparse_dim != sd || t->sparse->dense_dim != dd) {
            tsr_error_set(TSR_ERR_RUNTIME, "All tensors must have the same sparse_dim and dense_dim: %d, %d, but tensor "
                          "at position %d has %d, %d.", sd, dd, i, t->sparse->sparse_dim, t->sparse->dense_dim);
            return NULL;
        }
    }
    tsr_tensor **ip = tsr_calloc((size_t)n, sizeof *ip), **vp = ip ? tsr_calloc((size_t)n, sizeof *vp) : NULL;
    tsr_tensor *ni = NULL, *nv = NULL, *r = NULL;
    int made = 0;
    if (!vp) goto done;
    int64_t total = 0;
    for (int i = 0; i < n; i++) total += ts[i]->sizes[d];
    int64_t offset = 0;
    for (int i = 0; i < n; i++, made++) {
        const tsr_tensor *t = ts[i];
        const tsr_tensor *v = t->sparse->values;
        if (d < sd) {   /* a sparse dim: the indices of row d shifted by the sizes before */
            if (!(ip[i] = tsr_clone(t->sparse->indices, TSR_MF_CONTIGUOUS))) goto done;
            int64_t nnz = tsr_sparse_nnz(t), *p = tsr_tensor_ptr(ip[i], NULL);
            for (int64_t k = 0; k < nnz; k++) p[d * nnz + k] += offset;
            vp[i] = tsr_tensor_retain((tsr_tensor *)v);
        } else {   /* a dense dim: values padded with zeros on either side */
            int vd = d - sd + 1;
            int64_t zs[TSR_MAX_DIMS];
            for (int k = 0; k < v->ndim; k++) zs[k] = v->sizes[k];
            zs[vd] = offset;
            tsr_tensor *z1 = tsr_zeros(v->ndim, zs, v->dtype, v->device), *z2 = NULL;
            zs[vd] = total - offset - v->sizes[vd];
            if (z1) z2 = tsr_zeros(v->ndim, zs, v->dtype, v->device);
            if (z2) {
                const tsr_tensor *parts[3] = {z1, v, z2};
                vp[i] = tsr_cat(3, parts, vd, NULL);
            }
            tsr_tensor_release(z1);
            tsr_tensor_release(z2);
            if (!vp[i]) goto done;
            ip[i] = tsr_tensor_retain(t->sparse->indices);
        }
        offset += t->sizes[d];
    }
    if (!(ni = tsr_cat(n, (const tsr_tensor *const *)ip, 1, NULL))) goto done;
    if (!(nv = tsr_cat(n, (const tsr_tensor *const *)vp, 0, NULL))) goto done;
    int64_t sz[TSR_MAX_DIMS];
    for (int k = 0; k < t0->ndim; k++) sz[k] = t0->sizes[k];
    sz[d] = total;
    r = tsr_sparse_wrap(t0->ndim, sz, ni, nv, nv->sizes[0] < 2);
    ni = nv = NULL;
done:
    for (int i = 0; i < made && ip && vp; i++) {
        tsr_tensor_release(ip[i]);
        tsr_tensor_release(vp[i]);
    }
    if (ip && vp && made < n) {   /* the pieces of the one that failed */
        tsr_tensor_release(ip[made]);
        tsr_tensor_release(vp[made]);
    }
    tsr_free(ip);
    tsr_free(vp);
    tsr_tensor_release(ni);
    tsr_tensor_release(nv);
    return r;
}

/* ------------------------------------------------------------ zeros_like */

tsr_tensor *tsr_sparse_empty_like(const tsr_tensor *t, tsr_dtype dtype, tsr_device device)
{
    int sd = t->sparse->sparse_dim, dd = t->sparse->dense_dim;
    int64_t isz[2] = {sd, 0}, vsz[TSR_MAX_DIMS + 1] = {0};
    for (int k = 0; k < dd; k++) vsz[1 + k] = t->sizes[sd + k];
    tsr_tensor *ind = tsr_tensor_empty(2, isz, TSR_INT64, device);
    tsr_tensor *val = ind ? tsr_tensor_empty(1 + dd, vsz, dtype, device) : NULL;
    if (!val) {
        tsr_tensor_release(ind);
        return NULL;
    }
    return tsr_sparse_wrap(t->ndim, t->sizes, ind, val, true);
}

/* ------------------------------------------------------------ sparse_mask */

tsr_tensor *tsr_sparse_mask(const tsr_tensor *d, const tsr_tensor *mask)
{
    if (need_sparse(mask, "sparse_mask") < 0) return NULL;
    if (d->ndim != mask->ndim || memcmp(d->sizes, mask->sizes, sizeof(int64_t) * (size_t)d->ndim)) {
        tsr_error_set(TSR_ERR_RUNTIME, "sparse_mask(): operands have incompatible sizes; self has size %s but mask "
                      "has size %s", "?", "?");
        return NULL;
    }
    tsr_tensor *m = tsr_sparse_coalesce(mask);
    if (!m) return NULL;
    int sd = m->sparse->sparse_dim;
    int64_t nnz = tsr_sparse_nnz(m);
    tsr_tensor *ind = indices_contig(m), *dc = ind ? tsr_contiguous(d, TSR_MF_CONTIGUOUS) : NULL, *nv = NULL, *r = NULL;
    if (!dc) goto done;
    int64_t vsz[TSR_MAX_DIMS + 1], block = 1;
    vsz[0] = nnz;
    for (int k = sd; k < d->ndim; k++) {
        vsz[1 + k - sd] = d->sizes[k];
        block *= d->sizes[k];
    }
    if (!(nv = tsr_tensor_empty(1 + d->ndim - sd, vsz, d->dtype, d->device))) goto done;
    const int64_t *p = tsr_tensor_ptr(ind, NULL);
    const char *src = tsr_tensor_ptr(dc, NULL);
    char *dst = tsr_tensor_ptr(nv, NULL);
    size_t isz = (size_t)tsr_dtype_itemsize(d->dtype);
    for (int64_t j = 0; j < nnz; j++) {   /* the dense rows at the mask's indices */
        int64_t off = 0;
        for (int k = 0; k < sd; k++) off = off * d->sizes[k] + p[k * nnz + j];
        memcpy(dst + (size_t)(j * block) * isz, src + (size_t)(off * block) * isz, (size_t)block * isz);
    }
    r = tsr_sparse_wrap(d->ndim, d->sizes, tsr_tensor_retain(m->sparse->indices), nv, nnz < 2);
    nv = NULL;
done:
    tsr_tensor_release(m);
    tsr_tensor_release(ind);
    tsr_tensor_release(dc);
    tsr_tensor_release(nv);
    return r;
}

/* ------------------------------------------------------------ permute */

tsr_tensor *tsr_sparse_permute(const tsr_tensor *t, int n, const int64_t *dims)
{
    if (need_sparse(t, "permute") < 0) return NULL;
    if (n != t->ndim) {
        tsr_error_set(TSR_ERR_RUNTIME, "permute(sparse_coo): number of dimensions in the tensor input does not match "
                      "the length of the desired ordering of dimensions i.e. input.dim() = %d is not equal to len(dims) "
                      "= %d", t->ndim, n);
        return NULL;
    }
    int64_t w[TSR_MAX_DIMS];
    bool seen[TSR_MAX_DIMS] = {false};
    for (int k = 0; k < n; k++) {
        int d = tsr_wrap_dim(dims[k], t->ndim);
        if (d < 0) return NULL;
        if (seen[d]) {
            tsr_error_set(TSR_ERR_RUNTIME, "permute(): duplicate dims are not allowed.");
            return NULL;
        }
        seen[d] = true;
        w[k] = d;
    }
    if (tsr_device_is_meta(t->device)) return no_sparse_kernel(t, "aten::as_strided", "CPU, Meta, QuantizedCPU");
    int sd = t->sparse->sparse_dim;
    bool identity = true;
    for (int k = 0; k < n; k++) {
        if ((k < sd) != (w[k] < sd)) {
            tsr_error_set(TSR_ERR_RUNTIME, "permute(sparse_coo): transpositions between sparse and dense dimensions are "
                          "not allowed.Only transpositions within sparse and dense dimensions are supported.");
            return NULL;
        }
        if (k < sd && w[k] != k) identity = false;
    }
    int64_t sz[TSR_MAX_DIMS], vp[TSR_MAX_DIMS + 1], nk = sd;
    for (int k = 0; k < n; k++) sz[k] = t->sizes[w[k]];
    vp[0] = 0;
    for (int k = sd; k < n; k++) vp[1 + k - sd] = w[k] - sd + 1;
    tsr_tensor *kt = tsr_tensor_empty(1, &nk, TSR_INT64, TSR_CPU), *ni = NULL, *nv = NULL;
    if (kt) memcpy(tsr_tensor_ptr(kt, NULL), w, (size_t)sd * sizeof *w);
    if (kt) ni = tsr_index_select(t->sparse->indices, 0, kt);
    tsr_tensor_release(kt);
    if (ni) nv = tsr_view_permute(t->sparse->values, 1 + n - sd, vp);
    if (!nv) {
        tsr_tensor_release(ni);
        return NULL;
    }
    return tsr_sparse_wrap(n, sz, ni, nv, (identity && t->sparse->coalesced) || nv->sizes[0] < 2);
}

int tsr_sparse_unbind(const tsr_tensor *t, int64_t dim, tsr_tensor ***parts)
{
    int d = tsr_wrap_dim(dim, t->ndim);
    if (d < 0) return -1;
    int64_t m = t->sizes[d];
    tsr_tensor **p = tsr_calloc((size_t)(m > 0 ? m : 1), sizeof *p);
    if (!p) return -1;
    for (int64_t i = 0; i < m; i++)
        if (!(p[i] = tsr_sparse_select(t, d, i))) {
            while (i-- > 0) tsr_tensor_release(p[i]);
            free(p);
            return -1;
        }
    *parts = p;
    return (int)m;
}

/* ------------------------------------------------------------ sparse @ sparse */

/* Row i of a (entries [a0, a1) of the coalesced a) times b (row starts brow)
 * into acc / mark; the touched columns in cols (unsorted). T: the value type. */
#define SPMM_ROW(T)                                                                                    \
    do {                                                                                               \
        const T *av = (const T *)avp, *bv = (const T *)bvp;                                            \
        T *acc = (T *)accp;                                                                            \
        for (int64_t e = a0; e < a1; e++) {                                                            \
            int64_t k = ap[annz + e];                                                                  \
            for (int64_t f = brow[k]; f < brow[k + 1]; f++) {                                          \
                int64_t j = bp[bnnz + f];                                                              \
                if (!mark[j]) {                                                                        \
                    mark[j] = 1;                                                                       \
                    acc[j] = 0;                                                                        \
                    cols[ncols++] = j;                                                                 \
                }                                                                                      \
                acc[j] += av[e] * bv[f];                                                               \
            }                                                                                          \
        }                                                                                              \
    } while (0)

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

tsr_tensor *tsr_sparse_mm_sparse(const tsr_tensor *a, const tsr_tensor *b)
{
    char x[64], y[64];
    if (a->ndim != 2 || b->ndim != 2 || a->sparse->dense_dim || b->sparse->dense_dim) {
        tsr_error_set(TSR_ERR_RUNTIME, "sparse_sparse_matmul_cpu: scalar values expected, got %dD values",
                      a->sparse->dense_dim ? a->sparse->dense_dim : b->sparse->dense_dim);
        return NULL;
    }
    if (a->sizes[1] != b->sizes[0]) {
        tsr_error_set(TSR_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                      (long long)a->sizes[0], (long long)a->sizes[1], (long long)b->sizes[0], (long long)b->sizes[1]);
        return NULL;
    }
    if (a->dtype != b->dtype) {
        snprintf(x, sizeof x, "%s", tsr_dtype_scalar_name(a->dtype));
        snprintf(y, sizeof y, "%s", tsr_dtype_scalar_name(b->dtype));
        tsr_error_set(TSR_ERR_RUNTIME, "mat1 dtype %s does not match mat2 dtype %s", x, y);
        return NULL;
    }
    tsr_dtype dt = a->dtype;
    if (dt != TSR_FLOAT32 && dt != TSR_FLOAT64 && dt != TSR_COMPLEX64 && dt != TSR_COMPLEX128) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"sparse_matmul\" not implemented for '%s'", tsr_dtype_scalar_name(dt));
        return NULL;
    }
    if (tsr_device_is_meta(a->device) || tsr_device_is_meta(b->device)) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
        return NULL;
    }
    int64_t n = a->sizes[0], p = b->sizes[1], isz = tsr_dtype_itemsize(dt);
    tsr_tensor *ca = tsr_sparse_coalesce(a), *cb = ca ? tsr_sparse_coalesce(b) : NULL;
    tsr_tensor *ai = NULL, *bi = NULL, *av = NULL, *bvt = NULL, *ni = NULL, *nv = NULL, *r = NULL;
    int64_t *brow = NULL, *cols = NULL, *oi = NULL;
    char *mark = NULL, *accp = NULL, *ov = NULL;
    if (!cb || !(ai = indices_contig(ca)) || !(bi = indices_contig(cb))) goto done;
    if (!(av = tsr_contiguous(ca->sparse->values, TSR_MF_CONTIGUOUS)) ||
        !(bvt = tsr_contiguous(cb->sparse->values, TSR_MF_CONTIGUOUS)))
        goto done;
    int64_t annz = tsr_sparse_nnz(ca), bnnz = tsr_sparse_nnz(cb);
    const int64_t *ap = tsr_tensor_ptr(ai, NULL), *bp = tsr_tensor_ptr(bi, NULL);
    const char *avp = tsr_tensor_ptr(av, NULL), *bvp = tsr_tensor_ptr(bvt, NULL);
    brow = tsr_calloc((size_t)b->sizes[0] + 1, sizeof *brow);
    cols = tsr_calloc((size_t)(p ? p : 1), sizeof *cols);
    mark = tsr_calloc((size_t)(p ? p : 1), 1);
    accp = tsr_calloc((size_t)(p ? p : 1), (size_t)isz);
    if (!brow || !cols || !mark || !accp) goto done;
    for (int64_t f = 0; f < bnnz; f++) brow[bp[f] + 1]++;
    for (int64_t k = 0; k < b->sizes[0]; k++) brow[k + 1] += brow[k];
    /* two passes: count, then fill */
    int64_t cap = 0, out = 0;
    for (int pass = 0; pass < 2; pass++) {
        int64_t e = 0;
        out = 0;
        for (int64_t i = 0; i < n && e <= annz; i++) {
            if ((i & 255) == 0 && tsr_check_interrupt() < 0) goto done;
            int64_t a0 = e, ncols = 0;
            while (e < annz && ap[e] == i) e++;
            int64_t a1 = e;
            if (a0 == a1) continue;
            switch (dt) {
            case TSR_FLOAT32: SPMM_ROW(float); break;
            case TSR_FLOAT64: SPMM_ROW(double); break;
            case TSR_COMPLEX64: SPMM_ROW(float complex); break;
            default: SPMM_ROW(double complex); break;
            }
            qsort(cols, (size_t)ncols, sizeof *cols, cmp_i64);
            for (int64_t c = 0; c < ncols; c++) {
                if (pass) {
                    oi[out] = i;
                    oi[cap + out] = cols[c];
                    memcpy(ov + out * isz, accp + cols[c] * isz, (size_t)isz);
                }
                mark[cols[c]] = 0;
                out++;
            }
        }
        if (!pass) {
            cap = out;
            int64_t is2[2] = {2, cap}, vs[1] = {cap};
            if (!(ni = tsr_tensor_empty(2, is2, TSR_INT64, a->device)) || !(nv = tsr_tensor_empty(1, vs, dt, a->device)))
                goto done;
            oi = tsr_tensor_ptr(ni, NULL);
            ov = tsr_tensor_ptr(nv, NULL);
        }
    }
    int64_t sz[2] = {n, p};
    r = tsr_sparse_wrap(2, sz, ni, nv, true);
    ni = nv = NULL;
done:
    tsr_free(brow);
    tsr_free(cols);
    tsr_free(mark);
    tsr_free(accp);
    tsr_tensor_release(ca);
    tsr_tensor_release(cb);
    tsr_tensor_release(ai);
    tsr_tensor_release(bi);
    tsr_tensor_release(av);
    tsr_tensor_release(bvt);
    tsr_tensor_release(ni);
    tsr_tensor_release(nv);
    return r;
}

/* ------------------------------------------------------------ index_select */

tsr_tensor *tsr_sparse_index_select(const tsr_tensor *t, int64_t dim, const tsr_tensor *index)
{
    int d = tsr_wrap_dim(dim, t->ndim);
    if (d < 0) return NULL;
    if (index->sparse || index->ndim != 1 || index->dtype != TSR_INT64) {
        tsr_error_set(TSR_ERR_INDEX, "index_select() argument index must be 1-D strided (non-sparse) long-tensor.");
        return NULL;
    }
    if (tsr_device_is_meta(t->device) || tsr_device_is_meta(index->device)) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
        return NULL;
    }
    int sd = t->sparse->sparse_dim;
    int64_t m = index->sizes[0], size = t->sizes[d], sz[TSR_MAX_DIMS];
    tsr_tensor *ix = tsr_contiguous(index, TSR_MF_CONTIGUOUS);
    if (!ix) return NULL;
    const int64_t *q = tsr_tensor_ptr(ix, NULL);
    for (int64_t p = 0; p < m; p++)
        if (q[p] < 0 || q[p] >= size) {
            char buf[512];
            tsr_error_set(TSR_ERR_INDEX, "index_select(): index contains %lld that is out of range for tensor of size "
                          "%s at dimension %lld", (long long)q[p], fmt_sizes(buf, sizeof buf, t), (long long)dim);
            tsr_tensor_release(ix);
            return NULL;
        }
    for (int k = 0; k < t->ndim; k++) sz[k] = t->sizes[k];
    sz[d] = m;
    tsr_tensor *r = NULL;
    if (d >= sd) {   /* a dense dim: the values' index_select, the indices shared */
        tsr_tensor *nv = tsr_index_select(t->sparse->values, d - sd + 1, ix);
        tsr_tensor_release(ix);
        if (!nv) return NULL;
        return tsr_sparse_wrap(t->ndim, sz, tsr_tensor_retain(t->sparse->indices), nv, nv->sizes[0] < 2);
    }
    /* for each output position in order, the entries with that index in nnz order */
    int64_t nnz = tsr_sparse_nnz(t), out = 0;
    tsr_tensor *ind = indices_contig(t), *pos = NULL, *ni = NULL, *nv = NULL;
    if (!ind) goto done;
    const int64_t *p = tsr_tensor_ptr(ind, NULL);
    for (int64_t a = 0; a < m; a++)
        for (int64_t k = 0; k < nnz; k++) out += p[d * nnz + k] == q[a];
    int64_t isz[2] = {sd, out};
    if (!(pos = tsr_tensor_empty(1, &out, TSR_INT64, TSR_CPU)) || !(ni = tsr_tensor_empty(2, isz, TSR_INT64, t->device)))
        goto done;
    int64_t *pp = tsr_tensor_ptr(pos, NULL), *np = tsr_tensor_ptr(ni, NULL), o = 0;
    for (int64_t a = 0; a < m; a++) {
        if ((a & 1023) == 0 && tsr_check_interrupt() < 0) goto done;
        for (int64_t k = 0; k < nnz; k++)
            if (p[d * nnz + k] == q[a]) {
                pp[o] = k;
                for (int j = 0; j < sd; j++) np[j * out + o] = j == d ? a : p[j * nnz + k];
                o++;
            }
    }
    if (!(nv = tsr_index_select(t->sparse->values, 0, pos))) goto done;
    r = tsr_sparse_wrap(t->ndim, sz, ni, nv, out < 2);
    ni = nv = NULL;
done:
    tsr_tensor_release(ix);
    tsr_tensor_release(ind);
    tsr_tensor_release(pos);
    tsr_tensor_release(ni);
    tsr_tensor_release(nv);
    return r;
}

/* ------------------------------------------------------------ copy_, narrow_copy */

int tsr_sparse_copy_(tsr_tensor *dst, const tsr_tensor *src)
{
    if (dst == src) return 0;
    int sd = src->sparse->sparse_dim, dd = src->sparse->dense_dim;
    char b1[512], b2[512];
    if (tsr_sparse_nnz(dst) > 0) {   /* SparseTensorImpl::resize_'s checks */
        if (sd != dst->sparse->sparse_dim) {
            tsr_error_set(TSR_ERR_RUNTIME, "changing the number of sparse dimensions (from %d to %d) on a non-empty "
                          "sparse tensor is not supported.", dst->sparse->sparse_dim, sd);
            return -1;
        }
        if (dd != dst->sparse->dense_dim) {
            tsr_error_set(TSR_ERR_RUNTIME, "changing the number of dense dimensions (from %d to %d) on a non-empty "
                          "sparse tensor is not supported.", dst->sparse->dense_dim, dd);
            return -1;
        }
        bool shrink_s = false, shrink_d = false;
        for (int d = 0; d < sd; d++) shrink_s |= src->sizes[d] < dst->sizes[d];
        for (int d = sd; d < src->ndim; d++) shrink_d |= src->sizes[d] < dst->sizes[d];
        if (shrink_s) {
            tsr_error_set(TSR_ERR_RUNTIME, "shrinking the size of sparse dimensions (from %s to %s) on a non-empty sparse "
                          "tensor is not supported.", tsr__fmt_list(b1, sizeof b1, sd, dst->sizes),
                          tsr__fmt_list(b2, sizeof b2, sd, src->sizes));
            return -1;
        }
        if (shrink_d) {
            tsr_error_set(TSR_ERR_RUNTIME, "shrinking the size of dense dimensions (from %s to %s) on a non-empty sparse "
                          "tensor is not supported.", tsr__fmt_list(b1, sizeof b1, dd, dst->sizes + sd),
                          tsr__fmt_list(b2, sizeof b2, dd, src->sizes + sd));
            return -1;
        }
    }
    if (src->ndim > dst->dims_cap) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr: copy_ of a sparse tensor into one with room for fewer dimensions");
        return -1;
    }
    const tsr_tensor *sv = src->sparse->values;
    tsr_tensor *ni = tsr_clone(src->sparse->indices, TSR_MF_CONTIGUOUS);
    tsr_tensor *nv = ni ? tsr_tensor_empty(sv->ndim, sv->sizes, dst->dtype, dst->device) : NULL;
    if (!nv || tsr_copy_(nv, sv) < 0) {
        tsr_tensor_release(ni);
        tsr_tensor_release(nv);
        return -1;
    }
    tsr_tensor_release(dst->sparse->indices);
    tsr_tensor_release(dst->sparse->values);
    dst->sparse->indices = ni;
    dst->sparse->values = nv;
    dst->sparse->sparse_dim = sd;
    dst->sparse->dense_dim = dd;
    dst->sparse->coalesced = src->sparse->coalesced;
    dst->ndim = src->ndim;
    dst->sizes = dst->dims;
    dst->strides = dst->dims + src->ndim;
    for (int d = 0; d < src->ndim; d++) {
        dst->sizes[d] = src->sizes[d];
        dst->strides[d] = d == 0;
    }
    return 0;
}

tsr_tensor *tsr_sparse_narrow_copy(const tsr_tensor *t, int64_t dim, int64_t start, int64_t length)
{
    if (dim < 0 || dim >= t->ndim) {
        tsr_error_set(TSR_ERR_RUNTIME, "Dimension %lld out of range. Expecting 0 <= dim < %d.", (long long)dim, t->ndim);
        return NULL;
    }
    int d = (int)dim, sd = t->sparse->sparse_dim;
    int64_t size = t->sizes[d], sz[TSR_MAX_DIMS];
    if (start < 0 || length < 0 || start > size || length > size - start) {
        tsr_error_set(TSR_ERR_RUNTIME, "Invalid range to narrow. range(start, start+length) must be a subset of "
                      "range(0, %lld).", (long long)size);
        return NULL;
    }
    for (int k = 0; k < t->ndim; k++) sz[k] = t->sizes[k];
    sz[d] = length;
    bool co = t->sparse->coalesced;
    if (d >= sd) {   /* a dense dim: the values' narrow_copy, the indices copied */
        tsr_tensor *nv = tsr_narrow_copy(t->sparse->values, d - sd + 1, start, length);
        tsr_tensor *ni = nv ? tsr_clone(t->sparse->indices, TSR_MF_CONTIGUOUS) : NULL;
        if (!ni) {
            tsr_tensor_release(nv);
            return NULL;
        }
        return tsr_sparse_wrap(t->ndim, sz, ni, nv, co);
    }
    /* a sparse dim: the entries whose index lies in [start, start + length), in nnz order, shifted */
    int64_t nnz = tsr_sparse_nnz(t), out = 0;
    tsr_tensor *r = NULL, *ind = indices_contig(t), *pos = NULL, *ni = NULL, *nv = NULL;
    if (!ind) goto done;
    const int64_t *p = tsr_tensor_ptr(ind, NULL);
    for (int64_t k = 0; k < nnz; k++) out += p[d * nnz + k] >= start && p[d * nnz + k] < start + length;
    int64_t isz[2] = {sd, out};
    if (!(pos = tsr_tensor_empty(1, &out, TSR_INT64, TSR_CPU)) || !(ni = tsr_tensor_empty(2, isz, TSR_INT64, t->device)))
        goto done;
    int64_t *pp = tsr_tensor_ptr(pos, NULL), *np = tsr_tensor_ptr(ni, NULL), o = 0;
    for (int64_t k = 0; k < nnz; k++) {
        if ((k & 65535) == 0 && tsr_check_interrupt() < 0) goto done;
        if (p[d * nnz + k] < start || p[d * nnz + k] >= start + length) continue;
        pp[o] = k;
        for (int j = 0; j < sd; j++) np[j * out + o] = p[j * nnz + k] - (j == d ? start : 0);
        o++;
    }
    if (!(nv = tsr_index_select(t->sparse->values, 0, pos))) goto done;
    r = tsr_sparse_wrap(t->ndim, sz, ni, nv, co);
    ni = nv = NULL;
done:
    tsr_tensor_release(ind);
    tsr_tensor_release(pos);
    tsr_tensor_release(ni);
    tsr_tensor_release(nv);
    return r;
}

/* ------------------------------------------------------------ autograd helpers */

tsr_tensor *tsr_sparse_values_at(const tsr_tensor *g, const tsr_tensor *indices, const int64_t *sizes)
{
    int sd = (int)indices->sizes[0];
    int64_t nnz = indices->sizes[1], vsz[TSR_MAX_DIMS];
    tsr_tensor *d = tsr_is_sparse(g) ? tsr_sparse_to_dense(g) : tsr_contiguous(g, TSR_MF_CONTIGUOUS);
    tsr_tensor *ind = d ? tsr_contiguous(indices, TSR_MF_CONTIGUOUS) : NULL, *r = NULL;
    if (!ind) goto done;
    vsz[0] = nnz;
    for (int k = sd; k < d->ndim; k++) vsz[k - sd + 1] = d->sizes[k];
    if (!(r = tsr_tensor_empty(d->ndim - sd + 1, vsz, d->dtype, d->device))) goto done;
    {
        const int64_t *p = tsr_tensor_ptr(ind, NULL);
        int64_t block = 1, isz = tsr_tensor_itemsize(d);
        for (int k = sd; k < d->ndim; k++) block *= d->sizes[k];
        const char *dp = tsr_tensor_ptr(d, NULL);
        char *rp = tsr_tensor_ptr(r, NULL);
        for (int64_t k = 0; k < nnz && dp && block; k++) {
            int64_t off = 0;
            for (int e = 0; e < sd; e++) off = off * sizes[e] + p[e * nnz + k];
            memcpy(rp + k * block * isz, dp + off * block * isz, (size_t)(block * isz));
        }
    }
done:
    tsr_tensor_release(d);
    tsr_tensor_release(ind);
    return r;
}

tsr_tensor *tsr_sparse_sum_backward(const tsr_tensor *g, const tsr_tensor *input, const tsr_dims *dims)
{
    bool sum[TSR_MAX_DIMS] = {false};
    for (int i = 0; i < dims->n; i++) {
        int d = tsr_wrap_dim(dims->d[i], input->ndim);
        if (d < 0) return NULL;
        sum[d] = true;
    }
    tsr_tensor *c = tsr_sparse_coalesce(input), *gd = NULL, *cur = NULL, *r = NULL, *v = NULL, *e = NULL;
    if (!c) return NULL;
    gd = tsr_is_sparse(g) ? tsr_sparse_to_dense(g) : tsr_tensor_retain((tsr_tensor *)g);
    if (!gd) goto done;
    /* the gradient of the kept dims, unsqueezed at the summed ones and expanded to the input's sizes */
    cur = tsr_tensor_retain(gd);
    for (int d = 0; d < input->ndim && cur; d++)
        if (sum[d]) {
            tsr_tensor *u = tsr_view_unsqueeze(cur, d);
            tsr_tensor_release(cur);
            cur = u;
        }
    if (!cur || !(e = tsr_view_expand(cur, input->ndim, input->sizes))) goto done;
    if (!(v = tsr_sparse_values_at(e, c->sparse->indices, input->sizes))) goto done;
    tsr_tensor *ni = tsr_clone(c->sparse->indices, TSR_MF_CONTIGUOUS);
    if (!ni) goto done;
    r = tsr_sparse_wrap(input->ndim, input->sizes, ni, v, false);
    v = NULL;
done:
    tsr_tensor_release(c);
    tsr_tensor_release(gd);
    tsr_tensor_release(cur);
    tsr_tensor_release(e);
    tsr_tensor_release(v);
    return r;
}
