/* src/parse.c — drives the Lemon parser one top-level statement at a time
 * and builds the AST for the grammar's actions. Error messages follow
 * CPython 3.11 (Parser/pegen_errors.c, Grammar/python.gram invalid_* rules). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

#define C (ps->chunk)

static void set_error(ParseState *ps, const char *type, Loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void set_error(ParseState *ps, const char *type, Loc loc, const char *fmt, ...)
{
    if (ps->failed) return;
    ps->failed = true;
    ps->etype = type;
    ps->eloc = loc;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->emsg, sizeof ps->emsg, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------ errors */

static const char *block_what(Token kw, char *buf, size_t n)
{
    if (kw.type == TK_DEF) return "function definition";
    snprintf(buf, n, "'%.*s' statement", kw.n, kw.p);
    return buf;
}

void parse_syntax_error(ParseState *ps, Token *t, int major)
{
    Loc loc = ast_tokloc(*t);
    char buf[64];
    if (major == TK_UNSUPPORTED) {
        set_error(ps, "SyntaxError", loc, "'%.*s' is not supported by tsr", t->n, t->p);
        return;
    }
    if (ps->ntry && major != TK_EXCEPT && major != TK_FINALLY && t->col <= ps->try_col[ps->ntry - 1] &&
        (ps->prev.type == TK_NEWLINE || ps->prev.type == TK_DEDENT)) {
        set_error(ps, "SyntaxError", loc, "expected 'except' or 'finally' block");
        return;
    }
    if (major == TK_INDENT) {
        set_error(ps, "IndentationError", loc, "unexpected indent");
        return;
    }
    if (ps->prev.type == TK_NEWLINE && ps->prev2.type == TK_COLON && major != TK_INDENT && ps->block_kw.type) {
        loc.col = t->col;
        set_error(ps, "IndentationError", loc, "expected an indented block after %s on line %d",
                  block_what(ps->block_kw, buf, sizeof buf), ps->block_kw.line);
        return;
    }
    if (major == TK_NEWLINE && ps->block_kw.type && ps->block_kw.line == t->line &&
        ps->prev.type != TK_COLON) {
        Loc l = ast_tokloc(ps->prev);
        set_error(ps, "SyntaxError", (Loc){l.end_line, l.end_col, l.end_line, l.end_col + 1}, "expected ':'");
        return;
    }
    if (ps->first_is_print && ps->ntok == 2 && (major == TK_STRING || major == TK_NAME || major == TK_NUMBER)) {
        set_error(ps, "SyntaxError", loc, "Missing parentheses in call to 'print'. Did you mean print(...)?");
        return;
    }
    if (major == TK_NEWLINE || major == TK_ENDMARKER) {
        /* Python points just past the last token */
        Loc l = ast_tokloc(ps->prev);
        loc = (Loc){l.end_line, l.end_col, l.end_line, l.end_col};
    }
    set_error(ps, "SyntaxError", loc, "invalid syntax");
}

void parse_overflow(ParseState *ps)
{
    set_error(ps, "RecursionError", ast_tokloc(ps->prev), "maximum recursion depth exceeded during compilation");
}

void parse_failed(ParseState *ps)
{
    if (!ps->failed) set_error(ps, "SyntaxError", ast_tokloc(ps->prev), "invalid syntax");
}

/* ------------------------------------------------------------ targets */

static const char *expr_desc(Node *e)
{
    switch (e->kind) {
    case N_CONST: return e->value->type == &t_none ? "None" : e->value->type == &t_bool ?
                         (e->value->u.i ? "True" : "False") : e->value->type == &t_ellipsis ? "ellipsis" : "literal";
    case N_CALL: return "function call";
    case N_BINOP: case N_UNARY: return "expression";
    case N_NOT: case N_AND: case N_OR: return "expression";
    case N_COMPARE: return "comparison";
    case N_IFEXP: return "conditional expression";
    case N_LAMBDA: return "lambda";
    case N_DICT: return "dict literal";
    case N_LISTCOMP: return "list comprehension";
    case N_KEYWORD: return "keyword";
    default: return "expression";
    }
}

