/* runtime/ops/scatter.c — index_select, gather, scatter, take, masked_select
 * (PyTorch 1.13 TensorAdvancedIndexing.cpp and ScatterGatherChecks.h). The
 * kernels walk the index in row-major order, so duplicate scatter writes land
 * as 1.13's CPU kernel lands them (the last one wins). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "../device.h"
#include "../error.h"
#include "../iter.h"
#include "../view.h"
#include "binary.h"
#include "copy.h"
#include "factory.h"
#include "index_dev.h"
#include "scatter.h"
#include "shape.h"
#include "blas.h"
#include "walk.h"

static void fmt_sizes(char *buf, size_t cap, int nd, const int64_t *s)
{
    size_t k = (size_t)snprintf(buf, cap, "[");
    for (int d = 0; d < nd && k < cap; d++) k += (size_t)snprintf(buf + k, cap - k, "%s%" PRId64, d ? ", " : "", s[d]);
    if (k < cap) snprintf(buf + k, cap - k, "]");
}

int tsr_meta_refused(const char *op)
{
    tsr_error_set(TSR_ERR_NOT_IMPLEMENTED,
                  "Could not run 'aten::%s' with arguments from the 'Meta' backend. This could be because the "
                  "operator doesn't exist for this backend, or was omitted during the selective/custom build process "
                  "(if using custom build). If you are a Facebook employee using PyTorch on mobile, please visit "
                  "https://fburl.com/ptmfixes for possible resolutions. 'aten::%s' is only available for these "
                  "backends: [CPU, BackendSelect, Python, FuncTorchDynamicLayerBackMode, Functionalize, Named, "
                  "Conjugate, Negative, ZeroTensor, ADInplaceOrView, AutogradOther, AutogradCPU, AutogradCUDA, "
                  "AutogradHIP, AutogradXLA, AutogradMPS, AutogradIPU, AutogradXPU, AutogradHPU, AutogradVE, "
                  "AutogradLazy, AutogradMeta, AutogradPrivateUse1, AutogradPrivateUse2, AutogradPrivateUse3, "
                  "AutogradNestedTensor, Tracer, AutocastCPU, AutocastCUDA, FuncTorchBatched, FuncTorchVmapMode, "
                  "Batched, VmapMode, FuncTorchGradWrapper, PythonTLSSnapshot, FuncTorchDynamicLayerFrontMode, "
                  "PythonDispatcher].", op, op);
    return -1;
}

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

static void reduce_item(tsr_dtype dt, char *dst, const char *src, tsr_scatter_reduce op)
{
    tsr_scalar a = tsr_scalar_load(dt, dst), b = tsr_scalar_load(dt, src);
    bool mul = op == TSR_SCATTER_MULTIPLY;
    if (op == TSR_SCATTER_AMAX || op == TSR_SCATTER_AMIN) { /* 1.13: a NaN src wins, else std::max/min */
        bool take;
        if (a.kind == TSR_SCALAR_FLOAT) take = b.d != b.d || (op == TSR_SCATTER_AMAX ? a.d < b.d : b.d < a.d);
        else take = op == TSR_SCATTER_AMAX ? a.i < b.i : b.i < a.i;
        if (take) tsr_scalar_store(dt, dst, b);
        return;
    }
    switch (a.kind) {
    case TSR_SCALAR_BOOL: a.i = mul ? a.i && b.i : a.i || b.i; break;
    case TSR_SCALAR_INT: a.i = (int64_t)(mul ? (uint64_t)a.i * (uint64_t)b.i : (uint64_t)a.i + (uint64_t)b.i); break;
    case TSR_SCALAR_FLOAT: a.d = mul ? a.d * b.d : a.d + b.d; break;
    case TSR_SCALAR_COMPLEX: {
        double re = mul ? a.re * b.re - a.im * b.im : a.re + b.re, im = mul ? a.re * b.im + a.im * b.re : a.im + b.im;
        a.re = re;
        a.im = im;
        break;
    }
    }
    tsr_scalar_store(dt, dst, a);
}

static int64_t size_or1(const tsr_tensor *t, int d) { return t->ndim ? t->sizes[d] : 1; }

/* t seen with the sizes of index (ensure_nonempty: a 0-dim tensor as [1]). */
static tsr_tensor *as_index_shaped(const tsr_tensor *t, const tsr_tensor *index, int nd)
{
    int64_t sz[TSR_MAX_DIMS] = {0}, st[TSR_MAX_DIMS] = {0};
    for (int d = 0; d < nd; d++) {
        sz[d] = size_or1(index, d);
        st[d] = t->ndim ? t->strides[d] : 0;
    }
    return tsr_tensor_alias(t, nd, sz, st, t->storage_offset);
}

/* ------------------------------------------------------------ gather / scatter kernel */

typedef struct {
    int64_t size, stride;     /* the size of self along dim; its stride in bytes */
    int dim, item;
    tsr_dtype dt;
    bool scatter, src_scalar;
    tsr_scatter_reduce reduce;
} sg_ctx;

/* p[0]: self (index-shaped, dim stride applied through the value), p[1]: the
 * index, p[2]: the result of gather / the source of scatter. */
static int sg_row(char **p, const int64_t *inner, int64_t n, int64_t row, void *ctx)
{
    const sg_ctx *c = ctx;
    (void)row;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = *(const int64_t *)(p[1] + i * inner[1]);
        if (v < 0 || v >= c->size) {
            tsr_error_set(TSR_ERR_RUNTIME, "index %" PRId64 " is out of bounds for dimension %d with size %" PRId64, v,
                          c->dim, c->size);
            return -1;
        }
        char *s = p[0] + i * inner[0] + v * c->stride, *o = p[2] + (c->src_scalar ? 0 : i * inner[2]);
        if (!c->scatter) copy_item(o, s, c->item);
        else if (c->reduce == TSR_SCATTER_NONE) copy_item(s, o, c->item);
        else reduce_item(c->dt, s, o, c->reduce);
    }
    return 0;
}

/* sg_run's walk as one device launch: operand 0 self (restrided), 1 the
 * index, 2 the other (a scalar goes to the device as a zero-dim tensor
 * when it is combined, else is FILL's value). */
