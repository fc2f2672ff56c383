/* runtime/ops/linalg_ldl.c — linalg.ldl_factor(_ex) / ldl_solve (sytrf /
 * hetrf and sytrs / hetrs on the lower triangle, as 1.13 calls them with
 * upper fixed to false) and torch.ormqr (ormqr / unmqr on a column-major
 * copy of the reflectors), with 1.13's checks and result layouts. */
#include <stdio.h>
#include <string.h>

#include "linalg.h"
#include "copy.h"
#include "factory.h"
#include "rearrange.h"
#include "scatter.h"
#include "shape.h"
#include "../error.h"
#include "../internal.h"
#include "../view.h"
#include "linalg_int.h"
#include "linalg_dev.h"
#include "blas.h"
#include "blas_cuda.h"

static int lp_sytrf(tsr_dtype dt, bool herm, int n, void *a, int *ipiv, void *work, int lwork)
{
    int ld = n > 1 ? n : 1;
    switch (dt) {
    case TSR_FLOAT32: return LAPACKE_ssytrf_work(CM, 'L', n, a, ld, ipiv, work, lwork);
    case TSR_FLOAT64: return LAPACKE_dsytrf_work(CM, 'L', n, a, ld, ipiv, work, lwork);
    case TSR_COMPLEX64:
        return herm ? LAPACKE_chetrf_work(CM, 'L', n, a, ld, ipiv, work, lwork)
                    : LAPACKE_csytrf_work(CM, 'L', n, a, ld, ipiv, work, lwork);
    default:
        return herm ? LAPACKE_zhetrf_work(CM, 'L', n, a, ld, ipiv, work, lwork)
                    : LAPACKE_zsytrf_work(CM, 'L', n, a, ld, ipiv, work, lwork);
    }
}

static int lp_sytrs(tsr_dtype dt, bool herm, int n, int nrhs, const void *a, const int *ipiv, void *b)
{
    int ld = n > 1 ? n : 1;
    switch (dt) {
    case TSR_FLOAT32: return LAPACKE_ssytrs_work(CM, 'L', n, nrhs, a, ld, ipiv, b, ld);
    case TSR_FLOAT64: return LAPACKE_dsytrs_work(CM, 'L', n, nrhs, a, ld, ipiv, b, ld);
    case TSR_COMPLEX64:
        return herm ? LAPACKE_chetrs_work(CM, 'L', n, nrhs, a, ld, ipiv, b, ld)
                    : LAPACKE_csytrs_work(CM, 'L', n, nrhs, a, ld, ipiv, b, ld);
    default:
        return herm ? LAPACKE_zhetrs_work(CM, 'L', n, nrhs, a, ld, ipiv, b, ld)
                    : LAPACKE_zsytrs_work(CM, 'L', n, nrhs, a, ld, ipiv, b, ld);
    }
}

static int float_check(const tsr_tensor *a, const char *fn)
{
    if (tsr_dtype_is_floating(a->dtype) || tsr_dtype_is_complex(a->dtype)) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "%s: Expected a floating point or complex tensor as input. Got %s", fn,
                  tsr_dtype_scalar_name(a->dtype));
    return -1;
}

/* ------------------------------------------------------------ ldl_factor */

