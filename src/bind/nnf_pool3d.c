/* src/bind/nnf_pool3d.c — more of torch.nn.functional's pooling: lp_pool1d
 * and lp_pool2d, which 1.13 writes in Python over pow, avg_pool1d/2d, sign,
 * abs, relu and mul. The handlers compose those ops through their bindings
 * (so autograd records 1.13's nodes: PowBackward0, AvgPool2DBackward0, ...)
 * in the order the def evaluates them, so the first error is 1.13's. Also
 * max_pool3d, adaptive_max_pool3d, max_unpool1d/2d/3d, avg_pool3d,
 * adaptive_avg_pool3d and fractional_max_pool2d/3d over the runtime's ops
 * (nn_pool3d.h), recording their own nodes. */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "bind/areas.h"
#include "bind/bind.h"
#include "bind/ops.h"
#include "bind/tensor.h"
#include "autograd.h"
#include "ops/nn_pool3d.h"
#include "ops/random.h"
#include "op.h"
#include "value.h"
#include "view.h"

#define MOD "torch.nn.functional"

/* obj.name(*args): through the binding table's call path. NEW or NULL. */
static Value *call_attr(Value *obj, const char *name, int n, Value **args)
{
    Value *f = value_getattr(obj, name);
    if (!f) return NULL;
    Value *r = value_call0(f, n, args);
    decref(f);
    return r;
}

/* kernel_size of lp_pool2d through `kw, kh = utils._pair(kernel_size)`:
 * its two entries (borrowed) or -1 with CPython's unpacking error. */
static int pair_of(Value *v, Value **kw, Value **kh)
{
    if (is_type(v, &t_tuple) || is_type(v, &t_list) || is_type(v, &t_size)) {
        size_t n = seq_len(v);
        if (n < 2) return exc_set("ValueError", "not enough values to unpack (expected 2, got %zu)", n), -1;
        if (n > 2) return exc_set("ValueError", "too many values to unpack (expected 2)"), -1;
        *kw = seq_get(v, 0), *kh = seq_get(v, 1);
        return 0;
    }
    *kw = *kh = v;
    return 0;
}

/* lp_pool1d/2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
 *   out = avg_poolNd(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
 *   return (torch.sign(out) * relu(torch.abs(out))).mul(K).pow(1.0 / norm_type)
 * with K kernel_size (1-D) or kw * kh (2-D). */
static Value *f_lp_pool(Value *self, CallArgs *a, void *d)
{
    (void)self;
    bool one = d != NULL;
    const char *name = one ? "lp_pool1d" : "lp_pool2d";
    Value *v[5] = {0}, *kw = NULL, *kh = NULL;
    if (args_parse(a, name, "def input, norm_type, kernel_size, stride=, ceil_mode=", v) < 0) return NULL;
    if (!one && pair_of(v[2], &kw, &kh) < 0) return NULL;
    Value *torch = bind_module("torch"), *F = bind_module(MOD);
    Value *none = v_none(), *zero = v_int(0), *no = v_bool(false), *kk = NULL;
    Value *p = NULL, *out = NULL, *sg = NULL, *ab = NULL, *rl = NULL, *m = NULL, *mk = NULL, *r = NULL;
    if (!(p = call_attr(v[0], "pow", 1, &v[1]))) goto done;
    Value *pa[5] = {p, v[2], v[3] ? v[3] : none, zero, v[4] ? v[4] : no};
    if (!(out = call_attr(F, one ? "avg_pool1d" : "avg_pool2d", 5, pa))) goto done;
    if (!(sg = call_attr(torch, "sign", 1, &out)) || !(ab = call_attr(torch, "abs", 1, &out)) ||
        !(rl = call_attr(F, "relu", 1, &ab)))
        goto done;
    if (!(m = call_attr(sg, "mul", 1, &rl))) goto done;
    if (one) kk = v[2], incref(kk);
    else {
        int64_t w, h;
        if (args_int(kw, name, "kernel_size", &w) < 0 || args_int(kh, name, "kernel_size", &h) < 0) goto done;
        kk = v_int(w * h);
    }
    if (!(mk = call_attr(m, "mul", 1, &kk))) goto done;
    double nt;
    if (value_as_float(v[1], &nt) < 0) {
        exc_set("TypeError", "unsupported operand type(s) for /: 'float' and '%s'", v[1]->type->name);
        goto done;
    }
    if (nt == 0) {
        exc_set("ZeroDivisionError", "float division by zero");
        goto done;
    }
    Value *e = v_float(1.0 / nt);
    r = call_attr(mk, "pow", 1, &e);
    decref(e);
done:;
    Value *all[] = {none, zero, no, kk, p, out, sg, ab, rl, m, mk};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i]) decref(all[i]);
    return r;
}

