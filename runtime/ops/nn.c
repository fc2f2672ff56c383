/* runtime/ops/nn.c — the torch.nn.functional ops that 1.13 composes from
 * other ops (silu, leaky_relu, hardtanh, normalize, one_hot, the
 * mse/l1 losses, cross_entropy's log_softmax + nll_loss) and nll_loss's
 * CPU kernel with its cascaded sums. Composites call the same ops in the
 * same order as 1.13, so the float results are its bits. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn.h"
#include "nn_dnnl.h"
#include "binary.h"
#include "blas.h"
#include "compare.h"
#include "copy.h"
#include "factory.h"
#include "indexdim.h"
#include "random.h"
#include "rearrange.h"
#include "linalg.h"
#include "reduce.h"
#include "scatter.h"
#include "shape.h"
#include "sparse.h"
#include "special.h"
#include "unary.h"
#include "../error.h"
#include "../promote.h"
#include "../internal.h"
#include "../view.h"

static tsr_tensor *bin(tsr_binop op, const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    return tsr_binary(op, &x, &y, NULL, NULL);
}

static tsr_tensor *bin_s(tsr_binop op, const tsr_tensor *a, tsr_scalar s)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_scalar(s);
    return tsr_binary(op, &x, &y, NULL, NULL);
}

/* ------------------------------------------------------------ activations */

tsr_tensor *tsr_nn_leaky_relu(tsr_tensor *x, double slope, bool inplace)
{
    /* cuda: float16 too, the halves in float */
    if (tsr__nn_on_device(x)) return tsr__act_dev(TSR_DACT_LEAKY, x, slope, 0, 0, inplace);
    if (x->dtype == TSR_BOOL || x->dtype == TSR_FLOAT16 || !tsr_dtype_is_floating(x->dtype)) {
        tsr__not_implemented("leaky_relu_cpu", x->dtype);
        return NULL;
    }
    /* leaky_relu_kernel: a > 0 ? a : a * negval (negval in the dtype) */
    tsr_tensor *m = bin_s(TSR_BINOP_MUL, x, tsr_scalar_float(slope)), *r = NULL;
    tsr_operand a = tsr_operand_tensor(x), z = tsr_operand_scalar(tsr_scalar_int(0));
    tsr_tensor *pos = m ? tsr_compare(TSR_CMP_GT, &a, &z, NULL) : NULL;
    if (pos) {
        tsr_operand om = tsr_operand_tensor(m);
        r = tsr_where(pos, &a, &om, inplace ? x : NULL);
    }
    tsr_tensor_release(m);
    tsr_tensor_release(pos);
    return r;
}

tsr_tensor *tsr_nn_hardtanh(tsr_tensor *x, double lo, double hi, bool inplace, const char *kname)
{
    if (x->dtype == TSR_BOOL) {
        tsr_error_set(TSR_ERR_RUNTIME, "Bool inputs not supported for %s", kname);
        return NULL;
    }
    tsr_operand a = tsr_operand_scalar(tsr_scalar_float(lo)), b = tsr_operand_scalar(tsr_scalar_float(hi));
    if (x->dtype == TSR_UINT8 && (lo < 0 || hi < 0)) {
        tsr_error_set(TSR_ERR_RUNTIME, "cannot do hardtanh on an unsigned type with negative limits");
        return NULL;
    }
    if (tsr_dtype_is_integral(x->dtype, false)) {   /* an integral tensor clamps at integral bounds */
        a = tsr_operand_scalar(tsr_scalar_int((int64_t)lo));
        b = tsr_operand_scalar(tsr_scalar_int((int64_t)hi));
    }
    return inplace ? tsr_clamp_(x, &a, &b) : tsr_clamp(x, &a, &b, NULL);
}

/* ------------------------------------------------------------ normalize, one_hot */

tsr_tensor *tsr_nn_normalize(const tsr_tensor *x, double p, int64_t dim, double eps, tsr_tensor *out)
{
    tsr_dims d = {.n = 1, .d = {dim}};
    tsr_tensor *n = tsr_norm(x, p, &d, true, TSR_DTYPE_UNDEFINED, NULL), *r = NULL, *e = NULL;
    if (!n) return NULL;
    tsr_operand lo = tsr_operand_scalar(tsr_scalar_float(eps));
    if (tsr__take(&n, tsr_clamp_bound(n, &lo, false, NULL, false)) && (e = tsr_view_expand_as(n, x))) {
        tsr_operand ox = tsr_operand_tensor(x), oe = tsr_operand_tensor(e);
        r = tsr_binary(TSR_BINOP_DIV, &ox, &oe, out, NULL);   /* torch.div(input, denom, out=out) */
    }
    tsr_tensor_release(n);
    tsr_tensor_release(e);
    return r;
}

tsr_tensor *tsr_nn_one_hot(const tsr_tensor *t, int64_t num_classes)
{
    if (t->dtype != TSR_INT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "one_hot is only applicable to index tensor.");
        return NULL;
    }
    int64_t n = tsr_tensor_numel(t);
    if (n == 0) {
        if (num_classes <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "Can not infer total number of classes from empty tensor.");
            return NULL;
        }
    } else {
        tsr_tensor *mn = tsr_max_all(t, false), *mx = mn ? tsr_max_all(t, true) : NULL;
        tsr_scalar smin, smax;
        int rc = mx && tsr_tensor_item(mn, &smin) == 0 && tsr_tensor_item(mx, &smax) == 0 ? 0 : -1;
        tsr_tensor_release(mn);
        tsr_tensor_release(mx);
        if (rc < 0) return NULL;
        if (tsr_scalar_to_int64(smin) < 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "Class values must be non-negative.");
            return NULL;
        }
        if (num_classes == -1) {
            num_classes = tsr_scalar_to_int64(smax) + 1;
        } else if (tsr_scalar_to_int64(smax) >= num_classes) {
            tsr_error_set(TSR_ERR_RUNTIME, "Class values must be smaller than num_classes.");
            return NULL;
        }
    }
    int64_t shape[TSR_MAX_DIMS];
    if (t->ndim + 1 > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "one_hot: too many dimensions");
        return NULL;
    }
    memcpy(shape, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    shape[t->ndim] = num_classes;
    tsr_tensor *r = tsr_zeros(t->ndim + 1, shape, TSR_INT64, t->device);
    tsr_tensor *ix = r ? tsr_view_unsqueeze(t, -1) : NULL;
    tsr_scalar one = tsr_scalar_int(1);
    if (ix && tsr_scatter_(r, -1, ix, NULL, &one, TSR_SCATTER_NONE) < 0) tsr__take(&r, NULL);
    tsr_tensor_release(ix);
    return r;
}

/* ------------------------------------------------------------ losses */

tsr_tensor *tsr__nn_reduce_loss(tsr_tensor *l, tsr_reduction red)
{
    if (!l || red == TSR_REDUCTION_NONE) return l;
    tsr_dims all = {.n = -1};
    tsr_tensor *r = red == TSR_REDUCTION_MEAN ? tsr_mean(l, &all, false, TSR_DTYPE_UNDEFINED, NULL)
                                              : tsr_sum(l, &all, false, TSR_DTYPE_UNDEFINED, NULL);
    tsr_tensor_release(l);
    return r;
}

tsr_tensor *tsr_nn_mse_loss(const tsr_tensor *x, const tsr_tensor *t, tsr_reduction red)
{
    /* mse_kernel: diff = a - b; diff * diff (floating types only) */
    tsr_dtype ct = tsr_promote_types(x->dtype, t->dtype);
    bool dev = tsr__nn_on_device(x) || tsr__nn_on_device(t);   /* CUDA's mse_cuda has bfloat16 */
    if (!tsr_dtype_is_floating(ct) || (ct == TSR_BFLOAT16 && !dev)) {
        tsr__not_implemented(dev ? "mse_cuda" : "mse_cpu", ct);
        return NULL;
    }
    tsr_tensor *d = bin(TSR_BINOP_SUB, x, t);
    if (!d) return NULL;
    tsr_tensor *sq = bin(TSR_BINOP_MUL, d, d);
    tsr_tensor_release(d);
    return tsr__nn_reduce_loss(sq, red);
}

tsr_tensor *tsr_nn_l1_loss(const tsr_tensor *x, const tsr_tensor *t, tsr_reduction red)
{
    tsr_tensor *d = bin(TSR_BINOP_SUB, x, t);
    if (!d || !tsr__take(&d, tsr_unary(TSR_UNOP_ABS, d, NULL, NULL))) return NULL;
    return tsr__nn_reduce_loss(d, red);
}

/* nll_loss_out_frame's cascaded sums: loss and weight partial sums over
 * levels, flushed every 2^level_power targets, summed at the end. */
