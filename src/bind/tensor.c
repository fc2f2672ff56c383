/* src/bind/tensor.c — the Tensor type of the language: the value wrapper, the
 * method/property registry the binding files fill, runtime-error conversion,
 * attributes, conversions, view methods and basic indexing (SEMANTICS.md §4, §7).
 * A Tensor value owns one reference to its tsr_tensor header. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/tensor.h"
#include "bind/areas.h"
#include "show/show.h"

Value *bind_invalid_combination(const char *fname, CallArgs *a); /* types.c */

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

/* The single element of t (item()); -1 with PyTorch's errors. */
static int one_element(const tsr_tensor *t, tsr_scalar *out)
{
    if (tsr_tensor_numel(t) != 1)
        return exc_seti("ValueError", "only one element tensors can be converted to Python scalars");
    if (tsr_tensor_is_meta(t)) return exc_seti("NotImplementedError", "%s", local_scalar_meta);
    if (tsr_tensor_get_at(t, 0, out) < 0) return bind_runtime_errori();
    return 0;
}

static int tensor_truth(Value *v)
{
    tsr_tensor *t = tensor_of(v);
    int64_t n = tsr_tensor_numel(t);
    if (n == 0) return exc_seti("RuntimeError", "Boolean value of Tensor with no values is ambiguous");
    if (n > 1) return exc_seti("RuntimeError", "Boolean value of Tensor with more than one value is ambiguous");
    tsr_scalar s;
    if (one_element(t, &s) < 0) return -1;
    return tsr_scalar_to_bool(s);
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
    int r = assign_into(view, x);
    tsr_tensor_release(view);
    return r;
}

/* ------------------------------------------------------------ argument helpers */

static tsr_tensor *self_t(Value *self) { return tensor_of(self); }

/* A call being parsed the way PyTorch's python_arg_parser reports errors:
 * off = 1 when a->pos[0] is the self of a method call (its positions are
 * not counted); multi = the function has several signatures, so a bad
 * argument gives "received an invalid combination of arguments". */
typedef struct { const char *fname; CallArgs *a; int off; bool multi; } Call;

static Value *call_combo(const Call *c)
{
    CallArgs b = {c->a->pos + c->off, c->a->npos - c->off, c->a->kwnames, c->a->kw, c->a->nkw};
    return bind_invalid_combination(c->fname, &b);
}

static int call_args(const Call *c, const char *spec, Value **out)
{
    if (bind_args(c->a, c->fname, spec, out) == 0) return 0;
    if (!exc_matches("TypeError")) return -1;
    if (c->multi) {
        exc_clear();
        call_combo(c);
        return -1;
    }
    const char *m = strstr(exc_message(), "missing required argument '");
    if (m) {
        char name[64];
        m += strlen("missing required argument '");
        snprintf(name, sizeof name, "%.*s", (int)strcspn(m, "'"), m);
        exc_clear();
        return exc_seti("TypeError", "%s() missing 1 required positional arguments: \"%s\"", c->fname, name);
    }
    return -1;
}

/* The n arguments of a call, spec as bind_args; declares x[] and c. */
#define ARGSX(name, spec, n, offv, multiv)                  \
    Value *x[n];                                            \
    Call c = {name, a, offv, multiv};                       \
    if (call_args(&c, spec, x)) return NULL
#define ARGS(name, spec, n) ARGSX(name, spec, n, 0, false); (void)c
/* torch.f(input, ...) / x.f(...) through the trampoline (self non-NULL) */
#define FARGS(name, spec, n, multiv) ARGSX(name, spec, n, self ? 1 : 0, multiv)

/* Integer argument at position pos (counting input as 1). */
static int c_int(const Call *c, Value *v, int pos, const char *arg, int64_t *out)
{
    if (v->type == &t_int) { *out = v->u.i; return 0; }
    if (is_tensor(v) && tensor_of(v)->ndim == 0 && tsr_dtype_is_integral(tensor_of(v)->dtype, false) &&
        !tsr_tensor_is_meta(tensor_of(v))) {
        *out = tsr_tensor_get_int64_at(tensor_of(v), 0);
        return 0;
    }
    if (c->multi) { call_combo(c); return -1; }
    return exc_seti("TypeError", "%s(): argument '%s' (position %d) must be int, not %s", c->fname, arg,
                    pos - c->off, type_name(v));
}

static int c_opt_int(const Call *c, Value *v, int pos, const char *arg, int64_t dflt, int64_t *out)
{
    if (!v) { *out = dflt; return 0; }
    return c_int(c, v, pos, arg, out);
}

static int tensor_arg(Value *v, const char *fname, const char *arg, int pos, tsr_tensor **out)
{
    if (is_tensor(v)) { *out = tensor_of(v); return 0; }
    return exc_seti("TypeError", "%s(): argument '%s' (position %d) must be Tensor, not %s", fname, arg, pos, type_name(v));
}

/* Sizes given as varargs or one sequence (a->pos[first..]). */
static int shape_args(CallArgs *a, int first, const char *fname, const char *kwname, int *n, int64_t *sizes)
{
    if (a->nkw == 1 && !strcmp(a->kwnames[0], kwname) && a->npos == first) {
        CallArgs b = {a->kw, 1, NULL, NULL, 0};
        return bind_shape(&b, 0, 1, fname, n, sizes);
    }
    if (a->nkw) return exc_seti("TypeError", "%s() got an unexpected keyword argument '%s'", fname, a->kwnames[0]);
    return bind_shape(a, first, a->npos - first, fname, n, sizes);
}

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
 * dtype checks PyTorch makes). */
static int set_requires_grad(Value *self, bool on)
{
    tsr_tensor *t = self_t(self);
    if (on && !tsr_dtype_is_floating(t->dtype) && !tsr_dtype_is_complex(t->dtype))
        return exc_seti("RuntimeError", "only Tensors of floating point and complex dtype can require gradients");
    t->requires_grad = on;
    return 0;
}

static int ps_requires_grad(Value *self, Value *x)
{
    if (x->type != &t_bool) return exc_seti("RuntimeError", "requires_grad must be a bool");
    return set_requires_grad(self, x->u.i != 0);
}

