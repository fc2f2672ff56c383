/* runtime/ops/grad_linalg2.c — backward formulas of the matrix
 * decompositions with several outputs (linalg.qr, linalg.svd / svd,
 * linalg.eigh, linalg.eig): 1.13's linalg_qr_backward, svd_backward and
 * linalg_eig_backward of FunctionsManual.cpp, in the same order of
 * operations (grad_linalg2.h). The node keeps the forward's outputs in
 * extra[] (aliases); each output's gradient is n->outg[k] (NULL: undefined). */
#include "grad_linalg2.h"
#include "autograd_formula.h"
#include <string.h>
#include "error.h"
#include "ops/binary.h"
#include "ops/blas.h"
#include "ops/compare.h"
#include "ops/reduce.h"
#include "ops/copy.h"
#include "ops/factory.h"
#include "ops/join.h"
#include "ops/linalg.h"
#include "ops/rearrange.h"
#include "ops/unary.h"
#include "internal.h"
#include "view.h"

#define MUL(a, b) bin(c, TSR_BINOP_MUL, (a), (b))
#define DIV(a, b) bin(c, TSR_BINOP_DIV, (a), (b))
#define ADD(a, b) bin(c, TSR_BINOP_ADD, (a), (b))
#define SUB(a, b) bin(c, TSR_BINOP_SUB, (a), (b))

static tsr_tensor *un(F *c, tsr_unop op, const tsr_tensor *a)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr_unary(op, a, NULL, NULL));
}
static tsr_tensor *view(F *c, tsr_tensor *v)
{
    if (c->fail) {
        tsr_tensor_release(v);
        return NULL;
    }
    return keep(c, v);
}
static tsr_tensor *tr(F *c, const tsr_tensor *a)
{
    if (c->fail || !a) return NULL;
    return view(c, tsr_view_transpose(a, a->ndim - 2, a->ndim - 1));
}
/* A^H of the last two dims (the conjugate materialised for complex) */
static tsr_tensor *mH(F *c, const tsr_tensor *a)
{
    tsr_tensor *t = tr(c, a);
    if (!t || !tsr_dtype_is_complex(t->dtype)) return t;
    return un(c, TSR_UNOP_CONJ_PHYSICAL, t);
}
static tsr_tensor *mm(F *c, const tsr_tensor *a, const tsr_tensor *b)
{
    if (c->fail || !a || !b) return NULL;
    return keep(c, tsr_matmul(a, b, NULL));
}
static tsr_tensor *unsq(F *c, const tsr_tensor *a, int64_t d)
{
    if (c->fail || !a) return NULL;
    return view(c, tsr_view_unsqueeze(a, d));
}
static tsr_tensor *diag(F *c, const tsr_tensor *a)
{
    if (c->fail || !a) return NULL;
    return view(c, tsr_view_diagonal(a, 0, -2, -1));
}
static tsr_tensor *diag_embed(F *c, const tsr_tensor *a)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr_diag_embed(a, 0, -2, -1));
}
static tsr_tensor *narrow(F *c, const tsr_tensor *a, int64_t dim, int64_t len)
{
    if (c->fail || !a) return NULL;
    return view(c, tsr_view_narrow(a, dim < 0 ? dim + a->ndim : dim, 0, len));
}
static tsr_tensor *tri(F *c, const tsr_tensor *a, int64_t k, bool upper)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr_tril(a, k, upper, NULL));
}
static tsr_tensor *smul(F *c, double s, const tsr_tensor *a)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_binary_s(TSR_BINOP_MUL, a, s, true));
}
/* t *= s in place (t a view of a kept temporary) */
static void mul_(F *c, tsr_tensor *t, double s)
{
    if (c->fail || !t) return;
    tsr_operand o = tsr_operand_scalar(tsr_scalar_float(s));
    tsr_tensor *r = tsr_binary_(TSR_BINOP_MUL, t, &o, NULL);
    if (!r) c->fail = true;
    tsr_tensor_release(r);
}
/* the real (imag) part of a complex t as a view; t itself when real */
static tsr_tensor *part(F *c, tsr_tensor *t, bool imag)
{
    if (c->fail || !t || !tsr_dtype_is_complex(t->dtype)) return t;
    return view(c, imag ? tsr_view_imag(t) : tsr_view_real(t));
}

/* linalg_eig_backward's check for complex eigenvectors: imag(diag(V^H gV))
 * must be about 0, else the loss depends on the eigenvectors' phase */
static void phase_check(F *c, const tsr_tensor *V, tsr_tensor *dg, const char *who)
{
    if (c->fail || !tsr_dtype_is_complex(V->dtype)) return;
    tsr_tensor *im = part(c, dg, true);
    tsr_tensor *z = im ? keep(c, tsr_zeros(im->ndim, im->sizes, im->dtype, im->device)) : NULL;
    if (c->fail || !z) return;
    int r = tsr_allclose(im, z, 1e-2, 1e-2, false);
    if (r < 0) c->fail = true;
    else if (!r) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: The eigenvectors in the complex case are specified up to multiplication "
                      "by e^{i phi}. The specified loss function depends on this quantity, so it is ill-defined.", who);
        c->fail = true;
    }
}

