/* runtime/ops/linalg.c — torch.linalg over LAPACK (LAPACKE over OpenBLAS):
 * each function copies its input into a batch of column-major matrices as
 * 1.13's cloneBatchedColumnMajor does and calls the routine 1.13 calls
 * (getrf/getrs for inv and solve, getrf for det, potrf, geqrf + orgqr,
 * syevd/heevd, gesdd), one matrix at a time with a Ctrl-C poll between them.
 * (eig, pinv, matrix_rank and the products are in linalg_ext.c.) The
 * composite parts (det's product, slogdet's sum of logs) run through the
 * runtime's own reductions, as 1.13 runs them through ATen's. */
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
#include "shape.h"
#include "copy.h"
#include "factory.h"
#include "rearrange.h"
#include "reduce.h"
#include "unary.h"
#include "scatter.h"
#include "../error.h"
#include "../internal.h"
#include "../view.h"
#include "linalg_int.h"
#include "linalg_dev.h"
#include "blas_cuda.h"

/* ------------------------------------------------------------ LAPACK by dtype */


static int lp_getrf(tsr_dtype dt, int m, int n, void *a, int *ipiv)
{
    int ld = m > 1 ? m : 1;
    switch (dt) {
    case TSR_FLOAT32: return LAPACKE_sgetrf_work(CM, m, n, a, ld, ipiv);
    case TSR_FLOAT64: return LAPACKE_dgetrf_work(CM, m, n, a, ld, ipiv);
    case TSR_COMPLEX64: return LAPACKE_cgetrf_work(CM, m, n, a, ld, ipiv);
    default: return LAPACKE_zgetrf_work(CM, m, n, a, ld, ipiv);
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
int tsr__la_wk(tsr_dtype dt, const void *w)
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

bool tsr__la_is_meta(const tsr_tensor *t) { return tsr_device_is_meta(t->device); }
bool tsr__la_lapack_dtype(tsr_dtype d)
{
    return d == TSR_FLOAT32 || d == TSR_FLOAT64 || d == TSR_COMPLEX64 || d == TSR_COMPLEX128;
}

/* squareCheckInputs (LinearAlgebraUtils.h); square false checks only the rank. */
int tsr__la_check_matrix(const tsr_tensor *a, const char *fn, bool square)
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
    if (!tsr__la_lapack_dtype(d)) return tsr__not_implemented(kname, d);
    return 0;
}

/* _linalg_check_errors (BatchLinearAlgebra.cpp): the first nonzero info. */
int tsr_linalg_check_errors(const tsr_tensor *info, const char *api, bool is_matrix)
{
    if (tsr__la_is_meta(info)) return 0;
    if (tsr__la_dev(info)) {   /* the infos come back to the host, as 1.13's info.item() / .cpu() */
        tsr_tensor *h = tsr_to_device(info, TSR_CPU, info->dtype, false);
        int rc = h ? tsr_linalg_check_errors(h, api, is_matrix) : -1;
        tsr_tensor_release(h);
        return rc;
    }
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
        else if (strstr(api, "ldl_factor"))
            tsr_error_set(TSR_ERR_RUNTIME, "false INTERNAL ASSERT FAILED at \"./aten/src/ATen/native/"
                          "BatchLinearAlgebra.cpp\":1491, please report a bug to PyTorch. %s: Unknown error code: %d.",
                          api, v);
        else if (strstr(api, "lstsq"))
            tsr_error_set(TSR_ERR_LINALG, "%s%s: The least squares solution could not be computed because the input "
                          "matrix does not have full rank (error code: %d).", api, batch, v);
        else if (strstr(api, "lu_factor"))
            tsr_error_set(TSR_ERR_RUNTIME, "%s%s: U[%d,%d] is zero and using it on lu_solve would result in a division "
                          "by zero. If you still want to perform the factorization, consider calling linalg.lu(A, "
                          "pivot) or linalg.lu_factor_ex(A, pivot)", api, batch, v, v);
        else
            tsr_error_set(TSR_ERR_LINALG, "%s%s: The algorithm failed to converge because the input matrix is "
                          "ill-conditioned or has too many repeated eigenvalues (error code: %d).", api, batch, v);
        return -1;
    }
    return 0;
}

/* The dispatcher's device check of a CUDA kernel over its tensor arguments
 * (x, y and an optional z with their names), before anything reads them. */
static int dev_check(const char *method, const tsr_tensor *x, const char *xn, const tsr_tensor *y, const char *yn,
                     const tsr_tensor *z, const char *zn)
{
    const tsr_tensor *ts[3] = {x, y, z};
    const char *const names[3] = {xn, yn, zn};
    return tsr__blas_device_check(method, z ? 3 : 2, ts, names);
}

/* ------------------------------------------------------------ batches */

/* batched_matrix_contiguous_strides(sizes, f_contig=true): a C-contiguous
 * batch of column-major matrices. */
