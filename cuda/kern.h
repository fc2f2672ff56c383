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

/* Whether kernel k has a body for compute type c (k_ctype): the same
 * question for the device and the simulator. */
KHD bool k_supported(int k, int c)
{
    if (c < 0) return false;
    if (c >= 4) return k == TSR_K_COPY;   /* complex: the same dtype's words, copied */
    bool i = c == 0, f = c == 1 || c == 2, b = c == 3;
    switch (k) {
    case TSR_K_COPY: case TSR_K_ADD: case TSR_K_MUL: case TSR_K_MAXIMUM: case TSR_K_MINIMUM:
    case TSR_K_EQ: case TSR_K_NE: case TSR_K_LT: case TSR_K_LE: case TSR_K_GT: case TSR_K_GE:
    case TSR_K_ABS:
        return i || f || b;
    case TSR_K_NEG: case TSR_K_RELU:
        return i || f;
    case TSR_K_DIV: case TSR_K_EXP: case TSR_K_LOG: case TSR_K_SQRT: case TSR_K_SIN: case TSR_K_COS:
    case TSR_K_TANH: case TSR_K_SIGMOID:
        return f;
    default:
        return false;
    }
}

/* ------------------------------------------------------------ bodies */

/* integer arithmetic wraps (two's complement), as ATen's on int64 */
KHD int64_t k_wrap(uint64_t v) { return (int64_t)v; }

KHD float k_exp(float x) { return expf(x); }
KHD double k_exp(double x) { return exp(x); }
KHD float k_log(float x) { return logf(x); }
KHD double k_log(double x) { return log(x); }
KHD float k_sqrt(float x) { return sqrtf(x); }
KHD double k_sqrt(double x) { return sqrt(x); }
KHD float k_sin(float x) { return sinf(x); }
KHD double k_sin(double x) { return sin(x); }
KHD float k_cos(float x) { return cosf(x); }
KHD double k_cos(double x) { return cos(x); }
KHD float k_tanh(float x) { return tanhf(x); }
KHD double k_tanh(double x) { return tanh(x); }
KHD float k_fabs(float x) { return fabsf(x); }
KHD double k_fabs(double x) { return fabs(x); }

template <typename C> struct KOps {   /* float and double */
    static KHD C add(C a, C b, const tsr_klaunch &g) { return a + (C)g.alpha_d * b; }
    static KHD C mul(C a, C b) { return a * b; }
    static KHD C div(C a, C b) { return a / b; }
    static KHD C maximum(C a, C b) { return a != a ? a : b != b ? b : a < b ? b : a; }
    static KHD C minimum(C a, C b) { return a != a ? a : b != b ? b : b < a ? b : a; }
    static KHD C neg(C a) { return -a; }
    static KHD C abs(C a) { return k_fabs(a); }
    static KHD C exp(C a) { return k_exp(a); }
    static KHD C log(C a) { return k_log(a); }
    static KHD C sqrt(C a) { return k_sqrt(a); }
    static KHD C sin(C a) { return k_sin(a); }
    static KHD C cos(C a) { return k_cos(a); }
    static KHD C tanh(C a) { return k_tanh(a); }
    static KHD C sigmoid(C a) { return (C)1 / ((C)1 + k_exp(-a)); }
    static KHD C relu(C a) { return a != a ? a : a < 0 ? (C)0 : a; }
};

template <> struct KOps<int64_t> {
    static KHD int64_t add(int64_t a, int64_t b, const tsr_klaunch &g)
    {
        return k_wrap((uint64_t)a + (uint64_t)b * (uint64_t)g.alpha_i);
    }
    static KHD int64_t mul(int64_t a, int64_t b) { return k_wrap((uint64_t)a * (uint64_t)b); }
    static KHD int64_t div(int64_t a, int64_t b) { return b ? a / b : 0; }   /* unused: true division is float */
    static KHD int64_t maximum(int64_t a, int64_t b) { return a < b ? b : a; }
    static KHD int64_t minimum(int64_t a, int64_t b) { return b < a ? b : a; }
    static KHD int64_t neg(int64_t a) { return k_wrap(0 - (uint64_t)a); }
    static KHD int64_t abs(int64_t a) { return a < 0 ? k_wrap(0 - (uint64_t)a) : a; }
    static KHD int64_t exp(int64_t a) { return a; }
    static KHD int64_t log(int64_t a) { return a; }
    static KHD int64_t sqrt(int64_t a) { return a; }
    static KHD int64_t sin(int64_t a) { return a; }
    static KHD int64_t cos(int64_t a) { return a; }
    static KHD int64_t tanh(int64_t a) { return a; }
    static KHD int64_t sigmoid(int64_t a) { return a; }
    static KHD int64_t relu(int64_t a) { return a < 0 ? 0 : a; }
};

