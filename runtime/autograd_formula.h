/* runtime/autograd_formula.h — inside the autograd: what every backward
 * formula (autograd_fn.c, ops/grad_pointwise.c) is written with: the
 * temporaries record F and its helpers. */
#ifndef TSR_AUTOGRAD_FORMULA_H
#define TSR_AUTOGRAD_FORMULA_H
#include <stdbool.h>
#include "autograd_node.h"
#include "error.h"
#include "ops/binary.h"

/* A formula's temporaries: every helper result is kept here and released
 * at the end; a NULL argument (an earlier failure) passes through. */
typedef struct {
    tsr_tensor *t[48];
    int n;
    bool fail;
} F;

static inline tsr_tensor *keep(F *c, tsr_tensor *t)
{
    if (!t) {
        c->fail = true;
        return NULL;
    }
    if (c->n == 48) {
        tsr_tensor_release(t);
        tsr_error_set(TSR_ERR_RUNTIME, "autograd formula: too many temporaries");
        c->fail = true;
        return NULL;
    }
    return c->t[c->n++] = t;
}

static inline int finish(F *c, tsr_node *n, tsr_tensor **gin)
{
    for (int i = 0; i < c->n; i++) tsr_tensor_release(c->t[i]);
    if (c->fail) {
        for (int i = 0; i < n->nnext; i++) {
            tsr_tensor_release(gin[i]);
            gin[i] = NULL;
        }
        return -1;
    }
    return 0;
}

#define NEED(i) (n->next[(i)].node != NULL)
/* gin[i] = t (a kept temporary) when input i needs a gradient */
static inline void give(F *c, tsr_tensor **gin, int i, tsr_tensor *t)
{
    if (!c->fail && t) gin[i] = tsr_tensor_retain(t);
}
#define SAVED(slot) keep_saved(c, n, (slot))
static inline tsr_tensor *keep_saved(F *c, tsr_node *n, int slot)
{
    if (c->fail) return NULL;
    tsr_tensor *t = tsr__ag_saved(n, slot);
    if (!t) c->fail = true;
    return t;
}

static inline tsr_tensor *bin(F *c, tsr_binop op, const tsr_tensor *a, const tsr_tensor *b)
{
    if (c->fail || !a || !b) return NULL;
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    return keep(c, tsr_binary(op, &x, &y, NULL, NULL));
}
static inline tsr_tensor *bins(F *c, tsr_binop op, const tsr_tensor *a, double s)
{
    if (c->fail || !a) return NULL;
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_scalar(tsr_scalar_float(s));
    return keep(c, tsr_binary(op, &x, &y, NULL, NULL));
}

#endif
