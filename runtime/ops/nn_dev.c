/* runtime/ops/nn_dev.c — torch.nn.functional on cuda, composed of the
 * runtime's device-aware ops (nn_dev.h). Every step is a launch on the
 * device; the host never reads the tensors' memory. The CPU's checks stay
 * with the callers, before their device branch. */
#include "../device.h"
#include "../error.h"
#include "../internal.h"
#include <math.h>

#include "binary.h"
#include "compare.h"
#include "copy.h"
#include "factory.h"
#include "indexdim.h"
#include "nn.h"
#include "reduce.h"
#include "scatter.h"
#include "shape.h"
#include "unary.h"
#include "../view.h"

bool tsr__nn_on_device(const tsr_tensor *x)
{
    return x && x->device.type != TSR_DEV_CPU && x->device.type != TSR_DEV_META;
}

static bool half_like(tsr_dtype d) { return d == TSR_FLOAT16 || d == TSR_BFLOAT16; }

/* x in the kernels' compute type: float for the halves, else x itself */
static tsr_tensor *acc(const tsr_tensor *x)
{
    return half_like(x->dtype) ? tsr_to_dtype(x, TSR_FLOAT32, false) : tsr_tensor_retain((tsr_tensor *)x);
}

/* the *_own forms consume their tensor arguments; NULL passes through */
static tsr_tensor *bin_own(tsr_binop op, tsr_tensor *a, tsr_tensor *b)
{
    tsr_tensor *r = NULL;
    if (a && b) {
        tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
        r = tsr_binary(op, &x, &y, NULL, NULL);
    }
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    return r;
}

static tsr_tensor *un_own(tsr_unop op, tsr_tensor *a)
{
    tsr_tensor *r = a ? tsr_unary(op, a, NULL, NULL) : NULL;
    tsr_tensor_release(a);
    return r;
}

static tsr_tensor *ret(tsr_tensor *t) { return t ? tsr_tensor_retain(t) : NULL; }

/* sum (is_max false) or amax of a over dim, kept */
static tsr_tensor *red_own(tsr_tensor *a, int64_t dim, bool is_max)
{
    if (!a) return NULL;
    tsr_dims d = {1, {dim}};
    tsr_tensor *r = is_max ? tsr_amax(a, &d, true, true, NULL) : tsr_sum(a, &d, true, TSR_DTYPE_UNDEFINED, NULL);
    tsr_tensor_release(a);
    return r;
}

/* a new contiguous tensor of dtype dt holding a's values; consumes a */
static tsr_tensor *settle(tsr_tensor *a, tsr_dtype dt)
{
    if (!a) return NULL;
    tsr_tensor *r = tsr_tensor_empty(a->ndim, a->sizes, dt, a->device);
    if (r && tsr_copy_(r, a) < 0) {
        tsr_tensor_release(r);
        r = NULL;
    }
    tsr_tensor_release(a);
    return r;
}

/* a 0-dim tensor as a 1-element vector (a view), so that dim 0 exists */
static tsr_tensor *as_1d(const tsr_tensor *x)
{
    if (x->ndim) return tsr_tensor_retain((tsr_tensor *)x);
    int64_t one = 1, st = 1;
    return tsr_tensor_alias(x, 1, &one, &st, x->storage_offset);
}

static tsr_tensor *back_0d(tsr_tensor *r, const tsr_tensor *like)
{
    if (!r || like->ndim) return r;
    tsr_tensor *v = tsr_tensor_alias(r, 0, NULL, NULL, r->storage_offset);
    tsr_tensor_release(r);
    return v;
}

tsr_tensor *tsr__softmax_dev(const tsr_tensor *in, int64_t dim, bool lg)
{
    tsr_dtype dt = in->dtype;
    if (dt != TSR_FLOAT32 && dt != TSR_FLOAT64 && !half_like(dt)) {
        tsr__not_implemented("host_softmax", dt);
        return NULL;
    }
    tsr_tensor *v = as_1d(in), *x = v ? acc(v) : NULL, *r = NULL;
    tsr_tensor_release(v);
    if (!x) return NULL;
    tsr_tensor *s = bin_own(TSR_BINOP_SUB, ret(x), red_own(ret(x), dim, true));
    if (lg) r = bin_own(TSR_BINOP_SUB, ret(s), un_own(TSR_UNOP_LOG, red_own(un_own(TSR_UNOP_EXP, ret(s)), dim, false)));
    else {
        tsr_tensor *e = un_own(TSR_UNOP_EXP, ret(s));
        r = bin_own(TSR_BINOP_DIV, ret(e), red_own(ret(e), dim, false));
        tsr_tensor_release(e);
    }
    tsr_tensor_release(s);
    tsr_tensor_release(x);
    return back_0d(settle(r, dt), in);
}

tsr_tensor *tsr__softmax_backward_dev(const tsr_tensor *g, const tsr_tensor *y, int64_t dim, bool lg)
{
    tsr_dtype dt = y->dtype;
    if (dt != TSR_FLOAT32 && dt != TSR_FLOAT64 && !half_like(dt)) {
        tsr__not_implemented("host_softmax_backward", dt);
        return NULL;
    }
    tsr_tensor *g1 = as_1d(g), *y1 = g1 ? as_1d(y) : NULL;
    tsr_tensor *gf = y1 ? acc(g1) : NULL, *yf = gf ? acc(y1) : NULL, *r = NULL;
    tsr_tensor_release(g1);
    tsr_tensor_release(y1);
    if (yf) {
        if (lg)
            r = bin_own(TSR_BINOP_SUB, ret(gf),
                        bin_own(TSR_BINOP_MUL, un_own(TSR_UNOP_EXP, ret(yf)), red_own(ret(gf), dim, false)));
        else
            r = bin_own(TSR_BINOP_MUL, ret(yf),
                        bin_own(TSR_BINOP_SUB, ret(gf), red_own(bin_own(TSR_BINOP_MUL, ret(gf), ret(yf)), dim, false)));
    }
    tsr_tensor_release(gf);
    tsr_tensor_release(yf);
    return back_0d(settle(r, dt), y);
}

/* ------------------------------------------------------------ activations */

static tsr_tensor *bs_own(tsr_binop op, tsr_tensor *a, double v)
{
    tsr_tensor *r = NULL;
    if (a) {
        tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_scalar(tsr_scalar_float(v));
        r = tsr_binary(op, &x, &y, NULL, NULL);
    }
    tsr_tensor_release(a);
    return r;
}

static tsr_tensor *cmp_own(tsr_cmpop op, tsr_tensor *a, double v)
{
    tsr_tensor *r = NULL;
    if (a) {
        tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_scalar(tsr_scalar_float(v));
        r = tsr_compare(op, &x, &y, NULL);
    }
    tsr_tensor_release(a);
    return r;
}

/* where(cond, a, b); consumes all three; a or b NULL with a_zero / b_zero:
 * the scalar 0 */
