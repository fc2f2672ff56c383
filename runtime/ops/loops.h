/* runtime/ops/loops.h — private to the elementwise kernel files: per-dtype
 * load/store macros (storage type → compute type and back; float16 and
 * bfloat16 compute in float and round once), the dtype families, and the
 * strided loop templates that turn one scalar body into a tsr_loop_fn with a
 * contiguous fast path the compiler vectorises. The families and masks come
 * from the dtype list (TSR_DTYPE_LIST); LD_/ST_ and TSR_DT_ are ORDER DTYPE. */
#ifndef TSR_OPS_LOOPS_H
#define TSR_OPS_LOOPS_H
#include <complex.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include "../dtype.h"
#include "../iter.h"

/* Compute types: ints in int64 (stored back with wrap-around), floats in
 * float/double, complex in float/double _Complex. */
#define LD_uint8(v) ((int64_t)(v))
#define LD_int8(v) ((int64_t)(v))
#define LD_int16(v) ((int64_t)(v))
#define LD_int32(v) ((int64_t)(v))
#define LD_int64(v) ((int64_t)(v))
#define ST_uint8(x) ((uint8_t)(x))
#define ST_int8(x) ((int8_t)(x))
#define ST_int16(x) ((int16_t)(x))
#define ST_int32(x) ((int32_t)(x))
#define ST_int64(x) ((int64_t)(x))
#define LD_boolean(v) ((bool)(v))
#define ST_boolean(x) ((bool)(x))
#define LD_float16(v) tsr_half_to_float(v)
#define ST_float16(x) tsr_float_to_half(x)
#define LD_bfloat16(v) tsr_bfloat16_to_float(v)
#define ST_bfloat16(x) tsr_float_to_bfloat16(x)
#define LD_float32(v) (v)
#define ST_float32(x) ((float)(x))
#define LD_float64(v) (v)
#define ST_float64(x) ((double)(x))
#define LD_complex32(v) CMPLXF(tsr_half_to_float((v).re), tsr_half_to_float((v).im))
#define ST_complex32(x) ((tsr_chalf){tsr_float_to_half(crealf(x)), tsr_float_to_half(cimagf(x))})
#define LD_complex64(v) (v)
#define ST_complex64(x) ((float _Complex)(x))
#define LD_complex128(v) (v)
#define ST_complex128(x) ((double _Complex)(x))

/* Families: X(dtype name, storage type, compute type, real compute type, ...)
 * for every dtype of one category, in list order, taken from the dtype list's
 * category column (dtype.h). A row of TSR_DTYPE_LIST reaches LOOPS_ROW with the
 * payload (int, float, complex, bool, X, ...): the category picks LOOPS_TAKE
 * (call X) or LOOPS_EAT (nothing) from the first four. */
#define LOOPS_SEL_INTEGRAL(i, f, c, b) i
#define LOOPS_SEL_FLOATING(i, f, c, b) f
#define LOOPS_SEL_COMPLEX(i, f, c, b) c
#define LOOPS_SEL_BOOL(i, f, c, b) b
#define LOOPS_EAT(...)
#define LOOPS_TAKE(dt, T, C, R, X, ...) X(dt, T, C, R, __VA_ARGS__)
#define LOOPS_UNPAREN(...) __VA_ARGS__
#define LOOPS_ROW(A, ID, num, nm, al, kn, sn, T, C, CD, R, AC, AD, cat, ...) \
    LOOPS_ROW_(cat, kn, T, C, R, LOOPS_UNPAREN A)
#define LOOPS_ROW_(...) LOOPS_ROW__(__VA_ARGS__)
#define LOOPS_ROW__(cat, kn, T, C, R, i, f, c, b, ...) LOOPS_SEL_##cat(i, f, c, b)(kn, T, C, R, __VA_ARGS__)

#define FAM_INT(X, ...) TSR_DTYPE_LIST(LOOPS_ROW, (LOOPS_TAKE, LOOPS_EAT, LOOPS_EAT, LOOPS_EAT, X, __VA_ARGS__))
#define FAM_FLOAT(X, ...) TSR_DTYPE_LIST(LOOPS_ROW, (LOOPS_EAT, LOOPS_TAKE, LOOPS_EAT, LOOPS_EAT, X, __VA_ARGS__))
#define FAM_COMPLEX(X, ...) TSR_DTYPE_LIST(LOOPS_ROW, (LOOPS_EAT, LOOPS_EAT, LOOPS_TAKE, LOOPS_EAT, X, __VA_ARGS__))
#define FAM_BOOL(X, ...) TSR_DTYPE_LIST(LOOPS_ROW, (LOOPS_EAT, LOOPS_EAT, LOOPS_EAT, LOOPS_TAKE, X, __VA_ARGS__))

