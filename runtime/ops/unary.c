/* runtime/ops/unary.c — unary kernels and clamp. One body per category via
 * <tgmath.h> (sqrt(x) is sqrtf, sqrt or csqrtf by the compute type); erfinv
 * and digamma are ports of aten/src/ATen/native/Math.h. Supported dtypes per
 * op are 1.13's CPU dispatch lists (many float ops have no Half kernel). */
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#include <tgmath.h>
#include <float.h>
#include <string.h>
#include "../error.h"
#include "loops.h"
#include "binary.h"
#include "compare.h"
#include "copy.h"
#include "unary.h"
#include "../view.h"
#include "sleef.h"

static bool cpu_fma(void) { return tsr__sleef_usable(); }

/* ------------------------------------------------ Math.h ports (erfinv, digamma) */

/* MA(a, b, c) is a * b + c; 1.13's AVX2 kernels are built with FMA and the
 * compiler fuses these Horner steps, its DEFAULT ones do not. */
#define ERFINV_BODY(T, SQRTPI, MA)                                                       \
    T a[4] = {(T)0.886226899, (T)-1.645349621, (T)0.914624893, (T)-0.140543331};          \
    T b[4] = {(T)-2.118377725, (T)1.442710462, (T)-0.329097515, (T)0.012229801};          \
    T c[4] = {(T)-1.970840454, (T)-1.624906493, (T)3.429567803, (T)1.641345311};          \
    T d[2] = {(T)3.543889200, (T)1.637067800};                                            \
    T x, z, num, dem, y_abs = fabs(y);                                                     \
    if (y_abs > 1.0) return (T)NAN;                                                        \
    if (y_abs == 1.0) return copysign((T)INFINITY, y);                                     \
    if (y_abs <= (T)0.7) {                                                                 \
        z = y * y;                                                                         \
        num = MA(MA(MA(a[3], z, a[2]), z, a[1]), z, a[0]);                                 \
        dem = MA(MA(MA(MA(b[3], z, b[2]), z, b[1]), z, b[0]), z, (T)1.0);                  \
        x = y * num / dem;                                                                 \
    } else {                                                                               \
        z = sqrt(-log(((T)1.0 - y_abs) / (T)2.0));                                         \
        num = MA(MA(MA(c[3], z, c[2]), z, c[1]), z, c[0]);                                 \
        dem = MA(MA(d[1], z, d[0]), z, (T)1.0);                                            \
        x = copysign(num, y) / dem;                                                        \
    }                                                                                      \
    x = x - (erf(x) - y) / (((T)2.0 / (T)SQRTPI) * exp(-x * x));                           \
    x = x - (erf(x) - y) / (((T)2.0 / (T)SQRTPI) * exp(-x * x));                           \
    return x;
#define MA_PLAIN(a, b, c) ((a) * (b) + (c))
static double erfinv_plain_d(double y) { ERFINV_BODY(double, 1.7724538509055159, MA_PLAIN) }
static float erfinv_plain_f(float y) { ERFINV_BODY(float, 1.7724538509055159, MA_PLAIN) }
static double erfinv_fma_d(double y) { ERFINV_BODY(double, 1.7724538509055159, fma) }
static float erfinv_fma_f(float y) { ERFINV_BODY(float, 1.7724538509055159, fma) }
static bool cpu_fma(void);
static double erfinv_d(double y) { return cpu_fma() ? erfinv_fma_d(y) : erfinv_plain_d(y); }
static float erfinv_f(float y) { return cpu_fma() ? erfinv_fma_f(y) : erfinv_plain_f(y); }
#define erfinv_(x) _Generic((x), float: erfinv_f, default: erfinv_d)(x)

static double digamma_d(double x)
{
    static const double PSI_10 = 2.25175258906672110764;
    static const double A[] = {8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
                               -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
                               8.33333333333333333333E-2};
    if (x == 0) return copysign(INFINITY, -x);
    if (x < 0) {
        if (x == trunc(x)) return NAN;
        double q, r = modf(x, &q);
        return digamma_d(1 - x) - M_PI / tan(M_PI * r);
    }
    double result = 0;
    while (x < 10) { result -= 1 / x; x += 1; }
    if (x == 10) return result + PSI_10;
    double y = 0;
    if (x < 1.0e17) {
        double z = 1.0 / (x * x), p = 0;
        for (int i = 0; i <= 6; i++) p = p * z + A[i];
        y = z * p;
    }
    return result + log(x) - (0.5 / x) - y;
}

static float digamma_f(float x)
{
    static const float PSI_10 = 2.25175258906672110764f;
    static const float A[] = {8.33333333333333333333E-2f, -2.10927960927960927961E-2f, 7.57575757575757575758E-3f,
                              -4.16666666666666666667E-3f, 3.96825396825396825397E-3f, -8.33333333333333333333E-3f,
                              8.33333333333333333333E-2f};
    if (x == 0) return copysignf(INFINITY, -x);
    if (x < 0) {
        if (x == truncf(x)) return NAN;
        double q, r = modf((double)x, &q);
        float p = (float)(M_PI / tan(M_PI * r));
        return digamma_f(1 - x) - p;
    }
    float result = 0;
    while (x < 10) { result -= 1 / x; x += 1; }
    if (x == 10) return result + PSI_10;
    float y = 0;
    if (x < 1.0e17f) {
        float z = 1.0f / (x * x), p = 0;
        for (int i = 0; i <= 6; i++) p = p * z + A[i];
        y = z * p;
    }
    return result + logf(x) - (0.5f / x) - y;
}
#define digamma_(x) _Generic((x), float: digamma_f, default: digamma_d)(x)

/* ---------------------------------------------------------------- bodies */

#define ONE_C __builtin_complex((real_t)1, (real_t)0)
#define ID_(x) (x)
#define NEG_I(x) ((int64_t)(0 - (uint64_t)(x)))
#define NEG_F(x) (-(x))
#define ABS_I(x) ((x) < 0 ? NEG_I(x) : (x))
#define ABS_F(x) fabs(x)
#define ABS_C(x) cabs(x)
#define SIGN_I(x) ((int64_t)((0 < (x)) - ((x) < 0)))
#define SIGN_F(x) ((real_t)((0 < (x)) - ((x) < 0)))
/* sgn_impl of 1.13: z / zabs(z), c10's complex division by (|z|, 0) (the
 * AVX2 chunks: OP_SL_1 below) */
#define SGN_C(x) ((creal(x) == 0 && cimag(x) == 0) ? (x) * 0 : CDIV(x, __builtin_complex((real_t)cabs(x), (real_t)0)))
#define RECIP_F(x) (1 / (x))
#define RECIP_C(x) CDIV(ONE_C, x)
#define RSQRT_F(x) (1 / sqrt(x))
#define RSQRT_C(x) CDIV(ONE_C, sqrt(x))
#define SIGMOID_F(x) (1 / (1 + exp(-(x))))
#define SIGMOID_C(x) CDIV(ONE_C, ONE_C + exp(-(x)))
/* the constant is rounded to the tensor's dtype first (a scalar_t multiply) */
#define D2R_F(x) ((x) * (real_t)KP->d)
#define R2D_F(x) ((x) * (real_t)KP->d)
#define FRAC_F(x) ((x) - trunc(x))
#define ROUND_F(x) nearbyint(x)
/* round(decimals=): 1.13 multiplies (or divides) in scalar_t, so for
 * float16/bfloat16 that product is rounded to the dtype before nearbyint */
#define RS_(dt, x) LD_##dt(ST_##dt(x))
#define ROUNDD_GEN(dt, x) (KP->flag ? nearbyint(RS_(dt, (x) / (real_t)KP->d)) * (real_t)KP->d \
                                    : nearbyint(RS_(dt, (x) * (real_t)KP->d)) / (real_t)KP->d)
#define ROUNDD_float16(x) ROUNDD_GEN(float16, x)
#define ROUNDD_bfloat16(x) ROUNDD_GEN(bfloat16, x)
#define ROUNDD_float32(x) ROUNDD_GEN(float32, x)
#define ROUNDD_float64(x) ROUNDD_GEN(float64, x)
#define DEF_ROUNDD(dt, T, C, R, OP, BODY) DEF_U_SAME(dt, T, C, R, OP, ROUNDD_##dt)
#define LOGIT_F(x) (KP->flag ? log(LCLAMP(x) / (1 - LCLAMP(x))) : log((x) / (1 - (x))))
#define LCLAMP(x) ((x) < (real_t)KP->d ? (real_t)KP->d : (x) > (real_t)KP->d2 ? (real_t)KP->d2 : (x))
#define RELU_I(x) ((x) < 0 ? 0 : (x))
#define BNOT_I(x) (~(x))
#define BNOT_B(x) (!(x))
#define N2N_F(x) (isnan(x) ? (real_t)KP->d : (x) == INFINITY ? (real_t)KP->d2 : (x) == -INFINITY ? (real_t)KP->d3 : (x))
#define EXP2_F(x) exp2(x)

