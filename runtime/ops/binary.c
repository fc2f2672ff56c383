/* runtime/ops/binary.c — binary kernels (one scalar body per category,
 * expanded over the dtype families of loops.h) and the dtype rules of each op
 * (SEMANTICS.md §1.4–1.5, aten/src/ATen/native/BinaryOps.cpp). Float16 and
 * bfloat16 compute in float; ints in int64 stored back with wrap-around, which
 * gives the same bits as PyTorch's native-width arithmetic. */
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#include <tgmath.h>
#include <string.h>
#include "../error.h"
#include "../view.h"
#include "loops.h"
#include "binary.h"
#include "sleef.h"
#include "copy.h"
#include "factory.h"

int tsr__not_implemented(const char *kname, tsr_dtype d)
{
    tsr_error_set(TSR_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kname, tsr_dtype_scalar_name(d));
    return -1;
}

/* ---------------------------------------------------------------- bodies */

#define WRAP(e) ((int64_t)(e))
#define U64(x) ((uint64_t)(x))

#define ADD_I(x, y) WRAP(U64(x) + U64(y))
#define ADD_F(x, y) ((x) + (y))
#define ADD_B(x, y) ((x) || (y))
#define ADDA_I(x, y) WRAP(U64(x) + U64(y) * U64(KP->i))
#define ADDA_F(x, y) fma((y), (real_t)KP->d, (x))
#define ADDA_C(x, y) ((x) + CMUL((y), __builtin_complex((real_t)creal(KP->z), (real_t)cimag(KP->z))))
#define ADDA_B(x, y) ((x) || ((y) && KP->i))
#define SUB_I(x, y) WRAP(U64(x) - U64(y))
#define SUB_F(x, y) ((x) - (y))
#define MUL_I(x, y) WRAP(U64(x) * U64(y))
#define MUL_F(x, y) ((x) * (y))
#define MUL_C(x, y) CMUL(x, y)
#define MUL_B(x, y) ((x) && (y))
#define DIV_F(x, y) ((x) / (y))
#define DIV_C(x, y) CDIV(x, y)

static inline int64_t neg_wrap(int64_t a) { return (int64_t)(0 - (uint64_t)a); }
static inline int64_t idiv_trunc(int64_t a, int64_t b) { return b == -1 ? neg_wrap(a) : a / b; }
static inline int64_t idiv_floor(int64_t a, int64_t b)
{
    if (b == -1) return neg_wrap(a);
    if ((a < 0) != (b < 0)) {
        int64_t q = a / b, r = a % b;
        return r ? q - 1 : q;
    }
    return a / b;
}
static inline int64_t irem(int64_t a, int64_t b)
{
    if (b == -1) return 0;
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}
static inline int64_t ifmod(int64_t a, int64_t b) { return b == -1 ? 0 : a % b; }
#define ZCHK(y, e) ((y) == 0 ? (err = TSR_KERR_ZERODIV, (int64_t)0) : (e))
#define DIVT_I(x, y) ZCHK(y, idiv_trunc(x, y))
#define DIVF_I(x, y) ZCHK(y, idiv_floor(x, y))
#define REM_I(x, y) ZCHK(y, irem(x, y))
#define FMOD_I(x, y) ZCHK(y, ifmod(x, y))
#define DIVT_F(x, y) trunc((x) / (y))
/* div_floor_floating (aten/src/ATen/native/BinaryOps.h) */
#define DIVF_F(x, y) fdiv_floor(x, y)
#define fdiv_floor(a, b) _Generic((a), float: fdiv_floorf, default: fdiv_floord)(a, b)
static inline double fdiv_floord(double a, double b)
{
    if (b == 0) return a / b;
    double mod = fmod(a, b), div = (a - mod) / b;
    if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
    double fl;
    if (div != 0) {
        fl = floor(div);
        if (div - fl > 0.5) fl += 1.0;
    } else {
        fl = copysign(0.0, a / b);
    }
    return fl;
}
static inline float fdiv_floorf(float a, float b)
{
    if (b == 0) return a / b;
    float mod = fmodf(a, b), div = (a - mod) / b;
    if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
    float fl;
    if (div != 0) {
        fl = floorf(div);
        if (div - fl > 0.5f) fl += 1.0f;
    } else {
        fl = copysignf(0.0f, a / b);
    }
    return fl;
}
#define REM_F(x, y) frem(x, y)
#define frem(a, b) _Generic((a), float: fremf, default: fremd)(a, b)
static inline double fremd(double a, double b)
{
    double m = fmod(a, b);
    if (m != 0 && ((b < 0) != (m < 0))) m += b;
    return m;
}
static inline float fremf(float a, float b)
{
    float m = fmodf(a, b);
    if (m != 0 && ((b < 0) != (m < 0))) m += b;
    return m;
}
#define FMOD_F(x, y) fmod(x, y)

/* bfloat16 ** -0.5: 1.13 hands it to rsqrt_kernel, whose vector body
 * divides in float (one rounding) and whose scalar tail (past the last
 * whole 32-element chunk of a contiguous row, and strided rows) rounds the
 * root to bfloat16 first. d[2], the exponent, is not read. */
static int pow_rsqrt_bf16(char **d, const int64_t *s, int64_t n, const void *ctx)
{
    (void)ctx;
    bool vec = tsr__sleef_usable() && s[0] == 2 && (s[1] == 2 || s[1] == 0);
    int64_t m = vec ? n - n % 32 : 0;
    for (int64_t i = 0; i < n; i++) {
        float x = tsr_bfloat16_to_float(*(const tsr_bfloat16 *)(d[1] + i * s[1]));
        float r = i < m ? 1 / sqrtf(x) : 1 / tsr_bfloat16_to_float(tsr_float_to_bfloat16(sqrtf(x)));
        *(tsr_bfloat16 *)(d[0] + i * s[0]) = tsr_float_to_bfloat16(r);
    }
    return 0;
}

/* pow: PyTorch's powi for integers; scalar exponents 2, 3, ±0.5, -1, -2
 * take the special forms of pow_tensor_scalar_optimized_kernel (flag). */
static inline int64_t powi(int64_t a, int64_t b)
{
    if (b < 0) {
        if (a == 1) return 1;
        if (a == -1) return (b % 2 == 0) ? 1 : -1;
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
#define POW_I(x, y) powi(x, y)
#define POW_F(x, y) (KP->flag == 0 ? pow(x, y) : KP->flag == 1 ? (x) * (x) : KP->flag == 2 ? (x) * (x) * (x) \
                     : KP->flag == 3 ? sqrt(x) : KP->flag == 4 ? 1 / sqrt(x) : KP->flag == 5 ? 1 / (x) \
                     : KP->flag == 7 ? (real_t)pow((double)(x), KP->d) : KP->flag == 8 ? BF_R((x) * (x)) * (x)     \
                     : KP->flag == 9 ? 1 / BF_R((x) * (x)) : 1 / ((x) * (x)))
/* bfloat16's x ** 3 and x ** -2 are BFloat16 arithmetic in 1.13 (base * base
 * * base, 1 / (base * base)): the square rounds to bfloat16 first */
#define BF_R(v) tsr_bfloat16_to_float(tsr_float_to_bfloat16((float)(v)))
#define ONE_C __builtin_complex((real_t)1, (real_t)0)
#define POW_C(x, y) (KP->flag == 0 ? cpowz(x, y) : KP->flag == 1 ? CMUL(x, x) : KP->flag == 2 ? CMUL(CMUL(x, x), x) \
                     : KP->flag == 3 ? sqrt(x) : KP->flag == 4 ? CDIV(ONE_C, sqrt(x)) : KP->flag == 5 ? CDIV(ONE_C, x) \
                     : CDIV(ONE_C, CMUL(x, x)))
#define cpowz(x, y) pow(x, y)
#define ATAN2_F(x, y) atan2(x, y)
#define HYPOT_F(x, y) hypot(x, y)
#define MAX_I(x, y) ((x) > (y) ? (x) : (y))
#define MIN_I(x, y) ((x) < (y) ? (x) : (y))
#define MAX_F(x, y) (((x) != (x) || (y) != (y)) ? (real_t)NAN : (x) > (y) ? (x) : (y))
#define MIN_F(x, y) (((x) != (x) || (y) != (y)) ? (real_t)NAN : (x) < (y) ? (x) : (y))
#define FMAX_F(x, y) fmax(x, y)
#define FMIN_F(x, y) fmin(x, y)
#define AND_I(x, y) ((x) & (y))
#define OR_I(x, y) ((x) | (y))
#define XOR_I(x, y) ((x) ^ (y))
#define AND_B(x, y) ((x) && (y))
#define OR_B(x, y) ((x) || (y))
#define XOR_B(x, y) ((x) != (y))
/* logaddexp / logaddexp2 (BinaryOpsKernel.cpp in 1.13): equal infinities
 * give themselves, else max + log(1 + exp(-|a - b|)) and
 * max + log2(1 + pow(2, -|a - b|)). bfloat16 computes in float and
 * rounds once. */
#define LAE_MAX(a, b) ((a) < (b) ? (b) : (a))                 /* std::max */
#define LAE_F(x, y) ((isinf(x) && (x) == (y)) ? (x) : LAE_MAX(x, y) + log((real_t)1 + exp(-fabs((x) - (y)))))
#define LAE2_F(x, y) ((isinf(x) && (x) == (y)) ? (x) : LAE_MAX(x, y) + log2((real_t)1 + pow((real_t)2, -fabs((x) - (y)))))
/* copysign: exact in every dtype. nextafter of bfloat16 steps the 16-bit
 * pattern (c10/util/BFloat16-math.h, after musl). */