/* Checks an assignment/deletion target; on error records Python's message. */
static bool check_target(ParseState *ps, Node *e, int mode /* 0 assign, 1 del, 2 aug, 3 for */, bool top)
{
    switch (e->kind) {
    case N_NAME: case N_ATTR: case N_SUBSCRIPT: return true;
    case N_TUPLE: case N_LIST:
        if (mode == 2) break;
        for (int i = 0; i < e->list->n; i++)
            if (!check_target(ps, e->list->items[i], mode, false)) return false;
        return true;
    case N_STARRED:
        if (mode == 0 || mode == 3) {
            set_error(ps, "SyntaxError", e->loc, "starred assignment target is not supported by tsr");
            return false;
        }
        break;
    default: break;
    }
    const char *what = expr_desc(e);
    if (mode == 1) set_error(ps, "SyntaxError", e->loc, "cannot delete %s", what);
    else if (mode == 2) set_error(ps, "SyntaxError", e->loc, "'%s' is an illegal expression for augmented assignment",
                                  e->kind == N_TUPLE ? "tuple" : e->kind == N_LIST ? "list" : what);
    else if (top && mode == 0)
        set_error(ps, "SyntaxError", e->loc, "cannot assign to %s here. Maybe you meant '==' instead of '='?", what);
    else set_error(ps, "SyntaxError", e->loc, "cannot assign to %s", what);
    return false;
}

/* ------------------------------------------------------------ statements */

void parse_suppress_last(NodeList *l)
{
    if (l->n && l->items[l->n - 1]->kind == N_EXPR) l->items[l->n - 1]->flag = 1;
}

Node *parse_block(ParseState *ps, NodeList *l)
{
    if (l->n == 1) return l->items[0];
    Node *n = ast_node(C, N_BLOCK, ast_span(l->items[0]->loc, l->items[l->n - 1]->loc));
    n->list = l;
    return n;
}

Node *parse_expr_stmt(ParseState *ps, Node *e)
{
    Node *n = ast_node(C, N_EXPR, e->loc);
    n->a = e;
    return n;
}

Node *parse_assign(ParseState *ps, NodeList *targets, Node *value)
{
    for (int i = 0; i < targets->n; i++) check_target(ps, targets->items[i], 0, true);
    Node *n = ast_node(C, N_ASSIGN, ast_span(targets->items[0]->loc, value->loc));
    n->list = targets;
    n->a = value;
    return n;
}

Node *parse_augassign(ParseState *ps, Node *target, Token op, Node *value)
{
    check_target(ps, target, 2, true);
    static const struct { const char *s; int op; } ops[] = {
        {"+=", OP_ADD}, {"-=", OP_SUB}, {"*=", OP_MUL}, {"/=", OP_TRUEDIV}, {"//=", OP_FLOORDIV},
        {"%=", OP_MOD}, {"**=", OP_POW}, {"@=", OP_MATMUL}, {"<<=", OP_LSHIFT}, {">>=", OP_RSHIFT},
        {"&=", OP_AND}, {"|=", OP_OR}, {"^=", OP_XOR},
    };
    Node *n = ast_node(C, N_AUGASSIGN, ast_span(target->loc, value->loc));
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if ((int)strlen(ops[i].s) == op.n && !memcmp(ops[i].s, op.p, (size_t)op.n)) n->op = ops[i].op;
    n->oploc = ast_tokloc(op);
    n->a = target;
    n->b = value;
    return n;
}

Node *parse_del(ParseState *ps, Token kw, NodeList *targets)
{
    for (int i = 0; i < targets->n; i++) check_target(ps, targets->items[i], 1, true);
    Node *n = ast_node(C, N_DEL, ast_span(ast_tokloc(kw), targets->items[targets->n - 1]->loc));
    n->list = targets;
    return n;
}

Node *parse_dotted(ParseState *ps, Node *d, Token name)
{
    size_t n = strlen(d->name);
    char *s = chunk_alloc(C, n + (size_t)name.n + 2);
    memcpy(s, d->name, n);
    s[n] = '.';
    memcpy(s + n + 1, name.p, (size_t)name.n);
    d->name = s;
    d->loc = ast_span(d->loc, ast_tokloc(name));
    return d;
}

Node *parse_import(ParseState *ps, Node *dotted, Token *as)
{
    Node *n = ast_node(C, N_IMPORT, as ? ast_span(dotted->loc, ast_tokloc(*as)) : dotted->loc);
    n->a = dotted;
    if (as) n->name = ast_name(C, *as);
    return n;
}

Node *parse_imports(ParseState *ps, Token kw, NodeList *imports)
{
    imports->items[0]->loc = ast_span(ast_tokloc(kw), imports->items[0]->loc);
    if (imports->n == 1) return imports->items[0];
    Node *n = ast_node(C, N_BLOCK, ast_span(ast_tokloc(kw), imports->items[imports->n - 1]->loc));
    n->list = imports;
    return n;
}

