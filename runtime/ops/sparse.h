/* runtime/ops/sparse.h — the sparse COO layout (SparseTensorImpl.cpp,
 * SparseTensor.cpp, SparseTensorMath.cpp of 1.13): construction with 1.13's
 * validation, coalescing, conversion to and from strided, and the ops 1.13
 * computes on SparseCPU. A sparse tensor owns two strided tensors
 * (t->sparse: indices int64 [sparse_dim, nnz], values [nnz, *dense]); its own
 * storage is empty and no strided kernel ever reads it.
 * Ownership: results are NEW references; arguments are borrowed. */
#ifndef TSR_OPS_SPARSE_H
#define TSR_OPS_SPARSE_H
#include <stdbool.h>
#include <stdint.h>
#include "../tensor.h"
#include "reduce_dims.h"
#include "binary.h"
#include "unary.h"
#include "advindex.h"

static inline bool tsr_is_sparse(const tsr_tensor *t) { return t && t->layout == TSR_LAYOUT_SPARSE_COO; }

/* A sparse tensor of sizes over indices and values (both STOLEN, even on
 * error), sparse_dim = indices.size(0); no validation. NULL on allocation. */
tsr_tensor *tsr_sparse_wrap(int ndim, const int64_t *sizes, tsr_tensor *indices, tsr_tensor *values, bool coalesced);

/* torch.sparse_coo_tensor(indices, values, size) after the Python layer
 * converted indices to int64: ndim < 0 infers the size (max index + 1 per
 * sparse dim, values' trailing sizes). 1.13's errors: "indices must be
 * sparse_dim x nnz, but got: [2]", "number of dimensions must be sparse_dim
 * (2) + dense_dim (0), but got 3", "found negative index -1 for dim 0",
 * "size is inconsistent with indices: ...", "indices and values must have
 * same nnz, ...", "values has incorrect size, expected [3, 4], got [3, 2]".
 * The result aliases indices and values (as 1.13's). */
tsr_tensor *tsr_sparse_coo_tensor(const tsr_tensor *indices, const tsr_tensor *values, int ndim,
                                  const int64_t *sizes);
/* torch.empty(size, layout=torch.sparse_coo) / sparse_coo_tensor(size):
 * sparse_dim = ndim, nnz 0. */
tsr_tensor *tsr_sparse_empty(int ndim, const int64_t *sizes, tsr_dtype dtype, tsr_device device);

/* s._indices() / s._values() (aliases); indices()/values() with checked
 * refuse an uncoalesced tensor ("Cannot get indices on an uncoalesced
 * tensor, please call .coalesce() first"). A strided t: "indices expected
 * sparse coordinate tensor layout but got Strided". */
tsr_tensor *tsr_sparse_indices(const tsr_tensor *t, bool checked);
tsr_tensor *tsr_sparse_values(const tsr_tensor *t, bool checked);
int64_t tsr_sparse_nnz(const tsr_tensor *t);

/* s.coalesce(): t itself when already coalesced, else sorted unique indices
 * with the values of duplicates summed in 1.13's order. */
tsr_tensor *tsr_sparse_coalesce(const tsr_tensor *t);
/* s.to_dense() (dtype UNDEFINED: t's); a strided t is returned as is. */
tsr_tensor *tsr_sparse_to_dense(const tsr_tensor *t);
/* x.to_sparse(sparse_dim) (sparse_dim < 0: x.dim()): coalesced. A sparse
 * x: itself when sparse_dim matches. */
tsr_tensor *tsr_to_sparse(const tsr_tensor *x, int64_t sparse_dim, bool has_dim);
/* clone (indices and values copied; coalesced kept). */
tsr_tensor *tsr_sparse_clone(const tsr_tensor *t);
/* s.to(dtype): values cast (t itself when the dtype is t's and !copy). */
tsr_tensor *tsr_sparse_to_dtype(const tsr_tensor *t, tsr_dtype dtype, bool copy);
/* s.transpose(d0, d1) / s.t(): 1.13's transpose of sparse dims (swapped
 * index rows; uncoalesced), of dense dims (values transposed); mixing them
 * is "transpose(): Cannot transpose sparse dimension 0 and dense dimension
 * 1 of a sparse tensor"... t(): "t() expects a tensor with <= 2 sparse
 * and 0 dense dimensions, but got 3 sparse and 0 dense dimensions". */
tsr_tensor *tsr_sparse_transpose(const tsr_tensor *t, int64_t d0, int64_t d1);
tsr_tensor *tsr_sparse_t(const tsr_tensor *t);

