/* src/bind/numpy.c — the small `numpy` module of seed 003's bridge: arrays
 * are strided views over tsr storages (a runtime tensor header each), so
 * x.numpy(), torch.from_numpy(a) and torch.as_tensor(a) share memory both
 * ways. Only the subset below exists; any other name is NumPy's
 * AttributeError, never an approximation. Printing: show/ndarray_str.c;
 * .npy bytes: runtime/io/npy.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bind/devguard.h"
#include "bind/numpy.h"
#include "bind/tensor.h"
#include "autograd.h"
#include "io/npy.h"
#include "ops/copy.h"
#include "ops/factory.h"
#include "ops/random.h"
#include "show/show.h"
#include "view.h"

/* ------------------------------------------------------------ dtypes */

/* The NumPy dtypes that tsr has: every tsr dtype but complex32 and
 * bfloat16. ORDER DTYPE (indexed by tsr_dtype). */
static const char *const np_names[TSR_DTYPE_SLOTS] = {
    [TSR_UINT8] = "uint8", [TSR_INT8] = "int8", [TSR_INT16] = "int16", [TSR_INT32] = "int32",
    [TSR_INT64] = "int64", [TSR_FLOAT16] = "float16", [TSR_FLOAT32] = "float32", [TSR_FLOAT64] = "float64",
    [TSR_COMPLEX64] = "complex64", [TSR_COMPLEX128] = "complex128", [TSR_BOOL] = "bool_",
};

static Value *scalar_repr(Value *v);
static Value *scalar_getattr(Value *v, const char *name);
static Value *scalar_construct(Value *self, CallArgs *a, void *data);
static Value *scalar_compare(int op, Value *self, Value *other, int reflected);
static int scalar_truth(Value *v);
static uint64_t scalar_hash(Value *v, int *ok);
static void tensor_payload_destroy(Value *v) { tsr_tensor_release((tsr_tensor *)v->u.ext.ptr); }

#define SCALAR_TYPE(ID)                                                                                          \
    [TSR_##ID] = {.module = "numpy", .destroy = tensor_payload_destroy, .repr = scalar_repr,                     \
                  .getattr = scalar_getattr, .construct = scalar_construct, .compare = scalar_compare,            \
                  .truth = scalar_truth, .hash = scalar_hash}
static VType scalar_types[TSR_DTYPE_SLOTS] = {
    SCALAR_TYPE(UINT8), SCALAR_TYPE(INT8), SCALAR_TYPE(INT16), SCALAR_TYPE(INT32), SCALAR_TYPE(INT64),
    SCALAR_TYPE(FLOAT16), SCALAR_TYPE(FLOAT32), SCALAR_TYPE(FLOAT64), SCALAR_TYPE(COMPLEX64),
    SCALAR_TYPE(COMPLEX128), SCALAR_TYPE(BOOL),
};

static bool has_np(tsr_dtype d) { return tsr_dtype_valid(d) && np_names[d]; }

/* np.dtype values: repr dtype('float32'), str float32 */
static Value *dtype_repr(Value *v) { return v_strf("dtype('%s')", tsr_dtype_name((tsr_dtype)v->u.ext.a)); }
static Value *dtype_str(Value *v) { return v_str(tsr_dtype_name((tsr_dtype)v->u.ext.a)); }
static int dtype_arg(Value *v, tsr_dtype dflt, tsr_dtype *out);

static Value *dtype_compare(int op, Value *self, Value *other, int reflected)
{
    (void)reflected;
    if (op != OP_EQ && op != OP_NE) return value_not_implemented();
    tsr_dtype o;
    bool eq;
    if (dtype_arg(other, TSR_DTYPE_UNDEFINED, &o) < 0) { exc_clear(); eq = false; }
    else eq = o == (tsr_dtype)self->u.ext.a;
    return v_bool(op == OP_EQ ? eq : !eq);
}

static Value *dtype_getattr(Value *v, const char *name)
{
    tsr_dtype d = (tsr_dtype)v->u.ext.a;
    if (!strcmp(name, "name")) return v_str(tsr_dtype_name(d));
    if (!strcmp(name, "itemsize")) return v_int(tsr_dtype_itemsize(d));
    if (!strcmp(name, "type")) return v_typeobj(&scalar_types[d]);
    if (!strcmp(name, "str")) return v_str(tsr_npy_descr(d));
    return exc_set("AttributeError", "'numpy.dtype[%s]' object has no attribute '%s'", np_names[d], name);
}

static uint64_t dtype_hash(Value *v, int *ok) { (void)ok; return (uint64_t)v->u.ext.a * 0x9e3779b97f4a7c15ull; }
static int dtype_eq(Value *a, Value *b) { return b->type == a->type && a->u.ext.a == b->u.ext.a; }

static Value *dtype_construct(Value *self, CallArgs *a, void *data);
static const VType t_npdtype = {.name = "dtype", .module = "numpy", .repr = dtype_repr, .str = dtype_str,
                                .compare = dtype_compare, .getattr = dtype_getattr, .hash = dtype_hash,
                                .eq = dtype_eq, .construct = dtype_construct};

static Value *v_npdtype(tsr_dtype d)
{
    Value *v = value_alloc(&t_npdtype);
    v->u.ext.a = d;
    return v;
}

/* A dtype= argument as NumPy reads it: None -> dflt, a scalar type
 * (np.float32), a dtype, a name ('float32', 'f4', '<f4'), or Python's
 * bool/int/float/complex. -1 with NumPy's TypeError otherwise. */
static int dtype_arg(Value *v, tsr_dtype dflt, tsr_dtype *out)
{
    if (!v || is_none(v)) { *out = dflt; return 0; }
    if (v->type == &t_npdtype) { *out = (tsr_dtype)v->u.ext.a; return 0; }
    if (v->type == &t_type) {
        const VType *t = v->u.typeobj;
        for (int d = 0; d < TSR_DTYPE_SLOTS; d++)
            if (t == &scalar_types[d] && np_names[d]) { *out = (tsr_dtype)d; return 0; }
        if (t == &t_bool) { *out = TSR_BOOL; return 0; }
        if (t == &t_int) { *out = TSR_INT64; return 0; }
        if (t == &t_float) { *out = TSR_FLOAT64; return 0; }
        if (t == &t_complex) { *out = TSR_COMPLEX128; return 0; }
    }
    if (v->type == &t_str) {
        const char *s = v->u.s.p;
        static const struct { const char *name; tsr_dtype d; } alias[] = {
            {"bool", TSR_BOOL}, {"?", TSR_BOOL}, {"b1", TSR_BOOL}, {"int", TSR_INT64}, {"float", TSR_FLOAT64},
            {"complex", TSR_COMPLEX128}, {"double", TSR_FLOAT64}, {"single", TSR_FLOAT32}, {"half", TSR_FLOAT16},
            {"f2", TSR_FLOAT16}, {"f4", TSR_FLOAT32}, {"f8", TSR_FLOAT64}, {"i1", TSR_INT8}, {"i2", TSR_INT16},
            {"i4", TSR_INT32}, {"i8", TSR_INT64}, {"u1", TSR_UINT8}, {"c8", TSR_COMPLEX64}, {"c16", TSR_COMPLEX128},
        };
        for (int d = 0; d < TSR_DTYPE_SLOTS; d++)
            if (np_names[d] && (!strcmp(s, np_names[d]) || !strcmp(s, tsr_dtype_name((tsr_dtype)d)))) {
                *out = (tsr_dtype)d;
                return 0;
            }
        const char *k = (s[0] == '<' || s[0] == '|' || s[0] == '=') ? s + 1 : s;
        for (size_t i = 0; i < sizeof alias / sizeof *alias; i++)
            if (!strcmp(k, alias[i].name) && (k == s || strlen(alias[i].name) <= 3)) { *out = alias[i].d; return 0; }
        return exc_seti("TypeError", "data type '%s' not understood", s);
    }
    Value *r = value_repr(v);
    if (!r) return -1;
    exc_seti("TypeError", "Cannot interpret '%s' as a data type", r->u.s.p);
    decref(r);
    return -1;
}

