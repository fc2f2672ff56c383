/* runtime/ops/blas.c — the matmul family as 1.13 computes it: addmm_impl_cpu_
 * (LinearAlgebra.cpp) chooses which operand is transposed, the leading
 * dimensions and when to copy; cpublas::gemm (CPUBlas.cpp) normalises them and
 * calls OpenBLAS for float32/64 and complex; integers and bfloat16 run the
 * loops of BlasKernel.cpp (integer sums wrap, so any order gives 1.13's bits).
 * Big gemms run in column panels with a Ctrl-C poll between them. */
#include <cblas.h>
#include <complex.h>
#include <string.h>

#include "blas.h"
#include "blas_cuda.h"
#include "nn_dnnl.h"
#include "binary.h"
#include "copy.h"
#include "shape.h"
#include "../error.h"
#include "../op.h"
#include "../internal.h"
#include "../iter.h"
#include "../view.h"
#include "loops.h"

/* ------------------------------------------------------------ kernels */

typedef void (*gemm_fn)(int ta, int tb, int64_t m, int64_t n, int64_t k, tsr_scalar alpha, const void *a,
                        int64_t lda, const void *b, int64_t ldb, tsr_scalar beta, void *c, int64_t ldc);

/* Integers, A not transposed: C in tiles of 4 rows x 4 columns, each summed
 * in uint64 registers over k, then C = beta*C + alpha*sum. BlasKernel.cpp's
 * gemm_notrans_ runs l, j, i with C updated in place; uint64 sums wrap, so
 * this order gives the same bits with a quarter of the loads. */
#define DEF_GEMM_TILES(dt, T, ...)                                                                              \
    static void gemm_tiles_##dt(bool tb, int64_t m, int64_t n, int64_t k, uint64_t al, const T *a, int64_t lda, \
                                const T *b, int64_t ldb, uint64_t be, T *c, int64_t ldc)                        \
    {                                                                                                           \
        for (int64_t j0 = 0; j0 < n; j0 += 4) {                                                                 \
            int64_t nj = n - j0 < 4 ? n - j0 : 4;                                                               \
            for (int64_t i0 = 0; i0 < m; i0 += 4) {                                                             \
                int64_t ni = m - i0 < 4 ? m - i0 : 4;                                                           \
                uint64_t acc[4][4] = {{0}};                                                                     \
                if (ni == 4 && nj == 4) {                                                                       \
                    for (int64_t l = 0; l < k; l++) {                                                           \
                        const T *ap = a + i0 + l * lda;                                                         \
                        uint64_t x0 = (uint64_t)(int64_t)ap[0], x1 = (uint64_t)(int64_t)ap[1],                  \
                                 x2 = (uint64_t)(int64_t)ap[2], x3 = (uint64_t)(int64_t)ap[3];                  \
                        for (int q = 0; q < 4; q++) {                                                           \
                            uint64_t y = (uint64_t)(int64_t)(tb ? b[j0 + q + l * ldb] : b[l + (j0 + q) * ldb]); \
                            acc[q][0] += x0 * y;                                                                \
                            acc[q][1] += x1 * y;                                                                \
                            acc[q][2] += x2 * y;                                                                \
                            acc[q][3] += x3 * y;                                                                \
                        }                                                                                       \
                    }                                                                                           \
                } else {                                                                                        \
                    for (int64_t l = 0; l < k; l++)                                                             \
                        for (int64_t q = 0; q < nj; q++) {                                                      \
                            uint64_t y = (uint64_t)(int64_t)(tb ? b[j0 + q + l * ldb] : b[l + (j0 + q) * ldb]); \
                            for (int64_t p = 0; p < ni; p++)                                                    \
                                acc[q][p] += (uint64_t)(int64_t)a[i0 + p + l * lda] * y;                        \
                        }                                                                                       \
                }                                                                                               \
                for (int64_t q = 0; q < nj; q++)                                                                \
                    for (int64_t p = 0; p < ni; p++) {                                                          \
                        T *o = c + (j0 + q) * ldc + i0 + p;                                                     \
                        *o = (T)(be == 0 ? al * acc[q][p] : be * (uint64_t)(int64_t)*o + al * acc[q][p]);      \
                    }                                                                                           \
            }                                                                                                   \
        }                                                                                                       \
    }
FAM_INT(DEF_GEMM_TILES)

/* Integers: C = alpha*op(A)op(B) + beta*C in uint64 arithmetic, stored with
 * wrap-around. beta == 0 ignores C. */
#define DEF_GEMM_INT(dt, T, C_, R, ...)                                                                         \
    static void gemm_##dt(int ta, int tb, int64_t m, int64_t n, int64_t k, tsr_scalar alpha, const void *av, \
                          int64_t lda, const void *bv, int64_t ldb, tsr_scalar beta, void *cv, int64_t ldc)   \
    {                                                                                                           \
        const T *a = av, *b = bv;                                                                               \
        T *c = cv;                                                                                              \
        uint64_t al = (uint64_t)tsr_scalar_to_int64(alpha), be = (uint64_t)tsr_scalar_to_int64(beta);          \
        if (!ta) {                                                                                              \
            gemm_tiles_##dt(tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);                                       \
            return;                                                                                             \
        }                                                                                                       \
        for (int64_t j = 0; j < n; j++) {                                                                       \
            T *cj = c + j * ldc;                                                                                \
            for (int64_t i = 0; i < m; i++) {                                                                   \
                uint64_t s = 0;                                                                                 \
                const T *ai = a + i * lda;                                                                      \
                for (int64_t l = 0; l < k; l++)                                                                 \
                    s += (uint64_t)(int64_t)ai[l] * (uint64_t)(int64_t)(tb ? b[j + l * ldb] : b[l + j * ldb]);  \
                cj[i] = (T)(be == 0 ? al * s : be * (uint64_t)(int64_t)cj[i] + al * s);                         \
            }                                                                                                   \
        }                                                                                                       \
    }
FAM_INT(DEF_GEMM_INT)

/* BFloat16 arithmetic as c10::BFloat16 does it: each operation in float,
 * rounded to bfloat16 (1.13's BlasKernel.cpp and baddbmm kernel accumulate
 * in scalar_t for bfloat16). */
static inline float rb(float x) { return tsr_bfloat16_to_float(tsr_float_to_bfloat16(x)); }
#define BF(p) tsr_bfloat16_to_float(p)

/* BlasKernel.cpp's sum(): four float partial sums, folded at the end. */
static float sum4_bf16(int64_t k, const tsr_bfloat16 *a, int64_t sa, const tsr_bfloat16 *b, int64_t sb)
{
    float p[4] = {0, 0, 0, 0};
    int64_t l = 0;
    for (; l + 4 <= k; l += 4)
        for (int q = 0; q < 4; q++) p[q] += BF(a[(l + q) * sa]) * BF(b[(l + q) * sb]);
    for (; l < k; l++) p[0] += BF(a[l * sa]) * BF(b[l * sb]);
    for (int q = 1; q < 4; q++) p[0] += p[q];
    return p[0];
}

/* bfloat16 (no oneDNN path on CPUs without AVX-512): the four loops of
 * BlasKernel.cpp, gemm_notrans_ / transa_ / transb_ / transab_. */
static void gemm_bfloat16(int ta, int tb, int64_t m, int64_t n, int64_t k, tsr_scalar alpha, const void *av,
                          int64_t lda, const void *bv, int64_t ldb, tsr_scalar beta, void *cv, int64_t ldc)
{
    const tsr_bfloat16 *a = av, *b = bv;
    tsr_bfloat16 *c = cv;
    float al = rb((float)tsr_scalar_to_double(alpha)), be = rb((float)tsr_scalar_to_double(beta));
    if (ta) {   /* transa_ and transab_: one float dot per element (sum()'s four partial sums) */
        float alf = (float)tsr_scalar_to_double(alpha), bef = (float)tsr_scalar_to_double(beta);
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                const tsr_bfloat16 *bj = tb ? b + j : b + j * ldb;
                float dot = sum4_bf16(k, a + i * lda, 1, bj, tb ? ldb : 1);
                tsr_bfloat16 *o = c + j * ldc + i;
                *o = tsr_float_to_bfloat16(bef == 0 ? alf * dot : bef * BF(*o) + alf * dot);
            }
        return;
    }
    /* scale_ then c += a * (b * alpha), column by column */
    if (be != 1)
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++) c[j * ldc + i] = be == 0 ? 0 : tsr_float_to_bfloat16(be * BF(c[j * ldc + i]));
    for (int64_t l = 0; l < k; l++)
        for (int64_t j = 0; j < n; j++) {
            float val = rb(BF(tb ? b[j + l * ldb] : b[l + j * ldb]) * al);
            for (int64_t i = 0; i < m; i++)
                c[j * ldc + i] = tsr_float_to_bfloat16(BF(c[j * ldc + i]) + rb(BF(a[i + l * lda]) * val));
        }
}

