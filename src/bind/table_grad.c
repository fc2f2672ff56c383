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
#include "ops/join.h"
#include "ops/rearrange.h"
#include "ops/compare.h"
#include "ops/grad_index2.h"
#include "ops/linalg.h"
#include "ops/reduce.h"
#include "ops/unary.h"
#include "ops/viewcopy.h"
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
    G_SOLVETRI,   /* linalg.solve_triangular(A, B, upper, left, unitriangular) */
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
    G_DIAGONAL,   /* diagonal(offset, dim1, dim2) */
    G_TRIL,       /* tril / triu / diag(diagonal) */
    G_MOVEDIM,    /* movedim / moveaxis(source, destination): PermuteBackward0 */
    G_ROLL,       /* roll(shifts, dims) */
    G_ROT90,      /* rot90(k, dims) */
    G_RINTERLEAVE, /* repeat_interleave: flatten (without dim), then index_select by repeat_interleave(repeats) */
    G_SPLIT,      /* split / split_with_sizes / chunk / unbind: one multi-output node over the pieces */
    G_TSPLIT,     /* tensor_split / hsplit / vsplit / dsplit: 1.13 slices, one SliceBackward0 per piece */
    G_DIFF,       /* diff: 1.13's composite (cat of prepend/append, then narrow - narrow n times) */
    G_UNFOLD,     /* unfold(dimension, size, step) */
    G_INDEXOP,    /* index_add / index_fill / scatter / scatter_add / take / put / masked_scatter: the index
                     (mask) is kept on the node, not an input */
    G_LERP,       /* lerp(input, end, weight): a number weight → LerpBackward0, a tensor → LerpBackward1 */
    G_ADDC,       /* addcmul / addcdiv(input, tensor1, tensor2, value) */
    G_EPS,        /* logit(input, eps) */
    G_POLYGAMMA,  /* polygamma(n, input) / input.polygamma(n) */
    G_VARMEAN,    /* var_mean / std_mean: (var or std, mean), one node with two outputs */
    G_PNORM,      /* dist(input, other, p) / renorm(input, p, dim, maxnorm) */
    G_VALIDX,     /* (values, indices) along dim: median / nanmedian / mode / kthvalue / cummax / cummin */
    G_PART,       /* real / imag of a complex input: select(view_as_real(input), -1, 0 or 1) */
    G_VNORM,      /* linalg.vector_norm(x, ord, dim, keepdim): norm_backward */
    G_LNORM,      /* linalg.norm: its vector norms and 'fro' are vector_norm; the matrix norms refuse */
    G_MASKSEL,    /* masked_select(input, mask): the mask kept on the node */
    G_DIAGEMB,    /* diag_embed(offset, dim1, dim2): dims of the result */
    G_DECOMP,     /* qr / svd / eigh / eig / eigvals: one multi-output node keeping the outputs */
    G_IDXPUT,     /* index_put(input, indices, values, accumulate) / index_put_: IndexPutBackward0 */
    G_FILL,       /* fill / fill_(input, value): a tensor value is input 1 (FillBackward1 / 3), a number none */
    G_MNORM,      /* linalg.matrix_norm(A, ord, dim, keepdim): 1.13's composite graph (record_matrix_norm) */
} GKind;

typedef struct {
    const char *row;
    GKind kind;
    const char *key;   /* the formula; NULL: the row's name */
} GradRow;

