/* runtime/names.h — named-tensor name inference (SEMANTICS.md §2): names
 * are interned strings compared by pointer, NULL is the wildcard `None`;
 * validity, PyTorch's list format, unify-from-the-right, matmul's
 * contraction with TensorNames' batch unification, and align_to's layout.
 * Each function works on plain arrays of names, so ops call it before they
 * compute and an unnamed tensor passes an array of NULLs (or costs nothing
 * where the caller checks tsr_names_any first). Errors: -1 with PyTorch
 * 1.13's RuntimeError text recorded. */
#ifndef TSR_NAMES_H
#define TSR_NAMES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef const char *tsr_name;

#define TSR_MAX_NAMED_DIMS 64   /* c10's kMaxNamedTensorDim */

/* The interned copy of s (same pointer for equal strings, kept for the
 * process), or NULL with MemoryError. No validity check. */
tsr_name tsr_name_intern(const char *s);
/* A user's name: "*" is the wildcard (*out = NULL); otherwise s must be an
 * identifier of ASCII letters, digits and '_' not starting with a digit, else
 * "Invalid name: a valid identifier contains only digits, alphabetical
 * characters, and/or underscore and starts with a non-digit. got: '1a'.".
 * 0 or -1. */
int tsr_name_from_str(const char *s, tsr_name *out);
/* True when some entry is not the wildcard. names may be NULL (false). */
bool tsr_names_any(const tsr_name *names, int n);
/* "Cannot construct a tensor with duplicate names. Got names: ['N', 'N']."
 * when a basic name repeats (wildcards may repeat). 0 or -1. */
int tsr_names_check_unique(const tsr_name *names, int n);
/* names as C++ messages print them: "['N', None]" ("[]" for none); returns
 * the length it needed (snprintf-style); names NULL means n wildcards. */
int tsr_names_format(char *buf, size_t cap, const tsr_name *names, int n);
/* Index of name in names, or -1. */
int tsr_names_find(const tsr_name *names, int n, tsr_name name);

/* Unify two name lists from the right (NamedTensorUtils.cpp unify_from_right):
 * out gets max(na, nb) names. action is "broadcast" or "cat" (the verb of the
 * messages "Error when attempting to broadcast dims [...] and dims [...]: dim
 * 'C' and dim 'N' are at the same position from the right but do not match."
 * and "Misaligned dims when attempting to ...: dim 'N' appears in a different
 * position from the right across both lists."). a or b may be NULL (all
 * wildcards). out may alias neither input. 0 or -1. */
int tsr_names_unify(const tsr_name *a, int na, const tsr_name *b, int nb, const char *action, tsr_name *out);

/* The names of matmul(a, b) (compute_matmul_outnames, with TensorNames'
 * unify for the batch dims, whose messages begin "matmul:"): writes *nout
 * names to out (room for max(na, nb) names). na, nb >= 1. 0 or -1. */
int tsr_names_matmul(const tsr_name *a, int na, const tsr_name *b, int nb, tsr_name *out, int *nout);

/* align_to (NamedTensor.cpp): self's names (n of them) to the order given
 * (norder names; ellipsis the position of '...' in the caller's list, or -1,
 * with order holding the names other than the ellipsis). Writes *nout names
 * to out and, for each output dim, the self dim it comes from or -1 (a new
 * size-1, stride-0 dim) to src; both need room for norder + n entries.
 * 0 or -1 with 1.13's messages ("align_to: All input dims must be named...",
 * "align_to: Cannot find dim 'N' from Tensor[...] in desired alignment
 * [...].", "... cannot contain a None name, got [None]", duplicate names). */
int tsr_names_align_to(const tsr_name *self, int n, const tsr_name *order, int norder, int ellipsis,
                       tsr_name *out, int *src, int *nout);

/* Removes dimensions: out gets the names of the dims whose removed[d] is
 * false; returns how many. */
int tsr_names_remove(const tsr_name *names, int n, const bool *removed, tsr_name *out);
/* refine_names (NamedTensor.cpp): names (n of them, already expanded) must
 * have self's count and may only make None dims specific, else 1.13's
 * "refine_names: cannot coerce Tensor[...] to Tensor[...] because ..."
 * messages. 0/-1. */
int tsr_names_refine(const tsr_name *self, int nself, const tsr_name *names, int n);
/* 1.13's named-tensor fallback: "<schema> is not yet supported with named
 * tensors. Please drop names via `tensor = tensor.rename(None)`, ..."; -1. */
int tsr_names_refuse(const char *schema);

#endif
