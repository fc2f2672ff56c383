/* src/bind/linalg_lapack.c — torch.linalg's LAPACK functions (inv, det,
 * slogdet, solve, cholesky, qr, eigh, svd, matrix_power and their *_ex /
 * vals forms) and the older torch.inverse, det, logdet, slogdet, cholesky,
 * qr, svd, matrix_power, with 1.13's signatures. Every rule is
 * runtime/ops/linalg.h's. */
#include <stdlib.h>
#include <string.h>

#include "bind/areas.h"
#include "bind/ops.h"
#include "bind/table.h"
#include "ops/factory.h"
#include "ops/linalg.h"
#include "bind/linalg_int.h"
#include "autograd.h"

typedef enum {
    K_INV, K_INV_EX, K_DET, K_SLOGDET, K_LOGDET, K_SOLVE, K_SOLVE_EX, K_CHOLESKY, K_CHOLESKY_EX, K_CHOLESKY_OLD,
    K_QR, K_QR_OLD, K_EIGH, K_EIGVALSH, K_SVD, K_SVDVALS, K_SVD_OLD, K_MATRIX_POWER, K_LU_FACTOR, K_LU_FACTOR_EX,
    K_LU_OLD, K_LU, K_LU_UNPACK, K_LU_SOLVE, K_LU_SOLVE_OLD, K_SOLVE_TRI, K_TRI_SOLVE, K_CHOLESKY_SOLVE,
    K_CHOLESKY_INVERSE, K_EIG, K_EIGVALS, K_GEQRF, K_HOUSEHOLDER, K_VECTOR_NORM, K_MATRIX_NORM,
    K_LINALG_NORM, K_NORM, K_TRACE, K_KRON, K_VECDOT, K_VANDER, K_PINV, K_PINVERSE, K_MATRIX_RANK, K_MULTI_DOT
} Kind;

/* A float tolerance argument as the float64 0-dim tensor 1.13 makes of it
 * (NULL when absent); -1 on error. */
static int tol_arg(BindArgs *b, const char *name, const char *fname, tsr_device dev, tsr_tensor **t)
{
    Value *v = bind_table_arg(b, name);
    double x;
    *t = NULL;
    if (!v) return 0;
    if (is_tensor(v)) {   /* the Tensor? overloads */
        *t = tsr_tensor_retain(tensor_of(v));
        return 0;
    }
    if (bind_table_float(v, fname, name, &x) < 0) return -1;
    if (!(*t = tsr_full(0, NULL, tsr_scalar_float(x), TSR_FLOAT64, dev))) return bind_runtime_errori();
    return 0;
}

/* dim (slot) into dims; absent: n = -1, or the given default. -1 on error. */
static int dims_arg(const BindArgs *b, int slot, const char *fname, tsr_dims *dims)
{
    int n;
    dims->n = -1;
    if (!b->v[slot]) return 0;
    if (bind_table_intlist(b, slot, fname, dims->d, TSR_MAX_DIMS, &n) < 0) return -1;
    dims->n = n;
    return 0;
}

static bool is_str_arg(const BindArgs *b, int slot) { return b->v[slot] && b->type[slot] == BT_STR; }

#define ARG(name) bind_table_arg(b, name)

static bool flag(const BindArgs *b, const char *name, bool dflt)
{
    Value *v = ARG(name);
    return v ? v->u.i != 0 : dflt;
}

static const char *str(const BindArgs *b, const char *name, const char *dflt)
{
    Value *v = ARG(name);
    return v ? v->u.s.p : dflt;
}

/* A named tuple of n new runtime results (stolen), or NULL. */
static Value *tuple(const ReturnType *rt, int n, tsr_tensor **t)
{
    Value *items[4];
    for (int i = 0; i < n; i++) items[i] = v_tensor(t[i]);
    for (int i = 0; i < n; i++)
        if (!items[i]) {
            for (int j = 0; j < n; j++) decref(items[j]);
            return NULL;
        }
    return v_return_type(rt, items);
}

