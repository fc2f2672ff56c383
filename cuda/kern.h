/* cuda/kern.h — the elementwise kernels' scalar bodies and the per-element
 * driver, written once for the device (nvcc) and for the simulator (g++,
 * cuda/sim_runtime.h): loads convert each operand from its stored dtype to
 * the compute type (integers in int64 with wrap-around, float16/bfloat16 in
 * float, as ATen's opmath does), the body computes, the store converts to
 * the output's dtype. The kernel numbers and the launch record are
 * runtime/kernels.h's. */
#ifndef TSR_CUDA_KERN_H
#define TSR_CUDA_KERN_H
#include <math.h>
#include <stdint.h>
extern "C" {
#include "kernels.h"
}

#ifdef __CUDACC__
#define KHD __host__ __device__ __forceinline__
#else
#define KHD inline
#endif

/* ------------------------------------------------------------ bits */

KHD uint32_t k_f2u(float f) { union { float f; uint32_t u; } c; c.f = f; return c.u; }
KHD float k_u2f(uint32_t u) { union { float f; uint32_t u; } c; c.u = u; return c.f; }

/* IEEE binary16 <-> float, round to nearest even (c10/util/Half.h). */
KHD float k_half_to_float(uint16_t h)
{
    uint32_t w = (uint32_t)h << 16, sign = w & 0x80000000u, two_w = w + w;
    float normalized = k_u2f((two_w >> 4) + (0xE0u << 23)) * 0x1.0p-112f;
    float denormalized = k_u2f((two_w >> 17) | (126u << 23)) - 0.5f;
    return k_u2f(sign | (two_w < (1u << 27) ? k_f2u(denormalized) : k_f2u(normalized)));
}

KHD uint16_t k_float_to_half(float f)
{
    float base = (fabsf(f) * 0x1.0p+112f) * 0x1.0p-110f;
    uint32_t w = k_f2u(f), shl1_w = w + w, sign = w & 0x80000000u, bias = shl1_w & 0xFF000000u;
    if (bias < 0x71000000u) bias = 0x71000000u;
    base = k_u2f((bias >> 1) + 0x07800000u) + base;
    uint32_t bits = k_f2u(base), nonsign = ((bits >> 13) & 0x00007C00u) + (bits & 0x00000FFFu);
    return (uint16_t)((sign >> 16) | (shl1_w > 0xFF000000u ? 0x7E00u : nonsign));
}

