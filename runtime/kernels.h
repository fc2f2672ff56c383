/* runtime/kernels.h — the elementwise kernels and the reductions a
 * computing device backend (cuda/) offers, by number, and the launch
 * records the elementwise engine (iter.c) and the reductions
 * (ops/reduce_dev.c) hand it: TensorIterator's geometry after reordering
 * and coalescing, with device addresses. Plain C, shared by the runtime and the
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

/* X(ID): the reductions a backend offers (cuda/reduce.h has the bodies),
 * each over the reduced dims of one input into one output element:
 *   SUM, MEAN (the sum times nout / numel, as MeanOps' factor), PROD:
 *     accumulate in the compute dtype's type (ints in int64, float16 and
 *     bfloat16 in float, as acc_type<T, true>); the input is of dtype[1];
 *   MAX, MIN: the extreme, NaN-propagating (amax, max() without dim);
 *   ARGMAX, ARGMIN: its index (int64 output): the first NaN, else the first
 *     occurrence of the extreme;
 *   MAX_DIM, MIN_DIM: both, values into data[0], indices into data[2];
 *   ALL, ANY: the truth of x != 0, into bool or uint8;
 *   COUNT_NZ: the number of x != 0, into int64;
 *   VAR, VAR_MEAN: Welford's mean and M2 (WelfordOps), the variance with
 *     correction (its square root with take_sqrt) into data[0], and for
 *     VAR_MEAN the mean into data[2] (of dtype[0] too);
 *   NORM: the p-norm (p 0, 1, 2, inf, -inf or other: NormOps family),
 *     of a real input;
 *   NANSUM: SUM with NaN taken as zero (floating inputs).
 * ORDER REDUCE */
#define TSR_REDUCE_LIST(X) \
    X(SUM) X(MEAN) X(PROD) X(MAX) X(MIN) X(ARGMAX) X(ARGMIN) X(MAX_DIM) X(MIN_DIM) X(ALL) X(ANY) X(COUNT_NZ) \
    X(VAR) X(VAR_MEAN) X(NORM) X(NANSUM)

typedef enum {
    TSR_KR_NONE = 0,
#define TSR_KR_ENUM_(id) TSR_KR_##id,
    TSR_REDUCE_LIST(TSR_KR_ENUM_)
#undef TSR_KR_ENUM_
    TSR_KR_COUNT
} tsr_reduce_id;

/* One reduction: dims fastest first, the first nred of them reduced (an
 * element's reduced index, as argmax reports it, is row-major over them
 * with dim 0 fastest), the rest kept. Strides in bytes: stride[0] the
 * output's (0 on reduced dims), stride[1] the input's, stride[2] the
 * indices output's (MAX_DIM/MIN_DIM). nout output elements, each of
 * nreduce input elements (nreduce >= 1). The accumulator is the type of
 * compute (k_ctype); values are loaded from dtype[1], stored as dtype[0]. */
typedef struct {
    int32_t op, nd, nred, compute;
    int32_t dtype[2];
    int64_t nout, nreduce;
    int64_t shape[TSR_K_MAXDIMS];
    int64_t stride[3][TSR_K_MAXDIMS];
    char *data[3];
    double p;              /* NORM's order */
    int64_t correction;    /* VAR's */
    int32_t take_sqrt;     /* VAR: the standard deviation */
} tsr_kreduce;
/* One strided-batched matrix product, as cuBLAS takes it (column-major):
 * for each of `batch` problems, C = alpha * op(A) @ op(B) + beta * C with
 * op(A) m x k, op(B) k x n and C m x n; op is 'n' (as stored), 't'
 * (transposed) or 'c' (conjugate-transposed); A_i = a + i * stride_a
 * elements, likewise B and C. lda >= max(1, rows of A as stored), and so on
 * (cuBLAS's rules). dtype: TSR_KD_FLOAT16/32/64, BFLOAT16, COMPLEX64/128,
 * the same for A, B and C. alpha and beta: real and imaginary parts. */
