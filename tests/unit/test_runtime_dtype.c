/* tests/unit/test_runtime_dtype.c — dtype traits, lookups, finfo/iinfo, and
 * float16/bfloat16 conversions (whole bit-pattern walks; edge cases pasted
 * from torch 1.13). */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "tsr.h"

/* generated from torch 1.13: x.half() / x.bfloat16() of float32 bit patterns (scalar conversions) */
static const struct { uint32_t f; uint16_t h, b; } f32_cases[] = {
    {0x00000000, 0x0000, 0x0000},
    {0x80000000, 0x8000, 0x8000},
    {0x3f800000, 0x3c00, 0x3f80},
    {0x7f800000, 0x7c00, 0x7f80},
    {0xff800000, 0xfc00, 0xff80},
    {0x7fc00000, 0x7e00, 0xffff},
    {0xffc00000, 0xfe00, 0xffff},
    {0x7f800001, 0x7e00, 0xffff},
    {0x7fa00000, 0x7e00, 0xffff},
    {0xff812345, 0xfe00, 0xffff},
    {0x477fe000, 0x7bff, 0x4780},
    {0x477fefff, 0x7bff, 0x4780},
    {0x477ff000, 0x7c00, 0x4780},
    {0x477ff001, 0x7c00, 0x4780},
    {0x47800000, 0x7c00, 0x4780},
    {0x387fc000, 0x03ff, 0x3880},
    {0x38800000, 0x0400, 0x3880},
    {0x33800000, 0x0001, 0x3380},
    {0x33000000, 0x0000, 0x3300},
    {0x33000001, 0x0001, 0x3300},
    {0x32ffffff, 0x0000, 0x3300},
    {0x33c00000, 0x0002, 0x33c0},
    {0x3f801000, 0x3c00, 0x3f80},
    {0x3f803000, 0x3c02, 0x3f80},
    {0x3f801001, 0x3c01, 0x3f80},
    {0x3f802fff, 0x3c01, 0x3f80},
    {0x3f808000, 0x3c04, 0x3f80},
    {0x3f818000, 0x3c0c, 0x3f82},
    {0x3f810000, 0x3c08, 0x3f81},
    {0x3f7fffff, 0x3c00, 0x3f80},
    {0x00000001, 0x0000, 0x0000},
    {0x807fffff, 0x8000, 0x8080},
    {0x7f7fffff, 0x7c00, 0x7f80},
    {0xff7fffff, 0xfc00, 0xff80},
    {0x3f800001, 0x3c00, 0x3f80},
    {0x3f807fff, 0x3c04, 0x3f80},
    {0x3f808001, 0x3c04, 0x3f81},
    {0x3f80ffff, 0x3c08, 0x3f81},
    {0x40490fdb, 0x4248, 0x4049},
    {0xc0490fdb, 0xc248, 0xc049},
    {0x3dcccccd, 0x2e66, 0x3dcd},
    {0x38000000, 0x0200, 0x3800},
    {0x37ffffff, 0x0200, 0x3800},
    {0x387fe000, 0x0400, 0x3880},
    {0x387ff000, 0x0400, 0x3880},
    {0x52e6b438, 0x7c00, 0x52e7},
    {0xf2a74de4, 0xfc00, 0xf2a7},
    {0x269e0d37, 0x0000, 0x269e},
    {0x6513270e, 0x7c00, 0x6513},
    {0xa6a3a450, 0x8000, 0xa6a4},
    {0x0c5c7fd0, 0x0000, 0x0c5c},
    {0x128b2f33, 0x0000, 0x128b},
    {0xd23f0824, 0xfc00, 0xd23f},
    {0x892f902b, 0x8000, 0x8930},
    {0x1818e811, 0x0000, 0x1819},
    {0x5d9dc9f8, 0x7c00, 0x5d9e},
    {0x9531985d, 0x8000, 0x9532},
    {0x0ed90475, 0x0000, 0x0ed9},
    {0xe8e25d94, 0xfc00, 0xe8e2},
    {0x81e74ef5, 0x8000, 0x81e7},
    {0x36f675cc, 0x007b, 0x36f6},
    {0x099950d8, 0x0000, 0x0999},
    {0x1600a35a, 0x0000, 0x1601},
    {0x6f03675a, 0x7c00, 0x6f03},
    {0x6b0d549b, 0x7c00, 0x6b0d},
    {0x11e20b8f, 0x0000, 0x11e2},
    {0x3d9c1724, 0x2ce1, 0x3d9c},
    {0x1738f7d9, 0x0000, 0x1739},
    {0x8d116ece, 0x8000, 0x8d11},
    {0x6cad4a26, 0x7c00, 0x6cad},
    {0x0f21ddb6, 0x0000, 0x0f22},
    {0xd3ac94af, 0xfc00, 0xd3ad},
    {0x90c192cf, 0x8000, 0x90c2},
    {0x1fb17c23, 0x0000, 0x1fb1},
    {0xf28c105d, 0xfc00, 0xf28c},
    {0x39263059, 0x0932, 0x3926},
    {0xa170b338, 0x8000, 0xa171},
    {0xa09f76b5, 0x8000, 0xa09f},
    {0x953f48f1, 0x8000, 0x953f},
    {0xf29d0da9, 0xfc00, 0xf29d},
    {0x0fd630f1, 0x0000, 0x0fd6},
    {0x93bd04cf, 0x8000, 0x93bd},
    {0x95e60af5, 0x8000, 0x95e6},
    {0x658cda14, 0x7c00, 0x658d},
    {0x0cb1e29c, 0x0000, 0x0cb2},
};
static const struct { double d; uint16_t h, b; } f64_cases[] = {
    {1.0004882812509095, 0x3c00, 0x3f80},
    {1.00048828125, 0x3c00, 0x3f80},
    {65519.99, 0x7bff, 0x4780},
    {65520.0, 0x7c00, 0x4780},
    {1e-08, 0x0000, 0x322c},
    {5.960464477539063e-08, 0x0001, 0x3380},
    {2.9802322387695312e-08, 0x0000, 0x3300},
    {2.980232241545089e-08, 0x0000, 0x3300},
    {1.0039062509313226, 0x3c04, 0x3f80},
    {3.0000001, 0x4200, 0x4040},
    {-0.0, 0x8000, 0x8000},
    {1e+300, 0x7c00, 0x7f80},
    {NAN, 0x7e00, 0x7fc0},
};

