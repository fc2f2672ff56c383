/* src/args.h — Python-style argument parsing over CallArgs (value.h).
 * Ownership as in value.h: out[] receives borrowed arguments. */
#ifndef TSR_ARGS_H
#define TSR_ARGS_H

#include "value.h"

/* spec: comma-separated parameter names; "name=" is optional; "*" makes the
 * following ones keyword-only; "/" makes the preceding ones positional-only;
 * "*name" collects extra positionals into a tuple (a NEW reference in out:
 * the caller releases it); "**name" accepts and ignores other keywords
 * (out stays NULL). A leading "def " marks a function that is written in
 * Python in 1.13: missing arguments are then reported as CPython does for a
 * def ("f() missing 1 required positional argument: 'd'"), else as a C
 * built-in ("f() missing required argument 'd' (pos 1)"). "def self, ..."
 * marks a method written in Python: self is bound already and not in a, yet
 * CPython's counts of positional arguments include it.
 * out[i] receives the borrowed argument or NULL when absent.
 * Returns 0, or -1 with TypeError set. */
int args_parse(CallArgs *a, const char *fname, const char *spec, Value **out);
/* args_parse's check alone, for a spec without "*name": the arguments are
 * bound and dropped (at most 32 parameters). 0, or -1 with TypeError set. */
int args_check(CallArgs *a, const char *fname, const char *spec);

/* Converters with Python's messages ("f(): argument 'x' must be int, not
 * str"); 0, or -1 with TypeError set. */
/* CPython's checks of a C function without arguments (METH_NOARGS) and
 * with exactly one (METH_O), in its words ("torch.get_num_threads() takes
 * no arguments (1 given)"). 0, or -1 with TypeError. */
int args_meth_noargs(CallArgs *a, const char *qualname);
int args_meth_o(CallArgs *a, const char *qualname);
int args_int(Value *v, const char *fname, const char *arg, int64_t *out);
int args_float(Value *v, const char *fname, const char *arg, double *out);
int args_bool(Value *v, const char *fname, const char *arg, bool *out);

#endif
