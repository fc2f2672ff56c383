/* runtime/ops/nn_gelu_grad.c — gelu(approximate='tanh')'s backward as 1.13's
 * GeluBackwardKernelImpl (cpu/Activation.cpp) computes it: cpu_kernel_vec,
 * so whole 2 * Vectorized<T>::size() chunks of contiguous rows take the
 * vector body (Sleef's tanh), the rest of the row and strided rows the
 * scalar one (libm's tanh). Both bodies are contracted alike in 1.13's AVX2
 * build (probed): x + kKappa * x^3, 1 - tanh^2 and 1 + 3 * kKappa * x^2
 * are fused multiply-adds, all in T. */
#include <math.h>

#include "nn.h"
#include "nn_conv.h"
#include "nn_dnnl.h"
#include "sleef.h"
#include "../error.h"
#include "../iter.h"

#define FMA(a, b, c) _Generic((a) + (b) + (c), float: fmaf, default: fma)((a), (b), (c))

/* inner = kBeta * (x + kKappa * x^3) */
#define GELU_INNER(T, x) ((T)(M_SQRT2 * M_2_SQRTPI * 0.5) * FMA((T)0.044715, (x) * ((x) * (x)), (x)))

/* dy * (0.5 * (1 + th) + 0.5 * x * (1 - th^2) * kBeta * (1 + 3 * kKappa * x^2)) */
#define GELU_REST(T, dy, x, th)                                                                          \
    ((dy) * ((T)0.5 * ((T)1 + (th)) +                                                                    \
             (T)0.5 * (x) * FMA(-(th), (th), (T)1) *                                                     \
                 ((T)(M_SQRT2 * M_2_SQRTPI * 0.5) * FMA((T)3 * (T)0.044715, (x) * (x), (T)1))))

#define GELU_LOOP(NAME, T, TANH, SLEEF)                                                                  \
    static int NAME(char **d, const int64_t *s, int64_t n, const void *ctx)                              \
    {                                                                                                    \
        (void)ctx;                                                                                       \
        const int64_t sz = (int64_t)sizeof(T), step = 2 * (32 / sz);                                    \
        int64_t m = 0;                                                                                   \
        bool vec = s[0] == sz && ((s[1] == sz && s[2] == sz) || (s[1] == 0 && s[2] == sz) ||              \
                                  (s[1] == sz && s[2] == 0));                                            \
        if (vec && tsr__sleef_usable()) {                                                                \
            m = n - n % step;                                                                            \
            T in[2 * (32 / sizeof(T))];                                                                  \
            for (int64_t i = 0; i < m; i += step) {                                                      \
                for (int64_t k = 0; k < step; k++) {                                                     \
                    const T x = *(const T *)(d[2] + (i + k) * s[2]);                                     \
                    in[k] = GELU_INNER(T, x);                                                            \
                }                                                                                        \
                SLEEF(TSR_SLEEF_TANH, in, in, step);                                                     \
                for (int64_t k = 0; k < step; k++) {                                                     \
                    const T dy = *(const T *)(d[1] + (i + k) * s[1]), x = *(const T *)(d[2] + (i + k) * s[2]); \
                    *(T *)(d[0] + (i + k) * s[0]) = GELU_REST(T, dy, x, in[k]);                         \
                }                                                                                        \
            }                                                                                            \
        }                                                                                                \
        for (int64_t i = m; i < n; i++) {                                                                \
            const T dy = *(const T *)(d[1] + i * s[1]), x = *(const T *)(d[2] + i * s[2]);               \
            const T th = TANH(GELU_INNER(T, x));                                                         \
            *(T *)(d[0] + i * s[0]) = GELU_REST(T, dy, x, th);                                           \
        }                                                                                                \
        return 0;                                                                                        \
    }

GELU_LOOP(gelu_tanh_bw_f32, float, tanhf, tsr__sleef_f32)
GELU_LOOP(gelu_tanh_bw_f64, double, tanh, tsr__sleef_f64)

tsr_tensor *tsr_nn_gelu_tanh_backward(const tsr_tensor *g, const tsr_tensor *x)
{
    tsr_dtype d = x->dtype;
    if ((d != TSR_FLOAT32 && d != TSR_FLOAT64) || g->dtype != d) {
        tsr_error_set(TSR_ERR_RUNTIME, "gelu's backward: expected float or double gradient and input of one dtype");
        return NULL;
    }
    tsr_iter_config cfg = {.nin = 2, .in_dtype = {d, d}, .out_dtype = d, .check = TSR_CHECK_SAME_DTYPE};
    tsr_operand in[2] = {tsr_operand_tensor(g), tsr_operand_tensor(x)};
    return tsr_iter_run(&cfg, in, NULL, d == TSR_FLOAT32 ? gelu_tanh_bw_f32 : gelu_tanh_bw_f64, NULL);
}

