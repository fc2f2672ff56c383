/* tests/fuzz/fuzz_npy.c — libFuzzer target: np.load of one input as a .npy
 * file's bytes (runtime/io/npy.c), then repr of the array it gives and
 * np.save of it again. Hostile headers and short data must end in a
 * ValueError, never a read out of bounds or a leak. Tensor memory is capped
 * at 64 MiB. */
#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "error.h"
#include "eval.h"
#include "io/npy.h"
#include "show/show.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    tsr_mem_set_limit((size_t)64 << 20);
    eval_init();    /* the str values repr builds */
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tsr_tensor *t = tsr_npy_decode(data, size);
    if (t) {
        Value *r = show_ndarray_repr(t);
        decref(r);
        void *buf;
        size_t n;
        if (tsr_npy_encode(t, &buf, &n) == 0) {
            tsr_tensor *u = tsr_npy_decode(buf, n);
            tsr_tensor_release(u);
            tsr_free(buf);
        }
        tsr_tensor_release(t);
    }
    exc_clear();
    tsr_error_clear();
    return 0;
}
