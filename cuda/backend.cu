/* cuda/backend.cu — the CUDA backend, built by nvcc into libtsr_cuda.so and
 * loaded by runtime/device.c with dlopen on first use of a cuda device: the
 * driver check of torch.cuda._lazy_init with PyTorch's messages, a caching
 * allocator on cudaMalloc (blocks kept by size class and reused, as
 * c10/cuda/CUDACachingAllocator.cpp does), host<->device and peer copies,
 * the memory statistics torch.cuda reports, the elementwise kernels of
 * runtime/kernels.h (bodies in cuda/kern.h), one grid-stride kernel per
 * kernel and compute type on the default stream, the reductions (bodies
 * in cuda/reduce.h: one thread per output element, or for few outputs of
 * many elements two passes, partial accumulators then one thread per
 * output combining them), the matmul family's gemm through cuBLAS (one
 * handle per device, on the default stream), and the index family (bodies
 * in cuda/index.h: gathers, scatters, tril/triu, nonzero), and torch.fft's
 * batched transforms through cuFFT (plans kept in a small cache, as
 * PyTorch's CuFFTParamsLRUCache; cuda/fft.h has the scale and conjugate
 * kernels around them). Contiguous operands of the compute dtype take cuda/fast.h's path (no per-dimension
 * division, four-element vector moves); contiguous inner sums, means and
 * extremes, and nonzero's scan, cooperate within a block (cuda/block.h).
 *
 * Built with g++ and -DTSR_CUDA_SIM instead, the same source is
 * libtsr_cuda_sim.so: the CUDA runtime calls come from cuda/sim_runtime.h,
 * which runs the kernels on the host over memory the host's own code cannot
 * touch (TSR_CUDA=sim), so that every host-side path is tested without a
 * GPU; its gemm is OpenBLAS's (float16/bfloat16 through float), its cuFFT
 * a direct DFT (cuda/sim_cufft.h). */
#ifdef TSR_CUDA_SIM
#include "sim_runtime.h"
#include "sim_cufft.h"
#include <cblas.h>
#else
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cufft.h>
#endif
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "device.h"
#include "error.h"
}
#include "kern.h"
#include "reduce.h"
#include "index.h"
#include "rng.h"
#include "scan.h"
#include "complex.h"
#include "fft.h"
#include "fast.h"
#include "block.h"

static const tsr_backend_host *host;

static void fail(const char *msg) { host->error_set(TSR_ERR_RUNTIME, msg); }

/* ------------------------------------------------------------ devices */

static int ndevices = -1;          /* -1: not yet asked */
static cudaError_t count_status;   /* what cudaGetDeviceCount answered */

/* c10::cuda::device_count(): 0 when there is no driver or no device. */
static int device_count(void)
{
    if (ndevices < 0) {
        int n = 0;
        count_status = cudaGetDeviceCount(&n);
        if (count_status != cudaSuccess) {
            n = 0;
            cudaGetLastError();   /* clear the sticky error */
        }
        ndevices = n;
    }
    return ndevices;
}

/* torch.cuda._lazy_init(): a driver, then at least one device, in the words
 * of c10/cuda/CUDAFunctions.cpp (device_count_impl) and CUDAHooks::initCUDA. */
static int init(void)
{
    if (device_count() > 0) return 0;
    char msg[512];
    switch (count_status) {
    case cudaErrorInsufficientDriver: {
        int version = 0;
        if (cudaDriverGetVersion(&version) != cudaSuccess || version <= 0) {
            fail("Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a "
                 "driver from http://www.nvidia.com/Download/index.aspx");
        } else {
            snprintf(msg, sizeof msg,
                     "The NVIDIA driver on your system is too old (found version %d). Please update your GPU driver "
                     "by downloading and installing a new version from the URL: "
                     "http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to "
                     "install a PyTorch version that has been compiled with your version of the CUDA driver.",
                     version);
            fail(msg);
        }
        return -1;
    }
    case cudaErrorInitializationError:
        fail("CUDA driver initialization failed, you might not have a CUDA gpu.");
        return -1;
    case cudaSuccess:
    case cudaErrorNoDevice:
        fail("No CUDA GPUs are available");
        return -1;
    default:
        snprintf(msg, sizeof msg, "CUDA error: %s", cudaGetErrorString(count_status));
        fail(msg);
        return -1;
    }
}

static int set_device(int index)
{
    if (init() < 0) return -1;
    if (index < 0) index = 0;
    if (index >= ndevices) {
        fail("CUDA error: invalid device ordinal");
        return -1;
    }
    cudaError_t e = cudaSetDevice(index);
    if (e != cudaSuccess) {
        char msg[256];
        snprintf(msg, sizeof msg, "CUDA error: %s", cudaGetErrorString(e));
        fail(msg);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ caching allocator */

/* Sizes round up to 512 bytes below 1 MiB and to 2 MiB above (PyTorch's
 * kMinBlockSize and kLargeBuffer); a freed block waits in its device's list
 * for a request of the same rounded size. */
#define MAX_DEVICES 64
typedef struct Block { void *p; size_t size; struct Block *next; } Block;
typedef struct {
    Block *cached;                  /* free blocks, any size */
    int64_t allocated, max_allocated, reserved, max_reserved;
} DeviceMem;

static DeviceMem mem[MAX_DEVICES];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static size_t round_size(size_t n)
{
    if (n < (1u << 20)) return (n + 511) & ~(size_t)511;
    return (n + (2u << 20) - 1) & ~(((size_t)2 << 20) - 1);
}

static void release_cached(int index)
{
    DeviceMem *m = &mem[index];
    for (Block *b = m->cached, *next; b; b = next) {
        next = b->next;
        cudaFree(b->p);
        m->reserved -= (int64_t)b->size;
        free(b);
    }
    m->cached = NULL;
}

static void format_bytes(char *buf, size_t n, int64_t bytes)
{
    const double kib = 1024.0, mib = kib * 1024, gib = mib * 1024;
    if (bytes < kib) snprintf(buf, n, "%lld bytes", (long long)bytes);
    else if (bytes < mib) snprintf(buf, n, "%.2f KiB", bytes / kib);
    else if (bytes < gib) snprintf(buf, n, "%.2f MiB", bytes / mib);
    else snprintf(buf, n, "%.2f GiB", bytes / gib);
}

static void *alloc(size_t nbytes, int index)
{
    if (set_device(index) < 0) return NULL;
    if (index < 0) index = 0;
    if (index >= MAX_DEVICES) { fail("CUDA error: invalid device ordinal"); return NULL; }
    size_t size = round_size(nbytes ? nbytes : 1);
    pthread_mutex_lock(&lock);
    DeviceMem *m = &mem[index];
    void *p = NULL;
    for (Block **pb = &m->cached; *pb; pb = &(*pb)->next) {
        if ((*pb)->size == size) {
            Block *b = *pb;
            *pb = b->next;
            p = b->p;
            free(b);
            break;
        }
    }
    if (!p) {
        cudaError_t e = cudaMalloc(&p, size);
        if (e == cudaErrorMemoryAllocation) {   /* give the cache back and try once more */
            cudaGetLastError();
            release_cached(index);
            e = cudaMalloc(&p, size);
        }
        if (e != cudaSuccess) {
            cudaGetLastError();
            size_t free_b = 0, total_b = 0;
            cudaMemGetInfo(&free_b, &total_b);
            char want[32], total[32], used[32], freeb[32], reserved[32], msg[512];
            format_bytes(want, sizeof want, (int64_t)size);
            format_bytes(total, sizeof total, (int64_t)total_b);
            format_bytes(used, sizeof used, m->allocated);
            format_bytes(freeb, sizeof freeb, (int64_t)free_b);
            format_bytes(reserved, sizeof reserved, m->reserved);
            snprintf(msg, sizeof msg,
                     "CUDA out of memory. Tried to allocate %s (GPU %d; %s total capacity; %s already allocated; %s "
                     "free; %s reserved in total by PyTorch)",
                     want, index, total, used, freeb, reserved);
            pthread_mutex_unlock(&lock);
            fail(msg);
            return NULL;
        }
        m->reserved += (int64_t)size;
        if (m->reserved > m->max_reserved) m->max_reserved = m->reserved;
    }
    m->allocated += (int64_t)size;
    if (m->allocated > m->max_allocated) m->max_allocated = m->allocated;
    pthread_mutex_unlock(&lock);
    return p;
}

static void release(void *p, size_t nbytes, int index)
{
    if (!p) return;
    if (index < 0) index = 0;
    Block *b = (Block *)malloc(sizeof *b);
    pthread_mutex_lock(&lock);
    DeviceMem *m = &mem[index];
    size_t size = round_size(nbytes ? nbytes : 1);
    m->allocated -= (int64_t)size;
    if (b) {
        *b = (Block){p, size, m->cached};
        m->cached = b;
    } else {   /* no room to remember it: give it back */
        cudaFree(p);
        m->reserved -= (int64_t)size;
    }
    pthread_mutex_unlock(&lock);
}

static void empty_cache(void)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_DEVICES; i++)
        if (mem[i].cached) {
            cudaSetDevice(i);
            release_cached(i);
        }
    pthread_mutex_unlock(&lock);
}

