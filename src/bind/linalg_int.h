/* src/bind/linalg_int.h — what the torch.linalg binding files share: the
 * named-tuple results of linalg_lapack.c and linalg_comp.c, with or
 * without out=. */
#ifndef TSR_BIND_LINALG_INT_H
#define TSR_BIND_LINALG_INT_H

#include "bind/table.h"
#include "bind/tensor.h"

/* The named tuple rt of n new runtime results t (stolen); with out= (a
 * tuple of n tensors in b's out slot) each result is written into its out
 * tensor (fn NULL: a structured op's exact dtype; else fn's "safely
 * castable" check naming names[i]) and rt_out holds the out tensors
 * themselves. NULL with the error set. */
Value *bind_linalg_tuple(const ReturnType *rt, const ReturnType *rt_out, int n, tsr_tensor **t, const BindArgs *b,
                         const char *fn, const char *const *names);

#endif