#define COPYSIGN_F(x, y) copysign(x, y)
#define NEXTAFTER_F(x, y) nextafter(x, y)
static inline float nextafter_bf16(float from, float to)
{
    if (from != from || to != to) return from + to;
    uint16_t f = tsr_float_to_bfloat16(from), t = tsr_float_to_bfloat16(to);
    if (f == t) return from;
    uint16_t af = f & 0x7fff, at = t & 0x7fff;
    if (af == 0) {
        if (at == 0) return to;
        return tsr_bfloat16_to_float((uint16_t)((t & 0x8000) | 1));
    }
    if (af > at || ((f ^ t) & 0x8000)) f--;
    else f++;
    return tsr_bfloat16_to_float(f);
}
/* heaviside: values where x == 0, else x > 0 */
#define HEAVI(x, y) ((x) == 0 ? (y) : (x) > 0)
/* gcd / lcm in the storage type with C++'s integer promotions (calc_gcd in
 * Math.h; std::abs of the most negative value stays negative). */
#define GCD_FN(T, NAME)                                                                  \
    static inline T NAME(T a, T b)                                                     \
    {                                                                                  \
        a = (T)(a < 0 ? (T)(0 - (uint64_t)a) : a);                                     \
        b = (T)(b < 0 ? (T)(0 - (uint64_t)b) : b);                                     \
        while (a != 0) { T c = a; a = (T)(b % a); b = c; }                             \
        return b;                                                                      \
    }
static inline uint8_t gcd_u8(uint8_t a, uint8_t b)
{
    while (a != 0) { uint8_t c = a; a = (uint8_t)(b % a); b = c; }
    return b;
}
 GCD_FN(int8_t, gcd_i8) GCD_FN(int16_t, gcd_i16) GCD_FN(int32_t, gcd_i32) GCD_FN(int64_t, gcd_i64)
#define gcd_n(a, b) _Generic((a), uint8_t: gcd_u8, int8_t: gcd_i8, int16_t: gcd_i16, int32_t: gcd_i32, \
                             default: gcd_i64)(a, b)
#define GCD_I(x, y) ((int64_t)gcd_n((stor_t)(x), (stor_t)(y)))
/* lcm: abs(a / g * b) with the product in the promoted type (int64 wraps) */
#define LCM_I(x, y) lcm_n((stor_t)(x), (stor_t)(y), GCD_I(x, y))
static inline int64_t lcm_n(int64_t a, int64_t b, int64_t g)
{
    if (g == 0) return 0;
    uint64_t p = (uint64_t)(a / g) * (uint64_t)b;
    return (int64_t)p < 0 ? (int64_t)(0 - p) : (int64_t)p;
}

/* BinaryOpsKernel.cpp in 1.13: lshift is a plain C++ shift of the (promoted)
 * value, so x86 masks the count to 5 bits (6 for int64); rshift gives the
 * sign fill for negative or too large amounts. */
#define BITS ((int64_t)sizeof(stor_t) * 8)
#define SIGNED ((stor_t)-1 < (stor_t)0)
#define SHNEG(y) (SIGNED ? (y) < 0 : (y) >= ((int64_t)1 << (BITS - 1)))
#define LSH_I(x, y) WRAP(U64(x) << ((y) & (BITS == 64 ? 63 : 31)))
#define RSH_I(x, y) ((SHNEG(y) || (y) >= BITS - SIGNED) ? ((x) >> (BITS - SIGNED)) : ((x) >> (y)))

/* ----------------------------------------------------------- instantiation */

#define INST(FAM, OP, BODY) FAM(DEF_B_SAME, OP, BODY)
#define TAB(FAM, OP) FAM(ENTRY, OP)

INST(FAM_INT, add, ADD_I) INST(FAM_FLOAT, add, ADD_F) INST(FAM_COMPLEX, add, ADD_F) INST(FAM_BOOL, add, ADD_B)
INST(FAM_INT, adda, ADDA_I) INST(FAM_FLOAT, adda, ADDA_F) INST(FAM_COMPLEX, adda, ADDA_C) INST(FAM_BOOL, adda, ADDA_B)
INST(FAM_INT, sub, SUB_I) INST(FAM_FLOAT, sub, SUB_F) INST(FAM_COMPLEX, sub, SUB_F)
INST(FAM_INT, mul, MUL_I) INST(FAM_FLOAT, mul, MUL_F) INST(FAM_COMPLEX, mul, MUL_C) INST(FAM_BOOL, mul, MUL_B)
INST(FAM_FLOAT, div, DIV_F) INST(FAM_COMPLEX, div, DIV_C)
INST(FAM_INT, divt, DIVT_I) INST(FAM_FLOAT, divt, DIVT_F)
INST(FAM_INT, divf, DIVF_I) INST(FAM_FLOAT, divf, DIVF_F)
INST(FAM_INT, rem, REM_I) INST(FAM_FLOAT, rem, REM_F)
INST(FAM_INT, fmod, FMOD_I) INST(FAM_FLOAT, fmod, FMOD_F)
INST(FAM_INT, pow, POW_I) INST(FAM_FLOAT, pow, POW_F) INST(FAM_COMPLEX, pow, POW_C)
INST(FAM_FLOAT, atan2, ATAN2_F)
INST(FAM_FLOAT, hypot, HYPOT_F)
/* atan2, hypot and pow (a general exponent) of float32/float64 run
 * cpu_kernel_vec in 1.13: on AVX2 whole chunks of 2 * Vectorized<T>::size()
 * of a contiguous row (an input may be a broadcast scalar) go through Sleef
 * (vec256_float.h), the tail and strided rows through std:: (libm). */
#define SLEEF_BIN(dt, T, OP, SOP, PRED)                                                     \
    static int OP##_sl_##dt(char **d, const int64_t *s, int64_t n, const void *ctx) {       \
        const void *c = ctx; (void)c;                                                       \
        const int64_t sz = (int64_t)sizeof(T);                                              \
        if (!(PRED) || !tsr__sleef_usable() || s[0] != sz || (s[1] != sz && s[1] != 0) ||   \
            (s[2] != sz && s[2] != 0) || (s[1] == 0 && s[2] == 0))                           \
            return OP##_##dt(d, s, n, ctx);                                                  \
        int64_t m = n - n % (64 / sz);                                                       \
        if (sz == 4) tsr__sleef2_f32(SOP, (float *)d[0], (const float *)d[1], s[1] / sz,     \
                                     (const float *)d[2], s[2] / sz, m);                    \
        else tsr__sleef2_f64(SOP, (double *)d[0], (const double *)d[1], s[1] / sz,          \
                             (const double *)d[2], s[2] / sz, m);                           \
        char *t[3] = {d[0] + m * s[0], d[1] + m * s[1], d[2] + m * s[2]};                   \
        return OP##_##dt(t, s, n - m, ctx);                                                  \
    }
SLEEF_BIN(float32, float, atan2, TSR_SLEEF2_ATAN2, 1) SLEEF_BIN(float64, double, atan2, TSR_SLEEF2_ATAN2, 1)
SLEEF_BIN(float32, float, hypot, TSR_SLEEF2_HYPOT, 1) SLEEF_BIN(float64, double, hypot, TSR_SLEEF2_HYPOT, 1)
SLEEF_BIN(float32, float, pow, TSR_SLEEF2_POW, KP->flag == 0 || KP->flag == 7) SLEEF_BIN(float64, double, pow, TSR_SLEEF2_POW, KP->flag == 0)

/* logaddexp / logaddexp2 of float32/float64 are cpu_kernel_vec too: whole
 * chunks of a contiguous row take the vector body, max(a, b) + (1 +
 * exp(-|a - b|)).log() and max(a, b) + (1 + 2.pow(-|a - b|)).log2(), with
 * Sleef's exp, log, pow and log2. */
#define LAE_VEC(OP, dt, T, SFN, SFN2, TWO, LG)                                               \
    static int OP##_sl_##dt(char **d, const int64_t *s, int64_t n, const void *ctx) {         \
        const int64_t sz = (int64_t)sizeof(T);                                                \
        if (!tsr__sleef_usable() || s[0] != sz || (s[1] != sz && s[1] != 0) ||                \
            (s[2] != sz && s[2] != 0) || (s[1] == 0 && s[2] == 0))                             \
            return OP##_##dt(d, s, n, ctx);                                                    \
        int64_t m = n - n % (64 / sz);                                                         \
        T *o = (T *)d[0];                                                                      \
        const T *a = (const T *)d[1], *b = (const T *)d[2];                                    \
        int64_t sa = s[1] / sz, sb = s[2] / sz;                                                \
        for (int64_t off = 0; off < m; off += 64) {                                            \
            T buf[64];                                                                         \
            const T two = 2;                                                                   \
            int64_t k = m - off < 64 ? m - off : 64;                                           \
            for (int64_t i = 0; i < k; i++) buf[i] = -fabs(a[(off + i) * sa] - b[(off + i) * sb]); \
            if (TWO) SFN2(TSR_SLEEF2_POW, buf, &two, 0, buf, 1, k);                            \
            else SFN(TSR_SLEEF_EXP, buf, buf, k);                                              \
            for (int64_t i = 0; i < k; i++) buf[i] = 1 + buf[i];                              \
            SFN(LG, buf, buf, k);                                                              \
            for (int64_t i = 0; i < k; i++) {                                                  \
                T x = a[(off + i) * sa], y = b[(off + i) * sb];                                \
                o[off + i] = (x == y && fabs(x) == (T)INFINITY) ? x : MAXV(x, y) + buf[i];      \
            }                                                                                  \
        }                                                                                      \
        char *t[3] = {d[0] + m * s[0], d[1] + m * s[1], d[2] + m * s[2]};                      \
        return OP##_##dt(t, s, n - m, ctx);                                                    \
    }
