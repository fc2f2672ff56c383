/* src/bind/attrs.c — the Tensor's attribute queries, copies, fills and
 * conversions (size, stride, item, copy_, fill_, set_, the cast methods, cpu,
 * cuda, to, type ...) and the Python number protocols (__int__ ...) as rows
 * of the binding table with PyTorch 1.13's signatures. torch.is_tensor is
 * Python code in 1.13 and keeps a Python def's errors. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "autograd.h"

#include "bind/table.h"
#include "bind/areas.h"
#include "bind/tensor.h"
#include "format.h"

typedef enum {
    K_SIZE, K_STRIDE, K_STORAGE_OFFSET, K_DIM, K_NELEMENT, K_ELEMENT_SIZE, K_GET_DEVICE, K_IS_SIGNED, K_DATA_PTR,
    K_IS_CONTIGUOUS, K_IS_SET_TO, K_CONTIGUOUS, K_CLONE, K_NUMEL, K_IS_FLOATING_POINT, K_IS_COMPLEX, K_ITEM, K_TOLIST,
    K_ZERO_, K_FILL_, K_FILL, K_FILL_DIAGONAL_, K_COPY_, K_REQUIRES_GRAD_, K_TYPE_AS, K_CPU, K_CUDA, K_CAST, K_RESIZE_, K_RESIZE_AS_, K_SET_,
    K_TO, K_TYPE, K_INT, K_FLOAT, K_COMPLEX, K_INDEX, K_FORMAT, K_IS_CONJ, K_IS_NEG, K_ADJOINT,
} Kind;

/* A tensor result that may be self's own header (contiguous(), to()): the
 * same Python object then, as PyTorch returns `self`. Steals t. */
static Value *v_tensor_or_self(Value *self, tsr_tensor *t)
{
    if (t && t == tensor_of(self)) {
        tsr_tensor_release(t);
        return incref(self);
    }
    return v_tensor(t);
}

/* Replaces self's header (set_, resize_): other Values holding the old
 * header keep it, as views of the old geometry. Steals t. */
static Value *replace_header(Value *self, tsr_tensor *t)
{
    if (!t) return bind_runtime_error();
    tsr_tensor *old = tensor_of(self);
    self->u.ext.ptr = t;
    tsr_tensor_release(old);
    return incref(self);
}

static Value *done(Value *self, int rc) { return rc < 0 ? bind_runtime_error() : incref(self); }

/* ------------------------------------------------------------ queries */

static Value *run_dim_query(const BindRow *row, BindArgs *b, tsr_tensor *t)
{
    bool stride = row->kind == K_STRIDE;
    int64_t d, r;
    if (b->sig == 1) {
        if (!stride) return v_size(t->ndim, t->sizes);
        Value *tup = v_tuple((size_t)t->ndim);
        for (int i = 0; i < t->ndim; i++) tup->u.seq.items[i] = v_int(t->strides[i]);
        return tup;
    }
    if (b->sig == 2) {   /* Dimname? dim: None is the runtime's "Please look up dimensions by name" */
        int w = tsr_dim_of_name(t, b->v[1] ? b->v[1]->u.s.p : NULL);
        if (w < 0) return bind_runtime_error();
        return v_int(stride ? t->strides[w] : t->sizes[w]);
    }
    if (bind_table_int(b, 1, 0, &d) < 0) return NULL;
    if (tsr_tensor_dim_query(t, d, stride, &r) < 0) return bind_runtime_error();
    return v_int(r);
}

static Value *tolist_rec(const tsr_tensor *t, int dim, int64_t *idx)
{
    if (dim == t->ndim) {
        tsr_scalar s;
        if (tsr_tensor_get(t, idx, &s) < 0) return bind_runtime_error();
        return v_from_scalar(s);
    }
    Value *l = v_list_sized((size_t)t->sizes[dim]);
    if (!l) return NULL;
    for (int64_t i = 0; i < t->sizes[dim]; i++) {
        idx[dim] = i;
        Value *e = value_memory_check() < 0 ? NULL : tolist_rec(t, dim + 1, idx);
        if (!e) { l->u.seq.n = (size_t)i; decref(l); return NULL; }
        l->u.seq.items[i] = e;
    }
    return l;
}

