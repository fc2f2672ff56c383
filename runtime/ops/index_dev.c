/* runtime/ops/index_dev.c — the indexing ops on a device the host cannot
 * read: the walk the CPU kernels run (walk.h) becomes one launch record of
 * the backend's index family (runtime/kernels.h), coalesced as the
 * elementwise engine's are; tril/triu and nonzero get their own records
 * over the tensor's dims. Index bounds are checked on the device before
 * anything is written and reported with the CPU kernels' messages (a GPU
 * running PyTorch raises a device-side assert instead). */
#include <stdlib.h>
#include <string.h>
#include "../error.h"
#include "../internal.h"
#include "../view.h"
#include "copy.h"
#include "index_dev.h"

bool tsr__dev_external(const tsr_tensor *t)
{
    return t->device.type != TSR_DEV_CPU && t->device.type != TSR_DEV_META;
}

int tsr__dev_same_device(const tsr_tensor *first, int n, const tsr_tensor *const *others)
{
    for (int i = 0; i < n; i++)
        if (others[i] && !tsr_device_equal(first->device, others[i]->device)) {
            char a[32], b[32];
            tsr_error_set(TSR_ERR_RUNTIME, "Expected all tensors to be on the same device, but found at least two "
                          "devices, %s and %s!", tsr_device_str(first->device, a, sizeof a),
                          tsr_device_str(others[i]->device, b, sizeof b));
            return -1;
        }
    return 0;
}

/* The backend of dev when it has op for dt, else NULL with the
 * dispatcher's error for aten. */
static const tsr_backend *backend_for(tsr_device dev, const char *aten, tsr_kindex_op op, tsr_dtype dt)
{
    const tsr_backend *be = tsr_device_backend(dev);
    if (!be) return NULL;
    if (!be->index || !be->has_index || !be->has_index((int)op, (int)dt)) {
        tsr_error_no_kernel(aten, tsr_device_backend_name(dev.type), "CPU, Meta");
        return NULL;
    }
    return be;
}

static tsr_kindex *record(tsr_kindex_op op, tsr_dtype dt)
{
    tsr_kindex *K = calloc(1, sizeof *K);
    if (!K) {
        tsr_error_set(TSR_ERR_MEMORY, "out of memory");
        return NULL;
    }
    K->op = (int32_t)op;
    K->dtype = K->compute = (int32_t)dt;
    return K;
}

static int too_many_dims(tsr_kindex *K, tsr_device dev)
{
    free(K);
    tsr_error_set(TSR_ERR_RUNTIME, "tsr: an indexing launch on %s over more than %d dimensions that do not coalesce",
                  tsr_device_type_name(dev.type), TSR_K_MAXDIMS);
    return -1;
}

