/* runtime/ops/linalg_ext.c — the rest of torch.linalg, beside linalg.c's
 * factorizations: eig/eigvals (geev, complex results built from LAPACK's
 * real pairs), pinv and matrix_rank (from svd/eigh with 1.13's atol/rtol
 * rule), out= for the single-tensor results, and the products that need no
 * LAPACK: trace, kron, vecdot, vander, multi_dot (1.13's chain order). */
#include <cblas.h>
#include <complex.h>
#include <lapacke.h>
#include <stdio.h>
#include <string.h>

#include "linalg.h"
#include "binary.h"
#include "blas.h"
#include "compare.h"
#include "index.h"
#include "join.h"
#include "scan.h"
#include "scatter.h"
#include "shape.h"
#include "copy.h"
#include "factory.h"
#include "rearrange.h"
#include "reduce.h"
#include "unary.h"
#include "../error.h"
#include "../internal.h"
#include "../view.h"
#include "linalg_int.h"
#include "linalg_dev.h"

/* ------------------------------------------------------------ eig (geev) */

static int lp_geev(tsr_dtype dt, char jobvr, int n, void *a, void *w, void *wi, void *vr, int ldvr, void *work,
                   int lwork, void *rwork)
{
    int ld = n > 1 ? n : 1;
    char vl[16];
    switch (dt) {
    case TSR_FLOAT32: return LAPACKE_sgeev_work(CM, 'N', jobvr, n, a, ld, w, wi, (float *)vl, 1, vr, ldvr, work, lwork);
    case TSR_FLOAT64: return LAPACKE_dgeev_work(CM, 'N', jobvr, n, a, ld, w, wi, (double *)vl, 1, vr, ldvr, work, lwork);
    case TSR_COMPLEX64:
        return LAPACKE_cgeev_work(CM, 'N', jobvr, n, a, ld, w, (cf *)vl, 1, vr, ldvr, work, lwork, rwork);
    default: return LAPACKE_zgeev_work(CM, 'N', jobvr, n, a, ld, w, (cd *)vl, 1, vr, ldvr, work, lwork, rwork);
    }
}

static tsr_dtype complex_of(tsr_dtype d)
{
    return d == TSR_FLOAT32 ? TSR_COMPLEX64 : d == TSR_FLOAT64 ? TSR_COMPLEX128 : d;
}