/* _single / _pair of an int argument: an int repeated nd times or the
 * entries of a sequence (any length, as tuple(x)); -1 with an error. */
static int ints_of(Value *v, const char *fname, const char *arg, int nd, int64_t *out, int *n)
{
    if (is_type(v, &t_tuple) || is_type(v, &t_list) || is_type(v, &t_size)) {
        size_t len = seq_len(v);
        if (len > 4) return exc_set("RuntimeError", "%s(): too many dimensions", fname), -1;
        for (size_t i = 0; i < len; i++)
            if (args_int(seq_get(v, i), fname, arg, &out[i]) < 0) return -1;
        *n = (int)len;
        return 0;
    }
    if (args_int(v, fname, arg, &out[0]) < 0) return -1;
    for (int i = 1; i < nd; i++) out[i] = out[0];
    *n = nd;
    return 0;
}

/* _unpool_output_size(input, kernel_size, stride, padding, output_size) of
 * 1.13's functional.py: the nk sizes into o, or -1 with its error. */
static int unpool_size(const tsr_tensor *x, int nk, const int64_t *k, int ns, const int64_t *s, int np,
                       const int64_t *p, Value *osv, const char *fname, int64_t *o)
{
    int64_t dflt[4];
    for (int d = 0; d < nk; d++) {
        if (nk > x->ndim || d >= ns || d >= np) return exc_set("IndexError", "tuple index out of range"), -1;
        dflt[d] = (x->sizes[x->ndim - nk + d] - 1) * s[d] + k[d] - 2 * p[d];
    }
    if (!osv || is_none(osv)) {
        memcpy(o, dflt, sizeof(int64_t) * (size_t)nk);
        return 0;
    }
    if (!(is_type(osv, &t_tuple) || is_type(osv, &t_list) || is_type(osv, &t_size)))
        return exc_set("TypeError", "object of type '%s' has no len()", osv->type->name), -1;
    size_t len = seq_len(osv), off = len == (size_t)nk + 2 ? 2 : 0;
    if (len - off != (size_t)nk)
        return exc_set("ValueError", "output_size should be a sequence containing %d or %d elements, but it has a "
                       "length of '%zu'", nk, nk + 2, len), -1;
    for (int d = 0; d < nk; d++)
        if (args_int(seq_get(osv, off + (size_t)d), fname, "output_size", &o[d]) < 0) return -1;
    for (int d = 0; d < nk; d++) {
        int64_t lo = dflt[d] - s[d], hi = dflt[d] + s[d];
        if (!(lo < o[d] && o[d] < hi)) {
            Value *r = value_repr(osv);
            if (!r) return -1;
            if (off) {   /* output_size[2:] of a list / tuple / torch.Size */
                char b[128];
                int at = 0;
                const char *open = is_type(osv, &t_list) ? "[" : is_type(osv, &t_size) ? "torch.Size([" : "(";
                const char *close = is_type(osv, &t_list) ? "]" : is_type(osv, &t_size) ? "])" : nk == 1 ? ",)" : ")";
                at += snprintf(b + at, sizeof b - (size_t)at, "%s", open);
                for (int i = 0; i < nk; i++)
                    at += snprintf(b + at, sizeof b - (size_t)at, "%s%lld", i ? ", " : "", (long long)o[i]);
                snprintf(b + at, sizeof b - (size_t)at, "%s", close);
                exc_set("ValueError", "invalid output_size \"%s\" (dim %d must be between %lld and %lld)", b, d,
                        (long long)lo, (long long)hi);
            } else
                exc_set("ValueError", "invalid output_size \"%s\" (dim %d must be between %lld and %lld)", r->u.s.p,
                        d, (long long)lo, (long long)hi);
            decref(r);
            return -1;
        }
    }
    return 0;
}

/* max_unpool1d/2d(input, indices, kernel_size, stride=None, padding=0,
 * output_size=None): 1.13's defs over torch._C._nn.max_unpool2d (the 1-D
 * form over input.unsqueeze(-1), indices.unsqueeze(-1), then squeeze(-1)). */
