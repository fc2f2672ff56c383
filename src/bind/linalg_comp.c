/* src/bind/linalg_comp.c — the torch.linalg functions added after the
 * LAPACK set of linalg_lapack.c (tensorinv, tensorsolve, matrix_exp, cond,
 * lstsq, ldl_factor(_ex), ldl_solve, ormqr) with 1.13's signatures, and the
 * named-tuple results with out= both files share. Every rule is
 * runtime/ops/linalg.h's. */
#include <stdlib.h>
#include <string.h>

#include "bind/areas.h"
#include "bind/ops.h"
#include "bind/table.h"
#include "op.h"
#include "ops/linalg.h"
#include "bind/linalg_int.h"

typedef enum { K_TENSORINV, K_TENSORSOLVE, K_MATRIX_EXP, K_COND, K_LSTSQ, K_LDL_FACTOR, K_LDL_FACTOR_EX, K_LDL_SOLVE,
               K_ORMQR } Kind;

/* A single result, written into out= (checkLinalgCompatibleDtype) when given. */
static Value *one_cast(tsr_tensor *r, BindArgs *b, const char *fn)
{
    tsr_tensor *out = b->v[BIND_OUT] ? tensor_of(b->v[BIND_OUT]) : NULL;
    if (!r) return bind_runtime_error();
    if (!out) return v_tensor(r);
    r = tsr_linalg_out_cast(r, out, fn);
    ops_warn();
    return ops_finish(r, b->v[BIND_OUT]);
}

static bool flag(const BindArgs *b, const char *name)
{
    Value *v = bind_table_arg(b, name);
    return v && v->u.i != 0;
}

/* A single result of a structured op, written into out= (same dtype) when given. */
static Value *one_same(tsr_tensor *r, BindArgs *b)
{
    tsr_tensor *out = b->v[BIND_OUT] ? tensor_of(b->v[BIND_OUT]) : NULL;
    if (!r) return bind_runtime_error();
    if (!out) return v_tensor(r);
    r = tsr_linalg_out(r, out);
    ops_warn();
    return ops_finish(r, b->v[BIND_OUT]);
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

static Value *comp_call(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)self, (void)inplace;
    tsr_tensor *a = tensor_of(b->v[0]), *out = b->v[BIND_OUT] ? tensor_of(b->v[BIND_OUT]) : NULL;
    switch ((Kind)d->kind) {
    case K_TENSORINV: {
        int64_t ind;
        if (bind_table_int(b, 1, 2, &ind) < 0) return bind_runtime_error();
        if (tsr_linalg_out_check(out, a->dtype, "tensorinv") < 0) return bind_runtime_error();
        return one_cast(tsr_linalg_tensorinv(a, ind), b, "tensorinv");
    }
    case K_TENSORSOLVE: {
        int64_t dims[TSR_MAX_DIMS];
        int n = -1;
        if (b->v[2] && bind_table_intlist(b, 2, fname, dims, TSR_MAX_DIMS, &n) < 0) return NULL;
        if (tsr_linalg_out_check(out, a->dtype, "tensorsolve") < 0) return bind_runtime_error();
        return one_cast(tsr_linalg_tensorsolve(a, tensor_of(b->v[1]), n, dims), b, "tensorsolve");
    }
    case K_LSTSQ: {
        tsr_tensor *t[4];
        Value *rc = bind_table_arg(b, "rcond"), *drv = bind_table_arg(b, "driver");
        double rcond = 0;
        if (rc && bind_table_float(rc, fname, "rcond", &rcond) < 0) return NULL;
        if (tsr_linalg_lstsq(a, tensor_of(b->v[1]), rc != NULL, rcond, drv ? drv->u.s.p : NULL, &t[0], &t[1], &t[2],
                             &t[3]) < 0)
            return bind_runtime_error();
        return bind_linalg_tuple(&rt_linalg_lstsq, &rt_linalg_lstsq_out, 4, t, b, "torch.linalg.lstsq",
                                 (const char *const[]){"solution", "solution", "rank", "singular_values"});
    }
    case K_LDL_FACTOR:
    case K_LDL_FACTOR_EX: {
        tsr_tensor *t[3];
        bool ex = d->kind == K_LDL_FACTOR_EX, herm = flag(b, "hermitian");
        const char *check = !ex                      ? "torch.linalg.ldl_factor"
                          : flag(b, "check_errors") ? "torch.linalg.ldl_factor_ex"
                                                    : NULL;
        if (tsr_linalg_ldl_factor_ex(a, herm, ex ? check : NULL, &t[0], &t[1], &t[2]) < 0) return bind_runtime_error();
        if (ex) return bind_linalg_tuple(&rt_linalg_ldl_factor_ex, &rt_linalg_ldl_factor_ex_out, 3, t, b, NULL, NULL);
        if (tsr_linalg_check_errors(t[2], check, a->ndim == 2) < 0) {
            for (int i = 0; i < 3; i++) tsr_tensor_release(t[i]);
            return bind_runtime_error();
        }
        tsr_tensor_release(t[2]);
        return bind_linalg_tuple(&rt_linalg_ldl_factor, &rt_linalg_ldl_factor_out, 2, t, b, NULL, NULL);
    }
    case K_LDL_SOLVE:
        return one_same(tsr_linalg_ldl_solve(a, tensor_of(b->v[1]), tensor_of(b->v[2]), flag(b, "hermitian")), b);
    case K_ORMQR: {
        if (tsr_ormqr_out_check(a, out) < 0) return bind_runtime_error();
        Value *l = bind_table_arg(b, "left"), *t = bind_table_arg(b, "transpose");
        tsr_tensor *r = tsr_ormqr(a, tensor_of(b->v[1]), tensor_of(b->v[2]), l ? l->u.i != 0 : true, t && t->u.i);
        if (!r) return bind_runtime_error();
        if (!out) return v_tensor(r);
        r = tsr_out_assign(r, out, false);
        ops_warn();
        return ops_finish(r, b->v[BIND_OUT]);
    }
    case K_MATRIX_EXP: return v_tensor(tsr_linalg_matrix_exp(a));
    case K_COND: {
        const char *os = b->v[1] && b->type[1] == BT_STR ? b->v[1]->u.s.p : NULL;
        tsr_scalar p = tsr_scalar_int(2);
        if (b->v[1] && !os && bind_scalar(b->v[1], fname, "p", &p) < 0) return NULL;
        if (tsr_linalg_out_check(out, tsr_dtype_to_real(a->dtype), "linalg.cond") < 0) return bind_runtime_error();
        return one_cast(tsr_linalg_cond(a, os, b->v[1] != NULL, tsr_scalar_to_double(p), p.kind == TSR_SCALAR_FLOAT),
                        b, "linalg.cond");
    }
    }
    return exc_set("RuntimeError", "internal error: linalg kind %d", d->kind);
}

