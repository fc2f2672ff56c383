/* runtime/iter.h — the elementwise engine (PyTorch's TensorIterator, SEMANTICS
 * §1.4 and §4.4): broadcasting, output allocation that follows the inputs'
 * memory layout, out=/in-place checks, dimension coalescing, casting inputs to
 * the compute dtype in small per-chunk buffers, and a pthread pool.
 * Kernels see 1-d strided rows already in their own dtypes. */
#ifndef TSR_ITER_H
#define TSR_ITER_H
#include <stdbool.h>
#include <stdint.h>
#include "kernels.h"
#include "promote.h"
#include "tensor.h"

#define TSR_ITER_MAX_IN 3

/* One strided row: data[0] is the output, data[1..nin] the inputs, each in
 * the dtype the config names; strides in bytes (0 for a broadcast or scalar
 * input). Returns 0, or a TSR_KERR_* code that stops the op. */
typedef int (*tsr_loop_fn)(char **data, const int64_t *strides, int64_t n, const void *ctx);

/* Kernel error codes and the errors the iterator records for them. */
enum {
    TSR_KERR_OK = 0,
    TSR_KERR_ZERODIV = 1,     /* RuntimeError "ZeroDivisionError" (integer // % fmod by 0) */
};

/* How an out= / in-place tensor's dtype is checked (§1.4). ORDER CHECK */
typedef enum {
    TSR_CHECK_CAN_CAST,       /* "result type Float can't be cast to the desired output type Int" */
    TSR_CHECK_SAME_DTYPE,     /* "Found dtype Float but expected Int" */
    TSR_CHECK_NONE,           /* comparisons: any out dtype receives the cast result */
} tsr_out_check;

typedef struct {
    int nin;                           /* inputs, 1..TSR_ITER_MAX_IN */
    tsr_dtype in_dtype[TSR_ITER_MAX_IN];  /* dtype each input is cast to for the loop */
    tsr_dtype out_dtype;               /* dtype the loop writes and a new output gets */
    tsr_dtype check_dtype;             /* dtype the out check compares (UNDEFINED: out_dtype) */
    tsr_out_check check;
    bool inplace;                      /* out is self (inputs[0]): shape must equal the broadcast shape */
    bool loop_writes_float32;          /* the loop writes float32, narrowed in small buffers to the
                                          float16/bfloat16 output (half ops run the float32 loop) */
    const char *kname;                 /* with a NULL loop: the kernel that has no implementation
                                          for kdtype. PyTorch dispatches the kernel after the
                                          iterator is built, so "not implemented" comes after the
                                          broadcast and dtype errors (and even for zero elements) */
    tsr_dtype kdtype;
    bool bf16_vec_nan;                 /* with loop_writes_float32 into bfloat16 (its narrowing writes
                                          NaN as 0xffff, as Vectorized<BFloat16> stores it): NaNs
                                          outside 1.13's vector blocks become 0x7fc0, the scalar
                                          tail's (cpu_kernel_vec: 32-element blocks of a contiguous
                                          row or one with a broadcast input; a strided row is all
                                          tail) */
    int dev_kernel;                    /* the op's kernel on a computing device backend (cuda),
                                          a tsr_kernel_id (kernels.h; tsr_op_dev_kernel), or 0:
                                          none, and the op raises "Could not run" there */
    double dev_alpha;                  /* add/sub's alpha for dev_kernel ADD (sub: negated) */
    int64_t dev_alpha_i;               /* the same for an integral or bool compute dtype */
    tsr_kparams_dev dev_params;        /* dev_kernel's other parameters (kernels.h) */
    int dev_skip;                      /* leading inputs that do not give the compute dtype
                                          (where's bool condition): the compute dtype is
                                          in_dtype[dev_skip], which the later ones share */
    const char *aten;                  /* "add.Tensor": the op as "Could not run 'aten::add.Tensor'"
                                          names it; NULL: from kname */
} tsr_iter_config;

