/* runtime/ops/nn_loss.c — soft_margin_loss forward and backward, each the
 * sequence of in-place ops 1.13's Loss.cpp runs (so the dtype rules, the
 * errors and the rounding of every step are those ops'). */
#include <math.h>
#include <stdio.h>

#include "nn_loss.h"
#include "nn.h"
#include "binary.h"
#include "factory.h"
#include "reduce.h"
#include "unary.h"
#include "copy.h"
#include "sleef.h"
#include "../device.h"
#include "../error.h"
#include "../internal.h"


/* self.op_(t) in place; -1 on failure */
static int inplace_t(tsr_binop op, tsr_tensor *self, const tsr_tensor *t)
{
    tsr_operand b = tsr_operand_tensor(t);
    tsr_tensor *r = tsr_binary_(op, self, &b, NULL);
    if (!r) return -1;
    tsr_tensor_release(r);
    return 0;
}

static int inplace_s(tsr_binop op, tsr_tensor *self, double s)
{
    tsr_operand b = tsr_operand_scalar(tsr_scalar_float(s));
    tsr_tensor *r = tsr_binary_(op, self, &b, NULL);
    if (!r) return -1;
    tsr_tensor_release(r);
    return 0;
}

static int inplace_u(tsr_unop op, tsr_tensor *self)
{
    tsr_tensor *r = tsr_unary_(op, self, NULL);
    if (!r) return -1;
    tsr_tensor_release(r);
    return 0;
}

tsr_tensor *tsr_nn_soft_margin_loss(const tsr_tensor *x, const tsr_tensor *t, tsr_reduction red)
{
    /* at::neg_out(output, input).mul_(target).exp_().add_(1.).log_() */
    tsr_tensor *o = tsr_unary(TSR_UNOP_NEG, x, NULL, NULL);
    if (!o || inplace_t(TSR_BINOP_MUL, o, t) < 0 || inplace_u(TSR_UNOP_EXP, o) < 0 ||
        inplace_s(TSR_BINOP_ADD, o, 1.0) < 0 || inplace_u(TSR_UNOP_LOG, o) < 0) {
        tsr_tensor_release(o);
        return NULL;
    }
    return tsr__nn_reduce_loss(o, red);
}

tsr_tensor *tsr_nn_soft_margin_loss_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *t,
                                             tsr_reduction red)
{
    double norm = red == TSR_REDUCTION_MEAN ? 1. / (double)tsr_tensor_numel(x) : 1.;
    /* z = at::exp(-target * input) */
    tsr_tensor *nt = tsr_unary(TSR_UNOP_NEG, t, NULL, NULL), *z = NULL, *gi = NULL;
    if (!nt) return NULL;
    tsr_operand a = tsr_operand_tensor(nt), b = tsr_operand_tensor(x);
    tsr_tensor *p = tsr_binary(TSR_BINOP_MUL, &a, &b, NULL, NULL);
    tsr_tensor_release(nt);
    if (!p) return NULL;
    z = tsr_unary(TSR_UNOP_EXP, p, NULL, NULL);
    tsr_tensor_release(p);
    if (!z) return NULL;
    /* at::mul_out(grad_input, target, z).mul_(-norm); z.add_(1); grad_input.div_(z).mul_(grad_output) */
    int64_t zero = 0;
    gi = tsr_empty(1, &zero, x->dtype, x->device, TSR_MF_CONTIGUOUS);
    tsr_operand ta = tsr_operand_tensor(t), zb = tsr_operand_tensor(z);
    tsr_tensor *r = gi ? tsr_binary(TSR_BINOP_MUL, &ta, &zb, gi, NULL) : NULL;
    tsr_tensor_release(r);
    if (!r || inplace_s(TSR_BINOP_MUL, gi, -norm) < 0 || inplace_s(TSR_BINOP_ADD, z, 1.0) < 0 ||
        inplace_t(TSR_BINOP_DIV, gi, z) < 0 || inplace_t(TSR_BINOP_MUL, gi, g) < 0) {
        tsr_tensor_release(gi);
        gi = NULL;
    }
    tsr_tensor_release(z);
    return gi;
}

