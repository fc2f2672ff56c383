/* src/bind/nnf_layers.c — torch.nn.functional's layers: conv1d/conv2d
 * (python_arg_parser rows, also torch.conv1d/conv2d), the pooling family and
 * the normalization layers (1.13's Python defs in torch/nn/functional.py,
 * with their argument handling). Every tensor rule is runtime/ops/nn_conv.h's. */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "bind/areas.h"
#include "bind/bind.h"
#include "bind/ops.h"
#include "bind/table.h"
#include "bind/tensor.h"
#include "autograd.h"
#include "names.h"
#include "ops/nn_bilinear.h"
#include "ops/nn_conv.h"
#include "ops/nn_norm_grad.h"
#include "value.h"
#include "view.h"

#define MOD "torch.nn.functional"

/* An int[N] slot with its default (one value repeated N times when absent). */
static int intlist_or(const BindArgs *b, int slot, const char *fname, int64_t dflt, int sz, int64_t *out, int *n)
{
    if (!b->v[slot]) {
        for (int i = 0; i < sz; i++) out[i] = dflt;
        *n = sz;
        return 0;
    }
    return bind_table_intlist(b, slot, fname, out, TSR_MAX_DIMS, n);
}

/* ------------------------------------------------------------ convolution */

static Value *conv_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)self; (void)inplace;
    int64_t st[TSR_MAX_DIMS], pd[TSR_MAX_DIMS], dl[TSR_MAX_DIMS], groups = 1;
    int ns, np = 0, nd;
    const char *mode = NULL;
    if (intlist_or(b, 3, fname, 1, row->kind, st, &ns) < 0 || intlist_or(b, 5, fname, 1, row->kind, dl, &nd) < 0 ||
        bind_table_int(b, 6, 1, &groups) < 0)
        return NULL;
    if (b->v[4] && b->type[4] == BT_STR) mode = b->v[4]->u.s.p;
    else if (intlist_or(b, 4, fname, 0, row->kind, pd, &np) < 0) return NULL;
    if (row->kind == 2 && !mode &&   /* 1.13's conv2d (int padding) checks the bias first */
        tsr_nn_conv2d_bias_check(tensor_of(b->v[0]), b->v[2] ? tensor_of(b->v[2]) : NULL) < 0)
        return bind_runtime_error();
    return v_tensor(tsr_nn_conv_graph(tensor_of(b->v[0]), tensor_of(b->v[1]), b->v[2] ? tensor_of(b->v[2]) : NULL,
                                      row->kind, ns, st, np, pd, nd, dl, groups, mode, 0, NULL));
}

#define CONV_SIGS(N)                                                                                               \
    "Tensor input, Tensor weight, Tensor? bias=None, SymInt[" #N "] stride=1, SymInt[" #N "] padding=0, "          \
    "SymInt[" #N "] dilation=1, SymInt groups=1"                                                                   \
    "|Tensor input, Tensor weight, Tensor? bias=None, SymInt[" #N "] stride=1, str padding=\"valid\", "            \
    "SymInt[" #N "] dilation=1, SymInt groups=1"

static Value *conv_t_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)self; (void)inplace;
    int64_t st[TSR_MAX_DIMS], pd[TSR_MAX_DIMS], op[TSR_MAX_DIMS], dl[TSR_MAX_DIMS], groups = 1;
    int ns, np, no, nd;
    if (intlist_or(b, 3, fname, 1, row->kind, st, &ns) < 0 || intlist_or(b, 4, fname, 0, row->kind, pd, &np) < 0 ||
        intlist_or(b, 5, fname, 0, row->kind, op, &no) < 0 || bind_table_int(b, 6, 1, &groups) < 0 ||
        intlist_or(b, 7, fname, 1, row->kind, dl, &nd) < 0)
        return NULL;
    return v_tensor(tsr_nn_conv_graph(tensor_of(b->v[0]), tensor_of(b->v[1]), b->v[2] ? tensor_of(b->v[2]) : NULL,
                                      row->kind, ns, st, np, pd, nd, dl, groups, NULL, no, op));
}

#define CONV_T_SIGS(N)                                                                                             \
    "Tensor input, Tensor weight, Tensor? bias=None, SymInt[" #N "] stride=1, SymInt[" #N "] padding=0, "          \
    "SymInt[" #N "] output_padding=0, SymInt groups=1, SymInt[" #N "] dilation=1"

static BindRow conv_rows[] = {
    {.name = "conv1d", .kind = 1, .flags = BIND_FN, .handler = conv_call, .sigs = CONV_SIGS(1)},
    {.name = "conv2d", .kind = 2, .flags = BIND_FN, .handler = conv_call, .sigs = CONV_SIGS(2)},
    {.name = "conv1d", .kind = 1, .flags = BIND_FN, .handler = conv_call, .module = MOD, .sigs = CONV_SIGS(1)},
    {.name = "conv2d", .kind = 2, .flags = BIND_FN, .handler = conv_call, .module = MOD, .sigs = CONV_SIGS(2)},
    {.name = "conv_transpose1d", .kind = 1, .flags = BIND_FN, .handler = conv_t_call, .sigs = CONV_T_SIGS(1)},
    {.name = "conv_transpose2d", .kind = 2, .flags = BIND_FN, .handler = conv_t_call, .sigs = CONV_T_SIGS(2)},
    {.name = "conv_transpose1d", .kind = 1, .flags = BIND_FN, .handler = conv_t_call, .module = MOD,
     .sigs = CONV_T_SIGS(1)},
    {.name = "conv_transpose2d", .kind = 2, .flags = BIND_FN, .handler = conv_t_call, .module = MOD,
     .sigs = CONV_T_SIGS(2)},
    {.name = "conv3d", .kind = 3, .flags = BIND_FN, .handler = conv_call, .sigs = CONV_SIGS(3)},
    {.name = "conv3d", .kind = 3, .flags = BIND_FN, .handler = conv_call, .module = MOD, .sigs = CONV_SIGS(3)},
    {.name = "conv_transpose3d", .kind = 3, .flags = BIND_FN, .handler = conv_t_call, .sigs = CONV_T_SIGS(3)},
    {.name = "conv_transpose3d", .kind = 3, .flags = BIND_FN, .handler = conv_t_call, .module = MOD,
     .sigs = CONV_T_SIGS(3)},
};

