/* runtime/ops/nn_norm_grad.c — the gradients of the normalization layers
 * as 1.13's CPU kernels compute them. layer_norm: LayerNormBackwardKernel-
 * ImplInternal (layer_norm_kernel.cpp): dgamma and dbeta summed per thread
 * over the rows parallel_for gives it, then the thread buffers added in
 * order; dX from the row sums ds, db reduced in Vectorized<T> lanes
 * (map*_reduce_all, then vec_reduce_all: lanes in order for double, the
 * AVX2 shuffle tree for float). The multiply-adds are fused where GCC
 * contracts 1.13's AVX2 build (probed against it as nn_norm.c's forward). */
#include <math.h>
#include <string.h>

#include "nn_norm_grad.h"
#include "nn.h"
#include "copy.h"
#include "factory.h"
#include "reduce.h"
#include "../error.h"
#include "../internal.h"
#include "../iter.h"

/* vec_reduce_all over a full Vectorized<T> of L lanes: AVX2's shuffle tree
 * for float (VecReduceAllSIMD<float>), lanes in order otherwise. */
static float lanes_f32(const float *a)
{
    return ((a[0] + a[4]) + (a[2] + a[6])) + ((a[1] + a[5]) + (a[3] + a[7]));
}
static double lanes_f64(const double *a) { return ((a[0] + a[1]) + a[2]) + a[3]; }

/* map*_reduce_all with the sum as reduction: MAP(j) is lane j's term, ACC(acc, j) adds term j
 * to acc (fused where the map is a product); fewer than L elements: the
 * terms added in order. */
#define REDUCE(T, L, LANES, N, MAP, ACC, OUT)                                                                   \
    do {                                                                                                       \
        if ((N) < (L)) {                                                                                       \
            T r_ = MAP(0);                                                                                     \
            for (int64_t j_ = 1; j_ < (N); j_++) r_ = r_ + MAP(j_);                                            \
            OUT = r_;                                                                                          \
            break;                                                                                             \
        }                                                                                                      \
        T acc_[L];                                                                                             \
        for (int l_ = 0; l_ < (L); l_++) acc_[l_] = MAP(l_);                                                   \
        int64_t d_ = (L);                                                                                      \
        for (; d_ < (N) - (N) % (L); d_ += (L))                                                                \
            for (int l_ = 0; l_ < (L); l_++) acc_[l_] = ACC(acc_[l_], d_ + l_);                                \
        for (int l_ = 0; d_ + l_ < (N); l_++) acc_[l_] = ACC(acc_[l_], d_ + l_);                               \
        OUT = LANES(acc_);                                                                                     \
    } while (0)

/* a fused multiply-add in the operands' type */
#define FMA(a, b, c) _Generic((a) + (b) + (c), float: fmaf, default: fma)((a), (b), (c))

#define LN_BACKWARD(NAME, T, L, LANES)                                                                    \
    static void NAME(const T *dy, const T *x, const T *mean, const T *rstd, const T *gamma, int64_t M, int64_t N, \
                     int nthreads, T *dx, T *dgamma, T *dbeta, T *buf)                                         \
    {                                                                                                          \
        const T scale = (T)1 / (T)N;                                                                           \
        /* parallel_for(0, M, 1): min(threads, M) chunks of ceil(M / chunks) rows; one when M is 1 */       \
        int64_t chunks = M > 1 && nthreads > 1 ? (nthreads < M ? nthreads : M) : 1;                           \
        int64_t csize = (M + chunks - 1) / chunks;                                                             \
        for (int64_t i = 0; i < M; i++) {                                                                      \
            const int64_t tid = i / csize;                                                                     \
            const T *dyp = dy + i * N, *xp = x + i * N;                                                        \
            if (dgamma) {                                                                                      \
                T *bp = buf + tid * N;                                                                         \
                const T a = rstd[i], b = -a * mean[i];                                                         \
                for (int64_t j = 0; j < N; j++) bp[j] = FMA(dyp[j], FMA(a, xp[j], b), bp[j]);                  \
            }                                                                                                  \
            if (dbeta) {                                                                                       \
                T *bp = buf + (int64_t)nthreads * N + tid * N;                                                 \
                for (int64_t j = 0; j < N; j++) bp[j] = bp[j] + dyp[j];                                        \
            }                                                                                                  \
            if (!dx) continue;                                                                                 \
            T ds, db;                                                                                          \
            if (!gamma) {                                                                                      \
                REDUCE(T, L, LANES, N, DS0_MAP, DS0_ACC, ds);                                                  \
                REDUCE(T, L, LANES, N, DB0_MAP, DB0_ACC, db);                                                  \
            } else {                                                                                           \
                REDUCE(T, L, LANES, N, DS1_MAP, DS1_ACC, ds);                                                  \
                REDUCE(T, L, LANES, N, DB1_MAP, DB1_ACC, db);                                                  \
            }                                                                                                  \
            const T a = rstd[i];                                                                               \
            const T b = FMA(db, mean[i], -ds) * a * a * a * scale;                                             \
            const T c = FMA(-b, mean[i], -(db * a * scale));                                                   \
            T *dxp = dx + i * N;                                                                               \
            if (!gamma)                                                                                        \
                for (int64_t j = 0; j < N; j++) dxp[j] = FMA(b, xp[j], a * dyp[j]) + c;                        \
            else                                                                                               \
                for (int64_t j = 0; j < N; j++) dxp[j] = FMA(b, xp[j], a * dyp[j] * gamma[j]) + c;             \
        }                                                                                                      \
        if (dgamma || dbeta)                                                                                   \
            for (int64_t j = 0; j < N; j++) {                                                                  \
                T gv = 0, bv = 0;                                                                              \
                for (int t = 0; t < nthreads; t++) {                                                           \
                    gv = gv + buf[t * N + j];                                                                  \
                    bv = bv + buf[(int64_t)nthreads * N + t * N + j];                                          \
                }                                                                                              \
                if (dgamma) dgamma[j] = gv;                                                                    \
                if (dbeta) dbeta[j] = bv;                                                                      \
            }                                                                                                  \
    }

/* the terms of ds = sum(dy * x [* gamma]) and db = sum(dy [* gamma]) */
#define DS0_MAP(j) (dyp[j] * xp[j])
#define DS0_ACC(acc, j) FMA(dyp[j], xp[j], acc)
#define DB0_MAP(j) (dyp[j])
#define DB0_ACC(acc, j) ((acc) + dyp[j])
#define DS1_MAP(j) (dyp[j] * xp[j] * gamma[j])
#define DS1_ACC(acc, j) FMA(dyp[j] * xp[j], gamma[j], acc)
#define DB1_MAP(j) (dyp[j] * gamma[j])
#define DB1_ACC(acc, j) FMA(dyp[j], gamma[j], acc)

LN_BACKWARD(ln_backward_f32, float, 8, lanes_f32)
LN_BACKWARD(ln_backward_f64, double, 4, lanes_f64)

/* bfloat16 (functional_bfloat16.h's map*_reduce_all): the terms computed in
 * float, 16 at a time as two 8-lane float accumulators (the first 16 terms
 * start them, a partial tail is set lane by lane), added lane-wise, then
 * the 8-lane tree; fewer than 16: the two halves of one load (lanes under
 * n - 8 added) through the tree, or 8 or fewer terms added in order. */
