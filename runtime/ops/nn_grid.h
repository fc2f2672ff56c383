/* runtime/ops/nn_grid.h — affine_grid_generator (F.affine_grid) of 1.13.
 * Results are NEW references or NULL with the error recorded; arguments are
 * borrowed. */
#ifndef TSR_OPS_NN_GRID_H
#define TSR_OPS_NN_GRID_H
#include <stdbool.h>
#include "../tensor.h"

/* affine_grid_generator(theta, size, align_corners): theta (N, k, k + 1),
 * size the n = k + 2 sizes N, C, [D,] H, W; the grid (N, [D,] H, W, k). */
tsr_tensor *tsr_nn_affine_grid(const tsr_tensor *theta, int n, const int64_t *size, bool align_corners);
/* affine_grid_generator_backward: the gradient of theta (a transposed view)
 * from grad, the grid's gradient. */
tsr_tensor *tsr_nn_affine_grid_backward(const tsr_tensor *grad, int n, const int64_t *size, bool align_corners);
/* make_base_grid_4D / _5D viewed as (N, prod(spatial), n - 1): the base grid
 * both of them multiply (size: the n sizes of affine_grid). NEW reference or NULL. */
tsr_tensor *tsr_nn_affine_base_flat(tsr_dtype dt, tsr_device dev, int n, const int64_t *size, bool ac);

/* grid_sampler's checks (check_grid_sampler_common/_2d/_3d) for mode
 * 0 bilinear, 1 nearest, 2 bicubic. 0 or -1. */
int tsr_nn_grid_sampler_check(const tsr_tensor *input, const tsr_tensor *grid, int mode);
/* grid_sampler(input, grid, mode, padding (0 zeros, 1 border, 2
 * reflection), align_corners): a contiguous (N, C, Ho, Wo) result. The 2-d
 * modes bilinear and nearest only; the others refuse (NotImplementedError). */
tsr_tensor *tsr_nn_grid_sampler(const tsr_tensor *input, const tsr_tensor *grid, int mode, int pad, bool align_corners);
/* grid_sampler_2d_backward for modes bilinear/nearest: *g_input (when
 * need_input; else NULL) and *g_grid, NEW contiguous tensors. 0 or -1. */
int tsr_nn_grid_sampler_backward(const tsr_tensor *go, const tsr_tensor *input, const tsr_tensor *grid, int mode, int pad,
                                 bool ac, bool need_input, tsr_tensor **g_input, tsr_tensor **g_grid);

#endif
