/* runtime/autograd_create.c — create_graph=True (higher-order gradients):
 * the operations a backward formula and the engine are built of, each
 * recorded as the forward op would be while the engine runs with
 * create_graph, so that a gradient carries 1.13's graph (MulBackward0,
 * ExpandBackward0, ...) and can be differentiated again.
 *
 * How it fits together:
 *  - the engine (autograd.c) sets the creating flag and grad mode on for
 *    the run; saved tensors then unpack as 1.13's SavedVariable does (a
 *    saved input is the input itself with its graph, a saved output an
 *    alias whose grad_fn is the node that saved it);
 *  - every helper a formula computes with (bin, bins, un, expand, sum,
 *    mm, ...) calls the wrappers below, which record the op they ran;
 *  - only the formulas named in dbl_ok[] are built purely of such helpers
 *    in 1.13's order of operations; the engine refuses to run any other
 *    formula whose result would need a graph (NotImplementedError naming
 *    the node) rather than return a gradient cut off from its graph.
 * Outside create_graph the wrappers are the plain ops. */
#include <stdlib.h>
#include <string.h>
#include "autograd_formula.h"
#include "autograd.h"
#include "error.h"
#include "ops/blas.h"
#include "ops/compare.h"
#include "ops/copy.h"
#include "ops/distance.h"
#include "ops/linalg.h"
#include "ops/rearrange.h"
#include "ops/binary.h"
#include "ops/factory.h"
#include "ops/reduce.h"
#include "ops/search.h"
#include "ops/shape.h"
#include "ops/unary.h"
#include "view.h"

/* Records key over in[0..n) onto out (stolen; NULL passes through) when
 * the engine is creating a graph. NEW reference or NULL. */
static tsr_tensor *rec(tsr_tensor *out, const char *key, int n, const tsr_tensor *const *in, const tsr_ag_args *a)
{
    if (!out || !tsr__ag_creating()) return out;
    tsr_ag_args d = {0};
    d.ndims = -1;
    if (tsr_ag_record(key, n, (tsr_tensor *const *)in, a ? a : &d, out, false) < 0) {
        tsr_tensor_release(out);
        return NULL;
    }
    return out;
}

static const char *binop_key(tsr_binop op)
{
    switch (op) {
    case TSR_BINOP_ADD: return "add";
    case TSR_BINOP_SUB: return "sub";
    case TSR_BINOP_MUL: return "mul";
    case TSR_BINOP_DIV: return "div";
    case TSR_BINOP_DIV_TRUNC: case TSR_BINOP_DIV_FLOOR: return "div_rounding";   /* DivBackward2 */
    case TSR_BINOP_POW: return "pow_t";
    default: return NULL;
    }
}

static tsr_tensor *refuse(const char *what)
{
    tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "create_graph=True: recording %s in a backward formula is not implemented.",
                  what);
    return NULL;
}

static bool differentiable(const tsr_tensor *t) { return tsr_dtype_is_floating(t->dtype) || tsr_dtype_is_complex(t->dtype); }

tsr_tensor *tsr__ag_binary(tsr_binop op, const tsr_tensor *a, const tsr_tensor *b)
{
    const char *key = binop_key(op);
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    tsr_tensor *out = tsr_binary(op, &x, &y, NULL, NULL);
    if (!out || !tsr__ag_creating() || !differentiable(out)) return out;   /* masks: nothing to record */
    if (!key) {
        tsr_tensor_release(out);
        return refuse("a binary op");
    }
    const tsr_tensor *in[2] = {a, b};
    return rec(out, key, 2, in, NULL);
}

/* a.mul_(b) / a.div_(b) in a 1.13 formula: a op b whose node saves
 * a.clone() when b requires grad (tsr__ag_record_inplace_of) */
tsr_tensor *tsr__ag_binary_(tsr_binop op, const tsr_tensor *a, const tsr_tensor *b)
{
    const char *key = binop_key(op);
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    tsr_tensor *out = tsr_binary(op, &x, &y, NULL, NULL);
    if (!out || !tsr__ag_creating() || !differentiable(out)) return out;
    if (!key) {
        tsr_tensor_release(out);
        return refuse("a binary op");
    }
    tsr_tensor *in[2] = {(tsr_tensor *)a, (tsr_tensor *)b};
    if (tsr__ag_record_inplace_of(key, 2, in, out) < 0) {
        tsr_tensor_release(out);
        return NULL;
    }
    return out;
}

/* a op s recorded as op with a wrapped number (1.13's wrapped_scalar_tensor:
 * MulBackward0 / DivBackward0 with no edge for s), as mul.Scalar's and
 * div.Scalar's own backward compute */
