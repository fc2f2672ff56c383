/* runtime/ops/shape.h — reshape and flatten: views when the geometry allows,
 * else a contiguous copy (PyTorch's TensorShape.cpp rule). NEW reference or
 * NULL with an error; inputs are borrowed. */
#ifndef TSR_OPS_SHAPE_H
#define TSR_OPS_SHAPE_H
#include "../tensor.h"

/* reshape: a view when possible, else a contiguous copy (a new tensor). */
tsr_tensor *tsr_reshape(const tsr_tensor *t, int n, const int64_t *sizes);
/* flatten(start_dim, end_dim): dims wrapped Python-style; may copy like reshape. */
tsr_tensor *tsr_view_flatten(const tsr_tensor *t, int64_t start_dim, int64_t end_dim);

#endif