/* ------------------------------------------------------------ helpers of the Python defs */

/* The TypeError of the ATen call a def hands a non-tensor to. */
static int need_tensor(Value *v, const char *op, const char *arg, int pos)
{
    if (v && is_tensor(v)) return 0;
    return exc_set("TypeError", "%s(): argument '%s' (position %d) must be Tensor, not %s", op, arg, pos,
                   v ? v->type->name : "NoneType"), -1;
}

/* The F functions computed in the runtime record no graph: refused while
 * an input needs one (as nnf.c's). */
static int grad_refused(const char *name, int n, Value **vals)
{
    tsr_tensor *in[8];
    int k = 0;
    for (int i = 0; i < n && k < 8; i++)
        if (vals[i] && is_tensor(vals[i])) in[k++] = tensor_of(vals[i]);
    if (!tsr_ag_needed(k, in)) return 0;
    exc_set("NotImplementedError", "the derivative for '%s' is not implemented.", name);
    return -1;
}

/* 1.13's named-tensor refusal of the ATen op (schema) when any of the n
 * values is a tensor with names; -1 then. */
static int named_refused(const char *schema, int n, Value **vals)
{
    for (int i = 0; i < n; i++)
        if (vals[i] && is_tensor(vals[i]) && tensor_of(vals[i])->names) {
            tsr_names_refuse(schema);
            bind_runtime_error();
            return -1;
        }
    return 0;
}

static int opt_bool(Value *v, const char *fname, const char *arg, bool dflt, bool *out)
{
    *out = dflt;
    if (v && (!strcmp(arg, "inplace") || !strcmp(arg, "return_indices"))) {   /* F's Python tests them with `if` */
        int t = value_truth(v);
        if (t < 0) return -1;
        *out = t;
        return 0;
    }
    return v && !is_none(v) ? args_bool(v, fname, arg, out) : 0;
}

/* An int[N] argument as python_arg_parser reads it: one int repeated size
 * times, or a tuple / list / torch.Size of ints (any length); None or
 * absent gives *n = 0. */
static int ilist(Value *v, const char *fname, const char *arg, int size, int64_t *out, int *n)
{
    *n = 0;
    if (!v || is_none(v)) return 0;
    if (is_int_like(v)) {
        int64_t x;
        if (args_int(v, fname, arg, &x) < 0) return -1;
        for (int i = 0; i < size; i++) out[i] = x;
        *n = size;
        return 0;
    }
    if (is_type(v, &t_tuple) || is_type(v, &t_list) || is_type(v, &t_size)) {
        size_t len = seq_len(v);
        if (len > TSR_MAX_DIMS) return exc_set("RuntimeError", "%s(): too many dimensions", fname), -1;
        for (size_t i = 0; i < len; i++) {
            Value *x = seq_get(v, i);
            if (!is_int_like(x))
                return exc_set("TypeError", "%s(): argument '%s' must be tuple of ints, but found element of type %s "
                               "at pos %zu", fname, arg, x->type->name, i + 1), -1;
            if (args_int(x, fname, arg, &out[i]) < 0) return -1;
        }
        *n = (int)len;
        return 0;
    }
    return exc_set("TypeError", "%s(): argument '%s' must be tuple of ints, not %s", fname, arg, v->type->name), -1;
}

static Value *pair(tsr_tensor *a, tsr_tensor *b)
{
    if (!a) {
        tsr_tensor_release(b);
        return bind_runtime_error();
    }
    return v_tuple_of(2, v_tensor(a), v_tensor(b));
}

/* ------------------------------------------------------------ pooling */

static bool grad_on(int n, Value **vals)
{
    tsr_tensor *in[8];
    int k = 0;
    for (int i = 0; i < n && k < 8; i++)
        if (vals[i] && is_tensor(vals[i])) in[k++] = tensor_of(vals[i]);
    return tsr_ag_needed(k, in);
}

/* r (x's pooling result, stolen; NULL: the runtime's error) with 1.13's
 * graph: the 2-D node key over x keeping ind (NULL: none) for its
 * formula, or for the 1-D forms x.unsqueeze(-2) (UnsqueezeBackward0), key
 * over that, and the result's squeeze(-2) (SqueezeBackward1, a view).
 * NEW reference or NULL with the exception set. */
static tsr_tensor *pool_graph(tsr_tensor *x, tsr_tensor *r, const tsr_tensor *ind, const char *key,
                              const tsr_ag_args *a, bool one)
{
    if (!r) return bind_runtime_error(), NULL;
    if (!one) {
        if (tsr_ag_record(key, 1, &x, a, r, false) < 0 || (ind && tsr_ag_keep(r, ind) < 0)) {
            tsr_tensor_release(r);
            return bind_runtime_error(), NULL;
        }
        return r;
    }
    tsr_ag_args ua = {.i0 = x->ndim - 1}, sa = {.i0 = x->ndim - 1};
    tsr_tensor *u = tsr_view_unsqueeze(x, -2), *m = tsr_view_unsqueeze(r, -2), *mi = NULL, *o = NULL;
    tsr_tensor_release(r);
    if (!u || !m || (ind && !(mi = tsr_view_unsqueeze(ind, -2)))) goto fail;
    if (tsr_ag_record("unsqueeze", 1, &x, &ua, u, false) < 0 || tsr_ag_record(key, 1, &u, a, m, false) < 0 ||
        (mi && tsr_ag_keep(m, mi) < 0))
        goto fail;
    if (!(o = tsr_view_squeeze_dim(m, -2))) goto fail;
    if (tsr_ag_record("squeeze_dim", 1, &m, &sa, o, false) < 0) goto fail;
    tsr_tensor_release(u);
    tsr_tensor_release(m);
    tsr_tensor_release(mi);
    return o;
fail:
    tsr_tensor_release(u);
    tsr_tensor_release(m);
    tsr_tensor_release(mi);
    tsr_tensor_release(o);
    return bind_runtime_error(), NULL;
}

