/* runtime/alloc.h — the raw CPU block allocator (cache-aware) that the cpu
 * backend of runtime/device hands to storages. Below device and storage:
 * it knows neither. */
#ifndef TSR_ALLOC_H
#define TSR_ALLOC_H
#include <stddef.h>

/* Raw CPU block allocator behind the cpu backend (cache-aware). Blocks of at
 * least TSR_CACHE_MIN bytes are rounded to a size class and kept on free. */
#define TSR_CACHE_MIN ((size_t)1 << 16)
void *tsr_cpu_alloc(size_t nbytes);
void tsr_cpu_free(void *p, size_t nbytes);
/* Returns every cached block to the system. */
void tsr_storage_cache_trim(void);
/* Cache statistics (for tests/benchmarks): blocks and bytes held, hits. */
typedef struct { size_t blocks, bytes, hits, misses; } tsr_cache_stats;
tsr_cache_stats tsr_storage_cache_stats(void);

/* The memory budget: bytes of live CPU tensor storage (what tsr_cpu_alloc
 * handed out and tsr_cpu_free has not taken back; the cache's parked blocks
 * are not live). An allocation that would take the live bytes past the limit
 * fails at once with PyTorch's DefaultCPUAllocator message (tsr_error_nomem),
 * even where the OS would overcommit. The limit defaults to half of physical
 * memory; tsr_mem_set_limit(0) restores that default. */
typedef struct { size_t current, peak, limit; } tsr_mem_usage;
void tsr_mem_set_limit(size_t nbytes);
/* Current and peak live bytes and the limit in force. */
tsr_mem_usage tsr_mem_usage_now(void);
/* Makes the peak the current use (torch.cuda.reset_peak_memory_stats). */
void tsr_mem_reset_peak(void);

#endif
