/* src/bind/sparse.c — sparse COO tensors in the language: the rows of
 * torch.sparse_coo_tensor, torch.sparse.sum/mm and the sparse methods, and
 * the sparse step of the table's call path (bind_sparse_call): a row whose
 * arguments hold a sparse tensor runs here when 1.13 computes it on
 * SparseCPU (the data below), and is refused with the dispatcher's exact
 * message otherwise, so no strided kernel ever sees a sparse tensor. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/areas.h"
#include "bind/factory.h"
#include "bind/ops.h"
#include "bind/table.h"
#include "bind/tensor.h"
#include "autograd.h"
#include "ops/compare.h"
#include "ops/copy.h"
#include "ops/reduce.h"
#include "ops/sparse.h"
#include "ops/distance.h"
#include "ops/factory.h"
#include "iter.h"
#include "view.h"

#define ARG(name) bind_table_arg(b, name)

/* ------------------------------------------------------------ refusals */

typedef struct { const char *key, *op; int list; } Refusal;
#include "bind/sparse_refuse.inc"

static int cmp_refusal(const void *k, const void *r) { return strcmp(k, ((const Refusal *)r)->key); }

/* The arguments of the call being refused besides the first: 's' (only
 * scalars), 't' (a tensor among them) or 0 (none); the table's "@s" / "@t"
 * keys name the overload 1.13 runs for them. */
static char call_kind;

static char kind_of_call(const BindArgs *b)
{
    char k = 0;
    for (int i = 1; i < BIND_MAXP; i++) {
        Value *v = b->v[i];
        if (!v || i == BIND_OUT) continue;
        if (is_tensor(v)) return 't';
        if (v->type == &t_list || v->type == &t_tuple)
            for (size_t j = 0; j < v->u.seq.n; j++)
                if (is_tensor(v->u.seq.items[j])) return 't';
        k = 's';
    }
    return k;
}

/* 1.13's NotImplementedError for fname (a method when method) called with
 * the sparse tensor t. */
static Value *refuse_as(const char *fname, bool method, const tsr_tensor *t, const char *opname);
static Value *refuse(const char *fname, bool method, const tsr_tensor *t) { return refuse_as(fname, method, t, NULL); }

/* The same naming the overload that ran (opname "aten::eq.Tensor") with the
 * backends fname's entry lists. */
static Value *refuse_as(const char *fname, bool method, const tsr_tensor *t, const char *opname)
{
    char key[80], op[96];
    static const char *const prefixes[] = {"linalg_", "special_", "fft_"};
    char qual[72];
    for (size_t k = 0; !method && k < sizeof prefixes / sizeof *prefixes; k++)
        if (!strncmp(fname, prefixes[k], strlen(prefixes[k]))) {   /* torch.linalg.norm is called linalg_norm */
            snprintf(qual, sizeof qual, "%.*s.%s", (int)strlen(prefixes[k]) - 1, prefixes[k], fname + strlen(prefixes[k]));
            const char *q = qual;
            snprintf(key, sizeof key, "f:%s", q);
            if (bsearch(key, refusals, sizeof refusals / sizeof *refusals, sizeof *refusals, cmp_refusal)) fname = q;
        }
    snprintf(key, sizeof key, "%s:%s%s%c", method ? "m" : "f", fname, call_kind ? "@" : "", call_kind);
    const Refusal *r = bsearch(key, refusals, sizeof refusals / sizeof *refusals, sizeof *refusals, cmp_refusal);
    if (!r && call_kind) {   /* no overload of its own for these arguments */
        snprintf(key, sizeof key, "%s:%s", method ? "m" : "f", fname);
        r = bsearch(key, refusals, sizeof refusals / sizeof *refusals, sizeof *refusals, cmp_refusal);
    }
    if (!r) {   /* the other form's entry names the same op */
        key[0] = method ? 'f' : 'm';
        r = bsearch(key, refusals, sizeof refusals / sizeof *refusals, sizeof *refusals, cmp_refusal);
    }
    snprintf(op, sizeof op, "aten::%s", fname);
    tsr_error_no_kernel(opname ? opname : r ? r->op : op, tsr_device_is_meta(t->device) ? "SparseMeta" : "SparseCPU",
                        r ? refuse_lists[r->list] : "CPU, Meta");
    return bind_runtime_error();
}

static tsr_tensor *first_sparse(BindArgs *b, Value *self)
{
    if (self && is_tensor(self) && tsr_is_sparse(tensor_of(self))) return tensor_of(self);
    for (int i = 0; i < BIND_MAXP; i++) {
        Value *v = b->v[i];
        if (!v) continue;
        if (is_tensor(v) && tsr_is_sparse(tensor_of(v))) return tensor_of(v);
        if (v->type == &t_list || v->type == &t_tuple)
            for (size_t k = 0; k < v->u.seq.n; k++)
                if (is_tensor(v->u.seq.items[k]) && tsr_is_sparse(tensor_of(v->u.seq.items[k])))
                    return tensor_of(v->u.seq.items[k]);
    }
    return NULL;
}

bool bind_sparse_args(BindArgs *b, Value *self) { return first_sparse(b, self) != NULL; }

/* ------------------------------------------------------------ existing rows on SparseCPU */

/* What a row does with a sparse argument (looked up by the name called). */
typedef enum { S_PASS, S_UNARY, S_CLONE, S_T, S_TRANSPOSE, S_MUL, S_ADD, S_SUB, S_MM, S_SUM, S_ZERO, S_RESIZE_AS, S_TO,
               S_CAST, S_NEG, S_DIV, S_IS_CONTIGUOUS, S_POW, S_PRED, S_ANY, S_SELECT, S_UNSQUEEZE, S_NORM, S_JOIN, S_SELF, S_SAME_SIZE, S_FALSE, S_PERMUTE, S_TYPE, S_INDEX_SELECT, S_ADJOINT,
               S_CONJ, S_COPY, S_NARROW_COPY, S_FLATTEN, S_MOVEDIM, S_SUM_TO_SIZE, S_BROADCAST, S_ASARRAY,
               S_FLOAT_POWER, S_LDEXP, S_DIST } SKind;
typedef struct { const char *name; SKind kind; int code; } SRow;

