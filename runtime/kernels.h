/* runtime/kernels.h — the elementwise kernels a computing device backend
 * (cuda/) offers, by number, and the launch record the elementwise engine
 * (iter.c) hands it: TensorIterator's geometry after reordering and
 * coalescing, with device addresses. Plain C, shared by the runtime and the
 * backends (CUDA C++), so it names no runtime type: dtypes are tsr_dtype
 * numbers (ORDER DTYPE, checked in iter.c). */
#ifndef TSR_KERNELS_H
#define TSR_KERNELS_H
#include <stdint.h>

/* X(ID, arity): out = f(in1, ..., in_arity) elementwise. The body of each
 * lives in cuda/kern.h (PyTorch 1.13's CUDA formulas); alpha is add/sub's,
 * p (tsr_kparams_dev) the other kernels' parameters. ORDER KERNEL */
#define TSR_KERNEL_LIST(X) \
    X(COPY, 1)      /* out = in (cast to out's dtype): copy_, fill_ (a scalar input) */ \
    X(ADD, 2)       /* in1 + alpha * in2 */                                              \
    X(SUB, 2)       /* in1 - alpha * in2 */                                              \
    X(MUL, 2)                                                                            \
    X(DIV, 2)       /* true division */                                                  \
    X(MAXIMUM, 2)   /* NaN-propagating */                                                \
    X(MINIMUM, 2)                                                                        \
    X(EQ, 2) X(NE, 2) X(LT, 2) X(LE, 2) X(GT, 2) X(GE, 2)   /* bool results */          \
    X(NEG, 1) X(ABS, 1) X(EXP, 1) X(LOG, 1) X(SQRT, 1) X(SIN, 1) X(COS, 1) X(TANH, 1)    \
    X(SIGMOID, 1) X(RELU, 1)                                                             \
    /* binary */                                                                         \
    X(POW, 2)       /* p.mode: a scalar exponent's special form (TSR_KPOW_*) */         \
    X(DIV_TRUNC, 2) X(DIV_FLOOR, 2) X(REMAINDER, 2) X(FMOD, 2)                           \
    X(BITAND, 2) X(BITOR, 2) X(BITXOR, 2) X(LSHIFT, 2) X(RSHIFT, 2)                      \
    X(LOGICAL_AND, 2) X(LOGICAL_OR, 2) X(LOGICAL_XOR, 2)   /* bool results */           \
    X(ATAN2, 2) X(HYPOT, 2) X(COPYSIGN, 2) X(FMAX, 2) X(FMIN, 2) X(NEXTAFTER, 2)         \
    X(XLOGY, 2) X(XLOG1PY, 2) X(LOGADDEXP, 2) X(LOGADDEXP2, 2) X(HEAVISIDE, 2)           \
    X(GCD, 2) X(LCM, 2)                                                                  \
    /* unary */                                                                          \
    X(RECIPROCAL, 1) X(RSQRT, 1) X(EXP2, 1) X(EXPM1, 1) X(LOG2, 1) X(LOG10, 1)           \
    X(LOG1P, 1) X(FLOOR, 1) X(CEIL, 1) X(ROUND, 1) X(TRUNC, 1) X(FRAC, 1) X(SIGN, 1)     \
    X(SINH, 1) X(COSH, 1) X(TAN, 1) X(ASIN, 1) X(ACOS, 1) X(ATAN, 1) X(ASINH, 1)         \
    X(ACOSH, 1) X(ATANH, 1) X(ERF, 1) X(ERFC, 1) X(ERFINV, 1) X(LGAMMA, 1)               \
    X(DIGAMMA, 1) X(BITNOT, 1)                                                           \
    X(LOGICAL_NOT, 1) X(ISNAN, 1) X(ISINF, 1) X(ISFINITE, 1) X(SIGNBIT, 1) /* bool */    \
    X(NAN_TO_NUM, 1) /* p.d[0..2]: nan, posinf, neginf */                               \
    X(MULC, 1)      /* in * p.d[0]: deg2rad, rad2deg */                                  \
    X(LOGIT, 1)     /* p.mode 1: clamped to [p.d[0], p.d[1]] first */                    \
    X(ROUND_DEC, 1) /* round(decimals=): p.d[0] = 10 ** |decimals|, p.mode 1: negative */ \
    X(SINC, 1) X(ENTR, 1)                                                                \
    X(POLYGAMMA, 1) /* p.i: n >= 1 */                                                    \
    X(NDTRI, 1) X(ERFCX, 1) X(LOG_NDTR, 1)                                               \
    X(IGAMMA, 2) X(IGAMMAC, 2)                                                           \
    X(ANGLE, 1)     /* of a real: pi for a negative, NaN kept */                         \
    X(ZETA, 2)                                                                           \
    X(POLY, 2)      /* x, n: p.mode: Chebyshev T U V W, shifted T U V W, Hermite H He,  \
                       Laguerre L, Legendre P (special.h's order) */                     \
    /* ternary */                                                                        \
    X(WHERE, 3)     /* in1 (bool) ? in2 : in3; compute: the values' dtype */            \
    X(CLAMP, 3)     /* p.mode bit 0: min (in2) given, bit 1: max (in3) given */          \
    X(LERP, 3)      /* start, end, weight (a scalar weight: p.mode 1, p.d[0]) */        \
    X(ADDCMUL, 3)   /* in1 + value * in2 * in3: value p.d[0] / p.i */                   \
    X(ADDCDIV, 3)   /* in1 + value * in2 / in3 */