/* ------------------------------------------------------------ multi_margin_loss */

/* "[2, 3]" */
static char *sizes_str(char *buf, size_t n, const tsr_tensor *t)
{
    size_t k = (size_t)snprintf(buf, n, "[");
    for (int i = 0; i < t->ndim && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? ", " : "", (long long)t->sizes[i]);
    if (k < n) snprintf(buf + k, n - k, "]");
    return buf;
}

/* multi_margin_loss_shape_check and the dtype reads of the CPU kernel; 0 or -1 */
static int mm_check(const tsr_tensor *x, const tsr_tensor *t, const tsr_tensor *w, int p, int64_t *nframe, int64_t *dim)
{
    char b[96];
    if (p != 1 && p != 2) return tsr_error_set(TSR_ERR_RUNTIME, "only p == 1 and p == 2 supported"), -1;
    int nd = x->ndim;
    if (!((nd == 2 && x->sizes[1] != 0) || (nd == 1 && x->sizes[0] != 0) || nd == 0)) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected non-empty vector or matrix with optional 0-dim batch size, but got: %s",
                      sizes_str(b, sizeof b, x));
        return -1;
    }
    *nframe = nd <= 1 ? 1 : x->sizes[0];
    *dim = nd == 0 ? 1 : nd == 1 ? x->sizes[0] : x->sizes[1];
    if (!(t->ndim <= 1 && tsr_tensor_numel(t) == *nframe)) {
        tsr_error_set(TSR_ERR_RUNTIME, "inconsistent target size, got: %s", sizes_str(b, sizeof b, t));
        return -1;
    }
    if (tsr_tensor_numel(x) == 0) return 0;
    if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64) return tsr__not_implemented("multi_margin_loss_cpu_kernel", x->dtype);
    if (t->dtype != TSR_INT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type Long but found %s", tsr_dtype_scalar_name(t->dtype));
        return -1;
    }
    if (w && w->dtype != x->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(x->dtype),
                      tsr_dtype_scalar_name(w->dtype));
        return -1;
    }
    return 0;
}

/* multi_margin_inner_sum_cpu / multi_margin_loss_cpu_kernel: the frame
 * sums in T, the reduced sum in ACC (1.13's CPU acc_type: double) */
#define MM_FWD(T, ACC)                                                                                       \
    do {                                                                                                     \
        const T *xd = (const T *)tsr_tensor_ptr(xc, NULL), *wd = wc ? (const T *)tsr_tensor_ptr(wc, NULL) : NULL; \
        const int64_t *td = (const int64_t *)tsr_tensor_ptr(tc, NULL);                                      \
        T *od = (T *)tsr_tensor_ptr(r, NULL), m = (T)margin;                                                \
        ACC acc = 0;                                                                                         \
        for (int64_t f = 0; f < nframe; f++, xd += dim) {                                                    \
            int64_t ti = td[f];                                                                              \
            if (ti < 0 || ti >= dim) { bad = true; break; }                                                 \
            T xt = xd[ti], s = 0;                                                                            \
            for (int64_t d = 0; d < dim; d++) {                                                              \
                if (d == ti) continue;                                                                       \
                T z = m - xt + xd[d];                                                                        \
                if (z > 0) {                                                                                 \
                    T h = p == 1 ? z : z * z;                                                                \
                    if (wd) h *= wd[ti];                                                                     \
                    s += h;                                                                                  \
                }                                                                                            \
            }                                                                                                \
            s /= (T)dim;                                                                                     \
            if (per_frame) od[f] = s;                                                                        \
            else acc += s;                                                                                   \
        }                                                                                                    \
        if (!per_frame) {                                                                                    \
            if (red == TSR_REDUCTION_MEAN) acc /= (ACC)nframe;                                               \
            od[0] = (T)acc;                                                                                  \
        }                                                                                                    \
    } while (0)