static SRow srows[] = {   /* sorted at start-up */
    {"abs", S_UNARY, TSR_UNOP_ABS}, {"abs_", S_UNARY, TSR_UNOP_ABS}, {"absolute", S_UNARY, TSR_UNOP_ABS},
    {"absolute_", S_UNARY, TSR_UNOP_ABS}, {"add", S_ADD, 0}, {"add_", S_ADD, 0},
    {"arcsin", S_UNARY, TSR_UNOP_ASIN}, {"arcsin_", S_UNARY, TSR_UNOP_ASIN}, {"arcsinh", S_UNARY, TSR_UNOP_ASINH},
    {"arcsinh_", S_UNARY, TSR_UNOP_ASINH}, {"arctan", S_UNARY, TSR_UNOP_ATAN}, {"arctan_", S_UNARY, TSR_UNOP_ATAN},
    {"arctanh", S_UNARY, TSR_UNOP_ATANH}, {"arctanh_", S_UNARY, TSR_UNOP_ATANH}, {"asin", S_UNARY, TSR_UNOP_ASIN},
    {"asin_", S_UNARY, TSR_UNOP_ASIN}, {"asinh", S_UNARY, TSR_UNOP_ASINH}, {"asinh_", S_UNARY, TSR_UNOP_ASINH},
    {"atan", S_UNARY, TSR_UNOP_ATAN}, {"atan_", S_UNARY, TSR_UNOP_ATAN}, {"atanh", S_UNARY, TSR_UNOP_ATANH},
    {"atanh_", S_UNARY, TSR_UNOP_ATANH}, {"ceil", S_UNARY, TSR_UNOP_CEIL}, {"ceil_", S_UNARY, TSR_UNOP_CEIL},
    {"clone", S_CLONE, 0}, {"deg2rad", S_UNARY, TSR_UNOP_DEG2RAD}, {"deg2rad_", S_UNARY, TSR_UNOP_DEG2RAD},
    {"data_ptr", S_PASS, 0}, {"any", S_ANY, 0}, {"round", S_UNARY, TSR_UNOP_ROUND}, {"round_", S_UNARY, TSR_UNOP_ROUND},
    {"nan_to_num", S_UNARY, TSR_UNOP_NAN_TO_NUM}, {"square", S_UNARY, TSR_UNOP_SQUARE},
    {"isnan", S_PRED, TSR_PRED_ISNAN}, {"isinf", S_PRED, TSR_PRED_ISINF}, {"signbit", S_PRED, TSR_PRED_SIGNBIT},
    {"isposinf", S_PRED, -1}, {"isneginf", S_PRED, -2}, {"pow", S_POW, TSR_BINOP_POW}, {"floor_divide", S_POW, TSR_BINOP_DIV_FLOOR}, {"dim", S_PASS, 0}, {"div", S_DIV, 0}, {"div_", S_DIV, 0}, {"divide", S_DIV, 0}, {"element_size", S_PASS, 0}, {"erf", S_UNARY, TSR_UNOP_ERF}, {"erf_", S_UNARY, TSR_UNOP_ERF},
    {"erfinv", S_UNARY, TSR_UNOP_ERFINV}, {"erfinv_", S_UNARY, TSR_UNOP_ERFINV}, {"expm1", S_UNARY, TSR_UNOP_EXPM1},
    {"expm1_", S_UNARY, TSR_UNOP_EXPM1}, {"fix", S_UNARY, TSR_UNOP_TRUNC}, {"fix_", S_UNARY, TSR_UNOP_TRUNC},
    {"floor", S_UNARY, TSR_UNOP_FLOOR}, {"floor_", S_UNARY, TSR_UNOP_FLOOR}, {"get_device", S_PASS, 0},
    {"is_complex", S_PASS, 0}, {"is_conj", S_PASS, 0}, {"is_floating_point", S_PASS, 0}, {"is_contiguous", S_IS_CONTIGUOUS, 0}, {"is_neg", S_PASS, 0},
    {"is_signed", S_PASS, 0}, {"log1p", S_UNARY, TSR_UNOP_LOG1P}, {"log1p_", S_UNARY, TSR_UNOP_LOG1P},
    {"matmul", S_MM, 0}, {"mm", S_MM, 0}, {"mul", S_MUL, 0}, {"mul_", S_MUL, 0}, {"multiply", S_MUL, 0},
    {"ndimension", S_PASS, 0}, {"neg", S_NEG, TSR_UNOP_NEG}, {"neg_", S_NEG, TSR_UNOP_NEG},
    {"negative", S_NEG, TSR_UNOP_NEG}, {"negative_", S_NEG, TSR_UNOP_NEG}, {"nelement", S_PASS, 0},
    {"numel", S_PASS, 0}, {"rad2deg", S_UNARY, TSR_UNOP_RAD2DEG}, {"rad2deg_", S_UNARY, TSR_UNOP_RAD2DEG},
    {"requires_grad_", S_PASS, 0}, {"resize_as_", S_RESIZE_AS, 0}, {"sgn", S_UNARY, TSR_UNOP_SGN},
    {"sgn_", S_UNARY, TSR_UNOP_SGN}, {"sign", S_UNARY, TSR_UNOP_SIGN}, {"sign_", S_UNARY, TSR_UNOP_SIGN},
    {"sin", S_UNARY, TSR_UNOP_SIN}, {"sin_", S_UNARY, TSR_UNOP_SIN}, {"sinh", S_UNARY, TSR_UNOP_SINH},
    {"sinh_", S_UNARY, TSR_UNOP_SINH}, {"size", S_PASS, 0}, {"sqrt", S_UNARY, TSR_UNOP_SQRT},
    {"sqrt_", S_UNARY, TSR_UNOP_SQRT}, {"storage_offset", S_PASS, 0}, {"stride", S_PASS, 0}, {"sub", S_SUB, 0}, {"sub_", S_SUB, 0}, {"subtract", S_SUB, 0},
    {"t", S_T, 0}, {"t_", S_T, 0}, {"transpose_", S_TRANSPOSE, 0}, {"tan", S_UNARY, TSR_UNOP_TAN}, {"tan_", S_UNARY, TSR_UNOP_TAN},
    {"tanh", S_UNARY, TSR_UNOP_TANH}, {"tanh_", S_UNARY, TSR_UNOP_TANH}, {"to", S_TO, 0},
    {"transpose", S_TRANSPOSE, 0}, {"trunc", S_UNARY, TSR_UNOP_TRUNC}, {"trunc_", S_UNARY, TSR_UNOP_TRUNC},
    {"zero_", S_ZERO, 0}, {"new_tensor", S_PASS, 0}, {"select", S_SELECT, 0}, {"unsqueeze", S_UNSQUEEZE, 0}, {"norm", S_NORM, 0},
    {"cat", S_JOIN, 0}, {"concat", S_JOIN, 0}, {"concatenate", S_JOIN, 0}, {"stack", S_JOIN, 0},
    {"hstack", S_JOIN, 0}, {"vstack", S_JOIN, 0}, {"row_stack", S_JOIN, 0}, {"dstack", S_JOIN, 0},
    {"column_stack", S_JOIN, 0},
    {"positive", S_SELF, 0}, {"resolve_conj", S_SELF, 0}, {"resolve_neg", S_SELF, 0}, {"contiguous", S_SELF, 0},
    {"cpu", S_SELF, 0}, {"true_divide", S_DIV, 0}, {"true_divide_", S_DIV, 0}, {"divide_", S_DIV, 0},
    {"multiply_", S_MUL, 0}, {"floor_divide_", S_POW, TSR_BINOP_DIV_FLOOR}, {"subtract_", S_SUB, 0},
    {"special_erf", S_UNARY, TSR_UNOP_ERF}, {"special_expm1", S_UNARY, TSR_UNOP_EXPM1},
    {"special_log1p", S_UNARY, TSR_UNOP_LOG1P}, {"special_erfinv", S_UNARY, TSR_UNOP_ERFINV},
    {"swapaxes", S_TRANSPOSE, 0}, {"swapdims", S_TRANSPOSE, 0}, {"is_same_size", S_SAME_SIZE, 0},
    {"is_pinned", S_FALSE, 0}, {"permute", S_PERMUTE, 0}, {"unbind", S_JOIN, 0},
    {"atleast_1d", S_JOIN, 0}, {"atleast_2d", S_JOIN, 0}, {"atleast_3d", S_JOIN, 0}, {"real", S_SELF, 0},
    {"conj", S_CONJ, 2}, {"type", S_TYPE, 0}, {"type_as", S_TYPE, 1}, {"index_select", S_INDEX_SELECT, 0},
    {"adjoint", S_ADJOINT, 0}, {"result_type", S_PASS, 0},
    {"conj_physical", S_CONJ, 0}, {"conj_physical_", S_CONJ, 1}, {"copy_", S_COPY, 0},
    {"narrow_copy", S_NARROW_COPY, 0}, {"flatten", S_FLATTEN, 0}, {"movedim", S_MOVEDIM, 0},
    {"moveaxis", S_MOVEDIM, 0}, {"sum_to_size", S_SUM_TO_SIZE, 0}, {"broadcast_tensors", S_BROADCAST, 0},
    {"asarray", S_ASARRAY, 0}, {"float_power", S_FLOAT_POWER, 0}, {"float_power_", S_FLOAT_POWER, 1},
    {"ldexp", S_LDEXP, 0}, {"ldexp_", S_LDEXP, 1}, {"dist", S_DIST, 0},
};

static int cmp_srow(const void *k, const void *r) { return strcmp(k, ((const SRow *)r)->name); }
static int cmp_srows(const void *a, const void *b) { return strcmp(((const SRow *)a)->name, ((const SRow *)b)->name); }

static const char *const cast_methods[] = {"bfloat16", "bool", "byte", "cdouble", "cfloat", "chalf", "char", "double",
                                           "float", "half", "int", "long", "short"};

static Value *wrap(tsr_tensor *t) { return t ? v_tensor(t) : bind_runtime_error(); }

static int scalar_arg(Value *v, tsr_scalar *s)
{
    tsr_operand o;
    if (!ops_operand(v, &o) || o.t) return -1;
    *s = o.s;
    return 0;
}

/* In place: self takes r's indices, values and flag (r stolen). */
static Value *assign(Value *self, tsr_tensor *r)
{
    if (!r) return bind_runtime_error();
    tsr_tensor *t = tensor_of(self);
    if (!tsr_is_sparse(r) || r->dtype != t->dtype) {
        tsr_tensor_release(r);
        return exc_set("RuntimeError", "tsr: this in-place sparse operation changes the layout or dtype");
    }
    tsr_sparse tmp = *t->sparse;
    *t->sparse = *r->sparse;
    *r->sparse = tmp;
    tsr_tensor_release(r);
    return incref(self);
}

/* In place with new sizes of the same rank (t_, transpose_): self takes
 * r's sizes too. */
static Value *assign_geom(Value *self, tsr_tensor *r)
{
    if (!r) return bind_runtime_error();
    tsr_tensor *t = tensor_of(self);
    if (r == t) {
        tsr_tensor_release(r);
        return incref(self);
    }
    for (int d = 0; d < t->ndim && r->ndim == t->ndim; d++) t->sizes[d] = r->sizes[d];
    return assign(self, r);
}

/* A sparse tensor t moved to device and cast to dtype (copy_sparse_to_sparse_). */
static tsr_tensor *sparse_to(const tsr_tensor *a, tsr_device to, tsr_dtype want, bool copy)
{
    if (to.type == a->device.type && to.index == a->device.index) return tsr_sparse_to_dtype(a, want, copy);
    if (tsr_device_is_meta(to)) return tsr_sparse_empty(a->ndim, a->sizes, want, to);   /* 1.13 copies no entries to meta */
    tsr_tensor *ni = tsr_to_device(a->sparse->indices, to, TSR_DTYPE_UNDEFINED, true);
    tsr_tensor *nv = ni ? tsr_to_device(a->sparse->values, to, want, true) : NULL;
    if (!ni || !nv) {
        tsr_tensor_release(ni);
        return NULL;
    }
    return tsr_sparse_wrap(a->ndim, a->sizes, ni, nv, a->sparse->coalesced);
}

/* zeros_like/empty_like (like), new_zeros/new_empty (newz) and
 * torch.tensor/as_tensor of a sparse tensor, as 1.13 builds them. */
static Value *sparse_factory(const char *fname, BindArgs *b, bool like, bool newz)
{
    Value *x = b->v[0], *dt = ARG("dtype"), *dev = ARG("device"), *lay = ARG("layout"), *mf = ARG("memory_format");
    Value *rg = ARG("requires_grad");
    if (!is_tensor(x)) {   /* torch.tensor([s, ...]): each element becomes a Python scalar */
        tsr_tensor *sp = first_sparse(b, NULL);
        if (tsr_tensor_numel(sp) != 1)
            return exc_set("ValueError", "only one element tensors can be converted to Python scalars");
        return refuse(fname, false, sp);
    }
    tsr_tensor *t = tensor_of(x), *r;
    tsr_dtype want = dt ? dtype_of(dt) : t->dtype;
    tsr_device to = t->device;
    if (dev && bind_device_arg(dev, t->device, &to) < 0) return NULL;
    int64_t sz[TSR_MAX_DIMS];
    int n = t->ndim;
    for (int k = 0; k < n; k++) sz[k] = t->sizes[k];
    if (newz && bind_table_intlist(b, 1, fname, sz, TSR_MAX_DIMS, &n) < 0) return NULL;
    if (like && mf && (tsr_memory_format)mf->u.ext.a != TSR_MF_PRESERVE)
        return exc_set("RuntimeError", "memory format option is only supported by strided tensors");
    if ((like || newz) && lay && lay->u.ext.a == TSR_LAYOUT_STRIDED) r = tsr_zeros(n, sz, want, to);
    else if (like) r = tsr_sparse_empty_like(t, want, to);
    else if (newz) r = tsr_sparse_empty(n, sz, want, to);
    else if (!strcmp(fname, "as_tensor")) r = sparse_to(t, to, want, false);   /* t itself when nothing changes */
    else {   /* torch.tensor(s): a copy */
        tsr_tensor *c = tsr_sparse_clone(t);
        r = c ? sparse_to(c, to, want, false) : NULL;
        tsr_tensor_release(c);
    }
    if (!r) return bind_runtime_error();
    if (rg && value_truth(rg) == 1) {
        if (!tsr_dtype_is_floating(r->dtype) && !tsr_dtype_is_complex(r->dtype)) {
            tsr_tensor_release(r);
            return exc_set("RuntimeError", "Only Tensors of floating point and complex dtype can require gradients");
        }
        r->requires_grad = true;
    }
    return v_tensor(r);
}

