/* src/bind/tensor.c — the Tensor type of the language: the value wrapper, the
 * method/property registry the binding files fill, runtime-error conversion,
 * the properties and basic indexing (SEMANTICS.md §4, §7). The methods are rows
 * of the binding table in shape.c (views) and attrs.c (queries, conversions).
 * A Tensor value owns one reference to its tsr_tensor header. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/tensor.h"
#include "bind/areas.h"
#include "show/show.h"

/* ------------------------------------------------------------ errors */

Value *bind_runtime_error(void)
{
    tsr_errkind k = tsr_error_kind();
    if (k == TSR_OK) {
        if (!exc_pending()) exc_set("RuntimeError", "internal error: operation failed without a message");
        return NULL;
    }
    exc_set(tsr_error_kind_name(k), "%s", tsr_error_message());
    tsr_error_clear();
    return NULL;
}

int bind_runtime_errori(void)
{
    bind_runtime_error();
    return -1;
}

/* ------------------------------------------------------------ registry */

typedef struct { const char *name; BuiltinFn fn; bool prepend; void *data; } MethodEnt;
typedef struct { const char *name; PropGet get; PropSet set; } PropEnt;
static MethodEnt *methods;
static int nmethods, capmethods;
static PropEnt *props;
static int nprops, capprops;

void bind_tensor_method_data(const char *name, BuiltinFn fn, void *data)
{
    for (int i = 0; i < nmethods; i++)
        if (!strcmp(methods[i].name, name)) { methods[i] = (MethodEnt){name, fn, false, data}; return; }
    if (nmethods == capmethods) {
        capmethods = capmethods * 2 + 64;
        methods = realloc(methods, (size_t)capmethods * sizeof *methods);
        if (!methods) abort();
    }
    methods[nmethods++] = (MethodEnt){name, fn, false, data};
}

void bind_tensor_method(const char *name, BuiltinFn fn) { bind_tensor_method_data(name, fn, NULL); }

const char *bind_tensor_method_name(int i) { return i >= 0 && i < nmethods ? methods[i].name : NULL; }

static void tensor_method_prepend(const char *name, BuiltinFn fn)
{
    bind_tensor_method(name, fn);
    for (int i = 0; i < nmethods; i++)
        if (!strcmp(methods[i].name, name)) methods[i].prepend = true;
}

void bind_tensor_property(const char *name, PropGet get, PropSet set)
{
    for (int i = 0; i < nprops; i++)
        if (!strcmp(props[i].name, name)) { props[i] = (PropEnt){name, get, set}; return; }
    if (nprops == capprops) {
        capprops = capprops * 2 + 32;
        props = realloc(props, (size_t)capprops * sizeof *props);
        if (!props) abort();
    }
    props[nprops++] = (PropEnt){name, get, set};
}

void bind_torch_function(const char *name, BuiltinFn fn, bool also_method)
{
    module_add(bind_module("torch"), name, v_builtin(name, fn, NULL, NULL));
    if (also_method) tensor_method_prepend(name, fn);
}

/* x.name(args) for a torch function: calls fn(NULL, (x, args...)). */
static Value *method_trampoline(Value *self, CallArgs *a, void *data)
{
    BuiltinFn fn = (BuiltinFn)data;
    Value *stack[16], **pos = a->npos + 1 <= 16 ? stack : value_xmalloc((size_t)(a->npos + 1) * sizeof *pos);
    pos[0] = self;
    for (int i = 0; i < a->npos; i++) pos[i + 1] = a->pos[i];
    CallArgs b = {pos, a->npos + 1, a->kwnames, a->kw, a->nkw};
    Value *r = fn(self, &b, NULL); /* self marks a method call: positions in messages skip it */
    if (pos != stack) free(pos);
    return r;
}

/* ------------------------------------------------------------ the Tensor type */

Value *v_tensor(tsr_tensor *t)
{
    if (!t) return bind_runtime_error();
    Value *v = value_alloc(&t_tensor);
    v->u.ext.ptr = t;
    return v;
}

