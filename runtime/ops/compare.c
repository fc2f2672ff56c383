/* runtime/ops/compare.c — comparison and predicate kernels with bool output
 * (TensorIterator comparison_op: inputs in the common dtype, output bool, any
 * out= dtype accepted). Complex values support only == and !=. */
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#include <tgmath.h>
#include <string.h>
#include "../error.h"
#include "loops.h"
#include "compare.h"
#include "binary.h"
#include "copy.h"
#include "reduce.h"
#include "unary.h"

#define EQ_(x, y) ((x) == (y))
#define NE_(x, y) ((x) != (y))
#define LT_(x, y) ((x) < (y))
#define LE_(x, y) ((x) <= (y))
#define GT_(x, y) ((x) > (y))
#define GE_(x, y) ((x) >= (y))
#define LAND_(x, y) ((x) != 0 && (y) != 0)
#define LOR_(x, y) ((x) != 0 || (y) != 0)
#define LXOR_(x, y) (((x) != 0) != ((y) != 0))

#define INSTB(OP, BODY) FAM_INT(DEF_B_BOOL, OP, BODY) FAM_FLOAT(DEF_B_BOOL, OP, BODY) FAM_BOOL(DEF_B_BOOL, OP, BODY)
#define TABR(OP) FAM_INT(ENTRY, OP) FAM_FLOAT(ENTRY, OP) FAM_BOOL(ENTRY, OP)
INSTB(eq, EQ_) FAM_COMPLEX(DEF_B_BOOL, eq, EQ_)
INSTB(ne, NE_) FAM_COMPLEX(DEF_B_BOOL, ne, NE_)
INSTB(lt, LT_) INSTB(le, LE_) INSTB(gt, GT_) INSTB(ge, GE_)
INSTB(land, LAND_) FAM_COMPLEX(DEF_B_BOOL, land, LAND_)
INSTB(lor, LOR_) FAM_COMPLEX(DEF_B_BOOL, lor, LOR_)
INSTB(lxor, LXOR_) FAM_COMPLEX(DEF_B_BOOL, lxor, LXOR_)

static const tsr_loop_fn cmp_tabs[TSR_CMP_COUNT][TSR_DTYPE_SLOTS] = {
    [TSR_CMP_EQ] = { TABR(eq) FAM_COMPLEX(ENTRY, eq) },
    [TSR_CMP_NE] = { TABR(ne) FAM_COMPLEX(ENTRY, ne) },
    [TSR_CMP_LT] = { TABR(lt) }, [TSR_CMP_LE] = { TABR(le) },
    [TSR_CMP_GT] = { TABR(gt) }, [TSR_CMP_GE] = { TABR(ge) },
    [TSR_CMP_LOGICAL_AND] = { TABR(land) FAM_COMPLEX(ENTRY, land) },
    [TSR_CMP_LOGICAL_OR] = { TABR(lor) FAM_COMPLEX(ENTRY, lor) },
    [TSR_CMP_LOGICAL_XOR] = { TABR(lxor) FAM_COMPLEX(ENTRY, lxor) },
};
#define CMP(nm, kn) {.name = nm, .aten = nm ".Tensor", .kname = kn, .arity = 2, .rule = TSR_DT_BOOL,            \
                         .cpu_dtypes = M_ALL, .meta_dtypes = M_ALL, .names = TSR_NAMES_BROADCAST, .cpu = NULL}
#define LOGICAL(nm, kn) {.name = nm, .aten = nm, .kname = kn, .arity = 2, .rule = TSR_DT_BOOL,                  \
                         .cpu_dtypes = M_ALL, .meta_dtypes = M_ALL, .names = TSR_NAMES_BROADCAST, .cpu = NULL}