int tsr__dev_index_walk(tsr_device dev, const char *aten, tsr_kindex_op op, tsr_dtype dt, const walk *w, int o0,
                        int o1, int nidx, const int *oi, const int64_t *size, const int64_t *step, bool negative,
                        const unsigned char *value, tsr_scalar alpha, int64_t *bad)
{
    const tsr_backend *be = backend_for(dev, aten, op, dt);
    if (!be) return -1;
    if (nidx > TSR_KI_MAXIDX) {
        tsr_error_no_kernel(aten, tsr_device_backend_name(dev.type), "CPU, Meta");
        return -1;
    }
    tsr_kindex *K = record(op, dt);
    if (!K) return -1;
    int map[2 + TSR_KI_MAXIDX], nops = 2 + nidx;
    map[0] = o0;
    map[1] = o1;
    for (int k = 0; k < nidx; k++) {
        map[2 + k] = oi[k];
        K->size[k] = size[k];
        K->step[k] = step[k];
    }
    for (int k = 0; k < nops; k++) K->data[k] = map[k] >= 0 ? w->base[map[k]] : NULL;
    K->nidx = nidx;
    K->negative = negative;
    if (value) memcpy(K->value, value, (size_t)tsr_dtype_itemsize(dt));
    if (tsr_dtype_is_complex(dt) && alpha.kind == TSR_SCALAR_COMPLEX && alpha.im != 0) {
        free(K);   /* the parts are added apart: a real alpha only */
        tsr_error_no_kernel(aten, tsr_device_backend_name(dev.type), "CPU, Meta");
        return -1;
    }
    if (tsr_dtype_is_floating(dt) || tsr_dtype_is_complex(dt)) K->alpha_d = tsr_scalar_to_double(alpha);
    else K->alpha_i = tsr_scalar_to_int64(alpha);
    K->numel = 1;
    int nd = 0;
    for (int d = w->nd - 1; d >= 0; d--) {   /* fastest first */
        int64_t n = w->sizes[d];
        K->numel *= n;
        if (n == 1) continue;
        bool merge = nd > 0;
        for (int k = 0; merge && k < nops; k++)
            merge = map[k] < 0 || K->stride[k][nd - 1] * K->shape[nd - 1] == w->st[map[k]][d];
        if (merge) {
            K->shape[nd - 1] *= n;
            continue;
        }
        if (nd == TSR_K_MAXDIMS) return too_many_dims(K, dev);
        K->shape[nd] = n;
        for (int k = 0; k < nops; k++) K->stride[k][nd] = map[k] >= 0 ? w->st[map[k]][d] : 0;
        nd++;
    }
    K->nd = nd;
    int rc = K->numel ? be->index(K, dev.index, bad) : 0;
    free(K);
    return rc;
}

int tsr__dev_index_dim(tsr_kindex_op op, const char *aten, tsr_tensor *dst, const tsr_tensor *src, int d,
                       const tsr_tensor *index, const unsigned char *value, tsr_scalar alpha, bool negative,
                       int64_t *bad)
{
    const tsr_tensor *others[2] = {src, index};
    if (tsr__dev_same_device(dst, 2, others) < 0) return -1;
    const tsr_tensor *indexed = op == TSR_KI_GATHER ? src : dst;
    int nd = indexed->ndim ? indexed->ndim : 1, item = tsr_dtype_itemsize(indexed->dtype);
    walk w = {.nd = nd, .nop = 3};
    for (int i = 0; i < nd; i++) w.sizes[i] = i == d ? tsr_tensor_numel(index) : indexed->ndim ? indexed->sizes[i] : 1;
    tsr_tensor *ix = index->dtype == TSR_INT64 ? tsr_tensor_retain((tsr_tensor *)index)
                                               : tsr_to_dtype(index, TSR_INT64, false);
    tsr_tensor *other = NULL;
    int rc = -1;
    if (!ix) return -1;
    /* the tensor that is not indexed, seen over w's shape */
    const tsr_tensor *plain = op == TSR_KI_GATHER ? dst : src;
    if (plain) {
        other = tsr_view_expand(plain, nd, w.sizes);
        if (!other) goto done;
    }
    int io = op == TSR_KI_GATHER ? 1 : 0, po = 1 - io;
    w.base[io] = tsr_tensor_ptr(indexed, NULL);
    w.base[2] = tsr_tensor_ptr(ix, NULL);
    if (other) w.base[po] = tsr_tensor_ptr(other, NULL);
    for (int i = 0; i < nd; i++) {
        w.st[io][i] = i == d || !indexed->ndim ? 0 : indexed->strides[i] * item;
        w.st[po][i] = other ? other->strides[i] * item : 0;
        w.st[2][i] = i == d && ix->ndim ? ix->strides[0] * 8 : 0;
    }
    int oi[1] = {2};
    int64_t size[1] = {indexed->ndim ? indexed->sizes[d] : 1};
    int64_t step[1] = {indexed->ndim ? indexed->strides[d] * item : 0};
    rc = tsr__dev_index_walk(dst->device, aten, op, indexed->dtype, &w, 0, other ? 1 : -1, 1, oi, size, step, negative,
                             value, alpha, bad);
done:
    tsr_tensor_release(ix);
    tsr_tensor_release(other);
    return rc;
}