/* The tuple (r, indices) or r alone; NULL r: the exception is set. */
static Value *pool_result(tsr_tensor *r, tsr_tensor *ind, bool ri)
{
    if (!r) {
        tsr_tensor_release(ind);
        return NULL;
    }
    if (ri) return v_tuple_of(2, v_tensor(r), v_tensor(ind));
    tsr_tensor_release(ind);
    return v_tensor(r);
}

/* max_pool1d/2d(input, kernel_size, stride=None, padding=0, dilation=1,
 * ceil_mode=False, return_indices=False): 1.13's boolean_dispatch over
 * torch.max_poolNd and max_poolNd_with_indices */
static Value *f_max_pool(Value *self, CallArgs *a, void *d)
{
    (void)self;
    /* d: NULL or "2i" (2-D), "1" or "1i" (1-D); "i": the max_poolNd_with_indices def (always a pair) */
    bool one = d && *(const char *)d == '1', wi = d && strchr(d, 'i'), ceil, ri;
    const char *name = wi ? (one ? "max_pool1d_with_indices" : "max_pool2d_with_indices")
                          : one ? "max_pool1d" : "max_pool2d";
    Value *v[7];
    int64_t k[TSR_MAX_DIMS], s[TSR_MAX_DIMS], p[TSR_MAX_DIMS] = {0, 0}, dl[TSR_MAX_DIMS] = {1, 1};
    int nk, ns, np = one ? 1 : 2, nd = one ? 1 : 2, sz = one ? 1 : 2;
    if (args_parse(a, name, "def input, kernel_size, stride=, padding=, dilation=, ceil_mode=, return_indices=", v) < 0 ||
        opt_bool(v[6], name, "return_indices", false, &ri) < 0)
        return NULL;
    ri = ri || wi;
    const char *op = ri ? (one ? "max_pool1d_with_indices" : "max_pool2d_with_indices") : name;
    if (need_tensor(v[0], op, "input", 1) < 0 || ilist(v[1], op, "kernel_size", sz, k, &nk) < 0 ||
        ilist(v[2], op, "stride", sz, s, &ns) < 0 || opt_bool(v[5], op, "ceil_mode", false, &ceil) < 0)
        return NULL;
    if (v[3] && ilist(v[3], op, "padding", sz, p, &np) < 0) return NULL;
    if (v[4] && ilist(v[4], op, "dilation", sz, dl, &nd) < 0) return NULL;
    tsr_tensor *x = tensor_of(v[0]), *ind = NULL, *r;
    bool g = grad_on(1, v);   /* 1.13's max_pool1d takes the with_indices path for a graph */
    r = one ? tsr_nn_max_pool1d(x, nk, k, ns, s, np, p, nd, dl, ceil, ri || g ? &ind : NULL)
            : tsr_nn_max_pool2d(x, nk, k, ns, s, np, p, nd, dl, ceil, ri || g ? &ind : NULL);
    if (!g) return ri ? pair(r, ind) : v_tensor(r);
    tsr_ag_args ga = {0};
    return pool_result(pool_graph(x, r, ind, "max_pool2d", &ga, one), ind, ri);
}

/* avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
 * count_include_pad=True) and avg_pool2d(..., divisor_override=None):
 * ATen functions */
static Value *f_avg_pool(Value *self, CallArgs *a, void *d)
{
    (void)self;
    bool one = d != NULL, ceil, cip;
    const char *name = one ? "avg_pool1d" : "avg_pool2d";
    Value *v[8] = {0};
    tsr_tensor *out = NULL;
    int64_t k[TSR_MAX_DIMS], s[TSR_MAX_DIMS], p[TSR_MAX_DIMS] = {0, 0}, div = 0;
    int nk, ns, np = one ? 1 : 2, sz = one ? 1 : 2;
    if (args_parse(a, name, one ? "input, kernel_size, stride=, padding=, ceil_mode=, count_include_pad="
                                : "input, kernel_size, stride=, padding=, ceil_mode=, count_include_pad=, "
                                  "divisor_override=, *, out=", v) < 0)
        return NULL;
    if (need_tensor(v[0], name, "input", 1) < 0 || ilist(v[1], name, "kernel_size", sz, k, &nk) < 0 ||
        ilist(v[2], name, "stride", sz, s, &ns) < 0 || opt_bool(v[4], name, "ceil_mode", false, &ceil) < 0 ||
        opt_bool(v[5], name, "count_include_pad", true, &cip) < 0)
        return NULL;
    if (v[3] && ilist(v[3], name, "padding", sz, p, &np) < 0) return NULL;
    bool hd = !one && v[6] && !is_none(v[6]);
    if (hd && args_int(v[6], name, "divisor_override", &div) < 0) return NULL;
    if (!one && ops_out_arg(v[7], name, name, 1, v, &out) < 0) return NULL;
    tsr_tensor *x = tensor_of(v[0]);
    tsr_tensor *r = one ? tsr_nn_avg_pool1d(x, nk, k, ns, s, np, p, ceil, cip)
                        : tsr_nn_avg_pool2d(x, nk, k, ns, s, np, p, ceil, cip, hd, div);
    if (out) {   /* structured: out must have the dtype, then resize_output */
        r = tsr_out_assign(r, out, true);
        ops_warn();
        return ops_finish(r, v[7]);
    }
    if (!r || !grad_on(1, v)) return v_tensor(r);
    /* the 2-D node's kernel, stride, padding as (h, w) pairs */
    tsr_ag_args ga = {.flag = cip, .has_d0 = hd, .i0 = div, .i1 = ceil};   /* ceil_mode: the double backward's */
    if (one) {
        ga.dims[0] = 1, ga.dims[1] = k[0], ga.dims[2] = 1, ga.dims[3] = ns ? s[0] : k[0];
        ga.dims[4] = 0, ga.dims[5] = p[0];
    } else {
        ga.dims[0] = k[0], ga.dims[1] = nk > 1 ? k[1] : k[0];
        ga.dims[2] = ns ? s[0] : ga.dims[0], ga.dims[3] = ns ? s[ns > 1] : ga.dims[1];
        ga.dims[4] = p[0], ga.dims[5] = np > 1 ? p[1] : p[0];
    }
    return pool_result(pool_graph(x, r, NULL, "avg_pool2d", &ga, one), NULL, false);
}

