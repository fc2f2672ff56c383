/* src/bind/table_names.c — the named-tensor step of the binding table's call
 * path (SEMANTICS.md §2): a row whose call has a named tensor argument either
 * has a names rule (its family's function in runtime/names computes the
 * result's names before the handler runs, and they are given to the result,
 * the out= tensor or self afterwards), or is refused with 1.13's fallback
 * message naming the ATen overload. Rows that do elementwise work through
 * an op descriptor pass: the iterator infers their names (runtime/iter.c).
 * An unnamed call costs one scan of its arguments. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/explain.h"
#include "bind/names.h"
#include "bind/table.h"
#include "bind/tensor.h"

/* ORDER NRULE */
enum {
    NR_REFUSE,      /* no rule: the fallback's refusal */
    NR_PASS,        /* the handler or the runtime deals with names (metadata, descriptors, the names API) */
    NR_KEEP,        /* keeps input names */
    NR_REDUCE,      /* removes the `dim` dims unless keepdim; a full reduction gives () */
    NR_SELECT,      /* removes the `dim` dim (select, unbind) */
    NR_SQUEEZE,     /* squeeze() removes size-1 dims; squeeze(d): see SEMANTICS.md §2.8 */
    NR_TRANSPOSE,   /* swaps dim0 and dim1 */
    NR_T,           /* t(): reverses a 2-d tensor's names */
    NR_MATMUL,      /* contracts away dims (mm, mv, dot, matmul, bmm) */
    NR_ADDMM,       /* contraction of mat1/mat2 (vec), unified with self */
    NR_CAT,         /* unify from the right ("cat") */
    NR_EXPAND,      /* new leading dims are None */
    NR_MASKED_SELECT, /* self and mask unify, the result is (None,) */
    NR_COPY,        /* self gets unify(self, src) */
    NR_FLATTEN,     /* flatten(..., out_dim); without out_dim 1.13 refuses as _reshape_alias */
    NR_REDUCE_NODIM, /* all/any: only the full reduction has a names rule */
    NR_CMP,         /* comparisons: elementwise, but their in-place forms are refused */
    NR_RESIZE_AS,   /* resize_as_: the template's names, checked against self's */
    NR_UNIFY,       /* unify every tensor argument from the right (addcmul, logical_and, ...) */
};

/* Rows 1.13 refuses through the op they decompose into, by the row's
 * python_arg_parser name (pname: "linalg_svd" for torch.linalg.svd), as
 * scripts/probe-named-refusals finds them with a float input. Sorted. */
static const struct { const char *name, *schema; } composite_refusals[] = {
    {"argsort", "aten::sort"}, {"argwhere", "aten::nonzero"}, {"as_strided", "aten::_reshape_alias"},
    {"conv1d", "aten::convolution"}, {"conv2d", "aten::convolution"}, {"conv3d", "aten::convolution"},
    {"conv_transpose1d", "aten::convolution"}, {"conv_transpose2d", "aten::convolution"},
    {"conv_transpose3d", "aten::convolution"}, {"corrcoef", "aten::unsqueeze"}, {"cov", "aten::unsqueeze"}, {"cross", "aten::linalg_cross"},
    {"cumulative_trapezoid", "aten::mul.Scalar"}, {"det", "aten::_linalg_det"}, {"diagflat", "aten::view"},
    {"einsum", "aten::permute"}, {"fft_fft", "aten::_fft_r2c"}, {"fft_fft2", "aten::_fft_c2c"},
    {"fft_fftn", "aten::_fft_c2c"}, {"fft_fftshift", "aten::roll"}, {"fft_hfft", "aten::_conj"},
    {"fft_hfft2", "aten::_fft_c2c"}, {"fft_hfftn", "aten::_fft_c2c"}, {"fft_ifft", "aten::_fft_r2c"},
    {"fft_ifft2", "aten::_fft_c2c"}, {"fft_ifftn", "aten::_fft_c2c"}, {"fft_ifftshift", "aten::roll"},
    {"fft_ihfft", "aten::_fft_r2c"}, {"fft_ihfft2", "aten::_fft_r2c"}, {"fft_ihfftn", "aten::_fft_r2c"},
    {"fft_irfft", "aten::_fft_c2r"}, {"fft_irfft2", "aten::_fft_c2r"}, {"fft_irfftn", "aten::_fft_c2r"},
    {"fft_rfft", "aten::_fft_r2c"}, {"fft_rfft2", "aten::_fft_r2c"}, {"fft_rfftn", "aten::_fft_r2c"}, {"fill", "aten::fill.Scalar"},
    {"fliplr", "aten::flip"}, {"flipud", "aten::flip"}, {"frexp", "aten::frexp.Tensor"}, {"inner", "aten::permute"},
    {"inverse", "aten::linalg_inv_ex"}, {"isclose", "aten::mul.Scalar"}, {"isin", "aten::isin.Tensor_Tensor"},
    {"kron", "aten::_unsafe_view"}, {"layer_norm", "aten::native_layer_norm"}, {"linalg_cholesky", "aten::linalg_cholesky_ex"},
    {"linalg_cholesky_ex", "aten::linalg_cholesky_ex"}, {"linalg_cross", "aten::linalg_cross"},
    {"linalg_det", "aten::_linalg_det"}, {"linalg_eig", "aten::linalg_eig"},
    {"linalg_eigh", "aten::_linalg_eigh"}, {"linalg_eigvalsh", "aten::_linalg_eigh"},
    {"linalg_householder_product", "aten::linalg_householder_product"}, {"linalg_inv", "aten::linalg_inv_ex"},
    {"linalg_inv_ex", "aten::linalg_inv_ex"}, {"linalg_lu", "aten::linalg_lu"},
    {"linalg_lu_factor", "aten::linalg_lu_factor_ex"}, {"linalg_lu_factor_ex", "aten::linalg_lu_factor_ex"},
    {"linalg_ldl_factor", "aten::linalg_ldl_factor_ex"},
    {"linalg_ldl_factor_ex", "aten::linalg_ldl_factor_ex"}, {"linalg_ldl_solve", "aten::linalg_ldl_solve"},
    {"linalg_lstsq", "aten::linalg_lstsq"}, {"linalg_lu_solve", "aten::linalg_lu_solve"},
    {"linalg_matrix_exp", "aten::linalg_matrix_exp"}, {"matrix_exp", "aten::linalg_matrix_exp"}, {"linalg_matrix_norm", "aten::linalg_vector_norm"},
    {"linalg_matrix_rank", "aten::_linalg_svd"}, {"linalg_norm", "aten::linalg_vector_norm"},
    {"linalg_pinv", "aten::linalg_pinv.atol_rtol_tensor"}, {"linalg_qr", "aten::linalg_qr"},
    {"linalg_slogdet", "aten::_linalg_slogdet"}, {"linalg_solve", "aten::_linalg_solve_ex"},
    {"linalg_solve_ex", "aten::_linalg_solve_ex"}, {"linalg_svd", "aten::_linalg_svd"},
    {"linalg_svdvals", "aten::_linalg_svd"}, {"linalg_vander", "aten::unsqueeze"},
    {"linalg_vector_norm", "aten::linalg_vector_norm"}, {"lu", "aten::linalg_lu_factor_ex"},
    {"lu_solve", "aten::linalg_lu_solve"}, {"moveaxis", "aten::permute"}, {"movedim", "aten::permute"},
    {"linalg_multi_dot", "aten::view"}, {"msort", "aten::sort"}, {"multi_dot", "aten::view"}, {"nanmean", "aten::nansum"},
    {"norm", "aten::norm.ScalarOpt_dim"},
    {"orgqr", "aten::linalg_householder_product"}, {"outer", "aten::_reshape_alias"},
    {"pin_memory", "aten::_pin_memory"}, {"pinverse", "aten::linalg_pinv.atol_rtol_tensor"},
    {"qr", "aten::linalg_qr"}, {"ravel", "aten::view"},
    {"searchsorted", "aten::searchsorted.Tensor"}, {"selu", "aten::elu"}, {"slogdet", "aten::_linalg_slogdet"},
    {"special_multigammaln", "aten::mvlgamma"}, {"special_ndtr", "aten::mul.Scalar"}, {"split_copy", "aten::split_copy.Tensor"}, {"stft", "aten::view"},
    {"sum_to_size", "aten::view"}, {"svd", "aten::_linalg_svd"}, {"take_along_dim", "aten::view"},
    {"tensordot", "aten::permute"}, {"tile", "aten::repeat"}, {"trapezoid", "aten::mul.Scalar"},
    {"trapz", "aten::mul.Scalar"}, {"unique", "aten::_unique2"}, {"vander", "aten::unsqueeze"}, {"view_as", "aten::view"},
};

/* The same with out=: the schema 1.13's fallback names then (probed). */
static const struct { const char *name, *schema; } composite_out[] = {
    {"fft_irfft", "aten::_fft_c2r.out"}, {"fft_irfft2", "aten::_fft_c2r.out"}, {"fft_irfftn", "aten::_fft_c2r.out"},
    {"inner", "aten::tensordot.out"}, {"inverse", "aten::linalg_inv_ex.inverse"},
    {"linalg_cholesky", "aten::linalg_cholesky_ex.L"}, {"linalg_cross", "aten::linalg_cross.out"},
    {"cross", "aten::linalg_cross.out"}, {"linalg_det", "aten::_linalg_det.result"},
    {"linalg_eigvalsh", "aten::_linalg_eigh.eigenvalues"},
    {"linalg_householder_product", "aten::linalg_householder_product.out"},
    {"linalg_inv", "aten::linalg_inv_ex.inverse"}, {"linalg_pinv", "aten::linalg_pinv.atol_rtol_tensor_out"},
    {"linalg_solve", "aten::new_empty"}, {"linalg_svdvals", "aten::_linalg_svd.U"},
    {"linalg_vector_norm", "aten::linalg_vector_norm.out"}, {"msort", "aten::sort.values"}, {"norm", "aten::norm.out"},
    {"orgqr", "aten::linalg_householder_product.out"}, {"searchsorted", "aten::searchsorted.Tensor_out"},
    {"special_multigammaln", "aten::mvlgamma.out"}, {"tensordot", "aten::tensordot.out"},
};

