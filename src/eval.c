/* src/eval.c — the evaluator: statements and expressions over Values with
 * Python's semantics. Errors carry the span of the innermost failing node;
 * a failed top-level statement restores the global namespace. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/bind.h"
#include "bind/devguard.h"
#include "bind/exceptions.h"
#include "format.h"
#include "traceback.h"
#include "error.h"
#include "eval.h"
#include "eval_int.h"
#include "parse.h"

EvalOptions eval_opts;
volatile int eval_interrupted;
bool eval_saw_interrupt;
bool eval_exit_requested;
int eval_exit_status;

static Value *globals;

/* --------------------------------------------------------------- errors */

static Chunk *err_chunk; /* the chunk the pending exception's span refers to */

static Span span_of(Loc l, Loc op)
{
    Span s = {l.line, l.col, l.end_line, l.end_col, 0, 0};
    if (op.line && op.line == l.line) {
        s.op_col = op.col;
        s.op_end_col = op.end_col;
    }
    return s;
}

Chunk *eval_cur_chunk;

void eval_locate(Node *n)
{
    if (exc_pending() && !exc_has_span()) {
        exc_set_span(span_of(n->loc, n->kind == N_BINOP ? n->oploc : (Loc){0, 0, 0, 0}));
        if (err_chunk) chunk_unref(err_chunk);
        err_chunk = eval_cur_chunk ? chunk_ref(eval_cur_chunk) : NULL;
    }
}

bool eval_check_interrupt(void)
{
    if (value_memory_check() < 0) return true;
    if (ferror_unlocked(stdout) && !eval_output_errno) eval_flush_output();   /* a closed pipe */
    if (!eval_interrupted) return false;
    eval_interrupted = 0;
    tsr_interrupted = 0;   /* one Ctrl-C, one KeyboardInterrupt */
    exc_set("KeyboardInterrupt", "%s", "");
    return true;
}

/* ---------------------------------------------------------- frames */


/* ---------------------------------------------------------- names */

/* A top-level statement that fails leaves every global binding as it was.
 * While one runs, the first change to each global name records the name's
 * old value (or `unbound`) in the undo log; a failure replays the log, a
 * success empties it. (A copy of the whole namespace per statement made a
 * script of n assignments cost n^2.) */
static Value *undo;   /* dict: name -> value before the statement; NULL: no statement running */
static unsigned undo_serial; /* counts top-level statements: a target noted in this one is skipped */
static Value unbound = {.refcnt = 1L << 40, .type = &t_notimpl};

static int undo_note(Value *k)
{
    if (!undo) return 0;
    int h = 0;
    if (dict_len(undo) && dict_get_hinted(undo, k, &h)) return 0;
    Value *old = dict_get(globals, k);
    return dict_set(undo, k, old ? old : &unbound);
}

/* Puts back what the log recorded and empties it. */
static void undo_replay(Value *log)
{
    Value *k, *old;
    for (size_t i = 0; dict_next(log, &i, &k, &old);) {
        if (old == &unbound) dict_del(globals, k);
        else dict_set(globals, k, old);
    }
    dict_clear(log);
}

/* An N_NAME's value: n->value is its interned key, n->hint the entry it
 * was last found at (so a name in a loop costs a pointer compare). */
static Value *lookup_name(Frame *f, Node *n)
{
    Value *k = n->value, *x = NULL;
    if (!k) {
        k = str_intern(n->name);
        x = lookup_name(f, &(Node){.kind = N_NAME, .value = k, .name = n->name});
        decref(k);
        return x;
    }
    for (Env *e = f->env; e && !x; e = e->parent) x = dict_get_hinted(e->vars, k, &n->hint);
    if (!x) x = dict_get_hinted(globals, k, &n->hint);
    if (!x) x = dict_get_hinted(bind_builtins(), k, &n->hint);
    if (x) return incref(x);
    return exc_set("NameError", "name '%s' is not defined", k->u.s.p);
}

/* Binds the key in f's scope; *hint as for lookup_name (may be a local). */
static int bind_key(Frame *f, Value *k, Value *x, int *hint)
{
    if (f->env) return dict_set_hinted(f->env->vars, k, x, hint);
    if (undo_note(k) < 0) return -1;
    return dict_set_hinted(globals, k, x, hint);
}

/* Binds an N_NAME target (with its key, hint and undo mark). */
static int bind_target(Frame *f, Node *t, Value *x)
{
    if (f->env) return dict_set_hinted(f->env->vars, t->value, x, &t->hint);
    if (t->noted != undo_serial) {
        if (undo_note(t->value) < 0) return -1;
        t->noted = undo_serial;
    }
    return dict_set_hinted(globals, t->value, x, &t->hint);
}

static int bind_name(Frame *f, const char *name, Value *x)
{
    Value *k = str_intern(name);
    int hint = 0;
    int r = bind_key(f, k, x, &hint);
    decref(k);
    return r;
}

/* Removes the name from f's scope: 0, 1 when it was not bound, -1 error. */
static int unbind_name(Frame *f, const char *name)
{
    Value *k = str_intern(name);
    int r = f->env ? 0 : undo_note(k);
    if (r == 0) r = dict_del(f->env ? f->env->vars : globals, k);
    decref(k);
    return r;
}

/* ---------------------------------------------------------- assignment */

/* The object and key of a subscript target (x[k]): new references in *obj
 * and *key, or -1 with both NULL. */
static int eval_subscript_parts(Frame *f, Node *target, Value **obj, Value **key)
{
    *key = NULL;
    *obj = eval_expr(f, target->a);
    if (!*obj) return -1;
    *key = eval_expr(f, target->b);
    if (!*key) { CLEAR(*obj); return -1; }
    return 0;
}

static int assign(Frame *f, Node *target, Value *x);

