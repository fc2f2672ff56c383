/* runtime/ops/reduce.c — sum, nansum, mean, nanmean, prod, var/std and
 * their _mean forms, as aten/src/ATen/native/ReduceOps.cpp of 1.13 composes
 * them: the result dtype and out= rules of the meta functions, the input
 * cast to the result dtype (make_reduction_from_out_ty), the kernels of
 * reduce_sum.c and Reduce.h's orders (binary_kernel_reduce_vec, WelfordOps). */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../error.h"
#include "../internal.h"
#include "../iter.h"
#include "../kernels.h"
#include "binary.h"
#include "compare.h"
#include "combine.h"
#include "copy.h"
#include "reduce.h"
#include "reduce_iter.h"
#include "reduce_sum.h"
#include "unary.h"
#include "../view.h"

static bool is_meta(const tsr_tensor *x) { return x->device.type == TSR_DEV_META; }

/* "Expected out tensor to have dtype float, but got double instead" */
static int check_out_dtype(const tsr_tensor *out, tsr_dtype want)
{
    if (out && out->dtype != want) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got %s instead",
                      tsr_dtype_typemeta_name(want), tsr_dtype_typemeta_name(out->dtype));
        return -1;
    }
    return 0;
}

/* get_dtype_from_self(self, dtype, promote_integers=true) */
static tsr_dtype dtype_from_self(const tsr_tensor *x, tsr_dtype dtype)
{
    if (dtype != TSR_DTYPE_UNDEFINED) return dtype;
    return tsr_dtype_is_integral(x->dtype, true) ? TSR_INT64 : x->dtype;
}

/* x as dtype (self.to(in_dtype) of make_reduction): new reference. */
static tsr_tensor *as_dtype(const tsr_tensor *x, tsr_dtype dt)
{
    return tsr_to_dtype(x, dt, false);
}

/* ---------------------------------------------------------------- integer sums and products */

/* binary_kernel_reduce_vec's shapes: inner (contiguous reduced dim 0),
 * outer (contiguous kept dim 1), else a basic loop; with OP(a, b) on the
 * storage type T (the output's dtype equals the input's). */
#define VEC_REDUCE(name, T, VS, OP)                                                                      \
    static void name(char **data, const int64_t *s, int64_t size0, int64_t size1, void *ctx)              \
    {                                                                                                    \
        (void)ctx; typedef T elem_t __attribute__((unused));                                                                     \
        if (s[0] == 0 && s[1] == (int64_t)sizeof(T)) {                                                   \
            for (int64_t j = 0; j < size1; j++) {                                                        \
                T *o = (T *)(data[0] + j * s[2]);                                                        \
                const T *in = (const T *)(data[1] + j * s[3]);                                           \
                int64_t count = size0 / (4 * VS), i0 = 0;                                                \
                if (count > 0) {                                                                         \
                    T acc[4][VS];                                                                        \
                    for (int k = 0; k < 4; k++)                                                          \
                        for (int l = 0; l < VS; l++) acc[k][l] = in[k * VS + l];                         \
                    for (int64_t i = 1; i < count; i++)                                                  \
                        for (int k = 0; k < 4; k++)                                                      \
                            for (int l = 0; l < VS; l++) acc[k][l] = OP(acc[k][l], in[i * 4 * VS + k * VS + l]); \
                    T b[VS];                                                                             \
                    for (int l = 0; l < VS; l++) b[l] = OP(OP(acc[0][l], acc[1][l]), OP(acc[2][l], acc[3][l])); \
                    for (int l = 1; l < VS; l++) b[0] = OP(b[0], b[l]);                                  \
                    *o = OP(*o, b[0]);                                                                   \
                    i0 = count * 4 * VS;                                                                 \
                }                                                                                        \
                for (int64_t i = i0; i < size0; i++) *o = OP(*o, in[i]);                                 \
            }                                                                                            \
        } else if (s[0] == 0 && s[2] == (int64_t)sizeof(T) && s[3] == (int64_t)sizeof(T)) {              \
            int64_t j = 0;                                                                               \
            for (; j + 4 * VS <= size1; j += 4 * VS) {                                                   \
                T *o = (T *)data[0] + j;                                                                 \
                const char *in = data[1] + j * (int64_t)sizeof(T);                                       \
                T acc[4 * VS];                                                                           \
                memcpy(acc, in, sizeof acc);                                                             \
                for (int64_t i = 1; i < size0; i++) {                                                    \
                    const T *r = (const T *)(in + i * s[1]);                                             \
                    for (int l = 0; l < 4 * VS; l++) acc[l] = OP(acc[l], r[l]);                          \
                }                                                                                        \
                for (int l = 0; l < 4 * VS; l++) o[l] = OP(acc[l], o[l]);                                \
            }                                                                                            \
            for (; j < size1; j++) {                                                                     \
                T *o = (T *)data[0] + j;                                                                 \
                for (int64_t i = 0; i < size0; i++) *o = OP(*o, *(const T *)(data[1] + j * (int64_t)sizeof(T) + i * s[1])); \
            }                                                                                            \
        } else {                                                                                         \
            for (int64_t j = 0; j < size1; j++)                                                          \
                for (int64_t i = 0; i < size0; i++) {                                                    \
                    T *o = (T *)(data[0] + j * s[2] + i * s[0]);                                         \
                    *o = OP(*o, *(const T *)(data[1] + j * s[3] + i * s[1]));                            \
                }                                                                                        \
        }                                                                                                \
    }