/* _list_with_default(out_size, input.size()) of the 2-D adaptive defs:
 * None entries take the input's sizes. */
static int list_with_default(Value *v, const tsr_tensor *x, const char *op, int64_t *out, int *n)
{
    if (v && (is_type(v, &t_tuple) || is_type(v, &t_list) || is_type(v, &t_size))) {
        size_t len = seq_len(v);
        if ((size_t)x->ndim <= len)
            return exc_set("ValueError", "Input dimension should be at least %zu", len + 1), -1;
        if (len > TSR_MAX_DIMS) return exc_set("RuntimeError", "%s(): too many dimensions", op), -1;
        for (size_t i = 0; i < len; i++) {
            Value *e = seq_get(v, i);
            if (is_none(e)) out[i] = x->sizes[x->ndim - (int)len + (int)i];
            else if (!is_int_like(e))
                return exc_set("TypeError", "%s(): argument 'output_size' must be tuple of ints, but found element of "
                               "type %s at pos %zu", op, e->type->name, i + 1), -1;
            else if (args_int(e, op, "output_size", &out[i]) < 0) return -1;
        }
        *n = (int)len;
        return 0;
    }
    return ilist(v, op, "output_size", 2, out, n);
}

/* adaptive_avg_pool1d(input, output_size) (ATen), adaptive_avg_pool2d
 * (def), adaptive_max_pool1d/2d(input, output_size, return_indices=False)
 * (defs) */
static Value *f_adaptive(Value *self, CallArgs *a, void *d)
{
    (void)self;
    const char *name = d;
    bool one = strstr(name, "1d") != NULL, mx = strstr(name, "max") != NULL, ri = false;
    bool wi = strstr(name, "_with_indices") != NULL;   /* the def returns the pair */
    Value *v[3] = {0};
    int64_t o[TSR_MAX_DIMS];
    int n;
    if (args_parse(a, name, mx ? "def input, output_size, return_indices=" : one ? "input, output_size"
                                                                           : "def input, output_size", v) < 0 ||
        (mx && opt_bool(v[2], name, "return_indices", false, &ri) < 0))
        return NULL;
    ri = ri || wi;
    if (wi) name = one ? "adaptive_max_pool1d" : "adaptive_max_pool2d";
    if (!one && !is_tensor(v[0]))
        return exc_set("AttributeError", "'%s' object has no attribute 'size'", v[0]->type->name);
    if (need_tensor(v[0], name, "input", 1) < 0) return NULL;
    tsr_tensor *x = tensor_of(v[0]), *ind = NULL, *r;
    if (one ? ilist(v[1], name, "output_size", 1, o, &n) < 0 : list_with_default(v[1], x, name, o, &n) < 0) return NULL;
    bool g = grad_on(1, v);
    /* an output of 1x1 is mean(-1, -2) in 1.13; a channels_last input then
     * restrides it in place (AsStridedBackward1), which tsr does not record */
    bool mean = !mx && (one ? n == 1 && o[0] == 1 : n == 2 && o[0] == 1 && o[1] == 1);
    if (g && mean && x->ndim == 4 && tsr_tensor_suggest_memory_format(x) == TSR_MF_CHANNELS_LAST &&
        grad_refused(name, 1, v) < 0)
        return NULL;
    if (!mx) {
        r = one ? tsr_nn_adaptive_avg_pool1d(x, n, o) : tsr_nn_adaptive_avg_pool2d(x, n, o);
        if (!r || !g) return v_tensor(r);
        tsr_ag_args ga = {.ndims = 2, .dims = {-1, -2}, .keepdim = true};
        return pool_result(pool_graph(x, r, NULL, mean ? "mean_dim" : "adaptive_avg_pool2d", &ga, one), NULL, false);
    }
    r = one ? tsr_nn_adaptive_max_pool1d(x, n, o, &ind) : tsr_nn_adaptive_max_pool2d(x, n, o, &ind);
    if (!g) {
        if (ri) return pair(r, ind);
        tsr_tensor_release(ind);
        return v_tensor(r);
    }
    tsr_ag_args ga = {0};
    return pool_result(pool_graph(x, r, ind, "adaptive_max_pool2d", &ga, one), ind, ri);
}

/* ------------------------------------------------------------ normalization */

static int opt_float(Value *v, const char *fname, const char *arg, double dflt, double *out)
{
    *out = dflt;
    return v && !is_none(v) ? args_float(v, fname, arg, out) : 0;
}

static const tsr_tensor *opt_tensor(Value *v) { return v && !is_none(v) && is_tensor(v) ? tensor_of(v) : NULL; }

