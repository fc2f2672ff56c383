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
#include "nn_norm_grad.h"
#include "binary.h"
#include "copy.h"
#include "factory.h"
#include "nn.h"
#include "random.h"
#include "blas.h"
#include "shape.h"
#include "rearrange.h"
#include "reduce.h"
#include "../error.h"
#include "../internal.h"
#include "../iter.h"
#include "../view.h"

#define KCHUNK 16

static tsr_tensor *take(tsr_tensor **t, tsr_tensor *r)
{
    tsr_tensor_release(*t);
    *t = r;
    return r;
}

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

/* bfloat16: 1.13 runs the same templates with T = BFloat16, so the moments
 * are Vectorized<BFloat16> arithmetic (16 lanes, every operation computed
 * in float and rounded to bfloat16) and the scalar steps BFloat16's
 * operators (each rounded too); only the output's map3 computes in float. */
static inline float rbf(float v) { return tsr_bfloat16_to_float(tsr_float_to_bfloat16(v)); }

#define BL 16
static void moments_bf16(const tsr_bfloat16 *x, int64_t N, float *mean, float *var)
{
    const int64_t n = N / BL, m = (n + KCHUNK - 1) / KCHUNK, depth = ceil_log2(m);
    int64_t m0s[64] = {0};
    float m1s[64][BL], m2s[64][BL];
    memset(m1s, 0, sizeof m1s);
    memset(m2s, 0, sizeof m2s);
    for (int64_t i = 0; i < m; i++) {
        const tsr_bfloat16 *xp = x + i * KCHUNK * BL;
        const int64_t c0 = KCHUNK < n - i * KCHUNK ? KCHUNK : n - i * KCHUNK;
        float m1v[BL] = {0}, m2v[BL] = {0};
        for (int64_t j = 0; j < c0; j++) {
            const float cj = rbf(1.0f / rbf((float)(j + 1)));
            for (int l = 0; l < BL; l++) {
                const float xv = tsr_bfloat16_to_float(xp[j * BL + l]);
                const float delta = rbf(xv - m1v[l]);
                m1v[l] = rbf(m1v[l] + rbf(delta * cj));
                m2v[l] = rbf(m2v[l] + rbf(delta * rbf(xv - m1v[l])));
            }
        }
#define ADD_BF(m0a, m1a, m2a, m0, m1, m2)                                                                      \
        do {                                                                                                   \
            const int64_t nn_ = (m0) + (m0a);                                                                  \
            const float c_ = nn_ == 0 ? 0 : rbf(rbf((float)(m0a)) / rbf((float)nn_)), f0_ = rbf((float)(m0));  \
            for (int l_ = 0; l_ < BL; l_++) {                                                                  \
                const float d_ = rbf((m1a)[l_] - (m1)[l_]);                                                    \
                (m1)[l_] = rbf((m1)[l_] + rbf(c_ * d_));                                                       \
                (m2)[l_] = rbf((m2)[l_] + rbf((m2a)[l_] + rbf(rbf(rbf(d_ * d_) * c_) * f0_)));                 \
            }                                                                                                  \
            (m0) = nn_;                                                                                        \
        } while (0)
        ADD_BF(c0, m1v, m2v, m0s[0], m1s[0], m2s[0]);
        int64_t mask = i + 1;
        for (int64_t j = 1; j < depth && (mask & 1) == 0; ++j) {
            ADD_BF(m0s[j - 1], m1s[j - 1], m2s[j - 1], m0s[j], m1s[j], m2s[j]);
            m0s[j - 1] = 0;
            for (int l = 0; l < BL; l++) m1s[j - 1][l] = 0, m2s[j - 1][l] = 0;
            mask >>= 1;
        }
    }
    for (int64_t i = 1; i < depth; i++) ADD_BF(m0s[i], m1s[i], m2s[i], m0s[0], m1s[0], m2s[0]);
#undef ADD_BF
    int64_t c = 0;
    float m1 = 0, m2 = 0;
    for (int64_t i = n * BL; i < N; ++i) {
        const float xv = tsr_bfloat16_to_float(x[i]);
        const float delta = rbf(xv - m1);
        ++c;
        m1 = rbf(m1 + rbf(delta / rbf((float)c)));
        m2 = rbf(m2 + rbf(delta * rbf(xv - m1)));
    }
    for (int l = 0; l < BL; l++) {   /* AddMoments<BFloat16> */
        const int64_t nn = c + n;
        const float cc = nn == 0 ? 0 : rbf(rbf((float)n) / rbf((float)nn));
        const float delta = rbf(m1s[0][l] - m1);
        m1 = rbf(m1 + rbf(cc * delta));
        m2 = rbf(m2 + rbf(m2s[0][l] + rbf(rbf(rbf(delta * delta) * cc) * rbf((float)c))));
        c = nn;
    }
    *mean = m1;
    *var = rbf(m2 / rbf((float)N));
}
#undef BL

