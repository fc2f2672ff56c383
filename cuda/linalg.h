/* cuda/linalg.h — the backend's dense factorizations (runtime/
 * kernels_linalg.h): cuSOLVER's getrf, getrs, potrf, potrs, geqrf, orgqr
 * (ungqr), syevd (heevd) and gesvdj, and cuBLAS's trsm, one call a matrix
 * over the batch on the default stream (PyTorch batches some of them with
 * cuSOLVER's batched APIs; the values are the same routines'), one cuSOLVER
 * handle per device, workspaces from the caching allocator, infos written
 * in device memory. Included by backend.cu after its allocator and gemm.
 *
 * In the simulator (TSR_CUDA_SIM) each of those calls is emulated by the
 * LAPACK routine it stands for (LAPACKE over OpenBLAS; gesvdj by gesdd,
 * whose V^H is written transposed as gesvdj's V) on the simulated device
 * memory the host cannot otherwise touch. */

/* cuSOLVER and cuBLAS take int sizes. */
static int la_check_args(const tsr_klinalg *l)
{
    const int64_t v[] = {l->m, l->n, l->k, l->lda, l->ldb, l->ldu, l->ldv};
    for (int i = 0; i < 7; i++)
        if (v[i] < 0 || v[i] > INT_MAX) {
            fail("tsr's CUDA backend: a matrix dimension does not fit cuSOLVER's int");
            return -1;
        }
    if (l->op < 0 || l->op >= TSR_KLA_COUNT ||
        (l->dtype != TSR_KD_FLOAT32 && l->dtype != TSR_KD_FLOAT64 && l->dtype != TSR_KD_COMPLEX64 &&
         l->dtype != TSR_KD_COMPLEX128)) {
        fail("tsr's CUDA backend has no such factorization");
        return -1;
    }
    return 0;
}

#ifdef TSR_CUDA_SIM
#include <complex>
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>

typedef std::complex<float> la_c;
typedef std::complex<double> la_z;

/* One LAPACKE routine by dtype: S, D, C, Z are the four calls. */
#define LA_BY_DTYPE(dt, S, D, C, Z)       \
    switch (dt) {                         \
    case TSR_KD_FLOAT32: S; break;        \
    case TSR_KD_FLOAT64: D; break;        \
    case TSR_KD_COMPLEX64: C; break;      \
    default: Z; break;                    \
    }

#define LA_AT(T, p, i, s) (sim_host((T *)(p)) + (i) * (s))

/* gesdd's V^H (vr x n, leading dimension ldvt) as gesvdj's V (n x vr, ldv). */
template <typename T> static void la_sim_adjoint(const T *vt, int64_t ldvt, T *v, int64_t ldv, int64_t vr, int64_t n)
{
    for (int64_t r = 0; r < vr; r++)
        for (int64_t c = 0; c < n; c++) v[r * ldv + c] = std::conj(vt[c * ldvt + r]);
}
static float la_conj1(float x) { return x; }
static double la_conj1(double x) { return x; }
template <> void la_sim_adjoint<float>(const float *vt, int64_t ldvt, float *v, int64_t ldv, int64_t vr, int64_t n)
{
    for (int64_t r = 0; r < vr; r++)
        for (int64_t c = 0; c < n; c++) v[r * ldv + c] = la_conj1(vt[c * ldvt + r]);
}
template <> void la_sim_adjoint<double>(const double *vt, int64_t ldvt, double *v, int64_t ldv, int64_t vr, int64_t n)
{
    for (int64_t r = 0; r < vr; r++)
        for (int64_t c = 0; c < n; c++) v[r * ldv + c] = la_conj1(vt[c * ldvt + r]);
}

template <typename T, typename R>
static int la_sim_gesvdj(const tsr_klinalg *l, int64_t i, int (*gesdd)(int, char, int, int, T *, int, R *, T *, int,
                                                                     T *, int))
{
    int m = (int)l->m, n = (int)l->n, k = m < n ? m : n;
    bool uv = l->jobz == 'V';
    int vr = uv ? (l->econ ? k : n) : 1, ldvt = vr > 1 ? vr : 1;
    T dummy[1];
    T *vt = uv ? (T *)malloc(sizeof(T) * (size_t)ldvt * (size_t)(n > 0 ? n : 1)) : dummy;
    if (!vt) { fail("CUDA error: out of memory"); return -1; }
    T *u = uv ? LA_AT(T, l->u, i, l->stride_u) : dummy;
    int info = gesdd(LAPACK_COL_MAJOR, uv ? (l->econ ? 'S' : 'A') : 'N', m, n, LA_AT(T, l->a, i, l->stride_a),
                     (int)l->lda, LA_AT(R, l->w, i, l->stride_w), u, uv ? (int)l->ldu : 1, vt, ldvt);
    if (uv) {
        la_sim_adjoint<T>(vt, ldvt, LA_AT(T, l->v, i, l->stride_v), l->ldv, vr, n);
        free(vt);
    }
    if (l->info) sim_host(l->info)[i] = info;
    return 0;
}