#define NLL_FRAME(T, X, TG, W, batch, ncls, ignore, red, outp, twp, bad)                         \
    do {                                                                                       \
        const T *x_ = (const T *)(X);                                                           \
        const int64_t *t_ = (const int64_t *)(TG);                                              \
        const T *w_ = (const T *)(W);                                                           \
        int64_t level_power_ = ceil_log2(batch) / 8 > 4 ? ceil_log2(batch) / 8 : 4;             \
        const int64_t level_mask_ = ((int64_t)1 << level_power_) - 1;                           \
        T wsum_[8] = {0}, lsum_[8] = {0};                                                       \
        int64_t ignored_ = 0;                                                                   \
        for (int64_t b = 0; b < (batch); b++) {                                                 \
            const int64_t c = t_[b];                                                            \
            if (c == (ignore)) { ignored_++; continue; }                                        \
            if (c < 0 || c >= (ncls)) { *(bad) = c; break; }                                    \
            const T v = x_[b * (ncls) + c];                                                     \
            if (w_) {                                                                           \
                const T wv = w_[c];                                                             \
                lsum_[0] -= v * wv;                                                             \
                wsum_[0] += wv;                                                                 \
            } else {                                                                            \
                lsum_[0] -= v;                                                                  \
            }                                                                                   \
            for (int j = 0; j + 1 < 8; j++) {                                                   \
                const int64_t mask = level_mask_ << (j * level_power_);                         \
                if ((b & mask) != 0) break;                                                     \
                wsum_[j + 1] += wsum_[j];                                                       \
                lsum_[j + 1] += lsum_[j];                                                       \
                wsum_[j] = 0;                                                                   \
                lsum_[j] = 0;                                                                   \
            }                                                                                   \
        }                                                                                       \
        T tw_ = 0, out_ = 0;                                                                    \
        if (!w_) tw_ = (T)((batch) - ignored_);                                                 \
        else for (int j = 0; j < 8; j++) tw_ += wsum_[j];                                       \
        for (int j = 0; j < 8; j++) out_ += lsum_[j];                                           \
        if ((red) == TSR_REDUCTION_MEAN) out_ /= tw_;                                           \
        *(T *)(outp) = out_;                                                                    \
        *(T *)(twp) = tw_;                                                                      \
    } while (0)

/* c10::utils::CeilLog2 */
static int64_t ceil_log2(int64_t x)
{
    if (x <= 2) return 1;
    int64_t r = 0;
    for (uint64_t v = (uint64_t)(x - 1); v; v >>= 1) r++;
    return r;
}

static char *fmt_sizes(char *buf, size_t n, const tsr_tensor *t)
{
    return tsr__fmt_list(buf, n, t->ndim, t->sizes);
}

/* A 1-D or 2-D input of bfloat16, or a uint8 target: the same cascade as
 * nll_loss2d's (nll_loss_out_frame and nll_loss2d_forward_out_frame are one
 * algorithm), on x viewed as (N, C, 1, 1) and the target as int64 (N, 1, 1);
 * a 1-D input's unreduced loss is its one summed term, as 1.13 computes it. */
static int nll_views(const tsr_tensor *x, const tsr_tensor *target, tsr_tensor **xv, tsr_tensor **tv)
{
    int64_t n = x->ndim == 2 ? x->sizes[0] : 1, xs[4] = {n, x->sizes[x->ndim - 1], 1, 1}, ts[3] = {n, 1, 1};
    tsr_tensor *tc = tsr_to_dtype_format(target, TSR_INT64, TSR_MF_CONTIGUOUS), *xc = NULL;
    *tv = tc ? tsr_view_view(tc, 3, ts) : NULL;
    *xv = *tv && (xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS)) ? tsr_view_view(xc, 4, xs) : NULL;
    tsr_tensor_release(tc);
    tsr_tensor_release(xc);
    if (!*xv) tsr__take(tv, NULL);
    return *xv ? 0 : -1;
}

static tsr_tensor *nll_loss_via_2d(const tsr_tensor *x, const tsr_tensor *target, const tsr_tensor *weight,
                                   tsr_reduction red, int64_t ignore_index, double *total_weight)
{
    tsr_tensor *xv, *tv;
    if (nll_views(x, target, &xv, &tv) < 0) return NULL;
    bool none2 = red == TSR_REDUCTION_NONE && x->ndim == 2;
    tsr_reduction r2 = red == TSR_REDUCTION_NONE && !none2 ? TSR_REDUCTION_SUM : red;
    tsr_tensor *r = tsr_nn_nll_loss2d(xv, tv, weight, r2, ignore_index, total_weight);
    if (r && none2) tsr__take(&r, tsr_view_view(r, 1, &x->sizes[0]));
    tsr_tensor_release(xv);
    tsr_tensor_release(tv);
    return r;
}

int tsr_nn_nll_loss_check(const tsr_tensor *x, const tsr_tensor *target)
{
    if (x->ndim < 1) {
        tsr_error_set(TSR_ERR_VALUE, "Expected 1 or more dimensions (got %d)", x->ndim);
        return -1;
    }
    if (x->ndim != 1 && (target->ndim == 0 || x->sizes[0] != target->sizes[0])) {
        tsr_error_set(TSR_ERR_VALUE, "Expected input batch_size (%lld) to match target batch_size (%lld).",
                      (long long)x->sizes[0], (long long)(target->ndim ? target->sizes[0] : 1));
        return -1;
    }
    return 0;
}

tsr_tensor *tsr_nn_nll_loss(const tsr_tensor *x, const tsr_tensor *target, const tsr_tensor *weight,
                            tsr_reduction red, int64_t ignore_index, double *total_weight)
{
    if (tsr_nn_nll_loss_check(x, target) < 0) return NULL;
    if (x->ndim > 2) return tsr_nn_nll_loss_spatial(x, target, weight, red, ignore_index, total_weight);
    if (target->ndim > 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "0D or 1D target tensor expected, multi-target not supported");
        return NULL;
    }
    bool no_batch = x->ndim == 1 && target->ndim == 0;
    if (!no_batch && x->sizes[0] != target->sizes[0]) {
        char a[256], b[256];
        tsr_error_set(TSR_ERR_RUNTIME, "size mismatch (got input: %s, target: %s)", fmt_sizes(a, sizeof a, x),
                      fmt_sizes(b, sizeof b, target));
        return NULL;
    }
    int64_t ncls = x->sizes[x->ndim - 1];
    if (weight && !(weight->ndim == 1 && tsr_tensor_numel(weight) == ncls)) {
        char a[256];
        tsr_error_set(TSR_ERR_RUNTIME, "weight tensor should be defined either for all %lld classes or no classes but "
                      "got weight tensor of shape: %s", (long long)ncls, fmt_sizes(a, sizeof a, weight));
        return NULL;
    }
    bool dev = tsr__nn_on_device(x);   /* cuda: float16 too */
    if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64 && x->dtype != TSR_BFLOAT16 &&
        (x->dtype != TSR_FLOAT16 || !dev)) {
        tsr__not_implemented(dev ? "nll_loss_forward_out_cuda_template" : "nll_loss_out_frame", x->dtype);
        return NULL;
    }
    if (target->dtype != TSR_INT64 && target->dtype != TSR_UINT8) {   /* 1.13 reads uint8 targets too */
        tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type Long but found %s", tsr_dtype_scalar_name(target->dtype));
        return NULL;
    }
    if (weight && weight->dtype != x->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(x->dtype),
                      tsr_dtype_scalar_name(weight->dtype));
        return NULL;
    }
    if (dev) return tsr__nll_loss_dev(x, target, weight, red, ignore_index, total_weight);
    if (target->dtype == TSR_UINT8 || x->dtype == TSR_BFLOAT16) return nll_loss_via_2d(x, target, weight, red,
                                                                                       ignore_index, total_weight);
    int64_t batch = x->ndim == 1 ? 1 : x->sizes[0];
    tsr_tensor *xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS), *tc = xc ? tsr_contiguous(target, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *wc = tc && weight ? tsr_contiguous(weight, TSR_MF_CONTIGUOUS) : NULL, *r = NULL;
    if (!tc || (weight && !wc)) goto done;
    int64_t bad = -1;
    bool badset = false;
    if (red == TSR_REDUCTION_NONE && x->ndim == 2) {
        r = tsr_tensor_empty(1, &batch, x->dtype, x->device);
        if (!r) goto done;
        const int64_t *tg = tsr_tensor_ptr(tc, NULL);
        for (int64_t b = 0; b < batch && !badset; b++) {
            int64_t c = tg[b];
            if (c == ignore_index) {
                if (x->dtype == TSR_FLOAT64) ((double *)tsr_tensor_ptr(r, NULL))[b] = 0;
                else ((float *)tsr_tensor_ptr(r, NULL))[b] = 0;
                continue;
            }
            if (c < 0 || c >= ncls) { bad = c; badset = true; break; }
            if (x->dtype == TSR_FLOAT64) {
                double w = wc ? ((const double *)tsr_tensor_ptr(wc, NULL))[c] : 1;
                ((double *)tsr_tensor_ptr(r, NULL))[b] = -((const double *)tsr_tensor_ptr(xc, NULL))[b * ncls + c] * w;
            } else {
                float w = wc ? ((const float *)tsr_tensor_ptr(wc, NULL))[c] : 1;
                ((float *)tsr_tensor_ptr(r, NULL))[b] = -((const float *)tsr_tensor_ptr(xc, NULL))[b * ncls + c] * w;
            }
        }
    } else {
        r = tsr_tensor_empty(0, NULL, x->dtype, x->device);
        if (!r) goto done;
        double tw[1];
        int64_t badv = INT64_MIN;
        if (x->dtype == TSR_FLOAT64)
            NLL_FRAME(double, tsr_tensor_ptr(xc, NULL), tsr_tensor_ptr(tc, NULL), wc ? tsr_tensor_ptr(wc, NULL) : NULL,
                      batch, ncls, ignore_index, red, tsr_tensor_ptr(r, NULL), tw, &badv);
        else {
            float twf[1];
            NLL_FRAME(float, tsr_tensor_ptr(xc, NULL), tsr_tensor_ptr(tc, NULL), wc ? tsr_tensor_ptr(wc, NULL) : NULL,
                      batch, ncls, ignore_index, red, tsr_tensor_ptr(r, NULL), twf, &badv);
            tw[0] = twf[0];
        }
        if (total_weight) *total_weight = tw[0];
        if (badv != INT64_MIN) bad = badv, badset = true;
    }
    if (badset) {
        tsr_error_set(TSR_ERR_INDEX, "Target %lld is out of bounds.", (long long)bad);
        tsr__take(&r, NULL);
    }
done:
    tsr_tensor_release(xc);
    tsr_tensor_release(tc);
    tsr_tensor_release(wc);
    return r;
}

