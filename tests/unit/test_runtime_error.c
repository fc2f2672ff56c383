/* tests/unit/test_runtime_error.c — the error record, kind names, allocation
 * failure message, fault simulation and interrupt polling. */
#include <string.h>
#include "unit.h"
#include "tsr.h"

TEST(error_first_wins_and_clear)
{
    tsr_error_clear();
    CHECK_EQ_INT(tsr_error_kind(), TSR_OK);
    CHECK_STR(tsr_error_message(), "");
    tsr_error_set(TSR_ERR_INDEX, "index %d is out of bounds", 5);
    tsr_error_set(TSR_ERR_TYPE, "second");
    CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_INDEX);
    CHECK_STR(tsr_error_message(), "index 5 is out of bounds");
    CHECK(tsr_error_occurred());
    tsr_error_clear();
    CHECK(!tsr_error_occurred());
}

TEST(error_kind_names)
{
    CHECK_STR(tsr_error_kind_name(TSR_ERR_RUNTIME), "RuntimeError");
    CHECK_STR(tsr_error_kind_name(TSR_ERR_TYPE), "TypeError");
    CHECK_STR(tsr_error_kind_name(TSR_ERR_INDEX), "IndexError");
    CHECK_STR(tsr_error_kind_name(TSR_ERR_VALUE), "ValueError");
    CHECK_STR(tsr_error_kind_name(TSR_ERR_NOT_IMPLEMENTED), "NotImplementedError");
    CHECK_STR(tsr_error_kind_name(TSR_ERR_MEMORY), "RuntimeError");
    CHECK_STR(tsr_error_kind_name(TSR_ERR_INTERRUPTED), "KeyboardInterrupt");
    CHECK_STR(tsr_error_kind_name(TSR_ERR_ASSERTION), "AssertionError");
}

TEST(error_nomem_message)
{
    tsr_error_clear();
    tsr_fault_sim(1);
    void *p = tsr_malloc(4000);
    CHECK(p == NULL);
    CHECK(tsr_fault_sim_fired());
    CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_MEMORY);
    CHECK_STR(tsr_error_message(), "DefaultCPUAllocator: can't allocate memory: you tried to allocate 4000 bytes. "
                                   "Error code 12 (Cannot allocate memory)");
    tsr_error_clear();
    p = tsr_malloc(16);        /* the simulation fires once */
    CHECK(p != NULL);
    tsr_free(p);
    tsr_fault_sim(0);
}

TEST(error_fault_sim_counts)
{
    tsr_error_clear();
    tsr_fault_sim(3);
    void *a = tsr_malloc(8), *b = tsr_calloc(2, 8), *c = tsr_malloc(8);
    CHECK(a && b && !c);
    tsr_free(a);
    tsr_free(b);
    tsr_error_clear();
    tsr_fault_sim(0);
}

TEST(error_interrupt_poll)
{
    tsr_error_clear();
    CHECK_EQ_INT(tsr_check_interrupt(), 0);
    tsr_interrupted = 1;
    CHECK_EQ_INT(tsr_check_interrupt(), -1);
    CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_INTERRUPTED);
    CHECK_EQ_INT(tsr_interrupted, 0);
    tsr_error_clear();
    /* a long copy stops when interrupted, and leaks nothing */
    int64_t n = 1 << 20;
    tsr_tensor *a = tsr_zeros(1, &n, TSR_FLOAT32, TSR_CPU), *b = tsr_ones(1, &n, TSR_FLOAT64, TSR_CPU);
    tsr_tensor *bs = tsr_view_slice(b, 0, 0, TSR_SLICE_END, 1);
    int64_t shape[2] = {1024, 1024};
    tsr_tensor *bt = tsr_view_view(bs, 2, shape), *btt = tsr_view_t(bt);
    tsr_tensor *av = tsr_view_view(a, 2, shape);
    tsr_interrupted = 1;
    CHECK_EQ_INT(tsr_copy_(av, btt), -1);
    CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_INTERRUPTED);
    tsr_error_clear();
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    tsr_tensor_release(bs);
    tsr_tensor_release(bt);
    tsr_tensor_release(btt);
    tsr_tensor_release(av);
}