static tsr_tensor *where_own(tsr_tensor *cond, tsr_tensor *a, tsr_tensor *b, bool a_zero, bool b_zero)
{
    tsr_tensor *r = NULL;
    if (cond && (a || a_zero) && (b || b_zero)) {
        tsr_operand z = tsr_operand_scalar(tsr_scalar_int(0));
        tsr_operand oa = a ? tsr_operand_tensor(a) : z, ob = b ? tsr_operand_tensor(b) : z;
        r = tsr_where(cond, &oa, &ob, NULL);
    }
    tsr_tensor_release(cond);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    return r;
}

/* min(max(a, 0), 6); consumes a */
static tsr_tensor *relu6_own(tsr_tensor *a)
{
    if (!a) return NULL;
    tsr_operand lo = tsr_operand_scalar(tsr_scalar_int(0)), hi = tsr_operand_scalar(tsr_scalar_int(6));
    tsr_tensor *r = tsr_clamp(a, &lo, &hi, NULL);
    tsr_tensor_release(a);
    return r;
}

static const char *const act_kernel[TSR_DACT_COUNT] = {
    [TSR_DACT_GELU] = "GeluCUDAKernelImpl",          [TSR_DACT_GELU_TANH] = "GeluCUDAKernelImpl",
    [TSR_DACT_SILU] = "silu_cuda",                   [TSR_DACT_MISH] = "mish_cuda",
    [TSR_DACT_ELU] = "elu_cuda",                     [TSR_DACT_HARDSIGMOID] = "hardsigmoid_cuda",
    [TSR_DACT_HARDSWISH] = "hardswish_cuda",         [TSR_DACT_SOFTPLUS] = "softplus_cuda",
    [TSR_DACT_LOG_SIGMOID] = "log_sigmoid_forward_cuda", [TSR_DACT_SOFTSHRINK] = "softshrink_cuda",
    [TSR_DACT_HARDSHRINK] = "hardshrink_cuda",       [TSR_DACT_LEAKY] = "leaky_relu_cuda",
};
_Static_assert(sizeof act_kernel / sizeof *act_kernel == TSR_DACT_COUNT, "ORDER DACT");

/* the formula on xf (float or double); new reference */
static tsr_tensor *act_body(tsr_dact act, tsr_tensor *xf, double a, double b, double c)
{
    switch (act) {
    case TSR_DACT_GELU:
        return bin_own(TSR_BINOP_MUL, bs_own(TSR_BINOP_MUL, ret(xf), 0.5),
                       bs_own(TSR_BINOP_ADD, un_own(TSR_UNOP_ERF, bs_own(TSR_BINOP_MUL, ret(xf), M_SQRT1_2)), 1));
    case TSR_DACT_GELU_TANH: {
        const double beta = M_SQRT2 * M_2_SQRTPI * 0.5, kappa = 0.044715;
        tsr_tensor *cube = bin_own(TSR_BINOP_MUL, bin_own(TSR_BINOP_MUL, ret(xf), ret(xf)), ret(xf));
        tsr_tensor *inner = bs_own(TSR_BINOP_MUL, bin_own(TSR_BINOP_ADD, ret(xf), bs_own(TSR_BINOP_MUL, cube, kappa)), beta);
        return bin_own(TSR_BINOP_MUL, bs_own(TSR_BINOP_MUL, ret(xf), 0.5),
                       bs_own(TSR_BINOP_ADD, un_own(TSR_UNOP_TANH, inner), 1));
    }
    case TSR_DACT_SILU:
        return bin_own(TSR_BINOP_DIV, ret(xf),
                       bs_own(TSR_BINOP_ADD, un_own(TSR_UNOP_EXP, un_own(TSR_UNOP_NEG, ret(xf))), 1));
    case TSR_DACT_MISH:
        return bin_own(TSR_BINOP_MUL, ret(xf),
                       un_own(TSR_UNOP_TANH, un_own(TSR_UNOP_LOG1P, un_own(TSR_UNOP_EXP, ret(xf)))));
    case TSR_DACT_ELU:
        return where_own(cmp_own(TSR_CMP_LE, ret(xf), 0),
                         bs_own(TSR_BINOP_MUL, un_own(TSR_UNOP_EXPM1, bs_own(TSR_BINOP_MUL, ret(xf), c)), a),
                         bs_own(TSR_BINOP_MUL, ret(xf), b), false, false);
    case TSR_DACT_HARDSIGMOID: return bs_own(TSR_BINOP_DIV, relu6_own(bs_own(TSR_BINOP_ADD, ret(xf), 3)), 6);
    case TSR_DACT_HARDSWISH:
        return bs_own(TSR_BINOP_DIV, bin_own(TSR_BINOP_MUL, ret(xf), relu6_own(bs_own(TSR_BINOP_ADD, ret(xf), 3))), 6);
    case TSR_DACT_SOFTPLUS: {
        /* (the arguments' order of evaluation is unspecified: xb is consumed last) */
        tsr_tensor *xb = bs_own(TSR_BINOP_MUL, ret(xf), a), *big = cmp_own(TSR_CMP_GT, ret(xb), b);
        return where_own(big, ret(xf), bs_own(TSR_BINOP_DIV, un_own(TSR_UNOP_LOG1P, un_own(TSR_UNOP_EXP, xb)), a), false,
                         false);
    }
    case TSR_DACT_LOG_SIGMOID: {
        tsr_operand z = tsr_operand_scalar(tsr_scalar_int(0));
        tsr_tensor *m = tsr_clamp_bound(xf, &z, true, NULL, false);
        return bin_own(TSR_BINOP_SUB, m,
                       un_own(TSR_UNOP_LOG1P, un_own(TSR_UNOP_EXP, un_own(TSR_UNOP_NEG, un_own(TSR_UNOP_ABS, ret(xf))))));
    }
    case TSR_DACT_SOFTSHRINK:
        return where_own(cmp_own(TSR_CMP_GT, ret(xf), a), bs_own(TSR_BINOP_SUB, ret(xf), a),
                         where_own(cmp_own(TSR_CMP_LT, ret(xf), -a), bs_own(TSR_BINOP_ADD, ret(xf), a), NULL, false, true),
                         false, false);
    case TSR_DACT_HARDSHRINK: {
        tsr_tensor *in = cmp_own(TSR_CMP_GE, ret(xf), -a), *le = cmp_own(TSR_CMP_LE, ret(xf), a), *both = NULL;
        if (in && le) {
            tsr_operand o1 = tsr_operand_tensor(in), o2 = tsr_operand_tensor(le);
            both = tsr_compare(TSR_CMP_LOGICAL_AND, &o1, &o2, NULL);
        }
        tsr_tensor_release(in);
        tsr_tensor_release(le);
        return where_own(both, NULL, ret(xf), true, false);
    }
    case TSR_DACT_LEAKY:
        return where_own(cmp_own(TSR_CMP_GT, ret(xf), 0), ret(xf), bs_own(TSR_BINOP_MUL, ret(xf), a), false, false);
    case TSR_DACT_COUNT: break;
    }
    return NULL;
}