tsr_tensor *tsr_nn_cross_entropy(const tsr_tensor *x, const tsr_tensor *target, const tsr_tensor *weight,
                                 tsr_reduction red, int64_t ignore_index, double label_smoothing)
{
    int64_t class_dim = x->ndim == 1 ? 0 : 1;
    bool probs = target->ndim == x->ndim && !memcmp(target->sizes, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
    if (probs && !tsr_dtype_is_floating(target->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected floating point type for target with class probabilities, got %s",
                      tsr_dtype_scalar_name(target->dtype));
        return NULL;
    }
    if (label_smoothing > 0.0 || (probs && weight)) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "cross_entropy: label_smoothing and weighted class probabilities are "
                      "not supported by tsr yet");
        return NULL;
    }
    tsr_tensor *ls = tsr_softmax(x, class_dim, x->dtype, true);
    if (!ls) return NULL;
    tsr_tensor *r = NULL;
    if (!probs) {
        r = tsr_nn_nll_loss(ls, target, weight, red, ignore_index, NULL);
    } else {   /* class probabilities: -(log_softmax * target) summed over the classes, reduced */
        tsr_tensor *m = bin(TSR_BINOP_MUL, ls, target), *s = NULL;
        if (m && red == TSR_REDUCTION_NONE) {
            tsr_dims cd = {.n = 1, .d = {class_dim}};
            s = tsr_sum(m, &cd, false, TSR_DTYPE_UNDEFINED, NULL);
        } else if (m) {
            tsr_dims all = {.n = -1};
            s = tsr_sum(m, &all, false, TSR_DTYPE_UNDEFINED, NULL);
        }
        if (s) r = tsr_unary(TSR_UNOP_NEG, s, NULL, NULL);
        if (r && red == TSR_REDUCTION_MEAN) {
            int64_t n = tsr_tensor_numel(x);
            if (n == 0) {   /* 1.13 fills NaN */
                tsr__take(&r, bin_s(TSR_BINOP_MUL, r, tsr_scalar_float(NAN)));
            } else {
                tsr__take(&r, bin_s(TSR_BINOP_DIV, r, tsr_scalar_int(n / x->sizes[class_dim])));
            }
        }
        tsr_tensor_release(m);
        tsr_tensor_release(s);
    }
    tsr_tensor_release(ls);
    return r;
}

/* smooth_l1_kernel / huber_kernel: z = |a - b|, then 0.5 z z / beta (0.5 z z
 * for huber) where z < beta, else z - 0.5 beta (delta (z - 0.5 delta)); each
 * step rounded in the dtype, as the vector body. */
static tsr_tensor *piecewise_loss(const tsr_tensor *x, const tsr_tensor *t, double beta, bool huber,
                                  tsr_reduction red)
{
    tsr_dtype ct = tsr_promote_types(x->dtype, t->dtype);
    if (!tsr_dtype_is_floating(ct)) {
        tsr__not_implemented(huber ? "huber_cpu" : "smooth_l1_cpu", ct);
        return NULL;
    }
    tsr_tensor *z = bin(TSR_BINOP_SUB, x, t), *q = NULL, *l = NULL, *lt = NULL, *r = NULL;
    if (!z || !tsr__take(&z, tsr_unary(TSR_UNOP_ABS, z, NULL, NULL))) goto done;
    tsr_tensor *h = bin_s(TSR_BINOP_MUL, z, tsr_scalar_float(0.5));
    q = h ? bin(TSR_BINOP_MUL, h, z) : NULL;
    tsr_tensor_release(h);
    if (!q || (!huber && !tsr__take(&q, bin_s(TSR_BINOP_DIV, q, tsr_scalar_float(beta))))) goto done;
    if (!(l = bin_s(TSR_BINOP_SUB, z, tsr_scalar_float(0.5 * beta)))) goto done;
    if (huber && !tsr__take(&l, bin_s(TSR_BINOP_MUL, l, tsr_scalar_float(beta)))) goto done;
    tsr_operand oz = tsr_operand_tensor(z), ob = tsr_operand_scalar(tsr_scalar_float(beta));
    if (!(lt = tsr_compare(TSR_CMP_LT, &oz, &ob, NULL))) goto done;
    tsr_operand oq = tsr_operand_tensor(q), ol = tsr_operand_tensor(l);
    r = tsr__nn_reduce_loss(tsr_where(lt, &oq, &ol, NULL), red);
done:
    tsr_tensor_release(z);
    tsr_tensor_release(q);
    tsr_tensor_release(l);
    tsr_tensor_release(lt);
    return r;
}

tsr_tensor *tsr_nn_smooth_l1_loss(const tsr_tensor *x, const tsr_tensor *t, tsr_reduction red, double beta)
{
    if (beta < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "smooth_l1_loss does not support negative values for beta.");
        return NULL;
    }
    if (beta == 0.0) return tsr_nn_l1_loss(x, t, red);
    return piecewise_loss(x, t, beta, false, red);
}

tsr_tensor *tsr_nn_huber_loss(const tsr_tensor *x, const tsr_tensor *t, tsr_reduction red, double delta)
{
    if (!(delta > 0)) {
        tsr_error_set(TSR_ERR_RUNTIME, "huber_loss does not support non-positive values for delta.");
        return NULL;
    }
    if (x->dtype == TSR_FLOAT16 && t->dtype == TSR_FLOAT16) {   /* huber_cpu's Half runs in float, rounded once */
        tsr_tensor *xf = tsr_to_dtype(x, TSR_FLOAT32, false), *tf = xf ? tsr_to_dtype(t, TSR_FLOAT32, false) : NULL;
        tsr_tensor *r = tf ? piecewise_loss(xf, tf, delta, true, TSR_REDUCTION_NONE) : NULL, *h = NULL;
        if (r) h = tsr_to_dtype(r, TSR_FLOAT16, false);
        tsr_tensor_release(xf);
        tsr_tensor_release(tf);
        tsr_tensor_release(r);
        return tsr__nn_reduce_loss(h, red);
    }
    return piecewise_loss(x, t, delta, true, red);
}

/* binary_cross_entropy_out_cpu's scalar kernel: (t - 1) max(log1p(-x),
 * -100) - t max(log(x), -100), input checked to lie in [0, 1]. */
#define BCE_LOOP(T, LOG1P, LOG, o, a, b, n, bad)                                          \
    do {                                                                                  \
        for (int64_t i_ = 0; i_ < (n); i_++) {                                            \
            T x_ = (a)[i_], t_ = (b)[i_];                                                 \
            if (!(x_ >= 0 && x_ <= 1)) { *(bad) = true; break; }                          \
            T l1_ = LOG1P(-x_), l0_ = LOG(x_);                                            \
            if (l1_ < (T)-100) l1_ = (T)-100;                                             \
            if (l0_ < (T)-100) l0_ = (T)-100;                                             \
            T p_ = (t_ - (T)1) * l1_, q_ = t_ * l0_;                                      \
            (o)[i_] = p_ - q_;                                                            \
        }                                                                                 \
    } while (0)

tsr_tensor *tsr_nn_binary_cross_entropy(const tsr_tensor *x, const tsr_tensor *t, const tsr_tensor *w,
                                        tsr_reduction red)
{
    if (t->dtype != x->dtype) {   /* 1.13 checks the target's dtype first */
        tsr_error_set(TSR_ERR_RUNTIME, "Found dtype %s but expected %s", tsr_dtype_scalar_name(t->dtype),
                      tsr_dtype_scalar_name(x->dtype));
        return NULL;
    }
    if (tsr__nn_on_device(x)) {   /* CUDA's kernel has the halves too */
        if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64 && x->dtype != TSR_FLOAT16 && x->dtype != TSR_BFLOAT16) {
            tsr__not_implemented("binary_cross_entropy_out_cuda", x->dtype);
            return NULL;
        }
        tsr_tensor *l = tsr__bce_dev(x, t);
        if (l && w) {
            tsr_operand ow = tsr_operand_tensor(w);
            if (tsr__done(tsr_binary_(TSR_BINOP_MUL, l, &ow, NULL)) < 0) tsr__take(&l, NULL);
        }
        return tsr__nn_reduce_loss(l, red);
    }
    if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64) {   /* bfloat16 and half too: 1.13 has no kernel */
        tsr__not_implemented("binary_cross_entropy", x->dtype);
        return NULL;
    }
    tsr_tensor *xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS), *tc = xc ? tsr_contiguous(t, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *l = tc ? tsr_tensor_empty(x->ndim, x->sizes, x->dtype, x->device) : NULL, *r = NULL;
    if (!l) goto done;
    bool bad = false;
    int64_t n = tsr_tensor_numel(l);
    if (x->dtype == TSR_FLOAT64)
        BCE_LOOP(double, log1p, log, (double *)tsr_tensor_ptr(l, NULL), (const double *)tsr_tensor_ptr(xc, NULL),
                 (const double *)tsr_tensor_ptr(tc, NULL), n, &bad);
    else
        BCE_LOOP(float, log1pf, logf, (float *)tsr_tensor_ptr(l, NULL), (const float *)tsr_tensor_ptr(xc, NULL),
                 (const float *)tsr_tensor_ptr(tc, NULL), n, &bad);
    if (bad) {
        tsr_error_set(TSR_ERR_RUNTIME, "all elements of input should be between 0 and 1");
        goto done;
    }
    if (w) {
        tsr_operand ow = tsr_operand_tensor(w);
        if (tsr__done(tsr_binary_(TSR_BINOP_MUL, l, &ow, NULL)) < 0) goto done;
    }
    r = tsr__nn_reduce_loss(tsr_tensor_retain(l), red);
done:
    tsr_tensor_release(xc);
    tsr_tensor_release(tc);
    tsr_tensor_release(l);
    return r;
}