/* Storage type of the real part of a complex dtype's compute. */
#define RT_complex32 tsr_half
#define RT_complex64 float
#define RT_complex128 double
#define RD_complex32 float16
#define RD_complex64 float32
#define RD_complex128 float64

/* Bodies may use stor_t (the storage type) and real_t (real compute type).
 * Unary: out[i] = ST_O(BODY(LD_I(in[i]))). Locals: c (params), err. */
#define UNARY_LOOP(TI, LDI, TO, STO, C, BODY)                                          \
    const void *c = ctx; (void)c; int err = 0;                                          \
    if (s[0] == (int64_t)sizeof(TO) && s[1] == (int64_t)sizeof(TI)) {                   \
        TO *restrict o = (TO *)d[0]; const TI *restrict a = (const TI *)d[1];           \
        for (int64_t i = 0; i < n; i++) { C x = LDI(a[i]); o[i] = STO(BODY(x)); }       \
    } else {                                                                            \
        char *o = d[0]; const char *a = d[1];                                           \
        for (int64_t i = 0; i < n; i++) {                                               \
            C x = LDI(*(const TI *)(a + i * s[1]));                                     \
            *(TO *)(o + i * s[0]) = STO(BODY(x));                                       \
        }                                                                               \
    }                                                                                   \
    return err;

/* Binary: out[i] = ST_O(BODY(LD(a[i]), LD(b[i]))), with a scalar-b path. */
#define BINARY_LOOP(TI, LDI, TO, STO, C, BODY)                                         \
    const void *c = ctx; (void)c; int err = 0;                                          \
    if (s[0] == (int64_t)sizeof(TO) && s[1] == (int64_t)sizeof(TI) && s[2] == (int64_t)sizeof(TI)) { \
        TO *restrict o = (TO *)d[0];                                                    \
        const TI *restrict a = (const TI *)d[1], *restrict b = (const TI *)d[2];        \
        for (int64_t i = 0; i < n; i++) { C x = LDI(a[i]), y = LDI(b[i]); o[i] = STO(BODY(x, y)); } \
    } else if (s[0] == (int64_t)sizeof(TO) && s[1] == (int64_t)sizeof(TI) && s[2] == 0) { \
        TO *restrict o = (TO *)d[0]; const TI *restrict a = (const TI *)d[1];           \
        const C y = LDI(*(const TI *)d[2]);                                             \
        for (int64_t i = 0; i < n; i++) { C x = LDI(a[i]); o[i] = STO(BODY(x, y)); }    \
    } else if (s[0] == (int64_t)sizeof(TO) && s[1] == 0 && s[2] == (int64_t)sizeof(TI)) { \
        TO *restrict o = (TO *)d[0]; const TI *restrict b = (const TI *)d[2];           \
        const C x = LDI(*(const TI *)d[1]);                                             \
        for (int64_t i = 0; i < n; i++) { C y = LDI(b[i]); o[i] = STO(BODY(x, y)); }    \
    } else {                                                                            \
        char *o = d[0]; const char *a = d[1], *b = d[2];                                \
        for (int64_t i = 0; i < n; i++) {                                               \
            C x = LDI(*(const TI *)(a + i * s[1])), y = LDI(*(const TI *)(b + i * s[2])); \
            *(TO *)(o + i * s[0]) = STO(BODY(x, y));                                    \
        }                                                                               \
    }                                                                                   \
    return err;

/* Every loop is built twice, for AVX2 and for the baseline, and the loader
 * picks one (the CPUs PyTorch ships AVX2 kernels for get the same width). */
#define LOOP_SIG(name) __attribute__((target_clones("avx2", "default"))) \
    static int name(char **d, const int64_t *s, int64_t n, const void *ctx)