tsr_tensor *tsr__ag_binary_w(tsr_binop op, const tsr_tensor *a, double s)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_scalar(tsr_scalar_float(s));
    tsr_tensor *out = tsr_binary(op, &x, &y, NULL, NULL);
    if (!out || !tsr__ag_creating()) return out;
    tsr_tensor *w = tsr_full(0, NULL, tsr_scalar_float(s), TSR_FLOAT64, TSR_CPU);
    if (!w) {
        tsr_tensor_release(out);
        return NULL;
    }
    const tsr_tensor *in[2] = {a, w};
    out = rec(out, binop_key(op), 2, in, NULL);
    tsr_tensor_release(w);
    return out;
}

tsr_tensor *tsr__ag_add(const tsr_tensor *a, const tsr_tensor *b) { return tsr__ag_binary(TSR_BINOP_ADD, a, b); }

/* a * (re + im i) with a complex number: C++'s Tensor * Scalar
 * (MulBackward1 keeping the number: d0 + d1 i, has_d1) */
tsr_tensor *tsr__ag_mul_complex(const tsr_tensor *a, double re, double im)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_scalar(tsr_scalar_complex(re, im));
    tsr_tensor *out = tsr_binary(TSR_BINOP_MUL, &x, &y, NULL, NULL);
    if (!out || !tsr__ag_creating()) return out;
    tsr_ag_args d = {0};
    d.ndims = -1;
    d.d0 = re;
    d.d1 = im;
    d.has_d1 = true;
    const tsr_tensor *in[2] = {a, NULL};
    return rec(out, "mul_s", 1, in, &d);
}

/* a * (re + im i) recorded with the number wrapped (MulBackward0, no edge
 * for it): mul.Scalar's own backward with a complex number */
tsr_tensor *tsr__ag_mul_complex_w(const tsr_tensor *a, double re, double im)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_scalar(tsr_scalar_complex(re, im));
    tsr_tensor *out = tsr_binary(TSR_BINOP_MUL, &x, &y, NULL, NULL);
    if (!out || !tsr__ag_creating()) return out;
    tsr_tensor *w = tsr_full(0, NULL, tsr_scalar_complex(re, im), TSR_COMPLEX128, TSR_CPU);
    if (!w) {
        tsr_tensor_release(out);
        return NULL;
    }
    const tsr_tensor *in[2] = {a, w};
    out = rec(out, "mul", 2, in, NULL);
    tsr_tensor_release(w);
    return out;
}



/* where(cond, a, 0) / where(cond, 0, a): the 0 a 0-dim tensor of a's dtype */
tsr_tensor *tsr__ag_where0(const tsr_tensor *cond, const tsr_tensor *a, bool zero_first)
{
    tsr_operand x = tsr_operand_tensor(a), z = tsr_operand_scalar(tsr_scalar_float(0.0));
    tsr_tensor *out = zero_first ? tsr_where(cond, &z, &x, NULL) : tsr_where(cond, &x, &z, NULL);
    if (!out || !tsr__ag_creating()) return out;
    tsr_tensor *zt = tsr_zeros(0, NULL, a->dtype, TSR_CPU);
    if (!zt) {
        tsr_tensor_release(out);
        return NULL;
    }
    const tsr_tensor *in[3] = {cond, zero_first ? zt : a, zero_first ? a : zt};
    out = rec(out, "where", 3, in, NULL);
    tsr_tensor_release(zt);
    return out;
}

/* a op s (C++'s Tensor op Scalar: add.Scalar, mul.Scalar, ...), or with
 * scalar_first s op a (Scalar op Tensor: a.add(s), a.mul(s); s - a and
 * s / a are a filled tensor with sub_ / div_ by a in 1.13; pow(s, a) is
 * pow.Scalar) */
tsr_tensor *tsr__ag_binary_s(tsr_binop op, const tsr_tensor *a, double s, bool scalar_first)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_scalar(tsr_scalar_float(s));
    tsr_tensor *out = scalar_first ? tsr_binary(op, &y, &x, NULL, NULL) : tsr_binary(op, &x, &y, NULL, NULL);
    if (!out || !tsr__ag_creating()) return out;
    tsr_ag_args d = {0};
    d.ndims = -1;
    d.d0 = s;
    const tsr_tensor *in[2] = {a, NULL};
    bool commutes = op == TSR_BINOP_ADD || op == TSR_BINOP_MUL;
    if (!scalar_first || commutes) {
        const char *key = op == TSR_BINOP_ADD ? "add_s" : op == TSR_BINOP_SUB ? "sub_s" : op == TSR_BINOP_MUL ? "mul_s"
                        : op == TSR_BINOP_DIV ? "div_s" : op == TSR_BINOP_POW ? "pow" : NULL;
        if (!key) {
            tsr_tensor_release(out);
            return refuse("a binary op with a number");
        }
        return rec(out, key, 1, in, &d);
    }
    if (op == TSR_BINOP_POW) return rec(out, "pow_scalar", 1, in, &d);   /* pow(Scalar, Tensor): PowBackward2 */
    if (op != TSR_BINOP_SUB && op != TSR_BINOP_DIV) {
        tsr_tensor_release(out);
        return refuse("a number-first binary op");
    }
    tsr_tensor *f = tsr_full(0, NULL, tsr_scalar_float(s), out->dtype, TSR_CPU);
    if (!f) {
        tsr_tensor_release(out);
        return NULL;
    }
    in[0] = f;
    in[1] = a;
    out = rec(out, op == TSR_BINOP_SUB ? "sub" : "div", 2, in, NULL);
    tsr_tensor_release(f);
    return out;
}

