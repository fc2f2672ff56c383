/* runtime/ops/fft.c — torch.fft: pocketfft's algorithm (fft_engine.h, once
 * per precision) under 1.13's SpectralOps.cpp rules: dtype promotion, n/s
 * padding and trimming, dim checks, norm modes, out=. Values follow
 * pocketfft's arithmetic step by step (see fft_pass.h). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../error.h"
#include "../internal.h"
#include "../iter.h"
#include "../view.h"
#include "copy.h"
#include "factory.h"
#include "fft.h"
#include "rearrange.h"
#include "unary.h"

#define FCAT_(a, b) a##b
#define FCAT(a, b) FCAT_(a, b)

/* ------------------------------------------------------------ shared helpers */

typedef struct { double r, i; } dcx;

/* sincos_2pibyn: exp(2 pi i k / n) from two tables of double values (each
 * computed from the nearest octant), multiplied on demand. */
typedef struct { size_t n, mask, shift; dcx *v1, *v2; } twid;

static dcx twid_calc(size_t x, size_t n, double ang)
{
    dcx r;
    x <<= 3;
    if (x < 4 * n) {
        if (x < 2 * n) {
            if (x < n) { r.r = cos((double)x * ang); r.i = sin((double)x * ang); return r; }
            r.r = sin((double)(2 * n - x) * ang); r.i = cos((double)(2 * n - x) * ang); return r;
        }
        x -= 2 * n;
        if (x < n) { r.r = -sin((double)x * ang); r.i = cos((double)x * ang); return r; }
        r.r = -cos((double)(2 * n - x) * ang); r.i = sin((double)(2 * n - x) * ang); return r;
    }
    x = 8 * n - x;
    if (x < 2 * n) {
        if (x < n) { r.r = cos((double)x * ang); r.i = -sin((double)x * ang); return r; }
        r.r = sin((double)(2 * n - x) * ang); r.i = -cos((double)(2 * n - x) * ang); return r;
    }
    x -= 2 * n;
    if (x < n) { r.r = -sin((double)x * ang); r.i = -cos((double)x * ang); return r; }
    r.r = -cos((double)(2 * n - x) * ang); r.i = -sin((double)(2 * n - x) * ang); return r;
}

static void twid_free(twid *t) { tsr_free(t->v1); tsr_free(t->v2); t->v1 = t->v2 = NULL; }

static int twid_init(twid *t, size_t n)
{
    const long double pi = 3.141592653589793238462643383279502884197L;
    double ang = (double)(0.25L * pi / (long double)n);
    size_t nval = (n + 2) / 2;
    t->n = n;
    t->shift = 1;
    while (((size_t)1 << t->shift) * ((size_t)1 << t->shift) < nval) t->shift++;
    t->mask = ((size_t)1 << t->shift) - 1;
    size_t n1 = t->mask + 1, n2 = (nval + t->mask) / (t->mask + 1);
    t->v1 = tsr_malloc(n1 * sizeof *t->v1);
    t->v2 = tsr_malloc(n2 * sizeof *t->v2);
    if (!t->v1 || !t->v2) { twid_free(t); return -1; }
    t->v1[0].r = 1; t->v1[0].i = 0;
    for (size_t i = 1; i < n1; i++) t->v1[i] = twid_calc(i, n, ang);
    t->v2[0].r = 1; t->v2[0].i = 0;
    for (size_t i = 1; i < n2; i++) t->v2[i] = twid_calc(i * (t->mask + 1), n, ang);
    return 0;
}

static size_t largest_prime_factor(size_t n)
{
    size_t res = 1;
    while ((n & 1) == 0) { res = 2; n >>= 1; }
    for (size_t x = 3; x * x <= n; x += 2)
        while (n % x == 0) { res = x; n /= x; }
    if (n > 1) res = n;
    return res;
}

static double cost_guess(size_t n)
{
    const double lfp = 1.1;   /* penalty for non-hardcoded larger factors */
    size_t ni = n;
    double result = 0;
    while ((n & 1) == 0) { result += 2; n >>= 1; }
    for (size_t x = 3; x * x <= n; x += 2)
        while (n % x == 0) { result += x <= 5 ? (double)x : lfp * (double)x; n /= x; }
    if (n > 1) result += n <= 5 ? (double)n : lfp * (double)n;
    return result * (double)ni;
}

/* The smallest product of 2, 3, 5, 7 and 11 that is >= n. */
static size_t good_size_cmplx(size_t n)
{
    if (n <= 12) return n;
    size_t best = 2 * n;
    for (size_t f11 = 1; f11 < best; f11 *= 11)
        for (size_t f117 = f11; f117 < best; f117 *= 7)
            for (size_t f1175 = f117; f1175 < best; f1175 *= 5) {
                size_t x = f1175;
                while (x < n) x *= 2;
                for (;;) {
                    if (x < n) x *= 3;
                    else if (x > n) {
                        if (x < best) best = x;
                        if (x & 1) break;
                        x >>= 1;
                    } else return n;
                }
            }
    return best;
}

