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
    const tsr_tensor *out_t;        /* the out= / in-place tensor (retained), for its names */
} ExplainStep;

/* A name-inference step of an op that is not elementwise (reductions, the
 * matmul family, views and permutes, the named-tensor API) or that refuses
 * named inputs: the operands' names, the rule family in the words of the
 * coverage list, what it did in this call, the resulting names or the
 * error. Everything is borrowed: the step is printed when recorded. */
typedef struct {
    const char *op;                 /* the name as called: "sum", "matmul", "align_to" */
    const char *family;             /* the coverage list's words: "Removes dimensions" */
    const char *rule;               /* what the family does, for someone new to names */
    const char *detail;             /* what it did in this call, or NULL */
    int noperands;
    const tsr_tensor *operands[EXPLAIN_MAX_OPERANDS];
    const char *label[EXPLAIN_MAX_OPERANDS];   /* "self", "other", "mat1", or NULL */
    int nresult;                    /* the result's names (0: a 0-dim result); -1: none */
    tsr_name result[TSR_MAX_DIMS];
    const tsr_tensor *written;      /* the out= tensor or in-place self, or NULL */
    bool inplace;                   /* written is self */
    const char *error;              /* the op's error, or NULL */
    bool refused;                   /* the error is 1.13's refusal of named inputs */
    const bool *removed;            /* dims of operand a that a removing rule removed (the
                                       result row keeps the others' columns), or NULL */
} ExplainNames;

/* Prints step `number` (1-based; a blank line before all but the first)
 * within 80 columns; color: a bold header. */
void show_explain_step(const ExplainStep *s, int number, bool color);
/* Prints a name-inference step the same way. */
void show_explain_names(const ExplainNames *s, int number, bool color);
/* The torch.promote_types table over every dtype pair, or (cast) the
 * torch.can_cast matrix, rows and columns by category then size. */
void show_promotion_table(bool cast);

#endif
