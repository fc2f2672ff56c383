/* runtime/ops/blas_cuda.h — the matmul family on a device whose memory the
 * host cannot read (cuda): 1.13's cuda/Blas.cpp (addmm_out_cuda_impl,
 * baddbmm_out_cuda_impl, addmv_out_cuda, dot_cuda) mapped onto the backend's
 * one gemm entry (device.h). Internal to blas.c, which does the shape and
 * dtype checks that CPU and CUDA share and calls these after them. */
#ifndef TSR_OPS_BLAS_CUDA_H
#define TSR_OPS_BLAS_CUDA_H
#include <stdbool.h>
#include "../tensor.h"

/* Whether t lives on a device the host cannot read (neither cpu nor meta). */
bool tsr__blas_external(const tsr_tensor *t);

/* The dispatcher's device check in front of a CUDA kernel (1.13's
 * RegisterCUDA.cpp wrapper: check_and_update_common_device over the out
 * arguments, then the positional ones, in ts order; NULL entries skipped):
 * "Expected all tensors to be on the same device, but found at least two
 * devices, cuda:0 and cpu! (when checking argument for argument mat2 in
 * method wrapper_mm)". Checks only when one of ts is external (cpu and meta
 * keep their own rules). 0 or -1 with the error recorded. */
int tsr__blas_device_check(const char *method, int n, const tsr_tensor *const *ts, const char *const *names);

/* result = beta*self + alpha*m1@m2 on the device (addmm_out_cuda_impl after
 * the meta checks; result sized, self expanded to it or result itself). */
int tsr__cuda_addmm(tsr_tensor *result, const tsr_tensor *self, const tsr_tensor *m1, const tsr_tensor *m2,
                    tsr_scalar beta, tsr_scalar alpha);
/* result (holding self's values already unless beta is 0) = beta*result +
 * alpha*b1@b2 per batch (baddbmm_out_cuda_impl). */
int tsr__cuda_baddbmm(tsr_tensor *result, const tsr_tensor *b1, const tsr_tensor *b2, tsr_scalar beta,
                      tsr_scalar alpha);
/* r (holding beta's part already) = beta*r + alpha*mat@vec (addmv_out_cuda's
 * gemv). */
int tsr__cuda_addmv(tsr_tensor *r, const tsr_tensor *mat, const tsr_tensor *vec, tsr_scalar beta, tsr_scalar alpha);
/* r (0-dim, on the device) = a . b (dot_cuda; shapes and dtypes checked). */
int tsr__cuda_dot(tsr_tensor *r, const tsr_tensor *a, const tsr_tensor *b);

#endif