static int la_sim_one(const tsr_klinalg *l, int64_t i)
{
    int m = (int)l->m, n = (int)l->n, k = (int)l->k, lda = (int)l->lda, ldb = (int)l->ldb, info = 0;
    const int CM = LAPACK_COL_MAJOR;
    int32_t *ip = l->ipiv ? sim_host(l->ipiv) + i * l->stride_ipiv : NULL;
#define A_(T) LA_AT(T, l->a, i, l->stride_a)
#define B_(T) LA_AT(T, l->b, i, l->stride_b)
#define W_(T) LA_AT(T, l->w, i, l->stride_w)
    switch (l->op) {
    case TSR_KLA_GETRF:
        LA_BY_DTYPE(l->dtype, info = LAPACKE_sgetrf(CM, m, n, A_(float), lda, ip),
                    info = LAPACKE_dgetrf(CM, m, n, A_(double), lda, ip),
                    info = LAPACKE_cgetrf(CM, m, n, A_(la_c), lda, ip),
                    info = LAPACKE_zgetrf(CM, m, n, A_(la_z), lda, ip))
        break;
    case TSR_KLA_GETRS:
        LA_BY_DTYPE(l->dtype, info = LAPACKE_sgetrs(CM, l->trans, n, k, A_(float), lda, ip, B_(float), ldb),
                    info = LAPACKE_dgetrs(CM, l->trans, n, k, A_(double), lda, ip, B_(double), ldb),
                    info = LAPACKE_cgetrs(CM, l->trans, n, k, A_(la_c), lda, ip, B_(la_c), ldb),
                    info = LAPACKE_zgetrs(CM, l->trans, n, k, A_(la_z), lda, ip, B_(la_z), ldb))
        break;
    case TSR_KLA_POTRF:
        LA_BY_DTYPE(l->dtype, info = LAPACKE_spotrf(CM, l->uplo, n, A_(float), lda),
                    info = LAPACKE_dpotrf(CM, l->uplo, n, A_(double), lda),
                    info = LAPACKE_cpotrf(CM, l->uplo, n, A_(la_c), lda),
                    info = LAPACKE_zpotrf(CM, l->uplo, n, A_(la_z), lda))
        break;
    case TSR_KLA_POTRS:
        LA_BY_DTYPE(l->dtype, info = LAPACKE_spotrs(CM, l->uplo, n, k, A_(float), lda, B_(float), ldb),
                    info = LAPACKE_dpotrs(CM, l->uplo, n, k, A_(double), lda, B_(double), ldb),
                    info = LAPACKE_cpotrs(CM, l->uplo, n, k, A_(la_c), lda, B_(la_c), ldb),
                    info = LAPACKE_zpotrs(CM, l->uplo, n, k, A_(la_z), lda, B_(la_z), ldb))
        break;
    case TSR_KLA_GEQRF:
        LA_BY_DTYPE(l->dtype, info = LAPACKE_sgeqrf(CM, m, n, A_(float), lda, W_(float)),
                    info = LAPACKE_dgeqrf(CM, m, n, A_(double), lda, W_(double)),
                    info = LAPACKE_cgeqrf(CM, m, n, A_(la_c), lda, W_(la_c)),
                    info = LAPACKE_zgeqrf(CM, m, n, A_(la_z), lda, W_(la_z)))
        break;
    case TSR_KLA_ORGQR:
        LA_BY_DTYPE(l->dtype, info = LAPACKE_sorgqr(CM, m, n, k, A_(float), lda, W_(float)),
                    info = LAPACKE_dorgqr(CM, m, n, k, A_(double), lda, W_(double)),
                    info = LAPACKE_cungqr(CM, m, n, k, A_(la_c), lda, W_(la_c)),
                    info = LAPACKE_zungqr(CM, m, n, k, A_(la_z), lda, W_(la_z)))
        break;
    case TSR_KLA_SYEVD:
        LA_BY_DTYPE(l->dtype, info = LAPACKE_ssyevd(CM, l->jobz, l->uplo, n, A_(float), lda, W_(float)),
                    info = LAPACKE_dsyevd(CM, l->jobz, l->uplo, n, A_(double), lda, W_(double)),
                    info = LAPACKE_cheevd(CM, l->jobz, l->uplo, n, A_(la_c), lda, W_(float)),
                    info = LAPACKE_zheevd(CM, l->jobz, l->uplo, n, A_(la_z), lda, W_(double)))
        break;
    case TSR_KLA_GESVDJ:
        switch (l->dtype) {
        case TSR_KD_FLOAT32: return la_sim_gesvdj<float, float>(l, i, LAPACKE_sgesdd);
        case TSR_KD_FLOAT64: return la_sim_gesvdj<double, double>(l, i, LAPACKE_dgesdd);
        case TSR_KD_COMPLEX64: return la_sim_gesvdj<la_c, float>(l, i, LAPACKE_cgesdd);
        default: return la_sim_gesvdj<la_z, double>(l, i, LAPACKE_zgesdd);
        }
    case TSR_KLA_TRSM: {
        CBLAS_SIDE sd = l->side == 'L' ? CblasLeft : CblasRight;
        CBLAS_UPLO ul = l->uplo == 'U' ? CblasUpper : CblasLower;
        CBLAS_TRANSPOSE tr = l->trans == 'N' ? CblasNoTrans : l->trans == 'T' ? CblasTrans : CblasConjTrans;
        CBLAS_DIAG dg = l->diag == 'U' ? CblasUnit : CblasNonUnit;
        la_c c1 = 1;
        la_z z1 = 1;
        LA_BY_DTYPE(l->dtype, cblas_strsm(CblasColMajor, sd, ul, tr, dg, m, k, 1.0f, A_(float), lda, B_(float), ldb),
                    cblas_dtrsm(CblasColMajor, sd, ul, tr, dg, m, k, 1.0, A_(double), lda, B_(double), ldb),
                    cblas_ctrsm(CblasColMajor, sd, ul, tr, dg, m, k, &c1, A_(la_c), lda, B_(la_c), ldb),
                    cblas_ztrsm(CblasColMajor, sd, ul, tr, dg, m, k, &z1, A_(la_z), lda, B_(la_z), ldb))
        return 0;
    }
    default: break;
    }
#undef A_
#undef B_
#undef W_
    if (l->info) sim_host(l->info)[i] = info;
    return 0;
}

