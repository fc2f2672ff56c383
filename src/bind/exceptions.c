/* src/bind/exceptions.c — Python's built-in exception classes as values:
 * the class objects, their instances (args, str, repr) and the hierarchy
 * `except` and isinstance() match by (CPython's Objects/exceptions.c). An
 * error the runtime raises by name matches the class of that name. */
#include <string.h>

#include "bind/areas.h"
#include "bind/bind.h"
#include "bind/exceptions.h"

/* ORDER EXC: every class follows its base. */
#define EXC_CLASSES(X)                                                                                         \
    X(BaseException, -1) X(Exception, 0) X(KeyboardInterrupt, 0) X(SystemExit, 0) X(GeneratorExit, 0)         \
    X(ArithmeticError, 1) X(ZeroDivisionError, 5) X(OverflowError, 5) X(FloatingPointError, 5)               \
    X(LookupError, 1) X(IndexError, 9) X(KeyError, 9) X(RuntimeError, 1) X(NotImplementedError, 12)          \
    X(RecursionError, 12) X(ValueError, 1) X(UnicodeError, 15) X(TypeError, 1) X(AttributeError, 1)          \
    X(NameError, 1) X(UnboundLocalError, 19) X(MemoryError, 1) X(StopIteration, 1) X(AssertionError, 1)      \
    X(ImportError, 1) X(ModuleNotFoundError, 24) X(SyntaxError, 1) X(IndentationError, 26)                   \
    X(SystemError, 1) X(OSError, 1) X(FileNotFoundError, 29) X(_LinAlgError, 12)                              \
    X(IsADirectoryError, 29) X(PermissionError, 29) X(EOFError, 1) X(UnicodeDecodeError, 16)                 \
    X(UnpicklingError, 1)

enum {
#define X(N, P) EXC_##N,
    EXC_CLASSES(X)
#undef X
    EXC__COUNT
};

static const int exc_base[EXC__COUNT] = {
#define X(N, P) P,
    EXC_CLASSES(X)
#undef X
};
_Static_assert(sizeof exc_base / sizeof *exc_base == EXC__COUNT, "ORDER EXC");

static Value *exc_inst_repr(Value *v);
static Value *exc_inst_str(Value *v);
static Value *exc_inst_getattr(Value *v, const char *name);
static void exc_inst_destroy(Value *v);
static Value *exc_construct(Value *self, CallArgs *a, void *d);

static const VType exc_vt[EXC__COUNT] = {
#define X(N, P)                                                                                                \
    {.name = #N, .destroy = exc_inst_destroy, .repr = exc_inst_repr, .str = exc_inst_str,                    \
     .getattr = exc_inst_getattr, .construct = exc_construct},
    EXC_CLASSES(X)
#undef X
};

static int class_index(const VType *t)
{
    if (t < exc_vt || t >= exc_vt + EXC__COUNT) return -1;
    return (int)(t - exc_vt);
}

static int index_of_name(const char *name)
{
    for (int i = 0; i < EXC__COUNT; i++)
        if (!strcmp(exc_vt[i].name, name)) return i;
    return -1;
}

bool bind_exc_is_class(Value *v)
{
    return v->type == &t_type && class_index(v->u.typeobj) >= 0;
}

bool bind_exc_is_instance(Value *v)
{
    return class_index(v->type) >= 0;
}

bool bind_exc_subclass(const VType *t, const VType *of)
{
    int i = class_index(t), j = class_index(of);
    if (i < 0 || j < 0) return false;
    for (; i >= 0; i = exc_base[i])
        if (i == j) return true;
    return false;
}

bool bind_exc_name_matches(const char *type, Value *cls)
{
    int i = index_of_name(type);
    /* a name the table does not know is an Exception subclass */
    const VType *t = i >= 0 ? &exc_vt[i] : &exc_vt[EXC_Exception];
    return bind_exc_subclass(t, cls->u.typeobj);
}

/* ---------------------------------------------------------- instances */

static Value *inst_args(Value *v) { return v->u.ext.ptr; }

static void exc_inst_destroy(Value *v) { decref(inst_args(v)); }

static Value *exc_inst_repr(Value *v)
{
    Value *args = inst_args(v);
    Value *r = seq_len(args) == 1 ? value_repr(seq_get(args, 0)) : value_repr(args);
    if (!r) return NULL;
    Value *out = seq_len(args) == 1 ? v_strf("%s(%s)", v->type->name, r->u.s.p) : v_strf("%s%s", v->type->name, r->u.s.p);
    decref(r);
    return out;
}

static Value *exc_inst_str(Value *v)
{
    Value *args = inst_args(v);
    if (seq_len(args) == 0) return v_str("");
    if (seq_len(args) == 1) {
        /* KeyError shows its key as repr (CPython's KeyError_str) */
        if (v->type == &exc_vt[EXC_KeyError]) return value_repr(seq_get(args, 0));
        return value_str(seq_get(args, 0));
    }
    return value_str(args);
}

static Value *exc_inst_getattr(Value *v, const char *name)
{
    Value *args = inst_args(v);
    if (!strcmp(name, "args")) return incref(args);
    if (v->type == &exc_vt[EXC_SystemExit] && !strcmp(name, "code"))
        return seq_len(args) == 0 ? v_none() : seq_len(args) == 1 ? incref(seq_get(args, 0)) : incref(args);
    return NULL;
}

static Value *new_instance(const VType *t, Value *args)
{
    Value *v = value_alloc(t);
    v->u.ext.ptr = args;
    return v;
}

static Value *exc_construct(Value *self, CallArgs *a, void *d)
{
    (void)d;
    const VType *t = self->u.typeobj;
    if (a->nkw) return exc_set("TypeError", "%s() takes no keyword arguments", t->name);
    Value *args = v_tuple((size_t)a->npos);
    for (int i = 0; i < a->npos; i++) args->u.seq.items[i] = incref(a->pos[i]);
    return new_instance(t, args);
}

Value *bind_exc_from_record(const char *type, const char *msg)
{
    int i = index_of_name(type);
    const VType *t = &exc_vt[i >= 0 ? i : EXC_Exception];
    size_t n = strlen(msg);
    Value *arg;
    if (t == &exc_vt[EXC_KeyError] && n >= 2 && msg[0] == '\'' && msg[n - 1] == '\'')
        arg = v_strn(msg + 1, n - 2); /* the runtime's KeyError message is repr(key) */
    else
        arg = n ? v_str(msg) : NULL;
    return new_instance(t, arg ? v_tuple_of(1, arg) : v_tuple(0));
}

int bind_exc_raise(Value *x)
{
    Value *inst = NULL;
    if (bind_exc_is_class(x)) {
        inst = new_instance(x->u.typeobj, v_tuple(0));
    } else if (bind_exc_is_instance(x)) {
        inst = incref(x);
    } else {
        return exc_seti("TypeError", "exceptions must derive from BaseException");
    }
    Value *s = value_str(inst);
    if (!s) { decref(inst); return -1; }
    exc_set_object(inst, inst->type->name, s->u.s.p);
    decref(s);
    decref(inst);
    return -1;
}

void bind_exceptions_init(void)
{
    for (int i = 0; i < EXC__COUNT; i++) {
        if (exc_vt[i].name[0] == '_') continue;   /* torch._C's, not a built-in */
        Value *c = v_typeobj(&exc_vt[i]);
        dict_set_str(bind_builtins(), exc_vt[i].name, c);
        decref(c);
    }
}
