/* src/bind/numpy.h — the numpy module's arrays as the torch bindings see
 * them (numpy.c): an ndarray is a runtime tensor header over a shared
 * storage; these convert between the two values. Ownership as in value.h. */
#ifndef TSR_BIND_NUMPY_H
#define TSR_BIND_NUMPY_H

#include <stdbool.h>
#include "tsr.h"
#include "value.h"

extern const VType t_ndarray;                /* <class 'numpy.ndarray'> */
bool numpy_is_array(Value *v);
bool numpy_is_scalar(Value *v);              /* np.float32(1.5), a[0, 0] */
/* A scalar's dtype, and its value as a Python number (new ref). */
tsr_dtype numpy_scalar_dtype(Value *v);
Value *numpy_scalar_item(Value *v);
/* The array's tensor header (borrowed). */
tsr_tensor *numpy_tensor(Value *v);
/* x.numpy(force=): an array sharing the tensor's memory, or 1.13's errors
 * (requires grad, not on cpu, conj/neg bit, sparse, bfloat16). New ref. */
Value *numpy_from_tensor(Value *x, bool force);
/* torch.from_numpy(a): a tensor sharing a's memory. New ref. */
Value *numpy_to_tensor(Value *a);
/* torch.as_tensor(a, dtype) (copy false: shared when dt is a's dtype or
 * undefined) and torch.tensor(a, dtype) (copy true). New ref. */
Value *numpy_as_tensor(Value *a, tsr_dtype dt, bool copy);

#endif