#define MAXV(x, y) (((x) != (x) || (y) != (y)) ? (x) + (y) : (x) > (y) ? (x) : (y))   /* vec::maximum */

INST(FAM_INT, max, MAX_I) INST(FAM_FLOAT, max, MAX_F) INST(FAM_BOOL, max, OR_B)
INST(FAM_INT, min, MIN_I) INST(FAM_FLOAT, min, MIN_F) INST(FAM_BOOL, min, AND_B)
INST(FAM_INT, fmax, MAX_I) INST(FAM_FLOAT, fmax, FMAX_F) INST(FAM_BOOL, fmax, OR_B)
INST(FAM_INT, fmin, MIN_I) INST(FAM_FLOAT, fmin, FMIN_F) INST(FAM_BOOL, fmin, AND_B)
INST(FAM_INT, band, AND_I) INST(FAM_BOOL, band, AND_B)
INST(FAM_INT, bor, OR_I) INST(FAM_BOOL, bor, OR_B)
INST(FAM_INT, bxor, XOR_I) INST(FAM_BOOL, bxor, XOR_B)
DEF_B_SAME(float32, float, float, float, lae, LAE_F) DEF_B_SAME(float64, double, double, double, lae, LAE_F)
DEF_B_SAME(bfloat16, tsr_bfloat16, float, float, lae, LAE_F)
LAE_VEC(lae, float32, float, tsr__sleef_f32, tsr__sleef2_f32, 0, TSR_SLEEF_LOG)
LAE_VEC(lae, float64, double, tsr__sleef_f64, tsr__sleef2_f64, 0, TSR_SLEEF_LOG)
DEF_B_SAME(float32, float, float, float, lae2, LAE2_F) DEF_B_SAME(float64, double, double, double, lae2, LAE2_F)
DEF_B_SAME(bfloat16, tsr_bfloat16, float, float, lae2, LAE2_F)
LAE_VEC(lae2, float32, float, tsr__sleef_f32, tsr__sleef2_f32, 1, TSR_SLEEF_LOG2)
LAE_VEC(lae2, float64, double, tsr__sleef_f64, tsr__sleef2_f64, 1, TSR_SLEEF_LOG2)
INST(FAM_FLOAT, copysign, COPYSIGN_F)
DEF_B_SAME(float32, float, float, float, nextafter, NEXTAFTER_F)
DEF_B_SAME(float64, double, double, double, nextafter, NEXTAFTER_F)
DEF_B_SAME(bfloat16, tsr_bfloat16, float, float, nextafter, nextafter_bf16)
INST(FAM_INT, heavi, HEAVI) INST(FAM_FLOAT, heavi, HEAVI) INST(FAM_BOOL, heavi, HEAVI)
INST(FAM_INT, gcd, GCD_I) INST(FAM_INT, lcm, LCM_I)
INST(FAM_INT, lsh, LSH_I)
INST(FAM_INT, rsh, RSH_I)

static const tsr_loop_fn add_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, add) TAB(FAM_FLOAT, add) TAB(FAM_COMPLEX, add) TAB(FAM_BOOL, add) };
static const tsr_loop_fn adda_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, adda) TAB(FAM_FLOAT, adda) TAB(FAM_COMPLEX, adda) TAB(FAM_BOOL, adda) };
static const tsr_loop_fn sub_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, sub) TAB(FAM_FLOAT, sub) TAB(FAM_COMPLEX, sub) };
/* complex64 multiply/divide: 1.13's AVX2 kernels take whole 8-element chunks
 * of a contiguous row through Vectorized<complex<float>> (plain multiplies,
 * as CMUL/CDIV), and the rest through c10::complex<float>'s scalar operators,
 * which that build compiles with fused multiply-adds. */
#define CMUL_FMA(x, y) __builtin_complex(fmaf(crealf(x), crealf(y), -(cimagf(x) * cimagf(y))), \
                                         fmaf(crealf(x), cimagf(y), cimagf(x) * crealf(y)))
#define CDIV_FMA(x, y) cdiv_fma(x, y)
static inline float _Complex cdiv_fma(float _Complex x, float _Complex y)
{
    float a = crealf(x), b = cimagf(x), c = crealf(y), d = cimagf(y);
    float den = fmaf(c, c, d * d);
    return __builtin_complex(fmaf(a, c, b * d) / den, fmaf(b, c, -(a * d)) / den);
}
DEF_B_SAME(complex64, tsr_cfloat, float _Complex, float, mulf, CMUL_FMA)
DEF_B_SAME(complex64, tsr_cfloat, float _Complex, float, divf, CDIV_FMA)
#define CF_SPLIT(OP)                                                                         \
    static int OP##_cv_complex64(char **d, const int64_t *s, int64_t n, const void *ctx) {  \
        if (!tsr__sleef_usable()) return OP##_complex64(d, s, n, ctx);                        \
        bool vec = s[0] == 8 && (s[1] == 8 || s[1] == 0) && (s[2] == 8 || s[2] == 0);         \
        int64_t m = vec ? n - n % 8 : 0;                                                      \
        if (m) { int r = OP##_complex64(d, s, m, ctx); if (r) return r; }                     \
        char *t[3] = {d[0] + m * s[0], d[1] + m * s[1], d[2] + m * s[2]};                     \
        return OP##f_complex64(t, s, n - m, ctx);                                             \
    }
CF_SPLIT(mul) CF_SPLIT(div)

#define TAB_CF(OP) [TSR_COMPLEX32] = OP##_complex32, [TSR_COMPLEX64] = OP##_cv_complex64, \
                   [TSR_COMPLEX128] = OP##_complex128,
static const tsr_loop_fn mul_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, mul) TAB(FAM_FLOAT, mul) TAB_CF(mul) TAB(FAM_BOOL, mul) };
static const tsr_loop_fn div_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_FLOAT, div) TAB_CF(div) };
static const tsr_loop_fn divt_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, divt) TAB(FAM_FLOAT, divt) };
static const tsr_loop_fn divf_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, divf) TAB(FAM_FLOAT, divf) };
static const tsr_loop_fn rem_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, rem) TAB(FAM_FLOAT, rem) };
static const tsr_loop_fn fmod_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, fmod) TAB(FAM_FLOAT, fmod) };
#define TAB_SL(OP) [TSR_FLOAT16] = OP##_float16, [TSR_FLOAT32] = OP##_sl_float32, \
                   [TSR_FLOAT64] = OP##_sl_float64, [TSR_BFLOAT16] = OP##_bfloat16,
static const tsr_loop_fn pow_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, pow) TAB_SL(pow) TAB(FAM_COMPLEX, pow) };
static const tsr_loop_fn atan2_tab[TSR_DTYPE_SLOTS] = { TAB_SL(atan2) };
static const tsr_loop_fn hypot_tab[TSR_DTYPE_SLOTS] = { TAB_SL(hypot) };
static const tsr_loop_fn max_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, max) TAB(FAM_FLOAT, max) TAB(FAM_BOOL, max) };
static const tsr_loop_fn min_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, min) TAB(FAM_FLOAT, min) TAB(FAM_BOOL, min) };
static const tsr_loop_fn fmax_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, fmax) TAB(FAM_FLOAT, fmax) TAB(FAM_BOOL, fmax) };
static const tsr_loop_fn fmin_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, fmin) TAB(FAM_FLOAT, fmin) TAB(FAM_BOOL, fmin) };
static const tsr_loop_fn band_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, band) TAB(FAM_BOOL, band) };
static const tsr_loop_fn bor_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, bor) TAB(FAM_BOOL, bor) };
static const tsr_loop_fn bxor_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, bxor) TAB(FAM_BOOL, bxor) };
static const tsr_loop_fn lae_tab[TSR_DTYPE_SLOTS] = {[TSR_FLOAT32] = lae_sl_float32, [TSR_FLOAT64] = lae_sl_float64,
                                                     [TSR_BFLOAT16] = lae_bfloat16};
static const tsr_loop_fn lae2_tab[TSR_DTYPE_SLOTS] = {[TSR_FLOAT32] = lae2_sl_float32, [TSR_FLOAT64] = lae2_sl_float64,
                                                      [TSR_BFLOAT16] = lae2_bfloat16};
static const tsr_loop_fn copysign_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_FLOAT, copysign) };
static const tsr_loop_fn nextafter_tab[TSR_DTYPE_SLOTS] = {[TSR_FLOAT32] = nextafter_float32,
                                                           [TSR_FLOAT64] = nextafter_float64,
                                                           [TSR_BFLOAT16] = nextafter_bfloat16};
static const tsr_loop_fn heavi_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, heavi) TAB(FAM_FLOAT, heavi) TAB(FAM_BOOL, heavi) };
static const tsr_loop_fn gcd_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, gcd) };
static const tsr_loop_fn lcm_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, lcm) };
static const tsr_loop_fn lsh_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, lsh) };
static const tsr_loop_fn rsh_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, rsh) };

/* ------------------------------------------------------------- op table */

/* One descriptor per op (runtime/op.h). dtypes: what PyTorch 1.13's CPU
 * kernel accepts; a dtype in the mask whose table entry is NULL still reports
 * "not implemented" after the iterator's checks, as PyTorch dispatches. */
#define BIN(...) {BIN_FIELDS(__VA_ARGS__)}
#define BIN_FIELDS(nm, at, kn, tab_, mask, rule_, diff, cmsg)                                       \
     .name = nm, .aten = at, .kname = kn, .arity = 2, .rule = rule_, .cpu_dtypes = mask,              \
     .meta_dtypes = M_ALL, .names = TSR_NAMES_BROADCAST, .differentiable = diff, .cpu = tab_,         \
     .complex_msg = cmsg
