/* src/bind/tensor.h — the torch values of the language: Tensor, dtype,
 * device, layout, memory_format, Size, Storage, finfo/iinfo. The contract
 * between the binding files (each area registers its functions from bind/areas.c's list):
 *   types.c     value types other than Tensor (dtype, device, Size, ...)
 *   tensor.c    the Tensor type: properties, methods table, indexing
 *   shape.c     views and shape ops (binding-table rows)
 *   attrs.c     size/stride/item, copies, fills, casts, to/type (rows)
 *   factory.c   torch.tensor / zeros / arange / legacy constructors ...
 *   storage.c   Storage values and the torch.FloatStorage classes
 *   show/       printing (repr(t) is show_tensor_repr of src/show/show.h)
 * Ownership as in value.h. */
#ifndef TSR_BIND_TENSOR_H
#define TSR_BIND_TENSOR_H

#include "bind/bind.h"
#include "tsr.h"

/* ---- Tensor values ---- */
extern const VType t_tensor;                 /* name "Tensor", module "torch" */
Value *v_tensor(tsr_tensor *t);              /* steals t; NULL t: converts the runtime error */
static inline bool is_tensor(Value *v) { return v->type == &t_tensor; }
static inline tsr_tensor *tensor_of(Value *v) { return (tsr_tensor *)v->u.ext.ptr; } /* borrowed */

/* torch.Tensor(...): the construct slot of t_tensor (factory.c), Torch7's
 * legacy constructor with the default dtype. */
Value *factory_tensor_new(Value *self, CallArgs *a, void *data);

/* Registers a Tensor method (x.name(...)); fn receives self = the tensor value. */
void bind_tensor_method(const char *name, BuiltinFn fn);
/* The same with a data pointer the method receives (a binding-table row). */
void bind_tensor_method_data(const char *name, BuiltinFn fn, void *data);
/* The i-th registered method's name, NULL past the last (registration order). */
const char *bind_tensor_method_name(int i);
/* Registers a Tensor attribute; set may be NULL (read-only). */
typedef Value *(*PropGet)(Value *self);
typedef int (*PropSet)(Value *self, Value *x);
void bind_tensor_property(const char *name, PropGet get, PropSet set);
/* A `torch.NAME` function that is also a method `x.NAME(...)` with self as
 * the first argument (input). */
void bind_torch_function(const char *name, BuiltinFn fn, bool also_method);

/* Converts the runtime's pending error (tsr_error_*) into the language's
 * exception with PyTorch's type; returns NULL / -1 for tail calls. */
Value *bind_runtime_error(void);
/* t.mH / t.H / t.adjoint(): r (the view, stolen) recorded as 1.13 records
 * it when t needs a graph (TransposeBackward0, then ConjBackward0 for a
 * complex t). NEW reference or NULL with the runtime's error. */
tsr_tensor *bind_grad_adjoint(tsr_tensor *t, tsr_tensor *r);
int bind_runtime_errori(void);
/* v is a tensor on a device the host cannot read (cuda). */
bool bind_on_external(Value *v);
/* NotImplementedError "Could not run 'aten::NAME' with arguments from the
 * 'CUDA' backend. ..." for the op named name on device d; returns -1. */
int bind_device_no_kernel(const char *name, tsr_device d);

/* The Tensor type's operator slots (VType binop/inplace/unop/compare), defined
 * in ops.c: + - * / // % ** & | ^ << >> with their reflected and augmented
 * forms, unary - + ~, and the comparisons. Contracts as in value.h's VType. */
Value *ops_tensor_binop(int op, Value *self, Value *other, int reflected);
Value *ops_tensor_inplace(int op, Value *self, Value *other);
Value *ops_tensor_unop(int op, Value *self);
Value *ops_tensor_compare(int op, Value *self, Value *other, int reflected);
/* The operator slots' sparse step (sparse.c): an operator (OP_*, -1 for
 * unary minus) with a sparse operand, computed or refused as 1.13. */
Value *bind_sparse_operator(int op, Value *self, Value *other, int reflected);

/* ---- dtype ---- */
extern const VType t_dtype;                  /* repr "torch.float32" */
Value *v_dtype(tsr_dtype d);                 /* new ref */
static inline bool is_dtype(Value *v) { return v->type == &t_dtype; }
static inline tsr_dtype dtype_of(Value *v) { return (tsr_dtype)v->u.ext.a; }
/* Accepts a dtype value (None -> dflt). -1 with TypeError otherwise. */
int bind_dtype_arg(Value *v, const char *fname, tsr_dtype dflt, tsr_dtype *out);

