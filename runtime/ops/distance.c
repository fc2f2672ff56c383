/* runtime/ops/distance.c — cross products and distances as 1.13 computes
 * them: linalg.cross / torch.cross (Cross.cpp: the three components
 * a[1]b[2] - a[2]b[1], ... each rounded in the dtype), torch.dist (norm of
 * the difference), renorm (Normalization.cpp: a vector norm over every dim
 * but one, then maxnorm / (norm + 1e-7) where it exceeds maxnorm) and
 * cdist (Distance.cpp: the scalar per-pair kernels, or for p = 2 on more
 * than 25 rows the mm of padded operands). */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "distance.h"
#include "binary.h"
#include "copy.h"
#include "factory.h"
#include "join.h"
#include "linalg.h"
#include "blas.h"
#include "blas_cuda.h"
#include "reduce.h"
#include "sleef.h"
#include "unary.h"
#include "../error.h"
#include "../internal.h"
#include "../op.h"
#include "../view.h"

/* "expected scalar type Float but found Double": a kernel's check that its
 * second input has the first one's dtype. */
static int same_dtype(const tsr_tensor *a, const tsr_tensor *b)
{
    if (a->dtype == b->dtype) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(a->dtype),
                  tsr_dtype_scalar_name(b->dtype));
    return -1;
}

/* ------------------------------------------------------------ cross */

/* The kernel of 1.13's cross for the float types, per component
 * COMB(x[k+1], y[k+2], x[k+2], y[k+1]). Walks every position of the other
 * dims (x, y broadcast views; r any strides). */
