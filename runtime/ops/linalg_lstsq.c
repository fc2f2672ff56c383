/* runtime/ops/linalg_lstsq.c — torch.linalg.lstsq as 1.13's
 * linalg_lstsq_out_info computes it (BatchLinearAlgebra.cpp): the LAPACK
 * driver (gelsy by default on the CPU, gels, gelsd, gelss) on a column-major
 * copy of A and a column-major max(m, n) x nrhs copy of B, one batch element
 * at a time; rank for every driver but gels, singular values for gelsd and
 * gelss, residuals (the squared tail rows of the solution summed) when
 * m > n and the driver is not gelsy (gelsd / gelss only at full rank). */
#include <ctype.h>
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "linalg.h"
#include "binary.h"
#include "copy.h"
#include "factory.h"
#include "reduce.h"
#include "scatter.h"
#include "unary.h"
#include "../error.h"
#include "../internal.h"
#include "../view.h"
#include "linalg_int.h"
#include "linalg_dev.h"
#include "blas.h"
#include "blas_cuda.h"

typedef enum { D_GELS, D_GELSY, D_GELSD, D_GELSS } lstsq_driver;

/* One driver call (lwork -1: the workspace query into work, rwork, iwork). */
static int lp_lstsq(tsr_dtype dt, lstsq_driver drv, int m, int n, int nrhs, void *a, int lda, void *b, int ldb,
                    int *jpvt, double rcond, int *rank, void *s, void *work, int lwork, void *rwork, int *iwork)
{
    float rf = (float)rcond;
    switch (drv) {
    case D_GELS:
        switch (dt) {
        case TSR_FLOAT32: return LAPACKE_sgels_work(CM, 'N', m, n, nrhs, a, lda, b, ldb, work, lwork);
        case TSR_FLOAT64: return LAPACKE_dgels_work(CM, 'N', m, n, nrhs, a, lda, b, ldb, work, lwork);
        case TSR_COMPLEX64: return LAPACKE_cgels_work(CM, 'N', m, n, nrhs, a, lda, b, ldb, work, lwork);
        default: return LAPACKE_zgels_work(CM, 'N', m, n, nrhs, a, lda, b, ldb, work, lwork);
        }
    case D_GELSY:
        switch (dt) {
        case TSR_FLOAT32: return LAPACKE_sgelsy_work(CM, m, n, nrhs, a, lda, b, ldb, jpvt, rf, rank, work, lwork);
        case TSR_FLOAT64: return LAPACKE_dgelsy_work(CM, m, n, nrhs, a, lda, b, ldb, jpvt, rcond, rank, work, lwork);
        case TSR_COMPLEX64:
            return LAPACKE_cgelsy_work(CM, m, n, nrhs, a, lda, b, ldb, jpvt, rf, rank, work, lwork, rwork);
        default: return LAPACKE_zgelsy_work(CM, m, n, nrhs, a, lda, b, ldb, jpvt, rcond, rank, work, lwork, rwork);
        }
    case D_GELSD:
        switch (dt) {
        case TSR_FLOAT32: return LAPACKE_sgelsd_work(CM, m, n, nrhs, a, lda, b, ldb, s, rf, rank, work, lwork, iwork);
        case TSR_FLOAT64:
            return LAPACKE_dgelsd_work(CM, m, n, nrhs, a, lda, b, ldb, s, rcond, rank, work, lwork, iwork);
        case TSR_COMPLEX64:
            return LAPACKE_cgelsd_work(CM, m, n, nrhs, a, lda, b, ldb, s, rf, rank, work, lwork, rwork, iwork);
        default: return LAPACKE_zgelsd_work(CM, m, n, nrhs, a, lda, b, ldb, s, rcond, rank, work, lwork, rwork, iwork);
        }
    default:
        switch (dt) {
        case TSR_FLOAT32: return LAPACKE_sgelss_work(CM, m, n, nrhs, a, lda, b, ldb, s, rf, rank, work, lwork);
        case TSR_FLOAT64: return LAPACKE_dgelss_work(CM, m, n, nrhs, a, lda, b, ldb, s, rcond, rank, work, lwork);
        case TSR_COMPLEX64:
            return LAPACKE_cgelss_work(CM, m, n, nrhs, a, lda, b, ldb, s, rf, rank, work, lwork, rwork);
        default: return LAPACKE_zgelss_work(CM, m, n, nrhs, a, lda, b, ldb, s, rcond, rank, work, lwork, rwork);
        }
    }
}

