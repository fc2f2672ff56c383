/* cuda/sim_runtime.h — the part of the CUDA runtime that cuda/backend.cu
 * uses, emulated on the host, so that the same backend source builds with
 * g++ into libtsr_cuda_sim.so: a CUDA device without a GPU, for testing
 * everything but the GPU itself (TSR_CUDA=sim loads it).
 *
 * Device memory is one memfd arena mapped twice: the addresses the backend
 * hands to tsr are a PROT_NONE mapping, so any host code that reads or
 * writes a cuda tensor's memory directly crashes, as it would on a real GPU;
 * kernels and copies reach the memory through the second, writable mapping
 * (sim_host()). Kernels run on the calling thread, every block and thread of
 * the grid in turn, so grid-stride
 * loops are exercised as launched; a block whose threads cooperate runs
 * them as fibers (sim_launch_blocks, below). TSR_CUDA_SIM_DEVICES (default 1) sets the
 * device count, TSR_CUDA_SIM_MEMORY the arena's size in MiB (default 4096). */
#ifndef TSR_CUDA_SIM_RUNTIME_H
#define TSR_CUDA_SIM_RUNTIME_H
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
/* plain statics, not thread_local: kernels run on the thread that launches
 * them, one launch at a time (and LeakSanitizer mis-scans the dynamic TLS of a
 * dlopened library) */
static dim3 threadIdx, blockIdx, blockDim, gridDim;

typedef enum {
    cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2, cudaErrorInitializationError = 3,
    cudaErrorInsufficientDriver = 35, cudaErrorNoDevice = 100, cudaErrorInvalidDevice = 101,
} cudaError_t;
typedef enum { cudaMemcpyDefault = 4 } cudaMemcpyKind;

struct SimFree { size_t off, size; SimFree *next; };
static struct {
    pthread_once_t once;
    char *dev, *host;             /* the two mappings of the arena */
    size_t size, top;             /* bytes, bytes handed out so far */
    SimFree *free_list;
    int ndev, current;
    cudaError_t last;
    pthread_mutex_t lock;
} sim = {PTHREAD_ONCE_INIT, NULL, NULL, 0, 0, NULL, 0, 0, cudaSuccess, PTHREAD_MUTEX_INITIALIZER};

static void sim_init(void)
{
    const char *d = getenv("TSR_CUDA_SIM_DEVICES"), *m = getenv("TSR_CUDA_SIM_MEMORY");
    sim.ndev = d ? atoi(d) : 1;
    if (sim.ndev < 0) sim.ndev = 0;
    sim.size = (size_t)(m && atol(m) > 0 ? atol(m) : 4096) << 20;
    int fd = memfd_create("tsr-cuda-sim", 0);
    if (fd < 0 || ftruncate(fd, (off_t)sim.size) < 0) {
        sim.size = 0;
        if (fd >= 0) close(fd);
        return;
    }
    void *dv = mmap(NULL, sim.size, PROT_NONE, MAP_SHARED, fd, 0);
    void *hv = mmap(NULL, sim.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (dv == MAP_FAILED || hv == MAP_FAILED) {
        sim.size = 0;
        return;
    }
    sim.dev = (char *)dv;
    sim.host = (char *)hv;
}

static inline void sim_ready(void) { pthread_once(&sim.once, sim_init); }

static inline bool sim_is_dev(const void *p)
{
    return sim.dev && (const char *)p >= sim.dev && (const char *)p < sim.dev + sim.size;
}

/* The host's view of a device address (and any other address unchanged). */
template <typename T> static inline T *sim_host(T *p)
{
    return sim_is_dev(p) ? (T *)(sim.host + ((const char *)p - sim.dev)) : p;
}

static inline cudaError_t sim_err(cudaError_t e) { return (sim.last = e); }

static inline cudaError_t cudaGetDeviceCount(int *n)
{
    sim_ready();
    *n = sim.ndev;
    return sim_err(sim.ndev > 0 ? cudaSuccess : cudaErrorNoDevice);
}
static inline cudaError_t cudaDriverGetVersion(int *v) { *v = 12000; return cudaSuccess; }
static inline cudaError_t cudaSetDevice(int i)
{
    sim_ready();
    if (i < 0 || i >= sim.ndev) return sim_err(cudaErrorInvalidDevice);
    sim.current = i;
    return cudaSuccess;
}
static inline cudaError_t cudaGetDevice(int *i) { *i = sim.current; return cudaSuccess; }
static inline cudaError_t cudaGetLastError(void)
{
    cudaError_t e = sim.last;
    sim.last = cudaSuccess;
    return e;
}
static inline const char *cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    default: return "unknown error";
    }
}

