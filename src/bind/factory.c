/* src/bind/factory.c — tensor creation as the language sees it: torch.tensor,
 * as_tensor, asarray (tensor_new.cpp's inference and stores), zeros/ones/full/empty/arange/
 * linspace/logspace/eye/empty_strided, the *_like and new_* families as binding-table rows
 * with 1.13's signatures, and Torch7's legacy constructors (torch.FloatTensor(3, 4), x.new(...)),
 * whose overloads tensor_new.cpp parses by hand as this file does (SEMANTICS.md §1.6, §7). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/factory.h"
#include "bind/areas.h"
#include "bind/numpy.h"
#include "bind/table.h"

/* ------------------------------------------------------------ creation options */

#include "ops/sparse.h"

#define ARG(name) bind_table_arg(b, name)

/* Creation options shared by the factories. */
typedef struct {
    tsr_dtype dtype;           /* UNDEFINED: the function's default */
    tsr_device device;
    bool requires_grad;
    Value *out;                /* borrowed tensor value or NULL */
    Value *names;              /* borrowed, NULL when absent or None */
    tsr_memory_format mf;
    bool keep_numel;           /* out= keeps its shape when the count fits (ranges) */
} Opts;

static const char pinned_msg[] =
    "Pinned memory requires CUDA. PyTorch splits its backend into two shared libraries: a CPU "
    "library and a CUDA library; this error has occurred because you are trying to use some "
    "CUDA functionality, but the CUDA library has not been loaded by the dynamic linker for "
    "some reason.  The CUDA library MUST be loaded, EVEN IF you don't directly use any symbols "
    "from the CUDA library! One common culprit is a lack of -Wl,--no-as-needed in your link "
    "arguments; many dynamic linkers will delete dynamic library dependencies if you don't "
    "depend on any of their symbols.  You can check if this has occurred by using ldd on your "
    "binary to see if there is a dependency on *_cuda.so library.";

/* Fills o from a matched call's creation keywords (their types already
 * checked by the table); dflt_dev is used when no device is given. With
 * out= the options are checked against it and become its own. */
static int opts_of(const char *fname, const BindArgs *b, tsr_device dflt_dev, Opts *o)
{
    Value *layout = ARG("layout"), *device = ARG("device"), *pin = ARG("pin_memory"), *rg = ARG("requires_grad");
    Value *mf = ARG("memory_format");
    o->dtype = bind_table_dtype(ARG("dtype"), TSR_DTYPE_UNDEFINED);
    o->device = dflt_dev;
    o->requires_grad = rg && rg->u.i;
    o->out = b->v[BIND_OUT];
    o->names = ARG("names");
    o->mf = mf ? (tsr_memory_format)mf->u.ext.a : TSR_MF_CONTIGUOUS;
    o->keep_numel = false;
    if (layout && o->names && tsr_names_check_factory_layout(fname, (tsr_layout)layout->u.ext.a) < 0)
        return bind_runtime_errori();
    if (layout && layout->u.ext.a != TSR_LAYOUT_STRIDED && !o->out)
        return exc_seti("NotImplementedError", "tsr: %s(): only the strided layout is supported, not %s", fname,
                        tsr_layout_name((tsr_layout)layout->u.ext.a));
    if (device && bind_device_arg(device, dflt_dev, &o->device) < 0) return -1;
    if (pin && pin->u.i) return exc_seti("RuntimeError", "%s", pinned_msg);
    if (o->out) {
        tsr_tensor *ot = tensor_of(o->out);
        tsr_layout lay = layout ? (tsr_layout)layout->u.ext.a : ot->layout;
        if (tsr_check_out_options(ot, o->dtype != TSR_DTYPE_UNDEFINED ? &o->dtype : NULL, &lay,
                                  device ? &o->device : NULL) < 0)
            return bind_runtime_errori();
        o->dtype = ot->dtype;
        if (!device) o->device = ot->device;
    }
    o->device = tsr_device_normalize(o->device);
    return 0;
}

/* The slot the parameter called name was bound to, or -1. */
static int slot_of(const BindArgs *b, const char *name)
{
    for (int i = 0; i < BIND_MAXP; i++)
        if (b->param[i] && !strcmp(b->param[i]->name, name)) return i;
    return -1;
}

/* The int list parameter called name into sizes[0 .. *n - 1]. */
static int intlist_of(const BindArgs *b, const char *name, const char *fname, int64_t *sizes, int *n)
{
    return bind_table_intlist(b, slot_of(b, name), fname, sizes, TSR_MAX_DIMS, n);
}

/* The runtime's pending error as an exception. An allocation failure gets
 * the CAFFE_ENFORCE prefix that 1.13's alloc_cpu.cpp puts before it. */
static Value *rt_error(void)
{
    if (tsr_error_kind() == TSR_ERR_MEMORY && !strncmp(tsr_error_message(), "DefaultCPUAllocator", 19)) {
        exc_set("RuntimeError", "[enforce fail at alloc_cpu.cpp:75] err == 0. %s", tsr_error_message());
        tsr_error_clear();
        return NULL;
    }
    return bind_runtime_error();
}

/* Wraps a new tensor into a value after the options that apply to results:
 * requires_grad, names, out= (steals r). */
static Value *finish(tsr_tensor *r, Opts *o)
{
    if (!r) return rt_error();
    if (o->requires_grad && tsr_factory_requires_grad(r) < 0) {
        tsr_tensor_release(r);
        return bind_runtime_error();
    }
    if (o->out) {
        int rc = tsr_factory_out(tensor_of(o->out), r, o->keep_numel);
        tsr_tensor_release(r);
        if (rc < 0) return bind_runtime_error();
        return incref(o->out);
    }
    Value *v = v_tensor(r);
    if (v && o->names && tsr_names_check_factory(tensor_of(v)) < 0) {
        CLEAR(v);
        return bind_runtime_error();
    }
    if (v && o->names && value_setattr(v, "names", o->names) < 0) CLEAR(v);
    return v;
}

/* Python type names as tensor_new.cpp prints them. */
static const char *pytype(Value *v)
{
    if (v->type == &t_type) return "type";
    return type_name(v);
}

/* ------------------------------------------------------------ torch.tensor */