static int64_t memory_stat(int index, int which)
{
    if (index < 0) index = 0;
    if (index >= MAX_DEVICES) return 0;
    DeviceMem *m = &mem[index];
    switch (which) {
    case TSR_MEMSTAT_ALLOCATED: return m->allocated;
    case TSR_MEMSTAT_MAX_ALLOCATED: return m->max_allocated;
    case TSR_MEMSTAT_RESERVED: return m->reserved;
    case TSR_MEMSTAT_MAX_RESERVED: return m->max_reserved;
    default: return 0;
    }
}

/* ------------------------------------------------------------ copies */

/* Any direction: with unified addressing cudaMemcpyDefault knows host from
 * device and peer from peer (staged by the driver where there is no peer
 * access). A copy to the host waits for the device, as a .cpu() does. */
static int copy(void *dst, tsr_device dd, const void *src, tsr_device sd, size_t nbytes)
{
    if (!nbytes) return 0;
    int dev = dd.type == TSR_DEV_CUDA ? dd.index : sd.index;
    if (set_device(dev) < 0) return -1;
    cudaError_t e = cudaMemcpy(dst, src, nbytes, cudaMemcpyDefault);
    if (e != cudaSuccess) {
        cudaGetLastError();
        char msg[256];
        snprintf(msg, sizeof msg, "CUDA error: %s", cudaGetErrorString(e));
        fail(msg);
        return -1;
    }
    return 0;
}

static int synchronize(int index)
{
    if (set_device(index) < 0) return -1;
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        char msg[256];
        snprintf(msg, sizeof msg, "CUDA error: %s", cudaGetErrorString(e));
        fail(msg);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ kernels */

static int cuda_check(cudaError_t e)
{
    if (e == cudaSuccess) return 0;
    cudaGetLastError();
    char msg[256];
    snprintf(msg, sizeof msg, "CUDA error: %s", cudaGetErrorString(e));
    fail(msg);
    return -1;
}

static int memset_(void *p, int value, size_t nbytes, int index)
{
    if (set_device(index) < 0) return -1;
    return cuda_check(cudaMemset(p, value, nbytes));
}

template <int K, typename C> __global__ void elementwise(tsr_klaunch g)
{
    int64_t step = (int64_t)blockDim.x * gridDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < g.numel; i += step) k_element<K, C>(g, i);
}

#ifdef TSR_CUDA_SIM
#define MAX_BLOCKS 8          /* the simulator runs each thread in turn */
#else
#define MAX_BLOCKS 65536
#endif

/* ------------------------------------------------------------ grids from the device */

/* Threads the current device holds at once (SMs x threads per SM), asked
 * once per device; grid-stride kernels launch a few times that many. */
static int resident[MAX_DEVICES];

static int64_t device_threads(void)
{
    int d = 0;
    if (cudaGetDevice(&d) != cudaSuccess || d < 0 || d >= MAX_DEVICES) {
        cudaGetLastError();
        d = 0;
    }
    if (!resident[d]) {
        cudaDeviceProp p;
        if (cudaGetDeviceProperties(&p, d) == cudaSuccess && p.multiProcessorCount > 0 &&
            p.maxThreadsPerMultiProcessor > 0)
            resident[d] = p.multiProcessorCount * p.maxThreadsPerMultiProcessor;
        else {
            cudaGetLastError();
            resident[d] = 64 * 2048;
        }
    }
    return resident[d];
}

/* Blocks of block threads for n units of work, at most 4 waves of the device. */
static unsigned grid_waves(int64_t n, unsigned block)
{
    int64_t blocks = (n + block - 1) / block, most = device_threads() * 4 / block;
    if (blocks > most) blocks = most;
    return (unsigned)(blocks < 1 ? 1 : blocks);
}

/* An elementwise launch record as the kernels read it: device addresses
 * as they reach them (the simulator's host view). */
static tsr_klaunch kernel_view(const tsr_klaunch &g0)
{
    tsr_klaunch g = g0;
#ifdef TSR_CUDA_SIM
    for (int k = 0; k < g.nops; k++)
        if (g.data[k]) g.data[k] = sim_host(g.data[k]);
#endif
    return g;
}

/* A grid-stride kernel over g's elements: 256 threads a block, at most
 * MAX_BLOCKS blocks. */
template <typename F> static int launch_stride(F kern, const tsr_klaunch &g0)
{
    tsr_klaunch g = kernel_view(g0);
    const unsigned block = 256;
    int64_t blocks = (g.numel + block - 1) / block;
    if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
#ifdef TSR_CUDA_SIM
    sim_launch((unsigned)blocks, block, [&] { kern(g); });
    return 0;
#else
    kern<<<(unsigned)blocks, block>>>(g);
    return cuda_check(cudaGetLastError());
#endif
}

/* The contiguous fast path (cuda/fast.h) of compute dtype DT. */
template <int K, typename C, int DT> static int launch_contig(const tsr_klaunch &g0, bool vec)
{
    tsr_klaunch g = kernel_view(g0);
    int64_t units = vec ? (g.numel + 3) / 4 : g.numel;
    unsigned block = units < 256 ? (unsigned)(units + 31) / 32 * 32 : 256;   /* whole warps */
    unsigned grid = grid_waves(units, block);
#ifdef TSR_CUDA_SIM
    sim_launch(grid, block, [&] { elementwise_contig<K, C, DT>(g, vec); });
    return 0;
#else
    elementwise_contig<K, C, DT><<<grid, block>>>(g, vec);
    return cuda_check(cudaGetLastError());
#endif
}

/* 1 when launch g cannot take the fast path, else launch_contig's result. */
template <int K, typename C> static int launch_fast(const tsr_klaunch &g)
{
    bool vec = false;
    if (!kf_eligible(g, KBoolOut<K>::v, &vec)) return 1;
    if constexpr (KIsF<C>::v && sizeof(C) == 4) return launch_contig<K, C, TSR_KD_FLOAT32>(g, vec);
    else if constexpr (KIsF<C>::v) return launch_contig<K, C, TSR_KD_FLOAT64>(g, vec);
    else if constexpr (sizeof(C) == 8 && !KIsRaw<C>::v) return launch_contig<K, C, TSR_KD_INT64>(g, vec);
    else return 1;
}

template <int K, typename C> static int launch_kc(const tsr_klaunch &g0)
{
    int fast = launch_fast<K, C>(g0);
    if (fast != 1) return fast;
    return launch_stride(elementwise<K, C>, g0);
}

/* The complex kernels (cuda/complex.h): their own instantiations, so the
 * real ones stay as they were. */
template <int K, typename T> __global__ void elementwise_cx(tsr_klaunch g)
{
    int64_t step = (int64_t)blockDim.x * gridDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < g.numel; i += step) kc_element<K, T>(g, i);
}

