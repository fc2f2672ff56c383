/* src/bind/storage.h — the language's Storage values: 1.13's TypedStorage, a
 * typed view of a whole runtime buffer (x.storage(), torch.FloatStorage(3)).
 * Indexing reads and writes through to every tensor on the buffer (§7). */
#ifndef TSR_BIND_STORAGE_H
#define TSR_BIND_STORAGE_H

#include "bind/tensor.h"

extern const VType t_storage;                /* <class 'torch.storage.TypedStorage'> */
extern const VType t_storage_class;          /* <class 'torch.FloatStorage'> values */

/* A storage value over s read as dtype (takes a new reference to s). */
Value *v_storage(tsr_storage *s, tsr_dtype dtype);
static inline bool is_storage(Value *v) { return v->type == &t_storage; }
/* The runtime storage (borrowed) and the dtype the value reads it as. */
static inline tsr_storage *storage_of(Value *v) { return (tsr_storage *)v->u.ext.ptr; }
static inline tsr_dtype storage_dtype(Value *v) { return (tsr_dtype)v->u.ext.a; }
/* Elements as the value sees them: nbytes / itemsize of its dtype. */
int64_t storage_len(Value *v);
/* Element i (0 <= i < storage_len) as a Python scalar; new reference. */
Value *storage_item(Value *v, int64_t i);

/* x.storage_type() and torch.FloatStorage: the class value of a dtype. */
Value *storage_class_value(tsr_dtype d);

#endif