static tsr_tensor *opt_tensor_w(Value *v) { return v && !is_none(v) && is_tensor(v) ? tensor_of(v) : NULL; }

/* layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5) */
static Value *f_layer_norm(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[5];
    int64_t shape[TSR_MAX_DIMS];
    int n;
    double eps;
    if (args_parse(a, "layer_norm", "def input, normalized_shape, weight=, bias=, eps=", v) < 0 ||
        need_tensor(v[0], "layer_norm", "input", 1) < 0)
        return NULL;
    if (!v[1] || !(is_type(v[1], &t_tuple) || is_type(v[1], &t_list) || is_type(v[1], &t_size)))
        return exc_set("TypeError", "layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not %s",
                       v[1] ? v[1]->type->name : "NoneType");
    if (ilist(v[1], "layer_norm", "normalized_shape", 1, shape, &n) < 0 ||
        (v[2] && !is_none(v[2]) && need_tensor(v[2], "layer_norm", "weight", 3) < 0) ||
        (v[3] && !is_none(v[3]) && need_tensor(v[3], "layer_norm", "bias", 4) < 0) ||
        opt_float(v[4], "layer_norm", "eps", 1e-5, &eps) < 0 || named_refused("aten::native_layer_norm", 4, v) < 0)
        return NULL;
    tsr_tensor *r = tsr_nn_layer_norm(tensor_of(v[0]), n, shape, opt_tensor(v[2]), opt_tensor(v[3]), eps);
    Value *ts[3] = {v[0], v[2], v[3]};
    if (!r || !grad_on(3, ts)) return v_tensor(r);
    tsr_ag_args ga = {.ndims = n, .d0 = eps};
    memcpy(ga.dims, shape, sizeof(int64_t) * (size_t)n);
    tsr_tensor *in[3] = {tensor_of(v[0]), opt_tensor_w(v[2]), opt_tensor_w(v[3])};
    if (tsr_ag_record("native_layer_norm", 3, in, &ga, r, false) < 0) {
        tsr_tensor_release(r);
        return bind_runtime_error();
    }
    return v_tensor(r);
}

/* "torch.Size([1, 3])" */
static void size_repr(char *buf, size_t n, const tsr_tensor *t)
{
    size_t k = (size_t)snprintf(buf, n, "torch.Size([");
    for (int i = 0; i < t->ndim && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? ", " : "", (long long)t->sizes[i]);
    if (k < n) snprintf(buf + k, n - k, "])");
}

/* batch_norm(input, running_mean, running_var, weight=None, bias=None,
 * training=False, momentum=0.1, eps=1e-5) */
static Value *f_batch_norm(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[8];
    bool train;
    double mom, eps;
    if (args_parse(a, "batch_norm", "def input, running_mean, running_var, weight=, bias=, training=, momentum=, eps=", v) < 0 ||
        opt_bool(v[5], "batch_norm", "training", false, &train) < 0 ||
        opt_float(v[6], "batch_norm", "momentum", 0.1, &mom) < 0 || opt_float(v[7], "batch_norm", "eps", 1e-5, &eps) < 0)
        return NULL;
    if (train) {
        if (!is_tensor(v[0])) return exc_set("AttributeError", "'%s' object has no attribute 'size'", v[0]->type->name);
        tsr_tensor *x = tensor_of(v[0]);
        int64_t prod = x->ndim ? x->sizes[0] : 1;
        for (int i = 2; i < x->ndim; i++) prod *= x->sizes[i];
        if (x->ndim >= 1 && prod == 1) {
            char buf[256];
            size_repr(buf, sizeof buf, x);
            return exc_set("ValueError", "Expected more than 1 value per channel when training, got input size %s", buf);
        }
    }
    const char *names[5] = {"input", "weight", "bias", "running_mean", "running_var"};
    Value *ord[5] = {v[0], v[3], v[4], v[1], v[2]};
    for (int i = 0; i < 5; i++)
        if ((i == 0 || (ord[i] && !is_none(ord[i]))) && need_tensor(ord[i], "batch_norm", names[i], i + 1) < 0)
            return NULL;
    if (named_refused("aten::native_batch_norm", 5, ord) < 0) return NULL;
    tsr_tensor *rm = opt_tensor_w(v[1]), *rv = opt_tensor_w(v[2]), *sm = NULL, *si = NULL;
    bool g = grad_on(3, ord);
    /* an empty input is input.clone() (* weight[0] + bias[0]) in 1.13's _batch_norm_impl_index */
    if (g && tsr_tensor_numel(tensor_of(v[0])) == 0) {
        if ((opt_tensor(v[3]) || opt_tensor(v[4])) && grad_refused("batch_norm of an empty input with weight", 3, ord) < 0)
            return NULL;
        tsr_tensor *x = tensor_of(v[0]), *r = tsr_nn_batch_norm(x, rm, rv, NULL, NULL, train, mom, eps);
        tsr_ag_args ca = {0};
        if (r && tsr_ag_record("clone", 1, &x, &ca, r, false) < 0) {
            tsr_tensor_release(r);
            r = NULL;
        }
        return r ? v_tensor(r) : bind_runtime_error();
    }
    tsr_tensor *r = tsr_nn_batch_norm_ex(tensor_of(v[0]), rm, rv, opt_tensor(v[3]), opt_tensor(v[4]), train, mom, eps,
                                         g ? &sm : NULL, g ? &si : NULL);
    if (r && train) {
        if (rm) tsr_tensor_bump_version(rm);
        if (rv) tsr_tensor_bump_version(rv);
    }
    if (r && g) {
        tsr_ag_args ga = {.flag = train, .d0 = eps};
        tsr_tensor *in[3] = {tensor_of(v[0]), opt_tensor_w(v[3]), opt_tensor_w(v[4])};
        /* evaluation: running_var too, which the double backward takes (running_var.add(eps).pow(-0.5)) */
        if (tsr_ag_record("native_batch_norm", 3, in, &ga, r, false) < 0 || tsr_ag_keep(r, sm) < 0 ||
            tsr_ag_keep(r, si) < 0 || (!train && rv && tsr_ag_keep(r, rv) < 0)) {
            tsr_tensor_release(r);
            r = NULL;
        }
    }
    tsr_tensor_release(sm);
    tsr_tensor_release(si);
    return r ? v_tensor(r) : bind_runtime_error();
}