tsr_tensor *tsr__act_dev(tsr_dact act, tsr_tensor *x, double a, double b, double c, bool inplace)
{
    tsr_dtype dt = x->dtype;
    if (dt != TSR_FLOAT32 && dt != TSR_FLOAT64 && !half_like(dt)) {
        tsr__not_implemented(act_kernel[act], dt);
        return NULL;
    }
    tsr_tensor *xf = acc(x);
    if (!xf) return NULL;
    /* the halves' parameters are float (opmath) values */
    if (dt != TSR_FLOAT64) a = (float)a, b = (float)b, c = (float)c;
    tsr_tensor *r = act_body(act, xf, a, b, c);
    tsr_tensor_release(xf);
    if (r && r->dtype != dt) {
        tsr_tensor *t = tsr_to_dtype(r, dt, false);
        tsr_tensor_release(r);
        r = t;
    }
    if (r && inplace) {
        int rc = tsr_copy_(x, r);
        tsr_tensor_release(r);
        return rc < 0 ? NULL : tsr_tensor_retain(x);
    }
    return r;
}

/* sigmoid(x) = 1 / (1 + exp(-x)); consumes x */
static tsr_tensor *sigm_own(tsr_tensor *x) { return un_own(TSR_UNOP_SIGMOID, x); }

/* 1 - a; consumes a */
static tsr_tensor *one_minus(tsr_tensor *a)
{
    tsr_tensor *r = NULL;
    if (a) {
        tsr_operand one = tsr_operand_scalar(tsr_scalar_int(1)), oa = tsr_operand_tensor(a);
        r = tsr_binary(TSR_BINOP_SUB, &one, &oa, NULL, NULL);
    }
    tsr_tensor_release(a);
    return r;
}

static tsr_tensor *and_own(tsr_tensor *a, tsr_tensor *b)
{
    tsr_tensor *r = NULL;
    if (a && b) {
        tsr_operand o1 = tsr_operand_tensor(a), o2 = tsr_operand_tensor(b);
        r = tsr_compare(TSR_CMP_LOGICAL_AND, &o1, &o2, NULL);
    }
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    return r;
}

/* the derivative's formula in float (x and g float or double) */
static tsr_tensor *act_grad(tsr_dact act, tsr_tensor *g, tsr_tensor *x, double a, double b, double c, bool is_result)
{
    switch (act) {
    case TSR_DACT_GELU: {   /* dy * (0.5 * (1 + erf(x / sqrt 2)) + x * kBeta * exp(-x * x / 2)) */
        const double kbeta = M_2_SQRTPI * M_SQRT1_2 * 0.5;
        tsr_tensor *cdf = bs_own(TSR_BINOP_MUL,
                                 bs_own(TSR_BINOP_ADD, un_own(TSR_UNOP_ERF, bs_own(TSR_BINOP_MUL, ret(x), M_SQRT1_2)), 1), 0.5);
        tsr_tensor *pdf = bs_own(TSR_BINOP_MUL,
                                 un_own(TSR_UNOP_EXP, bs_own(TSR_BINOP_MUL, bin_own(TSR_BINOP_MUL, ret(x), ret(x)), -0.5)), kbeta);
        return bin_own(TSR_BINOP_MUL, ret(g), bin_own(TSR_BINOP_ADD, cdf, bin_own(TSR_BINOP_MUL, ret(x), pdf)));
    }
    case TSR_DACT_GELU_TANH: {
        const double kbeta = M_SQRT2 * M_2_SQRTPI * 0.5, kappa = 0.044715;
        tsr_tensor *x2 = bin_own(TSR_BINOP_MUL, ret(x), ret(x));
        tsr_tensor *inner = bs_own(TSR_BINOP_MUL,
                                   bin_own(TSR_BINOP_ADD, ret(x), bs_own(TSR_BINOP_MUL, bin_own(TSR_BINOP_MUL, ret(x2), ret(x)), kappa)),
                                   kbeta);
        tsr_tensor *t = un_own(TSR_UNOP_TANH, inner);
        tsr_tensor *ld = bs_own(TSR_BINOP_MUL, bs_own(TSR_BINOP_ADD, ret(t), 1), 0.5);
        tsr_tensor *td = one_minus(bin_own(TSR_BINOP_MUL, ret(t), ret(t)));
        tsr_tensor *id = bs_own(TSR_BINOP_MUL, bs_own(TSR_BINOP_ADD, bs_own(TSR_BINOP_MUL, x2, 3 * kappa), 1), kbeta);
        tsr_tensor *rd = bin_own(TSR_BINOP_MUL, bin_own(TSR_BINOP_MUL, bs_own(TSR_BINOP_MUL, ret(x), 0.5), td), id);
        tsr_tensor_release(t);
        return bin_own(TSR_BINOP_MUL, ret(g), bin_own(TSR_BINOP_ADD, ld, rd));
    }
    case TSR_DACT_SILU: {   /* dy * s * (1 + x * (1 - s)) */
        tsr_tensor *s = sigm_own(ret(x));
        tsr_tensor *r = bin_own(TSR_BINOP_MUL, bin_own(TSR_BINOP_MUL, ret(g), ret(s)),
                                bs_own(TSR_BINOP_ADD, bin_own(TSR_BINOP_MUL, ret(x), one_minus(ret(s))), 1));
        tsr_tensor_release(s);
        return r;
    }
    case TSR_DACT_MISH: {   /* dy * (tsp + x * s * (1 - tsp * tsp)) */
        tsr_tensor *s = sigm_own(ret(x)), *tsp = un_own(TSR_UNOP_TANH, un_own(TSR_UNOP_LOG1P, un_own(TSR_UNOP_EXP, ret(x))));
        tsr_tensor *r = bin_own(TSR_BINOP_MUL, ret(g),
                                bin_own(TSR_BINOP_ADD, ret(tsp),
                                        bin_own(TSR_BINOP_MUL, bin_own(TSR_BINOP_MUL, ret(x), ret(s)),
                                                one_minus(bin_own(TSR_BINOP_MUL, ret(tsp), ret(tsp))))));
        tsr_tensor_release(s);
        tsr_tensor_release(tsp);
        return r;
    }
    case TSR_DACT_ELU: {
        /* x <= 0 ? dy * c * a * exp(x * c) : dy * b; of the result y:
         * y <= 0 ? dy * c * (y + a) : dy * b */
        tsr_tensor *neg = is_result ? bs_own(TSR_BINOP_ADD, ret(x), a)
                                    : bs_own(TSR_BINOP_MUL, un_own(TSR_UNOP_EXP, bs_own(TSR_BINOP_MUL, ret(x), c)), a);
        return where_own(cmp_own(TSR_CMP_LE, ret(x), 0), bin_own(TSR_BINOP_MUL, bs_own(TSR_BINOP_MUL, ret(g), c), neg),
                         bs_own(TSR_BINOP_MUL, ret(g), b), false, false);
    }
    case TSR_DACT_HARDSIGMOID:   /* (x > -3 && x < 3) ? dy / 6 : 0 */
        return where_own(and_own(cmp_own(TSR_CMP_GT, ret(x), -3), cmp_own(TSR_CMP_LT, ret(x), 3)),
                         bs_own(TSR_BINOP_MUL, ret(g), (double)(1.0f / 6.0f)), NULL, false, true);
    case TSR_DACT_HARDSWISH: {   /* x < -3 ? 0 : x <= 3 ? dy * (x / 3 + 0.5) : dy */
        tsr_tensor *mid = bin_own(TSR_BINOP_MUL, ret(g), bs_own(TSR_BINOP_ADD, bs_own(TSR_BINOP_DIV, ret(x), 3), 0.5));
        return where_own(cmp_own(TSR_CMP_LT, ret(x), -3), NULL,
                         where_own(cmp_own(TSR_CMP_LE, ret(x), 3), mid, ret(g), false, false), true, false);
    }
    case TSR_DACT_SOFTPLUS: {   /* z = exp(x * beta): x * beta > threshold ? dy : dy * z / (z + 1) */
        tsr_tensor *xb = bs_own(TSR_BINOP_MUL, ret(x), a), *big = cmp_own(TSR_CMP_GT, ret(xb), b);
        tsr_tensor *z = un_own(TSR_UNOP_EXP, xb);
        tsr_tensor *soft = bin_own(TSR_BINOP_DIV, bin_own(TSR_BINOP_MUL, ret(g), ret(z)), bs_own(TSR_BINOP_ADD, ret(z), 1));
        tsr_tensor_release(z);
        return where_own(big, ret(g), soft, false, false);
    }
    case TSR_DACT_LOG_SIGMOID: {   /* z = exp(-|x|): dy * (x < 0 ? 1 - z / (1 + z) : z / (1 + z)) */
        tsr_tensor *z = un_own(TSR_UNOP_EXP, un_own(TSR_UNOP_NEG, un_own(TSR_UNOP_ABS, ret(x))));
        tsr_tensor *q = bin_own(TSR_BINOP_DIV, ret(z), bs_own(TSR_BINOP_ADD, ret(z), 1));
        tsr_tensor_release(z);
        tsr_tensor *d = where_own(cmp_own(TSR_CMP_LT, ret(x), 0), one_minus(ret(q)), ret(q), false, false);
        tsr_tensor_release(q);
        return bin_own(TSR_BINOP_MUL, ret(g), d);
    }
    case TSR_DACT_SOFTSHRINK:
    case TSR_DACT_HARDSHRINK:   /* -a <= x <= a ? 0 : dy */
        return where_own(and_own(cmp_own(TSR_CMP_GE, ret(x), -a), cmp_own(TSR_CMP_LE, ret(x), a)), NULL, ret(g), true,
                         false);
    case TSR_DACT_LEAKY:   /* x > 0 ? dy : dy * a */
        return where_own(cmp_own(TSR_CMP_GT, ret(x), 0), ret(g), bs_own(TSR_BINOP_MUL, ret(g), a), false, false);
    case TSR_DACT_COUNT: break;
    }
    return NULL;
}

