/* tests/unit/test_runtime_device.c — torch.device parsing with PyTorch's
 * exact messages (SEMANTICS.md §5.1), str(), and the backend table. */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "tsr.h"

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