static Value *dtype_construct(Value *self, CallArgs *a, void *data)
{
    (void)self; (void)data;
    Value *x[1];
    if (bind_args(a, "dtype", "dtype", x) < 0) return NULL;
    if (is_none(x[0])) return v_npdtype(TSR_FLOAT64);
    tsr_dtype d;
    if (dtype_arg(x[0], TSR_FLOAT64, &d) < 0) return NULL;
    return v_npdtype(d);
}

/* ------------------------------------------------------------ scalars */

/* A NumPy scalar of dtype d holding the value of the 0-dim t (copied). */
static Value *v_npscalar(const tsr_tensor *t)
{
    tsr_tensor *c = tsr_clone(t, TSR_MF_CONTIGUOUS);
    if (!c) return bind_runtime_error();
    Value *v = value_alloc(&scalar_types[t->dtype]);
    v->u.ext.ptr = c;
    return v;
}

static tsr_scalar scalar_value(Value *v)
{
    tsr_scalar s = tsr_scalar_int(0);
    tsr_tensor_get((tsr_tensor *)v->u.ext.ptr, NULL, &s);
    return s;
}

static tsr_dtype scalar_dtype(Value *v) { return ((tsr_tensor *)v->u.ext.ptr)->dtype; }

bool numpy_is_scalar(Value *v)
{
    return v->type >= &scalar_types[0] && v->type < &scalar_types[TSR_DTYPE_SLOTS];
}

static Value *scalar_repr(Value *v) { return show_npscalar_str(scalar_dtype(v), scalar_value(v)); }

/* the scalar as the Python number .item() gives */
static Value *scalar_item(Value *v)
{
    tsr_dtype d = scalar_dtype(v);
    tsr_scalar s = scalar_value(v);
    if (d == TSR_BOOL) return v_bool(s.i != 0);
    if (tsr_dtype_is_complex(d)) return v_complex(s.re, s.im);
    if (tsr_dtype_is_floating(d)) return v_float(tsr_scalar_to_double(s));
    return v_int(tsr_scalar_to_int64(s));
}

tsr_dtype numpy_scalar_dtype(Value *v) { return scalar_dtype(v); }
Value *numpy_scalar_item(Value *v) { return scalar_item(v); }

static Value *m_scalar_item(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (args_meth_noargs(a, "item") < 0) return NULL;
    return scalar_item(self);
}

/* float(s), int(s), operator.index(s) */
static Value *m_scalar_number(Value *self, CallArgs *a, void *data)
{
    if (a->npos || a->nkw) return exc_set("TypeError", "expected 0 arguments, got %d", a->npos + a->nkw);
    Value *x = scalar_item(self);
    const char *kind = data;
    if (kind[0] == 'i' && x->type == &t_float) {
        double f = x->u.f;
        decref(x);
        if (isnan(f)) return exc_set("ValueError", "cannot convert float NaN to integer");
        if (isinf(f)) return exc_set("OverflowError", "cannot convert float infinity to integer");
        return v_int((int64_t)f);
    }
    if (kind[0] == 'f' && x->type != &t_float && x->type != &t_complex) {
        double f = (double)x->u.i;
        decref(x);
        return v_float(f);
    }
    if (x->type == &t_complex) {
        decref(x);
        return exc_set("TypeError", "tsr's numpy complex scalars convert only with .item()");
    }
    if (kind[0] == 'i' && x->type == &t_bool) { int64_t i = x->u.i; decref(x); return v_int(i); }
    return x;
}

static Value *scalar_getattr(Value *v, const char *name)
{
    tsr_dtype d = scalar_dtype(v);
    if (!strcmp(name, "__float__")) return v_builtin("__float__", m_scalar_number, v, (void *)"f");
    if (!strcmp(name, "__int__")) return v_builtin("__int__", m_scalar_number, v, (void *)"i");
    if (!strcmp(name, "__index__") && tsr_dtype_is_integral(d, true))
        return v_builtin("__index__", m_scalar_number, v, (void *)"i");
    if (!strcmp(name, "dtype")) return v_npdtype(d);
    if (!strcmp(name, "item")) return v_builtin("item", m_scalar_item, v, NULL);
    if (!strcmp(name, "shape")) return v_tuple(0);
    if (!strcmp(name, "ndim")) return v_int(0);
    if (!strcmp(name, "size")) return v_int(1);
    if (!strcmp(name, "itemsize")) return v_int(tsr_dtype_itemsize(d));
    return exc_set("AttributeError", "'numpy.%s' object has no attribute '%s'", np_names[d], name);
}

/* Comparisons as the Python numbers (NumPy answers numpy.bool_, which
 * prints the same). */
static Value *scalar_compare(int op, Value *self, Value *other, int reflected)
{
    (void)reflected;
    Value *a = scalar_item(self);
    Value *b = numpy_is_scalar(other) ? scalar_item(other) : incref(other);
    Value *r = value_compare(op, a, b);
    decref(a);
    decref(b);
    return r;
}

static int scalar_truth(Value *v)
{
    Value *x = scalar_item(v);
    int r = value_truth(x);
    decref(x);
    return r;
}

static uint64_t scalar_hash(Value *v, int *ok)
{
    Value *x = scalar_item(v);
    uint64_t h = value_hash(x, ok);
    decref(x);
    return h;
}

/* np.float32(x) and the other scalar types called: the value of x (a
 * Python number, a NumPy scalar or a 0-d array) converted as NumPy casts;
 * no argument gives zero. */
