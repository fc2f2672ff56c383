/* runtime/ops/grad_nn_dbl.h — backward-of-backward formulas of
 * torch.nn.functional's fused backward kernels under create_graph=True
 * (ConvolutionBackwardBackward0, MaxPool2DWithIndicesBackwardBackward0,
 * AvgPool2DBackwardBackward0, ...). The formula table of autograd_fn.c
 * names them. */
#ifndef TSR_OPS_GRAD_NN_DBL_H
#define TSR_OPS_GRAD_NN_DBL_H
#include <stdbool.h>
#include "autograd_formula.h"

/* A convolution node's parameters (ConvolutionBackward0's args: dims
 * stride, padding, dilation, output_padding, each list 2 apart (3 for a
 * 3-D convolution), i0 groups, flag transposed). */
typedef struct {
    int dim;
    int64_t st[TSR_MAX_DIMS / 4], pd[TSR_MAX_DIMS / 4], dl[TSR_MAX_DIMS / 4], op[TSR_MAX_DIMS / 4];
    int64_t groups;
    bool transposed;
} tsr_conv_params;
int tsr__ag_conv_params(const tsr_node *n, tsr_conv_params *p);

/* A fused backward kernel's results outs[0..nout) (NULL: not computed)
 * recorded as one node key over in[0..nin) while the engine creates a
 * graph (a result that already has a graph is replaced by a copy first).
 * 0, or -1 with c->fail set. */
int tsr__ag_record_backward(F *c, const char *key, int nin, const tsr_tensor *const *in, const tsr_ag_args *a,
                            int nout, tsr_tensor **outs);

int tsr__bw_convolution_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_max_pool_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_avg_pool_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_batch_norm_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
int tsr__bw_layer_norm_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);
/* native_group_norm (input, weight, bias; groups i0; mean and rstd kept in
 * extra[0..1]) with create_graph, or with gradients for its mean and rstd:
 * 1.13's infinitely_differentiable_native_group_norm_backward, whose mean
 * and rstd are the node's outputs 1 and 2 (saved result1 / result2) */
int tsr__bw_group_norm_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);

#endif
