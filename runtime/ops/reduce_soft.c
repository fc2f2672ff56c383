/* runtime/ops/reduce_soft.c — logsumexp (ReduceOps.cpp: amax, exp of the
 * shifted input, sum, log, add back) and softmax / log_softmax as 1.13's
 * SoftMaxKernel.cpp computes them: along the last dim the vec::reduce_all
 * orders (AVX2's shuffle tree) and Sleef's exp/log on every element; along
 * another dim per-position sums, Sleef on full 8-lane (4-lane) chunks and
 * libm on the tail; bfloat16 through 1.13's four BFloat16 schemes (below). */
#include <math.h>
#include <string.h>

#include "../error.h"
#include "../internal.h"
#include "binary.h"
#include "copy.h"
#include "nn.h"
#include "reduce.h"
#include "reduce_iter.h"
#include "sleef.h"
#include "unary.h"

tsr_tensor *tsr_logsumexp(const tsr_tensor *x, const tsr_dims *dims, bool keepdim, tsr_tensor *out)
{
    tsr_tensor *xin = NULL, *mx = NULL, *d = NULL, *r = NULL, *ms = NULL, *t = NULL;
    if (out && !tsr_dtype_is_floating(out->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "logsumexp(): Expected floating point type for result tensor, but got: %s",
                      tsr_dtype_scalar_name(out->dtype));
        return NULL;
    }
    uint64_t mask;
    if (reduce_mask(x, dims, &mask) < 0) return NULL;
    xin = tsr_dtype_is_integral(x->dtype, true) ? tsr_to_dtype(x, tsr_default_dtype(), false) : tsr_tensor_retain((tsr_tensor *)x);
    if (!xin) return NULL;
    tsr_dtype rdt = out ? out->dtype : xin->dtype;
    if (tsr_tensor_numel(xin) != 0) {
        mx = tsr_amax(xin, dims, true, true, NULL);
        if (!mx) goto done;
        if (!tsr_tensor_is_meta(mx)) {
            int64_t n = tsr_tensor_numel(mx);
            for (int64_t i = 0; i < n; i++)
                if (isinf(tsr_tensor_get_double_at(mx, i)) && tsr_tensor_set_at(mx, i, tsr_scalar_float(0)) < 0) goto done;
        }
        tsr_operand a = tsr_operand_tensor(xin), b = tsr_operand_tensor(mx);
        /* exp(self - maxes) out of place, as 1.13: an in-place exp_ of the
         * temporary would hold off Ctrl-C for the whole pass */
        t = tsr_binary(TSR_BINOP_SUB, &a, &b, NULL, NULL);
        d = t ? tsr_unary(TSR_UNOP_EXP, t, NULL, NULL) : NULL;
        tsr_tensor_release(t);
        t = NULL;
        if (!d) goto done;
        r = tsr_sum(d, dims, keepdim, rdt, out);
        if (!r || !(t = tsr_unary_(TSR_UNOP_LOG, r, NULL))) goto fail;
        tsr_tensor_release(t);
        t = NULL;
        int64_t shape[TSR_MAX_DIMS], st[TSR_MAX_DIMS];
        int n = reduce_shape(xin, mask, keepdim, shape);
        tsr_strides_contiguous(n, shape, st);
        ms = tsr_tensor_alias(mx, n, shape, st, mx->storage_offset);
        tsr_operand c = tsr_operand_tensor(ms);
        if (!ms || !(t = tsr_binary_(TSR_BINOP_ADD, r, &c, NULL))) goto fail;
        tsr_tensor_release(t);
    } else {
        d = tsr_unary(TSR_UNOP_EXP, xin, NULL, NULL);
        if (!d) goto done;
        r = tsr_sum(d, dims, keepdim, rdt, out);
        if (!r || !(t = tsr_unary_(TSR_UNOP_LOG, r, NULL))) goto fail;
        tsr_tensor_release(t);
    }
done:
    tsr_tensor_release(xin);
    tsr_tensor_release(mx);
    tsr_tensor_release(d);
    tsr_tensor_release(ms);
    return r;
fail:
    tsr_tensor_release(r);
    r = NULL;
    goto done;
}

/* ---------------------------------------------------------------- softmax */

static bool sleef_ok(void) { return tsr__sleef_usable(); }

/* vec::reduce_all with + (or max) over n floats: lanes of 8, the partial
 * tail blended in, then VecReduceAllSIMD's shuffle tree; under 8, a
 * sequential fold of lane 0. */
#define RED_ALL(name, T, W, OP, TREE)                                    \
    static T name(const T *p, int64_t n)                                 \
    {                                                                    \
        if (n < W) {                                                     \
            T a = p[0];                                                  \
            for (int64_t i = 1; i < n; i++) a = OP(a, p[i]);             \
            return a;                                                    \
        }                                                                \
        T acc[W];                                                        \
        memcpy(acc, p, sizeof acc);                                      \
        int64_t d = W;                                                   \
        for (; d < n - (n % W); d += W)                                  \
            for (int l = 0; l < W; l++) acc[l] = OP(acc[l], p[d + l]);   \
        for (int l = 0; d + l < n; l++) acc[l] = OP(acc[l], p[d + l]);   \
        return TREE(acc, OP);                                            \
    }