Node *parse_from(ParseState *ps, Token kw, Node *dotted, NodeList *names)
{
    Node *n = ast_node(C, N_FROMIMPORT, ast_span(ast_tokloc(kw), names->items[names->n - 1]->loc));
    n->a = dotted;
    n->list = names;
    return n;
}

Node *parse_name(ParseState *ps, Token name)
{
    Node *n = ast_node(C, N_NAME, ast_tokloc(name));
    n->name = ast_name(C, name);
    n->value = ast_key(C, n->name);
    return n;
}

Node *parse_alias(ParseState *ps, Token name, Token as)
{
    Node *n = parse_name(ps, name);
    Node *a = parse_name(ps, as);
    n->a = a;
    return n;
}

Node *parse_if(ParseState *ps, Token kw, Node *cond, Node *body, Node *orelse)
{
    Node *n = ast_node(C, N_IF, ast_span(ast_tokloc(kw), orelse ? orelse->loc : body->loc));
    n->a = cond;
    n->b = body;
    n->c = orelse;
    return n;
}

Node *parse_loop(ParseState *ps, NodeKind k, Token kw, Node *target, Node *e, Node *body, Node *orelse)
{
    if (target) check_target(ps, target, 3, false);
    Node *n = ast_node(C, k, ast_span(ast_tokloc(kw), orelse ? orelse->loc : body->loc));
    n->a = k == N_FOR ? e : e;
    n->b = body;
    n->c = orelse;
    n->list = ast_list(C, target);
    return n;
}

Node *parse_with(ParseState *ps, Token kw, Node *e, Node *target, Node *body)
{
    if (target) check_target(ps, target, 0, false);
    Node *n = ast_node(C, N_WITH, ast_span(ast_tokloc(kw), body->loc));
    n->a = e;
    n->b = body;
    n->c = target;
    return n;
}

Node *parse_try(ParseState *ps, Token kw, Node *body, NodeList *handlers, Node *orelse, Node *fin)
{
    Node *last = fin ? fin : orelse ? orelse : handlers ? handlers->items[handlers->n - 1] : body;
    Node *n = ast_node(C, N_TRY, ast_span(ast_tokloc(kw), last->loc));
    n->a = body;
    n->list = handlers;
    n->b = orelse;
    n->c = fin;
    for (int i = 0; handlers && i < handlers->n - 1; i++)
        if (!handlers->items[i]->a)
            set_error(ps, "SyntaxError", handlers->items[i]->loc, "default 'except:' must be last");
    return n;
}

Node *parse_handler(ParseState *ps, Token kw, Node *cls, Token *as, Node *body)
{
    Node *n = ast_node(C, N_HANDLER, ast_span(ast_tokloc(kw), body->loc));
    n->a = cls;
    if (as) n->name = ast_name(C, *as);
    n->b = body;
    return n;
}

Node *parse_raise(ParseState *ps, Token kw, Node *e, Node *cause)
{
    Node *n = ast_node(C, N_RAISE, ast_span(ast_tokloc(kw), cause ? cause->loc : e->loc));
    n->a = e;
    n->b = cause;
    return n;
}

Node *parse_def(ParseState *ps, Token kw, Token name, NodeList *params, Node *body)
{
    Node *n = ast_node(C, N_DEF, ast_span(ast_tokloc(kw), body->loc));
    n->name = ast_name(C, name);
    n->list = params;
    n->b = body;
    bool seen_default = false, seen_star = false;
    for (int i = 0; i < params->n; i++) {
        Node *p = params->items[i];
        for (int j = 0; j < i; j++)
            if (!strcmp(params->items[j]->name, p->name))
                set_error(ps, "SyntaxError", p->loc, "duplicate argument '%s' in function definition", p->name);
        if (p->flag) { seen_star = true; continue; }
        if (p->a) seen_default = true;
        else if (seen_default && !seen_star)
            set_error(ps, "SyntaxError", p->loc, "non-default argument follows default argument");
    }
    return n;
}

Node *parse_param(ParseState *ps, Token name, Token *star, Node *dflt, int kind)
{
    Node *n = ast_node(C, N_PARAM, star ? ast_span(ast_tokloc(*star), ast_tokloc(name)) : ast_tokloc(name));
    n->name = ast_name(C, name);
    n->a = dflt;
    n->flag = kind;
    return n;
}

