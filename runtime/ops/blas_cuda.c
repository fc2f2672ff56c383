/* runtime/ops/blas_cuda.c — the matmul family on cuda, as 1.13's
 * aten/src/ATen/native/cuda/Blas.cpp computes it: the same choice of which
 * operand is transposed, of leading dimensions, and of when an operand is
 * copied contiguous on the device (prepare_matrix_for_cublas), then one call
 * of the backend's gemm (cuBLAS); gemv and dot are that gemm with one row, as
 * at::cuda::blas::gemv<at::Half> does. The host never reads device memory. */
#include <stdio.h>
#include <string.h>

#include "blas_cuda.h"
#include "binary.h"
#include "copy.h"
#include "../device.h"
#include "../error.h"
#include "../internal.h"
#include "../view.h"

bool tsr__blas_external(const tsr_tensor *t)
{
    return t && t->device.type != TSR_DEV_CPU && t->device.type != TSR_DEV_META;
}

int tsr__blas_device_check(const char *method, int n, const tsr_tensor *const *ts, const char *const *names)
{
    bool any = false;
    for (int i = 0; i < n; i++) any = any || tsr__blas_external(ts[i]);
    if (!any) return 0;
    const tsr_tensor *first = NULL;
    for (int i = 0; i < n; i++) {
        if (!ts[i]) continue;
        if (!first) { first = ts[i]; continue; }
        if (!tsr_device_equal(first->device, ts[i]->device)) {
            char a[64], b[64];
            tsr_error_set(TSR_ERR_RUNTIME, "Expected all tensors to be on the same device, but found at least two "
                          "devices, %s and %s! (when checking argument for argument %s in method %s)",
                          tsr_device_str(first->device, a, sizeof a), tsr_device_str(ts[i]->device, b, sizeof b),
                          names[i], method);
            return -1;
        }
    }
    return 0;
}

static int64_t mx1(int64_t v) { return v > 1 ? v : 1; }

static bool scalar_is_zero(tsr_scalar s)
{
    double re, im;
    tsr_scalar_to_complex(s, &re, &im);
    return re == 0 && im == 0;
}

/* AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(Half, BFloat16, ...) */
static bool gemm_dtype(tsr_dtype dt)
{
    return dt == TSR_FLOAT16 || dt == TSR_FLOAT32 || dt == TSR_FLOAT64 || dt == TSR_BFLOAT16 || dt == TSR_COMPLEX64 ||
           dt == TSR_COMPLEX128;
}

static int dtype_mismatch(tsr_dtype want, const tsr_tensor *t)
{
    if (t->dtype == want) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(want),
                  tsr_dtype_scalar_name(t->dtype));
    return -1;
}

/* Conjugate and negative views would need the device to resolve them
 * first, which tsr's CUDA backend does not offer yet: refused as an op
 * without a CUDA kernel, never computed on the host. */
static int no_bits(const char *op, int n, const tsr_tensor *const *ts)
{
    for (int i = 0; i < n; i++)
        if (ts[i] && tsr_tensor_has_bits(ts[i])) {
            char name[64];
            snprintf(name, sizeof name, "aten::%s", op);
            tsr_error_no_kernel(name, tsr_device_backend_name(ts[i]->device.type), "CPU, Meta");
            return -1;
        }
    return 0;
}

/* The inputs of an entry point with conjugate or negative views among
 * them, made plain on the device (PyTorch hands cuBLAS a conjugated
 * operand as CUBLAS_OP_C; the values are the same): own[i] a new
 * reference for each of the n inputs (NULL where none was needed).
 * Returns 1 if any was resolved, 0 if none, -1 on error. */
static int resolve_inputs(int n, const tsr_tensor *const *in, tsr_tensor **own)
{
    int any = 0;
    for (int i = 0; i < n; i++) {
        own[i] = NULL;
        if (in[i] && tsr_tensor_has_bits(in[i])) {
            if (!(own[i] = tsr_resolve_bits(in[i]))) {
                for (int j = 0; j < i; j++) tsr_tensor_release(own[j]);
                return -1;
            }
            any = 1;
        }
    }
    return any;
}

static const tsr_tensor *pick(const tsr_tensor *own, const tsr_tensor *t) { return own ? own : t; }