#define TREE8(a, OP) OP(OP(OP(a[0], a[4]), OP(a[2], a[6])), OP(OP(a[1], a[5]), OP(a[3], a[7])))
#define TREE4(a, OP) OP(OP(OP(a[0], a[1]), a[2]), a[3])
#define ADDF(a, b) ((a) + (b))
#define MAXF(a, b) (isnan(a) ? (a) : isnan(b) ? (b) : (a) > (b) ? (a) : (b))
RED_ALL(sum_all_f32, float, 8, ADDF, TREE8)
RED_ALL(max_all_f32, float, 8, MAXF, TREE8)
RED_ALL(sum_all_f64, double, 4, ADDF, TREE4)
RED_ALL(max_all_f64, double, 4, MAXF, TREE4)

static void vexp_f32(float *o, const float *i, int64_t n)
{
    if (sleef_ok()) tsr__sleef_f32(TSR_SLEEF_EXP, o, i, n);
    else for (int64_t k = 0; k < n; k++) o[k] = expf(i[k]);
}
static void vexp_f64(double *o, const double *i, int64_t n)
{
    if (sleef_ok()) tsr__sleef_f64(TSR_SLEEF_EXP, o, i, n);
    else for (int64_t k = 0; k < n; k++) o[k] = exp(i[k]);
}
static void vlog_f32(float *o, const float *i, int64_t n)
{
    if (sleef_ok()) tsr__sleef_f32(TSR_SLEEF_LOG, o, i, n);
    else for (int64_t k = 0; k < n; k++) o[k] = logf(i[k]);
}
static void vlog_f64(double *o, const double *i, int64_t n)
{
    if (sleef_ok()) tsr__sleef_f64(TSR_SLEEF_LOG, o, i, n);
    else for (int64_t k = 0; k < n; k++) o[k] = log(i[k]);
}

/* One dtype's kernels: last dim (rows of n) and other dims (outer x dim x
 * inner). buf: scratch of n (last) or dim (other) elements. */
#define SOFT_KERNELS(sfx, T, W, EXPS, SUMALL, MAXALL, VEXP, VLOG)                                        \
    static void last_##sfx(T *out, const T *in, int64_t rows, int64_t n, bool lg)                          \
    {                                                                                                      \
        for (int64_t r = 0; r < rows; r++) {                                                               \
            const T *x = in + r * n;                                                                       \
            T *o = out + r * n;                                                                            \
            T mx = MAXALL(x, n);                                                                           \
            for (int64_t i = 0; i < n; i++) o[i] = x[i] - mx;                                              \
            VEXP(o, o, n);                                                                                 \
            T s = SUMALL(o, n);                                                                            \
            if (lg) {                                                                                      \
                VLOG(&s, &s, 1);                                                                           \
                for (int64_t i = 0; i < n; i++) o[i] = x[i] - mx - s;                                      \
            } else {                                                                                       \
                T inv = 1 / s;                                                                             \
                for (int64_t i = 0; i < n; i++) o[i] = o[i] * inv;                                         \
            }                                                                                              \
        }                                                                                                  \
    }                                                                                                      \
    static void other_##sfx(T *out, const T *in, int64_t outer, int64_t dim, int64_t inner, bool lg)       \
    {                                                                                                      \
        int64_t vec_end = inner - inner % W;                                                               \
        for (int64_t a = 0; a < outer; a++)                                                                \
            for (int64_t k = 0; k < inner; k++) {                                                          \
                const T *x = in + a * dim * inner + k;                                                     \
                T *o = out + a * dim * inner + k;                                                          \
                bool vec = k < vec_end;                                                                    \
                T mx;                                                                                      \
                if (lg) {                                                                                  \
                    mx = -INFINITY;                                                                        \
                    for (int64_t d = 0; d < dim; d++) mx = x[d * inner] > mx ? x[d * inner] : mx;          \
                } else {                                                                                   \
                    mx = x[0];                                                                             \
                    for (int64_t d = 1; d < dim; d++)                                                      \
                        mx = vec ? MAXF(mx, x[d * inner]) : (mx < x[d * inner] ? x[d * inner] : mx);       \
                }                                                                                          \
                T s = 0;                                                                                   \
                for (int64_t d = 0; d < dim; d++) {                                                        \
                    T e = x[d * inner] - mx;                                                               \
                    if (vec) VEXP(&e, &e, 1); else e = EXPS(e);                                            \
                    if (!lg) o[d * inner] = e;                                                             \
                    s += e;                                                                                \
                }                                                                                          \
                if (lg) {                                                                                  \
                    VLOG(&s, &s, 1);                                                                       \
                    for (int64_t d = 0; d < dim; d++) o[d * inner] = x[d * inner] - mx - s;                \
                } else {                                                                                   \
                    for (int64_t d = 0; d < dim; d++) o[d * inner] = o[d * inner] / s;                     \
                }                                                                                          \
            }                                                                                              \
    }