static tsr_tensor *solve_tri(F *c, const tsr_tensor *a, const tsr_tensor *b, bool upper, bool left)
{
    if (c->fail || !a || !b) return NULL;
    tsr_tensor *x = NULL;
    if (tsr_linalg_solve_triangular(a, b, upper, left, false, &x) < 0) {
        c->fail = true;
        return NULL;
    }
    return keep(c, x);
}
static tsr_tensor *solve(F *c, const tsr_tensor *a, const tsr_tensor *b)
{
    if (c->fail || !a || !b) return NULL;
    tsr_tensor *x = NULL, *info = NULL;
    if (tsr_linalg_solve_ex(a, b, true, "torch.linalg.solve", &x, &info) < 0) {
        c->fail = true;
        return NULL;
    }
    tsr_tensor_release(info);
    return keep(c, x);
}
/* -1 with NotImplementedError while the engine records the backward (1.13
 * records it: the saved outputs depend on the input) */
static int refuse_create(tsr_node *n)
{
    if (!tsr__ag_creating()) return 0;
    tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "create_graph=True: the derivative of %s is not implemented.", n->name);
    return -1;
}
/* 1.13's unpacking of the saved outputs: -1 with its error when the graph
 * was freed (a backward without retain_graph) or output k
 * (extra[k], which shares its storage) was changed in place since the
 * forward (its version then in a.dims[k]) */
static int check_versions(tsr_node *n)
{
    if (n->released) return tsr__ag_saved(n, 0) ? 0 : -1;   /* 1.13's error for freed saved tensors */
    for (int k = 0; k < n->nextra; k++) {
        const tsr_tensor *t = n->extra[k];
        if (tsr_tensor_version(t) == n->a.dims[k]) continue;
        const tsr_dtype_traits *tr = tsr_dtype_traits_of(t->dtype);
        char dims[256];
        tsr_error_set(TSR_ERR_RUNTIME, "one of the variables needed for gradient computation has been modified by an "
                      "inplace operation: [torch.%s %s], which is output %d of %s, is at version %lld; expected "
                      "version %lld instead. Hint: enable anomaly detection to find the operation that failed to "
                      "compute its gradient, with torch.autograd.set_detect_anomaly(True).",
                      tr ? tr->tensor_type : "Tensor", tsr__fmt_list(dims, sizeof dims, t->ndim, t->sizes), k, n->name,
                      (long long)tsr_tensor_version(t), (long long)n->a.dims[k]);
        return -1;
    }
    return 0;
}
/* releases the temporaries other than live[0..nlive) (F holds 48) */
static void compact(F *c, tsr_tensor *const *live, int nlive)
{
    int j = 0;
    for (int i = 0; i < c->n; i++) {
        bool k = false;
        for (int l = 0; l < nlive && !k; l++) k = c->t[i] == live[l];
        if (k) c->t[j++] = c->t[i];
        else tsr_tensor_release(c->t[i]);
    }
    c->n = j;
}
static tsr_tensor *outg(tsr_node *n, int k)
{
    return n->outg && n->nout > 1 ? n->outg[k] : NULL;
}
/* 1.13's handle_r_to_c: the real part of a complex gradient of a real input */
static void give_rc(F *c, tsr_node *n, tsr_tensor **gin, tsr_tensor *g)
{
    if (g && !c->fail && tsr_dtype_is_complex(g->dtype) && !tsr_dtype_is_complex(n->in_dtype[0]))
        g = part(c, g, false);
    give(c, gin, 0, g);
}

/* ---- create_graph: the recorded forms of the helpers below ---- */
static tsr_tensor *rmm(F *c, const tsr_tensor *a, const tsr_tensor *b);
static tsr_tensor *rmH(F *c, const tsr_tensor *a);

static tsr_tensor *rneg(F *c, const tsr_tensor *a)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_unary(TSR_UNOP_NEG, a));
}

/* t.diagonal(0, -2, -1).mul_(s) in place: 1.13's CopySlices around MulBackward1 */
static void rdiag_mul(F *c, tsr_tensor *t, double s)
{
    if (c->fail || !t) return;
    tsr_tensor *d = keep(c, tsr__ag_diagonal(t, 0, -2, -1));   /* recorded: the in-place op then finds its base */
    tsr_ag_args a = {0};
    a.ndims = -1;
    a.d0 = s;
    tsr_operand o = tsr_operand_scalar(tsr_scalar_float(s));
    tsr_tensor *r = d ? tsr_binary_(TSR_BINOP_MUL, d, &o, NULL) : NULL;
    if (!r || tsr_ag_record("mul_s", 1, &d, &a, d, true) < 0) c->fail = true;
    tsr_tensor_release(r);
}