static int parse_driver(const char *name, lstsq_driver *d)
{
    char low[16];
    size_t n = name ? strlen(name) : 0;
    *d = D_GELSY;
    if (!name) return 0;
    for (size_t i = 0; i < n && i < sizeof low - 1; i++) low[i] = (char)tolower((unsigned char)name[i]);
    low[n < sizeof low - 1 ? n : sizeof low - 1] = 0;
    if (n < sizeof low) {
        if (!strcmp(low, "gels")) return *d = D_GELS, 0;
        if (!strcmp(low, "gelsy")) return *d = D_GELSY, 0;
        if (!strcmp(low, "gelsd")) return *d = D_GELSD, 0;
        if (!strcmp(low, "gelss")) return *d = D_GELSS, 0;
    }
    tsr_error_set(TSR_ERR_RUNTIME, "torch.linalg.lstsq: parameter `driver` should be one of "
                  "(gels, gelsy, gelsd, gelss)");
    return -1;
}

/* the index into a's batch (nda dims, right-aligned in the broadcast batch
 * bs of nb dims) of broadcast batch element i */
static int64_t a_index(int64_t i, int nb, const int64_t *bs, int nda, const int64_t *as)
{
    int64_t idx = 0, mul = 1;
    for (int d = nb - 1; d >= 0; d--) {
        int64_t c = i % bs[d];
        i /= bs[d];
        int ad = d - (nb - nda);
        if (ad >= 0) {
            idx += (as[ad] == 1 ? 0 : c) * mul;
            mul *= as[ad];
        }
    }
    return idx;
}

static int lstsq_checks(const tsr_tensor *a, const tsr_tensor *b)
{
    if (a->ndim < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.linalg.lstsq: input must have at least 2 dimensions.");
        return -1;
    }
    if (b->ndim < 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.linalg.lstsq: other must have at least 1 dimension.");
        return -1;
    }
    if (a->dtype != b->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.linalg.lstsq: Expected input and other to have the same dtype, but got "
                      "input's dtype %s and other's dtype %s", tsr_dtype_scalar_name(a->dtype),
                      tsr_dtype_scalar_name(b->dtype));
        return -1;
    }
    int diff = a->ndim - b->ndim;
    if (diff < 0 || diff > 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.linalg.lstsq: input.dim() must be greater or equal to other.dim() and "
                      "(input.dim() - other.dim()) <= 1");
        return -1;
    }
    if (a->sizes[a->ndim - 2] != (diff ? b->sizes[b->ndim - 1] : b->sizes[b->ndim - 2])) {
        tsr_error_set(TSR_ERR_RUNTIME, diff ? "torch.linalg.lstsq: input.size(-2) should match other.size(-1)"
                                            : "torch.linalg.lstsq: input.size(-2) should match other.size(-2)");
        return -1;
    }
    return 0;
}

static bool vector_case(const tsr_tensor *a, const tsr_tensor *b)
{
    if (b->ndim == 1) return true;
    if (b->ndim != a->ndim - 1) return false;
    for (int d = 0; d < b->ndim; d++)
        if (b->sizes[d] != a->sizes[d]) return false;
    return true;
}