/* group_norm(input, num_groups, weight=None, bias=None, eps=1e-5) */
static Value *f_group_norm(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[5];
    int64_t g;
    double eps;
    if (args_parse(a, "group_norm", "def input, num_groups, weight=, bias=, eps=", v) < 0) return NULL;
    if (!is_tensor(v[0])) return exc_set("AttributeError", "'%s' object has no attribute 'size'", v[0]->type->name);
    tsr_tensor *x = tensor_of(v[0]);
    if (x->ndim < 2)   /* input.size(1) in _verify_batch_size's list */
        return exc_set("IndexError", "Dimension out of range (expected to be in range of [%d, %d], but got 1)",
                       x->ndim ? -x->ndim : -1, x->ndim ? x->ndim - 1 : 0);
    if (args_int(v[1], "group_norm", "num_groups", &g) < 0) return NULL;
    if (g == 0) return exc_set("ZeroDivisionError", "integer division or modulo by zero");
    /* _verify_batch_size([N * C // G, G] + spatial) */
    int64_t q = x->sizes[0] * x->sizes[1], first = q / g - ((q % g != 0) && ((q < 0) != (g < 0)));
    int64_t prod = first;
    for (int i = 2; i < x->ndim; i++) prod *= x->sizes[i];
    if (prod == 1) {
        char buf[256];
        size_t k = (size_t)snprintf(buf, sizeof buf, "[%lld, %lld", (long long)first, (long long)g);
        for (int i = 2; i < x->ndim && k < sizeof buf; i++)
            k += (size_t)snprintf(buf + k, sizeof buf - k, ", %lld", (long long)x->sizes[i]);
        if (k < sizeof buf) snprintf(buf + k, sizeof buf - k, "]");
        return exc_set("ValueError", "Expected more than 1 value per channel when training, got input size %s", buf);
    }
    if ((v[2] && !is_none(v[2]) && need_tensor(v[2], "group_norm", "weight", 3) < 0) ||
        (v[3] && !is_none(v[3]) && need_tensor(v[3], "group_norm", "bias", 4) < 0) ||
        opt_float(v[4], "group_norm", "eps", 1e-5, &eps) < 0)
        return NULL;
    Value *ts[3] = {v[0], v[2], v[3]};
    if (named_refused("aten::native_group_norm", 3, ts) < 0) return NULL;
    if (!grad_on(3, ts)) return v_tensor(tsr_nn_group_norm(x, g, opt_tensor(v[2]), opt_tensor(v[3]), eps));
    /* 1.13's group_norm: input.contiguous(suggested format) (CloneBackward0
     * when it copies), native_group_norm keeping its mean and rstd */
    tsr_tensor *mean = NULL, *rstd = NULL, *xc = x, *c = NULL;
    tsr_ag_args a0 = {0}, ga = {.i0 = g, .d0 = eps};
    tsr_tensor *r = tsr_nn_group_norm_ex(x, g, opt_tensor(v[2]), opt_tensor(v[3]), eps, &mean, &rstd);
    if (r && !tsr_tensor_is_contiguous_as(x, tsr_tensor_suggest_memory_format(x))) {
        xc = c = tsr_contiguous(x, tsr_tensor_suggest_memory_format(x));
        if (!c || tsr_ag_record("clone", 1, &x, &a0, c, false) < 0) xc = NULL;
    }
    tsr_tensor *in[3] = {xc, opt_tensor_w(v[2]), opt_tensor_w(v[3])};
    if (r && (!xc || tsr_ag_record("native_group_norm", 3, in, &ga, r, false) < 0 || tsr_ag_keep(r, mean) < 0 ||
              tsr_ag_keep(r, rstd) < 0)) {
        tsr_tensor_release(r);
        r = NULL;
    }
    tsr_tensor_release(c);
    tsr_tensor_release(mean);
    tsr_tensor_release(rstd);
    return r ? v_tensor(r) : bind_runtime_error();
}

/* 1.13's graph of instance_norm: input.contiguous() (CloneBackward0 when it
 * copies), .view(1, N * C, *) (ViewBackward0), weight / bias .repeat(N)
 * (RepeatBackward0), native_batch_norm over them, .view(input's sizes). */
static int instance_graph(tsr_tensor *x, tsr_tensor *w, tsr_tensor *b, tsr_tensor **parts, bool use, tsr_tensor *r)
{
    tsr_ag_args a0 = {0}, ra = {.ndims = 1, .dims = {x->sizes[0]}}, ba = {.flag = use};
    tsr_tensor *src = x;
    if (!tsr_tensor_is_contiguous(x)) {
        if (tsr_ag_record("clone", 1, &x, &a0, parts[0], false) < 0) return -1;
        src = parts[0];
    }
    if (tsr_ag_record("view", 1, &src, &a0, parts[1], false) < 0) return -1;
    if (w && tsr_ag_record("repeat", 1, &w, &ra, parts[2], false) < 0) return -1;
    if (b && tsr_ag_record("repeat", 1, &b, &ra, parts[3], false) < 0) return -1;
    tsr_tensor *in[3] = {parts[1], parts[2], parts[3]};
    if (tsr_ag_record("native_batch_norm", 3, in, &ba, parts[4], false) < 0 || tsr_ag_keep(parts[4], parts[5]) < 0 ||
        tsr_ag_keep(parts[4], parts[6]) < 0 || tsr_ag_record("view", 1, &parts[4], &a0, r, false) < 0)
        return -1;
    return 0;
}