/* ------------------------------------------------------------ more activations */

/* softsign and tanhshrink are Python compositions in 1.13:
 * input / (input.abs() + 1) and input - input.tanh(). */
tsr_tensor *tsr_nn_softsign(const tsr_tensor *x)
{
    tsr_tensor *a = tsr_unary(TSR_UNOP_ABS, x, NULL, NULL), *r = NULL;
    if (a && tsr__take(&a, bin_s(TSR_BINOP_ADD, a, tsr_scalar_int(1)))) r = bin(TSR_BINOP_DIV, x, a);
    tsr_tensor_release(a);
    return r;
}

tsr_tensor *tsr_nn_tanhshrink(const tsr_tensor *x)
{
    tsr_tensor *t = tsr_unary(TSR_UNOP_TANH, x, NULL, NULL), *r = t ? bin(TSR_BINOP_SUB, x, t) : NULL;
    tsr_tensor_release(t);
    return r;
}

/* threshold_kernel: x <= threshold ? value : x, value in x's dtype. */
tsr_tensor *tsr_nn_threshold(tsr_tensor *x, double threshold, double value, bool inplace)
{
    bool dev = tsr__nn_on_device(x);   /* CUDA's kernel has float16 too */
    if (x->dtype == TSR_BOOL || (x->dtype == TSR_FLOAT16 && !dev) || tsr_dtype_is_complex(x->dtype)) {
        tsr__not_implemented(dev ? "threshold_cuda" : "threshold_cpu", x->dtype);
        return NULL;
    }
    bool integral = tsr_dtype_is_integral(x->dtype, false);
    tsr_operand ox = tsr_operand_tensor(x);
    tsr_operand th = tsr_operand_scalar(tsr_scalar_float(threshold));
    tsr_tensor *le = tsr_compare(TSR_CMP_LE, &ox, &th, NULL);
    if (!le) return NULL;
    tsr_tensor *v = tsr_full(0, NULL, integral ? tsr_scalar_int((int64_t)value) : tsr_scalar_float(value), x->dtype,
                             x->device);
    tsr_tensor *r = NULL;
    if (v) {
        tsr_operand ov = tsr_operand_tensor(v);
        r = tsr_where(le, &ov, &ox, inplace ? x : NULL);
    }
    tsr_tensor_release(v);
    tsr_tensor_release(le);
    return r;
}

/* ------------------------------------------------------------ distances */

tsr_tensor *tsr_nn_pairwise_distance(const tsr_tensor *x1, const tsr_tensor *x2, double p, double eps, bool keepdim)
{
    int od = x1->ndim > x2->ndim ? x1->ndim : x2->ndim;
    tsr_tensor *d = bin(TSR_BINOP_SUB, x1, x2), *r = NULL;
    if (d && tsr__take(&d, bin_s(TSR_BINOP_ADD, d, tsr_scalar_float(eps)))) {
        tsr_dims dim = {.n = 1, .d = {od - 1}};
        r = tsr_norm(d, p, &dim, keepdim, TSR_DTYPE_UNDEFINED, NULL);
    }
    tsr_tensor_release(d);
    return r;
}

/* 1.13's cosine_similarity: both cast to the common (floating) dtype and
 * broadcast, each divided by sqrt(max(sum(x²), eps²)) along dim, then the
 * product summed along dim. */
tsr_tensor *tsr_nn_cosine_similarity(const tsr_tensor *x1, const tsr_tensor *x2, int64_t dim, double eps)
{
    tsr_operand ops[2] = {tsr_operand_tensor(x1), tsr_operand_tensor(x2)};
    tsr_dtype ct = tsr_result_type(2, ops, NULL);
    if (ct == TSR_DTYPE_UNDEFINED) return NULL;
    if (!tsr_dtype_is_floating(ct)) {
        tsr_error_set(TSR_ERR_RUNTIME, "expected common dtype to be floating point, yet common dtype is %s",
                      tsr_dtype_scalar_name(ct));
        return NULL;
    }
    tsr_tensor *c[2] = {NULL, NULL}, *e[2] = {NULL, NULL}, *q[2] = {NULL, NULL}, *r = NULL;
    int rc = 0;
    for (int k = 0; k < 2 && rc == 0; k++)
        if (!(c[k] = tsr_to_dtype(k ? x2 : x1, ct, false))) rc = -1;
    if (rc == 0) rc = tsr_broadcast_tensors(2, (const tsr_tensor *const *)c, e);
    tsr_dims d = {.n = 1, .d = {dim}};
    tsr_operand lo = tsr_operand_scalar(tsr_scalar_float(eps * eps));
    for (int k = 0; k < 2 && rc == 0; k++) {
        tsr_tensor *s = bin_s(TSR_BINOP_POW, e[k], tsr_scalar_int(2));
        if (s && tsr__take(&s, tsr_sum(s, &d, true, TSR_DTYPE_UNDEFINED, NULL)) &&
            tsr__take(&s, tsr_clamp_bound(s, &lo, false, NULL, false)) && tsr__take(&s, tsr_unary(TSR_UNOP_SQRT, s, NULL, NULL)))
            q[k] = bin(TSR_BINOP_DIV, e[k], s);
        tsr_tensor_release(s);
        if (!q[k]) rc = -1;
    }
    if (rc == 0) {
        tsr_tensor *m = bin(TSR_BINOP_MUL, q[0], q[1]);
        if (m) r = tsr_sum(m, &d, false, TSR_DTYPE_UNDEFINED, NULL);
        tsr_tensor_release(m);
    }
    for (int k = 0; k < 2; k++) {
        tsr_tensor_release(c[k]);
        tsr_tensor_release(q[k]);
        tsr_tensor_release(e[k]);
    }
    return r;
}

/* ------------------------------------------------------------ dropout */

tsr_tensor *tsr_nn_dropout_noise(const tsr_tensor *x, double p)
{
    if (p == 1) return tsr_zeros(0, NULL, x->dtype, x->device);
    /* empty_like(x).bernoulli_(1 - p).div_(1 - p) */
    tsr_tensor *noise = tsr_empty_like(x, x->dtype, x->device, TSR_MF_CONTIGUOUS);
    tsr_operand q = tsr_operand_scalar(tsr_scalar_float(1 - p));
    /* cuda: the CUDA generator's bernoulli_ (1.13's fused native_dropout draws otherwise) */
    tsr_generator *gen = tsr__nn_on_device(x) ? NULL : tsr_default_generator();
    if (noise && (tsr_bernoulli_(noise, 1 - p, gen) < 0 ||
                  tsr__done(tsr_binary_(TSR_BINOP_DIV, noise, &q, NULL)) < 0))
        tsr__take(&noise, NULL);
    return noise;
}

tsr_tensor *tsr_nn_dropout(tsr_tensor *x, double p, bool train, bool inplace)
{
    if (!(p >= 0 && p <= 1)) {
        tsr_error_set(TSR_ERR_RUNTIME, "dropout probability has to be between 0 and 1, but got %g", p);
        return NULL;
    }
    if (p == 0 || !train || tsr_tensor_numel(x) == 0) return tsr_tensor_retain(x);
    if (x->layout == TSR_LAYOUT_SPARSE_COO) {
        if (p == 1) {   /* 1.13 multiplies by at::zeros({}) of the sparse layout: an uninitialised value */
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: dropout with p=1 of a sparse tensor is not supported (1.13 "
                          "multiplies it by an uninitialised value)");
            return NULL;
        }
        /* the noise is empty_like(input, contiguous format), before any draw */
        tsr_error_set(TSR_ERR_RUNTIME, "memory format option is only supported by strided tensors");
        return NULL;
    }
    tsr_tensor *noise = tsr_nn_dropout_noise(x, p);
    if (!noise) return NULL;
    tsr_operand on = tsr_operand_tensor(noise), ox = tsr_operand_tensor(x);
    tsr_tensor *r = inplace ? tsr_binary_(TSR_BINOP_MUL, x, &on, NULL) : tsr_binary(TSR_BINOP_MUL, &ox, &on, NULL, NULL);
    tsr_tensor_release(noise);
    return r;
}

/* ------------------------------------------------------------ pad, embedding */

