/* src/bind/shape.c — the view and shape ops (runtime/view.c) as rows of the
 * binding table: torch.NAME functions and Tensor methods with PyTorch 1.13's
 * signatures, so argument errors are the parser's. Dimname overloads look the
 * name up (the runtime's "Name 'a' not found ..."); those that name the result
 * need named tensors, which tsr does not model yet. */
#include <stdio.h>
#include <string.h>

#include "bind/table.h"
#include "bind/areas.h"
#include "bind/tensor.h"
#include "bind/names.h"
#include "autograd.h"

typedef enum {
    K_NARROW, K_SELECT, K_TRANSPOSE, K_T, K_PERMUTE, K_RESHAPE, K_SQUEEZE, K_UNSQUEEZE, K_FLATTEN, K_UNFLATTEN,
    K_AS_STRIDED, K_DIAGONAL, K_REAL, K_IMAG, K_MOVEDIM, K_VIEW, K_VIEW_AS, K_RESHAPE_AS, K_EXPAND, K_EXPAND_AS,
    K_UNFOLD, K_IS_VIEW,
} Kind;

static Value *named_result(const char *fname)
{
    return exc_set("NotImplementedError", "%s() with a named output dimension is not implemented yet in tsr (named "
                                          "tensors)", fname);
}

/* flatten's result named: t's names with start..end replaced by out_dim */
static Value *flatten_named(tsr_tensor *t, int64_t s, int64_t e, Value *out_dim)
{
    tsr_name od, nm[TSR_MAX_DIMS];
    if (bind_names_one(out_dim, &od) < 0) return NULL;
    tsr_tensor *r = tsr_view_flatten(t, s, e);
    if (!r) return bind_runtime_error();
    int k = 0;
    if (s < 0) s += t->ndim;
    if (e < 0) e += t->ndim;
    for (int i = 0; i < t->ndim; i++)
        if (i <= s || i > e) nm[k++] = i == s ? od : t->names ? t->names[i] : NULL;
    if (k == r->ndim && tsr_tensor_set_names(r, nm, k) < 0) {
        tsr_tensor_release(r);
        return bind_runtime_error();
    }
    return v_tensor(r);
}

static Value *run_flatten(const char *fname, BindArgs *b, tsr_tensor *t)
{
    int64_t s, e;
    switch (b->sig) {
    case 0:
        if (bind_table_int(b, 1, 0, &s) < 0 || bind_table_int(b, 2, -1, &e) < 0) return NULL;
        return flatten_named(t, s, e, b->v[3]);
    case 1:
        if (bind_table_int(b, 1, 0, &s) < 0 || bind_table_int(b, 2, -1, &e) < 0) return NULL;
        return v_tensor(tsr_view_flatten(t, s, e));
    case 2:
        if (bind_table_dim(b, 1, t, 0, &s) < 0 || bind_table_dim(b, 2, t, 0, &e) < 0) return NULL;
        return flatten_named(t, s, e, b->v[3]);
    case 3: {
        Value *l = b->v[1];
        int64_t first = 0, last = 0;
        if (!seq_len(l)) return exc_set("RuntimeError", "flatten(tensor, dims, out_dim): dims cannot be empty");
        for (size_t i = 0; i < seq_len(l); i++) {
            Value *n = l->u.seq.items[i];
            int d = tsr_dim_of_name(t, is_none(n) ? NULL : n->u.s.p);
            if (d < 0) return bind_runtime_error();
            if (i == 0) first = d;
            last = d;
        }
        return flatten_named(t, first, last, b->v[2]);
    }
    default: return named_result(fname);
    }
}

static Value *run_movedim(const char *fname, BindArgs *b, tsr_tensor *t)
{
    int64_t src[TSR_MAX_DIMS], dst[TSR_MAX_DIMS];
    int ns = 1, nd = 1;
    if (b->sig == 0) {
        if (bind_table_int(b, 1, 0, &src[0]) < 0 || bind_table_int(b, 2, 0, &dst[0]) < 0) return NULL;
    } else if (bind_table_intlist(b, 1, fname, src, TSR_MAX_DIMS, &ns) < 0 ||
               bind_table_intlist(b, 2, fname, dst, TSR_MAX_DIMS, &nd) < 0) {
        return NULL;
    }
    return v_tensor(tsr_view_movedim(t, ns, src, nd, dst));
}

