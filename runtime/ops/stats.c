/* runtime/ops/stats.c — diff, trapezoid, cov/corrcoef, quantile, bincount,
 * histc/histogram and unique, as 1.13's ATen writes them. The composite ones
 * (diff, trapezoid, cov, corrcoef, quantile) are built from the runtime's own
 * ops in ATen's order of operations, so every rounding step is PyTorch's and
 * meta tensors work wherever the parts work. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../error.h"
#include "../op.h"
#include "../internal.h"
#include "../iter.h"
#include "../names.h"
#include "../view.h"
#include "binary.h"
#include "blas.h"
#include "compare.h"
#include "copy.h"
#include "factory.h"
#include "index_dev.h"
#include "join.h"
#include "reduce.h"
#include "rearrange.h"
#include "scan.h"
#include "scan_dev.h"
#include "scatter.h"
#include "shape.h"
#include "sort.h"
#include "stats.h"
#include "unary.h"

/* ---- temporaries: every intermediate goes into a pool released at once ---- */
#define POOL_MAX 256   /* gradient with edge_order 2 keeps about 60 temporaries */
typedef struct { tsr_tensor *t[POOL_MAX]; int n; } pool;

static tsr_tensor *keep(pool *p, tsr_tensor *t)
{
    if (t && p->n < POOL_MAX) p->t[p->n++] = t;
    return t;
}

static void pool_free(pool *p)
{
    for (int i = 0; i < p->n; i++) tsr_tensor_release(p->t[i]);
    p->n = 0;
}

/* r taken out of the pool's care: a new reference for the caller */
static tsr_tensor *give(pool *p, tsr_tensor *r)
{
    if (r) tsr_tensor_retain(r);
    pool_free(p);
    return r;
}

static tsr_tensor *bin(pool *p, tsr_binop op, const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    return keep(p, tsr_binary(op, &x, &y, NULL, NULL));
}

static tsr_tensor *bin_s(pool *p, tsr_binop op, const tsr_tensor *a, tsr_scalar s)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_scalar(s);
    return keep(p, tsr_binary(op, &x, &y, NULL, NULL));
}

static tsr_tensor *s_bin(pool *p, tsr_binop op, tsr_scalar s, const tsr_tensor *b)
{
    tsr_operand x = tsr_operand_scalar(s), y = tsr_operand_tensor(b);
    return keep(p, tsr_binary(op, &x, &y, NULL, NULL));
}

static tsr_tensor *sum_dim(pool *p, const tsr_tensor *x, int64_t dim, bool keepdim)
{
    tsr_dims d = {.n = 1, .d = {dim}};
    return keep(p, tsr_sum(x, &d, keepdim, TSR_DTYPE_UNDEFINED, NULL));
}

static tsr_tensor *sum_all(pool *p, const tsr_tensor *x)
{
    tsr_dims d = {.n = -1};
    return keep(p, tsr_sum(x, &d, false, TSR_DTYPE_UNDEFINED, NULL));
}

/* x.slice(dim, start, end) with Python's clamping of end */
static tsr_tensor *slice(pool *p, const tsr_tensor *x, int64_t dim, int64_t start, int64_t end)
{
    return keep(p, tsr_view_slice(x, dim, start, end, 1));
}

/* the first element of a one-element tensor as a double / a truth value */
static int item_double(const tsr_tensor *t, double *v)
{
    tsr_scalar s;
    if (tsr_tensor_item(t, &s) < 0) return -1;
    *v = tsr_scalar_to_double(s);
    return 0;
}

/* 1.13 asks at::is_scalar_tensor_true, so a meta tensor fails in aten::equal
 * (registered for QuantizedCPU too, hence its own backend list) */
static int meta_equal_refused(void)
{
    tsr_error_set(TSR_ERR_NOT_IMPLEMENTED,
                  "Could not run 'aten::equal' with arguments from the 'Meta' backend. This could be because the "
                  "operator doesn't exist for this backend, or was omitted during the selective/custom build process "
                  "(if using custom build). If you are a Facebook employee using PyTorch on mobile, please visit "
                  "https://fburl.com/ptmfixes for possible resolutions. 'aten::equal' is only available for these "
                  "backends: [CPU, QuantizedCPU, BackendSelect, Python, FuncTorchDynamicLayerBackMode, Functionalize, "
                  "Named, Conjugate, Negative, ZeroTensor, ADInplaceOrView, AutogradOther, AutogradCPU, AutogradCUDA, "
                  "AutogradHIP, AutogradXLA, AutogradMPS, AutogradIPU, AutogradXPU, AutogradHPU, AutogradVE, "
                  "AutogradLazy, AutogradMeta, AutogradPrivateUse1, AutogradPrivateUse2, AutogradPrivateUse3, "
                  "AutogradNestedTensor, Tracer, AutocastCPU, AutocastCUDA, FuncTorchBatched, FuncTorchVmapMode, "
                  "Batched, VmapMode, FuncTorchGradWrapper, PythonTLSSnapshot, FuncTorchDynamicLayerFrontMode, "
                  "PythonDispatcher].");
    return -1;
}

static int item_bool(const tsr_tensor *t, bool *v)
{
    tsr_scalar s;
    if (tsr_tensor_is_meta(t)) return meta_equal_refused();
    if (tsr_tensor_item(t, &s) < 0) return -1;
    *v = tsr_scalar_to_bool(s);
    return 0;
}

/* ---------------------------------------------------------------- diff */

static int diff_check_shape(const tsr_tensor *x, const tsr_tensor *o, int64_t dim)
{
    if (!o) return 0;
    int wd = tsr_wrap_dim(dim, x->ndim);
    if (wd < 0) return -1;
    if (o->ndim != x->ndim) {
        tsr_error_set(TSR_ERR_RUNTIME, "diff expects prepend or append to be the same dimension as input");
        return -1;
    }
    for (int i = 0; i < o->ndim; i++)
        if (o->sizes[i] != x->sizes[i] && i != wd) {
            tsr_error_set(TSR_ERR_RUNTIME,
                          "diff expects the shape of tensor to prepend or append to match that of input except along "
                          "the differencing dimension; input.size(%d) = %" PRId64 ", but got tensor.size(%d) = %" PRId64,
                          i, x->sizes[i], i, o->sizes[i]);
            return -1;
        }
    return 0;
}

/* ReduceOps.cpp diff_helper: narrow(1, len) - narrow(0, len), n times */
static tsr_tensor *diff_helper(pool *p, const tsr_tensor *self, int64_t n, int64_t dim)
{
    if (n == 0) {
        tsr_tensor *r = keep(p, tsr_zeros_like(self, self->dtype, self->device, TSR_MF_PRESERVE));
        if (!r || tsr_copy_(r, self) < 0) return NULL;
        return r;
    }
    int wd = tsr_wrap_dim(dim, self->ndim);
    if (wd < 0) return NULL;
    int64_t len = self->sizes[wd] - 1;
    const tsr_tensor *r = self;
    if (n >= self->sizes[wd]) n = self->sizes[wd];
    for (int64_t i = 0; i < n; i++, len--) {
        tsr_tensor *hi = keep(p, tsr_view_narrow(r, wd, 1, len)), *lo = hi ? keep(p, tsr_view_narrow(r, wd, 0, len)) : NULL;
        if (!lo) return NULL;
        if (self->dtype == TSR_BOOL) {
            tsr_operand a = tsr_operand_tensor(hi), b = tsr_operand_tensor(lo);
            r = keep(p, tsr_compare(TSR_CMP_LOGICAL_XOR, &a, &b, NULL));
        } else {
            r = bin(p, TSR_BINOP_SUB, hi, lo);
        }
        if (!r) return NULL;
    }
    return (tsr_tensor *)r;
}

tsr_tensor *tsr_diff(const tsr_tensor *x, int64_t n, int64_t dim, const tsr_tensor *prepend,
                     const tsr_tensor *append, tsr_tensor *out)
{
    if (x->ndim < 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "diff expects input to be at least one-dimensional");
        return NULL;
    }
    if (diff_check_shape(x, prepend, dim) < 0 || diff_check_shape(x, append, dim) < 0) return NULL;
    pool p = {0};
    const tsr_tensor *a = x;
    if ((prepend || append) && n != 0) {
        const tsr_tensor *parts[3];
        int k = 0;
        if (prepend) parts[k++] = prepend;
        parts[k++] = x;
        if (append) parts[k++] = append;
        a = keep(&p, tsr_cat(k, parts, dim, NULL));
        if (!a) goto fail;
    }
    if (out) {
        /* diff_out_helper: the last step written by sub_out / logical_xor_out */
        if (n == 0) {
            if (tsr_tensor_resize_(out, a->ndim, a->sizes) < 0) goto fail;
            if (out->dtype != a->dtype) {
                tsr_error_set(TSR_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got %s instead",
                              tsr_dtype_name(a->dtype), tsr_dtype_name(out->dtype));
                goto fail;
            }
            if (tsr_copy_(out, a) < 0) goto fail;
            pool_free(&p);
            return tsr_tensor_retain(out);
        }
        int wd = tsr_wrap_dim(dim, a->ndim);
        if (wd < 0) goto fail;
        if (n >= a->sizes[wd]) n = a->sizes[wd];
        int64_t len = a->sizes[wd] - n;
        const tsr_tensor *prev = n > 1 ? diff_helper(&p, a, n - 1, wd) : a;
        tsr_tensor *hi = prev ? keep(&p, tsr_view_narrow(prev, wd, 1, len)) : NULL;
        tsr_tensor *lo = hi ? keep(&p, tsr_view_narrow(prev, wd, 0, len)) : NULL;
        if (!lo) goto fail;
        tsr_operand oa = tsr_operand_tensor(hi), ob = tsr_operand_tensor(lo);
        tsr_tensor *r = a->dtype == TSR_BOOL ? tsr_compare(TSR_CMP_LOGICAL_XOR, &oa, &ob, out)
                                             : tsr_binary(TSR_BINOP_SUB, &oa, &ob, out, NULL);
        pool_free(&p);
        return r;
    }
    return give(&p, diff_helper(&p, a, n, dim));
