/* runtime/ops/linalg.h — torch.linalg's LAPACK-backed functions (inv, det,
 * slogdet, solve, cholesky, qr, eigh, svd) and their older torch.* forms, as
 * 1.13's BatchLinearAlgebra.cpp and LinearAlgebra.cpp compute them: the same
 * LAPACK routine on the same column-major copy, so the printed digits agree.
 * Ownership as tensor.h: results are NEW references, arguments borrowed; NULL
 * or -1 records the error (a singular or not positive-definite input raises
 * TSR_ERR_LINALG, PyTorch's torch._C._LinAlgError). */
#ifndef TSR_OPS_LINALG_H
#define TSR_OPS_LINALG_H
#include <stdbool.h>
#include "../tensor.h"
#include "reduce_dims.h"

/* _linalg_check_errors: 0 when every info is 0, else -1 with the
 * _LinAlgError api's message ("linalg.inv: (Batch element 1): The diagonal
 * element 2 is zero, ..."); the wording follows the name api contains. */
int tsr_linalg_check_errors(const tsr_tensor *info, const char *api, bool is_matrix);
/* In the *_ex functions, check names the api whose errors are raised
 * (tsr_linalg_check_errors), NULL for none (info reports them). */
/* linalg.inv_ex: *inverse and *info (int32, A's batch shape) as new
 * references. */
int tsr_linalg_inv_ex(const tsr_tensor *a, const char *check, tsr_tensor **inverse, tsr_tensor **info);
/* linalg.det (det = sign of the pivots * prod(diag(U)), as _linalg_det). */
tsr_tensor *tsr_linalg_det(const tsr_tensor *a);
/* linalg.slogdet: *sign (A's dtype) and *logabsdet (real); fname is
 * "linalg.slogdet". */
int tsr_linalg_slogdet(const tsr_tensor *a, tsr_tensor **sign, tsr_tensor **logabsdet);
/* torch.logdet: log(det) (NaN for a negative determinant of a real A). */
tsr_tensor *tsr_logdet(const tsr_tensor *a);
/* linalg.solve_ex: *result and *info (left=False solves XA = B). B is a vector when B is 1-D or has A's shape less
 * its last dim. */
int tsr_linalg_solve_ex(const tsr_tensor *a, const tsr_tensor *b, bool left, const char *check, tsr_tensor **result,
                        tsr_tensor **info);
/* linalg.svd / svdvals's driver=: only None on the CPU (0), else -1 with 1.13's error. */
int tsr_linalg_svd_driver_check(const char *driver);
/* The same for A: on cuda (cuSOLVER) "gesvd", "gesvdj" and "gesvda" pass
 * (tsr's backend computes all three with gesvdj), another name is 1.13's
 * "unknown svd driver" error; elsewhere as tsr_linalg_svd_driver_check. */
int tsr_linalg_svd_driver_check_for(const tsr_tensor *a, const char *driver);
/* linalg.cholesky_ex: *L (upper: U) and *info. legacy: torch.cholesky's
 * checks and message prefix. */
int tsr_linalg_cholesky_ex(const tsr_tensor *a, bool upper, const char *check, bool legacy, tsr_tensor **l,
                           tsr_tensor **info);
/* linalg.qr with mode "reduced", "complete" or "r" (*q is then an empty
 * tensor). */
int tsr_linalg_qr(const tsr_tensor *a, const char *mode, tsr_tensor **q, tsr_tensor **r);
/* linalg.eigh (vectors non-NULL) or eigvalsh (vectors NULL); uplo "L"/"U". */
int tsr_linalg_eigh(const tsr_tensor *a, const char *uplo, tsr_tensor **values, tsr_tensor **vectors);
/* linalg.svd (u non-NULL; full_matrices) or svdvals (u, vh NULL) by gesdd. */
int tsr_linalg_svd(const tsr_tensor *a, bool full_matrices, tsr_tensor **u, tsr_tensor **s, tsr_tensor **vh);
/* torch.svd(some, compute_uv): U, S, V (V = Vh^H; zeros without compute_uv). */
int tsr_svd_legacy(const tsr_tensor *a, bool some, bool compute_uv, tsr_tensor **u, tsr_tensor **s,
                   tsr_tensor **v);
/* linalg.matrix_power by 1.13's binary decomposition over matmul. */
tsr_tensor *tsr_linalg_matrix_power(const tsr_tensor *a, int64_t n);
/* linalg.lu_factor_ex (pivot must be true on the CPU): *lu (column-major),
 * *piv (int32, 1-based) and *info; fn names the call in the rank error
 * ("torch.lu_factor", "linalg.lu"); check as above. */
int tsr_linalg_lu_factor_ex(const tsr_tensor *a, bool pivot, const char *check, const char *fn, tsr_tensor **lu,
                            tsr_tensor **piv, tsr_tensor **info);
/* torch.lu_unpack: P, L, U of an LU factorisation (empty tensors for the
 * parts not asked for). */