static bool is_str(Value *v) { return v->type == &t_str; }

/* PySequence_Check as tensor_new.cpp meets it: lists, tuples, Size, range,
 * storages and strings (a Tensor is not one there). */
static bool is_pyseq(Value *v)
{
    return v->type == &t_list || v->type == &t_tuple || v->type == &t_size || v->type == &t_range ||
           is_storage(v) || is_str(v);
}

static int64_t pyseq_len(Value *v)
{
    if (is_storage(v)) return storage_len(v);
    if (v->type == &t_range || is_str(v)) return value_len(v);
    return (int64_t)seq_len(v);
}

/* Item i of a sequence, or row i of a tensor; new reference. */
static Value *pyseq_item(Value *v, int64_t i)
{
    if (is_storage(v)) return storage_item(v, i);
    if (v->type == &t_range) return v_int(v->u.range.start + i * v->u.range.step);
    if (is_str(v)) return v_strn(v->u.s.p + i, 1);
    if (is_tensor(v)) return v_tensor(tsr_view_select(tensor_of(v), 0, i));
    return incref(seq_get(v, (size_t)i));
}

static int infer_dtype(Value *v, tsr_dtype *out)
{
    if (v->type == &t_float) { *out = tsr_default_dtype(); return 0; }
    if (v->type == &t_int) { *out = TSR_INT64; return 0; }
    if (v->type == &t_bool) { *out = TSR_BOOL; return 0; }
    if (v->type == &t_complex) {
        /* tensor_new.cpp asks for the default complex type, which has none for Half */
        if (tsr_default_dtype() == TSR_FLOAT16)
            return exc_seti("RuntimeError", "invalid default scalar type for complex");
        *out = tsr_dtype_to_complex(tsr_default_dtype());
        return 0;
    }
    if (is_tensor(v)) { *out = tensor_of(v)->dtype; return 0; }
    if (numpy_is_scalar(v)) { *out = numpy_scalar_dtype(v); return 0; }
    if (is_str(v)) return exc_seti("TypeError", "new(): invalid data type 'str'");
    if (is_storage(v)) { *out = storage_dtype(v); return 0; }   /* every element has it */
    if (is_pyseq(v)) {
        int64_t n = pyseq_len(v);
        if (n == 0) { *out = tsr_default_dtype(); return 0; }
        /* a cycle through other lists is a RecursionError here (1.13 overflows its stack) */
        if (eval_depth > MAX_EVAL_DEPTH) return exc_seti("RecursionError", "maximum recursion depth exceeded");
        tsr_dtype acc = TSR_DTYPE_UNDEFINED;
        for (int64_t i = 0; i < n; i++) {
            Value *it = pyseq_item(v, i);
            if (!it) return -1;
            if (it == v) {   /* infer_scalar_type (tensor_new.cpp) */
                decref(it);
                return exc_seti("TypeError", "new(): self-referential lists are incompatible");
            }
            tsr_dtype d;
            eval_depth++;
            int rc = infer_dtype(it, &d);
            eval_depth--;
            decref(it);
            if (rc < 0) return -1;
            acc = acc == TSR_DTYPE_UNDEFINED ? d : tsr_promote_types(acc, d);   /* infer_scalar_type: c10 promoteTypes */
            if (acc == TSR_COMPLEX128) break;
        }
        *out = acc;
        return 0;
    }
    return exc_seti("RuntimeError", "Could not infer dtype of %s", pytype(v));
}

static int compute_sizes(Value *data, int *ndim, int64_t *sizes)
{
    int n = 0;
    Value *v = incref(data);
    while (is_pyseq(v)) {
        if (is_str(v) || n >= TSR_MAX_DIMS) {
            exc_set("ValueError", "too many dimensions '%s'", pytype(v));
            decref(v);
            return -1;
        }
        int64_t len = pyseq_len(v);
        sizes[n++] = len;
        if (len == 0) break;
        Value *next = pyseq_item(v, 0);
        decref(v);
        if (!next) return -1;
        v = next;
    }
    decref(v);
    *ndim = n;
    return 0;
}

/* c10::checked_convert's bound check as tensor_new.cpp names the types. */
static int check_integral(double x, bool is_float, int64_t i, tsr_dtype d)
{
    tsr_iinfo ii;
    if (tsr_dtype_iinfo(d, &ii) < 0) return bind_runtime_errori();
    /* an unsigned type accepts -max..max */
    double lo = ii.min ? (double)ii.min : -(double)ii.max, hi = (double)ii.max;
    bool bad;
    if (is_float) bad = !(x >= lo && x <= hi) || (d == TSR_INT64 && x >= 9223372036854775808.0);
    else bad = d != TSR_INT64 && (i < (int64_t)lo || i > (int64_t)hi);
    if (bad) return exc_seti("RuntimeError", "value cannot be converted to type %s without overflow", tsr_dtype_name(d));
    return 0;
}

/* Tensor.__index__ / __float__ / __complex__ of a tensor met as a scalar. */
static int tensor_scalar(Value *v, bool index, tsr_scalar *s)
{
    tsr_tensor *t = tensor_of(v);
    if (index) {
        if (!tsr_dtype_is_integral(t->dtype, true) || tsr_tensor_numel(t) != 1)
            return exc_seti("TypeError", "only integer tensors of a single element can be converted to an index");
    } else if (tsr_tensor_numel(t) != 1) {
        return exc_seti("ValueError", "only one element tensors can be converted to Python scalars");
    }
    if (tsr_tensor_is_meta(t))
        return exc_seti("NotImplementedError",
                        "Could not run 'aten::_local_scalar_dense' with arguments from the 'Meta' backend. This could "
                        "be because the operator doesn't exist for this backend, or was omitted during the "
                        "selective/custom build process (if using custom build).");
    if (tsr_tensor_get_at(t, 0, s) < 0) return bind_runtime_errori();
    return 0;
}

/* store_scalar (torch/csrc/utils/python_scalars.h): one Python value into
 * element p of dtype d. */
