/* tests/unit/test_runtime_interrupt.c — the interrupt hold (a write into an
 * existing tensor finishes or changes nothing) and the memory budget. */
#include <string.h>
#include "unit.h"
#include "tsr.h"

/* every element of t equals v */
static bool all_equal(const tsr_tensor *t, double v)
{
    int64_t n = tsr_tensor_numel(t);
    for (int64_t i = 0; i < n; i++) {
        tsr_scalar s;
        if (tsr_tensor_get_at(t, i, &s) < 0 || tsr_scalar_to_double(s) != v) return false;
    }
    return true;
}

TEST(interrupt_hold_polls_once_then_holds)
{
    tsr_error_clear();
    tsr_interrupted = 1;
    CHECK_EQ_INT(tsr_interrupt_hold(), -1);           /* Ctrl-C before the first store */
    CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_INTERRUPTED);
    CHECK_EQ_INT(tsr_interrupted, 0);
    tsr_error_clear();
    CHECK_EQ_INT(tsr_interrupt_hold(), 0);
    CHECK_EQ_INT(tsr_interrupt_hold(), 0);            /* holds nest */
    tsr_interrupted = 1;
    CHECK_EQ_INT(tsr_check_interrupt(), 0);
    CHECK(!tsr_interrupt_pending());
    tsr_interrupt_unhold();
    CHECK_EQ_INT(tsr_check_interrupt(), 0);
    tsr_interrupt_unhold();
    CHECK(tsr_interrupt_pending());
    CHECK_EQ_INT(tsr_check_interrupt(), -1);          /* raised by the first poll after */
    CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_INTERRUPTED);
    tsr_error_clear();
    tsr_interrupt_unhold();                           /* unbalanced: no effect */
    tsr_interrupted = 1;
    CHECK_EQ_INT(tsr_check_interrupt(), -1);
    tsr_error_clear();
}

TEST(interrupt_out_written_whole_or_not_at_all)
{
    tsr_error_clear();
    int64_t n = 1 << 21;
    tsr_tensor *w = tsr_zeros(1, &n, TSR_FLOAT32, TSR_CPU), *o = tsr_ones(1, &n, TSR_FLOAT64, TSR_CPU);
    tsr_operand a = tsr_operand_tensor(w), b = tsr_operand_tensor(o);
    /* Ctrl-C already pending: w.add_(o) writes nothing */
    tsr_interrupted = 1;
    CHECK(tsr_binary(TSR_BINOP_ADD, &a, &b, w, NULL) == NULL);
    CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_INTERRUPTED);
    CHECK(all_equal(w, 0));
    tsr_error_clear();
    /* Ctrl-C arriving while it runs (set here inside an open hold, as the
     * binding layer opens one): the op finishes, the flag stays */
    CHECK_EQ_INT(tsr_interrupt_hold(), 0);
    tsr_interrupted = 1;
    tsr_tensor *r = tsr_binary(TSR_BINOP_ADD, &a, &b, w, NULL);
    CHECK(r == w);
    CHECK(all_equal(w, 1));
    CHECK_EQ_INT(tsr_copy_(w, o), 0);
    CHECK_EQ_INT(tsr_fill_(w, tsr_scalar_int(3)), 0);
    CHECK(all_equal(w, 3));
    tsr_interrupt_unhold();
    CHECK_EQ_INT(tsr_check_interrupt(), -1);
    tsr_error_clear();
    tsr_tensor_release(r);
    /* a fresh result is not held: it stops at once */
    tsr_interrupted = 1;
    CHECK(tsr_binary(TSR_BINOP_ADD, &a, &b, NULL, NULL) == NULL);
    CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_INTERRUPTED);
    tsr_error_clear();
    tsr_tensor_release(w);
    tsr_tensor_release(o);
}

TEST(memory_budget)
{
    tsr_error_clear();
    tsr_mem_usage u0 = tsr_mem_usage_now();
    CHECK(u0.limit > 0);
    tsr_mem_set_limit(u0.current + (1 << 20));
    int64_t big = 1 << 19, small = 1 << 17;           /* 2 MiB and 512 KiB of float32 */
    CHECK(tsr_zeros(1, &big, TSR_FLOAT32, TSR_CPU) == NULL);
    CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_MEMORY);
    CHECK_STR(tsr_error_message(), "DefaultCPUAllocator: can't allocate memory: you tried to allocate 2097152 bytes. "
                                   "Error code 12 (Cannot allocate memory)");
    tsr_error_clear();
    tsr_tensor *a = tsr_zeros(1, &small, TSR_FLOAT32, TSR_CPU);
    CHECK(a != NULL);
    tsr_mem_usage u1 = tsr_mem_usage_now();
    CHECK(u1.current == u0.current + ((size_t)1 << 19));
    CHECK(u1.peak >= u1.current);
    tsr_tensor *b = tsr_zeros(1, &small, TSR_FLOAT32, TSR_CPU), *c = tsr_zeros(1, &small, TSR_FLOAT32, TSR_CPU);
    CHECK(b == NULL || c == NULL);                    /* 1.5 MiB > 1 MiB */
    tsr_error_clear();
    tsr_tensor_release(b);
    tsr_tensor_release(c);
    tsr_tensor_release(a);
    CHECK(tsr_mem_usage_now().current == u0.current);
    tsr_mem_set_limit(0);                             /* back to the default */
    CHECK(tsr_mem_usage_now().limit == u0.limit);
}