template <int K, typename T> static int launch_kcx(const tsr_klaunch &g0)
{
    return launch_stride(elementwise_cx<K, T>, g0);
}

/* Whether a complex COPY / WHERE only moves elements: every operand (where's
 * condition aside) of the compute dtype. */
static bool raw_moves(const tsr_klaunch &g)
{
    if (g.kernel != TSR_K_COPY && g.kernel != TSR_K_WHERE) return false;
    for (int k = 0; k < g.nops; k++)
        if (!(g.kernel == TSR_K_WHERE && k == 1) && g.dtype[k] != g.compute) return false;
    return true;
}

template <int K> static int launch_k(const tsr_klaunch &g)
{
    if constexpr (kc_kernel(K)) {
        int c = k_ctype(g.compute);
        if (c >= 4 && !raw_moves(g)) return c == 6 ? launch_kcx<K, double>(g) : launch_kcx<K, float>(g);
    }
    switch (k_ctype(g.compute)) {
    case 0: return launch_kc<K, int64_t>(g);
    case 1: return launch_kc<K, float>(g);
    case 2: return launch_kc<K, double>(g);
    case 3: return launch_kc<K, bool>(g);
    case 4: return launch_kc<K, KRaw<4> >(g);
    case 5: return launch_kc<K, KRaw<8> >(g);
    default: return launch_kc<K, KRaw<16> >(g);
    }
}

static bool has_kernel(int kernel, int compute) { return k_supported(kernel, compute) || kc_supported(kernel, compute); }

static int launch(const tsr_klaunch *g, int index)
{
    if (!has_kernel(g->kernel, g->compute)) {
        fail("tsr's CUDA backend has no such kernel");
        return -1;
    }
    if (g->numel == 0) return 0;
    if (set_device(index) < 0) return -1;
    switch (g->kernel) {
#define KCASE_(id, n) case TSR_K_##id: return launch_k<TSR_K_##id>(*g);
    TSR_KERNEL_LIST(KCASE_)
#undef KCASE_
    default: fail("tsr's CUDA backend has no such kernel"); return -1;
    }
}

/* ------------------------------------------------------------ indexing */

static unsigned grid_of(int64_t n, unsigned block)
{
    int64_t blocks = (n + block - 1) / block;
    if (blocks < 1) blocks = 1;
    return (unsigned)(blocks > MAX_BLOCKS ? MAX_BLOCKS : blocks);
}

template <typename C> __global__ void index_elements(tsr_kindex g)
{
    int64_t step = (int64_t)blockDim.x * gridDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < g.numel; i += step) ki_element<C>(g, i);
}

/* The first element (linear) with an index value out of range, in *first. */
__global__ void index_check(tsr_kindex g, unsigned long long *first)
{
    int64_t step = (int64_t)blockDim.x * gridDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < g.numel; i += step) {
        int64_t off[2 + TSR_KI_MAXIDX], add;
        ki_offsets(g, i, off);
        if (!ki_indexed(g, off, &add)) ki_min(first, (unsigned long long)i);
    }
}

__global__ void index_tri(tsr_kindex g)
{
    int64_t step = (int64_t)blockDim.x * gridDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < g.numel; i += step) ki_tri_element(g, i);
}

__global__ void nonzero_counts(tsr_kindex g, int64_t per, int64_t chunks, int64_t *counts)
{
    int64_t step = (int64_t)blockDim.x * gridDim.x;
    for (int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; c < chunks; c += step)
        counts[c] = ki_nonzero_chunk(g, c, per, NULL, 0);
}

__global__ void nonzero_write(tsr_kindex g, int64_t per, int64_t chunks, const int64_t *starts)
{
    int64_t step = (int64_t)blockDim.x * gridDim.x;
    for (int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; c < chunks; c += step)
        ki_nonzero_chunk(g, c, per, g.data[0], starts[c]);
}

#ifdef TSR_CUDA_SIM
#define KLAUNCH(grid, block, kern, ...) (sim_launch((grid), (block), [&] { kern(__VA_ARGS__); }), 0)
#else
#define KLAUNCH(grid, block, kern, ...) (kern<<<(grid), (block)>>>(__VA_ARGS__), cuda_check(cudaGetLastError()))
#endif
/* a kernel whose threads cooperate (cuda/block.h) */
#ifdef TSR_CUDA_SIM
#define KLAUNCH_BLOCKS(grid, block, kern, ...) (sim_launch_blocks((grid), (block), [&] { kern(__VA_ARGS__); }), 0)
#else
#define KLAUNCH_BLOCKS KLAUNCH
#endif
#define KB 256u

/* The launch record the kernels read: device addresses as the kernels
 * reach them (the simulator's host view). */
static tsr_kindex kernel_view(const tsr_kindex *g0)
{
    tsr_kindex g = *g0;
#ifdef TSR_CUDA_SIM
    for (int k = 0; k < 2 + g.nidx; k++)
        if (g.data[k]) g.data[k] = sim_host(g.data[k]);
#endif
    return g;
}

/* 1 with the first out-of-range index value and its tensor in result, 0
 * when every value is in range, -1 on a CUDA error. */
static int index_check_values(const tsr_kindex *g0, int dev, int64_t *result)
{
    unsigned long long *first = (unsigned long long *)alloc(sizeof *first, dev), at = 0;
    if (!first) return -1;
    tsr_kindex g = kernel_view(g0);
    int rc = cuda_check(cudaMemset(first, 0xFF, sizeof *first));
#ifdef TSR_CUDA_SIM
    unsigned long long *kfirst = sim_host(first);
#else
    unsigned long long *kfirst = first;
#endif
    if (rc == 0) rc = KLAUNCH(grid_of(g.numel, KB), KB, index_check, g, kfirst);
    if (rc == 0) rc = cuda_check(cudaMemcpy(&at, first, sizeof at, cudaMemcpyDefault));
    release(first, sizeof *first, dev);
    if (rc < 0 || at == ~0ull) return rc;
    int64_t off[2 + TSR_KI_MAXIDX];
    ki_offsets(*g0, (int64_t)at, off);
    for (int k = 0; k < g0->nidx; k++) {
        int64_t v = 0;
        if (cuda_check(cudaMemcpy(&v, g0->data[2 + k] + off[2 + k], sizeof v, cudaMemcpyDefault)) < 0) return -1;
        if (!ki_in_range(*g0, k, v)) {
            result[0] = v;
            result[1] = k;
            return 1;
        }
    }
    return 0;
}

/* NONZERO_COUNT/NONZERO and REPEAT_COUNT/REPEAT: per-chunk counts, their
 * prefix sum in one block (cuda/block.h), then each chunk writes its rows from its start. */
static int nonzero(const tsr_kindex *g0, int dev, int64_t *result)
{
    bool count = g0->op == TSR_KI_NONZERO_COUNT || g0->op == TSR_KI_REPEAT_COUNT;
    if (count) result[0] = 0;
    if (g0->numel == 0) return 0;
    tsr_kindex g = kernel_view(g0);
    int64_t per = (g.numel + 65535) / 65536;
    if (per < 256) per = 256;
    int64_t chunks = (g.numel + per - 1) / per;
    size_t bytes = (size_t)(chunks + 1) * sizeof(int64_t);
    int64_t *counts = (int64_t *)alloc(bytes, dev);
    if (!counts) return -1;
#ifdef TSR_CUDA_SIM
    int64_t *kc = sim_host(counts);
#else
    int64_t *kc = counts;
#endif
    int rc = KLAUNCH(grid_of(chunks, KB), KB, nonzero_counts, g, per, chunks, kc);
    if (rc == 0) rc = KLAUNCH_BLOCKS(1, KB_SCAN, nonzero_scan_block, chunks, kc);
    if (rc == 0 && count) rc = cuda_check(cudaMemcpy(result, counts + chunks, sizeof *result, cudaMemcpyDefault));
    if (rc == 0 && !count)
        rc = KLAUNCH(grid_of(chunks, KB), KB, nonzero_write, g, per, chunks, kc);
    /* back to the cache: the next user of the block runs after these
     * kernels on the default stream */
    release(counts, bytes, dev);
    return rc;
}

