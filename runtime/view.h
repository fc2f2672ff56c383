/* runtime/view.h — views: new headers on the same storage (Torch7 THTensor
 * narrow/select/transpose style) with PyTorch's checks and messages
 * (SEMANTICS.md §4.5). Every function returns a NEW reference or NULL with an
 * error; inputs are borrowed. None copies (reshape and flatten, which may, are
 * in ops/shape.h). dims are wrapped
 * Python-style (-1 is the last dim). */
#ifndef TSR_VIEW_H
#define TSR_VIEW_H
#include "tensor.h"

/* Wraps dim into [0, ndim) (a 0-dim tensor accepts -1 and 0). Returns the
 * wrapped dim, or -1 with IndexError "Dimension out of range (expected to be
 * in range of [-2, 1], but got 2)". */
int tsr_wrap_dim(int64_t dim, int ndim);
/* Resolves one -1 in sizes (copied to out) against numel: errors
 * "only one dimension can be inferred", "shape '[-1, 4]' is invalid for input
 * of size 6", "cannot reshape tensor of 0 elements into shape [0, -1] because
 * ...". Returns 0 or -1. */
int tsr_infer_size(int n, const int64_t *sizes, int64_t numel, int64_t *out);
/* PyTorch's computeStride: 1 and strides in newstrides when the view is
 * possible, 0 when not (no error recorded). */
int tsr_compute_stride(int oldn, const int64_t *oldsizes, const int64_t *oldstrides,
                       int newn, const int64_t *newsizes, int64_t *newstrides);

tsr_tensor *tsr_view_narrow(const tsr_tensor *t, int64_t dim, int64_t start, int64_t length);
tsr_tensor *tsr_view_select(const tsr_tensor *t, int64_t dim, int64_t index);
/* t[start:stop:step] along dim: Python semantics, start/stop clamped, negative
 * wrap; use TSR_SLICE_END for an absent stop. step <= 0 → "step must be greater than zero". */
#define TSR_SLICE_END INT64_MAX
tsr_tensor *tsr_view_slice(const tsr_tensor *t, int64_t dim, int64_t start, int64_t stop, int64_t step);
tsr_tensor *tsr_view_transpose(const tsr_tensor *t, int64_t d0, int64_t d1);
/* t(): "t() expects a tensor with <= 2 dimensions, but self is 3D". */
tsr_tensor *tsr_view_t(const tsr_tensor *t);
tsr_tensor *tsr_view_permute(const tsr_tensor *t, int n, const int64_t *dims);
/* view(*sizes) (with one -1); the computeStride failure message otherwise. */
tsr_tensor *tsr_view_view(const tsr_tensor *t, int n, const int64_t *sizes);
tsr_tensor *tsr_view_expand(const tsr_tensor *t, int n, const int64_t *sizes);
tsr_tensor *tsr_view_expand_as(const tsr_tensor *t, const tsr_tensor *other);
tsr_tensor *tsr_view_squeeze(const tsr_tensor *t);                 /* every size-1 dim */
tsr_tensor *tsr_view_squeeze_dim(const tsr_tensor *t, int64_t dim); /* no-op unless size 1 */
tsr_tensor *tsr_view_unsqueeze(const tsr_tensor *t, int64_t dim);  /* dim in [-ndim-1, ndim] */
tsr_tensor *tsr_view_unflatten(const tsr_tensor *t, int64_t dim, int n, const int64_t *sizes);
/* The same with names for the new dims (unflatten(dim, namedshape)); names
 * NULL: plain sizes, refused on a named tensor ("unflatten: input is a named
 * tensor but no names were given for unflattened sizes"). */
tsr_tensor *tsr_view_unflatten_names(const tsr_tensor *t, int64_t dim, int n, const int64_t *usizes,
                                     const char *const *names);
/* as_strided; offset TSR_VIEW_KEEP_OFFSET keeps t's storage offset (any
 * other negative one fails as in PyTorch). Checks storage bounds. */
#define TSR_VIEW_KEEP_OFFSET INT64_MIN
tsr_tensor *tsr_view_as_strided(const tsr_tensor *t, int n, const int64_t *sizes,
                                const int64_t *strides, int64_t offset);
