/* runtime/ops/special.c — the torch.special kernels of special.h: scalar
 * bodies from special_math.h (ports of 1.13's Math.h) expanded over 1.13's
 * dtype lists, and the composites (ndtr, mvlgamma, round) that 1.13 builds
 * from other ops. float16/bfloat16 follow the C++ types' rounding steps. */
#include <tgmath.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include "../error.h"
#include "../op.h"
#include "loops.h"
#include "binary.h"
#include "copy.h"
#include "factory.h"
#include "unary.h"
#include "special.h"
#include "sleef.h"
#include "../view.h"
#include "../internal.h"

/* ------------------------------------------------ special_math.h, four times */

/* The C++ originals call ::pow, ::log, ::sqrt, ::exp, ::lgamma (and erfcx an
 * unqualified exp) on float arguments: at global scope only C's double
 * functions are declared there, so these compute in double (1.13's results
 * agree). */
#define GL_pow(a, b) pow((double)(a), (double)(b))
#define GL_log(a) log((double)(a))
#define GL_sqrt(a) sqrt((double)(a))
#define GL_exp(a) exp((double)(a))
#define GL_lgamma(a) lgamma((double)(a))
#define GL_floor(a) floor((double)(a))
#define GL_fabs(a) fabs((double)(a))
#define PI_F 3.14159265358979323846f

#define T float
#define ACC double          /* at::acc_type<float, false> */
#define IS_DBL 0
#define PI_T PI_F
#define F(n) n##_fp
#include "special_math.h"
#undef F
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#define F(n) n##_ff
#include "special_math.h"
#undef F
#pragma GCC pop_options
#undef T
#undef ACC
#undef IS_DBL
#undef PI_T

#define T double
#define ACC double
#define IS_DBL 1
#define PI_T M_PI
#define F(n) n##_dp
#include "special_math.h"
#undef F
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#define F(n) n##_df
#include "special_math.h"
#undef F
#pragma GCC pop_options
#undef T
#undef ACC
#undef IS_DBL
#undef PI_T

