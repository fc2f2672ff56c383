/* runtime/ops/nn_pool3d.h — more pooling layers of 1.13: max_unpool2d/3d
 * (MaxUnpooling.cpp / MaxUnpoolKernel.cpp), max_pool3d, adaptive_max_pool3d,
 * avg_pool3d, adaptive_avg_pool3d, fractional_max_pool2d/3d. */
#ifndef TSR_OPS_NN_POOL3D_H
#define TSR_OPS_NN_POOL3D_H

#include <stdbool.h>

#include "../tensor.h"

/* torch._C._nn.max_unpool2d(x, indices, output_size): zeros of
 * (N,) C, oH, oW in x's suggested memory format, each x element written at
 * its index into its channel's oH*oW plane (later writes win). 1.13's
 * checks and messages. n is output_size's length. NEW reference or NULL. */
tsr_tensor *tsr_nn_max_unpool2d(const tsr_tensor *x, const tsr_tensor *indices, int n, const int64_t *osz);

/* MaxUnpool2DBackward0's max_pool_double_backward(g, indices, 2): g's
 * plane entries at the indices, in indices' shape (contiguous, g's dtype).
 * NEW reference or NULL. */
tsr_tensor *tsr_nn_max_unpool2d_backward(const tsr_tensor *g, const tsr_tensor *indices);

/* max_pool3d_with_indices (DilatedMaxPool3d.cpp of 1.13): kernel, stride
 * (ns 0: the kernel), padding, dilation of 1 or 3 entries; float32 and
 * float64; the output and int64 indices (*indices, when asked) contiguous.
 * NEW reference or NULL. */
tsr_tensor *tsr_nn_max_pool3d(const tsr_tensor *x, int nk, const int64_t *k, int ns, const int64_t *s, int np,
                              const int64_t *p, int nd, const int64_t *dl, bool ceil, tsr_tensor **indices);
/* its backward: g added at the indices, in output order, into zeros of x's
 * shape (contiguous). NEW reference or NULL. */
tsr_tensor *tsr_nn_max_pool3d_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *indices);

/* adaptive_max_pool3d (AdaptiveMaxPooling3d.cpp of 1.13): n must be 3;
 * float32 and float64; output and int64 indices contiguous. NEW or NULL. */
tsr_tensor *tsr_nn_adaptive_max_pool3d(const tsr_tensor *x, int n, const int64_t *osz, tsr_tensor **indices);

/* torch._C._nn.max_unpool3d(x, indices, output_size, stride, padding):
 * zeros of (N,) C, oT, oH, oW (contiguous), each x element written at its
 * index into its channel's volume; 1.13's checks (n, ns, np: the lengths of
 * output_size, stride, padding). NEW reference or NULL. */
tsr_tensor *tsr_nn_max_unpool3d(const tsr_tensor *x, const tsr_tensor *indices, int n, const int64_t *osz, int ns,
                                const int64_t *s, int np);

/* MaxUnpool3DBackward0's max_pool_double_backward(g, indices, 3). NEW or NULL. */
tsr_tensor *tsr_nn_max_unpool3d_backward(const tsr_tensor *g, const tsr_tensor *indices);

/* avg_pool3d (AveragePool3d.cpp of 1.13): kernel, stride (ns 0: the
 * kernel), padding of 1 or 3 entries; float32, float64, int64; the output
 * contiguous (also for a channels_last_3d input). NEW reference or NULL. */
tsr_tensor *tsr_nn_avg_pool3d(const tsr_tensor *x, int nk, const int64_t *k, int ns, const int64_t *s, int np,
                              const int64_t *p, bool ceil, bool cip, bool hasdiv, int64_t div);
/* its backward: k, s, p three entries each; contiguous, x's shape. NEW or NULL. */
tsr_tensor *tsr_nn_avg_pool3d_backward(const tsr_tensor *g, const tsr_tensor *x, const int64_t *k, const int64_t *s,
                                       const int64_t *p, bool cip, bool hasdiv, int64_t div);

/* adaptive_avg_pool3d (AdaptiveAveragePooling3d.cpp of 1.13): n must be 3;
 * an output of 1x1x1 is mean(-1, -2, -3) (1.13 restrides no 5-D mean);
 * else float16, float32, float64, contiguous. NEW reference or NULL. */
tsr_tensor *tsr_nn_adaptive_avg_pool3d(const tsr_tensor *x, int n, const int64_t *osz);
/* _adaptive_avg_pool3d_backward: contiguous, x's shape. NEW or NULL. */
tsr_tensor *tsr_nn_adaptive_avg_pool3d_backward(const tsr_tensor *g, const tsr_tensor *x);

/* fractional_max_pool2d (nsp 2) / fractional_max_pool3d (nsp 3) with the
 * given random samples (x's dtype; read from their data pointer in
 * memory order as 1.13 does, whatever their strides, and refused when they
 * hold fewer than N * C * nsp values, where 1.13 reads past them): kernel and output
 * sizes of nk / no entries (must be nsp); float32 and float64; output and
 * int64 indices (*indices, when asked) contiguous. 1.13's checks and
 * messages. NEW reference or NULL. */
tsr_tensor *tsr_nn_fractional_max_pool(const tsr_tensor *x, int nsp, int nk, const int64_t *k, int no,
                                       const int64_t *osz, const tsr_tensor *samples, tsr_tensor **indices);
/* its backward: g added at the indices into zeros of x's shape
 * (contiguous). NEW reference or NULL. */
tsr_tensor *tsr_nn_fractional_max_pool_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *indices,
                                                int nsp);

#endif