static int linalg(const tsr_klinalg *l, int index)
{
    if (set_device(index) < 0 || la_check_args(l) < 0) return -1;
    /* cuSOLVER computes NaN inputs; LAPACKE's own NaN check would refuse them */
    LAPACKE_set_nancheck(0);
    for (int64_t i = 0; i < l->batch; i++)
        if (la_sim_one(l, i) < 0) return -1;
    return 0;
}
#else
#include <cusolverDn.h>

static cusolverDnHandle_t solver_handles[MAX_DEVICES];

/* at::cuda::solver's message: "cusolver error: NAME, when calling `CALL`". */
static int solver_check(cusolverStatus_t st, const char *call)
{
    if (st == CUSOLVER_STATUS_SUCCESS) return 0;
    const char *name = "CUSOLVER_STATUS_INTERNAL_ERROR";
    switch (st) {
    case CUSOLVER_STATUS_NOT_INITIALIZED: name = "CUSOLVER_STATUS_NOT_INITIALIZED"; break;
    case CUSOLVER_STATUS_ALLOC_FAILED: name = "CUSOLVER_STATUS_ALLOC_FAILED"; break;
    case CUSOLVER_STATUS_INVALID_VALUE: name = "CUSOLVER_STATUS_INVALID_VALUE"; break;
    case CUSOLVER_STATUS_ARCH_MISMATCH: name = "CUSOLVER_STATUS_ARCH_MISMATCH"; break;
    case CUSOLVER_STATUS_EXECUTION_FAILED: name = "CUSOLVER_STATUS_EXECUTION_FAILED"; break;
    case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED: name = "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED"; break;
    default: break;
    }
    char msg[256];
    snprintf(msg, sizeof msg, "cusolver error: %s, when calling `%s`", name, call);
    fail(msg);
    return -1;
}

