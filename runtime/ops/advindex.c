/* runtime/ops/advindex.c — x[...] and x[...] = v: basic items become views,
 * tensors become advanced indices (at::index, index_put_ of PyTorch 1.13's
 * TensorAdvancedIndexing.cpp: make_info, AdvancedIndex, restride_src). The
 * result takes TensorIterator's strides over the restrided source and the
 * indices; bounds are checked per value with the index's position. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "../error.h"
#include "../iter.h"
#include "../view.h"
#include "advindex.h"
#include "../named.h"
#include "binary.h"
#include "copy.h"
#include "factory.h"
#include "index.h"
#include "index_dev.h"
#include "scatter.h"
#include "walk.h"

static void fmt_sizes(char *buf, size_t cap, int nd, const int64_t *s)
{
    size_t k = (size_t)snprintf(buf, cap, "[");
    for (int d = 0; d < nd && k < cap; d++) k += (size_t)snprintf(buf + k, cap - k, "%s%" PRId64, d ? ", " : "", s[d]);
    if (k < cap) snprintf(buf + k, cap - k, "]");
}

/* ------------------------------------------------------------ make_info */

typedef struct {
    tsr_tensor *src;                  /* self, indexed dims moved to the front when apart */
    tsr_tensor *idx[TSR_MAX_DIMS];    /* per dim of src: NULL or int64 of shape repl */
    int before, indexed, after;
    int rnd;
    int64_t repl[TSR_MAX_DIMS];       /* the broadcast shape of the indices */
    int nd;
    int64_t shape[TSR_MAX_DIMS];      /* the indexing result's shape */
} adv;

static void adv_free(adv *a)
{
    tsr_tensor_release(a->src);
    for (int d = 0; d < TSR_MAX_DIMS; d++) tsr_tensor_release(a->idx[d]);
}

static bool is_mask(const tsr_tensor *t) { return t->dtype == TSR_BOOL || t->dtype == TSR_UINT8; }

