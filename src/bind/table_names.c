/* src/bind/table_names.c — the named-tensor step of the binding table's call
 * path (SEMANTICS.md §2): a row whose call has a named tensor argument either
 * has a names rule (its family's function in runtime/names computes the
 * result's names before the handler runs, and they are given to the result,
 * the out= tensor or self afterwards), or is refused with 1.13's fallback
 * message naming the ATen overload. Rows that do elementwise work through
 * an op descriptor pass: the iterator infers their names (runtime/iter.c).
 * An unnamed call costs one scan of its arguments. */
#include <stdlib.h>
#include <string.h>

#include "bind/names.h"
#include "bind/table.h"
#include "bind/tensor.h"

/* ORDER NRULE */
enum {
    NR_REFUSE,      /* no rule: the fallback's refusal */
    NR_PASS,        /* the handler or the runtime deals with names (metadata, descriptors, the names API) */
    NR_KEEP,        /* keeps input names */
    NR_REDUCE,      /* removes the `dim` dims unless keepdim; a full reduction gives () */
    NR_SELECT,      /* removes the `dim` dim (select, unbind) */
    NR_SQUEEZE,     /* squeeze() removes size-1 dims; squeeze(d): see SEMANTICS.md §2.8 */
    NR_TRANSPOSE,   /* swaps dim0 and dim1 */
    NR_T,           /* t(): reverses a 2-d tensor's names */
    NR_MATMUL,      /* contracts away dims (mm, mv, dot, matmul, bmm) */
    NR_ADDMM,       /* contraction of mat1/mat2 (vec), unified with self */
    NR_CAT,         /* unify from the right ("cat") */
    NR_EXPAND,      /* new leading dims are None */
    NR_MASKED_SELECT, /* self and mask unify, the result is (None,) */
    NR_COPY,        /* self gets unify(self, src) */
    NR_FLATTEN,     /* flatten(..., out_dim); without out_dim 1.13 refuses as _reshape_alias */
    NR_REDUCE_NODIM, /* all/any: only the full reduction has a names rule */
    NR_CMP,         /* comparisons: elementwise, but their in-place forms are refused */
    NR_RESIZE_AS,   /* resize_as_: the template's names, checked against self's */
    NR_UNIFY,       /* unify every tensor argument from the right (addcmul, logical_and, ...) */
};

/* Rows 1.13 refuses through the op they decompose into (probed): the
 * schema its fallback names. Sorted. */
static const struct { const char *name, *schema; } composite_refusals[] = {
    {"argsort", "aten::sort"}, {"as_strided", "aten::_reshape_alias"}, {"cov", "aten::unsqueeze"},
    {"conv1d", "aten::convolution"}, {"conv2d", "aten::convolution"}, {"conv_transpose1d", "aten::convolution"},
    {"conv_transpose2d", "aten::convolution"},
    {"cross", "aten::linalg_cross"}, {"det", "aten::_linalg_det"}, {"einsum", "aten::permute"},
    {"frexp", "aten::frexp.Tensor"}, {"inner", "aten::permute"},
    {"inverse", "aten::linalg_inv_ex"}, {"isclose", "aten::mul.Scalar"}, {"isin", "aten::isin.Tensor_Tensor"},
    {"kron", "aten::_unsafe_view"}, {"moveaxis", "aten::permute"}, {"movedim", "aten::permute"},
    {"msort", "aten::sort"}, {"multi_dot", "aten::view"}, {"nanmean", "aten::nansum"},
    {"norm", "aten::norm.ScalarOpt_dim"}, {"outer", "aten::_reshape_alias"}, {"pad", "aten::constant_pad_nd"},
    {"quantile", "aten::_reshape_alias"}, {"searchsorted", "aten::searchsorted.Tensor"},
    {"tensordot", "aten::permute"}, {"unique", "aten::_unique2"}, {"view_as", "aten::view"},
    {"xlogy", "aten::xlogy.Tensor"},
};

typedef struct { const char *name; unsigned char rule; } NameRule;

/* Sorted by name (checked at start-up). Rows not listed refuse unless an
 * elementwise op descriptor of the same name exists (tsr_op_find). */
