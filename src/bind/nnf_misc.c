/* src/bind/nnf_misc.c — torch.nn.functional's in-place activation spellings
 * 1.13 has: F.relu_, F.elu_, F.selu_, F.celu_, F.hardtanh_, F.leaky_relu_,
 * and torch.selu_ / torch.celu_. Each is F.NAME(..., inplace=True): the
 * activation's own handler checks, computes and records the in-place node
 * (EluBackward1, CeluBackward1, HardtanhBackward0, LeakyReluBackward1, ...).
 * Also torch.feature_dropout(_) and F.dropout1d (functional.py's def). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "bind/areas.h"
#include "bind/bind.h"
#include "bind/ops.h"
#include "bind/table.h"
#include "bind/tensor.h"
#include "autograd.h"
#include "ops/binary.h"
#include "ops/nn_misc.h"
#include "value.h"

#define MOD "torch.nn.functional"
#define MAXKW 8

/* data: the out-of-place F function's name; the call's arguments go on
 * to it with inplace=True appended. NEW value or NULL. */
static Value *f_inplace_act(Value *self, CallArgs *a, void *data)
{
    (void)self;
    const char *name = data;
    if (a->nkw >= MAXKW) return exc_set("TypeError", "%s_() got too many keyword arguments", name);
    const char *kwn[MAXKW + 1];
    Value *kw[MAXKW + 1];
    for (int i = 0; i < a->nkw; i++) {
        if (!strcmp(a->kwnames[i], "inplace"))
            return exc_set("TypeError", "%s_() got an unexpected keyword argument 'inplace'", name);
        kwn[i] = a->kwnames[i];
        kw[i] = a->kw[i];
    }
    Value *t = v_bool(true);
    kwn[a->nkw] = "inplace";
    kw[a->nkw] = t;
    CallArgs b = {.pos = a->pos, .npos = a->npos, .kwnames = kwn, .kw = kw, .nkw = a->nkw + 1};
    Value *f = value_getattr(bind_module(MOD), name), *r = NULL;
    if (f) {
        r = value_call(f, &b);
        decref(f);
    }
    decref(t);
    return r;
}

/* _dropout_impl with feature_dropout (alpha: and alpha_dropout) over x:
 * x itself when p == 0, not training or empty; x * zeros({}) when p == 1;
 * else x * noise (in place: x.mul_(noise)), MulBackward0, then for alpha
 * .add_(b), AddBackward0. NEW value or NULL. */
static Value *feature_dropout(Value *xv, double p, bool train, bool inplace, bool alpha)
{
    tsr_tensor *x = tensor_of(xv);
    if (!(p >= 0 && p <= 1))
        return exc_set("RuntimeError", "dropout probability has to be between 0 and 1, but got %g", p);
    if (p == 0 || !train || tsr_tensor_numel(x) == 0) {
        xv->refcnt++;
        return xv;
    }
    if (inplace && tsr_ag_check_inplace(x) < 0) return bind_runtime_error();
    tsr_tensor *b = NULL;
    tsr_tensor *noise = alpha && p != 1 ? tsr_nn_feature_alpha_noise(x, p, &b) : tsr_nn_feature_noise(x, p);
    tsr_tensor *in[2] = {x, noise}, *r;
    if (!noise) return bind_runtime_error();
    tsr_operand on = tsr_operand_tensor(noise), ox = tsr_operand_tensor(x);
    r = inplace ? tsr_binary_(TSR_BINOP_MUL, x, &on, NULL) : tsr_binary(TSR_BINOP_MUL, &ox, &on, NULL, NULL);
    tsr_ag_args ga = {0};
    if (r && inplace) tsr_tensor_bump_version(x);
    bool g = tsr_ag_needed(2, in);
    if (r && g && tsr_ag_record("mul", 2, in, &ga, inplace ? x : r, inplace) < 0) {
        tsr_tensor_release(r);
        r = NULL;
    }
    if (r && b) {
        tsr_operand ob = tsr_operand_tensor(b);
        tsr_tensor *r2 = tsr_binary_(TSR_BINOP_ADD, r, &ob, NULL), *in2[2] = {r, b};
        if (r2) tsr_tensor_bump_version(r);
        if (r2 && g && tsr_ag_record("add", 2, in2, &ga, r, true) < 0) {
            tsr_tensor_release(r2);
            r2 = NULL;
        }
        tsr_tensor_release(r);
        r = r2;
    }
    tsr_tensor_release(noise);
    tsr_tensor_release(b);
    if (!r) return bind_runtime_error();
    return inplace ? ops_finish(r, xv) : v_tensor(r);
}

