/* runtime/ops/linalg_int.h — what runtime/ops/linalg.c shares with
 * linalg_ext.c (internal to the runtime): the column-major batch helpers,
 * the input checks and LAPACK workspace sizing of the torch.linalg code. */
#ifndef TSR_LINALG_INT_H
#define TSR_LINALG_INT_H
#include <stdbool.h>
#include <stdint.h>
#include <lapacke.h>
#include "../tensor.h"

#define CM LAPACK_COL_MAJOR
typedef lapack_complex_float cf;
typedef lapack_complex_double cd;

/* squareCheckInputs (LinearAlgebraUtils.h); square false checks only the
 * rank. 0, or -1 with 1.13's message for fn. */
int tsr__la_check_matrix(const tsr_tensor *a, const char *fn, bool square);
/* A new tensor of these sizes with column-major matrices (as
 * cloneBatchedColumnMajor lays them out); a copy of a in that layout. */
tsr_tensor *tsr__la_empty_fmat(int nd, const int64_t *sizes, tsr_dtype dt, tsr_device dev);
tsr_tensor *tsr__la_clone_fmat(const tsr_tensor *a);
bool tsr__la_is_meta(const tsr_tensor *t);
/* float32/64, complex64/128: the dtypes LAPACK computes in */
bool tsr__la_lapack_dtype(tsr_dtype d);
/* how many matrices a holds, its last keep dims being one matrix's */
int64_t tsr__la_batch_count(const tsr_tensor *a, int keep);
/* the i-th matrix (mn elements each) of a column-major batch */
void *tsr__la_mat_at(const tsr_tensor *t, int64_t i, int64_t mn);
/* the Ctrl-C poll between matrices i and i + 1 of n: 0 or -1 */
int tsr__la_poll(int64_t i, int64_t n);
/* a workspace query's answer as an int; a workspace of count elements */
int tsr__la_wk(tsr_dtype dt, const void *w);
void *tsr__la_ws(tsr_dtype dt, int64_t count);
/* the conjugate transpose, materialised; x * y through the elementwise engine */
tsr_tensor *tsr__la_adjoint_copy(const tsr_tensor *x);
tsr_tensor *tsr__la_mul2(const tsr_tensor *x, const tsr_tensor *y);

#endif