#define CROSS_LOOP(T, COMB, x, y, r, d)                                                            \
    do {                                                                                           \
        int nd_ = (r)->ndim;                                                                       \
        int64_t idx_[TSR_MAX_DIMS] = {0}, n_ = tsr_tensor_numel(r) / 3;                             \
        const int64_t sx_ = (x)->strides[d], sy_ = (y)->strides[d], sr_ = (r)->strides[d];         \
        for (int64_t it_ = 0; it_ < n_; it_++) {                                                   \
            const T *u_ = (const T *)tsr_tensor_ptr(x, idx_), *v_ = (const T *)tsr_tensor_ptr(y, idx_); \
            T *o_ = (T *)tsr_tensor_ptr(r, idx_);                                                  \
            T u0 = u_[0], u1 = u_[sx_], u2 = u_[2 * sx_], v0 = v_[0], v1 = v_[sy_], v2 = v_[2 * sy_]; \
            o_[0] = COMB(u1, v2, u2, v1);                                                          \
            o_[sr_] = COMB(u2, v0, u0, v2);                                                        \
            o_[2 * sr_] = COMB(u0, v1, u1, v0);                                                    \
            for (int k_ = nd_ - 1; k_ >= 0; k_--) {                                                \
                if (k_ == (d)) continue;                                                           \
                if (++idx_[k_] < (r)->sizes[k_]) break;                                            \
                idx_[k_] = 0;                                                                      \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* float and double: 1.13's kernel is built with FMA contraction, so a
 * component is fma(a, b, -(c d)) (checked bit for bit against 1.13) */
#define COMB_F(a, b, c, d) fmaf(a, b, -((c) * (d)))
#define COMB_D(a, b, c, d) fma(a, b, -((c) * (d)))
/* complex: c10::complex's products (ac - bd) + (ad + bc)i, each product
 * rounded on its own, then the difference */
static inline float _Complex cmulf_(float _Complex p, float _Complex q)
{
    float re = crealf(p) * crealf(q) - cimagf(p) * cimagf(q), im = crealf(p) * cimagf(q) + cimagf(p) * crealf(q);
    return CMPLXF(re, im);
}
static inline double _Complex cmul_(double _Complex p, double _Complex q)
{
    double re = creal(p) * creal(q) - cimag(p) * cimag(q), im = creal(p) * cimag(q) + cimag(p) * creal(q);
    return CMPLX(re, im);
}
#define COMB_CF(a, b, c, d) (cmulf_(a, b) - cmulf_(c, d))
#define COMB_CD(a, b, c, d) (cmul_(a, b) - cmul_(c, d))

__attribute__((optimize("fp-contract=off"))) static int cross_float(const tsr_tensor *x, const tsr_tensor *y,
                                                                     tsr_tensor *r, int d)
{
    switch (r->dtype) {
    case TSR_FLOAT64: CROSS_LOOP(double, COMB_D, x, y, r, d); break;
    case TSR_FLOAT32: CROSS_LOOP(float, COMB_F, x, y, r, d); break;
    case TSR_COMPLEX64: CROSS_LOOP(float _Complex, COMB_CF, x, y, r, d); break;
    default: CROSS_LOOP(double _Complex, COMB_CD, x, y, r, d); break;
    }
    return 0;
}

tsr_tensor *tsr_linalg_cross(const tsr_tensor *a, const tsr_tensor *b, int64_t dim, tsr_tensor *out)
{
    const tsr_tensor *ts[3] = {out, a, b};
    const char *const names[3] = {"out", "self", "other"};
    if (tsr__blas_device_check("wrapper_linalg_cross", 3, ts, names) < 0) return NULL;
    if (a->ndim != b->ndim) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.cross: inputs must have the same number of dimensions.");
        return NULL;
    }
    int d = tsr_wrap_dim(dim, a->ndim);
    if (d < 0) return NULL;
    if (a->sizes[d] != 3 || b->sizes[d] != 3) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.cross: inputs dimension %lld must have length 3. Got %lld and %lld",
                      (long long)dim, (long long)a->sizes[d], (long long)b->sizes[d]);
        return NULL;
    }
    int64_t shape[TSR_MAX_DIMS];
    const int nds[2] = {a->ndim, b->ndim};
    const int64_t *szs[2] = {a->sizes, b->sizes};
    int nd = tsr_broadcast_shapes(2, nds, szs, shape);
    if (nd < 0) return NULL;
    tsr_tensor *r;
    if (out) {
        if (tsr_out_dtype_check(out, a->dtype) < 0 || tsr_resize_output(out, nd, shape) < 0) return NULL;
        r = tsr_tensor_retain(out);
    } else {
        r = tsr_tensor_empty(nd, shape, a->dtype, a->device);
        if (!r) return NULL;
    }
    if (tsr_device_is_meta(r->device)) return r;
    if (same_dtype(a, b) < 0) goto fail;
    if (a->dtype == TSR_BOOL || a->dtype == TSR_FLOAT16 || a->dtype == TSR_COMPLEX32) {
        tsr__not_implemented("cross", a->dtype);
        goto fail;
    }
    if (tsr_tensor_numel(r) == 0) return r;
    tsr_tensor *x = tsr_view_expand(a, nd, shape), *y = x ? tsr_view_expand(b, nd, shape) : NULL;
    int rc = y ? 0 : -1;
    /* on cuda (r not on the cpu: meta returned above) the floating types too
     * go through the elementwise engine below, two products and a difference
     * (1.13's CUDA kernel may contract them into an fma: a last-bit difference) */
    if (rc == 0 && r->device.type == TSR_DEV_CPU &&
        (a->dtype == TSR_FLOAT32 || a->dtype == TSR_FLOAT64 || a->dtype == TSR_COMPLEX64 ||
         a->dtype == TSR_COMPLEX128)) {
        rc = cross_float(x, y, r, d);
        goto finish;
    }
    /* r[k] = x[k+1] y[k+2] - x[k+2] y[k+1], each product and the difference rounded in the dtype */
    for (int k = 0; k < 3 && rc == 0; k++) {
        tsr_tensor *x1 = tsr_view_select(x, d, (k + 1) % 3), *y2 = tsr_view_select(y, d, (k + 2) % 3);
        tsr_tensor *x2 = tsr_view_select(x, d, (k + 2) % 3), *y1 = tsr_view_select(y, d, (k + 1) % 3);
        tsr_tensor *rk = tsr_view_select(r, d, k), *p = NULL, *q = NULL, *s = NULL;
        rc = -1;
        if (x1 && y2 && x2 && y1 && rk) {
            tsr_operand o1 = tsr_operand_tensor(x1), o2 = tsr_operand_tensor(y2);
            tsr_operand o3 = tsr_operand_tensor(x2), o4 = tsr_operand_tensor(y1);
            p = tsr_binary(TSR_BINOP_MUL, &o1, &o2, NULL, NULL);
            q = p ? tsr_binary(TSR_BINOP_MUL, &o3, &o4, NULL, NULL) : NULL;
            if (q) {
                tsr_operand op = tsr_operand_tensor(p), oq = tsr_operand_tensor(q);
                s = tsr_binary(TSR_BINOP_SUB, &op, &oq, rk, NULL);
                rc = s ? 0 : -1;
            }
        }
        tsr_tensor *all[8] = {x1, y2, x2, y1, rk, p, q, s};
        for (int i = 0; i < 8; i++) tsr_tensor_release(all[i]);
    }
finish:
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    if (rc == 0) return r;
fail:
    tsr_tensor_release(r);
    return NULL;
}