static Value *scalar_construct(Value *self, CallArgs *a, void *data)
{
    (void)data;
    const VType *t = self->u.typeobj;
    tsr_dtype d = (tsr_dtype)(t - scalar_types);
    if (a->nkw) return exc_set("TypeError", "%s() takes no keyword arguments", np_names[d]);
    if (a->npos > 1) return exc_set("TypeError", "%s() takes at most 1 argument (%d given)", np_names[d], a->npos);
    tsr_tensor *z = tsr_zeros(0, NULL, d, TSR_CPU);
    if (!z) return bind_runtime_error();
    if (a->npos == 1) {
        Value *x = a->pos[0];
        tsr_scalar s;
        if (numpy_is_scalar(x)) s = scalar_value(x);
        else if (numpy_is_array(x) && numpy_tensor(x)->ndim == 0) tsr_tensor_get(numpy_tensor(x), NULL, &s);
        else if (x->type == &t_bool) s = tsr_scalar_int(x->u.i != 0), s.kind = TSR_SCALAR_BOOL;
        else if (x->type == &t_int) s = tsr_scalar_int(x->u.i);
        else if (x->type == &t_float) s = tsr_scalar_float(x->u.f);
        else if (x->type == &t_complex) s = tsr_scalar_complex(x->u.c.re, x->u.c.im);
        else {
            tsr_tensor_release(z);
            return exc_set("TypeError", "%s() argument must be a number, not '%s'", np_names[d], type_name(x));
        }
        if (tsr_tensor_set(z, NULL, s) < 0) { tsr_tensor_release(z); return bind_runtime_error(); }
    }
    Value *v = value_alloc(&scalar_types[d]);
    v->u.ext.ptr = z;
    return v;
}

/* ------------------------------------------------------------ arrays */

static void array_destroy(Value *v) { tsr_tensor_release((tsr_tensor *)v->u.ext.ptr); }
static Value *array_repr(Value *v) { return show_ndarray_repr(numpy_tensor(v)); }
static Value *array_str(Value *v) { return show_ndarray_str(numpy_tensor(v)); }
static Value *array_getattr(Value *v, const char *name);
static Value *array_getitem(Value *v, Value *key);
static int array_setitem(Value *v, Value *key, Value *x);

static int64_t array_len(Value *v)
{
    tsr_tensor *t = numpy_tensor(v);
    if (t->ndim == 0) return exc_seti("TypeError", "len() of unsized object");
    return t->sizes[0];
}

static int array_truth(Value *v)
{
    tsr_tensor *t = numpy_tensor(v);
    if (tsr_tensor_numel(t) == 0) return 0;   /* NumPy 1.24: False, with a DeprecationWarning */
    if (tsr_tensor_numel(t) != 1)
        return exc_seti("ValueError", "The truth value of an array with more than one element is ambiguous. "
                                      "Use a.any() or a.all()");
    double re, im;
    tsr_tensor_get_complex_at(t, 0, &re, &im);
    return re != 0 || im != 0;
}

/* iter(a): the rows a[0], a[1], ... (scalars for a 1-d array) */
static Value *array_iter(Value *v)
{
    tsr_tensor *t = numpy_tensor(v);
    if (t->ndim == 0) return exc_set("TypeError", "iteration over a 0-d array");
    Value *l = v_list(0);
    for (int64_t i = 0; i < t->sizes[0]; i++) {
        Value *k = v_int(i);
        Value *e = array_getitem(v, k);
        decref(k);
        if (!e) { decref(l); return NULL; }
        list_append_steal(l, e);
    }
    Value *it = v_seq_iter(l);
    decref(l);
    return it;
}

/* NumPy's operators work elementwise; tsr's arrays have none, and say so
 * rather than answer as plain objects (a == 1 would be False) */
static Value *array_compare(int op, Value *self, Value *other, int reflected)
{
    (void)reflected;
    return exc_set("TypeError", "tsr's numpy arrays have no operators ('%s' between '%s' and '%s'); use "
                   "torch.from_numpy(a)", op_symbol[op], type_name(self), type_name(other));
}

const VType t_ndarray = {.iter = array_iter, .compare = array_compare, .name = "ndarray", .module = "numpy", .destroy = array_destroy, .repr = array_repr,
                         .str = array_str, .getattr = array_getattr, .getitem = array_getitem,
                         .setitem = array_setitem, .len = array_len, .truth = array_truth};

bool numpy_is_array(Value *v) { return v->type == &t_ndarray; }
tsr_tensor *numpy_tensor(Value *v) { return (tsr_tensor *)v->u.ext.ptr; }

/* An array over t (steals t; NULL t: the runtime error). */
static Value *v_array(tsr_tensor *t)
{
    if (t && t->device.type != TSR_DEV_CPU) {   /* made under a non-CPU default device: arrays live on the host */
        tsr_tensor *h = tsr_to_device(t, TSR_CPU, t->dtype, false);
        tsr_tensor_release(t);
        t = h;
    }
    if (!t) return bind_runtime_error();
    Value *v = value_alloc(&t_ndarray);
    v->u.ext.ptr = t;
    return v;
}

/* A new header over t's storage with t's geometry: shares memory, is no
 * view in PyTorch's sense (from_numpy's tensor has no _base). */
static tsr_tensor *share(const tsr_tensor *t)
{
    return tsr_tensor_from_storage(t->storage, t->storage_offset, t->ndim, t->sizes, t->strides, t->dtype);
}

Value *numpy_from_tensor(Value *x, bool force)
{
    tsr_tensor *t = tensor_of(x);
    if (t->layout != TSR_LAYOUT_STRIDED) {
        const char *l = t->layout == TSR_LAYOUT_SPARSE_COO ? "Sparse" : tsr_layout_name(t->layout);
        return exc_set("TypeError", "can't convert %s layout tensor to numpy. Use Tensor.dense() first.", l);
    }
    if (!force) {
        if (t->device.type != TSR_DEV_CPU) {
            char dev[64];
            tsr_device_str(t->device, dev, sizeof dev);
            return exc_set("TypeError", "can't convert %s device type tensor to numpy. Use Tensor.cpu() to copy "
                                        "the tensor to host memory first.", dev);
        }
        if (tsr_grad_enabled() && t->requires_grad)   /* under no_grad() 1.13 lets it through */
            return exc_set("RuntimeError", "Can't call numpy() on Tensor that requires grad. "
                                           "Use tensor.detach().numpy() instead.");
        if (t->conj)
            return exc_set("RuntimeError", "Can't call numpy() on Tensor that has conjugate bit set. "
                                           "Use tensor.resolve_conj().numpy() instead.");
        if (t->neg)
            return exc_set("RuntimeError", "Can't call numpy() on Tensor that has negative bit set. "
                                           "Use tensor.resolve_neg().numpy() instead.");
    }
    if (!has_np(t->dtype)) return exc_set("TypeError", "Got unsupported ScalarType %s", tsr_dtype_scalar_name(t->dtype));
    /* detach().cpu().resolve_conj().resolve_neg(): the same storage when
     * nothing had to change */
    tsr_tensor *c = tsr_to_device(t, TSR_CPU, t->dtype, false);
    if (!c) return bind_runtime_error();
    tsr_tensor *r = tsr_resolve_bits(c);
    tsr_tensor_release(c);
    if (!r) return bind_runtime_error();
    tsr_tensor *s = share(r);
    tsr_tensor_release(r);
    return v_array(s);
}

static void release_storage(void *data, void *ctx)
{
    (void)data;
    tsr_storage_release(ctx);
}