tsr_tensor *tsr__la_empty_fmat(int nd, const int64_t *sizes, tsr_dtype dt, tsr_device dev)
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
tsr_tensor *tsr__la_clone_fmat(const tsr_tensor *a)
{
    tsr_tensor *r = tsr__la_empty_fmat(a->ndim, a->sizes, a->dtype, a->device);
    if (r && !tsr__la_is_meta(a) && tsr_copy_(r, a) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

int64_t tsr__la_batch_count(const tsr_tensor *a, int keep)
{
    int64_t b = 1;
    for (int d = 0; d < a->ndim - keep; d++) b *= a->sizes[d];
    return b;
}

/* The i-th matrix of an empty_fmat tensor of m x n matrices. */
void *tsr__la_mat_at(const tsr_tensor *t, int64_t i, int64_t mn)
{
    char *p = tsr_tensor_ptr(t, NULL);   /* NULL for an empty tensor: no offset */
    return p ? p + i * mn * tsr_dtype_itemsize(t->dtype) : NULL;
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

int tsr__la_poll(int64_t i, int64_t n) { return i + 1 < n ? tsr_check_interrupt() : 0; }

/* getrf on every matrix of lu (an empty_fmat m x n batch) into piv (k =
 * min(m, n) a matrix) and info. */
static int lu_factor(tsr_tensor *lu, tsr_tensor *piv, tsr_tensor *info)
{
    if (tsr__la_is_meta(lu)) return 0;
    int64_t m = lu->sizes[lu->ndim - 2], n = lu->sizes[lu->ndim - 1], k = m < n ? m : n, nb = tsr__la_batch_count(lu, 2);
    if (k == 0) return 0;
    if (tsr__la_dev(lu)) return tsr__la_dev_getrf(lu, piv, info);
    int32_t *pv = tsr_tensor_ptr(piv, NULL), *in = tsr_tensor_ptr(info, NULL);
    for (int64_t i = 0; i < nb; i++) {
        in[i] = lp_getrf(lu->dtype, (int)m, (int)n, tsr__la_mat_at(lu, i, m * n), pv + i * k);
        if (tsr__la_poll(i, nb) < 0) return -1;
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
    if (!(lu = tsr__la_clone_fmat(at)) || !(piv = batch_int(a, 1, 0, 0)) || !(info = batch_int(a, 2, 0, 0))) goto fail;
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
    x = tsr__la_clone_fmat(be);
    tsr_tensor_release(be);
    if (!x) goto fail;
    /* LU and pivots broadcast to the same batch */
    bsz[bnd + 1] = n;
    if (!(lue = tsr_view_expand(lu, bnd + 2, bsz))) goto fail;
    tsr_tensor *lc = tsr__la_clone_fmat(lue);
    tsr_tensor_release(lue);
    lue = lc;
    if (!lue) goto fail;
    tsr_tensor *pv = tsr_view_expand(piv, bnd + 1, bsz);
    if (!pv) goto fail;
    pe = tsr_contiguous(pv, TSR_MF_CONTIGUOUS);
    tsr_tensor_release(pv);
    if (!pe) goto fail;
    if (tsr__la_dev(x) && tsr_tensor_numel(x) > 0) {
        if (tsr__la_dev_getrs(x, lue, pe, use_t ? 'T' : 'N') < 0) goto fail;
    } else if (!tsr__la_is_meta(x) && tsr_tensor_numel(x) > 0) {
        int64_t nb = tsr__la_batch_count(x, 2);
        const int32_t *pp = tsr_tensor_ptr(pe, NULL);
        for (int64_t i = 0; i < nb; i++) {
            lp_getrs(x->dtype, use_t ? 'T' : 'N', (int)n, (int)k, tsr__la_mat_at(lue, i, n * n), pp + i * n,
                     tsr__la_mat_at(x, i, n * k));
            if (tsr__la_poll(i, nb) < 0) goto fail;
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

static int solve_right(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **res, tsr_tensor **info_out);

int tsr_linalg_solve_ex(const tsr_tensor *a, const tsr_tensor *b, bool left, const char *check, tsr_tensor **result,
                        tsr_tensor **info)
{
    if (dev_check("wrapper__linalg_solve_ex", a, "A", b, "B", NULL, NULL) < 0) return -1;
    if (tsr__la_check_matrix(a, "linalg.solve", true) < 0 || check_float(a, "linalg.solve", true, "lu_cpu") < 0)
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
    if ((left ? solve_impl(a, b, NULL, result, info) : solve_right(a, b, result, info)) < 0) return -1;
    if (check && tsr_linalg_check_errors(*info, check, a->ndim == 2) < 0) {
        tsr_tensor_release(*result);
        tsr_tensor_release(*info);
        return -1;
    }
    return 0;
}

int tsr_linalg_inv_ex(const tsr_tensor *a, const char *check, tsr_tensor **inverse, tsr_tensor **info)
{
    if (tsr__la_check_matrix(a, "linalg.inv", true) < 0 || check_float(a, "linalg.inv", false, "linalg_inv") < 0)
        return -1;
    tsr_tensor *eye = tsr_zeros(a->ndim, a->sizes, a->dtype, a->device), *d = NULL;
    if (!eye) return -1;
    if (!tsr__la_is_meta(a)) {
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

/* lu_det_P on the device: (arange(1, n + 1) != pivots).sum(-1, dtype=long)
 * .fmod_(2).mul_(-2).add_(1), the pivots' permutation sign. NEW reference. */
static tsr_tensor *dev_pivot_sign(const tsr_tensor *piv, int64_t n)
{
    tsr_tensor *ar = tsr_arange(tsr_scalar_int(1), tsr_scalar_int(n + 1), tsr_scalar_int(1), TSR_INT32, piv->device);
    tsr_tensor *ne = NULL, *cnt = NULL, *r = NULL;
    tsr_dims dims = {.n = 1, .d = {-1}};
    if (ar) {
        tsr_operand x = tsr_operand_tensor(ar), y = tsr_operand_tensor(piv);
        ne = tsr_compare(TSR_CMP_NE, &x, &y, NULL);
    }
    if (ne && (cnt = tsr_sum(ne, &dims, false, TSR_INT64, NULL))) {
        tsr_operand two = tsr_operand_scalar(tsr_scalar_int(2)), m2 = tsr_operand_scalar(tsr_scalar_int(-2)),
                    one = tsr_operand_scalar(tsr_scalar_int(1));
        tsr_tensor *a = tsr_binary_(TSR_BINOP_FMOD, cnt, &two, NULL);
        tsr_tensor *b = a ? tsr_binary_(TSR_BINOP_MUL, cnt, &m2, NULL) : NULL;
        tsr_tensor *c = b ? tsr_binary_(TSR_BINOP_ADD, cnt, &one, NULL) : NULL;
        if (c) r = tsr_tensor_retain(cnt);
        tsr_tensor_release(a);
        tsr_tensor_release(b);
        tsr_tensor_release(c);
    }
    tsr_tensor_release(ar);
    tsr_tensor_release(ne);
    tsr_tensor_release(cnt);
    return r;
}

/* LU of A for det and slogdet: of A^H (= A^T) when A is contiguous and real;
 * *sign_p: lu_det_P(pivots), an int32 tensor of +-1. */
static tsr_tensor *det_lu(const tsr_tensor *a, tsr_tensor **sign_p)
{
    tsr_tensor *src = NULL, *lu = NULL, *piv = NULL, *info = NULL, *p = NULL;
    int64_t n = a->sizes[a->ndim - 1];
    if (tsr_tensor_is_contiguous(a) && !tsr_dtype_is_complex(a->dtype)) src = tsr_view_mT(a);
    else src = tsr_tensor_retain((tsr_tensor *)a);
    if (!src || !(lu = tsr__la_clone_fmat(src)) || !(piv = batch_int(a, 1, 0, 0)) || !(info = batch_int(a, 2, 0, 0)))
        goto fail;
    if (lu_factor(lu, piv, info) < 0) goto fail;
    if (tsr__la_dev(a)) {
        if (!(p = dev_pivot_sign(piv, n))) goto fail;
    } else if (!(p = batch_int(a, 2, 0, 0))) {
        goto fail;
    } else if (!tsr__la_is_meta(a)) {   /* (arange(1, n+1) != pivots).sum(-1).fmod(2) * -2 + 1 */
        int64_t nb = tsr__la_batch_count(a, 2);
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

tsr_tensor *tsr__la_mul2(const tsr_tensor *x, const tsr_tensor *y)
{
    tsr_operand a = tsr_operand_tensor(x), b = tsr_operand_tensor(y);
    return tsr_binary(TSR_BINOP_MUL, &a, &b, NULL, NULL);
}

tsr_tensor *tsr_linalg_det(const tsr_tensor *a)
{
    if (tsr__la_check_matrix(a, "linalg.det", true) < 0 || check_float(a, "linalg.det", true, "lu_cpu") < 0) return NULL;
    tsr_tensor *p = NULL, *lu = det_lu(a, &p), *d = NULL, *pr = NULL, *r = NULL;
    int64_t last = -1;
    if (lu && (d = tsr_view_diagonal(lu, 0, -2, -1)) && (pr = tsr_prod(d, &last, false, TSR_DTYPE_UNDEFINED, NULL)))
        r = tsr__la_mul2(p, pr);
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
    if (!(*sign = tsr__la_mul2(sp, p))) goto fail;
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
    if (tsr__la_check_matrix(a, "linalg.slogdet", true) < 0 || check_float(a, "linalg.slogdet", false, "lu_cpu") < 0)
        return -1;
    return slogdet_impl(a, sign, logabsdet);
}

tsr_tensor *tsr_logdet(const tsr_tensor *a)
{
    if (tsr__la_check_matrix(a, "logdet", true) < 0 || check_float(a, "logdet", false, "lu_cpu") < 0) return NULL;
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
    if (legacy && tsr__la_is_meta(a)) return tsr_meta_refused("cholesky");   /* no meta kernel in 1.13 */
    if (tsr__la_check_matrix(a, fn, true) < 0) return -1;
    if (legacy ? (!tsr__la_lapack_dtype(a->dtype) && tsr__not_implemented("cholesky_cpu", a->dtype) < 0)
               : check_float(a, fn, true, "cholesky_cpu") < 0)
        return -1;
    tsr_tensor *r = tsr__la_clone_fmat(a), *in = r ? batch_int(a, 2, 0, 0) : NULL;
    if (!in) goto fail;
    if (!tsr__la_is_meta(a)) {
        int64_t n = a->sizes[a->ndim - 1], nb = tsr__la_batch_count(a, 2);
        int32_t *ip = tsr__la_dev(a) ? NULL : tsr_tensor_ptr(in, NULL);
        if (!ip && n > 0 && tsr__la_dev_potrf(r, upper ? 'U' : 'L', in) < 0) goto fail;
        for (int64_t i = 0; ip && n > 0 && i < nb; i++) {
            ip[i] = lp_potrf(a->dtype, upper ? 'U' : 'L', (int)n, tsr__la_mat_at(r, i, n * n));
            if (tsr__la_poll(i, nb) < 0) goto fail;
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
void *tsr__la_ws(tsr_dtype dt, int64_t count)
{
    return tsr_malloc((size_t)(count > 1 ? count : 1) * (size_t)tsr_dtype_itemsize(dt));
}

/* The batch loop of the LAPACK drivers: run(ctx, -1, work, -1) is the
 * workspace query (the size into work; a driver with more workspaces sizes
 * and allocates them there, < 0 on failure), run(ctx, i, work, lwork) the
 * call on matrix i, its info into infos[i] (an int32 tensor of nb elements,
 * or NULL). The Ctrl-C poll runs between matrices. 0, or -1. */
typedef int (*la_run_fn)(void *ctx, int64_t i, void *work, int lwork);

static int la_batch(tsr_dtype dt, int64_t nb, la_run_fn run, void *ctx, tsr_tensor *infos)
{
    char wq[16];
    if (nb <= 0) return 0;
    if (run(ctx, -1, wq, -1) < 0) return -1;
    int lw = tsr__la_wk(dt, wq);
    void *work = tsr__la_ws(dt, lw);
    int32_t *ip = infos ? tsr_tensor_ptr(infos, NULL) : NULL;
    int rc = work ? 0 : -1;
    for (int64_t i = 0; rc == 0 && i < nb; i++) {
        int info = run(ctx, i, work, lw);
        if (ip) ip[i] = info;
        rc = tsr__la_poll(i, nb);
    }
    tsr_free(work);
    return rc;
}

/* geqrf / orgqr over a batch of m x n matrices a (column-major) with tau
 * (k a matrix); orgqr when q */
typedef struct { tsr_dtype dt; bool q; int64_t m, n, k; tsr_tensor *a, *tau; } qr_ctx;

static int qr_run(void *c, int64_t i, void *work, int lwork)
{
    qr_ctx *x = c;
    int64_t j = i < 0 ? 0 : i, mn = i < 0 ? 0 : x->m * x->n, k = i < 0 ? 0 : x->k;
    void *a = tsr__la_mat_at(x->a, j, mn), *t = tsr__la_mat_at(x->tau, j, k);
    return x->q ? lp_orgqr(x->dt, (int)x->m, (int)x->n, (int)x->k, a, t, work, lwork)
                : lp_geqrf(x->dt, (int)x->m, (int)x->n, a, t, work, lwork);
}

int tsr_linalg_qr(const tsr_tensor *a, const char *mode, tsr_tensor **q, tsr_tensor **r)
{
    bool reduced = !strcmp(mode, "reduced"), complete = !strcmp(mode, "complete"), ronly = !strcmp(mode, "r");
    if (!reduced && !complete && !ronly) {
        tsr_error_set(TSR_ERR_RUNTIME, "qr received unrecognized mode '%s' but expected one of 'reduced' (default), "
                      "'r', or 'complete'", mode);
        return -1;
    }
    if (tsr__la_check_matrix(a, "linalg.qr", false) < 0 || check_float(a, "linalg.qr", true, "geqrf_cpu") < 0) return -1;
    int nd = a->ndim;
    int64_t m = a->sizes[nd - 2], n = a->sizes[nd - 1], k = m < n ? m : n, nb = tsr__la_batch_count(a, 2);
    int64_t qc = complete ? m : k, rr = complete ? m : k, sz[TSR_MAX_DIMS];
    tsr_dtype dt = a->dtype;
    tsr_tensor *qr = tsr__la_clone_fmat(a), *qt = NULL, *rt = NULL, *tau = NULL;
    if (!qr) return -1;
    memcpy(sz, a->sizes, (size_t)nd * sizeof *sz);
    sz[nd - 2] = rr;
    if (!(rt = tsr__la_empty_fmat(nd, sz, dt, a->device))) goto fail;
    if (ronly) {
        int64_t z = 0;
        qt = tsr_tensor_empty(1, &z, dt, a->device);
    } else {
        sz[nd - 2] = m;
        sz[nd - 1] = qc;
        qt = tsr__la_empty_fmat(nd, sz, dt, a->device);
    }
    if (!qt) goto fail;
    sz[nd - 2] = k;
    if (!(tau = tsr_tensor_empty(nd - 1, sz, dt, a->device))) goto fail;
    if (tsr__la_dev(a) && tsr_tensor_numel(qr) > 0) {
        if (tsr__la_dev_geqrf(qr, tau) < 0) goto fail;
    } else if (!tsr__la_is_meta(a) && tsr_tensor_numel(qr) > 0) {
        qr_ctx c = {dt, false, m, n, k, qr, tau};
        if (la_batch(dt, nb, qr_run, &c, NULL) < 0) goto fail;
    }
    /* R: the first rr rows of QR, upper triangular */
    if (!tsr__la_is_meta(a)) {
        tsr_tensor *top = tsr_view_narrow(qr, nd - 2, 0, rr < m ? rr : m);
        int bad = !top;
        if (!bad && rr <= m) bad = tsr_copy_(rt, top) < 0;
        tsr_tensor_release(top);
        if (bad || tsr_tril_(rt, 0, true) < 0) goto fail;
    }
    if (!ronly && !tsr__la_is_meta(a) && tsr_tensor_numel(qt) > 0) {
        /* Q: the reflectors (the first min(qc, n) columns), then orgqr */
        int64_t c = qc < n ? qc : n;
        tsr_tensor *src = tsr_view_narrow(qr, nd - 1, 0, c), *dst = src ? tsr_view_narrow(qt, nd - 1, 0, c) : NULL;
        int bad = !dst || tsr_copy_(dst, src) < 0;
        tsr_tensor_release(src);
        tsr_tensor_release(dst);
        if (bad) goto fail;
        qr_ctx oc = {dt, true, m, qc, k, qt, tau};
        if (tsr__la_dev(a) ? tsr__la_dev_orgqr(qt, tau, k) < 0 : la_batch(dt, nb, qr_run, &oc, NULL) < 0) goto fail;
    }
    tsr_tensor_release(qr);
    tsr_tensor_release(tau);
    *q = qt;
    *r = rt;
    return 0;
fail:
    tsr_tensor_release(qr);
    tsr_tensor_release(qt);
    tsr_tensor_release(rt);
    tsr_tensor_release(tau);
    return -1;
}

/* ------------------------------------------------------------ eigh */

/* syevd / heevd over a batch of n x n matrices (vectors in place, values w) */
typedef struct {
    tsr_dtype dt;
    char jobz, uplo;
    int64_t n;
    tsr_tensor *a, *w;
    void *rwork;
    int lrwork;
    int *iwork;
    int liwork;
} syevd_ctx;

static int syevd_run(void *c, int64_t i, void *work, int lwork)
{
    syevd_ctx *x = c;
    if (i >= 0)
        return lp_syevd(x->dt, x->jobz, x->uplo, (int)x->n, tsr__la_mat_at(x->a, i, x->n * x->n),
                        tsr__la_mat_at(x->w, i, x->n), work, lwork, x->rwork, x->lrwork, x->iwork, x->liwork);
    char rq[16];
    int iq = 0;
    tsr_dtype rdt = tsr_dtype_to_real(x->dt);
    lp_syevd(x->dt, x->jobz, x->uplo, (int)x->n, tsr__la_mat_at(x->a, 0, 0), tsr__la_mat_at(x->w, 0, 0), work, -1, rq,
             -1, &iq, -1);
    x->lrwork = tsr_dtype_is_complex(x->dt) ? tsr__la_wk(rdt, rq) : 1;
    x->liwork = iq > 1 ? iq : 1;
    if (!(x->rwork = tsr__la_ws(rdt, x->lrwork)) || !(x->iwork = tsr_malloc((size_t)x->liwork * sizeof *x->iwork)))
        return -1;
    return 0;
}

int tsr_linalg_eigh(const tsr_tensor *a, const char *uplo, tsr_tensor **values, tsr_tensor **vectors)
{
    if (tsr__la_check_matrix(a, "linalg.eigh", true) < 0) return -1;
    if (strcmp(uplo, "L") && strcmp(uplo, "U") && strcmp(uplo, "l") && strcmp(uplo, "u")) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected UPLO argument to be 'L' or 'U', but got %s", uplo);
        return -1;
    }
    if (!tsr__la_lapack_dtype(a->dtype)) return tsr__not_implemented("linalg_eigh_cpu", a->dtype);
    tsr_dtype dt = a->dtype, rdt = tsr_dtype_to_real(dt);
    int nd = a->ndim;
    int64_t n = a->sizes[nd - 1], nb = tsr__la_batch_count(a, 2);
    bool v = vectors != NULL;
    char jobz = v ? 'V' : 'N', ul = (uplo[0] == 'U' || uplo[0] == 'u') ? 'U' : 'L';
    tsr_tensor *vec = tsr__la_clone_fmat(a), *w = vec ? tsr_tensor_empty(nd - 1, a->sizes, rdt, a->device) : NULL;
    tsr_tensor *infos = w ? batch_int(a, 2, 0, 0) : NULL;
    syevd_ctx c = {dt, jobz, ul, n, vec, w, NULL, 1, NULL, 1};
    if (!infos) goto fail;
    if (!tsr__la_is_meta(a) && n > 0 &&
        ((tsr__la_dev(a) ? tsr__la_dev_syevd(vec, w, jobz, ul, infos) : la_batch(dt, nb, syevd_run, &c, infos)) < 0 ||
                                         tsr_linalg_check_errors(infos, "linalg.eigh", nd == 2) < 0))
        goto fail;
    tsr_free(c.rwork);
    tsr_free(c.iwork);
    tsr_tensor_release(infos);
    *values = w;
    if (v) *vectors = vec;
    else tsr_tensor_release(vec);
    return 0;
fail:
    tsr_free(c.rwork);
    tsr_free(c.iwork);
    tsr_tensor_release(infos);
    tsr_tensor_release(vec);
    tsr_tensor_release(w);
    return -1;
}

/* ------------------------------------------------------------ svd */

/* gesdd over a batch of m x n matrices a into s, u (m x uc), vt (vr x n);
 * without vectors (jobz 'N') u and vt are a dummy */
typedef struct {
    tsr_dtype dt;
    char jobz;
    int64_t m, n, k, uc, vr;
    int ldu, ldvt;
    tsr_tensor *a, *s, *u, *vt;
    void *rwork;
    int *iwork;
    char dummy[16];
} gesdd_ctx;

static int gesdd_run(void *c, int64_t i, void *work, int lwork)
{
    gesdd_ctx *x = c;
    int64_t j = i < 0 ? 0 : i, q = i < 0 ? 0 : 1;
    bool uv = x->jobz != 'N';
    return lp_gesdd(x->dt, x->jobz, (int)x->m, (int)x->n, tsr__la_mat_at(x->a, j, q * x->m * x->n),
                    tsr__la_mat_at(x->s, j, q * x->k), uv ? tsr__la_mat_at(x->u, j, q * x->m * x->uc) : x->dummy,
                    x->ldu, uv ? tsr__la_mat_at(x->vt, j, q * x->vr * x->n) : x->dummy, x->ldvt, work, lwork,
                    x->rwork, x->iwork);
}

/* _linalg_svd: gesdd with jobz 'A' (full), 'S' (reduced) or 'N' (values). */
static int svd_impl(const tsr_tensor *a, bool full, bool uv, tsr_tensor **u, tsr_tensor **s, tsr_tensor **vh)
{
    if (tsr__la_check_matrix(a, "linalg.svd", false) < 0 || check_float(a, "linalg.svd", true, "linalg_svd_cpu") < 0)
        return -1;
    tsr_dtype dt = a->dtype, rdt = tsr_dtype_to_real(dt);
    int nd = a->ndim;
    int64_t m = a->sizes[nd - 2], n = a->sizes[nd - 1], k = m < n ? m : n, nb = tsr__la_batch_count(a, 2);
    int64_t uc = full ? m : k, vr = full ? n : k, sz[TSR_MAX_DIMS];
    char jobz = uv ? (full ? 'A' : 'S') : 'N';
    tsr_tensor *ac = tsr__la_clone_fmat(a), *ut = NULL, *st = NULL, *vt = NULL, *infos = NULL;
    void *rwork = NULL;
    int *iwork = NULL;
    if (!ac) return -1;
    memcpy(sz, a->sizes, (size_t)nd * sizeof *sz);
    sz[nd - 2] = k;
    if (!(st = tsr_tensor_empty(nd - 1, sz, rdt, a->device))) goto fail;
    if (uv) {
        sz[nd - 2] = m;
        sz[nd - 1] = uc;
        if (!(ut = tsr__la_empty_fmat(nd, sz, dt, a->device))) goto fail;
        sz[nd - 2] = vr;
        sz[nd - 1] = n;
        if (!(vt = tsr__la_empty_fmat(nd, sz, dt, a->device))) goto fail;
    }
    if (!tsr__la_is_meta(a) && tsr_tensor_numel(ac) == 0) {
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
    } else if (tsr__la_dev(a)) {
        /* cuSOLVER's gesvdj gives V (column-major): Vh = V^H, row-major as
         * 1.13's _linalg_svd lays out Vh for cuSOLVER */
        tsr_tensor *v = NULL;
        if (uv) {
            sz[nd - 2] = n;
            sz[nd - 1] = vr;
            if (!(v = tsr__la_empty_fmat(nd, sz, dt, a->device))) goto fail;
        }
        int bad = !(infos = batch_int(a, 2, 0, 0)) || tsr__la_dev_gesvdj(ac, st, ut, v, full, infos) < 0 ||
                  tsr_linalg_check_errors(infos, "linalg.svd", nd == 2) < 0;
        if (!bad && uv) {   /* a tensor of its own, not a view of V (1.13 copies V^H into Vh) */
            tsr_tensor *vh = tsr__la_adjoint_copy(v);
            tsr_tensor_release(vt);
            vt = vh ? tsr_clone(vh, TSR_MF_CONTIGUOUS) : NULL;
            bad = !vt;
            tsr_tensor_release(vh);
        }
        tsr_tensor_release(v);
        if (bad) goto fail;
    } else if (!tsr__la_is_meta(a)) {
        int ldu = m > 1 ? (int)m : 1, ldvt = vr > 1 ? (int)vr : 1;
        int64_t mn = k, mx = m > n ? m : n;
        int64_t lrw = !tsr_dtype_is_complex(dt) ? 1 : jobz == 'N' ? 7 * mn
                    : (5 * mn * mn + 5 * mn > 2 * mx * mn + 2 * mn * mn + mn ? 5 * mn * mn + 5 * mn
                                                                              : 2 * mx * mn + 2 * mn * mn + mn);
        if (!(rwork = tsr__la_ws(rdt, lrw)) || !(iwork = tsr_malloc((size_t)(8 * k > 1 ? 8 * k : 1) * sizeof *iwork)))
            goto fail;
        gesdd_ctx c = {dt, jobz, m, n, k, uc, vr, ldu, ldvt, ac, st, ut, vt, rwork, iwork, {0}};
        if (!(infos = batch_int(a, 2, 0, 0)) || la_batch(dt, nb, gesdd_run, &c, infos) < 0 ||
            tsr_linalg_check_errors(infos, "linalg.svd", nd == 2) < 0)
            goto fail;
    }
    tsr_free(rwork);
    tsr_free(iwork);
    tsr_tensor_release(infos);
    tsr_tensor_release(ac);
    if (u) *u = ut; else tsr_tensor_release(ut);
    if (vh) *vh = vt; else tsr_tensor_release(vt);
    *s = st;
    return 0;
fail:
    tsr_free(rwork);
    tsr_free(iwork);
    tsr_tensor_release(infos);
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
    *v = tsr__la_adjoint_copy(vh);   /* V = Vh^H (a copy for complex: tsr has no conjugate views) */
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
    if (tsr__la_check_matrix(a_, "linalg.matrix_power", true) < 0) return NULL;
    tsr_tensor *a = tsr_tensor_retain((tsr_tensor *)a_), *z = NULL, *res = NULL, *t = NULL;
    if (n == 0) {   /* a.clone().copy_(eye.expand_as(a)) */
        int64_t m = a->sizes[a->ndim - 1];
        tsr_tensor *e = tsr_eye(m, m, a->dtype, a->device), *ee = e ? tsr_view_expand_as(e, a) : NULL;
        res = ee ? tsr_clone(a, TSR_MF_CONTIGUOUS) : NULL;
        if (res && !tsr__la_is_meta(res) && tsr_copy_(res, ee) < 0) { tsr_tensor_release(res); res = NULL; }
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

/* ------------------------------------------------------------ LU */

static int lp_getrs_batch(tsr_tensor *x, const tsr_tensor *lu, const tsr_tensor *piv, char trans)
{
    if (tsr__la_is_meta(x) || tsr_tensor_numel(x) == 0) return 0;
    if (tsr__la_dev(x)) return tsr__la_dev_getrs(x, lu, piv, trans);
    int64_t n = x->sizes[x->ndim - 2], k = x->sizes[x->ndim - 1], nb = tsr__la_batch_count(x, 2);
    const int32_t *pp = tsr_tensor_ptr(piv, NULL);
    for (int64_t i = 0; i < nb; i++) {
        lp_getrs(x->dtype, trans, (int)n, (int)k, tsr__la_mat_at(lu, i, n * n), pp + i * n, tsr__la_mat_at(x, i, n * k));
        if (tsr__la_poll(i, nb) < 0) return -1;
    }
    return 0;
}

static int dims_error(const tsr_tensor *a, const char *fn)
{
    char buf[256];
    tsr_error_set(TSR_ERR_RUNTIME, "%s: Expected tensor with 2 or more dimensions. Got size: %s instead", fn,
                  tsr__fmt_list(buf, sizeof buf, a->ndim, a->sizes));
    return -1;
}

int tsr_linalg_lu_factor_ex(const tsr_tensor *a, bool pivot, const char *check, const char *fn, tsr_tensor **lu,
                            tsr_tensor **piv, tsr_tensor **info)
{
    if (a->ndim < 2) return dims_error(a, fn);
    if (!pivot && tsr__la_dev(a)) {   /* 1.13's CUDA has it (getrf without pivots); tsr's backend not yet */
        tsr_error_no_kernel("aten::linalg_lu_factor_ex", tsr_device_backend_name(a->device.type), "CPU, Meta");
        return -1;
    }
    if (!pivot) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.lu_factor: LU without pivoting is not implemented on the CPU");
        return -1;
    }
    if (!tsr__la_lapack_dtype(a->dtype)) return tsr__not_implemented("lu_cpu", a->dtype);
    int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1];
    tsr_tensor *l = tsr__la_clone_fmat(a), *p = l ? batch_int(a, 2, 1, m < n ? m : n) : NULL,
               *in = p ? batch_int(a, 2, 0, 0) : NULL;
    if (!in || lu_factor(l, p, in) < 0 || (check && tsr_linalg_check_errors(in, check, a->ndim == 2) < 0)) {
        tsr_tensor_release(l);
        tsr_tensor_release(p);
        tsr_tensor_release(in);
        return -1;
    }
    *lu = l;
    *piv = p;
    *info = in;
    return 0;
}

/* One-hot rows of the permutation the pivots describe (unpack_pivots:
 * swap perm[i] and perm[piv[i] - 1] in order), P[perm[j], j] = 1. */
/* pivots_to_p on the device, composed as 1.13's CUDA unpack_pivots kernel
 * computes it: the permutation starts as arange(m) per matrix, pivot i
 * swaps perm[i] and perm[piv[i] - 1] (a gather and two scatters of one
 * column, in order), then P[perm[j], j] = 1 by a scatter along dim -2. */
static int dev_pivots_to_p(const tsr_tensor *piv, tsr_tensor *p)
{
    int nd = p->ndim;
    int64_t m = p->sizes[nd - 1], k = piv->sizes[piv->ndim - 1], sz[TSR_MAX_DIMS];
    memcpy(sz, p->sizes, (size_t)(nd - 1) * sizeof *sz);
    sz[nd - 2] = m;   /* the batch dims, then m */
    tsr_tensor *ar = tsr_arange(tsr_scalar_int(0), tsr_scalar_int(m), tsr_scalar_int(1), TSR_INT64, p->device);
    tsr_tensor *ae = ar ? tsr_view_expand(ar, nd - 1, sz) : NULL;
    tsr_tensor *perm = ae ? tsr_contiguous(ae, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *pl = perm ? tsr_to_dtype(piv, TSR_INT64, false) : NULL, *idx = NULL;
    tsr_operand one = tsr_operand_scalar(tsr_scalar_int(1));
    int rc = -1;
    if (!pl) goto done;
    {
        tsr_operand x = tsr_operand_tensor(pl);
        if (!(idx = tsr_binary(TSR_BINOP_SUB, &x, &one, NULL, NULL))) goto done;
    }
    for (int64_t i = 0; i < k; i++) {
        tsr_tensor *t = tsr_view_narrow(idx, nd - 2, i, 1), *col = t ? tsr_view_narrow(perm, nd - 2, i, 1) : NULL;
        tsr_tensor *a = col ? tsr_clone(col, TSR_MF_CONTIGUOUS) : NULL, *b = a ? tsr_gather(perm, -1, t) : NULL;
        int bad = !b || tsr_copy_(col, b) < 0 || tsr_scatter_(perm, -1, t, a, NULL, TSR_SCATTER_NONE) < 0;
        tsr_tensor_release(t);
        tsr_tensor_release(col);
        tsr_tensor_release(a);
        tsr_tensor_release(b);
        if (bad || tsr__la_poll(i, k) < 0) goto done;
    }
    tsr_tensor *pu = tsr_view_unsqueeze(perm, -2);
    tsr_scalar v = tsr_scalar_int(1);
    rc = pu ? tsr_scatter_(p, -2, pu, NULL, &v, TSR_SCATTER_NONE) : -1;
    tsr_tensor_release(pu);
done:
    tsr_tensor_release(ar);
    tsr_tensor_release(ae);
    tsr_tensor_release(perm);
    tsr_tensor_release(pl);
    tsr_tensor_release(idx);
    return rc;
}

static int pivots_to_p(const tsr_tensor *piv, tsr_tensor *p)
{
    if (tsr__la_is_meta(p)) return 0;
    if (tsr__la_dev(p)) return dev_pivots_to_p(piv, p);
    int64_t m = p->sizes[p->ndim - 1], k = piv->sizes[piv->ndim - 1], nb = tsr__la_batch_count(p, 2);
    int64_t *perm = tsr_malloc((size_t)(m > 0 ? m : 1) * sizeof *perm);
    if (!perm) return -1;
    tsr_tensor *pc = tsr_contiguous(p, TSR_MF_CONTIGUOUS);   /* p is new and contiguous: pc is p */
    if (!pc) { tsr_free(perm); return -1; }
    const int32_t *pv = tsr_tensor_ptr(piv, NULL);
    int64_t isz = tsr_dtype_itemsize(p->dtype);
    char *base = tsr_tensor_ptr(pc, NULL);
    tsr_scalar one = tsr_scalar_int(1);
    for (int64_t b = 0; b < nb; b++) {
        for (int64_t j = 0; j < m; j++) perm[j] = j;
        for (int64_t i = 0; i < k; i++) {
            int64_t t = pv[b * k + i] - 1;
            if (t < 0 || t >= m) continue;
            int64_t x = perm[i]; perm[i] = perm[t]; perm[t] = x;
        }
        for (int64_t j = 0; j < m; j++) tsr_scalar_store(p->dtype, base + ((b * m + perm[j]) * m + j) * isz, one);
    }
    tsr_tensor_release(pc);
    tsr_free(perm);
    return 0;
}

int tsr_lu_unpack(const tsr_tensor *lu, const tsr_tensor *piv, bool unpack_data, bool unpack_pivots, tsr_tensor **p,
                  tsr_tensor **l, tsr_tensor **u)
{
    if (dev_check("wrapper_lu_unpack", lu, "LU_data", piv, "LU_pivots", NULL, NULL) < 0) return -1;
    if (lu->ndim < 2) return dims_error(lu, "torch.lu_unpack");
    if (piv->dtype != TSR_INT32 || !tsr_tensor_is_contiguous(piv)) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of "
                      "torch.int32 dtype.");
        return -1;
    }
    int nd = lu->ndim;
    int64_t m = lu->sizes[nd - 2], n = lu->sizes[nd - 1], k = m < n ? m : n, sz[TSR_MAX_DIMS], z = 0;
    tsr_tensor *pt = NULL, *lt = NULL, *ut = NULL, *v = NULL, *d = NULL;
    memcpy(sz, lu->sizes, (size_t)nd * sizeof *sz);
    if (unpack_data) {
        if (!(v = tsr_view_narrow(lu, nd - 1, 0, k)) || !(lt = tsr_tril(v, -1, false, NULL))) goto fail;
        if (!tsr__la_is_meta(lu) && (!(d = tsr_view_diagonal(lt, 0, -2, -1)) || tsr_fill_(d, tsr_scalar_int(1)) < 0)) goto fail;
        tsr_tensor_release(v);
        if (!(v = tsr_view_narrow(lu, nd - 2, 0, k)) || !(ut = tsr_tril(v, 0, true, NULL))) goto fail;
    } else if (!(lt = tsr_tensor_empty(1, &z, lu->dtype, lu->device)) ||
               !(ut = tsr_tensor_empty(1, &z, lu->dtype, lu->device))) goto fail;
    if (unpack_pivots) {
        sz[nd - 1] = m;
        if (!(pt = tsr_zeros(nd, sz, lu->dtype, lu->device)) || pivots_to_p(piv, pt) < 0) goto fail;
    } else if (!(pt = tsr_tensor_empty(1, &z, lu->dtype, lu->device))) goto fail;
    tsr_tensor_release(v);
    tsr_tensor_release(d);
    *p = pt;
    *l = lt;
    *u = ut;
    return 0;
fail:
    tsr_tensor_release(v);
    tsr_tensor_release(d);
    tsr_tensor_release(pt);
    tsr_tensor_release(lt);
    tsr_tensor_release(ut);
    return -1;
}

int tsr_linalg_lu(const tsr_tensor *a, bool pivot, tsr_tensor **p, tsr_tensor **l, tsr_tensor **u)
{
    tsr_tensor *lu, *piv, *info;
    if (a->ndim < 2) return dims_error(a, "linalg.lu");
    if (tsr_linalg_lu_factor_ex(a, pivot, NULL, "linalg.lu", &lu, &piv, &info) < 0) return -1;
    int rc = tsr_lu_unpack(lu, piv, true, pivot, p, l, u);
    tsr_tensor_release(lu);
    tsr_tensor_release(piv);
    tsr_tensor_release(info);
    return rc;
}

/* checkInputsSolver: A square, B a matrix, the equation's sizes agree. */
static int check_solver(const tsr_tensor *a, const tsr_tensor *b, bool left, const char *fn)
{
    if (tsr__la_check_matrix(a, fn, true) < 0) return -1;
    if (b->ndim < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: The input tensor B must have at least 2 dimensions.", fn);
        return -1;
    }
    int64_t am = a->sizes[a->ndim - 2], an = a->sizes[a->ndim - 1], bm = b->sizes[b->ndim - 2],
            bn = b->sizes[b->ndim - 1];
    if (left ? am != bm : an != bn) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: Incompatible shapes of A and B for the equation %s (%ldx%ld and %ldx%ld)",
                      fn, left ? "AX = B" : "XA = B", (long)am, (long)an, (long)bm, (long)bn);
        return -1;
    }
    return 0;
}

/* x (*, r, c) with the batch broadcast against a's (a's own last two dims
 * kept), as an empty_fmat copy. */
static tsr_tensor *expand_fmat(const tsr_tensor *x, int nd, const int64_t *batch)
{
    int64_t sz[TSR_MAX_DIMS];
    memcpy(sz, batch, (size_t)nd * sizeof *sz);
    sz[nd] = x->sizes[x->ndim - 2];
    sz[nd + 1] = x->sizes[x->ndim - 1];
    tsr_tensor *e = tsr_view_expand(x, nd + 2, sz), *r = e ? tsr__la_clone_fmat(e) : NULL;
    tsr_tensor_release(e);
    return r;
}

/* The conjugate transpose of x as a new tensor (the transpose of a real x). */
tsr_tensor *tsr__la_adjoint_copy(const tsr_tensor *x)
{
    tsr_tensor *t = tsr_view_mT(x);
    if (!t || !tsr_dtype_is_complex(x->dtype)) return t;
    tsr_tensor *c = tsr_conj_physical(t, NULL);
    tsr_tensor_release(t);
    return c;
}

int tsr_linalg_lu_solve(const tsr_tensor *lu, const tsr_tensor *piv, const tsr_tensor *b_, bool left, bool adjoint,
                        tsr_tensor **result)
{
    if (dev_check("wrapper_linalg_lu_solve", lu, "LU", piv, "pivots", b_, "B") < 0) return -1;
    const char *fn = "linalg.lu_solve";
    if (check_float(lu, "torch.linalg.lu_solve", true, "lu_solve_cpu") < 0) return -1;
    if (lu->dtype != b_->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: Expected LU and B to have the same dtype, but found LU of type %s and B "
                      "of type %s instead", fn, tsr_dtype_scalar_name(lu->dtype), tsr_dtype_scalar_name(b_->dtype));
        return -1;
    }
    if (piv->dtype != TSR_INT32) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: pivots should be a Tensor of scalar type torch.int32", fn);
        return -1;
    }
    if (tsr__la_check_matrix(lu, "torch.linalg.lu_solve", true) < 0 || check_solver(lu, b_, left, fn) < 0) return -1;
    int64_t n = lu->sizes[lu->ndim - 1];
    if (piv->ndim < 1 || piv->sizes[piv->ndim - 1] != n) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: Number of pivots per batch should be same as the dimension of the matrix",
                      fn);
        return -1;
    }
    bool same = piv->ndim == lu->ndim - 1;
    for (int d = 0; same && d < piv->ndim; d++) same = piv->sizes[d] == lu->sizes[d];
    if (!same) {
        char buf[256];
        tsr_error_set(TSR_ERR_RUNTIME, "%s: Expected LU.shape[:-1] and pivots.shape to be the same, but got pivots "
                      "with shape %s instead", fn, tsr__fmt_list(buf, sizeof buf, piv->ndim, piv->sizes));
        return -1;
    }
    tsr_tensor *b = left ? tsr_tensor_retain((tsr_tensor *)b_) : tsr__la_adjoint_copy(b_), *x = NULL, *lue = NULL,
               *pe = NULL, *pv = NULL;
    int64_t batch[TSR_MAX_DIMS];
    int nd;
    if (!b || broadcast_batch(lu, 2, b, 2, &nd, batch) < 0) goto fail;
    if (!(x = expand_fmat(b, nd, batch)) || !(lue = expand_fmat(lu, nd, batch))) goto fail;
    batch[nd] = n;
    if (!(pv = tsr_view_expand(piv, nd + 1, batch)) || !(pe = tsr_contiguous(pv, TSR_MF_CONTIGUOUS))) goto fail;
    bool adj = left ? adjoint : !adjoint;
    if (lp_getrs_batch(x, lue, pe, !adj ? 'N' : tsr_dtype_is_complex(lu->dtype) ? 'C' : 'T') < 0) goto fail;
    if (!left) {
        tsr_tensor *y = tsr__la_adjoint_copy(x);
        tsr_tensor_release(x);
        x = y;
        if (!x) goto fail;
    }
    tsr_tensor_release(b);
    tsr_tensor_release(lue);
    tsr_tensor_release(pv);
    tsr_tensor_release(pe);
    *result = x;
    return 0;
fail:
    tsr_tensor_release(b);
    tsr_tensor_release(x);
    tsr_tensor_release(lue);
    tsr_tensor_release(pv);
    tsr_tensor_release(pe);
    return -1;
}

/* ------------------------------------------------------------ triangular solves (trsm) */

static void trsm(tsr_dtype dt, bool left, bool upper, char trans, bool unit, int m, int n, const void *a, int lda,
                 void *b, int ldb)
{
    CBLAS_SIDE sd = left ? CblasLeft : CblasRight;
    CBLAS_UPLO ul = upper ? CblasUpper : CblasLower;
    CBLAS_TRANSPOSE tr = trans == 'N' ? CblasNoTrans : trans == 'T' ? CblasTrans : CblasConjTrans;
    CBLAS_DIAG dg = unit ? CblasUnit : CblasNonUnit;
    switch (dt) {
    case TSR_FLOAT32: cblas_strsm(CblasColMajor, sd, ul, tr, dg, m, n, 1.0f, a, lda, b, ldb); break;
    case TSR_FLOAT64: cblas_dtrsm(CblasColMajor, sd, ul, tr, dg, m, n, 1.0, a, lda, b, ldb); break;
    case TSR_COMPLEX64: {
        float _Complex one = 1;
        cblas_ctrsm(CblasColMajor, sd, ul, tr, dg, m, n, &one, a, lda, b, ldb);
        break;
    }
    default: {
        double _Complex one = 1;
        cblas_ztrsm(CblasColMajor, sd, ul, tr, dg, m, n, &one, a, lda, b, ldb);
        break;
    }
    }
}

/* trsm over a batch: x (empty_fmat, m x k) holds B; a a batch of n x n
 * matrices whose i-th starts at i * n * n elements (column-major, or
 * row-major with trans 'T'). */
static int trsm_batch(tsr_tensor *x, const tsr_tensor *a, bool left, bool upper, char trans, bool unit)
{
    if (tsr__la_is_meta(x) || tsr_tensor_numel(x) == 0) return 0;
    if (tsr__la_dev(x)) return tsr__la_dev_trsm(x, a, left, upper, trans, unit);
    int64_t m = x->sizes[x->ndim - 2], k = x->sizes[x->ndim - 1], n = a->sizes[a->ndim - 1], nb = tsr__la_batch_count(x, 2);
    int lda = n > 1 ? (int)n : 1, ldb = m > 1 ? (int)m : 1;
    for (int64_t i = 0; i < nb; i++) {
        trsm(x->dtype, left, upper, trans, unit, (int)m, (int)k, tsr__la_mat_at(a, i, n * n), lda, tsr__la_mat_at(x, i, m * k), ldb);
        if (tsr__la_poll(i, nb) < 0) return -1;
    }
    return 0;
}

int tsr_linalg_solve_triangular(const tsr_tensor *a, const tsr_tensor *b, bool upper, bool left, bool unit,
                                tsr_tensor **result)
{
    if (dev_check("wrapper__linalg_solve_triangular", a, "self", b, "B", NULL, NULL) < 0) return -1;
    const char *fn = "linalg.solve_triangular";
    if (tsr__la_is_meta(a) || tsr__la_is_meta(b)) return tsr_meta_refused("linalg_solve_triangular");
    if (check_solver(a, b, left, fn) < 0) return -1;
    if (!tsr__la_lapack_dtype(a->dtype)) return tsr__not_implemented("triangular_solve_cpu", a->dtype);
    int64_t batch[TSR_MAX_DIMS], sz[TSR_MAX_DIMS];
    int nd;
    tsr_tensor *x = NULL, *ae = NULL, *af = NULL, *bc = NULL;
    /* the result has A's dtype: B is copied into it (cast when it differs) */
    if (broadcast_batch(a, 2, b, 2, &nd, batch) < 0 || !(bc = tsr_to_dtype(b, a->dtype, false))) return -1;
    x = expand_fmat(bc, nd, batch);
    tsr_tensor_release(bc);
    if (!x) return -1;
    memcpy(sz, batch, (size_t)nd * sizeof *sz);
    sz[nd] = sz[nd + 1] = a->sizes[a->ndim - 1];
    if (!(ae = tsr_view_expand(a, nd + 2, sz))) goto fail;
    /* A as LAPACK reads it: column-major as it is, a row-major A as A^T with
     * the triangle flipped and trans 'T', anything else copied column-major */
    char trans = 'N';
    bool up = upper;
    tsr_tensor *mt = tsr_view_mT(ae);
    if (!mt) goto fail;
    bool fcontig = tsr_tensor_is_contiguous(mt), ccontig = tsr_tensor_is_contiguous(ae);
    tsr_tensor_release(mt);
    if (fcontig) af = tsr_tensor_retain(ae);
    else if (ccontig) { af = tsr_tensor_retain(ae); trans = 'T'; up = !upper; }
    else if (!(af = tsr__la_clone_fmat(ae))) goto fail;
    if (trsm_batch(x, af, left, up, trans, unit) < 0) goto fail;
    tsr_tensor_release(ae);
    tsr_tensor_release(af);
    *result = x;
    return 0;
fail:
    tsr_tensor_release(x);
    tsr_tensor_release(ae);
    tsr_tensor_release(af);
    return -1;
}

int tsr_triangular_solve(const tsr_tensor *b, const tsr_tensor *a, bool upper, bool transpose, bool unit,
                         tsr_tensor **solution, tsr_tensor **cloned)
{
    if (dev_check("wrapper_triangular_solve", b, "self", a, "A", NULL, NULL) < 0) return -1;
    if (b->ndim < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.triangular_solve: Expected b to have at least 2 dimensions, but it has %d "
                      "dimensions instead", b->ndim);
        return -1;
    }
    if (a->ndim < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.triangular_solve: Expected A to have at least 2 dimensions, but it has %d "
                      "dimensions instead", a->ndim);
        return -1;
    }
    if (b->dtype != a->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected b and A to have the same dtype, but found b of type %s and A of type "
                      "%s instead.", tsr_dtype_scalar_name(b->dtype), tsr_dtype_scalar_name(a->dtype));
        return -1;
    }
    int64_t n = a->sizes[a->ndim - 1];
    if (a->sizes[a->ndim - 2] != n) {
        tsr_error_set(TSR_ERR_RUNTIME, "A must be batches of square matrices, but they are %ld by %ld matrices",
                      (long)a->sizes[a->ndim - 2], (long)n);
        return -1;
    }
    if (b->sizes[b->ndim - 2] != n) {
        tsr_error_set(TSR_ERR_RUNTIME, "Incompatible matrix sizes for triangular_solve: each A matrix is %ld by %ld but "
                      "each b matrix is %ld by %ld", (long)n, (long)n, (long)b->sizes[b->ndim - 2],
                      (long)b->sizes[b->ndim - 1]);
        return -1;
    }
    if (!tsr__la_lapack_dtype(a->dtype)) return tsr__not_implemented("triangular_solve_cpu", a->dtype);
    int64_t batch[TSR_MAX_DIMS];
    int nd;
    tsr_tensor *x = NULL, *af = NULL;
    if (broadcast_batch(a, 2, b, 2, &nd, batch) < 0 || !(x = expand_fmat(b, nd, batch)) ||
        !(af = expand_fmat(a, nd, batch)))
        goto fail;
    if (trsm_batch(x, af, true, upper, transpose ? 'T' : 'N', unit) < 0) goto fail;
    *solution = x;
    *cloned = af;
    return 0;
fail:
    tsr_tensor_release(x);
    tsr_tensor_release(af);
    return -1;
}

/* ------------------------------------------------------------ cholesky_solve, cholesky_inverse */

static int lp_potrs(tsr_dtype dt, char uplo, int n, int k, const void *a, void *b)
{
    int ld = n > 1 ? n : 1;
    switch (dt) {
    case TSR_FLOAT32: return LAPACKE_spotrs_work(CM, uplo, n, k, a, ld, b, ld);
    case TSR_FLOAT64: return LAPACKE_dpotrs_work(CM, uplo, n, k, a, ld, b, ld);
    case TSR_COMPLEX64: return LAPACKE_cpotrs_work(CM, uplo, n, k, a, ld, b, ld);
    default: return LAPACKE_zpotrs_work(CM, uplo, n, k, a, ld, b, ld);
    }
}

static int lp_potri(tsr_dtype dt, char uplo, int n, void *a)
{
    int ld = n > 1 ? n : 1;
    switch (dt) {
    case TSR_FLOAT32: return LAPACKE_spotri_work(CM, uplo, n, a, ld);
    case TSR_FLOAT64: return LAPACKE_dpotri_work(CM, uplo, n, a, ld);
    case TSR_COMPLEX64: return LAPACKE_cpotri_work(CM, uplo, n, a, ld);
    default: return LAPACKE_zpotri_work(CM, uplo, n, a, ld);
    }
}

tsr_tensor *tsr_cholesky_solve(const tsr_tensor *b, const tsr_tensor *l, bool upper)
{
    if (dev_check("wrapper___cholesky_solve_helper", b, "self", l, "A", NULL, NULL) < 0) return NULL;
    if (b->ndim < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "b should have at least 2 dimensions, but has %d dimensions instead", b->ndim);
        return NULL;
    }
    if (l->ndim < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "u should have at least 2 dimensions, but has %d dimensions instead", l->ndim);
        return NULL;
    }
    if (b->dtype != l->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected b and A to have the same dtype, but found b of type %s and A of type "
                      "%s instead.", tsr_dtype_scalar_name(b->dtype), tsr_dtype_scalar_name(l->dtype));
        return NULL;
    }
    int64_t n = l->sizes[l->ndim - 1];
    if (l->sizes[l->ndim - 2] != n) {
        tsr_error_set(TSR_ERR_RUNTIME, "A must be batches of square matrices, but they are %ld by %ld matrices",
                      (long)l->sizes[l->ndim - 2], (long)n);
        return NULL;
    }
    if (b->sizes[b->ndim - 2] != n) {
        tsr_error_set(TSR_ERR_RUNTIME, "Incompatible matrix sizes for cholesky_solve: each A matrix is %ld by %ld but "
                      "each b matrix is %ld by %ld", (long)n, (long)n, (long)b->sizes[b->ndim - 2],
                      (long)b->sizes[b->ndim - 1]);
        return NULL;
    }
    if (tsr__la_is_meta(b) || tsr__la_is_meta(l)) return tsr_meta_refused("_cholesky_solve_helper"), NULL;
    if (!tsr__la_lapack_dtype(l->dtype)) { tsr__not_implemented("cholesky_solve_cpu", l->dtype); return NULL; }
    int64_t batch[TSR_MAX_DIMS];
    int nd;
    tsr_tensor *x = NULL, *lf = NULL;
    if (broadcast_batch(l, 2, b, 2, &nd, batch) < 0 || !(x = expand_fmat(b, nd, batch)) ||
        !(lf = expand_fmat(l, nd, batch)))
        goto fail;
    if (tsr__la_dev(x) && tsr_tensor_numel(x) > 0) {
        if (tsr__la_dev_potrs(x, lf, upper ? 'U' : 'L') < 0) goto fail;
    } else if (!tsr__la_is_meta(x) && tsr_tensor_numel(x) > 0) {
        int64_t k = x->sizes[x->ndim - 1], nb = tsr__la_batch_count(x, 2);
        for (int64_t i = 0; i < nb; i++) {
            lp_potrs(x->dtype, upper ? 'U' : 'L', (int)n, (int)k, tsr__la_mat_at(lf, i, n * n), tsr__la_mat_at(x, i, n * k));
            if (tsr__la_poll(i, nb) < 0) goto fail;
        }
    }
    tsr_tensor_release(lf);
    return x;
fail:
    tsr_tensor_release(x);
    tsr_tensor_release(lf);
    return NULL;
}

