/* src/bind/core.c — module registry, init registration, argument parsing
 * with Python's messages, and the stable sort used by sorted()/list.sort. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind.h"

typedef struct { BindInitFn fn; int order, seq; } InitEntry;
static InitEntry *inits;
static int ninits, capinits;
static Value *modules;   /* dict: dotted name -> module */
static Value *builtins;  /* dict */
static struct { const VType *t; BuiltinFn ctor; } ctors[64];
static int nctors;

void bind_register_init(BindInitFn fn, int order)
{
    if (ninits == capinits) {
        capinits = capinits * 2 + 16;
        inits = realloc(inits, (size_t)capinits * sizeof *inits);
        if (!inits) abort();
    }
    inits[ninits] = (InitEntry){fn, order, ninits};
    ninits++;
}

static int by_order(const void *a, const void *b)
{
    const InitEntry *x = a, *y = b;
    return x->order != y->order ? x->order - y->order : x->seq - y->seq;
}

static Value *type_ctor_dispatch(Value *type, CallArgs *a)
{
    for (int i = 0; i < nctors; i++)
        if (ctors[i].t == type->u.typeobj) return ctors[i].ctor(NULL, a, NULL);
    return exc_set("TypeError", "cannot create '%s' instances", type->u.typeobj->name);
}

void bind_type_ctor(const VType *t, BuiltinFn ctor)
{
    if (nctors < (int)(sizeof ctors / sizeof *ctors)) ctors[nctors++] = (typeof(ctors[0])){t, ctor};
}

void bind_init_all(void)
{
    if (!modules) modules = v_dict();
    if (!builtins) builtins = v_dict();
    type_call_hook = type_ctor_dispatch;
    qsort(inits, (size_t)ninits, sizeof *inits, by_order);
    for (int i = 0; i < ninits; i++) inits[i].fn();
}

void bind_fini(void)
{
    /* modules refer to each other (torch.nn in torch); clear their
     * attribute dicts first so the cycle does not keep them alive */
    if (modules) {
        Value *k, *m;
        for (size_t i = 0; dict_next(modules, &i, &k, &m);) {
            Value *attrs = m->u.mod->attrs;
            m->u.mod->attrs = v_dict();
            decref(attrs);
        }
    }
    CLEAR(modules);
    CLEAR(builtins);
    free(inits);
    inits = NULL;
    ninits = capinits = 0;
}

Value *bind_find_module(const char *dotted)
{
    if (!modules) return NULL;
    return dict_get_str(modules, dotted);
}

Value *bind_module(const char *dotted)
{
    if (!modules) modules = v_dict();
    Value *m = dict_get_str(modules, dotted);
    if (m) return m;
    m = v_module(dotted);
    dict_set_str(modules, dotted, m);
    decref(m);
    const char *dot = strrchr(dotted, '.');
    if (dot) {
        char parent[256];
        snprintf(parent, sizeof parent, "%.*s", (int)(dot - dotted), dotted);
        Value *p = bind_module(parent);
        dict_set_str(p->u.mod->attrs, dot + 1, m);
    }
    return m;
}

Value *bind_builtins(void)
{
    if (!builtins) builtins = v_dict();
    return builtins;
}

void bind_builtin_fn(const char *name, BuiltinFn fn)
{
    Value *f = v_builtin(name, fn, NULL, NULL);
    dict_set_str(bind_builtins(), name, f);
    decref(f);
}

/* ------------------------------------------------------------ arguments */

typedef struct {
    char name[40];
    bool optional, kwonly, posonly, star, dstar;
} Param;

static int parse_spec(const char *spec, Param *ps, int max)
{
    int n = 0;
    bool kwonly = false;
    const char *p = spec;
    while (*p && n < max) {
        while (*p == ' ' || *p == ',') p++;
        if (!*p) break;
        const char *e = p;
        while (*e && *e != ',') e++;
        const char *te = e;
        while (te > p && te[-1] == ' ') te--;
        size_t len = (size_t)(te - p);
        if (len == 1 && *p == '*') { kwonly = true; p = e; continue; }
        if (len == 1 && *p == '/') {
            for (int i = 0; i < n; i++) ps[i].posonly = true;
            p = e;
            continue;
        }
        Param *q = &ps[n++];
        memset(q, 0, sizeof *q);
        if (len > 2 && p[0] == '*' && p[1] == '*') { q->dstar = true; p += 2; len -= 2; kwonly = true; }
        else if (*p == '*') { q->star = true; p++; len--; kwonly = true; }
        if (len && p[len - 1] == '=') { q->optional = true; len--; }
        snprintf(q->name, sizeof q->name, "%.*s", (int)len, p);
        q->kwonly = kwonly && !q->star;
        p = e;
    }
    return n;
}

