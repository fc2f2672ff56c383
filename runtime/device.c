/* runtime/device.c — torch.device parsing (c10/core/Device.cpp state machine,
 * SEMANTICS.md §5.1) and the backend table. cpu and meta are built in; the
 * CUDA backend is a shared object (cuda/) loaded with dlopen on first use, so
 * the tsr binary links no CUDA library and runs where there is none. */
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "alloc.h"
#include "device.h"
#include "error.h"

static const char *const type_names[TSR_DEV_TYPE_COUNT] = {   /* ORDER DEVTYPE */
    "cpu", "cuda", "mkldnn", "opengl", "opencl", "ideep", "hip", "fpga", "ort", "xla",
    "vulkan", "metal", "xpu", "mps", "meta", "hpu", "ve", "lazy", "ipu", "privateuseone",
};
_Static_assert(sizeof type_names / sizeof type_names[0] == TSR_DEV_TYPE_COUNT, "type_names");

static const char *const backend_names[TSR_DEV_TYPE_COUNT] = {   /* ORDER DEVTYPE */
    "CPU", "CUDA", "MKLDNN", "OPENGL", "OPENCL", "IDEEP", "HIP", "FPGA", "ORT", "XLA",
    "Vulkan", "Metal", "XPU", "MPS", "Meta", "HPU", "VE", "Lazy", "IPU", "PrivateUse1",
};
_Static_assert(sizeof backend_names / sizeof backend_names[0] == TSR_DEV_TYPE_COUNT, "backend_names");

/* The names the parser accepts, in the order of PyTorch's error message. */
static const struct { const char *name; tsr_device_type type; } parse_types[] = {
    {"cpu", TSR_DEV_CPU}, {"cuda", TSR_DEV_CUDA}, {"ipu", TSR_DEV_IPU}, {"xpu", TSR_DEV_XPU},
    {"mkldnn", TSR_DEV_MKLDNN}, {"opengl", TSR_DEV_OPENGL}, {"opencl", TSR_DEV_OPENCL},
    {"ideep", TSR_DEV_IDEEP}, {"hip", TSR_DEV_HIP}, {"ve", TSR_DEV_VE}, {"fpga", TSR_DEV_FPGA},
    {"ort", TSR_DEV_ORT}, {"xla", TSR_DEV_XLA}, {"lazy", TSR_DEV_LAZY}, {"vulkan", TSR_DEV_VULKAN},
    {"mps", TSR_DEV_MPS}, {"meta", TSR_DEV_META}, {"hpu", TSR_DEV_HPU},
    {"privateuseone", TSR_DEV_PRIVATEUSEONE},
};

const char *tsr_device_type_name(tsr_device_type t)
{
    return (unsigned)t < TSR_DEV_TYPE_COUNT ? type_names[t] : "unknown";
}

const char *tsr_device_backend_name(tsr_device_type t)
{
    return (unsigned)t < TSR_DEV_TYPE_COUNT ? backend_names[t] : "Undefined";
}

static int lookup_type(const char *name, const char *whole, tsr_device_type *out)
{
    for (size_t i = 0; i < sizeof parse_types / sizeof parse_types[0]; i++)
        if (strcmp(name, parse_types[i].name) == 0) {
            *out = parse_types[i].type;
            return 0;
        }
    tsr_error_set(TSR_ERR_RUNTIME,
                  "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, "
                  "ort, xla, lazy, vulkan, mps, meta, hpu, privateuseone device type at start of "
                  "device string: %s", whole);
    return -1;
}

int tsr_device_parse(const char *s, tsr_device *out)
{
    if (!s || !*s) {
        tsr_error_set(TSR_ERR_RUNTIME, "Device string must not be empty");
        return -1;
    }
    size_t len = strlen(s);
    char name[64], idx[64];
    size_t nn = 0, ni = 0;
    enum { START, INDEX_START, INDEX_REST, ERROR } st = START;
    for (size_t i = 0; i < len && st != ERROR; i++) {
        unsigned char ch = (unsigned char)s[i];
        switch (st) {
        case START:
            if (ch == ':') st = INDEX_START;
            else if ((isalpha(ch) || ch == '_') && nn + 1 < sizeof name) name[nn++] = (char)ch;
            else st = ERROR;
            break;
        case INDEX_START:
            if (isdigit(ch) && ni + 1 < sizeof idx) { idx[ni++] = (char)ch; st = INDEX_REST; }
            else st = ERROR;
            break;
        case INDEX_REST:
            if (idx[0] == '0') st = ERROR;
            else if (isdigit(ch) && ni + 1 < sizeof idx) idx[ni++] = (char)ch;
            else st = ERROR;
            break;
        case ERROR: break;
        }
    }
    name[nn] = 0;
    idx[ni] = 0;
    if (nn == 0 || st == ERROR || (st == INDEX_START && ni == 0)) {
        tsr_error_set(TSR_ERR_RUNTIME, "Invalid device string: '%s'", s);
        return -1;
    }
    int index = -1;
    if (ni) {
        errno = 0;
        long long v = strtoll(idx, NULL, 10);
        if (errno || v > 2147483647LL) {
            tsr_error_set(TSR_ERR_RUNTIME, "Could not parse device index '%s' in device string '%s'", idx, s);
            return -1;
        }
        /* Deviation (SEMANTICS.md §5.1): 1.13 stores the index in an int8 and
         * prints garbage above 127; tsr rejects those indices instead. */
        if (v > 127) {
            tsr_error_set(TSR_ERR_RUNTIME, "Device index must be at most 127, got %lld", v);
            return -1;
        }
        index = (int)v;
    }
    tsr_device_type t;
    if (lookup_type(name, s, &t) < 0) return -1;
    out->type = t;
    out->index = index;
    return 0;
}