TEST(dtype_traits_table)
{
    static const struct { tsr_dtype d; int num; const char *name, *alias, *sname; int size; tsr_category cat; bool sgn; } want[] = {
        {TSR_UINT8, 0, "uint8", NULL, "Byte", 1, TSR_CAT_INTEGRAL, false},
        {TSR_INT8, 1, "int8", NULL, "Char", 1, TSR_CAT_INTEGRAL, true},
        {TSR_INT16, 2, "int16", "short", "Short", 2, TSR_CAT_INTEGRAL, true},
        {TSR_INT32, 3, "int32", "int", "Int", 4, TSR_CAT_INTEGRAL, true},
        {TSR_INT64, 4, "int64", "long", "Long", 8, TSR_CAT_INTEGRAL, true},
        {TSR_FLOAT16, 5, "float16", "half", "Half", 2, TSR_CAT_FLOATING, true},
        {TSR_FLOAT32, 6, "float32", "float", "Float", 4, TSR_CAT_FLOATING, true},
        {TSR_FLOAT64, 7, "float64", "double", "Double", 8, TSR_CAT_FLOATING, true},
        {TSR_COMPLEX32, 8, "complex32", "chalf", "ComplexHalf", 4, TSR_CAT_COMPLEX, true},
        {TSR_COMPLEX64, 9, "complex64", "cfloat", "ComplexFloat", 8, TSR_CAT_COMPLEX, true},
        {TSR_COMPLEX128, 10, "complex128", "cdouble", "ComplexDouble", 16, TSR_CAT_COMPLEX, true},
        {TSR_BOOL, 11, "bool", NULL, "Bool", 1, TSR_CAT_BOOL, false},
        {TSR_BFLOAT16, 15, "bfloat16", NULL, "BFloat16", 2, TSR_CAT_FLOATING, true},
    };
    CHECK_EQ_INT(sizeof want / sizeof want[0], TSR_NDTYPES);
    for (int i = 0; i < TSR_NDTYPES; i++) {
        const tsr_dtype_traits *t = tsr_dtype_traits_of(want[i].d);
        CHECK(t != NULL);
        if (!t) continue;
        CHECK_EQ_INT(want[i].d, want[i].num);
        CHECK_EQ_INT(tsr_dtype_at_index(i), want[i].d);
        CHECK_EQ_INT(tsr_dtype_index(want[i].d), i);
        CHECK_STR(t->name, want[i].name);
        CHECK_STR(t->scalar_name, want[i].sname);
        CHECK(want[i].alias ? t->alias && strcmp(t->alias, want[i].alias) == 0 : t->alias == NULL);
        CHECK_EQ_INT(t->itemsize, want[i].size);
        CHECK_EQ_INT(t->category, want[i].cat);
        CHECK_EQ_INT(t->is_signed, want[i].sgn);
        CHECK_EQ_INT(t->number, want[i].d);
        char buf[64];
        snprintf(buf, sizeof buf, "%sTensor", want[i].sname);
        CHECK_STR(t->tensor_type, buf);
        CHECK_EQ_INT(tsr_dtype_from_tensor_type(buf), want[i].d);
        snprintf(buf, sizeof buf, "%sStorage", want[i].sname);
        CHECK_STR(t->storage_type, buf);
        CHECK_EQ_INT(tsr_dtype_from_storage_type(buf), want[i].d);
        CHECK_EQ_INT(tsr_dtype_from_name(want[i].name), want[i].d);
        if (want[i].alias) CHECK_EQ_INT(tsr_dtype_from_name(want[i].alias), want[i].d);
        CHECK_EQ_INT(tsr_dtype_is_floating(want[i].d), want[i].cat == TSR_CAT_FLOATING);
        CHECK_EQ_INT(tsr_dtype_is_complex(want[i].d), want[i].cat == TSR_CAT_COMPLEX);
    }
    for (int d = 12; d <= 14; d++) CHECK(!tsr_dtype_valid((tsr_dtype)d));
    CHECK(!tsr_dtype_valid((tsr_dtype)16));
    CHECK(!tsr_dtype_valid(TSR_DTYPE_UNDEFINED));
    CHECK_EQ_INT(tsr_dtype_from_name("torch.float"), TSR_DTYPE_UNDEFINED);
    CHECK_EQ_INT(tsr_dtype_from_name("float8"), TSR_DTYPE_UNDEFINED);
    CHECK_EQ_INT(tsr_dtype_to_real(TSR_COMPLEX64), TSR_FLOAT32);
    CHECK_EQ_INT(tsr_dtype_to_complex(TSR_FLOAT64), TSR_COMPLEX128);
    CHECK_EQ_INT(tsr_dtype_to_complex(TSR_INT32), TSR_DTYPE_UNDEFINED);
    CHECK(tsr_dtype_is_integral(TSR_BOOL, true) && !tsr_dtype_is_integral(TSR_BOOL, false));
}

