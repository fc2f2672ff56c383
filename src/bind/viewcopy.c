/* src/bind/viewcopy.c — 1.13's view-copy functions (torch.expand_copy,
 * permute_copy, split_copy, ...): the view op's result copied into a new
 * tensor (clone, preserve_format: a dense view keeps its strides), that takes
 * the view's node renamed "<node>_copy" (ExpandBackward0_copy), as 1.13's
 * generated view-copy kernels do. detach_copy records 1.13's
 * torch::autograd::NotImplemented node. out= copies into out (copy_: no
 * resize); split_copy / split_with_sizes_copy / unbind_copy take a list. */
#include <string.h>

#include "autograd.h"
#include "bind/areas.h"
#include "bind/bind.h"
#include "bind/table.h"
#include "bind/tensor.h"
#include "ops/copy.h"

typedef enum {
    V_ALIAS, V_AS_STRIDED, V_DETACH, V_DIAGONAL, V_EXPAND, V_PERMUTE, V_SELECT, V_SLICE, V_SPLIT, V_SPLIT_SIZES,
    V_SQUEEZE, V_T, V_TRANSPOSE, V_UNBIND, V_UNFOLD, V_UNSQUEEZE, V_VIEW, V_VIEW_AS_REAL, V_VIEW_AS_COMPLEX,
    V_VALUES, V_INDICES
} VKind;

/* The view op each row copies: the torch function, or (method) the Tensor
 * method; positional: its arguments go by position (torch.split is a def
 * whose parameter names are not the copy's). ORDER VKind */
static const struct { const char *name; bool method, positional; } views[] = {
    {"alias", false, false},      {"as_strided", false, false}, {"detach", true, false},
    {"diagonal", false, false},   {"expand", true, false},      {"permute", false, false},
    {"select", false, false},     {"slice", false, false},      {"split", false, true},
    {"split_with_sizes", false, false}, {"squeeze", false, false}, {"t", false, false},
    {"transpose", false, false},  {"unbind", false, false},     {"unfold", true, false},
    {"unsqueeze", false, false},  {"view", true, false},        {"view_as_real", false, false},
    {"view_as_complex", false, false}, {"values", true, false}, {"indices", true, false},
};

/* x[:, ..., start:end:step] on dim (applySlicing: one SliceBackward0). */
static Value *slice_view(BindArgs *b)
{
    int64_t dim = 0;
    tsr_tensor *t = tensor_of(b->v[0]);
    if (bind_table_int(b, 1, 0, &dim) < 0) return NULL;
    int nd = t->ndim;
    if (dim < -(nd ? nd : 1) || dim >= (nd ? nd : 1))
        return exc_set("IndexError", "Dimension out of range (expected to be in range of [%d, %d], but got %lld)",
                       -(nd ? nd : 1), (nd ? nd : 1) - 1, (long long)dim);
    if (dim < 0) dim += nd;
    Value *key = v_tuple((size_t)dim + 1);
    for (int64_t i = 0; i < dim; i++) key->u.seq.items[i] = v_slice(NULL, NULL, NULL);
    key->u.seq.items[dim] = v_slice(b->v[2], b->v[3], b->v[4]);
    Value *r = value_getitem(b->v[0], key);
    decref(key);
    return r;
}

/* The view op's result for row kind k (a tensor or a tuple of them), the
 * method's self being src (b->v[0] unless view_copy copies first). */
static Value *view_call(const BindRow *row, BindArgs *b, Value *src)
{
    VKind k = (VKind)row->kind;
    if (k == V_SLICE) return slice_view(b);
    Value *target = views[k].method ? value_getattr(src, views[k].name)
                                    : value_getattr(bind_module("torch"), views[k].name);
    if (!target) return NULL;
    Value *pos[BIND_MAXP], *kv[BIND_MAXP];
    const char *kn[BIND_MAXP];
    int np = 0, nk = 0;
    if (!views[k].method) pos[np++] = b->v[0];
    for (int i = 1; i < BIND_OUT; i++) {
        if (!b->v[i] || !b->param[i]) continue;
        if (views[k].positional) {
            pos[np++] = b->v[i];
        } else {
            kn[nk] = b->param[i]->name;
            kv[nk++] = b->v[i];
        }
    }
    CallArgs a = {.pos = pos, .npos = np, .kwnames = kn, .kw = kv, .nkw = nk};
    Value *r = value_call(target, &a);
    decref(target);
    return r;
}

