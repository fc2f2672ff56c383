/* src/bind/session.c — the built-ins that end a session: exit and quit, as
 * Python's site module makes them (Lib/_sitebuiltins.py Quitter): the name
 * alone prints how to leave, calling it raises SystemExit. */
#include <stdio.h>

#include "bind/areas.h"
#include "bind/bind.h"
#include "bind/sysmod.h"


static Value *quitter_repr(Value *v)
{
    return v_strf("Use %s() or Ctrl-D (i.e. EOF) to exit", (const char *)v->u.ext.ptr);
}

/* Python: SystemExit(code); None is status 0, an int its own status, any
 * other value is printed on standard error and gives status 1. */
/* Python: raises SystemExit(code), as sys.exit does; the evaluator ends the
 * run with its status (None 0, an int itself, anything else printed, 1). */
static Value *quitter_call(Value *v, CallArgs *a)
{
    (void)v;
    if (a->nkw) return exc_set("TypeError", "Quitter.__call__() got an unexpected keyword argument '%s'", a->kwnames[0]);
    if (a->npos > 1)
        return exc_set("TypeError", "Quitter.__call__() takes from 1 to 2 positional arguments but %d were given", a->npos + 1);
    return bind_sys_raise_exit(a->npos, a->pos);
}

static const VType t_quitter = {.name = "Quitter", .module = "_sitebuiltins", .repr = quitter_repr,
                                .call = quitter_call};

void bind_session_init(void)
{
    static const char *const names[] = {"exit", "quit"};
    for (int i = 0; i < 2; i++) {
        Value *q = value_alloc(&t_quitter);
        q->u.ext.ptr = (void *)names[i];
        dict_set_str(bind_builtins(), names[i], q);
        decref(q);
    }
}
