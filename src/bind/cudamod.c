/* src/bind/cudamod.c — torch.cuda, torch.backends and torch.version as a
 * user of a CPU-only PyTorch 1.13 meets them: most of torch.cuda is Python
 * in 1.13 (torch/cuda/__init__.py, memory.py, random.py), so its argument
 * errors are CPython's for a def, its queries answer 0/False/[] without
 * initialising CUDA, and everything that must initialise it raises
 * "Torch not compiled with CUDA enabled" (AssertionError). Whether CUDA is
 * there is the runtime's answer (tsr_device_backend); with no backend
 * registered every function below gives exactly 1.13's CPU-only result. */
#include <stdlib.h>
#include <string.h>

#include "bind/areas.h"
#include "bind/bind.h"
#include "bind/tensor.h"
#include "device.h"
#include "error.h"
#include "ops/random.h"

static Value *noargs[1];

#define NOT_COMPILED "Torch not compiled with CUDA enabled"

/* The registered CUDA backend, or NULL (no error left pending). */
static const tsr_backend *cuda_backend(void)
{
    const tsr_backend *b = tsr_device_backend((tsr_device){TSR_DEV_CUDA, 0});
    tsr_error_clear();
    return b;
}

static int cuda_count(void)
{
    const tsr_backend *b = cuda_backend();
    return b && b->device_count ? b->device_count() : 0;
}

/* torch.cuda._lazy_init(): what every call that needs a device does first.
 * Without a backend 1.13 asserts torch._C has _cuda_getDeviceCount; with
 * one, the driver and device checks give PyTorch's RuntimeError. The
 * backend does not yet offer some queries (device streams, ...): past the
 * checks they say so rather than invent values. */
static Value *lazy_init_fail(const char *fname)
{
    const tsr_backend *b = cuda_backend();
    if (!b) return exc_set("AssertionError", NOT_COMPILED);
    if (b->init && b->init() < 0) return bind_runtime_error();
    return exc_set("NotImplementedError", "torch.cuda.%s is not supported by tsr's CUDA backend yet", fname);
}


/* torch.cuda._utils._get_device_index(device, optional): a str becomes a
 * torch.device; a device must be cuda; an int is taken as it is; with no
 * index an optional argument gives the current device (none here: *none
 * is set) and a required one raises 1.13's ValueError. 0 or -1. */
static int device_index(Value *v, bool optional, int64_t *idx, bool *none)
{
    *none = false;
    tsr_device d;
    if (v && v->type == &t_str) {
        if (tsr_device_parse(v->u.s.p, &d) < 0) return bind_runtime_errori();
        if (d.type != TSR_DEV_CUDA) {
            char buf[64];
            return exc_seti("ValueError", "Expected a cuda device, but got: %s", tsr_device_str(d, buf, sizeof buf));
        }
        if (d.index >= 0) { *idx = d.index; return 0; }
        if (optional) { *none = true; return 0; }
        return exc_seti("ValueError", "Expected a torch.device with a specified index or an integer, but got:%s",
                        v->u.s.p);
    }
    if (v && is_device(v)) {
        d = device_of(v);
        char buf[64];
        tsr_device_str(d, buf, sizeof buf);
        if (d.type != TSR_DEV_CUDA) return exc_seti("ValueError", "Expected a cuda device, but got: %s", buf);
        if (d.index >= 0) { *idx = d.index; return 0; }
        if (optional) { *none = true; return 0; }
        return exc_seti("ValueError", "Expected a torch.device with a specified index or an integer, but got:%s", buf);
    }
    if (v && (v->type == &t_int || v->type == &t_bool)) { *idx = v->u.i; return 0; }
    if (optional) { *none = true; return 0; }
    Value *r = v ? value_str(v) : v_str("None");
    if (!r) return -1;
    int rc = exc_seti("ValueError", "Expected a torch.device with a specified index or an integer, but got:%s",
                      r->u.s.p);
    decref(r);
    return rc;
}

/* The backend once CUDA is initialised (a driver and a device), else NULL
 * with _lazy_init's error set (its message, as lazy_init_fail). */