tsr_tensor *tsr_constant_pad_nd(const tsr_tensor *self, int npad, const int64_t *pad, tsr_scalar value)
{
    if (npad % 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "Length of pad must be even but instead it equals %d", npad);
        return NULL;
    }
    int l_inp = self->ndim, l_pad = npad / 2, l_diff = l_inp - l_pad;
    if (l_inp < l_pad) {
        tsr_error_set(TSR_ERR_RUNTIME, "Length of pad should be no more than twice the number of dimensions of the "
                      "input. Pad length is %dwhile the input has %ddimensions.", npad, l_inp);
        return NULL;
    }
    bool all_nonpos = true;
    tsr_tensor *c_in = tsr_tensor_retain((tsr_tensor *)self), *out = NULL, *c_out = NULL;
    for (int i = l_diff; i < l_inp; i++) {
        int pi = 2 * (l_inp - i - 1);
        if (pad[pi] < 0) {
            if (!tsr__take(&c_in, tsr_view_narrow(c_in, i, -pad[pi], c_in->sizes[i] + pad[pi]))) goto done;
        } else if (pad[pi] != 0) {
            all_nonpos = false;
        }
        if (pad[pi + 1] < 0) {
            if (!tsr__take(&c_in, tsr_view_narrow(c_in, i, 0, c_in->sizes[i] + pad[pi + 1]))) goto done;
        } else if (pad[pi + 1] != 0) {
            all_nonpos = false;
        }
    }
    if (all_nonpos) {
        out = tsr_clone(c_in, TSR_MF_PRESERVE);
        goto done;
    }
    int64_t shape[TSR_MAX_DIMS];
    for (int i = 0; i < l_diff; i++) shape[i] = self->sizes[i];
    for (int i = 0; i < l_pad; i++) {
        int pi = npad - (i + 1) * 2;
        int64_t nd = self->sizes[l_diff + i] + pad[pi] + pad[pi + 1];
        if (nd <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "The input size %lld, plus negative padding %lld and %lld resulted in a "
                          "negative output size, which is invalid. Check dimension %d of your input.",
                          (long long)self->sizes[l_diff + i], (long long)pad[pi], (long long)pad[pi + 1], l_diff + i);
            goto done;
        }
        shape[l_diff + i] = nd;
    }
    /* the input's suggested memory format, as 1.13's constant_pad_nd */
    if (!(out = tsr_tensor_empty_format(l_inp, shape, self->dtype, self->device, tsr_tensor_suggest_memory_format(self))))
        goto done;
    if (tsr_fill_(out, value) < 0) goto fail;
    c_out = tsr_tensor_retain(out);
    for (int i = l_diff; i < l_inp; i++) {
        int pi = 2 * (l_inp - i - 1);
        if (pad[pi] > 0 && !tsr__take(&c_out, tsr_view_narrow(c_out, i, pad[pi], c_out->sizes[i] - pad[pi]))) goto fail;
        if (pad[pi + 1] > 0 && !tsr__take(&c_out, tsr_view_narrow(c_out, i, 0, c_out->sizes[i] - pad[pi + 1]))) goto fail;
    }
    if (tsr_copy_(c_out, c_in) == 0) goto done;
fail:
    tsr__take(&out, NULL);
done:
    tsr_tensor_release(c_in);
    tsr_tensor_release(c_out);
    return out;
}

tsr_tensor *tsr_nn_embedding(const tsr_tensor *weight, const tsr_tensor *indices)
{
    if (weight->ndim != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "'weight' must be 2-D");
        return NULL;
    }
    if (indices->dtype != TSR_INT64 && indices->dtype != TSR_INT32) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected tensor for argument #1 'indices' to have one of the following scalar "
                      "types: Long, Int; but got torch.%sTensor instead (while checking arguments for embedding)",
                      tsr_dtype_scalar_name(indices->dtype));
        return NULL;
    }
    if (indices->ndim == 1) return tsr_index_select(weight, 0, indices);
    int64_t flat = -1, size[TSR_MAX_DIMS];
    if (indices->ndim + 1 > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "embedding: too many dimensions");
        return NULL;
    }
    memcpy(size, indices->sizes, sizeof(int64_t) * (size_t)indices->ndim);
    size[indices->ndim] = weight->sizes[1];
    tsr_tensor *ix = tsr_reshape(indices, 1, &flat), *r = ix ? tsr_index_select(weight, 0, ix) : NULL;
    tsr_tensor_release(ix);
    if (r) tsr__take(&r, tsr_view_view(r, indices->ndim + 1, size));
    return r;
}

/* ------------------------------------------------------------ kl_div, bce with logits */

tsr_tensor *tsr_nn_kl_div(const tsr_tensor *x, const tsr_tensor *t, tsr_reduction red, bool log_target)
{
    if (tsr_dtype_is_complex(x->dtype) || tsr_dtype_is_complex(t->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "kl_div: Complex inputs not supported.");
        return NULL;
    }
    if (tsr_dtype_is_integral(x->dtype, true) || tsr_dtype_is_integral(t->dtype, true)) {
        tsr_error_set(TSR_ERR_RUNTIME, "kl_div: Integral inputs not supported.");
        return NULL;
    }
    tsr_tensor *a = NULL, *b = NULL, *o = NULL;
    if (log_target) {   /* exp(target) * (target - input) */
        if ((a = tsr_unary(TSR_UNOP_EXP, t, NULL, NULL)) && (b = bin(TSR_BINOP_SUB, t, x))) o = bin(TSR_BINOP_MUL, a, b);
    } else {            /* xlogy(target, target) - target * input */
        tsr_operand ot = tsr_operand_tensor(t);
        if ((a = tsr_special_binary(TSR_SPECIAL_XLOGY, &ot, &ot, NULL)) && (b = bin(TSR_BINOP_MUL, t, x)))
            o = bin(TSR_BINOP_SUB, a, b);
    }
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    return tsr__nn_reduce_loss(o, red);
}

/* binary_cross_entropy_with_logits, 1.13's in-place chain:
 * max_val = (-x).clamp_min_(0);
 * loss = (1 - t).mul_(x).add_(max_val).add_((-max_val).exp_().add_((-x - max_val).exp_()).log_())
 * (with pos_weight: log_weight = (pos_weight - 1).mul(t).add_(1), and the log term times it), times weight. */
tsr_tensor *tsr_nn_bce_with_logits(const tsr_tensor *x, const tsr_tensor *t, const tsr_tensor *w,
                                   const tsr_tensor *pw, tsr_reduction red)
{
    tsr_operand zero = tsr_operand_scalar(tsr_scalar_int(0));
    tsr_tensor *mx = tsr_unary(TSR_UNOP_NEG, x, NULL, NULL), *loss = NULL, *e1 = NULL, *e2 = NULL, *nx = NULL,
               *lw = NULL, *r = NULL;
    if (!mx || tsr__done(tsr_clamp_bound(mx, &zero, false, mx, true)) < 0) goto done;
    tsr_operand one = tsr_operand_scalar(tsr_scalar_int(1)), ot = tsr_operand_tensor(t), ox = tsr_operand_tensor(x);
    if (!(loss = tsr_binary(TSR_BINOP_SUB, &one, &ot, NULL, NULL)) || tsr__done(tsr_binary_(TSR_BINOP_MUL, loss, &ox, NULL)) < 0)
        goto done;
    /* (-max_val).exp_().add_((-input - max_val).exp_()).log_() */
    if (!(e1 = tsr_unary(TSR_UNOP_NEG, mx, NULL, NULL)) || tsr__done(tsr_unary_(TSR_UNOP_EXP, e1, NULL)) < 0) goto done;
    if (!(nx = tsr_unary(TSR_UNOP_NEG, x, NULL, NULL)) || !(e2 = bin(TSR_BINOP_SUB, nx, mx)) ||
        tsr__done(tsr_unary_(TSR_UNOP_EXP, e2, NULL)) < 0)
        goto done;
    tsr_operand oe2 = tsr_operand_tensor(e2), omx = tsr_operand_tensor(mx);
    if (tsr__done(tsr_binary_(TSR_BINOP_ADD, e1, &oe2, NULL)) < 0 || tsr__done(tsr_unary_(TSR_UNOP_LOG, e1, NULL)) < 0) goto done;
    if (pw) {
        if (!(lw = bin_s(TSR_BINOP_SUB, pw, tsr_scalar_int(1))) || !tsr__take(&lw, bin(TSR_BINOP_MUL, lw, t)) ||
            tsr__done(tsr_binary_(TSR_BINOP_ADD, lw, &one, NULL)) < 0)
            goto done;
        tsr_operand oe1 = tsr_operand_tensor(e1);
        /* log_weight.mul_(log_term.add_(max_val)); loss.add_(that) */
        if (tsr__done(tsr_binary_(TSR_BINOP_ADD, e1, &omx, NULL)) < 0 || tsr__done(tsr_binary_(TSR_BINOP_MUL, lw, &oe1, NULL)) < 0)
            goto done;
        tsr_operand olw = tsr_operand_tensor(lw);
        if (tsr__done(tsr_binary_(TSR_BINOP_ADD, loss, &olw, NULL)) < 0) goto done;
    } else {
        tsr_operand oe1 = tsr_operand_tensor(e1);
        if (tsr__done(tsr_binary_(TSR_BINOP_ADD, loss, &omx, NULL)) < 0 || tsr__done(tsr_binary_(TSR_BINOP_ADD, loss, &oe1, NULL)) < 0)
            goto done;
    }
    if (w) {
        tsr_operand ow = tsr_operand_tensor(w);
        if (tsr__done(tsr_binary_(TSR_BINOP_MUL, loss, &ow, NULL)) < 0) goto done;
    }
    r = tsr__nn_reduce_loss(tsr_tensor_retain(loss), red);
done:
    tsr_tensor_release(mx);
    tsr_tensor_release(loss);
    tsr_tensor_release(e1);
    tsr_tensor_release(e2);
    tsr_tensor_release(nx);
    tsr_tensor_release(lw);
    return r;
}