/* instance_norm(input, running_mean=None, running_var=None, weight=None,
 * bias=None, use_input_stats=True, momentum=0.1, eps=1e-5) */
static Value *f_instance_norm(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[8];
    bool use;
    double mom, eps;
    if (args_parse(a, "instance_norm", "def input, running_mean=, running_var=, weight=, bias=, use_input_stats=, "
                   "momentum=, eps=", v) < 0 ||
        opt_bool(v[5], "instance_norm", "use_input_stats", true, &use) < 0 ||
        opt_float(v[6], "instance_norm", "momentum", 0.1, &mom) < 0 ||
        opt_float(v[7], "instance_norm", "eps", 1e-5, &eps) < 0)
        return NULL;
    if (!is_tensor(v[0])) return exc_set("AttributeError", "'%s' object has no attribute 'size'", v[0]->type->name);
    tsr_tensor *x = tensor_of(v[0]);
    if (use) {
        int64_t prod = 1;
        for (int i = 2; i < x->ndim; i++) prod *= x->sizes[i];
        if (prod == 1) {
            char buf[256];
            size_repr(buf, sizeof buf, x);
            return exc_set("ValueError", "Expected more than 1 spatial element when training, got input size %s", buf);
        }
    }
    const char *names[5] = {"input", "weight", "bias", "running_mean", "running_var"};
    Value *ord[5] = {v[0], v[3], v[4], v[1], v[2]};
    for (int i = 1; i < 5; i++)
        if (ord[i] && !is_none(ord[i]) && need_tensor(ord[i], "instance_norm", names[i], i + 1) < 0) return NULL;
    if (x->ndim < 2)
        return exc_set("IndexError", "Dimension out of range (expected to be in range of [%d, %d], but got 1)",
                       x->ndim ? -x->ndim : -1, x->ndim ? x->ndim - 1 : 0);
    /* 1.13 repeats weight, bias and the running stats per batch element
     * first, then views the input */
    if (tsr_nn_instance_norm_check(opt_tensor(v[1]), opt_tensor(v[2]), use) < 0) return bind_runtime_error();
    if (named_refused("aten::repeat", 4, ord + 1) < 0 || named_refused("aten::view", 1, ord) < 0) return NULL;
    tsr_tensor *rm = opt_tensor_w(v[1]), *rv = opt_tensor_w(v[2]), *parts[7];
    bool g = grad_on(3, ord);
    tsr_tensor *r = tsr_nn_instance_norm_ex(x, rm, rv, opt_tensor(v[3]), opt_tensor(v[4]), use, mom, eps,
                                            g ? parts : NULL);
    if (r && use) {
        if (rm) tsr_tensor_bump_version(rm);
        if (rv) tsr_tensor_bump_version(rv);
    }
    if (r && g && instance_graph(x, opt_tensor_w(v[3]), opt_tensor_w(v[4]), parts, use, r) < 0) {
        tsr_tensor_release(r);
        r = NULL;
    }
    if (g)
        for (int i = 0; i < 7; i++) tsr_tensor_release(parts[i]);
    return r ? v_tensor(r) : bind_runtime_error();
}

/* alpha_dropout(input, p=0.5, training=False, inplace=False) */
static Value *f_alpha_dropout(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[4];
    double p;
    bool train, inplace;
    if (args_parse(a, "alpha_dropout", "def input, p=, training=, inplace=", v) < 0 ||
        opt_float(v[1], "alpha_dropout", "p", 0.5, &p) < 0 || opt_bool(v[2], "alpha_dropout", "training", false, &train) < 0 ||
        opt_bool(v[3], "alpha_dropout", "inplace", false, &inplace) < 0)
        return NULL;
    if (bind_dropout_p(v[1], p) < 0) return NULL;
    if (need_tensor(v[0], inplace ? "alpha_dropout_" : "alpha_dropout", "input", 1) < 0 ||
        (train && p != 0 && tsr_tensor_numel(tensor_of(v[0])) > 0 && grad_refused("alpha_dropout", 1, v) < 0))
        return NULL;
    tsr_tensor *r = tsr_nn_alpha_dropout(tensor_of(v[0]), p, train, inplace);
    for (int i = 0; r && inplace && train && p != 0 && tsr_tensor_numel(r) > 0 && i < (p == 1 ? 1 : 2); i++)
        tsr_tensor_bump_version(r);   /* x.mul_(noise).add_(b); p == 1: x.mul_(zeros({})) */
    return r ? ops_finish(r, v[0]) : bind_runtime_error();
}

/* local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0) */
static Value *f_lrn(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[5];
    int64_t size;
    double alpha, beta, k;
    if (args_parse(a, "local_response_norm", "def input, size, alpha=, beta=, k=", v) < 0) return NULL;
    if (!is_tensor(v[0])) return exc_set("AttributeError", "'%s' object has no attribute 'dim'", v[0]->type->name);
    if (args_int(v[1], "local_response_norm", "size", &size) < 0 ||
        opt_float(v[2], "local_response_norm", "alpha", 1e-4, &alpha) < 0 ||
        opt_float(v[3], "local_response_norm", "beta", 0.75, &beta) < 0 ||
        opt_float(v[4], "local_response_norm", "k", 1.0, &k) < 0 || named_refused("aten::unsqueeze", 1, v) < 0 ||
        grad_refused("local_response_norm", 1, v) < 0)
        return NULL;
    return v_tensor(tsr_nn_local_response_norm(tensor_of(v[0]), size, alpha, beta, k));
}

/* x.reshape(...)'s node as 1.13 records it on r: ReshapeAliasBackward0 for
 * a view, else CloneBackward0 then UnsafeViewBackward0. 0 or -1. */