/* The lines of a strided array along one axis: offsets of each line's first
 * element in the input and the output. */
typedef struct {
    int nd;
    int64_t sizes[TSR_MAX_DIMS], is[TSR_MAX_DIMS], os[TSR_MAX_DIMS], idx[TSR_MAX_DIMS];
    int64_t ioff, ooff, left, work;
    bool started;
} lineit;

static void lineit_init(lineit *it, int ndim, const int64_t *sizes, int axis, const int64_t *is, const int64_t *os)
{
    it->nd = 0;
    it->left = 1;
    for (int d = 0; d < ndim; d++) {
        if (d == axis) continue;
        it->sizes[it->nd] = sizes[d];
        it->is[it->nd] = is[d];
        it->os[it->nd] = os[d];
        it->idx[it->nd] = 0;
        it->nd++;
        it->left *= sizes[d];
    }
    it->ioff = it->ooff = 0;
    it->work = 0;
    it->started = false;
}

static bool lineit_next(lineit *it)
{
    if (it->left <= 0) return false;
    if (it->started) {
        for (int d = it->nd - 1; d >= 0; d--) {
            if (++it->idx[d] < it->sizes[d]) {
                it->ioff += it->is[d];
                it->ooff += it->os[d];
                break;
            }
            it->ioff -= it->is[d] * (it->sizes[d] - 1);
            it->ooff -= it->os[d] * (it->sizes[d] - 1);
            it->idx[d] = 0;
        }
    }
    it->started = true;
    it->left--;
    return true;
}

/* Ctrl-C between lines, about every 64k elements transformed. */
static int lineit_poll(lineit *it, size_t len)
{
    it->work += (int64_t)len;
    if (it->work < 65536) return 0;
    it->work = 0;
    return tsr_check_interrupt();
}

/* the plan caches of both precisions (fft_engine.h) */
#define FFT_CACHE_N 16
#define FFT_CACHE_BYTES ((size_t)64 << 20)
static pthread_mutex_t fft_cache_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t fft_cache_clock;

#define R float
#define RS _f
#define RI int32_t
#define RLANES 8
#include "fft_engine.h"
#undef R
#undef RS
#undef RI
#undef RLANES
#define R double
#define RS _d
#define RI int64_t
#define RLANES 4
#include "fft_engine.h"
#undef R
#undef RS
#undef RI
#undef RLANES

/* ------------------------------------------------------------ the primitives */

static int refuse_names(const tsr_tensor *x, const char *op)
{
    if (!x->names) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "aten::%s is not yet supported with named tensors. Please drop names via "
                  "`tensor = tensor.rename(None)`, call the op with an unnamed tensor, and set names on the "
                  "result of the operation.", op);
    return -1;
}

static int64_t prod_dims(const int64_t *sizes, int nd, const int64_t *dims)
{
    int64_t n = 1;
    for (int i = 0; i < nd; i++) n *= sizes[dims[i]];
    return n;
}

/* compute_fct<T>: 1, 1/sqrt(n) or 1/n in the transform's precision. */
static float fct_f(int64_t n, tsr_fft_norm norm)
{
    return norm == TSR_FFT_NORM_NONE ? 1.0f : norm == TSR_FFT_NORM_BY_N ? 1.0f / (float)n : 1.0f / sqrtf((float)n);
}
static double fct_d(int64_t n, tsr_fft_norm norm)
{
    return norm == TSR_FFT_NORM_NONE ? 1.0 : norm == TSR_FFT_NORM_BY_N ? 1.0 / (double)n : 1.0 / sqrt((double)n);
}

/* pocketfft's sanity_check of a zero-dimensional array */
static int check_ndim(const tsr_tensor *x)
{
    if (x->ndim > 0) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "ndim must be >= 1");
    return -1;
}

static int check_kernel_dtype(tsr_dtype have, tsr_dtype want)
{
    if (have == want) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(want),
                  tsr_dtype_scalar_name(have));
    return -1;
}