static int unpack(Frame *f, Node *target, Value *x)
{
    Value *items = NULL;
    if (x->type == &t_tuple || x->type == &t_list) {
        items = incref(x);
    } else if (x->type->iter) {
        items = value_to_list(x);
        if (!items) return -1;
    } else {
        return exc_seti("TypeError", "cannot unpack non-iterable %s object", type_name(x));
    }
    int want = target->list->n;
    size_t got = seq_len(items);
    int r = 0;
    if ((int)got > want) r = exc_seti("ValueError", "too many values to unpack (expected %d)", want);
    else if ((int)got < want)
        r = exc_seti("ValueError", "not enough values to unpack (expected %d, got %zu)", want, got);
    for (int i = 0; r == 0 && i < want; i++) r = assign(f, target->list->items[i], seq_get(items, (size_t)i));
    decref(items);
    return r;
}

static int assign(Frame *f, Node *target, Value *x)
{
    int r;
    switch (target->kind) {
    case N_NAME:
        return target->value ? bind_target(f, target, x) : bind_name(f, target->name, x);
    case N_TUPLE:
    case N_LIST:
        r = unpack(f, target, x);
        break;
    case N_ATTR: {
        Value *obj = eval_expr(f, target->a);
        if (!obj) return -1;
        r = value_setattr(obj, target->name, x);
        decref(obj);
        break;
    }
    case N_SUBSCRIPT: {
        Value *obj, *key;
        if (eval_subscript_parts(f, target, &obj, &key) < 0) return -1;
        r = value_setitem(obj, key, x);
        decref(obj);
        decref(key);
        break;
    }
    default:
        r = exc_seti("SyntaxError", "cannot assign to expression");
    }
    if (r < 0) eval_locate(target);
    return r;
}

static int delete(Frame *f, Node *target)
{
    int r = 0;
    switch (target->kind) {
    case N_NAME: {
        r = unbind_name(f, target->name);
        if (r == 1) r = exc_seti("NameError", "name '%s' is not defined", target->name);
        break;
    }
    case N_TUPLE:
    case N_LIST:
        for (int i = 0; r == 0 && i < target->list->n; i++) r = delete(f, target->list->items[i]);
        break;
    case N_SUBSCRIPT: {
        Value *obj, *key;
        if (eval_subscript_parts(f, target, &obj, &key) < 0) return -1;
        r = value_delitem(obj, key);
        decref(obj);
        decref(key);
        break;
    }
    case N_ATTR: {
        Value *obj = eval_expr(f, target->a);
        if (!obj) return -1;
        r = exc_seti("AttributeError", "'%s' object attribute '%s' cannot be deleted", type_name(obj), target->name);
        decref(obj);
        break;
    }
    default:
        r = exc_seti("SyntaxError", "cannot delete expression");
    }
    if (r < 0) eval_locate(target);
    return r;
}

/* ---------------------------------------------------------- expressions */

/* `is`: identity; type objects, small ints (CPython caches -5..256) and
 * other immutable singletons-by-value compare by value. */
static bool same_object(Value *l, Value *r)
{
    if (l == r) return true;
    if (l->type != r->type) return false;
    if (l->type == &t_type) return l->u.typeobj == r->u.typeobj;
    if (l->type == &t_int) return l->u.i == r->u.i && l->u.i >= -5 && l->u.i <= 256;
    if (bind_same_tensor(l, r)) return true;   /* one Python object per TensorImpl, as PyTorch */
    if (l->type->eq && l->type != &t_str && l->type != &t_tuple && l->type != &t_list && l->type != &t_dict &&
        l->type != &t_range)
        return l->type->eq(l, r) == 1; /* dtypes, devices, layouts: singletons in PyTorch */
    return false;
}

static Value *eval_compare_op(int op, Value *l, Value *r)
{
    switch (op) {
    case CMP_IN:
    case CMP_NOT_IN: {
        int c = value_contains(r, l);
        if (c < 0) return NULL;
        return v_bool(op == CMP_IN ? c : !c);
    }
    case CMP_IS: return v_bool(same_object(l, r));
    case CMP_IS_NOT: return v_bool(!same_object(l, r));
    default: return value_compare(op, l, r);
    }
}

static int listcomp_rec(Frame *f, Node *n, int k, Value *out)
{
    if (k == n->list->n) {
        Value *v = eval_expr(f, n->a);
        if (!v) return -1;
        return list_append_steal(out, v);
    }
    Node *gen = n->list->items[k];
    Value *it_src = eval_expr(f, gen->b);
    if (!it_src) return -1;
    Value *it = value_iter(it_src);
    decref(it_src);
    if (!it) { eval_locate(gen->b); return -1; }
    Value *x;
    int r = 0;
    while ((x = value_next(it))) {
        r = assign(f, gen->a, x);
        decref(x);
        if (r < 0) break;
        bool keep = true;
        for (int i = 0; i < gen->list->n && keep; i++) {
            Value *c = eval_expr(f, gen->list->items[i]);
            if (!c) { r = -1; break; }
            int t = value_truth(c);
            decref(c);
            if (t < 0) { r = -1; break; }
            keep = t;
        }
        if (r < 0) break;
        if (keep && (r = listcomp_rec(f, n, k + 1, out)) < 0) break;
        if (eval_check_interrupt()) { r = -1; break; }
    }
    decref(it);
    if (exc_pending()) r = -1;
    return r;
}

static Value *eval_listcomp(Frame *f, Node *n)
{
    /* the comprehension's variables live in their own scope, as in Python 3 */
    Env *env = env_new(f->env);
    Frame inner = {env, NULL};
    Value *out = v_list(0);
    int r = listcomp_rec(&inner, n, 0, out);
    env_unref(env);
    if (r < 0) { decref(out); return NULL; }
    return out;
}

static Value *eval_slice_part(Frame *f, Node *n)
{
    return n ? eval_expr(f, n) : v_none();
}

/* + - * of two ints or two floats without the generic dispatch (the
 * results are those of src/types.c's num_binop); NULL: not handled here. */
