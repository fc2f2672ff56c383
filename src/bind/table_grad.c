/* src/bind/table_grad.c — the autograd step of the binding table's call
 * path (table_grad.h). Each row names its formula and how its arguments
 * become the formula's inputs and tsr_ag_args; the formulas themselves and
 * every rule about them live in runtime/autograd*.c. A row without a
 * formula whose float result would need a grad_fn raises 1.13's
 * NotImplementedError instead of silently dropping the graph. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "autograd.h"
#include "ops/compare.h"
#include "ops/linalg.h"
#include "ops/reduce.h"
#include "table_grad.h"

/* How a row's arguments map onto its formula. */
typedef enum {
    G_UNARY,      /* (input) */
    G_BINARY,     /* (input, other[, alpha]) other may be a number */
    G_RSUB,       /* rsub(input, other, alpha): RsubBackward0 / 1 */
    G_POW,        /* pow(input, exponent) / pow(self number, exponent) */
    G_TENS2,      /* (input, second tensor) mm, bmm, mv, dot */
    G_ADDMM,      /* (input, mat1, mat2, beta, alpha); addmv, addr, baddbmm, addbmm */
    G_OUTER,      /* outer / ger: input.reshape(n, 1) * vec2 */
    G_KRON,       /* kron: _unsafe_view(_unsafe_view(a) * _unsafe_view(b)) */
    G_CROSS,      /* cross / linalg.cross(input, other, dim): LinalgCrossBackward0 */
    G_SLOGDET,    /* slogdet: (sign, logabsdet), the node on logabsdet */
    G_LOGDET,     /* logdet: where(sign == -1, nan, logabsdet) over slogdet */
    G_SOLVE,      /* linalg.solve(A, B, left) */
    G_CHOL,       /* cholesky(upper) */
    G_CDIST,      /* cdist(x1, x2, p, compute_mode) */
    G_UPLO,       /* eigvalsh(A, UPLO) */
    G_TENSORDOT,  /* tensordot(input, other, dims_self, dims_other): 1.13's permute / reshape / mm */
    G_REDUCE,     /* sum / mean / amax / amin / logsumexp: dim (list), keepdim */
    G_PROD,
    G_MAXMIN,     /* max() / max(dim) / max(other) */
    G_VAR,        /* var / std: dim, correction / unbiased, keepdim */
    G_NORM,
    G_DIM,        /* one int dim: softmax, log_softmax, cumsum, unsqueeze */
    G_CLAMP,
    G_WHERE,
    G_VIEW,       /* view / view_as */
    G_RESHAPE,    /* reshape / flatten: a view → ReshapeAliasBackward0, a copy → CloneBackward0 + UnsafeView */
    G_TRANSPOSE,
    G_PERMUTE,
    G_EXPAND,
    G_SQUEEZE,
    G_SELECT,
    G_NARROW,
    G_CAT,        /* cat / stack: a list of tensors, dim */
    G_GATHER,     /* gather / index_select: (input, dim, index) */
    G_FLIP,
    G_MATMUL,
    G_CAST,       /* to / float / double / type...: ToCopyBackward0 when a copy was made */
    G_CONTIG,     /* contiguous: CloneBackward0 when a copy was made */
    G_SORT,       /* sort / topk: (values, indices) */
    G_MASKED,     /* masked_fill(input, mask, number) */
    G_REPEAT,     /* repeat(repeats) */
    G_NONE,       /* autograd-neutral (detach, requires_grad_, ...): nothing recorded */
    G_OWN,        /* the handler records its own graph (F.pad, constant_pad_nd) */
} GKind;

typedef struct {
    const char *row;
    GKind kind;
    const char *key;   /* the formula; NULL: the row's name */
} GradRow;

