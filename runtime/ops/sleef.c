/* runtime/ops/sleef.c — the Sleef calls of ATen/cpu/vec/vec256/vec256_float.h
 * and vec256_double.h. The whole file is AVX2 code (the __m256 ABI), so only
 * tsr__sleef_usable() may run on a CPU without it; Sleef's own dispatcher
 * picks the same AVX2+FMA variant libtorch gets from the same libsleef.so.3. */
#include <string.h>
#include "sleef.h"

bool tsr__sleef_usable(void)
{
#if defined(__x86_64__) || defined(__i386__)
    static int usable = -1;
    if (usable < 0) {
        __builtin_cpu_init();
        usable = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    }
    return usable;
#else
    return false;
#endif
}

#if defined(__x86_64__) || defined(__i386__)
#pragma GCC push_options
#pragma GCC target("avx2")
#include <immintrin.h>
#include <sleef.h>

/* Vectorized<T>::reciprocal and operator+/- are plain divps/addps/subps. */
static __m256 sigmoid_f8(__m256 x)
{
    __m256 one = _mm256_set1_ps(1.0f);
    return _mm256_div_ps(one, _mm256_add_ps(one, Sleef_expf8_u10(_mm256_sub_ps(_mm256_setzero_ps(), x))));
}
static __m256d sigmoid_d4(__m256d x)
{
    __m256d one = _mm256_set1_pd(1.0);
    return _mm256_div_pd(one, _mm256_add_pd(one, Sleef_expd4_u10(_mm256_sub_pd(_mm256_setzero_pd(), x))));
}

/* ORDER SLEEF; erfc is the 1.5-ulp variant, as ATen calls it. */
static __m256 (*const f8[])(__m256) = {
    Sleef_acosf8_u10, Sleef_asinf8_u10, Sleef_atanf8_u10, Sleef_cosf8_u10, Sleef_coshf8_u10,
    Sleef_erff8_u10, Sleef_erfcf8_u15, Sleef_expf8_u10, Sleef_expm1f8_u10, Sleef_lgammaf8_u10,
    Sleef_logf8_u10, Sleef_log10f8_u10, Sleef_log1pf8_u10, Sleef_log2f8_u10, Sleef_sinf8_u10,
    Sleef_sinhf8_u10, Sleef_tanf8_u10, Sleef_tanhf8_u10, sigmoid_f8,
};
static __m256d (*const d4[])(__m256d) = {
    Sleef_acosd4_u10, Sleef_asind4_u10, Sleef_atand4_u10, Sleef_cosd4_u10, Sleef_coshd4_u10,
    Sleef_erfd4_u10, Sleef_erfcd4_u15, Sleef_expd4_u10, Sleef_expm1d4_u10, Sleef_lgammad4_u10,
    Sleef_logd4_u10, Sleef_log10d4_u10, Sleef_log1pd4_u10, Sleef_log2d4_u10, Sleef_sind4_u10,
    Sleef_sinhd4_u10, Sleef_tand4_u10, Sleef_tanhd4_u10, sigmoid_d4,
};
_Static_assert(sizeof f8 / sizeof f8[0] == TSR_SLEEF_COUNT, "ORDER SLEEF");
_Static_assert(sizeof d4 / sizeof d4[0] == TSR_SLEEF_COUNT, "ORDER SLEEF");

void tsr__sleef_f32(tsr_sleef_op op, float *out, const float *in, int64_t n)
{
    __m256 (*f)(__m256) = f8[op];
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(out + i, f(_mm256_loadu_ps(in + i)));
    if (i < n) {
        float buf[8] = {0};
        memcpy(buf, in + i, (size_t)(n - i) * sizeof *buf);
        _mm256_storeu_ps(buf, f(_mm256_loadu_ps(buf)));
        memcpy(out + i, buf, (size_t)(n - i) * sizeof *buf);
    }
}

void tsr__sleef_f64(tsr_sleef_op op, double *out, const double *in, int64_t n)
{
    __m256d (*f)(__m256d) = d4[op];
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) _mm256_storeu_pd(out + i, f(_mm256_loadu_pd(in + i)));
    if (i < n) {
        double buf[4] = {0};
        memcpy(buf, in + i, (size_t)(n - i) * sizeof *buf);
        _mm256_storeu_pd(buf, f(_mm256_loadu_pd(buf)));
        memcpy(out + i, buf, (size_t)(n - i) * sizeof *buf);
    }
}

/* ORDER SLEEF2; hypot is the 0.5-ulp variant, as ATen calls it. */
static __m256 (*const f8b[])(__m256, __m256) = {Sleef_atan2f8_u10, Sleef_hypotf8_u05, Sleef_powf8_u10};
static __m256d (*const d4b[])(__m256d, __m256d) = {Sleef_atan2d4_u10, Sleef_hypotd4_u05, Sleef_powd4_u10};
_Static_assert(sizeof f8b / sizeof f8b[0] == TSR_SLEEF2_COUNT, "ORDER SLEEF2");
_Static_assert(sizeof d4b / sizeof d4b[0] == TSR_SLEEF2_COUNT, "ORDER SLEEF2");

