/* src/bind/query.c — the small questions a user asks of tensors and of the
 * library, as a CPU-only PyTorch 1.13 answers them: pinned and shared
 * memory, is_signed/is_nonzero/is_same_size, typename, the
 * device-kind properties (is_vulkan ...), the constants torch.inf/nan/pi/e,
 * and the global switches of deterministic algorithms and float32 matmul
 * precision (kept and reported; tsr's CPU kernels are deterministic and its
 * float32 matmul is always 'highest'). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bind/areas.h"
#include "bind/bind.h"
#include "bind/table.h"
#include "bind/tensor.h"
#include "tensor.h"

typedef enum { K_IS_PINNED, K_PIN_MEMORY, K_IS_SIGNED, K_IS_NONZERO, K_IS_SAME_SIZE } Kind;

/* The NotImplementedError of an op with no kernel for a backend, as the
 * dispatcher words it (pin_memory runs aten::_pin_memory on the device the
 * memory is pinned for: CUDA by default). */
static Value *no_kernel(const char *op, const char *backend)
{
    tsr_error_no_kernel(op, backend, NULL);
    return bind_runtime_error();
}

static Value *query_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    Value *in = b->v[0];
    tsr_tensor *t = in && is_tensor(in) ? tensor_of(in) : NULL;
    tsr_device dev;
    switch ((Kind)row->kind) {
    case K_IS_PINNED:   /* no memory is pinned without CUDA */
        if (bind_device_arg(b->v[1], (tsr_device){TSR_DEV_CUDA, -1}, &dev) < 0) return NULL;
        return v_bool(false);
    case K_PIN_MEMORY:
        if (bind_device_arg(b->v[1], (tsr_device){TSR_DEV_CUDA, -1}, &dev) < 0) return NULL;
        return no_kernel("aten::_pin_memory", tsr_device_backend_name(dev.type));
    case K_IS_SIGNED: return v_bool(tsr_dtype_is_signed(t->dtype));
    case K_IS_NONZERO: {
        int r = tsr_tensor_is_nonzero(t);
        return r < 0 ? bind_runtime_error() : v_bool(r);
    }
    case K_IS_SAME_SIZE: {
        tsr_tensor *o = tensor_of(b->v[1]);
        bool same = o->ndim == t->ndim;
        for (int d = 0; same && d < t->ndim; d++) same = t->sizes[d] == o->sizes[d];
        return v_bool(same);
    }
    }
    (void)self; (void)inplace;
    return exc_set("RuntimeError", "internal error: query kind %d", row->kind);
}

#define M BIND_METHOD
#define FM (BIND_FN | BIND_METHOD)
#define ROW(n, k, fl, s) {.name = n, .kind = k, .flags = fl, .sigs = s, .handler = query_call}

static BindRow defs[] = {
    ROW("is_pinned", K_IS_PINNED, M, "Tensor self, Device? device=None"),
    ROW("pin_memory", K_PIN_MEMORY, M, "Tensor self, Device? device=None"),
    ROW("is_signed", K_IS_SIGNED, BIND_FN, "Tensor input"),
    ROW("is_nonzero", K_IS_NONZERO, FM, "Tensor input"),
    ROW("is_same_size", K_IS_SAME_SIZE, FM, "Tensor input, Tensor other"),
};

/* ------------------------------------------------------------ Python-level functions */

static Value *noargs[1];

/* torch.typename(o) (torch/__init__.py): a tensor's type() string, else the
 * class's module and qualified name ('int', 'torch.dtype'). */
static Value *f_typename(Value *self, CallArgs *a, void *d)
{
    Value *x[1];
    if (bind_args(a, "typename", "def o", x)) return NULL;
    if (is_tensor(x[0])) {
        Value *f = value_getattr(x[0], "type");
        if (!f) return NULL;
        Value *r = value_call0(f, 0, NULL);
        decref(f);
        return r;
    }
    Value *cls = v_typeobj(x[0]->type);
    Value *mod = value_getattr(cls, "__module__"), *qn = mod ? value_getattr(cls, "__qualname__") : NULL;
    decref(cls);
    if (!qn) { if (mod) decref(mod); return NULL; }
    Value *r = strcmp(mod->u.s.p, "builtins") ? v_strf("%s.%s", mod->u.s.p, qn->u.s.p) : incref(qn);
    decref(mod);
    decref(qn);
    return r;
}

static bool deterministic, deterministic_warn_only;
static char matmul_precision[16] = "highest";

