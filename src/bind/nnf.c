/* src/bind/nnf.c — torch.nn.functional (import torch.nn.functional as F):
 * the Python defs of 1.13's torch/nn/functional.py for the activations,
 * softmax family, linear, normalize, one_hot and the mse/l1/nll/
 * cross-entropy losses, with their argument handling (reduction strings,
 * the legacy size_average/reduce pair, implicit softmax dims) and warnings.
 * Every tensor rule is runtime/ops/nn.h's or the op's own. */
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
#include "ops/compare.h"
#include "ops/copy.h"
#include "ops/linalg.h"
#include "ops/nn.h"
#include "ops/nn_conv.h"
#include "ops/rearrange.h"
#include "ops/reduce.h"
#include "ops/unary.h"
#include "view.h"

#define MOD "torch.nn.functional"

/* The TypeError of the ATen call a def hands a non-tensor to. */
static int need_tensor(Value *v, const char *op, const char *arg, int pos)
{
    if (v && is_tensor(v)) return 0;
    return exc_set("TypeError", "%s(): argument '%s' (position %d) must be Tensor, not %s", op, arg, pos,
                   v ? v->type->name : "NoneType"), -1;
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
    return v ? args_bool(v, fname, arg, out) : 0;
}

static int opt_float(Value *v, const char *fname, const char *arg, double dflt, double *out)
{
    *out = dflt;
    return v ? args_float(v, fname, arg, out) : 0;
}

/* 1.13's named-tensor refusal of the ATen op F runs (schema "aten::silu"),
 * when any of the n values is a tensor with names; -1 then. The F functions
 * that call torch's own ops get the binding table's names step instead. */
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

/* The F functions that compute in the runtime directly record no graph:
 * while grad mode is on and an input requires grad they raise the
 * autograd step's NotImplementedError instead of a result without grad_fn. */
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

/* Whether one of the n values is a tensor that needs a graph. */
static bool grad_needed(int n, Value **vals)
{
    tsr_tensor *in[8];
    int k = 0;
    for (int i = 0; i < n && k < 8; i++)
        if (vals[i] && is_tensor(vals[i])) in[k++] = tensor_of(vals[i]);
    return tsr_ag_needed(k, in);
}

/* The formulas whose bfloat16 gradients are 1.13's (checked against it);
 * the others' bfloat16 kernels round differently and are refused. */
