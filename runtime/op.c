/* runtime/op.c — what every op descriptor answers the same way: the compute
 * and result dtype from the rule (SEMANTICS.md §1.4), the kernel lookup, the
 * input checks (layout, names), and the step :explain prints. */
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "kernels.h"
#include "op.h"
#include "ops/copy.h"

tsr_dtype tsr_op_compute_dtype(const tsr_op *op, int n, const tsr_operand *in, tsr_promotion *ex)
{
    tsr_dtype dt = tsr_result_type(n, in, ex);
    if (dt == TSR_DTYPE_UNDEFINED) return dt;
    switch (op->rule) {
    case TSR_DT_FLOAT:
    case TSR_DT_UNARY_FLOAT:
    case TSR_DT_REAL_FLOAT:
        return tsr_dtype_is_integral(dt, true) ? tsr_default_dtype() : dt;
    case TSR_DT_DOUBLE:
        return tsr_dtype_is_complex(dt) ? TSR_COMPLEX128 : TSR_FLOAT64;
    case TSR_DT_SAME:
    case TSR_DT_ABS:
    case TSR_DT_SELF:
        return n > 0 ? tsr_operand_dtype(&in[0]) : dt;
    case TSR_DT_COMMON:
    case TSR_DT_BOOL:
    case TSR_DT_COUNT:
        break;
    }
    return dt;
}

tsr_dtype tsr_op_result_dtype(const tsr_op *op, tsr_dtype dt)
{
    if (op->rule == TSR_DT_BOOL) return TSR_BOOL;
    if ((op->rule == TSR_DT_ABS || op->rule == TSR_DT_REAL_FLOAT) && tsr_dtype_is_complex(dt))
        return tsr_dtype_to_real(dt);
    return dt;
}

tsr_out_check tsr_op_out_check(const tsr_op *op)
{
    switch (op->rule) {
    case TSR_DT_BOOL: return TSR_CHECK_NONE;
    case TSR_DT_SAME: case TSR_DT_ABS: return TSR_CHECK_SAME_DTYPE;
    default: return TSR_CHECK_CAN_CAST;
    }
}

tsr_loop_fn tsr_op_kernel(const tsr_op *op, tsr_dtype dt)
{
    if ((unsigned)dt >= TSR_DTYPE_SLOTS || !op->cpu || !(op->cpu_dtypes & TSR_OP_DTYPE_BIT(dt))) return NULL;
    return op->cpu[dt];
}

/* The device kernel (kernels.h) of each op a computing device backend runs,
 * by ATen name; sub is add with a negated alpha, clamp_min / clamp_max with
 * a Tensor bound are maximum / minimum (as their CPU kernels). An op whose
 * runtime picks another kernel variant (round with decimals) sets it
 * itself. Sorted (strcmp). */