Node *parse_tuple(ParseState *ps, NodeList *items, int trailing_comma)
{
    (void)trailing_comma;
    if (items->n == 1 && !trailing_comma) return items->items[0];
    Node *n = ast_node(C, N_TUPLE, ast_span(items->items[0]->loc, items->items[items->n - 1]->loc));
    n->list = items;
    return n;
}

Node *parse_ifexp(ParseState *ps, Node *body, Node *cond, Node *orelse)
{
    Node *n = ast_node(C, N_IFEXP, ast_span(body->loc, orelse->loc));
    n->a = cond;
    n->b = body;
    n->c = orelse;
    return n;
}

Node *parse_lambda(ParseState *ps, Token kw, NodeList *params, Node *body)
{
    Node *n = ast_node(C, N_LAMBDA, ast_span(ast_tokloc(kw), body->loc));
    n->list = params;
    n->b = body;
    n->name = "<lambda>";
    return n;
}

/* ------------------------------------------------------------ expressions */

Node *parse_binary(ParseState *ps, NodeKind k, int op, Node *l, Token optok, Node *r)
{
    Node *n = ast_node(C, k, ast_span(l->loc, r->loc));
    n->op = op;
    n->oploc = ast_tokloc(optok);
    n->a = l;
    n->b = r;
    return n;
}

Node *parse_unary(ParseState *ps, NodeKind k, int op, Token optok, Node *e)
{
    if (k == N_UNARY && op == OP_NEG && e->kind == N_CONST && e->flag == 1) {
        e->flag = 0; /* -9223372036854775808: the literal is INT64_MIN */
        e->loc = ast_span(ast_tokloc(optok), e->loc);
        return e;
    }
    Node *n = ast_node(C, k, ast_span(ast_tokloc(optok), e->loc));
    n->op = op;
    n->oploc = ast_tokloc(optok);
    n->a = e;
    return n;
}

Node *parse_compare(ParseState *ps, Node *l, int op, Node *r)
{
    Node *n;
    if (l->kind == N_COMPARE && !l->flag) {
        n = l;
    } else {
        n = ast_node(C, N_COMPARE, l->loc);
        n->list = ast_list(C, l);
    }
    int k = n->list->n, cap = n->list->cap; /* operands so far = operators so far + 1 */
    ast_append(C, n->list, r);
    /* the operators grow with the operand list (doubling): a long chain
     * takes memory linear in its length */
    if (k == 1 || n->list->cap != cap) {
        int *ops = chunk_alloc(C, (size_t)n->list->cap * sizeof *ops);
        if (k > 1) memcpy(ops, n->ops, (size_t)(k - 1) * sizeof *ops);
        n->ops = ops;
    }
    n->ops[k - 1] = op;
    n->loc = ast_span(n->loc, r->loc);
    n->oploc = (Loc){r->loc.line, l->loc.end_col + 1, r->loc.line, r->loc.col - 1};
    return n;
}

Node *parse_attr(ParseState *ps, Node *e, Token name)
{
    Node *n = ast_node(C, N_ATTR, ast_span(e->loc, ast_tokloc(name)));
    n->a = e;
    n->name = ast_name(C, name);
    n->oploc = ast_tokloc(name);
    return n;
}

Node *parse_call(ParseState *ps, Node *f, NodeList *args, Token rparen)
{
    bool seen_kw = false;
    for (int i = 0; i < args->n; i++) {
        Node *a = args->items[i];
        if (a->kind == N_KEYWORD || (a->kind == N_STARRED && a->flag == 2)) seen_kw = true;
        else if (seen_kw && a->kind != N_STARRED)
            set_error(ps, "SyntaxError", a->loc, "positional argument follows keyword argument");
        if (a->kind == N_LISTCOMP && a->flag == 2 && args->n > 1)
            set_error(ps, "SyntaxError", a->loc, "Generator expression must be parenthesized");
    }
    Node *n = ast_node(C, N_CALL, ast_span(f->loc, ast_tokloc(rparen)));
    n->a = f;
    n->list = args;
    return n;
}

Node *parse_subscript(ParseState *ps, Node *e, NodeList *subs, int trailing_comma, Token rsqb)
{
    Node *n = ast_node(C, N_SUBSCRIPT, ast_span(e->loc, ast_tokloc(rsqb)));
    n->a = e;
    if (subs->n == 1 && !trailing_comma) {
        n->b = subs->items[0];
    } else {
        Node *t = ast_node(C, N_TUPLE, ast_span(subs->items[0]->loc, subs->items[subs->n - 1]->loc));
        t->list = subs;
        n->b = t;
    }
    return n;
}