/* The X-macro's storage types agree with the traits' itemsize. */
TEST(dtype_xmacro_sizes)
{
#define X(ID, num, nm, al, kn, sn, ct, ...) CHECK_EQ_INT(sizeof(ct), tsr_dtype_itemsize(TSR_##ID));
    TSR_DTYPES(X)
#undef X
}

/* Every dtype's names as PyTorch 1.13 prints them: repr, ScalarType, the C++
 * type of fill_/full's overflow message, caffe2::TypeMeta (random_/uniform_
 * bounds messages), and the :table short name; with the type traits. */
TEST(dtype_traits_names_walk)
{
    static const struct {
        tsr_dtype d; const char *repr, *sname, *cxx, *typemeta, *shortn;
        int size; tsr_dtype compute, acc, real, cplx;
    } want[] = {
        {TSR_UINT8, "torch.uint8", "Byte", "uint8_t", "unsigned char", "u8", 1, TSR_INT64, TSR_INT64, TSR_UINT8, TSR_DTYPE_UNDEFINED},
        {TSR_INT8, "torch.int8", "Char", "int8_t", "signed char", "i8", 1, TSR_INT64, TSR_INT64, TSR_INT8, TSR_DTYPE_UNDEFINED},
        {TSR_INT16, "torch.int16", "Short", "int16_t", "short int", "i16", 2, TSR_INT64, TSR_INT64, TSR_INT16, TSR_DTYPE_UNDEFINED},
        {TSR_INT32, "torch.int32", "Int", "int", "int", "i32", 4, TSR_INT64, TSR_INT64, TSR_INT32, TSR_DTYPE_UNDEFINED},
        {TSR_INT64, "torch.int64", "Long", "int64_t", "long int", "i64", 8, TSR_INT64, TSR_INT64, TSR_INT64, TSR_DTYPE_UNDEFINED},
        {TSR_FLOAT16, "torch.float16", "Half", "at::Half", "c10::Half", "f16", 2, TSR_FLOAT32, TSR_FLOAT32, TSR_FLOAT16, TSR_COMPLEX32},
        {TSR_FLOAT32, "torch.float32", "Float", "float", "float", "f32", 4, TSR_FLOAT32, TSR_FLOAT64, TSR_FLOAT32, TSR_COMPLEX64},
        {TSR_FLOAT64, "torch.float64", "Double", "double", "double", "f64", 8, TSR_FLOAT64, TSR_FLOAT64, TSR_FLOAT64, TSR_COMPLEX128},
        {TSR_COMPLEX32, "torch.complex32", "ComplexHalf", "c10::complex<float>", "c10::complex<c10::Half>", "c32", 4,
         TSR_COMPLEX64, TSR_COMPLEX64, TSR_FLOAT16, TSR_COMPLEX32},
        {TSR_COMPLEX64, "torch.complex64", "ComplexFloat", "c10::complex<float>", "c10::complex<float>", "c64", 8,
         TSR_COMPLEX64, TSR_COMPLEX128, TSR_FLOAT32, TSR_COMPLEX64},
        {TSR_COMPLEX128, "torch.complex128", "ComplexDouble", "c10::complex<double>", "c10::complex<double>", "c128", 16,
         TSR_COMPLEX128, TSR_COMPLEX128, TSR_FLOAT64, TSR_COMPLEX128},
        {TSR_BOOL, "torch.bool", "Bool", "bool", "bool", "bool", 1, TSR_BOOL, TSR_BOOL, TSR_BOOL, TSR_DTYPE_UNDEFINED},
        {TSR_BFLOAT16, "torch.bfloat16", "BFloat16", "at::BFloat16", "c10::BFloat16", "bf16", 2, TSR_FLOAT32, TSR_FLOAT32,
         TSR_BFLOAT16, TSR_DTYPE_UNDEFINED},
    };
    _Static_assert(sizeof want / sizeof want[0] == TSR_NDTYPES, "one row per dtype");
    static const char *const methods[TSR_NDTYPES] = {
        "byte", "char", "short", "int", "long", "half", "float", "double", "chalf", "cfloat", "cdouble", "bool", "bfloat16",
    };
    for (int i = 0; i < TSR_NDTYPES; i++) {
        const tsr_dtype_traits *t = tsr_dtype_traits_of(tsr_dtype_at_index(i));
        CHECK(t != NULL);
        if (!t) continue;
        char repr[32];
        snprintf(repr, sizeof repr, "torch.%s", t->name);
        CHECK_EQ_INT(t->number, want[i].d);
        CHECK_STR(repr, want[i].repr);
        CHECK_STR(t->scalar_name, want[i].sname);
        CHECK_STR(t->cxx_name, want[i].cxx);
        CHECK_STR(t->typemeta_name, want[i].typemeta);
        CHECK_STR(tsr_dtype_typemeta_name(want[i].d), want[i].typemeta);
        CHECK_STR(t->short_name, want[i].shortn);
        CHECK_STR(t->method, methods[i]);
        CHECK_EQ_INT(t->itemsize, want[i].size);
        CHECK_EQ_INT(t->compute, want[i].compute);
        CHECK_EQ_INT(t->acc, want[i].acc);
        CHECK_EQ_INT(t->to_real, want[i].real);
        CHECK_EQ_INT(tsr_dtype_to_real(want[i].d), want[i].real);
        CHECK_EQ_INT(t->to_complex, want[i].cplx);
        CHECK_EQ_INT(tsr_dtype_to_complex(want[i].d), want[i].cplx);
    }
}