static void layer_norm_bf16(const tsr_bfloat16 *x, const tsr_bfloat16 *g, const tsr_bfloat16 *b, int64_t M,
                            int64_t N, double eps, tsr_bfloat16 *y)
{
    const float epsb = rbf((float)eps);
    for (int64_t i = 0; i < M; i++) {
        const tsr_bfloat16 *xp = x + i * N;
        tsr_bfloat16 *yp = y + i * N;
        float mean, var;
        moments_bf16(xp, N, &mean, &var);
        const float rstd = rbf(1.0f / rbf(sqrtf(rbf(var + epsb))));
        const float scale = rstd, bias = rbf(-rstd * mean);
        for (int64_t j = 0; j < N; j++) {
            const float gv = g ? tsr_bfloat16_to_float(g[j]) : 1.0f, bv = b ? tsr_bfloat16_to_float(b[j]) : 0.0f;
            const float v = fmaf(fmaf(tsr_bfloat16_to_float(xp[j]), scale, bias), gv, bv);
            /* map3's vector store writes NaN as 0xffff, the scalar loop's BFloat16 as 0x7fc0 */
            yp[j] = g && b && isnan(v) ? 0xffff : tsr_float_to_bfloat16(v);
        }
    }
}

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
    bool dev = tsr__nn_on_device(x);   /* cuda: float16 too */
    if (d != TSR_FLOAT32 && d != TSR_FLOAT64 && d != TSR_BFLOAT16 && (d != TSR_FLOAT16 || !dev)) {
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
    if (dev) return tsr__layer_norm_dev(x, nshape, w, b, eps);
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
    if (d == TSR_BFLOAT16)
        layer_norm_bf16(tsr_tensor_ptr(xc, NULL), wc ? tsr_tensor_ptr(wc, NULL) : NULL, bc ? tsr_tensor_ptr(bc, NULL) : NULL,
                        M, N, eps, tsr_tensor_ptr(y, NULL));
    else if (d == TSR_FLOAT32)
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

/* ------------------------------------------------------------ batch_norm */

/* Reads element i (strided walk over a 1-D tensor) of p as double. */
static double at1(const tsr_tensor *t, int64_t i) { return tsr_tensor_get_double_at(t, i); }

/* batch_norm_cpu_collect_stats_contiguous_impl for one channel of an NCHW
 * contiguous input: the sum in acc_type (double), mean = sum / N in T, the
 * sum of squared deviations in acc_type. */
#define COLLECT(NAME, T, SQACC)                                                                                       \
    static void NAME(const T *x, int64_t nb, int64_t nc, int64_t img, int64_t c, T *mean, T *vsum)                \
    {                                                                                                          \
        double sum = 0;                                                                                        \
        const int64_t N = nb * img;                                                                            \
        for (int64_t n = 0; n < nb; n++)                                                                       \
            for (int64_t i = 0; i < img; i++) sum += x[(n * nc + c) * img + i];                                \
        const T m = (T)(sum / (double)N);                                                                      \
        double vs = 0;                                                                                         \
        for (int64_t n = 0; n < nb; n++)                                                                       \
            for (int64_t i = 0; i < img; i++) {                                                                \
                const T v = x[(n * nc + c) * img + i];                                                         \
                vs = SQACC(v - m, vs, i < (img & ~(int64_t)1));                                                \
            }                                                                                                  \
        *mean = m;                                                                                             \
        *vsum = (T)vs;                                                                                         \
    }

/* Probed against 1.13's AVX2 build: within a row of the image, pairs of
 * double squares are computed two at a time (rounded) and added, the odd
 * last one is fused into the sum; a float square is added to a double. */
#define SQ_F32(dv, acc, pair) ((acc) + (double)((dv) * (dv)))
#define SQ_F64(dv, acc, pair) ((pair) ? (acc) + (dv) * (dv) : fma((dv), (dv), (acc)))
COLLECT(collect_f32, float, SQ_F32)
COLLECT(collect_f64, double, SQ_F64)

/* batch_norm_cpu_collect_stats_channels_last_impl: at::parallel_for(0, N, 1)
 * gives each of nt threads a chunk of rows, summed into its row of a
 * scalar_t buffer (vec::map2); mean = the threads' rows added in acc_type,
 * / N; then y + (x - mean)^2 into the buffer again, fused as the AVX2 build
 * computes it (probed for float and double), its rows added the same way.
 * buf holds nt * C. Results as doubles. */
static int64_t cl_chunk(int64_t N, int nt)
{
    const int64_t chunks = N > 1 && nt > 1 ? (nt < N ? nt : N) : 1;
    return (N + chunks - 1) / chunks;
}
#define COLLECT_CL(NAME, T, SQ)                                                                                  \
    static void NAME(const T *x, int64_t N, int64_t C, int nt, T *buf, double *mean, double *vsum)             \
    {                                                                                                          \
        const int64_t cs = cl_chunk(N, nt);                                                                    \
        for (int64_t k = 0; k < nt * C; k++) buf[k] = 0;                                                       \
        for (int64_t i = 0; i < N; i++)                                                                        \
            for (int64_t c = 0; c < C; c++) buf[i / cs * C + c] = x[i * C + c] + buf[i / cs * C + c];          \
        for (int64_t c = 0; c < C; c++) {                                                                      \
            double s = 0;                                                                                      \
            for (int t = 0; t < nt; t++) s += buf[t * C + c];                                                  \
            mean[c] = (double)(T)(s / (double)N);                                                              \
        }                                                                                                      \
        for (int64_t k = 0; k < nt * C; k++) buf[k] = 0;                                                       \
        for (int64_t i = 0; i < N; i++)                                                                        \
            for (int64_t c = 0; c < C; c++) {                                                                  \
                const T d = x[i * C + c] - (T)mean[c];                                                         \
                buf[i / cs * C + c] = SQ(d, buf[i / cs * C + c]);                                              \
            }                                                                                                  \
        for (int64_t c = 0; c < C; c++) {                                                                      \
            double s = 0;                                                                                      \
            for (int t = 0; t < nt; t++) s += buf[t * C + c];                                                  \
            vsum[c] = (double)(T)s;                                                                            \
        }                                                                                                      \
    }

#define SQ_CL_F32(d, y) fmaf((d), (d), (y))
#define SQ_CL_F64(d, y) fma((d), (d), (y))
COLLECT_CL(collect_cl_f32, float, SQ_CL_F32)
COLLECT_CL(collect_cl_f64, double, SQ_CL_F64)

/* The linear terms and the output x * alpha + beta (fused, as the AVX2
 * kernel), or ((x - mean) * invstd) * w + b for inputs that are neither
 * contiguous nor channels_last (the TensorIterator path). */
#define TRANSFORM(NAME, T, FMA)                                                                                  \
    static void NAME(const tsr_tensor *x, tsr_tensor *y, const T *mean, const T *invstd, const T *w, const T *b,  \
                     bool fast, T *alpha, T *beta)                                                             \
    {                                                                                                          \
        int64_t numel = tsr_tensor_numel(x), C = x->sizes[1], idx[TSR_MAX_DIMS] = {0};                         \
        for (int64_t c = 0; c < C; c++) {                                                                      \
            alpha[c] = invstd[c] * (w ? w[c] : (T)1);                                                          \
            beta[c] = FMA(-mean[c], alpha[c], b ? b[c] : (T)0);                                                \
        }                                                                                                      \
        const T *xb = tsr_tensor_ptr(x, NULL);                                                                 \
        T *yb = tsr_tensor_ptr(y, NULL);                                                                       \
        for (int64_t k = 0; k < numel; k++) {                                                                  \
            int64_t xo = 0, yo = 0;                                                                            \
            for (int d = 0; d < x->ndim; d++) xo += idx[d] * x->strides[d], yo += idx[d] * y->strides[d];      \
            const int64_t c = idx[1];                                                                          \
            if (fast) yb[yo] = FMA(xb[xo], alpha[c], beta[c]);                                                 \
            else yb[yo] = ((xb[xo] - mean[c]) * invstd[c]) * (w ? w[c] : (T)1) + (b ? b[c] : (T)0);            \
            for (int d = x->ndim - 1; d >= 0; d--) {                                                           \
                if (++idx[d] < x->sizes[d]) break;                                                             \
                idx[d] = 0;                                                                                    \
            }                                                                                                  \
        }                                                                                                      \
    }

TRANSFORM(transform_f32, float, fmaf)
TRANSFORM(transform_f64, double, fma)

static bool contiguous_any(const tsr_tensor *t)
{
    return tsr_tensor_is_contiguous(t) || tsr_tensor_is_contiguous_as(t, TSR_MF_CHANNELS_LAST);
}

static int check_features(const char *arg, int64_t expected, const tsr_tensor *t)
{
    if (!t || tsr_tensor_numel(t) == expected) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "%s should contain %lld elements not %lld", arg, (long long)expected,
                  (long long)tsr_tensor_numel(t));
    return -1;
}

/* A 1-D parameter of dtype d as a contiguous double copy into out[C]. */
#define PARAMS(T, t, out, C)                                                                                     \
    do {                                                                                                       \
        for (int64_t i_ = 0; i_ < (C); i_++) (out)[i_] = (T)at1((t), i_);                                      \
    } while (0)

/* The TensorIterator order of the elements of channel c (every dim but 1,
 * the smallest strides innermost): perm[0] is the innermost dim. */
static void bn_strided_order(const tsr_tensor *x, int *perm, int *np)
{
    int n = 0;
    for (int d = x->ndim - 1; d >= 0; d--)
        if (d != 1) perm[n++] = d;   /* innermost first */
    for (int i = 1; i < n; i++)       /* insertion sort by stride, ascending */
        for (int j = i; j > 0 && x->strides[perm[j]] < x->strides[perm[j - 1]]; j--) {
            int t = perm[j];
            perm[j] = perm[j - 1];
            perm[j - 1] = t;
        }
    *np = n;
}

/* The training statistics of an input neither contiguous nor
 * channels_last: mean = at::mean over every dim but 1 (its dtype), and the
 * squared deviations summed in double around that mean, in TensorIterator's
 * order. */
static int noncontig_stats(const tsr_tensor *x, int64_t C, int64_t N, double *mean, double *vsum)
{
    tsr_dims dims = {.n = 0};
    for (int d = 0; d < x->ndim; d++)
        if (d != 1) dims.d[dims.n++] = d;
    tsr_tensor *m = tsr_mean(x, &dims, false, TSR_DTYPE_UNDEFINED, NULL);
    if (!m) return -1;
    for (int64_t c = 0; c < C; c++) mean[c] = at1(m, c), vsum[c] = 0;
    tsr_tensor_release(m);
    int perm[TSR_MAX_DIMS], np;
    bn_strided_order(x, perm, &np);
    for (int64_t c = 0; c < C; c++) {
        int64_t idx[TSR_MAX_DIMS] = {0};
        idx[1] = c;
        for (int64_t k = 0; k < N; k++) {
            double dv = tsr_tensor_get_double(x, idx) - mean[c];
            vsum[c] += dv * dv;
            for (int i = 0; i < np; i++) {
                if (++idx[perm[i]] < x->sizes[perm[i]]) break;
                idx[perm[i]] = 0;
            }
        }
    }
    return 0;
}

tsr_tensor *tsr_nn_batch_norm(const tsr_tensor *x, tsr_tensor *rmean, tsr_tensor *rvar, const tsr_tensor *w,
                              const tsr_tensor *b, bool training, double momentum, double eps)
{
    return tsr_nn_batch_norm_ex(x, rmean, rvar, w, b, training, momentum, eps, NULL, NULL);
}

/* The per-channel statistics batch_norm's backward takes: the batch mean
 * and invstd in training, else running_mean and 1 / sqrt(running_var + eps)
 * computed in double (batch_norm_kernel.cpp's evaluation branch). */
static int save_stats(const tsr_tensor *x, int64_t C, bool training, const void *mean, const void *invstd,
                      const tsr_tensor *rmean, const tsr_tensor *rvar, double eps, tsr_tensor **sm, tsr_tensor **si)
{
    if (!sm) return 0;
    *sm = tsr_tensor_empty(1, &C, x->dtype, TSR_CPU);
    *si = *sm ? tsr_tensor_empty(1, &C, x->dtype, TSR_CPU) : NULL;
    if (!*si) {
        take(sm, NULL);
        return -1;
    }
    for (int64_t c = 0; c < C; c++) {
        double m, v;
        if (!mean) m = 0, v = 0;
        else if (!training) m = at1(rmean, c), v = 1 / sqrt(at1(rvar, c) + eps);
        else if (x->dtype == TSR_FLOAT32) m = ((const float *)mean)[c], v = ((const float *)invstd)[c];
        else m = ((const double *)mean)[c], v = ((const double *)invstd)[c];
        tsr_tensor_set_at(*sm, c, tsr_scalar_float(m));
        tsr_tensor_set_at(*si, c, tsr_scalar_float(v));
    }
    return 0;
}

/* bfloat16 (batch_norm_kernel.cpp's BFloat16 kernels and Normalization.cpp's
 * templates with scalar_t = BFloat16): the data loaded into Vectorized<float>
 * (a Vectorized<BFloat16> of 16 is two float vectors of 8), statistics in
 * float. param_t, the type of the parameters and saved statistics, is
 * bfloat16, or float when a parameter is float (the mixed type). */
