/* runtime/ops/index.h — index-producing ops: nonzero (torch.nonzero,
 * torch.where(condition)). Results are NEW references or NULL / -1 with the
 * error recorded. */
#ifndef TSR_OPS_INDEX_H
#define TSR_OPS_INDEX_H
#include "../tensor.h"

/* torch.nonzero(c, as_tuple=True) and torch.where(c): one int64 tensor per
 * dimension of c (one for a zero-dim c) holding the indices of its non-zero
 * elements in row-major order. As in 1.13 they are the rows of one
 * contiguous (ndim, n) block (the second starts at storage offset n). Writes
 * *nd and NEW references into cols[0 .. *nd - 1]; returns 0, or -1 with
 * NotImplementedError "Cannot copy out of meta tensor; no data!" for meta. */
int tsr_nonzero_tuple(const tsr_tensor *c, int *nd, tsr_tensor **cols);

/* torch.nonzero(c): an int64 (n, ndim) contiguous tensor of the indices of
 * c's non-zero elements in row-major order. NEW reference or NULL. */
tsr_tensor *tsr_nonzero(const tsr_tensor *c);

#endif
