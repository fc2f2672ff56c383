/* tests/unit/test_runtime_fft.c — runtime/ops/fft: ifft(fft(x)) and
 * irfft(rfft(x)) give x back for every length 1..200 and a few large primes
 * (mixed radix, the generic radix and Bluestein), Parseval's theorem, and a
 * few exact values. The bits against 1.13 are the conformance suite's. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include "unit.h"
#include "tsr.h"

/* A reproducible signal of n values in dtype (real or complex). */
static tsr_tensor *make_signal(int64_t n, tsr_dtype dt)
{
    tsr_tensor *t = tsr_tensor_empty(1, &n, dt, TSR_CPU);
    for (int64_t i = 0; t && i < n; i++) {
        double re = sin(0.37 * (double)i + 0.1) + (double)(i % 5) * 0.25, im = cos(1.3 * (double)i) - 0.5;
        tsr_tensor_set_at(t, i, tsr_dtype_is_complex(dt) ? tsr_scalar_complex(re, im) : tsr_scalar_float(re));
    }
    return t;
}

/* max |a - b| over the elements, relative to max |a| */
static double rel_err(const tsr_tensor *a, const tsr_tensor *b)
{
    double m = 0, s = 0;
    int64_t n = tsr_tensor_numel(a);
    for (int64_t i = 0; i < n; i++) {
        double ar, ai, br, bi;
        tsr_tensor_get_complex_at(a, i, &ar, &ai);
        tsr_tensor_get_complex_at(b, i, &br, &bi);
        m = fmax(m, hypot(ar - br, ai - bi));
        s = fmax(s, hypot(ar, ai));
    }
    return s > 0 ? m / s : m;
}

static int roundtrip(int64_t n, tsr_dtype dt, double tol)
{
    int ok = 1;
    tsr_tensor *x = make_signal(n, dt), *f = tsr_fft1(TSR_FFT_FFT, x, false, 0, -1, NULL, NULL),
               *y = f ? tsr_fft1(TSR_FFT_IFFT, f, false, 0, -1, NULL, NULL) : NULL;
    ok &= y && rel_err(y, x) < tol;
    tsr_tensor_release(f);
    tsr_tensor_release(y);
    if (!tsr_dtype_is_complex(dt)) {
        f = tsr_fft1(TSR_FFT_RFFT, x, false, 0, -1, NULL, NULL);
        y = f ? tsr_fft1(TSR_FFT_IRFFT, f, true, n, -1, "backward", NULL) : NULL;
        ok &= y && rel_err(y, x) < tol;
        tsr_tensor_release(f);
        tsr_tensor_release(y);
    }
    tsr_tensor_release(x);
    return ok;
}

TEST(fft_roundtrip_every_length_to_200)
{
    const tsr_dtype dts[] = {TSR_FLOAT32, TSR_FLOAT64, TSR_COMPLEX64, TSR_COMPLEX128};
    for (int k = 0; k < 4; k++)
        for (int64_t n = 1; n <= 200; n++) {
            double tol = (dts[k] == TSR_FLOAT32 || dts[k] == TSR_COMPLEX64) ? 2e-6 : 1e-14;
            if (!CHECK(roundtrip(n, dts[k], tol))) printf("  length %lld, %s\n", (long long)n, tsr_dtype_name(dts[k]));
        }
    CHECK(!tsr_error_occurred());
}

TEST(fft_roundtrip_large_primes)
{
    const int64_t ns[] = {1009, 4099, 10007, 65537, 1000003};
    for (int k = 0; k < 5; k++) {
        CHECK(roundtrip(ns[k], TSR_FLOAT64, 1e-12));
        CHECK(roundtrip(ns[k], TSR_COMPLEX64, 2e-5));
    }
}