static Value *f_max_unpool(Value *self, CallArgs *a, void *d)
{
    (void)self;
    bool one = d && *(const char *)d == '1', three = d && *(const char *)d == '3';
    int nd = one ? 1 : three ? 3 : 2;
    const char *name = one ? "max_unpool1d" : three ? "max_unpool3d" : "max_unpool2d";
    Value *v[6] = {0};
    int64_t k[4], s[4], p[4] = {0, 0}, o[4];
    int nk, ns, np = nd;
    if (args_parse(a, name, "def input, indices, kernel_size, stride=, padding=, output_size=", v) < 0 ||
        ints_of(v[2], name, "kernel_size", nd, k, &nk) < 0)
        return NULL;
    if (v[3] && !is_none(v[3])) {
        if (ints_of(v[3], name, "stride", nd, s, &ns) < 0) return NULL;
    } else
        memcpy(s, k, sizeof s), ns = nk;
    if (v[4] && ints_of(v[4], name, "padding", nd, p, &np) < 0) return NULL;
    if (!is_tensor(v[0])) return exc_set("AttributeError", "'%s' object has no attribute 'size'", v[0]->type->name);
    tsr_tensor *x = tensor_of(v[0]);
    if (unpool_size(x, nk, k, ns, s, np, p, v[5], name, o) < 0) return NULL;
    if (one) o[nk] = 1;
    if (!is_tensor(v[1]))
        return exc_set("TypeError", "%s(): argument 'indices' (position 2) must be Tensor, not %s",
                       three ? "max_unpool3d" : "max_unpool2d", v[1]->type->name);
    tsr_tensor *ix = tensor_of(v[1]);
    bool g = tsr_ag_needed(1, &x);
    tsr_ag_args none = {0}, ua = {.i0 = x->ndim};   /* unsqueeze(-1) of x, squeeze(-1) of its result */
    if (three) {   /* torch._C._nn.max_unpool3d(input, indices, output_size, _stride, padding) */
        tsr_tensor *r = tsr_nn_max_unpool3d(x, ix, nk, o, ns, s, np);
        if (r && g && (tsr_ag_record("max_unpool3d", 1, &x, &none, r, false) < 0 || tsr_ag_keep(r, ix) < 0)) {
            tsr_tensor_release(r);
            r = NULL;
        }
        return r ? v_tensor(r) : bind_runtime_error();
    }
    if (!one) {
        tsr_tensor *r = tsr_nn_max_unpool2d(x, ix, nk, o);
        if (r && g && (tsr_ag_record("max_unpool2d", 1, &x, &none, r, false) < 0 || tsr_ag_keep(r, ix) < 0)) {
            tsr_tensor_release(r);
            r = NULL;
        }
        return r ? v_tensor(r) : bind_runtime_error();
    }
    tsr_tensor *xu = tsr_view_unsqueeze(x, -1), *iu = xu ? tsr_view_unsqueeze(ix, -1) : NULL, *q = NULL;
    tsr_tensor *r = iu ? tsr_nn_max_unpool2d(xu, iu, nk + 1, o) : NULL;
    if (r && g && (tsr_ag_record("unsqueeze", 1, &x, &ua, xu, false) < 0 ||
                   tsr_ag_record("max_unpool2d", 1, &xu, &none, r, false) < 0 || tsr_ag_keep(r, iu) < 0))
        goto done;
    if (r && (q = tsr_view_squeeze_dim(r, -1)) && g && tsr_ag_record("squeeze_dim", 1, &r, &ua, q, false) < 0) {
        tsr_tensor_release(q);
        q = NULL;
    }
done:
    tsr_tensor_release(xu);
    tsr_tensor_release(iu);
    tsr_tensor_release(r);
    return q ? v_tensor(q) : bind_runtime_error();
}

/* max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1,
 * ceil_mode=False, return_indices=False) (1.13's boolean_dispatch over
 * torch.max_pool3d and torch._C._nn.max_pool3d_with_indices; both compute
 * the indices on the CPU) and the max_pool3d_with_indices def (the pair). */