/* The FMA build where 1.13 would run its AVX2 kernels (runtime/ops/sleef.c). */
#define FMA_ON tsr__sleef_usable()
#define FIRST_(a, ...) a
/* fn(args...) in the precision of the first argument, fused or not */
#define SP(fn, ...) _Generic((FIRST_(__VA_ARGS__, 0)),                                        \
    float: (FMA_ON ? fn##_ff(__VA_ARGS__) : fn##_fp(__VA_ARGS__)),                            \
    default: (FMA_ON ? fn##_df(__VA_ARGS__) : fn##_dp(__VA_ARGS__)))

/* static_cast<int64_t>(n) of a float n as x86 does it: NaN and values out of
 * range give INT64_MIN (the polynomials then return 0 for "n < 0"). */
static inline int64_t poly_n(double n)
{
    if (!(n >= -9223372036854775808.0 && n < 9223372036854775808.0)) return INT64_MIN;
    return (int64_t)n;
}

/* Rounding to bfloat16 and back: the C++ BFloat16 results of
 * c10/util/BFloat16-math.h (std::log(BFloat16) is a BFloat16). */
#define BFR(x) tsr_bfloat16_to_float(tsr_float_to_bfloat16(x))

/* ---------------------------------------------------------------- bodies */

#define SINC_F(x) SP(sinc, x)
/* BFloat16: c10::pi<BFloat16> (3.140625) times a, a BFloat16; its sine too */
#define SINC_BF(x) ((x) == 0 ? 1.0f : sinc_bf16(x))
static inline float sinc_bf16(float a)
{
    float p = BFR(3.140625f * a);
    return BFR(sinf(p)) / p;
}
#define ERFCX_F(x) SP(calc_erfcx, x)
#define NDTRI_F(x) SP(calc_ndtri, x)
#define LOG_NDTR_F(x) SP(calc_log_ndtr, x)
#define ENTR_F(x) SP(entr, x)
/* BFloat16: -x * std::log(x), the log rounded to bfloat16 first */
#define ENTR_BF(x) (isnan(x) ? (x) : (x) > 0 ? -(x) * BFR(logf(x)) : (x) == 0 ? 0.0f : -INFINITY)
#define TRIGAMMA_F(x) SP(trigamma, x)
#define POLYGAMMA_F(x) SP(calc_polygamma, x, (int)KP->i)

#define XLOGY_F(x, y) SP(xlogy, x, y)
#define XLOG1PY_F(x, y) SP(xlog1py, x, y)
/* Half * float is float (one rounding when stored); BFloat16's log is a BFloat16 */
#define XLOGY_BF(x, y) (isnan(y) ? NAN : (x) == 0 ? 0.0f : (x) * BFR(logf(y)))
#define XLOG1PY_BF(x, y) (isnan(y) ? NAN : (x) == 0 ? 0.0f : (x) * BFR(log1pf(y)))
#define ZETA_F(x, y) SP(zeta, x, y)
#define IGAMMA_F(x, y) SP(calc_igamma, x, y)
#define IGAMMAC_F(x, y) SP(calc_igammac, x, y)
#define CHEB_T(x, y) SP(chebyshev_polynomial_t_forward, x, poly_n(y))
#define CHEB_U(x, y) SP(chebyshev_polynomial_u_forward, x, poly_n(y))
#define CHEB_V(x, y) SP(chebyshev_polynomial_v_forward, x, poly_n(y))
#define CHEB_W(x, y) SP(chebyshev_polynomial_w_forward, x, poly_n(y))
#define SCHEB_T(x, y) SP(shifted_chebyshev_polynomial_t_forward, x, poly_n(y))
#define SCHEB_U(x, y) SP(shifted_chebyshev_polynomial_u_forward, x, poly_n(y))
#define SCHEB_V(x, y) SP(shifted_chebyshev_polynomial_v_forward, x, poly_n(y))
#define SCHEB_W(x, y) SP(shifted_chebyshev_polynomial_w_forward, x, poly_n(y))
#define HERM_H(x, y) SP(hermite_polynomial_h_forward, x, poly_n(y))
#define HERM_HE(x, y) SP(hermite_polynomial_he_forward, x, poly_n(y))
#define LAG_L(x, y) SP(laguerre_polynomial_l_forward, x, poly_n(y))
#define LEG_P(x, y) SP(legendre_polynomial_p_forward, x, poly_n(y))

/* zeta<BFloat16> as polygamma's BFloat16 kernel instantiates it: the
 * accumulate type is float and the result is rounded to bfloat16. */
static float zeta_bf16(float x, float q)
{
    static const float A[] = {12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
                              7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
                              -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18};
    const float MACHEP = 1.11022302462515654042E-16f;
    float a, b, k, s, t, w;
    if (x == 1) return INFINITY;
    if (x < 1) return NAN;
    if (q <= 0) {
        if (q == floorf(q)) return INFINITY;
        if (x != floorf(x)) return NAN;
    }
    s = (float)pow((double)q, (double)-x);
    a = q;
    int i = 0;
    b = 0;
    while (i < 9 || a <= 9.0f) {
        i += 1;
        a += 1;
        b = (float)pow((double)a, (double)-x);
        s += b;
        if (-MACHEP * s < b && b < MACHEP * s) return BFR(s);
    }
    w = a;
    s += b * w / (x - 1);
    s -= 0.5f * b;
    a = 1;
    k = 0;
    for (i = 0; i < 12; i++) {
        a *= x + k;
        b /= w;
        t = a * b / A[i];
        s = s + t;
        t = fabsf(t / s);
        if (t < MACHEP) return BFR(s);
        k += 1;
        a *= x + k;
        b /= w;
        k += 1;
    }
    return BFR(s);
}

/* calc_polygamma<BFloat16>: n + 1 is a BFloat16; ::exp and ::lgamma are C's
 * double functions, so the product is a double (rounded to float, then to
 * bfloat16 when stored) */
static float polygamma_bf16(float x, int n)
{
    float np1 = BFR(BFR((float)n) + 1.0f);
    double sgn = (n % 2) ? 1.0 : -1.0;
    return (float)(sgn * exp(lgamma((double)np1)) * zeta_bf16(BFR((float)(n + 1)), x));
}
#define POLYGAMMA_BF(x) polygamma_bf16(x, (int)KP->i)

/* sinc of complex64/complex128: c10::complex arithmetic (pi * a, the libm
 * complex sine, the textbook quotient (ac + bd, bc - ad) / (cc + dd)). 1.13's
 * AVX2 build fuses the first product of the denominator, and of each
 * numerator the second for complex<float>, the first for complex<double>
 * (found against it). FMA is fma or the plain x * y + z. */
#define SINC_C_BODY(R, CSIN, PI_R, FMA, SECOND)                                       \
    R ar = creal(a), ai = cimag(a);                                                  \
    if (ar == 0 && ai == 0) return 1;                                                \
    R c = FMA(-(R)0, ai, PI_R * ar), d = FMA((R)0, ar, PI_R * ai);                   \
    R _Complex sn = CSIN(__builtin_complex(c, d));                                   \
    R sa = creal(sn), sb = cimag(sn);                                                \
    R den = FMA(c, c, d * d);                                                        \
    R re = SECOND ? FMA(sb, d, sa * c) : FMA(sa, c, sb * d);                         \
    R im = SECOND ? FMA(-sa, d, sb * c) : FMA(sb, c, -(sa * d));                     \
    return __builtin_complex((R)(re / den), (R)(im / den));
#define PLAIN_MA(x, y, z) ((x) * (y) + (z))
static float _Complex sinc_cf_plain(float _Complex a) { SINC_C_BODY(float, csinf, PI_F, PLAIN_MA, 1) }
static double _Complex sinc_cd_plain(double _Complex a) { SINC_C_BODY(double, csin, M_PI, PLAIN_MA, 0) }
static float _Complex sinc_cf_fma(float _Complex a) { SINC_C_BODY(float, csinf, PI_F, fmaf, 1) }
static double _Complex sinc_cd_fma(double _Complex a) { SINC_C_BODY(double, csin, M_PI, fma, 0) }
#define SINC_C(x) _Generic((x), float _Complex: (FMA_ON ? sinc_cf_fma(x) : sinc_cf_plain(x)), \
                           default: (FMA_ON ? sinc_cd_fma(x) : sinc_cd_plain(x)))

/* ----------------------------------------------------------- instantiation */

#define FAM_F2(X, ...)                                     \
    X(float32, float, float, float, __VA_ARGS__)           \
    X(float64, double, double, double, __VA_ARGS__)
#define FAM_BF(X, ...) X(bfloat16, tsr_bfloat16, float, float, __VA_ARGS__)
#define FAM_HF(X, ...) X(float16, tsr_half, float, float, __VA_ARGS__)
#define FAM_C2(X, ...)                                                   \
    X(complex64, tsr_cfloat, float _Complex, float, __VA_ARGS__)          \
    X(complex128, tsr_cdouble, double _Complex, double, __VA_ARGS__)
#define U_(FAM, OP, BODY) FAM(DEF_U_SAME, OP, BODY)
#define B_(FAM, OP, BODY) FAM(DEF_B_SAME, OP, BODY)
#define E_(FAM, OP) FAM(ENTRY, OP)

U_(FAM_F2, sinc, SINC_F) U_(FAM_BF, sinc, SINC_BF) U_(FAM_C2, sinc, SINC_C)
U_(FAM_F2, erfcx, ERFCX_F) U_(FAM_F2, ndtri, NDTRI_F) U_(FAM_F2, log_ndtr, LOG_NDTR_F)
U_(FAM_F2, entr, ENTR_F) U_(FAM_BF, entr, ENTR_BF)
U_(FAM_F2, trigamma, TRIGAMMA_F) U_(FAM_BF, trigamma, TRIGAMMA_F)
U_(FAM_F2, polygamma, POLYGAMMA_F) U_(FAM_BF, polygamma, POLYGAMMA_BF)
B_(FAM_F2, xlogy, XLOGY_F) B_(FAM_HF, xlogy, XLOGY_F) B_(FAM_BF, xlogy, XLOGY_BF)
B_(FAM_F2, xlog1py, XLOG1PY_F) B_(FAM_HF, xlog1py, XLOG1PY_F) B_(FAM_BF, xlog1py, XLOG1PY_BF)
B_(FAM_F2, zeta, ZETA_F)
B_(FAM_FLOAT, igamma, IGAMMA_F) B_(FAM_FLOAT, igammac, IGAMMAC_F)
B_(FAM_F2, cheb_t, CHEB_T) B_(FAM_F2, cheb_u, CHEB_U) B_(FAM_F2, cheb_v, CHEB_V) B_(FAM_F2, cheb_w, CHEB_W)
B_(FAM_F2, scheb_t, SCHEB_T) B_(FAM_F2, scheb_u, SCHEB_U) B_(FAM_F2, scheb_v, SCHEB_V) B_(FAM_F2, scheb_w, SCHEB_W)
B_(FAM_F2, herm_h, HERM_H) B_(FAM_F2, herm_he, HERM_HE) B_(FAM_F2, lag_l, LAG_L) B_(FAM_F2, leg_p, LEG_P)

/* ------------------------------------------------------------- op table */

#define F2 (M(TSR_FLOAT32) | M(TSR_FLOAT64))
#define F3 (F2 | M(TSR_BFLOAT16))
#define C2 (M(TSR_COMPLEX64) | M(TSR_COMPLEX128))
#define UNPAREN(...) __VA_ARGS__
#define SOP(nm, at, kn, ar, TAB, mask, rule_, names_)                                               \
    {.name = nm, .aten = at, .kname = kn, .arity = ar, .rule = rule_, .cpu_dtypes = mask,            \
     .meta_dtypes = M_ALL, .names = names_, .differentiable = true,                                 \
     .cpu = (const tsr_loop_fn[TSR_DTYPE_SLOTS]){UNPAREN TAB}}
/* names: 1.13 propagates names through polygamma and igamma(c) only; the
 * other kernels refuse named inputs */
#define SU(nm, kn, TAB, mask) SOP(nm, nm, kn, 1, TAB, mask, TSR_DT_UNARY_FLOAT, TSR_NAMES_REFUSE)
#define SUN(nm, kn, TAB, mask) SOP(nm, nm, kn, 1, TAB, mask, TSR_DT_UNARY_FLOAT, TSR_NAMES_UNARY)
#define SB(nm, kn, TAB, mask) SOP(nm, nm, kn, 2, TAB, mask, TSR_DT_FLOAT, TSR_NAMES_REFUSE)
#define SPOLY(nm, OP) SB("special_" nm, nm "_cpu", (E_(FAM_F2, OP)), F2)

/* The named ops first, then those the binding table finds by ATen name only. */
static const tsr_op special_ops[] = {   /* ORDER SPECIAL */
    [TSR_SPECIAL_SINC] = SU("sinc", "sinc_cpu", (E_(FAM_F2, sinc) E_(FAM_BF, sinc) E_(FAM_C2, sinc)), F3 | C2),
    [TSR_SPECIAL_ERFCX] = SU("special_erfcx", "erfcx_cpu", (E_(FAM_F2, erfcx)), F2),
    [TSR_SPECIAL_NDTRI] = SU("special_ndtri", "ndtri_cpu", (E_(FAM_F2, ndtri)), F2),
    [TSR_SPECIAL_LOG_NDTR] = SU("special_log_ndtr", "log_ndtr_cpu", (E_(FAM_F2, log_ndtr)), F2),
    [TSR_SPECIAL_ENTR] = SU("special_entr", "entr_cpu", (E_(FAM_F2, entr) E_(FAM_BF, entr)), F3),
    [TSR_SPECIAL_TRIGAMMA] = SUN("polygamma", "trigamma", (E_(FAM_F2, trigamma) E_(FAM_BF, trigamma)), F3),
    [TSR_SPECIAL_POLYGAMMA] = SUN("polygamma", "polygamma", (E_(FAM_F2, polygamma) E_(FAM_BF, polygamma)), F3),
    [TSR_SPECIAL_XLOGY] = SB("xlogy", "xlogy_cpu", (E_(FAM_F2, xlogy) E_(FAM_HF, xlogy) E_(FAM_BF, xlogy)), M_FLOAT),
    [TSR_SPECIAL_XLOG1PY] = SB("special_xlog1py", "xlog1py_cpu",
                               (E_(FAM_F2, xlog1py) E_(FAM_HF, xlog1py) E_(FAM_BF, xlog1py)), M_FLOAT),
    [TSR_SPECIAL_ZETA] = SB("special_zeta", "zeta_cpu", (E_(FAM_F2, zeta)), F2),
    [TSR_SPECIAL_IGAMMA] = SOP("igamma", "igamma", "igamma_cpu", 2, (E_(FAM_FLOAT, igamma)), M_FLOAT,
                               TSR_DT_COMMON, TSR_NAMES_BROADCAST),
    [TSR_SPECIAL_IGAMMAC] = SOP("igammac", "igammac", "igammac_cpu", 2, (E_(FAM_FLOAT, igammac)), M_FLOAT,
                                TSR_DT_COMMON, TSR_NAMES_BROADCAST),
    [TSR_SPECIAL_CHEBYSHEV_T] = SPOLY("chebyshev_polynomial_t", cheb_t),
    [TSR_SPECIAL_CHEBYSHEV_U] = SPOLY("chebyshev_polynomial_u", cheb_u),
    [TSR_SPECIAL_CHEBYSHEV_V] = SPOLY("chebyshev_polynomial_v", cheb_v),
    [TSR_SPECIAL_CHEBYSHEV_W] = SPOLY("chebyshev_polynomial_w", cheb_w),
    [TSR_SPECIAL_SHIFTED_CHEBYSHEV_T] = SPOLY("shifted_chebyshev_polynomial_t", scheb_t),
    [TSR_SPECIAL_SHIFTED_CHEBYSHEV_U] = SPOLY("shifted_chebyshev_polynomial_u", scheb_u),
    [TSR_SPECIAL_SHIFTED_CHEBYSHEV_V] = SPOLY("shifted_chebyshev_polynomial_v", scheb_v),
    [TSR_SPECIAL_SHIFTED_CHEBYSHEV_W] = SPOLY("shifted_chebyshev_polynomial_w", scheb_w),
    [TSR_SPECIAL_HERMITE_H] = SPOLY("hermite_polynomial_h", herm_h),
    [TSR_SPECIAL_HERMITE_HE] = SPOLY("hermite_polynomial_he", herm_he),
    [TSR_SPECIAL_LAGUERRE_L] = SPOLY("laguerre_polynomial_l", lag_l),
    [TSR_SPECIAL_LEGENDRE_P] = SPOLY("legendre_polynomial_p", leg_p),
};
_Static_assert(sizeof special_ops / sizeof special_ops[0] >= TSR_SPECIAL_COUNT, "ORDER SPECIAL");
const tsr_op *tsr_special_op_at(int i) { return i >= 0 && i < (int)(sizeof special_ops / sizeof special_ops[0]) ? &special_ops[i] : NULL; }

const tsr_op *tsr_special_desc(tsr_special_op op)
{
    return (unsigned)op < TSR_SPECIAL_COUNT ? &special_ops[op] : NULL;
}

bool tsr_special_is_binary(tsr_special_op op) { return op >= TSR_SPECIAL_XLOGY && op < TSR_SPECIAL_COUNT; }

/* ---------------------------------------------------------------- running */

static tsr_tensor *run_op(const tsr_op *desc, int n, const tsr_operand *ops, tsr_tensor *out, bool inplace,
                          const tsr__kparams *kp)
{
    if (tsr_op_check_inputs(desc, n, ops) < 0) return NULL;
    tsr_dtype dt = tsr_op_compute_dtype(desc, n, ops, NULL);
    tsr_iter_config cfg = {.nin = n, .in_dtype = {dt, dt}, .out_dtype = dt, .check_dtype = dt,
                           .check = tsr_op_out_check(desc), .inplace = inplace, .kname = desc->kname,
                           .kdtype = dt, .dev_kernel = tsr_op_dev_kernel(desc), .aten = desc->aten};
    if (kp) cfg.dev_params.i = kp->i;   /* polygamma's n */
    for (int k = TSR_SPECIAL_CHEBYSHEV_T; k <= TSR_SPECIAL_LEGENDRE_P; k++)   /* the polynomial (kernels.h POLY) */
        if (desc == &special_ops[k]) cfg.dev_params.mode = k - TSR_SPECIAL_CHEBYSHEV_T;
    return tsr_iter_run(&cfg, ops, out, tsr_op_kernel(desc, dt), kp);
}

static tsr_tensor *unary_impl(tsr_special_op op, const tsr_tensor *x, tsr_tensor *out, bool inplace)
{
    if ((unsigned)op >= TSR_SPECIAL_COUNT || tsr_special_is_binary(op)) {
        tsr_error_set(TSR_ERR_VALUE, "unknown unary special op %d", (int)op);
        return NULL;
    }
    tsr_operand a = tsr_operand_tensor(x);
    tsr__kparams kp = {0};
    return run_op(&special_ops[op], 1, &a, out, inplace, &kp);
}

tsr_tensor *tsr_special_unary(tsr_special_op op, const tsr_tensor *x, tsr_tensor *out)
{
    return unary_impl(op, x, out, false);
}

tsr_tensor *tsr_special_unary_(tsr_special_op op, tsr_tensor *x)
{
    return unary_impl(op, x, x, true);
}

static tsr_tensor *binary_impl(tsr_special_op op, const tsr_operand *a, const tsr_operand *b, tsr_tensor *out,
                               bool inplace)
{
    if (!tsr_special_is_binary(op)) {
        tsr_error_set(TSR_ERR_VALUE, "unknown binary special op %d", (int)op);
        return NULL;
    }
    tsr_operand ops[2] = {*a, *b};
    tsr__kparams kp = {0};
    if (!a->t && !b->t) {   /* two numbers: the first wrapped as a zero-dim tensor */
        tsr_tensor *t = tsr_full(0, NULL, a->s, tsr_operand_promo_dtype(a), TSR_CPU);
        if (!t) return NULL;
        ops[0] = tsr_operand_tensor(t);
        tsr_tensor *r = run_op(&special_ops[op], 2, ops, out, inplace, &kp);
        tsr_tensor_release(t);
        return r;
    }
    return run_op(&special_ops[op], 2, ops, out, inplace, &kp);
}

tsr_tensor *tsr_special_binary(tsr_special_op op, const tsr_operand *a, const tsr_operand *b, tsr_tensor *out)
{
    return binary_impl(op, a, b, out, false);
}

tsr_tensor *tsr_special_binary_(tsr_special_op op, tsr_tensor *self, const tsr_operand *b)
{
    tsr_operand a = tsr_operand_tensor(self);
    return binary_impl(op, &a, b, self, true);
}

/* --------------------------------------------------------------- polygamma */

const tsr_op *tsr_polygamma_desc(int64_t n)
{
    if (n == 0) return tsr_unop_desc(TSR_UNOP_DIGAMMA);
    return &special_ops[n == 1 ? TSR_SPECIAL_TRIGAMMA : TSR_SPECIAL_POLYGAMMA];
}

tsr_tensor *tsr_polygamma(int64_t n, const tsr_tensor *x, tsr_tensor *out, bool inplace)
{
    if (n < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "polygamma(n, x) does not support negative n.");
        return NULL;
    }
    if (n == 0) return inplace ? tsr_unary_(TSR_UNOP_DIGAMMA, (tsr_tensor *)x, NULL)
                               : tsr_unary(TSR_UNOP_DIGAMMA, x, out, NULL);
    tsr_operand a = tsr_operand_tensor(x);
    tsr__kparams kp = {.i = n};
    return run_op(tsr_polygamma_desc(n), 1, &a, inplace ? (tsr_tensor *)x : out, inplace, &kp);
}