tsr_tensor *tsr__ag_unary(tsr_unop op, const tsr_tensor *a)
{
    const char *key = tsr_unop_name(op);
    if (tsr__ag_creating() && (!key || !tsr_ag_has_formula(key))) return refuse(key ? key : "a unary op");
    const tsr_tensor *in[1] = {a};
    return rec(tsr_unary(op, a, NULL, NULL), key, 1, in, NULL);
}

/* a.op_() (log_, ...) in a 1.13 formula: the node saves a.clone() */
tsr_tensor *tsr__ag_unary_(tsr_unop op, const tsr_tensor *a)
{
    const char *key = tsr_unop_name(op);
    if (tsr__ag_creating() && (!key || !tsr_ag_has_formula(key))) return refuse(key ? key : "a unary op");
    tsr_tensor *out = tsr_unary(op, a, NULL, NULL);
    if (!out || !tsr__ag_creating()) return out;
    tsr_tensor *in[1] = {(tsr_tensor *)a};
    if (tsr__ag_record_inplace_of(key, 1, in, out) < 0) {
        tsr_tensor_release(out);
        return NULL;
    }
    return out;
}

tsr_tensor *tsr__ag_expand(const tsr_tensor *a, int nd, const int64_t *sizes)
{
    const tsr_tensor *in[1] = {a};
    return rec(tsr_view_expand(a, nd, sizes), "expand", 1, in, NULL);
}

tsr_tensor *tsr__ag_unsqueeze(const tsr_tensor *a, int64_t d)
{
    tsr_ag_args x = {0};
    x.ndims = -1;
    x.i0 = d;
    const tsr_tensor *in[1] = {a};
    return rec(tsr_view_unsqueeze(a, d), "unsqueeze", 1, in, &x);
}

tsr_tensor *tsr__ag_squeeze_dim(const tsr_tensor *a, int64_t d)
{
    tsr_ag_args x = {0};
    x.ndims = -1;
    x.i0 = d;
    const tsr_tensor *in[1] = {a};
    return rec(tsr_view_squeeze_dim(a, d), "squeeze_dim", 1, in, &x);
}

tsr_tensor *tsr__ag_transpose(const tsr_tensor *a, int64_t d0, int64_t d1)
{
    tsr_ag_args x = {0};
    x.ndims = -1;
    x.i0 = d0;
    x.i1 = d1;
    const tsr_tensor *in[1] = {a};
    return rec(tsr_view_transpose(a, d0, d1), "transpose", 1, in, &x);
}

tsr_tensor *tsr__ag_view(const tsr_tensor *a, int nd, const int64_t *sizes)
{
    const tsr_tensor *in[1] = {a};
    return rec(tsr_view_view(a, nd, sizes), "view", 1, in, NULL);
}

tsr_tensor *tsr__ag_diagonal(const tsr_tensor *a, int64_t offset, int64_t d1, int64_t d2)
{
    tsr_ag_args x = {0};
    x.ndims = -1;
    x.i0 = offset;
    x.i1 = d1 < 0 ? d1 + a->ndim : d1;
    x.i2 = d2 < 0 ? d2 + a->ndim : d2;
    const tsr_tensor *in[1] = {a};
    return rec(tsr_view_diagonal(a, offset, d1, d2), "diagonal", 1, in, &x);
}

tsr_tensor *tsr__ag_t(const tsr_tensor *a)
{
    const tsr_tensor *in[1] = {a};
    return rec(tsr_view_t(a), "t", 1, in, NULL);
}

tsr_tensor *tsr__ag_permute(const tsr_tensor *a, int nd, const int64_t *dims)
{
    tsr_ag_args x = {0};
    x.ndims = nd;
    memcpy(x.dims, dims, (size_t)nd * sizeof *dims);
    const tsr_tensor *in[1] = {a};
    return rec(tsr_view_permute(a, nd, dims), "permute", 1, in, &x);
}

tsr_tensor *tsr__ag_mm(const tsr_tensor *a, const tsr_tensor *b)
{
    const tsr_tensor *in[2] = {a, b};
    return rec(tsr_mm(a, b, NULL), "mm", 2, in, NULL);
}

/* a reduction's args as the bindings record them: the dims (-1: all), keepdim */
static tsr_ag_args reduce_args(const tsr_dims *dims, bool keepdim)
{
    tsr_ag_args x = {0};
    x.ndims = dims->n < 0 ? -1 : dims->n;
    for (int i = 0; i < dims->n; i++) x.dims[i] = dims->d[i];
    x.keepdim = keepdim;
    return x;
}

