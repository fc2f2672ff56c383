/* src/bind/special.c — torch.special (aliases of the unary ops, the kernels of
 * runtime/ops/special.h, the orthogonal polynomials) and the torch-namespace
 * functions and Tensor methods of the same kernels (polygamma, mvlgamma,
 * igamma, igammac, xlogy, sinc), with PyTorch 1.13's signatures. Every rule
 * is the runtime's; rows only parse and call. */
#include <string.h>

#include "bind/explain.h"
#include "bind/areas.h"
#include "bind/ops.h"
#include "bind/table.h"
#include "show/explain.h"

typedef enum {
    K_UN,            /* an existing unary op (code: tsr_unop) */
    K_ROUND,         /* special.round(input, *, decimals=0) */
    K_LOGIT,         /* logit(input, eps=None) */
    K_SU,            /* a special.h unary op (code: tsr_special_op) */
    K_SB,            /* a special.h binary op */
    K_NDTR,
    K_POLYGAMMA,     /* polygamma(n, input) */
    K_POLYGAMMA_M,   /* Tensor.polygamma(n) */
    K_MVLGAMMA,
} Kind;

/* A Tensor-or-Number argument as an operand; a 0-dim tensor given for a
 * Number parameter is its value (python_arg_parser's Scalar). */
static int arg_operand(const BindArgs *b, int slot, tsr_operand *o, const char *fname)
{
    Value *v = b->v[slot];
    if (is_tensor(v) && b->type[slot] == BT_NUMBER) {
        tsr_scalar s;
        if (bind_scalar(v, fname, b->param[slot] ? b->param[slot]->name : "other", &s) < 0) return -1;
        *o = tsr_operand_scalar(s);
        return 0;
    }
    ops_operand(v, o);
    return 0;
}

static tsr_tensor *out_of(const BindArgs *b) { return b->v[BIND_OUT] ? tensor_of(b->v[BIND_OUT]) : NULL; }

static Value *run_special_unary(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    tsr_special_op op = (tsr_special_op)d->code;
    tsr_tensor *x = tensor_of(b->v[0]), *out = out_of(b);
    tsr_tensor *r = inplace ? tsr_special_unary_(op, x) : tsr_special_unary(op, x, out);
    if (out) ops_warn();
    if (explain_active()) {
        tsr_operand in = tsr_operand_tensor(x);
        ops_explain(tsr_special_desc(op), fname, NULL, 1, &in, r, inplace ? x : out, inplace);
    }
    return ops_finish(r, inplace ? self : b->v[BIND_OUT]);
}

static Value *run_special_binary(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    tsr_special_op op = (tsr_special_op)d->code;
    tsr_operand x, y;
    if (arg_operand(b, 0, &x, fname) < 0 || arg_operand(b, 1, &y, fname) < 0) return NULL;
    tsr_tensor *out = out_of(b), *r;
    r = inplace ? tsr_special_binary_(op, tensor_of(self), &y) : tsr_special_binary(op, &x, &y, out);
    if (out) ops_warn();
    if (explain_active()) {
        tsr_operand in[2] = {x, y};
        ops_explain(tsr_special_desc(op), fname, NULL, 2, in, r, inplace ? tensor_of(self) : out, inplace);
    }
    return ops_finish(r, inplace ? self : b->v[BIND_OUT]);
}

static Value *run_polygamma(const char *fname, Value *xv, Value *nv, BindArgs *b, bool inplace)
{
    int64_t n;
    if (bind_int(nv, fname, "n", &n) < 0) return NULL;
    tsr_tensor *x = tensor_of(xv), *out = out_of(b);
    tsr_tensor *r = tsr_polygamma(n, x, out, inplace);
    if (out) ops_warn();
    if (explain_active() && n >= 0) {
        tsr_operand in = tsr_operand_tensor(x);
        ops_explain(tsr_polygamma_desc(n), fname, NULL, 1, &in, r, inplace ? x : out, inplace);
    }
    return ops_finish(r, inplace ? xv : b->v[BIND_OUT]);
}

static Value *special_call(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    switch ((Kind)d->kind) {
    case K_UN: return ops_unary((tsr_unop)d->code, fname, NULL, b->v[0], b->v[BIND_OUT], NULL, inplace);
    case K_ROUND: {
        int64_t dec = 0;
        if (b->v[1] && bind_int(b->v[1], fname, "decimals", &dec) < 0) return NULL;
        tsr_tensor *x = tensor_of(b->v[0]), *out = out_of(b);
        tsr_tensor *r = tsr_special_round(x, dec, out);
        if (out) ops_warn();
        if (explain_active()) {
            tsr_operand in = tsr_operand_tensor(x);
            ops_explain(tsr_unop_desc(TSR_UNOP_ROUND), fname, NULL, 1, &in, r, out, false);
        }
        return ops_finish(r, b->v[BIND_OUT]);
    }
    case K_LOGIT: {
        tsr_unary_opts o = {0};
        if (b->v[1]) {
            tsr_scalar s;
            if (bind_scalar(b->v[1], fname, "eps", &s) < 0) return NULL;
            o.has_eps = true;
            o.eps = tsr_scalar_to_double(s);
        }
        return ops_unary(TSR_UNOP_LOGIT, fname, NULL, b->v[0], b->v[BIND_OUT], &o, inplace);
    }
    case K_SU: return run_special_unary(d, fname, b, self, inplace);
    case K_SB: return run_special_binary(d, fname, b, self, inplace);
    case K_NDTR: {
        tsr_tensor *out = out_of(b), *r = tsr_special_ndtr(tensor_of(b->v[0]), out);
        if (out) ops_warn();
        return ops_finish(r, b->v[BIND_OUT]);
    }
    case K_POLYGAMMA: return run_polygamma(fname, b->v[1], b->v[0], b, false);
    case K_POLYGAMMA_M: return run_polygamma(fname, b->v[0], b->v[1], b, inplace);
    case K_MVLGAMMA: {
        int64_t p;
        if (bind_int(b->v[1], fname, "p", &p) < 0) return NULL;
        tsr_tensor *out = out_of(b), *r = tsr_mvlgamma(tensor_of(b->v[0]), p, out, inplace);
        if (out) ops_warn();
        return ops_finish(r, inplace ? self : b->v[BIND_OUT]);
    }
    }
    return exc_set("RuntimeError", "internal error: special kind %d", d->kind);
}

