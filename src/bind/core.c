/* src/bind/core.c — module registry, init registration, argument parsing
 * (Python's argument parsing is src/args.c, sorting src/containers.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind.h"
#include "bind/areas.h"
#include "bind/devguard.h"

static Value *modules;   /* dict: dotted name -> module */
static Value *builtins;  /* dict */

void bind_init_all(void)
{
    if (!modules) modules = v_dict();
    if (!builtins) builtins = v_dict();
    bind_areas_init();
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
    Value *f = v_builtin(name, fn, NULL, (void *)&bind_device_safe_tag);
    dict_set_str(bind_builtins(), name, f);
    decref(f);
}
