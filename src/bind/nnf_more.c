/* src/bind/nnf_more.c — more of torch.nn.functional: glu, pixel_shuffle /
 * pixel_unshuffle, channel_shuffle, hardshrink / softshrink, rrelu and
 * unfold / fold, with the torch.* and Tensor.* spellings 1.13 has. The ATen
 * functions are binding rows (python_arg_parser's messages); F's Python defs
 * are builtins with their own argument handling. Every tensor rule is
 * runtime/ops/nn_more.h's; the handlers record 1.13's graph nodes. */
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
#include "ops/copy.h"
#include "ops/factory.h"
#include "ops/nn.h"
#include "ops/nn_more.h"
#include "value.h"

#define MOD "torch.nn.functional"

/* r (NULL: the runtime's error) recorded as key over x with args a when x
 * needs a graph; kept (NULL: none) kept with it. NEW value or NULL. */
static Value *graph1(tsr_tensor *r, tsr_tensor *x, const char *key, const tsr_ag_args *a, const tsr_tensor *kept)
{
    if (!r) return bind_runtime_error();
    if (tsr_ag_needed(1, &x) && (tsr_ag_record(key, 1, &x, a, r, false) < 0 || (kept && tsr_ag_keep(r, kept) < 0))) {
        tsr_tensor_release(r);
        return bind_runtime_error();
    }
    return v_tensor(r);
}

/* 1.13's named-tensor refusal of the ATen op (schema) for a named x; -1 then. */
static int named_refused(const char *schema, const tsr_tensor *x)
{
    if (!x->names) return 0;
    tsr_names_refuse(schema);
    bind_runtime_error();
    return -1;
}

/* ------------------------------------------------------------ ATen rows */

enum { K_PS, K_PU, K_CS, K_HS, K_SS, K_RRELU, K_GLU, K_TH };

