/* src/traceback.h — the frames a pending exception passed through on its
 * way out of user functions, innermost first; printed beneath the error
 * line, outermost last (LANGUAGE.md "Errors"). One list for the session:
 * it belongs to the pending exception and is cleared with it. */
#ifndef TSR_TRACEBACK_H
#define TSR_TRACEBACK_H

#include <stdio.h>

#include "ast.h"

typedef struct TbFrame {
    char *fn;            /* the function's name */
    Chunk *chunk;        /* where the call is (a reference) */
    int line, col;
    struct TbFrame *next;
} TbFrame;

/* Appends a frame: function fn was called at chunk:line:col (copied). */
void tb_push(const char *fn, Chunk *chunk, int line, int col);
void tb_clear(void);
/* Moves the list out (the caller owns it; tb_free) / back in (stolen). */
TbFrame *tb_take(void);
void tb_set(TbFrame *tb);
void tb_free(TbFrame *tb);
/* Appends copies of the frames of tb. */
void tb_push_copy(const TbFrame *tb);
/* Prints the list, a frame repeated more than 3 times in a row as 3 and a
 * count (Python's traceback), then clears it. */
void tb_print(FILE *out);

#endif
