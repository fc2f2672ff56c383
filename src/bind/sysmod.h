/* src/bind/sysmod.h — the sys module: sys.argv (set by the command line)
 * and sys.exit. */
#ifndef TSR_BIND_SYSMOD_H
#define TSR_BIND_SYSMOD_H

#include "value.h"

/* Sets sys.argv to the n strings of v (copied); before any is set it is
 * [''], as in Python's REPL. */
void bind_sys_set_argv(int n, const char *const *v);
/* Raises SystemExit(*args) (n is 0 or 1), as sys.exit, exit() and quit()
 * do: the evaluator ends the run on it (eval_exit_requested). Returns NULL. */
Value *bind_sys_raise_exit(int n, Value **args);

#endif