static void tensor_destroy(Value *v) { tsr_tensor_release(tensor_of(v)); }
static Value *tensor_repr(Value *v) { return show_tensor_repr(tensor_of(v)); }

static Value *tensor_getattr(Value *v, const char *name)
{
    for (int i = 0; i < nprops; i++)
        if (!strcmp(props[i].name, name)) return props[i].get(v);
    for (int i = 0; i < nmethods; i++)
        if (!strcmp(methods[i].name, name)) {
            if (methods[i].prepend) return v_builtin(methods[i].name, method_trampoline, v, (void *)methods[i].fn);
            return v_builtin(methods[i].name, methods[i].fn, v, methods[i].data);
        }
    return NULL;
}

static int tensor_setattr(Value *v, const char *name, Value *x)
{
    for (int i = 0; i < nprops; i++)
        if (!strcmp(props[i].name, name)) {
            if (!props[i].set) return exc_seti("AttributeError", "attribute '%s' of 'torch._C._TensorBase' objects is not writable", name);
            return props[i].set(v, x);
        }
    return exc_seti("AttributeError", "'Tensor' object has no attribute '%s'", name);
}

static const char *tensor_dir(Value *v, int i)
{
    (void)v;
    if (i < nprops) return props[i].name;
    i -= nprops;
    return i < nmethods ? methods[i].name : NULL;
}

static int64_t tensor_len(Value *v)
{
    tsr_tensor *t = tensor_of(v);
    if (t->ndim == 0) return exc_seti("TypeError", "len() of a 0-d tensor");
    return t->sizes[0];
}

static Value *tensor_iter(Value *v)
{
    tsr_tensor *t = tensor_of(v);
    if (t->ndim == 0) return exc_set("TypeError", "iteration over a 0-d tensor");
    Value *l = v_list_sized((size_t)t->sizes[0]);
    if (!l) return NULL;
    for (int64_t i = 0; i < t->sizes[0]; i++) {
        Value *e = value_memory_check() < 0 ? NULL : v_tensor(tsr_view_select(t, 0, i));
        if (!e) {
            l->u.seq.n = (size_t)i;
            decref(l);
            return NULL;
        }
        l->u.seq.items[i] = e;
    }
    Value *it = v_seq_iter(l);
    decref(l);
    return it;
}

static int tensor_truth(Value *v)
{
    int r = tsr_tensor_is_nonzero(tensor_of(v));
    return r < 0 ? bind_runtime_errori() : r;
}

static Value *tensor_getitem(Value *v, Value *key);
static int tensor_setitem(Value *v, Value *key, Value *x);

const VType t_tensor = {.name = "Tensor", .module = "torch", .destroy = tensor_destroy, .repr = tensor_repr,
                        .getattr = tensor_getattr, .setattr = tensor_setattr, .binop = ops_tensor_binop,
                        .inplace = ops_tensor_inplace, .unop = ops_tensor_unop, .compare = ops_tensor_compare,
                        .getitem = tensor_getitem, .setitem = tensor_setitem, .iter = tensor_iter,
                        .len = tensor_len, .truth = tensor_truth, .dir = tensor_dir,
                        .construct = factory_tensor_new};

/* ------------------------------------------------------------ indexing */

static Value *index_type_error(Value *k)
{
    return exc_set("IndexError",
                   "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got %s)",
                   type_name(k));
}

/* An integer index from an int or a one-element integer tensor: 1 when k is
 * neither (not an error), 0 with *out, -1 on error. */
static int index_int(Value *k, int64_t *out)
{
    if (k->type == &t_int) { *out = k->u.i; return 0; }
    if (is_tensor(k)) {
        tsr_tensor *t = tensor_of(k);
        if (t->ndim == 0 && tsr_dtype_is_integral(t->dtype, false) && !tsr_tensor_is_meta(t)) {
            *out = tsr_tensor_get_int64_at(t, 0);
            return 0;
        }
    }
    return 1;
}