int tsr_device_make(const char *type_str, int64_t index, tsr_device *out)
{
    tsr_device d;
    if (tsr_device_parse(type_str, &d) < 0) return -1;
    if (d.index >= 0) {
        tsr_error_set(TSR_ERR_RUNTIME,
                      "type (string) must not include an index because index was passed explicitly: %s",
                      type_str);
        return -1;
    }
    if (index < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "Device index must not be negative");
        return -1;
    }
    if (index > 127) {
        tsr_error_set(TSR_ERR_RUNTIME, "Device index must be at most 127, got %lld", (long long)index);
        return -1;
    }
    d.index = (int)index;
    *out = d;
    return 0;
}

char *tsr_device_str(tsr_device d, char *buf, size_t n)
{
    if (d.index >= 0) snprintf(buf, n, "%s:%d", tsr_device_type_name(d.type), d.index);
    else snprintf(buf, n, "%s", tsr_device_type_name(d.type));
    return buf;
}

bool tsr_device_equal(tsr_device a, tsr_device b) { return a.type == b.type && a.index == b.index; }

static int current[TSR_DEV_TYPE_COUNT];

int tsr_device_current(tsr_device_type t) { return (unsigned)t < TSR_DEV_TYPE_COUNT ? current[t] : 0; }

void tsr_device_set_current(tsr_device_type t, int index)
{
    if ((unsigned)t < TSR_DEV_TYPE_COUNT && index >= 0) current[t] = index;
}

tsr_device tsr_device_normalize(tsr_device d)
{
    if (d.type == TSR_DEV_CPU || d.type == TSR_DEV_META) d.index = -1;
    else if (d.index < 0) d.index = tsr_device_current(d.type);
    return d;
}

bool tsr_device_is_meta(tsr_device d) { return d.type == TSR_DEV_META; }

/* ---- backends ---- */

#define UNUSED __attribute__((unused))
static void *cpu_alloc(size_t nbytes, int index UNUSED) { return tsr_cpu_alloc(nbytes); }
static void cpu_free(void *p, size_t nbytes, int index UNUSED) { tsr_cpu_free(p, nbytes); }
static int cpu_copy(void *dst, tsr_device dd UNUSED, const void *src, tsr_device sd UNUSED, size_t nbytes)
{
    memmove(dst, src, nbytes);
    return 0;
}
static int one(void) { return 1; }
static const tsr_backend cpu_backend = {"cpu", cpu_alloc, cpu_free, cpu_copy, one, .computes = true};

static void *meta_alloc(size_t nbytes UNUSED, int index UNUSED) { return NULL; }
static void meta_free(void *p UNUSED, size_t nbytes UNUSED, int index UNUSED) {}
static int meta_copy(void *dst UNUSED, tsr_device dd, const void *src UNUSED, tsr_device sd, size_t nbytes UNUSED)
{
    if (sd.type == TSR_DEV_META && dd.type != TSR_DEV_META) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
        return -1;
    }
    return 0;
}
static const tsr_backend meta_backend = {"meta", meta_alloc, meta_free, meta_copy, one, .computes = true};

static const tsr_backend *backends[TSR_DEV_TYPE_COUNT] = {
    [TSR_DEV_CPU] = &cpu_backend,
    [TSR_DEV_META] = &meta_backend,
};

void tsr_device_register_backend(tsr_device_type t, const tsr_backend *b)
{
    if ((unsigned)t < TSR_DEV_TYPE_COUNT) backends[t] = b;
}

/* ---- the CUDA backend, loaded on first use ---- */

static bool cuda_tried;
static char cuda_status[PATH_MAX + 256] = "not built";

