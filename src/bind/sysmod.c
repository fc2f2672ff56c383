/* src/bind/sysmod.c — the sys module: argv and exit (Python's sysmodule.c).
 * sys.exit raises SystemExit; the evaluator ends the run on it (eval.c). */
#include "bind/areas.h"
#include "bind/bind.h"
#include "bind/sysmod.h"

Value *bind_sys_raise_exit(int n, Value **args)
{
    Value *cls = dict_get_str(bind_builtins(), "SystemExit");
    CallArgs ca = {args, n, NULL, NULL, 0};
    Value *e = value_call(cls, &ca);
    if (!e) return NULL;
    Value *s = value_str(e);
    if (s) {
        exc_set_object(e, "SystemExit", s->u.s.p);
        decref(s);
    }
    decref(e);
    return NULL;
}

static Value *sys_exit(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (a->nkw) return exc_set("TypeError", "exit() takes no keyword arguments");
    if (a->npos > 1) return exc_set("TypeError", "exit expected at most 1 argument, got %d", a->npos);
    return bind_sys_raise_exit(a->npos, a->pos);
}

void bind_sys_set_argv(int n, const char *const *v)
{
    Value *l = v_list(0);
    for (int i = 0; i < n; i++) list_append_steal(l, v_str(v[i]));
    module_add(bind_module("sys"), "argv", l);
}

void bind_sys_init(void)
{
    Value *m = bind_module("sys");
    module_add_fn(m, "exit", sys_exit);
    const char *none[] = {""};
    bind_sys_set_argv(1, none);
}