/* vec_reduce_all over 8 float lanes: the lanes added in order (probed) */
static float bn_lanes8(const float *a)
{
    float r = a[0];
    for (int l = 1; l < 8; l++) r += a[l];
    return r;
}
static inline float bfv(const tsr_bfloat16 *p, int64_t i) { return tsr_bfloat16_to_float(p[i]); }
/* the squared deviations are accumulated fused (vector and scalar) */
static inline float sqacc(float dv, float acc) { return fmaf(dv, dv, acc); }

/* batch_norm_cpu_collect_stats_contiguous_impl<BFloat16>: per channel, the
 * sum in float lanes (16 at a time, two adds), the tail in a scalar,
 * mean = sum / N; then the squared deviations from that (unrounded) mean
 * the same way. */
static void bn_collect_bf16(const tsr_bfloat16 *x, int64_t nb, int64_t C, int64_t img, int64_t c, float *mean,
                            float *vsum)
{
    float sum = 0, acc[8] = {0}, var = 0, vacc[8] = {0};
    const int64_t vend = img - img % 16, N = nb * img;
    for (int64_t n = 0; n < nb; n++) {
        const tsr_bfloat16 *p = x + (n * C + c) * img;
        int64_t d = 0;
        for (; d < vend; d += 16)
            for (int h = 0; h < 16; h += 8)
                for (int l = 0; l < 8; l++) acc[l] += bfv(p, d + h + l);
        for (; d < img; d++) sum += bfv(p, d);
    }
    sum += bn_lanes8(acc);
    const float m = sum / (float)N;
    for (int64_t n = 0; n < nb; n++) {
        const tsr_bfloat16 *p = x + (n * C + c) * img;
        int64_t d = 0;
        for (; d < vend; d += 16)
            for (int h = 0; h < 16; h += 8)
                for (int l = 0; l < 8; l++) vacc[l] = sqacc(bfv(p, d + h + l) - m, vacc[l]);
        for (; d < img; d++) var = sqacc(bfv(p, d) - m, var);
    }
    var += bn_lanes8(vacc);
    *mean = m;
    *vsum = var;
}

/* batch_norm_cpu_collect_stats_channels_last_impl<BFloat16>: rows of C
 * summed into a float buffer per thread chunk, the threads' rows added in
 * float, mean = sum / N stored as param_t; the squared deviations from that
 * stored mean summed the same way. buf holds nt * C. */
static void bn_collect_cl_bf16(const tsr_bfloat16 *x, int64_t N, int64_t C, int nt, bool pf, float *buf, float *mean,
                               float *vsum)
{
    const int64_t cs = cl_chunk(N, nt);
    for (int64_t k = 0; k < nt * C; k++) buf[k] = 0;
    for (int64_t i = 0; i < N; i++)
        for (int64_t c = 0; c < C; c++) buf[i / cs * C + c] += bfv(x, i * C + c);
    for (int64_t c = 0; c < C; c++) {
        float sum = 0;
        for (int t = 0; t < nt; t++) sum += buf[t * C + c];
        mean[c] = sum / (float)N;
        if (!pf) mean[c] = rbf(mean[c]);
    }
    for (int64_t k = 0; k < nt * C; k++) buf[k] = 0;
    for (int64_t i = 0; i < N; i++)
        for (int64_t c = 0; c < C; c++) buf[i / cs * C + c] = sqacc(bfv(x, i * C + c) - mean[c], buf[i / cs * C + c]);
    for (int64_t c = 0; c < C; c++) {
        float v = 0;
        for (int t = 0; t < nt; t++) v += buf[t * C + c];
        vsum[c] = v;
    }
}

static int batch_norm_bf16(const tsr_tensor *x, tsr_tensor *y, tsr_tensor *rmean, tsr_tensor *rvar,
                           const tsr_tensor *w, const tsr_tensor *b, bool training, double momentum, double eps,
                           bool all, bool pf, tsr_tensor **save_mean, tsr_tensor **save_invstd)
{
    const int64_t C = x->sizes[1], N = tsr_tensor_numel(x) / C;
    int64_t ns = 8 * C;
    tsr_tensor *scr = tsr_tensor_empty(1, &ns, TSR_FLOAT32, TSR_CPU), *xc = NULL, *sm = NULL, *si = NULL, *cb = NULL;
    if (!scr) return -1;
    float *mean = tsr_tensor_ptr(scr, NULL), *invstd = mean + C, *wv = mean + 2 * C, *bv = mean + 3 * C;
    float *buf = mean + 4 * C, *vsum = mean + 5 * C, *rm = mean + 6 * C, *rv = mean + 7 * C;
    for (int64_t c = 0; c < C; c++) {
        wv[c] = w ? (float)at1(w, c) : 1.0f;
        bv[c] = b ? (float)at1(b, c) : 0.0f;
        rm[c] = rmean ? (float)at1(rmean, c) : 0.0f;
        rv[c] = rvar ? (float)at1(rvar, c) : 0.0f;
    }
    const tsr_dtype pd = pf ? TSR_FLOAT32 : TSR_BFLOAT16;
#define PR(v) (pf ? (v) : rbf(v))   /* stored as param_t */
    if (training) {
        bool cont = contiguous_any(x);
        if (cont) {
            bool clk = !tsr_tensor_is_contiguous(x) || N == x->sizes[0];   /* the channels_last kernel (also NC11) */
            if (clk) {
                int nt = tsr_get_num_threads() < 1 ? 1 : tsr_get_num_threads();
                int64_t nbc = (int64_t)nt * C;
                if (!(cb = tsr_tensor_empty(1, &nbc, TSR_FLOAT32, TSR_CPU))) goto fail;
                bn_collect_cl_bf16(tsr_tensor_ptr(x, NULL), N, C, nt, pf, tsr_tensor_ptr(cb, NULL), mean, vsum);
            } else {
                if (!(xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS))) goto fail;
                for (int64_t c = 0; c < C; c++)
                    bn_collect_bf16(tsr_tensor_ptr(xc, NULL), x->sizes[0], C, N / x->sizes[0], c, &mean[c], &vsum[c]);
            }
            const float mo = PR((float)momentum);
            for (int64_t c = 0; c < C; c++) {
                const float m = PR(mean[c]), vs = PR(vsum[c]);
                /* _var_sum / n: BFloat16 / int64 is a BFloat16 division */
                const float var = pf ? vs / (float)N : rbf(vs / rbf((float)N));
                mean[c] = m;
                invstd[c] = PR((var != 0 || eps != 0) ? (float)(1 / sqrt((double)var + eps)) : 0.0f);
                if (pf) {
                    rm[c] = mo * m + (1 - mo) * rm[c];
                    rv[c] = mo * (vs / (float)(N - 1)) + (1 - mo) * rv[c];
                } else {
                    rm[c] = rbf(rbf(mo * m) + rbf(rbf(1 - mo) * rm[c]));
                    rv[c] = rbf(mo * rbf(vs / rbf((float)(N - 1))) + rbf(rbf(1 - mo) * rv[c]));
                }
            }
        } else {
            /* the strided path: at::mean over every dim but 1, then the
             * squared deviations in float in TensorIterator's order */
            tsr_dims dims = {.n = 0};
            for (int d = 0; d < x->ndim; d++)
                if (d != 1) dims.d[dims.n++] = d;
            tsr_tensor *mt = tsr_mean(x, &dims, false, pf ? TSR_FLOAT32 : TSR_DTYPE_UNDEFINED, NULL);
            if (!mt) goto fail;
            for (int64_t c = 0; c < C; c++) mean[c] = PR((float)at1(mt, c));
            tsr_tensor_release(mt);
            int perm[TSR_MAX_DIMS], np;
            bn_strided_order(x, perm, &np);
            const tsr_bfloat16 *xb = tsr_tensor_ptr(x, NULL);
            for (int64_t c = 0; c < C; c++) {
                int64_t idx[TSR_MAX_DIMS] = {0}, off = c * x->strides[1];
                float vs = 0;
                for (int64_t k = 0; k < N; k++) {
                    const float dv = bfv(xb, off) - mean[c];
                    vs += dv * dv;
                    for (int i = 0; i < np; i++) {
                        const int d = perm[i];
                        off += x->strides[d];
                        if (++idx[d] < x->sizes[d]) break;
                        off -= idx[d] * x->strides[d];
                        idx[d] = 0;
                    }
                }
                const float var = vs / (float)N;
                invstd[c] = PR((var != 0 || eps != 0) ? (float)(1 / sqrt((double)var + eps)) : 0.0f);
                rm[c] = (float)(momentum * mean[c] + (1 - momentum) * rm[c]);
                rv[c] = (float)(momentum * (double)(vs / (float)(N - 1)) + (1 - momentum) * rv[c]);
            }
        }
        for (int64_t c = 0; c < C; c++) {
            if (rmean) tsr_tensor_set_at(rmean, c, tsr_scalar_float(PR(rm[c])));
            if (rvar) tsr_tensor_set_at(rvar, c, tsr_scalar_float(PR(rv[c])));
        }
    } else {
        for (int64_t c = 0; c < C; c++) {
            mean[c] = rm[c];
            /* the kernels: 1 / sqrt(var + eps) in float; the strided
             * path: 1 / at::sqrt(running_var + eps), tensor ops of param_t
             * (eps cast to it) */
            if (all || pf) invstd[c] = 1 / sqrtf(rv[c] + (float)eps);
            else invstd[c] = rbf(1 / rbf(sqrtf(rbf(rv[c] + rbf((float)eps)))));
        }
    }
    if (save_mean) {   /* evaluation: what the backward kernels compute from the running stats, in float */
        const tsr_dtype sd = training ? pd : TSR_FLOAT32;
        if (!(sm = tsr_tensor_empty(1, &C, sd, TSR_CPU)) || !(si = tsr_tensor_empty(1, &C, sd, TSR_CPU))) goto fail;
        for (int64_t c = 0; c < C; c++) {
            float iv = training ? invstd[c] : (float)(1 / sqrt((double)rv[c] + eps));
            tsr_tensor_set_at(sm, c, tsr_scalar_float(mean[c]));
            tsr_tensor_set_at(si, c, tsr_scalar_float(iv));
        }
    }
    /* the output */
    const tsr_bfloat16 *xb = tsr_tensor_ptr(x, NULL);
    tsr_bfloat16 *yb = tsr_tensor_ptr(y, NULL);
    float *al = buf, *be = vsum;
    for (int64_t c = 0; c < C; c++) {
        al[c] = invstd[c] * wv[c];
        be[c] = fmaf(-mean[c], al[c], bv[c]);
    }
    int64_t numel = tsr_tensor_numel(x), idx[TSR_MAX_DIMS] = {0};
    for (int64_t k = 0; k < numel; k++) {
        int64_t xo = 0, yo = 0;
        for (int d = 0; d < x->ndim; d++) xo += idx[d] * x->strides[d], yo += idx[d] * y->strides[d];
        const int64_t c = idx[1];
        const float xv = bfv(xb, xo);
        float r;
        if (all) r = fmaf(xv, al[c], be[c]);
        else if (pf) r = ((xv - mean[c]) * invstd[c]) * wv[c] + bv[c];
        else r = rbf(rbf(rbf(xv - mean[c]) * invstd[c]) * wv[c]) + bv[c];
        yb[yo] = tsr_float_to_bfloat16(r);
        for (int d = x->ndim - 1; d >= 0; d--) {
            if (++idx[d] < x->sizes[d]) break;
            idx[d] = 0;
        }
    }
