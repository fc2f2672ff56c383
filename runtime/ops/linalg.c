/* runtime/ops/linalg.c — torch.linalg over LAPACK (LAPACKE over OpenBLAS):
 * each function copies its input into a batch of column-major matrices as
 * 1.13's cloneBatchedColumnMajor does and calls the routine 1.13 calls
 * (getrf/getrs for inv and solve, getrf for det, potrf, geqrf + orgqr,
 * syevd/heevd, gesdd), one matrix at a time with a Ctrl-C poll between them.
 * The composite parts (det's product, slogdet's sum of logs) run through the
 * runtime's own reductions, as 1.13 runs them through ATen's. */
#include <complex.h>
#include <lapacke.h>
#include <stdio.h>
#include <string.h>

#include "linalg.h"
#include "binary.h"
#include "blas.h"
#include "compare.h"
#include "copy.h"
#include "factory.h"
#include "rearrange.h"
#include "reduce.h"
#include "unary.h"
#include "../error.h"
#include "../internal.h"
#include "../view.h"

/* ------------------------------------------------------------ LAPACK by dtype */

#define CM LAPACK_COL_MAJOR
typedef lapack_complex_float cf;
typedef lapack_complex_double cd;

static int lp_getrf(tsr_dtype dt, int n, void *a, int *ipiv)
{
    int ld = n > 1 ? n : 1;
    switch (dt) {
    case TSR_FLOAT32: return LAPACKE_sgetrf_work(CM, n, n, a, ld, ipiv);
    case TSR_FLOAT64: return LAPACKE_dgetrf_work(CM, n, n, a, ld, ipiv);
    case TSR_COMPLEX64: return LAPACKE_cgetrf_work(CM, n, n, a, ld, ipiv);
    default: return LAPACKE_zgetrf_work(CM, n, n, a, ld, ipiv);
    }
}

static int lp_getrs(tsr_dtype dt, char trans, int n, int k, const void *a, const int *ipiv, void *b)
{
    int ld = n > 1 ? n : 1;
    switch (dt) {
    case TSR_FLOAT32: return LAPACKE_sgetrs_work(CM, trans, n, k, a, ld, ipiv, b, ld);
    case TSR_FLOAT64: return LAPACKE_dgetrs_work(CM, trans, n, k, a, ld, ipiv, b, ld);
    case TSR_COMPLEX64: return LAPACKE_cgetrs_work(CM, trans, n, k, a, ld, ipiv, b, ld);
    default: return LAPACKE_zgetrs_work(CM, trans, n, k, a, ld, ipiv, b, ld);
    }
}

static int lp_potrf(tsr_dtype dt, char uplo, int n, void *a)
{
    int ld = n > 1 ? n : 1;
    switch (dt) {
    case TSR_FLOAT32: return LAPACKE_spotrf_work(CM, uplo, n, a, ld);
    case TSR_FLOAT64: return LAPACKE_dpotrf_work(CM, uplo, n, a, ld);
    case TSR_COMPLEX64: return LAPACKE_cpotrf_work(CM, uplo, n, a, ld);
    default: return LAPACKE_zpotrf_work(CM, uplo, n, a, ld);
    }
}

/* Real part of a workspace-size answer (LAPACK returns it in work[0]). */
static int wk(tsr_dtype dt, const void *w)
{
    double v;
    switch (dt) {
    case TSR_FLOAT32: case TSR_COMPLEX64: v = *(const float *)w; break;
    default: v = *(const double *)w; break;
    }
    return v > 1 ? (int)v : 1;
}

/* geqrf (orgqr when q): lwork -1 asks for the size into work. */
static int lp_geqrf(tsr_dtype dt, int m, int n, void *a, void *tau, void *work, int lwork)
{
    int ld = m > 1 ? m : 1;
    switch (dt) {
    case TSR_FLOAT32: return LAPACKE_sgeqrf_work(CM, m, n, a, ld, tau, work, lwork);
    case TSR_FLOAT64: return LAPACKE_dgeqrf_work(CM, m, n, a, ld, tau, work, lwork);
    case TSR_COMPLEX64: return LAPACKE_cgeqrf_work(CM, m, n, a, ld, tau, work, lwork);
    default: return LAPACKE_zgeqrf_work(CM, m, n, a, ld, tau, work, lwork);
    }
}

static int lp_orgqr(tsr_dtype dt, int m, int n, int k, void *a, const void *tau, void *work, int lwork)
{
    int ld = m > 1 ? m : 1;
    switch (dt) {
    case TSR_FLOAT32: return LAPACKE_sorgqr_work(CM, m, n, k, a, ld, tau, work, lwork);
    case TSR_FLOAT64: return LAPACKE_dorgqr_work(CM, m, n, k, a, ld, tau, work, lwork);
    case TSR_COMPLEX64: return LAPACKE_cungqr_work(CM, m, n, k, a, ld, tau, work, lwork);
    default: return LAPACKE_zungqr_work(CM, m, n, k, a, ld, tau, work, lwork);
    }
}

static int lp_syevd(tsr_dtype dt, char jobz, char uplo, int n, void *a, void *w, void *work, int lwork, void *rwork,
                    int lrwork, int *iwork, int liwork)
{
    int ld = n > 1 ? n : 1;
    switch (dt) {
    case TSR_FLOAT32: return LAPACKE_ssyevd_work(CM, jobz, uplo, n, a, ld, w, work, lwork, iwork, liwork);
    case TSR_FLOAT64: return LAPACKE_dsyevd_work(CM, jobz, uplo, n, a, ld, w, work, lwork, iwork, liwork);
    case TSR_COMPLEX64:
        return LAPACKE_cheevd_work(CM, jobz, uplo, n, a, ld, w, work, lwork, rwork, lrwork, iwork, liwork);
    default: return LAPACKE_zheevd_work(CM, jobz, uplo, n, a, ld, w, work, lwork, rwork, lrwork, iwork, liwork);
    }
}