tsr_tensor *tsr_fft_c2c_raw(const tsr_tensor *x, int nd, const int64_t *dims, tsr_fft_norm norm, bool forward)
{
    if (refuse_names(x, "_fft_c2c") < 0 || check_ndim(x) < 0) return NULL;
    if (x->dtype != TSR_COMPLEX64 && check_kernel_dtype(x->dtype, TSR_COMPLEX128) < 0) return NULL;
    if (fft_on_device(x)) return fft_dev_c2c(x, nd, dims, norm, forward, false);
    tsr_tensor *out = tsr_tensor_empty(x->ndim, x->sizes, x->dtype, x->device);
    if (!out || tsr_tensor_is_meta(x) || tsr_tensor_numel(x) == 0) return out;
    if (nd == 0 && tsr_copy_(out, x) < 0) goto fail;
    int64_t n = prod_dims(x->sizes, nd, dims), is[TSR_MAX_DIMS], os[TSR_MAX_DIMS];
    for (int d = 0; d < x->ndim; d++) { is[d] = x->strides[d]; os[d] = out->strides[d]; }
    int rc = x->dtype == TSR_COMPLEX64
                 ? c2c_nd_f(tsr_tensor_ptr(x, NULL), is, tsr_tensor_ptr(out, NULL), os, x->ndim, x->sizes, nd, dims,
                            fct_f(n, norm), forward)
                 : c2c_nd_d(tsr_tensor_ptr(x, NULL), is, tsr_tensor_ptr(out, NULL), os, x->ndim, x->sizes, nd, dims,
                            fct_d(n, norm), forward);
    if (rc < 0) goto fail;
    return out;
fail:
    tsr_tensor_release(out);
    return NULL;
}

/* _fft_fill_with_conjugate_symmetry_: out[.., k] for k past the half the
 * transform wrote is conj(out) at the mirrored index of every transformed dim. */
static void fill_conj_symmetry(tsr_tensor *out, int nd, const int64_t *dims, int64_t half)
{
    int last = (int)dims[nd - 1], ndim = out->ndim;
    bool tr[TSR_MAX_DIMS] = {false};
    for (int i = 0; i < nd; i++) tr[dims[i]] = true;
    int64_t n = out->sizes[last], idx[TSR_MAX_DIMS], numel = tsr_tensor_numel(out);
    size_t isz = (size_t)tsr_dtype_itemsize(out->dtype);
    char *base = tsr_tensor_ptr(out, NULL);
    for (int64_t lin = 0; lin < numel; lin++) {
        tsr_unravel(ndim, out->sizes, lin, idx);
        if (idx[last] < half) continue;
        int64_t src = 0, dst = 0;
        for (int d = 0; d < ndim; d++) {
            int64_t s = idx[d];
            if (d == last) s = n - idx[d];
            else if (tr[d]) s = (out->sizes[d] - idx[d]) % out->sizes[d];
            src += s * out->strides[d];
            dst += idx[d] * out->strides[d];
        }
        if (isz == 8) {
            float *a = (float *)(base + dst * 8), *b = (float *)(base + src * 8);
            a[0] = b[0]; a[1] = -b[1];
        } else {
            double *a = (double *)(base + dst * 16), *b = (double *)(base + src * 16);
            a[0] = b[0]; a[1] = -b[1];
        }
    }
}