/* r (stolen) recorded as formula of the one input x when x requires grad
 * and r is a new tensor; NULL on error. */
static tsr_tensor *record1(const char *formula, tsr_tensor *x, tsr_tensor *r, const tsr_ag_args *args)
{
    if (!r || r == x || !tsr_ag_needed(1, &x)) return r;
    if (tsr_ag_record(formula, 1, &x, args, r, false) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

/* The sparse ops whose derivative tsr does not record: refused while an
 * argument requires grad rather than returning a result off the graph. */
static Value *grad_refused(const char *fname)
{
    return exc_set("NotImplementedError", "tsr: the derivative of %s on sparse tensors is not implemented", fname);
}

/* Whether a tensor argument (or self) requires grad with grad mode on. */
static bool args_need_grad(BindArgs *b, Value *self)
{
    for (int i = -1; i < BIND_MAXP; i++) {
        Value *v = i < 0 ? self : b->v[i];
        if (!v) continue;
        if (is_tensor(v)) {
            tsr_tensor *t = tensor_of(v);
            if (tsr_ag_needed(1, &t)) return true;
        } else if (v->type == &t_list || v->type == &t_tuple) {
            for (size_t k = 0; k < v->u.seq.n; k++)
                if (is_tensor(v->u.seq.items[k])) {
                    tsr_tensor *t = tensor_of(v->u.seq.items[k]);
                    if (tsr_ag_needed(1, &t)) return true;
                }
        }
    }
    return false;
}

/* sparse * scalar, recorded as 1.13's MulBackward0 (the scalar wrapped) */
static tsr_tensor *mul_scalar_rec(tsr_tensor *a, tsr_scalar v)
{
    tsr_tensor *r = tsr_sparse_mul_scalar(a, v);
    if (!r || !tsr_ag_needed(1, &a)) return r;
    if (v.kind == TSR_SCALAR_COMPLEX) {
        tsr_tensor_release(r);
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: the derivative of mul of a sparse tensor by a complex number is "
                      "not implemented");
        return NULL;
    }
    tsr_ag_args g = {0};
    g.d0 = tsr_scalar_to_double(v);
    g.has_d0 = true;
    return record1("mul_sparse_s", a, r, &g);
}

/* sparse / scalar, recorded as DivBackward0 (the scalar wrapped) */
static tsr_tensor *div_scalar_rec(tsr_tensor *a, tsr_scalar v)
{
    tsr_tensor *r = tsr_sparse_div_scalar(a, v);
    if (!r || !tsr_ag_needed(1, &a)) return r;
    if (v.kind == TSR_SCALAR_COMPLEX) {
        tsr_tensor_release(r);
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: the derivative of div of a sparse tensor by a complex number is "
                      "not implemented");
        return NULL;
    }
    tsr_ag_args g = {0};
    g.d0 = tsr_scalar_to_double(v);
    g.has_d0 = true;
    return record1("div_sparse_s", a, r, &g);
}

/* a + alpha * b of two sparse tensors (alpha the negated one of sub),
 * recorded as SubBackward0 */