tsr_tensor *tsr_cross(const tsr_tensor *a, const tsr_tensor *b, const int64_t *dim, tsr_tensor *out)
{
    int64_t d;
    if (dim) {
        d = *dim;
    } else {   /* _default_cross_dim: the first dim of size 3 */
        d = -1;
        for (int i = 0; i < a->ndim && d < 0; i++)
            if (a->sizes[i] == 3) d = i;
        if (d < 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "no dimension of size 3 in input");
            return NULL;
        }
    }
    return tsr_linalg_cross(a, b, d, out);
}

/* ------------------------------------------------------------ dist */

tsr_tensor *tsr_dist(const tsr_tensor *a, const tsr_tensor *b, double p)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    tsr_tensor *diff = tsr_binary(TSR_BINOP_SUB, &x, &y, NULL, NULL);
    if (!diff) return NULL;
    tsr_dims all = {.n = -1};
    tsr_tensor *r = tsr_norm(diff, p, &all, false, TSR_DTYPE_UNDEFINED, NULL);
    tsr_tensor_release(diff);
    return r;
}

/* ------------------------------------------------------------ renorm */

/* The scale factor of renorm_scale_factor_impl, in T: 1, or maxnorm / (norm
 * + 1e-7) where the norm exceeds maxnorm. */
#define RENORM_FACTOR(T, n, p, maxnorm)                                                   \
    do {                                                                                  \
        T *v_ = (T *)(p);                                                                 \
        const T m_ = (T)(maxnorm), eps_ = (T)1e-7, one_ = (T)1.0;                         \
        for (int64_t i_ = 0; i_ < (n); i_++) v_[i_] = v_[i_] > m_ ? m_ / (v_[i_] + eps_) : one_; \
    } while (0)

