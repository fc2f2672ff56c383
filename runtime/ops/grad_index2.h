/* runtime/ops/grad_index2.h — backward of index_put / index_put_ in their
 * function form (IndexPutBackward0 of 1.13's derivatives.yaml) and the
 * graph of indexing by a key mixing basic and advanced items. */
#ifndef TSR_OPS_GRAD_INDEX2_H
#define TSR_OPS_GRAD_INDEX2_H
#include "autograd_node.h"
#include "ops/advindex.h"

/* index_put(self, indices, values, accumulate flag): inputs (self, values);
 * the index tensors in extra in order, i0 of them in all, bit k of i1 set
 * when index k is a tensor (else None). */
int tsr__bw_index_put_fn(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
/* index_put's gradients (inputs self, values) by ni indices ix (NULL:
 * None), as 1.13's derivatives.yaml: self accumulate ? grad :
 * grad.index_put(indices, zeros_like(values)), values grad.index(indices),
 * recorded with create_graph (IndexPutBackward0, IndexBackward0). 0 or -1. */
int tsr__bw_index_put_tensors(tsr_node *n, const tsr_tensor *g, int ni, const tsr_tensor *const *ix, bool accumulate,
                              tsr_tensor **gin);
/* Records index_put(self, indices, values, accumulate) onto out (in place:
 * out is self). 0 or -1. */
int tsr__ag_record_index_put_fn(tsr_tensor *self, int n, const tsr_tensor *const *indices, const tsr_tensor *values,
                                bool accumulate, tsr_tensor *out, bool inplace);
/* self[items] = value with a mixed key, after the write: the basic items'
 * view of self, then index_put_ in place on it by the tensor items
 * (CopySlices over IndexPutBackward0). value NULL: a number. 0 or -1. */
int tsr__ag_record_setitem_mixed(tsr_tensor *self, int n, const tsr_sub *items, const tsr_tensor *value);
/* tsr__ag_subscript_mixed, tsr__ag_mixed_key: autograd_node.h (autograd.c calls them) */
/* Whether tsr__ag_record_setitem_mixed takes items: integer tensors of
 * one or more dims with basic items or none (no masks). */
bool tsr__ag_slicing_key(int n, const tsr_sub *items);

#endif
