/* runtime/ops/nn_dev.h — torch.nn.functional's ops on a device the host
 * cannot read (cuda), composed of device-aware runtime ops (the elementwise
 * engine, the device reductions, copies) in the compute type PyTorch's CUDA
 * kernels use (float for float16 / bfloat16). Internal to the runtime.
 * Results are NEW references or NULL with the error set; arguments borrowed. */
#ifndef TSR_OPS_NN_DEV_H
#define TSR_OPS_NN_DEV_H
#include <stdbool.h>
#include "../tensor.h"

/* x lives on a device other than the CPU and meta. */
bool tsr__nn_on_device(const tsr_tensor *x);
/* softmax / log_softmax (lg) of in along dim (already wrapped), as 1.13's
 * host_softmax: exp(x - amax) / sum, or (x - amax) - log(sum), in float for
 * the halves, the result of in's dtype, contiguous. */
tsr_tensor *tsr__softmax_dev(const tsr_tensor *in, int64_t dim, bool lg);
/* _softmax_backward_data (lg: _log_softmax_backward_data) as 1.13's
 * host_softmax_backward: y * (g - sum(g * y)) or g - exp(y) * sum(g). */
tsr_tensor *tsr__softmax_backward_dev(const tsr_tensor *g, const tsr_tensor *y, int64_t dim, bool lg);

#endif