void tsr__sleef2_f32(tsr_sleef2_op op, float *out, const float *a, int64_t sa, const float *b, int64_t sb, int64_t n)
{
    __m256 (*f)(__m256, __m256) = f8b[op];
    if (n <= 0) return; /* the broadcast loads below read a[0] and b[0] */
    __m256 va = _mm256_set1_ps(*a), vb = _mm256_set1_ps(*b);
    for (int64_t i = 0; i + 8 <= n; i += 8) {
        if (sa) va = _mm256_loadu_ps(a + i);
        if (sb) vb = _mm256_loadu_ps(b + i);
        _mm256_storeu_ps(out + i, f(va, vb));
    }
}

void tsr__sleef2_f64(tsr_sleef2_op op, double *out, const double *a, int64_t sa, const double *b, int64_t sb,
                     int64_t n)
{
    __m256d (*f)(__m256d, __m256d) = d4b[op];
    if (n <= 0) return; /* the broadcast loads below read a[0] and b[0] */
    __m256d va = _mm256_set1_pd(*a), vb = _mm256_set1_pd(*b);
    for (int64_t i = 0; i + 4 <= n; i += 4) {
        if (sa) va = _mm256_loadu_pd(a + i);
        if (sb) vb = _mm256_loadu_pd(b + i);
        _mm256_storeu_pd(out + i, f(va, vb));
    }
}
/* Vectorized<c10::complex<T>>::exp (vec256_complex_*.h): exp(a) times
 * (cos b, sin b) with Sleef's exp and sincos; the lanes are independent, so
 * reals and imaginaries are gathered into separate vectors here. */
void tsr__sleef_cexp_f64(double *out, const double *in, int64_t n)
{
    for (int64_t i = 0; i < n; i += 4) {
        double re[4] = {0}, im[4] = {0}, e[4], sn[4], cs[4];
        int64_t m = n - i < 4 ? n - i : 4;
        for (int64_t k = 0; k < m; k++) { re[k] = in[2 * (i + k)]; im[k] = in[2 * (i + k) + 1]; }
        _mm256_storeu_pd(e, Sleef_expd4_u10(_mm256_loadu_pd(re)));
        Sleef___m256d_2 sc = Sleef_sincosd4_u10(_mm256_loadu_pd(im));
        _mm256_storeu_pd(sn, sc.x);
        _mm256_storeu_pd(cs, sc.y);
        for (int64_t k = 0; k < m; k++) { out[2 * (i + k)] = e[k] * cs[k]; out[2 * (i + k) + 1] = e[k] * sn[k]; }
    }
}

void tsr__sleef_cexp_f32(float *out, const float *in, int64_t n)
{
    for (int64_t i = 0; i < n; i += 8) {
        float re[8] = {0}, im[8] = {0}, e[8], sn[8], cs[8];
        int64_t m = n - i < 8 ? n - i : 8;
        for (int64_t k = 0; k < m; k++) { re[k] = in[2 * (i + k)]; im[k] = in[2 * (i + k) + 1]; }
        _mm256_storeu_ps(e, Sleef_expf8_u10(_mm256_loadu_ps(re)));
        Sleef___m256_2 sc = Sleef_sincosf8_u10(_mm256_loadu_ps(im));
        _mm256_storeu_ps(sn, sc.x);
        _mm256_storeu_ps(cs, sc.y);
        for (int64_t k = 0; k < m; k++) { out[2 * (i + k)] = e[k] * cs[k]; out[2 * (i + k) + 1] = e[k] * sn[k]; }
    }
}
#pragma GCC pop_options
#else
void tsr__sleef_cexp_f64(double *out, const double *in, int64_t n) { (void)out; (void)in; (void)n; }
void tsr__sleef_cexp_f32(float *out, const float *in, int64_t n) { (void)out; (void)in; (void)n; }
void tsr__sleef_f32(tsr_sleef_op op, float *out, const float *in, int64_t n) { (void)op; (void)out; (void)in; (void)n; }
void tsr__sleef_f64(tsr_sleef_op op, double *out, const double *in, int64_t n) { (void)op; (void)out; (void)in; (void)n; }
void tsr__sleef2_f32(tsr_sleef2_op op, float *out, const float *a, int64_t sa, const float *b, int64_t sb, int64_t n)
{ (void)op; (void)out; (void)a; (void)sa; (void)b; (void)sb; (void)n; }
void tsr__sleef2_f64(tsr_sleef2_op op, double *out, const double *a, int64_t sa, const double *b, int64_t sb,
                     int64_t n)
{ (void)op; (void)out; (void)a; (void)sa; (void)b; (void)sb; (void)n; }
#endif
