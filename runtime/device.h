/* runtime/device.h — device types and indices, torch.device string parsing
 * with PyTorch's messages (SEMANTICS.md §5.1), and the backend table
 * (alloc/free/copy) through which storages get memory. cpu and meta are built
 * in; meta allocates nothing; cuda errors until a backend is registered. */
#ifndef TSR_DEVICE_H
#define TSR_DEVICE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernels.h"

/* c10::DeviceType numbers. ORDER DEVTYPE */
typedef enum {
    TSR_DEV_CPU = 0, TSR_DEV_CUDA = 1, TSR_DEV_MKLDNN = 2, TSR_DEV_OPENGL = 3,
    TSR_DEV_OPENCL = 4, TSR_DEV_IDEEP = 5, TSR_DEV_HIP = 6, TSR_DEV_FPGA = 7,
    TSR_DEV_ORT = 8, TSR_DEV_XLA = 9, TSR_DEV_VULKAN = 10, TSR_DEV_METAL = 11,
    TSR_DEV_XPU = 12, TSR_DEV_MPS = 13, TSR_DEV_META = 14, TSR_DEV_HPU = 15,
    TSR_DEV_VE = 16, TSR_DEV_LAZY = 17, TSR_DEV_IPU = 18, TSR_DEV_PRIVATEUSEONE = 19,
    TSR_DEV_TYPE_COUNT
} tsr_device_type;

/* A device: type plus index; index -1 means "no index" (device(type='cpu')). */
typedef struct { tsr_device_type type; int index; } tsr_device;

#define TSR_CPU ((tsr_device){TSR_DEV_CPU, -1})
#define TSR_META ((tsr_device){TSR_DEV_META, -1})

/* Lower-case type name as str(device) prints it: "cpu", "cuda", "meta", ... */
const char *tsr_device_type_name(tsr_device_type t);
/* Backend name as C++ messages print it: "CPU", "CUDA", "Meta", "MPS", ... */
const char *tsr_device_backend_name(tsr_device_type t);
/* Parses "cpu", "cuda:1", ... (torch.device(str)). Returns 0, or -1 with
 * RuntimeError carrying PyTorch's exact message ("Device string must not be
 * empty", "Invalid device string: 'cuda:01'", "Expected one of cpu, cuda, ...
 * device type at start of device string: gpu", "Could not parse device index ..."). */
int tsr_device_parse(const char *s, tsr_device *out);
/* torch.device(type_str, index): index < 0 → "Device index must not be negative";
 * a type_str with ":N" → "type (string) must not include an index because index
 * was passed explicitly: cuda:1". Use tsr_device_parse when there is no index. */
int tsr_device_make(const char *type_str, int64_t index, tsr_device *out);
/* str(device): "cpu", "cuda:0". Writes at most n bytes (NUL included); returns buf. */
char *tsr_device_str(tsr_device d, char *buf, size_t n);
/* Equality as torch.device ==: same type and same index (cuda != cuda:0). */
bool tsr_device_equal(tsr_device a, tsr_device b);
/* The device a new tensor gets for a requested device: cpu drops its index
 * (zeros(2, device='cpu:1').device is cpu); cuda without index gets the
 * current device (torch.cuda.set_device, torch.cuda.device(i); 0 at first). */
tsr_device tsr_device_normalize(tsr_device d);
/* The current device index of a type (torch.cuda.current_device()), and
 * setting it (torch.cuda.set_device: the caller checks the index). */
int tsr_device_current(tsr_device_type t);
void tsr_device_set_current(tsr_device_type t, int index);

/* What torch.cuda.get_device_properties reports of a device. */
typedef struct tsr_device_props {
    char name[256];
    int major, minor, multi_processor_count;
    int max_threads_per_multi_processor;
    int64_t total_memory;
} tsr_device_props;

/* Backend vtable. alloc returns NULL and records an error on failure; a
 * zero-byte alloc may return NULL without error (check tsr_error_occurred).
 * The fields after device_count are optional (NULL: not offered). */
