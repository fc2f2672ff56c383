/* runtime/ops/nn_conv.h — torch.nn.functional's convolution (conv1d,
 * conv2d) as 1.13's Convolution.cpp checks and computes it: slow_conv2d and
 * slow_conv_dilated2d (im2col + cpublas::gemm per batch element and group),
 * pooling (nn_pool.c) and normalization layers (nn_norm.c). Results are NEW
 * references or NULL with the error recorded; arguments are borrowed. */
#ifndef TSR_OPS_NN_CONV_H
#define TSR_OPS_NN_CONV_H
#include <stdbool.h>
#include "../tensor.h"

/* at::conv1d / at::conv2d (nsp 1 or 2 spatial dims): input unbatched
 * (nsp + 1 dims) or batched; bias NULL or 1-D; stride/padding/dilation as
 * given (n* entries, expanded from one as _convolution does); padmode NULL
 * for int padding, else "same" / "valid" (conv1d's str overload). float32
 * with a batch > 1, groups > 1 or big kernels is oneDNN's in 1.13 and runs
 * through the same oneDNN primitive here (nn_dnnl.c). */
tsr_tensor *tsr_nn_conv(const tsr_tensor *input, const tsr_tensor *weight, const tsr_tensor *bias, int nsp,
                        int nstride, const int64_t *stride, int npad, const int64_t *padding, int ndil,
                        const int64_t *dilation, int64_t groups, const char *padmode);

/* Internal: 0 for a CPU or meta tensor, else -1 with NotImplementedError
 * (these kernels read CPU memory; the CUDA backend has none of them). */
int tsr__nn_cpu_only(const char *op, const tsr_tensor *t);

/* Internal (nn_conv.c, for nn_conv_grad.c): ConvParams::use_mkldnn of 1.13
 * for a 4-D input and weight (one thread), and the im2col of one batch
 * element and group (src at channel 0, element strides sc/sh/sw; dst
 * [C*kh*kw][P], or [P][kh*kw*C] when cl; zeros in the padding). */
bool tsr__conv_use_mkldnn(const tsr_tensor *x, const tsr_tensor *w, const int64_t *stride, const int64_t *dil,
                          int64_t groups);
void tsr__conv_unfold(char *dst, const char *src, int isz, int64_t C, int64_t H, int64_t W, int64_t sc, int64_t sh,
                      int64_t sw, const int64_t *k, const int64_t *st, const int64_t *pd, const int64_t *dl, int64_t OH,
                      int64_t OW, bool cl);

/* ConvolutionBackward0 (nn_conv_grad.c): 1.13's convolution_backward for a
 * batched input (N, C, *dim spatial) and weight, stride / padding /
 * dilation / output_padding of dim entries each, the backend the forward
 * chose. mask[i]: whether the gradient of input, weight, bias is wanted;
 * *gi / *gw / *gb receive NEW references (NULL when not wanted). 0 or -1. */
int tsr_nn_conv_backward(const tsr_tensor *g, const tsr_tensor *input, const tsr_tensor *weight, int dim,
                         const int64_t *stride, const int64_t *padding, const int64_t *dilation, bool transposed,
                         const int64_t *opad, int64_t groups, const bool *mask, tsr_tensor **gi, tsr_tensor **gw,
                         tsr_tensor **gb);

/* at::conv2d's first check (int padding only; not conv1d / conv3d /
 * convolution): a bias of another dtype than x raises "Input type (float)
 * and bias type (double) should be the same" (TypeMeta names). 0 or -1. */
int tsr_nn_conv2d_bias_check(const tsr_tensor *x, const tsr_tensor *bias);

/* F.conv1d / conv2d (opad NULL) and conv_transpose1d / 2d (opad given, nopad
 * entries) with 1.13's graph when an input requires grad (grad mode on):
 * the batchify UnsqueezeBackward0, 'same''s ConstantPadNdBackward0 (odd
 * total padding), ConvolutionBackward0 over (input, weight, bias), the
 * SqueezeBackward1 of an unbatched result. Arguments as tsr_nn_conv /
 * tsr_nn_conv_transpose; complex inputs that need a graph are refused
 * (NotImplementedError). NEW reference or NULL. */
tsr_tensor *tsr_nn_conv_graph(const tsr_tensor *input, const tsr_tensor *weight, const tsr_tensor *bias, int nsp,
                              int nstride, const int64_t *stride, int npad, const int64_t *padding, int ndil,
                              const int64_t *dilation, int64_t groups, const char *padmode, int nopad,
                              const int64_t *opad);

