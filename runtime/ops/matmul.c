/* runtime/ops/matmul.c — the composite products of blas.h: matmul (1.13's
 * _matmul_impl: dot, mv, mm, the folded mm of a batch against a matrix, and
 * bmm over broadcast batches), inner and outer. Each lowers onto the kernels
 * of blas.c exactly as 1.13 does, so the bits follow its choice of path. */
#include <string.h>

#include "../named.h"
#include "blas.h"
#include "binary.h"
#include "copy.h"
#include "shape.h"
#include "../error.h"
#include "../op.h"
#include "../internal.h"
#include "../iter.h"
#include "../view.h"
#include "loops.h"

static int64_t prod(int n, const int64_t *v)
{
    int64_t p = 1;
    for (int i = 0; i < n; i++) p *= v[i];
    return p;
}

/* 1.13's should_fold: a >= 3-D tensor against a 1- or 2-D one folds its batch
 * into the rows of one mm, unless a 3-D one is a transposed batch. */
static bool should_fold(const tsr_tensor *t1, int dim2)
{
    if (t1->ndim >= 3 && (dim2 == 1 || dim2 == 2)) {
        if (t1->ndim == 3 && dim2 == 2 && t1->strides[2] != 1 && t1->strides[0] == t1->sizes[1] * t1->sizes[2])
            return false;
        return true;
    }
    return false;
}

static tsr_tensor *view_or_reshape(tsr_tensor *r, int nd, const int64_t *sizes)
{
    if (!r) return NULL;
    tsr_tensor *v = tsr_reshape(r, nd, sizes);
    tsr_tensor_release(r);
    return v;
}

/* at::_unsafe_view(r, sizes): the shape without a view link (x._base None),
 * so an in-place op on matmul's result is no write through a view */
static tsr_tensor *unsafe_view(tsr_tensor *r, int nd, const int64_t *sizes)
{
    tsr_tensor *v = view_or_reshape(r, nd, sizes);
    if (v) tsr_tensor_unview(v);
    return v;
}

static tsr_tensor *matmul(const tsr_tensor *t1, const tsr_tensor *t2, tsr_tensor *out);