typedef struct { const char *name; unsigned char rule; } NameRule;

/* Sorted by name (checked at start-up). Rows not listed refuse unless an
 * elementwise op descriptor of the same name exists (tsr_op_find). */
static const NameRule rules[] = {
    {"__complex__", NR_PASS}, {"__float__", NR_PASS}, {"__format__", NR_PASS}, {"__index__", NR_PASS},
    {"__int__", NR_PASS}, {"addcdiv", NR_UNIFY}, {"addcmul", NR_UNIFY}, {"addmm", NR_ADDMM}, {"addmv", NR_ADDMM},
    {"all", NR_REDUCE_NODIM}, {"any", NR_REDUCE_NODIM}, {"as_tensor", NR_KEEP}, {"asarray", NR_KEEP},
    {"bernoulli", NR_KEEP}, {"bernoulli_", NR_KEEP},
    {"bfloat16", NR_KEEP}, {"bmm", NR_MATMUL}, {"bool", NR_KEEP}, {"byte", NR_KEEP}, {"cat", NR_CAT},
    {"cauchy_", NR_KEEP}, {"char", NR_KEEP}, {"chunk", NR_KEEP}, {"clamp", NR_KEEP}, {"clamp_", NR_KEEP},
    {"clamp_max", NR_KEEP}, {"clamp_min", NR_KEEP}, {"clip", NR_KEEP}, {"clip_", NR_KEEP}, {"clone", NR_KEEP},
    {"coalesce", NR_PASS}, {"concat", NR_CAT}, {"contiguous", NR_KEEP}, {"copy_", NR_COPY}, {"cpu", NR_KEEP}, {"cuda", NR_KEEP},
    {"cummax", NR_KEEP}, {"cummin", NR_KEEP}, {"cumprod", NR_KEEP}, {"cumprod_", NR_KEEP}, {"cumsum", NR_KEEP},
    {"cumsum_", NR_KEEP}, {"data_ptr", NR_PASS}, {"detach", NR_KEEP}, {"detach_", NR_PASS}, {"diagonal", NR_PASS},
    {"diff", NR_KEEP}, {"dim", NR_PASS}, {"dot", NR_MATMUL}, {"double", NR_KEEP}, {"element_size", NR_PASS},
    {"empty_like", NR_KEEP}, {"eq", NR_CMP}, {"equal", NR_PASS}, {"expand", NR_EXPAND}, {"expand_as", NR_EXPAND},
    {"expit", NR_KEEP}, {"exponential_", NR_KEEP}, {"fill_", NR_KEEP}, {"fill_diagonal_", NR_KEEP}, {"flatten", NR_FLATTEN}, {"float", NR_KEEP},
    {"full_like", NR_KEEP}, {"ge", NR_CMP}, {"geometric_", NR_KEEP}, {"get_device", NR_PASS}, {"gt", NR_CMP},
    {"half", NR_KEEP}, {"hsplit", NR_KEEP}, {"index_fill", NR_KEEP}, {"index_fill_", NR_KEEP}, {"int", NR_KEEP},
    {"is_coalesced", NR_PASS}, {"is_complex", NR_PASS}, {"is_contiguous", NR_PASS}, {"is_floating_point", NR_PASS}, {"is_inference", NR_PASS}, {"is_nonzero", NR_PASS}, {"is_pinned", NR_PASS},
    {"is_set_to", NR_PASS}, {"is_shared", NR_PASS}, {"is_signed", NR_PASS}, {"is_tensor", NR_PASS},
    {"isfinite", NR_KEEP}, {"isinf", NR_KEEP}, {"isnan", NR_KEEP}, {"isreal", NR_KEEP}, {"item", NR_PASS}, {"kthvalue", NR_REDUCE},
    {"ldexp", NR_UNIFY}, {"le", NR_CMP}, {"log_normal_", NR_KEEP}, {"log_softmax", NR_KEEP},
    {"logcumsumexp", NR_KEEP}, {"logical_and", NR_UNIFY}, {"logical_not", NR_PASS}, {"logical_or", NR_UNIFY},
    {"logical_xor", NR_UNIFY}, {"logsumexp", NR_REDUCE}, {"long", NR_KEEP}, {"lt", NR_CMP},
    {"masked_fill", NR_KEEP}, {"masked_fill_", NR_KEEP}, {"masked_select", NR_MASKED_SELECT}, {"matmul", NR_MATMUL},
    {"max", NR_REDUCE}, {"mean", NR_REDUCE}, {"median", NR_REDUCE}, {"min", NR_REDUCE}, {"mm", NR_MATMUL},
    {"mode", NR_REDUCE}, {"mv", NR_MATMUL}, {"nanmedian", NR_REDUCE}, {"nanquantile", NR_PASS},
    {"narrow", NR_KEEP}, {"ndimension", NR_PASS},
    {"ne", NR_CMP}, {"nelement", NR_PASS}, {"normal_", NR_KEEP}, {"numel", NR_PASS}, {"ones_like", NR_KEEP},
    {"pad", NR_PASS}, {"prod", NR_REDUCE}, {"quantile", NR_PASS}, {"rand_like", NR_KEEP}, {"randn_like", NR_KEEP},
    {"random_", NR_KEEP}, {"requires_grad_", NR_PASS}, {"resize_", NR_PASS}, {"resize_as_", NR_RESIZE_AS},
    {"rsub", NR_UNIFY}, {"select", NR_SELECT}, {"short", NR_KEEP}, {"signbit", NR_KEEP}, {"size", NR_PASS},
    {"softmax", NR_KEEP}, {"split", NR_KEEP}, {"split_with_sizes", NR_KEEP}, {"squeeze", NR_SQUEEZE}, {"squeeze_", NR_PASS}, {"std", NR_REDUCE},
    {"std_mean", NR_REDUCE}, {"storage_offset", NR_PASS}, {"stride", NR_PASS}, {"sum", NR_REDUCE},
    {"swapaxes", NR_TRANSPOSE}, {"swapaxes_", NR_PASS}, {"swapdims", NR_TRANSPOSE}, {"swapdims_", NR_PASS}, {"t", NR_T}, {"t_", NR_PASS}, {"tensor_split", NR_KEEP}, {"threshold", NR_KEEP}, {"threshold_", NR_KEEP},
    {"to", NR_KEEP}, {"to_dense", NR_KEEP}, {"tolist", NR_PASS}, {"transpose", NR_TRANSPOSE}, {"transpose_", NR_PASS},
    {"true_divide", NR_PASS}, {"type", NR_KEEP}, {"type_as", NR_KEEP}, {"unbind", NR_SELECT},
    {"unflatten", NR_PASS}, {"uniform_", NR_KEEP}, {"unsafe_chunk", NR_KEEP}, {"unsafe_split", NR_KEEP}, {"unsafe_split_with_sizes", NR_KEEP}, {"var", NR_REDUCE}, {"var_mean", NR_REDUCE}, {"zero_", NR_KEEP},
    {"zeros_like", NR_KEEP},
};

static int cmp_str(const void *a, const void *b) { return strcmp(a, *(const char *const *)b); }
static int cmp_rule(const void *k, const void *e) { return strcmp(k, ((const NameRule *)e)->name); }

unsigned char bind_names_rule_of(const char *name)
{
    static bool checked;
    if (!checked) {
        for (size_t i = 1; i < sizeof rules / sizeof *rules; i++)
            if (strcmp(rules[i - 1].name, rules[i].name) >= 0) {
                fprintf(stderr, "tsr: names rules not sorted at \"%s\"\n", rules[i].name);
                abort();
            }
        checked = true;
    }
    const NameRule *r = bsearch(name, rules, sizeof rules / sizeof *rules, sizeof *rules, cmp_rule);
    if (r) return r->rule;
    return tsr_op_find(name) || tsr_op_find_name(name) ? NR_PASS : NR_REFUSE;
}

/* ------------------------------------------------------------ helpers */

static bool is_seq(Value *v)
{
    return v->type == &t_tuple || v->type == &t_list ||
           (v->type->module && !strcmp(v->type->module, "torch.return_types"));
}

static bool named(Value *v)
{
    if (!v) return false;
    if (is_tensor(v)) return tensor_of(v)->names != NULL;
    if (v->type == &t_tuple || v->type == &t_list)
        for (size_t i = 0; i < seq_len(v); i++)
            if (is_tensor(v->u.seq.items[i]) && tensor_of(v->u.seq.items[i])->names) return true;
    return false;
}

static int slot_of(const BindArgs *b, const char *name)
{
    for (int i = 0; i < BIND_MAXP; i++)
        if (b->param[i] && !strcmp(b->param[i]->name, name)) return i;
    return -1;
}

static Value *arg(const BindArgs *b, const char *name)
{
    int s = slot_of(b, name);
    return s < 0 ? NULL : b->v[s];
}

/* the first tensor argument (self / input) */
static tsr_tensor *first_tensor(const BindArgs *b, Value *self)
{
    if (self && is_tensor(self)) return tensor_of(self);
    for (int i = 0; i < BIND_OUT; i++)
        if (b->v[i] && is_tensor(b->v[i])) return tensor_of(b->v[i]);
    return NULL;
}

