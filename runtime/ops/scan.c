/* runtime/ops/scan.c — cumulative ops along a dim as 1.13's ReduceOps.cpp
 * runs them (cpu_cum_base_kernel): each line accumulated in
 * at::acc_type<T, false> (double for float, float for the 16-bit floats,
 * int64 for integers) and rounded into the result at every step (no
 * float16 or bool kernels in 1.13); cummax /
 * cummin take the later of equal values and any NaN; logcumsumexp's line in
 * acc_type too, unrounded between steps. */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "../error.h"
#include "../internal.h"
#include "../iter.h"
#include "copy.h"
#include "scan.h"
#include "scan_dev.h"

/* Every POLL elements a scan looks for Ctrl-C and stops early (run_scan
 * raises it); under an interrupt hold (out=) it runs to the end. */
#define POLL 65536
#define POLL_STEP(left)                                                                           \
    if (--(left) == 0) {                                                                          \
        (left) = POLL;                                                                            \
        if (tsr_interrupt_pending()) return;                                                      \
    }

/* A scan over contiguous (outer, n, inner) lines of T. */
#define CUM_LOOP(name, T, ACC, LD, ST, OP, INIT)                                                  \
    static void name(void *out, const void *in, int64_t outer, int64_t n, int64_t inner)          \
    {                                                                                             \
        T *o = out;                                                                               \
        const T *x = in;                                                                          \
        int64_t left = POLL;                                                                      \
        for (int64_t a = 0; a < outer; a++)                                                       \
            for (int64_t k = 0; k < inner; k++) {                                                 \
                ACC acc = INIT;                                                                   \
                for (int64_t i = 0; i < n; i++) {                                                 \
                    int64_t at = (a * n + i) * inner + k;                                         \
                    acc = OP(acc, (ACC)LD(x[at]));                                                \
                    o[at] = ST(acc);                                                              \
                    POLL_STEP(left)                                                               \
                }                                                                                 \
            }                                                                                     \
    }
#define ID(v) (v)
#define ADD(a, b) ((a) + (b))
#define MUL(a, b) ((a) * (b))
#define UADD(a, b) ((int64_t)((uint64_t)(a) + (uint64_t)(b)))
#define UMUL(a, b) ((int64_t)((uint64_t)(a) * (uint64_t)(b)))
#define ST_I(T) (T)
#define STB(v) tsr_float_to_bfloat16(v)
#define STF(v) ((float)(v))
#define STC(v) ((float _Complex)(v))

