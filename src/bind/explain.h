/* src/bind/explain.h — the trace behind :explain. While a trace is active,
 * every tensor operation the bindings run records one ExplainStep (defined
 * with its printer in show/explain.h); :explain EXPR (src/cmd/explain.c)
 * starts it, evaluates EXPR and stops it. The bindings call
 * explain_active() first: recording costs nothing when no :explain runs. */
#ifndef TSR_BIND_EXPLAIN_H
#define TSR_BIND_EXPLAIN_H

#include <stdbool.h>

#include "show/explain.h"

#define EXPLAIN_SHOW_MAX 64    /* steps printed; later ones are only counted */

bool explain_active(void);
/* Records a step (copies it; retains the operand tensors) and prints it at
 * once, so steps come in evaluation order, before the error of a failing op
 * and between print() outputs. */
void explain_record(const ExplainStep *step);
/* The name-inference step of indexing a named tensor (x[0], x[:, 1:]); r:
 * the result (a tensor), or NULL when it failed (the exception pending). */
void explain_names_index(const tsr_tensor *self, const tsr_tensor *r);
/* Steps recorded so far in this trace. */
long explain_steps_recorded(void);
/* Remembers t's names before an op writes it (out= or in-place self): the
 * next step that writes t shows them (its names are put back after). */
void explain_written_before(const tsr_tensor *t);
/* Prints a name-inference step (numbered with the others); nothing is kept. */
void explain_record_names(const ExplainNames *step);

/* Starts a trace; color: bold step headers. */
void explain_begin(bool color);
/* Stops recording; returns how many steps were recorded (shown or not). */
long explain_stop(void);
/* Stops and frees the copies (releases the operand tensors). */
void explain_end(void);

#endif