SOFT_KERNELS(f32, float, 8, expf, sum_all_f32, max_all_f32, vexp_f32, vlog_f32)
SOFT_KERNELS(f64, double, 4, exp, sum_all_f64, max_all_f64, vexp_f64, vlog_f64)

/* ------------------------------------------------------- bfloat16 softmax */
/* 1.13's bfloat16 paths, each a different scheme:
 *  - softmax, last dim: the BFloat16 specialisation of _vec_softmax_lastdim
 *    (input cached as float, max over 16-wide chunks, Sleef exp over 8-wide
 *    chunks summed lane-wise and reduced by the shuffle tree, expf and a
 *    sequential sum on the tail, out = e * (1 / sum) rounded once);
 *  - log_softmax, last dim: the generic kernel through functional_bfloat16's
 *    reduce_all / map_reduce_all (sum of exp rounded to bfloat16, its log
 *    rounded again, then (x - max) - log in float);
 *  - softmax, other dim: _vec_softmax<BFloat16> (16 inner positions at a
 *    time in float, e / sum per lane; on the inner tail the exp is rounded
 *    to bfloat16 before the division);
 *  - log_softmax, other dim: _vec_logsoftmax<BFloat16>, float buffers over
 *    inner chunks, including 1.13's slip that stores the max of lanes 0-7 of
 *    each 16-wide group over lanes 8-15 too (so those lanes can overflow to
 *    -inf exactly as 1.13's do). */
#define BF_W 16 /* Vectorized<BFloat16>::size() under AVX2 */
static float bf2f(tsr_bfloat16 b) { return tsr_bfloat16_to_float(b); }
static tsr_bfloat16 f2bf(float f) { return tsr_float_to_bfloat16(f); }
/* convert_float_bfloat16 (the AVX2 store): NaN becomes 0xffff, where the
 * scalar BFloat16(float) gives 0x7fc0 */
static tsr_bfloat16 f2bfv(float f) { return isnan(f) ? 0xffff : tsr_float_to_bfloat16(f); }
static float seqfold(const float *a, int64_t n, bool sum)
{
    float r = a[0];
    for (int64_t i = 1; i < n; i++) r = sum ? r + a[i] : MAXF(r, a[i]);
    return r;
}

/* functional_bfloat16's reduce_all (sum false: maximum) and map_reduce_all
 * with map exp(x - mx), + (sum true) over n bfloat16. */
static float bf_reduce(const tsr_bfloat16 *p, int64_t n, float mx, bool sum)
{
    float f[BF_W], a0[8], a1[8];
#define BF_LOAD(src, cnt)                                                      \
    do {                                                                       \
        for (int l = 0; l < BF_W; l++) f[l] = l < (cnt) ? bf2f((src)[l]) : 0;  \
        if (sum) {                                                             \
            for (int l = 0; l < BF_W; l++) f[l] -= mx;                         \
            vexp_f32(f, f, BF_W);                                              \
        }                                                                      \
    } while (0)
#define BF_OP(a, b) (sum ? (a) + (b) : MAXF(a, b))
    if (n < BF_W) {
        BF_LOAD(p, n);
        if (n > 8) {
            for (int l = 0; l < n - 8; l++) f[l] = BF_OP(f[l], f[l + 8]);
            return seqfold(f, 8, sum);
        }
        return seqfold(f, n, sum);
    }
    BF_LOAD(p, BF_W);
    memcpy(a0, f, sizeof a0);
    memcpy(a1, f + 8, sizeof a1);
    int64_t d = BF_W;
    for (; d < n - n % BF_W; d += BF_W) {
        BF_LOAD(p + d, BF_W);
        for (int l = 0; l < 8; l++) {
            a0[l] = BF_OP(a0[l], f[l]);
            a1[l] = BF_OP(a1[l], f[l + 8]);
        }
    }
    int64_t rem = n - d;
    if (rem > 0) {
        BF_LOAD(p + d, rem);
        if (rem > 8) {
            for (int l = 0; l < 8; l++) a0[l] = BF_OP(a0[l], f[l]);
            for (int l = 0; l < rem - 8; l++) a1[l] = BF_OP(a1[l], f[l + 8]);
        } else {
            for (int l = 0; l < rem; l++) a0[l] = BF_OP(a0[l], f[l]);
        }
    }
    for (int l = 0; l < 8; l++) a0[l] = BF_OP(a0[l], a1[l]);
    return sum ? TREE8(a0, ADDF) : TREE8(a0, MAXF);
#undef BF_OP
#undef BF_LOAD
}