static const tsr_backend *ready_backend(const char *fname)
{
    const tsr_backend *b = cuda_backend();
    if (!b) return exc_set("AssertionError", NOT_COMPILED), NULL;
    if (b->init && b->init() < 0) return bind_runtime_error(), NULL;
    (void)fname;
    return b;
}

/* A device index that exists, or -1 with CUDA's error. */
static int check_index(int64_t idx)
{
    if (idx < 0 || idx >= cuda_count()) return exc_seti("RuntimeError", "CUDA error: invalid device ordinal");
    return 0;
}

/* The properties of the device x names (None: the current device). */
static int props_of(const char *fname, Value *x, bool optional, tsr_device_props *p)
{
    const tsr_backend *b = ready_backend(fname);
    if (!b) return -1;
    int64_t idx = 0;
    bool none;
    if (device_index(x, optional, &idx, &none) < 0) return -1;
    if (none) idx = tsr_device_current(TSR_DEV_CUDA);
    if (idx < 0 || idx >= cuda_count()) return exc_seti("AssertionError", "Invalid device id");
    if (!b->properties) return exc_seti("NotImplementedError", "torch.cuda.%s is not supported by this CUDA backend", fname);
    return b->properties((int)idx, p) < 0 ? bind_runtime_errori() : 0;
}

/* ------------------------------------------------------------ queries */

static Value *f_is_available(Value *self, CallArgs *a, void *d)
{
    if (bind_args(a, "is_available", "def ", noargs)) return NULL;
    return v_bool(cuda_count() > 0);
}

static Value *f_device_count(Value *self, CallArgs *a, void *d)
{
    if (bind_args(a, "device_count", "def ", noargs)) return NULL;
    return v_int(cuda_count());
}

static Value *f_is_initialized(Value *self, CallArgs *a, void *d)
{
    if (bind_args(a, "is_initialized", "def ", noargs)) return NULL;
    return v_bool(false);
}

/* init(), current_device(), ...: functions whose first act is _lazy_init()
 * (their arguments are parsed by CPython first). data: "name\0spec". */
static Value *f_needs_cuda(Value *self, CallArgs *a, void *data)
{
    const char *name = data, *spec = name + strlen(name) + 1;
    Value *x[4] = {0};
    if (bind_args(a, name, spec, x)) return NULL;
    return lazy_init_fail(name);
}

/* memory_allocated(device=None) and the other counters: 0 until CUDA is
 * initialised (the device is not even parsed then), else the backend's
 * caching-allocator statistics. data: "name\0" then the TSR_MEMSTAT_ code. */
static Value *f_counter(Value *self, CallArgs *a, void *data)
{
    const char *name = data;
    int which = (unsigned char)name[strlen(name) + 1] - '0';
    Value *x[1];
    if (bind_args(a, name, "def device=", x)) return NULL;
    const tsr_backend *b = cuda_backend();
    if (!b || !b->memory_stat || cuda_count() == 0) return v_int(0);
    int64_t idx = 0;
    bool none;
    if (device_index(x[0], true, &idx, &none) < 0) return NULL;
    return v_int(b->memory_stat(none ? 0 : (int)idx, which));
}

static Value *f_memory_stats_nested(Value *self, CallArgs *a, void *d)
{
    Value *x[1];
    if (bind_args(a, "memory_stats_as_nested_dict", "def device=", x)) return NULL;
    return v_dict();
}

static Value *f_memory_summary(Value *self, CallArgs *a, void *d)
{
    Value *x[2];
    if (bind_args(a, "memory_summary", "def device=, abbreviated=", x)) return NULL;
    return exc_set("KeyError", "'allocated_bytes.all.current'");
}

/* empty_cache(), seed(), seed_all(): nothing to do before initialisation. */
static Value *f_empty_cache(Value *self, CallArgs *a, void *data)
{
    if (bind_args(a, "empty_cache", "def ", noargs)) return NULL;
    const tsr_backend *b = cuda_backend();
    if (b && b->empty_cache && cuda_count() > 0) b->empty_cache();
    return v_none();
}

