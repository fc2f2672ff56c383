/* src/bind/autograd.c — the autograd the language sees: x.grad, x.grad_fn,
 * x.is_leaf, backward(), retain_grad(), register_hook(), detach(),
 * torch.autograd.grad/backward, the grad-mode context managers and the
 * grad_fn objects (<MulBackward0 object at 0x...>). The engine is
 * runtime/autograd.c; a hook reaches it as a callback and its closure. */
#include <stdio.h>
#include <string.h>

#include "autograd.h"
#include "bind/bind.h"
#include "bind/tensor.h"
#include "bind/table.h"

/* ------------------------------------------------------------ grad_fn objects */

static void node_destroy(Value *v) { tsr_node_release(v->u.ext.ptr); }

static Value *node_repr(Value *v)
{
    const char *nm = tsr_node_name(v->u.ext.ptr);
    const char *colon = strrchr(nm, ':');
    return v_strf("<%s object at %p>", colon ? colon + 1 : nm, v->u.ext.ptr);
}

static Value *v_node(tsr_node *n);   /* steals n */

static Value *node_name_fn(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (args_meth_noargs(a, "name") < 0) return NULL;
    return v_str(tsr_node_name(self->u.ext.ptr));
}

static Value *node_getattr(Value *v, const char *name)
{
    tsr_node *n = v->u.ext.ptr;
    if (!strcmp(name, "name")) return v_builtin("name", node_name_fn, v, NULL);
    if (!strcmp(name, "next_functions")) {
        int k = tsr_node_num_next(n);
        Value *t = v_tuple((size_t)k);
        for (int i = 0; i < k; i++) {
            int nr;
            tsr_node *x = tsr_node_next(n, i, &nr);
            t->u.seq.items[i] = v_tuple_of(2, x ? v_node(x) : v_none(), v_int(nr));
        }
        return t;
    }
    if (!strcmp(name, "variable")) {
        tsr_tensor *t = tsr_node_variable(n);
        if (!t) return exc_set("AttributeError", "'%s' object has no attribute 'variable'", tsr_node_name(n));
        return v_tensor(t);
    }
    if (!strcmp(name, "metadata")) return v_dict();
    return NULL;
}

static const VType t_node = {.name = "Node", .module = "torch.autograd.graph", .destroy = node_destroy,
                             .repr = node_repr, .getattr = node_getattr};

/* type(y.grad_fn) is the node's own class in 1.13 (<class 'MulBackward0'>):
 * one type per node name, made on first use, with t_node's behaviour. */
static const VType *node_type(const tsr_node *n)
{
    static VType types[256];
    static int ntypes;
    const char *nm = tsr_node_name(n), *colon = strrchr(nm, ':');
    if (colon) nm = colon + 1;
    for (int i = 0; i < ntypes; i++)
        if (!strcmp(types[i].name, nm)) return &types[i];
    if (ntypes == (int)(sizeof types / sizeof types[0])) return &t_node;
    types[ntypes] = t_node;
    types[ntypes].name = nm;   /* the formula table's and the engine's static names */
    types[ntypes].module = NULL;
    return &types[ntypes++];
}

static Value *v_node(tsr_node *n)
{
    Value *v = value_alloc(node_type(n));
    v->u.ext.ptr = n;
    return v;
}

/* ------------------------------------------------------------ properties */

static tsr_tensor *T(Value *v) { return tensor_of(v); }

