/* runtime/scalar.c — scalars, typed loads/stores and the dtype conversion
 * routine. Float→integer follows what 1.13 does on x86 (checked with the
 * oracle): int64 uses a 64-bit truncating convert (out of range or NaN →
 * INT64_MIN); every narrower type goes through a 32-bit convert (out of range
 * → INT32_MIN) and then wraps, so uint8(300.) == 44 and int16(1e10) == 0.
 * complex→real (bool included) takes the real part. */
#include <math.h>
#include <immintrin.h>
#include <string.h>
#include "scalar.h"
#include "error.h"

tsr_scalar tsr_scalar_bool(bool b) { return (tsr_scalar){.kind = TSR_SCALAR_BOOL, .i = b, .d = b, .re = b}; }
tsr_scalar tsr_scalar_int(int64_t i) { return (tsr_scalar){.kind = TSR_SCALAR_INT, .i = i, .d = (double)i, .re = (double)i}; }
tsr_scalar tsr_scalar_float(double d) { return (tsr_scalar){.kind = TSR_SCALAR_FLOAT, .d = d, .re = d}; }
tsr_scalar tsr_scalar_complex(double re, double im)
{
    return (tsr_scalar){.kind = TSR_SCALAR_COMPLEX, .d = re, .re = re, .im = im};
}

static int32_t d2i32(double x)
{
    if (!(x > -2147483649.0 && x < 2147483648.0)) return INT32_MIN;
    return (int32_t)x;
}

static int64_t d2i64(double x)
{
    if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0)) return INT64_MIN;
    return (int64_t)x;
}

double tsr_scalar_to_double(tsr_scalar s)
{
    switch (s.kind) {
    case TSR_SCALAR_BOOL: case TSR_SCALAR_INT: return (double)s.i;
    case TSR_SCALAR_FLOAT: return s.d;
    default: return s.re;
    }
}

int64_t tsr_scalar_to_int64(tsr_scalar s)
{
    switch (s.kind) {
    case TSR_SCALAR_BOOL: case TSR_SCALAR_INT: return s.i;
    case TSR_SCALAR_FLOAT: return d2i64(s.d);
    default: return d2i64(s.re);
    }
}

void tsr_scalar_to_complex(tsr_scalar s, double *re, double *im)
{
    *re = tsr_scalar_to_double(s);
    *im = s.kind == TSR_SCALAR_COMPLEX ? s.im : 0.0;
}

bool tsr_scalar_to_bool(tsr_scalar s)
{
    switch (s.kind) {
    case TSR_SCALAR_BOOL: case TSR_SCALAR_INT: return s.i != 0;
    case TSR_SCALAR_FLOAT: return s.d != 0;
    default: return s.re != 0;       /* 1.13: complex→bool reads the real part */
    }
}

/* Narrow integer from a scalar: ints wrap, floats go through a 32-bit convert. */
static int64_t to_narrow_int(tsr_scalar s)
{
    if (s.kind == TSR_SCALAR_BOOL || s.kind == TSR_SCALAR_INT) return s.i;
    return d2i32(s.kind == TSR_SCALAR_FLOAT ? s.d : s.re);
}

tsr_scalar tsr_scalar_load(tsr_dtype d, const void *p)
{
    switch (d) {
    case TSR_UINT8: return tsr_scalar_int(*(const uint8_t *)p);
    case TSR_INT8: return tsr_scalar_int(*(const int8_t *)p);
    case TSR_INT16: return tsr_scalar_int(*(const int16_t *)p);
    case TSR_INT32: return tsr_scalar_int(*(const int32_t *)p);
    case TSR_INT64: return tsr_scalar_int(*(const int64_t *)p);
    case TSR_FLOAT16: return tsr_scalar_float(tsr_half_to_float(*(const tsr_half *)p));
    case TSR_FLOAT32: return tsr_scalar_float(*(const float *)p);
    case TSR_FLOAT64: return tsr_scalar_float(*(const double *)p);
    case TSR_COMPLEX32: {
        const tsr_chalf *c = p;
        return tsr_scalar_complex(tsr_half_to_float(c->re), tsr_half_to_float(c->im));
    }
    case TSR_COMPLEX64: { const float *f = p; return tsr_scalar_complex(f[0], f[1]); }
    case TSR_COMPLEX128: { const double *f = p; return tsr_scalar_complex(f[0], f[1]); }
    case TSR_BOOL: return tsr_scalar_bool(*(const uint8_t *)p != 0);
    case TSR_BFLOAT16: return tsr_scalar_float(tsr_bfloat16_to_float(*(const tsr_bfloat16 *)p));
    default: return tsr_scalar_int(0);
    }
}