static const NameRule rules[] = {
    {"__complex__", NR_PASS}, {"__float__", NR_PASS}, {"__format__", NR_PASS}, {"__index__", NR_PASS},
    {"__int__", NR_PASS}, {"addcdiv", NR_UNIFY}, {"addcmul", NR_UNIFY}, {"addmm", NR_ADDMM}, {"addmv", NR_ADDMM},
    {"all", NR_REDUCE_NODIM}, {"any", NR_REDUCE_NODIM}, {"bernoulli", NR_KEEP}, {"bernoulli_", NR_KEEP},
    {"bfloat16", NR_KEEP}, {"bmm", NR_MATMUL}, {"bool", NR_KEEP}, {"byte", NR_KEEP}, {"cat", NR_CAT},
    {"cauchy_", NR_KEEP}, {"char", NR_KEEP}, {"chunk", NR_KEEP}, {"clamp", NR_KEEP}, {"clamp_", NR_KEEP},
    {"clamp_max", NR_KEEP}, {"clamp_min", NR_KEEP}, {"clip", NR_KEEP}, {"clip_", NR_KEEP}, {"clone", NR_KEEP},
    {"concat", NR_CAT}, {"contiguous", NR_KEEP}, {"copy_", NR_COPY}, {"cpu", NR_KEEP}, {"cuda", NR_KEEP},
    {"cummax", NR_KEEP}, {"cummin", NR_KEEP}, {"cumprod", NR_KEEP}, {"cumprod_", NR_KEEP}, {"cumsum", NR_KEEP},
    {"cumsum_", NR_KEEP}, {"data_ptr", NR_PASS}, {"detach", NR_KEEP}, {"detach_", NR_PASS}, {"diagonal", NR_PASS},
    {"diff", NR_KEEP}, {"dim", NR_PASS}, {"dot", NR_MATMUL}, {"double", NR_KEEP}, {"element_size", NR_PASS},
    {"empty_like", NR_KEEP}, {"eq", NR_CMP}, {"equal", NR_PASS}, {"expand", NR_EXPAND}, {"expand_as", NR_EXPAND},
    {"expit", NR_KEEP}, {"exponential_", NR_KEEP}, {"fill_", NR_KEEP}, {"flatten", NR_FLATTEN}, {"float", NR_KEEP},
    {"full_like", NR_KEEP}, {"ge", NR_CMP}, {"geometric_", NR_KEEP}, {"get_device", NR_PASS}, {"gt", NR_CMP},
    {"half", NR_KEEP}, {"hsplit", NR_KEEP}, {"index_fill", NR_KEEP}, {"index_fill_", NR_KEEP}, {"int", NR_KEEP},
    {"is_complex", NR_PASS}, {"is_contiguous", NR_PASS}, {"is_floating_point", NR_PASS}, {"is_pinned", NR_PASS},
    {"is_set_to", NR_PASS}, {"is_shared", NR_PASS}, {"is_signed", NR_PASS}, {"is_tensor", NR_PASS},
    {"isfinite", NR_KEEP}, {"isinf", NR_KEEP}, {"isnan", NR_KEEP}, {"item", NR_PASS}, {"kthvalue", NR_REDUCE},
    {"ldexp", NR_UNIFY}, {"le", NR_CMP}, {"log_normal_", NR_KEEP}, {"log_softmax", NR_KEEP},
    {"logcumsumexp", NR_KEEP}, {"logical_and", NR_UNIFY}, {"logical_not", NR_PASS}, {"logical_or", NR_UNIFY},
    {"logical_xor", NR_UNIFY}, {"logsumexp", NR_REDUCE}, {"long", NR_KEEP}, {"lt", NR_CMP},
    {"masked_fill", NR_KEEP}, {"masked_fill_", NR_KEEP}, {"masked_select", NR_MASKED_SELECT}, {"matmul", NR_MATMUL},
    {"max", NR_REDUCE}, {"mean", NR_REDUCE}, {"median", NR_REDUCE}, {"min", NR_REDUCE}, {"mm", NR_MATMUL},
    {"mode", NR_REDUCE}, {"mv", NR_MATMUL}, {"nanmedian", NR_REDUCE}, {"narrow", NR_KEEP}, {"ndimension", NR_PASS},
    {"ne", NR_CMP}, {"nelement", NR_PASS}, {"normal_", NR_KEEP}, {"numel", NR_PASS}, {"ones_like", NR_KEEP},
    {"prod", NR_REDUCE}, {"rand_like", NR_KEEP}, {"randint_like", NR_KEEP}, {"randn_like", NR_KEEP},
    {"random_", NR_KEEP}, {"requires_grad_", NR_PASS}, {"resize_", NR_PASS}, {"resize_as_", NR_RESIZE_AS},
    {"rsub", NR_UNIFY}, {"select", NR_SELECT}, {"short", NR_KEEP}, {"signbit", NR_KEEP}, {"size", NR_PASS},
    {"softmax", NR_KEEP}, {"split", NR_KEEP}, {"split_with_sizes", NR_KEEP}, {"squeeze", NR_SQUEEZE}, {"squeeze_", NR_SQUEEZE}, {"std", NR_REDUCE},
    {"std_mean", NR_REDUCE}, {"storage_offset", NR_PASS}, {"stride", NR_PASS}, {"sum", NR_REDUCE},
    {"swapaxes", NR_TRANSPOSE}, {"swapdims", NR_TRANSPOSE}, {"t", NR_T}, {"t_", NR_T}, {"tensor_split", NR_KEEP},
    {"to", NR_KEEP}, {"tolist", NR_PASS}, {"transpose", NR_TRANSPOSE}, {"transpose_", NR_TRANSPOSE},
    {"true_divide", NR_PASS}, {"type", NR_KEEP}, {"type_as", NR_KEEP}, {"unbind", NR_SELECT},
    {"unflatten", NR_PASS}, {"uniform_", NR_KEEP}, {"var", NR_REDUCE}, {"var_mean", NR_REDUCE}, {"zero_", NR_KEEP},
    {"zeros_like", NR_KEEP},
};