int tsr_linalg_ldl_factor_ex(const tsr_tensor *a, bool hermitian, const char *check, tsr_tensor **ld,
                             tsr_tensor **piv, tsr_tensor **info)
{
    const char *fn = "torch.linalg.ldl_factor_ex";
    *ld = *piv = *info = NULL;
    if (tsr__la_check_matrix(a, fn, true) < 0 || float_check(a, fn) < 0) return -1;
    int nd = a->ndim;
    int64_t n = a->sizes[nd - 1], nb = tsr__la_batch_count(a, 2);
    tsr_tensor *l = tsr__la_empty_fmat(nd, a->sizes, a->dtype, a->device);
    tsr_tensor *p = l ? tsr_tensor_empty(nd - 1, a->sizes, TSR_INT32, a->device) : NULL;
    tsr_tensor *in = p ? tsr_zeros(nd - 2, a->sizes, TSR_INT32, a->device) : NULL;
    void *work = NULL;
    if (!in) goto fail;
    if (!tsr__la_is_meta(a) && tsr_tensor_numel(a) > 0) {
        if (!tsr__la_lapack_dtype(a->dtype)) {
            tsr__not_implemented("ldl_factor_kernel_cpu", a->dtype);
            goto fail;
        }
        tsr_tensor *lo = tsr_tril(a, 0, false, l);
        if (!lo) goto fail;
        tsr_tensor_release(lo);
        char wq[16];
        int *pp = tsr_tensor_ptr(p, NULL);
        int32_t *ip = tsr_tensor_ptr(in, NULL);
        lp_sytrf(a->dtype, hermitian, (int)n, tsr__la_mat_at(l, 0, 0), pp, wq, -1);
        int lw = tsr__la_wk(a->dtype, wq);
        if (!(work = tsr__la_ws(a->dtype, lw))) goto fail;
        for (int64_t i = 0; i < nb; i++) {
            ip[i] = lp_sytrf(a->dtype, hermitian, (int)n, tsr__la_mat_at(l, i, n * n), pp + i * n, work, lw);
            if (tsr__la_poll(i, nb) < 0) goto fail;
        }
        if (check && tsr_linalg_check_errors(in, check, nd == 2) < 0) goto fail;
    }
    tsr_free(work);
    *ld = l;
    *piv = p;
    *info = in;
    return 0;
fail:
    tsr_free(work);
    tsr_tensor_release(l);
    tsr_tensor_release(p);
    tsr_tensor_release(in);
    return -1;
}

/* ------------------------------------------------------------ ldl_solve */

static void fmt_shape(char *buf, size_t cap, int nd, const int64_t *s)
{
    size_t k = (size_t)snprintf(buf, cap, "[");
    for (int d = 0; d < nd && k < cap; d++) k += (size_t)snprintf(buf + k, cap - k, "%s%ld", d ? ", " : "", (long)s[d]);
    if (k < cap) snprintf(buf + k, cap - k, "]");
}