tsr_tensor *tsr_fft_r2c_raw(const tsr_tensor *x, int nd, const int64_t *dims, tsr_fft_norm norm, bool onesided)
{
    if (refuse_names(x, "_fft_r2c") < 0 || check_ndim(x) < 0) return NULL;
    if (x->dtype != TSR_FLOAT32 && check_kernel_dtype(x->dtype, TSR_FLOAT64) < 0) return NULL;
    if (fft_on_device(x)) return fft_dev_r2c(x, nd, dims, norm, onesided, false);
    int last = (int)dims[nd - 1];
    int64_t osz[TSR_MAX_DIMS], half = x->sizes[last] / 2 + 1;
    memcpy(osz, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
    if (onesided) osz[last] = half;
    tsr_tensor *out = tsr_tensor_empty(x->ndim, osz, tsr_dtype_to_complex(x->dtype), x->device);
    if (!out || tsr_tensor_is_meta(x) || tsr_tensor_numel(x) == 0) return out;
    int64_t n = prod_dims(x->sizes, nd, dims), is[TSR_MAX_DIMS], os[TSR_MAX_DIMS];
    for (int d = 0; d < x->ndim; d++) { is[d] = x->strides[d]; os[d] = out->strides[d]; }
    int rc = x->dtype == TSR_FLOAT32
                 ? r2c_nd_f(tsr_tensor_ptr(x, NULL), is, tsr_tensor_ptr(out, NULL), os, x->ndim, x->sizes, nd, dims,
                            fct_f(n, norm))
                 : r2c_nd_d(tsr_tensor_ptr(x, NULL), is, tsr_tensor_ptr(out, NULL), os, x->ndim, x->sizes, nd, dims,
                            fct_d(n, norm));
    if (rc < 0) {
        tsr_tensor_release(out);
        return NULL;
    }
    if (!onesided) fill_conj_symmetry(out, nd, dims, half);
    return out;
}

tsr_tensor *tsr_fft_c2r_raw(const tsr_tensor *x, int nd, const int64_t *dims, tsr_fft_norm norm,
                            int64_t last_dim_size)
{
    if (refuse_names(x, "_fft_c2r") < 0 || check_ndim(x) < 0) return NULL;
    if (x->dtype != TSR_COMPLEX64 && check_kernel_dtype(x->dtype, TSR_COMPLEX128) < 0) return NULL;
    if (fft_on_device(x)) return fft_dev_c2r(x, nd, dims, norm, last_dim_size, false);
    int last = (int)dims[nd - 1];
    int64_t osz[TSR_MAX_DIMS];
    memcpy(osz, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
    osz[last] = last_dim_size;
    tsr_tensor *out = tsr_tensor_empty(x->ndim, osz, tsr_dtype_to_real(x->dtype), x->device), *in = NULL;
    if (!out || tsr_tensor_is_meta(x) || tsr_tensor_numel(out) == 0) return out;
    int64_t n = prod_dims(osz, nd, dims), is[TSR_MAX_DIMS], os[TSR_MAX_DIMS];
    if (nd > 1) {
        /* pocketfft's c2r over several axes: c2c backward (unscaled) over all
         * but the last into a contiguous buffer of the one-sided shape */
        int64_t isz[TSR_MAX_DIMS];
        memcpy(isz, osz, sizeof isz[0] * (size_t)x->ndim);
        isz[last] = last_dim_size / 2 + 1;
        if (!(in = tsr_tensor_empty(x->ndim, isz, x->dtype, x->device))) goto fail;
        for (int d = 0; d < x->ndim; d++) { is[d] = x->strides[d]; os[d] = in->strides[d]; }
        int rc = x->dtype == TSR_COMPLEX64
                     ? c2c_nd_f(tsr_tensor_ptr(x, NULL), is, tsr_tensor_ptr(in, NULL), os, x->ndim, isz, nd - 1, dims,
                                1.0f, false)
                     : c2c_nd_d(tsr_tensor_ptr(x, NULL), is, tsr_tensor_ptr(in, NULL), os, x->ndim, isz, nd - 1, dims,
                                1.0, false);
        if (rc < 0) goto fail;
    } else in = tsr_tensor_retain((tsr_tensor *)x);
    for (int d = 0; d < in->ndim; d++) { is[d] = in->strides[d]; os[d] = out->strides[d]; }
    int rc = in->dtype == TSR_COMPLEX64
                 ? c2r_1_f(tsr_tensor_ptr(in, NULL), is, tsr_tensor_ptr(out, NULL), os, in->ndim, osz, last,
                           fct_f(n, norm))
                 : c2r_1_d(tsr_tensor_ptr(in, NULL), is, tsr_tensor_ptr(out, NULL), os, in->ndim, osz, last,
                           fct_d(n, norm));
    if (rc < 0) goto fail;
    tsr_tensor_release(in);
    return out;
fail:
    tsr_tensor_release(in);
    tsr_tensor_release(out);
    return NULL;
}

/* ------------------------------------------------------------ torch.fft */

static const char *const kind_name[] = {"fft", "ifft", "rfft", "irfft", "hfft", "ihfft"};   /* ORDER FFTKIND */

static int norm_from_string(const char *s, bool forward, tsr_fft_norm *out)
{
    if (!s || !strcmp(s, "backward")) *out = forward ? TSR_FFT_NORM_NONE : TSR_FFT_NORM_BY_N;
    else if (!strcmp(s, "forward")) *out = forward ? TSR_FFT_NORM_BY_N : TSR_FFT_NORM_NONE;
    else if (!strcmp(s, "ortho")) *out = TSR_FFT_NORM_BY_ROOT_N;
    else {
        tsr_error_set(TSR_ERR_RUNTIME, "Invalid normalization mode: \"%s\"", s);
        return -1;
    }
    return 0;
}

/* promote_tensor_fft: complex stays; integers and bool go to the default
 * dtype; only float32 and float64 transform on the CPU. NEW reference. */
static tsr_tensor *promote_fft(const tsr_tensor *x, bool require_complex)
{
    tsr_dtype t = x->dtype;
    if (tsr_dtype_is_complex(t)) return tsr_tensor_retain((tsr_tensor *)x);
    if (!tsr_dtype_is_floating(t)) t = tsr_default_dtype();
    if (t != TSR_FLOAT32 && t != TSR_FLOAT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "Unsupported dtype %s", tsr_dtype_scalar_name(t));
        return NULL;
    }
    if (require_complex) t = tsr_dtype_to_complex(t);
    if (t == x->dtype) return tsr_tensor_retain((tsr_tensor *)x);
    return require_complex && fft_on_device(x) ? fft_dev_to_complex(x, t) : tsr_to_dtype(x, t, false);
}

/* resize_fft_input: trims with a slice, pads with zeros (constant_pad_nd)
 * where sizes[i] (-1: keep) differs along dims[i]. NEW reference. */
static tsr_tensor *resize_input(const tsr_tensor *x, int nd, const int64_t *dims, const int64_t *sizes)
{
    tsr_tensor *r = tsr_tensor_retain((tsr_tensor *)x), *t;
    bool pad = false;
    int64_t want[TSR_MAX_DIMS];
    memcpy(want, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
    for (int i = 0; i < nd; i++) {
        if (sizes[i] == -1) continue;
        if (r->sizes[dims[i]] < sizes[i]) { pad = true; want[dims[i]] = sizes[i]; }
        if (r->sizes[dims[i]] > sizes[i]) {
            t = tsr_view_narrow(r, dims[i], 0, sizes[i]);
            tsr_tensor_release(r);
            if (!(r = t)) return NULL;
            want[dims[i]] = sizes[i];
        }
    }
    if (!pad) return r;
    t = tsr_zeros(r->ndim, want, r->dtype, r->device);
    tsr_tensor *v = t;
    for (int d = 0; v && d < r->ndim; d++) {
        tsr_tensor *w = tsr_view_narrow(v, d, 0, r->sizes[d]);
        if (v != t) tsr_tensor_release(v);
        v = w;
    }
    if (!v || (!tsr_tensor_is_meta(t) && tsr_copy_(v, r) < 0)) {
        if (v && v != t) tsr_tensor_release(v);
        tsr_tensor_release(t);
        tsr_tensor_release(r);
        return NULL;
    }
    if (v != t) tsr_tensor_release(v);
    tsr_tensor_release(r);
    return t;
}

/* out= of the primitives: resize_output then copy_. Steals r; returns a new
 * reference to out. */
static tsr_tensor *to_out(tsr_tensor *r, tsr_tensor *out)
{
    if (!r || !out) return r;
    int rc = tsr_factory_out(out, r, false);
    tsr_tensor_release(r);
    return rc < 0 ? NULL : tsr_tensor_retain(out);
}

static int check_out(const char *fname, const tsr_tensor *out, bool complex)
{
    if (!out) return 0;
    if (complex ? tsr_dtype_is_complex(out->dtype) : tsr_dtype_is_floating(out->dtype)) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "%s expects a %s output tensor, but got %s", fname,
                  complex ? "complex" : "floating point", tsr_dtype_scalar_name(out->dtype));
    return -1;
}

/* fft_r2c's inverse result (SpectralOps.cpp): a lazy conjugate view
 * (is_conj()), or conj_physical_out into out when given. Steals r. */
static tsr_tensor *conj_result(tsr_tensor *r, tsr_tensor *out)
{
    if (!r) return NULL;
    tsr_tensor *c = out ? tsr_conj_physical(r, out) : tsr_conj(r);
    tsr_tensor_release(r);
    return c;
}

/* cuda computes float32 and float64 transforms; 1.13's half-precision
 * ones (complex32, power-of-two sizes) are not offered yet. */
static int refuse_half_on_device(const tsr_tensor *x, const char *fname)
{
    if (!fft_on_device(x) || (x->dtype != TSR_FLOAT16 && x->dtype != TSR_COMPLEX32)) return 0;
    char op[32];
    snprintf(op, sizeof op, "aten::fft_%s", fname);
    tsr_error_no_kernel(op, tsr_device_backend_name(x->device.type), "CPU, Meta");
    return -1;
}

/* The device forms of the primitives with a conjugate folded in (the
 * backend's launch does it): the CPU's checks first. */
static tsr_tensor *r2c_conj_dev(const tsr_tensor *x, int nd, const int64_t *dims, tsr_fft_norm norm, bool onesided)
{
    if (refuse_names(x, "_fft_r2c") < 0 || check_ndim(x) < 0) return NULL;
    return fft_dev_r2c(x, nd, dims, norm, onesided, true);
}

static tsr_tensor *c2r_conj_dev(const tsr_tensor *x, int nd, const int64_t *dims, tsr_fft_norm norm,
                                int64_t last_dim_size)
{
    if (refuse_names(x, "_fft_c2r") < 0 || check_ndim(x) < 0) return NULL;
    return fft_dev_c2r(x, nd, dims, norm, last_dim_size, true);
}

tsr_tensor *tsr_fft1(tsr_fft_kind kind, const tsr_tensor *x, bool has_n, int64_t n, int64_t dim, const char *norm,
                     tsr_tensor *out)
{
    const char *fname = kind_name[kind];
    tsr_fft_norm nm;
    tsr_tensor *in = NULL, *r = NULL;
    int64_t size = 0, d64;
    bool forward = kind == TSR_FFT_FFT || kind == TSR_FFT_RFFT || kind == TSR_FFT_HFFT;
    if (refuse_half_on_device(x, fname) < 0) return NULL;
    if ((kind == TSR_FFT_FFT || kind == TSR_FFT_IFFT) && tsr_dtype_is_complex(x->dtype)) {
        /* fft_c2c */
        int d = tsr_wrap_dim(dim, x->ndim);
        if (d < 0) return NULL;
        size = x->ndim ? x->sizes[d] : 0;
        if (!has_n) n = size;
        if (n < 1) goto bad_n;
        d64 = d;
        if (!(in = has_n ? resize_input(x, 1, &d64, &n) : tsr_tensor_retain((tsr_tensor *)x))) return NULL;
        if (norm_from_string(norm, forward, &nm) < 0 || check_out(fname, out, true) < 0) goto fail;
        r = to_out(tsr_fft_c2c_raw(in, 1, &d64, nm, forward), out);
    } else if (kind == TSR_FFT_FFT || kind == TSR_FFT_IFFT || kind == TSR_FFT_RFFT || kind == TSR_FFT_IHFFT) {
        /* fft_r2c */
        if (tsr_dtype_is_complex(x->dtype)) {
            tsr_error_set(TSR_ERR_RUNTIME, "%s expects a real input tensor, but got %s", fname,
                          tsr_dtype_scalar_name(x->dtype));
            return NULL;
        }
        if (check_out(fname, out, true) < 0) return NULL;
        tsr_tensor *p = promote_fft(x, false);
        if (!p) return NULL;
        int d = tsr_wrap_dim(dim, p->ndim);
        if (d < 0) { tsr_tensor_release(p); return NULL; }
        size = p->ndim ? p->sizes[d] : 0;
        if (!has_n) n = size;
        if (n < 1) { tsr_tensor_release(p); goto bad_n; }
        d64 = d;
        in = has_n ? resize_input(p, 1, &d64, &n) : tsr_tensor_retain(p);
        tsr_tensor_release(p);
        if (!in || norm_from_string(norm, forward, &nm) < 0) goto fail;
        bool onesided = kind == TSR_FFT_RFFT || kind == TSR_FFT_IHFFT;
        if (out && forward) r = to_out(tsr_fft_r2c_raw(in, 1, &d64, nm, onesided), out);
        else {
            r = tsr_fft_r2c_raw(in, 1, &d64, nm, onesided);
            if (!forward) r = conj_result(r, out);
        }
    } else {
        /* fft_c2r: irfft, hfft */
        if (check_out(fname, out, false) < 0) return NULL;
        tsr_tensor *p = promote_fft(x, true);
        if (!p) return NULL;
        int d = tsr_wrap_dim(dim, p->ndim);
        if (d < 0) { tsr_tensor_release(p); return NULL; }
        size = p->ndim ? p->sizes[d] : 0;
        if (!has_n) n = 2 * (size - 1);
        if (n < 1) { tsr_tensor_release(p); goto bad_n; }
        d64 = d;
        int64_t half = n / 2 + 1;
        in = has_n ? resize_input(p, 1, &d64, &half) : tsr_tensor_retain(p);
        tsr_tensor_release(p);
        if (!in || norm_from_string(norm, forward, &nm) < 0) goto fail;
        if (forward && fft_on_device(in)) {
            r = to_out(c2r_conj_dev(in, 1, &d64, nm, n), out);
        } else {
            if (forward) {
                tsr_tensor *c = tsr_conj_physical(in, NULL);
                tsr_tensor_release(in);
                if (!(in = c)) goto fail;
            }
            r = to_out(tsr_fft_c2r_raw(in, 1, &d64, nm, n), out);
        }
    }
    tsr_tensor_release(in);
    return r;
bad_n:
    tsr_error_set(TSR_ERR_RUNTIME, "Invalid number of data points (%lld) specified", (long long)n);
    return NULL;
fail:
    tsr_tensor_release(in);
    return NULL;
}

/* canonicalize_fft_shape_and_dim_args. ns/nd < 0: None. Fills dims and
 * shape (*n entries). */
static int canon_args(const tsr_tensor *x, int ns, const int64_t *s, int nd, const int64_t *dims_in, int *n,
                        int64_t *dims, int64_t *shape)
{
    int ndim = x->ndim;
    if (nd >= 0) {
        bool seen[TSR_MAX_DIMS] = {false};
        for (int i = 0; i < nd; i++) {
            int d = tsr_wrap_dim(dims_in[i], ndim);
            if (d < 0) return -1;
            dims[i] = d;
        }
        for (int i = 0; i < nd; i++) {
            if (seen[dims[i]]) {
                tsr_error_set(TSR_ERR_RUNTIME, "FFT dims must be unique");
                return -1;
            }
            seen[dims[i]] = true;
        }
    }
    if (ns >= 0) {
        if (nd >= 0 && nd != ns) {
            tsr_error_set(TSR_ERR_RUNTIME, "When given, dim and shape arguments must have the same length");
            return -1;
        }
        if (ns > ndim) {
            tsr_error_set(TSR_ERR_RUNTIME, "Got shape with %d values but input tensor only has %d dimensions.", ns,
                          ndim);
            return -1;
        }
        if (nd < 0)
            for (int i = 0; i < ns; i++) dims[i] = ndim - ns + i;
        for (int i = 0; i < ns; i++) shape[i] = s[i] == -1 ? (ndim ? x->sizes[dims[i]] : 0) : s[i];
        *n = ns;
    } else if (nd < 0) {
        for (int i = 0; i < ndim; i++) { dims[i] = i; shape[i] = x->sizes[i]; }
        *n = ndim;
    } else {
        for (int i = 0; i < nd; i++) shape[i] = ndim ? x->sizes[dims[i]] : 0;
        *n = nd;
    }
    for (int i = 0; i < *n; i++)
        if (shape[i] <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "Invalid number of data points (%lld) specified", (long long)shape[i]);
            return -1;
        }
    return 0;
}