/* Sorted by row (bsearch). */
static const GradRow grad_rows[] = {
    {"abs", G_UNARY, NULL}, {"absolute", G_UNARY, "abs"}, {"acos", G_UNARY, NULL}, {"add", G_BINARY, NULL},
    {"addbmm", G_ADDMM, NULL}, {"addmm", G_ADDMM, NULL}, {"addmv", G_ADDMM, NULL}, {"addr", G_ADDMM, NULL}, {"amax", G_REDUCE, NULL}, {"amin", G_REDUCE, NULL}, {"arccos", G_UNARY, "acos"},
    {"arcsin", G_UNARY, "asin"}, {"arctan", G_UNARY, "atan"}, {"arctan2", G_BINARY, "atan2"}, {"asin", G_UNARY, NULL},
    {"atan", G_UNARY, NULL}, {"atan2", G_BINARY, NULL}, {"backward", G_NONE, NULL}, {"baddbmm", G_ADDMM, NULL}, {"bfloat16", G_CAST, NULL},
    {"bmm", G_TENS2, NULL}, {"cat", G_CAT, NULL}, {"cdist", G_CDIST, NULL}, {"ceil", G_UNARY, NULL}, {"channel_shuffle", G_OWN, NULL}, {"cholesky", G_CHOL, NULL}, {"clamp", G_CLAMP, NULL}, {"clamp_min", G_CLAMP, "clamp_min"},
    {"clip", G_CLAMP, "clamp"}, {"clone", G_UNARY, NULL}, {"concat", G_CAT, "cat"},
    {"constant_pad_nd", G_OWN, NULL}, {"contiguous", G_CONTIG, NULL},
    {"conv1d", G_OWN, NULL}, {"conv2d", G_OWN, NULL}, {"conv_transpose1d", G_OWN, NULL}, {"conv_transpose2d", G_OWN, NULL},
    {"cos", G_UNARY, NULL}, {"cosh", G_UNARY, NULL}, {"cpu", G_CAST, NULL}, {"cross", G_CROSS, "linalg_cross"}, {"cumprod", G_DIM, NULL}, {"cumsum", G_DIM, NULL},
    {"det", G_UNARY, "linalg_det"}, {"detach", G_NONE, NULL}, {"detach_", G_NONE, NULL}, {"div", G_BINARY, NULL}, {"divide", G_BINARY, "div"},
    {"dot", G_TENS2, NULL}, {"double", G_CAST, NULL}, {"erf", G_UNARY, NULL}, {"exp", G_UNARY, NULL},
    {"exp2", G_UNARY, NULL}, {"expand", G_EXPAND, NULL}, {"expand_as", G_EXPAND, "expand"}, {"expm1", G_UNARY, NULL},
    {"fix", G_UNARY, "trunc"}, {"flatten", G_RESHAPE, NULL}, {"flip", G_FLIP, NULL}, {"float", G_CAST, NULL},
    {"floor", G_UNARY, NULL}, {"gather", G_GATHER, NULL}, {"ger", G_OUTER, "outer"}, {"glu", G_OWN, NULL}, {"half", G_CAST, NULL}, {"hardshrink", G_OWN, NULL}, {"index_select", G_GATHER, NULL}, {"inverse", G_UNARY, "linalg_inv"}, {"kron", G_KRON, NULL},
    {"linalg_cholesky", G_CHOL, NULL}, {"linalg_cholesky_ex", G_CHOL, "linalg_cholesky"}, {"linalg_cross", G_CROSS, NULL}, {"linalg_det", G_UNARY, NULL}, {"linalg_eigvalsh", G_UPLO, NULL}, {"linalg_inv", G_UNARY, NULL}, {"linalg_inv_ex", G_UNARY, "linalg_inv"}, {"linalg_matrix_exp", G_UNARY, NULL},
    {"linalg_pinv", G_UNARY, NULL}, {"linalg_slogdet", G_SLOGDET, NULL}, {"linalg_solve", G_SOLVE, NULL}, {"linalg_solve_ex", G_SOLVE, "linalg_solve"}, {"linalg_svdvals", G_UNARY, NULL}, {"log", G_UNARY, NULL}, {"log10", G_UNARY, NULL}, {"log1p", G_UNARY, NULL}, {"log2", G_UNARY, NULL},
    {"log_softmax", G_DIM, NULL}, {"logdet", G_LOGDET, NULL}, {"logsumexp", G_REDUCE, NULL}, {"masked_fill", G_MASKED, NULL},
    {"matmul", G_MATMUL, NULL}, {"matrix_exp", G_UNARY, "linalg_matrix_exp"}, {"max", G_MAXMIN, NULL}, {"maximum", G_BINARY, NULL}, {"mean", G_REDUCE, NULL},
    {"min", G_MAXMIN, NULL}, {"minimum", G_BINARY, NULL}, {"mm", G_TENS2, NULL}, {"mul", G_BINARY, NULL},
    {"multiply", G_BINARY, "mul"}, {"mv", G_TENS2, NULL}, {"narrow", G_NARROW, NULL}, {"native_channel_shuffle", G_OWN, NULL}, {"neg", G_UNARY, NULL},
    {"negative", G_UNARY, "neg"}, {"norm", G_NORM, NULL}, {"outer", G_OUTER, NULL}, {"pad", G_OWN, NULL},
    {"permute", G_PERMUTE, NULL}, {"pinverse", G_UNARY, "linalg_pinv"}, {"pixel_shuffle", G_OWN, NULL}, {"pixel_unshuffle", G_OWN, NULL}, {"pow", G_POW, NULL},
    {"prod", G_PROD, NULL}, {"reciprocal", G_UNARY, NULL}, {"relu", G_UNARY, NULL}, {"repeat", G_REPEAT, NULL},
    {"requires_grad_", G_NONE, NULL}, {"reshape", G_RESHAPE, NULL}, {"reshape_as", G_RESHAPE, NULL},
    {"retain_grad", G_NONE, NULL}, {"round", G_UNARY, NULL}, {"rrelu", G_OWN, NULL}, {"rrelu_", G_OWN, NULL}, {"rsqrt", G_UNARY, NULL}, {"rsub", G_RSUB, NULL},
    {"select", G_SELECT, NULL}, {"sigmoid", G_UNARY, NULL}, {"sign", G_UNARY, NULL}, {"sin", G_UNARY, NULL},
    {"sinh", G_UNARY, NULL}, {"slogdet", G_SLOGDET, "linalg_slogdet"}, {"softmax", G_DIM, NULL}, {"softshrink", G_OWN, NULL}, {"sort", G_SORT, NULL}, {"sqrt", G_UNARY, NULL},
    {"square", G_UNARY, NULL}, {"squeeze", G_SQUEEZE, NULL}, {"stack", G_CAT, NULL}, {"std", G_VAR, NULL},
    {"sub", G_BINARY, NULL}, {"subtract", G_BINARY, "sub"}, {"sum", G_REDUCE, NULL},
    {"swapaxes", G_TRANSPOSE, "transpose"}, {"swapdims", G_TRANSPOSE, "transpose"}, {"t", G_UNARY, NULL},
    {"tan", G_UNARY, NULL}, {"tanh", G_UNARY, NULL}, {"tensordot", G_TENSORDOT, NULL}, {"threshold", G_OWN, NULL}, {"threshold_", G_OWN, NULL}, {"to", G_CAST, NULL},
    {"to_dense", G_OWN, NULL},   /* a sparse input: bind/sparse.c records ToDenseBackward0 */
    {"topk", G_SORT, NULL},
    {"transpose", G_TRANSPOSE, NULL}, {"true_divide", G_BINARY, "div"}, {"trunc", G_UNARY, NULL},
    {"type", G_CAST, NULL}, {"type_as", G_CAST, NULL}, {"unsqueeze", G_DIM, NULL}, {"var", G_VAR, NULL},
    {"view", G_VIEW, NULL}, {"view_as", G_VIEW, NULL}, {"where", G_WHERE, NULL}, {"zero_", G_UNARY, NULL},
};

static int cmp_row(const void *k, const void *e) { return strcmp(k, ((const GradRow *)e)->row); }

static const GradRow *grad_row(const BindRow *d)
{
    static const GradRow none = {"", G_NONE, NULL};
    size_t l = strlen(d->name);
    /* factories of new leaves: x's values or shape only */
    if ((l > 5 && !strcmp(d->name + l - 5, "_like")) || !strncmp(d->name, "new_", 4) || !strcmp(d->name, "as_tensor") ||
        !strcmp(d->name, "asarray") || !strcmp(d->name, "tensor"))
        return &none;
    bool nnf = d->module && !strcmp(d->module, "torch.nn.functional");
    if (d->module && !strcmp(d->module, "torch.linalg")) {   /* its rows: "linalg_" + name */
        char k[64];
        snprintf(k, sizeof k, "linalg_%s", d->name);
        return bsearch(k, grad_rows, sizeof grad_rows / sizeof grad_rows[0], sizeof grad_rows[0], cmp_row);
    }
    if (d->module && strcmp(d->module, "torch") && !nnf) return NULL;
    const GradRow *g = bsearch(d->name, grad_rows, sizeof grad_rows / sizeof grad_rows[0], sizeof grad_rows[0], cmp_row);
    return nnf && g && g->kind != G_OWN ? NULL : g;   /* F's table rows: only those recording their own graph */
}

/* ------------------------------------------------------------ inputs */

#define MAXT TSR_AG_MAXIN

/* The tensors among v (a tensor, or a list/tuple of them) appended to ts. */
static void gather_tensors(Value *v, tsr_tensor **ts, int *n)
{
    if (!v) return;
    if (is_tensor(v)) {
        if (*n < MAXT * 2) ts[(*n)++] = tensor_of(v);
    } else if (v->type == &t_list || v->type == &t_tuple) {
        for (size_t k = 0; k < v->u.seq.n; k++)
            if (is_tensor(v->u.seq.items[k]) && *n < MAXT * 2) ts[(*n)++] = tensor_of(v->u.seq.items[k]);
    }
}

/* A Python number as the 0-dim tensor 1.13 wraps it into (bool / int64 /
 * float64 / complex128). NEW reference, or NULL with the exception. */