/* ------------------------------------------------------------------ ndtr */

/* out= of a composite (special_ndtr_out, mvlgamma_out): can_cast check with
 * msg's words, resize (with 1.13's warning when out had elements), copy. */
static tsr_tensor *copy_into_out(tsr_tensor *r, tsr_tensor *out, const char *prefix, tsr_dtype named)
{
    if (!tsr_can_cast(r->dtype, out->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%sresult type %s can't be cast to the desired output type %s", prefix,
                      tsr_dtype_scalar_name(named), tsr_dtype_scalar_name(prefix[0] ? r->dtype : out->dtype));
        goto fail;
    }
    return tsr_out_assign(r, out, false);
fail:
    tsr_tensor_release(r);
    return NULL;
}

tsr_tensor *tsr_special_ndtr(const tsr_tensor *x, tsr_tensor *out)
{
    tsr_operand xo = tsr_operand_tensor(x), k = tsr_operand_scalar(tsr_scalar_float(M_SQRT1_2));
    tsr_operand one = tsr_operand_scalar(tsr_scalar_int(1)), half = tsr_operand_scalar(tsr_scalar_float(0.5));
    tsr_tensor *s = tsr_binary(TSR_BINOP_MUL, &xo, &k, NULL, NULL), *e = NULL, *p = NULL, *r = NULL;
    if (s) e = tsr_unary(TSR_UNOP_ERF, s, NULL, NULL);
    if (e) {
        tsr_operand eo = tsr_operand_tensor(e);
        p = tsr_binary(TSR_BINOP_ADD, &one, &eo, NULL, NULL);
    }
    if (p) {
        tsr_operand po = tsr_operand_tensor(p);
        r = tsr_binary(TSR_BINOP_MUL, &po, &half, NULL, NULL);
    }
    tsr_tensor_release(s);
    tsr_tensor_release(e);
    tsr_tensor_release(p);
    if (!r || !out) return r;
    return copy_into_out(r, out, "", r->dtype);
}

