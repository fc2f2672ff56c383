/* runtime/ops/compare.h — comparisons and predicates with bool results
 * (SEMANTICS.md §1.4 comparison_op): eq ne lt le gt ge, logical_and/or/xor,
 * logical_not, isnan isinf isfinite signbit, isclose, allclose, equal.
 * Values compare in the common dtype; the result is bool, and an out= of any
 * dtype receives it cast. NEW reference or NULL. */
#ifndef TSR_OPS_COMPARE_H
#define TSR_OPS_COMPARE_H
#include "../iter.h"
#include "../op.h"
#include "../promote.h"

/* ORDER CMPOP */
typedef enum {
    TSR_CMP_EQ, TSR_CMP_NE, TSR_CMP_LT, TSR_CMP_LE, TSR_CMP_GT, TSR_CMP_GE,
    TSR_CMP_LOGICAL_AND, TSR_CMP_LOGICAL_OR, TSR_CMP_LOGICAL_XOR,
    TSR_CMP_COUNT
} tsr_cmpop;
const char *tsr_cmpop_name(tsr_cmpop op);      /* "eq", ..., "logical_xor" */
const tsr_op *tsr_cmpop_desc(tsr_cmpop op);    /* its descriptor; NULL if unknown */

tsr_tensor *tsr_compare(tsr_cmpop op, const tsr_operand *a, const tsr_operand *b, tsr_tensor *out);
/* a.eq_(b) etc.: the bool result cast into self's dtype. */
tsr_tensor *tsr_compare_(tsr_cmpop op, tsr_tensor *self, const tsr_operand *b);

/* ORDER PRED */
typedef enum { TSR_PRED_ISNAN, TSR_PRED_ISINF, TSR_PRED_ISFINITE, TSR_PRED_SIGNBIT, TSR_PRED_LOGICAL_NOT,
               TSR_PRED_COUNT } tsr_predop;
const char *tsr_predop_name(tsr_predop op);
const tsr_op *tsr_predop_desc(tsr_predop op);
tsr_tensor *tsr_predicate(tsr_predop op, const tsr_tensor *x, tsr_tensor *out);


#endif
