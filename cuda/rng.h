/* cuda/rng.h — distribution_elementwise_grid_stride_kernel of PyTorch 1.13
 * (native/cuda/DistributionTemplates.h) with the per-element transforms of
 * its uniform_, normal_, exponential_, cauchy_, log_normal_, geometric_,
 * bernoulli_(p) and random_ kernels (core/TransformationHelper.h), and
 * bernoulli_(p tensor)'s, for a contiguous output. On the device the
 * draws are curand's own (curand_kernel.h), so the values are PyTorch's;
 * in the simulator they come from cuda/philox.h. The multiply-adds are
 * written as fma because nvcc contracts PyTorch's `rand * range + from`. */
#ifndef TSR_CUDA_RNG_H
#define TSR_CUDA_RNG_H
#include <float.h>
#include <stdint.h>

#ifdef TSR_CUDA_SIM
#include "philox.h"
typedef kphilox KRngState;
static inline void k_rng_init(uint64_t seed, uint64_t sub, uint64_t off, KRngState *s) { kphilox_init(s, seed, sub, off); }
/* curand_uniform4 / curand_normal4 / curand4, and the double forms. */
static inline void k_draw(KRngState *s, float *o, bool normal)
{
    kphilox_u4 x = kphilox_next4(s);
    if (normal) {
        kcurand_box_muller(x.x, x.y, &o[0], &o[1]);
        kcurand_box_muller(x.z, x.w, &o[2], &o[3]);
    } else {
        o[0] = kcurand_uniform(x.x), o[1] = kcurand_uniform(x.y), o[2] = kcurand_uniform(x.z), o[3] = kcurand_uniform(x.w);
    }
}
static inline void k_draw(KRngState *s, double *o, bool normal)
{
    kphilox_u4 x = kphilox_next4(s);
    if (normal) {
        kcurand_box_muller_double(x.x, x.y, x.z, x.w, &o[0], &o[1]);
    } else {
        o[0] = kcurand_uniform_double_hq(x.x, x.y);
        o[1] = kcurand_uniform_double_hq(x.z, x.w);
    }
}
static inline void k_draw_bits(KRngState *s, uint32_t *o)
{
    kphilox_u4 x = kphilox_next4(s);
    o[0] = x.x, o[1] = x.y, o[2] = x.z, o[3] = x.w;
}
#else
#include <curand_kernel.h>
typedef curandStatePhilox4_32_10_t KRngState;
__device__ __forceinline__ void k_rng_init(uint64_t seed, uint64_t sub, uint64_t off, KRngState *s)
{
    curand_init(seed, sub, off, s);
}
__device__ __forceinline__ void k_draw(KRngState *s, float *o, bool normal)
{
    float4 r = normal ? curand_normal4(s) : curand_uniform4(s);
    o[0] = r.x, o[1] = r.y, o[2] = r.z, o[3] = r.w;
}
__device__ __forceinline__ void k_draw(KRngState *s, double *o, bool normal)
{
    double2 r = normal ? curand_normal2_double(s) : curand_uniform2_double(s);
    o[0] = r.x, o[1] = r.y;
}
__device__ __forceinline__ void k_draw_bits(KRngState *s, uint32_t *o)
{
    uint4 r = curand4(s);
    o[0] = r.x, o[1] = r.y, o[2] = r.z, o[3] = r.w;
}
#endif

/* The ulonglong2 of random_'s 64-bit path: (x << 32 | y, z << 32 | w). */
__device__ inline void k_draw(KRngState *s, uint64_t *o, bool)
{
    uint32_t b[4];
    k_draw_bits(s, b);
    o[0] = ((uint64_t)b[0] << 32) | b[1];
    o[1] = ((uint64_t)b[2] << 32) | b[3];
}
__device__ inline void k_draw(KRngState *s, uint32_t *o, bool) { k_draw_bits(s, o); }

template <typename A> __device__ inline A k_fma(A a, A b, A c);
template <> __device__ inline float k_fma<float>(float a, float b, float c) { return fmaf(a, b, c); }
template <> __device__ inline double k_fma<double>(double a, double b, double c) { return fma(a, b, c); }
template <typename A> __device__ inline A k_eps();
template <> __device__ inline float k_eps<float>() { return FLT_EPSILON; }
template <> __device__ inline double k_eps<double>() { return DBL_EPSILON; }