/* ----------------------------------------------------------------- round */

tsr_tensor *tsr_special_round(const tsr_tensor *x, int64_t decimals, tsr_tensor *out)
{
    if (decimals == 0 && tsr_dtype_is_integral(x->dtype, true)) {
        /* round.decimals with decimals == 0 runs round_stub: no integer copy */
        const tsr_op *desc = tsr_unop_desc(TSR_UNOP_ROUND);
        tsr_operand a = tsr_operand_tensor(x);
        if (tsr_op_check_inputs(desc, 1, &a) < 0) return NULL;
        tsr_iter_config cfg = {.nin = 1, .in_dtype = {x->dtype}, .out_dtype = x->dtype, .check_dtype = x->dtype,
                               .check = tsr_op_out_check(desc), .kname = desc->kname, .kdtype = x->dtype};
        return tsr_iter_run(&cfg, &a, out, NULL, NULL);
    }
    tsr_unary_opts o = {.decimals = decimals};
    return tsr_unary(TSR_UNOP_ROUND, x, out, &o);
}

/* --------------------------------------------------------------- mvlgamma */

static double load_d(const char *base, tsr_dtype dt, int64_t k)
{
    switch (dt) {
    case TSR_FLOAT64: return ((const double *)base)[k];
    case TSR_FLOAT32: return ((const float *)base)[k];
    case TSR_BFLOAT16: return tsr_bfloat16_to_float(((const tsr_bfloat16 *)base)[k]);
    default: return tsr_half_to_float(((const tsr_half *)base)[k]);
    }
}