static tsr_tensor *wrap(Value *v)
{
    if (is_tensor(v)) return tsr_tensor_retain(tensor_of(v));
    tsr_scalar s;
    if (bind_scalar(v, "autograd", "other", &s) < 0) return NULL;
    tsr_dtype dt = v->type == &t_bool ? TSR_BOOL : v->type == &t_int ? TSR_INT64
                 : v->type == &t_complex ? TSR_COMPLEX128 : TSR_FLOAT64;
    tsr_tensor *t = tsr_full(0, NULL, s, dt, TSR_CPU);
    if (!t) bind_runtime_error();
    return t;
}

static bool arg_double(Value *v, double *out)
{
    if (!v || is_none(v)) return false;
    if (v->type == &t_float) *out = v->u.f;
    else if (v->type == &t_int || v->type == &t_bool) *out = (double)v->u.i;
    else if (is_tensor(v) && tsr_tensor_numel(tensor_of(v)) == 1) *out = tsr_tensor_get_double(tensor_of(v), NULL);
    else return false;
    return true;
}

static bool arg_int(Value *v, int64_t *out)
{
    if (!v || is_none(v)) return false;
    if (v->type == &t_int || v->type == &t_bool) *out = v->u.i;
    else if (is_tensor(v) && tsr_tensor_numel(tensor_of(v)) == 1) *out = tsr_tensor_get_int64(tensor_of(v), NULL);
    else return false;
    return true;
}

/* dims of a reduction: absent/None → all (ndims -1); an int or a list */
static void arg_dims(Value *v, tsr_ag_args *a)
{
    a->ndims = -1;
    if (!v || is_none(v)) return;
    if (v->type == &t_int) {
        a->ndims = 1;
        a->dims[0] = v->u.i;
        return;
    }
    if (v->type == &t_list || v->type == &t_tuple) {
        a->ndims = 0;
        for (size_t k = 0; k < v->u.seq.n && k < TSR_MAX_DIMS; k++)
            if (v->u.seq.items[k]->type == &t_int) a->dims[a->ndims++] = v->u.seq.items[k]->u.i;
        if (a->ndims == 0) a->ndims = -1;
    }
}

static bool arg_bool(const BindArgs *b, const char *name, bool dflt)
{
    Value *v = bind_table_arg(b, name);
    return v ? v->u.i != 0 : dflt;
}

/* Records key on out from inputs; -1 with the exception set. */
static int record(const char *key, int n, tsr_tensor *const *in, const tsr_ag_args *a, tsr_tensor *out, bool inplace)
{
    return tsr_ag_record(key, n, in, a, out, inplace) < 0 ? bind_runtime_errori() : 0;
}

static tsr_tensor *bin_plain(tsr_binop op, const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    return tsr_binary(op, &x, &y, NULL, NULL);
}

/* ------------------------------------------------------------ matmul */

/* x.reshape(sizes) as 1.13 records it: a view (ReshapeAliasBackward0), or
 * a copy (CloneBackward0, then UnsafeViewBackward0). NEW reference or NULL
 * with the exception. */
