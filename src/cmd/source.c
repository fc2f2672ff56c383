/* src/cmd/source.c — running a text that mixes statements and ':' command
 * lines (standard input, a pasted block, a doctest file), and doctest
 * conversion. Line numbers in errors stay those of the original text. */
#include <stdlib.h>
#include <string.h>

#include "bind/bind.h"
#include "cmd/cmd.h"
#include "eval.h"

/* The prompt of a doctest line: after `ind` bytes of blanks, ">>>" or "..."
 * followed by a space or the end of the line. Returns the length of the
 * prompt with its space (3 or 4), or 0. */
static size_t prompt_len(const char *l, size_t n, size_t ind, const char *p)
{
    if (n < ind + 3 || memcmp(l + ind, p, 3) != 0) return 0;
    if (n == ind + 3) return 3;
    return l[ind + 3] == ' ' ? 4 : 0;
}

static size_t indent_of(const char *l, size_t n)
{
    size_t i = 0;
    while (i < n && (l[i] == ' ' || l[i] == '\t')) i++;
    return i;
}

char *cmd_doctest(const char *text, size_t len, size_t *out_len)
{
    const char *end = text + len;
    bool any = false;
    for (const char *l = text; l < end && !any;) {
        const char *nl = memchr(l, '\n', (size_t)(end - l));
        size_t n = (size_t)((nl ? nl : end) - l);
        if (prompt_len(l, n, indent_of(l, n), ">>>")) any = true;
        l = nl ? nl + 1 : end;
    }
    if (!any) return NULL;
    char *out = value_xmalloc(len + 1), *o = out;
    bool in_stmt = false;
    size_t ind = 0;     /* the indentation of the statement's ">>>" line */
    for (const char *l = text; l < end;) {
        const char *nl = memchr(l, '\n', (size_t)(end - l));
        size_t n = (size_t)((nl ? nl : end) - l);
        if (n && l[n - 1] == '\r') n--;
        size_t i = indent_of(l, n), k;
        if ((k = prompt_len(l, n, i, ">>>"))) {
            ind = i;
            in_stmt = true;
            memcpy(o, l + i + k, n - i - k);
            o += n - i - k;
        } else if (in_stmt && (k = prompt_len(l, n, ind, "...")) && indent_of(l, ind) == ind) {
            memcpy(o, l + ind + k, n - ind - k);
            o += n - ind - k;
        } else {
            in_stmt = false;    /* expected output or prose: skipped */
        }
        if (nl) *o++ = '\n';
        l = nl ? nl + 1 : end;
    }
    *o = 0;
    *out_len = (size_t)(o - out);
    return out;
}

int cmd_run_text(const char *name, char *text, size_t len, bool keep_going, int *failed)
{
    size_t seg = 0, pos = 0;
    int line = 1, seg_line = 1;
    while (pos <= len) {
        bool at_end = pos == len;
        bool is_cmd = !at_end && cmd_is_command(text + pos);
        if (is_cmd || at_end) {
            if (pos > seg) {
                /* pad with newlines so line numbers stay those of the input */
                size_t pad = (size_t)(seg_line - 1);
                char *buf = value_xmalloc(pad + (pos - seg) + 1);
                memset(buf, '\n', pad);
                memcpy(buf + pad, text + seg, pos - seg);
                *failed += eval_source(name, buf, pad + (pos - seg), keep_going, NULL);
                free(buf);
                if (*failed && !keep_going) return 1;
                if (eval_saw_interrupt && !eval_opts.interactive) return 1;
                if (eval_exit_requested) return 1;
            }
            if (at_end) break;
            char *nl = memchr(text + pos, '\n', len - pos);
            size_t end = nl ? (size_t)(nl - text) : len;
            char save = text[end];
            text[end] = 0;
            if (cmd_run(text + pos)) (*failed)++;
            text[end] = save;
            if (cmd_quit_requested) return 1;
            if (*failed && !keep_going) return 1;
            pos = nl ? end + 1 : len;
            line++;
            seg = pos;
            seg_line = line;
            continue;
        }
        char *nl = memchr(text + pos, '\n', len - pos);
        pos = nl ? (size_t)(nl - text) + 1 : len;
        line++;
    }
    return 0;
}