/* The handler of every row of this area. */
static Value *shape_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)self; (void)inplace;
    tsr_tensor *t = tensor_of(b->v[0]);
    int64_t d0, d1, d2, sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    int n, ns;
    switch ((Kind)row->kind) {
    case K_NARROW:
        if (bind_table_int(b, 1, 0, &d0) < 0 || bind_table_int(b, 3, 0, &d2) < 0) return NULL;
        if (b->sig == 0) return v_tensor(tsr_view_narrow_tensor(t, d0, tensor_of(b->v[2]), d2));
        if (bind_table_int(b, 2, 0, &d1) < 0) return NULL;
        return v_tensor(tsr_view_narrow(t, d0, d1, d2));
    case K_SELECT:
        if (bind_table_dim(b, 1, t, 0, &d0) < 0 || bind_table_int(b, 2, 0, &d1) < 0) return NULL;
        return v_tensor(tsr_view_select(t, d0, d1));
    case K_TRANSPOSE:   /* 1.13 looks dim1's name up first */
        if (bind_table_dim(b, 2, t, 0, &d1) < 0 || bind_table_dim(b, 1, t, 0, &d0) < 0) return NULL;
        return v_tensor(tsr_view_transpose(t, d0, d1));
    case K_T: return v_tensor(tsr_view_t(t));
    case K_PERMUTE:
        if (bind_table_intlist(b, 1, fname, sizes, TSR_MAX_DIMS, &n) < 0) return NULL;
        return v_tensor(tsr_view_permute(t, n, sizes));
    case K_RESHAPE: case K_VIEW: case K_EXPAND:
        if (row->kind == K_VIEW && b->sig == 0) return v_tensor(tsr_view_dtype(t, dtype_of(b->v[1])));
        if (bind_table_intlist(b, 1, fname, sizes, TSR_MAX_DIMS, &n) < 0) return NULL;
        if (row->kind == K_RESHAPE) return v_tensor(tsr_reshape(t, n, sizes));
        if (row->kind == K_VIEW) return v_tensor(tsr_view_view(t, n, sizes));
        return v_tensor(tsr_view_expand(t, n, sizes));
    case K_SQUEEZE:
        if (b->sig == 0) return v_tensor(tsr_view_squeeze(t));
        if (bind_table_dim(b, 1, t, 0, &d0) < 0) return NULL;
        return v_tensor(tsr_view_squeeze_dim(t, d0));
    case K_UNSQUEEZE:
        if (bind_table_int(b, 1, 0, &d0) < 0) return NULL;
        return v_tensor(tsr_view_unsqueeze(t, d0));
    case K_FLATTEN: return run_flatten(fname, b, t);
    case K_UNFLATTEN:
        if (bind_table_dim(b, 1, t, 0, &d0) < 0) return NULL;
        if (bind_table_intlist(b, 2, fname, sizes, TSR_MAX_DIMS, &n) < 0) return NULL;
        if (b->sig == 0) {   /* unflatten(Dimname dim, int[] sizes, Dimname[] names) */
            tsr_name nm[TSR_MAX_DIMS];
            int k;
            if (bind_names_from_value(b->v[3], nm, TSR_MAX_DIMS, &k) < 0) return NULL;
            if (k != n) return exc_set("RuntimeError", "unflatten: %d names for %d sizes", k, n);
            return v_tensor(tsr_view_unflatten_names(t, d0, n, sizes, nm));
        }
        return v_tensor(tsr_view_unflatten(t, d0, n, sizes));
    case K_AS_STRIDED:
        if (bind_table_intlist(b, 1, fname, sizes, TSR_MAX_DIMS, &n) < 0 ||
            bind_table_intlist(b, 2, fname, strides, TSR_MAX_DIMS, &ns) < 0 || bind_table_int(b, 3, TSR_VIEW_KEEP_OFFSET, &d0) < 0)
            return NULL;
        return v_tensor(tsr_view_as_strided_checked(t, n, sizes, ns, strides, d0));
    case K_DIAGONAL:
        if (b->sig == 0) {   /* 1.13 looks dim2's name up first */
            if (bind_table_dim(b, 3, t, 0, &d2) < 0 || bind_table_dim(b, 2, t, 0, &d1) < 0) return NULL;
            return named_result(fname);
        }
        if (bind_table_int(b, 1, 0, &d0) < 0 || bind_table_int(b, 2, 0, &d1) < 0 || bind_table_int(b, 3, 1, &d2) < 0)
            return NULL;
        return v_tensor(tsr_view_diagonal(t, d0, d1, d2));
    case K_REAL:
        if (!tsr_dtype_is_complex(t->dtype)) return incref(b->v[0]);
        return v_tensor(tsr_view_real(t));
    case K_IMAG: return v_tensor(tsr_view_imag(t));
    case K_MOVEDIM: return run_movedim(fname, b, t);
    case K_VIEW_AS: return v_tensor(tsr_view_view(t, tensor_of(b->v[1])->ndim, tensor_of(b->v[1])->sizes));
    case K_RESHAPE_AS: return v_tensor(tsr_reshape(t, tensor_of(b->v[1])->ndim, tensor_of(b->v[1])->sizes));
    case K_EXPAND_AS: return v_tensor(tsr_view_expand_as(t, tensor_of(b->v[1])));
    case K_IS_VIEW: return v_bool(t->base != NULL);
    case K_UNFOLD:
        if (bind_table_int(b, 1, 0, &d0) < 0 || bind_table_int(b, 2, 0, &d1) < 0 || bind_table_int(b, 3, 0, &d2) < 0)
            return NULL;
        return v_tensor(tsr_view_unfold(t, d0, d1, d2));
    }
    return exc_set("RuntimeError", "internal error: shape kind %d", row->kind);
}