static void names_of(const tsr_tensor *t, tsr_name *out)
{
    for (int i = 0; i < t->ndim; i++) out[i] = t->names ? t->names[i] : NULL;
}

/* One dim value (int or name) of t into *d; 1 done, 0 not a dim we can read
 * (the handler reports it), -1 error. */
static int dim_value(Value *v, const tsr_tensor *t, int64_t *d)
{
    if (v->type == &t_str) {
        int k = tsr_dim_of_name(t, v->u.s.p);
        if (k < 0) return bind_runtime_errori();
        *d = k;
        return 1;
    }
    if (is_none(v)) {
        tsr_error_set(TSR_ERR_RUNTIME, "Please look up dimensions by name, got: name = None.");
        return bind_runtime_errori();
    }
    if (v->type != &t_int && v->type != &t_bool) return 0;
    int64_t x = v->u.i, n = t->ndim ? t->ndim : 1;
    if (x < -n || x >= n) return 0;
    *d = x < 0 ? x + n : x;
    return 1;
}

/* Rows whose decomposition in 1.13, and so the op its fallback names,
 * depends on the call (probed): the first entry of the row's name (and
 * module, NULL: any) whose conditions all hold gives the schema; "" leaves
 * the refusal to the handler or the runtime, which check the arguments
 * first (conv's unbatched input is unsqueezed first, a complex one split by
 * view_as_real; linalg.cond's non-square matrix error comes before its
 * decomposition, svdvals for p None/2/-2/'nuc', inv for the others). */
enum {
    W_NDIM = 1,      /* the input has ndim dims */
    W_COMPLEX = 2,   /* the input is complex */
    W_SQUARE = 4,    /* the input is a batch of square matrices */
    W_GIVEN = 8,     /* the argument arg is given (not None) */
    W_ABSENT = 16,   /* the argument arg is absent or None */
    W_STR = 32,      /* the argument arg is the string str */
    W_NUM = 64,      /* the argument arg is the number num */
    W_NAMED = 128,   /* the input has names */
};
static const struct {
    const char *name, *module;
    unsigned char when;
    signed char ndim;
    const char *arg, *str;
    double num;
    const char *schema;
} composite_cases[] = {
    {"conv1d", NULL, W_NAMED | W_NDIM, 2, NULL, NULL, 0, "aten::unsqueeze"},
    {"conv1d", NULL, W_NAMED | W_COMPLEX, 0, NULL, NULL, 0, "aten::view_as_real"},
    {"conv2d", NULL, W_NAMED | W_NDIM, 3, NULL, NULL, 0, "aten::unsqueeze"},
    {"conv2d", NULL, W_NAMED | W_COMPLEX, 0, NULL, NULL, 0, "aten::view_as_real"},
    {"conv3d", NULL, W_NAMED | W_NDIM, 4, NULL, NULL, 0, "aten::unsqueeze"},
    {"conv3d", NULL, W_NAMED | W_COMPLEX, 0, NULL, NULL, 0, "aten::view_as_real"},
    {"conv_transpose1d", NULL, W_NAMED | W_NDIM, 2, NULL, NULL, 0, "aten::unsqueeze"},
    {"conv_transpose1d", NULL, W_NAMED | W_COMPLEX, 0, NULL, NULL, 0, "aten::view_as_real"},
    {"conv_transpose2d", NULL, W_NAMED | W_NDIM, 3, NULL, NULL, 0, "aten::unsqueeze"},
    {"conv_transpose3d", NULL, W_NAMED | W_NDIM, 4, NULL, NULL, 0, "aten::unsqueeze"},
    {"linalg_cond", NULL, W_ABSENT, 0, "p", NULL, 0, "aten::_linalg_svd"},
    {"linalg_cond", NULL, W_NUM, 0, "p", NULL, 2, "aten::_linalg_svd"},
    {"linalg_cond", NULL, W_NUM, 0, "p", NULL, -2, "aten::_linalg_svd"},
    {"linalg_cond", NULL, W_SQUARE | W_STR, 0, "p", "nuc", 0, "aten::_linalg_svd"},
    {"linalg_cond", NULL, W_SQUARE, 0, NULL, NULL, 0, "aten::linalg_inv_ex"},
    {"linalg_cond", NULL, 0, 0, NULL, NULL, 0, ""},
    {"mm", "torch.sparse", 0, 0, NULL, NULL, 0, "aten::_sparse_addmm"},
    {"rrelu", NULL, 0, 0, NULL, NULL, 0, "aten::rrelu_with_noise"},
    {"rrelu_", NULL, 0, 0, NULL, NULL, 0, "aten::rrelu_with_noise_"},
    {"sparse_coo_tensor", NULL, 0, 0, NULL, NULL, 0, "aten::_sparse_coo_tensor_with_dims_and_tensors"},
    {"sum", "torch.sparse", W_GIVEN, 0, "dim", NULL, 0, "aten::_sparse_sum.dim"},
    {"sum", "torch.sparse", 0, 0, NULL, NULL, 0, ""},
    {"to_sparse", NULL, W_GIVEN, 0, "sparse_dim", NULL, 0, "aten::to_sparse.sparse_dim"},
};

static bool case_holds(size_t i, const BindArgs *b, Value *self)
{
    const tsr_tensor *t = first_tensor(b, self);
    unsigned w = composite_cases[i].when;
    Value *v = composite_cases[i].arg ? arg(b, composite_cases[i].arg) : NULL;
    bool given = v && !is_none(v);
    double num = !given ? 0 : v->type == &t_int || v->type == &t_bool ? (double)v->u.i : v->type == &t_float ? v->u.f : NAN;
    if ((w & (W_NDIM | W_COMPLEX | W_SQUARE | W_NAMED)) && !t) return false;
    if ((w & W_NAMED) && !t->names) return false;
    if ((w & W_NDIM) && t->ndim != composite_cases[i].ndim) return false;
    if ((w & W_COMPLEX) && !tsr_dtype_is_complex(t->dtype)) return false;
    if ((w & W_SQUARE) && !(t->ndim >= 2 && t->sizes[t->ndim - 1] == t->sizes[t->ndim - 2])) return false;
    if ((w & W_GIVEN) && !given) return false;
    if ((w & W_ABSENT) && given) return false;
    if ((w & W_STR) && !(given && v->type == &t_str && !strcmp(v->u.s.p, composite_cases[i].str))) return false;
    if ((w & W_NUM) && num != composite_cases[i].num) return false;
    return true;
}

/* The op 1.13's fallback names for a composite row's call; "" when the
 * handler refuses; NULL when the row is not a composite. */
static const char *composite_of(const BindRow *d, const BindArgs *b, Value *self)
{
    const char *mod = d->module ? d->module : "torch";
    for (size_t i = 0; i < sizeof composite_cases / sizeof *composite_cases; i++)
        if (!strcmp(d->pname, composite_cases[i].name) &&
            (!composite_cases[i].module || !strcmp(mod, composite_cases[i].module)) && case_holds(i, b, self))
            return composite_cases[i].schema;
    for (size_t i = 0; i < sizeof composite_refusals / sizeof *composite_refusals; i++)
        if (!strcmp(d->pname, composite_refusals[i].name)) return composite_refusals[i].schema;
    return NULL;
}

/* ------------------------------------------------------------ refusal */