tsr_tensor *tsr_nn_multi_margin_loss(const tsr_tensor *x, const tsr_tensor *t, int p, double margin,
                                     const tsr_tensor *w, tsr_reduction red)
{
    int64_t nframe, dim;
    if (tsr_device_is_meta(x->device) || tsr_device_is_meta(t->device)) {
        tsr_error_no_kernel("aten::multi_margin_loss", "Meta", "CPU");
        return NULL;
    }
    if (mm_check(x, t, w, p, &nframe, &dim) < 0) return NULL;
    bool per_frame = red == TSR_REDUCTION_NONE && t->ndim > 0, bad = false;
    tsr_tensor *r = tsr_tensor_empty(per_frame ? 1 : 0, &nframe, x->dtype, x->device);
    if (!r || tsr_tensor_numel(x) == 0) return r;   /* 1.13 leaves an empty input's result unwritten */
    tsr_tensor *xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS), *tc = xc ? tsr_contiguous(t, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *wc = tc && w ? tsr_contiguous(w, TSR_MF_CONTIGUOUS) : NULL;
    if (!tc || (w && !wc)) {
        tsr_tensor_release(r);
        r = NULL;
    } else if (x->dtype == TSR_FLOAT64) {
        MM_FWD(double, double);
    } else {
        MM_FWD(float, double);
    }
    if (r && bad) {
        tsr_error_set(TSR_ERR_RUNTIME, "target out of range");
        tsr_tensor_release(r);
        r = NULL;
    }
    tsr_tensor_release(xc);
    tsr_tensor_release(tc);
    tsr_tensor_release(wc);
    return r;
}

/* multi_margin_loss_backward_cpu_kernel */
#define MM_BWD(T)                                                                                            \
    do {                                                                                                     \
        const T *xd = (const T *)tsr_tensor_ptr(xc, NULL), *wd = wc ? (const T *)tsr_tensor_ptr(wc, NULL) : NULL; \
        const T *gd = (const T *)tsr_tensor_ptr(gc, NULL);                                                  \
        const int64_t *td = (const int64_t *)tsr_tensor_ptr(tc, NULL);                                      \
        T *gi = (T *)tsr_tensor_ptr(r, NULL), *row = gi, m = (T)margin;                                     \
        T gs = red == TSR_REDUCTION_MEAN ? (T)(1. / (double)(nframe * dim)) : (T)(1. / (double)dim);        \
        for (int64_t f = 0; f < nframe; f++, xd += dim, row += dim) {                                        \
            int64_t ti = td[f];                                                                              \
            if (ti < 0 || ti >= dim) { bad = true; break; }                                                 \
            T xt = xd[ti], gt = 0;                                                                           \
            for (int64_t d = 0; d < dim; d++) {                                                              \
                T z = m - xt + xd[d];                                                                        \
                if (d == ti) continue;                                                                       \
                if (z > 0) {                                                                                 \
                    T h = p == 1 ? gs : 2 * gs * z;                                                          \
                    if (wd) h *= wd[ti];                                                                     \
                    gt -= h;                                                                                 \
                    row[d] = h;                                                                              \
                } else {                                                                                     \
                    row[d] = 0;                                                                              \
                }                                                                                            \
            }                                                                                                \
            row[ti] = gt;                                                                                    \
        }                                                                                                    \
        if (red != TSR_REDUCTION_NONE || g->ndim == 0) {                                                     \
            for (int64_t i = 0; i < nframe * dim; i++) gi[i] *= gd[0];                                       \
        } else {                                                                                             \
            for (int64_t f = 0; f < nframe; f++)                                                             \
                for (int64_t d = 0; d < dim; d++) gi[f * dim + d] *= gd[f];                                  \
        }                                                                                                    \
    } while (0)

