/* cuda/fast.h — the elementwise kernels' contiguous fast path, for the
 * device (nvcc) and the simulator (g++): when every array operand is one
 * run of elements (1-d after coalescing, stride = element size) stored in
 * the compute dtype itself (the output in bool for comparisons), element i
 * of every operand is at index i, so a thread needs no per-dimension
 * division and, where every pointer is aligned to four elements, moves four
 * elements with one vector load or store per operand (float4 for float32,
 * as ATen's vectorized_elementwise_kernel with vec_size 4). A Python-number
 * or zero-dim operand (data NULL) is loaded once. The bodies are kern.h's,
 * so the values are the general path's. */
#ifndef TSR_CUDA_FAST_H
#define TSR_CUDA_FAST_H
#include "kern.h"

/* The storage type of the dtypes the fast path takes (and bool, for outputs). */
template <int DT> struct KStore;
template <> struct KStore<TSR_KD_FLOAT32> { typedef float T; };
template <> struct KStore<TSR_KD_FLOAT64> { typedef double T; };
template <> struct KStore<TSR_KD_INT64> { typedef int64_t T; };
template <> struct KStore<TSR_KD_BOOL> { typedef uint8_t T; };

/* Four elements moved as one: 16 bytes for float32 (a float4). */
template <typename S> struct alignas(4 * sizeof(S)) KVec4 { S v[4]; };

/* The result of kernel K for the inputs a, b, c (those past its arity unused). */
template <int K, typename C> KHD auto kf_apply(const tsr_klaunch &g, C a, C b, C c)
{
    if constexpr (KArity<K>::v == 1) {
        if constexpr (KBoolOut<K>::v) return k_predicate<K, C>(a);
        else return k_unary<K, C>(a, g);
    } else if constexpr (KArity<K>::v == 2) {
        if constexpr (KBoolOut<K>::v) return k_compare<K, C>(a, b);
        else return k_binary<K, C>(a, b, g);
    } else {
        return k_ternary<K, C>(a, b, c, g);
    }
}

/* The output dtype of kernel K on the fast path of dtype DT. */
template <int K, int DT> struct KOut { static const int v = KBoolOut<K>::v ? TSR_KD_BOOL : DT; };

/* Whether launch g (compute dtype dt) may take the fast path, and (in *vec)
 * whether every array operand is aligned for four-element moves. */
KHD bool kf_eligible(const tsr_klaunch &g, bool bool_out, bool *vec)
{
    int dt = g.compute, size = dt == TSR_KD_FLOAT32 ? 4 : 8;
    if (dt != TSR_KD_FLOAT32 && dt != TSR_KD_FLOAT64 && dt != TSR_KD_INT64) return false;
    if (g.kernel == TSR_K_WHERE || g.nd > 1 || !g.data[0]) return false;
    *vec = true;
    for (int k = 0; k < g.nops; k++) {
        if (!g.data[k]) continue;   /* one value (an input) */
        bool out_bool = k == 0 && bool_out;
        int want = out_bool ? TSR_KD_BOOL : dt, sz = out_bool ? 1 : size;
        if (g.dtype[k] != want) return false;
        if (g.numel > 1 && g.nd == 1 && g.stride[k][0] != sz) return false;
        if ((uintptr_t)g.data[k] % (uintptr_t)(4 * sz)) *vec = false;
    }
    return true;
}

/* Element i of a fast-path launch, alone (the scalar inputs' values in sc). */
template <int K, typename C, int DT>
KHD void kf_range(const tsr_klaunch &g, const C *sc, int64_t i)
{
    typedef typename KStore<DT>::T S;
    C x[3];
    for (int k = 0; k < 3; k++) {
        const char *p = k + 1 < g.nops ? g.data[k + 1] : NULL;
        x[k] = p ? k_load<C>(p + i * (int64_t)sizeof(S), DT) : sc[k];
    }
    const int DO = KOut<K, DT>::v;
    k_store(g.data[0] + i * (int64_t)sizeof(typename KStore<DO>::T), DO, kf_apply<K, C>(g, x[0], x[1], x[2]));
}

/* The kernel: with vec, thread t takes the vectors t, t + step, ... (four
 * elements each, loads and stores of whole vectors), then the tail of
 * numel % 4 elements one by one; without, every element one by one. */
template <int K, typename C, int DT> __global__ void elementwise_contig(tsr_klaunch g, bool vec)
{
    typedef typename KStore<DT>::T S;
    const int DO = KOut<K, DT>::v;
    typedef typename KStore<DO>::T SO;
    C sc[3];
    for (int k = 0; k < 3; k++)
        sc[k] = k + 1 < g.nops && !g.data[k + 1] ? k_load<C>((const char *)g.scalar[k + 1].b, g.dtype[k + 1]) : (C)0;
    int64_t step = (int64_t)blockDim.x * gridDim.x, t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t nvec = vec ? g.numel / 4 : 0;
    for (int64_t v = t; v < nvec; v += step) {
        C x[3][4];
        for (int k = 0; k < 3; k++) {
            const char *p = k + 1 < g.nops ? g.data[k + 1] : NULL;
            if (p) {
                KVec4<S> w = ((const KVec4<S> *)p)[v];
                for (int e = 0; e < 4; e++) x[k][e] = k_load<C>((const char *)&w.v[e], DT);
            } else {
                for (int e = 0; e < 4; e++) x[k][e] = sc[k];
            }
        }
        KVec4<SO> o;
        for (int e = 0; e < 4; e++) k_store((char *)&o.v[e], DO, kf_apply<K, C>(g, x[0][e], x[1][e], x[2][e]));
        ((KVec4<SO> *)g.data[0])[v] = o;
    }
    for (int64_t i = nvec * 4 + t; i < g.numel; i += step) kf_range<K, C, DT>(g, sc, i);
}

#endif