static tsr_tensor *sub_rec(tsr_tensor *a, tsr_tensor *b, tsr_scalar alpha)
{
    tsr_tensor *in[2] = {a, b};
    tsr_tensor *r = tsr_sparse_add(a, b, alpha);
    if (!r || !tsr_ag_needed(2, in)) return r;
    tsr_ag_args g = {0};
    g.d0 = -tsr_scalar_to_double(alpha);
    g.has_d0 = true;
    if (tsr_ag_record("sub_sparse", 2, in, &g, r, false) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

/* a + b (alpha 1) of a sparse a, recorded as AddBackward0 when both are sparse */
static tsr_tensor *add_rec(tsr_tensor *a, tsr_tensor *b)
{
    tsr_tensor *in[2] = {a, b};
    bool need = tsr_ag_needed(2, in);
    if (need && !(tsr_is_sparse(a) && tsr_is_sparse(b))) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: the derivative of add of sparse and dense tensors is not "
                      "implemented");
        return NULL;
    }
    tsr_tensor *r = tsr_sparse_add(a, b, tsr_scalar_int(1));
    if (r && need && tsr_ag_record("add", 2, in, NULL, r, false) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

/* The dispatcher's NotImplementedError for op on sp's backend, with the
 * backends of refuse_lists[list]. */
static Value *refuse_kernel(const tsr_tensor *sp, const char *op, int list)
{
    tsr_error_no_kernel(op, tsr_device_is_meta(sp->device) ? "SparseMeta" : "SparseCPU", refuse_lists[list]);
    return bind_runtime_error();
}

/* The backends of the structured ops that 1.13 computes on SparseCPU but
 * not on SparseMeta. */
#define L1S "CPU, CUDA, HIP, MPS, IPU, XPU, HPU, VE, Meta, PrivateUse1, PrivateUse2, PrivateUse3, FPGA, ORT, Vulkan, " \
    "Metal, QuantizedCPU, QuantizedCUDA, QuantizedHIP, QuantizedMPS, QuantizedIPU, QuantizedXPU, QuantizedHPU, " \
    "QuantizedVE, QuantizedMeta, QuantizedPrivateUse1, QuantizedPrivateUse2, QuantizedPrivateUse3, CustomRNGKeyId, " \
    "MkldnnCPU, SparseCPU, SparseCsrCPU, SparseCsrCUDA"

#define L2S L1S ", NestedTensorCPU"

static Value *refuse_meta(const char *op, const char *kernels)
{
    tsr_error_no_kernel(op, "SparseMeta", kernels);
    return bind_runtime_error();
}

/* A unary op (kind S_UNARY/S_NEG, or S_PRED) of a SparseMeta tensor: the
 * kernel 1.13's dispatcher looks for and does not find. */
static Value *refuse_meta_unary(const SRow *r, bool ip)
{
    char op[64];
    if (r->kind == S_PRED) {
        if (r->code == TSR_PRED_ISINF) return exc_set("NotImplementedError", "nyi isinf for SparseMeta");
        if (r->code == TSR_PRED_ISNAN) return refuse_meta("aten::isnan", "CPU, Meta, SparseCPU, SparseCsrCPU");
        snprintf(op, sizeof op, "aten::%s", r->code == -1 ? "isposinf" : r->code == -2 ? "isneginf"
                                            : tsr_predop_name((tsr_predop)r->code));
        return refuse_meta(op, L1S);
    }
    switch ((tsr_unop)r->code) {
    case TSR_UNOP_ABS: return refuse_meta("aten::abs.out", "CPU, Meta, SparseCPU, SparseCsrCPU");
    case TSR_UNOP_DEG2RAD:
    case TSR_UNOP_RAD2DEG: return refuse_meta("aten::mul.out", "CPU, Meta, MkldnnCPU, SparseCPU, SparseCsrCPU");
    case TSR_UNOP_NAN_TO_NUM: return refuse_meta("aten::nan_to_num.out", "CPU, Meta, SparseCPU");
    case TSR_UNOP_SQUARE: return refuse_meta("aten::pow.Tensor_Scalar", L1S);
    default: break;
    }
    snprintf(op, sizeof op, "aten::%s%s", tsr_unop_name((tsr_unop)r->code), ip ? "_" : "");
    return refuse_meta(op, L1S);
}

/* "[2, 3]" */
static char *fmt_list(char *buf, size_t n, int count, const int64_t *v)
{
    size_t o = (size_t)snprintf(buf, n, "[");
    for (int i = 0; i < count && o < n; i++) o += (size_t)snprintf(buf + o, n - o, "%s%lld", i ? ", " : "", (long long)v[i]);
    if (o < n) snprintf(buf + o, n - o, "]");
    return buf;
}

/* s * t for a tensor t, as mul(sparse, dense) of 1.13: a 0-dim t as a
 * scalar, else t broadcast to s's sizes. */
static tsr_tensor *mul_by_tensor(const tsr_tensor *s, const tsr_tensor *t)
{
    if (t->ndim == 0 && !tsr_is_sparse(t)) {
        tsr_scalar v;
        if (tsr_tensor_item(t, &v) < 0) return NULL;
        return tsr_sparse_mul_scalar(s, v);
    }
    return tsr_is_sparse(t) ? tsr_sparse_mul(s, t) : tsr_sparse_mul_dense(s, t);
}

/* The ops 1.13 computes on SparseCPU through their composite definitions
 * (conj_physical, copy_, narrow_copy, flatten, movedim, sum_to_size,
 * broadcast_tensors, asarray, float_power, ldexp, dist). */
static Value *sparse_more(const SRow *r, const char *fname, BindArgs *b, bool method, tsr_tensor *sp)
{
    Value *x = b->v[0], *y = b->v[1];
    tsr_tensor *a = x && is_tensor(x) ? tensor_of(x) : NULL, *o = y && is_tensor(y) ? tensor_of(y) : NULL;
    char b1[512], b2[512];
    switch (r->kind) {
    case S_CONJ: {   /* conj of sparse is conj_physical (conj_physical_out_sparse); real: the tensor itself */
        if (!tsr_is_sparse(a)) break;
        Value *outv = b->v[BIND_OUT];
        if (outv && !tsr_is_sparse(tensor_of(outv))) break;
        if (r->code == 1 && tsr_dtype_is_complex(a->dtype))
            return exc_set("RuntimeError", "unsupported tensor layout: Sparse");
        if (!outv && (r->code == 1 || !tsr_dtype_is_complex(a->dtype))) return incref(x);
        if (tsr_device_is_meta(a->device)) return refuse_meta("aten::conj_physical.out", "CPU, Meta, SparseCPU, SparseCsrCPU");
        tsr_tensor *res = tsr_dtype_is_complex(a->dtype) ? tsr_sparse_unary(TSR_UNOP_CONJ_PHYSICAL, a, NULL)
                                                          : tsr_tensor_retain(a);
        if (!res || !outv) return wrap(res);
        int rc = tsr_sparse_copy_(tensor_of(outv), res);
        tsr_tensor_release(res);
        return rc < 0 ? bind_runtime_error() : incref(outv);
    }
    case S_COPY:   /* copy_sparse_to_sparse_ (the dense/sparse mixes are refused above) */
        if (!tsr_is_sparse(a) || !tsr_is_sparse(o)) break;
        if (tsr_sparse_copy_(a, o) < 0) return bind_runtime_error();
        return incref(x);
    case S_NARROW_COPY: {
        int64_t dim, start, len;
        if (tsr_is_sparse(a) && b->v[BIND_OUT]) return refuse_kernel(sp, "aten::narrow_copy.out", 0);
        if (!tsr_is_sparse(a) || bind_table_int(b, 1, 0, &dim) < 0 || bind_table_int(b, 2, 0, &start) < 0 ||
            bind_table_int(b, 3, 0, &len) < 0)
            break;
        if (tsr_device_is_meta(a->device)) return refuse_meta("aten::narrow_copy", L1S);
        return wrap(tsr_sparse_narrow_copy(a, dim, start, len));
    }
    case S_FLATTEN: {   /* itself when start_dim == end_dim, else reshape, which 1.13 refuses on sparse */
        int64_t st = 0, en = -1;
        if (!tsr_is_sparse(a) || b->sig != 1) break;
        if ((b->v[1] && bind_table_int(b, 1, 0, &st) < 0) || (b->v[2] && bind_table_int(b, 2, 0, &en) < 0)) return NULL;
        int s0 = tsr_wrap_dim(st, a->ndim), e0 = s0 < 0 ? -1 : tsr_wrap_dim(en, a->ndim);
        if (s0 < 0 || e0 < 0) return bind_runtime_error();
        if (s0 > e0) return exc_set("RuntimeError", "flatten() has invalid args: start_dim cannot come after end_dim");
        if (a->ndim > 0 && s0 == e0) return incref(x);
        return exc_set("RuntimeError", "reshape is not implemented for sparse tensors");
    }
    case S_MOVEDIM: {   /* the permutation of movedim, run by permute_sparse_coo */
        int64_t src[TSR_MAX_DIMS + 1], dst[TSR_MAX_DIMS + 1], perm[TSR_MAX_DIMS];
        int ns = 1, nd = 1;
        if (!tsr_is_sparse(a)) break;
        if (b->sig == 0 ? bind_table_int(b, 1, 0, &src[0]) < 0 || bind_table_int(b, 2, 0, &dst[0]) < 0
                        : bind_table_intlist(b, 1, fname, src, TSR_MAX_DIMS + 1, &ns) < 0 ||
                          bind_table_intlist(b, 2, fname, dst, TSR_MAX_DIMS + 1, &nd) < 0)
            return NULL;
        int rc = tsr_movedim_order(a->ndim, ns, src, nd, dst, perm);
        if (rc < 0) return bind_runtime_error();
        if (rc) return exc_set("NotImplementedError", "Cannot access storage of SparseTensorImpl");   /* alias() */
        return wrap(tsr_sparse_permute(a, a->ndim, perm));
    }
    case S_SUM_TO_SIZE: {   /* sum_to: itself for its own size, else sum.dim_IntList (no sparse kernel) */
        int64_t size[TSR_MAX_DIMS + 1];
        int n;
        if (!tsr_is_sparse(a)) break;
        if (bind_table_intlist(b, 1, fname, size, TSR_MAX_DIMS + 1, &n) < 0) return NULL;
        bool ok = n <= a->ndim, same = n == a->ndim;
        for (int i = 0; ok && i < n; i++) {
            int64_t want = size[n - 1 - i], have = a->sizes[a->ndim - 1 - i];
            ok = want == have || want == 1;
            same = same && want == have;
        }
        if (!ok)
            return exc_set("RuntimeError", "size {%s} is not expandable to size {%s}.", fmt_list(b1, sizeof b1, n, size),
                           fmt_list(b2, sizeof b2, a->ndim, a->sizes));
        if (same) return incref(x);
        break;
    }
    case S_BROADCAST: {   /* expand_outplace: a tensor of the broadcast shape is itself, a sparse one to expand reaches as_strided */
        Value *lst = x;
        size_t n = lst->u.seq.n;
        if (n > 64) break;
        int nds[64];
        const int64_t *szs[64];
        int64_t shape[TSR_MAX_DIMS];
        for (size_t i = 0; i < n; i++) {
            nds[i] = tensor_of(lst->u.seq.items[i])->ndim;
            szs[i] = tensor_of(lst->u.seq.items[i])->sizes;
        }
        int nd = tsr_broadcast_shapes((int)n, nds, szs, shape);
        if (nd < 0) return bind_runtime_error();
        for (size_t i = 0; i < n; i++) {
            tsr_tensor *t = tensor_of(lst->u.seq.items[i]);
            if (tsr_is_sparse(t) && (t->ndim != nd || memcmp(t->sizes, shape, sizeof(int64_t) * (size_t)nd)))
                return refuse("broadcast_to", false, t);
        }
        Value *res = v_tuple(n);
        if (!res) return NULL;
        for (size_t i = 0; i < n; i++) {
            Value *it = lst->u.seq.items[i];
            tsr_tensor *t = tensor_of(it);
            if (t->ndim == nd && !memcmp(t->sizes, shape, sizeof(int64_t) * (size_t)nd)) {
                res->u.seq.items[i] = incref(it);
                continue;
            }
            Value *sz = v_tuple((size_t)nd);
            for (int k = 0; sz && k < nd; k++) sz->u.seq.items[k] = v_int(shape[k]);
            Value *f = sz ? value_getattr(it, "expand") : NULL, *e = f ? value_call0(f, 1, &sz) : NULL;
            if (f) decref(f);
            if (sz) decref(sz);
            if (!e) {
                decref(res);
                return NULL;
            }
            res->u.seq.items[i] = e;
        }
        return res;
    }
    case S_ASARRAY: {   /* torch.asarray(s): s itself, cast or copied as tensor_new.cpp's asarray */
        if (!tsr_is_sparse(a)) break;
        Value *copyv = ARG("copy"), *rgv = ARG("requires_grad"), *dt = ARG("dtype"), *dev = ARG("device");
        bool has_copy = copyv && !is_none(copyv), copy = has_copy && value_truth(copyv) == 1;
        bool rg = rgv && value_truth(rgv) == 1;
        tsr_dtype want = dt && !is_none(dt) ? dtype_of(dt) : a->dtype;
        tsr_device to = a->device;
        if (dev && !is_none(dev) && bind_device_arg(dev, a->device, &to) < 0) return NULL;
        bool wrong_dev = to.type != a->device.type || to.index != a->device.index, wrong_dt = want != a->dtype;
        tsr_tensor *res;
        if (copy || (!has_copy && (wrong_dev || wrong_dt))) {
            if (wrong_dev || wrong_dt) res = sparse_to(a, to, want, copy);
            else res = tsr_sparse_clone(a);
        } else {
            char s1[32], s2[32];
            if (wrong_dev)
                return exc_set("ValueError", "can't alias tensor from device '%s' to '%s'.",
                               tsr_device_str(a->device, s1, sizeof s1), tsr_device_str(to, s2, sizeof s2));
            if (wrong_dt)
                return exc_set("ValueError", "can't alias tensor with dtype '%s' into dtype '%s'.",
                               tsr_dtype_scalar_name(a->dtype), tsr_dtype_scalar_name(want));
            res = tsr_tensor_retain(a);
        }
        if (!res) return bind_runtime_error();
        if (rg && !tsr_dtype_is_floating(res->dtype) && !tsr_dtype_is_complex(res->dtype)) {
            tsr_tensor_release(res);
            return exc_set("RuntimeError", "Only Tensors of floating point and complex dtype can require gradients");
        }
        res->requires_grad = rg;
        return res == a ? (tsr_tensor_release(res), incref(x)) : v_tensor(res);
    }
    case S_FLOAT_POWER: {   /* pow(self.to(double or cdouble), exponent) */
        tsr_scalar e;
        if (!tsr_is_sparse(a))   /* a number or dense base, sparse exponent */
            return refuse_kernel(sp, a ? "aten::pow.Tensor_Tensor" : "aten::pow.Scalar", 1);
        if (o || scalar_arg(y, &e) < 0) return refuse_kernel(sp, r->code ? "aten::pow_.Tensor" : "aten::pow.Tensor_Tensor", 1);
        bool cplx = tsr_dtype_is_complex(a->dtype) || e.kind == TSR_SCALAR_COMPLEX;
        tsr_dtype want = cplx ? TSR_COMPLEX128 : TSR_FLOAT64;
        if (r->code) {
            if (a->dtype != want)
                return exc_set("RuntimeError", "the base given to float_power_ has dtype %s but the operation's result "
                               "requires dtype %s", tsr_dtype_scalar_name(a->dtype), tsr_dtype_scalar_name(want));
            return refuse_kernel(sp, "aten::pow_.Scalar", 1);
        }
        if (e.kind != TSR_SCALAR_COMPLEX) e = tsr_scalar_float(tsr_scalar_to_double(e));
        if (tsr_device_is_meta(a->device)) return refuse_meta("aten::pow.Tensor_Scalar", L1S);
        tsr_tensor *c = tsr_sparse_to_dtype(a, want, false);
        tsr_tensor *res = c ? tsr_sparse_binary_scalar(TSR_BINOP_POW, c, e) : NULL;
        tsr_tensor_release(c);
        Value *outv = b->v[BIND_OUT];
        if (!res || !outv) return wrap(res);
        int rc = tsr_is_sparse(tensor_of(outv)) ? tsr_sparse_copy_(tensor_of(outv), res) : -2;
        tsr_tensor_release(res);
        if (rc == -2) return refuse(fname, method, sp);
        return rc < 0 ? bind_runtime_error() : incref(outv);
    }
    case S_LDEXP: {   /* self * pow(2.0, other) */
        if (!tsr_is_sparse(a) || !o || tsr_is_sparse(o) || b->v[BIND_OUT]) break;
        if (tsr_device_is_meta(a->device)) return refuse_meta("aten::mul.Tensor", L2S);
        tsr_operand two = tsr_operand_scalar(tsr_scalar_float(2.0)), ot = tsr_operand_tensor(o);
        tsr_tensor *pw = tsr_binary(TSR_BINOP_POW, &two, &ot, NULL, NULL);
        tsr_tensor *res = pw ? mul_by_tensor(a, pw) : NULL;
        tsr_tensor_release(pw);
        if (!r->code || !res) return wrap(res);
        if (res->dtype != a->dtype) {
            Value *err = exc_set("RuntimeError", "dtype of values (%s) must match dtype of sparse tensor (%s)",
                                 tsr_dtype_scalar_name(res->dtype), tsr_dtype_scalar_name(a->dtype));
            tsr_tensor_release(res);
            return err;
        }
        return assign(x, res);
    }
    case S_DIST: {   /* norm(self - other, p) */
        tsr_scalar ps = tsr_scalar_float(2.0);
        if (!a || !o || (b->v[2] && scalar_arg(b->v[2], &ps) < 0)) break;
        if (ps.kind == TSR_SCALAR_COMPLEX)
            return exc_set("RuntimeError", "norm_kernel_tensor_iterator_impl expects norm to be integer or float");
        double p = tsr_scalar_to_double(ps);
        if (tsr_is_sparse(a) && tsr_device_is_meta(a->device)) return refuse_meta("aten::sub.Tensor", L1S);
        tsr_tensor *diff = tsr_sparse_add(a, o, tsr_scalar_int(-1)), *res = NULL;
        if (!diff) return bind_runtime_error();
        if (tsr_is_sparse(diff)) {
            res = tsr_sparse_norm(diff, p, NULL, false, TSR_DTYPE_UNDEFINED, NULL);
        } else {   /* dense - sparse is dense: its norm */
            tsr_tensor *z = tsr_zeros(0, NULL, diff->dtype, diff->device);
            res = z ? tsr_dist(diff, z, p) : NULL;
            tsr_tensor_release(z);
        }
        tsr_tensor_release(diff);
        return wrap(res);
    }
    default: break;
    }
    return refuse(fname, method, sp);
}

Value *bind_sparse_call(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace, BindHandler call)
{
    tsr_tensor *sp = first_sparse(b, self);
    call_kind = kind_of_call(b);
    bool method = self != NULL && !((d->flags & BIND_FN_INPLACE) && !inplace);
    size_t fl = strlen(fname);
    bool ip = inplace || (fl && fname[fl - 1] == '_');
    if (d->module && !strcmp(d->module, "torch.sparse")) return call(d, fname, b, self, inplace);
    for (size_t k = 0; k < sizeof cast_methods / sizeof *cast_methods; k++)
        if (self && !strcmp(fname, cast_methods[k])) return wrap(tsr_sparse_to_dtype(sp, (tsr_dtype)d->code, false));
    if (!strcmp(fname, "tolist") && self)
        return exc_set("RuntimeError", "Cannot access data pointer of Tensor that doesn't have storage");
    if (!strcmp(fname, "item") && self && tsr_tensor_numel(sp) != 1)
        return exc_set("ValueError", "only one element tensors can be converted to Python scalars");
    if (!strcmp(fname, "copy_") && self && !(tsr_is_sparse(tensor_of(self)) && b->v[1] && is_tensor(b->v[1]) &&
                                             tsr_is_sparse(tensor_of(b->v[1])))) {
        tsr_tensor *dst = tensor_of(self), *src = b->v[1] && is_tensor(b->v[1]) ? tensor_of(b->v[1]) : dst;
        return exc_set("RuntimeError", "copy_() between dense and sparse Tensors is not implemented! Found self type = "
                       "torch.%s%s and src type = torch.%s%s", tsr_is_sparse(dst) ? "sparse." : "",
                       tsr_dtype_traits_of(dst->dtype)->tensor_type, tsr_is_sparse(src) ? "sparse." : "",
                       tsr_dtype_traits_of(src->dtype)->tensor_type);
    }
    if (!strcmp(fname, "detach") && !b->v[BIND_OUT] && !b->v[1] && sp->sparse)   /* the same indices and values */
        return wrap(tsr_sparse_wrap(sp->ndim, sp->sizes, tsr_tensor_retain(sp->sparse->indices),
                                    tsr_tensor_retain(sp->sparse->values), sp->sparse->coalesced));
    bool like = !strcmp(fname, "zeros_like") || !strcmp(fname, "empty_like");
    bool newz = self && (!strcmp(fname, "new_zeros") || !strcmp(fname, "new_empty"));
    bool copy = !self && (!strcmp(fname, "tensor") || !strcmp(fname, "as_tensor"));
    if ((like || newz || copy) && !b->v[BIND_OUT]) return sparse_factory(fname, b, like, newz);
    const SRow *r = bsearch(fname, srows, sizeof srows / sizeof *srows, sizeof *srows, cmp_srow);
    if (!r || (b->v[BIND_OUT] && r->kind != S_NORM && r->kind != S_JOIN && !(r->kind == S_CONJ && !r->code) &&
               r->kind != S_FLOAT_POWER && r->kind != S_NARROW_COPY))
        return refuse(fname, method, sp);
    bool ag = args_need_grad(b, self);
    switch (r->kind) {   /* computed here without a graph */
    case S_NEG: case S_CLONE: case S_DIV: case S_T: case S_TRANSPOSE:   /* recorded out of place below */
        if (ag && ip) return grad_refused(fname);
        break;
    case S_UNARY: case S_POW: case S_MM:
    case S_SELECT: case S_UNSQUEEZE: case S_PERMUTE: case S_INDEX_SELECT: case S_ADJOINT: case S_NARROW_COPY:
    case S_MOVEDIM: case S_FLOAT_POWER: case S_LDEXP: case S_DIST: case S_COPY: case S_ZERO: case S_RESIZE_AS:
        if (ag) return grad_refused(fname);
        break;
    case S_CONJ:
        if (ag && tsr_dtype_is_complex(sp->dtype)) return grad_refused(fname);
        break;
    default: break;
    }
    Value *x = b->v[0], *y = b->v[1];
    tsr_tensor *a = x && is_tensor(x) ? tensor_of(x) : NULL;
    tsr_scalar s;
    if (tsr_is_sparse(a) && tsr_device_is_meta(a->device)) {   /* SparseCPU kernels only */
        switch (r->kind) {
        case S_ADD: return refuse_meta(ip ? "aten::add_.Tensor" : "aten::add.Tensor", L2S);
        case S_SUB: return refuse_meta(ip ? "aten::sub_.Tensor" : "aten::sub.Tensor", L1S);
        case S_DIV: return refuse_meta(ip ? "aten::div_.Tensor" : "aten::div.Tensor", L1S);
        case S_POW:
            if (r->code == TSR_BINOP_DIV_FLOOR) return refuse_meta(ip ? "aten::floor_divide_" : "aten::floor_divide", "CPU, Meta, SparseCPU");
            return refuse_meta(ip ? "aten::pow_.Scalar" : "aten::pow.Tensor_Scalar", L1S);
        case S_INDEX_SELECT: return refuse_meta("aten::index_select", "CPU, Meta, QuantizedCPU, SparseCPU");
        case S_ANY: return refuse_meta("aten::any", L1S);
        default: break;
        }
    }
    switch (r->kind) {
    case S_PASS: return call(d, fname, b, self, inplace);
    case S_NEG:
    case S_UNARY: {
        if (!tsr_is_sparse(a)) break;
        if (tsr_device_is_meta(a->device) && !(b->v[1] && r->code != TSR_UNOP_NEG)) return refuse_meta_unary(r, ip);
        if (b->v[1] && r->code != TSR_UNOP_NEG) return refuse(fname, method, sp);   /* round(decimals=), nan_to_num(nan=) */
        if (!ip && r->kind == S_NEG) return wrap(record1("neg_sparse", a, tsr_sparse_unary(TSR_UNOP_NEG, a, NULL), NULL));
        if (!ip) return wrap(tsr_sparse_unary((tsr_unop)r->code, a, NULL));
        char nm[64];   /* 1.13 names the op behind an alias: abs_ for absolute_ */
        snprintf(nm, sizeof nm, "%s_", tsr_unop_name((tsr_unop)r->code));
        if (tsr_sparse_unary_((tsr_unop)r->code, a, NULL, nm) < 0) return bind_runtime_error();
        return incref(x);
    }
    case S_CLONE: return wrap(record1("clone", a, tsr_sparse_clone(a), NULL));
    case S_DIV: {
        if (!tsr_is_sparse(a) || ARG("rounding_mode") || scalar_arg(y, &s) < 0) return refuse(fname, method, sp);
        if (!ip) return wrap(div_scalar_rec(a, s));
        tsr_tensor *res = tsr_sparse_div_scalar(a, s);
        return ip ? assign(x, res) : wrap(res);
    }
    case S_IS_CONTIGUOUS: return v_bool(true);
    case S_ANY:
        if (!tsr_is_sparse(a) || b->sig != 0) return refuse(fname, method, sp);
        return wrap(tsr_all_any(a->sparse->values, NULL, false, false, NULL));
    case S_PRED:
        if (!tsr_is_sparse(a)) break;
        if (tsr_device_is_meta(a->device)) return refuse_meta_unary(r, false);
        return wrap(tsr_sparse_predicate(r->code, a));
    case S_POW:
        if (!tsr_is_sparse(a) || scalar_arg(y, &s) < 0) return refuse(fname, method, sp);
        return ip ? assign(x, tsr_sparse_binary_scalar((tsr_binop)r->code, a, s))
                  : wrap(tsr_sparse_binary_scalar((tsr_binop)r->code, a, s));
    case S_T:
        if (!tsr_is_sparse(a)) break;
        return ip ? assign_geom(x, tsr_sparse_t(a)) : wrap(record1("t_sparse", a, tsr_sparse_t(a), NULL));
    case S_TRANSPOSE: {
        int64_t d0, d1;
        if (!tsr_is_sparse(a) || bind_table_int(b, 1, 0, &d0) < 0 || bind_table_int(b, 2, 0, &d1) < 0) break;
        if (ip) return assign_geom(x, tsr_sparse_transpose(a, d0, d1));
        tsr_ag_args ta = {0};
        ta.i0 = d0;
        ta.i1 = d1;
        return wrap(record1("transpose_sparse", a, tsr_sparse_transpose(a, d0, d1), &ta));
    }
    case S_MUL: {
        tsr_tensor *bt = y && is_tensor(y) ? tensor_of(y) : NULL;
        tsr_tensor *res;
        if (tsr_device_is_meta(sp->device) && tsr_is_sparse(a)) return refuse_meta(ip ? "aten::mul_.Tensor" : "aten::mul.Tensor", L2S);
        if (tsr_is_sparse(a) && !bt && scalar_arg(y, &s) == 0 && !ip) return wrap(mul_scalar_rec(a, s));
        if (ag) return grad_refused(fname);
        if (tsr_is_sparse(a) && bt && tsr_is_sparse(bt)) res = tsr_sparse_mul(a, bt);
        else if (tsr_is_sparse(a) && !bt && scalar_arg(y, &s) == 0) res = tsr_sparse_mul_scalar(a, s);
        else if (tsr_is_sparse(a) && bt && bt->ndim == 0) {
            tsr_scalar v;
            if (tsr_tensor_item(bt, &v) < 0) return bind_runtime_error();
            res = tsr_sparse_mul_scalar(a, v);
        } else if (tsr_is_sparse(a) && bt) res = tsr_sparse_mul_dense(a, bt);
        else if (a && bt && tsr_is_sparse(bt) && !ip) res = tsr_sparse_mul_dense(bt, a);
        else return refuse(fname, method, sp);
        return ip ? assign(x, res) : wrap(res);
    }
    case S_ADD:
    case S_SUB: {
        tsr_scalar alpha = tsr_scalar_int(1);
        Value *av = ARG("alpha");
        if (av && scalar_arg(av, &alpha) < 0) break;
        if (r->kind == S_SUB) {
            double re, im;
            tsr_scalar_to_complex(alpha, &re, &im);
            alpha = alpha.kind == TSR_SCALAR_INT ? tsr_scalar_int(-alpha.i)
                  : alpha.kind == TSR_SCALAR_FLOAT ? tsr_scalar_float(-alpha.d)
                  : alpha.kind == TSR_SCALAR_COMPLEX ? tsr_scalar_complex(-re, -im) : tsr_scalar_int(-alpha.i);
        }
        if (!a || !y || !is_tensor(y)) return refuse(fname, method, sp);
        if (!ip && r->kind == S_ADD && alpha.kind == TSR_SCALAR_INT && alpha.i == 1)
            return wrap(add_rec(a, tensor_of(y)));
        if (!ip && r->kind == S_SUB && tsr_is_sparse(a) && tsr_is_sparse(tensor_of(y)) && alpha.kind != TSR_SCALAR_COMPLEX)
            return wrap(sub_rec(a, tensor_of(y), alpha));
        if (ag) return grad_refused(fname);
        tsr_tensor *res = tsr_sparse_add(a, tensor_of(y), alpha);
        if (!ip) return wrap(res);
        if (!tsr_is_sparse(a)) {   /* dense.add_(sparse) */
            if (!res) return bind_runtime_error();
            int rc = tsr_copy_(a, res);
            tsr_tensor_release(res);
            return rc < 0 ? bind_runtime_error() : incref(x);
        }
        return assign(x, res);
    }
    case S_MM:
        if (tsr_is_sparse(a) && y && is_tensor(y) && tsr_is_sparse(tensor_of(y)))
            return wrap(tsr_sparse_mm_sparse(a, tensor_of(y)));
        if (!tsr_is_sparse(a) || !y || !is_tensor(y) || tsr_is_sparse(tensor_of(y))) return refuse(fname, method, sp);
        return wrap(tsr_sparse_mm(a, tensor_of(y)));
    case S_SUM: {
        if (b->sig != 0) return refuse("sum", false, sp);   /* sum.dim_IntList: strided only in 1.13 */
        Value *dt = ARG("dtype");
        return wrap(tsr_sparse_sum(a, NULL, dt ? dtype_of(dt) : TSR_DTYPE_UNDEFINED));
    }
    case S_ZERO:
        if (tsr_sparse_zero_(a) < 0) return bind_runtime_error();
        return incref(x);
    case S_RESIZE_AS:
        if (!tsr_is_sparse(a) || !y || !is_tensor(y)) return refuse(fname, method, sp);
        if (tsr_sparse_resize_as_(a, tensor_of(y)) < 0) return bind_runtime_error();
        return incref(x);
    case S_TO: {
        Value *dt = ARG("dtype"), *dev = ARG("device"), *cp = ARG("copy"), *other = ARG("tensor");
        tsr_dtype want = other ? tensor_of(other)->dtype : dt ? dtype_of(dt) : a->dtype;
        tsr_device to = other ? tensor_of(other)->device : a->device;
        if (dev && bind_device_arg(dev, a->device, &to) < 0) return NULL;
        return wrap(sparse_to(a, to, want, cp && value_truth(cp) == 1));
    }
    case S_SELECT: {
        int64_t dim, ix;
        if (!tsr_is_sparse(a) || bind_table_int(b, 1, 0, &dim) < 0 || bind_table_int(b, 2, 0, &ix) < 0) break;
        return wrap(tsr_sparse_select(a, dim, ix));
    }
    case S_UNSQUEEZE: {
        int64_t dim;
        if (!tsr_is_sparse(a) || bind_table_int(b, 1, 0, &dim) < 0) break;
        return wrap(tsr_sparse_unsqueeze(a, dim));
    }
    case S_NORM:   /* torch.norm (norm_sparse); torch.linalg's norms have no sparse kernel */
        if (d->module) return refuse(fname, method, sp);
        if (b->v[1] && b->type[1] == BT_STR && !strcmp(b->v[1]->u.s.p, "nuc") && (a->ndim == 2 || b->v[2])) {
            tsr_error_no_kernel("aten::_linalg_svd", tsr_device_is_meta(sp->device) ? "SparseMeta" : "SparseCPU",
                                refuse_lists[1]);   /* the matrix norm's SVD */
            return bind_runtime_error();
        }
        if (!b->v[1]) {   /* torch/functional.py's p="fro" (over every dim with dim=, out= or dtype=) */
            Value *fro = v_str("fro"), *res;
            if (!fro) return NULL;
            b->v[1] = fro;
            b->type[1] = BT_STR;
            res = call(d, fname, b, self, inplace);
            b->v[1] = NULL;
            decref(fro);
            return res;
        }
        return call(d, fname, b, self, inplace);
    case S_JOIN: return call(d, fname, b, self, inplace);   /* cat_sparse (runtime/ops/join.c) */
    case S_SELF:   /* nothing to resolve or make contiguous: the tensor itself */
        if (!tsr_is_sparse(a) || ((!strcmp(fname, "real") || !strcmp(fname, "conj")) && tsr_dtype_is_complex(a->dtype)))
            break;
        return incref(x);
    case S_SAME_SIZE: {
        tsr_tensor *o = y && is_tensor(y) ? tensor_of(y) : NULL;
        if (!a || !o) break;
        return v_bool(a->ndim == o->ndim && !memcmp(a->sizes, o->sizes, sizeof(int64_t) * (size_t)a->ndim));
    }
    case S_FALSE: return v_bool(false);
    case S_ADJOINT: {   /* transpose(-2, -1) (then conj, physical on sparse, for complex values) */
        if (!tsr_is_sparse(a)) break;
        if (a->ndim < 2)
            return exc_set("RuntimeError", "tensor.adjoint() is only supported on matrices or batches of matrices. "
                           "Got %d-D tensor.", a->ndim);
        tsr_tensor *tr = tsr_sparse_transpose(a, -2, -1);
        if (!tr || !tsr_dtype_is_complex(a->dtype)) return wrap(tr);
        tsr_tensor *cj = tsr_sparse_unary(TSR_UNOP_CONJ_PHYSICAL, tr, NULL);
        tsr_tensor_release(tr);
        return wrap(cj);
    }
    case S_INDEX_SELECT: {
        int64_t dim;
        Value *iv = b->v[2];
        if (!tsr_is_sparse(a) || !iv || !is_tensor(iv) || bind_table_int(b, 1, 0, &dim) < 0) break;
        return wrap(tsr_sparse_index_select(a, dim, tensor_of(iv)));
    }
    case S_TYPE:   /* x.type(): "torch.sparse.FloatTensor"; x.type(dtype), x.type_as(t): the values cast */
        if (!tsr_is_sparse(a)) break;
        if (r->code) {
            if (!y || !is_tensor(y)) break;
            return wrap(tsr_sparse_to_dtype(a, tensor_of(y)->dtype, false));
        }
        if (!y || is_none(y)) {
            if (a->device.type != TSR_DEV_CPU) break;
            char buf[64];
            snprintf(buf, sizeof buf, "torch.sparse.%s", tsr_dtype_traits_of(a->dtype)->tensor_type);
            return v_str(buf);
        }
        if (is_dtype(y)) return wrap(tsr_sparse_to_dtype(a, dtype_of(y), false));
        break;
    case S_PERMUTE: {
        int64_t dims[TSR_MAX_DIMS];
        int n;
        if (!tsr_is_sparse(a) || bind_table_intlist(b, 1, fname, dims, TSR_MAX_DIMS, &n) < 0) break;
        return wrap(tsr_sparse_permute(a, n, dims));
    }
    case S_CAST: break;
    case S_CONJ:
    case S_COPY:
    case S_NARROW_COPY:
    case S_FLATTEN:
    case S_MOVEDIM:
    case S_SUM_TO_SIZE:
    case S_BROADCAST:
    case S_ASARRAY:
    case S_FLOAT_POWER:
    case S_LDEXP:
    case S_DIST: return sparse_more(r, fname, b, method, sp);
    }
    return refuse(fname, method, sp);
}

/* ------------------------------------------------------------ operators */

Value *bind_sparse_operator(int op, Value *self, Value *other, int reflected)
{
    tsr_tensor *a = tensor_of(self), *bt = other && is_tensor(other) ? tensor_of(other) : NULL;
    tsr_tensor *sp = tsr_is_sparse(a) ? a : bt;
    tsr_scalar s;
    call_kind = 0;
    if (reflected && op != OP_ADD && op != OP_MUL && op != -1) {
        Value *t = self;
        self = other;
        other = t;
        a = bt;
        bt = tensor_of(t);
        (void)self;
    }
    static const struct { int op; const char *key, *tensor_op, *scalar_op; } names[] = {
        {OP_EQ, "eq", "aten::eq.Tensor", "aten::eq.Scalar"}, {OP_NE, "ne", "aten::ne.Tensor", "aten::ne.Scalar"},
        {OP_LT, "lt", "aten::lt.Tensor", "aten::lt.Scalar"}, {OP_LE, "le", "aten::le.Tensor", "aten::le.Scalar"},
        {OP_GT, "gt", "aten::gt.Tensor", "aten::gt.Scalar"}, {OP_GE, "ge", "aten::ge.Tensor", "aten::ge.Scalar"},
        {OP_MOD, "remainder", "aten::remainder.Tensor", "aten::remainder.Tensor"},
        {OP_AND, "bitwise_and", "aten::bitwise_and.Tensor", "aten::bitwise_and.Tensor"},
        {OP_OR, "bitwise_or", "aten::bitwise_or.Tensor", "aten::bitwise_or.Tensor"},
        {OP_XOR, "bitwise_xor", "aten::bitwise_xor.Tensor", "aten::bitwise_xor.Tensor"},
    };
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (names[k].op == op) return refuse_as(names[k].key, true, sp, bt ? names[k].tensor_op : names[k].scalar_op);
    if (tsr_is_sparse(a) && tsr_device_is_meta(a->device)) {   /* SparseCPU kernels only */
        switch (op) {
        case -1: return refuse_meta("aten::neg", L1S);
        case OP_ADD: return refuse_meta("aten::add.Tensor", L2S);
        case OP_SUB: return refuse_meta("aten::sub.Tensor", L1S);
        case OP_TRUEDIV: return refuse_meta("aten::div.Tensor", L1S);
        case OP_POW: if (!bt) return refuse_meta("aten::pow.Tensor_Scalar", L1S); break;
        case OP_FLOORDIV: if (!bt) return refuse_meta("aten::floor_divide", "CPU, Meta, SparseCPU"); break;
        default: break;
        }
    }
    bool ag = (a && tsr_ag_needed(1, &a)) || (bt && tsr_ag_needed(1, &bt));
    if (op == -1) return wrap(record1("neg_sparse", a, tsr_sparse_unary(TSR_UNOP_NEG, a, NULL), NULL));
    if (op == OP_TRUEDIV && tsr_is_sparse(a) && !bt && scalar_arg(other, &s) == 0) return wrap(div_scalar_rec(a, s));
    if (op == OP_SUB && a && bt && tsr_is_sparse(a) && tsr_is_sparse(bt)) return wrap(sub_rec(a, bt, tsr_scalar_int(-1)));
    if (ag && op != OP_ADD && op != OP_MUL)
        return grad_refused(op == -1 ? "neg" : op == OP_POW ? "pow" : op == OP_SUB ? "sub" : op == OP_MATMUL ? "matmul" : "div");
    switch (op) {
    case -1: return wrap(tsr_sparse_unary(TSR_UNOP_NEG, a, NULL));
    case OP_POW:
    case OP_FLOORDIV:
        if (tsr_is_sparse(a) && !bt && scalar_arg(other, &s) == 0)
            return wrap(tsr_sparse_binary_scalar(op == OP_POW ? TSR_BINOP_POW : TSR_BINOP_DIV_FLOOR, a, s));
        return refuse(op == OP_POW ? "pow" : "floor_divide", true, sp);
    case OP_MUL:
        if (tsr_device_is_meta(sp->device) && tsr_is_sparse(a)) return refuse_meta("aten::mul.Tensor", L2S);
        if (!bt && tsr_is_sparse(a) && scalar_arg(other, &s) == 0) return wrap(mul_scalar_rec(a, s));
        if ((a && tsr_ag_needed(1, &a)) || (bt && tsr_ag_needed(1, &bt))) return grad_refused("mul");
        if (bt && tsr_is_sparse(a) && tsr_is_sparse(bt)) return wrap(tsr_sparse_mul(a, bt));
        if (bt && tsr_is_sparse(a)) return wrap(tsr_sparse_mul_dense(a, bt));
        if (bt && tsr_is_sparse(bt)) return wrap(tsr_sparse_mul_dense(bt, a));
        return refuse("mul.Tensor", false, sp);
    case OP_ADD:
    case OP_SUB:
        if (!bt || !a) {
            if (tsr_is_sparse(a)) return exc_set("RuntimeError", "add(sparse, dense) is not supported. Use add(dense, sparse) instead.");
            return refuse(op == OP_ADD ? "add.Tensor" : "sub.Tensor", false, sp);
        }
        if (op == OP_ADD) return wrap(reflected ? add_rec(bt, a) : add_rec(a, bt));
        if (tsr_ag_needed(1, &a) || tsr_ag_needed(1, &bt)) return grad_refused("sub");
        return wrap(tsr_sparse_add(a, bt, tsr_scalar_int(op == OP_SUB ? -1 : 1)));
    case OP_TRUEDIV:
        if (tsr_is_sparse(a) && !bt && scalar_arg(other, &s) == 0) return wrap(tsr_sparse_div_scalar(a, s));
        return refuse("div.Tensor", false, sp);
    case OP_MATMUL:
        if (a && bt && tsr_is_sparse(a) && !tsr_is_sparse(bt) && bt->ndim == 2) return wrap(tsr_sparse_mm(a, bt));
        if (a && bt && tsr_is_sparse(a) && tsr_is_sparse(bt) && a->ndim == 2 && bt->ndim == 2)
            return wrap(tsr_sparse_mm_sparse(a, bt));
        return refuse("mm", false, sp);
    }
    return refuse("mul.Tensor", false, sp);
}

/* ------------------------------------------------------------ the sparse rows */

/* A tensor for a constructor argument: NULL with the exception set. */

typedef enum { K_COO, K_TO_DENSE, K_TO_SPARSE, K_COALESCE, K_IS_COALESCED, K_INDICES, K_VALUES, K_NNZ, K_SPARSE_DIM,
               K_DENSE_DIM, K_SSUM, K_SMM } Kind;

static tsr_tensor *to_tensor(Value *v, tsr_dtype dt)
{
    if (!is_tensor(v)) return factory_from_data(v, dt);
    if (dt == TSR_DTYPE_UNDEFINED) return tsr_tensor_retain(tensor_of(v));
    tsr_tensor *r = tsr_to_dtype(tensor_of(v), dt, false);
    if (!r) bind_runtime_error();
    return r;
}

static Value *coo(BindArgs *b)
{
    Value *iv = ARG("indices"), *vv = ARG("values"), *dt = ARG("dtype"), *dev = ARG("device"), *rg = ARG("requires_grad");
    int64_t sz[TSR_MAX_DIMS];
    int n = -1;
    Value *szv = ARG("size");
    if (szv) {
        int slot = -1;
        for (int i = 0; i < BIND_MAXP; i++)
            if (b->v[i] == szv) slot = i;
        if (bind_table_intlist(b, slot, "sparse_coo_tensor", sz, TSR_MAX_DIMS, &n) < 0) return NULL;
    }
    tsr_dtype want = dt ? dtype_of(dt) : TSR_DTYPE_UNDEFINED;
    tsr_device device = TSR_CPU;
    if (dev && bind_device_arg(dev, TSR_CPU, &device) < 0) return NULL;
    tsr_tensor *r;
    if (!iv) {
        r = tsr_sparse_empty(n, sz, want == TSR_DTYPE_UNDEFINED ? tsr_default_dtype() : want,
                             device);
    } else {
        tsr_tensor *ind = to_tensor(iv, TSR_INT64), *val = ind ? to_tensor(vv, want) : NULL;
        if (!ind || !val) {
            tsr_tensor_release(ind);
            tsr_tensor_release(val);
            return NULL;
        }
        if (dev && device.type != val->device.type) {
            tsr_tensor *i2 = tsr_to_device(ind, device, TSR_DTYPE_UNDEFINED, false);
            tsr_tensor *v2 = i2 ? tsr_to_device(val, device, TSR_DTYPE_UNDEFINED, false) : NULL;
            tsr_tensor_release(ind);
            tsr_tensor_release(val);
            ind = i2;
            val = v2;
            if (!ind || !val) {
                tsr_tensor_release(ind);
                return bind_runtime_error();
            }
        }
        r = tsr_sparse_coo_tensor(ind, val, n, sz);
        if (r && tsr_ag_needed(1, &val)) {   /* values requiring grad: SparseCooTensorWithDimsAndTensorsBackward0 */
            if (rg && value_truth(rg) == 1) {
                tsr_tensor_release(r);
                r = NULL;
                tsr_error_set(TSR_ERR_RUNTIME, "requires_grad=True of a sparse tensor built from values that require "
                              "grad is not supported by tsr");
            } else if (tsr_ag_record("sparse_coo_tensor", 1, &val, NULL, r, false) < 0 || tsr_ag_keep(r, ind) < 0) {
                tsr_tensor_release(r);
                r = NULL;
            }
        }
        tsr_tensor_release(ind);
        tsr_tensor_release(val);
    }
    if (!r) return bind_runtime_error();
    if (rg && value_truth(rg) == 1) {
        if (!tsr_dtype_is_floating(r->dtype) && !tsr_dtype_is_complex(r->dtype)) {
            tsr_tensor_release(r);
            return exc_set("RuntimeError", "Only Tensors of floating point and complex dtype can require gradients");
        }
        r->requires_grad = true;
    }
    return v_tensor(r);
}

/* A sparse accessor called on a strided tensor: the dispatcher finds no
 * CPU kernel (op: the ATen op, kernels: the backends 1.13 lists). */
static Value *strided_refused(const char *op, const char *kernels)
{
    tsr_error_no_kernel(op, "CPU", kernels);
    return bind_runtime_error();
}
#define SPK "SparseCPU, SparseMeta"
#define SPK3 "SparseCPU, SparseMeta, SparseCsrCPU"


static Value *sparse_rows_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)self;
    (void)inplace;
    Value *x = b->v[0];
    tsr_tensor *t = x && is_tensor(x) ? tensor_of(x) : NULL;
    int64_t k;
    switch ((Kind)row->kind) {
    case K_COO: return coo(b);
    case K_TO_DENSE: {
        Value *dt = ARG("dtype");
        if (!tsr_is_sparse(t)) return incref(x);
        if (tsr_device_is_meta(t->device)) return refuse_meta("aten::_to_dense", "MkldnnCPU, SparseCPU, SparseCsrCPU");
        tsr_tensor *r = tsr_sparse_to_dense(t);
        if (r && dt && dtype_of(dt) != r->dtype) {
            tsr_tensor *r2 = tsr_to_dtype(r, dtype_of(dt), false);
            tsr_tensor_release(r);
            r = r2;
        }
        if (r && tsr_ag_needed(1, &t) && tsr_ag_record("to_dense", 1, &t, NULL, r, false) < 0) {
            tsr_tensor_release(r);
            return bind_runtime_error();
        }
        return wrap(r);
    }
    case K_TO_SPARSE:
        if (tsr_is_sparse(t)) return refuse("to_sparse", true, t);
        if (tsr_device_is_meta(t->device)) {   /* to_sparse has CPU kernels only */
            tsr_error_no_kernel("aten::to_sparse", "Meta", "CPU, SparseCsrCPU");
            return bind_runtime_error();
        }
        if (b->v[1]) {
            if (bind_table_int(b, 1, 0, &k) < 0) return NULL;
            return wrap(tsr_to_sparse(t, k, true));
        }
        return wrap(tsr_to_sparse(t, -1, false));
    case K_COALESCE:
        if (!tsr_is_sparse(t)) return strided_refused("aten::is_coalesced", SPK);
        return wrap(record1("coalesce", t, tsr_sparse_coalesce(t), NULL));
    case K_IS_COALESCED:
        if (!tsr_is_sparse(t)) return strided_refused("aten::is_coalesced", SPK);
        return v_bool(t->sparse->coalesced);
    case K_INDICES:
        if (!tsr_is_sparse(t)) return strided_refused(row->code ? "aten::indices" : "aten::_indices", SPK);
        return wrap(tsr_sparse_indices(t, row->code));
    case K_VALUES:
        if (!tsr_is_sparse(t))
            return strided_refused(row->code ? "aten::values" : "aten::_values", SPK3 ", NestedTensorCPU");
        return wrap(tsr_sparse_values(t, row->code));
    case K_NNZ:
        if (!tsr_is_sparse(t)) return strided_refused("aten::_nnz", SPK3);
        return v_int(tsr_sparse_nnz(t));
    case K_SPARSE_DIM:
        if (!tsr_is_sparse(t)) return strided_refused("aten::sparse_dim", SPK3);
        return v_int(t->sparse->sparse_dim);
    case K_DENSE_DIM:
        if (!tsr_is_sparse(t)) return strided_refused("aten::dense_dim", SPK3);
        return v_int(t->sparse->dense_dim);
    case K_SSUM: {
        Value *dt = ARG("dtype");
        tsr_dtype want = dt ? dtype_of(dt) : TSR_DTYPE_UNDEFINED;
        if (!tsr_is_sparse(t)) return exc_set("RuntimeError", "_sparse_sum expected sparse coordinate tensor layout but got Strided");
        tsr_dims dims = {0};
        if (ARG("dim")) {
            int slot = -1;
            for (int i = 0; i < BIND_MAXP; i++)
                if (b->v[i] == ARG("dim")) slot = i;
            if (bind_table_intlist(b, slot, "sum", dims.d, TSR_MAX_DIMS, &dims.n) < 0) return NULL;
        }
        if (!tsr_ag_needed(1, &t)) return wrap(tsr_sparse_sum(t, ARG("dim") ? &dims : NULL, want));
        /* with dtype and dim: _sparse_sum(self.to(dtype), dim) (ToCopyBackward0) */
        tsr_tensor *x = !ARG("dim") || want == TSR_DTYPE_UNDEFINED || want == t->dtype ? tsr_tensor_retain(t)
                      : record1("to_copy", t, tsr_sparse_to_dtype(t, want, false), NULL);
        if (!x) return bind_runtime_error();
        tsr_tensor *res = NULL;
        if (!ARG("dim")) {   /* _sparse_sum(self) = self.coalesce().values().sum(): CoalesceBackward0, ValuesBackward0, SumBackward0 */
            tsr_tensor *c = record1("coalesce", x, tsr_sparse_coalesce(x), NULL);
            tsr_tensor *v = c ? tsr_view_alias(c->sparse->values) : NULL;
            if (v) v->requires_grad = false;
            tsr_tensor *r = v ? record1("values", c, v, NULL) : NULL;
            res = r ? record1("sum", r, tsr_sparse_sum(c, NULL, want), NULL) : NULL;   /* values().sum(dtype) */
            tsr_tensor_release(c);
            tsr_tensor_release(r);
        } else {   /* SparseSumBackward0 */
            tsr_ag_args ga = {0};
            ga.ndims = dims.n;
            for (int i = 0; i < dims.n; i++) ga.dims[i] = dims.d[i];
            res = record1("sparse_sum", x, tsr_sparse_sum(x, &dims, TSR_DTYPE_UNDEFINED), &ga);
        }
        tsr_tensor_release(x);
        return wrap(res);
    }
    case K_SMM: {
        tsr_tensor *m2 = tensor_of(b->v[1]);
        if (tsr_is_sparse(t) && !tsr_is_sparse(m2)) return wrap(tsr_sparse_mm(t, m2));
        if (tsr_is_sparse(t) && tsr_is_sparse(m2)) return wrap(tsr_sparse_mm_sparse(t, m2));
        if (!tsr_is_sparse(t) && !tsr_is_sparse(m2)) return wrap(tsr_mm(t, m2, NULL));
        return refuse("mm", false, tsr_is_sparse(t) ? t : m2);
    }
    }
    return exc_set("RuntimeError", "tsr: unknown sparse row");
}