static inline Value *number_binop(int op, Value *l, Value *r)
{
    if (op > OP_MUL) return NULL;
    if (l->type == &t_float && r->type == &t_float) {
        double a = l->u.f, b = r->u.f;
        return v_float(op == OP_ADD ? a + b : op == OP_SUB ? a - b : a * b);
    }
    if (l->type == &t_int && r->type == &t_int) {
        int64_t v;
        bool ovf = op == OP_ADD ? __builtin_add_overflow(l->u.i, r->u.i, &v)
                 : op == OP_SUB ? __builtin_sub_overflow(l->u.i, r->u.i, &v)
                                : __builtin_mul_overflow(l->u.i, r->u.i, &v);
        return ovf ? NULL : v_int(v);
    }
    return NULL;
}

static Value *eval_inner(Frame *f, Node *n)
{
    switch (n->kind) {
    case N_NAME: return lookup_name(f, n);
    case N_CONST:
        if (n->flag == 1) /* 9223372036854775808 not negated */
            return exc_set("OverflowError", "Python int too large to convert to C int64_t (tsr ints are 64-bit)");
        return incref(n->value);
    case N_BINOP: {
        Value *l = eval_expr(f, n->a);
        if (!l) return NULL;
        Value *r = eval_expr(f, n->b);
        if (!r) { decref(l); return NULL; }
        Value *x = number_binop(n->op, l, r);
        if (!x) x = value_binop(n->op, l, r);
        decref(l);
        decref(r);
        return x;
    }
    case N_UNARY: {
        Value *e = eval_expr(f, n->a);
        if (!e) return NULL;
        Value *x = value_unop(n->op, e);
        decref(e);
        return x;
    }
    case N_NOT: {
        Value *e = eval_expr(f, n->a);
        if (!e) return NULL;
        int t = value_truth(e);
        decref(e);
        return t < 0 ? NULL : v_bool(!t);
    }
    case N_AND:
    case N_OR: {
        Value *l = eval_expr(f, n->a);
        if (!l) return NULL;
        int t = value_truth(l);
        if (t < 0) { decref(l); return NULL; }
        if ((n->kind == N_AND) != (t != 0)) return l;
        decref(l);
        return eval_expr(f, n->b);
    }
    case N_COMPARE: {
        Value *l = eval_expr(f, n->list->items[0]);
        if (!l) return NULL;
        for (int i = 1; i < n->list->n; i++) {
            Value *r = eval_expr(f, n->list->items[i]);
            if (!r) { decref(l); return NULL; }
            Value *c = eval_compare_op(n->ops[i - 1], l, r);
            decref(l);
            if (!c || i == n->list->n - 1) { decref(r); return c; }
            int t = value_truth(c);
            if (t <= 0) { decref(r); if (t < 0) { decref(c); return NULL; } return c; }
            decref(c);
            l = r;
        }
        return l;
    }
    case N_FSTRING: {
        size_t cap = 64, len = 0;
        char *buf = value_xmalloc(cap);
        for (int i = 0; i < n->list->n; i++) {
            Value *part = eval_expr(f, n->list->items[i]);
            if (!part) { free(buf); return NULL; }
            if (len + part->u.s.n + 1 > cap) {
                cap = (len + part->u.s.n + 1) * 2;
                buf = value_xrealloc(buf, cap);
            }
            memcpy(buf + len, part->u.s.p, part->u.s.n);
            len += part->u.s.n;
            decref(part);
        }
        buf[len] = 0;
        return v_str_take(buf, len);
    }
    case N_FIELD: {
        Value *v = eval_expr(f, n->a);
        if (!v) return NULL;
        Value *c = format_convert(v, (char)n->op);
        decref(v);
        if (!c) return NULL;
        Value *spec = n->b ? eval_expr(f, n->b) : NULL;
        Value *r = !n->b || spec ? format_value(c, spec ? spec->u.s.p : "", spec ? spec->u.s.n : 0) : NULL;
        decref(spec);
        decref(c);
        return r;
    }
    case N_IFEXP: {
        Value *c = eval_expr(f, n->a);
        if (!c) return NULL;
        int t = value_truth(c);
        decref(c);
        if (t < 0) return NULL;
        return eval_expr(f, t ? n->b : n->c);
    }
    case N_CALL: {
        Value *fn = eval_expr(f, n->a);
        if (!fn) return NULL;
        CallArgs a;
        Value **owned;
        int nowned;
        Value *r = NULL;
        if (eval_build_args(f, n->list, &a, &owned, &nowned) == 0) {
            /* the device gate: a built-in given a cuda tensor runs only if it is device-aware */
            r = fn->type == &t_builtin && bind_devguard_call(fn, &a) < 0 ? NULL : value_call(fn, &a);
            /* an error inside the body (it has its span) passed through this call */
            if (!r && fn->type == &t_func && exc_pending() && exc_has_span() && eval_cur_chunk)
                tb_push(fn->u.fn->def->name, eval_cur_chunk, n->loc.line, n->loc.col);
        }
        eval_free_args(&a, owned, nowned);
        decref(fn);
        return r;
    }
    case N_ATTR: {
        Value *obj = eval_expr(f, n->a);
        if (!obj) return NULL;
        Value *r = value_getattr(obj, n->name);
        decref(obj);
        return r;
    }
    case N_SUBSCRIPT: {
        Value *obj = eval_expr(f, n->a);
        if (!obj) return NULL;
        Value *key = eval_expr(f, n->b);
        if (!key) { decref(obj); return NULL; }
        Value *r = value_getitem(obj, key);
        decref(obj);
        decref(key);
        return r;
    }
    case N_SLICE: {
        Value *a = eval_slice_part(f, n->a);
        if (!a) return NULL;
        Value *b = eval_slice_part(f, n->b);
        if (!b) { decref(a); return NULL; }
        Value *c = eval_slice_part(f, n->c);
        if (!c) { decref(a); decref(b); return NULL; }
        Value *s = v_slice(a, b, c);
        decref(a);
        decref(b);
        decref(c);
        return s;
    }
    case N_TUPLE:
    case N_LIST: {
        Value *t = n->kind == N_TUPLE ? v_tuple(0) : v_list(0);
        for (int i = 0; i < n->list->n; i++) {
            Node *item = n->list->items[i];
            if (item->kind == N_STARRED) {
                Value *v = eval_expr(f, item->a);
                Value *l = v ? value_to_list(v) : NULL;
                decref(v);
                if (!l) { decref(t); return NULL; }
                for (size_t k = 0; k < seq_len(l); k++)
                    if (list_append(t, seq_get(l, k)) < 0) { decref(l); decref(t); return NULL; }
                decref(l);
                continue;
            }
            Value *v = eval_expr(f, item);
            if (!v) { decref(t); return NULL; }
            if (list_append_steal(t, v) < 0) { decref(t); return NULL; }
        }
        return t;
    }
    case N_DICT: {
        Value *d = v_dict();
        for (int i = 0; i + 1 < n->list->n; i += 2) {
            Value *k = eval_expr(f, n->list->items[i]);
            if (!k) { decref(d); return NULL; }
            Value *v = eval_expr(f, n->list->items[i + 1]);
            if (!v) { decref(k); decref(d); return NULL; }
            int r = dict_set(d, k, v);
            decref(k);
            decref(v);
            if (r < 0) { decref(d); return NULL; }
        }
        return d;
    }
    case N_LISTCOMP: return eval_listcomp(f, n);
    case N_LAMBDA: return eval_make_function(f, n);
    case N_STARRED: return exc_set("SyntaxError", "can't use starred expression here");
    case N_KEYWORD: return exc_set("SyntaxError", "invalid syntax");
    default: return exc_set("SystemError", "cannot evaluate a %s node", ast_kind_name(n->kind));
    }
}