/* The kernels are cmp_tabs[op] (complex32 is special-cased below). */
static const tsr_op cmp_ops[TSR_CMP_COUNT] = {   /* ORDER CMPOP */
    CMP("eq", "eq_cpu"), CMP("ne", "ne_cpu"), CMP("lt", "lt_cpu"), CMP("le", "le_cpu"), CMP("gt", "gt_cpu"),
    CMP("ge", "ge_cpu"), LOGICAL("logical_and", "logical_and_cpu"), LOGICAL("logical_or", "logical_or_cpu"),
    LOGICAL("logical_xor", "logical_xor_cpu"),
};
_Static_assert(sizeof cmp_ops / sizeof cmp_ops[0] == TSR_CMP_COUNT, "ORDER CMPOP");

const char *tsr_cmpop_name(tsr_cmpop op) { return (unsigned)op < TSR_CMP_COUNT ? cmp_ops[op].name : "?"; }
const tsr_op *tsr_cmpop_desc(tsr_cmpop op) { return (unsigned)op < TSR_CMP_COUNT ? &cmp_ops[op] : NULL; }

static tsr_tensor *compare_impl(tsr_cmpop op, const tsr_operand *a, const tsr_operand *b, tsr_tensor *out, bool inplace)
{
    if ((unsigned)op >= TSR_CMP_COUNT) {
        tsr_error_set(TSR_ERR_VALUE, "unknown comparison %d", (int)op);
        return NULL;
    }
    tsr_operand ops[2] = {*a, *b};
    if (tsr_op_check_inputs(&cmp_ops[op], 2, ops) < 0) return NULL;
    tsr_dtype dt = tsr_op_compute_dtype(&cmp_ops[op], 2, ops, NULL);
    tsr_loop_fn fn = dt == TSR_COMPLEX32 ? NULL : cmp_tabs[op][dt];
    /* complex32 has eq and ne (1.13): compare the exactly widened complex64 values */
    tsr_dtype in = dt;
    if (dt == TSR_COMPLEX32 && (op == TSR_CMP_EQ || op == TSR_CMP_NE)) {
        in = TSR_COMPLEX64;
        fn = cmp_tabs[op][in];
    }
    tsr_iter_config cfg = {.nin = 2, .in_dtype = {in, in}, .out_dtype = TSR_BOOL, .check_dtype = TSR_BOOL,
                           .check = TSR_CHECK_NONE, .inplace = inplace, .kname = cmp_ops[op].kname, .kdtype = dt,
                           .dev_kernel = tsr_op_dev_kernel(&cmp_ops[op]), .aten = cmp_ops[op].aten};
    return tsr_iter_run(&cfg, ops, out, fn, NULL);
}

tsr_tensor *tsr_compare(tsr_cmpop op, const tsr_operand *a, const tsr_operand *b, tsr_tensor *out)
{
    return compare_impl(op, a, b, out, false);
}

tsr_tensor *tsr_compare_(tsr_cmpop op, tsr_tensor *self, const tsr_operand *b)
{
    tsr_operand a = tsr_operand_tensor(self);
    return compare_impl(op, &a, b, self, true);
}

/* ------------------------------------------------------------ predicates */

#define ISNAN_F(x) isnan(x)
#define ISINF_F(x) isinf(x)
#define ISFIN_F(x) isfinite(x)
#define SIGNBIT_F(x) (signbit(x) != 0)
#define FALSE_(x) ((void)(x), false)
#define TRUE_(x) ((void)(x), true)
#define SIGNBIT_I(x) ((x) < 0)
#define ISNAN_C(x) (isnan(creal(x)) || isnan(cimag(x)))
#define ISINF_C(x) (isinf(creal(x)) || isinf(cimag(x)))
#define ISFIN_C(x) (isfinite(creal(x)) && isfinite(cimag(x)))
#define LNOT_(x) ((x) == 0)
#define DEF_P(dt, T, C, R, OP, BODY) DEF_U_TO(dt, T, C, R, OP, BODY, bool, (bool))
#define INSTP(OP, BI, BF, BC) FAM_INT(DEF_P, OP, BI) FAM_BOOL(DEF_P, OP, BI) FAM_FLOAT(DEF_P, OP, BF) \
                              FAM_COMPLEX(DEF_P, OP, BC)
