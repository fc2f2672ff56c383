/* src/commands.h — the REPL's ':' commands (not Python). Any module may
 * register one; the REPL and standard input run a line starting with ':'
 * through cmd_run. */
#ifndef TSR_COMMANDS_H
#define TSR_COMMANDS_H

#include <stdbool.h>

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

#endif