/* The ATen overload the call ran, as the fallback prints it. */
static void overload_name(const BindRow *d, const char *fname, const BindArgs *b, Value *self, char *buf, size_t cap)
{
    const char *base = d->op ? d->op : d->name;
    size_t fl = strlen(fname), bl = strlen(base);
    bool under = fl && fname[fl - 1] == '_' && !(bl && base[bl - 1] == '_');
    const BindSig *s = NULL;
    int nsig = 0;
    if (b->sig >= 0) {
        s = &d->fs[b->sig < d->nfs ? b->sig : 0];
        for (int i = 0; i < d->nfs; i++) nsig += !d->fs[i].hidden;
    }
    const char *ov = NULL;
    char tmp[64];
    const char *comp = composite_of(d, b, self);
    if (!strcmp(d->pname, "isin")) {
        Value *o = b->v[BIND_OUT];
        snprintf(buf, cap, "aten::isin.%s_%s%s", arg(b, "element") ? "Scalar" : "Tensor",
                 arg(b, "test_element") ? "Scalar" : "Tensor", o && !is_none(o) ? "_out" : "");
        return;
    }
    if ((!strcmp(d->pname, "fft_hfft2") || !strcmp(d->pname, "fft_hfftn")) && arg(b, "s") && !is_none(arg(b, "s")))
        comp = "aten::_conj";   /* with s given 1.13 conjugates first (probed) */
    if ((!strcmp(d->pname, "fft_fft") || !strcmp(d->pname, "fft_ifft")) && arg(b, "input") && is_tensor(arg(b, "input")) &&
        tsr_dtype_is_complex(tensor_of(arg(b, "input"))->dtype))
        comp = "aten::_fft_c2c";   /* the table's entry is for a real input */
    Value *outv = b->v[BIND_OUT];
    bool out = outv && !is_none(outv);
    bool rcond = !strcmp(d->pname, "linalg_pinv") && arg(b, "rcond");   /* pinv(x, rcond, out=): no _out (probed) */
    if (comp && out && !rcond)
        for (size_t i = 0; i < sizeof composite_out / sizeof *composite_out; i++)
            if (!strcmp(d->pname, composite_out[i].name)) comp = composite_out[i].schema;
    if (!strcmp(d->pname, "searchsorted")) {
        Value *v = arg(b, "self") ? arg(b, "self") : arg(b, "input");
        if (v && !is_tensor(v)) comp = "aten::searchsorted.Scalar";
    }
    if (!strcmp(d->name, "repeat_interleave") && arg(b, "dim") && !is_none(arg(b, "dim"))) comp = "aten::index_select";
    if (comp) {
        snprintf(buf, cap, "%s", comp);
        return;
    }
    if (!strcmp(d->pname, "count_nonzero") && arg(b, "dim") && is_seq(arg(b, "dim"))) {
        snprintf(buf, cap, "aten::count_nonzero.dim_IntList%s", out ? "_out" : "");
        return;
    }
    if ((!strcmp(d->name, "softmax") || !strcmp(d->name, "log_softmax")) && out) {
        snprintf(buf, cap, "aten::%s.int_out", d->name);
        return;
    }
    if ((!strcmp(d->name, "all") || !strcmp(d->name, "any")) && out) {
        snprintf(buf, cap, "aten::%s.%s", d->name, arg(b, "dim") ? "out" : "all_out");
        return;
    }
    if (!strncmp(d->pname, "special_", 8)) base = d->pname;
    static const struct { const char *alias, *name; } aliases[] = {
        {"greater", "gt"}, {"greater_equal", "ge"}, {"less", "lt"}, {"less_equal", "le"}, {"not_equal", "ne"},
    };
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
        if (!strcmp(base, aliases[i].alias)) base = aliases[i].name;
    Value *in0 = self ? self : arg(b, "input") ? arg(b, "input") : arg(b, "self");
    if (!strcmp(d->name, "where")) {
        if (!arg(b, "other")) {
            snprintf(buf, cap, "aten::nonzero");
            return;
        }
        ov = "self";
    } else if (!strcmp(d->name, "randint_like")) ov = arg(b, "low") ? "low_dtype" : NULL;
    else if (!strcmp(d->name, "bucketize")) ov = in0 && !is_tensor(in0) ? "Scalar" : "Tensor";
    else if (!strcmp(d->name, "histogram")) ov = arg(b, "bins") && is_tensor(arg(b, "bins")) ? "bins_tensor" : "bin_ct";
    else if (!strcmp(d->name, "repeat_interleave")) {
        if (self || arg(b, "input")) base = "_reshape_alias";
        else ov = "Tensor";
    } else if (!strcmp(d->pname, "xlogy") || !strcmp(d->pname, "xlogy_") || !strcmp(d->pname, "special_xlogy")) {
        Value *o = arg(b, "other");
        base = "xlogy";
        under = under || !strcmp(d->pname, "xlogy_");   /* torch.xlogy_(x, y) */
        ov = in0 && is_tensor(in0) ? (o && is_tensor(o) ? "Tensor" : "Scalar_Other") : "Scalar_Self";
        if (out) {
            snprintf(buf, cap, "aten::xlogy.Out%s", ov);
            return;
        }
    } else if (!strcmp(d->pname, "special_xlog1py") || !strcmp(d->pname, "special_zeta")) {
        Value *o = arg(b, "other");
        ov = in0 && !is_tensor(in0) ? "self_scalar" : o && !is_tensor(o) ? "other_scalar" : NULL;
    } else if (!strncmp(d->pname, "special_", 8) && strstr(d->pname, "_polynomial_")) {
        Value *n = arg(b, "n");
        ov = NULL;
        if (out) {   /* the out overloads are named by the operand that is a number */
            snprintf(buf, cap, "aten::%s.%s", d->pname, in0 && !is_tensor(in0) ? "x_scalar_out" :
                     n && !is_tensor(n) ? "n_scalar_out" : "out");
            return;
        }
    } else if (!strcmp(d->pname, "round") || !strcmp(d->pname, "special_round")) {
        base = "round";
        ov = "decimals";
    } else if (!strcmp(d->name, "scatter")) ov = arg(b, "value") ? "value" : "src";
    else if ((!strcmp(d->name, "max") || !strcmp(d->name, "min")) && arg(b, "other"))
        base = d->name[1] == 'a' ? "maximum" : "minimum";
    else if (!strcmp(d->name, "normal")) {
        Value *m = arg(b, "mean"), *sd = arg(b, "std");
        snprintf(tmp, sizeof tmp, "%s_%s", m && is_tensor(m) ? "Tensor" : "float", sd && is_tensor(sd) ? "Tensor" : "float");
        ov = tmp;
    } else if (!strcmp(d->name, "reshape") || !strcmp(d->name, "reshape_as")) {
        base = "_reshape_alias";
    } else if (s && nsig > 1) {
        /* the parameter whose type tells this overload from another: a dim
         * (".dim" when the others lack one, ".dimname" for a name, none
         * when the other overload takes the name), else Tensor / Scalar */
        int ds = slot_of(b, "dim");
        bool other_named = false, other_nodim = false;
        for (int i = 0; i < d->nfs; i++) {
            bool has = false, nm = false;
            for (int j = 0; j < d->fs[i].n; j++)
                if (!strcmp(d->fs[i].p[j].name, "dim")) {
                    has = true;
                    nm = d->fs[i].p[j].type == BT_DIMNAME || d->fs[i].p[j].type == BT_DIMNAME_LIST;
                }
            other_named = other_named || nm;
            other_nodim = other_nodim || !has;
        }
        if (ds >= 0 && b->v[ds] && b->type[ds] == BT_INT) ov = other_nodim ? "dim" : NULL;
        else if (ds >= 0 && b->v[ds] && b->type[ds] == BT_DIMNAME) ov = "dimname";
        else
            for (int i = BIND_OUT - 1; i >= 1 && !ov; i--) {
                if (!b->v[i] || !b->param[i] || b->bykw[i]) continue;
                const char *pn = b->param[i]->name;
                bool differs = false;
                for (int k = 0; k < d->nfs && !differs; k++)
                    for (int j = 0; j < d->fs[k].n; j++)
                        if (!strcmp(d->fs[k].p[j].name, pn) && d->fs[k].p[j].type != b->type[i]) differs = true;
                if (!differs) continue;
                if (b->type[i] == BT_TENSOR) ov = "Tensor";
                else if (b->type[i] == BT_NUMBER) ov = "Scalar";
            }
    }
    /* with out= the fallback names the out overload: sgn.out, fmod.Scalar_out,
     * and .values for the (values, indices) pair of sort/topk (probed) */
    const char *outs = !out ? "" : is_seq(outv) ? ".values" : ov ? "_out" : ".out";
    snprintf(buf, cap, "aten::%s%s%s%s%s", base, under ? "_" : "", ov ? "." : "", ov ? ov : "", outs);
}

static Value *refuse_named(const char *schema)
{
    tsr_names_refuse(schema);
    return bind_runtime_error();
}

/* ------------------------------------------------------------ rules */

typedef struct {
    tsr_name names[TSR_MAX_NAMED_DIMS];
    int n;          /* -1: the result is left alone */
    bool each;      /* a sequence result: every tensor in it gets the names */
    bool raw;       /* matmul: duplicate names are not rejected (1.13) */
    bool removed[TSR_MAX_NAMED_DIMS];   /* for :explain: the dims a removing rule removed */
    bool keep;      /* keepdim=True */
    bool quirk;     /* squeeze(d) of a dim whose size is not 1 (names dropped) */
    int d0, d1;     /* transpose's dims */
} Outnames;

/* removes the dims that the `dim` argument names (int, name, or a list) */
static int reduce_names(const BindArgs *b, const tsr_tensor *t, bool single, Outnames *o)
{
    int s = slot_of(b, "dim");
    Value *v = s >= 0 ? b->v[s] : NULL;
    bool removed[TSR_MAX_NAMED_DIMS] = {false};
    Value *kd = arg(b, "keepdim");
    bool keep = kd && kd->u.i;
    if (!v || (is_seq(v) && seq_len(v) == 0 && !single)) {
        o->n = keep ? -1 : 0;   /* a full reduction: 0-dim, or keepdim's all-size-1 result keeps names */
        if (keep) {
            names_of(t, o->names);
            o->n = t->ndim;
        }
        return 0;
    }
    if (is_seq(v)) {
        for (size_t i = 0; i < seq_len(v); i++) {
            int64_t d;
            int rc = dim_value(v->u.seq.items[i], t, &d);
            if (rc <= 0) return rc;
            removed[d] = true;
        }
    } else {
        int64_t d;
        int rc = dim_value(v, t, &d);
        if (rc <= 0) return rc;
        removed[d] = true;
    }
    names_of(t, o->names);
    memcpy(o->removed, removed, sizeof removed);
    o->keep = keep;
    if (!keep) {
        tsr_name tmp[TSR_MAX_NAMED_DIMS];
        o->n = tsr_names_remove(o->names, t->ndim, removed, tmp);
        memcpy(o->names, tmp, sizeof *tmp * (size_t)o->n);
    } else {
        o->n = t->ndim;
    }
    return 1;
}