int tsr_lu_unpack(const tsr_tensor *lu, const tsr_tensor *piv, bool unpack_data, bool unpack_pivots, tsr_tensor **p,
                  tsr_tensor **l, tsr_tensor **u);
/* linalg.lu: P, L, U of A = P L U. */
int tsr_linalg_lu(const tsr_tensor *a, bool pivot, tsr_tensor **p, tsr_tensor **l, tsr_tensor **u);
/* linalg.lu_solve (getrs; left=False solves XA = B; adjoint solves with A^H). */
int tsr_linalg_lu_solve(const tsr_tensor *lu, const tsr_tensor *piv, const tsr_tensor *b, bool left, bool adjoint,
                        tsr_tensor **result);
/* linalg.solve_triangular by trsm, reading A in place when it is column- or
 * row-major as 1.13 does. */
int tsr_linalg_solve_triangular(const tsr_tensor *a, const tsr_tensor *b, bool upper, bool left, bool unit,
                                tsr_tensor **result);
/* torch.triangular_solve(b, A): *solution and *cloned (A's column-major copy). */
int tsr_triangular_solve(const tsr_tensor *b, const tsr_tensor *a, bool upper, bool transpose, bool unit,
                         tsr_tensor **solution, tsr_tensor **cloned);
/* torch.cholesky_solve(B, L) by potrs; torch.cholesky_inverse(L) by potri. */
tsr_tensor *tsr_cholesky_solve(const tsr_tensor *b, const tsr_tensor *l, bool upper);
tsr_tensor *tsr_cholesky_inverse(const tsr_tensor *l, bool upper);
/* linalg.eig (vectors non-NULL) or eigvals by geev: complex results. */
int tsr_linalg_eig(const tsr_tensor *a, tsr_tensor **values, tsr_tensor **vectors);
/* torch.geqrf: *qr (column-major) and *tau; linalg.householder_product (orgqr). */
int tsr_geqrf(const tsr_tensor *a, tsr_tensor **qr, tsr_tensor **tau);
tsr_tensor *tsr_householder_product(const tsr_tensor *a, const tsr_tensor *tau);
/* its out= (householder_product_out): out's dtype castable from a's
 * ("torch.linalg.householder_product: Expected result to be safely castable
 * from Float dtype, ..."); out keeps its column-major strides or takes the
 * result's when empty of a's dtype, else resize_output and copy_. NEW
 * reference to out, or NULL. */
tsr_tensor *tsr_householder_product_out(const tsr_tensor *a, const tsr_tensor *tau, tsr_tensor *out);
/* linalg.vector_norm(x, ord, dim, keepdim, dtype) (reduce_norm.c): a real
 * result; dims->n < 1 reduces everything; dtype TSR_DTYPE_UNDEFINED when
 * not given. */
tsr_tensor *tsr_linalg_vector_norm(const tsr_tensor *x, double ord, const tsr_dims *dims, bool keepdim,
                                   tsr_dtype dtype, tsr_tensor *out);
/* torch.norm's kernels: at::norm (vector_norm with norm()'s dtype checks),
 * frobenius_norm (two dims: sqrt(sum(x*x)) as 1.13) and linalg.matrix_norm
 * (ord_str "fro"/"nuc", else the number ord: +-1, +-2, +-inf). */
tsr_tensor *tsr_norm(const tsr_tensor *x, double p, const tsr_dims *dims, bool keepdim, tsr_dtype dtype,
                     tsr_tensor *out);
tsr_tensor *tsr_frobenius_norm(const tsr_tensor *x, const tsr_dims *dims, bool keepdim, tsr_tensor *out);
tsr_tensor *tsr_linalg_matrix_norm(const tsr_tensor *a, const char *ord_str, double ord, const tsr_dims *dims,
                                   bool keepdim, tsr_dtype dtype, tsr_tensor *out);
/* linalg.norm: matrix_norm for a string ord, or a number ord with two dims
 * (or none of a 2-D input), else vector_norm (ord 2 when not given). */
tsr_tensor *tsr_linalg_norm(const tsr_tensor *x, bool has_ord, const char *ord_str, double ord, const tsr_dims *dims,
                            bool keepdim, tsr_dtype dtype, tsr_tensor *out);
/* torch.trace (2-D; a serial sum in double / int64 as trace_cpu), torch.kron
 * (the interleaved-views product of 1.13), linalg.vecdot ((x.conj() * y)
 * summed over dim) and linalg.vander (has_n: N given). */
tsr_tensor *tsr_trace(const tsr_tensor *x);
tsr_tensor *tsr_kron(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor *out);
tsr_tensor *tsr_linalg_vecdot(const tsr_tensor *x, const tsr_tensor *y, int64_t dim, tsr_tensor *out);
tsr_tensor *tsr_linalg_vander(const tsr_tensor *x, bool has_n, int64_t n);
/* linalg.pinv (svd, or eigh when hermitian) and linalg.matrix_rank with
 * 1.13's tolerances: atol / rtol float64 tensors or NULL (rtol defaults to
 * eps * max(m, n), 0 where atol > 0). */
