/* cuda/block.h — kernels whose threads cooperate within a block, for the
 * device (nvcc) and the simulator (g++, which runs such a block's threads
 * as fibers: sim_runtime.h's sim_launch_blocks): the block reduction of a
 * contiguous inner reduction and the block scan of nonzero's chunk counts.
 * Block sizes are multiples of 32 (whole warps), at most each kernel's
 * __launch_bounds__ (so that nvcc keeps its registers within what such a
 * block may have); every thread of a block reaches every __syncthreads(). */
#ifndef TSR_CUDA_BLOCK_H
#define TSR_CUDA_BLOCK_H
#include "reduce.h"

#ifdef __CUDACC__
#define TSR_SHARED(type, name, count) __shared__ type name[count]
#define KBD __device__ __forceinline__
#else
#define KBD inline
#endif
#define KB_FULL 0xffffffffu

/* ------------------------------------------------------------ reductions */

/* Lane + delta's value (the own one past the warp's end); bool as int. */
template <typename T> KBD T kb_down(T v, unsigned delta) { return __shfl_down_sync(KB_FULL, v, delta); }
template <> KBD bool kb_down<bool>(bool v, unsigned delta) { return __shfl_down_sync(KB_FULL, (int)v, delta) != 0; }

template <typename C> KBD KAcc<C> kb_down_acc(const KAcc<C> &a, unsigned delta)
{
    KAcc<C> b;
    b.v = kb_down<C>(a.v, delta);
    b.m2 = kb_down<C>(a.m2, delta);
    b.i = kb_down<int64_t>(a.i, delta);
    b.nf = kb_down<float>(a.nf, delta);
    return b;
}

/* The block's accumulators combined, in thread 0 (the others' results are
 * partial): a shuffle tree in each warp, the warps' results through shared
 * memory, a last tree in warp 0. Ends with a barrier, so that the block
 * may call it again at once. */
template <int OP, typename C> KBD KAcc<C> kb_reduce(const tsr_kreduce &g, KAcc<C> a)
{
    TSR_SHARED(KAcc<C>, warps, 32);
    unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    for (unsigned d = 16; d > 0; d >>= 1) {
        KAcc<C> b = kb_down_acc<C>(a, d);
        kr_combine<OP, C>(g, a, b);
    }
    if (lane == 0) warps[warp] = a;
    __syncthreads();
    if (warp == 0) {
        if (lane < nwarps) a = warps[lane];
        else kr_init<OP, C>(g, a);
        for (unsigned d = 16; d > 0; d >>= 1) {
            KAcc<C> b = kb_down_acc<C>(a, d);
            kr_combine<OP, C>(g, a, b);
        }
    }
    __syncthreads();
    return a;
}

/* A contiguous inner reduction (one reduced dim, stride one element in the
 * input): output o's elements split into `parts` slices of `per` elements;
 * block b takes slice t = b % parts of output o = b / parts (grid-stride
 * over nout * parts), its threads the slice's elements thread, thread +
 * blockDim, ... (adjacent threads, adjacent elements). With parts 1 thread
 * 0 stores the output, else the slice's accumulator in part[o * parts + t]. */
template <int OP, typename C>
__global__ void __launch_bounds__(512) reduce_inner(tsr_kreduce g, int64_t parts, int64_t per, KAcc<C> *part)
{
    int64_t st = g.stride[1][0];
    for (int64_t b = blockIdx.x; b < g.nout * parts; b += gridDim.x) {
        int64_t o = b / parts, t = b - o * parts, off[3];
        kr_out_offsets(g, o, off);
        int64_t lo = t * per, hi = lo + per < g.nreduce ? lo + per : g.nreduce;
        const char *in = g.data[1] + off[1];
        KAcc<C> a;
        kr_init<OP, C>(g, a);
        for (int64_t j = lo + threadIdx.x; j < hi; j += blockDim.x)
            kr_step<OP, C>(g, a, k_load<C>(in + j * st, g.dtype[1]), j);
        a = kb_reduce<OP, C>(g, a);
        if (threadIdx.x == 0) {
            if (parts == 1) kr_store<OP, C>(g, g.data[0] + off[0], g.data[2] ? g.data[2] + off[2] : 0, a);
            else part[b] = a;
        }
    }
}

/* The second pass: block o combines output o's parts (grid-stride over nout). */
template <int OP, typename C>
__global__ void __launch_bounds__(256) reduce_inner_final(tsr_kreduce g, int64_t parts, const KAcc<C> *part)
{
    for (int64_t o = blockIdx.x; o < g.nout; o += gridDim.x) {
        KAcc<C> a;
        kr_init<OP, C>(g, a);
        for (int64_t t = threadIdx.x; t < parts; t += blockDim.x) kr_combine<OP, C>(g, a, part[o * parts + t]);
        a = kb_reduce<OP, C>(g, a);
        if (threadIdx.x == 0) {
            int64_t off[3];
            kr_out_offsets(g, o, off);
            kr_store<OP, C>(g, g.data[0] + off[0], g.data[2] ? g.data[2] + off[2] : 0, a);
        }
    }
}

/* ------------------------------------------------------------ nonzero's scan */

#define KB_SCAN 1024   /* the scan's block */

/* One block of KB_SCAN threads: counts[c] (c < chunks) becomes the
 * exclusive prefix sum of the counts, counts[chunks] their total (-1 when
 * a count is negative: a negative repeat). Thread t takes a run of the
 * counts; the runs' sums are scanned in shared memory (Hillis-Steele). */
__global__ void __launch_bounds__(KB_SCAN) nonzero_scan_block(int64_t chunks, int64_t *counts)
{
    TSR_SHARED(int64_t, sums, KB_SCAN);
    TSR_SHARED(int, negative, 1);
    unsigned t = threadIdx.x, nt = blockDim.x;
    int64_t per = (chunks + nt - 1) / nt, lo = t * per, hi = lo + per < chunks ? lo + per : chunks, s = 0;
    bool neg = false;
    for (int64_t c = lo; c < hi; c++) {
        int64_t n = counts[c];
        neg = neg || n < 0;
        s += n < 0 ? 0 : n;
    }
    if (t == 0) negative[0] = 0;
    sums[t] = s;
    __syncthreads();
    if (neg) negative[0] = 1;
    for (unsigned d = 1; d < nt; d <<= 1) {
        int64_t v = t >= d ? sums[t - d] : 0;
        __syncthreads();
        sums[t] += v;
        __syncthreads();
    }
    int64_t at = sums[t] - s;
    for (int64_t c = lo; c < hi; c++) {
        int64_t n = counts[c];
        counts[c] = at;
        at += n < 0 ? 0 : n;
    }
    if (t == nt - 1) counts[chunks] = negative[0] ? -1 : sums[t];
}

#endif
