/* src/bind/devguard.c — what may touch a tensor on a device the host cannot
 * read (cuda). Every built-in function and method call, and every operator
 * on tensors, passes here first: those whose implementation is device-aware
 * (the runtime's elementwise engine, copies, fills, views and metadata) run;
 * any other raises the dispatcher's NotImplementedError "Could not run
 * 'aten::NAME' with arguments from the 'CUDA' backend", as PyTorch does for
 * an op without a CUDA kernel. tsr never computes on the host what was asked
 * of the device, and never reads device memory from the host. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/bind.h"
#include "bind/devguard.h"
#include "bind/tensor.h"
#include "device.h"
#include "error.h"

const char bind_device_safe_tag = 0;

/* Functions and methods that are device-aware, by the name they are
 * called by (torch.X, Tensor.X, torch.nn.functional.X, in-place forms).
 * Sorted (strcmp). Python's own built-ins pass through their slots, which
 * this file guards too. */
static const char *const ready[] = {
    "abs", "abs_", "absolute", "absolute_", "add", "add_", "arange", "as_strided", "as_tensor", "asarray", "backward",
    "bartlett_window", "bfloat16", "blackman_window", "bool", "byte", "char", "chunk", "clone", "contiguous",
    "copy_", "cos", "cos_", "cpu", "cuda", "data_ptr", "detach", "detach_", "device", "diagonal", "dim", "div",
    "div_", "divide", "divide_", "double", "dsplit", "element_size", "empty", "empty_like", "empty_strided", "eq",
    "eq_", "exp", "exp_", "expand", "expand_as", "eye", "fill_", "flatten", "float", "full", "full_like", "ge",
    "ge_", "get_device", "grad", "greater", "greater_equal", "gt", "gt_", "half", "hamming_window", "hann_window",
    "hsplit", "int", "is_complex", "is_contiguous", "is_floating_point", "is_signed", "item", "le", "le_", "less",
    "less_equal", "linspace", "log", "log_", "logspace", "long", "lt", "lt_", "maximum", "minimum", "moveaxis",
    "movedim", "mul", "mul_", "multiply", "multiply_", "narrow", "ndimension", "ne", "ne_", "neg", "neg_",
    "negative", "negative_", "nelement", "new_empty", "new_full", "new_ones", "new_tensor", "new_zeros",
    "not_equal", "numel", "numpy", "ones", "ones_like", "permute", "range", "relu", "relu_", "requires_grad_", "reshape",
    "reshape_as", "save", "scalar_tensor", "select", "short", "sigmoid", "sigmoid_", "sin", "sin_", "size", "split",
    "split_with_sizes", "sqrt", "sqrt_", "squeeze", "squeeze_", "storage_offset", "stride", "sub", "sub_",
    "subtract", "subtract_", "swapaxes", "swapdims", "t", "t_", "tanh", "tanh_", "tensor", "tensor_split",
    "to", "tolist", "transpose", "transpose_", "tril_indices", "triu_indices", "true_divide", "true_divide_",
    "type", "unbind", "unflatten", "unsqueeze", "unsqueeze_", "view", "view_as", "vsplit", "zero_", "zeros",
    "zeros_like",
};

/* The reductions with a device path (runtime/ops/reduce_dev.c). Sorted. */
static const char *const reductions[] = {
    "all", "amax", "amin", "aminmax", "any", "argmax", "argmin", "count_nonzero", "linalg_matrix_norm",
    "linalg_norm", "linalg_vector_norm", "max", "mean", "min", "nanmean", "nansum", "norm", "prod", "std",
    "std_mean", "sum", "var", "var_mean",
};

/* The matmul family on cuBLAS (runtime/ops/blas_cuda.c); linear composes
 * addmm / matmul and @ is matmul (src/bind/ops.c). Sorted (strcmp). */
static const char *const matmul_family[] = {
    "__rmatmul__", "addmm", "addmm_", "addmv", "addmv_", "baddbmm", "baddbmm_", "bmm", "dot", "linear", "matmul",
    "mm", "mv",
};

/* The elementwise ops on a device (cuda/kern.h's kernels through the
 * runtime's binary, unary, comparison, special and ternary ops): functions,
 * methods, in-place forms and torch.special names. Sorted (strcmp). */
