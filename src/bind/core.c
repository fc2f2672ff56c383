/* src/bind/core.c — module registry, init registration, argument parsing
 * (Python's argument parsing is src/args.c, sorting src/containers.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind.h"

typedef struct { BindInitFn fn; int order, seq; } InitEntry;
static InitEntry *inits;
static int ninits, capinits;
static Value *modules;   /* dict: dotted name -> module */
static Value *builtins;  /* dict */

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

void bind_init_all(void)
{
    if (!modules) modules = v_dict();
    if (!builtins) builtins = v_dict();
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