static int store_scalar(void *p, tsr_dtype d, Value *v)
{
    tsr_scalar s;
    if (numpy_is_scalar(v)) {   /* np.float32(1.5): stored as its Python number */
        Value *x = numpy_scalar_item(v);
        int rc = store_scalar(p, d, x);
        decref(x);
        return rc;
    }
    if (tsr_dtype_is_integral(d, false) || d == TSR_BOOL) {
        if (v->type == &t_float) {
            if (d == TSR_BOOL) s = tsr_scalar_bool(v->u.f != 0);
            else {
                if (check_integral(v->u.f, true, 0, d) < 0) return -1;
                s = tsr_scalar_int((int64_t)v->u.f);
            }
        } else if (d == TSR_BOOL && v->type == &t_complex) {
            s = tsr_scalar_bool(v->u.c.re != 0 || v->u.c.im != 0);
        } else if (is_int_like(v)) {
            if (d != TSR_BOOL && check_integral(0, false, v->u.i, d) < 0) return -1;
            s = tsr_scalar_int(v->u.i);
        } else if (is_tensor(v)) {
            if (tensor_scalar(v, true, &s) < 0) return -1;
            if (d != TSR_BOOL && check_integral(0, false, tsr_scalar_to_int64(s), d) < 0) return -1;
        } else {
            return exc_seti("TypeError", "'%s' object cannot be interpreted as an integer", pytype(v));
        }
    } else if (tsr_dtype_is_complex(d)) {
        if (v->type == &t_complex) s = tsr_scalar_complex(v->u.c.re, v->u.c.im);
        else if (v->type == &t_float) s = tsr_scalar_float(v->u.f);
        else if (is_int_like(v)) s = tsr_scalar_float((double)v->u.i);
        else if (is_tensor(v)) { if (tensor_scalar(v, false, &s) < 0) return -1; }
        else return exc_seti("TypeError", "must be real number, not %s", pytype(v));
    } else {
        if (v->type == &t_float) s = tsr_scalar_float(v->u.f);
        else if (is_int_like(v)) s = tsr_scalar_float((double)v->u.i);
        else if (is_tensor(v)) {
            if (tensor_scalar(v, false, &s) < 0) return -1;
            if (s.kind == TSR_SCALAR_COMPLEX && s.im != 0)   /* item<double>(): c10::checked_convert */
                return exc_seti("RuntimeError", "value cannot be converted to type double without overflow");
            s = tsr_scalar_float(tsr_scalar_to_double(s));
        } else return exc_seti("TypeError", "must be real number, not %s", pytype(v));
    }
    tsr_scalar_store(d, p, s);
    return 0;
}

static int recursive_store(char *p, int ndim, const int64_t *sizes, const int64_t *strides, int dim, tsr_dtype d,
                           int isz, Value *v)
{
    if (dim == ndim) return store_scalar(p, d, v);
    int64_t n = sizes[dim], len;
    if (v->type == &t_list || v->type == &t_tuple || v->type == &t_size || v->type == &t_range || is_storage(v) ||
        is_str(v))
        len = pyseq_len(v);
    else if (is_tensor(v) && tensor_of(v)->ndim > 0)
        len = tensor_of(v)->sizes[0];
    else
        return exc_seti("TypeError", "not a sequence");
    if (len != n)
        return exc_seti("ValueError", "expected sequence of length %" PRId64 " at dim %d (got %" PRId64 ")", n, dim, len);
    for (int64_t i = 0; i < n; i++) {
        Value *it = pyseq_item(v, i);
        if (!it) return -1;
        int rc = recursive_store(p, ndim, sizes, strides, dim + 1, d, isz, it);
        decref(it);
        if (rc < 0) return -1;
        p += strides[dim] * isz;
    }
    return 0;
}

tsr_tensor *factory_from_data(Value *data, tsr_dtype dtype)
{
    if (is_str(data)) { exc_set("TypeError", "new(): invalid data type 'str'"); return NULL; }
    if (numpy_is_array(data)) {   /* a NumPy array is copied with its dtype */
        Value *c = numpy_as_tensor(data, dtype, true);
        tsr_tensor *r = c ? tsr_tensor_retain(tensor_of(c)) : NULL;
        decref(c);
        return r;
    }
    if (is_tensor(data)) {
        tsr_tensor *t = tensor_of(data);
        tsr_tensor *r = tsr_to_device(t, t->device, dtype == TSR_DTYPE_UNDEFINED ? t->dtype : dtype, true);
        if (!r) bind_runtime_error();
        return r;
    }
    if (is_storage(data)) {
        /* internal_new_from_data set_()s a typed storage: the tensor shares it */
        tsr_dtype want = dtype != TSR_DTYPE_UNDEFINED ? dtype : tsr_default_dtype();
        if (want != storage_dtype(data)) {
            exc_set("RuntimeError", "Expected a Storage of type %s or an UntypedStorage, but got %s",
                    tsr_dtype_scalar_name(want), tsr_dtype_scalar_name(storage_dtype(data)));
            return NULL;
        }
        int64_t len = storage_len(data);
        tsr_tensor *r = tsr_tensor_from_storage(storage_of(data), 0, 1, &len, NULL, storage_dtype(data));
        if (!r) rt_error();
        return r;
    }
    int ndim;
    int64_t sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    if (compute_sizes(data, &ndim, sizes) < 0) return NULL;
    if (dtype == TSR_DTYPE_UNDEFINED && infer_dtype(data, &dtype) < 0) return NULL;
    tsr_tensor *t = tsr_tensor_empty(ndim, sizes, dtype, TSR_CPU);
    if (!t) { rt_error(); return NULL; }
    if (tsr_tensor_numel(t) == 0) return t;
    tsr_strides_contiguous(ndim, sizes, strides);
    if (recursive_store(tsr_tensor_ptr(t, NULL), ndim, sizes, strides, 0, dtype, tsr_dtype_itemsize(dtype), data) < 0) {
        tsr_tensor_release(t);
        return NULL;
    }
    return t;
}

/* Moves a freshly made CPU tensor to device (steals t). */
static tsr_tensor *to_device(tsr_tensor *t, tsr_device dev)
{
    if (!t || dev.type == TSR_DEV_CPU) return t;
    tsr_tensor *r = tsr_to_device(t, dev, t->dtype, false);
    tsr_tensor_release(t);
    if (!r) bind_runtime_error();
    return r;
}