fail:
    pool_free(&p);
    return NULL;
}

/* ------------------------------------------------------------ trapezoid */

tsr_tensor *tsr_trapezoid(const tsr_tensor *y, const tsr_tensor *x, double dx, int64_t dim, bool cumulative)
{
    const char *fn = cumulative ? "cumulative_trapezoid" : "trapezoid";
    int wd = tsr_wrap_dim(dim, y->ndim);
    if (wd < 0) return NULL;
    if (y->ndim == 0) {
        tsr_error_set(TSR_ERR_INDEX, "Dimension specified as %" PRId64 " but tensor has no dimensions", dim);
        return NULL;
    }
    pool p = {0};
    if (!cumulative && y->sizes[wd] == 0) {
        /* zeros_like_except: numpy's 0 for an integral over no samples */
        int64_t sz[TSR_MAX_DIMS];
        int m = 0;
        for (int d = 0; d < y->ndim; d++)
            if (d != wd) sz[m++] = y->sizes[d];
        return tsr_zeros(m, sz, y->dtype, y->device);
    }
    if (x ? (y->dtype == TSR_BOOL || x->dtype == TSR_BOOL) : y->dtype == TSR_BOOL) {
        tsr_error_set(TSR_ERR_RUNTIME, x ? "%s: received a bool input for `x` or `y`, but bool is not supported"
                                         : "%s: received a bool input for `y`, but bool is not supported", fn);
        return NULL;
    }
    int64_t n = y->sizes[wd];
    tsr_tensor *left = slice(&p, y, wd, 0, n - 1 < 0 ? 0 : n - 1), *right = left ? slice(&p, y, wd, 1, INT64_MAX) : NULL;
    if (!right) goto fail;
    tsr_tensor *r;
    if (x) {
        const tsr_tensor *xv = x;
        if (x->ndim == 1) {
            if (x->sizes[0] != n) {
                tsr_error_set(TSR_ERR_RUNTIME, "%s: There must be one `x` value for each sample point", fn);
                goto fail;
            }
            int64_t sz[TSR_MAX_DIMS];
            for (int d = 0; d < y->ndim; d++) sz[d] = d == wd ? x->sizes[0] : 1;
            xv = keep(&p, tsr_view_view(x, y->ndim, sz));
        } else if (x->ndim < y->ndim) {
            int64_t sz[TSR_MAX_DIMS];
            int pad = y->ndim - x->ndim;
            for (int d = 0; d < y->ndim; d++) sz[d] = d < pad ? 1 : x->sizes[d - pad];
            xv = keep(&p, tsr_view_view(x, y->ndim, sz));
        }
        if (!xv) goto fail;
        int64_t xn = xv->ndim > wd ? xv->sizes[wd] : 0;
        tsr_tensor *xl = keep(&p, tsr_view_slice(xv, wd, 0, xn - 1 < 0 ? 0 : xn - 1, 1));
        tsr_tensor *xr = xl ? keep(&p, tsr_view_slice(xv, wd, 1, INT64_MAX, 1)) : NULL;
        tsr_tensor *d = xr ? bin(&p, TSR_BINOP_SUB, xr, xl) : NULL;
        /* ((left + right) * dx).sum(dim) / 2.  (cumsum for the cumulative form) */
        tsr_tensor *s = d ? bin(&p, TSR_BINOP_ADD, left, right) : NULL;
        tsr_tensor *m = s ? bin(&p, TSR_BINOP_MUL, s, d) : NULL;
        tsr_tensor *acc = !m ? NULL : cumulative ? keep(&p, tsr_cumsum(m, wd, TSR_DTYPE_UNDEFINED, false, NULL))
                                               : sum_dim(&p, m, wd, false);
        r = acc ? bin_s(&p, TSR_BINOP_DIV, acc, tsr_scalar_float(2.0)) : NULL;
    } else if (cumulative) {
        /* (dx / 2. * (left + right)).cumsum(dim) */
        tsr_tensor *s = bin(&p, TSR_BINOP_ADD, left, right);
        tsr_tensor *m = s ? s_bin(&p, TSR_BINOP_MUL, tsr_scalar_float(dx / 2.), s) : NULL;
        r = m ? keep(&p, tsr_cumsum(m, wd, TSR_DTYPE_UNDEFINED, false, NULL)) : NULL;
    } else {
        /* (y.sum(dim) - (y.select(dim, 0) + y.select(dim, -1)) * 0.5) * dx */
        tsr_tensor *s = sum_dim(&p, y, wd, false);
        tsr_tensor *f = s ? keep(&p, tsr_view_select(y, wd, 0)) : NULL;
        tsr_tensor *l = f ? keep(&p, tsr_view_select(y, wd, n - 1)) : NULL;
        tsr_tensor *e = l ? bin(&p, TSR_BINOP_ADD, f, l) : NULL;
        tsr_tensor *h = e ? bin_s(&p, TSR_BINOP_MUL, e, tsr_scalar_float(0.5)) : NULL;
        tsr_tensor *dd = h ? bin(&p, TSR_BINOP_SUB, s, h) : NULL;
        r = dd ? bin_s(&p, TSR_BINOP_MUL, dd, tsr_scalar_float(dx)) : NULL;
    }
    if (!r) goto fail;
    return give(&p, r);
fail:
    pool_free(&p);
    return NULL;
}

/* ------------------------------------------------------------ cov, corrcoef */

static int check_weights(pool *p, const tsr_tensor *w, const char *what, bool integral, int64_t nobs)
{
    if (w->ndim > 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "cov(): expected %s to have one or fewer dimensions but got %s with %d dimensions",
                      what, what, w->ndim);
        return -1;
    }
    bool ok = integral ? tsr_dtype_is_integral(w->dtype, false) : tsr_dtype_is_floating(w->dtype);
    if (!ok) {
        tsr_error_set(TSR_ERR_RUNTIME, "cov(): expected %s to have %s dtype but got %s with %s dtype", what,
                      integral ? "integral" : "floating point", what, tsr_dtype_scalar_name(w->dtype));
        return -1;
    }
    if (tsr_tensor_numel(w) != nobs) {
        tsr_error_set(TSR_ERR_RUNTIME, "cov(): expected %s to have the same numel as there are observations in the "
                      "input but got %" PRId64 " != %" PRId64, what, tsr_tensor_numel(w), nobs);
        return -1;
    }
    if (nobs) {
        tsr_tensor *mn = keep(p, tsr_max_all(w, false));
        tsr_operand a = tsr_operand_tensor(mn), z = tsr_operand_scalar(tsr_scalar_int(0));
        tsr_tensor *ge = mn ? keep(p, tsr_compare(TSR_CMP_GE, &a, &z, NULL)) : NULL;
        bool v = false;
        if (!ge || item_bool(ge, &v) < 0) return -1;
        if (!v) {
            tsr_error_set(TSR_ERR_RUNTIME, "cov(): %s cannot be negative", what);
            return -1;
        }
    }
    return 0;
}

tsr_tensor *tsr_cov(const tsr_tensor *x, int64_t correction, const tsr_tensor *fw, const tsr_tensor *aw)
{
    if (x->ndim > 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "cov(): expected input to have two or fewer dimensions but got an input with %d "
                      "dimensions", x->ndim);
        return NULL;
    }
    if (x->dtype == TSR_BOOL) {
        tsr_error_set(TSR_ERR_RUNTIME, "cov(): bool dtype is not supported for input");
        return NULL;
    }
    pool p = {0};
    const tsr_tensor *in = x;
    if (x->ndim < 2) {
        int64_t sz[2] = {1, -1};
        in = keep(&p, tsr_view_view(x, 2, sz));
        if (!in) goto fail;
    }
    int64_t nobs = in->sizes[1];
    const tsr_tensor *w = NULL;
    if (fw) {
        if (check_weights(&p, fw, "fweights", true, nobs) < 0) goto fail;
        w = fw;
    }
    if (aw) {
        if (check_weights(&p, aw, "aweights", false, nobs) < 0) goto fail;
        w = w ? bin(&p, TSR_BINOP_MUL, w, aw) : aw;
        if (!w) goto fail;
    }
    tsr_tensor *wsum = w ? sum_all(&p, w) : keep(&p, tsr_full(0, NULL, tsr_scalar_int(nobs), TSR_INT64, x->device));
    if (!wsum) goto fail;
    if (w) {
        tsr_operand a = tsr_operand_tensor(wsum), z = tsr_operand_scalar(tsr_scalar_int(0));
        tsr_tensor *ne = keep(&p, tsr_compare(TSR_CMP_NE, &a, &z, NULL));
        bool v = false;
        if (!ne || item_bool(ne, &v) < 0) goto fail;
        if (!v) {
            tsr_error_set(TSR_ERR_RUNTIME, "cov(): weights sum to zero, can't be normalized");
            goto fail;
        }
    }
    tsr_tensor *inw = w ? bin(&p, TSR_BINOP_MUL, in, w) : (tsr_tensor *)in;
    tsr_tensor *s = inw ? sum_dim(&p, inw, 1, false) : NULL;
    tsr_tensor *avg = s ? bin(&p, TSR_BINOP_DIV, s, wsum) : NULL;
    if (!avg) goto fail;
    tsr_tensor *norm;
    if (w && correction != 0 && aw) {
        tsr_tensor *wa = bin(&p, TSR_BINOP_MUL, w, aw);
        tsr_tensor *swa = wa ? sum_all(&p, wa) : NULL;
        tsr_tensor *cs = swa ? s_bin(&p, TSR_BINOP_MUL, tsr_scalar_int(correction), swa) : NULL;
        tsr_tensor *q = cs ? bin(&p, TSR_BINOP_DIV, cs, wsum) : NULL;
        norm = q ? bin(&p, TSR_BINOP_SUB, wsum, q) : NULL;
    } else {
        norm = bin_s(&p, TSR_BINOP_SUB, wsum, tsr_scalar_int(correction));
    }
    if (!norm) goto fail;
    {
        tsr_operand a = tsr_operand_tensor(norm), z = tsr_operand_scalar(tsr_scalar_int(0));
        tsr_tensor *le = keep(&p, tsr_compare(TSR_CMP_LE, &a, &z, NULL));
        bool v = false;
        if (!le || item_bool(le, &v) < 0) goto fail;
        if (v && tsr_zero_(norm) < 0) goto fail;   /* "cov(): degrees of freedom is <= 0" (a warning) */
    }
    tsr_tensor *au = keep(&p, tsr_view_unsqueeze(avg, 1));
    tsr_tensor *c = au ? bin(&p, TSR_BINOP_SUB, in, au) : NULL;
    tsr_tensor *cw = !c ? NULL : w ? bin(&p, TSR_BINOP_MUL, c, w) : c;
    tsr_tensor *ct = cw ? keep(&p, tsr_view_t(cw)) : NULL;
    tsr_tensor *cc = ct ? (tsr_dtype_is_complex(ct->dtype) ? keep(&p, tsr_conj_physical(ct, NULL)) : ct) : NULL;
    tsr_tensor *m = cc ? keep(&p, tsr_mm(c, cc, NULL)) : NULL;
    tsr_tensor *r = m ? bin(&p, TSR_BINOP_DIV, m, norm) : NULL;
    tsr_tensor *sq = r ? keep(&p, tsr_view_squeeze(r)) : NULL;
    if (!sq) goto fail;
    return give(&p, sq);