/* Each block has a 512-byte header (in the arena) that holds its size. */
#define SIM_HEAD 512
static inline cudaError_t cudaMalloc(void **p, size_t n)
{
    sim_ready();
    *p = NULL;
    n = (n + 511) & ~(size_t)511;
    pthread_mutex_lock(&sim.lock);
    for (SimFree **f = &sim.free_list; *f; f = &(*f)->next)
        if ((*f)->size == n) {
            SimFree *b = *f;
            *f = b->next;
            *p = sim.dev + b->off + SIM_HEAD;
            free(b);
            pthread_mutex_unlock(&sim.lock);
            return cudaSuccess;
        }
    if (!sim.dev || sim.size - sim.top < n + SIM_HEAD) {
        pthread_mutex_unlock(&sim.lock);
        return sim_err(cudaErrorMemoryAllocation);
    }
    memcpy(sim.host + sim.top, &n, sizeof n);
    *p = sim.dev + sim.top + SIM_HEAD;
    sim.top += n + SIM_HEAD;
    pthread_mutex_unlock(&sim.lock);
    return cudaSuccess;
}

/* cudaFree of a block: kept for a later cudaMalloc of its rounded size
 * (the arena never shrinks); its bytes are scribbled over, so that a use
 * after free shows. */
static inline cudaError_t cudaFree(void *p)
{
    if (!p) return cudaSuccess;
    if (!sim_is_dev(p)) return sim_err(cudaErrorInvalidValue);
    SimFree *b = (SimFree *)malloc(sizeof *b);
    if (!b) return cudaSuccess;
    pthread_mutex_lock(&sim.lock);
    size_t off = (size_t)((char *)p - sim.dev) - SIM_HEAD, size;
    memcpy(&size, sim.host + off, sizeof size);
    *b = (SimFree){off, size, sim.free_list};
    sim.free_list = b;
    memset(sim.host + off + SIM_HEAD, 0xA5, size);
    pthread_mutex_unlock(&sim.lock);
    return cudaSuccess;
}

static inline cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total)
{
    sim_ready();
    *total = sim.size;
    *free_b = sim.size - sim.top;
    return cudaSuccess;
}

/* What the simulator says of itself: an H100-like device, the arena as its memory. */
struct cudaDeviceProp {
    char name[256];
    int major, minor, multiProcessorCount, maxThreadsPerMultiProcessor;
    size_t totalGlobalMem;
};
static inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int i)
{
    sim_ready();
    if (i < 0 || i >= sim.ndev) return sim_err(cudaErrorInvalidDevice);
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "tsr simulated CUDA device");
    p->major = 9;
    p->minor = 0;
    p->multiProcessorCount = 132;
    p->maxThreadsPerMultiProcessor = 2048;
    p->totalGlobalMem = sim.size;
    return cudaSuccess;
}

static inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind kind)
{
    (void)kind;
    if (n) memmove(sim_host(dst), sim_host(src), n);
    return cudaSuccess;
}
static inline cudaError_t cudaMemset(void *p, int v, size_t n)
{
    if (n) memset(sim_host(p), v, n);
    return cudaSuccess;
}
static inline cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }

/* kernel<<<grid, block>>>(args): every block and thread in turn. */
template <typename F> static inline void sim_launch(unsigned grid, unsigned block, F body)
{
    gridDim = dim3(grid);
    blockDim = dim3(block);
    for (unsigned b = 0; b < grid; b++)
        for (unsigned t = 0; t < block; t++) {
            blockIdx = dim3(b);
            threadIdx = dim3(t);
            body();
        }
}