tsr_tensor *tsr_linalg_ldl_solve(const tsr_tensor *ld, const tsr_tensor *piv, const tsr_tensor *b, bool hermitian)
{
    const char *fn = "torch.linalg.ldl_solve";
    if (tsr__la_check_matrix(ld, fn, true) < 0 || float_check(ld, fn) < 0) return NULL;
    if (b->dtype != ld->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected b and A to have the same dtype, but found b of type %s and A of type "
                      "%s instead.", tsr_dtype_scalar_name(b->dtype), tsr_dtype_scalar_name(ld->dtype));
        return NULL;
    }
    if (b->ndim < 2) {
        tsr_error_set(TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got -2)",
                      b->ndim ? -b->ndim : -1, b->ndim ? b->ndim - 1 : 0);
        return NULL;
    }
    int64_t n = ld->sizes[ld->ndim - 1];
    if (b->sizes[b->ndim - 2] != n) {
        tsr_error_set(TSR_ERR_RUNTIME, "Incompatible matrix sizes for %s: each A matrix is %ld by %ld but each b "
                      "matrix is %ld by %ld", fn, (long)n, (long)n, (long)b->sizes[b->ndim - 2],
                      (long)b->sizes[b->ndim - 1]);
        return NULL;
    }
    bool same = piv->ndim == ld->ndim - 1;
    for (int d = 0; same && d < piv->ndim; d++) same = piv->sizes[d] == ld->sizes[d];
    if (!same) {
        char s[128];
        fmt_shape(s, sizeof s, piv->ndim, piv->sizes);
        tsr_error_set(TSR_ERR_RUNTIME, "%s: Expected LD.shape[:-1] and pivots.shape to be the same, but got pivots "
                      "with shape %s instead", fn, s);
        return NULL;
    }
    if (!tsr_dtype_is_integral(piv->dtype, false)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: Expected pivots to be integers. Got %s", fn,
                      tsr_dtype_scalar_name(piv->dtype));
        return NULL;
    }
    /* the broadcast batch of B and LD; the result is column-major */
    int nbd = b->ndim - 2, nld = ld->ndim - 2, nd = nbd > nld ? nbd : nld;
    int64_t sz[TSR_MAX_DIMS], lsz[TSR_MAX_DIMS], psz[TSR_MAX_DIMS];
    for (int i = 0; i < nd; i++) {
        int ib = nbd - nd + i, il = nld - nd + i;
        int64_t sb = ib >= 0 ? b->sizes[ib] : 1, sl = il >= 0 ? ld->sizes[il] : 1;
        if (sb != sl && sb != 1 && sl != 1) {
            tsr_error_set(TSR_ERR_RUNTIME, "The size of tensor a (%ld) must match the size of tensor b (%ld) at "
                          "non-singleton dimension %d", (long)sb, (long)sl, i);
            return NULL;
        }
        sz[i] = lsz[i] = psz[i] = sb == 1 ? sl : sb;
    }
    sz[nd] = n;
    sz[nd + 1] = b->sizes[b->ndim - 1];
    lsz[nd] = lsz[nd + 1] = psz[nd] = n;
    tsr_tensor *x = tsr__la_empty_fmat(nd + 2, sz, b->dtype, b->device), *le = NULL, *lc = NULL, *pe = NULL,
               *pc = NULL;
    if (!x || tsr__la_is_meta(x) || tsr_tensor_numel(ld) == 0 || tsr_tensor_numel(piv) == 0) return x;
    if (!tsr__la_lapack_dtype(ld->dtype)) {
        tsr__not_implemented("ldl_solve_cpu", ld->dtype);
        goto fail;
    }
    if (tsr_copy_(x, b) < 0 || !(le = tsr_view_expand(ld, nd + 2, lsz)) || !(lc = tsr__la_clone_fmat(le)) ||
        !(pe = tsr_view_expand(piv, nd + 1, psz)) || !(pc = tsr_to_dtype_format(pe, TSR_INT32, TSR_MF_CONTIGUOUS)))
        goto fail;
    if (pc == pe) {   /* make it a contiguous copy of its own */
        tsr_tensor *c = tsr_contiguous(pe, TSR_MF_CONTIGUOUS);
        tsr_tensor_release(pc);
        if (!(pc = c)) goto fail;
    }
    int64_t nb = tsr__la_batch_count(x, 2), nrhs = sz[nd + 1];
    const int *pp = tsr_tensor_ptr(pc, NULL);
    for (int64_t i = 0; i < nb && nrhs > 0; i++) {
        lp_sytrs(ld->dtype, hermitian, (int)n, (int)nrhs, tsr__la_mat_at(lc, i, n * n), pp + i * n,
                 tsr__la_mat_at(x, i, n * nrhs));
        if (tsr__la_poll(i, nb) < 0) goto fail;
    }
    tsr_tensor_release(le);
    tsr_tensor_release(lc);
    tsr_tensor_release(pe);
    tsr_tensor_release(pc);
    return x;
fail:
    tsr_tensor_release(x);
    tsr_tensor_release(le);
    tsr_tensor_release(lc);
    tsr_tensor_release(pe);
    tsr_tensor_release(pc);
    return NULL;
}

/* ------------------------------------------------------------ ormqr */

static int lp_ormqr(tsr_dtype dt, char side, char trans, int m, int n, int k, const void *a, int lda, const void *tau,
                    void *c, int ldc, void *work, int lwork)
{
    switch (dt) {
    case TSR_FLOAT32: return LAPACKE_sormqr_work(CM, side, trans, m, n, k, a, lda, tau, c, ldc, work, lwork);
    case TSR_FLOAT64: return LAPACKE_dormqr_work(CM, side, trans, m, n, k, a, lda, tau, c, ldc, work, lwork);
    case TSR_COMPLEX64: return LAPACKE_cunmqr_work(CM, side, trans, m, n, k, a, lda, tau, c, ldc, work, lwork);
    default: return LAPACKE_zunmqr_work(CM, side, trans, m, n, k, a, lda, tau, c, ldc, work, lwork);
    }
}

static int batch_mismatch(const char *what, const tsr_tensor *t, int nd)
{
    char s[128];
    fmt_shape(s, sizeof s, nd, t->sizes);
    tsr_error_set(TSR_ERR_RUNTIME, "torch.ormqr: Expected batch dimensions of %s to be equal to input.shape[:-2], but "
                  "got %s", what, s);
    return -1;
}

