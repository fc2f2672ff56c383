/* tests/unit/test_runtime_factory.c — factories against torch 1.13: arange,
 * linspace and logspace values bit for bit (arrays pasted from the oracle),
 * their errors, eye, full, *_like. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "tsr.h"

/* linspace(0,1,20): 20 */
static const uint32_t lin_f32_a[] = {0x00000000, 0x3d579436, 0x3dd79436, 0x3e21af28, 0x3e579436, 0x3e86bca2, 0x3ea1af28, 0x3ebca1af, 0x3ed79436, 0x3ef286bd, 0x3f06bca2, 0x3f1435e5, 0x3f21af28, 0x3f2f286c, 0x3f3ca1af, 0x3f4a1af2, 0x3f579436, 0x3f650d79, 0x3f7286bd, 0x3f800000};
/* linspace(-3.3,7.1,37): 37 */
static const uint32_t lin_f32_b[] = {0xc0533333, 0xc040b60b, 0xc02e38e4, 0xc01bbbbc, 0xc0093e94, 0xbfed82d8, 0xbfc88889, 0xbfa38e3a, 0xbf7d27d4, 0xbf333335, 0xbed27d2c, 0xbdfa4fb8, 0x3e2aaaa0, 0x3ee93e90, 0x3f3e93e6, 0x3f844442, 0x3fa93e92, 0x3fce38e2, 0x3ff33331, 0x400c16c0, 0x401e93e8, 0x40311110, 0x40438e38, 0x40560b5f, 0x40688889, 0x407b05b1, 0x4086c16c, 0x40900000, 0x40993e94, 0x40a27d28, 0x40abbbbc, 0x40b4fa50, 0x40be38e4, 0x40c77777, 0x40d0b60b, 0x40d9f49f, 0x40e33333};
/* linspace(-1,1,7): 7 */
static const uint32_t lin_f32_c[] = {0xbf800000, 0xbf2aaaaa, 0xbeaaaaaa, 0xb3000000, 0x3eaaaaaa, 0x3f2aaaaa, 0x3f800000};
/* linspace(0,1,20 f64): 20 */
static const uint64_t lin_f64_a[] = {0x0000000000000000ULL, 0x3faaf286bca1af28ULL, 0x3fbaf286bca1af28ULL, 0x3fc435e50d79435eULL, 0x3fcaf286bca1af28ULL, 0x3fd0d79435e50d79ULL, 0x3fd435e50d79435eULL, 0x3fd79435e50d7943ULL, 0x3fdaf286bca1af28ULL, 0x3fde50d79435e50dULL, 0x3fe0d79435e50d79ULL, 0x3fe286bca1af286cULL, 0x3fe435e50d79435eULL, 0x3fe5e50d79435e50ULL, 0x3fe79435e50d7943ULL, 0x3fe9435e50d79436ULL, 0x3feaf286bca1af28ULL, 0x3feca1af286bca1bULL, 0x3fee50d79435e50eULL, 0x3ff0000000000000ULL};
/* linspace(-3.3,7.1,37 f64): 37 */
static const uint64_t lin_f64_b[] = {0xc00a666666666666ULL, 0xc00816c16c16c16cULL, 0xc005c71c71c71c72ULL, 0xc003777777777777ULL, 0xc00127d27d27d27dULL, 0xbffdb05b05b05b06ULL, 0xbff9111111111111ULL, 0xbff471c71c71c71cULL, 0xbfefa4fa4fa4fa50ULL, 0xbfe6666666666667ULL, 0xbfda4fa4fa4fa4fcULL, 0xbfbf49f49f49f4a8ULL, 0x3fc5555555555550ULL, 0x3fdd27d27d27d27aULL, 0x3fe7d27d27d27d26ULL, 0x3ff0888888888888ULL, 0x3ff527d27d27d27cULL, 0x3ff9c71c71c71c70ULL, 0x3ffe666666666665ULL, 0x400182d82d82d82dULL, 0x4003d27d27d27d28ULL, 0x4006222222222222ULL, 0x400871c71c71c71cULL, 0x400ac16c16c16c17ULL, 0x400d111111111111ULL, 0x400f60b60b60b60bULL, 0x4010d82d82d82d83ULL, 0x4012000000000000ULL, 0x401327d27d27d27dULL, 0x40144fa4fa4fa4faULL, 0x4015777777777777ULL, 0x40169f49f49f49f4ULL, 0x4017c71c71c71c72ULL, 0x4018eeeeeeeeeeefULL, 0x401a16c16c16c16cULL, 0x401b3e93e93e93e9ULL, 0x401c666666666666ULL};
/* arange(-1.3,5.7,0.37): 19 */
static const uint32_t ar_f32_a[] = {0xbfa66666, 0xbf6e147a, 0xbf0f5c28, 0xbe428f59, 0x3e3851ef, 0x3f0cccce, 0x3f6b8520, 0x3fa51eb9, 0x3fd47ae1, 0x4001eb85, 0x40199999, 0x403147ae, 0x4048f5c2, 0x4060a3d7, 0x407851eb, 0x40880000, 0x4093d70a, 0x409fae14, 0x40ab851f};
/* arange(0.1,3.3,0.1): 32 */
static const uint32_t ar_f32_b[] = {0x3dcccccd, 0x3e4ccccd, 0x3e99999a, 0x3ecccccd, 0x3f000000, 0x3f19999a, 0x3f333333, 0x3f4ccccd, 0x3f666666, 0x3f800000, 0x3f8ccccd, 0x3f999999, 0x3fa66666, 0x3fb33333, 0x3fc00000, 0x3fcccccd, 0x3fd9999a, 0x3fe66667, 0x3ff33334, 0x40000000, 0x40066667, 0x400ccccd, 0x40133333, 0x4019999a, 0x40200000, 0x40266666, 0x402ccccd, 0x40333333, 0x4039999a, 0x40400000, 0x40466666, 0x404ccccd};
/* arange(0.1,3.3,0.1 f64): 32 */
static const uint64_t ar_f64_b[] = {0x3fb999999999999aULL, 0x3fc999999999999aULL, 0x3fd3333333333334ULL, 0x3fd999999999999aULL, 0x3fe0000000000000ULL, 0x3fe3333333333333ULL, 0x3fe6666666666666ULL, 0x3fe999999999999aULL, 0x3feccccccccccccdULL, 0x3ff0000000000000ULL, 0x3ff199999999999aULL, 0x3ff3333333333333ULL, 0x3ff4cccccccccccdULL, 0x3ff6666666666667ULL, 0x3ff8000000000000ULL, 0x3ff999999999999aULL, 0x3ffb333333333334ULL, 0x3ffcccccccccccceULL, 0x3ffe666666666667ULL, 0x4000000000000000ULL, 0x4000cccccccccccdULL, 0x400199999999999aULL, 0x4002666666666667ULL, 0x4003333333333333ULL, 0x4004000000000000ULL, 0x4004cccccccccccdULL, 0x400599999999999aULL, 0x4006666666666666ULL, 0x4007333333333334ULL, 0x4008000000000001ULL, 0x4008ccccccccccceULL, 0x400999999999999aULL};
/* logspace(-2,3.3,21): 21 */
static const uint32_t log_f32_a[] = {0x3c23d70a, 0x3c96cbca, 0x3d0aca63, 0x3d7f7b58, 0x3deb2452, 0x3e586bda, 0x3ec730ef, 0x3f37552f, 0x3fa8bca5, 0x401b4d96, 0x408ef04f, 0x41038f0c, 0x41722b73, 0x41dee3bf, 0x424d24fe, 0x42bccfe8, 0x432dc7b1, 0x439ff1da, 0x441335fd, 0x44877da8, 0x44f96863};