static int lp_gesdd(tsr_dtype dt, char jobz, int m, int n, void *a, void *s, void *u, int ldu, void *vt, int ldvt,
                    void *work, int lwork, void *rwork, int *iwork)
{
    int ld = m > 1 ? m : 1;
    switch (dt) {
    case TSR_FLOAT32: return LAPACKE_sgesdd_work(CM, jobz, m, n, a, ld, s, u, ldu, vt, ldvt, work, lwork, iwork);
    case TSR_FLOAT64: return LAPACKE_dgesdd_work(CM, jobz, m, n, a, ld, s, u, ldu, vt, ldvt, work, lwork, iwork);
    case TSR_COMPLEX64:
        return LAPACKE_cgesdd_work(CM, jobz, m, n, a, ld, s, u, ldu, vt, ldvt, work, lwork, rwork, iwork);
    default: return LAPACKE_zgesdd_work(CM, jobz, m, n, a, ld, s, u, ldu, vt, ldvt, work, lwork, rwork, iwork);
    }
}

/* ------------------------------------------------------------ checks */

static bool is_meta(const tsr_tensor *t) { return tsr_device_is_meta(t->device); }
static bool lapack_dtype(tsr_dtype d)
{
    return d == TSR_FLOAT32 || d == TSR_FLOAT64 || d == TSR_COMPLEX64 || d == TSR_COMPLEX128;
}

/* squareCheckInputs (LinearAlgebraUtils.h); square false checks only the rank. */
static int check_matrix(const tsr_tensor *a, const char *fn, bool square)
{
    if (a->ndim < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: The input tensor A must have at least 2 dimensions.", fn);
        return -1;
    }
    if (square && a->sizes[a->ndim - 1] != a->sizes[a->ndim - 2]) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: A must be batches of square matrices, but they are %ld by %ld matrices",
                      fn, (long)a->sizes[a->ndim - 2], (long)a->sizes[a->ndim - 1]);
        return -1;
    }
    return 0;
}

/* checkFloatingOrComplex; then the dtypes LAPACK has (kname's "not
 * implemented" for the half types where low precision passes the check). */
static int check_float(const tsr_tensor *a, const char *fn, bool low_precision, const char *kname)
{
    tsr_dtype d = a->dtype;
    if (!tsr_dtype_is_floating(d) && !tsr_dtype_is_complex(d)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: Expected a floating point or complex tensor as input. Got %s", fn,
                      tsr_dtype_scalar_name(d));
        return -1;
    }
    if (!low_precision && (d == TSR_FLOAT16 || d == TSR_BFLOAT16)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: Low precision dtypes not supported. Got %s", fn, tsr_dtype_scalar_name(d));
        return -1;
    }
    if (!lapack_dtype(d)) return tsr__not_implemented(kname, d);
    return 0;
}

