/* src/bind/sysmod.h — the sys module: sys.argv (set by the command line)
 * and sys.exit. */
#ifndef TSR_BIND_SYSMOD_H
#define TSR_BIND_SYSMOD_H

/* Sets sys.argv to the n strings of v (copied); before any is set it is
 * [''], as in Python's REPL. */
void bind_sys_set_argv(int n, const char *const *v);

#endif