static int sg_run_dev(tsr_tensor *self, const tsr_tensor *index, const tsr_tensor *other, const char *scalar,
                      walk *w, const sg_ctx *c)
{
    const tsr_tensor *ops[2] = {index, other};
    if (tsr__dev_same_device(self, 2, ops) < 0) return -1;
    const char *aten = !c->scatter                     ? "aten::gather.out"
                       : c->reduce == TSR_SCATTER_NONE ? "aten::scatter.src_out"
                                                       : "aten::scatter_reduce.two_out";
    tsr_kindex_op op = !c->scatter ? TSR_KI_GATHER
                       : c->reduce == TSR_SCATTER_NONE ? (other ? TSR_KI_PUT : TSR_KI_FILL)
                       : c->reduce == TSR_SCATTER_ADD ? TSR_KI_ADD
                       : c->reduce == TSR_SCATTER_MULTIPLY ? TSR_KI_MUL
                       : c->reduce == TSR_SCATTER_AMAX ? TSR_KI_AMAX : TSR_KI_AMIN;
    tsr_tensor *held = NULL;
    if (!other && op != TSR_KI_FILL) {
        tsr_tensor *h = tsr_tensor_empty(0, NULL, self->dtype, TSR_CPU);
        if (h) memcpy(tsr_tensor_ptr(h, NULL), scalar, (size_t)c->item);
        held = h ? tsr_to_device(h, self->device, TSR_DTYPE_UNDEFINED, false) : NULL;
        tsr_tensor_release(h);
        if (!held) return -1;
        w->base[2] = tsr_tensor_ptr(held, NULL);
    }
    int oi[1] = {1}, written = c->scatter ? 0 : 2, read = op == TSR_KI_FILL ? -1 : c->scatter ? 2 : 0;
    int64_t size[1] = {c->size}, step[1] = {c->stride}, bad[2];
    int r = tsr__dev_index_walk(self->device, aten, op, self->dtype, w, written, read, 1, oi, size, step, false,
                                op == TSR_KI_FILL ? (const unsigned char *)scalar : NULL, tsr_scalar_int(1), bad);
    tsr_tensor_release(held);
    if (r == 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "index %" PRId64 " is out of bounds for dimension %d with size %" PRId64, bad[0],
                      c->dim, c->size);
        r = -1;
    }
    return r;
}

/* Runs the kernel over index's shape. other: the gather result or the
 * scatter source (index-shaped), or a one-element buffer for a scalar. */

static int sg_run(tsr_tensor *self, int dim, const tsr_tensor *index, const tsr_tensor *other, char *scalar,
                  bool scatter, tsr_scatter_reduce reduce)
{
    int nd = self->ndim ? self->ndim : 1;
    tsr_tensor *s = as_index_shaped(self, index, nd), *ix = as_index_shaped(index, index, nd);
    tsr_tensor *o = other ? as_index_shaped(other, index, nd) : NULL;
    int r = -1;
    if (!s || !ix || (other && !o)) goto done;
    walk w = {.nd = nd, .nop = 3, .split = true};
    for (int d = 0; d < nd; d++) w.sizes[d] = ix->sizes[d];
    walk_operand(&w, 0, s);
    for (int d = 0; d < nd; d++) w.st[0][d] = d == dim ? 0 : (self->ndim ? self->strides[d] : 0) * tsr_tensor_itemsize(self);
    walk_operand(&w, 1, ix);
    if (o) walk_operand(&w, 2, o);
    else { w.base[2] = scalar; for (int d = 0; d < nd; d++) w.st[2][d] = 0; }
    for (int d = 0; d < nd; d++) /* an index dim of size 1 still walks self's stride */
        if (w.sizes[d] == 1) w.st[0][d] = 0;
    /* the longest dim innermost: writes that meet (same place, one line
     * along dim) keep their order under any nesting of the loops */
    int big = nd - 1;
    for (int i = 0; i < nd; i++)
        if (w.sizes[i] > w.sizes[big]) big = i;
    for (int i = big; i < nd - 1; i++) {
        int64_t t = w.sizes[i]; w.sizes[i] = w.sizes[i + 1]; w.sizes[i + 1] = t;
        for (int k = 0; k < 3; k++) { t = w.st[k][i]; w.st[k][i] = w.st[k][i + 1]; w.st[k][i + 1] = t; }
    }
    sg_ctx c = {.size = size_or1(self, dim), .stride = (self->ndim ? self->strides[dim] : 0) * tsr_tensor_itemsize(self),
                .dim = dim, .item = tsr_tensor_itemsize(self), .dt = self->dtype, .scatter = scatter,
                .src_scalar = !o, .reduce = reduce};
    bool dev = tsr__dev_external(self) || tsr__dev_external(index) || (other && tsr__dev_external(other));
    r = dev ? sg_run_dev(self, index, other, scalar, &w, &c) : walk_run(&w, sg_row, &c);
done:
    tsr_tensor_release(s);
    tsr_tensor_release(ix);
    tsr_tensor_release(o);
    return r;
}

/* gather over contiguous self and index of self's sizes apart from dim (the
 * common case): rows of the index read in order, one bound check each.
 * 0 done, 1 not this case, -1 error. */
static int gather_contiguous(const tsr_tensor *self, int d, const tsr_tensor *index, tsr_tensor *out)
{
    if (self->ndim == 0 || index->ndim != self->ndim || !tsr_tensor_is_contiguous(self) ||
        !tsr_tensor_is_contiguous(index))
        return 1;
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < self->ndim; i++) {
        if (i != d && index->sizes[i] != self->sizes[i]) return 1;
        if (i < d) outer *= self->sizes[i];
        if (i > d) inner *= self->sizes[i];
    }
    int item = tsr_tensor_itemsize(self);
    int64_t ssize = self->sizes[d], isize = index->sizes[d];
    const int64_t *ix = tsr_tensor_ptr(index, NULL);
    const char *src = tsr_tensor_ptr(self, NULL);
    char *dst = tsr_tensor_ptr(out, NULL);
    for (int64_t o = 0; o < outer; o++) {
        const char *so = src + (size_t)(o * ssize * inner) * (size_t)item;
        for (int64_t j = 0; j < isize; j++, ix += inner, dst += inner * item) {
            if (j + 8 < isize) /* the rows ahead: random reads overlap their misses */
                __builtin_prefetch(so + (ix[8 * inner] * inner) * item);
            for (int64_t i = 0; i < inner; i++)
                if (ix[i] < 0 || ix[i] >= ssize) {
                    tsr_error_set(TSR_ERR_RUNTIME, "index %" PRId64 " is out of bounds for dimension %d with size %"
                                  PRId64, ix[i], d, ssize);
                    return -1;
                }
            if (item == 4)
                for (int64_t i = 0; i < inner; i++) memcpy(dst + i * 4, so + (ix[i] * inner + i) * 4, 4);
            else if (item == 8)
                for (int64_t i = 0; i < inner; i++) memcpy(dst + i * 8, so + (ix[i] * inner + i) * 8, 8);
            else
                for (int64_t i = 0; i < inner; i++) copy_item(dst + i * item, so + (ix[i] * inner + i) * item, item);
            if ((j & 0xffff) == 0xffff && tsr_check_interrupt() < 0) return -1;
        }
        if (tsr_check_interrupt() < 0) return -1;
    }
    return 0;
}