static Value *f_max_pool3d(Value *self, CallArgs *a, void *d)
{
    (void)self;
    bool wi = d != NULL, ri = false, ceil = false;
    const char *name = wi ? "max_pool3d_with_indices" : "max_pool3d";
    Value *v[7] = {0};
    int64_t k[4], s[4], p[4] = {0}, dl[4] = {1};
    int nk, ns = 0, np = 1, nd = 1;
    if (args_parse(a, name, "def input, kernel_size, stride=, padding=, dilation=, ceil_mode=, return_indices=", v) < 0)
        return NULL;
    if (v[6]) {
        int t = value_truth(v[6]);
        if (t < 0) return NULL;
        ri = t;
    }
    ri = ri || wi;
    const char *op = ri ? "max_pool3d_with_indices" : "max_pool3d";
    if (!is_tensor(v[0]))
        return exc_set("TypeError", "%s(): argument 'input' (position 1) must be Tensor, not %s", op, v[0]->type->name);
    if (ints_of(v[1], op, "kernel_size", 3, k, &nk) < 0) return NULL;
    if (v[2] && !is_none(v[2]) && ints_of(v[2], op, "stride", 3, s, &ns) < 0) return NULL;
    if (v[3] && ints_of(v[3], op, "padding", 3, p, &np) < 0) return NULL;
    if (v[4] && ints_of(v[4], op, "dilation", 3, dl, &nd) < 0) return NULL;
    if (v[5] && args_bool(v[5], op, "ceil_mode", &ceil) < 0) return NULL;
    tsr_tensor *x = tensor_of(v[0]), *ind = NULL;
    tsr_tensor *r = tsr_nn_max_pool3d(x, nk, k, ns, s, np, p, nd, dl, ceil, &ind);
    if (!r) return bind_runtime_error();
    tsr_ag_args none = {0};
    if (tsr_ag_needed(1, &x) && (tsr_ag_record("max_pool3d", 1, &x, &none, r, false) < 0 || tsr_ag_keep(r, ind) < 0)) {
        tsr_tensor_release(r);
        tsr_tensor_release(ind);
        return bind_runtime_error();
    }
    if (ri) return v_tuple_of(2, v_tensor(r), v_tensor(ind));
    tsr_tensor_release(ind);
    return v_tensor(r);
}

/* _list_with_default(output_size, input.size()) of functional.py: an int
 * repeated (python_arg_parser's int[3]), or a sequence whose None entries
 * take the input's sizes; -1 with the error. */
static int list_with_default(Value *v, const tsr_tensor *x, const char *op, int64_t *out, int *n)
{
    if (is_type(v, &t_tuple) || is_type(v, &t_list) || is_type(v, &t_size)) {
        size_t len = seq_len(v);
        if ((size_t)x->ndim <= len) return exc_set("ValueError", "Input dimension should be at least %zu", len + 1), -1;
        for (size_t i = 0; i < len; i++) {
            Value *e = seq_get(v, i);
            if (is_none(e)) out[i] = x->sizes[x->ndim - (int)len + (int)i];
            else if (args_int(e, op, "output_size", &out[i]) < 0) return -1;
        }
        *n = (int)len;
        return 0;
    }
    return ints_of(v, op, "output_size", 3, out, n);
}

/* adaptive_max_pool3d(input, output_size, return_indices=False) and the
 * adaptive_max_pool3d_with_indices def (the pair): torch._C._nn's op. */
static Value *f_adaptive_max_pool3d(Value *self, CallArgs *a, void *d)
{
    (void)self;
    bool wi = d != NULL, ri = false;
    const char *name = wi ? "adaptive_max_pool3d_with_indices" : "adaptive_max_pool3d";
    Value *v[3] = {0};
    int64_t o[5];
    int n;
    if (args_parse(a, name, "def input, output_size, return_indices=", v) < 0) return NULL;
    if (v[2]) {
        int t = value_truth(v[2]);
        if (t < 0) return NULL;
        ri = t;
    }
    ri = ri || wi;
    if (!is_tensor(v[0])) return exc_set("AttributeError", "'%s' object has no attribute 'size'", v[0]->type->name);
    tsr_tensor *x = tensor_of(v[0]), *ind = NULL;
    if (list_with_default(v[1], x, "adaptive_max_pool3d", o, &n) < 0) return NULL;
    tsr_tensor *r = tsr_nn_adaptive_max_pool3d(x, n, o, &ind);
    if (!r) return bind_runtime_error();
    tsr_ag_args none = {0};
    if (tsr_ag_needed(1, &x) &&
        (tsr_ag_record("adaptive_max_pool3d", 1, &x, &none, r, false) < 0 || tsr_ag_keep(r, ind) < 0)) {
        tsr_tensor_release(r);
        tsr_tensor_release(ind);
        return bind_runtime_error();
    }
    if (ri) return v_tuple_of(2, v_tensor(r), v_tensor(ind));
    tsr_tensor_release(ind);
    return v_tensor(r);
}