tsr_tensor *tsr__ag_sum(const tsr_tensor *a, const tsr_dims *dims, bool keepdim)
{
    tsr_ag_args x = reduce_args(dims, keepdim);
    const tsr_tensor *in[1] = {a};
    return rec(tsr_sum(a, dims, keepdim, TSR_DTYPE_UNDEFINED, NULL), dims->n < 0 ? "sum" : "sum_dim", 1, in, &x);
}

/* bmm / mv of the resolved values: the kernels read the stored values of
 * a conj or neg view as tsr_matmul's batched paths do not (they resolve) */
static tsr_tensor *resolved_product(const tsr_tensor *a, const tsr_tensor *b, bool is_bmm)
{
    if (!a->conj && !a->neg && !b->conj && !b->neg) return is_bmm ? tsr_bmm(a, b, NULL) : tsr_mv(a, b, NULL);
    tsr_tensor *x = tsr_resolve_bits(a), *y = x ? tsr_resolve_bits(b) : NULL;
    tsr_tensor *r = y ? (is_bmm ? tsr_bmm(x, y, NULL) : tsr_mv(x, y, NULL)) : NULL;
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    return r;
}

tsr_tensor *tsr__ag_bmm(const tsr_tensor *a, const tsr_tensor *b)
{
    const tsr_tensor *in[2] = {a, b};
    return rec(resolved_product(a, b, true), "bmm", 2, in, NULL);
}

tsr_tensor *tsr__ag_mv(const tsr_tensor *a, const tsr_tensor *b)
{
    const tsr_tensor *in[2] = {a, b};
    return rec(resolved_product(a, b, false), "mv", 2, in, NULL);
}

/* outer(a, b) / ger: 1.13's a.reshape(n, 1) * b */
tsr_tensor *tsr__ag_outer(const tsr_tensor *a, const tsr_tensor *b)
{
    if (!tsr__ag_creating()) return tsr_outer(a, b, NULL);
    int64_t sz[2] = {a->ndim ? a->sizes[0] : 1, 1};
    tsr_tensor *col = tsr__ag_reshape(a, 2, sz);
    tsr_tensor *r = col ? tsr__ag_binary(TSR_BINOP_MUL, col, b) : NULL;
    tsr_tensor_release(col);
    return r;
}

/* a.narrow(dim, start, len) (SliceBackward0) */
tsr_tensor *tsr__ag_narrow(const tsr_tensor *a, int64_t dim, int64_t start, int64_t len)
{
    tsr_ag_args x = {0};
    x.ndims = -1;
    x.i0 = dim < 0 ? dim + a->ndim : dim;
    x.i1 = start;
    x.i2 = 1;
    x.dims[0] = start + len;
    x.dims[1] = 1;
    const tsr_tensor *in[1] = {a};
    return rec(tsr_view_narrow(a, dim, start, len), "slice", 1, in, &x);
}

/* a.select(dim, index) (SelectBackward0) */
tsr_tensor *tsr__ag_select(const tsr_tensor *a, int64_t dim, int64_t index)
{
    tsr_ag_args x = {0};
    x.ndims = -1;
    x.i0 = dim < 0 ? dim + a->ndim : dim;
    x.i1 = index;
    const tsr_tensor *in[1] = {a};
    return rec(tsr_view_select(a, dim, index), "select", 1, in, &x);
}

/* a.masked_fill(mask, 0) (MaskedFillBackward0) */
tsr_tensor *tsr__ag_masked_fill0(const tsr_tensor *a, const tsr_tensor *mask)
{
    tsr_operand z = tsr_operand_scalar(tsr_scalar_float(0.0));
    const tsr_tensor *in[2] = {a, mask};
    return rec(tsr_masked_fill(a, mask, &z), "masked_fill", 2, in, NULL);
}

/* where(cond, a, b) of two tensors (WhereBackward0) */
tsr_tensor *tsr__ag_where(const tsr_tensor *cond, const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    const tsr_tensor *in[3] = {cond, a, b};
    return rec(tsr_where(cond, &x, &y, NULL), "where", 3, in, NULL);
}

tsr_tensor *tsr__ag_mean(const tsr_tensor *a, const tsr_dims *dims, bool keepdim)
{
    tsr_ag_args x = reduce_args(dims, keepdim);
    const tsr_tensor *in[1] = {a};
    return rec(tsr_mean(a, dims, keepdim, TSR_DTYPE_UNDEFINED, NULL), dims->n < 0 ? "mean" : "mean_dim", 1, in, &x);
}

/* grad.reshape(sizes): a view (ReshapeAliasBackward0), the tensor itself,
 * or a copy (CloneBackward0 under UnsafeViewBackward0), as 1.13 records
 * reshape */