/* ------------------------------------------------------------ blocks as fibers */

/* Kernels that cooperate within a block (__syncthreads(), TSR_SHARED
 * memory, warp shuffles) launch through sim_launch_blocks: the threads of
 * one block run as fibers on the launching thread, each until it waits at
 * a barrier or returns, then the next; a barrier opens when every thread of
 * the block (of the warp, for a shuffle or __syncwarp) that has not
 * returned waits at it. A fiber (its stack, from one mapping made once) is
 * started with makecontext/setcontext on first use and then kept: after a
 * block it waits for the next, of this launch or a later one. Switches are
 * sigsetjmp/siglongjmp without the signal mask (swapcontext would make a
 * system call per switch), as QEMU's coroutines do; under AddressSanitizer
 * each switch is announced (__sanitizer_start_switch_fiber /
 * __sanitizer_finish_switch_fiber), as ASan's stack bookkeeping needs.
 * Plain sim_launch stays a loop of calls and refuses (aborts on) a barrier:
 * such a kernel was launched wrongly. */
#include <setjmp.h>
#include <ucontext.h>
#if defined(__SANITIZE_ADDRESS__)
#define SIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIM_ASAN 1
#endif
#endif
#ifdef SIM_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#define SIM_MAX_BLOCK 1024
#define SIM_STACK ((size_t)256 << 10)    /* per fiber; pages are touched only as used */
#define SIM_SHARED_BYTES ((size_t)64 << 10)
#define SIM_MAX_SHARED_VARS 32

enum { SIM_READY, SIM_AT_BLOCK, SIM_AT_WARP, SIM_DONE };
struct SimFiber {
    sigjmp_buf env;                     /* where it waits */
    bool started;
    int state;
    unsigned mask;                      /* SIM_AT_WARP: the lanes named */
    unsigned parity;                    /* which lane buffer its next shuffle uses */
    void *fake_stack;                   /* ASan's, while switched out */
};
static struct {
    bool active;                        /* inside sim_launch_blocks */
    unsigned nthreads, current;
    SimFiber *fiber;                    /* SIM_MAX_BLOCK of them */
    char *stacks;                       /* SIM_MAX_BLOCK * SIM_STACK, one mapping */
    sigjmp_buf main;
    void *main_fake;
    const void *main_bottom;
    size_t main_size;
    void (*call)(void *);
    void *arg;
    unsigned char *shared;              /* SIM_SHARED_BYTES, the block's __shared__ memory */
    size_t shared_used;
    struct { const void *key; void *p; size_t n; } var[SIM_MAX_SHARED_VARS];
    int nvars;
    unsigned char lane[2][SIM_MAX_BLOCK][16];   /* the shuffles' exchange, alternately */
} simb;

static inline void sim_die(const char *what)
{
    fprintf(stderr, "tsr CUDA simulator: %s\n", what);
    abort();
}

static void sim_fiber_entry(void);

/* Runs thread t of the block until it waits or returns. */
static inline void sim_enter_fiber(unsigned t)
{
    SimFiber *f = &simb.fiber[t];
    simb.current = t;
    threadIdx = dim3(t);
    if (!sigsetjmp(simb.main, 0)) {
#ifdef SIM_ASAN
        __sanitizer_start_switch_fiber(&simb.main_fake, simb.stacks + (size_t)t * SIM_STACK, SIM_STACK);
#endif
        if (f->started) siglongjmp(f->env, 1);
        f->started = true;
        ucontext_t start;
        getcontext(&start);
        start.uc_stack.ss_sp = simb.stacks + (size_t)t * SIM_STACK;
        start.uc_stack.ss_size = SIM_STACK;
        start.uc_link = NULL;
        makecontext(&start, sim_fiber_entry, 0);
        /* not swapcontext: the fiber comes back by siglongjmp (and ASan
         * warns of swapcontext, which it intercepts) */
        setcontext(&start);
        sim_die("setcontext failed");
    }
#ifdef SIM_ASAN
    __sanitizer_finish_switch_fiber(simb.main_fake, NULL, NULL);
#endif
}