#define TABP(OP) FAM_INT(ENTRY, OP) FAM_BOOL(ENTRY, OP) FAM_FLOAT(ENTRY, OP) FAM_COMPLEX(ENTRY, OP)
INSTP(isnan, FALSE_, ISNAN_F, ISNAN_C)
INSTP(isinf, FALSE_, ISINF_F, ISINF_C)
INSTP(isfin, TRUE_, ISFIN_F, ISFIN_C)
FAM_INT(DEF_P, sbit, SIGNBIT_I) FAM_BOOL(DEF_P, sbit, FALSE_) FAM_FLOAT(DEF_P, sbit, SIGNBIT_F)
INSTP(lnot, LNOT_, LNOT_, LNOT_)

static const tsr_loop_fn pred_tabs[TSR_PRED_COUNT][TSR_DTYPE_SLOTS] = {
    [TSR_PRED_ISNAN] = { TABP(isnan) }, [TSR_PRED_ISINF] = { TABP(isinf) },
    [TSR_PRED_ISFINITE] = { TABP(isfin) },
    [TSR_PRED_SIGNBIT] = { FAM_INT(ENTRY, sbit) FAM_BOOL(ENTRY, sbit) FAM_FLOAT(ENTRY, sbit) },
    [TSR_PRED_LOGICAL_NOT] = { TABP(lnot) },
};
#define PRED(nm) {.name = nm, .aten = nm, .kname = "logical_not_cpu", .arity = 1, .rule = TSR_DT_BOOL,          \
                      .cpu_dtypes = M_ALL, .meta_dtypes = M_ALL, .names = TSR_NAMES_UNARY}
static const tsr_op pred_ops[TSR_PRED_COUNT] = {   /* ORDER PRED */
    PRED("isnan"), PRED("isinf"), PRED("isfinite"), PRED("signbit"), PRED("logical_not"),
};
_Static_assert(sizeof pred_ops / sizeof pred_ops[0] == TSR_PRED_COUNT, "ORDER PRED");

const char *tsr_predop_name(tsr_predop op) { return (unsigned)op < TSR_PRED_COUNT ? pred_ops[op].name : "?"; }
const tsr_op *tsr_predop_desc(tsr_predop op) { return (unsigned)op < TSR_PRED_COUNT ? &pred_ops[op] : NULL; }

tsr_tensor *tsr_predicate(tsr_predop op, const tsr_tensor *x, tsr_tensor *out)
{
    if ((unsigned)op >= TSR_PRED_COUNT) {
        tsr_error_set(TSR_ERR_VALUE, "unknown predicate %d", (int)op);
        return NULL;
    }
    tsr_operand in = tsr_operand_tensor(x);
    if (tsr_op_check_inputs(&pred_ops[op], 1, &in) < 0) return NULL;
    tsr_dtype dt = x->dtype;
    if (op == TSR_PRED_SIGNBIT && tsr_dtype_is_complex(dt)) {
        tsr_error_set(TSR_ERR_RUNTIME, "signbit is not implemented for complex tensors.");
        return NULL;
    }
    tsr_loop_fn fn = (unsigned)dt < TSR_DTYPE_SLOTS ? pred_tabs[op][dt] : NULL;
    if (op == TSR_PRED_LOGICAL_NOT && dt == TSR_COMPLEX32) fn = NULL;
    tsr_iter_config cfg = {.nin = 1, .in_dtype = {dt}, .out_dtype = TSR_BOOL, .check_dtype = TSR_BOOL,
                           .check = TSR_CHECK_NONE, .kname = pred_ops[op].kname, .kdtype = dt,
                           .dev_kernel = tsr_op_dev_kernel(&pred_ops[op]), .aten = pred_ops[op].aten};
    return tsr_iter_run(&cfg, &in, out, fn, NULL);
}

/* ------------------------------------------------- isclose, allclose, equal */

typedef struct { double rtol, atol; bool equal_nan; tsr_dtype dt; } close_ctx;

