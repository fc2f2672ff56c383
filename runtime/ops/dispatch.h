/* runtime/ops/dispatch.h — every elementwise op descriptor by its ATen name,
 * and one entry that runs any of them: what lets the binding table name an op
 * in a row instead of an enum (native_functions.yaml's role). */
#ifndef TSR_OPS_DISPATCH_H
#define TSR_OPS_DISPATCH_H
#include "../op.h"

/* The descriptor whose ATen name ("hypot", "add.Tensor", "special_erfcx") is
 * aten, from the binary, unary, special and Bessel tables; NULL if none. */
const tsr_op *tsr_op_find(const char *aten);
/* The descriptor whose torch name is name ("add", "sin"), or NULL. */
const tsr_op *tsr_op_find_name(const char *name);

/* Runs op on op->arity operands (tensors or wrapped Python numbers; only
 * numbers: the first is wrapped as a zero-dim tensor, as PyTorch does) into
 * out (borrowed, may be NULL), or in place into out when inplace. An op with
 * a family runner (op->run) takes its family's checks; any other takes the
 * plain elementwise path: input checks, the compute dtype of its rule, its
 * complex and bool refusals, and its kernel for that dtype through the
 * iterator (which raises "<kname>" not implemented for a dtype the descriptor
 * lacks). NEW reference (out itself when given) or NULL. */
tsr_tensor *tsr_op_run(const tsr_op *op, const tsr_operand *in, tsr_tensor *out, bool inplace);

#endif
