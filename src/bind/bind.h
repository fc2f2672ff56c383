/* src/bind/bind.h — how the library the language sees is assembled:
 * modules by dotted name, the built-in namespace, registration of init
 * functions from any file (BIND_INIT), and Python-style argument parsing. */
#ifndef TSR_BIND_H
#define TSR_BIND_H

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
/* Maps a type object (`int`, `torch.Tensor`) to its constructor. */
void bind_type_ctor(const VType *t, BuiltinFn ctor);

/* Argument parsing with Python's rules and messages.
 * spec: comma-separated parameter names; "name=" is optional; "*" makes the
 * following ones keyword-only; "/" makes the preceding ones positional-only;
 * "*name" collects extra positionals into a tuple (a NEW reference in out:
 * the caller releases it); "**name" accepts and ignores other keywords
 * (out stays NULL).
 * out[i] receives the borrowed argument or NULL when absent.
 * Returns 0, or -1 with TypeError set. */
int bind_args(CallArgs *a, const char *fname, const char *spec, Value **out);

/* Convenience converters with PyTorch/Python messages; -1 on error. */
int bind_int(Value *v, const char *fname, const char *arg, int64_t *out);
int bind_float(Value *v, const char *fname, const char *arg, double *out);
int bind_bool(Value *v, const char *fname, const char *arg, bool *out);

/* acc op e1 op e2 ... over an iterable (sum, math.prod); steals acc. */
Value *bind_fold(Value *iterable, Value *acc, int op);

/* Sorting shared by list.sort and sorted(). */
int sort_values(Value **items, size_t n, Value *key, bool reverse);

#endif