/* at::conv_transpose1d / conv_transpose2d (slow_conv_transpose2d: gemm +
 * col2im, exact for every dtype it dispatches: float32/64, int64). */
tsr_tensor *tsr_nn_conv_transpose(const tsr_tensor *input, const tsr_tensor *weight, const tsr_tensor *bias, int nsp,
                                  int nstride, const int64_t *stride, int npad, const int64_t *padding, int nopad,
                                  const int64_t *opad, int64_t groups, int ndil, const int64_t *dilation);

/* Internal (nn_conv3d.c, for nn_conv.c): ConvParams::use_mkldnn of 1.13 for a 5-D input
 * and weight (its size(-1), size(-2) and input.size(0..3) tests). */
bool tsr__conv3d_use_mkldnn(const tsr_tensor *x, const tsr_tensor *w, const int64_t *stride, const int64_t *dil,
                            int64_t groups);

/* Internal (nn_conv3d.c, for nn_conv.c): the batched 3-d convolution after _convolution's
 * checks: Mkldnn (float32, nn_dnnl.c), Slow3d (ConvolutionMM3d.cpp) or
 * SlowDilated3d (NaiveDilatedConvolution.cpp), the output contiguous;
 * st/pd/dl three entries each. NEW reference or NULL. */
tsr_tensor *tsr__conv3d_forward(const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias, const int64_t *st,
                                const int64_t *pd, const int64_t *dl, int64_t groups);

/* Internal (nn_conv3d.c, for nn_conv.c): slow_conv_transpose3d (ConvTranspose3d.cpp: gemm,
 * col2vol, the bias added) per group, after _convolution's checks; op the
 * output padding. NEW reference or NULL. */
tsr_tensor *tsr__conv_transpose3d_forward(const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias,
                                          const int64_t *st, const int64_t *pd, const int64_t *dl, const int64_t *op,
                                          int64_t groups);
/* Internal (nn_conv3d.c, for nn_conv_grad.c): tsr_nn_conv_backward of a
 * 3-d convolution (input N, C, T, H, W), the backend the forward chose. */
int tsr__conv3d_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, const int64_t *st,
                         const int64_t *pd, const int64_t *dl, bool transposed, int64_t groups, const bool *mask,
                         tsr_tensor **gi, tsr_tensor **gw, tsr_tensor **gb);

/* torch.conv_tbc(input (time, batch, in), weight (kw, in, out), bias (out),
 * pad) as 1.13's ConvolutionTBC.cpp: the bias copied into the output, one
 * addmm_ per kernel tap; its checks and messages. NEW reference or NULL. */
tsr_tensor *tsr_nn_conv_tbc(const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *b, int64_t pad);
/* conv_tbc_backward: *gi, *gw, *gb NEW (all three). 0 or -1. */
int tsr_nn_conv_tbc_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *b,
                             int64_t pad, tsr_tensor **gi, tsr_tensor **gw, tsr_tensor **gb);

/* Pooling (nn_pool.c). Lists come with their lengths (n* 0 for an absent
 * stride: the kernel size); the checks and messages are the ATen op's.
 * indices: NULL when not wanted, else receives the int64 indices (NEW). */
tsr_tensor *tsr_nn_max_pool1d(const tsr_tensor *x, int nk, const int64_t *k, int ns, const int64_t *s, int np,
                              const int64_t *pd, int nd, const int64_t *dl, bool ceil, tsr_tensor **indices);
tsr_tensor *tsr_nn_max_pool2d(const tsr_tensor *x, int nk, const int64_t *k, int ns, const int64_t *s, int np,
                              const int64_t *pd, int nd, const int64_t *dl, bool ceil, tsr_tensor **indices);
tsr_tensor *tsr_nn_avg_pool1d(const tsr_tensor *x, int nk, const int64_t *k, int ns, const int64_t *s, int np,
                              const int64_t *pd, bool ceil, bool count_include_pad);
tsr_tensor *tsr_nn_avg_pool2d(const tsr_tensor *x, int nk, const int64_t *k, int ns, const int64_t *s, int np,
                              const int64_t *pd, bool ceil, bool count_include_pad, bool has_divisor, int64_t divisor);