#define ADDOP(a, b) ((a) + (b))
#define MULOP(a, b) ((a) * (b))
#define UADDOP(a, b) ((elem_t)((uint64_t)(a) + (uint64_t)(b)))
#define UMULOP(a, b) ((elem_t)((uint64_t)(a) * (uint64_t)(b)))
#define BANDOP(a, b) ((a) && (b))
#define BOROP(a, b) ((a) || (b))

VEC_REDUCE(sum_u8, uint8_t, 32, UADDOP)
VEC_REDUCE(sum_i8, int8_t, 32, UADDOP)
VEC_REDUCE(sum_i16, int16_t, 16, UADDOP)
VEC_REDUCE(sum_i32, int32_t, 8, UADDOP)
VEC_REDUCE(sum_i64, int64_t, 4, UADDOP)
VEC_REDUCE(sum_b, bool, 32, BOROP)
VEC_REDUCE(prod_u8, uint8_t, 32, UMULOP)
VEC_REDUCE(prod_i8, int8_t, 32, UMULOP)
VEC_REDUCE(prod_i16, int16_t, 16, UMULOP)
VEC_REDUCE(prod_i32, int32_t, 8, UMULOP)
VEC_REDUCE(prod_i64, int64_t, 4, UMULOP)
VEC_REDUCE(prod_b, bool, 32, BANDOP)
VEC_REDUCE(prod_f32, float, 8, MULOP)
VEC_REDUCE(prod_f64, double, 4, MULOP)
VEC_REDUCE(prod_c64, float _Complex, 4, MULOP)
VEC_REDUCE(prod_c128, double _Complex, 2, MULOP)

static const rloop2d int_sum_loops[TSR_DTYPE_SLOTS] = {
    [TSR_UINT8] = sum_u8, [TSR_INT8] = sum_i8, [TSR_INT16] = sum_i16, [TSR_INT32] = sum_i32,
    [TSR_INT64] = sum_i64, [TSR_BOOL] = sum_b,
};
static const rloop2d prod_loops[TSR_DTYPE_SLOTS] = {
    [TSR_UINT8] = prod_u8, [TSR_INT8] = prod_i8, [TSR_INT16] = prod_i16, [TSR_INT32] = prod_i32,
    [TSR_INT64] = prod_i64, [TSR_BOOL] = prod_b, [TSR_FLOAT32] = prod_f32, [TSR_FLOAT64] = prod_f64,
    [TSR_COMPLEX64] = prod_c64, [TSR_COMPLEX128] = prod_c128,
};