/* the batched column-major max(m, n) x nrhs solution buffer holding B */
static tsr_tensor *solution_buffer(const tsr_tensor *a, const tsr_tensor *b2, bool vec, int *nb, int64_t *bs)
{
    int na = a->ndim - 2, nbb = b2->ndim - 2;
    *nb = na > nbb ? na : nbb;
    for (int i = 0; i < *nb; i++) {
        int ia = na - *nb + i, ib = nbb - *nb + i;
        int64_t sa = ia >= 0 ? a->sizes[ia] : 1, sb = ib >= 0 ? b2->sizes[ib] : 1;
        if (sa != sb && sa != 1 && sb != 1) {
            tsr_error_set(TSR_ERR_RUNTIME, "The size of tensor a (%ld) must match the size of tensor b (%ld) at "
                          "non-singleton dimension %d", (long)sa, (long)sb, i);
            return NULL;
        }
        bs[i] = sa == 1 ? sb : sa;
    }
    int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1], k = m > n ? m : n;
    int64_t nrhs = b2->sizes[b2->ndim - 1], sz[TSR_MAX_DIMS];
    memcpy(sz, bs, sizeof *sz * (size_t)*nb);
    sz[*nb] = k;
    sz[*nb + 1] = nrhs;
    tsr_tensor *s = vec ? tsr_zeros(*nb + 2, sz, a->dtype, a->device) : NULL;
    if (!vec) {   /* (batch, nrhs, k) contiguous, transposed */
        int64_t st[TSR_MAX_DIMS];
        tsr_strides_contiguous(*nb + 2, sz, st);
        st[*nb] = 1;
        st[*nb + 1] = k;
        int64_t acc = k * nrhs;
        for (int d = *nb - 1; d >= 0; d--) {
            st[d] = acc;
            acc *= sz[d];
        }
        s = tsr_tensor_empty_strided(*nb + 2, sz, st, a->dtype, a->device);
        if (s && tsr_zero_(s) < 0) {
            tsr_tensor_release(s);
            return NULL;
        }
    }
    if (!s) return NULL;
    tsr_tensor *top = tsr_view_narrow(s, -2, 0, m);
    int rc = top ? tsr_copy_(top, b2) : -1;
    tsr_tensor_release(top);
    if (rc < 0) {
        tsr_tensor_release(s);
        return NULL;
    }
    return s;
}

/* residuals of the solution buffer x (rows n..m-1 squared, summed over -2) */
static tsr_tensor *residuals(tsr_tensor *x, int64_t m, int64_t n)
{
    tsr_tensor *raw = tsr_view_narrow(x, -2, n, m - n), *sq = NULL, *re = NULL, *r = NULL;
    if (!raw) return NULL;
    tsr_operand two = tsr_operand_scalar(tsr_scalar_int(2));
    if (tsr_dtype_is_complex(raw->dtype)) {
        tsr_tensor *c = tsr_tensor_retain(raw), *cj = tsr_conj(c);
        tsr_operand co = tsr_operand_tensor(cj);
        if (cj) sq = tsr_binary_(TSR_BINOP_MUL, raw, &co, NULL);
        tsr_tensor_release(cj);
        tsr_tensor_release(c);
        if (sq) re = tsr_view_real(raw);
    } else if ((sq = tsr_binary_(TSR_BINOP_POW, raw, &two, NULL))) {
        re = tsr_tensor_retain(raw);
    }
    tsr_dims d = {.n = 1, .d = {-2}};
    if (re) r = tsr_sum(re, &d, false, tsr_dtype_to_real(x->dtype), NULL);
    tsr_tensor_release(sq);
    tsr_tensor_release(re);
    tsr_tensor_release(raw);
    return r;
}

/* a expanded to the batch bs (nb dims) with its own last two dims, as a
 * column-major copy; t: its conjugate transpose instead. NEW reference. */
static tsr_tensor *batch_fmat(const tsr_tensor *a, int nb, const int64_t *bs, bool t)
{
    int64_t sz[TSR_MAX_DIMS];
    tsr_tensor *src = t ? tsr_view_mT(a) : tsr_tensor_retain((tsr_tensor *)a);
    if (!src) return NULL;
    memcpy(sz, bs, sizeof *sz * (size_t)nb);
    sz[nb] = src->sizes[src->ndim - 2];
    sz[nb + 1] = src->sizes[src->ndim - 1];
    tsr_tensor *e = tsr_view_expand(src, nb + 2, sz), *r = e ? tsr__la_clone_fmat(e) : NULL;
    tsr_tensor_release(src);
    tsr_tensor_release(e);
    return r;
}