/* Scalar::to<scalar_t>() as the kernel receives it: alpha and beta rounded
 * to the dtype (a float16 alpha of 0.1 is 0.0999755859375), real and
 * imaginary parts. */
static void scalar_to(tsr_dtype dt, tsr_scalar s, double v[2])
{
    double re, im;
    tsr_scalar_to_complex(s, &re, &im);
    switch (dt) {
    case TSR_FLOAT16: v[0] = tsr_half_to_float(tsr_float_to_half((float)re)); v[1] = 0; break;
    case TSR_BFLOAT16: v[0] = tsr_bfloat16_to_float(tsr_float_to_bfloat16((float)re)); v[1] = 0; break;
    case TSR_FLOAT32: v[0] = (float)re; v[1] = 0; break;
    case TSR_COMPLEX64: v[0] = (float)re; v[1] = (float)im; break;
    case TSR_COMPLEX128: v[0] = re; v[1] = im; break;
    default: v[0] = re; v[1] = 0; break;
    }
}

/* at::cuda::blas::gemm / bgemm: the leading dimensions cuBLAS checks even
 * where they are not read, adjusted as _cublasAdjustLdLevel3 does, then the
 * backend's gemm. Strides in elements. */
static int gemm(const char *op, tsr_device dev, tsr_dtype dt, char ta, char tb, int64_t m, int64_t n, int64_t k,
                tsr_scalar alpha, const void *a, int64_t lda, int64_t sa, const void *b, int64_t ldb, int64_t sb,
                tsr_scalar beta, void *c, int64_t ldc, int64_t sc, int64_t batch)
{
    const tsr_backend *be = tsr_device_backend(dev);
    if (!be) return -1;
    if (!be->gemm) {
        char name[64];
        snprintf(name, sizeof name, "aten::%s", op);
        tsr_error_no_kernel(name, tsr_device_backend_name(dev.type), "CPU, Meta");
        return -1;
    }
    if (n <= 1) ldc = mx1(m);
    if (ta != 'n') { if (m <= 1) lda = mx1(k); }
    else if (k <= 1) lda = mx1(m);
    if (tb != 'n') { if (k <= 1) ldb = mx1(n); }
    else if (n <= 1) ldb = mx1(k);
    tsr_kgemm g = {.dtype = (int32_t)dt, .transa = ta, .transb = tb, .m = m, .n = n, .k = k, .lda = lda, .ldb = ldb,
                   .ldc = ldc, .stride_a = sa, .stride_b = sb, .stride_c = sc, .batch = batch, .a = a, .b = b,
                   .c = c};
    scalar_to(dt, alpha, g.alpha);
    scalar_to(dt, beta, g.beta);
    return be->gemm(&g, dev.index);
}

static int mul_scalar_(tsr_tensor *t, tsr_scalar s)
{
    tsr_operand o = tsr_operand_scalar(s);
    tsr_tensor *r = tsr_binary_(TSR_BINOP_MUL, t, &o, NULL);
    if (!r) return -1;
    tsr_tensor_release(r);
    return 0;
}

/* ------------------------------------------------------------ addmm */

/* prepare_matrix_for_cublas(tensor, transpose_tensor): the result as it is
 * when cuBLAS can write it (either layout), else a contiguous copy. NEW
 * reference. */
static tsr_tensor *prepare_result(tsr_tensor *t, bool *transpose)
{
    const int64_t *s = t->strides, *z = t->sizes;
    if (tsr_tensor_is_non_overlapping_and_dense(t)) {
        *transpose = tsr_tensor_is_contiguous(t);
        return tsr_tensor_retain(t);
    }
    if (s[0] == 1 && s[1] >= mx1(z[0])) { *transpose = false; return tsr_tensor_retain(t); }
    if (s[1] == 1 && s[0] >= mx1(z[1])) { *transpose = true; return tsr_tensor_retain(t); }
    *transpose = true;
    return tsr_clone(t, TSR_MF_CONTIGUOUS);
}

/* prepare_matrix_for_cublas(tensor, transpose_tensor, transpose_result) of
 * a real operand (the conj resolution it also does has no bits to resolve). */
static tsr_tensor *prepare_operand(const tsr_tensor *t, bool *transpose)
{
    return prepare_result((tsr_tensor *)t, transpose);
}

