/* tests/unit/test_runtime_device.c — torch.device parsing with PyTorch's
 * exact messages (SEMANTICS.md §5.1), str(), and the backend table. */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "tsr.h"
#include "kernels.h"
#include "op.h"

#define EXPECTED_ONE_OF "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, " \
    "ort, xla, lazy, vulkan, mps, meta, hpu, privateuseone device type at start of device string: "

TEST(device_parse_accepts)
{
    static const struct { const char *s; tsr_device_type t; int index; const char *str; } ok[] = {
        {"cpu", TSR_DEV_CPU, -1, "cpu"}, {"cuda", TSR_DEV_CUDA, -1, "cuda"}, {"cuda:0", TSR_DEV_CUDA, 0, "cuda:0"},
        {"cuda:12", TSR_DEV_CUDA, 12, "cuda:12"}, {"meta", TSR_DEV_META, -1, "meta"}, {"xla:1", TSR_DEV_XLA, 1, "xla:1"},
        {"mps", TSR_DEV_MPS, -1, "mps"}, {"xpu", TSR_DEV_XPU, -1, "xpu"}, {"cpu:0", TSR_DEV_CPU, 0, "cpu:0"},
        {"privateuseone", TSR_DEV_PRIVATEUSEONE, -1, "privateuseone"}, {"hpu:3", TSR_DEV_HPU, 3, "hpu:3"},
        {"lazy", TSR_DEV_LAZY, -1, "lazy"}, {"ve", TSR_DEV_VE, -1, "ve"}, {"ipu", TSR_DEV_IPU, -1, "ipu"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        tsr_device d = {0, 0};
        tsr_error_clear();
        CHECK_EQ_INT(tsr_device_parse(ok[i].s, &d), 0);
        CHECK_EQ_INT(d.type, ok[i].t);
        CHECK_EQ_INT(d.index, ok[i].index);
        char buf[64];
        CHECK_STR(tsr_device_str(d, buf, sizeof buf), ok[i].str);
    }
}

TEST(device_parse_rejects)
{
    static const struct { const char *s, *msg; } bad[] = {
        {"", "Device string must not be empty"},
        {"cuda:01", "Invalid device string: 'cuda:01'"},
        {" cpu", "Invalid device string: ' cpu'"},
        {"cuda:", "Invalid device string: 'cuda:'"},
        {"cuda:-1", "Invalid device string: 'cuda:-1'"},
        {"cuda:1:2", "Invalid device string: 'cuda:1:2'"},
        {"cuda:0a", "Invalid device string: 'cuda:0a'"},
        {"cuda::1", "Invalid device string: 'cuda::1'"},
        {"cuda:0 ", "Invalid device string: 'cuda:0 '"},
        {"cuda2", "Invalid device string: 'cuda2'"},
        {"cu-da", "Invalid device string: 'cu-da'"},
        {":0", "Invalid device string: ':0'"},
        {"cuda:2147483648", "Could not parse device index '2147483648' in device string 'cuda:2147483648'"},
        {"cuda:99999999999", "Could not parse device index '99999999999' in device string 'cuda:99999999999'"},
        {"gpu", EXPECTED_ONE_OF "gpu"},
        {"CUDA", EXPECTED_ONE_OF "CUDA"},
        {"cuda_", EXPECTED_ONE_OF "cuda_"},
        {"metal", EXPECTED_ONE_OF "metal"},
        {"foo:1", EXPECTED_ONE_OF "foo:1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tsr_device d;
        tsr_error_clear();
        CHECK_EQ_INT(tsr_device_parse(bad[i].s, &d), -1);
        CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_RUNTIME);
        CHECK_STR(tsr_error_message(), bad[i].msg);
    }
    tsr_error_clear();
}

TEST(device_make_with_index)
{
    tsr_device d;
    CHECK_EQ_INT(tsr_device_make("cuda", 2, &d), 0);
    CHECK(d.type == TSR_DEV_CUDA && d.index == 2);
    CHECK_EQ_INT(tsr_device_make("cpu", 0, &d), 0);
    CHECK(d.type == TSR_DEV_CPU && d.index == 0);
    CHECK_EQ_INT(tsr_device_make("cuda:1", 1, &d), -1);
    CHECK_STR(tsr_error_message(), "type (string) must not include an index because index was passed explicitly: cuda:1");
    tsr_error_clear();
    CHECK_EQ_INT(tsr_device_make("cuda", -1, &d), -1);
    CHECK_STR(tsr_error_message(), "Device index must not be negative");
    tsr_error_clear();
}

TEST(device_equality_and_normalize)
{
    tsr_device a = {TSR_DEV_CUDA, -1}, b = {TSR_DEV_CUDA, 0};
    CHECK(!tsr_device_equal(a, b));
    CHECK(tsr_device_equal(tsr_device_normalize(a), b));
    tsr_device c = tsr_device_normalize((tsr_device){TSR_DEV_CPU, 1});
    CHECK(tsr_device_equal(c, TSR_CPU));
    CHECK_STR(tsr_device_type_name(TSR_DEV_METAL), "metal");
    CHECK_STR(tsr_device_backend_name(TSR_DEV_META), "Meta");
}

/* A backend as the CUDA one is on a machine without a driver: init fails
 * with PyTorch's message, and it computes nothing. */
static int init_calls;
static int no_driver_init(void)
{
    init_calls++;
    tsr_error_set(TSR_ERR_RUNTIME, "Found no NVIDIA driver on your system.");
    return -1;
}
static int ok_init(void) { return 0; }
static int zero(void) { return 0; }

TEST(device_backends)
{
    int64_t n = 2;
    setenv("TSR_CUDA", "0", 1);   /* whatever libtsr_cuda.so lies beside the test binary */
    tsr_error_clear();
    tsr_tensor *t = tsr_zeros(1, &n, TSR_FLOAT32, (tsr_device){TSR_DEV_CUDA, -1});
    CHECK(t == NULL);
    CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_ASSERTION);
    CHECK_STR(tsr_error_message(), "Torch not compiled with CUDA enabled");
    CHECK_STR(tsr_device_cuda_status(), "disabled (TSR_CUDA=0)");
    tsr_error_clear();
    tsr_backend fake = {.name = "cuda", .device_count = zero, .init = no_driver_init};
    tsr_device_register_backend(TSR_DEV_CUDA, &fake);
    t = tsr_zeros(1, &n, TSR_FLOAT32, (tsr_device){TSR_DEV_CUDA, 0});
    CHECK(t == NULL && init_calls == 1);
    CHECK_STR(tsr_error_message(), "Found no NVIDIA driver on your system.");
    tsr_error_clear();
    fake.init = ok_init;   /* a device, but no kernels: no tensors either */
    t = tsr_zeros(1, &n, TSR_FLOAT32, (tsr_device){TSR_DEV_CUDA, 0});
    CHECK(t == NULL);
    CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_NOT_IMPLEMENTED);
    tsr_device_register_backend(TSR_DEV_CUDA, NULL);
    tsr_error_clear();
    t = tsr_zeros(1, &n, TSR_FLOAT32, (tsr_device){TSR_DEV_MPS, -1});
    CHECK(t == NULL);
    CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_NOT_IMPLEMENTED);
    static const char pre[] = "Could not run 'aten::empty.memory_format' with arguments from the 'MPS' backend. ";
    CHECK(strncmp(tsr_error_message(), pre, sizeof pre - 1) == 0);
    tsr_error_clear();
    /* meta allocates nothing but keeps geometry */
    int64_t big[2] = {1LL << 40, 1LL << 20};
    t = tsr_empty(2, big, TSR_FLOAT32, TSR_META, TSR_MF_CONTIGUOUS);
    CHECK(t != NULL);
    if (t) {
        CHECK(t->storage->data == NULL);
        CHECK_EQ_INT(t->strides[0], 1LL << 20);
        double v = tsr_tensor_get_double_at(t, 0);
        (void)v;
        CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_NOT_IMPLEMENTED);
        CHECK_STR(tsr_error_message(), "Cannot copy out of meta tensor; no data!");
        tsr_error_clear();
        tsr_tensor_release(t);
    }
}

