/* runtime/ops/copy.c — copy_, fill_, zero_, clone, contiguous, to. Two-operand
 * strided loops coalesce dimensions, then hand rows to tsr_convert. Overlap
 * rules follow 1.13 (aten/src/ATen/MemoryOverlap.cpp): a written-to tensor
 * with a broadcast (stride 0) dim, or a partially overlapping source, is an
 * error; other shared-storage cases are staged through a temporary. */
#include <string.h>
#ifdef __SSE2__
#include <xmmintrin.h>
#endif
#include "../device.h"
#include "../error.h"
#include "../internal.h"
#include "../kernels.h"
#include "../view.h"
#include "copy.h"

#define CHUNK 65536   /* elements between interrupt polls */

/* Broadcasts src's shape against dst's; 0, or -1 with PyTorch's messages. */
static int check_broadcast(const tsr_tensor *dst, const tsr_tensor *src)
{
    int n = dst->ndim > src->ndim ? dst->ndim : src->ndim;
    int64_t shape[TSR_MAX_DIMS];
    for (int i = n - 1; i >= 0; i--) {
        int da = i - (n - dst->ndim), db = i - (n - src->ndim);
        int64_t a = da >= 0 ? dst->sizes[da] : 1, b = db >= 0 ? src->sizes[db] : 1;
        if (a != b && a != 1 && b != 1) {
            tsr_error_set(TSR_ERR_RUNTIME, "The size of tensor a (%lld) must match the size of tensor b (%lld) "
                          "at non-singleton dimension %d", (long long)a, (long long)b, i);
            return -1;
        }
        shape[i] = a == 1 ? b : a;
    }
    bool same = n == dst->ndim;
    for (int i = 0; same && i < n; i++) same = shape[i] == dst->sizes[i];
    if (!same) {
        char x[1024], y[1024];
        tsr_error_set(TSR_ERR_RUNTIME, "output with shape %s doesn't match the broadcast shape %s",
                      tsr__fmt_list(x, sizeof x, dst->ndim, dst->sizes), tsr__fmt_list(y, sizeof y, n, shape));
        return -1;
    }
    return 0;
}

static bool has_internal_overlap(const tsr_tensor *t)
{
    for (int i = 0; i < t->ndim; i++)
        if (t->strides[i] == 0 && t->sizes[i] > 1) return true;
    return false;
}

/* Geometry of a two-operand loop after coalescing; strides in bytes. */
typedef struct { int n; int64_t sizes[TSR_MAX_DIMS]; int64_t s0[TSR_MAX_DIMS], s1[TSR_MAX_DIMS]; } loop2;

/* Dims in order, innermost last; merges d into d+1 when both operands allow it. */
static void coalesce(loop2 *L, int nd, const int64_t *sizes, const int64_t *a, const int64_t *b, int ia, int ib)
{
    int n = 0;
    for (int d = 0; d < nd; d++) {
        if (sizes[d] == 1) continue;
        if (n > 0) {
            int p = n - 1;
            if (L->s0[p] == sizes[d] * a[d] * ia && L->s1[p] == sizes[d] * b[d] * ib) {
                L->sizes[p] *= sizes[d];
                L->s0[p] = a[d] * ia;
                L->s1[p] = b[d] * ib;
                continue;
            }
        }
        L->sizes[n] = sizes[d];
        L->s0[n] = a[d] * ia;
        L->s1[n] = b[d] * ib;
        n++;
    }
    if (n == 0) {
        L->sizes[0] = 1;
        L->s0[0] = ia;
        L->s1[0] = ib;
        n = 1;
    }
    L->n = n;
}

/* Runs fn over rows of the coalesced loop; fn(p0, p1, count, stride0, stride1, ctx). */
typedef void (*row_fn)(char *p0, const char *p1, int64_t n, int64_t s0, int64_t s1, void *ctx);