/* ------------------------------------------------------------ as_tensor, asarray */

/* The device= of as_tensor/asarray: *has false when absent or None. */
static int opt_device(Value *v, tsr_device dflt, bool *has, tsr_device *out)
{
    *has = v && !is_none(v);
    *out = dflt;
    if (!*has) return 0;
    if (bind_device_arg(v, dflt, out) < 0) return -1;
    *out = tsr_device_normalize(*out);
    return 0;
}

/* A tensor converted as Tensor.to(device, dtype, copy) does; the same value
 * when nothing changes (new reference). */
static Value *tensor_to(Value *v, tsr_device dev, tsr_dtype dt, bool copy)
{
    tsr_tensor *t = tensor_of(v);
    tsr_tensor *r = tsr_to_device(t, dev, dt, copy);
    if (!r) return bind_runtime_error();
    if (r == t) {
        tsr_tensor_release(r);
        return incref(v);
    }
    return v_tensor(r);
}

/* ------------------------------------------------------------ the handlers */

typedef enum { FILL_ZEROS, FILL_ONES, FILL_EMPTY, FILL_FULL } FillKind;

typedef enum {
    K_SIZED, K_LIKE, K_NEW, K_NEW_TENSOR, K_TENSOR, K_AS_TENSOR, K_ASARRAY, K_ARANGE, K_LINSPACE, K_LOGSPACE, K_EYE,
    K_EMPTY_STRIDED, K_RANGE, K_SCALAR_TENSOR,
} Kind;

static tsr_tensor *fill(FillKind kind, int n, const int64_t *sizes, tsr_scalar fv, tsr_dtype dt, const Opts *o)
{
    switch (kind) {
    case FILL_ZEROS: return tsr_zeros(n, sizes, dt, o->device);
    case FILL_ONES: return tsr_ones(n, sizes, dt, o->device);
    case FILL_EMPTY: return tsr_empty(n, sizes, dt, o->device, o->mf);
    case FILL_FULL: return tsr_scalar_check_fits(fv, dt) < 0 ? NULL : tsr_full(n, sizes, fv, dt, o->device);
    }
    return NULL;
}

/* zeros/ones/empty/full(size, ...) and the new_* methods (self given). */
static Value *run_sized(FillKind kind, const char *fname, BindArgs *b, Value *self)
{
    int n;
    int64_t sizes[TSR_MAX_DIMS];
    if (intlist_of(b, "size", fname, sizes, &n) < 0) return NULL;
    tsr_scalar fv = tsr_scalar_int(0);
    Value *fillv = ARG("fill_value");
    if (fillv && bind_scalar(fillv, fname, "fill_value", &fv) < 0) return NULL;
    tsr_tensor *t = self ? tensor_of(self) : NULL;
    Value *lay = ARG("layout");
    if (lay && lay->u.ext.a == TSR_LAYOUT_SPARSE_COO && !t && !b->v[BIND_OUT] && (kind == FILL_EMPTY || kind == FILL_ZEROS) &&
        (!ARG("names") || is_none(ARG("names")))) {   /* names=: the named factory's layout refusal (opts_of) */
        tsr_device dev = bind_default_device();   /* a sparse tensor with no entries (sparse_dim = ndim) */
        if (ARG("device") && bind_device_arg(ARG("device"), dev, &dev) < 0) return NULL;
        tsr_tensor *r = tsr_sparse_empty(n, sizes, bind_table_dtype(ARG("dtype"), tsr_default_dtype()), dev);
        Value *rg = ARG("requires_grad");
        if (r && rg && rg->u.i) r->requires_grad = true;
        return v_tensor(r);
    }
    Opts o;
    if (opts_of(fname, b, t ? t->device : bind_default_device(), &o) < 0) return NULL;
    tsr_dtype dt = o.dtype;
    if (dt == TSR_DTYPE_UNDEFINED)
        dt = t ? t->dtype : kind == FILL_FULL ? tsr_full_dtype(fv, o.device) : tsr_default_dtype();
    return finish(fill(kind, n, sizes, fv, dt, &o), &o);
}

static Value *run_like(FillKind kind, const char *fname, BindArgs *b)
{
    tsr_tensor *t = tensor_of(b->v[0]);
    tsr_scalar fv = tsr_scalar_int(0);
    Value *fillv = ARG("fill_value");
    if (fillv && bind_scalar(fillv, fname, "fill_value", &fv) < 0) return NULL;
    Opts o;
    if (opts_of(fname, b, t->device, &o) < 0) return NULL;
    if (!ARG("memory_format")) o.mf = TSR_MF_PRESERVE;
    tsr_dtype dt = o.dtype != TSR_DTYPE_UNDEFINED ? o.dtype : t->dtype;   /* full_like's fill check needs it */
    tsr_tensor *r = NULL;
    switch (kind) {
    case FILL_ZEROS: r = tsr_zeros_like(t, dt, o.device, o.mf); break;
    case FILL_ONES: r = tsr_ones_like(t, dt, o.device, o.mf); break;
    case FILL_EMPTY: r = tsr_empty_like(t, dt, o.device, o.mf); break;
    case FILL_FULL:
        if (tsr_scalar_check_fits(fv, dt) < 0) return bind_runtime_error();
        r = tsr_full_like(t, fv, dt, o.device, o.mf);
        break;
    }
    return finish(r, &o);
}

/* torch.tensor(data, ...) and x.new_tensor(data, ...) (self given). */
static Value *run_tensor(const char *fname, BindArgs *b, Value *self)
{
    tsr_tensor *s = self ? tensor_of(self) : NULL;
    Opts o;
    if (opts_of(fname, b, s ? s->device : bind_default_device(), &o) < 0) return NULL;
    tsr_dtype dt = o.dtype == TSR_DTYPE_UNDEFINED && s ? s->dtype : o.dtype;
    tsr_tensor *t = factory_from_data(ARG("data"), dt);
    if (!t) return NULL;
    t = to_device(t, o.device);
    if (!t) return NULL;
    return finish(t, &o);
}

/* torch.as_tensor(data, *, dtype=None, device=None) (tensor_new.cpp
 * as_tensor): a tensor is returned itself, or converted, sharing memory when
 * dtype and device match; other data is copied as torch.tensor does. */
