/* src/bind/names.c — the named-tensor API as 1.13's Python and C++ methods
 * give it (SEMANTICS.md §2.4): has_names, rename/rename_ (torch/_tensor.py
 * and _namedtensor_internals.py: '...' expands to the current names),
 * refine_names, align_to, align_as. Every name rule is the runtime's
 * (runtime/names.h); this file only turns the language's values into lists. */
#include <stdio.h>
#include <string.h>

#include "bind/names.h"
#include "bind/tensor.h"

static bool is_ellipsis(Value *v) { return v->type == &t_ellipsis || (v->type == &t_str && !strcmp(v->u.s.p, "...")); }

int bind_names_one(Value *v, tsr_name *out)
{
    if (is_none(v)) { *out = NULL; return 0; }
    if (v->type != &t_str)
        return exc_seti("TypeError", "expected None or string for Dimname but got %s", type_name(v));
    return tsr_name_from_str(v->u.s.p, out) < 0 ? bind_runtime_errori() : 0;
}

int bind_names_from_value(Value *v, tsr_name *out, int max, int *n)
{
    if (v->type != &t_tuple && v->type != &t_list)
        return exc_seti("RuntimeError", "names must either be None or a tuple of dim names");
    size_t len = seq_len(v);
    if ((int)len > max) return exc_seti("RuntimeError", "too many names (%zu > %d)", len, max);
    for (size_t i = 0; i < len; i++)
        if (bind_names_one(v->u.seq.items[i], &out[i]) < 0) return -1;
    *n = (int)len;
    return 0;
}

static tsr_tensor *self_t(Value *self) { return tensor_of(self); }

Value *bind_names_tuple(const tsr_tensor *t)
{
    Value *r = v_tuple((size_t)t->ndim);
    for (int i = 0; i < t->ndim; i++)
        r->u.seq.items[i] = t->names && t->names[i] ? v_str(t->names[i]) : v_none();
    return r;
}

/* "(...)": the Python repr of the positional names, for the Ellipsis messages */
static Value *args_repr(CallArgs *a)
{
    Value *t = v_tuple((size_t)a->npos);
    for (int i = 0; i < a->npos; i++) t->u.seq.items[i] = incref(a->pos[i]);
    Value *r = value_repr(t);
    decref(t);
    return r;
}

/* The positional names of rename/refine_names/align_to into out; *ell gets
 * the ellipsis position or -1. More than one ellipsis is fname's error. */
static int positional_names(const char *fname, CallArgs *a, tsr_name *out, int *ell)
{
    *ell = -1;
    if (a->npos > TSR_MAX_NAMED_DIMS) return exc_seti("RuntimeError", "%s: too many names", fname);
    for (int i = 0; i < a->npos; i++) {
        if (is_ellipsis(a->pos[i])) {
            if (*ell >= 0) {
                Value *r = args_repr(a);
                if (!r) return -1;
                int rc = exc_seti("RuntimeError", "%s: More than one Ellipsis ('...') found in names (%s). This "
                                  "function supports up to one Ellipsis.", fname, r->u.s.p);
                decref(r);
                return rc;
            }
            *ell = i;
            out[i] = NULL;
            continue;
        }
        if (a->pos[i]->type != &t_str && !is_none(a->pos[i]) && !strncmp(fname, "rename", 6))
            return exc_seti("TypeError", "%s(): argument 'names' (position 1) must be tuple of names, not tuple", fname);
        if (bind_names_one(a->pos[i], &out[i]) < 0) return -1;
    }
    return 0;
}

/* expands the ellipsis at ell to t's current names (names[:k] +
 * t.names[k : ndim - post] + names[k+1:]); returns the new count */
static int expand_ellipsis(const tsr_tensor *t, const tsr_name *in, int n, int ell, tsr_name *out)
{
    if (ell < 0) {
        memcpy(out, in, sizeof *in * (size_t)n);
        return n;
    }
    /* Python's slice tensor.names[ell : ndim - post], negative ends included */
    int post = n - ell - 1, k = 0, lo = ell, hi = t->ndim - post;
    if (hi < 0) hi += t->ndim;
    if (hi < 0) hi = 0;
    if (lo > t->ndim) lo = t->ndim;
    for (int i = 0; i < ell; i++) out[k++] = in[i];
    for (int i = lo; i < hi; i++) out[k++] = t->names ? t->names[i] : NULL;
    for (int i = ell + 1; i < n; i++) out[k++] = in[i];
    return k;
}

static Value *m_has_names(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (self_t(self)->names) bind_names_log("Tensor.has_names");
    if (a->npos || a->nkw) return exc_set("TypeError", "has_names() takes no arguments (%d given)", a->npos + a->nkw);
    return v_bool(tsr_names_any(self_t(self)->names, self_t(self)->ndim));
}