/* bfloat16 <-> float (c10/util/BFloat16.h: round to nearest even, NaN 0x7fc0). */
KHD float k_bf16_to_float(uint16_t b) { return k_u2f((uint32_t)b << 16); }
KHD uint16_t k_float_to_bf16(float f)
{
    if (f != f) return 0x7FC0u;
    uint32_t u = k_f2u(f);
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

/* ------------------------------------------------------------ loads and stores */

template <typename C> KHD C k_from_int(int64_t v) { return (C)v; }
template <typename C> KHD C k_from_float(double v) { return (C)v; }
template <> KHD int64_t k_from_float<int64_t>(double v) { return (int64_t)v; }
template <> KHD bool k_from_float<bool>(double v) { return v != 0; }

/* The value at p (stored as dtype dt) in the compute type C. */
template <typename C> KHD C k_load(const char *p, int dt)
{
    switch (dt) {
    case TSR_KD_UINT8: return (C) * (const uint8_t *)p;
    case TSR_KD_INT8: return (C) * (const int8_t *)p;
    case TSR_KD_INT16: return (C) * (const int16_t *)p;
    case TSR_KD_INT32: return (C) * (const int32_t *)p;
    case TSR_KD_INT64: return (C) * (const int64_t *)p;
    case TSR_KD_FLOAT16: return (C)k_half_to_float(*(const uint16_t *)p);
    case TSR_KD_BFLOAT16: return (C)k_bf16_to_float(*(const uint16_t *)p);
    case TSR_KD_FLOAT32: return (C) * (const float *)p;
    case TSR_KD_FLOAT64: return (C) * (const double *)p;
    case TSR_KD_BOOL: return (C)(*(const uint8_t *)p != 0);
    /* a complex value read as a real one: its real part (as a cast) */
    case TSR_KD_COMPLEX32: return (C)k_half_to_float(*(const uint16_t *)p);
    case TSR_KD_COMPLEX64: return (C) * (const float *)p;
    case TSR_KD_COMPLEX128: return (C) * (const double *)p;
    default: return (C)0;
    }
}

/* Stores v (compute type C) at p as dtype dt: integers wrap, floats round. */
template <typename C> KHD void k_store(char *p, int dt, C v)
{
    switch (dt) {
    case TSR_KD_UINT8: *(uint8_t *)p = (uint8_t)(int64_t)v; return;
    case TSR_KD_INT8: *(int8_t *)p = (int8_t)(int64_t)v; return;
    case TSR_KD_INT16: *(int16_t *)p = (int16_t)(int64_t)v; return;
    case TSR_KD_INT32: *(int32_t *)p = (int32_t)(int64_t)v; return;
    case TSR_KD_INT64: *(int64_t *)p = (int64_t)v; return;
    case TSR_KD_FLOAT16: *(uint16_t *)p = k_float_to_half((float)v); return;
    case TSR_KD_BFLOAT16: *(uint16_t *)p = k_float_to_bf16((float)v); return;
    case TSR_KD_FLOAT32: *(float *)p = (float)v; return;
    case TSR_KD_FLOAT64: *(double *)p = (double)v; return;
    case TSR_KD_BOOL: *(uint8_t *)p = v ? 1 : 0; return;
    /* a real value into a complex output (out=): imaginary part zero */
    case TSR_KD_COMPLEX32: ((uint16_t *)p)[0] = k_float_to_half((float)v); ((uint16_t *)p)[1] = 0; return;
    case TSR_KD_COMPLEX64: ((float *)p)[0] = (float)v; ((float *)p)[1] = 0; return;
    case TSR_KD_COMPLEX128: ((double *)p)[0] = (double)v; ((double *)p)[1] = 0; return;
    default: return;
    }
}

/* ------------------------------------------------------------ compute types */

/* Which C++ type a compute dtype computes in: 0 int64, 1 float, 2 double,
 * 3 bool; complex dtypes are only copied, as 4-, 8- or 16-byte words (4, 5, 6). */
KHD int k_ctype(int dt)
{
    switch (dt) {
    case TSR_KD_COMPLEX32: return 4;
    case TSR_KD_COMPLEX64: return 5;
    case TSR_KD_COMPLEX128: return 6;
    case TSR_KD_UINT8: case TSR_KD_INT8: case TSR_KD_INT16: case TSR_KD_INT32: case TSR_KD_INT64: return 0;
    case TSR_KD_FLOAT16: case TSR_KD_BFLOAT16: case TSR_KD_FLOAT32: return 1;
    case TSR_KD_FLOAT64: return 2;
    case TSR_KD_BOOL: return 3;
    default: return -1;
    }
}

/* Whether kernel k has a body for compute dtype dt: the dtypes 1.13's CUDA
 * kernel dispatches (AT_DISPATCH_* of aten/src/ATen/native/cuda), the same
 * question for the device and the simulator. */
KHD bool k_supported(int k, int dt)
{
    int c = k_ctype(dt);
    if (c < 0) return false;
    if (c >= 4) return k == TSR_K_COPY || k == TSR_K_WHERE;   /* complex: the same dtype's words, moved */
    bool i = c == 0, f = c == 1 || c == 2, b = c == 3;
    switch (k) {
    case TSR_K_COPY: case TSR_K_ADD: case TSR_K_MUL: case TSR_K_MAXIMUM: case TSR_K_MINIMUM:
    case TSR_K_EQ: case TSR_K_NE: case TSR_K_LT: case TSR_K_LE: case TSR_K_GT: case TSR_K_GE:
    case TSR_K_ABS: case TSR_K_LOGICAL_AND: case TSR_K_LOGICAL_OR: case TSR_K_LOGICAL_XOR: case TSR_K_FMAX:
    case TSR_K_FMIN: case TSR_K_HEAVISIDE: case TSR_K_SIGN: case TSR_K_LOGICAL_NOT: case TSR_K_ISNAN:
    case TSR_K_ISINF: case TSR_K_ISFINITE: case TSR_K_SIGNBIT: case TSR_K_NAN_TO_NUM: case TSR_K_WHERE:
        return i || f || b;
    case TSR_K_NEG: case TSR_K_RELU: case TSR_K_POW: case TSR_K_DIV_TRUNC: case TSR_K_DIV_FLOOR:
    case TSR_K_REMAINDER: case TSR_K_FMOD: case TSR_K_FLOOR: case TSR_K_CEIL: case TSR_K_ROUND: case TSR_K_TRUNC:
    case TSR_K_CLAMP: case TSR_K_ADDCMUL:
        return i || f;
    case TSR_K_BITAND: case TSR_K_BITOR: case TSR_K_BITXOR: case TSR_K_BITNOT:
        return i || b;
    case TSR_K_LSHIFT: case TSR_K_RSHIFT: case TSR_K_GCD: case TSR_K_LCM:
        return i;
    case TSR_K_NEXTAFTER:   /* float, double and (c10's) bfloat16 */
        return f && dt != TSR_KD_FLOAT16;
    case TSR_K_DIV: case TSR_K_EXP: case TSR_K_LOG: case TSR_K_SQRT: case TSR_K_SIN: case TSR_K_COS:
    case TSR_K_TANH: case TSR_K_SIGMOID: case TSR_K_ATAN2: case TSR_K_HYPOT: case TSR_K_COPYSIGN:
    case TSR_K_XLOGY: case TSR_K_XLOG1PY: case TSR_K_LOGADDEXP: case TSR_K_LOGADDEXP2: case TSR_K_RECIPROCAL:
    case TSR_K_RSQRT: case TSR_K_EXP2: case TSR_K_EXPM1: case TSR_K_LOG2: case TSR_K_LOG10: case TSR_K_LOG1P:
    case TSR_K_FRAC: case TSR_K_SINH: case TSR_K_COSH: case TSR_K_TAN: case TSR_K_ASIN: case TSR_K_ACOS:
    case TSR_K_ATAN: case TSR_K_ASINH: case TSR_K_ACOSH: case TSR_K_ATANH: case TSR_K_ERF: case TSR_K_ERFC:
    case TSR_K_ERFINV: case TSR_K_LGAMMA: case TSR_K_DIGAMMA: case TSR_K_MULC: case TSR_K_LOGIT:
    case TSR_K_ROUND_DEC: case TSR_K_LERP: case TSR_K_ADDCDIV: case TSR_K_SINC: case TSR_K_ENTR:
    case TSR_K_POLYGAMMA:
        return f;
    case TSR_K_POLY:   /* the polynomials: float and double */
    case TSR_K_NDTRI: case TSR_K_ERFCX: case TSR_K_LOG_NDTR: case TSR_K_IGAMMA: case TSR_K_IGAMMAC:
    case TSR_K_ANGLE:
    case TSR_K_ZETA:   /* zeta_cuda: float and double */
        return f && dt != TSR_KD_FLOAT16 && dt != TSR_KD_BFLOAT16;
    default:   /* SUB: add with a negated alpha */
        return false;
    }
}

/* The number of inputs of kernel K. */
template <int K> struct KArity;
#define K_ARITY_(id, n) template <> struct KArity<TSR_K_##id> { static const int v = n; };
TSR_KERNEL_LIST(K_ARITY_)
#undef K_ARITY_

/* Whether kernel K gives bool (comparisons, predicates, logical ops). */
template <int K> struct KBoolOut {
    static const bool v = K == TSR_K_EQ || K == TSR_K_NE || K == TSR_K_LT || K == TSR_K_LE || K == TSR_K_GT ||
                          K == TSR_K_GE || K == TSR_K_LOGICAL_AND || K == TSR_K_LOGICAL_OR ||
                          K == TSR_K_LOGICAL_XOR || K == TSR_K_LOGICAL_NOT || K == TSR_K_ISNAN ||
                          K == TSR_K_ISINF || K == TSR_K_ISFINITE || K == TSR_K_SIGNBIT;
};

template <typename C> struct KIsF { static const bool v = false; };
template <> struct KIsF<float> { static const bool v = true; };
template <> struct KIsF<double> { static const bool v = true; };

/* ------------------------------------------------------------ math */

/* integer arithmetic wraps (two's complement), as ATen's on int64 */
KHD int64_t k_wrap(uint64_t v) { return (int64_t)v; }

/* a product in the compute type (integers wrap, bools and) */
KHD float k_mul(float a, float b) { return a * b; }
KHD double k_mul(double a, double b) { return a * b; }
KHD int64_t k_mul(int64_t a, int64_t b) { return k_wrap((uint64_t)a * (uint64_t)b); }
KHD bool k_mul(bool a, bool b) { return a && b; }

#define K_M1(nm) KHD float k_##nm(float x) { return nm##f(x); } KHD double k_##nm(double x) { return nm(x); }
#define K_M2(nm) KHD float k_##nm(float x, float y) { return nm##f(x, y); } \
                 KHD double k_##nm(double x, double y) { return nm(x, y); }
K_M1(exp) K_M1(log) K_M1(sqrt) K_M1(sin) K_M1(cos) K_M1(tanh) K_M1(fabs) K_M1(exp2) K_M1(expm1) K_M1(log2)
K_M1(log10) K_M1(log1p) K_M1(floor) K_M1(ceil) K_M1(nearbyint) K_M1(trunc) K_M1(sinh) K_M1(cosh) K_M1(tan)
K_M1(asin) K_M1(acos) K_M1(atan) K_M1(asinh) K_M1(acosh) K_M1(atanh) K_M1(erf) K_M1(erfc) K_M1(lgamma)
K_M2(atan2) K_M2(hypot) K_M2(copysign) K_M2(fmax) K_M2(fmin) K_M2(nextafter) K_M2(fmod) K_M2(pow)
#undef K_M1
#undef K_M2

#ifdef __CUDACC__
KHD float k_rsqrt(float x) { return rsqrtf(x); }
KHD double k_rsqrt(double x) { return rsqrt(x); }
KHD float k_erfinv(float x) { return erfinvf(x); }
KHD double k_erfinv(double x) { return erfinv(x); }
#else
/* The simulator: 1 / sqrt, and erfinv as aten/src/ATen/native/Math.h's
 * calc_erfinv (the host library has none); the device's rsqrt and erfinv
 * are CUDA's (a few ulp apart). */
KHD float k_rsqrt(float x) { return 1.0f / sqrtf(x); }
KHD double k_rsqrt(double x) { return 1.0 / sqrt(x); }
template <typename T> KHD T k_erfinv_t(T y)
{
    const T a[4] = {(T)0.886226899, (T)-1.645349621, (T)0.914624893, (T)-0.140543331};
    const T b[4] = {(T)-2.118377725, (T)1.442710462, (T)-0.329097515, (T)0.012229801};
    const T c[4] = {(T)-1.970840454, (T)-1.624906493, (T)3.429567803, (T)1.641345311};
    const T d[2] = {(T)3.543889200, (T)1.637067800};
    T x, z, num, dem, y_abs = k_fabs(y);
    if (y_abs > (T)1.0) return (T)NAN;
    if (y_abs == (T)1.0) return k_copysign((T)INFINITY, y);
    if (y_abs <= (T)0.7) {
        z = y * y;
        num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0];
        dem = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + (T)1.0;
        x = y * num / dem;
    } else {
        z = k_sqrt(-k_log(((T)1.0 - y_abs) / (T)2.0));
        num = ((c[3] * z + c[2]) * z + c[1]) * z + c[0];
        dem = (d[1] * z + d[0]) * z + (T)1.0;
        x = k_copysign(num, y) / dem;
    }
    const T two_over_sqrtpi = (T)1.1283791670955126;
    x = x - (k_erf(x) - y) / (two_over_sqrtpi * k_exp(-x * x));
    x = x - (k_erf(x) - y) / (two_over_sqrtpi * k_exp(-x * x));
    return x;
}
KHD float k_erfinv(float x) { return k_erfinv_t<float>(x); }
KHD double k_erfinv(double x) { return k_erfinv_t<double>(x); }
#endif