#undef PR
    if (save_mean) *save_mean = sm, *save_invstd = si;
    tsr_tensor_release(xc);
    tsr_tensor_release(cb);
    tsr_tensor_release(scr);
    return 0;
fail:
    tsr_tensor_release(cb);
    tsr_tensor_release(sm);
    tsr_tensor_release(si);
    tsr_tensor_release(xc);
    tsr_tensor_release(scr);
    return -1;
}

tsr_tensor *tsr_nn_batch_norm_ex(const tsr_tensor *x, tsr_tensor *rmean, tsr_tensor *rvar, const tsr_tensor *w,
                                 const tsr_tensor *b, bool training, double momentum, double eps,
                                 tsr_tensor **save_mean, tsr_tensor **save_invstd)
{
    if (save_mean) *save_mean = *save_invstd = NULL;
    char b1[64];
    if (x->ndim < 2) {
        tsr_error_set(TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got 1)",
                      x->ndim ? -x->ndim : -1, x->ndim ? x->ndim - 1 : 0);
        return NULL;
    }
    int64_t C = x->sizes[1];
    bool dev = tsr__nn_on_device(x);
    if (dev && tsr_tensor_numel(x) == 0)
        return tsr__batch_norm_dev(x, rmean, rvar, w, b, training, momentum, eps, save_mean, save_invstd);
    if (tsr_tensor_numel(x) == 0) {   /* input.clone(), times weight[0], plus bias[0] */
        tsr_tensor *r = tsr_clone(x, TSR_MF_PRESERVE);
        (void)w; (void)b;
        if (r && save_stats(x, C, training, NULL, NULL, NULL, NULL, eps, save_mean, save_invstd) < 0) take(&r, NULL);
        return r;
    }
    if (rmean) { if (check_features("running_mean", C, rmean) < 0) return NULL; }
    else if (!training) {
        tsr_error_set(TSR_ERR_RUNTIME, "running_mean must be defined in evaluation mode");
        return NULL;
    }
    if (rvar) { if (check_features("running_var", C, rvar) < 0) return NULL; }
    else if (!training) {
        tsr_error_set(TSR_ERR_RUNTIME, "running_var must be defined in evaluation mode");
        return NULL;
    }
    if (check_features("weight", C, w) < 0 || check_features("bias", C, b) < 0) return NULL;
    /* cuda: float16 too, and float parameters for the halves (nn_dev.c) */
    if (dev) return tsr__batch_norm_dev(x, rmean, rvar, w, b, training, momentum, eps, save_mean, save_invstd);
    tsr_dtype d = x->dtype;
    if (d != TSR_FLOAT32 && d != TSR_FLOAT64 && d != TSR_BFLOAT16) {
        tsr__not_implemented("batch_norm", d);
        return NULL;
    }
    const tsr_tensor *ps[4] = {w, b, rmean, rvar};
    /* is_mixed_type: a bfloat16 input whose first defined parameter (weight,
     * bias, running_mean, running_var) is of another dtype; then every
     * parameter must be float. Otherwise a parameter of another dtype fails
     * its data_ptr<BFloat16> (the running stats first in training). */
    bool mixed = false;
    for (int i = 0; i < 4; i++)
        if (d == TSR_BFLOAT16 && ps[i]) {
            mixed = ps[i]->dtype != d;
            break;
        }
    for (int i = 0; d == TSR_BFLOAT16 && i < 4; i++) {
        const tsr_tensor *p = ps[training ? (i + 2) % 4 : i];
        if (mixed && p && p->dtype != TSR_FLOAT32) {
            tsr_error_set(TSR_ERR_RUNTIME, "mixed dtype (CPU): expect parameter to have scalar type of Float");
            return NULL;
        }
        if (!mixed && p && p->dtype != d) {
            tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type BFloat16 but found %s",
                              tsr_dtype_scalar_name(p->dtype));
            return NULL;
        }
    }
    for (int i = 0; i < 4; i++)
        if (d != TSR_BFLOAT16 && ps[i] && ps[i]->dtype != d) {
            if (d == TSR_FLOAT32)   /* 1.13's mixed-type check (bfloat16 input, float parameters) */
                tsr_error_set(TSR_ERR_RUNTIME, "mixed dtype (CPU): expect parameter to have scalar type of Float");
            else
                tsr_error_set(TSR_ERR_RUNTIME, "mixed dtype (CPU): expect input to have scalar type of BFloat16");
            return NULL;
        }
    (void)b1;
    bool all = contiguous_any(x) && (!w || tsr_tensor_is_contiguous(w)) && (!b || tsr_tensor_is_contiguous(b)) &&
               (!rmean || tsr_tensor_is_contiguous(rmean)) && (!rvar || tsr_tensor_is_contiguous(rvar));
    int64_t st[TSR_MAX_DIMS];
    tsr_memory_format smf = tsr_tensor_suggest_memory_format(x);
    /* empty_like(input, suggest_memory_format()); channels_last_3d takes the
     * strided path below */
    if (smf == TSR_MF_CHANNELS_LAST || smf == TSR_MF_CHANNELS_LAST_3D)
        tsr_strides_for_format(x->ndim, x->sizes, smf, st);
    else
        tsr_strides_contiguous(x->ndim, x->sizes, st);
    tsr_tensor *y = tsr_tensor_empty_strided(x->ndim, x->sizes, st, d, x->device);
    if (!y || tsr_tensor_is_meta(y)) return y;
    tsr_tensor *xc = NULL, *scr = NULL, *cb = NULL;
    int64_t N = tsr_tensor_numel(x) / C;
    /* per-channel scratch (C can be large: no arrays on the stack) */
    int64_t ns = 10 * C;
    if (!(scr = tsr_tensor_empty(1, &ns, TSR_FLOAT64, x->device))) goto fail;
    double *mean_d_buf = tsr_tensor_ptr(scr, NULL), *nvs = mean_d_buf + C;
    if (d == TSR_BFLOAT16) {
        if (batch_norm_bf16(x, y, rmean, rvar, w, b, training, momentum, eps, all, mixed, save_mean, save_invstd) < 0)
            goto fail;
    } else if (d == TSR_FLOAT32) {
        float *mean = (float *)(nvs + C), *invstd = (float *)(nvs + 2 * C), *wv = (float *)(nvs + 3 * C);
        float *bv = (float *)(nvs + 4 * C), *al = (float *)(nvs + 5 * C), *be = (float *)(nvs + 6 * C);
        if (w) PARAMS(float, w, wv, C);
        if (b) PARAMS(float, b, bv, C);
        if (training) {
            bool cont = contiguous_any(x);
            if (!cont && noncontig_stats(x, C, N, mean_d_buf, nvs) < 0) goto fail;
            bool clk = cont && (!tsr_tensor_is_contiguous(x) || N == x->sizes[0]);   /* the channels_last kernel (also NC11) */
            if (clk) {
                int nt = tsr_get_num_threads() < 1 ? 1 : tsr_get_num_threads();
                int64_t nbc = (int64_t)nt * C;
                if (!(cb = tsr_tensor_empty(1, &nbc, TSR_FLOAT32, TSR_CPU))) goto fail;
                collect_cl_f32(tsr_tensor_ptr(x, NULL), N, C, nt, tsr_tensor_ptr(cb, NULL), mean_d_buf, nvs);
            } else if (cont && !(xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS))) goto fail;
            for (int64_t c = 0; c < C; c++) {
                float m, vs = 0;
                if (clk) m = (float)mean_d_buf[c], vs = (float)nvs[c];
                else if (cont) collect_f32(tsr_tensor_ptr(xc, NULL), x->sizes[0], C, N / x->sizes[0], c, &m, &vs);
                else m = (float)mean_d_buf[c];
                mean[c] = m;
                double var = cont ? (double)(vs / (float)N) : nvs[c] / (double)N;
                invstd[c] = (var != 0 || eps != 0) ? (float)(1 / sqrt(var + eps)) : 0;
                float mo = (float)momentum;
                if (rmean) {
                    float r = (float)at1(rmean, c);
                    /* the contiguous path updates in float, the strided one in double */
                    ((float *)tsr_tensor_ptr(rmean, NULL))[c * rmean->strides[0]] =
                        cont ? mo * m + (1 - mo) * r : (float)(momentum * (double)m + (1 - momentum) * (double)r);
                }
                if (rvar) {
                    double uv = cont ? (double)(vs / (float)(N - 1)) : nvs[c] / (double)(N - 1);
                    float r = (float)at1(rvar, c);
                    /* the strided path's momentum is the double argument */
                    ((float *)tsr_tensor_ptr(rvar, NULL))[c * rvar->strides[0]] =
                        cont ? (float)(mo * uv + (1 - mo) * r) : (float)(momentum * uv + (1 - momentum) * (double)r);
                }
            }
        } else {
            for (int64_t c = 0; c < C; c++) {
                mean[c] = (float)at1(rmean, c);
                invstd[c] = 1 / sqrtf((float)at1(rvar, c) + (float)eps);
            }
        }
        if (save_stats(x, C, training, mean, invstd, rmean, rvar, eps, save_mean, save_invstd) < 0) goto fail;
        transform_f32(x, y, mean, invstd, w ? wv : NULL, b ? bv : NULL, all, al, be);
    } else {
        double *mean = nvs + C, *invstd = nvs + 2 * C, *wv = nvs + 3 * C, *bv = nvs + 4 * C, *al = nvs + 5 * C;
        double *be = nvs + 6 * C;
        if (w) PARAMS(double, w, wv, C);
        if (b) PARAMS(double, b, bv, C);
        if (training) {
            bool cont = contiguous_any(x);
            if (!cont && noncontig_stats(x, C, N, mean_d_buf, nvs) < 0) goto fail;
            bool clk = cont && (!tsr_tensor_is_contiguous(x) || N == x->sizes[0]);   /* the channels_last kernel (also NC11) */
            if (clk) {
                int nt = tsr_get_num_threads() < 1 ? 1 : tsr_get_num_threads();
                int64_t nbc = (int64_t)nt * C;
                if (!(cb = tsr_tensor_empty(1, &nbc, TSR_FLOAT64, TSR_CPU))) goto fail;
                collect_cl_f64(tsr_tensor_ptr(x, NULL), N, C, nt, tsr_tensor_ptr(cb, NULL), mean_d_buf, nvs);
            } else if (cont && !(xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS))) goto fail;
            for (int64_t c = 0; c < C; c++) {
                double m, vs;
                if (clk || !cont) m = mean_d_buf[c], vs = nvs[c];
                else collect_f64(tsr_tensor_ptr(xc, NULL), x->sizes[0], C, N / x->sizes[0], c, &m, &vs);
                mean[c] = m;
                double var = vs / (double)N;
                invstd[c] = (var != 0 || eps != 0) ? 1 / sqrt(var + eps) : 0;
                if (rmean) {
                    double r = at1(rmean, c);
                    ((double *)tsr_tensor_ptr(rmean, NULL))[c * rmean->strides[0]] = momentum * m + (1 - momentum) * r;
                }
                if (rvar) {
                    double uv = vs / (double)(N - 1), r = at1(rvar, c);
                    ((double *)tsr_tensor_ptr(rvar, NULL))[c * rvar->strides[0]] = momentum * uv + (1 - momentum) * r;
                }
            }
        } else {
            for (int64_t c = 0; c < C; c++) {
                mean[c] = at1(rmean, c);
                invstd[c] = 1 / sqrt(at1(rvar, c) + eps);
            }
        }
        if (save_stats(x, C, training, mean, invstd, rmean, rvar, eps, save_mean, save_invstd) < 0) goto fail;
        transform_f64(x, y, mean, invstd, w ? wv : NULL, b ? bv : NULL, all, al, be);
    }
    tsr_tensor_release(xc);
    tsr_tensor_release(cb);
    tsr_tensor_release(scr);
    return y;
