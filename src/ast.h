/* src/ast.h — the syntax tree. Nodes live in the arena of the source Chunk
 * they were parsed from; a Chunk is reference counted (functions defined in
 * it keep it alive), so a syntax error or a finished statement frees all. */
#ifndef TSR_AST_H
#define TSR_AST_H

#include "lex.h"
#include "value.h"

typedef struct ArenaBlock ArenaBlock;

/* A piece of source text: a file, a REPL entry, an -e argument. */
typedef struct Chunk {
    long refcnt;
    char *name;            /* "demo.tsr", "<stdin>", "<string>" */
    char *text;
    size_t len;
    ArenaBlock *arena;
    Value **consts;        /* values owned by the chunk (literals) */
    size_t nconsts, capconsts;
} Chunk;

Chunk *chunk_new(const char *name, const char *text, size_t len);
Chunk *chunk_ref(Chunk *c);
void chunk_unref(Chunk *c);
void *chunk_alloc(Chunk *c, size_t n);   /* zeroed, freed with the chunk */

typedef enum {
    /* expressions */
    N_NAME, N_CONST, N_BINOP, N_UNARY, N_NOT, N_AND, N_OR, N_COMPARE, N_IFEXP,
    N_CALL, N_ATTR, N_SUBSCRIPT, N_SLICE, N_TUPLE, N_LIST, N_DICT, N_LISTCOMP,
    N_LAMBDA, N_STARRED, N_KEYWORD, N_COMPFOR,
    /* statements */
    N_EXPR, N_ASSIGN, N_AUGASSIGN, N_DEL, N_PASS, N_BREAK, N_CONTINUE, N_RETURN,
    N_ASSERT, N_IMPORT, N_FROMIMPORT, N_IF, N_WHILE, N_FOR, N_WITH, N_DEF, N_BLOCK,
    N_PARAM, N_TRY, N_HANDLER, N_RAISE, N_FSTRING, N_FIELD,
    N__COUNT
} NodeKind;

typedef struct Node Node;

typedef struct {
    int n, cap;
    Node **items;
} NodeList;

typedef struct { int line, col, end_line, end_col; } Loc; /* end_col exclusive */

struct Node {
    NodeKind kind;
    int op;                /* OpCode for BINOP/UNARY/AUGASSIGN; flags elsewhere */
    Loc loc;
    Loc oploc;             /* the operator token (for ~~^~~ carets) */
    Node *a, *b, *c;
    NodeList *list, *list2;
    const char *name;      /* NAME, ATTR, KEYWORD, DEF, PARAM, IMPORT */
    Value *value;          /* CONST; NAME: the name as a str key (owned by the chunk) */
    int flag;              /* EXPR: output suppressed by ';'; TUPLE: parenthesized;
                              PARAM: 1 = *args; COMPARE ops are in `ops` */
    int *ops;              /* COMPARE: the operators, list has the operands */
    int hint;              /* NAME: the dict entry where the name was last found */
    unsigned noted;        /* NAME target: the top-level statement whose undo log has it */
    /* TRY: a body, list handlers, b else, c finally. HANDLER: a the class
     * (NULL: bare except), name the `as` name, b body. RAISE: a exception,
     * b cause. FSTRING: list of CONST str and FIELD parts. FIELD: a the
     * expression, op the conversion ('r' 's' 'a' or 0), b the spec (an
     * FSTRING or NULL). */
};

/* constructors (used by the grammar only) */
Node *ast_node(Chunk *c, NodeKind k, Loc loc);
NodeList *ast_list(Chunk *c, Node *first);          /* first may be NULL */
NodeList *ast_append(Chunk *c, NodeList *l, Node *x);
Loc ast_tokloc(Token t);
Loc ast_span(Loc a, Loc b);                         /* from a's start to b's end */
char *ast_name(Chunk *c, Token t);
Value *ast_key(Chunk *c, const char *name);         /* an interned str with its hash cached */
Node *ast_number(Chunk *c, Token t, char *err, size_t errn);  /* NULL + err on a bad literal */
Node *ast_string(Chunk *c, Node *prev, Token t);    /* adjacent literals concatenate */
Value *ast_decode(const char *p, size_t n, bool raw); /* a literal's text with its escapes decoded */
Node *ast_const(Chunk *c, Loc loc, Value *v);       /* steals v */
const char *ast_kind_name(NodeKind k);
/* An S-expression of the tree, for tests and debugging (malloc'd). */
char *ast_dump(Node *n);

#endif