#define BF(v) tsr_bfloat16_to_float(v)
static float bf_reduce(int64_t n, float (*term)(const void *, int64_t), const void *ctx)
{
    float a0[8], a1[8];
    if (n < 16) {
        if (n <= 8) {
            float r = term(ctx, 0);
            for (int64_t j = 1; j < n; j++) r = r + term(ctx, j);
            return r;
        }
        for (int l = 0; l < 8; l++) a0[l] = term(ctx, l);
        for (int64_t l = 0; l < n - 8; l++) a0[l] = a0[l] + term(ctx, 8 + l);
        return lanes_f32(a0);
    }
    for (int l = 0; l < 8; l++) a0[l] = term(ctx, l), a1[l] = term(ctx, 8 + l);
    int64_t d = 16;
    for (; d < n - n % 16; d += 16)
        for (int l = 0; l < 8; l++) a0[l] = a0[l] + term(ctx, d + l), a1[l] = a1[l] + term(ctx, d + 8 + l);
    if (n - d > 8) {
        for (int l = 0; l < 8; l++) a0[l] = a0[l] + term(ctx, d + l);
        for (int64_t l = 0; l < n - d - 8; l++) a1[l] = a1[l] + term(ctx, d + 8 + l);
    } else {
        for (int64_t l = 0; l < n - d; l++) a0[l] = a0[l] + term(ctx, d + l);
    }
    for (int l = 0; l < 8; l++) a0[l] = a0[l] + a1[l];
    return lanes_f32(a0);
}
typedef struct { const tsr_bfloat16 *dy, *x, *g; } bf_row;
static float bf_ds(const void *p, int64_t j)
{
    const bf_row *r = p;
    return r->g ? BF(r->dy[j]) * BF(r->x[j]) * BF(r->g[j]) : BF(r->dy[j]) * BF(r->x[j]);
}
static float bf_db(const void *p, int64_t j)
{
    const bf_row *r = p;
    return r->g ? BF(r->dy[j]) * BF(r->g[j]) : BF(r->dy[j]);
}
static inline float rbf16(float v) { return BF(tsr_float_to_bfloat16(v)); }

/* LayerNormBackwardKernelImplInternal<BFloat16>: a, b, c and the row sums
 * ds, db in float (ds, db rounded to bfloat16), dgamma / dbeta through
 * bfloat16 thread buffers, dX computed in float and rounded */
static void ln_backward_bf16(const tsr_bfloat16 *dy, const tsr_bfloat16 *x, const tsr_bfloat16 *mean,
                             const tsr_bfloat16 *rstd, const tsr_bfloat16 *gamma, int64_t M, int64_t N, int nthreads,
                             tsr_bfloat16 *dx, tsr_bfloat16 *dgamma, tsr_bfloat16 *dbeta, tsr_bfloat16 *buf)
{
    const float scale = 1.0f / (float)N;
    int64_t chunks = M > 1 && nthreads > 1 ? (nthreads < M ? nthreads : M) : 1;
    int64_t csize = (M + chunks - 1) / chunks;
    for (int64_t i = 0; i < M; i++) {
        const int64_t tid = i / csize;
        const tsr_bfloat16 *dyp = dy + i * N, *xp = x + i * N;
        const float a = BF(rstd[i]), mu = BF(mean[i]);
        if (dgamma) {
            tsr_bfloat16 *bp = buf + tid * N;
            const float b = -a * mu;
            for (int64_t j = 0; j < N; j++)
                bp[j] = tsr_float_to_bfloat16(fmaf(BF(dyp[j]), fmaf(a, BF(xp[j]), b), BF(bp[j])));
        }
        if (dbeta) {
            tsr_bfloat16 *bp = buf + (int64_t)nthreads * N + tid * N;
            for (int64_t j = 0; j < N; j++) bp[j] = tsr_float_to_bfloat16(BF(bp[j]) + BF(dyp[j]));
        }
        if (!dx) continue;
        bf_row row = {dyp, xp, gamma};
        const float ds = rbf16(bf_reduce(N, bf_ds, &row)), db = rbf16(bf_reduce(N, bf_db, &row));
        const float b = (db * mu - ds) * a * a * a * scale;
        const float c = -b * mu - db * a * scale;
        tsr_bfloat16 *dxp = dx + i * N;
        for (int64_t j = 0; j < N; j++) {
            const float t = gamma ? a * BF(dyp[j]) * BF(gamma[j]) : a * BF(dyp[j]);
            dxp[j] = tsr_float_to_bfloat16(fmaf(b, BF(xp[j]), t) + c);
        }
    }
    if (dgamma || dbeta)
        for (int64_t j = 0; j < N; j++) {
            float gv = 0, bv = 0;
            for (int t = 0; t < nthreads; t++) {
                gv = rbf16(gv + BF(buf[t * N + j]));
                bv = rbf16(bv + BF(buf[(int64_t)nthreads * N + t * N + j]));
            }
            if (dgamma) dgamma[j] = tsr_float_to_bfloat16(gv);
            if (dbeta) dbeta[j] = tsr_float_to_bfloat16(bv);
        }
}
#undef BF

static tsr_tensor *contig(const tsr_tensor *t)
{
    if (tsr_tensor_has_bits(t)) {
        tsr_tensor *r = tsr_resolve_bits(t), *c = r ? tsr_contiguous(r, TSR_MF_CONTIGUOUS) : NULL;
        tsr_tensor_release(r);
        return c;
    }
    return tsr_contiguous(t, TSR_MF_CONTIGUOUS);
}

int tsr_nn_layer_norm_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, int nshape,
                               const int64_t *shape, double eps, tsr_tensor **dx, tsr_tensor **dw, tsr_tensor **db)
{
    if (tsr__nn_on_device(x)) return tsr__layer_norm_backward_dev(g, x, w, nshape, shape, eps, dx, dw, db);
    tsr_dtype d = x->dtype;
    if (d != TSR_FLOAT32 && d != TSR_FLOAT64 && d != TSR_BFLOAT16) {
        tsr__not_implemented("LayerNormBackwardKernelImpl", d);
        return -1;
    }
    if (g->dtype != d || (w && w->dtype != d)) {
        tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(d),
                      tsr_dtype_scalar_name(g->dtype != d ? g->dtype : w->dtype));
        return -1;
    }
    int64_t N = 1, numel = tsr_tensor_numel(x);
    for (int i = 0; i < nshape; i++) N *= shape[i];
    int64_t M = N ? numel / N : 0;
    int nt = tsr_get_num_threads();
    if (nt < 1) nt = 1;
    size_t es = (size_t)tsr_tensor_itemsize(x);
    tsr_tensor *gc = contig(g), *xc = contig(x), *wc = w ? contig(w) : NULL, *rx = NULL, *rw = NULL, *rb = NULL;
    tsr_tensor *st = NULL, *bt = NULL;
    if (!gc || !xc || (w && !wc)) goto fail;
    if (dx && !(rx = tsr_tensor_empty(x->ndim, x->sizes, d, x->device))) goto fail;
    if (dw && !(rw = tsr_zeros(w->ndim, w->sizes, d, w->device))) goto fail;
    if (db && !(rb = tsr_zeros(nshape, shape, d, x->device))) goto fail;
    if (M > 0 && N > 0 && !tsr_tensor_is_meta(xc)) {
        if (tsr_check_interrupt() < 0) goto fail;
        int64_t ns = 2 * M, nb = 2 * (int64_t)nt * N;
        if (!(st = tsr_tensor_empty(1, &ns, d, TSR_CPU)) || ((dw || db) && !(bt = tsr_zeros(1, &nb, d, TSR_CPU))))
            goto fail;
        char *mean = tsr_tensor_ptr(st, NULL), *rstd = mean + (size_t)M * es;
        void *buf = bt ? tsr_tensor_ptr(bt, NULL) : NULL;
        if (d == TSR_BFLOAT16) {   /* the forward's statistics, saved in bfloat16 */
            tsr__layer_norm_stats_bf16(tsr_tensor_ptr(xc, NULL), M, N, eps, (tsr_bfloat16 *)mean,
                                       (tsr_bfloat16 *)rstd);
            ln_backward_bf16(tsr_tensor_ptr(gc, NULL), tsr_tensor_ptr(xc, NULL), (tsr_bfloat16 *)mean,
                             (tsr_bfloat16 *)rstd, wc ? tsr_tensor_ptr(wc, NULL) : NULL, M, N, nt,
                             rx ? tsr_tensor_ptr(rx, NULL) : NULL, rw ? tsr_tensor_ptr(rw, NULL) : NULL,
                             rb ? tsr_tensor_ptr(rb, NULL) : NULL, bt ? tsr_tensor_ptr(bt, NULL) : NULL);
            goto done;
        }
        tsr__layer_norm_stats(d, tsr_tensor_ptr(xc, NULL), M, N, eps, mean, rstd);
        void *pw = wc ? tsr_tensor_ptr(wc, NULL) : NULL;
        void *px = rx ? tsr_tensor_ptr(rx, NULL) : NULL, *pg = rw ? tsr_tensor_ptr(rw, NULL) : NULL;
        void *pb = rb ? tsr_tensor_ptr(rb, NULL) : NULL;
        if (d == TSR_FLOAT32)
            ln_backward_f32(tsr_tensor_ptr(gc, NULL), tsr_tensor_ptr(xc, NULL), (float *)mean, (float *)rstd, pw, M, N,
                            nt, px, pg, pb, buf);
        else
            ln_backward_f64(tsr_tensor_ptr(gc, NULL), tsr_tensor_ptr(xc, NULL), (double *)mean, (double *)rstd, pw, M,
                            N, nt, px, pg, pb, buf);
    }