/* Checks and expands the indices (make_info, expandTensors). 0 or -1. */
static int make_info(adv *a, const tsr_tensor *self, int n, const tsr_tensor *const *in)
{
    memset(a, 0, sizeof *a);
    if (n > self->ndim) {
        tsr_error_set(TSR_ERR_INDEX, "too many indices for tensor of dimension %d (got %d)", self->ndim, n);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (in[i] && in[i]->dtype != TSR_INT64 && !is_mask(in[i])) {
            tsr_error_set(TSR_ERR_INDEX, "tensors used as indices must be long, byte or bool tensors");
            return -1;
        }
    tsr_tensor *list[TSR_MAX_DIMS] = {0};
    int len = 0;
    for (int i = 0; i < n; i++) {
        const tsr_tensor *t = in[i];
        if (!t || !is_mask(t)) {
            list[len++] = t ? tsr_tensor_retain((tsr_tensor *)t) : NULL;
            continue;
        }
        for (int j = 0; j < t->ndim; j++) {
            int src = len + j;
            if (src >= self->ndim) {
                tsr_wrap_dim(src, self->ndim);
                goto fail;
            }
            if (t->sizes[j] != self->sizes[src]) {
                char ms[512], ss[512];
                fmt_sizes(ms, sizeof ms, t->ndim, t->sizes);
                fmt_sizes(ss, sizeof ss, self->ndim, self->sizes);
                tsr_error_set(TSR_ERR_INDEX,
                              "The shape of the mask %s at index %d does not match the shape of the indexed "
                              "tensor %s at index %d", ms, j, ss, src);
                goto fail;
            }
        }
        tsr_tensor *nz = tsr_nonzero(t);
        if (!nz) goto fail;
        for (int j = 0; j < t->ndim; j++) {
            list[len] = tsr_view_select(nz, 1, j);
            if (!list[len++]) { tsr_tensor_release(nz); goto fail; }
        }
        tsr_tensor_release(nz);
    }
    /* check_indices_on_cpu_or_selfdevice, then a device self takes host
     * indices to its device (1.13's make_info moves them) */
    for (int i = 0; i < len; i++)
        if (list[i] && list[i]->device.type != TSR_DEV_CPU && !tsr_device_equal(list[i]->device, self->device)) {
            char dv[32];
            tsr_error_set(TSR_ERR_INDEX, "indices should be either on cpu or on the same device as the indexed tensor "
                          "(%s)", tsr_device_str(self->device, dv, sizeof dv));
            goto fail;
        }
    for (int i = 0; i < len && tsr__dev_external(self); i++)
        if (list[i] && list[i]->device.type == TSR_DEV_CPU) {
            tsr_tensor *m = tsr_to_device(list[i], self->device, TSR_DTYPE_UNDEFINED, false);
            tsr_tensor_release(list[i]);
            list[i] = m;
            if (!m) goto fail;
        }
    /* broadcast the defined ones together */
    int cnt = 0, ndims[TSR_MAX_DIMS];
    const int64_t *sizes[TSR_MAX_DIMS];
    for (int i = 0; i < len; i++)
        if (list[i]) { ndims[cnt] = list[i]->ndim; sizes[cnt++] = list[i]->sizes; }
    a->rnd = tsr_broadcast_shapes(cnt, ndims, sizes, a->repl);
    if (a->rnd < 0) {
        char msg[2048];
        size_t k = 0;
        for (int i = 0; i < len && k < sizeof msg - 600; i++) {
            if (!list[i]) continue;
            if (k) k += (size_t)snprintf(msg + k, sizeof msg - k, ", ");
            fmt_sizes(msg + k, sizeof msg - k, list[i]->ndim, list[i]->sizes);
            k = strlen(msg);
        }
        tsr_error_clear();
        tsr_error_set(TSR_ERR_INDEX, "shape mismatch: indexing tensors could not be broadcast together with shapes %s",
                      msg);
        goto fail;
    }
    for (int i = 0; i < len; i++) {
        if (!list[i]) continue;
        tsr_tensor *e = tsr_view_expand(list[i], a->rnd, a->repl);
        tsr_tensor_release(list[i]);
        list[i] = e;
        if (!e) goto fail;
    }
    /* the indexed dims adjacent, else moved to the front (transposeToFront) */
    int first = -1, last = -1;
    for (int i = 0; i < len; i++)
        if (list[i]) { if (first < 0) first = i; last = i; }
    bool apart = false;
    for (int i = first; i >= 0 && i <= last; i++)
        if (!list[i]) apart = true;
    if (apart) {
        int64_t perm[TSR_MAX_DIMS];
        tsr_tensor *moved[TSR_MAX_DIMS] = {0};
        int k = 0;
        for (int i = 0; i < self->ndim; i++)
            if (i < len && list[i]) { perm[k] = i; moved[k++] = list[i]; }
        for (int i = 0; i < self->ndim; i++)
            if (!(i < len && list[i])) perm[k++] = i;
        a->src = tsr_view_permute(self, self->ndim, perm);
        memcpy(list, moved, sizeof moved);
    } else {
        a->src = tsr_view_alias(self);
    }
    memcpy(a->idx, list, sizeof list);
    if (!a->src) return -1;
    const tsr_tensor *s = a->src;
    bool zero_indexed = false, zero_repl = false;
    for (int d = 0; d < s->ndim; d++) {
        if (!a->idx[d]) { if (a->indexed) a->after++; else a->before++; continue; }
        a->indexed++;
        if (s->sizes[d] == 0) zero_indexed = true;
    }
    for (int d = 0; d < a->rnd; d++)
        if (a->repl[d] == 0) zero_repl = true;
    if (zero_indexed && !zero_repl) {
        tsr_error_set(TSR_ERR_INDEX, "index is out of bounds for dimension with size 0");
        return -1;
    }
    a->nd = a->before + a->rnd + a->after;
    if (a->nd > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "indexing result has too many dimensions");
        return -1;
    }
    for (int d = 0; d < a->before; d++) a->shape[d] = s->sizes[d];
    for (int d = 0; d < a->rnd; d++) a->shape[a->before + d] = a->repl[d];
    for (int d = 0; d < a->after; d++) a->shape[a->before + a->rnd + d] = s->sizes[a->before + a->indexed + d];
    return 0;
fail:
    for (int i = 0; i < len; i++) tsr_tensor_release(list[i]);
    return -1;
}