static Value *run_data_ptr(tsr_tensor *t)
{
    if (t->sparse) return exc_set("RuntimeError", "Cannot access data pointer of Tensor that doesn't have storage");
    if (tsr_tensor_is_meta(t) || !t->storage->data) return v_int(0);
    return v_int((int64_t)(intptr_t)((char *)t->storage->data + t->storage_offset * tsr_tensor_itemsize(t)));
}

/* ------------------------------------------------------------ changes in place */

static Value *run_copy_(Value *self, BindArgs *b)
{
    Value *src = b->v[1];
    if (is_tensor(src)) return done(self, tsr_copy_(tensor_of(self), tensor_of(src)));
    tsr_scalar s;   /* a Python number (1.13 lets numbers stand for Tensors in copy_) */
    if (bind_scalar(src, "copy_", "other", &s) < 0) return NULL;
    return done(self, tsr_fill_(tensor_of(self), s));
}

static Value *run_fill_(Value *self, BindArgs *b)
{
    if (b->sig == 0) return done(self, tsr_fill_tensor_(tensor_of(self), tensor_of(b->v[1])));
    tsr_scalar s;
    if (bind_scalar(b->v[1], "fill_", "value", &s) < 0) return NULL;
    return done(self, tsr_fill_checked_(tensor_of(self), s));
}

/* fill_diagonal_(fill_value, wrap=False), as 1.13's Fill.cpp: the main
 * diagonal (strides summed) as_strided and filled, then for a tall matrix
 * with wrap the rows below, restarting every width + 1 rows. Autograd (an
 * in-place write through as_strided views) is not recorded: refused. */
static Value *run_fill_diagonal_(Value *self, BindArgs *b)
{
    tsr_tensor *t = tensor_of(self);
    tsr_scalar s;
    int wrap = b->v[2] ? value_truth(b->v[2]) : 0;
    if (wrap < 0 || bind_scalar(b->v[1], "fill_diagonal_", "fill_value", &s) < 0) return NULL;
    if (t->ndim < 2) return exc_set("RuntimeError", "dimensions must larger than 1");
    for (int i = 1; i < t->ndim; i++)
        if (t->ndim > 2 && t->sizes[i] != t->sizes[0])
            return exc_set("RuntimeError", "all dimensions of input must be of equal length");
    if (tsr_ag_needed(1, &t))   /* the write goes through an as_strided view of t */
        return tsr_tensor_is_leaf(t)
                   ? exc_set("RuntimeError", "a view of a leaf Variable that requires grad is being used in an "
                                             "in-place operation.")
                   : exc_set("NotImplementedError", "the derivative for 'fill_diagonal_' is not implemented.");
    int64_t h = t->sizes[0], w = t->sizes[1], stride = 0, size = h < w ? h : w;
    for (int i = 0; i < t->ndim; i++) stride += t->strides[i];
    tsr_tensor *d = tsr_view_as_strided(t, 1, &size, &stride, t->storage_offset);
    int rc = d ? tsr_fill_checked_(d, s) : -1;
    if (d) tsr_tensor_release(d);
    if (rc == 0 && wrap && t->ndim == 2 && h > w + 1) {
        int64_t step = w + 1, wsize = (tsr_tensor_numel(t) + step - 1) / step - size;
        d = tsr_view_as_strided(t, 1, &wsize, &stride, t->storage_offset + t->strides[0] * (w + 1));
        rc = d ? tsr_fill_checked_(d, s) : -1;
        if (d) tsr_tensor_release(d);
    }
    return done(self, rc);
}

static Value *run_resize_(Value *self, const char *fname, BindArgs *b)
{
    int64_t sizes[TSR_MAX_DIMS];
    int n;
    tsr_memory_format mf = TSR_MF_CONTIGUOUS;
    Value *mv = bind_table_arg(b, "memory_format");
    if (bind_table_intlist(b, 1, fname, sizes, TSR_MAX_DIMS, &n) < 0) return NULL;
    if (mv && bind_memory_format_arg(mv, TSR_MF_CONTIGUOUS, &mf) < 0) return NULL;
    return replace_header(self, tsr_tensor_resized_format(tensor_of(self), n, sizes, mv != NULL, mf));
}

/* resize_as_ (1.13): resize_ to the template's sizes; an explicit
 * memory_format restrides, preserve_format meaning the template's suggestion. */