static Value *run_as_tensor(BindArgs *b)
{
    Value *data = ARG("data");
    tsr_dtype dt = bind_table_dtype(ARG("dtype"), TSR_DTYPE_UNDEFINED);
    bool has_dev;
    tsr_device dev;
    if (is_tensor(data)) {
        tsr_tensor *t = tensor_of(data);
        if (opt_device(ARG("device"), t->device, &has_dev, &dev) < 0) return NULL;
        return tensor_to(data, dev, dt == TSR_DTYPE_UNDEFINED ? t->dtype : dt, false);
    }
    if (opt_device(ARG("device"), bind_default_device(), &has_dev, &dev) < 0) return NULL;
    if (numpy_is_array(data) && !has_dev) return numpy_as_tensor(data, dt, false);   /* shares memory */
    tsr_tensor *t = factory_from_data(data, dt);
    if (!t) return NULL;
    t = to_device(t, dev);
    return t ? v_tensor(t) : NULL;
}

/* torch.asarray(obj, *, dtype=None, device=None, copy=None,
 * requires_grad=False) (tensor_new.cpp asarray): a tensor is aliased unless
 * copy=True or (copy=None) its dtype or device differ; copy=False refuses
 * to convert or to alias a sequence. requires_grad is set on the result,
 * which may be obj itself. */
static Value *run_asarray_of(BindArgs *b, Value *obj)
{
    Value *copyv = ARG("copy"), *rgv = ARG("requires_grad");
    tsr_dtype dt = bind_table_dtype(ARG("dtype"), TSR_DTYPE_UNDEFINED);
    bool has_copy = copyv != NULL, copy = copyv && copyv->u.i, rg = rgv && rgv->u.i;
    bool has_dev;
    tsr_device dev;
    Value *r;
    if (is_tensor(obj)) {
        tsr_tensor *t = tensor_of(obj);
        if (opt_device(ARG("device"), t->device, &has_dev, &dev) < 0) return NULL;
        bool wrong_dev = has_dev && (dev.type != t->device.type || dev.index != t->device.index);
        bool wrong_dt = dt != TSR_DTYPE_UNDEFINED && dt != t->dtype;
        if (copy || (!has_copy && (wrong_dev || wrong_dt))) {
            if (wrong_dev || wrong_dt) {
                r = tensor_to(obj, dev, dt == TSR_DTYPE_UNDEFINED ? t->dtype : dt, copy);
            } else {
                tsr_tensor *c = tsr_clone(t, TSR_MF_PRESERVE);
                r = c ? v_tensor(c) : bind_runtime_error();
            }
            if (!r) return NULL;
        } else {
            char s1[32], s2[32];
            if (wrong_dev)
                return exc_set("ValueError", "can't alias tensor from device '%s' to '%s'.",
                               tsr_device_str(t->device, s1, sizeof s1), tsr_device_str(dev, s2, sizeof s2));
            if (wrong_dt)
                return exc_set("ValueError", "can't alias tensor with dtype '%s' into dtype '%s'.",
                               tsr_dtype_scalar_name(t->dtype), tsr_dtype_scalar_name(dt));
            r = incref(obj);
        }
    } else {
        if (has_copy && !copy) return exc_set("ValueError", "can't alias arbitrary sequence into a tensor.");
        if (opt_device(ARG("device"), bind_default_device(), &has_dev, &dev) < 0) return NULL;
        tsr_tensor *t = factory_from_data(obj, dt);
        if (!t) return NULL;
        t = to_device(t, dev);
        if (!t) return NULL;
        r = v_tensor(t);
        if (!r) return NULL;
    }
    tsr_tensor *rt = tensor_of(r);
    if (rg && tsr_factory_requires_grad(rt) < 0) {
        decref(r);
        return bind_runtime_error();
    }
    rt->requires_grad = rg;
    return r;
}

/* A NumPy array is read through the buffer protocol: as a tensor aliasing
 * it, which asarray then aliases, converts or copies like any tensor. */
static Value *run_asarray(BindArgs *b)
{
    Value *obj = ARG("obj");
    if (!numpy_is_array(obj)) return run_asarray_of(b, obj);
    Value *alias = numpy_to_tensor(obj);
    if (!alias) return NULL;
    Value *r = run_asarray_of(b, alias);
    decref(alias);
    return r;
}

/* arange, and the deprecated range (end included, out= resized). */
static Value *run_arange(const char *fname, BindArgs *b, bool range)
{
    static const char *const nm[3] = {"start", "end", "step"};
    tsr_scalar sv[3] = {tsr_scalar_int(0), tsr_scalar_int(0), tsr_scalar_int(1)};
    for (int i = 0; i < 3; i++) {
        Value *v = ARG(nm[i]);
        if (v && bind_scalar(v, fname, nm[i], &sv[i]) < 0) return NULL;
    }
    Opts o;
    if (opts_of(fname, b, bind_default_device(), &o) < 0) return NULL;
    o.keep_numel = !range;
    return finish(range ? tsr_range(sv[0], sv[1], sv[2], o.dtype, o.device) : tsr_arange(sv[0], sv[1], sv[2], o.dtype, o.device),
                  &o);
}

static Value *run_space(const char *fname, BindArgs *b, bool log)
{
    tsr_scalar s0, s1;
    int64_t steps;
    double base = 10.0;
    if (bind_scalar(ARG("start"), fname, "start", &s0) < 0 || bind_scalar(ARG("end"), fname, "end", &s1) < 0 ||
        bind_table_int_value(ARG("steps"), fname, "steps", &steps) < 0 || (ARG("base") && bind_table_float(ARG("base"), fname, "base", &base) < 0))
        return NULL;
    Opts o;
    if (opts_of(fname, b, bind_default_device(), &o) < 0) return NULL;
    tsr_dtype dt = o.dtype;
    if (!o.out && tsr_space_dtype(s0, s1, steps, o.dtype, log ? "torch.logspace()" : "torch.linspace()", &dt) < 0)
        return rt_error();
    o.keep_numel = true;
    return finish(log ? tsr_logspace(s0, s1, steps, base, dt, o.device) : tsr_linspace(s0, s1, steps, dt, o.device), &o);
}