int tsr_linalg_eig(const tsr_tensor *a, tsr_tensor **values, tsr_tensor **vectors)
{
    const char *fn = vectors ? "linalg.eig" : "linalg.eigvals";
    if (tsr__la_is_meta(a)) return tsr_meta_refused("linalg_eig");
    if (tsr__la_check_matrix(a, "linalg.eig", true) < 0) return -1;
    (void)fn;
    tsr_dtype dt = a->dtype;
    if (!tsr_dtype_is_floating(dt) && !tsr_dtype_is_complex(dt)) {
        tsr_error_set(TSR_ERR_RUNTIME, "Unknown Complex ScalarType for %s", tsr_dtype_scalar_name(dt));
        return -1;
    }
    if (dt == TSR_BFLOAT16) {
        tsr_error_set(TSR_ERR_RUNTIME, "Unknown Complex ScalarType for BFloat16");
        return -1;
    }
    if (!tsr__la_lapack_dtype(dt)) return tsr__not_implemented("linalg_eig_out_cpu", dt);
    int nd = a->ndim;
    int64_t n = a->sizes[nd - 1], nb = tsr__la_batch_count(a, 2), sz[TSR_MAX_DIMS];
    bool cx = tsr_dtype_is_complex(dt), v = vectors != NULL;
    tsr_dtype cdt = complex_of(dt);
    tsr_tensor *ac = tsr__la_clone_fmat(a), *w = NULL, *vec = NULL, *vr = NULL;
    void *work = NULL, *rwork = NULL, *wr = NULL;
    if (!ac) return -1;
    if (!tsr__la_is_meta(a)) {   /* 1.13 refuses what would make LAPACK loop */
        int64_t numel = tsr_tensor_numel(a);
        for (int64_t i = 0; i < numel; i++) {
            double re, im;
            tsr_tensor_get_complex_at(ac, i, &re, &im);
            if (!__builtin_isfinite(re) || !__builtin_isfinite(im)) {
                tsr_error_set(TSR_ERR_RUNTIME, "torch.linalg.eig: input tensor should not contain infs or NaNs.");
                goto fail;
            }
        }
    }
    memcpy(sz, a->sizes, (size_t)nd * sizeof *sz);
    if (!(w = tsr_tensor_empty(nd - 1, sz, cdt, a->device))) goto fail;
    if (v && !(vec = tsr__la_empty_fmat(nd, sz, cdt, a->device))) goto fail;
    if (!tsr__la_is_meta(a) && n > 0 && nb > 0) {
        if (v && !(vr = cx ? tsr_tensor_retain(vec) : tsr__la_empty_fmat(nd, sz, dt, a->device))) goto fail;
        int64_t isz = tsr_dtype_itemsize(dt);
        if (!cx && !(wr = tsr_malloc((size_t)(2 * n) * (size_t)isz))) goto fail;
        if (cx && !(rwork = tsr__la_ws(tsr_dtype_to_real(dt), 2 * n))) goto fail;
        char wq[16], dummy[16];
        char jobvr = v ? 'V' : 'N';
        int ldvr = v ? (int)n : 1;
        lp_geev(dt, jobvr, (int)n, tsr__la_mat_at(ac, 0, 0), cx ? tsr__la_mat_at(w, 0, 0) : wr, cx ? NULL : (char *)wr + n * isz,
                v ? tsr__la_mat_at(vr, 0, 0) : dummy, ldvr, wq, -1, rwork);
        int lw = tsr__la_wk(dt, wq);
        if (!(work = tsr__la_ws(dt, lw))) goto fail;
        for (int64_t i = 0; i < nb; i++) {
            int info = lp_geev(dt, jobvr, (int)n, tsr__la_mat_at(ac, i, n * n), cx ? tsr__la_mat_at(w, i, n) : wr,
                               cx ? NULL : (char *)wr + n * isz, v ? tsr__la_mat_at(vr, i, n * n) : dummy, ldvr, work, lw,
                               rwork);
            if (info > 0) {
                char batch[64] = "";
                if (nd > 2) snprintf(batch, sizeof batch, ": (Batch element %ld)", (long)i);
                tsr_error_set(TSR_ERR_LINALG, "linalg.eig%s: The algorithm failed to converge because the input "
                              "matrix is ill-conditioned or has too many repeated eigenvalues (error code: %d).",
                              batch, info);
                goto fail;
            }
            if (!cx) {   /* linalg_eig_make_complex_eigenvectors: conjugate pairs from adjacent columns */
                char *wo = tsr__la_mat_at(w, i, n);
                for (int64_t j = 0; j < n; j++) {
                    double re = dt == TSR_FLOAT32 ? ((float *)wr)[j] : ((double *)wr)[j];
                    double im = dt == TSR_FLOAT32 ? ((float *)wr)[n + j] : ((double *)wr)[n + j];
                    tsr_scalar_store(cdt, wo + j * 2 * isz, tsr_scalar_complex(re, im));
                }
                if (v) {
                    char *src = tsr__la_mat_at(vr, i, n * n), *dst = tsr__la_mat_at(vec, i, n * n);
#define RD(p, k) (dt == TSR_FLOAT32 ? (double)((float *)(p))[k] : ((double *)(p))[k])
                    for (int64_t j = 0; j < n; j++) {
                        double im = RD(wr, n + j);
                        for (int64_t r = 0; r < n; r++) {
                            if (im == 0.0) {
                                tsr_scalar_store(cdt, dst + (j * n + r) * 2 * isz, tsr_scalar_complex(RD(src, j * n + r), 0));
                            } else {
                                double x = RD(src, j * n + r), y = RD(src, (j + 1) * n + r);
                                tsr_scalar_store(cdt, dst + (j * n + r) * 2 * isz, tsr_scalar_complex(x, y));
                                tsr_scalar_store(cdt, dst + ((j + 1) * n + r) * 2 * isz, tsr_scalar_complex(x, -y));
                            }
                        }
                        if (im != 0.0) j++;
                    }
#undef RD
                }
            }
            if (tsr__la_poll(i, nb) < 0) goto fail;
        }
    }
    tsr_free(work);
    tsr_free(rwork);
    tsr_free(wr);
    tsr_tensor_release(ac);
    tsr_tensor_release(vr);
    *values = w;
    if (v) *vectors = vec;
    return 0;
fail:
    tsr_free(work);
    tsr_free(rwork);
    tsr_free(wr);
    tsr_tensor_release(ac);
    tsr_tensor_release(vr);
    tsr_tensor_release(w);
    tsr_tensor_release(vec);
    return -1;
}