static Value *p_requires_grad(Value *self) { return v_bool(tsr_tensor_requires_grad(T(self))); }
static int ps_requires_grad(Value *self, Value *x)
{
    if (x->type != &t_bool) return exc_seti("RuntimeError", "requires_grad must be a bool");
    return tsr_autograd_set_requires_grad(T(self), x->u.i != 0, false) < 0 ? bind_runtime_errori() : 0;
}
static Value *p_is_leaf(Value *self) { return v_bool(tsr_tensor_is_leaf(T(self))); }
static Value *p_grad(Value *self)
{
    tsr_tensor *g = tsr_tensor_grad(T(self));
    return g ? v_tensor(g) : v_none();
}
static int ps_grad(Value *self, Value *x)
{
    if (!is_none(x) && !is_tensor(x))
        return exc_seti("TypeError", "assigned grad expected to be a Tensor or None but got grad of type%s",
                        type_name(x));
    return tsr_tensor_set_grad(T(self), is_none(x) ? NULL : T(x)) < 0 ? bind_runtime_errori() : 0;
}
static Value *p_grad_fn(Value *self)
{
    if (tsr_tensor_grad_fn_check(T(self)) < 0) return bind_runtime_error();
    tsr_node *n = tsr_tensor_grad_fn(T(self));
    return n ? v_node(n) : v_none();
}
static Value *p_retains_grad(Value *self) { return v_bool(tsr_tensor_retains_grad(T(self))); }
static Value *p_version(Value *self) { return v_int(tsr_tensor_version(T(self))); }
static Value *p_output_nr(Value *self) { return v_int(tsr_tensor_output_nr(T(self))); }

/* ------------------------------------------------------------ methods */

/* The exception of a failed engine run: a hook's own, else the runtime's. */
static Value *run_error(void) { return exc_pending() ? NULL : bind_runtime_error(); }

static tsr_tensor *hook_call(void *closure, const tsr_tensor *grad, int *failed)
{
    Value *g = v_tensor(tsr_tensor_retain((tsr_tensor *)grad));
    Value *r = value_call0(closure, 1, &g);
    decref(g);
    if (!r) {
        *failed = 1;
        return NULL;
    }
    tsr_tensor *t = NULL;
    if (is_tensor(r)) t = tsr_tensor_retain(T(r));
    else if (!is_none(r)) {
        exc_set("TypeError", "expected Tensor or None (got %s)", type_name(r));
        *failed = 1;
    }
    decref(r);
    return t;
}
static void hook_drop(void *closure) { decref(closure); }

/* handle.remove() */
static Value *handle_remove(Value *self, CallArgs *a, void *d)
{
    (void)a; (void)d;
    tsr_tensor *t = self->u.ext.ptr;
    if (t) tsr_tensor_remove_hook(t, self->u.ext.a);
    return v_none();
}
static void handle_destroy(Value *v) { tsr_tensor_release(v->u.ext.ptr); }
static Value *handle_repr(Value *v) { return v_strf("<torch.utils.hooks.RemovableHandle object at %p>", (void *)v); }
static Value *handle_getattr(Value *v, const char *name)
{
    if (!strcmp(name, "remove")) return v_builtin("remove", handle_remove, v, NULL);
    if (!strcmp(name, "id")) return v_int(v->u.ext.a);
    return NULL;
}
static const VType t_handle = {.name = "RemovableHandle", .module = "torch.utils.hooks", .destroy = handle_destroy,
                               .repr = handle_repr, .getattr = handle_getattr};

static Value *m_register_hook(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *x[1];
    if (bind_args(a, "Tensor.register_hook", "def self, hook", x)) return NULL;
    int64_t id;
    if (tsr_tensor_register_hook(T(self), hook_call, incref(x[0]), hook_drop, &id) < 0) return bind_runtime_error();
    Value *h = value_alloc(&t_handle);
    h->u.ext.ptr = tsr_tensor_retain(T(self));
    h->u.ext.a = id;
    return h;
}

static Value *m_retain_grad(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (args_meth_noargs(a, "retain_grad") < 0) return NULL;
    return tsr_tensor_retain_grad(T(self)) < 0 ? bind_runtime_error() : v_none();
}

static Value *m_detach(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (args_meth_noargs(a, "detach") < 0) return NULL;
    return v_tensor(tsr_autograd_detach(T(self)));
}

static Value *m_detach_(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (args_meth_noargs(a, "detach_") < 0) return NULL;
    return tsr_autograd_detach_(T(self)) < 0 ? bind_runtime_error() : incref(self);
}

/* retain_graph defaults to create_graph; *create: create_graph */
static int check_retain(Value *rg, Value *cg, bool *retain, bool *create)
{
    *create = cg && !is_none(cg) && value_truth(cg) > 0;
    if (rg && !is_none(rg)) *retain = value_truth(rg) > 0;
    else *retain = *create;
    return 0;
}