done:
    tsr_tensor_release(st);
    tsr_tensor_release(bt);
    tsr_tensor_release(gc);
    tsr_tensor_release(xc);
    tsr_tensor_release(wc);
    if (dx) *dx = rx;
    if (dw) *dw = rw;
    if (db) *db = rb;
    return 0;
fail:
    tsr_tensor_release(st);
    tsr_tensor_release(bt);
    tsr_tensor_release(gc);
    tsr_tensor_release(xc);
    tsr_tensor_release(wc);
    tsr_tensor_release(rx);
    tsr_tensor_release(rw);
    tsr_tensor_release(rb);
    return -1;
}

/* ------------------------------------------------------------ batch_norm */

/* vec::reduce_all / map2_reduce_all over one plane of n: the sum of dy and
 * of (x - mean) * dy in T, in lanes as above. */
#define PLANE_SUMS(T, L, LANES, dyp, xp, mean, n, sum, dotp)                                                    \
    do {                                                                                                       \
        REDUCE(T, L, LANES, n, BN_S_MAP, BN_S_ACC, sum);                                                       \
        REDUCE(T, L, LANES, n, BN_D_MAP, BN_D_ACC, dotp);                                                      \
    } while (0)
#define BN_S_MAP(j) (dyp[j])
#define BN_S_ACC(acc, j) ((acc) + dyp[j])
#define BN_D_MAP(j) ((xp[j] - mean) * dyp[j])
#define BN_D_ACC(acc, j) FMA(xp[j] - mean, dyp[j], acc)

/* batch_norm_cpu_backward_contiguous_impl: NCHW planes (image > 1). */
#define BN_CONTIG(NAME, T, L, LANES)                                                                           \
    static void NAME(const T *dy, const T *x, const T *meanv, const T *invv, const T *wv, int64_t nb, int64_t C, \
                     int64_t image, bool train, T *dx, T *dw, T *db)                                           \
    {                                                                                                          \
        const int64_t N = nb * image;                                                                          \
        for (int64_t c = 0; c < C; c++) {                                                                      \
            const T w = wv ? wv[c] : (T)1, mean = meanv[c], invstd = invv[c];                                  \
            double sum = 0, dotp = 0;                                                                          \
            for (int64_t n = 0; n < nb; n++) {                                                                 \
                const T *xp = x + (n * C + c) * image, *dyp = dy + (n * C + c) * image;                        \
                T s, d;                                                                                        \
                PLANE_SUMS(T, L, LANES, dyp, xp, mean, image, s, d);                                           \
                sum += s;                                                                                      \
                dotp += d;                                                                                     \
            }                                                                                                  \
            if (dx) {                                                                                          \
                const T k = (T)dotp * invstd * invstd / (T)N, gm = (T)(sum / (double)N);                       \
                for (int64_t n = 0; n < nb; n++) {                                                             \
                    const T *xp = x + (n * C + c) * image, *dyp = dy + (n * C + c) * image;                    \
                    T *dxp = dx + (n * C + c) * image;                                                         \
                    for (int64_t j = 0; j < image; j++)                                                        \
                        dxp[j] = train ? FMA(-(xp[j] - mean), k, dyp[j] - gm) * invstd * w : dyp[j] * invstd * w; \
                }                                                                                              \
            }                                                                                                  \
            if (dw) dw[c] = (T)(dotp * invstd);                                                                \
            if (db) db[c] = (T)sum;                                                                            \
        }                                                                                                      \
    }

/* batch_norm_cpu_backward_channels_last_impl: rows of C (channels_last, or
 * an image of one), sums per thread chunk of rows, added in double; in dx
 * the (x - mean) * k product is fused except in double's tail of C % L
 * channels (probed against 1.13's AVX2 build). */
#define BN_CL(NAME, T, L, TAIL_FMA)                                                                                         \
    static void NAME(const T *dy, const T *x, const T *meanv, const T *invv, const T *wv, int64_t N, int64_t C, \
                     bool train, int nt, T *buf, T *dx, T *dw, T *db)                                          \
    {                                                                                                          \
        int64_t chunks = N > 1 && nt > 1 ? (nt < N ? nt : N) : 1, csize = (N + chunks - 1) / chunks;           \
        T *sums = buf, *dots = buf + (int64_t)nt * C;                                                          \
        for (int64_t i = 0; i < N; i++) {                                                                      \
            T *sp = sums + (i / csize) * C, *dp = dots + (i / csize) * C;                                      \
            const T *xp = x + i * C, *dyp = dy + i * C;                                                        \
            for (int64_t c = 0; c < C; c++) {                                                                  \
                sp[c] = sp[c] + dyp[c];                                                                        \
                dp[c] = FMA(xp[c] - meanv[c], dyp[c], dp[c]);                                                  \
            }                                                                                                  \
        }                                                                                                      \
        for (int64_t c = 0; c < C; c++) {                                                                      \
            double s = 0, d = 0;                                                                               \
            for (int t = 0; t < nt; t++) s += sums[t * C + c];                                                 \
            for (int t = 0; t < nt; t++) d += dots[t * C + c];                                                 \
            sums[c] = (T)s;                                                                                    \
            dots[c] = (T)d;                                                                                    \
        }                                                                                                      \
        if (dx)                                                                                                \
            for (int64_t i = 0; i < N; i++)                                                                    \
                for (int64_t c = 0; c < C; c++) {                                                              \
                    const T w = wv ? wv[c] : (T)1, inv = invv[c], dyv = dy[i * C + c];                        \
                    if (!train) {                                                                              \
                        dx[i * C + c] = dyv * inv * w;                                                         \
                        continue;                                                                              \
                    }                                                                                          \
                    const T k = dots[c] * inv * inv / (T)N, gm = sums[c] / (T)N;                               \
                    const T u = x[i * C + c] - meanv[c];                                                       \
                    dx[i * C + c] = (c < C - C % (L) || (TAIL_FMA) ? FMA(-u, k, dyv - gm) : dyv - gm - u * k) * inv * w; \
                }                                                                                              \
        for (int64_t c = 0; c < C; c++) {                                                                      \
            if (dw) dw[c] = dots[c] * invv[c];                                                                 \
            if (db) db[c] = sums[c];                                                                           \
        }                                                                                                      \
    }