/* calc_digamma (aten/src/ATen/native/cuda/Math.cuh), in the compute type. */
template <typename T> KHD T k_digamma(T x)
{
    const double PI_f64 = 3.14159265358979323846;
    const T PSI_10 = (T)2.25175258906672110764;
    const T A[] = {(T)8.33333333333333333333E-2, (T)-2.10927960927960927961E-2, (T)7.57575757575757575758E-3,
                   (T)-4.16666666666666666667E-3, (T)3.96825396825396825397E-3, (T)-8.33333333333333333333E-3,
                   (T)8.33333333333333333333E-2};
    if (x == 0) return k_copysign((T)INFINITY, -x);
    T result = 0;
    if (x < 0) {
        if (x == k_trunc(x)) return (T)NAN;
        double r = (double)x - trunc((double)x);   /* std::modf's fraction */
        result = (T)(-PI_f64 / tan(PI_f64 * r));
        x = 1 - x;
    }
    while (x < 10) {
        result -= 1 / x;
        x += 1;
    }
    if (x == 10) return result + PSI_10;
    T y = 0;
    if (x < (T)1.0e17) {
        T z = 1 / (x * x), p = 0;
        for (int i = 0; i <= 6; i++) p = p * z + A[i];
        y = z * p;
    }
    return k_log(x) - ((T)0.5 / x) - y + result;
}

/* zeta (aten/src/ATen/native/Math.h, after Cephes), in the compute type as
 * CUDA's zeta<scalar_t, true> (acc_type<float, true> is float). */