/* ---------------------------------------------------- tanh, silu, mish */
/* tanh_backward, silu_backward and mish_backward (float32, float64) as
 * 1.13's cpu_kernel_vec bodies compute them, contracted as its AVX2 build
 * contracts them: tanh: dy * (1 - y * y) with the parenthesis one fma;
 * silu: s = 1 / (1 + exp(-x)), dy * s * fma(x, 1 - s, 1); mish: ts =
 * tanh(log1p(exp(x))), dy * fma(x * s, fma(-ts, ts, 1), ts). Whole
 * 2 * Vectorized<T>::size() chunks of contiguous rows take Sleef's exp,
 * log1p and tanh, the rest libm's. Without AVX2 (tsr's libm path) nothing
 * is fused. */
enum { ACT_TANH, ACT_SILU, ACT_MISH };

#define ACT_BODY(T, kind, dy, x, e, l, t, fm)                                                          \
    ((kind) == ACT_TANH ? (dy) * ((fm) ? FMA(-(x), (x), (T)1) : (T)1 - (x) * (x))                        \
     : (kind) == ACT_SILU ? (dy) * ((T)1 / ((T)1 + (e))) *                                              \
                                ((fm) ? FMA((x), (T)1 - (T)1 / ((T)1 + (e)), (T)1)                       \
                                      : (T)1 + (x) * ((T)1 - (T)1 / ((T)1 + (e))))                       \
     : (dy) * ((fm) ? FMA((x) * ((T)1 / ((T)1 + (e))), FMA(-(t), (t), (T)1), (t))                       \
                    : (t) + (x) * ((T)1 / ((T)1 + (e))) * ((T)1 - (t) * (t))))

#define ACT_LOOP(NAME, T, EXPF, LOG1PF, TANHF, SLEEF)                                                     \
    static int NAME(char **d, const int64_t *s, int64_t n, const void *ctx)                              \
    {                                                                                                    \
        const int kind = *(const int *)ctx;                                                              \
        const bool fm = tsr__sleef_usable();                                                             \
        const int64_t sz = (int64_t)sizeof(T), step = 2 * (32 / sz);                                    \
        int64_t m = 0;                                                                                   \
        bool vec = s[0] == sz && ((s[1] == sz && s[2] == sz) || (s[1] == 0 && s[2] == sz) ||              \
                                  (s[1] == sz && s[2] == 0));                                            \
        if (vec && fm && kind != ACT_TANH) {                                                             \
            m = n - n % step;                                                                            \
            T e[2 * (32 / sizeof(T))], t[2 * (32 / sizeof(T))];                                          \
            for (int64_t i = 0; i < m; i += step) {                                                      \
                for (int64_t k = 0; k < step; k++) e[k] = -*(const T *)(d[2] + (i + k) * s[2]);          \
                SLEEF(TSR_SLEEF_EXP, e, e, step);                                                        \
                if (kind == ACT_MISH) {                                                                  \
                    for (int64_t k = 0; k < step; k++) t[k] = *(const T *)(d[2] + (i + k) * s[2]);       \
                    SLEEF(TSR_SLEEF_EXP, t, t, step);                                                    \
                    SLEEF(TSR_SLEEF_LOG1P, t, t, step);                                                  \
                    SLEEF(TSR_SLEEF_TANH, t, t, step);                                                   \
                }                                                                                        \
                for (int64_t k = 0; k < step; k++) {                                                     \
                    const T dy = *(const T *)(d[1] + (i + k) * s[1]), x = *(const T *)(d[2] + (i + k) * s[2]); \
                    *(T *)(d[0] + (i + k) * s[0]) = ACT_BODY(T, kind, dy, x, e[k], 0, t[k], fm);        \
                }                                                                                        \
            }                                                                                            \
        }                                                                                                \
        for (int64_t i = m; i < n; i++) {                                                                \
            const T dy = *(const T *)(d[1] + i * s[1]), x = *(const T *)(d[2] + i * s[2]);               \
            const T e = kind == ACT_TANH ? 0 : EXPF(-x);                                                 \
            const T t = kind == ACT_MISH ? TANHF(LOG1PF(EXPF(x))) : 0;                                    \
            *(T *)(d[0] + i * s[0]) = ACT_BODY(T, kind, dy, x, e, 0, t, fm);                             \
        }                                                                                                \
        return 0;                                                                                        \
    }

