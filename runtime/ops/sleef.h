/* runtime/ops/sleef.h — PyTorch 1.13's AVX2 Vectorized<float>/<double> math:
 * the same Sleef entry points (vec256_float.h, vec256_double.h) on contiguous
 * arrays. Private to the unary kernels. Call only when tsr__sleef_usable(). */
#ifndef TSR_OPS_SLEEF_H
#define TSR_OPS_SLEEF_H
#include <stdbool.h>
#include <stdint.h>

/* ORDER SLEEF */
typedef enum {
    TSR_SLEEF_ACOS, TSR_SLEEF_ASIN, TSR_SLEEF_ATAN, TSR_SLEEF_COS, TSR_SLEEF_COSH,
    TSR_SLEEF_ERF, TSR_SLEEF_ERFC, TSR_SLEEF_EXP, TSR_SLEEF_EXPM1, TSR_SLEEF_LGAMMA,
    TSR_SLEEF_LOG, TSR_SLEEF_LOG10, TSR_SLEEF_LOG1P, TSR_SLEEF_LOG2, TSR_SLEEF_SIN,
    TSR_SLEEF_SINH, TSR_SLEEF_TAN, TSR_SLEEF_TANH,
    TSR_SLEEF_SIGMOID,       /* sigmoid_kernel's vector body: 1 / (1 + exp(0 - x)) */
    TSR_SLEEF_COUNT
} tsr_sleef_op;

/* True when this CPU runs PyTorch's AVX2 kernels (AVX2 and FMA), so the
 * Sleef paths apply; otherwise the kernels keep libm, as 1.13's DEFAULT
 * build does. */
bool tsr__sleef_usable(void);

/* out[i] = op(in[i]) for n contiguous elements, every one through the
 * 8-lane (float) or 4-lane (double) Sleef function, the last partial vector
 * included (vec::map pads it). out may equal in. */
void tsr__sleef_f32(tsr_sleef_op op, float *out, const float *in, int64_t n);
void tsr__sleef_f64(tsr_sleef_op op, double *out, const double *in, int64_t n);

/* Binary: out[i] = op(a[i * sa], b[i * sb]), sa and sb 1 or 0 (a broadcast
 * scalar), n a multiple of 8 (float) or 4 (double): cpu_kernel_vec's chunks.
 * ORDER SLEEF2 */
typedef enum { TSR_SLEEF2_ATAN2, TSR_SLEEF2_HYPOT, TSR_SLEEF2_POW, TSR_SLEEF2_COUNT } tsr_sleef2_op;
void tsr__sleef2_f32(tsr_sleef2_op op, float *out, const float *a, int64_t sa, const float *b, int64_t sb, int64_t n);
void tsr__sleef2_f64(tsr_sleef2_op op, double *out, const double *a, int64_t sa, const double *b, int64_t sb,
                     int64_t n);

/* Complex exp as Vectorized<c10::complex<T>>::exp: n complex numbers,
 * interleaved (re, im); out may equal in. */
void tsr__sleef_cexp_f64(double *out, const double *in, int64_t n);
void tsr__sleef_cexp_f32(float *out, const float *in, int64_t n);

#endif
