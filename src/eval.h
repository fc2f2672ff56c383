/* src/eval.h — the tree-walking evaluator and the session it runs in.
 * A session has one global namespace; a top-level statement that fails
 * leaves every binding as it was before the statement. */
#ifndef TSR_EVAL_H
#define TSR_EVAL_H

#include <stdio.h>

#include "ast.h"
#include "value.h"

typedef struct {
    bool brief_errors;      /* errors as "Type: message" on stdout */
    bool color;             /* ANSI colors in error reports */
    bool show_location;     /* prefix "FILE:LINE:COL: " */
    bool interactive;       /* the REPL: no location prefix */
} EvalOptions;

extern EvalOptions eval_opts;

void eval_init(void);
void eval_fini(void);
Value *eval_globals(void);                 /* borrowed */

/* Runs every top-level statement of the text, printing the values of
 * expression statements. Returns the number of statements that failed;
 * unless keep_going, stops after the first failure. *incomplete (may be
 * NULL) is set when the only error is that the text ended too early. */
int eval_source(const char *name, const char *text, size_t len, bool keep_going, bool *incomplete);

/* Parses the whole text (as Python compiles a file before running it)
 * without running anything. Returns 0, or 1 after reporting the first
 * syntax error as eval_source would. */
int eval_check_source(const char *name, const char *text, size_t len);

/* Evaluates one expression in the session (for :info, :explain...). New
 * reference, or NULL with the error already reported. */
Value *eval_expression(const char *name, const char *text);

/* Prints the pending exception the way the session reports errors and
 * clears it. */
void eval_report_error(void);

/* fflush(stdout), remembering the errno of the first flush that failed
 * (stdio keeps only the error flag) for the report at exit. */
void eval_flush_output(void);
extern int eval_output_errno;

/* Set by SIGINT; checked between statements and loop iterations. */
extern volatile int eval_interrupted;
/* sys.exit() (SystemExit escaping a statement) ended the run: stop, and
 * leave with this status (Python's: 0 for None, the int, else 1 after
 * printing the value to stderr). */
extern bool eval_exit_requested;
extern int eval_exit_status;
extern bool eval_saw_interrupt;             /* a KeyboardInterrupt ended a statement */
bool eval_check_interrupt(void);          /* raises KeyboardInterrupt if set */

#endif