#define U(FAM, OP, BODY) FAM(DEF_U_SAME, OP, BODY)
#define T_(FAM, OP) FAM(ENTRY, OP)
#define FLOAT_FN(OP, FN) static inline double OP##_fn_d(double x) { return FN(x); }
U(FAM_INT, neg, NEG_I) U(FAM_FLOAT, neg, NEG_F) U(FAM_COMPLEX, neg, NEG_F)
U(FAM_INT, abs, ABS_I) U(FAM_FLOAT, abs, ABS_F)
#define DEF_ABS_C(dt, T, C, R, OP, BODY) DEF_U_TO(dt, T, C, R, OP, BODY, RT_##dt, ST_##RD_##dt)
#define ST_RD_complex32 ST_float16
#define ST_RD_complex64 ST_float32
#define ST_RD_complex128 ST_float64
FAM_COMPLEX(DEF_ABS_C, abs, ABS_C)
U(FAM_INT, sign, SIGN_I) U(FAM_FLOAT, sign, SIGN_F) U(FAM_BOOL, sign, ID_)
U(FAM_COMPLEX, sgn, SGN_C)
U(FAM_FLOAT, recip, RECIP_F) U(FAM_COMPLEX, recip, RECIP_C)
U(FAM_FLOAT, rsqrt, RSQRT_F) U(FAM_COMPLEX, rsqrt, RSQRT_C)
U(FAM_FLOAT, sigmoid, SIGMOID_F) U(FAM_COMPLEX, sigmoid, SIGMOID_C)
U(FAM_FLOAT, d2r, D2R_F) U(FAM_FLOAT, r2d, R2D_F)
U(FAM_FLOAT, frac, FRAC_F)
U(FAM_FLOAT, round, ROUND_F) FAM_FLOAT(DEF_ROUNDD, roundd, _)
U(FAM_FLOAT, ceil, ceil) U(FAM_FLOAT, floor, floor) U(FAM_FLOAT, trunc, trunc)
U(FAM_FLOAT, logit, LOGIT_F)
U(FAM_INT, relu, RELU_I) U(FAM_FLOAT, relu, RELU_I)
U(FAM_INT, bnot, BNOT_I) U(FAM_BOOL, bnot, BNOT_B)
U(FAM_FLOAT, n2n, N2N_F)
U(FAM_FLOAT, exp2, EXP2_F)
U(FAM_FLOAT, digamma, digamma_) U(FAM_FLOAT, erfinv, erfinv_)
U(FAM_FLOAT, erf, erf) U(FAM_FLOAT, erfc, erfc) U(FAM_FLOAT, expm1, expm1) U(FAM_FLOAT, log1p, log1p)
U(FAM_FLOAT, lgamma, lgamma)
#define FC(OP, FN) U(FAM_FLOAT, OP, FN) U(FAM_COMPLEX, OP, FN)
FC(acos, acos) FC(acosh, acosh) FC(asin, asin) FC(asinh, asinh) FC(atan, atan) FC(atanh, atanh)
FC(cos, cos) FC(cosh, cosh) FC(exp, exp) FC(log, log) FC(sin, sin) FC(sinh, sinh) FC(sqrt, sqrt)
FC(tan, tan) FC(tanh, tanh)
U(FAM_FLOAT, log2, log2) U(FAM_FLOAT, log10, log10)
#define LOG2_C(x) (log(x) / (real_t)M_LN2)
#define LOG10_C(x) (log(x) / (real_t)M_LN10)
U(FAM_COMPLEX, log2, LOG2_C) U(FAM_COMPLEX, log10, LOG10_C)

#define CONJ_C(x) conj(x)
U(FAM_COMPLEX, conj, CONJ_C)
/* frexp (UnaryOpsKernel.cpp frexp_kernel): std::frexp in float for float16
 * and bfloat16; the mantissa and the int32 exponent are two loops here. */
#define FREXP_M(x) frexp_m(x)
#define frexp_m(x) _Generic((x), float: frexp_mf, default: frexp_md)(x)
static inline float frexp_mf(float x) { int e; return frexpf(x, &e); }
static inline double frexp_md(double x) { int e; return frexp(x, &e); }
#define FREXP_E(x) frexp_e(x)
#define frexp_e(x) _Generic((x), float: frexp_ef, default: frexp_ed)(x)
static inline int32_t frexp_ef(float x) { int e = 0; frexpf(x, &e); return e; }
static inline int32_t frexp_ed(double x) { int e = 0; frexp(x, &e); return e; }
U(FAM_FLOAT, frexpm, FREXP_M)
#define DEF_FREXP_E(dt, T, C, R, OP, BODY) DEF_U_TO(dt, T, C, R, OP, BODY, int32_t, (int32_t))
FAM_FLOAT(DEF_FREXP_E, frexpe, FREXP_E)

/* ------------------------------------------------------- Sleef (AVX2) paths */

/* On CPUs where 1.13 runs its AVX2 kernels, float32/float64 (and bfloat16,
 * which vec256_bfloat16.h computes in float) get Sleef's results, not libm's.
 * Which elements: the *_vml_cpu ops go through vml.h's vec::map, strided
 * inputs through a contiguous buffer (IMPLEMENT_ITERATOR_LAMBDA), so every
 * element takes the vector function. cpu_kernel_vec ops (sinh, cosh,
 * sigmoid) vectorise only contiguous rows (or a broadcast input) in chunks of
 * 2 * Vectorized<T>::size(); the tail and strided rows take the scalar std::
 * body (Loops.h vectorized_loop / basic_loop). */

#define SLEEF_BUF 256
/* op over n elements of dt (float32, float64 or bfloat16) with strides s. */
static void sleef_run(tsr_dtype dt, tsr_sleef_op op, char **d, const int64_t *s, int64_t n)
{
    if (dt == TSR_FLOAT32 && s[0] == 4 && s[1] == 4) {
        tsr__sleef_f32(op, (float *)d[0], (const float *)d[1], n);
        return;
    }
    if (dt == TSR_FLOAT64 && s[0] == 8 && s[1] == 8) {
        tsr__sleef_f64(op, (double *)d[0], (const double *)d[1], n);
        return;
    }
    for (int64_t off = 0; off < n; off += SLEEF_BUF) {
        int64_t m = n - off < SLEEF_BUF ? n - off : SLEEF_BUF;
        char *o = d[0] + off * s[0];
        const char *a = d[1] + off * s[1];
        if (dt == TSR_FLOAT64) {
            double buf[SLEEF_BUF];
            for (int64_t i = 0; i < m; i++) buf[i] = *(const double *)(a + i * s[1]);
            tsr__sleef_f64(op, buf, buf, m);
            for (int64_t i = 0; i < m; i++) *(double *)(o + i * s[0]) = buf[i];
        } else if (dt == TSR_FLOAT32) {
            float buf[SLEEF_BUF];
            for (int64_t i = 0; i < m; i++) buf[i] = *(const float *)(a + i * s[1]);
            tsr__sleef_f32(op, buf, buf, m);
            for (int64_t i = 0; i < m; i++) *(float *)(o + i * s[0]) = buf[i];
        } else {
            float buf[SLEEF_BUF];
            for (int64_t i = 0; i < m; i++) buf[i] = LD_bfloat16(*(const tsr_bfloat16 *)(a + i * s[1]));
            tsr__sleef_f32(op, buf, buf, m);
            /* Vectorized<BFloat16>'s store (cvtfp32_bf16) writes every NaN as 0xffff */
            for (int64_t i = 0; i < m; i++)
                *(tsr_bfloat16 *)(o + i * s[0]) = isnan(buf[i]) ? 0xffff : ST_bfloat16(buf[i]);
        }
    }
}

/* vml ops: every element through Sleef; libm loop without AVX2. */
#define SLEEF_MAP(dt, T, C, R, OP, SOP)                                               \
    static int OP##_sl_##dt(char **d, const int64_t *s, int64_t n, const void *ctx) { \
        if (!tsr__sleef_usable()) return OP##_##dt(d, s, n, ctx);                     \
        sleef_run(TSR_DT_##dt, SOP, d, s, n);                                          \
        return 0;                                                                      \
    }
/* cpu_kernel_vec ops: whole 2 * Vec::size() chunks of a contiguous row
 * through Sleef, the rest through the scalar (libm) loop. */
#define SLEEF_VEC(dt, T, C, R, OP, SOP)                                               \
    static int OP##_sl_##dt(char **d, const int64_t *s, int64_t n, const void *ctx) { \
        const int64_t sz = (int64_t)sizeof(T), step = 2 * (32 / sz);                   \
        if (!tsr__sleef_usable() || s[0] != sz || (s[1] != sz && s[1] != 0))           \
            return OP##_##dt(d, s, n, ctx);                                            \
        int64_t m = n - n % step;                                                      \
        sleef_run(TSR_DT_##dt, SOP, d, s, m);                                          \
        char *t[2] = {d[0] + m * s[0], d[1] + m * s[1]};                               \
        return OP##_##dt(t, s, n - m, ctx);                                            \
    }
