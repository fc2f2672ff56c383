/* runtime/ops/reduce_cmp.c — amax/amin, max/min (whole and along a dim,
 * with indices), argmax/argmin, all/any and count_nonzero, with 1.13's
 * rules (ReduceOps.cpp, TensorCompare.cpp): NaN wins and the first
 * occurrence of the extreme gives the index; zero-size reductions are
 * IndexErrors; all/any give bool (uint8 for uint8 input). */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "../error.h"
#include "../internal.h"
#include "../kernels.h"
#include "compare.h"
#include "binary.h"
#include "copy.h"
#include "reduce.h"
#include "reduce_iter.h"
#include "unary.h"

static bool is_meta(const tsr_tensor *x) { return x->device.type == TSR_DEV_META; }

/* One running extreme: floats compared as double (exact for every float
 * dtype), integers as int64. */
typedef struct {
    const tsr_dtype_traits *tr;
    bool integral, is_max, want_index, started;
    double dv;
    int64_t iv, idx;
    char *ibase;            /* indices output (same geometry as values) */
    const char *vbase;
    int64_t istride_ratio;  /* not used */
} ext_ctx;

static void ext_begin(void *c)
{
    ext_ctx *e = c;
    e->started = false;
    e->idx = 0;
}

static void ext_step(void *c, const char *p, int64_t idx)
{
    ext_ctx *e = c;
    if (e->integral) {
        int64_t v = e->tr->load_int64(p);
        if (!e->started || (e->is_max ? v > e->iv : v < e->iv)) e->iv = v, e->idx = idx;
    } else {
        double v = e->tr->load_double(p);
        if (!e->started) {
            e->dv = v, e->idx = idx;
        } else if (!isnan(e->dv)) {
            if (isnan(v) || (e->is_max ? v > e->dv : v < e->dv)) e->dv = v, e->idx = idx;
        }
    }
    e->started = true;
}

/* Rows of one dtype: the same choices as ext_step, without a call per
 * element (floats: the first NaN ends the row's search). */
#define EXT_ROW(name, T, LD, FLOAT)                                                           \
    static void name(void *c, const char *p, int64_t stride, int64_t n, int64_t idx)        \
    {                                                                                         \
        ext_ctx *e = c;                                                                       \
        int64_t i = 0;                                                                        \
        if (FLOAT && e->started && isnan(e->dv)) return;                                      \
        if (!e->started) {                                                                    \
            if (FLOAT) e->dv = LD(*(const T *)p); else e->iv = (int64_t)LD(*(const T *)p);    \
            e->idx = idx;                                                                     \
            e->started = true;                                                                \
            i = 1;                                                                            \
            if (FLOAT && isnan(e->dv)) return;                                                \
        }                                                                                     \
        if (FLOAT) {                                                                          \
            double m = e->dv;                                                                 \
            int64_t at = e->idx;                                                              \
            for (; i < n; i++) {                                                              \
                double v = LD(*(const T *)(p + i * stride));                                  \
                if (isnan(v)) { m = v; at = idx + i; break; }                                 \
                if (e->is_max ? v > m : v < m) { m = v; at = idx + i; }                       \
            }                                                                                 \
            e->dv = m, e->idx = at;                                                           \
        } else {                                                                              \
            int64_t m = e->iv, at = e->idx;                                                   \
            for (; i < n; i++) {                                                              \
                int64_t v = (int64_t)LD(*(const T *)(p + i * stride));                        \
                if (e->is_max ? v > m : v < m) { m = v; at = idx + i; }                       \
            }                                                                                 \
            e->iv = m, e->idx = at;                                                           \
        }                                                                                     \
    }
