/* runtime/ops/linalg_dev.c — torch.linalg's LAPACK calls on a device whose
 * memory the host cannot read (cuda): each one a record (kernels_linalg.h)
 * for the backend's linalg entry (cuSOLVER on a GPU), over the same
 * column-major batches (tsr__la_empty_fmat) the CPU's LAPACK loops use, so
 * that linalg.c's functions keep one shape of code for both devices and
 * branch only at the call. Infos stay on the device until an error check
 * copies them back, as 1.13's _linalg_check_errors does. */
#include <stdio.h>
#include <string.h>

#include "linalg_dev.h"
#include "blas_cuda.h"
#include "../device.h"
#include "../error.h"
#include "linalg_int.h"
#include "copy.h"
#include "../view.h"

bool tsr__la_dev(const tsr_tensor *t) { return tsr__blas_external(t); }

static int64_t ld(int64_t rows) { return rows > 1 ? rows : 1; }

/* The record's common part for the batch of matrices in a (rows x cols
 * each, empty_fmat layout). */
static tsr_klinalg record(int op, const tsr_tensor *a, int64_t rows, int64_t cols)
{
    tsr_klinalg l;
    memset(&l, 0, sizeof l);
    l.op = op;
    l.dtype = (int32_t)a->dtype;
    l.uplo = 'L';
    l.trans = 'N';
    l.side = 'L';
    l.diag = 'N';
    l.jobz = 'N';
    l.batch = tsr__la_batch_count(a, 2);
    l.a = tsr_tensor_ptr(a, NULL);
    l.lda = ld(rows);
    l.stride_a = rows * cols;
    return l;
}

/* Hands l to the backend of t's device; the dispatcher's "Could not run
 * 'aten::NAME'" where the backend has no linalg entry. */
static int run(const char *name, const tsr_tensor *t, const tsr_klinalg *l)
{
    if (l->batch == 0) return 0;
    const tsr_backend *be = tsr_device_backend(t->device);
    if (!be) return -1;
    if (!be->linalg) {
        char aten[96];
        snprintf(aten, sizeof aten, "aten::%s", name);
        tsr_error_no_kernel(aten, tsr_device_backend_name(t->device.type), "CPU, Meta");
        return -1;
    }
    return be->linalg(l, t->device.index);
}

int tsr__la_dev_getrf(tsr_tensor *lu, tsr_tensor *piv, tsr_tensor *info)
{
    int64_t m = lu->sizes[lu->ndim - 2], n = lu->sizes[lu->ndim - 1];
    tsr_klinalg l = record(TSR_KLA_GETRF, lu, m, n);
    l.m = m;
    l.n = n;
    l.ipiv = tsr_tensor_ptr(piv, NULL);
    l.stride_ipiv = m < n ? m : n;
    l.info = tsr_tensor_ptr(info, NULL);
    return run("linalg_lu_factor_ex", lu, &l);
}

int tsr__la_dev_getrs(tsr_tensor *x, const tsr_tensor *lu, const tsr_tensor *piv, char trans)
{
    int64_t n = x->sizes[x->ndim - 2], k = x->sizes[x->ndim - 1];
    tsr_klinalg l = record(TSR_KLA_GETRS, lu, n, n);
    l.batch = tsr__la_batch_count(x, 2);
    l.n = n;
    l.k = k;
    l.trans = trans;
    l.b = tsr_tensor_ptr(x, NULL);
    l.ldb = ld(n);
    l.stride_b = n * k;
    l.ipiv = tsr_tensor_ptr(piv, NULL);
    l.stride_ipiv = n;
    return run("linalg_lu_solve", x, &l);
}

int tsr__la_dev_potrf(tsr_tensor *a, char uplo, tsr_tensor *info)
{
    int64_t n = a->sizes[a->ndim - 1];
    tsr_klinalg l = record(TSR_KLA_POTRF, a, n, n);
    l.n = n;
    l.uplo = uplo;
    l.info = tsr_tensor_ptr(info, NULL);
    return run("linalg_cholesky_ex", a, &l);
}

int tsr__la_dev_potrs(tsr_tensor *x, const tsr_tensor *f, char uplo)
{
    int64_t n = x->sizes[x->ndim - 2], k = x->sizes[x->ndim - 1];
    tsr_klinalg l = record(TSR_KLA_POTRS, f, n, n);
    l.batch = tsr__la_batch_count(x, 2);
    l.n = n;
    l.k = k;
    l.uplo = uplo;
    l.b = tsr_tensor_ptr(x, NULL);
    l.ldb = ld(n);
    l.stride_b = n * k;
    return run("_cholesky_solve_helper", x, &l);
}

