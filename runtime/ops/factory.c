/* runtime/ops/factory.c — factories. arange/linspace reproduce 1.13's CPU
 * kernels (aten/src/ATen/native/cpu/RangeFactoriesKernel.cpp) value for value:
 * the vectorised loop computes a chunk base then base + k*step, the tail is
 * scalar; arithmetic happens in the kernel's types (float for float32
 * linspace, double accumulation for float32 arange, per-op rounding for
 * float16/bfloat16). Splitting across threads (sizes > 32768) is not modelled. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "../error.h"
#include "../internal.h"
#include "../iter.h"
#include "../promote.h"
#include "../view.h"
#include "copy.h"
#include "factory.h"

/* c10::Layout as operator<< prints it. ORDER tsr_layout */
static const char *const layout_words[TSR_LAYOUT_COUNT] = {"Strided", "Sparse", "SparseCsr", "SparseCsc",
                                                           "SparseBsr", "SparseBsc", "Mkldnn"};

int tsr_check_out_options(const tsr_tensor *out, const tsr_dtype *dtype, const tsr_layout *layout,
                          const tsr_device *device)
{
    if (dtype && *dtype != out->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "dtype %s does not match dtype of out parameter (%s)",
                      tsr_dtype_scalar_name(*dtype), tsr_dtype_scalar_name(out->dtype));
        return -1;
    }
    if (layout && *layout != out->layout) {
        tsr_error_set(TSR_ERR_RUNTIME, "layout %s does not match layout of out parameter (%s)",
                      layout_words[*layout], layout_words[out->layout]);
        return -1;
    }
    if (device && device->type != out->device.type) {
        tsr_error_set(TSR_ERR_RUNTIME, "device type %s does not match device type of out parameter (%s)",
                      tsr_device_type_name(device->type), tsr_device_type_name(out->device.type));
        return -1;
    }
    return 0;
}

int tsr_factory_out(tsr_tensor *out, const tsr_tensor *r, bool keep_numel)
{
    bool same = out->ndim == r->ndim && !memcmp(out->sizes, r->sizes, sizeof(int64_t) * (size_t)r->ndim);
    if (same) return tsr_copy_(out, r);
    if (keep_numel && tsr_tensor_numel(out) == tsr_tensor_numel(r)) {
        /* r is a new contiguous tensor: any shape of as many elements views it */
        tsr_tensor *v = tsr_view_view(r, out->ndim, out->sizes);
        if (!v) return -1;
        int rc = tsr_copy_(out, v);
        tsr_tensor_release(v);
        return rc;
    }
    if (tsr_tensor_resize_(out, r->ndim, r->sizes) < 0) return -1;
    return tsr_copy_(out, r);
}

tsr_tensor *tsr_empty(int ndim, const int64_t *sizes, tsr_dtype dtype, tsr_device device, tsr_memory_format mf)
{
    return tsr_tensor_empty_format(ndim, sizes, dtype, device, mf);
}

tsr_tensor *tsr_full(int ndim, const int64_t *sizes, tsr_scalar v, tsr_dtype dtype, tsr_device device)
{
    tsr_tensor *t = tsr_tensor_empty(ndim, sizes, dtype, device);
    if (t && tsr_fill_(t, v) < 0) {
        tsr_tensor_release(t);
        return NULL;
    }
    return t;
}

tsr_dtype tsr_full_dtype(tsr_scalar v, tsr_device device)
{
    /* 1.13 infers full()'s dtype in the CPU/CUDA kernels only: meta gets the default */
    if (device.type == TSR_DEV_META) return tsr_default_dtype();
    switch (v.kind) {
    case TSR_SCALAR_BOOL: return TSR_BOOL;
    case TSR_SCALAR_INT: return TSR_INT64;
    case TSR_SCALAR_FLOAT: return tsr_default_dtype();
    case TSR_SCALAR_COMPLEX:   /* 1.13's full() gives complex64 when the default is float16 */
        return tsr_default_dtype() == TSR_FLOAT16 ? TSR_COMPLEX64 : tsr_dtype_to_complex(tsr_default_dtype());
    }
    return tsr_default_dtype();
}