/* The device's cuSOLVER handle (current device set), on the default stream. */
static cusolverDnHandle_t solver_handle(int index)
{
    pthread_mutex_lock(&lock);
    cusolverDnHandle_t h = solver_handles[index];
    if (!h) {
        if (solver_check(cusolverDnCreate(&h), "cusolverDnCreate(&handle)") == 0) solver_handles[index] = h;
        else h = NULL;
    }
    pthread_mutex_unlock(&lock);
    return h;
}

/* The four precisions of each routine as overloads: S, D, C (cuComplex),
 * Z (cuDoubleComplex); R is the real type of the same precision. */
#define LA_TYPES(M) M(S, float, float, or, sy) M(D, double, double, or, sy) M(C, cuComplex, float, un, he) \
    M(Z, cuDoubleComplex, double, un, he)
#define LA_WRAP(P, T, R, OR, SY)                                                                                   \
    static cusolverStatus_t x_getrf_bs(cusolverDnHandle_t h, int m, int n, T *a, int lda, int *lw)                \
    { return cusolverDn##P##getrf_bufferSize(h, m, n, a, lda, lw); }                                               \
    static cusolverStatus_t x_getrf(cusolverDnHandle_t h, int m, int n, T *a, int lda, T *w, int *ip, int *info)  \
    { return cusolverDn##P##getrf(h, m, n, a, lda, w, ip, info); }                                                 \
    static cusolverStatus_t x_getrs(cusolverDnHandle_t h, cublasOperation_t t, int n, int k, const T *a, int lda,  \
                                    const int *ip, T *b, int ldb, int *info)                                       \
    { return cusolverDn##P##getrs(h, t, n, k, a, lda, ip, b, ldb, info); }                                         \
    static cusolverStatus_t x_potrf_bs(cusolverDnHandle_t h, cublasFillMode_t u, int n, T *a, int lda, int *lw)   \
    { return cusolverDn##P##potrf_bufferSize(h, u, n, a, lda, lw); }                                               \
    static cusolverStatus_t x_potrf(cusolverDnHandle_t h, cublasFillMode_t u, int n, T *a, int lda, T *w, int lw, \
                                    int *info)                                                                     \
    { return cusolverDn##P##potrf(h, u, n, a, lda, w, lw, info); }                                                 \
    static cusolverStatus_t x_potrs(cusolverDnHandle_t h, cublasFillMode_t u, int n, int k, const T *a, int lda,   \
                                    T *b, int ldb, int *info)                                                      \
    { return cusolverDn##P##potrs(h, u, n, k, a, lda, b, ldb, info); }                                             \
    static cusolverStatus_t x_geqrf_bs(cusolverDnHandle_t h, int m, int n, T *a, int lda, int *lw)                \
    { return cusolverDn##P##geqrf_bufferSize(h, m, n, a, lda, lw); }                                               \
    static cusolverStatus_t x_geqrf(cusolverDnHandle_t h, int m, int n, T *a, int lda, T *tau, T *w, int lw,      \
                                    int *info)                                                                     \
    { return cusolverDn##P##geqrf(h, m, n, a, lda, tau, w, lw, info); }                                            \
    static cusolverStatus_t x_orgqr_bs(cusolverDnHandle_t h, int m, int n, int k, const T *a, int lda,             \
                                       const T *tau, int *lw)                                                      \
    { return cusolverDn##P##OR##gqr_bufferSize(h, m, n, k, a, lda, tau, lw); }                                     \
    static cusolverStatus_t x_orgqr(cusolverDnHandle_t h, int m, int n, int k, T *a, int lda, const T *tau, T *w,  \
                                    int lw, int *info)                                                             \
    { return cusolverDn##P##OR##gqr(h, m, n, k, a, lda, tau, w, lw, info); }                                       \
    static cusolverStatus_t x_syevd_bs(cusolverDnHandle_t h, cusolverEigMode_t j, cublasFillMode_t u, int n,       \
                                       const T *a, int lda, const R *w, int *lw)                                   \
    { return cusolverDn##P##SY##evd_bufferSize(h, j, u, n, a, lda, w, lw); }                                       \
    static cusolverStatus_t x_syevd(cusolverDnHandle_t h, cusolverEigMode_t j, cublasFillMode_t u, int n, T *a,    \
                                    int lda, R *w, T *wk, int lw, int *info)                                       \
    { return cusolverDn##P##SY##evd(h, j, u, n, a, lda, w, wk, lw, info); }                                        \
    static cusolverStatus_t x_gesvdj_bs(cusolverDnHandle_t h, cusolverEigMode_t j, int e, int m, int n,            \
                                        const T *a, int lda, const R *s, const T *u, int ldu, const T *v, int ldv, \
                                        int *lw, gesvdjInfo_t p)                                                   \
    { return cusolverDn##P##gesvdj_bufferSize(h, j, e, m, n, a, lda, s, u, ldu, v, ldv, lw, p); }                  \
    static cusolverStatus_t x_gesvdj(cusolverDnHandle_t h, cusolverEigMode_t j, int e, int m, int n, T *a,         \
                                     int lda, R *s, T *u, int ldu, T *v, int ldv, T *wk, int lw, int *info,        \
                                     gesvdjInfo_t p)                                                               \
    { return cusolverDn##P##gesvdj(h, j, e, m, n, a, lda, s, u, ldu, v, ldv, wk, lw, info, p); }                   \
    static cublasStatus_t x_trsm(cublasHandle_t h, cublasSideMode_t sd, cublasFillMode_t u, cublasOperation_t t,   \
                                 cublasDiagType_t d, int m, int n, const T *al, const T *a, int lda, T *b, int ldb) \
    { return cublas##P##trsm(h, sd, u, t, d, m, n, al, a, lda, b, ldb); }
LA_TYPES(LA_WRAP)
#undef LA_WRAP

template <typename T> static T la_one(void) { return T(1); }
template <> cuComplex la_one<cuComplex>(void) { return make_cuComplex(1, 0); }
template <> cuDoubleComplex la_one<cuDoubleComplex>(void) { return make_cuDoubleComplex(1, 0); }

/* Workspace of lwork elements of T from the caching allocator (at least one). */
template <typename T> struct LaWork {
    T *p = NULL;
    size_t bytes = 0;
    int dev = 0;
    bool get(int lwork, int d)
    {
        dev = d;
        bytes = sizeof(T) * (size_t)(lwork > 1 ? lwork : 1);
        p = (T *)alloc(bytes, d);
        return p != NULL;
    }
    ~LaWork() { if (p) release(p, bytes, dev); }
};

template <typename T, typename R> static int la_run(const tsr_klinalg *l, int dev, cusolverDnHandle_t h)
{
    int m = (int)l->m, n = (int)l->n, k = (int)l->k, lda = (int)l->lda, ldb = (int)l->ldb, lw = 0;
    T *a = (T *)l->a, *b = (T *)l->b;
    cublasFillMode_t ul = l->uplo == 'U' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    cublasOperation_t tr = l->trans == 'N' ? CUBLAS_OP_N : l->trans == 'T' ? CUBLAS_OP_T : CUBLAS_OP_C;
    cusolverEigMode_t jz = l->jobz == 'V' ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    LaWork<T> work;
    LaWork<int> scratch;   /* devInfo where the caller wants none */
    if (!l->info && !scratch.get(1, dev)) return -1;
    int rc = 0;
    for (int64_t i = 0; rc == 0 && i < l->batch; i++) {
        T *ai = a + i * l->stride_a, *bi = b ? b + i * l->stride_b : NULL;
        int *info = l->info ? (int *)l->info + i : scratch.p;
        int *ip = l->ipiv ? (int *)l->ipiv + i * l->stride_ipiv : NULL;
        switch (l->op) {
        case TSR_KLA_GETRF:
            if (i == 0 && (solver_check(x_getrf_bs(h, m, n, ai, lda, &lw), "cusolverDnXgetrf_bufferSize") < 0 ||
                           !work.get(lw, dev)))
                return -1;
            rc = solver_check(x_getrf(h, m, n, ai, lda, work.p, ip, info), "cusolverDnXgetrf");
            break;
        case TSR_KLA_GETRS:
            rc = solver_check(x_getrs(h, tr, n, k, ai, lda, ip, bi, ldb, info), "cusolverDnXgetrs");
            break;
        case TSR_KLA_POTRF:
            if (i == 0 && (solver_check(x_potrf_bs(h, ul, n, ai, lda, &lw), "cusolverDnXpotrf_bufferSize") < 0 ||
                           !work.get(lw, dev)))
                return -1;
            rc = solver_check(x_potrf(h, ul, n, ai, lda, work.p, lw, info), "cusolverDnXpotrf");
            break;
        case TSR_KLA_POTRS:
            rc = solver_check(x_potrs(h, ul, n, k, ai, lda, bi, ldb, info), "cusolverDnXpotrs");
            break;
        case TSR_KLA_GEQRF: {
            T *tau = (T *)l->w + i * l->stride_w;
            if (i == 0 && (solver_check(x_geqrf_bs(h, m, n, ai, lda, &lw), "cusolverDnXgeqrf_bufferSize") < 0 ||
                           !work.get(lw, dev)))
                return -1;
            rc = solver_check(x_geqrf(h, m, n, ai, lda, tau, work.p, lw, info), "cusolverDnXgeqrf");
            break;
        }
        case TSR_KLA_ORGQR: {
            T *tau = (T *)l->w + i * l->stride_w;
            if (i == 0 && (solver_check(x_orgqr_bs(h, m, n, k, ai, lda, tau, &lw), "cusolverDnXorgqr_bufferSize") < 0 ||
                           !work.get(lw, dev)))
                return -1;
            rc = solver_check(x_orgqr(h, m, n, k, ai, lda, tau, work.p, lw, info), "cusolverDnXorgqr");
            break;
        }
        case TSR_KLA_SYEVD: {
            R *w = (R *)l->w + i * l->stride_w;
            if (i == 0 && (solver_check(x_syevd_bs(h, jz, ul, n, ai, lda, w, &lw), "cusolverDnXsyevd_bufferSize") < 0 ||
                           !work.get(lw, dev)))
                return -1;
            rc = solver_check(x_syevd(h, jz, ul, n, ai, lda, w, work.p, lw, info), "cusolverDnXsyevd");
            break;
        }
        case TSR_KLA_GESVDJ: {
            /* 1.13's apply_svd_cusolver_gesvdj: default tolerance and sweeps */
            R *s = (R *)l->w + i * l->stride_w;
            T *u = l->u ? (T *)l->u + i * l->stride_u : NULL, *v = l->v ? (T *)l->v + i * l->stride_v : NULL;
            int ldu = (int)l->ldu, ldv = (int)l->ldv;
            gesvdjInfo_t p;
            if (solver_check(cusolverDnCreateGesvdjInfo(&p), "cusolverDnCreateGesvdjInfo(&params)") < 0) return -1;
            if (solver_check(x_gesvdj_bs(h, jz, l->econ, m, n, ai, lda, s, u, ldu, v, ldv, &lw, p),
                             "cusolverDnXgesvdj_bufferSize") < 0) {
                cusolverDnDestroyGesvdjInfo(p);
                return -1;
            }
            LaWork<T> wk;
            rc = wk.get(lw, dev) ? solver_check(x_gesvdj(h, jz, l->econ, m, n, ai, lda, s, u, ldu, v, ldv, wk.p, lw,
                                                         info, p), "cusolverDnXgesvdj")
                                 : -1;
            cusolverDnDestroyGesvdjInfo(p);
            break;
        }
        case TSR_KLA_TRSM: {
            cublasHandle_t bh = get_handle(dev);
            if (!bh) return -1;
            T one = la_one<T>();
            rc = cublas_check(x_trsm(bh, l->side == 'L' ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT, ul, tr,
                                     l->diag == 'U' ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, m, k, &one, ai, lda,
                                     bi, ldb),
                              "cublasXtrsm(handle, side, uplo, trans, diag, m, n, &alpha, A, lda, B, ldb)");
            break;
        }
        default: fail("tsr's CUDA backend has no such factorization"); return -1;
        }
    }
    return rc;
}

static int linalg(const tsr_klinalg *l, int index)
{
    if (set_device(index) < 0 || la_check_args(l) < 0) return -1;
    if (l->batch == 0) return 0;
    if (index < 0) index = 0;
    if (index >= MAX_DEVICES) { fail("CUDA error: invalid device ordinal"); return -1; }
    cusolverDnHandle_t h = solver_handle(index);
    if (!h) return -1;
    switch (l->dtype) {
    case TSR_KD_FLOAT32: return la_run<float, float>(l, index, h);
    case TSR_KD_FLOAT64: return la_run<double, double>(l, index, h);
    case TSR_KD_COMPLEX64: return la_run<cuComplex, float>(l, index, h);
    default: return la_run<cuDoubleComplex, double>(l, index, h);
    }
}
#endif
