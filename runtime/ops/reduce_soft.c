/* runtime/ops/reduce_soft.c — logsumexp (ReduceOps.cpp: amax, exp of the
 * shifted input, sum, log, add back) and softmax / log_softmax as 1.13's
 * SoftMaxKernel.cpp computes them: along the last dim the vec::reduce_all
 * orders (AVX2's shuffle tree) and Sleef's exp/log on every element; along
 * another dim per-position sums, Sleef on full 8-lane (4-lane) chunks and
 * libm on the tail. */
#include <math.h>
#include <string.h>

#include "../error.h"
#include "../internal.h"
#include "binary.h"
#include "copy.h"
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
    if (in->dtype != TSR_FLOAT32 && in->dtype != TSR_FLOAT64) {
        if (in->dtype == TSR_BFLOAT16) {
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: %s of bfloat16 is not supported yet",
                          lg ? "log_softmax" : "softmax");
        } else {
            tsr__not_implemented(kname, in->dtype);
        }
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
    if (in->dtype == TSR_FLOAT32) {
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
