/* runtime/ops/nn_interp.h — the upsampling kernels behind
 * F.interpolate: upsample_nearest1d/2d/3d and _upsample_nearest_exact1d/2d/3d
 * (UpSample.h, UpSampleKernel.cpp of 1.13). Results are NEW references or
 * NULL with 1.13's error recorded; arguments are borrowed. */
#ifndef TSR_OPS_NN_INTERP_H
#define TSR_OPS_NN_INTERP_H
#include <stdbool.h>
#include "../tensor.h"

/* upsample_nearest{k}d(x, out, scales) for k = x->ndim - 2 in 1..3: out[k]
 * the spatial output sizes, scales[k] the per-dimension scale factors (a
 * value <= 0: none, the scale is then in/out). exact selects
 * _upsample_nearest_exact (source index floor((d + 0.5) * scale)). The
 * result is in x's suggested memory format. */
tsr_tensor *tsr_nn_upsample_nearest(const tsr_tensor *x, const int64_t *out, const double *scales, bool exact);

/* upsample_nearest{k}d_backward (and the exact one): the gradient of the
 * input of sizes in_sizes (x's ndim = g's) from g, each output element added
 * to its source element in output order, in g's dtype (float32, float64,
 * bfloat16). A contiguous result. */
tsr_tensor *tsr_nn_upsample_nearest_backward(const tsr_tensor *g, const int64_t *in_sizes, const double *scales,
                                             bool exact);

/* upsample_linear1d / upsample_bilinear2d / upsample_trilinear3d for
 * k = x->ndim - 2 in 1..3 (float32, float64, bfloat16): out, scales as for
 * the nearest kernels; align_corners as given. The result is in x's
 * suggested memory format (nn_interp_linear.c has the arithmetic). */
tsr_tensor *tsr_nn_upsample_linear(const tsr_tensor *x, const int64_t *out, const double *scales, bool align_corners);

/* Their backward: the gradient of the input of sizes in_sizes from g, a
 * contiguous tensor in g's dtype. */
tsr_tensor *tsr_nn_upsample_linear_backward(const tsr_tensor *g, const int64_t *in_sizes, const double *scales,
                                            bool align_corners);

/* upsample_bicubic2d of 4-d x (float32, float64, bfloat16) and its
 * backward (a contiguous gradient of the input of sizes in_sizes), as the
 * linear ones (nn_interp_cubic.c has the arithmetic). */
tsr_tensor *tsr_nn_upsample_bicubic(const tsr_tensor *x, const int64_t *out, const double *scales, bool align_corners);
tsr_tensor *tsr_nn_upsample_bicubic_backward(const tsr_tensor *g, const int64_t *in_sizes, const double *scales,
                                             bool align_corners);

/* _upsample_bilinear2d_aa (cubic false) / _upsample_bicubic2d_aa (cubic
 * true) of 4-d float32 / float64 x: F.interpolate(antialias=True), Pillow's
 * separable triangle / cubic (a = -0.5) filters widened by the downscale
 * factor (nn_interp_aa.c). The bilinear result keeps x's suggested memory
 * format, the bicubic one is contiguous. Their backward: the contiguous
 * gradient of the input of sizes in_sizes from g. */
tsr_tensor *tsr_nn_upsample_aa(const tsr_tensor *x, const int64_t *out, const double *scales, bool align_corners,
                               bool cubic);
tsr_tensor *tsr_nn_upsample_aa_backward(const tsr_tensor *g, const int64_t *in_sizes, const double *scales,
                                        bool align_corners, bool cubic);

/* The checks every upsample kernel makes first (rank, non-empty, positive
 * sizes), with 1.13's messages ("... input (W: 2) and output (W: 0)" where
 * and_output: upsample_linear1d's). 0 or -1. */
int tsr__nn_upsample_check(const tsr_tensor *x, const int64_t *out, bool and_output);

#endif