tsr_tensor *tsr_gather(const tsr_tensor *self, int64_t dim, const tsr_tensor *index)
{
    int d = tsr_wrap_dim(dim, self->ndim);
    if (d < 0) return NULL;
    bool empty = tsr_tensor_numel(index) == 0;
    if (!empty && index->dtype != TSR_INT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "gather(): Expected dtype int64 for index");
        return NULL;
    }
    if (!empty) {
        int nd = self->ndim ? self->ndim : 1;
        if (nd != (index->ndim ? index->ndim : 1)) {
            tsr_error_set(TSR_ERR_RUNTIME, "Index tensor must have the same number of dimensions as input tensor");
            return NULL;
        }
        for (int i = 0; i < nd; i++)
            if (i != d && size_or1(index, i) > size_or1(self, i)) {
                char is[512], ss[512];
                fmt_sizes(is, sizeof is, index->ndim, index->sizes);
                fmt_sizes(ss, sizeof ss, self->ndim, self->sizes);
                tsr_error_set(TSR_ERR_RUNTIME, "Size does not match at dimension %d expected index %s to be smaller "
                                               "than self %s apart from dimension %d", i, is, ss, d);
                return NULL;
            }
    }
    tsr_tensor *out = tsr_tensor_empty(index->ndim, index->sizes, self->dtype, self->device);
    if (!out || empty || tsr_tensor_is_meta(self)) return out;
    int fr = tsr__dev_external(self) || tsr__dev_external(index) ? 1 : gather_contiguous(self, d, index, out);
    if (fr < 0) { tsr_tensor_release(out); return NULL; }
    if (fr == 0) return out;
    if (sg_run((tsr_tensor *)self, d, index, out, NULL, false, TSR_SCATTER_NONE) < 0) {
        tsr_tensor_release(out);
        return NULL;
    }
    return out;
}

tsr_tensor *tsr_gather_out(const tsr_tensor *self, int64_t dim, const tsr_tensor *index, tsr_tensor *out)
{
    if (tsr_out_dtype_check(out, self->dtype) < 0) return NULL;
    tsr_tensor *r = tsr_gather(self, dim, index);
    if (!r) return NULL;
    int e = tsr_resize_output(out, r->ndim, r->sizes) < 0 ? -1 : tsr_copy_(out, r);
    tsr_tensor_release(r);
    return e < 0 ? NULL : tsr_tensor_retain(out);
}

int tsr_scatter_reduce_of(const char *name, tsr_scatter_reduce *out)
{
    if (!strcmp(name, "add")) { *out = TSR_SCATTER_ADD; return 0; }
    if (!strcmp(name, "multiply")) { *out = TSR_SCATTER_MULTIPLY; return 0; }
    tsr_error_set(TSR_ERR_RUNTIME, "reduce argument must be either add or multiply.");
    return -1;
}

/* scatter_meta_impl: the dtype and shape checks. */
static int scatter_check(const tsr_tensor *self, int d, const tsr_tensor *index, const tsr_tensor *src)
{
    if (tsr_tensor_numel(index) != 0 && index->dtype != TSR_INT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "scatter(): Expected dtype int64 for index");
        return -1;
    }
    if (src && src->dtype != self->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "scatter(): Expected self.dtype to be equal to src.dtype");
        return -1;
    }
    if (tsr_tensor_numel(index) == 0) return 0;
    int nd = self->ndim ? self->ndim : 1;
    if (nd != (index->ndim ? index->ndim : 1)) {
        tsr_error_set(TSR_ERR_RUNTIME, "Index tensor must have the same number of dimensions as self tensor");
        return -1;
    }
    bool wrong = false;
    for (int i = 0; i < nd && !wrong; i++)
        if (i != d && size_or1(index, i) > size_or1(self, i)) wrong = true;
    for (int i = 0; src && i < nd && !wrong; i++)
        if (size_or1(index, i) > size_or1(src, i)) wrong = true;
    if (!wrong) return 0;
    char is[512], ss[512], rs[512];
    fmt_sizes(is, sizeof is, index->ndim, index->sizes);
    fmt_sizes(ss, sizeof ss, self->ndim, self->sizes);
    if (src) {
        fmt_sizes(rs, sizeof rs, src->ndim, src->sizes);
        tsr_error_set(TSR_ERR_RUNTIME, "Expected index %s to be smaller than self %s apart from dimension %d and to be "
                                       "smaller size than src %s", is, ss, d, rs);
    } else {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected index %s to be smaller than self %s apart from dimension %d", is, ss, d);
    }
    return -1;
}

int tsr_scatter_(tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *src,
                 const tsr_scalar *value, tsr_scatter_reduce reduce)
{
    int d = tsr_wrap_dim(dim, self->ndim);
    if (d < 0 || scatter_check(self, d, index, src) < 0) return -1;
    if (tsr_check_no_internal_overlap(self) < 0 || tsr_check_no_partial_overlap(self, index) < 0 ||
        (src && tsr_check_no_partial_overlap(self, src) < 0))
        return -1;
    if (tsr_tensor_numel(index) == 0 || tsr_tensor_is_meta(self)) return 0;
    char buf[16] = {0};
    if (!src) tsr_scalar_store(self->dtype, buf, *value);
    return sg_run(self, d, index, src, src ? NULL : buf, true, reduce);
}