static tsr_tensor *renorm_impl(const tsr_tensor *self, double p, int64_t dim, double maxnorm, tsr_tensor *out,
                               bool inplace)
{
    if (!(p > 0.0)) {
        tsr_error_set(TSR_ERR_RUNTIME, "renorm: non-positive-norm not supported");
        return NULL;
    }
    if (!(maxnorm >= 0.0)) {
        char m[64];
        snprintf(m, sizeof m, "%g", maxnorm);
        tsr_error_set(TSR_ERR_RUNTIME, "renorm: expected maxnorm to be >= 0 but got %s", m);
        return NULL;
    }
    if (self->ndim <= 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "renorm: input needs at least 2 dimensions, got %d dimensions", self->ndim);
        return NULL;
    }
    if (out && !inplace) {
        if (tsr_out_dtype_check(out, self->dtype) < 0 || tsr_resize_output(out, self->ndim, self->sizes) < 0)
            return NULL;
    }
    int d = tsr_wrap_dim(dim, self->ndim);
    if (d < 0) return NULL;
    if (tsr_device_is_meta(self->device))
        return out ? tsr_tensor_retain(out) : tsr_tensor_empty(self->ndim, self->sizes, self->dtype, self->device);
    tsr_dims rd = {.n = 0};
    for (int i = 0; i < self->ndim; i++)
        if (i != d) rd.d[rd.n++] = i;
    /* the norm in the CUDA accumulate type (float for the halves), as 1.13's CPU kernel too */
    tsr_dtype acc = self->dtype == TSR_FLOAT16 || self->dtype == TSR_BFLOAT16 ? TSR_FLOAT32 : TSR_DTYPE_UNDEFINED;
    tsr_tensor *norm = tsr_linalg_vector_norm(self, p, &rd, true, acc, NULL);
    if (!norm) return NULL;
    tsr_tensor *nc = tsr_contiguous(norm, TSR_MF_CONTIGUOUS);
    tsr_tensor_release(norm);
    if (!nc) return NULL;
    if (nc->dtype == TSR_FLOAT64) RENORM_FACTOR(double, tsr_tensor_numel(nc), tsr_tensor_ptr(nc, NULL), maxnorm);
    else RENORM_FACTOR(float, tsr_tensor_numel(nc), tsr_tensor_ptr(nc, NULL), maxnorm);
    tsr_tensor *factor = nc;
    if (nc->dtype != self->dtype) {   /* the halves and complex: the factor has self's dtype */
        factor = tsr_tensor_empty(nc->ndim, nc->sizes, self->dtype, self->device);
        if (!factor || tsr_copy_(factor, nc) < 0) {
            tsr_tensor_release(factor);
            tsr_tensor_release(nc);
            return NULL;
        }
        tsr_tensor_release(nc);
    }
    tsr_operand f = tsr_operand_tensor(factor);
    tsr_tensor *r;
    if (inplace) {
        r = tsr_binary_(TSR_BINOP_MUL, (tsr_tensor *)self, &f, NULL);   /* a new reference to self */
    } else {
        tsr_operand s = tsr_operand_tensor(self);
        r = tsr_binary(TSR_BINOP_MUL, &s, &f, out, NULL);
    }
    tsr_tensor_release(factor);
    return r;
}

tsr_tensor *tsr_renorm(const tsr_tensor *self, double p, int64_t dim, double maxnorm, tsr_tensor *out)
{
    return renorm_impl(self, p, dim, maxnorm, out, false);
}

tsr_tensor *tsr_renorm_(tsr_tensor *self, double p, int64_t dim, double maxnorm)
{
    return renorm_impl(self, p, dim, maxnorm, NULL, true);
}

/* ------------------------------------------------------------ cdist */

/* Distance.cpp's per-pair kernels: agg = red(agg, map(|a - b|)), then
 * finish(agg), in T.  For p = 2, 1.13's GCC 12 AVX2 build vectorises the
 * products of the in-order sum (W lanes, then a W/2 epilogue: plain
 * multiplies and adds) and fuses the scalar rest (agg += d*d as an FMA). */