static int run_loop(const loop2 *L, char *base0, const char *base1, row_fn fn, void *ctx)
{
    int64_t idx[TSR_MAX_DIMS] = {0};
    int last = L->n - 1;
    int64_t rows = 1, done = 0;
    for (int d = 0; d < last; d++) rows *= L->sizes[d];
    for (int64_t r = 0; r < rows; r++) {
        int64_t o0 = 0, o1 = 0;
        for (int d = 0; d < last; d++) {
            o0 += idx[d] * L->s0[d];
            o1 += idx[d] * L->s1[d];
        }
        /* a long row goes in pieces so that an interrupt is seen */
        for (int64_t off = 0; off < L->sizes[last]; off += CHUNK) {
            int64_t m = L->sizes[last] - off < CHUNK ? L->sizes[last] - off : CHUNK;
            fn(base0 + o0 + off * L->s0[last], base1 ? base1 + o1 + off * L->s1[last] : NULL, m, L->s0[last],
               L->s1[last], ctx);
            done += m;
            if (done >= CHUNK) {
                done = 0;
                if (tsr_check_interrupt() < 0) return -1;
            }
        }
        for (int d = last - 1; d >= 0; d--) {
            if (++idx[d] < L->sizes[d]) break;
            idx[d] = 0;
        }
    }
    return 0;
}

typedef struct { tsr_dtype dt, st; } conv_ctx;

static void conv_row(char *p0, const char *p1, int64_t n, int64_t s0, int64_t s1, void *ctx)
{
    conv_ctx *c = ctx;
    tsr_convert(c->dt, p0, s0, c->st, p1, s1, n);
}

static bool same_storage_region(const tsr_tensor *a, const tsr_tensor *b)
{
    return a->storage == b->storage && a->storage->data != NULL;
}

/* 1.13's get_overlap_status for two dense tensors on one storage: 0 none or
 * unknowable, 1 full (same memory), 2 partial. */
static int overlap_status(const tsr_tensor *a, const tsr_tensor *b)
{
    if (!same_storage_region(a, b)) return 0;
    if (tsr_tensor_numel(a) == 0 || tsr_tensor_numel(b) == 0) return 0;
    if (!tsr_tensor_is_non_overlapping_and_dense(a) || !tsr_tensor_is_non_overlapping_and_dense(b)) return 3;
    int64_t as = a->storage_offset * tsr_tensor_itemsize(a), ae = as + tsr_tensor_nbytes(a);
    int64_t bs = b->storage_offset * tsr_tensor_itemsize(b), be = bs + tsr_tensor_nbytes(b);
    if (as == bs && ae == be) {
        bool same = a->ndim == b->ndim;
        for (int i = 0; same && i < a->ndim; i++) same = a->strides[i] == b->strides[i];
        return same ? 1 : 2;
    }
    return as < be && bs < ae ? 2 : 0;
}

/* A same-dtype 2-d copy whose source is read across rows (x.t().contiguous()):
 * each operand is contiguous along the dim the other strides over. */
static bool is_transpose(const loop2 *L, tsr_dtype dt, tsr_dtype st)
{
    int64_t sz = tsr_dtype_itemsize(dt);
    return dt == st && L->n == 2 && L->sizes[0] >= 32 && L->sizes[1] >= 32 && L->s0[1] == sz && L->s1[0] == sz &&
           (sz == 1 || sz == 2 || sz == 4 || sz == 8 || sz == 16);
}

#define TILE 32   /* a 32x32 tile of 8-byte elements is 8 KB per operand: both stay in L1 */

#define TILE_LOOP(T)                                                                                        \
    for (int64_t i = i0; i < i1; i++)                                                                       \
        for (int64_t j = j0; j < j1; j++)                                                                   \
            *(T *)(d + i * L->s0[0] + j * L->s0[1]) = *(const T *)(s + i * L->s1[0] + j * L->s1[1])

typedef struct { uint64_t a, b; } u128;

#ifdef __SSE2__
/* A tile of 4-byte elements in 4x4 register transposes (SSE, baseline on
 * x86-64): src(i..i+3, j+k) are contiguous, dst(i+k, j..j+3) too. The edges
 * of a tile not a multiple of 4 go element by element. */