/* _linalg_check_errors (BatchLinearAlgebra.cpp): the first nonzero info. */
int tsr_linalg_check_errors(const tsr_tensor *info, const char *api, bool is_matrix)
{
    if (is_meta(info)) return 0;
    int64_t n = tsr_tensor_numel(info);
    const int32_t *p = n ? tsr_tensor_ptr(info, NULL) : NULL;
    for (int64_t i = 0; i < n; i++) {
        if (p[i] <= 0) continue;
        char batch[64] = "";
        if (!is_matrix) snprintf(batch, sizeof batch, ": (Batch element %ld)", (long)i);
        int v = p[i];
        if (strstr(api, "inv"))
            tsr_error_set(TSR_ERR_LINALG, "%s%s: The diagonal element %d is zero, the inversion could not be "
                          "completed because the input matrix is singular.", api, batch, v);
        else if (strstr(api, "solve"))
            tsr_error_set(TSR_ERR_LINALG, "%s%s: The solver failed because the input matrix is singular.", api, batch);
        else if (strstr(api, "cholesky"))
            tsr_error_set(TSR_ERR_LINALG, "%s%s: The factorization could not be completed because the input is not "
                          "positive-definite (the leading minor of order %d is not positive-definite).", api, batch, v);
        else if (strstr(api, "svd"))
            tsr_error_set(TSR_ERR_LINALG, "%s%s: The algorithm failed to converge because the input matrix is "
                          "ill-conditioned or has too many repeated singular values (error code: %d).", api, batch, v);
        else
            tsr_error_set(TSR_ERR_LINALG, "%s%s: The algorithm failed to converge because the input matrix is "
                          "ill-conditioned or has too many repeated eigenvalues (error code: %d).", api, batch, v);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ batches */

/* batched_matrix_contiguous_strides(sizes, f_contig=true): a C-contiguous
 * batch of column-major matrices. */
static tsr_tensor *empty_fmat(int nd, const int64_t *sizes, tsr_dtype dt, tsr_device dev)
{
    int64_t st[TSR_MAX_DIMS];
    tsr_strides_contiguous(nd, sizes, st);
    if (nd >= 2) {
        st[nd - 1] = sizes[nd - 2] > 1 ? sizes[nd - 2] : 1;
        st[nd - 2] = 1;
    }
    return tsr_tensor_empty_strided(nd, sizes, st, dt, dev);
}

/* cloneBatchedColumnMajor: a copy of a in empty_fmat's layout. */
static tsr_tensor *clone_fmat(const tsr_tensor *a)
{
    tsr_tensor *r = empty_fmat(a->ndim, a->sizes, a->dtype, a->device);
    if (r && !is_meta(a) && tsr_copy_(r, a) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

static int64_t batch_count(const tsr_tensor *a, int keep)
{
    int64_t b = 1;
    for (int d = 0; d < a->ndim - keep; d++) b *= a->sizes[d];
    return b;
}

/* The i-th matrix of an empty_fmat tensor of m x n matrices. */
static void *mat_at(const tsr_tensor *t, int64_t i, int64_t mn)
{
    return (char *)tsr_tensor_ptr(t, NULL) + i * mn * tsr_dtype_itemsize(t->dtype);
}

/* An int32 tensor of the batch shape (a's dims less the last `drop`). */
static tsr_tensor *batch_int(const tsr_tensor *a, int drop, int extra_n, int64_t extra)
{
    int64_t sz[TSR_MAX_DIMS];
    int nd = a->ndim - drop;
    memcpy(sz, a->sizes, (size_t)nd * sizeof *sz);
    if (extra_n) sz[nd++] = extra;
    return tsr_zeros(nd, sz, TSR_INT32, a->device);
}

static int poll(int64_t i, int64_t n) { return i + 1 < n ? tsr_check_interrupt() : 0; }

/* getrf on every matrix of lu (an empty_fmat n x n batch) into piv and info. */
static int lu_factor(tsr_tensor *lu, tsr_tensor *piv, tsr_tensor *info)
{
    if (is_meta(lu)) return 0;
    int64_t n = lu->sizes[lu->ndim - 1], nb = batch_count(lu, 2);
    if (n == 0) return 0;
    int32_t *pv = tsr_tensor_ptr(piv, NULL), *in = tsr_tensor_ptr(info, NULL);
    for (int64_t i = 0; i < nb; i++) {
        in[i] = lp_getrf(lu->dtype, (int)n, mat_at(lu, i, n * n), pv + i * n);
        if (poll(i, nb) < 0) return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ solve and inv */

/* linalg_solve_is_vector_rhs */
static bool vector_rhs(const tsr_tensor *a, const tsr_tensor *b)
{
    if (b->ndim == 1) return true;
    if (b->ndim != a->ndim - 1) return false;
    for (int d = 0; d < b->ndim; d++)
        if (b->sizes[d] != a->sizes[d]) return false;
    return true;
}

/* Broadcasts the batch dims of a (nda dims, la kept) and b: out gets the
 * broadcast batch; -1 with the error. */
static int broadcast_batch(const tsr_tensor *a, int ka, const tsr_tensor *b, int kb, int *nd, int64_t *out)
{
    int na = a->ndim - ka, nbd = b->ndim - kb;
    *nd = na > nbd ? na : nbd;
    for (int i = 0; i < *nd; i++) {
        int ia = na - *nd + i, ib = nbd - *nd + i;
        int64_t sa = ia >= 0 ? a->sizes[ia] : 1, sb = ib >= 0 ? b->sizes[ib] : 1;
        if (sa != sb && sa != 1 && sb != 1) {
            tsr_error_set(TSR_ERR_RUNTIME, "The size of tensor a (%ld) must match the size of tensor b (%ld) at "
                          "non-singleton dimension %d", (long)sa, (long)sb, i);
            return -1;
        }
        out[i] = sa == 1 ? sb : sa;
    }
    return 0;
}

/* _linalg_solve_ex (left=True): factor A (A^T when A is contiguous and real,
 * then solve with trans 'T'), solve every right-hand side. b_is_out: *res
 * already holds B in empty_fmat layout with the broadcast shape (inv). */
static int solve_impl(const tsr_tensor *a, const tsr_tensor *b, const char *api, tsr_tensor **res,
                      tsr_tensor **info_out)
{
    tsr_tensor *at = NULL, *lu = NULL, *piv = NULL, *info = NULL, *b2 = NULL, *x = NULL, *lue = NULL, *pe = NULL;
    int rc = -1;
    bool use_t = tsr_tensor_is_contiguous(a) && !tsr_dtype_is_complex(a->dtype);
    int64_t n = a->sizes[a->ndim - 1];
    if (use_t) { if (!(at = tsr_view_mT(a))) goto fail; }
    else at = tsr_tensor_retain((tsr_tensor *)a);
    if (!(lu = clone_fmat(at)) || !(piv = batch_int(a, 1, 0, 0)) || !(info = batch_int(a, 2, 0, 0))) goto fail;
    if (lu_factor(lu, piv, info) < 0) goto fail;
    if (api && tsr_linalg_check_errors(info, api, a->ndim == 2) < 0) goto fail;

    bool vec = vector_rhs(a, b);
    if (vec) { if (!(b2 = tsr_view_unsqueeze(b, -1))) goto fail; }
    else b2 = tsr_tensor_retain((tsr_tensor *)b);
    if (b2->sizes[b2->ndim - 2] != n) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.solve: Incompatible shapes of A and B for the equation AX = B "
                      "(%ldx%ld and %ldx%ld)", (long)n, (long)n, (long)b2->sizes[b2->ndim - 2],
                      (long)b2->sizes[b2->ndim - 1]);
        goto fail;
    }
    int64_t bsz[TSR_MAX_DIMS], k = b2->sizes[b2->ndim - 1];
    int bnd;
    if (broadcast_batch(a, 2, b2, 2, &bnd, bsz) < 0) goto fail;
    bsz[bnd] = n;
    bsz[bnd + 1] = k;
    tsr_tensor *be = tsr_view_expand(b2, bnd + 2, bsz);
    if (!be) goto fail;
    x = clone_fmat(be);
    tsr_tensor_release(be);
    if (!x) goto fail;
    /* LU and pivots broadcast to the same batch */
    bsz[bnd + 1] = n;
    if (!(lue = tsr_view_expand(lu, bnd + 2, bsz))) goto fail;
    tsr_tensor *lc = clone_fmat(lue);
    tsr_tensor_release(lue);
    lue = lc;
    if (!lue) goto fail;
    tsr_tensor *pv = tsr_view_expand(piv, bnd + 1, bsz);
    if (!pv) goto fail;
    pe = tsr_contiguous(pv, TSR_MF_CONTIGUOUS);
    tsr_tensor_release(pv);
    if (!pe) goto fail;
    if (!is_meta(x) && tsr_tensor_numel(x) > 0) {
        int64_t nb = batch_count(x, 2);
        const int32_t *pp = tsr_tensor_ptr(pe, NULL);
        for (int64_t i = 0; i < nb; i++) {
            lp_getrs(x->dtype, use_t ? 'T' : 'N', (int)n, (int)k, mat_at(lue, i, n * n), pp + i * n,
                     mat_at(x, i, n * k));
            if (poll(i, nb) < 0) goto fail;
        }
    }
    if (vec) {
        tsr_tensor *s = tsr_view_squeeze_dim(x, -1);
        if (!s) goto fail;
        tsr_tensor_release(x);
        x = s;
    }
    *res = x;
    x = NULL;
    *info_out = info;
    info = NULL;
    rc = 0;
fail:
    tsr_tensor_release(at);
    tsr_tensor_release(lu);
    tsr_tensor_release(piv);
    tsr_tensor_release(info);
    tsr_tensor_release(b2);
    tsr_tensor_release(x);
    tsr_tensor_release(lue);
    tsr_tensor_release(pe);
    return rc;
}

int tsr_linalg_solve_ex(const tsr_tensor *a, const tsr_tensor *b, const char *check, tsr_tensor **result,
                        tsr_tensor **info)
{
    if (check_matrix(a, "linalg.solve", true) < 0 || check_float(a, "linalg.solve", true, "lu_cpu") < 0)
        return -1;
    if (a->dtype != b->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.solve: Expected A and B to have the same dtype, but found A of type "
                      "%s and B of type %s instead", tsr_dtype_scalar_name(a->dtype), tsr_dtype_scalar_name(b->dtype));
        return -1;
    }
    if (b->ndim < 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.solve: The input tensor B must have at least 1 dimensions.");
        return -1;
    }
    if (solve_impl(a, b, NULL, result, info) < 0) return -1;
    if (check && tsr_linalg_check_errors(*info, check, a->ndim == 2) < 0) {
        tsr_tensor_release(*result);
        tsr_tensor_release(*info);
        return -1;
    }
    return 0;
}

int tsr_linalg_inv_ex(const tsr_tensor *a, const char *check, tsr_tensor **inverse, tsr_tensor **info)
{
    if (check_matrix(a, "linalg.inv", true) < 0 || check_float(a, "linalg.inv", false, "linalg_inv") < 0)
        return -1;
    tsr_tensor *eye = tsr_zeros(a->ndim, a->sizes, a->dtype, a->device), *d = NULL;
    if (!eye) return -1;
    if (!is_meta(a)) {
        if (!(d = tsr_view_diagonal(eye, 0, -2, -1)) || tsr_fill_(d, tsr_scalar_int(1)) < 0) {
            tsr_tensor_release(d);
            tsr_tensor_release(eye);
            return -1;
        }
        tsr_tensor_release(d);
    }
    tsr_tensor *x = NULL, *in = NULL;
    int rc = solve_impl(a, eye, NULL, &x, &in);
    tsr_tensor_release(eye);
    if (rc < 0) return -1;
    if (check && tsr_linalg_check_errors(in, check, a->ndim == 2) < 0) {
        tsr_tensor_release(x);
        tsr_tensor_release(in);
        return -1;
    }
    *inverse = x;
    *info = in;
    return 0;
}

/* ------------------------------------------------------------ det, slogdet */

/* LU of A for det and slogdet: of A^H (= A^T) when A is contiguous and real;
 * *sign_p: lu_det_P(pivots), an int32 tensor of +-1. */
static tsr_tensor *det_lu(const tsr_tensor *a, tsr_tensor **sign_p)
{
    tsr_tensor *src = NULL, *lu = NULL, *piv = NULL, *info = NULL, *p = NULL;
    int64_t n = a->sizes[a->ndim - 1];
    if (tsr_tensor_is_contiguous(a) && !tsr_dtype_is_complex(a->dtype)) src = tsr_view_mT(a);
    else src = tsr_tensor_retain((tsr_tensor *)a);
    if (!src || !(lu = clone_fmat(src)) || !(piv = batch_int(a, 1, 0, 0)) || !(info = batch_int(a, 2, 0, 0)))
        goto fail;
    if (lu_factor(lu, piv, info) < 0 || !(p = batch_int(a, 2, 0, 0))) goto fail;
    if (!is_meta(a)) {   /* (arange(1, n+1) != pivots).sum(-1).fmod(2) * -2 + 1 */
        int64_t nb = batch_count(a, 2);
        const int32_t *pv = tsr_tensor_ptr(piv, NULL);
        int32_t *pp = tsr_tensor_ptr(p, NULL);
        for (int64_t i = 0; i < nb; i++) {
            int32_t c = 0;
            for (int64_t j = 0; j < n; j++) c += pv[i * n + j] != (int32_t)(j + 1);
            pp[i] = (c % 2) * -2 + 1;
        }
    }
    tsr_tensor_release(src);
    tsr_tensor_release(piv);
    tsr_tensor_release(info);
    *sign_p = p;
    return lu;
fail:
    tsr_tensor_release(src);
    tsr_tensor_release(lu);
    tsr_tensor_release(piv);
    tsr_tensor_release(info);
    tsr_tensor_release(p);
    return NULL;
}

static tsr_tensor *mul2(const tsr_tensor *x, const tsr_tensor *y)
{
    tsr_operand a = tsr_operand_tensor(x), b = tsr_operand_tensor(y);
    return tsr_binary(TSR_BINOP_MUL, &a, &b, NULL, NULL);
}

tsr_tensor *tsr_linalg_det(const tsr_tensor *a)
{
    if (check_matrix(a, "linalg.det", true) < 0 || check_float(a, "linalg.det", true, "lu_cpu") < 0) return NULL;
    tsr_tensor *p = NULL, *lu = det_lu(a, &p), *d = NULL, *pr = NULL, *r = NULL;
    int64_t last = -1;
    if (lu && (d = tsr_view_diagonal(lu, 0, -2, -1)) && (pr = tsr_prod(d, &last, false, TSR_DTYPE_UNDEFINED, NULL)))
        r = mul2(p, pr);
    tsr_tensor_release(lu);
    tsr_tensor_release(p);
    tsr_tensor_release(d);
    tsr_tensor_release(pr);
    return r;
}

static int slogdet_impl(const tsr_tensor *a, tsr_tensor **sign, tsr_tensor **logabs)
{
    tsr_tensor *p = NULL, *lu = det_lu(a, &p), *d = NULL, *sg = NULL, *sp = NULL, *ab = NULL, *lg = NULL;
    int64_t last = -1;
    tsr_dims dims = {.n = 1, .d = {-1}};
    int rc = -1;
    if (!lu || !(d = tsr_view_diagonal(lu, 0, -2, -1))) goto fail;
    if (!(sg = tsr_unary(TSR_UNOP_SGN, d, NULL, NULL)) || !(sp = tsr_prod(sg, &last, false, TSR_DTYPE_UNDEFINED, NULL)))
        goto fail;
    if (!(*sign = mul2(sp, p))) goto fail;
    if (!(ab = tsr_unary(TSR_UNOP_ABS, d, NULL, NULL)) || !(lg = tsr_unary_(TSR_UNOP_LOG, ab, NULL))) goto fail;
    if (!(*logabs = tsr_sum(ab, &dims, false, TSR_DTYPE_UNDEFINED, NULL))) {
        tsr_tensor_release(*sign);
        goto fail;
    }
    rc = 0;
fail:
    tsr_tensor_release(p);
    tsr_tensor_release(lu);
    tsr_tensor_release(d);
    tsr_tensor_release(sg);
    tsr_tensor_release(sp);
    tsr_tensor_release(ab);
    tsr_tensor_release(lg);
    return rc;
}

int tsr_linalg_slogdet(const tsr_tensor *a, tsr_tensor **sign, tsr_tensor **logabsdet)
{
    if (check_matrix(a, "linalg.slogdet", true) < 0 || check_float(a, "linalg.slogdet", false, "lu_cpu") < 0)
        return -1;
    return slogdet_impl(a, sign, logabsdet);
}

tsr_tensor *tsr_logdet(const tsr_tensor *a)
{
    if (check_matrix(a, "logdet", true) < 0 || check_float(a, "logdet", false, "lu_cpu") < 0) return NULL;
    tsr_tensor *s = NULL, *l = NULL, *r = NULL;
    if (slogdet_impl(a, &s, &l) < 0) return NULL;
    if (tsr_dtype_is_complex(a->dtype)) {   /* sign.log() + logabsdet */
        tsr_tensor *ls = tsr_unary(TSR_UNOP_LOG, s, NULL, NULL);
        if (ls) {
            tsr_operand x = tsr_operand_tensor(ls), y = tsr_operand_tensor(l);
            r = tsr_binary(TSR_BINOP_ADD, &x, &y, NULL, NULL);
            tsr_tensor_release(ls);
        }
    } else {   /* where(sign == -1, nan, logabsdet) */
        tsr_operand x = tsr_operand_tensor(s), m1 = tsr_operand_scalar(tsr_scalar_float(-1));
        tsr_tensor *c = tsr_compare(TSR_CMP_EQ, &x, &m1, NULL);
        if (c) {
            tsr_operand nan = tsr_operand_scalar(tsr_scalar_float(__builtin_nan(""))), y = tsr_operand_tensor(l);
            r = tsr_where(c, &nan, &y, NULL);
            tsr_tensor_release(c);
        }
    }
    tsr_tensor_release(s);
    tsr_tensor_release(l);
    return r;
}

/* ------------------------------------------------------------ cholesky */

int tsr_linalg_cholesky_ex(const tsr_tensor *a, bool upper, const char *check, bool legacy, tsr_tensor **l,
                           tsr_tensor **info)
{
    const char *fn = legacy ? "cholesky" : "linalg.cholesky";
    if (check_matrix(a, fn, true) < 0) return -1;
    if (legacy ? (!lapack_dtype(a->dtype) && tsr__not_implemented("cholesky_cpu", a->dtype) < 0)
               : check_float(a, fn, true, "cholesky_cpu") < 0)
        return -1;
    tsr_tensor *r = clone_fmat(a), *in = r ? batch_int(a, 2, 0, 0) : NULL;
    if (!in) goto fail;
    if (!is_meta(a)) {
        int64_t n = a->sizes[a->ndim - 1], nb = batch_count(a, 2);
        int32_t *ip = tsr_tensor_ptr(in, NULL);
        for (int64_t i = 0; n > 0 && i < nb; i++) {
            ip[i] = lp_potrf(a->dtype, upper ? 'U' : 'L', (int)n, mat_at(r, i, n * n));
            if (poll(i, nb) < 0) goto fail;
        }
        if (check && tsr_linalg_check_errors(in, check, a->ndim == 2) < 0) goto fail;
        if (tsr_tril_(r, 0, upper) < 0) goto fail;
    }
    *l = r;
    *info = in;
    return 0;
fail:
    tsr_tensor_release(r);
    tsr_tensor_release(in);
    return -1;
}

/* ------------------------------------------------------------ qr */

/* A workspace of `count` elements of dt (at least one). */
static void *ws(tsr_dtype dt, int64_t count)
{
    return tsr_malloc((size_t)(count > 1 ? count : 1) * (size_t)tsr_dtype_itemsize(dt));
}

int tsr_linalg_qr(const tsr_tensor *a, const char *mode, tsr_tensor **q, tsr_tensor **r)
{
    bool reduced = !strcmp(mode, "reduced"), complete = !strcmp(mode, "complete"), ronly = !strcmp(mode, "r");
    if (!reduced && !complete && !ronly) {
        tsr_error_set(TSR_ERR_RUNTIME, "qr received unrecognized mode '%s' but expected one of 'reduced' (default), "
                      "'r', or 'complete'", mode);
        return -1;
    }
    if (check_matrix(a, "linalg.qr", false) < 0 || check_float(a, "linalg.qr", true, "geqrf_cpu") < 0) return -1;
    int nd = a->ndim;
    int64_t m = a->sizes[nd - 2], n = a->sizes[nd - 1], k = m < n ? m : n, nb = batch_count(a, 2);
    int64_t qc = complete ? m : k, rr = complete ? m : k, sz[TSR_MAX_DIMS];
    tsr_dtype dt = a->dtype;
    tsr_tensor *qr = clone_fmat(a), *qt = NULL, *rt = NULL, *tau = NULL;
    void *work = NULL;
    if (!qr) return -1;
    memcpy(sz, a->sizes, (size_t)nd * sizeof *sz);
    sz[nd - 2] = rr;
    if (!(rt = empty_fmat(nd, sz, dt, a->device))) goto fail;
    if (ronly) {
        int64_t z = 0;
        qt = tsr_tensor_empty(1, &z, dt, a->device);
    } else {
        sz[nd - 2] = m;
        sz[nd - 1] = qc;
        qt = empty_fmat(nd, sz, dt, a->device);
    }
    if (!qt) goto fail;
    sz[nd - 2] = k;
    if (!(tau = tsr_tensor_empty(nd - 1, sz, dt, a->device))) goto fail;
    if (!is_meta(a) && tsr_tensor_numel(qr) > 0) {
        char wq[16];
        lp_geqrf(dt, (int)m, (int)n, mat_at(qr, 0, 0), mat_at(tau, 0, 0), wq, -1);
        int lw = wk(dt, wq);
        if (!(work = ws(dt, lw))) goto fail;
        for (int64_t i = 0; i < nb; i++) {
            lp_geqrf(dt, (int)m, (int)n, mat_at(qr, i, m * n), mat_at(tau, i, k), work, lw);
            if (poll(i, nb) < 0) goto fail;
        }
    }
    /* R: the first rr rows of QR, upper triangular */
    if (!is_meta(a)) {
        tsr_tensor *top = tsr_view_narrow(qr, nd - 2, 0, rr < m ? rr : m);
        int bad = !top;
        if (!bad && rr <= m) bad = tsr_copy_(rt, top) < 0;
        tsr_tensor_release(top);
        if (bad || tsr_tril_(rt, 0, true) < 0) goto fail;
    }
    if (!ronly && !is_meta(a) && tsr_tensor_numel(qt) > 0) {
        /* Q: the reflectors (the first min(qc, n) columns), then orgqr */
        int64_t c = qc < n ? qc : n;
        tsr_tensor *src = tsr_view_narrow(qr, nd - 1, 0, c), *dst = src ? tsr_view_narrow(qt, nd - 1, 0, c) : NULL;
        int bad = !dst || tsr_copy_(dst, src) < 0;
        tsr_tensor_release(src);
        tsr_tensor_release(dst);
        if (bad) goto fail;
        char wq[16];
        lp_orgqr(dt, (int)m, (int)qc, (int)k, mat_at(qt, 0, 0), mat_at(tau, 0, 0), wq, -1);
        int lw = wk(dt, wq);
        tsr_free(work);
        if (!(work = ws(dt, lw))) goto fail;
        for (int64_t i = 0; i < nb; i++) {
            lp_orgqr(dt, (int)m, (int)qc, (int)k, mat_at(qt, i, m * qc), mat_at(tau, i, k), work, lw);
            if (poll(i, nb) < 0) goto fail;
        }
    }
    tsr_free(work);
    tsr_tensor_release(qr);
    tsr_tensor_release(tau);
    *q = qt;
    *r = rt;
    return 0;
fail:
    tsr_free(work);
    tsr_tensor_release(qr);
    tsr_tensor_release(qt);
    tsr_tensor_release(rt);
    tsr_tensor_release(tau);
    return -1;
}

/* ------------------------------------------------------------ eigh */

int tsr_linalg_eigh(const tsr_tensor *a, const char *uplo, tsr_tensor **values, tsr_tensor **vectors)
{
    if (check_matrix(a, "linalg.eigh", true) < 0) return -1;
    if (strcmp(uplo, "L") && strcmp(uplo, "U") && strcmp(uplo, "l") && strcmp(uplo, "u")) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected UPLO argument to be 'L' or 'U', but got %s", uplo);
        return -1;
    }
    if (!lapack_dtype(a->dtype)) return tsr__not_implemented("linalg_eigh_cpu", a->dtype);
    tsr_dtype dt = a->dtype, rdt = tsr_dtype_to_real(dt);
    int nd = a->ndim;
    int64_t n = a->sizes[nd - 1], nb = batch_count(a, 2);
    bool v = vectors != NULL;
    char jobz = v ? 'V' : 'N', ul = (uplo[0] == 'U' || uplo[0] == 'u') ? 'U' : 'L';
    tsr_tensor *vec = clone_fmat(a), *w = vec ? tsr_tensor_empty(nd - 1, a->sizes, rdt, a->device) : NULL;
    void *work = NULL, *rwork = NULL;
    int *iwork = NULL;
    int32_t *infos = NULL;
    if (!w) goto fail;
    if (!is_meta(a) && n > 0 && nb > 0) {
        char wq[16], rq[16];
        int iq = 0;
        lp_syevd(dt, jobz, ul, (int)n, mat_at(vec, 0, 0), mat_at(w, 0, 0), wq, -1, rq, -1, &iq, -1);
        int lw = wk(dt, wq), lrw = tsr_dtype_is_complex(dt) ? wk(rdt, rq) : 1, liw = iq > 1 ? iq : 1;
        if (!(work = ws(dt, lw)) || !(rwork = ws(rdt, lrw)) || !(iwork = tsr_malloc((size_t)liw * sizeof *iwork)))
            goto fail;
        if (!(infos = tsr_calloc((size_t)nb, sizeof *infos))) goto fail;
        for (int64_t i = 0; i < nb; i++) {
            infos[i] = lp_syevd(dt, jobz, ul, (int)n, mat_at(vec, i, n * n), mat_at(w, i, n), work, lw, rwork, lrw,
                                iwork, liw);
            if (poll(i, nb) < 0) goto fail;
        }
        for (int64_t i = 0; i < nb; i++)
            if (infos[i] > 0) {
                char batch[64] = "";
                if (nd > 2) snprintf(batch, sizeof batch, ": (Batch element %ld)", (long)i);
                tsr_error_set(TSR_ERR_LINALG, "linalg.eigh%s: The algorithm failed to converge because the input "
                              "matrix is ill-conditioned or has too many repeated eigenvalues (error code: %d).",
                              batch, infos[i]);
                goto fail;
            }
    }
    tsr_free(work);
    tsr_free(rwork);
    tsr_free(iwork);
    tsr_free(infos);
    *values = w;
    if (v) *vectors = vec;
    else tsr_tensor_release(vec);
    return 0;
fail:
    tsr_free(work);
    tsr_free(rwork);
    tsr_free(iwork);
    tsr_free(infos);
    tsr_tensor_release(vec);
    tsr_tensor_release(w);
    return -1;
}

/* ------------------------------------------------------------ svd */

/* _linalg_svd: gesdd with jobz 'A' (full), 'S' (reduced) or 'N' (values). */
static int svd_impl(const tsr_tensor *a, bool full, bool uv, tsr_tensor **u, tsr_tensor **s, tsr_tensor **vh)
{
    if (check_matrix(a, "linalg.svd", false) < 0 || check_float(a, "linalg.svd", true, "linalg_svd_cpu") < 0)
        return -1;
    tsr_dtype dt = a->dtype, rdt = tsr_dtype_to_real(dt);
    int nd = a->ndim;
    int64_t m = a->sizes[nd - 2], n = a->sizes[nd - 1], k = m < n ? m : n, nb = batch_count(a, 2);
    int64_t uc = full ? m : k, vr = full ? n : k, sz[TSR_MAX_DIMS];
    char jobz = uv ? (full ? 'A' : 'S') : 'N';
    tsr_tensor *ac = clone_fmat(a), *ut = NULL, *st = NULL, *vt = NULL;
    void *work = NULL, *rwork = NULL;
    int *iwork = NULL;
    int32_t *infos = NULL;
    if (!ac) return -1;
    memcpy(sz, a->sizes, (size_t)nd * sizeof *sz);
    sz[nd - 2] = k;
    if (!(st = tsr_tensor_empty(nd - 1, sz, rdt, a->device))) goto fail;
    if (uv) {
        sz[nd - 2] = m;
        sz[nd - 1] = uc;
        if (!(ut = empty_fmat(nd, sz, dt, a->device))) goto fail;
        sz[nd - 2] = vr;
        sz[nd - 1] = n;
        if (!(vt = empty_fmat(nd, sz, dt, a->device))) goto fail;
    }
    if (!is_meta(a) && tsr_tensor_numel(ac) == 0) {
        if (uv && full) {   /* the identity is a valid SVD of an empty matrix */
            tsr_tensor *ts[2] = {ut, vt};
            for (int j = 0; j < 2; j++) {
                if (tsr_tensor_numel(ts[j]) == 0) continue;
                tsr_tensor *d = NULL;
                if (tsr_zero_(ts[j]) < 0 || !(d = tsr_view_diagonal(ts[j], 0, -2, -1)) ||
                    tsr_fill_(d, tsr_scalar_int(1)) < 0) {
                    tsr_tensor_release(d);
                    goto fail;
                }
                tsr_tensor_release(d);
            }
        }
    } else if (!is_meta(a)) {
        int ldu = m > 1 ? (int)m : 1, ldvt = vr > 1 ? (int)vr : 1;
        char wq[16];
        int64_t mn = k, mx = m > n ? m : n;
        int64_t lrw = !tsr_dtype_is_complex(dt) ? 1 : jobz == 'N' ? 7 * mn
                    : (5 * mn * mn + 5 * mn > 2 * mx * mn + 2 * mn * mn + mn ? 5 * mn * mn + 5 * mn
                                                                              : 2 * mx * mn + 2 * mn * mn + mn);
        if (!(rwork = ws(rdt, lrw)) || !(iwork = tsr_malloc((size_t)(8 * k > 1 ? 8 * k : 1) * sizeof *iwork)))
            goto fail;
        char dummy[16] = {0};
        lp_gesdd(dt, jobz, (int)m, (int)n, mat_at(ac, 0, 0), mat_at(st, 0, 0), uv ? mat_at(ut, 0, 0) : dummy, ldu,
                 uv ? mat_at(vt, 0, 0) : dummy, ldvt, wq, -1, rwork, iwork);
        int lw = wk(dt, wq);
        if (!(work = ws(dt, lw)) || !(infos = tsr_calloc((size_t)nb, sizeof *infos))) goto fail;
        for (int64_t i = 0; i < nb; i++) {
            infos[i] = lp_gesdd(dt, jobz, (int)m, (int)n, mat_at(ac, i, m * n), mat_at(st, i, k),
                                uv ? mat_at(ut, i, m * uc) : dummy, ldu, uv ? mat_at(vt, i, vr * n) : dummy, ldvt,
                                work, lw, rwork, iwork);
            if (poll(i, nb) < 0) goto fail;
        }
        for (int64_t i = 0; i < nb; i++)
            if (infos[i] > 0) {
                char batch[64] = "";
                if (nd > 2) snprintf(batch, sizeof batch, ": (Batch element %ld)", (long)i);
                tsr_error_set(TSR_ERR_LINALG, "linalg.svd%s: The algorithm failed to converge because the input "
                              "matrix is ill-conditioned or has too many repeated singular values (error code: %d).",
                              batch, infos[i]);
                goto fail;
            }
    }
    tsr_free(work);
    tsr_free(rwork);
    tsr_free(iwork);
    tsr_free(infos);
    tsr_tensor_release(ac);
    if (u) *u = ut; else tsr_tensor_release(ut);
    if (vh) *vh = vt; else tsr_tensor_release(vt);
    *s = st;
    return 0;
fail:
    tsr_free(work);
    tsr_free(rwork);
    tsr_free(iwork);
    tsr_free(infos);
    tsr_tensor_release(ac);
    tsr_tensor_release(ut);
    tsr_tensor_release(st);
    tsr_tensor_release(vt);
    return -1;
}

int tsr_linalg_svd(const tsr_tensor *a, bool full_matrices, tsr_tensor **u, tsr_tensor **s, tsr_tensor **vh)
{
    return svd_impl(a, full_matrices, u != NULL, u, s, vh);
}

int tsr_svd_legacy(const tsr_tensor *a, bool some, bool compute_uv, tsr_tensor **u, tsr_tensor **s, tsr_tensor **v)
{
    if (a->ndim < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.svd: input should have at least 2 dimensions, but has %d dimensions "
                      "instead", a->ndim);
        return -1;
    }
    tsr_tensor *vh = NULL;
    if (compute_uv) {
        if (svd_impl(a, !some, true, u, s, &vh) < 0) return -1;
    } else {
        if (svd_impl(a, false, false, NULL, s, NULL) < 0) return -1;
        int64_t sz[TSR_MAX_DIMS], m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1];
        memcpy(sz, a->sizes, (size_t)a->ndim * sizeof *sz);
        sz[a->ndim - 1] = m;
        *u = tsr_zeros(a->ndim, sz, a->dtype, a->device);
        sz[a->ndim - 2] = sz[a->ndim - 1] = n;
        vh = *u ? tsr_zeros(a->ndim, sz, a->dtype, a->device) : NULL;
        if (!vh) {
            tsr_tensor_release(*u);
            tsr_tensor_release(*s);
            return -1;
        }
    }
    *v = tsr_view_mH(vh);
    tsr_tensor_release(vh);
    if (!*v) {
        tsr_tensor_release(*u);
        tsr_tensor_release(*s);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ matrix_power */

tsr_tensor *tsr_linalg_matrix_power(const tsr_tensor *a_, int64_t n)
{
    if (check_matrix(a_, "linalg.matrix_power", true) < 0) return NULL;
    tsr_tensor *a = tsr_tensor_retain((tsr_tensor *)a_), *z = NULL, *res = NULL, *t = NULL;
    if (n == 0) {   /* a.clone().copy_(eye.expand_as(a)) */
        int64_t m = a->sizes[a->ndim - 1];
        tsr_tensor *e = tsr_eye(m, m, a->dtype, a->device), *ee = e ? tsr_view_expand_as(e, a) : NULL;
        res = ee ? tsr_clone(a, TSR_MF_CONTIGUOUS) : NULL;
        if (res && !is_meta(res) && tsr_copy_(res, ee) < 0) { tsr_tensor_release(res); res = NULL; }
        tsr_tensor_release(e);
        tsr_tensor_release(ee);
        tsr_tensor_release(a);
        return res;
    }
    if (n < 0) {
        tsr_tensor *inv = NULL, *info = NULL;
        int rc = tsr_linalg_inv_ex(a, "linalg.inv", &inv, &info);
        tsr_tensor_release(a);
        tsr_tensor_release(info);
        if (rc < 0) return NULL;
        a = inv;
        n = -n;
    }
    if (n == 1) { res = tsr_clone(a, TSR_MF_CONTIGUOUS); goto done; }
    if (n == 2) { res = tsr_matmul(a, a, NULL); goto done; }
    if (n == 3) {
        t = tsr_matmul(a, a, NULL);
        res = t ? tsr_matmul(t, a, NULL) : NULL;
        goto done;
    }
    while (n > 0) {   /* least significant bit first */
        int64_t bit = n % 2;
        n /= 2;
        tsr_tensor *nz = z ? tsr_matmul(z, z, NULL) : tsr_tensor_retain(a);
        if (!nz) goto fail;
        tsr_tensor_release(z);
        z = nz;
        if (bit == 1) {
            tsr_tensor *nr = res ? tsr_matmul(res, z, NULL) : tsr_tensor_retain(z);
            if (!nr) goto fail;
            tsr_tensor_release(res);
            res = nr;
        }
    }
    goto done;
fail:
    tsr_tensor_release(res);
    res = NULL;
done:
    tsr_tensor_release(a);
    tsr_tensor_release(z);
    tsr_tensor_release(t);
    return res;
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
    int rc = is_meta(out) ? 0 : tsr_copy_(out, r);
    tsr_tensor_release(r);
    return rc < 0 ? NULL : tsr_tensor_retain(out);
}