BN_CONTIG(bn_contig_f32, float, 8, lanes_f32)
BN_CONTIG(bn_contig_f64, double, 4, lanes_f64)
BN_CL(bn_cl_f32, float, 8, true)
BN_CL(bn_cl_f64, double, 4, false)

/* batch_norm_backward_cpu_template's strided path (Normalization.cpp, built
 * without FMA): per channel, dotp summed in double over the elements in
 * order, sum = at::sum(grad) over every dim but 1. */
static int bn_generic(const tsr_tensor *g, const tsr_tensor *x, const double *meanv, const double *invv,
                      const double *wv, bool train, bool f32, tsr_tensor *dx, double *dw, double *db)
{
    int64_t C = x->sizes[1], numel = tsr_tensor_numel(x), n = numel / C;
    tsr_dims dims = {.n = 0};
    for (int d = 0; d < x->ndim; d++)
        if (d != 1) dims.d[dims.n++] = d;
    tsr_tensor *sum = tsr_sum(g, &dims, false, TSR_DTYPE_UNDEFINED, NULL);
    if (!sum) return -1;
    int64_t idx[TSR_MAX_DIMS] = {0};
    for (int64_t c = 0; c < C; c++) {
        double dotp = 0, mean = meanv[c], inv = invv[c], w = wv ? wv[c] : 1, s = tsr_tensor_get_double_at(sum, c);
        memset(idx, 0, sizeof idx);
        idx[1] = c;
        for (int64_t k = 0; k < n; k++) {
            double xi = tsr_tensor_get_double(x, idx), go = tsr_tensor_get_double(g, idx);
            dotp += f32 ? (double)(((float)xi - (float)mean) * (float)go) : (xi - mean) * go;
            for (int d = x->ndim - 1; d >= 0; d--) {
                if (d == 1) continue;
                if (++idx[d] < x->sizes[d]) break;
                idx[d] = 0;
            }
            idx[1] = c;
        }
        if (dx) {
            float kf = (float)dotp * (float)inv * (float)inv / (float)n, gmf = (float)s / (float)n;
            double kd = dotp * inv * inv / (double)n, gmd = s / (double)n;
            memset(idx, 0, sizeof idx);
            idx[1] = c;
            for (int64_t k = 0; k < n; k++) {
                double xi = tsr_tensor_get_double(x, idx), go = tsr_tensor_get_double(g, idx), r;
                if (!train) r = f32 ? (double)((float)go * (float)inv * (float)w) : go * inv * w;
                else if (f32) {
                    float gi = ((float)xi - (float)mean) * kf;
                    r = (double)(((float)go - gmf - gi) * (float)inv * (float)w);
                } else {
                    double gi = (xi - mean) * kd;
                    r = (go - gmd - gi) * inv * w;
                }
                tsr_tensor_set(dx, idx, tsr_scalar_float(r));
                for (int d = x->ndim - 1; d >= 0; d--) {
                    if (d == 1) continue;
                    if (++idx[d] < x->sizes[d]) break;
                    idx[d] = 0;
                }
                idx[1] = c;
            }
        }
        if (dw) dw[c] = f32 ? (double)(float)(dotp * (double)(float)inv) : dotp * inv;
        if (db) db[c] = s;
    }
    tsr_tensor_release(sum);
    return 0;
}


static bool contig_any(const tsr_tensor *t)
{
    return tsr_tensor_is_contiguous(t) || tsr_tensor_is_contiguous_as(t, TSR_MF_CHANNELS_LAST);
}

/* bfloat16 (batch_norm_kernel.cpp's BFloat16 backward kernels): the data
 * loaded into float lanes, sums and dot products in float (fused), the
 * lanes of a vector added in order; param_t (weight, statistics and the
 * weight / bias gradients) bfloat16 or float (the mixed type). */
static inline float bw_bf(const tsr_bfloat16 *p, int64_t i) { return tsr_bfloat16_to_float(p[i]); }
static float bw_lanes8(const float *a)
{
    float r = a[0];
    for (int l = 1; l < 8; l++) r += a[l];
    return r;
}

/* batch_norm_cpu_backward_contiguous_impl<BFloat16>: NCHW planes (image > 1) */
static void bn_contig_bf16(const tsr_bfloat16 *dy, const tsr_bfloat16 *x, const float *meanv, const float *invv,
                           const float *wv, int64_t nb, int64_t C, int64_t image, bool train, tsr_bfloat16 *dx,
                           float *dw, float *db)
{
    const int64_t N = nb * image, vend = image - image % 16;
    for (int64_t c = 0; c < C; c++) {
        const float w = wv[c], mean = meanv[c], invstd = invv[c];
        float sum = 0, dotp = 0, sv[8] = {0}, dv[8] = {0};
        for (int64_t n = 0; n < nb; n++) {
            const tsr_bfloat16 *xp = x + (n * C + c) * image, *dyp = dy + (n * C + c) * image;
            int64_t d = 0;
            for (; d < vend; d += 16)
                for (int h = 0; h < 16; h += 8)
                    for (int l = 0; l < 8; l++) {
                        const float g = bw_bf(dyp, d + h + l);
                        sv[l] += g;
                        dv[l] = fmaf(bw_bf(xp, d + h + l) - mean, g, dv[l]);
                    }
            for (; d < image; d++) {
                sum += bw_bf(dyp, d);
                dotp = fmaf(bw_bf(xp, d) - mean, bw_bf(dyp, d), dotp);
            }
        }
        sum += bw_lanes8(sv);
        dotp += bw_lanes8(dv);
        if (dx) {
            const float k = dotp * invstd * invstd / (float)N, gm = sum / (float)N;
            for (int64_t n = 0; n < nb; n++) {
                const tsr_bfloat16 *xp = x + (n * C + c) * image, *dyp = dy + (n * C + c) * image;
                tsr_bfloat16 *dxp = dx + (n * C + c) * image;
                for (int64_t j = 0; j < image; j++) {
                    const float g = bw_bf(dyp, j);
                    const float r = train ? fmaf(-(bw_bf(xp, j) - mean), k, g - gm) * invstd * w : g * invstd * w;
                    dxp[j] = tsr_float_to_bfloat16(r);
                }
            }
        }
        dw[c] = dotp * invstd;
        db[c] = sum;
    }
}

/* batch_norm_cpu_backward_channels_last_impl<BFloat16>: rows of C, float
 * sums per thread chunk of rows (added in order) */
static void bn_cl_bf16(const tsr_bfloat16 *dy, const tsr_bfloat16 *x, const float *meanv, const float *invv,
                       const float *wv, int64_t N, int64_t C, bool train, int nt, float *buf, tsr_bfloat16 *dx,
                       float *dw, float *db)
{
    int64_t chunks = N > 1 && nt > 1 ? (nt < N ? nt : N) : 1, csize = (N + chunks - 1) / chunks;
    float *sums = buf, *dots = buf + (int64_t)nt * C;
    for (int64_t i = 0; i < N; i++) {
        float *sp = sums + (i / csize) * C, *dp = dots + (i / csize) * C;
        for (int64_t c = 0; c < C; c++) {
            const float g = bw_bf(dy, i * C + c);
            sp[c] = g + sp[c];
            dp[c] = fmaf(bw_bf(x, i * C + c) - meanv[c], g, dp[c]);
        }
    }
    for (int64_t c = 0; c < C; c++) {
        float s = 0, d = 0;
        for (int t = 0; t < nt; t++) s += sums[t * C + c];
        for (int t = 0; t < nt; t++) d += dots[t * C + c];
        sums[c] = s;
        dots[c] = d;
    }
    if (dx)
        for (int64_t i = 0; i < N; i++)
            for (int64_t c = 0; c < C; c++) {
                const float w = wv[c], inv = invv[c], g = bw_bf(dy, i * C + c);
                float r;
                if (!train) r = g * inv * w;
                else {
                    const float k = dots[c] * inv * inv / (float)N, gm = sums[c] / (float)N;
                    r = fmaf(-(bw_bf(x, i * C + c) - meanv[c]), k, g - gm) * inv * w;
                }
                dx[i * C + c] = tsr_float_to_bfloat16(r);
            }
    for (int64_t c = 0; c < C; c++) {
        dw[c] = dots[c] * invv[c];
        db[c] = sums[c];
    }
}