/* _vec_logsoftmax<BFloat16>'s inner chunk: 128 KiB of bfloat16 rows, whole
 * 16-wide groups */
static int64_t bf_chunk(int64_t dim)
{
    int64_t chunk = 131072 / dim / (int64_t)sizeof(tsr_bfloat16);
    if (chunk < BF_W) chunk = BF_W;
    return chunk / BF_W * BF_W;
}

/* buf: n floats (softmax; unused by log_softmax) */
static void last_bf16(tsr_bfloat16 *out, const tsr_bfloat16 *in, int64_t rows, int64_t n, bool lg, float *buf)
{
    for (int64_t r = 0; r < rows; r++) {
        const tsr_bfloat16 *x = in + r * n;
        tsr_bfloat16 *o = out + r * n;
        if (lg) {
            float mx = bf2f(f2bf(bf_reduce(x, n, 0, false)));
            float s = bf2f(f2bf(bf_reduce(x, n, mx, true)));
            vlog_f32(&s, &s, 1);
            s = bf2f(f2bf(s));
            for (int64_t i = 0; i < n; i++) o[i] = f2bfv(bf2f(x[i]) - mx - s);
            continue;
        }
        float mv[8], mx;
        for (int l = 0; l < 8; l++) mv[l] = -INFINITY;
        int64_t d = 0;
        for (; d < n - n % BF_W; d += BF_W)
            for (int l = 0; l < BF_W; l++) {
                buf[d + l] = bf2f(x[d + l]);
                mv[l % 8] = MAXF(mv[l % 8], buf[d + l]);
            }
        mx = TREE8(mv, MAXF);
        for (; d < n; d++) {
            buf[d] = bf2f(x[d]);
            mx = mx < buf[d] ? buf[d] : mx;
        }
        int64_t vend = n - n % 8;
        for (d = 0; d < vend; d++) buf[d] -= mx;
        vexp_f32(buf, buf, vend);
        float sv[8] = {0};
        for (d = 0; d < vend; d++) sv[d % 8] += buf[d];
        float s = TREE8(sv, ADDF);
        for (; d < n; d++) {
            buf[d] = expf(buf[d] - mx);
            s += buf[d];
        }
        s = 1 / s;
        for (d = 0; d < n; d++) o[d] = d < n - n % BF_W ? f2bfv(buf[d] * s) : f2bf(buf[d] * s);
    }
}

/* buf: dim * 16 floats (softmax) or 2 * chunk + dim * chunk (log_softmax) */
static void other_bf16(tsr_bfloat16 *out, const tsr_bfloat16 *in, int64_t outer, int64_t dim, int64_t inner,
                       bool lg, float *buf)
{
    if (!lg) {
        for (int64_t a = 0; a < outer; a++) {
            int64_t k = 0;
            for (; k + BF_W <= inner; k += BF_W) {
                const tsr_bfloat16 *x = in + a * dim * inner + k;
                tsr_bfloat16 *o = out + a * dim * inner + k;
                float mx[BF_W], s[BF_W] = {0};
                for (int l = 0; l < BF_W; l++) mx[l] = buf[l] = bf2f(x[l]);
                for (int64_t d = 1; d < dim; d++)
                    for (int l = 0; l < BF_W; l++) {
                        float v = buf[d * BF_W + l] = bf2f(x[d * inner + l]);
                        mx[l] = MAXF(mx[l], v);
                    }
                for (int64_t d = 0; d < dim; d++)
                    for (int l = 0; l < BF_W; l++) buf[d * BF_W + l] -= mx[l];
                vexp_f32(buf, buf, dim * BF_W);
                for (int64_t d = 0; d < dim; d++)
                    for (int l = 0; l < BF_W; l++) s[l] = s[l] + buf[d * BF_W + l];
                for (int64_t d = 0; d < dim; d++)
                    for (int l = 0; l < BF_W; l++) o[d * inner + l] = f2bfv(buf[d * BF_W + l] / s[l]);
            }
            for (; k < inner; k++) {
                const tsr_bfloat16 *x = in + a * dim * inner + k;
                tsr_bfloat16 *o = out + a * dim * inner + k;
                float mx = bf2f(x[0]), s = 0;
                for (int64_t d = 1; d < dim; d++) {
                    float v = bf2f(x[d * inner]);
                    mx = mx < v ? v : mx;
                }
                for (int64_t d = 0; d < dim; d++) {
                    float e = expf(bf2f(x[d * inner]) - mx);
                    s += e;
                    o[d * inner] = f2bf(e);
                }
                for (int64_t d = 0; d < dim; d++) o[d * inner] = f2bf(bf2f(o[d * inner]) / s);
            }
        }
        return;
    }
    int64_t chunk = bf_chunk(dim);
    float *mxb = buf, *sm = buf + chunk, *xb = buf + 2 * chunk;
    for (int64_t a = 0; a < outer; a++)
        for (int64_t b = 0; b < inner; b += chunk) {
            int64_t size = inner - b < chunk ? inner - b : chunk, vend = size - size % BF_W;
            for (int64_t i = 0; i < size; i++) {
                mxb[i] = -INFINITY;
                sm[i] = 0;
            }
            for (int64_t d = 0; d < dim; d++) {
                const tsr_bfloat16 *x = in + (a * dim + d) * inner + b;
                float *xr = xb + d * chunk;
                int64_t i = 0;
                for (; i < vend; i += BF_W) {
                    float m0[8];
                    for (int l = 0; l < BF_W; l++) xr[i + l] = bf2f(x[i + l]);
                    for (int l = 0; l < 8; l++) m0[l] = xr[i + l] > mxb[i + l] ? xr[i + l] : mxb[i + l];
                    for (int l = 0; l < 8; l++) mxb[i + l] = mxb[i + 8 + l] = m0[l];
                }
                for (; i < size; i++) {
                    xr[i] = bf2f(x[i]);
                    mxb[i] = xr[i] > mxb[i] ? xr[i] : mxb[i];
                }
            }
            float *t = xb + dim * chunk; /* one more row of scratch */
            for (int64_t d = 0; d < dim; d++) {
                const float *xr = xb + d * chunk;
                for (int64_t i = 0; i < vend; i++) t[i] = xr[i] - mxb[i];
                vexp_f32(t, t, vend);
                for (int64_t i = 0; i < vend; i++) sm[i] += t[i];
                for (int64_t i = vend; i < size; i++) sm[i] += expf(xr[i] - mxb[i]);
            }
            vlog_f32(sm, sm, size);
            for (int64_t d = 0; d < dim; d++) {
                const float *xr = xb + d * chunk;
                tsr_bfloat16 *o = out + (a * dim + d) * inner + b;
                for (int64_t i = 0; i < size; i++) o[i] = i < vend ? f2bfv(xr[i] - mxb[i] - sm[i]) : f2bf(xr[i] - mxb[i] - sm[i]);
            }
        }
}

