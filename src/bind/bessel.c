/* src/bind/bessel.c — torch.special's Bessel, modified Bessel and Airy
 * functions, i0/i0e/i1/i1e, and torch.i0 / Tensor.i0 / Tensor.i0_, as rows of
 * the binding table. torch.special's forms name themselves "special_NAME" in
 * argument errors, as 1.13's parser does. */
#include "bind/explain.h"
#include "bind/areas.h"
#include "bind/ops.h"
#include "bind/table.h"
#include "show/explain.h"

/* The handler of every row: op(input) into out=, or in place. */
static Value *bessel_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    tsr_bessel_op op = (tsr_bessel_op)row->code;
    tsr_tensor *x = tensor_of(b->v[0]);
    Value *outv = inplace ? self : b->v[BIND_OUT];
    tsr_tensor *out = outv ? tensor_of(outv) : NULL;
    tsr_tensor *r = inplace ? tsr_bessel_(op, x) : tsr_bessel(op, x, out);
    if (out && !inplace) ops_warn();
    if (explain_active()) {
        tsr_operand in = tsr_operand_tensor(x);
        ops_explain(tsr_bessel_desc(op), fname, NULL, 1, &in, r, out, inplace);
    }
    return ops_finish(r, outv);
}

#define UN "Tensor input, *, Tensor? out=None"
#define UX "Tensor x, *, Tensor? out=None"
#define SP(n, c, s) {.name = n, .code = TSR_BESSEL_##c, .flags = BIND_FN, .sigs = s, .handler = bessel_call, \
                     .module = "torch.special"}

static BindRow rows[] = {
    SP("bessel_j0", J0, UN),
    SP("bessel_j1", J1, UN),
    SP("bessel_y0", Y0, UN),
    SP("bessel_y1", Y1, UN),
    SP("modified_bessel_i0", MODIFIED_I0, UN),
    SP("modified_bessel_i1", MODIFIED_I1, UN),
    SP("modified_bessel_k0", MODIFIED_K0, UN),
    SP("modified_bessel_k1", MODIFIED_K1, UN),
    SP("scaled_modified_bessel_k0", SCALED_K0, UN),
    SP("scaled_modified_bessel_k1", SCALED_K1, UN),
    SP("spherical_bessel_j0", SPHERICAL_J0, UX),
    SP("airy_ai", AIRY_AI, UX),
    SP("i0", I0, UN),
    SP("i0e", I0E, UN),
    SP("i1", I1, UN),
    SP("i1e", I1E, UN),
    {.name = "i0", .code = TSR_BESSEL_I0, .flags = BIND_FN | BIND_METHOD | BIND_INPLACE | BIND_FN_UNDERSCORE, .sigs = UN,
     .handler = bessel_call},
};

void bind_bessel_init(void)
{
    bind_table_register(rows, (int)(sizeof rows / sizeof rows[0]));
}