tsr_tensor *tsr_zeros(int ndim, const int64_t *sizes, tsr_dtype dtype, tsr_device device)
{
    return tsr_full(ndim, sizes, tsr_scalar_int(0), dtype, device);
}

tsr_tensor *tsr_ones(int ndim, const int64_t *sizes, tsr_dtype dtype, tsr_device device)
{
    return tsr_full(ndim, sizes, tsr_scalar_int(1), dtype, device);
}

/* Every 65536 elements a fill loop gives up on Ctrl-C (releasing t). */
#define POLL_OR_FAIL(i, t)                                                \
    do {                                                                  \
        if (((i) & 0xffff) == 0xffff && tsr_check_interrupt() < 0) {     \
            tsr_tensor_release(t);                                        \
            return NULL;                                                  \
        }                                                                 \
    } while (0)

/* Vector width (elements) of AVX2 Vectorized<T> for each dtype. */
static int vec_width(tsr_dtype d)
{
    int sz = tsr_dtype_itemsize(d);
    return sz ? 32 / sz : 1;
}

/* Rounds x to dtype d's values (as a double). Integers truncate as casts do. */
static double round_to(tsr_dtype d, double x)
{
    unsigned char buf[16];
    tsr_scalar_store(d, buf, tsr_scalar_float(x));
    return tsr_scalar_to_double(tsr_scalar_load(d, buf));
}

/* A scalar converted to dtype d (Scalar::to<scalar_t>), as a double. */
static double round_scalar(tsr_dtype d, tsr_scalar s)
{
    unsigned char buf[16];
    tsr_scalar_store(d, buf, s);
    return tsr_scalar_to_double(tsr_scalar_load(d, buf));
}

static bool low_precision(tsr_dtype d) { return d == TSR_FLOAT16 || d == TSR_BFLOAT16; }

/* acc_type<T, false> arithmetic: float for half/bfloat16, double otherwise. */
static double acc(tsr_dtype d, double x) { return low_precision(d) ? (double)(float)x : x; }

static void store_d(tsr_tensor *t, int64_t i, double v)
{
    tsr_scalar_store(t->dtype, (char *)tsr_tensor_ptr(t, NULL) + i * tsr_tensor_itemsize(t), tsr_scalar_float(v));
}

static void store_i(tsr_tensor *t, int64_t i, int64_t v)
{
    tsr_scalar_store(t->dtype, (char *)tsr_tensor_ptr(t, NULL) + i * tsr_tensor_itemsize(t), tsr_scalar_int(v));
}

static int range_error_fmt(char *buf, size_t n, tsr_scalar s, bool integral)
{
    if (integral) return snprintf(buf, n, "%lld", (long long)tsr_scalar_to_int64(s));
    return snprintf(buf, n, "%g", tsr_scalar_to_double(s));
}

