/* cuda/backend.cu — the CUDA backend, built by nvcc into libtsr_cuda.so and
 * loaded by runtime/device.c with dlopen on first use of a cuda device: the
 * driver check of torch.cuda._lazy_init with PyTorch's messages, a caching
 * allocator on cudaMalloc (blocks kept by size class and reused, as
 * c10/cuda/CUDACachingAllocator.cpp does), host<->device and peer copies,
 * the memory statistics torch.cuda reports, and the elementwise kernels of
 * runtime/kernels.h (bodies in cuda/kern.h), one grid-stride kernel per
 * kernel and compute type on the default stream.
 *
 * Built with g++ and -DTSR_CUDA_SIM instead, the same source is
 * libtsr_cuda_sim.so: the CUDA runtime calls come from cuda/sim_runtime.h,
 * which runs the kernels on the host over memory the host's own code cannot
 * touch (TSR_CUDA=sim), so that every host-side path is tested without a
 * GPU. */
#ifdef TSR_CUDA_SIM
#include "sim_runtime.h"
#else
#include <cuda_runtime.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "device.h"
#include "error.h"
}
#include "kern.h"
#include "rng.h"

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

template <int K, typename C> static int launch_kc(const tsr_klaunch &g0)
{
    tsr_klaunch g = g0;
    const unsigned block = 256;
    int64_t blocks = (g.numel + block - 1) / block;
    if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
#ifdef TSR_CUDA_SIM
    for (int k = 0; k < g.nops; k++)
        if (g.data[k]) g.data[k] = sim_host(g.data[k]);
    sim_launch((unsigned)blocks, block, [&] { elementwise<K, C>(g); });
    return 0;
#else
    elementwise<K, C><<<(unsigned)blocks, block>>>(g);
    return cuda_check(cudaGetLastError());
#endif
}

template <int K> static int launch_k(const tsr_klaunch &g)
{
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

static bool has_kernel(int kernel, int compute) { return k_supported(kernel, k_ctype(compute)); }

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
    case TSR_KR_UNIFORM:
        return wide ? launch_random<TSR_KR_UNIFORM, double, 2>(*r) : launch_random<TSR_KR_UNIFORM, float, 4>(*r);
    case TSR_KR_NORMAL:
        return wide ? launch_random<TSR_KR_NORMAL, double, 2>(*r) : launch_random<TSR_KR_NORMAL, float, 4>(*r);
    case TSR_KR_EXPONENTIAL:
        return wide ? launch_random<TSR_KR_EXPONENTIAL, double, 2>(*r)
                    : launch_random<TSR_KR_EXPONENTIAL, float, 4>(*r);
    case TSR_KR_BERNOULLI:
        return wide ? launch_random<TSR_KR_BERNOULLI, double, 2>(*r) : launch_random<TSR_KR_BERNOULLI, float, 4>(*r);
    case TSR_KR_FROM_TO:
        return wide ? launch_random<TSR_KR_FROM_TO, uint64_t, 2>(*r) : launch_random<TSR_KR_FROM_TO, uint32_t, 4>(*r);
    case TSR_KR_FULL_RANGE:
        return launch_random<TSR_KR_FULL_RANGE, uint64_t, 2>(*r);
    case TSR_KR_LOG_NORMAL:
        return wide ? launch_random<TSR_KR_LOG_NORMAL, double, 2>(*r) : launch_random<TSR_KR_LOG_NORMAL, float, 4>(*r);
    case TSR_KR_CAUCHY:
        return wide ? launch_random<TSR_KR_CAUCHY, double, 2>(*r) : launch_random<TSR_KR_CAUCHY, float, 4>(*r);
    case TSR_KR_GEOMETRIC:
        return wide ? launch_random<TSR_KR_GEOMETRIC, double, 2>(*r) : launch_random<TSR_KR_GEOMETRIC, float, 4>(*r);
    case TSR_KR_BERNOULLI_P:
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
    backend.random = random_;
    return &backend;
}
