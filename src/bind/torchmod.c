/* src/bind/torchmod.c — the `torch` module itself: created first so that the
 * name is bound when a session starts; tensor functions register into it. */
#include "bind/bind.h"

BIND_INIT_ORDER(torch_module_init, 0)
{
    Value *t = bind_module("torch");
    module_add(t, "__version__", v_str("1.13.0a0"));
}
