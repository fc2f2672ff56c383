/* src/bind/nnf_pool3d.c — more of torch.nn.functional's pooling: lp_pool1d
 * and lp_pool2d, which 1.13 writes in Python over pow, avg_pool1d/2d, sign,
 * abs, relu and mul. The handlers compose those ops through their bindings
 * (so autograd records 1.13's nodes: PowBackward0, AvgPool2DBackward0, ...)
 * in the order the def evaluates them, so the first error is 1.13's. */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "bind/areas.h"
#include "bind/bind.h"
#include "bind/tensor.h"
#include "value.h"

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

void bind_nnf_pool3d_init(void)
{
    Value *m = bind_module(MOD);
    module_add(m, "lp_pool1d", v_builtin("lp_pool1d", f_lp_pool, NULL, (void *)"1"));
    module_add(m, "lp_pool2d", v_builtin("lp_pool2d", f_lp_pool, NULL, NULL));
}