fail:
    pool_free(&p);
    return NULL;
}

tsr_tensor *tsr_corrcoef(const tsr_tensor *x)
{
    if (x->ndim > 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "corrcoef(): expected input to have two or fewer dimensions but got an input "
                      "with %d dimensions", x->ndim);
        return NULL;
    }
    pool p = {0};
    tsr_tensor *c = keep(&p, tsr_cov(x, 1, NULL, NULL));
    if (!c) goto fail;
    if (c->ndim == 0) return give(&p, bin(&p, TSR_BINOP_DIV, c, c));
    bool cx = tsr_dtype_is_complex(c->dtype);
    tsr_tensor *d = keep(&p, tsr_diag(c, 0, NULL));
    tsr_tensor *dr = d && cx ? keep(&p, tsr_view_real(d)) : d;
    tsr_tensor *sd = dr ? keep(&p, tsr_unary(TSR_UNOP_SQRT, dr, NULL, NULL)) : NULL;
    int64_t col[2] = {-1, 1}, row[2] = {1, -1};
    tsr_tensor *sc = sd ? keep(&p, tsr_view_view(sd, 2, col)) : NULL;
    tsr_tensor *sr = sc ? keep(&p, tsr_view_view(sd, 2, row)) : NULL;
    tsr_tensor *c1 = sr ? bin(&p, TSR_BINOP_DIV, c, sc) : NULL;
    tsr_tensor *c2 = c1 ? bin(&p, TSR_BINOP_DIV, c1, sr) : NULL;
    tsr_operand lo = tsr_operand_scalar(tsr_scalar_int(-1)), hi = tsr_operand_scalar(tsr_scalar_int(1));
    if (!c2) goto fail;
    if (!cx) {
        tsr_tensor *r = keep(&p, tsr_clamp(c2, &lo, &hi, NULL));
        if (!r) goto fail;
        return give(&p, r);
    }
    /* complex: real and imaginary parts clipped apart (at::complex of the two) */
    tsr_tensor *re = keep(&p, tsr_view_real(c2)), *im = re ? keep(&p, tsr_view_imag(c2)) : NULL;
    tsr_tensor *rc = im ? keep(&p, tsr_clamp(re, &lo, &hi, NULL)) : NULL;
    tsr_tensor *ic = rc ? keep(&p, tsr_clamp(im, &lo, &hi, NULL)) : NULL;
    tsr_tensor *r = ic ? keep(&p, tsr_tensor_empty(c2->ndim, c2->sizes, c2->dtype, c2->device)) : NULL;
    tsr_tensor *rr = r ? keep(&p, tsr_view_real(r)) : NULL, *ri = rr ? keep(&p, tsr_view_imag(r)) : NULL;
    if (!ri || tsr_copy_(rr, rc) < 0 || tsr_copy_(ri, ic) < 0) goto fail;
    return give(&p, r);
fail:
    pool_free(&p);
    return NULL;
}

/* ------------------------------------------------------------ quantile */

enum { Q_LINEAR, Q_LOWER, Q_HIGHER, Q_MIDPOINT, Q_NEAREST };

static int interp_mode(const char *s)
{
    static const char *const names[] = {"linear", "lower", "higher", "midpoint", "nearest"};
    for (int i = 0; i < 5; i++)
        if (!strcmp(s, names[i])) return i;
    tsr_error_set(TSR_ERR_RUNTIME, "quantile() interpolation must be one of linear, lower, higher, midpoint or "
                  "nearest, but got %s", s);
    return -1;
}

/* C++'s ostream << double (precision 6, %g) */
static void fmt_double(char *buf, size_t cap, double v) { snprintf(buf, cap, "%g", v); }