/* restride_src: the source seen with the result's shape, stride 0 over the
 * replaced dims; the per-value strides go to the kernel. NEW reference. */
static tsr_tensor *restride_src(const adv *a)
{
    const tsr_tensor *s = a->src;
    int64_t st[TSR_MAX_DIMS];
    for (int d = 0; d < a->before; d++) st[d] = s->strides[d];
    for (int d = 0; d < a->rnd; d++) st[a->before + d] = 0;
    for (int d = 0; d < a->after; d++) st[a->before + a->rnd + d] = s->strides[a->before + a->indexed + d];
    return tsr_tensor_alias(s, a->nd, a->shape, st, s->storage_offset);
}

/* reshape_indexer: index k viewed with the result's rank (size 1 outside the
 * replaced dims). NEW reference. */
static tsr_tensor *reshape_indexer(const adv *a, const tsr_tensor *ix)
{
    int64_t sz[TSR_MAX_DIMS], st[TSR_MAX_DIMS];
    for (int d = 0; d < a->nd; d++) { sz[d] = 1; st[d] = 0; }
    for (int d = 0; d < a->rnd; d++) { sz[a->before + d] = ix->sizes[d]; st[a->before + d] = ix->strides[d]; }
    return tsr_tensor_alias(ix, a->nd, sz, st, ix->storage_offset);
}

/* ------------------------------------------------------------ kernels */

typedef struct {
    int nidx;
    int64_t size[TSR_MAX_DIMS], stride[TSR_MAX_DIMS]; /* stride in bytes */
    int item;
    tsr_dtype dt;
    bool put, accumulate;
} kctx;

static inline void copy_item(char *dst, const char *src, int item)
{
    switch (item) {
    case 1: *dst = *src; break;
    case 2: memcpy(dst, src, 2); break;
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    default: memcpy(dst, src, (size_t)item); break;
    }
}

static void add_item(tsr_dtype dt, char *dst, const char *src)
{
    tsr_scalar a = tsr_scalar_load(dt, dst), b = tsr_scalar_load(dt, src);
    switch (a.kind) {
    case TSR_SCALAR_BOOL: a.i = a.i || b.i; break;
    case TSR_SCALAR_INT: a.i = (int64_t)((uint64_t)a.i + (uint64_t)b.i); break;
    case TSR_SCALAR_FLOAT: a.d += b.d; break;
    case TSR_SCALAR_COMPLEX: a.re += b.re; a.im += b.im; break;
    }
    tsr_scalar_store(dt, dst, a);
}

/* p[0]: the result (or self restrided for put), p[1]: the source (or the
 * values), p[2 + k]: index k. */
static int index_row(char **p, const int64_t *inner, int64_t n, int64_t row, void *ctx)
{
    const kctx *c = ctx;
    (void)row;
    for (int64_t i = 0; i < n; i++) {
        int64_t off = 0;
        for (int k = 0; k < c->nidx; k++) {
            int64_t v = *(const int64_t *)(p[2 + k] + i * inner[2 + k]), size = c->size[k];
            if (v < -size || v >= size) {
                tsr_error_set(TSR_ERR_INDEX, "index %" PRId64 " is out of bounds for dimension %d with size %" PRId64,
                              v, k, size);
                return -1;
            }
            off += (v < 0 ? v + size : v) * c->stride[k];
        }
        if (!c->put) copy_item(p[0] + i * inner[0], p[1] + i * inner[1] + off, c->item);
        else if (!c->accumulate) copy_item(p[0] + i * inner[0] + off, p[1] + i * inner[1], c->item);
        else add_item(c->dt, p[0] + i * inner[0] + off, p[1] + i * inner[1]);
    }
    return 0;
}