/* A single result, written into out= when given (then out's value itself). */
static Value *one(tsr_tensor *r, tsr_tensor *out, BindArgs *b)
{
    if (!r) return bind_runtime_error();
    if (!out) return v_tensor(r);
    r = tsr_linalg_out(r, out);
    ops_warn();
    return ops_finish(r, b->v[BIND_OUT]);
}

/* torch.lu(A, pivot, get_infos, out=...): 1.13's Python _lu_with_infos /
 * _lu_no_infos after the factorisation: _check_list_size (the count, then
 * tuple or list), then out[i].resize_as_(result[i]).copy_(result[i]) for
 * each, and out itself returned. Steals t[0..2]. */
static Value *lu_old_out(Value *o, bool infos, tsr_tensor **t)
{
    Value *res = NULL, *rv[3] = {NULL, NULL, NULL};
    int64_t n = value_len(o);
    if (n < 0) goto done;
    if (n - (infos ? 1 : 0) != 2) {
        exc_set("TypeError", "expected tuple of %d elements but got %lld", 2 + (infos ? 1 : 0), (long long)n);
        goto done;
    }
    if (!is_type(o, &t_tuple) && !is_type(o, &t_list)) {
        exc_set("TypeError", "argument 'out' must be tuple of Tensors, not %s", type_name(o));
        goto done;
    }
    for (int i = 0; i < 3; i++) {
        rv[i] = v_tensor(t[i]);
        t[i] = NULL;
        if (!rv[i]) goto done;
    }
    for (int64_t i = 0; i < n; i++) {
        Value *oi = seq_get(o, (size_t)i), *f = value_getattr(oi, "resize_as_"), *r1 = NULL, *r2 = NULL;
        if (f) r1 = value_call0(f, 1, &rv[i]);
        decref(f);
        f = r1 ? value_getattr(r1, "copy_") : NULL;
        if (f) r2 = value_call0(f, 1, &rv[i]);
        decref(f);
        decref(r1);
        if (!r2) goto done;
        decref(r2);
    }
    res = incref(o);
done:
    for (int i = 0; i < 3; i++) {
        tsr_tensor_release(t[i]);
        decref(rv[i]);
    }
    return res;
}

