/* src/fstring.c — f-strings: a literal f"..." token cut into text parts and
 * replacement fields, each field's expression parsed by the grammar on its
 * own piece of the source (CPython 3.11's Parser/string_parser.c rules and
 * messages: the expression ends at a top-level '!', ':', '=' or '}'). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

#define C (ps->chunk)

typedef struct {
    ParseState *ps;
    const char *base;     /* the token's text, for line:col of a position */
    int line, col;        /* of base */
    bool raw;
} FCtx;

static void pos_of(FCtx *f, const char *p, int *line, int *col)
{
    *line = f->line;
    *col = f->col;
    for (const char *q = f->base; q < p; q++) {
        if (*q == '\n') { (*line)++; *col = 1; }
        else (*col)++;
    }
}

static void fail_at(FCtx *f, const char *at, const char *msg)
{
    int line, col;
    pos_of(f, at, &line, &col);
    if (f->ps->failed) return;
    f->ps->failed = true;
    f->ps->etype = "SyntaxError";
    f->ps->eloc = (Loc){line, col, line, col + 1};
    snprintf(f->ps->emsg, sizeof f->ps->emsg, "f-string: %s", msg);
}

/* The expression text [p, e) parsed as an expression (nodes in the chunk). */
static Node *parse_expr_text(FCtx *f, const char *p, const char *e)
{
    ParseState *ps = f->ps;
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\n')) p++;
    int line, col;
    pos_of(f, p, &line, &col);
    Lexer lx;
    lex_init(&lx, p, (size_t)(e - p));
    ParseState sub = {0};
    sub.chunk = ps->chunk;
    void *lemon = tsrParseAlloc(malloc, &sub);
    if (!lemon) abort();
    Token t;
    for (;;) {
        int k = lex_next(&lx, &t);
        if (k == TK_ERROR) {
            char m[200];
            snprintf(m, sizeof m, "%s", lx.err);
            fail_at(f, p + (lx.err_col - 1), m);
            break;
        }
        if (t.line == 1) t.col += col - 1;
        t.line += line - 1;
        tsrParse(lemon, k, t);
        if (sub.failed || k == TK_ENDMARKER) break;
    }
    tsrParseFree(lemon, free);
    if (sub.failed) {
        if (!ps->failed) {
            ps->failed = true;
            ps->etype = sub.etype;
            ps->eloc = sub.eloc;
            snprintf(ps->emsg, sizeof ps->emsg, "f-string: %.180s", sub.emsg);
        }
        return NULL;
    }
    Node *r = sub.result;
    if (!r || r->kind != N_EXPR || !r->a) {
        fail_at(f, p, "invalid syntax");
        return NULL;
    }
    return r->a;
}

static Node *parse_parts(FCtx *f, const char **pp, const char *end, int depth, bool in_spec);

