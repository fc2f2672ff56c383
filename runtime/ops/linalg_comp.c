/* runtime/ops/linalg_comp.c — the torch.linalg functions 1.13 composes from
 * others in LinearAlgebra.cpp: tensorinv and tensorsolve (reshapes around
 * inv_ex / solve), matrix_exp (mexp's Taylor polynomials), cond, and the
 * out= copy of such composites (checkLinalgCompatibleDtype, resize_output,
 * copy_). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "linalg.h"
#include "binary.h"
#include "blas.h"
#include "compare.h"
#include "copy.h"
#include "factory.h"
#include "join.h"
#include "reduce.h"
#include "scatter.h"
#include "unary.h"
#include "shape.h"
#include "../error.h"
#include "../iter.h"
#include "../internal.h"
#include "../op.h"
#include "../promote.h"
#include "../view.h"
#include "linalg_int.h"

/* ------------------------------------------------------------ out= of a composite */

int tsr_linalg_out_check(const tsr_tensor *out, tsr_dtype dt, const char *fn)
{
    if (!out || tsr_can_cast(dt, out->dtype)) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "%s: Expected result to be safely castable from %s dtype, but got result with "
                  "dtype %s", fn, tsr_dtype_scalar_name(dt), tsr_dtype_scalar_name(out->dtype));
    return -1;
}

tsr_tensor *tsr_linalg_out_cast(tsr_tensor *r, tsr_tensor *out, const char *fn)
{
    if (!r || !out) return r;
    if (tsr_linalg_out_check(out, r->dtype, fn) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return tsr_out_assign(r, out, false);
}

tsr_tensor *tsr_linalg_out_named(tsr_tensor *r, tsr_tensor *out, const char *fn, const char *name)
{
    if (!r || !out) return r;
    if (!fn) return tsr_linalg_out(r, out);
    if (!tsr_can_cast(r->dtype, out->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: Expected %s to be safely castable from %s dtype, but got %s with dtype %s",
                      fn, name, tsr_dtype_scalar_name(r->dtype), name, tsr_dtype_scalar_name(out->dtype));
        tsr_tensor_release(r);
        return NULL;
    }
    int resized = tsr_resize_output(out, r->ndim, r->sizes);
    if (resized == 1)   /* a resized out takes the result's (column-major) strides */
        for (int d = 0; d < r->ndim; d++) out->strides[d] = r->strides[d];
    int rc = resized < 0 ? -1 : tsr__la_is_meta(out) ? 0 : tsr_copy_(out, r);
    tsr_tensor_release(r);
    return rc < 0 ? NULL : tsr_tensor_retain(out);
}

/* ------------------------------------------------------------ tensorinv, tensorsolve */

static int64_t prod(const int64_t *s, int n)
{
    int64_t p = 1;
    for (int i = 0; i < n; i++) p *= s[i];
    return p;
}

/* ArrayRef::slice past the end builds a std::vector of a wrapped-around
 * size in 1.13: its length_error. */
static int vector_error(void)
{
    tsr_error_set(TSR_ERR_RUNTIME, "cannot create std::vector larger than max_size()");
    return -1;
}

tsr_tensor *tsr_linalg_tensorinv(const tsr_tensor *a, int64_t ind)
{
    if (ind <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected a strictly positive integer for 'ind', but got %ld", (long)ind);
        return NULL;
    }
    if (ind > a->ndim) return vector_error(), NULL;
    int k = (int)ind, nd = a->ndim;
    int64_t p_end = prod(a->sizes + k, nd - k), p_start = prod(a->sizes, k);
    if (p_end != p_start) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                      "prod(self.shape[:ind]), but got %ld != %ld", (long)p_end, (long)p_start);
        return NULL;
    }
    int64_t shape[TSR_MAX_DIMS], sq[2] = {p_end, p_end};
    memcpy(shape, a->sizes + k, sizeof *shape * (size_t)(nd - k));
    memcpy(shape + nd - k, a->sizes, sizeof *shape * (size_t)k);
    tsr_tensor *m = tsr_reshape(a, 2, sq), *inv = NULL, *info = NULL, *r = NULL;
    if (!m) return NULL;
    int rc = tsr_linalg_inv_ex(m, NULL, &inv, &info);
    tsr_tensor_release(m);
    if (rc < 0) return NULL;
    if (tsr_linalg_check_errors(info, "inv", true) == 0) r = tsr_reshape(inv, nd, shape);
    tsr_tensor_release(inv);
    tsr_tensor_release(info);
    return r;
}