#define CDIST_KERNEL(T, W, FMA, POW, SQRT, res, x1, x2, B, r1, r2, m, p)                           \
    do {                                                                                        \
        T *o_ = (T *)(res);                                                                     \
        const T *a_ = (const T *)(x1), *b_ = (const T *)(x2);                                   \
        const T p_ = (T)(p);                                                                    \
        for (int64_t l_ = 0; l_ < (B); l_++)                                                    \
            for (int64_t i_ = 0; i_ < (r1); i_++)                                               \
                for (int64_t j_ = 0; j_ < (r2); j_++) {                                         \
                    const T *u_ = a_ + (l_ * (r1) + i_) * (m), *v_ = b_ + (l_ * (r2) + j_) * (m); \
                    T agg_ = 0;                                                                 \
                    const int64_t un_ = (m) / (W) * (W) + ((m) % (W) >= (W) / 2 ? (W) / 2 : 0);     \
                    for (int64_t k_ = 0; k_ < (m); k_++) {                                      \
                        T df_ = u_[k_] - v_[k_];                                                \
                        df_ = df_ < 0 ? -df_ : df_;                                             \
                        if (p_ == 0) agg_ += df_ == 0 ? (T)0 : (T)1;                            \
                        else if (p_ == 1) agg_ += df_;                                          \
                        else if (p_ == 2 && k_ >= un_) agg_ = FMA(df_, df_, agg_);              \
                        else if (p_ == 2) agg_ += df_ * df_;                                    \
                        else if (isinf(p_)) agg_ = df_ > agg_ ? df_ : agg_;                     \
                        else agg_ += POW(df_, p_);                                              \
                    }                                                                           \
                    if (p_ == 2) agg_ = SQRT(agg_);                                             \
                    else if (p_ != 0 && p_ != 1 && !isinf(p_)) agg_ = (T)pow(agg_, 1.0 / p_);  /* 1.0 / p: double */     \
                    *o_++ = agg_;                                                               \
                }                                                                               \
    } while (0)

/* _euclidean_dist: [-2 x1, |x1|², 1] @ [x2, 1, |x2|²]ᵀ, clamped at 0, sqrt. */
static tsr_tensor *euclidean_dist(const tsr_tensor *x1, const tsr_tensor *x2)
{
    tsr_tensor *n1 = NULL, *n2 = NULL, *p1 = NULL, *p2 = NULL, *m1 = NULL, *c1 = NULL, *c2 = NULL, *t = NULL,
               *r = NULL, *sq1 = NULL, *sq2 = NULL;
    tsr_operand two = tsr_operand_scalar(tsr_scalar_int(2)), mtwo = tsr_operand_scalar(tsr_scalar_int(-2));
    tsr_operand o1 = tsr_operand_tensor(x1), o2 = tsr_operand_tensor(x2);
    tsr_dims last = {.n = 1, .d = {-1}};
    if (!(sq1 = tsr_binary(TSR_BINOP_POW, &o1, &two, NULL, NULL))) goto done;
    if (!(n1 = tsr_sum(sq1, &last, true, TSR_DTYPE_UNDEFINED, NULL))) goto done;
    if (!(p1 = tsr_ones_like(n1, TSR_DTYPE_UNDEFINED, n1->device, TSR_MF_CONTIGUOUS))) goto done;
    if (!(sq2 = tsr_binary(TSR_BINOP_POW, &o2, &two, NULL, NULL))) goto done;
    if (!(n2 = tsr_sum(sq2, &last, true, TSR_DTYPE_UNDEFINED, NULL))) goto done;
    if (!(p2 = tsr_ones_like(n2, TSR_DTYPE_UNDEFINED, n2->device, TSR_MF_CONTIGUOUS))) goto done;
    if (!(m1 = tsr_binary(TSR_BINOP_MUL, &o1, &mtwo, NULL, NULL))) goto done;
    const tsr_tensor *l1[3] = {m1, n1, p1}, *l2[3] = {x2, p2, n2};
    if (!(c1 = tsr_cat(3, l1, -1, NULL)) || !(c2 = tsr_cat(3, l2, -1, NULL))) goto done;
    if (!(t = tsr_view_mT(c2))) goto done;
    if (!(r = tsr_matmul(c1, t, NULL))) goto done;
    tsr_operand zero = tsr_operand_scalar(tsr_scalar_int(0));
    if (tsr__done(tsr_clamp_bound(r, &zero, false, r, true)) < 0 || tsr__done(tsr_unary_(TSR_UNOP_SQRT, r, NULL)) < 0)
        tsr__take(&r, NULL);
done:;
    tsr_tensor *all[10] = {n1, n2, p1, p2, m1, c1, c2, t, sq1, sq2};
    for (int i = 0; i < 10; i++) tsr_tensor_release(all[i]);
    return r;
}