/* 0: as stored, 1: transposed, 2: conjugate-transposed (a conj view read transposed) */
#define TR(t) ((t) == 2 ? CblasConjTrans : (t) ? CblasTrans : CblasNoTrans)
static void gemm_float32(int ta, int tb, int64_t m, int64_t n, int64_t k, tsr_scalar alpha, const void *a,
                         int64_t lda, const void *b, int64_t ldb, tsr_scalar beta, void *c, int64_t ldc)
{
    cblas_sgemm(CblasColMajor, TR(ta), TR(tb), (int)m, (int)n, (int)k, (float)tsr_scalar_to_double(alpha), a,
                (int)lda, b, (int)ldb, (float)tsr_scalar_to_double(beta), c, (int)ldc);
}
static void gemm_float64(int ta, int tb, int64_t m, int64_t n, int64_t k, tsr_scalar alpha, const void *a,
                         int64_t lda, const void *b, int64_t ldb, tsr_scalar beta, void *c, int64_t ldc)
{
    cblas_dgemm(CblasColMajor, TR(ta), TR(tb), (int)m, (int)n, (int)k, tsr_scalar_to_double(alpha), a, (int)lda,
                b, (int)ldb, tsr_scalar_to_double(beta), c, (int)ldc);
}
static void gemm_complex64(int ta, int tb, int64_t m, int64_t n, int64_t k, tsr_scalar alpha, const void *a,
                           int64_t lda, const void *b, int64_t ldb, tsr_scalar beta, void *c, int64_t ldc)
{
    double re, im;
    tsr_scalar_to_complex(alpha, &re, &im);
    float _Complex al = CMPLXF((float)re, (float)im);
    tsr_scalar_to_complex(beta, &re, &im);
    float _Complex be = CMPLXF((float)re, (float)im);
    cblas_cgemm(CblasColMajor, TR(ta), TR(tb), (int)m, (int)n, (int)k, &al, a, (int)lda, b, (int)ldb, &be, c,
                (int)ldc);
}
static void gemm_complex128(int ta, int tb, int64_t m, int64_t n, int64_t k, tsr_scalar alpha, const void *a,
                            int64_t lda, const void *b, int64_t ldb, tsr_scalar beta, void *c, int64_t ldc)
{
    double re, im;
    tsr_scalar_to_complex(alpha, &re, &im);
    double _Complex al = CMPLX(re, im);
    tsr_scalar_to_complex(beta, &re, &im);
    double _Complex be = CMPLX(re, im);
    cblas_zgemm(CblasColMajor, TR(ta), TR(tb), (int)m, (int)n, (int)k, &al, a, (int)lda, b, (int)ldb, &be, c,
                (int)ldc);
}

#define GEMM_ENTRY(dt, ...) [TSR_DT_##dt] = gemm_##dt,
static const gemm_fn gemm_table[TSR_DTYPE_SLOTS] = {
    FAM_INT(GEMM_ENTRY)[TSR_FLOAT32] = gemm_float32, [TSR_FLOAT64] = gemm_float64,
    [TSR_COMPLEX64] = gemm_complex64, [TSR_COMPLEX128] = gemm_complex128, [TSR_BFLOAT16] = gemm_bfloat16,
};

/* A big gemm runs as panels of output columns, one OpenBLAS call each, with a
 * Ctrl-C poll between them. OpenBLAS sums each element over K in an order
 * set by K and by the micro-kernel that computes its tile: a tile cut short
 * at a panel edge is computed by a narrower kernel, in another order (512
 * columns, not a multiple of a 12- or 6-wide sgemm / zgemm tile, changed
 * columns 504-511 of a 2048^2 float32 product). Panels are therefore whole
 * multiples of 96 columns (every UNROLL_N of OpenBLAS's x86 kernels divides
 * it), which keeps every tile as the single call has it (the unit test
 * gemm_panels_are_bit_identical checks it on every BLAS dtype). Work per
 * panel: about 2^31 multiply-adds (a fraction of a second on one core),
 * never fewer than 288 columns, so that repacking A per panel stays cheap:
 * 2048^3 runs as 4 panels (576 wide), 6000^3 as 21 of 288. A threaded
 * OpenBLAS splits a call between its threads by the call's own shape, so
 * panels do not give the bits of PyTorch's single call when OpenBLAS runs
 * more than one thread (its default on a multi-core machine, which PyTorch
 * leaves alone). Then a float or complex gemm of up to 2^33 multiply-adds
 * (2048^3: well under a second on two cores) runs as one call, with
 * PyTorch's bits; a bigger one keeps its panels, so that Ctrl-C answers
 * within about a second, and may differ from PyTorch in the last bit. */
#define SINGLE_CALL_WORK 8589934592.0
#define PANEL_WORK ((int64_t)1 << 31)
#define PANEL_MIN 288
#define PANEL_ALIGN 96

int tsr__gemm_panels(tsr_dtype dt, int ta, int tb, int64_t m, int64_t n, int64_t k, tsr_scalar alpha,
                     const void *av, int64_t lda, const void *bv, int64_t ldb, tsr_scalar beta, void *cv, int64_t ldc,
                     int64_t nb)
{
    const char *a = av, *b = bv;
    char *c = cv;
    /* CPUBlas.cpp normalize_last_dims */
    if (n == 1) ldc = m;
    if (ta) { if (m == 1) lda = k; } else if (k == 1) lda = m;
    if (tb) { if (k == 1) ldb = n; } else if (n == 1) ldb = k;
    if (dt == TSR_BFLOAT16 && ta != 2 && tb != 2) {   /* cpublas::gemm tries mkldnn_bf16_gemm first */
        int rc = tsr__bf16_gemm_dnnl(ta, tb, m, n, k, (float)tsr_scalar_to_double(alpha), av, lda, bv, ldb,
                                     (float)tsr_scalar_to_double(beta), cv, ldc);
        if (rc <= 0) return rc;
    }
    gemm_fn f = gemm_table[dt];
    int64_t isz = tsr_dtype_itemsize(dt);
    bool openblas = dt == TSR_FLOAT32 || dt == TSR_FLOAT64 || dt == TSR_COMPLEX64 || dt == TSR_COMPLEX128;
    if (nb <= 0 && openblas && (double)m * (double)n * (double)k <= SINGLE_CALL_WORK && openblas_get_num_threads() > 1)
        nb = n > 0 ? n : 1;
    if (nb <= 0) {
        int64_t per = m * k > 0 ? PANEL_WORK / (m * k) : n;
        nb = per < PANEL_MIN ? PANEL_MIN : per;
        nb = (nb + PANEL_ALIGN - 1) / PANEL_ALIGN * PANEL_ALIGN;
    }
    for (int64_t j = 0; j < n; j += nb) {
        int64_t w = n - j < nb ? n - j : nb;
        f(ta, tb, m, w, k, alpha, a, lda, b + (tb ? j : j * ldb) * isz, ldb, beta, c + j * ldc * isz, ldc);
        if (j + w < n && tsr_check_interrupt() < 0) return -1;
    }
    return 0;
}

void tsr_gemm(tsr_dtype dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k, tsr_scalar alpha, const void *a,
              int64_t lda, const void *b, int64_t ldb, tsr_scalar beta, void *c, int64_t ldc)
{
    tsr__gemm_panels(dt, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, 0);
}

/* ------------------------------------------------------------ helpers */