#define N(a) ((int)(sizeof(a) / sizeof(a)[0]))

static int bits_match32(tsr_tensor *t, const uint32_t *want, int n)
{
    if (!t || t->ndim != 1 || t->sizes[0] != n || t->dtype != TSR_FLOAT32) return 0;
    int ok = 1;
    for (int i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, (float *)tsr_tensor_ptr(t, NULL) + i, 4);
        if (u != want[i]) { printf("    [%d] %08x != %08x\n", i, u, want[i]); ok = 0; }
    }
    return ok;
}

static int bits_match64(tsr_tensor *t, const uint64_t *want, int n)
{
    if (!t || t->ndim != 1 || t->sizes[0] != n || t->dtype != TSR_FLOAT64) return 0;
    int ok = 1;
    for (int i = 0; i < n; i++) {
        uint64_t u;
        memcpy(&u, (double *)tsr_tensor_ptr(t, NULL) + i, 8);
        if (u != want[i]) { printf("    [%d] %016llx != %016llx\n", i, (unsigned long long)u, (unsigned long long)want[i]); ok = 0; }
    }
    return ok;
}

#define F(x) tsr_scalar_float(x)
#define I(x) tsr_scalar_int(x)

TEST(factory_linspace_bits)
{
    tsr_tensor *t;
    t = tsr_linspace(I(0), I(1), 20, TSR_FLOAT32, TSR_CPU); CHECK(bits_match32(t, lin_f32_a, N(lin_f32_a))); tsr_tensor_release(t);
    t = tsr_linspace(F(-3.3), F(7.1), 37, TSR_FLOAT32, TSR_CPU); CHECK(bits_match32(t, lin_f32_b, N(lin_f32_b))); tsr_tensor_release(t);
    t = tsr_linspace(I(-1), I(1), 7, TSR_FLOAT32, TSR_CPU); CHECK(bits_match32(t, lin_f32_c, N(lin_f32_c))); tsr_tensor_release(t);
    t = tsr_linspace(I(0), I(1), 20, TSR_FLOAT64, TSR_CPU); CHECK(bits_match64(t, lin_f64_a, N(lin_f64_a))); tsr_tensor_release(t);
    t = tsr_linspace(F(-3.3), F(7.1), 37, TSR_FLOAT64, TSR_CPU); CHECK(bits_match64(t, lin_f64_b, N(lin_f64_b))); tsr_tensor_release(t);
}

