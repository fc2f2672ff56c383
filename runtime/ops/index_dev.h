/* runtime/ops/index_dev.h — private to the indexing files: their launches
 * on a device whose memory the host cannot read (cuda), through the
 * backend's index entry (runtime/kernels.h TSR_INDEX_LIST). Each returns 0,
 * or -1 with the error recorded: the dispatcher's "Could not run 'aten::X'
 * with arguments from the 'CUDA' backend" where the backend has no such
 * kernel. */
#ifndef TSR_OPS_INDEX_DEV_H
#define TSR_OPS_INDEX_DEV_H
#include <stdbool.h>
#include "../device.h"
#include "../scalar.h"
#include "../tensor.h"
#include "walk.h"

/* Whether t lives where the host cannot read it (the device paths apply). */
bool tsr__dev_external(const tsr_tensor *t);

/* TensorIterator's device check: 0 when each of others (NULL skipped) is
 * on first's device, else -1 with "Expected all tensors to be on the
 * same device, but found at least two devices, cuda:0 and cpu!". */
int tsr__dev_same_device(const tsr_tensor *first, int n, const tsr_tensor *const *others);

/* One GATHER/PUT/ADD/MUL/FILL launch over w's shape on dev: operand o0 of
 * w is written (GATHER: the result; else the indexed tensor, restrided),
 * o1 the other (-1 for FILL), oi[k] the int64 index tensors; size[k] and
 * step[k] (bytes) the indexed dims. value: FILL's element in dt; alpha:
 * ADD's. Returns 1 when an index value is out of range (bad[0] the value,
 * bad[1] k; nothing written) for the caller's message. */
int tsr__dev_index_walk(tsr_device dev, const char *aten, tsr_kindex_op op, tsr_dtype dt, const walk *w, int o0,
                        int o1, int nidx, const int *oi, const int64_t *size, const int64_t *step, bool negative,
                        const unsigned char *value, tsr_scalar alpha, int64_t *bad);

/* An op along dim d with one index vector (index_select, index_add_,
 * index_copy_, index_fill_): over the indexed tensor's sizes with
 * numel(index) at d. GATHER: dst (the result, of that shape) from src
 * indexed; PUT/ADD/FILL: dst indexed, from src (expanded to the shape;
 * NULL for FILL) or value. index: int32 or int64 on dst's device, 0- or
 * 1-dim. Returns 1 with bad[0] an out-of-range value, as
 * tsr__dev_index_walk. */
int tsr__dev_index_dim(tsr_kindex_op op, const char *aten, tsr_tensor *dst, const tsr_tensor *src, int d,
                       const tsr_tensor *index, const unsigned char *value, tsr_scalar alpha, bool negative,
                       int64_t *bad);

/* tril_/triu_ of t in place (diagonal as torch.tril's). */
int tsr__dev_tri(tsr_tensor *t, int64_t diagonal, bool upper);

/* torch.nonzero(c) of a device tensor: int64 (n, ndim) on c's device, the
 * count fetched to size it (PyTorch synchronizes there too). NEW reference
 * or NULL. */
tsr_tensor *tsr__dev_nonzero(const tsr_tensor *c);

/* repeat_interleave(repeats) of a 1-d int32/int64 device tensor: each i
 * repeated repeats[i] times, output_size elements (< 0: the sum, fetched
 * to size the result, as PyTorch synchronizes there). RuntimeError
 * "repeats can not be negative" (when output_size < 0). NEW reference or
 * NULL. */
tsr_tensor *tsr__dev_repeat_indices(const tsr_tensor *rep, int64_t output_size);

#endif