int tsr_arange_numel(tsr_scalar start, tsr_scalar end, tsr_scalar step, tsr_dtype dtype, int64_t *out)
{
    bool integral = tsr_dtype_is_integral(dtype, false);
    if (dtype == TSR_BOOL || tsr_dtype_is_complex(dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"arange_cpu\" not implemented for '%s'", tsr_dtype_scalar_name(dtype));
        return -1;
    }
    double size_d;
    if (integral) {
        int64_t a = tsr_scalar_to_int64(start), b = tsr_scalar_to_int64(end), s = tsr_scalar_to_int64(step);
        if (s == 0) { tsr_error_set(TSR_ERR_RUNTIME, "step must be nonzero"); return -1; }
        if (!((s > 0 && b >= a) || (s < 0 && b <= a))) {
            tsr_error_set(TSR_ERR_RUNTIME, "upper bound and larger bound inconsistent with step sign");
            return -1;
        }
        if (dtype == TSR_INT64) {
            /* RangeFactories.cpp divides in int64 here: (end - start + step - sgn) / step
             * (the sum wraps as the C++ does) */
            int64_t sgn = (s > 0) - (s < 0);
            int64_t num = (int64_t)((uint64_t)b - (uint64_t)a + (uint64_t)s - (uint64_t)sgn);
            size_d = num == INT64_MIN && s == -1 ? 9223372036854775808.0 : (double)(num / s);
        }
        else size_d = ceil((tsr_scalar_to_double(end) - tsr_scalar_to_double(start)) / tsr_scalar_to_double(step));
    } else {
        double a = acc(dtype, tsr_scalar_to_double(start)), b = acc(dtype, tsr_scalar_to_double(end));
        double s = acc(dtype, tsr_scalar_to_double(step));
        if (!(s > 0 || s < 0)) { tsr_error_set(TSR_ERR_RUNTIME, "step must be nonzero"); return -1; }
        if (!isfinite(a) || !isfinite(b)) {
            char x[64], y[64];
            range_error_fmt(x, sizeof x, tsr_scalar_float(a), false);
            range_error_fmt(y, sizeof y, tsr_scalar_float(b), false);
            tsr_error_set(TSR_ERR_RUNTIME, "unsupported range: %s -> %s", x, y);
            return -1;
        }
        if (!((s > 0 && b >= a) || (s < 0 && b <= a))) {
            tsr_error_set(TSR_ERR_RUNTIME, "upper bound and larger bound inconsistent with step sign");
            return -1;
        }
        size_d = ceil((tsr_scalar_to_double(end) - tsr_scalar_to_double(start)) / tsr_scalar_to_double(step));
    }
    if (!(size_d >= 0 && size_d <= 9223372036854775807.0)) {
        tsr_error_set(TSR_ERR_RUNTIME, "invalid size, possible overflow?");
        return -1;
    }
    *out = (int64_t)size_d;
    return 0;
}

/* Factories that write their values element by element do so on the host;
 * for a device the host cannot write (cuda) the result is made there and
 * moved, which gives the device the same values. */
static bool external(tsr_device d) { return d.type != TSR_DEV_CPU && d.type != TSR_DEV_META; }
static tsr_tensor *moved(tsr_tensor *h, tsr_device d)
{
    if (!h) return NULL;
    tsr_tensor *r = tsr_to_device(h, d, h->dtype, false);
    tsr_tensor_release(h);
    return r;
}