typedef struct tsr_backend {
    const char *name;
    void *(*alloc)(size_t nbytes, int index);
    void (*free)(void *p, size_t nbytes, int index);
    /* Copies nbytes between devices of which at least one is this backend's;
     * returns 0 or -1 with an error recorded. */
    int (*copy)(void *dst, tsr_device dd, const void *src, tsr_device sd, size_t nbytes);
    int (*device_count)(void);
    /* What torch.cuda._lazy_init checks: a driver and at least one device.
     * 0, or -1 with PyTorch's error recorded ("Found no NVIDIA driver on
     * your system. ...", "No CUDA GPUs are available"). */
    int (*init)(void);
    /* Whether the runtime's ops can compute on this device's memory. The
     * kernels are the host's (cpu) until a backend brings its own: a backend
     * that cannot compute holds no tensors (tsr_storage_new refuses). */
    bool computes;
    /* torch.cuda.memory_allocated and friends: TSR_MEMSTAT_* of device index. */
    int64_t (*memory_stat)(int index, int which);
    void (*empty_cache)(void);
    int (*synchronize)(int index);   /* 0, or -1 with an error recorded */
    /* The compute entries of a backend whose memory the host cannot read
     * (cuda): runs one elementwise kernel (kernels.h) on device index;
     * 0, or -1 with an error recorded. */
    int (*launch)(const tsr_klaunch *k, int index);
    /* Whether launch has kernel (a tsr_kernel_id) for that compute dtype. */
    bool (*has_kernel)(int kernel, int compute);
    /* Sets nbytes at p to the byte value; 0 or -1 with an error recorded. */
    int (*memset)(void *p, int value, size_t nbytes, int index);
    /* What torch.cuda.get_device_properties reports of device index, and
     * cudaMemGetInfo's free/total bytes; 0 or -1 with an error recorded. */
    int (*properties)(int index, tsr_device_props *out);
    int (*mem_info)(int index, int64_t *free_bytes, int64_t *total_bytes);
    /* Runs one reduction (kernels.h) on device index; 0, or -1 with an
     * error recorded. */
    int (*reduce)(const tsr_kreduce *r, int index);
    /* Whether reduce has op (a tsr_reduce_id) for that compute dtype. */
    bool (*has_reduce)(int op, int compute);
    /* The matmul family's one entry (kernels.h tsr_kgemm) on device index:
     * cuBLAS's gemm on a GPU; 0, or -1 with an error recorded. */
    int (*gemm)(const tsr_kgemm *g, int index);
    /* Runs one index launch (kernels.h) on device index: 0; 1 when an
     * index value is out of range (result[0] the value, result[1] which
     * index tensor; nothing written); NONZERO_COUNT: the count in
     * result[0]; -1 with an error recorded. */
    int (*index)(const tsr_kindex *k, int index, int64_t *result);
    /* Whether index has op (a tsr_kindex_op) for that dtype. */
    bool (*has_index)(int op, int dtype);
    /* Fills r->data on device index with one of the Philox distributions
     * (kernels.h tsr_krandom); 0, or -1 with an error recorded. */
    int (*random)(const tsr_krandom *r, int index);
    /* One factorization or solve (kernels_linalg.h) on device index, for
     * every matrix of the batch (cuSOLVER / cuBLAS trsm on a GPU); infos
     * stay in device memory. 0, or -1 with an error recorded. */
    int (*linalg)(const tsr_klinalg *l, int index);
    /* Runs one scan, sort or search launch (kernels_scan.h) on device
     * index; 0, or -1 with an error recorded. */
    int (*scan)(const tsr_kscan *k, int index);
    /* Whether scan has op (a tsr_kscan_op) for that dtype. */
    bool (*has_scan)(int op, int dtype);
    /* Runs one batched FFT (kernels.h tsr_kfft: cuFFT on a GPU, plans kept
     * in a small cache) on device index; 0, or -1 with an error recorded. */
    int (*fft)(const tsr_kfft *f, int index);
} tsr_backend;


enum { TSR_MEMSTAT_ALLOCATED, TSR_MEMSTAT_MAX_ALLOCATED, TSR_MEMSTAT_RESERVED, TSR_MEMSTAT_MAX_RESERVED };

/* What a backend shared object is handed when it is opened: the runtime's
 * error record, so that the backend reports errors in PyTorch's words. */
typedef struct tsr_backend_host {
    void (*error_set)(int kind, const char *msg);
} tsr_backend_host;

/* The CUDA backend's entry point, looked up with dlsym in libtsr_cuda.so:
 * returns its vtable (borrowed, static) or NULL when abi differs. */
#define TSR_BACKEND_ABI 9
typedef const tsr_backend *(*tsr_cuda_open_fn)(int abi, const tsr_backend_host *host);
#define TSR_CUDA_OPEN_SYMBOL "tsr_cuda_backend_open"

/* Registers (or replaces, or with NULL removes) the backend of a device type.
 * The table is borrowed and must outlive its registration. */
void tsr_device_register_backend(tsr_device_type t, const tsr_backend *b);
/* The backend of d, borrowed; NULL with an error when there is none.
 * On first use of cuda with no backend registered, the CUDA backend is
 * loaded with dlopen: libtsr_cuda.so beside the executable, or in
 * ../lib/tsr/ from it (an install), unless TSR_CUDA=0 is set; it is
 * tried once. Without it: AssertionError "Torch not compiled with CUDA
 * enabled"; other device types: NotImplementedError "Could not run
 * 'aten::empty.memory_format' with arguments from the 'MPS' backend. ..." */
const tsr_backend *tsr_device_backend(tsr_device d);
/* Sets the dispatcher's NotImplementedError for op (e.g. "aten::exp") with
 * no kernel for backend ("SparseCPU", "MPS"): kernels lists the backends
 * that have one ("CPU, Meta, SparseCPU"; NULL or "" for none), before the
 * alias keys 1.13 lists for every op (BackendSelect ... PythonDispatcher). */
void tsr_error_no_kernel(const char *op, const char *backend, const char *kernels);
/* What loading the CUDA backend gave: "not built" (no libtsr_cuda.so),
 * "disabled (TSR_CUDA=0)", "loaded from PATH", or why it failed ("PATH:
 * dlerror text"). Borrowed; loads the backend first if not yet tried. */
const char *tsr_device_cuda_status(void);
/* True when tensors on d carry no data (meta). */
bool tsr_device_is_meta(tsr_device d);

#endif
