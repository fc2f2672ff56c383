/* src/bind/bind.h — how the library the language sees is assembled:
 * modules by dotted name, the built-in namespace, the areas' init (one
 * explicit list, bind/areas.c), and Python-style argument parsing. */
#ifndef TSR_BIND_H
#define TSR_BIND_H

#include "args.h"
#include "value.h"

/* Builds the library the language sees: every binding area of
 * bind/areas.h, in its order. bind_fini releases it. */
void bind_init_all(void);
void bind_fini(void);

/* The module with this dotted name, created (and attached to its parent)
 * on first use. Borrowed. */
Value *bind_module(const char *dotted);
/* The module if it exists, else NULL. Borrowed. */
Value *bind_find_module(const char *dotted);
/* The built-in namespace (a dict). Borrowed. */
Value *bind_builtins(void);
void bind_builtin_fn(const char *name, BuiltinFn fn);


/* The hint line the REPL prints under an error of this type and message
 * (hint.c): for "module 'torch' has no attribute 'foo'", a note when foo is
 * PyTorch 1.13's, else "Did you mean: 'x'?" as Python 3.12. New str, or
 * NULL (no hint; no error set). */
Value *bind_error_hint(const char *type, const char *msg);

/* What Python's help() prints for the built-in function of this name, after
 * its "Help on ..." line (builtin_doc.c, generated); NULL if none. */
const char *bind_builtin_doc(const char *name);

/* Argument parsing: the bindings' names for src/args.h (which documents the
 * spec and the messages). */
static inline int bind_args(CallArgs *a, const char *fname, const char *spec, Value **out)
{
    return args_parse(a, fname, spec, out);
}
static inline int bind_int(Value *v, const char *fname, const char *arg, int64_t *out)
{
    return args_int(v, fname, arg, out);
}
static inline int bind_float(Value *v, const char *fname, const char *arg, double *out)
{
    return args_float(v, fname, arg, out);
}
static inline int bind_bool(Value *v, const char *fname, const char *arg, bool *out)
{
    return args_bool(v, fname, arg, out);
}

/* dir(v): v's attribute names, sorted and unique, as a new list. dir()
 * without arguments needs the namespace: the evaluator defines it. */
Value *bind_dir_of(Value *v);
/* What help(v) and :help EXPR print about v: for a callable of the binding
 * table its 1.13 summary and signatures (table.h), else "Help on int object:
 * 3". New str, or NULL with the exception of repr(v). */
Value *bind_help_text(Value *v);

/* acc op e1 op e2 ... over an iterable (sum, math.prod); steals acc. */
Value *bind_fold(Value *iterable, Value *acc, int op);

/* Two values wrapping one tensor header: the same object to `is` (PyTorch
 * keeps one Python object per TensorImpl: x.t()._base is x). */
bool bind_same_tensor(Value *a, Value *b);

#endif