/* torch.feature_dropout(input, p, train), feature_dropout_,
 * feature_alpha_dropout and feature_alpha_dropout_ (data: the name; NULL
 * for feature_dropout) */
static Value *f_feature_dropout(Value *self, CallArgs *a, void *data)
{
    (void)self;
    const char *name = data ? data : "feature_dropout";
    Value *v[3];
    double p;
    bool train;
    if (args_parse(a, name, "input, p, train", v) < 0 || args_float(v[1], name, "p", &p) < 0 ||
        args_bool(v[2], name, "train", &train) < 0)
        return NULL;
    if (!is_tensor(v[0]))
        return exc_set("TypeError", "%s(): argument 'input' (position 1) must be Tensor, not %s", name, v[0]->type->name);
    return feature_dropout(v[0], p, train, name[strlen(name) - 1] == '_', strstr(name, "alpha") != NULL);
}

/* F.feature_alpha_dropout(input, p=0.5, training=False, inplace=False) */
static Value *f_feature_alpha_dropout(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[4];
    double p = 0.5;
    bool train = false, inplace = false;
    const char *fn = "feature_alpha_dropout";
    if (args_parse(a, fn, "def input, p=, training=, inplace=", v) < 0 || (v[1] && args_float(v[1], fn, "p", &p) < 0))
        return NULL;
    if (v[2] && args_bool(v[2], fn, "training", &train) < 0) return NULL;
    if (v[3]) {
        int t = value_truth(v[3]);
        if (t < 0) return NULL;
        inplace = t;
    }
    if (bind_dropout_p(v[1], p) < 0) return NULL;
    if (!is_tensor(v[0]))
        return exc_set("TypeError", "%s(): argument 'input' (position 1) must be Tensor, not %s",
                       inplace ? "feature_alpha_dropout_" : fn, v[0]->type->name);
    return feature_dropout(v[0], p, train, inplace, true);
}

/* torch.dropout / dropout_ / alpha_dropout / alpha_dropout_(input, p,
 * train): at::dropout's CPU path is F.dropout's (_dropout_impl); the range
 * of p is the C++ check's RuntimeError. data: the name. */
static Value *f_torch_dropout(Value *self, CallArgs *a, void *data)
{
    (void)self;
    const char *name = data;
    Value *v[3];
    double p;
    bool train;
    if (args_parse(a, name, "input, p, train", v) < 0 || args_float(v[1], name, "p", &p) < 0 ||
        args_bool(v[2], name, "train", &train) < 0)
        return NULL;
    if (!is_tensor(v[0]))
        return exc_set("TypeError", "%s(): argument 'input' (position 1) must be Tensor, not %s", name, v[0]->type->name);
    if (!(p >= 0 && p <= 1))
        return exc_set("RuntimeError", "dropout probability has to be between 0 and 1, but got %g", p);
    bool alpha = strstr(name, "alpha") != NULL, inplace = name[strlen(name) - 1] == '_';
    Value *f = value_getattr(bind_module(MOD), alpha ? "alpha_dropout" : "dropout"), *r = NULL;
    if (!f) return NULL;
    Value *args[4] = {v[0], v_float(p), v_bool(train), v_bool(inplace)};
    r = value_call0(f, 4, args);
    for (int i = 1; i < 4; i++) decref(args[i]);
    decref(f);
    return r;
}

/* Tensor method obj.name(0) (unsqueeze / squeeze, in place or not). */
static Value *dim0_call(Value *obj, const char *name)
{
    Value *f = value_getattr(obj, name), *z = v_int(0), *r = NULL;
    if (f) r = value_call0(f, 1, &z);
    decref(f);
    decref(z);
    return r;
}

/* F.dropout1d / dropout2d / dropout3d(input, p=0.5, training=True,
 * inplace=False): data is the number of spatial dimensions. dropout1d
 * refuses other ranks; 2d and 3d warn. 1d and 3d add a batch dimension to
 * unbatched input (and take it off again); 2d never does (1.13 treats a 3-D
 * input as (N, C, L), with a warning). */