int tsr__cuda_addmm(tsr_tensor *result, const tsr_tensor *self, const tsr_tensor *m1, const tsr_tensor *m2,
                    tsr_scalar beta, tsr_scalar alpha)
{
    const tsr_tensor *all[4] = {result, self, m1, m2};
    if (no_bits("addmm", 1, all) < 0) return -1;
    tsr_tensor *own[3];
    int res = resolve_inputs(3, all + 1, own);
    if (res < 0) return -1;
    if (res) {
        int rc = tsr__cuda_addmm(result, self == result ? result : pick(own[0], self), pick(own[1], m1),
                                 pick(own[2], m2), beta, alpha);
        for (int i = 0; i < 3; i++) tsr_tensor_release(own[i]);
        return rc;
    }
    if (result != self && !scalar_is_zero(beta) && tsr_copy_(result, self) < 0) return -1;
    if (result->sizes[0] == 0 || result->sizes[1] == 0) return 0;
    tsr_tensor *r = NULL, *a = NULL, *b = NULL;
    int rc = -1;
    bool tr, ta, tb;
    if (!(r = prepare_result(result, &tr))) return -1;
    if (!(a = prepare_operand(tr ? m2 : m1, &ta)) || !(b = prepare_operand(tr ? m1 : m2, &tb))) goto done;
    if (tr) {
        ta = !ta;
        tb = !tb;
    }
    int64_t m = a->sizes[tr ? 1 : 0], k = a->sizes[tr ? 0 : 1], n = b->sizes[tr ? 0 : 1];
    int64_t lda = a->strides[ta == tr ? 1 : 0], ldb = b->strides[tb == tr ? 1 : 0], ldc = r->strides[tr ? 0 : 1];
    if (tsr_tensor_numel(m1) == 0) {   /* k == 0: beta*self, NaN-free when beta is 0 */
        if (scalar_is_zero(beta)) rc = tsr_zero_(result);
        else {
            tsr_operand x = tsr_operand_tensor(self), y = tsr_operand_scalar(beta);
            tsr_tensor *p = result == self ? (mul_scalar_(result, beta) < 0 ? NULL : tsr_tensor_retain(result))
                                           : tsr_binary(TSR_BINOP_MUL, &x, &y, result, NULL);
            rc = p ? 0 : -1;
            tsr_tensor_release(p);
        }
        goto done;
    }
    tsr_dtype dt = self->dtype;
    if (!gemm_dtype(dt)) { tsr__not_implemented("addmm_cuda", dt); goto done; }
    if (dtype_mismatch(dt, a) < 0 || dtype_mismatch(dt, b) < 0 || dtype_mismatch(dt, r) < 0) goto done;
    if (gemm("addmm", result->device, dt, ta ? 't' : 'n', tb ? 't' : 'n', m, n, k, alpha, tsr_tensor_ptr(a, NULL),
             lda, 0, tsr_tensor_ptr(b, NULL), ldb, 0, beta, tsr_tensor_ptr(r, NULL), ldc, 0, 1) < 0)
        goto done;
    rc = r != result ? tsr_copy_(result, r) : 0;
done:
    tsr_tensor_release(r);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    return rc;
}

/* ------------------------------------------------------------ baddbmm */

/* prepare_batch_matrix_for_cublas: *ld gets the leading dimension. NEW
 * reference. */
static tsr_tensor *prepare_batch(const tsr_tensor *t, bool *transpose, int64_t *ld, bool tr, int64_t m, int64_t n)
{
    const int64_t *s = t->strides;
    int fast = tr ? 2 : 1, lead = tr ? 1 : 2;
    tsr_tensor *r;
    if (s[fast] == 1 && s[lead] >= mx1(m)) {
        *transpose = false;
        r = tsr_tensor_retain((tsr_tensor *)t);
        *ld = r->strides[lead];
    } else if (s[lead] == 1 && s[fast] >= mx1(n)) {
        *transpose = true;
        r = tsr_tensor_retain((tsr_tensor *)t);
        *ld = r->strides[fast];
    } else {
        *transpose = !tr;
        bool nonzero = s[1] != 0 && s[2] != 0;   /* cuBLAS wants non-zero leading dims and strides */
        r = tsr_tensor_is_contiguous(t) && nonzero ? tsr_tensor_retain((tsr_tensor *)t)
                                                   : tsr_clone(t, TSR_MF_CONTIGUOUS);
        if (r) *ld = r->strides[1];
    }
    return r;
}