/* apply_reflect_conj_tri_single: potri wrote one triangle; the other gets
 * its conjugate (the diagonal stays as potri left it, signed zeros too). */
#define REFLECT(T, CJ)                                                                     \
    {                                                                                      \
        T *m = a;                                                                          \
        for (int64_t j = 0; j < n; j++)                                                    \
            for (int64_t i = j + 1; i < n; i++) {                                          \
                if (upper) m[j * n + i] = CJ(m[i * n + j]);   /* (j, i) above -> (i, j) */ \
                else m[i * n + j] = CJ(m[j * n + i]);         /* (i, j) below -> (j, i) */ \
            }                                                                              \
    }
#define NOCJ(x) (x)
static void reflect_conj_tri(tsr_dtype dt, void *a, int64_t n, bool upper)
{
    switch (dt) {
    case TSR_FLOAT32: REFLECT(float, NOCJ) break;
    case TSR_FLOAT64: REFLECT(double, NOCJ) break;
    case TSR_COMPLEX64: REFLECT(float _Complex, conjf) break;
    default: REFLECT(double _Complex, conj) break;
    }
}
#undef REFLECT
#undef NOCJ

/* cholesky_inverse on the device as 1.13's CUDA computes it
 * (cholesky_inverse_kernel_impl): cholesky_solve(eye, L, upper), the
 * identity expanded to L's batch. NEW reference. */