TEST(factory_linspace_ints_and_half)
{
    static const int64_t a[] = {0, 5, 11, 16, 22, 27, 33, 38, 44, 49, 55, 60, 66, 71, 77, 82, 88, 94, 100};
    static const int64_t b[] = {-7, -4, -1, 1, 3, 6, 9, 12, 14, 16, 19, 22, 24, 27, 30, 33, 36, 38, 41, 44, 46, 49, 52, 55,
                                58, 60, 63, 66, 68, 71, 74, 77, 80, 83, 86, 89, 91, 94, 97, 100};
    static const int64_t h[] = {0, 10941, 11965, 12558, 12989, 13366, 13582, 13797, 14013, 14229, 14390, 14498, 14606,
                                14713, 14821, 14929, 15036, 15144, 15252, 15360};
    tsr_tensor *t = tsr_linspace(I(0), I(100), 19, TSR_INT64, TSR_CPU);
    for (int i = 0; i < N(a); i++) CHECK_EQ_INT(tsr_tensor_get_int64_at(t, i), a[i]);
    tsr_tensor_release(t);
    t = tsr_linspace(I(-7), I(100), 40, TSR_INT32, TSR_CPU);
    for (int i = 0; i < N(b); i++) CHECK_EQ_INT(tsr_tensor_get_int64_at(t, i), b[i]);
    tsr_tensor_release(t);
    t = tsr_linspace(I(0), I(1), 20, TSR_FLOAT16, TSR_CPU);
    for (int i = 0; i < N(h); i++) CHECK_EQ_INT(((tsr_half *)tsr_tensor_ptr(t, NULL))[i], h[i]);
    tsr_tensor_release(t);
    t = tsr_linspace(I(0), I(1), 5, TSR_INT64, TSR_CPU);
    CHECK(tsr_tensor_get_int64_at(t, 3) == 0 && tsr_tensor_get_int64_at(t, 4) == 1);
    tsr_tensor_release(t);
    t = tsr_linspace(I(0), I(1), 1, TSR_FLOAT32, TSR_CPU);
    CHECK(t->sizes[0] == 1 && tsr_tensor_get_double_at(t, 0) == 0.0);
    tsr_tensor_release(t);
    t = tsr_linspace(I(0), I(1), 0, TSR_FLOAT32, TSR_CPU);
    CHECK(t->sizes[0] == 0);
    tsr_tensor_release(t);
    CHECK(tsr_linspace(I(0), I(1), -1, TSR_FLOAT32, TSR_CPU) == NULL);
    CHECK_STR(tsr_error_message(), "number of steps must be non-negative");
    tsr_error_clear();
    CHECK(tsr_linspace(I(0), I(1), 3, TSR_BOOL, TSR_CPU) == NULL);
    CHECK_STR(tsr_error_message(), "\"linspace_cpu\" not implemented for 'Bool'");
    tsr_error_clear();
}