static int cmp_str(const void *a, const void *b) { return strcmp(a, *(const char *const *)b); }
static int cmp_rule(const void *k, const void *e) { return strcmp(k, ((const NameRule *)e)->name); }

unsigned char bind_names_rule_of(const char *name)
{
    static bool checked;
    if (!checked) {
        for (size_t i = 1; i < sizeof rules / sizeof *rules; i++)
            if (strcmp(rules[i - 1].name, rules[i].name) >= 0) {
                fprintf(stderr, "tsr: names rules not sorted at \"%s\"\n", rules[i].name);
                abort();
            }
        checked = true;
    }
    for (size_t i = 0; i < sizeof composite_refusals / sizeof *composite_refusals; i++)
        if (!strcmp(name, composite_refusals[i].name)) return NR_REFUSE;
    const NameRule *r = bsearch(name, rules, sizeof rules / sizeof *rules, sizeof *rules, cmp_rule);
    if (r) return r->rule;
    return tsr_op_find(name) || tsr_op_find_name(name) ? NR_PASS : NR_REFUSE;
}

/* ------------------------------------------------------------ helpers */

static bool is_seq(Value *v)
{
    return v->type == &t_tuple || v->type == &t_list ||
           (v->type->module && !strcmp(v->type->module, "torch.return_types"));
}

static bool named(Value *v)
{
    if (!v) return false;
    if (is_tensor(v)) return tensor_of(v)->names != NULL;
    if (v->type == &t_tuple || v->type == &t_list)
        for (size_t i = 0; i < seq_len(v); i++)
            if (is_tensor(v->u.seq.items[i]) && tensor_of(v->u.seq.items[i])->names) return true;
    return false;
}

static int slot_of(const BindArgs *b, const char *name)
{
    for (int i = 0; i < BIND_MAXP; i++)
        if (b->param[i] && !strcmp(b->param[i]->name, name)) return i;
    return -1;
}

static Value *arg(const BindArgs *b, const char *name)
{
    int s = slot_of(b, name);
    return s < 0 ? NULL : b->v[s];
}

/* the first tensor argument (self / input) */
static tsr_tensor *first_tensor(const BindArgs *b, Value *self)
{
    if (self && is_tensor(self)) return tensor_of(self);
    for (int i = 0; i < BIND_OUT; i++)
        if (b->v[i] && is_tensor(b->v[i])) return tensor_of(b->v[i]);
    return NULL;
}

static void names_of(const tsr_tensor *t, tsr_name *out)
{
    for (int i = 0; i < t->ndim; i++) out[i] = t->names ? t->names[i] : NULL;
}

/* One dim value (int or name) of t into *d; 1 done, 0 not a dim we can read
 * (the handler reports it), -1 error. */