static Value *more_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)fname;
    tsr_tensor *x = tensor_of(self ? self : b->v[0]);
    int64_t k = 0;
    double d;
    tsr_ag_args ga = {0};
    switch (row->kind) {
    case K_PS: case K_PU: case K_CS:
        if (bind_table_int(b, 1, 0, &k) < 0) return NULL;
        if (row->kind == K_CS) return graph1(tsr_nn_channel_shuffle(x, k), x, row->name, &ga, NULL);
        ga.i0 = k;
        return graph1(row->kind == K_PS ? tsr_nn_pixel_shuffle(x, k) : tsr_nn_pixel_unshuffle(x, k), x,
                      row->kind == K_PS ? "pixel_shuffle" : "pixel_unshuffle", &ga, NULL);
    case K_HS: case K_SS:
        d = 0.5;
        if (b->v[1] && bind_table_float(b->v[1], row->name, "lambd", &d) < 0) return NULL;
        ga.d0 = d;
        return graph1(row->kind == K_HS ? tsr_nn_hardshrink(x, d) : tsr_nn_softshrink(x, d), x, row->name, &ga, NULL);
    case K_GLU:
        if (!is_tensor(b->v[0]))
            return exc_set("AttributeError", "'%s' object has no attribute 'dim'", b->v[0]->type->name);
        x = tensor_of(b->v[0]);
        if (x->ndim == 0) return exc_set("RuntimeError", "glu does not support scalars because halving size must be even");
        if (bind_table_int(b, 1, -1, &k) < 0 || named_refused("aten::glu", x) < 0) return NULL;
        ga.i0 = k;
        return graph1(tsr_nn_glu(x, k), x, "glu", &ga, NULL);
    case K_TH: {   /* threshold(input, threshold, value, *, out=None) and threshold_ */
        double th, val;
        if (bind_table_float(b->v[1], row->name, "threshold", &th) < 0 ||
            bind_table_float(b->v[2], row->name, "value", &val) < 0)
            return NULL;
        bool ip = row->name[strlen(row->name) - 1] == '_', g = tsr_ag_needed(1, &x);
        Value *out = b->v[BIND_OUT];
        ga.d0 = th;
        if (out && !is_none(out)) {
            if (g)
                return exc_set("RuntimeError", "threshold(): functions with out=... arguments don't support automatic "
                               "differentiation, but one of the arguments requires grad.");
            tsr_tensor *r = tsr_nn_threshold(x, th, val, false);
            int rc = r ? tsr_factory_out(tensor_of(out), r, false) : -1;
            tsr_tensor_release(r);
            return rc < 0 ? bind_runtime_error() : incref(out);
        }
        if (!ip) return graph1(tsr_nn_threshold(x, th, val, false), x, "threshold", &ga, NULL);
        /* in place: ThresholdBackward1 keeps the old values */
        tsr_tensor *old = NULL;
        if (g && (tsr_ag_check_inplace(x) < 0 || !(old = tsr_to_dtype(x, x->dtype, true)))) return bind_runtime_error();
        tsr_tensor *r = tsr_nn_threshold(x, th, val, true);
        int rc = r ? 0 : -1;
        if (r) tsr_tensor_bump_version(x);
        if (r && g) rc = tsr_ag_record_inplace_act("threshold_", x, &ga, old);
        tsr_tensor_release(old);
        if (rc < 0) {
            tsr_tensor_release(r);
            return bind_runtime_error();
        }
        return ops_finish(r, b->v[0]);
    }
    case K_RRELU: {
        double lo = 0.125, hi = 1.0 / 3.0;
        if ((b->v[1] && bind_table_float(b->v[1], row->name, "lower", &lo) < 0) ||
            (b->v[2] && bind_table_float(b->v[2], row->name, "upper", &hi) < 0))
            return NULL;
        bool train = b->v[3] && value_truth(b->v[3]) > 0;
        bool ip = inplace || row->name[strlen(row->name) - 1] == '_';
        tsr_generator *gen = b->v[4] ? (tsr_generator *)b->v[4]->u.ext.ptr : tsr_default_generator();
        bool g = tsr_ag_needed(1, &x);
        if (ip && g && tsr_ag_check_inplace(x) < 0) return bind_runtime_error();
        tsr_tensor *noise = NULL, *r = tsr_nn_rrelu(x, lo, hi, train, ip, gen, &noise);
        if (!r) return bind_runtime_error();
        int rc = 0;
        ga.d0 = lo, ga.d1 = hi, ga.flag = train;
        if (ip) {   /* a plain function row: the table does not bump x itself */
            tsr_tensor_bump_version(x);
            if (g) rc = tsr_ag_record("rrelu_with_noise_", 1, &x, &ga, x, true);
            if (g && rc == 0) rc = tsr_ag_keep(x, noise);
        } else if (g) {
            rc = tsr_ag_record("rrelu_with_noise", 1, &x, &ga, r, false);
            if (rc == 0) rc = tsr_ag_keep(r, noise);
        }
        tsr_tensor_release(noise);
        if (rc < 0) {
            tsr_tensor_release(r);
            return bind_runtime_error();
        }
        return ip ? ops_finish(r, self ? self : b->v[0]) : v_tensor(r);
    }
    }
    return NULL;
}

#define RRELU_SIG "Tensor input, Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False, " \
                  "Generator? generator=None"