static tsr_tensor *reshape_graph(tsr_tensor *x, int nd, const int64_t *sizes)
{
    tsr_ag_args a = {0};
    tsr_tensor *r = tsr_reshape(x, nd, sizes);
    if (!r) {
        bind_runtime_error();
        return NULL;
    }
    if (r->storage == x->storage) {
        if (record("reshape_alias", 1, &x, &a, r, false) < 0) {
            tsr_tensor_release(r);
            return NULL;
        }
        return r;
    }
    tsr_tensor *c = tsr_view_alias(x);
    int rc = c ? record("clone", 1, &x, &a, c, false) : -1;
    if (rc == 0) rc = record("unsafe_view", 1, &c, &a, r, false);
    if (!c) bind_runtime_error();
    tsr_tensor_release(c);
    if (rc < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

/* a @ b as 1.13's matmul decomposes it for 1-D and 2-D operands; the
 * batched forms record one node over the whole product. NEW reference. */
static tsr_tensor *matmul_graph(tsr_tensor *a, tsr_tensor *b, tsr_tensor *r)
{
    tsr_tensor *in[2] = {a, b};
    tsr_ag_args args = {0};
    if (a->ndim == 2 && b->ndim == 2) return record("mm", 2, in, &args, r, false) < 0 ? NULL : tsr_tensor_retain(r);
    if (a->ndim == 1 && b->ndim == 1) return record("dot", 2, in, &args, r, false) < 0 ? NULL : tsr_tensor_retain(r);
    if (a->ndim == 2 && b->ndim == 1) return record("mv", 2, in, &args, r, false) < 0 ? NULL : tsr_tensor_retain(r);
    if (a->ndim == 1 && b->ndim == 2) {   /* a.unsqueeze(0).mm(b).squeeze_(0) */
        tsr_tensor *u = tsr_view_unsqueeze(a, 0), *m = NULL, *s = NULL;
        args.i0 = 0;
        if (!u || record("unsqueeze", 1, &a, &args, u, false) < 0) goto fail;
        tsr_tensor *mi[2] = {u, b};
        if (!(m = tsr_mm(u, b, NULL)) || record("mm", 2, mi, &args, m, false) < 0) goto fail;
        if (!(s = tsr_view_squeeze_dim(m, 0))) goto fail;
        tsr_tensor_unview(s);
        if (record("squeeze_mm", 1, &m, &args, s, false) < 0) goto fail;
        tsr_tensor_release(u);
        tsr_tensor_release(m);
        return s;
    fail:
        if (!exc_pending()) bind_runtime_error();
        tsr_tensor_release(u);
        tsr_tensor_release(m);
        tsr_tensor_release(s);
        return NULL;
    }
    if (a->ndim >= 3 && (b->ndim == 1 || b->ndim == 2)) {   /* fold a's batch into rows: mm / mv */
        int64_t rows = 1, k = a->sizes[a->ndim - 1];
        for (int i = 0; i < a->ndim - 1; i++) rows *= a->sizes[i];
        tsr_tensor *a2 = reshape_graph(a, 2, (int64_t[]){rows, k}), *m = NULL;
        if (!a2) return NULL;
        tsr_tensor *mi[2] = {a2, b};
        m = b->ndim == 2 ? tsr_mm(a2, b, NULL) : tsr_mv(a2, b, NULL);
        int rc = !m || record(b->ndim == 2 ? "mm" : "mv", 2, mi, &args, m, false) < 0 ||
                 record("unsafe_view", 1, &m, &args, r, false) < 0 ? -1 : 0;
        if (!m && !exc_pending()) bind_runtime_error();
        tsr_tensor_release(a2);
        tsr_tensor_release(m);
        return rc < 0 ? NULL : tsr_tensor_retain(r);
    }
    if (a->ndim == 3 && b->ndim == 3 && a->sizes[0] == b->sizes[0]) {   /* expand, reshape, bmm, _unsafe_view */
        tsr_tensor *e[2] = {0}, *f[2] = {0}, *m = NULL;
        int rc = 0;
        for (int i = 0; i < 2 && rc == 0; i++) {
            tsr_tensor *src = in[i];
            e[i] = tsr_view_expand(src, 3, src->sizes);
            if (!e[i] || record("expand", 1, &src, &args, e[i], false) < 0) rc = -1;
            else if (!(f[i] = reshape_graph(e[i], 3, e[i]->sizes))) rc = -1;
        }
        if (rc == 0) {
            m = tsr_bmm(f[0], f[1], NULL);
            if (!m || record("bmm", 2, f, &args, m, false) < 0 || record("unsafe_view", 1, &m, &args, r, false) < 0)
                rc = -1;
        }
        if (rc < 0 && !exc_pending()) bind_runtime_error();
        for (int i = 0; i < 2; i++) {
            tsr_tensor_release(e[i]);
            tsr_tensor_release(f[i]);
        }
        tsr_tensor_release(m);
        return rc < 0 ? NULL : tsr_tensor_retain(r);
    }
    tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for 'matmul' of %d-D and %d-D operands is not implemented.",
                  a->ndim, b->ndim);
    bind_runtime_error();
    return NULL;
}

/* outer(a, b) as 1.13 composes it: a.reshape(n, 1) * b (ReshapeAliasBackward0,
 * MulBackward0); r holds the values. NEW reference or NULL. */
static tsr_tensor *outer_graph(tsr_tensor *a, tsr_tensor *b, tsr_tensor *r)
{
    tsr_ag_args args = {0};
    tsr_tensor *a2 = reshape_graph(a, 2, (int64_t[]){a->ndim ? a->sizes[0] : 1, 1});
    if (!a2) return NULL;
    tsr_tensor *in[2] = {a2, b};
    int rc = record("mul", 2, in, &args, r, false);
    tsr_tensor_release(a2);
    return rc < 0 ? NULL : tsr_tensor_retain(r);
}

/* kron(a, b) as 1.13's KronImpl: _unsafe_view(a, [a0, 1, a1, 1, ...]) *
 * _unsafe_view(b, [1, b0, 1, b1, ...]), then _unsafe_view to the result's
 * shape; r holds the values. NEW reference or NULL. */
static tsr_tensor *kron_graph(tsr_tensor *a, tsr_tensor *b, tsr_tensor *r)
{
    tsr_ag_args args = {0};
    int nd = a->ndim > b->ndim ? a->ndim : b->ndim, pa = nd - a->ndim, pb = nd - b->ndim;
    if (2 * nd > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for 'kron' of %d-D operands is not implemented.", nd);
        bind_runtime_error();
        return NULL;
    }
    int64_t as[TSR_MAX_DIMS], bs[TSR_MAX_DIMS];
    for (int i = 0; i < nd; i++) {
        as[2 * i] = i >= pa ? a->sizes[i - pa] : 1;
        as[2 * i + 1] = 1;
        bs[2 * i] = 1;
        bs[2 * i + 1] = i >= pb ? b->sizes[i - pb] : 1;
    }
    tsr_tensor *av = tsr_reshape(a, 2 * nd, as), *bv = av ? tsr_reshape(b, 2 * nd, bs) : NULL, *m = NULL;
    int rc = av && bv ? 0 : -1;
    if (rc == 0) tsr_tensor_unview(av), tsr_tensor_unview(bv);
    if (rc == 0 && (record("unsafe_view", 1, &a, &args, av, false) < 0 ||
                    record("unsafe_view", 1, &b, &args, bv, false) < 0))
        rc = -1;
    tsr_tensor *mi[2] = {av, bv};
    if (rc == 0 && (!(m = bin_plain(TSR_BINOP_MUL, av, bv)) || record("mul", 2, mi, &args, m, false) < 0 ||
                    record("unsafe_view", 1, &m, &args, r, false) < 0))
        rc = -1;
    if (rc < 0 && !exc_pending()) bind_runtime_error();
    tsr_tensor_release(av);
    tsr_tensor_release(bv);
    tsr_tensor_release(m);
    return rc < 0 ? NULL : tsr_tensor_retain(r);
}

/* tensordot(a, b, dims1, dims2) as 1.13 composes it: a contracted dim of
 * size 1 against a larger one is summed first (SumBackward1), then
 * permute, reshape to (size1, csize) / (csize, size2), mm, reshape to the
 * result. NEW reference (replacing r's values) or NULL. */
static tsr_tensor *tensordot_graph(tsr_tensor *a, tsr_tensor *b, int n, const int64_t *d1_, const int64_t *d2_)
{
    tsr_ag_args args = {0};
    int64_t d1[TSR_MAX_DIMS], d2[TSR_MAX_DIMS];
    tsr_tensor *t[2] = {tsr_tensor_retain(a), tsr_tensor_retain(b)}, *p[2] = {0}, *m2[2] = {0}, *m = NULL, *res = NULL;
    for (int i = 0; i < n; i++) {
        d1[i] = d1_[i] < 0 ? d1_[i] + a->ndim : d1_[i];
        d2[i] = d2_[i] < 0 ? d2_[i] + b->ndim : d2_[i];
    }
    int64_t csize = 1;
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        int64_t s1 = a->sizes[d1[i]], s2 = b->sizes[d2[i]];
        int w = s2 == 1 ? 0 : s1 == 1 ? 1 : -1;
        if (w < 0) {
            csize *= s1;
            continue;
        }
        tsr_ag_args sa = {0};
        sa.ndims = 1;
        sa.dims[0] = w == 0 ? d1[i] : d2[i];
        sa.keepdim = true;
        tsr_dims dd = {.n = 1, .d = {sa.dims[0]}};
        tsr_tensor *sm = tsr_sum(t[w], &dd, true, TSR_DTYPE_UNDEFINED, NULL);
        if (!sm || record("sum_dim", 1, &t[w], &sa, sm, false) < 0) rc = -1;
        tsr_tensor_release(t[w]);
        t[w] = sm;
    }
    bool c1[TSR_MAX_DIMS] = {0}, c2[TSR_MAX_DIMS] = {0};
    for (int i = 0; i < n; i++) c1[d1[i]] = c2[d2[i]] = true;
    int64_t p1[TSR_MAX_DIMS], p2[TSR_MAX_DIMS], rs[TSR_MAX_DIMS], size1 = 1, size2 = 1;
    int k1 = 0, k2 = 0, kr = 0;
    for (int i = 0; i < a->ndim; i++)
        if (!c1[i]) p1[k1++] = i, size1 *= t[0]->sizes[i], rs[kr++] = t[0]->sizes[i];
    for (int i = 0; i < n; i++) p1[k1++] = d1[i];
    for (int i = 0; i < n; i++) p2[k2++] = d2[i];
    for (int i = 0; i < b->ndim; i++)
        if (!c2[i] && kr < TSR_MAX_DIMS) p2[k2++] = i, size2 *= t[1]->sizes[i], rs[kr++] = t[1]->sizes[i];
    for (int w = 0; w < 2 && rc == 0; w++) {
        tsr_ag_args pa = {0};
        pa.ndims = t[w]->ndim;
        memcpy(pa.dims, w ? p2 : p1, sizeof(int64_t) * (size_t)t[w]->ndim);
        p[w] = tsr_view_permute(t[w], t[w]->ndim, pa.dims);
        if (!p[w] || record("permute", 1, &t[w], &pa, p[w], false) < 0) { rc = -1; break; }
        int64_t sz[2] = {w ? csize : size1, w ? size2 : csize};
        if (!(m2[w] = reshape_graph(p[w], 2, sz))) rc = -1;
    }
    if (rc == 0 && (!(m = tsr_mm(m2[0], m2[1], NULL)) || record("mm", 2, m2, &args, m, false) < 0)) rc = -1;
    if (rc == 0 && !(res = reshape_graph(m, kr, rs))) rc = -1;
    if (rc < 0 && !exc_pending()) bind_runtime_error();
    for (int w = 0; w < 2; w++) {
        tsr_tensor_release(t[w]);
        tsr_tensor_release(p[w]);
        tsr_tensor_release(m2[w]);
    }
    tsr_tensor_release(m);
    return rc < 0 ? NULL : res;
}