static tsr_tensor *dev_cholesky_inverse(const tsr_tensor *l, bool upper)
{
    int64_t n = l->sizes[l->ndim - 1];
    tsr_tensor *e = tsr_eye(n, n, l->dtype, l->device), *ee = e ? tsr_view_expand(e, l->ndim, l->sizes) : NULL;
    tsr_tensor *r = ee ? tsr_cholesky_solve(ee, l, upper) : NULL;
    tsr_tensor_release(e);
    tsr_tensor_release(ee);
    return r;
}

tsr_tensor *tsr_cholesky_inverse(const tsr_tensor *l, bool upper)
{
    if (tsr__la_is_meta(l)) return tsr_meta_refused("cholesky_inverse"), NULL;
    if (tsr__la_check_matrix(l, "cholesky_inverse", true) < 0) return NULL;
    if (!tsr__la_lapack_dtype(l->dtype)) { tsr__not_implemented("cholesky_inverse_out_cpu", l->dtype); return NULL; }
    if (tsr__la_dev(l)) return dev_cholesky_inverse(l, upper);
    tsr_tensor *r = tsr__la_clone_fmat(l), *info = r ? batch_int(l, 2, 0, 0) : NULL;
    if (!info) goto fail;
    if (!tsr__la_is_meta(l) && tsr_tensor_numel(r) > 0) {
        int64_t n = l->sizes[l->ndim - 1], nb = tsr__la_batch_count(l, 2);
        int32_t *ip = tsr_tensor_ptr(info, NULL);
        for (int64_t i = 0; i < nb; i++) {
            ip[i] = lp_potri(l->dtype, upper ? 'U' : 'L', (int)n, tsr__la_mat_at(r, i, n * n));
            if (tsr__la_poll(i, nb) < 0) goto fail;
        }
        if (tsr_linalg_check_errors(info, "cholesky_inverse", l->ndim == 2) < 0) goto fail;
        for (int64_t i = 0; i < nb; i++) reflect_conj_tri(l->dtype, tsr__la_mat_at(r, i, n * n), n, upper);
    }
    tsr_tensor_release(info);
    return r;
fail:
    tsr_tensor_release(r);
    tsr_tensor_release(info);
    return NULL;
}