/* A record over t's own dims (fastest first), t as operand k. */
static int own_dims(tsr_kindex *K, const tsr_tensor *t, int k)
{
    if (t->ndim > TSR_K_MAXDIMS) return too_many_dims(K, t->device);
    K->nd = t->ndim;
    K->numel = tsr_tensor_numel(t);
    K->data[k] = tsr_tensor_ptr(t, NULL);
    for (int d = 0; d < t->ndim; d++) {
        K->shape[d] = t->sizes[t->ndim - 1 - d];
        K->stride[k][d] = t->strides[t->ndim - 1 - d] * tsr_tensor_itemsize(t);
    }
    return 0;
}

int tsr__dev_tri(tsr_tensor *t, int64_t diagonal, bool upper)
{
    tsr_kindex_op op = upper ? TSR_KI_TRIU : TSR_KI_TRIL;
    const tsr_backend *be = backend_for(t->device, upper ? "aten::triu.out" : "aten::tril.out", op, t->dtype);
    if (!be) return -1;
    tsr_kindex *K = record(op, t->dtype);
    if (!K || own_dims(K, t, 0) < 0) return -1;
    K->row_dim = 1;
    K->col_dim = 0;
    K->diag = diagonal;
    int64_t unused[2];
    int rc = K->numel ? be->index(K, t->device.index, unused) : 0;
    free(K);
    return rc;
}

tsr_tensor *tsr__dev_nonzero(const tsr_tensor *c)
{
    const tsr_backend *be = backend_for(c->device, "aten::nonzero", TSR_KI_NONZERO_COUNT, c->dtype);
    if (!be) return NULL;
    tsr_kindex *K = record(TSR_KI_NONZERO_COUNT, c->dtype);
    if (!K || own_dims(K, c, 1) < 0) return NULL;
    int64_t count[2] = {0, 0};
    tsr_tensor *out = NULL;
    if (be->index(K, c->device.index, count) < 0) goto done;
    int64_t sizes[2] = {count[0], c->ndim};
    if (!(out = tsr_tensor_empty(2, sizes, TSR_INT64, c->device))) goto done;
    if (count[0] && c->ndim) {
        K->op = TSR_KI_NONZERO;
        K->data[0] = tsr_tensor_ptr(out, NULL);
        if (be->index(K, c->device.index, count) < 0) {
            tsr_tensor_release(out);
            out = NULL;
        }
    }
done:
    free(K);
    return out;
}

tsr_tensor *tsr__dev_repeat_indices(const tsr_tensor *rep, int64_t output_size)
{
    const tsr_backend *be = backend_for(rep->device, "aten::repeat_interleave.Tensor", TSR_KI_REPEAT, rep->dtype);
    if (!be) return NULL;
    tsr_kindex *K = record(TSR_KI_REPEAT_COUNT, rep->dtype);
    if (!K || own_dims(K, rep, 1) < 0) return NULL;
    int64_t total[2] = {output_size, 0};
    tsr_tensor *out = NULL;
    if (output_size < 0) {
        if (be->index(K, rep->device.index, total) < 0) goto done;
        if (total[0] < 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "repeats can not be negative");
            goto done;
        }
    }
    if (!(out = tsr_tensor_empty(1, total, rep->dtype, rep->device))) goto done;
    if (total[0] > 0) {
        K->op = TSR_KI_REPEAT;
        K->limit = total[0];
        K->data[0] = tsr_tensor_ptr(out, NULL);
        int64_t unused[2];
        if (be->index(K, rep->device.index, unused) < 0) {
            tsr_tensor_release(out);
            out = NULL;
        }
    }
done:
    free(K);
    return out;
}
