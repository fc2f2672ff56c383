/* src/bind/pydef.c — the table's rows that 1.13 writes in Python: torch.norm,
 * torch.unique, torch.stft, torch.lu (torch/functional.py) and the Tensor
 * methods of torch/_tensor.py. CPython checks such a def's arguments before
 * any of PyTorch's own code runs, so a wrong keyword or too many positionals
 * read "Tensor.norm() got an unexpected keyword argument 'k'", self counted
 * among the positionals. The table runs these checks before its parser
 * (BindRow.pydef); the parser's own errors follow for calls that pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autograd.h"
#include "bind/tensor.h"
#include "table.h"
#include "bind/ops.h"
#include "ops/linalg.h"

/* boolean_dispatch (torch/_jit_internal.py) picks one of two defs by the
 * truth of an argument: the keyword if given, else the positional at idx,
 * else false. 1, 0, or -1 with the error of its truth. */
static int dispatch_flag(CallArgs *a, const char *name, int idx)
{
    for (int k = 0; k < a->nkw; k++)
        if (!strcmp(a->kwnames[k], name)) return value_truth(a->kw[k]);
    return idx < a->npos ? value_truth(a->pos[idx]) : 0;
}

static int py_norm(CallArgs *a, unsigned form)
{
    if (form == BIND_FN) return args_check(a, "norm", "def input, p=, dim=, keepdim=, out=, dtype=");
    return args_check(a, "Tensor.norm", "def self, p=, dim=, keepdim=, dtype=");
}

/* torch.unique dispatches on return_inverse (index 2), then return_counts
 * (index 3): four defs of one signature, whose names the messages show. */
static int py_unique(CallArgs *a, unsigned form)
{
    if (form != BIND_FN)
        return args_check(a, "Tensor.unique", "def self, sorted=, return_inverse=, return_counts=, dim=");
    int inv = dispatch_flag(a, "return_inverse", 2), cnt = inv < 0 ? 0 : dispatch_flag(a, "return_counts", 3);
    if (inv < 0 || cnt < 0) return -1;
    const char *name = inv ? (cnt ? "_unique_impl" : "_return_inverse") : cnt ? "_return_counts" : "_return_output";
    return args_check(a, name, "def input, sorted=, return_inverse=, return_counts=, dim=");
}

/* torch.unique_consecutive: return_inverse read at index 2 and return_counts
 * at index 1, as 1.13's dispatch is written (not the parameters' order). */
static int py_unique_consecutive(CallArgs *a, unsigned form)
{
    if (form != BIND_FN)
        return args_check(a, "Tensor.unique_consecutive", "def self, return_inverse=, return_counts=, dim=");
    int inv = dispatch_flag(a, "return_inverse", 2), cnt = inv < 0 ? 0 : dispatch_flag(a, "return_counts", 1);
    if (inv < 0 || cnt < 0) return -1;
    const char *name = inv ? (cnt ? "_unique_consecutive_impl" : "_consecutive_return_inverse")
                           : cnt ? "_consecutive_return_counts" : "_consecutive_return_output";
    return args_check(a, name, "def input, return_inverse=, return_counts=, dim=");
}

static int py_stft(CallArgs *a, unsigned form)
{
    if (form == BIND_FN)
        return args_check(a, "stft", "def input, n_fft, hop_length=, win_length=, window=, center=, pad_mode=, "
                                     "normalized=, onesided=, return_complex=");
    return args_check(a, "Tensor.stft", "def self, n_fft, hop_length=, win_length=, window=, center=, pad_mode=, "
                                        "normalized=, onesided=, return_complex=");
}

/* torch.istft is 1.13's native function; Tensor.istft a def */
static int py_istft(CallArgs *a, unsigned form)
{
    if (form == BIND_FN) return 0;
    return args_check(a, "Tensor.istft", "def self, n_fft, hop_length=, win_length=, window=, center=, "
                                         "normalized=, onesided=, length=, return_complex=");
}

/* torch.lu dispatches on get_infos (index 2); both defs, and Tensor.lu, pass
 * A and pivot= on to torch._lu_with_info, whose parser checks their types */
