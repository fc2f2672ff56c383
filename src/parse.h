/* src/parse.h — the parser driver: cuts the token stream into top-level
 * statements (as Python cuts a file), runs the Lemon parser on each, and
 * reports syntax errors with CPython 3.11's wording and position. */
#ifndef TSR_PARSE_H
#define TSR_PARSE_H

#include "ast.h"

/* COMPARE operators beyond OpCode's six */
enum { CMP_IN = OP__COUNT, CMP_NOT_IN, CMP_IS, CMP_IS_NOT };

typedef struct ParseState {
    Chunk *chunk;
    Node *result;
    bool failed;
    const char *etype;      /* set by an action or the syntax-error hook */
    char emsg[200];
    Loc eloc;
    /* what the error messages need to know about the statement so far */
    Token prev, prev2;      /* the two tokens before the current one */
    Token block_kw;         /* the last compound keyword fed */
    bool first_is_print;
    int ntok;
    int try_col[32];        /* columns of the `try`s still waiting for their except/finally */
    int ntry;
} ParseState;

typedef struct Parser {
    Chunk *chunk;
    Lexer lx;
    void *lemon;
    Token peek;
    int peek_type;          /* -2: none */
    bool eof;
} Parser;

void parser_init(Parser *p, Chunk *c);
void parser_fini(Parser *p);
/* The next top-level statement: 1 and *out (owned by the chunk); 0 at end of
 * input; -1 on a syntax error (a SyntaxError/IndentationError is pending with
 * its span; the parser has moved on to the next statement). *incomplete is
 * set when the error is that the input ended too early. */
int parser_next(Parser *p, Node **out, bool *incomplete);

/* grammar action helpers (grammar/tsr.y) */
void parse_syntax_error(ParseState *ps, Token *t, int major);
void parse_overflow(ParseState *ps);
void parse_failed(ParseState *ps);
void parse_suppress_last(NodeList *l);
Node *parse_block(ParseState *ps, NodeList *l);
Node *parse_expr_stmt(ParseState *ps, Node *e);
Node *parse_assign(ParseState *ps, NodeList *targets, Node *value);
Node *parse_augassign(ParseState *ps, Node *target, Token op, Node *value);
Node *parse_del(ParseState *ps, Token kw, NodeList *targets);
Node *parse_import(ParseState *ps, Node *dotted, Token *as);
Node *parse_imports(ParseState *ps, Token kw, NodeList *imports);
Node *parse_from(ParseState *ps, Token kw, Node *dotted, NodeList *names);
Node *parse_dotted(ParseState *ps, Node *d, Token name);
Node *parse_name(ParseState *ps, Token name);
Node *parse_alias(ParseState *ps, Token name, Token as);
Node *parse_if(ParseState *ps, Token kw, Node *cond, Node *body, Node *orelse);
Node *parse_loop(ParseState *ps, NodeKind k, Token kw, Node *target, Node *e, Node *body, Node *orelse);
Node *parse_with(ParseState *ps, Token kw, Node *e, Node *target, Node *body);
Node *parse_try(ParseState *ps, Token kw, Node *body, NodeList *handlers, Node *orelse, Node *fin);
Node *parse_handler(ParseState *ps, Token kw, Node *cls, Token *as, Node *body);
Node *parse_raise(ParseState *ps, Token kw, Node *e, Node *cause);
Node *parse_def(ParseState *ps, Token kw, Token name, NodeList *params, Node *body);
Node *parse_param(ParseState *ps, Token name, Token *star, Node *dflt, int kind);
Node *parse_tuple(ParseState *ps, NodeList *items, int trailing_comma);
Node *parse_ifexp(ParseState *ps, Node *body, Node *cond, Node *orelse);
Node *parse_lambda(ParseState *ps, Token kw, NodeList *params, Node *body);
Node *parse_binary(ParseState *ps, NodeKind k, int op, Node *l, Token optok, Node *r);
Node *parse_unary(ParseState *ps, NodeKind k, int op, Token optok, Node *e);
Node *parse_compare(ParseState *ps, Node *l, int op, Node *r);
Node *parse_attr(ParseState *ps, Node *e, Token name);
Node *parse_call(ParseState *ps, Node *f, NodeList *args, Token rparen);
Node *parse_subscript(ParseState *ps, Node *e, NodeList *subs, int trailing_comma, Token rsqb);
Node *parse_number(ParseState *ps, Token t);
Node *parse_string(ParseState *ps, Node *prev, Token t);
Node *parse_fstring(ParseState *ps, Token t);        /* src/fstring.c */
Node *parse_paren(ParseState *ps, Token l, Node *e, Token r);
Node *parse_display(ParseState *ps, NodeKind k, Token l, NodeList *items, Token r);
Node *parse_listcomp(ParseState *ps, Token *l, Node *elt, NodeList *fors, Token *r);
Node *parse_compfor(ParseState *ps, Token kw, Node *target, Node *iter, NodeList *ifs);
Node *parse_keyword(ParseState *ps, Token name, Node *e);
Node *parse_starred(ParseState *ps, Token star, Node *e, int kind);
Node *parse_slice(ParseState *ps, Node *a, Token colon, Node *b, Node *c, int has_step);

/* Lemon's generated interface */
void *tsrParseAlloc(void *(*malloc_fn)(size_t), ParseState *ps);
void tsrParse(void *p, int major, Token minor);
void tsrParseFree(void *p, void (*free_fn)(void *));

#endif
