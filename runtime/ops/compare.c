/* runtime/ops/compare.c — comparison and predicate kernels with bool output
 * (TensorIterator comparison_op: inputs in the common dtype, output bool, any
 * out= dtype accepted). Complex values support only == and !=. */
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#include <tgmath.h>
#include <string.h>
#include "../error.h"
#include "loops.h"
#include "compare.h"

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