/* x[..., :rows, :] := f (a copy back into the solution buffer). */
static int put_rows(tsr_tensor *x, const tsr_tensor *f, int64_t rows)
{
    tsr_tensor *top = tsr_view_narrow(x, -2, 0, rows);
    int rc = top ? tsr_copy_(top, f) : -1;
    tsr_tensor_release(top);
    return rc;
}

/* linalg_lstsq_gels of 1.13's CUDA (BatchLinearAlgebra.cpp): m >= n: A =
 * QR (geqrf), B <- Q^H B, R X = B (trsm); m < n: A^H = QR, R^H Z = B, X =
 * Q [Z; 0]. ormqr's product with Q is composed as orgqr's full Q and a
 * matmul (the same values up to rounding). No info check, as on CUDA:
 * a rank-deficient A gives inf or nan. x: the max(m, n) x nrhs solution
 * buffer holding B (batch bs, nb dims). Real dtypes. */
static int dev_gels(const tsr_tensor *a, tsr_tensor *x, int nb, const int64_t *bs)
{
    int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1], mn = m < n ? m : n, sz[TSR_MAX_DIMS];
    bool tall = m >= n;
    tsr_tensor *f = batch_fmat(a, nb, bs, !tall), *tau = NULL, *q = NULL, *r = NULL, *rv = NULL, *xv = NULL,
               *z = NULL, *qt = NULL, *y = NULL;
    int rc = -1;
    memcpy(sz, bs, sizeof *sz * (size_t)nb);
    sz[nb] = mn;
    if (!f || !(tau = tsr_tensor_empty(nb + 1, sz, a->dtype, a->device)) || tsr__la_dev_geqrf(f, tau) < 0 ||
        !(q = tsr__la_dev_full_q(f, tau, mn)))
        goto done;
    /* R: the leading mn x mn block of the factored matrix */
    if (!(rv = tsr_view_narrow(f, -2, 0, mn)) || !(r = tsr__la_clone_fmat(rv))) goto done;
    if (tall) {   /* x[:m] = Q^T x[:m]; R x[:n] = x[:n] */
        if (!(xv = tsr_view_narrow(x, -2, 0, m)) || !(qt = tsr_view_mT(q)) || !(y = tsr_matmul(qt, xv, NULL)) ||
            put_rows(x, y, m) < 0)
            goto done;
        tsr_tensor_release(xv);
        if (!(xv = tsr_view_narrow(x, -2, 0, n)) || !(z = tsr__la_clone_fmat(xv)) ||
            tsr__la_dev_trsm(z, r, true, true, 'N', false) < 0 || put_rows(x, z, n) < 0)
            goto done;
    } else {   /* R^T z = x[:m]; x[:n] = Q [z; 0] */
        if (!(xv = tsr_view_narrow(x, -2, 0, m)) || !(z = tsr__la_clone_fmat(xv)) ||
            tsr__la_dev_trsm(z, r, true, true, 'T', false) < 0 || put_rows(x, z, m) < 0)
            goto done;
        tsr_tensor *tail = tsr_view_narrow(x, -2, m, n - m);
        int bad = !tail || tsr_zero_(tail) < 0;
        tsr_tensor_release(tail);
        if (bad || !(y = tsr_matmul(q, x, NULL)) || put_rows(x, y, n) < 0) goto done;
    }
    rc = 0;
done:;
    tsr_tensor *all[] = {f, tau, q, r, rv, xv, z, qt, y};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) tsr_tensor_release(all[i]);
    return rc;
}

