/* runtime/scalar.h — a tagged Python-like scalar (bool/int/float/complex) and
 * the loads/stores between scalars and typed memory. Conversions follow
 * PyTorch's c10::convert / static_cast rules (see scalar.c). */
#ifndef TSR_SCALAR_H
#define TSR_SCALAR_H
#include <stdint.h>
#include "dtype.h"

typedef enum { TSR_SCALAR_BOOL, TSR_SCALAR_INT, TSR_SCALAR_FLOAT, TSR_SCALAR_COMPLEX } tsr_scalar_kind;

/* kind BOOL and INT use i (0/1 for bool), FLOAT uses d, COMPLEX uses re and im. */
typedef struct { tsr_scalar_kind kind; int64_t i; double d; double re, im; } tsr_scalar;

tsr_scalar tsr_scalar_bool(bool b);
tsr_scalar tsr_scalar_int(int64_t i);
tsr_scalar tsr_scalar_float(double d);
tsr_scalar tsr_scalar_complex(double re, double im);
/* Value as double (complex: real part; bool/int: converted). */
double tsr_scalar_to_double(tsr_scalar s);
/* Value as int64 (float: C truncation, NaN/out of range gives INT64_MIN as x86 does). */
int64_t tsr_scalar_to_int64(tsr_scalar s);
/* Real and imaginary parts as doubles. */
void tsr_scalar_to_complex(tsr_scalar s, double *re, double *im);
/* Value != 0. */
bool tsr_scalar_to_bool(tsr_scalar s);

/* Reads one element of dtype d at p into a scalar of the dtype's category
 * (bool → BOOL, integral → INT, floating → FLOAT, complex → COMPLEX). */
tsr_scalar tsr_scalar_load(tsr_dtype d, const void *p);
/* Writes s converted to dtype d at p (PyTorch cast rules, no overflow check). */
void tsr_scalar_store(tsr_dtype d, void *p, tsr_scalar s);
/* Converts n elements from (st, src, src_stride bytes) to (dt, dst, dst_stride
 * bytes). One routine for every pair, instantiated from TSR_DTYPES. */
void tsr_convert(tsr_dtype dt, void *dst, int64_t dst_stride,
                 tsr_dtype st, const void *src, int64_t src_stride, int64_t n);
/* Checks that s fits dtype d without overflow (PyTorch's fill_/full check).
 * Returns 0, or -1 with RuntimeError "value cannot be converted to type
 * uint8_t without overflow" naming the dtype's cxx_name trait; complex128 and
 * bool never overflow. 1.13 checks a one-element tensor's complex32 fill
 * against c10::complex<c10::Half> instead; tsr follows the kernel path. */
int tsr_scalar_check_fits(tsr_scalar s, tsr_dtype d);

#endif