tsr_tensor *tsr__act_backward_dev(tsr_dact act, const tsr_tensor *g, const tsr_tensor *x, double a, double b,
                                  double c, bool is_result)
{
    tsr_dtype dt = g->dtype;
    if (dt != TSR_FLOAT32 && dt != TSR_FLOAT64 && !half_like(dt)) {
        tsr__not_implemented(act_kernel[act], dt);
        return NULL;
    }
    tsr_tensor *gf = acc(g), *xf = gf ? acc(x) : NULL, *r = NULL;
    if (xf) {
        if (dt != TSR_FLOAT64) a = (float)a, b = (float)b, c = (float)c;
        r = act_grad(act, gf, xf, a, b, c, is_result);
    }
    tsr_tensor_release(gf);
    tsr_tensor_release(xf);
    if (r && r->dtype != dt) {
        tsr_tensor *t = tsr_to_dtype(r, dt, false);
        tsr_tensor_release(r);
        r = t;
    }
    return r;
}

/* ------------------------------------------------------------ nll_loss, binary_cross_entropy */

static tsr_tensor *cmp_i(tsr_cmpop op, const tsr_tensor *a, int64_t v)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_scalar(tsr_scalar_int(v));
    return tsr_compare(op, &x, &y, NULL);
}

static tsr_tensor *or_own(tsr_tensor *a, tsr_tensor *b)
{
    tsr_tensor *r = NULL;
    if (a && b) {
        tsr_operand o1 = tsr_operand_tensor(a), o2 = tsr_operand_tensor(b);
        r = tsr_compare(TSR_CMP_LOGICAL_OR, &o1, &o2, NULL);
    }
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    return r;
}

/* any element of the bool mask set: -1 on failure, else 0 or 1 (one
 * element copied back, as .item()) */
static int any_set(const tsr_tensor *mask)
{
    tsr_tensor *a = tsr_all_any(mask, NULL, false, false, NULL);
    if (!a) return -1;
    int r = tsr_tensor_get_double_at(a, 0) != 0;
    tsr_tensor_release(a);
    return r;
}

/* the nll pieces on the (N, C, *) view: safe targets (ignored ones 0),
 * the valid mask and the picked weights (0 where ignored), in xf's dtype */
typedef struct { tsr_tensor *xv, *safe, *valid, *wv; } nll_parts;

static void nll_release(nll_parts *p)
{
    tsr_tensor_release(p->xv);
    tsr_tensor_release(p->safe);
    tsr_tensor_release(p->valid);
    tsr_tensor_release(p->wv);
}

static int nll_prepare(const tsr_tensor *x, const tsr_tensor *target, const tsr_tensor *weight, int64_t ignore,
                       bool check, nll_parts *p)
{
    *p = (nll_parts){0};
    bool one = x->ndim == 1;
    tsr_tensor *xv = one ? tsr_view_unsqueeze(x, 0) : tsr_tensor_retain((tsr_tensor *)x);
    tsr_tensor *tv = one && target->ndim == 0 ? tsr_view_unsqueeze(target, 0) : tsr_tensor_retain((tsr_tensor *)target);
    tsr_tensor *tl = tv ? tsr_to_dtype(tv, TSR_INT64, false) : NULL;
    tsr_tensor_release(tv);
    p->xv = xv ? acc(xv) : NULL;
    tsr_tensor_release(xv);
    if (!tl || !p->xv) goto fail;
    int64_t ncls = p->xv->sizes[1];
    p->valid = cmp_i(TSR_CMP_NE, tl, ignore);
    if (!p->valid) goto fail;
    if (check) {
        tsr_tensor *bad = and_own(ret(p->valid), or_own(cmp_i(TSR_CMP_LT, tl, 0), cmp_i(TSR_CMP_GE, tl, ncls)));
        int any = bad ? any_set(bad) : -1;
        if (any == 1) {   /* the first one, as the CPU's loop meets it */
            tsr_tensor *sel = tsr_masked_select(tl, bad);
            if (sel) tsr_error_set(TSR_ERR_INDEX, "Target %lld is out of bounds.", (long long)tsr_tensor_get_int64(sel, (int64_t[]){0}));
            tsr_tensor_release(sel);
        }
        tsr_tensor_release(bad);
        if (any) goto fail;
    }
    {
        tsr_operand z = tsr_operand_scalar(tsr_scalar_int(0)), ot = tsr_operand_tensor(tl);
        p->safe = tsr_where(p->valid, &ot, &z, NULL);
    }
    if (!p->safe) goto fail;
    if (weight) {
        tsr_tensor *wf = acc(weight), *flat = wf ? tsr_reshape(p->safe, 1, (int64_t[]){tsr_tensor_numel(p->safe)}) : NULL;
        tsr_tensor *ws = flat ? tsr_index_select(wf, 0, flat) : NULL;
        tsr_tensor *wsv = ws ? tsr_reshape(ws, p->safe->ndim, p->safe->sizes) : NULL;
        tsr_tensor_release(wf);
        tsr_tensor_release(flat);
        tsr_tensor_release(ws);
        p->wv = where_own(ret(p->valid), wsv, NULL, false, true);
    } else {
        p->wv = tsr_to_dtype(p->valid, p->xv->dtype, false);
    }
    if (!p->wv) goto fail;
    tsr_tensor_release(tl);
    return 0;
fail:
    tsr_tensor_release(tl);
    nll_release(p);
    return -1;
}