tsr_tensor *tsr_quantile(const tsr_tensor *self, const tsr_tensor *q, double qs, const int64_t *dim, bool keepdim,
                         const char *interpolation, bool ignore_nan, tsr_tensor *out)
{
    pool p = {0};
    if (!q) {
        if (!(qs >= 0 && qs <= 1)) {
            char b[64];
            fmt_double(b, sizeof b, qs);
            tsr_error_set(TSR_ERR_RUNTIME, "quantile() q must be in the range [0, 1] but got %s", b);
            return NULL;
        }
        q = keep(&p, tsr_full(0, NULL, tsr_scalar_float(qs), self->dtype, self->device));
        if (!q) return NULL;
    }
    int mode = interp_mode(interpolation);
    if (mode < 0) goto fail;
    if (tsr_tensor_numel(self) == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "quantile() input tensor must be non-empty");
        goto fail;
    }
    if (q->ndim > 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "quantile() q must be a scalar or 1D tensor");
        goto fail;
    }
    if (self->dtype != TSR_FLOAT32 && self->dtype != TSR_FLOAT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "quantile() input tensor must be either float or double dtype");
        goto fail;
    }
    if (self->dtype != q->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "quantile() q tensor must be same dtype as the input tensor");
        goto fail;
    }
    if (!tsr_device_equal(self->device, q->device)) {
        tsr_error_set(TSR_ERR_RUNTIME, "quantile() q tensor must be on the same device as the input tensor");
        goto fail;
    }
    if (out) {
        if (out->dtype != self->dtype) {
            tsr_error_set(TSR_ERR_RUNTIME, "quantile() out tensor must be same dtype as the input tensor");
            goto fail;
        }
        if (!tsr_device_equal(out->device, self->device)) {
            tsr_error_set(TSR_ERR_RUNTIME, "quantile() out tensor must be on the same device as the input tensor");
            goto fail;
        }
    }
    int wd = tsr_wrap_dim(dim ? *dim : 0, self->ndim);
    if (wd < 0) goto fail;
    /* quantile_output_shape: q's size, then the reduced shape */
    int64_t oshape[TSR_MAX_DIMS + 1];
    int on = 0;
    if (q->ndim > 0) oshape[on++] = tsr_tensor_numel(q);
    int red0 = on;
    if (dim && self->ndim > 0) {
        for (int d = 0; d < self->ndim; d++)
            if (d != wd) oshape[on++] = self->sizes[d];
            else if (keepdim) oshape[on++] = 1;
    } else if (keepdim) {
        for (int d = 0; d < self->ndim; d++) oshape[on++] = 1;
    }
    if (out && tsr_tensor_resize_(out, on, oshape) < 0) goto fail;
    if (self->names) {
        /* quantile_compute sorts: self.flatten() without a dim, self.sort() along
         * the last dim, else self.unsqueeze(-1).transpose(dim, -1).sort() */
        tsr_names_refuse(!dim ? "aten::_reshape_alias" : wd == self->ndim - 1 ? "aten::sort" : "aten::unsqueeze");
        goto fail;
    }
    if (!tsr_tensor_is_meta(self)) {
        tsr_operand a = tsr_operand_tensor(q), z = tsr_operand_scalar(tsr_scalar_int(0)),
                    o = tsr_operand_scalar(tsr_scalar_int(1));
        tsr_tensor *ge = keep(&p, tsr_compare(TSR_CMP_GE, &a, &z, NULL));
        tsr_tensor *le = ge ? keep(&p, tsr_compare(TSR_CMP_LE, &a, &o, NULL)) : NULL;
        tsr_operand g = tsr_operand_tensor(ge), l = tsr_operand_tensor(le);
        tsr_tensor *both = le ? keep(&p, tsr_compare(TSR_CMP_LOGICAL_AND, &g, &l, NULL)) : NULL;
        tsr_tensor *all = both ? keep(&p, tsr_all_any(both, NULL, false, true, NULL)) : NULL;
        bool v = false;
        if (!all || item_bool(all, &v) < 0) goto fail;
        if (!v) {
            tsr_error_set(TSR_ERR_RUNTIME, "quantile() q values must be in the range [0, 1]");
            goto fail;
        }
    }
    /* sorted along the last dim: flattened, or dim moved last */
    const tsr_tensor *src;
    if (!dim) src = keep(&p, tsr_view_flatten(self, 0, -1));
    else if (wd == self->ndim - 1) src = self;
    else {
        tsr_tensor *u = keep(&p, tsr_view_unsqueeze(self, -1));
        src = u ? keep(&p, tsr_view_transpose(u, wd, -1)) : NULL;
    }
    if (!src) goto fail;
    tsr_tensor *sorted = NULL, *sidx = NULL;
    if (tsr_sort(src, -1, false, false, NULL, NULL, &sorted, &sidx) < 0) goto fail;
    keep(&p, sorted);
    keep(&p, sidx);
    int64_t in_shape[TSR_MAX_DIMS + 1];
    int inn = 0;
    for (int i = red0; i < on; i++) in_shape[inn++] = oshape[i];
    in_shape[inn++] = sorted->sizes[sorted->ndim - 1];
    sorted = keep(&p, tsr_reshape(sorted, inn, in_shape));
    if (!sorted) goto fail;
    int64_t n = sorted->sizes[sorted->ndim - 1];
    if (n > (1 << 24)) {
        tsr_error_set(TSR_ERR_RUNTIME, "quantile() input tensor is too large");
        goto fail;
    }
    tsr_tensor *isn = keep(&p, tsr_predicate(TSR_PRED_ISNAN, sorted, NULL));
    if (!isn) goto fail;
    tsr_dims last = {.n = 1, .d = {-1}};
    tsr_tensor *ranks;
    if (ignore_nan) {
        tsr_tensor *nn = keep(&p, tsr_predicate(TSR_PRED_LOGICAL_NOT, isn, NULL));
        tsr_tensor *cnt = nn ? keep(&p, tsr_sum(nn, &last, true, TSR_DTYPE_UNDEFINED, NULL)) : NULL;
        tsr_tensor *c1 = cnt ? bin_s(&p, TSR_BINOP_SUB, cnt, tsr_scalar_int(1)) : NULL;
        ranks = c1 ? bin(&p, TSR_BINOP_MUL, q, c1) : NULL;
        tsr_operand a = tsr_operand_tensor(ranks), z = tsr_operand_scalar(tsr_scalar_int(0));
        tsr_tensor *neg = ranks ? keep(&p, tsr_compare(TSR_CMP_LT, &a, &z, NULL)) : NULL;
        if (!neg || tsr_masked_fill_(ranks, neg, &z) < 0) goto fail;
    } else {
        int64_t li = n - 1, one = -1;
        tsr_tensor *qr = bin_s(&p, TSR_BINOP_MUL, q, tsr_scalar_int(li));
        tsr_tensor *any = qr ? keep(&p, tsr_all_any(isn, &one, true, false, NULL)) : NULL;
        if (!any) goto fail;
        /* broadcast_tensors(q * last_index, any) then masked_fill */
        int64_t bs[TSR_MAX_DIMS + 1];
        int bn = any->ndim > qr->ndim ? any->ndim : qr->ndim;
        for (int i = 0; i < bn; i++) {
            int ia = i - (bn - any->ndim), iq = i - (bn - qr->ndim);
            int64_t sa = ia >= 0 ? any->sizes[ia] : 1, sq = iq >= 0 ? qr->sizes[iq] : 1;
            bs[i] = sa == 1 ? sq : sa;
        }
        tsr_tensor *qe = keep(&p, tsr_view_expand(qr, bn, bs)), *ae = qe ? keep(&p, tsr_view_expand(any, bn, bs)) : NULL;
        tsr_operand v = tsr_operand_scalar(tsr_scalar_int(li));
        ranks = ae ? keep(&p, tsr_masked_fill(qe, ae, &v)) : NULL;
    }
    if (!ranks) goto fail;
    if (mode == Q_LOWER || mode == Q_HIGHER || mode == Q_NEAREST) {
        tsr_unop u = mode == Q_LOWER ? TSR_UNOP_FLOOR : mode == Q_HIGHER ? TSR_UNOP_CEIL : TSR_UNOP_ROUND;
        tsr_tensor *t = tsr_unary_(u, ranks, NULL);
        if (!t) goto fail;
        tsr_tensor_release(t);
    }
    tsr_tensor *rb = keep(&p, tsr_to_dtype(ranks, TSR_INT64, false));
    tsr_tensor *vb = rb ? keep(&p, tsr_gather(sorted, -1, rb)) : NULL;
    if (!vb) goto fail;
    if (mode == Q_LINEAR || mode == Q_MIDPOINT) {
        tsr_tensor *w = mode == Q_MIDPOINT
                            ? keep(&p, tsr_full_like(ranks, tsr_scalar_float(0.5), ranks->dtype, ranks->device,
                                                     TSR_MF_PRESERVE))
                            : bin(&p, TSR_BINOP_SUB, ranks, rb);
        tsr_tensor *t = w ? tsr_unary_(TSR_UNOP_CEIL, ranks, NULL) : NULL;
        if (!t) goto fail;
        tsr_tensor_release(t);
        tsr_tensor *ra = keep(&p, tsr_to_dtype(ranks, TSR_INT64, false));
        tsr_tensor *va = ra ? keep(&p, tsr_gather(sorted, -1, ra)) : NULL;
        tsr_operand wo = tsr_operand_tensor(w);
        tsr_tensor *l = va ? tsr_lerp_(vb, va, &wo) : NULL;
        if (!l) goto fail;
        tsr_tensor_release(l);
    }
    tsr_tensor *r;
    if (q->ndim == 0) {
        r = keep(&p, tsr_view_squeeze_dim(vb, -1));
    } else {
        tsr_tensor *u = keep(&p, tsr_view_unsqueeze(vb, 0));
        tsr_tensor *t = u ? keep(&p, tsr_view_transpose(u, 0, -1)) : NULL;
        r = t ? keep(&p, tsr_view_squeeze_dim(t, -1)) : NULL;
    }
    if (!r) goto fail;
    if (out) {
        if (tsr_copy_(out, r) < 0) goto fail;
        pool_free(&p);
        return tsr_tensor_retain(out);
    }
    return give(&p, r);
fail:
    pool_free(&p);
    return NULL;
}

/* ------------------------------------------------------------ bincount */

/* bincount on a device (1.13's _bincount_cuda): the range from the
 * device's min and max, then ones (or the weights, in float for float
 * weights, else double) scatter-added into the bins. */
static tsr_tensor *bincount_device(const tsr_tensor *x, const tsr_tensor *weights, int64_t minlength)
{
    const tsr_tensor *others[1] = {weights};
    if (tsr__dev_same_device(x, 1, others) < 0) return NULL;
    pool p = {0};
    int64_t n = tsr_tensor_numel(x);
    tsr_tensor *lo = NULL, *hi = NULL;
    if (x->ndim == 1 && n) {
        lo = keep(&p, tsr_max_all(x, false));
        hi = lo ? keep(&p, tsr_max_all(x, true)) : NULL;
        if (!hi) goto fail;
    }
    if (x->ndim != 1 || n == 0 || tsr_tensor_get_int64(lo, NULL) < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "bincount only supports 1-d non-negative integral inputs.");
        goto fail;
    }
    if (weights && (weights->ndim != 1 || weights->sizes[0] != x->sizes[0])) {
        tsr_error_set(TSR_ERR_RUNTIME, "weights should be 1-d and have the same length as input");
        goto fail;
    }
    int64_t mx = tsr_tensor_get_int64(hi, NULL), nbins = mx + 1 > minlength ? mx + 1 : minlength;
    tsr_dtype wd = !weights ? TSR_INT64 : weights->dtype == TSR_FLOAT32 ? TSR_FLOAT32 : TSR_FLOAT64;
    tsr_tensor *idx = keep(&p, tsr_to_dtype(x, TSR_INT64, false));
    tsr_tensor *src = !idx ? NULL : weights ? keep(&p, tsr_to_dtype(weights, wd, false)) : keep(&p, tsr_ones(1, &n, wd, x->device));
    tsr_tensor *z = src ? keep(&p, tsr_zeros(1, &nbins, wd, x->device)) : NULL;
    tsr_tensor *r = z ? tsr_scatter(z, 0, idx, src, NULL, TSR_SCATTER_ADD) : NULL;
    pool_free(&p);
    return r;
fail:
    pool_free(&p);
    return NULL;
}