static inline float bw_rbf(float v) { return tsr_bfloat16_to_float(tsr_float_to_bfloat16(v)); }

/* batch_norm_backward_cpu_template's strided path with scalar_t = BFloat16
 * (Normalization.cpp, built without FMA): sum = at::sum(grad) in bfloat16;
 * per channel dotp (float) += (x - mean) * dy in TensorIterator's order
 * (the input's strides first), then the pointwise steps in BFloat16's
 * operators, each rounded (pf: float parameters, whose operands are float).
 * mv / iv as param_t holds them (evaluation: invstd from the double). */
static int bn_generic_bf16(const tsr_tensor *g, const tsr_tensor *x, const float *mv, const float *iv, const float *wv,
                           bool train, bool pf, tsr_tensor *dx, float *dw, float *db)
{
    int64_t C = x->sizes[1], n = tsr_tensor_numel(x) / C;
    tsr_dims dims = {.n = 0};
    for (int d = 0; d < x->ndim; d++)
        if (d != 1) dims.d[dims.n++] = d;
    tsr_tensor *sum = tsr_sum(g, &dims, false, TSR_DTYPE_UNDEFINED, NULL);
    if (!sum) return -1;
    int perm[TSR_MAX_DIMS], np = 0;
    for (int d = x->ndim - 1; d >= 0; d--)
        if (d != 1) perm[np++] = d;
    for (int i = 1; i < np; i++)
        for (int j = i; j > 0; j--) {
            const int a = perm[j - 1], b = perm[j];   /* b before a when its strides are smaller */
            bool sw = x->strides[b] != x->strides[a] ? x->strides[b] < x->strides[a] : g->strides[b] < g->strides[a];
            if (!sw) break;
            perm[j - 1] = b, perm[j] = a;
        }
    const float nb = bw_rbf((float)n);
    for (int64_t c = 0; c < C; c++) {
        const float mean = mv[c], inv = iv[c], w = wv ? wv[c] : 1.0f;
        const float s = (float)tsr_tensor_get_double_at(sum, c);
        float dotp = 0;
        int64_t idx[TSR_MAX_DIMS] = {0};
        idx[1] = c;
        for (int64_t k = 0; k < n; k++) {
            const float xi = (float)tsr_tensor_get_double(x, idx), go = (float)tsr_tensor_get_double(g, idx);
            dotp += pf ? (xi - mean) * go : bw_rbf(bw_rbf(xi - mean) * go);
            for (int i = 0; i < np; i++) {
                if (++idx[perm[i]] < x->sizes[perm[i]]) break;
                idx[perm[i]] = 0;
            }
        }
        if (dx) {
            float kf = 0, gm = bw_rbf(s / nb);
            if (train) {
                const float dq = bw_rbf(dotp);
                kf = pf ? bw_rbf(dq * inv * inv / (float)n) : bw_rbf(bw_rbf(bw_rbf(dq * inv) * inv) / nb);
            }
            int64_t j[TSR_MAX_DIMS] = {0};
            j[1] = c;
            for (int64_t k = 0; k < n; k++) {
                const float xi = (float)tsr_tensor_get_double(x, j), go = (float)tsr_tensor_get_double(g, j);
                float r;
                if (!train) r = pf ? go * inv * w : bw_rbf(bw_rbf(go * inv) * w);
                else {
                    const float gi = pf ? bw_rbf((xi - mean) * kf) : bw_rbf(bw_rbf(xi - mean) * kf);
                    const float t = bw_rbf(bw_rbf(go - gm) - gi);
                    r = pf ? t * inv * w : bw_rbf(bw_rbf(t * inv) * w);
                }
                tsr_tensor_set(dx, j, tsr_scalar_float(r));
                for (int d = x->ndim - 1; d >= 0; d--) {
                    if (d == 1) continue;
                    if (++j[d] < x->sizes[d]) break;
                    j[d] = 0;
                }
                j[1] = c;
            }
        }
        dw[c] = dotp * inv;
        db[c] = s;
    }
    tsr_tensor_release(sum);
    return 0;
}

static int bn_backward_bf16(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *mean,
                            const tsr_tensor *invstd, bool train, tsr_tensor **dx, tsr_tensor **dw, tsr_tensor **db)
{
    int64_t C = x->sizes[1], numel = tsr_tensor_numel(x), N = C ? numel / C : 0, nb = x->sizes[0];
    int64_t image = nb && C ? numel / nb / C : 0, ns = 5 * C;
    tsr_dtype pd = w ? w->dtype : mean->dtype;   /* param_t */
    int nt = tsr_get_num_threads();
    if (nt < 1) nt = 1;
    tsr_tensor *rx = NULL, *rw = NULL, *rb = NULL, *scr = NULL, *buf = NULL;
    bool all = contig_any(x) && contig_any(g) &&
               tsr_tensor_suggest_memory_format(x) == tsr_tensor_suggest_memory_format(g) &&
               !tsr_tensor_has_bits(x) && !tsr_tensor_has_bits(g);
    tsr_memory_format mf = tsr_tensor_suggest_memory_format(x);
    if (dx && !(rx = tsr_tensor_empty_format(x->ndim, x->sizes, x->dtype, x->device, mf))) goto fail;
    if (dw && !(rw = tsr_zeros(1, &C, pd, x->device))) goto fail;
    if (db && !(rb = tsr_zeros(1, &C, pd, x->device))) goto fail;
    if (numel == 0 || tsr_tensor_is_meta(x)) goto done;
    if (tsr_check_interrupt() < 0) goto fail;
    if (!(scr = tsr_tensor_empty(1, &ns, TSR_FLOAT32, TSR_CPU))) goto fail;
    float *mv = tsr_tensor_ptr(scr, NULL), *iv = mv + C, *wv = iv + C, *gw = iv + 2 * C, *gb = iv + 3 * C;
    for (int64_t c = 0; c < C; c++) {
        mv[c] = (float)tsr_tensor_get_double_at(mean, c);
        iv[c] = (float)tsr_tensor_get_double_at(invstd, c);
        wv[c] = w ? (float)tsr_tensor_get_double_at(w, c) : 1.0f;
    }
    const tsr_bfloat16 *px = tsr_tensor_ptr(x, NULL), *pg = tsr_tensor_ptr(g, NULL);
    tsr_bfloat16 *pdx = rx ? tsr_tensor_ptr(rx, NULL) : NULL;
    if (!all) {
        /* param_t holds the statistics: evaluation's invstd rounded to it */
        const bool pf = pd == TSR_FLOAT32;
        for (int64_t c = 0; c < C && !pf; c++) mv[c] = bw_rbf(mv[c]), iv[c] = bw_rbf(iv[c]);
        if (bn_generic_bf16(g, x, mv, iv, w ? wv : NULL, train, pf, rx, gw, gb) < 0) goto fail;
    } else if (!tsr_tensor_is_contiguous(x) || image == 1) {
        int64_t nbuf = 2 * (int64_t)nt * C;
        if (!(buf = tsr_zeros(1, &nbuf, TSR_FLOAT32, TSR_CPU))) goto fail;
        bn_cl_bf16(pg, px, mv, iv, wv, N, C, train, nt, tsr_tensor_ptr(buf, NULL), pdx, gw, gb);
    } else {
        bn_contig_bf16(pg, px, mv, iv, wv, nb, C, image, train, pdx, gw, gb);
    }
    for (int64_t c = 0; c < C; c++) {   /* stored as param_t */
        if (rw) tsr_tensor_set_at(rw, c, tsr_scalar_float(gw[c]));
        if (rb) tsr_tensor_set_at(rb, c, tsr_scalar_float(gb[c]));
    }
done:
    tsr_tensor_release(scr);
    tsr_tensor_release(buf);
    if (dx) *dx = rx;
    if (dw) *dw = rw;
    if (db) *db = rb;
    return 0;
fail:
    tsr_tensor_release(scr);
    tsr_tensor_release(buf);
    tsr_tensor_release(rx);
    tsr_tensor_release(rw);
    tsr_tensor_release(rb);
    return -1;
}

