/* src/bind/contract.c — torch.tensordot and torch.einsum, cross and
 * linalg.cross, dist, renorm and cdist. Both are Python
 * defs in 1.13 (torch/functional.py): tensordot turns dims (an int, a pair
 * of lists, or a tensor) into two dim lists, einsum turns the sublist format
 * (operand, [0, 1], operand, [1, 2], [0, 2]) into an equation string; then
 * each calls its _VF row, kept here as a table row (flags 0: no torch.X of
 * its own). Every rule is runtime/ops/contract.h's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "bind/areas.h"
#include "bind/ops.h"
#include "bind/table.h"
#include "bind/tensor.h"
#include "ops/contract.h"
#include "ops/distance.h"

typedef enum { K_TENSORDOT, K_EINSUM, K_CROSS, K_LINALG_CROSS, K_DIST, K_RENORM, K_CDIST } Kind;

#define MAXOPS 64

/* A real Scalar argument as a double; complex is refused with msg. */
static int real_scalar(Value *v, const char *fname, const char *arg, const char *msg, double *out)
{
    tsr_scalar s;
    if (bind_scalar(v, fname, arg, &s) < 0) return -1;
    if (s.kind == TSR_SCALAR_COMPLEX) return exc_set("RuntimeError", "%s", msg), -1;
    *out = tsr_scalar_to_double(s);
    return 0;
}

static Value *result(tsr_tensor *r, BindArgs *b)
{
    Value *outv = b->v[BIND_OUT];
    if (!r) return bind_runtime_error();
    if (!outv || is_none(outv)) return v_tensor(r);
    ops_warn();
    return ops_finish(r, outv);
}

static Value *contract_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    Value *outv = b->v[BIND_OUT];
    tsr_tensor *out = outv && !is_none(outv) ? tensor_of(outv) : NULL;
    switch ((Kind)row->kind) {
    case K_CROSS: {
        int64_t dim;
        bool has = b->v[2] && !is_none(b->v[2]);
        if (has && bind_table_int(b, 2, 0, &dim) < 0) return bind_runtime_error();
        return result(tsr_cross(tensor_of(b->v[0]), tensor_of(b->v[1]), has ? &dim : NULL, out), b);
    }
    case K_LINALG_CROSS: {
        int64_t dim;
        if (bind_table_int(b, 2, -1, &dim) < 0) return bind_runtime_error();
        return result(tsr_linalg_cross(tensor_of(b->v[0]), tensor_of(b->v[1]), dim, out), b);
    }
    case K_DIST: {
        double p = 2;
        if (b->v[2] && real_scalar(b->v[2], fname, "p", "norm_kernel_tensor_iterator_impl expects norm to be integer or float", &p) < 0) return NULL;
        return v_tensor(tsr_dist(tensor_of(b->v[0]), tensor_of(b->v[1]), p));
    }
    case K_RENORM: {
        double p, maxnorm;
        int64_t dim;
        if (real_scalar(b->v[1], fname, "p", "renorm: p must be real-valued", &p) < 0 ||
            bind_table_int(b, 2, 0, &dim) < 0 ||
            real_scalar(b->v[3], fname, "maxnorm", "renorm: maxnorm must be real-valued", &maxnorm) < 0)
            return tsr_error_occurred() ? bind_runtime_error() : NULL;
        if (inplace) {
            tsr_tensor *r = tsr_renorm_(tensor_of(self), p, dim, maxnorm);
            return r ? ops_finish(r, self) : bind_runtime_error();
        }
        return result(tsr_renorm(tensor_of(b->v[0]), p, dim, maxnorm, out), b);
    }
    case K_CDIST: {
        double p = 2;
        int64_t mode = 0;
        if (b->v[2] && bind_table_float(b->v[2], fname, "p", &p) < 0) return NULL;
        if (b->v[3] && !is_none(b->v[3]) && bind_table_int(b, 3, 0, &mode) < 0) return bind_runtime_error();
        return v_tensor(tsr_cdist(tensor_of(b->v[0]), tensor_of(b->v[1]), p, (int)mode));
    }
    case K_TENSORDOT:
    case K_EINSUM:
        break;
    }
    if (row->kind == K_TENSORDOT) {
        int64_t d1[TSR_MAX_DIMS + 1], d2[TSR_MAX_DIMS + 1];
        int n1, n2;
        if (bind_table_intlist(b, 2, fname, d1, TSR_MAX_DIMS + 1, &n1) < 0 ||
            bind_table_intlist(b, 3, fname, d2, TSR_MAX_DIMS + 1, &n2) < 0)
            return NULL;
        tsr_tensor *r = tsr_tensordot_out(tensor_of(b->v[0]), tensor_of(b->v[1]), n1, d1, n2, d2, out);
        if (!r) return bind_runtime_error();
        if (!out) return v_tensor(r);
        ops_warn();
        return ops_finish(r, outv);
    }
    Value *l = b->v[1];
    size_t n = seq_len(l);
    if (n > MAXOPS) return exc_set("RuntimeError", "einsum(): at most %d operands are supported", MAXOPS);
    const tsr_tensor *ts[MAXOPS];
    for (size_t i = 0; i < n; i++) ts[i] = tensor_of(seq_get(l, i));
    int64_t path[2 * MAXOPS];
    int np = 0;
    Value *pv = bind_table_arg(b, "path");
    if (pv && bind_table_intlist(b, 2, fname, path, 2 * MAXOPS, &np) < 0) return NULL;
    return v_tensor(tsr_einsum(b->v[0]->u.s.p, (int)n, ts, np, pv ? path : NULL));
}