/* ------------------------------------------------------------ kernels composed in their order */
/* (from the nnf19 branch) The elementwise activations with their own
 * kernels in 1.13, composed from the runtime's kernels in the kernels'
 * order of operations. The *_own forms are bin / bin_s / tsr_unary that
 * consume (release) their tensor arguments, for nesting; NULL passes through. */
static tsr_tensor *bin_own(tsr_binop op, tsr_tensor *a, tsr_tensor *b)
{
    tsr_tensor *r = a && b ? bin(op, a, b) : NULL;
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    return r;
}

static tsr_tensor *bin_s_own(tsr_binop op, tsr_tensor *a, double s)
{
    tsr_tensor *r = a ? bin_s(op, a, tsr_scalar_float(s)) : NULL;
    tsr_tensor_release(a);
    return r;
}

static tsr_tensor *un_own(tsr_unop op, tsr_tensor *a)
{
    tsr_tensor *r = a ? tsr_unary(op, a, NULL, NULL) : NULL;
    tsr_tensor_release(a);
    return r;
}

static tsr_tensor *relu6_of(tsr_tensor *a)
{
    /* min(max(a, 0), 6); consumes a */
    if (!a) return NULL;
    tsr_operand lo = tsr_operand_scalar(tsr_scalar_int(0)), hi = tsr_operand_scalar(tsr_scalar_int(6));
    tsr_tensor *r = tsr_clamp(a, &lo, &hi, NULL);
    tsr_tensor_release(a);
    return r;
}

static tsr_tensor *dretained(tsr_tensor *t) { tsr_tensor_retain(t); return t; }

static tsr_tensor *act_float(tsr_nn_act act, tsr_tensor *x, double alpha, double scale, double input_scale,
                             bool elu_bf16)
{
    switch (act) {
    case TSR_NN_SILU:
        return bin_own(TSR_BINOP_DIV, dretained(x), bin_s_own(TSR_BINOP_ADD, un_own(TSR_UNOP_EXP, un_own(TSR_UNOP_NEG, dretained(x))), 1));
    case TSR_NN_HARDSIGMOID: return bin_s_own(TSR_BINOP_DIV, relu6_of(bin_s(TSR_BINOP_ADD, x, tsr_scalar_float(3))), 6);
    case TSR_NN_HARDSWISH:
        return bin_s_own(TSR_BINOP_DIV, bin_own(TSR_BINOP_MUL, dretained(x), relu6_of(bin_s(TSR_BINOP_ADD, x, tsr_scalar_float(3)))), 6);
    case TSR_NN_MISH:   /* 1.13's fused kernel: libm in the rows' tails */
        if ((x->dtype == TSR_FLOAT32 || x->dtype == TSR_FLOAT64) && !tsr_device_is_meta(x->device))
            return tsr_nn_mish_forward(x);
        return bin_own(TSR_BINOP_MUL, dretained(x), un_own(TSR_UNOP_TANH, un_own(TSR_UNOP_LOG1P, un_own(TSR_UNOP_EXP, dretained(x)))));
    case TSR_NN_ELU:
    case TSR_NN_SELU:
    case TSR_NN_CELU: {
        /* the coefficients are scalar_t values: alpha * scale rounded in x's dtype */
        double negcoef = x->dtype == TSR_FLOAT64 ? alpha * scale : (double)((float)alpha * (float)scale);
        if (x->dtype == TSR_FLOAT32 && !tsr_device_is_meta(x->device) && !elu_bf16)
            return tsr_nn_elu_forward(x, negcoef, (float)scale, (float)input_scale);
        if (x->dtype == TSR_FLOAT64 && !tsr_device_is_meta(x->device))
            return tsr_nn_elu_forward(x, negcoef, scale, input_scale);
        tsr_tensor *neg = bin_s_own(TSR_BINOP_MUL, bin_s_own(TSR_BINOP_SUB, un_own(TSR_UNOP_EXP, bin_s(TSR_BINOP_MUL, x, tsr_scalar_float(input_scale))), 1),
                                 negcoef);
        tsr_tensor *pos = bin_s(TSR_BINOP_MUL, x, tsr_scalar_float(scale)), *r = NULL;
        tsr_operand zero = tsr_operand_scalar(tsr_scalar_int(0)), xo = tsr_operand_tensor(x);
        tsr_tensor *cond = neg && pos ? tsr_compare(TSR_CMP_GT, &xo, &zero, NULL) : NULL;
        if (cond) {
            tsr_operand po = tsr_operand_tensor(pos), no = tsr_operand_tensor(neg);
            r = tsr_where(cond, &po, &no, NULL);
            tsr_tensor_release(cond);
        }
        if (neg) tsr_tensor_release(neg);
        if (pos) tsr_tensor_release(pos);
        return r;
    }
    }
    return NULL;
}

tsr_tensor *tsr_nn_activation(tsr_nn_act act, tsr_tensor *x, double alpha, bool inplace)
{
    static const char *const kernel[] = {"silu_cpu", "hardsigmoid_cpu", "hardswish_cpu", "mish_cpu",
                                         "elu_cpu", "elu_cpu", "elu_cpu"};
    double scale = 1, input_scale = 1;
    if (act == TSR_NN_SELU) {
        alpha = 1.6732632423543772848170429916717;
        scale = 1.0507009873554804934193349852946;
    } else if (act == TSR_NN_CELU) {
        if (alpha == 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "ZeroDivisionError: alpha cannot be 0 for CELU");
            return NULL;
        }
        input_scale = 1. / alpha;
    }
    if (tsr__nn_on_device(x)) {
        static const tsr_dact dk[] = {TSR_DACT_SILU, TSR_DACT_HARDSIGMOID, TSR_DACT_HARDSWISH, TSR_DACT_MISH,
                                      TSR_DACT_ELU, TSR_DACT_ELU, TSR_DACT_ELU};
        return tsr__act_dev(dk[act], x, alpha * scale, scale, input_scale, inplace);
    }
    tsr_dtype dt = x->dtype;
    if (dt != TSR_FLOAT32 && dt != TSR_FLOAT64 && (dt != TSR_BFLOAT16 || act == TSR_NN_MISH)) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel[act], tsr_dtype_scalar_name(dt));
        return NULL;
    }
    /* silu's bfloat16 kernel is Vectorized<BFloat16> arithmetic: each step
     * rounds to bfloat16 (runs in x's dtype); the others compute in float */
    tsr_tensor *xf = dt == TSR_BFLOAT16 && act != TSR_NN_SILU ? tsr_to_dtype(x, TSR_FLOAT32, false) : dretained(x);
    if (!xf) return NULL;
    tsr_tensor *r = act_float(act, xf, alpha, scale, input_scale, dt == TSR_BFLOAT16);
    tsr_tensor_release(xf);
    if (r && r->dtype != dt) {
        tsr_tensor *c = tsr_to_dtype(r, dt, false);
        tsr_tensor_release(r);
        r = c;
    }
    if (r && inplace) {
        int rc = tsr_copy_(x, r);
        tsr_tensor_release(r);
        if (rc < 0) return NULL;
        return dretained(x);
    }
    return r;
}

/* 1.13's use_mkldnn(self) for gelu: a contiguous float32 input of more than
 * one element (bfloat16 only on CPUs with AVX-512 BW/VL/DQ, which tsr
 * does not target: its own kernel there) */
bool tsr__gelu_uses_dnnl(const tsr_tensor *x)
{
    return (x->dtype == TSR_FLOAT32 || (x->dtype == TSR_BFLOAT16 && tsr__dnnl_bf16_usable())) &&
           tsr_tensor_is_contiguous(x) && tsr_tensor_numel(x) > 1;
}

static bool float_kernel(const tsr_tensor *x, const char *kernel)
{
    if (x->dtype == TSR_FLOAT32 || x->dtype == TSR_FLOAT64 || x->dtype == TSR_BFLOAT16) return true;
    tsr_error_set(TSR_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, tsr_dtype_scalar_name(x->dtype));
    return false;
}

