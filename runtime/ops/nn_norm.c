/* runtime/ops/nn_norm.c — the normalization layers as 1.13's CPU kernels
 * compute them. layer_norm: LayerNormKernelImplInternal over rows of N,
 * mean and variance from utils::RowwiseMoments (Welford over Vectorized
 * lanes in chunks of 16, cascaded, then the lanes and the scalar tail
 * merged), y = (x * rstd + (-rstd * mean)) * gamma + beta. Probed against
 * 1.13's AVX2 build: the moments are computed without fused multiply-adds,
 * the output's two multiply-adds are fused (fma). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn_conv.h"
#include "copy.h"
#include "../error.h"
#include "../internal.h"
#include "../view.h"

#define KCHUNK 16

/* c10::utils::CeilLog2 */
static int64_t ceil_log2(int64_t x)
{
    if (x <= 2) return 1;
    int64_t r = 0;
    for (uint64_t v = (uint64_t)(x - 1); v; v >>= 1) r++;
    return r;
}

/* RowwiseMomentsImpl<T> with lanes L (Vectorized<T>::size() on AVX2):
 * mean and biased variance of x[0 .. n). */
#define MOMENTS(NAME, T, L)                                                                                      \
    static void NAME(const T *x, int64_t N, T *mean, T *var)                                           \
    {                                                                                                          \
        const int64_t n = N / (L), m = (n + KCHUNK - 1) / KCHUNK, depth = ceil_log2(m);                        \
        int64_t m0s[64] = {0};                                                                                 \
        T m1s[64][L], m2s[64][L];                                                                              \
        memset(m1s, 0, sizeof m1s);                                                                            \
        memset(m2s, 0, sizeof m2s);                                                                            \
        for (int64_t i = 0; i < m; i++) {                                                                      \
            const T *xp = x + i * KCHUNK * (L);                                                                \
            const int64_t c0 = KCHUNK < n - i * KCHUNK ? KCHUNK : n - i * KCHUNK;                              \
            T m1v[L], m2v[L];                                                                                  \
            for (int l = 0; l < (L); l++) m1v[l] = 0, m2v[l] = 0;                                              \
            for (int64_t j = 0; j < c0; j++) {                                                                 \
                const T cj = (T)1 / (T)(j + 1);                                                                \
                for (int l = 0; l < (L); l++) {                                                                \
                    const T xv = xp[j * (L) + l];                                                              \
                    const T delta = xv - m1v[l];                                                               \
                    m1v[l] += delta * cj;                                                                      \
                    m2v[l] += delta * (xv - m1v[l]);                                                           \
                }                                                                                              \
            }                                                                                                  \
            ADD_VEC(T, L, c0, m1v, m2v, m0s[0], m1s[0], m2s[0]);                                               \
            int64_t mask = i + 1;                                                                              \
            for (int64_t j = 1; j < depth && (mask & 1) == 0; ++j) {                                           \
                ADD_VEC(T, L, m0s[j - 1], m1s[j - 1], m2s[j - 1], m0s[j], m1s[j], m2s[j]);                     \
                m0s[j - 1] = 0;                                                                                \
                for (int l = 0; l < (L); l++) m1s[j - 1][l] = 0, m2s[j - 1][l] = 0;                            \
                mask >>= 1;                                                                                    \
            }                                                                                                  \
        }                                                                                                      \
        for (int64_t i = 1; i < depth; i++) ADD_VEC(T, L, m0s[i], m1s[i], m2s[i], m0s[0], m1s[0], m2s[0]);     \
        int64_t c = 0;                                                                                         \
        T m1 = 0, m2 = 0;                                                                                      \
        for (int64_t i = n * (L); i < N; ++i) {                                                                \
            const T xv = x[i];                                                                                 \
            const T delta = xv - m1;                                                                           \
            ++c;                                                                                               \
            m1 += delta / (T)c;                                                                                \
            m2 += delta * (xv - m1);                                                                           \
        }                                                                                                      \
        for (int l = 0; l < (L); l++) {                                                                        \
            const int64_t nn = c + n;                                                                          \
            const T cc = nn == 0 ? 0 : (T)n / (T)nn;                                                           \
            const T delta = m1s[0][l] - m1;                                                                    \
            m1 += delta * cc;                                                                                  \
            m2 += m2s[0][l] + delta * delta * cc * (T)c;                                                       \
            c = nn;                                                                                            \
        }                                                                                                      \
        *mean = m1;                                                                                            \
        *var = m2 / (T)N;                                                                                      \
    }

/* AddMomentsVec: merges (m0a, m1a, m2a) into (m0, m1, m2) lane by lane. */
#define ADD_VEC(T, L, m0a, m1a, m2a, m0, m1, m2)                                                                \
    do {                                                                                                       \
        const int64_t nn_ = (m0) + (m0a);                                                                      \
        const T c_ = nn_ == 0 ? 0 : (T)(m0a) / (T)nn_;                                                         \
        for (int l_ = 0; l_ < (L); l_++) {                                                                     \
            const T d_ = (m1a)[l_] - (m1)[l_];                                                                 \
            (m1)[l_] += d_ * c_;                                                                               \
            (m2)[l_] += (m2a)[l_] + d_ * d_ * c_ * (T)(m0);                                                    \
        }                                                                                                      \
        (m0) = nn_;                                                                                            \
    } while (0)

MOMENTS(moments_f32, float, 8)
MOMENTS(moments_f64, double, 4)