static bool is_meta(const tsr_tensor *t) { return tsr_device_is_meta(t->device); }
static int64_t mx1(int64_t v) { return v > 1 ? v : 1; }
static bool scalar_is_zero(tsr_scalar s)
{
    double re, im;
    tsr_scalar_to_complex(s, &re, &im);
    return re == 0 && im == 0;
}

static int dtype_mismatch(tsr_dtype want, tsr_dtype got)
{
    tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(want),
                  tsr_dtype_scalar_name(got));
    return -1;
}

/* The result of a structured op: out (checked and resized) or a new
 * contiguous tensor on the inputs' device (meta, else like's: the device
 * checks have made every input's the same). NEW reference or NULL. */
static tsr_tensor *make_result(tsr_tensor *out, int nd, const int64_t *sizes, tsr_dtype dt, bool meta,
                               const tsr_tensor *like)
{
    if (!out)
        return tsr_tensor_empty(nd, sizes, dt, meta ? TSR_META : tsr__blas_external(like) ? like->device : TSR_CPU);
    if (tsr_out_dtype_check(out, dt) < 0 || tsr_resize_output(out, nd, sizes) < 0) return NULL;
    return tsr_tensor_retain(out);
}

/* The result of an add* op (addmm, addmv, baddbmm, addbmm) of shape sz:
 * self itself when inplace (its shape must be sz: "Bad in-place call"),
 * else out= or a new tensor as make_result. *s gets self as the op reads it
 * (self in place, else self expanded to sz). NEW references, or NULL with
 * *s NULL. */
static tsr_tensor *prepare_result(tsr_tensor *self, tsr_tensor *out, bool inplace, int nd, const int64_t *sz,
                                  tsr_dtype dt, bool meta, const tsr_tensor *like, tsr_tensor **s)
{
    *s = NULL;
    if (inplace) {
        bool ok = self->ndim == nd;
        for (int d = 0; ok && d < nd; d++) ok = self->sizes[d] == sz[d];
        if (!ok) {
            char x[128], y[128];
            tsr_error_set(TSR_ERR_RUNTIME, "Bad in-place call: input tensor size %s and output tensor size %s should "
                          "match", tsr__fmt_list(x, sizeof x, self->ndim, self->sizes),
                          tsr__fmt_list(y, sizeof y, nd, sz));
            return NULL;
        }
        *s = tsr_tensor_retain(self);
        return tsr_tensor_retain(self);
    }
    if (!(*s = tsr_view_expand(self, nd, sz))) return NULL;
    tsr_tensor *r = make_result(out, nd, sz, dt, meta, like);
    if (!r) {
        tsr_tensor_release(*s);
        *s = NULL;
    }
    return r;
}

static int mul_scalar_(tsr_tensor *t, tsr_scalar s)
{
    tsr_operand o = tsr_operand_scalar(s);
    tsr_tensor *r = tsr_binary_(TSR_BINOP_MUL, t, &o, NULL);
    if (!r) return -1;
    tsr_tensor_release(r);
    return 0;
}

/* ------------------------------------------------------------ addmm_impl_cpu_ */

/* result = beta*self + alpha*m1@m2 for 2-D operands of checked shapes; self
 * has result's shape (already expanded) and may be result itself. */
static int addmm_impl(tsr_tensor *result, const tsr_tensor *self, const tsr_tensor *m1_, const tsr_tensor *m2_,
                      tsr_scalar beta, tsr_scalar alpha)
{
    const tsr_tensor *m1 = m1_, *m2 = m2_;
    tsr_tensor *a = NULL, *b = NULL, *c = NULL;
    int rc = -1;
    if (tsr__blas_external(result)) return tsr__cuda_addmm(result, self, m1, m2, beta, alpha);
    if (tsr_tensor_numel(result) == 0 || is_meta(result)) return 0;
    if (m1->sizes[1] == 0) {
        if (scalar_is_zero(beta)) return tsr_zero_(result);
        if (self != result && tsr_copy_(result, self) < 0) return -1;
        return mul_scalar_(result, beta);
    }
    bool same = self == result || (self->storage == result->storage && self->storage_offset == result->storage_offset
                                   && self->strides[0] == result->strides[0] && self->strides[1] == result->strides[1]);
    if (!scalar_is_zero(beta) && !same && tsr_copy_(result, self) < 0) return -1;

    const int64_t *rs = result->strides, *rz = result->sizes;
    bool tc;
    if (rs[0] == 1 && (rz[1] == 1 || rs[1] >= mx1(rz[0]))) {
        tc = false;
        c = tsr_tensor_retain(result);
    } else if (rs[1] == 1 && (rz[0] == 1 || rs[0] >= mx1(rz[1]))) {
        const tsr_tensor *t = m1; m1 = m2; m2 = t;
        tc = true;
        c = tsr_tensor_retain(result);
    } else {
        tc = false;
        tsr_tensor *rt = tsr_view_t(result);
        if (!rt) return -1;
        tsr_tensor *cc = tsr_contiguous(rt, TSR_MF_CONTIGUOUS);
        tsr_tensor_release(rt);
        if (!cc) return -1;
        c = tsr_view_t(cc);
        tsr_tensor_release(cc);
        if (!c) return -1;
    }
    int i0 = tc ? 1 : 0, i1 = tc ? 0 : 1;
    const int64_t m = rz[i0], n = rz[i1], k = m1->sizes[i1];
    /* a conj view read transposed goes to BLAS as conjugate-transposed; read
     * as stored it is resolved first (addmm_impl_cpu_: m1.resolve_conj()) */
    int ta, tb;
    if (m1->strides[i0] == 1 && m1->strides[i1] >= mx1(m)) { ta = 0; a = tsr_resolve_bits(m1); }
    else if (m1->strides[i1] == 1 && m1->strides[i0] >= mx1(k)) { a = m1->neg ? tsr_resolve_bits(m1) : tsr_tensor_retain((tsr_tensor *)m1); ta = a && a->conj ? 2 : 1; }
    else { ta = !tc; a = tsr_clone(m1, TSR_MF_CONTIGUOUS); }
    if (!a) goto fail;
    if (m2->strides[i0] == 1 && m2->strides[i1] >= mx1(k)) { tb = 0; b = tsr_resolve_bits(m2); }
    else if (m2->strides[i1] == 1 && m2->strides[i0] >= mx1(n)) { b = m2->neg ? tsr_resolve_bits(m2) : tsr_tensor_retain((tsr_tensor *)m2); tb = b && b->conj ? 2 : 1; }
    else { tb = !tc; b = tsr_clone(m2, TSR_MF_CONTIGUOUS); }
    if (!b) goto fail;
    int64_t lda = a->strides[(ta != 0) == tc ? 1 : 0], ldb = b->strides[(tb != 0) == tc ? 1 : 0];
    int64_t ldc = c->strides[tc ? 0 : 1];

    tsr_dtype dt = result->dtype;
    if (!gemm_table[dt]) { tsr__not_implemented("addmm_impl_cpu_", dt); goto fail; }
    if (a->dtype != dt) { dtype_mismatch(dt, a->dtype); goto fail; }
    if (b->dtype != dt) { dtype_mismatch(dt, b->dtype); goto fail; }
    if (tsr__gemm_panels(dt, ta, tb, m, n, k, alpha, tsr_tensor_ptr(a, NULL), lda, tsr_tensor_ptr(b, NULL), ldb, beta,
                         tsr_tensor_ptr(c, NULL), ldc, 0) < 0)
        goto fail;
    if (c != result && tsr_copy_(result, c) < 0) goto fail;
    rc = 0;
fail:
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    tsr_tensor_release(c);
    return rc;
}

/* The CUDA wrappers' device check (blas_cuda.h) of a structured op: out=
 * first, then the positional tensors; the method is wrapper_NAME, with "_out"
 * for out= and "_" in place (1.13's RegisterCUDA.cpp names). */
