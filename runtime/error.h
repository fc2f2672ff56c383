/* runtime/error.h — the thread-local error record, allocation wrappers with
 * fault injection, and the interrupt flag.
 * Rule: the FIRST error set wins until tsr_error_clear(); later sets are ignored,
 * so the innermost (most precise) message reaches the user. */
#ifndef TSR_ERROR_H
#define TSR_ERROR_H
#include <signal.h>
#include <stddef.h>

/* Error kinds. tsr_error_kind_name() gives the Python exception name. ORDER KIND */
typedef enum {
    TSR_OK = 0,
    TSR_ERR_RUNTIME,          /* RuntimeError */
    TSR_ERR_TYPE,             /* TypeError */
    TSR_ERR_INDEX,            /* IndexError */
    TSR_ERR_VALUE,            /* ValueError */
    TSR_ERR_NOT_IMPLEMENTED,  /* NotImplementedError */
    TSR_ERR_MEMORY,           /* allocation failure: PyTorch raises RuntimeError */
    TSR_ERR_INTERRUPTED,      /* KeyboardInterrupt */
    TSR_ERR_ASSERTION,        /* AssertionError (e.g. "Torch not compiled with CUDA enabled") */
    TSR_ERR_LINALG,           /* torch._C._LinAlgError (a RuntimeError): singular or not positive-definite input */
    TSR_ERR_KIND_COUNT
} tsr_errkind;

/* Records an error of `kind` with a printf-style message, unless an error is
 * already recorded (first error wins). Never allocates: the message lives in a
 * fixed thread-local buffer (truncated at 4095 bytes). */
void tsr_error_set(tsr_errkind kind, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The recorded kind, TSR_OK when none. */
tsr_errkind tsr_error_kind(void);
/* The recorded message ("" when none); borrowed, valid until the next clear/set. */
const char *tsr_error_message(void);
/* Non-zero when an error is recorded. */
int tsr_error_occurred(void);
/* Forgets the recorded error. */
void tsr_error_clear(void);
/* Python exception name of a kind: "RuntimeError", "TypeError", "IndexError",
 * "ValueError", "NotImplementedError", "RuntimeError" (MEMORY, as PyTorch),
 * "KeyboardInterrupt", "AssertionError", "_LinAlgError"; "" for TSR_OK. */
const char *tsr_error_kind_name(tsr_errkind kind);
/* Records PyTorch's allocation failure: "DefaultCPUAllocator: can't allocate
 * memory: you tried to allocate N bytes. Error code 12 (Cannot allocate memory)". */
void tsr_error_nomem(size_t nbytes);

/* Allocation wrappers used by the whole runtime. On failure (real or simulated)
 * they return NULL and record tsr_error_nomem(n). tsr_free(NULL) is a no-op. */
void *tsr_malloc(size_t n);
void *tsr_calloc(size_t count, size_t size);
void *tsr_realloc(void *p, size_t n);
void tsr_free(void *p);
/* Fault injection: make the n-th allocation from now fail (n >= 1); n == 0
 * turns it off. Counts tsr_malloc/calloc/realloc and storage allocations. */
void tsr_fault_sim(long n);
/* Internal to the runtime's allocators: advances the fault countdown and
 * returns non-zero when this allocation must fail. */
int tsr_fault_tick(void);
/* Non-zero once a simulated fault has fired since the last tsr_fault_sim(). */
int tsr_fault_sim_fired(void);
/* Allocations left before the simulated fault (0 once it fired, or when off):
 * tsr_fault_sim(BIG) then BIG - tsr_fault_sim_left() counts allocations. */
long tsr_fault_sim_left(void);

/* Set by a signal handler (Ctrl-C); kernels poll it through tsr_check_interrupt(). */
extern volatile sig_atomic_t tsr_interrupted;
/* Returns -1 and records KeyboardInterrupt (message "") when the flag is set,
 * clearing the flag; returns 0 otherwise. Call between chunks of long loops. */
int tsr_check_interrupt(void);
/* Writes into a tensor the caller already holds (in-place ops, out=, copy_,
 * fill_, slice assignment) finish or change nothing: PyTorch sees Ctrl-C only
 * between ops, so 1.13 never leaves a tensor half-written. Such a write opens
 * a hold before its first store: tsr_interrupt_hold() polls once (-1 with
 * KeyboardInterrupt when Ctrl-C came already: nothing was written, no hold is
 * open) and returns 0 with the hold open. While a hold is open
 * tsr_check_interrupt() and tsr_interrupt_pending() report nothing and leave
 * the flag set, so the first poll after the last tsr_interrupt_unhold()
 * raises it. Holds nest; only the interpreter's thread opens them. */
int tsr_interrupt_hold(void);
void tsr_interrupt_unhold(void);
/* Non-zero when Ctrl-C is pending and no hold is open. Never records an error
 * nor clears the flag: for hot loops and worker threads, which stop early and
 * leave the raising to tsr_check_interrupt() on the calling thread. */
int tsr_interrupt_pending(void);

#endif