static bool has_index(int op, int dtype) { return ki_supported(op, dtype); }

static int index_launch(const tsr_kindex *g0, int dev, int64_t *result)
{
    if (!has_index(g0->op, g0->dtype) || g0->nidx < 0 || g0->nidx > TSR_KI_MAXIDX || g0->nd < 0 ||
        g0->nd > TSR_K_MAXDIMS || (g0->op != TSR_KI_ADD && !ki_supported(g0->op, g0->compute))) {
        fail("tsr's CUDA backend has no such index kernel");
        return -1;
    }
    if (set_device(dev) < 0) return -1;
    if (g0->op == TSR_KI_NONZERO_COUNT || g0->op == TSR_KI_NONZERO || g0->op == TSR_KI_REPEAT_COUNT ||
        g0->op == TSR_KI_REPEAT)
        return nonzero(g0, dev, result);
    if (g0->numel == 0) return 0;
    tsr_kindex g = kernel_view(g0);
    if (g.op == TSR_KI_TRIL || g.op == TSR_KI_TRIU)
        return KLAUNCH(grid_of(g.numel, KB), KB, index_tri, g);
    if (g.nidx > 0) {
        int bad = index_check_values(g0, dev, result);
        if (bad != 0) return bad;
    }
    unsigned grid = grid_of(g.numel, KB);
    /* ADD/MUL compute in the compute type; complex ADD in its parts' (the element's body picks) */
    bool combines = g.op == TSR_KI_ADD || g.op == TSR_KI_MUL || g.op == TSR_KI_AMAX || g.op == TSR_KI_AMIN;
    switch (combines ? k_ctype(g.compute) : 3) {
    case 0: return KLAUNCH(grid, KB, index_elements<int64_t>, g);
    case 1: return KLAUNCH(grid, KB, index_elements<float>, g);
    case 2: return KLAUNCH(grid, KB, index_elements<double>, g);
    default: return KLAUNCH(grid, KB, index_elements<bool>, g);
    }
}

/* distribution_nullary_kernel's launch: the grid the runtime computed (it
 * decides the Philox offsets, so it is never clipped), one thread per
 * subsequence. */
template <int KIND, typename A, int U> static int launch_random(const tsr_krandom &r0)
{
    tsr_krandom r = r0;
#ifdef TSR_CUDA_SIM
    r.data = sim_host(r.data);
    sim_launch(r.grid, r.block, [&] { k_random<KIND, A, U>(r); });
    return 0;
#else
    k_random<KIND, A, U><<<r.grid, r.block>>>(r);
    return cuda_check(cudaGetLastError());
#endif
}

template <typename P> static int launch_bernoulli_p(const tsr_krandom &r0)
{
    tsr_krandom r = r0;
#ifdef TSR_CUDA_SIM
    r.data = sim_host(r.data);
    r.prob = sim_host(r.prob);
    sim_launch(r.grid, r.block, [&] { k_bernoulli_p<P>(r); });
    return 0;
#else
    k_bernoulli_p<P><<<r.grid, r.block>>>(r);
    return cuda_check(cudaGetLastError());
#endif
}

static int random_(const tsr_krandom *r, int index)
{
    if (r->numel == 0) return 0;
    if (set_device(index) < 0) return -1;
    bool wide = r->wide != 0;
    switch (r->kind) {
    case TSR_KRN_UNIFORM:
        return wide ? launch_random<TSR_KRN_UNIFORM, double, 2>(*r) : launch_random<TSR_KRN_UNIFORM, float, 4>(*r);
    case TSR_KRN_NORMAL:
        return wide ? launch_random<TSR_KRN_NORMAL, double, 2>(*r) : launch_random<TSR_KRN_NORMAL, float, 4>(*r);
    case TSR_KRN_EXPONENTIAL:
        return wide ? launch_random<TSR_KRN_EXPONENTIAL, double, 2>(*r)
                    : launch_random<TSR_KRN_EXPONENTIAL, float, 4>(*r);
    case TSR_KRN_BERNOULLI:
        return wide ? launch_random<TSR_KRN_BERNOULLI, double, 2>(*r) : launch_random<TSR_KRN_BERNOULLI, float, 4>(*r);
    case TSR_KRN_FROM_TO:
        return wide ? launch_random<TSR_KRN_FROM_TO, uint64_t, 2>(*r) : launch_random<TSR_KRN_FROM_TO, uint32_t, 4>(*r);
    case TSR_KRN_FULL_RANGE:
        return launch_random<TSR_KRN_FULL_RANGE, uint64_t, 2>(*r);
    case TSR_KRN_LOG_NORMAL:
        return wide ? launch_random<TSR_KRN_LOG_NORMAL, double, 2>(*r) : launch_random<TSR_KRN_LOG_NORMAL, float, 4>(*r);
    case TSR_KRN_CAUCHY:
        return wide ? launch_random<TSR_KRN_CAUCHY, double, 2>(*r) : launch_random<TSR_KRN_CAUCHY, float, 4>(*r);
    case TSR_KRN_GEOMETRIC:
        return wide ? launch_random<TSR_KRN_GEOMETRIC, double, 2>(*r) : launch_random<TSR_KRN_GEOMETRIC, float, 4>(*r);
    case TSR_KRN_BERNOULLI_P:
        return wide ? launch_bernoulli_p<double>(*r) : launch_bernoulli_p<float>(*r);
    default: fail("tsr's CUDA backend has no such distribution"); return -1;
    }
}

static int properties(int index, tsr_device_props *out)
{
    if (init() < 0) return -1;
    cudaDeviceProp p;
    if (cuda_check(cudaGetDeviceProperties(&p, index)) < 0) return -1;
    snprintf(out->name, sizeof out->name, "%s", p.name);
    out->major = p.major;
    out->minor = p.minor;
    out->multi_processor_count = p.multiProcessorCount;
    out->max_threads_per_multi_processor = p.maxThreadsPerMultiProcessor;
    out->total_memory = (int64_t)p.totalGlobalMem;
    return 0;
}

static int mem_info(int index, int64_t *free_bytes, int64_t *total_bytes)
{
    if (set_device(index) < 0) return -1;
    size_t f = 0, t = 0;
    if (cuda_check(cudaMemGetInfo(&f, &t)) < 0) return -1;
    *free_bytes = (int64_t)f;
    *total_bytes = (int64_t)t;
    return 0;
}

/* ------------------------------------------------------------ reductions */

template <int OP, typename C> __global__ void reduce_single(tsr_kreduce g)
{
    int64_t step = (int64_t)blockDim.x * gridDim.x;
    for (int64_t o = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; o < g.nout; o += step) kr_output<OP, C>(g, o);
}

template <int OP, typename C> __global__ void reduce_partial(tsr_kreduce g, KAcc<C> *part, int64_t parts)
{
    int64_t step = (int64_t)blockDim.x * gridDim.x, n = g.nout * parts;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) kr_partial<OP, C>(g, part, parts, i);
}

template <int OP, typename C> __global__ void reduce_final(tsr_kreduce g, const KAcc<C> *part, int64_t parts)
{
    int64_t step = (int64_t)blockDim.x * gridDim.x;
    for (int64_t o = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; o < g.nout; o += step)
        kr_final<OP, C>(g, part, parts, o);
}

template <int OP, typename C>
__global__ void reduce_regroup(tsr_kreduce g, const KAcc<C> *in, int64_t parts, KAcc<C> *out, int64_t group)
{
    int64_t step = (int64_t)blockDim.x * gridDim.x, n = g.nout * ((parts + group - 1) / group);
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        kr_regroup<OP, C>(g, in, parts, out, group, i);
}