tsr_tensor *tsr_nn_adaptive_avg_pool1d(const tsr_tensor *x, int n, const int64_t *osz);
tsr_tensor *tsr_nn_adaptive_avg_pool2d(const tsr_tensor *x, int n, const int64_t *osz);
tsr_tensor *tsr_nn_adaptive_max_pool1d(const tsr_tensor *x, int n, const int64_t *osz, tsr_tensor **indices);
tsr_tensor *tsr_nn_adaptive_max_pool2d(const tsr_tensor *x, int n, const int64_t *osz, tsr_tensor **indices);
/* F.pad's non-constant modes ("reflect", "replicate", "circular") after
 * pad_symint's common checks: reflection_pad / replication_pad{1,2,3}d and
 * _pad_circular with their checks; a value other than 0 is refused. */
tsr_tensor *tsr_nn_pad_mode(const tsr_tensor *x, int npad, const int64_t *pad, const char *mode, bool has_value,
                            double value);

/* Normalization (nn_norm.c). layer_norm over the trailing dims given by
 * shape (weight and bias NULL or of that shape); float32 and float64. */
tsr_tensor *tsr_nn_layer_norm(const tsr_tensor *x, int nshape, const int64_t *shape, const tsr_tensor *w,
                              const tsr_tensor *b, double eps);
/* batch_norm (batch_norm_cpu): training uses the batch statistics and
 * updates running_mean / running_var in place (when given) with momentum;
 * evaluation uses the running ones (required). */
tsr_tensor *tsr_nn_batch_norm(const tsr_tensor *x, tsr_tensor *running_mean, tsr_tensor *running_var,
                              const tsr_tensor *w, const tsr_tensor *b, bool training, double momentum, double eps);
/* group_norm (input of 2+ dims, C divisible by groups) and instance_norm
 * (at::instance_norm's batch_norm over (1, N * C, *)). */
tsr_tensor *tsr_nn_group_norm(const tsr_tensor *x, int64_t groups, const tsr_tensor *w, const tsr_tensor *b, double eps);
tsr_tensor *tsr_nn_instance_norm(const tsr_tensor *x, tsr_tensor *running_mean, tsr_tensor *running_var,
                                 const tsr_tensor *w, const tsr_tensor *b, bool use_input_stats, double momentum,
                                 double eps);
/* alpha_dropout (Dropout.cpp's _dropout_impl with alpha): noise from the
 * default generator's bernoulli_(1 - p), x * noise * a + b; in place writes x. */
tsr_tensor *tsr_nn_alpha_dropout(tsr_tensor *x, double p, bool train, bool inplace);
/* local_response_norm: 1.13's Python composition (x / (avg of squares over
 * size channels * alpha + k) ** beta). */
/* bilinear: at::bilinear's checks, _trilinear's per-feature bmm pairs,
 * plus bias. */
tsr_tensor *tsr_nn_bilinear(const tsr_tensor *x1, const tsr_tensor *x2, const tsr_tensor *w, const tsr_tensor *bias);
tsr_tensor *tsr_nn_local_response_norm(const tsr_tensor *x, int64_t size, double alpha, double beta, double k);

/* Convolution on a device (nn_conv_dev.c), composed of device-aware ops:
 * im2col windows as an as_strided view copied contiguous, a bmm per group
 * (cuBLAS), the bias added; a transposed convolution as the plain one over
 * the zero-spread, padded input with the flipped weight. */
static inline bool tsr__conv_external(const tsr_tensor *t)
{
    return t && t->device.type != TSR_DEV_CPU && t->device.type != TSR_DEV_META;
}
/* Before anything else when x, weight or bias is on a device: all three on
 * one device with one dtype, or check_input_same_type_as_parameters'
 * message. 0 or -1. */
int tsr__conv_dev_check(const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias);
/* The batched x (N, C, S...) and w ((O, C / groups) or, transposed, (C,
 * O / groups), k...) after _convolution's checks; st/pd/dl/op dim entries.
 * NEW reference or NULL. */
tsr_tensor *tsr__conv_dev(const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias, int dim, const int64_t *st,
                          const int64_t *pd, const int64_t *dl, const int64_t *op, int64_t groups, bool transposed);
/* tsr_nn_conv_backward on a device; *gi, *gw, *gb NEW (NULL when not
 * asked for; the caller releases what is set on -1). 0 or -1. */
int tsr__conv_dev_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, int dim, const int64_t *st,
                           const int64_t *pd, const int64_t *dl, bool transposed, int64_t groups, const bool *mask,
                           tsr_tensor **gi, tsr_tensor **gw, tsr_tensor **gb);

#endif