static void tile4_sse(const loop2 *L, char *d, const char *s, int64_t i0, int64_t i1, int64_t j0, int64_t j1)
{
    int64_t ds = L->s0[0], ss = L->s1[1];
    int64_t i4 = i0 + ((i1 - i0) & ~(int64_t)3), j4 = j0 + ((j1 - j0) & ~(int64_t)3);
    for (int64_t i = i0; i < i4; i += 4) {
        for (int64_t j = j0; j < j4; j += 4) {
            const char *p = s + i * 4 + j * ss;
            __m128 r0 = _mm_loadu_ps((const float *)p), r1 = _mm_loadu_ps((const float *)(p + ss));
            __m128 r2 = _mm_loadu_ps((const float *)(p + 2 * ss)), r3 = _mm_loadu_ps((const float *)(p + 3 * ss));
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
            char *q = d + i * ds + j * 4;
            _mm_storeu_ps((float *)q, r0);
            _mm_storeu_ps((float *)(q + ds), r1);
            _mm_storeu_ps((float *)(q + 2 * ds), r2);
            _mm_storeu_ps((float *)(q + 3 * ds), r3);
        }
        for (int64_t ii = i; ii < i + 4; ii++)
            for (int64_t j = j4; j < j1; j++) memcpy(d + ii * ds + j * 4, s + ii * 4 + j * ss, 4);
    }
    for (int64_t i = i4; i < i1; i++)
        for (int64_t j = j0; j < j1; j++) memcpy(d + i * ds + j * 4, s + i * 4 + j * ss, 4);
}
#endif

/* The transpose copy in cache-sized tiles: one pass over both operands
 * instead of a cache miss per element read. Polls for Ctrl-C per tile row. */
static int copy_blocked(const loop2 *L, char *d, const char *s, int sz)
{
    for (int64_t i0 = 0; i0 < L->sizes[0]; i0 += TILE) {
        int64_t i1 = i0 + TILE < L->sizes[0] ? i0 + TILE : L->sizes[0];
        for (int64_t j0 = 0; j0 < L->sizes[1]; j0 += TILE) {
            int64_t j1 = j0 + TILE < L->sizes[1] ? j0 + TILE : L->sizes[1];
#ifdef __SSE2__
            if (sz == 4) {
                tile4_sse(L, d, s, i0, i1, j0, j1);
                continue;
            }
#endif
            switch (sz) {
            case 1: TILE_LOOP(uint8_t); break;
            case 2: TILE_LOOP(uint16_t); break;
            case 4: TILE_LOOP(uint32_t); break;
            case 8: TILE_LOOP(uint64_t); break;
            default: TILE_LOOP(u128); break;
            }
        }
        if (tsr_check_interrupt() < 0) return -1;
    }
    return 0;
}

typedef struct { tsr_dtype dt; bool conj, neg; } flip_ctx;

static void flip_row(char *p0, const char *p1 __attribute__((unused)), int64_t n, int64_t s0,
                     int64_t s1 __attribute__((unused)), void *ctx)
{
    flip_ctx *c = ctx;
    tsr_flip_signs(c->dt, c->conj, c->neg, p0, s0, n);
}

/* Flips the sign bits of every element of t in place (tsr_flip_signs). */
static int flip_pass(tsr_tensor *t, bool conj, bool neg)
{
    if (tsr_tensor_numel(t) == 0) return 0;
    flip_ctx c = {t->dtype, conj, neg};
    loop2 L;
    int sz = tsr_tensor_itemsize(t);
    coalesce(&L, t->ndim, t->sizes, t->strides, t->strides, sz, sz);
    return run_loop(&L, tsr_tensor_ptr(t, NULL), NULL, flip_row, &c);
}

/* ------------------------------------------------- devices the host cannot read */

static bool on_host(const tsr_tensor *t) { return t->device.type == TSR_DEV_CPU; }

/* Negates, in place on t's device, part of every element of t: for a
 * complex t its real (part 0) or imaginary (part 1) parts, for a real one
 * (part 0) the values; one NEG kernel launch over t's geometry. */