/* Threads that keep the device busy, elements a partial takes at least,
 * the most partials one output is split into, and the most partials one
 * thread combines (more are first combined in groups, level by level, so
 * that the serial final pass stays short). */
#define REDUCE_THREADS ((int64_t)1 << 18)
#define REDUCE_MIN_PER_PART 256
#define REDUCE_MAX_PARTS ((int64_t)1 << 18)
#define REDUCE_GROUP ((int64_t)256)

static unsigned grid_for(int64_t n, unsigned block)
{
    int64_t blocks = (n + block - 1) / block;
    return (unsigned)(blocks > MAX_BLOCKS ? MAX_BLOCKS : blocks);
}

/* How many partials each output is split into: 1 (one pass) when there
 * are outputs enough to fill the device or each reduces few elements. */
static int64_t reduce_parts(const tsr_kreduce &g)
{
    if (g.nout >= REDUCE_THREADS / 4 || g.nreduce < 16 * REDUCE_MIN_PER_PART) return 1;
    int64_t parts = REDUCE_THREADS / g.nout, most = g.nreduce / REDUCE_MIN_PER_PART;
    if (parts > most) parts = most;
    if (parts > REDUCE_MAX_PARTS) parts = REDUCE_MAX_PARTS;
    return parts < 2 ? 1 : parts;
}

/* The block reduction (cuda/block.h) of sum, mean, amax and amin over a
 * contiguous inner dim (or all elements of a contiguous tensor): a block
 * per output, or per slice of an output when there are too few outputs to
 * fill the device (their accumulators then combined by a block per
 * output). 1 when g is not such a reduction, else the launches' result. */
template <int OP, typename C> static int reduce_block(const tsr_kreduce &g0, int index)
{
    if (OP != TSR_KR_SUM && OP != TSR_KR_MEAN && OP != TSR_KR_MAX && OP != TSR_KR_MIN) return 1;
    if (g0.nred != 1 || g0.stride[1][0] != ki_itemsize(g0.dtype[1]) || (g0.nreduce < 32 && g0.nout > 1)) return 1;
    tsr_kreduce g = g0;
    unsigned block = 32;
    while (block < 512 && (int64_t)block * 8 < g.nreduce) block *= 2;
    int64_t target = device_threads() * 2 / block, parts = 1;
    if (g.nout < target) {
        parts = target / g.nout;
        int64_t most = (g.nreduce + (int64_t)block * 16 - 1) / ((int64_t)block * 16);
        if (parts > most) parts = most;
        if (parts > 1024) parts = 1024;
        if (parts < 1) parts = 1;
    }
    int64_t per = (g.nreduce + parts - 1) / parts;
    parts = (g.nreduce + per - 1) / per;
    int64_t blocks = g.nout * parts, most = device_threads() * 4 / block;
    unsigned grid = (unsigned)(blocks < most ? blocks : most);
#ifdef TSR_CUDA_SIM
    for (int k = 0; k < 3; k++)
        if (g.data[k]) g.data[k] = sim_host(g.data[k]);
#endif
    if (parts == 1) {
#ifdef TSR_CUDA_SIM
        sim_launch_blocks(grid, block, [&] { reduce_inner<OP, C>(g, parts, per, (KAcc<C> *)NULL); });
        return 0;
#else
        reduce_inner<OP, C><<<grid, block>>>(g, parts, per, (KAcc<C> *)NULL);
        return cuda_check(cudaGetLastError());
#endif
    }
    size_t bytes = (size_t)(g.nout * parts) * sizeof(KAcc<C>);
    KAcc<C> *part = (KAcc<C> *)alloc(bytes, index);
    if (!part) return -1;
    unsigned block2 = 32, grid2 = (unsigned)(g.nout < most ? g.nout : most);
    while (block2 < 256 && block2 < parts) block2 *= 2;
    int rc = 0;
#ifdef TSR_CUDA_SIM
    KAcc<C> *hp = sim_host(part);
    sim_launch_blocks(grid, block, [&] { reduce_inner<OP, C>(g, parts, per, hp); });
    sim_launch_blocks(grid2, block2, [&] { reduce_inner_final<OP, C>(g, parts, hp); });
#else
    reduce_inner<OP, C><<<grid, block>>>(g, parts, per, part);
    rc = cuda_check(cudaGetLastError());
    if (rc == 0) {
        reduce_inner_final<OP, C><<<grid2, block2>>>(g, parts, part);
        rc = cuda_check(cudaGetLastError());
    }
#endif
    /* back to the cache: later work on the default stream runs after these kernels */
    release(part, bytes, index);
    return rc;
}

template <int OP, typename C> static int reduce_oc(const tsr_kreduce &g0, int index)
{
    int blk = reduce_block<OP, C>(g0, index);
    if (blk != 1) return blk;
    tsr_kreduce g = g0;
    const unsigned block = 256;
    int64_t parts = reduce_parts(g);
#ifdef TSR_CUDA_SIM
    for (int k = 0; k < 3; k++)
        if (g.data[k]) g.data[k] = sim_host(g.data[k]);
#endif
    if (parts == 1) {
#ifdef TSR_CUDA_SIM
        sim_launch(grid_for(g.nout, block), block, [&] { reduce_single<OP, C>(g); });
        return 0;
#else
        reduce_single<OP, C><<<grid_for(g.nout, block), block>>>(g);
        return cuda_check(cudaGetLastError());
#endif
    }
    size_t bytes = (size_t)(g.nout * parts) * sizeof(KAcc<C>);
    KAcc<C> *part = (KAcc<C> *)alloc(bytes, index);
    if (!part) return -1;
    int rc = 0;
#ifdef TSR_CUDA_SIM
    {
        KAcc<C> *hp = sim_host(part);
        sim_launch(grid_for(g.nout * parts, block), block, [&] { reduce_partial<OP, C>(g, hp, parts); });
    }
#else
    reduce_partial<OP, C><<<grid_for(g.nout * parts, block), block>>>(g, part, parts);
    rc = cuda_check(cudaGetLastError());
#endif
    while (rc == 0 && parts > REDUCE_GROUP) {
        int64_t nparts = (parts + REDUCE_GROUP - 1) / REDUCE_GROUP;
        size_t nbytes = (size_t)(g.nout * nparts) * sizeof(KAcc<C>);
        KAcc<C> *next = (KAcc<C> *)alloc(nbytes, index);
        if (!next) {
            rc = -1;
            break;
        }
#ifdef TSR_CUDA_SIM
        KAcc<C> *hin = sim_host(part), *hout = sim_host(next);
        int64_t np = parts;
        sim_launch(grid_for(g.nout * nparts, block), block,
                   [&] { reduce_regroup<OP, C>(g, hin, np, hout, REDUCE_GROUP); });
#else
        reduce_regroup<OP, C><<<grid_for(g.nout * nparts, block), block>>>(g, part, parts, next, REDUCE_GROUP);
        rc = cuda_check(cudaGetLastError());
#endif
        release(part, bytes, index);
        part = next, bytes = nbytes, parts = nparts;
    }
    if (rc == 0) {
#ifdef TSR_CUDA_SIM
        KAcc<C> *hp = sim_host(part);
        sim_launch(grid_for(g.nout, block), block, [&] { reduce_final<OP, C>(g, hp, parts); });
#else
        reduce_final<OP, C><<<grid_for(g.nout, block), block>>>(g, part, parts);
        rc = cuda_check(cudaGetLastError());
#endif
    }
    /* back to the cache: later work on the default stream runs after the
     * kernels above, so the block's next user cannot overtake them */
    release(part, bytes, index);
    return rc;
}

template <int OP> static int reduce_o(const tsr_kreduce &g, int index)
{
    switch (k_ctype(g.compute)) {
    case 0: return reduce_oc<OP, int64_t>(g, index);
    case 1: return reduce_oc<OP, float>(g, index);
    case 2: return reduce_oc<OP, double>(g, index);
    default: return reduce_oc<OP, bool>(g, index);
    }
}

