/* src/commands.h — the REPL's ':' commands (not Python). Any module may
 * register one; the REPL and standard input run a line starting with ':'
 * through cmd_run. */
#ifndef TSR_COMMANDS_H
#define TSR_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

/* Runs the command with its argument text (never NULL); returns 0 on
 * success, 1 when it failed (the error already printed). */
typedef int (*CommandFn)(const char *arg);

void cmd_register(const char *name, CommandFn fn, const char *usage, const char *summary);
/* Extra text shown by ":help TOPIC". */
void cmd_help_topic(const char *topic, const char *text);

bool cmd_is_command(const char *line);      /* starts with ':' + a letter */
int cmd_run(const char *line);
const char *cmd_name(int i);                /* for completion; NULL at end */

extern bool cmd_quit_requested;

/* The most bytes a script, a :load file or standard input may hold. */
#define CMD_MAX_SOURCE ((size_t)64 << 20)

/* Reads all of f into a new buffer (free() it) and sets *len. Returns NULL
 * after writing a one-line reason into msg (msgn bytes): a read error, more
 * than CMD_MAX_SOURCE bytes, a NUL byte (the file is not text), or no
 * memory. path names the file in the reason; NULL means standard input. */
char *cmd_read_source(FILE *f, const char *path, size_t *len, char *msg, size_t msgn);

#endif