/* LayerNormKernelImplInternal for one dtype over M rows of N. */
#define LAYER_NORM(NAME, T, MOM, FMA)                                                                                 \
    static void NAME(const T *x, const T *g, const T *b, int64_t M, int64_t N, T eps, T *y)              \
    {                                                                                                          \
        for (int64_t i = 0; i < M; i++) {                                                                      \
            const T *xp = x + i * N;                                                                           \
            T *yp = y + i * N;                                                                                 \
            T mean, rstd;                                                                                      \
            MOM(xp, N, &mean, &rstd);                                                                          \
            rstd = (T)1 / (T)sqrt((double)(rstd + eps));                                                                    \
            const T scale = rstd, bias = -rstd * mean;                                                         \
            if (!g || !b) {                                                                                    \
                for (int64_t j = 0; j < N; j++) {                                                              \
                    const T gv = g ? g[j] : (T)1, bv = b ? b[j] : (T)0;                                        \
                    yp[j] = FMA(FMA(xp[j], scale, bias), gv, bv);                                              \
                }                                                                                              \
            } else {                                                                                           \
                for (int64_t j = 0; j < N; j++) yp[j] = FMA(FMA(xp[j], scale, bias), g[j], b[j]);               \
            }                                                                                                  \
        }                                                                                                      \
    }

LAYER_NORM(layer_norm_f32, float, moments_f32, fmaf)
LAYER_NORM(layer_norm_f64, double, moments_f64, fma)

tsr_tensor *tsr_nn_layer_norm(const tsr_tensor *x, int nshape, const int64_t *shape, const tsr_tensor *w,
                              const tsr_tensor *b, double eps)
{
    char b1[256], b2[256];
    if (nshape < 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
                      "least one element, but got normalized_shape = []");
        return NULL;
    }
    if (w && (w->ndim != nshape || memcmp(w->sizes, shape, sizeof(int64_t) * (size_t)nshape))) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected weight to be of same shape as normalized_shape, but got weight of shape "
                      "%s and normalized_shape = %s", tsr__fmt_list(b1, sizeof b1, w->ndim, w->sizes),
                      tsr__fmt_list(b2, sizeof b2, nshape, shape));
        return NULL;
    }
    if (b && (b->ndim != nshape || memcmp(b->sizes, shape, sizeof(int64_t) * (size_t)nshape))) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected bias to be of same shape as normalized_shape, but got bias of shape "
                      "%s and normalized_shape = %s", tsr__fmt_list(b1, sizeof b1, b->ndim, b->sizes),
                      tsr__fmt_list(b2, sizeof b2, nshape, shape));
        return NULL;
    }
    if (x->ndim < nshape || memcmp(x->sizes + x->ndim - nshape, shape, sizeof(int64_t) * (size_t)nshape)) {
        size_t k = 0;
        for (int i = 0; i < nshape; i++) k += (size_t)snprintf(b2 + k, sizeof b2 - k, ", %lld", (long long)shape[i]);
        tsr_error_set(TSR_ERR_RUNTIME, "Given normalized_shape=%s, expected input with shape [*%s], but got input of "
                      "size%s", tsr__fmt_list(b1, sizeof b1, nshape, shape), b2,
                      tsr__fmt_list(b2 + 128, 128, x->ndim, x->sizes));
        return NULL;
    }
    tsr_dtype d = x->dtype;
    if (d != TSR_FLOAT32 && d != TSR_FLOAT64) {
        if (d == TSR_BFLOAT16) {
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "layer_norm of bfloat16 is not supported by tsr yet");
            return NULL;
        }
        tsr__not_implemented("LayerNormKernelImpl", d);
        return NULL;
    }
    for (int i = 0; i < 2; i++) {
        const tsr_tensor *p = i ? b : w;
        if (p && p->dtype != d) {
            tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(d),
                          tsr_dtype_scalar_name(p->dtype));
            return NULL;
        }
    }
    int64_t N = 1, numel = tsr_tensor_numel(x);
    for (int i = 0; i < nshape; i++) N *= shape[i];
    int64_t M = N ? numel / N : 0;
    tsr_tensor *xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS), *wc = NULL, *bc = NULL, *y = NULL;
    if (!xc || (w && !(wc = tsr_contiguous(w, TSR_MF_CONTIGUOUS))) || (b && !(bc = tsr_contiguous(b, TSR_MF_CONTIGUOUS))))
        goto done;
    if (!(y = tsr_tensor_empty(x->ndim, x->sizes, d, x->device))) goto done;
    if (tsr_tensor_is_meta(y) || M == 0 || N == 0) goto done;
    if (tsr_check_interrupt() < 0) {
        tsr_tensor_release(y);
        y = NULL;
        goto done;
    }
    if (d == TSR_FLOAT32)
        layer_norm_f32(tsr_tensor_ptr(xc, NULL), wc ? tsr_tensor_ptr(wc, NULL) : NULL, bc ? tsr_tensor_ptr(bc, NULL) : NULL,
                       M, N, (float)eps, tsr_tensor_ptr(y, NULL));
    else
        layer_norm_f64(tsr_tensor_ptr(xc, NULL), wc ? tsr_tensor_ptr(wc, NULL) : NULL, bc ? tsr_tensor_ptr(bc, NULL) : NULL,
                       M, N, eps, tsr_tensor_ptr(y, NULL));
done:
    tsr_tensor_release(xc);
    tsr_tensor_release(wc);
    tsr_tensor_release(bc);
    return y;
}