static BindRow rows[] = {
    {.name = "tensordot", .kind = K_TENSORDOT, .flags = 0, .handler = contract_call,
     .sigs = "Tensor input, Tensor other, int[] dims_self, int[] dims_other, *, Tensor? out=None"},
    {.name = "einsum", .kind = K_EINSUM, .flags = 0, .handler = contract_call,
     .sigs = "c10::string_view equation, Tensor[] tensors, *, int[]? path=None"},
    {.name = "cross", .kind = K_CROSS, .flags = BIND_FN | BIND_METHOD, .handler = contract_call,
     .sigs = "Tensor input, Tensor other, int? dim=None, *, Tensor? out=None"},
    {.name = "cross", .kind = K_LINALG_CROSS, .flags = BIND_FN, .handler = contract_call, .module = "torch.linalg",
     .sigs = "Tensor input, Tensor other, *, int dim=-1, Tensor? out=None"},
    {.name = "dist", .kind = K_DIST, .flags = BIND_FN | BIND_METHOD, .handler = contract_call,
     .sigs = "Tensor input, Tensor other, Scalar p=2"},
    {.name = "renorm", .kind = K_RENORM, .flags = BIND_FN | BIND_METHOD | BIND_INPLACE, .handler = contract_call,
     .sigs = "Tensor input, Scalar p, int dim, Scalar maxnorm, *, Tensor? out=None"},
    {.name = "cdist", .kind = K_CDIST, .flags = 0, .handler = contract_call,
     .sigs = "Tensor x1, Tensor x2, float p=2, int? compute_mode=None"},
};

/* str(v) as an f-string writes it, into buf. */
static const char *str_of(Value *v, char *buf, size_t n)
{
    Value *s = value_str(v);
    snprintf(buf, n, "%s", s ? s->u.s.p : "?");
    if (s) decref(s);
    return buf;
}

static Value *list_from_range(int64_t lo, int64_t hi)
{
    Value *l = v_list(0);
    for (int64_t i = lo; l && i < hi; i++) list_append_steal(l, v_int(i));
    return l;
}

static Value *tolist(Value *t)
{
    Value *m = value_getattr(t, "tolist");
    if (!m) return NULL;
    Value *r = value_call0(m, 0, NULL);
    decref(m);
    return r;
}