#define FAM_SLEEF(X, ...)                                  \
    X(float32, float, float, float, __VA_ARGS__)           \
    X(float64, double, double, double, __VA_ARGS__)        \
    X(bfloat16, tsr_bfloat16, float, float, __VA_ARGS__)
#define SM(OP, SOP) FAM_SLEEF(SLEEF_MAP, OP, SOP)
#define SV(OP, SOP) FAM_SLEEF(SLEEF_VEC, OP, SOP)
SM(acos, TSR_SLEEF_ACOS) SM(asin, TSR_SLEEF_ASIN) SM(atan, TSR_SLEEF_ATAN) SM(cos, TSR_SLEEF_COS)
SM(erf, TSR_SLEEF_ERF) SM(erfc, TSR_SLEEF_ERFC) SM(exp, TSR_SLEEF_EXP) SM(expm1, TSR_SLEEF_EXPM1)
SM(lgamma, TSR_SLEEF_LGAMMA) SM(log, TSR_SLEEF_LOG) SM(log10, TSR_SLEEF_LOG10) SM(log1p, TSR_SLEEF_LOG1P)
SM(log2, TSR_SLEEF_LOG2) SM(sin, TSR_SLEEF_SIN) SM(tan, TSR_SLEEF_TAN) SM(tanh, TSR_SLEEF_TANH)
SV(sinh, TSR_SLEEF_SINH) SV(cosh, TSR_SLEEF_COSH) SV(sigmoid, TSR_SLEEF_SIGMOID)
/* rsqrt of bfloat16: the vector body divides in float, the scalar one
 * (1 / std::sqrt(BFloat16)) rounds the root to bfloat16 first. */
#define RSQRT_BF(x) (1 / LD_bfloat16(ST_bfloat16(sqrt(x))))
DEF_U_SAME(bfloat16, tsr_bfloat16, float, float, rsqrt_tail, RSQRT_BF)
static int rsqrt_vec_bfloat16(char **d, const int64_t *s, int64_t n, const void *ctx)
{
    if (!tsr__sleef_usable() || s[0] != 2 || (s[1] != 2 && s[1] != 0)) return rsqrt_tail_bfloat16(d, s, n, ctx);
    int64_t m = n - n % 32;
    int r = rsqrt_bfloat16(d, s, m, ctx);
    char *t[2] = {d[0] + m * s[0], d[1] + m * s[1]};
    return r ? r : rsqrt_tail_bfloat16(t, s, n - m, ctx);
}
/* Complex64/complex128 on the AVX2 path. exp is a vml op: every element
 * through Vectorized::exp. neg, reciprocal, rsqrt and sigmoid are
 * cpu_kernel_vec ops: whole 2 * Vec::size() chunks of a contiguous row (8
 * complex64, 4 complex128) take the vector formulas of vec256_complex_*.h,
 * which differ from the scalar ones in signed zeros: neg is 0 - x,
 * reciprocal is conj(x) / |x|^2, rsqrt is sqrt then that reciprocal, sigmoid
 * is reciprocal((0 - x).exp() + 1). The rest take the scalar loop. */
#define CVEC_RECIP(R, re, im, ore, oim) do { R den_ = (re) * (re) + (im) * (im); \
    *(ore) = (re) / den_; *(oim) = -(im) / den_; } while (0)

static void cexp_buf(bool dbl, void *buf, int64_t n)
{
    if (dbl) tsr__sleef_cexp_f64(buf, buf, n);
    else tsr__sleef_cexp_f32(buf, buf, n);
}

typedef enum { CV_NEG, CV_RECIP, CV_RSQRT, CV_SIGMOID, CV_EXP } cvec_op;

/* the vector formula on n contiguous complex numbers (R = float or double) */
#define CVEC_BODY(R, CT, op, o, a, n, dbl)                                                    \
    do {                                                                                     \
        for (int64_t i = 0; i < (n); i += 64) {                                              \
            int64_t m = (n) - i < 64 ? (n) - i : 64;                                         \
            R buf[128];                                                                      \
            memcpy(buf, (a) + i, (size_t)m * sizeof(CT));                                    \
            for (int64_t k = 0; k < m; k++) {                                                \
                R re = buf[2 * k], im = buf[2 * k + 1];                                      \
                if (op == CV_NEG) { buf[2 * k] = (R)0 - re; buf[2 * k + 1] = (R)0 - im; }    \
                else if (op == CV_RECIP) CVEC_RECIP(R, re, im, &buf[2 * k], &buf[2 * k + 1]); \
                else if (op == CV_RSQRT) {                                                   \
                    CT r = sqrt(*(CT *)&buf[2 * k]); /* map(std::sqrt) */                    \
                    R rr = (R)creal(r), ri = (R)cimag(r);                                    \
                    CVEC_RECIP(R, rr, ri, &buf[2 * k], &buf[2 * k + 1]);                     \
                } else if (op == CV_SIGMOID) { buf[2 * k] = (R)0 - re; buf[2 * k + 1] = (R)0 - im; } \
            }                                                                                \
            if (op == CV_SIGMOID || op == CV_EXP) cexp_buf(dbl, buf, m);                     \
            if (op == CV_SIGMOID)                                                            \
                for (int64_t k = 0; k < m; k++) {                                            \
                    R re = buf[2 * k] + (R)1, im = buf[2 * k + 1] + (R)0;                    \
                    CVEC_RECIP(R, re, im, &buf[2 * k], &buf[2 * k + 1]);                     \
                }                                                                            \
            memcpy((o) + i, buf, (size_t)m * sizeof(CT));                                    \
        }                                                                                    \
    } while (0)

static void cvec_run(cvec_op op, bool dbl, char *o, const char *a, int64_t n)
{
    if (dbl) CVEC_BODY(double, double _Complex, op, (double _Complex *)o, (const double _Complex *)a, n, true);
    else CVEC_BODY(float, float _Complex, op, (float _Complex *)o, (const float _Complex *)a, n, false);
}

#define CVEC(dt, T, OP, CVOP, DBL, VML)                                                      \
    static int OP##_cv_##dt(char **d, const int64_t *s, int64_t n, const void *ctx) {       \
        const int64_t sz = (int64_t)sizeof(T), step = 2 * (32 / sz);                          \
        if (!tsr__sleef_usable()) return OP##_##dt(d, s, n, ctx);                             \
        if (VML) {                                                                            \
            for (int64_t off = 0; off < n; off += 64) {                                       \
                int64_t m = n - off < 64 ? n - off : 64;                                      \
                T buf[64];                                                                    \
                for (int64_t i = 0; i < m; i++) buf[i] = *(const T *)(d[1] + (off + i) * s[1]); \
                cvec_run(CVOP, DBL, (char *)buf, (const char *)buf, m);                       \
                for (int64_t i = 0; i < m; i++) *(T *)(d[0] + (off + i) * s[0]) = buf[i];     \
            }                                                                                 \
            return 0;                                                                         \
        }                                                                                     \
        if (s[0] != sz || (s[1] != sz && s[1] != 0)) return OP##_##dt(d, s, n, ctx);          \
        int64_t m = n - n % step;                                                             \
        if (s[1] == 0) {                                                                      \
            for (int64_t i = 0; i < m; i++) cvec_run(CVOP, DBL, d[0] + i * sz, d[1], 1);      \
        } else {                                                                              \
            cvec_run(CVOP, DBL, d[0], d[1], m);                                               \
        }                                                                                     \
        char *t[2] = {d[0] + m * s[0], d[1] + m * s[1]};                                      \
        return OP##_##dt(t, s, n - m, ctx);                                                   \
    }
#define CVEC2(OP, CVOP, VML) CVEC(complex64, tsr_cfloat, OP, CVOP, false, VML) \
                             CVEC(complex128, tsr_cdouble, OP, CVOP, true, VML)
CVEC2(neg, CV_NEG, false) CVEC2(recip, CV_RECIP, false) CVEC2(rsqrt, CV_RSQRT, false)
CVEC2(sigmoid, CV_SIGMOID, false) CVEC2(exp, CV_EXP, true)
#define T_CV(OP) [TSR_COMPLEX32] = OP##_complex32, [TSR_COMPLEX64] = OP##_cv_complex64, \
                 [TSR_COMPLEX128] = OP##_cv_complex128,

/* Table entries: float16 keeps libm (1.13 has no AVX2 Vectorized<Half>). */
#define T_SL(OP) [TSR_FLOAT16] = OP##_float16, [TSR_FLOAT32] = OP##_sl_float32, \
                 [TSR_FLOAT64] = OP##_sl_float64, [TSR_BFLOAT16] = OP##_sl_bfloat16,

