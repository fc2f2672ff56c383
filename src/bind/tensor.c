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
#include "ops/sparse.h"
#include "bind/areas.h"
#include "bind/explain.h"
#include "autograd.h"
#include "ops/grad_index2.h"
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

/* Name → index + 1 of a method (>0) or -(index + 1) of a property (<0), by
 * open addressing: attribute lookup stays constant-time as functions land. */
static struct { const char *name; int ent; } *index_tab;
static unsigned index_cap;

static unsigned name_hash(const char *s)
{
    unsigned h = 2166136261u;
    while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}

static int *index_slot(const char *name)
{
    if (!index_cap) return NULL;
    for (unsigned i = name_hash(name) & (index_cap - 1);; i = (i + 1) & (index_cap - 1)) {
        if (!index_tab[i].name || !strcmp(index_tab[i].name, name)) {
            index_tab[i].name = name;   /* claimed by an insert; a lookup only reads ent */
            return &index_tab[i].ent;
        }
    }
}

static int index_find(const char *name)
{
    if (!index_cap) return 0;
    for (unsigned i = name_hash(name) & (index_cap - 1); index_tab[i].name; i = (i + 1) & (index_cap - 1))
        if (!strcmp(index_tab[i].name, name)) return index_tab[i].ent;
    return 0;
}

/* Makes room for one more name (load at most 1/2), rebuilding the index. */
static void index_reserve(void)
{
    if ((unsigned)(nmethods + nprops + 1) * 2 <= index_cap) return;
    unsigned cap = index_cap ? index_cap * 2 : 1024;
    while ((unsigned)(nmethods + nprops + 1) * 2 > cap) cap *= 2;
    free(index_tab);
    index_tab = value_xcalloc(cap, sizeof *index_tab);
    index_cap = cap;
    for (int i = 0; i < nprops; i++) *index_slot(props[i].name) = -(i + 1);
    for (int i = 0; i < nmethods; i++) *index_slot(methods[i].name) = i + 1;
}

void bind_tensor_method_data(const char *name, BuiltinFn fn, void *data)
{
    int e = index_find(name);
    if (e > 0) { methods[e - 1] = (MethodEnt){name, fn, false, data}; return; }
    index_reserve();
    if (nmethods == capmethods) {
        capmethods = capmethods * 2 + 64;
        methods = value_xrealloc(methods, (size_t)capmethods * sizeof *methods);
    }
    methods[nmethods] = (MethodEnt){name, fn, false, data};
    int *slot = index_slot(name);
    if (*slot >= 0) *slot = nmethods + 1;   /* a property of the same name keeps precedence */
    nmethods++;
}

void bind_tensor_method(const char *name, BuiltinFn fn) { bind_tensor_method_data(name, fn, NULL); }

const char *bind_tensor_method_name(int i) { return i >= 0 && i < nmethods ? methods[i].name : NULL; }

static void tensor_method_prepend(const char *name, BuiltinFn fn)
{
    bind_tensor_method(name, fn);
    int e = index_find(name);
    if (e > 0) methods[e - 1].prepend = true;
}