/* ints_of for an ATen int[3] argument at position pos: python_arg_parser's
 * TypeError for what is neither an int nor a sequence */
static int aten_ints(Value *v, const char *fname, const char *arg, int pos, int64_t *out, int *n)
{
    if (!is_int_like(v) && !is_type(v, &t_tuple) && !is_type(v, &t_list) && !is_type(v, &t_size))
        return exc_set("TypeError", "%s(): argument '%s' (position %d) must be tuple of ints, not %s", fname, arg, pos,
                       v->type->name), -1;
    return ints_of(v, fname, arg, 3, out, n);
}

/* avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
 * count_include_pad=True, divisor_override=None, *, out=None):
 * torch._C._nn.avg_pool3d (AvgPool3DBackward0) */
static Value *f_avg_pool3d(Value *self, CallArgs *a, void *d)
{
    (void)self, (void)d;
    const char *name = "avg_pool3d";
    Value *v[8] = {0};
    tsr_tensor *out = NULL;
    int64_t k[4], s[4], p[4] = {0}, div = 0;
    int nk, ns = 0, np = 1;
    bool ceil = false, cip = true, hd;
    if (args_parse(a, name, "input, kernel_size, stride=, padding=, ceil_mode=, count_include_pad=, "
                            "divisor_override=, *, out=", v) < 0)
        return NULL;
    if (!is_tensor(v[0]))
        return exc_set("TypeError", "%s(): argument 'input' (position 1) must be Tensor, not %s", name, v[0]->type->name);
    if (aten_ints(v[1], name, "kernel_size", 2, k, &nk) < 0) return NULL;
    if (v[2] && !is_none(v[2]) && aten_ints(v[2], name, "stride", 3, s, &ns) < 0) return NULL;
    if (v[3] && aten_ints(v[3], name, "padding", 4, p, &np) < 0) return NULL;
    if (v[4] && args_bool(v[4], name, "ceil_mode", &ceil) < 0) return NULL;
    if (v[5] && args_bool(v[5], name, "count_include_pad", &cip) < 0) return NULL;
    hd = v[6] && !is_none(v[6]);
    if (hd && args_int(v[6], name, "divisor_override", &div) < 0) return NULL;
    if (ops_out_arg(v[7], name, name, 1, v, &out) < 0) return NULL;
    tsr_tensor *x = tensor_of(v[0]);
    tsr_tensor *r = tsr_nn_avg_pool3d(x, nk, k, ns, s, np, p, ceil, cip, hd, div);
    if (out) {   /* structured: out must have the dtype, then resize_output */
        r = tsr_out_assign(r, out, true);
        ops_warn();
        return ops_finish(r, v[7]);
    }
    if (!r) return bind_runtime_error();
    if (tsr_ag_needed(1, &x)) {   /* the node's kernel, stride, padding: three entries each */
        tsr_ag_args ga = {.flag = cip, .has_d0 = hd, .i0 = div, .i1 = ceil};   /* ceil_mode: the double backward's */
        for (int i = 0; i < 3; i++) {
            ga.dims[i] = k[nk == 3 ? i : 0];
            ga.dims[3 + i] = ns == 0 ? ga.dims[i] : s[ns == 3 ? i : 0];
            ga.dims[6 + i] = p[np == 3 ? i : 0];
        }
        if (tsr_ag_record("avg_pool3d", 1, &x, &ga, r, false) < 0) {
            tsr_tensor_release(r);
            return bind_runtime_error();
        }
    }
    return v_tensor(r);
}

/* adaptive_avg_pool3d(input, output_size): 1.13's def over
 * torch._C._nn.adaptive_avg_pool3d (an output of 1x1x1: mean, MeanBackward1) */