static int reshape_record(tsr_tensor *x, tsr_tensor *r)
{
    tsr_ag_args a = {0};
    if (r->storage == x->storage) return tsr_ag_record("reshape_alias", 1, &x, &a, r, false);
    tsr_tensor *c = tsr_view_alias(x);
    int rc = c && tsr_ag_record("clone", 1, &x, &a, c, false) == 0 && tsr_ag_record("unsafe_view", 1, &c, &a, r, false) == 0
                 ? 0 : -1;
    tsr_tensor_release(c);
    return rc;
}

/* 1.13's graph of bilinear: both inputs reshaped to (-1, features),
 * _trilinear (TrilinearBackward0), its result reshaped, + bias. */
static int bilinear_graph(tsr_tensor *x1, tsr_tensor *x2, tsr_tensor *w, tsr_tensor *bias, tsr_tensor **parts,
                          tsr_tensor *r)
{
    tsr_ag_args ta = {.i0 = (int64_t)TSR_BILINEAR_E1, .i1 = (int64_t)TSR_BILINEAR_E2, .i2 = (int64_t)TSR_BILINEAR_E3,
                      .dims = {(int64_t)TSR_BILINEAR_SUM, 1}, .ndims = 2}, aa = {0};
    tsr_tensor *in[3] = {parts[0], w, parts[1]}, *ad[2] = {parts[3], bias};
    if (reshape_record(x1, parts[0]) < 0 || reshape_record(x2, parts[1]) < 0 ||
        tsr_ag_record("trilinear", 3, in, &ta, parts[2], false) < 0 || reshape_record(parts[2], parts[3]) < 0)
        return -1;
    return bias ? tsr_ag_record("add", 2, ad, &aa, r, false) : 0;
}

/* bilinear(input1, input2, weight, bias=None): an ATen function */
static Value *f_bilinear(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[4] = {0};
    if (args_parse(a, "bilinear", "input1, input2, weight, bias=", v) < 0 ||
        need_tensor(v[0], "bilinear", "input1", 1) < 0 || need_tensor(v[1], "bilinear", "input2", 2) < 0 ||
        need_tensor(v[2], "bilinear", "weight", 3) < 0 ||
        (v[3] && !is_none(v[3]) && need_tensor(v[3], "bilinear", "bias", 4) < 0) ||
        named_refused("aten::_reshape_alias", 2, v) < 0 || named_refused("aten::_trilinear", 1, v + 2) < 0)
        return NULL;
    /* a named bias alone computes: its add gives the result its names (1.13) */
    tsr_tensor *parts[4], *bias = opt_tensor_w(v[3]);
    bool g = grad_on(4, v);
    tsr_tensor *r = tsr_nn_bilinear_ex(tensor_of(v[0]), tensor_of(v[1]), tensor_of(v[2]), bias, g ? parts : NULL);
    if (r && g && bilinear_graph(tensor_of(v[0]), tensor_of(v[1]), tensor_of(v[2]), bias, parts, r) < 0) {
        tsr_tensor_release(r);
        r = NULL;
    }
    if (g)
        for (int i = 0; i < 4; i++) tsr_tensor_release(parts[i]);
    return r ? v_tensor(r) : bind_runtime_error();
}

void bind_nnf_layers_init(void)
{
    bind_table_register(conv_rows, (int)(sizeof conv_rows / sizeof conv_rows[0]));
    Value *m = bind_module(MOD);
    struct { const char *name; BuiltinFn fn; void *data; } fns[] = {
        {"max_pool1d", f_max_pool, (void *)"1"},
        {"max_pool2d", f_max_pool, NULL},
        {"avg_pool1d", f_avg_pool, (void *)"1"},
        {"avg_pool2d", f_avg_pool, NULL},
        {"adaptive_avg_pool1d", f_adaptive, (void *)"adaptive_avg_pool1d"},
        {"adaptive_avg_pool2d", f_adaptive, (void *)"adaptive_avg_pool2d"},
        {"adaptive_max_pool1d", f_adaptive, (void *)"adaptive_max_pool1d"},
        {"adaptive_max_pool2d", f_adaptive, (void *)"adaptive_max_pool2d"},
        {"max_pool1d_with_indices", f_max_pool, (void *)"1i"},
        {"max_pool2d_with_indices", f_max_pool, (void *)"2i"},
        {"adaptive_max_pool1d_with_indices", f_adaptive, (void *)"adaptive_max_pool1d_with_indices"},
        {"adaptive_max_pool2d_with_indices", f_adaptive, (void *)"adaptive_max_pool2d_with_indices"},
        {"layer_norm", f_layer_norm, NULL},
        {"batch_norm", f_batch_norm, NULL},
        {"group_norm", f_group_norm, NULL},
        {"instance_norm", f_instance_norm, NULL},
        {"alpha_dropout", f_alpha_dropout, NULL},
        {"local_response_norm", f_lrn, NULL},
        {"bilinear", f_bilinear, NULL},
    };
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        module_add(m, fns[i].name, v_builtin(fns[i].name, fns[i].fn, NULL, fns[i].data));
    /* the ATen functions F binds are torch.X too */
    Value *t = bind_module("torch");
    module_add(t, "bilinear", v_builtin("bilinear", f_bilinear, NULL, NULL));
    module_add(t, "max_pool1d", v_builtin("max_pool1d", f_max_pool, NULL, (void *)"1"));
    module_add(t, "max_pool2d", v_builtin("max_pool2d", f_max_pool, NULL, NULL));
    module_add(t, "avg_pool1d", v_builtin("avg_pool1d", f_avg_pool, NULL, (void *)"1"));
    module_add(t, "adaptive_avg_pool1d", v_builtin("adaptive_avg_pool1d", f_adaptive, NULL, (void *)"adaptive_avg_pool1d"));
}