#define M_ATAN2 (M_INT | M_BOOL | M(TSR_FLOAT32) | M(TSR_FLOAT64) | M(TSR_BFLOAT16))
#define M_HYPOT (M(TSR_FLOAT32) | M(TSR_FLOAT64) | M(TSR_BFLOAT16))
#define F3 (M(TSR_FLOAT32) | M(TSR_FLOAT64) | M(TSR_BFLOAT16))
#define M_POW (M_INT | M_FLOAT | M(TSR_COMPLEX64) | M(TSR_COMPLEX128))

static tsr_tensor *binary_run(const tsr_op *d, const tsr_operand *in, tsr_tensor *out, bool inplace);
/* The named ops first (ORDER BINOP), then the ops the binding table finds by
 * their ATen name only (tsr_op_find): a new plain binary op is a body above
 * and a row at the end here. */
#define BINR(...) {BIN_FIELDS(__VA_ARGS__), .run = binary_run}
static const tsr_op binops[] = {
    [TSR_BINOP_ADD] = BINR("add", "add.Tensor", "add_cpu", add_tab, M_ALL, TSR_DT_COMMON, true, NULL),
    [TSR_BINOP_SUB] = BINR("sub", "sub.Tensor", "sub_cpu", sub_tab, M_ALL & ~M_BOOL, TSR_DT_COMMON, true, NULL),
    [TSR_BINOP_MUL] = BINR("mul", "mul.Tensor", "mul_cpu", mul_tab, M_ALL, TSR_DT_COMMON, true, NULL),
    [TSR_BINOP_DIV] = BINR("div", "div.Tensor", "div_cpu", div_tab, M_ALL & ~M(TSR_COMPLEX32), TSR_DT_FLOAT, true, NULL),
    [TSR_BINOP_DIV_TRUNC] = BINR("div", "div.Tensor_mode", "div_trunc_cpu", divt_tab, M_INT | M_FLOAT, TSR_DT_COMMON, true, NULL),
    [TSR_BINOP_DIV_FLOOR] = BINR("floor_divide", "floor_divide", "div_floor_cpu", divf_tab, M_INT | M_FLOAT, TSR_DT_COMMON,
                                false, NULL),
    [TSR_BINOP_REMAINDER] = BINR("remainder", "remainder.Tensor", "remainder_cpu", rem_tab, M_INT | M_FLOAT, TSR_DT_COMMON,
                                true, NULL),
    [TSR_BINOP_FMOD] = BINR("fmod", "fmod.Tensor", "fmod_cpu", fmod_tab, M_INT | M_FLOAT, TSR_DT_COMMON, true, NULL),
    [TSR_BINOP_POW] = BINR("pow", "pow.Tensor_Tensor", "pow", pow_tab, M_POW, TSR_DT_COMMON, true, NULL),
    [TSR_BINOP_FLOAT_POWER] = BINR("float_power", "float_power.Tensor_Tensor", "pow", pow_tab, M_ALL, TSR_DT_DOUBLE, true, NULL),
    [TSR_BINOP_ATAN2] = BINR("atan2", "atan2", "atan2_cpu", atan2_tab, M_ATAN2, TSR_DT_FLOAT, true, NULL),
    [TSR_BINOP_HYPOT] = BINR("hypot", "hypot", "hypot_cpu", hypot_tab, M_HYPOT, TSR_DT_COMMON, true, NULL),
    [TSR_BINOP_MAXIMUM] = BINR("maximum", "maximum", "maximum_cpu", max_tab, M_ALL, TSR_DT_COMMON, true,
                              "maximum not implemented for complex tensors."),
    [TSR_BINOP_MINIMUM] = BINR("minimum", "minimum", "minimum_cpu", min_tab, M_ALL, TSR_DT_COMMON, true,
                              "minimum not implemented for complex tensors."),
    [TSR_BINOP_FMAX] = BINR("fmax", "fmax", "fmax_cpu", fmax_tab, M_ALL, TSR_DT_COMMON, true,
                           "fmax not implemented for complex tensors."),
    [TSR_BINOP_FMIN] = BINR("fmin", "fmin", "fmin_cpu", fmin_tab, M_ALL, TSR_DT_COMMON, true,
                           "fmin not implemented for complex tensors."),
    [TSR_BINOP_BITWISE_AND] = BINR("bitwise_and", "bitwise_and.Tensor", "bitwise_and_cpu", band_tab, M_INT | M_BOOL,
                                  TSR_DT_COMMON, false, NULL),
    [TSR_BINOP_BITWISE_OR] = BINR("bitwise_or", "bitwise_or.Tensor", "bitwise_or_cpu", bor_tab, M_INT | M_BOOL,
                                 TSR_DT_COMMON, false, NULL),
    [TSR_BINOP_BITWISE_XOR] = BINR("bitwise_xor", "bitwise_xor.Tensor", "bitwise_xor_cpu", bxor_tab, M_INT | M_BOOL,
                                  TSR_DT_COMMON, false, NULL),
    [TSR_BINOP_LSHIFT] = BINR("bitwise_left_shift", "bitwise_left_shift.Tensor", "lshift_cpu", lsh_tab, M_INT,
                             TSR_DT_COMMON, false, NULL),
    [TSR_BINOP_RSHIFT] = BINR("bitwise_right_shift", "bitwise_right_shift.Tensor", "rshift_cpu", rsh_tab, M_INT,
                             TSR_DT_COMMON, false, NULL),
    [TSR_BINOP_NEXTAFTER] = BINR("nextafter", "nextafter", "nextafter_cpu", nextafter_tab, F3, TSR_DT_COMMON, false, NULL),
    [TSR_BINOP_HEAVISIDE] = BINR("heaviside", "heaviside", "heaviside_cpu", heavi_tab, M_INT | M_FLOAT | M_BOOL,
                                TSR_DT_COMMON, false, NULL),
    [TSR_BINOP_GCD] = BINR("gcd", "gcd", "gcd_cpu", gcd_tab, M_INT, TSR_DT_COMMON, false, NULL),
    [TSR_BINOP_LCM] = BINR("lcm", "lcm", "lcm_cpu", lcm_tab, M_INT, TSR_DT_COMMON, false, NULL),
    /* found by ATen name only */
    BINR("logaddexp", "logaddexp", "logaddexp_cpu", lae_tab, F3, TSR_DT_COMMON, true, NULL),
    BINR("logaddexp2", "logaddexp2", "logaddexp2_cpu", lae2_tab, F3, TSR_DT_COMMON, true, NULL),
    BINR("copysign", "copysign.Tensor", "copysign_cpu", copysign_tab, M_FLOAT, TSR_DT_FLOAT, true, NULL),
};
#define NBINOPS ((int)(sizeof binops / sizeof binops[0]))
_Static_assert(sizeof binops / sizeof binops[0] >= TSR_BINOP_COUNT, "ORDER BINOP");

/* clamp_min / clamp_max with a Tensor bound run the maximum / minimum kernels
 * (TensorCompare.cpp clamp_min_Tensor_out): bool computes, complex reaches
 * the kernel ("minimum_cpu" not implemented for 'ComplexFloat'). */
const tsr_op tsr_op_clamp_min_tensor = BIN("clamp_min", "clamp_min.Tensor", "maximum_cpu", max_tab, M_ALL, TSR_DT_COMMON,
                                           true, NULL);
const tsr_op tsr_op_clamp_max_tensor = BIN("clamp_max", "clamp_max.Tensor", "minimum_cpu", min_tab, M_ALL, TSR_DT_COMMON,
                                           true, NULL);

const char *tsr_binop_name(tsr_binop op) { return (unsigned)op < TSR_BINOP_COUNT ? binops[op].name : "?"; }
const tsr_op *tsr_binop_desc(tsr_binop op) { return (unsigned)op < TSR_BINOP_COUNT ? &binops[op] : NULL; }
const tsr_op *tsr_binary_op_at(int i) { return i >= 0 && i < NBINOPS ? &binops[i] : NULL; }

static bool is_bool_operand(const tsr_operand *o) { return tsr_operand_dtype(o) == TSR_BOOL; }

/* alpha checks of add/sub (BinaryOps.cpp alpha_check) and its value. */
static int set_alpha(tsr_dtype dt, const tsr_binary_opts *opts, bool negate, tsr__kparams *kp, bool *plain)
{
    tsr_scalar al = opts && opts->has_alpha ? opts->alpha : tsr_scalar_int(1);
    if (al.kind == TSR_SCALAR_BOOL && dt != TSR_BOOL) {
        tsr_error_set(TSR_ERR_RUNTIME, "Boolean alpha only supported for Boolean results.");
        return -1;
    }
    if ((al.kind == TSR_SCALAR_FLOAT || al.kind == TSR_SCALAR_COMPLEX) && tsr_dtype_is_integral(dt, true)) {
        tsr_error_set(TSR_ERR_RUNTIME, "For integral input tensors, argument alpha must not be a floating point number.");
        return -1;
    }
    if (al.kind == TSR_SCALAR_COMPLEX && !tsr_dtype_is_complex(dt)) {
        tsr_error_set(TSR_ERR_RUNTIME, "For non-complex input tensors, argument alpha must not be a complex number.");
        return -1;
    }
    double re, im;
    tsr_scalar_to_complex(al, &re, &im);
    /* sub is add with -alpha: a real Scalar negates to a real one (imaginary +0) */
    if (negate) { re = -re; if (al.kind == TSR_SCALAR_COMPLEX) im = -im; }
    kp->i = negate ? neg_wrap(tsr_scalar_to_int64(al)) : tsr_scalar_to_int64(al);
    kp->d = tsr_dtype_is_floating(dt) && tsr_dtype_itemsize(dt) < 8 ? (double)(float)re : re;
    kp->z = re + im * I;
    /* 1.13's add kernel is a + alpha * b for every alpha; only for complex
     * does multiplying by 1 change anything (signed zeros, inf * 0 = nan) */
    *plain = re == (negate ? -1 : 1) && im == 0 && !tsr_dtype_is_complex(dt);
    return 0;
}