static int dim_value(Value *v, const tsr_tensor *t, int64_t *d)
{
    if (v->type == &t_str) {
        int k = tsr_dim_of_name(t, v->u.s.p);
        if (k < 0) return bind_runtime_errori();
        *d = k;
        return 1;
    }
    if (is_none(v)) {
        tsr_error_set(TSR_ERR_RUNTIME, "Please look up dimensions by name, got: name = None.");
        return bind_runtime_errori();
    }
    if (v->type != &t_int && v->type != &t_bool) return 0;
    int64_t x = v->u.i, n = t->ndim ? t->ndim : 1;
    if (x < -n || x >= n) return 0;
    *d = x < 0 ? x + n : x;
    return 1;
}

/* ------------------------------------------------------------ refusal */

/* The ATen overload the call ran, as the fallback prints it. */
static void overload_name(const BindRow *d, const char *fname, const BindArgs *b, char *buf, size_t cap)
{
    const char *base = d->op ? d->op : d->name;
    size_t fl = strlen(fname), bl = strlen(base);
    bool under = fl && fname[fl - 1] == '_' && !(bl && base[bl - 1] == '_');
    const BindSig *s = NULL;
    int nsig = 0;
    if (b->sig >= 0) {
        s = &d->fs[b->sig < d->nfs ? b->sig : 0];
        for (int i = 0; i < d->nfs; i++) nsig += !d->fs[i].hidden;
    }
    const char *ov = NULL;
    char tmp[64];
    for (size_t i = 0; i < sizeof composite_refusals / sizeof *composite_refusals; i++)
        if (!strcmp(d->name, composite_refusals[i].name)) {
            snprintf(buf, cap, "%s", composite_refusals[i].schema);
            return;
        }
    if (!strncmp(d->pname, "special_", 8)) base = d->pname;
    if (!strcmp(d->name, "where")) ov = "self";
    else if (!strcmp(d->name, "scatter")) ov = arg(b, "value") ? "value" : "src";
    else if ((!strcmp(d->name, "max") || !strcmp(d->name, "min")) && arg(b, "other"))
        base = d->name[1] == 'a' ? "maximum" : "minimum";
    else if (!strcmp(d->name, "normal")) {
        Value *m = arg(b, "mean"), *sd = arg(b, "std");
        snprintf(tmp, sizeof tmp, "%s_%s", m && is_tensor(m) ? "Tensor" : "float", sd && is_tensor(sd) ? "Tensor" : "float");
        ov = tmp;
    } else if (!strcmp(d->name, "reshape") || !strcmp(d->name, "reshape_as")) {
        base = "_reshape_alias";
    } else if (s && nsig > 1) {
        /* the parameter whose type tells this overload from another: a dim
         * (".dim" when the others lack one, ".dimname" for a name, none
         * when the other overload takes the name), else Tensor / Scalar */
        int ds = slot_of(b, "dim");
        bool other_named = false, other_nodim = false;
        for (int i = 0; i < d->nfs; i++) {
            bool has = false, nm = false;
            for (int j = 0; j < d->fs[i].n; j++)
                if (!strcmp(d->fs[i].p[j].name, "dim")) {
                    has = true;
                    nm = d->fs[i].p[j].type == BT_DIMNAME || d->fs[i].p[j].type == BT_DIMNAME_LIST;
                }
            other_named = other_named || nm;
            other_nodim = other_nodim || !has;
        }
        if (ds >= 0 && b->v[ds] && b->type[ds] == BT_INT) ov = other_nodim ? "dim" : NULL;
        else if (ds >= 0 && b->v[ds] && b->type[ds] == BT_DIMNAME) ov = "dimname";
        else
            for (int i = BIND_OUT - 1; i >= 1 && !ov; i--) {
                if (!b->v[i] || !b->param[i] || b->bykw[i]) continue;
                const char *pn = b->param[i]->name;
                bool differs = false;
                for (int k = 0; k < d->nfs && !differs; k++)
                    for (int j = 0; j < d->fs[k].n; j++)
                        if (!strcmp(d->fs[k].p[j].name, pn) && d->fs[k].p[j].type != b->type[i]) differs = true;
                if (!differs) continue;
                if (b->type[i] == BT_TENSOR) ov = "Tensor";
                else if (b->type[i] == BT_NUMBER) ov = "Scalar";
            }
    }
    snprintf(buf, cap, "aten::%s%s%s%s", base, under ? "_" : "", ov ? "." : "", ov ? ov : "");
}

static Value *refuse_named(const char *schema)
{
    tsr_names_refuse(schema);
    return bind_runtime_error();
}

/* ------------------------------------------------------------ rules */