Value *numpy_to_tensor(Value *a)
{
    /* torch.from_numpy's storage starts at the array's first element
     * (storage_offset 0): a storage over the same bytes that holds the
     * array's own storage alive */
    tsr_tensor *t = numpy_tensor(a);
    int isz = tsr_dtype_itemsize(t->dtype);
    tsr_storage *base = t->storage;
    size_t skip = (size_t)t->storage_offset * (size_t)isz;
    if (t->storage_offset == 0 || !base->data || skip > base->nbytes) {
        tsr_tensor *r = share(t);
        return r ? v_tensor(r) : bind_runtime_error();
    }
    tsr_storage *s = tsr_storage_wrap((char *)base->data + skip, base->nbytes - skip, t->dtype, base->device,
                                      release_storage, tsr_storage_retain(base));
    if (!s) { tsr_storage_release(base); return bind_runtime_error(); }
    tsr_tensor *r = tsr_tensor_from_storage(s, 0, t->ndim, t->sizes, t->strides, t->dtype);
    tsr_storage_release(s);
    return r ? v_tensor(r) : bind_runtime_error();
}

/* x.numpy(*, force=False) */
static Value *m_numpy(Value *self, CallArgs *a, void *data)
{
    (void)data;
    Value *x[1];
    if (bind_args(a, "numpy", "*,force=", x) < 0) return NULL;
    bool force = false;
    if (x[0] && bind_bool(x[0], "numpy", "force", &force) < 0) return NULL;
    return numpy_from_tensor(self, force);
}

/* torch.from_numpy(ndarray) */
static Value *f_from_numpy(Value *self, CallArgs *a, void *data)
{
    (void)self; (void)data;
    if (a->nkw) return exc_set("TypeError", "from_numpy() takes no keyword arguments");
    if (a->npos != 1) return exc_set("TypeError", "from_numpy() takes exactly one argument (%d given)", a->npos);
    if (!numpy_is_array(a->pos[0])) return exc_set("TypeError", "expected np.ndarray (got %s)", type_name(a->pos[0]));
    return numpy_to_tensor(a->pos[0]);
}

/* ---- conversion of Python data (np.array's inference) ---- */

/* np.promote_types over the dtypes tsr has (numpy/core/_type_aliases;
 * unlike PyTorch, an integer and a float need a float wide enough for the
 * integer: int16 + float16 is float32, int32 + float32 is float64). */
static int np_kind(tsr_dtype d) { return d == TSR_BOOL ? 0 : tsr_dtype_is_complex(d) ? 3 : tsr_dtype_is_floating(d) ? 2 : 1; }

/* the bits of mantissa a float needs to hold an integer dtype exactly enough
 * for NumPy's table: int8/uint8 fit float16, int16 float32, others float64 */
static tsr_dtype float_for_int(tsr_dtype i)
{
    return i == TSR_INT8 || i == TSR_UINT8 ? TSR_FLOAT16 : i == TSR_INT16 ? TSR_FLOAT32 : TSR_FLOAT64;
}

static tsr_dtype float_rank_max(tsr_dtype a, tsr_dtype b)
{
    return tsr_dtype_itemsize(a) >= tsr_dtype_itemsize(b) ? a : b;
}

static tsr_dtype np_promote(tsr_dtype a, tsr_dtype b)
{
    if (a == b) return a;
    int ka = np_kind(a), kb = np_kind(b);
    if (ka > kb) { tsr_dtype t = a; a = b; b = t; int k = ka; ka = kb; kb = k; }
    if (ka == 0) return b;
    if (ka == 1 && kb == 1) return tsr_promote_types(a, b);   /* same table as c10's for these */
    if (kb == 2) {
        tsr_dtype fa = ka == 1 ? float_for_int(a) : a;
        return float_rank_max(fa, b);
    }
    /* b complex: the complex of the wider float */
    tsr_dtype fb = b == TSR_COMPLEX64 ? TSR_FLOAT32 : TSR_FLOAT64;
    tsr_dtype fa = ka == 1 ? float_for_int(a) : ka == 2 ? a : (a == TSR_COMPLEX64 ? TSR_FLOAT32 : TSR_FLOAT64);
    return float_rank_max(fa, fb) == TSR_FLOAT64 ? TSR_COMPLEX128 : TSR_COMPLEX64;
}

/* The dtype np.array gives nested data, promoted into *acc: np.promote_types
 * over every item, a Python bool, int, float or complex counting as bool,
 * int64, float64, complex128 (NumPy's discovery of scalars in sequences);
 * *acc stays undefined for data without items ([] is float64). 0, or -1
 * with the exception. */
static int infer(Value *v, tsr_dtype *acc)
{
    tsr_dtype d;
    if (v->type == &t_list || v->type == &t_tuple) {
        for (size_t i = 0; i < seq_len(v); i++)
            if (infer(seq_get(v, i), acc) < 0) return -1;
        return 0;
    }
    if (v->type == &t_bool) d = TSR_BOOL;
    else if (v->type == &t_int) d = TSR_INT64;
    else if (v->type == &t_float) d = TSR_FLOAT64;
    else if (v->type == &t_complex) d = TSR_COMPLEX128;
    else if (numpy_is_scalar(v)) d = scalar_dtype(v);
    else if (numpy_is_array(v)) d = numpy_tensor(v)->dtype;
    else if (is_tensor(v)) d = tensor_of(v)->dtype;
    else if (v->type == &t_str) {   /* tsr's arrays hold no strings: NumPy's refusal of one as a number */
        Value *r = value_repr(v);
        exc_seti("ValueError", "could not convert string to float: %s", r ? r->u.s.p : "");
        decref(r);
        return -1;
    }
    else
        return exc_seti("TypeError", "tsr's np.array() takes numbers, lists and tuples of numbers, arrays and "
                                     "tensors, not '%s'", type_name(v));
    *acc = *acc == TSR_DTYPE_UNDEFINED ? d : np_promote(*acc, d);
    return 0;
}

static Value *m_tolist(Value *self, CallArgs *a, void *d);

/* Lists with NumPy scalars or arrays inside as plain Python numbers and
 * lists (new reference), so that the tensor factory reads them. */
static Value *plain(Value *v)
{
    if (numpy_is_scalar(v)) return scalar_item(v);
    if (numpy_is_array(v)) {
        CallArgs none = {0};
        return m_tolist(v, &none, NULL);
    }
    if (v->type != &t_list && v->type != &t_tuple) return incref(v);
    Value *l = v_list(0);
    for (size_t i = 0; i < seq_len(v); i++) {
        Value *p = plain(seq_get(v, i));
        if (!p) { decref(l); return NULL; }
        list_append_steal(l, p);
    }
    return l;
}

/* A new tensor (own storage) with the values of obj as np.array(obj,
 * dtype) makes them. */