static BindRow more_rows[] = {
    {.name = "pixel_shuffle", .kind = K_PS, .flags = BIND_FN, .handler = more_call,
     .sigs = "Tensor input, int64_t upscale_factor"},
    {.name = "pixel_shuffle", .kind = K_PS, .flags = BIND_FN, .handler = more_call, .module = MOD,
     .sigs = "Tensor input, int64_t upscale_factor"},
    {.name = "pixel_unshuffle", .kind = K_PU, .flags = BIND_FN, .handler = more_call,
     .sigs = "Tensor input, int64_t downscale_factor"},
    {.name = "pixel_unshuffle", .kind = K_PU, .flags = BIND_FN, .handler = more_call, .module = MOD,
     .sigs = "Tensor input, int64_t downscale_factor"},
    {.name = "channel_shuffle", .kind = K_CS, .flags = BIND_FN, .handler = more_call, .sigs = "Tensor input, int64_t groups"},
    {.name = "channel_shuffle", .kind = K_CS, .flags = BIND_FN, .handler = more_call, .module = MOD,
     .sigs = "Tensor input, int64_t groups"},
    {.name = "native_channel_shuffle", .kind = K_CS, .flags = BIND_FN, .handler = more_call,
     .sigs = "Tensor input, int64_t groups"},
    {.name = "native_channel_shuffle", .kind = K_CS, .flags = BIND_FN, .handler = more_call, .module = MOD,
     .sigs = "Tensor input, int64_t groups"},
    {.name = "hardshrink", .kind = K_HS, .flags = BIND_FN | BIND_METHOD, .handler = more_call,
     .sigs = "Tensor input, Scalar lambd=0.5"},
    {.name = "hardshrink", .kind = K_HS, .flags = BIND_FN, .handler = more_call, .module = MOD,
     .sigs = "Tensor input, Scalar lambd=0.5"},
    {.name = "softshrink", .kind = K_SS, .flags = BIND_FN, .handler = more_call, .module = MOD,
     .sigs = "Tensor input, Scalar lambd=0.5"},
    {.name = "glu", .kind = K_GLU, .flags = BIND_FN, .handler = more_call, .module = MOD,
     .sigs = "PyObject* input, int64_t dim=-1"},
    {.name = "threshold", .kind = K_TH, .flags = BIND_FN, .handler = more_call,
     .sigs = "Tensor input, Scalar threshold, Scalar value, *, Tensor out=None"},
    {.name = "threshold_", .kind = K_TH, .flags = BIND_FN, .handler = more_call,
     .sigs = "Tensor input, Scalar threshold, Scalar value"},
    {.name = "threshold_", .kind = K_TH, .flags = BIND_FN, .handler = more_call, .module = MOD,
     .sigs = "Tensor input, Scalar threshold, Scalar value"},
    {.name = "rrelu", .kind = K_RRELU, .flags = BIND_FN, .handler = more_call, .sigs = RRELU_SIG},
    {.name = "rrelu_", .kind = K_RRELU, .flags = BIND_FN, .handler = more_call, .sigs = RRELU_SIG},
};

/* ------------------------------------------------------------ F's defs */

/* F.rrelu(input, lower=1./8, upper=1./3, training=False, inplace=False)
 * and F.rrelu_(input, lower, upper, training): torch.rrelu(_) */
static Value *f_rrelu(Value *self, CallArgs *a, void *d)
{
    (void)self;
    bool under = d != NULL;
    Value *v[5] = {0};
    if (args_parse(a, under ? "rrelu_" : "rrelu",
                   under ? "def input, lower=, upper=, training=" : "def input, lower=, upper=, training=, inplace=", v) < 0)
        return NULL;
    int ip = under;
    if (!under && v[4] && (ip = value_truth(v[4])) < 0) return NULL;
    Value *args[4] = {v[0], v[1], v[2], v[3]}, *dv[3] = {NULL, NULL, NULL};
    if (!args[1]) args[1] = dv[0] = v_float(1.0 / 8);
    if (!args[2]) args[2] = dv[1] = v_float(1.0 / 3);
    if (!args[3]) args[3] = dv[2] = v_bool(false);
    Value *f = value_getattr(bind_module("torch"), ip ? "rrelu_" : "rrelu"), *r = NULL;
    if (f) r = value_call0(f, 4, args);
    if (f) decref(f);
    for (int i = 0; i < 3; i++)
        if (dv[i]) decref(dv[i]);
    return r;
}

/* _pair(v) handed to python_arg_parser's int[2] (im2col / col2im): a
 * sequence as a tuple of its items, anything else (v, v); into out[2].
 * -1 with the parser's TypeError or im2col's size check. */