tsr_tensor *tsr_nn_multi_margin_loss_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *t, int p,
                                              double margin, const tsr_tensor *w, tsr_reduction red)
{
    int64_t nframe, dim;
    if (mm_check(x, t, w, p, &nframe, &dim) < 0) return NULL;
    tsr_tensor *r = tsr_zeros(x->ndim, x->sizes, x->dtype, x->device);
    if (!r || tsr_tensor_numel(x) == 0) return r;
    bool bad = false;
    tsr_tensor *xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS), *tc = xc ? tsr_contiguous(t, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *gc = tc ? tsr_contiguous(g, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *wc = gc && w ? tsr_contiguous(w, TSR_MF_CONTIGUOUS) : NULL;
    if (!gc || (w && !wc)) {
        tsr_tensor_release(r);
        r = NULL;
    } else if (x->dtype == TSR_FLOAT64) {
        MM_BWD(double);
    } else {
        MM_BWD(float);
    }
    if (r && bad) {
        tsr_error_set(TSR_ERR_RUNTIME, "target out of range");
        tsr_tensor_release(r);
        r = NULL;
    }
    tsr_tensor_release(xc);
    tsr_tensor_release(tc);
    tsr_tensor_release(gc);
    tsr_tensor_release(wc);
    return r;
}

/* ------------------------------------------------------------ multilabel_margin_loss */

/* multilabel_margin_loss_shape_check, the target range checks and the
 * dtype reads of the CPU kernel; 0 or -1 */
static int mlm_check(const tsr_tensor *x, const tsr_tensor *t, int64_t *nframe, int64_t *dim)
{
    char b[96];
    int nd = x->ndim;
    bool valid = (nd == 2 && x->sizes[1] != 0) || (nd == 1 && x->sizes[0] != 0) || nd == 0;
    if (!valid) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected non-empty vector or matrix with optional 0-dim batch size, but got: %s",
                      sizes_str(b, sizeof b, x));
        return -1;
    }
    *nframe = nd <= 1 ? 1 : x->sizes[0];
    *dim = nd == 0 ? 1 : nd == 1 ? x->sizes[0] : x->sizes[1];
    bool ok = nd <= 1 ? t->ndim <= 1 && tsr_tensor_numel(t) == *dim
                      : t->ndim == 2 && t->sizes[0] == *nframe && t->sizes[1] == *dim;
    if (!ok) {
        tsr_error_set(TSR_ERR_RUNTIME, "inconsistent size %s for argument #2 'target'", sizes_str(b, sizeof b, t));
        return -1;
    }
    if (tsr_tensor_numel(x) == 0) return 0;
    int64_t n = tsr_tensor_numel(t);
    tsr_tensor *tc = tsr_contiguous(t, TSR_MF_CONTIGUOUS);
    if (!tc) return -1;
    double lo = 0, hi = 0;
    for (int64_t i = 0; i < n; i++) {
        tsr_scalar sv;
        if (tsr_tensor_get_at(tc, i, &sv) < 0) {
            tsr_tensor_release(tc);
            return -1;
        }
        double v = tsr_scalar_to_double(sv);
        if (i == 0 || v < lo) lo = v;
        if (i == 0 || v > hi) hi = v;
    }
    tsr_tensor_release(tc);
    if (lo < -1 || hi >= (double)(nd == 0 ? 1 : x->sizes[nd - 1]))
        return tsr_error_set(TSR_ERR_RUNTIME, "argument #2 'target' is out of range"), -1;
    if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64)
        return tsr__not_implemented("multilabel_margin_loss_forward_out_frame", x->dtype);
    if (t->dtype != TSR_INT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type Long but found %s", tsr_dtype_scalar_name(t->dtype));
        return -1;
    }
    return 0;
}

/* multilabel_margin_loss_forward_inner_sum_cpu over every frame: marks
 * is_target (T, zeroed), sums each frame in ACC returned as T; into
 * per-frame (T) or the reduced sum in ACC */