static float *bf16_scratch(int64_t dim, bool last, bool lg)
{
    int64_t n = last ? dim : !lg ? dim * BF_W : (dim + 3) * bf_chunk(dim);
    return tsr_malloc((size_t)n * sizeof(float));
}

tsr_tensor *tsr_softmax(const tsr_tensor *x, int64_t dim, tsr_dtype dtype, bool lg)
{
    tsr_tensor *in = NULL, *c = NULL, *r = NULL;
    in = dtype != TSR_DTYPE_UNDEFINED ? tsr_to_dtype(x, dtype, false) : tsr_tensor_retain((tsr_tensor *)x);
    if (!in) return NULL;
    int nd = in->ndim ? in->ndim : 1;
    if (dim < -nd || dim >= nd) {
        tsr_error_set(TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %lld)",
                      -nd, nd - 1, (long long)dim);
        goto done;
    }
    if (dim < 0) dim += nd;
    bool last = dim == nd - 1;
    const char *kname = last ? (lg ? "log_softmax_lastdim_kernel_impl" : "softmax_lastdim_kernel_impl")
                             : "softmax_kernel_impl";
    r = tsr_tensor_empty(in->ndim, in->sizes, in->dtype, in->device);
    if (!r || tsr_tensor_numel(in) == 0 || tsr_tensor_is_meta(in)) goto done;
    if (tsr__nn_on_device(in)) {   /* cuda: composed, float16 too (nn_dev.c) */
        tsr_tensor_release(r);
        r = tsr__softmax_dev(in, dim, lg);
        goto done;
    }
    if (in->dtype != TSR_FLOAT32 && in->dtype != TSR_FLOAT64 && in->dtype != TSR_BFLOAT16) {
        tsr__not_implemented(kname, in->dtype);
        tsr_tensor_release(r);
        r = NULL;
        goto done;
    }
    c = tsr_contiguous(in, TSR_MF_CONTIGUOUS);
    if (!c) goto fail;
    int64_t outer = 1, inner = 1, size = in->ndim ? in->sizes[dim] : 1;
    for (int d = 0; d < (int)dim; d++) outer *= in->sizes[d];
    for (int d = (int)dim + 1; d < in->ndim; d++) inner *= in->sizes[d];
    void *o = tsr_tensor_ptr(r, NULL), *i = tsr_tensor_ptr(c, NULL);
    if (in->dtype == TSR_BFLOAT16) {
        float *buf = bf16_scratch(size, last, lg);
        if (!buf) goto fail;
        if (last) last_bf16(o, i, outer, size, lg, buf);
        else other_bf16(o, i, outer, size, inner, lg, buf);
        tsr_free(buf);
    } else if (in->dtype == TSR_FLOAT32) {
        if (last) last_f32(o, i, outer, size, lg);
        else other_f32(o, i, outer, size, inner, lg);
    } else {
        if (last) last_f64(o, i, outer, size, lg);
        else other_f64(o, i, outer, size, inner, lg);
    }
    if (tsr_check_interrupt() < 0) goto fail;