/* rename(*names) / rename(**rename_map); inplace: rename_ */
static Value *do_rename(Value *self, CallArgs *a, bool inplace)
{
    const char *fname = inplace ? "rename_" : "rename";
    tsr_tensor *t = self_t(self);
    tsr_name names[2 * TSR_MAX_NAMED_DIMS], full[3 * TSR_MAX_NAMED_DIMS];
    int n;
    if (a->npos && a->nkw)
        return exc_set("RuntimeError", "%s: This function takes either positional args or keyword args, but not "
                       "both. Use tensor.%s(*names) to name dims and tensor.%s(**rename_map) to rename dims.",
                       fname, fname, fname);
    if (a->nkw) {
        for (int i = 0; i < t->ndim; i++) full[i] = t->names ? t->names[i] : NULL;
        n = t->ndim;
        for (int k = 0; k < a->nkw; k++) {
            tsr_name key, val;
            if (tsr_name_from_str(a->kwnames[k], &key) < 0) return bind_runtime_error();
            int at = key ? tsr_names_find(full, n, key) : -1;
            if (at < 0 || !t->names || t->names[at] != key) {
                Value *nm = bind_names_tuple(t), *r = nm ? value_repr(nm) : NULL;
                Value *vs = value_str(a->kw[k]);
                if (r && vs)
                    exc_set("RuntimeError", "%s: Tried to rename dim '%s' to dim %s in Tensor[%s] but dim '%s' does "
                            "not exist", fname, a->kwnames[k], vs->u.s.p, r->u.s.p, a->kwnames[k]);
                if (nm) decref(nm);
                if (r) decref(r);
                if (vs) decref(vs);
                return NULL;
            }
            if (bind_names_one(a->kw[k], &val) < 0) return NULL;
            full[at] = val;
        }
        names[0] = NULL;
    } else if (a->npos == 1 && is_none(a->pos[0])) {
        n = -1;   /* drop every name */
    } else {
        int ell;
        if (positional_names(fname, a, names, &ell) < 0) return NULL;
        n = expand_ellipsis(t, names, a->npos, ell, full);
    }
    if (inplace) {
        if (tsr_tensor_set_names(t, n < 0 ? NULL : full, n) < 0) return bind_runtime_error();
        return incref(self);
    }
    tsr_tensor *r = tsr_view_alias(t);
    if (!r) return bind_runtime_error();
    if (tsr_tensor_set_names(r, n < 0 ? NULL : full, n) < 0) {
        tsr_tensor_release(r);
        return bind_runtime_error();
    }
    return v_tensor(r);
}

static const char RENAME_RULE[] =
    "rename gives the dims new names: positionally (one name or None per dim, '...' for the dims not "
    "listed), or by keyword, old_name='new_name'. rename(None) drops every name. The data is shared.";

static Value *m_rename(Value *self, CallArgs *a, void *d)
{
    (void)d;
    bind_names_log("Tensor.rename");   /* the names API: naming an unnamed tensor counts */
    Value *r = do_rename(self, a, false);
    bind_names_warn();
    bind_names_explain_api("rename", RENAME_RULE, NULL, self_t(self), NULL, r);
    return r;
}

static Value *m_rename_(Value *self, CallArgs *a, void *d)
{
    (void)d;
    bind_names_log("Tensor.rename_");   /* the names API: naming an unnamed tensor counts */
    tsr_tensor *t = self_t(self), *before = tsr_view_alias(t);   /* self's names as they were */
    if (before && t->names && tsr_tensor_set_names(before, t->names, t->ndim) < 0) tsr_error_clear();
    Value *r = do_rename(self, a, true);
    bind_names_warn();
    if (before) bind_names_explain_api("rename_", RENAME_RULE, "In place: self takes the new names.", before, NULL, r);
    tsr_tensor_release(before);
    return r;
}

static Value *refine_names(Value *self, CallArgs *a);
static Value *m_refine_names(Value *self, CallArgs *a, void *d)
{
    (void)d;
    bind_names_log("Tensor.refine_names");   /* the names API: naming an unnamed tensor counts */
    Value *r = refine_names(self, a);
    bind_names_warn();
    bind_names_explain_api("refine_names", "refine_names only turns None names into names: a dim that already has "
                           "a name must be given the same name. '...' stands for the dims not listed.", NULL,
                           self_t(self), NULL, r);
    return r;
}