/* The unary ops 1.13 runs on SparseCPU (coalesced_unary_ufunc: the input
 * coalesced, op applied to its values, indices cloned). */
tsr_tensor *tsr_sparse_unary(tsr_unop op, const tsr_tensor *t, const tsr_unary_opts *opts);
/* isnan/isinf/signbit (a tsr_predop), isposinf (-1), isneginf (-2): a
 * bool sparse tensor on the same indices. */
tsr_tensor *tsr_sparse_predicate(int op, const tsr_tensor *t);
/* In place: "<name>_ requires coalesced input" for an uncoalesced t. */
int tsr_sparse_unary_(tsr_unop op, tsr_tensor *t, const tsr_unary_opts *opts, const char *name);

/* s.zero_(): nnz 0, coalesced (in place). */
int tsr_sparse_zero_(tsr_tensor *t);
/* s.resize_as_(o): t takes o's sizes and dims (nnz kept 0 as 1.13's
 * sparse_resize_and_clear_). */
int tsr_sparse_resize_as_(tsr_tensor *t, const tsr_tensor *o);

/* s * scalar, s * sparse (same shape), dense * sparse is refused by 1.13. */
tsr_tensor *tsr_sparse_mul_scalar(const tsr_tensor *s, tsr_scalar v);
tsr_tensor *tsr_sparse_mul(const tsr_tensor *a, const tsr_tensor *b);
/* s * dense of s's sizes (either order): sparse, the dense values at s's
 * indices times s's values; s / scalar. */
tsr_tensor *tsr_sparse_mul_dense(const tsr_tensor *s, const tsr_tensor *d);
tsr_tensor *tsr_sparse_div_scalar(const tsr_tensor *s, tsr_scalar v);
/* s ** v, s // v (pow / floor_divide with a Scalar): on the coalesced values. */
tsr_tensor *tsr_sparse_binary_scalar(tsr_binop op, const tsr_tensor *s, tsr_scalar v);
/* a + alpha * b for sparse/dense combinations (add_sparse of 1.13):
 * sparse + sparse → sparse, dense + sparse → dense, sparse + dense refused
 * ("add(sparse, dense) is not supported. Use add(dense, sparse) instead."). */
tsr_tensor *tsr_sparse_add(const tsr_tensor *a, const tsr_tensor *b, tsr_scalar alpha);
/* sparse [n, m] @ dense [m, p] → dense (addmm of 1.13 with beta 0). */
tsr_tensor *tsr_sparse_mm(const tsr_tensor *a, const tsr_tensor *b);
/* torch.sparse.sum(s, dims) (dims NULL: all → a 0-dim dense tensor; over
 * every sparse dim → dense; else sparse). dtype UNDEFINED: the values'
 * sum dtype. */
tsr_tensor *tsr_sparse_sum(const tsr_tensor *s, const tsr_dims *dims, tsr_dtype dtype);

/* s.select(dim, index) (select_sparse of 1.13): along a sparse dim the
 * entries with that index (a sparse result; with one sparse dim, the dense
 * part: the single value's view or the sum of the matches in the dtype);
 * along a dense dim the values' select. "select(): index 5 out of range for
 * tensor of size [2, 3] at dimension 0". Coalesced when nnz < 2, as 1.13's
 * constructor marks it. */
tsr_tensor *tsr_sparse_select(const tsr_tensor *t, int64_t dim, int64_t index);
/* s.unsqueeze(dim): a zero index row (dim <= sparse_dim) or a values dim. */
tsr_tensor *tsr_sparse_unsqueeze(const tsr_tensor *t, int64_t dim);
/* s[items] as 1.13's applySlicing runs it on SparseCPU: ints select, None
 * unsqueezes; a slice reaches as_strided, a bool fill_, a tensor
 * index.Tensor (refused with the dispatcher's text); s[...] is at::alias
 * ("Cannot access storage of SparseTensorImpl"). */
tsr_tensor *tsr_sparse_subscript(const tsr_tensor *self, int n, const tsr_sub *items);

/* s.norm(p, dim) (norm_sparse of 1.13): the norm of the coalesced values;
 * dim must be empty or every dim ("norm_sparse currently only supports full
 * reductions, ..."), no keepdim, no dtype; out= and meta are refused with
 * the dispatcher's text. */
tsr_tensor *tsr_sparse_norm(const tsr_tensor *x, double p, const tsr_dims *dims, bool keepdim, tsr_dtype dtype,
                            tsr_tensor *out);