static const struct { const char *aten; int kernel; } dev_kernels[] = {
    {"abs", TSR_K_ABS}, {"acos", TSR_K_ACOS}, {"acosh", TSR_K_ACOSH}, {"add.Tensor", TSR_K_ADD},
    {"addcdiv", TSR_K_ADDCDIV}, {"addcmul", TSR_K_ADDCMUL}, {"angle", TSR_K_ANGLE}, {"asin", TSR_K_ASIN},
    {"asinh", TSR_K_ASINH}, {"atan", TSR_K_ATAN}, {"atan2", TSR_K_ATAN2}, {"atanh", TSR_K_ATANH},
    {"bitwise_and.Tensor", TSR_K_BITAND}, {"bitwise_left_shift.Tensor", TSR_K_LSHIFT}, {"bitwise_not", TSR_K_BITNOT},
    {"bitwise_or.Tensor", TSR_K_BITOR}, {"bitwise_right_shift.Tensor", TSR_K_RSHIFT},
    {"bitwise_xor.Tensor", TSR_K_BITXOR}, {"ceil", TSR_K_CEIL}, {"clamp", TSR_K_CLAMP}, {"clamp.Tensor", TSR_K_CLAMP},
    {"clamp_max", TSR_K_CLAMP}, {"clamp_max.Tensor", TSR_K_MINIMUM}, {"clamp_min", TSR_K_CLAMP},
    {"clamp_min.Tensor", TSR_K_MAXIMUM}, {"copysign.Tensor", TSR_K_COPYSIGN}, {"cos", TSR_K_COS},
    {"cosh", TSR_K_COSH}, {"deg2rad", TSR_K_MULC}, {"digamma", TSR_K_DIGAMMA}, {"div.Tensor", TSR_K_DIV},
    {"div.Tensor_mode", TSR_K_DIV_TRUNC}, {"eq.Tensor", TSR_K_EQ}, {"erf", TSR_K_ERF}, {"erfc", TSR_K_ERFC},
    {"erfinv", TSR_K_ERFINV}, {"exp", TSR_K_EXP}, {"exp2", TSR_K_EXP2}, {"expm1", TSR_K_EXPM1},
    {"float_power.Tensor_Tensor", TSR_K_POW}, {"floor", TSR_K_FLOOR}, {"floor_divide", TSR_K_DIV_FLOOR},
    {"fmax", TSR_K_FMAX}, {"fmin", TSR_K_FMIN}, {"fmod.Tensor", TSR_K_FMOD}, {"frac", TSR_K_FRAC}, {"gcd", TSR_K_GCD},
    {"ge.Tensor", TSR_K_GE}, {"gt.Tensor", TSR_K_GT}, {"heaviside", TSR_K_HEAVISIDE}, {"hypot", TSR_K_HYPOT},
    {"igamma", TSR_K_IGAMMA}, {"igammac", TSR_K_IGAMMAC}, {"isfinite", TSR_K_ISFINITE}, {"isinf", TSR_K_ISINF},
    {"isnan", TSR_K_ISNAN}, {"lcm", TSR_K_LCM}, {"le.Tensor", TSR_K_LE}, {"lerp.Scalar", TSR_K_LERP},
    {"lerp.Tensor", TSR_K_LERP}, {"lgamma", TSR_K_LGAMMA}, {"log", TSR_K_LOG}, {"log10", TSR_K_LOG10},
    {"log1p", TSR_K_LOG1P}, {"log2", TSR_K_LOG2}, {"logaddexp", TSR_K_LOGADDEXP}, {"logaddexp2", TSR_K_LOGADDEXP2},
    {"logical_and", TSR_K_LOGICAL_AND}, {"logical_not", TSR_K_LOGICAL_NOT}, {"logical_or", TSR_K_LOGICAL_OR},
    {"logical_xor", TSR_K_LOGICAL_XOR}, {"logit", TSR_K_LOGIT}, {"lt.Tensor", TSR_K_LT}, {"maximum", TSR_K_MAXIMUM},
    {"minimum", TSR_K_MINIMUM}, {"mul.Tensor", TSR_K_MUL}, {"nan_to_num", TSR_K_NAN_TO_NUM}, {"ne.Tensor", TSR_K_NE},
    {"neg", TSR_K_NEG}, {"nextafter", TSR_K_NEXTAFTER}, {"polygamma", TSR_K_POLYGAMMA},
    {"pow.Tensor_Tensor", TSR_K_POW}, {"rad2deg", TSR_K_MULC}, {"reciprocal", TSR_K_RECIPROCAL}, {"relu", TSR_K_RELU},
    {"remainder.Tensor", TSR_K_REMAINDER}, {"round", TSR_K_ROUND}, {"rsqrt", TSR_K_RSQRT}, {"sgn", TSR_K_SIGN},
    {"sigmoid", TSR_K_SIGMOID}, {"sign", TSR_K_SIGN}, {"signbit", TSR_K_SIGNBIT}, {"sin", TSR_K_SIN},
    {"sinc", TSR_K_SINC}, {"sinh", TSR_K_SINH}, {"special_chebyshev_polynomial_t", TSR_K_POLY},
    {"special_chebyshev_polynomial_u", TSR_K_POLY}, {"special_chebyshev_polynomial_v", TSR_K_POLY},
    {"special_chebyshev_polynomial_w", TSR_K_POLY}, {"special_entr", TSR_K_ENTR}, {"special_erfcx", TSR_K_ERFCX},
    {"special_hermite_polynomial_h", TSR_K_POLY}, {"special_hermite_polynomial_he", TSR_K_POLY},
    {"special_laguerre_polynomial_l", TSR_K_POLY}, {"special_legendre_polynomial_p", TSR_K_POLY},
    {"special_log_ndtr", TSR_K_LOG_NDTR}, {"special_ndtri", TSR_K_NDTRI},
    {"special_shifted_chebyshev_polynomial_t", TSR_K_POLY}, {"special_shifted_chebyshev_polynomial_u", TSR_K_POLY},
    {"special_shifted_chebyshev_polynomial_v", TSR_K_POLY}, {"special_shifted_chebyshev_polynomial_w", TSR_K_POLY},
    {"special_xlog1py", TSR_K_XLOG1PY}, {"special_zeta", TSR_K_ZETA}, {"sqrt", TSR_K_SQRT}, {"sub.Tensor", TSR_K_ADD},
    {"tan", TSR_K_TAN}, {"tanh", TSR_K_TANH}, {"trunc", TSR_K_TRUNC}, {"where.self", TSR_K_WHERE},
    {"xlogy", TSR_K_XLOGY},
};

