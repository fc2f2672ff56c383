/* tests/unit/test_runtime_blas.c — the matmul family against a naive
 * reference: tsr_matmul on random shapes, batch broadcasts and strides
 * (transposed and sliced operands), float64 with small integer values (so
 * every order of summation is exact) and int64 (whose sums wrap). */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "tsr.h"

static uint64_t rng = 88172645463325252ull;
static int64_t rnd(int64_t n) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return (int64_t)(rng % (uint64_t)n); }

/* A tensor of sizes (b?, r, c) filled with small integers, possibly built
 * transposed (a .mT view) or sliced with step 2 along its rows. */
static tsr_tensor *operand(int nd, const int64_t *sz, tsr_dtype dt, int layout)
{
    int64_t s[3];
    for (int d = 0; d < nd; d++) s[d] = sz[d];
    if (layout == 1 && nd >= 2) { s[nd - 1] = sz[nd - 2]; s[nd - 2] = sz[nd - 1]; }
    if (layout == 2) s[nd - 1] *= 2;
    tsr_tensor *t = tsr_tensor_empty(nd, s, dt, TSR_CPU);
    for (int64_t i = 0; i < tsr_tensor_numel(t); i++) tsr_tensor_set_at(t, i, tsr_scalar_int(rnd(19) - 9));
    tsr_tensor *v = t;
    if (layout == 1 && nd >= 2) v = tsr_view_mT(t);
    else if (layout == 2) v = tsr_view_slice(t, nd - 1, 0, s[nd - 1], 2);
    if (v != t) tsr_tensor_release(t);
    return v;
}

static double at3(const tsr_tensor *t, int64_t b, int64_t i, int64_t j)
{
    int64_t idx[3], k = 0;
    if (t->ndim == 3) idx[k++] = t->sizes[0] == 1 ? 0 : b;
    idx[k++] = i;
    idx[k++] = j;
    return tsr_tensor_get_double(t, idx);
}

TEST(matmul_matches_naive_reference_on_random_shapes_and_strides)
{
    int bad = 0;
    for (int it = 0; it < 300; it++) {
        tsr_dtype dt = it % 3 == 0 ? TSR_INT64 : it % 3 == 1 ? TSR_FLOAT64 : TSR_FLOAT32;
        int64_t m = 1 + rnd(24), k = rnd(24), n = 1 + rnd(24), bs = 1 + rnd(3);
        if (it % 17 == 0) { m = 70; n = 65; k = 40; }
        int nd1 = 2 + (int)rnd(2), nd2 = 2 + (int)rnd(2);
        int64_t s1[3], s2[3];
        int q = 0;
        if (nd1 == 3) s1[q++] = rnd(2) ? bs : 1;
        s1[q++] = m; s1[q++] = k;
        q = 0;
        if (nd2 == 3) s2[q++] = nd1 == 3 && s1[0] == 1 ? bs : (nd1 == 3 ? s1[0] : bs);
        s2[q++] = k; s2[q++] = n;
        tsr_tensor *a = operand(nd1, s1, dt, (int)rnd(3)), *b = operand(nd2, s2, dt, (int)rnd(3));
        tsr_tensor *r = tsr_matmul(a, b, NULL);
        CHECK(r != NULL);
        if (!r) { tsr_error_clear(); bad++; goto next; }
        int64_t nb = r->ndim == 3 ? r->sizes[0] : 1;
        CHECK_EQ_INT(r->sizes[r->ndim - 2], m);
        CHECK_EQ_INT(r->sizes[r->ndim - 1], n);
        for (int64_t x = 0; x < nb; x++)
            for (int64_t i = 0; i < m; i++)
                for (int64_t j = 0; j < n; j++) {
                    double want = 0;
                    for (int64_t l = 0; l < k; l++) want += at3(a, x, i, l) * at3(b, x, l, j);
                    if (at3(r, x, i, j) != want) bad++;
                }
    next:
        tsr_tensor_release(a);
        tsr_tensor_release(b);
        tsr_tensor_release(r);
    }
    CHECK_EQ_INT(bad, 0);
}