#define LDP(x) (x)
EXT_ROW(row_f32, float, LDP, 1)
EXT_ROW(row_f64, double, LDP, 1)
EXT_ROW(row_f16, tsr_half, tsr_half_to_float, 1)
EXT_ROW(row_bf16, tsr_bfloat16, tsr_bfloat16_to_float, 1)
EXT_ROW(row_u8, uint8_t, LDP, 0)
EXT_ROW(row_i8, int8_t, LDP, 0)
EXT_ROW(row_i16, int16_t, LDP, 0)
EXT_ROW(row_i32, int32_t, LDP, 0)
EXT_ROW(row_i64, int64_t, LDP, 0)
EXT_ROW(row_b, bool, LDP, 0)
static void (*const ext_rows[TSR_DTYPE_SLOTS])(void *, const char *, int64_t, int64_t, int64_t) = {
    [TSR_FLOAT32] = row_f32, [TSR_FLOAT64] = row_f64, [TSR_FLOAT16] = row_f16, [TSR_BFLOAT16] = row_bf16,
    [TSR_UINT8] = row_u8, [TSR_INT8] = row_i8, [TSR_INT16] = row_i16, [TSR_INT32] = row_i32, [TSR_INT64] = row_i64,
    [TSR_BOOL] = row_b,
};

static void ext_end(void *c, char *o)
{
    ext_ctx *e = c;
    if (e->integral) e->tr->store_int64(o, e->iv);
    else e->tr->store_double(o, e->dv);
}

/* argmax: the index only, into an int64 output */
static void arg_end(void *c, char *o)
{
    ext_ctx *e = c;
    *(int64_t *)o = e->idx;
}

