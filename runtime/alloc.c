/* runtime/alloc.c — the CPU block allocator behind the cpu backend.
 * Blocks >= TSR_CACHE_MIN are rounded up to a size class (4 classes per power
 * of two) and, when freed, parked in a small bounded cache so the next
 * allocation of that class reuses pages that are already mapped (as PyTorch's
 * CUDA caching allocator does on the GPU). Blocks of 1 MiB and more come from
 * mmap, 2 MiB aligned and advised to use transparent huge pages: a fresh
 * 400 MB result then takes 200 page faults instead of 100,000. The cache
 * holds at most a quarter of the memory budget, and never so much that live
 * plus cached bytes pass the budget: under that pressure it is emptied. */
#include <sys/mman.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include "alloc.h"
#include "error.h"

#define CACHE_SLOTS 32
#define MMAP_MIN ((size_t)1 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

static struct { void *p; size_t cls; } cache[CACHE_SLOTS];
static size_t cache_n, cache_bytes, cache_hits, cache_misses;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t size_class(size_t n)
{
    if (n < TSR_CACHE_MIN) return n;
    size_t p = (size_t)1 << (63 - __builtin_clzll(n));   /* highest power of two <= n */
    size_t step = p / 4;
    if (step == 0) return n;
    size_t c = (n + step - 1) / step * step;
    return c < n ? n : c;                                /* overflow: keep n */
}

/* Small blocks (the data of scalars and short vectors, made and dropped by
 * every small operation) are kept per thread in lists by 64-byte class. */
#define SMALL_MAX 1024
#define SMALL_CLASSES (SMALL_MAX / 64)
#define SMALL_KEEP 64
static __thread void *small_free[SMALL_CLASSES];
static __thread int small_count[SMALL_CLASSES];

static void small_trim(void)
{
    for (int c = 0; c < SMALL_CLASSES; c++) {
        while (small_free[c]) {
            void *p = small_free[c];
            small_free[c] = *(void **)p;
            free(p);
        }
        small_count[c] = 0;
    }
}

/* ------------------------------------------------------------ budget */

static size_t mem_live, mem_peak, mem_limit;   /* mem_limit 0: not yet decided */

static size_t phys_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    return pages > 0 && psize > 0 ? (size_t)pages * (size_t)psize : SIZE_MAX;
}

static size_t limit_now(void)
{
    size_t l = __atomic_load_n(&mem_limit, __ATOMIC_RELAXED);
    if (!l) {
        l = phys_bytes() / 2;
        __atomic_store_n(&mem_limit, l, __ATOMIC_RELAXED);
    }
    return l;
}

void tsr_mem_set_limit(size_t nbytes) { __atomic_store_n(&mem_limit, nbytes, __ATOMIC_RELAXED); }

tsr_mem_usage tsr_mem_usage_now(void)
{
    return (tsr_mem_usage){__atomic_load_n(&mem_live, __ATOMIC_RELAXED), __atomic_load_n(&mem_peak, __ATOMIC_RELAXED),
                           limit_now()};
}

void tsr_mem_reset_peak(void) { __atomic_store_n(&mem_peak, __atomic_load_n(&mem_live, __ATOMIC_RELAXED), __ATOMIC_RELAXED); }