/* The names of the call's result, before it runs. 0 ok, -1 error. */
static int compute(int rule, const BindRow *d, const char *fname, BindArgs *b, Value *self, Outnames *o)
{
    tsr_tensor *t = first_tensor(b, self);
    memset(o, 0, sizeof *o);
    o->n = -1;
    o->d0 = o->d1 = -1;
    o->raw = rule == NR_MATMUL;
    if (!t && rule != NR_CAT) return 0;
    switch (rule) {
    case NR_KEEP:
        names_of(t, o->names);
        o->n = t->ndim;
        o->each = true;
        return 0;
    case NR_REDUCE_NODIM:
        if (arg(b, "dim") && arg(b, "dim")->type == &t_str) {   /* all.dimname: reportNYIDimnameOverload */
            exc_set("RuntimeError", "%s: You passed a dimname (string) to this op in place of a dimension index but "
                    "it does not yet support this behavior. Please pass a dimension index to work around this.", d->name);
            return -1;
        }
        if (arg(b, "dim")) {
            char s[128];
            overload_name(d, fname, b, self, s, sizeof s);
            refuse_named(s);
            return -1;
        }
        return reduce_names(b, t, false, o) < 0 ? -1 : 0;
    case NR_REDUCE:
        if (slot_of(b, "dim") < 0 && slot_of(b, "other") >= 0) {   /* max(a, b) */
            char s[128];
            overload_name(d, fname, b, self, s, sizeof s);
            refuse_named(s);
            return -1;
        }
        o->each = true;
        return reduce_names(b, t, false, o) < 0 ? -1 : 0;
    case NR_SELECT: {
        o->each = true;
        Value *v = arg(b, "dim");
        int64_t dd = 0;
        int rc = v ? dim_value(v, t, &dd) : (t->ndim ? 1 : 0);
        if (rc <= 0) return rc;
        bool removed[TSR_MAX_NAMED_DIMS] = {false};
        removed[dd] = true;
        memcpy(o->removed, removed, sizeof removed);
        o->n = tsr_names_remove(t->names, t->ndim, removed, o->names);
        return 0;
    }
    case NR_SQUEEZE: {
        Value *v = arg(b, "dim");
        bool removed[TSR_MAX_NAMED_DIMS] = {false};
        if (v) {
            int64_t dd;
            int rc = dim_value(v, t, &dd);
            if (rc <= 0) return rc;
            if (t->sizes[dd] != 1) { o->n = 0; o->each = false; o->quirk = true; return 0; }   /* 1.13 quirk: names dropped */
            removed[dd] = true;
        } else {
            for (int i = 0; i < t->ndim; i++) removed[i] = t->sizes[i] == 1;
        }
        memcpy(o->removed, removed, sizeof removed);
        o->n = tsr_names_remove(t->names, t->ndim, removed, o->names);
        return 0;
    }
    case NR_TRANSPOSE: {
        int64_t a, c;
        Value *v0 = arg(b, "dim0") ? arg(b, "dim0") : arg(b, "axis0"), *v1 = arg(b, "dim1") ? arg(b, "dim1") : arg(b, "axis1");
        if (!v0 || !v1) return 0;
        int rc = dim_value(v0, t, &a);
        if (rc <= 0) return rc;
        if ((rc = dim_value(v1, t, &c)) <= 0) return rc;
        names_of(t, o->names);
        o->d0 = (int)a;
        o->d1 = (int)c;
        tsr_name x = o->names[a];
        o->names[a] = o->names[c];
        o->names[c] = x;
        o->n = t->ndim;
        return 0;
    }
    case NR_T:
        names_of(t, o->names);
        if (t->ndim == 2) {
            tsr_name x = o->names[0];
            o->names[0] = o->names[1];
            o->names[1] = x;
        }
        o->n = t->ndim;
        return 0;
    case NR_MATMUL: {
        tsr_tensor *a = NULL, *c = NULL;
        for (int i = 0; i < BIND_OUT && !c; i++)
            if (b->v[i] && is_tensor(b->v[i])) {
                if (!a) a = tensor_of(b->v[i]);
                else c = tensor_of(b->v[i]);
            }
        if (!a || !c || a->ndim == 0 || c->ndim == 0) return 0;
        if (tsr_names_matmul(a->names, a->ndim, c->names, c->ndim, o->names, &o->n) < 0) return bind_runtime_errori();
        return 0;
    }
    case NR_ADDMM: {
        tsr_tensor *m1 = NULL, *m2 = NULL;
        Value *v1 = arg(b, "mat1"), *v2 = arg(b, "mat2") ? arg(b, "mat2") : arg(b, "vec");
        if (!v1) v1 = arg(b, "mat");
        if (!v1 || !v2 || !is_tensor(v1) || !is_tensor(v2)) return 0;
        m1 = tensor_of(v1);
        m2 = tensor_of(v2);
        if (m1->ndim == 0 || m2->ndim == 0) return 0;
        tsr_name mm[TSR_MAX_NAMED_DIMS];
        int nmm;
        if (tsr_names_matmul(m1->names, m1->ndim, m2->names, m2->ndim, mm, &nmm) < 0) return bind_runtime_errori();
        if (tsr_names_unify(mm, nmm, t->names, t->ndim, "broadcast", o->names) < 0) return bind_runtime_errori();
        o->n = nmm > t->ndim ? nmm : t->ndim;
        return 0;
    }
    case NR_CAT: {
        Value *l = arg(b, "tensors");
        if (!l || !is_seq(l) || !seq_len(l)) return 0;
        tsr_tensor *f = NULL;
        int n = 0;
        for (size_t i = 0; i < seq_len(l); i++) {
            Value *x = l->u.seq.items[i];
            if (!is_tensor(x)) return 0;
            tsr_tensor *u = tensor_of(x);
            if (u->ndim == 0) return 0;   /* the shape check reports it */
            if (!f) {
                f = u;
                names_of(u, o->names);
                n = u->ndim;
                continue;
            }
            if (u->ndim != n) return 0;
            tsr_name tmp[TSR_MAX_NAMED_DIMS];
            if (tsr_names_unify(o->names, n, u->names, u->ndim, "cat", tmp) < 0) return bind_runtime_errori();
            memcpy(o->names, tmp, sizeof *tmp * (size_t)n);
        }
        Value *dv = arg(b, "dim");
        if (dv && dv->type == &t_str && tsr_dim_of_name(f, dv->u.s.p) < 0) return bind_runtime_errori();
        o->n = n;
        return 0;
    }
    case NR_EXPAND: {
        Value *sz = arg(b, "size"), *other = arg(b, "other");
        int n = sz && is_seq(sz) ? (int)seq_len(sz) : -1;
        if (other && is_tensor(other)) n = tensor_of(other)->ndim;
        if (b->varargs) n = (int)seq_len(b->varargs);
        if (n < t->ndim || n > TSR_MAX_NAMED_DIMS) return 0;
        for (int i = 0; i < n; i++) o->names[i] = i < n - t->ndim ? NULL : t->names[i - (n - t->ndim)];
        o->n = n;
        return 0;
    }
    case NR_UNIFY: {
        int n = -1;
        for (int i = 0; i < BIND_OUT; i++) {
            if (!b->v[i] || !is_tensor(b->v[i])) continue;
            tsr_tensor *u = tensor_of(b->v[i]);
            if (n < 0) {
                names_of(u, o->names);
                n = u->ndim;
                continue;
            }
            tsr_name tmp[TSR_MAX_NAMED_DIMS];
            if (tsr_names_unify(o->names, n, u->names, u->ndim, "broadcast", tmp) < 0) return bind_runtime_errori();
            n = n > u->ndim ? n : u->ndim;
            memcpy(o->names, tmp, sizeof *tmp * (size_t)n);
        }
        o->n = n;
        return 0;
    }
    case NR_RESIZE_AS: {
        Value *tp = arg(b, "the_template");
        if (!tp || !is_tensor(tp)) return 0;
        tsr_tensor *u = tensor_of(tp);
        names_of(u, o->names);
        o->n = u->ndim;
        return 0;
    }
    case NR_MASKED_SELECT: {
        Value *m = arg(b, "mask");
        if (m && is_tensor(m)) {
            tsr_name tmp[TSR_MAX_NAMED_DIMS];
            if (tsr_names_unify(t->names, t->ndim, tensor_of(m)->names, tensor_of(m)->ndim, "broadcast", tmp) < 0)
                return bind_runtime_errori();
        }
        o->names[0] = NULL;
        o->n = 1;
        return 0;
    }
    case NR_COPY: {
        Value *s = arg(b, "src") ? arg(b, "src") : arg(b, "other");
        if (!s || !is_tensor(s)) return 0;
        tsr_tensor *u = tensor_of(s);
        if (u->ndim > t->ndim) return 0;
        if (tsr_names_unify(t->names, t->ndim, u->names, u->ndim, "broadcast", o->names) < 0)
            return bind_runtime_errori();
        o->n = t->ndim;
        return 0;
    }
    case NR_FLATTEN: {
        Value *od = arg(b, "out_dim");
        if (!od) {
            refuse_named("aten::_reshape_alias");
            return -1;
        }
        tsr_name outname;
        if (bind_names_one(od, &outname) < 0) return -1;
        int64_t s0 = 0, s1 = 0;
        Value *dims = arg(b, "dims");
        if (dims) {
            size_t k = seq_len(dims);
            if (!k) {
                exc_set("RuntimeError", "flatten(tensor, dims, out_dim): dims cannot be empty");
                return -1;
            }
            int64_t idx[TSR_MAX_NAMED_DIMS];
            for (size_t i = 0; i < k && i < TSR_MAX_NAMED_DIMS; i++) {
                int rc = dim_value(dims->u.seq.items[i], t, &idx[i]);
                if (rc <= 0) return rc;
            }
            for (size_t i = 1; i < k; i++)
                if (idx[i] != idx[i - 1] + 1) {
                    char a[512], c[512];
                    tsr_names_format(a, sizeof a, NULL, 0);
                    tsr_name dn[TSR_MAX_NAMED_DIMS];
                    for (size_t j = 0; j < k; j++) dn[j] = t->names ? t->names[idx[j]] : NULL;
                    tsr_names_format(a, sizeof a, dn, (int)k);
                    tsr_names_format(c, sizeof c, t->names, t->ndim);
                    exc_set("RuntimeError", "flatten(tensor, dims, out_dim): dims %s must be consecutive in Tensor%s", a, c);
                    return -1;
                }
            s0 = idx[0];
            s1 = idx[k - 1];
        } else {
            Value *a = arg(b, "start_dim"), *c = arg(b, "end_dim");
            int rc;
            if (!a || !c || (rc = dim_value(a, t, &s0)) <= 0 || (rc = dim_value(c, t, &s1)) <= 0) return 0;
        }
        int k = 0;
        for (int i = 0; i < t->ndim; i++) {
            if (i > s0 && i <= s1) continue;
            o->names[k++] = i == s0 ? outname : t->names ? t->names[i] : NULL;
        }
        o->n = k;
        if (tsr_names_check_unique(o->names, k) < 0) return bind_runtime_errori();
        return 0;
    }
    default: break;
    }
    return 0;
}