tsr_tensor *tsr__ag_reshape(const tsr_tensor *a, int nd, const int64_t *sizes)
{
    tsr_tensor *out = tsr_reshape(a, nd, sizes);
    if (!out || !tsr__ag_creating() || out == a) return out;
    const tsr_tensor *in[1] = {a};
    if (out->storage == a->storage) return rec(out, "reshape_alias", 1, in, NULL);
    tsr_tensor *c = tsr_view_alias(a);
    if (!c) {
        tsr_tensor_release(out);
        return NULL;
    }
    tsr_tensor_unview(c);
    c = rec(c, "clone", 1, in, NULL);
    const tsr_tensor *cin[1] = {c};
    out = c ? rec(out, "unsafe_view", 1, cin, NULL) : (tsr_tensor_release(out), NULL);
    tsr_tensor_release(c);
    return out;
}

/* at::sum_to(g, sizes): g.sum() for a 0-dim target (SumBackward0), else
 * the leading dims and the dims of size 1 in sizes summed with keepdim
 * (SumBackward1), then a view when dims were dropped (ViewBackward0); g
 * itself when nothing is summed */
tsr_tensor *tsr__ag_sum_to(const tsr_tensor *g, int nd, const int64_t *sizes)
{
    if (!tsr__ag_creating()) return tsr_sum_to_size(g, nd, sizes);
    if (nd > g->ndim) return tsr_sum_to_size(g, nd, sizes);   /* its error */
    if (nd == 0) {   /* a 0-dim target: tensor.sum() (SumBackward0) */
        tsr_dims all = {.n = -1};
        return tsr__ag_sum(g, &all, false);
    }
    int lead = g->ndim - nd;
    tsr_dims dims = {0};
    for (int i = 0; i < g->ndim; i++)
        if (i < lead || (sizes[i - lead] == 1 && g->sizes[i] != 1)) dims.d[dims.n++] = i;
    for (int i = 0; i < nd; i++)
        if (sizes[i] != g->sizes[lead + i] && sizes[i] != 1) return tsr_sum_to_size(g, nd, sizes);   /* its error */
    tsr_tensor *t = dims.n ? tsr__ag_sum(g, &dims, true) : tsr_tensor_retain((tsr_tensor *)g);
    if (!t || lead == 0) return t;
    const tsr_tensor *in[1] = {t};
    tsr_tensor *v = rec(tsr_view_view(t, nd, sizes), "view", 1, in, NULL);
    tsr_tensor_release(t);
    return v;
}

/* g.to(dtype) (ToCopyBackward0) */
tsr_tensor *tsr__ag_to_dtype(const tsr_tensor *g, tsr_dtype dt)
{
    const tsr_tensor *in[1] = {g};
    tsr_tensor *out = tsr_to_dtype(g, dt, false);
    if (out == g) return out;
    return rec(out, "to_copy", 1, in, NULL);
}

/* a.conj(): the lazy conjugate view (ConjBackward0), a itself when real */
tsr_tensor *tsr__ag_conj(const tsr_tensor *a)
{
    if (!tsr_dtype_is_complex(a->dtype)) return tsr_tensor_retain((tsr_tensor *)a);
    const tsr_tensor *in[1] = {a};
    return rec(tsr_conj((tsr_tensor *)a), "conj", 1, in, NULL);
}

/* a.conj() with its values materialized (conj_physical; the kernels a
 * formula calls read stored values), recorded as 1.13's lazy conj
 * (ConjBackward0) while the engine creates a graph; a itself when real */
tsr_tensor *tsr__ag_conj_values(const tsr_tensor *a)
{
    if (!tsr_dtype_is_complex(a->dtype)) return tsr_tensor_retain((tsr_tensor *)a);
    const tsr_tensor *in[1] = {a};
    return rec(tsr_conj_physical((tsr_tensor *)a, NULL), "conj", 1, in, NULL);
}

/* a viewed as sizes, recorded as at::_unsafe_view (UnsafeViewBackward0) */
static tsr_tensor *unsafe_view(tsr_tensor *m, int nd, const int64_t *sizes)
{
    tsr_tensor *v = tsr_view_view(m, nd, sizes);
    if (!v) return NULL;
    tsr_tensor_unview(v);
    const tsr_tensor *in[1] = {m};
    return rec(v, "unsafe_view", 1, in, NULL);
}

/* a @ b as 1.13's at::matmul decomposes it: mm / mv / dot; a batch folded
 * into the rows of an mm or mv then _unsafe_view; both batched: expand,
 * reshape to 3-D, bmm, _unsafe_view. The other shapes refuse. */
