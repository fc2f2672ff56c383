/* src/bind/io_pickle.h — the pickle subset torch.save writes and torch.load
 * reads (protocol 2; PyTorch's torch/_weights_only_unpickler.py gives the
 * opcodes and globals a file may use). Tensors and storages are the only
 * objects beyond Python's containers; a storage crosses the pickle as a
 * persistent id that the caller (bind/io.c) turns into a record. */
#ifndef TSR_BIND_IO_PICKLE_H
#define TSR_BIND_IO_PICKLE_H

#include <stdbool.h>
#include <stddef.h>

#include "value.h"
#include "tsr.h"

typedef struct { char *p; size_t n, cap; } PickleBuf;   /* tsr_malloc'd; free with tsr_free(b.p) */

/* Gives a storage (read as dtype) its record key ("0", "1", ...; borrowed,
 * stable while the pickler runs) and location ("cpu", "meta"); -1 with an
 * exception (1.13's "Cannot save multiple tensors or storages that view the
 * same data as different types"). */
typedef int (*PicklePersist)(void *ctx, tsr_storage *s, tsr_dtype dtype, const char **key, const char **location);

/* Pickles obj (tensors, storages, lists, tuples, dicts, str, int, float,
 * bool, None) as PyTorch's Pickler does with protocol 2: the same opcodes,
 * memo and batching. 0, or -1 with the exception (TypeError "cannot pickle
 * 'X' object" for any other value). */
int pickle_dump(Value *obj, PickleBuf *out, PicklePersist persist, void *ctx);

/* Turns a persistent id (the tuple ('storage', StorageClass, key, location,
 * numel)) into a storage value, or NULL with the exception. dtype: the
 * storage class's; pid borrowed. */
typedef Value *(*PickleLoad)(void *ctx, tsr_dtype dtype, const char *key, const char *location, int64_t numel);

/* Unpickles data[0..n). weights_only: torch/_weights_only_unpickler.py's
 * rules and messages (RuntimeError for what it refuses, which torch.load
 * then wraps); else the C unpickler's messages (_pickle.c) for malformed
 * data, with the same allow-list of globals. New reference or NULL. */
Value *pickle_load(const char *data, size_t n, bool weights_only, PickleLoad load, void *ctx);

/* torch.load of data[0..n) with map_location None (bind/io.c; the fuzz
 * target's entry). New reference or NULL with the exception. */
Value *bind_io_load_bytes(const char *data, size_t n, bool weights_only);

#endif