int tsr_linalg_lstsq(const tsr_tensor *a, const tsr_tensor *b, bool has_rcond, double rcond, const char *driver,
                     tsr_tensor **solution, tsr_tensor **resid, tsr_tensor **rank, tsr_tensor **sv)
{
    *solution = *resid = *rank = *sv = NULL;
    if (tsr__la_is_meta(a) || tsr__la_is_meta(b)) return tsr_meta_refused("linalg_lstsq.out");
    bool dev = tsr__la_dev(a) || tsr__la_dev(b);
    if (dev) {
        const tsr_tensor *ts[2] = {a, b};
        const char *const names[2] = {"self", "b"};
        if (tsr__blas_device_check("wrapper_out_linalg_lstsq_out", 2, ts, names) < 0) return -1;
    }
    if (lstsq_checks(a, b) < 0) return -1;
    lstsq_driver drv;
    if (dev) {   /* get_default_lstsq_driver: gels, the only one on CUDA */
        char low[8] = "";
        size_t n = driver ? strlen(driver) : 0;
        for (size_t i = 0; i < n && i < sizeof low - 1; i++) low[i] = (char)tolower((unsigned char)driver[i]);
        if (driver && (n >= sizeof low || strcmp(low, "gels"))) {
            tsr_error_set(TSR_ERR_RUNTIME, "torch.linalg.lstsq: `driver` other than `gels` is not supported on CUDA");
            return -1;
        }
        drv = D_GELS;
    } else if (parse_driver(driver, &drv) < 0) {
        return -1;
    }
    tsr_dtype dt = a->dtype, rdt = tsr_dtype_to_real(dt);
    int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1];
    if (!has_rcond) {
        if (rdt != TSR_FLOAT32 && rdt != TSR_FLOAT64) {
            tsr_error_set(TSR_ERR_RUNTIME, "This function doesn't handle types other than float and double");
            return -1;
        }
        rcond = (rdt == TSR_FLOAT32 ? FLT_EPSILON : DBL_EPSILON) * (double)(m > n ? m : n);
    }
    if (!tsr__la_lapack_dtype(dt)) return tsr__not_implemented(dev ? "linalg_lstsq_cuda" : "linalg_lstsq_cpu", dt);
    if (dev && tsr_dtype_is_complex(dt)) {   /* Q^H needs conjugation, which tsr's CUDA backend lacks */
        tsr_error_no_kernel("aten::linalg_lstsq.out", tsr_device_backend_name(a->device.type), "CPU, Meta");
        return -1;
    }
    bool vec = vector_case(a, b);
    tsr_tensor *b2 = vec ? tsr_view_unsqueeze(b, -1) : tsr_view_alias(b);
    if (!b2) return -1;
    int nb;
    int64_t bs[TSR_MAX_DIMS];
    tsr_tensor *x = solution_buffer(a, b2, vec, &nb, bs), *aw = NULL, *rk = NULL, *s = NULL, *info = NULL;
    int64_t nrhs = b2->sizes[b2->ndim - 1], mn = m < n ? m : n, sz[TSR_MAX_DIMS], zero = 0;
    tsr_tensor_release(b2);
    if (!x) return -1;
    int nda = a->ndim - 2;
    memcpy(sz, a->sizes, sizeof *sz * (size_t)nda);
    sz[nda] = mn;
    rk = drv != D_GELS ? tsr_zeros(nda, sz, TSR_INT64, a->device) : tsr_tensor_empty(1, &zero, TSR_INT64, a->device);
    s = drv == D_GELSD || drv == D_GELSS ? tsr_zeros(nda + 1, sz, rdt, a->device)
                                         : tsr_tensor_empty(1, &zero, rdt, a->device);
    int64_t na = tsr__la_batch_count(a, 2), ni = na > 1 ? na : 1;
    info = tsr_zeros(1, &ni, TSR_INT32, a->device);
    aw = tsr__la_clone_fmat(a);
    int rc = rk && s && info && aw ? 0 : -1;
    int64_t nbatch = 1;
    for (int d = 0; d < nb; d++) nbatch *= bs[d];
    int lda = m > 1 ? (int)m : 1, ldb = (int)(m > n ? m : n);
    if (ldb < 1) ldb = 1;
    int *jpvt = NULL, *iwork = NULL, r32 = 0;
    void *work = NULL, *rwork = NULL;
    if (rc == 0 && nbatch > 0 && dev) {
        rc = dev_gels(a, x, nb, bs);
    } else if (rc == 0 && nbatch > 0) {
        int esz = tsr_dtype_itemsize(dt);
        char wq[16], rq[16];
        int iq = 0;
        /* gelsy's jpvt: 1.13 passes at::empty memory, so its pivoting depends on
         * what the allocator hands out (the same call can print differently);
         * every column fixed (QR without pivoting) is what a fresh 1.13 does */
        jpvt = tsr_calloc(1, sizeof *jpvt * (size_t)(n > 1 ? n : 1));
        for (int64_t j = 0; jpvt && j < n; j++) jpvt[j] = 1;
        memset(rq, 0, sizeof rq);
        /* the query (on the first matrices; sizes alone matter) */
        if (jpvt)
            lp_lstsq(dt, drv, (int)m, (int)n, (int)nrhs, tsr_tensor_ptr(aw, NULL), lda, tsr_tensor_ptr(x, NULL), ldb,
                     jpvt, rcond, &r32, tsr_tensor_ptr(s, NULL), wq, -1, rq, &iq);
        int lwork = jpvt ? tsr__la_wk(dt, wq) : 1;
        int64_t lrwork = drv == D_GELSY ? 2 * n : drv == D_GELSS ? 5 * mn : (int64_t)tsr__la_wk(rdt, rq);
        int liwork = iq > 1 ? iq : 1;
        if (!jpvt || !(work = tsr__la_ws(dt, lwork)) ||
            !(rwork = tsr_calloc(1, (size_t)esz * (size_t)(lrwork > 1 ? lrwork : 1))) ||
            !(iwork = tsr_calloc(1, sizeof *iwork * (size_t)liwork)))
            rc = -1;
        int32_t *ip = tsr_tensor_ptr(info, NULL);
        int64_t *rp = drv != D_GELS ? tsr_tensor_ptr(rk, NULL) : NULL;
        char *sp = drv == D_GELSD || drv == D_GELSS ? tsr_tensor_ptr(s, NULL) : NULL;
        for (int64_t i = 0; rc == 0 && i < nbatch; i++) {
            int64_t ia = a_index(i, nb, bs, nda, a->sizes);
            void *am = tsr__la_mat_at(aw, ia, m * n);
            char *xp = tsr_tensor_ptr(x, NULL);
            void *bm = xp ? xp + i * ldb * nrhs * esz : NULL;
            void *si = sp ? sp + ia * mn * tsr_dtype_itemsize(rdt) : NULL;
            int inf = lp_lstsq(dt, drv, (int)m, (int)n, (int)nrhs, am, lda, bm, ldb, jpvt, rcond, &r32, si, work, lwork,
                               rwork, iwork);
            ip[ia] = inf;
            if (rp) rp[ia] = r32;
            rc = tsr__la_poll(i, nbatch);
        }
    }
    tsr_free(jpvt);
    tsr_free(work);
    tsr_free(rwork);
    tsr_free(iwork);
    if (rc == 0 && !dev) rc = tsr_linalg_check_errors(info, "torch.linalg.lstsq", tsr_tensor_numel(info) <= 1);
    tsr_tensor *res = NULL;
    if (rc == 0 && m > n && drv != D_GELSY) {
        bool full = true;
        if (drv == D_GELSD || drv == D_GELSS) {
            int64_t tot = 0, nr = tsr_tensor_numel(rk);
            const int64_t *rp = nr ? tsr_tensor_ptr(rk, NULL) : NULL;
            for (int64_t i = 0; i < nr; i++) tot += rp[i];
            full = a->ndim == 2 ? (nr && rp[0] == n) : tot == n * na;
        }
        if (full && !(res = residuals(x, m, n))) rc = -1;
    }
    if (rc == 0 && !res) res = tsr_tensor_empty(1, &zero, rdt, a->device);
    tsr_tensor *sol = rc == 0 && res ? tsr_view_narrow(x, -2, 0, n) : NULL;
    if (sol && vec) {
        tsr_tensor *q = tsr_view_squeeze_dim(sol, -1);
        tsr_tensor_release(sol);
        sol = q;
    }
    tsr_tensor_release(x);
    tsr_tensor_release(aw);
    tsr_tensor_release(info);
    if (!sol) {
        tsr_tensor_release(res);
        tsr_tensor_release(rk);
        tsr_tensor_release(s);
        return -1;
    }
    *solution = sol;
    *resid = res;
    *rank = rk;
    *sv = s;
    return 0;
}