static int check_complex(const tsr_tensor *x, const char *what)
{
    if (tsr_dtype_is_complex(x->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s", what);
        return -1;
    }
    return 0;
}

/* "amax(): Expected reduction dim 0 to have non-zero size." */
static int check_nonzero_dims(const tsr_tensor *x, uint64_t mask, const char *fname)
{
    if (tsr_tensor_numel(x) != 0) return 0;
    for (int d = 0; d < x->ndim; d++)
        if ((mask & (1ull << d)) && x->sizes[d] == 0) {
            tsr_error_set(TSR_ERR_INDEX, "%s(): Expected reduction dim %d to have non-zero size.", fname, d);
            return -1;
        }
    return 0;
}

/* The extreme of a whole contiguous float32/float64 tensor with the result
 * of the element-by-element walk above (the first NaN, else the first
 * occurrence of the extreme; zeros of either sign are equal, so the first one
 * decides), in one vectorized read: each chunk's extreme and NaN flag come
 * from VB-byte lanes (GCC vector extensions), the first chunk that holds the
 * extreme is remembered, and at the end only that chunk (or the chunk of the
 * first NaN) is scanned again for the index. 0, or -1 when interrupted. */
#define FAST_EXT(name, T, I, GT, VB)                                                           \
    static bool name##_chunk(const T *p, int64_t n, T *m)                                      \
    {                                                                                          \
        enum { V = VB / sizeof(T) };                                                           \
        typedef T vt __attribute__((vector_size(VB)));                                         \
        typedef I vi __attribute__((vector_size(VB)));                                         \
        vt a0, a1;                                                                             \
        vi nn = {0};                                                                           \
        for (int k = 0; k < V; k++) a0[k] = a1[k] = p[0];                                      \
        int64_t i = 0;                                                                         \
        for (; i + 2 * V <= n; i += 2 * V) {                                                   \
            vt v0, v1;                                                                         \
            memcpy(&v0, p + i, sizeof v0);                                                     \
            memcpy(&v1, p + i + V, sizeof v1);                                                 \
            vi g0 = GT(v0, a0), g1 = GT(v1, a1);                                               \
            a0 = (vt)(((vi)v0 & g0) | ((vi)a0 & ~g0));                                         \
            a1 = (vt)(((vi)v1 & g1) | ((vi)a1 & ~g1));                                         \
            nn |= (v0 != v0) | (v1 != v1);                                                     \
        }                                                                                      \
        bool any = false;                                                                      \
        T r = a0[0];                                                                           \
        for (int k = 0; k < V; k++) {                                                          \
            any |= nn[k] != 0;                                                                 \
            if (GT(a0[k], r)) r = a0[k];                                                       \
            if (GT(a1[k], r)) r = a1[k];                                                       \
        }                                                                                      \
        for (; i < n; i++) {                                                                   \
            if (GT(p[i], r)) r = p[i];                                                         \
            any |= p[i] != p[i];                                                               \
        }                                                                                      \
        *m = r;                                                                                \
        return any;                                                                            \
    }                                                                                          \
    static int name(const T *p, int64_t n, bool want_idx, double *val, int64_t *idx)           \
    {                                                                                          \
        (void)want_idx;                                                                        \
        const int64_t chunk = 1 << 14;                                                         \
        T m = p[0];                                                                            \
        int64_t best = 0;                                                                      \
        for (int64_t c0 = 0; c0 < n; c0 += chunk) {                                            \
            int64_t cn = n - c0 < chunk ? n - c0 : chunk;                                      \
            T cm;                                                                              \
            if (name##_chunk(p + c0, cn, &cm)) {                                               \
                int64_t i = c0;                                                                \
                while (!(p[i] != p[i])) i++;                                                   \
                *val = p[i], *idx = i;                                                         \
                return 0;                                                                      \
            }                                                                                  \
            if (GT(cm, m)) m = cm, best = c0;                                                  \
            if ((c0 & ((1 << 20) - 1)) == 0 && tsr_check_interrupt() < 0) return -1;           \
        }                                                                                      \
        int64_t i = best;                                                                      \
        while (p[i] != m) i++;                                                                 \
        *val = p[i], *idx = i;                                                                 \
        return 0;                                                                              \
    }
#define GT_MAX(a, b) ((a) > (b))
#define GT_MIN(a, b) ((a) < (b))
FAST_EXT(fast_max_f32, float, int32_t, GT_MAX, 16)
FAST_EXT(fast_min_f32, float, int32_t, GT_MIN, 16)
FAST_EXT(fast_max_f64, double, int64_t, GT_MAX, 16)
FAST_EXT(fast_min_f64, double, int64_t, GT_MIN, 16)
/* The same walks with AVX2's 32-byte lanes (compares and blends only: the
 * same results), chosen at run time. */
#if TSR_AVX2_BUILD
#pragma GCC push_options
#pragma GCC target("avx2")
FAST_EXT(fast_max_f32_avx2, float, int32_t, GT_MAX, 32)
FAST_EXT(fast_min_f32_avx2, float, int32_t, GT_MIN, 32)
FAST_EXT(fast_max_f64_avx2, double, int64_t, GT_MAX, 32)
FAST_EXT(fast_min_f64_avx2, double, int64_t, GT_MIN, 32)
#pragma GCC pop_options
#endif

static int run_ext(const tsr_tensor *in, uint64_t mask, bool keepdim, tsr_tensor *r, bool is_max, bool arg,
                   const char *aten)
{
    if (is_meta(in) || tsr_tensor_numel(r) == 0) return 0;
    if (reduce_on_device(in)) {
        int op = arg ? (is_max ? TSR_KR_ARGMAX : TSR_KR_ARGMIN) : (is_max ? TSR_KR_MAX : TSR_KR_MIN);
        return reduce_device(op, in, mask, keepdim, r, NULL, in->dtype, aten);
    }
    if (tsr_tensor_numel(r) == 1 && tsr_tensor_numel(in) > 0 && tsr_tensor_is_contiguous(in) &&
        (in->dtype == TSR_FLOAT32 || in->dtype == TSR_FLOAT64)) {
        /* one output over every element: the vectorized walk */
        double v;
        int64_t at;
        const void *p = tsr_tensor_ptr(in, NULL);
        int64_t n = tsr_tensor_numel(in);
        int rc;
#if TSR_AVX2_BUILD
        if (tsr__cpu_avx2())
            rc = in->dtype == TSR_FLOAT32 ? (is_max ? fast_max_f32_avx2 : fast_min_f32_avx2)(p, n, arg, &v, &at)
                                          : (is_max ? fast_max_f64_avx2 : fast_min_f64_avx2)(p, n, arg, &v, &at);
        else
#endif
        rc = in->dtype == TSR_FLOAT32 ? (is_max ? fast_max_f32 : fast_min_f32)(p, n, arg, &v, &at)
                                      : (is_max ? fast_max_f64 : fast_min_f64)(p, n, arg, &v, &at);
        if (rc < 0) return -1;
        char *o = tsr_tensor_ptr(r, NULL);
        if (arg) *(int64_t *)o = at;
        else tsr_dtype_traits_of(r->dtype)->store_double(o, v);
        return 0;
    }
    ext_ctx e = {.tr = tsr_dtype_traits_of(in->dtype), .integral = tsr_dtype_is_integral(in->dtype, true),
                 .is_max = is_max};
    rplan P;
    reduce_plan(&P, in, mask, keepdim, r);
    P.base[0] = tsr_tensor_ptr(r, NULL);
    relt_ops ops = {ext_begin, ext_step, arg ? arg_end : ext_end, ext_rows[in->dtype]};
    return reduce_foreach(&P, &ops, &e);
}

tsr_tensor *tsr_amax(const tsr_tensor *x, const tsr_dims *dims, bool keepdim, bool is_max, tsr_tensor *out)
{
    const char *fname = is_max ? "amax" : "amin";
    uint64_t mask;
    if (tsr_tensor_numel(x) == 0 && (!dims || dims->n <= 0)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                      "the reduction dim with the 'dim' argument.", fname);
        return NULL;
    }
    if (reduce_mask(x, dims, &mask) < 0) return NULL;
    if (check_nonzero_dims(x, mask, fname) < 0) return NULL;
    if (out && out->dtype != x->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected the dtype for input and out to match, but got %s for input's "
                      "dtype and %s for out's dtype.", tsr_dtype_scalar_name(x->dtype), tsr_dtype_scalar_name(out->dtype));
        return NULL;
    }
    if (tsr_dtype_is_complex(x->dtype)) {
        bool dev = reduce_on_device(x);
        tsr__not_implemented(is_max ? (dev ? "max_values_cuda" : "max_values_cpu")
                                    : (dev ? "min_values_cuda" : "min_values_cpu"), x->dtype);
        return NULL;
    }
    tsr_tensor *r = reduce_result(x, mask, keepdim, x->dtype, out);
    if (!r) return NULL;
    if (run_ext(x, mask, keepdim, r, is_max, false, is_max ? "aten::amax" : "aten::amin") < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

tsr_tensor *tsr_max_all(const tsr_tensor *x, bool is_max)
{
    if (tsr_tensor_numel(x) == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                      "the reduction dim with the 'dim' argument.", is_max ? "max" : "min");
        return NULL;
    }
    if (tsr_dtype_is_complex(x->dtype)) {
        bool dev = reduce_on_device(x);
        tsr__not_implemented(is_max ? (dev ? "max_all_cuda" : "max_all") : (dev ? "min_all_cuda" : "min_all"), x->dtype);
        return NULL;
    }
    uint64_t mask;
    if (reduce_mask(x, NULL, &mask) < 0) return NULL;
    tsr_tensor *r = reduce_result(x, mask, false, x->dtype, NULL);
    if (!r) return NULL;
    if (run_ext(x, mask, false, r, is_max, false, is_max ? "aten::max" : "aten::min") < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

int tsr_max_dim(const tsr_tensor *x, int64_t dim, bool keepdim, bool is_max, tsr_tensor *ov, tsr_tensor *oi,
                tsr_tensor **values, tsr_tensor **indices)
{
    const char *fname = is_max ? "max" : "min";
    tsr_dims dd = {.n = 1, .d = {dim}};
    uint64_t mask;
    tsr_tensor *v = NULL, *i = NULL;
    if (reduce_mask(x, &dd, &mask) < 0) return -1;
    if (check_complex(x, is_max ? "max(): does not support complex input" :
                                  "min(): does not support complex input") < 0) return -1;
    if (check_nonzero_dims(x, mask, fname) < 0) return -1;
    v = reduce_result(x, mask, keepdim, x->dtype, ov);
    i = v ? reduce_result(x, mask, keepdim, TSR_INT64, oi) : NULL;
    if (!i) goto fail;
    if (reduce_on_device(x) && tsr_tensor_numel(v) > 0) {
        if (reduce_device(is_max ? TSR_KR_MAX_DIM : TSR_KR_MIN_DIM, x, mask, keepdim, v, i, x->dtype,
                          is_max ? "aten::max.dim" : "aten::min.dim") < 0)
            goto fail;
    } else if (!is_meta(x) && tsr_tensor_numel(v) > 0) {
        ext_ctx e = {.tr = tsr_dtype_traits_of(x->dtype), .integral = tsr_dtype_is_integral(x->dtype, true),
                     .is_max = is_max};
        rplan P;
        /* one reduced dim: walk it directly per output element */
        reduce_plan(&P, x, mask, keepdim, v);
        relt_ops ops = {ext_begin, ext_step, ext_end, ext_rows[x->dtype]};
        if (reduce_foreach(&P, &ops, &e) < 0) goto fail;
        reduce_plan(&P, x, mask, keepdim, i);
        ops.end = arg_end;
        if (reduce_foreach(&P, &ops, &e) < 0) goto fail;
    }
    *values = v;
    *indices = i;
    return 0;
fail:
    tsr_tensor_release(v);
    tsr_tensor_release(i);
    return -1;
}

tsr_tensor *tsr_argmax(const tsr_tensor *x, const int64_t *dim, bool keepdim, bool is_max, tsr_tensor *out)
{
    const char *fname = is_max ? "argmax" : "argmin";
    tsr_tensor *flat = NULL, *r = NULL;
    uint64_t mask;
    if (tsr_dtype_is_complex(x->dtype) || x->dtype == TSR_BOOL) {
        bool dev = reduce_on_device(x);
        tsr__not_implemented(is_max ? (dev ? "argmax_cuda" : "argmax_cpu") : (dev ? "argmin_cuda" : "argmin_cpu"),
                             x->dtype);
        return NULL;
    }
    if (dim) {
        tsr_dims dd = {.n = 1, .d = {*dim}};
        if (reduce_mask(x, &dd, &mask) < 0) return NULL;
        if (check_nonzero_dims(x, mask, fname) < 0) return NULL;
        flat = tsr_tensor_retain((tsr_tensor *)x);
    } else {
        if (tsr_tensor_numel(x) == 0) {
            tsr_error_set(TSR_ERR_INDEX, "%s(): Expected reduction dim to be specified for input.numel() == 0.", fname);
            return NULL;
        }
        /* x.reshape(-1); keepdim then keeps every dim as size 1 */
        tsr_tensor *c = tsr_contiguous(x, TSR_MF_CONTIGUOUS);
        if (!c) return NULL;
        int64_t n = tsr_tensor_numel(x), st = 1;
        flat = tsr_tensor_alias(c, 1, &n, &st, c->storage_offset);
        tsr_tensor_release(c);
        if (!flat) return NULL;
        mask = 1;
    }
    if (!dim && keepdim) {
        int64_t shape[TSR_MAX_DIMS];
        for (int d = 0; d < x->ndim; d++) shape[d] = 1;
        r = tsr_tensor_empty(x->ndim, shape, TSR_INT64, x->device);
        if (out && r) {
            tsr_tensor_release(r);
            r = reduce_result(x, x->ndim == 64 ? ~0ull : (1ull << x->ndim) - 1, true, TSR_INT64, out);
        }
        if (!r) goto fail;
        tsr_tensor *view = tsr_tensor_alias(r, 0, NULL, NULL, r->storage_offset);
        if (!view) goto fail;
        int rc = run_ext(flat, mask, false, view, is_max, true, is_max ? "aten::argmax" : "aten::argmin");
        tsr_tensor_release(view);
        if (rc < 0) goto fail;
    } else {
        r = reduce_result(flat, mask, dim ? keepdim : false, TSR_INT64, out);
        if (!r) goto fail;
        if (run_ext(flat, mask, dim ? keepdim : false, r, is_max, true, is_max ? "aten::argmax" : "aten::argmin") < 0)
            goto fail;
    }
    tsr_tensor_release(flat);
    return r;
fail:
    tsr_tensor_release(flat);
    tsr_tensor_release(r);
    return NULL;
}

/* all / any: the truth of each element, and-ed / or-ed */
typedef struct { const tsr_dtype_traits *tr; bool is_all, acc; } aa_ctx;
static void aa_begin(void *c) { aa_ctx *a = c; a->acc = a->is_all; }
static void aa_step(void *c, const char *p, int64_t idx)
{
    aa_ctx *a = c;
    (void)idx;
    /* 1.13 casts complex to bool through the real part (Copy.cpp's
     * "Casting complex values to real discards the imaginary part") */
    bool t = creal(a->tr->load_complex(p)) != 0;
    a->acc = a->is_all ? (a->acc && t) : (a->acc || t);
}
static void aa_end_bool(void *c, char *o) { *(bool *)o = ((aa_ctx *)c)->acc; }
static void aa_end_u8(void *c, char *o) { *(uint8_t *)o = ((aa_ctx *)c)->acc; }

tsr_tensor *tsr_all_any(const tsr_tensor *x, const int64_t *dim, bool keepdim, bool is_all, tsr_tensor *out)
{
    tsr_dims dd = {.n = dim ? 1 : -1};
    if (dim) dd.d[0] = *dim;
    uint64_t mask;
    if (reduce_mask(x, &dd, &mask) < 0) return NULL;
    tsr_dtype dt = x->dtype == TSR_UINT8 ? TSR_UINT8 : TSR_BOOL;
    if (out && out->dtype != TSR_BOOL && out->dtype != TSR_UINT8) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s only supports bool tensor for result, got: %s", is_all ? "all" : "any",
                      tsr_dtype_scalar_name(out->dtype));
        return NULL;
    }
    if (out) dt = out->dtype;
    tsr_tensor *r = reduce_result(x, mask, dim ? keepdim : false, dt, out);
    if (!r) return NULL;
    if (is_meta(x)) return r;
    if (tsr_fill_(r, tsr_scalar_bool(is_all)) < 0) goto fail;
    if (tsr_tensor_numel(x) > 0 && reduce_on_device(x)) {
        if (reduce_device(is_all ? TSR_KR_ALL : TSR_KR_ANY, x, mask, dim ? keepdim : false, r, NULL, x->dtype,
                          is_all ? "aten::all" : "aten::any") < 0)
            goto fail;
    } else if (tsr_tensor_numel(x) > 0) {
        aa_ctx a = {.tr = tsr_dtype_traits_of(x->dtype), .is_all = is_all};
        rplan P;
        reduce_plan(&P, x, mask, dim ? keepdim : false, r);
        relt_ops ops = {aa_begin, aa_step, dt == TSR_BOOL ? aa_end_bool : aa_end_u8};
        if (reduce_foreach(&P, &ops, &a) < 0) goto fail;
    }
    return r;
fail:
    tsr_tensor_release(r);
    return NULL;
}