typedef struct {
    int32_t dtype;
    char transa, transb;
    int64_t m, n, k, lda, ldb, ldc;
    int64_t stride_a, stride_b, stride_c, batch;
    const void *a, *b;
    void *c;
    double alpha[2], beta[2];
} tsr_kgemm;

/* ------------------------------------------------------------ indexing */

/* X(ID): the index family (bodies in cuda/index.h). Operand 0 is the
 * tensor written, 1 the other one, 2.. the int64 index tensors, all seen
 * over one shape; element i's index values k add value * step[k] bytes
 * to the indexed operand's address (PyTorch's index kernels: the indexed
 * tensor restrided, stride 0 over the indexed dims). ORDER KINDEX */
#define TSR_INDEX_LIST(X) \
    X(GATHER)         /* out[i] = src[i + off(i)]: index, gather, index_select, take */  \
    X(PUT)            /* dst[i + off(i)] = src[i]: index_put_, scatter, index_copy_, put_ */ \
    X(ADD)            /* dst[i + off(i)] += alpha * src[i], atomically: scatter_add, index_add_ */ \
    X(MUL)            /* dst[i + off(i)] *= src[i], atomically: scatter(reduce='multiply') */ \
    X(AMAX)           /* dst[i + off(i)] = max(dst, src[i]) (NaN wins), atomically: scatter_reduce */ \
    X(AMIN)           /* dst[i + off(i)] = min(dst, src[i]) (NaN wins) */ \
    X(FILL)           /* dst[i + off(i)] = value: scatter(value), index_fill_ */ \
    X(TRIL)           /* dst[i] = 0 where col - row > diag (dims col_dim, row_dim) */ \
    X(TRIU)           /* dst[i] = 0 where col - row < diag */ \
    X(NONZERO_COUNT)  /* result[0] = the nonzero elements of operand 1 */ \
    X(NONZERO)        /* operand 0 (int64, count x nd, contiguous) = their coordinates, row-major order */ \
    X(REPEAT_COUNT)   /* result[0] = the sum of operand 1 (int32/int64 repeats, 1-d), -1 if one is negative */ \
    X(REPEAT)         /* operand 0 (1-d, contiguous, limit elements of dtype) = each i operand1[i] times */

typedef enum {
#define TSR_KI_ENUM_(id) TSR_KI_##id,
    TSR_INDEX_LIST(TSR_KI_ENUM_)
#undef TSR_KI_ENUM_
    TSR_KI_COUNT
} tsr_kindex_op;

#define TSR_KI_MAXIDX 8   /* index tensors in one launch */

/* One index launch. Dims fastest first, strides in bytes; coalesced except
 * for TRIL/TRIU and the NONZERO/REPEAT ops, whose dims are the tensor's own (in
 * reverse). The elements moved are dtype's, as raw bytes (every dtype);
 * ADD/MUL/AMAX/AMIN compute in compute (kern.h's compute types; complex
 * ADD adds the two parts apart, the others take no complex). */
typedef struct {
    int32_t op, nd, nidx, dtype, compute;
    int32_t negative;            /* index values in [-size, size) (x[idx], take, put_), else [0, size) */
    int32_t row_dim, col_dim;    /* TRIL/TRIU */
    int64_t numel, diag, limit;  /* TRIL/TRIU's diagonal; REPEAT's output length */
    int64_t shape[TSR_K_MAXDIMS];
    int64_t stride[2 + TSR_KI_MAXIDX][TSR_K_MAXDIMS];
    char *data[2 + TSR_KI_MAXIDX];
    int64_t size[TSR_KI_MAXIDX], step[TSR_KI_MAXIDX];   /* the indexed dims' sizes, byte strides */
    unsigned char value[16];     /* FILL: the value stored as dtype */
    double alpha_d;              /* ADD for a floating compute dtype */
    int64_t alpha_i;             /* ADD for an integral or bool compute dtype */
} tsr_kindex;