static tsr_tensor *array_data(Value *obj, tsr_dtype dt)
{
    if (numpy_is_array(obj)) {
        tsr_tensor *t = numpy_tensor(obj);
        tsr_tensor *r = tsr_to_device(t, TSR_CPU, dt == TSR_DTYPE_UNDEFINED ? t->dtype : dt, true);
        if (!r) bind_runtime_error();
        return r;
    }
    if (is_tensor(obj)) {
        Value *a = numpy_from_tensor(obj, false);
        if (!a) return NULL;
        tsr_tensor *r = array_data(a, dt);
        decref(a);
        return r;
    }
    tsr_dtype found = TSR_DTYPE_UNDEFINED;
    if (infer(obj, &found) < 0) return NULL;
    if (dt == TSR_DTYPE_UNDEFINED) dt = found == TSR_DTYPE_UNDEFINED ? TSR_FLOAT64 : found;   /* [] is float64 */
    Value *p = plain(obj);
    if (!p) return NULL;
    /* torch.tensor(p, dtype=dt) reads the nested numbers (through the
     * module: bind/factory.c includes this area's header) */
    Value *fn = dict_get_str(bind_module("torch")->u.mod->attrs, "tensor");
    Value *dv = v_dtype(dt), *cpu = v_device(TSR_CPU);   /* on the host whatever the default device */
    const char *kwn[2] = {"dtype", "device"};
    Value *kwv[2] = {dv, cpu};
    CallArgs ca = {.pos = &p, .npos = 1, .kwnames = kwn, .kw = kwv, .nkw = 2};
    Value *r = fn ? value_call(fn, &ca) : exc_set("RuntimeError", "torch.tensor is missing");
    decref(dv);
    decref(cpu);
    decref(p);
    if (!r) return NULL;
    tsr_tensor *t = tsr_tensor_retain(tensor_of(r));
    decref(r);
    return t;
}

/* ---- indexing (basic: ints, slices, None, ...) ---- */

static int is_index_int(Value *k, int64_t *out)
{
    if (k->type == &t_int) { *out = k->u.i; return 1; }
    if (numpy_is_scalar(k) && tsr_dtype_is_integral(scalar_dtype(k), false)) {
        *out = tsr_scalar_to_int64(scalar_value(k));
        return 1;
    }
    return 0;
}

static Value *bad_index(void)
{
    return exc_set("IndexError", "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
                                 "integer or boolean arrays are valid indices");
}

/* The view a[key] selects (new reference), and whether key holds an
 * Ellipsis; NULL with IndexError. The geometry is NumPy's: a new axis has
 * stride 0, a slice multiplies the stride by its step. */
static tsr_tensor *index_view(tsr_tensor *t, Value *key, bool *ellipsis)
{
    Value *one[1] = {key};
    Value **items = one;
    size_t n = 1;
    if (key->type == &t_tuple) { items = key->u.seq.items; n = seq_len(key); }
    int consumed = 0, nell = 0, nnew = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t iv;
        Value *k = items[i];
        if (k->type == &t_ellipsis) nell++;
        else if (is_index_int(k, &iv) || k->type == &t_slice) consumed++;
        else if (is_none(k)) nnew++;
        else return bad_index(), NULL;
    }
    if (nell > 1) return exc_set("IndexError", "an index can only have a single ellipsis ('...')"), NULL;
    if (consumed > t->ndim)
        return exc_set("IndexError", "too many indices for array: array is %d-dimensional, but %d were indexed",
                       t->ndim, consumed), NULL;
    if (t->ndim - consumed + nnew > TSR_MAX_DIMS)
        return exc_set("IndexError", "number of dimensions must be within [0, %d], indexing result would have %d",
                       TSR_MAX_DIMS, t->ndim - consumed + nnew), NULL;
    *ellipsis = nell > 0;
    int64_t sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS], offset = t->storage_offset;
    int d = 0, src = 0;   /* output dim, input dim */
    for (size_t i = 0; i <= n; i++) {
        Value *k = i < n ? items[i] : NULL;
        int64_t iv;
        if (!k || k->type == &t_ellipsis) {
            int skip = k ? t->ndim - consumed : t->ndim - src;   /* at the end: the dims left */
            for (int j = 0; j < skip; j++, d++, src++) { sizes[d] = t->sizes[src]; strides[d] = t->strides[src]; }
        } else if (is_none(k)) {
            sizes[d] = 1;
            strides[d++] = 0;
        } else if (is_index_int(k, &iv)) {
            int64_t size = t->sizes[src];
            if (iv < -size || iv >= size)
                return exc_set("IndexError", "index %lld is out of bounds for axis %d with size %lld", (long long)iv,
                               src, (long long)size), NULL;
            offset += (iv < 0 ? iv + size : iv) * t->strides[src];
            src++;
        } else {
            int64_t start, stop, step, count;
            if (slice_indices(k, t->sizes[src], &start, &stop, &step, &count) < 0) return NULL;
            if (step < 0)
                return exc_set("NotImplementedError", "tsr's numpy arrays have no negative strides (slice step %lld)",
                               (long long)step), NULL;
            if (count) offset += start * t->strides[src];
            sizes[d] = count;
            strides[d++] = t->strides[src] * step;
            src++;
        }
    }
    tsr_tensor *r = tsr_tensor_from_storage(t->storage, offset, d, sizes, strides, t->dtype);
    if (!r) bind_runtime_error();
    return r;
}

static Value *array_getitem(Value *v, Value *key)
{
    bool ell;
    tsr_tensor *r = index_view(numpy_tensor(v), key, &ell);
    if (!r) return NULL;
    if (r->ndim == 0 && !ell) {
        Value *s = v_npscalar(r);
        tsr_tensor_release(r);
        return s;
    }
    return v_array(r);
}

/* NumPy's shape text in messages: (2,3), (3,), () */
static void shape_text(const tsr_tensor *t, char *buf, size_t n)
{
    size_t k = (size_t)snprintf(buf, n, "(");
    for (int d = 0; d < t->ndim && k < n; d++)
        k += (size_t)snprintf(buf + k, n - k, d ? ",%lld" : "%lld", (long long)t->sizes[d]);
    if (k < n) snprintf(buf + k, n - k, t->ndim == 1 ? ",)" : ")");
}

/* The source of an assignment fitted to dst's shape as NumPy broadcasts it
 * (leading size-1 dimensions dropped, then each dimension 1 or equal): a
 * view of src, or NULL with NumPy's ValueError. */
static tsr_tensor *broadcast_source(tsr_tensor *src, tsr_tensor *dst, bool from_list)
{
    int lead = 0;
    while (src->ndim - lead > dst->ndim && src->sizes[lead] == 1) lead++;
    bool ok = src->ndim - lead <= dst->ndim;
    for (int d = 0; ok && d < src->ndim - lead; d++) {
        int64_t s = src->sizes[src->ndim - 1 - d], t = dst->sizes[dst->ndim - 1 - d];
        ok = s == 1 || s == t;
    }
    if (!ok) {
        if (from_list && dst->ndim == 0) return exc_set("ValueError", "setting an array element with a sequence."), NULL;
        char a[TSR_MAX_DIMS * 24], b[TSR_MAX_DIMS * 24];
        shape_text(src, a, sizeof a);
        shape_text(dst, b, sizeof b);
        return exc_set("ValueError", "could not broadcast input array from shape %s into shape %s", a, b), NULL;
    }
    tsr_tensor *r = tsr_view_view(src, src->ndim - lead, src->sizes + lead);
    if (!r) bind_runtime_error();
    return r;
}