fail:
    tsr_tensor_release(xc);
    tsr_tensor_release(cb);
    tsr_tensor_release(scr);
    tsr_tensor_release(y);
    if (save_mean) {
        take(save_mean, NULL);
        take(save_invstd, NULL);
    }
    return NULL;
}

/* ------------------------------------------------------------ group_norm, instance_norm */

/* GroupNormKernelImplInternal over N * G rows of D * HxW: RowwiseMoments,
 * rstd = 1 / sqrt(max(var, 0) + eps); without affine (x - mean) * rstd,
 * else per channel scale = rstd * gamma, bias = -scale * mean + beta
 * (fused) and y = scale * x + bias (fused). */
#define GROUP_NORM(NAME, T, MOM, FMA)                                                                            \
    static void NAME(const T *x, const T *g, const T *b, int64_t N, int64_t C, int64_t HxW, int64_t G, T eps, T *y, T *mo, T *ro) \
    {                                                                                                          \
        const int64_t D = C / G, inner = D * HxW;                                                              \
        for (int64_t i = 0; i < N * G; i++) {                                                                  \
            const T *xp = x + i * inner;                                                                       \
            T mean, rstd;                                                                                      \
            MOM(xp, inner, &mean, &rstd);                                                                      \
            rstd = (T)1 / (T)sqrt((double)((rstd > 0 ? rstd : (T)0) + eps));                                   \
            if (mo) mo[i] = mean, ro[i] = rstd;                                                                \
            if (!g && !b) {                                                                                    \
                for (int64_t j = 0; j < inner; j++) y[i * inner + j] = (xp[j] - mean) * rstd;                  \
                continue;                                                                                      \
            }                                                                                                  \
            const int64_t gi = i % G;                                                                          \
            for (int64_t j = 0; j < D; j++) {                                                                  \
                const int64_t c = gi * D + j;                                                                  \
                const T scale = rstd * (g ? g[c] : (T)1);                                                      \
                const T bias = -scale * mean + (b ? b[c] : (T)0);                                              \
                const T *xr = x + (i * D + j) * HxW;                                                           \
                T *yr = y + (i * D + j) * HxW;                                                                 \
                for (int64_t k = 0; k < HxW; k++) yr[k] = FMA(scale, xr[k], bias);                             \
            }                                                                                                  \
        }                                                                                                      \
    }

GROUP_NORM(group_norm_f32, float, moments_f32, fmaf)
GROUP_NORM(group_norm_f64, double, moments_f64, fma)

/* The same with T = BFloat16: every operation rounded to bfloat16. */
static void group_norm_bf16(const tsr_bfloat16 *x, const tsr_bfloat16 *g, const tsr_bfloat16 *b, int64_t N, int64_t C,
                            int64_t HxW, int64_t G, double eps, tsr_bfloat16 *y, tsr_bfloat16 *mo, tsr_bfloat16 *ro)
{
    const int64_t D = C / G, inner = D * HxW;
    const float epsb = rbf((float)eps);
    for (int64_t i = 0; i < N * G; i++) {
        const tsr_bfloat16 *xp = x + i * inner;
        float mean, var;
        moments_bf16(xp, inner, &mean, &var);
        const float rstd = rbf(1.0f / rbf(sqrtf(rbf((var > 0 ? var : 0.0f) + epsb))));
        if (mo) mo[i] = tsr_float_to_bfloat16(mean), ro[i] = tsr_float_to_bfloat16(rstd);
        if (!g && !b) {
            for (int64_t j = 0; j < inner; j++)
                y[i * inner + j] = tsr_float_to_bfloat16(rbf(tsr_bfloat16_to_float(xp[j]) - mean) * rstd);
            continue;
        }
        const int64_t gi = i % G;
        for (int64_t j = 0; j < D; j++) {
            const int64_t c = gi * D + j;
            const float scale = rbf(rstd * (g ? tsr_bfloat16_to_float(g[c]) : 1.0f));
            const float bias = rbf(rbf(-scale * mean) + (b ? tsr_bfloat16_to_float(b[c]) : 0.0f));
            const tsr_bfloat16 *xr = x + (i * D + j) * HxW;
            tsr_bfloat16 *yr = y + (i * D + j) * HxW;
            for (int64_t k = 0; k < HxW; k++)
                yr[k] = tsr_float_to_bfloat16(rbf(scale * tsr_bfloat16_to_float(xr[k])) + bias);
        }
    }
}

static void group_norm_cl_f32(const float *x, const float *g, const float *b, int64_t N, int64_t C, int64_t HxW,
                              int64_t G, float eps, float *y, float *mo, float *ro);
