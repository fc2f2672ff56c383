/* src/ast.c — chunks (source text + arena) and the AST constructors, with
 * Python's rules for numeric and string literals. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"

static void chunk_own(Chunk *c, Value *v);

struct ArenaBlock {
    ArenaBlock *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

Chunk *chunk_new(const char *name, const char *text, size_t len)
{
    Chunk *c = value_xcalloc(1, sizeof *c);
    c->refcnt = 1;
    c->name = value_xstrdup(name);
    c->text = value_xmalloc(len + 1);
    memcpy(c->text, text, len);
    c->text[len] = 0;
    c->len = len;
    return c;
}

Chunk *chunk_ref(Chunk *c)
{
    c->refcnt++;
    return c;
}

void chunk_unref(Chunk *c)
{
    if (!c || --c->refcnt > 0) return;
    for (ArenaBlock *b = c->arena, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    for (size_t i = 0; i < c->nconsts; i++) decref(c->consts[i]);
    free(c->consts);
    free(c->name);
    free(c->text);
    free(c);
}

void *chunk_alloc(Chunk *c, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    ArenaBlock *b = c->arena;
    if (!b || b->used + n > b->cap) {
        size_t cap = n > 16384 ? n : 16384;
        b = value_xmalloc(sizeof *b + cap);
        b->next = c->arena;
        b->used = 0;
        b->cap = cap;
        c->arena = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

static void chunk_own(Chunk *c, Value *v);
static void chunk_own(Chunk *c, Value *v)
{
    if (c->nconsts == c->capconsts) {
        c->capconsts = c->capconsts * 2 + 16;
        c->consts = value_xrealloc(c->consts, c->capconsts * sizeof *c->consts);
    }
    c->consts[c->nconsts++] = v;
}

Node *ast_node(Chunk *c, NodeKind k, Loc loc)
{
    Node *n = chunk_alloc(c, sizeof *n);
    n->kind = k;
    n->loc = loc;
    return n;
}

NodeList *ast_list(Chunk *c, Node *first)
{
    NodeList *l = chunk_alloc(c, sizeof *l);
    if (first) ast_append(c, l, first);
    return l;
}

NodeList *ast_append(Chunk *c, NodeList *l, Node *x)
{
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 4;
        Node **items = chunk_alloc(c, (size_t)cap * sizeof *items);
        if (l->n) memcpy(items, l->items, (size_t)l->n * sizeof *items);
        l->items = items;
        l->cap = cap;
    }
    l->items[l->n++] = x;
    return l;
}

Loc ast_tokloc(Token t)
{
    /* a token may span lines (triple-quoted strings): end is on its last line */
    int line = t.line, col = t.col + t.n;
    for (int i = 0; i < t.n; i++)
        if (t.p[i] == '\n') { line++; col = t.n - i; }
    return (Loc){t.line, t.col, line, col};
}

Loc ast_span(Loc a, Loc b) { return (Loc){a.line, a.col, b.end_line, b.end_col}; }

Value *ast_key(Chunk *c, const char *name)
{
    Value *k = str_intern(name); /* its hash computed once, cached in the string */
    chunk_own(c, k);
    return k;
}

char *ast_name(Chunk *c, Token t)
{
    char *s = chunk_alloc(c, (size_t)t.n + 1);
    memcpy(s, t.p, (size_t)t.n);
    return s;
}

Node *ast_const(Chunk *c, Loc loc, Value *v)
{
    Node *n = ast_node(c, N_CONST, loc);
    n->value = v;
    chunk_own(c, v);
    return n;
}

Node *ast_number(Chunk *c, Token t, char *err, size_t errn)
{
    char buf[400];
    int k = 0;
    for (int i = 0; i < t.n && k < (int)sizeof buf - 1; i++)
        if (t.p[i] != '_') buf[k++] = t.p[i];
    buf[k] = 0;
    Loc loc = ast_tokloc(t);
    char last = buf[k - 1];
    if (last == 'j' || last == 'J') {
        buf[k - 1] = 0;
        return ast_const(c, loc, v_complex(0.0, strtod(buf, NULL)));
    }
    bool is_float = false;
    if (!(buf[0] == '0' && k > 1 && strchr("xXoObB", buf[1])))
        is_float = strpbrk(buf, ".eE") != NULL;
    if (is_float) return ast_const(c, loc, v_float(strtod(buf, NULL)));
    int base = 10;
    const char *digits = buf;
    if (buf[0] == '0' && k > 1 && strchr("xXoObB", buf[1])) {
        char b = buf[1] | 0x20;
        base = b == 'x' ? 16 : b == 'o' ? 8 : 2;
        digits = buf + 2;
    }
    errno = 0;
    unsigned long long u = strtoull(digits, NULL, base);
    if (u == (unsigned long long)INT64_MAX + 1 && errno != ERANGE) {
        /* only valid negated (-9223372036854775808): parse_unary folds it */
        Node *n = ast_const(c, loc, v_int(INT64_MIN));
        n->flag = 1;
        return n;
    }
    if (errno == ERANGE || u > (unsigned long long)INT64_MAX) {
        snprintf(err, errn, "integer literal too large: tsr ints are 64-bit");
        return NULL;
    }
    return ast_const(c, loc, v_int((int64_t)u));
}