/* gives v (a tensor, or each tensor of a sequence) the names */
static int apply(Value *v, const Outnames *o)
{
    if (!v || o->n < 0) return 0;
    if (is_tensor(v)) {
        tsr_tensor *t = tensor_of(v);
        if (t->ndim != o->n) return 0;
        return (o->raw ? tsr_names_propagate_raw(t, o->names, o->n) : tsr_names_propagate(t, o->names, o->n)) < 0
                   ? bind_runtime_errori() : 0;
    }
    if (is_seq(v))
        for (size_t i = 0; i < seq_len(v); i++)
            if (apply(v->u.seq.items[i], o) < 0) return -1;
    return 0;
}

/* the out= check before anything runs */
static int check_out(Value *v, const Outnames *o)
{
    if (!v || o->n < 0) return 0;
    if (is_tensor(v)) {
        const tsr_tensor *t = tensor_of(v);
        return t->ndim == o->n && tsr_names_check_out(t, o->names, o->n) < 0 ? bind_runtime_errori() : 0;
    }
    if (is_seq(v))
        for (size_t i = 0; i < seq_len(v); i++)
            if (check_out(v->u.seq.items[i], o) < 0) return -1;
    return 0;
}

/* 1.13 computes these ops on meta tensors with Python decompositions, which
 * refuse named inputs with their own message (probed: abs, logical_not,
 * std, var and the filled *_like factories). Sorted. */
static const char *const meta_refs[] = {"abs", "full_like", "logical_not", "nanmedian", "ones_like", "std", "var",
                                        "zeros_like"};

static bool meta_decomposed(const BindRow *d, BindArgs *b, Value *self)
{
    tsr_tensor *t = first_tensor(b, self);
    if (!t || !t->names || !tsr_tensor_is_meta(t)) return false;
    if (!bsearch(d->name, meta_refs, sizeof meta_refs / sizeof *meta_refs, sizeof *meta_refs, cmp_str)) return false;
    exc_set("RuntimeError", "NYI: Named tensors are currently unsupported in TorchScript. As a  workaround please drop "
            "names via `tensor = tensor.rename(None)`.");
    return true;
}

static bool writes_self(Value *self, const char *fname, bool inplace)
{
    size_t fl = strlen(fname);
    return self && (inplace || (fl && fname[fl - 1] == '_'));
}

/* Rows whose out= overload 1.13 refuses although the op has a names rule
 * (all/any: only the full reduction's all_out; probed). Sorted. */
static const char *const refused_with_out[] = {"all", "any", "conj_physical", "log_softmax", "softmax"};

/* Calls 1.13 refuses although the row has a rule or an op descriptor:
 * decompositions (composite_refusals), in-place forms without a names rule
 * (cumsum_(int), conj_physical_), round(decimals=), randint_like, and the
 * special functions whose overload names the elementwise refusal gets wrong. */
static bool special_refusal(const BindRow *d, const char *fname, BindArgs *b, Value *self)
{
    const char *comp = composite_of(d, b, self);
    if (comp && *comp) return true;
    if (!strcmp(fname, "conj_physical_")) return true;
    Value *outv = b->v[BIND_OUT];
    bool out = outv && !is_none(outv);
    Value *dimv = arg(b, "dim");
    if (out && !(dimv && dimv->type == &t_str) && bsearch(d->name, refused_with_out, sizeof refused_with_out / sizeof *refused_with_out,
                       sizeof *refused_with_out, cmp_str))
        return true;
    if (!strcmp(d->pname, "xlogy_")) return true;
    if (!strcmp(fname, "cumsum_") || !strcmp(fname, "cumprod_")) {
        Value *dv = arg(b, "dim");
        return dv && dv->type != &t_str;
    }
    if (!strcmp(d->pname, "special_round")) return true;
    if (!strcmp(d->pname, "round")) return arg(b, "decimals") != NULL;
    if (!strcmp(d->pname, "special_xlog1py") || !strcmp(d->pname, "special_zeta") || !strcmp(d->pname, "xlogy") ||
        !strcmp(d->pname, "special_xlogy") || (!strncmp(d->pname, "special_", 8) && strstr(d->pname, "_polynomial_")))
        return true;
    (void)self;
    return false;
}

/* ------------------------------------------------------------ :explain */

typedef struct { const char *family, *rule; } Family;

static const char REMOVES[] =
    "An op that reduces over dims (sum, mean, max, std, ...) removes them, and their names go with them; "
    "with keepdim=True the dims stay (size 1) and keep their names. select, unbind and squeeze remove a "
    "dim the same way. Wherever an op takes a dim, it also takes the dim's name.";
static const char CONTRACTS[] =
    "A matrix product sums over the last dim of the first operand and the matching dim of the second; "
    "those dims disappear, and their names are not checked against each other. mm gives (a.names[-2], "
    "b.names[-1]); mv and dot drop the dims of the dot product; matmul and bmm first unify the batch dims "
    "(all but the last two) from the right, as elementwise ops do.";
static const char UNIFIES[] =
    "The name lists are lined up from the right (the last dims first, as broadcasting lines up shapes); "
    "in each column a None (an unnamed dim) takes the other name, equal names stay, different names are "
    "an error, and a name matched with None must not appear elsewhere in the other list.";
static const char PERMUTES[] =
    "Names belong to dims: when an op reorders the dims, their names move with them. A dim may be given "
    "by its name.";

static Family family_of(int rule)
{
    switch (rule) {
    case NR_KEEP: return (Family){"Keeps input names", "The result has the input's names, dim for dim."};
    case NR_REDUCE: case NR_REDUCE_NODIM: case NR_SELECT: case NR_SQUEEZE:
        return (Family){"Removes dimensions", REMOVES};
    case NR_TRANSPOSE: case NR_T: return (Family){"Permutes dimensions", PERMUTES};
    case NR_MATMUL: return (Family){"Contracts away dims", CONTRACTS};
    case NR_ADDMM:
        return (Family){"Contracts away dims", "addmm and addmv compose the rule of mm (mv) with that of add: "
                        "the product drops the contracted dims (the last of mat1, the first of mat2), then "
                        "its names are unified from the right with self's."};
    case NR_CAT: return (Family){"Unifies names from inputs", "torch.cat lines the tensors' names up dim for "
                                 "dim: a None takes the other name, different names are an error. The dim "
                                 "to join along may be given by name."};
    case NR_UNIFY: case NR_CMP: return (Family){"Unifies names from inputs", UNIFIES};
    case NR_EXPAND: return (Family){"Keeps input names", "expand keeps the names of the existing dims; the new "
                                    "leading dims it adds have no names (None)."};
    case NR_MASKED_SELECT:
        return (Family){"Aligns mask up to input and then unifies_names_from_input_tensors",
                        "The names of self and mask are unified from the right (this checks them); the "
                        "result is the 1-d list of the selected values, with no name."};
    case NR_COPY: return (Family){"out function and in-place variants", "copy_ writes src into self, which "
                                  "keeps its shape: the names of self and src are unified from the right and "
                                  "self takes the unified names."};
    case NR_FLATTEN: return (Family){"See documentation", "flatten(dims, out_dim) merges consecutive dims into "
                                     "one dim named out_dim; the other dims keep their names."};
    case NR_RESIZE_AS: return (Family){"Only allow resizes that do not change shape", "A named tensor can only "
                                       "be \"resized\" to its own shape; it then takes the template's names."};
    default: break;
    }
    return (Family){"Not supported with named tensors", "PyTorch 1.13 has no name-inference rule for this "
                    "op, and rather than drop names silently it refuses any named input. Drop the names with "
                    "x.rename(None), run the op, then name the result (x.rename(...) or x.refine_names(...))."};
}

static void dim_phrase(char *buf, size_t cap, const tsr_tensor *t, int d)
{
    const char *n = t->names ? t->names[d] : NULL;
    if (n) snprintf(buf, cap, "%d ('%s')", d, n);
    else snprintf(buf, cap, "%d (None)", d);
}