/* backward(create_graph=True)'s UserWarning (torch/autograd/__init__.py) */
static void warn_cycle(bool create)
{
    if (create && !bind_warnings_ignored())
        fprintf(stderr, "UserWarning: Using backward() with create_graph=True will create a reference cycle between the "
                "parameter and its gradient which can cause a memory leak. We recommend using autograd.grad when "
                "creating the graph to avoid this. If you have to use this function, make sure to reset the .grad "
                "fields of your parameters to None after use to break the cycle and avoid the leak.\n");
}

/* A tensor or a sequence of tensors (None items kept as NULL when
 * allow_none) into ts; *n their count. -1 with TypeError. */
static int tensor_seq(Value *v, const char *what, tsr_tensor **ts, int max, int *n, bool allow_none)
{
    *n = 0;
    if (is_tensor(v)) {
        ts[(*n)++] = T(v);
        return 0;
    }
    if (v->type != &t_tuple && v->type != &t_list) {
        exc_set("TypeError", "%s must be a Tensor or a sequence of Tensors, not %s", what, type_name(v));
        return -1;
    }
    for (size_t i = 0; i < v->u.seq.n; i++) {
        Value *x = v->u.seq.items[i];
        if (*n == max) { exc_set("RuntimeError", "too many tensors"); return -1; }
        if (allow_none && is_none(x)) { ts[(*n)++] = NULL; continue; }
        if (!is_tensor(x)) {
            exc_set("TypeError", "expected Tensor as element %zu in argument 0, but got %s", i, type_name(x));
            return -1;
        }
        ts[(*n)++] = T(x);
    }
    return 0;
}

#define MAXOUT 64

/* backward(inputs=): None (*n = 0), a tensor, or a non-empty sequence of
 * tensors (1.13's torch.autograd.backward and the engine's checks) */
static int backward_inputs(Value *v, tsr_tensor **ts, int *n)
{
    *n = 0;
    if (!v || is_none(v)) return 0;
    int64_t len = value_len(v);   /* 1.13 asks len(inputs) first */
    if (len < 0) return -1;
    if (len == 0) {
        exc_set("RuntimeError", "'inputs' argument to backward() cannot be empty.");
        return -1;
    }
    if (is_tensor(v)) {
        ts[(*n)++] = T(v);
        return 0;
    }
    if (v->type != &t_tuple && v->type != &t_list) {   /* tuple(inputs) */
        Value *l = value_to_list(v);
        if (!l) return -1;
        int rc = backward_inputs(l, ts, n);
        decref(l);
        return rc;
    }
    if (v->u.seq.n == 0) {
        exc_set("RuntimeError", "'inputs' argument to backward() cannot be empty.");
        return -1;
    }
    for (size_t i = 0; i < v->u.seq.n; i++) {
        Value *x = v->u.seq.items[i];
        if (!is_tensor(x)) {
            exc_set("RuntimeError", "all inputs have to be Tensors, but got %s", type_name(x));
            return -1;
        }
        if (*n == MAXOUT) {
            exc_set("RuntimeError", "too many tensors");
            return -1;
        }
        ts[(*n)++] = T(x);
    }
    return 0;
}

static Value *m_backward(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *x[4];
    if (bind_args(a, "Tensor.backward", "def self, gradient=, retain_graph=, create_graph=, inputs=", x)) return NULL;
    bool retain, create;
    if (check_retain(x[1], x[2], &retain, &create) < 0) return NULL;
    tsr_tensor *out = T(self), *g = x[0] && !is_none(x[0]) ? (is_tensor(x[0]) ? T(x[0]) : NULL) : NULL;
    if (x[0] && !is_none(x[0]) && !g) return exc_set("TypeError", "gradient must be a Tensor or None");
    tsr_tensor *ins[MAXOUT];
    int ni = 0;
    if (backward_inputs(x[3], ins, &ni) < 0) return NULL;
    warn_cycle(create);
    if (ni) return tsr_autograd_backward_inputs(1, &out, &g, retain, ni, ins, create) < 0 ? run_error() : v_none();
    if (tsr_autograd_run(1, &out, &g, retain, 0, NULL, false, NULL, create ? TSR_AG_CREATE_GRAPH : 0) < 0)
        return run_error();
    return v_none();
}