static Value *f_none0(Value *self, CallArgs *a, void *data)
{
    if (bind_args(a, data, "def ", noargs)) return NULL;
    return v_none();
}

/* reset_peak_memory_stats(device=None) and its aliases call a torch._C
 * function a CPU-only build lacks (after parsing the optional device). */
static Value *f_reset_stats(Value *self, CallArgs *a, void *data)
{
    const char *name = data, *cfn = name + strlen(name) + 1;
    Value *x[1];
    if (bind_args(a, name, "def device=", x)) return NULL;
    int64_t idx;
    bool none;
    if (device_index(x[0], true, &idx, &none) < 0) return NULL;
    return exc_set("AttributeError", "module 'torch._C' has no attribute '%s'", cfn);
}

static Value *f_set_device(Value *self, CallArgs *a, void *d)
{
    Value *x[1];
    if (bind_args(a, "set_device", "def device", x)) return NULL;
    int64_t idx;
    bool none;
    if (device_index(x[0], false, &idx, &none) < 0) return NULL;
    if (idx < 0) return v_none();
    if (!cuda_backend()) return exc_set("AttributeError", "module 'torch._C' has no attribute '_cuda_setDevice'");
    if (!ready_backend("set_device") || check_index(idx) < 0) return NULL;
    tsr_device_set_current(TSR_DEV_CUDA, (int)idx);
    return v_none();
}

static Value *f_current_device(Value *self, CallArgs *a, void *d)
{
    if (bind_args(a, "current_device", "def ", noargs)) return NULL;
    if (!ready_backend("current_device")) return NULL;
    return v_int(tsr_device_current(TSR_DEV_CUDA));
}

static Value *f_get_device_name(Value *self, CallArgs *a, void *d)
{
    Value *x[1];
    tsr_device_props p;
    if (bind_args(a, "get_device_name", "def device=", x) || props_of("get_device_name", x[0], true, &p) < 0)
        return NULL;
    return v_str(p.name);
}

static Value *f_get_device_capability(Value *self, CallArgs *a, void *d)
{
    Value *x[1];
    tsr_device_props p;
    if (bind_args(a, "get_device_capability", "def device=", x) ||
        props_of("get_device_capability", x[0], true, &p) < 0)
        return NULL;
    return v_tuple_of(2, v_int(p.major), v_int(p.minor));
}

static Value *f_is_bf16_supported(Value *self, CallArgs *a, void *d)
{
    tsr_device_props p;
    if (bind_args(a, "is_bf16_supported", "def ", noargs) || props_of("is_bf16_supported", NULL, true, &p) < 0)
        return NULL;
    return v_bool(p.major >= 8);   /* 1.13: compute capability 8 and CUDA 11 */
}

static Value *f_mem_get_info(Value *self, CallArgs *a, void *d)
{
    Value *x[1];
    if (bind_args(a, "mem_get_info", "def device=", x)) return NULL;
    const tsr_backend *b = ready_backend("mem_get_info");
    if (!b) return NULL;
    int64_t idx = 0, fb, tb;
    bool none;
    if (device_index(x[0], true, &idx, &none) < 0) return NULL;
    if (none) idx = tsr_device_current(TSR_DEV_CUDA);
    if (check_index(idx) < 0) return NULL;
    if (!b->mem_info) return exc_set("NotImplementedError", "torch.cuda.mem_get_info is not supported by this CUDA backend");
    if (b->mem_info((int)idx, &fb, &tb) < 0) return bind_runtime_error();
    return v_tuple_of(2, v_int(fb), v_int(tb));
}

static Value *f_synchronize(Value *self, CallArgs *a, void *d)
{
    Value *x[1];
    if (bind_args(a, "synchronize", "def device=", x)) return NULL;
    const tsr_backend *b = cuda_backend();
    if (!b || !b->synchronize || (b->init && b->init() < 0)) return lazy_init_fail("synchronize");
    int64_t idx = 0;
    bool none;
    if (device_index(x[0], true, &idx, &none) < 0) return NULL;
    if (b->synchronize(none ? 0 : (int)idx) < 0) return bind_runtime_error();
    return v_none();
}