typedef struct {
    tsr_name names[TSR_MAX_NAMED_DIMS];
    int n;          /* -1: the result is left alone */
    bool each;      /* a sequence result: every tensor in it gets the names */
    bool raw;       /* matmul: duplicate names are not rejected (1.13) */
} Outnames;

/* removes the dims that the `dim` argument names (int, name, or a list) */
static int reduce_names(const BindArgs *b, const tsr_tensor *t, bool single, Outnames *o)
{
    int s = slot_of(b, "dim");
    Value *v = s >= 0 ? b->v[s] : NULL;
    bool removed[TSR_MAX_NAMED_DIMS] = {false};
    Value *kd = arg(b, "keepdim");
    bool keep = kd && kd->u.i;
    if (!v || (is_seq(v) && seq_len(v) == 0 && !single)) {
        o->n = keep ? -1 : 0;   /* a full reduction: 0-dim, or keepdim's all-size-1 result keeps names */
        if (keep) {
            names_of(t, o->names);
            o->n = t->ndim;
        }
        return 0;
    }
    if (is_seq(v)) {
        for (size_t i = 0; i < seq_len(v); i++) {
            int64_t d;
            int rc = dim_value(v->u.seq.items[i], t, &d);
            if (rc <= 0) return rc;
            removed[d] = true;
        }
    } else {
        int64_t d;
        int rc = dim_value(v, t, &d);
        if (rc <= 0) return rc;
        removed[d] = true;
    }
    names_of(t, o->names);
    if (!keep) {
        tsr_name tmp[TSR_MAX_NAMED_DIMS];
        o->n = tsr_names_remove(o->names, t->ndim, removed, tmp);
        memcpy(o->names, tmp, sizeof *tmp * (size_t)o->n);
    } else {
        o->n = t->ndim;
    }
    return 1;
}