/* Takes nbytes from the budget: 0, or -1 with PyTorch's error when it is spent. */
static int budget_take(size_t nbytes)
{
    size_t limit = limit_now(), live = __atomic_load_n(&mem_live, __ATOMIC_RELAXED), want;
    do {
        if (nbytes > limit || live > limit - nbytes) {
            tsr_error_nomem(nbytes);
            return -1;
        }
        want = live + nbytes;
    } while (!__atomic_compare_exchange_n(&mem_live, &live, want, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    size_t peak = __atomic_load_n(&mem_peak, __ATOMIC_RELAXED);
    while (want > peak && !__atomic_compare_exchange_n(&mem_peak, &peak, want, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return 0;
}

static void budget_give(size_t nbytes) { __atomic_sub_fetch(&mem_live, nbytes, __ATOMIC_RELAXED); }

/* ------------------------------------------------------------ blocks */

/* A block of cls bytes from the system: mmap'd (huge-page aligned when at
 * least one huge page) from MMAP_MIN, else from malloc; NULL on failure. */
static void *os_alloc(size_t cls)
{
    if (cls < MMAP_MIN) {
        void *p = NULL;
        return posix_memalign(&p, 64, cls) == 0 ? p : NULL;
    }
    size_t extra = cls >= HUGE_PAGE ? HUGE_PAGE : 0;
    char *p = mmap(NULL, cls + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    if (extra) {   /* keep the 2 MiB-aligned cls bytes, unmap the rest */
        size_t head = (HUGE_PAGE - ((uintptr_t)p & (HUGE_PAGE - 1))) & (HUGE_PAGE - 1);
        if (head) munmap(p, head);
        if (extra - head) munmap(p + head + cls, extra - head);
        p += head;
#ifdef MADV_HUGEPAGE
        madvise(p, cls, MADV_HUGEPAGE);
#endif
    }
    return p;
}

static void os_free(void *p, size_t cls)
{
    if (cls < MMAP_MIN) free(p);
    else munmap(p, cls);
}

/* The cache's bound: a quarter of the memory budget. */
static size_t cache_cap(void) { return limit_now() / 4; }

static void *block_alloc(size_t nbytes);

void *tsr_cpu_alloc(size_t nbytes)
{
    if (tsr_fault_tick()) { tsr_error_nomem(nbytes); return NULL; }
    if (nbytes == 0) return NULL;
    if (budget_take(nbytes) < 0) return NULL;
    void *p = block_alloc(nbytes);
    if (!p) budget_give(nbytes);
    return p;
}

static void *block_alloc(size_t nbytes)
{
    if (nbytes <= SMALL_MAX) {
        int c = (int)((nbytes - 1) / 64);
        void *p = small_free[c];
        if (p) {
            small_free[c] = *(void **)p;
            small_count[c]--;
            return p;
        }
        if (posix_memalign(&p, 64, (size_t)(c + 1) * 64) != 0) p = NULL;
        if (!p) tsr_error_nomem(nbytes);
        return p;
    }
    size_t cls = size_class(nbytes);
    if (cls >= TSR_CACHE_MIN) {
        pthread_mutex_lock(&cache_lock);
        for (size_t i = cache_n; i-- > 0;) {
            if (cache[i].cls == cls) {
                void *p = cache[i].p;
                cache[i] = cache[--cache_n];
                cache_bytes -= cls;
                cache_hits++;
                pthread_mutex_unlock(&cache_lock);
                return p;
            }
        }
        cache_misses++;
        /* pressure: the parked blocks and the new one would not fit the budget */
        bool trim = cache_bytes && __atomic_load_n(&mem_live, __ATOMIC_RELAXED) + cache_bytes > limit_now();
        pthread_mutex_unlock(&cache_lock);
        if (trim) tsr_storage_cache_trim();
    }
    void *p = NULL;
    /* More than the machine's memory can never succeed: say so at once
     * rather than leave it to overcommit (or to a sanitizer's allocator). */
    static size_t phys;
    if (!phys) phys = phys_bytes();
    if (cls > phys) {
        tsr_error_nomem(nbytes);
        return NULL;
    }
    if (!(p = os_alloc(cls))) {
        /* A full cache may be what stands in the way. */
        tsr_storage_cache_trim();
        p = os_alloc(cls);
    }
    if (!p) tsr_error_nomem(nbytes);
    return p;
}

void tsr_cpu_free(void *p, size_t nbytes)
{
    if (!p) return;
    budget_give(nbytes);
    if (nbytes <= SMALL_MAX && nbytes) {
        int c = (int)((nbytes - 1) / 64);
        if (small_count[c] < SMALL_KEEP) {
            *(void **)p = small_free[c];
            small_free[c] = p;
            small_count[c]++;
            return;
        }
        free(p);
        return;
    }
    size_t cls = size_class(nbytes);
    size_t cap = cache_cap();
    if (cls >= TSR_CACHE_MIN && cls <= cap) {
        pthread_mutex_lock(&cache_lock);
        if (cache_n < CACHE_SLOTS && cache_bytes + cls <= cap &&
            __atomic_load_n(&mem_live, __ATOMIC_RELAXED) + cache_bytes + cls <= limit_now()) {
            cache[cache_n].p = p;
            cache[cache_n].cls = cls;
            cache_n++;
            cache_bytes += cls;
            pthread_mutex_unlock(&cache_lock);
            return;
        }
        pthread_mutex_unlock(&cache_lock);
    }
    os_free(p, cls);
}

void tsr_storage_cache_trim(void)
{
    small_trim();
    pthread_mutex_lock(&cache_lock);
    for (size_t i = 0; i < cache_n; i++) os_free(cache[i].p, cache[i].cls);
    cache_n = 0;
    cache_bytes = 0;
    pthread_mutex_unlock(&cache_lock);
}

tsr_cache_stats tsr_storage_cache_stats(void)
{
    pthread_mutex_lock(&cache_lock);
    tsr_cache_stats s = {cache_n, cache_bytes, cache_hits, cache_misses};
    pthread_mutex_unlock(&cache_lock);
    return s;
}

/* Returns the cache to the system at exit so leak checkers see a clean heap. */
__attribute__((destructor)) static void cache_at_exit(void) { tsr_storage_cache_trim(); }
