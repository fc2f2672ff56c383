/* src/lex.c — Python's tokenizer rules (Lib/tokenize.py, Parser/tokenizer.c):
 * INDENT/DEDENT from leading whitespace outside brackets, NEWLINE only at the
 * end of a logical line, errors worded as CPython 3.11 words them. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lex.h"
#include "value.h"

static const struct { const char *kw; int tok; } keywords[] = {
    {"and", TK_AND}, {"as", TK_AS}, {"assert", TK_ASSERT}, {"break", TK_BREAK},
    {"continue", TK_CONTINUE}, {"def", TK_DEF}, {"del", TK_DEL}, {"elif", TK_ELIF},
    {"else", TK_ELSE}, {"False", TK_FALSE}, {"for", TK_FOR}, {"from", TK_FROM},
    {"if", TK_IF}, {"import", TK_IMPORT}, {"in", TK_IN}, {"is", TK_IS},
    {"lambda", TK_LAMBDA}, {"None", TK_NONE}, {"not", TK_NOT}, {"or", TK_OR},
    {"pass", TK_PASS}, {"return", TK_RETURN}, {"True", TK_TRUE}, {"while", TK_WHILE},
    {"with", TK_WITH}, {"try", TK_TRY}, {"except", TK_EXCEPT}, {"finally", TK_FINALLY},
    {"raise", TK_RAISE},
    /* Python keywords tsr does not implement: a clear SyntaxError */
    {"class", TK_UNSUPPORTED}, {"global", TK_UNSUPPORTED},
    {"nonlocal", TK_UNSUPPORTED}, {"yield", TK_UNSUPPORTED}, {"async", TK_UNSUPPORTED},
    {"await", TK_UNSUPPORTED},
};

void lex_init(Lexer *lx, const char *src, size_t len)
{
    memset(lx, 0, sizeof *lx);
    lx->src = lx->cur = lx->line_start = src;
    lx->end = src + len;
    lx->line = 1;
    lx->nindent = 1;
    lx->at_bol = true;
}

static int col_of(Lexer *lx, const char *p) { return (int)(p - lx->line_start) + 1; }