int tsr_nn_batch_norm_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *mean,
                               const tsr_tensor *invstd, bool train, tsr_tensor **dx, tsr_tensor **dw, tsr_tensor **db)
{
    if (tsr__nn_on_device(x)) return tsr__batch_norm_backward_dev(g, x, w, mean, invstd, train, dx, dw, db);
    tsr_dtype d = x->dtype;
    if (d != TSR_FLOAT32 && d != TSR_FLOAT64 && d != TSR_BFLOAT16) {
        tsr__not_implemented("batch_norm_backward_cpu", d);
        return -1;
    }
    if (g->dtype != d || x->ndim < 2 || g->ndim != x->ndim) {
        tsr_error_set(TSR_ERR_RUNTIME, "batch_norm_backward: expected a gradient of the input's dtype and rank");
        return -1;
    }
    if (d == TSR_BFLOAT16) return bn_backward_bf16(g, x, w, mean, invstd, train, dx, dw, db);
    int64_t C = x->sizes[1], numel = tsr_tensor_numel(x), N = C ? numel / C : 0, nb = x->sizes[0];
    int64_t image = nb && C ? numel / nb / C : 0, ns = 5 * C;
    bool f32 = d == TSR_FLOAT32;
    int nt = tsr_get_num_threads();
    if (nt < 1) nt = 1;
    tsr_tensor *gc = NULL, *xc = NULL, *rx = NULL, *rw = NULL, *rb = NULL, *scr = NULL, *buf = NULL;
    bool all = contig_any(x) && contig_any(g) &&
               tsr_tensor_suggest_memory_format(x) == tsr_tensor_suggest_memory_format(g) &&
               !tsr_tensor_has_bits(x) && !tsr_tensor_has_bits(g);
    tsr_memory_format mf = tsr_tensor_suggest_memory_format(x);
    if (dx && !(rx = tsr_tensor_empty_format(x->ndim, x->sizes, d, x->device, mf))) goto fail;
    if (dw && !(rw = tsr_zeros(1, &C, d, x->device))) goto fail;
    if (db && !(rb = tsr_zeros(1, &C, d, x->device))) goto fail;
    if (numel == 0 || tsr_tensor_is_meta(x)) goto done;
    if (tsr_check_interrupt() < 0) goto fail;
    /* per-channel parameters in double (exact for both dtypes) */
    if (!(scr = tsr_tensor_empty(1, &ns, TSR_FLOAT64, TSR_CPU))) goto fail;
    double *mv = tsr_tensor_ptr(scr, NULL), *iv = mv + C, *wv = w ? iv + C : NULL, *gw = iv + 2 * C, *gb = iv + 3 * C;
    for (int64_t c = 0; c < C; c++) {
        mv[c] = tsr_tensor_get_double_at(mean, c);
        iv[c] = tsr_tensor_get_double_at(invstd, c);
        if (wv) wv[c] = tsr_tensor_get_double_at(w, c);
    }
    if (!all) {
        if (bn_generic(g, x, mv, iv, wv, train, f32, rx, rw ? gw : NULL, rb ? gb : NULL) < 0) goto fail;
    } else {
        bool cl = !tsr_tensor_is_contiguous(x) || image == 1;
        int64_t nbuf = 2 * (int64_t)nt * C;
        if (cl && !(buf = tsr_zeros(1, &nbuf, d, TSR_CPU))) goto fail;
        /* typed copies of the parameters and results */
        int64_t nt5 = 5 * C;
        tsr_tensor *typed = tsr_tensor_empty(1, &nt5, d, TSR_CPU);
        if (!typed) goto fail;
        char *tp = tsr_tensor_ptr(typed, NULL);
        size_t es = f32 ? 4 : 8;
        void *tm = tp, *ti = tp + C * es, *tw = tp + 2 * C * es, *tgw = tp + 3 * C * es, *tgb = tp + 4 * C * es;
        for (int64_t c = 0; c < C; c++) {
            if (f32) {
                ((float *)tm)[c] = (float)mv[c], ((float *)ti)[c] = (float)iv[c];
                ((float *)tw)[c] = wv ? (float)wv[c] : 1.0f;
            } else {
                ((double *)tm)[c] = mv[c], ((double *)ti)[c] = iv[c], ((double *)tw)[c] = wv ? wv[c] : 1.0;
            }
        }
        const void *px = tsr_tensor_ptr(x, NULL), *pg = tsr_tensor_ptr(g, NULL);
        void *pdx = rx ? tsr_tensor_ptr(rx, NULL) : NULL;
        if (cl) {
            if (f32) bn_cl_f32(pg, px, tm, ti, tw, N, C, train, nt, tsr_tensor_ptr(buf, NULL), pdx, rw ? tgw : NULL, rb ? tgb : NULL);
            else bn_cl_f64(pg, px, tm, ti, tw, N, C, train, nt, tsr_tensor_ptr(buf, NULL), pdx, rw ? tgw : NULL, rb ? tgb : NULL);
        } else {
            if (f32) bn_contig_f32(pg, px, tm, ti, tw, nb, C, image, train, pdx, rw ? tgw : NULL, rb ? tgb : NULL);
            else bn_contig_f64(pg, px, tm, ti, tw, nb, C, image, train, pdx, rw ? tgw : NULL, rb ? tgb : NULL);
        }
        for (int64_t c = 0; c < C; c++) {
            gw[c] = f32 ? ((float *)tgw)[c] : ((double *)tgw)[c];
            gb[c] = f32 ? ((float *)tgb)[c] : ((double *)tgb)[c];
        }
        tsr_tensor_release(typed);
    }
    for (int64_t c = 0; c < C; c++) {
        if (rw) tsr_tensor_set_at(rw, c, tsr_scalar_float(gw[c]));
        if (rb) tsr_tensor_set_at(rb, c, tsr_scalar_float(gb[c]));
    }
done:
    tsr_tensor_release(gc);
    tsr_tensor_release(xc);
    tsr_tensor_release(scr);
    tsr_tensor_release(buf);
    if (dx) *dx = rx;
    if (dw) *dw = rw;
    if (db) *db = rb;
    return 0;
fail:
    tsr_tensor_release(gc);
    tsr_tensor_release(xc);
    tsr_tensor_release(scr);
    tsr_tensor_release(buf);
    tsr_tensor_release(rx);
    tsr_tensor_release(rw);
    tsr_tensor_release(rb);
    return -1;
}

/* ------------------------------------------------------------ group_norm */