/* torch._C._CudaDeviceProperties: its repr and attributes (CUDA's
 * cudaDeviceProp, as torch/csrc/cuda/Module.cpp binds it). */
static void props_destroy(Value *v) { free(v->u.ext.ptr); }
static Value *props_repr(Value *v)
{
    const tsr_device_props *p = v->u.ext.ptr;
    return v_strf("_CudaDeviceProperties(name='%s', major=%d, minor=%d, total_memory=%lldMB, "
                  "multi_processor_count=%d)", p->name, p->major, p->minor,
                  (long long)(p->total_memory / (1024 * 1024)), p->multi_processor_count);
}
static Value *props_getattr(Value *v, const char *name)
{
    const tsr_device_props *p = v->u.ext.ptr;
    if (!strcmp(name, "name")) return v_str(p->name);
    if (!strcmp(name, "major")) return v_int(p->major);
    if (!strcmp(name, "minor")) return v_int(p->minor);
    if (!strcmp(name, "total_memory")) return v_int(p->total_memory);
    if (!strcmp(name, "multi_processor_count")) return v_int(p->multi_processor_count);
    if (!strcmp(name, "is_integrated") || !strcmp(name, "is_multi_gpu_board")) return v_int(0);
    return NULL;
}
static const VType t_props = {.name = "_CudaDeviceProperties", .module = "torch._C", .destroy = props_destroy,
                              .repr = props_repr, .getattr = props_getattr};

static Value *f_get_device_properties(Value *self, CallArgs *a, void *d)
{
    Value *x[1];
    tsr_device_props p;
    if (bind_args(a, "get_device_properties", "def device", x) || props_of("get_device_properties", x[0], true, &p) < 0)
        return NULL;
    tsr_device_props *c = malloc(sizeof *c);
    if (!c) return exc_set("MemoryError", "out of memory");
    *c = p;
    Value *v = value_alloc(&t_props);
    v->u.ext.ptr = c;
    return v;
}

static Value *f_empty_list(Value *self, CallArgs *a, void *data)
{
    if (bind_args(a, data, "def ", noargs)) return NULL;
    return v_list(0);
}

static Value *f_gencode_flags(Value *self, CallArgs *a, void *d)
{
    if (bind_args(a, "get_gencode_flags", "def ", noargs)) return NULL;
    return v_str("");
}

static Value *f_list_gpu_processes(Value *self, CallArgs *a, void *d)
{
    Value *x[1];
    if (bind_args(a, "list_gpu_processes", "def device=", x)) return NULL;
    return v_str("pynvml module not found, please install pynvml");
}

static Value *f_pynvml(Value *self, CallArgs *a, void *data)
{
    Value *x[1];
    if (bind_args(a, data, "def device=", x)) return NULL;
    return exc_set("ModuleNotFoundError", "pynvml module not found, please install pynvml");
}

/* ------------------------------------------------------------ random */

/* int(seed) as the Python function does it, by calling the built-in int;
 * the Generator then takes it as a uint64 (negative ints wrap). */
static int seed_int(Value *v, uint64_t *out)
{
    Value *intf = dict_get_str(bind_builtins(), "int");
    if (!intf) return exc_seti("RuntimeError", "internal error: no built-in int");
    Value *r = value_call0(intf, 1, &v);
    if (!r) return -1;
    *out = (uint64_t)r->u.i;
    decref(r);
    return 0;
}

/* Whether there are generators to act on: 1.13 queues the seed calls
 * (_lazy_call) until CUDA initialises, so without a backend or a device
 * they do nothing, and no error. */
static bool rng_live(void) { return cuda_count() > 0; }

static int current(void) { return tsr_device_current(TSR_DEV_CUDA); }

/* manual_seed(seed): the current device's generator; manual_seed_all:
 * every device's. */