typedef struct { const tsr_dtype_traits *tr; int64_t n; } cn_ctx;
static void cn_begin(void *c) { ((cn_ctx *)c)->n = 0; }
static void cn_step(void *c, const char *p, int64_t idx)
{
    cn_ctx *k = c;
    (void)idx;
    double _Complex v = k->tr->load_complex(p);
    k->n += creal(v) != 0 || cimag(v) != 0;
}
static void cn_end(void *c, char *o) { *(int64_t *)o = ((cn_ctx *)c)->n; }

tsr_tensor *tsr_count_nonzero(const tsr_tensor *x, const tsr_dims *dims)
{
    uint64_t mask;
    if (reduce_mask(x, dims, &mask) < 0) return NULL;
    tsr_tensor *r = reduce_result(x, mask, false, TSR_INT64, NULL);
    if (!r || is_meta(x)) return r;
    if (tsr_zero_(r) < 0) goto fail;
    if (tsr_tensor_numel(x) > 0 && reduce_on_device(x)) {
        if (reduce_device(TSR_KR_COUNT_NZ, x, mask, false, r, NULL, x->dtype, "aten::count_nonzero.dim_IntList") < 0)
            goto fail;
    } else if (tsr_tensor_numel(x) > 0) {
        cn_ctx k = {.tr = tsr_dtype_traits_of(x->dtype)};
        rplan P;
        reduce_plan(&P, x, mask, false, r);
        relt_ops ops = {cn_begin, cn_step, cn_end};
        if (reduce_foreach(&P, &ops, &k) < 0) goto fail;
    }
    return r;
fail:
    tsr_tensor_release(r);
    return NULL;
}