/* angle (UnaryOpsKernel.cpp angle_impl): pi in the dtype for a negative real,
 * NaN kept, else 0; a complex z gives atan2(imag, real) in its real dtype. On
 * AVX2, 1.13 runs whole 2 * Vectorized<complex> chunks of a contiguous input
 * through Sleef's atan2 (vec256_complex_*.h angle_) and the rest through
 * std::arg (libm). */
#define ANGLE_F(x) (isnan(x) ? (x) : (x) < 0 ? (real_t)M_PI : (real_t)0)
#define ANGLE_C(x) atan2(cimag(x), creal(x))
U(FAM_FLOAT, angle, ANGLE_F)
DEF_ABS_C(complex64, tsr_cfloat, float _Complex, float, angle, ANGLE_C)   /* not ComplexHalf: 1.13 refuses it */
DEF_ABS_C(complex128, tsr_cdouble, double _Complex, double, angle, ANGLE_C)
#define ANGLE_SL(dt, R, CHUNK, SLEEF2)                                                           \
    static int angle_sl_##dt(char **d, const int64_t *s, int64_t n, const void *ctx) {           \
        const int64_t csz = 2 * (int64_t)sizeof(R);                                              \
        if (!tsr__sleef_usable() || s[1] != csz) return angle_##dt(d, s, n, ctx);               \
        int64_t m = n - n % (CHUNK);                                                             \
        R re[256], im[256], r[256];                                                              \
        for (int64_t i = 0; i < m; i += 256) {                                                   \
            int64_t k = m - i < 256 ? m - i : 256;                                               \
            const R *z = (const R *)(d[1] + i * s[1]);                                           \
            for (int64_t j = 0; j < k; j++) { re[j] = z[2 * j]; im[j] = z[2 * j + 1]; }          \
            SLEEF2(TSR_SLEEF2_ATAN2, r, im, 1, re, 1, k);                                        \
            for (int64_t j = 0; j < k; j++) *(R *)(d[0] + (i + j) * s[0]) = r[j];                \
        }                                                                                        \
        char *t[2] = {d[0] + m * s[0], d[1] + m * s[1]};                                         \
        return angle_##dt(t, s, n - m, ctx);                                                     \
    }
ANGLE_SL(complex64, float, 8, tsr__sleef2_f32) ANGLE_SL(complex128, double, 4, tsr__sleef2_f64)
/* abs / sgn of complex on AVX2: whole 2 * Vec::size() chunks of a
 * contiguous input take vec256_complex_*.h's abs_ (sqrt(re * re + im * im)
 * in the part's type) and sgn (each part divided by it, 0 where it is 0);
 * the rest the scalar loop (std::abs, sgn_impl). */
#define CABS_SL(dt, R, CHUNK, IS_SGN)                                                             \
    static int OP_SL_##IS_SGN##_##dt(char **d, const int64_t *s, int64_t n, const void *ctx) {   \
        const int64_t csz = 2 * (int64_t)sizeof(R);                                              \
        int (*tail)(char **, const int64_t *, int64_t, const void *) = IS_SGN ? sgn_##dt : abs_##dt; \
        if (!tsr__sleef_usable() || s[1] != csz) return tail(d, s, n, ctx);                      \
        int64_t m = n - n % (CHUNK);                                                             \
        R re[256], im[256], r[256];                                                              \
        for (int64_t i = 0; i < m; i += 256) {                                                   \
            int64_t k = m - i < 256 ? m - i : 256;                                               \
            const R *z = (const R *)(d[1] + i * s[1]);                                           \
            for (int64_t j = 0; j < k; j++) { re[j] = z[2 * j]; im[j] = z[2 * j + 1]; }          \
            for (int64_t j = 0; j < k; j++) r[j] = sqrt(re[j] * re[j] + im[j] * im[j]);          \
            for (int64_t j = 0; j < k; j++) {                                                    \
                R *o = (R *)(d[0] + (i + j) * s[0]);                                             \
                if (!IS_SGN) o[0] = r[j];                                                        \
                else if (r[j] == 0) o[0] = 0, o[1] = 0;                                          \
                else o[0] = re[j] / r[j], o[1] = im[j] / r[j];                                   \
            }                                                                                    \
        }                                                                                        \
        char *t[2] = {d[0] + m * s[0], d[1] + m * s[1]};                                         \
        return tail(t, s, n - m, ctx);                                                           \
    }
CABS_SL(complex64, float, 8, 0) CABS_SL(complex128, double, 4, 0)
CABS_SL(complex64, float, 8, 1) CABS_SL(complex128, double, 4, 1)

/* ------------------------------------------------------------- op table */

typedef enum { K_FLOAT, K_SAME, K_INT_IDENTITY } ukind;  /* unary_float_op, same dtype, same with ints unchanged */

typedef struct {
    tsr_op op;                  /* the descriptor (runtime/op.h) */
    ukind kind;                 /* K_INT_IDENTITY: integer inputs are copied unchanged */
} unop_info;

#define F3 (M(TSR_FLOAT32) | M(TSR_FLOAT64) | M(TSR_BFLOAT16))
#define C2 (M(TSR_COMPLEX64) | M(TSR_COMPLEX128))
#define UNPAREN(...) __VA_ARGS__
#define UOPR(nm, kn, TAB, mask, kind_, rule_, cmsg, bmsg)                                          \
    {.op = {.name = nm, .aten = nm, .kname = kn, .arity = 1, .rule = rule_, .cpu_dtypes = mask,    \
            .meta_dtypes = M_ALL, .names = TSR_NAMES_UNARY, .differentiable = true,                \
            .cpu = (const tsr_loop_fn[TSR_DTYPE_SLOTS]){UNPAREN TAB}, .complex_msg = cmsg,         \
            .bool_msg = bmsg, .run = unary_run},                                                   \
     .kind = kind_}
#define UOP(nm, kn, TAB, mask, kind_, cmsg, bmsg) \
    UOPR(nm, kn, TAB, mask, kind_, (kind_) == K_FLOAT ? TSR_DT_UNARY_FLOAT : TSR_DT_SAME, cmsg, bmsg)
#define FLT(nm, kn, OP, mask) UOP(nm, kn, (T_(FAM_FLOAT, OP)), mask, K_FLOAT, NULL, NULL)
#define FLTC(nm, kn, OP) UOP(nm, kn, (T_(FAM_FLOAT, OP) T_(FAM_COMPLEX, OP)), F3 | C2, K_FLOAT, NULL, NULL)
#define FLTS(nm, kn, OP, mask) UOP(nm, kn, (T_SL(OP)), mask, K_FLOAT, NULL, NULL)
#define FLTSC(nm, kn, OP) UOP(nm, kn, (T_SL(OP) T_(FAM_COMPLEX, OP)), F3 | C2, K_FLOAT, NULL, NULL)
static tsr_tensor *unary_run(const tsr_op *d, const tsr_operand *in, tsr_tensor *out, bool inplace);
/* The named ops first (ORDER UNOP), then the ops the binding table finds by
 * their ATen name only (tsr_op_find): a new plain unary op is a body above
 * and a row at the end here. */