/* ------------------------------------------------------------ geqrf, householder_product, ormqr */

int tsr_geqrf(const tsr_tensor *a, tsr_tensor **qr, tsr_tensor **tau)
{
    if (tsr__la_is_meta(a)) return tsr_meta_refused("geqrf");
    if (a->ndim < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.geqrf: input must have at least 2 dimensions.");
        return -1;
    }
    if (!tsr__la_lapack_dtype(a->dtype)) return tsr__not_implemented("geqrf_cpu", a->dtype);
    int nd = a->ndim;
    int64_t m = a->sizes[nd - 2], n = a->sizes[nd - 1], k = m < n ? m : n, nb = tsr__la_batch_count(a, 2), sz[TSR_MAX_DIMS];
    memcpy(sz, a->sizes, (size_t)nd * sizeof *sz);
    sz[nd - 2] = k;
    tsr_tensor *r = tsr__la_clone_fmat(a), *t = r ? tsr_tensor_empty(nd - 1, sz, a->dtype, a->device) : NULL;
    if (!t) goto fail;
    if (tsr__la_dev(a) && tsr_tensor_numel(r) > 0) {
        if (tsr__la_dev_geqrf(r, t) < 0) goto fail;
    } else if (!tsr__la_is_meta(a) && tsr_tensor_numel(r) > 0) {
        qr_ctx c = {a->dtype, false, m, n, k, r, t};
        if (la_batch(a->dtype, nb, qr_run, &c, NULL) < 0) goto fail;
    }
    *qr = r;
    *tau = t;
    return 0;
fail:
    tsr_tensor_release(r);
    tsr_tensor_release(t);
    return -1;
}