#define M BIND_METHOD
#define ROW(n, k, c, fl, s) {.name = n, .kind = k, .code = c, .flags = fl, .sigs = s, .handler = sparse_rows_call}
#define OPTS "*, ScalarType? dtype=None, Device? device=None, bool requires_grad=False"

static BindRow rows[] = {
    ROW("sparse_coo_tensor", K_COO, 0, BIND_FN,
        "object indices, object values, " OPTS "|object indices, object values, int[] size, " OPTS "|int[] size, " OPTS),
    ROW("to_dense", K_TO_DENSE, 0, M, "Tensor self, ScalarType? dtype=None"),
    ROW("to_sparse", K_TO_SPARSE, 0, M, "Tensor self|Tensor self, int sparse_dim"),
    ROW("coalesce", K_COALESCE, 0, M, "Tensor self"),
    ROW("is_coalesced", K_IS_COALESCED, 0, M, "Tensor self"),
    ROW("indices", K_INDICES, 1, M, "Tensor self"),
    ROW("values", K_VALUES, 1, M, "Tensor self"),
    ROW("_indices", K_INDICES, 0, M, "Tensor self"),
    ROW("_values", K_VALUES, 0, M, "Tensor self"),
    ROW("_nnz", K_NNZ, 0, M, "Tensor self"),
    ROW("sparse_dim", K_SPARSE_DIM, 0, M, "Tensor self"),
    ROW("dense_dim", K_DENSE_DIM, 0, M, "Tensor self"),
    {.name = "sum", .kind = K_SSUM, .flags = BIND_FN, .sigs = "Tensor input, int[1]? dim=None, ScalarType? dtype=None",
     .handler = sparse_rows_call, .module = "torch.sparse"},
    {.name = "mm", .kind = K_SMM, .flags = BIND_FN, .sigs = "Tensor mat1, Tensor mat2", .handler = sparse_rows_call,
     .module = "torch.sparse"},
};