static int device_negate_part(tsr_tensor *t, int part)
{
    const tsr_backend *be = tsr_device_backend(t->device);
    if (!be) return -1;
    tsr_dtype rt = tsr_dtype_to_real(t->dtype);
    tsr_klaunch *K = calloc(1, sizeof *K);
    if (!K) {
        tsr_error_set(TSR_ERR_MEMORY, "out of memory");
        return -1;
    }
    K->kernel = TSR_K_NEG;
    K->nops = 2;
    K->compute = K->dtype[0] = K->dtype[1] = (int)rt;
    K->numel = tsr_tensor_numel(t);
    K->data[0] = K->data[1] = tsr_tensor_ptr(t, NULL) + part * tsr_dtype_itemsize(rt);
    int isz = tsr_tensor_itemsize(t), nd = 0;
    for (int d = t->ndim - 1; d >= 0; d--) {   /* fastest first, runs merged */
        int64_t n = t->sizes[d], s = t->strides[d] * isz;
        if (n == 1) continue;
        if (nd > 0 && K->stride[0][nd - 1] * K->shape[nd - 1] == s) {
            K->shape[nd - 1] *= n;
            continue;
        }
        if (nd == TSR_K_MAXDIMS) {
            free(K);
            tsr_error_set(TSR_ERR_RUNTIME, "tsr: a copy on %s over more than %d dimensions that do not coalesce",
                          tsr_device_type_name(t->device.type), TSR_K_MAXDIMS);
            return -1;
        }
        K->shape[nd] = n;
        K->stride[0][nd] = K->stride[1][nd] = s;
        nd++;
    }
    K->nd = nd;
    int rc = be->launch(K, t->device.index);
    free(K);
    return rc;
}

/* The device's flip_pass: conj negates the imaginary parts, neg every part. */
static int device_flip(tsr_tensor *t, bool conj, bool neg)
{
    bool cx = tsr_dtype_is_complex(t->dtype);
    if (neg && device_negate_part(t, 0) < 0) return -1;
    if (cx && conj != neg) return device_negate_part(t, 1);
    return 0;
}

/* One COPY kernel launch over dst's geometry: from src (already expanded
 * to dst's shape, on dst's device), or from the value v (src NULL), each
 * converted to dst's dtype. Adjacent dims that are one run in every
 * operand merge first. */
static int device_launch_copy(tsr_tensor *dst, const tsr_tensor *src, const unsigned char *v)
{
    const tsr_backend *be = tsr_device_backend(dst->device);
    if (!be) return -1;
    if (tsr_tensor_numel(dst) == 0) return 0;
    if (!be->launch || !be->has_kernel || !be->has_kernel(TSR_K_COPY, (int)dst->dtype) ||
        (src && !be->has_kernel(TSR_K_COPY, (int)src->dtype))) {
        tsr_error_no_kernel(src ? "aten::copy_" : "aten::fill_.Scalar", tsr_device_backend_name(dst->device.type),
                            "CPU, Meta");
        return -1;
    }
    /* the math bits, as the host's copy: dst's memory must end up holding
     * dst's bits applied to src's values (a value v was stored with them
     * already); a pass over dst after the plain copy flips what differs */
    bool fconj = src ? dst->conj != src->conj : false, fneg = src ? dst->neg != src->neg : false;
    if ((fconj || fneg) && !be->has_kernel(TSR_K_NEG, (int)tsr_dtype_to_real(dst->dtype))) {
        tsr_error_no_kernel(fconj ? "aten::resolve_conj" : "aten::resolve_neg",
                            tsr_device_backend_name(dst->device.type), "CPU, Meta");
        return -1;
    }
    tsr_klaunch *K = calloc(1, sizeof *K);
    if (!K) {
        tsr_error_set(TSR_ERR_MEMORY, "out of memory");
        return -1;
    }
    K->kernel = TSR_K_COPY;
    K->nops = 2;
    K->compute = (int)dst->dtype;
    K->numel = tsr_tensor_numel(dst);
    K->dtype[0] = (int)dst->dtype;
    K->data[0] = tsr_tensor_ptr(dst, NULL);
    if (src) {
        K->dtype[1] = (int)src->dtype;
        K->data[1] = tsr_tensor_ptr(src, NULL);
    } else {   /* the value as dst's bits store it */
        K->dtype[1] = (int)dst->dtype;
        memcpy(K->scalar[1].b, v, 16);
        tsr_flip_signs(dst->dtype, dst->conj, dst->neg, K->scalar[1].b, 0, 1);
    }
    int isz0 = tsr_tensor_itemsize(dst), isz1 = src ? tsr_tensor_itemsize(src) : 0;
    int nd = 0;
    for (int d = dst->ndim - 1; d >= 0; d--) {   /* fastest first */
        int64_t n = dst->sizes[d], s0 = dst->strides[d] * isz0, s1 = src ? src->strides[d] * isz1 : 0;
        if (n == 1) continue;
        if (nd > 0 && K->stride[0][nd - 1] * K->shape[nd - 1] == s0 && K->stride[1][nd - 1] * K->shape[nd - 1] == s1) {
            K->shape[nd - 1] *= n;
            continue;
        }
        if (nd == TSR_K_MAXDIMS) {
            free(K);
            tsr_error_set(TSR_ERR_RUNTIME, "tsr: a copy on %s over more than %d dimensions that do not coalesce",
                          tsr_device_type_name(dst->device.type), TSR_K_MAXDIMS);
            return -1;
        }
        K->shape[nd] = n;
        K->stride[0][nd] = s0;
        K->stride[1][nd] = s1;
        nd++;
    }
    K->nd = nd;
    int rc = be->launch(K, dst->device.index);
    free(K);
    if (rc == 0 && (fconj || fneg)) rc = device_flip(dst, fconj, fneg);
    return rc;
}