static Value *run_resize_as_(Value *self, BindArgs *b)
{
    tsr_tensor *tpl = tensor_of(b->v[1]);
    tsr_memory_format mf = TSR_MF_CONTIGUOUS;
    Value *mv = bind_table_arg(b, "memory_format");
    if (mv && bind_memory_format_arg(mv, TSR_MF_CONTIGUOUS, &mf) < 0) return NULL;
    if (mf == TSR_MF_PRESERVE) mf = tsr_tensor_suggest_memory_format(tpl);
    return replace_header(self, tsr_tensor_resized_format(tensor_of(self), tpl->ndim, tpl->sizes, mv != NULL, mf));
}

static Value *run_set_(Value *self, const char *fname, BindArgs *b)
{
    tsr_tensor *t = tensor_of(self);
    int64_t off = 0, sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    int n = 1, ns = 0;
    switch (b->sig) {
    case 0: {
        tsr_storage *s = tsr_storage_new(0, t->dtype, t->device);
        if (!s) return bind_runtime_error();
        int64_t zero = 0;
        tsr_tensor *r = tsr_tensor_from_storage(s, 0, 1, &zero, NULL, t->dtype);
        tsr_storage_release(s);
        return replace_header(self, r);
    }
    case 1:
        sizes[0] = storage_len(b->v[1]);
        return replace_header(self, tsr_tensor_set_storage(t, storage_of(b->v[1]), storage_dtype(b->v[1]), 0, 1, sizes,
                                                           0, NULL));
    case 3: return replace_header(self, tsr_tensor_set_source(t, tensor_of(b->v[1])));
    default: break;
    }
    if (bind_table_int(b, 2, 0, &off) < 0 || bind_table_intlist(b, 3, fname, sizes, TSR_MAX_DIMS, &n) < 0 ||
        (b->v[4] && bind_table_intlist(b, 4, fname, strides, TSR_MAX_DIMS, &ns) < 0))
        return NULL;
    if (b->sig == 2)
        return replace_header(self, tsr_tensor_set_storage(t, storage_of(b->v[1]), storage_dtype(b->v[1]), off, n, sizes,
                                                           ns, ns ? strides : NULL));
    /* set_(Tensor source, offset, size, stride): source's storage read as
     * self's dtype, unchecked as in 1.13 */
    tsr_tensor *src = tensor_of(b->v[1]);
    return replace_header(self, tsr_tensor_set_storage(t, src->storage, t->dtype, off, n, sizes, ns, ns ? strides : NULL));
}

/* ------------------------------------------------------------ conversions */

static Value *run_cuda(Value *self, BindArgs *b)
{
    tsr_device dev = {TSR_DEV_CUDA, -1};
    Value *dv = b->v[1];
    if (dv && bind_device_arg(dv, dev, &dev) < 0) return NULL;
    if (dv && dv->type == &t_str && dev.type != TSR_DEV_CUDA)
        return exc_set("RuntimeError", "Invalid device, must be cuda device");
    return v_tensor_or_self(self, tsr_to_device(tensor_of(self), tsr_device_normalize(dev), TSR_DTYPE_UNDEFINED, false));
}

static Value *run_type_as(Value *self, tsr_tensor *o)
{
    tsr_tensor *t = tensor_of(self);
    if (tsr_device_equal(o->device, t->device)) return v_tensor_or_self(self, tsr_to_dtype(t, o->dtype, false));
    return v_tensor_or_self(self, tsr_to_device(t, o->device, o->dtype, false));
}

/* ------------------------------------------------------------ to(), type(), numbers */

/* "torch.FloatTensor" for x.type(); NULL with PyTorch's error for meta etc. */
static bool type_string(const tsr_tensor *t, char *buf, size_t n)
{
    const tsr_dtype_traits *tr = tsr_dtype_traits_of(t->dtype);
    switch (t->device.type) {
    case TSR_DEV_CPU: snprintf(buf, n, "torch.%s", tr->tensor_type); return true;
    case TSR_DEV_CUDA: snprintf(buf, n, "torch.cuda.%s", tr->tensor_type); return true;
    default:
        exc_set("RuntimeError", "Unimplemented backend %s", tsr_device_backend_name(t->device.type));
        return false;
    }
}

static Value *to_dtype_value(Value *self, tsr_dtype dt, bool copy)
{
    return v_tensor_or_self(self, tsr_to_dtype(tensor_of(self), dt, copy));
}