tsr_tensor *tsr_bincount(const tsr_tensor *x, const tsr_tensor *weights, int64_t minlength)
{
    if (tsr_tensor_is_meta(x)) {
        tsr_meta_refused("bincount");
        return NULL;
    }
    if (!tsr_dtype_is_integral(x->dtype, false)) {
        tsr__not_implemented("bincount_cpu", x->dtype);
        return NULL;
    }
    if (minlength < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "minlength should be >= 0");
        return NULL;
    }
    if (x->ndim == 1 && x->sizes[0] == 0) return tsr_zeros(1, &minlength, TSR_INT64, x->device);
    if (scan_on_device(x) || (weights && scan_on_device(weights))) return bincount_device(x, weights, minlength);
    int64_t n = tsr_tensor_numel(x), mx = 0;
    tsr_tensor *c = tsr_contiguous(x, TSR_MF_CONTIGUOUS), *w = NULL, *r = NULL;
    if (!c) return NULL;
    const tsr_dtype_traits *tr = tsr_dtype_traits_of(x->dtype);
    const char *xp = tsr_tensor_ptr(c, NULL);
    bool neg = false;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = tr->load_int64(xp + i * tr->itemsize);
        if (v < 0) neg = true;
        if (v > mx || i == 0) mx = v;
    }
    if (x->ndim != 1 || neg || n == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "bincount only supports 1-d non-negative integral inputs.");
        goto done;
    }
    if (weights && (weights->ndim != 1 || weights->sizes[0] != x->sizes[0])) {
        tsr_error_set(TSR_ERR_RUNTIME, "weights should be 1-d and have the same length as input");
        goto done;
    }
    int64_t nbins = mx + 1 > minlength ? mx + 1 : minlength;
    if (weights) {
        /* float weights accumulate in float; any other dtype in double */
        tsr_dtype wd = weights->dtype == TSR_FLOAT32 ? TSR_FLOAT32 : TSR_FLOAT64;
        w = tsr_to_dtype_format(weights, wd, TSR_MF_CONTIGUOUS);
        r = w ? tsr_zeros(1, &nbins, wd, x->device) : NULL;
        if (!r) goto done;
        if (wd == TSR_FLOAT32) {
            float *o = tsr_tensor_ptr(r, NULL);
            const float *wp = tsr_tensor_ptr(w, NULL);
            for (int64_t i = 0; i < n; i++) o[tr->load_int64(xp + i * tr->itemsize)] += wp[i];
        } else {
            double *o = tsr_tensor_ptr(r, NULL);
            const double *wp = tsr_tensor_ptr(w, NULL);
            for (int64_t i = 0; i < n; i++) o[tr->load_int64(xp + i * tr->itemsize)] += wp[i];
        }
    } else {
        r = tsr_zeros(1, &nbins, TSR_INT64, x->device);
        if (!r) goto done;
        int64_t *o = tsr_tensor_ptr(r, NULL);
        for (int64_t i = 0; i < n; i++) o[tr->load_int64(xp + i * tr->itemsize)] += 1;
    }
done:
    tsr_tensor_release(c);
    tsr_tensor_release(w);
    return r;
}

/* ------------------------------------------------------------ histograms */

enum { H_LINEAR, H_LINEAR_LOCAL, H_BINARY };

/* x - y, x * k and x / y in the input dtype's arithmetic (bfloat16 rounds
 * after each operation, as c10::BFloat16's operators do) */
static double rnd(tsr_dtype dt, double v)
{
    if (dt == TSR_FLOAT32) return (float)v;
    if (dt == TSR_BFLOAT16) return tsr_bfloat16_to_float(tsr_float_to_bfloat16((float)v));
    return v;
}

static int64_t upper_bound(const double *e, int64_t lo, int64_t hi, double v)
{
    while (lo < hi) {
        int64_t m = lo + (hi - lo) / 2;
        if (v < e[m]) hi = m;
        else lo = m + 1;
    }
    return lo;
}

/* HistogramKernel.cpp histogramdd_cpu_contiguous for one dimension: hist
 * (contiguous, zeroed, of x's dtype) += weight per element of x that falls
 * in [edges[0], edges[nb]]. */
static int hist_kernel(const tsr_tensor *x, const tsr_tensor *weight, const tsr_tensor *edges_t, int alg,
                       tsr_tensor *hist)
{
    tsr_dtype dt = x->dtype;
    int64_t n = tsr_tensor_numel(x), ne = tsr_tensor_numel(edges_t);
    tsr_tensor *xc = tsr_to_dtype_format(x, TSR_FLOAT64, TSR_MF_CONTIGUOUS);
    tsr_tensor *ec = xc ? tsr_to_dtype_format(edges_t, TSR_FLOAT64, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *wc = ec && weight ? tsr_to_dtype_format(weight, TSR_FLOAT64, TSR_MF_CONTIGUOUS) : NULL;
    double *acc = ec && (!weight || wc) ? tsr_malloc((size_t)(ne > 1 ? ne - 1 : 1) * sizeof *acc) : NULL;
    int rc = -1;
    if (!acc) goto done;
    const double *xp = tsr_tensor_ptr(xc, NULL), *e = tsr_tensor_ptr(ec, NULL), *wp = wc ? tsr_tensor_ptr(wc, NULL) : NULL;
    int64_t nb = ne - 1;
    for (int64_t i = 0; i < nb; i++) acc[i] = 0;
    double left = e[0], right = e[ne - 1];
    for (int64_t i = 0; i < n; i++) {
        double v = xp[i];
        /* elt < left || elt > right is skipped: a NaN goes on, and lands where
         * 1.13's arithmetic on static_cast<int64_t>(NaN) (INT64_MIN) puts it */
        if (v < left || v > right) continue;
        int64_t pos;
        if (alg == H_BINARY) {
            pos = isnan(v) ? ne - 1 : upper_bound(e, 0, ne, v) - 1;
        } else if (isnan(v)) {
            pos = alg == H_LINEAR ? 0 : 1;   /* hist[INT64_MIN] wraps to hist[0]; the local search ends at 1 */
        } else {
            double t = rnd(dt, v - left);
            t = rnd(dt, t / rnd(dt, right - left));
            t = rnd(dt, t * rnd(dt, (double)(ne - 1)));
            pos = (int64_t)t;
            if (alg == H_LINEAR_LOCAL) {
                int64_t lo = pos - 1 > 0 ? pos - 1 : 0, hi = pos + 2 < ne ? pos + 2 : ne;
                pos = upper_bound(e, lo, hi, v) - 1;
            }
        }
        if (pos == ne - 1) pos--;
        acc[pos] = rnd(dt, acc[pos] + (wp ? wp[i] : 1.0));
        if ((i & 0xfffff) == 0 && tsr_check_interrupt() < 0) goto done;
    }
    rc = 0;
    for (int64_t i = 0; i < nb && rc == 0; i++) rc = tsr_tensor_set_at(hist, i, tsr_scalar_float(acc[i]));
done:
    tsr_free(acc);
    tsr_tensor_release(xc);
    tsr_tensor_release(ec);
    tsr_tensor_release(wc);
    return rc;
}

/* histc on a device (1.13's _histc_cuda, getBin): an element in
 * [left, right] goes to bin (int)((x - left) * bins / (right - left)) in
 * x's arithmetic (float for float32 and bfloat16), the
 * last bin taking right itself; NaN and the rest are skipped; ones are
 * scatter-added into the bins in x's dtype. */
static tsr_tensor *histc_device(const tsr_tensor *x, int64_t bins, double left, double right)
{
    pool p = {0};
    tsr_tensor *ge = keep(&p, tsr_compare(TSR_CMP_GE, &(tsr_operand){.t = x}, &(tsr_operand){.s = tsr_scalar_float(left)}, NULL));
    tsr_tensor *le = ge ? keep(&p, tsr_compare(TSR_CMP_LE, &(tsr_operand){.t = x}, &(tsr_operand){.s = tsr_scalar_float(right)}, NULL)) : NULL;
    tsr_tensor *in = le ? keep(&p, tsr_compare(TSR_CMP_LOGICAL_AND, &(tsr_operand){.t = ge}, &(tsr_operand){.t = le}, NULL)) : NULL;
    tsr_tensor *sel = in ? keep(&p, tsr_masked_select(x, in)) : NULL;
    tsr_tensor *d = sel ? bin_s(&p, TSR_BINOP_SUB, sel, tsr_scalar_float(left)) : NULL;
    tsr_tensor *m = d ? bin_s(&p, TSR_BINOP_MUL, d, tsr_scalar_int(bins)) : NULL;
    /* maxvalue - minvalue in the input's (acc) type, as getBin has them */
    double span = x->dtype == TSR_FLOAT64 ? right - left : (double)((float)right - (float)left);
    tsr_tensor *q = m ? bin_s(&p, TSR_BINOP_DIV, m, tsr_scalar_float(span)) : NULL;
    tsr_tensor *b = q ? keep(&p, tsr_to_dtype(q, TSR_INT64, false)) : NULL;
    tsr_operand top = tsr_operand_scalar(tsr_scalar_int(bins - 1));
    tsr_tensor *bc = b ? keep(&p, tsr_clamp(b, NULL, &top, NULL)) : NULL;
    int64_t k = bc ? tsr_tensor_numel(bc) : 0;
    tsr_tensor *ones = bc ? keep(&p, tsr_ones(1, &k, x->dtype, x->device)) : NULL;
    tsr_tensor *z = ones ? keep(&p, tsr_zeros(1, &bins, x->dtype, x->device)) : NULL;
    tsr_tensor *r = z ? tsr_scatter(z, 0, bc, ones, NULL, TSR_SCATTER_ADD) : NULL;
    pool_free(&p);
    return r;
}

tsr_tensor *tsr_histc(const tsr_tensor *x, int64_t bins, double min, double max, tsr_tensor *out)
{
    if (tsr_tensor_is_meta(x)) {
        tsr_meta_refused("histc");
        return NULL;
    }
    if (out && out->dtype != x->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.histogram: input tensor and hist tensor should have the same dtype, but "
                      "got input %s and hist %s", tsr_dtype_typemeta_name(x->dtype), tsr_dtype_typemeta_name(out->dtype));
        return NULL;
    }
    if (bins <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.histogram(): bins must be > 0, but got %" PRId64 " for dimension 0", bins);
        return NULL;
    }
    double left = min, right = max;
    bool from_data = false;
    if (left == right && tsr_tensor_numel(x) > 0) {
        from_data = true;
        if (tsr_dtype_is_complex(x->dtype) || x->dtype == TSR_FLOAT16) {
            tsr__not_implemented("aminmax_cpu", x->dtype);
            return NULL;
        }
        tsr_tensor *lo = tsr_max_all(x, false), *hi = lo ? tsr_max_all(x, true) : NULL;
        int rc = hi ? item_double(lo, &left) : -1;
        if (rc == 0) rc = item_double(hi, &right);
        tsr_tensor_release(lo);
        tsr_tensor_release(hi);
        if (rc < 0) return NULL;
    }
    if (left == right) left -= 1, right += 1;
    if (isinf(left) || isinf(right) || isnan(left) || isnan(right)) {
        char a[64], b[64];
        fmt_double(a, sizeof a, left);
        fmt_double(b, sizeof b, right);
        /* a NaN that aminmax found prints as -nan (its sign bit is set by then) */
        tsr_error_set(TSR_ERR_RUNTIME, "torch.histc: range of [%s%s, %s%s] is not finite",
                      from_data && isnan(left) ? "-" : "", a, from_data && isnan(right) ? "-" : "", b);
        return NULL;
    }
    if (!(left < right)) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.histc: max must be larger than min");
        return NULL;
    }
    if (x->dtype == TSR_BOOL) {
        tsr__not_implemented("linspace_cpu", x->dtype);
        return NULL;
    }
    tsr_tensor *edges = tsr_linspace(tsr_scalar_float(left), tsr_scalar_float(right), bins + 1, x->dtype, x->device);
    if (edges && x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64 && x->dtype != TSR_BFLOAT16) {
        tsr__not_implemented("histogram_cpu", x->dtype);
        tsr_tensor_release(edges);
        return NULL;
    }
    if (edges && scan_on_device(x)) {
        tsr_tensor_release(edges);
        return tsr_out_assign(histc_device(x, bins, left, right), out, false);
    }
    tsr_tensor *h = edges ? tsr_zeros(1, &bins, x->dtype, x->device) : NULL;
    if (!h || hist_kernel(x, NULL, edges, H_LINEAR, h) < 0) {
        tsr_tensor_release(edges);
        tsr_tensor_release(h);
        return NULL;
    }
    tsr_tensor_release(edges);
    return tsr_out_assign(h, out, false);
}