static void group_norm_cl_f64(const double *x, const double *g, const double *b, int64_t N, int64_t C, int64_t HxW,
                              int64_t G, double eps, double *y, double *mo, double *ro);
static void group_norm_cl2_f32(const float *x, const float *g, const float *b, int64_t N, int64_t C, int64_t HxW,
                               int64_t G, float eps, float *y, float *mo, float *ro, int nt, float *buf, float *sb);
static void group_norm_cl2_f64(const double *x, const double *g, const double *b, int64_t N, int64_t C, int64_t HxW,
                               int64_t G, double eps, double *y, double *mo, double *ro, int nt, double *buf, double *sb);

tsr_tensor *tsr_nn_group_norm(const tsr_tensor *x, int64_t G, const tsr_tensor *w, const tsr_tensor *b, double eps)
{
    return tsr_nn_group_norm_ex(x, G, w, b, eps, NULL, NULL);
}

tsr_tensor *tsr_nn_group_norm_ex(const tsr_tensor *x, int64_t G, const tsr_tensor *w, const tsr_tensor *b, double eps,
                                 tsr_tensor **mean, tsr_tensor **rstd)
{
    if (mean) *mean = NULL, *rstd = NULL;
    char b1[256], b2[256];
    int64_t N = x->sizes[0], C = x->sizes[1];
    if (G <= 0 || C % G != 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected number of channels in input to be divisible by num_groups, but got "
                      "input of shape %s and num_groups=%lld", tsr__fmt_list(b1, sizeof b1, x->ndim, x->sizes),
                      (long long)G);
        return NULL;
    }
    if (w && !(w->ndim == 1 && tsr_tensor_numel(w) == C)) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected weight to be a vector of size equal to the number of channels in "
                      "input, but got weight of shape %s and input of shape %s",
                      tsr__fmt_list(b1, sizeof b1, w->ndim, w->sizes), tsr__fmt_list(b2, sizeof b2, x->ndim, x->sizes));
        return NULL;
    }
    if (b && !(b->ndim == 1 && tsr_tensor_numel(b) == C)) {   /* 1.13 prints the weight's shape here */
        tsr_error_set(TSR_ERR_RUNTIME, "Expected bias to be a vector of size equal to the number of channels in "
                      "input, but got bias of shape %s and input of shape %s",
                      w ? tsr__fmt_list(b1, sizeof b1, w->ndim, w->sizes) : "[]",
                      tsr__fmt_list(b2, sizeof b2, x->ndim, x->sizes));
        return NULL;
    }
    tsr_dtype d = x->dtype;
    if (tsr__nn_on_device(x)) {
        for (int i = 0; i < 2; i++) {
            const tsr_tensor *p = i ? b : w;
            if (p && p->dtype != d) {
                tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(d),
                              tsr_dtype_scalar_name(p->dtype));
                return NULL;
            }
        }
        return tsr__group_norm_dev(x, G, w, b, eps, mean, rstd);
    }
    if (d == TSR_BFLOAT16 && tsr_tensor_suggest_memory_format(x) != TSR_MF_CONTIGUOUS) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "group_norm of a channels_last bfloat16 input is not supported by tsr "
                      "yet");
        return NULL;
    }
    if (d != TSR_FLOAT32 && d != TSR_FLOAT64 && d != TSR_BFLOAT16) {
        tsr__not_implemented("GroupNormKernelImpl", d);
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
    int64_t HxW = 1;
    for (int i = 2; i < x->ndim; i++) HxW *= x->sizes[i];
    tsr_memory_format mf = tsr_tensor_suggest_memory_format(x);
    tsr_tensor *xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS), *wc = NULL, *bc = NULL, *y = NULL, *yc = NULL;
    tsr_tensor *ms = NULL, *rs = NULL;
    int64_t ssz[2] = {N, G};
    if (!xc || (w && !(wc = tsr_contiguous(w, TSR_MF_CONTIGUOUS))) || (b && !(bc = tsr_contiguous(b, TSR_MF_CONTIGUOUS))))
        goto done;
    if (mean && (!(ms = tsr_zeros(2, ssz, d, x->device)) || !(rs = tsr_zeros(2, ssz, d, x->device))))
        goto done;
    if (ms && HxW == 0 && !tsr_tensor_is_meta(rs))   /* RowwiseMoments of nothing: variance 0 / 0 */
        for (int64_t i = 0; i < N * G; i++) tsr_tensor_set_at(rs, i, tsr_scalar_float(NAN));
    bool cl = mf == TSR_MF_CHANNELS_LAST;
    void *pm = ms && !cl ? tsr_tensor_ptr(ms, NULL) : NULL, *pr = ms && !cl ? tsr_tensor_ptr(rs, NULL) : NULL;
    if (!(yc = tsr_tensor_empty(x->ndim, x->sizes, d, x->device))) goto done;
    if (!tsr_tensor_is_meta(yc) && N * C * HxW > 0) {
        if (tsr_check_interrupt() < 0) goto done;
        if (d == TSR_BFLOAT16)
            group_norm_bf16(tsr_tensor_ptr(xc, NULL), wc ? tsr_tensor_ptr(wc, NULL) : NULL,
                            bc ? tsr_tensor_ptr(bc, NULL) : NULL, N, C, HxW, G, eps, tsr_tensor_ptr(yc, NULL), pm, pr);
        else if (d == TSR_FLOAT32)
            group_norm_f32(tsr_tensor_ptr(xc, NULL), wc ? tsr_tensor_ptr(wc, NULL) : NULL,
                           bc ? tsr_tensor_ptr(bc, NULL) : NULL, N, C, HxW, G, (float)eps, tsr_tensor_ptr(yc, NULL),
                           pm, pr);
        else
            group_norm_f64(tsr_tensor_ptr(xc, NULL), wc ? tsr_tensor_ptr(wc, NULL) : NULL,
                           bc ? tsr_tensor_ptr(bc, NULL) : NULL, N, C, HxW, G, eps, tsr_tensor_ptr(yc, NULL), pm, pr);
    }
    if (cl && !tsr_tensor_is_meta(yc) && N * C * HxW > 0) {
        tsr_tensor *xl = tsr_contiguous(x, TSR_MF_CHANNELS_LAST);
        y = xl ? tsr_tensor_empty_format(x->ndim, x->sizes, d, x->device, TSR_MF_CHANNELS_LAST) : NULL;
        pm = ms ? tsr_tensor_ptr(ms, NULL) : NULL, pr = ms ? tsr_tensor_ptr(rs, NULL) : NULL;
        if (y && HxW >= 1024) {   /* impl-2 */
            int nt = tsr_get_num_threads();
            if (nt < 1) nt = 1;
            int64_t nb = (int64_t)nt * N * 2 * C + N * 2 * C;
            tsr_tensor *bt = tsr_zeros(1, &nb, d, TSR_CPU);
            if (!bt) {
                tsr_tensor_release(xl);
                tsr_tensor_release(y);
                y = NULL;
                goto done;
            }
            char *bp = tsr_tensor_ptr(bt, NULL), *sp = bp + (size_t)((int64_t)nt * N * 2 * C) * (size_t)tsr_tensor_itemsize(x);
            if (d == TSR_FLOAT32)
                group_norm_cl2_f32(tsr_tensor_ptr(xl, NULL), wc ? tsr_tensor_ptr(wc, NULL) : NULL,
                                   bc ? tsr_tensor_ptr(bc, NULL) : NULL, N, C, HxW, G, (float)eps,
                                   tsr_tensor_ptr(y, NULL), pm, pr, nt, (float *)bp, (float *)sp);
            else
                group_norm_cl2_f64(tsr_tensor_ptr(xl, NULL), wc ? tsr_tensor_ptr(wc, NULL) : NULL,
                                   bc ? tsr_tensor_ptr(bc, NULL) : NULL, N, C, HxW, G, eps, tsr_tensor_ptr(y, NULL),
                                   pm, pr, nt, (double *)bp, (double *)sp);
            tsr_tensor_release(bt);
        } else if (y && d == TSR_FLOAT32)
            group_norm_cl_f32(tsr_tensor_ptr(xl, NULL), wc ? tsr_tensor_ptr(wc, NULL) : NULL,
                              bc ? tsr_tensor_ptr(bc, NULL) : NULL, N, C, HxW, G, (float)eps, tsr_tensor_ptr(y, NULL),
                              pm, pr);
        else if (y)
            group_norm_cl_f64(tsr_tensor_ptr(xl, NULL), wc ? tsr_tensor_ptr(wc, NULL) : NULL,
                              bc ? tsr_tensor_ptr(bc, NULL) : NULL, N, C, HxW, G, eps, tsr_tensor_ptr(y, NULL), pm, pr);
        tsr_tensor_release(xl);
        goto done;
    }
    y = mf == TSR_MF_CONTIGUOUS ? tsr_tensor_retain(yc) : tsr_contiguous(yc, mf);
done:
    tsr_tensor_release(xc);
    tsr_tensor_release(wc);
    tsr_tensor_release(bc);
    tsr_tensor_release(yc);
    if (y && mean) {
        *mean = ms, *rstd = rs;
    } else {
        tsr_tensor_release(ms);
        tsr_tensor_release(rs);
    }
    return y;
}