/* ------------------------------------------------- isclose, allclose, equal */

typedef struct { double rtol, atol; bool equal_nan; tsr_dtype dt; } close_ctx;

static int close_loop(char **d, const int64_t *s, int64_t n, const void *ctx)
{
    const close_ctx *cc = ctx;
    for (int64_t i = 0; i < n; i++) {
        tsr_scalar a = tsr_scalar_load(cc->dt, d[1] + i * s[1]);
        tsr_scalar b = tsr_scalar_load(cc->dt, d[2] + i * s[2]);
        double ar, ai, br, bi;
        tsr_scalar_to_complex(a, &ar, &ai);
        tsr_scalar_to_complex(b, &br, &bi);
        bool cplx = tsr_dtype_is_complex(cc->dt), single = !cplx && cc->dt != TSR_FLOAT64;
        bool close = ar == br && ai == bi;
        if (cc->equal_nan && (isnan(ar) || isnan(ai)) && (isnan(br) || isnan(bi))) close = true;
        if (!close && (cc->rtol != 0 || cc->atol != 0)) {
            double err, allowed;
            if (single) {
                float e = fabsf((float)ar - (float)br);
                float al = (float)cc->atol + fabsf((float)cc->rtol * (float)br);
                close = isfinite(e) && e <= al;
            } else {
                err = hypot(ar - br, ai - bi);
                allowed = cc->atol + cc->rtol * hypot(br, bi);
                close = isfinite(err) && err <= allowed;
            }
        }
        *(bool *)(d[0] + i * s[0]) = close;
    }
    return 0;
}