static int py_lu(CallArgs *a, unsigned form)
{
    Value *v[4];
    if (form != BIND_FN) {
        if (args_parse(a, "Tensor.lu", "def self, pivot=, get_infos=", v + 1) < 0) return -1;
    } else {
        int inf = dispatch_flag(a, "get_infos", 2);
        if (inf < 0 || args_parse(a, inf ? "_lu_with_infos" : "_lu_no_infos", "def A, pivot=, get_infos=, out=", v) < 0)
            return -1;
        if (!is_tensor(v[0]))
            return exc_seti("TypeError", "_lu_with_info(): argument 'input' (position 1) must be Tensor, not %s",
                            type_name(v[0]));
    }
    if (v[1] && v[1]->type != &t_bool)
        return exc_seti("TypeError", "_lu_with_info(): argument 'pivot' must be bool, not %s", type_name(v[1]));
    return 0;
}

static int py_format(CallArgs *a, unsigned form)
{
    (void)form;
    return args_check(a, "Tensor.__format__", "def self, format_spec");
}

/* def __reversed__(self): reversed(t) is t.flip(0), a 0-d tensor itself */
static Value *m_reversed(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (args_check(a, "Tensor.__reversed__", "def self") < 0) return NULL;
    if (tensor_of(self)->ndim == 0) return incref(self);
    Value *f = value_getattr(self, "flip");
    if (!f) return NULL;
    Value *zero = v_int(0), *r = value_call0(f, 1, &zero);
    decref(zero);
    decref(f);
    return r;
}

/* def chain_matmul(*matrices, out=None) (torch/functional.py) passes the
 * tuple to _VF.chain_matmul: its checks, then a clone of one matrix (out=:
 * resize_output and copy_), else linalg.multi_dot. */
static Value *f_chain_matmul(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[2], *r = NULL, *f = NULL, *lst = NULL;
    if (args_parse(a, "chain_matmul", "def *matrices, out=", v) < 0) return NULL;
    int n = (int)seq_len(v[0]);
    Value **items = v[0]->u.seq.items;
    tsr_tensor **ts = tsr_malloc(sizeof *ts * (size_t)(n ? n : 1)), *out;
    if (!ts) goto done;
    for (int i = 0; i < n; i++) {
        if (!is_tensor(items[i])) {
            exc_set("TypeError", "expected Tensor as element %d in argument 0, but got %s", i, type_name(items[i]));
            goto done;
        }
        ts[i] = tensor_of(items[i]);
    }
    if (ops_out_arg(v[1], "chain_matmul", "chain_matmul", 0, NULL, &out) < 0) goto done;
    if (tsr_chain_matmul_check(n, (const tsr_tensor *const *)ts) < 0) {
        bind_runtime_error();
        goto done;
    }
    if (n == 1 && out) {   /* resize_output(out, sizes), then out.copy_(matrix) */
        int rc = tsr_resize_output(out, ts[0]->ndim, ts[0]->sizes);
        ops_warn();
        if (rc < 0) bind_runtime_error();
        else if ((f = value_getattr(v[1], "copy_"))) r = value_call0(f, 1, items);
        goto done;
    }
    if (n == 1) {
        if ((f = value_getattr(items[0], "clone"))) r = value_call0(f, 0, NULL);
        goto done;
    }
    lst = v_list((size_t)n);
    for (int i = 0; i < n; i++) lst->u.seq.items[i] = incref(items[i]);
    if (!(f = value_getattr(bind_module("torch.linalg"), "multi_dot"))) goto done;
    const char *kwn[1] = {"out"};
    Value *kw[1] = {v[1]};
    CallArgs c = {&lst, 1, kwn, kw, out ? 1 : 0};
    r = value_call(f, &c);
done:
    tsr_free(ts);
    if (f) decref(f);
    if (lst) decref(lst);
    decref(v[0]);
    return r;
}

/* __len__, __iter__, __contains__, __repr__ (torch/_tensor.py): the
 * language's len(t), iter(t), x in t, repr(t) behind a def's checks */
static Value *m_len(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (args_check(a, "Tensor.__len__", "def self") < 0) return NULL;
    int64_t n = value_len(self);
    return n < 0 ? NULL : v_int(n);
}

static Value *m_iter(Value *self, CallArgs *a, void *d)
{
    (void)d;
    return args_check(a, "Tensor.__iter__", "def self") < 0 ? NULL : value_iter(self);
}

