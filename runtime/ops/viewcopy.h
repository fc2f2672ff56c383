/* runtime/ops/viewcopy.h — the copying forms of views: narrow_copy, ravel
 * (a view when t is contiguous), the *_scatter functions that embed src
 * into a copy of input at a view's place (select/slice/diagonal/as_strided),
 * and the dtype-changing views view_as_real / view_as_complex.
 * NEW references or NULL with 1.13's errors; inputs are borrowed. */
#ifndef TSR_OPS_VIEWCOPY_H
#define TSR_OPS_VIEWCOPY_H
#include "../tensor.h"

/* narrow_copy(dim, start, length): the narrow as a new contiguous tensor. */
tsr_tensor *tsr_narrow_copy(const tsr_tensor *t, int64_t dim, int64_t start, int64_t length);
/* narrow_copy(out=): out's dtype must be t's (1.13's bare TORCH_CHECK
 * message), out resized to the slice's shape; no meta kernel. A new
 * reference to out, or NULL. */
tsr_tensor *tsr_narrow_copy_out(const tsr_tensor *t, int64_t dim, int64_t start, int64_t length, tsr_tensor *out);
/* ravel: contiguous().view(-1). */
tsr_tensor *tsr_ravel(const tsr_tensor *t);

/* Which view a *_scatter embeds into. ORDER SCATTERVIEW */
typedef enum { TSR_SV_SELECT, TSR_SV_SLICE, TSR_SV_DIAGONAL, TSR_SV_AS_STRIDED } tsr_scatter_view;
typedef struct {
    int64_t dim, index;                 /* select */
    int64_t start, end, step;           /* slice: start/end TSR_SLICE_END-style absent values allowed */
    bool has_start, has_end;
    int64_t offset, dim1, dim2;         /* diagonal */
    int n;                              /* as_strided: sizes, strides, storage offset */
    const int64_t *sizes, *strides;
    int64_t storage_offset;             /* TSR_VIEW_KEEP_OFFSET: input's */
} tsr_scatter_args;
/* A clone of input (preserve_format) with src copied into the view; src must
 * have the view's sizes ("expected src to have a size equal to the slice of
 * self. src size = [2], slice size = [3]"). */
tsr_tensor *tsr_view_scatter(tsr_scatter_view kind, const tsr_tensor *input, const tsr_tensor *src,
                             const tsr_scatter_args *a);

/* view_as_real: a complex tensor as its real dtype with a last dim of 2. */
tsr_tensor *tsr_view_as_real(const tsr_tensor *t);
/* view_as_complex: a half/float/double tensor with a last dim of size 2 and
 * stride 1 (other strides and the offset even) as complex. */
tsr_tensor *tsr_view_as_complex(const tsr_tensor *t);

#endif