template <> struct KOps<bool> {
    static KHD bool add(bool a, bool b, const tsr_klaunch &g) { return a || (b && g.alpha_i); }
    static KHD bool mul(bool a, bool b) { return a && b; }
    static KHD bool div(bool a, bool b) { return a && b; }   /* unused */
    static KHD bool maximum(bool a, bool b) { return a || b; }
    static KHD bool minimum(bool a, bool b) { return a && b; }
    static KHD bool neg(bool a) { return a; }
    static KHD bool abs(bool a) { return a; }
    static KHD bool exp(bool a) { return a; }
    static KHD bool log(bool a) { return a; }
    static KHD bool sqrt(bool a) { return a; }
    static KHD bool sin(bool a) { return a; }
    static KHD bool cos(bool a) { return a; }
    static KHD bool tanh(bool a) { return a; }
    static KHD bool sigmoid(bool a) { return a; }
    static KHD bool relu(bool a) { return a; }
};

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
    if constexpr (KIsRaw<C>::v) {
        const char *a = k_in(g, 1, off);
        for (int j = 0; j < (int)sizeof(C); j++) o[j] = a[j];
        return;
    } else {
    C a = k_load<C>(k_in(g, 1, off), g.dtype[1]);
    typedef KOps<C> O;
    switch (K) {
    case TSR_K_COPY: k_store<C>(o, g.dtype[0], a); return;
    case TSR_K_NEG: k_store<C>(o, g.dtype[0], O::neg(a)); return;
    case TSR_K_ABS: k_store<C>(o, g.dtype[0], O::abs(a)); return;
    case TSR_K_EXP: k_store<C>(o, g.dtype[0], O::exp(a)); return;
    case TSR_K_LOG: k_store<C>(o, g.dtype[0], O::log(a)); return;
    case TSR_K_SQRT: k_store<C>(o, g.dtype[0], O::sqrt(a)); return;
    case TSR_K_SIN: k_store<C>(o, g.dtype[0], O::sin(a)); return;
    case TSR_K_COS: k_store<C>(o, g.dtype[0], O::cos(a)); return;
    case TSR_K_TANH: k_store<C>(o, g.dtype[0], O::tanh(a)); return;
    case TSR_K_SIGMOID: k_store<C>(o, g.dtype[0], O::sigmoid(a)); return;
    case TSR_K_RELU: k_store<C>(o, g.dtype[0], O::relu(a)); return;
    default: break;
    }
    C b = k_load<C>(k_in(g, 2, off), g.dtype[2]);
    switch (K) {
    case TSR_K_ADD: k_store<C>(o, g.dtype[0], O::add(a, b, g)); return;
    case TSR_K_MUL: k_store<C>(o, g.dtype[0], O::mul(a, b)); return;
    case TSR_K_DIV: k_store<C>(o, g.dtype[0], O::div(a, b)); return;
    case TSR_K_MAXIMUM: k_store<C>(o, g.dtype[0], O::maximum(a, b)); return;
    case TSR_K_MINIMUM: k_store<C>(o, g.dtype[0], O::minimum(a, b)); return;
    case TSR_K_EQ: k_store<bool>(o, g.dtype[0], a == b); return;
    case TSR_K_NE: k_store<bool>(o, g.dtype[0], a != b); return;
    case TSR_K_LT: k_store<bool>(o, g.dtype[0], a < b); return;
    case TSR_K_LE: k_store<bool>(o, g.dtype[0], a <= b); return;
    case TSR_K_GT: k_store<bool>(o, g.dtype[0], a > b); return;
    case TSR_K_GE: k_store<bool>(o, g.dtype[0], a >= b); return;
    default: return;
    }
    }
}

#endif