tsr_tensor *tsr__nll_loss_dev(const tsr_tensor *x, const tsr_tensor *target, const tsr_tensor *weight,
                              tsr_reduction red, int64_t ignore_index, double *total_weight)
{
    nll_parts p;
    if (nll_prepare(x, target, weight, ignore_index, true, &p) < 0) return NULL;
    tsr_tensor *idx = tsr_view_unsqueeze(p.safe, 1), *picked = idx ? tsr_gather(p.xv, 1, idx) : NULL, *r = NULL;
    tsr_tensor *pk = picked ? tsr_view_squeeze_dim(picked, 1) : NULL;
    tsr_tensor_release(idx);
    tsr_tensor_release(picked);
    tsr_tensor *l = un_own(TSR_UNOP_NEG, bin_own(TSR_BINOP_MUL, pk, ret(p.wv)));
    if (red == TSR_REDUCTION_NONE) {
        r = where_own(ret(p.valid), l, NULL, false, true);   /* ignored terms 0, not -0 */
        if (r && x->ndim == 1) tsr__take(&r, tsr_tensor_alias(r, 0, NULL, NULL, r->storage_offset));
    } else if (l) {
        tsr_dims all = {.n = -1};
        tsr_tensor *tw = tsr_sum(p.wv, &all, false, TSR_DTYPE_UNDEFINED, NULL);
        r = tw ? tsr_sum(l, &all, false, TSR_DTYPE_UNDEFINED, NULL) : NULL;
        if (r && total_weight) *total_weight = tsr_tensor_get_double_at(tw, 0);
        if (r && red == TSR_REDUCTION_MEAN) r = bin_own(TSR_BINOP_DIV, r, ret(tw));
        tsr_tensor_release(tw);
        tsr_tensor_release(l);
    }
    nll_release(&p);
    if (r && r->dtype != x->dtype) tsr__take(&r, tsr_to_dtype(r, x->dtype, false));
    return r;
}

tsr_tensor *tsr__nll_loss_backward_dev(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *target,
                                       const tsr_tensor *weight, tsr_reduction red, int64_t ignore_index,
                                       double total_weight)
{
    nll_parts p;
    if (nll_prepare(x, target, weight, ignore_index, false, &p) < 0) return NULL;
    tsr_tensor *gf = acc(g), *val = NULL, *gi = NULL;
    if (gf && red == TSR_REDUCTION_NONE) {
        tsr_tensor *gv = gf->ndim ? ret(gf) : tsr_view_unsqueeze(gf, 0);
        val = un_own(TSR_UNOP_NEG, bin_own(TSR_BINOP_MUL, ret(p.wv), gv));
    } else if (gf) {   /* -(g / total_weight) (mean) or -g, times the weights */
        tsr_tensor *s = red == TSR_REDUCTION_MEAN ? bs_own(TSR_BINOP_DIV, ret(gf), total_weight) : ret(gf);
        val = bin_own(TSR_BINOP_MUL, ret(p.wv), un_own(TSR_UNOP_NEG, s));
    }
    val = where_own(ret(p.valid), val, NULL, false, true);   /* nothing (not -0) at ignored targets */
    tsr_tensor *vi = val ? tsr_view_unsqueeze(val, 1) : NULL, *idx = vi ? tsr_view_unsqueeze(p.safe, 1) : NULL;
    if (idx) gi = tsr_zeros(p.xv->ndim, p.xv->sizes, p.xv->dtype, p.xv->device);
    if (gi && tsr_scatter_(gi, 1, idx, vi, NULL, TSR_SCATTER_NONE) < 0) tsr__take(&gi, NULL);
    tsr_tensor_release(gf);
    tsr_tensor_release(val);
    tsr_tensor_release(vi);
    tsr_tensor_release(idx);
    nll_release(&p);
    if (gi && x->ndim == 1) tsr__take(&gi, tsr_view_view(gi, 1, x->sizes));
    if (gi && gi->dtype != x->dtype) tsr__take(&gi, tsr_to_dtype(gi, x->dtype, false));
    return gi;
}

/* max(a, lo); consumes a */
static tsr_tensor *clamp_min_own(tsr_tensor *a, double lo)
{
    if (!a) return NULL;
    tsr_operand b = tsr_operand_scalar(tsr_scalar_float(lo));
    tsr_tensor *r = tsr_clamp_bound(a, &b, false, NULL, false);
    tsr_tensor_release(a);
    return r;
}

tsr_tensor *tsr__bce_dev(const tsr_tensor *x, const tsr_tensor *t)
{
    tsr_tensor *xf = acc(x), *tf = xf ? acc(t) : NULL, *r = NULL;
    if (!tf) goto done;
    /* !(x >= 0 && x <= 1): NaN is outside too */
    tsr_tensor *in = and_own(cmp_own(TSR_CMP_GE, ret(xf), 0), cmp_own(TSR_CMP_LE, ret(xf), 1));
    tsr_tensor *bad = in ? cmp_i(TSR_CMP_EQ, in, 0) : NULL;
    tsr_tensor_release(in);
    int any = bad ? any_set(bad) : -1;
    tsr_tensor_release(bad);
    if (any) {
        if (any == 1) tsr_error_set(TSR_ERR_RUNTIME, "all elements of input should be between 0 and 1");
        goto done;
    }
    tsr_tensor *l1 = clamp_min_own(un_own(TSR_UNOP_LOG1P, un_own(TSR_UNOP_NEG, ret(xf))), -100);
    tsr_tensor *l0 = clamp_min_own(un_own(TSR_UNOP_LOG, ret(xf)), -100);
    r = bin_own(TSR_BINOP_SUB, bin_own(TSR_BINOP_MUL, bs_own(TSR_BINOP_SUB, ret(tf), 1), l1),
                bin_own(TSR_BINOP_MUL, ret(tf), l0));
    if (r && r->dtype != x->dtype) tsr__take(&r, tsr_to_dtype(r, x->dtype, false));
done:
    tsr_tensor_release(xf);
    tsr_tensor_release(tf);
    return r;
}