/* A contiguous tensor of t's values, dtype and shape on t's device: t
 * itself (retained) when it already is one. */
static tsr_tensor *device_contiguous(const tsr_tensor *t)
{
    if (tsr_tensor_is_contiguous(t) && !tsr_tensor_has_bits(t)) return tsr_tensor_retain((tsr_tensor *)t);
    tsr_tensor *c = tsr_tensor_empty(t->ndim, t->sizes, t->dtype, t->device);
    if (c && device_launch_copy(c, t, NULL) < 0) {
        tsr_tensor_release(c);
        return NULL;
    }
    return c;
}

/* Bytes of the contiguous src into the contiguous dst (same nbytes),
 * across devices, by the backend of the device that is not the host's. */
static int device_bytes(tsr_tensor *dst, const tsr_tensor *src)
{
    size_t n = (size_t)tsr_tensor_numel(src) * (size_t)tsr_tensor_itemsize(src);
    if (!n) return 0;
    const tsr_backend *be = tsr_device_backend(on_host(dst) ? src->device : dst->device);
    if (!be) return -1;
    return be->copy(tsr_tensor_ptr(dst, NULL), dst->device, tsr_tensor_ptr(src, NULL), src->device, n);
}

/* copy_ where either side is on a device the host cannot read: values are
 * staged through contiguous tensors, cast on the host for uploads (dst's
 * dtype) and downloads (after the transfer), and on the device between
 * two tensors of that device. */