/* what the rule did in this call, in words */
static void detail_of(int rule, const tsr_tensor *t, const Outnames *o, BindArgs *b, char *buf, size_t cap)
{
    buf[0] = 0;
    if (!t) return;
    size_t m = 0;
    char one[256];
    switch (rule) {
    case NR_REDUCE: case NR_REDUCE_NODIM: case NR_SELECT: case NR_SQUEEZE: {
        if (o->quirk) {
            snprintf(buf, cap, "squeeze of a dim whose size is not 1 removes nothing, but 1.13 then gives the "
                     "result no names at all (its own quirk, reproduced); the result still counts as named, so "
                     "printing it and ops without a names rule refuse it.");
            return;
        }
        int k = 0, total = 0;
        for (int i = 0; i < t->ndim; i++) total += o->removed[i];
        if (!total) {
            if (rule == NR_SQUEEZE) snprintf(buf, cap, "No dim has size 1: nothing is removed.");
            else if (o->keep) snprintf(buf, cap, "A full reduction with keepdim=True: every dim stays with size 1 "
                                       "and keeps its name.");
            else snprintf(buf, cap, "No dim given: a full reduction to a 0-dim tensor, which has no names.");
            return;
        }
        m += (size_t)snprintf(buf + m, cap - m, "%s %s ", o->keep ? "keepdim=True: the reduced" : "Removes",
                              total > 1 ? "dims" : "dim");
        for (int i = 0; i < t->ndim && m < cap; i++) {
            if (!o->removed[i]) continue;
            dim_phrase(one, sizeof one, t, i);
            m += (size_t)snprintf(buf + m, cap - m, "%s%s", k ? (++k == total ? " and " : ", ") : (k++, ""), one);
        }
        if (m < cap)
            snprintf(buf + m, cap - m, "%s", o->keep ? (total > 1 ? " stay with size 1 and keep their names."
                                                                   : " stays with size 1 and keeps its name.")
                                                     : ".");
        return;
    }
    case NR_TRANSPOSE: {
        if (o->d0 < 0) return;
        char x[128], y[128];
        dim_phrase(x, sizeof x, t, o->d0);
        dim_phrase(y, sizeof y, t, o->d1);
        snprintf(buf, cap, "Swaps dims %s and %s.", x, y);
        return;
    }
    case NR_T:
        snprintf(buf, cap, t->ndim == 2 ? "t() of a 2-d tensor swaps its two dims and their names."
                                        : "t() of a tensor with fewer than 2 dims changes nothing.");
        return;
    case NR_MATMUL: case NR_ADDMM: {
        Value *v1 = rule == NR_ADDMM ? (arg(b, "mat1") ? arg(b, "mat1") : arg(b, "mat")) : NULL;
        Value *v2 = rule == NR_ADDMM ? (arg(b, "mat2") ? arg(b, "mat2") : arg(b, "vec")) : NULL;
        const tsr_tensor *a = v1 && is_tensor(v1) ? tensor_of(v1) : NULL, *c = v2 && is_tensor(v2) ? tensor_of(v2) : NULL;
        for (int i = 0; i < BIND_OUT && rule == NR_MATMUL && !c; i++)
            if (b->v[i] && is_tensor(b->v[i])) {
                if (!a) a = tensor_of(b->v[i]);
                else c = tensor_of(b->v[i]);
            }
        if (!a || !c || !a->ndim || !c->ndim) return;
        char x[128], y[128];
        dim_phrase(x, sizeof x, a, a->ndim - 1);
        dim_phrase(y, sizeof y, c, c->ndim >= 2 ? c->ndim - 2 : 0);
        m += (size_t)snprintf(buf, cap, "The product contracts dim %s of %s with dim %s of %s; both "
                              "disappear.", x, rule == NR_ADDMM ? "mat1" : "a", y, rule == NR_ADDMM ? (c->ndim == 1 ? "vec" : "mat2") : "b");
        if (a->ndim > 2 || c->ndim > 2)
            snprintf(buf + m, cap - m, " The batch dims (all but the last two) are unified from the right.");
        else if (rule == NR_ADDMM)
            snprintf(buf + m, cap - m, " The product's names are then unified with self's.");
        return;
    }
    case NR_EXPAND:
        if (o->n > t->ndim) snprintf(buf, cap, "%d new leading dim%s, unnamed.", o->n - t->ndim, o->n - t->ndim > 1 ? "s" : "");
        return;
    default: return;
    }
}

/* the tensor arguments, labelled by parameter (cat: the list's items) */
static int operands_of(BindArgs *b, Value *self, const tsr_tensor **ops, const char **labels)
{
    int n = 0;
    if (self && is_tensor(self)) {
        ops[n] = tensor_of(self);
        labels[n++] = "self";
    }
    for (int i = 0; i < BIND_OUT && n < EXPLAIN_MAX_OPERANDS; i++) {
        Value *v = b->v[i];
        if (!v || (self && v == self)) continue;
        if (is_tensor(v)) {
            ops[n] = tensor_of(v);
            labels[n++] = b->param[i] ? b->param[i]->name : NULL;
        } else if (v->type == &t_tuple || v->type == &t_list) {
            for (size_t k = 0; k < seq_len(v) && n < EXPLAIN_MAX_OPERANDS; k++)
                if (is_tensor(v->u.seq.items[k])) {
                    ops[n] = tensor_of(v->u.seq.items[k]);
                    labels[n++] = b->param[i] ? b->param[i]->name : NULL;
                }
        }
    }
    return n;
}

static const tsr_tensor *first_result(Value *r)
{
    if (!r) return NULL;
    if (is_tensor(r)) return tensor_of(r);
    if (is_seq(r))
        for (size_t i = 0; i < seq_len(r); i++)
            if (is_tensor(r->u.seq.items[i])) return tensor_of(r->u.seq.items[i]);
    return NULL;
}

/* rt: the result tensor whose names are shown (else o's names); failed: the
 * call failed (its exception is pending) */
static void explain_names_step(const char *fname, const Family *f, const char *detail, int n, const tsr_tensor **ops,
                               const char **labels, const tsr_tensor *rt, bool failed, const Outnames *o,
                               const tsr_tensor *written, bool inplace)
{
    ExplainNames e;
    memset(&e, 0, sizeof e);
    e.op = fname;
    e.family = f->family;
    e.rule = f->rule;
    e.detail = detail && *detail ? detail : NULL;
    e.noperands = n;
    for (int i = 0; i < n; i++) {
        e.operands[i] = ops[i];
        e.label[i] = labels[i];
    }
    e.nresult = -1;
    if (rt) {
        e.nresult = rt->ndim;
        for (int i = 0; i < rt->ndim && i < TSR_MAX_DIMS; i++) e.result[i] = rt->names ? rt->names[i] : NULL;
    } else if (o && o->n >= 0) {
        e.nresult = o->n;
        memcpy(e.result, o->names, sizeof *o->names * (size_t)o->n);
    }
    e.written = written;
    e.inplace = inplace;
    e.error = !failed ? NULL : exc_pending() ? exc_message() : "the operation fails";
    e.refused = failed && e.error && strstr(e.error, "is not yet supported with named tensors");
    if (o && !o->keep && o->n >= 0 && n > 0) {
        bool anyr = false;
        for (int i = 0; i < ops[0]->ndim && i < TSR_MAX_NAMED_DIMS; i++) anyr = anyr || o->removed[i];
        if (anyr) e.removed = o->removed;
    }
    explain_record_names(&e);
}

/* The step of a rule family. */
static void explain_rule(int rule, const char *fname, BindArgs *b, Value *self, const tsr_tensor *rt, bool failed,
                         const Outnames *o, bool writes_self)
{
    if (!explain_active()) return;
    const tsr_tensor *ops[EXPLAIN_MAX_OPERANDS];
    const char *labels[EXPLAIN_MAX_OPERANDS];
    int n = operands_of(b, self, ops, labels);
    Family f = family_of(rule);
    char detail[1024] = "";
    if (o && !failed) detail_of(rule, first_tensor(b, self), o, b, detail, sizeof detail);
    Value *outv = b->v[BIND_OUT];
    const tsr_tensor *w = writes_self && self && is_tensor(self) ? tensor_of(self)
                          : outv && is_tensor(outv) ? tensor_of(outv) : NULL;
    explain_names_step(fname, &f, detail, n, ops, labels, rt, failed, o, w, writes_self);
}

/* A refusal: which ATen op refused (the error is pending as an exception). */
static Value *explain_refusal(const char *fname, BindArgs *b, Value *self, const char *schema)
{
    if (!explain_active()) return NULL;
    char detail[256];
    snprintf(detail, sizeof detail, "This call runs %s, which has no names rule in 1.13.", schema);
    const tsr_tensor *ops[EXPLAIN_MAX_OPERANDS];
    const char *labels[EXPLAIN_MAX_OPERANDS];
    int n = operands_of(b, self, ops, labels);
    Family f = family_of(NR_REFUSE);
    explain_names_step(fname, &f, detail, n, ops, labels, NULL, true, NULL, NULL, false);
    return NULL;
}

void bind_names_explain_api(const char *fname, const char *rule, const char *detail, const tsr_tensor *self,
                            const tsr_tensor *other, Value *r)
{
    if (!explain_active()) return;
    const tsr_tensor *ops[2] = {self, other};
    const char *labels[2] = {"self", "other"};
    Family f = {"See documentation", rule};
    explain_names_step(fname, &f, detail, other ? 2 : 1, ops, labels, first_result(r), !r, NULL, NULL, false);
}

/* ------------------------------------------------------------ warnings */

bool bind_warnings_ignored(void)
{
    static int state = -1;
    if (state < 0) {
        const char *p = getenv("PYTHONWARNINGS");
        state = p && !strncmp(p, "ignore", 6);
    }
    return state == 1;
}

void bind_names_warn(void)
{
    const char *w = tsr_names_warning_take();
    if (w && !bind_warnings_ignored()) fprintf(stderr, "UserWarning: %s\n", w);
}

/* ------------------------------------------------------------ TSR_NAMES_LOG */

/* TSR_NAMES_LOG=FILE: every call that reaches the names step with a named
 * tensor argument (or names= on a factory) appends its callable,
 * "Tensor.abs_" or "torch.abs", a line; scripts/named-coverage reads it to
 * see which coverage entries the cases really call with names. */
static FILE *names_log;
static int names_log_state = -1;   /* -1 not looked up, 0 off, 1 on */

static bool names_log_on(void)
{
    if (names_log_state < 0) {
        const char *p = getenv("TSR_NAMES_LOG");
        names_log = p && *p ? fopen(p, "a") : NULL;
        names_log_state = names_log != NULL;
    }
    return names_log_state == 1;
}

void bind_names_log(const char *qualname)
{
    if (!names_log_on()) return;
    fprintf(names_log, "%s\n", qualname);
    fflush(names_log);
}

static void log_call(const BindRow *d, const char *fname, Value *self)
{
    char q[160];
    if (self) snprintf(q, sizeof q, "Tensor.%s", fname);
    else snprintf(q, sizeof q, "%s.%s", d->module ? d->module : "torch", d->name);
    bind_names_log(q);
}