/* ------------------------------------------------------------ normalisation */

static tsr_tensor *mean_own(tsr_tensor *a, const tsr_dims *d, bool keep)
{
    tsr_tensor *r = a ? tsr_mean(a, d, keep, TSR_DTYPE_UNDEFINED, NULL) : NULL;
    tsr_tensor_release(a);
    return r;
}

static tsr_tensor *sum_own(tsr_tensor *a, const tsr_dims *d, bool keep)
{
    tsr_tensor *r = a ? tsr_sum(a, d, keep, TSR_DTYPE_UNDEFINED, NULL) : NULL;
    tsr_tensor_release(a);
    return r;
}

/* biased variance (correction 0) over d */
static tsr_tensor *var0(const tsr_tensor *a, const tsr_dims *d, bool keep)
{
    return a ? tsr_var(a, d, 0, keep, false, NULL, NULL, "var") : NULL;
}

/* 1 / sqrt(v + eps); consumes v */
static tsr_tensor *rstd_own(tsr_tensor *v, double eps) { return un_own(TSR_UNOP_RSQRT, bs_own(TSR_BINOP_ADD, v, eps)); }

static tsr_tensor *reshape_own(tsr_tensor *a, int n, const int64_t *sizes)
{
    tsr_tensor *r = a ? tsr_reshape(a, n, sizes) : NULL;
    tsr_tensor_release(a);
    return r;
}

/* a (C) seen as (1, C, 1, ...) for an nd-dim input; consumes a */
static tsr_tensor *chan_own(tsr_tensor *a, int nd)
{
    if (!a) return NULL;
    int64_t s[TSR_MAX_DIMS];
    for (int i = 0; i < nd; i++) s[i] = 1;
    s[1] = tsr_tensor_numel(a);
    return reshape_own(a, nd, s);
}

/* a of dtype dt (a new reference, consumed) */
static tsr_tensor *cast_own(tsr_tensor *a, tsr_dtype dt)
{
    if (a && a->dtype != dt) tsr__take(&a, tsr_to_dtype(a, dt, false));
    return a;
}

/* every dim of an nd-dim tensor but 1 */
static tsr_dims but_channels(int nd)
{
    tsr_dims d = {.n = 0};
    for (int i = 0; i < nd; i++)
        if (i != 1) d.d[d.n++] = i;
    return d;
}

/* (x - mean) * rstd [* w] [+ b]; the parameters already shaped; consumes them all */
static tsr_tensor *affine_own(tsr_tensor *xf, tsr_tensor *mean, tsr_tensor *rstd, tsr_tensor *w, tsr_tensor *b,
                              bool hw, bool hb)
{
    tsr_tensor *y = bin_own(TSR_BINOP_MUL, bin_own(TSR_BINOP_SUB, xf, mean), rstd);
    if (hw) y = bin_own(TSR_BINOP_MUL, y, w);
    if (hb) y = bin_own(TSR_BINOP_ADD, y, b);
    return y;
}

tsr_tensor *tsr__layer_norm_dev(const tsr_tensor *x, int nshape, const tsr_tensor *w, const tsr_tensor *b, double eps)
{
    int64_t N = 1, numel = tsr_tensor_numel(x);
    for (int i = x->ndim - nshape; i < x->ndim; i++) N *= x->sizes[i];
    if (numel == 0 || N == 0) return tsr_tensor_empty(x->ndim, x->sizes, x->dtype, x->device);
    int64_t mn[2] = {numel / N, N};
    tsr_tensor *xf = reshape_own(acc(x), 2, mn);
    tsr_dims d1 = {1, {1}};
    tsr_tensor *mean = xf ? tsr_mean(xf, &d1, true, TSR_DTYPE_UNDEFINED, NULL) : NULL;
    tsr_tensor *rstd = mean ? rstd_own(var0(xf, &d1, true), eps) : NULL;
    tsr_tensor *y = affine_own(ret(xf), mean, rstd, w ? reshape_own(acc(w), 1, &N) : NULL,
                               b ? reshape_own(acc(b), 1, &N) : NULL, w != NULL, b != NULL);
    tsr_tensor_release(xf);
    return cast_own(reshape_own(y, x->ndim, x->sizes), x->dtype);
}

int tsr__layer_norm_stats_dev(const tsr_tensor *x, int64_t M, int64_t N, double eps, tsr_tensor **mean,
                              tsr_tensor **rstd)
{
    int64_t mn[2] = {M, N};
    tsr_dims d1 = {1, {1}};
    tsr_tensor *xf = reshape_own(acc(x), 2, mn);
    *mean = xf ? tsr_mean(xf, &d1, true, TSR_DTYPE_UNDEFINED, NULL) : NULL;
    *rstd = *mean ? cast_own(rstd_own(var0(xf, &d1, true), eps), x->dtype) : NULL;
    tsr_tensor_release(xf);
    if (*rstd && (*mean = cast_own(*mean, x->dtype))) return 0;
    tsr__take(mean, NULL);
    tsr__take(rstd, NULL);
    return -1;
}

int tsr__layer_norm_backward_dev(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, int nshape,
                                 const int64_t *shape, double eps, tsr_tensor **dx, tsr_tensor **dw, tsr_tensor **db)
{
    int64_t N = 1, numel = tsr_tensor_numel(x);
    for (int i = 0; i < nshape; i++) N *= shape[i];
    int64_t mn[2] = {N ? numel / N : 0, N};
    tsr_dims d0 = {1, {0}}, d1 = {1, {1}};
    tsr_tensor *xf = reshape_own(acc(x), 2, mn), *gf = xf ? reshape_own(acc(g), 2, mn) : NULL;
    tsr_tensor *mean = gf ? tsr_mean(xf, &d1, true, TSR_DTYPE_UNDEFINED, NULL) : NULL;
    tsr_tensor *rstd = mean ? rstd_own(var0(xf, &d1, true), eps) : NULL;
    tsr_tensor *xhat = bin_own(TSR_BINOP_MUL, bin_own(TSR_BINOP_SUB, ret(xf), ret(mean)), ret(rstd));
    int rc = xhat ? 0 : -1;
    if (!rc && dx) {   /* rstd * (gw - mean(gw) - xhat * mean(gw * xhat)) per row */
        tsr_tensor *gw = w ? bin_own(TSR_BINOP_MUL, ret(gf), reshape_own(acc(w), 1, &N)) : ret(gf);
        tsr_tensor *a = mean_own(ret(gw), &d1, true), *c = mean_own(bin_own(TSR_BINOP_MUL, ret(gw), ret(xhat)), &d1, true);
        tsr_tensor *r = bin_own(TSR_BINOP_MUL, ret(rstd),
                                bin_own(TSR_BINOP_SUB, bin_own(TSR_BINOP_SUB, gw, a), bin_own(TSR_BINOP_MUL, ret(xhat), c)));
        if (!(*dx = cast_own(reshape_own(r, x->ndim, x->sizes), x->dtype))) rc = -1;
    }
    if (!rc && dw && w && !(*dw = cast_own(reshape_own(sum_own(bin_own(TSR_BINOP_MUL, ret(gf), ret(xhat)), &d0, false),
                                                       w->ndim, w->sizes), w->dtype)))
        rc = -1;
    if (!rc && db && w && !(*db = cast_own(reshape_own(sum_own(ret(gf), &d0, false), w->ndim, w->sizes), w->dtype)))
        rc = -1;
    if (!rc && db && !w && !(*db = cast_own(reshape_own(sum_own(ret(gf), &d0, false), nshape, shape), g->dtype)))
        rc = -1;
    tsr_tensor_release(xf), tsr_tensor_release(gf), tsr_tensor_release(mean), tsr_tensor_release(rstd);
    tsr_tensor_release(xhat);
    if (rc) {
        if (dx) tsr__take(dx, NULL);
        if (dw) tsr__take(dw, NULL);
        if (db) tsr__take(db, NULL);
    }
    return rc;
}