tsr_tensor *tsr__ag_matmul(const tsr_tensor *a, const tsr_tensor *b)
{
    if (!tsr__ag_creating()) return tsr_matmul(a, b, NULL);
    const tsr_tensor *in[2] = {a, b};
    if (a->ndim == 2 && b->ndim == 2) return tsr__ag_mm(a, b);
    if (a->ndim == 2 && b->ndim == 1) return tsr__ag_mv(a, b);
    if (a->ndim == 1 && b->ndim == 1) return rec(tsr_dot(a, b, NULL), "dot", 2, in, NULL);
    if (a->ndim >= 3 && (b->ndim == 1 || b->ndim == 2)) {
        int64_t rows = 1, shape[TSR_MAX_DIMS];
        for (int i = 0; i < a->ndim - 1; i++) rows *= shape[i] = a->sizes[i];
        int nd = a->ndim - 1;
        if (b->ndim == 2) shape[nd++] = b->sizes[1];
        tsr_tensor *a2 = tsr__ag_reshape(a, 2, (int64_t[]){rows, a->sizes[a->ndim - 1]});
        tsr_tensor *m = !a2 ? NULL : b->ndim == 2 ? tsr__ag_mm(a2, b) : tsr__ag_mv(a2, b);
        tsr_tensor *r = m ? unsafe_view(m, nd, shape) : NULL;
        tsr_tensor_release(a2);
        tsr_tensor_release(m);
        return r;
    }
    if (a->ndim >= 3 && b->ndim >= 3) {
        int nb1 = a->ndim - 2, nb2 = b->ndim - 2, nb = nb1 > nb2 ? nb1 : nb2;
        int64_t batch[TSR_MAX_DIMS], prod = 1;
        for (int i = 0; i < nb; i++) {
            int64_t s1 = i - (nb - nb1) >= 0 ? a->sizes[i - (nb - nb1)] : 1, s2 = i - (nb - nb2) >= 0 ? b->sizes[i - (nb - nb2)] : 1;
            batch[i] = s1 == 1 ? s2 : s1;
            prod *= batch[i];
        }
        tsr_tensor *e[2] = {0}, *f[2] = {0}, *m = NULL, *r = NULL;
        bool ok = true;
        for (int i = 0; i < 2 && ok; i++) {
            const tsr_tensor *src = in[i];
            int64_t es[TSR_MAX_DIMS], fs[3] = {prod, src->sizes[src->ndim - 2], src->sizes[src->ndim - 1]};
            memcpy(es, batch, sizeof(int64_t) * (size_t)nb);
            es[nb] = fs[1];
            es[nb + 1] = fs[2];
            ok = (e[i] = tsr__ag_expand(src, nb + 2, es)) && (f[i] = tsr__ag_reshape(e[i], 3, fs));
        }
        if (ok && (m = tsr__ag_bmm(f[0], f[1]))) {
            int64_t os[TSR_MAX_DIMS];
            memcpy(os, batch, sizeof(int64_t) * (size_t)nb);
            os[nb] = a->sizes[a->ndim - 2];
            os[nb + 1] = b->sizes[b->ndim - 1];
            r = unsafe_view(m, nb + 2, os);
        }
        for (int i = 0; i < 2; i++) {
            tsr_tensor_release(e[i]);
            tsr_tensor_release(f[i]);
        }
        tsr_tensor_release(m);
        return r;
    }
    return refuse("a matmul of these shapes");
}

/* at::linalg_solve(A, B, left) (LinalgSolveExBackward0 over A, B): the
 * errors of torch.linalg.solve */
tsr_tensor *tsr__ag_linalg_solve(const tsr_tensor *A, const tsr_tensor *B, bool left)
{
    tsr_tensor *x = NULL, *info = NULL;
    if (tsr_linalg_solve_ex(A, B, left, "torch.linalg.solve", &x, &info) < 0) return NULL;
    tsr_tensor_release(info);
    tsr_ag_args d = {0};
    d.ndims = -1;
    d.flag = left;
    const tsr_tensor *in[2] = {A, B};
    return rec(x, "linalg_solve", 2, in, &d);
}

/* at::linalg_solve_triangular(A, B, upper, left, unitriangular)
 * (LinalgSolveTriangularBackward0 over A, B: upper in flag, left in i0,
 * unitriangular in i1); conj views read resolved */
tsr_tensor *tsr__ag_solve_triangular(const tsr_tensor *A, const tsr_tensor *B, bool upper, bool left, bool unit)
{
    tsr_tensor *ra = tsr_resolve_bits(A), *rb = ra ? tsr_resolve_bits(B) : NULL, *x = NULL;
    int rc = rb ? tsr_linalg_solve_triangular(ra, rb, upper, left, unit, &x) : -1;
    tsr_tensor_release(ra);
    tsr_tensor_release(rb);
    if (rc < 0) return NULL;
    tsr_ag_args d = {0};
    d.ndims = -1;
    d.flag = upper;
    d.i0 = left;
    d.i1 = unit;
    const tsr_tensor *in[2] = {A, B};
    return rec(x, "linalg_solve_triangular", 2, in, &d);
}