tsr_tensor *tsr_fftn(tsr_fft_kind kind, const tsr_tensor *x, int ns, const int64_t *s, int nd, const int64_t *dims_in,
                     const char *norm, tsr_tensor *out)
{
    char fname[16];
    /* fftn_c2c names itself "fftn" for ifftn too */
    snprintf(fname, sizeof fname, "%sn", kind == TSR_FFT_IFFT ? "fft" : kind_name[kind]);
    int n;
    int64_t dims[TSR_MAX_DIMS], shape[TSR_MAX_DIMS], last_size = 0;
    tsr_fft_norm nm;
    tsr_tensor *p = NULL, *in = NULL, *r = NULL;
    bool forward = kind == TSR_FFT_FFT || kind == TSR_FFT_RFFT || kind == TSR_FFT_HFFT;
    if (refuse_half_on_device(x, fname) < 0) return NULL;
    if (kind == TSR_FFT_RFFT && tsr_dtype_is_complex(x->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "rfftn expects a real-valued input tensor, but got %s",
                      tsr_dtype_scalar_name(x->dtype));
        return NULL;
    }
    if (canon_args(x, ns, s, nd, dims_in, &n, dims, shape) < 0) return NULL;
    if (kind != TSR_FFT_FFT && kind != TSR_FFT_IFFT && n == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s must transform at least one axis", fname);
        return NULL;
    }
    if (kind == TSR_FFT_IRFFT || kind == TSR_FFT_HFFT) {
        /* canonicalize_fft_c2r_shape_and_dim_args */
        last_size = (ns < 0 || s[ns - 1] == -1) ? 2 * ((x->ndim ? x->sizes[dims[n - 1]] : 0) - 1) : shape[n - 1];
        if (last_size < 1) {
            tsr_error_set(TSR_ERR_RUNTIME, "Invalid number of data points (%lld) specified", (long long)last_size);
            return NULL;
        }
        shape[n - 1] = last_size / 2 + 1;
    }
    bool cplx_in = kind == TSR_FFT_FFT || kind == TSR_FFT_IFFT || kind == TSR_FFT_IRFFT || kind == TSR_FFT_HFFT;
    if (!(p = promote_fft(x, cplx_in))) return NULL;
    in = resize_input(p, n, dims, shape);
    tsr_tensor_release(p);
    if (!in || norm_from_string(norm, forward, &nm) < 0) goto fail;
    switch (kind) {
    case TSR_FFT_FFT:
    case TSR_FFT_IFFT:
        if (check_out(fname, out, true) < 0) goto fail;
        r = to_out(tsr_fft_c2c_raw(in, n, dims, nm, forward), out);
        break;
    case TSR_FFT_RFFT:
        if (check_out(fname, out, true) < 0) goto fail;
        r = to_out(tsr_fft_r2c_raw(in, n, dims, nm, true), out);
        break;
    case TSR_FFT_IRFFT:
        if (check_out(fname, out, false) < 0) goto fail;
        r = to_out(tsr_fft_c2r_raw(in, n, dims, nm, last_size), out);
        break;
    case TSR_FFT_HFFT: {
        tsr_tensor *t = n > 1 ? tsr_fft_c2c_raw(in, n - 1, dims, nm, true) : tsr_tensor_retain(in), *c;
        if (!t) goto fail;
        if (fft_on_device(t)) {
            if (check_out(fname, out, false) == 0) r = to_out(c2r_conj_dev(t, 1, &dims[n - 1], nm, last_size), out);
            tsr_tensor_release(t);
            break;
        }
        c = tsr_conj_physical(t, NULL);
        tsr_tensor_release(t);
        if (!c) goto fail;
        if (check_out(fname, out, false) < 0) { tsr_tensor_release(c); goto fail; }
        r = to_out(tsr_fft_c2r_raw(c, 1, &dims[n - 1], nm, last_size), out);
        tsr_tensor_release(c);
        break;
    }
    case TSR_FFT_IHFFT: {
        bool dev = fft_on_device(in);
        /* one dim: a conjugate view, as on the CPU; more: the conjugate
         * folded into the device's launch before the c2c passes */
        tsr_tensor *t = dev && n > 1 ? r2c_conj_dev(in, 1, &dims[n - 1], nm, true)
                                     : tsr_fft_r2c_raw(in, 1, &dims[n - 1], nm, true);
        if (!t) goto fail;
        if (n == 1) {
            r = conj_result(t, out);
            break;
        }
        tsr_tensor *c = dev ? t : tsr_conj_physical(t, NULL);
        if (!dev) tsr_tensor_release(t);
        if (!c) goto fail;
        if (check_out(fname, out, true) < 0) { tsr_tensor_release(c); goto fail; }
        r = to_out(tsr_fft_c2c_raw(c, n - 1, dims, nm, false), out);
        tsr_tensor_release(c);
        break;
    }
    }
    tsr_tensor_release(in);
    return r;
fail:
    tsr_tensor_release(in);
    return NULL;
}