/* One replacement field; *pp is just past its '{'. */
static Node *parse_field(FCtx *f, const char **pp, const char *end, int depth)
{
    ParseState *ps = f->ps;
    const char *p = *pp, *start = p;
    int nest = 0;
    char quote = 0;
    for (; p < end; p++) {
        char c = *p;
        if (quote) { if (c == quote) quote = 0; continue; }
        if (c == '\'' || c == '"') { quote = c; continue; }
        if (c == '(' || c == '[' || c == '{') { nest++; continue; }
        if (nest && (c == ')' || c == ']' || c == '}')) { nest--; continue; }
        if (nest) continue;
        if (c == '}' || c == ':') break;
        if (c == '!' && p + 1 < end && p[1] != '=') break;
        if (c == '=' && p + 1 < end && p[1] != '=' && (p == start || !strchr("=!<>", p[-1]))) break;
        if (c == '=' && p + 1 < end && p[1] == '=') { p++; continue; }
    }
    if (p >= end) { fail_at(f, start, "expecting '}'"); return NULL; }
    const char *ee = p;
    bool blank = true;
    for (const char *q = start; q < ee; q++)
        if (*q != ' ' && *q != '\t' && *q != '\n') blank = false;
    if (blank) {
        fail_at(f, start, *p == '}' || *p == ':' ? "empty expression not allowed" :
                         *p == '!' ? "expression required before '!'" : "expression required before '='");
        return NULL;
    }
    Node *e = parse_expr_text(f, start, ee);
    if (!e) return NULL;
    Node *fld = ast_node(C, N_FIELD, e->loc);
    fld->a = e;
    Node *debug = NULL;
    if (*p == '=') {
        p++;
        while (p < end && (*p == ' ' || *p == '\t')) p++;
        Value *txt = v_strn(start, (size_t)(p - start));
        debug = ast_const(C, e->loc, txt);
    }
    if (p < end && *p == '!') {
        p++;
        if (p >= end || (*p != 'r' && *p != 's' && *p != 'a') || p + 1 >= end || (p[1] != ':' && p[1] != '}')) {
            fail_at(f, p, "invalid conversion character: expected 's', 'r', or 'a'");
            return NULL;
        }
        fld->op = *p++;
    }
    if (p < end && *p == ':') {
        p++;
        if (depth >= 1) {
            /* a field inside a spec may not have a spec with fields itself */
            for (const char *q = p; q < end && *q != '}'; q++)
                if (*q == '{') { fail_at(f, q, "expressions nested too deeply"); return NULL; }
        }
        fld->b = parse_parts(f, &p, end, depth + 1, true);
        if (!fld->b) return NULL;
    } else if (debug) {
        if (!fld->op) fld->op = 'r';
    }
    if (p >= end || *p != '}') { fail_at(f, start, "expecting '}'"); return NULL; }
    *pp = p + 1;
    if (!debug) return fld;
    Node *both = ast_node(C, N_FSTRING, e->loc);
    both->list = ast_list(C, debug);
    ast_append(C, both->list, fld);
    return both;
}

/* Text and fields up to end (or, in a spec, up to the closing '}'). */
static Node *parse_parts(FCtx *f, const char **pp, const char *end, int depth, bool in_spec)
{
    ParseState *ps = f->ps;
    const char *p = *pp;
    Node *out = ast_node(C, N_FSTRING, (Loc){f->line, f->col, f->line, f->col});
    out->list = ast_list(C, NULL);
    const char *lit = p;
#define FLUSH(upto) do { if ((upto) > lit) ast_append(C, out->list, ast_const(C, out->loc, ast_decode(lit, (size_t)((upto) - lit), f->raw))); } while (0)
    while (p < end) {
        if (*p == '\\' && !f->raw && p + 1 < end && p[1] != '{' && p[1] != '}') { p += 2; continue; }
        if (*p == '{') {
            if (!in_spec && p + 1 < end && p[1] == '{') { FLUSH(p + 1); p += 2; lit = p; continue; }
            FLUSH(p);
            p++;
            Node *fld = parse_field(f, &p, end, depth);
            if (!fld) return NULL;
            if (fld->kind == N_FSTRING)
                for (int i = 0; i < fld->list->n; i++) ast_append(C, out->list, fld->list->items[i]);
            else
                ast_append(C, out->list, fld);
            lit = p;
            continue;
        }
        if (*p == '}') {
            if (in_spec) break;
            if (p + 1 < end && p[1] == '}') { FLUSH(p + 1); p += 2; lit = p; continue; }
            fail_at(f, p, "single '}' is not allowed");
            return NULL;
        }
        p++;
    }
    FLUSH(p);
#undef FLUSH
    *pp = p;
    return out;
}

Node *parse_fstring(ParseState *ps, Token t)
{
    const char *p = t.p, *end = t.p + t.n;
    FCtx f = {ps, t.p, t.line, t.col, false};
    while (*p != '\'' && *p != '"') {
        if (*p == 'r' || *p == 'R') f.raw = true;
        p++;
    }
    char q = *p;
    int ql = (p + 2 < end && p[1] == q && p[2] == q && end - p >= 6) ? 3 : 1;
    p += ql;
    end -= ql;
    Node *n = parse_parts(&f, &p, end, 0, false);
    if (!n) { /* the error is recorded; the action still needs a node */
        n = ast_node(C, N_FSTRING, ast_tokloc(t));
        n->list = ast_list(C, NULL);
    }
    n->loc = ast_tokloc(t);
    return n;
}
