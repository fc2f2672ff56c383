/* src/bind/sparse.h — the sparse step of the binding table's call path
 * (sparse.c): rows, operators and refusals for sparse COO arguments. */
#ifndef TSR_BIND_SPARSE_H
#define TSR_BIND_SPARSE_H

#include <stdbool.h>

#include "bind/table.h"

/* True when an argument (or self, or an item of a list argument) is sparse. */
bool bind_sparse_args(BindArgs *b, Value *self);
/* True for the rows of sparse.c itself (they take sparse arguments). */
bool bind_sparse_row(const BindRow *d);
/* Row d called with a sparse argument: computed on SparseCPU as 1.13 does
 * (call is the row's own handler, for the metadata rows that only read the
 * header), or refused with 1.13's "Could not run 'aten::X' with arguments
 * from the 'SparseCPU' backend. ..." NEW reference or NULL. */
Value *bind_sparse_call(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace, BindHandler call);
/* A Tensor operator (value.h's OP_*, -1 for unary minus) with a sparse
 * operand. NEW reference or NULL. */
Value *bind_sparse_operator(int op, Value *self, Value *other, int reflected);

#endif