static const char *const pointwise[] = {
    "__and__", "__iand__", "__ilshift__", "__ior__", "__irshift__", "__ixor__", "__lshift__", "__or__", "__rshift__",
    "__xor__", "acos", "acos_", "acosh", "acosh_", "addcdiv", "addcdiv_", "addcmul", "addcmul_", "angle", "arccos",
    "arccos_", "arccosh", "arccosh_", "arcsin", "arcsin_", "arcsinh", "arcsinh_", "arctan", "arctan2", "arctan2_",
    "arctan_", "arctanh", "arctanh_", "asin", "asin_", "asinh", "asinh_", "atan", "atan2", "atan2_", "atan_", "atanh",
    "atanh_", "bitwise_and", "bitwise_and_", "bitwise_left_shift", "bitwise_left_shift_", "bitwise_not",
    "bitwise_not_", "bitwise_or", "bitwise_or_", "bitwise_right_shift", "bitwise_right_shift_", "bitwise_xor",
    "bitwise_xor_", "ceil", "ceil_", "clamp", "clamp_", "clamp_max", "clamp_max_", "clamp_min", "clamp_min_", "clip",
    "clip_", "copysign", "copysign_", "cosh", "cosh_", "deg2rad", "deg2rad_", "digamma", "digamma_", "erf", "erf_",
    "erfc", "erfc_", "erfinv", "erfinv_", "exp2", "exp2_", "expit", "expm1", "expm1_", "fix", "fix_", "float_power",
    "float_power_", "floor", "floor_", "floor_divide", "floor_divide_", "fmax", "fmin", "fmod", "fmod_", "frac",
    "frac_", "gammaln", "gcd", "gcd_", "heaviside", "heaviside_", "hypot", "hypot_", "igamma", "igamma_", "igammac",
    "igammac_", "isfinite", "isinf", "isnan", "isneginf", "isposinf", "lcm", "lcm_", "lerp", "lerp_", "lgamma",
    "lgamma_", "log10", "log10_", "log1p", "log1p_", "log2", "log2_", "logaddexp", "logaddexp2", "logical_and",
    "logical_and_", "logical_not", "logical_not_", "logical_or", "logical_or_", "logical_xor", "logical_xor_",
    "logit", "logit_", "masked_fill", "masked_fill_", "nan_to_num", "nan_to_num_", "nextafter", "nextafter_",
    "polygamma", "polygamma_", "positive", "pow", "pow_", "psi", "rad2deg", "rad2deg_", "reciprocal", "reciprocal_",
    "remainder", "remainder_", "round", "round_", "rsqrt", "rsqrt_", "sgn", "sgn_", "sign", "sign_", "signbit",
    "sinc", "sinc_", "sinh", "sinh_", "special_chebyshev_polynomial_t", "special_chebyshev_polynomial_u",
    "special_chebyshev_polynomial_v", "special_chebyshev_polynomial_w", "special_digamma", "special_entr",
    "special_erf", "special_erfc", "special_erfcx", "special_erfinv", "special_exp2", "special_expit",
    "special_expm1", "special_gammainc", "special_gammaincc", "special_gammaln", "special_hermite_polynomial_h",
    "special_hermite_polynomial_he", "special_laguerre_polynomial_l", "special_legendre_polynomial_p",
    "special_log1p", "special_log_ndtr", "special_logit", "special_ndtr", "special_ndtri", "special_polygamma",
    "special_psi", "special_round", "special_shifted_chebyshev_polynomial_t",
    "special_shifted_chebyshev_polynomial_u", "special_shifted_chebyshev_polynomial_v",
    "special_shifted_chebyshev_polynomial_w", "special_sinc", "special_xlog1py", "special_xlogy", "special_zeta",
    "square", "square_", "tan", "tan_", "trunc", "trunc_", "where", "xlog1py", "xlogy", "xlogy_",
};

/* Joining, rearranging and indexing (views and copies, runtime/ops/
 * index_dev.c's gather/scatter launches). Sorted (strcmp). */
static const char *const join_index[] = {
    "argwhere", "atleast_1d", "atleast_2d", "atleast_3d", "block_diag", "broadcast_tensors", "broadcast_to",
    "cartesian_prod", "cat", "column_stack", "concat", "concatenate", "diag", "diag_embed", "diagflat",
    "diagonal_scatter", "dstack", "flip", "fliplr", "flipud", "gather", "hstack", "index_add", "index_add_",
    "index_copy", "index_copy_", "index_fill", "index_fill_", "index_put", "index_put_", "index_reduce",
    "index_reduce_", "index_select", "masked_scatter", "masked_scatter_", "masked_select", "meshgrid",
    "narrow_copy", "nonzero", "put", "put_", "repeat", "repeat_interleave", "roll", "rot90", "row_stack", "scatter",
    "scatter_", "scatter_add", "scatter_add_", "scatter_reduce", "scatter_reduce_", "select_scatter",
    "slice_scatter", "stack", "take", "take_along_dim", "tile", "tril", "tril_", "triu", "triu_", "unfold",
    "vstack",
};