tsr_tensor *tsr_linalg_tensorsolve(const tsr_tensor *a, const tsr_tensor *b, int ndims, const int64_t *dims)
{
    int nd = a->ndim;
    tsr_tensor *s = NULL;
    if (ndims >= 0) {
        int64_t dest[TSR_MAX_DIMS];
        for (int i = 0; i < ndims && i < TSR_MAX_DIMS; i++) dest[i] = nd - ndims + i;
        s = tsr_view_movedim(a, ndims, dims, ndims, dest);
    } else {
        s = tsr_view_alias(a);
    }
    if (!s) return NULL;
    if (b->ndim > nd) {
        tsr_tensor_release(s);
        return vector_error(), NULL;
    }
    int rn = nd - b->ndim;
    int64_t rshape[TSR_MAX_DIMS];
    memcpy(rshape, s->sizes + b->ndim, sizeof *rshape * (size_t)rn);
    int64_t rp = prod(rshape, rn), bp = prod(b->sizes, b->ndim);
    if (rp != bp) {
        tsr_tensor_release(s);
        tsr_error_set(TSR_ERR_RUNTIME, "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                      "prod(self.shape[:other.ndim]), but got %ld != %ld", (long)rp, (long)bp);
        return NULL;
    }
    int64_t sq[2] = {rp, rp};
    tsr_tensor *m = tsr_reshape(s, 2, sq), *flat = m ? tsr_reshape(b, 1, &bp) : NULL, *x = NULL, *info = NULL;
    tsr_tensor *r = NULL;
    tsr_tensor_release(s);
    if (flat && tsr_linalg_solve_ex(m, flat, true, "torch.linalg.solve", &x, &info) == 0) {
        r = tsr_reshape(x, rn, rshape);
        tsr_tensor_release(x);
        tsr_tensor_release(info);
    }
    tsr_tensor_release(m);
    tsr_tensor_release(flat);
    return r;
}

/* ------------------------------------------------------------ matrix_exp */

/* 1.13's mexp (LinearAlgebra.cpp, after Bader, Blanes and Casas 2019): by
 * the operator 1-norm of each matrix a Taylor polynomial of degree 1, 2, 4,
 * 8, 12 or 18 evaluated with few products, the last with scaling and
 * squaring. Each matrix is computed as a batch of one (1 x n x n), as the
 * products are bmm's of the squashed batch there (bmm picks its kernel by
 * the matrix sizes alone), the squarings 2-D matmuls. */

enum { N_DEGS = 6 };
static const float thetas_float[N_DEGS] = {1.192092800768788e-07f, 5.978858893805233e-04f, 5.116619363445086e-02f,
                                           5.800524627688768e-01f, 1.461661507209034e+00f, 3.010066362817634e+00f};
static const double thetas_double[N_DEGS] = {2.220446049250313e-16, 2.580956802971767e-08, 3.397168839976962e-04,
                                             4.991228871115323e-02, 2.996158913811580e-01, 1.090863719290036e+00};

/* _compute_linear_combination: out = 0 + c[0] * in[0] + c[1] * in[1] + ...
 * (coefficients in the value type, complex * real as c10 multiplies), each
 * term a fused multiply-add as 1.13's kernel is compiled. */
#define LINCOMB_BODY(S, NCOMP, FMA)                                                                       \
    {                                                                                                \
        S *o = tsr_tensor_ptr(r, NULL);                                                              \
        S cs[8];                                                                                     \
        for (int j = 0; j < k; j++) cs[j] = (S)c[j];                                                 \
        for (int64_t e = 0; e < ne * NCOMP; e++) {                                                   \
            S acc = 0;                                                                               \
            for (int j = 0; j < k; j++) acc = FMA(((const S *)tsr_tensor_ptr(in[j], NULL))[e], cs[j], acc); \
            o[e] = acc;                                                                              \
        }                                                                                            \
    }

static float bf_round(float x) { return tsr_bfloat16_to_float(tsr_float_to_bfloat16(x)); }

/* coefficient i of a blob of doubles as 1.13's _blob_to_Tensor / from_blob
 * reads it for a bfloat16 input: the i-th 16-bit word of its bytes */
static double blob_bf16(const double *blob, int i)
{
    uint16_t u;
    memcpy(&u, (const char *)blob + 2 * i, sizeof u);
    return tsr_bfloat16_to_float(u);
}

/* c[off + j] (the j-th coefficient; for bfloat16 the blob's j-th word, and
 * the kernel's BFloat16 out += in * coeff, each step rounded) */
static tsr_tensor *lincomb_at(tsr_tensor *const *in, int k, const double *c, int off)
{
    tsr_tensor *r = tsr_tensor_empty(in[0]->ndim, in[0]->sizes, in[0]->dtype, in[0]->device);
    if (!r) return NULL;
    int64_t ne = tsr_tensor_numel(r);
    if (r->dtype == TSR_BFLOAT16) {
        tsr_bfloat16 *o = tsr_tensor_ptr(r, NULL);
        for (int64_t e = 0; e < ne; e++) {
            float acc = 0;
            for (int j = 0; j < k; j++) {
                float x = tsr_bfloat16_to_float(((const tsr_bfloat16 *)tsr_tensor_ptr(in[j], NULL))[e]);
                acc = bf_round(acc + bf_round(x * (float)blob_bf16(c, off + j)));
            }
            o[e] = tsr_float_to_bfloat16(acc);
        }
        return r;
    }
    c += off;
    switch (r->dtype) {
    case TSR_FLOAT32: LINCOMB_BODY(float, 1, fmaf) break;
    case TSR_COMPLEX64: LINCOMB_BODY(float, 2, fmaf) break;
    case TSR_FLOAT64: LINCOMB_BODY(double, 1, fma) break;
    default: LINCOMB_BODY(double, 2, fma) break;
    }
    return r;
}
static tsr_tensor *lincomb(tsr_tensor *const *in, int k, const double *c) { return lincomb_at(in, k, c, 0); }

/* dst += src, elementwise (the same layout) */
/* pos, cnt: this matrix's place in the sub-batch 1.13 adds in one go (its
 * vectorised add stores NaN as 0xffff in whole 32-element blocks, the
 * scalar tail as 0x7fc0); bfloat16 only */
static void add_into(tsr_tensor *dst, const tsr_tensor *src, int64_t pos, int64_t cnt)
{
    int64_t ne = tsr_tensor_numel(dst) * (tsr_dtype_is_complex(dst->dtype) ? 2 : 1);
    if (dst->dtype == TSR_BFLOAT16) {
        tsr_bfloat16 *d = tsr_tensor_ptr(dst, NULL);
        const tsr_bfloat16 *s = tsr_tensor_ptr(src, NULL);
        int64_t total = cnt * ne, vend = total - total % 32;
        for (int64_t e = 0; e < ne; e++) {
            float v = tsr_bfloat16_to_float(d[e]) + tsr_bfloat16_to_float(s[e]);
            d[e] = isnan(v) && pos * ne + e < vend ? 0xffff : tsr_float_to_bfloat16(v);
        }
    } else if (dst->dtype == TSR_FLOAT32 || dst->dtype == TSR_COMPLEX64) {
        float *d = tsr_tensor_ptr(dst, NULL);
        const float *s = tsr_tensor_ptr(src, NULL);
        for (int64_t e = 0; e < ne; e++) d[e] += s[e];
    } else {
        double *d = tsr_tensor_ptr(dst, NULL);
        const double *s = tsr_tensor_ptr(src, NULL);
        for (int64_t e = 0; e < ne; e++) d[e] += s[e];
    }
}

static void release_all(tsr_tensor **t, int n)
{
    for (int i = 0; i < n; i++) tsr_tensor_release(t[i]), t[i] = NULL;
}

/* _fill_matrix_powers: I, A, A^2, A^3, A^6 (the first k) */
static int powers(const tsr_tensor *a, int k, tsr_tensor **p)
{
    int64_t n = a->sizes[2];
    tsr_tensor *eye = tsr_eye(n, n, a->dtype, a->device);
    p[0] = eye ? tsr_reshape(eye, 3, a->sizes) : NULL;
    tsr_tensor_release(eye);
    p[1] = p[0] ? tsr_tensor_retain((tsr_tensor *)a) : NULL;
    if (k > 2 && p[1]) p[2] = tsr_bmm(p[1], p[1], NULL);
    if (k > 3 && p[2]) p[3] = tsr_bmm(p[1], p[2], NULL);
    if (k > 4 && p[3]) p[4] = tsr_bmm(p[3], p[3], NULL);
    for (int i = 0; i < k; i++)
        if (!p[i]) return release_all(p, k), -1;
    return 0;
}

/* m = x @ y; dst += m */
static int add_product(tsr_tensor *dst, const tsr_tensor *x, const tsr_tensor *y, int64_t pos, int64_t cnt)
{
    tsr_tensor *m = tsr_bmm(x, y, NULL);
    if (!m) return -1;
    add_into(dst, m, pos, cnt);
    tsr_tensor_release(m);
    return 0;
}

#define MEXP_CONSTS(S)                                                                                 \
    const S sqrt_177 = (S)0.1330413469565007072504e+2;                                                 \
    const S x3 = (S)(2. / 3.);                                                                         \
    const S x1 = (S)(x3 * ((1. + sqrt_177) / 88.));                                                    \
    const S x2 = (S)(x3 * ((1. + sqrt_177) / 352.));                                                   \
    const S x4 = (S)((-271. + 29. * sqrt_177) / (315. * x3));                                          \
    const S x5 = (S)((-11. + 11. * sqrt_177) / (1260. * x3));                                          \
    const S x6 = (S)((-99. + 11. * sqrt_177) / (5040. * x3));                                          \
    const S x7 = (S)((89. - sqrt_177) / (5040. * x3));                                                 \
    const S y2 = (S)((857. - 58. * sqrt_177) / 630.);                                                  \
    double c8[9] = {x1, x2, x3, x4, x5, x6, x7, y2, 0};

static const double b12[4][4] = {
    {9.0198e-16, 0.46932117595418237389, -0.20099424927047284052, -0.04623946134063071740},
    {5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031, 0.01108844528519167989},
    {0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968, 0.00610700528898058230},
    {-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079, -0.00675951846863086359}};
static const double b18[5][5] = {
    {0., -1.00365581030144618291e-01, -8.02924648241156932449e-03, -8.92138498045729985177e-04, 0.},
    {0., 3.97849749499645077844e-01, 1.36783778460411720168e+00, 4.98289622525382669416e-01,
     -6.37898194594723280150e-04},
    {-1.09676396052962061844e+01, 1.68015813878906206114e+00, 5.71779846478865511061e-02,
     -6.98210122488052056106e-03, 3.34975017086070470649e-05},
    {-9.04316832390810593223e-02, -6.76404519071381882256e-02, 6.75961301770459654925e-02,
     2.95552570429315521194e-02, -1.39180257516060693404e-05},
    {0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02, -1.40086798182036094347e-05}};

/* compute_T1 .. compute_T18 of one (1, n, n) matrix; deg the index 0..5 */
static tsr_tensor *taylor(const tsr_tensor *a, int deg, int64_t pos, int64_t cnt)
{
    tsr_tensor *p[5] = {0}, *bs[5] = {0}, *r = NULL;
    bool f = a->dtype == TSR_FLOAT32 || a->dtype == TSR_COMPLEX64;
    static const int nprod[N_DEGS] = {2, 3, 3, 3, 4, 5};
    if (powers(a, nprod[deg], p) < 0) return NULL;
    double c8f[9], c8d[9];
    {
        MEXP_CONSTS(float)
        memcpy(c8f, c8, sizeof c8);
    }
    {
        MEXP_CONSTS(double)
        memcpy(c8d, c8, sizeof c8);
    }
    const double *c8 = f ? c8f : c8d;
    switch (deg) {
    case 0: r = lincomb(p, 2, (const double[]){1, 1}); break;
    case 1: {   /* As[2].div_(2) then As.sum(0): the sum is the same sequence */
        tsr_tensor *h = lincomb(p + 2, 1, (const double[]){0.5});
        if (!h) break;
        tsr_tensor *q[3] = {p[0], p[1], h};
        r = lincomb(q, 3, (const double[]){1, 1, 1});
        tsr_tensor_release(h);
        break;
    }
    case 2: {   /* I + A + A^2 (I/2 + A/6 + A^2/24) */
        tsr_tensor *l = lincomb(p, 3, (const double[]){1 / 2.0, 1 / 6.0, 1 / 24.0});
        tsr_tensor *m = l ? tsr_bmm(p[2], l, NULL) : NULL;
        tsr_tensor_release(l);
        if (!m) break;
        tsr_tensor *q[4] = {p[0], p[1], p[2], m};
        r = lincomb(q, 4, (const double[]){1, 1, 0, 1});
        tsr_tensor_release(m);
        break;
    }
    case 3: {
        tsr_tensor *l = lincomb(p + 1, 2, (const double[]){c8[0], c8[1]});
        tsr_tensor *a4 = l ? tsr_bmm(p[2], l, NULL) : NULL, *a8 = NULL;
        tsr_tensor_release(l);
        if (!a4) break;
        tsr_tensor *q[5] = {p[0], p[1], p[2], a4, NULL};
        tsr_tensor *u = lincomb(q + 2, 2, (const double[]){c8[2], 1.0});
        tsr_tensor *v = u ? lincomb(q, 4, (const double[]){c8[3], c8[4], c8[5], c8[6]}) : NULL;
        if (v) a8 = tsr_bmm(u, v, NULL);
        tsr_tensor_release(u);
        tsr_tensor_release(v);
        if (a8) {
            q[4] = a8;
            r = lincomb(q, 5, (const double[]){1.0, 1.0, c8[7], 0.0, 1.0});
        }
        tsr_tensor_release(a4);
        tsr_tensor_release(a8);
        break;
    }
    case 4:
    case 5: {
        int np = deg == 4 ? 4 : 5, i;
        for (i = 0; i < np; i++) {
            if (!(bs[i] = lincomb_at(p, np, deg == 4 ? &b12[0][0] : &b18[0][0], i * np))) break;
        }
        if (i < np) break;
        if (deg == 4) {   /* A6 = B2 + B3 @ B3; B0 + (B1 + A6) @ A6 */
            if (add_product(bs[2], bs[3], bs[3], pos, cnt) < 0) break;
            add_into(bs[1], bs[2], pos, cnt);
            if (add_product(bs[0], bs[1], bs[2], pos, cnt) < 0) break;
            r = tsr_tensor_retain(bs[0]);
        } else {          /* A9 = B3 + B0 @ B4; B1 + (B2 + A9) @ A9 */
            if (add_product(bs[3], bs[0], bs[4], pos, cnt) < 0) break;
            add_into(bs[2], bs[3], pos, cnt);
            if (add_product(bs[1], bs[2], bs[3], pos, cnt) < 0) break;
            r = tsr_tensor_retain(bs[1]);
        }
        break;
    }
    }
    release_all(p, 5);
    release_all(bs, 5);
    return r;
}

/* compute_T18_scale_square of one matrix: s = max(0, ceil(log2(norm /
 * theta))), T18(A / 2^s) squared s times by 2-D matmuls. */
static tsr_tensor *scale_square(const tsr_tensor *a, double norm)
{
    bool f = a->dtype == TSR_FLOAT32 || a->dtype == TSR_COMPLEX64;
    double l = f ? (double)ceilf(log2f((float)norm / thetas_float[N_DEGS - 1]))
                 : ceil(log2(norm / thetas_double[N_DEGS - 1]));
    /* an inf norm gives inf (UB as an integer): 4096 squarings of the NaN
     * that 2^-4096 * inf makes, as 1.13's result is NaN there */
    int64_t s = l >= 4096 ? 4096 : l > 0 ? (int64_t)l : 0;
    tsr_tensor *sc = lincomb((tsr_tensor *const *)&a, 1, (const double[]){ldexp(1.0, (int)-s)});
    tsr_tensor *t = sc ? taylor(sc, 5, 0, 1) : NULL;
    tsr_tensor_release(sc);
    if (!t) return NULL;
    tsr_tensor *m = tsr_view_select(t, 0, 0);
    tsr_tensor_release(t);
    for (int64_t i = 0; m && i < s; i++) {
        tsr_tensor *m2 = tsr_matmul(m, m, NULL);
        tsr_tensor_release(m);
        m = m2;
    }
    return m;
}

/* float16 / bfloat16: 1.13 runs mexp_impl<double> on them, the thresholds
 * compared in the tensor's dtype, one degree interval after the other over
 * the whole batch. Half has no bmm ("bmm" not implemented for 'Half') and
 * no log2 for the scaled T18, so only zero matrices (T1) compute. For
 * bfloat16, T1 and T2 compute as meant; T4..T18 read their double
 * coefficient blobs as bfloat16 (from_blob with the tensor's dtype: the
 * i-th coefficient is the i-th 16-bit word of the doubles' bytes), which
 * lincomb_at reproduces, with BFloat16 arithmetic in _compute_linear_
 * combination and in add_ (NaN stored as 1.13's vectorised add stores it,
 * per sub-batch). Not reproduced: a NaN norm (no interval: 1.13 returns
 * empty_like's memory; NaN here), a norm on theta_12 exactly (computed by
 * both T12 and T18 there). */
static double round_to(tsr_dtype dt, double x)
{
    return dt == TSR_FLOAT16 ? tsr_half_to_float(tsr_float_to_half((float)x))
                             : tsr_bfloat16_to_float(tsr_float_to_bfloat16((float)x));
}

/* As.sum(0) of I, A (and A @ A / 2 when t2) for one (1, n, n) matrix */
static tsr_tensor *mexp_t12(const tsr_tensor *a, bool t2)
{
    tsr_tensor *p[3] = {0}, *st = NULL, *r = NULL;
    if (powers(a, t2 ? 3 : 2, p) < 0) return NULL;
    if (t2) {
        tsr_operand x = tsr_operand_tensor(p[2]), two = tsr_operand_scalar(tsr_scalar_float(2.0));
        tsr_tensor *h = tsr_binary(TSR_BINOP_DIV, &x, &two, NULL, NULL);
        tsr_tensor_release(p[2]);
        if (!(p[2] = h)) goto done;
    }
    st = tsr_stack(t2 ? 3 : 2, (const tsr_tensor *const *)p, 0, NULL);
    tsr_dims d0 = {.n = 1, .d = {0}};
    if (st) r = tsr_sum(st, &d0, false, TSR_DTYPE_UNDEFINED, NULL);
done:
    release_all(p, 3);
    tsr_tensor_release(st);
    return r;
}

/* compute_T18_scale_square<double> on a bfloat16 matrix: s = max(0,
 * ceil(log2(norm / theta))) in bfloat16, then .to(kLong); pow(2, s) in
 * int64 (powi wraps: -2^63 at 63, 0 from 64 on, so a / pow2s is inf or NaN
 * there); a / pow2s; T18 (with the blob coefficients) squared s times by
 * matmul (an inf norm's s, INT64_MIN, squares none). */
static tsr_tensor *scale_square_bf16(const tsr_tensor *a, const tsr_tensor *norm, int64_t i, int64_t pos, int64_t cnt)
{
    tsr_tensor *nv = tsr_view_narrow(norm, 0, i, 1), *q = NULL, *l = NULL, *m = NULL, *sc = NULL, *p2 = NULL;
    tsr_scalar sv;
    tsr_operand x = tsr_operand_tensor(nv), th = tsr_operand_scalar(tsr_scalar_float(thetas_double[N_DEGS - 1]));
    if (nv && (q = tsr_binary(TSR_BINOP_DIV, &x, &th, NULL, NULL)) && (l = tsr_unary(TSR_UNOP_LOG2, q, NULL, NULL)))
        m = tsr_unary(TSR_UNOP_CEIL, l, NULL, NULL);
    tsr_tensor_release(nv);
    tsr_tensor_release(q);
    tsr_tensor_release(l);
    if (!m || tsr_tensor_get_at(m, 0, &sv) < 0) return tsr_tensor_release(m), NULL;
    tsr_tensor_release(m);
    m = NULL;
    double sd = tsr_scalar_to_double(sv);
    sd = !(sd > 0) && !isnan(sd) ? 0 : sd;   /* at::max with zeros (NaN propagates) */
    /* x86's float -> int64 convert: NaN and out of range give INT64_MIN */
    int64_t s = isnan(sd) || sd >= 9223372036854775808.0 ? INT64_MIN : (int64_t)sd;
    int64_t pw = s < 0 || s >= 64 ? 0 : s == 63 ? INT64_MIN : (int64_t)1 << s;
    int64_t one3[3] = {1, 1, 1};
    p2 = tsr_full(3, one3, tsr_scalar_int(pw), TSR_INT64, a->device);
    tsr_operand ao = tsr_operand_tensor(a), po = tsr_operand_tensor(p2);
    if (p2) sc = tsr_binary(TSR_BINOP_DIV, &ao, &po, NULL, NULL);
    tsr_tensor_release(p2);
    tsr_tensor *t = sc ? taylor(sc, 5, pos, cnt) : NULL;
    tsr_tensor_release(sc);
    if (!t) return NULL;
    m = tsr_view_select(t, 0, 0);
    tsr_tensor_release(t);
    for (int64_t k = 0; m && k < s && k < 4096; k++) {
        tsr_tensor *m2 = tsr_matmul(m, m, NULL);
        tsr_tensor_release(m);
        m = m2;
    }
    return m;
}

static int mexp_low_check(const tsr_tensor *norm, int64_t nb, tsr_dtype dt, int *cls)
{
    bool present[N_DEGS] = {0};
    for (int64_t i = 0; i < nb; i++) {
        tsr_scalar nv;
        if (tsr_tensor_get_at(norm, i, &nv) < 0) return -1;
        double x = tsr_scalar_to_double(nv);
        cls[i] = -1;
        for (int k = 0; k < N_DEGS - 1; k++) {
            double lo = k == 0 ? -1 : round_to(dt, thetas_double[k - 1]), hi = round_to(dt, thetas_double[k]);
            if (lo < x && x <= hi) cls[i] = k;
        }
        if (x >= round_to(dt, thetas_double[N_DEGS - 2])) cls[i] = N_DEGS - 1;
        if (cls[i] >= 0) present[cls[i]] = true;
    }
    for (int k = 1; k < N_DEGS; k++) {
        if (!present[k]) continue;
        if (dt == TSR_FLOAT16) {
            tsr_error_set(TSR_ERR_RUNTIME, "\"%s\" not implemented for 'Half'", k < N_DEGS - 1 ? "bmm" : "log2_vml_cpu");
            return -1;
        }
    }
    return 0;
}

static tsr_tensor *mexp_low(const tsr_tensor *a3, const tsr_tensor *norm)
{
    int64_t nb = a3->sizes[0];
    int *cls = tsr_malloc(sizeof *cls * (size_t)(nb ? nb : 1));
    int64_t *pos = cls ? tsr_malloc(sizeof *pos * (size_t)(nb ? nb : 1)) : NULL, cnt[N_DEGS] = {0};
    if (!pos) return tsr_free(cls), NULL;
    tsr_tensor *res = NULL;
    if (mexp_low_check(norm, nb, a3->dtype, cls) == 0)
        res = tsr_empty_like(a3, TSR_DTYPE_UNDEFINED, a3->device, TSR_MF_PRESERVE);
    /* each interval's matrices are one sub-batch in 1.13 (index_select) */
    for (int64_t i = 0; i < nb; i++)
        if (cls[i] >= 0) pos[i] = cnt[cls[i]]++;
    for (int64_t i = 0; res && i < nb; i++) {
        tsr_tensor *ai = tsr_view_narrow(a3, 0, i, 1), *m = NULL, *dst = NULL;
        tsr_tensor *ac = ai ? tsr_contiguous(ai, TSR_MF_CONTIGUOUS) : NULL;
        tsr_tensor_release(ai);
        if (ac && cls[i] >= 2) {
            tsr_tensor *m3 = cls[i] < N_DEGS - 1 ? taylor(ac, cls[i], pos[i], cnt[cls[i]]) : NULL;
            if (cls[i] < N_DEGS - 1) {
                m = m3 ? tsr_view_select(m3, 0, 0) : NULL;
                tsr_tensor_release(m3);
            } else {
                m = scale_square_bf16(ac, norm, i, pos[i], cnt[N_DEGS - 1]);
            }
        } else if (ac && cls[i] >= 0) {
            tsr_tensor *m3 = mexp_t12(ac, cls[i] == 1);
            m = m3 ? tsr_view_select(m3, 0, 0) : NULL;
            tsr_tensor_release(m3);
        } else if (ac) {
            m = tsr_full(2, ac->sizes + 1, tsr_scalar_float(NAN), ac->dtype, ac->device);
        }
        if (!m || !(dst = tsr_view_select(res, 0, i)) || tsr_copy_(dst, m) < 0 || tsr__la_poll(i, nb) < 0) {
            tsr_tensor_release(res);
            res = NULL;
        }
        tsr_tensor_release(dst);
        tsr_tensor_release(m);
        tsr_tensor_release(ac);
    }
    tsr_free(cls);
    tsr_free(pos);
    return res;
}

tsr_tensor *tsr_linalg_matrix_exp(const tsr_tensor *a)
{
    if (tsr__la_is_meta(a)) return tsr_meta_refused("linalg_matrix_exp"), NULL;
    if (tsr__la_check_matrix(a, "linalg.matrix_exp", true) < 0) return NULL;
    tsr_dtype dt = a->dtype;
    if (!tsr_dtype_is_floating(dt) && !tsr_dtype_is_complex(dt)) {
        tsr_error_set(TSR_ERR_RUNTIME, "matrix_exp: Expected a floating point or complex tensor as input. Got %s",
                      tsr_dtype_scalar_name(dt));
        return NULL;
    }
    int64_t n = a->sizes[a->ndim - 1];
    if (n == 0) return tsr_clone(a, TSR_MF_PRESERVE);
    if (n == 1) return tsr_unary(TSR_UNOP_EXP, a, NULL, NULL);
    int64_t sz3[3] = {-1, n, n};
    tsr_tensor *a3 = tsr_view_view(a, 3, sz3), *res = NULL, *ab = NULL, *s1 = NULL, *norm = NULL;
    if (!a3) return NULL;
    tsr_dims d1 = {.n = 1, .d = {-2}}, d2 = {.n = 1, .d = {-1}};
    if ((ab = tsr_unary(TSR_UNOP_ABS, a3, NULL, NULL)) && (s1 = tsr_sum(ab, &d1, false, TSR_DTYPE_UNDEFINED, NULL)))
        norm = tsr_amax(s1, &d2, false, true, NULL);
    tsr_tensor_release(ab);
    tsr_tensor_release(s1);
    if (norm && !tsr__la_lapack_dtype(dt)) {
        res = mexp_low(a3, norm);
        tsr_tensor_release(norm);
        norm = NULL;
        tsr_tensor *r = res ? tsr_view_view(res, a->ndim, a->sizes) : NULL;
        tsr_tensor_release(res);
        tsr_tensor_release(a3);
        return r;
    }
    if (norm) res = tsr_empty_like(a3, TSR_DTYPE_UNDEFINED, a3->device, TSR_MF_PRESERVE);
    int64_t nb = a3->sizes[0];
    bool f = dt == TSR_FLOAT32 || dt == TSR_COMPLEX64;
    for (int64_t i = 0; res && i < nb; i++) {
        tsr_scalar nv;
        tsr_tensor *ai = tsr_view_narrow(a3, 0, i, 1), *m = NULL;
        tsr_tensor *ac = ai ? tsr_contiguous(ai, TSR_MF_CONTIGUOUS) : NULL;
        tsr_tensor_release(ai);
        int ok = ac && tsr_tensor_get_at(norm, i, &nv) == 0;
        double x = ok ? tsr_scalar_to_double(nv) : 0;
        if (ok) {
            int deg = -1;
            for (int k = 0; k < N_DEGS - 1; k++) {
                double lo = k == 0 ? -1 : f ? thetas_float[k - 1] : thetas_double[k - 1];
                double hi = f ? thetas_float[k] : thetas_double[k];
                if (lo < x && x <= hi) deg = k;
            }
            if (x >= (f ? thetas_float[N_DEGS - 2] : thetas_double[N_DEGS - 2])) m = scale_square(ac, x);
            else if (deg >= 0 && (m = taylor(ac, deg, 0, 1))) {
                tsr_tensor *m0 = tsr_view_select(m, 0, 0);
                tsr_tensor_release(m);
                m = m0;
            }
            else m = tsr_full(2, ac->sizes + 1, tsr_scalar_float(NAN), dt, ac->device);   /* a NaN norm */
        }
        tsr_tensor *dst = m ? tsr_view_select(res, 0, i) : NULL;
        if (!dst || tsr_copy_(dst, m) < 0 || tsr__la_poll(i, nb) < 0) {
            tsr_tensor_release(res);
            res = NULL;
        }
        tsr_tensor_release(dst);
        tsr_tensor_release(m);
        tsr_tensor_release(ac);
    }
    tsr_tensor_release(norm);
    tsr_tensor_release(a3);
    tsr_tensor *r = res ? tsr_view_view(res, a->ndim, a->sizes) : NULL;
    tsr_tensor_release(res);
    return r;
}

/* ------------------------------------------------------------ cond */

static tsr_tensor *mul2(const tsr_tensor *x, const tsr_tensor *y, tsr_binop op)
{
    tsr_operand a = tsr_operand_tensor(x), b = tsr_operand_tensor(y);
    return tsr_binary(op, &a, &b, NULL, NULL);
}

/* the inverse (inv_ex, no checks) with the matrices whose info > 0 set to inf */
static tsr_tensor *inverse_or_inf(const tsr_tensor *a)
{
    tsr_tensor *inv = NULL, *info = NULL, *i2 = NULL, *mask = NULL;
    if (tsr_linalg_inv_ex(a, NULL, &inv, &info) < 0) return NULL;
    int64_t sz[TSR_MAX_DIMS];
    memcpy(sz, info->sizes, sizeof *sz * (size_t)info->ndim);
    sz[info->ndim] = sz[info->ndim + 1] = 1;
    tsr_operand zero = tsr_operand_scalar(tsr_scalar_int(0)), inf = tsr_operand_scalar(tsr_scalar_float(INFINITY));
    if ((i2 = tsr_view_view(info, info->ndim + 2, sz))) {
        tsr_operand io = tsr_operand_tensor(i2);
        mask = tsr_compare(TSR_CMP_GT, &io, &zero, NULL);
    }
    int rc = mask ? tsr_masked_fill_(inv, mask, &inf) : -1;
    tsr_tensor_release(mask);
    tsr_tensor_release(i2);
    tsr_tensor_release(info);
    if (rc < 0) {
        tsr_tensor_release(inv);
        return NULL;
    }
    return inv;
}

/* the nuclear-norm condition number as 1.13 computes it: s.sum(-1) * s.reciprocal().sum(-1) */
static tsr_tensor *cond_nuc(const tsr_tensor *a)
{
    tsr_tensor *s = NULL, *rs = NULL, *x = NULL, *y = NULL, *r = NULL;
    if (tsr_linalg_svd(a, false, NULL, &s, NULL) < 0) return NULL;
    tsr_dims d = {.n = 1, .d = {-1}};
    if ((x = tsr_sum(s, &d, false, TSR_DTYPE_UNDEFINED, NULL)) &&
        (rs = tsr_unary(TSR_UNOP_RECIPROCAL, s, NULL, NULL)) && (y = tsr_sum(rs, &d, false, TSR_DTYPE_UNDEFINED, NULL)))
        r = mul2(x, y, TSR_BINOP_MUL);
    tsr_tensor_release(s);
    tsr_tensor_release(rs);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    return r;
}

tsr_tensor *tsr_linalg_cond(const tsr_tensor *a, const char *ord_str, bool has_ord, double ord, bool ord_float)
{
    char name[64];
    if (ord_str) {
        snprintf(name, sizeof name, "linalg.cond(ord=%s)", ord_str);
        if (tsr__la_check_matrix(a, name, true) < 0) return NULL;
        if (strcmp(ord_str, "fro") && strcmp(ord_str, "nuc")) {
            tsr_error_set(TSR_ERR_RUNTIME, "linalg.cond got an invalid norm type: %s", ord_str);
            return NULL;
        }
    } else {
        if (a->ndim < 2) {
            tsr_error_set(TSR_ERR_RUNTIME, "linalg.cond: The input tensor must have at least 2 dimensions.");
            return NULL;
        }
        if (!has_ord) ord = 2, ord_float = false;
        double ab = fabs(ord);
        if (ab != 2 && ab != 1 && ab != INFINITY) {
            tsr_error_set(TSR_ERR_RUNTIME, "linalg.cond got an invalid norm type: %g", ord);
            return NULL;
        }
    }
    if (tsr_tensor_numel(a) == 0)
        return tsr_zeros(a->ndim - 2, a->sizes, tsr_dtype_to_real(a->dtype), a->device);
    if (!ord_str && fabs(ord) == 2) {
        tsr_tensor *s = NULL, *hi = NULL, *lo = NULL, *q = NULL, *r = NULL;
        if (tsr_linalg_svd(a, false, NULL, &s, NULL) < 0) return NULL;
        int64_t k = s->sizes[s->ndim - 1];
        if ((hi = tsr_view_narrow(s, -1, 0, 1)) && (lo = tsr_view_narrow(s, -1, k - 1, 1)))
            q = ord < 0 ? mul2(lo, hi, TSR_BINOP_DIV) : mul2(hi, lo, TSR_BINOP_DIV);
        if (q) r = tsr_view_squeeze_dim(q, -1);
        tsr_tensor_release(s);
        tsr_tensor_release(hi);
        tsr_tensor_release(lo);
        tsr_tensor_release(q);
        return r;
    }
    if (!ord_str) {
        if (ord_float) snprintf(name, sizeof name, "linalg.cond(ord=%f)", ord);
        else snprintf(name, sizeof name, "linalg.cond(ord=%ld)", (long)ord);
        if (tsr__la_check_matrix(a, name, true) < 0) return NULL;
    }
    if (ord_str && !strcmp(ord_str, "nuc")) return cond_nuc(a);
    tsr_tensor *inv = inverse_or_inf(a), *x = NULL, *y = NULL, *r = NULL;
    if (!inv) return NULL;
    {
        tsr_dims d = {.n = 2, .d = {-2, -1}};
        if ((x = tsr_linalg_matrix_norm(a, ord_str, ord, &d, false, TSR_DTYPE_UNDEFINED, NULL)) &&
            (y = tsr_linalg_matrix_norm(inv, ord_str, ord, &d, false, TSR_DTYPE_UNDEFINED, NULL)) &&
            (r = mul2(x, y, TSR_BINOP_MUL))) {
            tsr_unary_opts o = {.has_nan = true, .nan = INFINITY, .has_posinf = true, .posinf = INFINITY,
                                .has_neginf = true, .neginf = -INFINITY};
            tsr_tensor *r2 = tsr_unary_(TSR_UNOP_NAN_TO_NUM, r, &o);
            tsr_tensor_release(r2 ? r2 : r);
            if (!r2) r = NULL;
        }
    }
    tsr_tensor_release(inv);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    return r;
}
