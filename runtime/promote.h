/* runtime/promote.h — type promotion (SEMANTICS.md §1.2–1.4): c10's
 * promote_types table, result_type over tensors / zero-dim tensors / wrapped
 * Python scalars (TypeProperties.cpp), can_cast, and an explanation record
 * that says which operand decided a result and by which rule (for :explain). */
#ifndef TSR_PROMOTE_H
#define TSR_PROMOTE_H
#include <stdbool.h>
#include "dtype.h"
#include "scalar.h"
#include "tensor.h"

/* An operand of an elementwise op: a tensor (borrowed) or a Python number,
 * which PyTorch wraps into a zero-dim "wrapped number" tensor of dtype bool /
 * int64 / float64 / complex128. */
typedef struct {
    const tsr_tensor *t;       /* NULL for a scalar operand */
    tsr_scalar s;              /* the value when t == NULL */
} tsr_operand;

static inline tsr_operand tsr_operand_tensor(const tsr_tensor *t) { tsr_operand o = {0}; o.t = t; return o; }
static inline tsr_operand tsr_operand_scalar(tsr_scalar s) { tsr_operand o = {0}; o.s = s; return o; }

/* The three priority tiers of result_type, highest first. ORDER TIER */
typedef enum { TSR_TIER_DIM, TSR_TIER_ZERO_DIM, TSR_TIER_WRAPPED, TSR_TIER_COUNT } tsr_tier;
/* "dimensioned tensor", "zero-dim tensor", "Python scalar". */
const char *tsr_tier_name(tsr_tier t);
/* "bool", "integral", "floating", "complex". */
const char *tsr_category_name(tsr_category c);
tsr_category tsr_dtype_category(tsr_dtype d);

/* The dtype a wrapped scalar has: bool, int64, float64, complex128. */
tsr_dtype tsr_scalar_dtype(tsr_scalar s);
/* The tier of an operand and its dtype as result_type sees it (a float
 * scalar counts as the default dtype, a complex one as the default complex). */
tsr_tier tsr_operand_tier(const tsr_operand *o);
tsr_dtype tsr_operand_dtype(const tsr_operand *o);          /* its own dtype */
tsr_dtype tsr_operand_promo_dtype(const tsr_operand *o);    /* as result_type counts it */

/* torch.promote_types(a, b): the c10 table. TSR_DTYPE_UNDEFINED (no error
 * recorded) when either is undefined; use tsr_promote_types_checked for the
 * user-facing function. */
tsr_dtype tsr_promote_types(tsr_dtype a, tsr_dtype b);
/* Same; an undefined result records "Promotion from <a> and <b> is unsupported." */
tsr_dtype tsr_promote_types_checked(tsr_dtype a, tsr_dtype b);
/* c10::canCast. */
bool tsr_can_cast(tsr_dtype from, tsr_dtype to);
/* The n x n tables :table shows: promoted[i*n+j] = promote_types(order[i],
 * order[j]) and castable[i*n+j] = can_cast(order[i], order[j]). */
void tsr_promotion_table(int n, const tsr_dtype *order, tsr_dtype *promoted, bool *castable);
/* The default complex dtype: complex128 when the default dtype is float64,
 * else complex64. */
tsr_dtype tsr_default_complex_dtype(void);

/* How result_type reached its answer. ORDER RULE */
typedef enum {
    TSR_RULE_NONE,            /* no operands */
    TSR_RULE_SAME_TIER,       /* only one tier had operands: promote_types within it */
    TSR_RULE_HIGHER_TIER,     /* a lower tier's category was not higher: the higher tier's dtype stands */
    TSR_RULE_LOWER_CATEGORY,  /* a lower tier has a higher category and contributes its dtype */
    TSR_RULE_TO_COMPLEX,      /* complex lower tier over a floating higher tier: complex of that float */
    TSR_RULE_BOOL_PROMOTED,   /* bool higher tier promoted with the lower tier's dtype */
    TSR_RULE_COUNT
} tsr_promo_rule;
/* One-line description of a rule. */
const char *tsr_promo_rule_text(tsr_promo_rule r);

/* The explanation record of one result_type call. */
typedef struct {
    tsr_dtype result;
    tsr_promo_rule rule;
    tsr_tier deciding_tier;            /* tier whose dtype (or category) won */
    int deciding_operand;              /* index of the first operand of that tier whose
                                          counted dtype equals the tier's dtype, else the
                                          tier's first operand; -1 when there are no operands */
    tsr_dtype tier_dtype[TSR_TIER_COUNT];      /* promote_types within each tier; UNDEFINED if empty */
    int tier_count[TSR_TIER_COUNT];            /* operands in each tier */
    bool scalar_defaulted;             /* a float/complex scalar took the default (complex) dtype */
    bool complex32;                    /* the result is complex32 (float16 with a complex operand) */
} tsr_promotion;

/* torch.result_type over n operands (§1.3). Writes the explanation into *ex
 * when ex != NULL. Returns the dtype; TSR_DTYPE_UNDEFINED when n == 0 (no
 * error recorded). Never fails otherwise. */
tsr_dtype tsr_result_type(int n, const tsr_operand *ops, tsr_promotion *ex);

#endif
