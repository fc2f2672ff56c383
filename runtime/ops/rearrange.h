/* runtime/ops/rearrange.h — ops that copy elements into a new arrangement:
 * flip, roll, rot90, repeat, tile, repeat_interleave, tril/triu, the
 * tril/triu index lists, diag, diag_embed, diagflat; and the broadcasting
 * views broadcast_tensors and meshgrid. NEW references or NULL with 1.13's
 * errors; inputs are borrowed. */
#ifndef TSR_OPS_REARRANGE_H
#define TSR_OPS_REARRANGE_H
#include "../tensor.h"

/* flip(dims): a copy laid out like t (preserve_format). */
tsr_tensor *tsr_flip(const tsr_tensor *t, int n, const int64_t *dims);
/* fliplr (lr) / flipud: "Input must be >= 2-d." / ">= 1-d.". */
tsr_tensor *tsr_flip_lr_ud(const tsr_tensor *t, bool lr);
/* roll(shifts, dims); nd 0 rolls the flattened tensor. */
tsr_tensor *tsr_roll(const tsr_tensor *t, int ns, const int64_t *shifts, int nd, const int64_t *dims);
/* rot90(k, dims) with dims of length nd (must be 2). */
tsr_tensor *tsr_rot90(const tsr_tensor *t, int64_t k, int nd, const int64_t *dims);
/* repeat(repeats) and tile(reps). */
tsr_tensor *tsr_repeat(const tsr_tensor *t, int n, const int64_t *repeats);
tsr_tensor *tsr_tile(const tsr_tensor *t, int n, const int64_t *reps);
/* repeat_interleave: self repeated along dim (has_dim false: flattened) by
 * repeats (a tensor, or the int r when repeats is NULL). self NULL is the
 * repeats-only overload (indices repeated by their counts). output_size < 0:
 * absent. */
tsr_tensor *tsr_repeat_interleave(const tsr_tensor *self, const tsr_tensor *repeats, int64_t r, bool has_dim,
                                  int64_t dim, int64_t output_size);
/* tril/triu (upper) into a new contiguous tensor, or into out (its dtype must
 * be t's: "Expected out tensor to have dtype float, but got int instead"). */
tsr_tensor *tsr_tril(const tsr_tensor *t, int64_t diagonal, bool upper, tsr_tensor *out);
/* tril_/triu_ in place. 0 or -1. */
int tsr_tril_(tsr_tensor *t, int64_t diagonal, bool upper);
/* tril_indices/triu_indices(row, col, offset) as a 2 x N tensor of dtype. */
tsr_tensor *tsr_tril_indices(int64_t row, int64_t col, int64_t offset, bool upper, tsr_dtype dtype, tsr_device dev);
/* diag(t, diagonal, out=): vector -> matrix, matrix -> its diagonal (a copy). */
tsr_tensor *tsr_diag(const tsr_tensor *t, int64_t diagonal, tsr_tensor *out);
tsr_tensor *tsr_diag_embed(const tsr_tensor *t, int64_t offset, int64_t dim1, int64_t dim2);
tsr_tensor *tsr_diagflat(const tsr_tensor *t, int64_t offset);
/* broadcast_tensors: n expanded views stored in res[] (new references). 0 or -1. */
int tsr_broadcast_tensors(int n, const tsr_tensor *const *ts, tsr_tensor **res);
/* meshgrid(tensors, indexing "ij" or "xy"): n expanded views into res[]. */
int tsr_meshgrid(int n, const tsr_tensor *const *ts, const char *indexing, tsr_tensor **res);

#endif