/* a.tril(k) / a.triu(k) (TrilBackward0 / TriuBackward0) */
tsr_tensor *tsr__ag_tril(const tsr_tensor *a, int64_t k, bool upper)
{
    tsr_ag_args d = {0};
    d.ndims = -1;
    d.i0 = k;
    const tsr_tensor *in[1] = {a};
    return rec(tsr_tril(a, k, upper, NULL), upper ? "triu" : "tril", 1, in, &d);
}

/* at::diag_embed(a, offset, dim1, dim2) (DiagEmbedBackward0) */
tsr_tensor *tsr__ag_diag_embed(const tsr_tensor *a, int64_t offset, int64_t d1, int64_t d2)
{
    tsr_ag_args x = {0};
    x.ndims = -1;
    x.i0 = offset;
    x.i1 = d1 < 0 ? d1 + a->ndim + 1 : d1;
    x.i2 = d2 < 0 ? d2 + a->ndim + 1 : d2;
    const tsr_tensor *in[1] = {a};
    return rec(tsr_diag_embed(a, offset, d1, d2), "diag_embed", 1, in, &x);
}

/* at::linalg_cross(a, b, dim) (LinalgCrossBackward0) */
tsr_tensor *tsr__ag_linalg_cross(const tsr_tensor *a, const tsr_tensor *b, int64_t dim)
{
    tsr_ag_args x = {0};
    x.ndims = -1;
    x.i0 = dim;
    const tsr_tensor *in[2] = {a, b};
    tsr_tensor *ra = tsr_resolve_bits(a), *rb = ra ? tsr_resolve_bits(b) : NULL;   /* the kernel reads stored values */
    tsr_tensor *r = rb ? tsr_linalg_cross(ra, rb, dim, NULL) : NULL;
    tsr_tensor_release(ra);
    tsr_tensor_release(rb);
    return rec(r, "linalg_cross", 2, in, &x);
}

/* The formulas that are built only of the recording helpers above, in
 * 1.13's order of operations (sorted for bsearch). */