/* at::instance_norm: the input as (1, N * C, *) through batch_norm with
 * weight, bias and running stats repeated N times; the running stats then
 * the mean over the batch of the updated copies. */
tsr_tensor *tsr_nn_instance_norm(const tsr_tensor *x, tsr_tensor *rmean, tsr_tensor *rvar, const tsr_tensor *w,
                                 const tsr_tensor *b, bool use_input_stats, double momentum, double eps)
{
    return tsr_nn_instance_norm_ex(x, rmean, rvar, w, b, use_input_stats, momentum, eps, NULL);
}

int tsr_nn_instance_norm_check(const tsr_tensor *rmean, const tsr_tensor *rvar, bool use_input_stats)
{
    if (!use_input_stats && !(rmean && rvar)) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected running_mean and running_var to be defined when use_input_stats is "
                      "false");
        return -1;
    }
    return 0;
}

tsr_tensor *tsr_nn_instance_norm_ex(const tsr_tensor *x, tsr_tensor *rmean, tsr_tensor *rvar, const tsr_tensor *w,
                                    const tsr_tensor *b, bool use_input_stats, double momentum, double eps,
                                    tsr_tensor **parts)
{
    if (parts)
        for (int i = 0; i < 7; i++) parts[i] = NULL;
    if (tsr_nn_instance_norm_check(rmean, rvar, use_input_stats) < 0) return NULL;
    int64_t B = x->sizes[0], C = x->sizes[1], shape[TSR_MAX_DIMS];
    memcpy(shape, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
    shape[1] = B * C, shape[0] = 1;
    tsr_tensor *rep[4] = {NULL, NULL, NULL, NULL}, *xc = NULL, *xr = NULL, *out = NULL, *r = NULL;
    const tsr_tensor *src[4] = {w, b, rmean, rvar};
    for (int i = 0; i < 4; i++)
        if (src[i] && !(rep[i] = tsr_repeat(src[i], 1, &B))) goto done;
    if (!(xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS)) || !(xr = tsr_view_view(xc, x->ndim, shape))) goto done;
    if (!(out = tsr_nn_batch_norm_ex(xr, rep[2], rep[3], rep[0], rep[1], use_input_stats, momentum, eps,
                                     parts ? &parts[5] : NULL, parts ? &parts[6] : NULL)))
        goto done;
    for (int i = 2; i < 4; i++) {
        tsr_tensor *t = i == 2 ? rmean : rvar;
        if (!t) continue;
        int64_t bc[2] = {B, C};
        tsr_dims d0 = {.n = 1, .d = {0}};
        tsr_tensor *v = tsr_view_view(rep[i], 2, bc), *m = v ? tsr_mean(v, &d0, false, TSR_DTYPE_UNDEFINED, NULL) : NULL;
        int rc = m ? tsr_copy_(t, m) : -1;
        tsr_tensor_release(v);
        tsr_tensor_release(m);
        if (rc < 0) goto done;
    }
    r = tsr_view_view(out, x->ndim, x->sizes);
    if (r && parts) {
        parts[0] = tsr_tensor_retain(xc), parts[1] = tsr_tensor_retain(xr), parts[4] = tsr_tensor_retain(out);
        parts[2] = rep[0] ? tsr_tensor_retain(rep[0]) : NULL, parts[3] = rep[1] ? tsr_tensor_retain(rep[1]) : NULL;
    }
    if (!r && parts)
        for (int i = 0; i < 7; i++) take(&parts[i], NULL);
done:
    for (int i = 0; i < 4; i++) tsr_tensor_release(rep[i]);
    tsr_tensor_release(xc);
    tsr_tensor_release(xr);
    tsr_tensor_release(out);
    return r;
}

/* ------------------------------------------------------------ alpha_dropout, local_response_norm */

static tsr_tensor *bin_s(tsr_binop op, const tsr_tensor *a, tsr_scalar s)
{
    tsr_operand oa = tsr_operand_tensor(a), os = tsr_operand_scalar(s);
    return tsr_binary(op, &oa, &os, NULL, NULL);
}

static int bin_s_(tsr_binop op, tsr_tensor *a, tsr_scalar s)
{
    tsr_operand os = tsr_operand_scalar(s);
    tsr_tensor *r = tsr_binary_(op, a, &os, NULL);
    if (!r) return -1;
    tsr_tensor_release(r);
    return 0;
}

tsr_tensor *tsr_nn_alpha_dropout(tsr_tensor *x, double p, bool train, bool inplace)
{
    if (!(p >= 0 && p <= 1)) {
        tsr_error_set(TSR_ERR_RUNTIME, "dropout probability has to be between 0 and 1, but got %g", p);
        return NULL;
    }
    if (p == 0 || !train || tsr_tensor_numel(x) == 0) return tsr_tensor_retain(x);
    if (x->layout == TSR_LAYOUT_SPARSE_COO) {   /* as dropout's (nn.c) */
        if (p == 1)
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: alpha_dropout with p=1 of a sparse tensor is not supported "
                          "(1.13 multiplies it by an uninitialised value)");
        else
            tsr_error_set(TSR_ERR_RUNTIME, "memory format option is only supported by strided tensors");
        return NULL;
    }
    tsr_tensor *noise = NULL, *b = NULL, *r = NULL;
    tsr_operand ox = tsr_operand_tensor(x);
    if (p == 1) {
        if (!(noise = tsr_zeros(0, NULL, x->dtype, x->device))) return NULL;
        tsr_operand on = tsr_operand_tensor(noise);
        r = inplace ? tsr_binary_(TSR_BINOP_MUL, x, &on, NULL) : tsr_binary(TSR_BINOP_MUL, &ox, &on, NULL, NULL);
        tsr_tensor_release(noise);
        return r;
    }
    const double alpha = 1.7580993408473766, a = 1. / sqrt((alpha * alpha * p + 1) * (1 - p));
    noise = tsr_empty_like(x, x->dtype, x->device, TSR_MF_CONTIGUOUS);
    if (!noise || tsr_bernoulli_(noise, 1 - p, tsr__nn_on_device(x) ? NULL : tsr_default_generator()) < 0) goto done;
    /* b = noise.add(-1).mul_(alpha * a).add_(alpha * a * p); noise.mul_(a) */
    if (!(b = bin_s(TSR_BINOP_ADD, noise, tsr_scalar_int(-1))) ||
        bin_s_(TSR_BINOP_MUL, b, tsr_scalar_float(alpha * a)) < 0 ||
        bin_s_(TSR_BINOP_ADD, b, tsr_scalar_float(alpha * a * p)) < 0 || bin_s_(TSR_BINOP_MUL, noise, tsr_scalar_float(a)) < 0)
        goto done;
    tsr_operand on = tsr_operand_tensor(noise), ob = tsr_operand_tensor(b);
    r = inplace ? tsr_binary_(TSR_BINOP_MUL, x, &on, NULL) : tsr_binary(TSR_BINOP_MUL, &ox, &on, NULL, NULL);
    if (r) {
        tsr_tensor *r2 = tsr_binary_(TSR_BINOP_ADD, r, &ob, NULL);
        tsr_tensor_release(r);
        r = r2;
    }
done:
    tsr_tensor_release(noise);
    tsr_tensor_release(b);
    return r;
}

tsr_tensor *tsr_nn_local_response_norm(const tsr_tensor *x, int64_t size, double alpha, double beta, double k)
{
    int dim = x->ndim;
    if (dim < 3) {
        /* the wide gap is 1.13's: a line continuation inside its string literal */
        tsr_error_set(TSR_ERR_VALUE, "Expected 3D or higher dimensionality"
                      "                          "
                      "input (got %d dimensions)", dim);
        return NULL;
    }
    if (tsr_tensor_numel(x) == 0) return tsr_tensor_retain((tsr_tensor *)x);
    tsr_operand ox = tsr_operand_tensor(x);
    tsr_tensor *sq = tsr_binary(TSR_BINOP_MUL, &ox, &ox, NULL, NULL), *div = NULL, *pd = NULL, *pooled = NULL, *r = NULL;
    if (!sq || !(div = tsr_view_unsqueeze(sq, 1))) goto done;
    int64_t ker[2] = {size, 1}, one[2] = {1, 1}, zero[2] = {0, 0};
    if (dim == 3) {
        int64_t pad[4] = {0, 0, size / 2, (size - 1) / 2};
        if (!(pd = tsr_constant_pad_nd(div, 4, pad, tsr_scalar_int(0)))) goto done;
        if (!(pooled = tsr_nn_avg_pool2d(pd, 2, ker, 2, one, 2, zero, false, true, false, 0))) goto done;
        tsr_tensor *s = tsr_view_squeeze_dim(pooled, 1);
        tsr_tensor_release(div);
        div = s;
    } else {
        /* div.view(N, 1, C, H, -1), padded over C, avg_pool3d((size, 1, 1)):
         * the same sums as avg_pool2d over (C, H * rest) */
        int64_t rest = tsr_tensor_numel(x) / (x->sizes[0] * x->sizes[1] * x->sizes[2]);
        int64_t v5[5] = {x->sizes[0], 1, x->sizes[1], x->sizes[2], rest};
        int64_t pad[6] = {0, 0, 0, 0, size / 2, (size - 1) / 2};
        tsr_tensor *v = tsr_view_view(div, 5, v5);
        pd = v ? tsr_constant_pad_nd(v, 6, pad, tsr_scalar_int(0)) : NULL;
        tsr_tensor_release(v);
        if (!pd) goto done;
        int64_t v4[4] = {pd->sizes[0], 1, pd->sizes[2], pd->sizes[3] * pd->sizes[4]};
        tsr_tensor *p4 = tsr_view_view(pd, 4, v4);
        pooled = p4 ? tsr_nn_avg_pool2d(p4, 2, ker, 2, one, 2, zero, false, true, false, 0) : NULL;
        tsr_tensor_release(p4);
        if (!pooled) goto done;
        tsr_tensor *s = tsr_view_view(pooled, dim, x->sizes);
        tsr_tensor_release(div);
        div = s;
    }
    if (!div) goto done;
    tsr_tensor *t1 = bin_s(TSR_BINOP_MUL, div, tsr_scalar_float(alpha));
    tsr_tensor *t2 = t1 ? bin_s(TSR_BINOP_ADD, t1, tsr_scalar_float(k)) : NULL;
    tsr_tensor *t3 = t2 ? bin_s(TSR_BINOP_POW, t2, tsr_scalar_float(beta)) : NULL;
    if (t3) {
        tsr_operand o3 = tsr_operand_tensor(t3);
        r = tsr_binary(TSR_BINOP_DIV, &ox, &o3, NULL, NULL);
    }
    tsr_tensor_release(t1);
    tsr_tensor_release(t2);
    tsr_tensor_release(t3);
done:
    tsr_tensor_release(sq);
    tsr_tensor_release(div);
    tsr_tensor_release(pd);
    tsr_tensor_release(pooled);
    return r;
}

