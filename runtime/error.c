/* runtime/error.c — the thread-local error record and allocation wrappers.
 * The message buffer is static per thread, so recording an out-of-memory error
 * never allocates. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "error.h"

static _Thread_local tsr_errkind err_kind;
static _Thread_local char err_msg[4096];

volatile sig_atomic_t tsr_interrupted;

static long fault_countdown;   /* 0: off; else allocations left before the failing one */
static int fault_fired;

void tsr_error_set(tsr_errkind kind, const char *fmt, ...)
{
    if (err_kind != TSR_OK) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err_msg, sizeof err_msg, fmt, ap);
    va_end(ap);
    err_kind = kind;
}

tsr_errkind tsr_error_kind(void) { return err_kind; }
const char *tsr_error_message(void) { return err_kind ? err_msg : ""; }
int tsr_error_occurred(void) { return err_kind != TSR_OK; }
void tsr_error_clear(void) { err_kind = TSR_OK; err_msg[0] = 0; }

static const char *const kind_names[] = {   /* ORDER KIND */
    [TSR_OK] = "",
    [TSR_ERR_RUNTIME] = "RuntimeError",
    [TSR_ERR_TYPE] = "TypeError",
    [TSR_ERR_INDEX] = "IndexError",
    [TSR_ERR_VALUE] = "ValueError",
    [TSR_ERR_NOT_IMPLEMENTED] = "NotImplementedError",
    [TSR_ERR_MEMORY] = "RuntimeError",
    [TSR_ERR_INTERRUPTED] = "KeyboardInterrupt",
    [TSR_ERR_ASSERTION] = "AssertionError",
    [TSR_ERR_LINALG] = "_LinAlgError",
};
_Static_assert(sizeof kind_names / sizeof kind_names[0] == TSR_ERR_KIND_COUNT, "kind_names");

const char *tsr_error_kind_name(tsr_errkind kind)
{
    return (unsigned)kind < TSR_ERR_KIND_COUNT ? kind_names[kind] : "RuntimeError";
}

void tsr_error_nomem(size_t nbytes)
{
    tsr_error_set(TSR_ERR_MEMORY,
                  "DefaultCPUAllocator: can't allocate memory: you tried to allocate %zu bytes. "
                  "Error code 12 (Cannot allocate memory)", nbytes);
}

void tsr_fault_sim(long n)
{
    __atomic_store_n(&fault_countdown, n > 0 ? n : 0, __ATOMIC_SEQ_CST);
    fault_fired = 0;
}

int tsr_fault_sim_fired(void) { return fault_fired; }

long tsr_fault_sim_left(void) { return __atomic_load_n(&fault_countdown, __ATOMIC_SEQ_CST); }

int tsr_fault_tick(void)
{
    if (__atomic_load_n(&fault_countdown, __ATOMIC_RELAXED) == 0) return 0;
    if (__atomic_sub_fetch(&fault_countdown, 1, __ATOMIC_SEQ_CST) == 0) {
        fault_fired = 1;
        return 1;
    }
    return 0;
}

void *tsr_malloc(size_t n)
{
    void *p = tsr_fault_tick() ? NULL : malloc(n ? n : 1);
    if (!p) tsr_error_nomem(n);
    return p;
}

void *tsr_calloc(size_t count, size_t size)
{
    void *p = tsr_fault_tick() ? NULL : calloc(count ? count : 1, size ? size : 1);
    if (!p) tsr_error_nomem(count * size);
    return p;
}

void *tsr_realloc(void *old, size_t n)
{
    void *p = tsr_fault_tick() ? NULL : realloc(old, n ? n : 1);
    if (!p) tsr_error_nomem(n);
    return p;
}

void tsr_free(void *p) { free(p); }

static int interrupt_holds;   /* open tsr_interrupt_hold()s */

int tsr_interrupt_pending(void)
{
    return tsr_interrupted && !__atomic_load_n(&interrupt_holds, __ATOMIC_RELAXED);
}

int tsr_interrupt_hold(void)
{
    if (tsr_check_interrupt() < 0) return -1;
    __atomic_add_fetch(&interrupt_holds, 1, __ATOMIC_SEQ_CST);
    return 0;
}

void tsr_interrupt_unhold(void)
{
    if (__atomic_load_n(&interrupt_holds, __ATOMIC_RELAXED) > 0) __atomic_sub_fetch(&interrupt_holds, 1, __ATOMIC_SEQ_CST);
}

int tsr_check_interrupt(void)
{
    if (!tsr_interrupt_pending()) return 0;
    tsr_interrupted = 0;
    tsr_error_set(TSR_ERR_INTERRUPTED, "%s", "");
    return -1;
}
