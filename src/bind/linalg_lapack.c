/* src/bind/linalg_lapack.c — torch.linalg's LAPACK functions (inv, det,
 * slogdet, solve, cholesky, qr, eigh, svd, matrix_power and their *_ex /
 * vals forms) and the older torch.inverse, det, logdet, slogdet, cholesky,
 * qr, svd, matrix_power, with 1.13's signatures. Every rule is
 * runtime/ops/linalg.h's. */
#include <string.h>

#include "bind/areas.h"
#include "bind/ops.h"
#include "bind/table.h"
#include "ops/linalg.h"

typedef enum {
    K_INV, K_INV_EX, K_DET, K_SLOGDET, K_LOGDET, K_SOLVE, K_SOLVE_EX, K_CHOLESKY, K_CHOLESKY_EX, K_CHOLESKY_OLD,
    K_QR, K_QR_OLD, K_EIGH, K_EIGVALSH, K_SVD, K_SVDVALS, K_SVD_OLD, K_MATRIX_POWER
} Kind;

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

static Value *lapack_call(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)fname, (void)self, (void)inplace;
    tsr_tensor *a = tensor_of(b->v[0]), *t[3] = {NULL, NULL, NULL}, *out = b->v[BIND_OUT] ? tensor_of(b->v[BIND_OUT]) : NULL;
    int rc = 0;
    switch ((Kind)d->kind) {
    case K_INV:
        rc = tsr_linalg_inv_ex(a, "linalg.inv", &t[0], &t[1]);
        if (rc == 0) tsr_tensor_release(t[1]);
        return rc < 0 ? bind_runtime_error() : one(t[0], out, b);
    case K_INV_EX:
        if (tsr_linalg_inv_ex(a, flag(b, "check_errors", false) ? "linalg.inv_ex" : NULL, &t[0], &t[1]) < 0) return bind_runtime_error();
        return tuple(&rt_linalg_inv_ex, 2, t);
    case K_DET: return one(tsr_linalg_det(a), out, b);
    case K_LOGDET: return v_tensor(tsr_logdet(a));
    case K_SLOGDET:
        if (tsr_linalg_slogdet(a, &t[0], &t[1]) < 0) return bind_runtime_error();
        return tuple(d->module ? &rt_linalg_slogdet : &rt_slogdet, 2, t);
    case K_SOLVE:
    case K_SOLVE_EX: {
        bool ex = d->kind == K_SOLVE_EX;
        const char *check = !ex ? "torch.linalg.solve" : flag(b, "check_errors", false) ? "torch.linalg.solve_ex" : NULL;
        if (tsr_linalg_solve_ex(a, tensor_of(b->v[1]), check, &t[0], &t[1]) < 0)
            return bind_runtime_error();
        if (ex) return tuple(&rt_linalg_solve_ex, 2, t);
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
        return tuple(&rt_linalg_cholesky_ex, 2, t);
    case K_QR:
        if (tsr_linalg_qr(a, str(b, "mode", "reduced"), &t[0], &t[1]) < 0) return bind_runtime_error();
        return tuple(&rt_linalg_qr, 2, t);
    case K_QR_OLD:
        if (tsr_linalg_qr(a, flag(b, "some", true) ? "reduced" : "complete", &t[0], &t[1]) < 0)
            return bind_runtime_error();
        return tuple(&rt_qr, 2, t);
    case K_EIGH:
        if (tsr_linalg_eigh(a, str(b, "UPLO", "L"), &t[0], &t[1]) < 0) return bind_runtime_error();
        return tuple(&rt_linalg_eigh, 2, t);
    case K_EIGVALSH:
        if (tsr_linalg_eigh(a, str(b, "UPLO", "L"), &t[0], NULL) < 0) return bind_runtime_error();
        return one(t[0], out, b);
    case K_SVD:
        if (tsr_linalg_svd(a, flag(b, "full_matrices", true), &t[0], &t[1], &t[2]) < 0) return bind_runtime_error();
        return tuple(&rt_linalg_svd, 3, t);
    case K_SVDVALS:
        if (tsr_linalg_svd(a, false, NULL, &t[0], NULL) < 0) return bind_runtime_error();
        return one(t[0], out, b);
    case K_SVD_OLD:
        if (tsr_svd_legacy(a, flag(b, "some", true), flag(b, "compute_uv", true), &t[0], &t[1], &t[2]) < 0)
            return bind_runtime_error();
        return tuple(&rt_svd, 3, t);
    case K_MATRIX_POWER: {
        int64_t n;
        if (bind_table_int(b, 1, 0, &n) < 0) return bind_runtime_error();
        return one(tsr_linalg_matrix_power(a, n), out, b);
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
    LROW("inv_ex", K_INV_EX, "Tensor A, *, bool check_errors=False"),
    LROW("det", K_DET, "Tensor A, *, Tensor? out=None"),
    LROW("slogdet", K_SLOGDET, "Tensor A"),
    LROW("solve", K_SOLVE, "Tensor A, Tensor B, *, Tensor? out=None"),
    LROW("solve_ex", K_SOLVE_EX, "Tensor A, Tensor B, *, bool check_errors=False"),
    LROW("cholesky", K_CHOLESKY, "Tensor A, *, bool upper=False, Tensor? out=None"),
    LROW("cholesky_ex", K_CHOLESKY_EX, "Tensor A, *, bool upper=False, bool check_errors=False"),
    LROW("qr", K_QR, "Tensor A, c10::string_view mode=\"reduced\""),
    LROW("eigh", K_EIGH, "Tensor A, c10::string_view UPLO=\"L\""),
    LROW("eigvalsh", K_EIGVALSH, "Tensor A, c10::string_view UPLO=\"L\", *, Tensor? out=None"),
    LROW("svd", K_SVD, "Tensor A, bool full_matrices=True"),
    LROW("svdvals", K_SVDVALS, "Tensor A, *, Tensor? out=None"),
    LROW("matrix_power", K_MATRIX_POWER, "Tensor A, int n, *, Tensor? out=None"),
    TROW("inverse", K_INV, FM, "Tensor input, *, Tensor? out=None"),
    TROW("det", K_DET, FM, "Tensor input"),
    TROW("logdet", K_LOGDET, FM, "Tensor input"),
    TROW("slogdet", K_SLOGDET, FM, "Tensor input"),
    TROW("cholesky", K_CHOLESKY_OLD, FM, "Tensor input, bool upper=False, *, Tensor? out=None"),
    TROW("qr", K_QR_OLD, FM, "Tensor input, bool some=True"),
    TROW("svd", K_SVD_OLD, FM, "Tensor input, bool some=True, bool compute_uv=True"),
    TROW("matrix_power", K_MATRIX_POWER, FM, "Tensor input, int n, *, Tensor? out=None"),
};

void bind_linalg_lapack_init(void)
{
    bind_table_register(rows, (int)(sizeof rows / sizeof rows[0]));
}
