/* src/bind/linalg.c — the matmul family as the language sees it: mm, mv,
 * dot, vdot, inner, outer/ger, matmul, bmm, addmm, addmv, addr, baddbmm,
 * addbmm, with 1.13's signatures (the add* rows keep its deprecated
 * positional-beta overloads). Every rule is runtime/ops/blas.h's. */
#include "bind/areas.h"
#include "bind/ops.h"
#include "bind/table.h"

typedef enum { K_MM, K_MV, K_DOT, K_VDOT, K_INNER, K_OUTER, K_MATMUL, K_BMM,
               K_ADDMM, K_ADDMV, K_ADDR, K_BADDBMM, K_ADDBMM } Kind;

static tsr_tensor *arg_t(const BindArgs *b, int slot) { return b->v[slot] ? tensor_of(b->v[slot]) : NULL; }

/* beta (slot 3) and alpha (slot 4), 1 when absent. */
static int beta_alpha(const BindArgs *b, const char *fname, tsr_scalar *beta, tsr_scalar *alpha)
{
    *beta = *alpha = tsr_scalar_int(1);
    if (b->v[3] && bind_scalar(b->v[3], fname, "beta", beta) < 0) return -1;
    if (b->v[4] && bind_scalar(b->v[4], fname, "alpha", alpha) < 0) return -1;
    return 0;
}

static Value *linalg_call(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    tsr_tensor *x = arg_t(b, 0), *y = arg_t(b, 1), *z = arg_t(b, 2), *out = arg_t(b, BIND_OUT), *r = NULL;
    Value *same = inplace ? self : b->v[BIND_OUT];
    tsr_scalar beta, alpha;
    switch ((Kind)d->kind) {
    case K_MM: r = tsr_mm(x, y, out); break;
    case K_MV: r = tsr_mv(x, y, out); break;
    case K_DOT: r = tsr_dot(x, y, out); break;
    case K_VDOT: r = tsr_vdot(x, y, out); break;
    case K_INNER: r = tsr_inner(x, y, out); break;
    case K_OUTER: r = tsr_outer(x, y, out); break;
    case K_MATMUL: r = tsr_matmul(x, y, out); break;
    case K_BMM: r = tsr_bmm(x, y, out); break;
    default:
        if (beta_alpha(b, fname, &beta, &alpha) < 0) return NULL;
        switch ((Kind)d->kind) {
        case K_ADDMM: r = tsr_addmm(x, y, z, beta, alpha, out, inplace); break;
        case K_ADDMV: r = tsr_addmv(x, y, z, beta, alpha, out, inplace); break;
        case K_ADDR: r = tsr_addr(x, y, z, beta, alpha, out, inplace); break;
        case K_BADDBMM: r = tsr_baddbmm(x, y, z, beta, alpha, out, inplace); break;
        case K_ADDBMM: r = tsr_addbmm(x, y, z, beta, alpha, out, inplace); break;
        default: return exc_set("RuntimeError", "internal error: linalg kind %d", d->kind);
        }
    }
    if (out) ops_warn();
    return ops_finish(r, same);
}

/* ------------------------------------------------------------ the table */

#define FM (BIND_FN | BIND_METHOD)
#define FMI (BIND_FN | BIND_METHOD | BIND_INPLACE)
#define ROW(n, k, fl, hf, hm, s) {.name = n, .kind = k, .flags = fl, .hidden_f = hf, .hidden_m = hm, .sigs = s, \
                                  .handler = linalg_call}
#define TWO(a, b) "Tensor input, Tensor " b ", *, Tensor? out=None"
/* addmm(input, m1, m2, *, beta=1, alpha=1) and the deprecated positional forms of
 * python_torch_functions: (beta, input, alpha, m1, m2) and (beta, input, m1, m2) */
#define ADD3(a, b)                                                                                     \
    "Tensor input, Tensor " a ", Tensor " b ", *, Number beta=1, Number alpha=1, Tensor? out=None|"  \
    "!Number beta, Tensor input, Number alpha, Tensor " a ", Tensor " b ", *, Tensor? out=None|"     \
    "!Number beta, Tensor input, Tensor " a ", Tensor " b ", *, Tensor? out=None"

static BindRow rows[] = {
    ROW("mm", K_MM, FM, 0, 0, TWO("input", "mat2")),
    ROW("mv", K_MV, FM, 0, 0, TWO("input", "vec")),
    ROW("dot", K_DOT, FM, 0, 0, TWO("input", "tensor")),
    ROW("vdot", K_VDOT, FM, 0, 0, TWO("input", "other")),
    ROW("inner", K_INNER, FM, 0, 0, TWO("input", "other")),
    ROW("outer", K_OUTER, FM, 0, 0, TWO("input", "vec2")),
    ROW("ger", K_OUTER, FM, 0, 0, TWO("input", "vec2")),
    ROW("matmul", K_MATMUL, FM, 0, 0, TWO("input", "other")),
    ROW("bmm", K_BMM, FM, 0, 0, TWO("input", "mat2")),
    ROW("addmm", K_ADDMM, FMI, 0, 2, ADD3("mat1", "mat2")),
    ROW("addmv", K_ADDMV, FMI | BIND_FN_UNDERSCORE, 0, 2, ADD3("mat", "vec")),
    ROW("addr", K_ADDR, FMI, 0, 2, ADD3("vec1", "vec2")),
    ROW("baddbmm", K_BADDBMM, FMI, 0, 2, ADD3("batch1", "batch2")),
    ROW("addbmm", K_ADDBMM, FMI, 0, 2, ADD3("batch1", "batch2")),
};

void bind_linalg_init(void)
{
    bind_table_register(rows, (int)(sizeof rows / sizeof rows[0]));
}