/* The in-place view methods (squeeze_, unsqueeze_, t_, transpose_, swapaxes_,
 * swapdims_, as_strided_): the out-of-place view, whose geometry self then
 * takes (runtime tsr_view_inplace); self stays the same object. */
static Value *shape_inplace_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    tsr_tensor *t = tensor_of(b->v[0]);
    char schema[64];
    if (row->kind == K_SQUEEZE && b->sig == 2)
        return exc_set("RuntimeError", "squeeze: You passed a dimname (string) to this op in place of a dimension "
                                       "index but it does not yet support this behavior. Please pass a dimension "
                                       "index to work around this.");
    snprintf(schema, sizeof schema, "aten::%s%s", row->kind == K_TRANSPOSE ? "transpose_" : row->name,
             row->kind == K_SQUEEZE && b->sig == 1 ? ".dim" : "");
    if (tsr_view_inplace_check(t, schema) < 0 || tsr_ag_check_inplace(t) < 0) return bind_runtime_error();
    if (tsr_ag_needed(1, &t))   /* a non-leaf: 1.13 records e.g. SqueezeBackward3 */
        return exc_set("NotImplementedError", "%s() on a tensor that requires grad is not implemented yet in tsr "
                                              "(autograd does not record in-place views)", fname);
    Value *v = shape_call(row, fname, b, self, inplace);
    if (!v) return NULL;
    tsr_tensor *r = tsr_view_inplace(t, tensor_of(v), schema);
    decref(v);
    if (!r) return bind_runtime_error();
    Value *me = b->v[0];
    if (r != t) {
        me->u.ext.ptr = r;
        tsr_tensor_release(t);
    } else {
        tsr_tensor_release(r);
    }
    return incref(me);
}

#define FM (BIND_FN | BIND_METHOD)
#define ROW(n, k, fl, s) {.name = n, .kind = k, .flags = fl, .sigs = s, .handler = shape_call}
#define ROWI(n, k, s) {.name = n, .kind = k, .flags = BIND_METHOD, .sigs = s, .handler = shape_inplace_call}