static int copy_device(tsr_tensor *dst, const tsr_tensor *src)
{
    if (tsr_tensor_numel(dst) == 0) return 0;
    int rc = -1;
    tsr_tensor *e = NULL, *a = NULL, *b = NULL;
    if (!on_host(dst) && !on_host(src) && tsr_device_equal(dst->device, src->device)) {
        if (src->storage == dst->storage) {   /* a possible overlap: copy src away first */
            if (!(a = tsr_tensor_empty(src->ndim, src->sizes, src->dtype, src->device)) ||
                device_launch_copy(a, src, NULL) < 0)
                goto done;
            src = a;
        }
        if (!(e = tsr_view_expand(src, dst->ndim, dst->sizes))) goto done;
        rc = device_launch_copy(dst, e, NULL);
        goto done;
    }
    if (on_host(src) && src->ndim == 0 && !on_host(dst)) {   /* one value: a fill */
        unsigned char v[16] __attribute__((aligned(16))) = {0};
        tsr_convert(dst->dtype, v, 0, src->dtype, tsr_tensor_ptr(src, NULL), 0, 1);
        tsr_flip_signs(dst->dtype, src->conj, src->neg, v, 0, 1);
        rc = device_launch_copy(dst, NULL, v);
        goto done;
    }
    if (on_host(src)) {
        /* upload: dst's values made on the host, moved, then placed */
        if (!(a = tsr_tensor_empty(dst->ndim, dst->sizes, dst->dtype, TSR_CPU)) || tsr_copy_(a, src) < 0) goto done;
        if (tsr_tensor_is_contiguous(dst) && !tsr_tensor_has_bits(dst)) {
            rc = device_bytes(dst, a);
            goto done;
        }
        if (!(b = tsr_tensor_empty(dst->ndim, dst->sizes, dst->dtype, dst->device)) || device_bytes(b, a) < 0) goto done;
        rc = device_launch_copy(dst, b, NULL);
        goto done;
    }
    /* download (or between two devices): src's values made contiguous where
     * they are, moved, then copied into dst by dst's side */
    if (!(a = device_contiguous(src))) goto done;
    if (!(b = tsr_tensor_empty(src->ndim, src->sizes, src->dtype, on_host(dst) ? TSR_CPU : dst->device)) ||
        device_bytes(b, a) < 0)
        goto done;
    if (on_host(dst)) {
        rc = tsr_copy_(dst, b);
    } else {
        if (!(e = tsr_view_expand(b, dst->ndim, dst->sizes))) goto done;
        rc = device_launch_copy(dst, e, NULL);
    }
done:
    tsr_tensor_release(e);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    return rc;
}

int tsr_copy_(tsr_tensor *dst, const tsr_tensor *src)
{
    if (tsr_device_is_meta(dst->device)) return 0;           /* 1.13 checks nothing on meta */
    if (tsr_device_is_meta(src->device)) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
        return -1;
    }
    if (check_broadcast(dst, src) < 0) return -1;
    if (has_internal_overlap(dst)) {
        tsr_error_set(TSR_ERR_RUNTIME, "unsupported operation: more than one element of the written-to tensor "
                      "refers to a single memory location. Please clone() the tensor before performing the operation.");
        return -1;
    }
    if (!on_host(dst) || !on_host(src)) return copy_device(dst, src);
    int ov = overlap_status(dst, src);
    if (ov == 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "unsupported operation: some elements of the input tensor and the written-to "
                      "tensor refer to a single memory location. Please clone() the tensor before performing the operation.");
        return -1;
    }
    /* the math bits: dst's storage must end up holding dst's bits applied to
     * src's values; a pass over dst after the plain copy flips what differs */
    bool fconj = dst->conj != src->conj, fneg = dst->neg != src->neg;
    if (ov == 1 && dst->dtype == src->dtype) return (fconj || fneg) ? flip_pass(dst, fconj, fneg) : 0;
    if (tsr_tensor_numel(dst) == 0) return 0;
    tsr_tensor *staged = NULL;
    if (ov != 0 || same_storage_region(dst, src)) {
        staged = tsr_clone(src, TSR_MF_CONTIGUOUS);
        if (!staged) return -1;
        src = staged;
    }
    tsr_tensor *e = tsr_view_expand(src, dst->ndim, dst->sizes);
    if (!e) {
        tsr_tensor_release(staged);
        return -1;
    }
    loop2 L;
    coalesce(&L, dst->ndim, dst->sizes, dst->strides, e->strides, tsr_tensor_itemsize(dst), tsr_tensor_itemsize(e));
    conv_ctx c = {dst->dtype, e->dtype};
    int rc = is_transpose(&L, dst->dtype, e->dtype)
                 ? copy_blocked(&L, tsr_tensor_ptr(dst, NULL), tsr_tensor_ptr(e, NULL), tsr_tensor_itemsize(dst))
                 : run_loop(&L, tsr_tensor_ptr(dst, NULL), tsr_tensor_ptr(e, NULL), conv_row, &c);
    tsr_tensor_release(e);
    tsr_tensor_release(staged);
    if (rc == 0 && (fconj || fneg)) rc = flip_pass(dst, fconj, fneg);
    return rc;
}

