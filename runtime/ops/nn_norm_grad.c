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
#include "copy.h"
#include "factory.h"
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
    tsr_dtype d = x->dtype;
    if (d != TSR_FLOAT32 && d != TSR_FLOAT64) {
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