/* GroupNormBackwardKernelImplInternal (group_norm_kernel.cpp) over
 * contiguous (N, C, HxW): ComputeInternalGradients' per-channel ds = sum(dy
 * * x) and db = sum(dy) in L lanes (fused), the lanes added in order from 0
 * (std::accumulate), then the scalar tail; GroupNormInputBackward's
 * per-(n, g) sums of ds * gamma and db * gamma the same way, then
 * c2 = (db * mean - ds) * rstd^3 * s, c3 = -c2 * mean - db * rstd * s and
 * dX = c1 * dY + c2 * X + c3 with c1 = rstd * gamma; GammaBackward and
 * BetaBackward summed over n in order. Probed against 1.13's AVX2 build:
 * GCC vectorizes the float tails four at a time (products rounded, added
 * in order) and fuses the last ones; double's ds tail is fused, its gamma
 * tail is not (TAIL4 / GTAIL below). at::parallel_for calls the lambda
 * through two compiled copies: run on more than one thread (par), the
 * gamma tail is fused for both types (probed with 2 threads). */
#define GN_BACKWARD(NAME, T, L, TAIL4, GTAIL)                                                                          \
    static void NAME(const T *dy, const T *x, const T *mean, const T *rstd, const T *gamma, int64_t N, int64_t C, \
                     int64_t HxW, int64_t G, bool par, T *dx, T *dgamma, T *dbeta, T *ds, T *db)               \
    {                                                                                                          \
        const int64_t D = C / G, in = HxW / (L) * (L), dv = D / (L) * (L);                                    \
        for (int64_t i = 0; i < N * C; i++) {                                                                  \
            if (HxW == 0) { ds[i] = 0, db[i] = 0; continue; }   /* an empty input's data may be NULL */       \
            const T *dyp = dy + i * HxW, *xp = x + i * HxW;                                                    \
            T sv[L], bv[L], s0 = 0, b0 = 0;                                                                    \
            for (int l = 0; l < (L); l++) sv[l] = 0, bv[l] = 0;                                                \
            for (int64_t j = 0; j < in; j += (L))                                                              \
                for (int l = 0; l < (L); l++) {                                                                \
                    sv[l] = FMA(dyp[j + l], xp[j + l], sv[l]);                                                 \
                    bv[l] = bv[l] + dyp[j + l];                                                                \
                }                                                                                              \
            for (int l = 0; l < (L); l++) s0 = s0 + sv[l], b0 = b0 + bv[l];                                    \
            const int64_t q = TAIL4(in, HxW);                                                                  \
            for (int64_t j = in; j < HxW; j++) {                                                               \
                s0 = j < q ? s0 + dyp[j] * xp[j] : FMA(dyp[j], xp[j], s0);                                     \
                b0 = b0 + dyp[j];                                                                              \
            }                                                                                                  \
            ds[i] = s0;                                                                                        \
            db[i] = b0;                                                                                        \
        }                                                                                                      \
        if (dx) {                                                                                              \
            const T s = (T)1 / (T)(D * HxW);                                                                   \
            for (int64_t i = 0; i < N * G; i++) {                                                              \
                const int64_t g = i % G;                                                                       \
                const T *dsp = ds + i * D, *dbp = db + i * D;                                                  \
                T sv[L], bv[L], sa = 0, ba = 0;                                                                \
                for (int l = 0; l < (L); l++) sv[l] = 0, bv[l] = 0;                                            \
                for (int64_t j = 0; j < dv; j += (L))                                                          \
                    for (int l = 0; l < (L); l++) {                                                            \
                        const T gv = gamma ? gamma[g * D + j + l] : (T)1;                                      \
                        sv[l] = FMA(dsp[j + l], gv, sv[l]);                                                    \
                        bv[l] = FMA(dbp[j + l], gv, bv[l]);                                                    \
                    }                                                                                          \
                for (int l = 0; l < (L); l++) sa = sa + sv[l], ba = ba + bv[l];                                \
                const int64_t q = par ? dv : GTAIL(dv, D);                                                     \
                for (int64_t j = dv; j < D; j++) {                                                             \
                    const T gv = gamma ? gamma[g * D + j] : (T)1;                                              \
                    sa = j < q ? sa + dsp[j] * gv : FMA(dsp[j], gv, sa);                                       \
                    ba = j < q ? ba + dbp[j] * gv : FMA(dbp[j], gv, ba);                                       \
                }                                                                                              \
                const T r = rstd[i], m = mean[i];                                                              \
                const T c2 = FMA(ba, m, -sa) * r * r * r * s;                                                  \
                const T c3 = FMA(-c2, m, -(ba * r * s));                                                       \
                for (int64_t j = 0; j < D && HxW > 0; j++) {                                                   \
                    const T c1 = r * (gamma ? gamma[g * D + j] : (T)1);                                        \
                    const T *dyp = dy + (i * D + j) * HxW, *xp = x + (i * D + j) * HxW;                        \
                    T *dxp = dx + (i * D + j) * HxW;                                                           \
                    for (int64_t k = 0; k < HxW; k++) dxp[k] = FMA(c1, dyp[k], c2 * xp[k]) + c3;               \
                }                                                                                              \
            }                                                                                                  \
        }                                                                                                      \
        if (dgamma)                                                                                            \
            for (int64_t c = 0; c < C; c++) {                                                                  \
                T acc = 0;                                                                                     \
                for (int64_t n = 0; n < N; n++) {                                                              \
                    const int64_t i = n * G + c / D;                                                           \
                    acc = FMA(FMA(-db[n * C + c], mean[i], ds[n * C + c]), rstd[i], acc);                      \
                }                                                                                              \
                dgamma[c] = acc;                                                                               \
            }                                                                                                  \
        if (dbeta)                                                                                             \
            for (int64_t c = 0; c < C; c++) {                                                                  \
                T acc = 0;                                                                                     \
                for (int64_t n = 0; n < N; n++) acc = acc + db[n * C + c];                                     \
                dbeta[c] = acc;                                                                                \
            }                                                                                                  \
    }

/* where a scalar tail [from, to) stops adding rounded products */
#define TAIL_BY4(from, to) ((from) + ((to) - (from)) / 4 * 4)
#define TAIL_FUSED(from, to) (from)
#define TAIL_BY2(from, to) ((from) + ((to) - (from)) / 2 * 2)
GN_BACKWARD(gn_backward_f32, float, 8, TAIL_BY4, TAIL_BY4)
GN_BACKWARD(gn_backward_f64, double, 4, TAIL_FUSED, TAIL_BY2)

/* bfloat16: 1.13 runs GroupNormBackwardKernelImplInternal with T = T_ACC =
 * BFloat16, so every operation is rounded to bfloat16 (Vectorized<BFloat16>:
 * 16 lanes, computed in float and rounded; nothing fused) */
