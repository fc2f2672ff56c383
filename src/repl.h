/* src/repl.h — the interactive loop on a terminal (GNU Readline). */
#ifndef TSR_REPL_H
#define TSR_REPL_H

#include <signal.h>
#include <stdbool.h>

/* Runs until Ctrl-D or :quit; returns the exit status (0). */
int repl_run(void);

extern volatile sig_atomic_t repl_sigint;  /* set by the SIGINT handler */
extern volatile sig_atomic_t repl_active;  /* the REPL is waiting for input */
extern volatile sig_atomic_t repl_session; /* repl_run is running */

#endif