static int device_check(const char *op, tsr_tensor *out, bool inplace, int n, const tsr_tensor *const *ts,
                        const char *const *names)
{
    const tsr_tensor *all[5];
    const char *nm[5];
    int k = 0;
    if (out) { all[k] = out; nm[k++] = "out"; }
    for (int i = 0; i < n; i++) { all[k] = ts[i]; nm[k++] = names[i]; }
    char method[64];
    snprintf(method, sizeof method, "wrapper_%s%s", op, out ? "_out" : inplace ? "_" : "");
    return tsr__blas_device_check(method, k, all, nm);
}

static int check_mm_shapes(const tsr_tensor *a, const tsr_tensor *b)
{
    if (a->sizes[1] == b->sizes[0]) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (%ldx%ld and %ldx%ld)",
                  (long)a->sizes[0], (long)a->sizes[1], (long)b->sizes[0], (long)b->sizes[1]);
    return -1;
}

tsr_tensor *tsr_mm(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor *out)
{
    if (device_check("mm", out, false, 2, (const tsr_tensor *[]){a, b}, (const char *[]){"self", "mat2"}) < 0)
        return NULL;
    if (a->ndim != 2) { tsr_error_set(TSR_ERR_RUNTIME, "self must be a matrix"); return NULL; }
    if (b->ndim != 2) { tsr_error_set(TSR_ERR_RUNTIME, "mat2 must be a matrix"); return NULL; }
    if (check_mm_shapes(a, b) < 0) return NULL;
    int64_t sz[2] = {a->sizes[0], b->sizes[1]};
    tsr_tensor *r = make_result(out, 2, sz, a->dtype, is_meta(a) || is_meta(b), a);
    if (!r) return NULL;
    if (addmm_impl(r, r, a, b, tsr_scalar_int(0), tsr_scalar_int(1)) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

tsr_tensor *tsr_addmm(tsr_tensor *self, const tsr_tensor *m1, const tsr_tensor *m2, tsr_scalar beta,
                      tsr_scalar alpha, tsr_tensor *out, bool inplace)
{
    if (device_check("addmm", out, inplace, 3, (const tsr_tensor *[]){self, m1, m2},
                     (const char *[]){"self", "mat1", "mat2"}) < 0)
        return NULL;
    if (self->dtype != m2->dtype) { tsr_error_set(TSR_ERR_RUNTIME, "self and mat2 must have the same dtype"); return NULL; }
    if (m1->ndim != 2) { tsr_error_set(TSR_ERR_RUNTIME, "mat1 must be a matrix, got %d-D tensor", m1->ndim); return NULL; }
    if (m2->ndim != 2) { tsr_error_set(TSR_ERR_RUNTIME, "mat2 must be a matrix, got %d-D tensor", m2->ndim); return NULL; }
    if (check_mm_shapes(m1, m2) < 0) return NULL;
    int64_t sz[2] = {m1->sizes[0], m2->sizes[1]};
    tsr_tensor *s, *r = prepare_result(self, out, inplace, 2, sz, self->dtype,
                                       is_meta(self) || is_meta(m1) || is_meta(m2), m1, &s);
    if (!r) return NULL;
    if (addmm_impl(r, s, m1, m2, beta, alpha) < 0) goto fail;
    tsr_tensor_release(s);
    return r;
fail:
    tsr_tensor_release(s);
    tsr_tensor_release(r);
    return NULL;
}

/* ------------------------------------------------------------ bmm family */

static int check_batches(const tsr_tensor *b1, const tsr_tensor *b2)
{
    if (b1->ndim != 3) { tsr_error_set(TSR_ERR_RUNTIME, "batch1 must be a 3D tensor"); return -1; }
    if (b2->ndim != 3) { tsr_error_set(TSR_ERR_RUNTIME, "batch2 must be a 3D tensor"); return -1; }
    if (b2->sizes[0] != b1->sizes[0] || b2->sizes[1] != b1->sizes[2]) {
        tsr_error_set(TSR_ERR_RUNTIME,
                      "Expected size for first two dimensions of batch2 tensor to be: [%ld, %ld] but got: [%ld, %ld].",
                      (long)b1->sizes[0], (long)b1->sizes[2], (long)b2->sizes[0], (long)b2->sizes[1]);
        return -1;
    }
    return 0;
}

typedef void (*bmm_small_fn)(tsr_tensor *, const tsr_tensor *, const tsr_tensor *, tsr_scalar, tsr_scalar, bool);

/* baddbmm_cpu_kernel: one opmath dot per element, in the kernel's order. */
#define DEF_BMM_SMALL(dt, T, C, R, ...)                                                                          \
    static void bmm_small_##dt(tsr_tensor *r, const tsr_tensor *s, const tsr_tensor *m, tsr_scalar beta_,        \
                               tsr_scalar alpha_, bool is_bmm)                                                   \
    {                                                                                                            \
        typedef T stor_t; typedef R real_t; (void)sizeof(real_t);                                                \
        int64_t bs = r->sizes[0], is = r->sizes[1], js = r->sizes[2], ks = s->sizes[2];                         \
        C alpha = BMM_SCALAR_##dt(alpha_), beta = BMM_SCALAR_##dt(beta_);                                       \
        const stor_t *sp = tsr_tensor_ptr(s, NULL), *mp = tsr_tensor_ptr(m, NULL);                              \
        stor_t *rp = tsr_tensor_ptr(r, NULL);                                                                    \
        for (int64_t b = 0; b < bs; b++)                                                                         \
            for (int64_t i = 0; i < is; i++)                                                                     \
                for (int64_t j = 0; j < js; j++) {                                                               \
                    C acc = 0;                                                                                   \
                    for (int64_t k = 0; k < ks; k++)                                                             \
                        acc = BMM_ADD_##dt(acc, BMM_MUL_##dt(LD_##dt(sp[b * s->strides[0] + i * s->strides[1] + k * s->strides[2]]), \
                                                              LD_##dt(mp[b * m->strides[0] + k * m->strides[1] + j * m->strides[2]]))); \
                    stor_t *o = rp + b * r->strides[0] + i * r->strides[1] + j * r->strides[2];                  \
                    if (is_bmm) *o = ST_##dt(acc);                                                               \
                    else if (beta == 0) *o = ST_##dt(BMM_MUL_##dt(alpha, acc));                                 \
                    else *o = ST_##dt(BMM_ADD_##dt(BMM_MUL_##dt(LD_##dt(*o), beta), BMM_MUL_##dt(alpha, acc)));  \
                }                                                                                                \
    }
/* integers wrap (computed in uint64); floats in their compute type; complex as c10::complex */
#define BMM_INT_SCALAR(s) tsr_scalar_to_int64(s)
#define BMM_INT_ADD(x, y) ((int64_t)((uint64_t)(x) + (uint64_t)(y)))
#define BMM_INT_MUL(x, y) ((int64_t)((uint64_t)(x) * (uint64_t)(y)))
#define BMM_SCALAR_uint8 BMM_INT_SCALAR
#define BMM_SCALAR_int8 BMM_INT_SCALAR
#define BMM_SCALAR_int16 BMM_INT_SCALAR
#define BMM_SCALAR_int32 BMM_INT_SCALAR
#define BMM_SCALAR_int64 BMM_INT_SCALAR
#define BMM_ADD_uint8 BMM_INT_ADD
#define BMM_ADD_int8 BMM_INT_ADD
#define BMM_ADD_int16 BMM_INT_ADD
#define BMM_ADD_int32 BMM_INT_ADD
#define BMM_ADD_int64 BMM_INT_ADD
#define BMM_MUL_uint8 BMM_INT_MUL
#define BMM_MUL_int8 BMM_INT_MUL
#define BMM_MUL_int16 BMM_INT_MUL
#define BMM_MUL_int32 BMM_INT_MUL
#define BMM_MUL_int64 BMM_INT_MUL
#define BMM_FLT_ADD(x, y) ((x) + (y))
#define BMM_FLT_MUL(x, y) ((x) * (y))
#define BMM_SCALAR_float16(s) ((float)tsr_scalar_to_double(s))
#define BMM_SCALAR_bfloat16(s) rb((float)tsr_scalar_to_double(s))
#define BMM_SCALAR_float32(s) ((float)tsr_scalar_to_double(s))
#define BMM_SCALAR_float64(s) tsr_scalar_to_double(s)
#define BMM_ADD_float16 BMM_FLT_ADD
#define BMM_ADD_bfloat16(x, y) rb((x) + (y))
#define BMM_ADD_float32 BMM_FLT_ADD
#define BMM_ADD_float64 BMM_FLT_ADD
#define BMM_MUL_float16 BMM_FLT_MUL
#define BMM_MUL_bfloat16(x, y) rb((x) * (y))
#define BMM_MUL_float32 BMM_FLT_MUL
#define BMM_MUL_float64 BMM_FLT_MUL
static tsr_cfloat bmm_cf(tsr_scalar s) { double re, im; tsr_scalar_to_complex(s, &re, &im); return CMPLXF((float)re, (float)im); }
static tsr_cdouble bmm_cd(tsr_scalar s) { double re, im; tsr_scalar_to_complex(s, &re, &im); return CMPLX(re, im); }
#define BMM_SCALAR_complex32(s) bmm_cf(s)
#define BMM_SCALAR_complex64(s) bmm_cf(s)
#define BMM_SCALAR_complex128(s) bmm_cd(s)
#define BMM_ADD_complex32 BMM_FLT_ADD
#define BMM_ADD_complex64 BMM_FLT_ADD
#define BMM_ADD_complex128 BMM_FLT_ADD
#define BMM_MUL_complex32 CMUL
/* complex64: c10::complex<float>'s operator*, in float (CMUL's creal would compute in double) */
#define BMM_MUL_complex64(x, y) __builtin_complex(crealf(x) * crealf(y) - cimagf(x) * cimagf(y), \
                                                  crealf(x) * cimagf(y) + cimagf(x) * crealf(y))