int tsr__cuda_baddbmm(tsr_tensor *result, const tsr_tensor *b1, const tsr_tensor *b2, tsr_scalar beta,
                      tsr_scalar alpha)
{
    const tsr_tensor *all[3] = {result, b1, b2};
    if (no_bits("baddbmm", 1, all) < 0) return -1;
    tsr_tensor *own[2];
    int res = resolve_inputs(2, all + 1, own);
    if (res < 0) return -1;
    if (res) {
        int rc = tsr__cuda_baddbmm(result, pick(own[0], b1), pick(own[1], b2), beta, alpha);
        for (int i = 0; i < 2; i++) tsr_tensor_release(own[i]);
        return rc;
    }
    if (tsr_tensor_numel(result) == 0) return 0;
    if (b1->sizes[2] == 0) return scalar_is_zero(beta) ? tsr_zero_(result) : mul_scalar_(result, beta);
    const int64_t *rs = result->strides, *rz = result->sizes;
    bool tr = false;
    tsr_tensor *r = NULL, *a = NULL, *b = NULL;
    int rc = -1;
    if (rs[1] == 1 && (rz[2] == 1 || rs[2] >= mx1(rz[1]))) {
        r = tsr_tensor_retain(result);
    } else if (rs[2] == 1 && (rz[1] == 1 || rs[1] >= mx1(rz[2]))) {
        tr = true;
        r = tsr_tensor_retain(result);
    } else {   /* result.transpose(1, 2).clone(Contiguous).transpose(1, 2) */
        tsr_tensor *t = tsr_view_transpose(result, 1, 2), *c = t ? tsr_clone(t, TSR_MF_CONTIGUOUS) : NULL;
        r = c ? tsr_view_transpose(c, 1, 2) : NULL;
        tsr_tensor_release(t);
        tsr_tensor_release(c);
    }
    if (!r) return -1;
    int lead = tr ? 1 : 2;
    int64_t m = rz[tr ? 2 : 1], n = rz[lead], k = (tr ? b2 : b1)->sizes[lead], lda = 0, ldb = 0;
    bool ta, tb;
    if (!(a = prepare_batch(tr ? b2 : b1, &ta, &lda, tr, m, k)) || !(b = prepare_batch(tr ? b1 : b2, &tb, &ldb, tr, k, n)))
        goto done;
    tsr_dtype dt = result->dtype;
    if (!gemm_dtype(dt)) { tsr__not_implemented("baddbmm_cuda", dt); goto done; }
    if (dtype_mismatch(dt, a) < 0 || dtype_mismatch(dt, b) < 0) goto done;
    if (gemm("baddbmm", result->device, dt, ta ? 't' : 'n', tb ? 't' : 'n', m, n, k, alpha, tsr_tensor_ptr(a, NULL),
             lda, a->strides[0], tsr_tensor_ptr(b, NULL), ldb, b->strides[0], beta, tsr_tensor_ptr(r, NULL),
             r->strides[lead], r->strides[0], r->sizes[0]) < 0)
        goto done;
    rc = r != result ? tsr_copy_(result, r) : 0;
done:
    tsr_tensor_release(r);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    return rc;
}

/* ------------------------------------------------------------ gemv, dot */

/* at::cuda::blas::gemv<at::Half>'s gemm: y (1 x out, leading dim incy) =
 * x (1 x summed, leading dim incx) @ op(a)^T, for any dtype; trans as
 * gemv's ('n': a is out x summed column-major, 't': summed x out). */
static int gemv(tsr_device dev, tsr_dtype dt, char trans, int64_t m, int64_t n, tsr_scalar alpha, const void *a,
                int64_t lda, const void *x, int64_t incx, tsr_scalar beta, void *y, int64_t incy)
{
    bool t = trans != 'n';
    if (t) {
        int64_t s = m;
        m = n;
        n = s;
    }
    return gemm("addmv", dev, dt, 'n', t ? 'n' : 't', 1, m, n, alpha, x, incx, 0, a, lda, 0, beta, y, incy, 0, 1);
}

