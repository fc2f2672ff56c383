/* runtime/tensor.h — the tensor header: a storage reference plus offset,
 * sizes, strides (in elements), dtype, device, layout, names (SEMANTICS.md §4).
 * Ownership: every function returning tsr_tensor* returns a NEW reference
 * (release it); arguments are borrowed; NULL/-1 means an error is recorded.
 * Fields are public for reading; change them only through runtime calls. */
#ifndef TSR_TENSOR_H
#define TSR_TENSOR_H
#include <stdbool.h>
#include <stdint.h>
#include "device.h"
#include "dtype.h"
#include "scalar.h"
#include "storage.h"

#define TSR_MAX_DIMS 64

typedef enum {
    TSR_LAYOUT_STRIDED, TSR_LAYOUT_SPARSE_COO, TSR_LAYOUT_SPARSE_CSR,
    TSR_LAYOUT_SPARSE_CSC, TSR_LAYOUT_SPARSE_BSR, TSR_LAYOUT_SPARSE_BSC,
    TSR_LAYOUT_MKLDNN, TSR_LAYOUT_COUNT
} tsr_layout;
/* "torch.strided", "torch.sparse_coo", ... */
const char *tsr_layout_name(tsr_layout l);

typedef enum {
    TSR_MF_CONTIGUOUS, TSR_MF_PRESERVE, TSR_MF_CHANNELS_LAST, TSR_MF_CHANNELS_LAST_3D
} tsr_memory_format;
/* "torch.contiguous_format", "torch.preserve_format", "torch.channels_last", ... */
const char *tsr_memory_format_name(tsr_memory_format mf);

struct tsr_tensor;
/* What a sparse COO tensor owns instead of data (SparseTensorImpl): indices
 * int64 [sparse_dim, nnz] and values [nnz, *dense_sizes], both strided. */
typedef struct tsr_sparse {
    struct tsr_tensor *indices, *values;   /* owned */
    int sparse_dim, dense_dim;
    bool coalesced;
} tsr_sparse;

typedef struct tsr_tensor {
    int refcount;              /* atomic; use retain/release */
    tsr_storage *storage;      /* owned reference, never NULL */
    int64_t storage_offset;    /* in elements of dtype */
    int ndim;
    int64_t *sizes;            /* ndim entries (point into dims[]) */
    int64_t *strides;          /* ndim entries, in elements */
    tsr_dtype dtype;
    tsr_device device;
    tsr_layout layout;
    const char **names;        /* NULL, or ndim interned strings (NULL = unnamed dim) */
    bool requires_grad;
    bool conj;                 /* the conjugate bit (complex only): the values are the conjugates
                                  of what storage holds (ConjugateFallback.cpp); views keep it */
    bool neg;                  /* the negative bit (real floating only, x.conj().imag): the values
                                  are the negatives of what storage holds */
    bool wrapped_number;       /* a Python number the binding wrapped into a 0-dim tensor that an
                                  autograd node saves (1.13's wrapped_scalar_tensor): type
                                  promotion counts it as a Python scalar */
    struct tsr_tensor *base;   /* owned: the tensor this is a view of (PyTorch's x._base, never
                                  itself a view), NULL when not a view */
    struct tsr_autograd *autograd; /* owned: grad_fn, .grad, hooks (runtime/autograd.h), or NULL */
    struct tsr_sparse *sparse; /* owned: a sparse_coo tensor's indices and values (ops/sparse.h),
                                  NULL for strided; its storage is then empty and never read */
    int dims_cap;              /* dimensions dims[] has room for (internal) */
    int64_t dims[];            /* sizes then strides */
} tsr_tensor;

/* Adds a reference; returns t. */
tsr_tensor *tsr_tensor_retain(tsr_tensor *t);
/* Drops a reference; frees the header (and its storage ref) at zero. NULL ok. */
void tsr_tensor_release(tsr_tensor *t);

/* Checks sizes (no negatives: "Trying to create tensor with negative dimension
 * -1: [-1]"; at most TSR_MAX_DIMS) and computes their product with overflow
 * checking. Returns 0 and *numel, or -1 with RuntimeError. */
int tsr_check_sizes(int ndim, const int64_t *sizes, int64_t *numel);
/* a*b with overflow check: 0, or -1 with RuntimeError. */
int tsr_mul_overflow(int64_t a, int64_t b, int64_t *out);

/* New uninitialised contiguous tensor (storage bytes are whatever the allocator
 * holds; zero-filled when freshly mapped). New reference or NULL. */
tsr_tensor *tsr_tensor_empty(int ndim, const int64_t *sizes, tsr_dtype dtype, tsr_device device);
/* Same with a memory format (contiguous, channels_last (4-d), channels_last_3d
 * (5-d)); PRESERVE → "unsupported memory format Preserve". */