/* The names of the call's result, before it runs. 0 ok, -1 error. */
static int compute(int rule, const BindRow *d, const char *fname, BindArgs *b, Value *self, Outnames *o)
{
    tsr_tensor *t = first_tensor(b, self);
    o->n = -1;
    o->each = false;
    o->raw = rule == NR_MATMUL;
    if (!t && rule != NR_CAT) return 0;
    switch (rule) {
    case NR_KEEP:
        names_of(t, o->names);
        o->n = t->ndim;
        o->each = true;
        return 0;
    case NR_REDUCE_NODIM:
        if (arg(b, "dim")) {
            char s[128];
            overload_name(d, fname, b, s, sizeof s);
            refuse_named(s);
            return -1;
        }
        return reduce_names(b, t, false, o) < 0 ? -1 : 0;
    case NR_REDUCE:
        if (slot_of(b, "dim") < 0 && slot_of(b, "other") >= 0) {   /* max(a, b) */
            char s[128];
            overload_name(d, fname, b, s, sizeof s);
            refuse_named(s);
            return -1;
        }
        o->each = true;
        return reduce_names(b, t, false, o) < 0 ? -1 : 0;
    case NR_SELECT: {
        o->each = true;
        Value *v = arg(b, "dim");
        int64_t dd = 0;
        int rc = v ? dim_value(v, t, &dd) : (t->ndim ? 1 : 0);
        if (rc <= 0) return rc;
        bool removed[TSR_MAX_NAMED_DIMS] = {false};
        removed[dd] = true;
        o->n = tsr_names_remove(t->names, t->ndim, removed, o->names);
        return 0;
    }
    case NR_SQUEEZE: {
        Value *v = arg(b, "dim");
        bool removed[TSR_MAX_NAMED_DIMS] = {false};
        if (v) {
            int64_t dd;
            int rc = dim_value(v, t, &dd);
            if (rc <= 0) return rc;
            if (t->sizes[dd] != 1) { o->n = 0; o->each = false; return 0; }   /* 1.13 quirk: names dropped */
            removed[dd] = true;
        } else {
            for (int i = 0; i < t->ndim; i++) removed[i] = t->sizes[i] == 1;
        }
        o->n = tsr_names_remove(t->names, t->ndim, removed, o->names);
        return 0;
    }
    case NR_TRANSPOSE: {
        int64_t a, c;
        Value *v0 = arg(b, "dim0") ? arg(b, "dim0") : arg(b, "axis0"), *v1 = arg(b, "dim1") ? arg(b, "dim1") : arg(b, "axis1");
        if (!v0 || !v1) return 0;
        int rc = dim_value(v0, t, &a);
        if (rc <= 0) return rc;
        if ((rc = dim_value(v1, t, &c)) <= 0) return rc;
        names_of(t, o->names);
        tsr_name x = o->names[a];
        o->names[a] = o->names[c];
        o->names[c] = x;
        o->n = t->ndim;
        return 0;
    }
    case NR_T:
        names_of(t, o->names);
        if (t->ndim == 2) {
            tsr_name x = o->names[0];
            o->names[0] = o->names[1];
            o->names[1] = x;
        }
        o->n = t->ndim;
        return 0;
    case NR_MATMUL: {
        tsr_tensor *a = NULL, *c = NULL;
        for (int i = 0; i < BIND_OUT && !c; i++)
            if (b->v[i] && is_tensor(b->v[i])) {
                if (!a) a = tensor_of(b->v[i]);
                else c = tensor_of(b->v[i]);
            }
        if (!a || !c || a->ndim == 0 || c->ndim == 0) return 0;
        if (tsr_names_matmul(a->names, a->ndim, c->names, c->ndim, o->names, &o->n) < 0) return bind_runtime_errori();
        return 0;
    }
    case NR_ADDMM: {
        tsr_tensor *m1 = NULL, *m2 = NULL;
        Value *v1 = arg(b, "mat1"), *v2 = arg(b, "mat2") ? arg(b, "mat2") : arg(b, "vec");
        if (!v1) v1 = arg(b, "mat");
        if (!v1 || !v2 || !is_tensor(v1) || !is_tensor(v2)) return 0;
        m1 = tensor_of(v1);
        m2 = tensor_of(v2);
        if (m1->ndim == 0 || m2->ndim == 0) return 0;
        tsr_name mm[TSR_MAX_NAMED_DIMS];
        int nmm;
        if (tsr_names_matmul(m1->names, m1->ndim, m2->names, m2->ndim, mm, &nmm) < 0) return bind_runtime_errori();
        if (tsr_names_unify(mm, nmm, t->names, t->ndim, "broadcast", o->names) < 0) return bind_runtime_errori();
        o->n = nmm > t->ndim ? nmm : t->ndim;
        return 0;
    }
    case NR_CAT: {
        Value *l = arg(b, "tensors");
        if (!l || !is_seq(l) || !seq_len(l)) return 0;
        tsr_tensor *f = NULL;
        int n = 0;
        for (size_t i = 0; i < seq_len(l); i++) {
            Value *x = l->u.seq.items[i];
            if (!is_tensor(x)) return 0;
            tsr_tensor *u = tensor_of(x);
            if (u->ndim == 0) return 0;   /* the shape check reports it */
            if (!f) {
                f = u;
                names_of(u, o->names);
                n = u->ndim;
                continue;
            }
            if (u->ndim != n) return 0;
            tsr_name tmp[TSR_MAX_NAMED_DIMS];
            if (tsr_names_unify(o->names, n, u->names, u->ndim, "cat", tmp) < 0) return bind_runtime_errori();
            memcpy(o->names, tmp, sizeof *tmp * (size_t)n);
        }
        Value *dv = arg(b, "dim");
        if (dv && dv->type == &t_str && tsr_dim_of_name(f, dv->u.s.p) < 0) return bind_runtime_errori();
        o->n = n;
        return 0;
    }
    case NR_EXPAND: {
        Value *sz = arg(b, "size"), *other = arg(b, "other");
        int n = sz && is_seq(sz) ? (int)seq_len(sz) : -1;
        if (other && is_tensor(other)) n = tensor_of(other)->ndim;
        if (b->varargs) n = (int)seq_len(b->varargs);
        if (n < t->ndim || n > TSR_MAX_NAMED_DIMS) return 0;
        for (int i = 0; i < n; i++) o->names[i] = i < n - t->ndim ? NULL : t->names[i - (n - t->ndim)];
        o->n = n;
        return 0;
    }
    case NR_UNIFY: {
        int n = -1;
        for (int i = 0; i < BIND_OUT; i++) {
            if (!b->v[i] || !is_tensor(b->v[i])) continue;
            tsr_tensor *u = tensor_of(b->v[i]);
            if (n < 0) {
                names_of(u, o->names);
                n = u->ndim;
                continue;
            }
            tsr_name tmp[TSR_MAX_NAMED_DIMS];
            if (tsr_names_unify(o->names, n, u->names, u->ndim, "broadcast", tmp) < 0) return bind_runtime_errori();
            n = n > u->ndim ? n : u->ndim;
            memcpy(o->names, tmp, sizeof *tmp * (size_t)n);
        }
        o->n = n;
        return 0;
    }
    case NR_RESIZE_AS: {
        Value *tp = arg(b, "the_template");
        if (!tp || !is_tensor(tp)) return 0;
        tsr_tensor *u = tensor_of(tp);
        names_of(u, o->names);
        o->n = u->ndim;
        return 0;
    }
    case NR_MASKED_SELECT: {
        Value *m = arg(b, "mask");
        if (m && is_tensor(m)) {
            tsr_name tmp[TSR_MAX_NAMED_DIMS];
            if (tsr_names_unify(t->names, t->ndim, tensor_of(m)->names, tensor_of(m)->ndim, "broadcast", tmp) < 0)
                return bind_runtime_errori();
        }
        o->names[0] = NULL;
        o->n = 1;
        return 0;
    }
    case NR_COPY: {
        Value *s = arg(b, "src") ? arg(b, "src") : arg(b, "other");
        if (!s || !is_tensor(s)) return 0;
        tsr_tensor *u = tensor_of(s);
        if (u->ndim > t->ndim) return 0;
        if (tsr_names_unify(t->names, t->ndim, u->names, u->ndim, "broadcast", o->names) < 0)
            return bind_runtime_errori();
        o->n = t->ndim;
        return 0;
    }
    case NR_FLATTEN: {
        Value *od = arg(b, "out_dim");
        if (!od) {
            refuse_named("aten::_reshape_alias");
            return -1;
        }
        tsr_name outname;
        if (bind_names_one(od, &outname) < 0) return -1;
        int64_t s0 = 0, s1 = 0;
        Value *dims = arg(b, "dims");
        if (dims) {
            size_t k = seq_len(dims);
            if (!k) {
                exc_set("RuntimeError", "flatten(tensor, dims, out_dim): dims cannot be empty");
                return -1;
            }
            int64_t idx[TSR_MAX_NAMED_DIMS];
            for (size_t i = 0; i < k && i < TSR_MAX_NAMED_DIMS; i++) {
                int rc = dim_value(dims->u.seq.items[i], t, &idx[i]);
                if (rc <= 0) return rc;
            }
            for (size_t i = 1; i < k; i++)
                if (idx[i] != idx[i - 1] + 1) {
                    char a[512], c[512];
                    tsr_names_format(a, sizeof a, NULL, 0);
                    tsr_name dn[TSR_MAX_NAMED_DIMS];
                    for (size_t j = 0; j < k; j++) dn[j] = t->names ? t->names[idx[j]] : NULL;
                    tsr_names_format(a, sizeof a, dn, (int)k);
                    tsr_names_format(c, sizeof c, t->names, t->ndim);
                    exc_set("RuntimeError", "flatten(tensor, dims, out_dim): dims %s must be consecutive in Tensor%s", a, c);
                    return -1;
                }
            s0 = idx[0];
            s1 = idx[k - 1];
        } else {
            Value *a = arg(b, "start_dim"), *c = arg(b, "end_dim");
            int rc;
            if (!a || !c || (rc = dim_value(a, t, &s0)) <= 0 || (rc = dim_value(c, t, &s1)) <= 0) return 0;
        }
        int k = 0;
        for (int i = 0; i < t->ndim; i++) {
            if (i > s0 && i <= s1) continue;
            o->names[k++] = i == s0 ? outname : t->names ? t->names[i] : NULL;
        }
        o->n = k;
        if (tsr_names_check_unique(o->names, k) < 0) return bind_runtime_errori();
        return 0;
    }
    default: break;
    }
    return 0;
}