tsr_tensor *tsr_range(tsr_scalar start, tsr_scalar end, tsr_scalar step, tsr_dtype dtype, tsr_device device)
{
    if (external(device)) return moved(tsr_range(start, end, step, dtype, TSR_CPU), device);
    const tsr_scalar *sv[3] = {&start, &end, &step};
    for (int i = 0; i < 3; i++)
        if (sv[i]->kind == TSR_SCALAR_COMPLEX) {
            tsr_error_set(TSR_ERR_RUNTIME, "value cannot be converted to type double without overflow");
            return NULL;
        }
    if (dtype == TSR_DTYPE_UNDEFINED) dtype = tsr_default_dtype();
    /* range_out dispatches AT_DISPATCH_ALL_TYPES_AND(BFloat16) */
    if (dtype == TSR_FLOAT16 || dtype == TSR_BOOL || tsr_dtype_is_complex(dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"range_cpu\" not implemented for '%s'", tsr_dtype_scalar_name(dtype));
        return NULL;
    }
    bool integral = tsr_dtype_is_integral(dtype, false);
    int64_t n;
    double a = acc(dtype, tsr_scalar_to_double(start)), b = acc(dtype, tsr_scalar_to_double(end));
    double s = acc(dtype, tsr_scalar_to_double(step));
    int64_t ia = tsr_scalar_to_int64(start), ib = tsr_scalar_to_int64(end), is = tsr_scalar_to_int64(step);
    if (integral ? is == 0 : !(s > 0 || s < 0)) { tsr_error_set(TSR_ERR_RUNTIME, "step must be nonzero"); return NULL; }
    if (!integral && (!isfinite(a) || !isfinite(b))) {
        char x[64], y[64];
        range_error_fmt(x, sizeof x, tsr_scalar_float(a), false);
        range_error_fmt(y, sizeof y, tsr_scalar_float(b), false);
        tsr_error_set(TSR_ERR_RUNTIME, "unsupported range: %s -> %s", x, y);
        return NULL;
    }
    if (integral ? !((is > 0 && ib >= ia) || (is < 0 && ib <= ia)) : !((s > 0 && b >= a) || (s < 0 && b <= a))) {
        tsr_error_set(TSR_ERR_RUNTIME, "upper bound and lower bound inconsistent with step sign");
        return NULL;
    }
    if (integral) n = (ib - ia) / is + 1;
    else n = low_precision(dtype) ? (int64_t)(((float)b - (float)a) / (float)s + 1) : (int64_t)((b - a) / s + 1);
    tsr_tensor *t = tsr_tensor_empty(1, &n, dtype, device);
    if (!t || tsr_tensor_is_meta(t)) return t;
    for (int64_t i = 0; i < n; i++) {
        /* data[i] = xstart + is * xstep in accscalar_t (RangeFactories.cpp range_out) */
        if (integral) store_i(t, i, ia + i * is);
        else if (low_precision(dtype)) store_d(t, i, (float)a + (float)i * (float)s);
        else store_d(t, i, a + (double)i * s);
    }
    return t;
}

tsr_tensor *tsr_arange(tsr_scalar start, tsr_scalar end, tsr_scalar step, tsr_dtype dtype, tsr_device device)
{
    if (external(device)) return moved(tsr_arange(start, end, step, dtype, TSR_CPU), device);
    tsr_scalar *sv[3] = {&start, &end, &step};
    bool all_int = true;
    for (int i = 0; i < 3; i++) {
        /* the Scalars are read as double (c10::checked_convert) before the dtype is known */
        if (sv[i]->kind == TSR_SCALAR_COMPLEX) {
            tsr_error_set(TSR_ERR_RUNTIME, "value cannot be converted to type double without overflow");
            return NULL;
        }
        if (sv[i]->kind == TSR_SCALAR_BOOL) *sv[i] = tsr_scalar_int(sv[i]->i);
        all_int = all_int && sv[i]->kind == TSR_SCALAR_INT;
    }
    if (dtype == TSR_DTYPE_UNDEFINED) dtype = all_int ? TSR_INT64 : tsr_default_dtype();
    int64_t n;
    if (tsr_arange_numel(start, end, step, dtype, &n) < 0) return NULL;
    tsr_tensor *t = tsr_tensor_empty(1, &n, dtype, device);
    if (!t || tsr_tensor_is_meta(t)) return t;
    int64_t V = vec_width(dtype), vec_end = n / (2 * V) * (2 * V);
    if (tsr_dtype_is_integral(dtype, false)) {
        int64_t a = tsr_scalar_to_int64(start), s = tsr_scalar_to_int64(step);
        for (int64_t i = 0; i < n; i++) {
            store_i(t, i, (int64_t)((uint64_t)a + (uint64_t)s * (uint64_t)i));
            POLL_OR_FAIL(i, t);
        }
        return t;
    }
    double a = acc(dtype, tsr_scalar_to_double(start)), s = acc(dtype, tsr_scalar_to_double(step));
    bool lp = low_precision(dtype);
    for (int64_t i = 0; i < n; i++) {
        /* accscalar_t arithmetic with FMA contraction (AVX2 kernel build) */
        double v;
        if (i < vec_end) {
            int64_t b = i / V * V, k = i - b;
            double base = round_to(dtype, lp ? fmaf((float)s, (float)b, (float)a) : fma(s, (double)b, a));
            if (lp) {
                volatile float p = (float)k * (float)s;   /* Vectorized<Half>::arange: not fused */
                v = (float)base + p;
            } else {
                v = fma((double)k, s, base);
            }
        } else {
            v = lp ? fmaf((float)s, (float)i, (float)a) : fma(s, (double)i, a);
        }
        store_d(t, i, v);
        POLL_OR_FAIL(i, t);
    }
    return t;
}

