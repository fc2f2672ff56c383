/* runtime/ops/advindex.h — subscripts (x[...] and x[...] = v) and advanced
 * indexing: at::index and index_put_ (aten/src/ATen/native/
 * TensorAdvancedIndexing.cpp, IndexingUtils.h, ATen/TensorIndexing.h,
 * torch/csrc/autograd/python_variable_indexing.cpp of PyTorch 1.13).
 * Results are NEW references or NULL / -1 with the error recorded. */
#ifndef TSR_OPS_ADVINDEX_H
#define TSR_OPS_ADVINDEX_H
#include <stdbool.h>
#include "../tensor.h"

/* One item of a subscript, as the language parsed it. ORDER SUB */
typedef enum {
    TSR_SUB_INT,       /* i */
    TSR_SUB_SLICE,     /* start:stop:step (stop TSR_SLICE_END when absent, step > 0) */
    TSR_SUB_NONE,      /* None: a new dim of size 1 */
    TSR_SUB_ELLIPSIS,  /* ... */
    TSR_SUB_BOOL,      /* True / False: a new dim indexed by [0] / [] */
    TSR_SUB_TENSOR,    /* a tensor (a list is converted to one first) */
} tsr_sub_kind;

typedef struct {
    tsr_sub_kind kind;
    int64_t i, start, stop, step;  /* INT: i; SLICE: start, stop, step; BOOL: i (0/1) */
    const tsr_tensor *t;           /* TENSOR: borrowed */
    bool bare;                     /* INT, SLICE: the whole key (x[i], not x[i,]): no count check */
} tsr_sub;

/* self[items] (applySlicing then dispatch_index): ints select, slices narrow,
 * None / bools insert dims, a 0-dim integral tensor selects, a 0-dim uint8 or
 * bool tensor is a mask over a new dim, other tensors are advanced indices.
 * Without advanced indices the result is a view (an alias for x[...]). */
tsr_tensor *tsr_subscript(const tsr_tensor *self, int n, const tsr_sub *items);
/* self[items] = value (at::indexing::set_item after the value became a
 * tensor): copy_to a basic view, or index_put_ with value's leading size-1
 * dims dropped. 0 or -1. */
int tsr_subscript_assign(tsr_tensor *self, int n, const tsr_sub *items, const tsr_tensor *value);
/* The tensor a Python scalar becomes on the right of x[...] = v
 * (valueToTensor): a 0-dim tensor of self's dtype, with Scalar's overflow
 * check ("value cannot be converted to type uint8_t without overflow"). */
tsr_tensor *tsr_subscript_value(const tsr_tensor *self, tsr_scalar v);

/* at::index(self, indices): n <= self->ndim optional indices (NULL: none)
 * for self's first n dims; long tensors index, bool/uint8 masks are replaced
 * by their nonzero() columns; all broadcast together; non-adjacent indexed
 * dims go to the front. */
tsr_tensor *tsr_index(const tsr_tensor *self, int n, const tsr_tensor *const *indices);
/* self.index_put_(indices, values, accumulate). 0 or -1. */
int tsr_index_put_(tsr_tensor *self, int n, const tsr_tensor *const *indices, const tsr_tensor *values,
                   bool accumulate);
/* index_put (out of place): a clone of self with index_put_ applied. */
tsr_tensor *tsr_index_put(const tsr_tensor *self, int n, const tsr_tensor *const *indices,
                          const tsr_tensor *values, bool accumulate);

#endif
