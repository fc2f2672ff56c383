/* runtime/io/npy.h — NumPy's .npy format (numpy/lib/format.py of NumPy 1.24):
 * format 1.0 written with the header padded so the data starts on a 64-byte
 * boundary; 1.0, 2.0 and 3.0 read, every length checked; Fortran order and
 * big-endian data copied into native order; a Fortran-ordered file loads as
 * a Fortran-strided array, as np.load gives it. */
#ifndef TSR_IO_NPY_H
#define TSR_IO_NPY_H
#include <stddef.h>
#include "tensor.h"

/* NumPy's descr of a dtype ("<f4", "|b1"); NULL for bfloat16 and complex32,
 * which NumPy lacks. */
const char *tsr_npy_descr(tsr_dtype d);
/* The dtype of a descr, or TSR_DTYPE_UNDEFINED; *swap is set when the data
 * is in the other byte order. */
tsr_dtype tsr_npy_dtype_of_descr(const char *descr, int *swap);

/* np.save's bytes of t (any strides, read in C order) into *out, a
 * tsr_malloc'd buffer of *n bytes. 0, or -1 + error (a dtype NumPy lacks:
 * TypeError "Got unsupported ScalarType BFloat16"). */
int tsr_npy_encode(const tsr_tensor *t, void **out, size_t *n);
/* np.load of the .npy bytes buf[0..n) (borrowed): a new contiguous CPU
 * tensor, or NULL + ValueError with NumPy's message. Never reads outside
 * buf. */
tsr_tensor *tsr_npy_decode(const void *buf, size_t n);

#endif