/* def tensordot(a, b, dims=2, out=None) */
static Value *f_tensordot(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[4];
    if (args_parse(a, "tensordot", "def a, b, dims=, out=", v) < 0) return NULL;
    Value *dims = v[2], *da = NULL, *db = NULL, *res = NULL;
    char buf[256];
    if (!dims) {
        da = list_from_range(-2, 0);
        db = list_from_range(0, 2);
    } else if (dims->type == &t_tuple || dims->type == &t_list) {
        size_t n = seq_len(dims);
        if (n != 2)
            return n > 2 ? exc_set("ValueError", "too many values to unpack (expected 2)")
                         : exc_set("ValueError", "not enough values to unpack (expected 2, got %zu)", n);
        da = incref(seq_get(dims, 0));
        db = incref(seq_get(dims, 1));
    } else if (is_tensor(dims)) {
        tsr_tensor *t = tensor_of(dims);
        if (tsr_tensor_numel(t) > 1) {
            if (t->ndim == 0 || t->sizes[0] != 2) return exc_set("AssertionError", "%s", "");
            Value *k0 = v_int(0), *k1 = v_int(1);
            Value *row0 = value_getitem(dims, k0), *row1 = row0 ? value_getitem(dims, k1) : NULL;
            decref(k0);
            decref(k1);
            da = row0 ? tolist(row0) : NULL;
            db = row1 ? tolist(row1) : NULL;
            if (row0) decref(row0);
            if (row1) decref(row1);
            if (!da || !db) goto done;
        } else {
            int64_t k;
            if (value_as_int(dims, &k) < 0) return NULL;
            if (k < 0)   /* 1.13 words this one with the int */
                return exc_set("RuntimeError", "tensordot expects dims >= 0, but got dims=%lld", (long long)k);
            da = list_from_range(-k, 0);
            db = list_from_range(0, k);
        }
    } else if (dims->type == &t_int || dims->type == &t_bool) {
        int64_t k = dims->u.i;
        if (k < 0)
            return exc_set("RuntimeError", "tensordot expects dims >= 0, but got dims=%s", str_of(dims, buf, sizeof buf));
        da = list_from_range(-k, 0);
        db = list_from_range(0, k);
    } else {
        return exc_set("RuntimeError", "tensordot expects dims to be int or Tuple[List[int], List[int]] or "
                       "List[List[int]] containing two lists, but got dims=%s", str_of(dims, buf, sizeof buf));
    }
    if (!da || !db) goto done;
    {
        Value *pos[4] = {v[0], v[1], da, db}, *kw[1] = {v[3]};
        const char *kwn[1] = {"out"};
        CallArgs c = {pos, 4, kwn, kw, v[3] && !is_none(v[3]) ? 1 : 0};
        res = bind_table_call(&rows[0], &c);
    }
done:
    if (da) decref(da);
    if (db) decref(db);
    return res;
}

/* parse_subscript of einsum's sublist format: appends to eq. -1 on error. */
static int parse_subscript(Value *s, char *eq, size_t cap, size_t *len)
{
    const char *add;
    char one[2] = {0, 0};
    if (s->type == &t_ellipsis) {
        add = "...";
    } else if (s->type == &t_int || s->type == &t_bool) {
        int64_t n = s->u.i;
        if (n >= 0 && n < 26) one[0] = (char)('A' + n);
        else if (n >= 26 && n < 52) one[0] = (char)('a' + n - 26);
        else return exc_set("ValueError", "einsum(): subscript in subscript list is not within the valid range [0, 52)"), -1;
        add = one;
    } else {
        return exc_set("TypeError", "'>=' not supported between instances of '%s' and 'int'", s->type->name), -1;
    }
    size_t k = strlen(add);
    if (*len + k + 1 > cap) return exc_set("RuntimeError", "einsum(): the subscript lists are too long"), -1;
    memcpy(eq + *len, add, k + 1);
    *len += k;
    return 0;
}

static int parse_sublist(Value *l, char *eq, size_t cap, size_t *len)
{
    if (!(l->type == &t_list || l->type == &t_tuple))
        return exc_set("TypeError", "'%s' object is not iterable", l->type->name), -1;
    for (size_t i = 0; i < seq_len(l); i++)
        if (parse_subscript(seq_get(l, i), eq, cap, len) < 0) return -1;
    return 0;
}