static const unop_info unops[] = {
    [TSR_UNOP_NEG] = UOP("neg", "neg_cpu", (T_(FAM_INT, neg) T_(FAM_FLOAT, neg) T_CV(neg)), M_ALL & ~M_BOOL,
                      K_SAME, NULL, "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                      "to invert a mask, use the `~` or `logical_not()` operator instead."),
    [TSR_UNOP_ABS] = UOPR("abs", "abs_cpu", (T_(FAM_INT, abs) T_(FAM_FLOAT, abs) [TSR_COMPLEX32] = abs_complex32,
                                             [TSR_COMPLEX64] = OP_SL_0_complex64, [TSR_COMPLEX128] = OP_SL_0_complex128,),
                       M_ALL & ~M_BOOL, K_SAME, TSR_DT_ABS, NULL, NULL),
    [TSR_UNOP_SIGN] = UOP("sign", "sign_cpu", (T_(FAM_INT, sign) T_(FAM_FLOAT, sign) T_(FAM_BOOL, sign)), M_ALL, K_SAME,
                       "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead.", NULL),
    [TSR_UNOP_SGN] = UOP("sgn", "sgn_cpu", (T_(FAM_INT, sign) T_(FAM_FLOAT, sign) T_(FAM_BOOL, sign) [TSR_COMPLEX32] = sgn_complex32,
                                          [TSR_COMPLEX64] = OP_SL_1_complex64, [TSR_COMPLEX128] = OP_SL_1_complex128,),
                      M_ALL, K_SAME, NULL, NULL),
    [TSR_UNOP_RECIPROCAL] = UOP("reciprocal", "reciprocal_cpu", (T_(FAM_FLOAT, recip) T_CV(recip)),
                             M_FLOAT | C2, K_FLOAT, NULL, NULL),
    [TSR_UNOP_SQUARE] = UOPR("square", "pow", (0), 0, K_SAME, TSR_DT_COMMON, NULL, NULL),   /* pow(x, 2) */
    [TSR_UNOP_ACOS] = FLTSC("acos", "acos_vml_cpu", acos),
    [TSR_UNOP_ACOSH] = FLTC("acosh", "acosh_cpu", acosh),
    [TSR_UNOP_ASIN] = FLTSC("asin", "asin_vml_cpu", asin),
    [TSR_UNOP_ASINH] = FLTC("asinh", "asinh_cpu", asinh),
    [TSR_UNOP_ATAN] = FLTSC("atan", "atan_vml_cpu", atan),
    [TSR_UNOP_ATANH] = FLTC("atanh", "atanh_cpu", atanh),
    [TSR_UNOP_CEIL] = UOP("ceil", "ceil_vml_cpu", (T_(FAM_FLOAT, ceil)), F3 | M_INT, K_INT_IDENTITY,
                       "ceil is not supported for complex inputs", NULL),
    [TSR_UNOP_COS] = FLTSC("cos", "cos_vml_cpu", cos),
    [TSR_UNOP_COSH] = FLTSC("cosh", "cosh_cpu", cosh),
    [TSR_UNOP_DEG2RAD] = UOP("deg2rad", "deg2rad", (T_(FAM_FLOAT, d2r)), M_FLOAT, K_FLOAT,
                          "deg2rad is not supported for complex tensors.", NULL),
    [TSR_UNOP_DIGAMMA] = FLT("digamma", "digamma", digamma, F3),
    [TSR_UNOP_ERF] = FLTS("erf", "erf_vml_cpu", erf, F3),
    [TSR_UNOP_ERFC] = FLTS("erfc", "erfc_vml_cpu", erfc, F3),
    [TSR_UNOP_ERFINV] = FLT("erfinv", "erfinv_vml_cpu", erfinv, F3),
    [TSR_UNOP_EXP] = UOP("exp", "exp_vml_cpu", (T_SL(exp) T_CV(exp)), F3 | C2, K_FLOAT, NULL, NULL),
    [TSR_UNOP_EXPM1] = FLTS("expm1", "expm1_vml_cpu", expm1, F3),
    [TSR_UNOP_FLOOR] = UOP("floor", "floor_vml_cpu", (T_(FAM_FLOAT, floor)), F3 | M_INT, K_INT_IDENTITY,
                        "floor is not supported for complex inputs", NULL),
    [TSR_UNOP_FRAC] = UOP("frac", "frac_cpu", (T_(FAM_FLOAT, frac)), M_FLOAT, K_SAME, NULL, NULL),
    [TSR_UNOP_LOG] = FLTSC("log", "log_vml_cpu", log),
    [TSR_UNOP_LOG10] = FLTSC("log10", "log10_vml_cpu", log10),
    [TSR_UNOP_LOG1P] = FLTS("log1p", "log1p_vml_cpu", log1p, F3),
    [TSR_UNOP_LOG2] = FLTSC("log2", "log2_vml_cpu", log2),
    [TSR_UNOP_RAD2DEG] = UOP("rad2deg", "rad2deg", (T_(FAM_FLOAT, r2d)), M_FLOAT, K_FLOAT,
                          "rad2deg is not supported for complex tensors.", NULL),
    [TSR_UNOP_ROUND] = UOP("round", "round_vml_cpu", (T_(FAM_FLOAT, round)), F3 | M_INT, K_INT_IDENTITY, NULL, NULL),
    [TSR_UNOP_RSQRT] = UOP("rsqrt", "rsqrt_cpu", ([TSR_FLOAT16] = rsqrt_float16, [TSR_FLOAT32] = rsqrt_float32,
                         [TSR_FLOAT64] = rsqrt_float64, [TSR_BFLOAT16] = rsqrt_vec_bfloat16,
                         T_CV(rsqrt)), F3 | C2, K_FLOAT, NULL, NULL),
    [TSR_UNOP_SIGMOID] = UOP("sigmoid", "sigmoid_cpu", (T_SL(sigmoid) T_CV(sigmoid)), F3 | C2, K_FLOAT, NULL, NULL),
    [TSR_UNOP_SIN] = FLTSC("sin", "sin_vml_cpu", sin),
    [TSR_UNOP_SINH] = FLTSC("sinh", "sinh_cpu", sinh),
    [TSR_UNOP_SQRT] = FLTC("sqrt", "sqrt_vml_cpu", sqrt),
    [TSR_UNOP_TAN] = FLTSC("tan", "tan_vml_cpu", tan),
    [TSR_UNOP_TANH] = FLTSC("tanh", "tanh_vml_cpu", tanh),
    [TSR_UNOP_TRUNC] = UOP("trunc", "trunc_vml_cpu", (T_(FAM_FLOAT, trunc)), F3 | M_INT, K_INT_IDENTITY,
                        "trunc is not supported for complex inputs", NULL),
    [TSR_UNOP_EXP2] = FLT("exp2", "exp2", exp2, M_FLOAT),
    [TSR_UNOP_LGAMMA] = FLTS("lgamma", "lgamma_vml_cpu", lgamma, F3),
    [TSR_UNOP_LOGIT] = FLT("logit", "logit_cpu", logit, F3),
    [TSR_UNOP_RELU] = UOP("relu", "clamp_min_cpu", (T_(FAM_INT, relu) T_(FAM_FLOAT, relu)), M_INT | F3, K_SAME,
                       "clamp is not supported for complex types", "Boolean inputs not supported for relu"),
    [TSR_UNOP_BITWISE_NOT] = UOP("bitwise_not", "bitwise_not_cpu", (T_(FAM_INT, bnot) T_(FAM_BOOL, bnot)),
                              M_INT | M_BOOL, K_SAME, NULL, NULL),
    [TSR_UNOP_NAN_TO_NUM] = UOP("nan_to_num", "nan_to_num", (T_(FAM_FLOAT, n2n)), M_FLOAT | M_INT | M_BOOL,
                             K_INT_IDENTITY, NULL, NULL),
    [TSR_UNOP_CONJ_PHYSICAL] = UOP("conj_physical", "conj_cpu", (T_(FAM_COMPLEX, conj)), M_ALL, K_SAME, NULL, NULL),
    /* found by ATen name only */
    UOPR("angle", "angle_cpu", (T_(FAM_FLOAT, angle) [TSR_COMPLEX64] = angle_sl_complex64,
         [TSR_COMPLEX128] = angle_sl_complex128), M_FLOAT | C2, K_FLOAT, TSR_DT_REAL_FLOAT, NULL, NULL),
};
#define NUNOPS ((int)(sizeof unops / sizeof unops[0]))
_Static_assert(sizeof unops / sizeof unops[0] >= TSR_UNOP_COUNT, "ORDER UNOP");

const char *tsr_unop_name(tsr_unop op) { return (unsigned)op < TSR_UNOP_COUNT ? unops[op].op.name : "?"; }
const tsr_op *tsr_unop_desc(tsr_unop op) { return (unsigned)op < TSR_UNOP_COUNT ? &unops[op].op : NULL; }
const tsr_op *tsr_unary_op_at(int i) { return i >= 0 && i < NUNOPS ? &unops[i].op : NULL; }

/* Integer "rounding" and nan_to_num on non-floats: a copy loop. */
static int copy_loop(char **d, const int64_t *s, int64_t n, const void *ctx)
{
    int sz = *(const int *)ctx;
    for (int64_t i = 0; i < n; i++) memcpy(d[0] + i * s[0], d[1] + i * s[1], (size_t)sz);
    return 0;
}

/* abs of a complex tensor into out= (UnaryOps.cpp abs_out): a real out
 * receives the magnitudes if the real dtype can be cast to it; a complex out
 * must have the input's dtype. In place is refused. */
static tsr_tensor *abs_complex_out(const tsr_tensor *t, tsr_tensor *out, bool inplace)
{
    tsr_dtype real = tsr_dtype_to_real(t->dtype);
    if (inplace) {
        tsr_error_set(TSR_ERR_RUNTIME, "In-place abs is not supported for complex tensors.");
        return NULL;
    }
    if (tsr_dtype_is_complex(out->dtype) ? out->dtype != t->dtype : !tsr_can_cast(real, out->dtype)) {
        if (tsr_dtype_is_complex(out->dtype))
            tsr_error_set(TSR_ERR_RUNTIME, "Found dtype %s but expected %s", tsr_dtype_scalar_name(out->dtype),
                          tsr_dtype_scalar_name(t->dtype));
        else
            tsr_error_set(TSR_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                          tsr_dtype_scalar_name(real), tsr_dtype_scalar_name(out->dtype));
        return NULL;
    }
    tsr_tensor *r = tsr_unary(TSR_UNOP_ABS, t, NULL, NULL);
    if (!r) return NULL;
    bool same = out->ndim == r->ndim && !memcmp(out->sizes, r->sizes, sizeof(int64_t) * (size_t)r->ndim);
    if ((!same && tsr_tensor_resize_(out, r->ndim, r->sizes) < 0) || tsr_copy_(out, r) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    tsr_tensor_release(r);
    return tsr_tensor_retain(out);
}

/* op: the index of the op in unops (the named ops' special cases key on it). */
/* NaN bits of 1.13's bfloat16 results. Vectorized<BFloat16>'s store
 * (cvtfp32_bf16) writes every NaN as 0xffff, the scalar c10 conversion
 * 0x7fc0. vml ops (vec::map, strided input through a contiguous buffer)
 * take the vector store for every element; cpu_kernel_vec ops for whole
 * 2 * 16-element blocks of a contiguous row (or a broadcast input) only. */
typedef struct {
    tsr_loop_fn fn;
    const void *ctx;
    bool all;
} bf16_nan_ctx;

static int bf16_nan_loop(char **d, const int64_t *s, int64_t n, const void *ctx)
{
    const bf16_nan_ctx *c = ctx;
    int r = c->fn(d, s, n, c->ctx);
    if (r) return r;
    int64_t m = n;
    if (!c->all) {
        if (s[0] != 2 || (s[1] != 2 && s[1] != 0)) return 0;
        m = n - n % 32;
    }
    for (int64_t i = 0; i < m; i++) {
        uint16_t *o = (uint16_t *)(d[0] + i * s[0]);
        if ((*o & 0x7fffu) > 0x7f80u) *o = 0xffff;
    }
    return 0;
}

static tsr_tensor *unary_impl(int op, const tsr_tensor *x, tsr_tensor *out, bool inplace,
                              const tsr_unary_opts *opts)
{
    if (op < 0 || op >= NUNOPS) {
        tsr_error_set(TSR_ERR_VALUE, "unknown unary op %d", op);
        return NULL;
    }
    const unop_info *info = &unops[op];
    const tsr_op *desc = &info->op;
    tsr_dtype in = x->dtype;
    tsr_operand a = tsr_operand_tensor(x);
    if (tsr_op_check_inputs(desc, 1, &a) < 0) return NULL;
    if (op == TSR_UNOP_SQUARE) {
        tsr_operand b = tsr_operand_scalar(tsr_scalar_int(2));
        return inplace ? tsr_binary_(TSR_BINOP_POW, (tsr_tensor *)x, &b, NULL)
                       : tsr_binary(TSR_BINOP_POW, &a, &b, out, NULL);
    }
    if (op == TSR_UNOP_ABS && tsr_dtype_is_complex(in) && out && (inplace || out->dtype != tsr_dtype_to_real(in)))
        return abs_complex_out(x, out, inplace);
    if (desc->complex_msg && tsr_dtype_is_complex(in)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s", desc->complex_msg);
        return NULL;
    }
    if (desc->bool_msg && in == TSR_BOOL) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s", desc->bool_msg);
        return NULL;
    }
    tsr_dtype dt = tsr_op_compute_dtype(desc, 1, &a, NULL);
    tsr_dtype outdt = tsr_op_result_dtype(desc, dt);
    tsr__kparams kp = {0};
    int itemsize = tsr_dtype_itemsize(dt);
    tsr_loop_fn fn = tsr_op_kernel(desc, dt);
    const void *ctx = &kp;
    const char *kname = desc->kname;
    if (info->kind == K_INT_IDENTITY && !tsr_dtype_is_floating(dt) && (desc->cpu_dtypes & M(dt))) {
        fn = copy_loop;
        ctx = &itemsize;
    }
    if (op == TSR_UNOP_CONJ_PHYSICAL && !tsr_dtype_is_complex(dt)) {   /* conj is a copy of a real tensor */
        fn = copy_loop;
        ctx = &itemsize;
    }
    if (op == TSR_UNOP_ROUND && opts && opts->decimals != 0) {
        kname = "round_cpu";
        static const tsr_loop_fn roundd[TSR_DTYPE_SLOTS] = { T_(FAM_FLOAT, roundd) };
        fn = (F3 & M(dt)) ? roundd[dt] : NULL;
        int64_t dec = opts->decimals;
        kp.flag = dec < 0;
        kp.d = pow(10.0, (double)(dec < 0 ? -dec : dec));
        if (dt != TSR_FLOAT64) kp.d = (float)kp.d;
    }
    if (op == TSR_UNOP_LOGIT && opts && opts->has_eps && opts->eps >= 0) {
        kp.flag = 1;
        kp.d = opts->eps;
        kp.d2 = 1 - opts->eps;
    }
    if (op == TSR_UNOP_DEG2RAD || op == TSR_UNOP_RAD2DEG) {
        unsigned char buf[16];
        tsr_scalar_store(dt, buf, tsr_scalar_float(op == TSR_UNOP_DEG2RAD ? M_PI / 180.0 : 180.0 / M_PI));
        kp.d = tsr_scalar_to_double(tsr_scalar_load(dt, buf));
    }
    if (op == TSR_UNOP_NAN_TO_NUM) {
        tsr_finfo fi;
        double mx = DBL_MAX;
        if (tsr_dtype_is_floating(dt) && tsr_dtype_finfo(dt, &fi) == 0) mx = fi.max;
        kp.d = opts && opts->has_nan ? opts->nan : 0;
        kp.d2 = opts && opts->has_posinf ? opts->posinf : mx;
        kp.d3 = opts && opts->has_neginf ? opts->neginf : -mx;
    }
    tsr_iter_config cfg = {.nin = 1, .in_dtype = {dt}, .out_dtype = outdt, .check_dtype = outdt,
                           .check = tsr_op_out_check(desc), .inplace = inplace, .kname = kname, .kdtype = dt,
                           .dev_kernel = tsr_op_dev_kernel(desc), .aten = desc->aten};
    /* the device kernels' parameters (cuda/kern.h), in the compute type there */
    if (op == TSR_UNOP_ROUND && opts && opts->decimals != 0) {
        int64_t dec = opts->decimals;
        cfg.dev_kernel = TSR_K_ROUND_DEC;
        cfg.aten = "round.decimals";
        cfg.dev_params.mode = dec < 0;
        cfg.dev_params.d[0] = pow(10.0, (double)(dec < 0 ? -dec : dec));
    }
    if (op == TSR_UNOP_LOGIT && opts && opts->has_eps && opts->eps >= 0) {
        cfg.dev_params.mode = 1;
        cfg.dev_params.d[0] = opts->eps;
    }
    if (op == TSR_UNOP_DEG2RAD || op == TSR_UNOP_RAD2DEG)   /* a mul by a wrapped number, cast to the dtype */
        cfg.dev_params.d[0] = kp.d;
    if (op == TSR_UNOP_NAN_TO_NUM) {
        cfg.dev_params.d[0] = kp.d;
        cfg.dev_params.d[1] = kp.d2;
        cfg.dev_params.d[2] = kp.d3;
    }
    if (dt == TSR_BFLOAT16 && outdt == TSR_BFLOAT16 && fn && (!out || out->dtype == TSR_BFLOAT16) &&
        tsr__sleef_usable()) {
        size_t kl = kname ? strlen(kname) : 0;
        bool vml = kl > 8 && strcmp(kname + kl - 8, "_vml_cpu") == 0;
        bool vec = op == TSR_UNOP_ABS || op == TSR_UNOP_NEG || op == TSR_UNOP_SIGMOID || op == TSR_UNOP_SINH ||
                   op == TSR_UNOP_COSH || op == TSR_UNOP_RSQRT || op == TSR_UNOP_RECIPROCAL || op == TSR_UNOP_FRAC;
        if (vml || vec) {
            bf16_nan_ctx bc = {.fn = fn, .ctx = ctx, .all = vml};
            return tsr_iter_run(&cfg, &a, out, bf16_nan_loop, &bc);
        }
    }
    if (op == TSR_UNOP_CONJ_PHYSICAL && x->device.type != TSR_DEV_CPU && x->device.type != TSR_DEV_META) {
        /* on a device: a copy (of x's conjugate view: the engine resolves
         * the bit there, a copy and a negation of the imaginary parts) */
        cfg.dev_kernel = TSR_K_COPY;
        if (!tsr_dtype_is_complex(dt)) return tsr_iter_run(&cfg, &a, out, fn, ctx);
        tsr_tensor *v = tsr_conj((tsr_tensor *)x);
        if (!v) return NULL;
        tsr_operand va = tsr_operand_tensor(v);
        tsr_tensor *r = tsr_iter_run(&cfg, &va, out, fn, ctx);
        tsr_tensor_release(v);
        return r;
    }
    return tsr_iter_run(&cfg, &a, out, fn, ctx);
}

static tsr_tensor *unary_run(const tsr_op *d, const tsr_operand *in, tsr_tensor *out, bool inplace)
{
    if (!in[0].t) {
        tsr_error_set(TSR_ERR_TYPE, "%s(): expected a tensor", d->name);
        return NULL;
    }
    return unary_impl((int)((const unop_info *)d - unops), in[0].t, out, inplace, NULL);
}

tsr_tensor *tsr_unary(tsr_unop op, const tsr_tensor *x, tsr_tensor *out, const tsr_unary_opts *opts)
{
    return unary_impl(op, x, out, false, opts);
}

tsr_tensor *tsr_unary_(tsr_unop op, tsr_tensor *x, const tsr_unary_opts *opts)
{
    return unary_impl(op, x, x, true, opts);
}

/* ------------------------------------------------------------------ conj */

tsr_tensor *tsr_conj(tsr_tensor *x)
{
    if (!tsr_dtype_is_complex(x->dtype)) return tsr_tensor_retain(x);
    if (x->names) {   /* aten::_conj has no named-tensor rule in 1.13 */
        tsr_error_set(TSR_ERR_RUNTIME, "aten::_conj is not yet supported with named tensors. Please drop names via "
                      "`tensor = tensor.rename(None)`, call the op with an unnamed tensor, and set names on the result "
                      "of the operation.");
        return NULL;
    }
    tsr_tensor *v = tsr_view_alias(x);   /* _conj: a view with the bit flipped */
    if (v) v->conj = !x->conj;
    return v;
}

tsr_tensor *tsr_conj_physical(tsr_tensor *x, tsr_tensor *out)
{
    if (!out && !tsr_dtype_is_complex(x->dtype)) return tsr_tensor_retain(x);
    return unary_impl(TSR_UNOP_CONJ_PHYSICAL, x, out, false, NULL);
}

tsr_tensor *tsr_conj_physical_(tsr_tensor *x)
{
    if (!tsr_dtype_is_complex(x->dtype)) return tsr_tensor_retain(x);
    return unary_impl(TSR_UNOP_CONJ_PHYSICAL, x, x, true, NULL);
}


/* ----------------------------------------------------------------- frexp */

static const tsr_op frexp_op = {.name = "frexp", .aten = "frexp.Tensor", .kname = "frexp_cpu", .arity = 1,
                                .rule = TSR_DT_SAME, .cpu_dtypes = M_FLOAT, .meta_dtypes = 0,
                                .names = TSR_NAMES_UNARY, .differentiable = true,
                                .cpu = (const tsr_loop_fn[TSR_DTYPE_SLOTS]){T_(FAM_FLOAT, frexpm)}};
const tsr_op *tsr_frexp_desc(void) { return &frexp_op; }

tsr_tensor *tsr_frexp(const tsr_tensor *x, tsr_tensor *mant_out, tsr_tensor *exp_out, tsr_tensor **exponent)
{
    static const tsr_loop_fn etab[TSR_DTYPE_SLOTS] = { T_(FAM_FLOAT, frexpe) };
    tsr_operand a = tsr_operand_tensor(x);
    *exponent = NULL;
    if (tsr_op_check_inputs(&frexp_op, 1, &a) < 0) return NULL;
    if (tsr_device_is_meta(x->device)) {   /* frexp.Tensor_out has CPU and CUDA kernels only */
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED,
                      "Could not run 'aten::frexp.Tensor_out' with arguments from the 'Meta' backend. This could be "
                      "because the operator doesn't exist for this backend, or was omitted during the selective/custom "
                      "build process (if using custom build). If you are a Facebook employee using PyTorch on mobile, "
                      "please visit https://fburl.com/ptmfixes for possible resolutions. 'aten::frexp.Tensor_out' is "
                      "only available for these backends: [CPU, BackendSelect, Python, FuncTorchDynamicLayerBackMode, "
                      "Functionalize, Named, Conjugate, Negative, ZeroTensor, ADInplaceOrView, AutogradOther, "
                      "AutogradCPU, AutogradCUDA, AutogradHIP, AutogradXLA, AutogradMPS, AutogradIPU, AutogradXPU, "
                      "AutogradHPU, AutogradVE, AutogradLazy, AutogradMeta, AutogradPrivateUse1, AutogradPrivateUse2, "
                      "AutogradPrivateUse3, AutogradNestedTensor, Tracer, AutocastCPU, AutocastCUDA, FuncTorchBatched, "
                      "FuncTorchVmapMode, Batched, VmapMode, FuncTorchGradWrapper, PythonTLSSnapshot, "
                      "FuncTorchDynamicLayerFrontMode, PythonDispatcher].");
        return NULL;
    }
    /* UnaryOps.cpp frexp_out: the checks name dtypes the TypeMeta way */
    if (!tsr_dtype_is_floating(x->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.frexp() only supports floating-point dtypes");
        return NULL;
    }
    if (mant_out && mant_out->dtype != x->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.frexp() expects mantissa to have dtype %s but got %s",
                      tsr_dtype_typemeta_name(x->dtype), tsr_dtype_typemeta_name(mant_out->dtype));
        return NULL;
    }
    if (exp_out && exp_out->dtype != TSR_INT32) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.frexp() expects exponent to have int dtype but got %s",
                      tsr_dtype_typemeta_name(exp_out->dtype));
        return NULL;
    }
    tsr_dtype dt = x->dtype;
    tsr__kparams kp = {0};
    tsr_iter_config cfg = {.nin = 1, .in_dtype = {dt}, .out_dtype = dt, .check_dtype = dt,
                           .check = TSR_CHECK_NONE, .kname = frexp_op.kname, .kdtype = dt};
    tsr_tensor *m = tsr_iter_run(&cfg, &a, mant_out, frexp_op.cpu[dt], &kp);
    if (!m) return NULL;
    cfg.out_dtype = cfg.check_dtype = TSR_INT32;
    tsr_tensor *e = tsr_iter_run(&cfg, &a, exp_out, etab[dt], &kp);
    if (!e) {
        tsr_tensor_release(m);
        return NULL;
    }
    *exponent = e;
    return m;
}

