/* runtime/ops/linalg_dev.h — the LAPACK steps of runtime/ops/linalg*.c on
 * a device the host cannot read (cuda), through the backend's linalg entry
 * (runtime/kernels_linalg.h). Every matrix argument is a column-major batch
 * as tsr__la_empty_fmat makes it (matrix i at i * rows * cols elements);
 * pivots, tau and infos contiguous int32 / dtype tensors on the same
 * device. Each returns 0, or -1 with the error recorded (the dispatcher's
 * "Could not run" when the backend has no linalg entry). */
#ifndef TSR_LINALG_DEV_H
#define TSR_LINALG_DEV_H
#include <stdbool.h>
#include "../tensor.h"

/* Whether t is on such a device (neither cpu nor meta). */
bool tsr__la_dev(const tsr_tensor *t);

/* lu (m x n) := its LU; piv (min(m, n) a matrix), info (one a matrix). */
int tsr__la_dev_getrf(tsr_tensor *lu, tsr_tensor *piv, tsr_tensor *info);
/* x (n x k) := op(A)^-1 x with getrf's lu (n x n, as many matrices as x) and piv. */
int tsr__la_dev_getrs(tsr_tensor *x, const tsr_tensor *lu, const tsr_tensor *piv, char trans);
/* a (n x n) := its Cholesky factor in the uplo ('L'/'U') triangle; info. */
int tsr__la_dev_potrf(tsr_tensor *a, char uplo, tsr_tensor *info);
/* x (n x k) := A^-1 x with f (n x n) potrf's factor in its uplo triangle. */
int tsr__la_dev_potrs(tsr_tensor *x, const tsr_tensor *f, char uplo);
/* a (m x n) := geqrf's R and reflectors; tau (min(m, n) a matrix). */
int tsr__la_dev_geqrf(tsr_tensor *a, tsr_tensor *tau);
/* a (m x n) := orgqr's Q of the first k reflectors in a, with tau. */
int tsr__la_dev_orgqr(tsr_tensor *a, const tsr_tensor *tau, int64_t k);
/* w (n a matrix, real) := the eigenvalues of a (n x n); jobz 'V': a := the eigenvectors. */
int tsr__la_dev_syevd(tsr_tensor *a, tsr_tensor *w, char jobz, char uplo, tsr_tensor *info);
/* s := the singular values of a (m x n, destroyed); with u and v (both or
 * neither): U (m x m, or m x min(m, n) unless full) and V (n x n, or n x
 * min(m, n)) -- V, not V^H, as cuSOLVER's gesvdj gives it. */
int tsr__la_dev_gesvdj(tsr_tensor *a, tsr_tensor *s, tsr_tensor *u, tsr_tensor *v, bool full, tsr_tensor *info);
/* x (m x k) := op(A)^-1 x (left) or x op(A)^-1, a triangular (n x n). */
int tsr__la_dev_trsm(tsr_tensor *x, const tsr_tensor *a, bool left, bool upper, char trans, bool unit);
/* The full Q (rows x rows, a new column-major batch) of the first k of
 * geqrf's reflectors in qr (rows x cols) with tau: the reflectors copied
 * into a zeroed square batch, then orgqr. NULL with the error. */
tsr_tensor *tsr__la_dev_full_q(const tsr_tensor *qr, const tsr_tensor *tau, int64_t k);

#endif
