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
 * lives in cuda/kern.h; alpha is add/sub's. ORDER KERNEL */
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
    X(SIGMOID, 1) X(RELU, 1)

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
 * bool. */
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
} tsr_klaunch;

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

#endif