static bool has_reduce(int op, int compute) { return kr_supported(op, k_ctype(compute)); }

static int reduce(const tsr_kreduce *g, int index)
{
    if (!has_reduce(g->op, g->compute) || g->nreduce < 1 || g->nd > TSR_K_MAXDIMS || g->nred < 0 ||
        g->nred > g->nd) {
        fail("tsr's CUDA backend has no such reduction");
        return -1;
    }
    if (g->nout == 0) return 0;
    if (set_device(index) < 0) return -1;
    switch (g->op) {
#define RCASE_(id) case TSR_KR_##id: return reduce_o<TSR_KR_##id>(*g, index);
    TSR_REDUCE_LIST(RCASE_)
#undef RCASE_
    default: fail("tsr's CUDA backend has no such reduction"); return -1;
    }
}


/* ------------------------------------------------------------ fft */

/* Plans by their description (everything in a tsr_kfft but the buffers,
 * the scale and the conjugates) and device, the least recently used
 * replaced. Plans and their executions are serialised by fft_lock: a plan's
 * work area (cuFFT's own, allocated with the plan) is not shared by two
 * transforms at once. */
#define FFT_PLANS 16
typedef struct {
    bool used;
    int dev;
    uint64_t stamp;
    tsr_kfft key;
    cufftHandle h;
} FftPlan;
static FftPlan fft_plans[FFT_PLANS];
static uint64_t fft_clock;
static pthread_mutex_t fft_lock = PTHREAD_MUTEX_INITIALIZER;

static bool fft_same_plan(const tsr_kfft &a, const tsr_kfft &b)
{
    if (a.type != b.type || a.dtype != b.dtype || a.rank != b.rank || a.batch != b.batch || a.istride != b.istride ||
        a.idist != b.idist || a.ostride != b.ostride || a.odist != b.odist)
        return false;
    for (int d = 0; d < a.rank; d++)
        if (a.n[d] != b.n[d] || a.inembed[d] != b.inembed[d] || a.onembed[d] != b.onembed[d]) return false;
    return true;
}

static const char *cufft_name(cufftResult r)
{
    switch (r) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    default: return "CUFFT_UNKNOWN_ERROR";
    }
}

/* PyTorch's CUFFT_CHECK wording (CuFFTUtils.h). */
static int cufft_check(cufftResult r)
{
    if (r == CUFFT_SUCCESS) return 0;
    char msg[128];
    snprintf(msg, sizeof msg, "cuFFT error: %s", cufft_name(r));
    fail(msg);
    return -1;
}

static cufftType fft_cufft_type(const tsr_kfft &f)
{
    bool d = f.dtype == TSR_KD_FLOAT64;
    switch (f.type) {
    case TSR_KFFT_R2C: return d ? CUFFT_D2Z : CUFFT_R2C;
    case TSR_KFFT_C2R: return d ? CUFFT_Z2D : CUFFT_C2R;
    default: return d ? CUFFT_Z2Z : CUFFT_C2C;
    }
}

/* The plan of f on device dev (current), from the cache or made; with
 * fft_lock held. -1 with an error recorded. */
static int fft_plan(const tsr_kfft &f, int dev, cufftHandle *out)
{
    FftPlan *slot = NULL;
    for (int i = 0; i < FFT_PLANS; i++) {
        FftPlan *p = &fft_plans[i];
        if (p->used && p->dev == dev && fft_same_plan(p->key, f)) {
            p->stamp = ++fft_clock;
            *out = p->h;
            return 0;
        }
        if (!slot || !p->used || (slot->used && p->stamp < slot->stamp)) slot = p;
    }
    if (slot->used) {
        cudaSetDevice(slot->dev);
        cufftDestroy(slot->h);
        cudaSetDevice(dev);
        slot->used = false;
    }
    cufftHandle h = 0;
    if (cufft_check(cufftCreate(&h)) < 0) return -1;
    long long n[3], ie[3], oe[3];
    for (int d = 0; d < 3; d++) n[d] = f.n[d], ie[d] = f.inembed[d], oe[d] = f.onembed[d];
    size_t work = 0;
    if (cufft_check(cufftMakePlanMany64(h, f.rank, n, ie, f.istride, f.idist, oe, f.ostride, f.odist,
                                        fft_cufft_type(f), f.batch, &work)) < 0) {
        cufftDestroy(h);
        return -1;
    }
    slot->used = true;
    slot->dev = dev;
    slot->stamp = ++fft_clock;
    slot->key = f;
    slot->h = h;
    *out = h;
    return 0;
}

template <typename R> __global__ void fft_fix(tsr_kfft f, bool out, R *data, int64_t count, bool conj, R scale)
{
    int64_t step = (int64_t)blockDim.x * gridDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += step)
        kf_fix<R>(f, out, data, i, conj, scale);
}

/* conj and scale over one side of f. */
template <typename R> static int fft_fix_side(const tsr_kfft &f, bool out, bool conj, double scale)
{
    int64_t count = kf_count(f, out);
    R *data = (R *)(out ? f.out : f.in);
#ifdef TSR_CUDA_SIM
    data = sim_host(data);
#endif
    return KLAUNCH(grid_of(count, KB), KB, fft_fix<R>, f, out, data, count, conj, (R)scale);
}

static int fft_exec(const tsr_kfft &f, cufftHandle h)
{
    bool d = f.dtype == TSR_KD_FLOAT64;
    switch (f.type) {
    case TSR_KFFT_R2C:
        return cufft_check(d ? cufftExecD2Z(h, (cufftDoubleReal *)f.in, (cufftDoubleComplex *)f.out)
                             : cufftExecR2C(h, (cufftReal *)f.in, (cufftComplex *)f.out));
    case TSR_KFFT_C2R:
        return cufft_check(d ? cufftExecZ2D(h, (cufftDoubleComplex *)f.in, (cufftDoubleReal *)f.out)
                             : cufftExecC2R(h, (cufftComplex *)f.in, (cufftReal *)f.out));
    default: {
        int dir = f.forward ? CUFFT_FORWARD : CUFFT_INVERSE;
        return cufft_check(d ? cufftExecZ2Z(h, (cufftDoubleComplex *)f.in, (cufftDoubleComplex *)f.out, dir)
                             : cufftExecC2C(h, (cufftComplex *)f.in, (cufftComplex *)f.out, dir));
    }
    }
}

static int fft(const tsr_kfft *f, int index)
{
    bool ok = f->rank >= 1 && f->rank <= 3 && f->type >= TSR_KFFT_C2C && f->type <= TSR_KFFT_C2R &&
              (f->dtype == TSR_KD_FLOAT32 || f->dtype == TSR_KD_FLOAT64) && f->batch >= 1 && f->in && f->out &&
              !(f->conj_in && f->type == TSR_KFFT_R2C) && !(f->conj_out && f->type == TSR_KFFT_C2R);
    for (int d = 0; ok && d < f->rank; d++) ok = f->n[d] >= 1;
    if (!ok) {
        fail("tsr's CUDA backend has no such FFT");
        return -1;
    }
    if (set_device(index) < 0) return -1;
    if (index < 0) index = 0;
    bool dbl = f->dtype == TSR_KD_FLOAT64;
    if (f->conj_in &&
        (dbl ? fft_fix_side<double>(*f, false, true, 1.0) : fft_fix_side<float>(*f, false, true, 1.0)) < 0)
        return -1;
    pthread_mutex_lock(&fft_lock);
    cufftHandle h = 0;
    int rc = fft_plan(*f, index, &h);
    if (rc == 0) rc = fft_exec(*f, h);
    pthread_mutex_unlock(&fft_lock);
    if (rc == 0 && (f->scale != 1.0 || f->conj_out))
        rc = dbl ? fft_fix_side<double>(*f, true, f->conj_out != 0, f->scale)
                 : fft_fix_side<float>(*f, true, f->conj_out != 0, f->scale);
    return rc;
}

/* ------------------------------------------------------------ gemm */