static void put_utf8(char **o, unsigned cp)
{
    unsigned char *p = (unsigned char *)*o;
    if (cp < 0x80) *p++ = (unsigned char)cp;
    else if (cp < 0x800) { *p++ = (unsigned char)(0xc0 | cp >> 6); *p++ = (unsigned char)(0x80 | (cp & 0x3f)); }
    else if (cp < 0x10000) {
        *p++ = (unsigned char)(0xe0 | cp >> 12);
        *p++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        *p++ = (unsigned char)(0x80 | (cp & 0x3f));
    } else {
        *p++ = (unsigned char)(0xf0 | cp >> 18);
        *p++ = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
        *p++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        *p++ = (unsigned char)(0x80 | (cp & 0x3f));
    }
    *o = (char *)p;
}

static int hexval(char ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* Decodes a string literal token (prefix, quotes, escapes). */
static Value *decode_string(Token t)
{
    const char *p = t.p, *end = t.p + t.n;
    bool raw = false;
    while (*p != '\'' && *p != '"') {
        if (*p == 'r' || *p == 'R') raw = true;
        p++;
    }
    char q = *p;
    int ql = (p + 2 < end && p[1] == q && p[2] == q && end - p >= 6) ? 3 : 1;
    p += ql;
    end -= ql;
    return ast_decode(p, (size_t)(end - p), raw);
}

Value *ast_decode(const char *p, size_t n, bool raw)
{
    const char *end = p + n;
    char *out = value_xmalloc((size_t)(end - p) * 4 + 1), *o = out;
    while (p < end) {
        if (*p != '\\' || raw) {
            if (raw && *p == '\\' && p + 1 < end) { *o++ = *p++; *o++ = *p++; continue; }
            *o++ = *p++;
            continue;
        }
        p++;
        char e = *p++;
        switch (e) {
        case '\n': break;
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        case 'r': *o++ = '\r'; break;
        case '\\': *o++ = '\\'; break;
        case '\'': *o++ = '\''; break;
        case '"': *o++ = '"'; break;
        case 'a': *o++ = '\a'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'v': *o++ = '\v'; break;
        case 'x': {
            int h1 = p < end ? hexval(p[0]) : -1, h2 = p + 1 < end ? hexval(p[1]) : -1;
            if (h1 < 0 || h2 < 0) { *o++ = '\\'; *o++ = 'x'; break; }
            put_utf8(&o, (unsigned)(h1 * 16 + h2));
            p += 2;
            break;
        }
        case 'u':
        case 'U': {
            int nd = e == 'u' ? 4 : 8;
            unsigned cp = 0;
            int i;
            for (i = 0; i < nd && p + i < end && hexval(p[i]) >= 0; i++) cp = cp * 16 + (unsigned)hexval(p[i]);
            if (i < nd) { *o++ = '\\'; *o++ = e; break; }
            put_utf8(&o, cp);
            p += nd;
            break;
        }
        default:
            if (e >= '0' && e <= '7') {
                unsigned v = (unsigned)(e - '0');
                for (int i = 0; i < 2 && p < end && *p >= '0' && *p <= '7'; i++) v = v * 8 + (unsigned)(*p++ - '0');
                put_utf8(&o, v);
            } else {
                *o++ = '\\';
                *o++ = e;
            }
        }
    }
    *o = 0;
    return v_str_take(out, (size_t)(o - out));
}

Node *ast_string(Chunk *c, Node *prev, Token t)
{
    Value *s = decode_string(t);
    if (!prev) return ast_const(c, ast_tokloc(t), s);
    Value *v = prev->value;
    if (v->refcnt == 1 && v->type == &t_str && s->type == &t_str) {
        /* only the chunk holds the literal so far: grow it in place, so that
         * many adjacent literals take memory linear in their length */
        char *p = value_xrealloc(v->u.s.p, v->u.s.n + s->u.s.n + 1);
        memcpy(p + v->u.s.n, s->u.s.p, s->u.s.n + 1);
        v->u.s.p = p;
        v->u.s.n += s->u.s.n;
        v->u.s.h = 0;
        decref(s);
        prev->loc = ast_span(prev->loc, ast_tokloc(t));
        return prev;
    }
    Value *joined = value_binop(OP_ADD, prev->value, s);
    decref(s);
    Node *n = ast_const(c, ast_span(prev->loc, ast_tokloc(t)), joined);
    return n;
}

const char *ast_kind_name(NodeKind k)
{
    static const char *names[N__COUNT] = {
        "NAME", "CONST", "BINOP", "UNARY", "NOT", "AND", "OR", "COMPARE", "IFEXP",
        "CALL", "ATTR", "SUBSCRIPT", "SLICE", "TUPLE", "LIST", "DICT", "LISTCOMP",
        "LAMBDA", "STARRED", "KEYWORD", "COMPFOR",
        "EXPR", "ASSIGN", "AUGASSIGN", "DEL", "PASS", "BREAK", "CONTINUE", "RETURN",
        "ASSERT", "IMPORT", "FROMIMPORT", "IF", "WHILE", "FOR", "WITH", "DEF", "BLOCK",
        "PARAM", "TRY", "HANDLER", "RAISE", "FSTRING", "FIELD",
    };
    return k < N__COUNT ? names[k] : "?";
}

/* ------------------------------------------------------------ dumping */

typedef struct { char *p; size_t n, cap; } Buf;

static void bput(Buf *b, const char *s)
{
    size_t l = strlen(s);
    if (b->n + l + 1 > b->cap) {
        b->cap = (b->n + l + 1) * 2;
        b->p = value_xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, s, l + 1);
    b->n += l;
}

static void dump(Buf *b, Node *n);

static void dump_list(Buf *b, NodeList *l)
{
    for (int i = 0; l && i < l->n; i++) {
        bput(b, " ");
        dump(b, l->items[i]);
    }
}

static void dump(Buf *b, Node *n)
{
    if (!n) { bput(b, "_"); return; }
    char tmp[64];
    switch (n->kind) {
    case N_NAME: bput(b, n->name); return;
    case N_CONST: {
        Value *r = value_repr(n->value);
        bput(b, r ? r->u.s.p : "?");
        decref(r);
        return;
    }
    case N_BINOP:
    case N_UNARY:
    case N_AUGASSIGN:
        snprintf(tmp, sizeof tmp, "(%s%s ", op_symbol[n->op], n->kind == N_AUGASSIGN ? "=" : "");
        bput(b, tmp);
        dump(b, n->a);
        if (n->kind != N_UNARY) { bput(b, " "); dump(b, n->b); }
        bput(b, ")");
        return;
    case N_COMPARE: {
        static const char *extra[] = {"in", "not in", "is", "is not"};
        bput(b, "(cmp ");
        dump(b, n->list->items[0]);
        for (int i = 1; i < n->list->n; i++) {
            int op = n->ops[i - 1];
            bput(b, " ");
            bput(b, op < OP__COUNT ? op_symbol[op] : extra[op - OP__COUNT]);
            bput(b, " ");
            dump(b, n->list->items[i]);
        }
        bput(b, ")");
        return;
    }
    case N_ATTR: bput(b, "(. "); dump(b, n->a); bput(b, " "); bput(b, n->name); bput(b, ")"); return;
    case N_KEYWORD: bput(b, "(kw "); bput(b, n->name); bput(b, " "); dump(b, n->a); bput(b, ")"); return;
    case N_PARAM:
        bput(b, n->flag == 1 ? "*" : n->flag == 2 ? "**" : "");
        bput(b, n->name);
        if (n->a) { bput(b, "="); dump(b, n->a); }
        return;
    case N_DEF: bput(b, "(def "); bput(b, n->name); bput(b, " ("); dump_list(b, n->list); bput(b, ") "); dump(b, n->b); bput(b, ")"); return;
    case N_IMPORT: bput(b, "(import "); bput(b, n->a->name); if (n->name) { bput(b, " as "); bput(b, n->name); } bput(b, ")"); return;
    case N_FROMIMPORT: bput(b, "(from "); bput(b, n->a->name); dump_list(b, n->list); bput(b, ")"); return;
    case N_HANDLER:
        bput(b, "(except ");
        dump(b, n->a);
        if (n->name) { bput(b, " as "); bput(b, n->name); }
        bput(b, " ");
        dump(b, n->b);
        bput(b, ")");
        return;
    case N_FIELD:
        bput(b, "(field ");
        dump(b, n->a);
        if (n->op) { snprintf(tmp, sizeof tmp, " !%c", n->op); bput(b, tmp); }
        if (n->b) { bput(b, " :"); dump(b, n->b); }
        bput(b, ")");
        return;
    case N_EXPR:
        bput(b, n->flag ? "(expr; " : "(expr ");
        dump(b, n->a);
        bput(b, ")");
        return;
    default: break;
    }
    bput(b, "(");
    for (const char *k = ast_kind_name(n->kind); *k; k++) {
        char c[2] = {(char)(*k | 0x20), 0};
        bput(b, c);
    }
    if (n->a) { bput(b, " "); dump(b, n->a); }
    if (n->b) { bput(b, " "); dump(b, n->b); }
    if (n->c) { bput(b, " "); dump(b, n->c); }
    dump_list(b, n->list);
    if (n->list2) dump_list(b, n->list2);
    bput(b, ")");
}

char *ast_dump(Node *n)
{
    Buf b = {0};
    bput(&b, "");
    dump(&b, n);
    return b.p;
}