/* Runs loop over x reduced by mask into r (whose dtype x is cast to),
 * after filling r with ident. On a device: reduction dop (TSR_KR_*) of
 * the backend, accumulating in r's dtype (aten names it when there is
 * none). 0 or -1. */
static int run_reduce(const tsr_tensor *x, uint64_t mask, bool keepdim, tsr_tensor *r, tsr_scalar ident,
                      rloop2d loop, const char *kname, int dop, const char *aten)
{
    if (reduce_on_device(x)) {
        if (tsr_tensor_numel(x) == 0) {
            if (dop == TSR_KR_MEAN) ident = tsr_scalar_float(NAN);   /* mean_out: fill_(NaN) */
            return tsr_fill_(r, ident);
        }
        tsr_tensor *in = as_dtype(x, r->dtype);
        if (!in) return -1;
        int rc = reduce_device(dop, in, mask, keepdim, r, NULL, r->dtype, aten);
        tsr_tensor_release(in);
        return rc;
    }
    if (tsr_fill_(r, ident) < 0) return -1;
    if (tsr_tensor_numel(x) == 0 || is_meta(x)) return 0;
    if (!loop) return tsr__not_implemented(kname, r->dtype);
    tsr_tensor *in = as_dtype(x, r->dtype);
    if (!in) return -1;
    rplan P;
    reduce_plan(&P, in, mask, keepdim, r);
    int rc = reduce_walk(&P, loop, NULL);
    tsr_tensor_release(in);
    return rc;
}

/* sum, nansum (nan), or on a device mean (mean: the sum times the factor
 * in the kernel, as 1.13's mean_out computes off the CPU) */
