/* src/eval_int.h — what the evaluator's files (src/eval*.c) share: frames,
 * scopes, user functions and the recursive entry points. Nothing outside
 * the evaluator includes it. */
#ifndef TSR_EVAL_INT_H
#define TSR_EVAL_INT_H

#include "ast.h"
#include "value.h"

/* A function call's scope; the module level has none (names go to globals). */
typedef struct Env Env;
struct Env {
    long refcnt;
    Value *vars;      /* dict */
    Env *parent;      /* enclosing function scope; NULL at module level */
    Env *prev, *next; /* every live Env, so cycles can be broken at exit */
};

Env *env_new(Env *parent);            /* refcnt 1; holds a reference to parent */
void env_unref(Env *e);
/* A nested function kept in its own defining scope is a reference cycle;
 * there is no cycle collector: the session's end breaks them all. */
void env_break_cycles(void);

struct Func {
    Node *def;         /* N_DEF or N_LAMBDA */
    Chunk *chunk;
    Value **defaults;  /* one per parameter, NULL when none */
    int nparams;
    Env *closure;
};

typedef enum { EX_OK, EX_ERR, EX_BREAK, EX_CONTINUE, EX_RETURN } ExecStatus;

typedef struct {
    Env *env;        /* NULL at module level: names go to globals */
    Value *retval;
} Frame;

extern Chunk *eval_cur_chunk;   /* the chunk whose nodes are running */

/* The expression's value (new reference), or NULL with the exception
 * located at the innermost failing node. */
Value *eval_expr(Frame *f, Node *n);
/* Runs a statement; top: a top-level statement (expression values print). */
ExecStatus eval_exec(Frame *f, Node *n, bool top);
/* Gives the pending exception n's span unless it has one. */
void eval_locate(Node *n);

/* A user function from a def or lambda in f's scope (new reference). */
Value *eval_make_function(Frame *f, Node *def);
/* A call's arguments evaluated into *a; every value is owned by *owned,
 * which eval_free_args releases (also after a failure, -1). */
int eval_build_args(Frame *f, NodeList *args, CallArgs *a, Value ***owned, int *nowned);
void eval_free_args(CallArgs *a, Value **owned, int nowned);

#endif