/* def einsum(*args) */
static Value *f_einsum(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[1];
    if (args_parse(a, "einsum", "def *args", v) < 0) return NULL;
    Value *args = v[0], *res = NULL, *operands = NULL, *equation = NULL;
    size_t n = seq_len(args);
    if (n < 2) {
        decref(args);
        return exc_set("ValueError", "einsum(): must specify the equation string and at least one operand, or at "
                       "least one operand and its subscripts list");
    }
    if (is_tensor(seq_get(args, 0))) {
        char eq[1024];
        size_t len = 0;
        eq[0] = 0;
        for (size_t i = 1; i < n; i += 2) {
            if (i > 1) {
                if (len + 2 > sizeof eq) { exc_set("RuntimeError", "einsum(): the subscript lists are too long"); goto done; }
                eq[len++] = ',', eq[len] = 0;
            }
            if (parse_sublist(seq_get(args, i), eq, sizeof eq, &len) < 0) goto done;
        }
        if (n % 2 == 1) {
            if (len + 3 > sizeof eq) { exc_set("RuntimeError", "einsum(): the subscript lists are too long"); goto done; }
            memcpy(eq + len, "->", 3);
            len += 2;
            if (parse_sublist(seq_get(args, n - 1), eq, sizeof eq, &len) < 0) goto done;
        }
        equation = v_str(eq);
        size_t nops = n % 2 == 1 ? (n - 1) / 2 : n / 2;
        operands = v_tuple(nops);
        for (size_t k = 0; k < nops; k++) operands->u.seq.items[k] = incref(seq_get(args, 2 * k));
    } else {
        equation = incref(seq_get(args, 0));
        operands = v_tuple(n - 1);
        for (size_t k = 1; k < n; k++) operands->u.seq.items[k - 1] = incref(seq_get(args, k));
    }
    if (seq_len(operands) == 1) {
        Value *o = seq_get(operands, 0);
        if (o->type == &t_list || o->type == &t_tuple) {   /* the old interface: einsum(eq, [a, b]) */
            Value *t = v_tuple(seq_len(o));
            for (size_t k = 0; k < seq_len(o); k++) t->u.seq.items[k] = incref(seq_get(o, k));
            decref(operands);
            operands = t;
        }
    }
    {
        Value *pos[2] = {equation, operands};
        CallArgs c = {pos, 2, NULL, NULL, 0};
        res = bind_table_call(&rows[1], &c);
    }
done:
    if (equation) decref(equation);
    if (operands) decref(operands);
    decref(args);
    return res;
}

/* def cdist(x1, x2, p=2., compute_mode='use_mm_for_euclid_dist_if_necessary') */
static Value *f_cdist(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[4];
    if (args_parse(a, "cdist", "def x1, x2, p=, compute_mode=", v) < 0) return NULL;
    static const char *const modes[3] = {"use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                                         "donot_use_mm_for_euclid_dist"};
    int mode = 0;
    if (v[3]) {
        mode = -1;
        for (int k = 0; k < 3 && v[3]->type == &t_str; k++)
            if (!strcmp(v[3]->u.s.p, modes[k])) mode = k;
        if (mode < 0) {
            char buf[256];
            return exc_set("ValueError", "%s is not a valid value for compute_mode", str_of(v[3], buf, sizeof buf));
        }
    }
    Value *pv = v[2] ? v[2] : v_float(2.0), *mv = mode ? v_int(mode) : v_none();
    Value *pos[4] = {v[0], v[1], pv, mv};
    CallArgs c = {pos, 4, NULL, NULL, 0};
    Value *r = bind_table_call(&rows[6], &c);
    if (!v[2]) decref(pv);
    decref(mv);
    return r;
}

void bind_contract_init(void)
{
    bind_table_register(rows, (int)(sizeof rows / sizeof rows[0]));
    module_add(bind_module("torch"), "tensordot", v_builtin("tensordot", f_tensordot, NULL, NULL));
    module_add(bind_module("torch"), "einsum", v_builtin("einsum", f_einsum, NULL, NULL));
    module_add(bind_module("torch"), "cdist", v_builtin("cdist", f_cdist, NULL, NULL));
}