static Value *f_manual_seed(Value *self, CallArgs *a, void *data)
{
    Value *x[1];
    if (bind_args(a, data, "def seed", x)) return NULL;
    uint64_t s = 0;
    if (seed_int(x[0], &s) < 0) return NULL;
    if (rng_live()) {
        if (!strcmp(data, "manual_seed_all")) tsr_cuda_manual_seed_all(s);
        else tsr_generator_manual_seed(tsr_cuda_default_generator(current()), s);
    }
    return v_none();
}

/* seed(): the current generator reseeded non-deterministically; seed_all():
 * device 0's new seed given to every device. Both return None. */
static Value *f_seed(Value *self, CallArgs *a, void *data)
{
    if (bind_args(a, data, "def ", noargs)) return NULL;
    if (rng_live()) {
        if (!strcmp(data, "seed_all")) {
            uint64_t s = tsr_generator_seed(tsr_cuda_default_generator(0));
            for (int i = 1; i < cuda_count(); i++) tsr_generator_manual_seed(tsr_cuda_default_generator(i), s);
        } else {
            tsr_generator_seed(tsr_cuda_default_generator(current()));
        }
    }
    return v_none();
}

/* initial_seed(): _lazy_init(), then the current device's seed. */
static Value *f_initial_seed(Value *self, CallArgs *a, void *data)
{
    if (bind_args(a, "initial_seed", "def ", noargs)) return NULL;
    if (!ready_backend("initial_seed")) return NULL;
    uint64_t s = tsr_generator_initial_seed(tsr_cuda_default_generator(current()));
    if (s > (uint64_t)INT64_MAX)
        return exc_set("OverflowError", "Python int too large to convert to C int64_t (tsr ints are 64-bit)");
    return v_int((int64_t)s);
}

/* The generator index of get_rng_state/set_rng_state's device argument: a
 * str becomes torch.device(str), an int torch.device('cuda', int); an
 * index of None is the current device; default_generators[idx] raises
 * IndexError past the last device. 0 or -1. */
static int rng_index(Value *device, int64_t *idx)
{
    tsr_device d = {TSR_DEV_CUDA, -1};
    if (!device || device->type == &t_str) {
        if (device && tsr_device_parse(device->u.s.p, &d) < 0) return bind_runtime_errori();
    } else if (device->type == &t_int || device->type == &t_bool) {
        if (device->u.i < 0) return exc_seti("RuntimeError", "Device index must not be negative");
        d.index = (int)device->u.i;
    } else if (is_device(device)) {
        d = device_of(device);
    } else {
        return exc_seti("AttributeError", "'%s' object has no attribute 'index'", type_name(device));
    }
    *idx = d.index < 0 ? current() : d.index;
    if (*idx >= cuda_count()) return exc_seti("IndexError", "tuple index out of range");
    return 0;
}

/* get_rng_state(device='cuda'): _lazy_init(), then that generator's
 * get_state(): 816 bytes. get_rng_state_all(): one per device. */
static Value *f_get_rng_state(Value *self, CallArgs *a, void *data)
{
    Value *x[1];
    if (bind_args(a, "get_rng_state", "def device=", x)) return NULL;
    if (!ready_backend("get_rng_state")) return NULL;
    int64_t idx;
    if (rng_index(x[0], &idx) < 0) return NULL;
    return v_tensor(tsr_generator_get_state(tsr_cuda_default_generator((int)idx)));
}

static Value *f_get_rng_state_all(Value *self, CallArgs *a, void *data)
{
    if (bind_args(a, "get_rng_state_all", "def ", noargs)) return NULL;
    Value *l = v_list(0);
    for (int i = 0; l && i < cuda_count(); i++) {
        if (!ready_backend("get_rng_state")) { decref(l); return NULL; }
        tsr_tensor *t = tsr_generator_get_state(tsr_cuda_default_generator(i));
        if (!t || list_append_steal(l, v_tensor(t)) < 0) { decref(l); return t ? NULL : bind_runtime_error(); }
    }
    return l;
}