/* sum over the last dimension (size p, contiguous), ordered as 1.13's
 * cascade_sum (cpu/SumKernel.cpp) orders it: row_sum splits a row into 4
 * interleaved partial sums (multi_row_sum: levels of 16 and more), adds the
 * tail to the first and then the other three to it. A row of at least one
 * AVX2 vector (8 floats, 4 doubles) runs that on whole vectors, lane by lane,
 * then adds the scalar tail and the lanes (vectorized_inner_sum). R is the
 * accumulate type: float for float32, float16 and bfloat16. */
#define ROW_SUM_FN(NAME, R)                                                                       \
    static void NAME(const double *v, int64_t stride, int64_t size, int64_t lanes, R *out)         \
    {                                                                                              \
        int64_t size_ilp = size / 4, lg = 0;                                                       \
        while (((int64_t)1 << lg) < size_ilp) lg++;                                                \
        int64_t level_power = lg / 4 > 4 ? lg / 4 : 4, level_step = (int64_t)1 << level_power,     \
                level_mask = level_step - 1;                                                       \
        for (int64_t l = 0; l < lanes; l++) {                                                      \
            R acc[4][4] = {{0}};                                                                   \
            int64_t i = 0;                                                                         \
            while (i + level_step <= size_ilp) {                                                   \
                for (int64_t j = 0; j < level_step; ++j, ++i)                                      \
                    for (int k = 0; k < 4; k++) acc[0][k] += (R)v[(i * 4 + k) * stride + l];       \
                for (int j = 1; j < 4; ++j) {                                                      \
                    for (int k = 0; k < 4; k++) { acc[j][k] += acc[j - 1][k]; acc[j - 1][k] = 0; } \
                    if ((i & (level_mask << (j * level_power))) != 0) break;                       \
                }                                                                                  \
            }                                                                                      \
            for (; i < size_ilp; ++i)                                                              \
                for (int k = 0; k < 4; k++) acc[0][k] += (R)v[(i * 4 + k) * stride + l];           \
            for (int j = 1; j < 4; ++j)                                                            \
                for (int k = 0; k < 4; k++) acc[0][k] += acc[j][k];                                \
            for (int64_t t = size_ilp * 4; t < size; ++t) acc[0][0] += (R)v[t * stride + l];       \
            for (int k = 1; k < 4; k++) acc[0][0] += acc[0][k];                                    \
            out[l] = acc[0][0];                                                                    \
        }                                                                                          \
    }
