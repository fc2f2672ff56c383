/* runtime/ops/search.h — searchsorted, bucketize and isin (1.13's
 * Bucketization.cpp and TensorCompare.cpp isin), take_along_dim and
 * sum_to_size (composites of gather and sum). Results are NEW references
 * (out itself when given) or NULL with the error recorded. */
#ifndef TSR_OPS_SEARCH_H
#define TSR_OPS_SEARCH_H
#include <stdbool.h>
#include "../promote.h"
#include "../tensor.h"

/* torch.searchsorted(sorted_sequence, values, out_int32=, right=, side=,
 * sorter=, out=): values a tensor or a wrapped Python scalar (its own
 * operand); side NULL when absent; sorter/out NULL when absent. The
 * sequence and values meet in their result_type; int32 or int64 indices. */
tsr_tensor *tsr_searchsorted(const tsr_tensor *seq, const tsr_operand *values, bool out_int32, bool right,
                             const char *side, const tsr_tensor *sorter, tsr_tensor *out);
/* torch.bucketize(input, boundaries, out_int32=, right=, out=): boundaries
 * must be 1-d ("boundaries tensor must be 1 dimension, but got dim(2)"). */
tsr_tensor *tsr_bucketize(const tsr_operand *input, const tsr_tensor *boundaries, bool out_int32, bool right,
                          tsr_tensor *out);
/* torch.isin(elements, test_elements, assume_unique=, invert=, out=): either
 * operand may be a scalar (not both): a scalar test element is a 0-dim
 * tensor, a scalar element a wrapped number (1.13's overloads). A bool
 * result of elements' shape. */
tsr_tensor *tsr_isin(const tsr_operand *elements, const tsr_operand *test, bool assume_unique, bool invert,
                     tsr_tensor *out);
/* torch.take_along_dim(input, indices, dim=None, out=): has_dim false reads
 * both flattened (view(-1)); else both broadcast apart from dim, then gather. */
tsr_tensor *tsr_take_along_dim(const tsr_tensor *self, const tsr_tensor *indices, bool has_dim, int64_t dim,
                               tsr_tensor *out);
/* self.sum_to_size(size): self itself (a new reference) when the size is
 * self's; "size {[4]} is not expandable to size {[2, 3]}." */
tsr_tensor *tsr_sum_to_size(const tsr_tensor *self, int n, const int64_t *size);

#endif
