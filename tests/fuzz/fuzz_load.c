/* tests/fuzz/fuzz_load.c — libFuzzer target: torch.load of one input as a
 * file's bytes, with the weights-only rules and without them. Hostile zip
 * containers, pickles and storage records must end in an exception, never a
 * read out of bounds or a leak. Tensor memory is capped at 64 MiB. */
#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "bind/io_pickle.h"
#include "error.h"
#include "eval.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    tsr_mem_set_limit((size_t)64 << 20);
    eval_init();    /* the types torch.load builds values of */
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (int wo = 0; wo < 2; wo++) {
        Value *v = bind_io_load_bytes((const char *)data, size, wo);
        decref(v);
        exc_clear();
        tsr_error_clear();
    }
    return 0;
}