TEST(int64_matmul_wraps_as_1_13)
{
    int64_t sz[2] = {1, 2};
    tsr_tensor *a = tsr_tensor_empty(2, sz, TSR_INT64, TSR_CPU);
    int64_t sz2[2] = {2, 1};
    tsr_tensor *b = tsr_tensor_empty(2, sz2, TSR_INT64, TSR_CPU);
    tsr_tensor_set_at(a, 0, tsr_scalar_int(INT64_MAX));
    tsr_tensor_set_at(a, 1, tsr_scalar_int(3));
    tsr_tensor_set_at(b, 0, tsr_scalar_int(2));
    tsr_tensor_set_at(b, 1, tsr_scalar_int(1));
    tsr_tensor *r = tsr_mm(a, b, NULL);
    CHECK(r != NULL);
    if (r) CHECK_EQ_INT(tsr_tensor_get_int64_at(r, 0), 1);   /* 2*(2^63-1) + 3 wraps to 1 */
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    tsr_tensor_release(r);
}

/* The panels tsr splits a big gemm into (for Ctrl-C) give the single
 * OpenBLAS call's bits, at one BLAS thread (a threaded call splits its
 * columns where the thread count says): every BLAS dtype, odd sizes, both
 * transposition flags, alpha 1 or not, beta 0 and 1, panels of 96, 192 and
 * 288 columns. (Panels of 512 columns did not: 12-wide sgemm tiles.) */
#include "ops/blas.h"
void openblas_set_num_threads(int);
int openblas_get_num_threads(void);
TEST(gemm_panels_are_bit_identical)
{
    static const tsr_dtype dts[] = {TSR_FLOAT32, TSR_FLOAT64, TSR_COMPLEX64, TSR_COMPLEX128};
    int bad = 0, nthr = openblas_get_num_threads();
    openblas_set_num_threads(1);
    for (int t = 0; t < 24; t++) {
        tsr_dtype dt = dts[t % 4];
        int64_t isz = tsr_dtype_itemsize(dt), m = 100 + rnd(201), n = 300 + rnd(701), k = 100 + rnd(301);
        int64_t pw = 96 * (1 + t % 3);
        int ta = (int)rnd(2), tb = (int)rnd(2);
        int64_t lda = (ta ? k : m) + rnd(3), ldb = (tb ? n : k) + rnd(3), ldc = m + rnd(3);
        int64_t na = lda * (ta ? m : k), nbv = ldb * (tb ? k : n), nc = ldc * n;
        bool single = dt == TSR_FLOAT32 || dt == TSR_COMPLEX64;
        int64_t nflt = isz / (single ? 4 : 8);
        char *a = malloc((size_t)(na * isz)), *b = malloc((size_t)(nbv * isz));
        char *c1 = malloc((size_t)(nc * isz)), *c2 = malloc((size_t)(nc * isz));
        for (int64_t i = 0; i < na * nflt; i++) {
            double v = (double)(rnd(2000001) - 1000000) / 7919.0;
            if (single) ((float *)a)[i] = (float)v; else ((double *)a)[i] = v;
        }
        for (int64_t i = 0; i < nbv * nflt; i++) {
            double v = (double)(rnd(2000001) - 1000000) / 6133.0;
            if (single) ((float *)b)[i] = (float)v; else ((double *)b)[i] = v;
        }
        for (int64_t i = 0; i < nc * nflt; i++) {
            double v = (double)(rnd(2001) - 1000) / 3.0;
            if (single) ((float *)c1)[i] = (float)v; else ((double *)c1)[i] = v;
        }
        memcpy(c2, c1, (size_t)(nc * isz));
        tsr_scalar alpha = tsr_scalar_float(t % 3 ? 1.0 : 0.37), beta = tsr_scalar_float(t % 2 ? 1.0 : 0.0);
        tsr__gemm_panels(dt, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c1, ldc, n);
        tsr__gemm_panels(dt, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c2, ldc, pw);
        bad += memcmp(c1, c2, (size_t)(nc * isz)) != 0;
        free(a), free(b), free(c1), free(c2);
    }
    openblas_set_num_threads(nthr);
    CHECK_EQ_INT(bad, 0);
}