tsr_tensor *tsr_cdist(const tsr_tensor *x1, const tsr_tensor *x2, double p, int mode)
{
    if (x1->ndim < 2 || x2->ndim < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "cdist only supports at least 2D tensors, X%d got: %dD", x1->ndim < 2 ? 1 : 2,
                      x1->ndim < 2 ? x1->ndim : x2->ndim);
        return NULL;
    }
    int64_t c1 = x1->sizes[x1->ndim - 1], c2 = x2->sizes[x2->ndim - 1];
    if (c1 != c2) {
        tsr_error_set(TSR_ERR_RUNTIME, "X1 and X2 must have the same number of columns. X1: %lld X2: %lld",
                      (long long)c1, (long long)c2);
        return NULL;
    }
    for (int k = 0; k < 2; k++) {
        const tsr_tensor *x = k ? x2 : x1;
        if (!tsr_dtype_is_floating(x->dtype)) {
            tsr_error_set(TSR_ERR_RUNTIME, "cdist only supports floating-point dtypes, X%d got: %s", k + 1,
                          tsr_dtype_scalar_name(x->dtype));
            return NULL;
        }
    }
    if (!(p >= 0)) {
        tsr_error_set(TSR_ERR_RUNTIME, "cdist only supports non-negative p values");
        return NULL;
    }
    if (mode < 0 || mode > 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "possible modes: 0, 1, 2, but was: %d", mode);
        return NULL;
    }
    int64_t r1 = x1->sizes[x1->ndim - 2], r2 = x2->sizes[x2->ndim - 2];
    int64_t batch[TSR_MAX_DIMS];
    const int nds[2] = {x1->ndim - 2, x2->ndim - 2};
    const int64_t *szs[2] = {x1->sizes, x2->sizes};
    int nb = tsr_broadcast_shapes(2, nds, szs, batch);
    if (nb < 0) return NULL;
    int64_t B = 1;
    for (int i = 0; i < nb; i++) B *= batch[i];
    int64_t oshape[TSR_MAX_DIMS + 2], e1[TSR_MAX_DIMS + 2], e2[TSR_MAX_DIMS + 2];
    memcpy(oshape, batch, sizeof(int64_t) * (size_t)nb);
    memcpy(e1, batch, sizeof(int64_t) * (size_t)nb);
    memcpy(e2, batch, sizeof(int64_t) * (size_t)nb);
    oshape[nb] = r1, oshape[nb + 1] = r2;
    e1[nb] = r1, e1[nb + 1] = c1;
    e2[nb] = r2, e2[nb + 1] = c2;
    bool mm = p == 2 && (mode == 1 || (mode == 0 && (r1 > 25 || r2 > 25)));
    if (r1 == 0 || r2 == 0 || B == 0) return tsr_tensor_empty(nb + 2, oshape, x1->dtype, x1->device);
    if (c1 == 0) return tsr_zeros(nb + 2, oshape, x1->dtype, x1->device);
    if (same_dtype(x1, x2) < 0) return NULL;
    if (x1->dtype != TSR_FLOAT32 && x1->dtype != TSR_FLOAT64) {
        tsr__not_implemented("cdist", x1->dtype);
        return NULL;
    }
    tsr_tensor *a = tsr_view_expand(x1, nb + 2, e1), *b = a ? tsr_view_expand(x2, nb + 2, e2) : NULL, *r = NULL;
    int64_t v1[3] = {B, r1, c1}, v2[3] = {B, r2, c2};
    if (!b || !tsr__take(&a, tsr_contiguous(a, TSR_MF_CONTIGUOUS)) || !tsr__take(&b, tsr_contiguous(b, TSR_MF_CONTIGUOUS)) ||
        !tsr__take(&a, tsr_view_view(a, 3, v1)) || !tsr__take(&b, tsr_view_view(b, 3, v2)))
        goto done;
    if (mm) {
        r = B == 1 ? euclidean_dist(x1, x2) : euclidean_dist(a, b);
        if (r) tsr__take(&r, tsr_view_view(r, nb + 2, oshape));
    } else if ((r = tsr_tensor_empty(nb + 2, oshape, x1->dtype, x1->device)) && !tsr_device_is_meta(r->device)) {
        if (r->dtype == TSR_FLOAT64)
            CDIST_KERNEL(double, 4, fma, pow, sqrt, tsr_tensor_ptr(r, NULL), tsr_tensor_ptr(a, NULL), tsr_tensor_ptr(b, NULL), B, r1, r2, c1, p);
        else
            CDIST_KERNEL(float, 8, fmaf, powf, sqrtf, tsr_tensor_ptr(r, NULL), tsr_tensor_ptr(a, NULL), tsr_tensor_ptr(b, NULL), B, r1, r2, c1, p);
    }