static Value *f_use_deterministic(Value *self, CallArgs *a, void *d)
{
    Value *x[2];
    if (bind_args(a, "use_deterministic_algorithms", "def mode, *, warn_only=", x)) return NULL;
    if (x[0]->type != &t_bool)
        return exc_set("TypeError", "_set_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not %s",
                       type_name(x[0]));
    if (x[1] && x[1]->type != &t_bool)
        return exc_set("TypeError",
                       "_set_deterministic_algorithms(): argument 'warn_only' must be bool, not %s", type_name(x[1]));
    deterministic = x[0]->u.i != 0;
    deterministic_warn_only = x[1] && x[1]->u.i != 0;
    return v_none();
}

static Value *f_are_deterministic(Value *self, CallArgs *a, void *d)
{
    if (bind_args(a, "are_deterministic_algorithms_enabled", "def ", noargs)) return NULL;
    return v_bool(deterministic);
}

static Value *f_deterministic_warn_only(Value *self, CallArgs *a, void *d)
{
    if (bind_args(a, "is_deterministic_algorithms_warn_only_enabled", "def ", noargs)) return NULL;
    return v_bool(deterministic_warn_only);
}

static Value *f_get_matmul_precision(Value *self, CallArgs *a, void *d)
{
    if (bind_args(a, "get_float32_matmul_precision", "def ", noargs)) return NULL;
    return v_str(matmul_precision);
}

/* an unknown precision is only warned about (on stderr, by c10's logging) */
static Value *f_set_matmul_precision(Value *self, CallArgs *a, void *d)
{
    Value *x[1];
    if (bind_args(a, "set_float32_matmul_precision", "def precision", x)) return NULL;
    if (x[0]->type != &t_str)
        return exc_set("TypeError", "_set_float32_matmul_precision(): argument 'arg0' must be str, not %s",
                       type_name(x[0]));
    const char *p = x[0]->u.s.p;
    if (strcmp(p, "highest") && strcmp(p, "high") && strcmp(p, "medium")) {
        fprintf(stderr, "Warning: %s is not one of 'highest', 'high', or 'medium'; the current"
                        "setFloat32MatmulPrecision call has no effect.\n", p);
        return v_none();
    }
    snprintf(matmul_precision, sizeof matmul_precision, "%s", p);
    return v_none();
}

/* is_shared() and share_memory_() are Python methods of torch.Tensor in
 * 1.13 (torch/_tensor.py): CPython's messages for a def taking only self. */
static int def_self_only(CallArgs *a, const char *qualname)
{
    if (a->nkw)
        return exc_seti("TypeError", "%s() got an unexpected keyword argument '%s'", qualname, a->kwnames[0]);
    if (a->npos)
        return exc_seti("TypeError", "%s() takes 1 positional argument but %d were given", qualname, a->npos + 1);
    return 0;
}

static Value *m_is_shared(Value *self, CallArgs *a, void *d)
{
    if (def_self_only(a, "Tensor.is_shared") < 0) return NULL;
    return v_bool(tensor_of(self)->storage->shared);
}

/* (the storage moves into shared memory for other processes; within one
 * process that is only this mark) */
static Value *m_share_memory_(Value *self, CallArgs *a, void *d)
{
    if (def_self_only(a, "Tensor.share_memory_") < 0) return NULL;
    tsr_tensor *t = tensor_of(self);
    if (t->device.type != TSR_DEV_CPU) return exc_set("RuntimeError", "_share_fd_: only available on CPU");
    t->storage->shared = true;
    return incref(self);
}

/* ------------------------------------------------------------ properties */

static Value *p_false(Value *self) { (void)self; return v_bool(false); }

void bind_query_init(void)
{
    bind_table_register(defs, (int)(sizeof defs / sizeof defs[0]));
    bind_tensor_method("is_shared", m_is_shared);
    bind_tensor_method("share_memory_", m_share_memory_);
    static const char *const kinds[] = {"is_vulkan", "is_ipu", "is_xpu", "is_ort"};
    for (unsigned i = 0; i < sizeof kinds / sizeof *kinds; i++) bind_tensor_property(kinds[i], p_false, NULL);
    Value *torch = bind_module("torch");
    module_add(torch, "inf", v_float(INFINITY));
    module_add(torch, "nan", v_float(NAN));
    module_add(torch, "pi", v_float(M_PI));
    module_add(torch, "e", v_float(M_E));
    module_add_fn(torch, "typename", f_typename);
    module_add_fn(torch, "use_deterministic_algorithms", f_use_deterministic);
    module_add_fn(torch, "are_deterministic_algorithms_enabled", f_are_deterministic);
    module_add_fn(torch, "is_deterministic_algorithms_warn_only_enabled", f_deterministic_warn_only);
    module_add_fn(torch, "get_float32_matmul_precision", f_get_matmul_precision);
    module_add_fn(torch, "set_float32_matmul_precision", f_set_matmul_precision);
}
