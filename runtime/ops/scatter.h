/* runtime/ops/scatter.h — gather/scatter and the index-along-a-dim ops of
 * PyTorch 1.13 (TensorAdvancedIndexing.cpp, ScatterGatherChecks.h,
 * ScatterGatherKernel.cpp): index_select, gather, scatter / scatter_add,
 * take, masked_select, argwhere, with their checks and messages. Results are
 * NEW references or NULL / -1 with the error recorded. dims wrap. */
#ifndef TSR_OPS_SCATTER_H
#define TSR_OPS_SCATTER_H
#include "../tensor.h"

/* torch.index_select(self, dim, index): int32/int64 index of <= 1 dim, no
 * negative values ("index out of range in self"). Contiguous result. */
tsr_tensor *tsr_index_select(const tsr_tensor *self, int64_t dim, const tsr_tensor *index);
/* torch.gather(self, dim, index): index int64 with self's rank, sizes <=
 * self's apart from dim; the result has index's shape. */
tsr_tensor *tsr_gather(const tsr_tensor *self, int64_t dim, const tsr_tensor *index);
/* gather's out= (a structured kernel in 1.13): out must have self's dtype
 * ("Expected out tensor to have dtype float, but got long int instead"), is
 * resized as resize_output does and receives the result. Returns a new
 * reference to out, or NULL. */
tsr_tensor *tsr_gather_out(const tsr_tensor *self, int64_t dim, const tsr_tensor *index, tsr_tensor *out);

/* The reduction of scatter(reduce=) / scatter_add / scatter_reduce. MEAN
 * accumulates as ADD; the division by the count is scatter_reduce's.
 * ORDER SCATTER */
typedef enum {
    TSR_SCATTER_NONE, TSR_SCATTER_ADD, TSR_SCATTER_MULTIPLY, TSR_SCATTER_AMAX, TSR_SCATTER_AMIN, TSR_SCATTER_MEAN
} tsr_scatter_reduce;
/* "add" / "multiply" → the enum; anything else: RuntimeError "reduce
 * argument must be either add or multiply." (-1). */
int tsr_scatter_reduce_of(const char *name, tsr_scatter_reduce *out);
/* self.scatter_(dim, index, src) with src a tensor (value NULL) or the
 * scalar *value (src NULL). 0 or -1. */
int tsr_scatter_(tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *src,
                 const tsr_scalar *value, tsr_scatter_reduce reduce);
/* The out-of-place form: a contiguous copy of self, scattered into. */
tsr_tensor *tsr_scatter(const tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *src,
                        const tsr_scalar *value, tsr_scatter_reduce reduce);

/* scatter_reduce's reduce=: "sum" "prod" "mean" "amax" "amin"; anything
 * else: RuntimeError "reduce argument must be either sum, prod, mean, amax or
 * amin." (-1). */
int tsr_scatter_reduce_two_of(const char *name, tsr_scatter_reduce *out);
/* self.scatter_reduce_(dim, index, src, reduce, include_self=): reduce a
 * name as above, checked after the shapes (1.13's order); src a tensor
 * of self's dtype; without include_self the scattered-to places start from
 * the reduction's identity; mean divides by the count (floor for integers).
 * 0 or -1. */
int tsr_scatter_reduce_two_(tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *src,
                            const char *reduce, bool include_self);
/* The out-of-place form (a structured op: meta gives self's shape). */
tsr_tensor *tsr_scatter_reduce_two(const tsr_tensor *self, int64_t dim, const tsr_tensor *index,
                                   const tsr_tensor *src, const char *reduce, bool include_self);

/* self.index_reduce_(dim, index, source, reduce, include_self=) of 1.13:
 * reduce "prod" "mean" "amax" "amin"; source.select(dim, i) reduced into
 * self.select(dim, index[i]) (broadcast), as scatter_reduce with the index
 * laid along dim (the same order of operations per element). 1.13's
 * checks and messages. 0 or -1. */
int tsr_index_reduce_(tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *src,
                      const char *reduce, bool include_self);
/* The out-of-place form: a contiguous copy of self, reduced into. */
tsr_tensor *tsr_index_reduce(const tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *src,
                             const char *reduce, bool include_self);

/* torch.take(self, index): self read as 1-d, negative indices wrap. */
tsr_tensor *tsr_take(const tsr_tensor *self, const tsr_tensor *index);
/* torch.masked_select(self, mask): the elements of the broadcast self where
 * the broadcast bool/uint8 mask is set, as a 1-d tensor. */
tsr_tensor *tsr_masked_select(const tsr_tensor *self, const tsr_tensor *mask);

/* Records 1.13's NotImplementedError for an op without a Meta kernel
 * ("Could not run 'aten::nonzero' with arguments from the 'Meta' backend. ...")
 * and returns -1. */
int tsr_meta_refused(const char *op);

#endif
