/* src/bind/bind.h — how the library the language sees is assembled:
 * modules by dotted name, the built-in namespace, registration of init
 * functions from any file (BIND_INIT), and Python-style argument parsing. */
#ifndef TSR_BIND_H
#define TSR_BIND_H

#include "args.h"
#include "value.h"

/* Runs fn once at session start; lower `order` runs first (core types 0,
 * torch functions 10, later extensions 20). */
typedef void (*BindInitFn)(void);
void bind_register_init(BindInitFn fn, int order);
#define BIND_INIT_ORDER(fn, order)                                          \
    static void fn(void);                                                   \
    __attribute__((constructor)) static void bind_reg_##fn(void)            \
    { bind_register_init(fn, order); }                                      \
    static void fn(void)
#define BIND_INIT(fn) BIND_INIT_ORDER(fn, 10)

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

#endif