static int expr_depth;

Value *eval_expr(Frame *f, Node *n)
{
    if (++expr_depth > 3000) {
        expr_depth--;
        exc_set("RecursionError", "maximum recursion depth exceeded");
        eval_locate(n);
        return NULL;
    }
    Value *r = eval_inner(f, n);
    expr_depth--;
    if (r && value_memory_check() < 0) { decref(r); r = NULL; }
    if (!r) eval_locate(n);
    return r;
}

/* ---------------------------------------------------------- statements */

static int print_value(Value *v)
{
    if (is_none(v)) return 0;
    Value *r = value_repr(v);
    if (!r) return -1;
    fwrite(r->u.s.p, 1, r->u.s.n, stdout);
    fputc('\n', stdout);
    decref(r);
    /* sys.displayhook: at the prompt, builtins._ is the last value shown */
    if (eval_opts.interactive) dict_set_str(bind_builtins(), "_", v);
    return 0;
}

static int import_module(Frame *f, Node *n)
{
    const char *dotted = n->a->name;
    Value *mod = bind_find_module(dotted);
    if (!mod) {
        exc_set("ModuleNotFoundError", "No module named '%s'", dotted);
        return -1;
    }
    if (n->name) return bind_name(f, n->name, mod);
    char top[128];
    snprintf(top, sizeof top, "%s", dotted);
    char *dot = strchr(top, '.');
    if (dot) *dot = 0;
    return bind_name(f, top, bind_find_module(top));
}

static int from_import(Frame *f, Node *n)
{
    const char *dotted = n->a->name;
    Value *mod = bind_find_module(dotted);
    if (!mod) return exc_seti("ModuleNotFoundError", "No module named '%s'", dotted);
    for (int i = 0; i < n->list->n; i++) {
        Node *nm = n->list->items[i];
        Value *x = mod->type->getattr(mod, nm->name);
        if (!x) {
            char sub[256];
            snprintf(sub, sizeof sub, "%s.%s", dotted, nm->name);
            Value *m = bind_find_module(sub);
            if (m) x = incref(m);
        }
        if (!x) {
            exc_clear();
            return exc_seti("ImportError", "cannot import name '%s' from '%s' (unknown location)", nm->name, dotted);
        }
        int r = bind_name(f, nm->a ? nm->a->name : nm->name, x);
        decref(x);
        if (r < 0) return -1;
    }
    return 0;
}

static ExecStatus exec_loop_body(Frame *f, Node *body, bool *broke)
{
    ExecStatus st = eval_exec(f, body, false);
    if (st == EX_BREAK) { *broke = true; return EX_OK; }
    if (st == EX_CONTINUE) return EX_OK;
    return st;
}

/* ---------------------------------------------------------- exceptions */

/* The exceptions being handled, innermost last: what a bare `raise`
 * re-raises (with the span and chunk it was first reported at). */
typedef struct Handled {
    ExcSaved exc;
    Chunk *chunk;
    TbFrame *tb;       /* its frames so far, for a bare re-raise */
    struct Handled *outer;
} Handled;
static Handled *handling;

/* Moves the pending exception out, its frames to *tb. */
static void save_pending_tb(ExcSaved *s, Chunk **chunk, TbFrame **tb)
{
    exc_save(s);
    *chunk = err_chunk;
    err_chunk = NULL;
    *tb = tb_take();
}

static void restore_pending(ExcSaved *s, Chunk *chunk)
{
    exc_restore(s);
    if (err_chunk) chunk_unref(err_chunk);
    err_chunk = chunk;
}

static void drop_saved(ExcSaved *s, Chunk *chunk)
{
    exc_saved_free(s);
    if (chunk) chunk_unref(chunk);
}

/* Whether the saved exception is caught by `except cls` (a class or a
 * tuple of classes): 1, 0, or -1 with Python's TypeError pending. */
static int handler_matches(ExcSaved *s, Value *cls)
{
    if (cls->type == &t_tuple) { /* every item is checked first (CPython's CHECK_EXC_MATCH) */
        for (size_t i = 0; i < seq_len(cls); i++)
            if (!bind_exc_is_class(seq_get(cls, i)))
                return exc_seti("TypeError", "catching classes that do not inherit from BaseException is not allowed");
        for (size_t i = 0; i < seq_len(cls); i++)
            if (bind_exc_name_matches(s->type, seq_get(cls, i))) return 1;
        return 0;
    }
    if (!bind_exc_is_class(cls))
        return exc_seti("TypeError", "catching classes that do not inherit from BaseException is not allowed");
    return bind_exc_name_matches(s->type, cls);
}