TEST(factory_arange_bits)
{
    tsr_tensor *t;
    t = tsr_arange(F(-1.3), F(5.7), F(0.37), TSR_FLOAT32, TSR_CPU); CHECK(bits_match32(t, ar_f32_a, N(ar_f32_a))); tsr_tensor_release(t);
    t = tsr_arange(F(0.1), F(3.3), F(0.1), TSR_FLOAT32, TSR_CPU); CHECK(bits_match32(t, ar_f32_b, N(ar_f32_b))); tsr_tensor_release(t);
    t = tsr_arange(F(0.1), F(3.3), F(0.1), TSR_FLOAT64, TSR_CPU); CHECK(bits_match64(t, ar_f64_b, N(ar_f64_b))); tsr_tensor_release(t);
}

TEST(factory_arange_ints_and_errors)
{
    tsr_tensor *t = tsr_arange(I(10), I(0), I(-3), TSR_INT64, TSR_CPU);
    CHECK(t && t->sizes[0] == 4 && tsr_tensor_get_int64_at(t, 3) == 1);
    tsr_tensor_release(t);
    t = tsr_arange(F(0.5), F(3), I(1), TSR_INT32, TSR_CPU);
    CHECK(t && t->sizes[0] == 3 && tsr_tensor_get_int64_at(t, 2) == 2);
    tsr_tensor_release(t);
    t = tsr_arange(F(0.5), F(3.7), I(1), TSR_INT64, TSR_CPU);
    CHECK(t && t->sizes[0] == 3);
    tsr_tensor_release(t);
    const struct { tsr_scalar a, b, s; tsr_dtype d; const char *msg; } bad[] = {
        {I(0), I(1), F(0.3), TSR_INT64, "step must be nonzero"},
        {I(0), I(10), F(0.0), TSR_FLOAT32, "step must be nonzero"},
        {I(0), I(10), F(-1.0), TSR_FLOAT32, "upper bound and larger bound inconsistent with step sign"},
        {F(-INFINITY), I(10), F(1.0), TSR_FLOAT32, "unsupported range: -inf -> 10"},
        {I(0), F(NAN), F(1.0), TSR_FLOAT64, "unsupported range: 0 -> nan"},
        {I(0), I(3), I(1), TSR_BOOL, "\"arange_cpu\" not implemented for 'Bool'"},
        {I(0), I(1LL << 62), I(1), TSR_INT64, "Storage size calculation overflowed with sizes=[4611686018427387904]"},
    };
    for (int i = 0; i < N(bad); i++) {
        tsr_error_clear();
        CHECK(tsr_arange(bad[i].a, bad[i].b, bad[i].s, bad[i].d, TSR_CPU) == NULL);
        CHECK_STR(tsr_error_message(), bad[i].msg);
    }
    tsr_error_clear();
}