Node *parse_number(ParseState *ps, Token t)
{
    char err[120];
    Node *n = ast_number(C, t, err, sizeof err);
    if (!n) {
        set_error(ps, "SyntaxError", ast_tokloc(t), "%s", err);
        n = ast_const(C, ast_tokloc(t), v_int(0));
    }
    return n;
}

static bool is_fstring_token(Token t)
{
    for (const char *p = t.p; *p != '\'' && *p != '"'; p++)
        if (*p == 'f' || *p == 'F') return true;
    return false;
}

/* Adjacent literals concatenate; once one is an f-string the whole is an
 * FSTRING node whose parts are the pieces in order. */
Node *parse_string(ParseState *ps, Node *prev, Token t)
{
    bool f = is_fstring_token(t);
    if (!f && (!prev || prev->kind != N_FSTRING)) return ast_string(C, prev, t);
    Node *piece = f ? parse_fstring(ps, t) : ast_string(C, NULL, t);
    if (!prev) return piece;
    Node *n = prev;
    if (prev->kind != N_FSTRING) {
        n = ast_node(C, N_FSTRING, prev->loc);
        n->list = ast_list(C, prev);
    }
    if (piece->kind == N_FSTRING)
        for (int i = 0; i < piece->list->n; i++) ast_append(C, n->list, piece->list->items[i]);
    else
        ast_append(C, n->list, piece);
    n->loc = ast_span(n->loc, ast_tokloc(t));
    return n;
}

Node *parse_paren(ParseState *ps, Token l, Node *e, Token r)
{
    (void)l; (void)r;
    if (e->kind == N_COMPARE) e->flag = 1; /* (a < b) < c does not chain */
    return e;
}

Node *parse_display(ParseState *ps, NodeKind k, Token l, NodeList *items, Token r)
{
    Node *n = ast_node(C, k, ast_span(ast_tokloc(l), ast_tokloc(r)));
    n->list = items;
    n->flag = 1;
    return n;
}

Node *parse_listcomp(ParseState *ps, Token *l, Node *elt, NodeList *fors, Token *r)
{
    Loc loc = l ? ast_span(ast_tokloc(*l), ast_tokloc(*r)) : ast_span(elt->loc, fors->items[fors->n - 1]->loc);
    Node *n = ast_node(C, N_LISTCOMP, loc);
    n->a = elt;
    n->list = fors;
    n->flag = (l && *l->p == '(') || !l ? 2 : 0; /* 2: a generator expression */
    return n;
}

Node *parse_compfor(ParseState *ps, Token kw, Node *target, Node *iter, NodeList *ifs)
{
    check_target(ps, target, 3, false);
    Node *n = ast_node(C, N_COMPFOR, ast_span(ast_tokloc(kw), iter->loc));
    n->a = target;
    n->b = iter;
    n->list = ifs;
    return n;
}

Node *parse_keyword(ParseState *ps, Token name, Node *e)
{
    Node *n = ast_node(C, N_KEYWORD, ast_span(ast_tokloc(name), e->loc));
    n->name = ast_name(C, name);
    n->a = e;
    return n;
}

Node *parse_starred(ParseState *ps, Token star, Node *e, int kind)
{
    Node *n = ast_node(C, N_STARRED, ast_span(ast_tokloc(star), e->loc));
    n->a = e;
    n->flag = kind;
    return n;
}

Node *parse_slice(ParseState *ps, Node *a, Token colon, Node *b, Node *c, int has_step)
{
    (void)has_step;
    Loc loc = ast_tokloc(colon);
    if (a) loc = ast_span(a->loc, loc);
    if (c) loc = ast_span(loc, c->loc);
    else if (b) loc = ast_span(loc, b->loc);
    Node *n = ast_node(C, N_SLICE, loc);
    n->a = a;
    n->b = b;
    n->c = c;
    return n;
}

/* ------------------------------------------------------------ the driver */

void parser_init(Parser *p, Chunk *c)
{
    memset(p, 0, sizeof *p);
    p->chunk = c;
    lex_init(&p->lx, c->text, c->len);
    p->peek_type = -2;
}

void parser_fini(Parser *p)
{
    (void)p;
}

static int next_token(Parser *p, Token *t)
{
    if (p->peek_type != -2) {
        *t = p->peek;
        int k = p->peek_type;
        p->peek_type = -2;
        return k;
    }
    return lex_next(&p->lx, t);
}