/* self op= b in place: 0 or -1. */
static int compare_into(tsr_cmpop op, tsr_tensor *self, const tsr_tensor *b)
{
    tsr_operand o = tsr_operand_tensor(b);
    tsr_tensor *r = tsr_compare_(op, self, &o);
    tsr_tensor_release(r);
    return r ? 0 : -1;
}

/* isclose on a device, composed of device ops as TensorCompare.cpp's
 * isclose: a == b, or both NaN (equal_nan), or |a - b| finite and at most
 * atol + |rtol * b|, computed in the dtype (integers and bools in the
 * default float dtype). */
static tsr_tensor *isclose_device(const tsr_tensor *a, const tsr_tensor *b, double rtol, double atol, bool equal_nan)
{
    tsr_operand oa = tsr_operand_tensor(a), ob = tsr_operand_tensor(b);
    tsr_tensor *close = tsr_compare(TSR_CMP_EQ, &oa, &ob, NULL), *t[6] = {0};
    if (!close) return NULL;
    if (equal_nan && (tsr_dtype_is_floating(a->dtype) || tsr_dtype_is_complex(a->dtype))) {
        if (!(t[0] = tsr_predicate(TSR_PRED_ISNAN, a, NULL)) || !(t[1] = tsr_predicate(TSR_PRED_ISNAN, b, NULL)))
            goto fail;
        if (compare_into(TSR_CMP_LOGICAL_AND, t[0], t[1]) < 0 || compare_into(TSR_CMP_LOGICAL_OR, close, t[0]) < 0)
            goto fail;
        for (int k = 0; k < 2; k++) {
            tsr_tensor_release(t[k]);
            t[k] = NULL;
        }
    }
    if (rtol == 0 && atol == 0) return close;
    bool real = tsr_dtype_is_floating(a->dtype) || tsr_dtype_is_complex(a->dtype);
    tsr_dtype dt = real ? a->dtype : tsr_default_dtype();
    if (!(t[0] = tsr_to_dtype(a, dt, false)) || !(t[1] = tsr_to_dtype(b, dt, false))) goto fail;
    tsr_operand ca = tsr_operand_tensor(t[0]), cb = tsr_operand_tensor(t[1]);
    tsr_operand r = tsr_operand_scalar(tsr_scalar_float(rtol)), at = tsr_operand_scalar(tsr_scalar_float(atol));
    if (!(t[2] = tsr_binary(TSR_BINOP_MUL, &r, &cb, NULL, NULL)) || !(t[3] = tsr_unary(TSR_UNOP_ABS, t[2], NULL, NULL)))
        goto fail;
    tsr_operand scaled = tsr_operand_tensor(t[3]);
    if (!(t[4] = tsr_binary(TSR_BINOP_ADD, &at, &scaled, NULL, NULL))) goto fail;   /* allowed error */
    tsr_tensor_release(t[2]);
    tsr_tensor_release(t[3]);
    t[2] = t[3] = NULL;
    if (!(t[2] = tsr_binary(TSR_BINOP_SUB, &ca, &cb, NULL, NULL)) || !(t[3] = tsr_unary(TSR_UNOP_ABS, t[2], NULL, NULL)))
        goto fail;
    tsr_operand actual = tsr_operand_tensor(t[3]), allowed = tsr_operand_tensor(t[4]);
    if (!(t[5] = tsr_compare(TSR_CMP_LE, &actual, &allowed, NULL))) goto fail;
    tsr_tensor_release(t[2]);
    if (!(t[2] = tsr_predicate(TSR_PRED_ISFINITE, t[3], NULL))) goto fail;
    if (compare_into(TSR_CMP_LOGICAL_AND, t[5], t[2]) < 0 || compare_into(TSR_CMP_LOGICAL_OR, close, t[5]) < 0)
        goto fail;
    for (int k = 0; k < 6; k++) tsr_tensor_release(t[k]);
    return close;
fail:
    for (int k = 0; k < 6; k++) tsr_tensor_release(t[k]);
    tsr_tensor_release(close);
    return NULL;
}

