/* runtime/ops/nn_nll2d.c — nll_loss2d (1.13's LossNLL2d.cpp), the kernel
 * F.nll_loss and F.cross_entropy reach for inputs of 3 or more dimensions
 * (N, C, d1, ...): nll_loss_nd calls it on 4-D inputs as they are and on
 * the others viewed as (N, C, 1, d1 * d2 ...). Float32, float64 and
 * bfloat16 (whose every operation rounds, as c10::BFloat16's do). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include "nn.h"
#include "copy.h"
#include "factory.h"
#include "../error.h"
#include "../internal.h"
#include "../view.h"

/* one element type: load, store, and the rounding of an arithmetic result */
#define LD_f(p, i) ((const float *)(p))[i]
#define ST_f(p, i, v) (((float *)(p))[i] = (v))
#define R_f(v) ((float)(v))
#define LD_d(p, i) ((const double *)(p))[i]
#define ST_d(p, i, v) (((double *)(p))[i] = (v))
#define R_d(v) ((double)(v))
#define LD_b(p, i) tsr_bfloat16_to_float(((const tsr_bfloat16 *)(p))[i])
#define ST_b(p, i, v) (((tsr_bfloat16 *)(p))[i] = tsr_float_to_bfloat16(v))
#define R_b(v) tsr_bfloat16_to_float(tsr_float_to_bfloat16((float)(v)))

/* c10::utils::CeilLog2 */
static int64_t ceil_log2(int64_t x)
{
    if (x <= 2) return 1;
    int64_t r = 0;
    for (uint64_t v = (uint64_t)(x - 1); v; v >>= 1) r++;
    return r;
}

/* the reduced forms: the cascade sum of nll_loss2d_forward_out_frame over
 * batch * map elements; *bad the first out-of-range target */
#define NLL2D_REDUCE(S, A, X, TG, W, N, C, MAP, IGN, RED, OUT, TW, BAD)                            \
    do {                                                                                          \
        const int64_t numiter_ = (N) * (MAP);                                                     \
        int64_t lp_ = ceil_log2(numiter_) / 8 > 4 ? ceil_log2(numiter_) / 8 : 4;                   \
        const int64_t lmask_ = ((int64_t)1 << lp_) - 1;                                           \
        A ws_[8] = {0}, ls_[8] = {0};                                                             \
        int64_t ign_ = 0;                                                                         \
        for (int64_t b = 0; b < (N) && *(BAD) == INT64_MIN; b++)                                  \
            for (int64_t e = 0; e < (MAP); e++) {                                                 \
                const int64_t t = (TG)[b * (MAP) + e];                                            \
                if (t == (IGN)) { ign_++; continue; }                                             \
                if (t < 0 || t >= (C)) { *(BAD) = t; break; }                                     \
                const A v = LD_##S(X, b * (MAP) * (C) + t * (MAP) + e);                           \
                if (W) {                                                                          \
                    const A wv = LD_##S(W, t);                                                    \
                    ls_[0] = R_##S(ls_[0] - R_##S(v * wv));                                       \
                    ws_[0] = R_##S(ws_[0] + wv);                                                  \
                } else {                                                                          \
                    ls_[0] = R_##S(ls_[0] - v);                                                   \
                }                                                                                 \
                const int64_t li_ = b * (MAP) + e;                                                \
                for (int j = 0; j + 1 < 8; j++) {                                                 \
                    if ((li_ & (lmask_ << (j * lp_))) != 0) break;                                \
                    ws_[j + 1] = R_##S(ws_[j + 1] + ws_[j]);                                      \
                    ls_[j + 1] = R_##S(ls_[j + 1] + ls_[j]);                                      \
                    ws_[j] = 0;                                                                   \
                    ls_[j] = 0;                                                                   \
                }                                                                                 \
            }                                                                                     \
        A tw_ = 0, out_ = 0;                                                                      \
        if (!(W)) tw_ = R_##S((double)(numiter_ - ign_));                                         \
        else for (int j = 0; j < 8; j++) tw_ = R_##S(tw_ + ws_[j]);                               \
        for (int j = 0; j < 8; j++) out_ = R_##S(out_ + ls_[j]);                                  \
        if ((RED) == TSR_REDUCTION_MEAN) out_ = R_##S(out_ / tw_);                                \
        ST_##S(OUT, 0, out_);                                                                     \
        *(TW) = tw_;                                                                              \
    } while (0)