static int error_at(Lexer *lx, int line, int col, const char *type, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int error_at(Lexer *lx, int line, int col, const char *type, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(lx->err, sizeof lx->err, fmt, ap);
    va_end(ap);
    lx->err_type = type;
    lx->err_line = line;
    lx->err_col = col;
    return TK_ERROR;
}

static void newline_at(Lexer *lx, const char *p) /* p points just past '\n' */
{
    lx->line++;
    lx->line_start = p;
}

/* Measure the indentation of the line at lx->cur; skips blank and comment
 * lines. Returns the column width, or -1 at end of input. */
static int measure_indent(Lexer *lx)
{
    for (;;) {
        const char *p = lx->cur;
        int w = 0;
        while (p < lx->end && (*p == ' ' || *p == '\t' || *p == '\f')) {
            w = *p == '\t' ? (w / 8 + 1) * 8 : *p == '\f' ? 0 : w + 1;
            p++;
        }
        if (p >= lx->end) { lx->cur = p; return -1; }
        if (*p == '#' || *p == '\n' || *p == '\r' || (*p == '\\' && p + 1 < lx->end && p[1] == '\n' && 0)) {
            while (p < lx->end && *p != '\n') p++;
            if (p < lx->end) { p++; newline_at(lx, p); }
            lx->cur = p;
            continue;
        }
        lx->cur = p;
        return w;
    }
}

static bool is_id_start(int c) { return isalpha(c) || c == '_' || c >= 0x80; }
static bool is_id_char(int c) { return isalnum(c) || c == '_' || c >= 0x80; }

/* One UTF-8 code point at p (for "invalid character" messages). */
static unsigned decode_utf8(const unsigned char *p, const unsigned char *end, int *len)
{
    unsigned c = p[0];
    int n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    if (p + n > end) n = 1;
    unsigned cp = n == 1 ? c : c & (0x7f >> n);
    for (int i = 1; i < n; i++) cp = (cp << 6) | (p[i] & 0x3f);
    *len = n;
    return cp;
}

static int lex_digits(const char **pp, const char *end, int (*ok)(int))
{
    const char *p = *pp;
    if (p >= end || !ok((unsigned char)*p)) return 0;
    while (p < end) {
        if (ok((unsigned char)*p)) p++;
        else if (*p == '_' && p + 1 < end && ok((unsigned char)p[1])) p += 2;
        else break;
    }
    *pp = p;
    return 1;
}
static int is_octal(int c) { return c >= '0' && c <= '7'; }
static int is_bin(int c) { return c == '0' || c == '1'; }
static int is_dec(int c) { return isdigit(c); }

static int lex_number(Lexer *lx, Token *t)
{
    const char *p = lx->cur, *s = p, *end = lx->end;
    int line = lx->line, col = col_of(lx, s);
    if (*p == '0' && p + 1 < end && strchr("xXoObB", p[1])) {
        char k = (char)tolower((unsigned char)p[1]);
        p += 2;
        if (p < end && *p == '_') p++;
        int (*ok)(int) = k == 'x' ? isxdigit : k == 'o' ? is_octal : is_bin;
        const char *name = k == 'x' ? "hexadecimal" : k == 'o' ? "octal" : "binary";
        if (!lex_digits(&p, end, ok) || (p < end && (is_id_char((unsigned char)*p) || *p == '_')))
            return error_at(lx, line, col_of(lx, p), "SyntaxError", "invalid %s literal", name);
    } else {
        bool is_float = false;
        if (*p != '.') {
            lex_digits(&p, end, is_dec);
            if (p < end && *p == '_')
                return error_at(lx, line, col_of(lx, p), "SyntaxError", "invalid decimal literal");
        }
        if (p < end && *p == '.') {
            p++;
            is_float = true;
            if (p < end && *p == '_')
                return error_at(lx, line, col_of(lx, p), "SyntaxError", "invalid decimal literal");
            lex_digits(&p, end, is_dec);
        }
        if (p < end && (*p == 'e' || *p == 'E')) {
            const char *q = p + 1;
            if (q < end && (*q == '+' || *q == '-')) q++;
            if (lex_digits(&q, end, is_dec)) { p = q; is_float = true; }
            else return error_at(lx, line, col_of(lx, p), "SyntaxError", "invalid decimal literal");
        }
        if (p < end && (*p == 'j' || *p == 'J')) p++, is_float = true;
        if (!is_float && p - s > 1 && s[0] == '0') {
            bool all_zero = true;
            for (const char *q = s; q < p; q++)
                if (*q != '0' && *q != '_') all_zero = false;
            if (!all_zero)
                return error_at(lx, line, col, "SyntaxError",
                                "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
        }
        if (p < end && (is_id_char((unsigned char)*p)))
            return error_at(lx, line, col_of(lx, p), "SyntaxError", "invalid decimal literal");
    }
    t->type = TK_NUMBER;
    t->p = s;
    t->n = (int)(p - s);
    t->line = line;
    t->col = col;
    lx->cur = p;
    return t->type;
}

static int lex_string(Lexer *lx, Token *t, const char *s)
{
    const char *p = s, *end = lx->end;
    int line = lx->line, col = col_of(lx, s);
    while (p < end && isalpha((unsigned char)*p)) p++;  /* prefix */
    char q = *p;
    bool triple = p + 2 < end && p[1] == q && p[2] == q;
    p += triple ? 3 : 1;
    for (;;) {
        if (p >= end || (!triple && *p == '\n')) {
            return error_at(lx, line, col, "SyntaxError", "unterminated %sstring literal (detected at line %d)",
                            triple ? "triple-quoted " : "", lx->line);
        }
        if (*p == '\\' && p + 1 < end) {
            if (p[1] == '\n') newline_at(lx, p + 2);
            p += 2;
            continue;
        }
        if (*p == '\n') { p++; newline_at(lx, p); continue; }
        if (*p == q && (!triple || (p + 2 < end && p[1] == q && p[2] == q))) {
            p += triple ? 3 : 1;
            break;
        }
        p++;
    }
    t->type = TK_STRING;
    t->p = s;
    t->n = (int)(p - s);
    t->line = line;
    t->col = col;
    lx->cur = p;
    return t->type;
}

static char closing_for(char open) { return open == '(' ? ')' : open == '[' ? ']' : '}'; }

int lex_next(Lexer *lx, Token *t)
{
    memset(t, 0, sizeof *t);
again:
    if (lx->pending > 0) {
        lx->pending--;
        t->type = TK_INDENT;
        t->p = lx->cur;
        t->line = lx->line;
        t->col = col_of(lx, lx->cur);
        return t->type;
    }
    if (lx->pending < 0) {
        lx->pending++;
        t->type = TK_DEDENT;
        t->p = lx->cur;
        t->line = lx->line;
        t->col = col_of(lx, lx->cur);
        return t->type;
    }
    if (lx->at_bol && lx->nparen == 0) {
        lx->at_bol = false;
        int w = measure_indent(lx);
        if (w < 0) goto eof;
        int top = lx->indents[lx->nindent - 1];
        if (w > top) {
            if (lx->nindent >= LEX_MAX_INDENT)
                return error_at(lx, lx->line, 1, "IndentationError", "too many levels of indentation");
            lx->indents[lx->nindent++] = w;
            lx->pending = 1;
            goto again;
        }
        if (w < top) {
            int n = 0;
            while (lx->nindent > 1 && lx->indents[lx->nindent - 1] > w) { lx->nindent--; n++; }
            if (lx->indents[lx->nindent - 1] != w)
                return error_at(lx, lx->line, w + 1, "IndentationError",
                                "unindent does not match any outer indentation level");
            lx->pending = -n;
            goto again;
        }
    }
    /* skip spaces, comments, joined lines */
    for (;;) {
        while (lx->cur < lx->end && (*lx->cur == ' ' || *lx->cur == '\t' || *lx->cur == '\f' || *lx->cur == '\r'))
            lx->cur++;
        if (lx->cur < lx->end && *lx->cur == '#') {
            while (lx->cur < lx->end && *lx->cur != '\n') lx->cur++;
        }
        if (lx->cur + 1 < lx->end && lx->cur[0] == '\\' && (lx->cur[1] == '\n' || lx->cur[1] == '\r')) {
            lx->cur += lx->cur[1] == '\r' && lx->cur + 2 < lx->end && lx->cur[2] == '\n' ? 3 : 2;
            newline_at(lx, lx->cur);
            if (lx->cur >= lx->end) {
                lx->err_eof = true;
                return error_at(lx, lx->line, 1, "SyntaxError", "unexpected EOF while parsing");
            }
            continue;
        }
        if (lx->cur < lx->end && *lx->cur == '\n' && lx->nparen > 0) {
            lx->cur++;
            newline_at(lx, lx->cur);
            continue;
        }
        break;
    }
    if (lx->cur >= lx->end) goto eof;

    const char *s = lx->cur;
    unsigned char c = (unsigned char)*s;
    t->p = s;
    t->line = lx->line;
    t->col = col_of(lx, s);

    if (c == '\n') {
        lx->cur++;
        newline_at(lx, lx->cur);
        lx->at_bol = true;
        if (!lx->need_newline) goto again;
        lx->need_newline = false;
        t->type = TK_NEWLINE;
        t->n = 0;
        return t->type;
    }
    lx->need_newline = true;

    if (is_id_start(c)) {
        const char *p = s;
        while (p < lx->end && is_id_char((unsigned char)*p)) p++;
        /* string prefixes */
        if (p < lx->end && (*p == '\'' || *p == '"') && p - s <= 2) {
            bool ok = true, raw = false, fmt = false, bytes = false;
            for (const char *q = s; q < p; q++) {
                char k = (char)tolower((unsigned char)*q);
                if (k == 'r') raw = true;
                else if (k == 'f') fmt = true;
                else if (k == 'b') bytes = true;
                else if (k != 'u') ok = false;
            }
            (void)raw;
            (void)fmt;
            if (ok && bytes)
                return error_at(lx, t->line, t->col, "SyntaxError", "bytes literals are not supported by tsr");
            if (ok) return lex_string(lx, t, s);
        }
        for (const unsigned char *q = (const unsigned char *)s; q < (const unsigned char *)p; q++) {
            if (*q >= 0x80) {
                int n;
                unsigned cp = decode_utf8(q, (const unsigned char *)lx->end, &n);
                if (!(cp >= 0xC0 && cp <= 0x24F) && !(cp >= 0x370 && cp <= 0x3FF) && !(cp >= 0x400 && cp <= 0x4FF))
                    return error_at(lx, t->line, col_of(lx, (const char *)q), "SyntaxError",
                                    "invalid character '%.*s' (U+%04X)", n, (const char *)q, cp);
                q += n - 1;
            }
        }
        t->n = (int)(p - s);
        t->type = TK_NAME;
        for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
            if (keywords[i].kw[0] == *s && !strncmp(keywords[i].kw, s, (size_t)t->n) && !keywords[i].kw[t->n])
                t->type = keywords[i].tok;
        lx->cur = p;
        return t->type;
    }
    if (isdigit(c) || (c == '.' && s + 1 < lx->end && isdigit((unsigned char)s[1]))) return lex_number(lx, t);
    if (c == '\'' || c == '"') return lex_string(lx, t, s);

    /* operators, longest first */
    static const struct { const char *op; int tok; } ops[] = {
        {"**=", TK_AUGASSIGN}, {"//=", TK_AUGASSIGN}, {">>=", TK_AUGASSIGN}, {"<<=", TK_AUGASSIGN},
        {"...", TK_ELLIPSIS},
        {"+=", TK_AUGASSIGN}, {"-=", TK_AUGASSIGN}, {"*=", TK_AUGASSIGN}, {"/=", TK_AUGASSIGN},
        {"%=", TK_AUGASSIGN}, {"@=", TK_AUGASSIGN}, {"&=", TK_AUGASSIGN}, {"|=", TK_AUGASSIGN},
        {"^=", TK_AUGASSIGN}, {"**", TK_POW}, {"//", TK_DSLASH}, {"<<", TK_LSHIFT}, {">>", TK_RSHIFT},
        {"<=", TK_LE}, {">=", TK_GE}, {"==", TK_EQ}, {"!=", TK_NE}, {"->", TK_ARROW}, {":=", TK_WALRUS},
        {"+", TK_PLUS}, {"-", TK_MINUS}, {"*", TK_STAR}, {"/", TK_SLASH}, {"%", TK_PERCENT},
        {"@", TK_AT}, {"&", TK_AMP}, {"|", TK_VBAR}, {"^", TK_CARET}, {"~", TK_TILDE},
        {"<", TK_LT}, {">", TK_GT}, {"(", TK_LPAREN}, {")", TK_RPAREN}, {"[", TK_LSQB},
        {"]", TK_RSQB}, {"{", TK_LBRACE}, {"}", TK_RBRACE}, {",", TK_COMMA}, {":", TK_COLON},
        {".", TK_DOT}, {";", TK_SEMI}, {"=", TK_ASSIGN},
    };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        if (ops[i].op[0] != c) continue;
        size_t n = strlen(ops[i].op);
        if ((size_t)(lx->end - s) >= n && !memcmp(s, ops[i].op, n)) {
            t->type = ops[i].tok;
            t->n = (int)n;
            lx->cur = s + n;
            if (n == 1 && strchr("([{", c)) {
                if (lx->nparen >= LEX_MAX_PARENS)
                    return error_at(lx, t->line, t->col, "SyntaxError", "too many nested parentheses");
                lx->paren_line[lx->nparen] = t->line;
                lx->paren_col[lx->nparen] = t->col;
                lx->parens[lx->nparen++] = (char)c;
            } else if (n == 1 && strchr(")]}", c)) {
                if (lx->nparen == 0)
                    return error_at(lx, t->line, t->col, "SyntaxError", "unmatched '%c'", c);
                char open = lx->parens[lx->nparen - 1];
                if (closing_for(open) != c) {
                    if (lx->paren_line[lx->nparen - 1] != t->line)
                        return error_at(lx, t->line, t->col, "SyntaxError",
                                        "closing parenthesis '%c' does not match opening parenthesis '%c' on line %d",
                                        c, open, lx->paren_line[lx->nparen - 1]);
                    return error_at(lx, t->line, t->col, "SyntaxError",
                                    "closing parenthesis '%c' does not match opening parenthesis '%c'", c, open);
                }
                lx->nparen--;
            }
            return t->type;
        }
    }
    if (c == '$' || c == '?' || c == '!' || c == '`')
        return error_at(lx, t->line, t->col, "SyntaxError", "invalid syntax");
    {
        int n;
        unsigned cp = decode_utf8((const unsigned char *)s, (const unsigned char *)lx->end, &n);
        if (cp < 0x80 && !isprint((int)cp))
            return error_at(lx, t->line, t->col, "SyntaxError", "invalid non-printable character U+%04X", cp);
        return error_at(lx, t->line, t->col, "SyntaxError", "invalid character '%.*s' (U+%04X)", n, s, cp);
    }

eof:
    t->p = lx->cur;
    t->line = lx->line;
    t->col = col_of(lx, lx->cur);
    if (lx->nparen > 0) {
        lx->err_eof = true;
        return error_at(lx, lx->paren_line[lx->nparen - 1], lx->paren_col[lx->nparen - 1], "SyntaxError",
                        "'%c' was never closed", lx->parens[lx->nparen - 1]);
    }
    if (lx->need_newline) {
        lx->need_newline = false;
        t->type = TK_NEWLINE;
        return t->type;
    }
    if (lx->nindent > 1) {
        lx->nindent--;
        t->type = TK_DEDENT;
        return t->type;
    }
    lx->done = true;
    t->type = TK_ENDMARKER;
    return t->type;
}

bool lex_resync(Lexer *lx, bool here_ok)
{
    const char *p = lx->cur;
    /* at the start of a line that starts a statement: resume right here */
    if (here_ok && p == lx->line_start && p < lx->end && *p != ' ' && *p != '\t' && *p != '\n' && *p != '#')
        goto found;
    /* to the start of the next line */
    while (p < lx->end && *p != '\n') p++;
    for (;;) {
        if (p >= lx->end) { lx->cur = p; lx->done = true; return false; }
        p++; /* past '\n' */
        newline_at(lx, p);
        if (p < lx->end && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && *p != '#') break;
        while (p < lx->end && *p != '\n') p++;
    }
found:
    lx->cur = p;
    lx->nparen = 0;
    lx->nindent = 1;
    lx->pending = 0;
    lx->at_bol = true;
    lx->need_newline = false;
    return true;
}

const char *lex_line(const char *src, size_t len, int line, int *n)
{
    const char *p = src, *end = src + len;
    for (int l = 1; l < line && p < end; p++)
        if (*p == '\n') l++;
    const char *e = p;
    while (e < end && *e != '\n') e++;
    if (e > p && e[-1] == '\r') e--;
    *n = (int)(e - p);
    return p;
}

bool lex_incomplete(const char *src, size_t len)
{
    Lexer lx;
    Token t;
    lex_init(&lx, src, len);
    bool block = false;
    int first = 1;
    for (;;) {
        int k = lex_next(&lx, &t);
        if (k == TK_ERROR) {
            if (lx.err_eof) return true;
            if (strncmp(lx.err, "unterminated triple-quoted", 26) == 0) return true;
            return false;
        }
        if (k == TK_ENDMARKER) break;
        if (first && (k == TK_IF || k == TK_FOR || k == TK_WHILE || k == TK_DEF || k == TK_WITH)) block = true;
        if (k == TK_COLON && lx.nparen == 0) {
            /* a ':' ending a line opens a block */
            const char *p = lx.cur;
            while (p < lx.end && (*p == ' ' || *p == '\t')) p++;
            if (p >= lx.end || *p == '\n' || *p == '#') block = true;
        }
        first = 0;
    }
    if (!block) return false;
    /* a block is complete when the input ends with an empty line */
    const char *e = src + len;
    if (len && e[-1] == '\n') e--;
    const char *ls = e;
    while (ls > src && ls[-1] != '\n') ls--;
    for (const char *p = ls; p < e; p++)
        if (*p != ' ' && *p != '\t' && *p != '\r') return true;
    return ls == src; /* a single line (nothing blank yet) */
}

char *lex_doctest(const char *src, size_t len, size_t *out_len)
{
    const char *p = src, *end = src + len;
    bool any = false;
    for (const char *l = src; l < end;) {
        if (end - l >= 4 && !memcmp(l, ">>> ", 4)) { any = true; break; }
        if (end - l >= 3 && !memcmp(l, ">>>", 3) && (l + 3 == end || l[3] == '\n')) { any = true; break; }
        const char *nl = memchr(l, '\n', (size_t)(end - l));
        if (!nl) break;
        l = nl + 1;
    }
    if (!any) return NULL;
    char *out = value_xmalloc(len + 1), *o = out;   /* (as cmd_doctest) */
    bool in_stmt = false;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        size_t n = (size_t)(le - p);
        if (n >= 4 && !memcmp(p, ">>> ", 4)) {
            memcpy(o, p + 4, n - 4); o += n - 4; in_stmt = true;
        } else if (n == 3 && !memcmp(p, ">>>", 3)) {
            in_stmt = true;
        } else if (in_stmt && n >= 4 && !memcmp(p, "... ", 4)) {
            memcpy(o, p + 4, n - 4); o += n - 4;
        } else if (in_stmt && n == 3 && !memcmp(p, "...", 3)) {
            /* empty continuation line */
        } else {
            in_stmt = false;
        }
        if (nl) *o++ = '\n';
        p = nl ? nl + 1 : end;
    }
    *o = 0;
    *out_len = (size_t)(o - out);
    return out;
}