/* One element: the transform of KIND on draw v, stored as r.dtype. */
template <int KIND, typename A> struct KRandomStore {
    __device__ static void at(const tsr_krandom &r, char *p, A v);
};
template <typename A> struct KRandomStore<TSR_KRN_UNIFORM, A> {
    __device__ static void at(const tsr_krandom &r, char *p, A v)
    {
        A rb = v == (A)1.0 ? (A)0.0 : v;   /* (0, 1] reversed to [0, 1) */
        k_store<A>(p, r.dtype, k_fma<A>(rb, (A)r.a, (A)r.b));
    }
};
template <typename A> struct KRandomStore<TSR_KRN_NORMAL, A> {
    __device__ static void at(const tsr_krandom &r, char *p, A v) { k_store<A>(p, r.dtype, k_fma<A>(v, (A)r.a, (A)r.b)); }
};
template <typename A> struct KRandomStore<TSR_KRN_EXPONENTIAL, A> {
    __device__ static void at(const tsr_krandom &r, char *p, A v)
    {
        A lg = v >= (A)1.0 - k_eps<A>() / 2 ? -k_eps<A>() / 2 : (A)log(v);
        k_store<A>(p, r.dtype, (A)(-1.0) / (A)r.a * lg);
    }
};
template <typename A> struct KRandomStore<TSR_KRN_BERNOULLI, A> {
    __device__ static void at(const tsr_krandom &r, char *p, A v) { k_store<int64_t>(p, r.dtype, v < (A)r.a ? 1 : 0); }
};
template <typename A> struct KRandomStore<TSR_KRN_FROM_TO, A> {
    __device__ static void at(const tsr_krandom &r, char *p, A v)
    {
        k_store<int64_t>(p, r.dtype, (int64_t)((uint64_t)v % r.range + (uint64_t)r.base));
    }
};
template <typename A> struct KRandomStore<TSR_KRN_FULL_RANGE, A> {
    __device__ static void at(const tsr_krandom &r, char *p, A v) { k_store<int64_t>(p, r.dtype, (int64_t)v); }
};

template <typename A> struct KRandomStore<TSR_KRN_LOG_NORMAL, A> {
    __device__ static void at(const tsr_krandom &r, char *p, A v) { k_store<A>(p, r.dtype, (A)exp(k_fma<A>(v, (A)r.a, (A)r.b))); }
};
/* transformation::cauchy: float keeps rand inside [eps, 1 - eps]; double does not. */
template <typename A> struct KRandomStore<TSR_KRN_CAUCHY, A> {
    __device__ static void at(const tsr_krandom &r, char *p, A v)
    {
        if (sizeof(A) == sizeof(float)) {
            v = v > (A)1 - k_eps<A>() ? (A)1 - k_eps<A>() : v;
            v = v < k_eps<A>() ? k_eps<A>() : v;
        }
        k_store<A>(p, r.dtype, k_fma<A>((A)r.a, (A)tan((A)3.14159265358979323846 * (v - (A)0.5)), (A)r.b));
    }
};
template <typename A> struct KRandomStore<TSR_KRN_GEOMETRIC, A> {
    __device__ static void at(const tsr_krandom &r, char *p, A v)
    {
        k_store<A>(p, r.dtype, (A)ceil(log(v) / log((A)1.0 - (A)r.a)));
    }
};

/* The item size of a real dtype. */
__device__ inline int k_itemsize(int dt)
{
    switch (dt) {
    case TSR_KD_UINT8: case TSR_KD_INT8: case TSR_KD_BOOL: return 1;
    case TSR_KD_INT16: case TSR_KD_FLOAT16: case TSR_KD_BFLOAT16: return 2;
    case TSR_KD_INT32: case TSR_KD_FLOAT32: return 4;
    default: return 8;
    }
}

/* Thread idx draws from subsequence idx at the generator's offset, U values
 * per draw, for elements idx, idx + step, ..., idx + (U-1) step, then moves
 * on by U steps (step = the grid's thread count). */
template <int KIND, typename A, int U> __global__ void k_random(tsr_krandom r)
{
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t step = (int64_t)blockDim.x * gridDim.x;
    KRngState state;
    k_rng_init(r.seed, (uint64_t)idx, r.offset, &state);
    int64_t rounded = ((r.numel - 1) / (step * U) + 1) * step * U;
    int size = k_itemsize(r.dtype);
    for (int64_t li = idx; li < rounded; li += step * U) {
        A v[U];
        k_draw(&state, v, KIND == TSR_KRN_NORMAL || KIND == TSR_KRN_LOG_NORMAL);
        for (int ii = 0; ii < U; ii++) {
            int64_t l = li + step * ii;
            if (l < r.numel) KRandomStore<KIND, A>::at(r, r.data + l * size, v[ii]);
        }
    }
}

/* bernoulli_tensor_cuda_kernel: CUDA_tensor_apply2<scalar_t, prob_t, 4>
 * gives thread idx the elements 4 idx .. 4 idx + 3 (the grid covers them
 * all); its functor draws one curand_uniform4 from subsequence idx and sets
 * v_k = rand_k <= p_k (prob_t double for a double output, else float). */
template <typename P> __global__ void k_bernoulli_p(tsr_krandom r)
{
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, base = idx * 4;
    if (base >= r.numel) return;
    KRngState state;
    k_rng_init(r.seed, (uint64_t)idx, r.offset, &state);
    float v[4];
    k_draw(&state, v, false);
    const P *p = (const P *)r.prob;
    int size = k_itemsize(r.dtype);
    for (int k = 0; k < 4 && base + k < r.numel; k++)
        k_store<int64_t>(r.data + (base + k) * size, r.dtype, (P)v[k] <= p[base + k] ? 1 : 0);
}

#endif