/* ------------------------------------------------------------ pinv, matrix_rank */

/* get_atol_rtol: float64 0-dim tolerances; the default rtol is eps(real
 * dtype) * max(m, n), or 0 where atol > 0 when only atol is given. */
static int atol_rtol(const tsr_tensor *a, const tsr_tensor *atol, const tsr_tensor *rtol, const char *fn,
                     tsr_tensor **at_, tsr_tensor **rt_)
{
    const tsr_tensor *chk[2] = {atol, rtol};
    const char *nm[2] = {"atol", "rtol"};
    for (int i = 0; i < 2; i++)
        if (chk[i] && tsr_dtype_is_complex(chk[i]->dtype)) {
            tsr_error_set(TSR_ERR_RUNTIME, "%s: %s tensor of complex type is not supported. Got %s", fn, nm[i],
                          tsr_dtype_scalar_name(chk[i]->dtype));
            return -1;
        }
    *at_ = atol ? tsr_tensor_retain((tsr_tensor *)atol) : tsr_zeros(0, NULL, TSR_FLOAT64, a->device);
    if (!*at_) return -1;
    if (rtol) {
        *rt_ = tsr_tensor_retain((tsr_tensor *)rtol);
        return 0;
    }
    int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1];
    double eps = tsr_dtype_to_real(a->dtype) == TSR_FLOAT32 ? 1.1920928955078125e-07 : 2.220446049250313e-16;
    tsr_tensor *d = tsr_full(0, NULL, tsr_scalar_float(eps * (double)(m > n ? m : n)), TSR_FLOAT64, a->device);
    if (d && atol) {   /* where(atol > 0, 0, default) */
        tsr_operand x = tsr_operand_tensor(atol), z = tsr_operand_scalar(tsr_scalar_int(0));
        tsr_tensor *c = tsr_compare(TSR_CMP_GT, &x, &z, NULL), *w = NULL;
        if (c) {
            tsr_operand zz = tsr_operand_scalar(tsr_scalar_float(0.0)), dd = tsr_operand_tensor(d);
            w = tsr_where(c, &zz, &dd, NULL);
        }
        tsr_tensor_release(c);
        tsr_tensor_release(d);
        d = w;
    }
    if (!d) {
        tsr_tensor_release(*at_);
        return -1;
    }
    *rt_ = d;
    return 0;
}

/* max(atol.unsqueeze(-1), rtol.unsqueeze(-1) * max_val) */
static tsr_tensor *tolerance(const tsr_tensor *atol, const tsr_tensor *rtol, const tsr_tensor *max_val)
{
    tsr_tensor *au = tsr_view_unsqueeze(atol, -1), *ru = au ? tsr_view_unsqueeze(rtol, -1) : NULL, *p = NULL,
               *t = NULL;
    if (ru) p = tsr__la_mul2(ru, max_val);
    if (p) {
        tsr_operand x = tsr_operand_tensor(au), y = tsr_operand_tensor(p);
        t = tsr_binary(TSR_BINOP_MAXIMUM, &x, &y, NULL, NULL);
    }
    tsr_tensor_release(au);
    tsr_tensor_release(ru);
    tsr_tensor_release(p);
    return t;
}