static Value *lapack_call(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)fname, (void)self, (void)inplace;
    tsr_tensor *a = d->kind == K_MULTI_DOT ? NULL : tensor_of(b->v[0]), *t[3] = {NULL, NULL, NULL}, *out = b->v[BIND_OUT] && is_tensor(b->v[BIND_OUT]) ? tensor_of(b->v[BIND_OUT]) : NULL;
    int rc = 0;
    switch ((Kind)d->kind) {
    case K_INV:
        rc = tsr_linalg_inv_ex(a, "linalg.inv", &t[0], &t[1]);
        if (rc == 0) tsr_tensor_release(t[1]);
        return rc < 0 ? bind_runtime_error() : one(t[0], out, b);
    case K_INV_EX:
        if (tsr_linalg_inv_ex(a, flag(b, "check_errors", false) ? "linalg.inv_ex" : NULL, &t[0], &t[1]) < 0) return bind_runtime_error();
        return bind_linalg_tuple(&rt_linalg_inv_ex, &rt_linalg_inv_ex_out, 2, t, b, NULL, NULL);
    case K_DET: return one(tsr_linalg_det(a), out, b);
    case K_LOGDET: return v_tensor(tsr_logdet(a));
    case K_SLOGDET:
        if (tsr_linalg_slogdet(a, &t[0], &t[1]) < 0) return bind_runtime_error();
        return bind_linalg_tuple(d->module ? &rt_linalg_slogdet : &rt_slogdet,
                                 d->module ? &rt_linalg_slogdet_out : &rt_slogdet_out, 2, t, b, NULL, NULL);
    case K_SOLVE:
    case K_SOLVE_EX: {
        bool ex = d->kind == K_SOLVE_EX;
        const char *check = !ex ? "torch.linalg.solve" : flag(b, "check_errors", false) ? "torch.linalg.solve_ex" : NULL;
        if (tsr_linalg_solve_ex(a, tensor_of(b->v[1]), flag(b, "left", true), check, &t[0], &t[1]) < 0)
            return bind_runtime_error();
        if (ex) return bind_linalg_tuple(&rt_linalg_solve_ex, &rt_linalg_solve_ex_out, 2, t, b, NULL, NULL);
        tsr_tensor_release(t[1]);
        return one(t[0], out, b);
    }
    case K_CHOLESKY:
    case K_CHOLESKY_OLD:
        rc = tsr_linalg_cholesky_ex(a, flag(b, "upper", false), d->kind == K_CHOLESKY ? "linalg.cholesky" : "cholesky",
                                    d->kind == K_CHOLESKY_OLD, &t[0], &t[1]);
        if (rc == 0) tsr_tensor_release(t[1]);
        return rc < 0 ? bind_runtime_error() : one(t[0], out, b);
    case K_CHOLESKY_EX:
        if (tsr_linalg_cholesky_ex(a, flag(b, "upper", false),
                                   flag(b, "check_errors", false) ? "linalg.cholesky_ex" : NULL, false, &t[0], &t[1]) < 0)
            return bind_runtime_error();
        return bind_linalg_tuple(&rt_linalg_cholesky_ex, &rt_linalg_cholesky_ex_out, 2, t, b, NULL, NULL);
    case K_QR:
        if (tsr_linalg_qr(a, str(b, "mode", "reduced"), &t[0], &t[1]) < 0) return bind_runtime_error();
        return bind_linalg_tuple(&rt_linalg_qr, &rt_linalg_qr_out, 2, t, b, NULL, NULL);
    case K_QR_OLD:
        if (tsr_linalg_qr(a, flag(b, "some", true) ? "reduced" : "complete", &t[0], &t[1]) < 0)
            return bind_runtime_error();
        return bind_linalg_tuple(&rt_qr, &rt_qr_out, 2, t, b, NULL, NULL);
    case K_EIGH:
        if (tsr_linalg_eigh(a, str(b, "UPLO", "L"), &t[0], &t[1]) < 0) return bind_runtime_error();
        return bind_linalg_tuple(&rt_linalg_eigh, &rt_linalg_eigh_out, 2, t, b, NULL, NULL);
    case K_EIGVALSH: {   /* 1.13 computes the eigenvectors too (other bits) when A may need a gradient */
        bool v = tsr_grad_enabled() && tsr_tensor_requires_grad(a);
        if (tsr_linalg_eigh(a, str(b, "UPLO", "L"), &t[0], v ? &t[1] : NULL) < 0) return bind_runtime_error();
        if (v) tsr_tensor_release(t[1]);
        return one(t[0], out, b);
    }
    case K_SVD:
        if (tsr_linalg_svd_driver_check_for(a, str(b, "driver", NULL)) < 0) return bind_runtime_error();
        if (tsr_linalg_svd(a, flag(b, "full_matrices", true), &t[0], &t[1], &t[2]) < 0) return bind_runtime_error();
        return bind_linalg_tuple(&rt_linalg_svd, &rt_linalg_svd_out, 3, t, b, NULL, NULL);
    case K_SVDVALS:
        if (tsr_linalg_svd_driver_check_for(a, str(b, "driver", NULL)) < 0) return bind_runtime_error();
        if (tsr_grad_enabled() && tsr_tensor_requires_grad(a)) {   /* 1.13 computes U, Vh too (other bits) */
            if (tsr_linalg_svd(a, false, &t[1], &t[0], &t[2]) < 0) return bind_runtime_error();
            tsr_tensor_release(t[1]);
            tsr_tensor_release(t[2]);
        } else if (tsr_linalg_svd(a, false, NULL, &t[0], NULL) < 0) {
            return bind_runtime_error();
        }
        return one(t[0], out, b);
    case K_SVD_OLD:
        if (tsr_svd_legacy(a, flag(b, "some", true), flag(b, "compute_uv", true), &t[0], &t[1], &t[2]) < 0)
            return bind_runtime_error();
        return bind_linalg_tuple(&rt_svd, &rt_svd_out, 3, t, b, NULL, NULL);
    case K_MATRIX_POWER: {
        int64_t n;
        if (bind_table_int(b, 1, 0, &n) < 0) return bind_runtime_error();
        return one(tsr_linalg_matrix_power(a, n), out, b);
    }
    case K_LU_FACTOR:
    case K_LU_FACTOR_EX:
    case K_LU_OLD: {
        bool ex = d->kind == K_LU_FACTOR_EX, old = d->kind == K_LU_OLD, infos = old && flag(b, "get_infos", false);
        const char *check = d->kind == K_LU_FACTOR ? "torch.linalg.lu_factor"
                          : ex && flag(b, "check_errors", false) ? "torch.linalg.lu_factor_ex" : NULL;
        if (tsr_linalg_lu_factor_ex(a, flag(b, "pivot", true), check, "torch.lu_factor", &t[0], &t[1], &t[2]) < 0)
            return bind_runtime_error();
        if (ex) return bind_linalg_tuple(&rt_linalg_lu_factor_ex, &rt_linalg_lu_factor_ex_out, 3, t, b, NULL, NULL);
        if (old && b->v[BIND_OUT] && !is_type(b->v[BIND_OUT], &t_none)) return lu_old_out(b->v[BIND_OUT], infos, t);
        if (infos) return tuple(&rt_lu_with_info, 3, t);
        tsr_tensor_release(t[2]);
        if (!old) return bind_linalg_tuple(&rt_linalg_lu_factor, &rt_linalg_lu_factor_out, 2, t, b, NULL, NULL);
        Value *x = v_tensor(t[0]), *y = x ? v_tensor(t[1]) : (tsr_tensor_release(t[1]), NULL);
        if (!y) { decref(x); return NULL; }
        return v_tuple_of(2, x, y);
    }
    case K_LU:
        if (tsr_linalg_lu(a, flag(b, "pivot", true), &t[0], &t[1], &t[2]) < 0) return bind_runtime_error();
        return bind_linalg_tuple(&rt_linalg_lu, &rt_linalg_lu_out, 3, t, b, NULL, NULL);
    case K_LU_UNPACK:
        if (tsr_lu_unpack(a, tensor_of(b->v[1]), flag(b, "unpack_data", true), flag(b, "unpack_pivots", true), &t[0],
                          &t[1], &t[2]) < 0)
            return bind_runtime_error();
        return bind_linalg_tuple(&rt_lu_unpack, &rt_lu_unpack_out, 3, t, b, NULL, NULL);
    case K_LU_SOLVE:
        if (tsr_linalg_lu_solve(a, tensor_of(b->v[1]), tensor_of(b->v[2]), flag(b, "left", true),
                                flag(b, "adjoint", false), &t[0]) < 0)
            return bind_runtime_error();
        return one(t[0], out, b);
    case K_LU_SOLVE_OLD:   /* torch.lu_solve(b, LU_data, LU_pivots) */
        if (tsr_linalg_lu_solve(tensor_of(b->v[1]), tensor_of(b->v[2]), a, true, false, &t[0]) < 0)
            return bind_runtime_error();
        return one(t[0], out, b);
    case K_SOLVE_TRI:
        if (tsr_linalg_solve_triangular(a, tensor_of(b->v[1]), flag(b, "upper", false), flag(b, "left", true),
                                        flag(b, "unitriangular", false), &t[0]) < 0)
            return bind_runtime_error();
        return one(t[0], out, b);
    case K_TRI_SOLVE:
        if (tsr_triangular_solve(a, tensor_of(b->v[1]), flag(b, "upper", true), flag(b, "transpose", false),
                                 flag(b, "unitriangular", false), &t[0], &t[1]) < 0)
            return bind_runtime_error();
        return bind_linalg_tuple(&rt_triangular_solve, &rt_triangular_solve_out, 2, t, b, NULL, NULL);
    case K_CHOLESKY_SOLVE: return one(tsr_cholesky_solve(a, tensor_of(b->v[1]), flag(b, "upper", false)), out, b);
    case K_CHOLESKY_INVERSE: return one(tsr_cholesky_inverse(a, flag(b, "upper", false)), out, b);
    case K_EIG:
        if (tsr_linalg_eig(a, &t[0], &t[1]) < 0) return bind_runtime_error();
        return bind_linalg_tuple(&rt_linalg_eig, &rt_linalg_eig_out, 2, t, b, "torch.linalg.eig",
                                 (const char *const[]){"eigenvalues", "eigenvectors"});
    case K_EIGVALS:
        if (tsr_linalg_eig(a, &t[0], NULL) < 0) return bind_runtime_error();
        return one(t[0], out, b);
    case K_GEQRF:
        if (tsr_geqrf(a, &t[0], &t[1]) < 0) return bind_runtime_error();
        return bind_linalg_tuple(&rt_geqrf, &rt_geqrf_out, 2, t, b, "torch.geqrf", (const char *const[]){"a", "tau"});
    case K_HOUSEHOLDER:
        if (out) {
            tsr_tensor *r = tsr_householder_product_out(a, tensor_of(b->v[1]), out);
            ops_warn();
            return ops_finish(r, b->v[BIND_OUT]);
        }
        return v_tensor(tsr_householder_product(a, tensor_of(b->v[1])));
    case K_MATRIX_NORM:
    case K_LINALG_NORM:
    case K_NORM: {
        tsr_dims dims;
        tsr_scalar ord = tsr_scalar_int(2);
        const char *os = is_str_arg(b, 1) ? b->v[1]->u.s.p : NULL;
        bool keep = flag(b, "keepdim", false), has_ord = b->v[1] != NULL;
        tsr_dtype dt = bind_table_dtype(ARG("dtype"), TSR_DTYPE_UNDEFINED);
        if (has_ord && !os && bind_scalar(b->v[1], fname, "ord", &ord) < 0) return NULL;
        if (dims_arg(b, 2, fname, &dims) < 0) return NULL;
        tsr_tensor *r = NULL;
        if (d->kind == K_MATRIX_NORM) {
            if (dims.n < 0) dims = (tsr_dims){.n = 2, .d = {-2, -1}};
            if (!has_ord) os = "fro";
            r = tsr_linalg_matrix_norm(a, os, tsr_scalar_to_double(ord), &dims, keep, dt, out);
        } else if (d->kind == K_LINALG_NORM) {
            r = tsr_linalg_norm(a, has_ord, os, tsr_scalar_to_double(ord), &dims, keep, dt, out);
        } else if (os) {   /* torch.norm (torch/functional.py of 1.13) */
            bool dflt = !b->v[2] && !out && dt == TSR_DTYPE_UNDEFINED;
            if (!strcmp(os, "fro")) {
                if (!dflt && dt != TSR_DTYPE_UNDEFINED)
                    return exc_set("ValueError", "dtype argument is not supported in frobenius norm");
                if (dflt) dims.n = 0;
                else if (dims.n < 0) {
                    dims.n = a->ndim;
                    for (int i = 0; i < a->ndim; i++) dims.d[i] = i;
                }
                r = tsr_frobenius_norm(a, &dims, keep, out);
            } else if (!strcmp(os, "nuc")) {
                if (dt != TSR_DTYPE_UNDEFINED)
                    return exc_set("ValueError", "dtype argument is not supported in nuclear norm");
                if (dims.n < 0) {
                    if (a->ndim != 2)
                        return exc_set("RuntimeError", "Expected a tensor with 2 dimensions, but got a tensor with %d "
                                       "dimension%s instead.", a->ndim, a->ndim == 1 ? "" : "s");
                    dims = (tsr_dims){.n = 2, .d = {-2, -1}};
                } else if (dims.n != 2) {
                    return exc_set("RuntimeError", "nuclear norm requires a 'dim' argument of size 2");
                }
                r = tsr_linalg_matrix_norm(a, "nuc", 0, &dims, keep, TSR_DTYPE_UNDEFINED, out);
            } else {
                return exc_set("RuntimeError", "only valid string values are 'fro' and 'nuc', found %s", os);
            }
        } else {
            r = tsr_norm(a, tsr_scalar_to_double(ord), &dims, keep, dt, out);
        }
        if (!r) return bind_runtime_error();
        if (!out) return v_tensor(r);
        ops_warn();
        return ops_finish(r, b->v[BIND_OUT]);
    }
    case K_TRACE: return v_tensor(tsr_trace(a));
    case K_KRON: return one(tsr_kron(a, tensor_of(b->v[1]), NULL), out, b);
    case K_VECDOT: {
        int64_t dim;
        if (bind_table_int(b, 2, -1, &dim) < 0) return bind_runtime_error();
        tsr_tensor *r = tsr_linalg_vecdot(a, tensor_of(b->v[1]), dim, out);
        if (!r) return bind_runtime_error();
        if (!out) return v_tensor(r);
        ops_warn();
        return ops_finish(r, b->v[BIND_OUT]);
    }
    case K_VANDER: {
        int64_t n = 0;
        if (bind_table_int(b, 1, 0, &n) < 0) return bind_runtime_error();
        return v_tensor(tsr_linalg_vander(a, b->v[1] != NULL, n));
    }
    case K_PINV:
    case K_PINVERSE:
    case K_MATRIX_RANK: {
        tsr_tensor *atol = NULL, *rtol = NULL, *r = NULL;
        const char *rc_name = d->kind == K_MATRIX_RANK ? "tol" : "rcond";
        Value *rc = bind_table_arg(b, rc_name);
        if (d->kind == K_PINVERSE && !rc) {
            if (!(rtol = tsr_full(0, NULL, tsr_scalar_float(1e-15), TSR_FLOAT64, a->device))) return bind_runtime_error();
        } else if (rc) {   /* the deprecated forms: rcond is rtol (atol 0), tol is atol (rtol 0) */
            tsr_tensor *x = NULL;
            if (tol_arg(b, rc_name, fname, a->device, &x) < 0) return NULL;
            tsr_tensor *z = tsr_zeros(0, NULL, TSR_FLOAT64, a->device);
            if (!z) { tsr_tensor_release(x); return bind_runtime_error(); }
            if (d->kind == K_MATRIX_RANK) { atol = x; rtol = z; } else { rtol = x; atol = z; }
        } else if (tol_arg(b, "atol", fname, a->device, &atol) < 0 || tol_arg(b, "rtol", fname, a->device, &rtol) < 0) {
            tsr_tensor_release(atol);
            return NULL;
        }
        if (d->kind == K_MATRIX_RANK) r = tsr_linalg_matrix_rank(a, atol, rtol, flag(b, "hermitian", false));
        else r = tsr_linalg_pinv(a, atol, rtol, flag(b, "hermitian", false));
        tsr_tensor_release(atol);
        tsr_tensor_release(rtol);
        return one(r, out, b);
    }
    case K_MULTI_DOT: {
        Value *l = b->v[0];
        size_t n = seq_len(l);
        const tsr_tensor **ts = calloc(n ? n : 1, sizeof *ts);
        if (!ts) return exc_set("MemoryError", "out of memory");
        for (size_t i = 0; i < n; i++) ts[i] = tensor_of(seq_get(l, i));
        tsr_tensor *r = tsr_linalg_multi_dot((int)n, ts, out);
        free(ts);
        if (!r) return bind_runtime_error();
        if (!out) return v_tensor(r);
        ops_warn();
        return ops_finish(r, b->v[BIND_OUT]);
    }
    case K_VECTOR_NORM: {
        tsr_scalar ord = tsr_scalar_int(2);
        tsr_dims dims = {.n = -1};
        int n;
        if (b->v[1] && bind_scalar(b->v[1], fname, "ord", &ord) < 0) return NULL;
        if (b->v[2]) {
            if (bind_table_intlist(b, 2, fname, dims.d, TSR_MAX_DIMS, &n) < 0) return NULL;
            dims.n = n;
        }
        tsr_tensor *r = tsr_linalg_vector_norm(a, tsr_scalar_to_double(ord), &dims, flag(b, "keepdim", false),
                                               bind_table_dtype(ARG("dtype"), TSR_DTYPE_UNDEFINED), out);
        if (!r) return bind_runtime_error();
        if (!out) return v_tensor(r);
        ops_warn();
        return ops_finish(r, b->v[BIND_OUT]);
    }
    }
    return exc_set("RuntimeError", "internal error: linalg kind %d", d->kind);
}

