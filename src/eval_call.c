/* src/eval_call.c — user functions and calls: scopes (Env), def and lambda
 * values, argument binding with Python's messages. A call runs its body in
 * a fresh scope whose parent is the defining one (closures). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval_int.h"

/* ------------------------------------------------------------ environments */

static Env *live_envs;

Env *env_new(Env *parent)
{
    Env *e = value_xcalloc(1, sizeof *e);
    e->refcnt = 1;
    e->vars = v_dict();
    e->parent = parent;
    if (parent) parent->refcnt++;
    e->next = live_envs;
    if (live_envs) live_envs->prev = e;
    live_envs = e;
    return e;
}

void env_unref(Env *e)
{
    while (e && --e->refcnt == 0) {
        Env *p = e->parent;
        if (e->prev) e->prev->next = e->next;
        else live_envs = e->next;
        if (e->next) e->next->prev = e->prev;
        decref(e->vars);
        free(e);
        e = p;
    }
}

void env_break_cycles(void)
{
    size_t n = 0;
    for (Env *e = live_envs; e; e = e->next) n++;
    if (!n) return;
    /* not counted: the session's end (see value_break_cycles) */
    Env **all = malloc(n * sizeof *all);
    if (!all) return;
    size_t i = 0;
    for (Env *e = live_envs; e; e = e->next) {
        e->refcnt++; /* keep every one alive while the others are cleared */
        all[i++] = e;
    }
    for (i = 0; i < n; i++) {
        Value *vars = all[i]->vars;
        all[i]->vars = v_dict();
        decref(vars);
    }
    for (i = 0; i < n; i++) env_unref(all[i]);
    free(all);
}

/* ------------------------------------------------------------- functions */

static void func_destroy(Value *v)
{
    Func *f = v->u.fn;
    for (int i = 0; i < f->nparams; i++) decref(f->defaults[i]);
    free(f->defaults);
    env_unref(f->closure);
    chunk_unref(f->chunk);
    free(f);
}

static Value *func_repr(Value *v)
{
    return v_strf("<function %s at %p>", v->u.fn->def->name, (void *)v);
}

static Value *func_call(Value *v, CallArgs *a);

static Value *func_getattr(Value *v, const char *name)
{
    if (!strcmp(name, "__name__")) return v_str(v->u.fn->def->name);
    return NULL;
}

const VType t_func = {.name = "function", .destroy = func_destroy, .repr = func_repr, .call = func_call,
                      .getattr = func_getattr};

/* ---------------------------------------------------------- calls */

void eval_free_args(CallArgs *a, Value **owned, int nowned)
{
    for (int i = 0; i < nowned; i++) decref(owned[i]);
    free(owned);
    free(a->pos);
    free(a->kw);
    free(a->kwnames);
}

int eval_build_args(Frame *f, NodeList *args, CallArgs *a, Value ***owned, int *nowned)
{
    int cap = args->n + 8, capk = args->n + 8;
    a->pos = value_xmalloc((size_t)cap * sizeof *a->pos);
    a->kw = value_xmalloc((size_t)capk * sizeof *a->kw);
    a->kwnames = value_xmalloc((size_t)capk * sizeof *a->kwnames);
    a->npos = a->nkw = 0;
    int ocap = args->n + 8;
    *owned = value_xmalloc((size_t)ocap * sizeof **owned);
    *nowned = 0;
#define OWN(v) do { if (*nowned == ocap) { ocap *= 2; *owned = value_xrealloc(*owned, (size_t)ocap * sizeof **owned); } (*owned)[(*nowned)++] = (v); } while (0)
#define PUSH_POS(v) do { if (a->npos == cap) { cap *= 2; a->pos = value_xrealloc(a->pos, (size_t)cap * sizeof *a->pos); } a->pos[a->npos++] = (v); } while (0)
#define PUSH_KW(nm, v) do { if (a->nkw == capk) { capk *= 2; a->kw = value_xrealloc(a->kw, (size_t)capk * sizeof *a->kw); a->kwnames = value_xrealloc(a->kwnames, (size_t)capk * sizeof *a->kwnames); } a->kwnames[a->nkw] = (nm); a->kw[a->nkw++] = (v); } while (0)
    for (int i = 0; i < args->n; i++) {
        Node *n = args->items[i];
        if (n->kind == N_KEYWORD) {
            Value *v = eval_expr(f, n->a);
            if (!v) return -1;
            OWN(v);
            for (int k = 0; k < a->nkw; k++)
                if (!strcmp(a->kwnames[k], n->name)) {
                    exc_set("SyntaxError", "keyword argument repeated: %s", n->name);
                    eval_locate(n);
                    return -1;
                }
            PUSH_KW(n->name, v);
        } else if (n->kind == N_STARRED) {
            Value *v = eval_expr(f, n->a);
            if (!v) return -1;
            OWN(v);
            if (n->flag == 2) {
                if (v->type != &t_dict) {
                    exc_set("TypeError", "argument after ** must be a mapping, not %s", type_name(v));
                    eval_locate(n);
                    return -1;
                }
                Value *k, *x;
                for (size_t p = 0; dict_next(v, &p, &k, &x);) {
                    if (k->type != &t_str) { exc_set("TypeError", "keywords must be strings"); eval_locate(n); return -1; }
                    PUSH_KW(k->u.s.p, x);
                }
            } else {
                Value *l = value_to_list(v);
                if (!l) {
                    exc_clear();
                    exc_set("TypeError", "Value after * must be an iterable, not %s", type_name(v));
                    eval_locate(n);
                    return -1;
                }
                OWN(l);
                for (size_t k = 0; k < seq_len(l); k++) PUSH_POS(seq_get(l, k));
            }
        } else {
            Value *v = eval_expr(f, n);
            if (!v) return -1;
            OWN(v);
            PUSH_POS(v);
        }
    }
#undef OWN
#undef PUSH_POS
#undef PUSH_KW
    return 0;
}