tsr_tensor *tsr_linalg_pinv(const tsr_tensor *a, const tsr_tensor *atol, const tsr_tensor *rtol, bool hermitian)
{
    if (!tsr__la_lapack_dtype(a->dtype) || a->ndim < 2) {
        char buf[256];
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.pinv(%s{%s}): expected a tensor with 2 or more dimensions of float, "
                      "double, cfloat or cdouble types", tsr_dtype_scalar_name(a->dtype),
                      tsr__fmt_list(buf, sizeof buf, a->ndim, a->sizes));
        return NULL;
    }
    tsr_tensor *at = NULL, *rt = NULL, *u = NULL, *s = NULL, *vh = NULL, *mx = NULL, *tol = NULL, *gt = NULL,
               *rec = NULL, *sp = NULL, *spc = NULL, *spu = NULL, *left = NULL, *right = NULL, *r = NULL;
    if (atol_rtol(a, atol, rtol, "torch.linalg.pinv", &at, &rt) < 0) return NULL;
    if (tsr_tensor_numel(a) == 0) {
        int64_t sz[TSR_MAX_DIMS];
        memcpy(sz, a->sizes, (size_t)a->ndim * sizeof *sz);
        sz[a->ndim - 1] = a->sizes[a->ndim - 2];
        sz[a->ndim - 2] = a->sizes[a->ndim - 1];
        r = tsr_tensor_empty(a->ndim, sz, a->dtype, a->device);
        goto done;
    }
    tsr_dims last = {.n = 1, .d = {-1}};
    if (!hermitian) {
        if (tsr_linalg_svd(a, false, &u, &s, &vh) < 0 || !(mx = tsr_view_narrow(s, -1, 0, 1))) goto done;
    } else {
        if (tsr_linalg_eigh(a, "L", &s, &u) < 0) goto done;
        tsr_tensor *sa = tsr_unary(TSR_UNOP_ABS, s, NULL, NULL);
        if (!sa) goto done;
        mx = tsr_amax(sa, &last, true, true, NULL);
        if (!mx) { tsr_tensor_release(sa); goto done; }
        tsr_tensor_release(s);   /* the comparison uses |S|, the reciprocal S */
        s = sa;
    }
    if (!(tol = tolerance(at, rt, mx))) goto done;
    {
        tsr_operand x = tsr_operand_tensor(s), y = tsr_operand_tensor(tol);
        if (!(gt = tsr_compare(TSR_CMP_GT, &x, &y, NULL))) goto done;
    }
    if (hermitian) {   /* the reciprocal of the signed eigenvalues */
        tsr_tensor *w = NULL, *v = NULL;
        if (tsr_linalg_eigh(a, "L", &w, &v) < 0) goto done;
        tsr_tensor_release(v);
        rec = tsr_unary(TSR_UNOP_RECIPROCAL, w, NULL, NULL);
        tsr_tensor_release(w);
    } else rec = tsr_unary(TSR_UNOP_RECIPROCAL, s, NULL, NULL);
    if (!rec) goto done;
    {
        tsr_operand x = tsr_operand_tensor(rec), z = tsr_operand_scalar(tsr_scalar_float(0.0));
        tsr_tensor *zero = tsr_zeros(0, NULL, rec->dtype, rec->device);
        if (!zero) goto done;
        z = tsr_operand_tensor(zero);
        sp = tsr_where(gt, &x, &z, NULL);
        tsr_tensor_release(zero);
    }
    if (!sp || !(spc = tsr_to_dtype(sp, a->dtype, false)) || !(spu = tsr_view_unsqueeze(spc, -2))) goto done;
    if (!hermitian) {   /* (Vh^H * S+) @ U^H */
        tsr_tensor *vH = tsr__la_adjoint_copy(vh);
        if (!vH) goto done;
        left = tsr__la_mul2(vH, spu);
        tsr_tensor_release(vH);
    } else left = tsr__la_mul2(u, spu);
    if (!left || !(right = tsr__la_adjoint_copy(u))) goto done;
    r = tsr_matmul(left, right, NULL);
done:;
    tsr_tensor *all[] = {at, rt, u, s, vh, mx, tol, gt, rec, sp, spc, spu, left, right};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) tsr_tensor_release(all[i]);
    return r;
}