static ExecStatus exec_handler(Frame *f, Node *h, ExcSaved *s, Chunk *chunk, TbFrame *tb)
{
    Handled hd = {*s, chunk, tb, handling};
    ExecStatus st = EX_OK;
    if (h->name) {
        Value *e = s->obj ? incref(s->obj) : bind_exc_from_record(s->type, s->msg ? s->msg : "");
        if (bind_name(f, h->name, e) < 0) st = EX_ERR;
        decref(e);
    }
    handling = &hd;
    if (st == EX_OK) st = eval_exec(f, h->b, false);
    handling = hd.outer;
    /* Python deletes the name when the handler ends */
    if (h->name && unbind_name(f, h->name) < 0 && st == EX_OK) st = EX_ERR;
    drop_saved(&hd.exc, hd.chunk);
    tb_free(hd.tb);
    return st;
}

static ExecStatus exec_try(Frame *f, Node *n)
{
    ExecStatus st = eval_exec(f, n->a, false);
    if (st == EX_ERR && exc_pending() && n->list) {
        ExcSaved s;
        Chunk *chunk;
        TbFrame *tb;
        save_pending_tb(&s, &chunk, &tb);
        Node *match = NULL;
        for (int i = 0; i < n->list->n && !match; i++) {
            Node *h = n->list->items[i];
            if (!h->a) { match = h; break; }
            Value *cls = eval_expr(f, h->a);
            int r = cls ? handler_matches(&s, cls) : -1;
            decref(cls);
            if (r < 0) { eval_locate(h->a); drop_saved(&s, chunk); tb_free(tb); return EX_ERR; }
            if (r) match = h;
        }
        if (!match) {
            restore_pending(&s, chunk);
            tb_set(tb);
            return EX_ERR;
        }
        st = exec_handler(f, match, &s, chunk, tb);
    } else if (st == EX_OK && n->b) {
        st = eval_exec(f, n->b, false);
    }
    if (n->c) {
        ExcSaved s = {0};
        Chunk *chunk = NULL;
        TbFrame *tb = NULL;
        bool had = st == EX_ERR && exc_pending();
        if (had) save_pending_tb(&s, &chunk, &tb);
        Value *ret = f->retval;
        f->retval = NULL;
        ExecStatus fst = eval_exec(f, n->c, false);
        if (fst != EX_OK) { /* return, break or an error in finally wins */
            drop_saved(&s, chunk);
            tb_free(tb);
            decref(ret);
            return fst;
        }
        f->retval = ret;
        if (had) {
            restore_pending(&s, chunk);
            tb_set(tb);
        }
    }
    return st;
}

static ExecStatus exec_raise(Frame *f, Node *n)
{
    if (!n->a) {
        if (!handling) {
            exc_set("RuntimeError", "No active exception to reraise");
            return EX_ERR;
        }
        ExcSaved s = handling->exc;
        if (s.msg) s.msg = value_xstrdup(s.msg);
        incref(s.obj);
        restore_pending(&s, handling->chunk ? chunk_ref(handling->chunk) : NULL);
        tb_clear();
        tb_push_copy(handling->tb);
        return EX_ERR;
    }
    Value *x = eval_expr(f, n->a);
    if (!x) return EX_ERR;
    if (n->b) {
        Value *cause = eval_expr(f, n->b);
        if (!cause) { decref(x); return EX_ERR; }
        if (!is_none(cause) && !bind_exc_is_class(cause) && !bind_exc_is_instance(cause)) {
            decref(x);
            decref(cause);
            exc_set("TypeError", "exception causes must derive from BaseException");
            return EX_ERR;
        }
        decref(cause);
    }
    bind_exc_raise(x);
    decref(x);
    return EX_ERR;
}

/* `for NAME in range(...)`: the counter is a C integer, and the int bound
 * to the name is reused while nothing else holds it (no allocation per
 * iteration). Steals src. */
static ExecStatus exec_for_range(Frame *f, Node *n, Value *src)
{
    int64_t start = src->u.range.start, step = src->u.range.step, count = value_len(src);
    decref(src);
    Node *t = n->list->items[0];
    Value *mine = NULL;   /* the int this loop bound last (borrowed) */
    bool broke = false;
    ExecStatus st = EX_OK;
    for (int64_t c = 0; c < count; c++) {
        int64_t i = start + c * step;
        Value *cur = dict_get_hinted(f->env ? f->env->vars : globals, t->value, &t->hint);
        if (cur && cur == mine && cur->refcnt == 1) {
            cur->u.i = i;
        } else {
            Value *x = v_int(i);
            int r = bind_target(f, t, x);
            mine = x;
            decref(x);
            if (r < 0) { eval_locate(t); st = EX_ERR; break; }
        }
        st = exec_loop_body(f, n->b, &broke);
        if (st != EX_OK || broke) break;
        if (eval_check_interrupt()) { st = EX_ERR; break; }
    }
    if (st != EX_OK) return st;
    if (!broke && n->c) return eval_exec(f, n->c, false);
    return EX_OK;
}