ROW_SUM_FN(row_sum_f, float)
ROW_SUM_FN(row_sum_d, double)

/* one row of p values (as doubles) summed as the dtype's kernel sums it */
static double sum_row(const double *v, int64_t p, tsr_dtype dt)
{
    bool fl = dt != TSR_FLOAT64;
    int64_t lanes = dt == TSR_FLOAT32 ? 8 : dt == TSR_FLOAT64 ? 4 : 0;
    if (lanes && p >= lanes) {
        int64_t nvec = p / lanes;
        if (fl) {
            float part[8], fin = 0;
            row_sum_f(v, lanes, nvec, lanes, part);
            for (int64_t k = nvec * lanes; k < p; k++) fin += (float)v[k];
            for (int64_t l = 0; l < lanes; l++) fin += part[l];
            return fin;
        }
        double part[8], fin = 0;
        row_sum_d(v, lanes, nvec, lanes, part);
        for (int64_t k = nvec * lanes; k < p; k++) fin += v[k];
        for (int64_t l = 0; l < lanes; l++) fin += part[l];
        return fin;
    }
    if (fl) {
        float r;
        row_sum_f(v, 1, p, 1, &r);
        return r;
    }
    double r;
    row_sum_d(v, 1, p, 1, &r);
    return r;
}