/* Real value as float the way c10 converts to float: int64 → float directly. */
static float to_float(tsr_scalar s)
{
    if (s.kind == TSR_SCALAR_BOOL || s.kind == TSR_SCALAR_INT) return (float)s.i;
    return (float)(s.kind == TSR_SCALAR_FLOAT ? s.d : s.re);
}

void tsr_scalar_store(tsr_dtype d, void *p, tsr_scalar s)
{
    double re, im;
    switch (d) {
    case TSR_UINT8: *(uint8_t *)p = (uint8_t)to_narrow_int(s); break;
    case TSR_INT8: *(int8_t *)p = (int8_t)to_narrow_int(s); break;
    case TSR_INT16: *(int16_t *)p = (int16_t)to_narrow_int(s); break;
    case TSR_INT32: *(int32_t *)p = (int32_t)to_narrow_int(s); break;
    case TSR_INT64: *(int64_t *)p = tsr_scalar_to_int64(s); break;
    case TSR_FLOAT16: *(tsr_half *)p = tsr_float_to_half(to_float(s)); break;
    case TSR_FLOAT32: *(float *)p = to_float(s); break;
    case TSR_FLOAT64: *(double *)p = tsr_scalar_to_double(s); break;
    case TSR_COMPLEX32: {
        tsr_scalar_to_complex(s, &re, &im);
        tsr_chalf *c = p;
        c->re = tsr_float_to_half(s.kind == TSR_SCALAR_COMPLEX ? (float)re : to_float(s));
        c->im = tsr_float_to_half((float)im);
        break;
    }
    case TSR_COMPLEX64: {
        tsr_scalar_to_complex(s, &re, &im);
        float *f = p;
        f[0] = s.kind == TSR_SCALAR_COMPLEX ? (float)re : to_float(s);
        f[1] = (float)im;
        break;
    }
    case TSR_COMPLEX128: {
        tsr_scalar_to_complex(s, &re, &im);
        double *f = p;
        f[0] = re;
        f[1] = im;
        break;
    }
    case TSR_BOOL: *(uint8_t *)p = tsr_scalar_to_bool(s); break;
    case TSR_BFLOAT16: *(tsr_bfloat16 *)p = tsr_float_to_bfloat16(to_float(s)); break;
    default: break;
    }
}

/* Same-width and a few hot pairs get straight loops; everything else goes
 * element by element through a scalar (exact for int64, since the scalar keeps
 * integers as int64). */
/* ---- contiguous float <-> float16/bfloat16, the hot path of half
 * arithmetic (inputs are widened to float in small buffers and the result
 * narrowed back). Exactly the scalar conversions' results: lanes that hold
 * NaN or infinity go through the scalar code. */

__attribute__((target("avx2,f16c"))) static void f16_to_f32_f16c(float *o, const uint16_t *in, int64_t n)
{
    int64_t k = 0;
    for (; k + 8 <= n; k += 8) {
        __m128i h = _mm_loadu_si128((const __m128i *)(in + k));
        __m128i e = _mm_and_si128(h, _mm_set1_epi16(0x7c00));
        if (_mm_movemask_epi8(_mm_cmpeq_epi16(e, _mm_set1_epi16(0x7c00)))) {
            for (int j = 0; j < 8; j++) o[k + j] = tsr_half_to_float(in[k + j]);
            continue;
        }
        _mm256_storeu_ps(o + k, _mm256_cvtph_ps(h));
    }
    for (; k < n; k++) o[k] = tsr_half_to_float(in[k]);
}