#define MLM_FWD(T, ACC)                                                                                      \
    do {                                                                                                     \
        const T *xd = (const T *)tsr_tensor_ptr(xc, NULL);                                                  \
        const int64_t *td = (const int64_t *)tsr_tensor_ptr(tc, NULL);                                      \
        T *it = (T *)tsr_tensor_ptr(ist, NULL), *od = (T *)tsr_tensor_ptr(r, NULL);                        \
        ACC total = 0;                                                                                       \
        for (int64_t f = 0; f < nframe; f++, xd += dim, td += dim, it += dim) {                              \
            ACC s = 0;                                                                                       \
            for (int64_t k = 0; k < dim && td[k] >= 0; k++) it[td[k]] = 1;                                   \
            for (int64_t k = 0; k < dim && td[k] >= 0; k++) {                                                \
                T xt = xd[td[k]];                                                                            \
                for (int64_t d = 0; d < dim; d++)                                                            \
                    if (!it[d]) {                                                                            \
                        T z = 1 - xt + xd[d];                                                                \
                        if (z > 0) s += z;                                                                   \
                    }                                                                                        \
            }                                                                                                \
            T fs = (T)s;                                                                                     \
            if (per_frame) od[f] = fs / (T)dim;                                                              \
            else total += fs;                                                                                \
        }                                                                                                    \
        if (!per_frame) {                                                                                    \
            total /= (ACC)dim;                                                                               \
            if (red == TSR_REDUCTION_MEAN) total /= (ACC)nframe;                                             \
            od[0] = (T)total;                                                                                \
        }                                                                                                    \
    } while (0)

/* multilabel_margin_loss_backward_out_frame */
#define MLM_BWD(T)                                                                                           \
    do {                                                                                                     \
        const T *xd = (const T *)tsr_tensor_ptr(xc, NULL), *gd = (const T *)tsr_tensor_ptr(gc, NULL);       \
        const int64_t *td = (const int64_t *)tsr_tensor_ptr(tc, NULL);                                      \
        const T *it = (const T *)tsr_tensor_ptr(ist, NULL);                                                 \
        T *gi = (T *)tsr_tensor_ptr(r, NULL), *row = gi;                                                    \
        T gs = (T)(red == TSR_REDUCTION_MEAN ? 1. / (double)(nframe * dim) : 1. / (double)dim);             \
        for (int64_t f = 0; f < nframe; f++, xd += dim, td += dim, it += dim, row += dim)                    \
            for (int64_t k = 0; k < dim && td[k] >= 0; k++) {                                                \
                T xt = xd[td[k]];                                                                            \
                for (int64_t d = 0; d < dim; d++)                                                            \
                    if (!it[d]) {                                                                            \
                        T z = 1 - xt + xd[d];                                                                \
                        if (z > 0) {                                                                         \
                            row[td[k]] -= gs;                                                                \
                            row[d] += gs;                                                                    \
                        }                                                                                    \
                    }                                                                                        \
            }                                                                                                \
        if (red != TSR_REDUCTION_NONE || g->ndim == 0) {                                                     \
            for (int64_t i = 0; i < nframe * dim; i++) gi[i] *= gd[0];                                       \
        } else {                                                                                             \
            for (int64_t f = 0; f < nframe; f++)                                                             \
                for (int64_t d = 0; d < dim; d++) gi[f * dim + d] *= gd[f];                                  \
        }                                                                                                    \
    } while (0)

