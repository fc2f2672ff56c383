/* src/bind/storage.c — Storage values (1.13's TypedStorage, torch/storage.py):
 * x.storage(), torch.FloatStorage & co., torch.is_storage. A value is a
 * runtime buffer plus the dtype it is read as; it always spans the whole
 * buffer, whatever view it came from (SEMANTICS.md §3.8, §7). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/factory.h"
#include "bind/areas.h"
#include "bind/tensor.h"

static void storage_destroy(Value *v) { tsr_storage_release(storage_of(v)); }

Value *v_storage(tsr_storage *s, tsr_dtype dtype)
{
    Value *v = value_alloc(&t_storage);
    v->u.ext.ptr = tsr_storage_retain(s);
    v->u.ext.a = dtype;
    return v;
}

int64_t storage_len(Value *v) { return (int64_t)(storage_of(v)->nbytes / (size_t)tsr_dtype_itemsize(storage_dtype(v))); }

static bool storage_is_meta(Value *v) { return tsr_device_is_meta(storage_of(v)->device) || !storage_of(v)->data; }

Value *storage_item(Value *v, int64_t i)
{
    tsr_storage *s = storage_of(v);
    if (tsr_device_is_meta(s->device))
        return exc_set("NotImplementedError", "Cannot copy out of meta tensor; no data!");
    tsr_dtype d = storage_dtype(v);
    return v_from_scalar(tsr_scalar_load(d, (char *)s->data + i * tsr_dtype_itemsize(d)));
}

/* "[torch.storage.TypedStorage(dtype=torch.float32, device=cpu) of size 6]" */
static void footer(Value *v, char *buf, size_t n)
{
    char dev[32];
    snprintf(buf, n, "[torch.storage.TypedStorage(dtype=torch.%s, device=%s) of size %" PRId64 "]",
             tsr_dtype_name(storage_dtype(v)), tsr_device_str(storage_of(v)->device, dev, sizeof dev), storage_len(v));
}

/* TypedStorage.__str__: ' ' + '\n '.join(str(x) for x in self) + '\n' + footer. */
static Value *storage_repr(Value *v)
{
    char foot[160];
    footer(v, foot, sizeof foot);
    if (tsr_device_is_meta(storage_of(v)->device)) return v_strf("...\n%s", foot);
    int64_t n = storage_len(v);
    size_t cap = 256, len = 0;
    char *buf = value_malloc(cap);
    if (!buf) return NULL;
    buf[len++] = ' ';
    for (int64_t i = 0; i < n; i++) {
        Value *x = storage_item(v, i), *s = x ? value_str(x) : NULL;
        decref(x);
        if (!s) { free(buf); return NULL; }
        size_t need = len + s->u.s.n + 3 + strlen(foot);
        if (need > cap) {
            while (cap < need) cap *= 2;
            char *nb = value_realloc(buf, cap);
            if (!nb) { free(buf); decref(s); return NULL; }
            buf = nb;
        }
        if (i) { buf[len++] = '\n'; buf[len++] = ' '; }
        memcpy(buf + len, s->u.s.p, s->u.s.n);
        len += s->u.s.n;
        decref(s);
    }
    size_t fl = strlen(foot);
    char *nb = value_realloc(buf, len + fl + 2);
    if (!nb) { free(buf); return NULL; }
    buf = nb;
    buf[len++] = '\n';
    memcpy(buf + len, foot, fl);
    len += fl;
    buf[len] = 0;
    return v_str_take(buf, len);
}

static int64_t storage_length(Value *v) { return storage_len(v); }

static int item_index(Value *v, Value *key, int64_t *out)
{
    int64_t n = storage_len(v), i;
    if (key->type == &t_slice) return exc_seti("RuntimeError", "slices are only supported in UntypedStorage.__getitem__");
    if (!is_int_like(key) && !is_tensor(key))
        return exc_seti("TypeError", "can't index a torch.storage.TypedStorage with %s", type_name(key));
    if (value_as_int(key, &i) < 0) return -1;
    if (i < -n || i >= n)
        return exc_seti("IndexError", "index %" PRId64 " out of range for storage of size %" PRId64, i, n);
    *out = i < 0 ? i + n : i;
    return 0;
}