tsr_tensor *tsr_linalg_matrix_rank(const tsr_tensor *a, const tsr_tensor *atol, const tsr_tensor *rtol, bool hermitian)
{
    if (a->ndim < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.linalg.matrix_rank: The input tensor input must have at least 2 "
                      "dimensions.");
        return NULL;
    }
    if (!tsr_dtype_is_floating(a->dtype) && !tsr_dtype_is_complex(a->dtype)) {   /* _get_epsilon's refusal */
        tsr_error_set(TSR_ERR_RUNTIME, "This function doesn't handle types other than float and double");
        return NULL;
    }
    tsr_tensor *at = NULL, *rt = NULL, *s = NULL, *mx = NULL, *tol = NULL, *gt = NULL, *r = NULL;
    if (atol_rtol(a, atol, rtol, "torch.linalg.matrix_rank", &at, &rt) < 0) return NULL;
    tsr_dims last = {.n = 1, .d = {-1}};
    if (hermitian) {
        tsr_tensor *w = NULL;
        if (tsr_linalg_eigh(a, "L", &w, NULL) < 0) goto done;
        s = tsr_unary(TSR_UNOP_ABS, w, NULL, NULL);
        tsr_tensor_release(w);
    } else if (tsr_linalg_svd(a, false, NULL, &s, NULL) < 0) goto done;
    if (!s) goto done;
    if (tsr_tensor_numel(s) == 0) {
        if (!(mx = tsr_zeros(s->ndim, s->sizes, s->dtype, s->device))) goto done;
    } else if (!(mx = tsr_amax(s, &last, true, true, NULL))) goto done;
    if (!(tol = tolerance(at, rt, mx))) goto done;
    {
        tsr_operand x = tsr_operand_tensor(s), y = tsr_operand_tensor(tol);
        if (!(gt = tsr_compare(TSR_CMP_GT, &x, &y, NULL))) goto done;
    }
    r = tsr_sum(gt, &last, false, TSR_DTYPE_UNDEFINED, NULL);
done:;
    tsr_tensor_release(at);
    tsr_tensor_release(rt);
    tsr_tensor_release(s);
    tsr_tensor_release(mx);
    tsr_tensor_release(tol);
    tsr_tensor_release(gt);
    return r;
}

/* ------------------------------------------------------------ out= */