static Value *view_of(const BindRow *row, BindArgs *b)
{
    Value *r = view_call(row, b, b->v[0]);
    if (r || row->kind != V_VIEW || b->sig != 1 || !exc_message() ||
        !strstr(exc_message(), "view size is not compatible"))
        return r;
    /* 1.13's view_copy of sizes no view reaches: the values in order (a contiguous copy) viewed, under
     * one ViewBackward0_copy from the input */
    exc_clear();
    tsr_tensor *in = tensor_of(b->v[0]), *c = tsr_clone(in, TSR_MF_CONTIGUOUS);
    if (!c) return bind_runtime_error();
    Value *cv = v_tensor(c);
    r = view_call(row, b, cv);
    decref(cv);
    if (!r) return NULL;
    tsr_tensor *t = tensor_of(r), *o = tsr_clone(t, TSR_MF_CONTIGUOUS);
    decref(r);
    if (!o) return bind_runtime_error();
    if (tsr_ag_needed(1, &in) && (tsr_ag_record("view", 1, &in, &(tsr_ag_args){0}, o, false) < 0 ||
                                  tsr_ag_view_to_copy(o, o) < 0)) {
        tsr_tensor_release(o);
        return bind_runtime_error();
    }
    return v_tensor(o);
}

/* A copy of the view v of input in, with v's node renamed; NEW reference. */
static Value *copy_of(Value *v, const tsr_tensor *in)
{
    tsr_tensor *t = tensor_of(v);
    if (t == in)   /* a view op that gave its input back would rename the input's node */
        return exc_set("NotImplementedError", "a view-copy of a view that returns its input is not implemented in tsr");
    tsr_tensor *c = tsr_clone(t, TSR_MF_PRESERVE);
    if (!c || tsr_ag_view_to_copy(t, c) < 0) {
        if (c) tsr_tensor_release(c);
        return bind_runtime_error();
    }
    return v_tensor(c);
}

static Value *viewcopy_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace);

/* out=: 1.13's generated *_copy_out copies the result into out (copy_: out
 * keeps its shape, which the result must broadcast to, and its dtype). */
static Value *viewcopy_out(const BindRow *row, const char *fname, BindArgs *b)
{
    Value *outv = b->v[BIND_OUT];
    tsr_tensor *in = tensor_of(b->v[0]);
    bool list = row->kind == V_SPLIT || row->kind == V_SPLIT_SIZES || row->kind == V_UNBIND;
    if (list) {   /* a list of outs, one per piece, each copied into (1.13 checks no autograd here) */
        b->v[BIND_OUT] = NULL;
        Value *r = viewcopy_call(row, fname, b, NULL, false);
        b->v[BIND_OUT] = outv;
        if (!r) return NULL;
        size_t n = r->u.seq.n, no = outv->u.seq.n;
        if (n != no) {
            decref(r);
            return exc_set("RuntimeError", "%s() expected an out= argument of size %zu, got size %zu",
                           row->kind == V_SPLIT ? "split_copy_Tensor_out"
                           : row->kind == V_SPLIT_SIZES ? "split_with_sizes_copy_out" : "unbind_copy_int_out", n, no);
        }
        for (size_t i = 0; i < n; i++)
            if (tsr_copy_(tensor_of(outv->u.seq.items[i]), tensor_of(r->u.seq.items[i])) < 0) {
                decref(r);
                return bind_runtime_error();
            }
        decref(r);
        return v_none();
    }
    if (tsr_ag_needed(1, &in))
        return exc_set("RuntimeError", "%s(): functions with out=... arguments don't support automatic "
                       "differentiation, but one of the arguments requires grad.", fname);
    b->v[BIND_OUT] = NULL;
    Value *r = viewcopy_call(row, fname, b, NULL, false);
    b->v[BIND_OUT] = outv;
    if (!r) return NULL;
    int rc = tsr_copy_(tensor_of(outv), tensor_of(r));
    decref(r);
    return rc < 0 ? bind_runtime_error() : incref(outv);
}