/* The samplers of PyTorch's CUDA generator (runtime/ops/random.c, cuda/rng.h).
 * Sorted. */
static const char *const random_ready[] = {
    "bernoulli", "bernoulli_", "cauchy_", "exponential_", "geometric_", "log_normal_", "normal", "normal_",
    "rand_like", "randint_like", "randn_like", "random_", "uniform_",
};

/* Convolution, pooling, interpolation and padding composed of device-aware
 * ops (runtime/ops/nn_conv_dev.c, ...). Sorted (strcmp). */
static const char *const conv_pool[] = {
    "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
    "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d", "adaptive_max_pool2d_with_indices",
    "adaptive_max_pool3d", "adaptive_max_pool3d_with_indices", "avg_pool1d", "avg_pool2d", "avg_pool3d",
    "constant_pad_nd", "conv1d", "conv2d", "conv3d", "conv_tbc", "conv_transpose1d", "conv_transpose2d",
    "conv_transpose3d", "convolution", "fold", "interpolate", "lp_pool1d", "lp_pool2d", "max_pool1d",
    "max_pool1d_with_indices", "max_pool2d", "max_pool2d_with_indices", "max_pool3d", "max_pool3d_with_indices",
    "max_unpool1d", "max_unpool2d", "max_unpool3d", "pad", "pixel_shuffle", "pixel_unshuffle", "upsample",
    "upsample_bilinear", "upsample_nearest",
};

/* torch.linalg's factorizations on cuSOLVER (runtime/ops/linalg_dev.c,
 * cuda/linalg.h) and what composes them. Sorted (strcmp). */
static const char *const linalg_ready[] = {
    "chain_matmul", "cholesky", "cholesky_inverse", "cholesky_solve", "cross", "det", "geqrf", "inverse", "kron",
    "linalg_cholesky", "linalg_cholesky_ex", "linalg_cond", "linalg_cross", "linalg_det", "linalg_eigh",
    "linalg_eigvalsh", "linalg_householder_product", "linalg_inv", "linalg_inv_ex", "linalg_lstsq", "linalg_lu",
    "linalg_lu_factor", "linalg_lu_factor_ex", "linalg_lu_solve", "linalg_matrix_power", "linalg_matrix_rank",
    "linalg_multi_dot", "linalg_pinv", "linalg_qr", "linalg_slogdet", "linalg_solve", "linalg_solve_ex",
    "linalg_solve_triangular", "linalg_svd", "linalg_svdvals", "linalg_tensorinv", "linalg_tensorsolve", "logdet",
    "lu", "lu_solve", "lu_unpack", "matrix_power", "orgqr", "ormqr", "pinverse", "qr", "slogdet", "svd", "trace",
    "triangular_solve",
};

/* torch.nn.functional on cuda, composed of device-aware runtime ops
 * (runtime/ops/nn_dev.c and the ops' device branches). Sorted (strcmp). */
static const char *const nn_ready[] = {
    "alpha_dropout", "alpha_dropout_", "batch_norm", "binary_cross_entropy", "binary_cross_entropy_with_logits",
    "celu", "celu_", "cosine_embedding_loss", "cosine_similarity", "cross_entropy", "dropout", "dropout1d",
    "dropout2d", "dropout3d", "dropout_", "elu", "elu_", "embedding", "feature_alpha_dropout",
    "feature_alpha_dropout_", "feature_dropout", "feature_dropout_", "gaussian_nll_loss", "gelu", "glu",
    "group_norm", "gumbel_softmax", "hardshrink", "hardsigmoid", "hardswish", "hardtanh", "hardtanh_",
    "hinge_embedding_loss", "huber_loss", "instance_norm", "kl_div", "l1_loss", "layer_norm", "leaky_relu",
    "leaky_relu_", "log_sigmoid", "log_softmax", "margin_ranking_loss", "mish", "mse_loss",
    "multilabel_soft_margin_loss", "nll_loss", "normalize", "one_hot", "pairwise_distance", "poisson_nll_loss",
    "prelu", "relu6", "rrelu", "rrelu_", "selu", "selu_", "silu", "smooth_l1_loss", "soft_margin_loss", "softmax",
    "softmin", "softplus", "softshrink", "softsign", "tanhshrink", "threshold", "threshold_", "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
};