static ExecStatus exec_inner(Frame *f, Node *n, bool top)
{
    switch (n->kind) {
    case N_EXPR: {
        Value *v = eval_expr(f, n->a);
        if (!v) return EX_ERR;
        int r = 0;
        if (top && !n->flag) r = print_value(v);
        decref(v);
        return r < 0 ? EX_ERR : EX_OK;
    }
    case N_BLOCK:
        for (int i = 0; i < n->list->n; i++) {
            ExecStatus st = eval_exec(f, n->list->items[i], top);
            if (st != EX_OK) return st;
            if (eval_check_interrupt()) return EX_ERR;
        }
        return EX_OK;
    case N_ASSIGN: {
        Value *v = eval_expr(f, n->a);
        if (!v) return EX_ERR;
        /* Ctrl-C during an op that finished (a held write): no name is bound */
        if (eval_check_interrupt()) { decref(v); return EX_ERR; }
        for (int i = 0; i < n->list->n; i++)
            if (assign(f, n->list->items[i], v) < 0) { decref(v); return EX_ERR; }
        decref(v);
        return EX_OK;
    }
    case N_AUGASSIGN: {
        Node *t = n->a;
        Value *obj = NULL, *key = NULL, *cur = NULL;
        if (t->kind == N_NAME) {
            cur = lookup_name(f, t);
        } else if (t->kind == N_ATTR) {
            obj = eval_expr(f, t->a);
            if (obj) cur = value_getattr(obj, t->name);
        } else {
            if (eval_subscript_parts(f, t, &obj, &key) == 0) cur = value_getitem(obj, key);
        }
        if (!cur) { eval_locate(t); decref(obj); decref(key); return EX_ERR; }
        Value *rhs = eval_expr(f, n->b);
        Value *res = rhs ? value_inplace(n->op, cur, rhs) : NULL;
        if (!res && rhs) {
            Span sp = {n->loc.line, n->loc.col, n->loc.end_line, n->loc.end_col, n->oploc.col, n->oploc.end_col};
            exc_set_span(sp);
        }
        int r = -1;
        if (res) {
            if (t->kind == N_NAME) r = bind_target(f, t, res);
            else if (t->kind == N_ATTR) r = res == cur ? 0 : value_setattr(obj, t->name, res);
            else r = value_setitem(obj, key, res);
        }
        decref(obj);
        decref(key);
        decref(cur);
        decref(rhs);
        decref(res);
        return r < 0 ? EX_ERR : EX_OK;
    }
    case N_DEL:
        for (int i = 0; i < n->list->n; i++)
            if (delete(f, n->list->items[i]) < 0) return EX_ERR;
        return EX_OK;
    case N_PASS: return EX_OK;
    case N_BREAK: return EX_BREAK;
    case N_CONTINUE: return EX_CONTINUE;
    case N_RETURN:
        if (n->a) {
            f->retval = eval_expr(f, n->a);
            if (!f->retval) return EX_ERR;
        }
        return EX_RETURN;
    case N_ASSERT: {
        Value *c = eval_expr(f, n->a);
        if (!c) return EX_ERR;
        int t = value_truth(c);
        decref(c);
        if (t < 0) return EX_ERR;
        if (t) return EX_OK;
        if (n->b) {
            Value *m = eval_expr(f, n->b);
            Value *s = m ? value_str(m) : NULL;
            decref(m);
            if (!s) return EX_ERR;
            exc_set("AssertionError", "%s", s->u.s.p);
            decref(s);
        } else {
            exc_set("AssertionError", "%s", "");
        }
        return EX_ERR;
    }
    case N_IMPORT: return import_module(f, n) < 0 ? EX_ERR : EX_OK;
    case N_FROMIMPORT: return from_import(f, n) < 0 ? EX_ERR : EX_OK;
    case N_IF: {
        Value *c = eval_expr(f, n->a);
        if (!c) return EX_ERR;
        int t = value_truth(c);
        decref(c);
        if (t < 0) { eval_locate(n->a); return EX_ERR; }
        if (t) return eval_exec(f, n->b, false);
        if (n->c) return eval_exec(f, n->c, n->c->kind == N_IF ? false : false);
        return EX_OK;
    }
    case N_WHILE: {
        bool broke = false;
        for (;;) {
            if (eval_check_interrupt()) return EX_ERR;
            Value *c = eval_expr(f, n->a);
            if (!c) return EX_ERR;
            int t = value_truth(c);
            decref(c);
            if (t < 0) { eval_locate(n->a); return EX_ERR; }
            if (!t) break;
            ExecStatus st = exec_loop_body(f, n->b, &broke);
            if (st != EX_OK) return st;
            if (broke) break;
        }
        if (!broke && n->c) return eval_exec(f, n->c, false);
        return EX_OK;
    }
    case N_FOR: {
        Value *src = eval_expr(f, n->a);
        if (!src) return EX_ERR;
        if (src->type == &t_range && n->list->items[0]->kind == N_NAME && n->list->items[0]->value)
            return exec_for_range(f, n, src);
        Value *it = value_iter(src);
        decref(src);
        if (!it) { eval_locate(n->a); return EX_ERR; }
        bool broke = false;
        Value *x;
        ExecStatus st = EX_OK;
        while ((x = value_next(it))) {
            int r = assign(f, n->list->items[0], x);
            decref(x);
            if (r < 0) { st = EX_ERR; break; }
            st = exec_loop_body(f, n->b, &broke);
            if (st != EX_OK || broke) break;
            if (eval_check_interrupt()) { st = EX_ERR; break; }
        }
        decref(it);
        if (st == EX_OK && exc_pending()) st = EX_ERR;
        if (st != EX_OK) return st;
        if (!broke && n->c) return eval_exec(f, n->c, false);
        return EX_OK;
    }
    case N_WITH: {
        Value *ctx = eval_expr(f, n->a);
        if (!ctx) return EX_ERR;
        Value *entered;
        if (ctx->type->enter) {
            entered = ctx->type->enter(ctx);
        } else {
            exc_set("TypeError", "'%s' object does not support the context manager protocol", type_name(ctx));
            entered = NULL;
        }
        if (!entered) { eval_locate(n->a); decref(ctx); return EX_ERR; }
        ExecStatus st = EX_OK;
        if (n->c && assign(f, n->c, entered) < 0) st = EX_ERR;
        decref(entered);
        if (st == EX_OK) st = eval_exec(f, n->b, false);
        if (ctx->type->exit && ctx->type->exit(ctx) < 0 && st != EX_ERR) st = EX_ERR;
        decref(ctx);
        return st;
    }
    case N_TRY: return exec_try(f, n);
    case N_RAISE: return exec_raise(f, n);
    case N_DEF: {
        Value *fn = eval_make_function(f, n);
        if (!fn) return EX_ERR;
        int r = bind_name(f, n->name, fn);
        decref(fn);
        return r < 0 ? EX_ERR : EX_OK;
    }
    default:
        exc_set("SystemError", "cannot execute a %s node", ast_kind_name(n->kind));
        return EX_ERR;
    }
}