/* ----------------------------------------------------------------- clamp */

#define CLAMP_I(x, lo, hi) clampi_(x, lo, hi, KP->flag)
static inline int64_t clampi_(int64_t x, int64_t lo, int64_t hi, int f)
{
    if (f & 1) x = x < lo ? lo : x;
    if (f & 2) x = x > hi ? hi : x;
    return x;
}
/* NaN-propagating max then min, as vec::clamp / minimum(maximum(...)). */
#define CLAMP_F(x, lo, hi) clampf_(x, lo, hi, KP->flag)
#define clampf_(x, lo, hi, f) _Generic((x), float: clampff, default: clampfd)(x, lo, hi, f)
static inline double clampfd(double x, double lo, double hi, int f)
{
    if (x != x) return x;
    if (f & 1) x = lo != lo ? lo : (x < lo ? lo : x);
    if (f & 2) x = hi != hi ? hi : (x > hi ? hi : x);
    return x;
}
static inline float clampff(float x, float lo, float hi, int f)
{
    if (x != x) return x;
    if (f & 1) x = lo != lo ? lo : (x < lo ? lo : x);
    if (f & 2) x = hi != hi ? hi : (x > hi ? hi : x);
    return x;
}
#define CL_LOOP(T, LD, ST, C, BODY)                                                   \
    const void *c = ctx; char *o = d[0]; const char *a = d[1], *b = d[2], *w = d[3];  \
    for (int64_t i = 0; i < n; i++) {                                                 \
        C x = LD(*(const T *)(a + i * s[1])), y = LD(*(const T *)(b + i * s[2]));     \
        C z = LD(*(const T *)(w + i * s[3]));                                         \
        *(T *)(o + i * s[0]) = ST(BODY(x, y, z));                                     \
    }                                                                                 \
    return 0;