/* reduction='none': out[b, e] = -x[b, t, e] * w[t], 0 where ignored */
#define NLL2D_NONE(S, A, X, TG, W, N, C, MAP, IGN, OUT, BAD)                                       \
    do {                                                                                          \
        for (int64_t b = 0; b < (N) && *(BAD) == INT64_MIN; b++)                                  \
            for (int64_t e = 0; e < (MAP); e++) {                                                 \
                const int64_t t = (TG)[b * (MAP) + e];                                            \
                if (t == (IGN)) { ST_##S(OUT, b * (MAP) + e, 0); continue; }                      \
                if (t < 0 || t >= (C)) { *(BAD) = t; break; }                                     \
                const A wv = (W) ? LD_##S(W, t) : (A)1;                                           \
                ST_##S(OUT, b * (MAP) + e, R_##S(-LD_##S(X, b * (MAP) * (C) + t * (MAP) + e) * wv)); \
            }                                                                                     \
    } while (0)

static int check2d(const tsr_tensor *x, const tsr_tensor *target, const tsr_tensor *weight)
{
    if (target->ndim != 3) {
        tsr_error_set(TSR_ERR_RUNTIME, "only batches of spatial targets supported (3D tensors) but got targets of "
                      "dimension: %d", target->ndim);
        return -1;
    }
    if (x->ndim != 4) {
        tsr_error_set(TSR_ERR_RUNTIME, "only batches of spatial inputs supported (4D tensors), but got input of "
                      "dimension: %d", x->ndim);
        return -1;
    }
    if (weight && tsr_tensor_numel(weight) != x->sizes[1]) {
        tsr_error_set(TSR_ERR_RUNTIME, "weight tensor should be defined either for all or no classes");
        return -1;
    }
    if (x->sizes[0] != target->sizes[0] || x->sizes[2] != target->sizes[1] || x->sizes[3] != target->sizes[2]) {
        char a[256], b[256];
        tsr_error_set(TSR_ERR_RUNTIME, "size mismatch (got input: %s , target: %s",
                      tsr__fmt_list(a, sizeof a, x->ndim, x->sizes), tsr__fmt_list(b, sizeof b, target->ndim,
                                                                                   target->sizes));
        return -1;
    }
    bool dev = tsr__nn_on_device(x);   /* cuda: float16 too */
    if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64 && x->dtype != TSR_BFLOAT16 && (x->dtype != TSR_FLOAT16 || !dev))
        return tsr__not_implemented(dev ? "nll_loss2d_forward_out_cuda_template" : "nll_loss2d_forward_out_frame", x->dtype);
    if (weight && weight->dtype != x->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(x->dtype),
                      tsr_dtype_scalar_name(weight->dtype));
        return -1;
    }
    if (target->dtype != TSR_INT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type Long but found %s", tsr_dtype_scalar_name(target->dtype));
        return -1;
    }
    return 0;
}