/* gives v (a tensor, or each tensor of a sequence) the names */
static int apply(Value *v, const Outnames *o)
{
    if (!v || o->n < 0) return 0;
    if (is_tensor(v)) {
        tsr_tensor *t = tensor_of(v);
        if (t->ndim != o->n) return 0;
        return (o->raw ? tsr_names_propagate_raw(t, o->names, o->n) : tsr_names_propagate(t, o->names, o->n)) < 0
                   ? bind_runtime_errori() : 0;
    }
    if (is_seq(v))
        for (size_t i = 0; i < seq_len(v); i++)
            if (apply(v->u.seq.items[i], o) < 0) return -1;
    return 0;
}

/* the out= check before anything runs */
static int check_out(Value *v, const Outnames *o)
{
    if (!v || o->n < 0) return 0;
    if (is_tensor(v)) {
        const tsr_tensor *t = tensor_of(v);
        return t->ndim == o->n && tsr_names_check_out(t, o->names, o->n) < 0 ? bind_runtime_errori() : 0;
    }
    if (is_seq(v))
        for (size_t i = 0; i < seq_len(v); i++)
            if (check_out(v->u.seq.items[i], o) < 0) return -1;
    return 0;
}

/* 1.13 computes these ops on meta tensors with Python decompositions, which
 * refuse named inputs with their own message (probed: abs, logical_not,
 * std, var and the filled *_like factories). Sorted. */