static Value *func_call(Value *v, CallArgs *a)
{
    Func *fn = v->u.fn;
    Node *def = fn->def;
    NodeList *params = def->list;
    const char *name = def->name;
    Env *env = env_new(fn->closure);
    Value **bound = value_xcalloc((size_t)params->n + 1, sizeof *bound);
    int nplain = 0, star = -1, dstar = -1;
    for (int i = 0; i < params->n; i++) {
        if (params->items[i]->flag == 1) star = i;
        else if (params->items[i]->flag == 2) dstar = i;
        else if (star < 0) nplain++;
    }
    Value *result = NULL;
    /* positional */
    int np = a->npos;
    if (np > nplain && star < 0) {
        int nreq = 0;
        for (int i = 0; i < nplain; i++)
            if (!fn->defaults[i]) nreq++;
        if (nreq == nplain)
            exc_set("TypeError", "%s() takes %d positional argument%s but %d %s given", name, nplain,
                    nplain == 1 ? "" : "s", np, np == 1 ? "was" : "were");
        else
            exc_set("TypeError", "%s() takes from %d to %d positional arguments but %d %s given", name, nreq,
                    nplain, np, np == 1 ? "was" : "were");
        goto done;
    }
    for (int i = 0; i < np && i < nplain; i++) bound[i] = incref(a->pos[i]);
    if (star >= 0) {
        int extra = np > nplain ? np - nplain : 0;
        Value *t = v_tuple((size_t)extra);
        for (int i = 0; i < extra; i++) t->u.seq.items[i] = incref(a->pos[nplain + i]);
        bound[star] = t;
    }
    Value *kwextra = dstar >= 0 ? v_dict() : NULL;
    if (kwextra) bound[dstar] = kwextra;
    for (int k = 0; k < a->nkw; k++) {
        int idx = -1;
        for (int i = 0; i < params->n; i++)
            if (params->items[i]->flag == 0 && !strcmp(params->items[i]->name, a->kwnames[k])) idx = i;
        if (idx < 0) {
            if (kwextra) { dict_set_str(kwextra, a->kwnames[k], a->kw[k]); continue; }
            exc_set("TypeError", "%s() got an unexpected keyword argument '%s'", name, a->kwnames[k]);
            goto done;
        }
        if (bound[idx]) {
            exc_set("TypeError", "%s() got multiple values for argument '%s'", name, a->kwnames[k]);
            goto done;
        }
        bound[idx] = incref(a->kw[k]);
    }
    /* defaults and missing */
    {
        int nmissing = 0;
        char missing[256] = "";
        int kwonly_missing = 0;
        for (int i = 0; i < params->n; i++) {
            if (bound[i]) continue;
            if (fn->defaults[i]) { bound[i] = incref(fn->defaults[i]); continue; }
            if (i > star && star >= 0) kwonly_missing++;
            nmissing++;
        }
        if (nmissing) {
            int seen = 0;
            for (int i = 0; i < params->n; i++) {
                if (bound[i]) continue;
                size_t l = strlen(missing);
                const char *sep = seen == 0 ? "" : (seen == nmissing - 1) ? (nmissing == 2 ? " and " : ", and ") : ", ";
                snprintf(missing + l, sizeof missing - l, "%s'%s'", sep, params->items[i]->name);
                seen++;
            }
            exc_set("TypeError", "%s() missing %d required %s argument%s: %s", name, nmissing,
                    kwonly_missing == nmissing ? "keyword-only" : "positional", nmissing == 1 ? "" : "s", missing);
            goto done;
        }
    }
    for (int i = 0; i < params->n; i++) dict_set_str(env->vars, params->items[i]->name, bound[i]);
    {
        Frame fr = {env, NULL};
        Chunk *saved = eval_cur_chunk;
        eval_cur_chunk = fn->chunk;
        if (def->kind == N_LAMBDA) {
            result = eval_expr(&fr, def->b);
        } else {
            ExecStatus st = eval_exec(&fr, def->b, false);
            if (st == EX_ERR) result = NULL;
            else result = fr.retval ? fr.retval : v_none();
        }
        eval_cur_chunk = saved;
    }
done:
    for (int i = 0; i < params->n; i++) decref(bound[i]);
    free(bound);
    env_unref(env);
    return result;
}

Value *eval_make_function(Frame *f, Node *def)
{
    NodeList *params = def->list;
    Func *fn = value_xcalloc(1, sizeof *fn);
    fn->def = def;
    fn->chunk = chunk_ref(eval_cur_chunk);
    fn->nparams = params->n;
    fn->defaults = value_xcalloc((size_t)params->n + 1, sizeof *fn->defaults);
    for (int i = 0; i < params->n; i++) {
        if (!params->items[i]->a) continue;
        fn->defaults[i] = eval_expr(f, params->items[i]->a);
        if (!fn->defaults[i]) {
            for (int j = 0; j < i; j++) decref(fn->defaults[j]);
            free(fn->defaults);
            chunk_unref(fn->chunk);
            free(fn);
            return NULL;
        }
    }
    fn->closure = f->env;
    if (f->env) f->env->refcnt++;
    Value *v = value_alloc(&t_func);
    v->u.fn = fn;
    return v;
}