ExecStatus eval_exec(Frame *f, Node *n, bool top)
{
    ExecStatus st = exec_inner(f, n, top);
    if (st == EX_ERR) eval_locate(n);
    return st;
}

/* Python rejects these when compiling: check before running anything. */
static bool check_static(Node *n, int loops, bool in_func)
{
    if (!n) return true;
    const char *msg = NULL;
    switch (n->kind) {
    case N_BREAK: if (!loops) msg = "'break' outside loop"; break;
    case N_CONTINUE: if (!loops) msg = "'continue' not properly in loop"; break;
    case N_RETURN: if (!in_func) msg = "'return' outside function"; break;
    case N_WHILE:
    case N_FOR:
        return check_static(n->b, loops + 1, in_func) && check_static(n->c, loops, in_func);
    case N_DEF: return check_static(n->b, 0, true);
    case N_BLOCK:
        for (int i = 0; i < n->list->n; i++)
            if (!check_static(n->list->items[i], loops, in_func)) return false;
        return true;
    case N_IF:
    case N_WITH:
        return check_static(n->b, loops, in_func) && check_static(n->c, loops, in_func);
    case N_TRY:
        for (int i = 0; n->list && i < n->list->n; i++)
            if (!check_static(n->list->items[i]->b, loops, in_func)) return false;
        return check_static(n->a, loops, in_func) && check_static(n->b, loops, in_func) &&
               check_static(n->c, loops, in_func);
    default: return true;
    }
    if (msg) {
        exc_set("SyntaxError", "%s", msg);
        exc_set_span(span_of(n->loc, (Loc){0, 0, 0, 0}));
        return false;
    }
    return true;
}

/* ---------------------------------------------------------- reporting */

#define RED "\033[1;31m"
#define MAG "\033[35m"
#define RESET "\033[0m"

int eval_output_errno;

void eval_flush_output(void)
{
    errno = 0;
    if (fflush(stdout) != 0 && !eval_output_errno) eval_output_errno = errno;
    /* the reader went away (tsr script | head -1) and SIGPIPE is ignored:
     * end as the default SIGPIPE would, quietly, instead of running on */
    if (eval_output_errno == EPIPE) {
        signal(SIGPIPE, SIG_DFL);
        raise(SIGPIPE);
    }
}

void eval_report_error(void)
{
    eval_flush_output();
    FILE *out = eval_opts.brief_errors ? stdout : stderr;
    const char *type = exc_type(), *msg = exc_message();
    bool color = eval_opts.color && !eval_opts.brief_errors;
    if (eval_opts.brief_errors) {
        const char *nl = strchr(msg, '\n');
        int n = nl ? (int)(nl - msg) : (int)strlen(msg);
        if (n) fprintf(out, "%s: %.*s\n", type, n, msg);
        else fprintf(out, "%s\n", type);
        fflush(out);
        exc_clear();
        tb_clear();
        if (err_chunk) { chunk_unref(err_chunk); err_chunk = NULL; }
        return;
    }
    Span sp = exc_span();
    bool has = exc_has_span() && err_chunk;
    if (has && eval_opts.show_location)
        fprintf(out, "%s%s:%d:%d:%s ", color ? MAG : "", err_chunk->name, sp.line, sp.op_col ? sp.op_col : sp.col,
                color ? RESET : "");
    if (*msg) fprintf(out, "%s%s%s: %s\n", color ? RED : "", type, color ? RESET : "", msg);
    else fprintf(out, "%s%s%s\n", color ? RED : "", type, color ? RESET : "");
    if (has && sp.line > 0) {
        int n;
        const char *line = lex_line(err_chunk->text, err_chunk->len, sp.line, &n);
        int skip = 0;
        while (skip < n && (line[skip] == ' ' || line[skip] == '\t')) skip++;
        int from = sp.col - 1, to = sp.end_line == sp.line ? sp.end_col - 1 : n;
        if (to > n) to = n;
        if (from > n) from = n;
        if (to <= from) to = from + 1;
        /* a long line is shown as a window around the error */
        int w0 = skip, w1 = n;
        if (w1 - w0 > 100) {
            w0 = from - 40 > skip ? from - 40 : skip;
            w1 = w0 + 100 < n ? w0 + 100 : n;
            if (to > w1) to = w1 > from ? w1 : from + 1;
        }
        if (w0 < n) {
            const char *pre = w0 > skip ? "..." : "", *post = w1 < n ? "..." : "";
            fprintf(out, "    %s%.*s%s\n", pre, w1 - w0, line + w0, post);
            fprintf(out, "    %s", w0 > skip ? "   " : "");
            for (int i = w0; i < from; i++) fputc(line[i] == '\t' ? '\t' : ' ', out);
            if (color) fputs(RED, out);
            for (int i = from; i < to; i++) {
                bool op = sp.op_col && i >= sp.op_col - 1 && i < sp.op_end_col - 1;
                fputc(sp.op_col ? (op ? '^' : '~') : '^', out);
            }
            if (color) fputs(RESET, out);
            fputc('\n', out);
        }
    }
    tb_print(out);
    Value *hint = eval_opts.interactive ? bind_error_hint(type, msg) : NULL;
    if (hint) fprintf(out, "%s\n", hint->u.s.p);
    decref(hint);
    fflush(out);
    exc_clear();
    if (err_chunk) { chunk_unref(err_chunk); err_chunk = NULL; }
}

/* ---------------------------------------------------------- sessions */

/* dir(): the session's names, sorted; dir(x): x's attributes. The
 * evaluator defines this built-in because only it knows the namespace. */
static Value *builtin_dir(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (a->npos) return bind_dir_of(a->pos[0]);
    Value *l = v_list(0), *k;
    for (size_t i = 0; dict_next(globals, &i, &k, NULL);) list_append(l, k);
    sort_values(l->u.seq.items, seq_len(l), NULL, false);
    return l;
}