/* linalg_qr_backward with create_graph (real dtypes): Q and R unpack as the
 * node's outputs 0 and 1; the operands of a binary operator built right
 * first, as 1.13's build evaluates them */
static int qr_rec(F *c, tsr_node *n, tsr_tensor **gin, const tsr_tensor *gQ, const tsr_tensor *gR)
{
    tsr_tensor *Q = keep(c, tsr__ag_output_alias(n, n->extra[0], 0, 2));
    tsr_tensor *R = c->fail ? NULL : keep(c, tsr__ag_output_alias(n, n->extra[1], 1, 2));
    if (c->fail) return finish(c, n, gin);
    int64_t m = Q->sizes[Q->ndim - 2], k = R->sizes[R->ndim - 1];
    tsr_tensor *gA;
    if (gQ && gR) {
        tsr_tensor *b = rmm(c, rmH(c, Q), gQ);
        gA = SUB(rmm(c, gR, rmH(c, R)), b);
    } else if (gQ) {
        gA = rneg(c, rmm(c, rmH(c, Q), gQ));
    } else {
        gA = rmm(c, gR, rmH(c, R));
    }
    if (m >= k) {
        tsr_tensor *t = c->fail ? NULL : keep(c, tsr__ag_tril(gA, 0, true));
        tsr_tensor *ret = ADD(t, rmH(c, t));
        rdiag_mul(c, ret, 0.5);
        gA = rmm(c, Q, ret);
        if (gQ) gA = ADD(gA, gQ);
        gA = c->fail ? NULL : keep(c, tsr__ag_solve_triangular(rmH(c, R), gA, false, false, false));
    } else {
        tsr_tensor *X = rneg(c, gA);
        tsr_tensor *Xh = rmH(c, X);
        tsr_tensor *ret = SUB(X, Xh);
        ret = c->fail ? NULL : keep(c, tsr__ag_tril(ret, 0, false));
        gA = rmm(c, Q, ret);
        tsr_tensor *Rn = c->fail ? NULL : keep(c, tsr__ag_narrow(R, -1, 0, m));
        gA = c->fail ? NULL : keep(c, tsr__ag_solve_triangular(rmH(c, Rn), gA, false, false, false));
        if (!c->fail) {
            int64_t sz[TSR_MAX_DIMS];
            for (int i = 0; i < R->ndim; i++) sz[i] = R->sizes[i];
            sz[R->ndim - 1] = k - m;
            tsr_tensor *z = keep(c, tsr_zeros(R->ndim, sz, gA->dtype, gA->device));
            const tsr_tensor *parts[2] = {gA, z};
            tsr_ag_args a = {0};
            a.ndims = -1;
            a.i0 = gA->ndim - 1;
            gA = z ? record_on(c, keep(c, tsr_cat(2, parts, -1, NULL)), "cat", 2, parts, &a) : NULL;
        }
        if (gR) gA = ADD(gA, rmm(c, Q, gR));
    }
    give(c, gin, 0, gA);
    return finish(c, n, gin);
}

/* linalg_qr(A, mode i0: 0 reduced, 1 complete, 2 r): linalg_qr_backward */
int tsr__bw_linalg_qr(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    (void)g;
    F c0 = {0}, *c = &c0;
    if ((tsr_dtype_is_complex(n->in_dtype[0]) && refuse_create(n) < 0) || check_versions(n) < 0) {
        c->fail = true;
        return finish(c, n, gin);
    }
    tsr_tensor *Q = n->extra[0], *R = n->extra[1], *gQ = outg(n, 0), *gR = outg(n, 1);
    if (n->a.i0 == 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
                      "Please use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.");
        c->fail = true;
        return finish(c, n, gin);
    }
    int64_t m = Q->sizes[Q->ndim - 2], k = R->sizes[R->ndim - 1];
    if (n->a.i0 == 1 && m > k) {
        tsr_error_set(TSR_ERR_RUNTIME, "The QR decomposition is not differentiable when mode='complete' and nrows > ncols.");
        c->fail = true;
        return finish(c, n, gin);
    }
    if (!gQ && !gR) return finish(c, n, gin);
    if (tsr__ag_creating()) return qr_rec(c, n, gin, gQ, gR);
    tsr_tensor *gA;
    if (gQ) gA = gR ? SUB(mm(c, gR, mH(c, R)), mm(c, mH(c, Q), gQ)) : un(c, TSR_UNOP_NEG, mm(c, mH(c, Q), gQ));
    else gA = mm(c, gR, mH(c, R));
    if (m >= k) {
        tsr_tensor *t = tri(c, gA, 0, true);
        tsr_tensor *ret = ADD(t, mH(c, t));
        mul_(c, part(c, diag(c, ret), false), 0.5);
        gA = mm(c, Q, ret);
        if (gQ) gA = ADD(gA, gQ);
        gA = solve_tri(c, mH(c, R), gA, false, false);
    } else {
        tsr_tensor *X = un(c, TSR_UNOP_NEG, gA);
        tsr_tensor *ret = tri(c, SUB(X, mH(c, X)), 0, false);
        if (ret && tsr_dtype_is_complex(ret->dtype)) mul_(c, part(c, diag(c, ret), true), 0.5);
        gA = mm(c, Q, ret);
        gA = solve_tri(c, mH(c, narrow(c, R, -1, m)), gA, false, false);
        if (!c->fail) {
            int64_t sz[TSR_MAX_DIMS];
            for (int i = 0; i < R->ndim; i++) sz[i] = R->sizes[i];
            sz[R->ndim - 1] = k - m;
            tsr_tensor *z = keep(c, tsr_zeros(R->ndim, sz, gA->dtype, gA->device));
            const tsr_tensor *parts[2] = {gA, z};
            gA = z ? keep(c, tsr_cat(2, parts, -1, NULL)) : NULL;
        }
        if (gR) gA = ADD(gA, mm(c, Q, gR));
    }
    give(c, gin, 0, gA);
    return finish(c, n, gin);
}