static bool bf16_grad_ok(const char *key)
{
    static const char *const ok[] = {"elu", "elu_", "celu", "celu_", "silu", "silu_", "hardsigmoid", "hardsigmoid_",
                                     "leaky_relu", "leaky_relu_", "hardtanh", "hardtanh_", "nll_loss", "nll_loss2d",
                                     "softplus", "log_sigmoid", "threshold", "threshold_",
                                     "binary_cross_entropy_with_logits", "embedding", "constant_pad_nd", "gelu"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (!strcmp(key, ok[i])) return true;
    return false;
}

/* on cuda the runtime computes these gradients in float (ops/nn_dev.c) */
static bool bf16_grad_ok_device(const char *key, const tsr_tensor *r)
{
    return r->device.type != TSR_DEV_CPU && (!strcmp(key, "mish") || !strcmp(key, "hardswish"));
}

static int bf16_refused(const char *key, int n, tsr_tensor *const *in, const tsr_tensor *r)
{
    if (r->dtype != TSR_BFLOAT16 || bf16_grad_ok(key) || bf16_grad_ok_device(key, r) || !tsr_ag_needed(n, in)) return 0;
    return exc_set("NotImplementedError", "the derivative for '%s' of bfloat16 is not supported by tsr yet", key), -1;
}

/* r (the F function's result, NULL: the runtime's error) with its graph
 * node: formula key over in[0..n-1] with args a, then the nk tensors of
 * kept (NULL ones skipped) kept for the formula. NEW value or NULL. */
static Value *graph(tsr_tensor *r, const char *key, int n, tsr_tensor *const *in, const tsr_ag_args *a, int nk,
                    const tsr_tensor *const *kept)
{
    if (!r) return bind_runtime_error();
    if (bf16_refused(key, n, in, r) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    if (tsr_ag_record(key, n, in, a, r, false) < 0) goto fail;
    for (int i = 0; i < nk; i++)
        if (kept[i] && tsr_ag_keep(r, kept[i]) < 0) goto fail;
    return v_tensor(r);
fail:
    tsr_tensor_release(r);
    return bind_runtime_error();
}

/* The in-place activations, x written: *old receives a copy of x's values
 * when x needs a graph (the formulas of the old values keep it), else NULL.
 * A leaf that requires grad refuses first. -1 with the error. */
static int inplace_prep(Value *x, bool inplace, tsr_tensor **old)
{
    *old = NULL;
    if (!inplace || !grad_needed(1, &x)) return 0;
    tsr_tensor *xt = tensor_of(x);
    if (tsr_ag_check_inplace(xt) < 0 || !(*old = tsr_to_dtype(xt, xt->dtype, true))) return bind_runtime_errori();
    return 0;
}

/* An activation's result r recorded: out of place as key over x; in place
 * (r is x written) as key_, a formula of the result, or of the old values
 * (old, from inplace_prep; consumed) when key_ is key + "_". */
static Value *act_graph(tsr_tensor *r, Value *x, bool inplace, const char *key, const char *key_, const tsr_ag_args *a,
                        tsr_tensor *old)
{
    tsr_tensor *xt = tensor_of(x);
    if (!inplace) return graph(r, key, 1, &xt, a, 0, NULL);
    if (!r) {
        tsr_tensor_release(old);
        return bind_runtime_error();
    }
    tsr_tensor_bump_version(xt);
    int rc = 0;
    if (old && bf16_refused(key_, 1, &xt, r) < 0) {
        tsr_tensor_release(old);
        tsr_tensor_release(r);
        return NULL;
    }
    if (old) rc = tsr_ag_record_inplace_act(key_, xt, a, old);
    tsr_tensor_release(old);
    if (rc < 0) {
        tsr_tensor_release(r);
        return bind_runtime_error();
    }
    return ops_finish(r, x);
}

/* The dropouts' p check: 0, or -1 with 1.13's ValueError, p printed as
 * Python prints the argument pv. */
int bind_dropout_p(Value *pv, double p)
{
    if (p >= 0.0 && p <= 1.0) return 0;
    char buf[64];
    Value *ps = pv ? value_str(pv) : NULL;
    snprintf(buf, sizeof buf, "%s", ps ? ps->u.s.p : "?");
    if (ps) decref(ps);
    return exc_set("ValueError", "dropout probability has to be between 0 and 1, but got %s", buf), -1;
}

static void warn(const char *msg)
{
    if (!bind_warnings_ignored()) fprintf(stderr, "UserWarning: %s\n", msg);
}

/* obj.name(*args) (obj a module or a tensor): the ops F composes from go
 * through the binding table's call path, so autograd records them. */
static Value *call_attr(Value *obj, const char *name, int n, Value **args)
{
    Value *f = value_getattr(obj, name);
    if (!f) return NULL;
    Value *r = value_call0(f, n, args);
    decref(f);
    return r;
}

/* NotImplementedError for what the F graphs do not cover yet; NULL. */
static Value *grad_refused_msg(const char *what)
{
    return exc_set("NotImplementedError", "%s is not supported by tsr yet", what);
}

/* The RuntimeError of an argument that 1.13 declares non-differentiable. */
static int not_differentiable(const char *fn, const char *arg, Value *v)
{
    if (!v || !is_tensor(v) || !tsr_grad_enabled() || !tsr_tensor_requires_grad(tensor_of(v))) return 0;
    return exc_set("RuntimeError", "The function '%s' is not differentiable with respect to argument '%s'. This input "
                   "cannot have requires_grad True.", fn, arg), -1;
}

/* ------------------------------------------------------------ activations */

static Value *f_relu(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[2];
    bool inplace;
    if (args_parse(a, "relu", "def input, inplace=", v) < 0 || opt_bool(v[1], "relu", "inplace", false, &inplace) < 0)
        return NULL;
    return call_attr(bind_module("torch"), inplace ? "relu_" : "relu", 1, v);
}

static Value *f_hardtanh(Value *self, CallArgs *a, void *d)
{
    (void)self;
    bool relu6 = d != NULL, inplace;
    Value *v[4];
    double lo = -1, hi = 1;
    const char *fname = relu6 ? "relu6" : "hardtanh";
    if (relu6) {
        if (args_parse(a, fname, "def input, inplace=", v) < 0 || opt_bool(v[1], fname, "inplace", false, &inplace) < 0)
            return NULL;
        lo = 0, hi = 6;
    } else if (args_parse(a, fname, "def input, min_val=, max_val=, inplace=", v) < 0 ||
               opt_float(v[1], fname, "min_val", -1, &lo) < 0 || opt_float(v[2], fname, "max_val", 1, &hi) < 0 ||
               opt_bool(v[3], fname, "inplace", false, &inplace) < 0) {
        return NULL;
    }
    if (need_tensor(v[0], fname, "input", 1) < 0 || named_refused(inplace ? "aten::hardtanh_" : "aten::hardtanh", 1, v) < 0) return NULL;
    tsr_tensor *old;
    if (inplace_prep(v[0], inplace, &old) < 0) return NULL;
    tsr_ag_args ga = {.d0 = lo, .d1 = hi};
    return act_graph(tsr_nn_hardtanh(tensor_of(v[0]), lo, hi, inplace, "hardtanh"), v[0], inplace, "hardtanh", "hardtanh_",
                     &ga, old);
}

static Value *f_leaky_relu(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[3];
    double slope;
    bool inplace;
    if (args_parse(a, "leaky_relu", "def input, negative_slope=, inplace=", v) < 0 ||
        opt_float(v[1], "leaky_relu", "negative_slope", 0.01, &slope) < 0 ||
        opt_bool(v[2], "leaky_relu", "inplace", false, &inplace) < 0 || need_tensor(v[0], "leaky_relu", "input", 1) < 0 ||
        named_refused(inplace ? "aten::leaky_relu_" : "aten::leaky_relu", 1, v) < 0)
        return NULL;
    tsr_tensor *old;
    if (inplace_prep(v[0], inplace, &old) < 0) return NULL;
    tsr_ag_args ga = {.d0 = slope};
    return act_graph(tsr_nn_leaky_relu(tensor_of(v[0]), slope, inplace), v[0], inplace, "leaky_relu", "leaky_relu_", &ga, old);
}

static Value *f_silu(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[2];
    bool inplace;
    if (args_parse(a, "silu", "def input, inplace=", v) < 0 || opt_bool(v[1], "silu", "inplace", false, &inplace) < 0 ||
        need_tensor(v[0], "silu", "input", 1) < 0 || named_refused(inplace ? "aten::silu_" : "aten::silu", 1, v) < 0)
        return NULL;
    tsr_tensor *old;
    if (inplace_prep(v[0], inplace, &old) < 0) return NULL;
    tsr_ag_args ga = {0};
    return act_graph(tsr_nn_activation(TSR_NN_SILU, tensor_of(v[0]), 0, inplace), v[0], inplace, "silu", "silu_", &ga, old);
}

/* softsign(input), tanhshrink(input): Python compositions in 1.13 */
static Value *f_compose(Value *self, CallArgs *a, void *d)
{
    (void)self;
    const char *name = d;
    Value *v[1];
    if (args_parse(a, name, "def input", v) < 0) return NULL;
    if (!is_tensor(v[0]))
        return exc_set("AttributeError", "'%s' object has no attribute '%s'", v[0]->type->name,
                       strcmp(name, "softsign") ? "tanh" : "abs");
    tsr_tensor *x = tensor_of(v[0]);
    if (x->layout == TSR_LAYOUT_SPARSE_COO && !strcmp(name, "softsign"))   /* abs(s) + 1: add(sparse, dense) */
        return exc_set("RuntimeError", "add(sparse, dense) is not supported. Use add(dense, sparse) instead.");
    if (grad_needed(1, v) || x->layout == TSR_LAYOUT_SPARSE_COO) {   /* through torch's ops: input / (input.abs() + 1), input - input.tanh() */
        bool ss = !strcmp(name, "softsign");
        Value *t = call_attr(v[0], ss ? "abs" : "tanh", 0, NULL), *u = NULL, *r = NULL;
        if (t && ss) {
            Value *one = v_int(1);
            u = call_attr(t, "add", 1, &one);
            decref(one);
        } else if (t) {
            u = t;
            incref(u);
        }
        if (u) r = call_attr(v[0], ss ? "div" : "sub", 1, &u);
        if (t) decref(t);
        if (u) decref(u);
        return r;
    }
    return v_tensor(strcmp(name, "softsign") ? tsr_nn_tanhshrink(x) : tsr_nn_softsign(x));
}

/* hardsigmoid, hardswish(input, inplace=False) */
static Value *f_hard(Value *self, CallArgs *a, void *d)
{
    (void)self;
    const char *name = d;
    Value *v[2];
    bool inplace;
    char schema[32];
    snprintf(schema, sizeof schema, "aten::%s", name);
    if (args_parse(a, name, "def input, inplace=", v) < 0 || opt_bool(v[1], name, "inplace", false, &inplace) < 0)
        return NULL;
    if (inplace) strcat(schema, "_");   /* the in-place op 1.13 runs */
    if (need_tensor(v[0], name, "input", 1) < 0 || named_refused(schema, 1, v) < 0) return NULL;
    tsr_tensor *old;
    if (inplace_prep(v[0], inplace, &old) < 0) return NULL;
    tsr_nn_act act = strcmp(name, "hardswish") ? TSR_NN_HARDSIGMOID : TSR_NN_HARDSWISH;
    tsr_ag_args ga = {0};
    return act_graph(tsr_nn_activation(act, tensor_of(v[0]), 0, inplace), v[0], inplace, name,
                     act == TSR_NN_HARDSWISH ? "hardswish_" : "hardsigmoid_", &ga, old);
}

/* elu(input, alpha=1.0, inplace=False), selu(input, inplace=False),
 * celu(input, alpha=1.0, inplace=False), mish(input, inplace=False) */
static Value *f_elu(Value *self, CallArgs *a, void *d)
{
    (void)self;
    const char *name = d;
    bool has_alpha = !strcmp(name, "elu") || !strcmp(name, "celu"), inplace;
    Value *v[3] = {0};
    double alpha = 1.0;
    if (has_alpha) {
        if (args_parse(a, name, "def input, alpha=, inplace=", v) < 0 || opt_float(v[1], name, "alpha", 1.0, &alpha) < 0 ||
            opt_bool(v[2], name, "inplace", false, &inplace) < 0)
            return NULL;
    } else if (args_parse(a, name, "def input, inplace=", v) < 0 || opt_bool(v[1], name, "inplace", false, &inplace) < 0) {
        return NULL;
    }
    char op[32];
    snprintf(op, sizeof op, "%s%s", name, inplace ? "_" : "");
    if (need_tensor(v[0], op, "input", 1) < 0) return NULL;
    char schema[32];
    snprintf(schema, sizeof schema, "aten::%s%s", !strcmp(name, "mish") ? "mish" : !strcmp(name, "celu") ? "celu" : "elu",
             inplace ? "_" : "");
    if (named_refused(schema, 1, v) < 0) return NULL;
    tsr_tensor *old;
    if (inplace_prep(v[0], inplace, &old) < 0) return NULL;
    tsr_nn_act act = !strcmp(name, "mish") ? TSR_NN_MISH : !strcmp(name, "selu") ? TSR_NN_SELU
                   : !strcmp(name, "celu") ? TSR_NN_CELU : TSR_NN_ELU;
    /* selu is elu(x, SELU alpha, SELU scale) in 1.13: EluBackward0 */
    tsr_ag_args ga = {.d0 = alpha, .d1 = 1.0};
    const char *key = act == TSR_NN_MISH ? "mish" : act == TSR_NN_CELU ? "celu" : "elu";
    if (act == TSR_NN_SELU) ga.d0 = 1.6732632423543772848170429916717, ga.d1 = 1.0507009873554804934193349852946;
    return act_graph(tsr_nn_activation(act, tensor_of(v[0]), alpha, inplace), v[0], inplace, key,
                     act == TSR_NN_MISH ? "mish_" : act == TSR_NN_CELU ? "celu_" : "elu_", &ga, old);
}

/* gelu(input, *, approximate='none') and softplus(input, beta=1,
 * threshold=20): ATen functions in 1.13 */
static Value *f_gelu(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[3];
    tsr_tensor *out;
    if (args_parse(a, "gelu", "input, *, approximate=, out=", v) < 0 || need_tensor(v[0], "gelu", "input", 1) < 0 ||
        named_refused("aten::gelu", 1, v) < 0)
        return NULL;
    if (v[1] && v[1]->type != &t_str)
        return exc_set("TypeError", "gelu(): argument 'approximate' must be str, not %s", v[1]->type->name);
    if (ops_out_arg(v[2], "gelu", "gelu", 1, v, &out) < 0) return NULL;
    tsr_ag_args ga = {.flag = v[1] && !strcmp(v[1]->u.s.p, "tanh")};
    tsr_tensor *in = tensor_of(v[0]);
    const char *approx = v[1] ? v[1]->u.s.p : "none";
    if (out) {
        tsr_tensor *r = tsr_nn_gelu_out(in, approx, out);
        ops_warn();
        return ops_finish(r, v[2]);
    }
    return graph(tsr_nn_gelu(in, approx), "gelu", 1, &in, &ga, 0, NULL);
}

static Value *f_softplus(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[4];
    double beta, th;
    tsr_tensor *out;
    if (args_parse(a, "softplus", "input, beta=, threshold=, *, out=", v) < 0 ||
        need_tensor(v[0], "softplus", "input", 1) < 0)
        return NULL;
    for (int i = 1; i < 3; i++)   /* Scalar beta=1, Scalar threshold=20 */
        if (v[i] && v[i]->type != &t_int && v[i]->type != &t_float && v[i]->type != &t_bool)
            return exc_set("TypeError", "softplus(): argument '%s' (position %d) must be Number, not %s",
                           i == 1 ? "beta" : "threshold", i + 1, type_name(v[i]));
    if (opt_float(v[1], "softplus", "beta", 1.0, &beta) < 0 ||
        opt_float(v[2], "softplus", "threshold", 20.0, &th) < 0 || named_refused("aten::softplus", 1, v) < 0 ||
        ops_out_arg(v[3], "softplus", "softplus", 1, v, &out) < 0)
        return NULL;
    tsr_ag_args ga = {.d0 = beta, .d1 = th};
    tsr_tensor *in = tensor_of(v[0]);
    if (out) {
        tsr_tensor *r = tsr_nn_softplus_out(in, beta, th, out);
        ops_warn();
        return ops_finish(r, v[3]);
    }
    return graph(tsr_nn_softplus(in, beta, th), "softplus", 1, &in, &ga, 0, NULL);
}

/* threshold(input, threshold, value, inplace=False) */
static Value *f_threshold(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[4];
    double th, val;
    bool inplace;
    if (args_parse(a, "threshold", "def input, threshold, value, inplace=", v) < 0 ||
        args_float(v[1], "threshold", "threshold", &th) < 0 || args_float(v[2], "threshold", "value", &val) < 0 ||
        opt_bool(v[3], "threshold", "inplace", false, &inplace) < 0 || need_tensor(v[0], "threshold", "input", 1) < 0)
        return NULL;
    tsr_tensor *old;
    if (inplace_prep(v[0], inplace, &old) < 0) return NULL;
    tsr_ag_args ga = {.d0 = th};
    return act_graph(tsr_nn_threshold(tensor_of(v[0]), th, val, inplace), v[0], inplace, "threshold", "threshold_", &ga, old);
}

/* logsigmoid(input): torch._C._nn.log_sigmoid, log_sigmoid_forward's output */
static Value *f_logsigmoid(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[2];
    tsr_tensor *out;
    if (args_parse(a, "log_sigmoid", "input, *, out=", v) < 0 || need_tensor(v[0], "log_sigmoid", "input", 1) < 0 ||
        named_refused("aten::log_sigmoid_forward", 1, v) < 0 ||
        ops_out_arg(v[1], "log_sigmoid", "log_sigmoid_forward", 1, v, &out) < 0)
        return NULL;
    tsr_ag_args ga = {0};
    tsr_tensor *in = tensor_of(v[0]);
    if (out) return ops_finish(tsr_nn_log_sigmoid_out(in, out), v[1]);
    return graph(tsr_nn_log_sigmoid(in), "log_sigmoid", 1, &in, &ga, 0, NULL);
}

/* F.sigmoid(input) and F.tanh(input): input.sigmoid() / input.tanh() */
static Value *f_unary(Value *self, CallArgs *a, void *d)
{
    (void)self;
    const char *name = d;
    Value *v[1];
    if (args_parse(a, name, "def input", v) < 0) return NULL;
    return call_attr(v[0], name, 0, NULL);
}

/* softmax, log_softmax, softmin(input, dim=None, _stacklevel=3, dtype=None) */
static Value *f_softmax(Value *self, CallArgs *a, void *d)
{
    (void)self;
    const char *name = d;
    Value *v[4];
    if (args_parse(a, name, "def input, dim=, _stacklevel=, dtype=", v) < 0) return NULL;
    if (!is_tensor(v[0])) return exc_set("AttributeError", "'%s' object has no attribute '%s'", v[0]->type->name,
                                         strcmp(name, "softmin") ? name : "__neg__");
    tsr_tensor *x = tensor_of(v[0]);
    int64_t dim;
    if (!v[1] || is_none(v[1])) {
        char msg[160];
        snprintf(msg, sizeof msg, "Implicit dimension choice for %s has been deprecated. Change the call to include "
                 "dim=X as an argument.", name);
        warn(msg);
        dim = x->ndim == 0 || x->ndim == 1 || x->ndim == 3 ? 0 : 1;
    } else if (args_int(v[1], name, "dim", &dim) < 0) {
        return NULL;
    }
    tsr_dtype dt = TSR_DTYPE_UNDEFINED;
    if (v[3] && !is_none(v[3])) {
        if (!is_dtype(v[3])) return exc_set("TypeError", "%s(): argument 'dtype' must be torch.dtype, not %s", name,
                                            v[3]->type->name);
        dt = dtype_of(v[3]);
    }
    (void)dt;
    /* input.softmax(dim[, dtype=]), (-input).softmax(...) for softmin */
    Value *in = v[0], *neg = NULL;
    if (!strcmp(name, "softmin")) {
        if (!(neg = call_attr(v[0], "neg", 0, NULL))) return NULL;
        in = neg;
    }
    Value *m = value_getattr(in, strcmp(name, "log_softmax") ? "softmax" : "log_softmax"), *r = NULL;
    if (m) {
        Value *dv = v_int(dim), *pos[1] = {dv}, *kw[1] = {v[3]};
        const char *kwn[1] = {"dtype"};
        CallArgs c = {pos, 1, kwn, kw, v[3] && !is_none(v[3]) ? 1 : 0};
        r = value_call(m, &c);
        decref(dv);
        decref(m);
    }
    if (neg) decref(neg);
    return r;
}

/* ------------------------------------------------------------ linear, normalize, one_hot */

/* linear: torch.addmm(bias, input, weight.t()) for a 2-D input with bias,
 * else torch.matmul(input, weight.t()) then .add_(bias), as 1.13 (and its
 * linear_out with out= passed on). */
/* torch.fn(args..., out=o) when o is given */
static Value *call_out(const char *fn, int n, Value **args, Value *o)
{
    Value *f = value_getattr(bind_module("torch"), fn);
    if (!f) return NULL;
    const char *kwn[1] = {"out"};
    Value *kw[1] = {o};
    CallArgs c = {args, n, kwn, kw, o ? 1 : 0};
    Value *r = value_call(f, &c);
    decref(f);
    return r;
}

static Value *f_linear(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[4];
    tsr_tensor *out;
    if (args_parse(a, "linear", "input, weight, bias=, *, out=", v) < 0 ||
        need_tensor(v[0], "linear", "input", 1) < 0 || need_tensor(v[1], "linear", "weight", 2) < 0)
        return NULL;
    bool hb = v[2] && !is_none(v[2]);
    if (hb && need_tensor(v[2], "linear", "bias", 3) < 0) return NULL;
    if (ops_out_arg(v[3], "linear", "linear", 3, v, &out) < 0) return NULL;
    Value *o = out ? v[3] : NULL;
    Value *wt = call_attr(v[1], "t", 0, NULL), *r = NULL;
    if (!wt) return NULL;
    tsr_tensor *xt = tensor_of(v[0]);
    if (hb && xt->ndim == 2) {
        Value *args[3] = {v[2], v[0], wt};
        r = call_out("addmm", 3, args, o);
    } else if (hb && !o && xt->ndim == 3 && tsr_tensor_is_contiguous(xt)) {   /* 1.13's fused path for contiguous 3-D input */
        Value *sz[2] = {v_int(xt->sizes[0] * xt->sizes[1]), v_int(xt->sizes[2])}, *xv = call_attr(v[0], "view", 2, sz);
        decref(sz[0]);
        decref(sz[1]);
        Value *args[3] = {v[2], xv, wt}, *mm = xv ? call_out("addmm", 3, args, NULL) : NULL;
        if (xv) decref(xv);
        if (mm) {
            Value *s3[3] = {v_int(xt->sizes[0]), v_int(xt->sizes[1]), v_int(tensor_of(mm)->sizes[1])};
            r = call_attr(mm, "view", 3, s3);
            for (int i = 0; i < 3; i++) decref(s3[i]);
            decref(mm);
        }
    } else {
        Value *args[2] = {v[0], wt};
        r = call_out("matmul", 2, args, o);
        if (r && hb) {
            Value *s2 = call_attr(r, "add_", 1, &v[2]);
            decref(r);
            r = s2;
        }
    }
    decref(wt);
    return r;
}

static Value *f_normalize(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[5];
    double p, eps;
    int64_t dim = 1;
    if (args_parse(a, "normalize", "def input, p=, dim=, eps=, out=", v) < 0 ||
        opt_float(v[1], "normalize", "p", 2.0, &p) < 0 || (v[2] && args_int(v[2], "normalize", "dim", &dim) < 0) ||
        opt_float(v[3], "normalize", "eps", 1e-12, &eps) < 0)
        return NULL;
    if (!is_tensor(v[0])) return exc_set("AttributeError", "'%s' object has no attribute 'norm'", v[0]->type->name);
    if (named_refused("aten::norm.ScalarOpt_dim", 1, v) < 0) return NULL;
    bool ho = v[4] && !is_none(v[4]);
    if (!ho && grad_needed(1, v)) {   /* input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input) */
        Value *pv = v_float(p), *dv = v_int(dim), *kv = v_bool(true), *ev = v_float(eps);
        Value *na[3] = {pv, dv, kv}, *nm = call_attr(v[0], "norm", 3, na), *cm = NULL, *ex = NULL, *r = NULL;
        if (nm) cm = call_attr(nm, "clamp_min", 1, &ev);
        if (cm) ex = call_attr(cm, "expand_as", 1, &v[0]);
        if (ex) {
            Value *da[2] = {v[0], ex};
            r = call_attr(bind_module("torch"), "div", 2, da);
        }
        Value *tmp[7] = {pv, dv, kv, ev, nm, cm, ex};
        for (int i = 0; i < 7; i++)
            if (tmp[i]) decref(tmp[i]);
        return r;
    }
    if (ho && need_tensor(v[4], "div", "out", 3) < 0) return NULL;
    tsr_tensor *r = tsr_nn_normalize(tensor_of(v[0]), p, dim, eps, ho ? tensor_of(v[4]) : NULL);
    if (!r) return bind_runtime_error();
    return ho ? ops_finish(r, v[4]) : v_tensor(r);
}

static Value *f_one_hot(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[2];
    int64_t n = -1;
    if (args_parse(a, "one_hot", "tensor, num_classes=", v) < 0 || need_tensor(v[0], "one_hot", "tensor", 1) < 0 ||
        named_refused("aten::unsqueeze", 1, v) < 0 || grad_refused("unsqueeze", 1, v) < 0 ||
        (v[1] && args_int(v[1], "one_hot", "num_classes", &n) < 0))
        return NULL;
    return v_tensor(tsr_nn_one_hot(tensor_of(v[0]), n));
}

/* ------------------------------------------------------------ losses */

/* _Reduction.legacy_get_string / get_enum: -1 with the error. */
static int reduction_of(Value *size_average, Value *reduce, Value *reduction, tsr_reduction *out)
{
    const char *s = "mean";
    if ((size_average && !is_none(size_average)) || (reduce && !is_none(reduce))) {
        bool sa = true, rd = true;
        if (size_average && !is_none(size_average)) sa = value_truth(size_average) == 1;
        if (reduce && !is_none(reduce)) rd = value_truth(reduce) == 1;
        s = sa && rd ? "mean" : rd ? "sum" : "none";
        char msg[160];
        snprintf(msg, sizeof msg, "size_average and reduce args will be deprecated, please use reduction='%s' instead.",
                 s);
        warn(msg);
    } else if (reduction) {
        if (reduction->type != &t_str) {
            char buf[128];
            Value *r = value_str(reduction);
            snprintf(buf, sizeof buf, "%s", r ? r->u.s.p : "?");
            if (r) decref(r);
            return exc_set("ValueError", "%s is not a valid value for reduction", buf), -1;
        }
        s = reduction->u.s.p;
    }
    if (!strcmp(s, "none")) *out = TSR_REDUCTION_NONE;
    else if (!strcmp(s, "mean")) *out = TSR_REDUCTION_MEAN;
    else if (!strcmp(s, "sum")) *out = TSR_REDUCTION_SUM;
    else if (!strcmp(s, "elementwise_mean")) {
        warn("reduction='elementwise_mean' is deprecated, please use reduction='mean' instead.");
        *out = TSR_REDUCTION_MEAN;
    } else {
        return exc_set("ValueError", "%s is not a valid value for reduction", s), -1;
    }
    return 0;
}

/* "[2, 3]" */
char *bind_sizes_str(char *buf, size_t n, const tsr_tensor *t)
{
    size_t k = (size_t)snprintf(buf, n, "[");
    for (int i = 0; i < t->ndim && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? ", " : "", (long long)t->sizes[i]);
    if (k < n) snprintf(buf + k, n - k, "]");
    return buf;
}

/* mse_loss, l1_loss(input, target, size_average=None, reduce=None,
 * reduction='mean'), smooth_l1_loss(..., beta=1.0), huber_loss(input,
 * target, reduction='mean', delta=1.0) */
static Value *f_pointwise_loss(Value *self, CallArgs *a, void *d)
{
    (void)self;
    const char *name = d;
    Value *v[6] = {0};
    tsr_reduction red;
    double beta = 1.0;
    bool huber = !strcmp(name, "huber_loss"), sl1 = !strcmp(name, "smooth_l1_loss");
    if (huber) {
        Value *h[4];
        if (args_parse(a, name, "def input, target, reduction=, delta=", h) < 0) return NULL;
        v[0] = h[0], v[1] = h[1], v[4] = h[2], v[5] = h[3];
    } else if (args_parse(a, name, sl1 ? "def input, target, size_average=, reduce=, reduction=, beta="
                                       : "def input, target, size_average=, reduce=, reduction=", v) < 0) {
        return NULL;
    }
    if (opt_float(v[5], name, huber ? "delta" : "beta", 1.0, &beta) < 0) return NULL;
    if (!is_tensor(v[1])) return exc_set("AttributeError", "'%s' object has no attribute 'size'", v[1]->type->name);
    if (!is_tensor(v[0])) return exc_set("AttributeError", "'%s' object has no attribute 'size'", v[0]->type->name);
    tsr_tensor *x = tensor_of(v[0]), *t = tensor_of(v[1]);
    if (x->ndim != t->ndim || memcmp(x->sizes, t->sizes, sizeof(int64_t) * (size_t)x->ndim)) {
        char a1[256], a2[256], msg[700];
        snprintf(msg, sizeof msg, "Using a target size (torch.Size(%s)) that is different to the input size "
                 "(torch.Size(%s)). This will likely lead to incorrect results due to broadcasting. Please ensure "
                 "they have the same size.", bind_sizes_str(a1, sizeof a1, t), bind_sizes_str(a2, sizeof a2, x));
        warn(msg);
    }
    if (reduction_of(v[2], v[3], v[4], &red) < 0) return NULL;
    bool same_shape = x->ndim == t->ndim && !memcmp(x->sizes, t->sizes, sizeof(int64_t) * (size_t)x->ndim);
    if (grad_needed(2, v) && !same_shape && grad_refused(name, 2, v) < 0) return NULL;
    if (grad_needed(2, v) && !strcmp(name, "l1_loss")) {   /* (input - target).abs(), then mean() / sum() */
        Value *df = call_attr(v[0], "sub", 1, &v[1]), *ab = df ? call_attr(df, "abs", 0, NULL) : NULL, *r = ab;
        if (df) decref(df);
        if (ab && red != TSR_REDUCTION_NONE) {
            r = call_attr(ab, red == TSR_REDUCTION_MEAN ? "mean" : "sum", 0, NULL);
            decref(ab);
        }
        return r;
    }
    if (strcmp(name, "l1_loss")) {
        char schema[40];
        snprintf(schema, sizeof schema, "aten::%s", name);
        if (named_refused(schema, 2, v) < 0) return NULL;
    } else if ((x->names || t->names) && (x->ndim != t->ndim || memcmp(x->sizes, t->sizes, sizeof(int64_t) * (size_t)x->ndim))) {
        return exc_set("NotImplementedError", "l1_loss of named tensors of different shapes is not supported by tsr yet");
    }
    const tsr_tensor *ts[2] = {x, t};
    tsr_tensor *bt[2];
    bool same = x->ndim == t->ndim && !memcmp(x->sizes, t->sizes, sizeof(int64_t) * (size_t)x->ndim);
    if (same) {   /* broadcast_tensors of same shapes: the tensors themselves (names kept) */
        bt[0] = tsr_tensor_retain(x);
        bt[1] = tsr_tensor_retain(t);
    } else if (tsr_broadcast_tensors(2, ts, bt) < 0) {
        return bind_runtime_error();
    }
    tsr_tensor *r = !strcmp(name, "mse_loss") ? tsr_nn_mse_loss(bt[0], bt[1], red)
                    : huber                       ? tsr_nn_huber_loss(bt[0], bt[1], red, beta)
                    : sl1                         ? tsr_nn_smooth_l1_loss(bt[0], bt[1], red, beta)
                                                  : tsr_nn_l1_loss(bt[0], bt[1], red);
    if (r && same && tsr_ag_needed(2, bt)) {
        tsr_ag_args ga = {.i0 = red, .d0 = beta};
        if (sl1 && r->dtype == TSR_BFLOAT16) {   /* its bfloat16 kernel rounds differently */
            tsr_tensor_release(bt[0]);
            tsr_tensor_release(bt[1]);
            tsr_tensor_release(r);
            return exc_set("NotImplementedError", "the derivative for 'smooth_l1_loss' of bfloat16 is not supported by tsr yet");
        }
        if (tsr_ag_record(name, 2, bt, &ga, r, false) < 0) {
            tsr_tensor_release(r);
            r = NULL;
        }
    }
    tsr_tensor_release(bt[0]);
    tsr_tensor_release(bt[1]);
    return v_tensor(r);
}

/* One step of a composition: out (a runtime result; NULL: its error)
 * recorded as key over in[0..n-1]; the step's args are built by the caller.
 * out, or NULL with the exception (out released). */
static tsr_tensor *step(tsr_tensor *out, const char *key, int n, tsr_tensor *const *in, const tsr_ag_args *a)
{
    if (!out || tsr_ag_record(key, n, in, a, out, false) < 0) {
        tsr_tensor_release(out);
        bind_runtime_error();
        return NULL;
    }
    return out;
}

static tsr_tensor *bin2(tsr_binop op, const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    return tsr_binary(op, &x, &y, NULL, NULL);
}

static tsr_tensor *bin_sc(tsr_binop op, const tsr_tensor *a, tsr_scalar sc)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_scalar(sc);
    return tsr_binary(op, &x, &y, NULL, NULL);
}

/* cross_entropy with class probabilities or label smoothing, as 1.13's
 * cross_entropy_loss_prob_target / cross_entropy_loss_label_smoothing
 * compose it (log_softmax, then products, sums and the reduction), each
 * step recorded as 1.13's graph has it. NEW value or NULL. */
static Value *ce_composed(tsr_tensor *x, tsr_tensor *target, tsr_tensor *w, tsr_reduction red, int64_t ignore,
                          double ls, bool probs)
{
    enum { NT = 48 };   /* the longest path (probabilities, weight, ignore_index, mean) holds about 20 */
    tsr_tensor *t[NT] = {0}, *r = NULL;
    int k = 0;
    int64_t cd = x->ndim == 1 ? 0 : 1, ncls = x->ndim ? x->sizes[cd] : 1;
    tsr_ag_args a0 = {.ndims = -1}, ad = {.ndims = 1, .dims = {cd}}, al = {.i0 = cd};
    if (ls > 1.0) {
        exc_set("RuntimeError", "label_smoothing must be between 0.0 and 1.0. Got: %g", ls);
        return NULL;
    }
    if (probs && !tsr_dtype_is_floating(target->dtype)) {
        exc_set("RuntimeError", "Expected floating point type for target with class probabilities, got %s",
                tsr_dtype_scalar_name(target->dtype));
        return NULL;
    }
    if (w && (w->ndim != 1 || w->sizes[0] != ncls))
        return grad_refused_msg("cross_entropy with a weight of another size");
    if (probs && tsr_tensor_numel(x) == 0 && red == TSR_REDUCTION_MEAN)
        return grad_refused_msg("cross_entropy of an empty input with class probabilities");
    tsr_tensor *wv = NULL;
    if (w && x->ndim > 1) {   /* weight viewed [1, C, 1, ...] */
        int64_t shape[TSR_MAX_DIMS];
        for (int i = 0; i < x->ndim; i++) shape[i] = i == cd ? ncls : 1;
        if (!(t[k++] = wv = tsr_view_view(w, x->ndim, shape))) goto fail_rt;
    } else if (w) {
        wv = w;
    }
#define STEP(expr, key, n, ...) \
    do { \
        tsr_tensor *o_ = (expr), *in_[] = {__VA_ARGS__}; \
        t[k] = step(o_, key, n, in_, &AG); \
        if (!t[k++]) goto fail; \
    } while (0)
    tsr_ag_args AG = al;
    STEP(tsr_softmax(x, cd, x->dtype, true), "log_softmax", 1, x);
    tsr_tensor *lsm = t[k - 1];
    if (probs) {
        tsr_tensor *tg = target;
        if (ls > 0.0) {   /* target * (1 - label_smoothing) + label_smoothing / n_classes */
            if (tsr_tensor_requires_grad(target)) return grad_refused_msg("label smoothing of a target that requires grad");
            tsr_tensor *sc = bin_sc(TSR_BINOP_MUL, target, tsr_scalar_float(1 - ls));
            if (!(t[k++] = sc) || !(t[k++] = tg = bin_sc(TSR_BINOP_ADD, sc, tsr_scalar_float(ls / (double)ncls))))
                goto fail_rt;
        }
        AG = a0;
        STEP(bin2(TSR_BINOP_MUL, lsm, tg), "mul", 2, lsm, tg);
        if (wv) STEP(bin2(TSR_BINOP_MUL, t[k - 1], wv), "mul", 2, t[k - 1], wv);
        tsr_tensor *m = t[k - 1];
        if (red == TSR_REDUCTION_NONE) {
            AG = ad;
            tsr_dims d = {.n = 1, .d = {cd}};
            STEP(tsr_sum(m, &d, false, TSR_DTYPE_UNDEFINED, NULL), "sum_dim", 1, m);
        } else {
            tsr_dims all = {.n = -1};
            STEP(tsr_sum(m, &all, false, TSR_DTYPE_UNDEFINED, NULL), "sum", 1, m);
        }
        AG = a0;
        STEP(tsr_unary(TSR_UNOP_NEG, t[k - 1], NULL, NULL), "neg", 1, t[k - 1]);
        if (red == TSR_REDUCTION_MEAN) {
            int64_t cnt = tsr_tensor_numel(x) / ncls;
            AG.d0 = (double)cnt;
            STEP(bin_sc(TSR_BINOP_DIV, t[k - 1], tsr_scalar_int(cnt)), "div_s", 1, t[k - 1]);
        }
        r = tsr_tensor_retain(t[k - 1]);
        goto done;
    }
    /* class indices with label smoothing */
    double tw = 0;
    tsr_ag_args an = {.i0 = red, .i1 = ignore};
    tsr_tensor *nll = tsr_nn_nll_loss(lsm, target, w, red, ignore, &tw);
    an.d0 = tw;
    if (!(t[k++] = step(nll, "nll_loss", 1, &lsm, &an))) goto fail;
    if (tsr_ag_keep(nll, target) < 0 || (w && tsr_ag_keep(nll, w) < 0)) goto fail_rt;
    tsr_operand ig = tsr_operand_scalar(tsr_scalar_int(ignore)), to = tsr_operand_tensor(target);
    tsr_tensor *mask = tsr_compare(TSR_CMP_EQ, &to, &ig, NULL);
    if (!(t[k++] = mask)) goto fail_rt;
    tsr_tensor *src = lsm;
    if (wv) {
        AG = a0;
        STEP(bin2(TSR_BINOP_MUL, lsm, wv), "mul", 2, lsm, wv);
        src = t[k - 1];
    }
    AG = ad;
    tsr_dims d1 = {.n = 1, .d = {cd}};
    STEP(tsr_sum(src, &d1, false, TSR_DTYPE_UNDEFINED, NULL), "sum_dim", 1, src);
    AG = a0;
    STEP(tsr_unary(TSR_UNOP_NEG, t[k - 1], NULL, NULL), "neg", 1, t[k - 1]);
    tsr_tensor *zero = tsr_full(0, NULL, tsr_scalar_float(0.0), t[k - 1]->dtype, TSR_CPU);
    if (!(t[k++] = zero)) goto fail_rt;
    {   /* smooth_loss.index_put_({ignore_mask}, 0.0): IndexPutBackward0 over (smooth_loss, None) */
        tsr_operand zo = tsr_operand_scalar(tsr_scalar_float(0.0));
        tsr_tensor *sm = t[k - 2];
        STEP(tsr_masked_fill(sm, mask, &zo), "index_put_mask", 2, sm, zero);
        if (tsr_ag_keep(t[k - 1], mask) < 0) goto fail_rt;
    }
    tsr_tensor *smooth = t[k - 1];
    tsr_dims all = {.n = -1};
    if (red == TSR_REDUCTION_MEAN && !w) {   /* smooth_loss.masked_select(~ignore_mask).mean() */
        tsr_tensor *keepm = tsr_predicate(TSR_PRED_LOGICAL_NOT, mask, NULL);
        if (!(t[k++] = keepm)) goto fail_rt;
        STEP(tsr_masked_select(smooth, keepm), "masked_select", 1, smooth);
        if (tsr_ag_keep(t[k - 1], keepm) < 0) goto fail_rt;
        STEP(tsr_mean(t[k - 1], &all, false, TSR_DTYPE_UNDEFINED, NULL), "mean", 1, t[k - 1]);
    } else if (red == TSR_REDUCTION_MEAN) {   /* smooth_loss.sum() / weight.gather(0, target[~mask]).sum() */
        tsr_tensor *keepm = tsr_predicate(TSR_PRED_LOGICAL_NOT, mask, NULL), *sel = NULL, *g = NULL, *den = NULL;
        if (!(t[k++] = keepm) || !(t[k++] = sel = tsr_masked_select(target, keepm)) ||
            !(t[k++] = g = tsr_index_select(w, 0, sel)) || !(t[k++] = den = tsr_sum(g, &all, false, TSR_DTYPE_UNDEFINED, NULL)))
            goto fail_rt;
        STEP(tsr_sum(smooth, &all, false, TSR_DTYPE_UNDEFINED, NULL), "sum", 1, smooth);
        STEP(bin2(TSR_BINOP_DIV, t[k - 1], den), "div", 2, t[k - 1], den);
    } else if (red == TSR_REDUCTION_SUM) {
        STEP(tsr_sum(smooth, &all, false, TSR_DTYPE_UNDEFINED, NULL), "sum", 1, smooth);
    }
    tsr_tensor *ret = red == TSR_REDUCTION_NONE ? smooth : t[k - 1];
    AG = a0;
    AG.d0 = 1 - ls;
    STEP(bin_sc(TSR_BINOP_MUL, nll, tsr_scalar_float(1 - ls)), "mul_s", 1, nll);
    tsr_tensor *pa = t[k - 1];
    AG.d0 = ls / (double)ncls;
    STEP(bin_sc(TSR_BINOP_MUL, ret, tsr_scalar_float(ls / (double)ncls)), "mul_s", 1, ret);
    AG = a0;
    STEP(bin2(TSR_BINOP_ADD, pa, t[k - 1]), "add", 2, pa, t[k - 1]);
    r = tsr_tensor_retain(t[k - 1]);
#undef STEP
done:
    for (int i = 0; i < k; i++)
        if (t[i] != w) tsr_tensor_release(t[i]);
    return v_tensor(r);
fail_rt:
    bind_runtime_error();
fail:
    for (int i = 0; i < k; i++)
        if (t[i] != w) tsr_tensor_release(t[i]);
    return NULL;
}

/* nll_loss_nd of an input of 3 or more dims as 1.13 records it: a 4-D
 * input goes to nll_loss2d as it is (NllLoss2DBackward0); another is made
 * contiguous (CloneBackward0 when that copies) and viewed as (N, C, 1, -1)
 * (ViewBackward0), and an unreduced result is viewed back (ViewBackward0).
 * NEW value or NULL. */
static Value *nll_spatial_graph(tsr_tensor *x, tsr_tensor *t, const tsr_tensor *w, tsr_reduction red, int64_t ignore)
{
    tsr_ag_args ga = {.i0 = red, .i1 = ignore}, a0 = {0};
    double tw = 0;
    const tsr_tensor *kept[2] = {NULL, w};
    if (x->ndim == 4) {
        tsr_tensor *r = tsr_nn_nll_loss2d(x, t, w, red, ignore, &tw);
        ga.d0 = tw;
        kept[0] = t;
        return graph(r, "nll_loss2d", 1, &x, &ga, 2, kept);
    }
    tsr_tensor *xv = NULL, *tv = NULL, *xc = NULL, *r = NULL;
    if (tsr_nn_nll_loss_nd_views(x, t, &xv, &tv) < 0) return bind_runtime_error();
    tsr_tensor_release(xv);
    xv = NULL;
    int64_t xs[4] = {x->sizes[0], x->sizes[1], 1, -1};
    if (tsr_tensor_numel(x) == 0) xs[2] = xs[3] = 0;
    if (!(xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS))) goto fail_rt;
    if (xc != x && tsr_ag_record("clone", 1, &x, &a0, xc, false) < 0) goto fail_rt;
    if (!(xv = tsr_view_view(xc, 4, xs)) || tsr_ag_record("view", 1, &xc, &a0, xv, false) < 0) goto fail_rt;
    r = tsr_nn_nll_loss2d(xv, tv, w, red, ignore, &tw);
    ga.d0 = tw;
    kept[0] = tv;
    Value *out = graph(r, "nll_loss2d", 1, &xv, &ga, 2, kept);
    r = NULL;
    if (out && red == TSR_REDUCTION_NONE) {
        int64_t os[TSR_MAX_DIMS];
        os[0] = x->sizes[0];
        for (int i = 2; i < x->ndim; i++) os[i - 1] = x->sizes[i];
        tsr_tensor *o = tensor_of(out), *ov = tsr_view_view(o, x->ndim - 1, os);
        if (!ov || tsr_ag_record("view", 1, &o, &a0, ov, false) < 0) {
            tsr_tensor_release(ov);
            decref(out);
            out = NULL;
            bind_runtime_error();
        } else {
            decref(out);
            out = v_tensor(ov);
        }
    }
    tsr_tensor_release(xc);
    tsr_tensor_release(xv);
    tsr_tensor_release(tv);
    return out;
fail_rt:
    bind_runtime_error();
    tsr_tensor_release(r);
    tsr_tensor_release(xc);
    tsr_tensor_release(xv);
    tsr_tensor_release(tv);
    return NULL;
}