/* GroupNormKernelImplChannelsLastInternal's impl-1 (HxW < 1024): per (n, g)
 * sums of x and x * x (fused) in Vectorized<T> lanes over the HxW rows, the lanes
 * added in order (vec_reduce_all), mean = sum * s, var = max(E[x^2] * s -
 * mean^2, 0) with the first product fused, bias = -scale * mean + beta
 * fused, y = x * scale + bias fused (probed against 1.13's AVX2 build). */
#define GN_CL(NAME, T, L, FMA)                                                                                   \
    static void NAME(const T *x, const T *g, const T *b, int64_t N, int64_t C, int64_t HxW, int64_t G, T eps, T *y, T *mo, T *ro) \
    {                                                                                                          \
        const int64_t D = C / G;                                                                               \
        const T s = (T)1 / (T)(D * HxW);                                                                       \
        for (int64_t n = 0; n < N; n++)                                                                        \
            for (int64_t gi = 0; gi < G; gi++) {                                                               \
                T a0[L], a1[L];                                                                                \
                for (int l = 0; l < (L); l++) a0[l] = 0, a1[l] = 0;                                            \
                for (int64_t m = 0; m < HxW; m++) {                                                            \
                    const T *xp = x + n * HxW * C + m * C + gi * D;                                            \
                    for (int64_t d = 0; d < D; d += (L))                                                       \
                        for (int l = 0; l < (L) && d + l < D; l++) {                                           \
                            const T v = xp[d + l];                                                             \
                            a0[l] = a0[l] + v;                                                                 \
                            a1[l] = FMA(v, v, a1[l]);                                                          \
                        }                                                                                      \
                }                                                                                              \
                T r0 = a0[0], r1 = a1[0];                                                                      \
                for (int l = 1; l < (L); l++) r0 = r0 + a0[l], r1 = r1 + a1[l];                                \
                const T mean = r0 * s;                                                                         \
                T var = FMA(r1, s, -(mean * mean));                                                            \
                if (var < 0) var = 0;                                                                          \
                const T rstd = (T)1 / (T)sqrt((double)(var + eps));                                            \
                if (mo) mo[n * G + gi] = mean, ro[n * G + gi] = rstd;                                          \
                for (int64_t d = 0; d < D; d++) {                                                              \
                    const int64_t c = gi * D + d;                                                              \
                    const T sc = rstd * (g ? g[c] : (T)1);                                                     \
                    const T bi = FMA(-sc, mean, b ? b[c] : (T)0);                                              \
                    for (int64_t m = 0; m < HxW; m++) {                                                        \
                        const int64_t o = n * HxW * C + m * C + c;                                             \
                        y[o] = FMA(x[o], sc, bi);                                                              \
                    }                                                                                          \
                }                                                                                              \
            }                                                                                                  \
    }

GN_CL(group_norm_cl_f32, float, 8, fmaf)
GN_CL(group_norm_cl_f64, double, 4, fma)

/* GroupNormKernelImplChannelsLastInternal's impl-2 (HxW >= 1024): the
 * N * HxW rows split as at::parallel_for splits them over nt threads, each
 * thread summing x and x * x (fused) per channel into its own (N, 2C)
 * buffer; per (n, g) the buffers added channel by channel, thread by thread
 * (all nt of them); scale and bias per (n, c), y = x * scale + bias fused. */
#define GN_CL2(NAME, T, FMA)                                                                                   \
    static void NAME(const T *x, const T *g, const T *b, int64_t N, int64_t C, int64_t HxW, int64_t G, T eps, T *y, \
                     T *mo, T *ro, int nt, T *buf, T *sb)                                                      \
    {                                                                                                          \
        const int64_t D = C / G, total = N * HxW;                                                              \
        const T s = (T)1 / (T)(D * HxW);                                                                       \
        const int64_t chunks = nt < total ? nt : total, csize = (total + chunks - 1) / chunks;                 \
        for (int64_t i = 0; i < total; i++) {                                                                  \
            T *mp = buf + (i / csize) * N * 2 * C + (i / HxW) * 2 * C, *rp = mp + C;                           \
            const T *xp = x + i * C;                                                                           \
            for (int64_t c = 0; c < C; c++) {                                                                  \
                mp[c] = xp[c] + mp[c];                                                                         \
                rp[c] = FMA(xp[c], xp[c], rp[c]);                                                              \
            }                                                                                                  \
        }                                                                                                      \
        for (int64_t n = 0; n < N; n++)                                                                        \
            for (int64_t gi = 0; gi < G; gi++) {                                                               \
                T mean = 0, var = 0;                                                                           \
                for (int64_t d = 0; d < D; d++)                                                                \
                    for (int t = 0; t < nt; t++) {                                                             \
                        const T *bp = buf + (int64_t)t * N * 2 * C + n * 2 * C;                                \
                        mean = mean + bp[gi * D + d];                                                          \
                        var = var + bp[gi * D + d + C];                                                        \
                    }                                                                                          \
                mean = mean * s;                                                                               \
                var = FMA(var, s, -(mean * mean));                                                             \
                if (var < 0) var = 0;                                                                          \
                const T rstd = (T)1 / (T)sqrt((double)(var + eps));                                            \
                if (mo) mo[n * G + gi] = mean, ro[n * G + gi] = rstd;                                          \
                for (int64_t d = 0; d < D; d++) {                                                              \
                    const int64_t c = gi * D + d;                                                              \
                    sb[n * 2 * C + c] = rstd * (g ? g[c] : (T)1);                                              \
                    sb[n * 2 * C + C + c] = FMA(-sb[n * 2 * C + c], mean, b ? b[c] : (T)0);                     \
                }                                                                                              \
            }                                                                                                  \
        for (int64_t i = 0; i < total; i++) {                                                                  \
            const T *sp = sb + (i / HxW) * 2 * C;                                                              \
            for (int64_t c = 0; c < C; c++) y[i * C + c] = FMA(x[i * C + c], sp[c], sp[C + c]);                \
        }                                                                                                      \
    }

GN_CL2(group_norm_cl2_f32, float, fmaf)
GN_CL2(group_norm_cl2_f64, double, fma)

/* For nn_norm_grad.c: the per-row mean and rstd of layer_norm's forward
 * (the same moments) over M contiguous rows of N of x (float or double as
 * d), into mean[M] and rstd[M] of that type. */
void tsr__layer_norm_stats_bf16(const tsr_bfloat16 *x, int64_t M, int64_t N, double eps, tsr_bfloat16 *mean,
                                tsr_bfloat16 *rstd)
{
    const float epsb = rbf((float)eps);
    for (int64_t i = 0; i < M; i++) {
        float m, var;
        moments_bf16(x + i * N, N, &m, &var);
        mean[i] = tsr_float_to_bfloat16(m);
        rstd[i] = tsr_float_to_bfloat16(1.0f / rbf(sqrtf(rbf(var + epsb))));
    }
}

void tsr__layer_norm_stats(tsr_dtype d, const void *x, int64_t M, int64_t N, double eps, void *mean, void *rstd)
{
    for (int64_t i = 0; i < M; i++) {
        if (d == TSR_FLOAT32) {
            float m, v;
            moments_f32((const float *)x + i * N, N, &m, &v);
            ((float *)mean)[i] = m;
            ((float *)rstd)[i] = (float)1 / (float)sqrt((double)(v + (float)eps));
        } else {
            double m, v;
            moments_f64((const double *)x + i * N, N, &m, &v);
            ((double *)mean)[i] = m;
            ((double *)rstd)[i] = 1.0 / sqrt(v + eps);
        }
    }
}