/* The forward (g NULL) or the backward of multilabel_margin_loss. */
static tsr_tensor *mlm(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *t, tsr_reduction red)
{
    int64_t nframe, dim;
    if (mlm_check(x, t, &nframe, &dim) < 0) return NULL;
    bool per_frame = red == TSR_REDUCTION_NONE && t->ndim > 1;
    tsr_tensor *r = g ? tsr_zeros(x->ndim, x->sizes, x->dtype, x->device)
                      : tsr_tensor_empty(per_frame ? 1 : 0, &nframe, x->dtype, x->device);
    if (!r || tsr_tensor_numel(x) == 0) return r;
    tsr_tensor *ist = tsr_zeros(t->ndim, t->sizes, x->dtype, x->device);
    tsr_tensor *xc = ist ? tsr_contiguous(x, TSR_MF_CONTIGUOUS) : NULL, *tc = xc ? tsr_contiguous(t, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *gc = tc && g ? tsr_contiguous(g, TSR_MF_CONTIGUOUS) : NULL;
    if (!tc || (g && !gc)) {
        tsr_tensor_release(r);
        r = NULL;
    } else {
        tsr_tensor *out = r;
        if (g) {   /* the forward into a scratch scalar, for is_target */
            r = tsr_tensor_empty(0, NULL, x->dtype, x->device);
            per_frame = false;
        }
        if (!r) {
            r = out;
        } else {
            if (x->dtype == TSR_FLOAT64) MLM_FWD(double, double);
            else MLM_FWD(float, double);
            if (g) {
                tsr_tensor_release(r);
                r = out;
                if (x->dtype == TSR_FLOAT64) MLM_BWD(double);
                else MLM_BWD(float);
            }
        }
    }
    tsr_tensor_release(ist);
    tsr_tensor_release(xc);
    tsr_tensor_release(tc);
    tsr_tensor_release(gc);
    return r;
}

tsr_tensor *tsr_nn_multilabel_margin_loss(const tsr_tensor *x, const tsr_tensor *t, tsr_reduction red)
{
    if (tsr_device_is_meta(x->device) || tsr_device_is_meta(t->device)) {
        tsr_error_no_kernel("aten::multilabel_margin_loss_forward", "Meta", "CPU");
        return NULL;
    }
    return mlm(NULL, x, t, red);
}

tsr_tensor *tsr_nn_multilabel_margin_loss_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *t,
                                                   tsr_reduction red)
{
    return mlm(g, x, t, red);
}

/* ------------------------------------------------------------ pdist */

/* Distance.cpp's pdist checks and the p this port computes; 0 or -1 */
static int pdist_check(const tsr_tensor *x, double p)
{
    if (x->ndim != 2) return tsr_error_set(TSR_ERR_RUNTIME, "pdist only supports 2D tensors, got: %dD", x->ndim), -1;
    if (!tsr_dtype_is_floating(x->dtype))
        return tsr_error_set(TSR_ERR_RUNTIME, "pdist only supports floating-point dtypes"), -1;
    if (p < 0) return tsr_error_set(TSR_ERR_RUNTIME, "pdist only supports non-negative p values"), -1;
    if (x->sizes[0] > 1 && x->sizes[1] > 0 && x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64)
        return tsr__not_implemented("pdist", x->dtype);
    return 0;
}

/* map2_reduce_all over the m columns of rows a and b: lanes of W, the tail
 * set into the first lanes, then the vec_reduce_all of the dtype (W = 8:
 * AVX2's shuffle tree; W = 4: lanes in order); under W, lanes in order.
 * For p = 2 the steps after the first vector are fused (PD_STEP). */
#define PD_FWD(T, W, TREE, SLEEF2, POWF)                                                                    \
    do {                                                                                                    \
        const T *xd = (const T *)tsr_tensor_ptr(xc, NULL);                                                 \
        T *od = (T *)tsr_tensor_ptr(r, NULL), *buf = (T *)tsr_tensor_ptr(scr, NULL), pv = (T)p;            \
        int64_t k = 0, mp = (m + W - 1) / W * W;                                                            \
        for (int64_t i = 0; i < n && !(intr = tsr_check_interrupt() < 0); i++)                              \
            for (int64_t j = i + 1; j < n; j++, k++) {                                                      \
                const T *a = xd + i * m, *b = xd + j * m;                                                  \
                T acc[W] = {0}, agg;                                                                        \
                for (int64_t l = 0; l < m; l++) buf[l] = PD_MAP(T, a[l] - b[l]);                            \
                if (mode == 4) { /* pdist_calc::map: diff.abs().pow(p), a Vec pow */                        \
                    if (sleef) SLEEF2(TSR_SLEEF2_POW, buf, buf, 1, &pv, 0, mp);                             \
                    else for (int64_t l = 0; l < m; l++) buf[l] = POWF(buf[l], pv);                         \
                }                                                                                           \
                if (m < W) {                                                                                \
                    agg = buf[0];                                                                           \
                    for (int64_t l = 1; l < m; l++) agg = PD_RED(agg, buf[l]);                              \
                } else {                                                                                    \
                    for (int l = 0; l < W; l++) acc[l] = buf[l];                                            \
                    int64_t d = W;                                                                          \
                    for (; d < m - (m % W); d += W)                                                         \
                        for (int l = 0; l < W; l++) acc[l] = PD_STEP(T, acc[l], a[d + l] - b[d + l], buf[d + l]); \
                    for (int l = 0; d + l < m; l++) acc[l] = PD_STEP(T, acc[l], a[d + l] - b[d + l], buf[d + l]); \
                    agg = TREE(acc);                                                                        \
                }                                                                                           \
                od[k] = mode == 2 ? (T)sqrt(agg) : mode == 4 ? (T)pow((double)agg, 1.0 / (double)pv) : agg; \
            }                                                                                               \
    } while (0)
