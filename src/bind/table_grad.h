/* src/bind/table_grad.h — the autograd step of the call path: after an op
 * ran on inputs that require grad (grad mode on), its result gets the
 * grad_fn the runtime's formula table names (runtime/autograd.h). Rows,
 * operators and indexing all come through here; nothing else records. */
#ifndef TSR_BIND_TABLE_GRAD_H
#define TSR_BIND_TABLE_GRAD_H

#include "autograd.h"
#include "table.h"
#include "tensor.h"

/* bind_grad_call (the table's autograd step) is declared in table.h. */
/* An operator's result r (stolen): x OP y where key names the formula
 * ("add", "mul", "rsub_s", "pow_t", "matmul"...); x, y tensors or numbers
 * (wrapped as 1.13 wraps them); inplace: x was written. NEW reference or NULL. */
Value *bind_grad_operator(const char *key, Value *x, Value *y, Value *r, bool inplace);

#endif