/* names: compute_matmul_outnames before computing (NamedTensorUtils.cpp) */
tsr_tensor *tsr_matmul(const tsr_tensor *t1, const tsr_tensor *t2, tsr_tensor *out)
{
    if (!t1->names && !t2->names && !(out && out->names)) return matmul(t1, t2, out);
    tsr_name nm[TSR_MAX_DIMS + 2];
    int n = -1;
    if (t1->ndim && t2->ndim && tsr_names_matmul(t1->names, t1->ndim, t2->names, t2->ndim, nm, &n) < 0) return NULL;
    if (n >= 0 && out && out->ndim == n && tsr_names_check_out(out, nm, n) < 0) return NULL;
    tsr_tensor *r = matmul(t1, t2, out);
    if (r && n >= 0 && tsr_names_propagate_raw(r, nm, n) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

static tsr_tensor *matmul(const tsr_tensor *t1, const tsr_tensor *t2, tsr_tensor *out)
{
    int d1 = t1->ndim, d2 = t2->ndim;
    if (d1 == 0 || d2 == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "both arguments to matmul need to be at least 1D, but they are %dD and %dD",
                      d1, d2);
        return NULL;
    }
    /* dot and mm read conj views themselves (BLAS's conjugate kernels, as
     * 1.13's fallthroughs); every other path reads the resolved values */
    bool direct = (d1 == 1 && d2 == 1) || (d1 == 2 && d2 == 2) || (d1 == 1 && d2 == 2);
    if (!direct && (tsr_tensor_has_bits(t1) || tsr_tensor_has_bits(t2))) {
        tsr_tensor *a = tsr_resolve_bits(t1), *b = a ? tsr_resolve_bits(t2) : NULL;
        tsr_tensor *r = b ? tsr_matmul(a, b, out) : NULL;
        tsr_tensor_release(a);
        tsr_tensor_release(b);
        return r;
    }
    if (d1 == 1 && d2 == 1) return tsr_dot(t1, t2, out);
    if (d1 == 2 && d2 == 1) return tsr_mv(t1, t2, out);
    if (d1 == 2 && d2 == 2) return tsr_mm(t1, t2, out);
    if (d1 == 1 && d2 == 2) {
        tsr_tensor *u = tsr_view_unsqueeze(t1, 0);
        if (!u) return NULL;
        tsr_tensor *r = tsr_mm(u, t2, NULL);
        tsr_tensor_release(u);
        if (!r) return NULL;
        tsr_tensor *s = tsr_view_squeeze_dim(r, 0);
        tsr_tensor_release(r);
        /* 1.13 runs mm_out into out (resize_output to [1, p]) and squeezes it */
        if (s && out && out->dtype == s->dtype) {
            int64_t row[2] = {1, s->sizes[0]};
            if (tsr_resize_output(out, 2, row) < 0 || tsr_tensor_resize_(out, 1, s->sizes) < 0) {
                tsr_tensor_release(s);
                return NULL;
            }
        }
        return tsr_out_assign(s, out, true);
    }
    if (should_fold(t1, d2) || should_fold(t2, d1)) {
        bool transpose = d2 > d1;
        tsr_tensor *a = transpose ? tsr_view_mT(t2) : tsr_tensor_retain((tsr_tensor *)t1);
        tsr_tensor *b = !transpose ? tsr_tensor_retain((tsr_tensor *)t2)
                                   : d1 == 2 ? tsr_view_t(t1) : tsr_tensor_retain((tsr_tensor *)t1);
        tsr_tensor *r = NULL;
        if (!a || !b) goto fold_done;
        int64_t oshape[TSR_MAX_DIMS];
        int on = a->ndim - 1;
        memcpy(oshape, a->sizes, sizeof(int64_t) * (size_t)on);
        int64_t fsz[2] = {prod(on, oshape), a->sizes[a->ndim - 1]};
        bool bmat = b->ndim == 2;
        if (bmat) oshape[on++] = b->sizes[1];
        tsr_tensor *af = tsr_reshape(a, 2, fsz);
        if (!af) goto fold_done;
        r = bmat ? tsr_mm(af, b, NULL) : tsr_mv(af, b, NULL);
        tsr_tensor_release(af);
        r = unsafe_view(r, on, oshape);
        if (r && transpose && bmat) {   /* 1.13 transposes back only a matrix product */
            tsr_tensor *mt = tsr_view_mT(r);
            tsr_tensor_release(r);
            r = mt ? tsr_contiguous(mt, TSR_MF_CONTIGUOUS) : NULL;
            tsr_tensor_release(mt);
        }
    fold_done:
        tsr_tensor_release(a);
        tsr_tensor_release(b);
        return tsr_out_assign(r, out, true);
    }
    /* b1 x n x m1 @ b2 x m2 x p over broadcast batches */
    int64_t n = d1 > 1 ? t1->sizes[d1 - 2] : 1, m1 = t1->sizes[d1 - 1];
    int nb1 = d1 > 2 ? d1 - 2 : 0, nb2 = d2 > 2 ? d2 - 2 : 0;
    int64_t m2 = d2 > 1 ? t2->sizes[d2 - 2] : t2->sizes[0], p = d2 > 1 ? t2->sizes[d2 - 1] : 1;
    int64_t shape[TSR_MAX_DIMS + 2];
    int nds[2] = {nb1, nb2};
    const int64_t *szs[2] = {t1->sizes, t2->sizes};
    int nb = tsr_broadcast_shapes(2, nds, szs, shape);
    if (nb < 0) return NULL;
    int64_t bp = prod(nb, shape);
    int64_t e1[TSR_MAX_DIMS + 2], e2[TSR_MAX_DIMS + 2];
    memcpy(e1, shape, sizeof(int64_t) * (size_t)nb);
    memcpy(e2, shape, sizeof(int64_t) * (size_t)nb);
    e1[nb] = n; e1[nb + 1] = m1;
    e2[nb] = m2; e2[nb + 1] = p;
    tsr_tensor *x = NULL, *y = NULL, *xr = NULL, *yr = NULL, *r = NULL;
    /* a 1-D operand is unsqueezed by expand's alignment */
    x = tsr_view_expand(t1, nb + 2, e1);
    y = d2 > 1 ? tsr_view_expand(t2, nb + 2, e2) : NULL;
    if (d2 == 1) {
        tsr_tensor *u = tsr_view_unsqueeze(t2, 1);
        if (u) y = tsr_view_expand(u, nb + 2, e2);
        tsr_tensor_release(u);
    }
    if (!x || !y) goto done;
    int64_t s1[3] = {bp, n, m1}, s2[3] = {bp, m2, p};
    xr = tsr_reshape(x, 3, s1);
    yr = xr ? tsr_reshape(y, 3, s2) : NULL;
    if (!xr || !yr) goto done;
    int on = nb;
    if (d1 > 1) shape[on++] = n;
    if (d2 > 1) shape[on++] = p;
    if (out) {
        tsr_tensor *o = tsr_bmm(xr, yr, out);
        r = o ? tsr_reshape(o, on, shape) : NULL;
        if (r) {
            /* _unsafe_view of out: out itself takes the shape */
            tsr_tensor_release(r);
            r = tsr_tensor_resize_(out, on, shape) == 0 ? tsr_tensor_retain(out) : NULL;
        }
        tsr_tensor_release(o);
    } else {
        r = unsafe_view(tsr_bmm(xr, yr, NULL), on, shape);
    }
done:
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(xr);
    tsr_tensor_release(yr);
    return r;
}

tsr_tensor *tsr_inner(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor *out)
{
    if (a->ndim == 0 || b->ndim == 0) {
        tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
        return tsr_binary(TSR_BINOP_MUL, &x, &y, out, NULL);
    }
    if (a->sizes[a->ndim - 1] != b->sizes[b->ndim - 1]) {
        char x[256], y[256];
        tsr_error_set(TSR_ERR_RUNTIME, "inner() the last dimension must match on both input tensors but got shapes "
                      "%s and %s", tsr__fmt_list(x, sizeof x, a->ndim, a->sizes),
                      tsr__fmt_list(y, sizeof y, b->ndim, b->sizes));
        return NULL;
    }
    /* at::tensordot(self, other, -1, -1): a.reshape(-1, k) @ b.reshape(-1, k).T */
    int64_t k = a->sizes[a->ndim - 1];
    int64_t sa[2] = {prod(a->ndim - 1, a->sizes), k}, sb[2] = {prod(b->ndim - 1, b->sizes), k};
    int64_t shape[2 * TSR_MAX_DIMS];
    int on = 0;
    for (int d = 0; d < a->ndim - 1; d++) shape[on++] = a->sizes[d];
    for (int d = 0; d < b->ndim - 1; d++) shape[on++] = b->sizes[d];
    tsr_tensor *x = tsr_reshape(a, 2, sa), *y = tsr_reshape(b, 2, sb), *yt = NULL, *r = NULL;
    if (!x || !y) goto done;
    yt = tsr_view_t(y);
    if (!yt) goto done;
    if (out) {
        r = tsr_mm(x, yt, out);
        if (r) {
            tsr_tensor_release(r);
            r = tsr_tensor_resize_(out, on, shape) == 0 ? tsr_tensor_retain(out) : NULL;
        }
    } else {
        r = view_or_reshape(tsr_mm(x, yt, NULL), on, shape);
    }
done:
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(yt);
    return r;
}

tsr_tensor *tsr_outer(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor *out)
{
    if (a->ndim != 1) { tsr_error_set(TSR_ERR_RUNTIME, "outer: Expected 1-D argument self, but got %d-D", a->ndim); return NULL; }
    if (b->ndim != 1) { tsr_error_set(TSR_ERR_RUNTIME, "outer: Expected 1-D argument vec2, but got %d-D", b->ndim); return NULL; }
    int64_t sz[2] = {a->sizes[0], 1};
    tsr_tensor *col = tsr_reshape(a, 2, sz);
    if (!col) return NULL;
    tsr_operand x = tsr_operand_tensor(col), y = tsr_operand_tensor(b);
    tsr_tensor *r = tsr_binary(TSR_BINOP_MUL, &x, &y, out, NULL);
    tsr_tensor_release(col);
    return r;
}

/* ------------------------------------------------------------ addr */

typedef struct { tsr_scalar alpha, beta; bool beta0; } addr_ctx;

/* addr_kernel of 1.13: beta*self + (alpha*v1)*v2, each operation rounded to
 * the dtype (Half and BFloat16 arithmetic); beta == 0 ignores self. */
#define ADDR_RND_float16(x) tsr_half_to_float(tsr_float_to_half(x))
#define ADDR_RND_bfloat16(x) tsr_bfloat16_to_float(tsr_float_to_bfloat16(x))
#define ADDR_RND_float32(x) (x)
#define ADDR_RND_float64(x) (x)
#define ADDR_LOOP(dt, T, C, R, CONV, MUL)                                                                      \
    static int addr_##dt(char **d, const int64_t *s, int64_t n, const void *ctx)                               \
    {                                                                                                          \
        typedef R real_t; (void)sizeof(real_t);                                                                \
        const addr_ctx *p = ctx;                                                                               \
        C al = CONV(p->alpha), be = CONV(p->beta);                                                             \
        for (int64_t i = 0; i < n; i++) {                                                                      \
            C x = LD_##dt(*(const T *)(d[1] + i * s[1])), u = LD_##dt(*(const T *)(d[2] + i * s[2]));          \
            C v = LD_##dt(*(const T *)(d[3] + i * s[3]));                                                      \
            C prod = ADDR_R_##dt(MUL(ADDR_R_##dt(MUL(al, u)), v));                                             \
            C r = p->beta0 ? prod : ADDR_R_##dt(ADDR_R_##dt(MUL(be, x)) + prod);                               \
            *(T *)(d[0] + i * s[0]) = ST_##dt(r);                                                              \
        }                                                                                                      \
        return 0;                                                                                              \
    }
static int64_t addr_int(tsr_scalar s) { return tsr_scalar_to_int64(s); }
static double addr_dbl(tsr_scalar s) { return tsr_scalar_to_double(s); }
static double _Complex addr_cplx(tsr_scalar s) { double re, im; tsr_scalar_to_complex(s, &re, &im); return CMPLX(re, im); }
#define ADDR_IMUL(x, y) ((int64_t)((uint64_t)(x) * (uint64_t)(y)))
#define ADDR_FMUL(x, y) ((x) * (y))
#define ADDR_R_uint8(x) (x)
#define ADDR_R_int8(x) (x)
#define ADDR_R_int16(x) (x)
#define ADDR_R_int32(x) (x)
#define ADDR_R_int64(x) (x)
#define ADDR_R_float16 ADDR_RND_float16
#define ADDR_R_bfloat16 ADDR_RND_bfloat16
#define ADDR_R_float32(x) (x)
#define ADDR_R_float64(x) (x)
#define ADDR_R_complex64(x) (x)
#define ADDR_R_complex128(x) (x)
#define ADDR_INT(dt, T, C, R, ...) ADDR_LOOP(dt, T, C, R, addr_int, ADDR_IMUL)
#define ADDR_FLT(dt, T, C, R, ...) ADDR_LOOP(dt, T, C, R, (C)addr_dbl, ADDR_FMUL)
FAM_INT(ADDR_INT)
FAM_FLOAT(ADDR_FLT)
ADDR_LOOP(complex64, tsr_cfloat, tsr_cfloat, float, (tsr_cfloat)addr_cplx, CMUL)
ADDR_LOOP(complex128, tsr_cdouble, tsr_cdouble, double, addr_cplx, CMUL)
static int addr_boolean(char **d, const int64_t *s, int64_t n, const void *ctx)
{
    const addr_ctx *p = ctx;
    bool al = tsr_scalar_to_bool(p->alpha), be = tsr_scalar_to_bool(p->beta);
    for (int64_t i = 0; i < n; i++) {
        bool x = *(const bool *)(d[1] + i * s[1]), u = *(const bool *)(d[2] + i * s[2]);
        bool v = *(const bool *)(d[3] + i * s[3]);
        *(bool *)(d[0] + i * s[0]) = be ? ((be && x) || (al && u && v)) : (al && u && v);
    }
    return 0;
}
#define ADDR_ENTRY(dt, ...) [TSR_DT_##dt] = addr_##dt,
static const tsr_loop_fn addr_table[TSR_DTYPE_SLOTS] = {
    FAM_INT(ADDR_ENTRY) FAM_FLOAT(ADDR_ENTRY)[TSR_COMPLEX64] = addr_complex64, [TSR_COMPLEX128] = addr_complex128,
    [TSR_BOOL] = addr_boolean,
};

static int check_addr_scalar(tsr_dtype dt, tsr_scalar s, const char *name)
{
    if (s.kind == TSR_SCALAR_BOOL && dt != TSR_BOOL) {
        tsr_error_set(TSR_ERR_RUNTIME, "Boolean %s only supported for Boolean results.", name);
        return -1;
    }
    if (!tsr_dtype_is_floating(dt) && !tsr_dtype_is_complex(dt) && s.kind != TSR_SCALAR_INT && s.kind != TSR_SCALAR_BOOL) {
        tsr_error_set(TSR_ERR_RUNTIME, "For integral input tensors, argument %s must not be a floating point number.",
                      name);
        return -1;
    }
    return 0;
}

tsr_tensor *tsr_addr(tsr_tensor *self, const tsr_tensor *v1, const tsr_tensor *v2, tsr_scalar beta,
                     tsr_scalar alpha, tsr_tensor *out, bool inplace)
{
    if (v1->ndim != 1) { tsr_error_set(TSR_ERR_RUNTIME, "addr: Expected 1-D argument vec1, but got %d-D", v1->ndim); return NULL; }
    if (v2->ndim != 1) { tsr_error_set(TSR_ERR_RUNTIME, "addr: Expected 1-D argument vec2, but got %d-D", v2->ndim); return NULL; }
    int64_t sz[2] = {v1->sizes[0], v2->sizes[0]}, col[2] = {v1->sizes[0], 1};
    tsr_tensor *s = inplace ? tsr_tensor_retain(self) : tsr_view_expand(self, 2, sz);
    if (!s) return NULL;
    tsr_tensor *c = tsr_reshape(v1, 2, col), *r = NULL;
    if (!c) goto done;
    tsr_operand in[3] = {tsr_operand_tensor(s), tsr_operand_tensor(c), tsr_operand_tensor(v2)};
    tsr_dtype dt = tsr_result_type(3, in, NULL);
    if (check_addr_scalar(dt, beta, "beta") < 0 || check_addr_scalar(dt, alpha, "alpha") < 0) goto done;
    tsr_iter_config cfg = {.nin = 3, .in_dtype = {dt, dt, dt}, .out_dtype = dt, .check_dtype = TSR_DTYPE_UNDEFINED,
                           .check = TSR_CHECK_CAN_CAST, .inplace = inplace, .kname = "addr_cpu", .kdtype = dt};
    double re, im;
    tsr_scalar_to_complex(beta, &re, &im);
    addr_ctx ctx = {alpha, beta, re == 0 && im == 0};
    r = tsr_iter_run(&cfg, in, inplace ? self : out, addr_table[dt], &ctx);
done:
    tsr_tensor_release(s);
    tsr_tensor_release(c);
    return r;
}