/* generated from torch 1.13: torch.tensor(v, dtype=float64 / int64 / complex128).to(dt),
 * read back as complex128, per dtype in list order */
static const double d_in[7] = {1.0, -2.0, 0.1, 300.0, -1e10, 65520.0, 1e300};
static const double d_out[TSR_NDTYPES][7][2] = {
    {{0x1.0000000000000p+0, 0x0.0p+0}, {0x1.fc00000000000p+7, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}, {0x1.6000000000000p+5, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}, {0x1.e000000000000p+7, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}}, // torch.uint8
    {{0x1.0000000000000p+0, 0x0.0p+0}, {-0x1.0000000000000p+1, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}, {0x1.6000000000000p+5, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}, {-0x1.0000000000000p+4, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}}, // torch.int8
    {{0x1.0000000000000p+0, 0x0.0p+0}, {-0x1.0000000000000p+1, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}, {0x1.2c00000000000p+8, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}, {-0x1.0000000000000p+4, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}}, // torch.int16
    {{0x1.0000000000000p+0, 0x0.0p+0}, {-0x1.0000000000000p+1, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}, {0x1.2c00000000000p+8, 0x0.0p+0}, {-0x1.0000000000000p+31, 0x0.0p+0}, {0x1.ffe0000000000p+15, 0x0.0p+0}, {-0x1.0000000000000p+31, 0x0.0p+0}}, // torch.int32
    {{0x1.0000000000000p+0, 0x0.0p+0}, {-0x1.0000000000000p+1, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}, {0x1.2c00000000000p+8, 0x0.0p+0}, {-0x1.2a05f20000000p+33, 0x0.0p+0}, {0x1.ffe0000000000p+15, 0x0.0p+0}, {-0x1.0000000000000p+63, 0x0.0p+0}}, // torch.int64
    {{0x1.0000000000000p+0, 0x0.0p+0}, {-0x1.0000000000000p+1, 0x0.0p+0}, {0x1.9980000000000p-4, 0x0.0p+0}, {0x1.2c00000000000p+8, 0x0.0p+0}, {-INFINITY, 0x0.0p+0}, {INFINITY, 0x0.0p+0}, {INFINITY, 0x0.0p+0}}, // torch.float16
    {{0x1.0000000000000p+0, 0x0.0p+0}, {-0x1.0000000000000p+1, 0x0.0p+0}, {0x1.99999a0000000p-4, 0x0.0p+0}, {0x1.2c00000000000p+8, 0x0.0p+0}, {-0x1.2a05f20000000p+33, 0x0.0p+0}, {0x1.ffe0000000000p+15, 0x0.0p+0}, {INFINITY, 0x0.0p+0}}, // torch.float32
    {{0x1.0000000000000p+0, 0x0.0p+0}, {-0x1.0000000000000p+1, 0x0.0p+0}, {0x1.999999999999ap-4, 0x0.0p+0}, {0x1.2c00000000000p+8, 0x0.0p+0}, {-0x1.2a05f20000000p+33, 0x0.0p+0}, {0x1.ffe0000000000p+15, 0x0.0p+0}, {0x1.7e43c8800759cp+996, 0x0.0p+0}}, // torch.float64
    {{0x1.0000000000000p+0, 0x0.0p+0}, {-0x1.0000000000000p+1, 0x0.0p+0}, {0x1.9980000000000p-4, 0x0.0p+0}, {0x1.2c00000000000p+8, 0x0.0p+0}, {-INFINITY, 0x0.0p+0}, {INFINITY, 0x0.0p+0}, {INFINITY, 0x0.0p+0}}, // torch.complex32
    {{0x1.0000000000000p+0, 0x0.0p+0}, {-0x1.0000000000000p+1, 0x0.0p+0}, {0x1.99999a0000000p-4, 0x0.0p+0}, {0x1.2c00000000000p+8, 0x0.0p+0}, {-0x1.2a05f20000000p+33, 0x0.0p+0}, {0x1.ffe0000000000p+15, 0x0.0p+0}, {INFINITY, 0x0.0p+0}}, // torch.complex64
    {{0x1.0000000000000p+0, 0x0.0p+0}, {-0x1.0000000000000p+1, 0x0.0p+0}, {0x1.999999999999ap-4, 0x0.0p+0}, {0x1.2c00000000000p+8, 0x0.0p+0}, {-0x1.2a05f20000000p+33, 0x0.0p+0}, {0x1.ffe0000000000p+15, 0x0.0p+0}, {0x1.7e43c8800759cp+996, 0x0.0p+0}}, // torch.complex128
    {{0x1.0000000000000p+0, 0x0.0p+0}, {0x1.0000000000000p+0, 0x0.0p+0}, {0x1.0000000000000p+0, 0x0.0p+0}, {0x1.0000000000000p+0, 0x0.0p+0}, {0x1.0000000000000p+0, 0x0.0p+0}, {0x1.0000000000000p+0, 0x0.0p+0}, {0x1.0000000000000p+0, 0x0.0p+0}}, // torch.bool
    {{0x1.0000000000000p+0, 0x0.0p+0}, {-0x1.0000000000000p+1, 0x0.0p+0}, {0x1.9a00000000000p-4, 0x0.0p+0}, {0x1.2c00000000000p+8, 0x0.0p+0}, {-0x1.2a00000000000p+33, 0x0.0p+0}, {0x1.0000000000000p+16, 0x0.0p+0}, {INFINITY, 0x0.0p+0}}, // torch.bfloat16
};
static const int64_t i_in[4] = {INT64_MAX, (INT64_C(1) << 53) + 1, -3, 16777217};
static const double i_out[TSR_NDTYPES][4][2] = {
    {{0x1.fe00000000000p+7, 0x0.0p+0}, {0x1.0000000000000p+0, 0x0.0p+0}, {0x1.fa00000000000p+7, 0x0.0p+0}, {0x1.0000000000000p+0, 0x0.0p+0}}, // torch.uint8
    {{-0x1.0000000000000p+0, 0x0.0p+0}, {0x1.0000000000000p+0, 0x0.0p+0}, {-0x1.8000000000000p+1, 0x0.0p+0}, {0x1.0000000000000p+0, 0x0.0p+0}}, // torch.int8
    {{-0x1.0000000000000p+0, 0x0.0p+0}, {0x1.0000000000000p+0, 0x0.0p+0}, {-0x1.8000000000000p+1, 0x0.0p+0}, {0x1.0000000000000p+0, 0x0.0p+0}}, // torch.int16
    {{-0x1.0000000000000p+0, 0x0.0p+0}, {0x1.0000000000000p+0, 0x0.0p+0}, {-0x1.8000000000000p+1, 0x0.0p+0}, {0x1.0000010000000p+24, 0x0.0p+0}}, // torch.int32
    {{0x1.0000000000000p+63, 0x0.0p+0}, {0x1.0000000000000p+53, 0x0.0p+0}, {-0x1.8000000000000p+1, 0x0.0p+0}, {0x1.0000010000000p+24, 0x0.0p+0}}, // torch.int64
    {{INFINITY, 0x0.0p+0}, {INFINITY, 0x0.0p+0}, {-0x1.8000000000000p+1, 0x0.0p+0}, {INFINITY, 0x0.0p+0}}, // torch.float16
    {{0x1.0000000000000p+63, 0x0.0p+0}, {0x1.0000000000000p+53, 0x0.0p+0}, {-0x1.8000000000000p+1, 0x0.0p+0}, {0x1.0000000000000p+24, 0x0.0p+0}}, // torch.float32
    {{0x1.0000000000000p+63, 0x0.0p+0}, {0x1.0000000000000p+53, 0x0.0p+0}, {-0x1.8000000000000p+1, 0x0.0p+0}, {0x1.0000010000000p+24, 0x0.0p+0}}, // torch.float64
    {{INFINITY, 0x0.0p+0}, {INFINITY, 0x0.0p+0}, {-0x1.8000000000000p+1, 0x0.0p+0}, {INFINITY, 0x0.0p+0}}, // torch.complex32
    {{0x1.0000000000000p+63, 0x0.0p+0}, {0x1.0000000000000p+53, 0x0.0p+0}, {-0x1.8000000000000p+1, 0x0.0p+0}, {0x1.0000000000000p+24, 0x0.0p+0}}, // torch.complex64
    {{0x1.0000000000000p+63, 0x0.0p+0}, {0x1.0000000000000p+53, 0x0.0p+0}, {-0x1.8000000000000p+1, 0x0.0p+0}, {0x1.0000010000000p+24, 0x0.0p+0}}, // torch.complex128
    {{0x1.0000000000000p+0, 0x0.0p+0}, {0x1.0000000000000p+0, 0x0.0p+0}, {0x1.0000000000000p+0, 0x0.0p+0}, {0x1.0000000000000p+0, 0x0.0p+0}}, // torch.bool
    {{0x1.0000000000000p+63, 0x0.0p+0}, {0x1.0000000000000p+53, 0x0.0p+0}, {-0x1.8000000000000p+1, 0x0.0p+0}, {0x1.0000000000000p+24, 0x0.0p+0}}, // torch.bfloat16
};
static const double c_in[3][2] = {{1, 2}, {-0.5, 3}, {0, 2}};
static const double c_out[TSR_NDTYPES][3][2] = {
    {{0x1.0000000000000p+0, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}}, // torch.uint8
    {{0x1.0000000000000p+0, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}}, // torch.int8
    {{0x1.0000000000000p+0, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}}, // torch.int16
    {{0x1.0000000000000p+0, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}}, // torch.int32
    {{0x1.0000000000000p+0, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}}, // torch.int64
    {{0x1.0000000000000p+0, 0x0.0p+0}, {-0x1.0000000000000p-1, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}}, // torch.float16
    {{0x1.0000000000000p+0, 0x0.0p+0}, {-0x1.0000000000000p-1, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}}, // torch.float32
    {{0x1.0000000000000p+0, 0x0.0p+0}, {-0x1.0000000000000p-1, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}}, // torch.float64
    {{0x1.0000000000000p+0, 0x1.0000000000000p+1}, {-0x1.0000000000000p-1, 0x1.8000000000000p+1}, {0x0.0p+0, 0x1.0000000000000p+1}}, // torch.complex32
    {{0x1.0000000000000p+0, 0x1.0000000000000p+1}, {-0x1.0000000000000p-1, 0x1.8000000000000p+1}, {0x0.0p+0, 0x1.0000000000000p+1}}, // torch.complex64
    {{0x1.0000000000000p+0, 0x1.0000000000000p+1}, {-0x1.0000000000000p-1, 0x1.8000000000000p+1}, {0x0.0p+0, 0x1.0000000000000p+1}}, // torch.complex128
    {{0x1.0000000000000p+0, 0x0.0p+0}, {0x1.0000000000000p+0, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}}, // torch.bool
    {{0x1.0000000000000p+0, 0x0.0p+0}, {-0x1.0000000000000p-1, 0x0.0p+0}, {0x0.0p+0, 0x0.0p+0}}, // torch.bfloat16
};