#define DEF_CL(dt, T, C, R, OP, BODY) LOOP_SIG(OP##_##dt) { CL_LOOP(T, LD_##dt, ST_##dt, C, BODY) }
FAM_INT(DEF_CL, clamp, CLAMP_I)
FAM_FLOAT(DEF_CL, clamp, CLAMP_F)
static const tsr_loop_fn clamp_tab[TSR_DTYPE_SLOTS] = { T_(FAM_INT, clamp) T_(FAM_FLOAT, clamp) };

/* Which kernel runs depends on the bounds given, not on the function called
 * (TensorCompare.cpp): Scalar bounds run clamp_scalar / clamp_min /
 * clamp_max_scalar; Tensor bounds run clamp, or with one bound the maximum /
 * minimum kernels (binary.h: tsr_op_clamp_min_tensor, _max_tensor). */
#define CLAMP(nm, at, kn, ar)                                                                      \
    {.name = nm, .aten = at, .kname = kn, .arity = ar, .rule = TSR_DT_COMMON, .cpu_dtypes = M_INT | F3, \
     .meta_dtypes = M_ALL, .names = TSR_NAMES_UNARY, .differentiable = true, .cpu = clamp_tab,         \
     .complex_msg = "clamp is not supported for complex types"}
const tsr_op tsr_op_clamp_scalar = CLAMP("clamp", "clamp", "clamp_scalar_cpu", 3);
const tsr_op tsr_op_clamp_min_scalar = CLAMP("clamp_min", "clamp_min", "clamp_min_cpu", 2);
const tsr_op tsr_op_clamp_max_scalar = CLAMP("clamp_max", "clamp_max", "clamp_max_scalar_cpu", 2);
const tsr_op tsr_op_clamp_tensor = CLAMP("clamp", "clamp.Tensor", "clamp_cpu", 3);