#define BMM_MUL_complex128 CMUL
FAM_INT(DEF_BMM_SMALL)
DEF_BMM_SMALL(float32, float, float, float)
DEF_BMM_SMALL(float64, double, double, double)
DEF_BMM_SMALL(bfloat16, tsr_bfloat16, float, float)
DEF_BMM_SMALL(complex64, tsr_cfloat, tsr_cfloat, float)
DEF_BMM_SMALL(complex128, tsr_cdouble, tsr_cdouble, double)

#define BMM_ENTRY(dt, ...) [TSR_DT_##dt] = bmm_small_##dt,
static const bmm_small_fn bmm_small_table[TSR_DTYPE_SLOTS] = {
    FAM_INT(BMM_ENTRY)[TSR_FLOAT32] = bmm_small_float32, [TSR_FLOAT64] = bmm_small_float64,
    [TSR_BFLOAT16] = bmm_small_bfloat16, [TSR_COMPLEX64] = bmm_small_complex64,
    [TSR_COMPLEX128] = bmm_small_complex128,
};

/* bmm_out_or_baddbmm_: result holds self's values already (baddbmm). */
static int bmm_impl(tsr_tensor *r, const tsr_tensor *b1, const tsr_tensor *b2, tsr_scalar beta, tsr_scalar alpha,
                    bool is_bmm)
{
    int64_t bs = b1->sizes[0], ks = b1->sizes[2], rows = b1->sizes[1], cols = b2->sizes[2];
    if (tsr__blas_external(r)) return tsr__cuda_baddbmm(r, b1, b2, is_bmm ? tsr_scalar_int(0) : beta, alpha);
    if (tsr_tensor_numel(r) == 0 || is_meta(r)) return 0;
    if (ks == 0) {
        if (is_bmm || scalar_is_zero(beta)) return tsr_zero_(r);
        return mul_scalar_(r, beta);
    }
    if (b1->dtype == TSR_BFLOAT16 && b2->dtype == TSR_BFLOAT16 && r->dtype == TSR_BFLOAT16 &&
        bs * rows * ks * cols > 16 * 16 * 16 && tsr__dnnl_bf16_usable())   /* use_mkldnn_bf16_matmul */
        return tsr__bf16_mkldnn_matmul(b1, b2, r, is_bmm ? 0.0f : (float)tsr_scalar_to_double(beta),
                                       (float)tsr_scalar_to_double(alpha));
    if (ks * rows * cols < 400) {
        tsr_dtype dt = b1->dtype;
        if (!bmm_small_table[dt]) return tsr__not_implemented(is_bmm ? "bmm" : "baddbmm", dt);
        if (r->dtype != dt) return dtype_mismatch(dt, r->dtype);
        if (b2->dtype != dt) return dtype_mismatch(dt, b2->dtype);
        bmm_small_table[dt](r, b1, b2, beta, alpha, is_bmm);
        return 0;
    }
    for (int64_t b = 0; b < bs; b++) {
        tsr_tensor *rb = tsr_view_select(r, 0, b), *x = tsr_view_select(b1, 0, b), *y = tsr_view_select(b2, 0, b);
        int rc = rb && x && y ? addmm_impl(rb, rb, x, y, is_bmm ? tsr_scalar_int(0) : beta, alpha) : -1;
        tsr_tensor_release(rb);
        tsr_tensor_release(x);
        tsr_tensor_release(y);
        if (rc < 0) return -1;
        if (tsr_check_interrupt() < 0) return -1;
    }
    return 0;
}