static Value *f_adaptive_avg_pool3d(Value *self, CallArgs *a, void *d)
{
    (void)self, (void)d;
    Value *v[2] = {0};
    int64_t o[5];
    int n;
    if (args_parse(a, "adaptive_avg_pool3d", "def input, output_size", v) < 0) return NULL;
    if (!is_tensor(v[0])) return exc_set("AttributeError", "'%s' object has no attribute 'size'", v[0]->type->name);
    tsr_tensor *x = tensor_of(v[0]);
    if (list_with_default(v[1], x, "adaptive_avg_pool3d", o, &n) < 0) return NULL;
    bool g = tsr_ag_needed(1, &x), mean = n == 3 && o[0] == 1 && o[1] == 1 && o[2] == 1;
    tsr_tensor *r = tsr_nn_adaptive_avg_pool3d(x, n, o);
    if (!r) return bind_runtime_error();
    if (g) {
        tsr_ag_args mg = {.ndims = 3, .dims = {-1, -2, -3}, .keepdim = true}, ag = {0};
        if (tsr_ag_record(mean ? "mean_dim" : "adaptive_avg_pool3d", 1, &x, mean ? &mg : &ag, r, false) < 0) {
            tsr_tensor_release(r);
            return bind_runtime_error();
        }
    }
    return v_tensor(r);
}

/* fractional_max_pool2d/3d(input, kernel_size, output_size=None,
 * output_ratio=None, return_indices=False, _random_samples=None) and the
 * *_with_indices defs: 1.13's Python (the output size from the ratio,
 * torch.rand(n_batch, C, nsp, dtype=input.dtype) when no samples are
 * given) over torch._C._nn.fractional_max_pool2d/3d (FractionalMaxPool2DBackward0). */
static Value *f_fractional(Value *self, CallArgs *a, void *d)
{
    (void)self;
    const char *tag = d;
    int nsp = tag[0] == '3' ? 3 : 2;
    bool wi = tag[1] == 'i', ri = false;
    const char *name = nsp == 2 ? (wi ? "fractional_max_pool2d_with_indices" : "fractional_max_pool2d")
                                : (wi ? "fractional_max_pool3d_with_indices" : "fractional_max_pool3d");
    const char *op = nsp == 2 ? "fractional_max_pool2d" : "fractional_max_pool3d";
    Value *v[6] = {0};
    int64_t k[4], o[4];
    int nk, no = nsp;
    if (args_parse(a, name, "def input, kernel_size, output_size=, output_ratio=, return_indices=, _random_samples=",
                   v) < 0)
        return NULL;
    if (v[4]) {
        int t = value_truth(v[4]);
        if (t < 0) return NULL;
        ri = t;
    }
    ri = ri || wi;
    bool has_o = v[2] && !is_none(v[2]), has_r = v[3] && !is_none(v[3]);
    if (!has_o && !has_r)
        return exc_set("ValueError", "%s requires specifying either an output_size or an output_ratio", op);
    if (!has_o || !v[5] || is_none(v[5]))
        if (!is_tensor(v[0])) return exc_set("AttributeError", "'%s' object has no attribute '%s'", v[0]->type->name,
                                             has_o ? "dim" : "size");
    if (!has_o) {   /* output_size = [int(input.size(-i) * _output_ratio[i]) ...] */
        tsr_tensor *x = tensor_of(v[0]);
        for (int i = 0; i < nsp; i++) {
            bool seq = is_type(v[3], &t_tuple) || is_type(v[3], &t_list);
            if (seq && seq_len(v[3]) <= (size_t)i) return exc_set("IndexError", "tuple index out of range");
            Value *r = seq ? seq_get(v[3], (size_t)i) : v[3];
            double f;
            if (value_as_float(r, &f) < 0)
                return exc_set("TypeError", "unsupported operand type(s) for *: 'int' and '%s'", r->type->name);
            if (x->ndim < nsp - i)
                return exc_set("IndexError", "Dimension out of range (expected to be in range of [%d, %d], but got %d)",
                               x->ndim ? -x->ndim : -1, x->ndim ? x->ndim - 1 : 0, i - nsp);
            o[i] = (int64_t)((double)x->sizes[x->ndim - nsp + i] * f);
        }
    } else if (ints_of(v[2], op, "output_size", nsp, o, &no) < 0) {
        return NULL;
    }
    tsr_tensor *smp = NULL;
    if (v[5] && !is_none(v[5])) {
        if (!is_tensor(v[5]))
            return exc_set("TypeError", "%s(): argument 'random_samples' (position 4) must be Tensor, not %s", op,
                           v[5]->type->name);
        smp = tsr_tensor_retain(tensor_of(v[5]));
    } else {   /* torch.rand(n_batch, input.size(-nsp - 1), nsp, dtype=input.dtype, device=input.device) */
        tsr_tensor *x = tensor_of(v[0]);
        if (x->ndim < nsp + 1)
            return exc_set("IndexError", "Dimension out of range (expected to be in range of [%d, %d], but got %d)",
                           x->ndim ? -x->ndim : -1, x->ndim ? x->ndim - 1 : 0, -nsp - 1);
        int64_t sz[3] = {x->ndim == nsp + 1 ? 1 : x->sizes[0], x->sizes[x->ndim - nsp - 1], nsp};
        if (!(smp = tsr_rand(3, sz, x->dtype, x->device, NULL))) return bind_runtime_error();
    }
    if (!is_tensor(v[0])) {
        tsr_tensor_release(smp);
        return exc_set("TypeError", "%s(): argument 'input' (position 1) must be Tensor, not %s", op, v[0]->type->name);
    }
    if (ints_of(v[1], op, "kernel_size", nsp, k, &nk) < 0) {
        tsr_tensor_release(smp);
        return NULL;
    }
    tsr_tensor *x = tensor_of(v[0]), *ind = NULL;
    tsr_tensor *r = tsr_nn_fractional_max_pool(x, nsp, nk, k, no, o, smp, &ind);
    tsr_tensor_release(smp);
    if (!r) return bind_runtime_error();
    tsr_ag_args none = {0};
    if (tsr_ag_needed(1, &x) && (tsr_ag_record(op, 1, &x, &none, r, false) < 0 || tsr_ag_keep(r, ind) < 0)) {
        tsr_tensor_release(r);
        tsr_tensor_release(ind);
        return bind_runtime_error();
    }
    if (ri) return v_tuple_of(2, v_tensor(r), v_tensor(ind));
    tsr_tensor_release(ind);
    return v_tensor(r);
}