/* ------------------------------------------------------------ rows */

static bool is_seq_result(Value *r)
{
    return r->type == &t_tuple || (r->type->module && !strcmp(r->type->module, "torch.return_types"));
}


/* The row's result r recorded (r is returned, or NULL with the error). */
static Value *record_row(const GradRow *g, const BindRow *d, BindArgs *b, Value *self, bool inplace, Value *r)
{
    const char *key = g->key ? g->key : g->row;
    tsr_ag_args a = {0};
    a.ndims = -1;
    tsr_tensor *in[MAXT] = {0}, *wrapped = NULL;
    int n = 1;
    Value *x = self ? self : b->v[0];
    if (g->kind != G_CAT && (!x || !is_tensor(x))) return r;
    in[0] = g->kind == G_CAT ? NULL : tensor_of(x);
    tsr_tensor *out = is_tensor(r) ? tensor_of(r) : NULL;
    size_t rl = strlen(g->row);
    if (rl > 3 && !strcmp(g->row + rl - 3, "_ex") && is_seq_result(r) && r->u.seq.n && is_tensor(r->u.seq.items[0]))
        out = tensor_of(r->u.seq.items[0]);   /* inv_ex, cholesky_ex, solve_ex: (result, info) */
    int rc = 0;
    switch (g->kind) {
    case G_NONE: case G_OWN: return r;
    case G_UNARY: break;
    case G_BINARY: case G_RSUB: case G_POW: {
        Value *o = bind_table_arg(b, !strcmp(g->row, "pow") ? "exponent" : "other");
        if (!o && !strcmp(g->row, "pow")) {   /* pow(Scalar self, Tensor exponent) */
            o = bind_table_arg(b, "exponent");
        }
        if (!o) return r;
        if (g->kind == G_POW && !is_tensor(o)) {
            if (!arg_double(o, &a.d0)) return r;
            key = "pow";
            break;
        }
        if (g->kind == G_POW) key = "pow_t";
        if (!(wrapped = wrap(o))) { decref(r); return NULL; }
        in[1] = wrapped;
        n = 2;
        if (g->kind == G_RSUB && !is_tensor(o)) {   /* rsub.Scalar: the number is no input */
            key = "rsub_s";
            n = 1;
        }
        a.has_d0 = arg_double(bind_table_arg(b, "alpha"), &a.d0);
        if (!strcmp(key, "div") && bind_table_arg(b, "rounding_mode")) key = "div_rounding";
        break;
    }
    case G_TENS2: {
        Value *o = b->v[1];
        if (!o || !is_tensor(o)) return r;
        in[1] = tensor_of(o);
        n = 2;
        break;
    }
    case G_ADDMM: {
        const char *n1 = "mat1", *n2 = "mat2";
        if (!strcmp(key, "addmv")) n1 = "mat", n2 = "vec";
        else if (!strcmp(key, "addr")) n1 = "vec1", n2 = "vec2";
        else if (strcmp(key, "addmm")) n1 = "batch1", n2 = "batch2";
        Value *m1 = bind_table_arg(b, n1), *m2 = bind_table_arg(b, n2);
        if (!m1 || !m2) return r;
        in[1] = tensor_of(m1);
        in[2] = tensor_of(m2);
        n = 3;
        a.d0 = 1.0;
        a.d1 = 1.0;
        arg_double(bind_table_arg(b, "beta"), &a.d0);
        arg_double(bind_table_arg(b, "alpha"), &a.d1);
        break;
    }
    case G_OUTER: case G_KRON: {
        Value *o = bind_table_arg(b, g->kind == G_OUTER ? "vec2" : "other");
        if (!o || !is_tensor(o) || !out) return r;
        tsr_tensor *m = g->kind == G_OUTER ? outer_graph(in[0], tensor_of(o), out) : kron_graph(in[0], tensor_of(o), out);
        decref(r);
        return m ? v_tensor(m) : NULL;
    }
    case G_CROSS: {
        Value *o = bind_table_arg(b, "other"), *dv = bind_table_arg(b, "dim");
        if (!o || !is_tensor(o)) return r;
        in[1] = tensor_of(o);
        n = 2;
        a.i0 = -1;
        if (!arg_int(dv, &a.i0) && strcmp(g->row, "linalg_cross")) {   /* torch.cross: the first dim of size 3 */
            for (int i = 0; i < in[0]->ndim; i++)
                if (in[0]->sizes[i] == 3) { a.i0 = i; break; }
        }
        break;
    }
    case G_SOLVE: {
        Value *o = bind_table_arg(b, "B");
        if (!o || !is_tensor(o)) return r;
        in[1] = tensor_of(o);
        n = 2;
        a.flag = arg_bool(b, "left", true);
        break;
    }
    case G_TENSORDOT: {
        Value *o = b->v[1];
        int64_t d1[TSR_MAX_DIMS + 1], d2[TSR_MAX_DIMS + 1];
        int n1 = 0, n2 = 0;
        if (!o || !is_tensor(o) || !out) return r;
        if (bind_table_intlist(b, 2, "tensordot", d1, TSR_MAX_DIMS + 1, &n1) < 0 ||
            bind_table_intlist(b, 3, "tensordot", d2, TSR_MAX_DIMS + 1, &n2) < 0) {
            decref(r);
            return NULL;
        }
        tsr_tensor *m = n1 == n2 ? tensordot_graph(in[0], tensor_of(o), n1, d1, d2) : NULL;
        decref(r);
        return m ? v_tensor(m) : NULL;
    }
    case G_CDIST: {
        Value *o = b->v[1];
        if (!o || !is_tensor(o) || !out) return r;
        in[1] = tensor_of(o);
        n = 2;
        a.d0 = 2.0;
        arg_double(bind_table_arg(b, "p"), &a.d0);
        int64_t mode = 0;
        arg_int(bind_table_arg(b, "compute_mode"), &mode);
        int64_t r1 = in[0]->ndim >= 2 ? in[0]->sizes[in[0]->ndim - 2] : 0, r2 = in[1]->ndim >= 2 ? in[1]->sizes[in[1]->ndim - 2] : 0;
        if (tsr_tensor_numel(in[0]) && tsr_tensor_numel(in[1]) && a.d0 == 2.0 && (mode == 1 || (mode == 0 && (r1 > 25 || r2 > 25)))) {
            /* 1.13's _euclidean_dist composition (mm over padded operands) */
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for 'cdist' by matrix multiplication (p=2 with more "
                          "than 25 rows, or compute_mode='use_mm_for_euclid_dist') is not implemented.");
            decref(r);
            return bind_runtime_error();
        }
        break;
    }
    case G_UPLO: {
        Value *u = bind_table_arg(b, "UPLO");
        a.flag = u && u->type == &t_str && !strcmp(u->u.s.p, "U");
        break;
    }
    case G_CHOL: a.flag = arg_bool(b, "upper", false); break;
    case G_SLOGDET:
        if (!is_seq_result(r) || r->u.seq.n < 2 || !is_tensor(r->u.seq.items[1])) return r;
        out = tensor_of(r->u.seq.items[1]);
        break;
    case G_LOGDET: {   /* 1.13: sign, logabsdet = linalg_slogdet(A); where(sign == -1, nan, logabsdet) */
        if (!out) return r;
        if (tsr_dtype_is_complex(in[0]->dtype)) {
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for 'logdet' of a complex input is not implemented.");
            decref(r);
            return bind_runtime_error();
        }
        tsr_tensor *sg = NULL, *lad = NULL, *cond = NULL, *nan = NULL;
        rc = tsr_linalg_slogdet(in[0], &sg, &lad);
        if (rc == 0) rc = record("linalg_slogdet", 1, in, &a, lad, false);
        if (rc == 0) {
            tsr_operand x = tsr_operand_tensor(sg), m1 = tsr_operand_scalar(tsr_scalar_float(-1.0));
            cond = tsr_compare(TSR_CMP_EQ, &x, &m1, NULL);
            nan = tsr_full(0, NULL, tsr_scalar_float(NAN), TSR_FLOAT64, TSR_CPU);
            tsr_tensor *wi[3] = {cond, nan, lad};
            rc = cond && nan ? record("where", 3, wi, &a, out, false) : -1;
        }
        if (rc < 0 && !exc_pending()) bind_runtime_error();
        tsr_tensor_release(sg);
        tsr_tensor_release(lad);
        tsr_tensor_release(cond);
        tsr_tensor_release(nan);
        if (rc < 0) { decref(r); return NULL; }
        return r;
    }
    case G_REDUCE: case G_PROD: {
        Value *dv = bind_table_arg(b, "dim");
        arg_dims(dv, &a);
        a.keepdim = arg_bool(b, "keepdim", false);
        if ((!strcmp(key, "sum") || !strcmp(key, "mean")) && dv) key = !strcmp(key, "sum") ? "sum_dim" : "mean_dim";
        if (g->kind == G_PROD && dv) key = "prod_dim";
        if ((!strcmp(key, "amax") || !strcmp(key, "amin")) && a.ndims < 0) a.ndims = -1;
        break;
    }
    case G_MAXMIN: {
        Value *o = bind_table_arg(b, "other"), *dv = bind_table_arg(b, "dim");
        bool is_max = !strcmp(g->row, "max");
        if (o && is_tensor(o)) {
            in[1] = tensor_of(o);
            n = 2;
            key = is_max ? "maximum" : "minimum";
            break;
        }
        if (!dv) break;
        /* max(dim): (values, indices) */
        if (!is_seq_result(r) || r->u.seq.n < 2 || !is_tensor(r->u.seq.items[0])) return r;
        if (!arg_int(dv, &a.i0)) return r;
        a.keepdim = arg_bool(b, "keepdim", false);
        if (a.i0 < 0) a.i0 += in[0]->ndim;
        out = tensor_of(r->u.seq.items[0]);
        key = is_max ? "max_dim" : "min_dim";
        if (record(key, 1, in, &a, out, false) < 0 ||
            tsr_ag_keep(out, tensor_of(r->u.seq.items[1])) < 0) {
            if (!exc_pending()) bind_runtime_error();
            decref(r);
            return NULL;
        }
        return r;
    }
    case G_SORT: {
        if (!is_seq_result(r) || r->u.seq.n < 2 || !is_tensor(r->u.seq.items[0])) return r;
        a.i0 = -1;
        arg_int(bind_table_arg(b, "dim"), &a.i0);
        if (a.i0 < 0) a.i0 += in[0]->ndim;
        out = tensor_of(r->u.seq.items[0]);
        if (record(key, 1, in, &a, out, false) < 0 || tsr_ag_keep(out, tensor_of(r->u.seq.items[1])) < 0) {
            if (!exc_pending()) bind_runtime_error();
            decref(r);
            return NULL;
        }
        return r;
    }
    case G_MASKED: {
        Value *m = bind_table_arg(b, "mask"), *v = bind_table_arg(b, "value");
        if (!m || !is_tensor(m)) return r;
        if (v && is_tensor(v)) key = "masked_fill_tensor";
        in[1] = tensor_of(m);
        n = 2;
        break;
    }
    case G_REPEAT: {
        Value *rv = bind_table_arg(b, "repeats");
        if (!rv && b->varargs) rv = b->varargs;
        if (!rv || (rv->type != &t_list && rv->type != &t_tuple && !(rv->type->module && !strcmp(rv->type->name, "Size"))))
            return r;
        a.ndims = 0;
        for (size_t k = 0; k < rv->u.seq.n && k < TSR_MAX_DIMS; k++) arg_int(rv->u.seq.items[k], &a.dims[a.ndims++]);
        break;
    }
    case G_VAR: {
        arg_dims(bind_table_arg(b, "dim"), &a);
        a.keepdim = arg_bool(b, "keepdim", false);
        a.i0 = arg_bool(b, "unbiased", true) ? 1 : 0;
        arg_int(bind_table_arg(b, "correction"), &a.i0);
        break;
    }
    case G_NORM: {
        Value *p = bind_table_arg(b, "p");
        a.d0 = 2.0;
        if (p && p->type == &t_str && strcmp(p->u.s.p, "fro")) break;   /* 'nuc': no formula */
        if (p && p->type != &t_str && !arg_double(p, &a.d0)) return r;
        if (a.d0 != 2.0 && a.d0 != 1.0) key = "norm_p";
        arg_dims(bind_table_arg(b, "dim"), &a);
        a.keepdim = arg_bool(b, "keepdim", false);
        if ((!p || p->type == &t_str) && a.ndims == 2 && out) {   /* frobenius_norm: sqrt(sum(x * x, dim)) */
            tsr_tensor *xx[2] = {in[0], in[0]}, *m = bin_plain(TSR_BINOP_MUL, in[0], in[0]), *sm = NULL;
            tsr_dims dd = {.n = 2, .d = {a.dims[0], a.dims[1]}};
            rc = !m || record("mul", 2, xx, &a, m, false) < 0 ? -1 : 0;
            if (rc == 0 && !(sm = tsr_sum(m, &dd, a.keepdim, TSR_DTYPE_UNDEFINED, NULL))) rc = -1;
            if (rc == 0 && record("sum_dim", 1, &m, &a, sm, false) < 0) rc = -1;
            if (rc == 0 && record("sqrt", 1, &sm, &a, out, false) < 0) rc = -1;
            if (rc < 0 && !exc_pending()) bind_runtime_error();
            tsr_tensor_release(m);
            tsr_tensor_release(sm);
            if (rc < 0) { decref(r); return NULL; }
            return r;
        }
        break;
    }
    case G_DIM:
        if (!arg_int(bind_table_arg(b, "dim"), &a.i0)) return r;
        if (a.i0 < 0) a.i0 += in[0]->ndim + (!strcmp(key, "unsqueeze") ? 1 : 0);
        if (in[0]->ndim == 0 && strcmp(key, "unsqueeze")) a.i0 = 0;
        break;
    case G_CLAMP: {
        Value *lo = bind_table_arg(b, "min"), *hi = bind_table_arg(b, "max");
        if ((lo && is_tensor(lo)) || (hi && is_tensor(hi))) key = "clamp_tensor";
        a.has_d0 = arg_double(lo, &a.d0);
        a.has_d1 = arg_double(hi, &a.d1);
        break;
    }
    case G_WHERE: {
        Value *c = bind_table_arg(b, "condition"), *s = bind_table_arg(b, "input"), *o = bind_table_arg(b, "other");
        if (!s) s = bind_table_arg(b, "self");
        if (!s) s = self;
        if (!c || !s || !o) return r;
        in[0] = tensor_of(c);
        in[1] = is_tensor(s) ? tensor_of(s) : NULL;
        if (!in[1] && !(in[1] = wrapped = wrap(s))) { decref(r); return NULL; }
        if (is_tensor(o)) in[2] = tensor_of(o);
        else {
            tsr_tensor *w2 = wrap(o);
            if (!w2) { decref(r); tsr_tensor_release(wrapped); return NULL; }
            in[2] = w2;
            rc = record("where", 3, in, &a, out, false);
            tsr_tensor_release(w2);
            tsr_tensor_release(wrapped);
            if (rc < 0) { decref(r); return NULL; }
            return r;
        }
        n = 3;
        break;
    }
    case G_VIEW: key = "view"; break;
    case G_RESHAPE:
        if (out == in[0]) return r;
        if (out && out->storage == in[0]->storage) key = "reshape_alias";
        else if (out) {   /* a copy: CloneBackward0, then _unsafe_view */
            tsr_tensor *c = tsr_view_alias(in[0]);
            if (!c) { decref(r); return bind_runtime_error(); }
            tsr_tensor_unview(c);
            rc = record("clone", 1, in, &a, c, false);
            if (rc == 0) rc = record("unsafe_view", 1, &c, &a, out, false);
            tsr_tensor_release(c);
            if (rc < 0) { decref(r); return NULL; }
            return r;
        }
        break;
    case G_TRANSPOSE: {
        Value *d0 = b->v[1], *d1 = b->v[2];
        if (!arg_int(d0, &a.i0) || !arg_int(d1, &a.i1)) return r;
        break;
    }
    case G_PERMUTE: {
        for (int i = 0; i < in[0]->ndim; i++) a.dims[i] = i;
        a.ndims = in[0]->ndim;
        /* the permutation is the one the result's strides show */
        if (out)
            for (int i = 0; i < out->ndim; i++)
                for (int j = 0; j < in[0]->ndim; j++)
                    if (out->strides[i] == in[0]->strides[j] && out->sizes[i] == in[0]->sizes[j]) {
                        bool used = false;
                        for (int k = 0; k < i; k++) used |= a.dims[k] == j && k != i;
                        if (!used) { a.dims[i] = j; break; }
                    }
        Value *dv = bind_table_arg(b, "dims");
        if (dv && (dv->type == &t_list || dv->type == &t_tuple)) {
            for (size_t k = 0; k < dv->u.seq.n && (int)k < in[0]->ndim; k++)
                if (dv->u.seq.items[k]->type == &t_int) a.dims[k] = dv->u.seq.items[k]->u.i;
        } else if (b->varargs) {
            for (size_t k = 0; k < b->varargs->u.seq.n && (int)k < in[0]->ndim; k++)
                if (b->varargs->u.seq.items[k]->type == &t_int) a.dims[k] = b->varargs->u.seq.items[k]->u.i;
        }
        break;
    }
    case G_EXPAND: break;
    case G_SQUEEZE: {
        Value *dv = bind_table_arg(b, "dim");
        key = dv ? "squeeze_dim" : "squeeze";
        break;
    }
    case G_SELECT:
        if (!arg_int(bind_table_arg(b, "dim"), &a.i0) || !arg_int(bind_table_arg(b, "index"), &a.i1)) return r;
        if (a.i0 < 0) a.i0 += in[0]->ndim;
        if (a.i1 < 0) a.i1 += in[0]->sizes[a.i0];
        a.i2 = 0;
        break;
    case G_NARROW: {
        int64_t len;
        if (!arg_int(bind_table_arg(b, "dim"), &a.i0) || !arg_int(bind_table_arg(b, "start"), &a.i1) ||
            !arg_int(bind_table_arg(b, "length"), &len))
            return r;
        if (a.i0 < 0) a.i0 += in[0]->ndim;
        if (a.i1 < 0) a.i1 += in[0]->sizes[a.i0];
        a.i2 = 1;
        a.dims[0] = a.i1 + len;
        a.dims[1] = 1;
        break;
    }
    case G_CAT: {
        Value *ts = bind_table_arg(b, "tensors");
        if (!ts) return r;
        n = 0;
        tsr_tensor *all[MAXT * 2];
        gather_tensors(ts, all, &n);
        if (n > MAXT) {
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for '%s' of more than %d tensors is not implemented.",
                          key, MAXT);
            decref(r);
            return bind_runtime_error();
        }
        for (int i = 0; i < n; i++) in[i] = all[i];
        Value *dv = bind_table_arg(b, "dim");
        a.i0 = 0;
        if (dv) arg_int(dv, &a.i0);
        int nd = n ? in[0]->ndim : 0;
        if (!strcmp(key, "stack")) nd++;
        else
            for (int i = 0; i < n; i++)
                if (in[i]->ndim > 1 || (in[i]->ndim == 1 && in[i]->sizes[0])) { nd = in[i]->ndim; break; }
        if (a.i0 < 0) a.i0 += nd;
        break;
    }
    case G_GATHER: {
        Value *ix = bind_table_arg(b, "index");
        if (!ix || !is_tensor(ix) || !arg_int(bind_table_arg(b, "dim"), &a.i0)) return r;
        in[1] = tensor_of(ix);
        n = 2;
        if (a.i0 < 0) a.i0 += in[0]->ndim;
        if (in[0]->ndim == 0) a.i0 = 0;
        break;
    }
    case G_FLIP: {
        Value *dv = bind_table_arg(b, "dims");
        arg_dims(dv, &a);
        if (a.ndims < 0) a.ndims = 0;
        break;
    }
    case G_MATMUL: {
        Value *o = bind_table_arg(b, "other");
        if (!o || !is_tensor(o) || !out) return r;
        tsr_tensor *m = matmul_graph(in[0], tensor_of(o), out);
        decref(r);
        return m ? v_tensor(m) : NULL;
    }
    case G_CAST:
        if (out == in[0]) return r;
        key = "to_copy";
        break;
    case G_CONTIG:
        if (out == in[0]) return r;
        key = "clone";
        break;
    }
    if (!out) {
        tsr_tensor_release(wrapped);
        return r;
    }
    if (!inplace && out == in[0]) {   /* the op returned its input (x.float() of a float x) */
        tsr_tensor_release(wrapped);
        return r;
    }
    rc = record(key, n, in, &a, out, inplace);
    tsr_tensor_release(wrapped);
    if (rc < 0) {
        decref(r);
        return NULL;
    }
    return r;
}

