/* src/bind/ops.h — shared between ops.c (Tensor operators, :explain
 * recording) and pointwise.c (the torch.* / Tensor method forms of the
 * elementwise ops), and two helpers of F's messages. Private to src/bind. Ownership as in value.h. */
#ifndef TSR_BIND_OPS_H
#define TSR_BIND_OPS_H

#include "bind/tensor.h"

/* torch.nn.functional's dropouts (nnf.c, nnf_layers.c, nnf_misc.c): 0, or
 * -1 with 1.13's "dropout probability has to be between 0 and 1" ValueError,
 * p printed as Python prints the argument pv. */
int bind_dropout_p(Value *pv, double p);
/* "[2, 3]": t's sizes as c10 prints an IntArrayRef (the losses' messages). */
char *bind_sizes_str(char *buf, size_t n, const tsr_tensor *t);
/* A tensor or Python number as an operand: 1, or 0 when v is neither. */
int ops_operand(Value *v, tsr_operand *o);
/* Prints a pending runtime warning (out= resize) as "UserWarning: ..." on stderr. */
void ops_warn(void);
/* Records one :explain step of the op desc (the runtime answers it from the
 * descriptor); name and symbol are how the language called it ("add_", "+").
 * Call only when explain_active(). result may be NULL (the op failed: its
 * error is still pending). */
void ops_explain(const tsr_op *desc, const char *name, const char *symbol, int n, const tsr_operand *in,
                 const tsr_tensor *result, const tsr_tensor *out, bool inplace);

/* Run one op and wrap its result (new reference, NULL + exception).
 * outv: an out= tensor value or NULL; self_inplace: the value an in-place op
 * writes (and returns), or NULL. */
Value *ops_binary(tsr_binop op, const char *name, const char *symbol, const tsr_operand *a, const tsr_operand *b,
                  Value *outv, const tsr_binary_opts *opts, Value *self_inplace);
Value *ops_unary(tsr_unop op, const char *name, const char *symbol, Value *x, Value *outv,
                 const tsr_unary_opts *opts, bool inplace);
Value *ops_compare(tsr_cmpop op, const char *name, const char *symbol, const tsr_operand *a, const tsr_operand *b,
                   Value *outv, Value *self_inplace);
/* Runs the descriptor desc (runtime/ops/dispatch.h tsr_op_run) on its
 * desc->arity operands, with the out= warning and the :explain step. */
Value *ops_run(const tsr_op *desc, const char *name, const char *symbol, const tsr_operand *in, Value *outv,
               Value *self_inplace);
/* Wraps a runtime result (steals r); when r is same's tensor (in place,
 * out=) the result is the value `same` itself, as PyTorch returns out. */
Value *ops_finish(tsr_tensor *r, Value *same);
/* The keyword out= of a function 1.13 binds in C (torch._C._nn.gelu, ...): 0
 * with *out NULL when absent or None, else the tensor; -1 with the parser's
 * TypeError when it is not a tensor, or with VariableType's RuntimeError
 * (named gname) when one of the n values vals needs a graph. */
int ops_out_arg(Value *o, const char *fname, const char *gname, int n, Value **vals, struct tsr_tensor **out);
/* +x: x itself; bool refused as PyTorch does. */
Value *ops_positive(Value *x);

#endif
