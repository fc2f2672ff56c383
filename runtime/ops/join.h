/* runtime/ops/join.h — joining and splitting: cat (copies into one new
 * tensor, PyTorch 1.13's promotion and legacy-empty rules), stack and the
 * h/v/d/column stacks, and the split family, whose parts are views.
 * Tensors returned are NEW references; inputs are borrowed; NULL/-1 on error. */
#ifndef TSR_OPS_JOIN_H
#define TSR_OPS_JOIN_H
#include "../tensor.h"

/* cat(tensors, dim, out=): 1.13's checks and messages (TensorShape.cpp cat
 * meta): legacy 1-D empty tensors are skipped, the result dtype is
 * result_type of all inputs, the memory format is the inputs' common one.
 * out (may be NULL) is checked with can_cast, resized (with the deprecation
 * warning) and returned as a new reference. */
tsr_tensor *tsr_cat(int n, const tsr_tensor *const *ts, int64_t dim, tsr_tensor *out);
/* stack(tensors, dim, out=): the inputs (of equal sizes) unsqueezed at dim and
 * concatenated. */
tsr_tensor *tsr_stack(int n, const tsr_tensor *const *ts, int64_t dim, tsr_tensor *out);
/* The stacks of torch/functional: kind 'h' (hstack), 'v' (vstack/row_stack),
 * 'd' (dstack), 'c' (column_stack). fname is the name used in "X expects a
 * non-empty TensorList". */
tsr_tensor *tsr_stack_kind(char kind, const char *fname, int n, const tsr_tensor *const *ts, tsr_tensor *out);
/* atleast_1d/2d/3d (nd = 1, 2, 3): t itself (a new reference) or a view. */
tsr_tensor *tsr_atleast(const tsr_tensor *t, int nd);

/* The split family. Each returns the number of parts and stores a malloc'd
 * array of NEW references in *parts (free with tsr_tensors_free), or -1. */
int tsr_split(const tsr_tensor *t, int64_t split_size, int64_t dim, tsr_tensor ***parts);
int tsr_split_with_sizes(const tsr_tensor *t, int n, const int64_t *sizes, int64_t dim, tsr_tensor ***parts);
int tsr_chunk(const tsr_tensor *t, int64_t chunks, int64_t dim, tsr_tensor ***parts);
int tsr_unbind(const tsr_tensor *t, int64_t dim, tsr_tensor ***parts);
int tsr_tensor_split_sections(const tsr_tensor *t, int64_t sections, int64_t dim, tsr_tensor ***parts);
int tsr_tensor_split_indices(const tsr_tensor *t, int n, const int64_t *idx, int64_t dim, tsr_tensor ***parts);
/* tensor_split with a tensor of indices or sections (long, 0- or 1-dim). */
int tsr_tensor_split_tensor(const tsr_tensor *t, const tsr_tensor *ind, int64_t dim, tsr_tensor ***parts);
/* hsplit/vsplit/dsplit (kind 'h', 'v', 'd'), by a number of sections or by
 * indices (sections < 0: use n, idx). */
int tsr_dirsplit(char kind, const tsr_tensor *t, int64_t sections, int n, const int64_t *idx, tsr_tensor ***parts);
/* Releases n parts and the array. */
void tsr_tensors_free(int n, tsr_tensor **parts);

#endif
