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

#endif
