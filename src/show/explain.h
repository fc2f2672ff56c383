/* src/show/explain.h — one step of the :explain trace (the op, its
 * operands, how result_type decided, the broadcast shape, the result) and
 * its printer; the promotion tables. The trace that records steps is
 * src/bind/explain.h. */
#ifndef TSR_SHOW_EXPLAIN_H
#define TSR_SHOW_EXPLAIN_H

#include <stdbool.h>

#include "promote.h"
#include "tsr.h"

#define EXPLAIN_MAX_OPERANDS 4

typedef struct {
    const char *op;                 /* "add", "mul", "sqrt", "eq", "add_" ... (PyTorch's name) */
    const char *symbol;             /* "+", "*", NULL for a named function */
    int noperands;
    tsr_operand operands[EXPLAIN_MAX_OPERANDS]; /* tensors are retained by the trace */
    const char *operand_text[EXPLAIN_MAX_OPERANDS]; /* source text of each operand, or NULL */
    tsr_promotion promo;            /* result_type's record (computation dtype) */
    const char *dtype_rule;         /* the op-specific rule that turned the common dtype
                                       into the result dtype, or NULL: "true division of
                                       integers gives the default float dtype", "comparisons
                                       return bool", ... */
    int ndim;                       /* broadcast shape */
    int64_t shape[TSR_MAX_DIMS];
    tsr_dtype result;               /* the result's dtype */
    tsr_device device;
    bool inplace;                   /* x.add_(y), x += y */
    bool has_out;                   /* out= given */
    tsr_dtype out_dtype;            /* the in-place/out= tensor's dtype */
    tsr_dtype compute;              /* the dtype the kernel writes (runtime/op.h tsr_op_step) */
    tsr_out_check out_check;        /* how the out= tensor is checked */
    bool out_castable;              /* compute may be written into out_dtype */
    const char *refused;            /* why an in-place/out= cast was refused, or NULL */
} ExplainStep;

/* Prints step `number` (1-based; a blank line before all but the first)
 * within 80 columns; color: a bold header. */
void show_explain_step(const ExplainStep *s, int number, bool color);
/* The torch.promote_types table over every dtype pair, or (cast) the
 * torch.can_cast matrix, rows and columns by category then size. */
void show_promotion_table(bool cast);

#endif