tsr_tensor *tsr_householder_product(const tsr_tensor *a, const tsr_tensor *tau)
{
    if (dev_check("wrapper__linalg_householder_product", a, "input", tau, "tau", NULL, NULL) < 0) return NULL;
    const char *fn = "torch.linalg.householder_product";
    if (tsr__la_is_meta(a) || tsr__la_is_meta(tau)) return tsr_meta_refused("linalg_householder_product"), NULL;
    if (a->ndim < 2) { tsr_error_set(TSR_ERR_RUNTIME, "%s: input must have at least 2 dimensions.", fn); return NULL; }
    int nd = a->ndim;
    int64_t m = a->sizes[nd - 2], n = a->sizes[nd - 1];
    if (m < n) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: input.shape[-2] must be greater than or equal to input.shape[-1]", fn);
        return NULL;
    }
    if (tau->ndim < 1 || n < tau->sizes[tau->ndim - 1]) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: input.shape[-1] must be greater than or equal to tau.shape[-1]", fn);
        return NULL;
    }
    if (tau->ndim != nd - 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: Expected tau to have one dimension less than input, but got tau.ndim equal "
                      "to %d and input.ndim is equal to %d", fn, tau->ndim, nd);
        return NULL;
    }
    for (int d = 0; d < nd - 2; d++)
        if (tau->sizes[d] != a->sizes[d]) {
            tsr_error_set(TSR_ERR_RUNTIME, "%s: Expected batch dimensions of tau to be equal to input.shape[:-2], but "
                          "got %ld", fn, (long)tau->sizes[d]);
            return NULL;
        }
    if (tau->dtype != a->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: tau dtype %s does not match input dtype %s", fn,
                      tsr_dtype_scalar_name(tau->dtype), tsr_dtype_scalar_name(a->dtype));
        return NULL;
    }
    if (!tsr__la_lapack_dtype(a->dtype)) { tsr__not_implemented("orgqr_cpu", a->dtype); return NULL; }
    int64_t k = tau->sizes[tau->ndim - 1], nb = tsr__la_batch_count(a, 2);
    tsr_tensor *r = tsr__la_clone_fmat(a), *tc = r ? tsr_contiguous(tau, TSR_MF_CONTIGUOUS) : NULL;
    if (!tc) goto fail;
    if (tsr__la_dev(a) && tsr_tensor_numel(r) > 0) {
        if (tsr__la_dev_orgqr(r, tc, k) < 0) goto fail;
    } else if (!tsr__la_is_meta(a) && tsr_tensor_numel(r) > 0) {
        qr_ctx c = {a->dtype, true, m, n, k, r, tc};
        if (la_batch(a->dtype, nb, qr_run, &c, NULL) < 0) goto fail;
    }
    tsr_tensor_release(tc);
    return r;
