/* src/bind/nnf_misc.c — torch.nn.functional's in-place activation spellings
 * 1.13 has: F.relu_, F.elu_, F.selu_, F.celu_, F.hardtanh_, F.leaky_relu_,
 * and torch.selu_ / torch.celu_. Each is F.NAME(..., inplace=True): the
 * activation's own handler checks, computes and records the in-place node
 * (EluBackward1, CeluBackward1, HardtanhBackward0, LeakyReluBackward1, ...). */
#include <string.h>

#include "bind/areas.h"
#include "bind/bind.h"
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
    Value *relu_ = value_getattr(torch, "relu_"); /* F.relu_ is torch.relu_ */
    if (relu_) module_add(m, "relu_", relu_);
}