static tsr_tensor *runsq(F *c, const tsr_tensor *a, int64_t d);
static void rdiag_set(F *c, tsr_tensor *t, const tsr_tensor *src, double v);
static tsr_tensor *rnarrow(F *c, const tsr_tensor *a, int64_t dim, int64_t len)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_narrow(a, dim, 0, len));
}

/* svd_backward with create_graph (real dtypes): U, S, Vh unpack as the
 * node's outputs 0, 1, 2; derivatives.yaml's arguments (the narrows of
 * full_matrices) built right to left and each binary operator's right
 * operand first, as 1.13's build evaluates them; E's diagonal fill_ as
 * CopySlices */
static int svd_rec(F *c, tsr_node *n, tsr_tensor **gin, tsr_tensor *const *usv, bool full, tsr_tensor *gU,
                   const tsr_tensor *gS, tsr_tensor *gVh)
{
    tsr_tensor *U = keep(c, tsr__ag_output_alias(n, usv[0], 0, 3));
    tsr_tensor *S = c->fail ? NULL : keep(c, tsr__ag_output_alias(n, usv[1], 1, 3));
    tsr_tensor *Vh = c->fail ? NULL : keep(c, tsr__ag_output_alias(n, usv[2], 2, 3));
    if (c->fail) return finish(c, n, gin);
    int64_t k = S->sizes[S->ndim - 1];
    if (full) {
        Vh = rnarrow(c, Vh, -2, k);
        U = rnarrow(c, U, -1, k);
        if (gVh) gVh = rnarrow(c, gVh, -2, k);
        if (gU) gU = rnarrow(c, gU, -1, k);
    }
    if (c->fail) return finish(c, n, gin);
    int64_t m = U->sizes[U->ndim - 2], nn = Vh->sizes[Vh->ndim - 1];
    tsr_tensor *gA, *t;
    if (!gU && !gVh) {
        if (m >= nn) {
            t = MUL(runsq(c, gS, -1), Vh);
            gA = rmm(c, U, t);
        } else {
            t = MUL(U, runsq(c, gS, -2));
            gA = rmm(c, t, Vh);
        }
        give(c, gin, 0, gA);
        return finish(c, n, gin);
    }
    tsr_tensor *UhgU = NULL, *VhgV = NULL;
    if (gU) {
        tsr_tensor *x = rmm(c, rmH(c, U), gU);
        UhgU = SUB(x, rmH(c, x));
    }
    if (gVh) {
        tsr_tensor *gv = rmH(c, gVh);
        tsr_tensor *x = rmm(c, Vh, gv);
        VhgV = SUB(x, rmH(c, x));
    }
    tsr_tensor *S2 = MUL(S, S);
    tsr_tensor *e1 = runsq(c, S2, -1);
    tsr_tensor *E = SUB(runsq(c, S2, -2), e1);
    rdiag_set(c, E, NULL, 1.0);
    tsr_tensor *ret;
    if (gU && gVh) {
        tsr_tensor *b = MUL(runsq(c, S, -1), VhgV);
        tsr_tensor *a = MUL(UhgU, runsq(c, S, -2));
        ret = DIV(ADD(a, b), E);
    } else if (gU) {
        tsr_tensor *s2 = runsq(c, S, -2);
        ret = MUL(DIV(UhgU, E), s2);
    } else {
        tsr_tensor *q = DIV(VhgV, E);
        ret = MUL(runsq(c, S, -1), q);
    }
    if (gS) ret = ADD(ret, c->fail ? NULL : keep(c, tsr__ag_diag_embed(gS, 0, -2, -1)));
    gA = ret;
    if (!c->fail) {
        tsr_tensor *live[6] = {U, S, Vh, gU, gVh, gA};
        compact(c, live, 6);
    }
    if (m > nn && gU) {
        gA = rmm(c, U, gA);
        tsr_tensor *gUSinv = DIV(gU, runsq(c, S, -2));
        tsr_tensor *r = rmm(c, U, rmm(c, rmH(c, U), gUSinv));
        gA = SUB(ADD(gA, gUSinv), r);
        gA = rmm(c, gA, Vh);
    } else if (m < nn && gVh) {
        gA = rmm(c, gA, Vh);
        tsr_tensor *SinvgVh = DIV(gVh, runsq(c, S, -1));
        tsr_tensor *r = rmm(c, rmm(c, SinvgVh, rmH(c, Vh)), Vh);
        gA = SUB(ADD(gA, SinvgVh), r);
        gA = rmm(c, U, gA);
    } else if (m >= nn) {
        gA = rmm(c, U, rmm(c, gA, Vh));
    } else {
        gA = rmm(c, rmm(c, U, gA), Vh);
    }
    give(c, gin, 0, gA);
    return finish(c, n, gin);
}