const tsr_op *tsr_clamp_desc(const tsr_operand *lo, const tsr_operand *hi)
{
    bool tensors = (lo && lo->t) || (hi && hi->t);
    if (lo && hi) return tensors ? &tsr_op_clamp_tensor : &tsr_op_clamp_scalar;
    if (tensors) return lo ? &tsr_op_clamp_min_tensor : &tsr_op_clamp_max_tensor;
    return lo ? &tsr_op_clamp_min_scalar : &tsr_op_clamp_max_scalar;
}

/* The dtype checks of the out= / in-place write, made while the iterator is
 * built: clamp with Scalar bounds is a unary op with check_all_same_dtype
 * ("Found dtype Long but expected Char"), and in place its refusal names
 * self's dtype the TypeMeta way ("... desired output type signed char").
 * Tensor bounds make an ordinary op with the can_cast check. */
static int clamp_precheck(const tsr_operand *o, int n, const tsr_tensor *out, bool inplace, bool scalars)
{
    int nd[3], m = 0;
    const int64_t *sz[3];
    for (int k = 0; k < n; k++)
        if (o[k].t) { nd[m] = o[k].t->ndim; sz[m++] = o[k].t->sizes; }
    int64_t shape[TSR_MAX_DIMS];
    if (m > 1 && tsr_broadcast_shapes(m, nd, sz, shape) < 0) return -1;
    tsr_dtype dt = tsr_result_type(n, o, NULL);
    if (tsr_dtype_is_complex(dt)) return 0;
    if (inplace) {
        if (!tsr_can_cast(dt, out->dtype)) {
            tsr_error_set(TSR_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                          tsr_dtype_scalar_name(dt),
                          scalars ? tsr_dtype_typemeta_name(out->dtype) : tsr_dtype_scalar_name(out->dtype));
            return -1;
        }
        return 0;
    }
    if (scalars && out->dtype != dt) {
        tsr_error_set(TSR_ERR_RUNTIME, "Found dtype %s but expected %s", tsr_dtype_scalar_name(out->dtype),
                      tsr_dtype_scalar_name(dt));
        return -1;
    }
    return 0;
}

/* complex_check: torch.clamp refuses complex for Tensor bounds too;
 * clamp_min / clamp_max with a Tensor bound reach the kernel. */
static tsr_tensor *clamp_impl(const tsr_tensor *x, const tsr_operand *lo, const tsr_operand *hi, tsr_tensor *out,
                              bool inplace, bool complex_check)
{
    tsr_operand ops[3];
    int n = 0;
    ops[n++] = tsr_operand_tensor(x);
    if (lo) ops[n++] = *lo;
    if (hi) ops[n++] = *hi;
    bool scalars = (!lo || !lo->t) && (!hi || !hi->t);
    if (n > 1 && out && clamp_precheck(ops, n, out, inplace, scalars) < 0) return NULL;
    if (!lo && !hi) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.clamp: At least one of 'min' or 'max' must not be None");
        return NULL;
    }
    const tsr_op *desc = tsr_clamp_desc(lo, hi);
    if (tsr_op_check_inputs(desc, n, ops) < 0) return NULL;
    tsr_dtype dt = tsr_op_compute_dtype(desc, n, ops, NULL);
    if (tsr_dtype_is_complex(dt) && (scalars || complex_check)) {
        tsr_error_set(TSR_ERR_RUNTIME, "clamp is not supported for complex types");
        return NULL;
    }
    if (lo && !lo->t && tsr_scalar_check_fits(lo->s, dt) < 0) return NULL;
    if (hi && !hi->t && tsr_scalar_check_fits(hi->s, dt) < 0) return NULL;
    tsr_loop_fn fn = tsr_op_kernel(desc, dt);
    tsr__kparams kp = {0};
    tsr_iter_config cfg = {.nin = n, .in_dtype = {dt, dt, dt}, .out_dtype = dt, .check_dtype = dt,
                           .check = tsr_op_out_check(desc), .inplace = inplace, .kname = desc->kname, .kdtype = dt,
                           .dev_kernel = tsr_op_dev_kernel(desc), .aten = desc->aten};
    if (!scalars && n == 2) return tsr_iter_run(&cfg, ops, out, fn, &kp);   /* maximum / minimum */
    kp.flag = (lo ? 1 : 0) | (hi ? 2 : 0);
    cfg.dev_params.mode = kp.flag;
    tsr_operand full[3] = {tsr_operand_tensor(x), lo ? *lo : tsr_operand_scalar(tsr_scalar_int(0)),
                           hi ? *hi : tsr_operand_scalar(tsr_scalar_int(0))};
    cfg.nin = 3;
    return tsr_iter_run(&cfg, full, out, fn, &kp);
}

tsr_tensor *tsr_clamp(const tsr_tensor *x, const tsr_operand *min, const tsr_operand *max, tsr_tensor *out)
{
    return clamp_impl(x, min, max, out, false, true);
}

tsr_tensor *tsr_clamp_(tsr_tensor *x, const tsr_operand *min, const tsr_operand *max)
{
    return clamp_impl(x, min, max, x, true, true);
}

tsr_tensor *tsr_clamp_bound(const tsr_tensor *x, const tsr_operand *bound, bool is_max, tsr_tensor *out, bool inplace)
{
    return clamp_impl(x, is_max ? NULL : bound, is_max ? bound : NULL, out, inplace, false);
}

/* ----------------------------------------------------- sign tests, + and ~ */

static const tsr_op signed_inf_ops[2] = {
    {.name = "isposinf", .aten = "isposinf", .kname = "isposinf", .arity = 1, .rule = TSR_DT_BOOL,
     .cpu_dtypes = M_ALL, .meta_dtypes = M_ALL, .names = TSR_NAMES_UNARY},
    {.name = "isneginf", .aten = "isneginf", .kname = "isneginf", .arity = 1, .rule = TSR_DT_BOOL,
     .cpu_dtypes = M_ALL, .meta_dtypes = M_ALL, .names = TSR_NAMES_UNARY},
};
const tsr_op *tsr_signed_inf_desc(bool negative) { return &signed_inf_ops[negative]; }

tsr_tensor *tsr_signed_inf(const tsr_tensor *x, bool negative, tsr_tensor *out)
{
    tsr_operand xo = tsr_operand_tensor(x), zero = tsr_operand_scalar(tsr_scalar_int(0));
    if (tsr_op_check_inputs(&signed_inf_ops[negative], 1, &xo) < 0) return NULL;
    if (tsr_dtype_is_complex(x->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s does not support complex inputs.", signed_inf_ops[negative].name);
        return NULL;
    }
    /* isinf(x) & (x > 0): integers are never infinite */
    tsr_tensor *inf = tsr_predicate(TSR_PRED_ISINF, x, NULL), *sgn = NULL, *r = NULL;
    if (inf) sgn = tsr_compare(negative ? TSR_CMP_LT : TSR_CMP_GT, &xo, &zero, NULL);
    if (sgn) {
        tsr_operand a = tsr_operand_tensor(inf), c = tsr_operand_tensor(sgn);
        r = tsr_compare(TSR_CMP_LOGICAL_AND, &a, &c, out);
    }
    tsr_tensor_release(inf);
    tsr_tensor_release(sgn);
    return r;
}

int tsr_positive_check(const tsr_tensor *x)
{
    if (x->dtype != TSR_BOOL) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "The `+` operator, on a bool tensor is not supported.");
    return -1;
}

tsr_tensor *tsr_invert(const tsr_tensor *x)
{
    if (!tsr_dtype_is_integral(x->dtype, true)) {
        tsr_error_set(TSR_ERR_TYPE, "~ (operator.invert) is only implemented on integer and Boolean-type tensors");
        return NULL;
    }
    return tsr_unary(TSR_UNOP_BITWISE_NOT, x, NULL, NULL);
}