tsr_tensor *tsr_nn_nll_loss2d(const tsr_tensor *x, const tsr_tensor *target, const tsr_tensor *weight,
                              tsr_reduction red, int64_t ignore_index, double *total_weight)
{
    if (check2d(x, target, weight) < 0) return NULL;
    if (total_weight) *total_weight = 0;
    if (tsr__nn_on_device(x)) return tsr__nll_loss_dev(x, target, weight, red, ignore_index, total_weight);
    int64_t n = x->sizes[0], c = x->sizes[1], map = x->sizes[2] * x->sizes[3];
    bool none = red == TSR_REDUCTION_NONE;
    int64_t osz[3] = {n, x->sizes[2], x->sizes[3]};
    tsr_tensor *r = none ? tsr_tensor_empty(3, osz, x->dtype, x->device) : tsr_tensor_empty(0, NULL, x->dtype, x->device);
    if (!r || tsr_device_is_meta(x->device)) return r;
    if (!none && tsr_tensor_numel(target) == 0) {   /* mean of nothing: nan; sum: 0 */
        tsr_tensor *f = tsr_full(0, NULL, tsr_scalar_float(red == TSR_REDUCTION_MEAN ? NAN : 0.0), x->dtype, x->device);
        tsr_tensor_release(r);
        return f;
    }
    tsr_tensor *xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS), *tc = xc ? tsr_contiguous(target, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *wc = tc && weight ? tsr_contiguous(weight, TSR_MF_CONTIGUOUS) : NULL;
    if (!tc || (weight && !wc)) {
        tsr__take(&r, NULL);
        goto done;
    }
    const void *xp = tsr_tensor_ptr(xc, NULL), *wp = wc ? tsr_tensor_ptr(wc, NULL) : NULL;
    const int64_t *tg = tsr_tensor_ptr(tc, NULL);
    void *op = tsr_tensor_ptr(r, NULL);
    int64_t bad = INT64_MIN;
    double tw = 0;
    if (none) {
        if (x->dtype == TSR_FLOAT64) NLL2D_NONE(d, double, xp, tg, wp, n, c, map, ignore_index, op, &bad);
        else if (x->dtype == TSR_FLOAT32) NLL2D_NONE(f, float, xp, tg, wp, n, c, map, ignore_index, op, &bad);
        else NLL2D_NONE(b, float, xp, tg, wp, n, c, map, ignore_index, op, &bad);
    } else if (x->dtype == TSR_FLOAT64) {
        NLL2D_REDUCE(d, double, xp, tg, wp, n, c, map, ignore_index, red, op, &tw, &bad);
    } else {
        float twf = 0;
        if (x->dtype == TSR_FLOAT32) NLL2D_REDUCE(f, float, xp, tg, wp, n, c, map, ignore_index, red, op, &twf, &bad);
        else NLL2D_REDUCE(b, float, xp, tg, wp, n, c, map, ignore_index, red, op, &twf, &bad);
        tw = twf;
    }
    if (bad != INT64_MIN) {
        tsr_error_set(TSR_ERR_INDEX, "Target %lld is out of bounds.", (long long)bad);
        tsr__take(&r, NULL);
    } else if (total_weight) {
        *total_weight = tw;
    }
done:
    tsr_tensor_release(xc);
    tsr_tensor_release(tc);
    tsr_tensor_release(wc);
    return r;
}

/* nll_loss2d_backward_out_frame: zeros of x's shape; at each kept target
 * -w[t] * g[b, e] (none), else w[t] * -(g / total_weight) (mean) or -g */