tsr_tensor *tsr_isclose(const tsr_tensor *a, const tsr_tensor *b, double rtol, double atol, bool equal_nan)
{
    if (a->dtype != b->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s did not match %s", tsr_dtype_scalar_name(a->dtype),
                      tsr_dtype_scalar_name(b->dtype));
        return NULL;
    }
    if (rtol < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "rtol must be greater than or equal to zero, but got %g", rtol);
        return NULL;
    }
    if (atol < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "atol must be greater than or equal to zero, but got %g", atol);
        return NULL;
    }
    if ((a->device.type != TSR_DEV_CPU && a->device.type != TSR_DEV_META) ||
        (b->device.type != TSR_DEV_CPU && b->device.type != TSR_DEV_META))
        return isclose_device(a, b, rtol, atol, equal_nan);
    close_ctx cc = {rtol, atol, equal_nan, a->dtype};
    tsr_operand ops[2] = {tsr_operand_tensor(a), tsr_operand_tensor(b)};
    tsr_iter_config cfg = {.nin = 2, .in_dtype = {a->dtype, a->dtype}, .out_dtype = TSR_BOOL,
                           .check_dtype = TSR_BOOL, .check = TSR_CHECK_NONE};
    return tsr_iter_run(&cfg, ops, NULL, close_loop, &cc);
}