tsr_tensor *tsr__batch_norm_dev(const tsr_tensor *x, tsr_tensor *rmean, tsr_tensor *rvar, const tsr_tensor *w,
                                const tsr_tensor *b, bool training, double momentum, double eps, tsr_tensor **save_mean,
                                tsr_tensor **save_invstd)
{
    if (save_mean) *save_mean = *save_invstd = NULL;
    tsr_dtype dt = x->dtype;
    if (dt != TSR_FLOAT32 && dt != TSR_FLOAT64 && !half_like(dt)) {
        tsr__not_implemented("batch_norm_cuda", dt);
        return NULL;
    }
    int nd = x->ndim;
    int64_t C = x->sizes[1], numel = tsr_tensor_numel(x);
    tsr_dtype at = half_like(dt) ? TSR_FLOAT32 : dt;
    tsr_dims dims = but_channels(nd);
    tsr_tensor *xf = acc(x), *mean = NULL, *invstd = NULL, *y = NULL;
    if (!xf) return NULL;
    if (numel == 0) {   /* the input's clone; no statistics */
        y = tsr_clone(x, TSR_MF_PRESERVE);
        mean = tsr_zeros(1, &C, at, x->device);
        invstd = mean ? tsr_zeros(1, &C, at, x->device) : NULL;
    } else if (training) {
        tsr_tensor *var = NULL;
        mean = tsr_mean(xf, &dims, false, TSR_DTYPE_UNDEFINED, NULL);
        var = mean ? var0(xf, &dims, false) : NULL;
        invstd = var ? rstd_own(ret(var), eps) : NULL;
        /* running = (1 - momentum) * running + momentum * batch (the unbiased variance) */
        double n = (double)(numel / C);
        int rc = invstd ? 0 : -1;
        if (!rc && rmean) {
            tsr_tensor *nm = bin_own(TSR_BINOP_ADD, bs_own(TSR_BINOP_MUL, acc(rmean), 1 - momentum),
                                     bs_own(TSR_BINOP_MUL, ret(mean), momentum));
            rc = nm ? tsr_copy_(rmean, nm) : -1;
            tsr_tensor_release(nm);
        }
        if (!rc && rvar) {
            tsr_tensor *nv = bin_own(TSR_BINOP_ADD, bs_own(TSR_BINOP_MUL, acc(rvar), 1 - momentum),
                                     bs_own(TSR_BINOP_MUL, bs_own(TSR_BINOP_MUL, ret(var), n / (n - 1)), momentum));
            rc = nv ? tsr_copy_(rvar, nv) : -1;
            tsr_tensor_release(nv);
        }
        tsr_tensor_release(var);
        if (rc) tsr__take(&invstd, NULL);
    } else {
        mean = cast_own(ret(rmean), at);
        invstd = mean ? rstd_own(cast_own(ret(rvar), at), eps) : NULL;
    }
    if (invstd && !y) {
        y = affine_own(ret(xf), chan_own(ret(mean), nd), chan_own(ret(invstd), nd), w ? chan_own(acc(w), nd) : NULL,
                       b ? chan_own(acc(b), nd) : NULL, w != NULL, b != NULL);
        y = cast_own(y, dt);
    }
    tsr_tensor_release(xf);
    if (y && save_mean) {
        *save_mean = mean;
        *save_invstd = invstd;
    } else {
        tsr_tensor_release(mean);
        tsr_tensor_release(invstd);
    }
    return y;
}

int tsr__batch_norm_backward_dev(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *mean,
                                 const tsr_tensor *invstd, bool train, tsr_tensor **dx, tsr_tensor **dw,
                                 tsr_tensor **db)
{
    int nd = x->ndim;
    tsr_dims dims = but_channels(nd);
    tsr_tensor *xf = acc(x), *gf = xf ? acc(g) : NULL;
    tsr_tensor *m = gf ? chan_own(acc(mean), nd) : NULL, *is = m ? chan_own(acc(invstd), nd) : NULL;
    tsr_tensor *xhat = bin_own(TSR_BINOP_MUL, bin_own(TSR_BINOP_SUB, ret(xf), ret(m)), ret(is));
    int rc = xhat ? 0 : -1;
    if (!rc && dx) {
        tsr_tensor *k = w ? bin_own(TSR_BINOP_MUL, ret(is), chan_own(acc(w), nd)) : ret(is), *r;
        if (train) {   /* (g - mean(g) - xhat * mean(g * xhat)) * invstd * w */
            tsr_tensor *a = mean_own(ret(gf), &dims, true), *c = mean_own(bin_own(TSR_BINOP_MUL, ret(gf), ret(xhat)), &dims, true);
            r = bin_own(TSR_BINOP_MUL, bin_own(TSR_BINOP_SUB, bin_own(TSR_BINOP_SUB, ret(gf), a), bin_own(TSR_BINOP_MUL, ret(xhat), c)), k);
        } else {
            r = bin_own(TSR_BINOP_MUL, ret(gf), k);
        }
        if (!(*dx = cast_own(r, x->dtype))) rc = -1;
    }
    tsr_dtype pd = w ? w->dtype : x->dtype;
    if (!rc && dw && !(*dw = cast_own(sum_own(bin_own(TSR_BINOP_MUL, ret(gf), ret(xhat)), &dims, false), pd))) rc = -1;
    if (!rc && db && !(*db = cast_own(sum_own(ret(gf), &dims, false), pd))) rc = -1;
    tsr_tensor_release(xf), tsr_tensor_release(gf), tsr_tensor_release(m), tsr_tensor_release(is);
    tsr_tensor_release(xhat);
    if (rc) {
        if (dx) tsr__take(dx, NULL);
        if (dw) tsr__take(dw, NULL);
        if (db) tsr__take(db, NULL);
    }
    return rc;
}

/* x's group statistics on the (N, G, K) float view: xg, mean, rstd (kept dims) */
static int group_stats(const tsr_tensor *x, int64_t G, double eps, tsr_tensor **xg, tsr_tensor **mean, tsr_tensor **rstd)
{
    int64_t N = x->sizes[0], ngk[3] = {N, G, N && G ? tsr_tensor_numel(x) / (N * G) : 0};
    tsr_dims d2 = {1, {2}};
    *xg = reshape_own(acc(x), 3, ngk);
    *mean = *xg ? tsr_mean(*xg, &d2, true, TSR_DTYPE_UNDEFINED, NULL) : NULL;
    *rstd = *mean ? rstd_own(var0(*xg, &d2, true), eps) : NULL;
    if (*rstd) return 0;
    tsr__take(xg, NULL);
    tsr__take(mean, NULL);
    return -1;
}

