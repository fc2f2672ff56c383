/* src/ctors.h — the built-in types' constructors (src/ctors.c), named by
 * the construct slot of each type's VType (types.c, containers.c). BuiltinFn
 * contract: self is the type object; a new reference, or NULL with the
 * exception set. */
#ifndef TSR_CTORS_H
#define TSR_CTORS_H

#include "value.h"

Value *ctor_int(Value *self, CallArgs *a, void *d);
Value *ctor_float(Value *self, CallArgs *a, void *d);
Value *ctor_complex(Value *self, CallArgs *a, void *d);
Value *ctor_bool(Value *self, CallArgs *a, void *d);
Value *ctor_str(Value *self, CallArgs *a, void *d);
Value *ctor_tuple(Value *self, CallArgs *a, void *d);
Value *ctor_list(Value *self, CallArgs *a, void *d);
Value *ctor_dict(Value *self, CallArgs *a, void *d);
Value *ctor_range(Value *self, CallArgs *a, void *d);
Value *ctor_slice(Value *self, CallArgs *a, void *d);
Value *ctor_type(Value *self, CallArgs *a, void *d);

#endif
