/* runtime/ops/reduce_iter.h — private to runtime/ops/reduce*.c: the reduction
 * iterator (TensorIterator::reduce_op of 1.13: reduced dims first, ordered by
 * input strides, then coalesced) and its serial 2-d slab walk, which fixes
 * the accumulation order every reduction kernel follows. */
#ifndef TSR_OPS_REDUCE_ITER_H
#define TSR_OPS_REDUCE_ITER_H
#include <stdbool.h>
#include <stdint.h>
#include "../tensor.h"
#include "reduce_dims.h"

/* Iterator dims, [0] fastest; st[0] output strides, st[1] input strides, in
 * bytes (output stride 0 on a reduced dim). */
typedef struct {
    int nd;
    int64_t shape[TSR_MAX_DIMS];
    int64_t st[2][TSR_MAX_DIMS];
    char *base[2];
} rplan;

/* A slab: data[0] output, data[1] input; strides {o0, i0, o1, i1}. */
typedef void (*rloop2d)(char **data, const int64_t *strides, int64_t s0, int64_t s1, void *ctx);

/* Wraps dims into a mask of reduced dims of x (n < 1: all); -1 with
 * IndexError "Dimension out of range ..." or RuntimeError "dim 0 appears
 * multiple times in the list of dims". */
int reduce_mask(const tsr_tensor *x, const tsr_dims *dims, uint64_t *mask);
/* The result's shape for a mask (keepdim keeps size-1 dims); returns its ndim. */
int reduce_shape(const tsr_tensor *x, uint64_t mask, bool keepdim, int64_t *shape);
/* A result of dtype for x reduced over mask: out resized (with 1.13's
 * deprecation warning when it had elements) or a new contiguous tensor on
 * x's device. New reference or NULL. */
tsr_tensor *reduce_result(const tsr_tensor *x, uint64_t mask, bool keepdim, tsr_dtype dtype, tsr_tensor *out);
/* The plan of reducing in over mask into r (a result of reduce_result). */
void reduce_plan(rplan *P, const tsr_tensor *in, uint64_t mask, bool keepdim, const tsr_tensor *r);
/* Walks the plan's slabs in 1.13's serial order; -1 with KeyboardInterrupt. */
int reduce_walk(const rplan *P, rloop2d loop, void *ctx);
/* Calls elt(ctx, out, in_ptrs ...) style walk: for each output element, the
 * input elements of it in iterator order (foreach_reduced_elt). fn gets the
 * output pointer and is handed the input elements one by one through
 * step(ctx, in) after begin(ctx) and before end(ctx, out). */
typedef struct {
    void (*begin)(void *ctx);
    void (*step)(void *ctx, const char *in, int64_t idx);
    void (*end)(void *ctx, char *out);
    /* optional: n elements at once along the fastest reduced dim (byte
     * stride), the first with index idx; same effect as n steps */
    void (*row)(void *ctx, const char *in, int64_t stride, int64_t n, int64_t idx);
} relt_ops;
int reduce_foreach(const rplan *P, const relt_ops *ops, void *ctx);
/* The number of input elements each output element reduces. */
int64_t reduce_count(const tsr_tensor *x, uint64_t mask);

/* reduce_dev.c: whether x is on a device the host cannot read (cuda). */
bool reduce_on_device(const tsr_tensor *x);
/* 0 for a tensor the host can read; for one on such a device -1 with the
 * dispatcher's "Could not run 'ATEN' ..." (a reduction with no device path). */
int reduce_device_refuse(const tsr_tensor *x, const char *aten);
/* Reduction op (TSR_KR_*) of in over mask into r (reduce_result's shape
 * for keepdim; and the indices into ri for MAX_DIM/MIN_DIM), accumulating
 * in compute's type, by the backend of in's device; in has at least one
 * element. 0, or -1 with the error (aten names the op when the backend has
 * no such kernel). */
int reduce_device(int op, const tsr_tensor *in, uint64_t mask, bool keepdim, tsr_tensor *r, tsr_tensor *ri,
                  tsr_dtype compute, const char *aten);
/* The same with the parameters of VAR/VAR_MEAN (ri: the mean) and NORM. */
typedef struct { double p; int64_t correction; bool take_sqrt; } reduce_dev_args;
int reduce_device_ex(int op, const tsr_tensor *in, uint64_t mask, bool keepdim, tsr_tensor *r, tsr_tensor *ri,
                     tsr_dtype compute, const char *aten, const reduce_dev_args *args);

#endif