static tsr_tensor *sum_last(const tsr_tensor *g0, int ndim, const int64_t *sizes)
{
    tsr_tensor *g = tsr_contiguous(g0, TSR_MF_CONTIGUOUS), *r = NULL;
    if (!g) return NULL;
    r = tsr_tensor_empty(ndim, sizes, g->dtype, g->device);
    if (!r || tsr_tensor_is_meta(g)) goto done;
    int64_t m = tsr_tensor_numel(r), p = g->sizes[g->ndim - 1];
    int isz = tsr_dtype_itemsize(g->dtype);
    const char *src = tsr_tensor_ptr(g, NULL);
    char *dst = tsr_tensor_ptr(r, NULL);
    double *row = tsr_malloc(sizeof(double) * (size_t)(p ? p : 1));
    if (!row) {
        tsr_tensor_release(r);
        r = NULL;
        goto done;
    }
    for (int64_t i = 0; i < m; i++) {
        for (int64_t k = 0; k < p; k++) row[k] = load_d(src + (i * p + k) * isz, g->dtype, 0);
        unsigned char buf[16];
        tsr_scalar_store(g->dtype, buf, tsr_scalar_float(sum_row(row, p, g->dtype)));
        memcpy(dst + i * isz, buf, (size_t)isz);
    }
    free(row);
done:
    tsr_tensor_release(g);
    return r;
}

