/* src/traceback.c — the frames of the pending exception (traceback.h);
 * printed as CPython's Lib/traceback.py shortens recursion. */
#include <stdlib.h>
#include <string.h>

#include "traceback.h"

static TbFrame *head, **tail = &head;

void tb_free(TbFrame *t)
{
    while (t) {
        TbFrame *n = t->next;
        if (t->chunk) chunk_unref(t->chunk);
        free(t->fn);
        free(t);
        t = n;
    }
}

void tb_clear(void)
{
    tb_free(head);
    head = NULL;
    tail = &head;
}

void tb_push(const char *fn, Chunk *chunk, int line, int col)
{
    TbFrame *t = value_xcalloc(1, sizeof *t);
    t->fn = value_xstrdup(fn);
    t->chunk = chunk ? chunk_ref(chunk) : NULL;
    t->line = line;
    t->col = col;
    *tail = t;
    tail = &t->next;
}

TbFrame *tb_take(void)
{
    TbFrame *t = head;
    head = NULL;
    tail = &head;
    return t;
}

void tb_set(TbFrame *tb)
{
    tb_clear();
    head = tb;
    while (tb && tb->next) tb = tb->next;
    tail = tb ? &tb->next : &head;
}

void tb_push_copy(const TbFrame *tb)
{
    for (; tb; tb = tb->next) tb_push(tb->fn, tb->chunk, tb->line, tb->col);
}

static bool same_frame(const TbFrame *a, const TbFrame *b)
{
    return a && b && a->chunk == b->chunk && a->line == b->line && a->col == b->col && !strcmp(a->fn, b->fn);
}

void tb_print(FILE *out)
{
    const TbFrame *prev = NULL;
    int same = 0;
    for (const TbFrame *t = head; t; t = t->next) {
        if (!t->chunk) continue;
        same = same_frame(prev, t) ? same + 1 : 0;
        if (same < 3) fprintf(out, "  in %s, called from %s:%d:%d\n", t->fn, t->chunk->name, t->line, t->col);
        if (same >= 3 && !same_frame(t, t->next))
            fprintf(out, "  [Previous line repeated %d more time%s]\n", same - 2, same - 2 == 1 ? "" : "s");
        prev = t;
    }
    tb_clear();
}