static BindRow defs[] = {
    ROW("narrow", K_NARROW, FM, "Tensor input, int dim, Tensor start, int length|Tensor input, int dim, int start, int length"),
    ROW("select", K_SELECT, FM, "Tensor input, int dim, int index|Tensor input, Dimname dim, int index"),
    ROW("transpose", K_TRANSPOSE, FM, "Tensor input, int dim0, int dim1|Tensor input, Dimname dim0, Dimname dim1"),
    ROW("swapaxes", K_TRANSPOSE, FM, "Tensor input, int axis0, int axis1"),
    ROW("swapdims", K_TRANSPOSE, FM, "Tensor input, int dim0, int dim1"),
    ROW("t", K_T, FM, "Tensor input"),
    ROW("permute", K_PERMUTE, FM, "Tensor input, int[] dims"),
    ROW("reshape", K_RESHAPE, FM, "Tensor input, SymInt[] shape"),
    ROW("squeeze", K_SQUEEZE, FM, "Tensor input|Tensor input, int dim|Tensor input, Dimname dim"),
    ROW("unsqueeze", K_UNSQUEEZE, FM, "Tensor input, int dim"),
    ROW("flatten", K_FLATTEN, FM,
        "Tensor input, int start_dim, int end_dim, Dimname out_dim|Tensor input, int start_dim=0, int end_dim=-1|"
        "Tensor input, Dimname start_dim, Dimname end_dim, Dimname out_dim|Tensor input, Dimname[] dims, Dimname out_dim"),
    ROW("unflatten", K_UNFLATTEN, BIND_FN,
        "Tensor input, Dimname dim, int[] sizes, Dimname[] names|Tensor input, int dim, int[] sizes"),
    ROW("as_strided", K_AS_STRIDED, FM, "Tensor input, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None"),
    ROW("diagonal", K_DIAGONAL, FM,
        "Tensor input, *, Dimname outdim, Dimname dim1, Dimname dim2, int offset=0|"
        "Tensor input, int offset=0, int dim1=0, int dim2=1"),
    ROW("real", K_REAL, BIND_FN, "Tensor input"),
    ROW("imag", K_IMAG, BIND_FN, "Tensor input"),
    ROW("movedim", K_MOVEDIM, FM, "Tensor input, int source, int destination|Tensor input, int[] source, int[] destination"),
    ROW("moveaxis", K_MOVEDIM, FM, "Tensor input, int source, int destination|Tensor input, int[] source, int[] destination"),
    ROW("view", K_VIEW, BIND_METHOD, "Tensor self, dtype dtype|Tensor self, SymInt[] size"),
    ROW("view_as", K_VIEW_AS, BIND_METHOD, "Tensor self, Tensor other"),
    ROW("reshape_as", K_RESHAPE_AS, BIND_METHOD, "Tensor self, Tensor other"),
    ROW("expand", K_EXPAND, BIND_METHOD, "Tensor self, SymInt[] size, *, bool implicit=False"),
    ROW("expand_as", K_EXPAND_AS, BIND_METHOD, "Tensor self, Tensor other"),
    ROW("unfold", K_UNFOLD, BIND_METHOD, "Tensor self, int dimension, int size, int step"),
    ROW("_is_view", K_IS_VIEW, BIND_METHOD, "Tensor self"),
    ROWI("squeeze_", K_SQUEEZE, "Tensor self|Tensor self, int dim|Tensor self, Dimname dim"),
    ROWI("unsqueeze_", K_UNSQUEEZE, "Tensor self, int dim"),
    ROWI("t_", K_T, "Tensor self"),
    ROWI("transpose_", K_TRANSPOSE, "Tensor self, int dim0, int dim1"),
    ROWI("swapaxes_", K_TRANSPOSE, "Tensor self, int axis0, int axis1"),
    ROWI("swapdims_", K_TRANSPOSE, "Tensor self, int dim0, int dim1"),
    /* also torch.as_strided_(input, ...) */
    {.name = "as_strided_", .kind = K_AS_STRIDED, .flags = BIND_METHOD | BIND_FN | BIND_FN_INPLACE,
     .sigs = "Tensor input, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None", .handler = shape_inplace_call},
};