done:
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    return r;
}

/* ------------------------------------------------------------ cdist backward */

/* The sign of 1.13's distance kernels: min(max(0, ceil(v)), 1) + min(max(-1,
 * floor(v)), 0) (vec::minimum / maximum propagate a NaN) */
#define CD_SIGN(v) (isnan(v) ? (v) : (v) > 0 ? 1 : (v) < 0 ? -1 : 0)

/* run_backward_parallel_cdist of DistanceOpsKernel.cpp: grad_x1[b, i, c] =
 * 0 + the F::backward of (x1[b, i, c] - x2[b, j, c], grad[b, i, j],
 * dist[b, i, j]) over j in order, L columns a vector (pow: the Vec's Sleef
 * pow, lane by lane as the vector computes it). kind: 1 p = 1, 2 p = 2,
 * 3 inf, 4 p < 2, 5 the rest. */
#define CDIST_BW(NAME, T, L, SLEEF2)                                                                               \
    static void NAME(T *res, const T *grad, const T *x1, const T *x2, const T *dist, int64_t nb, int64_t r1,         \
                     int64_t r2, int64_t m, T p, int kind)                                                          \
    {                                                                                                               \
        T pm1 = p - (T)1, pm2 = p - (T)2;                                                                           \
        bool vec = tsr__sleef_usable();                                                                             \
        for (int64_t b = 0; b < nb; b++)                                                                            \
            for (int64_t i = 0; i < r1; i++)                                                                        \
                for (int64_t c0 = 0; c0 < m; c0 += L) {                                                             \
                    int64_t cnt = m - c0 < L ? m - c0 : L;                                                          \
                    T acc[L] = {0}, diff[L], ad[L], pw[L], dp[L], out[L];                                           \
                    const T *a = x1 + (b * r1 + i) * m + c0;                                                        \
                    for (int64_t j = 0; j < r2; j++) {                                                              \
                        const T *q = x2 + (b * r2 + j) * m + c0;                                                    \
                        T gk = grad[(b * r1 + i) * r2 + j], dk = dist[(b * r1 + i) * r2 + j];                       \
                        for (int l = 0; l < L; l++) {                                                               \
                            diff[l] = l < cnt ? a[l] - q[l] : (T)0;                                                 \
                            ad[l] = diff[l] < 0 ? -diff[l] : diff[l];                                               \
                            dp[l] = dk;                                                                             \
                        }                                                                                           \
                        if (kind >= 4) {                                                                            \
                            T e = kind == 4 ? pm1 : pm2;                                                            \
                            if (vec) {                                                                              \
                                SLEEF2(TSR_SLEEF2_POW, pw, ad, 1, &e, 0, L);                                        \
                                SLEEF2(TSR_SLEEF2_POW, dp, dp, 1, &pm1, 0, L);                                      \
                            } else {                                                                                \
                                for (int l = 0; l < L; l++) pw[l] = (T)pow(ad[l], e), dp[l] = (T)pow(dk, pm1);      \
                            }                                                                                       \
                        }                                                                                           \
                        for (int l = 0; l < L; l++) {                                                               \
                            T v = diff[l], s = (T)CD_SIGN(v);                                                       \
                            if (kind == 1) out[l] = gk * s;                                                         \
                            else if (kind == 2) out[l] = dk == 0 ? (T)0 : gk * v / dk;                              \
                            else if (kind == 3) {                                                                   \
                                T t = (T)ceil((double)(T)fabs((double)(ad[l] - dk)));                               \
                                out[l] = gk * s * ((T)1 - (t < 1 ? t : (T)1));                                      \
                            } else if (kind == 4) {                                                                 \
                                out[l] = dk == 0 ? (T)0 : s * pw[l] * gk / dp[l];                                   \
                                if (v == 0 && p < 1) out[l] = 0;                                                    \
                            } else                                                                                  \
                                out[l] = dk == 0 ? (T)0 : v * pw[l] * gk / dp[l];                                   \
                            acc[l] += out[l];                                                                       \
                        }                                                                                           \
                    }                                                                                               \
                    T *o = res + (b * r1 + i) * m + c0;                                                             \
                    for (int64_t l = 0; l < cnt; l++) o[l] = acc[l];                                                \
                }                                                                                                   \
    }
