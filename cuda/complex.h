/* cuda/complex.h — the elementwise kernels for complex compute types, in
 * their own instantiations beside kern.h's real ones (complex64 and
 * complex128 compute in complex<float> / complex<double>; complex32 adds,
 * multiplies, negates and compares in complex<float>, and otherwise only
 * moves: copies, fills, where). Arithmetic is c10::complex's
 * (c10/util/complex.h of 1.13: the plain product and the unscaled quotient
 * (ac + bd) / (c^2 + d^2)); the transcendental functions are what c10's
 * complex_math.h calls: thrust::complex's on the device, std::complex's on
 * the host (the simulator), as PyTorch's CPU does. */
#ifndef TSR_CUDA_COMPLEX_H
#define TSR_CUDA_COMPLEX_H
#include "kern.h"
#ifdef __CUDACC__
#include <thrust/complex.h>
template <typename T> using KStd = thrust::complex<T>;
#else
#include <complex>
template <typename T> using KStd = std::complex<T>;
#endif

/* A complex value in the compute type T (float or double). */
template <typename T> struct KC {
    T re, im;
};

template <typename T> KHD KC<T> kc(T re, T im) { KC<T> z; z.re = re; z.im = im; return z; }
template <typename T> KHD KC<T> kc_of(const KStd<T> &z) { return kc<T>(z.real(), z.imag()); }
template <typename T> KHD KStd<T> kc_std(KC<T> a) { return KStd<T>(a.re, a.im); }

/* Whether kernel k computes in complex (compute dtype complex64 or
 * complex128): the ops 1.13's CUDA dispatches for complex (the _AND_COMPLEX
 * dispatches of native/cuda), as far as tsr's kernels have them. COPY and
 * WHERE also take complex32, and move whole elements when every operand
 * has the compute dtype. */
KHD constexpr bool kc_kernel(int k)
{
    return k == TSR_K_COPY || k == TSR_K_WHERE || k == TSR_K_ADD || k == TSR_K_MUL || k == TSR_K_DIV ||
           k == TSR_K_EQ || k == TSR_K_NE || k == TSR_K_NEG || k == TSR_K_ABS || k == TSR_K_ANGLE ||
           k == TSR_K_SIGN || k == TSR_K_RECIPROCAL || k == TSR_K_EXP || k == TSR_K_LOG || k == TSR_K_LOG2 ||
           k == TSR_K_LOG10 || k == TSR_K_SQRT || k == TSR_K_RSQRT || k == TSR_K_POW || k == TSR_K_SIN ||
           k == TSR_K_COS || k == TSR_K_TAN || k == TSR_K_SINH || k == TSR_K_COSH || k == TSR_K_TANH ||
           k == TSR_K_ASIN || k == TSR_K_ACOS || k == TSR_K_ATAN || k == TSR_K_ASINH || k == TSR_K_ACOSH ||
           k == TSR_K_ATANH || k == TSR_K_SIGMOID || k == TSR_K_ISNAN || k == TSR_K_ISINF ||
           k == TSR_K_ISFINITE || k == TSR_K_LOGICAL_NOT || k == TSR_K_LOGICAL_AND || k == TSR_K_LOGICAL_OR ||
           k == TSR_K_LOGICAL_XOR || k == TSR_K_ADDCMUL || k == TSR_K_ADDCDIV || k == TSR_K_LERP;
}

KHD bool kc_supported(int k, int dt)
{
    if (dt == TSR_KD_COMPLEX32)   /* ComplexHalf: what 1.13 takes on the CPU too (in complex<float>) */
        return k == TSR_K_COPY || k == TSR_K_WHERE || k == TSR_K_ADD || k == TSR_K_MUL || k == TSR_K_NEG ||
               k == TSR_K_EQ || k == TSR_K_NE || k == TSR_K_ISNAN || k == TSR_K_ISINF || k == TSR_K_ISFINITE;
    return (dt == TSR_KD_COMPLEX64 || dt == TSR_KD_COMPLEX128) && kc_kernel(k);
}

