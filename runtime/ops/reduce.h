/* runtime/ops/reduce.h — reductions (sum, mean, prod, var/std, max/min,
 * argmax, all/any, logsumexp, softmax) on PyTorch 1.13's reduction iterator:
 * the same dimension order, the same 2-d slabs and the same accumulation
 * order (SumKernel.cpp's cascade sum, Reduce.h, WelfordOps), so float
 * results equal 1.13's to the last bit at one thread.
 * Ownership: results are NEW references; arguments are borrowed; an out=
 * tensor is resized as PyTorch does and returned (a new reference to it). */
#ifndef TSR_OPS_REDUCE_H
#define TSR_OPS_REDUCE_H
#include <stdbool.h>
#include <stdint.h>
#include "../tensor.h"
#include "reduce_dims.h"

/* sum / nansum / mean / nanmean (dtype: TSR_DTYPE_UNDEFINED when not given).
 * Integral and bool inputs sum to int64; mean of an integral input is
 * 1.13's "mean(): could not infer output dtype..." RuntimeError. */
tsr_tensor *tsr_sum(const tsr_tensor *x, const tsr_dims *dims, bool keepdim, tsr_dtype dtype, tsr_tensor *out);
tsr_tensor *tsr_nansum(const tsr_tensor *x, const tsr_dims *dims, bool keepdim, tsr_dtype dtype, tsr_tensor *out);
tsr_tensor *tsr_mean(const tsr_tensor *x, const tsr_dims *dims, bool keepdim, tsr_dtype dtype, tsr_tensor *out);
tsr_tensor *tsr_nanmean(const tsr_tensor *x, const tsr_dims *dims, bool keepdim, tsr_dtype dtype, tsr_tensor *out);
/* prod over one dim (dim NULL: all). */
tsr_tensor *tsr_prod(const tsr_tensor *x, const int64_t *dim, bool keepdim, tsr_dtype dtype, tsr_tensor *out);

/* var / std (take_sqrt) with an integer correction; with mean_out non-NULL
 * also the mean (var_mean / std_mean, *mean_out a new reference). fname is
 * how errors name the call ("var", "std_mean"). NULL with the error. */
tsr_tensor *tsr_var(const tsr_tensor *x, const tsr_dims *dims, int64_t correction, bool keepdim, bool take_sqrt,
                    tsr_tensor *out, tsr_tensor **mean_out, const char *fname);

/* amax / amin over dims (is_max picks). */
tsr_tensor *tsr_amax(const tsr_tensor *x, const tsr_dims *dims, bool keepdim, bool is_max, tsr_tensor *out);
/* max() / min() of the whole tensor: a 0-dim tensor. */
tsr_tensor *tsr_max_all(const tsr_tensor *x, bool is_max);
/* max(dim) / min(dim): values and indices (new references) into *values and
 * *indices, written into ov / oi when given. 0 or -1. */
int tsr_max_dim(const tsr_tensor *x, int64_t dim, bool keepdim, bool is_max, tsr_tensor *ov, tsr_tensor *oi,
                tsr_tensor **values, tsr_tensor **indices);
/* argmax / argmin (dim NULL: of the flattened tensor). */
tsr_tensor *tsr_argmax(const tsr_tensor *x, const int64_t *dim, bool keepdim, bool is_max, tsr_tensor *out);
/* all / any (dim NULL: all dims). */
tsr_tensor *tsr_all_any(const tsr_tensor *x, const int64_t *dim, bool keepdim, bool is_all, tsr_tensor *out);
/* count_nonzero over dims: int64. */
tsr_tensor *tsr_count_nonzero(const tsr_tensor *x, const tsr_dims *dims);
/* logsumexp over dims (integral input: in the default dtype); out must be
 * floating ("logsumexp(): Expected floating point type for result tensor,
 * but got: Long"). */
tsr_tensor *tsr_logsumexp(const tsr_tensor *x, const tsr_dims *dims, bool keepdim, tsr_tensor *out);
/* softmax / log_softmax (lg) along dim, x first cast to dtype when given;
 * float32, float64 and bfloat16 kernels (others, float16 included: 1.13's
 * "softmax_kernel_impl" not implemented message). */
tsr_tensor *tsr_softmax(const tsr_tensor *x, int64_t dim, tsr_dtype dtype, bool lg);
/* _softmax_backward_data (lg: _log_softmax_backward_data) of bfloat16,
 * float32 or float64 as 1.13's vectorised CPU kernels compute it (grad and
 * out of out's dtype). New tensor or NULL. */
tsr_tensor *tsr_softmax_backward_kernel(const tsr_tensor *grad, const tsr_tensor *out, int64_t dim, bool lg);

/* torch.isclose: |a-b| <= atol + rtol*|b| (NaNs equal when equal_nan);
 * dtypes must match ("Int did not match Float"). */
tsr_tensor *tsr_isclose(const tsr_tensor *a, const tsr_tensor *b, double rtol, double atol, bool equal_nan);
/* isclose / eq, then all (reduce_cmp.c). */
/* torch.allclose: 1 true, 0 false, -1 error. */
int tsr_allclose(const tsr_tensor *a, const tsr_tensor *b, double rtol, double atol, bool equal_nan);
/* torch.equal: same shape and equal values (compared in the common dtype):
 * 1, 0, or -1 on error. */
int tsr_equal(const tsr_tensor *a, const tsr_tensor *b);

#endif