tsr_tensor *tsr_tensor_empty_format(int ndim, const int64_t *sizes, tsr_dtype dtype,
                                    tsr_device device, tsr_memory_format mf);
/* New uninitialised tensor with given strides (storage sized to fit; negative
 * strides rejected as in as_strided). */
tsr_tensor *tsr_tensor_empty_strided(int ndim, const int64_t *sizes, const int64_t *strides,
                                     tsr_dtype dtype, tsr_device device);
/* New header on an existing storage (x.set_(storage, offset, size, stride));
 * the storage is borrowed (a reference is taken). strides NULL → contiguous.
 * Checks the storage bounds like as_strided. dtype is the view's dtype. */
tsr_tensor *tsr_tensor_from_storage(tsr_storage *s, int64_t offset, int ndim, const int64_t *sizes,
                                    const int64_t *strides, tsr_dtype dtype);
/* Low-level: a header with the same storage/dtype/device/layout/names-less as
 * t but new geometry; no checks beyond allocation. The result is a view of
 * t (its base is t's base, else t). New reference or NULL. */
tsr_tensor *tsr_tensor_alias(const tsr_tensor *t, int ndim, const int64_t *sizes,
                             const int64_t *strides, int64_t offset);

/* True when t carries a math bit (conj or neg): its storage does not hold its
 * values, so only bit-aware code (the iterator, copy_, element access, views)
 * may read it; everything else reads tsr_resolve_bits(t) (ops/copy.h). */
static inline bool tsr_tensor_has_bits(const tsr_tensor *t) { return t->conj || t->neg; }
/* Flips the sign bits n elements of dtype d at p (stride in bytes) hold: conj
 * negates the imaginary part of a complex element, neg the whole element
 * (an integer is negated; bool is left alone). Used to apply or undo a bit. */
/* An inference tensor: its storage was made in torch.inference_mode (views share it). */
static inline bool tsr_tensor_is_inference(const tsr_tensor *t) { return t->storage && t->storage->inference; }
void tsr_flip_signs(tsr_dtype d, bool conj, bool neg, void *p, int64_t stride, int64_t n);

/* Drops v's view link (x._base None): for results that alias storage but
 * that 1.13 does not count as views (x.data, x.view(dtype), reshape's copy). */
void tsr_tensor_unview(tsr_tensor *v);

int64_t tsr_tensor_numel(const tsr_tensor *t);
int64_t tsr_tensor_nbytes(const tsr_tensor *t);             /* numel * itemsize */
static inline int tsr_tensor_itemsize(const tsr_tensor *t) { return tsr_dtype_itemsize(t->dtype); }
/* Non-zero when the tensor has no data to read (meta). */
bool tsr_tensor_is_meta(const tsr_tensor *t);
/* Address of the element at multi-index idx (no bounds check), or of the first
 * element when idx is NULL. NULL for meta tensors. */
void *tsr_tensor_ptr(const tsr_tensor *t, const int64_t *idx);

/* Strides (SEMANTICS.md §4.1). Write ndim strides into out. */
void tsr_strides_contiguous(int ndim, const int64_t *sizes, int64_t *out);
/* Strides for a memory format; -1 with "required rank 4 tensor to use
 * channels_last format" / "... rank 5 ... channels_last_3d" / "unsupported
 * memory format Preserve". */
int tsr_strides_for_format(int ndim, const int64_t *sizes, tsr_memory_format mf, int64_t *out);
/* preserve_format strides (§4.3): the strides themselves when non-overlapping
 * and dense, else infer_dense_strides. */
void tsr_strides_preserve(int ndim, const int64_t *sizes, const int64_t *strides, int64_t *out);

/* Predicates on raw geometry and on tensors (§4.2, c10/core/TensorImpl.cpp). */
bool tsr_geom_is_contiguous(int ndim, const int64_t *sizes, const int64_t *strides);
bool tsr_geom_is_channels_last(int ndim, const int64_t *sizes, const int64_t *strides);
bool tsr_geom_is_channels_last_3d(int ndim, const int64_t *sizes, const int64_t *strides);
bool tsr_geom_is_non_overlapping_and_dense(int ndim, const int64_t *sizes, const int64_t *strides);
bool tsr_geom_strides_like_channels_last(int ndim, const int64_t *sizes, const int64_t *strides);
bool tsr_geom_strides_like_channels_last_3d(int ndim, const int64_t *sizes, const int64_t *strides);
tsr_memory_format tsr_geom_suggest_memory_format(int ndim, const int64_t *sizes, const int64_t *strides);
bool tsr_tensor_is_contiguous(const tsr_tensor *t);                  /* contiguous_format */
bool tsr_tensor_is_contiguous_as(const tsr_tensor *t, tsr_memory_format mf);
bool tsr_tensor_is_non_overlapping_and_dense(const tsr_tensor *t);
tsr_memory_format tsr_tensor_suggest_memory_format(const tsr_tensor *t);

