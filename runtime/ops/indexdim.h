/* runtime/ops/indexdim.h — the ops that write slices or elements picked by
 * an index (PyTorch 1.13 TensorAdvancedIndexing.cpp): index_add_,
 * index_copy_, index_fill_, put_, masked_scatter_ and their out-of-place
 * forms. In-place forms return 0 or -1; the others a NEW reference or NULL. */
#ifndef TSR_OPS_INDEXDIM_H
#define TSR_OPS_INDEXDIM_H
#include "../tensor.h"

/* self.index_add_(dim, index, source, alpha=alpha): self.select(dim, index[i]) += alpha * source.select(dim, i). */
int tsr_index_add_(tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *source, tsr_scalar alpha);
tsr_tensor *tsr_index_add(const tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *source,
                          tsr_scalar alpha);
/* self.index_copy_(dim, index, source). */
int tsr_index_copy_(tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *source);
tsr_tensor *tsr_index_copy(const tsr_tensor *self, int64_t dim, const tsr_tensor *index, const tsr_tensor *source);
/* self.index_fill_(dim, index, value); value_t: the Tensor overload's value
 * (must be 0-dim) or NULL for the Number one. */
int tsr_index_fill_(tsr_tensor *self, int64_t dim, const tsr_tensor *index, tsr_scalar value, const tsr_tensor *value_t);
tsr_tensor *tsr_index_fill(const tsr_tensor *self, int64_t dim, const tsr_tensor *index, tsr_scalar value,
                           const tsr_tensor *value_t);
/* self.put_(index, source, accumulate): self read as 1-d, negative indices wrap. */
int tsr_put_(tsr_tensor *self, const tsr_tensor *index, const tsr_tensor *source, bool accumulate);
tsr_tensor *tsr_put(const tsr_tensor *self, const tsr_tensor *index, const tsr_tensor *source, bool accumulate);
/* self.masked_scatter_(mask, source): source's elements in order into the set places. */
int tsr_masked_scatter_(tsr_tensor *self, const tsr_tensor *mask, const tsr_tensor *source);
tsr_tensor *tsr_masked_scatter(const tsr_tensor *self, const tsr_tensor *mask, const tsr_tensor *source);

#endif