static int svd_plain(F *c, tsr_node *n, tsr_tensor **gin, tsr_tensor *const *usv, bool full, tsr_tensor *gU,
                     tsr_tensor *gS, tsr_tensor *gVh);

/* _linalg_svd(A, full_matrices flag): svd_backward of the first k = min(m, n)
 * columns of U and rows of Vh */
int tsr__bw_linalg_svd(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    (void)g;
    F c0 = {0}, *c = &c0;
    if ((tsr_dtype_is_complex(n->in_dtype[0]) && refuse_create(n) < 0) || check_versions(n) < 0) {
        c->fail = true;
        return finish(c, n, gin);
    }
    tsr_tensor *gU = outg(n, 0), *gS = outg(n, 1), *gVh = outg(n, 2);
    if (!gS && !gU && !gVh) return finish(c, n, gin);
    if (tsr__ag_creating()) return svd_rec(c, n, gin, n->extra, n->a.flag, gU, gS, gVh);
    return svd_plain(c, n, gin, n->extra, n->a.flag, gU, gS, gVh);
}

/* svd_backward with the plain ops */
static int svd_plain(F *c, tsr_node *n, tsr_tensor **gin, tsr_tensor *const *usv, bool full, tsr_tensor *gU,
                     tsr_tensor *gS, tsr_tensor *gVh)
{
    tsr_tensor *U = usv[0], *S = usv[1], *Vh = usv[2];
    int64_t k = S->sizes[S->ndim - 1];
    if (full) {
        if (gU) gU = narrow(c, gU, -1, k);
        if (gVh) gVh = narrow(c, gVh, -2, k);
        U = narrow(c, U, -1, k);
        Vh = narrow(c, Vh, -2, k);
    }
    if ((!gS && !gU && !gVh) || c->fail) return finish(c, n, gin);
    int64_t m = U->sizes[U->ndim - 2], nn = Vh->sizes[Vh->ndim - 1];
    tsr_tensor *gA;
    if (!gU && !gVh) {
        gA = m >= nn ? mm(c, U, MUL(unsq(c, gS, -1), Vh)) : mm(c, MUL(U, unsq(c, gS, -2)), Vh);
        give(c, gin, 0, gA);
        return finish(c, n, gin);
    }
    bool cplx = tsr_dtype_is_complex(U->dtype);
    tsr_tensor *UhgU = NULL, *VhgV = NULL;
    if (gU) {
        tsr_tensor *x = mm(c, mH(c, U), gU);
        UhgU = SUB(x, mH(c, x));
    }
    if (gVh) {
        tsr_tensor *x = mm(c, Vh, mH(c, gVh));
        VhgV = SUB(x, mH(c, x));
    }
    if (cplx && !c->fail) {
        tsr_tensor *iu = gU ? part(c, diag(c, UhgU), true) : keep(c, tsr_zeros(S->ndim, S->sizes, S->dtype, S->device));
        tsr_tensor *iv = gVh ? part(c, diag(c, VhgV), true) : keep(c, tsr_zeros(S->ndim, S->sizes, S->dtype, S->device));
        iv = un(c, TSR_UNOP_NEG, iv);
        if (!c->fail) {
            int r = tsr_allclose(iu, iv, 1e-2, 1e-2, false);
            if (r < 0) c->fail = true;
            else if (!r) {
                tsr_error_set(TSR_ERR_RUNTIME, "svd_backward: The singular vectors in the complex case are specified up "
                              "to multiplication by e^{i phi}. The specified loss function depends on this phase term, "
                              "making it ill-defined.");
                c->fail = true;
            }
        }
    }
    tsr_tensor *S2 = MUL(S, S);
    tsr_tensor *E = SUB(unsq(c, S2, -2), unsq(c, S2, -1));
    if (!c->fail) {
        tsr_tensor *d = diag(c, E);
        if (d && tsr_fill_(d, tsr_scalar_float(1.0)) < 0) c->fail = true;
    }
    tsr_tensor *ret;
    if (gU) ret = gVh ? DIV(ADD(MUL(UhgU, unsq(c, S, -2)), MUL(unsq(c, S, -1), VhgV)), E)
                      : MUL(DIV(UhgU, E), unsq(c, S, -2));
    else ret = MUL(unsq(c, S, -1), DIV(VhgV, E));
    if (gS) ret = ADD(ret, diag_embed(c, gS));
    if (cplx && gU && gVh) ret = ADD(ret, diag_embed(c, DIV(diag(c, UhgU), smul(c, 2.0, S))));
    gA = ret;
    if (!c->fail) {
        tsr_tensor *live[6] = {U, S, Vh, gU, gVh, gA};
        compact(c, live, 6);
    }
    if (m > nn && gU) {
        gA = mm(c, U, gA);
        tsr_tensor *gUSinv = DIV(gU, unsq(c, S, -2));
        gA = SUB(ADD(gA, gUSinv), mm(c, U, mm(c, mH(c, U), gUSinv)));
        gA = mm(c, gA, Vh);
    } else if (m < nn && gVh) {
        gA = mm(c, gA, Vh);
        tsr_tensor *SinvgVh = DIV(gVh, unsq(c, S, -1));
        gA = SUB(ADD(gA, SinvgVh), mm(c, mm(c, SinvgVh, mH(c, Vh)), Vh));
        gA = mm(c, U, gA);
    } else {
        gA = m >= nn ? mm(c, U, mm(c, gA, Vh)) : mm(c, mm(c, U, gA), Vh);
    }
    give(c, gin, 0, gA);
    return finish(c, n, gin);
}