static int close_loop(char **d, const int64_t *s, int64_t n, const void *ctx)
{
    const close_ctx *cc = ctx;
    for (int64_t i = 0; i < n; i++) {
        tsr_scalar a = tsr_scalar_load(cc->dt, d[1] + i * s[1]);
        tsr_scalar b = tsr_scalar_load(cc->dt, d[2] + i * s[2]);
        double ar, ai, br, bi;
        tsr_scalar_to_complex(a, &ar, &ai);
        tsr_scalar_to_complex(b, &br, &bi);
        bool cplx = tsr_dtype_is_complex(cc->dt), single = !cplx && cc->dt != TSR_FLOAT64;
        bool close = ar == br && ai == bi;
        if (cc->equal_nan && (isnan(ar) || isnan(ai)) && (isnan(br) || isnan(bi))) close = true;
        if (!close && (cc->rtol != 0 || cc->atol != 0)) {
            double err, allowed;
            if (single) {
                float e = fabsf((float)ar - (float)br);
                float al = (float)cc->atol + fabsf((float)cc->rtol * (float)br);
                close = isfinite(e) && e <= al;
            } else {
                err = hypot(ar - br, ai - bi);
                allowed = cc->atol + cc->rtol * hypot(br, bi);
                close = isfinite(err) && err <= allowed;
            }
        }
        *(bool *)(d[0] + i * s[0]) = close;
    }
    return 0;
}

/* isclose on a device, composed of device ops as TensorCompare.cpp's
 * isclose: a == b, or both NaN (equal_nan), or |a - b| finite and at most
 * atol + |rtol * b|, computed in the dtype (integers and bools in the
 * default float dtype). */
static bool on_device(const tsr_tensor *t) { return t->device.type != TSR_DEV_CPU && t->device.type != TSR_DEV_META; }

/* self op= b in place: 0 or -1. */
static int compare_into(tsr_cmpop op, tsr_tensor *self, const tsr_tensor *b)
{
    tsr_operand o = tsr_operand_tensor(b);
    tsr_tensor *r = tsr_compare_(op, self, &o);
    tsr_tensor_release(r);
    return r ? 0 : -1;
}

static tsr_tensor *isclose_device(const tsr_tensor *a, const tsr_tensor *b, double rtol, double atol, bool equal_nan)
{
    tsr_operand oa = tsr_operand_tensor(a), ob = tsr_operand_tensor(b);
    tsr_tensor *close = tsr_compare(TSR_CMP_EQ, &oa, &ob, NULL), *t[6] = {0};
    if (!close) return NULL;
    if (equal_nan && (tsr_dtype_is_floating(a->dtype) || tsr_dtype_is_complex(a->dtype))) {
        if (!(t[0] = tsr_predicate(TSR_PRED_ISNAN, a, NULL)) || !(t[1] = tsr_predicate(TSR_PRED_ISNAN, b, NULL)))
            goto fail;
        if (compare_into(TSR_CMP_LOGICAL_AND, t[0], t[1]) < 0 || compare_into(TSR_CMP_LOGICAL_OR, close, t[0]) < 0)
            goto fail;
        for (int k = 0; k < 2; k++) {
            tsr_tensor_release(t[k]);
            t[k] = NULL;
        }
    }
    if (rtol == 0 && atol == 0) return close;
    bool real = tsr_dtype_is_floating(a->dtype) || tsr_dtype_is_complex(a->dtype);
    tsr_dtype dt = real ? a->dtype : tsr_default_dtype();
    if (!(t[0] = tsr_to_dtype(a, dt, false)) || !(t[1] = tsr_to_dtype(b, dt, false))) goto fail;
    tsr_operand ca = tsr_operand_tensor(t[0]), cb = tsr_operand_tensor(t[1]);
    tsr_operand r = tsr_operand_scalar(tsr_scalar_float(rtol)), at = tsr_operand_scalar(tsr_scalar_float(atol));
    if (!(t[2] = tsr_binary(TSR_BINOP_MUL, &r, &cb, NULL, NULL)) || !(t[3] = tsr_unary(TSR_UNOP_ABS, t[2], NULL, NULL)))
        goto fail;
    tsr_operand scaled = tsr_operand_tensor(t[3]);
    if (!(t[4] = tsr_binary(TSR_BINOP_ADD, &at, &scaled, NULL, NULL))) goto fail;   /* allowed error */
    tsr_tensor_release(t[2]);
    tsr_tensor_release(t[3]);
    t[2] = t[3] = NULL;
    if (!(t[2] = tsr_binary(TSR_BINOP_SUB, &ca, &cb, NULL, NULL)) || !(t[3] = tsr_unary(TSR_UNOP_ABS, t[2], NULL, NULL)))
        goto fail;
    tsr_operand actual = tsr_operand_tensor(t[3]), allowed = tsr_operand_tensor(t[4]);
    if (!(t[5] = tsr_compare(TSR_CMP_LE, &actual, &allowed, NULL))) goto fail;
    tsr_tensor_release(t[2]);
    if (!(t[2] = tsr_predicate(TSR_PRED_ISFINITE, t[3], NULL))) goto fail;
    if (compare_into(TSR_CMP_LOGICAL_AND, t[5], t[2]) < 0 || compare_into(TSR_CMP_LOGICAL_OR, close, t[5]) < 0)
        goto fail;
    for (int k = 0; k < 6; k++) tsr_tensor_release(t[k]);
    return close;
fail:
    for (int k = 0; k < 6; k++) tsr_tensor_release(t[k]);
    tsr_tensor_release(close);
    return NULL;
}