/* Runs the kernel with operand 0 = dst (nd dims), 1 = src, the reshaped indices. */
static int run_index(const adv *a, tsr_tensor *op0, tsr_tensor *op1, bool put, bool accumulate)
{
    walk w = {.nd = a->nd, .nop = 2, .split = true};
    memcpy(w.sizes, a->shape, sizeof(int64_t) * (size_t)a->nd);
    walk_operand(&w, 0, op0);
    walk_operand(&w, 1, op1);
    kctx c = {.item = tsr_dtype_itemsize(a->src->dtype), .dt = a->src->dtype, .put = put, .accumulate = accumulate};
    int r = 0;
    tsr_tensor *held[TSR_MAX_DIMS];
    for (int d = 0; d < a->src->ndim; d++) {
        if (!a->idx[d]) continue;
        tsr_tensor *ix = reshape_indexer(a, a->idx[d]);
        if (!ix) { r = -1; break; }
        held[c.nidx] = ix;
        walk_operand(&w, 2 + c.nidx, ix);
        c.size[c.nidx] = a->src->sizes[d];
        c.stride[c.nidx] = a->src->strides[d] * c.item;
        c.nidx++;
        w.nop++;
    }
    if (r == 0 && tsr__dev_external(op0)) {
        int oi[TSR_MAX_DIMS];
        int64_t bad[2];
        for (int k = 0; k < c.nidx; k++) oi[k] = 2 + k;
        r = tsr__dev_index_walk(op0->device, put ? "aten::index_put_" : "aten::index.Tensor",
                                !put ? TSR_KI_GATHER : accumulate ? TSR_KI_ADD : TSR_KI_PUT, c.dt, &w, 0, 1, c.nidx, oi,
                                c.size, c.stride, true, NULL, tsr_scalar_int(1), bad);
        if (r == 1) {
            tsr_error_set(TSR_ERR_INDEX, "index %" PRId64 " is out of bounds for dimension %d with size %" PRId64,
                          bad[0], (int)bad[1], c.size[bad[1]]);
            r = -1;
        }
    } else if (r == 0) {
        r = walk_run(&w, index_row, &c);
    }
    for (int k = 0; k < c.nidx; k++) tsr_tensor_release(held[k]);
    return r;
}

/* ------------------------------------------------------------ index / index_put_ */

tsr_tensor *tsr_index(const tsr_tensor *self, int n, const tsr_tensor *const *indices)
{
    adv a;
    tsr_tensor *src = NULL, *out = NULL;
    /* x[mask] with a bool mask of x's whole shape: masked_select's two
     * passes instead of nonzero and a gather (the same 1-d result) */
    if (n == 1 && indices[0] && indices[0]->dtype == TSR_BOOL && self->ndim > 0 && indices[0]->ndim == self->ndim &&
        !memcmp(indices[0]->sizes, self->sizes, sizeof(int64_t) * (size_t)self->ndim) &&
        !tsr_tensor_is_meta(self) && !tsr_tensor_is_meta(indices[0]) && self->device.type == indices[0]->device.type)
        return tsr_masked_select(self, indices[0]);
    if (make_info(&a, self, n, indices) < 0) goto fail;
    src = restride_src(&a);
    if (!src) goto fail;
    tsr_operand ops[TSR_MAX_DIMS + 1];
    tsr_tensor *held[TSR_MAX_DIMS];
    int nops = 0, nheld = 0;
    ops[nops++] = tsr_operand_tensor(src);
    for (int d = 0; d < a.src->ndim; d++) {
        if (!a.idx[d]) continue;
        held[nheld] = reshape_indexer(&a, a.idx[d]);
        if (!held[nheld]) goto fail_held;
        ops[nops++] = tsr_operand_tensor(held[nheld++]);
    }
    int64_t st[TSR_MAX_DIMS];
    tsr_iter_output_strides(nops, ops, a.nd, a.shape, st);
    out = tsr_tensor_empty_strided(a.nd, a.shape, st, self->dtype, self->device);
    if (out && !tsr_tensor_is_meta(self) && run_index(&a, out, src, false, false) < 0) {
        tsr_tensor_release(out);
        out = NULL;
    }
fail_held:
    for (int k = 0; k < nheld; k++) tsr_tensor_release(held[k]);
fail:
    tsr_tensor_release(src);
    adv_free(&a);
    return out;
}