/* Sorted by row (bsearch). */
static const GradRow grad_rows[] = {
    {"abs", G_UNARY, NULL}, {"absolute", G_UNARY, "abs"}, {"acos", G_UNARY, NULL}, {"acosh", G_UNARY, NULL}, {"adaptive_max_pool1d", G_OWN, NULL},
    {"add", G_BINARY, NULL}, {"addbmm", G_ADDMM, NULL}, {"addcdiv", G_ADDC, NULL}, {"addcmul", G_ADDC, NULL},
    {"addmm", G_ADDMM, NULL}, {"addmv", G_ADDMM, NULL}, {"addr", G_ADDMM, NULL}, {"adjoint", G_OWN, NULL},
    {"affine_grid_generator", G_OWN, NULL}, {"alias_copy", G_OWN, NULL}, {"amax", G_REDUCE, NULL},
    {"amin", G_REDUCE, NULL}, {"angle", G_UNARY, NULL}, {"arccos", G_UNARY, "acos"}, {"arccosh", G_UNARY, "acosh"},
    {"arcsin", G_UNARY, "asin"}, {"arcsinh", G_UNARY, "asinh"}, {"arctan", G_UNARY, "atan"},
    {"arctan2", G_BINARY, "atan2"}, {"arctanh", G_UNARY, "atanh"}, {"as_strided_copy", G_OWN, NULL}, {"asin", G_UNARY, NULL}, {"asinh", G_UNARY, NULL},
    {"atan", G_UNARY, NULL}, {"atan2", G_BINARY, NULL}, {"atanh", G_UNARY, NULL}, {"backward", G_NONE, NULL},
    {"baddbmm", G_ADDMM, NULL}, {"batch_norm", G_OWN, NULL}, {"bfloat16", G_CAST, NULL}, {"binary_cross_entropy_with_logits", G_OWN, NULL}, {"binomial", G_TENS2, NULL}, {"bmm", G_TENS2, NULL}, {"cat", G_CAT, NULL},
    {"cdist", G_CDIST, NULL}, {"ceil", G_UNARY, NULL}, {"celu", G_OWN, NULL}, {"channel_shuffle", G_OWN, NULL}, {"cholesky", G_CHOL, NULL},
    {"chunk", G_SPLIT, "split"}, {"clamp", G_CLAMP, NULL}, {"clamp_max", G_CLAMP, "clamp_max"},
    {"clamp_min", G_CLAMP, "clamp_min"}, {"clip", G_CLAMP, "clamp"}, {"clone", G_UNARY, NULL},
    {"concat", G_CAT, "cat"}, {"conj", G_UNARY, NULL}, {"conj_physical", G_UNARY, NULL}, {"constant_pad_nd", G_OWN, NULL}, {"contiguous", G_CONTIG, NULL},
    {"conv1d", G_OWN, NULL}, {"conv2d", G_OWN, NULL}, {"conv3d", G_OWN, NULL}, {"conv_tbc", G_OWN, NULL},
    {"conv_transpose1d", G_OWN, NULL},
    {"conv_transpose2d", G_OWN, NULL}, {"conv_transpose3d", G_OWN, NULL}, {"convolution", G_OWN, NULL}, {"copysign", G_BINARY, NULL}, {"cos", G_UNARY, NULL}, {"cosh", G_UNARY, NULL},
    {"cpu", G_CAST, NULL}, {"cross", G_CROSS, "linalg_cross"}, {"ctc_loss", G_OWN, NULL}, {"cuda", G_CAST, NULL}, {"cummax", G_VALIDX, NULL},
    {"cummin", G_VALIDX, NULL}, {"cumprod", G_DIM, NULL}, {"cumsum", G_DIM, NULL}, {"deg2rad", G_UNARY, NULL},
    {"det", G_UNARY, "linalg_det"}, {"detach", G_NONE, NULL}, {"detach_", G_NONE, NULL}, {"detach_copy", G_OWN, NULL}, {"diag", G_TRIL, NULL}, {"diag_embed", G_DIAGEMB, NULL},
    {"diagonal", G_DIAGONAL, NULL}, {"diagonal_copy", G_OWN, NULL}, {"diff", G_DIFF, NULL}, {"digamma", G_UNARY, NULL}, {"dist", G_PNORM, NULL},
    {"div", G_BINARY, NULL}, {"divide", G_BINARY, "div"}, {"dot", G_TENS2, NULL}, {"double", G_CAST, NULL},
    {"dsplit", G_TSPLIT, NULL}, {"einsum", G_OWN, NULL}, {"embedding", G_OWN, NULL}, {"embedding_bag", G_OWN, NULL}, {"erf", G_UNARY, NULL}, {"erfc", G_UNARY, NULL}, {"erfinv", G_UNARY, NULL},
    {"exp", G_UNARY, NULL}, {"exp2", G_UNARY, NULL}, {"expand", G_EXPAND, NULL}, {"expand_as", G_EXPAND, "expand"}, {"expand_copy", G_OWN, NULL},
    {"expm1", G_UNARY, NULL}, {"fill", G_FILL, NULL}, {"fill_", G_FILL, NULL}, {"fill_diagonal_", G_OWN, NULL}, {"fix", G_UNARY, "trunc"}, {"flatten", G_RESHAPE, NULL}, {"flip", G_FLIP, NULL},
    {"float", G_CAST, NULL}, {"floor", G_UNARY, NULL}, {"fmax", G_BINARY, NULL}, {"fmin", G_BINARY, NULL},
    {"fmod", G_BINARY, NULL}, {"frac", G_UNARY, NULL}, {"frobenius_norm", G_OWN, NULL}, {"gather", G_GATHER, NULL}, {"ger", G_OUTER, "outer"},
    {"glu", G_OWN, NULL}, {"grid_sampler", G_OWN, NULL}, {"group_norm", G_OWN, NULL}, {"half", G_CAST, NULL}, {"hardshrink", G_OWN, NULL}, {"hsplit", G_TSPLIT, NULL},
    {"hypot", G_BINARY, NULL}, {"i0", G_UNARY, NULL}, {"imag", G_PART, NULL}, {"index_add", G_INDEXOP, NULL},
    {"index_fill", G_INDEXOP, NULL}, {"index_put", G_IDXPUT, NULL}, {"index_select", G_GATHER, NULL}, {"indices_copy", G_OWN, NULL}, {"instance_norm", G_OWN, NULL}, {"inverse", G_UNARY, "linalg_inv"}, {"kl_div", G_OWN, NULL},
    {"kron", G_KRON, NULL}, {"kthvalue", G_VALIDX, NULL}, {"layer_norm", G_OWN, NULL}, {"lerp", G_LERP, NULL}, {"lgamma", G_UNARY, NULL},
    {"linalg_cholesky", G_CHOL, NULL}, {"linalg_cholesky_ex", G_CHOL, "linalg_cholesky"},
    {"linalg_cross", G_CROSS, NULL}, {"linalg_det", G_UNARY, NULL}, {"linalg_eig", G_DECOMP, NULL},
    {"linalg_eigh", G_DECOMP, NULL}, {"linalg_eigvals", G_DECOMP, "linalg_eig"}, {"linalg_eigvalsh", G_UPLO, NULL},
    {"linalg_inv", G_UNARY, NULL}, {"linalg_inv_ex", G_UNARY, "linalg_inv"}, {"linalg_matrix_exp", G_UNARY, NULL}, {"linalg_matrix_norm", G_MNORM, NULL}, {"linalg_norm", G_LNORM, "vector_norm"},
    {"linalg_pinv", G_UNARY, NULL}, {"linalg_qr", G_DECOMP, NULL}, {"linalg_slogdet", G_SLOGDET, NULL}, {"linalg_solve", G_SOLVE, NULL},
    {"linalg_solve_ex", G_SOLVE, "linalg_solve"}, {"linalg_solve_triangular", G_SOLVETRI, NULL}, {"linalg_svd", G_DECOMP, NULL}, {"linalg_svdvals", G_UNARY, NULL}, {"linalg_vector_norm", G_VNORM, "vector_norm"}, {"log", G_UNARY, NULL},
    {"log10", G_UNARY, NULL}, {"log1p", G_UNARY, NULL}, {"log2", G_UNARY, NULL}, {"log_softmax", G_DIM, NULL},
    {"logaddexp", G_TENS2, NULL}, {"logaddexp2", G_TENS2, NULL}, {"logcumsumexp", G_DIM, NULL},
    {"logdet", G_LOGDET, NULL}, {"logit", G_EPS, NULL}, {"logsumexp", G_REDUCE, NULL},
    {"masked_fill", G_MASKED, NULL}, {"masked_scatter", G_INDEXOP, NULL}, {"masked_select", G_MASKSEL, NULL}, {"matmul", G_MATMUL, NULL},
    {"matrix_exp", G_UNARY, "linalg_matrix_exp"}, {"max", G_MAXMIN, NULL}, {"max_pool1d_with_indices", G_OWN, NULL}, {"max_pool3d", G_OWN, NULL}, {"maximum", G_BINARY, NULL},
    {"mean", G_REDUCE, NULL}, {"median", G_VALIDX, NULL}, {"min", G_MAXMIN, NULL}, {"minimum", G_BINARY, NULL},
    {"mm", G_TENS2, NULL}, {"mode", G_VALIDX, NULL}, {"moveaxis", G_MOVEDIM, NULL}, {"movedim", G_MOVEDIM, NULL},
    {"mul", G_BINARY, NULL}, {"multiply", G_BINARY, "mul"}, {"mv", G_TENS2, NULL}, {"nan_to_num", G_UNARY, NULL},
    {"nanmedian", G_VALIDX, NULL}, {"narrow", G_NARROW, NULL}, {"narrow_copy", G_UNARY, NULL},
    {"native_channel_shuffle", G_OWN, NULL}, {"neg", G_UNARY, NULL}, {"negative", G_UNARY, "neg"},
    {"norm", G_NORM, NULL}, {"nuclear_norm", G_OWN, NULL}, {"outer", G_OUTER, NULL}, {"pad", G_OWN, NULL}, {"permute", G_PERMUTE, NULL}, {"permute_copy", G_OWN, NULL},
    {"pinverse", G_UNARY, "linalg_pinv"}, {"pixel_shuffle", G_OWN, NULL}, {"pixel_unshuffle", G_OWN, NULL},
    {"polygamma", G_POLYGAMMA, NULL}, {"pow", G_POW, NULL}, {"prelu", G_OWN, NULL}, {"prod", G_PROD, NULL}, {"put", G_INDEXOP, NULL},
    {"qr", G_DECOMP, "linalg_qr"}, {"rad2deg", G_UNARY, NULL}, {"real", G_PART, NULL}, {"reciprocal", G_UNARY, NULL}, {"relu", G_UNARY, NULL},
    {"remainder", G_BINARY, NULL}, {"renorm", G_PNORM, NULL}, {"repeat", G_REPEAT, NULL},
    {"repeat_interleave", G_RINTERLEAVE, NULL}, {"requires_grad_", G_NONE, NULL}, {"reshape", G_RESHAPE, NULL},
    {"reshape_as", G_RESHAPE, NULL}, {"resolve_conj", G_CONTIG, NULL}, {"retain_grad", G_NONE, NULL}, {"roll", G_ROLL, NULL}, {"rot90", G_ROT90, NULL},
    {"round", G_UNARY, NULL}, {"rrelu", G_OWN, NULL}, {"rrelu_", G_OWN, NULL}, {"rsqrt", G_UNARY, NULL},
    {"rsub", G_RSUB, NULL}, {"scatter", G_INDEXOP, NULL}, {"scatter_add", G_INDEXOP, NULL},
    {"select", G_SELECT, NULL}, {"select_copy", G_OWN, NULL}, {"selu", G_OWN, NULL}, {"sgn", G_UNARY, NULL}, {"sigmoid", G_UNARY, NULL}, {"sign", G_UNARY, NULL},
    {"sin", G_UNARY, NULL},
    {"sinc", G_UNARY, NULL}, {"sinh", G_UNARY, NULL}, {"slice_copy", G_OWN, NULL}, {"slogdet", G_SLOGDET, "linalg_slogdet"},
    {"softmax", G_DIM, NULL}, {"softshrink", G_OWN, NULL}, {"sort", G_SORT, NULL}, {"split", G_SPLIT, NULL}, {"split_copy", G_OWN, NULL},
    {"split_with_sizes", G_SPLIT, NULL}, {"split_with_sizes_copy", G_OWN, NULL}, {"sqrt", G_UNARY, NULL}, {"square", G_UNARY, NULL},
    {"squeeze", G_SQUEEZE, NULL}, {"squeeze_copy", G_OWN, NULL}, {"stack", G_CAT, NULL}, {"std", G_VAR, NULL}, {"std_mean", G_VARMEAN, NULL},
    {"sub", G_BINARY, NULL}, {"subtract", G_BINARY, "sub"}, {"sum", G_REDUCE, NULL}, {"svd", G_DECOMP, "linalg_svd"},
    {"swapaxes", G_TRANSPOSE, "transpose"}, {"swapdims", G_TRANSPOSE, "transpose"}, {"t", G_UNARY, NULL}, {"t_copy", G_OWN, NULL},
    {"take", G_INDEXOP, NULL}, {"tan", G_UNARY, NULL}, {"tanh", G_UNARY, NULL}, {"tensor_split", G_TSPLIT, NULL},
    {"tensordot", G_TENSORDOT, NULL}, {"threshold", G_OWN, NULL}, {"threshold_", G_OWN, NULL},
    {"tile", G_REPEAT, "repeat"}, {"to", G_CAST, NULL},
    {"to_dense", G_OWN, NULL},   /* a sparse input: bind/sparse.c records ToDenseBackward0 */
    {"topk", G_SORT, NULL}, {"trace", G_UNARY, NULL}, {"transpose", G_TRANSPOSE, NULL}, {"transpose_copy", G_OWN, NULL}, {"tril", G_TRIL, NULL},
    {"triu", G_TRIL, NULL}, {"true_divide", G_BINARY, "div"}, {"trunc", G_UNARY, NULL}, {"type", G_CAST, NULL},
    {"type_as", G_CAST, NULL}, {"unbind", G_SPLIT, NULL}, {"unbind_copy", G_OWN, NULL}, {"unfold", G_UNFOLD, NULL},
    {"unfold_copy", G_OWN, NULL}, {"unsafe_chunk", G_SPLIT, "unsafe_split"}, {"unsafe_split", G_SPLIT, NULL},
    {"unsafe_split_with_sizes", G_SPLIT, NULL}, {"unsqueeze", G_DIM, NULL}, {"unsqueeze_copy", G_OWN, NULL},
    {"values_copy", G_OWN, NULL}, {"vander", G_OWN, NULL}, {"var", G_VAR, NULL}, {"var_mean", G_VARMEAN, NULL},
    {"vdot", G_TENS2, NULL}, {"view", G_VIEW, NULL}, {"view_as", G_VIEW, NULL}, {"view_as_complex", G_UNARY, NULL},
    {"view_as_complex_copy", G_OWN, NULL}, {"view_as_real", G_UNARY, NULL}, {"view_as_real_copy", G_OWN, NULL},
    {"view_copy", G_OWN, NULL},
    {"vsplit", G_TSPLIT, NULL}, {"where", G_WHERE, NULL}, {"xlogy", G_BINARY, NULL}, {"zero_", G_UNARY, NULL},
};