/* set_rng_state(new_state, device='cuda'): clones new_state at once (so a
 * non-tensor is an AttributeError), parses the device, then (CUDA
 * available) sets that generator's state; without CUDA the call stays
 * queued, as 1.13's _lazy_call leaves it. */
static int set_state_at(Value *state, Value *device)
{
    if (!is_tensor(state)) return exc_seti("AttributeError", "'%s' object has no attribute 'clone'", type_name(state));
    if (device && device->type == &t_str) {
        tsr_device d;
        if (tsr_device_parse(device->u.s.p, &d) < 0) return bind_runtime_errori();
    } else if (device && device->type == &t_int) {
        if (device->u.i < 0) return exc_seti("RuntimeError", "Device index must not be negative");
    }
    if (!rng_live()) return 0;
    int64_t idx;
    if (rng_index(device, &idx) < 0) return -1;
    tsr_tensor *copy = tsr_contiguous(tensor_of(state), TSR_MF_CONTIGUOUS);
    if (!copy) return bind_runtime_errori();
    int rc = tsr_generator_set_state(tsr_cuda_default_generator((int)idx), copy);
    tsr_tensor_release(copy);
    return rc < 0 ? bind_runtime_errori() : 0;
}

static Value *f_set_rng_state(Value *self, CallArgs *a, void *d)
{
    Value *x[2];
    if (bind_args(a, "set_rng_state", "def new_state, device=", x)) return NULL;
    if (set_state_at(x[0], x[1]) < 0) return NULL;
    return v_none();
}

static Value *f_set_rng_state_all(Value *self, CallArgs *a, void *d)
{
    Value *x[1];
    if (bind_args(a, "set_rng_state_all", "def new_states", x)) return NULL;
    Value *it = value_iter(x[0]);
    if (!it) return NULL;
    int64_t i = 0;
    for (Value *s; (s = value_next(it)); i++) {
        Value *dev = v_int(i);
        int rc = set_state_at(s, dev);
        decref(dev);
        decref(s);
        if (rc < 0) { decref(it); return NULL; }
    }
    decref(it);
    return exc_pending() ? NULL : v_none();
}

/* ------------------------------------------------------------ classes */

/* torch.cuda.device(device) / device_of(obj): context managers that switch
 * the current device; index -1 (a CPU tensor's) makes them do nothing. */
static Value *cudadev_repr(Value *v) { return v_strf("<torch.cuda.%s object at %p>", v->type->name, (void *)v); }

/* __enter__ returns None (what `as` binds): it makes idx the current
 * device and remembers the previous one (in b's upper bits), which
 * __exit__ restores. */
static Value *cudadev_enter(Value *v)
{
    if (v->u.ext.a == -1 && !(v->u.ext.b & 1)) return v_none();
    if (!cuda_backend() || !ready_backend("device")) return lazy_init_fail("device");
    int64_t idx = (v->u.ext.b & 1) ? tsr_device_current(TSR_DEV_CUDA) : v->u.ext.a;
    if (check_index(idx) < 0) return NULL;
    v->u.ext.b = (v->u.ext.b & 1) | (((int64_t)tsr_device_current(TSR_DEV_CUDA) + 1) << 1);
    tsr_device_set_current(TSR_DEV_CUDA, (int)idx);
    return v_none();
}
static int cudadev_exit(Value *v)
{
    int64_t prev = (v->u.ext.b >> 1) - 1;
    if (prev >= 0) tsr_device_set_current(TSR_DEV_CUDA, (int)prev);
    v->u.ext.b &= 1;
    return 0;
}
static Value *cudadev_getattr(Value *v, const char *name)
{
    if (!strcmp(name, "idx")) return (v->u.ext.b & 1) ? v_none() : v_int(v->u.ext.a);
    if (!strcmp(name, "prev_idx")) return v_int((v->u.ext.b >> 1) - 1);
    return NULL;
}

static Value *c_cuda_device(Value *self, CallArgs *a, void *d);
static Value *c_device_of(Value *self, CallArgs *a, void *d);
static const VType t_cuda_device = {.name = "device", .module = "torch.cuda", .repr = cudadev_repr,
                                    .getattr = cudadev_getattr, .enter = cudadev_enter, .exit = cudadev_exit,
                                    .construct = c_cuda_device};