/* 1 when every element of bool t is true (on a device: .all() there and
 * one value read back), 0 when not, -1 on error. */
static int all_true(const tsr_tensor *t)
{
    if (reduce_on_device(t)) {   /* .all().item() on the device: one value read back */
        tsr_tensor *r = tsr_all_any(t, NULL, false, true, NULL);
        int ok = r ? tsr_tensor_get_int64(r, NULL) != 0 : -1;
        tsr_tensor_release(r);
        return ok;
    }
    int64_t n = tsr_tensor_numel(t);
    for (int64_t k = 0; k < n; k++)
        if (!tsr_tensor_get_int64_at(t, k)) return 0;
    return 1;
}

int tsr_allclose(const tsr_tensor *a, const tsr_tensor *b, double rtol, double atol, bool equal_nan)
{
    tsr_tensor *r = tsr_isclose(a, b, rtol, atol, equal_nan);
    if (!r) return -1;
    int ok = all_true(r);
    tsr_tensor_release(r);
    return ok;
}

int tsr_equal(const tsr_tensor *a, const tsr_tensor *b)
{
    if (a->ndim != b->ndim) return 0;
    for (int d = 0; d < a->ndim; d++)
        if (a->sizes[d] != b->sizes[d]) return 0;
    tsr_operand ops[2] = {tsr_operand_tensor(a), tsr_operand_tensor(b)};
    tsr_tensor *r = tsr_compare(TSR_CMP_EQ, &ops[0], &ops[1], NULL);
    if (!r) return -1;
    int ok = all_true(r);
    tsr_tensor_release(r);
    return ok;
}