static int cmp_row(const void *k, const void *e) { return strcmp(k, ((const GradRow *)e)->row); }

/* torch.special's rows with a formula, sorted by row */
static const GradRow special_rows[] = {
    {"digamma", G_UNARY, NULL}, {"erf", G_UNARY, NULL}, {"erfc", G_UNARY, NULL}, {"erfinv", G_UNARY, NULL},
    {"exp2", G_UNARY, NULL}, {"expit", G_UNARY, "sigmoid"}, {"expm1", G_UNARY, NULL}, {"gammaln", G_UNARY, "lgamma"},
    {"i0", G_UNARY, NULL}, {"i1", G_UNARY, "special_i1"}, {"log1p", G_UNARY, NULL}, {"logit", G_EPS, NULL},
    {"polygamma", G_POLYGAMMA, NULL}, {"psi", G_UNARY, "digamma"}, {"sinc", G_UNARY, NULL}, {"xlogy", G_BINARY, NULL},
};

static const GradRow *grad_row(const BindRow *d)
{
    static const GradRow none = {"", G_NONE, NULL};
    size_t l = strlen(d->name);
    /* factories of new leaves: x's values or shape only */
    if ((l > 5 && !strcmp(d->name + l - 5, "_like")) || !strncmp(d->name, "new_", 4) || !strcmp(d->name, "as_tensor") ||
        !strcmp(d->name, "asarray") || !strcmp(d->name, "tensor"))
        return &none;
    if (d->module && !strcmp(d->module, "torch.special"))
        return bsearch(d->name, special_rows, sizeof special_rows / sizeof special_rows[0], sizeof special_rows[0], cmp_row);
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
    else t->wrapped_number = true;   /* promotes as the number it was (1.13's wrapped_scalar_tensor) */
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

/* a pow exponent: a real number in d0, a complex one in d0 (real part)
 * and d1 (imaginary part) with has_d1 */
static bool arg_exponent(Value *v, tsr_ag_args *a)
{
    if (v && v->type == &t_complex) {
        a->d0 = v->u.c.re;
        a->d1 = v->u.c.im;
        a->has_d1 = true;
        return true;
    }
    return arg_double(v, &a->d0);
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

/* an int or a list of ints into out (at most max): how many, -1 when neither */
static int arg_ints(Value *v, int64_t *out, int max)
{
    if (!v || is_none(v)) return -1;
    if (v->type == &t_int) {
        out[0] = v->u.i;
        return 1;
    }
    if (v->type != &t_list && v->type != &t_tuple && !(v->type->module && !strcmp(v->type->name, "Size"))) return -1;
    int k = 0;
    for (size_t i = 0; i < v->u.seq.n && k < max; i++)
        if (!arg_int(v->u.seq.items[i], &out[k++])) return -1;
    return k;
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
    if ((a->ndim == 1 || a->ndim == 2) && b->ndim >= 3) {
        /* matmul(b.transpose(-1, -2), a.t() (a 2-D a) or a), then for a 2-D a
         * .transpose(-1, -2).contiguous() (TransposeBackward0, CloneBackward0) */
        tsr_tensor *bt = tsr_view_transpose(b, b->ndim - 2, b->ndim - 1), *at = NULL, *m = NULL, *mg = NULL, *tr = NULL;
        tsr_ag_args ta = {.i0 = b->ndim - 2, .i1 = b->ndim - 1};
        int rc = !bt || record("transpose", 1, &b, &ta, bt, false) < 0 ? -1 : 0;
        if (rc == 0 && a->ndim == 2) {
            at = tsr_view_transpose(a, 0, 1);
            if (!at || record("t", 1, &a, &args, at, false) < 0) rc = -1;
        } else if (rc == 0) {
            at = tsr_tensor_retain(a);
        }
        if (rc == 0 && a->ndim == 1) {   /* the swapped product is the result */
            tsr_tensor *res = matmul_graph(bt, at, r);
            tsr_tensor_release(bt);
            tsr_tensor_release(at);
            return res;
        }
        if (rc == 0 && (!(m = tsr_matmul(bt, at, NULL)) || !(mg = matmul_graph(bt, at, m)))) rc = -1;
        if (rc == 0) {
            tsr_ag_args tb = {.i0 = m->ndim - 2, .i1 = m->ndim - 1};
            if (!(tr = tsr_view_transpose(m, m->ndim - 2, m->ndim - 1))) rc = -1;
            else if (tsr_tensor_is_contiguous(tr)) rc = record("transpose", 1, &m, &tb, r, false);
            else if (record("transpose", 1, &m, &tb, tr, false) < 0 || record("clone", 1, &tr, &args, r, false) < 0)
                rc = -1;
        }
        if (rc < 0 && !exc_pending()) bind_runtime_error();
        tsr_tensor_release(bt);
        tsr_tensor_release(at);
        tsr_tensor_release(m);
        tsr_tensor_release(mg);
        tsr_tensor_release(tr);
        return rc < 0 ? NULL : tsr_tensor_retain(r);
    }
    if (a->ndim >= 3 && b->ndim >= 3) {   /* expand both to the broadcast batch, reshape to 3-D, bmm, _unsafe_view */
        int nb1 = a->ndim - 2, nb2 = b->ndim - 2, nb = nb1 > nb2 ? nb1 : nb2;
        int64_t batch[TSR_MAX_DIMS], prod = 1;
        for (int i = 0; i < nb; i++) {
            int64_t s1 = i - (nb - nb1) >= 0 ? a->sizes[i - (nb - nb1)] : 1, s2 = i - (nb - nb2) >= 0 ? b->sizes[i - (nb - nb2)] : 1;
            batch[i] = s1 == 1 ? s2 : s1;
            prod *= batch[i];
        }
        tsr_tensor *e[2] = {0}, *f[2] = {0}, *m = NULL;
        int rc = 0;
        for (int i = 0; i < 2 && rc == 0; i++) {
            tsr_tensor *src = in[i];
            int64_t es[TSR_MAX_DIMS], fs[3] = {prod, src->sizes[src->ndim - 2], src->sizes[src->ndim - 1]};
            memcpy(es, batch, sizeof(int64_t) * (size_t)nb);
            es[nb] = fs[1];
            es[nb + 1] = fs[2];
            e[i] = tsr_view_expand(src, nb + 2, es);
            if (!e[i] || record("expand", 1, &src, &args, e[i], false) < 0) rc = -1;
            else if (!(f[i] = reshape_graph(e[i], 3, fs))) rc = -1;
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

/* x.real / x.imag of a complex x: runtime's tsr_ag_record_part. r holds the
 * view. NEW reference or NULL with the exception. */
static tsr_tensor *part_graph(tsr_tensor *x, tsr_tensor *r, bool imag)
{
    if (tsr_ag_record_part(x, r, imag) < 0) {
        bind_runtime_error();
        return NULL;
    }
    return tsr_tensor_retain(r);
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


/* 1.13's multi-output node of a decomposition over A (LinalgQrBackward0,
 * LinalgSvdBackward0, LinalgEighBackward0, LinalgEigBackward0) with the
 * outputs kept for the formula; torch.svd's V = Vh.mH (TransposeBackward0
 * over output 2); eigvals: eig's node with the eigenvectors unseen. */
static Value *record_decomp(const GradRow *g, BindArgs *b, tsr_tensor *A, Value *r)
{
    const char *key = g->key ? g->key : g->row;
    tsr_ag_args a = {0};
    a.ndims = -1;
    tsr_tensor *outs[3] = {0}, *own[2] = {0};
    int nout = 2;
    if (!strcmp(g->row, "linalg_eigvals")) {
        if (!is_tensor(r)) return r;
        outs[0] = tensor_of(r);
        tsr_tensor *l = NULL;
        if (tsr_linalg_eig(A, &l, &own[0]) < 0) { decref(r); return bind_runtime_error(); }
        tsr_tensor_release(l);
        outs[1] = own[0];
    } else {
        if (!is_seq_result(r)) return r;
        nout = (int)r->u.seq.n;
        if (nout < 2 || nout > 3) return r;
        for (int k = 0; k < nout; k++) {
            if (!is_tensor(r->u.seq.items[k])) return r;
            outs[k] = tensor_of(r->u.seq.items[k]);
        }
    }
    if (!strcmp(key, "linalg_qr")) {
        Value *m = bind_table_arg(b, "mode");
        const char *ms = m && m->type == &t_str ? m->u.s.p : "reduced";
        if (!strcmp(g->row, "qr")) ms = arg_bool(b, "some", true) ? "reduced" : "complete";
        a.i0 = !strcmp(ms, "complete") ? 1 : !strcmp(ms, "r") ? 2 : 0;
    }
    bool legacy_svd = !strcmp(g->row, "svd");
    if (legacy_svd) {
        if (!arg_bool(b, "compute_uv", true)) {   /* S alone, the node of linalg.svdvals */
            tsr_tensor *in1[1] = {A};
            if (record("linalg_svdvals", 1, in1, &a, outs[1], false) < 0) { decref(r); return NULL; }
            return r;
        }
        a.flag = !arg_bool(b, "some", true);
        own[1] = outs[2];
        outs[2] = own[0] = tsr_view_transpose(own[1], -2, -1);   /* Vh (a complex one conjugated below) */
        if (own[0] && tsr_dtype_is_complex(A->dtype)) {
            tsr_tensor *t = own[0];
            own[0] = outs[2] = tsr_unary(TSR_UNOP_CONJ_PHYSICAL, t, NULL, NULL);
            tsr_tensor_release(t);
        }
        if (!own[0]) { decref(r); return bind_runtime_error(); }
    } else if (!strcmp(key, "linalg_svd")) {
        a.flag = arg_bool(b, "full_matrices", true);
    }
    for (int k = 0; k < nout; k++) a.dims[k] = tsr_tensor_version(outs[k]);   /* the formula's version check */
    int rc = tsr_ag_record_multi(key, A, &a, nout, outs);
    for (int k = 0; rc == 0 && k < nout; k++) {   /* headers on the outputs' storage that hold no output (no cycle) */
        tsr_tensor *h = tsr_tensor_from_storage(outs[k]->storage, outs[k]->storage_offset, outs[k]->ndim, outs[k]->sizes,
                                                outs[k]->strides, outs[k]->dtype);
        rc = h ? tsr_ag_keep(outs[0], h) : -1;
        tsr_tensor_release(h);
    }
    if (rc < 0) bind_runtime_error();
    if (rc == 0 && legacy_svd) {   /* V = Vh.mH(): TransposeBackward0, then ConjBackward0 for complex */
        tsr_ag_args t = {0};
        t.ndims = -1;
        t.i0 = own[0]->ndim - 2;
        t.i1 = own[0]->ndim - 1;
        tsr_tensor *vt = tsr_dtype_is_complex(A->dtype) ? tsr_view_transpose(own[0], -2, -1) : NULL;
        if (tsr_dtype_is_complex(A->dtype) && !vt) rc = bind_runtime_errori();
        if (rc == 0) rc = record("transpose", 1, &own[0], &t, vt ? vt : own[1], false);
        if (rc == 0 && vt) rc = record("conj", 1, &vt, &t, own[1], false);
        tsr_tensor_release(vt);
        own[1] = NULL;
    }
    tsr_tensor_release(own[0]);
    if (rc < 0) { decref(r); return NULL; }
    return r;
}

/* 1.13's linalg_matrix_norm as it records: 'fro' is linalg_vector_norm;
 * +-1 / +-inf amax / amin over vector_norm(ord 1) of one dim; +-2 / 'nuc'
 * amax / amin / sum(-1) of linalg_svdvals of A permuted to put dim last,
 * unsqueezed (unsq_key: "unsqueeze", or at::nuclear_norm's in-place
 * "unsqueeze_") and permuted back with keepdim. Records onto out; 0 or -1
 * with the exception set. */
static int record_matrix_norm(tsr_tensor *A, const char *os, double ord, const int64_t *dim, bool keepdim, bool dtype,
                              tsr_tensor *out, const char *unsq_key)
{
    int nd = A->ndim;
    int64_t d0 = dim[0] < 0 ? dim[0] + nd : dim[0], d1 = dim[1] < 0 ? dim[1] + nd : dim[1];
    tsr_ag_args a = {0};
    a.ndims = -1;
    a.keepdim = keepdim;
    if (os && !strcmp(os, "fro")) {
        a.d0 = 2.0;
        a.ndims = 2, a.dims[0] = d0, a.dims[1] = d1;
        return record("vector_norm", 1, &A, &a, out, false);
    }
    bool svd = os || fabs(ord) == 2.0, is_max = os || ord > 0;
    if (!svd) {
        if (isinf(ord)) {
            int64_t t = d0;
            d0 = d1, d1 = t;
        }
        if (!keepdim && d0 < d1) d1--;
        tsr_dims vd = {.n = 1, .d = {d0}};
        tsr_tensor *v = tsr_linalg_vector_norm(A, 1.0, &vd, keepdim, TSR_DTYPE_UNDEFINED, NULL);
        if (!v) return bind_runtime_errori();
        a.d0 = 1.0;
        a.ndims = 1, a.dims[0] = d0;
        int rc = record("vector_norm", 1, &A, &a, v, false);
        a.ndims = 1, a.dims[0] = d1, a.d0 = 0;
        if (rc == 0) rc = record(is_max ? "amax" : "amin", 1, &v, &a, out, false);
        tsr_tensor_release(v);
        return rc;
    }
    if (dtype) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for 'linalg.matrix_norm' of ord %s with dtype= is not "
                      "implemented.", os ? os : ord > 0 ? "2" : "-2");
        return bind_runtime_errori();
    }
    int64_t perm[TSR_MAX_DIMS], rev[TSR_MAX_DIMS];
    int k = 0;
    for (int i = 0; i < nd; i++)
        if (i != d0 && i != d1) perm[k++] = i;
    perm[k++] = d0;
    perm[k++] = d1;
    for (int i = 0; i < nd; i++) rev[perm[i]] = i;
    tsr_tensor *p = tsr_view_permute(A, nd, perm), *sv = NULL, *red = NULL, *un = NULL;
    int rc = p ? 0 : bind_runtime_errori();
    tsr_ag_args pa = {0};
    pa.ndims = nd;
    memcpy(pa.dims, perm, sizeof perm);
    if (rc == 0) rc = record("permute", 1, &A, &pa, p, false);
    if (rc == 0 && tsr_linalg_svd(p, false, NULL, &sv, NULL) < 0) rc = bind_runtime_errori();
    tsr_ag_args sa = {0};
    sa.ndims = -1;
    if (rc == 0) rc = record("linalg_svdvals", 1, &p, &sa, sv, false);
    tsr_dims rd = {.n = 1, .d = {-1}};
    a.ndims = 1, a.dims[0] = -1;
    tsr_tensor *last = keepdim ? NULL : out;
    if (rc == 0 && keepdim) {
        red = os ? tsr_sum(sv, &rd, true, TSR_DTYPE_UNDEFINED, NULL) : tsr_amax(sv, &rd, true, is_max, NULL);
        if (!red) rc = bind_runtime_errori();
        last = red;
    }
    if (rc == 0) rc = record(os ? "sum_dim" : is_max ? "amax" : "amin", 1, &sv, &a, last, false);
    if (rc == 0 && keepdim) {
        un = tsr_view_unsqueeze(red, -1);
        tsr_ag_args ua = {0};
        ua.ndims = -1;
        ua.i0 = red->ndim;
        if (!un) rc = bind_runtime_errori();
        if (rc == 0) rc = record(unsq_key, 1, &red, &ua, un, false);
        pa.ndims = nd;
        memcpy(pa.dims, rev, sizeof rev);
        if (rc == 0) rc = record("permute", 1, &un, &pa, out, false);
    }
    tsr_tensor_release(p);
    tsr_tensor_release(sv);
    tsr_tensor_release(red);
    tsr_tensor_release(un);
    return rc;
}

/* The row's result r recorded (r is returned, or NULL with the error). */
static Value *record_row(const GradRow *g, const BindRow *d, BindArgs *b, Value *self, bool inplace, Value *r)
{
    const char *key = g->key ? g->key : g->row;
    tsr_ag_args a = {0};
    a.ndims = -1;
    tsr_tensor *in[MAXT] = {0}, *wrapped = NULL;
    int n = 1;
    Value *x = self ? self : g->kind == G_POLYGAMMA ? bind_table_arg(b, "input") : b->v[0];
    if (!self && !strcmp(key, "remainder") && x && !is_tensor(x)) {   /* remainder.Scalar_Tensor: no formula in 1.13 */
        Value *o = bind_table_arg(b, "other");
        if (!o || !is_tensor(o) || !is_tensor(r)) return r;
        in[0] = tensor_of(o);
        if (record("remainder_ss", 1, in, &a, tensor_of(r), false) < 0) { decref(r); return NULL; }
        return r;
    }
    if (!self && !strcmp(key, "xlogy") && x && !is_tensor(x)) {   /* xlogy(Number self, other): XlogyBackward1 */
        Value *o = bind_table_arg(b, "other");
        tsr_tensor *out0 = is_tensor(r) ? tensor_of(r) : NULL;
        if (!o || !is_tensor(o) || !out0 || !arg_double(x, &a.d0)) return r;
        in[0] = tensor_of(o);
        if (record("xlogy_self_s", 1, in, &a, out0, false) < 0) { decref(r); return NULL; }
        return r;
    }
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
            if (!arg_exponent(o, &a)) return r;
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
        if (!is_tensor(o) && (!strcmp(key, "fmod") || !strcmp(key, "remainder") || !strcmp(key, "xlogy") ||
                              !strcmp(key, "copysign"))) {   /* the .Scalar overloads */
            key = !strcmp(key, "fmod") ? "fmod_s" : !strcmp(key, "xlogy") ? "xlogy_s"
                : !strcmp(key, "copysign") ? "copysign_s" : "remainder_s";
            arg_double(o, &a.d0);
            n = 1;
            break;
        }
        a.has_d0 = arg_double(bind_table_arg(b, "alpha"), &a.d0);
        if (!strcmp(key, "div") && bind_table_arg(b, "rounding_mode")) key = "div_rounding";
        break;
    }
    case G_FILL: {
        Value *o = b->v[1];
        if (o && is_tensor(o)) {
            key = !strcmp(key, "fill_") ? "fill_t_" : "fill_t";
            in[1] = tensor_of(o);
            n = 2;
        }
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
    case G_PART: {
        if (!out || !tsr_dtype_is_complex(in[0]->dtype)) return r;   /* real(x) of a real x is x */
        tsr_tensor *m = part_graph(in[0], out, !strcmp(g->row, "imag"));
        decref(r);
        return m ? v_tensor(m) : NULL;
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
    case G_SOLVETRI: {   /* upper in flag, left in i0, unitriangular in i1 */
        Value *o = bind_table_arg(b, "B");
        if (!o || !is_tensor(o)) return r;
        in[1] = tensor_of(o);
        n = 2;
        a.flag = arg_bool(b, "upper", false);
        a.i0 = arg_bool(b, "left", true);
        a.i1 = arg_bool(b, "unitriangular", false);
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
        in[1] = tensor_of(m);
        n = 2;
        if (v && is_tensor(v)) {
            key = "masked_fill_tensor";
            in[n++] = tensor_of(v);
        }
        break;
    }
    case G_REPEAT: {
        Value *rv = bind_table_arg(b, !strcmp(g->row, "tile") ? "dims" : "repeats");
        if (!rv && b->varargs) rv = b->varargs;
        if (!rv || (rv->type != &t_list && rv->type != &t_tuple && !(rv->type->module && !strcmp(rv->type->name, "Size"))))
            return r;
        a.ndims = 0;
        for (size_t k = 0; k < rv->u.seq.n && k < TSR_MAX_DIMS; k++) arg_int(rv->u.seq.items[k], &a.dims[a.ndims++]);
        if (!strcmp(g->row, "tile") && a.ndims < in[0]->ndim) {   /* tile: reps padded with leading 1s, then repeat */
            int pad = in[0]->ndim - a.ndims;
            memmove(a.dims + pad, a.dims, (size_t)a.ndims * sizeof a.dims[0]);
            for (int k = 0; k < pad; k++) a.dims[k] = 1;
            a.ndims = in[0]->ndim;
        }
        break;
    }
    case G_VAR: case G_VARMEAN: {
        arg_dims(bind_table_arg(b, "dim"), &a);
        a.keepdim = arg_bool(b, "keepdim", false);
        a.i0 = arg_bool(b, "unbiased", true) ? 1 : 0;
        arg_int(bind_table_arg(b, "correction"), &a.i0);
        if (g->kind == G_VAR) break;
        /* 1.13's one VarMeanBackward0 / StdMeanBackward0 with two outputs (var or std, mean): its formula
           is var_backward(gvar) + mean_backward(gmean) */
        if (!is_seq_result(r) || r->u.seq.n < 2 || !is_tensor(r->u.seq.items[0]) || !is_tensor(r->u.seq.items[1]))
            return r;
        tsr_tensor *outs[2] = {tensor_of(r->u.seq.items[0]), tensor_of(r->u.seq.items[1])};
        if (tsr_ag_record_outs(!strcmp(key, "std_mean") ? "std_mean" : "var_mean", 1, in, &a, 2, outs) < 0) {
            bind_runtime_errori();
            decref(r);
            return NULL;
        }
        return r;
    }
    case G_NORM: {
        Value *p = bind_table_arg(b, "p");
        a.d0 = 2.0;
        if (p && p->type == &t_str && !strcmp(p->u.s.p, "nuc")) {   /* at::nuclear_norm: permute, svdvals, sum(-1) */
            arg_dims(bind_table_arg(b, "dim"), &a);
            int64_t md[2] = {a.ndims == 2 ? a.dims[0] : 0, a.ndims == 2 ? a.dims[1] : 1};
            if (!out) return r;
            if (record_matrix_norm(in[0], "nuc", 0, md, arg_bool(b, "keepdim", false), false, out, "unsqueeze_") < 0) {
                decref(r);
                return NULL;
            }
            return r;
        }
        if (p && p->type == &t_str && strcmp(p->u.s.p, "fro")) break;
        if (p && p->type != &t_str && !arg_double(p, &a.d0)) return r;
        if (a.d0 != 2.0 && a.d0 != 1.0) key = "norm_p";
        arg_dims(bind_table_arg(b, "dim"), &a);
        a.keepdim = arg_bool(b, "keepdim", false);
        if (p && p->type != &t_str && a.ndims <= 0 && in[0]->ndim > 0) {   /* 1.13's torch.norm: dim = range(ndim) */
            a.ndims = in[0]->ndim;
            for (int i = 0; i < a.ndims; i++) a.dims[i] = i;
        }
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
    case G_VNORM: {
        Value *o = bind_table_arg(b, "ord");
        a.d0 = 2.0;
        if (o && !arg_double(o, &a.d0)) return r;
        arg_dims(bind_table_arg(b, "dim"), &a);
        a.keepdim = arg_bool(b, "keepdim", false);
        break;
    }
    case G_LNORM: {   /* 1.13's linalg_norm: which of its norms is linalg_vector_norm */
        Value *o = bind_table_arg(b, "ord");
        arg_dims(bind_table_arg(b, "dim"), &a);
        a.keepdim = arg_bool(b, "keepdim", false);
        a.d0 = 2.0;
        bool vec;
        if (!o || is_none(o)) vec = true;                                        /* 2-norm, flattened or over dim */
        else if (o->type == &t_str) vec = !strcmp(o->u.s.p, "fro");             /* 'nuc': singular values */
        else vec = (a.ndims == 1 || (a.ndims < 0 && in[0]->ndim == 1)) && arg_double(o, &a.d0);
        if (!vec) {   /* linalg_matrix_norm over dim, or (0, 1) of a 2-D input */
            if (!out) return r;
            int64_t md[2] = {a.ndims == 2 ? a.dims[0] : 0, a.ndims == 2 ? a.dims[1] : 1};
            Value *dt = bind_table_arg(b, "dtype");
            if (o->type != &t_str && !arg_double(o, &a.d0)) return r;
            if (record_matrix_norm(in[0], o->type == &t_str ? o->u.s.p : NULL, a.d0, md, a.keepdim, dt && !is_none(dt),
                                   out, "unsqueeze") < 0) {
                decref(r);
                return NULL;
            }
            return r;
        }
        if (o && o->type == &t_str && a.ndims < 0 && in[0]->ndim == 2) a.ndims = 2, a.dims[0] = 0, a.dims[1] = 1;
        key = "vector_norm";
        break;
    }
    case G_DIM:
        if (!arg_int(bind_table_arg(b, "dim"), &a.i0)) return r;
        if (a.i0 < 0) a.i0 += in[0]->ndim + (!strcmp(key, "unsqueeze") ? 1 : 0);
        if (in[0]->ndim == 0 && strcmp(key, "unsqueeze")) a.i0 = 0;
        break;
    case G_CLAMP: {
        Value *lo = bind_table_arg(b, "min"), *hi = bind_table_arg(b, "max");
        if (strcmp(key, "clamp") && ((lo && is_tensor(lo)) || (hi && is_tensor(hi)))) {   /* clamp_min / clamp_max.Tensor */
            key = lo ? "clamp_min_t" : "clamp_max_t";
            in[1] = tensor_of(lo ? lo : hi);
            n = 2;
            break;
        }
        if ((lo && is_tensor(lo)) || (hi && is_tensor(hi))) {   /* clamp.Tensor(self, min?, max?) */
            key = "clamp_tensor";
            in[1] = lo && is_tensor(lo) ? tensor_of(lo) : NULL;
            in[2] = hi && is_tensor(hi) ? tensor_of(hi) : NULL;
            n = 3;
            break;
        }
        a.has_d0 = arg_double(lo, &a.d0);
        a.has_d1 = arg_double(hi, &a.d1);
        break;
    }
    case G_LERP: {
        Value *e = bind_table_arg(b, "end"), *w = bind_table_arg(b, "weight");
        if (!e || !is_tensor(e) || !w) return r;
        in[1] = tensor_of(e);
        n = 2;
        if (is_tensor(w)) {
            in[2] = tensor_of(w);
            n = 3;
            key = "lerp_t";
        } else if (!arg_double(w, &a.d0)) {
            return r;
        }
        break;
    }
    case G_ADDC: {
        Value *t1 = bind_table_arg(b, "tensor1"), *t2 = bind_table_arg(b, "tensor2");
        if (!t1 || !t2 || !is_tensor(t1) || !is_tensor(t2)) return r;
        in[1] = tensor_of(t1);
        in[2] = tensor_of(t2);
        n = 3;
        a.d0 = 1.0;
        arg_double(bind_table_arg(b, "value"), &a.d0);
        break;
    }
    case G_PNORM:
        a.d0 = 2.0;
        if (!strcmp(key, "dist")) {
            Value *o = bind_table_arg(b, "other");
            if (!o || !is_tensor(o)) return r;
            in[1] = tensor_of(o);
            n = 2;
            arg_double(bind_table_arg(b, "p"), &a.d0);
            break;
        }
        if (!arg_double(bind_table_arg(b, "p"), &a.d0) || !arg_int(bind_table_arg(b, "dim"), &a.i0) ||
            !arg_double(bind_table_arg(b, "maxnorm"), &a.d1))
            return r;
        if (a.i0 < 0) a.i0 += in[0]->ndim;
        break;
    case G_VALIDX: {
        if (is_tensor(r)) {   /* median() / nanmedian() of everything */
            if (strcmp(key, "median") && strcmp(key, "nanmedian")) return r;
            break;
        }
        if (!is_seq_result(r) || r->u.seq.n < 2 || !is_tensor(r->u.seq.items[0])) return r;
        a.i0 = -1;
        arg_int(bind_table_arg(b, "dim"), &a.i0);
        if (a.i0 < 0) a.i0 += in[0]->ndim;
        if (in[0]->ndim == 0) a.i0 = 0;
        a.keepdim = arg_bool(b, "keepdim", false);
        if (!strcmp(key, "median")) key = "median_dim";
        else if (!strcmp(key, "nanmedian")) key = "nanmedian_dim";
        out = tensor_of(r->u.seq.items[0]);
        if (record(key, 1, in, &a, out, false) < 0 || tsr_ag_keep(out, tensor_of(r->u.seq.items[1])) < 0) {
            if (!exc_pending()) bind_runtime_error();
            decref(r);
            return NULL;
        }
        return r;
    }
    case G_EPS:
        a.has_d0 = arg_double(bind_table_arg(b, "eps"), &a.d0);
        break;
    case G_POLYGAMMA:
        if (!arg_int(bind_table_arg(b, "n"), &a.i0)) return r;
        if (inplace) key = "polygamma_";
        break;
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
    case G_DIAGEMB:
    case G_DIAGONAL: {   /* dims of the input (diagonal) or of the result (diag_embed), with their defaults */
        bool emb = g->kind == G_DIAGEMB;
        int nd = in[0]->ndim + emb;
        a.i1 = emb ? -2 : 0;
        a.i2 = emb ? -1 : 1;
        arg_int(bind_table_arg(b, "offset"), &a.i0);
        arg_int(bind_table_arg(b, "dim1"), &a.i1);
        arg_int(bind_table_arg(b, "dim2"), &a.i2);
        if (a.i1 < 0) a.i1 += nd;
        if (a.i2 < 0) a.i2 += nd;
        break;
    }
    case G_TRIL:
        arg_int(bind_table_arg(b, "diagonal"), &a.i0);
        break;
    case G_MOVEDIM: {
        int64_t src[TSR_MAX_DIMS], dst[TSR_MAX_DIMS];
        int ns = arg_ints(bind_table_arg(b, "source"), src, TSR_MAX_DIMS);
        int nd = arg_ints(bind_table_arg(b, "destination"), dst, TSR_MAX_DIMS);
        if (ns < 0 || nd < 0 || tsr_movedim_order(in[0]->ndim, ns, src, nd, dst, a.dims) < 0) return r;
        a.ndims = in[0]->ndim;
        key = "permute";
        break;
    }
    case G_ROLL: {
        int ns = arg_ints(bind_table_arg(b, "shifts"), a.dims, TSR_MAX_DIMS);
        if (ns < 0) return r;
        int nd = arg_ints(bind_table_arg(b, "dims"), a.dims + ns, TSR_MAX_DIMS - ns);
        a.ndims = ns;
        a.i0 = nd < 0 ? 0 : nd;
        break;
    }
    case G_RINTERLEAVE: {   /* 1.13's composite: IndexSelectBackward0 over the (flattened) input */
        Value *rv = bind_table_arg(b, "repeats"), *dv = bind_table_arg(b, "dim");
        if (!rv || !out) return r;
        tsr_tensor *x = in[0], *f = NULL, *reps = NULL, *rx = NULL, *ix = NULL;
        int64_t d = 0, len, one = 1;
        if (dv && !is_none(dv)) {
            arg_int(dv, &d);
            if (d < 0) d += x->ndim;
            if (x->ndim == 0) d = 0;
            f = tsr_tensor_retain(x);
        } else {
            f = x->ndim == 1 ? tsr_tensor_retain(x) : reshape_graph(x, 1, (int64_t[]){tsr_tensor_numel(x)});
        }
        if (!f) { decref(r); return NULL; }
        len = f->ndim ? f->sizes[d] : 1;
        if (is_tensor(rv)) reps = tsr_tensor_retain(tensor_of(rv));
        else if (arg_int(rv, &one)) reps = tsr_full(0, NULL, tsr_scalar_int(one), TSR_INT64, TSR_CPU);
        if (reps && tsr_tensor_numel(reps) == 1) {
            tsr_tensor *r1 = tsr_reshape(reps, 1, (int64_t[]){1});
            rx = r1 ? tsr_view_expand(r1, 1, &len) : NULL;
            tsr_tensor_release(r1);
        } else if (reps) {
            rx = tsr_tensor_retain(reps);
        }
        ix = rx ? tsr_repeat_interleave(NULL, rx, 0, false, 0, -1) : NULL;
        tsr_tensor *si[2] = {f, ix};
        a.i0 = d;
        rc = ix ? record("index_select", 2, si, &a, out, false) : -1;
        if (!ix && !exc_pending()) bind_runtime_error();
        tsr_tensor_release(f);
        tsr_tensor_release(reps);
        tsr_tensor_release(rx);
        tsr_tensor_release(ix);
        if (rc < 0) { decref(r); return NULL; }
        return r;
    }
    case G_DECOMP: return record_decomp(g, b, in[0], r);
    case G_IDXPUT: {
        Value *list = bind_table_arg(b, "indices"), *vals = bind_table_arg(b, "values");
        if (!out || !list || !vals || !is_tensor(vals) || (list->type != &t_list && list->type != &t_tuple)) return r;
        const tsr_tensor *ix[TSR_MAX_DIMS];
        int ni = (int)list->u.seq.n;
        if (ni > TSR_MAX_DIMS) ni = TSR_MAX_DIMS;
        for (int i = 0; i < ni; i++) ix[i] = is_tensor(list->u.seq.items[i]) ? tensor_of(list->u.seq.items[i]) : NULL;
        if (tsr__ag_record_index_put_fn(in[0], ni, ix, tensor_of(vals), arg_bool(b, "accumulate", false), out,
                                        inplace) < 0) {
            decref(r);
            return bind_runtime_error();
        }
        return r;
    }
    case G_MNORM: {
        Value *o = bind_table_arg(b, "ord"), *dt = bind_table_arg(b, "dtype");
        double ord = 0;
        const char *os = !o ? "fro" : o->type == &t_str ? o->u.s.p : NULL;
        if (!out || (!os && !arg_double(o, &ord))) return r;
        arg_dims(bind_table_arg(b, "dim"), &a);
        int64_t md[2] = {a.ndims == 2 ? a.dims[0] : -2, a.ndims == 2 ? a.dims[1] : -1};
        if (record_matrix_norm(in[0], os, ord, md, arg_bool(b, "keepdim", false), dt && !is_none(dt), out, "unsqueeze") < 0) {
            decref(r);
            return NULL;
        }
        return r;
    }
    case G_SPLIT: {
        if (!is_seq_result(r)) return r;
        int nout = (int)r->u.seq.n;
        tsr_tensor *outs[TSR_MAX_DIMS];
        if (nout > TSR_MAX_DIMS) {
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for '%s' into more than %d pieces is not implemented.",
                          g->row, TSR_MAX_DIMS);
            decref(r);
            return bind_runtime_error();
        }
        a.i0 = 0;
        arg_int(bind_table_arg(b, "dim"), &a.i0);
        if (a.i0 < 0) a.i0 += in[0]->ndim;
        a.ndims = nout;
        for (int k = 0; k < nout; k++) {
            if (!is_tensor(r->u.seq.items[k])) return r;
            outs[k] = tensor_of(r->u.seq.items[k]);
            a.dims[k] = strcmp(key, "unbind") ? outs[k]->sizes[a.i0] : 1;
        }
        if (tsr_ag_record_multi(key, in[0], &a, nout, outs) < 0) {
            decref(r);
            return bind_runtime_error();
        }
        return r;
    }
    case G_TSPLIT: {
        if (!is_seq_result(r)) return r;
        int64_t d = 0;
        if (!strcmp(g->row, "tensor_split")) arg_int(bind_table_arg(b, "dim"), &d);
        else d = !strcmp(g->row, "hsplit") ? (in[0]->ndim == 1 ? 0 : 1) : !strcmp(g->row, "dsplit") ? 2 : 0;
        if (d < 0) d += in[0]->ndim;
        int64_t start = 0;
        for (size_t k = 0; k < r->u.seq.n; k++) {
            if (!is_tensor(r->u.seq.items[k])) return r;
            tsr_tensor *p = tensor_of(r->u.seq.items[k]);
            tsr_ag_args sa = {0};
            sa.i0 = d;
            sa.i1 = start;
            sa.i2 = 1;
            sa.dims[0] = start + p->sizes[d];
            sa.dims[1] = 1;
            start += p->sizes[d];
            if (record("narrow", 1, in, &sa, p, false) < 0) {
                decref(r);
                return NULL;
            }
        }
        return r;
    }
    case G_DIFF: {   /* the composite's graph and result replace the handler's (the same values) */
        Value *pv = bind_table_arg(b, "prepend"), *av = bind_table_arg(b, "append");
        int64_t cnt = 1, d = -1;
        arg_int(bind_table_arg(b, "n"), &cnt);
        arg_int(bind_table_arg(b, "dim"), &d);
        if (!out || in[0]->ndim == 0) return r;
        if (d < 0) d += in[0]->ndim;
        tsr_tensor *cur = NULL;
        tsr_ag_args ca = {0};
        ca.i0 = d;
        if (cnt == 0) {   /* zeros_like(self).copy_(self): CopyBackwards */
            tsr_tensor *ci[2] = {NULL, in[0]};
            if (record("copy_backwards", 2, ci, &a, out, false) < 0) { decref(r); return NULL; }
            return r;
        }
        bool pre = pv && is_tensor(pv), app = av && is_tensor(av);
        if (pre || app) {
            tsr_tensor *ts[3];
            int k = 0;
            if (pre) ts[k++] = tensor_of(pv);
            ts[k++] = in[0];
            if (app) ts[k++] = tensor_of(av);
            cur = tsr_cat(k, (const tsr_tensor *const *)ts, d, NULL);
            if (!cur) { decref(r); return bind_runtime_error(); }
            if (record("cat", k, ts, &ca, cur, false) < 0) { tsr_tensor_release(cur); decref(r); return NULL; }
        } else {
            cur = tsr_tensor_retain(in[0]);
        }
        int64_t len = cur->sizes[d] - 1;
        if (cnt > cur->sizes[d]) cnt = cur->sizes[d];
        for (int64_t i = 0; i < cnt && cur; i++, len--) {
            tsr_tensor *hi = tsr_view_narrow(cur, d, 1, len), *lo = hi ? tsr_view_narrow(cur, d, 0, len) : NULL, *s = NULL;
            tsr_ag_args na = {0};
            na.i0 = d;
            na.i2 = 1;
            na.dims[1] = 1;
            na.i1 = 1;
            na.dims[0] = 1 + len;
            rc = hi && lo ? record("narrow", 1, &cur, &na, hi, false) : -1;
            na.i1 = 0;
            na.dims[0] = len;
            if (rc == 0) rc = record("narrow", 1, &cur, &na, lo, false);
            if (rc == 0 && !(s = bin_plain(TSR_BINOP_SUB, hi, lo))) rc = -1;
            tsr_tensor *si[2] = {hi, lo};
            if (rc == 0) rc = record("sub", 2, si, &na, s, false);
            if (rc < 0 && !exc_pending()) bind_runtime_error();
            tsr_tensor_release(hi);
            tsr_tensor_release(lo);
            tsr_tensor_release(cur);
            cur = rc < 0 ? (tsr_tensor_release(s), NULL) : s;
        }
        decref(r);
        return cur ? v_tensor(cur) : NULL;
    }
    case G_UNFOLD:
        if (!arg_int(bind_table_arg(b, "dimension"), &a.i0) || !arg_int(bind_table_arg(b, "size"), &a.i1) ||
            !arg_int(bind_table_arg(b, "step"), &a.i2))
            return r;
        if (a.i0 < 0) a.i0 += in[0]->ndim;
        if (in[0]->ndim == 0) a.i0 = 0;
        break;
    case G_MASKSEL: {
        Value *m = bind_table_arg(b, "mask");
        if (!m || !is_tensor(m) || !out) return r;
        tsr_tensor *mt = tensor_of(m);
        if (mt->ndim != in[0]->ndim || memcmp(mt->sizes, in[0]->sizes, sizeof(int64_t) * (size_t)mt->ndim)) {
            decref(r);
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for 'masked_select' with a mask of another shape "
                          "is not implemented.");
            return bind_runtime_error();
        }
        if (record(key, 1, in, &a, out, false) < 0 || tsr_ag_keep(out, mt) < 0) {
            if (!exc_pending()) bind_runtime_error();
            decref(r);
            return NULL;
        }
        return r;
    }
    case G_INDEXOP: {
        const char *ixname = !strcmp(g->row, "masked_scatter") ? "mask" : "index";
        Value *ix = bind_table_arg(b, ixname), *src = NULL;
        if (!ix || !is_tensor(ix) || !out) return r;
        if (strcmp(g->row, "take") && strcmp(g->row, "put") && strcmp(g->row, "masked_scatter")) {
            if (!arg_int(bind_table_arg(b, "dim"), &a.i0)) return r;
            if (a.i0 < 0) a.i0 += in[0]->ndim;
            if (in[0]->ndim == 0) a.i0 = 0;
        }
        if (!strcmp(g->row, "index_fill") || !strcmp(g->row, "scatter")) {
            src = bind_table_arg(b, !strcmp(g->row, "scatter") ? "src" : "value");
            if (!src) src = bind_table_arg(b, "value");
            if (src && is_tensor(src)) key = !strcmp(g->row, "scatter") ? "scatter" : "index_fill_t";
            else key = !strcmp(g->row, "scatter") ? "scatter_v" : "index_fill";
            if (!strcmp(g->row, "scatter") && bind_table_arg(b, "reduce"))   /* 1.13: NotImplemented */
                key = is_tensor(src) ? "scatter.reduce" : "scatter.value_reduce";
        } else if (strcmp(g->row, "take")) {
            src = bind_table_arg(b, "source");
            if (!src) src = bind_table_arg(b, "src");
        }
        if (src && is_tensor(src)) in[n++] = tensor_of(src);
        a.has_d0 = arg_double(bind_table_arg(b, "alpha"), &a.d0);
        a.flag = arg_bool(b, "accumulate", false);
        if (record(key, n, in, &a, out, inplace) < 0 || tsr_ag_keep(out, tensor_of(ix)) < 0) {
            if (!exc_pending()) bind_runtime_error();
            decref(r);
            return NULL;
        }
        return r;
    }
    case G_ROT90: {
        a.i0 = 1;
        a.dims[0] = 0;
        a.dims[1] = 1;
        arg_int(bind_table_arg(b, "k"), &a.i0);
        if (arg_ints(bind_table_arg(b, "dims"), a.dims, 2) < 0) {
            a.dims[0] = 0;
            a.dims[1] = 1;
        }
        a.ndims = 2;
        break;
    }
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
    if (rc == 0 && !strcmp(key, "linalg_svdvals")) tsr_ag_set_output_nr(out, 1);   /* S of 1.13's (U, S, Vh) */
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
    if (writes_self && g && g->kind == G_IDXPUT && tsr_tensor_requires_grad(tensor_of(self)) &&
        tsr_tensor_is_leaf(tensor_of(self)))   /* 1.13's index_put_ on a leaf */
        return exc_set("RuntimeError", "a view of a leaf Variable that requires grad is being used in an in-place "
                       "operation.");
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
        arg_exponent(y, &a);
        n = 1;
    } else if (!strcmp(key, "pow")) {
        key = "pow_t";
    } else if (!strcmp(key, "remainder") && y && !is_tensor(y)) {   /* x % number: RemainderBackward0 */
        key = "remainder_s";
        n = 1;
    } else if (!strcmp(key, "remainder") && !is_tensor(x)) {   /* number % x: remainder.Scalar_Tensor */
        key = "remainder_ss";
        in[0] = in[1];
        n = 1;
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