/* cuBLAS takes int sizes: PyTorch's at::cuda::blas checks them the same way
 * (CUDABlas.cpp _cublasAdjustLdLevel3 / the gemm argument checks). */
static int gemm_check_args(const tsr_kgemm *g)
{
    const int64_t v[] = {g->m, g->n, g->k, g->lda, g->ldb, g->ldc, g->batch};
    const char *const names[] = {"m", "n", "k", "lda", "ldb", "ldc", "num_batches"};
    for (int i = 0; i < 7; i++)
        if (v[i] < 0 || v[i] > INT_MAX) {
            char msg[256];
            snprintf(msg, sizeof msg, "at::cuda::blas::gemm argument %s must be non-negative and less than %d but "
                     "got %lld", names[i], INT_MAX, (long long)v[i]);
            fail(msg);
            return -1;
        }
    return 0;
}

#ifdef TSR_CUDA_SIM
static CBLAS_TRANSPOSE sim_op(char t, bool cplx)
{
    return t == 'n' ? CblasNoTrans : t == 'c' && cplx ? CblasConjTrans : CblasTrans;
}

/* Elements one column-major operand spans: rows x cols with leading dim ld. */
static int64_t sim_span(int64_t rows, int64_t cols, int64_t ld) { return rows && cols ? ld * (cols - 1) + rows : 0; }

/* float16 / bfloat16: A, B and C widened to float, one sgemm (float
 * accumulation, as cuBLAS's CUBLAS_COMPUTE_32F), C narrowed back element by
 * element (its gaps are left alone). */
static int sim_gemm_half(const tsr_kgemm *g, const uint16_t *a, const uint16_t *b, uint16_t *c)
{
    bool half = g->dtype == TSR_KD_FLOAT16;
    int64_t ra = g->transa == 'n' ? g->m : g->k, ca = g->transa == 'n' ? g->k : g->m;
    int64_t rb = g->transb == 'n' ? g->k : g->n, cb = g->transb == 'n' ? g->n : g->k;
    int64_t na = sim_span(ra, ca, g->lda), nb = sim_span(rb, cb, g->ldb), nc = sim_span(g->m, g->n, g->ldc);
    float *fa = (float *)malloc(sizeof(float) * (size_t)(na + nb + nc + 1));
    if (!fa) { fail("CUDA error: out of memory"); return -1; }
    float *fb = fa + na, *fc = fb + nb;
    for (int64_t i = 0; i < na; i++) fa[i] = half ? k_half_to_float(a[i]) : k_bf16_to_float(a[i]);
    for (int64_t i = 0; i < nb; i++) fb[i] = half ? k_half_to_float(b[i]) : k_bf16_to_float(b[i]);
    for (int64_t i = 0; i < nc; i++) fc[i] = half ? k_half_to_float(c[i]) : k_bf16_to_float(c[i]);
    cblas_sgemm(CblasColMajor, sim_op(g->transa, false), sim_op(g->transb, false), (int)g->m, (int)g->n, (int)g->k,
                (float)g->alpha[0], fa, (int)g->lda, fb, (int)g->ldb, (float)g->beta[0], fc, (int)g->ldc);
    for (int64_t j = 0; j < g->n; j++)
        for (int64_t i = 0; i < g->m; i++) {
            float v = fc[j * g->ldc + i];
            c[j * g->ldc + i] = half ? k_float_to_half(v) : k_float_to_bf16(v);
        }
    free(fa);
    return 0;
}

static int gemm(const tsr_kgemm *g, int index)
{
    if (set_device(index) < 0 || gemm_check_args(g) < 0) return -1;
    if (!g->m || !g->n || !g->batch) return 0;
    size_t isz = g->dtype == TSR_KD_FLOAT64 || g->dtype == TSR_KD_COMPLEX64 ? 8
               : g->dtype == TSR_KD_COMPLEX128 ? 16 : g->dtype == TSR_KD_FLOAT32 ? 4 : 2;
    for (int64_t i = 0; i < g->batch; i++) {
        const char *a = sim_host((const char *)g->a) + (size_t)(i * g->stride_a) * isz;
        const char *b = sim_host((const char *)g->b) + (size_t)(i * g->stride_b) * isz;
        char *c = sim_host((char *)g->c) + (size_t)(i * g->stride_c) * isz;
        int m = (int)g->m, n = (int)g->n, k = (int)g->k, lda = (int)g->lda, ldb = (int)g->ldb, ldc = (int)g->ldc;
        switch (g->dtype) {
        case TSR_KD_FLOAT32:
            cblas_sgemm(CblasColMajor, sim_op(g->transa, false), sim_op(g->transb, false), m, n, k,
                        (float)g->alpha[0], (const float *)a, lda, (const float *)b, ldb, (float)g->beta[0],
                        (float *)c, ldc);
            break;
        case TSR_KD_FLOAT64:
            cblas_dgemm(CblasColMajor, sim_op(g->transa, false), sim_op(g->transb, false), m, n, k, g->alpha[0],
                        (const double *)a, lda, (const double *)b, ldb, g->beta[0], (double *)c, ldc);
            break;
        case TSR_KD_COMPLEX64: {
            float al[2] = {(float)g->alpha[0], (float)g->alpha[1]}, be[2] = {(float)g->beta[0], (float)g->beta[1]};
            cblas_cgemm(CblasColMajor, sim_op(g->transa, true), sim_op(g->transb, true), m, n, k, al, a, lda, b, ldb,
                        be, c, ldc);
            break;
        }
        case TSR_KD_COMPLEX128:
            cblas_zgemm(CblasColMajor, sim_op(g->transa, true), sim_op(g->transb, true), m, n, k, g->alpha, a, lda,
                        b, ldb, g->beta, c, ldc);
            break;
        case TSR_KD_FLOAT16:
        case TSR_KD_BFLOAT16:
            if (sim_gemm_half(g, (const uint16_t *)a, (const uint16_t *)b, (uint16_t *)c) < 0) return -1;
            break;
        default: fail("tsr's CUDA backend has no gemm for this dtype"); return -1;
        }
    }
    return 0;
}
#else
static cublasHandle_t handles[MAX_DEVICES];

static int cublas_check(cublasStatus_t st, const char *call)
{
    if (st == CUBLAS_STATUS_SUCCESS) return 0;
    char msg[256];
    snprintf(msg, sizeof msg, "CUDA error: %s when calling `%s`", cublasGetStatusName(st), call);
    fail(msg);
    return -1;
}

/* The device's handle (current device set), created on first use, on the
 * default stream as the elementwise kernels. PyTorch 1.13's handle math
 * mode: CUBLAS_DEFAULT_MATH (torch.backends.cuda.matmul.allow_tf32 is False). */
static cublasHandle_t get_handle(int index)
{
    pthread_mutex_lock(&lock);
    cublasHandle_t h = handles[index];
    if (!h) {
        if (cublas_check(cublasCreate(&h), "cublasCreate(handle)") == 0) {
            cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
            handles[index] = h;
        } else {
            h = NULL;
        }
    }
    pthread_mutex_unlock(&lock);
    return h;
}

static cublasOperation_t cu_op(char t) { return t == 'n' ? CUBLAS_OP_N : t == 'c' ? CUBLAS_OP_C : CUBLAS_OP_T; }

/* at::cuda::blas::gemm / bgemm of 1.13 (CUDABlas.cpp): float32 in
 * CUBLAS_COMPUTE_32F without TF32, float64 in 64F, float16 and bfloat16
 * stored as CUDA_R_16F / CUDA_R_16BF and computed in 32F with tensor ops
 * (allow_fp16_reduced_precision_reduction is True in 1.13: no
 * CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION), complex in 32F / 64F. */
