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

/* The distributions of PyTorch 1.13's CUDA generator
 * (native/cuda/DistributionTemplates.h), each one Philox draw per thread
 * and grid-stride step: curand_uniform4 / curand_normal4 / curand4 (unroll
 * 4), or curand_uniform2_double / curand_normal2_double / two 64-bit values
 * from curand4 (unroll 2, `wide`). ORDER KRANDOM */
typedef enum {
    TSR_KR_UNIFORM,       /* rand == 1 ? 0 : rand; * a + b (range, from) */
    TSR_KR_NORMAL,        /* rand * a + b (std, mean) */
    TSR_KR_EXPONENTIAL,   /* -1 / a * log(rand), with 1.13's guard at 1 */
    TSR_KR_BERNOULLI,     /* rand < a */
    TSR_KR_FROM_TO,       /* random_(from, to), random_(): val % range + base */
    TSR_KR_FULL_RANGE,    /* random_(int64 min, None): (int64)val */
    TSR_KR_BERNOULLI_P,   /* bernoulli_(p tensor): rand <= prob[i], 4 elements a thread */
    TSR_KR_LOG_NORMAL,    /* exp(rand * a + b) (std, mean) */
    TSR_KR_CAUCHY,        /* b + a * tan(pi * (rand - 1/2)) (sigma, median) */
    TSR_KR_GEOMETRIC,     /* ceil(log(rand) / log(1 - a)) */
    TSR_KR_COUNT
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

#endif
