/* runtime/named.h — names on tensors (named.c): the setter with its
 * validation, propagation to results and out= tensors, and the checks the
 * elementwise engine, resize_ and the factories make (SEMANTICS.md §2). */
#ifndef TSR_NAMED_H
#define TSR_NAMED_H
#include "names.h"
#include "tensor.h"

/* Sets t's names (n entries; names NULL drops them): the count must be
 * t->ndim ("Number of names (1) and number of dimensions in tensor (2) do not
 * match. Attempted to create a tensor with names ['N']") and basic names
 * unique. All wildcards store NULL, so an unnamed tensor stays NULL. 0/-1. */
int tsr_tensor_set_names(tsr_tensor *t, const tsr_name *names, int n);
/* The first time a tensor of the process gets names (tsr_tensor_set_names),
 * 1.13 warns once: "Named tensors and all their associated APIs are an
 * experimental feature ...". Returns that UserWarning's text the first time
 * it is taken after a tensor got names, else NULL. */
const char *tsr_names_warning_take(void);

/* propagate_names: gives result the names (n == result->ndim) when some
 * are basic or result already has names; a 0-dim result is left alone. */
int tsr_names_propagate(tsr_tensor *result, const tsr_name *names, int n);
/* The out= check of 2.6: an out tensor with names must carry exactly the
 * computed ones (NULL: all wildcards): "Name mismatch: specified out tensor
 * with names [...] are not the same as the computed output names [...].
 * Please rename the out tensor's dims with `Tensor.rename`." 0/-1. */
int tsr_names_check_out(const tsr_tensor *out, const tsr_name *computed, int n);

/* The names an elementwise op computes (TensorIterator compute_names): the
 * inputs' names unified from the right in order (NULL entries of in are
 * scalars), then the out tensor is checked (it is skipped while it is to be
 * resized). *named is false (nothing to do) when no operand has names.
 * 0/-1. */
int tsr_names_elementwise(int nin, const tsr_tensor *const *in, const tsr_tensor *out, int nd,
                          tsr_name *names, bool *named);
/* resize_ of a named tensor may not change its shape (NamedTensor.cpp):
 * "Cannot resize named tensor with resize_ or resize_as_ (tried to resize
 * Tensor['N', 'C'] with size [2, 3] to [3, 2]). This may be caused by passing
 * a named tensor as an `out=` argument; please ensure that the sizes are the
 * same. " 0/-1. */
int tsr_names_check_resize(const tsr_tensor *t, int nd, const int64_t *sizes);

/* A factory's names= (empty_names in 1.13): only CPU and CUDA tensors,
 * "NYI: named tensors only support CPU and CUDA tensors" on meta. 0/-1. */
int tsr_names_check_factory(const tsr_tensor *t);

/* A factory's names= with a layout other than strided (1.13's named
 * overloads): zeros, ones and full with sparse_coo fail in their fill, "full(...)
 * is not implemented for sparse layout"; every other case "NYI: named tensors
 * only support strided layout". 0/-1. */
int tsr_names_check_factory_layout(const char *factory, tsr_layout layout);

/* cosine_similarity(a, b, dim) as 1.13 names it: a and b unified from the
 * right, then the reduced dim removed. Fills out[0 .. *n - 1]; *n = -1 when
 * neither is named or dim is out of range (the op reports it). 0/-1. */
int tsr_names_cosine_similarity(const tsr_tensor *a, const tsr_tensor *b, int64_t dim, tsr_name *out, int *n);

/* As tsr_names_propagate without the duplicate check: matmul's result may
 * carry a name twice in 1.13 (SEMANTICS.md §2.8). */
int tsr_names_propagate_raw(tsr_tensor *result, const tsr_name *names, int n);

/* 1.13's squeeze(d) of a dim whose size is not 1 returns
 * self.as_strided(...): a view that keeps the Named dispatch key without
 * names. has_names() is False and names are all None, yet every op without a
 * names rule still refuses it. tsr marks such a tensor with an array of
 * ndim wildcards (tsr_tensor_set_names never stores one), which the
 * refusal checks see; a names rule that sets names drops it. 0/-1. */
int tsr_names_keep_fallback(tsr_tensor *t);
/* Printing such a tensor (SEMANTICS.md §2.8): 1.13's _tensor_str refuses a
 * complex one at self.real (aten::view_as_real) and, unless it is half or
 * bfloat16 (printed from a float copy) or summarized, one whose
 * reshape(-1) is a view (aten::_reshape_alias). 0 for every other tensor,
 * -1 with the refusal. */
int tsr_names_check_print(const tsr_tensor *t, bool summarize);

#endif
