/* runtime/ops/nn_loss.c — soft_margin_loss forward and backward, each the
 * sequence of in-place ops 1.13's Loss.cpp runs (so the dtype rules, the
 * errors and the rounding of every step are those ops'). */
#include "nn_loss.h"
#include "binary.h"
#include "factory.h"
#include "reduce.h"
#include "unary.h"
#include "../error.h"
#include "../internal.h"

static tsr_tensor *reduce_loss(tsr_tensor *l, tsr_reduction red)
{
    if (!l || red == TSR_REDUCTION_NONE) return l;
    tsr_dims all = {.n = -1};
    tsr_tensor *r = red == TSR_REDUCTION_MEAN ? tsr_mean(l, &all, false, TSR_DTYPE_UNDEFINED, NULL)
                                              : tsr_sum(l, &all, false, TSR_DTYPE_UNDEFINED, NULL);
    tsr_tensor_release(l);
    return r;
}

/* self.op_(t) in place; -1 on failure */
static int inplace_t(tsr_binop op, tsr_tensor *self, const tsr_tensor *t)
{
    tsr_operand b = tsr_operand_tensor(t);
    tsr_tensor *r = tsr_binary_(op, self, &b, NULL);
    if (!r) return -1;
    tsr_tensor_release(r);
    return 0;
}

static int inplace_s(tsr_binop op, tsr_tensor *self, double s)
{
    tsr_operand b = tsr_operand_scalar(tsr_scalar_float(s));
    tsr_tensor *r = tsr_binary_(op, self, &b, NULL);
    if (!r) return -1;
    tsr_tensor_release(r);
    return 0;
}

static int inplace_u(tsr_unop op, tsr_tensor *self)
{
    tsr_tensor *r = tsr_unary_(op, self, NULL);
    if (!r) return -1;
    tsr_tensor_release(r);
    return 0;
}

tsr_tensor *tsr_nn_soft_margin_loss(const tsr_tensor *x, const tsr_tensor *t, tsr_reduction red)
{
    /* at::neg_out(output, input).mul_(target).exp_().add_(1.).log_() */
    tsr_tensor *o = tsr_unary(TSR_UNOP_NEG, x, NULL, NULL);
    if (!o || inplace_t(TSR_BINOP_MUL, o, t) < 0 || inplace_u(TSR_UNOP_EXP, o) < 0 ||
        inplace_s(TSR_BINOP_ADD, o, 1.0) < 0 || inplace_u(TSR_UNOP_LOG, o) < 0) {
        tsr_tensor_release(o);
        return NULL;
    }
    return reduce_loss(o, red);
}

tsr_tensor *tsr_nn_soft_margin_loss_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *t,
                                             tsr_reduction red)
{
    double norm = red == TSR_REDUCTION_MEAN ? 1. / (double)tsr_tensor_numel(x) : 1.;
    /* z = at::exp(-target * input) */
    tsr_tensor *nt = tsr_unary(TSR_UNOP_NEG, t, NULL, NULL), *z = NULL, *gi = NULL;
    if (!nt) return NULL;
    tsr_operand a = tsr_operand_tensor(nt), b = tsr_operand_tensor(x);
    tsr_tensor *p = tsr_binary(TSR_BINOP_MUL, &a, &b, NULL, NULL);
    tsr_tensor_release(nt);
    if (!p) return NULL;
    z = tsr_unary(TSR_UNOP_EXP, p, NULL, NULL);
    tsr_tensor_release(p);
    if (!z) return NULL;
    /* at::mul_out(grad_input, target, z).mul_(-norm); z.add_(1); grad_input.div_(z).mul_(grad_output) */
    int64_t zero = 0;
    gi = tsr_empty(1, &zero, x->dtype, x->device, TSR_MF_CONTIGUOUS);
    tsr_operand ta = tsr_operand_tensor(t), zb = tsr_operand_tensor(z);
    tsr_tensor *r = gi ? tsr_binary(TSR_BINOP_MUL, &ta, &zb, gi, NULL) : NULL;
    tsr_tensor_release(r);
    if (!r || inplace_s(TSR_BINOP_MUL, gi, -norm) < 0 || inplace_s(TSR_BINOP_ADD, z, 1.0) < 0 ||
        inplace_t(TSR_BINOP_DIV, gi, z) < 0 || inplace_t(TSR_BINOP_MUL, gi, g) < 0) {
        tsr_tensor_release(gi);
        gi = NULL;
    }
    tsr_tensor_release(z);
    return gi;
}