fail:
    tsr_tensor_release(r);
    tsr_tensor_release(tc);
    return NULL;
}

/* householder_product_out: out's dtype safely castable from a's; the
 * result is written into out's own storage (its strides kept, resized to
 * the result's column-major batch when empty) when out has a's dtype and is
 * empty or a column-major batch of the right shape; else computed apart,
 * then resize_output (row-major, with its warning) and copy_. */
tsr_tensor *tsr_householder_product_out(const tsr_tensor *a, const tsr_tensor *tau, tsr_tensor *out)
{
    tsr_tensor *r = tsr_householder_product(a, tau);
    if (!r) return NULL;
    if (tsr_linalg_out_check(out, r->dtype, "torch.linalg.householder_product") < 0) goto fail;
    int64_t n = tsr_tensor_numel(out);
    bool shape = out->ndim == r->ndim && !memcmp(out->sizes, r->sizes, sizeof(int64_t) * (size_t)r->ndim);
    bool colmajor = false;
    if (out->ndim >= 2) {
        tsr_tensor *m = tsr_view_mT(out);
        if (!m) goto fail;
        colmajor = tsr_tensor_is_contiguous(m);
        tsr_tensor_release(m);
    }
    bool direct = out->dtype == r->dtype && (n == 0 || (colmajor && shape));
    if (direct && n == 0) {   /* the helper's result: resized to the column-major batch */
        if (tsr_tensor_resize_(out, r->ndim, r->sizes) < 0) goto fail;
        for (int d = 0; d < r->ndim; d++) out->strides[d] = r->strides[d];
    } else if (!direct && tsr_resize_output(out, r->ndim, r->sizes) < 0) {
        goto fail;
    }
    int rc = tsr_copy_(out, r);
    tsr_tensor_release(r);
    return rc < 0 ? NULL : tsr_tensor_retain(out);
fail:
    tsr_tensor_release(r);
    return NULL;
}