/* Applies a basic index (ints, slices, None, ...) to t: a new view, or NULL. */
static tsr_tensor *index_view(tsr_tensor *t, Value *key)
{
    Value **items = &key;
    int n = 1;
    if (key->type == &t_tuple) { items = key->u.seq.items; n = (int)key->u.seq.n; }
    int consumed = 0, ellipses = 0;
    for (int i = 0; i < n; i++) {
        Value *k = items[i];
        int64_t dummy;
        if (k->type == &t_ellipsis) ellipses++;
        else if (is_none(k)) continue;
        else if (k->type == &t_slice || index_int(k, &dummy) == 0) consumed++;
        else if (k->type == &t_bool || k->type == &t_list || is_tensor(k) || k->type == &t_tuple) {
            exc_set("NotImplementedError",
                    "advanced indexing (with tensors, lists or bools as indices) is not implemented yet in tsr");
            return NULL;
        } else if (k->type == &t_str) {
            exc_set("TypeError", "new(): invalid data type 'str'");
            return NULL;
        } else {
            index_type_error(k);
            return NULL;
        }
    }
    if (consumed > t->ndim) {
        if (t->ndim == 0)
            exc_set("IndexError", "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                  "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
        else exc_set("IndexError", "too many indices for tensor of dimension %d", t->ndim);
        return NULL;
    }
    tsr_tensor *cur = tsr_view_alias(t);
    if (!cur) { bind_runtime_error(); return NULL; }
    int d = 0, src_d = 0; /* d: dim in cur; src_d: dim of t it came from */
    for (int i = 0; i < n; i++) {
        Value *k = items[i];
        tsr_tensor *next = NULL;
        int64_t ix;
        if (k->type == &t_ellipsis) {
            /* 1.13 accepts several; the first one takes the unindexed dims */
            if (ellipses) {
                d += t->ndim - consumed;
                src_d += t->ndim - consumed;
                ellipses = 0;
            }
            continue;
        }
        if (is_none(k)) {
            next = tsr_view_unsqueeze(cur, d);
            d++;
        } else if (k->type == &t_slice) {
            int64_t start = 0, stop = TSR_SLICE_END, step = 1;
            Value *parts[3] = {k->u.slice.start, k->u.slice.stop, k->u.slice.step};
            int64_t *dst[3] = {&start, &stop, &step};
            for (int p = 0; p < 3; p++) {
                Value *x = parts[p];
                if (!x || is_none(x)) continue;
                int e = index_int(x, dst[p]);
                if (e == 0 && x->type == &t_bool) e = 1;
                if (e) {
                    exc_set("TypeError", "slice indices must be integers or None or have an __index__ method");
                    goto fail;
                }
            }
            if (step == 0) { exc_set("ValueError", "slice step cannot be zero"); goto fail; }
            if (step < 0) { exc_set("ValueError", "step must be greater than zero"); goto fail; }
            next = tsr_view_slice(cur, d, start, stop, step);
            d++;
            src_d++;
        } else {
            index_int(k, &ix);
            int64_t size = cur->sizes[d];
            if (ix < -size || ix >= size) {
                exc_set("IndexError", "index %" PRId64 " is out of bounds for dimension %d with size %" PRId64, ix,
                        src_d, size);
                goto fail;
            }
            next = tsr_view_select(cur, d, ix);
            src_d++;
        }
        if (!next) { bind_runtime_error(); goto fail; }
        tsr_tensor_release(cur);
        cur = next;
    }
    return cur;
fail:
    tsr_tensor_release(cur);
    return NULL;
}

static Value *tensor_getitem(Value *v, Value *key)
{
    tsr_tensor *r = index_view(tensor_of(v), key);
    return r ? v_tensor(r) : NULL;
}

/* dst.copy_(src) or dst.fill_(scalar) for assignments (x[...] = value). */
/* src as the value of an assignment into dst: leading size-1 dims dropped,
 * then expanded with expand's message (PyTorch's copy_to / slicePrefix1sDims). */
static int copy_expanded(tsr_tensor *dst, const tsr_tensor *src)
{
    tsr_tensor *s = tsr_view_alias(src);
    while (s && s->ndim > dst->ndim && s->sizes[0] == 1) {
        tsr_tensor *n = tsr_view_squeeze_dim(s, 0);
        tsr_tensor_release(s);
        s = n;
    }
    tsr_tensor *e = s ? tsr_view_expand(s, dst->ndim, dst->sizes) : NULL;
    tsr_tensor_release(s);
    int r = e ? tsr_copy_(dst, e) : -1;
    tsr_tensor_release(e);
    return r < 0 ? bind_runtime_errori() : 0;
}

static int assign_into(tsr_tensor *dst, Value *x)
{
    if (is_tensor(x)) return copy_expanded(dst, tensor_of(x));
    tsr_scalar s;
    if (x->type == &t_bool || x->type == &t_int || x->type == &t_float || x->type == &t_complex) {
        bind_scalar(x, "__setitem__", "value", &s);
        if (tsr_scalar_check_fits(s, dst->dtype) < 0) return bind_runtime_errori();
        if (tsr_fill_(dst, s) < 0) return bind_runtime_errori();
        return 0;
    }
    if (x->type == &t_list || x->type == &t_tuple) {
        /* a nested sequence: torch.tensor(x) then copy (the factory is bound in torch) */
        Value *fn = dict_get_str(bind_module("torch")->u.mod->attrs, "tensor");
        if (!fn) return exc_seti("NotImplementedError", "assigning a sequence needs torch.tensor");
        Value *t = value_call0(fn, 1, &x);
        if (!t) return -1;
        int r = is_tensor(t) ? copy_expanded(dst, tensor_of(t)) : -1;
        decref(t);
        return r;
    }
    return exc_seti("TypeError", "can't assign a %s to a %s", type_name(x), "torch.FloatTensor");
}

static int tensor_setitem(Value *v, Value *key, Value *x)
{
    tsr_tensor *view = index_view(tensor_of(v), key);
    if (!view) return -1;
    /* the assignment writes all of view or none of it */
    int r;
    if (tsr_interrupt_hold() < 0) r = bind_runtime_errori();
    else {
        r = assign_into(view, x);
        tsr_interrupt_unhold();
    }
    tsr_tensor_release(view);
    return r;
}

static tsr_tensor *self_t(Value *self) { return tensor_of(self); }

/* ------------------------------------------------------------ properties */

static Value *p_shape(Value *self) { return v_size(self_t(self)->ndim, self_t(self)->sizes); }
static Value *p_dtype(Value *self) { return v_dtype(self_t(self)->dtype); }
static Value *p_device(Value *self) { return v_device(self_t(self)->device); }
static Value *p_layout(Value *self) { return v_layout(self_t(self)->layout); }
static Value *p_ndim(Value *self) { return v_int(self_t(self)->ndim); }
static Value *p_is_cuda(Value *self) { return v_bool(self_t(self)->device.type == TSR_DEV_CUDA); }
static Value *p_is_cpu(Value *self) { return v_bool(self_t(self)->device.type == TSR_DEV_CPU); }
static Value *p_is_meta(Value *self) { return v_bool(self_t(self)->device.type == TSR_DEV_META); }
static Value *p_is_mps(Value *self) { return v_bool(self_t(self)->device.type == TSR_DEV_MPS); }
static Value *p_is_sparse(Value *self) { return v_bool(self_t(self)->layout == TSR_LAYOUT_SPARSE_COO); }
static Value *p_false(Value *self) { (void)self; return v_bool(false); }
static Value *p_true(Value *self) { (void)self; return v_bool(true); }
static Value *p_none(Value *self) { (void)self; return v_none(); }

static Value *p_requires_grad(Value *self) { return v_bool(self_t(self)->requires_grad); }

/* Autograd is not modelled: the flag is only recorded (for printing and the
 * dtype checks PyTorch makes); x.requires_grad_() is a row of attrs.c. */
static int ps_requires_grad(Value *self, Value *x)
{
    if (x->type != &t_bool) return exc_seti("RuntimeError", "requires_grad must be a bool");
    return tsr_tensor_set_requires_grad(self_t(self), x->u.i != 0, false) < 0 ? bind_runtime_errori() : 0;
}

static Value *p_names(Value *self)
{
    tsr_tensor *t = self_t(self);
    Value *r = v_tuple((size_t)t->ndim);
    for (int i = 0; i < t->ndim; i++)
        r->u.seq.items[i] = t->names && t->names[i] ? v_str(t->names[i]) : v_none();
    return r;
}

static Value *p_T(Value *self)
{
    tsr_tensor *t = self_t(self);
    int64_t dims[TSR_MAX_DIMS];
    for (int i = 0; i < t->ndim; i++) dims[i] = t->ndim - 1 - i;
    return v_tensor(tsr_view_permute(t, t->ndim, dims));
}

static Value *p_mT(Value *self) { return v_tensor(tsr_view_mT(self_t(self))); }
static Value *p_H(Value *self) { return v_tensor(tsr_view_H(self_t(self))); }

static Value *p_real(Value *self)
{
    tsr_tensor *t = self_t(self);
    if (!tsr_dtype_is_complex(t->dtype)) return incref(self);
    return v_tensor(tsr_view_real(t));
}

static Value *p_imag(Value *self) { return v_tensor(tsr_view_imag(self_t(self))); }

static int set_real_imag(Value *self, Value *x, bool imag)
{
    tsr_tensor *t = self_t(self);
    tsr_tensor *part = imag ? tsr_view_imag(t) : (tsr_dtype_is_complex(t->dtype) ? tsr_view_real(t) : tsr_view_alias(t));
    if (!part) return bind_runtime_errori();
    int r = assign_into(part, x);
    tsr_tensor_release(part);
    return r;
}
static int ps_real(Value *self, Value *x) { return set_real_imag(self, x, false); }
static int ps_imag(Value *self, Value *x) { return set_real_imag(self, x, true); }

/* x.data: an alias; assigning replaces the header (x.data = y) */
static Value *p_data(Value *self) { return v_tensor(tsr_view_alias(self_t(self))); }
static int ps_data(Value *self, Value *x)
{
    if (!is_tensor(x)) return exc_seti("TypeError", "Variable data has to be a tensor, but got %s", type_name(x));
    tsr_tensor *old = self_t(self);
    self->u.ext.ptr = tsr_tensor_retain(tensor_of(x));
    tsr_tensor_release(old);
    return 0;
}

/* ------------------------------------------------------------ registration */

void bind_tensor_init(void)
{
    Value *torch = bind_module("torch");
    module_add(torch, "Tensor", v_typeobj(&t_tensor));

    static const struct { const char *name; PropGet get; PropSet set; } ps[] = {
        {"shape", p_shape, NULL}, {"dtype", p_dtype, NULL}, {"device", p_device, NULL},
        {"layout", p_layout, NULL}, {"ndim", p_ndim, NULL}, {"is_cuda", p_is_cuda, NULL},
        {"is_cpu", p_is_cpu, NULL}, {"is_meta", p_is_meta, NULL}, {"is_mps", p_is_mps, NULL},
        {"is_sparse", p_is_sparse, NULL}, {"is_quantized", p_false, NULL}, {"is_mkldnn", p_false, NULL},
        {"is_sparse_csr", p_false, NULL}, {"is_nested", p_false, NULL},
        {"requires_grad", p_requires_grad, ps_requires_grad}, {"is_leaf", p_true, NULL}, {"grad", p_none, NULL},
        {"grad_fn", p_none, NULL},
        {"names", p_names, NULL}, {"T", p_T, NULL}, {"mT", p_mT, NULL}, {"H", p_H, NULL},
        {"real", p_real, ps_real}, {"imag", p_imag, ps_imag}, {"data", p_data, ps_data},
    };
    for (size_t i = 0; i < sizeof ps / sizeof *ps; i++) bind_tensor_property(ps[i].name, ps[i].get, ps[i].set);
}