/* frobenius_norm of a sparse tensor: at most one dim as tsr_sparse_norm
 * (then copied into out); two dims reach sum.dim_IntList, which 1.13 refuses. */
tsr_tensor *tsr_sparse_frobenius_norm(const tsr_tensor *x, const tsr_dims *dims, bool keepdim, tsr_tensor *out);

/* torch.cat of sparse tensors (cat_sparse of 1.13): along a sparse dim the
 * indices are shifted and joined, along a dense dim the values are padded
 * with zeros; values promote as cat's. check_cat_sparse_dims' errors ("All
 * tensors must have the same shape: ...", "... same sparse_dim and
 * dense_dim ...", "Concatenating sparse tensors, but a dense tensor was
 * found at position 1."); out= and meta refused with the dispatcher's text. */
tsr_tensor *tsr_sparse_cat(int n, const tsr_tensor *const *ts, int64_t dim, tsr_tensor *out);

/* zeros_like / empty_like of a sparse tensor: no entries, t's sizes,
 * sparse_dim and dense_dim (the values keep the dense sizes). */
tsr_tensor *tsr_sparse_empty_like(const tsr_tensor *t, tsr_dtype dtype, tsr_device device);

/* d.sparse_mask(mask) for a strided d of mask's sizes: d's entries at the
 * indices of mask.coalesce() (to_dense's backward, ToDenseBackward0). */
tsr_tensor *tsr_sparse_mask(const tsr_tensor *d, const tsr_tensor *mask);

/* s.permute(dims) (permute_sparse_coo): sparse dims reorder the index rows,
 * dense dims permute the values; mixing them, a wrong count and duplicate
 * dims are 1.13's errors. */
tsr_tensor *tsr_sparse_permute(const tsr_tensor *t, int n, const int64_t *dims);
/* s.unbind(dim): one select per index (a malloc'd array as tsr_unbind's). */
int tsr_sparse_unbind(const tsr_tensor *t, int64_t dim, tsr_tensor ***parts);

/* sparse [n, m] @ sparse [m, p] (sparse_sparse_matmul_cpu): a coalesced
 * sparse result; every product touched is an entry, zeros included. Float
 * and complex only ("\"sparse_matmul\" not implemented for 'Long'"); 1.13's
 * shape and dtype errors. */
tsr_tensor *tsr_sparse_mm_sparse(const tsr_tensor *a, const tsr_tensor *b);

/* s.index_select(dim, index) (index_select_sparse of 1.13): along a sparse
 * dim, for each index in order the entries with it in nnz order; along a
 * dense dim the values' index_select. 1.13's IndexErrors. */
tsr_tensor *tsr_sparse_index_select(const tsr_tensor *t, int64_t dim, const tsr_tensor *index);

/* dst.copy_(src) of two sparse tensors (copy_sparse_to_sparse_): dst takes
 * src's sizes, indices, values (cast to dst's dtype) and coalesced flag;
 * a non-empty dst refuses a change of sparse_dim/dense_dim or a shrinking
 * size as SparseTensorImpl::resize_ ("shrinking the size of sparse
 * dimensions (from [3, 3] to [2, 3]) on a non-empty sparse tensor is not
 * supported."). */
int tsr_sparse_copy_(tsr_tensor *dst, const tsr_tensor *src);
/* s.narrow_copy(dim, start, length) (narrow_copy_sparse): along a sparse
 * dim the entries inside the range in nnz order (indices shifted), along a
 * dense dim the values' narrow_copy; s's coalesced flag. dim is not
 * wrapped ("Dimension -1 out of range. Expecting 0 <= dim < 2."). */
tsr_tensor *tsr_sparse_narrow_copy(const tsr_tensor *t, int64_t dim, int64_t start, int64_t length);

/* sparse_constructor_values_backward: the values of g (sparse, coalesced
 * first, or strided; of sizes) at each column of indices [sparse_dim, nnz]
 * in order, zeros where g has no entry: a strided [nnz, *dense] tensor. */
tsr_tensor *tsr_sparse_values_at(const tsr_tensor *g, const tsr_tensor *indices, const int64_t *sizes);

/* _sparse_sum_backward: the gradient g of torch.sparse.sum(input, dims)
 * (strided when every sparse dim was summed, else sparse) at input's
 * coalesced indices, broadcast over the summed dims: a sparse tensor of
 * input's sizes. */
tsr_tensor *tsr_sparse_sum_backward(const tsr_tensor *g, const tsr_tensor *input, const tsr_dims *dims);

#endif