static Value *storage_getitem(Value *v, Value *key)
{
    int64_t i = 0;
    if (item_index(v, key, &i) < 0) return NULL;
    return storage_item(v, i);
}

/* s[i] = x goes through a one-element tensor on the buffer, as 1.13 does
 * (tmp_tensor[idx] = value): fill_'s overflow check and messages. */
static int storage_setitem(Value *v, Value *key, Value *x)
{
    tsr_dtype d = storage_dtype(v);
    int64_t n = storage_len(v), i;
    if (key->type == &t_slice) return exc_seti("RuntimeError", "slices are only supported in UntypedStorage.__getitem__");
    if (value_as_int(key, &i) < 0) return -1;
    if (i < -n || i >= n)
        return exc_seti("IndexError", "index %" PRId64 " is out of bounds for dimension 0 with size %" PRId64, i, n);
    if (i < 0) i += n;
    tsr_scalar s;
    if (!is_number(x) && x->type != &t_complex && !is_tensor(x)) {
        const char *tt = tsr_dtype_traits_of(d)->tensor_type;
        return exc_seti("TypeError", "can't assign a %s to a torch.%s", type_name(x), tt ? tt : "Tensor");
    }
    if (bind_scalar(x, "__setitem__", "value", &s) < 0) return -1;
    if (tsr_scalar_check_fits(s, d) < 0) return bind_runtime_errori();
    tsr_storage *st = storage_of(v);
    if (tsr_device_is_meta(st->device)) return 0;
    tsr_scalar_store(d, (char *)st->data + i * tsr_dtype_itemsize(d), s);
    return 0;
}

static Value *items_list(Value *v)
{
    if (storage_is_meta(v) && storage_len(v) > 0)
        return exc_set("NotImplementedError", "Cannot copy out of meta tensor; no data!");
    int64_t n = storage_len(v);
    Value *l = v_list(0);
    for (int64_t i = 0; i < n; i++) {
        Value *x = storage_item(v, i);
        if (!x || list_append_steal(l, x) < 0) { decref(l); return NULL; }
    }
    return l;
}

static Value *storage_iter(Value *v)
{
    Value *l = items_list(v);
    if (!l) return NULL;
    Value *it = value_iter(l);
    decref(l);
    return it;
}

/* ---- methods ---- */

#define NOARGS(name)                                                                                       \
    if (a->npos || a->nkw) return exc_set("TypeError", name "() takes 1 positional argument but %d were given", \
                                          1 + a->npos + a->nkw)