static int dev_kernel_cmp(const void *key, const void *ent)
{
    return strcmp(key, *(const char *const *)ent);
}

int tsr_op_dev_kernel(const tsr_op *op)
{
    if (!op || !op->aten) return TSR_K_NONE;
    const void *e = bsearch(op->aten, dev_kernels, sizeof dev_kernels / sizeof *dev_kernels, sizeof *dev_kernels,
                            dev_kernel_cmp);
    return e ? ((const __typeof__(dev_kernels[0]) *)e)->kernel : TSR_K_NONE;
}

/* Ops whose family gives a names rule but that 1.13 refuses with names
 * (probed with every descriptor on a named tensor; NamedRegistrations.cpp
 * lists no named kernel for them). Sorted. */
static const char *const refused_113[] = {
    "bitwise_and", "bitwise_left_shift", "bitwise_or", "bitwise_right_shift", "bitwise_xor", "copysign", "exp2",
    "fmax", "fmin", "fmod", "gcd", "heaviside", "lcm", "logit", "maximum", "minimum", "nan_to_num", "remainder",
    "sgn",
};

static int cmp_str(const void *a, const void *b) { return strcmp(a, *(const char *const *)b); }

tsr_names_rule tsr_op_names_rule(const tsr_op *op)
{
    if (op->names == TSR_NAMES_REFUSE) return op->names;
    if (bsearch(op->name, refused_113, sizeof refused_113 / sizeof *refused_113, sizeof *refused_113, cmp_str))
        return TSR_NAMES_REFUSE;
    return op->names;
}

int tsr_op_check_inputs(const tsr_op *op, int n, const tsr_operand *in)
{
    for (int k = 0; k < n; k++) {
        const tsr_tensor *t = in[k].t;
        if (!t) continue;
        uint32_t layouts = op->layouts ? op->layouts : TSR_OP_LAYOUT_BIT(TSR_LAYOUT_STRIDED);
        if (!(layouts & TSR_OP_LAYOUT_BIT(t->layout))) {
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "Could not run 'aten::%s' with arguments from the '%s%s' backend.",
                          op->aten ? op->aten : op->name, t->layout == TSR_LAYOUT_STRIDED ? "" : "Sparse",
                          tsr_device_backend_name(t->device.type));
            return -1;
        }
        if (t->names && tsr_op_names_rule(op) == TSR_NAMES_REFUSE) {
            /* the fallback names the schema with the overload that ran:
             * "aten::fmod.Tensor", "aten::fmod.Scalar" with a number */
            const char *s = op->aten ? op->aten : op->name, *dot = strchr(s, '.');
            bool scalar = n > 1 && !in[1].t && dot && !strcmp(dot, ".Tensor");
            tsr_error_set(TSR_ERR_RUNTIME, "aten::%.*s%s is not yet supported with named tensors. Please drop names "
                          "via `tensor = tensor.rename(None)`, call the op with an unnamed tensor, and set names "
                          "on the result of the operation.", scalar ? (int)(dot - s) : (int)strlen(s), s,
                          scalar ? ".Scalar" : "");
            return -1;
        }
    }
    return 0;
}

/* ORDER DTRULE */
const char *tsr_op_rule_text(const tsr_op *op, tsr_dtype common)
{
    switch (op->rule) {
    case TSR_DT_COMMON: return NULL;
    case TSR_DT_FLOAT:
        return tsr_dtype_is_integral(common, true) ? "division of integers (and atan2) gives the default float dtype"
                                                   : "the common dtype is already floating: it is kept";
    case TSR_DT_DOUBLE: return "float_power computes in float64 (complex128 for complex operands)";
    case TSR_DT_BOOL: return "comparisons and logical ops compute in the common dtype and return bool";
    case TSR_DT_UNARY_FLOAT:
        return tsr_dtype_is_integral(common, true) ? "a float function of an integer or bool tensor gives the default float dtype"
                                                   : "a float function keeps a floating or complex input dtype";
    case TSR_DT_SAME: return "keeps the input dtype (out= must have exactly that dtype)";
    case TSR_DT_ABS: return tsr_dtype_is_complex(common) ? "abs of a complex tensor gives its real dtype"
                                                         : "keeps the input dtype (out= must have exactly that dtype)";
    case TSR_DT_SELF: return "the result keeps self's dtype; the value is cast to it";
    case TSR_DT_REAL_FLOAT:
        return tsr_dtype_is_complex(common)    ? "the angle of a complex tensor gives its real dtype"
               : tsr_dtype_is_integral(common, true) ? "a float function of an integer or bool tensor gives the default float dtype"
                                                     : "a float function keeps a floating input dtype";
    case TSR_DT_COUNT: break;
    }
    return NULL;
}