static Value *m_requires_grad_(Value *self, CallArgs *a, void *d)
{
    (void)d;
    ARGS("requires_grad_", "requires_grad=", 1);
    bool on = true;
    if (x[0] && bind_bool(x[0], "requires_grad_", "requires_grad", &on) < 0) return NULL;
    if (on && !tsr_dtype_is_floating(self_t(self)->dtype) && !tsr_dtype_is_complex(self_t(self)->dtype))
        return exc_set("RuntimeError", "only Tensors of floating point dtype can require gradients");
    if (set_requires_grad(self, on) < 0) return NULL;
    return incref(self);
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

static Value *p_mT(Value *self)
{
    tsr_tensor *t = self_t(self);
    if (t->ndim < 2)
        return exc_set("RuntimeError", "tensor.mT is only supported on matrices or batches of matrices. Got %d-D tensor.", t->ndim);
    return v_tensor(tsr_view_transpose(t, -2, -1));
}

static Value *p_H(Value *self)
{
    tsr_tensor *t = self_t(self);
    if (t->ndim != 2 && t->ndim != 0)
        return exc_set("RuntimeError", "tensor.H is only supported on matrices (2-D tensors). Got %d-D tensor.", t->ndim);
    if (tsr_dtype_is_complex(t->dtype))
        return exc_set("NotImplementedError", "tensor.H of a complex tensor (conjugation) is not implemented yet in tsr");
    if (t->ndim == 0) return v_tensor(tsr_view_alias(t));
    return v_tensor(tsr_view_t(t));
}

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

/* ------------------------------------------------------------ sizes, strides */

static Value *dim_query(Value *self, CallArgs *a, const char *fname, bool sizes)
{
    tsr_tensor *t = self_t(self);
    const int64_t *vals = sizes ? t->sizes : t->strides;
    ARGSX(fname, "dim=", 1, 0, true);
    if (x[0] && is_none(x[0])) return exc_set("RuntimeError", "Please look up dimensions by name, got: name = None.");
    if (!x[0]) {
        if (sizes) return v_size(t->ndim, t->sizes);
        Value *r = v_tuple((size_t)t->ndim);
        for (int i = 0; i < t->ndim; i++) r->u.seq.items[i] = v_int(vals[i]);
        return r;
    }
    if (x[0]->type == &t_str) {
        char buf[512];
        size_t n = 0;
        for (int i = 0; i < t->ndim && n < sizeof buf - 16; i++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? ", " : "",
                                  t->names && t->names[i] ? t->names[i] : "None");
        if (t->names)
            for (int i = 0; i < t->ndim; i++)
                if (t->names[i] && !strcmp(t->names[i], x[0]->u.s.p)) return v_int(vals[i]);
        return exc_set("RuntimeError", "Name '%s' not found in Tensor[%s].", x[0]->u.s.p, buf);
    }
    int64_t d;
    if (c_int(&c, x[0], 1, "dim", &d) < 0) return NULL;
    int w = tsr_wrap_dim(d, t->ndim);
    if (w < 0) return bind_runtime_error();
    if (t->ndim == 0)
        return exc_set("IndexError", "Dimension specified as %" PRId64 " but tensor has no dimensions", d);
    return v_int(vals[w]);
}

static Value *m_size(Value *self, CallArgs *a, void *d) { (void)d; return dim_query(self, a, "size", true); }
static Value *m_stride(Value *self, CallArgs *a, void *d) { (void)d; return dim_query(self, a, "stride", false); }

static Value *no_arg_method(CallArgs *a, const char *fname)
{
    if (a->nkw) return exc_set("TypeError", "_TensorBase.%s() takes no keyword arguments", fname);
    if (a->npos) return exc_set("TypeError", "_TensorBase.%s() takes no arguments (%d given)", fname, a->npos);
    return NULL;
}
#define NOARGS(name) do { if (no_arg_method(a, name) || exc_pending()) return NULL; } while (0)

static Value *m_storage_offset(Value *self, CallArgs *a, void *d)
{
    (void)d;
    NOARGS("storage_offset");
    return v_int(tsr_tensor_is_meta(self_t(self)) ? 0 : self_t(self)->storage_offset);
}
static Value *m_dim(Value *self, CallArgs *a, void *d) { (void)d; NOARGS("dim"); return v_int(self_t(self)->ndim); }
static Value *m_ndimension(Value *self, CallArgs *a, void *d) { (void)d; NOARGS("ndimension"); return v_int(self_t(self)->ndim); }
static Value *m_nelement(Value *self, CallArgs *a, void *d) { (void)d; NOARGS("nelement"); return v_int(tsr_tensor_numel(self_t(self))); }
static Value *m_element_size(Value *self, CallArgs *a, void *d) { (void)d; NOARGS("element_size"); return v_int(tsr_tensor_itemsize(self_t(self))); }
static Value *m_get_device(Value *self, CallArgs *a, void *d)
{
    (void)d;
    NOARGS("get_device");
    tsr_device dv = self_t(self)->device;
    return v_int(dv.type == TSR_DEV_CUDA ? (dv.index < 0 ? 0 : dv.index) : -1);
}
static Value *m_is_signed(Value *self, CallArgs *a, void *d) { (void)d; NOARGS("is_signed"); return v_bool(tsr_dtype_is_signed(self_t(self)->dtype)); }

static Value *m_data_ptr(Value *self, CallArgs *a, void *d)
{
    (void)d;
    NOARGS("data_ptr");
    tsr_tensor *t = self_t(self);
    if (tsr_tensor_is_meta(t) || !t->storage->data) return v_int(0);
    return v_int((int64_t)(intptr_t)((char *)t->storage->data + t->storage_offset * tsr_tensor_itemsize(t)));
}

static Value *m_is_contiguous(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (a->npos) return exc_set("TypeError", "is_contiguous() takes 0 positional arguments but %d %s given", a->npos, a->npos == 1 ? "was" : "were");
    ARGS("is_contiguous", "*, memory_format=", 1);
    tsr_memory_format mf;
    if (bind_memory_format_arg(x[0], TSR_MF_CONTIGUOUS, &mf) < 0) return NULL;
    if (mf == TSR_MF_PRESERVE) mf = TSR_MF_CONTIGUOUS;
    return v_bool(tsr_tensor_is_contiguous_as(self_t(self), mf));
}

static Value *m_is_set_to(Value *self, CallArgs *a, void *d)
{
    (void)d;
    ARGS("is_set_to", "tensor", 1);
    tsr_tensor *o = NULL, *t = self_t(self);
    if (tensor_arg(x[0], "is_set_to", "tensor", 1, &o) < 0) return NULL;
    bool same = t->storage == o->storage && t->storage_offset == o->storage_offset && t->ndim == o->ndim;
    for (int i = 0; same && i < t->ndim; i++) same = t->sizes[i] == o->sizes[i] && t->strides[i] == o->strides[i];
    return v_bool(same);
}

/* ------------------------------------------------------------ copies and fills */

static Value *m_contiguous(Value *self, CallArgs *a, void *d)
{
    (void)d;
    ARGS("contiguous", "*, memory_format=", 1);
    tsr_memory_format mf;
    if (bind_memory_format_arg(x[0], TSR_MF_CONTIGUOUS, &mf) < 0) return NULL;
    return v_tensor_or_self(self, tsr_contiguous(self_t(self), mf));
}

static Value *f_clone(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    ARGS("clone", "input, *, memory_format=", 2);
    tsr_tensor *t = NULL;
    tsr_memory_format mf;
    if (tensor_arg(x[0], "clone", "input", 1, &t) < 0) return NULL;
    if (bind_memory_format_arg(x[1], TSR_MF_PRESERVE, &mf) < 0) return NULL;
    return v_tensor(tsr_clone(t, mf));
}

static Value *m_copy_(Value *self, CallArgs *a, void *d)
{
    (void)d;
    ARGS("copy_", "src, non_blocking=", 2);
    if (is_tensor(x[0])) {
        if (tsr_copy_(self_t(self), tensor_of(x[0])) < 0) return bind_runtime_error();
        return incref(self);
    }
    tsr_scalar s;
    if (x[0]->type == &t_bool || x[0]->type == &t_int || x[0]->type == &t_float || x[0]->type == &t_complex) {
        bind_scalar(x[0], "copy_", "src", &s);
        if (tsr_fill_(self_t(self), s) < 0) return bind_runtime_error();
        return incref(self);
    }
    return exc_set("TypeError", "copy_(): argument 'other' (position 1) must be Tensor, not %s", type_name(x[0]));
}

static Value *m_fill_(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (a->npos != 1 || a->nkw) {
        Value *x[1];
        if (bind_args(a, "fill_", "value", x)) return NULL;
    }
    Value *v = a->npos ? a->pos[0] : a->kw[0];
    tsr_scalar s;
    if (is_tensor(v)) {
        tsr_tensor *o = tensor_of(v);
        if (o->ndim != 0)
            return exc_set("RuntimeError", "fill_ only supports 0-dimension value tensor but got tensor with %d dimensions.", o->ndim);
        if (tsr_copy_(self_t(self), o) < 0) return bind_runtime_error();
        return incref(self);
    }
    if (!(v->type == &t_bool || v->type == &t_int || v->type == &t_float || v->type == &t_complex))
        return bind_invalid_combination("fill_", a);
    bind_scalar(v, "fill_", "value", &s);
    if (tsr_scalar_check_fits(s, self_t(self)->dtype) < 0) return bind_runtime_error();
    if (tsr_fill_(self_t(self), s) < 0) return bind_runtime_error();
    return incref(self);
}

static Value *m_zero_(Value *self, CallArgs *a, void *d)
{
    (void)d;
    NOARGS("zero_");
    if (tsr_zero_(self_t(self)) < 0) return bind_runtime_error();
    return incref(self);
}

/* Replaces self's header (set_, resize_): other Values holding the old
 * header keep it, as views of the old geometry. Steals t. */
static Value *replace_header(Value *self, tsr_tensor *t)
{
    if (!t) return bind_runtime_error();
    tsr_tensor *old = self_t(self);
    self->u.ext.ptr = t;
    tsr_tensor_release(old);
    return incref(self);
}

static Value *m_set_(Value *self, CallArgs *a, void *d)
{
    (void)d;
    ARGS("set_", "source=, storage_offset=, size=, stride=", 4);
    tsr_tensor *t = self_t(self);
    if (!x[0]) {
        tsr_storage *s = tsr_storage_new(0, t->dtype, t->device);
        if (!s) return bind_runtime_error();
        int64_t zero = 0;
        tsr_tensor *r = tsr_tensor_from_storage(s, 0, 1, &zero, NULL, t->dtype);
        tsr_storage_release(s);
        return replace_header(self, r);
    }
    if (is_tensor(x[0]) && !x[1]) {
        tsr_tensor *o = tensor_of(x[0]);
        if (o->dtype != t->dtype)
            return exc_set("RuntimeError", "Expected object of scalar type %s but got scalar type %s for argument 'source'",
                           tsr_dtype_scalar_name(t->dtype), tsr_dtype_scalar_name(o->dtype));
        return replace_header(self, tsr_tensor_alias(o, o->ndim, o->sizes, o->strides, o->storage_offset));
    }
    if (!is_storage(x[0]) || (x[1] && !x[2]) || a->npos > 4) {
        CallArgs b = *a;
        return bind_invalid_combination("set_", &b);
    }
    tsr_storage *st = storage_of(x[0]);
    if (storage_dtype(x[0]) != t->dtype) {
        char lower[32];
        snprintf(lower, sizeof lower, "%s", tsr_dtype_scalar_name(t->dtype));
        for (char *p = lower; *p; p++) *p = (char)(*p | 0x20);
        return exc_set("RuntimeError", "Expected a Storage of type %s or an UntypedStorage, but got type %s for argument 1 'storage'",
                       lower, tsr_dtype_scalar_name(storage_dtype(x[0])));
    }
    int64_t off = 0, sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    int n = 1, ns = 0;
    sizes[0] = storage_len(x[0]);
    if (x[1]) {
        Call c = {"set_", a, 0, true};
        if (c_int(&c, x[1], 1, "storage_offset", &off) < 0) return NULL;
        if (bind_int_list(x[2], "set_", "size", &n, sizes, TSR_MAX_DIMS) < 0) return NULL;
        if (x[3] && bind_int_list(x[3], "set_", "stride", &ns, strides, TSR_MAX_DIMS) < 0) return NULL;
        if (ns && ns != n) return exc_set("RuntimeError", "mismatch in length of strides and shape");
    }
    if (!ns) tsr_strides_contiguous(n, sizes, strides);
    /* a storage too small for the view grows, as THTensor's setStorage does */
    /* (sizes that overflow grow nothing: the runtime reports them) */
    int64_t last = off, numel = 1, term;
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
    if (need > st->nbytes && st->resizable && tsr_storage_resize(st, need) < 0) return bind_runtime_error();
    return replace_header(self, tsr_tensor_from_storage(st, off, n, sizes, strides, t->dtype));
}

static Value *do_resize(Value *self, int n, const int64_t *sizes)
{
    tsr_tensor *t = self_t(self);
    int64_t numel;
    for (int i = 0; i < n; i++)
        if (sizes[i] < 0) return exc_set("RuntimeError", "numel: integer multiplication overflow");
    if (tsr_check_sizes(n, sizes, &numel) < 0) return bind_runtime_error();
    size_t need = (size_t)(numel + (numel ? t->storage_offset : 0)) * (size_t)tsr_tensor_itemsize(t);
    if (need > t->storage->nbytes && tsr_storage_resize(t->storage, need) < 0) return bind_runtime_error();
    return replace_header(self, tsr_tensor_from_storage(t->storage, t->storage_offset, n, sizes, NULL, t->dtype));
}

static Value *m_resize_(Value *self, CallArgs *a, void *d)
{
    (void)d;
    int n;
    int64_t sizes[TSR_MAX_DIMS];
    if (a->npos == 0 && !a->nkw) return exc_set("TypeError", "resize_() missing 1 required positional arguments: \"size\"");
    if (shape_args(a, 0, "resize_", "size", &n, sizes) < 0) {
        if (a->npos == 1 && exc_matches("TypeError")) {
            exc_clear();
            return exc_set("TypeError", "resize_(): argument 'size' (position 1) must be tuple of SymInts, not %s",
                           type_name(a->pos[0]));
        }
        return NULL;
    }
    return do_resize(self, n, sizes);
}

static Value *m_resize_as_(Value *self, CallArgs *a, void *d)
{
    (void)d;
    ARGS("resize_as_", "the_template, *, memory_format=", 2);
    tsr_tensor *o = NULL;
    if (tensor_arg(x[0], "resize_as_", "the_template", 1, &o) < 0) return NULL;
    return do_resize(self, o->ndim, o->sizes);
}

/* ------------------------------------------------------------ Python scalars */

static Value *m_item(Value *self, CallArgs *a, void *d)
{
    (void)d;
    NOARGS("item");
    tsr_scalar s;
    if (one_element(self_t(self), &s) < 0) return NULL;
    return v_from_scalar(s);
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

static Value *m_tolist(Value *self, CallArgs *a, void *d)
{
    (void)d;
    NOARGS("tolist");
    tsr_tensor *t = self_t(self);
    if (tsr_tensor_is_meta(t)) return exc_set("NotImplementedError", "Cannot copy out of meta tensor; no data!");
    int64_t idx[TSR_MAX_DIMS] = {0};
    return tolist_rec(t, 0, idx);
}

static Value *m_int(Value *self, CallArgs *a, void *d)
{
    (void)d; (void)a;
    tsr_scalar s;
    if (one_element(self_t(self), &s) < 0) return NULL;
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
}

static Value *m_float(Value *self, CallArgs *a, void *d)
{
    (void)d; (void)a;
    tsr_scalar s;
    if (one_element(self_t(self), &s) < 0) return NULL;
    if (s.kind == TSR_SCALAR_COMPLEX && s.im != 0)   /* item<double>(): c10::checked_convert */
        return exc_set("RuntimeError", "value cannot be converted to type double without overflow");
    return v_float(tsr_scalar_to_double(s));
}

static Value *m_complex(Value *self, CallArgs *a, void *d)
{
    (void)d; (void)a;
    tsr_scalar s;
    if (one_element(self_t(self), &s) < 0) return NULL;
    double re, im;
    tsr_scalar_to_complex(s, &re, &im);
    return v_complex(re, im);
}

static Value *m_index(Value *self, CallArgs *a, void *d)
{
    (void)d; (void)a;
    tsr_tensor *t = self_t(self);
    if (tsr_tensor_numel(t) != 1 || !tsr_dtype_is_integral(t->dtype, true))
        return exc_set("TypeError", "only integer tensors of a single element can be converted to an index");
    tsr_scalar s;
    if (one_element(t, &s) < 0) return NULL;
    return v_int(tsr_scalar_to_int64(s));
}

/* ------------------------------------------------------------ dtype and device conversions */

static Value *m_is_floating_point(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    ARGS("is_floating_point", "input", 1);
    tsr_tensor *t = NULL;
    if (tensor_arg(x[0], "is_floating_point", "input", 1, &t) < 0) return NULL;
    return v_bool(tsr_dtype_is_floating(t->dtype));
}

static Value *m_is_complex(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    ARGS("is_complex", "input", 1);
    tsr_tensor *t = NULL;
    if (tensor_arg(x[0], "is_complex", "input", 1, &t) < 0) return NULL;
    return v_bool(tsr_dtype_is_complex(t->dtype));
}

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
    return v_tensor_or_self(self, tsr_to_dtype(self_t(self), dt, copy));
}

static Value *m_type(Value *self, CallArgs *a, void *d)
{
    (void)d;
    ARGS("type", "dtype=, non_blocking=, **kwargs=", 3);
    tsr_tensor *t = self_t(self);
    char buf[64];
    if (!x[0] || is_none(x[0])) {
        if (!type_string(t, buf, sizeof buf)) return NULL;
        return v_str(buf);
    }
    tsr_dtype dt = TSR_DTYPE_UNDEFINED;
    bool cuda = false;
    if (is_dtype(x[0])) dt = dtype_of(x[0]);
    else if (x[0]->type == &t_str || x[0]->type == &t_type) {
        const char *s = x[0]->type == &t_str ? x[0]->u.s.p : x[0]->u.typeobj->name;
        const char *p = s;
        if (!strncmp(p, "torch.cuda.", 11)) { cuda = true; p += 11; }
        else if (!strncmp(p, "torch.", 6)) p += 6;
        else if (x[0]->type == &t_str) p = "";
        dt = tsr_dtype_from_tensor_type(p);
        if (dt == TSR_DTYPE_UNDEFINED) return exc_set("ValueError", "invalid type: '%s'", s);
    } else {
        return exc_set("TypeError", "dtype must be a type, str, or dtype object");
    }
    if (cuda || (t->device.type == TSR_DEV_CUDA && x[0]->type != &t_str && !is_dtype(x[0]))) {
        tsr_device dev = {TSR_DEV_CUDA, -1};
        return v_tensor_or_self(self, tsr_to_device(t, tsr_device_normalize(dev), dt, false));
    }
    return to_dtype_value(self, dt, false);
}

static Value *m_to(Value *self, CallArgs *a, void *d)
{
    (void)d;
    tsr_tensor *t = self_t(self);
    Value *dtype_v = NULL, *device_v = NULL, *other_v = NULL, *copy_v = NULL, *nb_v = NULL, *mf_v = NULL;
    int p = 0;
    if (p < a->npos) {
        Value *v = a->pos[p];
        if (is_dtype(v)) dtype_v = v, p++;
        else if (is_tensor(v)) other_v = v, p++;
        else if (is_device(v) || v->type == &t_str || v->type == &t_int || is_none(v)) {
            device_v = v, p++;
            if (p < a->npos && (is_dtype(a->pos[p]) || is_none(a->pos[p]))) dtype_v = a->pos[p++];
        } else return bind_invalid_combination("to", a);
    }
    if (p < a->npos) nb_v = a->pos[p++];
    if (p < a->npos) copy_v = a->pos[p++];
    if (p < a->npos) return bind_invalid_combination("to", a);
    for (int i = 0; i < a->nkw; i++) {
        const char *k = a->kwnames[i];
        Value *v = a->kw[i];
        Value **slot = !strcmp(k, "dtype") ? &dtype_v : !strcmp(k, "device") ? &device_v : !strcmp(k, "copy") ? &copy_v
                     : !strcmp(k, "non_blocking") ? &nb_v : !strcmp(k, "memory_format") ? &mf_v
                     : !strcmp(k, "other") ? &other_v : NULL;
        if (!slot || *slot) return bind_invalid_combination("to", a);
        *slot = v;
    }
    if (dtype_v && !is_none(dtype_v) && !is_dtype(dtype_v)) return bind_invalid_combination("to", a);
    bool copy = false;
    if (copy_v && copy_v->type != &t_bool) return bind_invalid_combination("to", a);
    if (copy_v) copy = copy_v->u.i != 0;
    tsr_dtype dt = dtype_v && !is_none(dtype_v) ? dtype_of(dtype_v) : TSR_DTYPE_UNDEFINED;
    tsr_device dev = t->device;
    if (other_v) {
        dt = tensor_of(other_v)->dtype;
        dev = tensor_of(other_v)->device;
    } else if (device_v && !is_none(device_v)) {
        if (bind_device_arg(device_v, t->device, &dev) < 0) return NULL;
        dev = tsr_device_normalize(dev);
        if (dev.type != TSR_DEV_CPU && dev.type != TSR_DEV_CUDA && dev.type != TSR_DEV_META)
            return exc_set("RuntimeError", "PyTorch is not linked with support for %s devices", tsr_device_type_name(dev.type));
    }
    if (mf_v) {
        tsr_memory_format mf;
        if (bind_memory_format_arg(mf_v, TSR_MF_PRESERVE, &mf) < 0) return NULL;
        if (mf != TSR_MF_PRESERVE) {
            tsr_tensor *c = tsr_to_device(t, dev, dt, true);
            if (!c) return bind_runtime_error();
            tsr_tensor *r = tsr_contiguous(c, mf);
            tsr_tensor_release(c);
            return v_tensor(r);
        }
    }
    if (tsr_device_equal(dev, t->device)) {
        if (dt == TSR_DTYPE_UNDEFINED) dt = t->dtype;
        return to_dtype_value(self, dt, copy);
    }
    return v_tensor_or_self(self, tsr_to_device(t, dev, dt, copy));
}

static Value *cast_method(Value *self, CallArgs *a, const char *fname, tsr_dtype dt)
{
    ARGS(fname, "memory_format=", 1);
    tsr_memory_format mf;
    if (bind_memory_format_arg(x[0], TSR_MF_PRESERVE, &mf) < 0) return NULL;
    if (mf != TSR_MF_PRESERVE && self_t(self)->dtype != dt) {
        tsr_tensor *c = tsr_to_dtype(self_t(self), dt, false);
        if (!c) return bind_runtime_error();
        tsr_tensor *r = tsr_contiguous(c, mf);
        tsr_tensor_release(c);
        return v_tensor(r);
    }
    if (mf != TSR_MF_PRESERVE) return v_tensor_or_self(self, tsr_contiguous(self_t(self), mf));
    return to_dtype_value(self, dt, false);
}

/* x.float(), x.byte(), ...: one per dtype, named by its method trait. */
#define X(ID, num, nm, al, kn, ...)                                                \
    static Value *m_cast_##kn(Value *self, CallArgs *a, void *d)                   \
    {                                                                              \
        (void)d;                                                                   \
        return cast_method(self, a, tsr_dtype_traits_of(TSR_##ID)->method, TSR_##ID); \
    }
TSR_DTYPES(X)
#undef X

static Value *m_type_as(Value *self, CallArgs *a, void *d)
{
    (void)d;
    ARGS("type_as", "other", 1);
    tsr_tensor *o = NULL;
    if (tensor_arg(x[0], "type_as", "other", 1, &o) < 0) return NULL;
    if (tsr_device_equal(o->device, self_t(self)->device)) return to_dtype_value(self, o->dtype, false);
    return v_tensor_or_self(self, tsr_to_device(self_t(self), o->device, o->dtype, false));
}

static Value *m_cpu(Value *self, CallArgs *a, void *d)
{
    (void)d;
    ARGS("cpu", "memory_format=", 1);
    return v_tensor_or_self(self, tsr_to_device(self_t(self), TSR_CPU, TSR_DTYPE_UNDEFINED, false));
}

static Value *m_cuda(Value *self, CallArgs *a, void *d)
{
    (void)d;
    ARGS("cuda", "device=, non_blocking=, memory_format=", 3);
    tsr_device dev = {TSR_DEV_CUDA, -1};
    if (x[0] && bind_device_arg(x[0], dev, &dev) < 0) return NULL;
    if (x[0] && x[0]->type == &t_str && dev.type != TSR_DEV_CUDA)
        return exc_set("RuntimeError", "Invalid device, must be cuda device");
    return v_tensor_or_self(self, tsr_to_device(self_t(self), tsr_device_normalize(dev), TSR_DTYPE_UNDEFINED, false));
}

/* ------------------------------------------------------------ views */

/* `input` of torch.f(input, ...) / x.f(...) (first positional of the trampoline) */
static int input_of(CallArgs *a, const char *fname, Value **v)
{
    if (a->npos < 1) {
        for (int i = 0; i < a->nkw; i++)
            if (!strcmp(a->kwnames[i], "input")) { *v = a->kw[i]; goto found; }
        return exc_seti("TypeError", "%s() missing 1 required positional arguments: \"input\"", fname);
    }
    *v = a->pos[0];
found:
    if (!is_tensor(*v))
        return exc_seti("TypeError", "%s(): argument 'input' (position 1) must be Tensor, not %s", fname, type_name(*v));
    return 0;
}

static Value *f_narrow(Value *self, CallArgs *a, void *d)
{
    (void)d;
    FARGS("narrow", "input, dim, start, length", 4, true);
    tsr_tensor *t = NULL;
    int64_t dim, start, len;
    if (tensor_arg(x[0], "narrow", "input", 1, &t) < 0 || c_int(&c, x[1], 2, "dim", &dim) < 0 ||
        c_int(&c, x[2], 3, "start", &start) < 0 || c_int(&c, x[3], 4, "length", &len) < 0)
        return NULL;
    return v_tensor(tsr_view_narrow(t, dim, start, len));
}

static Value *f_select(Value *self, CallArgs *a, void *d)
{
    (void)d;
    FARGS("select", "input, dim, index", 3, true);
    tsr_tensor *t = NULL;
    int64_t dim, ix;
    if (tensor_arg(x[0], "select", "input", 1, &t) < 0 || c_int(&c, x[1], 2, "dim", &dim) < 0 ||
        c_int(&c, x[2], 3, "index", &ix) < 0)
        return NULL;
    return v_tensor(tsr_view_select(t, dim, ix));
}

static Value *transpose_like(Value *self, CallArgs *a, const char *fname, const char *a0, const char *a1)
{
    char spec[64];
    snprintf(spec, sizeof spec, "input, %s, %s", a0, a1);
    FARGS(fname, spec, 3, true);
    tsr_tensor *t = NULL;
    int64_t d0, d1;
    if (tensor_arg(x[0], fname, "input", 1, &t) < 0 || c_int(&c, x[1], 2, a0, &d0) < 0 ||
        c_int(&c, x[2], 3, a1, &d1) < 0)
        return NULL;
    return v_tensor(tsr_view_transpose(t, d0, d1));
}
static Value *f_transpose(Value *s, CallArgs *a, void *d) { (void)d; return transpose_like(s, a, "transpose", "dim0", "dim1"); }
static Value *f_swapaxes(Value *s, CallArgs *a, void *d) { (void)d; return transpose_like(s, a, "swapaxes", "axis0", "axis1"); }
static Value *f_swapdims(Value *s, CallArgs *a, void *d) { (void)d; return transpose_like(s, a, "swapdims", "dim0", "dim1"); }

static Value *f_t(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (self && (a->npos > 1 || a->nkw))
        return exc_set("TypeError", "_TensorBase.t() takes no arguments (%d given)", a->npos - 1 + a->nkw);
    ARGS("t", "input", 1);
    tsr_tensor *t = NULL;
    if (tensor_arg(x[0], "t", "input", 1, &t) < 0) return NULL;
    return v_tensor(tsr_view_t(t));
}

/* Dims given as varargs or one sequence after the input (permute, flip-like). */
static int dims_after_input(const Call *c, const char *kw, int *n, int64_t *dims)
{
    CallArgs *a = c->a;
    const char *fname = c->fname;
    if (a->npos == 1 && !a->nkw)
        return exc_seti("TypeError", "%s() missing 1 required positional arguments: \"%s\"", fname, kw);
    if (a->nkw == 1 && !strcmp(a->kwnames[0], kw) && a->npos == 1)
        return bind_int_list(a->kw[0], fname, kw, n, dims, TSR_MAX_DIMS);
    if (a->nkw) return exc_seti("TypeError", "%s() got an unexpected keyword argument '%s'", fname, a->kwnames[0]);
    if (a->npos == 2 && a->pos[1]->type != &t_int) return bind_int_list(a->pos[1], fname, kw, n, dims, TSR_MAX_DIMS);
    if (a->npos - 1 > TSR_MAX_DIMS) return exc_seti("RuntimeError", "%s(): too many dims", fname);
    for (int i = 1; i < a->npos; i++)
        if (c_int(c, a->pos[i], i + 1, kw, &dims[i - 1]) < 0) return -1;
    *n = a->npos - 1;
    return 0;
}

static Value *f_permute(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *in;
    if (input_of(a, "permute", &in) < 0) return NULL;
    int n;
    int64_t dims[TSR_MAX_DIMS];
    Call c = {"permute", a, self ? 1 : 0, false};
    if (dims_after_input(&c, "dims", &n, dims) < 0) return NULL;
    return v_tensor(tsr_view_permute(tensor_of(in), n, dims));
}

static Value *m_view(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (a->npos == 1 && !a->nkw && is_dtype(a->pos[0])) return v_tensor(tsr_view_dtype(self_t(self), dtype_of(a->pos[0])));
    if (a->nkw == 1 && !a->npos && !strcmp(a->kwnames[0], "dtype")) {
        if (!is_dtype(a->kw[0])) return bind_invalid_combination("view", a);
        return v_tensor(tsr_view_dtype(self_t(self), dtype_of(a->kw[0])));
    }
    if (a->npos == 1 && !a->nkw && !is_int_like(a->pos[0]) && a->pos[0]->type != &t_tuple &&
        a->pos[0]->type != &t_list && a->pos[0]->type != &t_size && !is_tensor(a->pos[0]))
        return bind_invalid_combination("view", a);
    if (a->npos == 0 && !a->nkw) return bind_invalid_combination("view", a);
    int n;
    int64_t sizes[TSR_MAX_DIMS];
    if (shape_args(a, 0, "view", "size", &n, sizes) < 0) {
        if (exc_matches("TypeError") && strstr(exc_message(), "tuple of ints")) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", exc_message());
            char *p = strstr(msg, "tuple of ints");
            exc_clear();
            return exc_set("TypeError", "%.*stuple of SymInts%s", (int)(p - msg), msg, p + 13);
        }
        return NULL;
    }
    return v_tensor(tsr_view_view(self_t(self), n, sizes));
}

static Value *m_view_as(Value *self, CallArgs *a, void *d)
{
    (void)d;
    ARGS("view_as", "other", 1);
    tsr_tensor *o = NULL;
    if (tensor_arg(x[0], "view_as", "other", 1, &o) < 0) return NULL;
    return v_tensor(tsr_view_view(self_t(self), o->ndim, o->sizes));
}

static Value *f_reshape(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *in;
    if (input_of(a, "reshape", &in) < 0) return NULL;
    int n;
    int64_t sizes[TSR_MAX_DIMS];
    if (a->npos == 1 && !a->nkw) return exc_set("TypeError", "reshape() missing 1 required positional arguments: \"shape\"");
    if (shape_args(a, 1, "reshape", "shape", &n, sizes) < 0) return NULL;
    return v_tensor(tsr_reshape(tensor_of(in), n, sizes));
}

static Value *m_reshape_as(Value *self, CallArgs *a, void *d)
{
    (void)d;
    ARGS("reshape_as", "other", 1);
    tsr_tensor *o = NULL;
    if (tensor_arg(x[0], "reshape_as", "other", 1, &o) < 0) return NULL;
    return v_tensor(tsr_reshape(self_t(self), o->ndim, o->sizes));
}

static Value *m_expand(Value *self, CallArgs *a, void *d)
{
    (void)d;
    int n;
    int64_t sizes[TSR_MAX_DIMS];
    bool implicit = false;
    CallArgs b = *a;
    for (int i = 0; i < a->nkw; i++)
        if (!strcmp(a->kwnames[i], "implicit")) {
            if (bind_bool(a->kw[i], "expand", "implicit", &implicit) < 0) return NULL;
            b.nkw = 0; /* implicit is the only other keyword */
        }
    if (shape_args(&b, 0, "expand", "size", &n, sizes) < 0) return NULL;
    return v_tensor(tsr_view_expand(self_t(self), n, sizes));
}

static Value *m_expand_as(Value *self, CallArgs *a, void *d)
{
    (void)d;
    ARGS("expand_as", "other", 1);
    tsr_tensor *o = NULL;
    if (tensor_arg(x[0], "expand_as", "other", 1, &o) < 0) return NULL;
    return v_tensor(tsr_view_expand_as(self_t(self), o));
}

static Value *f_squeeze(Value *self, CallArgs *a, void *d)
{
    (void)d;
    FARGS("squeeze", "input, dim=", 2, true);
    tsr_tensor *t = NULL;
    if (tensor_arg(x[0], "squeeze", "input", 1, &t) < 0) return NULL;
    if (!x[1]) return v_tensor(tsr_view_squeeze(t));
    int64_t dim;
    if (c_int(&c, x[1], 2, "dim", &dim) < 0) return NULL;
    return v_tensor(tsr_view_squeeze_dim(t, dim));
}

static Value *f_unsqueeze(Value *self, CallArgs *a, void *d)
{
    (void)d;
    FARGS("unsqueeze", "input, dim", 2, false);
    tsr_tensor *t = NULL;
    int64_t dim;
    if (tensor_arg(x[0], "unsqueeze", "input", 1, &t) < 0 || c_int(&c, x[1], 2, "dim", &dim) < 0) return NULL;
    return v_tensor(tsr_view_unsqueeze(t, dim));
}

static Value *f_flatten(Value *self, CallArgs *a, void *d)
{
    (void)d;
    FARGS("flatten", "input, start_dim=, end_dim=", 3, false);
    tsr_tensor *t = NULL;
    int64_t s, e;
    if (tensor_arg(x[0], "flatten", "input", 1, &t) < 0 || c_opt_int(&c, x[1], 2, "start_dim", 0, &s) < 0 ||
        c_opt_int(&c, x[2], 3, "end_dim", -1, &e) < 0)
        return NULL;
    return v_tensor(tsr_view_flatten(t, s, e));
}

static Value *f_unflatten(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (self && a->npos == 2 && !a->nkw)
        return exc_set("TypeError", "Tensor.unflatten() missing 1 required positional argument: 'sizes'");
    FARGS("unflatten", "input, dim, sizes", 3, false);
    tsr_tensor *t = NULL;
    int64_t dim, sizes[TSR_MAX_DIMS];
    int n;
    if (tensor_arg(x[0], "unflatten", "input", 1, &t) < 0 || c_int(&c, x[1], 2, "dim", &dim) < 0 ||
        bind_int_list(x[2], "unflatten", "sizes", &n, sizes, TSR_MAX_DIMS) < 0)
        return NULL;
    return v_tensor(tsr_view_unflatten(t, dim, n, sizes));
}

static Value *f_as_strided(Value *self, CallArgs *a, void *d)
{
    (void)d;
    FARGS("as_strided", "input, size, stride, storage_offset=", 4, false);
    tsr_tensor *t = NULL;
    int64_t sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS], off = TSR_VIEW_KEEP_OFFSET;
    int n, ns;
    if (tensor_arg(x[0], "as_strided", "input", 1, &t) < 0 ||
        bind_int_list(x[1], "as_strided", "size", &n, sizes, TSR_MAX_DIMS) < 0 ||
        bind_int_list(x[2], "as_strided", "stride", &ns, strides, TSR_MAX_DIMS) < 0)
        return NULL;
    if (x[3] && !is_none(x[3]) && c_int(&c, x[3], 4, "storage_offset", &off) < 0) return NULL;
    if (n != ns) return exc_set("RuntimeError", "mismatch in length of strides and shape");
    return v_tensor(tsr_view_as_strided(t, n, sizes, strides, off));
}

static Value *m_unfold(Value *self, CallArgs *a, void *d)
{
    (void)d;
    ARGSX("unfold", "dimension, size, step", 3, 0, false);
    int64_t dim, size, step;
    if (c_int(&c, x[0], 1, "dimension", &dim) < 0 || c_int(&c, x[1], 2, "size", &size) < 0 ||
        c_int(&c, x[2], 3, "step", &step) < 0)
        return NULL;
    return v_tensor(tsr_view_unfold(self_t(self), dim, size, step));
}

static Value *f_diagonal(Value *self, CallArgs *a, void *d)
{
    (void)d;
    FARGS("diagonal", "input, offset=, dim1=, dim2=", 4, false);
    tsr_tensor *t = NULL;
    int64_t off, d1, d2;
    if (tensor_arg(x[0], "diagonal", "input", 1, &t) < 0 || c_opt_int(&c, x[1], 2, "offset", 0, &off) < 0 ||
        c_opt_int(&c, x[2], 3, "dim1", 0, &d1) < 0 || c_opt_int(&c, x[3], 4, "dim2", 1, &d2) < 0)
        return NULL;
    return v_tensor(tsr_view_diagonal(t, off, d1, d2));
}

static Value *f_real(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    ARGS("real", "input", 1);
    tsr_tensor *t = NULL;
    if (tensor_arg(x[0], "real", "input", 1, &t) < 0) return NULL;
    if (!tsr_dtype_is_complex(t->dtype)) return incref(x[0]);
    return v_tensor(tsr_view_real(t));
}

static Value *f_imag(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    ARGS("imag", "input", 1);
    tsr_tensor *t = NULL;
    if (tensor_arg(x[0], "imag", "input", 1, &t) < 0) return NULL;
    return v_tensor(tsr_view_imag(t));
}

static Value *movedim_like(Value *self, CallArgs *a, const char *fname, const char *s_name, const char *d_name)
{
    char spec[64];
    snprintf(spec, sizeof spec, "input, %s, %s", s_name, d_name);
    FARGS(fname, spec, 3, true);
    tsr_tensor *t = NULL;
    int64_t src[TSR_MAX_DIMS], dst[TSR_MAX_DIMS];
    int ns, nd;
    if (tensor_arg(x[0], fname, "input", 1, &t) < 0 ||
        bind_int_list(x[1], fname, s_name, &ns, src, TSR_MAX_DIMS) < 0 ||
        bind_int_list(x[2], fname, d_name, &nd, dst, TSR_MAX_DIMS) < 0) {
        if (exc_matches("TypeError")) { exc_clear(); call_combo(&c); }
        return NULL;
    }
    return v_tensor(tsr_view_movedim(t, ns, src, nd, dst));
}
static Value *f_movedim(Value *s, CallArgs *a, void *d) { (void)d; return movedim_like(s, a, "movedim", "source", "destination"); }
static Value *f_moveaxis(Value *s, CallArgs *a, void *d) { (void)d; return movedim_like(s, a, "moveaxis", "source", "destination"); }

static Value *f_numel(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    ARGS("numel", "input", 1);
    tsr_tensor *t = NULL;
    if (tensor_arg(x[0], "numel", "input", 1, &t) < 0) return NULL;
    return v_int(tsr_tensor_numel(t));
}

static Value *f_is_tensor(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    ARGS("is_tensor", "obj", 1);
    return v_bool(is_tensor(x[0]));
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

    static const struct { const char *name; BuiltinFn fn; } ms[] = {
        {"size", m_size}, {"stride", m_stride}, {"storage_offset", m_storage_offset}, {"dim", m_dim},
        {"ndimension", m_ndimension}, {"nelement", m_nelement}, {"element_size", m_element_size},
        {"get_device", m_get_device}, {"is_signed", m_is_signed}, {"data_ptr", m_data_ptr},
        {"is_contiguous", m_is_contiguous}, {"is_set_to", m_is_set_to}, {"contiguous", m_contiguous},
        {"copy_", m_copy_}, {"fill_", m_fill_}, {"zero_", m_zero_}, {"set_", m_set_}, {"resize_", m_resize_},
        {"resize_as_", m_resize_as_}, {"item", m_item}, {"tolist", m_tolist}, {"__int__", m_int},
        {"__float__", m_float}, {"__complex__", m_complex}, {"__index__", m_index}, {"type", m_type},
        {"to", m_to},
#define X(ID, num, nm, al, kn, sn, T, C, CD, R, A, AD, cat, cxx, tm, sh, LD, ST, re, cx, meth) {meth, m_cast_##kn},
        TSR_DTYPES(X)
#undef X
        {"type_as", m_type_as}, {"requires_grad_", m_requires_grad_}, {"cpu", m_cpu}, {"cuda", m_cuda}, {"view", m_view}, {"view_as", m_view_as},
        {"reshape_as", m_reshape_as}, {"expand", m_expand}, {"expand_as", m_expand_as}, {"unfold", m_unfold},
    };
    for (size_t i = 0; i < sizeof ms / sizeof *ms; i++) bind_tensor_method(ms[i].name, ms[i].fn);

    static const struct { const char *name; BuiltinFn fn; } fs[] = {
        {"narrow", f_narrow}, {"select", f_select}, {"transpose", f_transpose}, {"swapaxes", f_swapaxes},
        {"swapdims", f_swapdims}, {"t", f_t}, {"permute", f_permute}, {"reshape", f_reshape},
        {"squeeze", f_squeeze}, {"unsqueeze", f_unsqueeze}, {"flatten", f_flatten}, {"unflatten", f_unflatten},
        {"as_strided", f_as_strided}, {"diagonal", f_diagonal}, {"real", f_real}, {"imag", f_imag},
        {"movedim", f_movedim}, {"moveaxis", f_moveaxis}, {"clone", f_clone}, {"numel", f_numel},
        {"is_floating_point", m_is_floating_point}, {"is_complex", m_is_complex},
    };
    for (size_t i = 0; i < sizeof fs / sizeof *fs; i++) {
        bool method = strcmp(fs[i].name, "real") && strcmp(fs[i].name, "imag");
        bind_torch_function(fs[i].name, fs[i].fn, method);
    }
    bind_torch_function("is_tensor", f_is_tensor, false);
}