static void host_error_set(int kind, const char *msg) { tsr_error_set((tsr_errkind)kind, "%s", msg); }
static const tsr_backend_host host_api = {host_error_set};

/* dir of /proc/self/exe + rel into buf; false when it does not fit. */
static bool beside_exe(char *buf, size_t n, const char *rel)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) return false;
    exe[len] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return false;
    *slash = 0;
    return (size_t)snprintf(buf, n, "%s/%s", exe, rel) < n;
}

static void load_cuda(void)
{
    cuda_tried = true;
    const char *env = getenv("TSR_CUDA");
    if (env && !strcmp(env, "0")) {
        snprintf(cuda_status, sizeof cuda_status, "disabled (TSR_CUDA=0)");
        return;
    }
    /* TSR_CUDA=sim: the backend built over the emulated CUDA runtime (tests) */
    bool sim = env && !strcmp(env, "sim");
    static const char *const rel[] = {"libtsr_cuda.so", "../lib/tsr/libtsr_cuda.so"};
    static const char *const rel_sim[] = {"libtsr_cuda_sim.so"};
    const char *const *names = sim ? rel_sim : rel;
    unsigned nnames = sim ? 1 : sizeof rel / sizeof *rel;
    for (unsigned i = 0; i < nnames; i++) {
        char path[PATH_MAX];
        if (!beside_exe(path, sizeof path, names[i]) || access(path, F_OK) != 0) continue;
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            snprintf(cuda_status, sizeof cuda_status, "%s", dlerror());
            return;
        }
        tsr_cuda_open_fn open_fn;
        *(void **)&open_fn = dlsym(h, TSR_CUDA_OPEN_SYMBOL);
        const tsr_backend *b = open_fn ? open_fn(TSR_BACKEND_ABI, &host_api) : NULL;
        if (!b) {
            snprintf(cuda_status, sizeof cuda_status, "%s: %s", path,
                     open_fn ? "built for another tsr (backend ABI differs)" : "no " TSR_CUDA_OPEN_SYMBOL);
            dlclose(h);
            return;
        }
        backends[TSR_DEV_CUDA] = b;   /* the handle stays open for the process */
        snprintf(cuda_status, sizeof cuda_status, "loaded from %s", path);
        return;
    }
}

const char *tsr_device_cuda_status(void)
{
    if (!cuda_tried && !backends[TSR_DEV_CUDA]) load_cuda();
    return cuda_status;
}

void tsr_error_no_kernel(const char *op, const char *backend, const char *kernels)
{
    tsr_error_set(TSR_ERR_NOT_IMPLEMENTED,
                  "Could not run '%s' with arguments from the '%s' backend. This could be because the operator "
                  "doesn't exist for this backend, or was omitted during the selective/custom build process (if "
                  "using custom build). If you are a Facebook employee using PyTorch on mobile, please visit "
                  "https://fburl.com/ptmfixes for possible resolutions. '%s' is only available for these "
                  "backends: [%s%sBackendSelect, Python, FuncTorchDynamicLayerBackMode, Functionalize, Named, "
                  "Conjugate, Negative, ZeroTensor, ADInplaceOrView, AutogradOther, AutogradCPU, AutogradCUDA, "
                  "AutogradHIP, AutogradXLA, AutogradMPS, AutogradIPU, AutogradXPU, AutogradHPU, AutogradVE, "
                  "AutogradLazy, AutogradMeta, AutogradPrivateUse1, AutogradPrivateUse2, AutogradPrivateUse3, "
                  "AutogradNestedTensor, Tracer, AutocastCPU, AutocastCUDA, FuncTorchBatched, FuncTorchVmapMode, "
                  "Batched, VmapMode, FuncTorchGradWrapper, PythonTLSSnapshot, FuncTorchDynamicLayerFrontMode, "
                  "PythonDispatcher].",
                  op, backend, op, kernels ? kernels : "", kernels && *kernels ? ", " : "");
}

const tsr_backend *tsr_device_backend(tsr_device d)
{
    if ((unsigned)d.type >= TSR_DEV_TYPE_COUNT) {
        tsr_error_set(TSR_ERR_RUNTIME, "unknown device type %d", (int)d.type);
        return NULL;
    }
    if (d.type == TSR_DEV_CUDA && !backends[d.type] && !cuda_tried) load_cuda();
    if (backends[d.type]) return backends[d.type];
    if (d.type == TSR_DEV_CUDA) {
        tsr_error_set(TSR_ERR_ASSERTION, "Torch not compiled with CUDA enabled");
        return NULL;
    }
    tsr_error_no_kernel("aten::empty.memory_format", backend_names[d.type],
                        "CPU, Meta, QuantizedCPU, QuantizedMeta, MkldnnCPU, SparseCPU, SparseMeta, SparseCsrCPU");
    return NULL;
}