tsr_tensor *tsr_scatter(const tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *src,
                        const tsr_scalar *value, tsr_scatter_reduce reduce)
{
    int d = tsr_wrap_dim(dim, self->ndim);
    if (d < 0 || scatter_check(self, d, index, src) < 0) return NULL;
    tsr_tensor *out = tsr_tensor_empty(self->ndim, self->sizes, self->dtype, self->device);
    if (!out) return NULL;
    if (tsr_tensor_is_meta(self)) return out;
    if (tsr_copy_(out, self) < 0 || tsr_scatter_(out, dim, index, src, value, reduce) < 0) {
        tsr_tensor_release(out);
        return NULL;
    }
    return out;
}

/* ------------------------------------------------------------ scatter_reduce */

int tsr_scatter_reduce_two_of(const char *name, tsr_scatter_reduce *out)
{
    static const struct { const char *name; tsr_scatter_reduce op; } names[] = {
        {"sum", TSR_SCATTER_ADD}, {"prod", TSR_SCATTER_MULTIPLY}, {"mean", TSR_SCATTER_MEAN},
        {"amax", TSR_SCATTER_AMAX}, {"amin", TSR_SCATTER_AMIN},
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i].name)) { *out = names[i].op; return 0; }
    tsr_error_set(TSR_ERR_RUNTIME, "reduce argument must be either sum, prod, mean, amax or amin.");
    return -1;
}

/* The identity a place scattered to starts from without include_self
 * (scatter_reduce_exclude_self_helper): 0, 1, or the dtype's lowest /
 * highest (infinities for floating types). */
static tsr_scalar reduce_identity(tsr_dtype dt, tsr_scatter_reduce op)
{
    if (op == TSR_SCATTER_MULTIPLY) return tsr_scalar_int(1);
    if (op != TSR_SCATTER_AMAX && op != TSR_SCATTER_AMIN) return tsr_scalar_int(0);
    bool hi = op == TSR_SCATTER_AMIN;
    if (tsr_dtype_is_floating(dt)) return tsr_scalar_float(hi ? 1.0 / 0.0 : -1.0 / 0.0);
    if (dt == TSR_BOOL) return tsr_scalar_bool(hi);
    int bits = 8 * tsr_dtype_itemsize(dt);
    if (dt == TSR_UINT8) return tsr_scalar_int(hi ? 255 : 0);
    int64_t max = bits == 64 ? INT64_MAX : (int64_t)((UINT64_C(1) << (bits - 1)) - 1);
    return tsr_scalar_int(hi ? max : -max - 1);
}

/* mean: self / the number of values reduced into each place (count has
 * self's dtype, as 1.13's ones_like/zeros_like; floor division for
 * integral types). */
static int scatter_mean_divide(tsr_tensor *self, int d, const tsr_tensor *index, bool include_self)
{
    tsr_tensor *count = tsr_full(self->ndim, self->sizes, tsr_scalar_int(include_self), self->dtype, self->device);
    if (!count) return -1;
    char one[16] = {0};
    tsr_scalar_store(self->dtype, one, tsr_scalar_int(1));
    int r = sg_run(count, d, index, NULL, one, true, TSR_SCATTER_ADD);
    int64_t n = tsr_tensor_numel(count);
    if (r == 0 && tsr__dev_external(count)) {   /* counts are >= 0: a zero becomes 1 as max(count, 1) */
        tsr_operand o1 = tsr_operand_scalar(tsr_scalar_int(1));
        tsr_tensor *m = tsr_binary_(TSR_BINOP_MAXIMUM, count, &o1, NULL);
        if (!m) r = -1;
        tsr_tensor_release(m);
        n = 0;
    }
    for (int64_t i = 0; r == 0 && i < n; i++) {
        tsr_scalar c;
        r = tsr_tensor_get_at(count, i, &c);
        bool zero = c.kind == TSR_SCALAR_FLOAT ? c.d == 0 : c.kind == TSR_SCALAR_COMPLEX ? c.re == 0 && c.im == 0
                                                                                       : c.i == 0;
        if (r == 0 && zero) r = tsr_tensor_set_at(count, i, tsr_scalar_int(1));
    }
    if (r == 0) {
        tsr_operand o = tsr_operand_tensor(count);
        bool fl = tsr_dtype_is_floating(self->dtype) || tsr_dtype_is_complex(self->dtype);
        tsr_tensor *q = tsr_binary_(fl ? TSR_BINOP_DIV : TSR_BINOP_DIV_FLOOR, self, &o, NULL);
        if (!q) r = -1;
        tsr_tensor_release(q);
    }
    tsr_tensor_release(count);
    return r;
}

int tsr_scatter_reduce_two_(tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *src,
                            const char *name, bool include_self)
{
    int d = tsr_wrap_dim(dim, self->ndim);
    tsr_scatter_reduce reduce;
    if (d < 0 || scatter_check(self, d, index, src) < 0 || tsr_scatter_reduce_two_of(name, &reduce) < 0) return -1;
    if (tsr_check_no_internal_overlap(self) < 0 || tsr_check_no_partial_overlap(self, index) < 0 ||
        tsr_check_no_partial_overlap(self, src) < 0)
        return -1;
    if (tsr_tensor_numel(index) == 0 || tsr_tensor_is_meta(self)) return 0;
    if (tsr_dtype_is_complex(self->dtype) && (reduce == TSR_SCATTER_AMAX || reduce == TSR_SCATTER_AMIN)) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"scatter_gather_tensor_cpu_reduce_%s\" not implemented for '%s'",
                      reduce == TSR_SCATTER_AMAX ? "amax" : "amin", tsr_dtype_scalar_name(self->dtype));
        return -1;
    }
    char buf[16] = {0};
    if (!include_self) {
        tsr_scalar_store(self->dtype, buf, reduce_identity(self->dtype, reduce));
        if (sg_run(self, d, index, NULL, buf, true, TSR_SCATTER_NONE) < 0) return -1;
    }
    if (reduce == TSR_SCATTER_MEAN && self->dtype == TSR_BOOL) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'");
        return -1;
    }
    tsr_scatter_reduce op = reduce == TSR_SCATTER_MEAN ? TSR_SCATTER_ADD : reduce;
    if (sg_run(self, d, index, src, NULL, true, op) < 0) return -1;
    return reduce == TSR_SCATTER_MEAN ? scatter_mean_divide(self, d, index, include_self) : 0;
}