static Value *f_backward(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[6];
    if (bind_args(a, "backward", "def tensors, grad_tensors=, retain_graph=, create_graph=, grad_variables=, inputs=", x))
        return NULL;
    bool retain, create;
    if (check_retain(x[2], x[3], &retain, &create) < 0) return NULL;
    tsr_tensor *outs[MAXOUT], *gs[MAXOUT] = {0};
    int n, ng = 0;
    if (tensor_seq(x[0], "tensors", outs, MAXOUT, &n, false) < 0) return NULL;
    if (x[1] && !is_none(x[1]) && tensor_seq(x[1], "grad_tensors", gs, MAXOUT, &ng, true) < 0) return NULL;
    if (ng && ng < n)   /* 1.13 zips the two (_make_grads) */
        return exc_set("RuntimeError", "grad_tensors should have the same length as tensors (got %d and %d)", ng, n);
    tsr_tensor *ins[MAXOUT];
    int ni = 0;
    if (backward_inputs(x[5], ins, &ni) < 0) return NULL;
    warn_cycle(create);
    if (ni) return tsr_autograd_backward_inputs(n, outs, gs, retain, ni, ins, create) < 0 ? run_error() : v_none();
    if (tsr_autograd_run(n, outs, gs, retain, 0, NULL, false, NULL, create ? TSR_AG_CREATE_GRAPH : 0) < 0)
        return run_error();
    return v_none();
}

static Value *f_grad(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[8];
    if (bind_args(a, "grad", "def outputs, inputs, grad_outputs=, retain_graph=, create_graph=, only_inputs=, "
                  "allow_unused=, is_grads_batched=", x))
        return NULL;
    bool retain, create;
    if (check_retain(x[3], x[4], &retain, &create) < 0) return NULL;
    tsr_tensor *outs[MAXOUT], *ins[MAXOUT], *gs[MAXOUT] = {0}, *res[MAXOUT];
    int n, ni, ng = 0;
    if (tensor_seq(x[0], "outputs", outs, MAXOUT, &n, false) < 0 || tensor_seq(x[1], "inputs", ins, MAXOUT, &ni, false) < 0)
        return NULL;
    if (ni == 0) return exc_set("ValueError", "grad requires non-empty inputs.");
    if (x[2] && !is_none(x[2]) && tensor_seq(x[2], "grad_outputs", gs, MAXOUT, &ng, true) < 0) return NULL;
    if (ng && ng != n)
        return exc_set("RuntimeError", "grad requires one grad_output per output (got %d and %d)", ng, n);
    bool allow_unused = x[6] && value_truth(x[6]) > 0;
    if (tsr_autograd_run(n, outs, gs, retain, ni, ins, allow_unused, res, create ? TSR_AG_CREATE_GRAPH : 0) < 0)
        return run_error();
    Value *t = v_tuple((size_t)ni);
    for (int i = 0; i < ni; i++) t->u.seq.items[i] = res[i] ? v_tensor(res[i]) : v_none();
    return t;
}

/* ------------------------------------------------------------ grad mode */

/* ext.a: the mode it sets (1 on, 0 off); ext.b: the mode to restore */
static Value *mode_repr(Value *v) { return v_strf("<torch.autograd.grad_mode.%s object at %p>", v->type->name, (void *)v); }
static Value *mode_enter(Value *v)
{
    v->u.ext.b = tsr_grad_enabled() | (tsr_inference_mode() ? 2 : 0);
    tsr_set_grad_enabled(v->u.ext.a & 1);
    if (v->u.ext.a & 4) tsr_set_inference_mode((v->u.ext.a & 2) != 0);
    return v_none();
}
static int mode_exit(Value *v)
{
    tsr_set_grad_enabled(v->u.ext.b & 1);
    if (v->u.ext.a & 4) tsr_set_inference_mode((v->u.ext.b & 2) != 0);
    return 0;
}
static Value *setg_enter(Value *v) { (void)v; return v_none(); }
static const VType t_no_grad = {.name = "no_grad", .module = "torch.autograd.grad_mode", .repr = mode_repr,
                                .enter = mode_enter, .exit = mode_exit};