tsr_tensor *tsr_nn_gelu(const tsr_tensor *x, const char *approximate)
{
    bool tanh_ = !strcmp(approximate, "tanh");
    if (!tanh_ && strcmp(approximate, "none")) {
        tsr_error_set(TSR_ERR_RUNTIME, "approximate argument must be either none or tanh.");
        return NULL;
    }
    if (tsr__nn_on_device(x))
        return tsr__act_dev(tanh_ ? TSR_DACT_GELU_TANH : TSR_DACT_GELU, (tsr_tensor *)x, 0, 0, 0, false);
    if (!float_kernel(x, "GeluKernelImpl")) return NULL;
    if (!tanh_ && tsr__gelu_uses_dnnl(x)) return tsr_device_is_meta(x->device) ? tsr_tensor_empty(x->ndim, x->sizes, x->dtype, x->device)
                                                                              : tsr_nn_gelu_erf_dnnl(x, NULL);
    if (tanh_ && (x->dtype == TSR_FLOAT32 || x->dtype == TSR_FLOAT64)) return tsr_nn_gelu_tanh_forward(x, NULL);
    tsr_tensor *xx = (tsr_tensor *)x;
    if (!tanh_)
        return bin_own(TSR_BINOP_MUL, bin_s(TSR_BINOP_MUL, x, tsr_scalar_float(0.5)),
                     bin_s_own(TSR_BINOP_ADD, un_own(TSR_UNOP_ERF, bin_s(TSR_BINOP_MUL, x, tsr_scalar_float(M_SQRT1_2))), 1));
    const double beta = M_SQRT2 * M_2_SQRTPI * 0.5, kappa = 0.044715;
    tsr_tensor *cube = bin_own(TSR_BINOP_MUL, bin_own(TSR_BINOP_MUL, dretained(xx), dretained(xx)), dretained(xx));
    tsr_tensor *inner = bin_s_own(TSR_BINOP_MUL, bin_own(TSR_BINOP_ADD, dretained(xx), bin_s_own(TSR_BINOP_MUL, cube, kappa)), beta);
    /* 0.5 * x: the scalar on the left, the same product */
    return bin_own(TSR_BINOP_MUL, bin_s(TSR_BINOP_MUL, x, tsr_scalar_float(0.5)), bin_s_own(TSR_BINOP_ADD, un_own(TSR_UNOP_TANH, inner), 1));
}

tsr_tensor *tsr_nn_softplus(const tsr_tensor *x, double beta, double threshold)
{
    if (tsr__nn_on_device(x)) return tsr__act_dev(TSR_DACT_SOFTPLUS, (tsr_tensor *)x, beta, threshold, 0, false);
    if (!float_kernel(x, "softplus_cpu")) return NULL;
    if (x->dtype == TSR_BFLOAT16) {
        /* computed in float, rounded once */
        tsr_tensor *xf = tsr_to_dtype(x, TSR_FLOAT32, false), *r = xf ? tsr_nn_softplus(xf, beta, threshold) : NULL, *c;
        if (xf) tsr_tensor_release(xf);
        if (!r) return NULL;
        c = tsr_to_dtype(r, TSR_BFLOAT16, false);
        tsr_tensor_release(r);
        return c;
    }
    tsr_tensor *xb = bin_s(TSR_BINOP_MUL, x, tsr_scalar_float(beta));
    if (!xb) return NULL;
    tsr_tensor *soft = bin_s_own(TSR_BINOP_DIV, un_own(TSR_UNOP_LOG1P, un_own(TSR_UNOP_EXP, dretained(xb))), beta), *r = NULL;
    tsr_operand xbo = tsr_operand_tensor(xb), th = tsr_operand_scalar(tsr_scalar_float(threshold));
    tsr_tensor *cond = soft ? tsr_compare(TSR_CMP_GT, &xbo, &th, NULL) : NULL;
    if (cond) {
        tsr_operand xo = tsr_operand_tensor(x), so = tsr_operand_tensor(soft);
        r = tsr_where(cond, &xo, &so, NULL);
        tsr_tensor_release(cond);
    }
    tsr_tensor_release(xb);
    if (soft) tsr_tensor_release(soft);
    return r;
}


/* ------------------------------------------------------------ log_sigmoid and the backward kernels */

/* log_sigmoid_cpu_kernel: on the contiguous input, buffer = exp(-|x|),
 * out = min(x, 0) - log1p(buffer), each step a vector op */
tsr_tensor *tsr_nn_log_sigmoid(const tsr_tensor *x)
{
    if (tsr__nn_on_device(x)) return tsr__act_dev(TSR_DACT_LOG_SIGMOID, (tsr_tensor *)x, 0, 0, 0, false);
    if (!float_kernel(x, "log_sigmoid_cpu")) return NULL;
    if (x->dtype == TSR_BFLOAT16) {   /* computed in float, rounded once */
        tsr_tensor *xf = tsr_to_dtype(x, TSR_FLOAT32, false), *r = xf ? tsr_nn_log_sigmoid(xf) : NULL;
        tsr_tensor_release(xf);
        if (r) tsr__take(&r, tsr_to_dtype(r, TSR_BFLOAT16, false));
        return r;
    }
    tsr_tensor *xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS), *buf = NULL, *m = NULL, *r = NULL;
    if (!xc) return NULL;
    tsr_operand zero = tsr_operand_scalar(tsr_scalar_int(0));
    buf = un_own(TSR_UNOP_EXP, un_own(TSR_UNOP_NEG, tsr_unary(TSR_UNOP_ABS, xc, NULL, NULL)));
    m = buf ? tsr_clamp_bound(xc, &zero, true, NULL, false) : NULL;
    if (m) r = bin_own(TSR_BINOP_SUB, m, tsr_unary(TSR_UNOP_LOG1P, buf, NULL, NULL));
    tsr_tensor_release(buf);
    tsr_tensor_release(xc);
    return r;
}

/* nll_loss_backward_out_frame */
#define NLL_BACK(T, GI, G, TG, W, batch, ncls, two_d, none, red, tw, ignore)                  \
    do {                                                                                       \
        T *gi_ = (T *)(GI);                                                                    \
        const T *g_ = (const T *)(G);                                                          \
        const int64_t *t_ = (const int64_t *)(TG);                                             \
        const T *w_ = (const T *)(W);                                                          \
        if ((none) && (two_d)) {                                                               \
            for (int64_t b = 0; b < (batch); b++) {                                            \
                int64_t c = t_[b];                                                             \
                if (c == (ignore) || c < 0 || c >= (ncls)) continue;                           \
                T w = w_ ? w_[c] : (T)1;                                                       \
                gi_[b * (ncls) + c] = -w * g_[b];                                              \
            }                                                                                  \
            break;                                                                             \
        }                                                                                      \
        const T twv_ = (T)(tw);                                                                \
        const T grad_ = -((red) == TSR_REDUCTION_MEAN ? g_[0] / twv_ : g_[0]);                 \
        for (int64_t b = 0; b < ((two_d) ? (batch) : 1); b++) {                                \
            int64_t c = t_[b];                                                                 \
            if (c == (ignore) || c < 0 || c >= (ncls)) continue;                               \
            gi_[b * (ncls) + c] = w_ ? w_[c] * grad_ : grad_;                                  \
        }                                                                                      \
    } while (0)

