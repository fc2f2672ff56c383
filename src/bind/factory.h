/* src/bind/factory.h — what factory.c offers the other binding files: the
 * legacy tensor classes (torch.FloatTensor, torch.cuda.LongTensor, ...) and
 * torch.tensor's conversion of Python data (SEMANTICS.md §1.6, §7). */
#ifndef TSR_BIND_FACTORY_H
#define TSR_BIND_FACTORY_H

#include "bind/tensor.h"

/* The legacy classes are type objects (t_type values, repr "<class
 * 'torch.FloatTensor'>") whose VType name is "torch.FloatTensor" or
 * "torch.cuda.FloatTensor"; calling one constructs Torch7 style. True when v
 * is one, with its dtype and whether it is a torch.cuda.* class. */
bool legacy_class_of(Value *v, tsr_dtype *dtype, bool *cuda);

/* torch.tensor(data)'s conversion: a new CPU tensor of dtype
 * (TSR_DTYPE_UNDEFINED: inferred as tensor_new.cpp does). NULL with the
 * exception set. */
tsr_tensor *factory_from_data(Value *data, tsr_dtype dtype);

/* The default device of factories (set_default_device / device context);
 * defined in types.c. */
tsr_device bind_default_device(void);

/* s.new(...) of a sparse s (sparse.c): 1.13's legacy sparse constructor. */
Value *bind_sparse_new(Value *self, CallArgs *a);

#endif
