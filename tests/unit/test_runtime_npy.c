/* tests/unit/test_runtime_npy.c — .npy encoding and decoding (runtime/io/npy.c):
 * every dtype NumPy has round-trips with its bytes, the header is format 1.0
 * padded to 64 bytes, Fortran-contiguous arrays are written in memory order,
 * and every truncation of a valid file is refused without a read past it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "tsr.h"
#include "io/npy.h"

#define L(...) ((const int64_t[]){__VA_ARGS__})

TEST(npy_every_dtype_round_trips)
{
    for (int i = 0; i < TSR_NDTYPES; i++) {
        tsr_dtype d = tsr_dtype_at_index(i);
        tsr_tensor *t = tsr_tensor_empty(2, L(2, 3), d, TSR_CPU);
        for (int k = 0; k < 6; k++) tsr_tensor_set_at(t, k, tsr_scalar_int(d == TSR_BOOL ? k & 1 : k));
        void *buf = NULL;
        size_t n = 0;
        int rc = tsr_npy_encode(t, &buf, &n);
        if (!tsr_npy_descr(d)) {
            CHECK_EQ_INT(rc, -1);
            CHECK(strstr(tsr_error_message(), "Got unsupported ScalarType") != NULL);
            tsr_error_clear();
            tsr_tensor_release(t);
            continue;
        }
        CHECK_EQ_INT(rc, 0);
        const unsigned char *b = buf;
        size_t hl = (size_t)b[8] | (size_t)b[9] << 8;
        CHECK(!memcmp(b, "\x93NUMPY\x01\x00", 8));
        CHECK_EQ_INT((10 + hl) % 64, 0);
        CHECK_EQ_INT(b[10 + hl - 1], '\n');
        CHECK_EQ_INT(n, 10 + hl + 6 * (size_t)tsr_dtype_itemsize(d));
        tsr_tensor *u = tsr_npy_decode(buf, n);
        if (CHECK(u != NULL)) {
            CHECK_EQ_INT(u->dtype, d);
            CHECK_EQ_INT(u->ndim, 2);
            for (int k = 0; k < 6; k++)
                CHECK(tsr_tensor_get_double_at(u, k) == tsr_tensor_get_double_at(t, k));
        }
        tsr_tensor_release(u);
        tsr_free(buf);
        tsr_tensor_release(t);
    }
}

TEST(npy_header_text)
{
    tsr_tensor *t = tsr_zeros(1, L(3), TSR_FLOAT32, TSR_CPU);
    void *buf;
    size_t n;
    CHECK_EQ_INT(tsr_npy_encode(t, &buf, &n), 0);
    const char *want = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
    CHECK(!memcmp((char *)buf + 10, want, strlen(want)));
    CHECK_EQ_INT(n, 128 + 12);
    tsr_free(buf);
    tsr_tensor_release(t);
}

TEST(npy_fortran_order)
{
    tsr_tensor *a = tsr_arange(tsr_scalar_int(0), tsr_scalar_int(6), tsr_scalar_int(1), TSR_INT16, TSR_CPU);
    tsr_tensor *v = tsr_view_view(a, 2, L(2, 3));
    tsr_tensor *t = tsr_view_t(v);   /* (3, 2), Fortran-contiguous */
    void *buf;
    size_t n;
    CHECK_EQ_INT(tsr_npy_encode(t, &buf, &n), 0);
    CHECK(strstr((char *)buf + 10, "'fortran_order': True, 'shape': (3, 2)") != NULL);
    const int16_t *data = (const int16_t *)((char *)buf + n - 12);
    for (int k = 0; k < 6; k++) CHECK_EQ_INT(data[k], k);   /* memory order */
    tsr_tensor *u = tsr_npy_decode(buf, n);
    if (CHECK(u != NULL)) {
        CHECK_EQ_INT(u->strides[0], 1);
        CHECK_EQ_INT(u->strides[1], 3);
        int64_t idx[2] = {2, 1};
        CHECK_EQ_INT(tsr_tensor_get_int64(u, idx), 5);
    }
    tsr_tensor_release(u);
    tsr_free(buf);
    tsr_tensor_release(t);
    tsr_tensor_release(v);
    tsr_tensor_release(a);
}

/* Every prefix of a valid file is refused with ValueError (the sanitizer
 * builds see any read past the prefix). */
TEST(npy_every_truncation_refused)
{
    tsr_tensor *t = tsr_ones(2, L(2, 2), TSR_FLOAT64, TSR_CPU);
    void *buf;
    size_t n;
    CHECK_EQ_INT(tsr_npy_encode(t, &buf, &n), 0);
    for (size_t k = 0; k < n; k++) {
        void *copy = malloc(k ? k : 1);
        memcpy(copy, buf, k);
        tsr_tensor *u = tsr_npy_decode(copy, k);
        if (!CHECK(u == NULL)) printf("    prefix %zu accepted\n", k);
        CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_VALUE);
        tsr_error_clear();
        tsr_tensor_release(u);
        free(copy);
    }
    tsr_free(buf);
    tsr_tensor_release(t);
}