static Value *run_eye(const char *fname, BindArgs *b)
{
    int64_t n, m = -1;
    if (bind_table_int_value(ARG("n"), fname, "n", &n) < 0 || (ARG("m") && bind_table_int_value(ARG("m"), fname, "m", &m) < 0)) return NULL;
    Opts o;
    if (opts_of(fname, b, bind_default_device(), &o) < 0) return NULL;
    return finish(ARG("m") ? tsr_eye_m(n, m, o.dtype, o.device) : tsr_eye(n, -1, o.dtype == TSR_DTYPE_UNDEFINED ?
                  tsr_default_dtype() : o.dtype, o.device), &o);
}

/* empty_strided, and Tensor.new_empty_strided (self: dtype and device default to its) */
static Value *run_empty_strided(const char *fname, BindArgs *b, Value *self)
{
    int n, ns;
    int64_t sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    tsr_tensor *t = self ? tensor_of(self) : NULL;
    if (intlist_of(b, "size", fname, sizes, &n) < 0 || intlist_of(b, "stride", fname, strides, &ns) < 0) return NULL;
    Opts o;
    if (opts_of(fname, b, t ? t->device : bind_default_device(), &o) < 0) return NULL;
    if (t && o.dtype == TSR_DTYPE_UNDEFINED) o.dtype = t->dtype;
    return finish(tsr_empty_strided(n, sizes, ns, strides, o.dtype, o.device), &o);
}

/* The handler of every row of this area. */
static Value *fact_call(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)inplace;
    switch ((Kind)d->kind) {
    case K_SIZED: return run_sized((FillKind)d->code, fname, b, NULL);
    case K_NEW: return run_sized((FillKind)d->code, fname, b, self);
    case K_LIKE: return run_like((FillKind)d->code, fname, b);
    case K_TENSOR: return run_tensor(fname, b, NULL);
    case K_NEW_TENSOR: return run_tensor(fname, b, self);
    case K_AS_TENSOR: return run_as_tensor(b);
    case K_ASARRAY: return run_asarray(b);
    case K_ARANGE: return run_arange(fname, b, false);
    case K_RANGE: return run_arange(fname, b, true);
    case K_SCALAR_TENSOR: {
        tsr_scalar v;
        Opts o;
        if (bind_scalar(ARG("s"), fname, "s", &v) < 0 || opts_of(fname, b, bind_default_device(), &o) < 0) return NULL;
        tsr_dtype dt = o.dtype != TSR_DTYPE_UNDEFINED ? o.dtype : tsr_default_dtype();
        return finish(tsr_scalar_check_fits(v, dt) < 0 ? NULL : tsr_full(0, NULL, v, dt, o.device), &o);
    }
    case K_LINSPACE: return run_space(fname, b, false);
    case K_LOGSPACE: return run_space(fname, b, true);
    case K_EYE: return run_eye(fname, b);
    case K_EMPTY_STRIDED: return run_empty_strided(fname, b, d->flags & BIND_METHOD ? self : NULL);
    }
    return exc_set("RuntimeError", "internal error: factory kind %d", d->kind);
}

/* ------------------------------------------------------------ the table */

/* python_arg_parser's text for 1.13's factories (generated from
 * native_functions.yaml; out= merged into the functional overload). */
#define OPTS "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, " \
             "bool? requires_grad=False"
#define SIZED(nm, fk) {.name = nm, .kind = K_SIZED, .code = fk, .flags = BIND_FN, .handler = fact_call, \
    .sigs = "IntArrayRef size, *, DimnameList? names, " OPTS "|SymIntArrayRef size, *, Tensor? out=None, " OPTS}
#define LIKE(nm, fk) {.name = nm, .kind = K_LIKE, .code = fk, .flags = BIND_FN, .handler = fact_call, \
    .sigs = "Tensor input, *, MemoryFormat? memory_format=None, " OPTS}
#define NEW(nm, fk) {.name = nm, .kind = K_NEW, .code = fk, .flags = BIND_METHOD, .handler = fact_call, \
    .sigs = "Tensor self, SymIntArrayRef size, *, " OPTS}