void bind_nnf_pool3d_init(void)
{
    Value *m = bind_module(MOD);
    module_add(m, "lp_pool1d", v_builtin("lp_pool1d", f_lp_pool, NULL, (void *)"1"));
    module_add(m, "lp_pool2d", v_builtin("lp_pool2d", f_lp_pool, NULL, NULL));
    module_add(m, "max_unpool1d", v_builtin("max_unpool1d", f_max_unpool, NULL, (void *)"1"));
    module_add(m, "max_unpool2d", v_builtin("max_unpool2d", f_max_unpool, NULL, NULL));
    module_add(m, "max_unpool3d", v_builtin("max_unpool3d", f_max_unpool, NULL, (void *)"3"));
    module_add(m, "adaptive_max_pool3d", v_builtin("adaptive_max_pool3d", f_adaptive_max_pool3d, NULL, NULL));
    module_add(m, "adaptive_max_pool3d_with_indices",
               v_builtin("adaptive_max_pool3d_with_indices", f_adaptive_max_pool3d, NULL, (void *)"i"));
    module_add(m, "max_pool3d", v_builtin("max_pool3d", f_max_pool3d, NULL, NULL));
    module_add(m, "max_pool3d_with_indices", v_builtin("max_pool3d_with_indices", f_max_pool3d, NULL, (void *)"i"));
    module_add(m, "avg_pool3d", v_builtin("avg_pool3d", f_avg_pool3d, NULL, NULL));
    module_add(m, "fractional_max_pool2d", v_builtin("fractional_max_pool2d", f_fractional, NULL, (void *)"2"));
    module_add(m, "fractional_max_pool3d", v_builtin("fractional_max_pool3d", f_fractional, NULL, (void *)"3"));
    module_add(m, "fractional_max_pool2d_with_indices",
               v_builtin("fractional_max_pool2d_with_indices", f_fractional, NULL, (void *)"2i"));
    module_add(m, "fractional_max_pool3d_with_indices",
               v_builtin("fractional_max_pool3d_with_indices", f_fractional, NULL, (void *)"3i"));
    module_add(m, "adaptive_avg_pool3d", v_builtin("adaptive_avg_pool3d", f_adaptive_avg_pool3d, NULL, NULL));
}