static const VType t_device_of = {.name = "device_of", .module = "torch.cuda", .repr = cudadev_repr,
                                  .getattr = cudadev_getattr, .enter = cudadev_enter, .exit = cudadev_exit,
                                  .construct = c_device_of};

static Value *new_cudadev(const VType *t, int64_t idx, bool none)
{
    Value *v = value_alloc(t);
    v->u.ext.a = idx;
    v->u.ext.b = none;
    return v;
}

static Value *c_cuda_device(Value *self, CallArgs *a, void *d)
{
    Value *x[1];
    if (bind_args(a, "__init__", "def device", x)) return NULL;
    int64_t idx = -1;
    bool none;
    if (device_index(x[0], true, &idx, &none) < 0) return NULL;
    return new_cudadev(&t_cuda_device, idx, none);
}

static Value *c_device_of(Value *self, CallArgs *a, void *d)
{
    Value *x[1];
    if (bind_args(a, "__init__", "def obj", x)) return NULL;
    Value *is_cuda = value_getattr(x[0], "is_cuda");
    if (!is_cuda) return NULL;
    int t = value_truth(is_cuda);
    decref(is_cuda);
    if (t < 0) return NULL;
    if (t) return lazy_init_fail("device_of");
    return new_cudadev(&t_device_of, -1, false);
}

/* Stream and Event derive from torch._C._CudaStreamBase, which a CPU-only
 * build replaces by a dummy: instantiating them reaches object.__new__. */
static Value *c_dummy_base(Value *self, CallArgs *a, void *d)
{
    return exc_set("TypeError", "object.__new__() takes exactly one argument (the type to instantiate)");
}
static const VType t_stream = {.name = "Stream", .module = "torch.cuda.streams", .construct = c_dummy_base};
static const VType t_event = {.name = "Event", .module = "torch.cuda.streams", .construct = c_dummy_base};

/* ------------------------------------------------------------ registration */

static void add(Value *mod, const char *name, BuiltinFn fn, const void *data)
{
    module_add(mod, name, v_builtin(name, fn, NULL, (void *)data));
}

/* name\0spec for f_needs_cuda */
#define NEEDS(mod, name, spec) add(mod, name, f_needs_cuda, name "\0" spec)

static void backends_init(void)
{
    Value *cuda = bind_module("torch.backends.cuda");
    module_add_fn(cuda, "is_built", f_is_initialized);   /* a CPU-only build: False */
    Value *matmul = bind_module("torch.backends.cuda.matmul");
    module_add(matmul, "allow_tf32", v_bool(false));
    module_add(matmul, "allow_fp16_reduced_precision_reduction", v_bool(true));

    Value *cudnn = bind_module("torch.backends.cudnn");
    module_add(cudnn, "enabled", v_bool(true));
    module_add(cudnn, "allow_tf32", v_bool(true));
    module_add(cudnn, "deterministic", v_bool(false));
    module_add(cudnn, "benchmark", v_bool(false));
    add(cudnn, "is_available", f_is_initialized, NULL);
    add(cudnn, "version", f_none0, "version");

    Value *mps = bind_module("torch.backends.mps");
    add(mps, "is_available", f_is_initialized, NULL);
    add(mps, "is_built", f_is_initialized, NULL);
}

static Value *f_true0(Value *self, CallArgs *a, void *data)
{
    if (bind_args(a, data, "def ", noargs)) return NULL;
    return v_bool(true);
}