tsr_tensor *tsr_isclose(const tsr_tensor *a, const tsr_tensor *b, double rtol, double atol, bool equal_nan)
{
    if (a->dtype != b->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s did not match %s", tsr_dtype_scalar_name(a->dtype),
                      tsr_dtype_scalar_name(b->dtype));
        return NULL;
    }
    if (rtol < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "rtol must be greater than or equal to zero, but got %g", rtol);
        return NULL;
    }
    if (atol < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "atol must be greater than or equal to zero, but got %g", atol);
        return NULL;
    }
    if ((a->device.type != TSR_DEV_CPU && a->device.type != TSR_DEV_META) ||
        (b->device.type != TSR_DEV_CPU && b->device.type != TSR_DEV_META))
        return isclose_device(a, b, rtol, atol, equal_nan);
    close_ctx cc = {rtol, atol, equal_nan, a->dtype};
    tsr_operand ops[2] = {tsr_operand_tensor(a), tsr_operand_tensor(b)};
    tsr_iter_config cfg = {.nin = 2, .in_dtype = {a->dtype, a->dtype}, .out_dtype = TSR_BOOL,
                           .check_dtype = TSR_BOOL, .check = TSR_CHECK_NONE};
    return tsr_iter_run(&cfg, ops, NULL, close_loop, &cc);
}

static int all_true(const tsr_tensor *t)
{
    if (on_device(t)) {   /* .all().item() on the device: one value read back */
        tsr_tensor *r = tsr_all_any(t, NULL, false, true, NULL);
        int ok = r ? tsr_tensor_get_int64(r, NULL) != 0 : -1;
        tsr_tensor_release(r);
        return ok;
    }
    int64_t n = tsr_tensor_numel(t);
    for (int64_t k = 0; k < n; k++)
        if (!tsr_tensor_get_int64_at(t, k)) return 0;
    return 1;
}

int tsr_allclose(const tsr_tensor *a, const tsr_tensor *b, double rtol, double atol, bool equal_nan)
{
    tsr_tensor *r = tsr_isclose(a, b, rtol, atol, equal_nan);
    if (!r) return -1;
    int ok = all_true(r);
    tsr_tensor_release(r);
    return ok;
}

int tsr_equal(const tsr_tensor *a, const tsr_tensor *b)
{
    if (a->ndim != b->ndim) return 0;
    for (int d = 0; d < a->ndim; d++)
        if (a->sizes[d] != b->sizes[d]) return 0;
    tsr_operand ops[2] = {tsr_operand_tensor(a), tsr_operand_tensor(b)};
    tsr_tensor *r = tsr_compare(TSR_CMP_EQ, &ops[0], &ops[1], NULL);
    if (!r) return -1;
    int ok = all_true(r);
    tsr_tensor_release(r);
    return ok;
}
