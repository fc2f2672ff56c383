/* runtime/scalar.c — scalars, typed loads/stores and the dtype conversion
 * routine; the per-dtype casts are the traits' load/store (dtype.c), which
 * follow these rules. Float→integer follows what 1.13 does on x86 (checked with the
 * oracle): int64 uses a 64-bit truncating convert (out of range or NaN →
 * INT64_MIN); every narrower type goes through a 32-bit convert (out of range
 * → INT32_MIN) and then wraps, so uint8(300.) == 44 and int16(1e10) == 0.
 * complex→real (bool included) takes the real part. */
#include <complex.h>
#include <math.h>
#include <immintrin.h>
#include <string.h>
#include "scalar.h"
#include "error.h"
#include "internal.h"

tsr_scalar tsr_scalar_bool(bool b) { return (tsr_scalar){.kind = TSR_SCALAR_BOOL, .i = b, .d = b, .re = b}; }
tsr_scalar tsr_scalar_int(int64_t i) { return (tsr_scalar){.kind = TSR_SCALAR_INT, .i = i, .d = (double)i, .re = (double)i}; }
tsr_scalar tsr_scalar_float(double d) { return (tsr_scalar){.kind = TSR_SCALAR_FLOAT, .d = d, .re = d}; }
tsr_scalar tsr_scalar_complex(double re, double im)
{
    return (tsr_scalar){.kind = TSR_SCALAR_COMPLEX, .d = re, .re = re, .im = im};
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

tsr_scalar tsr_scalar_load(tsr_dtype d, const void *p)
{
    const tsr_dtype_traits *t = tsr_dtype_traits_of(d);
    if (!t) return tsr_scalar_int(0);
    switch (t->category) {
    case TSR_CAT_BOOL: return tsr_scalar_bool(t->load_int64(p) != 0);
    case TSR_CAT_INTEGRAL: return tsr_scalar_int(t->load_int64(p));
    case TSR_CAT_FLOATING: return tsr_scalar_float(t->load_double(p));
    default: {
        double _Complex z = t->load_complex(p);
        return tsr_scalar_complex(creal(z), cimag(z));
    }
    }
}

/* The traits' stores carry the cast rules (see dtype.h): a bool or int scalar
 * is an int64, so an int64 reaches float without a double step. */
void tsr_scalar_store(tsr_dtype d, void *p, tsr_scalar s)
{
    const tsr_dtype_traits *t = tsr_dtype_traits_of(d);
    if (!t) return;
    switch (s.kind) {
    case TSR_SCALAR_BOOL: case TSR_SCALAR_INT: t->store_int64(p, s.i); break;
    case TSR_SCALAR_FLOAT: t->store_double(p, s.d); break;
    default: t->store_complex(p, CMPLX(s.re, s.im)); break;
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

/* bfloat16 <-> float: the upper half of the float's bits; narrowing rounds
 * to nearest even and writes 0xffff for NaN (the copy path's NaN, below) */
__attribute__((target("avx2"))) static void bf16_to_f32_avx2(float *o, const uint16_t *in, int64_t n)
{
    int64_t k = 0;
    for (; k + 8 <= n; k += 8) {
        __m256i w = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(in + k)));
        _mm256_storeu_si256((__m256i *)(o + k), _mm256_slli_epi32(w, 16));
    }
    for (; k < n; k++) {
        uint32_t u = (uint32_t)in[k] << 16;
        memcpy(&o[k], &u, 4);
    }
}

__attribute__((target("avx2"))) static void f32_to_bf16_avx2(uint16_t *o, const uint32_t *in, int64_t n)
{
    int64_t k = 0;
    const __m256i one = _mm256_set1_epi32(1), bias = _mm256_set1_epi32(0x7fff),
                  absm = _mm256_set1_epi32(0x7fffffff), inf = _mm256_set1_epi32(0x7f800000),
                  nan = _mm256_set1_epi32(0xffff);
    for (; k + 8 <= n; k += 8) {
        __m256i u = _mm256_loadu_si256((const __m256i *)(in + k));
        __m256i r = _mm256_add_epi32(_mm256_add_epi32(u, bias), _mm256_and_si256(_mm256_srli_epi32(u, 16), one));
        r = _mm256_srli_epi32(r, 16);
        __m256i isnan = _mm256_cmpgt_epi32(_mm256_and_si256(u, absm), inf);
        r = _mm256_blendv_epi8(r, nan, isnan);
        __m256i p = _mm256_permute4x64_epi64(_mm256_packus_epi32(r, r), 0x08);
        _mm_storeu_si128((__m128i *)(o + k), _mm256_castsi256_si128(p));
    }
    for (; k < n; k++) {
        uint32_t u = in[k];
        uint16_t r = (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
        o[k] = (u & 0x7fffffffu) > 0x7f800000u ? 0xffff : r;
    }
}

bool tsr__cpu_avx2(void)
{
#if defined(__x86_64__) || defined(__i386__)
    static int have = -1;
    if (have < 0) {
        __builtin_cpu_init();
        have = __builtin_cpu_supports("avx2");
    }
    return have;
#else
    return false;
#endif
}

static bool has_f16c(void)
{
    static int have = -1;
#ifdef __clang__
    /* clang 14 (the fuzz build) does not know "f16c"; every AVX2 CPU has it */
    if (have < 0) have = tsr__cpu_avx2();
#else
    if (have < 0) have = __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx2");
#endif
    return have;
}

/* Returns true when it converted. */
static bool convert_16bit_contiguous(tsr_dtype dt, char *o, tsr_dtype st, const char *in, int64_t n)
{
    if (dt == TSR_FLOAT32 && st == TSR_BFLOAT16 && tsr__cpu_avx2()) {
        bf16_to_f32_avx2((float *)o, (const uint16_t *)in, n);
        return true;
    }
    if (dt == TSR_BFLOAT16 && st == TSR_FLOAT32 && tsr__cpu_avx2()) {
        f32_to_bf16_avx2((uint16_t *)o, (const uint32_t *)in, n);
        return true;
    }
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

#ifndef __clang__   /* clang 14 (the fuzz build) leaves the clones' symbol undefined */
__attribute__((target_clones("avx2", "default")))
#endif
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
    /* Every other pair: through the source category's widest value, which
     * is what a scalar of that kind would carry. */
    const tsr_dtype_traits *dtr = tsr_dtype_traits_of(dt), *str = tsr_dtype_traits_of(st);
    if (!dtr || !str) return;
    switch (str->category) {
    case TSR_CAT_BOOL: case TSR_CAT_INTEGRAL:
        for (int64_t k = 0; k < n; k++)
            dtr->store_int64(o + k * dst_stride, str->load_int64(in + k * src_stride));
        break;
    case TSR_CAT_FLOATING:
        for (int64_t k = 0; k < n; k++)
            dtr->store_double(o + k * dst_stride, str->load_double(in + k * src_stride));
        break;
    default:
        for (int64_t k = 0; k < n; k++)
            dtr->store_complex(o + k * dst_stride, str->load_complex(in + k * src_stride));
        break;
    }
}

/* c10::overflows, as observed in 1.13 (fill_, full): integers within their
 * range (an unsigned type also accepts -max..max; int64 takes any integer),
 * floats within ±max unless infinite or NaN, complex parts each within the
 * ±max of the compute type's real part (1.13's fill kernel converts a
 * complex32 value to c10::complex<float>); bool never overflows. */
int tsr_scalar_check_fits(tsr_scalar s, tsr_dtype d)
{
    const tsr_dtype_traits *t = tsr_dtype_traits_of(d);
    if (!t) return 0;
    double re, im;
    tsr_scalar_to_complex(s, &re, &im);
    bool is_int = s.kind == TSR_SCALAR_BOOL || s.kind == TSR_SCALAR_INT;
    bool bad = false;
    tsr_iinfo ii;
    tsr_finfo fi;
    switch (t->category) {
    case TSR_CAT_BOOL: return 0;
    case TSR_CAT_INTEGRAL:
        tsr_dtype_iinfo(d, &ii);
        if (ii.bits == 64) {
            if (is_int) return 0;
            bad = im != 0 || !(re >= -9223372036854775808.0 && re < 9223372036854775808.0);
        } else {
            int64_t lo = ii.min ? ii.min : -(int64_t)ii.max, hi = (int64_t)ii.max;
            if (is_int) bad = s.i < lo || s.i > hi;
            else bad = im != 0 || !(re >= (double)ii.min && re <= (double)hi); /* c10 overflows: a float below lowest() */
        }
        break;
    case TSR_CAT_FLOATING:
        tsr_dtype_finfo(d, &fi);
        bad = im != 0 || (isfinite(re) && (re > fi.max || re < -fi.max));
        break;
    default:
        tsr_dtype_finfo(tsr_dtype_to_real(t->compute), &fi);
        bad = (isfinite(re) && fabs(re) > fi.max) || (isfinite(im) && fabs(im) > fi.max);
        break;
    }
    if (bad) {
        tsr_error_set(TSR_ERR_RUNTIME, "value cannot be converted to type %s without overflow", t->cxx_name);
        return -1;
    }
    return 0;
}