/* From the current fiber back to the scheduler, until it is resumed. */
static inline void sim_leave_fiber(void)
{
    SimFiber *f = &simb.fiber[simb.current];
    if (!sigsetjmp(f->env, 0)) {
#ifdef SIM_ASAN
        __sanitizer_start_switch_fiber(&f->fake_stack, simb.main_bottom, simb.main_size);
#endif
        siglongjmp(simb.main, 1);
    }
#ifdef SIM_ASAN
    __sanitizer_finish_switch_fiber(f->fake_stack, NULL, NULL);
#endif
}

/* A fiber's life: thread current of each block it is given, then a wait. */
static void sim_fiber_entry(void)
{
#ifdef SIM_ASAN
    __sanitizer_finish_switch_fiber(NULL, &simb.main_bottom, &simb.main_size);
#endif
    for (;;) {
        simb.call(simb.arg);
        simb.fiber[simb.current].state = SIM_DONE;
        sim_leave_fiber();
    }
}

static inline void sim_blocks_ready(void)
{
    if (simb.fiber) return;
    simb.fiber = (SimFiber *)calloc(SIM_MAX_BLOCK, sizeof(SimFiber));
    void *st = mmap(NULL, SIM_MAX_BLOCK * SIM_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                    -1, 0);
    simb.shared = (unsigned char *)malloc(SIM_SHARED_BYTES);
    if (!simb.fiber || st == MAP_FAILED || !simb.shared) sim_die("no memory for the block fibers");
    simb.stacks = (char *)st;
}

/* The thread waits at a barrier: the whole block's (warp false) or its warp's lanes in mask. */
static inline void sim_wait(bool warp, unsigned mask)
{
    if (!simb.active) sim_die("__syncthreads() or a warp shuffle in a kernel not launched with sim_launch_blocks");
    SimFiber *f = &simb.fiber[simb.current];
    f->state = warp ? SIM_AT_WARP : SIM_AT_BLOCK;
    f->mask = mask;
    sim_leave_fiber();
}

/* Opens what barrier can open; false when none can (every thread returned, or a deadlock). */
static inline bool sim_open_barrier(void)
{
    unsigned n = simb.nthreads;
    bool opened = false;
    for (unsigned w = 0; w * 32 < n; w++) {   /* warps whose named live lanes all wait */
        unsigned lo = w * 32, hi = lo + 32 < n ? lo + 32 : n, waiting = 0;
        for (unsigned t = lo; t < hi; t++)
            if (simb.fiber[t].state == SIM_AT_WARP) waiting |= simb.fiber[t].mask;
        if (!waiting) continue;
        bool all = true;
        for (unsigned t = lo; t < hi; t++) {
            int s = simb.fiber[t].state;
            if ((waiting >> (t - lo) & 1) && s != SIM_DONE && s != SIM_AT_WARP) all = false;
        }
        if (!all) continue;
        for (unsigned t = lo; t < hi; t++)
            if (simb.fiber[t].state == SIM_AT_WARP) simb.fiber[t].state = SIM_READY;
        opened = true;
    }
    if (opened) return true;
    bool any = false;
    for (unsigned t = 0; t < n; t++) {
        int s = simb.fiber[t].state;
        if (s == SIM_AT_WARP || s == SIM_READY) return false;   /* a warp barrier that cannot open */
        any = any || s == SIM_AT_BLOCK;
    }
    if (!any) return false;
    for (unsigned t = 0; t < n; t++)
        if (simb.fiber[t].state == SIM_AT_BLOCK) simb.fiber[t].state = SIM_READY;
    return true;
}

template <typename F> static void sim_call_body(void *p) { (*(F *)p)(); }