static Value *viewcopy_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)self; (void)inplace;
    if (b->v[BIND_OUT] && !is_none(b->v[BIND_OUT])) return viewcopy_out(row, fname, b);
    tsr_tensor *in = tensor_of(b->v[0]);
    if (row->kind == V_VIEW_AS_COMPLEX && tsr_ag_needed(1, &in))
        return exc_set("RuntimeError", "%s does not support automatic differentiation for outputs with complex dtype.",
                       fname);
    if (row->kind == V_ALIAS || row->kind == V_DETACH) {   /* no alias function here; detach: a NotImplemented node */
        tsr_tensor *c = tsr_clone(in, TSR_MF_PRESERVE);
        if (!c) return bind_runtime_error();
        if (tsr_ag_needed(1, &in) &&
            tsr_ag_record(row->kind == V_ALIAS ? "alias" : "detach_copy", 1, &in, &(tsr_ag_args){0}, c, false) < 0) {
            tsr_tensor_release(c);
            return bind_runtime_error();
        }
        if (row->kind == V_ALIAS && tsr_ag_view_to_copy(c, c) < 0) {
            tsr_tensor_release(c);
            return bind_runtime_error();
        }
        return v_tensor(c);
    }
    Value *v = view_of(row, b);
    if (!v || is_tensor(v)) {
        Value *r = v ? copy_of(v, in) : NULL;
        decref(v);
        return r;
    }
    size_t n = v->u.seq.n;   /* split / unbind: a tuple of views */
    Value *r = v_tuple(n);
    for (size_t i = 0; i < n; i++)
        if (!(r->u.seq.items[i] = copy_of(v->u.seq.items[i], in))) {
            for (size_t j = i + 1; j < n; j++) r->u.seq.items[j] = v_none();
            decref(r);
            decref(v);
            return NULL;
        }
    decref(v);
    return r;
}

#define ROW(n, k, s) {.name = n, .kind = k, .flags = BIND_FN, .sigs = s, .handler = viewcopy_call}

static BindRow rows[] = {
    ROW("alias_copy", V_ALIAS, "Tensor input, *, Tensor? out=None"),
    ROW("as_strided_copy", V_AS_STRIDED,
        "Tensor input, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None, *, Tensor? out=None"),
    ROW("detach_copy", V_DETACH, "Tensor input, *, Tensor? out=None"),
    ROW("diagonal_copy", V_DIAGONAL, "Tensor input, int offset=0, int dim1=0, int dim2=1, *, Tensor? out=None"),
    ROW("expand_copy", V_EXPAND, "Tensor input, SymInt[] size, *, bool implicit=False, *, Tensor? out=None"),
    ROW("permute_copy", V_PERMUTE, "Tensor input, int[] dims, *, Tensor? out=None"),
    ROW("select_copy", V_SELECT, "Tensor input, int dim, SymInt index, *, Tensor? out=None"),
    ROW("slice_copy", V_SLICE,
        "Tensor input, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1, *, Tensor? out=None"),
    ROW("split_copy", V_SPLIT, "Tensor input, SymInt split_size, int dim=0, *, Tensor[]? out=None"),
    ROW("split_with_sizes_copy", V_SPLIT_SIZES, "Tensor input, SymInt[] split_sizes, int dim=0, *, Tensor[]? out=None"),
    ROW("squeeze_copy", V_SQUEEZE, "Tensor input, *, Tensor? out=None|Tensor input, int dim, *, Tensor? out=None"),
    ROW("t_copy", V_T, "Tensor input, *, Tensor? out=None"),
    ROW("transpose_copy", V_TRANSPOSE, "Tensor input, int dim0, int dim1, *, Tensor? out=None"),
    ROW("unbind_copy", V_UNBIND, "Tensor input, int dim=0, *, Tensor[]? out=None"),
    ROW("unfold_copy", V_UNFOLD, "Tensor input, int dimension, int size, int step, *, Tensor? out=None"),
    ROW("unsqueeze_copy", V_UNSQUEEZE, "Tensor input, int dim, *, Tensor? out=None"),
    ROW("view_copy", V_VIEW,
        "Tensor input, ScalarType dtype, *, Tensor? out=None|Tensor input, SymInt[] size, *, Tensor? out=None"),
    ROW("view_as_real_copy", V_VIEW_AS_REAL, "Tensor input, *, Tensor? out=None"),
    ROW("view_as_complex_copy", V_VIEW_AS_COMPLEX, "Tensor input, *, Tensor? out=None"),
    ROW("values_copy", V_VALUES, "Tensor input, *, Tensor? out=None"),
    ROW("indices_copy", V_INDICES, "Tensor input, *, Tensor? out=None"),
};

void bind_viewcopy_init(void) { bind_table_register(rows, (int)(sizeof rows / sizeof rows[0])); }