/* s.new(...): legacy_sparse_tensor_generic_ctor_new (tensor_new.cpp) with
 * s's dtype and device; a sequence as the size is refused unless it is a
 * torch.Size. */
static Value *sparse_new_run(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)row; (void)self; (void)inplace;
    const tsr_tensor *t = b->ctx;
    if (tsr_device_is_meta(t->device)) return exc_set("RuntimeError", "Unrecognized tensor type ID: SparseMeta");
    int devslot = b->sig == 0 ? 0 : b->sig == 2 ? 2 : b->sig == 3 ? 3 : 1;
    Value *devv = b->sig == 1 ? NULL : b->v[devslot];
    if (devv && !is_none(devv)) {
        tsr_device want = t->device;
        if (bind_device_arg(devv, t->device, &want) < 0) return NULL;
        if (want.type != t->device.type)
            return exc_set("RuntimeError", "legacy constructor expects device type: %s but device type: %s was passed",
                           tsr_device_type_name(t->device.type), tsr_device_type_name(want.type));
    }
    int64_t sz[TSR_MAX_DIMS];
    int n = -1;
    switch (b->sig) {
    case 0: return wrap(tsr_sparse_empty(1, (int64_t[]){0}, t->dtype, t->device));
    case 1: return exc_set("NotImplementedError", "new(cdata=...) is not supported by tsr");
    case 3:
        if (bind_table_intlist(b, 2, fname, sz, TSR_MAX_DIMS, &n) < 0) return NULL;
        /* fall through */
    case 2: return wrap(tsr_sparse_coo_tensor(tensor_of(b->v[0]), tensor_of(b->v[1]), n, sz));
    default: break;
    }
    Value *first = b->v[0];
    if (!(first == b->varargs || first->type == &t_size || b->bykw[0] || is_int_like(first)))
        return exc_set("TypeError", "SparseTensor.new(sequence) only accepts sizes.  Please use "
                       "torch.sparse_coo_tensor() or construct a strided tensor and convert it to sparse via "
                       "to_sparse.");
    if (bind_table_intlist(b, 0, fname, sz, TSR_MAX_DIMS, &n) < 0) return NULL;
    return wrap(tsr_sparse_empty(n, sz, t->dtype, t->device));
}

static BindRow sparse_new_row[] = {{
    .name = "new", .handler = sparse_new_run,
    .sigs = "*, Device? device=None|!*, int cdata|Tensor indices, Tensor values, *, Device? device=None|"
            "Tensor indices, Tensor values, int[] size, *, Device? device=None|int[] size, *, Device? device=None",
}};

Value *bind_sparse_new(Value *self, CallArgs *a) { return bind_table_call_ctx(&sparse_new_row[0], NULL, a, tensor_of(self)); }

bool bind_sparse_row(const BindRow *d) { return d->handler == sparse_rows_call; }

void bind_sparse_init(void)
{
    qsort(srows, sizeof srows / sizeof *srows, sizeof *srows, cmp_srows);
    for (size_t i = 1; i < sizeof refusals / sizeof *refusals; i++)
        if (strcmp(refusals[i - 1].key, refusals[i].key) >= 0) {
            fprintf(stderr, "tsr: sparse refusals not sorted at \"%s\"\n", refusals[i].key);
            abort();
        }
    bind_table_register(rows, (int)(sizeof rows / sizeof rows[0]));
    bind_table_register(sparse_new_row, 1);
}