static Value *m_contains(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *v[1];
    if (args_parse(a, "Tensor.__contains__", "def self, element", v) < 0) return NULL;
    int r = value_contains(self, v[0]);
    return r < 0 ? NULL : v_bool(r);
}

static Value *m_repr(Value *self, CallArgs *a, void *d)
{
    (void)d;
    return args_check(a, "Tensor.__repr__", "def self, *, tensor_contents=") < 0 ? NULL : value_repr(self);
}

/* __floordiv__, __rsub__, __rtruediv__, ... (torch/_tensor.py), each under
 * _handle_torch_function_and_wrap_type_error_to_not_implemented: the
 * operator (reflected ones with the operands swapped, as Python calls them
 * for other OP self); any TypeError, the def's own included, gives
 * NotImplemented. */
typedef struct { const char *name; int op; bool reflected; } ROp;
static const ROp rops[] = {
    {"__floordiv__", OP_FLOORDIV, false}, {"__rdiv__", OP_TRUEDIV, true}, {"__rfloordiv__", OP_FLOORDIV, true},
    {"__rlshift__", OP_LSHIFT, true}, {"__rmatmul__", OP_MATMUL, true}, {"__rmod__", OP_MOD, true},
    {"__rpow__", OP_POW, true}, {"__rrshift__", OP_RSHIFT, true}, {"__rsub__", OP_SUB, true},
    {"__rtruediv__", OP_TRUEDIV, true},
};

static Value *m_rop(Value *self, CallArgs *a, void *d)
{
    const ROp *o = d;
    if (a->nkw || a->npos != 1) return value_not_implemented();
    Value *r = o->reflected ? value_binop(o->op, a->pos[0], self) : value_binop(o->op, self, a->pos[0]);
    if (!r && exc_matches("TypeError")) {
        exc_clear();
        return value_not_implemented();
    }
    return r;
}

/* eig, lstsq, solve, reinforce: 1.13's defs that only raise */
static Value *m_removed(Value *self, CallArgs *a, void *d)
{
    (void)self;
    const char *name = d;
    char q[32];
    snprintf(q, sizeof q, "Tensor.%s", name);
    if (!strcmp(name, "eig")) {
        if (args_check(a, q, "def self, eigenvectors=") < 0) return NULL;
    } else if (args_check(a, q, !strcmp(name, "reinforce") ? "def self, reward" : "def self, other") < 0) {
        return NULL;
    }
    if (!strcmp(name, "reinforce")) return exc_set("RuntimeError", "reinforce() was removed.");
    if (!strcmp(name, "lstsq"))   /* raised with two arguments: str(e) is the tuple's repr */
        return exc_set("RuntimeError", "('This function was deprecated since version 1.9 and is now removed.', "
                                       "'Please use the `torch.linalg.lstsq` function instead.')");
    return exc_set("RuntimeError", "This function was deprecated since version 1.9 and is now removed. Please use "
                                   "the `torch.linalg.%s` function instead.", name);
}

static Value *m_to_sparse_coo(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (args_check(a, "Tensor.to_sparse_coo", "def self") < 0) return NULL;
    Value *f = value_getattr(self, "to_sparse"), *r = f ? value_call0(f, 0, NULL) : NULL;
    if (f) decref(f);
    return r;
}

/* autograd's Resize function (torch/autograd/_functions/tensor.py) for
 * Tensor.resize(*sizes) and resize_as(tensor): the element counts must
 * agree; the result is self.contiguous().view(sizes) */