tsr_tensor *tsr_nn_nll_loss_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *target,
                                     const tsr_tensor *weight, tsr_reduction red, int64_t ignore_index,
                                     double total_weight)
{
    if (tsr__nn_on_device(x)) return tsr__nll_loss_backward_dev(g, x, target, weight, red, ignore_index, total_weight);
    if (x->dtype == TSR_BFLOAT16 || target->dtype == TSR_UINT8) {   /* as the forward: nll_loss2d's */
        tsr_tensor *xv, *tv;
        if (nll_views(x, target, &xv, &tv) < 0) return NULL;
        bool none2 = red == TSR_REDUCTION_NONE && x->ndim == 2;
        tsr_reduction r2 = red == TSR_REDUCTION_NONE && !none2 ? TSR_REDUCTION_SUM : red;
        tsr_tensor *gv = none2 ? tsr_view_view(g, 3, (int64_t[]){x->sizes[0], 1, 1}) : tsr_tensor_retain((tsr_tensor *)g);
        tsr_tensor *r = gv ? tsr_nn_nll_loss2d_backward(gv, xv, tv, weight, r2, ignore_index, total_weight) : NULL;
        if (r) tsr__take(&r, tsr_view_view(r, x->ndim, x->sizes));
        tsr_tensor_release(gv);
        tsr_tensor_release(xv);
        tsr_tensor_release(tv);
        return r;
    }
    tsr_tensor *gi = tsr_zeros(x->ndim, x->sizes, x->dtype, x->device);
    tsr_tensor *gc = gi ? tsr_to_dtype_format(g, x->dtype, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *tc = gc ? tsr_contiguous(target, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *wc = tc && weight ? tsr_contiguous(weight, TSR_MF_CONTIGUOUS) : NULL;
    if (!tc || (weight && !wc)) {
        tsr__take(&gi, NULL);
        goto done;
    }
    bool two_d = x->ndim == 2, none = red == TSR_REDUCTION_NONE;
    int64_t batch = two_d ? x->sizes[0] : 1, ncls = x->sizes[x->ndim - 1];
    if (tsr_tensor_numel(x) == 0) goto done;
    if (x->dtype == TSR_FLOAT64)
        NLL_BACK(double, tsr_tensor_ptr(gi, NULL), tsr_tensor_ptr(gc, NULL), tsr_tensor_ptr(tc, NULL),
                 wc ? tsr_tensor_ptr(wc, NULL) : NULL, batch, ncls, two_d, none, red, total_weight, ignore_index);
    else
        NLL_BACK(float, tsr_tensor_ptr(gi, NULL), tsr_tensor_ptr(gc, NULL), tsr_tensor_ptr(tc, NULL),
                 wc ? tsr_tensor_ptr(wc, NULL) : NULL, batch, ncls, two_d, none, red, total_weight, ignore_index);
done:
    tsr_tensor_release(gc);
    tsr_tensor_release(tc);
    tsr_tensor_release(wc);
    return gi;
}

/* embedding_dense_backward_cpu: zeros(num_weights, dim), then row k of
 * the result += row i of the gradient for each index k = indices[i] in
 * order, skipping padding_idx (negative: none); scale_grad_by_freq
 * divides each row by its index's count (rounded, then added) */
tsr_tensor *tsr_nn_embedding_backward(const tsr_tensor *g, const tsr_tensor *indices, int64_t num_weights,
                                      int64_t padding_idx, bool scale_grad_by_freq)
{
    int64_t numel = tsr_tensor_numel(indices), dim = g->ndim ? g->sizes[g->ndim - 1] : 1, flat = -1;
    int64_t sz2[2] = {num_weights, dim}, rs[2] = {numel, dim};
    tsr_tensor *gw = tsr_zeros(2, sz2, g->dtype, g->device), *ix = NULL, *keep = NULL, *rows = NULL, *g2 = NULL;
    tsr_tensor *sel = NULL, *scale = NULL;
    if (!gw) return NULL;
    if (!(ix = tsr_to_dtype_format(indices, TSR_INT64, TSR_MF_CONTIGUOUS)) || !tsr__take(&ix, tsr_reshape(ix, 1, &flat)) ||
        !(g2 = tsr_contiguous(g, TSR_MF_CONTIGUOUS)) || !tsr__take(&g2, tsr_reshape(g2, 2, rs)))
        goto fail;
    if (tsr__nn_on_device(g)) {   /* composed on the device (nn_dev.c) */
        tsr_tensor_release(gw);
        gw = tsr__embedding_backward_dev(g2, ix, num_weights, padding_idx, scale_grad_by_freq);
        goto out;
    }
    const int64_t *iv = tsr_tensor_ptr(ix, NULL);
    int64_t k = 0;
    if (!(keep = tsr_tensor_empty(1, &numel, TSR_INT64, TSR_CPU)) || !(sel = tsr_tensor_empty(1, &numel, TSR_INT64, TSR_CPU)))
        goto fail;
    int64_t *kv = tsr_tensor_ptr(keep, NULL), *sv = tsr_tensor_ptr(sel, NULL);
    for (int64_t i = 0; i < numel; i++)
        if (iv[i] != padding_idx) {
            kv[k] = i;
            sv[k++] = iv[i];
        }
    if (k == 0) goto out;
    if (!tsr__take(&keep, tsr_view_narrow(keep, 0, 0, k)) || !tsr__take(&sel, tsr_view_narrow(sel, 0, 0, k)) ||
        !(rows = tsr_index_select(g2, 0, keep)))
        goto fail;
    if (scale_grad_by_freq) {
        int64_t sc[2] = {k, 1};
        if (!(scale = tsr_tensor_empty(2, sc, TSR_FLOAT64, TSR_CPU))) goto fail;
        double *scv = tsr_tensor_ptr(scale, NULL);
        for (int64_t i = 0; i < k; i++) {
            int64_t cnt = 0;
            for (int64_t j = 0; j < numel; j++) cnt += iv[j] == sv[i];
            scv[i] = 1.0 / (double)cnt;
        }
        if (!tsr__take(&scale, tsr_to_dtype(scale, g->dtype, false)) || !tsr__take(&rows, bin(TSR_BINOP_MUL, rows, scale)))
            goto fail;
    }
    if (tsr_index_add_(gw, 0, sel, rows, tsr_scalar_int(1)) < 0) goto fail;
out:
    tsr_tensor_release(ix);
    tsr_tensor_release(keep);
    tsr_tensor_release(sel);
    tsr_tensor_release(rows);
    tsr_tensor_release(g2);
    tsr_tensor_release(scale);
    return gw;
fail:
    tsr__take(&gw, NULL);
    goto out;
}

/* embedding_sparse_backward: without padding_idx, indices.reshape(1, -1)
 * and grad.reshape(-1, dim) (views where they can be: an expanded gradient
 * gives non-contiguous values, which sparse addition concatenates); with
 * one, the rows whose index is not padding_idx (copies). Sizes
 * (num_weights, dim), uncoalesced; no rows left: nnz 0. */
tsr_tensor *tsr_nn_embedding_sparse_backward(const tsr_tensor *g, const tsr_tensor *indices, int64_t num_weights,
                                             int64_t padding_idx)
{
    if (tsr__nn_on_device(g)) {   /* sparse tensors stay on the CPU in tsr */
        tsr_error_no_kernel("aten::embedding_sparse_backward", tsr_device_backend_name(g->device.type), "CPU, Meta");
        return NULL;
    }
    int64_t numel = tsr_tensor_numel(indices), dim = g->ndim ? g->sizes[g->ndim - 1] : 1, k = 0;
    int64_t sz2[2] = {num_weights, dim}, row[2] = {1, -1}, rs[2] = {-1, dim};
    tsr_tensor *ind = NULL, *vals = NULL, *keep = NULL;
    if (padding_idx >= 0) {
        int64_t flat = -1, gs[2] = {numel, dim};
        tsr_tensor *ix = tsr_to_dtype_format(indices, TSR_INT64, TSR_MF_CONTIGUOUS), *g2 = NULL;
        if (ix && tsr__take(&ix, tsr_reshape(ix, 1, &flat)) && (g2 = tsr_reshape(g, 2, gs)) &&
            (keep = tsr_tensor_empty(1, &numel, TSR_INT64, TSR_CPU))) {
            const int64_t *iv = tsr_tensor_ptr(ix, NULL);
            int64_t *kv = tsr_tensor_ptr(keep, NULL);
            for (int64_t i = 0; i < numel; i++)
                if (iv[i] != padding_idx) kv[k++] = i;
            if (tsr__take(&keep, tsr_view_narrow(keep, 0, 0, k)) && (ind = tsr_index_select(ix, 0, keep)))
                vals = tsr_index_select(g2, 0, keep);
        }
        tsr_tensor_release(ix);
        tsr_tensor_release(g2);
        tsr_tensor_release(keep);
    } else {
        ind = tsr_to_dtype(indices, TSR_INT64, false);
        vals = tsr_tensor_retain((tsr_tensor *)g);
    }
    if (!ind || !vals || !tsr__take(&ind, tsr_reshape(ind, 2, row)) || !tsr__take(&vals, tsr_reshape(vals, 2, rs))) {
        tsr_tensor_release(ind);
        tsr_tensor_release(vals);
        return NULL;
    }
    return tsr_sparse_wrap(2, sz2, ind, vals, false);
}

/* embedding_renorm_cpu_: each row the sorted, deduplicated indices name
 * whose norm_type-norm exceeds max_norm is scaled in place by
 * max_norm / (norm + 1e-7) */
int tsr_nn_embedding_renorm_(tsr_tensor *weight, const tsr_tensor *indices, double max_norm, double norm_type)
{
    if (tsr__nn_on_device(weight)) {   /* a host loop over the rows */
        tsr_error_no_kernel("aten::embedding_renorm_", tsr_device_backend_name(weight->device.type), "CPU, Meta");
        return -1;
    }
    if (weight->ndim != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected 2-dimensional tensor, but got %d-dimensional tensor for argument #1 "
                      "'self' (while checking arguments for embedding_renorm_)", weight->ndim);
        return -1;
    }
    if (indices->dtype != TSR_INT64 && indices->dtype != TSR_INT32) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected tensor for argument #2 'indices' to have one of the following scalar "
                      "types: Long, Int; but got torch.%sTensor instead (while checking arguments for "
                      "embedding_renorm_)", tsr_dtype_scalar_name(indices->dtype));
        return -1;
    }
    int64_t n = tsr_tensor_numel(indices), flat = -1;
    tsr_tensor *ix = tsr_to_dtype_format(indices, TSR_INT64, TSR_MF_CONTIGUOUS);
    if (!ix || !tsr__take(&ix, tsr_reshape(ix, 1, &flat))) return -1;
    int64_t *sorted = tsr_malloc((size_t)(n ? n : 1) * sizeof(int64_t));
    if (!sorted) {
        tsr_tensor_release(ix);
        return -1;
    }
    memcpy(sorted, tsr_tensor_ptr(ix, NULL), (size_t)n * sizeof(int64_t));
    tsr_tensor_release(ix);
    for (int64_t i = 1; i < n; i++)   /* insertion sort: index lists are short */
        for (int64_t j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            int64_t t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    int rc = 0;
    for (int64_t i = 0; i < n && rc == 0; i++) {
        if (i > 0 && sorted[i] == sorted[i - 1]) continue;
        int64_t k = sorted[i] < 0 ? sorted[i] + weight->sizes[0] : sorted[i];
        if (k < 0 || k >= weight->sizes[0]) {
            tsr_error_set(TSR_ERR_INDEX, "index %lld is out of bounds for dimension 0 with size %lld", (long long)sorted[i],
                          (long long)weight->sizes[0]);
            rc = -1;
            break;
        }
        tsr_tensor *row = tsr_view_select(weight, 0, k), *nr = row ? tsr_norm(row, norm_type, NULL, false, TSR_DTYPE_UNDEFINED, NULL) : NULL;
        if (!nr) rc = -1;
        else {
            double norm = tsr_tensor_get_double(nr, NULL);
            if (norm > max_norm) {
                tsr_operand sc = tsr_operand_scalar(tsr_scalar_float(max_norm / (norm + 1e-7)));
                rc = tsr__done(tsr_binary_(TSR_BINOP_MUL, row, &sc, NULL));
            }
        }
        tsr_tensor_release(nr);
        tsr_tensor_release(row);
    }
    tsr_free(sorted);
    return rc;
}