CDIST_BW(cdist_bw_f64, double, 4, tsr__sleef2_f64)
CDIST_BW(cdist_bw_f32, float, 8, tsr__sleef2_f32)

tsr_tensor *tsr_cdist_backward(const tsr_tensor *grad, const tsr_tensor *x1, const tsr_tensor *x2, double p,
                               const tsr_tensor *dist)
{
    tsr_dtype dt = x1->dtype;
    if ((dt != TSR_FLOAT32 && dt != TSR_FLOAT64) || x2->dtype != dt || grad->dtype != dt || dist->dtype != dt ||
        x1->ndim < 2 || x2->ndim < 2 || grad->ndim != dist->ndim || grad->ndim < 2) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "_cdist_backward of these inputs is not supported by tsr yet");
        return NULL;
    }
    /* the batch dims broadcast, both operands expanded and made contiguous */
    int nd = grad->ndim;
    int64_t s1[TSR_MAX_DIMS], s2[TSR_MAX_DIMS], nb = 1;
    for (int d = 0; d < nd - 2; d++) {
        s1[d] = s2[d] = grad->sizes[d];
        nb *= grad->sizes[d];
    }
    int64_t r1 = x1->sizes[x1->ndim - 2], r2 = x2->sizes[x2->ndim - 2], m = x1->sizes[x1->ndim - 1];
    s1[nd - 2] = r1, s1[nd - 1] = m, s2[nd - 2] = r2, s2[nd - 1] = m;
    tsr_tensor *e1 = tsr_view_expand(x1, nd, s1), *e2 = e1 ? tsr_view_expand(x2, nd, s2) : NULL;
    tsr_tensor *c1 = e2 ? tsr_contiguous(e1, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *c2 = c1 ? tsr_contiguous(e2, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *cg = c2 ? tsr_contiguous(grad, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *cd = cg ? tsr_contiguous(dist, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *r = cd ? tsr_zeros(nd, s1, dt, TSR_CPU) : NULL;
    if (r && p != 0 && r1 && r2 && m && nb) {
        int kind = p == 1 ? 1 : p == 2 ? 2 : isinf(p) ? 3 : p < 2 ? 4 : 5;
        if (dt == TSR_FLOAT64)
            cdist_bw_f64(tsr_tensor_ptr(r, NULL), tsr_tensor_ptr(cg, NULL), tsr_tensor_ptr(c1, NULL),
                         tsr_tensor_ptr(c2, NULL), tsr_tensor_ptr(cd, NULL), nb, r1, r2, m, p, kind);
        else
            cdist_bw_f32(tsr_tensor_ptr(r, NULL), tsr_tensor_ptr(cg, NULL), tsr_tensor_ptr(c1, NULL),
                         tsr_tensor_ptr(c2, NULL), tsr_tensor_ptr(cd, NULL), nb, r1, r2, m, (float)p, kind);
    }
    tsr_tensor_release(e1);
    tsr_tensor_release(e2);
    tsr_tensor_release(c1);
    tsr_tensor_release(c2);
    tsr_tensor_release(cg);
    tsr_tensor_release(cd);
    return r;
}
