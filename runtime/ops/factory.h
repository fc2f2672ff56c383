/* runtime/ops/factory.h — factories: empty, zeros, ones, full, arange, range,
 * linspace, logspace, eye, empty_strided, *_like. Inferring a dtype from Python
 * data is the language's job; the defaults that follow from the arguments
 * (full's fill value, arange's bounds) are decided here. NEW reference or
 * NULL + error. */
#ifndef TSR_OPS_FACTORY_H
#define TSR_OPS_FACTORY_H
#include "../tensor.h"

/* check_out_type_matches (python_arg_parser's generated bindings): the
 * creation options a call with out= gave, each NULL when absent, against
 * out. 0, or -1 with "dtype Long does not match dtype of out parameter
 * (Float)", "layout Sparse does not match layout of out parameter (Strided)"
 * or "device type meta does not match device type of out parameter (cpu)". */
int tsr_check_out_options(const tsr_tensor *out, const tsr_dtype *dtype, const tsr_layout *layout,
                          const tsr_device *device);

/* Writes a factory's new result r into its out= tensor as 1.13's *_out
 * functions do: out keeps its shape and strides when it has r's shape (or,
 * with keep_numel, as many elements: arange, linspace, logspace), else it is
 * resized in place (resize_, storage shared with its views) to r's shape;
 * then r's values are copied in, in out's logical order. 0 or -1. */
int tsr_factory_out(tsr_tensor *out, const tsr_tensor *r, bool keep_numel);

tsr_tensor *tsr_empty(int ndim, const int64_t *sizes, tsr_dtype dtype, tsr_device device,
                      tsr_memory_format mf);
tsr_tensor *tsr_zeros(int ndim, const int64_t *sizes, tsr_dtype dtype, tsr_device device);
tsr_tensor *tsr_ones(int ndim, const int64_t *sizes, tsr_dtype dtype, tsr_device device);
tsr_tensor *tsr_full(int ndim, const int64_t *sizes, tsr_scalar v, tsr_dtype dtype, tsr_device device);
/* The dtype full(size, v) gives without dtype=: bool, int64, the default
 * float or its complex (complex64 under a float16 default) by v's kind; the
 * default dtype on meta, where 1.13 infers nothing. */
tsr_dtype tsr_full_dtype(tsr_scalar v, tsr_device device);
/* Number of elements of arange(start, end, step): ceil((end-start)/step) with
 * PyTorch's checks: "step must be nonzero", "upper bound and larger bound
 * inconsistent with step sign", non-finite bounds "unsupported range: ...".
 * An int64 result counts in int64 ((end - start + step - sign) / step), as
 * 1.13 does; other dtypes in double. Returns 0 / -1. */
int tsr_arange_numel(tsr_scalar start, tsr_scalar end, tsr_scalar step, tsr_dtype dtype, int64_t *out);
/* dtype UNDEFINED: int64 when every bound is an int or bool, else the
 * default dtype; a complex bound fails as 1.13's conversion to double does. */
tsr_tensor *tsr_arange(tsr_scalar start, tsr_scalar end, tsr_scalar step, tsr_dtype dtype, tsr_device device);
/* torch.range (deprecated in 1.13): end included, floor((end - start) / step)
 * + 1 elements computed as start + i * step in acc_type; dtype UNDEFINED is
 * the default dtype. Half, bool and complex: "\"range_cpu\" not implemented". */
tsr_tensor *tsr_range(tsr_scalar start, tsr_scalar end, tsr_scalar step, tsr_dtype dtype, tsr_device device);
/* linspace_logspace_infer_options (RangeFactories.cpp), after the steps
 * check: the dtype of linspace/logspace, dtype UNDEFINED when the call passed
 * none. Complex
 * endpoints give the default complex dtype, and with a real dtype fail with
 * "torch.linspace(): inferred dtype c10::complex<float> can't be safely cast
 * to passed dtype Float" (fn names the function). 0 / -1. */
int tsr_space_dtype(tsr_scalar start, tsr_scalar end, int64_t steps, tsr_dtype dtype, const char *fn,
                    tsr_dtype *out);
/* steps < 0: "number of steps must be non-negative"; endpoints must fit dtype
 * (Scalar::to<scalar_t>: "value cannot be converted to type float without
 * overflow" for a complex endpoint of a real out=). */
tsr_tensor *tsr_linspace(tsr_scalar start, tsr_scalar end, int64_t steps, tsr_dtype dtype, tsr_device device);
tsr_tensor *tsr_logspace(tsr_scalar start, tsr_scalar end, int64_t steps, double base,
                         tsr_dtype dtype, tsr_device device);
/* eye(n, m); m < 0 means m = n. */
tsr_tensor *tsr_eye(int64_t n, int64_t m, tsr_dtype dtype, tsr_device device);
/* eye(n, m) as torch.eye(n, m) checks it: "n must be greater or equal to 0,
 * got -1", then the same for m; dtype UNDEFINED is the default dtype. */
tsr_tensor *tsr_eye_m(int64_t n, int64_t m, tsr_dtype dtype, tsr_device device);
/* empty_strided(size, stride): "dimensionality of sizes (2) must match
 * dimensionality of strides (1)", negative strides "Storage size calculation
 * overflowed with sizes=[..] and strides=[..]"; dtype UNDEFINED: default. */
tsr_tensor *tsr_empty_strided(int n, const int64_t *sizes, int nstrides, const int64_t *strides, tsr_dtype dtype,
                              tsr_device device);
/* requires_grad=True on a factory's new result t: -1 with "Only Tensors of
 * floating point and complex dtype can require gradients" for other dtypes. */
int tsr_factory_requires_grad(tsr_tensor *t);
/* *_like: dtype UNDEFINED keeps t's; mf PRESERVE follows §4.3. */
tsr_tensor *tsr_empty_like(const tsr_tensor *t, tsr_dtype dtype, tsr_device device, tsr_memory_format mf);
tsr_tensor *tsr_zeros_like(const tsr_tensor *t, tsr_dtype dtype, tsr_device device, tsr_memory_format mf);
tsr_tensor *tsr_ones_like(const tsr_tensor *t, tsr_dtype dtype, tsr_device device, tsr_memory_format mf);
tsr_tensor *tsr_full_like(const tsr_tensor *t, tsr_scalar v, tsr_dtype dtype, tsr_device device,
                          tsr_memory_format mf);

#endif