int bind_args(CallArgs *a, const char *fname, const char *spec, Value **out)
{
    Param ps[32];
    int n = parse_spec(spec, ps, 32);
    int npos_params = 0, star = -1;
    bool any_kw = false;
    for (int i = 0; i < n; i++) {
        out[i] = NULL;
        if (ps[i].star) star = i;
        else if (ps[i].dstar) any_kw = true;
        else if (!ps[i].kwonly) npos_params++;
    }
    if (a->npos > npos_params && star < 0) {
        return exc_seti("TypeError", "%s() takes %s %d positional argument%s but %d %s given", fname,
                        npos_params ? "from 0 to" : "", npos_params, npos_params == 1 ? "" : "s", a->npos,
                        a->npos == 1 ? "was" : "were");
    }
    int k = 0;
    for (int i = 0; i < n && k < a->npos; i++) {
        if (ps[i].kwonly || ps[i].star) continue;
        out[i] = a->pos[k++];
    }
    if (star >= 0) {
        int extra = a->npos - k;
        Value *t = v_tuple((size_t)(extra > 0 ? extra : 0));
        for (int j = 0; j < extra; j++) t->u.seq.items[j] = incref(a->pos[k + j]);
        out[star] = t;
    }
    for (int j = 0; j < a->nkw; j++) {
        int idx = -1;
        for (int i = 0; i < n; i++)
            if (!ps[i].star && !ps[i].dstar && !ps[i].posonly && !strcmp(ps[i].name, a->kwnames[j])) idx = i;
        if (idx < 0 && any_kw) continue; /* "**name": other keywords are accepted and ignored */
        if (idx < 0) {
            if (star >= 0) decref(out[star]);
            return exc_seti("TypeError", "%s() got an unexpected keyword argument '%s'", fname, a->kwnames[j]);
        }
        if (out[idx]) {
            if (star >= 0) decref(out[star]);
            return exc_seti("TypeError", "%s() got multiple values for argument '%s'", fname, a->kwnames[j]);
        }
        out[idx] = a->kw[j];
    }
    for (int i = 0; i < n; i++) {
        if (out[i] || ps[i].optional || ps[i].star || ps[i].dstar) continue;
        if (star >= 0) decref(out[star]);
        if (ps[i].kwonly)
            return exc_seti("TypeError", "%s() missing required keyword-only argument: '%s'", fname, ps[i].name);
        return exc_seti("TypeError", "%s() missing required argument '%s' (pos %d)", fname, ps[i].name, i + 1);
    }
    return 0;
}

int bind_int(Value *v, const char *fname, const char *arg, int64_t *out)
{
    if (is_int_like(v)) { *out = v->u.i; return 0; }
    return exc_seti("TypeError", "%s(): argument '%s' must be int, not %s", fname, arg, type_name(v));
}

int bind_float(Value *v, const char *fname, const char *arg, double *out)
{
    if (is_int_like(v)) { *out = (double)v->u.i; return 0; }
    if (v->type == &t_float) { *out = v->u.f; return 0; }
    return exc_seti("TypeError", "%s(): argument '%s' must be float, not %s", fname, arg, type_name(v));
}

int bind_bool(Value *v, const char *fname, const char *arg, bool *out)
{
    if (v->type == &t_bool) { *out = v->u.i != 0; return 0; }
    return exc_seti("TypeError", "%s(): argument '%s' must be bool, not %s", fname, arg, type_name(v));
}

/* ------------------------------------------------------------ sorting */

static int merge_sort(Value **items, Value **keys, Value **tmpi, Value **tmpk, size_t n, bool reverse)
{
    if (n < 2) return 0;
    size_t h = n / 2;
    if (merge_sort(items, keys, tmpi, tmpk, h, reverse) < 0) return -1;
    if (merge_sort(items + h, keys + h, tmpi, tmpk, n - h, reverse) < 0) return -1;
    size_t i = 0, j = h, o = 0;
    while (i < h && j < n) {
        /* stable: take from the right only when strictly before */
        int lt = reverse ? value_lt(keys[i], keys[j]) : value_lt(keys[j], keys[i]);
        if (lt < 0) return -1;
        if (lt) { tmpi[o] = items[j]; tmpk[o++] = keys[j++]; }
        else { tmpi[o] = items[i]; tmpk[o++] = keys[i++]; }
    }
    while (i < h) { tmpi[o] = items[i]; tmpk[o++] = keys[i++]; }
    while (j < n) { tmpi[o] = items[j]; tmpk[o++] = keys[j++]; }
    memcpy(items, tmpi, n * sizeof *items);
    memcpy(keys, tmpk, n * sizeof *keys);
    return 0;
}

int sort_values(Value **items, size_t n, Value *key, bool reverse)
{
    Value **keys = calloc(n + 1, sizeof *keys), **ti = malloc((n + 1) * sizeof *ti), **tk = malloc((n + 1) * sizeof *tk);
    Value **copy = malloc((n + 1) * sizeof *copy);
    if (!keys || !ti || !tk || !copy) {
        free(keys); free(ti); free(tk); free(copy);
        return exc_seti("MemoryError", "%s", "");
    }
    int r = 0;
    size_t made = 0;
    for (; made < n; made++) {
        keys[made] = key ? value_call0(key, 1, &items[made]) : incref(items[made]);
        if (!keys[made]) { r = -1; break; }
    }
    if (r == 0) {
        memcpy(copy, items, n * sizeof *copy);
        r = merge_sort(copy, keys, ti, tk, n, reverse);
        if (r == 0) memcpy(items, copy, n * sizeof *items);
    }
    for (size_t i = 0; i < made; i++) decref(keys[i]);
    free(keys);
    free(ti);
    free(tk);
    free(copy);
    return r;
}