static Value *sm_size(Value *self, CallArgs *a, void *d) { (void)d; NOARGS("size"); return v_int(storage_len(self)); }
static Value *sm_len(Value *self, CallArgs *a, void *d) { (void)d; NOARGS("__len__"); return v_int(storage_len(self)); }
static Value *sm_tolist(Value *self, CallArgs *a, void *d) { (void)d; NOARGS("tolist"); return items_list(self); }
static Value *sm_element_size(Value *self, CallArgs *a, void *d)
{
    (void)d;
    NOARGS("element_size");
    return v_int(tsr_dtype_itemsize(storage_dtype(self)));
}
static Value *sm_nbytes(Value *self, CallArgs *a, void *d) { (void)d; NOARGS("nbytes"); return v_int((int64_t)storage_of(self)->nbytes); }
static Value *sm_data_ptr(Value *self, CallArgs *a, void *d)
{
    (void)d;
    NOARGS("data_ptr");
    return v_int((int64_t)(intptr_t)storage_of(self)->data);
}
static Value *sm_is_shared(Value *self, CallArgs *a, void *d) { (void)self; (void)d; NOARGS("is_shared"); return v_bool(false); }
static Value *sm_is_pinned(Value *self, CallArgs *a, void *d) { (void)self; (void)d; NOARGS("is_pinned"); return v_bool(false); }
static Value *sm_type(Value *self, CallArgs *a, void *d)
{
    (void)d;
    NOARGS("type");
    const tsr_dtype_traits *tr = tsr_dtype_traits_of(storage_dtype(self));
    bool cuda = storage_of(self)->device.type == TSR_DEV_CUDA;
    return v_strf("torch.%s%s", cuda ? "cuda." : "", tr->storage_type);
}
static Value *sm_cpu(Value *self, CallArgs *a, void *d)
{
    (void)d;
    NOARGS("cpu");
    if (storage_of(self)->device.type == TSR_DEV_CPU) return incref(self);
    return exc_set("NotImplementedError", "tsr: copying a %s storage to the CPU is not supported",
                   tsr_device_type_name(storage_of(self)->device.type));
}
static Value *sm_fill_(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *x[1];
    if (bind_args(a, "fill_", "value", x) < 0) return NULL;
    tsr_scalar s;
    tsr_dtype dt = storage_dtype(self);
    if (bind_scalar(x[0], "fill_", "value", &s) < 0) return NULL;
    if (tsr_scalar_check_fits(s, dt) < 0) return bind_runtime_error();
    tsr_storage *st = storage_of(self);
    if (!tsr_device_is_meta(st->device))
        for (int64_t i = 0, n = storage_len(self); i < n; i++)
            tsr_scalar_store(dt, (char *)st->data + i * tsr_dtype_itemsize(dt), s);
    return incref(self);
}

static const struct { const char *name; BuiltinFn fn; } storage_methods[] = {
    {"size", sm_size}, {"__len__", sm_len}, {"tolist", sm_tolist}, {"element_size", sm_element_size},
    {"nbytes", sm_nbytes}, {"data_ptr", sm_data_ptr}, {"is_shared", sm_is_shared}, {"is_pinned", sm_is_pinned},
    {"type", sm_type}, {"cpu", sm_cpu}, {"fill_", sm_fill_},
};

static Value *storage_getattr(Value *v, const char *name)
{
    if (!strcmp(name, "dtype")) return v_dtype(storage_dtype(v));
    if (!strcmp(name, "device")) return v_device(storage_of(v)->device);
    if (!strcmp(name, "is_cuda")) return v_bool(storage_of(v)->device.type == TSR_DEV_CUDA);
    if (!strcmp(name, "is_sparse")) return v_bool(false);
    for (size_t i = 0; i < sizeof storage_methods / sizeof *storage_methods; i++)
        if (!strcmp(name, storage_methods[i].name)) return v_builtin(storage_methods[i].name, storage_methods[i].fn, v, NULL);
    return NULL;
}

static const char *storage_dir(Value *v, int i)
{
    (void)v;
    static const char *extra[] = {"device", "dtype", "is_cuda", "is_sparse"};
    int n = (int)(sizeof storage_methods / sizeof *storage_methods);
    if (i < n) return storage_methods[i].name;
    i -= n;
    return i < 4 ? extra[i] : NULL;
}

const VType t_storage = {.name = "TypedStorage", .module = "torch.storage", .destroy = storage_destroy,
                         .repr = storage_repr, .getattr = storage_getattr, .getitem = storage_getitem,
                         .setitem = storage_setitem, .iter = storage_iter, .len = storage_length,
                         .dir = storage_dir};

/* ------------------------------------------------------------ storage classes */

static VType class_vt[TSR_DTYPE_SLOTS];
static char class_names[TSR_DTYPE_SLOTS][40];

static bool class_has(tsr_dtype d) { return tsr_dtype_valid(d) && tsr_dtype_traits_of(d)->storage_type; }

static Value *storage_class_value(tsr_dtype d)
{
    if (!class_has(d)) return exc_set("AttributeError", "module 'torch' has no storage class for %s", tsr_dtype_name(d));
    return v_typeobj(&class_vt[d]);
}