#define NLL2D_BACK(S, A, GI, G, TG, W, N, C, MAP, IGN, NONE, RED, TWV)                             \
    do {                                                                                          \
        A gr_ = 0;                                                                                \
        if (!(NONE)) {                                                                            \
            const A go_ = LD_##S(G, 0);                                                           \
            gr_ = -((RED) == TSR_REDUCTION_MEAN ? R_##S(go_ / (A)(TWV)) : go_);                    \
        }                                                                                         \
        for (int64_t b = 0; b < (N); b++)                                                         \
            for (int64_t e = 0; e < (MAP); e++) {                                                 \
                const int64_t t = (TG)[b * (MAP) + e];                                            \
                if (t == (IGN) || t < 0 || t >= (C)) continue;                                    \
                const int64_t ix_ = b * (MAP) * (C) + t * (MAP) + e;                              \
                if (NONE) {                                                                       \
                    const A v_ = -((W) ? LD_##S(W, t) : (A)1);                                    \
                    ST_##S(GI, ix_, R_##S(v_ * LD_##S(G, b * (MAP) + e)));                        \
                } else {                                                                          \
                    ST_##S(GI, ix_, (W) ? R_##S(LD_##S(W, t) * gr_) : gr_);                        \
                }                                                                                 \
            }                                                                                     \
    } while (0)

tsr_tensor *tsr_nn_nll_loss2d_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *target,
                                       const tsr_tensor *weight, tsr_reduction red, int64_t ignore_index,
                                       double total_weight)
{
    if (tsr__nn_on_device(x)) return tsr__nll_loss_backward_dev(g, x, target, weight, red, ignore_index, total_weight);
    tsr_tensor *gi = tsr_zeros(x->ndim, x->sizes, x->dtype, x->device);
    tsr_tensor *gc = gi ? tsr_to_dtype_format(g, x->dtype, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *tc = gc ? tsr_contiguous(target, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *wc = tc && weight ? tsr_contiguous(weight, TSR_MF_CONTIGUOUS) : NULL;
    if (!tc || (weight && !wc)) {
        tsr__take(&gi, NULL);
        goto done;
    }
    if (tsr_tensor_numel(x) == 0 || tsr_device_is_meta(x->device)) goto done;
    int64_t n = x->sizes[0], c = x->sizes[1], map = x->sizes[2] * x->sizes[3];
    bool none = red == TSR_REDUCTION_NONE;
    void *gp = tsr_tensor_ptr(gi, NULL);
    const void *go = tsr_tensor_ptr(gc, NULL), *wp = wc ? tsr_tensor_ptr(wc, NULL) : NULL;
    const int64_t *tg = tsr_tensor_ptr(tc, NULL);
    if (x->dtype == TSR_FLOAT64) NLL2D_BACK(d, double, gp, go, tg, wp, n, c, map, ignore_index, none, red, total_weight);
    else if (x->dtype == TSR_FLOAT32) NLL2D_BACK(f, float, gp, go, tg, wp, n, c, map, ignore_index, none, red, total_weight);
    else NLL2D_BACK(b, float, gp, go, tg, wp, n, c, map, ignore_index, none, red, total_weight);
done:
    tsr_tensor_release(gc);
    tsr_tensor_release(tc);
    tsr_tensor_release(wc);
    return gi;
}

int tsr_nn_nll_loss_nd_views(const tsr_tensor *x, const tsr_tensor *target, tsr_tensor **xv, tsr_tensor **tv)
{
    *xv = *tv = NULL;
    int64_t n = x->sizes[0], c = x->sizes[1];
    bool same = target->ndim == x->ndim - 1;
    for (int i = 2; i < x->ndim && same; i++) same = target->sizes[i - 1] == x->sizes[i];
    if (!same) {
        int64_t os[TSR_MAX_DIMS];
        os[0] = n;
        for (int i = 2; i < x->ndim; i++) os[i - 1] = x->sizes[i];
        char a[512], b[512];
        tsr_error_set(TSR_ERR_RUNTIME, "Expected target size %s, got %s", tsr__fmt_list(a, sizeof a, x->ndim - 1, os),
                      tsr__fmt_list(b, sizeof b, target->ndim, target->sizes));
        return -1;
    }
    int64_t xs[4] = {n, c, 1, -1}, ts[3] = {n, 1, -1};
    if (tsr_tensor_numel(x) == 0) xs[2] = xs[3] = 0;
    if (tsr_tensor_numel(target) == 0) ts[1] = ts[2] = 0;
    tsr_tensor *xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS), *tc = xc ? tsr_contiguous(target, TSR_MF_CONTIGUOUS) : NULL;
    if (tc && (*xv = tsr_view_view(xc, 4, xs))) *tv = tsr_view_view(tc, 3, ts);
    tsr_tensor_release(xc);
    tsr_tensor_release(tc);
    if (!*tv) {
        tsr__take(xv, NULL);
        return -1;
    }
    return 0;
}

tsr_tensor *tsr_nn_nll_loss_spatial(const tsr_tensor *x, const tsr_tensor *target, const tsr_tensor *weight,
                                    tsr_reduction red, int64_t ignore_index, double *total_weight)
{
    if (x->ndim == 4) return tsr_nn_nll_loss2d(x, target, weight, red, ignore_index, total_weight);
    tsr_tensor *xv, *tv;
    if (tsr_nn_nll_loss_nd_views(x, target, &xv, &tv) < 0) return NULL;
    tsr_tensor *r = tsr_nn_nll_loss2d(xv, tv, weight, red, ignore_index, total_weight);
    tsr_tensor_release(xv);
    tsr_tensor_release(tv);
    if (r && red == TSR_REDUCTION_NONE) {
        int64_t os[TSR_MAX_DIMS];
        os[0] = x->sizes[0];
        for (int i = 2; i < x->ndim; i++) os[i - 1] = x->sizes[i];
        tsr__take(&r, tsr_view_view(r, x->ndim - 1, os));
    }
    return r;
}
