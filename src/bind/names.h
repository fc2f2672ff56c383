/* src/bind/names.h — named tensors as the language sees them: name lists
 * from values, the names tuple, and the API methods (bind/names.c). */
#ifndef TSR_BIND_NAMES_H
#define TSR_BIND_NAMES_H

#include "bind/bind.h"
#include "tsr.h"

/* One name: a str (validated, "*" the wildcard) or None. 0, or -1 with the error. */
int bind_names_one(Value *v, tsr_name *out);
/* A tuple or list of names into out[0 .. *n - 1] (at most max). 0/-1. */
int bind_names_from_value(Value *v, tsr_name *out, int max, int *n);
/* t.names: a tuple with one str or None per dim. New reference. */
Value *bind_names_tuple(const tsr_tensor *t);
void bind_names_init(void);
/* Prints the UserWarning the runtime left pending (the first named
 * tensor's), unless warnings are ignored. */
void bind_names_warn(void);
/* Appends qualname ("Tensor.rename") to the TSR_NAMES_LOG file, when set:
 * a call that ran with named tensors (table_names.c). */
void bind_names_log(const char *qualname);
/* :explain's step for a method of the named-tensor API (rename, align_to,
 * ...): rule and detail in words, r its result (NULL: it failed). */
void bind_names_explain_api(const char *fname, const char *rule, const char *detail, const tsr_tensor *self,
                            const tsr_tensor *other, Value *r);

#endif