#define PD_ABS(v) ((v) < 0 ? -(v) : (v))
#define PD_MAP(T, v) (mode == 0 ? (isnan(v) ? (v) : (v) != 0 ? (T)1 : (T)0) : mode == 2 ? (v) * (v) : (T)fabs((double)(v)))
#define PD_MAXN(a, b) (isnan(a) ? (a) : isnan(b) ? (b) : (a) > (b) ? (a) : (b))
#define PD_RED(a, b) (mode == 3 ? PD_MAXN(a, b) : (a) + (b))
/* red(acc, map(a - b)) after the first vector: for p = 2 GCC contracts
 * acc + diff * diff into an FMA */
#define PD_STEP(T, acc, df, mapped) \
    (mode == 2 ? (sizeof(T) == 4 ? (T)fmaf((float)(df), (float)(df), (float)(acc)) : (T)fma(df, df, acc)) \
               : PD_RED(acc, mapped))
#define PD_TREE8(a) PD_RED(PD_RED(PD_RED(a[0], a[4]), PD_RED(a[2], a[6])), PD_RED(PD_RED(a[1], a[5]), PD_RED(a[3], a[7])))
#define PD_TREE4(a) PD_RED(PD_RED(PD_RED(a[0], a[1]), a[2]), a[3])

static int pdist_mode(double p) { return p == 0 ? 0 : p == 1 ? 1 : p == 2 ? 2 : isinf(p) ? 3 : 4; }

tsr_tensor *tsr_pdist(const tsr_tensor *x, double p)
{
    if (pdist_check(x, p) < 0) return NULL;
    if (tsr_device_is_meta(x->device)) {
        tsr_error_no_kernel("aten::_pdist_forward", "Meta", "CPU");
        return NULL;
    }
    int64_t n = x->sizes[0], m = x->sizes[1], c = n > 1 ? n * (n - 1) / 2 : 0;
    tsr_tensor *r = tsr_zeros(1, &c, x->dtype, x->device);
    if (!r || c == 0 || m == 0) return r;
    int mode = pdist_mode(p);
    tsr_tensor *xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS);
    if (!xc) {
        tsr_tensor_release(r);
        return NULL;
    }
    bool intr = false, sleef = tsr__sleef_usable();   /* Ctrl-C between rows */
    int64_t mp = (m + 7) / 8 * 8;
    tsr_tensor *scr = tsr_zeros(1, &mp, x->dtype, x->device);   /* one pair's mapped row, zero-padded */
    if (!scr) {
        tsr_tensor_release(xc);
        tsr_tensor_release(r);
        return NULL;
    }
    if (x->dtype == TSR_FLOAT64) PD_FWD(double, 4, PD_TREE4, tsr__sleef2_f64, pow);
    else PD_FWD(float, 8, PD_TREE8, tsr__sleef2_f32, powf);
    tsr_tensor_release(scr);
    tsr_tensor_release(xc);
    if (intr) tsr__take(&r, NULL);
    return r;
}

/* Vectorized<T>::pow of one element (Sleef's lanes, or libm off AVX2) */
static float spow_f32(float a, float b)
{
    if (!tsr__sleef_usable()) return powf(a, b);
    float x[8] = {a}, y = b;
    tsr__sleef2_f32(TSR_SLEEF2_POW, x, x, 1, &y, 0, 8);
    return x[0];
}