/* Every ATen name of op.c's device kernel table is found by its bsearch (the
 * table is sorted) and gives its kernel; names it lacks give none. */
TEST(device_kernel_table_lookup)
{
    static const struct { const char *aten; int kernel; } want[] = {
        {"abs", TSR_K_ABS}, {"acos", TSR_K_ACOS}, {"acosh", TSR_K_ACOSH}, {"add.Tensor", TSR_K_ADD},
        {"addcdiv", TSR_K_ADDCDIV}, {"addcmul", TSR_K_ADDCMUL}, {"angle", TSR_K_ANGLE}, {"asin", TSR_K_ASIN},
        {"asinh", TSR_K_ASINH}, {"atan", TSR_K_ATAN}, {"atan2", TSR_K_ATAN2}, {"atanh", TSR_K_ATANH},
        {"bitwise_and.Tensor", TSR_K_BITAND}, {"bitwise_left_shift.Tensor", TSR_K_LSHIFT},
        {"bitwise_not", TSR_K_BITNOT}, {"bitwise_or.Tensor", TSR_K_BITOR},
        {"bitwise_right_shift.Tensor", TSR_K_RSHIFT}, {"bitwise_xor.Tensor", TSR_K_BITXOR}, {"ceil", TSR_K_CEIL},
        {"clamp", TSR_K_CLAMP}, {"clamp.Tensor", TSR_K_CLAMP}, {"clamp_max", TSR_K_CLAMP},
        {"clamp_max.Tensor", TSR_K_MINIMUM}, {"clamp_min", TSR_K_CLAMP}, {"clamp_min.Tensor", TSR_K_MAXIMUM},
        {"copysign.Tensor", TSR_K_COPYSIGN}, {"cos", TSR_K_COS}, {"cosh", TSR_K_COSH}, {"deg2rad", TSR_K_MULC},
        {"digamma", TSR_K_DIGAMMA}, {"div.Tensor", TSR_K_DIV}, {"div.Tensor_mode", TSR_K_DIV_TRUNC},
        {"eq.Tensor", TSR_K_EQ}, {"erf", TSR_K_ERF}, {"erfc", TSR_K_ERFC}, {"erfinv", TSR_K_ERFINV},
        {"exp", TSR_K_EXP}, {"exp2", TSR_K_EXP2}, {"expm1", TSR_K_EXPM1}, {"float_power.Tensor_Tensor", TSR_K_POW},
        {"floor", TSR_K_FLOOR}, {"floor_divide", TSR_K_DIV_FLOOR}, {"fmax", TSR_K_FMAX}, {"fmin", TSR_K_FMIN},
        {"fmod.Tensor", TSR_K_FMOD}, {"frac", TSR_K_FRAC}, {"gcd", TSR_K_GCD}, {"ge.Tensor", TSR_K_GE},
        {"gt.Tensor", TSR_K_GT}, {"heaviside", TSR_K_HEAVISIDE}, {"hypot", TSR_K_HYPOT}, {"igamma", TSR_K_IGAMMA},
        {"igammac", TSR_K_IGAMMAC}, {"isfinite", TSR_K_ISFINITE}, {"isinf", TSR_K_ISINF}, {"isnan", TSR_K_ISNAN},
        {"lcm", TSR_K_LCM}, {"le.Tensor", TSR_K_LE}, {"lerp.Scalar", TSR_K_LERP}, {"lerp.Tensor", TSR_K_LERP},
        {"lgamma", TSR_K_LGAMMA}, {"log", TSR_K_LOG}, {"log10", TSR_K_LOG10}, {"log1p", TSR_K_LOG1P},
        {"log2", TSR_K_LOG2}, {"logaddexp", TSR_K_LOGADDEXP}, {"logaddexp2", TSR_K_LOGADDEXP2},
        {"logical_and", TSR_K_LOGICAL_AND}, {"logical_not", TSR_K_LOGICAL_NOT}, {"logical_or", TSR_K_LOGICAL_OR},
        {"logical_xor", TSR_K_LOGICAL_XOR}, {"logit", TSR_K_LOGIT}, {"lt.Tensor", TSR_K_LT},
        {"maximum", TSR_K_MAXIMUM}, {"minimum", TSR_K_MINIMUM}, {"mul.Tensor", TSR_K_MUL},
        {"nan_to_num", TSR_K_NAN_TO_NUM}, {"ne.Tensor", TSR_K_NE}, {"neg", TSR_K_NEG}, {"nextafter", TSR_K_NEXTAFTER},
        {"polygamma", TSR_K_POLYGAMMA}, {"pow.Tensor_Tensor", TSR_K_POW}, {"rad2deg", TSR_K_MULC},
        {"reciprocal", TSR_K_RECIPROCAL}, {"relu", TSR_K_RELU}, {"remainder.Tensor", TSR_K_REMAINDER},
        {"round", TSR_K_ROUND}, {"rsqrt", TSR_K_RSQRT}, {"sgn", TSR_K_SIGN}, {"sigmoid", TSR_K_SIGMOID},
        {"sign", TSR_K_SIGN}, {"signbit", TSR_K_SIGNBIT}, {"sin", TSR_K_SIN}, {"sinc", TSR_K_SINC},
        {"sinh", TSR_K_SINH}, {"special_chebyshev_polynomial_t", TSR_K_POLY},
        {"special_chebyshev_polynomial_u", TSR_K_POLY}, {"special_chebyshev_polynomial_v", TSR_K_POLY},
        {"special_chebyshev_polynomial_w", TSR_K_POLY}, {"special_entr", TSR_K_ENTR}, {"special_erfcx", TSR_K_ERFCX},
        {"special_hermite_polynomial_h", TSR_K_POLY}, {"special_hermite_polynomial_he", TSR_K_POLY},
        {"special_laguerre_polynomial_l", TSR_K_POLY}, {"special_legendre_polynomial_p", TSR_K_POLY},
        {"special_log_ndtr", TSR_K_LOG_NDTR}, {"special_ndtri", TSR_K_NDTRI},
        {"special_shifted_chebyshev_polynomial_t", TSR_K_POLY},
        {"special_shifted_chebyshev_polynomial_u", TSR_K_POLY},
        {"special_shifted_chebyshev_polynomial_v", TSR_K_POLY},
        {"special_shifted_chebyshev_polynomial_w", TSR_K_POLY}, {"special_xlog1py", TSR_K_XLOG1PY},
        {"special_zeta", TSR_K_ZETA}, {"sqrt", TSR_K_SQRT}, {"sub.Tensor", TSR_K_ADD}, {"tan", TSR_K_TAN},
        {"tanh", TSR_K_TANH}, {"trunc", TSR_K_TRUNC}, {"where.self", TSR_K_WHERE}, {"xlogy", TSR_K_XLOGY},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        tsr_op op = {.name = want[i].aten, .aten = want[i].aten};
        CHECK_EQ_INT(tsr_op_dev_kernel(&op), want[i].kernel);
    }
    static const char *const none[] = {"aaa", "i0", "mvlgamma", "matmul", "zzz", "sum.dim_IntList"};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        tsr_op op = {.name = none[i], .aten = none[i]};
        CHECK_EQ_INT(tsr_op_dev_kernel(&op), TSR_K_NONE);
    }
}