/* x ** 0 and x ** 1 with a scalar exponent: 1.13's pow_Tensor_Scalar_out
 * fills ones / copies the base (no pow is computed, so complex bases stay
 * exact). ctx: the element size, then for the fill the value 1 stored. */
typedef struct { int size; _Alignas(16) unsigned char one[16]; } pow_trivial_ctx;

static int pow_copy_loop(char **d, const int64_t *s, int64_t n, const void *ctx)
{
    const pow_trivial_ctx *c = ctx;
    for (int64_t i = 0; i < n; i++) memcpy(d[0] + i * s[0], d[1] + i * s[1], (size_t)c->size);
    return 0;
}

static int pow_ones_loop(char **d, const int64_t *s, int64_t n, const void *ctx)
{
    const pow_trivial_ctx *c = ctx;
    for (int64_t i = 0; i < n; i++) memcpy(d[0] + i * s[0], c->one, (size_t)c->size);
    return 0;
}

/* The dtype checks TensorIterator makes while it is built, before any
 * kernel is looked up, so an in-place or out= op whose kernel does not exist
 * for the compute dtype still reports the cast first (`i32 |= 1.5`). The
 * inputs are broadcast before dtypes are looked at. pow(Tensor, Scalar) is
 * built with check_all_same_dtype: "Found dtype Int but expected Float".
 * sub, float_power and an alpha= make their own checks first. */
static int out_precheck(const tsr_op *info, tsr_binop op, const tsr_operand *ab, const tsr_tensor *out,
                        const tsr_binary_opts *opts)
{
    if (op == TSR_BINOP_FLOAT_POWER || op == TSR_BINOP_SUB || (opts && opts->has_alpha)) return 0;
    const tsr_operand *a = &ab[0], *b = &ab[1];
    if (a->t && b->t) {
        int nd[2] = {a->t->ndim, b->t->ndim};
        const int64_t *sz[2] = {a->t->sizes, b->t->sizes};
        int64_t shape[TSR_MAX_DIMS];
        if (tsr_broadcast_shapes(2, nd, sz, shape) < 0) return -1;
    }
    tsr_dtype dt = tsr_op_compute_dtype(info, 2, ab, NULL);
    if (op == TSR_BINOP_POW && a->t && !b->t) {
        if (out->dtype != dt) {
            tsr_error_set(TSR_ERR_RUNTIME, "Found dtype %s but expected %s", tsr_dtype_scalar_name(out->dtype),
                          tsr_dtype_scalar_name(dt));
            return -1;
        }
        return 0;
    }
    if (!tsr_can_cast(dt, out->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                      tsr_dtype_scalar_name(dt), tsr_dtype_scalar_name(out->dtype));
        return -1;
    }
    return 0;
}

/* pow(Tensor, Scalar) converts the exponent to the common dtype with an
 * overflow check for integers, Half and BFloat16 (float and double keep it
 * in double): "value cannot be converted to type int8_t without overflow". */
static int pow_exponent_check(const tsr_operand *ab)
{
    tsr_dtype dt = tsr_result_type(2, ab, NULL);
    const tsr_scalar e = ab[1].s;
    if (tsr_dtype_is_integral(dt, true) && e.kind == TSR_SCALAR_INT && e.i < 0) return 0;
    if (dt == TSR_BOOL || !(tsr_dtype_is_integral(dt, false) || dt == TSR_FLOAT16 || dt == TSR_BFLOAT16)) return 0;
    return tsr_scalar_check_fits(e, dt);
}

/* heaviside's meta function (BinaryOps.cpp): no complex operand or output,
 * and one dtype for input, values and output. */
static int heaviside_check(const tsr_operand *a, const tsr_operand *b, const tsr_tensor *out)
{
    tsr_dtype da = tsr_operand_dtype(a), db = tsr_operand_dtype(b);
    if (tsr_dtype_is_complex(da) || tsr_dtype_is_complex(db) || (out && tsr_dtype_is_complex(out->dtype))) {
        tsr_error_set(TSR_ERR_RUNTIME, "heaviside is not yet implemented for complex tensors.");
        return -1;
    }
    if (da != db || (out && out->dtype != da)) {
        tsr_error_set(TSR_ERR_RUNTIME, "heaviside is not yet implemented for tensors with different dtypes.");
        return -1;
    }
    return 0;
}

/* op: the index of info in binops (the checks of the named ops key on it). */
static tsr_tensor *binary_impl(int op, const tsr_operand *a, const tsr_operand *b, tsr_tensor *out,
                               bool inplace, const tsr_binary_opts *opts)
{
    if (op < 0 || op >= NBINOPS) {
        tsr_error_set(TSR_ERR_VALUE, "unknown binary op %d", op);
        return NULL;
    }
    const tsr_op *info = &binops[op];
    tsr_operand ops[2] = {*a, *b};
    if (!a->t && !b->t) {
        /* two Python numbers (torch.add(5, 5)): PyTorch wraps both; the first
         * as a zero-dim tensor of the dtype result_type counts it as gives
         * the same answer */
        tsr_tensor *t = tsr_full(0, NULL, a->s, tsr_operand_promo_dtype(a), TSR_CPU);
        if (!t) return NULL;
        tsr_operand ta = tsr_operand_tensor(t);
        tsr_tensor *r = binary_impl(op, &ta, b, out, inplace, opts);
        tsr_tensor_release(t);
        return r;
    }
    if (tsr_op_check_inputs(info, 2, ops) < 0) return NULL;
    if (op == TSR_BINOP_POW && a->t && !b->t && pow_exponent_check(ops) < 0) return NULL;
    if (inplace && op == TSR_BINOP_FLOAT_POWER) {
        tsr_dtype want = tsr_op_compute_dtype(info, 2, ops, NULL);
        if (out->dtype != want) {
            tsr_error_set(TSR_ERR_RUNTIME, "the base given to float_power_ has dtype %s but the operation's result "
                          "requires dtype %s", tsr_dtype_scalar_name(out->dtype), tsr_dtype_scalar_name(want));
            return NULL;
        }
    }
    if (op == TSR_BINOP_HEAVISIDE && heaviside_check(a, b, out) < 0) return NULL;
    if (out && out_precheck(info, op, ops, out, opts) < 0) return NULL;
    if (op == TSR_BINOP_SUB) {
        if (is_bool_operand(a) && is_bool_operand(b)) {
            tsr_error_set(TSR_ERR_RUNTIME, "Subtraction, the `-` operator, with two bool tensors is not supported. "
                          "Use the `^` or `logical_xor()` operator instead.");
            return NULL;
        }
        if (is_bool_operand(a) || is_bool_operand(b)) {
            tsr_error_set(TSR_ERR_RUNTIME, "Subtraction, the `-` operator, with a bool tensor is not supported. "
                          "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
            return NULL;
        }
    }
    tsr_dtype dt = tsr_op_compute_dtype(info, 2, ops, NULL);
    tsr__kparams kp = {0};
    const tsr_loop_fn *tab = info->cpu;
    if (op == TSR_BINOP_ADD || op == TSR_BINOP_SUB) {
        bool plain;
        if (set_alpha(dt, opts, op == TSR_BINOP_SUB, &kp, &plain) < 0) return NULL;
        if (!plain) tab = adda_tab;
    }
    if (op == TSR_BINOP_POW || op == TSR_BINOP_FLOAT_POWER) {
        if (!b->t && tsr_dtype_is_integral(dt, true) && b->s.kind == TSR_SCALAR_INT && b->s.i < 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "Integers to negative integer powers are not allowed.");
            return NULL;
        }
        if (!b->t && !tsr_dtype_is_integral(dt, true) && (b->s.kind != TSR_SCALAR_COMPLEX || b->s.im == 0)) {
            double e = tsr_scalar_to_double(b->s);
            kp.flag = e == 2 ? 1 : e == 3 ? 2 : e == 0.5 ? 3 : e == -0.5 ? 4 : e == -1 ? 5 : e == -2 ? 6 : 0;
            /* float ** Python scalar: 1.13's scalar path is std::pow(float, double) rounded to
             * float (pow_tensor_scalar_optimized_kernel<float, double>); vectors use a float exponent */
            if (kp.flag == 0 && dt == TSR_FLOAT32 && a->t && b->s.kind != TSR_SCALAR_COMPLEX) { kp.flag = 7; kp.d = e; }
            if (dt == TSR_BFLOAT16 && kp.flag == 2) kp.flag = 8;
            if (dt == TSR_BFLOAT16 && kp.flag == 6) kp.flag = 9;

        }
        if (op == TSR_BINOP_FLOAT_POWER && out && out->dtype != dt) {
            tsr_error_set(TSR_ERR_RUNTIME, "the output given to float_power has dtype %s but the operation's "
                          "result requires dtype %s", tsr_dtype_scalar_name(out->dtype), tsr_dtype_scalar_name(dt));
            return NULL;
        }
    }
    if (info->complex_msg && tsr_dtype_is_complex(dt)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s", info->complex_msg);
        return NULL;
    }
    tsr_loop_fn fn = (info->cpu_dtypes & M(dt)) ? tab[dt] : NULL;
    if (op == TSR_BINOP_POW && dt == TSR_BFLOAT16 && kp.flag == 4 && fn) fn = pow_rsqrt_bf16;
    tsr_iter_config cfg = {.nin = 2, .in_dtype = {dt, dt}, .out_dtype = dt, .check_dtype = dt,
                           .check = tsr_op_out_check(info), .inplace = inplace, .kname = info->kname, .kdtype = dt,
                           .dev_kernel = tsr_op_dev_kernel(info), .aten = info->aten};
    cfg.dev_alpha = kp.d;   /* add/sub: the device kernel is a + alpha * b (set_alpha negated sub's) */
    cfg.dev_alpha_i = kp.i;
    if (tsr_dtype_is_complex(dt)) cfg.dev_params.d[1] = cimag(kp.z);   /* a complex alpha's imaginary part */
    if (op == TSR_BINOP_POW || op == TSR_BINOP_FLOAT_POWER) {
        /* PowKernel.cu's forms for a scalar exponent; a float32 base takes
         * it as float (exp_scalar.to<scalar_t>()), as the general form's
         * scalar operand already is */
        static const int pow_mode[10] = {TSR_KPOW_GENERAL, TSR_KPOW_SQUARE, TSR_KPOW_CUBE, TSR_KPOW_SQRT,
                                         TSR_KPOW_RSQRT, TSR_KPOW_RECIPROCAL, TSR_KPOW_INV_SQUARE,
                                         TSR_KPOW_GENERAL, TSR_KPOW_CUBE, TSR_KPOW_INV_SQUARE};
        cfg.dev_params.mode = kp.flag >= 0 && kp.flag < 10 ? pow_mode[kp.flag] : TSR_KPOW_GENERAL;
    }
    if (op == TSR_BINOP_POW && a->t && !b->t && b->s.kind != TSR_SCALAR_BOOL) { /* Scalar::equal: a bool equals no number */
        double re, im;
        tsr_scalar_to_complex(b->s, &re, &im);
        if (im == 0 && (re == 0 || re == 1)) {
            pow_trivial_ctx pc = {.size = tsr_dtype_itemsize(dt)};
            tsr_scalar_store(dt, pc.one, tsr_scalar_int(1));
            /* pow_Tensor_Scalar_out's fill_(1) / copy_(base) on every device:
             * a device runs the copy kernel (the scalar operand unread), then
             * the fill */
            cfg.dev_kernel = TSR_K_COPY;
            tsr_tensor *r = tsr_iter_run(&cfg, ops, out, re == 0 ? pow_ones_loop : pow_copy_loop, &pc);
            if (r && re == 0 && r->device.type != TSR_DEV_CPU && r->device.type != TSR_DEV_META &&
                tsr_fill_(r, tsr_scalar_int(1)) < 0) {
                tsr_tensor_release(r);
                return NULL;
            }
            return r;
        }
    }
    /* float16/bfloat16 arithmetic computes in float and rounds once: run the
     * float32 loop on inputs widened in small buffers (vectorised), when every
     * tensor operand already has the dtype (a scalar is first rounded to it,
     * as PyTorch's wrapped number is). Only into a result of that dtype: an
     * out= of another dtype receives the value rounded to the compute dtype
     * first, as TensorIterator casts only when it stores. */
    if ((dt == TSR_FLOAT16 || dt == TSR_BFLOAT16) && fn && (info->cpu_dtypes & M(TSR_FLOAT32)) &&
        (!out || out->dtype == dt) &&
        (op == TSR_BINOP_ADD || op == TSR_BINOP_SUB || op == TSR_BINOP_MUL || op == TSR_BINOP_DIV)) {
        bool all_dt = true;
        for (int k = 0; k < 2; k++)
            if (ops[k].t && ops[k].t->dtype != dt) all_dt = false;
        if (all_dt) {
            for (int k = 0; k < 2; k++) {
                if (ops[k].t || ops[k].s.kind == TSR_SCALAR_COMPLEX) continue;
                double v = tsr_scalar_to_double(ops[k].s);
                ops[k].s = tsr_scalar_float(dt == TSR_FLOAT16 ? tsr_half_to_float(tsr_double_to_half(v))
                                                              : tsr_bfloat16_to_float(tsr_double_to_bfloat16(v)));
            }
            cfg.in_dtype[0] = cfg.in_dtype[1] = TSR_FLOAT32;
            cfg.loop_writes_float32 = true;
            cfg.bf16_vec_nan = true;
            fn = tab[TSR_FLOAT32];
        }
    }
    return tsr_iter_run(&cfg, ops, out, fn, &kp);
}