tsr_tensor *tsr_linalg_out(tsr_tensor *r, tsr_tensor *out)
{
    if (!r || !out) return r;
    int resized = tsr_out_dtype_check(out, r->dtype) < 0 ? -1 : tsr_resize_output(out, r->ndim, r->sizes);
    if (resized < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    /* resize_out restrides a resized out as the meta function asks (a
     * column-major batch for the matrix results); the same elements fit */
    if (resized == 1)
        for (int d = 0; d < r->ndim; d++) out->strides[d] = r->strides[d];
    int rc = tsr__la_is_meta(out) ? 0 : tsr_copy_(out, r);
    tsr_tensor_release(r);
    return rc < 0 ? NULL : tsr_tensor_retain(out);
}

/* ------------------------------------------------------------ trace, kron, vecdot, vander */

tsr_tensor *tsr_trace(const tsr_tensor *x)
{
    tsr_dtype d = x->dtype;
    bool cx = tsr_dtype_is_complex(d);
    if (d == TSR_BOOL || d == TSR_FLOAT16 || d == TSR_BFLOAT16 || d == TSR_COMPLEX32) {
        tsr__not_implemented("trace", d);
        return NULL;
    }
    if (x->ndim != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "trace: expected a matrix, but got tensor with dim %d", x->ndim);
        return NULL;
    }
    tsr_dtype rd = tsr_dtype_is_integral(d, true) ? TSR_INT64 : d;
    if (tsr__la_dev(x)) {   /* trace_cuda: self.diagonal().sum(), in int64 for integers */
        tsr_tensor *dg = tsr_view_diagonal(x, 0, 0, 1), *r = NULL;
        tsr_dims all = {.n = -1};
        if (dg) r = tsr_sum(dg, &all, false, rd, NULL);
        tsr_tensor_release(dg);
        return r;
    }
    tsr_tensor *r = tsr_tensor_empty(0, NULL, rd, x->device);
    if (!r || tsr__la_is_meta(x)) return r;
    int64_t n = x->sizes[0] < x->sizes[1] ? x->sizes[0] : x->sizes[1];
    /* trace_cpu: one serial sum in acc_type (double for float, int64 for integers) */
    double re = 0, im = 0;
    uint64_t isum = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t idx[2] = {i, i};
        if (rd == TSR_INT64) isum += (uint64_t)tsr_tensor_get_int64(x, idx);
        else {
            double a, b;
            tsr_tensor_get_complex(x, idx, &a, &b);
            re += a;
            im += b;
        }
    }
    tsr_scalar s = rd == TSR_INT64 ? tsr_scalar_int((int64_t)isum) : cx ? tsr_scalar_complex(re, im) : tsr_scalar_float(re);
    if (tsr_tensor_set(r, NULL, s) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

tsr_tensor *tsr_kron(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor *out)
{
    int nd = a->ndim > b->ndim ? a->ndim : b->ndim, pa = nd - a->ndim, pb = nd - b->ndim;
    int64_t as[2 * TSR_MAX_DIMS], bs[2 * TSR_MAX_DIMS], rs[TSR_MAX_DIMS];
    if (2 * nd > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "kron: too many dimensions");
        return NULL;
    }
    for (int i = 0; i < nd; i++) {
        as[2 * i] = i >= pa ? a->sizes[i - pa] : 1;
        as[2 * i + 1] = 1;
        bs[2 * i] = 1;
        bs[2 * i + 1] = i >= pb ? b->sizes[i - pb] : 1;
        rs[i] = as[2 * i] * bs[2 * i + 1];
    }
    /* _unsafe_view: a view, so a non-viewable input fails as in 1.13 */
    tsr_tensor *av = tsr_view_view(a, 2 * nd, as), *bv = av ? tsr_view_view(b, 2 * nd, bs) : NULL, *m = NULL, *r = NULL;
    if (bv) {
        tsr_operand x = tsr_operand_tensor(av), y = tsr_operand_tensor(bv);
        m = tsr_binary(TSR_BINOP_MUL, &x, &y, NULL, NULL);
    }
    if (m) r = tsr_view_view(m, nd, rs);
    tsr_tensor_release(av);
    tsr_tensor_release(bv);
    tsr_tensor_release(m);
    return r && out ? tsr_linalg_out(r, out) : r;
}

tsr_tensor *tsr_linalg_vecdot(const tsr_tensor *x, const tsr_tensor *y, int64_t dim, tsr_tensor *out)
{
    if (!tsr_dtype_is_floating(x->dtype) && !tsr_dtype_is_complex(x->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.vecdot: Expected a floating point or complex tensor as input. Got %s",
                      tsr_dtype_scalar_name(x->dtype));
        return NULL;
    }
    if (x->dtype != y->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.vecdot: Expected x and y to have the same dtype, but found x of type %s "
                      "and y of type %s instead", tsr_dtype_scalar_name(x->dtype), tsr_dtype_scalar_name(y->dtype));
        return NULL;
    }
    /* two vectors: vdot (1.13's shortcut, BLAS's dot and its complex result
     * included); else (x.conj() * y).sum(dim) */
    if (x->ndim == 1 && y->ndim == 1) return tsr_vdot(x, y, out);
    tsr_tensor *cx = tsr_dtype_is_complex(x->dtype) ? tsr_conj_physical((tsr_tensor *)x, NULL)
                                                    : tsr_tensor_retain((tsr_tensor *)x);
    if (!cx) return NULL;
    tsr_operand a = tsr_operand_tensor(cx), b = tsr_operand_tensor(y);
    tsr_tensor *m = tsr_binary(TSR_BINOP_MUL, &a, &b, NULL, NULL), *r = NULL;
    tsr_tensor_release(cx);
    if (!m) return NULL;
    tsr_dims dims = {.n = 1, .d = {dim}};
    r = tsr_sum(m, &dims, false, TSR_DTYPE_UNDEFINED, out);
    tsr_tensor_release(m);
    return r;
}