tsr_tensor *tsr_view_unfold(const tsr_tensor *t, int64_t dim, int64_t size, int64_t step);
tsr_tensor *tsr_view_diagonal(const tsr_tensor *t, int64_t offset, int64_t dim1, int64_t dim2);
/* real/imag of a complex tensor (a float view with doubled strides; imag of a
 * conj view has the negative bit, real has no bit). real of a
 * real tensor returns a new reference to an alias; imag of a real tensor:
 * "imag is not implemented for tensors with non-complex dtypes." */
tsr_tensor *tsr_view_real(const tsr_tensor *t);
tsr_tensor *tsr_view_imag(const tsr_tensor *t);
/* view(dtype): reinterpretation; different itemsizes scale the last dim. */
tsr_tensor *tsr_view_dtype(const tsr_tensor *t, tsr_dtype dtype);
/* movedim(source, destination): lists of nsrc and ndst dims (must be equal). */
tsr_tensor *tsr_view_movedim(const tsr_tensor *t, int nsrc, const int64_t *src, int ndst, const int64_t *dst);
/* movedim's permutation of nd dims into perm (1.13's checks and errors): 0, or
 * 1 for nd == 0 (no permutation: an alias), -1 on error. */
int tsr_movedim_order(int nd, int nsrc, const int64_t *src, int ndst, const int64_t *dst, int64_t *perm);
/* A plain alias (x.view_as(x), x[...]): same geometry, new header. */
tsr_tensor *tsr_view_alias(const tsr_tensor *t);

/* The dimension of t named `name` (named-tensor lookup, as at::dimname_to_position):
 * its index, or -1 with RuntimeError "Name 'c' not found in Tensor[N, None]."
 * name NULL is Python's None: "Please look up dimensions by name, got: name = None." */
int tsr_dim_of_name(const tsr_tensor *t, const char *name);
/* narrow(dim, start, length) with start given as a tensor: it must be a 0-dim
 * integral tensor (TensorShape.cpp narrow). NEW reference or NULL. */
tsr_tensor *tsr_view_narrow_tensor(const tsr_tensor *t, int64_t dim, const tsr_tensor *start, int64_t length);
/* as_strided with the lengths of size and stride given apart: they must agree
 * ("mismatch in length of strides and shape"). */
tsr_tensor *tsr_view_as_strided_checked(const tsr_tensor *t, int n, const int64_t *sizes, int ns,
                                        const int64_t *strides, int64_t offset);
/* x.mT (the last two dims swapped; at least 2 dims) and x.H (0- or 2-dim; a
 * complex tensor's is a conjugate view, tensor.h). NEW reference or NULL. */
tsr_tensor *tsr_view_mT(const tsr_tensor *t);   /* a 0-dim t: t itself (a new reference), as 1.13 */
/* x.mH, x.adjoint(): mT, with the conjugate bit flipped for a complex tensor. */
tsr_tensor *tsr_view_mH(const tsr_tensor *t);
tsr_tensor *tsr_view_H(const tsr_tensor *t);
/* x.size(dim) / x.stride(dim): dim wrapped (a 0-dim tensor has none: IndexError
 * "Dimension specified as 0 but tensor has no dimensions"). 0 or -1. */
int tsr_tensor_dim_query(const tsr_tensor *t, int64_t dim, bool stride, int64_t *out);

/* The in-place view methods (x.squeeze_(), unsqueeze_, t_, transpose_,
 * swapaxes_, swapdims_, as_strided_): t takes the geometry of v (a view of t
 * made by the out-of-place op); the binding's in-place path bumps the version
 * counter, as 1.13 does.
 * schema: the op's name for 1.13's named-tensor refusal ("aten::squeeze_.dim");
 * the autograd checks are the caller's (runtime/autograd.h). Returns the header that now holds
 * t's place: t itself when its header has room for v's dims, else a new one
 * (t's autograd state moves to it). NEW reference or NULL. */
tsr_tensor *tsr_view_inplace(tsr_tensor *t, const tsr_tensor *v, const char *schema);
/* The checks before the op runs (names; the rank for t_): 0 or -1. */
int tsr_view_inplace_check(const tsr_tensor *t, const char *schema);

#endif