ACT_LOOP(act_bw_f32, float, expf, log1pf, tanhf, tsr__sleef_f32)
ACT_LOOP(act_bw_f64, double, exp, log1p, tanh, tsr__sleef_f64)

/* dy and x (y for tanh: its output) of one float dtype; NULL for others */
static tsr_tensor *act_backward(const tsr_tensor *g, const tsr_tensor *x, int kind)
{
    tsr_dtype d = x->dtype;
    tsr_iter_config cfg = {.nin = 2, .in_dtype = {d, d}, .out_dtype = d, .check = TSR_CHECK_SAME_DTYPE};
    tsr_operand in[2] = {tsr_operand_tensor(g), tsr_operand_tensor(x)};
    return tsr_iter_run(&cfg, in, NULL, d == TSR_FLOAT32 ? act_bw_f32 : act_bw_f64, &kind);
}

tsr_tensor *tsr_nn_tanh_backward(const tsr_tensor *g, const tsr_tensor *y) { return act_backward(g, y, ACT_TANH); }
tsr_tensor *tsr_nn_silu_backward(const tsr_tensor *g, const tsr_tensor *x) { return act_backward(g, x, ACT_SILU); }
tsr_tensor *tsr_nn_mish_backward(const tsr_tensor *g, const tsr_tensor *x) { return act_backward(g, x, ACT_MISH); }

/* ---------------------------------------------- unary forward kernels */
/* One cpu_kernel_vec body of 1.13 over one float input: on whole
 * 2 * Vectorized<T>::size() chunks of a contiguous row PRE(x) is computed,
 * Sleef's SOP applied to it and POST(x, v) stored; the rest of the row and
 * strided rows store SCALAR(x) (libm). K_ holds the kernel's context. */
#define UNARY_VEC_LOOP(NAME, CTX, T, PRE, SOP, SLEEF, POST, SCALAR)                                     \
    static int NAME(char **d, const int64_t *s, int64_t n, const void *ctx)                              \
    {                                                                                                    \
        const CTX *K_ = ctx;                                                                             \
        (void)K_;                                                                                        \
        const int64_t sz = (int64_t)sizeof(T), step = 2 * (32 / sz);                                    \
        int64_t m = 0;                                                                                   \
        if (s[0] == sz && s[1] == sz && tsr__sleef_usable()) {                                           \
            m = n - n % step;                                                                            \
            T v[2 * (32 / sizeof(T))];                                                                   \
            for (int64_t i = 0; i < m; i += step) {                                                      \
                for (int64_t k = 0; k < step; k++) {                                                     \
                    const T x = *(const T *)(d[1] + (i + k) * s[1]);                                     \
                    v[k] = PRE;                                                                          \
                }                                                                                        \
                SLEEF(SOP, v, v, step);                                                                  \
                for (int64_t k = 0; k < step; k++) {                                                     \
                    const T x = *(const T *)(d[1] + (i + k) * s[1]), e = v[k];                           \
                    *(T *)(d[0] + (i + k) * s[0]) = POST;                                                \
                }                                                                                        \
            }                                                                                            \
        }                                                                                                \
        for (int64_t i = m; i < n; i++) {                                                                \
            const T x = *(const T *)(d[1] + i * s[1]);                                                   \
            *(T *)(d[0] + i * s[0]) = SCALAR;                                                            \
        }                                                                                                \
        return 0;                                                                                        \
    }

static tsr_tensor *unary_run(const tsr_tensor *x, tsr_tensor *out, tsr_loop_fn f32, tsr_loop_fn f64, const void *ctx)
{
    tsr_dtype d = x->dtype;
    tsr_iter_config cfg = {.nin = 1, .in_dtype = {d}, .out_dtype = d, .check = TSR_CHECK_SAME_DTYPE};
    tsr_operand in[1] = {tsr_operand_tensor(x)};
    return tsr_iter_run(&cfg, in, out, d == TSR_FLOAT32 ? f32 : f64, ctx);
}