/* ---- create_graph: the recorded forms of the helpers above ---- */
static tsr_tensor *rmm(F *c, const tsr_tensor *a, const tsr_tensor *b)
{
    if (c->fail || !a || !b) return NULL;
    return keep(c, tsr__ag_matmul(a, b));
}
/* a.mH() of a real a: TransposeBackward0 */
static tsr_tensor *rmH(F *c, const tsr_tensor *a)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_transpose(a, a->ndim - 2, a->ndim - 1));
}
static tsr_tensor *runsq(F *c, const tsr_tensor *a, int64_t d)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_unsqueeze(a, d));
}
/* t.diagonal(0, -2, -1) written in place (fill_(v) when src is NULL, else
 * copy_(src)): 1.13's CopySlices on t */
static void rdiag_set(F *c, tsr_tensor *t, const tsr_tensor *src, double v)
{
    if (c->fail || !t) return;
    tsr_tensor *d = diag(c, t);
    if (!d || (src ? tsr_copy_(d, src) : tsr_fill_(d, tsr_scalar_float(v))) < 0 ||
        tsr_ag_record_setitem(t, d, src) < 0)
        c->fail = true;
}

/* a.mH() recorded: TransposeBackward0, then the lazy conj (ConjBackward0) when complex */
static tsr_tensor *rmHc(F *c, const tsr_tensor *a)
{
    tsr_tensor *t = rmH(c, a);
    return c->fail || !tsr_dtype_is_complex(t->dtype) ? t : keep(c, tsr__ag_conj(t));
}
/* at::real(t) recorded (SelectBackward0 over ViewAsRealBackward0); t when real */
static tsr_tensor *rreal(F *c, tsr_tensor *t)
{
    if (c->fail || !t || !tsr_dtype_is_complex(t->dtype)) return t;
    tsr_tensor *re = keep(c, tsr_view_real(t));
    if (re && tsr_ag_record_part(t, re, false) < 0) c->fail = true;
    return c->fail ? NULL : re;
}

/* linalg_eig's linalg_eig_backward with create_graph: L and V unpack as the
 * node's outputs 0 and 1; V.mH() a TransposeBackward0 / ConjBackward0 pair
 * each time the formula writes it, right operands first; Econj's diagonal
 * fill_ and ret's diagonal copy_(gL) as CopySlices; handle_r_to_c's real
 * part for a real input */