static int ormqr_checks(const tsr_tensor *a, const tsr_tensor *tau, const tsr_tensor *c, bool left)
{
    if (a->ndim < 2) return tsr_error_set(TSR_ERR_RUNTIME, "torch.ormqr: input must have at least 2 dimensions."), -1;
    if (c->ndim < 2) return tsr_error_set(TSR_ERR_RUNTIME, "torch.ormqr: other must have at least 2 dimensions."), -1;
    int cd = left ? c->ndim - 2 : c->ndim - 1;
    int64_t k = tau->ndim ? tau->sizes[tau->ndim - 1] : 1;
    if (c->sizes[cd] < k)
        return tsr_error_set(TSR_ERR_RUNTIME, "torch.ormqr: other.shape[%d] must be greater than or equal to "
                             "tau.shape[-1]", left ? -2 : -1), -1;
    if (c->sizes[cd] != a->sizes[a->ndim - 2])
        return tsr_error_set(TSR_ERR_RUNTIME, "torch.ormqr: other.shape[%d] must be equal to input.shape[-2]",
                             left ? -2 : -1), -1;
    if (k > a->sizes[a->ndim - 1])
        return tsr_error_set(TSR_ERR_RUNTIME, "torch.ormqr: tau.shape[-1] must be less than or equal to "
                             "input.shape[-1]"), -1;
    if (a->ndim - tau->ndim != 1)
        return tsr_error_set(TSR_ERR_RUNTIME, "torch.ormqr: Expected tau to have one dimension less than input, but "
                             "got tau.ndim equal to %d and input.ndim is equal to %d", tau->ndim, a->ndim), -1;
    if (a->ndim != c->ndim)
        return tsr_error_set(TSR_ERR_RUNTIME, "torch.ormqr: Expected other to have the same number of dimensions as "
                             "input, but got other.ndim equal to %d and input.ndim is equal to %d", c->ndim,
                             a->ndim), -1;
    for (int d = 0; d < a->ndim - 2; d++)
        if (tau->sizes[d] != a->sizes[d]) return batch_mismatch("tau", tau, tau->ndim - 1);
    for (int d = 0; d < a->ndim - 2; d++)
        if (c->sizes[d] != a->sizes[d]) return batch_mismatch("other", c, c->ndim - 2);
    const tsr_tensor *o[2] = {tau, c};
    const char *nm[2] = {"tau", "other"};
    for (int i = 0; i < 2; i++)
        if (o[i]->dtype != a->dtype)
            return tsr_error_set(TSR_ERR_RUNTIME, "torch.ormqr: Expected input and %s to have the same dtype, but "
                                 "input has dtype%s and %s has dtype %s", nm[i], tsr_dtype_scalar_name(a->dtype), nm[i],
                                 tsr_dtype_scalar_name(o[i]->dtype)), -1;
    return 0;
}

int tsr_ormqr_out_check(const tsr_tensor *a, const tsr_tensor *out)
{
    if (!out || out->dtype == a->dtype) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "torch.ormqr: Expected input and result to have the same dtype, but input has "
                  "dtype%s and result has dtype %s", tsr_dtype_scalar_name(a->dtype),
                  tsr_dtype_scalar_name(out->dtype));
    return -1;
}

/* ormqr on the device, composed: orgqr's full Q of the reflectors, then
 * op(Q) @ C or C @ op(Q) (a matmul on cuBLAS: the values of cuSOLVER's
 * ormqr up to rounding), into a column-major copy of C as 1.13's CUDA
 * ormqr writes it. Real dtypes (Q^H needs conjugation, which tsr's CUDA
 * backend lacks). NEW reference. */