void eval_init(void)
{
    value_memory_refill();
    globals = v_dict();
    bind_init_all();
    bind_builtin_fn("dir", builtin_dir);
    Value *torch = bind_find_module("torch");
    if (torch) dict_set_str(globals, "torch", torch);
    Value *main_name = v_str("__main__");
    dict_set_str(globals, "__name__", main_name);
    decref(main_name);
}

void eval_fini(void)
{
    decref(globals);
    globals = NULL;
    str_intern_clear();
    env_break_cycles();
    value_break_cycles();
    bind_fini();
    if (err_chunk) chunk_unref(err_chunk);
    err_chunk = NULL;
    tb_clear();
}

Value *eval_globals(void) { return globals; }

/* The pending SystemExit becomes the run's exit status. */
static void take_system_exit(void)
{
    Value *e = exc_object();
    Value *args = e ? value_getattr(e, "args") : NULL;
    Value *code = args && seq_len(args) == 1 ? seq_get(args, 0) : NULL;
    eval_exit_requested = true;
    if (!code || is_none(code)) {
        eval_exit_status = 0;
    } else if (code->type == &t_int || code->type == &t_bool) {
        eval_exit_status = (int)(code->u.i & 0xff);
    } else {
        eval_flush_output();
        Value *s = value_str(code);
        if (s) fprintf(stderr, "%s\n", s->u.s.p);
        decref(s);
        eval_exit_status = 1;
    }
    if (!code && args && seq_len(args) > 1) { /* SystemExit(1, 2): the tuple is printed */
        Value *s = value_str(args);
        if (s) fprintf(stderr, "%s\n", s->u.s.p);
        decref(s);
        eval_exit_status = 1;
    }
    decref(args);
    exc_clear();
    if (exc_pending()) exc_clear();
}

int eval_source(const char *name, const char *text, size_t len, bool keep_going, bool *incomplete)
{
    size_t dlen;
    char *doc = lex_doctest(text, len, &dlen);
    Chunk *c = chunk_new(name, doc ? doc : text, doc ? dlen : len);
    free(doc);
    Parser p;
    parser_init(&p, c);
    int failed = 0;
    if (incomplete) *incomplete = false;
    Chunk *saved = eval_cur_chunk;
    eval_cur_chunk = c;
    Value *log = v_dict();
    for (;;) {
        Node *stmt;
        bool inc = false;
        int r = parser_next(&p, &stmt, &inc);
        if (r == 0) break;
        if (r < 0) {
            if (incomplete && inc) {
                *incomplete = true;
                exc_clear();
                break;
            }
            if (err_chunk) chunk_unref(err_chunk);
            err_chunk = chunk_ref(c);
            eval_report_error();
            failed++;
            if (!keep_going) break;
            continue;
        }
        if (!check_static(stmt, 0, false)) {
            if (err_chunk) chunk_unref(err_chunk);
            err_chunk = chunk_ref(c);
            eval_report_error();
            failed++;
            if (!keep_going) break;
            continue;
        }
        Frame f = {NULL, NULL};
        tb_clear();
        eval_depth = 0;
        expr_depth = 0;
        Value *outer = undo;
        undo = log;
        if (++undo_serial == 0) undo_serial = 1;   /* 0 is a fresh node's mark */
        ExecStatus st = eval_exec(&f, stmt, true);
        undo = outer;
        if (st != EX_ERR && value_memory_check() < 0) {   /* the spare took a failed allocation */
            st = EX_ERR;
            eval_locate(stmt);
        }
        eval_flush_output();
        if ((st == EX_ERR || exc_pending()) && exc_matches("SystemExit")) {
            dict_clear(log);
            take_system_exit();
            break;
        }
        if (st == EX_ERR || exc_pending()) {
            if (!exc_pending()) exc_set("SystemError", "statement failed without an exception");
            bool interrupt = exc_matches("KeyboardInterrupt");
            undo_replay(log);
            eval_report_error();
            failed++;
            if (interrupt) eval_saw_interrupt = true;
            if (!keep_going || (interrupt && !eval_opts.interactive)) break;
        } else {
            dict_clear(log);
        }
        decref(f.retval);
        value_memory_refill();
    }
    eval_cur_chunk = saved;
    decref(log);
    parser_fini(&p);
    chunk_unref(c);
    return failed;
}

int eval_check_source(const char *name, const char *text, size_t len)
{
    Chunk *c = chunk_new(name, text, len);
    Parser p;
    parser_init(&p, c);
    int r, bad = 0;
    Node *stmt;
    while ((r = parser_next(&p, &stmt, NULL)) > 0)
        if (!check_static(stmt, 0, false)) { r = -1; break; }
    if (r < 0) {
        if (err_chunk) chunk_unref(err_chunk);
        err_chunk = chunk_ref(c);
        Chunk *saved = eval_cur_chunk;
        eval_cur_chunk = c;
        eval_report_error();
        eval_cur_chunk = saved;
        bad = 1;
    }
    parser_fini(&p);
    chunk_unref(c);
    return bad;
}

Value *eval_expression(const char *name, const char *text)
{
    Chunk *c = chunk_new(name, text, strlen(text));
    Parser p;
    parser_init(&p, c);
    Node *stmt = NULL;
    Value *v = NULL;
    Chunk *saved = eval_cur_chunk;
    eval_cur_chunk = c;
    int r = parser_next(&p, &stmt, NULL);
    if (r < 0) {
        if (err_chunk) chunk_unref(err_chunk);
        err_chunk = chunk_ref(c);
        eval_report_error();
    } else if (r == 0 || stmt->kind != N_EXPR) {
        exc_set("SyntaxError", "expected an expression");
        eval_report_error();
    } else {
        Frame f = {NULL, NULL};
        v = eval_expr(&f, stmt->a);
        if (!v) eval_report_error();
    }
    eval_cur_chunk = saved;
    parser_fini(&p);
    chunk_unref(c);
    return v;
}