static int eig_rec(F *c, tsr_node *n, tsr_tensor **gin, const tsr_tensor *gL, const tsr_tensor *gV)
{
    tsr_tensor *L = keep(c, tsr__ag_output_alias(n, n->extra[0], 0, 2));
    tsr_tensor *V = c->fail ? NULL : keep(c, tsr__ag_output_alias(n, n->extra[1], 1, 2));
    tsr_tensor *gA;
    if (!gV) {
        tsr_tensor *r = rmHc(c, V);
        tsr_tensor *b = MUL(runsq(c, gL, -1), r);
        tsr_tensor *a = rmHc(c, V);
        gA = c->fail ? NULL : keep(c, tsr__ag_linalg_solve(a, b, true));
    } else {
        tsr_tensor *VhgV = rmm(c, rmHc(c, V), gV);
        tsr_tensor *dg = c->fail ? NULL : keep(c, tsr__ag_diagonal(VhgV, 0, -2, -1));
        phase_check(c, V, dg, "linalg_eig_backward");
        tsr_tensor *p = MUL(V, runsq(c, rreal(c, dg), -2));
        tsr_tensor *q = rmm(c, rmHc(c, V), p);
        VhgV = SUB(VhgV, q);
        tsr_tensor *Lc = c->fail ? NULL : keep(c, tsr__ag_conj(L));
        tsr_tensor *e1 = runsq(c, Lc, -1);
        tsr_tensor *Ec = SUB(runsq(c, Lc, -2), e1);
        rdiag_set(c, Ec, NULL, 1.0);
        tsr_tensor *ret = bin_(c, TSR_BINOP_DIV, VhgV, Ec);
        if (gL) rdiag_set(c, ret, gL, 0.0);
        tsr_tensor *b = rmm(c, ret, rmHc(c, V));
        tsr_tensor *a = rmHc(c, V);
        gA = c->fail ? NULL : keep(c, tsr__ag_linalg_solve(a, b, true));
    }
    if (!tsr_dtype_is_complex(n->in_dtype[0])) gA = rreal(c, gA);
    give(c, gin, 0, gA);
    return finish(c, n, gin);
}

/* linalg_eigh's linalg_eig_backward with create_graph (real dtypes): L and V
 * unpack as the node's outputs 0 and 1; 0.5 * (VhgV - VhgV.mH()) divided in
 * place by Econj (L.unsqueeze(-2) - L.unsqueeze(-1), its diagonal filled with
 * 1: CopySlices), gL copied onto the diagonal (CopySlices), V (ret V^H) */
static int eigh_rec(F *c, tsr_node *n, tsr_tensor **gin, const tsr_tensor *Lt, const tsr_tensor *Vt,
                    const tsr_tensor *gL, const tsr_tensor *gV)
{
    tsr_tensor *L = c->fail ? NULL : keep(c, tsr__ag_output_alias(n, Lt, 0, 2));
    tsr_tensor *V = c->fail ? NULL : keep(c, tsr__ag_output_alias(n, Vt, 1, 2));
    if (!gV) {
        give(c, gin, 0, rmm(c, MUL(V, runsq(c, gL, -2)), rmH(c, V)));
        return finish(c, n, gin);
    }
    tsr_tensor *VhgV = rmm(c, rmH(c, V), gV);
    VhgV = c->fail ? NULL : keep(c, tsr__ag_binary_s(TSR_BINOP_MUL, SUB(VhgV, rmH(c, VhgV)), 0.5, true));
    tsr_tensor *Ec = SUB(runsq(c, L, -2), runsq(c, L, -1));
    rdiag_set(c, Ec, NULL, 1.0);
    tsr_tensor *ret = bin_(c, TSR_BINOP_DIV, VhgV, Ec);
    if (gL) rdiag_set(c, ret, gL, 0.0);
    give(c, gin, 0, rmm(c, V, rmm(c, ret, rmH(c, V))));
    return finish(c, n, gin);
}

static int eig_plain(F *c, tsr_node *n, tsr_tensor **gin, bool herm, tsr_tensor *L, tsr_tensor *V,
                     const tsr_tensor *gL, const tsr_tensor *gV);