int tsr_space_dtype(tsr_scalar start, tsr_scalar end, int64_t steps, tsr_dtype dtype, const char *fn, tsr_dtype *out)
{
    if (steps < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "number of steps must be non-negative");
        return -1;
    }
    if (start.kind == TSR_SCALAR_COMPLEX || end.kind == TSR_SCALAR_COMPLEX) {
        tsr_dtype dc = tsr_default_complex_dtype();
        if (dtype != TSR_DTYPE_UNDEFINED && !tsr_dtype_is_complex(dtype)) {
            tsr_error_set(TSR_ERR_RUNTIME, "%s: inferred dtype %s can't be safely cast to passed dtype %s", fn,
                          tsr_dtype_typemeta_name(dc), tsr_dtype_scalar_name(dtype));
            return -1;
        }
        *out = dtype != TSR_DTYPE_UNDEFINED ? dtype : dc;
        return 0;
    }
    *out = dtype != TSR_DTYPE_UNDEFINED ? dtype : tsr_default_dtype();
    return 0;
}

/* start.to<scalar_t>() and end.to<scalar_t>() of the kernels (checked). */
static int endpoints_fit(tsr_scalar start, tsr_scalar end, tsr_dtype dtype)
{
    return tsr_scalar_check_fits(start, dtype) < 0 || tsr_scalar_check_fits(end, dtype) < 0 ? -1 : 0;
}

/* T-typed arithmetic for linspace (step_t = scalar_t for floating types). */
static double tt(tsr_dtype d, double x) { return round_to(d, x); }