static double spow_f64(double a, double b)
{
    if (!tsr__sleef_usable()) return pow(a, b);
    double x[4] = {a}, y = b;
    tsr__sleef2_f64(TSR_SLEEF2_POW, x, x, 1, &y, 0, 4);
    return x[0];
}

/* backward_down_column_pdist: per column, row i gathers +r and row j -r of
 * every pair (i, j) in order; r the p's backward of diff = x_i - x_j */
#define PD_BWD(T, SPOW)                                                                                           \
    do {                                                                                                    \
        const T *xd = (const T *)tsr_tensor_ptr(xc, NULL), *gd = (const T *)tsr_tensor_ptr(gc, NULL);      \
        const T *dd = (const T *)tsr_tensor_ptr(dc, NULL);                                                 \
        T *gi = (T *)tsr_tensor_ptr(r, NULL), pv = (T)p;                                                   \
        for (int64_t col = 0; col < m && !(intr = tsr_check_interrupt() < 0); col++) {                      \
            int64_t k = 0;                                                                                  \
            for (int64_t i = 0; i + 1 < n; i++) {                                                           \
                T ri = gi[i * m + col];                                                                     \
                for (int64_t j = i + 1; j < n; j++, k++) {                                                  \
                    T diff = xd[i * m + col] - xd[j * m + col], g = gd[k], dist = dd[k], v;                 \
                    T sg = (T)((diff > 0 ? (T)1 : (T)0) + (diff < 0 ? (T)-1 : (T)0));                       \
                    if (mode == 0) v = 0;                                                                   \
                    else if (mode == 1) v = g * sg;                                                         \
                    else if (mode == 2) v = dist == 0 ? (T)0 : g * diff / dist;                             \
                    else if (mode == 4 && pv < 2) { /* lttdist_calc */                                      \
                        v = dist == 0 ? (T)0 : sg * SPOW(PD_ABS(diff), pv - 1) * g / SPOW(dist, pv - 1);    \
                        if (diff == 0 && pv < 1) v = 0;                                                     \
                    } else if (mode == 4) { /* pdist_calc */                                                \
                        v = dist == 0 ? (T)0 : diff * SPOW(PD_ABS(diff), pv - 2) * g / SPOW(dist, pv - 1);  \
                    }                                                                                       \
                    else {                                                                                  \
                        T e = (T)ceil((double)PD_ABS(PD_ABS(diff) - dist));                                 \
                        T mn = isnan(e) ? e : e < (T)1 ? e : (T)1;                                          \
                        v = g * sg * ((T)1 - mn);                                                           \
                    }                                                                                       \
                    ri = ri + v;                                                                            \
                    gi[j * m + col] = gi[j * m + col] - v;                                                  \
                }                                                                                           \
                gi[i * m + col] = ri;                                                                       \
            }                                                                                               \
        }                                                                                                   \
    } while (0)

tsr_tensor *tsr_pdist_backward(const tsr_tensor *g, const tsr_tensor *x, double p, const tsr_tensor *dist)
{
    if (pdist_check(x, p) < 0) return NULL;
    int64_t n = x->sizes[0], m = x->sizes[1];
    tsr_tensor *r = tsr_zeros(2, x->sizes, x->dtype, x->device);
    if (!r || n <= 1 || m == 0) return r;
    int mode = pdist_mode(p);
    bool intr = false;   /* Ctrl-C between columns */
    tsr_tensor *xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS), *gc = xc ? tsr_contiguous(g, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *dc = gc ? tsr_contiguous(dist, TSR_MF_CONTIGUOUS) : NULL;
    if (!dc) {
        tsr_tensor_release(r);
        r = NULL;
    } else if (x->dtype == TSR_FLOAT64) {
        PD_BWD(double, spow_f64);
    } else {
        PD_BWD(float, spow_f32);
    }
    tsr_tensor_release(xc);
    tsr_tensor_release(gc);
    tsr_tensor_release(dc);
    if (intr) tsr__take(&r, NULL);
    return r;
}