static const char *const meta_refs[] = {"abs", "full_like", "logical_not", "ones_like", "std", "var", "zeros_like"};

static bool meta_decomposed(const BindRow *d, BindArgs *b, Value *self)
{
    tsr_tensor *t = first_tensor(b, self);
    if (!t || !t->names || !tsr_tensor_is_meta(t)) return false;
    if (!bsearch(d->name, meta_refs, sizeof meta_refs / sizeof *meta_refs, sizeof *meta_refs, cmp_str)) return false;
    exc_set("RuntimeError", "NYI: Named tensors are currently unsupported in TorchScript. As a  workaround please drop "
            "names via `tensor = tensor.rename(None)`.");
    return true;
}

static bool writes_self(Value *self, const char *fname, bool inplace)
{
    size_t fl = strlen(fname);
    return self && (inplace || (fl && fname[fl - 1] == '_'));
}

Value *bind_names_call(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace, BindHandler call)
{
    bool any = named(self);
    for (int i = 0; i < BIND_MAXP && !any; i++) any = named(b->v[i]);
    if (!any) return call(d, fname, b, self, inplace);
    int rule = d->names_rule;
    if (meta_decomposed(d, b, self)) return NULL;
    if ((!strcmp(d->name, "div") || !strcmp(d->name, "divide")) && arg(b, "rounding_mode")) {
        Value *o = arg(b, "other");
        char s[64];
        snprintf(s, sizeof s, "aten::div%s.%s_mode", writes_self(self, fname, inplace) ? "_" : "",
                 o && is_tensor(o) ? "Tensor" : "Scalar");
        return refuse_named(s);
    }
    if (rule == NR_PASS) {
        /* an elementwise op 1.13 refuses: named here, where the in-place form is known */
        const tsr_op *op = d->desc ? d->desc : tsr_op_find_name(d->name);
        if (op && tsr_op_names_rule(op) == TSR_NAMES_REFUSE && op->aten && !strncmp(op->aten, d->name, strlen(d->name))) {
            const char *dot = strchr(op->aten, '.');
            bool ws = writes_self(self, fname, inplace);
            char sch[128];
            Value *o = arg(b, "other");
            bool scalar = dot && !strcmp(dot, ".Tensor") && o && !is_tensor(o);
            snprintf(sch, sizeof sch, "aten::%.*s%s%s", dot ? (int)(dot - op->aten) : (int)strlen(op->aten), op->aten,
                     ws ? "_" : "", scalar ? ".Scalar" : dot ? dot : "");
            return refuse_named(sch);
        }
        return call(d, fname, b, self, inplace);
    }
    if (rule == NR_REFUSE) {
        char s[128];
        overload_name(d, fname, b, s, sizeof s);
        return refuse_named(s);
    }
    size_t fl = strlen(fname);
    bool writes_self = self && (inplace || (fl && fname[fl - 1] == '_'));
    if (rule == NR_CMP) {   /* comparisons: the iterator names them; in place 1.13 refuses */
        if (!writes_self) return call(d, fname, b, self, inplace);
        char s[128];
        overload_name(d, fname, b, s, sizeof s);
        return refuse_named(s);
    }
    Outnames o;
    if (compute(rule, d, fname, b, self, &o) < 0) return NULL;
    Value *outv = b->v[BIND_OUT];
    bool late = rule == NR_RESIZE_AS;   /* resize_'s own check comes first */
    if (check_out(outv, &o) < 0 || (writes_self && !late && check_out(self, &o) < 0)) return NULL;
    Value *r = call(d, fname, b, self, inplace);
    if (!r) return NULL;
    if (late && check_out(self, &o) < 0) CLEAR(r);
    if (!r) return NULL;
    if (apply(r, &o) < 0 || (outv && apply(outv, &o) < 0) || (writes_self && apply(self, &o) < 0)) CLEAR(r);
    return r;
}