/* histogramdd's weight checks (input of n points of D coordinates): 0 or -1 */
static int hdd_weight_check(const tsr_tensor *x, const tsr_tensor *weight, int64_t n, int D)
{
    if (weight->dtype != x->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.histogramdd: if weight tensor is provided, input tensor and weight "
                      "tensor should have the same dtype, but got input(%s), and weight(%s)",
                      tsr_dtype_typemeta_name(x->dtype), tsr_dtype_typemeta_name(weight->dtype));
        return -1;
    }
    if (tsr_tensor_numel(weight) != n) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.histogramdd: if weight tensor is provided it should have the same "
                      "shape as the input tensor excluding its innermost dimension, but got input with shape "
                      "[%" PRId64 ", %d] and weight with shape [%" PRId64 "]", n, D, tsr_tensor_numel(weight));
        return -1;
    }
    return 0;
}


int tsr_histogram(const tsr_tensor *x, const tsr_tensor *bins_t, int64_t bins_n, const double *range,
                  const tsr_tensor *weight, bool density, tsr_tensor *hist_out, tsr_tensor *edges_out,
                  tsr_tensor **hist, tsr_tensor **edges)
{
    pool p = {0};
    *hist = *edges = NULL;
    if (tsr_tensor_is_meta(x)) return tsr_meta_refused(bins_t ? "histogram.bins_tensor" : "histogram.bin_ct");
    int64_t n = tsr_tensor_numel(x);
    tsr_tensor *e;
    if (hist_out && hist_out->dtype != x->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.histogram: input tensor and hist tensor should have the same dtype, but "
                      "got input %s and hist %s", tsr_dtype_typemeta_name(x->dtype),
                      tsr_dtype_typemeta_name(hist_out->dtype));
        goto fail;
    }
    if (bins_t) {
        e = (tsr_tensor *)bins_t;
        if (edges_out) {
            if (tsr_tensor_resize_(edges_out, bins_t->ndim, bins_t->sizes) < 0 || tsr_copy_(edges_out, bins_t) < 0) goto fail;
        }
    } else {
        if (edges_out && edges_out->dtype != x->dtype) {
            tsr_error_set(TSR_ERR_RUNTIME, "torch.histogram: input tensor and bin_edges tensor should have the same "
                          "dtype, but got input %s and bin_edges %s for dimension 0", tsr_dtype_typemeta_name(x->dtype),
                          tsr_dtype_typemeta_name(edges_out->dtype));
            goto fail;
        }
        if (bins_n <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "torch.histogram(): bins must be > 0, but got %" PRId64 " for dimension 0",
                          bins_n);
            goto fail;
        }
        double left = 0, right = 1;
        if (range) {
            left = range[0];
            right = range[1];
        } else if (n > 0) {
            if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64) {
                tsr__not_implemented("histogramdd", x->dtype);
                goto fail;
            }
            tsr_tensor *lo = keep(&p, tsr_max_all(x, false)), *hi = lo ? keep(&p, tsr_max_all(x, true)) : NULL;
            if (!hi || item_double(lo, &left) < 0 || item_double(hi, &right) < 0) goto fail;
        }
        if (!isfinite(left) || !isfinite(right)) {
            char a[64], b[64];
            fmt_double(a, sizeof a, left);
            fmt_double(b, sizeof b, right);
            tsr_error_set(TSR_ERR_RUNTIME, "torch.histogramdd: dimension 0's range [%s, %s] is not finite", a, b);
            goto fail;
        }
        if (!(left <= right)) {
            char a[64], b[64];
            fmt_double(a, sizeof a, left);
            fmt_double(b, sizeof b, right);
            tsr_error_set(TSR_ERR_RUNTIME, "torch.histogramdd: min should not exceed max, but got min %s max %s for "
                          "dimension 0", a, b);
            goto fail;
        }
        if (left == right) left -= 0.5, right += 0.5;
        e = keep(&p, tsr_linspace(tsr_scalar_float(left), tsr_scalar_float(right), bins_n + 1, x->dtype, x->device));
        if (!e) goto fail;
        if (edges_out) {
            if (tsr_tensor_resize_(edges_out, 1, e->sizes) < 0 || tsr_copy_(edges_out, e) < 0) goto fail;
        }
    }
    /* histogramdd_check_inputs */
    if (x->dtype != e->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.histogramdd: input tensor and bins tensors should have the same dtype, "
                      "but got input with dtype %s and bins for dimension 0 with dtype %s",
                      tsr_dtype_typemeta_name(x->dtype), tsr_dtype_typemeta_name(e->dtype));
        goto fail;
    }
    if (e->ndim != 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.histogramdd: bins tensor should have one dimension, but got %d dimensions "
                      "in the bins tensor for dimension 0", e->ndim);
        goto fail;
    }
    if (tsr_tensor_numel(e) == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.histogramdd: bins tensor should have at least 1 element, but got 0 "
                      "elements in the bins tensor for dimension 0");
        goto fail;
    }
    if (weight) {
        if (hdd_weight_check(x, weight, n, 1) < 0) goto fail;
    }
    int64_t nb = tsr_tensor_numel(e) - 1;
    if (nb <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.histogram(): bins must be > 0, but got %" PRId64 " for dimension 0", nb);
        goto fail;
    }
    if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64) {
        tsr__not_implemented("histogram_cpu", x->dtype);
        goto fail;
    }
    tsr_tensor *h = keep(&p, tsr_zeros(1, &nb, x->dtype, x->device));
    if (!h || hist_kernel(x, weight, e, bins_t ? H_BINARY : H_LINEAR_LOCAL, h) < 0) goto fail;
    if (density) {
        tsr_tensor *s = sum_all(&p, h);
        tsr_tensor *t = s ? tsr_binary_(TSR_BINOP_DIV, h, &(tsr_operand){.t = s}, NULL) : NULL;
        if (!t) goto fail;
        tsr_tensor_release(t);
        tsr_tensor *el = keep(&p, tsr_view_slice(e, 0, 0, nb, 1)), *er = el ? keep(&p, tsr_view_slice(e, 0, 1, nb + 1, 1)) : NULL;
        tsr_tensor *len = er ? bin(&p, TSR_BINOP_SUB, er, el) : NULL;
        t = len ? tsr_binary_(TSR_BINOP_DIV, h, &(tsr_operand){.t = len}, NULL) : NULL;
        if (!t) goto fail;
        tsr_tensor_release(t);
    }
    if (hist_out) {
        if (tsr_tensor_resize_(hist_out, 1, &nb) < 0 || tsr_copy_(hist_out, h) < 0) goto fail;
        *hist = tsr_tensor_retain(hist_out);
    } else {
        *hist = tsr_tensor_retain(h);
    }
    *edges = tsr_tensor_retain(edges_out ? edges_out : e);
    pool_free(&p);
    return 0;
fail:
    pool_free(&p);
    return -1;
}

/* ------------------------------------------------------------ gradient */

/* self.slice(d, start, end) with Python's negative indices (end INT64_MAX: to the end) */
static tsr_tensor *sl(pool *p, const tsr_tensor *x, int d, int64_t start, int64_t end)
{
    int64_t n = x->sizes[d];
    if (start < 0) start += n;
    if (end < 0) end += n;
    if (end > n) end = n;
    return keep(p, tsr_view_slice(x, d, start, end, 1));
}

static tsr_tensor *neg(pool *p, const tsr_tensor *x) { return x ? keep(p, tsr_unary(TSR_UNOP_NEG, x, NULL, NULL)) : NULL; }