/* Builds "name_dt" unary loops, same dtype in and out. */
#define DEF_U_SAME(dt, T, C, R, OP, BODY) \
    LOOP_SIG(OP##_##dt) { typedef T stor_t; typedef R real_t; (void)sizeof(stor_t); (void)sizeof(real_t); UNARY_LOOP(T, LD_##dt, T, ST_##dt, C, BODY) }
/* Unary loops whose output is another dtype (complex → real, anything → bool). */
#define DEF_U_TO(dt, T, C, R, OP, BODY, TO, STO) \
    LOOP_SIG(OP##_##dt) { typedef T stor_t; typedef R real_t; (void)sizeof(stor_t); (void)sizeof(real_t); UNARY_LOOP(T, LD_##dt, TO, STO, C, BODY) }
#define DEF_B_SAME(dt, T, C, R, OP, BODY) \
    LOOP_SIG(OP##_##dt) { typedef T stor_t; typedef R real_t; (void)sizeof(stor_t); (void)sizeof(real_t); BINARY_LOOP(T, LD_##dt, T, ST_##dt, C, BODY) }
#define DEF_B_BOOL(dt, T, C, R, OP, BODY) \
    LOOP_SIG(OP##_##dt) { typedef T stor_t; typedef R real_t; (void)sizeof(stor_t); (void)sizeof(real_t); BINARY_LOOP(T, LD_##dt, bool, (bool), C, BODY) }
/* Table entry [TSR_X] = OP_x */
#define ENTRY(dt, T, C, R, OP, ...) [TSR_DT_##dt] = OP##_##dt,

#define TSR_DT_uint8 TSR_UINT8
#define TSR_DT_int8 TSR_INT8
#define TSR_DT_int16 TSR_INT16
#define TSR_DT_int32 TSR_INT32
#define TSR_DT_int64 TSR_INT64
#define TSR_DT_float16 TSR_FLOAT16
#define TSR_DT_float32 TSR_FLOAT32
#define TSR_DT_float64 TSR_FLOAT64
#define TSR_DT_complex32 TSR_COMPLEX32
#define TSR_DT_complex64 TSR_COMPLEX64
#define TSR_DT_complex128 TSR_COMPLEX128
#define TSR_DT_boolean TSR_BOOL
#define TSR_DT_bfloat16 TSR_BFLOAT16

/* Dtype bit masks for "not implemented for" checks, one per category (the
 * payload's 1 picks the category). */
#define M(d) (1u << (d))
#define LOOPS_MASK_ROW(A, ID, num, nm, al, kn, sn, T, C, CD, R, AC, AD, cat, ...) | (LOOPS_SEL_##cat A * M(TSR_##ID))
#define M_INT (0u TSR_DTYPE_LIST(LOOPS_MASK_ROW, (1u, 0u, 0u, 0u)))
#define M_FLOAT (0u TSR_DTYPE_LIST(LOOPS_MASK_ROW, (0u, 1u, 0u, 0u)))
#define M_COMPLEX (0u TSR_DTYPE_LIST(LOOPS_MASK_ROW, (0u, 0u, 1u, 0u)))
#define M_BOOL (0u TSR_DTYPE_LIST(LOOPS_MASK_ROW, (0u, 0u, 0u, 1u)))
#define M_ALL (M_INT | M_FLOAT | M_COMPLEX | M_BOOL)

/* Records '"<kname>" not implemented for '<Scalar>'' and returns -1. */
int tsr__not_implemented(const char *kname, tsr_dtype d);

/* Parameters a loop may read through its ctx (alpha, bounds, exponents...). */
typedef struct {
    int64_t i, i2;              /* integer parameters (alpha, decimals) */
    double d, d2, d3;           /* floating parameters (alpha, eps, nan/posinf/neginf) */
    float f, f2, f3;
    double _Complex z;          /* complex alpha */
    float _Complex zf;
    int flag;
} tsr__kparams;
#define KP ((const tsr__kparams *)c)

/* c10::complex * and the vectorised (AVX2) complex division: no C99 Annex G
 * recovery, so NaN/inf behave as PyTorch's kernels. */
#define CMUL(x, y) __builtin_complex((real_t)(creal(x) * creal(y) - cimag(x) * cimag(y)), \
                                     (real_t)(creal(x) * cimag(y) + cimag(x) * creal(y)))
#define CDIV(x, y) __builtin_complex(                                                      \
    (real_t)((creal(x) * creal(y) + cimag(x) * cimag(y)) / (creal(y) * creal(y) + cimag(y) * cimag(y))), \
    (real_t)((cimag(x) * creal(y) - creal(x) * cimag(y)) / (creal(y) * creal(y) + cimag(y) * cimag(y))))

#endif