template <typename T> KHD T k_zeta(T x, T q)
{
    const T MACHEP = (T)1.11022302462515654042E-16;
    const T A[] = {(T)12.0, (T)-720.0, (T)30240.0, (T)-1209600.0, (T)47900160.0, (T)-1.8924375803183791606e9,
                   (T)7.47242496e10, (T)-2.950130727918164224e12, (T)1.1646782814350067249e14,
                   (T)-4.5979787224074726105e15, (T)1.8152105401943546773e17, (T)-7.1661652561756670113e18};
    if (x == 1) return (T)INFINITY;
    if (x < 1) return (T)NAN;
    if (q <= 0) {
        if (q == k_floor(q)) return (T)INFINITY;
        if (x != k_floor(x)) return (T)NAN;
    }
    T s = k_pow(q, -x), a = q, b = 0;
    int i = 0;
    while (i < 9 || a <= (T)9.0) {
        i += 1;
        a += 1;
        b = k_pow(a, -x);
        s += b;
        if (-MACHEP * s < b && b < MACHEP * s) return s;
    }
    T w = a, k = 0, t;
    s += b * w / (x - 1);
    s -= (T)0.5 * b;
    a = 1;
    for (int j = 0; j < 12; j++) {
        a *= x + k;
        b /= w;
        t = a * b / A[j];
        s = s + t;
        t = k_fabs(t / s);
        if (t < MACHEP) return s;
        k += 1;
        a *= x + k;
        b /= w;
        k += 1;
    }
    return s;
}

/* calc_trigamma (aten/src/ATen/native/cuda/Math.cuh) */
template <typename T> KHD T k_trigamma(T x)
{
    const T PI = (T)3.14159265358979323846;
    T sign = +1, result = 0;
    if (x < (T)0.5) {
        sign = -1;
        T sin_pi_x = k_sin(PI * x);
        result -= (PI * PI) / (sin_pi_x * sin_pi_x);
        x = 1 - x;
    }
    for (int i = 0; i < 6; ++i) {
        result += 1 / (x * x);
        x += 1;
    }
    const T one = 1, ixx = 1 / (x * x);
    result += (1 + 1 / (2 * x) + ixx * (one / 6 - ixx * (one / 30 - ixx * (one / 42)))) / x;
    return sign * result;
}

/* polygamma_kernel_cuda: trigamma for n == 1, else calc_polygamma */
template <typename T> KHD T k_polygamma(T x, int64_t n)
{
    if (n == 1) return k_trigamma(x);
    const T one = 1;
    return ((n % 2) ? one : -one) * k_exp(k_lgamma((T)n + one)) * k_zeta((T)(n + 1), x);
}

/* The orthogonal polynomials of torch.special: runtime/ops/special_poly.h
 * (1.13's Math.h, host and device functions there), for float and double. */
#define static static KHD
#define T float
#define F(n) n##_kf
#include "ops/special_poly.h"
#undef F
#undef T
#define T double
#define F(n) n##_kd
#include "ops/special_poly.h"
#undef F
#undef T
#undef static

/* static_cast<int64_t>(n) of a floating n as the GPU converts (cvt.rzi
 * saturates; NaN gives 0). */
template <typename T> KHD int64_t k_to_i64(T n)
{
    if (n != n) return 0;
    if (n >= (T)9223372036854775807.0) return INT64_MAX;
    if (n <= (T)-9223372036854775807.0) return INT64_MIN;
    return (int64_t)n;
}

#define K_POLY_(T, S)                                                                              \
    KHD T k_poly(int which, T x, T nf)                                                             \
    {                                                                                              \
        int64_t n = k_to_i64(nf);                                                                  \
        switch (which) {                                                                           \
        case 0: return chebyshev_polynomial_t_forward##S(x, n);                                   \
        case 1: return chebyshev_polynomial_u_forward##S(x, n);                                   \
        case 2: return chebyshev_polynomial_v_forward##S(x, n);                                   \
        case 3: return chebyshev_polynomial_w_forward##S(x, n);                                   \
        case 4: return shifted_chebyshev_polynomial_t_forward##S(x, n);                           \
        case 5: return shifted_chebyshev_polynomial_u_forward##S(x, n);                           \
        case 6: return shifted_chebyshev_polynomial_v_forward##S(x, n);                           \
        case 7: return shifted_chebyshev_polynomial_w_forward##S(x, n);                           \
        case 8: return hermite_polynomial_h_forward##S(x, n);                                     \
        case 9: return hermite_polynomial_he_forward##S(x, n);                                    \
        case 10: return laguerre_polynomial_l_forward##S(x, n);                                   \
        default: return legendre_polynomial_p_forward##S(x, n);                                   \
        }                                                                                          \
    }
K_POLY_(float, _kf)
K_POLY_(double, _kd)
#undef K_POLY_

/* erfcx (runtime/ops/special_erfcx.h, 1.13's Math.h) and calc_log_ndtr. */
#define static static KHD
#define GL_exp(a) k_exp(a)
#define T float
#define F(n) n##_kf
#include "ops/special_erfcx.h"
#undef F
#undef T
#define T double
#define F(n) n##_kd
#include "ops/special_erfcx.h"
#undef F
#undef T
#undef GL_exp
#undef static
/* igamma / igammac (runtime/ops/special_igamma.h, 1.13's Math.h; CUDA's
 * IGammaKernel.cu computes them alike in the compute type) */
#define SM_FN static KHD
#define SM_TABLE static const
#define PI_F 3.14159265358979323846f
#define T float
#define IS_DBL 0
#define F(n) n##_kf
#include "ops/special_igamma.h"
#undef F
#undef IS_DBL
#undef T
#define T double
#define IS_DBL 1
#define F(n) n##_kd
#include "ops/special_igamma.h"
#undef F
#undef IS_DBL
#undef T
#undef PI_F
#undef SM_TABLE
#undef SM_FN
KHD float k_igamma(float a, float x) { return calc_igamma_kf(a, x); }
KHD double k_igamma(double a, double x) { return calc_igamma_kd(a, x); }
KHD float k_igammac(float a, float x) { return calc_igammac_kf(a, x); }
KHD double k_igammac(double a, double x) { return calc_igammac_kd(a, x); }
KHD float k_erfcx(float x) { return calc_erfcx_kf(x); }
KHD double k_erfcx(double x) { return calc_erfcx_kd(x); }
template <typename T> KHD T k_log_ndtr(T x)
{
    T t = x * (T)0.707106781186547524400844362104849039;
    if (x < (T)-1.0) return k_log(k_erfcx(-t) / 2) - t * t;
    return k_log1p(-k_erfc(t) / 2);
}

/* polevl (Math.h) */
template <typename T> KHD T k_polevl(T x, const T *A, int len)
{
    T result = 0;
    for (int i = 0; i <= len; i++) result = result * x + A[i];
    return result;
}

