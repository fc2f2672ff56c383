/* runtime/ops/dispatch.c — the ATen-name index over the op families'
 * descriptor tables, and the plain elementwise path that runs a descriptor
 * with no family runner (a new op is its body and its descriptor). */
#include <string.h>

#include "../error.h"
#include "bessel.h"
#include "binary.h"
#include "dispatch.h"
#include "factory.h"
#include "loops.h"
#include "special.h"
#include "unary.h"

static const tsr_op *(*const families[])(int) = {
    tsr_binary_op_at, tsr_unary_op_at, tsr_special_op_at, tsr_bessel_op_at,
};

const tsr_op *tsr_op_find(const char *aten)
{
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
        for (int i = 0;; i++) {
            const tsr_op *op = families[f](i);
            if (!op) break;
            if (op->aten && !strcmp(op->aten, aten)) return op;
        }
    return NULL;
}

const tsr_op *tsr_op_find_name(const char *name)
{
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
        for (int i = 0;; i++) {
            const tsr_op *op = families[f](i);
            if (!op) break;
            if (op->name && !strcmp(op->name, name)) return op;
        }
    return NULL;
}

static tsr_tensor *run_plain(const tsr_op *op, const tsr_operand *in, tsr_tensor *out, bool inplace)
{
    int n = op->arity;
    if (tsr_op_check_inputs(op, n, in) < 0) return NULL;
    tsr_dtype dt = tsr_op_compute_dtype(op, n, in, NULL);
    if (op->complex_msg && tsr_dtype_is_complex(dt)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s", op->complex_msg);
        return NULL;
    }
    if (op->bool_msg && tsr_operand_dtype(&in[0]) == TSR_BOOL) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s", op->bool_msg);
        return NULL;
    }
    tsr_dtype rdt = tsr_op_result_dtype(op, dt);
    tsr_iter_config cfg = {.nin = n, .out_dtype = rdt, .check_dtype = rdt, .check = tsr_op_out_check(op),
                           .inplace = inplace, .kname = op->kname, .kdtype = dt,
                           .dev_kernel = tsr_op_dev_kernel(op), .aten = op->aten};
    for (int k = 0; k < n; k++) cfg.in_dtype[k] = dt;
    tsr__kparams kp = {0};
    return tsr_iter_run(&cfg, in, out, tsr_op_kernel(op, dt), &kp);
}

tsr_tensor *tsr_op_run(const tsr_op *op, const tsr_operand *in, tsr_tensor *out, bool inplace)
{
    if (op->arity < 1 || op->arity > TSR_ITER_MAX_IN) {
        tsr_error_set(TSR_ERR_VALUE, "%s: no elementwise path for %d operands", op->name, op->arity);
        return NULL;
    }
    bool any_tensor = false;
    for (int k = 0; k < op->arity; k++) any_tensor = any_tensor || in[k].t;
    if (!any_tensor) {
        tsr_tensor *t = tsr_full(0, NULL, in[0].s, tsr_operand_promo_dtype(&in[0]), TSR_CPU);
        if (!t) return NULL;
        tsr_operand w[TSR_OP_MAX_OPERANDS];
        memcpy(w, in, (size_t)op->arity * sizeof *w);
        w[0] = tsr_operand_tensor(t);
        tsr_tensor *r = tsr_op_run(op, w, out, inplace);
        tsr_tensor_release(t);
        return r;
    }
    return op->run ? op->run(op, in, out, inplace) : run_plain(op, in, out, inplace);
}
