/* runtime/ops/nn_more.h — more torch.nn.functional ops: glu, pixel_shuffle /
 * pixel_unshuffle, channel_shuffle, hardshrink / softshrink, rrelu and the
 * im2col / col2im pair behind F.unfold / F.fold, with their backward
 * kernels. Results are NEW references or NULL with 1.13's error recorded;
 * arguments are borrowed. */
#ifndef TSR_OPS_NN_MORE_H
#define TSR_OPS_NN_MORE_H
#include <stdbool.h>
#include "../tensor.h"
#include "random.h"

/* glu(x, dim): first half * sigmoid(second half) along dim (GatedLinearUnit.cpp). */
tsr_tensor *tsr_nn_glu(const tsr_tensor *x, int64_t dim);
/* glu_backward_cpu: the gradient of x from g (the forward's dim). */
tsr_tensor *tsr_nn_glu_backward(const tsr_tensor *g, const tsr_tensor *x, int64_t dim);

/* pixel_shuffle(x, r) / pixel_unshuffle(x, r) (PixelShuffle.cpp): the
 * result in x's suggested memory format. */
tsr_tensor *tsr_nn_pixel_shuffle(const tsr_tensor *x, int64_t r);
tsr_tensor *tsr_nn_pixel_unshuffle(const tsr_tensor *x, int64_t r);
/* channel_shuffle(x, groups) (ChanelShuffle.cpp). */
tsr_tensor *tsr_nn_channel_shuffle(const tsr_tensor *x, int64_t groups);

/* hardshrink / softshrink (Activation.cpp's kernels, lambd in x's dtype);
 * softshrink refuses a negative lambd. */
tsr_tensor *tsr_nn_hardshrink(const tsr_tensor *x, double lambd);
tsr_tensor *tsr_nn_softshrink(const tsr_tensor *x, double lambd);
/* shrink_backward_kernel of both: x in [-lambd, lambd] ? 0 : g; kname
 * names the kernel in the dtype error ("hardshrink_backward_cpu"). */
tsr_tensor *tsr_nn_shrink_backward(const tsr_tensor *g, const tsr_tensor *x, double lambd, const char *kname);

/* rrelu_with_noise(x, lower, upper, training, gen): evaluation is
 * leaky_relu(x, (lower + upper) / 2); training draws one
 * uniform_real_distribution<double>(lower, upper) from gen for each
 * element <= 0 in x's order. *noise (NULL: not wanted) receives the slope
 * of each element (training) or an empty tensor. inplace writes x. */
tsr_tensor *tsr_nn_rrelu(tsr_tensor *x, double lower, double upper, bool training, bool inplace, tsr_generator *gen,
                         tsr_tensor **noise);
/* rrelu_with_noise_backward: training (upper - lower > 1e-6) g * noise,
 * else leaky_relu_backward with the mean slope. */
tsr_tensor *tsr_nn_rrelu_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *noise, double lower,
                                  double upper, bool training);

/* im2col(x, kernel, dilation, padding, stride) (Im2Col.cpp) over a 3-D
 * (unbatched) or 4-D input; each of the four is an (h, w) pair. */
tsr_tensor *tsr_nn_im2col(const tsr_tensor *x, const int64_t *kernel, const int64_t *dilation, const int64_t *padding,
                          const int64_t *stride);
/* col2im(x, output_size, kernel, dilation, padding, stride) (Col2Im.cpp)
 * over a 2-D (unbatched) or 3-D input. */
tsr_tensor *tsr_nn_col2im(const tsr_tensor *x, const int64_t *output_size, const int64_t *kernel,
                          const int64_t *dilation, const int64_t *padding, const int64_t *stride);

#endif