/* ---- device ---- */
extern const VType t_device;                 /* repr "device(type='cuda', index=0)" */
Value *v_device(tsr_device d);
static inline bool is_device(Value *v) { return v->type == &t_device; }
tsr_device device_of(Value *v);
/* Accepts a torch.device, a string ('cuda:1'), an int (cuda index) or None
 * (-> dflt), with PyTorch's errors. */
int bind_device_arg(Value *v, tsr_device dflt, tsr_device *out);
/* The device factories use when no device= is given: the innermost
 * `with torch.device(...)` block, else torch.set_default_device's, else cpu. */
tsr_device bind_default_device(void);

/* ---- layout, memory_format ---- */
extern const VType t_layout, t_memory_format;
Value *v_layout(tsr_layout l);
Value *v_memory_format(tsr_memory_format mf);
int bind_memory_format_arg(Value *v, tsr_memory_format dflt, tsr_memory_format *out);

/* ---- torch.Size: a tuple subtype printing as torch.Size([2, 3]) ---- */
extern const VType t_size;
Value *v_size(int n, const int64_t *sizes);
/* A shape from Python arguments the way PyTorch accepts them: f(2, 3),
 * f((2, 3)), f([2, 3]), f(torch.Size([2, 3])). -1 with PyTorch's TypeError. */
int bind_shape(CallArgs *a, int first, int count, const char *fname, int *n, int64_t *sizes);
int bind_int_list(Value *v, const char *fname, const char *arg, int *n, int64_t *out, int max);

/* ---- Storage values (storage.c): 1.13's TypedStorage, a typed view of a
 * whole runtime buffer (x.storage(), torch.FloatStorage(3)). Indexing reads
 * and writes through to every tensor on the buffer (SEMANTICS.md §7). ---- */
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

/* ---- torch.return_types: named tuples of results (frexp), tuples that
 * also answer their field names and print as 1.13 does ---- */
typedef struct {
    VType type;                 /* name "frexp", module "torch.return_types" */
    int n;
    const char *fields[4];
} ReturnType;
extern const ReturnType rt_frexp, rt_frexp_out;
/* max / min along a dim (values, indices) and aminmax (min, max) */
extern const ReturnType rt_max, rt_max_out, rt_min, rt_min_out, rt_aminmax, rt_aminmax_out;
extern const ReturnType rt_cummax, rt_cummax_out, rt_cummin, rt_cummin_out, rt_sort, rt_sort_out;
extern const ReturnType rt_median, rt_median_out, rt_nanmedian, rt_nanmedian_out, rt_mode, rt_mode_out;
extern const ReturnType rt_topk, rt_topk_out, rt_kthvalue, rt_kthvalue_out;
extern const ReturnType rt_histogram, rt_histogram_out;   /* (hist, bin_edges) */
extern const ReturnType rt_histogramdd;                   /* (hist, bin_edges: a tuple of tensors) */
/* torch.linalg's results and the older torch.slogdet / qr / svd */
extern const ReturnType rt_linalg_inv_ex, rt_linalg_slogdet, rt_slogdet, rt_linalg_solve_ex, rt_linalg_cholesky_ex;
extern const ReturnType rt_linalg_qr, rt_qr, rt_linalg_eigh, rt_linalg_svd, rt_svd;
extern const ReturnType rt_linalg_lu_factor, rt_linalg_lu_factor_ex, rt_lu_with_info, rt_linalg_lu, rt_lu_unpack;
extern const ReturnType rt_triangular_solve, rt_linalg_eig, rt_geqrf;
extern const ReturnType rt_linalg_lstsq, rt_linalg_ldl_factor, rt_linalg_ldl_factor_ex;
extern const ReturnType rt_linalg_inv_ex_out, rt_linalg_slogdet_out, rt_slogdet_out, rt_linalg_solve_ex_out;
extern const ReturnType rt_linalg_cholesky_ex_out, rt_linalg_qr_out, rt_qr_out, rt_linalg_eigh_out, rt_linalg_svd_out;
extern const ReturnType rt_svd_out, rt_linalg_lu_factor_out, rt_linalg_lu_factor_ex_out, rt_linalg_lu_out;
extern const ReturnType rt_lu_unpack_out, rt_triangular_solve_out, rt_linalg_eig_out, rt_geqrf_out;
extern const ReturnType rt_linalg_lstsq_out, rt_linalg_ldl_factor_out, rt_linalg_ldl_factor_ex_out;
/* A new named tuple of rt->n items (steals each; NULL items are freed
 * with it on failure). */
Value *v_return_type(const ReturnType *rt, Value **items);

/* ---- scalars ---- */
/* A Python number (bool/int/float/complex) or a one-element tensor as a
 * runtime scalar; -1 with TypeError otherwise. */
int bind_scalar(Value *v, const char *fname, const char *arg, tsr_scalar *out);
Value *v_from_scalar(tsr_scalar s);          /* Python bool/int/float/complex */

#endif