static Value *f_dropout_nd(Value *self, CallArgs *a, void *d)
{
    (void)self;
    int sp = (int)(intptr_t)d;
    char fname[16];
    snprintf(fname, sizeof fname, "dropout%dd", sp);
    Value *v[4];
    double p = 0.5;
    bool train = true, inplace = false;
    if (args_parse(a, fname, "def input, p=, training=, inplace=", v) < 0 || (v[1] && args_float(v[1], fname, "p", &p) < 0))
        return NULL;
    if (v[2]) {
        int t = value_truth(v[2]);
        if (t < 0) return NULL;
        train = t;
    }
    if (v[3]) {
        int t = value_truth(v[3]);
        if (t < 0) return NULL;
        inplace = t;
    }
    if (bind_dropout_p(v[1], p) < 0) return NULL;
    if (!is_tensor(v[0])) return exc_set("AttributeError", "'%s' object has no attribute 'dim'", v[0]->type->name);
    int nd = tensor_of(v[0])->ndim;
    if (sp == 1 && nd != 2 && nd != 3)
        return exc_set("RuntimeError", "dropout1d: Expected 2D or 3D input, but received a %dD input. Note that dropout1d "
                       "exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, "
                       "and an optional batch dimension (i.e. 2D or 3D inputs).", nd);
    if (sp > 1 && nd != sp + 1 && nd != sp + 2 && !bind_warnings_ignored())
        fprintf(stderr, "UserWarning: dropout%dd: Received a %d-D input to dropout%dd, which is deprecated and will "
                "result in an error in a future release. To retain the behavior and silence this warning, please use "
                "dropout instead. Note that dropout%dd exists to provide channel-wise dropout on inputs with %d spatial "
                "dimensions, a channel dimension, and an optional batch dimension (i.e. %dD or %dD inputs).\n",
                sp, nd, sp, sp, sp, sp + 1, sp + 2);
    if (sp == 2 && nd == 3 && !bind_warnings_ignored())
        fprintf(stderr, "UserWarning: dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
                "dropout behavior is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This "
                "behavior will change in a future release to interpret the input as one without a batch dimension, i.e. "
                "shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using dropout1d "
                "instead.\n");
    bool batched = sp == 2 || nd == sp + 2;
    Value *x = v[0];
    if (batched) x->refcnt++;
    else if (!(x = dim0_call(v[0], inplace ? "unsqueeze_" : "unsqueeze"))) return NULL;
    Value *r = feature_dropout(x, p, train, inplace, false);
    decref(x);
    if (!r || batched) return r;
    Value *s = dim0_call(r, inplace ? "squeeze_" : "squeeze");
    decref(r);
    return s;
}

void bind_nnf_misc_init(void)
{
    /* {F/torch name, out-of-place F name} */
    static const char *const acts[][2] = {{"elu_", "elu"},           {"selu_", "selu"},
                                          {"celu_", "celu"},         {"hardtanh_", "hardtanh"},
                                          {"leaky_relu_", "leaky_relu"}};
    Value *m = bind_module(MOD), *torch = bind_module("torch");
    for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++) {
        module_add(m, acts[i][0], v_builtin(acts[i][0], f_inplace_act, NULL, (void *)acts[i][1]));
        if (!strcmp(acts[i][1], "selu") || !strcmp(acts[i][1], "celu"))
            module_add(torch, acts[i][0], v_builtin(acts[i][0], f_inplace_act, NULL, (void *)acts[i][1]));
    }
    module_add(torch, "feature_dropout", v_builtin("feature_dropout", f_feature_dropout, NULL, NULL));
    static const char *const fd[] = {"feature_dropout_", "feature_alpha_dropout", "feature_alpha_dropout_"};
    for (int i = 0; i < 3; i++) module_add(torch, fd[i], v_builtin(fd[i], f_feature_dropout, NULL, (void *)fd[i]));
    static const char *const td[] = {"dropout", "dropout_", "alpha_dropout", "alpha_dropout_"};
    for (int i = 0; i < 4; i++) module_add(torch, td[i], v_builtin(td[i], f_torch_dropout, NULL, (void *)td[i]));
    module_add(m, "feature_alpha_dropout", v_builtin("feature_alpha_dropout", f_feature_alpha_dropout, NULL, NULL));
    module_add(m, "dropout1d", v_builtin("dropout1d", f_dropout_nd, NULL, (void *)1));
    module_add(m, "dropout2d", v_builtin("dropout2d", f_dropout_nd, NULL, (void *)2));
    module_add(m, "dropout3d", v_builtin("dropout3d", f_dropout_nd, NULL, (void *)3));
    Value *relu_ = value_getattr(torch, "relu_"); /* F.relu_ is torch.relu_ */
    if (relu_) module_add(m, "relu_", relu_);
}