static const char *const dbl_ok[] = {
    "_embedding_bag_dense_backward", "_embedding_bag_per_sample_weights_backward", "abs", "acos", "acosh",
    "adaptive_avg_pool2d", "adaptive_avg_pool2d_backward", "adaptive_avg_pool3d", "adaptive_avg_pool3d_backward",
    "adaptive_max_pool2d", "adaptive_max_pool2d_backward", "adaptive_max_pool3d", "adaptive_max_pool3d_backward",
    "add", "add_s", "addbmm", "addcdiv", "addcmul", "addmm", "addmv", "addr", "affine_grid_generator", "alias",
    "amax", "amin", "angle", "as_strided_view", "asin", "asinh", "atan", "atan2", "atanh", "avg_pool2d",
    "avg_pool2d_backward", "avg_pool3d", "avg_pool3d_backward", "baddbmm", "binary_cross_entropy",
    "binary_cross_entropy_backward", "binary_cross_entropy_with_logits", "bmm", "cat", "cdist", "cdist_backward",
    "ceil", "celu", "celu_", "cholesky", "clamp", "clamp_max", "clamp_max_t", "clamp_min", "clamp_min_t",
    "clamp_tensor", "clone", "col2im", "conj", "conj_physical", "constant_pad_nd", "conv_tbc", "convolution",
    "convolution_backward", "copy_backwards", "copy_slices", "copy_slices_fn", "copy_slices_view", "copysign",
    "copysign_s", "cos", "cosh", "cummax", "cummin", "cumprod", "cumsum", "deg2rad", "diag", "diag_embed",
    "diagonal", "diagonal_backward", "digamma", "dist", "div", "div_rounding", "div_s", "dot", "elu", "elu_",
    "elu_backward", "embedding", "embedding_bag", "embedding_dense_backward", "erf", "erfc", "erfinv", "exp",
    "exp2", "expand", "expm1", "fill", "fill_", "fill_t", "fill_t_", "flip", "floor", "fmax", "fmin", "fmod",
    "fmod_s", "frac", "fractional_max_pool2d", "fractional_max_pool2d_backward", "fractional_max_pool3d",
    "fractional_max_pool3d_backward", "gather", "gelu", "gelu_backward", "glu", "glu_backward", "grid_sampler_2d",
    "grid_sampler_2d_backward", "grid_sampler_3d", "grid_sampler_3d_backward", "hardshrink", "hardshrink_backward",
    "hardsigmoid", "hardsigmoid_", "hardswish", "hardswish_", "hardswish_backward", "hardtanh", "hardtanh_",
    "hardtanh_backward", "huber_loss", "huber_loss_backward", "hypot", "i0", "im2col", "index", "index_add",
    "index_fill", "index_fill_t", "index_put_fn", "index_put_impl", "index_put_key", "index_put_mask",
    "index_select", "kthvalue", "leaky_relu", "leaky_relu_", "leaky_relu_backward", "lerp", "lerp_t", "lgamma",
    "linalg_cholesky", "linalg_cross", "linalg_det", "linalg_eig", "linalg_eigh", "linalg_eigvalsh", "linalg_inv",
    "linalg_matrix_exp", "linalg_pinv", "linalg_qr", "linalg_slogdet", "linalg_solve", "linalg_solve_triangular",
    "linalg_svd", "linalg_svdvals", "log", "log10", "log1p", "log2", "log_sigmoid", "log_sigmoid_backward",
    "log_softmax", "log_softmax_backward_data", "logaddexp", "logaddexp2", "logcumsumexp", "logit", "logsumexp",
    "masked_fill", "masked_fill_tensor", "masked_scatter", "masked_select", "max", "max_dim", "max_pool2d",
    "max_pool2d_backward", "max_pool3d", "max_pool3d_backward", "max_unpool2d", "max_unpool3d", "maximum", "mean",
    "mean_dim", "median", "median_dim", "min", "min_dim", "minimum", "mish", "mish_", "mm", "mode", "mse_loss",
    "mse_loss_backward", "mul", "mul_s", "multi_margin_loss", "multilabel_margin_loss", "mv", "nan_to_num",
    "nanmedian", "nanmedian_dim", "narrow", "native_batch_norm", "native_batch_norm_backward", "native_group_norm",
    "native_layer_norm", "native_layer_norm_backward", "neg", "nll_loss", "nll_loss2d", "nll_loss2d_backward",
    "nll_loss_backward", "norm", "norm0", "norm_p", "pdist", "pdist_backward", "permute", "pixel_shuffle",
    "pixel_unshuffle", "polygamma", "polygamma_", "pow", "pow_scalar", "pow_t", "prelu", "prelu_backward", "prod",
    "prod_dim", "put", "rad2deg", "reciprocal", "reflection_pad1d", "reflection_pad1d_backward", "reflection_pad2d",
    "reflection_pad2d_backward", "reflection_pad3d", "reflection_pad3d_backward", "relu", "remainder",
    "remainder_s", "renorm", "repeat", "replication_pad1d", "replication_pad1d_backward", "replication_pad2d",
    "replication_pad2d_backward", "replication_pad3d", "replication_pad3d_backward", "reshape_alias", "roll",
    "rot90", "round", "rrelu_with_noise", "rrelu_with_noise_", "rrelu_with_noise_backward", "rsqrt", "rsub",
    "rsub_s", "scatter", "scatter_add", "scatter_v", "select", "select_backward", "sgn", "sigmoid",
    "sigmoid_backward", "sign", "silu", "silu_", "sin", "sinc", "sinh", "slice", "slice_backward", "smooth_l1_loss",
    "smooth_l1_loss_backward", "soft_margin_loss", "soft_margin_loss_backward", "softmax", "softmax_backward_data",
    "softplus", "softplus_backward", "softshrink", "softshrink_backward", "sort", "special_i1", "split",
    "split_with_sizes", "sqrt", "square", "squeeze", "squeeze_dim", "squeeze_mm", "stack", "std", "std_mean",
    "sub", "sub_s", "sum", "sum_dim", "t", "take", "tan", "tanh", "tanh_backward",
    "threshold", "threshold_", "threshold_backward", "to_copy", "topk", "trace", "transpose", "tril", "trilinear",
    "triu", "trunc", "unbind", "unfold", "unfold_backward", "unsafe_split", "unsafe_split_with_sizes",
    "unsafe_view", "unsqueeze", "unsqueeze_", "upsample_bicubic2d", "upsample_bicubic2d_aa",
    "upsample_bicubic2d_aa_backward", "upsample_bicubic2d_backward", "upsample_bilinear2d",
    "upsample_bilinear2d_aa", "upsample_bilinear2d_aa_backward", "upsample_bilinear2d_backward",
    "upsample_linear1d", "upsample_linear1d_backward", "upsample_nearest1d", "upsample_nearest1d_backward",
    "upsample_nearest2d", "upsample_nearest2d_backward", "upsample_nearest3d", "upsample_nearest3d_backward",
    "upsample_nearest_exact1d", "upsample_nearest_exact1d_backward", "upsample_nearest_exact2d",
    "upsample_nearest_exact2d_backward", "upsample_nearest_exact3d", "upsample_nearest_exact3d_backward",
    "upsample_trilinear3d", "upsample_trilinear3d_backward", "var", "var_mean", "vdot",
    "vector_norm", "view", "view_as_complex", "view_as_real", "where", "xlogy", "xlogy_s", "xlogy_self_s", "zero_",
};

static int cmp_key(const void *k, const void *e) { return strcmp((const char *)k, *(const char *const *)e); }

bool tsr__ag_dbl_ok(const char *key)
{
    return key && bsearch(key, dbl_ok, sizeof dbl_ok / sizeof *dbl_ok, sizeof *dbl_ok, cmp_key) != NULL;
}

const char *tsr__ag_dbl_at(int i) { return i >= 0 && i < (int)(sizeof dbl_ok / sizeof *dbl_ok) ? dbl_ok[i] : NULL; }