/* gelu(approximate='tanh') forward as 1.13's GeluKernelImpl: 0.5 * x *
 * (1 + tanh(kBeta * (x + kKappa * x^3))), the inner sum one fma as its AVX2
 * build contracts it; Sleef's tanh on vector chunks, libm's on the rest. */
#define GELU_FWD(NAME, T, TANH, SLEEF)                                                                   \
    UNARY_VEC_LOOP(NAME, char, T, GELU_INNER(T, x), TSR_SLEEF_TANH, SLEEF, (T)0.5 * x * ((T)1 + e),      \
                   (T)0.5 * x * ((T)1 + TANH(GELU_INNER(T, x))))
GELU_FWD(gelu_tanh_f32, float, tanhf, tsr__sleef_f32)
GELU_FWD(gelu_tanh_f64, double, tanh, tsr__sleef_f64)

tsr_tensor *tsr_nn_gelu_tanh_forward(const tsr_tensor *x, tsr_tensor *out)
{
    return unary_run(x, out, gelu_tanh_f32, gelu_tanh_f64, NULL);
}

/* elu / selu / celu forward (float32, float64) as 1.13's elu_kernel:
 * x > 0 ? x * poscoef : (exp(x * negiptcoef) - 1) * negcoef, Sleef's exp on
 * vector chunks, libm's on the rest (which tests x <= 0). Coefficients are
 * already in the dtype's precision. */
typedef struct {
    double neg, pos, ipt;
} elu_coefs;

#define ELU_FWD(NAME, T, EXPF, SLEEF)                                                                    \
    UNARY_VEC_LOOP(NAME, elu_coefs, T, x * (T)K_->ipt, TSR_SLEEF_EXP, SLEEF,                             \
                   x > 0 ? x * (T)K_->pos : (e - (T)1) * (T)K_->neg,                                    \
                   x <= 0 ? (EXPF(x * (T)K_->ipt) - (T)1) * (T)K_->neg : x * (T)K_->pos)
ELU_FWD(elu_f32, float, expf, tsr__sleef_f32)
ELU_FWD(elu_f64, double, exp, tsr__sleef_f64)

tsr_tensor *tsr_nn_elu_forward(const tsr_tensor *x, double negcoef, double poscoef, double input_scale)
{
    elu_coefs k = {negcoef, poscoef, input_scale};
    return unary_run(x, NULL, elu_f32, elu_f64, &k);
}

#define MISH_FWD(NAME, T, EXPF, LOG1PF, TANHF, SLEEF)                                                    \
    static int NAME(char **d, const int64_t *s, int64_t n, const void *ctx)                              \
    {                                                                                                    \
        (void)ctx;                                                                                       \
        const int64_t sz = (int64_t)sizeof(T), step = 2 * (32 / sz);                                    \
        int64_t m = 0;                                                                                   \
        if (s[0] == sz && s[1] == sz && tsr__sleef_usable()) {                                           \
            m = n - n % step;                                                                            \
            T v[2 * (32 / sizeof(T))];                                                                   \
            for (int64_t i = 0; i < m; i += step) {                                                      \
                for (int64_t k = 0; k < step; k++) v[k] = *(const T *)(d[1] + (i + k) * s[1]);          \
                SLEEF(TSR_SLEEF_EXP, v, v, step);                                                        \
                SLEEF(TSR_SLEEF_LOG1P, v, v, step);                                                      \
                SLEEF(TSR_SLEEF_TANH, v, v, step);                                                       \
                for (int64_t k = 0; k < step; k++)                                                       \
                    *(T *)(d[0] + (i + k) * s[0]) = *(const T *)(d[1] + (i + k) * s[1]) * v[k];          \
            }                                                                                            \
        }                                                                                                \
        for (int64_t i = m; i < n; i++) {                                                                \
            const T x = *(const T *)(d[1] + i * s[1]);                                                   \
            *(T *)(d[0] + i * s[0]) = x * TANHF(LOG1PF(EXPF(x)));                                        \
        }                                                                                                \
        return 0;                                                                                        \
    }
MISH_FWD(mish_f32, float, expf, log1pf, tanhf, tsr__sleef_f32)
MISH_FWD(mish_f64, double, exp, log1p, tanh, tsr__sleef_f64)

tsr_tensor *tsr_nn_mish_forward(const tsr_tensor *x) { return unary_run(x, NULL, mish_f32, mish_f64, NULL); }

tsr_tensor *tsr_nn_gelu_erf_dnnl(const tsr_tensor *x, const tsr_tensor *g) { return tsr__gelu_dnnl(x, g); }