static bool is_float_result(Value *r)
{
    if (is_tensor(r)) {
        tsr_dtype dt = tensor_of(r)->dtype;
        return tsr_dtype_is_floating(dt) || tsr_dtype_is_complex(dt);
    }
    if (is_seq_result(r) && r->u.seq.n && is_tensor(r->u.seq.items[0])) return is_float_result(r->u.seq.items[0]);
    return false;
}

/* The ATen op whose out= autograd kernel refuses, where 1.13's row reaches
 * one of another name (its python_arg_parser name: the aten op). Sorted. */
static const char *const out_op_names[][2] = {
    {"linalg_cross", "linalg_cross"}, {"linalg_det", "_linalg_det"},
    {"linalg_householder_product", "linalg_householder_product"}, {"linalg_inv", "linalg_inv_ex"},
    {"linalg_multi_dot", "mm"},
    {"linalg_pinv", "linalg_pinv"}, {"linalg_solve", "_linalg_solve_ex"}, {"linalg_vector_norm", "linalg_vector_norm"},
    {"orgqr", "linalg_householder_product"}, {"special_erf", "erf"}, {"special_expit", "sigmoid"},
};

static int cmp_out_op(const void *k, const void *e) { return strcmp(k, ((const char *const *)e)[0]); }

Value *bind_grad_call(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace, BindHandler call)
{
    size_t fl = strlen(fname);
    bool writes_self = self && is_tensor(self) && (inplace || (fl && fname[fl - 1] == '_'));
    Value *outv = b->v[BIND_OUT];
    bool has_out = outv && !is_none(outv);
    tsr_tensor *ins[MAXT * 2];
    int nin = 0;
    if (self) gather_tensors(self, ins, &nin);
    for (int i = 0; i < BIND_OUT; i++)
        if (b->v[i] != self) gather_tensors(b->v[i], ins, &nin);
    const GradRow *g = grad_row(d);
    bool sparse_step = bind_sparse_row(d) || bind_sparse_args(b, self);   /* it records or refuses itself */
    bool needed = tsr_ag_needed(nin, ins) && !(g && (g->kind == G_NONE || g->kind == G_OWN)) && !sparse_step;
    if (!needed) {
        if (sparse_step && writes_self && tsr_ag_needed(nin, ins) && tsr_ag_check_inplace(tensor_of(self)) < 0)
            return bind_runtime_error();
        Value *r = call(d, fname, b, self, inplace);
        if (r && writes_self) tsr_tensor_bump_version(tensor_of(self));
        if (r && has_out && is_tensor(outv)) tsr_tensor_bump_version(tensor_of(outv));
        return r;
    }
    if (has_out) {
        const char *const *on = bsearch(d->pname, out_op_names, sizeof out_op_names / sizeof out_op_names[0],
                                         sizeof out_op_names[0], cmp_out_op);
        return exc_set("RuntimeError", "%s(): functions with out=... arguments don't support automatic "
                       "differentiation, but one of the arguments requires grad.", on ? on[1] : d->name);
    }
    if (writes_self && tsr_ag_check_inplace(tensor_of(self)) < 0) return bind_runtime_error();
    if (writes_self) {   /* self before the op, for a formula that needs it */
        tsr_tensor *old = tsr_clone(tensor_of(self), TSR_MF_PRESERVE);
        if (!old) return bind_runtime_error();
        tsr_ag_inplace_old(old);
        tsr_tensor_release(old);
    }
    /* the handler may replace b's values (the conj fallback): keep the originals */
    BindArgs keep = *b;
    for (int i = 0; i < BIND_MAXP; i++)
        if (keep.v[i]) incref(keep.v[i]);
    if (keep.varargs) incref(keep.varargs);
    Value *r = call(d, fname, b, self, inplace);
    if (r && writes_self) tsr_tensor_bump_version(tensor_of(self));
    if (r && is_float_result(r)) {
        if (g) r = record_row(g, d, &keep, self, writes_self, r);
        else if (!(is_tensor(r) && self && tensor_of(r) == tensor_of(self) && !writes_self)) {
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for '%s' is not implemented.", d->name);
            decref(r);
            r = bind_runtime_error();
        }
    }
    tsr_ag_inplace_old(NULL);
    for (int i = 0; i < BIND_MAXP; i++)
        if (keep.v[i]) decref(keep.v[i]);
    if (keep.varargs) decref(keep.varargs);
    return r;
}