static tsr_tensor *binary_run(const tsr_op *d, const tsr_operand *in, tsr_tensor *out, bool inplace)
{
    return binary_impl((int)(d - binops), &in[0], &in[1], out, inplace, NULL);
}

tsr_tensor *tsr_binary(tsr_binop op, const tsr_operand *a, const tsr_operand *b, tsr_tensor *out,
                       const tsr_binary_opts *opts)
{
    return binary_impl(op, a, b, out, false, opts);
}

tsr_tensor *tsr_binary_(tsr_binop op, tsr_tensor *self, const tsr_operand *b, const tsr_binary_opts *opts)
{
    tsr_operand a = tsr_operand_tensor(self);
    return binary_impl(op, &a, b, self, true, opts);
}

int tsr_div_rounding_mode(const char *mode, tsr_binop *op)
{
    if (!mode) *op = TSR_BINOP_DIV;
    else if (!strcmp(mode, "trunc")) *op = TSR_BINOP_DIV_TRUNC;
    else if (!strcmp(mode, "floor")) *op = TSR_BINOP_DIV_FLOOR;
    else {
        tsr_error_set(TSR_ERR_RUNTIME, "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'",
                      mode);
        return -1;
    }
    return 0;
}

/* torch/_tensor.py __rpow__: torch.tensor(s, dtype=result_type(s, x)) ** x;
 * the scalar must fit that dtype as torch.tensor checks it (tensor_new.cpp
 * words it with the dtype's name: "uint8"). */
tsr_tensor *tsr_rpow(const tsr_operand *s, const tsr_tensor *x)
{
    tsr_operand o[2] = {*s, tsr_operand_tensor(x)};
    tsr_dtype dt = tsr_result_type(2, o, NULL);
    if (!s->t && tsr_dtype_is_integral(dt, false) && s->s.kind == TSR_SCALAR_INT) {
        tsr_iinfo ii;
        if (tsr_dtype_iinfo(dt, &ii) == 0 && (s->s.i < ii.min || (s->s.i > 0 && (uint64_t)s->s.i > ii.max))) {
            tsr_error_set(TSR_ERR_RUNTIME, "value cannot be converted to type %s without overflow", tsr_dtype_name(dt));
            return NULL;
        }
    }
    return binary_impl(TSR_BINOP_POW, &o[0], &o[1], NULL, false, NULL);
}

/* ----------------------------------------------------- lerp, where, fill */

/* aten/src/ATen/native/Lerp.h: two formulas split at |weight| < 0.5. 1.13's
 * AVX2 build fuses them (vec::fmadd in the vector body, FMA contraction in
 * the scalar tail), so both are one fma; float16/bfloat16 compute in float
 * and round once. */
#define LERP_F(s, e, w) (fabs(w) < 0.5 ? fma((w), (e) - (s), (s)) : fma((w) - 1, (e) - (s), (e)))
#define LERP_C(s, e, w) (cabs(w) < 0.5 ? (s) + CMUL(w, (e) - (s)) : (e) - CMUL((e) - (s), ONE_C - (w)))

#define TERNARY_LOOP(T, LD, ST, C, BODY)                                              \
    const void *c = ctx; (void)c;                                                     \
    char *o = d[0]; const char *a = d[1], *b = d[2], *w = d[3];                       \
    for (int64_t i = 0; i < n; i++) {                                                 \
        C x = LD(*(const T *)(a + i * s[1])), y = LD(*(const T *)(b + i * s[2]));     \
        C z = LD(*(const T *)(w + i * s[3]));                                         \
        *(T *)(o + i * s[0]) = ST(BODY(x, y, z));                                     \
    }                                                                                 \
    return 0;
#define DEF_T(dt, T, C, R, OP, BODY) \
    LOOP_SIG(OP##_##dt) { typedef R real_t; (void)sizeof(real_t); TERNARY_LOOP(T, LD_##dt, ST_##dt, C, BODY) }
FAM_FLOAT(DEF_T, lerp, LERP_F)
FAM_COMPLEX(DEF_T, lerp, LERP_C)
static const tsr_loop_fn lerp_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_FLOAT, lerp) TAB(FAM_COMPLEX, lerp) };

/* A Python-number weight is not rounded to the tensor's dtype first when
 * that is bfloat16 (the kernel takes it as float): it comes in ctx. */
#define SCALAR_W_LOOP(T, LD, ST, C, BODY, WEIGHT)                                     \
    const void *c = ctx; (void)c;                                                     \
    char *o = d[0]; const char *a = d[1], *b = d[2];                                  \
    C z = WEIGHT;                                                                     \
    for (int64_t i = 0; i < n; i++) {                                                 \
        C x = LD(*(const T *)(a + i * s[1])), y = LD(*(const T *)(b + i * s[2]));     \
        *(T *)(o + i * s[0]) = ST(BODY(x, y, z));                                     \
    }                                                                                 \
    return 0;
#define DEF_TS_F(dt, T, C, R, OP, BODY) \
    LOOP_SIG(OP##_##dt) { typedef R real_t; (void)sizeof(real_t); SCALAR_W_LOOP(T, LD_##dt, ST_##dt, C, BODY, (C)KP->d) }
#define DEF_TS_C(dt, T, C, R, OP, BODY) \
    LOOP_SIG(OP##_##dt) { typedef R real_t; (void)sizeof(real_t); SCALAR_W_LOOP(T, LD_##dt, ST_##dt, C, BODY, (C)KP->z) }
FAM_FLOAT(DEF_TS_F, lerps, LERP_F)
FAM_COMPLEX(DEF_TS_C, lerps, LERP_C)
static const tsr_loop_fn lerps_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_FLOAT, lerps) TAB(FAM_COMPLEX, lerps) };