typedef struct { unsigned char v[16]; int sz; } fill_ctx;

static void fill_row(char *p0, const char *p1 __attribute__((unused)), int64_t n, int64_t s0,
                     int64_t s1 __attribute__((unused)), void *ctx)
{
    fill_ctx *c = ctx;
    switch (c->sz) {
    case 1: if (s0 == 1) { memset(p0, c->v[0], (size_t)n); return; }
            for (int64_t k = 0; k < n; k++) p0[k * s0] = (char)c->v[0];
            return;
    case 2: { uint16_t v; memcpy(&v, c->v, 2); for (int64_t k = 0; k < n; k++) *(uint16_t *)(p0 + k * s0) = v; return; }
    case 4: { uint32_t v; memcpy(&v, c->v, 4); for (int64_t k = 0; k < n; k++) *(uint32_t *)(p0 + k * s0) = v; return; }
    case 8: { uint64_t v; memcpy(&v, c->v, 8); for (int64_t k = 0; k < n; k++) *(uint64_t *)(p0 + k * s0) = v; return; }
    default: for (int64_t k = 0; k < n; k++) memcpy(p0 + k * s0, c->v, (size_t)c->sz); return;
    }
}

int tsr_fill_(tsr_tensor *t, tsr_scalar v)
{
    if (tsr_device_is_meta(t->device) || tsr_tensor_numel(t) == 0) return 0;
    fill_ctx c = {.sz = tsr_tensor_itemsize(t)};
    tsr_scalar_store(t->dtype, c.v, v);
    if (!on_host(t)) return device_launch_copy(t, NULL, c.v);
    if (tsr_tensor_has_bits(t)) tsr_flip_signs(t->dtype, t->conj, t->neg, c.v, 0, 1);   /* store conj(v) */
    loop2 L;
    coalesce(&L, t->ndim, t->sizes, t->strides, t->strides, c.sz, c.sz);
    return run_loop(&L, tsr_tensor_ptr(t, NULL), NULL, fill_row, &c);
}

int tsr_fill_tensor_(tsr_tensor *t, const tsr_tensor *value)
{
    if (value->ndim != 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "fill_ only supports 0-dimension value tensor but got tensor with %d dimensions.",
                      value->ndim);
        return -1;
    }
    return tsr_copy_(t, value);
}

int tsr_fill_checked_(tsr_tensor *t, tsr_scalar v)
{
    if (tsr_scalar_check_fits(v, t->dtype) < 0) return -1;
    return tsr_fill_(t, v);
}

int tsr_zero_(tsr_tensor *t)
{
    return tsr_fill_(t, tsr_scalar_int(0));
}

tsr_tensor *tsr_clone(const tsr_tensor *t, tsr_memory_format mf)
{
    int64_t strides[TSR_MAX_DIMS];
    if (mf == TSR_MF_PRESERVE) tsr_strides_preserve(t->ndim, t->sizes, t->strides, strides);
    else if (tsr_strides_for_format(t->ndim, t->sizes, mf, strides) < 0) return NULL;
    tsr_tensor *c = tsr_tensor_empty_strided(t->ndim, t->sizes, strides, t->dtype, t->device);
    if (!c) return NULL;
    if (tsr_copy_(c, t) < 0) {
        tsr_tensor_release(c);
        return NULL;
    }
    return c;
}

static tsr_tensor *resolve(const tsr_tensor *t, bool conj, bool neg)
{
    if (!(conj && t->conj) && !(neg && t->neg)) return tsr_tensor_retain((tsr_tensor *)t);
    int64_t strides[TSR_MAX_DIMS];
    tsr_strides_preserve(t->ndim, t->sizes, t->strides, strides);
    tsr_tensor *c = tsr_tensor_empty_strided(t->ndim, t->sizes, strides, t->dtype, t->device);
    if (!c) return NULL;
    c->conj = t->conj && !conj;
    c->neg = t->neg && !neg;
    if (!tsr_device_is_meta(t->device) && tsr_copy_(c, t) < 0) {
        tsr_tensor_release(c);
        return NULL;
    }
    return c;
}