tsr_tensor *tsr_linalg_vander(const tsr_tensor *x, bool has_n, int64_t n)
{
    tsr_dtype t = x->dtype;
    if (!(t == TSR_FLOAT32 || t == TSR_FLOAT64 || t == TSR_COMPLEX64 || t == TSR_COMPLEX128 ||
          tsr_dtype_is_integral(t, false))) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.vander supports floating point, complex, and integer tensors, but got %s",
                      tsr_dtype_scalar_name(t));
        return NULL;
    }
    tsr_tensor *x_ = x->ndim == 0 ? tsr_view_unsqueeze(x, -1) : tsr_tensor_retain((tsr_tensor *)x);
    if (!x_) return NULL;
    if (!has_n) n = x_->sizes[x_->ndim - 1];
    if (n <= 1) {
        tsr_tensor_release(x_);
        tsr_error_set(TSR_ERR_RUNTIME, "N must be greater than 1.");
        return NULL;
    }
    int64_t sz[TSR_MAX_DIMS];
    int nd = x_->ndim;
    memcpy(sz, x_->sizes, (size_t)nd * sizeof *sz);
    sz[nd] = n - 1;
    /* cat([ones, cumprod(x.unsqueeze(-1).expand(..., n - 1), -1)], -1) */
    tsr_tensor *u = tsr_view_unsqueeze(x_, -1), *e = u ? tsr_view_expand(u, nd + 1, sz) : NULL,
               *c = e ? tsr_cumsum(e, -1, TSR_DTYPE_UNDEFINED, true, NULL) : NULL, *ones = NULL, *r = NULL;
    if (c) {
        sz[nd] = 1;
        ones = tsr_ones(nd + 1, sz, c->dtype, c->device);
    }
    if (ones) {
        const tsr_tensor *parts[2] = {ones, c};
        r = tsr_cat(2, parts, -1, NULL);
    }
    tsr_tensor_release(x_);
    tsr_tensor_release(u);
    tsr_tensor_release(e);
    tsr_tensor_release(c);
    tsr_tensor_release(ones);
    return r;
}

/* ------------------------------------------------------------ multi_dot */

int tsr_chain_matmul_check(int n, const tsr_tensor *const *in)
{
    for (int i = 0; i < n; i++)
        if (in[i]->ndim != 2) {
            tsr_error_set(TSR_ERR_RUNTIME, "Tensor dimension is %d, expected 2 instead.", in[i]->ndim);
            return -1;
        }
    if (n == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "chain_matmul(): Expected one or more matrices");
        return -1;
    }
    return 0;
}

/* matrix_chain_multiplication: mm of the two halves split at s[i][j]. */
static tsr_tensor *chain(const tsr_tensor *const *t, const int64_t *s, int n, int i, int j)
{
    if (i == j) return tsr_tensor_retain((tsr_tensor *)t[i]);
    int k = (int)s[i * n + j];
    tsr_tensor *l = chain(t, s, n, i, k), *r = l ? chain(t, s, n, k + 1, j) : NULL, *m = NULL;
    if (r) m = tsr_mm(l, r, NULL);
    tsr_tensor_release(l);
    tsr_tensor_release(r);
    return m;
}