#define M_LERP (M(TSR_FLOAT32) | M(TSR_FLOAT64) | M(TSR_BFLOAT16) | M(TSR_COMPLEX64) | M(TSR_COMPLEX128))
#define TERN(nm, at, kn, ar, tab_, mask, rule_, diff)                                              \
    {.name = nm, .aten = at, .kname = kn, .arity = ar, .rule = rule_, .cpu_dtypes = mask,          \
     .meta_dtypes = M_ALL, .names = TSR_NAMES_BROADCAST, .differentiable = diff, .cpu = tab_}
const tsr_op tsr_op_lerp_tensor = TERN("lerp", "lerp.Tensor", "lerp_kernel_tensor", 3, lerp_tab, M_LERP, TSR_DT_SELF, true);
const tsr_op tsr_op_lerp_scalar = TERN("lerp", "lerp.Scalar", "lerp_kernel_scalar", 3, lerps_tab, M_LERP, TSR_DT_SELF, true);
/* where's loop moves raw elements of any dtype (it has no per-dtype table) */
const tsr_op tsr_op_where = TERN("where", "where.self", "where_cpu", 3, NULL, M_ALL, TSR_DT_COMMON, true);
const tsr_op tsr_op_masked_fill = TERN("masked_fill", "masked_fill.Scalar", "masked_fill", 3, NULL, M_ALL, TSR_DT_SELF, true);

/* addcmul / addcdiv (PointwiseOpsKernel.cpp): self + value * t1 * t2 and
 * self + value * t1 / t2 in the common dtype, value converted to it first
 * (bfloat16 takes it as float and computes in float). The FMA build fuses
 * addcmul's last multiply and add (KP->flag). */
#define ADDCMUL_I(x, y, z) WRAP(U64(x) + U64(KP->i) * U64(y) * U64(z))
#define ADDCMUL_F(x, y, z) (KP->flag ? fma((real_t)KP->d * (y), (z), (x)) : (x) + (real_t)KP->d * (y) * (z))
#define ZVAL __builtin_complex((real_t)creal(KP->z), (real_t)cimag(KP->z))
#define ADDCMUL_C(x, y, z) ((x) + CMUL(CMUL(ZVAL, y), z))
#define ADDCDIV_F(x, y, z) ((x) + (real_t)KP->d * (y) / (z))
#define ADDCDIV_C(x, y, z) ((x) + CDIV(CMUL(ZVAL, y), z))
#define DEF_TI(dt, T, C, R, OP, BODY) \
    LOOP_SIG(OP##_##dt) { typedef R real_t; (void)sizeof(real_t); TERNARY_LOOP(T, LD_##dt, ST_##dt, C, BODY) }
FAM_INT(DEF_TI, addcmul, ADDCMUL_I)
FAM_FLOAT(DEF_T, addcmul, ADDCMUL_F)
FAM_COMPLEX(DEF_T, addcmul, ADDCMUL_C)
FAM_FLOAT(DEF_T, addcdiv, ADDCDIV_F)
FAM_COMPLEX(DEF_T, addcdiv, ADDCDIV_C)
static const tsr_loop_fn addcmul_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_INT, addcmul) TAB(FAM_FLOAT, addcmul) TAB(FAM_COMPLEX, addcmul) };
static const tsr_loop_fn addcdiv_tab[TSR_DTYPE_SLOTS] = { TAB(FAM_FLOAT, addcdiv) TAB(FAM_COMPLEX, addcdiv) };
#define M_ADDC (M_INT | F3 | M(TSR_COMPLEX64) | M(TSR_COMPLEX128))
const tsr_op tsr_op_addcmul = TERN("addcmul", "addcmul", "addcmul_cpu_out", 3, addcmul_tab, M_ADDC, TSR_DT_COMMON, true);
const tsr_op tsr_op_addcdiv = TERN("addcdiv", "addcdiv", "addcdiv_cpu_out", 3, addcdiv_tab, M_ADDC, TSR_DT_COMMON, true);

static tsr_tensor *addc_impl(bool div, const tsr_tensor *self, const tsr_tensor *t1, const tsr_tensor *t2,
                             const tsr_scalar *value, tsr_tensor *out, bool inplace)
{
    const tsr_op *desc = div ? &tsr_op_addcdiv : &tsr_op_addcmul;
    tsr_operand ops[3] = {tsr_operand_tensor(self), tsr_operand_tensor(t1), tsr_operand_tensor(t2)};
    if (tsr_op_check_inputs(desc, 3, ops) < 0) return NULL;
    if (div && tsr_dtype_is_integral(t1->dtype, true) && tsr_dtype_is_integral(t2->dtype, true)) {
        tsr_error_set(TSR_ERR_RUNTIME, "Integer division with addcdiv is no longer supported, and in a future  "
                      "release addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
                      "behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) "
                      "for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
                      "addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for "
                      "all dtypes.");
        return NULL;
    }
    tsr_dtype dt = tsr_op_compute_dtype(desc, 3, ops, NULL);
    tsr_loop_fn fn = tsr_op_kernel(desc, dt);
    tsr_scalar v = value ? *value : tsr_scalar_int(1);
    tsr__kparams kp = {0};
    if (fn) {
        /* value.to<scalar_t>() (to<float>() for bfloat16) inside the dispatch */
        if (tsr_scalar_check_fits(v, dt == TSR_BFLOAT16 ? TSR_FLOAT32 : dt) < 0) return NULL;
        double re, im;
        tsr_scalar_to_complex(v, &re, &im);
        kp.i = tsr_scalar_to_int64(v);
        kp.d = dt == TSR_FLOAT64 ? re : (double)(float)re;
        kp.z = dt == TSR_COMPLEX64 ? (double)(float)re + (double)(float)im * I : re + im * I;
        kp.flag = tsr__sleef_usable();
        /* build_ternary_op promotes the inputs but never casts to the
         * output: an out= or self of another (castable) dtype trips
         * cpu_kernel_vec's assertion in 1.13, after the iterator's checks
         * (the CUDA kernel casts) */
        if (out && out->dtype != dt && out->device.type != TSR_DEV_CUDA) {
            int nd[3] = {self->ndim, t1->ndim, t2->ndim};
            const int64_t *sz[3] = {self->sizes, t1->sizes, t2->sizes};
            int64_t shape[TSR_MAX_DIMS];
            if (tsr_broadcast_shapes(3, nd, sz, shape) < 0) return NULL;
            if (!tsr_can_cast(dt, out->dtype)) {
                tsr_error_set(TSR_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                              tsr_dtype_scalar_name(dt), tsr_dtype_scalar_name(out->dtype));
                return NULL;
            }
            tsr_error_set(TSR_ERR_RUNTIME, "!needs_dynamic_casting<func_t>::check(iter) INTERNAL ASSERT FAILED at "
                          "\"./aten/src/ATen/native/cpu/Loops.h\":347, please report a bug to PyTorch. ");
            return NULL;
        }
    }
    tsr_iter_config cfg = {.nin = 3, .in_dtype = {dt, dt, dt}, .out_dtype = dt, .check_dtype = dt,
                           .check = tsr_op_out_check(desc), .inplace = inplace, .kname = desc->kname, .kdtype = dt,
                           .dev_kernel = tsr_op_dev_kernel(desc), .aten = desc->aten};
    /* PointwiseOpsKernel.cu: value.to<accscalar_t>() (float for float16/bfloat16) */
    double vre, vim;
    tsr_scalar_to_complex(v, &vre, &vim);
    cfg.dev_params.d[0] = vre;
    cfg.dev_params.d[1] = vim;   /* complex kernels: value's imaginary part */
    cfg.dev_params.i = tsr_scalar_to_int64(v);
    return tsr_iter_run(&cfg, ops, out, fn, &kp);
}

tsr_tensor *tsr_addcmul(const tsr_tensor *self, const tsr_tensor *t1, const tsr_tensor *t2, const tsr_scalar *value,
                        tsr_tensor *out)
{
    return addc_impl(false, self, t1, t2, value, out, false);
}

tsr_tensor *tsr_addcdiv(const tsr_tensor *self, const tsr_tensor *t1, const tsr_tensor *t2, const tsr_scalar *value,
                        tsr_tensor *out)
{
    return addc_impl(true, self, t1, t2, value, out, false);
}

tsr_tensor *tsr_addc_(bool div, tsr_tensor *self, const tsr_tensor *t1, const tsr_tensor *t2, const tsr_scalar *value)
{
    return addc_impl(div, self, t1, t2, value, self, true);
}

/* BinaryOps.cpp: ldexp is mul(self, pow(2.0, other)), out= and in place
 * through mul_out. */
tsr_tensor *tsr_ldexp(const tsr_tensor *x, const tsr_tensor *e, tsr_tensor *out, bool inplace)
{
    tsr_operand two = tsr_operand_scalar(tsr_scalar_float(2.0)), eo = tsr_operand_tensor(e), xo = tsr_operand_tensor(x);
    tsr_tensor *p = binary_impl(TSR_BINOP_POW, &two, &eo, NULL, false, NULL);
    if (!p) return NULL;
    tsr_operand po = tsr_operand_tensor(p);
    tsr_tensor *r = binary_impl(TSR_BINOP_MUL, &xo, &po, out, inplace, NULL);
    tsr_tensor_release(p);
    return r;
}