tsr_tensor *tsr__group_norm_dev(const tsr_tensor *x, int64_t G, const tsr_tensor *w, const tsr_tensor *b, double eps,
                                tsr_tensor **mean, tsr_tensor **rstd)
{
    tsr_dtype dt = x->dtype;
    if (dt != TSR_FLOAT32 && dt != TSR_FLOAT64 && !half_like(dt)) {
        tsr__not_implemented("GroupNormKernelImpl", dt);
        return NULL;
    }
    int64_t N = x->sizes[0], ng[2] = {N, G};
    if (tsr_tensor_numel(x) == 0) {
        tsr_tensor *y = tsr_tensor_empty(x->ndim, x->sizes, dt, x->device);
        if (y && mean && !((*mean = tsr_zeros(2, ng, dt, x->device)) && (*rstd = tsr_zeros(2, ng, dt, x->device)))) {
            tsr__take(mean, NULL);
            tsr__take(&y, NULL);
        }
        return y;
    }
    tsr_tensor *xg, *m, *rs;
    if (group_stats(x, G, eps, &xg, &m, &rs) < 0) return NULL;
    tsr_tensor *y = reshape_own(bin_own(TSR_BINOP_MUL, bin_own(TSR_BINOP_SUB, xg, ret(m)), ret(rs)), x->ndim, x->sizes);
    if (w) y = bin_own(TSR_BINOP_MUL, y, chan_own(acc(w), x->ndim));
    if (b) y = bin_own(TSR_BINOP_ADD, y, chan_own(acc(b), x->ndim));
    y = cast_own(y, dt);
    if (y && mean) {
        *mean = cast_own(reshape_own(ret(m), 2, ng), dt);
        *rstd = *mean ? cast_own(reshape_own(ret(rs), 2, ng), dt) : NULL;
        if (!*rstd) {
            tsr__take(mean, NULL);
            tsr__take(&y, NULL);
        }
    }
    tsr_tensor_release(m);
    tsr_tensor_release(rs);
    return y;
}

int tsr__group_norm_backward_dev(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *mean,
                                 const tsr_tensor *rstd, int64_t G, tsr_tensor **dx, tsr_tensor **dw, tsr_tensor **db)
{
    int nd = x->ndim;
    tsr_dims dims = but_channels(nd), d2 = {1, {2}};
    int64_t N = x->sizes[0], ngk[3] = {N, G, N && G ? tsr_tensor_numel(x) / (N * G) : 0}, ng1[3] = {N, G, 1};
    tsr_tensor *xg = reshape_own(acc(x), 3, ngk), *m = reshape_own(acc(mean), 3, ng1), *rs = reshape_own(acc(rstd), 3, ng1);
    tsr_tensor *gf = acc(g), *xhat = bin_own(TSR_BINOP_MUL, bin_own(TSR_BINOP_SUB, ret(xg), ret(m)), ret(rs));
    int rc = gf && xhat ? 0 : -1;
    if (!rc && dx) {   /* rstd * (gw - mean(gw) - xhat * mean(gw * xhat)) per group */
        tsr_tensor *gw = reshape_own(w ? bin_own(TSR_BINOP_MUL, ret(gf), chan_own(acc(w), nd)) : ret(gf), 3, ngk);
        tsr_tensor *a = mean_own(ret(gw), &d2, true), *c = mean_own(bin_own(TSR_BINOP_MUL, ret(gw), ret(xhat)), &d2, true);
        tsr_tensor *r = bin_own(TSR_BINOP_MUL, ret(rs),
                                bin_own(TSR_BINOP_SUB, bin_own(TSR_BINOP_SUB, gw, a), bin_own(TSR_BINOP_MUL, ret(xhat), c)));
        if (!(*dx = cast_own(reshape_own(r, nd, x->sizes), x->dtype))) rc = -1;
    }
    tsr_dtype pd = w ? w->dtype : x->dtype;
    if (!rc && dw) {
        tsr_tensor *xh = reshape_own(ret(xhat), nd, x->sizes);
        if (!(*dw = cast_own(sum_own(bin_own(TSR_BINOP_MUL, ret(gf), xh), &dims, false), pd))) rc = -1;
    }
    if (!rc && db && !(*db = cast_own(sum_own(ret(gf), &dims, false), pd))) rc = -1;
    tsr_tensor_release(xg), tsr_tensor_release(m), tsr_tensor_release(rs), tsr_tensor_release(gf);
    tsr_tensor_release(xhat);
    if (rc) {
        if (dx) tsr__take(dx, NULL);
        if (dw) tsr__take(dw, NULL);
        if (db) tsr__take(db, NULL);
    }
    return rc;
}

/* ------------------------------------------------------------ embedding */

tsr_tensor *tsr__embedding_backward_dev(const tsr_tensor *g, const tsr_tensor *ix, int64_t num_weights,
                                        int64_t padding_idx, bool scale_grad_by_freq)
{
    int64_t numel = tsr_tensor_numel(ix), dim = g->ndim ? g->sizes[g->ndim - 1] : 1, rs[2] = {numel, dim};
    int64_t sz2[2] = {num_weights, dim}, col[2] = {numel, 1};
    tsr_tensor *rows = reshape_own(acc(g), 2, rs), *gw = NULL;
    /* padding_idx's rows: times 0 (a negative padding_idx never matches) */
    tsr_tensor *ne = cmp_i(TSR_CMP_NE, ix, padding_idx);
    tsr_tensor *kf = ne && rows ? reshape_own(tsr_to_dtype(ne, rows->dtype, false), 2, col) : NULL;
    tsr_tensor_release(ne);
    rows = bin_own(TSR_BINOP_MUL, rows, kf);
    if (rows && scale_grad_by_freq) {   /* each row / its index's count */
        tsr_tensor *cnt = tsr_zeros(1, &num_weights, rows->dtype, g->device);
        tsr_tensor *ones = cnt ? tsr_full(1, &numel, tsr_scalar_int(1), rows->dtype, g->device) : NULL;
        if (ones && tsr_index_add_(cnt, 0, ix, ones, tsr_scalar_int(1)) < 0) tsr__take(&cnt, NULL);
        tsr_tensor *c = cnt && ones ? reshape_own(tsr_index_select(cnt, 0, ix), 2, col) : NULL;
        rows = bin_own(TSR_BINOP_DIV, rows, c);
        tsr_tensor_release(cnt);
        tsr_tensor_release(ones);
    }
    if (rows) gw = tsr_zeros(2, sz2, rows->dtype, g->device);
    if (gw && tsr_index_add_(gw, 0, ix, rows, tsr_scalar_int(1)) < 0) tsr__take(&gw, NULL);
    tsr_tensor_release(rows);
    return cast_own(gw, g->dtype);
}