int tsr__cuda_addmv(tsr_tensor *r, const tsr_tensor *mat, const tsr_tensor *vec, tsr_scalar beta, tsr_scalar alpha)
{
    const tsr_tensor *all[3] = {r, mat, vec};
    if (no_bits("addmv", 1, all) < 0) return -1;
    tsr_tensor *own[2];
    int res = resolve_inputs(2, all + 1, own);
    if (res < 0) return -1;
    if (res) {
        int rc = tsr__cuda_addmv(r, pick(own[0], mat), pick(own[1], vec), beta, alpha);
        for (int i = 0; i < 2; i++) tsr_tensor_release(own[i]);
        return rc;
    }
    tsr_tensor *v = vec->strides[0] == 0 ? tsr_contiguous(vec, TSR_MF_CONTIGUOUS) : tsr_tensor_retain((tsr_tensor *)vec);
    tsr_tensor *cm = NULL;
    int rc = -1;
    if (!v) return -1;
    tsr_dtype dt = mat->dtype;
    if (!gemm_dtype(dt)) { tsr__not_implemented("addmv_impl_cuda", dt); goto done; }
    if (dtype_mismatch(dt, mat) < 0 || dtype_mismatch(dt, v) < 0 || dtype_mismatch(dt, r) < 0) goto done;
    const int64_t *s = mat->strides, *z = mat->sizes;
    char t;
    int64_t m, n, lda;
    const tsr_tensor *a = mat;
    if (s[0] == 1 && s[1] >= mx1(z[0])) {
        t = 'n'; m = z[0]; n = z[1]; lda = s[1];
    } else if (s[1] == 1 && s[0] >= mx1(z[1])) {
        t = 't'; m = z[1]; n = z[0]; lda = s[0];
    } else {
        if (!(cm = tsr_contiguous(mat, TSR_MF_CONTIGUOUS))) goto done;
        a = cm;
        t = 't'; m = z[1]; n = z[0]; lda = cm->strides[0];
    }
    rc = gemv(r->device, dt, t, m, n, alpha, tsr_tensor_ptr(a, NULL), lda, tsr_tensor_ptr(v, NULL), v->strides[0],
              beta, tsr_tensor_ptr(r, NULL), r->strides[0]);
done:
    tsr_tensor_release(v);
    tsr_tensor_release(cm);
    return rc;
}

int tsr__cuda_dot(tsr_tensor *r, const tsr_tensor *a, const tsr_tensor *b)
{
    const tsr_tensor *all[2] = {a, b};
    tsr_tensor *own[2];
    int res = resolve_inputs(2, all, own);
    if (res < 0) return -1;
    if (res) {
        int rc = tsr__cuda_dot(r, pick(own[0], a), pick(own[1], b));
        for (int i = 0; i < 2; i++) tsr_tensor_release(own[i]);
        return rc;
    }
    if (!gemm_dtype(a->dtype)) return tsr__not_implemented("dot", a->dtype);
    int64_t n = a->sizes[0];
    if (n == 0) return tsr_zero_(r);   /* cublas<t>dot of no elements: 0 */
    /* a stride-0 (expanded) vector is no valid leading dimension: copied */
    tsr_tensor *x = a->strides[0] == 0 && n > 1 ? tsr_contiguous(a, TSR_MF_CONTIGUOUS) : tsr_tensor_retain((tsr_tensor *)a);
    tsr_tensor *y = b->strides[0] == 0 && n > 1 ? tsr_contiguous(b, TSR_MF_CONTIGUOUS) : tsr_tensor_retain((tsr_tensor *)b);
    int rc = -1;
    if (x && y) {
        int64_t incx = n == 1 ? 1 : x->strides[0], incy = n == 1 ? 1 : y->strides[0];
        /* (1 x n, leading dim incx) @ (1 x n, leading dim incy)^T */
        rc = gemm("dot", r->device, a->dtype, 'n', 't', 1, 1, n, tsr_scalar_int(1), tsr_tensor_ptr(x, NULL), incx, 0,
                  tsr_tensor_ptr(y, NULL), incy, 0, tsr_scalar_int(0), tsr_tensor_ptr(r, NULL), 1, 0, 1);
    }
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    return rc;
}
