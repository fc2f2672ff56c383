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

#endif