static bool same(double a, double b) { return a == b && signbit(a) == signbit(b); }

/* What a stored value reads back as, through every load; then storing that
 * value again gives the same bytes (load/store round trip). */
static void check_readback(const tsr_dtype_traits *t, const unsigned char *buf, const double want[2], const char *what, int k)
{
    double _Complex z = t->load_complex(buf);
    bool ok = same(creal(z), want[0]) && same(cimag(z), want[1]) && t->load_double(buf) == want[0];
    if (t->category == TSR_CAT_INTEGRAL || t->category == TSR_CAT_BOOL)
        ok = ok && (double)t->load_int64(buf) == want[0];
    if (!ok) fprintf(stderr, "  %s %s #%d: got (%a, %a), want (%a, %a)\n", t->name, what, k, creal(z), cimag(z), want[0], want[1]);
    CHECK(ok);
    unsigned char again[16] = {0};
    if (t->category == TSR_CAT_INTEGRAL || t->category == TSR_CAT_BOOL) t->store_int64(again, t->load_int64(buf));
    else if (t->category == TSR_CAT_FLOATING) t->store_double(again, t->load_double(buf));
    else t->store_complex(again, z);
    CHECK(memcmp(again, buf, (size_t)t->itemsize) == 0);
}

TEST(dtype_traits_load_store_walk)
{
    for (int i = 0; i < TSR_NDTYPES; i++) {
        const tsr_dtype_traits *t = tsr_dtype_traits_of(tsr_dtype_at_index(i));
        unsigned char buf[16];
        for (int k = 0; k < 7; k++) {
            memset(buf, 0, sizeof buf);
            t->store_double(buf, d_in[k]);
            check_readback(t, buf, d_out[i][k], "store_double", k);
            memset(buf, 0, sizeof buf);
            t->store_complex(buf, d_in[k]);
            check_readback(t, buf, d_out[i][k], "store_complex(real)", k);
        }
        for (int k = 0; k < 4; k++) {
            memset(buf, 0, sizeof buf);
            t->store_int64(buf, i_in[k]);
            check_readback(t, buf, i_out[i][k], "store_int64", k);
        }
        for (int k = 0; k < 3; k++) {
            memset(buf, 0, sizeof buf);
            t->store_complex(buf, CMPLX(c_in[k][0], c_in[k][1]));
            check_readback(t, buf, c_out[i][k], "store_complex", k);
        }
    }
}