tsr_tensor *tsr_linspace(tsr_scalar start, tsr_scalar end, int64_t steps, tsr_dtype dtype, tsr_device device)
{
    if (external(device)) return moved(tsr_linspace(start, end, steps, dtype, TSR_CPU), device);
    if (steps < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "number of steps must be non-negative");
        return NULL;
    }
    if (dtype == TSR_BOOL) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"linspace_cpu\" not implemented for 'Bool'");
        return NULL;
    }
    tsr_tensor *t = tsr_tensor_empty(1, &steps, dtype, device);
    if (!t || tsr_tensor_is_meta(t) || steps == 0) return t;
    if (steps == 1) {
        if (tsr_fill_(t, start) < 0) { tsr_tensor_release(t); return NULL; }
        return t;
    }
    if (endpoints_fit(start, end, dtype) < 0) { tsr_tensor_release(t); return NULL; }
    if (tsr_dtype_is_complex(dtype)) {
        /* complex: real and imaginary parts follow the double path (not bit-checked) */
        double ar, ai, br, bi;
        tsr_scalar_to_complex(start, &ar, &ai);
        tsr_scalar_to_complex(end, &br, &bi);
        int64_t half = steps / 2;
        double sr = (br - ar) / (double)(steps - 1), si = (bi - ai) / (double)(steps - 1);
        for (int64_t i = 0; i < steps; i++) {
            double re = i < half ? ar + sr * (double)i : br - sr * (double)(steps - i - 1);
            double im = i < half ? ai + si * (double)i : bi - si * (double)(steps - i - 1);
            tsr_scalar_store(dtype, (char *)tsr_tensor_ptr(t, NULL) + i * tsr_tensor_itemsize(t),
                             tsr_scalar_complex(re, im));
            POLL_OR_FAIL(i, t);
        }
        return t;
    }
    int64_t half = steps / 2, V = vec_width(dtype), vec_end = steps / (2 * V) * (2 * V);
    if (tsr_dtype_is_integral(dtype, false)) {
        /* start/end cast to scalar_t; step_t = double */
        double a = round_scalar(dtype, start), b = round_scalar(dtype, end);
        double s = (b - a) / (double)(steps - 1);
        for (int64_t i = 0; i < steps; i++) {
            double v;
            int64_t j = i < vec_end ? i / V * V : i;
            double base = j < half ? fma(s, (double)j, a) : fma(-s, (double)(steps - j - 1), b);
            if (i < vec_end) v = round_to(dtype, base) + (double)(i - j) * s;
            else v = base;
            store_d(t, i, v);
            POLL_OR_FAIL(i, t);
        }
        return t;
    }
    double a = tt(dtype, tsr_scalar_to_double(start)), b = tt(dtype, tsr_scalar_to_double(end));
    double s = tt(dtype, tt(dtype, b - a) / tt(dtype, (double)(steps - 1)));
    if (!low_precision(dtype)) {
        /* the AVX2 kernel is compiled with FMA contraction: start + step*idx is one fma */
        bool f32 = dtype == TSR_FLOAT32;
        for (int64_t i = 0; i < steps; i++) {
            int64_t j = i < vec_end ? i / V * V : i;
            double base = j < half ? (f32 ? fmaf((float)s, (float)j, (float)a) : fma(s, (double)j, a))
                                   : (f32 ? fmaf(-(float)s, (float)(steps - j - 1), (float)b)
                                          : fma(-s, (double)(steps - j - 1), b));
            double v = base;
            /* Vectorized<T>::arange(base, step) = base + k*step, not fused */
            if (i < vec_end) {
                volatile float pf = (float)(i - j) * (float)s;
                volatile double pd = (double)(i - j) * s;
                v = f32 ? (double)((float)base + pf) : base + pd;
            }
            store_d(t, i, v);
            POLL_OR_FAIL(i, t);
        }
        return t;
    }
    for (int64_t i = 0; i < steps; i++) {
        int64_t j = i < vec_end ? i / V * V : i;
        double base = j < half ? tt(dtype, a + tt(dtype, s * tt(dtype, (double)j)))
                               : tt(dtype, b - tt(dtype, s * tt(dtype, (double)(steps - j - 1))));
        double v = i < vec_end ? tt(dtype, base + tt(dtype, tt(dtype, (double)(i - j)) * s)) : base;
        store_d(t, i, v);
        POLL_OR_FAIL(i, t);
    }
    return t;
}

/* logspace_out's complex branch: start, end and step in scalar_t
 * (c10::complex<float> for complex64, its operator/ dividing by c*c + d*d),
 * then pow(base, exponent) in scalar_t: glibc's cpowf/cpow at run time. */