static inline float rb(float v) { return tsr_bfloat16_to_float(tsr_float_to_bfloat16(v)); }
#define B_(v) tsr_bfloat16_to_float(v)
static void gn_backward_bf16(const tsr_bfloat16 *dy, const tsr_bfloat16 *x, const tsr_bfloat16 *mean,
                             const tsr_bfloat16 *rstd, const tsr_bfloat16 *gamma, int64_t N, int64_t C, int64_t HxW,
                             int64_t G, tsr_bfloat16 *dx, tsr_bfloat16 *dgamma, tsr_bfloat16 *dbeta, float *ds,
                             float *db)
{
    enum { L = 16 };
    const int64_t D = C / G, in = HxW / L * L, dv = D / L * L;
    for (int64_t i = 0; i < N * C; i++) {
        const tsr_bfloat16 *dyp = dy + i * HxW, *xp = x + i * HxW;
        float sv[L] = {0}, bv[L] = {0}, s0 = 0, b0 = 0;
        for (int64_t j = 0; j < in; j += L)
            for (int l = 0; l < L; l++) {
                sv[l] = rb(sv[l] + rb(B_(dyp[j + l]) * B_(xp[j + l])));
                bv[l] = rb(bv[l] + B_(dyp[j + l]));
            }
        for (int l = 0; l < L; l++) s0 = rb(s0 + sv[l]), b0 = rb(b0 + bv[l]);
        for (int64_t j = in; j < HxW; j++) {
            s0 = rb(s0 + rb(B_(dyp[j]) * B_(xp[j])));
            b0 = rb(b0 + B_(dyp[j]));
        }
        ds[i] = s0;
        db[i] = b0;
    }
    if (dx) {
        const float s = rb(1.0f / rb((float)(D * HxW)));
        for (int64_t i = 0; i < N * G; i++) {
            const int64_t g = i % G;
            const float *dsp = ds + i * D, *dbp = db + i * D;
            float sv[L] = {0}, bv[L] = {0}, sa = 0, ba = 0;
            for (int64_t j = 0; j < dv; j += L)
                for (int l = 0; l < L; l++) {
                    const float gv = gamma ? B_(gamma[g * D + j + l]) : 1.0f;
                    sv[l] = rb(sv[l] + rb(dsp[j + l] * gv));
                    bv[l] = rb(bv[l] + rb(dbp[j + l] * gv));
                }
            for (int l = 0; l < L; l++) sa = rb(sa + sv[l]), ba = rb(ba + bv[l]);
            for (int64_t j = dv; j < D; j++) {
                const float gv = gamma ? B_(gamma[g * D + j]) : 1.0f;
                sa = rb(sa + rb(dsp[j] * gv));
                ba = rb(ba + rb(dbp[j] * gv));
            }
            const float r = B_(rstd[i]), m = B_(mean[i]);
            const float c2 = rb(rb(rb(rb(rb(rb(ba * m) - sa) * r) * r) * r) * s);
            const float c3 = rb(rb(-c2 * m) - rb(rb(ba * r) * s));
            for (int64_t j = 0; j < D && HxW > 0; j++) {
                const float c1 = rb(r * (gamma ? B_(gamma[g * D + j]) : 1.0f));
                const tsr_bfloat16 *dyp = dy + (i * D + j) * HxW, *xp = x + (i * D + j) * HxW;
                tsr_bfloat16 *dxp = dx + (i * D + j) * HxW;
                for (int64_t k = 0; k < HxW; k++)
                    dxp[k] = tsr_float_to_bfloat16(rb(rb(c1 * B_(dyp[k])) + rb(c2 * B_(xp[k]))) + c3);
            }
        }
    }
    if (dgamma)
        for (int64_t c = 0; c < C; c++) {
            float acc = 0;
            for (int64_t n = 0; n < N; n++) {
                const int64_t i = n * G + c / D;
                acc = rb(acc + rb(rb(ds[n * C + c] - rb(db[n * C + c] * B_(mean[i]))) * B_(rstd[i])));
            }
            dgamma[c] = tsr_float_to_bfloat16(acc);
        }
    if (dbeta)
        for (int64_t c = 0; c < C; c++) {
            float acc = 0;
            for (int64_t n = 0; n < N; n++) acc = rb(acc + db[n * C + c]);
            dbeta[c] = tsr_float_to_bfloat16(acc);
        }
}
#undef B_

int tsr_nn_group_norm_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *mean,
                               const tsr_tensor *rstd, int64_t G, tsr_tensor **dx, tsr_tensor **dw, tsr_tensor **db)
{
    if (tsr__nn_on_device(x)) return tsr__group_norm_backward_dev(g, x, w, mean, rstd, G, dx, dw, db);
    tsr_dtype d = x->dtype;
    if (d != TSR_FLOAT32 && d != TSR_FLOAT64 && d != TSR_BFLOAT16) {
        tsr__not_implemented("GroupNormBackwardKernelImpl", d);
        return -1;
    }
    if (g->dtype != d || (w && w->dtype != d) || x->ndim < 2 || G <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(d),
                      tsr_dtype_scalar_name(g->dtype != d ? g->dtype : w ? w->dtype : d));
        return -1;
    }
    if (db && !w) {   /* 1.13 allocates dbeta as empty_like(gamma) */
        tsr_error_set(TSR_ERR_RUNTIME, "tensor does not have a device");
        return -1;
    }
    int64_t N = x->sizes[0], C = x->sizes[1], HxW = 1;
    for (int i = 2; i < x->ndim; i++) HxW *= x->sizes[i];
    tsr_memory_format mf = tsr_tensor_suggest_memory_format(x);
    tsr_tensor *gc = contig(g), *xc = contig(x), *wc = w ? contig(w) : NULL, *mc = contig(mean), *rc = contig(rstd);
    tsr_tensor *rx = NULL, *rw = NULL, *rb = NULL, *scr = NULL;
    if (!gc || !xc || (w && !wc) || !mc || !rc) goto fail;
    if (dx && !(rx = tsr_tensor_empty(x->ndim, x->sizes, d, x->device))) goto fail;
    if (dw && !(rw = tsr_zeros(1, &C, d, x->device))) goto fail;
    if (db && !(rb = tsr_zeros(1, &C, d, x->device))) goto fail;
    if (N * C > 0 && !tsr_tensor_is_meta(xc)) {
        if (tsr_check_interrupt() < 0) goto fail;
        int64_t ns = 2 * N * C;
        if (!(scr = tsr_tensor_empty(1, &ns, d == TSR_BFLOAT16 ? TSR_FLOAT32 : d, TSR_CPU))) goto fail;
        char *ps = tsr_tensor_ptr(scr, NULL), *pb = ps + (size_t)(N * C) * (size_t)tsr_tensor_itemsize(x);
        void *pw = wc ? tsr_tensor_ptr(wc, NULL) : NULL, *px = rx ? tsr_tensor_ptr(rx, NULL) : NULL;
        void *pgw = rw ? tsr_tensor_ptr(rw, NULL) : NULL, *pgb = rb ? tsr_tensor_ptr(rb, NULL) : NULL;
        bool par = tsr_get_num_threads() > 1 && N * G > 1;   /* GroupNormInputBackward's parallel_for */
        if (d == TSR_BFLOAT16)
            gn_backward_bf16(tsr_tensor_ptr(gc, NULL), tsr_tensor_ptr(xc, NULL), tsr_tensor_ptr(mc, NULL),
                             tsr_tensor_ptr(rc, NULL), pw, N, C, HxW, G, px, pgw, pgb, (float *)ps,
                             (float *)ps + N * C);
        else if (d == TSR_FLOAT32)
            gn_backward_f32(tsr_tensor_ptr(gc, NULL), tsr_tensor_ptr(xc, NULL), tsr_tensor_ptr(mc, NULL),
                            tsr_tensor_ptr(rc, NULL), pw, N, C, HxW, G, par, px, pgw, pgb, (float *)ps, (float *)pb);
        else
            gn_backward_f64(tsr_tensor_ptr(gc, NULL), tsr_tensor_ptr(xc, NULL), tsr_tensor_ptr(mc, NULL),
                            tsr_tensor_ptr(rc, NULL), pw, N, C, HxW, G, par, px, pgw, pgb, (double *)ps, (double *)pb);
    }
    if (rx && mf != TSR_MF_CONTIGUOUS) {
        tsr_tensor *t = tsr_contiguous(rx, mf);
        tsr_tensor_release(rx);
        if (!(rx = t)) goto fail;
    }
    tsr_tensor_release(scr);
    tsr_tensor_release(gc);
    tsr_tensor_release(xc);
    tsr_tensor_release(wc);
    tsr_tensor_release(mc);
    tsr_tensor_release(rc);
    if (dx) *dx = rx;
    if (dw) *dw = rw;
    if (db) *db = rb;
    return 0;
fail:
    tsr_tensor_release(scr);
    tsr_tensor_release(gc);
    tsr_tensor_release(xc);
    tsr_tensor_release(wc);
    tsr_tensor_release(mc);
    tsr_tensor_release(rc);
    tsr_tensor_release(rx);
    tsr_tensor_release(rw);
    tsr_tensor_release(rb);
    return -1;
}