/* The distributions of PyTorch 1.13's CUDA generator
 * (native/cuda/DistributionTemplates.h), each one Philox draw per thread
 * and grid-stride step: curand_uniform4 / curand_normal4 / curand4 (unroll
 * 4), or curand_uniform2_double / curand_normal2_double / two 64-bit values
 * from curand4 (unroll 2, `wide`). ORDER KRANDOM */
typedef enum {
    TSR_KRN_UNIFORM,       /* rand == 1 ? 0 : rand; * a + b (range, from) */
    TSR_KRN_NORMAL,        /* rand * a + b (std, mean) */
    TSR_KRN_EXPONENTIAL,   /* -1 / a * log(rand), with 1.13's guard at 1 */
    TSR_KRN_BERNOULLI,     /* rand < a */
    TSR_KRN_FROM_TO,       /* random_(from, to), random_(): val % range + base */
    TSR_KRN_FULL_RANGE,    /* random_(int64 min, None): (int64)val */
    TSR_KRN_BERNOULLI_P,   /* bernoulli_(p tensor): rand <= prob[i], 4 elements a thread */
    TSR_KRN_LOG_NORMAL,    /* exp(rand * a + b) (std, mean) */
    TSR_KRN_CAUCHY,        /* b + a * tan(pi * (rand - 1/2)) (sigma, median) */
    TSR_KRN_GEOMETRIC,     /* ceil(log(rand) / log(1 - a)) */
    TSR_KRN_COUNT
} tsr_krandom_kind;

/* One launch of distribution_nullary_kernel (BERNOULLI_P: of
 * bernoulli_tensor_cuda_kernel, CUDA_tensor_apply2 with 4 elements a
 * thread, each thread its own subsequence): `data` is contiguous, numel
 * elements of `dtype` (numel < 2^31, as 32-bit indexing); the grid and
 * the Philox (seed, offset) come from the runtime's generator, which has
 * already advanced its offset by calc_execution_policy's counter_offset. */
typedef struct {
    int32_t kind, dtype, wide;
    uint32_t grid, block;
    int64_t numel;
    char *data;
    uint64_t seed, offset;
    double a, b;
    uint64_t range;
    int64_t base;
    const char *prob;    /* BERNOULLI_P: contiguous probabilities (float, or double for a double output) */
} tsr_krandom;

#include "kernels_linalg.h"
/* ------------------------------------------------------------ scans and sorts */
#include "kernels_scan.h"
/* ------------------------------------------------------------ fft */

/* One batched transform, as cufftPlanMany's advanced data layout describes
 * it (bodies in cuda/fft.h; cuFFT on a GPU): element (b, x0, x1, x2) of a
 * side is at b * dist + ((x0 * embed[1] + x1) * embed[2] + x2) * stride
 * elements (complex elements for a complex side, reals for a real one;
 * embed[0] is not used). n is the logical transform size; the complex side
 * of R2C (output) and C2R (input) holds n[rank-1] / 2 + 1 values along the
 * last dim. R2C is forward, C2R inverse; C2C goes `forward` (exponent -1)
 * or not (+1); none is scaled by cuFFT itself. Around the transform the
 * backend applies, with small kernels of its own: conj_in, the input's
 * imaginary parts negated in place (C2C/C2R: the runtime hands a private
 * buffer), and on the output the scale (!= 1: each real part times scale
 * in the output's precision, as PyTorch's mul_ by a Python float) and
 * conj_out. ORDER KFFT */
enum { TSR_KFFT_C2C = 0, TSR_KFFT_R2C = 1, TSR_KFFT_C2R = 2 };
typedef struct {
    int32_t type, dtype;        /* dtype: the real precision, TSR_KD_FLOAT32 or TSR_KD_FLOAT64 */
    int32_t rank, forward;      /* rank 1 to 3 */
    int32_t conj_in, conj_out;
    int64_t n[3], batch;
    int64_t inembed[3], istride, idist;
    int64_t onembed[3], ostride, odist;
    void *in, *out;
    double scale;
} tsr_kfft;

#endif