TEST(factory_logspace_bits)
{
    tsr_tensor *t = tsr_logspace(I(-2), F(3.3), 21, 10.0, TSR_FLOAT32, TSR_CPU);
    CHECK(bits_match32(t, log_f32_a, N(log_f32_a)));
    tsr_tensor_release(t);
    t = tsr_logspace(I(0), I(2), 3, 2.0, TSR_INT64, TSR_CPU);
    CHECK(tsr_tensor_get_int64_at(t, 0) == 1 && tsr_tensor_get_int64_at(t, 1) == 2 && tsr_tensor_get_int64_at(t, 2) == 4);
    tsr_tensor_release(t);
}

TEST(factory_eye_full_like)
{
    tsr_tensor *t = tsr_eye(2, 3, TSR_FLOAT32, TSR_CPU);
    CHECK(t && t->sizes[0] == 2 && t->sizes[1] == 3);
    double want[6] = {1, 0, 0, 0, 1, 0};
    for (int i = 0; i < 6; i++) CHECK(tsr_tensor_get_double_at(t, i) == want[i]);
    tsr_tensor_release(t);
    CHECK(tsr_eye(-1, -1, TSR_FLOAT32, TSR_CPU) == NULL);
    CHECK_STR(tsr_error_message(), "n must be greater or equal to 0, got -1");
    tsr_error_clear();
    int64_t s[2] = {2, 3};
    t = tsr_full(2, s, F(2.5), TSR_INT32, TSR_CPU);
    CHECK_EQ_INT(tsr_tensor_get_int64_at(t, 5), 2);
    tsr_tensor *tt = tsr_view_t(t);
    tsr_tensor *l = tsr_ones_like(tt, TSR_DTYPE_UNDEFINED, TSR_CPU, TSR_MF_PRESERVE);
    CHECK(l && l->strides[0] == 1 && l->strides[1] == 3 && l->dtype == TSR_INT32);
    CHECK_EQ_INT(tsr_tensor_get_int64_at(l, 4), 1);
    tsr_tensor *z = tsr_zeros_like(tt, TSR_FLOAT64, TSR_CPU, TSR_MF_CONTIGUOUS);
    CHECK(z && z->strides[0] == 2 && z->strides[1] == 1 && z->dtype == TSR_FLOAT64);
    tsr_tensor_release(t);
    tsr_tensor_release(tt);
    tsr_tensor_release(l);
    tsr_tensor_release(z);
    int64_t neg[2] = {2, -1};
    CHECK(tsr_zeros(2, neg, TSR_FLOAT32, TSR_CPU) == NULL);
    CHECK_STR(tsr_error_message(), "Trying to create tensor with negative dimension -1: [2, -1]");
    tsr_error_clear();
    int64_t big[2] = {1LL << 40, 1LL << 40};
    CHECK(tsr_zeros(2, big, TSR_FLOAT32, TSR_CPU) == NULL);
    CHECK_STR(tsr_error_message(), "Storage size calculation overflowed with sizes=[1099511627776, 1099511627776]");
    tsr_error_clear();
    int64_t big2[2] = {1LL << 61, 2};
    CHECK(tsr_zeros(2, big2, TSR_FLOAT32, TSR_CPU) == NULL);
    CHECK_STR(tsr_error_message(), "Storage size calculation overflowed with sizes=[2305843009213693952, 2]");
    tsr_error_clear();
}