/* sum |x|^2 == sum |X|^2 / n, and with norm="ortho" without the 1/n */
TEST(fft_parseval)
{
    const int64_t ns[] = {1, 7, 64, 97, 360, 1009};
    for (int k = 0; k < 6; k++) {
        tsr_tensor *x = make_signal(ns[k], TSR_COMPLEX128), *f = tsr_fft1(TSR_FFT_FFT, x, false, 0, 0, NULL, NULL),
                   *o = tsr_fft1(TSR_FFT_FFT, x, false, 0, 0, "ortho", NULL);
        if (!CHECK(f && o)) return;
        double ex = 0, ef = 0, eo = 0, re, im;
        for (int64_t i = 0; i < ns[k]; i++) {
            tsr_tensor_get_complex_at(x, i, &re, &im); ex += re * re + im * im;
            tsr_tensor_get_complex_at(f, i, &re, &im); ef += re * re + im * im;
            tsr_tensor_get_complex_at(o, i, &re, &im); eo += re * re + im * im;
        }
        CHECK(fabs(ex - ef / (double)ns[k]) < 1e-10 * ex);
        CHECK(fabs(ex - eo) < 1e-10 * ex);
        tsr_tensor_release(x);
        tsr_tensor_release(f);
        tsr_tensor_release(o);
    }
}

/* fft of [1, 2, 3, 4] and rfft of a 5-point ramp: exact small values. */
TEST(fft_exact_values)
{
    int64_t n = 4;
    tsr_tensor *x = tsr_arange(tsr_scalar_int(1), tsr_scalar_int(5), tsr_scalar_int(1), TSR_FLOAT32, TSR_CPU);
    tsr_tensor *f = tsr_fft1(TSR_FFT_FFT, x, false, 0, -1, NULL, NULL);
    if (!CHECK(f)) return;
    CHECK_EQ_INT(f->dtype, TSR_COMPLEX64);
    CHECK_EQ_INT(f->sizes[0], n);
    const double want[4][2] = {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}};
    for (int i = 0; i < 4; i++) {
        double re, im;
        tsr_tensor_get_complex_at(f, i, &re, &im);
        CHECK(re == want[i][0] && im == want[i][1]);
    }
    tsr_tensor_release(f);
    /* irfft's default length 2*(m-1) */
    tsr_tensor *r = tsr_fft1(TSR_FFT_RFFT, x, false, 0, -1, NULL, NULL),
               *b = r ? tsr_fft1(TSR_FFT_IRFFT, r, false, 0, -1, NULL, NULL) : NULL;
    if (CHECK(b)) CHECK_EQ_INT(b->sizes[0], 4);
    tsr_tensor_release(r);
    tsr_tensor_release(b);
    tsr_tensor_release(x);
}

TEST(fft_errors)
{
    int64_t n = 4;
    tsr_tensor *x = tsr_ones(1, &n, TSR_FLOAT16, TSR_CPU);
    CHECK(!tsr_fft1(TSR_FFT_FFT, x, false, 0, -1, NULL, NULL));
    CHECK_STR(tsr_error_message(), "Unsupported dtype Half");
    tsr_error_clear();
    tsr_tensor_release(x);
    x = tsr_ones(1, &n, TSR_FLOAT32, TSR_CPU);
    CHECK(!tsr_fft1(TSR_FFT_FFT, x, true, 0, -1, NULL, NULL));
    CHECK_STR(tsr_error_message(), "Invalid number of data points (0) specified");
    tsr_error_clear();
    CHECK(!tsr_fft1(TSR_FFT_FFT, x, false, 0, -1, "sideways", NULL));
    CHECK_STR(tsr_error_message(), "Invalid normalization mode: \"sideways\"");
    tsr_error_clear();
    int64_t d[2] = {0, 0};
    CHECK(!tsr_fftn(TSR_FFT_FFT, x, -1, NULL, 2, d, NULL, NULL));
    CHECK_STR(tsr_error_message(), "FFT dims must be unique");
    tsr_error_clear();
    tsr_tensor_release(x);
}