Value *bind_names_call(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace, BindHandler call)
{
    bool any = named(self);
    for (int i = 0; i < BIND_MAXP && !any; i++) any = named(b->v[i]);
    if (names_log_on()) {
        Value *nv = any ? NULL : arg(b, "names");
        if (any || (nv && !is_none(nv))) log_call(d, fname, self);
    }
    if (!any) {
        Value *r = call(d, fname, b, self, inplace);
        bind_names_warn();   /* names= of a factory */
        return r;
    }
    int rule = d->names_rule;
    if (special_refusal(d, fname, b, self)) {
        char s[128];
        overload_name(d, fname, b, self, s, sizeof s);
        refuse_named(s);
        return explain_refusal(fname, b, self, s);
    }
    const char *comp = composite_of(d, b, self);
    if (comp && !*comp) rule = NR_PASS;   /* the handler refuses after its checks */
    if (!strncmp(d->name, "atleast_", 8) && d->name[8] >= '1' && d->name[8] <= '3') {
        /* 1.13 returns a tensor that has the dims as it is; a smaller one it unsqueezes, which refuses */
        int need = d->name[8] - '0';
        Value *v = arg(b, "input") ? arg(b, "input") : arg(b, "tensors");
        bool small = false;
        if (v && is_tensor(v)) small = tensor_of(v)->ndim < need;
        else if (v && is_seq(v))
            for (size_t i = 0; i < seq_len(v); i++)
                small = small || (is_tensor(v->u.seq.items[i]) && tensor_of(v->u.seq.items[i])->ndim < need);
        if (small) {
            refuse_named("aten::unsqueeze");
            return explain_refusal(fname, b, self, "aten::unsqueeze");
        }
        rule = NR_KEEP;
    }
    if (meta_decomposed(d, b, self)) return explain_refusal(fname, b, self, "a Python decomposition (meta)");
    if ((!strcmp(d->name, "div") || !strcmp(d->name, "divide")) && arg(b, "rounding_mode")) {
        Value *o = arg(b, "other");
        char s[64];
        snprintf(s, sizeof s, "aten::div%s.%s_mode", writes_self(self, fname, inplace) ? "_" : "",
                 o && is_tensor(o) ? "Tensor" : "Scalar");
        refuse_named(s);
        return explain_refusal(fname, b, self, s);
    }
    if (rule == NR_PASS) {
        /* an elementwise op 1.13 refuses: named here, where the in-place form is known */
        const tsr_op *op = d->desc ? d->desc : tsr_op_find_name(d->name);
        if (op && tsr_op_names_rule(op) == TSR_NAMES_REFUSE && op->aten && !strncmp(op->aten, d->name, strlen(d->name))) {
            const char *dot = strchr(op->aten, '.');
            bool ws = writes_self(self, fname, inplace);
            char sch[128];
            Value *o = arg(b, "other"), *in = self ? self : arg(b, "input") ? arg(b, "input") : arg(b, "self");
            const char *suffix = dot ? dot : "";
            if (dot && !strcmp(dot, ".Tensor")) {
                /* the overload of a Python number operand, as probed: shifts have
                 * Tensor_Scalar; | and ^ (and &_) wrap the number into a tensor */
                size_t bl = (size_t)(dot - op->aten);
                bool shift = !strncmp(op->aten, "bitwise_left_shift", bl) || !strncmp(op->aten, "bitwise_right_shift", bl);
                Value *ov0 = b->v[BIND_OUT];
                bool wraps = !(ov0 && !is_none(ov0)) &&
                             (!strncmp(op->aten, "bitwise_or", bl) || !strncmp(op->aten, "bitwise_xor", bl) ||
                              (ws && !strncmp(op->aten, "bitwise_and", bl)));
                if (in && !is_tensor(in)) suffix = ".Scalar_Tensor";
                else if (o && !is_tensor(o)) suffix = shift ? ".Tensor_Scalar" : wraps ? ".Tensor" : ".Scalar";
            }
            Value *ov = b->v[BIND_OUT];
            bool out = ov && !is_none(ov);
            if (out && !strcmp(suffix, ".Tensor") && !strncmp(op->aten, "copysign.", 9)) suffix = "";   /* copysign.out */
            snprintf(sch, sizeof sch, "aten::%.*s%s%s%s", dot ? (int)(dot - op->aten) : (int)strlen(op->aten), op->aten,
                     ws ? "_" : "", suffix, !out ? "" : *suffix ? "_out" : ".out");
            refuse_named(sch);
            return explain_refusal(fname, b, self, sch);
        }
        if (explain_active()) {
            Value *ov = b->v[BIND_OUT];
            explain_written_before(writes_self(self, fname, inplace) && is_tensor(self) ? tensor_of(self)
                                   : ov && is_tensor(ov) ? tensor_of(ov) : NULL);
        }
        Value *r = call(d, fname, b, self, inplace);
        if (explain_active() && !strcmp(d->name, "unflatten")) {
            Value *dv = arg(b, "dim");
            char detail[256] = "";
            if (dv && dv->type == &t_str) snprintf(detail, sizeof detail, "Splits dim '%s' into the named dims given.", dv->u.s.p);
            bind_names_explain_api(fname, "unflatten(dim, ((name, size), ...)) splits one dim into new dims with "
                                   "the given names and sizes; the other dims keep their names.", detail,
                                   first_tensor(b, self), NULL, r);
        }
        return r;
    }
    if (rule == NR_REFUSE) {
        char s[128];
        overload_name(d, fname, b, self, s, sizeof s);
        refuse_named(s);
        return explain_refusal(fname, b, self, s);
    }
    size_t fl = strlen(fname);
    bool writes_self = self && (inplace || (fl && fname[fl - 1] == '_'));
    if (rule == NR_CMP) {   /* comparisons: the iterator names them; in place 1.13 refuses */
        if (!writes_self) return call(d, fname, b, self, inplace);
        char s[128];
        overload_name(d, fname, b, self, s, sizeof s);
        refuse_named(s);
        return explain_refusal(fname, b, self, s);
    }
    Outnames o;
    if (compute(rule, d, fname, b, self, &o) < 0) {
        if (exc_pending() && strstr(exc_message(), "is not yet supported with named tensors")) {
            const char *m = exc_message();
            char s[128];
            snprintf(s, sizeof s, "%.*s", (int)(strchr(m, ' ') - m), m);
            return explain_refusal(fname, b, self, s);
        }
        explain_rule(rule, fname, b, self, NULL, true, &o, writes_self);
        return NULL;
    }
    Value *outv = b->v[BIND_OUT];
    bool late = rule == NR_RESIZE_AS;   /* resize_'s own check comes first */
    if (check_out(outv, &o) < 0 || (writes_self && !late && check_out(self, &o) < 0)) {
        explain_rule(rule, fname, b, self, NULL, true, &o, writes_self);
        return NULL;
    }
    /* self as it came in: an in-place op changes its names */
    tsr_tensor *st = !explain_active() ? NULL : writes_self && self && is_tensor(self) ? tensor_of(self)
                     : outv && is_tensor(outv) ? tensor_of(outv) : NULL;
    tsr_name before[TSR_MAX_NAMED_DIMS], after[TSR_MAX_NAMED_DIMS];
    bool had = st && st->names && st->ndim <= TSR_MAX_NAMED_DIMS;
    if (had) memcpy(before, st->names, sizeof *before * (size_t)st->ndim);
    long steps = explain_active() ? explain_steps_recorded() : 0;
    Value *r = call(d, fname, b, self, inplace);
    /* an elementwise op's own step already showed how its names were kept or unified */
    bool shown_by_op = explain_active() && (rule == NR_KEEP || rule == NR_UNIFY) && explain_steps_recorded() > steps;
    if (r && late && check_out(self, &o) < 0) CLEAR(r);
    /* a view of a tensor under the fallback without names stays under it
     * (1.13's views copy the dispatch keys; squeeze's quirk makes one) */
    tsr_tensor *in0 = first_tensor(b, self), *rt0 = r && is_tensor(r) ? tensor_of(r) : NULL;
    bool fallback_view = rt0 && in0 && rt0 != in0 && rt0->storage == in0->storage && !rt0->names &&
                         (o.quirk || (in0->names && !tsr_names_any(in0->names, in0->ndim)));
    if (fallback_view && !tsr_names_any(o.names, o.n > 0 ? o.n : 0) && tsr_names_keep_fallback(rt0) < 0) {
        bind_runtime_errori();
        CLEAR(r);
    }
    if (r && (apply(r, &o) < 0 || (outv && apply(outv, &o) < 0) || (writes_self && apply(self, &o) < 0))) CLEAR(r);
    if (explain_active() && !shown_by_op) {
        const tsr_tensor *rt = first_result(r);
        Outnames shown = o;
        if (st && st->ndim <= TSR_MAX_NAMED_DIMS) {
            bool has = st->names != NULL;
            if (has) memcpy(after, st->names, sizeof *after * (size_t)st->ndim);
            if (rt == st) {
                for (int i = 0; i < st->ndim; i++) shown.names[i] = has ? after[i] : NULL;
                shown.n = st->ndim;
                rt = NULL;
            }
            tsr_names_propagate_raw(st, had ? before : after, had || has ? st->ndim : 0);
            if (!had) tsr_tensor_set_names(st, NULL, 0);
            explain_rule(rule, fname, b, self, rt, !r, &shown, writes_self);
            if (has) tsr_names_propagate_raw(st, after, st->ndim);
            else tsr_tensor_set_names(st, NULL, 0);
        } else {
            explain_rule(rule, fname, b, self, rt, !r, &o, writes_self);
        }
    }
    return r;
}