/* canDispatchToMaskedFill: one bool/uint8 index and a one-element value. */
static int put_masked_fill(tsr_tensor *self, int n, const tsr_tensor *const *in, const tsr_tensor *v)
{
    /* (a device self takes the index_put_ path: the same values) */
    if (tsr_tensor_numel(v) != 1 || v->device.type != TSR_DEV_CPU || tsr__dev_external(self)) return 1;
    const tsr_tensor *mask = NULL;
    int num = 0;
    for (int i = 0; i < n; i++) {
        if (!in[i]) { num++; continue; }
        if (!is_mask(in[i]) || in[i]->device.type != self->device.type || mask) return 1;
        mask = in[i];
        for (int j = 0; j < mask->ndim; j++) {
            int src = num + j;
            if (src >= self->ndim) return tsr_wrap_dim(src, self->ndim) < 0 ? -1 : 1;
            if (mask->sizes[j] != self->sizes[src]) {
                char ms[512], ss[512];
                fmt_sizes(ms, sizeof ms, mask->ndim, mask->sizes);
                fmt_sizes(ss, sizeof ss, self->ndim, self->sizes);
                tsr_error_set(TSR_ERR_INDEX,
                              "The shape of the mask %s at index %d does not match the shape of the indexed "
                              "tensor %s at index %d", ms, j, ss, src);
                return -1;
            }
        }
        num += mask->ndim;
    }
    if (!mask) return 1;
    int64_t sz[TSR_MAX_DIMS], st[TSR_MAX_DIMS];
    int nd = 0;
    for (int d = 0; d < mask->ndim; d++) { sz[nd] = mask->sizes[d]; st[nd++] = mask->strides[d]; }
    for (int d = num; d < self->ndim; d++) { sz[nd] = 1; st[nd++] = 0; }
    tsr_tensor *m = tsr_tensor_alias(mask, nd, sz, st, mask->storage_offset);
    if (!m) return -1;
    tsr_tensor *m1 = m->dtype == TSR_BOOL ? tsr_tensor_retain(m) : tsr_to_dtype(m, TSR_BOOL, false);
    tsr_tensor_release(m);
    if (!m1) return -1;
    tsr_scalar s;
    int r = tsr_tensor_item(v, &s);
    if (r == 0) {
        tsr_operand o = tsr_operand_scalar(s);
        r = tsr_masked_fill_(self, m1, &o);
    }
    tsr_tensor_release(m1);
    return r < 0 ? -1 : 0;
}

static bool expandable(int n, const int64_t *s, int nd, const int64_t *to)
{
    if (n > nd) return false;
    for (int i = 0; i < n; i++) {
        int64_t a = s[n - 1 - i], b = to[nd - 1 - i];
        if (a != b && a != 1) return false;
    }
    return true;
}

