/* src/cmd/cmd.h — the REPL's ':' commands (not Python): one table in
 * cmd.c. The REPL and standard input run a line starting with ':' through
 * cmd_run. The handlers of the other files of src/cmd/ are declared here for
 * that table. */
#ifndef TSR_CMD_H
#define TSR_CMD_H

#include <stdbool.h>
#include <stdio.h>

bool cmd_is_command(const char *line);      /* starts with ':' + a letter */
/* Runs the command line; 0 on success, 1 when it failed (the error already
 * printed, or the command is unknown). */
int cmd_run(const char *line);
const char *cmd_name(int i);                /* for completion; NULL at end */

extern bool cmd_quit_requested;

/* Handlers: the argument text (never NULL, trimmed); 0 ok, 1 failed. */
int cmd_explain(const char *arg);           /* explain.c */
int cmd_table(const char *arg);
int cmd_info(const char *arg);              /* info.c */
int cmd_grad(const char *arg);              /* grad.c */
int cmd_storage(const char *arg);
int cmd_plot(const char *arg);              /* plot.c */
int cmd_hist(const char *arg);
int cmd_show(const char *arg);
int cmd_mem(const char *arg);               /* mem.c */
/* Parses a --max-memory / TSR_MAX_MEMORY size: bytes, or a number with K, M,
 * G or T (powers of 1024; "KiB", "MB" and the like read the same). 0 with
 * *out set, -1 when s is not such a size or not at least 1 byte. */
int cmd_parse_size(const char *s, size_t *out);
/* The text of ":help promotion" (explain.c). */
extern const char cmd_help_promotion[];
extern const char cmd_help_names[];   /* names.c */

/* The most bytes a script, a :load file or standard input may hold. */
#define CMD_MAX_SOURCE ((size_t)64 << 20)

/* Reads all of f into a new buffer (free() it) and sets *len. Returns NULL
 * after writing a one-line reason into msg (msgn bytes): a read error, more
 * than CMD_MAX_SOURCE bytes, a NUL byte (the file is not text), or no
 * memory. path names the file in the reason; NULL means standard input. */
char *cmd_read_source(FILE *f, const char *path, size_t *len, char *msg, size_t msgn);

/* Doctest text (source.c): when a line starts, after blanks, with ">>> "
 * (or is ">>>"), returns a new buffer (free() it) of as many lines, *out_len
 * bytes: each ">>> " line and the "... " lines after it with the same
 * indentation lose their indentation and prompt; every other line (expected
 * output, prose) becomes empty. ">>> :cmd" becomes a ':' command line.
 * Returns NULL when the text is not doctest. */
char *cmd_doctest(const char *text, size_t len, size_t *out_len);

/* Runs a text of statements and ':' command lines in order (source.c),
 * adding the statements and commands that failed to *failed. Stops after
 * the first failure unless keep_going, and after :quit, exit() or (outside the
 * REPL) a KeyboardInterrupt; returns 1 when it stopped early, else 0.
 * text is modified while it runs and restored. */
int cmd_run_text(const char *name, char *text, size_t len, bool keep_going, int *failed);

#endif