tsr_tensor *tsr_resolve_bits(const tsr_tensor *t) { return resolve(t, true, true); }
tsr_tensor *tsr_resolve_conj(const tsr_tensor *t) { return resolve(t, true, false); }
tsr_tensor *tsr_resolve_neg(const tsr_tensor *t) { return resolve(t, false, true); }

tsr_tensor *tsr_contiguous(const tsr_tensor *t, tsr_memory_format mf)
{
    /* is_contiguous(Preserve) falls back to plain contiguity in c10, so a
     * contiguous tensor is returned as is even for PRESERVE. */
    if (tsr_tensor_is_contiguous_as(t, mf)) return tsr_tensor_retain((tsr_tensor *)t);
    if (mf == TSR_MF_PRESERVE) {
        tsr_error_set(TSR_ERR_RUNTIME, "preserve memory format is unsupported by the contiguous operator");
        return NULL;
    }
    return tsr_clone(t, mf);
}

tsr_tensor *tsr_to_device(const tsr_tensor *t, tsr_device device, tsr_dtype dtype, bool copy)
{
    if (dtype == TSR_DTYPE_UNDEFINED) dtype = t->dtype;
    device = tsr_device_normalize(device);
    bool same_dev = tsr_device_equal(device, t->device);
    if (same_dev && dtype == t->dtype && !copy) return tsr_tensor_retain((tsr_tensor *)t);
    if (!same_dev && tsr_device_is_meta(t->device)) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
        return NULL;
    }
    int64_t strides[TSR_MAX_DIMS];
    tsr_strides_preserve(t->ndim, t->sizes, t->strides, strides);
    tsr_tensor *c = tsr_tensor_empty_strided(t->ndim, t->sizes, strides, dtype, device);
    if (!c) return NULL;
    if (!tsr_device_is_meta(device) && tsr_copy_(c, t) < 0) {
        tsr_tensor_release(c);
        return NULL;
    }
    return c;
}

tsr_tensor *tsr_to_dtype(const tsr_tensor *t, tsr_dtype dtype, bool copy)
{
    return tsr_to_device(t, t->device, dtype, copy);
}

tsr_tensor *tsr_to_format(const tsr_tensor *t, tsr_device device, tsr_dtype dtype, bool copy,
                          tsr_memory_format mf)
{
    if (mf == TSR_MF_PRESERVE) return tsr_to_device(t, device, dtype, copy);
    if (dtype == TSR_DTYPE_UNDEFINED) dtype = t->dtype;
    device = tsr_device_normalize(device);
    bool same_dev = tsr_device_equal(device, t->device);
    /* 1.13's to_will_alias asks for the suggested format, not contiguity:
     * a contiguous (2, 1, 3, 4) is channels_last-contiguous too, yet it is
     * copied into channels_last strides (12, 1, 4, 1). */
    if (same_dev && dtype == t->dtype && !copy && tsr_tensor_suggest_memory_format(t) == mf)
        return tsr_tensor_retain((tsr_tensor *)t);
    if (!same_dev && tsr_device_is_meta(t->device)) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
        return NULL;
    }
    tsr_tensor *c = tsr_tensor_empty_format(t->ndim, t->sizes, dtype, device, mf);
    if (!c) return NULL;
    if (!tsr_device_is_meta(device) && tsr_copy_(c, t) < 0) {
        tsr_tensor_release(c);
        return NULL;
    }
    return c;
}

tsr_tensor *tsr_to_dtype_format(const tsr_tensor *t, tsr_dtype dtype, tsr_memory_format mf)
{
    if (mf == TSR_MF_PRESERVE) return tsr_to_dtype(t, dtype, false);
    if (t->dtype == dtype) return tsr_contiguous(t, mf);
    tsr_tensor *c = tsr_to_dtype(t, dtype, false);
    if (!c) return NULL;
    tsr_tensor *r = tsr_contiguous(c, mf);
    tsr_tensor_release(c);
    return r;
}