#define B(op, a, b) ((a) && (b) ? bin(p, op, a, b) : NULL)
#define BS(op, a, s) ((a) ? bin_s(p, op, a, s) : NULL)
#define SB(op, s, b) ((b) ? s_bin(p, op, s, b) : NULL)

/* gradient_helper_float: central differences with a constant spacing */
static tsr_tensor *grad_float(pool *p, const tsr_tensor *x, int d, tsr_scalar h, int64_t edge)
{
    tsr_tensor *center = BS(TSR_BINOP_DIV, B(TSR_BINOP_SUB, sl(p, x, d, 2, INT64_MAX), sl(p, x, d, 0, -2)), h);
    tsr_tensor *pre, *app;
    if (edge == 1) {
        pre = BS(TSR_BINOP_DIV, B(TSR_BINOP_SUB, sl(p, x, d, 1, 2), sl(p, x, d, 0, 1)), h);
        app = BS(TSR_BINOP_DIV, B(TSR_BINOP_SUB, sl(p, x, d, -1, INT64_MAX), sl(p, x, d, -2, -1)), h);
    } else {
        tsr_tensor *a = SB(TSR_BINOP_MUL, tsr_scalar_float(-1.5), sl(p, x, d, 0, 1));
        tsr_tensor *b = SB(TSR_BINOP_MUL, tsr_scalar_int(2), sl(p, x, d, 1, 2));
        tsr_tensor *c = SB(TSR_BINOP_MUL, tsr_scalar_float(0.5), sl(p, x, d, 2, 3));
        pre = BS(TSR_BINOP_DIV, B(TSR_BINOP_SUB, B(TSR_BINOP_ADD, a, b), c), h);
        a = SB(TSR_BINOP_MUL, tsr_scalar_float(0.5), sl(p, x, d, -3, -2));
        b = SB(TSR_BINOP_MUL, tsr_scalar_int(2), sl(p, x, d, -2, -1));
        c = SB(TSR_BINOP_MUL, tsr_scalar_float(1.5), sl(p, x, d, -1, INT64_MAX));
        app = BS(TSR_BINOP_DIV, B(TSR_BINOP_ADD, B(TSR_BINOP_SUB, a, b), c), h);
    }
    tsr_tensor *half = BS(TSR_BINOP_DIV, center, tsr_scalar_int(2));
    if (!half || !pre || !app) return NULL;
    const tsr_tensor *parts[3] = {pre, half, app};
    return keep(p, tsr_cat(3, parts, d, NULL));
}

/* gradient_helper: sample coordinates along dim d */
static tsr_tensor *grad_coords(pool *p, const tsr_tensor *x, int d, const tsr_tensor *co, int64_t edge)
{
    if (co->ndim != 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.gradient expected each element of spacing to have one dimension, but got "
                      "an element with %d dimensions!", co->ndim);
        return NULL;
    }
    int64_t shape[TSR_MAX_DIMS];
    for (int i = 0; i < x->ndim; i++) shape[i] = i == d ? -1 : 1;
    tsr_tensor *dx = keep(p, tsr_diff(co, 1, 0, NULL, NULL, NULL));
    if (!dx) return NULL;
    int64_t m = dx->sizes[0];
    tsr_tensor *dx1 = sl(p, dx, 0, 0, -1), *dx2 = sl(p, dx, 0, 1, INT64_MAX);
    tsr_tensor *s12 = B(TSR_BINOP_ADD, dx1, dx2);
    tsr_tensor *a = B(TSR_BINOP_DIV, neg(p, dx2), B(TSR_BINOP_MUL, dx1, s12));
    tsr_tensor *b = B(TSR_BINOP_DIV, B(TSR_BINOP_SUB, dx2, dx1), B(TSR_BINOP_MUL, dx1, dx2));
    tsr_tensor *c = B(TSR_BINOP_DIV, dx1, B(TSR_BINOP_MUL, dx2, s12));
    a = a ? keep(p, tsr_reshape(a, x->ndim, shape)) : NULL;
    b = b ? keep(p, tsr_reshape(b, x->ndim, shape)) : NULL;
    c = c ? keep(p, tsr_reshape(c, x->ndim, shape)) : NULL;
    tsr_tensor *center = B(TSR_BINOP_ADD, B(TSR_BINOP_ADD, B(TSR_BINOP_MUL, a, sl(p, x, d, 0, -2)),
                                            B(TSR_BINOP_MUL, b, sl(p, x, d, 1, -1))),
                           B(TSR_BINOP_MUL, c, sl(p, x, d, 2, INT64_MAX)));
    tsr_tensor *d0 = keep(p, tsr_view_select(dx, 0, 0)), *dl = keep(p, tsr_view_select(dx, 0, m - 1));
    tsr_tensor *pre, *app;
    if (edge == 1) {
        pre = B(TSR_BINOP_DIV, B(TSR_BINOP_SUB, sl(p, x, d, 1, 2), sl(p, x, d, 0, 1)), d0);
        app = B(TSR_BINOP_DIV, B(TSR_BINOP_SUB, sl(p, x, d, -1, INT64_MAX), sl(p, x, d, -2, -1)), dl);
    } else {
        tsr_tensor *d1 = m > 1 ? keep(p, tsr_view_select(dx, 0, 1)) : NULL;
        tsr_tensor *dm = m > 1 ? keep(p, tsr_view_select(dx, 0, m - 2)) : NULL;
        tsr_tensor *s01 = B(TSR_BINOP_ADD, d0, d1);
        /* C++'s -(2.0 * dx0 + dx1) / (...) negates before dividing */
        a = B(TSR_BINOP_DIV, neg(p, B(TSR_BINOP_ADD, SB(TSR_BINOP_MUL, tsr_scalar_float(2.0), d0), d1)),
              B(TSR_BINOP_MUL, d0, s01));
        b = B(TSR_BINOP_DIV, s01, B(TSR_BINOP_MUL, d0, d1));
        c = B(TSR_BINOP_DIV, neg(p, d0), B(TSR_BINOP_MUL, d1, s01));
        pre = B(TSR_BINOP_ADD, B(TSR_BINOP_ADD, B(TSR_BINOP_MUL, a, sl(p, x, d, 0, 1)), B(TSR_BINOP_MUL, b, sl(p, x, d, 1, 2))),
                B(TSR_BINOP_MUL, c, sl(p, x, d, 2, 3)));
        tsr_tensor *sl2 = B(TSR_BINOP_ADD, dl, dm);
        a = B(TSR_BINOP_DIV, dl, B(TSR_BINOP_MUL, dm, sl2));
        b = B(TSR_BINOP_DIV, neg(p, sl2), B(TSR_BINOP_MUL, dl, dm));
        c = B(TSR_BINOP_DIV, B(TSR_BINOP_ADD, SB(TSR_BINOP_MUL, tsr_scalar_int(2), dl), dm), B(TSR_BINOP_MUL, dl, sl2));
        app = B(TSR_BINOP_ADD, B(TSR_BINOP_ADD, B(TSR_BINOP_MUL, a, sl(p, x, d, -3, -2)), B(TSR_BINOP_MUL, b, sl(p, x, d, -2, -1))),
                B(TSR_BINOP_MUL, c, sl(p, x, d, -1, INT64_MAX)));
    }
    if (!center || !pre || !app) return NULL;
    const tsr_tensor *parts[3] = {pre, center, app};
    return keep(p, tsr_cat(3, parts, d, NULL));
}

int tsr_gradient(const tsr_tensor *x, int nsp, const tsr_scalar *spacing, const tsr_tensor *const *coords,
                 const int64_t *dims, int ndims, bool dim_given, int64_t edge_order, tsr_tensor **res, int *nres)
{
    pool p = {0};
    int64_t dl[TSR_MAX_DIMS];
    int nd = dims ? ndims : x->ndim;
    *nres = 0;
    if (x->dtype == TSR_UINT8) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.gradient does not support uint8 input.");
        return -1;
    }
    if (nsp >= 0 && !dim_given && nsp != 1 && nsp != x->ndim) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.gradient expected spacing to be unspecified, a scalar or a list of length "
                      "%d but got a list of length %d", x->ndim, nsp);
        return -1;
    }
    if (nsp >= 0 && dim_given && nsp != nd) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.gradient expected spacing to be unspecified, a scalar or it's spacing and "
                      "dim arguments to have the same length, but got a spacing argument of length %d and a dim "
                      "argument of length %d.", nsp, nd);
        return -1;
    }
    if (edge_order != 1 && edge_order != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.gradient only supports edge_order=1 and edge_order=2.");
        return -1;
    }
    bool seen[TSR_MAX_DIMS] = {0};
    for (int i = 0; i < nd; i++) {
        int d = dims ? tsr_wrap_dim(dims[i], x->ndim) : i;
        if (d < 0) return -1;
        if (dims && seen[d]) {
            tsr_error_set(TSR_ERR_RUNTIME, "dim %d appears multiple times in the list of dims", d);
            return -1;
        }
        seen[d] = true;
        dl[i] = d;
    }
    for (int i = 0; i < nd; i++)
        if (x->ndim == 0 || x->sizes[dl[i]] < edge_order + 1) {
            tsr_error_set(TSR_ERR_RUNTIME, "torch.gradient expected each dimension size to be at least edge_order+1");
            return -1;
        }
    for (int i = 0; i < nd; i++) {
        tsr_scalar h = spacing ? spacing[nsp == 1 ? 0 : i] : tsr_scalar_float(1.0);
        tsr_tensor *r = coords ? grad_coords(&p, x, (int)dl[i], coords[i < nsp ? i : 0], edge_order)
                               : grad_float(&p, x, (int)dl[i], h, edge_order);
        if (!r) goto fail;
        res[i] = tsr_tensor_retain(r);
        *nres = i + 1;
    }
    pool_free(&p);
    return 0;
