/* runtime/dtype.c — dtype traits table (from TSR_DTYPES), lookups, finfo/iinfo,
 * and float16/bfloat16 conversions transcribed from c10/util/Half.h
 * (fp16_ieee_from_fp32_value) and c10/util/BFloat16.h (round_to_nearest_even). */
#include <stdio.h>
#include <complex.h>
#include <math.h>
#include <string.h>
#include <float.h>
#include "dtype.h"
#include "error.h"

/* ---- load/store, generated per dtype from the X-macro's LD/ST columns ---- */

/* Storage ↔ compute value, by the LD/ST column of a row. */
#define TSR_LD_PLAIN(T, C, p) ((C) * (const T *)(p))
#define TSR_ST_PLAIN(T, p, x) (*(T *)(p) = (T)(x))
#define TSR_LD_BOOL(T, C, p) (*(const uint8_t *)(p) != 0)       /* any nonzero byte is true */
#define TSR_ST_BOOL(T, p, x) (*(uint8_t *)(p) = (uint8_t)((x) != 0))
#define TSR_LD_HALF(T, C, p) tsr_half_to_float(*(const tsr_half *)(p))
#define TSR_ST_HALF(T, p, x) (*(tsr_half *)(p) = tsr_float_to_half(x))
#define TSR_LD_BF16(T, C, p) tsr_bfloat16_to_float(*(const tsr_bfloat16 *)(p))
#define TSR_ST_BF16(T, p, x) (*(tsr_bfloat16 *)(p) = tsr_float_to_bfloat16(x))
#define TSR_LD_CHALF(T, C, p) \
    CMPLXF(tsr_half_to_float(((const tsr_chalf *)(p))->re), tsr_half_to_float(((const tsr_chalf *)(p))->im))
#define TSR_ST_CHALF(T, p, x) \
    (*(tsr_chalf *)(p) = (tsr_chalf){tsr_float_to_half(crealf(x)), tsr_float_to_half(cimagf(x))})

/* x86's float → int conversions as 1.13 reaches them: a 32-bit convert for the
 * narrow integers (out of range → INT32_MIN, then wraps), a 64-bit one for int64. */
static int64_t d2i32(double x)
{
    if (!(x > -2147483649.0 && x < 2147483648.0)) return INT32_MIN;
    return (int32_t)x;
}

static int64_t d2i64(double x)
{
    if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0)) return INT64_MIN;
    return (int64_t)x;
}

/* The category tests are constants in each instance, so every function keeps
 * one branch; the other branches only have to compile. A complex converted to
 * a real type keeps its real part (C11 6.3.1.7). */
