/* runtime/storage.c — refcounted storages on a device; their bytes come
 * from the device's backend (runtime/alloc.c for cpu). Storage records are
 * recycled per thread. */
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include "error.h"
#include "storage.h"

/* ---- storages ---- */

/* Storage records are kept per thread for reuse, like tensor headers. */
#define REC_KEEP 256
static __thread tsr_storage *rec_free;
static __thread int rec_nfree;

static tsr_storage *rec_alloc(void)
{
    if (rec_free) {
        if (tsr_fault_tick()) {
            tsr_error_nomem(sizeof(tsr_storage));
            return NULL;
        }
        tsr_storage *s = rec_free;
        rec_free = *(tsr_storage **)s;
        rec_nfree--;
        return s;
    }
    return tsr_malloc(sizeof(tsr_storage));
}

static void rec_release(tsr_storage *s)
{
    if (rec_nfree < REC_KEEP) {
        *(tsr_storage **)s = rec_free;
        rec_free = s;
        rec_nfree++;
        return;
    }
    tsr_free(s);
}

static _Thread_local bool inference_mode;
void tsr_storage_set_inference(bool on) { inference_mode = on; }

tsr_storage *tsr_storage_new(size_t nbytes, tsr_dtype dtype, tsr_device device)
{
    const tsr_backend *be = tsr_device_backend(device);
    if (!be) return NULL;
    if (be->init && be->init() < 0) return NULL;
    if (!be->computes) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED,
                      "tsr's %s backend is loaded but cannot hold tensors yet: it has no kernels, and tsr never "
                      "computes on the CPU what was asked of the %s device", be->name, be->name);
        return NULL;
    }
    tsr_storage *s = rec_alloc();
    if (!s) return NULL;
    *s = (tsr_storage){.refcount = 1, .nbytes = nbytes, .dtype = dtype, .device = device,
                       .resizable = true, .inference = inference_mode};
    if (nbytes && device.type != TSR_DEV_META) {
        s->data = be->alloc(nbytes, device.index);
        if (!s->data) {
            rec_release(s);
            return NULL;
        }
    }
    return s;
}

tsr_storage *tsr_storage_new_zeroed(size_t nbytes, tsr_dtype dtype, tsr_device device)
{
    tsr_storage *s = tsr_storage_new(nbytes, dtype, device);
    if (s && s->data && device.type == TSR_DEV_CPU) memset(s->data, 0, nbytes);
    else if (s && s->data) {   /* a device the host cannot write */
        const tsr_backend *be = tsr_device_backend(device);
        if (!be || !be->memset || be->memset(s->data, 0, nbytes, device.index) < 0) {
            if (be && !be->memset) tsr_error_no_kernel("aten::zero_", tsr_device_backend_name(device.type), "CPU, Meta");
            tsr_storage_release(s);
            return NULL;
        }
    }
    return s;
}

tsr_storage *tsr_storage_wrap(void *data, size_t nbytes, tsr_dtype dtype, tsr_device device,
                              void (*deleter)(void *, void *), void *ctx)
{
    tsr_storage *s = rec_alloc();
    if (!s) return NULL;
    *s = (tsr_storage){.refcount = 1, .data = data, .nbytes = nbytes, .dtype = dtype,
                       .device = device, .resizable = false, .deleter = deleter, .deleter_ctx = ctx,
                       .inference = inference_mode};
    if (!deleter) s->deleter_ctx = s;   /* marks "external, never freed" */
    return s;
}

tsr_storage *tsr_storage_retain(tsr_storage *s)
{
    if (s) __atomic_add_fetch(&s->refcount, 1, __ATOMIC_RELAXED);
    return s;
}

void tsr_storage_release(tsr_storage *s)
{
    if (!s || __atomic_sub_fetch(&s->refcount, 1, __ATOMIC_ACQ_REL) != 0) return;
    if (s->deleter) s->deleter(s->data, s->deleter_ctx);
    else if (s->deleter_ctx == s) { /* external buffer without deleter */ }
    else if (s->data) {
        const tsr_backend *be = tsr_device_backend(s->device);
        if (be) be->free(s->data, s->nbytes, s->device.index);
    }
    rec_release(s);
}

int64_t tsr_storage_size(const tsr_storage *s)
{
    int sz = tsr_dtype_itemsize(s->dtype);
    return sz ? (int64_t)(s->nbytes / (size_t)sz) : 0;
}

int tsr_storage_resize(tsr_storage *s, size_t nbytes)
{
    if (!s->resizable) {
        tsr_error_set(TSR_ERR_RUNTIME, "Trying to resize storage that is not resizable");
        return -1;
    }
    if (nbytes == s->nbytes) return 0;
    if (s->device.type == TSR_DEV_META) {
        s->nbytes = nbytes;
        return 0;
    }
    const tsr_backend *be = tsr_device_backend(s->device);
    if (!be) return -1;
    void *p = NULL;
    if (nbytes) {
        p = be->alloc(nbytes, s->device.index);
        if (!p) return -1;
        size_t keep = nbytes < s->nbytes ? nbytes : s->nbytes;
        if (keep && be->copy(p, s->device, s->data, s->device, keep) < 0) {
            be->free(p, nbytes, s->device.index);
            return -1;
        }
    }
    if (s->data) be->free(s->data, s->nbytes, s->device.index);
    s->data = p;
    s->nbytes = nbytes;
    return 0;
}