int tsr_index_put_(tsr_tensor *self, int n, const tsr_tensor *const *indices, const tsr_tensor *values,
                   bool accumulate)
{
    if (n > self->ndim) {
        tsr_error_set(TSR_ERR_INDEX, "too many indices for tensor of dimension %d (got %d)", self->ndim, n);
        return -1;
    }
    if (!accumulate) {
        int m = put_masked_fill(self, n, indices, values);
        if (m <= 0) return m;
    }
    if (tsr_check_no_partial_overlap(self, values) < 0) return -1;
    for (int i = 0; i < n; i++)
        if (indices[i] && tsr_check_no_partial_overlap(self, indices[i]) < 0) return -1;
    adv a;
    tsr_tensor *dst = NULL, *v = NULL, *up = NULL;
    int r = -1;
    if (make_info(&a, self, n, indices) < 0) goto done;
    if (!expandable(values->ndim, values->sizes, a.nd, a.shape)) {
        char vs[512], rs[512];
        fmt_sizes(vs, sizeof vs, values->ndim, values->sizes);
        fmt_sizes(rs, sizeof rs, a.nd, a.shape);
        tsr_error_set(TSR_ERR_RUNTIME, "shape mismatch: value tensor of shape %s cannot be broadcast to indexing "
                                       "result of shape %s", vs, rs);
        goto done;
    }
    if (values->dtype != self->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "Index put requires the source and destination dtypes match, got %s for the "
                                       "destination and %s for the source.",
                      tsr_dtype_scalar_name(self->dtype), tsr_dtype_scalar_name(values->dtype));
        goto done;
    }
    /* 1.13's _index_put_impl_ moves a zero-dim value to self's device;
     * any other on another device fails TensorIterator's device check */
    if ((tsr__dev_external(self) || tsr__dev_external(values)) && !tsr_device_equal(self->device, values->device)) {
        if (values->ndim != 0) {
            char a0[32], b0[32];
            tsr_error_set(TSR_ERR_RUNTIME, "Expected all tensors to be on the same device, but found at least two "
                          "devices, %s and %s!", tsr_device_str(self->device, a0, sizeof a0),
                          tsr_device_str(values->device, b0, sizeof b0));
            goto done;
        }
        if (!(up = tsr_to_device(values, self->device, TSR_DTYPE_UNDEFINED, false))) goto done;
        values = up;
    }
    dst = restride_src(&a);
    v = dst ? tsr_view_expand(values, a.nd, a.shape) : NULL;
    if (!v) goto done;
    r = tsr_tensor_is_meta(self) ? 0 : run_index(&a, dst, v, true, accumulate);
done:
    tsr_tensor_release(dst);
    tsr_tensor_release(v);
    tsr_tensor_release(up);
    adv_free(&a);
    return r;
}

tsr_tensor *tsr_index_put(const tsr_tensor *self, int n, const tsr_tensor *const *indices, const tsr_tensor *values,
                          bool accumulate)
{
    tsr_tensor *c = tsr_clone(self, TSR_MF_PRESERVE);
    if (c && tsr_index_put_(c, n, indices, values, accumulate) < 0) {
        tsr_tensor_release(c);
        return NULL;
    }
    return c;
}

/* ------------------------------------------------------------ subscripts */

/* applySlicing: the view of the basic items and the advanced indices by the
 * dim of that view they apply to (*nrec of them, NULL gaps). NEW references. */