done:
    tsr_tensor_release(in);
    tsr_tensor_release(c);
    return r;
fail:
    tsr_tensor_release(r);
    r = NULL;
    goto done;
}

/* --------------------------------------------- bfloat16 softmax backward */
/* _softmax_backward_data / _log_softmax_backward_data on bfloat16, as
 * 1.13's SoftMaxKernel.cpp computes them:
 *  - last dim: _vec_host_softmax_backward_lastdim through functional_bfloat16
 *    (the sum of grad, or of grad * output, accumulated in float over
 *    16-wide groups and rounded to bfloat16; then grad - exp(output) * sum,
 *    or (grad - sum) * output, in float, rounded once);
 *  - another dim: the BFloat16 specialisations of _vec_softmax_backward and
 *    _vec_log_softmax_backward (per-position float sums over the dim, the
 *    same formulas in float; Sleef's exp on the 16-wide groups of each inner
 *    chunk, libm's on its tail). */
/* 1.13's AVX2 kernels are built with -mfma, and GCC contracts their
 * a + b * c and a - b * c (vector and scalar) into fused multiply-adds; its
 * DEFAULT kernels (a CPU without AVX2, where tsr keeps libm) do not. fm:
 * sleef_ok() */
#define MULADD(a, b, c) (fm ? fmaf(a, b, c) : (a) * (b) + (c))
#define MULSUB(c, a, b) (fm ? fmaf(-(a), b, c) : (c) - (a) * (b))

/* functional_bfloat16's reduce_all (mul false) or map2_reduce_all with
 * x * y (mul true) and +, over n elements; the float result */
static float bf_sum2(const tsr_bfloat16 *g, const tsr_bfloat16 *y, int64_t n, bool mul)
{
    float f[BF_W], a0[8], a1[8];
#define BF_LOAD2(off, cnt)                                                                   \
    do {                                                                                     \
        for (int l = 0; l < BF_W; l++)                                                       \
            f[l] = l < (cnt) ? bf2f(g[(off) + l]) * (mul ? bf2f(y[(off) + l]) : 1.f) : 0;    \
    } while (0)
    if (n < BF_W) {
        BF_LOAD2(0, n);
        if (n > 8) {
            for (int l = 0; l < n - 8; l++) f[l] = f[l] + f[l + 8];
            return seqfold(f, 8, true);
        }
        return seqfold(f, n, true);
    }
    BF_LOAD2(0, BF_W);
    memcpy(a0, f, sizeof a0);
    memcpy(a1, f + 8, sizeof a1);
    int64_t d = BF_W;
    for (; d < n - n % BF_W; d += BF_W) {
        BF_LOAD2(d, BF_W);
        for (int l = 0; l < 8; l++) {
            a0[l] = a0[l] + f[l];
            a1[l] = a1[l] + f[l + 8];
        }
    }
    int64_t rem = n - d;
    if (rem > 0) {
        BF_LOAD2(d, rem);
        if (rem > 8) {
            for (int l = 0; l < 8; l++) a0[l] = a0[l] + f[l];
            for (int l = 0; l < rem - 8; l++) a1[l] = a1[l] + f[l + 8];
        } else {
            for (int l = 0; l < rem; l++) a0[l] = a0[l] + f[l];
        }
    }
    for (int l = 0; l < 8; l++) a0[l] = a0[l] + a1[l];
    return TREE8(a0, ADDF);
#undef BF_LOAD2
}

/* buf: n floats */
static void last_bf16_bw(tsr_bfloat16 *gi, const tsr_bfloat16 *g, const tsr_bfloat16 *y, int64_t rows, int64_t n,
                         bool lg, float *buf)
{
    bool fm = sleef_ok();
    for (int64_t r = 0; r < rows; r++, gi += n, g += n, y += n) {
        float s = bf2f(f2bf(bf_sum2(g, y, n, !lg)));
        if (lg) {
            for (int64_t i = 0; i < n; i++) buf[i] = bf2f(y[i]);
            vexp_f32(buf, buf, n);
            for (int64_t i = 0; i < n; i++) gi[i] = f2bfv(MULSUB(bf2f(g[i]), buf[i], s));
        } else {
            for (int64_t i = 0; i < n; i++) gi[i] = f2bfv((bf2f(g[i]) - s) * bf2f(y[i]));
        }
    }
}