/* ------------------------------------------------------------ the table */

#define LROW(n, k, s) {.name = n, .kind = k, .flags = BIND_FN, .sigs = s, .handler = comp_call, \
                       .module = "torch.linalg"}

#define TROW(n, k, fl, s) {.name = n, .kind = k, .flags = fl, .sigs = s, .handler = comp_call}

static BindRow rows[] = {
    LROW("tensorinv", K_TENSORINV, "Tensor input, int ind=2, *, Tensor? out=None"),
    LROW("tensorsolve", K_TENSORSOLVE, "Tensor input, Tensor other, int[]? dims=None, *, Tensor? out=None"),
    LROW("matrix_exp", K_MATRIX_EXP, "Tensor input"),
    LROW("ldl_factor", K_LDL_FACTOR, "Tensor A, *, bool hermitian=False, Tensor[]? out=None"),
    LROW("ldl_factor_ex", K_LDL_FACTOR_EX,
         "Tensor A, *, bool hermitian=False, bool check_errors=False, Tensor[]? out=None"),
    LROW("ldl_solve", K_LDL_SOLVE, "Tensor LD, Tensor pivots, Tensor B, *, bool hermitian=False, Tensor? out=None"),
    TROW("ormqr", K_ORMQR, BIND_FN | BIND_METHOD, "Tensor input, Tensor input2, Tensor input3, bool left=True, "
                                                  "bool transpose=False, *, Tensor? out=None"),
    LROW("lstsq", K_LSTSQ,
         "Tensor input, Tensor b, float? rcond=None, *, c10::string_view? driver=None, Tensor[]? out=None"),
    LROW("cond", K_COND, "Tensor input, Scalar? p=None, *, Tensor? out=None|Tensor input, c10::string_view p, *, "
                         "Tensor? out=None"),
    TROW("matrix_exp", K_MATRIX_EXP, BIND_FN | BIND_METHOD, "Tensor input"),
};

void bind_linalg_comp_init(void)
{
    bind_table_register(rows, (int)(sizeof rows / sizeof rows[0]));
}

Value *bind_linalg_tuple(const ReturnType *rt, const ReturnType *rt_out, int n, tsr_tensor **t, const BindArgs *b,
                         const char *fn, const char *const *names)
{
    Value *outv = b->v[BIND_OUT], *items[4];
    if (!outv) return tuple(rt, n, t);
    int ok = seq_len(outv) == (size_t)n;
    if (!ok) exc_set("TypeError", "expected tuple of %d elements but got %zu", n, seq_len(outv));
    for (int i = 0; i < n; i++) {
        tsr_tensor *r = ok ? tsr_linalg_out_named(t[i], tensor_of(seq_get(outv, (size_t)i)), fn, names ? names[i] : "")
                           : (tsr_tensor_release(t[i]), NULL);
        if (ok && !r) ok = 0, bind_runtime_error();
        tsr_tensor_release(r);
    }
    if (!ok) return NULL;
    ops_warn();
    for (int i = 0; i < n; i++) items[i] = incref(seq_get(outv, (size_t)i));
    return v_return_type(rt_out, items);
}
