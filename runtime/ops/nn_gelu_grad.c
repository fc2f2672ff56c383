/* runtime/ops/nn_gelu_grad.c — gelu(approximate='tanh')'s backward as 1.13's
 * GeluBackwardKernelImpl (cpu/Activation.cpp) computes it: cpu_kernel_vec,
 * so whole 2 * Vectorized<T>::size() chunks of contiguous rows take the
 * vector body (Sleef's tanh), the rest of the row and strided rows the
 * scalar one (libm's tanh). Both bodies are contracted alike in 1.13's AVX2
 * build (probed): x + kKappa * x^3, 1 - tanh^2 and 1 + 3 * kKappa * x^2
 * are fused multiply-adds, all in T. */
#include <math.h>

#include "nn.h"
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