/* buf: chunk floats */
static void other_bf16_bw(tsr_bfloat16 *gi, const tsr_bfloat16 *g, const tsr_bfloat16 *y, int64_t outer, int64_t dim,
                          int64_t inner, bool lg, float *buf)
{
    int64_t chunk = bf_chunk(dim);
    float *sm = buf, *t = buf + chunk;
    bool fm = sleef_ok();
    for (int64_t a = 0; a < outer; a++)
        for (int64_t b = 0; b < inner; b += chunk) {
            int64_t size = inner - b < chunk ? inner - b : chunk, vend = size - size % BF_W;
            for (int64_t i = 0; i < size; i++) sm[i] = 0;
            for (int64_t d = 0; d < dim; d++) {
                int64_t off = (a * dim + d) * inner + b;
                for (int64_t i = 0; i < size; i++)
                    sm[i] = lg ? sm[i] + bf2f(g[off + i]) : MULADD(bf2f(g[off + i]), bf2f(y[off + i]), sm[i]);
            }
            for (int64_t d = 0; d < dim; d++) {
                int64_t off = (a * dim + d) * inner + b;
                if (lg) {
                    for (int64_t i = 0; i < vend; i++) t[i] = bf2f(y[off + i]);
                    vexp_f32(t, t, vend);
                    for (int64_t i = vend; i < size; i++) t[i] = expf(bf2f(y[off + i]));
                    for (int64_t i = 0; i < size; i++) {
                        float v = MULSUB(bf2f(g[off + i]), t[i], sm[i]);
                        gi[off + i] = i < vend ? f2bfv(v) : f2bf(v);
                    }
                } else {
                    for (int64_t i = 0; i < size; i++) {
                        float v = bf2f(y[off + i]) * (bf2f(g[off + i]) - sm[i]);
                        gi[off + i] = i < vend ? f2bfv(v) : f2bf(v);
                    }
                }
            }
        }
}


/* ------------------------------------------- float32 / float64 backward */
/* 1.13's _softmax_backward_data / _log_softmax_backward_data on the CPU
 * (SoftMaxKernel.cpp, AVX2 build: GCC contracts a + b * c into an fma):
 *  - last dim, _vec_host_softmax_backward_lastdim: the row's sum by
 *    map2_reduce_all (g * y, +: the first W products as they are, the others
 *    fused into the W lanes, a partial tail into its lanes, then the
 *    reduce tree; under W a sequential fold) or reduce_all (g, +), then
 *    (g - sum) * y or g - exp(y) * sum (fused, Sleef's exp on every element);
 *  - another dim, _vec_softmax_backward / _vec_log_softmax_backward: per
 *    inner position a sum over the dim in chunks of the inner positions
 *    (fused g * y, vector and scalar alike), then y * (g - sum) or
 *    g - exp(y) * sum (Sleef's exp on whole W-lane chunks, libm's on the tail). */
#define SOFT_BW(sfx, T, W, FMA, EXPS, VEXP, TREE)                                                            \
    static T map2_sum_##sfx(const T *g, const T *y, int64_t n, bool fm)                                      \
    {                                                                                                        \
        if (n < W) {                                                                                         \
            T a = g[0] * y[0];                                                                               \
            for (int64_t i = 1; i < n; i++) a = a + g[i] * y[i];                                             \
            return a;                                                                                        \
        }                                                                                                    \
        T acc[W];                                                                                            \
        for (int l = 0; l < W; l++) acc[l] = g[l] * y[l];                                                    \
        int64_t d = W;                                                                                       \
        for (; d < n - (n % W); d += W)                                                                      \
            for (int l = 0; l < W; l++) acc[l] = fm ? FMA(g[d + l], y[d + l], acc[l]) : acc[l] + g[d + l] * y[d + l]; \
        for (int l = 0; d + l < n; l++) acc[l] = fm ? FMA(g[d + l], y[d + l], acc[l]) : acc[l] + g[d + l] * y[d + l]; \
        return TREE(acc, ADDF);                                                                              \
    }                                                                                                        \
    static void last_bw_##sfx(T *gi, const T *g, const T *y, int64_t rows, int64_t n, bool lg, T *buf)       \
    {                                                                                                        \
        bool fm = sleef_ok();                                                                                \
        for (int64_t r = 0; r < rows; r++, gi += n, g += n, y += n) {                                        \
            if (lg) {                                                                                        \
                T s = sum_all_##sfx(g, n);                                                                   \
                VEXP(buf, y, n);                                                                             \
                for (int64_t i = 0; i < n; i++) gi[i] = fm ? FMA(-buf[i], s, g[i]) : g[i] - buf[i] * s;      \
            } else {                                                                                         \
                T s = map2_sum_##sfx(g, y, n, fm);                                                           \
                for (int64_t i = 0; i < n; i++) gi[i] = (g[i] - s) * y[i];                                   \
            }                                                                                                \
        }                                                                                                    \
    }                                                                                                        \
    static void other_bw_##sfx(T *gi, const T *g, const T *y, int64_t outer, int64_t dim, int64_t inner,     \
                               bool lg, T *buf)                                                              \
    {                                                                                                        \
        int64_t chunk = 131072 / dim / (int64_t)sizeof(T);                                                   \
        if (chunk < W) chunk = W;                                                                            \
        chunk = chunk / W * W;                                                                               \
        T *sm = buf, *t = buf + chunk;                                                                       \
        bool fm = sleef_ok();                                                                                \
        for (int64_t a = 0; a < outer; a++)                                                                  \
            for (int64_t b = 0; b < inner; b += chunk) {                                                     \
                int64_t size = inner - b < chunk ? inner - b : chunk, vend = size - size % W;                \
                for (int64_t i = 0; i < size; i++) sm[i] = 0;                                                \
                for (int64_t d = 0; d < dim; d++) {                                                          \
                    int64_t off = (a * dim + d) * inner + b;                                                 \
                    for (int64_t i = 0; i < size; i++)                                                       \
                        sm[i] = lg ? sm[i] + g[off + i] : fm ? FMA(g[off + i], y[off + i], sm[i])            \
                                                             : sm[i] + g[off + i] * y[off + i];              \
                }                                                                                            \
                for (int64_t d = 0; d < dim; d++) {                                                          \
                    int64_t off = (a * dim + d) * inner + b;                                                 \
                    if (lg) {                                                                                \
                        VEXP(t, y + off, vend);                                                              \
                        for (int64_t i = vend; i < size; i++) t[i] = EXPS(y[off + i]);                       \
                        for (int64_t i = 0; i < size; i++)                                                   \
                            gi[off + i] = fm ? FMA(-t[i], sm[i], g[off + i]) : g[off + i] - t[i] * sm[i];    \
                    } else {                                                                                 \
                        for (int64_t i = 0; i < size; i++) gi[off + i] = y[off + i] * (g[off + i] - sm[i]);  \
                    }                                                                                        \
                }                                                                                            \
            }                                                                                                \
    }
