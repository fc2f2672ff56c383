/* runtime/ops/nn_dnnl.h — the runtime's calls into oneDNN (libdnnl, loaded
 * with dlopen on first use; nn_dnnl.c): float32 and bfloat16 convolution
 * forward and backward as 1.13's mkldnn_convolution, gelu's eltwise
 * kernel, and the bfloat16 matrix products 1.13 hands to oneDNN on CPUs
 * with AVX-512 (mkldnn_bf16_gemm, mkldnn_matmul). Internal to runtime/ops. */
#ifndef TSR_OPS_NN_DNNL_H
#define TSR_OPS_NN_DNNL_H
#include <stdbool.h>
#include <stdint.h>
#include "../tensor.h"

/* Internal (nn_dnnl.c): out = conv2d(x, w, bias) in float32 or bfloat16 through oneDNN
 * as 1.13's mkldnn_convolution; 0 done, 1 when oneDNN is unavailable (the
 * caller computes it), -1 with the error recorded. */
int tsr__conv2d_dnnl(tsr_tensor *out, const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias,
                     const int64_t *st, const int64_t *pd, const int64_t *dl, int64_t groups, bool cl);

/* Internal (nn_dnnl.c): 1.13's mkldnn_convolution_backward in float32 or bfloat16:
 * gi (grad of x, contiguous in x's backend layout) and gw (contiguous
 * O,C/g,kh,kw) and gb (O) written where non-NULL (gb needs gw); 0 done, 1
 * when oneDNN is unavailable, -1 with the error recorded. */
int tsr__conv2d_dnnl_backward(tsr_tensor *gi, tsr_tensor *gw, tsr_tensor *gb, const tsr_tensor *g,
                              const tsr_tensor *x, const tsr_tensor *w, const int64_t *st, const int64_t *pd,
                              const int64_t *dl, int64_t groups, bool cl);

/* 1.13's mkldnn_bf16_device_check() (nn_dnnl.c): bfloat16 convolution,
 * matmul and gelu run through oneDNN on this CPU. */
bool tsr__dnnl_bf16_usable(void);
/* mkldnn_bf16_gemm (nn_dnnl.c): column-major bfloat16 gemm through oneDNN's
 * matmul where tsr__dnnl_bf16_usable and m * n * k > 16^3, alpha != 0.
 * 1: not taken, 0: done, -1: error. */
int tsr__bf16_gemm_dnnl(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const void *a, int64_t lda,
                        const void *b, int64_t ldb, float beta, void *c, int64_t ldc);
/* mkldnn_matmul (nn_dnnl.c) for aten::bmm / baddbmm (m1, m2, result 3-d),
 * aten::mv (m1 2-d, m2 1-d, result 1-d) and aten::dot (m1, m2 1-d, result
 * one element) of bfloat16, after the caller's use_mkldnn_bf16_matmul
 * check; result holds beta's part already. 0 or -1. */
int tsr__bf16_mkldnn_matmul(const tsr_tensor *m1, const tsr_tensor *m2, tsr_tensor *result, float beta, float alpha);

/* gelu(approximate='none') of float32 (bfloat16 where tsr__dnnl_bf16_usable) through oneDNN's eltwise_gelu_erf
 * (1.13's path for a contiguous input of more than one element): the
 * forward (g NULL) or the gradient for g. New tensor or NULL. */
tsr_tensor *tsr__gelu_dnnl(const tsr_tensor *x, const tsr_tensor *g);
#endif
