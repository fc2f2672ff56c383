/* runtime/ops/copy.h — copy_ (broadcast + any dtype to any dtype), fill_,
 * zero_, clone, contiguous, to(dtype). In-place functions return 0 or -1;
 * others return a NEW reference or NULL. Conversions: SEMANTICS.md §1, c10
 * static_cast rules (float→int truncates, complex→real takes the real part,
 * anything→bool is != 0). */
#ifndef TSR_OPS_COPY_H
#define TSR_OPS_COPY_H
#include "../tensor.h"

/* dst.copy_(src): src broadcast to dst's shape, converted to dst's dtype.
 * Overlapping src/dst are handled (src is staged). Meta src into a data
 * tensor → NotImplementedError "Cannot copy out of meta tensor; no data!". */
int tsr_copy_(tsr_tensor *dst, const tsr_tensor *src);
/* t.fill_(v): v converted to t's dtype (no overflow check: callers that need
 * PyTorch's check call tsr_scalar_check_fits first). */
int tsr_fill_(tsr_tensor *t, tsr_scalar v);
int tsr_zero_(tsr_tensor *t);
/* t.fill_(value) with a tensor value: it must be 0-dim (TensorFill.cpp fill_),
 * then it is copied into every element. 0 or -1. */
int tsr_fill_tensor_(tsr_tensor *t, const tsr_tensor *value);
/* t.fill_(v) with PyTorch's overflow check of v against t's dtype. 0 or -1. */
int tsr_fill_checked_(tsr_tensor *t, tsr_scalar v);
/* clone(memory_format): PRESERVE keeps dense strides (§4.3). */
tsr_tensor *tsr_clone(const tsr_tensor *t, tsr_memory_format mf);
/* contiguous(memory_format): a new reference to t itself when already
 * contiguous in mf, else a copy. PRESERVE on a non-contiguous tensor is
 * rejected as PyTorch does ("preserve memory format is unsupported by the
 * contiguous operator"). */
tsr_tensor *tsr_contiguous(const tsr_tensor *t, tsr_memory_format mf);
/* to(dtype, copy=False): t itself (new reference) when dtype matches and !copy,
 * else a preserve_format copy converted to dtype. */
tsr_tensor *tsr_to_dtype(const tsr_tensor *t, tsr_dtype dtype, bool copy);
/* A kernel's input cast to dtype and made contiguous in mf: t itself (new
 * reference) when its dtype matches and it is contiguous in mf, else a copy
 * (PRESERVE keeps t's layout). The user-facing x.float(memory_format=mf)
 * is tsr_to_format, which decides by the suggested format instead. */
tsr_tensor *tsr_to_dtype_format(const tsr_tensor *t, tsr_dtype dtype, tsr_memory_format mf);
/* to(device, dtype): dtype TSR_DTYPE_UNDEFINED keeps t's. */
tsr_tensor *tsr_to_device(const tsr_tensor *t, tsr_device device, tsr_dtype dtype, bool copy);
/* to(device, dtype, copy, memory_format=mf) as 1.13's to/_to_copy: t itself
 * (new reference) when nothing changes and t's suggested memory format is
 * mf, else a new tensor laid out in mf (PRESERVE: tsr_to_device). */
tsr_tensor *tsr_to_format(const tsr_tensor *t, tsr_device device, tsr_dtype dtype, bool copy,
                          tsr_memory_format mf);

/* The math bits (conjugate, negative; tensor.h). resolve: t itself (new
 * reference) when it has no bit, else a new tensor of t's values
 * (preserve_format strides, no bit): x.resolve_conj().resolve_neg().
 * resolve_conj / resolve_neg resolve one bit each (1.13's UnaryOps.cpp). */
tsr_tensor *tsr_resolve_bits(const tsr_tensor *t);
tsr_tensor *tsr_resolve_conj(const tsr_tensor *t);
tsr_tensor *tsr_resolve_neg(const tsr_tensor *t);

#endif
