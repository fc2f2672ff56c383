/* src/show/show.h — printing of torch values (PyTorch's exact formats) and
 * the print options. show/ formats; it never evaluates and never includes
 * src/bind/ (the bindings call down into it). */
#ifndef TSR_SHOW_H
#define TSR_SHOW_H

#include <stdint.h>

#include "tsr.h"
#include "value.h"

/* PyTorch's repr(t) (torch/_tensor_str.py), new str; NULL with the exception
 * set (KeyboardInterrupt while printing, MemoryError). */
Value *show_tensor_repr(const tsr_tensor *t);

/* Python's str() of a runtime scalar as a Python number (True, 3, 0.5,
 * (1+2j)); new str, or NULL with the exception set. */
Value *show_scalar_str(tsr_scalar s);

/* :info — t's dtype, device, layout, shape, stride, numel, element size,
 * storage offset and size, contiguity, memory format and names, one
 * "name  value" row each. */
void show_tensor_info(const tsr_tensor *t);
/* :storage — the elements of s read as dtype, as rows of index/value cells
 * (the middle elided when long); with a view t (may be NULL), the elements
 * it reaches marked ^ (+ when reached more than once). */
void show_storage(const tsr_storage *s, tsr_dtype dtype, const tsr_tensor *t);

/* Sets every print option at once (torch.set_printoptions with all values
 * given). threshold may be INFINITY; sci_mode is -1 (None), 0 or 1. */
void show_set_printoptions(int64_t precision, double threshold, int64_t edgeitems, double linewidth,
                           int sci_mode);
/* The current print options (for set_printoptions, which changes only the
 * ones it is given). */
void show_get_printoptions(int64_t *precision, double *threshold, int64_t *edgeitems, double *linewidth,
                           int *sci_mode);
/* Back to PyTorch's defaults: precision 4, threshold 1000, edgeitems 3,
 * linewidth 80, sci_mode None. */
void show_reset_printoptions(void);

/* NumPy 1.24's repr / str of an array viewing t (ndarray_str.c: default
 * print options), and str (= repr) of a NumPy scalar of dtype dt. New str,
 * or NULL with the exception set. */
Value *show_ndarray_repr(const tsr_tensor *t);
Value *show_ndarray_str(const tsr_tensor *t);
Value *show_npscalar_str(tsr_dtype dt, tsr_scalar s);

#endif