int tsr__la_dev_geqrf(tsr_tensor *a, tsr_tensor *tau)
{
    int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1];
    tsr_klinalg l = record(TSR_KLA_GEQRF, a, m, n);
    l.m = m;
    l.n = n;
    l.w = tsr_tensor_ptr(tau, NULL);
    l.stride_w = m < n ? m : n;
    return run("geqrf", a, &l);
}

int tsr__la_dev_orgqr(tsr_tensor *a, const tsr_tensor *tau, int64_t k)
{
    int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1];
    tsr_klinalg l = record(TSR_KLA_ORGQR, a, m, n);
    l.m = m;
    l.n = n;
    l.k = k;
    l.w = tsr_tensor_ptr(tau, NULL);
    l.stride_w = tau->sizes[tau->ndim - 1];
    return run("linalg_householder_product", a, &l);
}

int tsr__la_dev_syevd(tsr_tensor *a, tsr_tensor *w, char jobz, char uplo, tsr_tensor *info)
{
    int64_t n = a->sizes[a->ndim - 1];
    tsr_klinalg l = record(TSR_KLA_SYEVD, a, n, n);
    l.n = n;
    l.jobz = jobz;
    l.uplo = uplo;
    l.w = tsr_tensor_ptr(w, NULL);
    l.stride_w = n;
    l.info = tsr_tensor_ptr(info, NULL);
    return run("_linalg_eigh", a, &l);
}

int tsr__la_dev_gesvdj(tsr_tensor *a, tsr_tensor *s, tsr_tensor *u, tsr_tensor *v, bool full, tsr_tensor *info)
{
    int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1], k = m < n ? m : n;
    tsr_klinalg l = record(TSR_KLA_GESVDJ, a, m, n);
    l.m = m;
    l.n = n;
    l.k = k;
    l.econ = !full;
    l.w = tsr_tensor_ptr(s, NULL);
    l.stride_w = k;
    l.ldu = ld(m);
    l.ldv = ld(n);
    if (u && v) {
        l.jobz = 'V';
        l.u = tsr_tensor_ptr(u, NULL);
        l.stride_u = m * u->sizes[u->ndim - 1];
        l.v = tsr_tensor_ptr(v, NULL);
        l.stride_v = n * v->sizes[v->ndim - 1];
    }
    l.info = tsr_tensor_ptr(info, NULL);
    return run("_linalg_svd", a, &l);
}

int tsr__la_dev_trsm(tsr_tensor *x, const tsr_tensor *a, bool left, bool upper, char trans, bool unit)
{
    int64_t m = x->sizes[x->ndim - 2], k = x->sizes[x->ndim - 1], n = a->sizes[a->ndim - 1];
    tsr_klinalg l = record(TSR_KLA_TRSM, a, n, n);
    l.batch = tsr__la_batch_count(x, 2);
    l.m = m;
    l.k = k;
    l.n = n;
    l.side = left ? 'L' : 'R';
    l.uplo = upper ? 'U' : 'L';
    l.trans = trans;
    l.diag = unit ? 'U' : 'N';
    l.b = tsr_tensor_ptr(x, NULL);
    l.ldb = ld(m);
    l.stride_b = m * k;
    return run("linalg_solve_triangular", x, &l);
}

/* The full Q (rows x rows) of geqrf's reflectors in qr (rows x cols, tau
 * k a matrix): the reflectors copied into a square batch, then orgqr. */
tsr_tensor *tsr__la_dev_full_q(const tsr_tensor *qr, const tsr_tensor *tau, int64_t k)
{
    int nd = qr->ndim;
    int64_t sz[TSR_MAX_DIMS];
    memcpy(sz, qr->sizes, sizeof *sz * (size_t)nd);
    sz[nd - 1] = sz[nd - 2];
    tsr_tensor *q = tsr__la_empty_fmat(nd, sz, qr->dtype, qr->device), *left = NULL;
    int bad = !q || tsr_zero_(q) < 0 || !(left = tsr_view_narrow(q, -1, 0, qr->sizes[nd - 1])) ||
              tsr_copy_(left, qr) < 0 || tsr__la_dev_orgqr(q, tau, k) < 0;
    tsr_tensor_release(left);
    if (bad) {
        tsr_tensor_release(q);
        return NULL;
    }
    return q;
}