TEST(factory_arange_int64_length)
{
    int64_t n = -1;
    CHECK_EQ_INT(tsr_arange_numel(I(0), I(144962911544046900LL), I(1449629115440469LL), TSR_INT64, &n), 0);
    CHECK_EQ_INT(n, 100);
    CHECK_EQ_INT(tsr_arange_numel(I(0), I((1LL << 53) + 1), I(1LL << 50), TSR_INT64, &n), 0);
    CHECK_EQ_INT(n, 9);
    CHECK_EQ_INT(tsr_arange_numel(I(10), I(0), I(-3), TSR_INT64, &n), 0);
    CHECK_EQ_INT(n, 4);
}

TEST(factory_out_keeps_views)
{
    int64_t sz[2] = {4, 2}, eight = 8;
    tsr_tensor *base = tsr_zeros(2, sz, TSR_FLOAT32, TSR_CPU);
    tsr_tensor *t = tsr_view_t(base);                  /* (2, 4), strides (1, 2) */
    tsr_tensor *r = tsr_arange(I(0), I(8), I(1), TSR_FLOAT32, TSR_CPU);
    CHECK_EQ_INT(tsr_factory_out(t, r, true), 0);
    CHECK(t->ndim == 2 && t->strides[0] == 1 && t->strides[1] == 2);
    CHECK(tsr_tensor_get_double_at(base, 1) == 4.0);  /* base[0][1] == t[1][0] */
    tsr_tensor_release(r);
    r = tsr_arange(I(0), I(6), I(1), TSR_FLOAT32, TSR_CPU);
    CHECK_EQ_INT(tsr_factory_out(t, r, true), 0);     /* other count: resize_ to (6) */
    CHECK(t->ndim == 1 && t->sizes[0] == 6 && t->storage == base->storage);
    CHECK(tsr_tensor_get_double_at(base, 1) == 1.0);
    tsr_tensor_release(r);
    r = tsr_zeros(1, &eight, TSR_FLOAT32, TSR_CPU);
    tsr_tensor *u = tsr_view_t(base);
    CHECK_EQ_INT(tsr_factory_out(u, r, false), 0);    /* zeros: shape differs, resized */
    CHECK(u->ndim == 1 && u->sizes[0] == 8);
    tsr_tensor_release(r);
    tsr_tensor_release(u);
    tsr_tensor_release(t);
    tsr_tensor_release(base);
}

TEST(factory_out_options_and_space_dtype)
{
    int64_t two = 2;
    tsr_tensor *out = tsr_zeros(1, &two, TSR_FLOAT32, TSR_CPU);
    tsr_dtype dl = TSR_INT64;
    tsr_layout sp = TSR_LAYOUT_SPARSE_COO, st = TSR_LAYOUT_STRIDED;
    tsr_device meta = {.type = TSR_DEV_META, .index = -1};
    CHECK_EQ_INT(tsr_check_out_options(out, NULL, &st, NULL), 0);
    CHECK(tsr_check_out_options(out, &dl, NULL, NULL) < 0);
    CHECK_STR(tsr_error_message(), "dtype Long does not match dtype of out parameter (Float)");
    tsr_error_clear();
    CHECK(tsr_check_out_options(out, NULL, &sp, NULL) < 0);
    CHECK_STR(tsr_error_message(), "layout Sparse does not match layout of out parameter (Strided)");
    tsr_error_clear();
    CHECK(tsr_check_out_options(out, NULL, NULL, &meta) < 0);
    CHECK_STR(tsr_error_message(), "device type meta does not match device type of out parameter (cpu)");
    tsr_error_clear();
    tsr_tensor_release(out);
    tsr_dtype d = TSR_DTYPE_UNDEFINED;
    CHECK_EQ_INT(tsr_space_dtype(I(0), tsr_scalar_complex(0, 1), 5, TSR_DTYPE_UNDEFINED, "torch.linspace()", &d), 0);
    CHECK_EQ_INT(d, TSR_COMPLEX64);
    CHECK(tsr_space_dtype(I(0), tsr_scalar_complex(0, 1), 5, TSR_FLOAT32, "torch.linspace()", &d) < 0);
    CHECK_STR(tsr_error_message(),
              "torch.linspace(): inferred dtype c10::complex<float> can't be safely cast to passed dtype Float");
    tsr_error_clear();
}