/* calc_ndtri (aten/src/ATen/native/Math.h, after Cephes), in the compute type. */
template <typename T> KHD T k_ndtri(T y0)
{
    const T s2pi = (T)2.50662827463100050242E0, one = 1, zero = 0;
    const T P0[5] = {(T)-5.99633501014107895267E1, (T)9.80010754185999661536E1, (T)-5.66762857469070293439E1,
                     (T)1.39312609387279679503E1, (T)-1.23916583867381258016E0};
    const T Q0[9] = {(T)1.00000000000000000000E0, (T)1.95448858338141759834E0, (T)4.67627912898881538453E0,
                     (T)8.63602421390890590575E1, (T)-2.25462687854119370527E2, (T)2.00260212380060660359E2,
                     (T)-8.20372256168333339912E1, (T)1.59056225126211695515E1, (T)-1.18331621121330003142E0};
    const T P1[9] = {(T)4.05544892305962419923E0, (T)3.15251094599893866154E1, (T)5.71628192246421288162E1,
                     (T)4.40805073893200834700E1, (T)1.46849561928858024014E1, (T)2.18663306850790267539E0,
                     (T)-1.40256079171354495875E-1, (T)-3.50424626827848203418E-2, (T)-8.57456785154685413611E-4};
    const T Q1[9] = {(T)1.00000000000000000000E0, (T)1.57799883256466749731E1, (T)4.53907635128879210584E1,
                     (T)4.13172038254672030440E1, (T)1.50425385692907503408E1, (T)2.50464946208309415979E0,
                     (T)-1.42182922854787788574E-1, (T)-3.80806407691578277194E-2, (T)-9.33259480895457427372E-4};
    const T P2[9] = {(T)3.23774891776946035970E0, (T)6.91522889068984211695E0, (T)3.93881025292474443415E0,
                     (T)1.33303460815807542389E0, (T)2.01485389549179081538E-1, (T)1.23716634817820021358E-2,
                     (T)3.01581553508235416007E-4, (T)2.65806974686737550832E-6, (T)6.23974539184983293730E-9};
    const T Q2[9] = {(T)1.00000000000000000000E0, (T)6.02427039364742014255E0, (T)3.67983563856160859403E0,
                     (T)1.37702099489081330271E0, (T)2.16236993594496635890E-1, (T)1.34204006088543189037E-2,
                     (T)3.28014464682127739104E-4, (T)2.89247864745380683936E-6, (T)6.79019408009981274425E-9};
    if (y0 == zero) return -(T)INFINITY;
    if (y0 == one) return (T)INFINITY;
    if (y0 < zero || y0 > one) return (T)NAN;
    bool code = true;
    T y = y0;
    if (y > one - (T)0.13533528323661269189) {   /* 0.135... = exp(-2) */
        y = one - y;
        code = false;
    }
    if (y > (T)0.13533528323661269189) {
        y = y - (T)0.5;
        const T y2 = y * y;
        T x = y + y * (y2 * k_polevl(y2, P0, 4) / k_polevl(y2, Q0, 8));
        return x * s2pi;
    }
    T x = k_sqrt((T)-2.0 * k_log(y));
    const T x0 = x - k_log(x) / x, z = one / x;
    T x1 = x < (T)8.0 ? z * k_polevl(z, P1, 8) / k_polevl(z, Q1, 8) : z * k_polevl(z, P2, 8) / k_polevl(z, Q2, 8);
    x = x0 - x1;
    return code ? -x : x;
}

/* A float16/bfloat16 intermediate (c10::Half arithmetic rounds each step):
 * v rounded to the compute dtype when that is one of them. */
KHD float k_round_to(int dt, float v)
{
    if (dt == TSR_KD_FLOAT16) return k_half_to_float(k_float_to_half(v));
    if (dt == TSR_KD_BFLOAT16) return k_bf16_to_float(k_float_to_bf16(v));
    return v;
}
KHD double k_round_to(int, double v) { return v; }

/* c10's nextafter of BFloat16 (c10/util/BFloat16-math.h): steps the 16-bit pattern. */
KHD float k_nextafter_bf16(float from, float to)
{
    if (from != from || to != to) return from + to;
    uint16_t f = k_float_to_bf16(from), t = k_float_to_bf16(to);
    if (f == t) return from;
    uint16_t af = f & 0x7fff, at = t & 0x7fff;
    if (af == 0) {
        if (at == 0) return to;
        return k_bf16_to_float((uint16_t)((t & 0x8000) | 1));
    }
    if (af > at || ((f ^ t) & 0x8000)) f--;
    else f++;
    return k_bf16_to_float(f);
}

/* Integer division as the device does it: a quotient by zero is -1 (all
 * bits set) and a remainder by zero the dividend, without an error (the
 * ZeroDivisionError is CPU-only in PyTorch; a GPU gives unspecified values);
 * INT64_MIN / -1 wraps. */
KHD int64_t k_idiv(int64_t a, int64_t b)
{
    if (b == 0) return -1;
    if (b == -1) return k_wrap(0 - (uint64_t)a);
    return a / b;
}
KHD int64_t k_irem(int64_t a, int64_t b)
{
    if (b == 0) return a;
    if (b == -1) return 0;
    return a % b;
}
KHD bool k_signs_differ(int64_t a, int64_t b) { return (a < 0) != (b < 0); }

/* powi (aten/src/ATen/native/cuda/Pow.cuh) */
KHD int64_t k_powi(int64_t a, int64_t b)
{
    if (b < 0) {
        if (a == 1) return 1;
        if (a == -1) return (-b) % 2 ? -1 : 1;
        return 0;
    }
    uint64_t r = 1, x = (uint64_t)a;
    while (b) {
        if (b & 1) r *= x;
        b /= 2;
        x *= x;
    }
    return (int64_t)r;
}

/* Bits of an integral compute dtype, and whether it is signed (shifts). */
KHD int k_bits(int dt)
{
    switch (dt) {
    case TSR_KD_UINT8: case TSR_KD_INT8: return 8;
    case TSR_KD_INT16: return 16;
    case TSR_KD_INT32: return 32;
    default: return 64;
    }
}