static BindRow defs[] = {
    SIZED("zeros", FILL_ZEROS),
    SIZED("ones", FILL_ONES),
    {.name = "empty", .kind = K_SIZED, .code = FILL_EMPTY, .flags = BIND_FN, .handler = fact_call,
     .sigs = "IntArrayRef size, *, DimnameList? names, MemoryFormat? memory_format=None, " OPTS "|"
             "SymIntArrayRef size, *, MemoryFormat? memory_format=None, Tensor? out=None, " OPTS},
    {.name = "full", .kind = K_SIZED, .code = FILL_FULL, .flags = BIND_FN, .handler = fact_call,
     .sigs = "IntArrayRef size, Scalar fill_value, *, DimnameList? names, " OPTS "|"
             "SymIntArrayRef size, Scalar fill_value, *, Tensor? out=None, " OPTS},
    LIKE("zeros_like", FILL_ZEROS),
    LIKE("ones_like", FILL_ONES),
    LIKE("empty_like", FILL_EMPTY),
    {.name = "full_like", .kind = K_LIKE, .code = FILL_FULL, .flags = BIND_FN, .handler = fact_call,
     .sigs = "Tensor input, Scalar fill_value, *, MemoryFormat? memory_format=None, " OPTS},
    NEW("new_zeros", FILL_ZEROS),
    NEW("new_ones", FILL_ONES),
    NEW("new_empty", FILL_EMPTY),
    {.name = "new_full", .kind = K_NEW, .code = FILL_FULL, .flags = BIND_METHOD, .handler = fact_call,
     .sigs = "Tensor self, SymIntArrayRef size, Scalar fill_value, *, " OPTS},
    /* tensor_new.cpp's hand-written signatures */
    {.name = "tensor", .kind = K_TENSOR, .flags = BIND_FN, .handler = fact_call,
     .sigs = "PyObject* data, *, ScalarType? dtype=None, Device? device=None, bool pin_memory=False, "
             "bool requires_grad=False, DimnameList? names=None"},
    {.name = "new_tensor", .kind = K_NEW_TENSOR, .flags = BIND_METHOD, .handler = fact_call,
     .sigs = "Tensor self, PyObject* data, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False"},
    {.name = "as_tensor", .kind = K_AS_TENSOR, .flags = BIND_FN, .handler = fact_call,
     .sigs = "PyObject* data, *, ScalarType? dtype=None, Device? device=None"},
    {.name = "asarray", .kind = K_ASARRAY, .flags = BIND_FN, .handler = fact_call,
     .sigs = "PyObject* obj, *, ScalarType? dtype=None, Device? device=None, bool? copy=None, bool requires_grad=False"},
    {.name = "arange", .kind = K_ARANGE, .flags = BIND_FN, .handler = fact_call,
     .sigs = "Scalar end, *, Tensor? out=None, " OPTS "|Scalar start, Scalar end, *, " OPTS "|"
             "Scalar start, Scalar end, Scalar step=1, *, Tensor? out=None, " OPTS},
    {.name = "range", .kind = K_RANGE, .flags = BIND_FN, .handler = fact_call,
     .sigs = "Scalar start, Scalar end, Scalar step=1, *, Tensor? out=None, " OPTS},
    {.name = "scalar_tensor", .kind = K_SCALAR_TENSOR, .flags = BIND_FN, .handler = fact_call,
     .sigs = "Scalar s, *, " OPTS},
    {.name = "linspace", .kind = K_LINSPACE, .flags = BIND_FN, .handler = fact_call,
     .sigs = "Scalar start, Scalar end, int64_t steps, *, Tensor? out=None, " OPTS},
    {.name = "logspace", .kind = K_LOGSPACE, .flags = BIND_FN, .handler = fact_call,
     .sigs = "Scalar start, Scalar end, int64_t steps, double base=10.0, *, Tensor? out=None, " OPTS},
    {.name = "eye", .kind = K_EYE, .flags = BIND_FN, .handler = fact_call,
     .sigs = "int64_t n, *, Tensor? out=None, " OPTS "|int64_t n, int64_t m, *, Tensor? out=None, " OPTS},
    {.name = "empty_strided", .kind = K_EMPTY_STRIDED, .flags = BIND_FN, .handler = fact_call,
     .sigs = "SymIntArrayRef size, SymIntArrayRef stride, *, " OPTS},
    {.name = "new_empty_strided", .kind = K_EMPTY_STRIDED, .flags = BIND_METHOD, .handler = fact_call,
     .sigs = "Tensor self, SymIntArrayRef size, SymIntArrayRef stride, *, " OPTS},
};

/* ------------------------------------------------------------ legacy constructors */

/* legacy_tensor_generic_ctor_new (torch/csrc/utils/tensor_new.cpp): the
 * constructor of torch.FloatTensor & co. and of x.new(...), one row with
 * 1.13's seven overloads, two of them hidden in place. */
typedef struct { tsr_dtype dtype; tsr_device dev; bool is_new; } LegacyCtx;

static void options_str(char *buf, size_t n, tsr_dtype d, tsr_device dev)
{
    char ds[32];
    snprintf(buf, n,
             "TensorOptions(dtype=%s, device=%s, layout=Strided, requires_grad=false (default), pinned_memory=false "
             "(default), memory_format=(nullopt))",
             tsr_dtype_typemeta_name(d), tsr_device_str(dev, ds, sizeof ds));
}

/* check_legacy_ctor_device */
static int legacy_device(Value *devv, tsr_device dev)
{
    tsr_device want = dev;
    if (!devv || is_none(devv)) return 0;
    if (bind_device_arg(devv, dev, &want) < 0) return -1;
    if (want.type != dev.type)
        return exc_seti("RuntimeError", "legacy constructor expects device type: %s but device type: %s was passed",
                        tsr_device_type_name(dev.type), tsr_device_type_name(want.type));
    return 0;
}

static Value *legacy_run(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)row; (void)self; (void)inplace;
    const LegacyCtx *c = b->ctx;
    tsr_dtype dtype = c->dtype;
    tsr_device dev = c->dev;
    Value *first = b->v[0];
    switch (b->sig) {
    case 0:   /* new(*, Device? device) */
        if (legacy_device(first, dev) < 0) return NULL;
        return v_tensor(tsr_tensor_empty(1, (int64_t[]){0}, dtype, dev));
    case 1: {   /* new(Storage storage) */
        if (storage_dtype(first) != dtype)
            return exc_set("RuntimeError",
                           "Expected a Storage of type %s or an UntypedStorage, but got type %s for argument 1 'storage'",
                           tsr_dtype_scalar_name(dtype), tsr_dtype_scalar_name(storage_dtype(first)));
        int64_t len = storage_len(first);
        return v_tensor(tsr_tensor_from_storage(storage_of(first), 0, 1, &len, NULL, dtype));
    }
    case 2:   /* new(*, int cdata): a raw pointer (1.13 crashes on a bad one) */
        return exc_set("NotImplementedError", "%s(cdata=...) is not supported by tsr", fname);
    case 3: {   /* new(Tensor other) */
        tsr_tensor *t = tensor_of(first);
        if (t->dtype != dtype || t->device.type != dev.type) {
            char w[256], g[256];
            options_str(w, sizeof w, dtype, dev);
            options_str(g, sizeof g, t->dtype, t->device);
            return exc_set("TypeError", "expected %s (got %s)", w, g);
        }
        return v_tensor(tsr_view_alias(t));
    }
    case 4:   /* new(Tensor other, *, Device? device): hidden, refused */
        if (c->is_new)
            return exc_set("RuntimeError", "Legacy tensor new of the form tensor.new(tensor, device=device) is not "
                                           "supported.  Use torch.as_tensor(...) instead.");
        return exc_set("RuntimeError", "Legacy tensor constructor of the form torch.Tensor(tensor, device=device) is "
                                       "not supported.  Use torch.tensor(...) or torch.as_tensor(...) instead.");
    default: break;
    }
    if (legacy_device(b->v[1], dev) < 0) return NULL;
    /* new(int[] size): a sequence given as the one positional argument is
     * data unless it is a torch.Size (legacy_new_from_sequence) */
    bool as_size = b->sig == 5 && (first == b->varargs || first->type == &t_size || b->bykw[0] || is_int_like(first));
    if (as_size) {
        int n;
        int64_t sizes[TSR_MAX_DIMS];
        if (bind_table_intlist(b, 0, fname, sizes, TSR_MAX_DIMS, &n) < 0) return NULL;
        tsr_tensor *t = tsr_tensor_empty(n, sizes, dtype, dev);
        return t ? v_tensor(t) : rt_error();
    }
    if (is_str(first)) return exc_set("TypeError", "new(): invalid data type 'str'");
    if (numpy_is_array(first)) {   /* shared when the dtypes match (tensor_new.cpp copy_numpy=false) */
        Value *r = numpy_as_tensor(first, dtype, false);
        if (!r || dev.type == TSR_DEV_CPU) return r;
        tsr_tensor *t = tsr_tensor_retain(tensor_of(r));
        decref(r);
        return v_tensor(to_device(t, dev));
    }
    if (!is_pyseq(first)) return exc_set("TypeError", "new(): data must be a sequence (got %s)", pytype(first));
    tsr_tensor *t = factory_from_data(first, dtype);
    if (!t) return NULL;
    return v_tensor(to_device(t, dev));
}