static int peek_token(Parser *p)
{
    if (p->peek_type == -2) p->peek_type = lex_next(&p->lx, &p->peek);
    return p->peek_type;
}

static void raise_parse_error(Chunk *c, const char *type, const char *msg, Loc loc)
{
    (void)c;
    exc_set(type, "%s", msg);
    Span sp = {loc.line, loc.col, loc.end_line, loc.end_col > loc.col ? loc.end_col : loc.col + 1, 0, 0};
    exc_set_span(sp);
}

int parser_next(Parser *p, Node **out, bool *incomplete)
{
    ParseState ps = {0};
    ps.chunk = p->chunk;
    *out = NULL;
    if (incomplete) *incomplete = false;
    if (p->eof) return 0;

    Token t;
    int k = next_token(p, &t);
    if (k == TK_ENDMARKER) { p->eof = true; return 0; }
    /* A leading DEDENT/NEWLINE can't start a statement; skip DEDENTs left
     * over from a previous error. */
    while (k == TK_DEDENT) {
        k = next_token(p, &t);
        if (k == TK_ENDMARKER) { p->eof = true; return 0; }
    }

    void *lemon = tsrParseAlloc(malloc, &ps);
    if (!lemon) abort();
    for (;;) {
        if (k == TK_ERROR) {
            if (incomplete) *incomplete = p->lx.err_eof;
            Loc loc = {p->lx.err_line, p->lx.err_col, p->lx.err_line, p->lx.err_col + 1};
            raise_parse_error(p->chunk, p->lx.err_type, p->lx.err, loc);
            goto fail;
        }
        if (k == TK_TRY && ps.ntry < 32) ps.try_col[ps.ntry++] = t.col;
        if ((k == TK_EXCEPT || k == TK_FINALLY) && ps.ntry && ps.try_col[ps.ntry - 1] == t.col) ps.ntry--;
        if (ps.ntok == 0 && k == TK_NAME && t.n == 5 && !memcmp(t.p, "print", 5)) ps.first_is_print = true;
        if (k == TK_IF || k == TK_ELIF || k == TK_ELSE || k == TK_FOR || k == TK_WHILE || k == TK_WITH ||
            k == TK_DEF || k == TK_TRY || k == TK_EXCEPT || k == TK_FINALLY)
            ps.block_kw = t, ps.block_kw.type = k;
        ps.ntok++;
        if (k == TK_ENDMARKER) {
            /* input ended inside a statement */
            if (incomplete) *incomplete = true;
        }
        tsrParse(lemon, k, t);
        if (ps.failed) {
            if (incomplete && (k == TK_ENDMARKER) ) *incomplete = true;
            break;
        }
        ps.prev2 = ps.prev;
        ps.prev = t;
        ps.prev.type = k;
        if (k == TK_ENDMARKER) break;
        if (k == TK_NEWLINE || k == TK_DEDENT) {
            int nk = peek_token(p);
            if (p->lx.nindent == 1 && p->lx.pending == 0 && nk != TK_DEDENT && nk != TK_ELIF && nk != TK_ELSE &&
                nk != TK_INDENT && nk != TK_EXCEPT && nk != TK_FINALLY) {
                /* the statement is complete if the grammar accepts it here */
                Token end = p->peek;
                end.n = 0;
                tsrParse(lemon, TK_ENDMARKER, end);
                if (ps.failed) break;
                if (ps.result) {
                    tsrParseFree(lemon, free);
                    *out = ps.result;
                    return 1;
                }
            }
        }
        k = next_token(p, &t);
    }
    if (!ps.failed) parse_failed(&ps);
    raise_parse_error(p->chunk, ps.etype, ps.emsg, ps.eloc);
    tsrParseFree(lemon, free);
    /* the parser failed on a whole token: the next statement may begin at
     * the lexer's position, or at the token it peeked */
    if (p->peek_type == TK_ENDMARKER) {
        p->eof = true;
    } else if (p->peek_type != -2 && p->peek_type != TK_ERROR && p->peek.col == 1) {
        p->lx.cur = p->peek.p - (p->peek.col - 1);
        p->lx.line_start = p->lx.cur;
        p->lx.line = p->peek.line;
    }
    p->peek_type = -2;
    if (!lex_resync(&p->lx, true)) p->eof = true;
    return -1;
fail:
    tsrParseFree(lemon, free);
    p->peek_type = -2;
    if (!lex_resync(&p->lx, false)) p->eof = true;
    return -1;
}