static int array_setitem(Value *v, Value *key, Value *x)
{
    bool ell;
    tsr_tensor *r = index_view(numpy_tensor(v), key, &ell);
    if (!r) return -1;
    int rc;
    if (x->type == &t_bool || x->type == &t_int || x->type == &t_float || x->type == &t_complex ||
        numpy_is_scalar(x)) {
        Value *p = plain(x);
        tsr_scalar s;
        if (p->type == &t_bool) s = tsr_scalar_int(p->u.i != 0), s.kind = TSR_SCALAR_BOOL;
        else if (p->type == &t_int) s = tsr_scalar_int(p->u.i);
        else if (p->type == &t_float) s = tsr_scalar_float(p->u.f);
        else s = tsr_scalar_complex(p->u.c.re, p->u.c.im);
        decref(p);
        rc = tsr_fill_(r, s);
    } else {
        tsr_tensor *src = array_data(x, r->dtype);
        if (!src) { tsr_tensor_release(r); return -1; }
        tsr_tensor *fit = broadcast_source(src, r, x->type == &t_list || x->type == &t_tuple);
        tsr_tensor_release(src);
        if (!fit) { tsr_tensor_release(r); return -1; }
        rc = tsr_copy_(r, fit);
        tsr_tensor_release(fit);
    }
    tsr_tensor_release(r);
    return rc < 0 ? bind_runtime_errori() : 0;
}

/* ---- attributes and methods ---- */

static Value *tolist(const tsr_tensor *t, int d, int64_t *idx)
{
    if (d == t->ndim) {
        tsr_scalar s;
        if (tsr_tensor_get(t, idx, &s) < 0) return bind_runtime_error();
        if (t->dtype == TSR_BOOL) return v_bool(s.i != 0);
        if (tsr_dtype_is_complex(t->dtype)) return v_complex(s.re, s.im);
        if (tsr_dtype_is_floating(t->dtype)) return v_float(tsr_scalar_to_double(s));
        return v_int(tsr_scalar_to_int64(s));
    }
    Value *l = v_list(0);
    for (int64_t i = 0; i < t->sizes[d]; i++) {
        idx[d] = i;
        Value *x = tolist(t, d + 1, idx);
        if (!x) { decref(l); return NULL; }
        list_append_steal(l, x);
    }
    return l;
}

static Value *m_tolist(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (args_meth_noargs(a, "tolist") < 0) return NULL;
    int64_t idx[TSR_MAX_DIMS];
    return tolist(numpy_tensor(self), 0, idx);
}

static Value *m_item(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (a->npos || a->nkw) return exc_set("TypeError", "tsr's ndarray.item() takes no arguments");
    tsr_tensor *t = numpy_tensor(self);
    if (tsr_tensor_numel(t) != 1)
        return exc_set("ValueError", "can only convert an array of size 1 to a Python scalar");
    int64_t idx[TSR_MAX_DIMS] = {0};
    return tolist(t, t->ndim, idx);
}

static Value *m_astype(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *x[1];
    if (bind_args(a, "astype", "dtype", x) < 0) return NULL;
    tsr_dtype dt;
    if (dtype_arg(x[0], TSR_FLOAT64, &dt) < 0) return NULL;
    return v_array(array_data(self, dt));
}

static Value *m_copy(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (a->npos || a->nkw) return exc_set("TypeError", "tsr's ndarray.copy() takes no arguments");
    return v_array(tsr_clone(numpy_tensor(self), TSR_MF_CONTIGUOUS));   /* order='C' */
}

static Value *int_tuple(int n, const int64_t *v, int64_t mul)
{
    Value *t = v_tuple((size_t)n);
    for (int i = 0; i < n; i++) t->u.seq.items[i] = v_int(v[i] * mul);
    return t;
}

static Value *array_getattr(Value *v, const char *name)
{
    tsr_tensor *t = numpy_tensor(v);
    int isz = tsr_dtype_itemsize(t->dtype);
    if (!strcmp(name, "shape")) return int_tuple(t->ndim, t->sizes, 1);
    if (!strcmp(name, "strides")) return int_tuple(t->ndim, t->strides, isz);
    if (!strcmp(name, "dtype")) return v_npdtype(t->dtype);
    if (!strcmp(name, "ndim")) return v_int(t->ndim);
    if (!strcmp(name, "size")) return v_int(tsr_tensor_numel(t));
    if (!strcmp(name, "itemsize")) return v_int(isz);
    if (!strcmp(name, "nbytes")) return v_int(tsr_tensor_numel(t) * isz);
    if (!strcmp(name, "T")) {
        int64_t perm[TSR_MAX_DIMS];
        for (int d = 0; d < t->ndim; d++) perm[d] = t->ndim - 1 - d;
        tsr_tensor *r = tsr_view_permute(t, t->ndim, perm);
        if (r) tsr_tensor_unview(r);
        return v_array(r);
    }
    static const struct { const char *name; BuiltinFn fn; } methods[] = {
        {"tolist", m_tolist}, {"item", m_item}, {"astype", m_astype}, {"copy", m_copy},
    };
    for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
        if (!strcmp(name, methods[i].name)) return v_builtin(methods[i].name, methods[i].fn, v, NULL);
    return exc_set("AttributeError", "'numpy.ndarray' object has no attribute '%s'", name);
}

/* ------------------------------------------------------------ module functions */

/* np.array(object, dtype=None, *, copy=True) */
static Value *np_array(Value *self, CallArgs *a, void *data)
{
    (void)self; (void)data;
    Value *x[3];
    if (bind_args(a, "array", "object,dtype=,*,copy=", x) < 0) return NULL;
    tsr_dtype dt;
    if (dtype_arg(x[1], TSR_DTYPE_UNDEFINED, &dt) < 0) return NULL;
    bool copy = true;
    if (x[2] && bind_bool(x[2], "array", "copy", &copy) < 0) return NULL;
    if (!copy && numpy_is_array(x[0]) && (dt == TSR_DTYPE_UNDEFINED || dt == numpy_tensor(x[0])->dtype))
        return incref(x[0]);
    return v_array(array_data(x[0], dt));
}

/* np.asarray(a, dtype=None): a itself when nothing changes; a tensor's
 * memory is shared (Tensor.__array__ is x.numpy()). */
static Value *np_asarray(Value *self, CallArgs *a, void *data)
{
    (void)self; (void)data;
    Value *x[2];
    if (bind_args(a, "asarray", "a,dtype=", x) < 0) return NULL;
    tsr_dtype dt;
    if (dtype_arg(x[1], TSR_DTYPE_UNDEFINED, &dt) < 0) return NULL;
    Value *arr = NULL;
    if (numpy_is_array(x[0])) arr = incref(x[0]);
    else if (is_tensor(x[0])) arr = numpy_from_tensor(x[0], false);
    else return v_array(array_data(x[0], dt));
    if (!arr || dt == TSR_DTYPE_UNDEFINED || dt == numpy_tensor(arr)->dtype) return arr;
    Value *r = v_array(array_data(arr, dt));
    decref(arr);
    return r;
}