/* Runs loop over the broadcast inputs into out (an out= or in-place tensor,
 * borrowed) or into a new output. Returns a NEW reference to the output (out
 * itself when given), or NULL with an error (broadcast, dtype check, overlap,
 * kernel error, interrupt, memory). Meta inputs give a meta output and run
 * nothing. An out= of another shape is resized as PyTorch does, and when it
 * had elements the warning is left for tsr_warning_take(). */
tsr_tensor *tsr_iter_run(const tsr_iter_config *cfg, const tsr_operand *in, tsr_tensor *out,
                         tsr_loop_fn loop, const void *ctx);

/* Broadcast shape of n shapes (sizes[k] with ndims[k] dims) into out (returns
 * its ndim), or -1 with "The size of tensor a (3) must match the size of
 * tensor b (4) at non-singleton dimension 0". */
int tsr_broadcast_shapes(int n, const int *ndims, const int64_t *const *sizes, int64_t *out);

/* Strides TensorIterator gives a newly allocated output of shape (nd, shape)
 * for these operands (§4.4; scalars count as zero-dim operands). */
void tsr_iter_output_strides(int nin, const tsr_operand *in, int nd, const int64_t *shape, int64_t *out);

/* MemoryOverlap.cpp checks. 0, or -1 with RuntimeError
 * "unsupported operation: more than one element of the written-to tensor
 * refers to a single memory location. Please clone() the tensor before
 * performing the operation." (internal) / "unsupported operation: some
 * elements of the input tensor and the written-to tensor refer to a single
 * memory location. Please clone() the tensor before performing the
 * operation." (partial, as 1.13 words it). */
int tsr_check_no_internal_overlap(const tsr_tensor *t);
int tsr_check_no_partial_overlap(const tsr_tensor *out, const tsr_tensor *in);

/* Resizes t in place to (nd, sizes) with contiguous strides, growing its
 * storage if needed (PyTorch resize_). 0 or -1. */
int tsr_tensor_resize_(tsr_tensor *t, int nd, const int64_t *sizes);

/* A pending warning text (e.g. out= resize: "An output with one or more
 * elements was resized since it had shape [3], which does not match the
 * required output shape [2]. This behavior is deprecated, ..."), or NULL;
 * the caller prints it as "UserWarning: <text>". Taking it clears it.
 * Thread-local; borrowed until the next op on this thread. */
const char *tsr_warning_take(void);
void tsr_warning_set(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* out= tensors, as ATen's resize_output (Resize.cpp) and the composites'
 * copy into out. tsr_resize_output: 0 when out already has shape (nd,
 * sizes), 1 after resizing it (with 1.13's deprecation UserWarning when out
 * had elements), -1 on error. */
int tsr_resize_output(tsr_tensor *out, int nd, const int64_t *sizes);
/* The UserWarning resize_output gives when it resizes out, which had
 * elements, from its shape to (nd, sizes). */
void tsr_warn_output_resized(const tsr_tensor *out, int nd, const int64_t *sizes);


/* Intra-op threads (torch.set_num_threads/get_num_threads). The initial value
 * is OMP_NUM_THREADS when set to a positive integer, else the number of online
 * CPUs. set: n < 1 → -1 with RuntimeError "set_num_threads expects a positive
 * integer". */
int tsr_set_num_threads(int n);
int tsr_get_num_threads(void);
/* Work is split over the threads from 2*GRAIN elements, GRAIN per part at
 * least: PyTorch's at::internal::GRAIN_SIZE. On the 2-core test machine a 1e7
 * float32 add is memory-bound (about 9.5 ms with 1 or 2 threads), so this was
 * not tuned further. */
#define TSR_PARALLEL_GRAIN 32768
/* Runs fn(arg, begin, end) over [0, total) split into at most
 * tsr_get_num_threads() parts of at least grain elements each; the calling
 * thread takes a part too. Returns after every part is done. */
void tsr_parallel_for(int64_t total, int64_t grain, void (*fn)(void *arg, int64_t begin, int64_t end), void *arg);

#endif
