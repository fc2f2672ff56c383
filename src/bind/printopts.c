/* src/bind/printopts.c — torch.set_printoptions: parses PyTorch's arguments
 * (torch/_tensor_str.py's profiles and the sci_mode reset) and hands the
 * values to src/show/, which owns the options the tensor printer reads. */
#include <math.h>
#include <string.h>

#include "bind/bind.h"
#include "bind/areas.h"
#include "show/show.h"

static Value *torch_set_printoptions(Value *self, CallArgs *a, void *data)
{
    (void)self; (void)data;
    const char *fn = "set_printoptions";
    Value *x[6];
    if (bind_args(a, fn, "precision=, threshold=, edgeitems=, linewidth=, profile=, sci_mode=", x))
        return NULL;
    struct { int64_t precision; double threshold; int64_t edgeitems; double linewidth; int sci_mode; } o;
    show_get_printoptions(&o.precision, &o.threshold, &o.edgeitems, &o.linewidth, &o.sci_mode);
    Value *profile = x[4];
    if (profile && !is_none(profile) && is_type(profile, &t_str)) {
        const char *p = profile->u.s.p;
        if (!strcmp(p, "default")) { o.precision = 4; o.threshold = 1000; o.edgeitems = 3; o.linewidth = 80; }
        else if (!strcmp(p, "short")) { o.precision = 2; o.threshold = 1000; o.edgeitems = 2; o.linewidth = 80; }
        else if (!strcmp(p, "full")) { o.precision = 4; o.threshold = INFINITY; o.edgeitems = 3; o.linewidth = 80; }
    }
    if (x[0] && !is_none(x[0]) && bind_int(x[0], fn, "precision", &o.precision)) return NULL;
    if (x[1] && !is_none(x[1]) && value_as_float(x[1], &o.threshold)) return NULL;
    if (x[2] && !is_none(x[2]) && bind_int(x[2], fn, "edgeitems", &o.edgeitems)) return NULL;
    if (x[3] && !is_none(x[3]) && value_as_float(x[3], &o.linewidth)) return NULL;
    o.sci_mode = -1;                      /* any call resets sci_mode unless passed */
    if (x[5] && !is_none(x[5])) {
        int truth = value_truth(x[5]);
        if (truth < 0) return NULL;
        o.sci_mode = truth;
    }
    show_set_printoptions(o.precision, o.threshold, o.edgeitems, o.linewidth, o.sci_mode);
    return v_none();
}

void bind_printopts_init(void)
{
    Value *torch = bind_module("torch");
    module_add_fn(torch, "set_printoptions", torch_set_printoptions);
}