tsr_tensor *tsr_linalg_pinv(const tsr_tensor *a, const tsr_tensor *atol, const tsr_tensor *rtol, bool hermitian);
tsr_tensor *tsr_linalg_matrix_rank(const tsr_tensor *a, const tsr_tensor *atol, const tsr_tensor *rtol, bool hermitian);
/* torch.chain_matmul's checks before linalg.multi_dot (one matrix: a clone):
 * every matrix 2-D ("Tensor dimension is 1, expected 2 instead."), then at
 * least one ("chain_matmul(): Expected one or more matrices"). 0 or -1. */
int tsr_chain_matmul_check(int n, const tsr_tensor *const *in);
/* linalg.multi_dot: mm in 1.13's order (cheaper of two for three
 * matrices, matrix_chain_order beyond); 1-D ends as row / column vectors;
 * out must have the tensors' dtype ("multi_dot(): expected out tensor to
 * have dtype float but got double"). */
tsr_tensor *tsr_linalg_multi_dot(int n, const tsr_tensor *const *in, tsr_tensor *out);
/* Writes a result into its out= tensor as a structured op's out variant
 * does (dtype check, resize_output with its warning, the result's strides
 * when resized, then the values). Steals r; out NULL returns r. NEW
 * reference to out, or NULL. */
tsr_tensor *tsr_linalg_out(tsr_tensor *r, tsr_tensor *out);

/* linalg_comp.c: out= of a composite linalg function (checkLinalgCompatibleDtype's
 * "fn: Expected result to be safely castable ..." then resize_output and copy).
 * Steals r; out NULL returns r. */
tsr_tensor *tsr_linalg_out_cast(tsr_tensor *r, tsr_tensor *out, const char *fn);
/* One result of a tuple into its out= tensor: fn NULL as tsr_linalg_out
 * (a structured op's exact dtype); else fn's checkLinalgCompatibleDtype
 * naming the result ("torch.linalg.eig: Expected eigenvalues to be safely
 * castable ..."), a resized out taking the result's strides. Steals r. */
tsr_tensor *tsr_linalg_out_named(tsr_tensor *r, tsr_tensor *out, const char *fn, const char *name);
/* that check alone (out NULL passes): 0 or -1 */
int tsr_linalg_out_check(const tsr_tensor *out, tsr_dtype dt, const char *fn);
/* linalg.tensorinv (ind > 0) and linalg.tensorsolve (ndims < 0: dims=None),
 * 1.13's reshapes around inv_ex / solve with its errors. */
tsr_tensor *tsr_linalg_tensorinv(const tsr_tensor *a, int64_t ind);
tsr_tensor *tsr_linalg_tensorsolve(const tsr_tensor *a, const tsr_tensor *b, int ndims, const int64_t *dims);
/* linalg.matrix_exp: 1.13's degree-selected Taylor polynomials (mexp). */
tsr_tensor *tsr_linalg_matrix_exp(const tsr_tensor *a);
/* linalg.cond: ord_str "fro" / "nuc" (else ord, 2 when !has_ord; ord_float:
 * ord was a float, as the square-check message prints it). */
tsr_tensor *tsr_linalg_cond(const tsr_tensor *a, const char *ord_str, bool has_ord, double ord, bool ord_float);
/* linalg.lstsq (linalg_lstsq.c): driver NULL for gelsy, else gels / gelsy /
 * gelsd / gelss (any case); rcond as given or eps * max(m, n). The four
 * results as 1.13 fills or leaves empty. */
int tsr_linalg_lstsq(const tsr_tensor *a, const tsr_tensor *b, bool has_rcond, double rcond, const char *driver,
                     tsr_tensor **solution, tsr_tensor **residuals, tsr_tensor **rank, tsr_tensor **sv);
/* linalg_ldl.c: linalg.ldl_factor_ex (check: the api whose errors are
 * raised, NULL for none): *ld column-major, *piv int32 (LAPACK's 1-based
 * Bunch-Kaufman pivots), *info int32; linalg.ldl_solve. */
int tsr_linalg_ldl_factor_ex(const tsr_tensor *a, bool hermitian, const char *check, tsr_tensor **ld,
                             tsr_tensor **piv, tsr_tensor **info);
tsr_tensor *tsr_linalg_ldl_solve(const tsr_tensor *ld, const tsr_tensor *piv, const tsr_tensor *b, bool hermitian);
/* torch.ormqr(input, tau, other, left, transpose): Q (or Q^H) times other;
 * tsr_ormqr_out_check: 1.13's result-dtype check of its out= (0 or -1). */
tsr_tensor *tsr_ormqr(const tsr_tensor *a, const tsr_tensor *tau, const tsr_tensor *c, bool left, bool transpose);
int tsr_ormqr_out_check(const tsr_tensor *a, const tsr_tensor *out);

#endif