static const BindRow *unflatten_row;   /* torch.unflatten's row, found at start-up */

/* Tensor.unflatten is Python code in 1.13 (torch/_tensor.py, def unflatten(self,
 * dim, sizes)): its argument errors are those of a Python def, then it calls
 * the parser's unflatten. */
static Value *m_unflatten(Value *self, CallArgs *a, void *d)
{
    (void)d;
    static const char *const names[2] = {"dim", "sizes"};
    Value *pos[3] = {NULL, NULL, NULL};
    if (a->npos > 2)
        return exc_set("TypeError", "Tensor.unflatten() takes 3 positional arguments but %d were given", a->npos + 1);
    for (int i = 0; i < a->npos; i++) pos[i + 1] = a->pos[i];
    for (int k = 0; k < a->nkw; k++) {
        int i = !strcmp(a->kwnames[k], "dim") ? 0 : !strcmp(a->kwnames[k], "sizes") ? 1 : -1;
        if (i < 0) return exc_set("TypeError", "Tensor.unflatten() got an unexpected keyword argument '%s'", a->kwnames[k]);
        if (pos[i + 1]) return exc_set("TypeError", "Tensor.unflatten() got multiple values for argument '%s'", names[i]);
        pos[i + 1] = a->kw[k];
    }
    if (!pos[1] && !pos[2])
        return exc_set("TypeError", "Tensor.unflatten() missing 2 required positional arguments: 'dim' and 'sizes'");
    if (!pos[1] || !pos[2])
        return exc_set("TypeError", "Tensor.unflatten() missing 1 required positional argument: '%s'", names[pos[1] != NULL]);
    /* a namedshape ((name, size) pairs) splits into sizes and names (unzip_namedshape) */
    Value *sz = pos[2];
    if ((sz->type == &t_tuple || sz->type == &t_list) && seq_len(sz) &&
        (sz->u.seq.items[0]->type == &t_tuple || sz->u.seq.items[0]->type == &t_list)) {
        size_t n = seq_len(sz);
        Value *names = v_tuple(n), *sizes = v_tuple(n);
        for (size_t i = 0; i < n; i++) {
            Value *p = sz->u.seq.items[i];
            if ((p->type != &t_tuple && p->type != &t_list) || seq_len(p) != 2) {
                decref(names);
                decref(sizes);
                return exc_set("TypeError", "unflatten: namedshape entries must be (name, size) pairs");
            }
            names->u.seq.items[i] = incref(p->u.seq.items[0]);
            sizes->u.seq.items[i] = incref(p->u.seq.items[1]);
        }
        Value *args[3] = {pos[1], sizes, names};
        CallArgs c = {args, 3, NULL, NULL, 0};
        Value *r = bind_table_call_method(unflatten_row, self, &c);
        decref(names);
        decref(sizes);
        return r;
    }
    CallArgs c = {pos + 1, 2, NULL, NULL, 0};
    return bind_table_call_method(unflatten_row, self, &c);
}

bool bind_same_tensor(Value *a, Value *b)
{
    return is_tensor(a) && is_tensor(b) && tensor_of(a) == tensor_of(b);
}

/* x._base: the tensor x is a view of, else None. */
static Value *p_base(Value *self)
{
    tsr_tensor *b = tensor_of(self)->base;
    return b ? v_tensor(tsr_tensor_retain(b)) : v_none();
}

void bind_shape_init(void)
{
    bind_tensor_property("_base", p_base, NULL);
    bind_table_register(defs, (int)(sizeof defs / sizeof defs[0]));
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        if (defs[i].kind == K_UNFLATTEN) unflatten_row = &defs[i];
    bind_tensor_method("unflatten", m_unflatten);
}