TEST(dtype_finfo_iinfo)
{
    tsr_finfo f;
    CHECK_EQ_INT(tsr_dtype_finfo(TSR_FLOAT32, &f), 0);
    CHECK(f.bits == 32 && f.eps == 1.1920928955078125e-07 && f.max == 3.4028234663852886e+38 &&
          f.min == -3.4028234663852886e+38 && f.tiny == 1.1754943508222875e-38 && f.resolution == 1e-06);
    CHECK_EQ_INT(tsr_dtype_finfo(TSR_FLOAT16, &f), 0);
    CHECK(f.bits == 16 && f.eps == 0.0009765625 && f.max == 65504.0 && f.tiny == 6.103515625e-05 && f.resolution == 0.001);
    CHECK_EQ_INT(tsr_dtype_finfo(TSR_BFLOAT16, &f), 0);
    CHECK(f.eps == 0.0078125 && f.max == 3.3895313892515355e+38 && f.resolution == 0.01);
    CHECK_EQ_INT(tsr_dtype_finfo(TSR_FLOAT64, &f), 0);
    CHECK(f.eps == 2.220446049250313e-16 && f.smallest_normal == 2.2250738585072014e-308 && f.resolution == 1e-15);
    CHECK_EQ_INT(tsr_dtype_finfo(TSR_COMPLEX32, &f), 0);
    CHECK(f.bits == 16 && f.dtype == TSR_FLOAT16);
    CHECK_EQ_INT(tsr_dtype_finfo(TSR_COMPLEX128, &f), 0);
    CHECK(f.bits == 64 && f.dtype == TSR_FLOAT64);
    CHECK_EQ_INT(tsr_dtype_finfo(TSR_INT32, &f), -1);
    CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_TYPE);
    CHECK_STR(tsr_error_message(), "torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'");
    tsr_error_clear();
    tsr_iinfo ii;
    CHECK_EQ_INT(tsr_dtype_iinfo(TSR_UINT8, &ii), 0);
    CHECK(ii.bits == 8 && ii.min == 0 && ii.max == 255);
    CHECK_EQ_INT(tsr_dtype_iinfo(TSR_INT64, &ii), 0);
    CHECK(ii.bits == 64 && ii.min == INT64_MIN && ii.max == INT64_MAX);
    CHECK_EQ_INT(tsr_dtype_iinfo(TSR_BOOL, &ii), -1);
    CHECK_STR(tsr_error_message(), "torch.bool is not supported by torch.iinfo");
    tsr_error_clear();
    CHECK_EQ_INT(tsr_dtype_iinfo(TSR_FLOAT32, &ii), -1);
    CHECK_STR(tsr_error_message(), "torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'");
    tsr_error_clear();
}