tsr_tensor *tsr_scatter_reduce_two(const tsr_tensor *self, int64_t dim, const tsr_tensor *index,
                                   const tsr_tensor *src, const char *reduce, bool include_self)
{
    int d = tsr_wrap_dim(dim, self->ndim);
    tsr_scatter_reduce op;
    if (d < 0 || scatter_check(self, d, index, src) < 0 || tsr_scatter_reduce_two_of(reduce, &op) < 0) return NULL;
    tsr_tensor *out = tsr_tensor_empty(self->ndim, self->sizes, self->dtype, self->device);
    if (!out) return NULL;
    if (tsr_tensor_is_meta(self)) return out;
    if (tsr_copy_(out, self) < 0 || tsr_scatter_reduce_two_(out, dim, index, src, reduce, include_self) < 0) {
        tsr_tensor_release(out);
        return NULL;
    }
    return out;
}

/* ------------------------------------------------------------ index_select */

static int sel_row(char **p, const int64_t *inner, int64_t n, int64_t row, void *ctx)
{
    int item = *(const int *)ctx;
    (void)row;
    if (inner[0] == item && inner[1] == item) memcpy(p[0], p[1], (size_t)(n * item));
    else for (int64_t i = 0; i < n; i++) copy_item(p[0] + i * inner[0], p[1] + i * inner[1], item);
    return 0;
}

/* index_select along the result's last dim: each element of the other dims
 * gathers its numel values into one contiguous run of the result, so the
 * result is written in memory order (the slice-per-index order of the general
 * path strides across the whole result once per index). */
typedef struct { const int64_t *ix; int64_t numel, sst; int item; int64_t work; } sel_last_ctx;

static int sel_last_row(char **p, const int64_t *inner, int64_t n, int64_t row, void *ctx)
{
    sel_last_ctx *c = ctx;
    (void)row;
    for (int64_t e = 0; e < n; e++) {
        char *o = p[0] + e * inner[0];
        const char *s = p[1] + e * inner[1];
        switch (c->item) {
        case 4: for (int64_t i = 0; i < c->numel; i++) memcpy(o + i * 4, s + c->ix[i] * c->sst, 4); break;
        case 8: for (int64_t i = 0; i < c->numel; i++) memcpy(o + i * 8, s + c->ix[i] * c->sst, 8); break;
        default:
            for (int64_t i = 0; i < c->numel; i++) copy_item(o + i * c->item, s + c->ix[i] * c->sst, c->item);
        }
        c->work += c->numel;
        if (c->work >= 65536) {
            c->work = 0;
            if (tsr_check_interrupt() < 0) return -1;
        }
    }
    return 0;
}