/* x.type(dtype): a dtype, a type object or a 'torch.FloatTensor' string
 * (THPVariable_type); without one, the type's name. */
static Value *run_type(Value *self, BindArgs *b)
{
    Value *v = b->v[1];
    tsr_tensor *t = tensor_of(self);
    char buf[64];
    if (!v || is_none(v)) {
        if (!type_string(t, buf, sizeof buf)) return NULL;
        return v_str(buf);
    }
    tsr_dtype dt = TSR_DTYPE_UNDEFINED;
    bool cuda = false;
    if (is_dtype(v)) dt = dtype_of(v);
    else if (v->type == &t_str || v->type == &t_type) {
        const char *s = v->type == &t_str ? v->u.s.p : v->u.typeobj->name;
        const char *p = s;
        if (!strncmp(p, "torch.cuda.", 11)) { cuda = true; p += 11; }
        else if (!strncmp(p, "torch.", 6)) p += 6;
        else if (v->type == &t_str) p = "";
        dt = tsr_dtype_from_tensor_type(p);
        if (dt == TSR_DTYPE_UNDEFINED) return exc_set("ValueError", "invalid type: '%s'", s);
    } else {
        return exc_set("TypeError", "dtype must be a type, str, or dtype object");
    }
    if (cuda || (t->device.type == TSR_DEV_CUDA && v->type != &t_str && !is_dtype(v))) {
        tsr_device dev = {TSR_DEV_CUDA, -1};
        return v_tensor_or_self(self, tsr_to_device(t, tsr_device_normalize(dev), dt, false));
    }
    return to_dtype_value(self, dt, false);
}

/* x.to(device, dtype) / to(dtype) / to(tensor), then non_blocking, copy and
 * memory_format (python_variable_methods.cpp parse_to_conversion). */
static Value *run_to(Value *self, BindArgs *b)
{
    tsr_tensor *t = tensor_of(self);
    int base = b->sig == 0 ? 2 : 1;   /* the slot before non_blocking */
    Value *copy_v = b->v[base + 2], *mf_v = b->v[base + 3];
    bool copy = copy_v && copy_v->u.i != 0;
    tsr_dtype dt = TSR_DTYPE_UNDEFINED;
    tsr_device dev = t->device;
    if (b->sig == 2) {
        dt = tensor_of(b->v[1])->dtype;
        dev = tensor_of(b->v[1])->device;
    } else if (b->sig == 1) {
        dt = dtype_of(b->v[1]);
    } else {
        if (b->v[2]) dt = dtype_of(b->v[2]);
        if (b->v[1]) {
            if (bind_device_arg(b->v[1], t->device, &dev) < 0) return NULL;
            dev = tsr_device_normalize(dev);
            if (dev.type != TSR_DEV_CPU && dev.type != TSR_DEV_CUDA && dev.type != TSR_DEV_META)
                return exc_set("RuntimeError", "PyTorch is not linked with support for %s devices",
                               tsr_device_type_name(dev.type));
        }
    }
    if (mf_v) {
        tsr_memory_format mf;
        if (bind_memory_format_arg(mf_v, TSR_MF_PRESERVE, &mf) < 0) return NULL;
        if (mf != TSR_MF_PRESERVE) return v_tensor_or_self(self, tsr_to_format(t, dev, dt, copy, mf));
    }
    if (tsr_device_equal(dev, t->device)) {
        if (dt == TSR_DTYPE_UNDEFINED) dt = t->dtype;
        return to_dtype_value(self, dt, copy);
    }
    return v_tensor_or_self(self, tsr_to_device(t, dev, dt, copy));
}

/* int(x), float(x), complex(x), operator.index(x): the single element
 * (python_variable_methods.cpp THPVariable_integral_scalar ...). */