SOFT_BW(f32, float, 8, fmaf, expf, vexp_f32, TREE8)
SOFT_BW(f64, double, 4, fma, exp, vexp_f64, TREE4)

tsr_tensor *tsr_softmax_backward_kernel(const tsr_tensor *grad, const tsr_tensor *out, int64_t dim, bool lg)
{
    int nd = out->ndim ? out->ndim : 1;
    if (dim < 0) dim += nd;
    if (tsr__nn_on_device(out)) return tsr__softmax_backward_dev(grad, out, dim, lg);
    tsr_dtype dt = out->dtype;
    tsr_tensor *gc = tsr_contiguous(grad, TSR_MF_CONTIGUOUS), *yc = gc ? tsr_contiguous(out, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *r = yc ? tsr_tensor_empty(out->ndim, out->sizes, dt, out->device) : NULL;
    if (!r || tsr_tensor_numel(out) == 0 || tsr_tensor_is_meta(out)) goto done;
    int64_t outer = 1, inner = 1, size = out->ndim ? out->sizes[dim] : 1;
    for (int d = 0; d < (int)dim; d++) outer *= out->sizes[d];
    for (int d = (int)dim + 1; d < out->ndim; d++) inner *= out->sizes[d];
    bool last = dim == nd - 1;
    /* scratch: a row (last dim) or two chunks of inner positions, in the
     * kernel's compute type (float for bfloat16) */
    size_t isz = dt == TSR_FLOAT64 ? sizeof(double) : sizeof(float);
    int64_t chunk;
    if (dt == TSR_BFLOAT16) {
        chunk = bf_chunk(size);
    } else {
        int64_t w = dt == TSR_FLOAT64 ? 4 : 8;
        chunk = 131072 / size / (int64_t)isz;
        if (chunk < w) chunk = w;
        chunk = chunk / w * w;
    }
    void *buf = tsr_malloc((size_t)(last ? size : 2 * chunk) * isz);
    if (!buf) {
        tsr_tensor_release(r);
        r = NULL;
        goto done;
    }
    void *o = tsr_tensor_ptr(r, NULL);
    const void *g = tsr_tensor_ptr(gc, NULL), *y = tsr_tensor_ptr(yc, NULL);
    if (dt == TSR_BFLOAT16) {
        if (last) last_bf16_bw(o, g, y, outer, size, lg, buf);
        else other_bf16_bw(o, g, y, outer, size, inner, lg, buf);
    } else if (dt == TSR_FLOAT64) {
        if (last) last_bw_f64(o, g, y, outer, size, lg, buf);
        else other_bw_f64(o, g, y, outer, size, inner, lg, buf);
    } else {
        if (last) last_bw_f32(o, g, y, outer, size, lg, buf);
        else other_bw_f32(o, g, y, outer, size, inner, lg, buf);
    }
    tsr_free(buf);
    if (tsr_check_interrupt() < 0) {
        tsr_tensor_release(r);
        r = NULL;
    }
done:
    tsr_tensor_release(gc);
    tsr_tensor_release(yc);
    return r;
}