static const VType t_enable_grad = {.name = "enable_grad", .module = "torch.autograd.grad_mode", .repr = mode_repr,
                                    .enter = mode_enter, .exit = mode_exit};
static const VType t_set_grad_enabled = {.name = "set_grad_enabled", .module = "torch.autograd.grad_mode",
                                         .repr = mode_repr, .enter = setg_enter, .exit = mode_exit};
static const VType t_inference_mode = {.name = "inference_mode", .module = "torch.autograd.grad_mode",
                                       .repr = mode_repr, .enter = mode_enter, .exit = mode_exit};

static Value *mode_new(const VType *t, int64_t sets)
{
    Value *v = value_alloc(t);
    v->u.ext.a = sets;
    return v;
}

static Value *f_no_grad(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (args_meth_noargs(a, "no_grad") < 0) return NULL;
    return mode_new(&t_no_grad, 0);
}
static Value *f_enable_grad(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (args_meth_noargs(a, "enable_grad") < 0) return NULL;
    return mode_new(&t_enable_grad, 1);
}
/* set_grad_enabled(mode) switches at once; as a context manager it puts
 * the previous mode back on exit. */
static Value *f_set_grad_enabled(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (bind_args(a, "set_grad_enabled", "def mode", x)) return NULL;
    if (x[0]->type != &t_bool)
        return exc_set("TypeError", "enabled must be a bool (got %s)", type_name(x[0]));
    Value *v = mode_new(&t_set_grad_enabled, x[0]->u.i ? 1 : 0);
    v->u.ext.b = tsr_grad_enabled() | (tsr_inference_mode() ? 2 : 0);
    tsr_set_grad_enabled(x[0]->u.i != 0);
    return v;
}
static Value *f_inference_mode(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (bind_args(a, "inference_mode", "def mode=", x)) return NULL;
    bool on = !x[0] || value_truth(x[0]) > 0;
    return mode_new(&t_inference_mode, on ? 4 | 2 : 4 | 1);
}
static Value *f_is_grad_enabled(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (args_meth_noargs(a, "is_grad_enabled") < 0) return NULL;
    return v_bool(tsr_grad_enabled());
}
static Value *f_is_inference_mode_enabled(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (args_meth_noargs(a, "is_inference_mode_enabled") < 0) return NULL;
    return v_bool(tsr_inference_mode());
}

/* ------------------------------------------------------------ registration */

void bind_autograd_init(void)
{
    static const struct { const char *name; PropGet get; PropSet set; } ps[] = {
        {"requires_grad", p_requires_grad, ps_requires_grad}, {"is_leaf", p_is_leaf, NULL},
        {"grad", p_grad, ps_grad}, {"grad_fn", p_grad_fn, NULL}, {"retains_grad", p_retains_grad, NULL},
        {"_version", p_version, NULL}, {"output_nr", p_output_nr, NULL},
    };
    for (size_t i = 0; i < sizeof ps / sizeof *ps; i++) bind_tensor_property(ps[i].name, ps[i].get, ps[i].set);
    bind_tensor_method("register_hook", m_register_hook);
    bind_tensor_method("retain_grad", m_retain_grad);
    bind_tensor_method("detach", m_detach);
    bind_tensor_method("detach_", m_detach_);
    bind_tensor_method("backward", m_backward);
    Value *torch = bind_module("torch"), *ag = bind_module("torch.autograd");
    module_add_fn(torch, "no_grad", f_no_grad);
    module_add_fn(torch, "enable_grad", f_enable_grad);
    module_add_fn(torch, "set_grad_enabled", f_set_grad_enabled);
    module_add_fn(torch, "inference_mode", f_inference_mode);
    module_add_fn(torch, "is_grad_enabled", f_is_grad_enabled);
    module_add_fn(torch, "is_inference_mode_enabled", f_is_inference_mode_enabled);
    module_add_fn(ag, "grad", f_grad);
    module_add_fn(ag, "backward", f_backward);
    module_add_fn(ag, "no_grad", f_no_grad);
    module_add_fn(ag, "enable_grad", f_enable_grad);
    module_add_fn(ag, "set_grad_enabled", f_set_grad_enabled);
    module_add_fn(ag, "inference_mode", f_inference_mode);
}