/* calc_gcd in the dtype's width w (signed): abs(INT8_MIN) stays -128 in
 * int8, as the CPU's and CUDA's scalar_t arithmetic leave it */
KHD int64_t k_narrow(int64_t v, int w) { return w >= 64 ? v : (int64_t)((uint64_t)v << (64 - w)) >> (64 - w); }

KHD int64_t k_gcd(int64_t a, int64_t b, int w = 64)
{
    a = k_narrow(a < 0 ? k_wrap(0 - (uint64_t)a) : a, w);
    b = k_narrow(b < 0 ? k_wrap(0 - (uint64_t)b) : b, w);
    while (a != 0) {
        int64_t c = a;
        a = b % a;
        b = c;
    }
    return b;
}

/* ------------------------------------------------------------ bodies */

/* The unary kernels of compute type C (float, double, int64 or bool). */
template <int K, typename C> KHD C k_unary(C a, const tsr_klaunch &g)
{
    switch (K) {
    case TSR_K_COPY: return a;
    case TSR_K_NEG:
        if constexpr (KIsF<C>::v) return -a;
        else return (C)k_wrap(0 - (uint64_t)a);
    case TSR_K_ABS:
        if constexpr (KIsF<C>::v) return k_fabs(a);
        else if constexpr (sizeof(C) == 1) return a;   /* bool */
        else return a < 0 ? (C)k_wrap(0 - (uint64_t)a) : a;
    case TSR_K_RELU:
        if constexpr (sizeof(C) == 1) return a;
        else return a != a ? a : a < 0 ? (C)0 : a;
    case TSR_K_SIGN:
        if constexpr (sizeof(C) == 1) return a;   /* bool */
        else return (C)((0 < a) - (a < 0));
    case TSR_K_BITNOT:
        if constexpr (KIsF<C>::v) return a;
        else if constexpr (sizeof(C) == 1) return !a;
        else return ~a;
    case TSR_K_FLOOR: case TSR_K_CEIL: case TSR_K_ROUND: case TSR_K_TRUNC: case TSR_K_NAN_TO_NUM:
        if constexpr (!KIsF<C>::v) return a;   /* integers: the identity */
        else break;
    default: break;
    }
    if constexpr (KIsF<C>::v) {
        switch (K) {
        case TSR_K_EXP: return k_exp(a);
        case TSR_K_LOG: return k_log(a);
        case TSR_K_SQRT: return k_sqrt(a);
        case TSR_K_SIN: return k_sin(a);
        case TSR_K_COS: return k_cos(a);
        case TSR_K_TANH: return k_tanh(a);
        case TSR_K_SIGMOID: return (C)1 / ((C)1 + k_exp(-a));
        case TSR_K_RECIPROCAL: return (C)1 / a;
        case TSR_K_RSQRT: return k_rsqrt(a);
        case TSR_K_EXP2: return k_exp2(a);
        case TSR_K_EXPM1: return k_expm1(a);
        case TSR_K_LOG2: return k_log2(a);
        case TSR_K_LOG10: return k_log10(a);
        case TSR_K_LOG1P: return k_log1p(a);
        case TSR_K_FLOOR: return k_floor(a);
        case TSR_K_CEIL: return k_ceil(a);
        case TSR_K_ROUND: return k_nearbyint(a);
        case TSR_K_TRUNC: return k_trunc(a);
        case TSR_K_FRAC: return a - k_trunc(a);
        case TSR_K_SINH: return k_sinh(a);
        case TSR_K_COSH: return k_cosh(a);
        case TSR_K_TAN: return k_tan(a);
        case TSR_K_ASIN: return k_asin(a);
        case TSR_K_ACOS: return k_acos(a);
        case TSR_K_ATAN: return k_atan(a);
        case TSR_K_ASINH: return k_asinh(a);
        case TSR_K_ACOSH: return k_acosh(a);
        case TSR_K_ATANH: return k_atanh(a);
        case TSR_K_ERF: return k_erf(a);
        case TSR_K_ERFC: return k_erfc(a);
        case TSR_K_ERFINV: return k_erfinv(a);
        case TSR_K_LGAMMA: return k_lgamma(a);
        case TSR_K_DIGAMMA: return k_digamma<C>(a);
        case TSR_K_NAN_TO_NUM:
            return a != a ? (C)g.p.d[0] : a == (C)INFINITY ? (C)g.p.d[1] : a == -(C)INFINITY ? (C)g.p.d[2] : a;
        case TSR_K_MULC: return a * (C)g.p.d[0];
        case TSR_K_LOGIT: {
            if (g.p.mode) {
                C lo = (C)g.p.d[0], hi = (C)1 - lo;
                a = a < lo ? lo : a > hi ? hi : a;
            }
            return k_log(a / ((C)1 - a));
        }
        case TSR_K_ROUND_DEC: {
            C t = (C)g.p.d[0];
            return g.p.mode ? k_nearbyint(a / t) * t : k_nearbyint(a * t) / t;
        }
        case TSR_K_SINC: {   /* UnarySpecialOpsKernel.cu */
            if (a == 0) return (C)1;
            C product = (C)3.14159265358979323846 * a;
            return k_sin(product) / product;
        }
        case TSR_K_POLYGAMMA: return k_polygamma<C>(a, g.p.i);
        case TSR_K_NDTRI: return k_ndtri<C>(a);
        case TSR_K_ANGLE: return a != a ? a : a < 0 ? (C)3.14159265358979323846 : (C)0;
        case TSR_K_ERFCX: return k_erfcx(a);
        case TSR_K_LOG_NDTR: return k_log_ndtr<C>(a);
        case TSR_K_ENTR:
            if (a != a) return a;
            if (a > 0) return -a * k_log(a);
            if (a == 0) return 0;
            return -(C)INFINITY;
        default: break;
        }
    }
    return a;
}

/* The unary predicates (bool results). */
template <int K, typename C> KHD bool k_predicate(C a)
{
    switch (K) {
    case TSR_K_LOGICAL_NOT: return !(a != 0);
    case TSR_K_ISNAN: return a != a;
    case TSR_K_ISINF:
        if constexpr (KIsF<C>::v) return a == (C)INFINITY || a == -(C)INFINITY;
        else return false;
    case TSR_K_ISFINITE:
        if constexpr (KIsF<C>::v) return a == a && a != (C)INFINITY && a != -(C)INFINITY;
        else return true;
    case TSR_K_SIGNBIT:
        if constexpr (KIsF<C>::v) return signbit(a);
        else if constexpr (sizeof(C) == 1) return false;
        else return a < 0;
    default: return false;
    }
}