static tsr_tensor *sum_impl(const tsr_tensor *x, const tsr_dims *dims, bool keepdim, tsr_dtype dtype, tsr_tensor *out,
                            bool nan, bool mean)
{
    uint64_t mask;
    if (nan && tsr_dtype_is_complex(x->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "nansum does not support complex inputs");
        return NULL;
    }
    if (nan && tsr_dtype_is_integral(x->dtype, true)) nan = false;
    if (reduce_mask(x, dims, &mask) < 0) return NULL;
    tsr_dtype dt = out ? (dtype != TSR_DTYPE_UNDEFINED ? dtype : out->dtype) : dtype_from_self(x, dtype);
    if (check_out_dtype(out, dt) < 0) return NULL;
    tsr_tensor *r = reduce_result(x, mask, keepdim, dt, out);
    if (!r) return NULL;
    rloop2d loop = tsr_dtype_is_integral(dt, true) ? int_sum_loops[dt] : reduce_sum_loop(dt, nan);
    if (run_reduce(x, mask, keepdim, r, tsr_scalar_int(0), loop, nan ? "nansum_cpu" : "sum_cpu",
                   mean ? TSR_KR_MEAN : nan ? TSR_KR_NANSUM : TSR_KR_SUM,
                   mean ? "aten::mean" : nan ? "aten::nansum" : "aten::sum") < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

tsr_tensor *tsr_sum(const tsr_tensor *x, const tsr_dims *dims, bool keepdim, tsr_dtype dtype, tsr_tensor *out)
{
    return sum_impl(x, dims, keepdim, dtype, out, false, false);
}

tsr_tensor *tsr_nansum(const tsr_tensor *x, const tsr_dims *dims, bool keepdim, tsr_dtype dtype, tsr_tensor *out)
{
    return sum_impl(x, dims, keepdim, dtype, out, true, false);
}

/* mean's meta check (ReduceOps.cpp TORCH_META_FUNC2(mean, dim)) */
static int mean_dtype_check(const tsr_tensor *x, tsr_dtype dtype, const char *fname)
{
    tsr_dtype in = dtype_from_self(x, dtype);
    if (tsr_dtype_is_floating(in) || tsr_dtype_is_complex(in)) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "%s(): could not infer output dtype. %s dtype must be either a floating point or "
                  "complex dtype. Got: %s", fname, dtype != TSR_DTYPE_UNDEFINED ? "Optional" : "Input",
                  tsr_dtype_scalar_name(dtype != TSR_DTYPE_UNDEFINED ? dtype : x->dtype));
    return -1;
}

/* r /= n in place, as div_ by a Python int */
static int div_count(tsr_tensor *r, int64_t n)
{
    tsr_operand s = tsr_operand_scalar(tsr_scalar_int(n));
    tsr_tensor *q = tsr_binary_(TSR_BINOP_DIV, r, &s, NULL);
    if (!q) return -1;
    tsr_tensor_release(q);
    return 0;
}

tsr_tensor *tsr_mean(const tsr_tensor *x, const tsr_dims *dims, bool keepdim, tsr_dtype dtype, tsr_tensor *out)
{
    uint64_t mask;
    if (mean_dtype_check(x, dtype, "mean") < 0) return NULL;
    if (reduce_mask(x, dims, &mask) < 0) return NULL;
    if (reduce_on_device(x)) return sum_impl(x, dims, keepdim, dtype, out, false, true);
    tsr_tensor *r = sum_impl(x, dims, keepdim, dtype, out, false, false);
    if (!r) return NULL;
    if (!is_meta(r) && div_count(r, reduce_count(x, mask)) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

typedef struct { int64_t n; tsr_dtype dt; } cnt_ctx;
static void cnt_begin(void *c) { ((cnt_ctx *)c)->n = 0; }
static void cnt_step(void *c, const char *p, int64_t idx)
{
    cnt_ctx *k = c;
    (void)idx;
    double _Complex v = tsr_dtype_traits_of(k->dt)->load_complex(p);
    k->n += !(isnan(creal(v)) || isnan(cimag(v)));
}
static void cnt_end(void *c, char *o) { *(int64_t *)o = ((cnt_ctx *)c)->n; }

tsr_tensor *tsr_nanmean(const tsr_tensor *x, const tsr_dims *dims, bool keepdim, tsr_dtype dtype, tsr_tensor *out)
{
    if (!tsr_dtype_is_floating(x->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "nanmean(): expected input to have floating point dtype but got %s",
                      tsr_dtype_scalar_name(x->dtype));
        return NULL;
    }
    /* nansum(x) / (~isnan(x)).sum(): the count as an int64 tensor */
    uint64_t mask;
    if (reduce_on_device(x)) {
        /* the count as (x == x).sum(), of device kernels */
        tsr_tensor *s = NULL, *ok = NULL, *cnt = NULL, *r = NULL;
        tsr_operand a = tsr_operand_tensor(x);
        if (!(s = tsr_nansum(x, dims, keepdim, dtype, NULL))) return NULL;
        if ((ok = tsr_compare(TSR_CMP_EQ, &a, &a, NULL)) && (cnt = tsr_sum(ok, dims, keepdim, TSR_DTYPE_UNDEFINED, NULL))) {
            tsr_operand sa = tsr_operand_tensor(s), ca = tsr_operand_tensor(cnt);
            r = tsr_binary(TSR_BINOP_DIV, &sa, &ca, out, NULL);
        }
        tsr_tensor_release(s);
        tsr_tensor_release(ok);
        tsr_tensor_release(cnt);
        return r;
    }
    if (reduce_mask(x, dims, &mask) < 0) return NULL;
    tsr_tensor *s = NULL, *cnt = NULL, *r = NULL;
    s = tsr_nansum(x, dims, keepdim, dtype, NULL);
    if (!s) return NULL;
    cnt = reduce_result(x, mask, keepdim, TSR_INT64, NULL);
    if (!cnt) goto done;
    if (!is_meta(x)) {
        if (tsr_zero_(cnt) < 0) goto done;
        if (tsr_tensor_numel(x) > 0) {
            rplan P;
            reduce_plan(&P, x, mask, keepdim, cnt);
            cnt_ctx c = {.dt = x->dtype};
            relt_ops ops = {cnt_begin, cnt_step, cnt_end};
            if (reduce_foreach(&P, &ops, &c) < 0) goto done;
        }
    }
    tsr_operand a = tsr_operand_tensor(s), b = tsr_operand_tensor(cnt);
    r = tsr_binary(TSR_BINOP_DIV, &a, &b, out, NULL);
done:
    tsr_tensor_release(s);
    tsr_tensor_release(cnt);
    return r;
}

tsr_tensor *tsr_prod(const tsr_tensor *x, const int64_t *dim, bool keepdim, tsr_dtype dtype, tsr_tensor *out)
{
    tsr_dims dd = {.n = dim ? 1 : -1};
    if (dim) dd.d[0] = *dim;
    uint64_t mask;
    if (reduce_mask(x, &dd, &mask) < 0) return NULL;
    tsr_dtype dt = out ? (dtype != TSR_DTYPE_UNDEFINED ? dtype : out->dtype) : dtype_from_self(x, dtype);
    if (check_out_dtype(out, dt) < 0) return NULL;
    tsr_tensor *r = reduce_result(x, mask, dim ? keepdim : false, dt, out);
    if (!r) return NULL;
    if (run_reduce(x, mask, dim ? keepdim : false, r, tsr_scalar_int(1), prod_loops[dt], "prod_cpu", TSR_KR_PROD,
                   "aten::prod") < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

/* ---------------------------------------------------------------- var / std */

typedef struct { double mean, m2, nf; int64_t n; tsr_dtype dt; int64_t corr; bool sqrt_; char *mean_base;
                 const tsr_tensor *r; const tsr_tensor *m; } welford;

static void w_begin(void *c)
{
    welford *w = c;
    w->mean = w->m2 = w->nf = 0;
    w->n = 0;
}

static void w_step(void *c, const char *p, int64_t idx)
{
    welford *w = c;
    (void)idx;
    double data = tsr_dtype_traits_of(w->dt)->load_double(p);
    double delta = data - w->mean;
    double new_mean = w->mean + delta / (w->nf + 1);
    double new_delta = data - new_mean;
    w->mean = new_mean;
    /* the AVX2 build of ReduceOpsKernel.cpp contracts this into an FMA */
    w->m2 = fma(delta, new_delta, w->m2);
    w->n++;
    w->nf = (double)w->n;
}

static void w_end(void *c, char *o)
{
    welford *w = c;
    double divisor = w->nf > (double)w->corr ? w->nf - (double)w->corr : 0;
    double var = w->m2 / divisor;
    const tsr_dtype_traits *tr = tsr_dtype_traits_of(w->dt);
    /* results are stored as scalar_t: var, then mean */
    tr->store_double(o, w->sqrt_ ? sqrt(var) : var);
    if (w->mean_base) {
        /* the mean output has the same geometry as the var output */
        ptrdiff_t off = o - (char *)tsr_tensor_ptr(w->r, NULL);
        tr->store_double(w->mean_base + off, w->mean);
    }
}

/* std_var_all_cpu: the mean (sum / n in x's dtype), then Σ(x - mean)² in
 * double, slab by slab. */
typedef struct { double mean, total; tsr_dtype dt; } sq_ctx;

#define SQ_LOOP(name, T)                                                            \
    static void name(char **data, const int64_t *s, int64_t s0, int64_t s1, void *c) \
    {                                                                               \
        sq_ctx *q = c;                                                              \
        const double mean = q->mean;                                                \
        double local = 0.0;                                                         \
        for (int64_t i = 0; i < s1; i++) {                                          \
            const char *row = data[1] + s[3] * i;                                   \
            for (int64_t j = 0; j < s0; j++) {                                      \
                double dx = (double)*(const T *)(row + s[1] * j) - mean;            \
                local += dx * dx;                                                   \
            }                                                                       \
        }                                                                           \
        q->total += local;                                                          \
    }
SQ_LOOP(sq_f32, float)
SQ_LOOP(sq_f64, double)

static int var_all(const tsr_tensor *x, int64_t corr, bool take_sqrt, tsr_tensor *r)
{
    tsr_tensor *m = tsr_mean(x, NULL, false, TSR_DTYPE_UNDEFINED, NULL);
    if (!m) return -1;
    sq_ctx q = {.mean = tsr_tensor_get_double(m, NULL), .total = 0, .dt = x->dtype};
    tsr_tensor_release(m);
    /* an iterator over x alone: everything reduced into r */
    rplan P;
    uint64_t all = x->ndim == 64 ? ~0ull : ((1ull << x->ndim) - 1);
    reduce_plan(&P, x, all, false, r);
    if (reduce_walk(&P, x->dtype == TSR_FLOAT32 ? sq_f32 : sq_f64, &q) < 0) return -1;
    int64_t n = tsr_tensor_numel(x) - corr;
    double var = q.total / (double)(n > 0 ? n : 0);
    double res = take_sqrt ? sqrt(var) : var;
    if (x->dtype == TSR_FLOAT32) res = (float)res;
    return tsr_fill_(r, tsr_scalar_float(res));
}

/* ReduceOps.cpp std_var_out for complex input: var(real) + var(imag), then
 * sqrt for std; the mean is complex(mean(real), mean(imag)). */
static tsr_tensor *var_complex(const tsr_tensor *x, const tsr_dims *dims, int64_t corr, bool keepdim, bool take_sqrt,
                               tsr_tensor *out, tsr_tensor **mean_out, const char *fname)
{
    tsr_tensor *re = NULL, *im = NULL, *vr = NULL, *vi = NULL, *mr = NULL, *mi = NULL, *r = NULL, *m = NULL;
    re = tsr_view_real(x);
    im = re ? tsr_view_imag(x) : NULL;
    if (!im) goto done;
    vr = tsr_var(re, dims, corr, keepdim, false, NULL, mean_out ? &mr : NULL, fname);
    vi = vr ? tsr_var(im, dims, corr, keepdim, false, NULL, mean_out ? &mi : NULL, fname) : NULL;
    if (!vi) goto done;
    tsr_operand a = tsr_operand_tensor(vr), b = tsr_operand_tensor(vi);
    r = tsr_binary(TSR_BINOP_ADD, &a, &b, out, NULL);
    if (!r) goto done;
    if (take_sqrt) {
        tsr_tensor *q = NULL;
        if (r->dtype == TSR_FLOAT16 && !reduce_on_device(x)) tsr__not_implemented("sqrt_vml_cpu", TSR_FLOAT16);
        else q = tsr_unary_(TSR_UNOP_SQRT, r, NULL);
        if (!q) {
            tsr_tensor_release(r);
            r = NULL;
            goto done;
        }
        tsr_tensor_release(q);
    }
    if (mean_out && reduce_on_device(x)) {   /* the parts joined where they are */
        if (!(m = tsr_complex(mr, mi))) {
            tsr_tensor_release(r);
            r = NULL;
            goto done;
        }
        *mean_out = m;
    } else if (mean_out) {
        m = tsr_tensor_empty(mr->ndim, mr->sizes, x->dtype, x->device);
        if (!m) goto done;
        const tsr_dtype_traits *tr = tsr_dtype_traits_of(x->dtype);
        int64_t n = tsr_tensor_numel(m);
        for (int64_t i = 0; i < n && !tsr_tensor_is_meta(m); i++)
            tr->store_complex((char *)tsr_tensor_ptr(m, NULL) + i * tr->itemsize,
                              tsr_tensor_get_double_at(mr, i) + I * tsr_tensor_get_double_at(mi, i));
        *mean_out = m;
    }
done:
    if (!r) tsr_tensor_release(m);
    tsr_tensor_release(re);
    tsr_tensor_release(im);
    tsr_tensor_release(vr);
    tsr_tensor_release(vi);
    tsr_tensor_release(mr);
    tsr_tensor_release(mi);
    return r;
}

tsr_tensor *tsr_var(const tsr_tensor *x, const tsr_dims *dims, int64_t correction, bool keepdim, bool take_sqrt,
                    tsr_tensor *out, tsr_tensor **mean_out, const char *fname)
{
    uint64_t mask;
    tsr_tensor *r = NULL, *m = NULL, *in = NULL;
    if (!tsr_dtype_is_floating(x->dtype) && !tsr_dtype_is_complex(x->dtype)) {
        if (mean_out)
            tsr_error_set(TSR_ERR_RUNTIME, "%s only support floating point and complex dtypes", fname);
        else
            tsr_error_set(TSR_ERR_RUNTIME, "std and var only support floating point and complex dtypes");
        return NULL;
    }
    if (reduce_mask(x, dims, &mask) < 0) return NULL;
    if (reduce_on_device(x) && x->dtype == TSR_COMPLEX32) {   /* the device composes complex64/128 only */
        char aten[64];
        snprintf(aten, sizeof aten, "aten::%s", fname);
        reduce_device_refuse(x, aten);
        return NULL;
    }
    if (tsr_dtype_is_complex(x->dtype)) return var_complex(x, dims, correction, keepdim, take_sqrt, out, mean_out, fname);
    tsr_dtype dt = out ? out->dtype : x->dtype;
    r = reduce_result(x, mask, keepdim, dt, out);
    if (!r) return NULL;
    if (mean_out) {
        m = reduce_result(x, mask, keepdim, x->dtype, NULL);
        if (!m) goto fail;
    }
    if (is_meta(x)) goto done;
    if (tsr_tensor_numel(x) == 0 || reduce_count(x, mask) == 0) {
        if (tsr_fill_(r, tsr_scalar_float(NAN)) < 0 || (m && tsr_fill_(m, tsr_scalar_float(NAN)) < 0)) goto fail;
        goto done;
    }
    if (reduce_on_device(x)) {
        /* std_var_stub: WelfordOps in the kernel, the mean its by-product */
        char aten[64];
        snprintf(aten, sizeof aten, "aten::%s", fname);
        if (m && m->dtype != r->dtype) {
            reduce_device_refuse(x, aten);
            goto fail;
        }
        in = as_dtype(x, dt);
        if (!in) goto fail;
        reduce_dev_args a = {.correction = correction, .take_sqrt = take_sqrt};
        if (reduce_device_ex(m ? TSR_KR_VAR_MEAN : TSR_KR_VAR, in, mask, keepdim, r, m, dt, aten, &a) < 0) goto fail;
        goto done;
    }
    if (!m && tsr_tensor_numel(r) == 1 && (x->dtype == TSR_FLOAT32 || x->dtype == TSR_FLOAT64)) {
        if (var_all(x, correction, take_sqrt, r) < 0) goto fail;
        goto done;
    }
    in = as_dtype(x, dt);
    if (!in) goto fail;
    {
        rplan P;
        reduce_plan(&P, in, mask, keepdim, r);
        welford w = {.dt = dt, .corr = correction, .sqrt_ = take_sqrt, .r = r};
        if (m) w.mean_base = tsr_tensor_ptr(m, NULL);
        relt_ops ops = {w_begin, w_step, w_end};
        if (reduce_foreach(&P, &ops, &w) < 0) goto fail;
    }
done:
    tsr_tensor_release(in);
    if (mean_out) *mean_out = m;
    return r;
fail:
    tsr_tensor_release(in);
    tsr_tensor_release(r);
    tsr_tensor_release(m);
    return NULL;
}