static int pair_arg(Value *v, const char *op, const char *arg, int pos, int64_t *out)
{
    bool seq = is_type(v, &t_tuple) || is_type(v, &t_list) || is_type(v, &t_size);
    size_t n = seq ? seq_len(v) : 2;
    for (size_t i = 0; i < n; i++) {
        Value *e = seq ? seq_get(v, i) : v;
        if (!is_int_like(e) || is_type(e, &t_bool)) {
            if (i == 0)
                return exc_set("TypeError", "%s(): argument '%s' (position %d) must be tuple of ints, not tuple", op, arg,
                               pos), -1;
            return exc_set("TypeError", "%s(): argument '%s' must be tuple of ints, but found element of type %s at "
                           "pos %zu", op, arg, e->type->name, i + 1), -1;
        }
        int64_t x;
        if (args_int(e, op, arg, &x) < 0) return -1;
        if (i < 2) out[i] = x;
    }
    if (n != 2) return exc_set("RuntimeError", "It is expected %s equals to 2, but got size %zu", arg, n), -1;
    return 0;
}

/* F.unfold(input, kernel_size, dilation=1, padding=0, stride=1) and
 * F.fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
 * torch._C._nn.im2col / col2im over _pair of each */
static Value *f_fold(Value *self, CallArgs *a, void *d)
{
    (void)self;
    bool fold = d != NULL;
    const char *op = fold ? "col2im" : "im2col";
    Value *v[6] = {0};
    if (args_parse(a, fold ? "fold" : "unfold", fold ? "def input, output_size, kernel_size, dilation=, padding=, stride="
                                                     : "def input, kernel_size, dilation=, padding=, stride=", v) < 0)
        return NULL;
    if (!is_tensor(v[0]))
        return exc_set("TypeError", "%s(): argument 'input' (position 1) must be Tensor, not %s", op, v[0]->type->name);
    /* dims: kernel, dilation, padding, stride, then im2col's input size (or col2im's output size) */
    int64_t dims[10];
    static const char *const names[] = {"output_size", "kernel_size", "dilation", "padding", "stride"};
    static const int64_t dflt[] = {0, 0, 1, 0, 1};
    int np = fold ? 5 : 4, first = fold ? 0 : 1;
    for (int i = 0; i < np; i++) {
        int which = first + i;
        Value *x = v[1 + i];
        int64_t *slot = which == 0 ? dims + 8 : dims + 2 * (which - 1);
        if (!x) {
            slot[0] = slot[1] = dflt[which];
            continue;
        }
        if (pair_arg(x, op, names[which], 2 + i, slot) < 0) return NULL;
    }
    tsr_tensor *x = tensor_of(v[0]);
    if (named_refused(fold ? "aten::col2im" : "aten::im2col", x) < 0) return NULL;
    tsr_tensor *r = fold ? tsr_nn_col2im(x, dims + 8, dims, dims + 2, dims + 4, dims + 6)
                         : tsr_nn_im2col(x, dims, dims + 2, dims + 4, dims + 6);
    tsr_ag_args ga = {0};
    if (r && !fold) dims[8] = x->sizes[x->ndim - 2], dims[9] = x->sizes[x->ndim - 1];
    memcpy(ga.dims, dims, sizeof dims);
    ga.ndims = 10;
    return graph1(r, x, op, &ga, NULL);
}

/* obj.name(*pos, **kw) through the language's call path (autograd records
 * each step as 1.13's Python does). NEW reference or NULL. */
static Value *call_kw(Value *obj, const char *name, int n, Value **pos, int nkw, const char **kwn, Value **kw)
{
    Value *f = value_getattr(obj, name);
    if (!f) return NULL;
    CallArgs c = {pos, n, kwn, kw, nkw};
    Value *r = value_call(f, &c);
    decref(f);
    return r;
}

/* Replaces *v by r (NULL on error), releasing the old one; returns r. */
static Value *step(Value **v, Value *r)
{
    if (*v) decref(*v);
    return *v = r;
}

/* gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1): 1.13's
 * Python body, each op through the call path: the noise is
 * empty_like(logits).exponential_() from the default generator */
static Value *f_gumbel_softmax(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[5] = {0};
    if (args_parse(a, "gumbel_softmax", "def logits, tau=, hard=, eps=, dim=", v) < 0) return NULL;
    double eps = 1e-10;
    if (v[3] && (is_type(v[3], &t_float) || is_int_like(v[3])) && args_float(v[3], "gumbel_softmax", "eps", &eps) < 0)
        return NULL;
    if (eps != 1e-10 && !bind_warnings_ignored())
        fprintf(stderr, "UserWarning: `eps` parameter is deprecated and has no effect.\n");
    Value *torch = bind_module("torch"), *cf = value_getattr(torch, "contiguous_format");
    if (!cf) return NULL;
    const char *mfk[1] = {"memory_format"};
    Value *t = call_kw(torch, "empty_like", 1, &v[0], 1, mfk, &cf), *tau = v[1] ? v[1] : NULL, *dim = v[4];
    Value *one = NULL, *mdim = NULL, *y = NULL, *r = NULL;
    if (!tau) tau = one = v_int(1);
    if (!dim) dim = mdim = v_int(-1);
    if (!t || !step(&t, call_kw(t, "exponential_", 0, NULL, 0, NULL, NULL)) ||
        !step(&t, call_kw(t, "log", 0, NULL, 0, NULL, NULL)) || !step(&t, value_unop(OP_NEG, t)) ||
        !step(&t, value_binop(OP_ADD, v[0], t)) || !step(&t, value_binop(OP_TRUEDIV, t, tau)) ||
        !(y = call_kw(t, "softmax", 1, &dim, 0, NULL, NULL)))
        goto done;
    int hard = v[2] ? value_truth(v[2]) : 0;
    if (hard < 0) goto done;
    if (!hard) {
        r = y;
        y = NULL;
        goto done;
    }
    /* y_hard - y_soft.detach() + y_soft, y_hard the one-hot of y_soft.max(dim, keepdim=True)[1] */
    Value *kt = v_bool(true), *m = NULL, *idx = NULL, *h = NULL, *det = NULL, *fone = v_float(1.0);
    const char *kdk[1] = {"keepdim"};
    if ((m = call_kw(y, "max", 1, &dim, 1, kdk, &kt)) && (idx = seq_get(m, 1)) &&
        (h = call_kw(torch, "zeros_like", 1, &v[0], 1, mfk, &cf))) {
        Value *sa[3] = {dim, idx, fone};
        if (step(&h, call_kw(h, "scatter_", 3, sa, 0, NULL, NULL)) && (det = call_kw(y, "detach", 0, NULL, 0, NULL, NULL)) &&
            step(&h, value_binop(OP_SUB, h, det)))
            r = value_binop(OP_ADD, h, y);
    }
    decref(kt);
    decref(fone);
    if (m) decref(m);
    if (h) decref(h);
    if (det) decref(det);
done:
    decref(cf);
    if (t) decref(t);
    if (y) decref(y);
    if (one) decref(one);
    if (mdim) decref(mdim);
    return r;
}

void bind_nnf_more_init(void)
{
    bind_table_register(more_rows, (int)(sizeof more_rows / sizeof more_rows[0]));
    Value *m = bind_module(MOD);
    module_add(m, "rrelu", v_builtin("rrelu", f_rrelu, NULL, NULL));
    module_add(m, "rrelu_", v_builtin("rrelu_", f_rrelu, NULL, (void *)"_"));
    module_add(m, "unfold", v_builtin("unfold", f_fold, NULL, NULL));
    module_add(m, "gumbel_softmax", v_builtin("gumbel_softmax", f_gumbel_softmax, NULL, NULL));
    module_add(m, "fold", v_builtin("fold", f_fold, NULL, (void *)"fold"));
}