void bind_cuda_init(void)
{
    Value *m = bind_module("torch.cuda");
    module_add_fn(m, "is_available", f_is_available);
    module_add_fn(m, "device_count", f_device_count);
    module_add_fn(m, "is_initialized", f_is_initialized);
    NEEDS(m, "init", "def ");
    add(m, "current_device", f_current_device, NULL);
    add(m, "synchronize", f_synchronize, NULL);
    add(m, "get_device_name", f_get_device_name, NULL);
    add(m, "get_device_capability", f_get_device_capability, NULL);
    add(m, "mem_get_info", f_mem_get_info, NULL);
    add(m, "is_bf16_supported", f_is_bf16_supported, NULL);
    NEEDS(m, "get_sync_debug_mode", "def ");
    NEEDS(m, "ipc_collect", "def ");
    NEEDS(m, "current_stream", "def device=");
    NEEDS(m, "default_stream", "def device=");
    NEEDS(m, "current_blas_handle", "def ");
    add(m, "initial_seed", f_initial_seed, NULL);
    add(m, "get_rng_state", f_get_rng_state, NULL);
    NEEDS(m, "can_device_access_peer", "def device, peer_device");
    NEEDS(m, "cudart", "def ");
    add(m, "get_device_properties", f_get_device_properties, NULL);
    add(m, "set_device", f_set_device, NULL);
    add(m, "memory_allocated", f_counter, "memory_allocated\0" "0");
    add(m, "max_memory_allocated", f_counter, "max_memory_allocated\0" "1");
    add(m, "memory_reserved", f_counter, "memory_reserved\0" "2");
    add(m, "max_memory_reserved", f_counter, "max_memory_reserved\0" "3");
    add(m, "memory_cached", f_counter, "memory_cached\0" "2");
    add(m, "max_memory_cached", f_counter, "max_memory_cached\0" "3");
    add(m, "memory_stats_as_nested_dict", f_memory_stats_nested, NULL);
    add(m, "memory_summary", f_memory_summary, NULL);
    add(m, "reset_peak_memory_stats", f_reset_stats, "reset_peak_memory_stats\0_cuda_resetPeakMemoryStats");
    add(m, "reset_max_memory_allocated", f_reset_stats, "reset_max_memory_allocated\0_cuda_resetPeakMemoryStats");
    add(m, "reset_max_memory_cached", f_reset_stats, "reset_max_memory_cached\0_cuda_resetPeakMemoryStats");
    add(m, "reset_accumulated_memory_stats", f_reset_stats,
        "reset_accumulated_memory_stats\0_cuda_resetAccumulatedMemoryStats");
    add(m, "empty_cache", f_empty_cache, NULL);
    add(m, "seed", f_seed, "seed");
    add(m, "seed_all", f_seed, "seed_all");
    add(m, "manual_seed", f_manual_seed, "manual_seed");
    add(m, "manual_seed_all", f_manual_seed, "manual_seed_all");
    add(m, "set_rng_state", f_set_rng_state, NULL);
    add(m, "set_rng_state_all", f_set_rng_state_all, NULL);
    add(m, "get_rng_state_all", f_get_rng_state_all, NULL);
    add(m, "get_arch_list", f_empty_list, "get_arch_list");
    add(m, "get_gencode_flags", f_gencode_flags, NULL);
    add(m, "list_gpu_processes", f_list_gpu_processes, NULL);
    add(m, "utilization", f_pynvml, "utilization");
    add(m, "memory_usage", f_pynvml, "memory_usage");
    module_add(m, "has_half", v_bool(false));
    module_add(m, "has_magma", v_bool(false));
    module_add(m, "default_generators", v_tuple(0));
    module_add(m, "device", v_typeobj(&t_cuda_device));
    module_add(m, "device_of", v_typeobj(&t_device_of));
    module_add(m, "Stream", v_typeobj(&t_stream));
    module_add(m, "Event", v_typeobj(&t_event));

    backends_init();
    Value *mkldnn = bind_module("torch.backends.mkldnn");
    add(mkldnn, "is_available", f_true0, "is_available");
    Value *openmp = bind_module("torch.backends.openmp");
    add(openmp, "is_available", f_true0, "is_available");

    Value *version = bind_module("torch.version");
    module_add(version, "__version__", v_str("1.13.0a0"));
    module_add(version, "cuda", v_none());
    module_add(version, "hip", v_none());
    module_add(version, "debug", v_bool(false));
    module_add(version, "git_version", v_str("Unknown"));
}