static Value *run_number(Kind k, tsr_tensor *t)
{
    tsr_scalar s;
    int64_t ix;
    if (k == K_INDEX) return tsr_tensor_index(t, &ix) < 0 ? bind_runtime_error() : v_int(ix);
    if (tsr_tensor_item(t, &s) < 0) return bind_runtime_error();
    double re, im;
    switch (k) {
    case K_INT:
        if (s.kind == TSR_SCALAR_FLOAT) {
            Value *f = v_float(s.d);
            Value *r = value_call0(dict_get_str(bind_builtins(), "int"), 1, &f);
            decref(f);
            return r;
        }
        if (s.kind == TSR_SCALAR_COMPLEX) {
            /* item<int64_t>(): c10::checked_convert refuses an imaginary part */
            if (s.im != 0 || !(s.re >= -9223372036854775808.0 && s.re < 9223372036854775808.0))
                return exc_set("RuntimeError", "value cannot be converted to type int64_t without overflow");
            return v_int((int64_t)s.re);
        }
        return v_int(tsr_scalar_to_int64(s));
    case K_FLOAT:
        if (s.kind == TSR_SCALAR_COMPLEX && s.im != 0)   /* item<double>(): c10::checked_convert */
            return exc_set("RuntimeError", "value cannot be converted to type double without overflow");
        return v_float(tsr_scalar_to_double(s));
    default:
        tsr_scalar_to_complex(s, &re, &im);
        return v_complex(re, im);
    }
}

/* The handler of every row of this area. */
static Value *attrs_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)inplace;
    Value *in = b->v[0];
    tsr_tensor *t = tensor_of(in);
    tsr_memory_format mf;
    tsr_scalar s;
    bool on = true;
    switch ((Kind)row->kind) {
    case K_SIZE: case K_STRIDE: return run_dim_query(row, b, t);
    case K_STORAGE_OFFSET: return v_int(t->storage_offset);   /* meta views keep theirs, as 1.13 */
    case K_DIM: return v_int(t->ndim);
    case K_NELEMENT: case K_NUMEL: return v_int(tsr_tensor_numel(t));
    case K_ELEMENT_SIZE: return v_int(tsr_tensor_itemsize(t));
    case K_GET_DEVICE: return v_int(t->device.type == TSR_DEV_CUDA ? (t->device.index < 0 ? 0 : t->device.index) : -1);
    case K_IS_SIGNED: return v_bool(tsr_dtype_is_signed(t->dtype));
    case K_DATA_PTR: return run_data_ptr(t);
    case K_IS_CONTIGUOUS:
        if (bind_memory_format_arg(b->v[1], TSR_MF_CONTIGUOUS, &mf) < 0) return NULL;
        return v_bool(tsr_tensor_is_contiguous_as(t, mf == TSR_MF_PRESERVE ? TSR_MF_CONTIGUOUS : mf));
    case K_IS_SET_TO: return v_bool(tsr_tensor_is_set_to(t, tensor_of(b->v[1])));
    case K_CONTIGUOUS:
        if (bind_memory_format_arg(b->v[1], TSR_MF_CONTIGUOUS, &mf) < 0) return NULL;
        return v_tensor_or_self(in, tsr_contiguous(t, mf));
    case K_CLONE:
        if (bind_memory_format_arg(b->v[1], TSR_MF_PRESERVE, &mf) < 0) return NULL;
        return v_tensor(tsr_clone(t, mf));
    case K_IS_FLOATING_POINT: return v_bool(tsr_dtype_is_floating(t->dtype));
    case K_IS_COMPLEX: return v_bool(tsr_dtype_is_complex(t->dtype));
    case K_IS_CONJ: return v_bool(t->conj);
    case K_IS_NEG: return v_bool(t->neg);
    case K_ADJOINT:
        if (t->ndim == 1)
            return exc_set("RuntimeError", "tensor.adjoint() is only supported on matrices or batches of matrices. "
                           "Got 1-D tensor.");
        return v_tensor(bind_grad_adjoint(t, tsr_view_mH(t)));
    case K_ITEM:
        if (tsr_tensor_item(t, &s) < 0) return bind_runtime_error();
        return v_from_scalar(s);
    case K_TOLIST: {
        if (tsr_tensor_is_meta(t)) return exc_set("NotImplementedError", "Cannot copy out of meta tensor; no data!");
        int64_t idx[TSR_MAX_DIMS] = {0};
        if (t->device.type == TSR_DEV_CPU) return tolist_rec(t, 0, idx);
        tsr_tensor *h = tsr_to_device(t, TSR_CPU, t->dtype, false);   /* a device's values, fetched once */
        if (!h) return bind_runtime_error();
        Value *r = tolist_rec(h, 0, idx);
        tsr_tensor_release(h);
        return r;
    }
    case K_ZERO_: return done(in, tsr_zero_(t));
    case K_FILL_: return run_fill_(in, b);
    case K_FILL_DIAGONAL_: return run_fill_diagonal_(in, b);
    case K_FILL: {   /* torch.fill(input, value): 1.13's empty_like(input).fill_(value) */
        tsr_tensor *r = tsr_empty_like(t, t->dtype, t->device, TSR_MF_PRESERVE);
        if (!r) return bind_runtime_error();
        Value *rv = v_tensor(r), *res = run_fill_(rv, b);
        decref(rv);
        return res;
    }
    case K_COPY_: return run_copy_(in, b);
    case K_REQUIRES_GRAD_:
        if (b->v[1]) on = b->v[1]->u.i != 0;
        return done(in, tsr_autograd_set_requires_grad(t, on, true));
    case K_TYPE_AS: return run_type_as(in, tensor_of(b->v[1]));
    case K_CPU: return v_tensor_or_self(in, tsr_to_device(t, TSR_CPU, TSR_DTYPE_UNDEFINED, false));
    case K_CUDA: return run_cuda(in, b);
    case K_CAST:
        if (bind_memory_format_arg(b->v[1], TSR_MF_PRESERVE, &mf) < 0) return NULL;
        return v_tensor_or_self(in, tsr_to_format(t, t->device, (tsr_dtype)row->code, false, mf));
    case K_RESIZE_: return run_resize_(in, fname, b);
    case K_RESIZE_AS_: return run_resize_as_(in, b);
    case K_SET_: return run_set_(in, fname, b);
    case K_TO: return run_to(in, b);
    case K_TYPE: return run_type(in, b);
    case K_INT: case K_FLOAT: case K_COMPLEX: case K_INDEX: return run_number((Kind)row->kind, t);
    case K_FORMAT: { /* torch/_tensor.py Tensor.__format__: a 0-dim tensor formats its item() */
        Value *spec = b->v[1];
        if (t->ndim == 0 && !tsr_tensor_is_meta(t)) {
            if (tsr_tensor_item(t, &s) < 0) return bind_runtime_error();
            Value *x = v_from_scalar(s);
            Value *r = format_value(x, spec->u.s.p, spec->u.s.n);
            decref(x);
            return r;
        }
        if (spec->u.s.n) return exc_set("TypeError", "unsupported format string passed to Tensor.__format__");
        return value_str(in);
    }
    }
    (void)self;
    return exc_set("RuntimeError", "internal error: attrs kind %d", row->kind);
}