tsr_tensor *tsr_index_select(const tsr_tensor *self, int64_t dim, const tsr_tensor *index)
{
    int d = tsr_wrap_dim(dim, self->ndim);
    if (d < 0) return NULL;
    int64_t numel = tsr_tensor_numel(index);
    if (index->ndim > 1) {
        tsr_error_set(TSR_ERR_INDEX, "index_select(): Index is supposed to be a vector");
        return NULL;
    }
    if (index->dtype != TSR_INT64 && index->dtype != TSR_INT32) {
        tsr_error_set(TSR_ERR_RUNTIME, "index_select(): Expected dtype int32 or int64 for index");
        return NULL;
    }
    int64_t sz[TSR_MAX_DIMS];
    for (int i = 0; i < self->ndim; i++) sz[i] = i == d ? numel : self->sizes[i];
    tsr_tensor *out = tsr_tensor_empty(self->ndim, sz, self->dtype, self->device);
    if (!out || tsr_tensor_is_meta(self) || numel == 0) return out;
    int64_t dsize = size_or1(self, d);
    /* 1.13's dim-1 and empty-self paths word the bound error apart */
    bool dim1 = self->ndim > 1 && (d == 1 || tsr_tensor_numel(self) == 0);
    if (self->ndim > 1 && tsr_tensor_numel(self) == 0 && dsize == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "index_select(): self indexing axis dim should be positive");
        tsr_tensor_release(out);
        return NULL;
    }
    if (tsr__dev_external(self) || tsr__dev_external(index)) {
        if (!tsr_device_equal(self->device, index->device)) {   /* the generated CUDA wrapper's check */
            char a[32], b[32];
            tsr_error_set(TSR_ERR_RUNTIME, "Expected all tensors to be on the same device, but found at least two "
                          "devices, %s and %s! (when checking argument for argument index in method "
                          "wrapper__index_select)", tsr_device_str(self->device, a, sizeof a),
                          tsr_device_str(index->device, b, sizeof b));
            tsr_tensor_release(out);
            return NULL;
        }
        int64_t bad[2];
        int r = tsr__dev_index_dim(TSR_KI_GATHER, "aten::index_select", out, self, d, index, NULL, tsr_scalar_int(1),
                                   false, bad);
        if (r == 1 && dim1)
            tsr_error_set(TSR_ERR_RUNTIME, "INDICES element is out of DATA bounds, id=%" PRId64 " axis_dim=%" PRId64,
                          bad[0], dsize);
        else if (r == 1)
            tsr_error_set(TSR_ERR_INDEX, "index out of range in self");
        if (r != 0) {
            tsr_tensor_release(out);
            return NULL;
        }
        return out;
    }
    const int64_t *fast = index->dtype == TSR_INT64 && tsr_tensor_is_contiguous(index) && !tsr_tensor_is_meta(index)
                              ? tsr_tensor_ptr(index, NULL) : NULL;
    for (int64_t i = 0; i < numel; i++) {
        int64_t v = fast ? fast[i] : tsr_tensor_get_int64_at(index, i);
        if (v < 0 || v >= dsize) {
            if (dim1) tsr_error_set(TSR_ERR_RUNTIME, "INDICES element is out of DATA bounds, id=%" PRId64 " axis_dim=%"
                                    PRId64, v, dsize);
            else tsr_error_set(TSR_ERR_INDEX, "index out of range in self");
            tsr_tensor_release(out);
            return NULL;
        }
    }
    if (tsr_tensor_numel(self) == 0) return out;
    int item = tsr_tensor_itemsize(self);
    if (self->ndim && tsr_tensor_is_contiguous(self) && index->dtype == TSR_INT64 && tsr_tensor_is_contiguous(index)) {
        /* contiguous self: blocks of the dims after d, copied whole */
        int64_t outer = 1, inner = 1;
        for (int i = 0; i < d; i++) outer *= self->sizes[i];
        for (int i = d + 1; i < self->ndim; i++) inner *= self->sizes[i];
        const int64_t *ix = tsr_tensor_ptr(index, NULL);
        const char *src = tsr_tensor_ptr(self, NULL);
        char *dst = tsr_tensor_ptr(out, NULL);
        size_t block = (size_t)(inner * item);
        for (int64_t o = 0; o < outer; o++) {
            const char *so = src + (size_t)(o * dsize) * block;
            if (block == 4)
                for (int64_t i = 0; i < numel; i++, dst += 4) memcpy(dst, so + ix[i] * 4, 4);
            else if (block == 8)
                for (int64_t i = 0; i < numel; i++, dst += 8) memcpy(dst, so + ix[i] * 8, 8);
            else if (block == 16)
                for (int64_t i = 0; i < numel; i++, dst += 16) {
                    if (i + 8 < numel) __builtin_prefetch(so + ix[i + 8] * 16);
                    memcpy(dst, so + ix[i] * 16, 16);
                }
            else
                for (int64_t i = 0; i < numel; i++, dst += block) memcpy(dst, so + (size_t)ix[i] * block, block);
            if (tsr_check_interrupt() < 0) { tsr_tensor_release(out); return NULL; }
        }
        return out;
    }
    if (self->ndim == 0) { /* every index is 0: the one element */
        copy_item(tsr_tensor_ptr(out, NULL), tsr_tensor_ptr(self, NULL), item);
        return out;
    }
    if (d == self->ndim - 1 && self->ndim > 1) {
        tsr_tensor *ix64 = tsr_to_dtype(index, TSR_INT64, false), *ixc = ix64 ? tsr_contiguous(ix64, TSR_MF_CONTIGUOUS) : NULL;
        tsr_tensor_release(ix64);
        if (!ixc) { tsr_tensor_release(out); return NULL; }
        sel_last_ctx c = {.ix = tsr_tensor_ptr(ixc, NULL), .numel = numel, .sst = self->strides[d] * item, .item = item};
        walk lw = {.nd = self->ndim - 1, .nop = 2};
        for (int i = 0; i < lw.nd; i++) lw.sizes[i] = out->sizes[i];
        walk_operand(&lw, 0, out);
        walk_operand(&lw, 1, self);
        int rc = walk_run(&lw, sel_last_row, &c);
        tsr_tensor_release(ixc);
        if (rc < 0) { tsr_tensor_release(out); return NULL; }
        return out;
    }
    /* row i of the result is the slice v of self along d */
    walk w = {.nd = self->ndim ? self->ndim : 1, .nop = 2};
    for (int i = 0; i < w.nd; i++) w.sizes[i] = self->ndim ? out->sizes[i] : 1;
    walk_operand(&w, 0, out);
    walk_operand(&w, 1, self);
    if (self->ndim == 0) { w.st[0][0] = w.st[1][0] = 0; }
    /* walk d as the outer loop: move it first */
    int64_t sizes[TSR_MAX_DIMS], st0[TSR_MAX_DIMS], st1[TSR_MAX_DIMS];
    int k = 0;
    for (int i = 0; i < w.nd; i++)
        if (i != d) { sizes[k] = w.sizes[i]; st0[k] = w.st[0][i]; st1[k++] = w.st[1][i]; }
    int64_t ost = w.st[0][d], sst = self->ndim ? self->strides[d] * item : 0;
    walk inner = {.nd = k, .nop = 2};
    memcpy(inner.sizes, sizes, sizeof(int64_t) * (size_t)k);
    memcpy(inner.st[0], st0, sizeof(int64_t) * (size_t)k);
    memcpy(inner.st[1], st1, sizeof(int64_t) * (size_t)k);
    for (int64_t i = 0; i < numel; i++) {
        int64_t v = tsr_tensor_get_int64_at(index, i);
        inner.base[0] = w.base[0] + i * ost;
        inner.base[1] = w.base[1] + v * sst;
        if (k == 0) { copy_item(inner.base[0], inner.base[1], item); continue; }
        if (walk_run(&inner, sel_row, &item) < 0 || tsr_check_interrupt() < 0) {
            tsr_tensor_release(out);
            return NULL;
        }
    }
    return out;
}

/* ------------------------------------------------------------ take, masked_select */

/* take on a device: out[i] = src.flatten()[index[i]] (src contiguous, n
 * elements). 0 or -1. */
static int take_dev(const tsr_tensor *src, const tsr_tensor *index, tsr_tensor *out, int64_t n)
{
    const tsr_tensor *ops[2] = {index, out};
    if (tsr__dev_same_device(src, 2, ops) < 0) return -1;
    int nd = index->ndim ? index->ndim : 1, item = tsr_tensor_itemsize(src);
    walk w = {.nd = nd, .nop = 3};
    w.base[0] = tsr_tensor_ptr(out, NULL);
    w.base[1] = tsr_tensor_ptr(src, NULL);
    w.base[2] = tsr_tensor_ptr(index, NULL);
    for (int i = 0; i < nd; i++) {
        w.sizes[i] = index->ndim ? index->sizes[i] : 1;
        w.st[0][i] = index->ndim ? out->strides[i] * item : 0;
        w.st[1][i] = 0;
        w.st[2][i] = index->ndim ? index->strides[i] * 8 : 0;
    }
    int oi[1] = {2};
    int64_t size[1] = {n}, step[1] = {item}, bad[2];
    int r = tsr__dev_index_walk(src->device, "aten::take", TSR_KI_GATHER, src->dtype, &w, 0, 1, 1, oi, size, step, true,
                                NULL, tsr_scalar_int(1), bad);
    if (r == 1) {
        tsr_error_set(TSR_ERR_INDEX, "out of range: tried to access index %" PRId64 " on a tensor of %" PRId64
                                     " elements.", bad[0], n);
        r = -1;
    }
    return r;
}