/* torch.FloatStorage(), (n) or (sequence): _LegacyStorage.__new__. */
static Value *storage_class_call(Value *type, CallArgs *a, void *data)
{
    const VType *t = type->u.typeobj;      /* one of class_vt: its construct slot */
    tsr_dtype d = (tsr_dtype)(t - class_vt);
    Value *x[2];
    if (bind_args(a, t->name + 6, "arg=, /, *, device=", x) < 0) return NULL;
    tsr_device dev = TSR_CPU;
    if (x[1] && bind_device_arg(x[1], TSR_CPU, &dev) < 0) return NULL;
    int isz = tsr_dtype_itemsize(d);
    if (!x[0]) {
        tsr_storage *s = tsr_storage_new(0, d, dev);
        if (!s) return bind_runtime_error();
        Value *v = v_storage(s, d);
        tsr_storage_release(s);
        return v;
    }
    if (is_int_like(x[0]) && x[0]->type != &t_bool) {
        int64_t n = x[0]->u.i;
        if (n < 0)
            return exc_set("RuntimeError",
                           "[enforce fail at alloc_cpu.cpp:52] ((ptrdiff_t)nbytes) >= 0. alloc_cpu() seems to have "
                           "been called with negative number: %" PRIu64, (uint64_t)(n * isz));
        tsr_storage *s = tsr_storage_new((size_t)n * (size_t)isz, d, dev);
        if (!s) return bind_runtime_error();
        Value *v = v_storage(s, d);
        tsr_storage_release(s);
        return v;
    }
    tsr_tensor *tt = factory_from_data(x[0], d);
    if (!tt) return NULL;
    Value *v = v_storage(tt->storage, d);
    tsr_tensor_release(tt);
    return v;
}

/* ------------------------------------------------------------ functions and methods */

static Value *f_is_storage(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (bind_args(a, "is_storage", "def obj", x) < 0) return NULL;
    return v_bool(is_storage(x[0]));
}

/* Tensor.storage() and storage_type() are Python code in 1.13 (torch/_tensor.py,
 * def storage(self)): a Python def's argument errors. */
static Value *py_noargs(CallArgs *a, const char *qname)
{
    if (a->npos) return exc_set("TypeError", "%s() takes 1 positional argument but %d were given", qname, a->npos + 1);
    if (a->nkw) return exc_set("TypeError", "%s() got an unexpected keyword argument '%s'", qname, a->kwnames[0]);
    return NULL;
}

static Value *m_storage(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (py_noargs(a, "Tensor.storage") || exc_pending()) return NULL;
    tsr_tensor *t = tensor_of(self);
    if (t->sparse) return exc_set("NotImplementedError", "Cannot access storage of SparseTensorImpl");
    return v_storage(t->storage, t->dtype);
}

static Value *m_storage_type(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (py_noargs(a, "Tensor.storage_type") || exc_pending()) return NULL;
    return storage_class_value(tensor_of(self)->dtype);
}

void bind_storage_init(void)
{
    Value *torch = bind_module("torch");
#define X(ID, ...)                                                       \
    if (class_has(TSR_##ID)) {                                                                          \
        const char *stn = tsr_dtype_traits_of(TSR_##ID)->storage_type;                                  \
        snprintf(class_names[TSR_##ID], sizeof class_names[TSR_##ID], "torch.%s", stn);                 \
        class_vt[TSR_##ID] = (VType){.name = class_names[TSR_##ID], .construct = storage_class_call};  \
        module_add(torch, stn, v_typeobj(&class_vt[TSR_##ID]));                                        \
    }
    TSR_DTYPES(X)
#undef X
    module_add_fn(torch, "is_storage", f_is_storage);
    bind_tensor_method("storage", m_storage);
    bind_tensor_method("storage_type", m_storage_type);
    Value *st = bind_module("torch.storage");
    module_add(st, "TypedStorage", v_typeobj(&t_storage));
}