static Value *refine_names(Value *self, CallArgs *a)
{
    tsr_tensor *t = self_t(self);
    tsr_name names[TSR_MAX_NAMED_DIMS], full[2 * TSR_MAX_NAMED_DIMS];
    int ell;
    if (a->nkw) return exc_set("TypeError", "Tensor.refine_names() got an unexpected keyword argument '%s'", a->kwnames[0]);
    if (positional_names("refine_names", a, names, &ell) < 0) return NULL;
    int n = expand_ellipsis(t, names, a->npos, ell, full);
    if (tsr_names_refine(t->names, t->ndim, full, n) < 0) return bind_runtime_error();
    tsr_tensor *r = tsr_view_alias(t);
    if (!r || tsr_tensor_set_names(r, full, n) < 0) {
        tsr_tensor_release(r);
        return bind_runtime_error();
    }
    return v_tensor(r);
}

/* align_to's view: dims of t in src order, new ones size 1 stride 0 */
static Value *align_view(tsr_tensor *t, const tsr_name *order, int norder, int ell)
{
    tsr_name out[2 * TSR_MAX_NAMED_DIMS];
    int src[2 * TSR_MAX_NAMED_DIMS], nout;
    if (tsr_names_align_to(t->names, t->ndim, order, norder, ell, out, src, &nout) < 0) return bind_runtime_error();
    int64_t sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    if (nout > TSR_MAX_DIMS) return exc_set("RuntimeError", "align_to: too many dims");
    for (int i = 0; i < nout; i++) {
        sizes[i] = src[i] < 0 ? 1 : t->sizes[src[i]];
        strides[i] = src[i] < 0 ? 0 : t->strides[src[i]];
    }
    tsr_tensor *r = tsr_tensor_alias(t, nout, sizes, strides, t->storage_offset);
    if (!r || tsr_tensor_set_names(r, out, nout) < 0) {
        tsr_tensor_release(r);
        return bind_runtime_error();
    }
    return v_tensor(r);
}

static const char ALIGN_RULE[] =
    "align_to permutes the dims into the given order of names (a view, no copy). A name the tensor "
    "lacks becomes a new dim of size 1, so the result broadcasts by name; '...' stands for the other dims "
    "in their order. Every dim of the tensor must be named.";

static Value *m_align_to(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (self_t(self)->names) bind_names_log("Tensor.align_to");
    tsr_name names[TSR_MAX_NAMED_DIMS], order[TSR_MAX_NAMED_DIMS];
    int ell, k = 0;
    if (a->nkw) return exc_set("TypeError", "Tensor.align_to() got an unexpected keyword argument '%s'", a->kwnames[0]);
    if (positional_names("align_to", a, names, &ell) < 0) return NULL;
    for (int i = 0; i < a->npos; i++)
        if (i != ell) order[k++] = names[i];
    Value *r = align_view(self_t(self), order, k, ell);
    bind_names_explain_api("align_to", ALIGN_RULE, NULL, self_t(self), NULL, r);
    return r;
}

static Value *m_align_as(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (self_t(self)->names) bind_names_log("Tensor.align_as");
    if (a->npos != 1 || a->nkw || !is_tensor(a->pos[0]))
        return exc_set("TypeError", "align_as(): argument 'other' (position 1) must be Tensor");
    tsr_tensor *o = tensor_of(a->pos[0]);
    tsr_name order[TSR_MAX_NAMED_DIMS];
    for (int i = 0; i < o->ndim; i++) order[i] = o->names ? o->names[i] : NULL;
    Value *r = align_view(self_t(self), order, o->ndim, -1);
    bind_names_explain_api("align_as", "align_as(other) is align_to(*other.names): self's dims are permuted into "
                           "other's order of names, and other's names that self lacks become dims of size 1.",
                           NULL, self_t(self), o, r);
    return r;
}

static Value *p_names(Value *self)
{
    if (self_t(self)->names) bind_names_log("Tensor.names");
    return bind_names_tuple(self_t(self));
}

/* x.names = (...) or None: in place, validated (internal_set_names_inplace) */
static int ps_names(Value *self, Value *x)
{
    tsr_name names[TSR_MAX_NAMED_DIMS];
    int n = 0;
    if (!is_none(x) && bind_names_from_value(x, names, TSR_MAX_NAMED_DIMS, &n) < 0) return -1;
    int r = tsr_tensor_set_names(self_t(self), is_none(x) ? NULL : names, n) < 0 ? bind_runtime_errori() : 0;
    bind_names_warn();
    return r;
}

void bind_names_init(void)
{
    bind_tensor_property("names", p_names, ps_names);
    bind_tensor_method("has_names", m_has_names);
    bind_tensor_method("rename", m_rename);
    bind_tensor_method("rename_", m_rename_);
    bind_tensor_method("refine_names", m_refine_names);
    bind_tensor_method("align_to", m_align_to);
    bind_tensor_method("align_as", m_align_as);
}