/* nll_loss(input, target, weight=None, size_average=None, ignore_index=-100,
 * reduce=None, reduction='mean'); cross_entropy adds label_smoothing=0.0 */
static Value *f_nll(Value *self, CallArgs *a, void *d)
{
    (void)self;
    bool ce = d != NULL;
    const char *name = ce ? "cross_entropy" : "nll_loss";
    Value *v[8] = {0};
    tsr_reduction red;
    int64_t ignore = -100;
    double ls = 0;
    if (args_parse(a, name, ce ? "def input, target, weight=, size_average=, ignore_index=, reduce=, reduction=, "
                                 "label_smoothing="
                               : "def input, target, weight=, size_average=, ignore_index=, reduce=, reduction=",
                   v) < 0)
        return NULL;
    if (reduction_of(v[3], v[5], v[6], &red) < 0) return NULL;
    const char *op = ce ? "cross_entropy_loss" : "nll_loss_nd";
    if (need_tensor(v[0], op, "input", 1) < 0 || need_tensor(v[1], op, "target", 2) < 0 ||
        named_refused("aten::nll_loss_forward", 3, v) < 0)
        return NULL;
    bool hw = v[2] && !is_none(v[2]);
    if (hw && need_tensor(v[2], op, "weight", 3) < 0) return NULL;
    if (v[4] && args_int(v[4], name, "ignore_index", &ignore) < 0) return NULL;
    if (ce && opt_float(v[7], name, "label_smoothing", 0.0, &ls) < 0) return NULL;
    const tsr_tensor *w = hw ? tensor_of(v[2]) : NULL;
    if (grad_needed(3, v)) {
        tsr_tensor *x = tensor_of(v[0]), *t = tensor_of(v[1]);
        bool probs = t->ndim == x->ndim && !memcmp(t->sizes, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
        if (not_differentiable("nll_loss_forward", "weight", v[2]) < 0) return NULL;
        if (ce && (probs || ls > 0.0)) return ce_composed(x, t, (tsr_tensor *)w, red, ignore, ls, probs);
        /* cross_entropy: log_softmax(input, class dim), then nll_loss_nd: NllLossBackward0 */
        Value *lsm = NULL;
        if (ce) {
            Value *dim = v_int(x->ndim == 1 ? 0 : 1);
            lsm = call_attr(v[0], "log_softmax", 1, &dim);
            decref(dim);
            if (!lsm) return NULL;
            x = tensor_of(lsm);
        }
        if (x->ndim > 2) {
            Value *out = tsr_nn_nll_loss_check(x, t) < 0 ? bind_runtime_error() : nll_spatial_graph(x, t, w, red, ignore);
            if (lsm) decref(lsm);
            return out;
        }
        double tw = 0;
        tsr_ag_args ga = {.i0 = red, .i1 = ignore};
        tsr_tensor *r = tsr_nn_nll_loss(x, t, w, red, ignore, &tw);
        ga.d0 = tw;
        const tsr_tensor *kept[2] = {t, w};
        Value *out = graph(r, "nll_loss", 1, &x, &ga, 2, kept);
        if (lsm) decref(lsm);
        return out;
    }
    if (ce) {
        tsr_tensor *x = tensor_of(v[0]), *t = tensor_of(v[1]);
        bool probs = t->ndim == x->ndim && !memcmp(t->sizes, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
        if (ls > 0.0 || (probs && w)) return ce_composed(x, t, (tsr_tensor *)w, red, ignore, ls, probs);
        return v_tensor(tsr_nn_cross_entropy(x, t, w, red, ignore, ls));
    }
    return v_tensor(tsr_nn_nll_loss(tensor_of(v[0]), tensor_of(v[1]), w, red, ignore, NULL));
}

/* binary_cross_entropy(input, target, weight=None, size_average=None,
 * reduce=None, reduction='mean') */
static Value *f_bce(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[6];
    tsr_reduction red;
    if (args_parse(a, "binary_cross_entropy", "def input, target, weight=, size_average=, reduce=, reduction=", v) < 0 ||
        reduction_of(v[3], v[4], v[5], &red) < 0)
        return NULL;
    if (!is_tensor(v[1])) return exc_set("AttributeError", "'%s' object has no attribute 'size'", v[1]->type->name);
    if (!is_tensor(v[0])) return exc_set("AttributeError", "'%s' object has no attribute 'size'", v[0]->type->name);
    if (named_refused("aten::binary_cross_entropy", 3, v) < 0 || (grad_needed(3, v) &&
        not_differentiable("binary_cross_entropy", "weight", v[2]) < 0))
        return NULL;
    tsr_tensor *x = tensor_of(v[0]), *t = tensor_of(v[1]), *w = NULL;
    if (x->ndim != t->ndim || memcmp(x->sizes, t->sizes, sizeof(int64_t) * (size_t)x->ndim)) {
        char a1[256], a2[256];
        return exc_set("ValueError", "Using a target size (torch.Size(%s)) that is different to the input size "
                       "(torch.Size(%s)) is deprecated. Please ensure they have the same size.",
                       bind_sizes_str(a1, sizeof a1, t), bind_sizes_str(a2, sizeof a2, x));
    }
    if (v[2] && !is_none(v[2])) {
        if (need_tensor(v[2], "binary_cross_entropy", "weight", 3) < 0) return NULL;
        if (!(w = tsr_view_expand(tensor_of(v[2]), t->ndim, t->sizes))) return bind_runtime_error();
    }
    tsr_tensor *r = tsr_nn_binary_cross_entropy(x, t, w, red), *in[2] = {x, t};
    tsr_ag_args ga = {.i0 = red};
    const tsr_tensor *kept[1] = {w};
    Value *out = graph(r, "binary_cross_entropy", 2, in, &ga, 1, kept);
    tsr_tensor_release(w);
    return out;
}

/* cosine_similarity with a graph, as 1.13 records it: each operand
 * expanded (ExpandBackward0), x / sqrt(sum(x ** 2, dim, keepdim)) with the
 * clamp to eps * eps made without grad, the product summed over dim. */
static Value *cos_graph(tsr_tensor *x1, tsr_tensor *x2, Value **v)
{
    int64_t dim = 1;
    double eps;
    if ((v[2] && args_int(v[2], "cosine_similarity", "dim", &dim) < 0) ||
        opt_float(v[3], "cosine_similarity", "eps", 1e-8, &eps) < 0)
        return NULL;
    if (x1->dtype != x2->dtype || !tsr_dtype_is_floating(x1->dtype))
        return grad_refused_msg("the gradient of cosine_similarity of operands of other dtypes");
    if (x1->names || x2->names) return exc_set("NotImplementedError", "cosine_similarity of named tensors is not supported by tsr yet");
    const tsr_tensor *xs[2] = {x1, x2};
    tsr_tensor *e[2] = {0}, *q[2] = {0}, *t[12] = {0}, *r = NULL;
    int k = 0;
    if (tsr_broadcast_tensors(2, xs, e) < 0) {
        bind_runtime_error();
        return NULL;
    }
    for (int i = 0; i < 2; i++) {   /* new headers: the expand's results, never the inputs themselves */
        tsr_tensor *ex = tsr_view_expand(xs[i], e[i]->ndim, e[i]->sizes);
        tsr_tensor_release(e[i]);
        e[i] = ex;
    }
    if (!e[0] || !e[1]) goto fail_rt;
    int nd = e[0]->ndim;
    int64_t wd = dim < 0 ? dim + nd : dim;
    tsr_ag_args a0 = {.ndims = -1}, ap = {.d0 = 2.0}, as = {.ndims = 1, .dims = {wd}, .keepdim = true};
    tsr_dims d = {.n = 1, .d = {dim}};
    tsr_operand lo = tsr_operand_scalar(tsr_scalar_float(eps * eps));
    for (int i = 0; i < 2; i++) {
        tsr_tensor *src = (tsr_tensor *)xs[i], *pw, *sm, *sq;
        if (!(t[k++] = step(tsr_tensor_retain(e[i]), "expand", 1, &src, &a0))) goto fail;
        if (!(t[k++] = pw = step(bin_sc(TSR_BINOP_POW, e[i], tsr_scalar_int(2)), "pow", 1, &e[i], &ap))) goto fail;
        if (!(t[k++] = sm = step(tsr_sum(pw, &d, true, TSR_DTYPE_UNDEFINED, NULL), "sum_dim", 1, &pw, &as))) goto fail;
        tsr_tensor *cl = tsr_clamp_bound(sm, &lo, false, sm, true);   /* under no_grad, in place */
        if (!cl) goto fail_rt;
        tsr_tensor_release(cl);
        if (!(t[k++] = sq = step(tsr_unary(TSR_UNOP_SQRT, sm, NULL, NULL), "sqrt", 1, &sm, &a0))) goto fail;
        tsr_tensor *in2[2] = {e[i], sq};
        if (!(q[i] = step(bin2(TSR_BINOP_DIV, e[i], sq), "div", 2, in2, &a0))) goto fail;
    }
    tsr_tensor *m = step(bin2(TSR_BINOP_MUL, q[0], q[1]), "mul", 2, q, &a0);
    if (!(t[k++] = m)) goto fail;
    tsr_ag_args ar = {.ndims = 1, .dims = {wd}};
    tsr_dims d2 = {.n = 1, .d = {dim}};
    r = step(tsr_sum(m, &d2, false, TSR_DTYPE_UNDEFINED, NULL), "sum_dim", 1, &m, &ar);
    goto done;
fail_rt:
    bind_runtime_error();
fail:
    r = NULL;
done:
    for (int i = 0; i < k; i++) tsr_tensor_release(t[i]);
    for (int i = 0; i < 2; i++) {
        tsr_tensor_release(e[i]);
        tsr_tensor_release(q[i]);
    }
    return r ? v_tensor(r) : NULL;
}

/* pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False) and
 * cosine_similarity(x1, x2, dim=1, eps=1e-8): ATen functions in 1.13 */
static Value *f_distance(Value *self, CallArgs *a, void *d)
{
    (void)self;
    bool cos = d != NULL;
    const char *name = cos ? "cosine_similarity" : "pairwise_distance";
    Value *v[5] = {0};
    if (args_parse(a, name, cos ? "x1, x2, dim=, eps=" : "x1, x2, p=, eps=, keepdim=", v) < 0 ||
        need_tensor(v[0], name, "x1", 1) < 0 || need_tensor(v[1], name, "x2", 2) < 0)
        return NULL;
    if (grad_needed(2, v) && !cos) {   /* norm(x1 - x2 + eps, p, -1, keepdim): NormBackward1 <- AddBackward1 <- SubBackward0 */
        double p, eps;
        bool keep;
        if (opt_float(v[2], name, "p", 2.0, &p) < 0 || opt_float(v[3], name, "eps", 1e-6, &eps) < 0 ||
            opt_bool(v[4], name, "keepdim", false, &keep) < 0)
            return NULL;
        tsr_tensor *x1 = tensor_of(v[0]), *x2 = tensor_of(v[1]), *d, *e;
        int od = x1->ndim > x2->ndim ? x1->ndim : x2->ndim;
        tsr_ag_args a0 = {.ndims = -1}, an = {.ndims = 1, .dims = {od - 1}, .keepdim = keep, .d0 = p};
        tsr_tensor *in2[2] = {x1, x2};
        if (!(d = step(bin2(TSR_BINOP_SUB, x1, x2), "sub", 2, in2, &a0))) return NULL;
        e = step(bin_sc(TSR_BINOP_ADD, d, tsr_scalar_float(eps)), "add_s", 1, &d, &a0);
        tsr_tensor_release(d);
        if (!e) return NULL;
        tsr_dims dim = {.n = 1, .d = {od - 1}};
        tsr_tensor *r = step(tsr_norm(e, p, &dim, keep, TSR_DTYPE_UNDEFINED, NULL), "norm", 1, &e, &an);
        tsr_tensor_release(e);
        return r ? v_tensor(r) : NULL;
    }
    if (grad_needed(2, v)) return cos_graph(tensor_of(v[0]), tensor_of(v[1]), v);
    if (!cos && named_refused("aten::norm.ScalarOpt_dim", 2, v) < 0) return NULL;
    if (cos) {
        int64_t dim = 1;
        double eps;
        if ((v[2] && args_int(v[2], name, "dim", &dim) < 0) || opt_float(v[3], name, "eps", 1e-8, &eps) < 0) return NULL;
        tsr_name nm[TSR_MAX_NAMED_DIMS];
        int nn;
        if (tsr_names_cosine_similarity(tensor_of(v[0]), tensor_of(v[1]), dim, nm, &nn) < 0) return bind_runtime_error();
        tsr_tensor *r = tsr_nn_cosine_similarity(tensor_of(v[0]), tensor_of(v[1]), dim, eps);
        if (r && nn >= 0 && tsr_names_propagate(r, nm, nn) < 0) {
            tsr_tensor_release(r);
            r = NULL;
        }
        return v_tensor(r);
    }
    double p, eps;
    bool keep;
    if (opt_float(v[2], name, "p", 2.0, &p) < 0 || opt_float(v[3], name, "eps", 1e-6, &eps) < 0 ||
        opt_bool(v[4], name, "keepdim", false, &keep) < 0)
        return NULL;
    return v_tensor(tsr_nn_pairwise_distance(tensor_of(v[0]), tensor_of(v[1]), p, eps, keep));
}

/* dropout(input, p=0.5, training=True, inplace=False) */
static Value *f_dropout(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[4];
    double p;
    bool train, inplace;
    if (args_parse(a, "dropout", "def input, p=, training=, inplace=", v) < 0 ||
        opt_float(v[1], "dropout", "p", 0.5, &p) < 0 || opt_bool(v[2], "dropout", "training", true, &train) < 0 ||
        opt_bool(v[3], "dropout", "inplace", false, &inplace) < 0)
        return NULL;
    if (bind_dropout_p(v[1], p) < 0) return NULL;
    if (need_tensor(v[0], inplace ? "dropout_" : "dropout", "input", 1) < 0) return NULL;
    tsr_tensor *x = tensor_of(v[0]);
    if (train && p != 0 && tsr_tensor_numel(x) > 0 && grad_needed(1, v) && x->layout != TSR_LAYOUT_SPARSE_COO) {   /* input * noise: MulBackward0 */
        if (inplace && tsr_ag_check_inplace(x) < 0) return bind_runtime_error();
        tsr_tensor *noise = tsr_nn_dropout_noise(x, p), *in[2] = {x, noise}, *r = NULL;
        if (!noise) return bind_runtime_error();
        tsr_operand on = tsr_operand_tensor(noise), ox = tsr_operand_tensor(x);
        r = inplace ? tsr_binary_(TSR_BINOP_MUL, x, &on, NULL) : tsr_binary(TSR_BINOP_MUL, &ox, &on, NULL, NULL);
        tsr_ag_args ga = {0};
        if (r && inplace) tsr_tensor_bump_version(x);
        if (r && tsr_ag_record("mul", 2, in, &ga, inplace ? x : r, inplace) < 0) {
            tsr_tensor_release(r);
            r = NULL;
        }
        tsr_tensor_release(noise);
        if (!r) return bind_runtime_error();
        return inplace ? ops_finish(r, v[0]) : v_tensor(r);
    }
    tsr_tensor *r = tsr_nn_dropout(tensor_of(v[0]), p, train, inplace);
    if (r && inplace && train && p != 0 && tsr_tensor_numel(r) > 0) tsr_tensor_bump_version(r);   /* x.mul_(noise) */
    return r ? ops_finish(r, v[0]) : bind_runtime_error();
}

/* embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
 * scale_grad_by_freq=False, sparse=False) */
static Value *f_embedding(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[7];
    if (args_parse(a, "embedding", "def input, weight, padding_idx=, max_norm=, norm_type=, scale_grad_by_freq=, sparse=",
                   v) < 0)
        return NULL;
    int64_t pad = -1;
    if (v[2] && !is_none(v[2])) {
        int64_t pi;
        if (args_int(v[2], "embedding", "padding_idx", &pi) < 0) return NULL;
        if (!is_tensor(v[1])) return exc_set("AttributeError", "'%s' object has no attribute 'size'", v[1]->type->name);
        int64_t n = tensor_of(v[1])->ndim ? tensor_of(v[1])->sizes[0] : 0;
        if ((pi > 0 && pi >= n) || (pi < 0 && pi < -n))
            return exc_set("AssertionError", "Padding_idx must be within num_embeddings");
        pad = pi < 0 ? pi + n : pi;
    }
    if (need_tensor(v[1], "embedding", "weight", 1) < 0 || need_tensor(v[0], "embedding", "indices", 2) < 0 ||
        named_refused("aten::embedding", 2, v) < 0)
        return NULL;
    if (v[3] && !is_none(v[3])) {   /* _no_grad_embedding_renorm_(weight, input.contiguous(), max_norm, norm_type) */
        double mn, nt;
        if (args_float(v[3], "embedding", "max_norm", &mn) < 0 || opt_float(v[4], "embedding", "norm_type", 2.0, &nt) < 0)
            return NULL;
        if (tsr_nn_embedding_renorm_(tensor_of(v[1]), tensor_of(v[0]), mn, nt) < 0) return bind_runtime_error();
        tsr_tensor_bump_version(tensor_of(v[1]));
    }
    bool freq;
    if (opt_bool(v[5], "embedding", "scale_grad_by_freq", false, &freq) < 0) return NULL;
    bool sparse;
    if (opt_bool(v[6], "embedding", "sparse", false, &sparse) < 0) return NULL;
    tsr_tensor *wt = tensor_of(v[1]);
    /* keepdim: sparse=True (EmbeddingBackward0 gives a sparse COO gradient) */
    tsr_ag_args ga = {.i0 = wt->ndim ? wt->sizes[0] : 0, .i1 = pad, .flag = freq, .keepdim = sparse};
    const tsr_tensor *kept[1] = {tensor_of(v[0])};
    return graph(tsr_nn_embedding(wt, tensor_of(v[0])), "embedding", 1, &wt, &ga, 1, kept);
}

/* kl_div(input, target, size_average=None, reduce=None, reduction='mean',
 * log_target=False): 'mean' warns, 'batchmean' sums and divides by the batch */
static Value *f_kl_div(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[6];
    bool lt, batchmean = false;
    tsr_reduction red;
    if (args_parse(a, "kl_div", "def input, target, size_average=, reduce=, reduction=, log_target=", v) < 0 ||
        opt_bool(v[5], "kl_div", "log_target", false, &lt) < 0)
        return NULL;
    bool legacy = (v[2] && !is_none(v[2])) || (v[3] && !is_none(v[3]));
    const char *rs = v[4] && v[4]->type == &t_str ? v[4]->u.s.p : v[4] ? NULL : "mean";
    if (!legacy && rs && !strcmp(rs, "mean"))
        warn("reduction: 'mean' divides the total loss by both the batch size and the support size.'batchmean' "
             "divides only by the batch size, and aligns with the KL div math definition.'mean' will be changed to "
             "behave the same as 'batchmean' in the next major release.");
    if (!legacy && rs && !strcmp(rs, "batchmean")) {
        batchmean = true;
        red = TSR_REDUCTION_SUM;
    } else if (reduction_of(v[2], v[3], v[4], &red) < 0) {
        return NULL;
    }
    if (need_tensor(v[0], "kl_div", "input", 1) < 0 || need_tensor(v[1], "kl_div", "target", 2) < 0 ||
        (!lt && named_refused("aten::xlogy.Tensor", 2, v) < 0))
        return NULL;
    if (grad_needed(2, v)) {   /* through torch's ops, as 1.13's kl_div and apply_loss_reduction */
        Value *torch = bind_module("torch"), *o = NULL, *a1 = NULL, *a2 = NULL, *r = NULL;
        if (lt) {
            Value *df = call_attr(v[1], "sub", 1, &v[0]);
            a1 = call_attr(v[1], "exp", 0, NULL);
            if (a1 && df) o = call_attr(a1, "mul", 1, &df);
            if (df) decref(df);
        } else {
            Value *tt[2] = {v[1], v[1]};
            a1 = call_attr(torch, "xlogy", 2, tt);
            a2 = a1 ? call_attr(v[1], "mul", 1, &v[0]) : NULL;
            if (a2) o = call_attr(a1, "sub", 1, &a2);
        }
        if (a1) decref(a1);
        if (a2) decref(a2);
        if (!o) return NULL;
        if (red == TSR_REDUCTION_NONE) return o;
        r = call_attr(o, red == TSR_REDUCTION_MEAN ? "mean" : "sum", 0, NULL);
        decref(o);
        if (r && batchmean && tensor_of(v[0])->ndim != 0) {
            Value *bs = v_int(tensor_of(v[0])->sizes[0]), *q = call_attr(r, "div", 1, &bs);
            decref(bs);
            decref(r);
            r = q;
        }
        return r;
    }
    tsr_tensor *x = tensor_of(v[0]), *r = tsr_nn_kl_div(x, tensor_of(v[1]), red, lt);
    if (r && batchmean && x->ndim != 0) {
        tsr_operand o = tsr_operand_tensor(r), n = tsr_operand_scalar(tsr_scalar_int(x->sizes[0]));
        tsr_tensor *q = tsr_binary(TSR_BINOP_DIV, &o, &n, NULL, NULL);
        tsr_tensor_release(r);
        r = q;
    }
    return v_tensor(r);
}


/* 1.13's _pad_circular as its graph records it: y = new_empty; the core
 * y[...] .copy_(x sliced per padded dim, last dim first) (SliceBackward0s,
 * CopySlices), then per padded dim the left strip from y.narrow(...) and
 * the right one (SliceBackward0 of y as it was, CopySlices). Every state of
 * y but the last is a stand-in header; the last copy's node goes on y.
 * 0, or -1 with the error recorded. */
static int circular_graph(tsr_tensor *x, int ns, const int64_t *pad, tsr_tensor *y)
{
    int nd = x->ndim, nc = 1, k = 0, rc = -1;
    for (int i = 0; i < ns; i++) nc += (pad[2 * i] > 0) + (pad[2 * i + 1] > 0);
    tsr_ag_args ca = {.ndims = nd};
    for (int d = 0; d < nd; d++) ca.dims[2 * d] = 0, ca.dims[2 * d + 1] = y->sizes[d];
    tsr_tensor *src = tsr_tensor_retain(x), *cur = tsr_view_alias(y), *nxt = NULL, *piece = NULL;
    if (!cur) goto done;
    for (int i = 0; i < ns; i++) {   /* in_slice, and the core's region of y */
        int d = nd - 1 - i;
        int64_t pl = pad[2 * i], pr = pad[2 * i + 1], l0 = pl > 0 ? pl : 0, r0 = pr > 0 ? pr : 0;
        int64_t st = pl < 0 ? -pl : 0, en = x->sizes[d] - (pr < 0 ? -pr : 0);
        tsr_ag_args sa = {.i0 = d, .i1 = st, .dims = {en, 1}, .i2 = 1};
        ca.dims[2 * d] = l0, ca.dims[2 * d + 1] = y->sizes[d] - l0 - r0;
        if (!(piece = tsr_view_slice(src, d, st, en, 1)) || tsr_ag_record("slice", 1, &src, &sa, piece, false) < 0)
            goto done;
        tsr_tensor_release(src);
        src = piece, piece = NULL;
    }
    for (int i = -1; i < ns; i++)
        for (int side = 0; side < 2; side++) {
            tsr_ag_args sa = {.i2 = 1, .dims = {0, 1}}, ra = {.ndims = nd};
            for (int d = 0; d < nd; d++) ra.dims[2 * d] = 0, ra.dims[2 * d + 1] = y->sizes[d];
            if (i < 0) {   /* the core copy */
                if (side) continue;
                ra = ca;
            } else {
                int d = nd - 1 - i;
                int64_t pl = pad[2 * i], pr = pad[2 * i + 1], o = y->sizes[d], p = side ? pr : pl;
                if (p <= 0) continue;
                int64_t from = side ? (pl > 0 ? pl : 0) : o - pl - (pr > 0 ? pr : 0);
                sa.i0 = d, sa.i1 = from, sa.dims[0] = from + p;
                ra.dims[2 * d] = side ? o - pr : 0, ra.dims[2 * d + 1] = p;
                tsr_tensor_release(src);
                if (!(src = tsr_view_narrow(cur, d, from, p)) || tsr_ag_record("slice", 1, &cur, &sa, src, false) < 0)
                    goto done;
            }
            nxt = ++k == nc ? tsr_tensor_retain(y) : tsr_view_alias(y);
            tsr_tensor *in[2] = {cur, src};
            if (!nxt || tsr_ag_record("copy_slices", 2, in, &ra, nxt, false) < 0) goto done;
            tsr_tensor_release(cur);
            cur = nxt, nxt = NULL;
        }
    rc = 0;
done:
    tsr_tensor_release(src);
    tsr_tensor_release(cur);
    tsr_tensor_release(nxt);
    tsr_tensor_release(piece);
    return rc;
}
/* binary_cross_entropy_with_logits(input, target, weight=None,
 * size_average=None, reduce=None, reduction='mean', pos_weight=None) */
static Value *f_bce_logits(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    const char *name = "binary_cross_entropy_with_logits";
    Value *v[7];
    tsr_reduction red;
    if (args_parse(a, name, "def input, target, weight=, size_average=, reduce=, reduction=, pos_weight=", v) < 0 ||
        reduction_of(v[3], v[4], v[5], &red) < 0)
        return NULL;
    if (!is_tensor(v[1])) return exc_set("AttributeError", "'%s' object has no attribute 'size'", v[1]->type->name);
    if (!is_tensor(v[0])) return exc_set("AttributeError", "'%s' object has no attribute 'size'", v[0]->type->name);
    tsr_tensor *x = tensor_of(v[0]), *t = tensor_of(v[1]);
    if (x->ndim != t->ndim || memcmp(x->sizes, t->sizes, sizeof(int64_t) * (size_t)x->ndim)) {
        char a1[256], a2[256];
        return exc_set("ValueError", "Target size (torch.Size(%s)) must be the same as input size (torch.Size(%s))",
                       bind_sizes_str(a1, sizeof a1, t), bind_sizes_str(a2, sizeof a2, x));
    }
    if (named_refused("aten::binary_cross_entropy_with_logits", 7, v) < 0) return NULL;
    bool hw = v[2] && !is_none(v[2]), hp = v[6] && !is_none(v[6]);
    if ((hw && need_tensor(v[2], name, "weight", 3) < 0) || (hp && need_tensor(v[6], name, "pos_weight", 4) < 0))
        return NULL;
    tsr_tensor *in[2] = {x, t};
    tsr_ag_args ga = {.i0 = red, .i1 = (hw ? 1 : 0) | (hp ? 2 : 0)};
    const tsr_tensor *kept[2] = {hw ? tensor_of(v[2]) : NULL, hp ? tensor_of(v[6]) : NULL};
    if (grad_needed(7, v) && ((hw && tsr_tensor_requires_grad(kept[0])) || (hp && tsr_tensor_requires_grad(kept[1]))))
        return grad_refused("binary_cross_entropy_with_logits", 7, v) < 0 ? NULL : NULL;
    return graph(tsr_nn_bce_with_logits(x, t, kept[0], kept[1], red), "binary_cross_entropy_with_logits", 2, in, &ga, 2,
                 kept);
}

typedef enum { K_PAD, K_CONSTANT_PAD } Kind;

static Value *pad_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)self; (void)inplace;
    int64_t pad[2 * TSR_MAX_DIMS + 2];
    int n;
    if (bind_table_intlist(b, 1, fname, pad, 2 * TSR_MAX_DIMS + 2, &n) < 0) return NULL;
    tsr_tensor *x = tensor_of(b->v[0]);
    tsr_scalar value = tsr_scalar_int(0);
    /* F.pad checks the padding first; constant_pad_nd itself refuses names at once */
    bool constant = row->kind == K_CONSTANT_PAD || !b->v[2] || !strcmp(b->v[2]->u.s.p, "constant");
    bool checked = row->kind == K_CONSTANT_PAD || (n % 2 == 0 && n <= x->ndim * 2);
    if (constant && checked && named_refused("aten::constant_pad_nd", 1, b->v) < 0) return NULL;
    tsr_ag_args ga = {.ndims = n};
    for (int i = 0; i < n && i < TSR_MAX_DIMS; i++) ga.dims[i] = pad[i];
    if (n > TSR_MAX_DIMS && grad_refused("constant_pad_nd", 1, b->v) < 0) return NULL;
    if (row->kind == K_CONSTANT_PAD) {
        if (b->v[2] && bind_scalar(b->v[2], fname, "value", &value) < 0) return NULL;
        return graph(tsr_constant_pad_nd(x, n, pad, value), "constant_pad_nd", 1, &x, &ga, 0, NULL);
    }
    if (n % 2) return exc_set("RuntimeError", "Padding length must be divisible by 2");
    if (n > x->ndim * 2) return exc_set("RuntimeError", "Padding length too large");
    const char *mode = b->v[2] ? b->v[2]->u.s.p : "constant";
    Value *vv = b->v[3];
    if (!strcmp(mode, "constant")) {
        double f = 0;
        if (vv && !is_none(vv) && bind_table_float(vv, fname, "value", &f) < 0) return NULL;
        return graph(tsr_constant_pad_nd(x, n, pad, tsr_scalar_float(f)), "constant_pad_nd", 1, &x, &ga, 0, NULL);
    }
    if (!strcmp(mode, "reflect") || !strcmp(mode, "replicate") || !strcmp(mode, "circular")) {
        double f = 0;
        if (vv && !is_none(vv) && bind_table_float(vv, fname, "value", &f) < 0) return NULL;
        if (mode[0] == 'c') {
            tsr_tensor *r = tsr_nn_pad_mode(x, n, pad, mode, vv && !is_none(vv), f);
            if (r && tsr_ag_needed(1, &x) && circular_graph(x, n / 2, pad, r) < 0) {
                tsr_tensor_release(r);
                r = NULL;
            }
            return r ? v_tensor(r) : bind_runtime_error();
        }
        char key[40];
        snprintf(key, sizeof key, "%s_pad%dd", mode[2] == 'f' ? "reflection" : "replication", (n / 2) % 8);
        ga.i0 = mode[2] == 'f' ? 1 : 2;
        return graph(tsr_nn_pad_mode(x, n, pad, mode, vv && !is_none(vv), f), key, 1, &x, &ga, 0, NULL);
    }
    return exc_set("NotImplementedError", "Unrecognised padding mode %s", mode);
}