/* pow's special forms for a Python-number exponent (PowKernel.cu). */
enum { TSR_KPOW_GENERAL = 0, TSR_KPOW_SQUARE = 1, TSR_KPOW_CUBE = 2, TSR_KPOW_SQRT = 3, TSR_KPOW_RSQRT = 4,
       TSR_KPOW_RECIPROCAL = 5, TSR_KPOW_INV_SQUARE = 6 };

/* Kernel parameters beyond add/sub's alpha (which kernels read what: the
 * list above). */
typedef struct {
    double d[3];
    int64_t i;
    int32_t mode, pad_;
} tsr_kparams_dev;

typedef enum {
    TSR_K_NONE = 0,
#define TSR_K_ENUM_(id, n) TSR_K_##id,
    TSR_KERNEL_LIST(TSR_K_ENUM_)
#undef TSR_K_ENUM_
    TSR_K_COUNT
} tsr_kernel_id;

/* dtype numbers as tsr_dtype has them (the device code cannot include
 * dtype.h, which uses C99 _Complex). ORDER DTYPE */
enum {
    TSR_KD_UINT8 = 0, TSR_KD_INT8 = 1, TSR_KD_INT16 = 2, TSR_KD_INT32 = 3, TSR_KD_INT64 = 4,
    TSR_KD_FLOAT16 = 5, TSR_KD_FLOAT32 = 6, TSR_KD_FLOAT64 = 7, TSR_KD_COMPLEX32 = 8,
    TSR_KD_COMPLEX64 = 9, TSR_KD_COMPLEX128 = 10, TSR_KD_BOOL = 11, TSR_KD_BFLOAT16 = 15
};

#define TSR_K_MAXOPS 4    /* the output and up to three inputs */
#define TSR_K_MAXDIMS 25  /* dims after coalescing, as PyTorch's CUDA OffsetCalculator */

/* One launch: operand 0 is the output. Dims are fastest first; strides in
 * bytes (0: broadcast). An input whose data is NULL is one value, held in
 * scalar[k] in its dtype (a Python number or a zero-dim CPU tensor). The
 * body computes in `compute` (float16/bfloat16 compute in float) and the
 * result is stored in dtype[0]; comparisons compute in `compute` and give
 * bool. Every operand is loaded from its own dtype: where's condition is
 * bool beside values of the compute dtype. */
typedef struct {
    int32_t kernel, nd, nops, compute;
    int32_t dtype[TSR_K_MAXOPS];
    int64_t numel;
    int64_t shape[TSR_K_MAXDIMS];
    int64_t stride[TSR_K_MAXOPS][TSR_K_MAXDIMS];
    char *data[TSR_K_MAXOPS];
    union { double d; int64_t i; float f; unsigned char b[16]; } scalar[TSR_K_MAXOPS];
    double alpha_d;      /* add/sub for a floating compute dtype */
    int64_t alpha_i;     /* add/sub for an integral or bool compute dtype */
    tsr_kparams_dev p;   /* the other kernels' parameters */
} tsr_klaunch;
#ifndef __cplusplus
_Static_assert(sizeof(tsr_klaunch) < 4096, "a kernel argument: under 4 KiB");
#endif

#endif
