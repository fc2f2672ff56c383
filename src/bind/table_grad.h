/* src/bind/table_grad.h — the autograd step of the call path: after an op
 * ran on inputs that require grad (grad mode on), its result gets the
 * grad_fn the runtime's formula table names (runtime/autograd.h). Rows,
 * operators and indexing all come through here; nothing else records. */
#ifndef TSR_BIND_TABLE_GRAD_H
#define TSR_BIND_TABLE_GRAD_H

#include "autograd.h"
#include "table.h"
#include "tensor.h"

/* The table's call of row d through call (the handler or the conj
 * fallback), with the autograd step around it: out= refused when an input
 * requires grad, a leaf refused in place, the version counter of a written
 * tensor bumped, the result recorded. NEW reference or NULL. */
Value *bind_grad_call(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace, BindHandler call);
/* An operator's result r (stolen): x OP y where key names the formula
 * ("add", "mul", "rsub_s", "pow_t", "matmul"...); x, y tensors or numbers
 * (wrapped as 1.13 wraps them); inplace: x was written. NEW reference or NULL. */
Value *bind_grad_operator(const char *key, Value *x, Value *y, Value *r, bool inplace);
/* self[items] as tsr_subscript, recording 1.13's chain of SelectBackward0 /
 * SliceBackward0 / UnsqueezeBackward0 / IndexBackward0 nodes. NEW reference or NULL. */
tsr_tensor *bind_grad_subscript(const tsr_tensor *self, int n, const tsr_sub *items);
/* The checks of x[...] = value on t before it writes: a leaf that requires
 * grad refuses; a graph through the assignment (CopySlices) is not
 * implemented. 0, or -1 with the exception. */
int bind_grad_setitem_check(tsr_tensor *t, Value *value);
/* r (stolen), a view of x made outside the table (x.T, x.mT), recorded as
 * key with a. NEW reference or NULL with the runtime's error. */
tsr_tensor *bind_grad_view(const char *key, const tsr_tensor *x, tsr_tensor *r, const tsr_ag_args *a);
/* Bumps the version counter of t after an in-place write outside the table (setitem). */
void bind_grad_written(tsr_tensor *t);

#endif
