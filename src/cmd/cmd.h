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
int cmd_storage(const char *arg);
int cmd_mem(const char *arg);               /* mem.c */
/* Parses a --max-memory / TSR_MAX_MEMORY size: bytes, or a number with K, M,
 * G or T (powers of 1024; "KiB", "MB" and the like read the same). 0 with
 * *out set, -1 when s is not such a size or not at least 1 byte. */
int cmd_parse_size(const char *s, size_t *out);
/* The text of ":help promotion" (explain.c). */
extern const char cmd_help_promotion[];

/* The most bytes a script, a :load file or standard input may hold. */
#define CMD_MAX_SOURCE ((size_t)64 << 20)

/* Reads all of f into a new buffer (free() it) and sets *len. Returns NULL
 * after writing a one-line reason into msg (msgn bytes): a read error, more
 * than CMD_MAX_SOURCE bytes, a NUL byte (the file is not text), or no
 * memory. path names the file in the reason; NULL means standard input. */
char *cmd_read_source(FILE *f, const char *path, size_t *len, char *msg, size_t msgn);

#endif
