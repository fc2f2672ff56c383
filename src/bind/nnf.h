/* src/bind/nnf.h — what the torch.nn.functional binding files share. */
#ifndef TSR_BIND_NNF_H
#define TSR_BIND_NNF_H
#include "ops/nn.h"
#include "value.h"

/* The losses' size_average / reduce / reduction arguments as 1.13's
 * _Reduction.legacy_get_string / get_enum read them (the deprecation
 * UserWarning included): 0, or -1 with ValueError. */
int bind_nnf_reduction(Value *size_average, Value *reduce, Value *reduction, tsr_reduction *out);

#endif