tsr_tensor *tsr_linalg_multi_dot(int n, const tsr_tensor *const *in, tsr_tensor *out)
{
    if (n < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "multi_dot(): expected at least 2 tensors but got %d", n);
        return NULL;
    }
    const tsr_tensor **t = tsr_calloc((size_t)n, sizeof *t);
    int64_t *s = NULL, *m = NULL, *p = NULL, osz[2];
    int on = 0;
    tsr_tensor *first = NULL, *lastv = NULL, *r = NULL, *res = NULL;
    char x[128], y[128];
    if (!t) return NULL;
    for (int i = 0; i < n; i++) t[i] = in[i];
    if (in[0]->ndim == 1) { if (!(first = tsr_view_unsqueeze(in[0], 0))) goto done; t[0] = first; }
    else if (in[0]->ndim == 2) osz[on++] = in[0]->sizes[0];
    else {
        tsr_error_set(TSR_ERR_RUNTIME, "multi_dot(): the first tensor must be 1D or 2D but got %dD", in[0]->ndim);
        goto done;
    }
    if (in[n - 1]->ndim == 1) { if (!(lastv = tsr_view_unsqueeze(in[n - 1], -1))) goto done; t[n - 1] = lastv; }
    else if (in[n - 1]->ndim == 2) osz[on++] = in[n - 1]->sizes[1];
    else {
        tsr_error_set(TSR_ERR_RUNTIME, "multi_dot(): the last tensor must be 1D or 2D but got %dD", in[n - 1]->ndim);
        goto done;
    }
    for (int i = 1; i < n - 1; i++)
        if (in[i]->ndim != 2) {
            tsr_error_set(TSR_ERR_RUNTIME, "multi_dot(): tensor %d must be 2D but got %dD", i, in[i]->ndim);
            goto done;
        }
    for (int i = 1; i < n; i++) {
        if (t[i]->dtype != t[0]->dtype) {
            tsr_error_set(TSR_ERR_RUNTIME, "multi_dot(): all tensors must have be the same dtype but tensor 0 is %s and "
                          "tensor %d %s", tsr_dtype_typemeta_name(t[0]->dtype), i, tsr_dtype_typemeta_name(t[i]->dtype));
            goto done;
        }
        if (t[i - 1]->sizes[t[i - 1]->ndim - 1] != t[i]->sizes[0]) {
            tsr_error_set(TSR_ERR_RUNTIME, "multi_dot(): tensors %d and %d with shapes %s and %s cannot be multiplied",
                          i - 1, i, tsr__fmt_list(x, sizeof x, in[i - 1]->ndim, in[i - 1]->sizes),
                          tsr__fmt_list(y, sizeof y, in[i]->ndim, in[i]->sizes));
            goto done;
        }
    }
    if (out && out->dtype != t[0]->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "multi_dot(): expected out tensor to have dtype %s but got %s",
                      tsr_dtype_typemeta_name(t[0]->dtype), tsr_dtype_typemeta_name(out->dtype));
        goto done;
    }
    if (n == 2) r = tsr_mm(t[0], t[1], NULL);
    else if (n == 3) {
        int64_t a = t[0]->sizes[0], b = t[1]->sizes[0], c = t[2]->sizes[0], d = t[2]->sizes[1];
        int64_t c1 = (a * c) * (b + d), c2 = (b * d) * (a + c);
        tsr_tensor *in2 = c1 > c2 ? tsr_mm(t[1], t[2], NULL) : tsr_mm(t[0], t[1], NULL);
        if (in2) r = c1 > c2 ? tsr_mm(t[0], in2, NULL) : tsr_mm(in2, t[2], NULL);
        tsr_tensor_release(in2);
    } else {   /* matrix_chain_order */
        if (!(s = tsr_calloc((size_t)(n * n), sizeof *s)) || !(m = tsr_calloc((size_t)(n * n), sizeof *m)) ||
            !(p = tsr_calloc((size_t)(n + 1), sizeof *p)))
            goto done;
        for (int i = 0; i < n; i++) p[i] = t[i]->sizes[0];
        p[n] = t[n - 1]->sizes[1];
        for (int l = 1; l < n; l++)
            for (int i = 0; i < n - l; i++) {
                int j = i + l;
                m[i * n + j] = INT64_MAX;
                for (int k = i; k < j; k++) {
                    int64_t q = m[i * n + k] + m[(k + 1) * n + j] + p[i] * p[k + 1] * p[j + 1];
                    if (q < m[i * n + j]) { m[i * n + j] = q; s[i * n + j] = k; }
                }
            }
        r = chain(t, s, n, 0, n - 1);
    }
    if (r) res = tsr_view_view(r, on, osz);
    if (res && out) res = tsr_linalg_out(res, out);
done:
    tsr_tensor_release(first);
    tsr_tensor_release(lastv);
    tsr_tensor_release(r);
    tsr_free(t);
    tsr_free(s);
    tsr_free(m);
    tsr_free(p);
    return res;
}