static tsr_tensor *lerp_impl(const tsr_tensor *start, const tsr_tensor *end, const tsr_operand *w,
                             tsr_tensor *out, bool inplace)
{
    const tsr_op *desc = w->t ? &tsr_op_lerp_tensor : &tsr_op_lerp_scalar;
    tsr_operand ops[3] = {tsr_operand_tensor(start), tsr_operand_tensor(end), *w};
    if (tsr_op_check_inputs(desc, 3, ops) < 0) return NULL;
    /* lerp_meta_check_dtype words the dtypes the TypeMeta way ("float") */
    tsr_dtype dt = start->dtype;
    if (end->dtype != dt) {
        tsr_error_set(TSR_ERR_RUNTIME, "expected dtype %s for `end` but got dtype %s",
                      tsr_dtype_typemeta_name(dt), tsr_dtype_typemeta_name(end->dtype));
        return NULL;
    }
    if (w->t && w->t->dtype != dt) {
        tsr_error_set(TSR_ERR_RUNTIME, "expected dtype %s for `weight` but got dtype %s",
                      tsr_dtype_typemeta_name(dt), tsr_dtype_typemeta_name(w->t->dtype));
        return NULL;
    }
    tsr_loop_fn fn = tsr_op_kernel(desc, dt);
    tsr_iter_config cfg = {.nin = w->t ? 3 : 2, .in_dtype = {dt, dt, dt}, .out_dtype = dt, .check_dtype = dt,
                           .check = tsr_op_out_check(desc), .inplace = inplace, .kname = desc->kname, .kdtype = dt,
                           .dev_kernel = tsr_op_dev_kernel(desc), .aten = desc->aten};
    tsr__kparams kp = {0};
    if (!w->t) {
        double re, im;
        tsr_scalar_to_complex(w->s, &re, &im);
        /* weight.to<scalar_t>(): float for float32 and (1.13) for bfloat16 */
        kp.d = dt == TSR_FLOAT64 || dt == TSR_COMPLEX128 ? re : (double)(float)re;
        kp.z = dt == TSR_COMPLEX64 ? (double)(float)re + (double)(float)im * I : re + im * I;
        cfg.dev_params.mode = 1;   /* Lerp.cu: weight.to<opmath_t>() */
        cfg.dev_params.d[0] = re;
        cfg.dev_params.d[1] = im;   /* complex kernels: weight's imaginary part */
    }
    return tsr_iter_run(&cfg, ops, out, fn, &kp);
}

tsr_tensor *tsr_lerp(const tsr_tensor *start, const tsr_tensor *end, const tsr_operand *weight, tsr_tensor *out)
{
    return lerp_impl(start, end, weight, out, false);
}

tsr_tensor *tsr_lerp_(tsr_tensor *self, const tsr_tensor *end, const tsr_operand *weight)
{
    return lerp_impl(self, end, weight, self, true);
}

/* where: the loop copies raw elements of any size by itemsize. */
typedef struct { int size; } where_ctx;
static int where_strided(char **d, const int64_t *s, int64_t n, int sz)
{
    for (int64_t i = 0; i < n; i++) {
        bool cnd = *(const bool *)(d[1] + i * s[1]);
        memcpy(d[0] + i * s[0], cnd ? d[2] + i * s[2] : d[3] + i * s[3], (size_t)sz);
    }
    return 0;
}

/* Contiguous output and condition, elements moved as T (an unsigned of the
 * itemsize) with a select the vectoriser turns into blends: x and y are
 * arrays or (stride 0) one value; o may be y itself (in-place masked_fill). */
#define WHERE_CONTIG(T)                                                                           \
    do {                                                                                          \
        T *o = (T *)d[0];                                                                         \
        const uint8_t *c = (const uint8_t *)d[1];                                                 \
        const T *x = (const T *)d[2], *y = (const T *)d[3];                                       \
        int64_t sx = s[2], sy = s[3];                                                             \
        if (sx == 0 && d[3] == d[0] && sy == (int64_t)sizeof(T)) {                                \
            T v = *x;                                                                             \
            for (int64_t i = 0; i < n; i++) o[i] = c[i] ? v : o[i];                               \
        } else if (sx == 0 && sy == (int64_t)sizeof(T)) {                                         \
            T v = *x;                                                                             \
            for (int64_t i = 0; i < n; i++) o[i] = c[i] ? v : y[i];                               \
        } else if (sx == (int64_t)sizeof(T) && sy == (int64_t)sizeof(T)) {                        \
            for (int64_t i = 0; i < n; i++) o[i] = c[i] ? x[i] : y[i];                            \
        } else if (sx == (int64_t)sizeof(T) && sy == 0) {                                         \
            T v = *y;                                                                             \
            for (int64_t i = 0; i < n; i++) o[i] = c[i] ? x[i] : v;                               \
        } else {                                                                                  \
            return where_strided(d, s, n, (int)sizeof(T));                                        \
        }                                                                                         \
        return 0;                                                                                 \
    } while (0)

LOOP_SIG(where_loop)
{
    int sz = ((const where_ctx *)ctx)->size;
    if (s[1] == 1 && s[0] == sz) {
        switch (sz) {
        case 1: WHERE_CONTIG(uint8_t);
        case 2: WHERE_CONTIG(uint16_t);
        case 4: WHERE_CONTIG(uint32_t);
        case 8: WHERE_CONTIG(uint64_t);
        default: break;
        }
    }
    return where_strided(d, s, n, sz);
}

static tsr_tensor *where_impl(const tsr_tensor *cond, const tsr_operand *a, const tsr_operand *b, tsr_tensor *out,
                              tsr_dtype dt, bool inplace)
{
    if (cond->dtype != TSR_BOOL) {
        tsr_error_set(TSR_ERR_RUNTIME, "where expected condition to be a boolean tensor, but got a tensor with dtype %s",
                      tsr_dtype_scalar_name(cond->dtype));
        return NULL;
    }
    tsr_operand ops[3] = {tsr_operand_tensor(cond), *a, *b};
    if (tsr_op_check_inputs(&tsr_op_where, 3, ops) < 0) return NULL;
    where_ctx wc = {tsr_dtype_itemsize(dt)};
    tsr_iter_config cfg = {.nin = 3, .in_dtype = {TSR_BOOL, dt, dt}, .out_dtype = dt, .check_dtype = dt,
                           .check = TSR_CHECK_CAN_CAST, .inplace = inplace,
                           .dev_kernel = tsr_op_dev_kernel(&tsr_op_where), .dev_skip = 1,
                           .aten = inplace ? tsr_op_masked_fill.aten : tsr_op_where.aten};
    return tsr_iter_run(&cfg, ops, out, where_loop, &wc);
}

tsr_tensor *tsr_where(const tsr_tensor *cond, const tsr_operand *a, const tsr_operand *b, tsr_tensor *out)
{
    tsr_operand ab[2] = {*a, *b};
    return where_impl(cond, a, b, out, tsr_result_type(2, ab, NULL), false);
}

/* The value is converted to self's dtype with an overflow check first
 * (masked_fill__cpu: value.item() to scalar_t). */
static int masked_value_check(const tsr_tensor *x, const tsr_operand *value)
{
    tsr_scalar sv;
    if (!value->t) return tsr_scalar_check_fits(value->s, x->dtype);
    if (value->t->ndim != 0 || tsr_tensor_is_meta(value->t)) return 0;
    if (tsr_tensor_get_at(value->t, 0, &sv) < 0) return -1;
    return tsr_scalar_check_fits(sv, x->dtype);
}

int tsr_masked_fill_(tsr_tensor *x, const tsr_tensor *mask, const tsr_operand *value)
{
    if (masked_value_check(x, value) < 0) return -1;
    tsr_operand ops[3] = {tsr_operand_tensor(x), tsr_operand_tensor(mask), *value};
    if (tsr_op_check_inputs(&tsr_op_masked_fill, 3, ops) < 0) return -1;
    if (mask->dtype != TSR_BOOL) {
        tsr_error_set(TSR_ERR_RUNTIME, "masked_fill_ only supports boolean masks, but got mask with dtype %s",
                      tsr_dtype_name(mask->dtype));
        return -1;
    }
    if (value->t && value->t->ndim != 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor "
                      "with %d dimension(s).", value->t->ndim);
        return -1;
    }
    tsr_operand self = tsr_operand_tensor(x);
    tsr_tensor *r = where_impl(mask, value, &self, x, x->dtype, true);
    if (!r) return -1;
    tsr_tensor_release(r);
    return 0;
}

tsr_tensor *tsr_masked_fill(const tsr_tensor *x, const tsr_tensor *mask, const tsr_operand *value)
{
    /* out-of-place masked_fill clones with preserve_format, then fills in place;
     * the mask broadcasts to x (expand_outplace). */
    if (masked_value_check(x, value) < 0) return NULL;
    /* a mask of more dims or larger sizes broadcasts x too (expand_outplace(mask, self)) */
    int nds[2] = {mask->ndim, x->ndim};
    const int64_t *szs[2] = {mask->sizes, x->sizes};
    int64_t bs[TSR_MAX_DIMS];
    int bn = mask->ndim <= TSR_MAX_DIMS ? tsr_broadcast_shapes(2, nds, szs, bs) : -1;
    if (bn < 0) tsr_error_clear();
    bool grow = bn > x->ndim;
    for (int i = 0; bn == x->ndim && i < bn; i++) grow |= bs[i] != x->sizes[i];
    tsr_tensor *xe = grow ? tsr_view_expand(x, bn, bs) : NULL;
    tsr_tensor *y = tsr_clone(xe ? xe : x, TSR_MF_PRESERVE);
    tsr_tensor_release(xe);
    if (!y) return NULL;
    if (tsr_masked_fill_(y, mask, value) < 0) {
        tsr_tensor_release(y);
        return NULL;
    }
    return y;
}