tsr_tensor *tsr_take(const tsr_tensor *self, const tsr_tensor *index)
{
    if (index->dtype != TSR_INT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "take(): Expected a long tensor for index, but got %s",
                      tsr_dtype_scalar_name(index->dtype));
        return NULL;
    }
    if (tsr_tensor_is_meta(self) || tsr_tensor_is_meta(index)) { tsr_meta_refused("take"); return NULL; }
    int64_t n = tsr_tensor_numel(self), m = tsr_tensor_numel(index);
    if (n == 0 && m != 0) {
        tsr_error_set(TSR_ERR_INDEX, "take(): tried to take from an empty tensor");
        return NULL;
    }
    tsr_tensor *src = tsr_contiguous(self, TSR_MF_CONTIGUOUS);
    tsr_tensor *out = src ? tsr_tensor_empty(index->ndim, index->sizes, self->dtype, self->device) : NULL;
    if (!out) { tsr_tensor_release(src); return NULL; }
    if (tsr__dev_external(self) || tsr__dev_external(index)) {
        int r = m ? take_dev(src, index, out, n) : 0;
        tsr_tensor_release(src);
        if (r < 0) tsr_tensor_release(out);
        return r < 0 ? NULL : out;
    }
    int item = tsr_tensor_itemsize(self);
    const char *s = m ? tsr_tensor_ptr(src, NULL) : NULL;
    char *o = m ? tsr_tensor_ptr(out, NULL) : NULL;
    for (int64_t i = 0; i < m; i++) {
        int64_t v = tsr_tensor_get_int64_at(index, i);
        if (v < -n || v >= n) {
            tsr_error_set(TSR_ERR_INDEX, "out of range: tried to access index %" PRId64 " on a tensor of %" PRId64
                                         " elements.", v, n);
            tsr_tensor_release(out);
            out = NULL;
            break;
        }
        copy_item(o + i * item, s + (v < 0 ? v + n : v) * item, item);
    }
    tsr_tensor_release(src);
    return out;
}

typedef struct { int item; int64_t cnt, total; char *out; } ms_ctx;

static int ms_count(char **p, const int64_t *inner, int64_t n, int64_t row, void *ctx)
{
    ms_ctx *c = ctx;
    (void)row;
    int64_t k = 0;
    if (inner[1] == 1)
        for (int64_t i = 0; i < n; i++) k += p[1][i] != 0;
    else
        for (int64_t i = 0; i < n; i++) k += p[1][i * inner[1]] != 0;
    c->cnt += k;
    return 0;
}

static int ms_fill(char **p, const int64_t *inner, int64_t n, int64_t row, void *ctx)
{
    ms_ctx *c = ctx;
    (void)row;
    if (inner[1] == 1 && inner[0] == c->item && (c->item == 4 || c->item == 8)) {
        /* branch-free: write every element, advance past the selected ones */
        const char *m = p[1], *src = p[0];
        char *o = c->out;
        int64_t k = c->cnt;
        int64_t i = 0, last = c->total - 1; /* the slot past the end is never written */
        if (c->item == 4)
            for (; i < n && k < last; i++) { memcpy(o + k * 4, src + i * 4, 4); k += m[i] != 0; }
        else
            for (; i < n && k < last; i++) { memcpy(o + k * 8, src + i * 8, 8); k += m[i] != 0; }
        for (; i < n; i++)
            if (m[i]) memcpy(o + k++ * c->item, src + i * c->item, (size_t)c->item);
        c->cnt = k;
        return 0;
    }
    for (int64_t i = 0; i < n; i++)
        if (p[1][i * inner[1]]) copy_item(c->out + c->cnt++ * c->item, p[0] + i * inner[0], c->item);
    return 0;
}

/* masked_select of s and m (expanded to one shape) on a device: the
 * mask's nonzero coordinates, as row-major offsets, taken from s.
 * NEW reference or NULL. */
static tsr_tensor *masked_select_dev(const tsr_tensor *s, const tsr_tensor *m)
{
    int64_t one = 1, stride = 1;
    tsr_tensor *s1 = s->ndim ? tsr_tensor_retain((tsr_tensor *)s) : tsr_view_view(s, 1, &one);
    tsr_tensor *m1 = !s1 ? NULL : m->ndim ? tsr_tensor_retain((tsr_tensor *)m) : tsr_view_view(m, 1, &one);
    tsr_tensor *nz = m1 ? tsr__dev_nonzero(m1) : NULL, *lin = NULL, *out = NULL;
    for (int k = nz ? m1->ndim - 1 : -1; k >= 0; k--) {   /* lin = sum of nz[:, k] * row-major stride */
        tsr_tensor *col = tsr_view_select(nz, 1, k), *t = NULL;
        if (col) {
            tsr_operand a = tsr_operand_tensor(col), b = tsr_operand_scalar(tsr_scalar_int(stride));
            t = tsr_binary(TSR_BINOP_MUL, &a, &b, NULL, NULL);
            tsr_tensor_release(col);
        }
        if (t && lin) {
            tsr_operand x = tsr_operand_tensor(lin), y = tsr_operand_tensor(t);
            tsr_tensor *u = tsr_binary(TSR_BINOP_ADD, &x, &y, NULL, NULL);
            tsr_tensor_release(t);
            tsr_tensor_release(lin);
            lin = u;
        } else if (!lin) {
            lin = t;
        }
        if (!lin) break;
        stride *= m1->sizes[k];
    }
    if (lin) out = tsr_take(s1, lin);
    tsr_tensor_release(lin);
    tsr_tensor_release(nz);
    tsr_tensor_release(s1);
    tsr_tensor_release(m1);
    return out;
}