#define CUM_FAMILY(op, IOP, FOP, init)                                                                        \
    CUM_LOOP(op##_u8, uint8_t, int64_t, ID, (uint8_t), IOP, init)                                                  \
    CUM_LOOP(op##_i8, int8_t, int64_t, ID, (int8_t), IOP, init)                                                    \
    CUM_LOOP(op##_i16, int16_t, int64_t, ID, (int16_t), IOP, init)                                                 \
    CUM_LOOP(op##_i32, int32_t, int64_t, ID, (int32_t), IOP, init)                                                 \
    CUM_LOOP(op##_i64, int64_t, int64_t, ID, (int64_t), IOP, init)                                                 \
    CUM_LOOP(op##_bf16, tsr_bfloat16, float, tsr_bfloat16_to_float, STB, FOP, init)                                \
    CUM_LOOP(op##_f32, float, double, ID, STF, FOP, init)                                                          \
    CUM_LOOP(op##_f64, double, double, ID, (double), FOP, init)                                                    \
    CUM_LOOP(op##_c64, float _Complex, double _Complex, ID, STC, FOP, init)                                        \
    CUM_LOOP(op##_c128, double _Complex, double _Complex, ID, (double _Complex), FOP, init)                        \
    static void (*const op##_loops[TSR_DTYPE_SLOTS])(void *, const void *, int64_t, int64_t, int64_t) = {          \
        [TSR_UINT8] = op##_u8, [TSR_INT8] = op##_i8, [TSR_INT16] = op##_i16, [TSR_INT32] = op##_i32,              \
        [TSR_INT64] = op##_i64, [TSR_BFLOAT16] = op##_bf16,                                                       \
        [TSR_FLOAT32] = op##_f32, [TSR_FLOAT64] = op##_f64, [TSR_COMPLEX64] = op##_c64,                            \
        [TSR_COMPLEX128] = op##_c128,                                                                              \
    };
CUM_FAMILY(cumsum, UADD, ADD, 0)
CUM_FAMILY(cumprod, UMUL, MUL, 1)

/* logcumsumexp's log_add_exp, in T */
#define LAE(T, EXP, LOG1P)                                                                 \
    static T lae_##T(T x, T y)                                                             \
    {                                                                                      \
        T mn = isnan(y) ? y : (y < x ? y : x);   /* std::min(x, y) */                      \
        T mx = isnan(y) ? y : (x < y ? y : x);   /* std::max(x, y) */                      \
        if (mn != mx || isfinite(mn)) return LOG1P(EXP(mn - mx)) + mx;                     \
        return x;                                                                          \
    }
LAE(float, expf, log1pf)
LAE(double, exp, log1p)
/* the line accumulated in acc_type<T, false> (double for float, float for
 * bfloat16) without rounding between steps, each result rounded to T */
#define LCSE(name, T, ACC, LD, ST)                                                                \
    static void name(void *out, const void *in, int64_t outer, int64_t n, int64_t inner)          \
    {                                                                                             \
        T *o = out;                                                                               \
        const T *x = in;                                                                          \
        int64_t left = POLL;                                                                      \
        for (int64_t a = 0; a < outer; a++)                                                       \
            for (int64_t k = 0; k < inner; k++) {                                                 \
                ACC acc = -INFINITY;                                                              \
                for (int64_t i = 0; i < n; i++) {                                                 \
                    int64_t at = (a * n + i) * inner + k;                                         \
                    acc = lae_##ACC((ACC)LD(x[at]), acc);                                         \
                    o[at] = ST(acc);                                                              \
                    POLL_STEP(left)                                                               \
                }                                                                                 \
            }                                                                                     \
    }
LCSE(lcse_f32, float, double, ID, (float))
LCSE(lcse_f64, double, double, ID, (double))
LCSE(lcse_bf16, tsr_bfloat16, float, tsr_bfloat16_to_float, tsr_float_to_bfloat16)
static void (*const lcse_loops[TSR_DTYPE_SLOTS])(void *, const void *, int64_t, int64_t, int64_t) = {
    [TSR_FLOAT32] = lcse_f32, [TSR_FLOAT64] = lcse_f64, [TSR_BFLOAT16] = lcse_bf16,
};

static int wrap_dim(const tsr_tensor *x, int64_t *dim)
{
    int nd = x->ndim ? x->ndim : 1;
    if (*dim < -nd || *dim >= nd) {
        tsr_error_set(TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %lld)",
                      -nd, nd - 1, (long long)*dim);
        return -1;
    }
    if (*dim < 0) *dim += nd;
    return 0;
}

/* out= resized to x's shape (1.13's resize_output warning left pending). */
static tsr_tensor *result_like(const tsr_tensor *x, tsr_dtype dt, tsr_tensor *out)
{
    if (!out) return tsr_tensor_empty(x->ndim, x->sizes, dt, x->device);
    if (tsr_resize_output(out, x->ndim, x->sizes) < 0) return NULL;
    return tsr_tensor_retain(out);
}

typedef void (*scan_fn)(void *, const void *, int64_t, int64_t, int64_t);

/* Runs fn on x cast to r's dtype, into r (via a contiguous buffer when r
 * is not contiguous). An out= target (held) is written whole or not at all:
 * the scan runs under an interrupt hold. 0 or -1. */
static int run_scan(const tsr_tensor *x, int64_t dim, tsr_tensor *r, scan_fn fn, bool held)
{
    tsr_tensor *in = NULL, *c = NULL, *buf = NULL;
    int rc = -1;
    bool hold = false;
    in = tsr_to_dtype(x, r->dtype, false);
    c = in ? tsr_contiguous(in, TSR_MF_CONTIGUOUS) : NULL;
    if (!c) goto done;
    bool direct = tsr_tensor_is_contiguous(r);
    buf = direct ? tsr_tensor_retain(r) : tsr_tensor_empty(x->ndim, x->sizes, r->dtype, r->device);
    if (!buf) goto done;
    int64_t outer = 1, inner = 1, n = x->ndim ? x->sizes[dim] : 1;
    for (int d = 0; d < (int)dim; d++) outer *= x->sizes[d];
    for (int d = (int)dim + 1; d < x->ndim; d++) inner *= x->sizes[d];
    if (held && direct) {
        if (tsr_interrupt_hold() < 0) goto done;
        hold = true;
    }
    fn(tsr_tensor_ptr(buf, NULL), tsr_tensor_ptr(c, NULL), outer, n, inner);
    if (!hold && tsr_check_interrupt() < 0) goto done;
    rc = direct ? 0 : tsr_copy_(r, buf);
done:
    if (hold) tsr_interrupt_unhold();
    tsr_tensor_release(in);
    tsr_tensor_release(c);
    tsr_tensor_release(buf);
    return rc;
}

/* The device form of run_scan: op (TSR_KS_*) of x cast to r's dtype,
 * into r (through a contiguous buffer on x's device when r is not
 * contiguous or not on x's device; ri likewise for the indices). An
 * unsupported dtype is the CUDA kernel's "not implemented" (kname). */
static int run_scan_device(int op, const tsr_tensor *x, int64_t dim, tsr_tensor *r, tsr_tensor *ri, const char *kname,
                           const char *aten)
{
    const tsr_backend *be = tsr_device_backend(x->device);
    if (!be) return -1;
    if (be->has_scan && !be->has_scan(op, (int)r->dtype)) return tsr__not_implemented(kname, r->dtype);
    bool direct = tsr_device_equal(r->device, x->device) && tsr_tensor_is_contiguous(r) &&
                  (!ri || (tsr_device_equal(ri->device, x->device) && tsr_tensor_is_contiguous(ri)));
    tsr_tensor *v = direct ? tsr_tensor_retain(r) : tsr_tensor_empty(x->ndim, x->sizes, r->dtype, x->device);
    tsr_tensor *i = !ri ? NULL : direct ? tsr_tensor_retain(ri) : tsr_tensor_empty(x->ndim, x->sizes, TSR_INT64, x->device);
    int rc = -1;
    if (v && (!ri || i) && scan_device(op, x, dim, r->dtype, v, i, 0, false, aten) == 0)
        rc = direct ? 0 : tsr_copy_(r, v) < 0 || (ri && tsr_copy_(ri, i) < 0) ? -1 : 0;
    tsr_tensor_release(v);
    tsr_tensor_release(i);
    return rc;
}

tsr_tensor *tsr_cumsum(const tsr_tensor *x, int64_t dim, tsr_dtype dtype, bool prod, tsr_tensor *out)
{
    if (wrap_dim(x, &dim) < 0) return NULL;
    tsr_dtype dt = dtype != TSR_DTYPE_UNDEFINED ? dtype : out ? out->dtype
                 : tsr_dtype_is_integral(x->dtype, true) ? TSR_INT64 : x->dtype;
    if (out && (scan_on_device(x) || scan_on_device(out)) && !tsr_device_equal(out->device, x->device)) {
        char a[32], b[32];   /* the structured kernel's set_output check */
        tsr_error_set(TSR_ERR_RUNTIME, "Expected out tensor to have device %s, but got %s instead",
                      tsr_device_str(x->device, a, sizeof a), tsr_device_str(out->device, b, sizeof b));
        return NULL;
    }
    tsr_tensor *r = result_like(x, dt, out);
    if (!r || tsr_tensor_is_meta(x)) return r;
    int rc;
    if (x->ndim == 0) {
        rc = tsr_copy_(r, x);
    } else if (tsr_tensor_numel(x) == 0) {
        rc = tsr_zero_(r);
    } else if (scan_on_device(x)) {
        rc = run_scan_device(prod ? TSR_KS_CUMPROD : TSR_KS_CUMSUM, x, dim, r, NULL, prod ? "cumprod_cuda" : "cumsum_cuda",
                             prod ? "aten::cumprod.out" : "aten::cumsum.out");
    } else {
        scan_fn fn = (prod ? cumprod_loops : cumsum_loops)[dt];
        rc = fn ? run_scan(x, dim, r, fn, out != NULL) : tsr__not_implemented(prod ? "cumprod_out_cpu" : "cumsum_out_cpu", dt);
    }
    if (rc < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

tsr_tensor *tsr_logcumsumexp(const tsr_tensor *x, int64_t dim, tsr_tensor *out)
{
    if (wrap_dim(x, &dim) < 0) return NULL;
    tsr_tensor *r = result_like(x, out ? out->dtype : x->dtype, out);
    if (!r || tsr_tensor_is_meta(x)) return r;
    int rc;
    if (x->ndim == 0) {
        rc = tsr_copy_(r, x);
    } else if (tsr_tensor_numel(x) == 0) {
        rc = 0;
    } else if (scan_on_device(x)) {
        rc = run_scan_device(TSR_KS_LOGCUMSUMEXP, x, dim, r, NULL, "logcumsumexp_cuda", "aten::_logcumsumexp");
    } else {
        scan_fn fn = lcse_loops[x->dtype];
        rc = fn ? run_scan(x, dim, r, fn, out != NULL) : tsr__not_implemented("logcumsumexp_out_cpu", x->dtype);
    }
    if (rc < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

/* cummax / cummin: values and indices over a contiguous copy, compared in
 * double (floats) or int64. */
int tsr_cummax(const tsr_tensor *x, int64_t dim, bool is_max, tsr_tensor *ov, tsr_tensor *oi, tsr_tensor **values,
               tsr_tensor **indices)
{
    tsr_tensor *v = NULL, *i = NULL, *c = NULL;
    bool hold = false;
    if (wrap_dim(x, &dim) < 0) return -1;
    bool dev = scan_on_device(x);
    if (tsr_dtype_is_complex(x->dtype) || (x->dtype == TSR_FLOAT16 && !dev)) {
        tsr__not_implemented(is_max ? (dev ? "cummax_cuda" : "cummax_cpu") : (dev ? "cummin_cuda" : "cummin_cpu"),
                             x->dtype);
        return -1;
    }
    v = result_like(x, x->dtype, ov);
    i = v ? result_like(x, TSR_INT64, oi) : NULL;
    if (!i) goto fail;
    if (dev && tsr_tensor_numel(x) > 0) {
        /* 1.13's cummax_helper_cuda: its scan kernel runs on a 0-dim input too */
        if (run_scan_device(is_max ? TSR_KS_CUMMAX : TSR_KS_CUMMIN, x, dim, v, i, is_max ? "cummax_cuda" : "cummin_cuda",
                            is_max ? "aten::_cummax_helper" : "aten::_cummin_helper") < 0) goto fail;
    } else if (!tsr_tensor_is_meta(x) && tsr_tensor_numel(x) > 0) {
        c = tsr_contiguous(x, TSR_MF_CONTIGUOUS);
        if (!c) goto fail;
        const tsr_dtype_traits *tr = tsr_dtype_traits_of(x->dtype);
        bool fl = tsr_dtype_is_floating(x->dtype);
        int64_t outer = 1, inner = 1, n = x->ndim ? x->sizes[dim] : 1;
        for (int d = 0; d < (int)dim; d++) outer *= x->sizes[d];
        for (int d = (int)dim + 1; d < x->ndim; d++) inner *= x->sizes[d];
        const char *base = tsr_tensor_ptr(c, NULL);
        if (ov || oi) {   /* out= targets: written whole or not at all */
            if (tsr_interrupt_hold() < 0) goto fail;
            hold = true;
        }
        int64_t left = POLL;
        for (int64_t a = 0; a < outer; a++)
            for (int64_t k = 0; k < inner; k++) {
                int64_t idx = 0, lin0 = a * n * inner + k;
                double od = fl ? tr->load_double(base + lin0 * tr->itemsize) : 0;
                int64_t oi64 = fl ? 0 : tr->load_int64(base + lin0 * tr->itemsize);
                for (int64_t j = 0; j < n; j++) {
                    int64_t lin = (a * n + j) * inner + k;
                    const char *p = base + lin * tr->itemsize;
                    if (fl) {
                        double cur = tr->load_double(p);
                        if (isnan(cur) || (!isnan(od) && (is_max ? cur >= od : cur <= od))) od = cur, idx = j;
                        if (tsr_tensor_set_at(v, lin, tsr_scalar_float(od)) < 0) goto fail;
                    } else {
                        int64_t cur = tr->load_int64(p);
                        if (is_max ? cur >= oi64 : cur <= oi64) oi64 = cur, idx = j;
                        if (tsr_tensor_set_at(v, lin, x->dtype == TSR_BOOL ? tsr_scalar_bool(oi64 != 0)
                                                                            : tsr_scalar_int(oi64)) < 0) goto fail;
                    }
                    if (tsr_tensor_set_at(i, lin, tsr_scalar_int(idx)) < 0) goto fail;
                    if (--left == 0) {
                        left = POLL;
                        if (tsr_check_interrupt() < 0) goto fail;
                    }
                }
            }
    }
    if (hold) tsr_interrupt_unhold();
    tsr_tensor_release(c);
    *values = v;
    *indices = i;
    return 0;
fail:
    if (hold) tsr_interrupt_unhold();
    tsr_tensor_release(c);
    tsr_tensor_release(v);
    tsr_tensor_release(i);
    return -1;
}