static tsr_tensor *logspace_complex(tsr_tensor *t, tsr_scalar start, tsr_scalar end, int64_t steps, double base)
{
    double ar, ai, br, bi;
    tsr_scalar_to_complex(start, &ar, &ai);
    tsr_scalar_to_complex(end, &br, &bi);
    char *p = tsr_tensor_ptr(t, NULL);
    int item = tsr_tensor_itemsize(t);
    if (steps == 1) {
        double complex v = cpow(CMPLX(base, 0.0), CMPLX(ar, ai));   /* start.to<complex<double>>() */
        tsr_scalar_store(t->dtype, p, tsr_scalar_complex(creal(v), cimag(v)));
        return t;
    }
    int64_t half = steps / 2;
    if (t->dtype == TSR_COMPLEX128) {
        volatile double c = (double)(steps - 1), den = c * c, nr = (br - ar) * c, ni = (bi - ai) * c;
        double sr = nr / den, si = ni / den;
        for (int64_t i = 0; i < steps; i++) {
            volatile double k = (double)(i < half ? i : steps - i - 1), pr = sr * k - si * 0.0, pi = sr * 0.0 + si * k;
            double er = i < half ? ar + pr : br - pr, ei = i < half ? ai + pi : bi - pi;
            volatile double complex e = CMPLX(er, ei);
            double complex v = cpow(CMPLX(base, 0.0), e);
            tsr_scalar_store(t->dtype, p + i * item, tsr_scalar_complex(creal(v), cimag(v)));
        }
        return t;
    }
    /* complex64 (complex32 follows it through float) */
    float fa = (float)ar, fai = (float)ai, fb = (float)br, fbi = (float)bi;
    volatile float c = (float)(steps - 1), den = c * c, nr = (fb - fa) * c, ni = (fbi - fai) * c;
    float sr = nr / den, si = ni / den;
    for (int64_t i = 0; i < steps; i++) {
        volatile float k = (float)(i < half ? i : steps - i - 1);
        volatile float m1 = sr * k, m2 = si * 0.0f, m3 = sr * 0.0f, m4 = si * k;
        float pr = m1 - m2, pi = m3 + m4;
        float er = i < half ? fa + pr : fb - pr, ei = i < half ? fai + pi : fbi - pi;
        volatile float complex e = CMPLXF(er, ei);
        float complex v = cpowf(CMPLXF((float)base, 0.0f), e);
        tsr_scalar_store(t->dtype, p + i * item, tsr_scalar_complex(creal(v), cimag(v)));
    }
    return t;
}

/* logspace_out in RangeFactories.cpp (not vectorised, compiled without FMA):
 * exponent start + step*i in double (step from a scalar_t subtraction), then
 * pow(double base, exponent) stored to scalar_t; integers use a float base. */
tsr_tensor *tsr_logspace(tsr_scalar start, tsr_scalar end, int64_t steps, double base,
                         tsr_dtype dtype, tsr_device device)
{
    if (external(device)) return moved(tsr_logspace(start, end, steps, base, dtype, TSR_CPU), device);
    if (steps < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "number of steps must be non-negative");
        return NULL;
    }
    if ((dtype == TSR_FLOAT16 || dtype == TSR_BOOL || dtype == TSR_COMPLEX32) && steps > 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"logspace_cpu\" not implemented for '%s'", tsr_dtype_scalar_name(dtype));
        return NULL;
    }
    tsr_tensor *t = tsr_tensor_empty(1, &steps, dtype, device);
    if (!t || tsr_tensor_is_meta(t) || steps == 0) return t;
    if (tsr_dtype_is_complex(dtype)) return logspace_complex(t, start, end, steps, base);
    if (steps == 1) {
        if (tsr_scalar_check_fits(start, TSR_FLOAT64) < 0) { tsr_tensor_release(t); return NULL; }
        store_d(t, 0, pow(base, tsr_scalar_to_double(start)));
        return t;
    }
    if (endpoints_fit(start, end, dtype) < 0) { tsr_tensor_release(t); return NULL; }
    bool integral = tsr_dtype_is_integral(dtype, true);
    double a = round_scalar(dtype, start), b = round_scalar(dtype, end);
    double diff = integral ? b - a : round_to(dtype, b - a);
    if (integral) base = (double)(float)base;
    double s = diff / (double)(steps - 1);
    int64_t half = steps / 2;
    for (int64_t i = 0; i < steps; i++) {
        volatile double prod = i < half ? s * (double)i : s * (double)(steps - i - 1);
        double e = i < half ? a + prod : b - prod;
        store_d(t, i, pow(base, e));
        POLL_OR_FAIL(i, t);
    }
    return t;
}