static Value *resize_apply(Value *self, Value *sizes)
{
    size_t n = seq_len(sizes);
    Value **items = sizes->u.seq.items, *prod = v_int(1), *r = NULL;
    char want[512] = "", have[512] = "";
    size_t wl = 0, hl = 0;
    for (size_t i = 0; i < n && prod; i++) {   /* reduce(operator.mul, sizes, 1) and 'x'.join(map(str, sizes)) */
        Value *p2 = value_binop(OP_MUL, prod, items[i]), *st = p2 ? value_str(items[i]) : NULL;
        decref(prod);
        prod = st ? p2 : NULL;
        if (!st) {
            if (p2) decref(p2);
            break;
        }
        if (wl < sizeof want - 64)
            wl += (size_t)snprintf(want + wl, sizeof want - wl, "%s%.60s", i ? "x" : "", st->u.s.p);
        decref(st);
    }
    if (!prod) return NULL;
    tsr_tensor *t = tensor_of(self);
    for (int i = 0; i < t->ndim && hl < sizeof have - 24; i++)
        hl += (size_t)snprintf(have + hl, sizeof have - hl, "%s%lld", i ? "x" : "", (long long)t->sizes[i]);
    Value *nv = v_int(tsr_tensor_numel(t)), *ne = value_compare(OP_NE, nv, prod), *ps = ne ? value_str(prod) : NULL;
    int differ = ne ? value_truth(ne) : -1;
    if (differ == 1 && ps)
        exc_set("RuntimeError", "requested resize to %s (%s elements in total), but the given tensor has a size of %s "
                "(%lld elements). autograd's resize can only change the shape of a given tensor, while preserving the "
                "number of elements. ", want, ps->u.s.p, have, (long long)tsr_tensor_numel(t));
    else if (differ == 0 && tsr_ag_needed(1, &t))
        exc_set("NotImplementedError", "tsr: autograd's Resize function (Tensor.resize, Tensor.resize_as) of a "
                "tensor that requires grad is not supported yet");
    else if (differ == 0) {   /* tensor.contiguous().view(*sizes) */
        Value *f = value_getattr(self, "contiguous"), *c = f ? value_call0(f, 0, NULL) : NULL;
        Value *g = c ? value_getattr(c, "view") : NULL;
        if (g) r = value_call0(g, (int)n, items);
        Value *tmp[3] = {f, c, g};
        for (int i = 0; i < 3; i++)
            if (tmp[i]) decref(tmp[i]);
    }
    Value *tmp[4] = {prod, nv, ne, ps};
    for (int i = 0; i < 4; i++)
        if (tmp[i]) decref(tmp[i]);
    return r;
}

static Value *m_resize(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *v[1];
    if (args_parse(a, "Tensor.resize", "def self, *sizes", v) < 0) return NULL;
    Value *r = resize_apply(self, v[0]);
    decref(v[0]);
    return r;
}

static Value *m_resize_as(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *v[1];
    if (args_parse(a, "Tensor.resize_as", "def self, tensor", v) < 0) return NULL;
    Value *f = value_getattr(v[0], "size"), *sz = f ? value_call0(f, 0, NULL) : NULL;
    Value *r = sz ? resize_apply(self, sz) : NULL;
    if (f) decref(f);
    if (sz) decref(sz);
    return r;
}

typedef struct {
    const char *name;
    int (*check)(CallArgs *a, unsigned form);
} PyDef;

static const PyDef pydefs[] = {   /* sorted by name */
    {"__format__", py_format}, {"istft", py_istft}, {"lu", py_lu}, {"norm", py_norm}, {"stft", py_stft},
    {"unique", py_unique}, {"unique_consecutive", py_unique_consecutive},
};

static int pydef_cmp(const void *key, const void *ent) { return strcmp(key, ((const PyDef *)ent)->name); }

int (*bind_pydef_of(const BindRow *d))(CallArgs *a, unsigned form)
{
    if (d->module && strcmp(d->module, "torch")) return NULL;   /* torch.linalg.norm, torch.linalg.lu */
    const PyDef *p = bsearch(d->name, pydefs, sizeof pydefs / sizeof pydefs[0], sizeof pydefs[0], pydef_cmp);
    return p ? p->check : NULL;
}

void bind_pydef_init(void)
{
    bind_tensor_method("__reversed__", m_reversed);
    bind_tensor_method("__len__", m_len);
    bind_tensor_method("__iter__", m_iter);
    bind_tensor_method("__contains__", m_contains);
    bind_tensor_method("__repr__", m_repr);
    static const char *const removed[] = {"eig", "lstsq", "reinforce", "solve"};
    for (int i = 0; i < 4; i++) bind_tensor_method_data(removed[i], m_removed, (void *)removed[i]);
    bind_tensor_method("to_sparse_coo", m_to_sparse_coo);
    bind_tensor_method("resize", m_resize);
    bind_tensor_method("resize_as", m_resize_as);
    for (size_t i = 0; i < sizeof rops / sizeof rops[0]; i++)
        bind_tensor_method_data(rops[i].name, m_rop, (void *)&rops[i]);
    module_add(bind_module("torch"), "chain_matmul", v_builtin("chain_matmul", f_chain_matmul, NULL, NULL));
}
