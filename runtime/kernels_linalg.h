/* runtime/kernels_linalg.h — the dense factorizations a computing device
 * backend offers (cuSOLVER and cuBLAS's trsm on a GPU), and the record the
 * runtime's linalg (ops/linalg_dev.c) hands it. Column-major, as LAPACK and
 * cuSOLVER are; a batch is a loop over `batch` matrices, matrix i of an
 * operand starting i * stride elements after its address. Included from
 * kernels.h: plain C, no runtime type. */
#ifndef TSR_KERNELS_LINALG_H
#define TSR_KERNELS_LINALG_H
#include <stdint.h>

/* ORDER KLINALG */
typedef enum {
    TSR_KLA_GETRF,    /* a (m x n) := its LU, ipiv (min(m, n) 1-based pivots), info */
    TSR_KLA_GETRS,    /* b (n x k) := op(A)^-1 b with a (n x n) getrf's LU and ipiv; trans 'N', 'T', 'C' */
    TSR_KLA_POTRF,    /* a (n x n) := its Cholesky factor in the uplo triangle (the other untouched), info */
    TSR_KLA_POTRS,    /* b (n x k) := A^-1 b with a (n x n) potrf's factor in the uplo triangle */
    TSR_KLA_GEQRF,    /* a (m x n) := R and the reflectors, w := tau (min(m, n)) */
    TSR_KLA_ORGQR,    /* a (m x n) := Q of the first k reflectors a holds with tau w (orgqr / ungqr) */
    TSR_KLA_SYEVD,    /* w (n, real) := the ascending eigenvalues of a (n x n, uplo triangle read);
                       * jobz 'V': a := the eigenvectors; info */
    TSR_KLA_GESVDJ,   /* w (min(m, n), real) := the singular values of a (m x n, destroyed), descending;
                       * jobz 'V': u (m x m, or m x min when econ) and v (n x n, or n x min: V, not V^H); info */
    TSR_KLA_TRSM,     /* b (m x k) := op(A)^-1 b (side 'L') or b op(A)^-1 ('R'), a triangular
                       * (uplo; diag 'U': unit), n x n with n the side's size; trans 'N', 'T', 'C' */
    TSR_KLA_COUNT
} tsr_klinalg_op;

typedef struct {
    int32_t op, dtype;          /* dtype: TSR_KD_FLOAT32/64, COMPLEX64/128 (w real of its precision) */
    char uplo, trans, side, diag, jobz;
    int32_t econ;
    int64_t m, n, k, batch;
    void *a; int64_t lda, stride_a;
    void *b; int64_t ldb, stride_b;
    void *u; int64_t ldu, stride_u;
    void *v; int64_t ldv, stride_v;
    void *w; int64_t stride_w;      /* tau, eigenvalues, singular values */
    int32_t *ipiv; int64_t stride_ipiv;
    int32_t *info;                  /* batch ints (LAPACK's info), or NULL */
} tsr_klinalg;

#endif