tsr_tensor *tsr_eye(int64_t n, int64_t m, tsr_dtype dtype, tsr_device device)
{
    if (n < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "n must be greater or equal to 0, got %lld", (long long)n);
        return NULL;
    }
    if (m < 0) m = n;
    if (external(device)) return moved(tsr_eye(n, m, dtype, TSR_CPU), device);
    int64_t sizes[2] = {n, m};
    tsr_tensor *t = tsr_zeros(2, sizes, dtype, device);
    if (!t || tsr_tensor_is_meta(t)) return t;
    for (int64_t i = 0; i < n && i < m; i++) {
        int64_t idx[2] = {i, i};
        tsr_tensor_set(t, idx, tsr_scalar_int(1));
    }
    return t;
}

tsr_tensor *tsr_eye_m(int64_t n, int64_t m, tsr_dtype dtype, tsr_device device)
{
    if (n >= 0 && m < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "m must be greater or equal to 0, got %lld", (long long)m);
        return NULL;
    }
    return tsr_eye(n, m, dtype == TSR_DTYPE_UNDEFINED ? tsr_default_dtype() : dtype, device);
}

tsr_tensor *tsr_empty_strided(int n, const int64_t *sizes, int nstrides, const int64_t *strides, tsr_dtype dtype,
                              tsr_device device)
{
    if (n != nstrides) {
        tsr_error_set(TSR_ERR_RUNTIME, "dimensionality of sizes (%d) must match dimensionality of strides (%d)", n,
                      nstrides);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (strides[i] >= 0) continue;
        char b1[512], b2[512];
        size_t k1 = 0, k2 = 0;
        for (int j = 0; j < n; j++) {
            k1 += (size_t)snprintf(b1 + k1, sizeof b1 - k1, "%s%lld", j ? ", " : "", (long long)sizes[j]);
            k2 += (size_t)snprintf(b2 + k2, sizeof b2 - k2, "%s%lld", j ? ", " : "", (long long)strides[j]);
        }
        tsr_error_set(TSR_ERR_RUNTIME, "Storage size calculation overflowed with sizes=[%s] and strides=[%s]", b1, b2);
        return NULL;
    }
    return tsr_tensor_empty_strided(n, sizes, strides, dtype == TSR_DTYPE_UNDEFINED ? tsr_default_dtype() : dtype,
                                    device);
}

int tsr_factory_requires_grad(tsr_tensor *t)
{
    if (!tsr_dtype_is_floating(t->dtype) && !tsr_dtype_is_complex(t->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "Only Tensors of floating point and complex dtype can require gradients");
        return -1;
    }
    t->requires_grad = true;
    return 0;
}

static tsr_tensor *like(const tsr_tensor *t, tsr_dtype dtype, tsr_device device, tsr_memory_format mf)
{
    int64_t strides[TSR_MAX_DIMS];
    if (dtype == TSR_DTYPE_UNDEFINED) dtype = t->dtype;
    if (mf == TSR_MF_PRESERVE) tsr_strides_preserve(t->ndim, t->sizes, t->strides, strides);
    else if (tsr_strides_for_format(t->ndim, t->sizes, mf, strides) < 0) return NULL;
    return tsr_tensor_empty_strided(t->ndim, t->sizes, strides, dtype, device);
}

tsr_tensor *tsr_empty_like(const tsr_tensor *t, tsr_dtype dtype, tsr_device device, tsr_memory_format mf)
{
    return like(t, dtype, device, mf);
}

tsr_tensor *tsr_full_like(const tsr_tensor *t, tsr_scalar v, tsr_dtype dtype, tsr_device device,
                          tsr_memory_format mf)
{
    tsr_tensor *r = like(t, dtype, device, mf);
    if (r && tsr_fill_(r, v) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

tsr_tensor *tsr_zeros_like(const tsr_tensor *t, tsr_dtype dtype, tsr_device device, tsr_memory_format mf)
{
    return tsr_full_like(t, tsr_scalar_int(0), dtype, device, mf);
}

tsr_tensor *tsr_ones_like(const tsr_tensor *t, tsr_dtype dtype, tsr_device device, tsr_memory_format mf)
{
    return tsr_full_like(t, tsr_scalar_int(1), dtype, device, mf);
}