/* range(0,1,0.1): 11 (end included) */
static const uint32_t range_f32_a[] = {0x00000000, 0x3dcccccd, 0x3e4ccccd, 0x3e99999a, 0x3ecccccd, 0x3f000000, 0x3f19999a, 0x3f333333, 0x3f4ccccd, 0x3f666666, 0x3f800000};

TEST(factory_range_and_default_dtypes)
{
    tsr_tensor *t = tsr_range(I(0), I(1), F(0.1), TSR_DTYPE_UNDEFINED, TSR_CPU);
    CHECK(t && t->dtype == TSR_FLOAT32 && bits_match32(t, range_f32_a, N(range_f32_a)));
    tsr_tensor_release(t);
    t = tsr_range(F(0.1), F(0.9), F(0.1), TSR_FLOAT32, TSR_CPU);
    CHECK(t && t->sizes[0] == 9);
    tsr_tensor_release(t);
    CHECK(tsr_range(I(1), I(0), I(1), TSR_DTYPE_UNDEFINED, TSR_CPU) == NULL);
    CHECK_STR(tsr_error_message(), "upper bound and lower bound inconsistent with step sign");
    tsr_error_clear();
    CHECK(tsr_range(I(0), I(4), I(1), TSR_FLOAT16, TSR_CPU) == NULL);
    CHECK_STR(tsr_error_message(), "\"range_cpu\" not implemented for 'Half'");
    tsr_error_clear();
    t = tsr_arange(I(0), tsr_scalar_bool(true), I(1), TSR_DTYPE_UNDEFINED, TSR_CPU);
    CHECK(t && t->dtype == TSR_INT64 && t->sizes[0] == 1);
    tsr_tensor_release(t);
    CHECK(tsr_arange(I(0), tsr_scalar_complex(1, 1), I(1), TSR_DTYPE_UNDEFINED, TSR_CPU) == NULL);
    CHECK_STR(tsr_error_message(), "value cannot be converted to type double without overflow");
    tsr_error_clear();
    CHECK(tsr_full_dtype(tsr_scalar_bool(true), TSR_CPU) == TSR_BOOL);
    CHECK(tsr_full_dtype(I(3), TSR_CPU) == TSR_INT64);
    CHECK(tsr_full_dtype(tsr_scalar_complex(1, 2), TSR_CPU) == TSR_COMPLEX64);
    CHECK(tsr_eye_m(2, -1, TSR_DTYPE_UNDEFINED, TSR_CPU) == NULL);
    CHECK_STR(tsr_error_message(), "m must be greater or equal to 0, got -1");
    tsr_error_clear();
    int64_t sz[2] = {2, 3}, st[2] = {1, -2};
    CHECK(tsr_empty_strided(2, sz, 1, st, TSR_DTYPE_UNDEFINED, TSR_CPU) == NULL);
    CHECK_STR(tsr_error_message(), "dimensionality of sizes (2) must match dimensionality of strides (1)");
    tsr_error_clear();
    CHECK(tsr_empty_strided(2, sz, 2, st, TSR_DTYPE_UNDEFINED, TSR_CPU) == NULL);
    CHECK_STR(tsr_error_message(), "Storage size calculation overflowed with sizes=[2, 3] and strides=[1, -2]");
    tsr_error_clear();
    t = tsr_zeros(2, sz, TSR_INT64, TSR_CPU);
    CHECK(tsr_factory_requires_grad(t) < 0 && !t->requires_grad);
    CHECK_STR(tsr_error_message(), "Only Tensors of floating point and complex dtype can require gradients");
    tsr_error_clear();
    tsr_tensor_release(t);
}