/* linalg_eig / linalg_eigh (Hermitian when the key says so): linalg_eig_backward */
int tsr__bw_linalg_eig(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    (void)g;
    F c0 = {0}, *c = &c0;
    bool rec_ok = strcmp(n->f->key, "linalg_eigh") || !tsr_dtype_is_complex(n->in_dtype[0]);
    if ((!rec_ok && refuse_create(n) < 0) || check_versions(n) < 0) {
        c->fail = true;
        return finish(c, n, gin);
    }
    bool herm = !strcmp(n->f->key, "linalg_eigh");
    tsr_tensor *L = n->extra[0], *V = n->extra[1], *gL = outg(n, 0), *gV = outg(n, 1);
    if (!gL && !gV) return finish(c, n, gin);
    if (herm && tsr__ag_creating()) return eigh_rec(c, n, gin, L, V, gL, gV);
    if (tsr__ag_creating()) return eig_rec(c, n, gin, gL, gV);
    return eig_plain(c, n, gin, herm, L, V, gL, gV);
}
/* linalg_eig_backward with the plain ops */
static int eig_plain(F *c, tsr_node *n, tsr_tensor **gin, bool herm, tsr_tensor *L, tsr_tensor *V,
                     const tsr_tensor *gL, const tsr_tensor *gV)
{
    if (!gV) {
        if (herm) give(c, gin, 0, mm(c, MUL(V, unsq(c, gL, -2)), mH(c, V)));
        else give_rc(c, n, gin, solve(c, mH(c, V), MUL(unsq(c, gL, -1), mH(c, V))));
        return finish(c, n, gin);
    }
    tsr_tensor *VhgV = mm(c, mH(c, V), gV);
    tsr_tensor *dg = diag(c, VhgV);
    phase_check(c, V, dg, herm ? "linalg_eigh_backward" : "linalg_eig_backward");
    if (herm) VhgV = smul(c, 0.5, SUB(VhgV, mH(c, VhgV)));
    else VhgV = SUB(VhgV, mm(c, mH(c, V), MUL(V, unsq(c, part(c, dg, false), -2))));
    tsr_tensor *Lc = tsr_dtype_is_complex(L ? L->dtype : TSR_FLOAT32) ? un(c, TSR_UNOP_CONJ_PHYSICAL, L) : L;
    tsr_tensor *Ec = SUB(unsq(c, Lc, -2), unsq(c, Lc, -1));
    if (!c->fail) {
        tsr_tensor *d = diag(c, Ec);
        if (d && tsr_fill_(d, tsr_scalar_float(1.0)) < 0) c->fail = true;
    }
    tsr_tensor *ret = DIV(VhgV, Ec);
    if (gL && !c->fail) {
        tsr_tensor *d = diag(c, ret);
        if (d && tsr_copy_(d, gL) < 0) c->fail = true;
    }
    if (herm) give(c, gin, 0, mm(c, V, mm(c, ret, mH(c, V))));
    else give_rc(c, n, gin, solve(c, mH(c, V), mm(c, ret, mH(c, V))));
    return finish(c, n, gin);
}

/* linalg_eigvalsh (uplo "U" when flag): 1.13's _linalg_eigh computes the
 * eigenvectors too when A requires grad and LinalgEighBackward0 saves them
 * (its output 1); here V is recomputed (the same LAPACK call, the same
 * bits). Without create_graph the shortcut V diag(gL) V^H; with it the
 * recorded linalg_eig_backward, V unpacking as the node's output 1 (whose
 * gradient a later backward then brings in outg[1]). */
int tsr__bw_linalg_eigvalsh(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *A = keep_saved(c, n, 0), *L = NULL, *V = NULL;
    if (!c->fail && tsr_linalg_eigh(A, n->a.flag ? "U" : "L", &L, &V) < 0) c->fail = true;
    if (!c->fail) keep(c, L), keep(c, V);
    if (c->fail) return finish(c, n, gin);
    if (tsr__ag_creating() && !tsr_dtype_is_complex(A->dtype)) {
        const tsr_tensor *gL = n->outg && n->nout > 1 ? n->outg[0] : g, *gV = outg(n, 1);
        if (!gL && !gV) return finish(c, n, gin);
        return eigh_rec(c, n, gin, L, V, gL, gV);
    }
    if (refuse_create(n) < 0) {
        c->fail = true;
        return finish(c, n, gin);
    }
    if (n->nout > 1 && n->outg) return eig_plain(c, n, gin, true, L, V, n->outg[0], n->outg[1]);
    give(c, gin, 0, mm(c, MUL(V, unsq(c, g, -2)), mH(c, V)));
    return finish(c, n, gin);
}

/* linalg_svdvals: 1.13's _linalg_svd computes U and Vh too when A requires
 * grad, and S is output 1 of LinalgSvdBackward0 (the binding numbers it so);
 * here U, S, Vh are recomputed (the same LAPACK call, the same bits).
 * Without create_graph svd_backward with only gS, U diag(gS) Vh; with it
 * the recorded svd_backward, U and Vh unpacking as the node's outputs 0 and
 * 2 (whose gradients a later backward brings in outg[]). */
int tsr__bw_linalg_svdvals(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *A = keep_saved(c, n, 0), *usv[3] = {0};
    if (!c->fail && tsr_linalg_svd(A, false, &usv[0], &usv[1], &usv[2]) < 0) c->fail = true;
    if (!c->fail) keep(c, usv[0]), keep(c, usv[1]), keep(c, usv[2]);
    if (c->fail) return finish(c, n, gin);
    bool multi = n->outg && n->nout > 1;
    tsr_tensor *gU = multi ? n->outg[0] : NULL, *gS = multi ? n->outg[1] : (tsr_tensor *)g;
    tsr_tensor *gVh = multi ? n->outg[2] : NULL;
    if (!gS && !gU && !gVh) return finish(c, n, gin);
    if (tsr__ag_creating() && tsr_dtype_is_complex(A->dtype)) {
        refuse_create(n);
        c->fail = true;
        return finish(c, n, gin);
    }
    if (tsr__ag_creating()) return svd_rec(c, n, gin, usv, false, gU, gS, gVh);
    return svd_plain(c, n, gin, usv, false, gU, gS, gVh);
}