static int gemm(const tsr_kgemm *g, int index)
{
    if (set_device(index) < 0 || gemm_check_args(g) < 0) return -1;
    if (!g->m || !g->n || !g->batch) return 0;
    if (index < 0) index = 0;
    if (index >= MAX_DEVICES) { fail("CUDA error: invalid device ordinal"); return -1; }
    cublasHandle_t h = get_handle(index);
    if (!h) return -1;
    cudaDataType_t t;
    cublasComputeType_t ct;
    cublasGemmAlgo_t algo = CUBLAS_GEMM_DEFAULT;
    float af[2] = {(float)g->alpha[0], (float)g->alpha[1]}, bf[2] = {(float)g->beta[0], (float)g->beta[1]};
    const void *al = af, *be = bf;
    switch (g->dtype) {
    case TSR_KD_FLOAT32: t = CUDA_R_32F; ct = CUBLAS_COMPUTE_32F; break;
    case TSR_KD_FLOAT64: t = CUDA_R_64F; ct = CUBLAS_COMPUTE_64F; al = g->alpha; be = g->beta; break;
    case TSR_KD_FLOAT16: t = CUDA_R_16F; ct = CUBLAS_COMPUTE_32F; algo = CUBLAS_GEMM_DEFAULT_TENSOR_OP; break;
    case TSR_KD_BFLOAT16: t = CUDA_R_16BF; ct = CUBLAS_COMPUTE_32F; algo = CUBLAS_GEMM_DEFAULT_TENSOR_OP; break;
    case TSR_KD_COMPLEX64: t = CUDA_C_32F; ct = CUBLAS_COMPUTE_32F; break;
    case TSR_KD_COMPLEX128: t = CUDA_C_64F; ct = CUBLAS_COMPUTE_64F; al = g->alpha; be = g->beta; break;
    default: fail("tsr's CUDA backend has no gemm for this dtype"); return -1;
    }
    cublasOperation_t ta = cu_op(g->transa), tb = cu_op(g->transb);
    int m = (int)g->m, n = (int)g->n, k = (int)g->k, lda = (int)g->lda, ldb = (int)g->ldb, ldc = (int)g->ldc;
    if (g->batch == 1)
        return cublas_check(cublasGemmEx(h, ta, tb, m, n, k, al, g->a, t, lda, g->b, t, ldb, be, g->c, t, ldc, ct,
                                         algo),
                            "cublasGemmEx(handle, opa, opb, m, n, k, &alpha, a, type, lda, b, type, ldb, &beta, c, "
                            "type, ldc, compute_type, algo)");
    return cublas_check(cublasGemmStridedBatchedEx(h, ta, tb, m, n, k, al, g->a, t, lda, (long long)g->stride_a, g->b,
                                                   t, ldb, (long long)g->stride_b, be, g->c, t, ldc,
                                                   (long long)g->stride_c, (int)g->batch, ct, algo),
                        "cublasGemmStridedBatchedEx(handle, opa, opb, m, n, k, &alpha, a, type, lda, stridea, b, "
                        "type, ldb, strideb, &beta, c, type, ldc, stridec, num_batches, compute_type, algo)");
}
#endif

#include "linalg.h"
/* ------------------------------------------------------------ scans and sorts */

template <typename C> __global__ void scan_cum(tsr_kscan g, int64_t rows)
{
    int64_t step = (int64_t)blockDim.x * gridDim.x;
    for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += step) {
        if (g.op == TSR_KS_CUMMAX || g.op == TSR_KS_CUMMIN) ks_cummax_row<C>(g, r);
        else ks_cum_row<C>(g, r);
    }
}

template <typename F> __global__ void scan_cum_complex(tsr_kscan g, int64_t rows)
{
    int64_t step = (int64_t)blockDim.x * gridDim.x;
    for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += step) ks_cum_row_complex<F>(g, r);
}

template <typename K> __global__ void scan_sort(tsr_kscan g, int64_t rows, char *scratch)
{
    int64_t step = (int64_t)blockDim.x * gridDim.x;
    for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += step) ks_sort_op<K>(g, r, scratch);
}

template <typename K> __global__ void scan_search(tsr_kscan g, int64_t nvalues)
{
    int64_t step = (int64_t)blockDim.x * gridDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nvalues; i += step) ks_search<K>(g, i);
}

static bool has_scan(int op, int dtype) { return ks_supported(op, dtype); }

/* One thread per row (per value for SEARCH); the sorts' scratch comes from
 * the caching allocator and goes back to it after the launch (the next
 * user of the block runs after this kernel on the default stream). */
static int scan_launch(const tsr_kscan *g0, int dev)
{
    if (!has_scan(g0->op, g0->dtype) || g0->outer < 0 || g0->n < 0 || g0->inner < 0) {
        fail("tsr's CUDA backend has no such scan kernel");
        return -1;
    }
    int64_t rows = g0->outer * g0->inner;
    if (g0->op == TSR_KS_SEARCH) rows = (g0->shared ? 1 : g0->outer) * g0->inner;
    if (rows == 0 || (g0->n == 0 && g0->op != TSR_KS_SEARCH)) return 0;
    if (set_device(dev) < 0) return -1;
    tsr_kscan g = *g0;
#ifdef TSR_CUDA_SIM
    for (int k = 0; k < 5; k++)
        if (g.data[k]) g.data[k] = sim_host(g.data[k]);
#endif
    unsigned grid = grid_of(rows, KB);
    bool fl = ks_floating(g.dtype);
    switch (g.op) {
    case TSR_KS_SEARCH:
        return fl ? KLAUNCH(grid, KB, scan_search<double>, g, rows) : KLAUNCH(grid, KB, scan_search<int64_t>, g, rows);
    case TSR_KS_SORT: case TSR_KS_KTHVALUE: case TSR_KS_MEDIAN: case TSR_KS_NANMEDIAN: case TSR_KS_MODE: {
        size_t bytes = (size_t)rows * (size_t)g.n * 32;
        char *scratch = (char *)alloc(bytes, dev);
        if (!scratch) return -1;
#ifdef TSR_CUDA_SIM
        char *ks = sim_host(scratch);
#else
        char *ks = scratch;
#endif
        int rc = fl ? KLAUNCH(grid, KB, scan_sort<double>, g, rows, ks) : KLAUNCH(grid, KB, scan_sort<int64_t>, g, rows, ks);
        release(scratch, bytes, dev);
        return rc;
    }
    default:
        if (g.dtype == TSR_KD_COMPLEX64) return KLAUNCH(grid, KB, scan_cum_complex<float>, g, rows);
        if (g.dtype == TSR_KD_COMPLEX128) return KLAUNCH(grid, KB, scan_cum_complex<double>, g, rows);
        switch (k_ctype(g.dtype)) {
        case 0: case 3: return KLAUNCH(grid, KB, scan_cum<int64_t>, g, rows);
        case 1: return KLAUNCH(grid, KB, scan_cum<float>, g, rows);
        default: return KLAUNCH(grid, KB, scan_cum<double>, g, rows);
        }
    }
}

static tsr_backend backend;

extern "C" __attribute__((visibility("default"))) const tsr_backend *tsr_cuda_backend_open(int abi,
                                                                                            const tsr_backend_host *h)
{
    if (abi != TSR_BACKEND_ABI || !h) return NULL;
    host = h;
#ifdef TSR_CUDA_SIM
    backend.name = "cuda (simulated)";
#else
    backend.name = "cuda";
#endif
    backend.alloc = alloc;
    backend.free = release;
    backend.copy = copy;
    backend.device_count = device_count;
    backend.init = init;
    backend.computes = true;
    backend.memory_stat = memory_stat;
    backend.empty_cache = empty_cache;
    backend.synchronize = synchronize;
    backend.launch = launch;
    backend.has_kernel = has_kernel;
    backend.memset = memset_;
    backend.properties = properties;
    backend.mem_info = mem_info;
    backend.reduce = reduce;
    backend.has_reduce = has_reduce;
    backend.gemm = gemm;
    backend.index = index_launch;
    backend.has_index = has_index;
    backend.random = random_;
    backend.linalg = linalg;
    backend.scan = scan_launch;
    backend.has_scan = has_scan;
    backend.fft = fft;
    return &backend;
}