tsr_tensor *tsr_fftfreq(bool rfft, int64_t n, double d, tsr_dtype dtype, tsr_device device, tsr_tensor *out)
{
    const char *fname = rfft ? "rfftfreq" : "fftfreq";
    if (dtype == TSR_DTYPE_UNDEFINED) dtype = out ? out->dtype : tsr_default_dtype();
    if (!tsr_dtype_is_floating(dtype) && !tsr_dtype_is_complex(dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s requires a floating point or complex dtype", fname);
        return NULL;
    }
    if (tsr_dtype_is_complex(dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"arange_cpu\" not implemented for '%s'", tsr_dtype_scalar_name(dtype));
        return NULL;
    }
    int64_t len = rfft ? n / 2 + 1 : n;
    if (n < 0) len = n;
    /* a device's values are the host's (the same arange and float
     * product), made here and copied over in one transfer */
    bool dev = device.type != TSR_DEV_CPU && device.type != TSR_DEV_META;
    tsr_tensor *r = tsr_tensor_empty(1, &len, dtype, dev ? TSR_CPU : device);
    if (!r) return NULL;
    if (!tsr_tensor_is_meta(r)) {
        /* arange, the negative half, then mul_(1.0 / (n * d)) in the dtype */
        double scale = 1.0 / ((double)n * d);
        for (int64_t i = 0; i < len; i++) {
            int64_t k = (!rfft && i >= (n + 1) / 2) ? i - n : i;
            tsr_scalar v;
            if (dtype == TSR_FLOAT64 || dtype == TSR_COMPLEX128) v = tsr_scalar_float((double)k * scale);
            else if (dtype == TSR_FLOAT32 || dtype == TSR_COMPLEX64) v = tsr_scalar_float((double)((float)k * (float)scale));
            else v = tsr_scalar_float((double)((float)k * (float)scale));
            if (tsr_tensor_set_at(r, i, v) < 0) { tsr_tensor_release(r); return NULL; }
        }
    }
    if (dev) {
        tsr_tensor *t = tsr_to_device(r, device, TSR_DTYPE_UNDEFINED, false);
        tsr_tensor_release(r);
        if (!(r = t)) return NULL;
    }
    return to_out(r, out);
}

tsr_tensor *tsr_fftshift(const tsr_tensor *x, int nd, const int64_t *dims_in, bool inverse)
{
    int64_t dims[TSR_MAX_DIMS], shifts[TSR_MAX_DIMS];
    int n = nd < 0 ? x->ndim : nd;
    for (int i = 0; i < n; i++) {
        if (nd < 0) dims[i] = i;
        else {
            int d = tsr_wrap_dim(dims_in[i], x->ndim);
            if (d < 0) return NULL;
            dims[i] = d;
        }
        int64_t sz = x->ndim ? x->sizes[dims[i]] : 1;
        shifts[i] = inverse ? (sz + 1) / 2 : sz / 2;
    }
    return tsr_roll(x, n, shifts, n, dims);
}