/* ------------------------------------------------------------ is_tensor */

/* torch.is_tensor is Python code in 1.13 (def is_tensor(obj)). */
static Value *f_is_tensor(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *obj[1];
    if (bind_args(a, "is_tensor", "def obj", obj) < 0) return NULL;
    return v_bool(is_tensor(obj[0]));
}

/* ------------------------------------------------------------ the table */

#define FM (BIND_FN | BIND_METHOD)
#define M BIND_METHOD
/* a Tensor method NAME_ that is also the function torch.NAME_(input, ...) writing input */
#define MFI (BIND_FN | BIND_METHOD | BIND_FN_INPLACE)
#define ROWX(n, k, c, fl, hm, s) {.name = n, .kind = k, .code = c, .flags = fl, .hidden_m = hm, .sigs = s, \
                                  .handler = attrs_call}
#define ROW(n, k, fl, s) ROWX(n, k, 0, fl, 0, s)
#define DIMQ "Tensor self, int dim|Tensor self|Tensor self, Dimname? dim"
#define MF_KW "Tensor self, *, MemoryFormat? memory_format=None"

static BindRow defs[] = {
    ROW("size", K_SIZE, M, DIMQ),
    ROW("stride", K_STRIDE, M, DIMQ),
    ROW("storage_offset", K_STORAGE_OFFSET, M, "Tensor self"),
    ROW("dim", K_DIM, M, "Tensor self"),
    ROW("ndimension", K_DIM, M, "Tensor self"),
    ROW("nelement", K_NELEMENT, M, "Tensor self"),
    ROW("element_size", K_ELEMENT_SIZE, M, "Tensor self"),
    ROW("get_device", K_GET_DEVICE, FM, "Tensor input"),
    ROW("is_signed", K_IS_SIGNED, M, "Tensor self"),
    ROW("data_ptr", K_DATA_PTR, M, "Tensor self"),
    ROW("is_contiguous", K_IS_CONTIGUOUS, M, "Tensor self, *, MemoryFormat memory_format=contiguous_format"),
    ROW("is_set_to", K_IS_SET_TO, M, "Tensor self, Tensor tensor"),
    ROW("contiguous", K_CONTIGUOUS, M, "Tensor self, *, MemoryFormat memory_format=contiguous_format"),
    ROW("clone", K_CLONE, FM, "Tensor input, *, MemoryFormat? memory_format=None"),
    ROW("numel", K_NUMEL, FM, "Tensor input"),
    ROW("is_floating_point", K_IS_FLOATING_POINT, FM, "Tensor input"),
    ROW("is_complex", K_IS_COMPLEX, FM, "Tensor input"),
    ROW("is_conj", K_IS_CONJ, FM, "Tensor input"),
    ROW("is_neg", K_IS_NEG, FM, "Tensor input"),
    ROW("adjoint", K_ADJOINT, FM, "Tensor input"),
    ROW("item", K_ITEM, M, "Tensor self"),
    ROW("tolist", K_TOLIST, M, "Tensor self"),
    ROW("zero_", K_ZERO_, MFI, "Tensor input"),
    ROW("fill_", K_FILL_, MFI, "Tensor input, Tensor value|Tensor input, Number value"),
    ROW("fill", K_FILL, BIND_FN, "Tensor input, Tensor value|Tensor input, Number value"),
    ROW("fill_diagonal_", K_FILL_DIAGONAL_, M, "Tensor self, Scalar fill_value, bool wrap=False"),
    ROWX("copy_", K_COPY_, 0, M | BIND_NUMS, 1, "Tensor self, Tensor other, bool non_blocking=False"),
    ROW("requires_grad_", K_REQUIRES_GRAD_, M, "Tensor self, bool requires_grad=True"),
    ROW("type_as", K_TYPE_AS, M, "Tensor self, Tensor other"),
    ROW("cpu", K_CPU, M, MF_KW),
    ROW("cuda", K_CUDA, M,
        "Tensor self, Device? device=None, bool non_blocking=False, *, MemoryFormat? memory_format=None|"
        "!Tensor self, Device? device=None, bool async=False, *, MemoryFormat? memory_format=None"),
#define X(ID, num, nm, al, kn, sn, T, C, CD, R, A, AD, cat, cxx, tm, sh, LD, ST, re, cx, meth) \
    ROWX(meth, K_CAST, TSR_##ID, M, 0, MF_KW),
    TSR_DTYPES(X)
#undef X
    ROW("resize_", K_RESIZE_, M, "Tensor self, SymInt[] size, *, MemoryFormat? memory_format=None"),
    ROW("resize_as_", K_RESIZE_AS_, MFI, "Tensor input, Tensor the_template, *, MemoryFormat? memory_format=None"),
    ROW("set_", K_SET_, M,
        "Tensor self|Tensor self, Storage source|"
        "Tensor self, Storage source, int storage_offset, int[] size, int[]? stride=None|Tensor self, Tensor source|"
        "Tensor self, Tensor source, SymInt storage_offset, SymInt[] size, SymInt[]? stride=None"),
    ROW("to", K_TO, M,
        "Tensor self, Device? device=None, dtype? dtype=None, bool non_blocking=False, bool copy=False, *, "
        "MemoryFormat? memory_format=None|"
        "Tensor self, dtype dtype, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None|"
        "Tensor self, Tensor tensor, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None"),
    ROWX("type", K_TYPE, 0, M, 1,
         "Tensor self, object dtype=None, bool non_blocking=False, *, MemoryFormat? memory_format=None|"
         "!Tensor self, object dtype=None, bool async=False, *, MemoryFormat? memory_format=None"),
    ROW("__int__", K_INT, M, "Tensor self"),
    ROW("__float__", K_FLOAT, M, "Tensor self"),
    ROW("__complex__", K_COMPLEX, M, "Tensor self"),
    ROW("__index__", K_INDEX, M, "Tensor self"),
    ROW("__format__", K_FORMAT, M, "Tensor self, c10::string_view format_spec"),
};

void bind_attrs_init(void)
{
    bind_table_register(defs, (int)(sizeof defs / sizeof defs[0]));
    module_add(bind_module("torch"), "is_tensor", v_builtin("is_tensor", f_is_tensor, NULL, NULL));
}