tsr_tensor *tsr_mvlgamma(const tsr_tensor *x, int64_t p, tsr_tensor *out, bool inplace)
{
    if (x->dtype == TSR_BOOL) {
        tsr_error_set(TSR_ERR_RUNTIME, "The input tensor may not be a boolean tensor.");
        return NULL;
    }
    if (p < 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "p has to be greater than or equal to 1");
        return NULL;
    }
    tsr_dtype dt = x->dtype;
    if (!inplace && tsr_dtype_is_integral(dt, true)) dt = tsr_default_dtype();
    tsr_tensor *args = tsr_arange(tsr_scalar_float(-(double)p * 0.5 + 0.5), tsr_scalar_float(0.5),
                                  tsr_scalar_float(0.5), dt, x->device);
    tsr_tensor *xu = NULL, *a = NULL, *s = NULL, *r = NULL;
    if (!args) return NULL;
    xu = tsr_view_unsqueeze(x, -1);
    if (xu) {
        tsr_operand ao = tsr_operand_tensor(args), xo = tsr_operand_tensor(xu);
        a = tsr_binary(TSR_BINOP_ADD, &ao, &xo, NULL, NULL);
    }
    if (a) {
        tsr_tensor *l = tsr_unary_(TSR_UNOP_LGAMMA, a, NULL);
        if (l) {
            tsr_tensor_release(l);
            s = sum_last(a, x->ndim, x->sizes);
        }
    }
    if (s) {
        tsr_operand c = tsr_operand_scalar(tsr_scalar_float((double)(p * (p - 1)) * log(M_PI) * 0.25));
        r = tsr_binary_(TSR_BINOP_ADD, s, &c, NULL);
    }
    tsr_tensor_release(args);
    tsr_tensor_release(xu);
    tsr_tensor_release(a);
    tsr_tensor_release(s);
    if (!r) return NULL;
    if (inplace) {
        int rc = tsr_copy_((tsr_tensor *)x, r);
        tsr_tensor_release(r);
        return rc < 0 ? NULL : tsr_tensor_retain((tsr_tensor *)x);
    }
    if (!out) return r;
    /* mvlgamma_out words it with self's dtype and the computed one */
    return copy_into_out(r, out, "mvlgamma: ", x->dtype);
}