void bind_tensor_property(const char *name, PropGet get, PropSet set)
{
    int e = index_find(name);
    if (e < 0) { props[-e - 1] = (PropEnt){name, get, set}; return; }
    index_reserve();
    if (nprops == capprops) {
        capprops = capprops * 2 + 32;
        props = value_xrealloc(props, (size_t)capprops * sizeof *props);
    }
    props[nprops] = (PropEnt){name, get, set};
    *index_slot(name) = -(nprops + 1);   /* a property wins over a method of the same name */
    nprops++;
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

/* ------------------------------------------------------------ devices */

bool bind_on_external(Value *v)
{
    return v && is_tensor(v) && tensor_of(v)->device.type != TSR_DEV_CPU && tensor_of(v)->device.type != TSR_DEV_META;
}

int bind_device_no_kernel(const char *name, tsr_device d)
{
    char op[160];
    snprintf(op, sizeof op, "aten::%s", name);
    tsr_error_no_kernel(op, tsr_device_backend_name(d.type), "CPU, Meta");
    return bind_runtime_errori();
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
    int e = index_find(name);
    if (e < 0) return props[-e - 1].get(v);
    if (e > 0) {
        const MethodEnt *m = &methods[e - 1];
        if (m->prepend) return v_builtin(m->name, method_trampoline, v, (void *)m->fn);
        return v_builtin(m->name, m->fn, v, m->data);
    }
    return NULL;
}

static int tensor_setattr(Value *v, const char *name, Value *x)
{
    int e = index_find(name);
    if (e < 0) {
        const PropEnt *pe = &props[-e - 1];
        if (!pe->set) return exc_seti("AttributeError", "attribute '%s' of 'torch._C._TensorBase' objects is not writable", name);
        return pe->set(v, x);
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
        Value *e = value_memory_check() < 0 ? NULL
                 : v_tensor(t->sparse ? tsr_sparse_select(t, 0, i) : tsr_view_select(t, 0, i));
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

/* Tensor.__contains__ (torch/_tensor.py): (element == self).any().item()
 * for a Tensor or a Number, else its RuntimeError */
static int tensor_contains(Value *self, Value *x)
{
    const VType *t = x->type;
    if (!is_tensor(x) && t != &t_int && t != &t_float && t != &t_bool && t != &t_complex) {
        Value *to = v_typeobj(t), *tr = value_repr(to);
        decref(to);
        if (!tr) return -1;
        exc_seti("RuntimeError", "Tensor.__contains__ only supports Tensor or scalar, but you passed in a %s.",
                 tr->u.s.p);
        decref(tr);
        return -1;
    }
    Value *eq = value_compare(OP_EQ, x, self), *f = eq ? value_getattr(eq, "any") : NULL;
    Value *any = f ? value_call0(f, 0, NULL) : NULL;
    int r = any ? value_truth(any) : -1;
    if (eq) decref(eq);
    if (f) decref(f);
    if (any) decref(any);
    return r;
}

const VType t_tensor = {.name = "Tensor", .module = "torch", .destroy = tensor_destroy, .repr = tensor_repr,
                        .getattr = tensor_getattr, .setattr = tensor_setattr, .binop = ops_tensor_binop,
                        .inplace = ops_tensor_inplace, .unop = ops_tensor_unop, .compare = ops_tensor_compare,
                        .getitem = tensor_getitem, .setitem = tensor_setitem, .iter = tensor_iter,
                        .len = tensor_len, .truth = tensor_truth, .dir = tensor_dir, .contains = tensor_contains,
                        .construct = factory_tensor_new};

/* ------------------------------------------------------------ indexing */
/* The Python side of x[key] (python_variable_indexing.cpp): the key becomes
 * a list of runtime subscript items; the rules are in runtime/ops/advindex.c. */

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

static bool is_seq(Value *k) { return k->type == &t_list || k->type == &t_tuple || k->type == &t_size || k->type == &t_str; }

/* treatSequenceAsTuple: NumPy's rule for a list key holding slices,
 * sequences, tensors, None or ... */
static bool key_is_tuple(Value *key)
{
    if (key->type == &t_tuple || key->type == &t_size) return true;
    if (key->type != &t_list || key->u.seq.n >= 32) return false;
    for (size_t i = 0; i < key->u.seq.n; i++) {
        Value *k = key->u.seq.items[i];
        if (is_tensor(k) || is_seq(k) || k->type == &t_slice || k->type == &t_ellipsis || is_none(k)) return true;
    }
    return false;
}

/* sequenceToVariable: bool and uint8 data stay masks, anything else is long. */
static tsr_tensor *index_tensor_from_seq(Value *k)
{
    Value *fn = dict_get_str(bind_module("torch")->u.mod->attrs, "tensor");
    if (!fn) { exc_set("NotImplementedError", "indexing with a sequence needs torch.tensor"); return NULL; }
    Value *t = value_call0(fn, 1, &k);
    if (!t) return NULL;
    tsr_tensor *r = NULL;
    if (is_tensor(t)) {
        tsr_tensor *x = tensor_of(t);
        r = x->dtype == TSR_BOOL || x->dtype == TSR_UINT8 ? tsr_tensor_retain(x) : tsr_to_dtype(x, TSR_INT64, false);
        if (!r) bind_runtime_error();
    }
    decref(t);
    return r;
}

typedef struct { int n; tsr_sub items[TSR_MAX_DIMS * 2]; tsr_tensor *owned[TSR_MAX_DIMS * 2]; int nowned; } SubKey;

static void subkey_free(SubKey *s)
{
    for (int i = 0; i < s->nowned; i++) tsr_tensor_release(s->owned[i]);
}

static int slice_item(Value *k, tsr_sub *it)
{
    int64_t start = 0, stop = TSR_SLICE_END, step = 1;
    Value *parts[3] = {k->u.slice.start, k->u.slice.stop, k->u.slice.step};
    int64_t *dst[3] = {&start, &stop, &step};
    for (int p = 0; p < 3; p++) {
        Value *x = parts[p];
        if (!x || is_none(x)) continue;
        int e = index_int(x, dst[p]);
        if (e == 0 && x->type == &t_bool) e = 1;
        if (e) return exc_seti("TypeError", "slice indices must be integers or None or have an __index__ method");
    }
    if (step == 0) return exc_seti("ValueError", "slice step cannot be zero");
    if (step < 0) return exc_seti("ValueError", "step must be greater than zero");
    *it = (tsr_sub){.kind = TSR_SUB_SLICE, .start = start, .stop = stop, .step = step};
    return 0;
}

/* The key as subscript items; tensors made from lists are owned by s. */
static int subkey_parse(Value *key, SubKey *s)
{
    Value **items = &key;
    int n = 1;
    if (key_is_tuple(key)) { items = key->u.seq.items; n = (int)key->u.seq.n; }
    s->n = s->nowned = 0;
    if (n > TSR_MAX_DIMS * 2) return exc_seti("IndexError", "too many indices for tensor");
    for (int i = 0; i < n; i++) {
        Value *k = items[i];
        tsr_sub *it = &s->items[s->n++];
        if (k->type == &t_int) *it = (tsr_sub){.kind = TSR_SUB_INT, .i = k->u.i};
        else if (k->type == &t_slice) { if (slice_item(k, it) < 0) return -1; }
        else if (k->type == &t_ellipsis) *it = (tsr_sub){.kind = TSR_SUB_ELLIPSIS};
        else if (is_none(k)) *it = (tsr_sub){.kind = TSR_SUB_NONE};
        else if (k->type == &t_bool) *it = (tsr_sub){.kind = TSR_SUB_BOOL, .i = k->u.i != 0};
        else if (is_tensor(k)) *it = (tsr_sub){.kind = TSR_SUB_TENSOR, .t = tensor_of(k)};
        else if (is_seq(k)) {
            tsr_tensor *t = index_tensor_from_seq(k);
            if (!t) return -1;
            s->owned[s->nowned++] = t;
            *it = (tsr_sub){.kind = TSR_SUB_TENSOR, .t = t};
        } else {
            index_type_error(k);
            return -1;
        }
    }
    if (items == &key) s->items[0].bare = true;
    return 0;
}

/* An index with a tensor in it (advanced indexing). */
static bool advanced(const SubKey *s)
{
    for (int i = 0; i < s->n; i++)
        if (s->items[i].kind == TSR_SUB_TENSOR) return true;
    return false;
}

/* Advanced indexing reads and writes through the host: with a tensor on a
 * device the host cannot read (self, the value, or an index) it raises the
 * dispatcher's error for the op instead. -1 then, else 0. */
/* dst[key] = value by advanced indexing when dst or value has a math bit:
 * index_put_ reads and writes storage, so it runs on resolved tensors and
 * the result is copied back into dst (copy_ applies dst's bit). */
static int assign_resolved(tsr_tensor *dst, const SubKey *s, tsr_tensor *value)
{
    tsr_tensor *d = tsr_resolve_bits(dst), *v = d ? tsr_resolve_bits(value) : NULL;
    int r = !v || tsr_subscript_assign(d, s->n, s->items, v) < 0 || (d != dst && tsr_copy_(dst, d) < 0) ? -1 : 0;
    tsr_tensor_release(d);
    tsr_tensor_release(v);
    return r;
}

static Value *tensor_getitem(Value *v, Value *key)
{
    SubKey s;
    /* advanced indexing is device-aware (runtime/ops/advindex.c): it runs
     * on a cuda self, and a cuda index or value on a host self gets 1.13's
     * device errors there */
    if (subkey_parse(key, &s) < 0) { subkey_free(&s); return NULL; }
    /* basic indexing makes views, which keep a math bit; advanced indexing
     * gathers from storage, so it reads the resolved values (table.c) */
    tsr_tensor *x = advanced(&s) ? tsr_resolve_bits(tensor_of(v)) : tsr_tensor_retain(tensor_of(v));
    tsr_tensor *r = !x ? NULL : tsr_ag_subscript(x, s.n, s.items);   /* sparse too */
    tsr_tensor_release(x);
    subkey_free(&s);
    Value *rv = v_tensor(r);
    if (tensor_of(v)->names && explain_active()) explain_names_index(tensor_of(v), rv ? tensor_of(rv) : NULL);
    return rv;
}

/* "torch.FloatTensor", "torch.cuda.LongTensor" (options_to_string). */
static void tensor_type_string(const tsr_tensor *t, char *buf, size_t cap)
{
    const tsr_dtype_traits *tr = tsr_dtype_traits_of(t->dtype);
    snprintf(buf, cap, "torch.%s%s", t->device.type == TSR_DEV_CUDA ? "cuda." : "", tr ? tr->tensor_type : "Tensor");
}

/* valueToTensor: a tensor as it is, a Python number as a 0-dim tensor of
 * dst's dtype; anything else (a list too) is refused. NEW reference. */
static tsr_tensor *setitem_value(const tsr_tensor *dst, Value *x)
{
    if (is_tensor(x)) return tsr_tensor_retain(tensor_of(x));
    tsr_scalar s;
    if (x->type == &t_bool || x->type == &t_int || x->type == &t_float || x->type == &t_complex) {
        if (bind_scalar(x, "__setitem__", "value", &s) < 0) return NULL;
        if (x->type == &t_bool) s = tsr_scalar_int(s.i);
        tsr_tensor *t = tsr_subscript_value(dst, s);
        if (!t) bind_runtime_error();
        return t;
    }
    if (dst->device.type == TSR_DEV_META) { exc_set("RuntimeError", "Unimplemented backend Meta"); return NULL; }
    char ty[64];
    tensor_type_string(dst, ty, sizeof ty);
    exc_set("TypeError", "can't assign a %s to a %s", type_name(x), ty);
    return NULL;
}

static int tensor_setitem(Value *v, Value *key, Value *x)
{
    tsr_tensor *gv = is_tensor(x) ? tensor_of(x) : NULL;
    if (tsr_ag_check_setitem(tensor_of(v), gv, false) < 0) return bind_runtime_errori();
    tsr_tensor *self = tensor_of(v), *value = setitem_value(self, x);
    if (!value) return -1;
    SubKey s = {0};
    int r = 0;
    if (key->type == &t_bool && !key->u.i) goto done; /* 1.13 does nothing for x[False] = v */
    if (key->type == &t_bool) {
        s.n = 1;
        s.items[0] = (tsr_sub){.kind = TSR_SUB_NONE}; /* x[True] = v: copy_to(x.unsqueeze(0), v) */
    } else if (subkey_parse(key, &s) < 0) {
        r = -1;
        goto done;
    }
    if (advanced(&s) && tsr_ag_check_setitem(self, gv, !tsr__ag_slicing_key(s.n, s.items)) < 0) {
        r = bind_runtime_errori();
        goto done;
    }
    /* the assignment writes all of the indexed elements or none of them */
    if (tsr_interrupt_hold() < 0) r = bind_runtime_errori();
    else {
        bool bits = tsr_tensor_has_bits(self) || tsr_tensor_has_bits(value);
        if ((bits && advanced(&s) ? assign_resolved(self, &s, value) : tsr_subscript_assign(self, s.n, s.items, value)) < 0)
            r = bind_runtime_errori();
        tsr_interrupt_unhold();
    }
    if (r == 0) {   /* the graph through the assignment: CopySlices on self */
        tsr_tensor *dst = self->base ? self->base : self, *ts[2] = {dst, gv};
        tsr_tensor *sliced = NULL;   /* 1.13 views a value with leading 1s without them (ViewBackward0) */
        if (advanced(&s) && gv && gv->ndim && gv->sizes[0] == 1 && tsr_ag_needed(1, &gv)) {
            int k = 0;
            while (k < gv->ndim && gv->sizes[k] == 1) k++;
            tsr_ag_args va = {0};
            sliced = tsr_view_view(gv, gv->ndim - k, gv->sizes + k);
            if (!sliced || tsr_ag_record("view", 1, &gv, &va, sliced, false) < 0) r = bind_runtime_errori();
            else gv = sliced;
        }
        bool into_view = tsr__ag_mixed_key(s.n, s.items) || (self->base && tsr__ag_slicing_key(s.n, s.items));
        if (r < 0) {   /* the value's view failed */
            r = -1;
        } else if (advanced(&s) && into_view) {   /* index_put_ into the basic items' view: CopySlices over IndexPutBackward0 */
            if (tsr__ag_record_setitem_mixed(self, s.n, s.items, gv) < 0) r = bind_runtime_errori();
        } else if (advanced(&s)) {
            if (tsr_ag_record_index_put(self, s.n, s.items, gv) < 0) r = bind_runtime_errori();
        } else if (tsr_ag_needed(2, ts)) {
            tsr_tensor *region = tsr_subscript(self, s.n, s.items);
            if (!region || tsr_ag_record_setitem(dst, region, gv) < 0) r = bind_runtime_errori();
            tsr_tensor_release(region);
        }
        tsr_tensor_release(sliced);
    }
done:
    if (r == 0) tsr_tensor_bump_version(self);
    subkey_free(&s);
    tsr_tensor_release(value);
    return r;
}

/* x.real = v / x.imag = v: copy_to the part (dst.copy_ / fill_). */
static int assign_into(tsr_tensor *dst, Value *x)
{
    tsr_tensor *value = setitem_value(dst, x);
    if (!value) return -1;
    tsr_sub all = {.kind = TSR_SUB_ELLIPSIS};
    int r = tsr_subscript_assign(dst, 1, &all, value) < 0 ? bind_runtime_errori() : 0;
    tsr_tensor_release(value);
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

/* r (stolen), a view of x, recorded as key (x.T, x.mT). NEW reference or NULL. */
static tsr_tensor *grad_view(const char *key, const tsr_tensor *x, tsr_tensor *r, const tsr_ag_args *a)
{
    tsr_tensor *in = (tsr_tensor *)x;
    if (!r || r == x || tsr_ag_record(key, 1, &in, a, r, false) == 0) return r;
    tsr_tensor_release(r);
    return NULL;
}

static Value *p_T(Value *self)
{
    tsr_tensor *t = self_t(self);
    if (t->sparse && t->ndim == 2) return v_tensor(tsr_sparse_transpose(t, 0, 1));   /* SparseCPU's transpose */
    if (t->names)
        return exc_set("RuntimeError", "aten::permute is not yet supported with named tensors. Please drop names via "
                       "`tensor = tensor.rename(None)`, call the op with an unnamed tensor, and set names on the "
                       "result of the operation.");
    int64_t dims[TSR_MAX_DIMS];
    for (int i = 0; i < t->ndim; i++) dims[i] = t->ndim - 1 - i;
    tsr_ag_args a = {.ndims = t->ndim};
    for (int i = 0; i < t->ndim; i++) a.dims[i] = dims[i];
    return v_tensor(grad_view("permute", t, tsr_view_permute(t, t->ndim, dims), &a));
}

/* r wrapped; self itself when r is self's tensor (x.mT of a 0-dim x is x). */
static Value *self_or_new(tsr_tensor *r, Value *self)
{
    if (r && r == self_t(self)) {
        tsr_tensor_release(r);
        return incref(self);
    }
    return v_tensor(r);
}

/* mT swaps the last two names (transpose's rule) and records a transpose */
static Value *p_mT(Value *self)
{
    tsr_ag_args a = {.i0 = -2, .i1 = -1};
    if (self_t(self)->sparse && self_t(self)->ndim >= 2) return v_tensor(tsr_sparse_transpose(self_t(self), -2, -1));
    tsr_tensor *t = self_t(self), *r = tsr_view_mT(t);
    if (r && r != t && t->names && t->ndim >= 2) {
        tsr_name nm[TSR_MAX_DIMS];
        for (int i = 0; i < t->ndim; i++) nm[i] = t->names[i];
        nm[t->ndim - 2] = t->names[t->ndim - 1];
        nm[t->ndim - 1] = t->names[t->ndim - 2];
        if (tsr_tensor_set_names(r, nm, t->ndim) < 0) { tsr_tensor_release(r); r = NULL; }
    }
    return self_or_new(r && r != t ? grad_view("transpose", t, r, &a) : r, self);
}
/* t.mH / t.H / t.adjoint() (r, the runtime's view, stolen) with 1.13's
 * graph when t needs one: transpose(-2, -1) (TransposeBackward0), then
 * for a complex t the conj view over it (ConjBackward0). NEW reference or
 * NULL with the runtime's error (v_tensor raises it). */
tsr_tensor *bind_grad_adjoint(tsr_tensor *t, tsr_tensor *r)
{
    if (!r) return NULL;
    if (t->ndim < 2 || !tsr_ag_needed(1, &t)) return r;
    tsr_ag_args a = {.i0 = -2, .i1 = -1}, none = {0};
    tsr_tensor *tr = tsr_view_mT(t);
    if (!tr || tsr_ag_record("transpose", 1, &t, &a, tr, false) < 0) goto fail;
    if (!tsr_dtype_is_complex(t->dtype)) {   /* mH of a real t is its transpose */
        tsr_tensor_release(r);
        return tr;
    }
    if (tsr_ag_record("conj", 1, &tr, &none, r, false) < 0) goto fail;
    tsr_tensor_release(tr);
    return r;
fail:
    tsr_tensor_release(tr);
    tsr_tensor_release(r);
    return NULL;
}

static Value *p_mH(Value *self)
{
    tsr_tensor *t = self_t(self), *r = tsr_view_mH(t);
    return r && r != t ? v_tensor(bind_grad_adjoint(t, r)) : self_or_new(r, self);
}
static Value *p_H(Value *self)
{
    tsr_tensor *t = self_t(self), *r = tsr_view_H(t);
    return v_tensor(r && t->ndim == 2 ? bind_grad_adjoint(t, r) : r);
}

/* x.real / x.imag: r (stolen) the part's view, with 1.13's graph when x
 * needs one (runtime's tsr_ag_record_part). */
static Value *part_value(tsr_tensor *x, tsr_tensor *r, bool imag)
{
    if (!r) return bind_runtime_error();
    if (tsr_ag_needed(1, &x) && tsr_ag_record_part(x, r, imag) < 0) {
        tsr_tensor_release(r);
        return bind_runtime_error();
    }
    return v_tensor(r);
}

static Value *p_real(Value *self)
{
    tsr_tensor *t = self_t(self);
    if (!tsr_dtype_is_complex(t->dtype)) return incref(self);
    return part_value(t, tsr_view_real(t), false);
}

static Value *p_imag(Value *self)
{
    tsr_tensor *t = self_t(self);
    return part_value(t, tsr_view_imag(t), true);
}

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
static Value *p_data(Value *self)
{
    if (self_t(self)->sparse) return v_tensor(tsr_autograd_detach(self_t(self)));   /* a sparse header, no view */
    tsr_tensor *d = tsr_view_alias(self_t(self));
    if (d) tsr_tensor_unview(d);   /* x.data is no view in 1.13 (x.data._is_view() is False) */
    return v_tensor(d);
}
static int ps_data(Value *self, Value *x)
{
    if (!is_tensor(x)) return exc_seti("TypeError", "Variable data has to be a tensor, but got %s", type_name(x));
    tsr_tensor *old = self_t(self);
    /* x keeps what autograd knows of it (requires_grad, .grad, hooks) on a
     * header of its own over y's data (variable.set_data) */
    tsr_tensor *nt = tsr_view_alias(tensor_of(x));
    if (!nt) return bind_runtime_errori();
    tsr_tensor_unview(nt);
    if (tsr_autograd_move(old, nt) < 0) {
        tsr_tensor_release(nt);
        return bind_runtime_errori();
    }
    self->u.ext.ptr = nt;
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
        {"T", p_T, NULL}, {"mT", p_mT, NULL}, {"H", p_H, NULL}, {"mH", p_mH, NULL},
        {"real", p_real, ps_real}, {"imag", p_imag, ps_imag}, {"data", p_data, ps_data},
    };
    for (size_t i = 0; i < sizeof ps / sizeof *ps; i++) bind_tensor_property(ps[i].name, ps[i].get, ps[i].set);
}