static BindRow pad_rows[] = {
    {.name = "pad", .kind = K_PAD, .flags = BIND_FN, .handler = pad_call, .module = MOD,
     .sigs = "Tensor input, int[] pad, c10::string_view mode=\"constant\", float? value=None"},
    {.name = "constant_pad_nd", .kind = K_CONSTANT_PAD, .flags = BIND_FN, .handler = pad_call,
     .sigs = "Tensor input, int[] pad, Scalar value=0"},
};

void bind_nnf_init(void)
{
    Value *m = bind_module(MOD);
    bind_table_register(pad_rows, (int)(sizeof pad_rows / sizeof pad_rows[0]));
    struct { const char *name; BuiltinFn fn; void *data; } fns[] = {
        {"relu", f_relu, NULL},
        {"relu6", f_hardtanh, (void *)"relu6"},
        {"hardtanh", f_hardtanh, NULL},
        {"leaky_relu", f_leaky_relu, NULL},
        {"silu", f_silu, NULL},
        {"softsign", f_compose, (void *)"softsign"},
        {"tanhshrink", f_compose, (void *)"tanhshrink"},
        {"hardsigmoid", f_hard, (void *)"hardsigmoid"},
        {"hardswish", f_hard, (void *)"hardswish"},
        {"threshold", f_threshold, NULL},
        {"elu", f_elu, (void *)"elu"},
        {"selu", f_elu, (void *)"selu"},
        {"celu", f_elu, (void *)"celu"},
        {"mish", f_elu, (void *)"mish"},
        {"gelu", f_gelu, NULL},
        {"softplus", f_softplus, NULL},
        {"dropout", f_dropout, NULL},
        {"embedding", f_embedding, NULL},
        {"sigmoid", f_unary, (void *)"sigmoid"},
        {"tanh", f_unary, (void *)"tanh"},
        {"softmax", f_softmax, (void *)"softmax"},
        {"log_softmax", f_softmax, (void *)"log_softmax"},
        {"softmin", f_softmax, (void *)"softmin"},
        {"linear", f_linear, NULL},
        {"pairwise_distance", f_distance, NULL},
        {"cosine_similarity", f_distance, (void *)"cos"},
        {"normalize", f_normalize, NULL},
        {"one_hot", f_one_hot, NULL},
        {"mse_loss", f_pointwise_loss, (void *)"mse_loss"},
        {"l1_loss", f_pointwise_loss, (void *)"l1_loss"},
        {"smooth_l1_loss", f_pointwise_loss, (void *)"smooth_l1_loss"},
        {"huber_loss", f_pointwise_loss, (void *)"huber_loss"},
        {"binary_cross_entropy", f_bce, NULL},
        {"binary_cross_entropy_with_logits", f_bce_logits, NULL},
        {"kl_div", f_kl_div, NULL},
        {"nll_loss", f_nll, NULL},
        {"cross_entropy", f_nll, (void *)"ce"},
    };
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        module_add(m, fns[i].name, v_builtin(fns[i].name, fns[i].fn, NULL, fns[i].data));
    /* F.logsigmoid is torch._C._nn.log_sigmoid */
    module_add(m, "logsigmoid", v_builtin("log_sigmoid", f_logsigmoid, NULL, NULL));
    /* the two ATen functions are torch.X too */
    module_add(bind_module("torch"), "pairwise_distance", v_builtin("pairwise_distance", f_distance, NULL, NULL));
    module_add(bind_module("torch"), "cosine_similarity", v_builtin("cosine_similarity", f_distance, NULL, (void *)"cos"));
}