/* ------------------------------------------------------------ operators and indexing */

Value *bind_grad_operator(const char *key, Value *x, Value *y, Value *r, bool inplace)
{
    if (!r) return NULL;
    if (inplace && is_tensor(x)) tsr_tensor_bump_version(tensor_of(x));
    tsr_tensor *ts[2];
    int nt = 0;
    if (x) gather_tensors(x, ts, &nt);
    if (y) gather_tensors(y, ts, &nt);
    if (!tsr_ag_needed(nt, ts) || !is_tensor(r) || !is_float_result(r)) return r;
    tsr_tensor *out = tensor_of(r);
    if (!strcmp(key, "matmul")) {
        tsr_tensor *m = matmul_graph(tensor_of(x), tensor_of(y), out);
        decref(r);
        return m ? v_tensor(m) : NULL;
    }
    tsr_ag_args a = {0};
    tsr_tensor *in[2] = {0}, *w0 = NULL, *w1 = NULL;
    int n = 1;
    if (!(w0 = wrap(x))) { decref(r); return NULL; }
    in[0] = w0;
    if (y) {
        if (!(w1 = wrap(y))) { decref(r); tsr_tensor_release(w0); return NULL; }
        in[1] = w1;
        n = 2;
    }
    if (!strcmp(key, "pow") && y && !is_tensor(y)) {   /* x ** number: PowBackward0 */
        arg_double(y, &a.d0);
        n = 1;
    } else if (!strcmp(key, "pow")) {
        key = "pow_t";
    } else if (!strcmp(key, "rsub") && !is_tensor(y)) {
        key = "rsub_s";
        n = 1;
    }
    int rc = record(key, n, in, &a, out, inplace);
    tsr_tensor_release(w0);
    tsr_tensor_release(w1);
    if (rc < 0) {
        decref(r);
        return NULL;
    }
    return r;
}