/* The errors of the out= / in-place write, as the iterator words them. */
static bool is_out_refusal(const char *m)
{
    return !strncmp(m, "result type ", 12) || !strncmp(m, "Found dtype ", 12) ||
           strstr(m, "doesn't match the broadcast shape") != NULL;
}

void tsr_op_explain(const tsr_op *op, int n, const tsr_operand *in, const tsr_tensor *result,
                    const tsr_tensor *out, bool inplace, tsr_op_step *st)
{
    memset(st, 0, sizeof *st);
    st->op = op;
    if (n > TSR_OP_MAX_OPERANDS) n = TSR_OP_MAX_OPERANDS;
    st->noperands = n;
    for (int k = 0; k < n; k++) st->operands[k] = in[k];
    tsr_dtype common = tsr_result_type(n, in, &st->promo);
    st->compute = n ? tsr_op_compute_dtype(op, n, in, NULL) : TSR_DTYPE_UNDEFINED;
    if (op->rule == TSR_DT_BOOL && n) st->compute = TSR_BOOL;
    st->out_check = tsr_op_out_check(op);
    st->rule_text = tsr_op_rule_text(op, common);
    st->result = result ? result->dtype : TSR_DTYPE_UNDEFINED;
    st->device = result ? result->device : (n && in[0].t ? in[0].t->device : TSR_CPU);
    if (result) {
        st->ndim = result->ndim;
        memcpy(st->shape, result->sizes, sizeof(int64_t) * (size_t)result->ndim);
    } else {
        int nd[TSR_OP_MAX_OPERANDS], m = 0;
        const int64_t *sz[TSR_OP_MAX_OPERANDS];
        for (int k = 0; k < n; k++)
            if (in[k].t) { nd[m] = in[k].t->ndim; sz[m++] = in[k].t->sizes; }
        /* the first error wins: the failed op's own error stays; a shape
         * error of this query alone is forgotten */
        int had = tsr_error_occurred();
        int r = tsr_broadcast_shapes(m, nd, sz, st->shape);
        if (!had && r < 0) tsr_error_clear();
        st->ndim = r < 0 ? 0 : r;
    }
    st->inplace = inplace;
    st->has_out = out && !inplace;
    st->out_dtype = out ? out->dtype : TSR_DTYPE_UNDEFINED;
    if (out) {
        tsr_dtype from = st->compute == TSR_DTYPE_UNDEFINED ? common : st->compute;
        st->out_castable = st->out_check == TSR_CHECK_NONE ||
                           (st->out_check == TSR_CHECK_SAME_DTYPE ? from == out->dtype : tsr_can_cast(from, out->dtype));
    }
    if (!result && out && tsr_error_occurred()) {
        const char *m = tsr_error_message();
        if (is_out_refusal(m)) {
            size_t len = strlen(m);
            if (len >= sizeof st->refused) len = sizeof st->refused - 1;
            memcpy(st->refused, m, len);
            st->refused[len] = 0;
        }
    }
}

int tsr_out_dtype_check(const tsr_tensor *out, tsr_dtype dt)
{
    if (out->dtype == dt) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got %s instead",
                  tsr_dtype_typemeta_name(dt), tsr_dtype_typemeta_name(out->dtype));
    return -1;
}

tsr_tensor *tsr_out_assign(tsr_tensor *r, tsr_tensor *out, bool same_dtype)
{
    if (!r || !out || r == out) return r;
    tsr_tensor *res = NULL;
    if (same_dtype && tsr_out_dtype_check(out, r->dtype) < 0) goto done;
    if (tsr_resize_output(out, r->ndim, r->sizes) < 0) goto done;
    if (!tsr_device_is_meta(out->device) && !tsr_device_is_meta(r->device) && tsr_copy_(out, r) < 0) goto done;
    res = tsr_tensor_retain(out);
done:
    tsr_tensor_release(r);
    return res;
}