__attribute__((target("avx2,f16c"))) static void f32_to_f16_f16c(uint16_t *o, const float *in, int64_t n)
{
    int64_t k = 0;
    for (; k + 8 <= n; k += 8) {
        __m256 v = _mm256_loadu_ps(in + k);
        if (_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q))) {
            for (int j = 0; j < 8; j++) o[k + j] = tsr_float_to_half(in[k + j]);
            continue;
        }
        _mm_storeu_si128((__m128i *)(o + k), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
    }
    for (; k < n; k++) o[k] = tsr_float_to_half(in[k]);
}

static bool has_f16c(void)
{
    static int have = -1;
    if (have < 0) have = __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx2");
    return have;
}

/* Returns true when it converted. */
static bool convert_16bit_contiguous(tsr_dtype dt, char *o, tsr_dtype st, const char *in, int64_t n)
{
    if (dt == TSR_FLOAT32 && st == TSR_BFLOAT16) {
        float *od = (float *)o;
        const uint16_t *id = (const uint16_t *)in;
        for (int64_t k = 0; k < n; k++) {
            uint32_t u = (uint32_t)id[k] << 16;
            memcpy(&od[k], &u, 4);
        }
        return true;
    }
    if (dt == TSR_BFLOAT16 && st == TSR_FLOAT32) {
        /* the copy path's NaN is 0xffff (see below) */
        uint16_t *od = (uint16_t *)o;
        const uint32_t *id = (const uint32_t *)in;
        for (int64_t k = 0; k < n; k++) {
            uint32_t u = id[k];
            uint16_t r = (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
            od[k] = (u & 0x7fffffffu) > 0x7f800000u ? 0xffff : r;
        }
        return true;
    }
    if (!has_f16c()) return false;
    if (dt == TSR_FLOAT32 && st == TSR_FLOAT16) {
        f16_to_f32_f16c((float *)o, (const uint16_t *)in, n);
        return true;
    }
    if (dt == TSR_FLOAT16 && st == TSR_FLOAT32) {
        f32_to_f16_f16c((uint16_t *)o, (const float *)in, n);
        return true;
    }
    return false;
}

__attribute__((target_clones("avx2", "default")))
void tsr_convert(tsr_dtype dt, void *dst, int64_t dst_stride,
                 tsr_dtype st, const void *src, int64_t src_stride, int64_t n)
{
    char *o = dst;
    const char *in = src;
    if (dt == st) {
        int sz = tsr_dtype_itemsize(dt);
        if (dst_stride == sz && src_stride == sz) {
            memmove(o, in, (size_t)n * sz);
            return;
        }
        for (int64_t k = 0; k < n; k++) memcpy(o + k * dst_stride, in + k * src_stride, sz);
        return;
    }
#define PAIR(DT, ST, DC, SC)                                                    \
    if (dt == DT && st == ST) {                                                 \
        if (dst_stride == sizeof(DC) && src_stride == sizeof(SC)) {             \
            DC *od = (DC *)o;                                                   \
            const SC *id = (const SC *)in;                                      \
            for (int64_t k = 0; k < n; k++) od[k] = (DC)id[k];                  \
            return;                                                             \
        }                                                                       \
        for (int64_t k = 0; k < n; k++)                                         \
            *(DC *)(o + k * dst_stride) = (DC) * (const SC *)(in + k * src_stride); \
        return;                                                                 \
    }
    if (dst_stride == tsr_dtype_itemsize(dt) && src_stride == tsr_dtype_itemsize(st) &&
        convert_16bit_contiguous(dt, o, st, in, n))
        return;
    if (dt == TSR_BFLOAT16 && st == TSR_FLOAT32) {
        /* 1.13's vectorised float→bfloat16 copy turns every NaN into 0xffff
         * (the scalar c10 conversion gives 0x7fc0); checked with the oracle. */
        for (int64_t k = 0; k < n; k++) {
            float f = *(const float *)(in + k * src_stride);
            *(tsr_bfloat16 *)(o + k * dst_stride) = isnan(f) ? 0xffff : tsr_float_to_bfloat16(f);
        }
        return;
    }
    PAIR(TSR_FLOAT64, TSR_FLOAT32, double, float)
    PAIR(TSR_FLOAT32, TSR_FLOAT64, float, double)
    PAIR(TSR_FLOAT32, TSR_INT64, float, int64_t)
    PAIR(TSR_FLOAT64, TSR_INT64, double, int64_t)
    PAIR(TSR_FLOAT32, TSR_INT32, float, int32_t)
    PAIR(TSR_INT64, TSR_INT32, int64_t, int32_t)
    PAIR(TSR_INT32, TSR_INT64, int32_t, int64_t)
#undef PAIR
    for (int64_t k = 0; k < n; k++)
        tsr_scalar_store(dt, o + k * dst_stride, tsr_scalar_load(st, in + k * src_stride));
}

static const char *const cxx_names[TSR_DTYPE_SLOTS] = {
    [TSR_UINT8] = "uint8_t", [TSR_INT8] = "int8_t", [TSR_INT16] = "int16_t", [TSR_INT32] = "int",
    [TSR_INT64] = "int64_t", [TSR_FLOAT16] = "at::Half", [TSR_FLOAT32] = "float",
    [TSR_FLOAT64] = "double", [TSR_COMPLEX32] = "c10::complex<float>",
    [TSR_COMPLEX64] = "c10::complex<float>", [TSR_COMPLEX128] = "c10::complex<double>",
    [TSR_BOOL] = "bool", [TSR_BFLOAT16] = "at::BFloat16",
};

/* c10::overflows, as observed in 1.13 (fill_, full). */
int tsr_scalar_check_fits(tsr_scalar s, tsr_dtype d)
{
    double re, im;
    tsr_scalar_to_complex(s, &re, &im);
    bool is_int = s.kind == TSR_SCALAR_BOOL || s.kind == TSR_SCALAR_INT;
    bool bad = false;
    double lo = 0, hi = 0;
    switch (d) {
    case TSR_BOOL: case TSR_COMPLEX128: return 0;
    case TSR_UINT8: lo = -255; hi = 255; break;      /* unsigned accepts -max..max */
    case TSR_INT8: lo = INT8_MIN; hi = INT8_MAX; break;
    case TSR_INT16: lo = INT16_MIN; hi = INT16_MAX; break;
    case TSR_INT32: lo = INT32_MIN; hi = INT32_MAX; break;
    case TSR_INT64:
        if (is_int) return 0;
        bad = im != 0 || !(re >= -9223372036854775808.0 && re < 9223372036854775808.0);
        goto done;
    case TSR_FLOAT16: case TSR_FLOAT32: case TSR_FLOAT64: case TSR_BFLOAT16: {
        double max = d == TSR_FLOAT16 ? 65504.0 : d == TSR_FLOAT32 ? 3.4028234663852886e+38
                   : d == TSR_BFLOAT16 ? 3.3895313892515355e+38 : INFINITY;
        bad = im != 0 || (isfinite(re) && (re > max || re < -max));
        goto done;
    }
    case TSR_COMPLEX32: case TSR_COMPLEX64: {
        double max = 3.4028234663852886e+38;
        bad = (isfinite(re) && fabs(re) > max) || (isfinite(im) && fabs(im) > max);
        goto done;
    }
    default: return 0;
    }
    if (is_int) bad = s.i < (int64_t)lo || s.i > (int64_t)hi;
    else bad = im != 0 || !(re >= lo && re <= hi);
done:
    if (bad) {
        tsr_error_set(TSR_ERR_RUNTIME, "value cannot be converted to type %s without overflow", cxx_names[d]);
        return -1;
    }
    return 0;
}