tsr_tensor *tsr_masked_select(const tsr_tensor *self, const tsr_tensor *mask)
{
    if (mask->dtype != TSR_BOOL && mask->dtype != TSR_UINT8) {
        tsr_error_set(TSR_ERR_RUNTIME, "masked_select: expected BoolTensor or ByteTensor for mask");
        return NULL;
    }
    if (tsr_tensor_is_meta(self) || tsr_tensor_is_meta(mask)) { tsr_meta_refused("masked_select"); return NULL; }
    int nds[2] = {mask->ndim, self->ndim};
    const int64_t *szs[2] = {mask->sizes, self->sizes};
    int64_t shape[TSR_MAX_DIMS];
    int nd = tsr_broadcast_shapes(2, nds, szs, shape);
    if (nd < 0) return NULL;
    tsr_tensor *s = tsr_view_expand(self, nd, shape), *m = s ? tsr_view_expand(mask, nd, shape) : NULL;
    tsr_tensor *out = NULL;
    if (!m) goto done;
    if (tsr__dev_external(self) || tsr__dev_external(mask)) {   /* at::index(self, {mask}) as 1.13's cuda path */
        out = masked_select_dev(s, m);
        goto done;
    }
    walk w = {.nd = nd, .nop = 2};
    memcpy(w.sizes, shape, sizeof(int64_t) * (size_t)nd);
    walk_operand(&w, 0, s);
    walk_operand(&w, 1, m);
    ms_ctx c = {.item = tsr_tensor_itemsize(self)};
    if (walk_run(&w, ms_count, &c) < 0) goto done;
    out = tsr_tensor_empty(1, &c.cnt, self->dtype, self->device);
    if (!out || !c.cnt) goto done;
    c.out = tsr_tensor_ptr(out, NULL);
    c.total = c.cnt;
    c.cnt = 0;
    if (walk_run(&w, ms_fill, &c) < 0) { tsr_tensor_release(out); out = NULL; }
done:
    tsr_tensor_release(s);
    tsr_tensor_release(m);
    return out;
}

/* ------------------------------------------------------------ index_reduce */

/* 1.13's index_reduce meta checks (TensorAdvancedIndexing.cpp: the reduce
 * name, the dim, index_func_meta_impl) and the index range; d: the wrapped
 * dim. 0 or -1. */
static int index_reduce_check(const tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *src,
                              const char *reduce, int *d)
{
    if (strcmp(reduce, "prod") && strcmp(reduce, "mean") && strcmp(reduce, "amax") && strcmp(reduce, "amin")) {
        tsr_error_set(TSR_ERR_RUNTIME, "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got %s.",
                      reduce);
        return -1;
    }
    if ((*d = tsr_wrap_dim(dim, self->ndim)) < 0) return -1;
    int64_t numel = tsr_tensor_numel(index);
    if (index->ndim > 1) {
        char sz[256];
        int k = snprintf(sz, sizeof sz, "[");
        for (int i = 0; i < index->ndim && k < (int)sizeof sz - 24; i++)
            k += snprintf(sz + k, sizeof sz - (size_t)k, "%s%" PRId64, i ? ", " : "", index->sizes[i]);
        snprintf(sz + k, sizeof sz - (size_t)k, "]");
        tsr_error_set(TSR_ERR_INDEX, "index_reduce_(): Index is supposed to be a vector, but got dim: %d with type: %s "
                      "and size: %s", index->ndim, tsr_dtype_scalar_name(index->dtype), sz);
        return -1;
    }
    if (index->dtype != TSR_INT64 && index->dtype != TSR_INT32) {
        tsr_error_set(TSR_ERR_RUNTIME, "index_reduce_(): Expected dtype int32/int64 for index but got: %s",
                      tsr_dtype_scalar_name(index->dtype));
        return -1;
    }
    if (self->dtype != src->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "index_reduce_(): self (%s) and source (%s) must have the same scalar type",
                      tsr_dtype_scalar_name(self->dtype), tsr_dtype_scalar_name(src->dtype));
        return -1;
    }
    if (!(*d == 0 || *d < src->ndim)) {
        tsr_error_set(TSR_ERR_INDEX, "index_reduce_(): Indexing dim %d is out of bounds of the source tensor with dim %d",
                      *d, src->ndim);
        return -1;
    }
    int64_t ssz = src->ndim == 0 ? 1 : src->sizes[*d];
    if (numel != ssz) {
        tsr_error_set(TSR_ERR_RUNTIME, "index_reduce_(): Number of indices (%" PRId64 ") should be equal to "
                      "source.size(dim): (%" PRId64 "), for dim: %d", numel, ssz, *d);
        return -1;
    }
    int64_t len = self->ndim == 0 ? 1 : self->sizes[*d];
    for (int64_t i = 0; i < numel; i++) {
        int64_t ix = tsr_tensor_get_int64_at(index, i);
        if (ix < 0 || ix >= len) {
            tsr_error_set(TSR_ERR_INDEX, "index out of range in self");
            return -1;
        }
    }
    return 0;
}

int tsr_index_reduce_(tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *src,
                      const char *reduce, bool include_self)
{
    int d;
    if (index_reduce_check(self, dim, index, src, reduce, &d) < 0) return -1;
    if (self->ndim == 0 || tsr_tensor_numel(index) == 0) {
        if (self->ndim == 0) {
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "index_reduce of a 0-dim tensor is not implemented in tsr");
            return -1;
        }
        return 0;
    }
    /* source.select(dim, i) meets self.select(dim, index[i]) broadcast: source expanded to self's sizes with
     * dim of length numel(index), and index laid along dim over that shape (scatter_reduce's index) */
    int64_t sizes[TSR_MAX_DIMS], isz[TSR_MAX_DIMS];
    for (int i = 0; i < self->ndim; i++) {
        sizes[i] = i == d ? tsr_tensor_numel(index) : self->sizes[i];
        isz[i] = i == d ? sizes[i] : 1;
    }
    tsr_tensor *se = tsr_view_expand(src, self->ndim, sizes), *i64 = NULL, *iv = NULL, *ie = NULL, *ic = NULL;
    int rc = -1;
    if (!se) goto out;
    if (!(i64 = tsr_to_dtype(index, TSR_INT64, false)) || !(iv = tsr_reshape(i64, self->ndim, isz)) ||
        !(ie = tsr_view_expand(iv, self->ndim, sizes)) || !(ic = tsr_clone(ie, TSR_MF_CONTIGUOUS)))
        goto out;
    rc = tsr_scatter_reduce_two_(self, d, ic, se, reduce, include_self);
out:
    if (se) tsr_tensor_release(se);
    if (i64) tsr_tensor_release(i64);
    if (iv) tsr_tensor_release(iv);
    if (ie) tsr_tensor_release(ie);
    if (ic) tsr_tensor_release(ic);
    return rc;
}

tsr_tensor *tsr_index_reduce(const tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *src,
                             const char *reduce, bool include_self)
{
    int d;
    if (index_reduce_check(self, dim, index, src, reduce, &d) < 0) return NULL;
    tsr_tensor *out = tsr_clone(self, TSR_MF_CONTIGUOUS);
    if (out && tsr_index_reduce_(out, dim, index, src, reduce, include_self) < 0) {
        tsr_tensor_release(out);
        return NULL;
    }
    return out;
}