/* ------------------------------------------------------------ loads and stores */

/* The value at p (stored as dt) as a complex: a real dtype's value with
 * imaginary part zero. */
template <typename T> KHD KC<T> kc_load(const char *p, int dt)
{
    switch (dt) {
    case TSR_KD_COMPLEX32:
        return kc<T>((T)k_half_to_float(((const uint16_t *)p)[0]), (T)k_half_to_float(((const uint16_t *)p)[1]));
    case TSR_KD_COMPLEX64: return kc<T>((T)((const float *)p)[0], (T)((const float *)p)[1]);
    case TSR_KD_COMPLEX128: return kc<T>((T)((const double *)p)[0], (T)((const double *)p)[1]);
    default: return kc<T>(k_load<T>(p, dt), (T)0);
    }
}

/* Stores v as dt: a real dtype takes the real part (abs and angle give
 * their value there; a cast discards the imaginary part), bool the truth
 * of v != 0. */
template <typename T> KHD void kc_store(char *p, int dt, KC<T> v)
{
    switch (dt) {
    case TSR_KD_COMPLEX32:
        ((uint16_t *)p)[0] = k_float_to_half((float)v.re);
        ((uint16_t *)p)[1] = k_float_to_half((float)v.im);
        return;
    case TSR_KD_COMPLEX64: ((float *)p)[0] = (float)v.re; ((float *)p)[1] = (float)v.im; return;
    case TSR_KD_COMPLEX128: ((double *)p)[0] = (double)v.re; ((double *)p)[1] = (double)v.im; return;
    case TSR_KD_BOOL: *(uint8_t *)p = v.re != 0 || v.im != 0; return;
    default: k_store<T>(p, dt, v.re); return;
    }
}

/* ------------------------------------------------------------ arithmetic */