static tsr_tensor *dev_ormqr(const tsr_tensor *a, const tsr_tensor *tau, const tsr_tensor *c, bool left,
                             bool transpose)
{
    if (tsr_dtype_is_complex(a->dtype)) {
        tsr_error_no_kernel("aten::ormqr", tsr_device_backend_name(a->device.type), "CPU, Meta");
        return NULL;
    }
    tsr_tensor *r = tsr__la_clone_fmat(c), *aw = r ? tsr__la_clone_fmat(a) : NULL, *q = NULL, *op = NULL, *y = NULL;
    tsr_tensor *tc = aw ? tsr_contiguous(tau, TSR_MF_CONTIGUOUS) : NULL;
    if (!tc) goto fail;
    if (tsr_tensor_numel(r) > 0) {
        if (!(q = tsr__la_dev_full_q(aw, tc, tau->sizes[tau->ndim - 1])) ||
            !(op = transpose ? tsr_view_mT(q) : tsr_tensor_retain(q)) ||
            !(y = left ? tsr_matmul(op, c, NULL) : tsr_matmul(c, op, NULL)) || tsr_copy_(r, y) < 0)
            goto fail;
    }
    tsr_tensor_release(aw);
    tsr_tensor_release(tc);
    tsr_tensor_release(q);
    tsr_tensor_release(op);
    tsr_tensor_release(y);
    return r;
fail:
    tsr_tensor_release(r);
    tsr_tensor_release(aw);
    tsr_tensor_release(tc);
    tsr_tensor_release(q);
    tsr_tensor_release(op);
    tsr_tensor_release(y);
    return NULL;
}

tsr_tensor *tsr_ormqr(const tsr_tensor *a, const tsr_tensor *tau, const tsr_tensor *c, bool left, bool transpose)
{
    if (tsr__la_is_meta(a) || tsr__la_is_meta(tau) || tsr__la_is_meta(c)) return tsr_meta_refused("ormqr"), NULL;
    const tsr_tensor *ts[3] = {a, tau, c};
    const char *const names[3] = {"self", "input2", "input3"};
    if (tsr__blas_device_check("wrapper__ormqr", 3, ts, names) < 0) return NULL;
    if (ormqr_checks(a, tau, c, left) < 0) return NULL;
    bool dev = tsr__la_dev(a);
    if (!tsr__la_lapack_dtype(a->dtype)) return tsr__not_implemented(dev ? "ormqr_cuda" : "ormqr_cpu", a->dtype), NULL;
    if (dev) return dev_ormqr(a, tau, c, left, transpose);
    int nd = c->ndim;
    int64_t m = c->sizes[nd - 2], n = c->sizes[nd - 1], k = tau->sizes[tau->ndim - 1], nb = tsr__la_batch_count(c, 2);
    tsr_tensor *r = tsr__la_clone_fmat(c), *aw = r ? tsr__la_clone_fmat(a) : NULL;
    tsr_tensor *tc = aw ? tsr_contiguous(tau, TSR_MF_CONTIGUOUS) : NULL;
    void *work = NULL;
    if (!tc) goto fail;
    char side = left ? 'L' : 'R', trans = transpose ? (tsr_dtype_is_complex(a->dtype) ? 'C' : 'T') : 'N';
    int lda = (int)(left ? m : n), ldc = (int)m;
    if (lda < 1) lda = 1;
    if (ldc < 1) ldc = 1;
    int64_t asz = a->sizes[a->ndim - 2] * a->sizes[a->ndim - 1];
    if (nb > 0 && m > 0 && n > 0) {
        char wq[16];
        lp_ormqr(a->dtype, side, trans, (int)m, (int)n, (int)k, tsr__la_mat_at(aw, 0, 0), lda, tsr__la_mat_at(tc, 0, 0),
                 tsr__la_mat_at(r, 0, 0), ldc, wq, -1);
        int lw = tsr__la_wk(a->dtype, wq);
        if (!(work = tsr__la_ws(a->dtype, lw))) goto fail;
        for (int64_t i = 0; i < nb; i++) {
            lp_ormqr(a->dtype, side, trans, (int)m, (int)n, (int)k, tsr__la_mat_at(aw, i, asz), lda,
                     tsr__la_mat_at(tc, i, k), tsr__la_mat_at(r, i, m * n), ldc, work, lw);
            if (tsr__la_poll(i, nb) < 0) goto fail;
        }
    }
    tsr_free(work);
    tsr_tensor_release(aw);
    tsr_tensor_release(tc);
    return r;
fail:
    tsr_free(work);
    tsr_tensor_release(r);
    tsr_tensor_release(aw);
    tsr_tensor_release(tc);
    return NULL;
}