/* A shape argument: an int or a sequence of ints. */
static int shape_arg(Value *v, const char *fname, int *n, int64_t *sizes)
{
    if (v->type == &t_int || numpy_is_scalar(v)) {
        *n = 1;
        if (!is_index_int(v, &sizes[0])) return exc_seti("TypeError", "'%s' object cannot be interpreted as an integer", type_name(v));
    } else if (v->type == &t_tuple || v->type == &t_list) {
        if (seq_len(v) > TSR_MAX_DIMS) return exc_seti("ValueError", "maximum supported dimension for an ndarray is 32, found %zu", seq_len(v));
        *n = (int)seq_len(v);
        for (int i = 0; i < *n; i++)
            if (!is_index_int(seq_get(v, i), &sizes[i]))
                return exc_seti("TypeError", "'%s' object cannot be interpreted as an integer", type_name(seq_get(v, i)));
    } else if (v->type == &t_float) {
        Value *r = value_repr(v);
        exc_seti("TypeError", "expected a sequence of integers or a single integer, got '%s'", r ? r->u.s.p : "");
        decref(r);
        return -1;
    } else {
        return exc_seti("TypeError", "'%s' object cannot be interpreted as an integer", type_name(v));
    }
    for (int i = 0; i < *n; i++)
        if (sizes[i] < 0) return exc_seti("ValueError", "negative dimensions are not allowed");
    (void)fname;
    return 0;
}

/* np.zeros / ones / empty(shape, dtype=float) */
static Value *np_filled(Value *self, CallArgs *a, void *data)
{
    (void)self;
    const char *fname = data;
    Value *x[2];
    if (bind_args(a, fname, "shape,dtype=", x) < 0) return NULL;
    tsr_dtype dt;
    int n = 0;
    int64_t sizes[TSR_MAX_DIMS];
    if (shape_arg(x[0], fname, &n, sizes) < 0) return NULL;
    if (dtype_arg(x[1], TSR_FLOAT64, &dt) < 0) return NULL;
    /* np.empty's values are unspecified: tsr gives zeros */
    tsr_tensor *t = fname[0] == 'o' ? tsr_ones(n, sizes, dt, TSR_CPU) : tsr_zeros(n, sizes, dt, TSR_CPU);
    return v_array(t);
}

/* np.arange([start,] stop[, step], dtype=None): int64 when every bound is
 * an int, else float64; element i is start + i*step computed in double
 * (NumPy fills from the first two elements: the same for these dtypes). */
static Value *np_arange(Value *self, CallArgs *a, void *data)
{
    (void)self; (void)data;
    Value *x[4];
    if (bind_args(a, "arange", "start=,stop=,step=,dtype=", x) < 0) return NULL;
    if (!x[0] || is_none(x[0])) return exc_set("TypeError", "arange() requires stop to be specified.");
    Value *startv = x[1] && !is_none(x[1]) ? x[0] : NULL, *stopv = startv ? x[1] : x[0], *stepv = x[2];
    if (stepv && is_none(stepv)) stepv = NULL;
    bool ints = true;
    double b[3] = {0, 0, 1};
    Value *vals[3] = {startv, stopv, stepv};
    for (int i = 0; i < 3; i++) {
        Value *v = vals[i];
        if (!v) continue;
        if (numpy_is_scalar(v)) { Value *p = scalar_item(v); double f; int rc = value_as_float(p, &f); decref(p); if (rc < 0) return NULL; b[i] = f; if (!tsr_dtype_is_integral(scalar_dtype(v), true)) ints = false; continue; }
        if (v->type != &t_int && v->type != &t_bool) ints = false;
        if (value_as_float(v, &b[i]) < 0) return NULL;
    }
    if (b[2] == 0) return exc_set("ZeroDivisionError", "division by zero");
    tsr_dtype dt;
    if (dtype_arg(x[3], ints ? TSR_INT64 : TSR_FLOAT64, &dt) < 0) return NULL;
    double len = ceil((b[1] - b[0]) / b[2]);
    if (!(len < 9.2e18)) return exc_set("ValueError", "Maximum allowed size exceeded");
    int64_t n = len > 0 ? (int64_t)len : 0;
    tsr_tensor *t = tsr_tensor_empty(1, &n, dt, TSR_CPU);
    if (!t) return bind_runtime_error();
    for (int64_t i = 0; i < n; i++) {
        tsr_scalar s = ints ? tsr_scalar_int((int64_t)b[0] + i * (int64_t)b[2]) : tsr_scalar_float(b[0] + (double)i * b[2]);
        tsr_tensor_set_at(t, i, s);
    }
    return v_array(t);
}

static Value *os_error(const char *path)
{
    int e = errno;
    const char *type = e == ENOENT ? "FileNotFoundError" : e == EISDIR ? "IsADirectoryError"
                     : e == EACCES ? "PermissionError" : "OSError";
    return exc_set(type, "[Errno %d] %s: '%s'", e, strerror(e), path);
}

/* np.save(file, arr): '.npy' is appended to a name without it. */
static Value *np_save(Value *self, CallArgs *a, void *data)
{
    (void)self; (void)data;
    Value *x[2];
    if (bind_args(a, "save", "file,arr", x) < 0) return NULL;
    if (x[0]->type != &t_str) return exc_set("TypeError", "tsr's np.save() takes a file name, not '%s'", type_name(x[0]));
    tsr_tensor *t;
    if (numpy_is_array(x[1])) t = tsr_tensor_retain(numpy_tensor(x[1]));
    else t = array_data(x[1], TSR_DTYPE_UNDEFINED);
    if (!t) return NULL;
    void *buf;
    size_t n;
    int rc = tsr_npy_encode(t, &buf, &n);
    tsr_tensor_release(t);
    if (rc < 0) return bind_runtime_error();
    const char *p = x[0]->u.s.p;
    size_t pl = strlen(p);
    char *path = value_xmalloc(pl + 5);
    strcpy(path, p);
    if (pl < 4 || strcmp(p + pl - 4, ".npy")) strcat(path, ".npy");
    FILE *f = fopen(path, "wb");
    Value *r = NULL;
    if (!f) r = os_error(path);
    else {
        size_t put = fwrite(buf, 1, n, f);
        if (fclose(f) != 0 || put != n) { errno = EIO; r = os_error(path); }
        else r = v_none();
    }
    free(path);
    tsr_free(buf);
    return r;
}

/* np.load(file): .npy only (a pickle or .npz is refused as allow_pickle=False
 * refuses it). */