template <typename T> KHD KC<T> kc_add(KC<T> a, KC<T> b) { return kc<T>(a.re + b.re, a.im + b.im); }
template <typename T> KHD KC<T> kc_sub(KC<T> a, KC<T> b) { return kc<T>(a.re - b.re, a.im - b.im); }
template <typename T> KHD KC<T> kc_mul(KC<T> a, KC<T> b)
{
    return kc<T>(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
/* c10::complex's operator/ in 1.13 (no scaling) */
template <typename T> KHD KC<T> kc_div(KC<T> a, KC<T> b)
{
    T den = b.re * b.re + b.im * b.im;
    return kc<T>((a.re * b.re + a.im * b.im) / den, (a.im * b.re - a.re * b.im) / den);
}
template <typename T> KHD bool kc_isnan(KC<T> a) { return a.re != a.re || a.im != a.im; }
template <typename T> KHD bool kc_isinf_part(T x) { return x == (T)INFINITY || x == -(T)INFINITY; }
template <typename T> KHD bool kc_nonzero(KC<T> a) { return a.re != 0 || a.im != 0; }

/* reciprocal_wrapper (UnaryFractionKernels.cu): NumPy's answers for NaN and
 * infinite parts, else 1 / v */
template <typename T> KHD KC<T> kc_reciprocal(KC<T> v)
{
    bool re_inf = kc_isinf_part(v.re), im_inf = kc_isinf_part(v.im);
    if (kc_isnan(v) || (re_inf && im_inf)) return kc<T>((T)NAN, (T)NAN);
    if (re_inf || im_inf) return kc<T>((T)0, (T)0);
    return kc_div(kc<T>((T)1, (T)0), v);
}

/* rsqrt_wrapper (UnaryOpsKernel.cu): 1 / sqrt(v) */
template <typename T> KHD KC<T> kc_rsqrt(KC<T> v) { return kc_div(kc<T>((T)1, (T)0), kc_of<T>(sqrt(kc_std(v)))); }

/* ------------------------------------------------------------ bodies */

template <int K, typename T> KHD KC<T> kc_unary(KC<T> a)
{
    KStd<T> z = kc_std(a);
    switch (K) {
    case TSR_K_NEG: return kc<T>(-a.re, -a.im);
    case TSR_K_ABS: return kc<T>(k_hypot(a.re, a.im), (T)0);      /* std::abs */
    case TSR_K_ANGLE: return kc<T>(k_atan2(a.im, a.re), (T)0);    /* std::arg */
    case TSR_K_SIGN: {   /* sgn (UnarySignKernels.cu): z / |z|, zero for zero */
        if (a.re == 0 && a.im == 0) return kc<T>((T)0, (T)0);
        T m = k_hypot(a.re, a.im);
        return kc<T>(a.re / m, a.im / m);
    }
    case TSR_K_RECIPROCAL: return kc_reciprocal(a);
    case TSR_K_RSQRT: return kc_rsqrt(a);
    case TSR_K_SQRT: return kc_of<T>(sqrt(z));
    case TSR_K_EXP: return kc_of<T>(exp(z));
    case TSR_K_LOG: return kc_of<T>(log(z));
    case TSR_K_LOG10: return kc_of<T>(log10(z));
    case TSR_K_LOG2:   /* c10's log2: log(z) / complex(log(2), 0) */
        return kc_div(kc_of<T>(log(z)), kc<T>((T)0.693147180559945309417232121458176568, (T)0));
    case TSR_K_SIN: return kc_of<T>(sin(z));
    case TSR_K_COS: return kc_of<T>(cos(z));
    case TSR_K_TAN: return kc_of<T>(tan(z));
    case TSR_K_SINH: return kc_of<T>(sinh(z));
    case TSR_K_COSH: return kc_of<T>(cosh(z));
    case TSR_K_TANH: return kc_of<T>(tanh(z));
    case TSR_K_ASIN: return kc_of<T>(asin(z));
    case TSR_K_ACOS: return kc_of<T>(acos(z));
    case TSR_K_ATAN: return kc_of<T>(atan(z));
    case TSR_K_ASINH: return kc_of<T>(asinh(z));
    case TSR_K_ACOSH: return kc_of<T>(acosh(z));
    case TSR_K_ATANH: return kc_of<T>(atanh(z));
    case TSR_K_SIGMOID: {   /* UnarySpecialOpsKernel.cu: 1 / (1 + exp(-a)) */
        KC<T> one = kc<T>((T)1, (T)0);
        return kc_div(one, kc_add(one, kc_of<T>(exp(-z))));
    }
    default: return a;
    }
}

template <int K, typename T> KHD bool kc_predicate(KC<T> a)
{
    switch (K) {
    case TSR_K_ISNAN: return kc_isnan(a);
    case TSR_K_ISINF: return kc_isinf_part(a.re) || kc_isinf_part(a.im);
    case TSR_K_ISFINITE: return !kc_isnan(a) && !kc_isinf_part(a.re) && !kc_isinf_part(a.im);
    case TSR_K_LOGICAL_NOT: return !kc_nonzero(a);
    default: return false;
    }
}

template <int K, typename T> KHD bool kc_compare(KC<T> a, KC<T> b)
{
    switch (K) {
    case TSR_K_EQ: return a.re == b.re && a.im == b.im;
    case TSR_K_NE: return a.re != b.re || a.im != b.im;
    case TSR_K_LOGICAL_AND: return kc_nonzero(a) && kc_nonzero(b);
    case TSR_K_LOGICAL_OR: return kc_nonzero(a) || kc_nonzero(b);
    case TSR_K_LOGICAL_XOR: return kc_nonzero(a) != kc_nonzero(b);
    default: return false;
    }
}

template <int K, typename T> KHD KC<T> kc_binary(KC<T> a, KC<T> b, const tsr_klaunch &g)
{
    switch (K) {
    case TSR_K_ADD:   /* a + alpha * b, alpha (alpha_d, p.d[1]) as c10::complex<T> */
        return kc_add(a, kc_mul(kc<T>((T)g.alpha_d, (T)g.p.d[1]), b));
    case TSR_K_MUL: return kc_mul(a, b);
    case TSR_K_DIV: return kc_div(a, b);
    case TSR_K_POW:   /* PowKernel.cu: exponents 0.5, -0.5, -1 take sqrt, rsqrt, reciprocal; else pow */
        switch (g.p.mode) {
        case TSR_KPOW_SQRT: return kc_of<T>(sqrt(kc_std(a)));
        case TSR_KPOW_RSQRT: return kc_rsqrt(a);
        case TSR_KPOW_RECIPROCAL: return kc_reciprocal(a);
        default: return kc_of<T>(pow(kc_std(a), kc_std(b)));
        }
    default: return a;
    }
}

template <int K, typename T> KHD KC<T> kc_ternary(KC<T> a, KC<T> b, KC<T> c, const tsr_klaunch &g)
{
    switch (K) {
    case TSR_K_ADDCMUL:   /* PointwiseOpsKernel.cu: a + value * (b * c) */
        return kc_add(a, kc_mul(kc<T>((T)g.p.d[0], (T)g.p.d[1]), kc_mul(b, c)));
    case TSR_K_ADDCDIV: return kc_add(a, kc_mul(kc<T>((T)g.p.d[0], (T)g.p.d[1]), kc_div(b, c)));
    case TSR_K_LERP: {   /* Lerp.h: the two formulas split at |weight| < 0.5 */
        KC<T> w = g.p.mode ? kc<T>((T)g.p.d[0], (T)g.p.d[1]) : c;
        KC<T> d = kc_sub(b, a);
        if (k_hypot(w.re, w.im) < (T)0.5) return kc_add(a, kc_mul(w, d));
        return kc_sub(b, kc_mul(d, kc_sub(kc<T>((T)1, (T)0), w)));
    }
    default: return a;
    }
}

/* out[i] = kernel K of the inputs at i, computed in complex<T>. */
template <int K, typename T> KHD void kc_element(const tsr_klaunch &g, int64_t i)
{
    int64_t off[TSR_K_MAXOPS];
    k_offsets(g, i, off);
    char *o = g.data[0] + off[0];
    if (K == TSR_K_WHERE) {   /* the condition is bool, the values any dtype */
        bool cnd = *(const unsigned char *)k_in(g, 1, off) != 0;
        kc_store<T>(o, g.dtype[0], kc_load<T>(k_in(g, cnd ? 2 : 3, off), g.dtype[cnd ? 2 : 3]));
        return;
    }
    KC<T> a = kc_load<T>(k_in(g, 1, off), g.dtype[1]);
    if constexpr (KArity<K>::v == 1) {
        if constexpr (KBoolOut<K>::v) k_store<bool>(o, g.dtype[0], kc_predicate<K, T>(a));
        else kc_store<T>(o, g.dtype[0], K == TSR_K_COPY ? a : kc_unary<K, T>(a));
    } else {
        KC<T> b = kc_load<T>(k_in(g, 2, off), g.dtype[2]);
        if constexpr (KArity<K>::v == 2) {
            if constexpr (KBoolOut<K>::v) k_store<bool>(o, g.dtype[0], kc_compare<K, T>(a, b));
            else kc_store<T>(o, g.dtype[0], kc_binary<K, T>(a, b, g));
        } else {
            KC<T> c = g.nops > 3 ? kc_load<T>(k_in(g, 3, off), g.dtype[3]) : kc<T>((T)0, (T)0);
            kc_store<T>(o, g.dtype[0], kc_ternary<K, T>(a, b, c, g));
        }
    }
}

#endif