fail:
    for (int i = 0; i < *nres; i++) tsr_tensor_release(res[i]);
    *nres = 0;
    pool_free(&p);
    return -1;
}

/* ------------------------------------------------------------ histogramdd */

int tsr_histogramdd(const tsr_tensor *x, int nbins, const tsr_tensor *const *bins_t, const int64_t *bins_n,
                    const double *range, int nrange, const tsr_tensor *weight, bool density, tsr_tensor **hist,
                    tsr_tensor **edges, int *ndims)
{
    pool p = {0};
    tsr_tensor *e[TSR_MAX_DIMS] = {0};
    double *acc = NULL, *cols = NULL, *wv = NULL, *ev[TSR_MAX_DIMS] = {0};
    int64_t ne[TSR_MAX_DIMS];
    *hist = NULL;
    if (x->ndim < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.histogramdd: input tensor should have at least 2 dimensions");
        return -1;
    }
    int D = (int)x->sizes[x->ndim - 1];
    int64_t n = D ? tsr_tensor_numel(x) / D : 0;
    *ndims = D;
    if (D > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: histogramdd of more than %d dimensions", TSR_MAX_DIMS);
        return -1;
    }
    if (bins_t && nbins != D) {   /* bin counts: 1.13 reads the first D (past the list's end: taken as 0 here) */
        tsr_error_set(TSR_ERR_RUNTIME, "torch.histogramdd: expected %d sequences of bin edges for a %d-dimensional "
                      "histogram but got %d", D, D, nbins);
        return -1;
    }
    if (range && nrange != 2 * D) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.histogramdd: for a %d-dimensional histogram range should have %d "
                      "elements, but got %d", D, 2 * D, nrange);
        return -1;
    }
    int64_t xs[2] = {n, D};
    tsr_tensor *x2 = keep(&p, tsr_reshape(x, 2, xs));
    if (!x2) goto fail;
    for (int d = 0; d < D; d++) {
        if (bins_t) {
            e[d] = (tsr_tensor *)bins_t[d];
            continue;
        }
        int64_t cnt = d < nbins ? bins_n[d] : 0;
        if (cnt <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "torch.histogram(): bins must be > 0, but got %" PRId64
                          " for dimension %d", cnt, d);
            goto fail;
        }
        double left = 0, right = 1;
        if (range) {
            left = range[2 * d];
            right = range[2 * d + 1];
        } else if (n > 0) {
            if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64) {
                tsr__not_implemented("histogramdd", x->dtype);
                goto fail;
            }
            tsr_tensor *col = keep(&p, tsr_view_select(x2, 1, d));
            tsr_tensor *lo = col ? keep(&p, tsr_max_all(col, false)) : NULL;
            tsr_tensor *hi = lo ? keep(&p, tsr_max_all(col, true)) : NULL;
            if (!hi || item_double(lo, &left) < 0 || item_double(hi, &right) < 0) goto fail;
        }
        if (!isfinite(left) || !isfinite(right)) {
            char a[64], b[64];
            fmt_double(a, sizeof a, left);
            fmt_double(b, sizeof b, right);
            tsr_error_set(TSR_ERR_RUNTIME, "torch.histogramdd: dimension %d's range [%s, %s] is not finite", d, a, b);
            goto fail;
        }
        if (!(left <= right)) {
            char a[64], b[64];
            fmt_double(a, sizeof a, left);
            fmt_double(b, sizeof b, right);
            tsr_error_set(TSR_ERR_RUNTIME, "torch.histogramdd: min should not exceed max, but got min %s max %s for "
                          "dimension %d", a, b, d);
            goto fail;
        }
        if (left == right) left -= 0.5, right += 0.5;
        if (!(e[d] = keep(&p, tsr_linspace(tsr_scalar_float(left), tsr_scalar_float(right), bins_n[d] + 1, x->dtype,
                                          x->device))))
            goto fail;
    }
    for (int d = 0; d < D; d++) {   /* histogramdd_check_inputs */
        if (x->dtype != e[d]->dtype) {
            tsr_error_set(TSR_ERR_RUNTIME, "torch.histogramdd: input tensor and bins tensors should have the same "
                          "dtype, but got input with dtype %s and bins for dimension %d with dtype %s",
                          tsr_dtype_typemeta_name(x->dtype), d, tsr_dtype_typemeta_name(e[d]->dtype));
            goto fail;
        }
        if (e[d]->ndim != 1) {
            tsr_error_set(TSR_ERR_RUNTIME, "torch.histogramdd: bins tensor should have one dimension, but got %d "
                          "dimensions in the bins tensor for dimension %d", e[d]->ndim, d);
            goto fail;
        }
        if ((ne[d] = tsr_tensor_numel(e[d])) == 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "torch.histogramdd: bins tensor should have at least 1 element, but got 0 "
                          "elements in the bins tensor for dimension %d", d);
            goto fail;
        }
    }
    if (weight) {
        if (hdd_weight_check(x, weight, n, D) < 0) goto fail;
    }
    if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64) {
        tsr__not_implemented("histogramdd_cpu", x->dtype);
        goto fail;
    }
    int64_t hs[TSR_MAX_DIMS], stride[TSR_MAX_DIMS], total = 1;
    for (int d = D - 1; d >= 0; d--) {
        hs[d] = ne[d] - 1;
        stride[d] = total;
        total *= hs[d] > 0 ? hs[d] : 0;
    }
    tsr_dtype dt = x->dtype;
    tsr_tensor *xc = keep(&p, tsr_to_dtype_format(x2, TSR_FLOAT64, TSR_MF_CONTIGUOUS));
    tsr_tensor *wc = weight && xc ? keep(&p, tsr_to_dtype_format(weight, TSR_FLOAT64, TSR_MF_CONTIGUOUS)) : NULL;
    if (!xc || (weight && !wc)) goto fail;
    for (int d = 0; d < D; d++) {
        tsr_tensor *ec = keep(&p, tsr_to_dtype_format(e[d], TSR_FLOAT64, TSR_MF_CONTIGUOUS));
        if (!ec) goto fail;
        ev[d] = tsr_tensor_ptr(ec, NULL);
    }
    cols = tsr_tensor_ptr(xc, NULL);
    wv = wc ? tsr_tensor_ptr(wc, NULL) : NULL;
    if (!(acc = tsr_malloc((size_t)(total > 0 ? total : 1) * sizeof *acc))) goto fail;
    for (int64_t i = 0; i < total; i++) acc[i] = 0;
    int alg = bins_t ? H_BINARY : H_LINEAR_LOCAL;
    for (int64_t i = 0; i < n && total > 0; i++) {   /* HistogramKernel.cpp histogramdd_cpu_contiguous */
        int64_t at = 0;
        bool skip = false;
        for (int d = 0; d < D && !skip; d++) {
            double v = cols[i * D + d], left = ev[d][0], right = ev[d][ne[d] - 1];
            if (v < left || v > right) { skip = true; break; }
            int64_t pos;
            if (alg == H_BINARY) {
                pos = isnan(v) ? ne[d] - 1 : upper_bound(ev[d], 0, ne[d], v) - 1;
            } else if (isnan(v)) {
                pos = 1;
            } else {
                double t = rnd(dt, v - left);   /* as hist_kernel's */
                t = rnd(dt, t / rnd(dt, right - left));
                t = rnd(dt, t * rnd(dt, (double)(ne[d] - 1)));
                pos = (int64_t)t;
                int64_t lo = pos - 1 > 0 ? pos - 1 : 0, hi = pos + 2 < ne[d] ? pos + 2 : ne[d];
                pos = upper_bound(ev[d], lo, hi, v) - 1;
            }
            if (pos == ne[d] - 1) pos--;
            at += stride[d] * pos;
        }
        if (skip) continue;
        acc[at] = rnd(dt, acc[at] + (wv ? wv[i] : 1.0));
    }
    tsr_tensor *h = keep(&p, tsr_zeros(D, hs, dt, x->device));
    if (!h) goto fail;
    for (int64_t i = 0; i < total; i++)
        if (tsr_tensor_set_at(h, i, tsr_scalar_float(acc[i])) < 0) goto fail;
    if (density) {   /* hist / hist.sum(), then / each dim's bin lengths */
        tsr_tensor *s = sum_all(&p, h);
        tsr_tensor *t = s ? tsr_binary_(TSR_BINOP_DIV, h, &(tsr_operand){.t = s}, NULL) : NULL;
        if (!t) goto fail;
        tsr_tensor_release(t);
        for (int d = 0; d < D; d++) {
            int64_t nb = ne[d] - 1, vs[TSR_MAX_DIMS];
            tsr_tensor *el = keep(&p, tsr_view_slice(e[d], 0, 0, nb, 1));
            tsr_tensor *er = el ? keep(&p, tsr_view_slice(e[d], 0, 1, nb + 1, 1)) : NULL;
            tsr_tensor *len = er ? bin(&p, TSR_BINOP_SUB, er, el) : NULL;
            for (int k = 0; k < D; k++) vs[k] = k == d ? nb : 1;
            tsr_tensor *lv = len ? keep(&p, tsr_reshape(len, D, vs)) : NULL;
            t = lv ? tsr_binary_(TSR_BINOP_DIV, h, &(tsr_operand){.t = lv}, NULL) : NULL;
            if (!t) goto fail;
            tsr_tensor_release(t);
        }
    }
    *hist = tsr_tensor_retain(h);
    for (int d = 0; d < D; d++) edges[d] = tsr_tensor_retain(e[d]);
    tsr_free(acc);
    pool_free(&p);
    return 0;
fail:
    tsr_free(acc);
    pool_free(&p);
    return -1;
}