#define X(ID, num, nm, al, kn, sn, T, C, CD, R, A, AD, cat, cxx, tm, sh, LD, ST, re, cx, meth)            \
    static double load_double_##kn(const void *p) { return (double)LD(T, C, p); }                 \
    static double _Complex load_complex_##kn(const void *p) { return (double _Complex)LD(T, C, p); } \
    static int64_t load_int64_##kn(const void *p)                                                 \
    {                                                                                             \
        if (TSR_CAT_##cat == TSR_CAT_INTEGRAL || TSR_CAT_##cat == TSR_CAT_BOOL)                   \
            return (int64_t)LD(T, C, p);                                                          \
        return d2i64((double)LD(T, C, p));                                                        \
    }                                                                                             \
    static void store_double_##kn(void *p, double v)                                              \
    {                                                                                             \
        if (TSR_CAT_##cat == TSR_CAT_INTEGRAL) ST(T, p, (C)(sizeof(T) < 8 ? d2i32(v) : d2i64(v))); \
        else ST(T, p, (C)v);                                                                      \
    }                                                                                             \
    static void store_complex_##kn(void *p, double _Complex v)                                    \
    {                                                                                             \
        if (TSR_CAT_##cat == TSR_CAT_INTEGRAL) store_double_##kn(p, creal(v));                    \
        else if (TSR_CAT_##cat == TSR_CAT_BOOL) ST(T, p, creal(v) != 0);                          \
        else ST(T, p, (C)v);                                                                      \
    }                                                                                             \
    static void store_int64_##kn(void *p, int64_t v) { ST(T, p, (C)v); }
TSR_DTYPES(X)
#undef X

/* ---- the traits table ---- */

const tsr_dtype_traits tsr__dtype_traits[TSR_DTYPE_SLOTS] = {
#define X(ID, num, nm, al, kn, sn, T, C, CD, R, A, AD, cat, cxx, tm, sh, LD, ST, re, cx, meth)      \
    [num] = { .name = nm, .alias = al, .scalar_name = #sn,                                  \
              .tensor_type = #sn "Tensor", .storage_type = #sn "Storage",                   \
              .cxx_name = cxx, .typemeta_name = tm, .short_name = sh, .method = meth,                       \
              .itemsize = sizeof(T),                         \
              .category = TSR_CAT_##cat, .is_signed = TSR_CAT_##cat != TSR_CAT_BOOL && TSR_##ID != TSR_UINT8, \
              .number = TSR_##ID, .compute = TSR_##CD, .acc = TSR_##AD, .to_real = TSR_##re, .to_complex = TSR_##cx,   \
              .load_double = load_double_##kn, .load_complex = load_complex_##kn,           \
              .load_int64 = load_int64_##kn, .store_double = store_double_##kn,             \
              .store_complex = store_complex_##kn, .store_int64 = store_int64_##kn },
    TSR_DTYPES(X)
#undef X
};
#define traits tsr__dtype_traits
_Static_assert(sizeof traits / sizeof traits[0] == TSR_DTYPE_SLOTS, "ORDER DTYPE: traits");

static const tsr_dtype list_order[] = {
#define X(ID, ...) TSR_##ID,
    TSR_DTYPES(X)
#undef X
};
_Static_assert(sizeof list_order / sizeof list_order[0] == TSR_NDTYPES, "ORDER DTYPE: list_order");

const tsr_dtype_traits *tsr_dtype_traits_of(tsr_dtype d)
{
    return tsr_dtype_valid(d) ? &traits[d] : NULL;
}

const char *tsr_dtype_name(tsr_dtype d) { return tsr_dtype_valid(d) ? traits[d].name : "undefined"; }
const char *tsr_dtype_scalar_name(tsr_dtype d) { return tsr_dtype_valid(d) ? traits[d].scalar_name : "Undefined"; }

const char *tsr_dtype_aten_type_string(tsr_dtype d, char *buf, size_t n)
{
    bool legacy = d == TSR_UINT8 || d == TSR_INT8 || d == TSR_INT16 || d == TSR_INT32 || d == TSR_INT64 ||
                  d == TSR_FLOAT16 || d == TSR_FLOAT32 || d == TSR_FLOAT64;
    snprintf(buf, n, legacy ? "torch.%sTensor" : "CPU%sType", tsr_dtype_scalar_name(d));
    return buf;
}
bool tsr_dtype_is_signed(tsr_dtype d) { return tsr_dtype_valid(d) && traits[d].is_signed; }

bool tsr_dtype_is_integral(tsr_dtype d, bool include_bool)
{
    if (!tsr_dtype_valid(d)) return false;
    return traits[d].category == TSR_CAT_INTEGRAL || (include_bool && traits[d].category == TSR_CAT_BOOL);
}

tsr_dtype tsr_dtype_to_real(tsr_dtype d) { return tsr_dtype_valid(d) ? traits[d].to_real : d; }
tsr_dtype tsr_dtype_to_complex(tsr_dtype d) { return tsr_dtype_valid(d) ? traits[d].to_complex : TSR_DTYPE_UNDEFINED; }

tsr_dtype tsr_dtype_from_name(const char *name)
{
    if (!name) return TSR_DTYPE_UNDEFINED;
    for (int i = 0; i < TSR_NDTYPES; i++) {
        const tsr_dtype_traits *t = &traits[list_order[i]];
        if (strcmp(name, t->name) == 0 || (t->alias && strcmp(name, t->alias) == 0))
            return list_order[i];
    }
    return TSR_DTYPE_UNDEFINED;
}

tsr_dtype tsr_dtype_from_tensor_type(const char *name)
{
    for (int i = 0; name && i < TSR_NDTYPES; i++)
        if (strcmp(name, traits[list_order[i]].tensor_type) == 0) return list_order[i];
    return TSR_DTYPE_UNDEFINED;
}

tsr_dtype tsr_dtype_from_storage_type(const char *name)
{
    for (int i = 0; name && i < TSR_NDTYPES; i++)
        if (strcmp(name, traits[list_order[i]].storage_type) == 0) return list_order[i];
    return TSR_DTYPE_UNDEFINED;
}

int tsr_dtype_index(tsr_dtype d)
{
    for (int i = 0; i < TSR_NDTYPES; i++)
        if (list_order[i] == d) return i;
    return -1;
}

tsr_dtype tsr_dtype_at_index(int i)
{
    return i >= 0 && i < TSR_NDTYPES ? list_order[i] : TSR_DTYPE_UNDEFINED;
}

/* ---- finfo / iinfo (values checked against torch.finfo / torch.iinfo) ---- */

int tsr_dtype_finfo(tsr_dtype d, tsr_finfo *out)
{
    tsr_dtype r = tsr_dtype_to_real(d);
    switch (r) {
    case TSR_FLOAT16:
        *out = (tsr_finfo){16, 0.0009765625, 65504.0, -65504.0, 6.103515625e-05, 6.103515625e-05, 0.001, r};
        return 0;
    case TSR_BFLOAT16:
        *out = (tsr_finfo){16, 0.0078125, 3.3895313892515355e+38, -3.3895313892515355e+38,
                           1.1754943508222875e-38, 1.1754943508222875e-38, 0.01, r};
        return 0;
    case TSR_FLOAT32:
        *out = (tsr_finfo){32, FLT_EPSILON, FLT_MAX, -FLT_MAX, FLT_MIN, FLT_MIN, 1e-06, r};
        return 0;
    case TSR_FLOAT64:
        *out = (tsr_finfo){64, DBL_EPSILON, DBL_MAX, -DBL_MAX, DBL_MIN, DBL_MIN, 1e-15, r};
        return 0;
    default:
        tsr_error_set(TSR_ERR_TYPE, "torch.finfo() requires a floating point input type. "
                      "Use torch.iinfo to handle 'torch.finfo'");
        return -1;
    }
}

int tsr_dtype_iinfo(tsr_dtype d, tsr_iinfo *out)
{
    switch (d) {
    case TSR_UINT8: *out = (tsr_iinfo){8, 0, UINT8_MAX, d}; return 0;
    case TSR_INT8: *out = (tsr_iinfo){8, INT8_MIN, INT8_MAX, d}; return 0;
    case TSR_INT16: *out = (tsr_iinfo){16, INT16_MIN, INT16_MAX, d}; return 0;
    case TSR_INT32: *out = (tsr_iinfo){32, INT32_MIN, INT32_MAX, d}; return 0;
    case TSR_INT64: *out = (tsr_iinfo){64, INT64_MIN, INT64_MAX, d}; return 0;
    case TSR_BOOL:
        tsr_error_set(TSR_ERR_TYPE, "torch.bool is not supported by torch.iinfo");
        return -1;
    default:
        tsr_error_set(TSR_ERR_TYPE, "torch.iinfo() requires an integer input type. "
                      "Use torch.finfo to handle 'torch.iinfo'");
        return -1;
    }
}

/* ---- default dtype ---- */

static tsr_dtype default_dtype = TSR_FLOAT32;

tsr_dtype tsr_default_dtype(void) { return default_dtype; }

int tsr_set_default_dtype(tsr_dtype d)
{
    if (!tsr_dtype_is_floating(d)) {
        tsr_error_set(TSR_ERR_TYPE, "only floating-point types are supported as the default type");
        return -1;
    }
    default_dtype = d;
    return 0;
}

/* ---- 16-bit floats ---- */

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

float tsr_half_to_float(tsr_half h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    if (exp == 0x1f) return u2f(sign | 0x7f800000 | (man << 13));
    if (exp == 0) {
        float v = (float)man * 0x1p-24f;      /* exact: subnormal or zero */
        return sign ? -v : v;
    }
    return u2f(sign | ((exp + 112) << 23) | (man << 13));
}

/* c10 fp16_ieee_from_fp32_value: the float unit does the rounding to nearest even. */
tsr_half tsr_float_to_half(float f)
{
    const float scale_to_inf = 0x1.0p+112f, scale_to_zero = 0x1.0p-110f;
    volatile float base = (fabsf(f) * scale_to_inf) * scale_to_zero;
    const uint32_t w = f2u(f), shl1_w = w + w, sign = w & 0x80000000u;
    uint32_t bias = shl1_w & 0xff000000u;
    if (bias < 0x71000000u) bias = 0x71000000u;
    base = u2f((bias >> 1) + 0x07800000u) + base;
    const uint32_t bits = f2u(base);
    const uint32_t exp_bits = (bits >> 13) & 0x00007c00u, mantissa_bits = bits & 0x00000fffu;
    const uint32_t nonsign = exp_bits + mantissa_bits;
    return (tsr_half)((sign >> 16) | (shl1_w > 0xff000000u ? 0x7e00u : nonsign));
}

/* PyTorch converts double → Half through float (c10::Half has a float
 * constructor only), so a double is rounded twice. */
tsr_half tsr_double_to_half(double d) { return tsr_float_to_half((float)d); }

float tsr_bfloat16_to_float(tsr_bfloat16 b) { return u2f((uint32_t)b << 16); }

tsr_bfloat16 tsr_float_to_bfloat16(float f)
{
    if (isnan(f)) return 0x7fc0;
    uint32_t u = f2u(f);
    uint32_t rounding_bias = ((u >> 16) & 1) + 0x7fffu;
    return (tsr_bfloat16)((u + rounding_bias) >> 16);
}

tsr_bfloat16 tsr_double_to_bfloat16(double d) { return tsr_float_to_bfloat16((float)d); }

const char *tsr_dtype_typemeta_name(tsr_dtype d)
{
    return tsr_dtype_valid(d) ? traits[d].typemeta_name : "unknown";
}