/* kernel<<<grid, block>>>(args) for a kernel whose threads cooperate. */
template <typename F> static inline void sim_launch_blocks(unsigned grid, unsigned block, F body)
{
    if (block > SIM_MAX_BLOCK) sim_die("a block of more than 1024 threads");
    if (simb.active) sim_die("a launch from inside a kernel");
    sim_blocks_ready();
    gridDim = dim3(grid);
    blockDim = dim3(block);
    simb.active = true;
    simb.nthreads = block;
    simb.call = sim_call_body<F>;
    simb.arg = &body;
    for (unsigned b = 0; b < grid; b++) {
        blockIdx = dim3(b);
        simb.nvars = 0;
        simb.shared_used = 0;
        for (unsigned t = 0; t < block; t++) {
            simb.fiber[t].state = SIM_READY;
            simb.fiber[t].parity = 0;
        }
        for (;;) {
            for (unsigned t = 0; t < block; t++)
                if (simb.fiber[t].state == SIM_READY) sim_enter_fiber(t);
            if (!sim_open_barrier()) break;
        }
        for (unsigned t = 0; t < block; t++)
            if (simb.fiber[t].state != SIM_DONE) sim_die("threads of a block wait at barriers that cannot open");
    }
    simb.active = false;
}

/* __shared__ T name[count] of the declaration at key: one per block, the
 * same for every thread of it; uninitialised (scribbled) as on a GPU. */
static inline void *sim_shared(const void *key, size_t n, size_t align)
{
    if (!simb.active) sim_die("__shared__ memory in a kernel not launched with sim_launch_blocks");
    for (int k = 0; k < simb.nvars; k++)
        if (simb.var[k].key == key) return simb.var[k].p;
    size_t at = (simb.shared_used + align - 1) & ~(align - 1);
    if (simb.nvars == SIM_MAX_SHARED_VARS || at + n > SIM_SHARED_BYTES) sim_die("too much __shared__ memory");
    void *p = simb.shared + at;
    memset(p, 0xA5, n);
    simb.var[simb.nvars].key = key;
    simb.var[simb.nvars].p = p;
    simb.var[simb.nvars].n = n;
    simb.nvars++;
    simb.shared_used = at + n;
    return p;
}
#define TSR_SHARED(type, name, count)                                                                  \
    static char name##_key_;                                                                           \
    type *name = (type *)sim_shared(&name##_key_, sizeof(type) * (size_t)(count), alignof(type))

static inline void __syncthreads(void) { sim_wait(false, 0); }
static inline void __syncwarp(unsigned mask = 0xffffffffu) { sim_wait(true, mask); }

/* The value lane src of the caller's warp passed (its own when src is outside the lanes of width). */
template <typename T> static inline T sim_shfl(unsigned mask, T v, int src)
{
    static_assert(sizeof(T) <= 16, "a shuffle moves at most 16 bytes");
    /* the lanes write, wait, read; the next shuffle writes the other buffer,
     * which every lane has read by the time this one's wait opens */
    unsigned t = threadIdx.x, base = t & ~31u, k = simb.fiber[t].parity;
    simb.fiber[t].parity = k ^ 1;
    memcpy(simb.lane[k][t], &v, sizeof v);
    sim_wait(true, mask);
    T r = v;
    if (src >= 0 && base + (unsigned)src < simb.nthreads) memcpy(&r, simb.lane[k][base + src], sizeof r);
    return r;
}
template <typename T> static inline T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32)
{
    int lane = (int)(threadIdx.x & 31), seg = lane & ~(width - 1);
    int src = lane - seg + (int)delta < width ? lane + (int)delta : lane;
    return sim_shfl(mask, v, src);
}
template <typename T> static inline T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = 32)
{
    int lane = (int)(threadIdx.x & 31), seg = lane & ~(width - 1);
    int src = lane - seg >= (int)delta ? lane - (int)delta : lane;
    return sim_shfl(mask, v, src);
}
template <typename T> static inline T __shfl_xor_sync(unsigned mask, T v, int lanemask, int width = 32)
{
    int lane = (int)(threadIdx.x & 31), seg = lane & ~(width - 1), src = lane ^ lanemask;
    if (src < seg || src >= seg + width) src = lane;
    return sim_shfl(mask, v, src);
}
template <typename T> static inline T __shfl_sync(unsigned mask, T v, int srcLane, int width = 32)
{
    int lane = (int)(threadIdx.x & 31), seg = lane & ~(width - 1);
    return sim_shfl(mask, v, seg + (srcLane & (width - 1)));
}

#endif