/* XA = B (linalg.solve with left=False): A's LU as solve_impl makes it (of
 * A^T for a contiguous real A), then lu_solve with left=False and adjoint
 * set when A^T was factored, as _linalg_solve_ex. */
static int solve_right(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **res, tsr_tensor **info_out)
{
    bool vec = vector_rhs(a, b);
    tsr_tensor *b2 = vec ? tsr_view_unsqueeze(b, -1) : tsr_tensor_retain((tsr_tensor *)b);
    if (!b2) return -1;
    if (check_solver(a, b2, false, "linalg.solve") < 0) {
        tsr_tensor_release(b2);
        return -1;
    }
    bool use_t = tsr_tensor_is_contiguous(a) && !tsr_dtype_is_complex(a->dtype);
    tsr_tensor *at = use_t ? tsr_view_mT(a) : tsr_tensor_retain((tsr_tensor *)a), *lu = NULL, *piv = NULL,
               *info = NULL, *x = NULL;
    int rc = -1;
    if (!at || !(lu = tsr__la_clone_fmat(at)) || !(piv = batch_int(a, 1, 0, 0)) || !(info = batch_int(a, 2, 0, 0))) goto fail;
    if (lu_factor(lu, piv, info) < 0) goto fail;
    if (tsr_linalg_lu_solve(lu, piv, b2, false, use_t, &x) < 0) goto fail;
    *res = x;
    *info_out = info;
    info = NULL;
    rc = 0;
fail:
    tsr_tensor_release(b2);
    tsr_tensor_release(at);
    tsr_tensor_release(lu);
    tsr_tensor_release(piv);
    tsr_tensor_release(info);
    return rc;
}

int tsr_linalg_svd_driver_check(const char *driver)
{
    if (!driver) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with "
                  "cuSOLVER backend.");
    return -1;
}

int tsr_linalg_svd_driver_check_for(const tsr_tensor *a, const char *driver)
{
    if (!driver || !tsr__la_dev(a)) return tsr_linalg_svd_driver_check(driver);
    if (!strcmp(driver, "gesvd") || !strcmp(driver, "gesvdj") || !strcmp(driver, "gesvda")) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "torch.linalg.svd: unknown svd driver %s in svd_cusolver computation. Check doc at "
                  "https://pytorch.org/docs/stable/generated/torch.linalg.svd.html", driver);
    return -1;
}