/* ------------------------------------------------------------ the table */

#define UN "Tensor input, *, Tensor? out=None"
#define TT "Tensor input, Tensor other, *, Tensor? out=None"
#define BIN3 TT "|Number self, Tensor other, *, Tensor? out=None|Tensor input, Number other, *, Tensor? out=None"
#define POLY "Tensor x, Tensor n, *, Tensor? out=None|Number x, Tensor n, *, Tensor? out=None|" \
             "Tensor x, Number n, *, Tensor? out=None"
#define FMI (BIND_FN | BIND_METHOD | BIND_INPLACE)
#define ROW(n, k, c, fl, s, mod) {.name = n, .kind = k, .code = c, .flags = fl, .sigs = s, .handler = special_call, \
                                  .module = mod}
#define SPU(n, c) ROW(n, K_UN, TSR_UNOP_##c, BIND_FN, UN, "torch.special")
#define SPS(n, c) ROW(n, K_SU, TSR_SPECIAL_##c, BIND_FN, UN, "torch.special")
#define SPB(n, c, s) ROW(n, K_SB, TSR_SPECIAL_##c, BIND_FN, s, "torch.special")
#define SPP(n, c) SPB(n, c, POLY)

static BindRow rows[] = {
    SPU("expit", SIGMOID), SPU("exp2", EXP2), SPU("expm1", EXPM1), SPU("log1p", LOG1P), SPU("erf", ERF),
    SPU("erfc", ERFC), SPU("erfinv", ERFINV), SPU("gammaln", LGAMMA), SPU("digamma", DIGAMMA), SPU("psi", DIGAMMA),
    ROW("round", K_ROUND, 0, BIND_FN, "Tensor input, *, int decimals=0, Tensor? out=None", "torch.special"),
    ROW("logit", K_LOGIT, 0, BIND_FN, "Tensor input, float? eps=None, *, Tensor? out=None", "torch.special"),
    SPS("sinc", SINC), SPS("erfcx", ERFCX), SPS("ndtri", NDTRI), SPS("log_ndtr", LOG_NDTR), SPS("entr", ENTR),
    ROW("ndtr", K_NDTR, 0, BIND_FN, UN, "torch.special"),
    SPB("xlogy", XLOGY, BIN3), SPB("xlog1py", XLOG1PY, BIN3), SPB("zeta", ZETA, BIN3),
    SPB("gammainc", IGAMMA, TT), SPB("gammaincc", IGAMMAC, TT),
    ROW("polygamma", K_POLYGAMMA, 0, BIND_FN, "int n, Tensor input, *, Tensor? out=None", "torch.special"),
    ROW("multigammaln", K_MVLGAMMA, 0, BIND_FN, "Tensor input, int p, *, Tensor? out=None", "torch.special"),
    SPP("chebyshev_polynomial_t", CHEBYSHEV_T), SPP("chebyshev_polynomial_u", CHEBYSHEV_U),
    SPP("chebyshev_polynomial_v", CHEBYSHEV_V), SPP("chebyshev_polynomial_w", CHEBYSHEV_W),
    SPP("shifted_chebyshev_polynomial_t", SHIFTED_CHEBYSHEV_T), SPP("shifted_chebyshev_polynomial_u", SHIFTED_CHEBYSHEV_U),
    SPP("shifted_chebyshev_polynomial_v", SHIFTED_CHEBYSHEV_V), SPP("shifted_chebyshev_polynomial_w", SHIFTED_CHEBYSHEV_W),
    SPP("hermite_polynomial_h", HERMITE_H), SPP("hermite_polynomial_he", HERMITE_HE),
    SPP("laguerre_polynomial_l", LAGUERRE_L), SPP("legendre_polynomial_p", LEGENDRE_P),
    /* the torch namespace and Tensor methods */
    ROW("polygamma", K_POLYGAMMA, 0, BIND_FN, "int n, Tensor input, *, Tensor? out=None", NULL),
    ROW("polygamma", K_POLYGAMMA_M, 0, BIND_METHOD | BIND_INPLACE, "Tensor input, int n", NULL),
    ROW("mvlgamma", K_MVLGAMMA, 0, FMI, "Tensor input, int p, *, Tensor? out=None", NULL),
    ROW("igamma", K_SB, TSR_SPECIAL_IGAMMA, FMI, TT, NULL),
    ROW("igammac", K_SB, TSR_SPECIAL_IGAMMAC, FMI, TT, NULL),
    ROW("xlogy", K_SB, TSR_SPECIAL_XLOGY, FMI, BIN3, NULL),
    ROW("sinc", K_SU, TSR_SPECIAL_SINC, FMI, UN, NULL),
    ROW("sinc_", K_SU, TSR_SPECIAL_SINC, BIND_FN | BIND_FN_INPLACE, "Tensor input", NULL),
    ROW("xlogy_", K_SB, TSR_SPECIAL_XLOGY, BIND_FN | BIND_FN_INPLACE, "Tensor input, Tensor other|Tensor input, Number other",
        NULL),
};

void bind_special_init(void)
{
    bind_table_register(rows, (int)(sizeof rows / sizeof rows[0]));
}
