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
 * loops are exercised as launched. TSR_CUDA_SIM_DEVICES (default 1) sets the
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

#endif