/* The binary kernels giving C. */
template <int K, typename C> KHD C k_binary(C a, C b, const tsr_klaunch &g)
{
    if constexpr (KIsF<C>::v) {
        switch (K) {
        case TSR_K_ADD: return a + (C)g.alpha_d * b;
        case TSR_K_MUL: return a * b;
        case TSR_K_DIV: return a / b;
        case TSR_K_MAXIMUM: return a != a ? a : b != b ? b : a < b ? b : a;
        case TSR_K_MINIMUM: return a != a ? a : b != b ? b : b < a ? b : a;
        case TSR_K_POW:
            switch (g.p.mode) {   /* PowKernel.cu: c10::Half arithmetic rounds each step */
            case TSR_KPOW_SQUARE: return a * a;
            case TSR_KPOW_CUBE: return k_round_to(g.compute, a * a) * a;
            case TSR_KPOW_SQRT: return k_sqrt(a);
            case TSR_KPOW_RSQRT: return k_rsqrt(a);
            case TSR_KPOW_RECIPROCAL: return (C)1 / a;
            case TSR_KPOW_INV_SQUARE: return (C)1 / k_round_to(g.compute, a * a);
            default: return k_pow(a, b);
            }
        case TSR_K_DIV_TRUNC: return k_trunc(a / b);
        case TSR_K_DIV_FLOOR: {   /* div_floor_floating (BinaryOps.h) */
            if (b == 0) return a / b;
            C mod = k_fmod(a, b), div = (a - mod) / b;
            if (mod != 0 && (b < 0) != (mod < 0)) div -= (C)1;
            if (div == 0) return k_copysign((C)0, a / b);
            C fl = k_floor(div);
            if (div - fl > (C)0.5) fl += (C)1;
            return fl;
        }
        case TSR_K_REMAINDER: {
            C m = k_fmod(a, b);
            if (m != 0 && ((b < 0) != (m < 0))) m += b;
            return m;
        }
        case TSR_K_FMOD: return k_fmod(a, b);
        case TSR_K_ATAN2: return k_atan2(a, b);
        case TSR_K_HYPOT: return k_hypot(a, b);
        case TSR_K_COPYSIGN: return k_copysign(a, b);
        case TSR_K_FMAX: return k_fmax(a, b);
        case TSR_K_FMIN: return k_fmin(a, b);
        case TSR_K_NEXTAFTER:
            if constexpr (sizeof(C) == 4) {
                if (g.compute == TSR_KD_BFLOAT16) return k_nextafter_bf16(a, b);
            }
            return k_nextafter(a, b);
        case TSR_K_XLOGY:
            if (b != b) return (C)NAN;
            if (a == 0) return 0;
            return a * k_log(b);
        case TSR_K_XLOG1PY:
            if (b != b) return (C)NAN;
            if (a == 0) return 0;
            return a * k_log1p(b);
        case TSR_K_LOGADDEXP: {   /* LogAddExpKernel.cu */
            if ((a == (C)INFINITY || a == -(C)INFINITY) && a == b) return a;
            C m = k_fmax(a, b);
            return m + k_log1p(k_exp(-k_fabs(a - b)));
        }
        case TSR_K_LOGADDEXP2: {
            if ((a == (C)INFINITY || a == -(C)INFINITY) && a == b) return a;
            C m = k_fmax(a, b);
            return m + k_log1p(k_exp2(-k_fabs(a - b))) * (C)(1.0 / 0.693147180559945309417232121458176568);
        }
        case TSR_K_HEAVISIDE: return a == 0 ? b : (C)(a > 0);
        case TSR_K_ZETA: return k_zeta<C>(a, b);
        case TSR_K_POLY: return k_poly(g.p.mode, a, b);
        case TSR_K_IGAMMA: return k_igamma(a, b);
        case TSR_K_IGAMMAC: return k_igammac(a, b);
        default: return a;
        }
    } else if constexpr (sizeof(C) == 8) {   /* int64 */
        switch (K) {
        case TSR_K_ADD: return k_wrap((uint64_t)a + (uint64_t)b * (uint64_t)g.alpha_i);
        case TSR_K_MUL: return k_wrap((uint64_t)a * (uint64_t)b);
        case TSR_K_MAXIMUM: case TSR_K_FMAX: return a < b ? b : a;
        case TSR_K_MINIMUM: case TSR_K_FMIN: return b < a ? b : a;
        case TSR_K_POW: return k_powi(a, b);
        case TSR_K_DIV_TRUNC: return k_idiv(a, b);
        case TSR_K_DIV_FLOOR: {   /* BinaryDivFloorKernel.cu */
            if (b == 0) return -1;
            if (k_signs_differ(a, b)) {
                int64_t q = k_idiv(a, b), r = k_irem(a, b);
                return r ? q - 1 : q;
            }
            return k_idiv(a, b);
        }
        case TSR_K_REMAINDER: {
            int64_t r = k_irem(a, b);
            if (b != 0 && r != 0 && k_signs_differ(r, b)) r += b;
            return r;
        }
        case TSR_K_FMOD: return k_irem(a, b);
        case TSR_K_BITAND: return a & b;
        case TSR_K_BITOR: return a | b;
        case TSR_K_BITXOR: return a ^ b;
        case TSR_K_LSHIFT: {
            /* BinaryShiftOpsKernels.cu shifts in the dtype's width; the
             * hardware clamps an amount past it (PTX shl/shr), as does an
             * amount that is negative read unsigned: 0 or the sign fill */
            int w = k_bits(g.compute);
            if (b < 0 || b >= w) return 0;
            return k_wrap((uint64_t)a << b);
        }
        case TSR_K_RSHIFT: {
            int w = k_bits(g.compute);
            bool uns = g.compute == TSR_KD_UINT8;
            if (b < 0 || b >= w) return uns ? 0 : (a < 0 ? -1 : 0);
            return a >> b;
        }
        case TSR_K_HEAVISIDE: return a == 0 ? b : (int64_t)(a > 0);
        case TSR_K_GCD: return k_gcd(a, b, g.compute == TSR_KD_UINT8 ? 64 : k_bits(g.compute));
        case TSR_K_LCM: {
            int64_t gg = k_gcd(a, b);
            if (gg == 0) return 0;
            int64_t p = k_wrap((uint64_t)(a / gg) * (uint64_t)b);
            return p < 0 ? k_wrap(0 - (uint64_t)p) : p;
        }
        default: return a;
        }
    } else {   /* bool */
        switch (K) {
        case TSR_K_ADD: return a || (b && g.alpha_i);
        case TSR_K_MUL: case TSR_K_MINIMUM: case TSR_K_FMIN: case TSR_K_BITAND: return a && b;
        case TSR_K_MAXIMUM: case TSR_K_FMAX: case TSR_K_BITOR: return a || b;
        case TSR_K_BITXOR: return a != b;
        case TSR_K_HEAVISIDE: return a == 0 ? b : a;
        default: return a;
        }
    }
}