TEST(dtype_default)
{
    CHECK_EQ_INT(tsr_default_dtype(), TSR_FLOAT32);
    CHECK_EQ_INT(tsr_set_default_dtype(TSR_INT32), -1);
    CHECK_STR(tsr_error_message(), "only floating-point types are supported as the default type");
    tsr_error_clear();
    CHECK_EQ_INT(tsr_set_default_dtype(TSR_COMPLEX64), -1);
    tsr_error_clear();
    CHECK_EQ_INT(tsr_set_default_dtype(TSR_FLOAT64), 0);
    CHECK_EQ_INT(tsr_default_dtype(), TSR_FLOAT64);
    CHECK_EQ_INT(tsr_set_default_dtype(TSR_FLOAT32), 0);
}

static uint32_t bits_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float float_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* Every half bit pattern survives half→float→half, except NaNs, which come
 * back as the canonical quiet NaN with their sign (as torch does). */
TEST(half_all_patterns_roundtrip)
{
    int bad = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        float f = tsr_half_to_float((tsr_half)h);
        tsr_half back = tsr_float_to_half(f);
        bool nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
        uint16_t want = nan ? (uint16_t)((h & 0x8000) | 0x7e00) : (uint16_t)h;
        if (back != want || nan != isnan(f)) bad++;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(tsr_half_to_float(0x3c00) == 1.0f);
    CHECK(tsr_half_to_float(0x0001) == 5.960464477539063e-08f);
    CHECK(tsr_half_to_float(0x7bff) == 65504.0f);
    CHECK(isinf(tsr_half_to_float(0xfc00)) && tsr_half_to_float(0xfc00) < 0);
    CHECK(bits_of(tsr_half_to_float(0x8000)) == 0x80000000u);
}

TEST(bfloat16_all_patterns_roundtrip)
{
    int bad = 0;
    for (uint32_t b = 0; b < 65536; b++) {
        float f = tsr_bfloat16_to_float((tsr_bfloat16)b);
        if (bits_of(f) != b << 16) bad++;
        tsr_bfloat16 back = tsr_float_to_bfloat16(f);
        bool nan = (b & 0x7f80) == 0x7f80 && (b & 0x7f);
        if (back != (nan ? 0x7fc0 : b)) bad++;
        /* the copy kernel's vectorised path: every NaN → 0xffff */
        tsr_bfloat16 kb;
        tsr_convert(TSR_BFLOAT16, &kb, 2, TSR_FLOAT32, &f, 4, 1);
        if (kb != (nan ? 0xffff : b)) bad++;
    }
    CHECK_EQ_INT(bad, 0);
}

TEST(float_to_16bit_rounding_matches_torch)
{
    int n = (int)(sizeof f32_cases / sizeof f32_cases[0]);
    for (int i = 0; i < n; i++) {
        float f = float_of(f32_cases[i].f);
        CHECK_EQ_INT(tsr_float_to_half(f), f32_cases[i].h);
        tsr_bfloat16 b;
        tsr_half h;
        tsr_convert(TSR_BFLOAT16, &b, 2, TSR_FLOAT32, &f, 4, 1);
        tsr_convert(TSR_FLOAT16, &h, 2, TSR_FLOAT32, &f, 4, 1);
        CHECK_EQ_INT(b, f32_cases[i].b);
        CHECK_EQ_INT(h, f32_cases[i].h);
        if (!isnan(f)) CHECK_EQ_INT(tsr_float_to_bfloat16(f), f32_cases[i].b);
    }
    n = (int)(sizeof f64_cases / sizeof f64_cases[0]);
    for (int i = 0; i < n; i++) {
        double d = f64_cases[i].d;
        CHECK_EQ_INT(tsr_double_to_half(d), f64_cases[i].h);
        CHECK_EQ_INT(tsr_double_to_bfloat16(d), f64_cases[i].b);
        tsr_half h;
        tsr_bfloat16 b;
        tsr_convert(TSR_FLOAT16, &h, 2, TSR_FLOAT64, &d, 8, 1);
        tsr_convert(TSR_BFLOAT16, &b, 2, TSR_FLOAT64, &d, 8, 1);
        CHECK_EQ_INT(h, f64_cases[i].h);
        CHECK_EQ_INT(b, f64_cases[i].b);
    }
}