/* ------------------------------------------------------------ the table */

#define FM (BIND_FN | BIND_METHOD)
#define LROW(n, k, s) {.name = n, .kind = k, .flags = BIND_FN, .sigs = s, .handler = lapack_call, \
                       .module = "torch.linalg"}
#define TROW(n, k, fl, s) {.name = n, .kind = k, .flags = fl, .sigs = s, .handler = lapack_call}

static BindRow rows[] = {
    LROW("inv", K_INV, "Tensor A, *, Tensor? out=None"),
    LROW("inv_ex", K_INV_EX, "Tensor A, *, bool check_errors=False, Tensor[]? out=None"),
    LROW("det", K_DET, "Tensor A, *, Tensor? out=None"),
    LROW("slogdet", K_SLOGDET, "Tensor A, *, Tensor[]? out=None"),
    LROW("solve", K_SOLVE, "Tensor A, Tensor B, *, bool left=True, Tensor? out=None"),
    LROW("solve_ex", K_SOLVE_EX, "Tensor A, Tensor B, *, bool left=True, bool check_errors=False, Tensor[]? out=None"),
    LROW("cholesky", K_CHOLESKY, "Tensor A, *, bool upper=False, Tensor? out=None"),
    LROW("cholesky_ex", K_CHOLESKY_EX, "Tensor A, *, bool upper=False, bool check_errors=False, Tensor[]? out=None"),
    LROW("qr", K_QR, "Tensor A, c10::string_view mode=\"reduced\", *, Tensor[]? out=None"),
    LROW("eigh", K_EIGH, "Tensor A, c10::string_view UPLO=\"L\", *, Tensor[]? out=None"),
    LROW("eigvalsh", K_EIGVALSH, "Tensor A, c10::string_view UPLO=\"L\", *, Tensor? out=None"),
    LROW("svd", K_SVD, "Tensor A, bool full_matrices=True, *, c10::string_view? driver=None, Tensor[]? out=None"),
    LROW("svdvals", K_SVDVALS, "Tensor A, *, c10::string_view? driver=None, Tensor? out=None"),
    LROW("matrix_power", K_MATRIX_POWER, "Tensor A, int n, *, Tensor? out=None"),
    LROW("lu_factor", K_LU_FACTOR, "Tensor A, *, bool pivot=True, Tensor[]? out=None"),
    LROW("lu_factor_ex", K_LU_FACTOR_EX, "Tensor A, *, bool pivot=True, bool check_errors=False, Tensor[]? out=None"),
    LROW("lu", K_LU, "Tensor A, *, bool pivot=True, Tensor[]? out=None"),
    LROW("lu_solve", K_LU_SOLVE, "Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool adjoint=False, "
                                 "Tensor? out=None"),
    LROW("solve_triangular", K_SOLVE_TRI, "Tensor A, Tensor B, *, bool upper, bool left=True, "
                                          "bool unitriangular=False, Tensor? out=None"),
    LROW("eig", K_EIG, "Tensor A, *, Tensor[]? out=None"),
    LROW("eigvals", K_EIGVALS, "Tensor A, *, Tensor? out=None"),
    LROW("householder_product", K_HOUSEHOLDER, "Tensor A, Tensor tau, *, Tensor? out=None"),
    LROW("vector_norm", K_VECTOR_NORM, "Tensor input, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, "
                                       "ScalarType? dtype=None, Tensor? out=None"),
    LROW("matrix_norm", K_MATRIX_NORM,
         "Tensor input, Scalar ord, int[] dim=[-2,-1], bool keepdim=False, *, ScalarType? dtype=None, "
         "Tensor? out=None|Tensor input, c10::string_view ord=\"fro\", int[] dim=[-2,-1], bool keepdim=False, *, "
         "ScalarType? dtype=None, Tensor? out=None"),
    LROW("norm", K_LINALG_NORM,
         "Tensor input, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, "
         "Tensor? out=None|Tensor input, c10::string_view ord, int[1]? dim=None, bool keepdim=False, *, "
         "ScalarType? dtype=None, Tensor? out=None"),
    TROW("norm", K_NORM, FM,
         "Tensor input, c10::string_view p=\"fro\", int[1]? dim=None, bool keepdim=False, Tensor? out=None, "
         "ScalarType? dtype=None|Tensor input, Scalar? p, int[1]? dim=None, bool keepdim=False, Tensor? out=None, "
         "ScalarType? dtype=None"),
    LROW("vecdot", K_VECDOT, "Tensor x, Tensor y, *, int dim=-1, Tensor? out=None"),
    LROW("vander", K_VANDER, "Tensor x, *, int? N=None"),
    TROW("trace", K_TRACE, FM, "Tensor input"),
    TROW("kron", K_KRON, FM, "Tensor input, Tensor other, *, Tensor? out=None"),
    LROW("pinv", K_PINV, "Tensor input, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False, "
                         "Tensor? out=None|Tensor input, *, float? atol=None, float? rtol=None, bool hermitian=False, "
                         "Tensor? out=None|Tensor input, Tensor rcond, bool hermitian=False, *, Tensor? out=None|"
                         "Tensor input, float rcond, bool hermitian=False, *, Tensor? out=None"),
    LROW("matrix_rank", K_MATRIX_RANK, "Tensor input, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False, "
                                       "Tensor? out=None|Tensor input, *, float? atol=None, float? rtol=None, "
                                       "bool hermitian=False, Tensor? out=None|Tensor input, Tensor tol, "
                                       "bool hermitian=False, *, Tensor? out=None|Tensor input, float tol, "
                                       "bool hermitian=False, *, Tensor? out=None"),
    TROW("pinverse", K_PINVERSE, FM, "Tensor input, float rcond=1e-15"),
    LROW("multi_dot", K_MULTI_DOT, "Tensor[] tensors, *, Tensor? out=None"),
    TROW("lu", K_LU_OLD, FM, "Tensor input, bool pivot=True, bool get_infos=False, object out=None|"
                             "!Tensor A, bool pivot=True, bool get_infos=False, object out=None"),   /* torch.lu(A=) */
    TROW("lu_unpack", K_LU_UNPACK, BIND_FN, "Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, "
                                            "bool unpack_pivots=True, *, Tensor[]? out=None"),
    TROW("lu_solve", K_LU_SOLVE_OLD, FM, "Tensor input, Tensor LU_data, Tensor LU_pivots, *, Tensor? out=None"),
    TROW("triangular_solve", K_TRI_SOLVE, FM, "Tensor input, Tensor A, bool upper=True, bool transpose=False, "
                                              "bool unitriangular=False, *, Tensor[]? out=None"),
    TROW("cholesky_solve", K_CHOLESKY_SOLVE, FM, "Tensor input, Tensor input2, bool upper=False, *, Tensor? out=None"),
    TROW("cholesky_inverse", K_CHOLESKY_INVERSE, FM, "Tensor input, bool upper=False, *, Tensor? out=None"),
    TROW("geqrf", K_GEQRF, FM, "Tensor input, *, Tensor[]? out=None"),
    TROW("orgqr", K_HOUSEHOLDER, FM, "Tensor input, Tensor input2, *, Tensor? out=None"),
    TROW("inverse", K_INV, FM, "Tensor input, *, Tensor? out=None"),
    TROW("det", K_DET, FM, "Tensor input"),
    TROW("logdet", K_LOGDET, FM, "Tensor input"),
    TROW("slogdet", K_SLOGDET, FM, "Tensor input, *, Tensor[]? out=None"),
    TROW("cholesky", K_CHOLESKY_OLD, FM, "Tensor input, bool upper=False, *, Tensor? out=None"),
    TROW("qr", K_QR_OLD, FM, "Tensor input, bool some=True, *, Tensor[]? out=None"),
    TROW("svd", K_SVD_OLD, FM, "Tensor input, bool some=True, bool compute_uv=True, *, Tensor[]? out=None"),
    TROW("matrix_power", K_MATRIX_POWER, FM, "Tensor input, int n, *, Tensor? out=None"),
};

void bind_linalg_lapack_init(void)
{
    bind_table_register(rows, (int)(sizeof rows / sizeof rows[0]));
}