static Value *np_load(Value *self, CallArgs *a, void *data)
{
    (void)self; (void)data;
    Value *x[1];
    if (bind_args(a, "load", "file", x) < 0) return NULL;
    if (x[0]->type != &t_str) return exc_set("TypeError", "tsr's np.load() takes a file name, not '%s'", type_name(x[0]));
    const char *path = x[0]->u.s.p;
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f) return os_error(path);
    if (fstat(fileno(f), &st) < 0 || S_ISDIR(st.st_mode)) {
        errno = S_ISDIR(st.st_mode) ? EISDIR : errno;
        fclose(f);
        return os_error(path);
    }
    size_t cap = st.st_size > 0 ? (size_t)st.st_size : 1, len = 0;
    char *buf = tsr_malloc(cap);
    if (!buf) { fclose(f); return bind_runtime_error(); }
    len = fread(buf, 1, cap, f);
    fclose(f);
    if (len >= 4 && !memcmp(buf, "PK\x03\x04", 4)) {
        tsr_free(buf);
        return exc_set("NotImplementedError", "tsr's np.load reads .npy files only (this is an .npz archive)");
    }
    tsr_tensor *t = tsr_npy_decode(buf, len);
    tsr_free(buf);
    return v_array(t);
}

/* ------------------------------------------------------------ np.random */

/* np.random.randint(low, high=None, size=None, dtype=int). NumPy's global
 * RandomState is seeded from the OS and is not torch's generator; tsr draws
 * from a generator of its own seeded from the clock, so the values are
 * uniform on [low, high) as NumPy's are, but not NumPy's stream (hence no
 * np.random.seed: it would promise reproducibility tsr cannot give). */
static tsr_generator *np_gen;

static int randint_bound(Value *v, int64_t *out)
{
    if (numpy_is_scalar(v) || v->type == &t_int || v->type == &t_bool) {
        if (is_index_int(v, out)) return 0;
    }
    double f;
    if (value_as_float(v, &f) < 0) return -1;
    if (!(fabs(f) < 9.2e18)) return exc_seti("OverflowError", "Python int too large to convert to C long");
    *out = (int64_t)f;
    return 0;
}

static Value *np_randint(Value *self, CallArgs *a, void *data)
{
    (void)self; (void)data;
    Value *x[4];
    if (bind_args(a, "randint", "low,high=,size=,dtype=", x) < 0) return NULL;
    int64_t low, high;
    if (randint_bound(x[0], &low) < 0) return NULL;
    bool one = !x[1] || is_none(x[1]);
    if (one) { high = low; low = 0; }
    else if (randint_bound(x[1], &high) < 0) return NULL;
    tsr_dtype dt;
    if (dtype_arg(x[3], TSR_INT64, &dt) < 0) return NULL;
    if (!tsr_dtype_is_integral(dt, true))
        return exc_set("TypeError", "Unsupported dtype dtype('%s') for randint", np_names[dt]);
    if (low >= high) return exc_set("ValueError", one ? "high <= 0" : "low >= high");
    if (dt != TSR_INT64) {
        int bits = 8 * tsr_dtype_itemsize(dt);
        bool uns = dt == TSR_UINT8 || dt == TSR_BOOL;
        int64_t lo = dt == TSR_BOOL ? 0 : uns ? 0 : -((int64_t)1 << (bits - 1));
        int64_t hi = dt == TSR_BOOL ? 1 : uns ? ((int64_t)1 << bits) - 1 : ((int64_t)1 << (bits - 1)) - 1;
        if (low < lo) return exc_set("ValueError", "low is out of bounds for %s", np_names[dt]);
        if (high - 1 > hi) return exc_set("ValueError", "high is out of bounds for %s", np_names[dt]);
    }
    if (!np_gen) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        np_gen = tsr_generator_new((uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec);
        if (!np_gen) return bind_runtime_error();
    }
    bool scalar = !x[2] || is_none(x[2]);
    int n = 0;
    int64_t sizes[TSR_MAX_DIMS];
    if (!scalar && shape_arg(x[2], "randint", &n, sizes) < 0) return NULL;
    tsr_tensor *t = tsr_randint(low, high, n, sizes, dt == TSR_BOOL ? TSR_UINT8 : dt, TSR_CPU, np_gen);
    if (t && dt == TSR_BOOL) {
        tsr_tensor *b = tsr_to_dtype(t, TSR_BOOL, false);
        tsr_tensor_release(t);
        t = b;
    }
    if (!t) return bind_runtime_error();
    if (scalar) {   /* NumPy gives a Python int without size= */
        tsr_scalar v;
        tsr_tensor_get(t, NULL, &v);
        tsr_tensor_release(t);
        return dt == TSR_BOOL ? v_bool(v.i != 0) : v_int(v.i);
    }
    return v_array(t);
}

/* ------------------------------------------------------------ torch glue */

Value *numpy_as_tensor(Value *a, tsr_dtype dt, bool copy)
{
    tsr_tensor *t = numpy_tensor(a);
    if (!copy && (dt == TSR_DTYPE_UNDEFINED || dt == t->dtype)) return numpy_to_tensor(a);
    tsr_tensor *r = tsr_to_device(t, TSR_CPU, dt == TSR_DTYPE_UNDEFINED ? t->dtype : dt, true);
    return r ? v_tensor(r) : bind_runtime_error();
}

void bind_numpy_init(void)
{
    for (int d = 0; d < TSR_DTYPE_SLOTS; d++) scalar_types[d].name = np_names[d];
    Value *m = bind_module("numpy");
    for (int d = 0; d < TSR_DTYPE_SLOTS; d++)
        if (np_names[d]) module_add(m, np_names[d], v_typeobj(&scalar_types[d]));
    module_add(m, "ndarray", v_typeobj(&t_ndarray));
    module_add(m, "dtype", v_typeobj(&t_npdtype));
    module_add(m, "array", v_builtin("array", np_array, NULL, (void *)&bind_device_safe_tag));
    module_add(m, "asarray", v_builtin("asarray", np_asarray, NULL, (void *)&bind_device_safe_tag));
    module_add(m, "zeros", v_builtin("zeros", np_filled, NULL, (void *)"zeros"));
    module_add(m, "ones", v_builtin("ones", np_filled, NULL, (void *)"ones"));
    module_add(m, "empty", v_builtin("empty", np_filled, NULL, (void *)"empty"));
    module_add(m, "arange", v_builtin("arange", np_arange, NULL, NULL));
    module_add(m, "save", v_builtin("save", np_save, NULL, (void *)&bind_device_safe_tag));
    module_add(m, "load", v_builtin("load", np_load, NULL, NULL));
    module_add(m, "newaxis", v_none());
    module_add(bind_module("numpy.random"), "randint", v_builtin("randint", np_randint, NULL, NULL));
    module_add(m, "pi", v_float(M_PI));
    module_add(m, "e", v_float(M_E));
    module_add(m, "inf", v_float(INFINITY));
    module_add(m, "nan", v_float(NAN));
    module_add(bind_module("torch"), "from_numpy", v_builtin("from_numpy", f_from_numpy, NULL, NULL));
    bind_tensor_method("numpy", m_numpy);
}