tsr_tensor *tsr_bmm(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor *out)
{
    if (device_check("bmm", out, false, 2, (const tsr_tensor *[]){a, b}, (const char *[]){"self", "mat2"}) < 0)
        return NULL;
    if (check_batches(a, b) < 0) return NULL;
    int64_t sz[3] = {a->sizes[0], a->sizes[1], b->sizes[2]};
    tsr_tensor *r = make_result(out, 3, sz, b->dtype, is_meta(a) || is_meta(b), a);
    if (!r) return NULL;
    if (bmm_impl(r, a, b, tsr_scalar_int(0), tsr_scalar_int(1), true) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

tsr_tensor *tsr_baddbmm(tsr_tensor *self, const tsr_tensor *b1, const tsr_tensor *b2, tsr_scalar beta,
                        tsr_scalar alpha, tsr_tensor *out, bool inplace)
{
    if (device_check("baddbmm", out, inplace, 3, (const tsr_tensor *[]){self, b1, b2},
                     (const char *[]){"self", "batch1", "batch2"}) < 0)
        return NULL;
    if (check_batches(b1, b2) < 0) return NULL;
    int64_t sz[3] = {b1->sizes[0], b1->sizes[1], b2->sizes[2]};
    tsr_tensor *s, *r = prepare_result(self, out, inplace, 3, sz, b2->dtype,
                                       is_meta(self) || is_meta(b1) || is_meta(b2), b1, &s);
    if (!r) return NULL;
    if (!inplace && !scalar_is_zero(beta) && !is_meta(r) && tsr_copy_(r, s) < 0) goto fail;
    if (bmm_impl(r, b1, b2, beta, alpha, false) < 0) goto fail;
    tsr_tensor_release(s);
    return r;
fail:
    tsr_tensor_release(s);
    tsr_tensor_release(r);
    return NULL;
}

tsr_tensor *tsr_addbmm(tsr_tensor *self, const tsr_tensor *b1, const tsr_tensor *b2, tsr_scalar beta,
                       tsr_scalar alpha, tsr_tensor *out, bool inplace)
{
    /* addbmm_impl_: result = beta*self, then result.addmm_(b1[i], b2[i], 1, alpha) per batch */
    if (b1->ndim != 3) { tsr_error_set(TSR_ERR_RUNTIME, "batch1 must be a 3D tensor"); return NULL; }
    if (b2->ndim != 3) { tsr_error_set(TSR_ERR_RUNTIME, "batch2 must be a 3D tensor"); return NULL; }
    if (b1->sizes[0] != b2->sizes[0]) {
        tsr_error_set(TSR_ERR_RUNTIME, "batch1 and batch2 must have same number of batches, got %ld and %ld",
                      (long)b1->sizes[0], (long)b2->sizes[0]);
        return NULL;
    }
    if (b1->sizes[2] != b2->sizes[1]) {
        tsr_error_set(TSR_ERR_RUNTIME, "Incompatible matrix sizes for bmm (%ldx%ld and %ldx%ld)", (long)b1->sizes[1],
                      (long)b1->sizes[2], (long)b2->sizes[1], (long)b2->sizes[2]);
        return NULL;
    }
    int64_t sz[2] = {b1->sizes[1], b2->sizes[2]};
    tsr_tensor *s = NULL, *r;
    if (inplace) {   /* addbmm_ checks no shape here: self is the result as it is */
        s = tsr_tensor_retain(self);
        r = tsr_tensor_retain(self);
    } else {
        r = prepare_result(self, out, false, 2, sz, self->dtype, is_meta(self) || is_meta(b1) || is_meta(b2), b1, &s);
        if (!r) return NULL;
    }
    if (is_meta(r)) { tsr_tensor_release(s); return r; }
    if (s != r && tsr_copy_(r, s) < 0) goto fail;
    int64_t nb = b1->sizes[0];
    if (nb == 0 || b1->sizes[2] == 0) {
        if (scalar_is_zero(beta)) { if (tsr_zero_(r) < 0) goto fail; }
        else if (mul_scalar_(r, beta) < 0) goto fail;
    }
    for (int64_t b = 0; b < nb; b++) {
        tsr_tensor *x = tsr_view_select(b1, 0, b), *y = tsr_view_select(b2, 0, b);
        int rc = x && y ? addmm_impl(r, r, x, y, b == 0 ? beta : tsr_scalar_int(1), alpha) : -1;
        tsr_tensor_release(x);
        tsr_tensor_release(y);
        if (rc < 0 || tsr_check_interrupt() < 0) goto fail;
    }
    tsr_tensor_release(s);
    return r;
fail:
    tsr_tensor_release(s);
    tsr_tensor_release(r);
    return NULL;
}

/* ------------------------------------------------------------ gemv, dot */

typedef void (*gemv_fn)(char trans, int64_t m, int64_t n, tsr_scalar alpha, const void *a, int64_t lda,
                        const void *x, int64_t incx, tsr_scalar beta, void *y, int64_t incy);

/* BlasKernel.cpp gemv<scalar_t> for the dtypes without BLAS: 't' is one
 * opmath dot per output, 'n' scales y then adds column by column. */
#define DEF_GEMV(dt, T, C, R, ...)                                                                               \
    static void gemv_##dt(char trans, int64_t m, int64_t n, tsr_scalar alpha_, const void *av, int64_t lda,     \
                          const void *xv, int64_t incx, tsr_scalar beta_, void *yv, int64_t incy)               \
    {                                                                                                            \
        const T *a = av, *x = xv;                                                                                \
        T *y = yv;                                                                                               \
        C alpha = BMM_SCALAR_##dt(alpha_), beta = BMM_SCALAR_##dt(beta_);                                       \
        if (trans == 't') {                                                                                      \
            for (int64_t i = 0; i < n; i++) {                                                                    \
                C sum = 0;                                                                                       \
                const T *row = a + lda * i;                                                                      \
                for (int64_t j = 0; j < m; j++) sum = BMM_ADD_##dt(sum, BMM_MUL_##dt(LD_##dt(x[j * incx]), LD_##dt(row[j]))); \
                if (beta == 0) y[i * incy] = ST_##dt(BMM_MUL_##dt(alpha, sum));                                 \
                else y[i * incy] = ST_##dt(BMM_ADD_##dt(BMM_MUL_##dt(beta, LD_##dt(y[i * incy])), BMM_MUL_##dt(alpha, sum))); \
            }                                                                                                    \
            return;                                                                                              \
        }                                                                                                        \
        if (beta != 1 && beta != 0)                                                                              \
            for (int64_t i = 0; i < m; i++) y[i * incy] = ST_##dt(BMM_MUL_##dt(LD_##dt(y[i * incy]), beta));   \
        for (int64_t j = 0; j < n; j++) {                                                                        \
            const T *col = a + lda * j;                                                                          \
            C z = BMM_MUL_##dt(alpha, LD_##dt(x[j * incx]));                                                    \
            for (int64_t i = 0; i < m; i++) {                                                                    \
                if (j == 0 && beta == 0) y[i * incy] = ST_##dt(0);                                               \
                y[i * incy] = ST_##dt(BMM_ADD_##dt(LD_##dt(y[i * incy]), BMM_MUL_##dt(z, LD_##dt(col[i]))));    \
            }                                                                                                    \
        }                                                                                                        \
    }
FAM_INT(DEF_GEMV)
DEF_GEMV(bfloat16, tsr_bfloat16, float, float)

static void gemv_float32(char trans, int64_t m, int64_t n, tsr_scalar alpha, const void *a, int64_t lda,
                         const void *x, int64_t incx, tsr_scalar beta, void *y, int64_t incy)
{
    cblas_sgemv(CblasColMajor, trans == 't' ? CblasTrans : CblasNoTrans, (int)m, (int)n,
                (float)tsr_scalar_to_double(alpha), a, (int)lda, x, (int)incx, (float)tsr_scalar_to_double(beta), y,
                (int)incy);
}
static void gemv_float64(char trans, int64_t m, int64_t n, tsr_scalar alpha, const void *a, int64_t lda,
                         const void *x, int64_t incx, tsr_scalar beta, void *y, int64_t incy)
{
    cblas_dgemv(CblasColMajor, trans == 't' ? CblasTrans : CblasNoTrans, (int)m, (int)n, tsr_scalar_to_double(alpha),
                a, (int)lda, x, (int)incx, tsr_scalar_to_double(beta), y, (int)incy);
}
static void gemv_complex64(char trans, int64_t m, int64_t n, tsr_scalar alpha, const void *a, int64_t lda,
                           const void *x, int64_t incx, tsr_scalar beta, void *y, int64_t incy)
{
    tsr_cfloat al = bmm_cf(alpha), be = bmm_cf(beta);
    cblas_cgemv(CblasColMajor, trans == 't' ? CblasTrans : CblasNoTrans, (int)m, (int)n, &al, a, (int)lda, x,
                (int)incx, &be, y, (int)incy);
}
static void gemv_complex128(char trans, int64_t m, int64_t n, tsr_scalar alpha, const void *a, int64_t lda,
                            const void *x, int64_t incx, tsr_scalar beta, void *y, int64_t incy)
{
    tsr_cdouble al = bmm_cd(alpha), be = bmm_cd(beta);
    cblas_zgemv(CblasColMajor, trans == 't' ? CblasTrans : CblasNoTrans, (int)m, (int)n, &al, a, (int)lda, x,
                (int)incx, &be, y, (int)incy);
}
#define GEMV_ENTRY(dt, ...) [TSR_DT_##dt] = gemv_##dt,
static const gemv_fn gemv_table[TSR_DTYPE_SLOTS] = {
    FAM_INT(GEMV_ENTRY)[TSR_FLOAT32] = gemv_float32, [TSR_FLOAT64] = gemv_float64, [TSR_BFLOAT16] = gemv_bfloat16,
    [TSR_COMPLEX64] = gemv_complex64, [TSR_COMPLEX128] = gemv_complex128,
};

static bool lda_cond(int64_t m, int64_t n, int64_t lda) { return n == 1 || lda >= mx1(m); }

/* addmv_impl_cpu: result (holding beta's part already) += alpha * mat @ vec. */
static int addmv_impl(tsr_tensor *r, const tsr_tensor *mat, const tsr_tensor *vec, tsr_scalar beta, tsr_scalar alpha)
{
    tsr_tensor *v = NULL, *cm = NULL;
    int rc = -1;
    if (tsr__blas_external(r)) return tsr__cuda_addmv(r, mat, vec, beta, alpha);
    if (mat->dtype == TSR_BFLOAT16 && vec->dtype == TSR_BFLOAT16 && r->dtype == TSR_BFLOAT16 &&
        mat->sizes[0] * mat->sizes[1] > 16 * 16 * 16 && tsr_tensor_numel(vec) != 0 && tsr__dnnl_bf16_usable())
        return tsr__bf16_mkldnn_matmul(mat, vec, r, (float)tsr_scalar_to_double(beta),   /* use_mkldnn_bf16_matmul */
                                       (float)tsr_scalar_to_double(alpha));
    v = vec->strides[0] == 0 ? tsr_contiguous(vec, TSR_MF_CONTIGUOUS) : tsr_tensor_retain((tsr_tensor *)vec);
    if (!v) return -1;
    int64_t incx = mx1(v->strides[0]);
    tsr_dtype dt = mat->dtype;
    gemv_fn f = gemv_table[dt];
    if (!f) { tsr__not_implemented("addmv_impl_cpu", dt); goto fail; }
    if (r->dtype != dt) { dtype_mismatch(dt, r->dtype); goto fail; }
    if (v->dtype != dt) { dtype_mismatch(dt, v->dtype); goto fail; }
    char t;
    int64_t m, n, lda;
    const tsr_tensor *a = mat;
    if (mat->strides[0] == 1 && lda_cond(mat->sizes[0], mat->sizes[1], mat->strides[1])) {
        t = 'n'; m = mat->sizes[0]; n = mat->sizes[1]; lda = mat->strides[1];
    } else if (mat->strides[1] == 1 && lda_cond(mat->sizes[1], mat->sizes[0], mat->strides[0])) {
        t = 't'; m = mat->sizes[1]; n = mat->sizes[0]; lda = mat->strides[0];
    } else {
        cm = tsr_contiguous(mat, TSR_MF_CONTIGUOUS);
        if (!cm) goto fail;
        a = cm;
        t = 't'; m = mat->sizes[1]; n = mat->sizes[0]; lda = cm->strides[0];
    }
    if (n == 1) lda = m;
    if (lda < 1) lda = 1;
    f(t, m, n, alpha, tsr_tensor_ptr(a, NULL), lda, tsr_tensor_ptr(v, NULL), incx, beta, tsr_tensor_ptr(r, NULL),
      r->strides[0] > 0 ? r->strides[0] : 1);
    rc = 0;
fail:
    tsr_tensor_release(v);
    tsr_tensor_release(cm);
    return rc;
}

static int check_addmv(const tsr_tensor *self, const tsr_tensor *mat, const tsr_tensor *vec)
{
    if (!(mat->ndim == 2 && vec->ndim == 1 && self->ndim <= 1)) {
        tsr_error_set(TSR_ERR_RUNTIME, "vector + matrix @ vector expected, got %d, %d, %d", self->ndim, mat->ndim,
                      vec->ndim);
        return -1;
    }
    int64_t sn = tsr_tensor_numel(self);
    if (!(mat->sizes[1] == vec->sizes[0] && (mat->sizes[0] == sn || sn == 1))) {
        tsr_error_set(TSR_ERR_RUNTIME, "size mismatch, got %ld, %ldx%ld,%ld", (long)(self->ndim ? self->sizes[0] : 1),
                      (long)mat->sizes[0], (long)mat->sizes[1], (long)vec->sizes[0]);
        return -1;
    }
    return 0;
}

/* addmv_out_cpu after the checks: r receives beta*self + alpha*mat@vec. */
static int addmv_run(tsr_tensor *r, const tsr_tensor *self, const tsr_tensor *mat, const tsr_tensor *vec,
                     tsr_scalar beta, tsr_scalar alpha)
{
    if (is_meta(r)) return 0;
    int64_t sz = mat->sizes[0];
    tsr_tensor *s = tsr_view_expand(self, 1, &sz);
    if (!s) return -1;
    int rc = -1;
    if (tsr_tensor_numel(mat) == 0) {
        if (scalar_is_zero(beta)) rc = tsr_zero_(r);
        else {
            tsr_operand x = tsr_operand_tensor(s), y = tsr_operand_scalar(beta);
            tsr_tensor *p = tsr_binary(TSR_BINOP_MUL, &x, &y, r, NULL);
            rc = p ? 0 : -1;
            tsr_tensor_release(p);
        }
    } else {
        bool same = s->storage == r->storage && s->storage_offset == r->storage_offset && s->strides[0] == r->strides[0];
        if ((same || scalar_is_zero(beta) || tsr_copy_(r, s) == 0) && tsr_tensor_numel(r) != 0)
            rc = addmv_impl(r, mat, vec, beta, alpha);
        else rc = tsr_error_occurred() ? -1 : 0;
    }
    tsr_tensor_release(s);
    return rc;
}

tsr_tensor *tsr_addmv(tsr_tensor *self, const tsr_tensor *mat, const tsr_tensor *vec, tsr_scalar beta,
                      tsr_scalar alpha, tsr_tensor *out, bool inplace)
{
    if (device_check("addmv", out, inplace, 3, (const tsr_tensor *[]){self, mat, vec},
                     (const char *[]){"self", "mat", "vec"}) < 0)
        return NULL;
    if (check_addmv(self, mat, vec) < 0) return NULL;
    int64_t sz = mat->sizes[0];
    tsr_tensor *s, *r = prepare_result(self, out, inplace, 1, &sz, vec->dtype,
                                       is_meta(self) || is_meta(mat) || is_meta(vec), mat, &s);
    if (!r) return NULL;
    tsr_tensor_release(s);   /* addmv_run broadcasts self itself */
    if (addmv_run(r, self, mat, vec, beta, alpha) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

tsr_tensor *tsr_mv(const tsr_tensor *m, const tsr_tensor *v, tsr_tensor *out)
{
    /* at::mv: addmv_(empty({m.size(0)}, vec.options()), m, v, 0, 1); mv.out:
     * addmv_out(out, empty({m.size(0)}, m.options()), m, v, 0, 1) */
    const tsr_tensor *dev_self = out ? m : v;
    if (device_check("addmv", out, !out, 3, (const tsr_tensor *[]){dev_self, m, v},
                     (const char *[]){"self", "mat", "vec"}) < 0)
        return NULL;
    int64_t sz = m->ndim ? m->sizes[0] : 1;
    tsr_tensor *e = tsr_tensor_empty(1, &sz, v->dtype, TSR_META);
    if (!e) return NULL;
    int rc = check_addmv(e, m, v);
    tsr_tensor_release(e);
    if (rc < 0) return NULL;
    tsr_tensor *r = make_result(out, 1, &sz, v->dtype, is_meta(m) || is_meta(v), m);
    if (!r) return NULL;
    if (addmv_run(r, r, m, v, tsr_scalar_int(0), tsr_scalar_int(1)) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

/* dot_naive / dot_impl of BlasKernel.cpp: BLAS for float, double, complex. */
typedef void (*dot_fn)(int64_t n, const void *x, int64_t incx, const void *y, int64_t incy, bool conj, void *res);
#define DEF_DOT(dt, T, C, R, ...)                                                                                \
    static void dot_##dt(int64_t n, const void *xv, int64_t incx, const void *yv, int64_t incy, bool conj,       \
                         void *res)                                                                              \
    {                                                                                                            \
        const T *x = xv, *y = yv;                                                                                \
        C sum = 0;                                                                                               \
        (void)conj;                                                                                              \
        for (int64_t i = 0; i < n; i++) sum = BMM_ADD_##dt(sum, BMM_MUL_##dt(LD_##dt(x[i * incx]), LD_##dt(y[i * incy]))); \
        *(T *)res = ST_##dt(sum);                                                                                \
    }
FAM_INT(DEF_DOT)
DEF_DOT(bfloat16, tsr_bfloat16, float, float)
static void dot_float32(int64_t n, const void *x, int64_t incx, const void *y, int64_t incy, bool conj, void *res)
{
    *(float *)res = cblas_sdot((int)n, x, (int)incx, y, (int)incy);
}
static void dot_float64(int64_t n, const void *x, int64_t incx, const void *y, int64_t incy, bool conj, void *res)
{
    *(double *)res = cblas_ddot((int)n, x, (int)incx, y, (int)incy);
}
/* Complex dot and vdot: 1.13 as built against OpenBLAS (the reference the
 * oracle runs) calls cdotu_/zdotu_ (and the c variants) with f2c's
 * hidden-result convention, so OpenBLAS reads the result's address as the
 * length and sees 0: every complex dot of 1.13 is 0 (BlasKernel.cpp
 * dot_impl with AT_BLAS_USE_CBLAS_DOT off). tsr reproduces that value. */
static void dot_complex64(int64_t n, const void *x, int64_t incx, const void *y, int64_t incy, bool conj, void *res)
{
    *(tsr_cfloat *)res = 0;
}
static void dot_complex128(int64_t n, const void *x, int64_t incx, const void *y, int64_t incy, bool conj, void *res)
{
    *(tsr_cdouble *)res = 0;
}
#define DOT_ENTRY(dt, ...) [TSR_DT_##dt] = dot_##dt,
static const dot_fn dot_table[TSR_DTYPE_SLOTS] = {
    FAM_INT(DOT_ENTRY)[TSR_FLOAT32] = dot_float32, [TSR_FLOAT64] = dot_float64, [TSR_BFLOAT16] = dot_bfloat16,
    [TSR_COMPLEX64] = dot_complex64, [TSR_COMPLEX128] = dot_complex128,
};

static tsr_tensor *dot_common(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor *out, bool conj)
{
    if (a->ndim != 1 || b->ndim != 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "1D tensors expected, but got %dD and %dD tensors", a->ndim, b->ndim);
        return NULL;
    }
    if (a->dtype != b->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "dot : expected both vectors to have same dtype, but found %s and %s",
                      tsr_dtype_scalar_name(a->dtype), tsr_dtype_scalar_name(b->dtype));
        return NULL;
    }
    if (a->sizes[0] != b->sizes[0]) {
        tsr_error_set(TSR_ERR_RUNTIME, "inconsistent tensor size, expected tensor [%ld] and src [%ld] to have the "
                      "same number of elements, but got %ld and %ld elements respectively", (long)a->sizes[0],
                      (long)b->sizes[0], (long)a->sizes[0], (long)b->sizes[0]);
        return NULL;
    }
    conj = conj && tsr_dtype_is_complex(a->dtype);
    if (out && out->dtype != a->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "result dtype %s does not match input dtype %s",
                      tsr_dtype_scalar_name(out->dtype), tsr_dtype_scalar_name(a->dtype));
        return NULL;
    }
    bool meta = is_meta(a) || is_meta(b);
    if (!meta && !tsr__blas_external(a) && !dot_table[a->dtype]) {
        tsr__not_implemented(conj ? "vdot" : "dot", a->dtype);
        return NULL;
    }
    int64_t none[1] = {0};   /* a 0-dim shape (never read) */
    tsr_tensor *r = make_result(out, 0, none, a->dtype, meta, a);
    if (!r || meta || is_meta(r)) return r;
    if (tsr__blas_external(r)) {
        if (tsr__cuda_dot(r, a, b) == 0) return r;
        tsr_tensor_release(r);
        return NULL;
    }
    int64_t n = a->sizes[0], ix = a->strides[0], iy = b->strides[0];
    if (a->dtype == TSR_BFLOAT16 && n > 16 * 16 * 16 && tsr__dnnl_bf16_usable()) {   /* use_mkldnn_bf16_matmul */
        if (tsr__bf16_mkldnn_matmul(a, b, r, 0.0f, 1.0f) < 0) tsr__take(&r, NULL);
        return r;
    }
    if (n == 1) ix = iy = 1;
    dot_table[a->dtype](n, tsr_tensor_ptr(a, NULL), ix, tsr_tensor_ptr(b, NULL), iy, conj, tsr_tensor_ptr(r, NULL));
    return r;
}

/* A view of t with the conjugate bit flipped. NEW reference or NULL. */
static tsr_tensor *flip_conj(const tsr_tensor *t)
{
    tsr_tensor *v = tsr_view_alias(t);
    if (v) v->conj = !t->conj;
    return v;
}

/* dot and vdot of conj views as 1.13's Blas.cpp writes them: the bits
 * choose the kernel (dot(a.conj(), b) is vdot(a, b)), and where the answer
 * is the conjugate of a product it is returned as a conj view (or written
 * conjugated into out=). Negative bits are resolved. */
static tsr_tensor *dot_bits(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor *out, bool vdot)
{
    bool cx = tsr_dtype_is_complex(a->dtype) && tsr_dtype_is_complex(b->dtype);
    if (!(cx && (a->conj || b->conj)) && !a->neg && !b->neg) return dot_common(a, b, out, vdot);
    if (!cx || a->neg || b->neg) {
        tsr_tensor *ra = tsr_resolve_bits(a), *rb = ra ? tsr_resolve_bits(b) : NULL;
        tsr_tensor *r = rb ? dot_common(ra, rb, out, vdot) : NULL;
        tsr_tensor_release(ra);
        tsr_tensor_release(rb);
        return r;
    }
    tsr_tensor *x = NULL, *y = NULL, *r = NULL;
    bool kconj, rconj;
    if (a->conj && b->conj) {   /* dot: dot(a.conj(), b.conj()).conj(); vdot: vdot(b.conj(), a.conj()) */
        x = flip_conj(vdot ? b : a);
        y = flip_conj(vdot ? a : b);
        kconj = vdot;
        rconj = !vdot;
    } else if (a->conj) {       /* dot: vdot(a.conj(), b); vdot: dot(a.conj(), b) */
        x = flip_conj(a);
        y = tsr_tensor_retain((tsr_tensor *)b);
        kconj = !vdot;
        rconj = false;
    } else {                    /* dot: vdot(b.conj(), a); vdot: dot(a, b.conj()).conj() */
        x = vdot ? tsr_tensor_retain((tsr_tensor *)a) : flip_conj(b);
        y = vdot ? flip_conj(b) : tsr_tensor_retain((tsr_tensor *)a);
        kconj = !vdot;
        rconj = vdot;
    }
    if (x && y) r = dot_common(x, y, out, kconj);
    if (r && rconj) {
        if (out) {
            if (!is_meta(out)) tsr_flip_signs(out->dtype, true, false, tsr_tensor_ptr(out, NULL), 0, 1);
        } else {
            tsr_tensor *v = flip_conj(r);
            tsr_tensor_release(r);
            r = v;
        }
    }
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    return r;
}

/* dot on cuda: dot_cuda behind the wrapper's device check; dot.out (a
 * composite in 1.13: dot_out) checks the three devices itself, resizes out
 * and checks its dtype before computing. */
static tsr_tensor *dot_device(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor *out)
{
    if (!out) {
        if (tsr__blas_device_check("wrapper__dot", 2, (const tsr_tensor *[]){a, b},
                                   (const char *[]){"self", "tensor"}) < 0)
            return NULL;
        return dot_common(a, b, NULL, false);
    }
    if (!tsr_device_equal(out->device, a->device) || !tsr_device_equal(a->device, b->device)) {
        char o[64], x[64], y[64];
        tsr_error_set(TSR_ERR_RUNTIME, "dot(): Expected the output and input tensors to be on the same device, but "
                      "got the output tensor on %s, the 'input' tensor on %s, and the 'other' tensor on %s",
                      tsr_device_str(out->device, o, sizeof o), tsr_device_str(a->device, x, sizeof x),
                      tsr_device_str(b->device, y, sizeof y));
        return NULL;
    }
    if (tsr_resize_output(out, 0, NULL) < 0) return NULL;
    if (out->dtype != a->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "result dtype %s does not match input dtype %s",
                      tsr_dtype_scalar_name(out->dtype), tsr_dtype_scalar_name(a->dtype));
        return NULL;
    }
    tsr_tensor *r = dot_common(a, b, NULL, false);
    if (!r) return NULL;
    int rc = tsr_copy_(out, r);
    tsr_tensor_release(r);
    return rc < 0 ? NULL : tsr_tensor_retain(out);
}

tsr_tensor *tsr_dot(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor *out)
{
    if (tsr__blas_external(a) || tsr__blas_external(b) || tsr__blas_external(out)) return dot_device(a, b, out);
    return dot_bits(a, b, out, false);
}
tsr_tensor *tsr_vdot(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor *out)
{
    if (tsr__blas_external(a) || tsr__blas_external(b) || tsr__blas_external(out)) {
        /* on a device: dot(a.conj(), b), the bit resolved there */
        if (!tsr_dtype_is_complex(a->dtype)) return dot_device(a, b, out);
        tsr_tensor *c = flip_conj(a);
        tsr_tensor *r = c ? dot_device(c, b, out) : NULL;
        tsr_tensor_release(c);
        return r;
    }
    return dot_bits(a, b, out, true);
}
