/* runtime/storage.h — refcounted untyped byte buffers on a device (Torch7
 * THStorage; SEMANTICS.md §7). A storage records the dtype its elements were
 * created with (x.storage() is typed); views of other dtypes may share it.
 * Their bytes come from the device backend (runtime/alloc.h for cpu). */
#ifndef TSR_STORAGE_H
#define TSR_STORAGE_H
#include <stdbool.h>
#include <stddef.h>
#include "alloc.h"
#include "device.h"
#include "dtype.h"

typedef struct tsr_storage {
    int refcount;            /* atomic; use retain/release */
    void *data;              /* NULL for meta and for 0 bytes */
    size_t nbytes;
    tsr_dtype dtype;         /* element dtype of the creating tensor */
    tsr_device device;
    bool resizable;
    bool shared;                /* share_memory_() was called (is_shared()) */
    /* External buffers: called instead of the backend's free when non-NULL. */
    void (*deleter)(void *data, void *ctx);
    void *deleter_ctx;
    int64_t version;            /* in-place writes through any view (1.13's version counter) */
    bool inference;             /* allocated in inference mode: its tensors are inference tensors */
} tsr_storage;

/* Inference mode for the storages made from now on (the autograd's
 * torch.inference_mode sets it): their tensors are inference tensors. */
void tsr_storage_set_inference(bool on);

/* New storage of nbytes (uninitialised) on device, refcount 1. NULL + error
 * (MEMORY, or the device's backend error) on failure. */
tsr_storage *tsr_storage_new(size_t nbytes, tsr_dtype dtype, tsr_device device);
/* Same, zero-filled (meta: nothing to fill). */
tsr_storage *tsr_storage_new_zeroed(size_t nbytes, tsr_dtype dtype, tsr_device device);
/* Wraps an external buffer (not resizable); deleter(data, ctx) runs on the last
 * release (may be NULL: the buffer is then not freed). New reference or NULL. */
tsr_storage *tsr_storage_wrap(void *data, size_t nbytes, tsr_dtype dtype, tsr_device device,
                              void (*deleter)(void *, void *), void *ctx);
/* Adds a reference; returns s. */
tsr_storage *tsr_storage_retain(tsr_storage *s);
/* Drops a reference; frees at zero. NULL is a no-op. */
void tsr_storage_release(tsr_storage *s);
/* Size in elements of the storage's dtype (nbytes / itemsize). */
int64_t tsr_storage_size(const tsr_storage *s);
/* Grows or shrinks to nbytes keeping the common prefix. 0 or -1 with error
 * ("Trying to resize storage that is not resizable"). */
int tsr_storage_resize(tsr_storage *s, size_t nbytes);

#endif