static tsr_tensor *apply_slicing(const tsr_tensor *self, int n, const tsr_sub *items, int *nrec, tsr_tensor **rec)
{
    int specified = 0, ellipses = 0;
    *nrec = 0;
    for (int i = 0; i < n; i++) {
        const tsr_sub *it = &items[i];
        if (it->kind == TSR_SUB_TENSOR) specified += is_mask(it->t) ? it->t->ndim : 1;
        else if (it->kind == TSR_SUB_INT || it->kind == TSR_SUB_SLICE) specified++;
        else if (it->kind == TSR_SUB_ELLIPSIS) ellipses++;
    }
    bool bare = n == 1 && items[0].bare && (items[0].kind == TSR_SUB_INT || items[0].kind == TSR_SUB_SLICE);
    if (specified > self->ndim && !bare) {
        tsr_error_set(TSR_ERR_INDEX, "too many indices for tensor of dimension %d", self->ndim);
        return NULL;
    }
    tsr_tensor *cur = tsr_view_alias(self);
    if (!cur) return NULL;
    int d = 0;
    for (int i = 0; i < n; i++) {
        const tsr_sub *it = &items[i];
        tsr_tensor *next = NULL, *record = NULL;
        int64_t ix = it->i;
        bool select = it->kind == TSR_SUB_INT;
        if (it->kind == TSR_SUB_ELLIPSIS) {
            /* 1.13 accepts several; the first one takes the unindexed dims */
            if (ellipses) d += self->ndim - specified;
            ellipses = 0;
            continue;
        }
        if (it->kind == TSR_SUB_TENSOR && it->t->ndim == 0 && tsr_dtype_is_integral(it->t->dtype, true)) {
            if (!is_mask(it->t)) {
                if (tsr_tensor_index(it->t, &ix) < 0) goto fail;
                select = true;
            } else {
                tsr_scalar s;
                if (tsr_tensor_item(it->t, &s) < 0) goto fail;
                int64_t one = tsr_scalar_to_bool(s) ? 1 : 0;
                record = tsr_full(1, &one, tsr_scalar_int(0), TSR_INT64, self->device);
                if (!record) goto fail;
            }
        } else if (it->kind == TSR_SUB_BOOL) {
            int64_t one = it->i ? 1 : 0;
            record = tsr_full(1, &one, tsr_scalar_int(0), TSR_INT64, self->device);
            if (!record) goto fail;
        } else if (it->kind == TSR_SUB_TENSOR) {
            record = tsr_tensor_retain((tsr_tensor *)it->t);
        }
        if (select) {
            if (cur->ndim == 0 && ix != 0) {
                tsr_error_set(TSR_ERR_INDEX, "index %" PRId64 " is out of bounds for dimension 0 with size 0", ix);
                goto fail;
            }
            if (cur->ndim == 0) {
                tsr_error_set(TSR_ERR_INDEX, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
                goto fail;
            }
            int64_t size = cur->sizes[d];
            if (ix < -size || ix >= size) {
                tsr_error_set(TSR_ERR_INDEX, "index %" PRId64 " is out of bounds for dimension %d with size %" PRId64,
                              ix, i, size);
                goto fail;
            }
            next = tsr_view_select(cur, d, ix);
        } else if (it->kind == TSR_SUB_SLICE) {
            next = tsr_view_slice(cur, d, it->start, it->stop, it->step);
            d++;
        } else {
            /* None, a bool or a 0-dim mask add a dim; a tensor indexes dim d */
            next = record == it->t && record ? tsr_tensor_retain(cur) : tsr_view_unsqueeze(cur, d);
            if (record) {
                while (*nrec < d) rec[(*nrec)++] = NULL;
                rec[(*nrec)++] = record;
                record = NULL;
            }
            d++;
        }
        tsr_tensor_release(record);
        if (!next) goto fail;
        tsr_tensor_release(cur);
        cur = next;
    }
    return cur;
fail:
    tsr_tensor_release(cur);
    for (int k = 0; k < *nrec; k++) tsr_tensor_release(rec[k]);
    *nrec = 0;
    return NULL;
}

static tsr_tensor *subscript(const tsr_tensor *self, int n, const tsr_sub *items);

/* x[ints, slices, ...] of a named tensor: an int removes its dim, the rest
 * keep theirs; None and advanced indices have no names rule in 1.13. Writes
 * the result's names to out and returns their count, or -1. */
static int subscript_names(const tsr_tensor *self, int n, const tsr_sub *items, tsr_name *out)
{
    int consumed = 0;
    for (int k = 0; k < n; k++) {
        if (items[k].kind == TSR_SUB_NONE || items[k].kind == TSR_SUB_BOOL) return tsr_names_refuse("aten::unsqueeze");
        if (items[k].kind == TSR_SUB_TENSOR) return tsr_names_refuse("aten::index.Tensor");
        if (items[k].kind != TSR_SUB_ELLIPSIS) consumed++;
    }
    int d = 0, m = 0;
    for (int k = 0; k < n && d <= self->ndim; k++) {
        if (items[k].kind == TSR_SUB_ELLIPSIS) {
            for (int e = 0; e < self->ndim - consumed && d < self->ndim; e++) out[m++] = self->names[d++];
        } else if (items[k].kind == TSR_SUB_INT) {
            d++;
        } else if (d < self->ndim) {
            out[m++] = self->names[d++];
        }
    }
    while (d < self->ndim) out[m++] = self->names[d++];
    return m;
}

tsr_tensor *tsr_subscript(const tsr_tensor *self, int n, const tsr_sub *items)
{
    if (self->names) {
        tsr_name nm[TSR_MAX_DIMS];
        int m = subscript_names(self, n, items, nm);
        if (m < 0) return NULL;
        tsr_tensor *r = subscript(self, n, items);
        if (r && r->ndim == m && tsr_names_propagate(r, nm, m) < 0) {
            tsr_tensor_release(r);
            return NULL;
        }
        return r;
    }
    return subscript(self, n, items);
}

static tsr_tensor *subscript(const tsr_tensor *self, int n, const tsr_sub *items)
{
    tsr_tensor *rec[TSR_MAX_DIMS];
    int nrec;
    tsr_tensor *sliced = apply_slicing(self, n, items, &nrec, rec);
    if (!sliced || nrec == 0) return sliced;
    tsr_tensor *r = tsr_index(sliced, nrec, (const tsr_tensor *const *)rec);
    tsr_tensor_release(sliced);
    for (int k = 0; k < nrec; k++) tsr_tensor_release(rec[k]);
    return r;
}

/* value with its leading size-1 dims dropped (slicePrefix1sDims). NEW reference. */
static tsr_tensor *prefix1s_dropped(const tsr_tensor *v)
{
    int k = 0;
    while (k < v->ndim && v->sizes[k] == 1) k++;
    if (k == v->ndim && v->ndim) k = v->ndim; /* all ones: a 0-dim view */
    return tsr_tensor_alias(v, v->ndim - k, v->sizes + k, v->strides + k, v->storage_offset);
}

/* at::indexing::copy_to */
static int copy_to(tsr_tensor *dst, const tsr_tensor *src)
{
    bool same = dst->ndim == src->ndim && !memcmp(dst->sizes, src->sizes, sizeof(int64_t) * (size_t)dst->ndim);
    if (same) return tsr_copy_(dst, src);
    if (src->ndim == 0 && src->device.type == TSR_DEV_CPU) return tsr_fill_tensor_(dst, src);
    tsr_tensor *s = prefix1s_dropped(src);
    tsr_tensor *e = s ? tsr_view_expand(s, dst->ndim, dst->sizes) : NULL;
    tsr_tensor_release(s);
    int r = e ? tsr_copy_(dst, e) : -1;
    tsr_tensor_release(e);
    return r;
}

int tsr_subscript_assign(tsr_tensor *self, int n, const tsr_sub *items, const tsr_tensor *value)
{
    tsr_tensor *rec[TSR_MAX_DIMS];
    int nrec;
    tsr_tensor *sliced = apply_slicing(self, n, items, &nrec, rec);
    if (!sliced) return -1;
    int r;
    if (nrec == 0) {
        r = copy_to(sliced, value);
    } else {
        tsr_tensor *v = prefix1s_dropped(value);
        r = v ? tsr_index_put_(sliced, nrec, (const tsr_tensor *const *)rec, v, false) : -1;
        tsr_tensor_release(v);
    }
    tsr_tensor_release(sliced);
    for (int k = 0; k < nrec; k++) tsr_tensor_release(rec[k]);
    return r;
}

tsr_tensor *tsr_subscript_value(const tsr_tensor *self, tsr_scalar v)
{
    if (tsr_scalar_check_fits(v, self->dtype) < 0) return NULL;
    return tsr_full(0, NULL, v, self->dtype, self->device);
}