/* The binary kernels giving bool. */
template <int K, typename C> KHD bool k_compare(C a, C b)
{
    switch (K) {
    case TSR_K_EQ: return a == b;
    case TSR_K_NE: return a != b;
    case TSR_K_LT: return a < b;
    case TSR_K_LE: return a <= b;
    case TSR_K_GT: return a > b;
    case TSR_K_GE: return a >= b;
    case TSR_K_LOGICAL_AND: return a != 0 && b != 0;
    case TSR_K_LOGICAL_OR: return a != 0 || b != 0;
    case TSR_K_LOGICAL_XOR: return (a != 0) != (b != 0);
    default: return false;
    }
}

/* The ternary kernels (where's condition comes loaded as C: 0 or 1). */
template <int K, typename C> KHD C k_ternary(C a, C b, C c, const tsr_klaunch &g)
{
    switch (K) {
    case TSR_K_WHERE: return a ? b : c;
    case TSR_K_CLAMP:   /* TensorCompare.cu: NaN propagates, then min(max(v, lo), hi) */
        if constexpr (KIsF<C>::v) {
            if (a != a) return a;
            if ((g.p.mode & 1) && b != b) return b;
            if ((g.p.mode & 2) && c != c) return c;
        }
        if (g.p.mode & 1) a = a < b ? b : a;
        if (g.p.mode & 2) a = c < a ? c : a;
        return a;
    default: break;
    }
    if constexpr (KIsF<C>::v) {
        switch (K) {
        case TSR_K_LERP: {   /* Lerp.h: two formulas split at |weight| < 0.5 */
            C w = g.p.mode ? (C)g.p.d[0] : c;
            return k_fabs(w) < (C)0.5 ? a + w * (b - a) : b - (b - a) * ((C)1 - w);
        }
        case TSR_K_ADDCMUL: return a + (C)g.p.d[0] * (b * c);   /* PointwiseOpsKernel.cu */
        case TSR_K_ADDCDIV: return a + (C)g.p.d[0] * (b / c);
        default: return a;
        }
    } else if constexpr (sizeof(C) == 8) {
        if (K == TSR_K_ADDCMUL) return k_wrap((uint64_t)a + (uint64_t)g.p.i * ((uint64_t)b * (uint64_t)c));
        return a;
    } else {
        return a;
    }
}

/* ------------------------------------------------------------ the element */

/* Byte offsets of element i (linear, in the launch's dim order) in each operand. */
KHD void k_offsets(const tsr_klaunch &g, int64_t i, int64_t *off)
{
    for (int k = 0; k < TSR_K_MAXOPS; k++) off[k] = 0;
    if (g.nd == 1) {
        for (int k = 0; k < g.nops; k++) off[k] = i * g.stride[k][0];
        return;
    }
    for (int d = 0; d < g.nd; d++) {
        int64_t q = i / g.shape[d], idx = i - q * g.shape[d];
        i = q;
        for (int k = 0; k < g.nops; k++) off[k] += idx * g.stride[k][d];
    }
}

KHD const char *k_in(const tsr_klaunch &g, int k, const int64_t *off)
{
    return g.data[k] ? g.data[k] + off[k] : (const char *)g.scalar[k].b;
}

/* An element copied as it is (complex): N bytes. */
template <int N> struct KRaw { unsigned char b[N]; };
template <typename C> struct KIsRaw { static const bool v = false; };
template <int N> struct KIsRaw<KRaw<N> > { static const bool v = true; };

/* out[i] = kernel K of the inputs at i, computed in C. */
template <int K, typename C> KHD void k_element(const tsr_klaunch &g, int64_t i)
{
    int64_t off[TSR_K_MAXOPS];
    k_offsets(g, i, off);
    char *o = g.data[0] + off[0];
    if constexpr (KIsRaw<C>::v) {   /* copy, or where's choice, of whole elements */
        const char *a = k_in(g, 1, off);
        if (K == TSR_K_WHERE) a = k_in(g, *(const unsigned char *)a ? 2 : 3, off);
        for (int j = 0; j < (int)sizeof(C); j++) o[j] = a[j];
        return;
    } else {
        C a = k_load<C>(k_in(g, 1, off), g.dtype[1]);
        if constexpr (KArity<K>::v == 1) {
            if constexpr (KBoolOut<K>::v) k_store<bool>(o, g.dtype[0], k_predicate<K, C>(a));
            else k_store<C>(o, g.dtype[0], k_unary<K, C>(a, g));
        } else {
            C b = k_load<C>(k_in(g, 2, off), g.dtype[2]);
            if constexpr (KArity<K>::v == 2) {
                if constexpr (KBoolOut<K>::v) k_store<bool>(o, g.dtype[0], k_compare<K, C>(a, b));
                else k_store<C>(o, g.dtype[0], k_binary<K, C>(a, b, g));
            } else {
                /* lerp with a scalar weight has two inputs */
                C c = g.nops > 3 ? k_load<C>(k_in(g, 3, off), g.dtype[3]) : (C)0;
                k_store<C>(o, g.dtype[0], k_ternary<K, C>(a, b, c, g));
            }
        }
    }
}

#endif