/* Float→integer casts as 1.13 does them on x86 (values from the oracle). */
TEST(dtype_conversion_float_to_int)
{
    static const float in[] = {300.f, -1.f, -129.f, 1e10f, -1e10f, NAN, INFINITY, -INFINITY, 2.7f, -2.7f, 3e9f, 70000.f, -40000.f};
    static const int64_t u8[] = {44, 255, 127, 0, 0, 0, 0, 0, 2, 254, 0, 112, 192};
    static const int64_t i8[] = {44, -1, 127, 0, 0, 0, 0, 0, 2, -2, 0, 112, -64};
    static const int64_t i16[] = {300, -1, -129, 0, 0, 0, 0, 0, 2, -2, 0, 4464, 25536};
    static const int64_t i32[] = {300, -1, -129, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, 2, -2, INT32_MIN, 70000, -40000};
    static const int64_t i64[] = {300, -1, -129, 10000000000LL, -10000000000LL, INT64_MIN, INT64_MIN, INT64_MIN, 2, -2, 3000000000LL, 70000, -40000};
    struct { tsr_dtype d; const int64_t *want; } cases[] = {
        {TSR_UINT8, u8}, {TSR_INT8, i8}, {TSR_INT16, i16}, {TSR_INT32, i32}, {TSR_INT64, i64}};
    for (size_t c = 0; c < 5; c++)
        for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
            unsigned char buf[16];
            double d = in[i];
            tsr_convert(cases[c].d, buf, 8, TSR_FLOAT32, &in[i], 4, 1);
            CHECK_EQ_INT(tsr_scalar_load(cases[c].d, buf).i, cases[c].want[i]);
            tsr_convert(cases[c].d, buf, 8, TSR_FLOAT64, &d, 8, 1);
            CHECK_EQ_INT(tsr_scalar_load(cases[c].d, buf).i, cases[c].want[i]);
        }
    /* complex → bool and → int read the real part only */
    float c[2] = {0.f, 2.f};
    unsigned char b = 7;
    tsr_convert(TSR_BOOL, &b, 1, TSR_COMPLEX64, c, 8, 1);
    CHECK_EQ_INT(b, 0);
    int64_t big = INT64_MAX;
    tsr_half h;
    tsr_convert(TSR_FLOAT16, &h, 2, TSR_INT64, &big, 8, 1);
    CHECK_EQ_INT(h, 0x7c00);
}

/* fill_/full overflow checks and their C++ type names (oracle). */
TEST(scalar_check_fits)
{
    struct { tsr_scalar s; tsr_dtype d; const char *msg; } cases[] = {
        {tsr_scalar_float(1e300), TSR_UINT8, "value cannot be converted to type uint8_t without overflow"},
        {tsr_scalar_int(-1), TSR_UINT8, NULL},
        {tsr_scalar_float(1e300), TSR_INT8, "value cannot be converted to type int8_t without overflow"},
        {tsr_scalar_float(1e300), TSR_FLOAT16, "value cannot be converted to type at::Half without overflow"},
        {tsr_scalar_float(1e300), TSR_BOOL, NULL},
        {tsr_scalar_float(1e39), TSR_COMPLEX32, "value cannot be converted to type c10::complex<float> without overflow"},
        {tsr_scalar_float(1e300), TSR_BFLOAT16, "value cannot be converted to type at::BFloat16 without overflow"},
        {tsr_scalar_float(1e300), TSR_INT64, "value cannot be converted to type int64_t without overflow"},
        {tsr_scalar_float(1e300), TSR_FLOAT32, "value cannot be converted to type float without overflow"},
        {tsr_scalar_complex(1, 2), TSR_FLOAT64, "value cannot be converted to type double without overflow"},
        {tsr_scalar_float(NAN), TSR_INT32, "value cannot be converted to type int without overflow"},
        {tsr_scalar_int(1LL << 40), TSR_INT32, "value cannot be converted to type int without overflow"},
        {tsr_scalar_int(-32769), TSR_INT16, "value cannot be converted to type int16_t without overflow"},
        {tsr_scalar_int(65535), TSR_INT32, NULL},
        {tsr_scalar_float(INFINITY), TSR_FLOAT32, NULL},
        {tsr_scalar_float(1e300), TSR_COMPLEX128, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = tsr_scalar_check_fits(cases[i].s, cases[i].d);
        CHECK_EQ_INT(rc, cases[i].msg ? -1 : 0);
        if (cases[i].msg) CHECK_STR(tsr_error_message(), cases[i].msg);
        tsr_error_clear();
    }
}
