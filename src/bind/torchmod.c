/* src/bind/torchmod.c — the `torch` module itself: created first so that the
 * name is bound when a session starts; tensor functions register into it. */
#include "bind/bind.h"
#include "bind/areas.h"

void bind_torch_init(void)
{
    Value *t = bind_module("torch");
    module_add(t, "__version__", v_str("1.13.0a0"));
}