/* Scans, sorts, selections, unique and searches (runtime/ops/scan_dev.c,
 * cuda/scan.h). Sorted (strcmp). */
static const char *const scan_sort[] = {
    "allclose", "argsort", "bincount", "bucketize", "cummax", "cummin", "cumprod", "cumprod_", "cumsum", "cumsum_",
    "cumulative_trapezoid", "diff", "equal", "histc", "isclose", "isin", "kthvalue", "logcumsumexp", "median",
    "mode", "msort", "nanmedian", "searchsorted", "sort", "topk", "trapezoid", "trapz", "unique",
    "unique_consecutive",
};

/* Complex tensors: the conjugate and negative views (resolved on the
 * device by a copy and a negation, runtime/ops/copy.c), the complex views
 * and compositions of device ops (isclose: runtime/ops/compare.c; equal:
 * eq, its elements read back one by one). Sorted (strcmp). */
static const char *const complex_ready[] = {
    "adjoint", "allclose", "cdouble", "cfloat", "chalf", "complex", "conj", "conj_physical", "conj_physical_", "equal",
    "imag", "is_conj", "is_neg", "isclose", "polar", "real", "resolve_conj", "resolve_neg", "vdot", "view_as_complex",
    "view_as_real",
};

/* torch.fft on cuFFT (runtime/ops/fft_dev.c), by their ATen names; the
 * shifts are rolls, the frequencies a factory (their out= may be a cuda
 * tensor). Sorted. */
static const char *const fft_ready[] = {
    "fft_fft", "fft_fft2", "fft_fftfreq", "fft_fftn", "fft_fftshift", "fft_hfft", "fft_hfft2", "fft_hfftn",
    "fft_ifft", "fft_ifft2", "fft_ifftn", "fft_ifftshift", "fft_ihfft", "fft_ihfft2", "fft_ihfftn", "fft_irfft",
    "fft_irfft2", "fft_irfftn", "fft_rfft", "fft_rfft2", "fft_rfftfreq", "fft_rfftn",
};

/* Each kernel family adds its own sorted list (reductions, the matmul
 * family, ...) and a row below. */
#define LIST(a) {a, sizeof a / sizeof *a}
static const struct { const char *const *names; size_t n; } lists[] = {
    LIST(ready),
    LIST(reductions),
    LIST(matmul_family),
    LIST(pointwise),
    LIST(join_index),
    LIST(random_ready),
    LIST(conv_pool),
    LIST(linalg_ready),
    LIST(nn_ready),
    LIST(scan_sort),
    LIST(complex_ready),
    LIST(fft_ready),
};

static int cmp(const void *k, const void *e) { return strcmp(k, *(const char *const *)e); }

static bool is_ready(const char *name, bool method)
{
    (void)method;   /* F.unfold (im2col) computes on the device too, as Tensor.unfold's view does */
    if (!name) return false;
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++)
        if (bsearch(name, lists[i].names, lists[i].n, sizeof *lists[i].names, cmp)) return true;
    return false;
}

static bool external(tsr_device d) { return d.type != TSR_DEV_CPU && d.type != TSR_DEV_META; }

/* A tensor on an external device in v, or in a list or tuple v holds. */
static bool holds_external(Value *v, tsr_device *d)
{
    if (!v) return false;
    if (is_tensor(v)) {
        *d = tensor_of(v)->device;
        return external(*d);
    }
    if (v->type == &t_list || v->type == &t_tuple)
        for (size_t i = 0; i < v->u.seq.n; i++)
            if (v->u.seq.items[i] && is_tensor(v->u.seq.items[i]) && external(tensor_of(v->u.seq.items[i])->device)) {
                *d = tensor_of(v->u.seq.items[i])->device;
                return true;
            }
    return false;
}

/* (Factories given device='cuda', or run under torch.set_default_device,
 * have no tensor here to see: the runtime's factories are device-aware or
 * refuse.) */
int bind_devguard_call(Value *fn, CallArgs *a)
{
    if (fn->u.bi.data == &bind_device_safe_tag) return 0;
    tsr_device d;
    /* self only as a tensor: a list method (l.append) must not walk its list */
    Value *self = fn->u.bi.self;
    bool hit = self && is_tensor(self) && holds_external(self, &d);
    for (int i = 0; !hit && i < a->npos; i++) hit = holds_external(a->pos[i], &d);
    for (int i = 0; !hit && i < a->nkw; i++) hit = holds_external(a->kw[i], &d);
    if (!hit || is_ready(fn->u.bi.name, self && is_tensor(self))) return 0;
    return bind_device_no_kernel(fn->u.bi.name, d);
}