/* Element access for printers and tests. idx is a multi-index of ndim entries
 * (NULL for 0-dim); `at` variants take a row-major linear index < numel.
 * On meta tensors they fail with NotImplementedError "Cannot copy out of meta
 * tensor; no data!"; getters then return 0 / NaN and record the error. */
int tsr_tensor_get(const tsr_tensor *t, const int64_t *idx, tsr_scalar *out);
int tsr_tensor_set(tsr_tensor *t, const int64_t *idx, tsr_scalar v);
double tsr_tensor_get_double(const tsr_tensor *t, const int64_t *idx);
int64_t tsr_tensor_get_int64(const tsr_tensor *t, const int64_t *idx);
void tsr_tensor_get_complex(const tsr_tensor *t, const int64_t *idx, double *re, double *im);
int tsr_tensor_get_at(const tsr_tensor *t, int64_t linear, tsr_scalar *out);
int tsr_tensor_set_at(tsr_tensor *t, int64_t linear, tsr_scalar v);
double tsr_tensor_get_double_at(const tsr_tensor *t, int64_t linear);
int64_t tsr_tensor_get_int64_at(const tsr_tensor *t, int64_t linear);
void tsr_tensor_get_complex_at(const tsr_tensor *t, int64_t linear, double *re, double *im);
/* Converts a linear row-major index into a multi-index (idx has ndim entries). */
void tsr_unravel(int ndim, const int64_t *sizes, int64_t linear, int64_t *idx);

/* x.item(): the single element of t into *out; -1 with ValueError "only one
 * element tensors can be converted to Python scalars" (python_variable_methods.cpp)
 * or, on meta, 1.13's NotImplementedError for aten::_local_scalar_dense. */
int tsr_tensor_item(const tsr_tensor *t, tsr_scalar *out);
/* bool(x) (at::is_nonzero): 0 or 1, or -1 with "Boolean value of Tensor with
 * no values / more than one value is ambiguous". */
int tsr_tensor_is_nonzero(const tsr_tensor *t);
/* Records requires_grad (autograd is not modelled): 0, or -1 with RuntimeError
 * when on is asked for a dtype that cannot require gradients. method: the
 * requires_grad_() wording ("floating point dtype", which 1.13 keeps for that
 * call) instead of the attribute's ("floating point and complex dtype"). */
int tsr_tensor_set_requires_grad(tsr_tensor *t, bool on, bool method);

/* x.set_(...): a new header for t's place. set_storage: on st read as
 * st_dtype (which must be t's dtype: "Expected a Storage of type float or an
 * UntypedStorage, ..."), at offset with sizes and strides (NULL: contiguous;
 * ns must then be 0, else equal n: "unequal size length (2) and stride
 * length (1)"); a resizable storage too small for the view grows (THTensor
 * setStorage). set_source: the geometry of src, whose dtype
 * must be t's. NEW reference or NULL. */
tsr_tensor *tsr_tensor_set_storage(const tsr_tensor *t, tsr_storage *st, tsr_dtype st_dtype, int64_t offset, int n,
                                   const int64_t *sizes, int ns, const int64_t *strides);
tsr_tensor *tsr_tensor_set_source(const tsr_tensor *t, const tsr_tensor *src);
/* x.resize_(sizes): a contiguous header for t's place on t's storage, grown
 * when too small. NEW reference or NULL. */
tsr_tensor *tsr_tensor_resized(const tsr_tensor *t, int n, const int64_t *sizes);
/* x.resize_(sizes, memory_format=mf) as 1.13's resize_: unchanged sizes keep
 * t's strides (resize_impl_cpu_); a given mf (has_mf) then restrides
 * (channels_last needs rank 4: "required rank 4 tensor to use channels_last
 * format"; PRESERVE: "Unsupported memory formatPreserve"). NEW reference or NULL. */
tsr_tensor *tsr_tensor_resized_format(const tsr_tensor *t, int n, const int64_t *sizes, bool has_mf,
                                      tsr_memory_format mf);

/* x.is_set_to(o): same storage, offset, sizes and strides. */
bool tsr_tensor_is_set_to(const tsr_tensor *t, const tsr_tensor *o);

/* operator.index(x) (THPVariable_index): the single element of an integer
 * tensor; -1 with TypeError "only integer tensors of a single element can be
 * converted to an index" otherwise. */
int tsr_tensor_index(const tsr_tensor *t, int64_t *out);

#endif
