/* runtime/internal.h — helpers shared by runtime files; not public API. */
#ifndef TSR_INTERNAL_H
#define TSR_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include "tensor.h"

/* Writes "[a, b, c]" into buf (truncated to n bytes); returns buf. */
char *tsr__fmt_list(char *buf, size_t n, int count, const int64_t *v);
/* A header of ndim dims referencing storage s (a new reference is taken),
 * sizes/strides left for the caller; NULL on allocation failure. */
tsr_tensor *tsr__header(tsr_storage *s, int ndim, tsr_dtype dtype, tsr_device device);
/* Bytes needed by a strided geometry: (offset + 1 + Σ(size-1)*stride) *
 * itemsize, 0 when empty. Returns 0 or -1 with "Storage size calculation
 * overflowed with sizes=[..] and strides=[..]". */
int tsr__storage_nbytes(int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset,
                        int itemsize, uint64_t *out);
/* Records '"<kname>" not implemented for '<ScalarType>'' (ops/binary.c). */
int tsr__not_implemented(const char *kname, tsr_dtype d);
/* Frees a tensor's autograd state (autograd.c; called by tsr_tensor_release). */
struct tsr_autograd;
void tsr__autograd_free(struct tsr_autograd *ag);

/* resize_'s new header (tensor.c), without the named-tensor rule that
 * tsr_tensor_resized_format (named.c) adds. */
tsr_tensor *tsr__resized_format(const tsr_tensor *t, int n, const int64_t *sizes, bool has_mf,
                                tsr_memory_format mf);

/* Kernels built a second time for AVX2 under `#pragma GCC target("avx2")`
 * (GCC on x86-64 only; clang, the fuzz build, keeps the baseline), and the
 * run-time check that picks them: true when this CPU has AVX2. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define TSR_AVX2_BUILD 1
#else
#define TSR_AVX2_BUILD 0
#endif
bool tsr__cpu_avx2(void);
/* Replaces *t by r (NULL on error), releasing the old one; returns r. */
static inline tsr_tensor *tsr__take(tsr_tensor **t, tsr_tensor *r)
{
    tsr_tensor_release(*t);
    *t = r;
    return r;
}
/* An in-place op's result (a new reference to its target) as 0 / -1. */
static inline int tsr__done(tsr_tensor *t)
{
    if (!t) return -1;
    tsr_tensor_release(t);
    return 0;
}
/* The safety net under the binding table's sparse step: a strided-only
 * path (a view, element access, the iterator) met a sparse tensor.
 * Records NotImplementedError; returns -1. */
int tsr__sparse_refused(const tsr_tensor *t);
/* A new sparse header sharing t's indices and values (x.data, x.detach()). */
tsr_tensor *tsr__sparse_alias(const tsr_tensor *t);
/* ops/sparse.c's kernels for the strided entry points that hand a sparse
 * operand over (cat and the stacks, unbind): declared here as well, since
 * ops/sparse.h itself includes those ops' headers. */
tsr_tensor *tsr_sparse_cat(int n, const tsr_tensor *const *ts, int64_t dim, tsr_tensor *out);
tsr_tensor *tsr_sparse_unsqueeze(const tsr_tensor *t, int64_t dim);
int tsr_sparse_unbind(const tsr_tensor *t, int64_t dim, tsr_tensor ***parts);

#endif