static BindRow legacy_row[] = {{
    .name = "new", .handler = legacy_run,
    .sigs = "*, Device? device=None|Storage storage|!*, int cdata|Tensor other|!Tensor other, *, Device? device=None|"
            "int[] size, *, Device? device=None|object data, *, Device? device=None",
}};

static Value *legacy_new(CallArgs *a, const char *fname, tsr_dtype dtype, tsr_device dev, bool is_new)
{
    (void)fname;
    LegacyCtx c = {dtype, dev, is_new};
    return bind_table_call_ctx(&legacy_row[0], NULL, a, &c);
}

/* x.new(...): the legacy constructor with x's dtype and device. */
static Value *m_new(Value *self, CallArgs *a, void *d)
{
    (void)d;
    tsr_tensor *t = tensor_of(self);
    if (t->layout == TSR_LAYOUT_SPARSE_COO) return bind_sparse_new(self, a);
    return legacy_new(a, "new", t->dtype, t->device, true);
}

/* The legacy classes: one VType per (dtype, cuda) that 1.13 has. */
static VType legacy_vt[2][TSR_DTYPE_SLOTS];
static char legacy_names[2][TSR_DTYPE_SLOTS][48];

static bool legacy_has(tsr_dtype d) { return tsr_dtype_valid(d) && !tsr_dtype_is_complex(d); }

bool legacy_class_of(Value *v, tsr_dtype *dtype, bool *cuda)
{
    if (v->type != &t_type) return false;
    const VType *t = v->u.typeobj;
    for (int c = 0; c < 2; c++) {
        if (t >= legacy_vt[c] && t < legacy_vt[c] + TSR_DTYPE_SLOTS) {
            if (dtype) *dtype = (tsr_dtype)(t - legacy_vt[c]);
            if (cuda) *cuda = c != 0;
            return true;
        }
    }
    return false;
}

/* Class attributes of the legacy classes (torch.FloatTensor.dtype): the
 * dtype, is_cuda, is_sparse and layout that 1.13's tensor type objects carry. */
static Value *legacy_class_getattr(const VType *t, const char *name)
{
    Value tv = {.type = &t_type};
    tv.u.typeobj = t;
    tsr_dtype d = TSR_FLOAT32;
    bool cuda = false;
    if (!legacy_class_of(&tv, &d, &cuda)) return NULL;
    if (!strcmp(name, "dtype")) return v_dtype(d);
    if (!strcmp(name, "is_cuda")) return v_bool(cuda);
    if (!strcmp(name, "is_sparse")) return v_bool(false);
    if (!strcmp(name, "layout")) return v_layout(TSR_LAYOUT_STRIDED);
    return NULL;
}

/* The construct slot of the legacy classes: torch.FloatTensor(2, 3). */
static Value *legacy_call(Value *type, CallArgs *a, void *data)
{
    tsr_dtype d = TSR_FLOAT32;
    bool cuda = false;
    legacy_class_of(type, &d, &cuda);
    if (cuda) {
        if (!tsr_device_backend((tsr_device){TSR_DEV_CUDA, 0})) {
            tsr_error_clear();
            return exc_set("TypeError", "type %s not available. Torch not compiled with CUDA enabled.",
                           type->u.typeobj->name);
        }
        return legacy_new(a, "new", d, (tsr_device){TSR_DEV_CUDA, tsr_device_current(TSR_DEV_CUDA)}, false);
    }
    return legacy_new(a, "new", d, TSR_CPU, false);
}

Value *factory_tensor_new(Value *self, CallArgs *a, void *data)
{
    return legacy_new(a, "new", tsr_default_dtype(), TSR_CPU, false);
}

/* ------------------------------------------------------------ registration */

void bind_factory_init(void)
{
    Value *torch = bind_module("torch");
    bind_table_register(defs, (int)(sizeof defs / sizeof defs[0]));
    bind_table_register(legacy_row, 1);
    /* is_tensor, numel and as_strided are tensor.c's */
    Value *attrs = torch->u.mod->attrs;
    bind_tensor_method("new", m_new);

    Value *cuda = bind_module("torch.cuda");
    for (int c = 0; c < 2; c++) {
#define X(ID, ...)                                                           \
        if (legacy_has(TSR_##ID)) {                                                                         \
            const tsr_dtype_traits *tr = tsr_dtype_traits_of(TSR_##ID);                                     \
            snprintf(legacy_names[c][TSR_##ID], sizeof legacy_names[c][TSR_##ID], "torch.%s%s",            \
                     c ? "cuda." : "", tr->tensor_type);                                                    \
            legacy_vt[c][TSR_##ID] = (VType){.name = legacy_names[c][TSR_##ID], .construct = legacy_call,      \
                                              .class_getattr = legacy_class_getattr};                   \
            module_add(c ? cuda : torch, tr->tensor_type, v_typeobj(&legacy_vt[c][TSR_##ID]));              \
        }
        TSR_DTYPES(X)
#undef X
    }
    if (!dict_get_str(attrs, "Tensor")) module_add(torch, "Tensor", v_typeobj(&t_tensor));
}
