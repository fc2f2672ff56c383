/* runtime/ops/reduce_norm.c — linalg.vector_norm as 1.13's
 * norm_kernel_tensor_iterator_impl (ReduceOpsKernel.cpp) computes it: the
 * 2-norm of a contiguous last dim of float32 / bfloat16 through the
 * vectorised loop (eight fused multiply-add lanes folded in order, then the
 * tail: its first four squares unfused, the rest fused, as GCC 12 compiled
 * it; 1.13 keeps float64 off that path), every other case
 * through binary_kernel_reduce's serial walk with the NormOps family of
 * SharedReduceOps.h (acc + |x|^2 fused, |x|, count, max/min |x|, |x|^p),
 * whose acc_t for float16 / bfloat16 is that type: every step rounded. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../error.h"
#include "../internal.h"
#include "../kernels.h"
#include "../op.h"
#include "../view.h"
#include "binary.h"
#include "copy.h"
#include "linalg.h"
#include "reduce.h"
#include "sparse.h"
#include "reduce_iter.h"
#include "unary.h"

typedef struct {
    double p;
    tsr_dtype in;      /* the input's dtype (after the dtype= cast) */
    bool dbl;          /* accumulate in double (float64 / complex128), else float */
    double acc;
    int64_t seen;
} norm_ctx;

static double absval(tsr_dtype dt, const char *p)
{
    switch (dt) {
    case TSR_FLOAT32: return fabsf(*(const float *)p);
    case TSR_FLOAT64: return fabs(*(const double *)p);
    case TSR_COMPLEX64: return cabsf(*(const float _Complex *)p);
    case TSR_COMPLEX128: return cabs(*(const double _Complex *)p);
    case TSR_FLOAT16: return fabsf(tsr_half_to_float(*(const tsr_half *)p));
    default: return fabsf(tsr_bfloat16_to_float(*(const tsr_bfloat16 *)p));
    }
}

/* v rounded to float16 / bfloat16 */
static float rnd_reduced(tsr_dtype dt, float v)
{
    return dt == TSR_FLOAT16 ? tsr_half_to_float(tsr_float_to_half(v)) : tsr_bfloat16_to_float(tsr_float_to_bfloat16(v));
}

static void nb_begin(void *c)
{
    norm_ctx *n = c;
    n->acc = n->p == -INFINITY ? INFINITY : 0;
}

/* One NormOps step in the accumulate type (float unless double). */
static void nb_step(void *c, const char *in, int64_t idx)
{
    (void)idx;
    norm_ctx *n = c;
    double a = absval(n->in, in), acc = n->acc, p = n->p;
    if (n->dbl) {
        if (p == 0) acc += a == 0 ? 0 : 1;
        else if (p == 1) acc += a;
        else if (p == 2) acc = fma(a, a, acc);
        else if (p == INFINITY) acc = isnan(a) || isnan(acc) ? NAN : a > acc ? a : acc;
        else if (p == -INFINITY) acc = isnan(a) || isnan(acc) ? NAN : a < acc ? a : acc;
        else acc += pow(a, p);
    } else if (n->in == TSR_FLOAT16 || n->in == TSR_BFLOAT16) {
        /* acc_t is the reduced type itself (scalar_value_type<Half>): each
         * c10::Half / BFloat16 operation computes in float and rounds */
        tsr_dtype dt = n->in;
        float af = (float)a, accf = (float)acc;
        if (p == 0) accf = rnd_reduced(dt, accf + (af == 0 ? 0.f : 1.f));
        else if (p == 1) accf = rnd_reduced(dt, accf + af);
        else if (p == 2) accf = rnd_reduced(dt, accf + rnd_reduced(dt, af * af));
        else if (p == INFINITY) accf = isnan(af) || isnan(accf) ? NAN : af > accf ? af : accf;
        else if (p == -INFINITY) accf = isnan(af) || isnan(accf) ? NAN : af < accf ? af : accf;
        else {   /* c10's pow(BFloat16, BFloat16) returns a BFloat16; Half's is float's */
            float pw = powf(af, rnd_reduced(dt, (float)p));
            accf = rnd_reduced(dt, accf + (dt == TSR_BFLOAT16 ? rnd_reduced(dt, pw) : pw));
        }
        acc = accf;
    } else {
        float af = (float)a, accf = (float)acc;
        if (p == 0) accf += af == 0 ? 0.f : 1.f;
        else if (p == 1) accf += af;
        else if (p == 2) accf = fmaf(af, af, accf);
        else if (p == INFINITY) accf = isnan(af) || isnan(accf) ? NAN : af > accf ? af : accf;
        else if (p == -INFINITY) accf = isnan(af) || isnan(accf) ? NAN : af < accf ? af : accf;
        else accf += powf(af, (float)p);
        acc = accf;
    }
    n->acc = acc;
}

static void store_out(tsr_dtype dt, char *out, double v)
{
    switch (dt) {
    case TSR_FLOAT32: *(float *)out = (float)v; break;
    case TSR_FLOAT64: *(double *)out = v; break;
    case TSR_FLOAT16: *(tsr_half *)out = tsr_float_to_half((float)v); break;
    default: *(tsr_bfloat16 *)out = tsr_float_to_bfloat16((float)v); break;
    }
}

typedef struct {
    norm_ctx n;
    tsr_dtype out;
} nb_full;

static void nb_end(void *c, char *out)
{
    nb_full *f = c;
    double acc = f->n.acc, p = f->n.p, r;
    if (p == 0 || p == 1 || p == INFINITY || p == -INFINITY) r = acc;
    else if (p == 2) r = f->n.dbl ? sqrt(acc) : sqrtf((float)acc);
    else if (f->n.in == TSR_FLOAT16 || f->n.in == TSR_BFLOAT16)   /* pow(acc, acc_t(1.0) / norm_) in the reduced type */
        r = powf((float)acc, rnd_reduced(f->n.in, 1.0f / rnd_reduced(f->n.in, (float)p)));
    else r = f->n.dbl ? pow(acc, 1.0 / p) : powf((float)acc, (float)(1.0 / p));
    store_out(f->out, out, r);
}

/* The vectorised 2-norm of one contiguous row: Vectorized<acc_t> lanes
 * (32 bytes), acc += x*x per lane, lanes folded left to right, then the
 * tail one by one. */
static void nb_row(void *c, const char *in, int64_t stride, int64_t size, int64_t idx)
{
    nb_full *f = c;
    (void)idx, (void)stride;
    float lane[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int64_t d = 0;
    if (f->n.in == TSR_FLOAT32) {
        const float *x = (const float *)in;
        for (; d < size - size % 8; d += 8)
            for (int j = 0; j < 8; j++) lane[j] = fmaf(x[d + j], x[d + j], lane[j]);
        for (int j = 1; j < 8; j++) lane[0] = lane[0] + lane[j];
        /* GCC 12 vectorises the tail's products four at a time (a plain
         * multiply, then the in-order adds) and fuses the rest */
        if (size - d >= 4)
            for (int64_t e = d + 4; d < e; d++) {
                float sq = x[d] * x[d];
                lane[0] = lane[0] + sq;
            }
        for (; d < size; d++) lane[0] = fmaf(x[d], x[d], lane[0]);
    } else {   /* bfloat16: 16 per Vectorized<BFloat16>, two float halves */
        const tsr_bfloat16 *x = (const tsr_bfloat16 *)in;
        for (; d < size - size % 16; d += 16)
            for (int j = 0; j < 16; j++) {
                float v = tsr_bfloat16_to_float(x[d + j]);
                lane[j % 8] = fmaf(v, v, lane[j % 8]);
            }
        for (int j = 1; j < 8; j++) lane[0] = lane[0] + lane[j];
        for (; d < size; d++) {
            float v = tsr_bfloat16_to_float(x[d]);
            lane[0] = fmaf(v, v, lane[0]);
        }
    }
    f->n.acc = lane[0];
}

tsr_tensor *tsr_linalg_vector_norm(const tsr_tensor *x, double ord, const tsr_dims *dims, bool keepdim,
                                   tsr_dtype dtype, tsr_tensor *out)
{
    tsr_dtype d = x->dtype;
    if (!tsr_dtype_is_floating(d) && !tsr_dtype_is_complex(d)) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.vector_norm: Expected a floating point or complex tensor as input. "
                      "Got %s", tsr_dtype_scalar_name(d));
        return NULL;
    }
    if (dtype != TSR_DTYPE_UNDEFINED && !tsr_dtype_is_floating(dtype) && !tsr_dtype_is_complex(dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.vector_norm: dtype should be floating point or complex, but got %s",
                      tsr_dtype_scalar_name(dtype));
        return NULL;
    }
    uint64_t mask;
    if (reduce_mask(x, dims, &mask) < 0) return NULL;
    if (tsr_tensor_numel(x) == 0 && (ord < 0 || ord == INFINITY)) {
        char o[32];
        snprintf(o, sizeof o, "%g", ord);
        if (ord == INFINITY) snprintf(o, sizeof o, "inf");
        else if (ord == -INFINITY) snprintf(o, sizeof o, "-inf");
        if (dims->n < 1) {
            tsr_error_set(TSR_ERR_RUNTIME, "linalg.vector_norm cannot compute the %s norm on an empty tensor because "
                          "the operation does not have an identity", o);
            return NULL;
        }
        for (int i = 0; i < dims->n; i++) {
            int dd = tsr_wrap_dim(dims->d[i], x->ndim);
            if (dd >= 0 && x->sizes[dd] == 0) {
                tsr_error_set(TSR_ERR_RUNTIME, "linalg.vector_norm cannot compute the %s norm on the dimension %ld"
                              "because this dimension is empty and the operation does not have an identity", o,
                              (long)dims->d[i]);
                return NULL;
            }
        }
    }
    tsr_dtype in_dt = dtype != TSR_DTYPE_UNDEFINED ? dtype : d;
    tsr_dtype rdt = tsr_dtype_to_real(in_dt);
    if (out && tsr_out_dtype_check(out, rdt) < 0) return NULL;
    tsr_tensor *r = reduce_result(x, mask, keepdim, rdt, out);
    if (!r) return NULL;
    if (tsr_device_is_meta(x->device)) return r;
    if (tsr_tensor_numel(x) == 0) {
        if (tsr_fill_(r, tsr_scalar_float(ord < 0 ? INFINITY : 0)) < 0) goto fail;
        return r;
    }
    if (reduce_on_device(x)) {
        /* norm_stub of the device: the NormOps family accumulating in
         * float (float16, bfloat16, float32) or double; a complex input
         * as its magnitudes (abs on the device), the norm of which it is */
        tsr_tensor *din = tsr_to_dtype(x, in_dt, false);
        if (din && tsr_dtype_is_complex(in_dt)) {
            tsr_tensor *m = tsr_unary(TSR_UNOP_ABS, din, NULL, NULL);
            tsr_tensor_release(din);
            din = m;
        }
        if (!din) goto fail;
        reduce_dev_args a = {.p = ord};
        int rc = reduce_device_ex(TSR_KR_NORM, din, mask, keepdim, r, NULL, rdt, "aten::linalg_vector_norm", &a);
        tsr_tensor_release(din);
        if (rc < 0) goto fail;
        return r;
    }
    tsr_tensor *in = tsr_to_dtype(x, in_dt, false);
    if (!in) goto fail;
    /* a complex input with an infinite ord is reduced as its abs() (1.13) */
    if (tsr_dtype_is_complex(in_dt) && fabs(ord) == INFINITY) {
        tsr_tensor *a = tsr_unary(TSR_UNOP_ABS, in, NULL, NULL);
        tsr_tensor_release(in);
        if (!(in = a)) goto fail;
    }
    rplan P;
    reduce_plan(&P, in, mask, keepdim, r);
    nb_full f = {.n = {.p = ord, .in = in->dtype, .dbl = rdt == TSR_FLOAT64}, .out = rdt};
    int nr = 0;
    while (nr < P.nd && P.st[0][nr] == 0) nr++;
    bool lastdim = ord == 2 && nr == 1 && P.st[1][0] == tsr_dtype_itemsize(in->dtype) && in->dtype == rdt &&
                   (rdt == TSR_FLOAT32 || rdt == TSR_BFLOAT16);
    relt_ops ops = {.begin = nb_begin, .step = nb_step, .end = nb_end, .row = lastdim ? nb_row : NULL};
    int rc = reduce_foreach(&P, &ops, &f);
    tsr_tensor_release(in);
    if (rc < 0) goto fail;
    return r;
fail:
    tsr_tensor_release(r);
    return NULL;
}

/* ------------------------------------------------------------ the legacy torch.norm family */

tsr_tensor *tsr_norm(const tsr_tensor *x, double p, const tsr_dims *dims, bool keepdim, tsr_dtype dtype,
                     tsr_tensor *out)
{
    if (x->sparse) return tsr_sparse_norm(x, p, dims, keepdim, dtype, out);
    if (!tsr_dtype_is_floating(x->dtype) && !tsr_dtype_is_complex(x->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "norm(): input dtype should be either floating point or complex. Got %s instead.",
                      tsr_dtype_scalar_name(x->dtype));
        return NULL;
    }
    if (dtype != TSR_DTYPE_UNDEFINED && !tsr_dtype_is_floating(dtype) && !tsr_dtype_is_complex(dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "norm(): the desired output dtype should be either floating point or complex. "
                      "Got %s instead.", tsr_dtype_scalar_name(dtype));
        return NULL;
    }
    /* 1.13's legacy norm kernel gives 0 for an empty reduction whatever p
     * is, where linalg.vector_norm refuses -inf/inf/negative orders or
     * gives inf: the 2-norm has that result */
    if (tsr_tensor_numel(x) == 0) p = 2.0;
    return tsr_linalg_vector_norm(x, p, dims, keepdim, dtype, out);
}

tsr_tensor *tsr_frobenius_norm(const tsr_tensor *x, const tsr_dims *dims, bool keepdim, tsr_tensor *out)
{
    int n = dims->n < 0 ? 0 : dims->n;
    if (n > 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected at most 2 dimensions, but got %d dimensions instead.", n);
        return NULL;
    }
    if (n < 2 && x->sparse) {
        tsr_dims d1 = {.n = n, .d = {n ? dims->d[0] : 0}};
        return tsr_sparse_frobenius_norm(x, &d1, keepdim, out);
    }
    if (n < 2) {
        tsr_dims all = {.n = -1};
        return tsr_norm(x, 2, n == 0 ? &all : dims, keepdim, TSR_DTYPE_UNDEFINED, out);
    }
    tsr_dims w = {.n = 2};
    for (int i = 0; i < 2; i++)
        if ((w.d[i] = tsr_wrap_dim(dims->d[i], x->ndim)) < 0) return NULL;
    if (w.d[0] == w.d[1]) {
        char buf[64];
        tsr_error_set(TSR_ERR_RUNTIME, "Expected dims to be different, got %s instead",
                      tsr__fmt_list(buf, sizeof buf, 2, dims->d));
        return NULL;
    }
    if (x->sparse) return tsr_sparse_frobenius_norm(x, &w, keepdim, out);
    if (tsr_dtype_is_complex(x->dtype) && reduce_device_refuse(x, "aten::frobenius_norm") < 0) return NULL;
    /* sqrt(sum(x * x)) (sum(real(conj(x) * x)) for complex), as 1.13 */
    tsr_tensor *cx = NULL, *sq = NULL, *re = NULL, *s = NULL, *r = NULL;
    tsr_operand a = tsr_operand_tensor(x), b = a;
    if (tsr_dtype_is_complex(x->dtype)) {
        if (!(cx = tsr_conj_physical((tsr_tensor *)x, NULL))) return NULL;
        a = tsr_operand_tensor(cx);
    }
    if (!(sq = tsr_binary(TSR_BINOP_MUL, &a, &b, NULL, NULL))) goto done;
    if (tsr_dtype_is_complex(x->dtype)) {
        tsr_tensor *v = tsr_view_real(sq);
        if (!v || !(re = tsr_contiguous(v, TSR_MF_CONTIGUOUS))) { tsr_tensor_release(v); goto done; }
        tsr_tensor_release(v);
    } else re = tsr_tensor_retain(sq);
    if (!(s = tsr_sum(re, &w, keepdim, TSR_DTYPE_UNDEFINED, NULL))) goto done;
    r = tsr_unary(TSR_UNOP_SQRT, s, out, NULL);
done:
    tsr_tensor_release(cx);
    tsr_tensor_release(sq);
    tsr_tensor_release(re);
    tsr_tensor_release(s);
    return r;
}

/* create_dim_backshift_permutation: the other dims in order, then d0, d1. */
static int backshift(int nd, int64_t d0, int64_t d1, int64_t *perm)
{
    int k = 0;
    for (int d = 0; d < nd; d++)
        if (d != d0 && d != d1) perm[k++] = d;
    perm[k++] = d0;
    perm[k++] = d1;
    return k;
}

/* keepdim for the svdvals-based norms: r (the batch dims) gets the two
 * reduced dims back where they were. */
static tsr_tensor *unshift(tsr_tensor *r, int nd, const int64_t *perm)
{
    int64_t inv[TSR_MAX_DIMS];
    for (int d = 0; d < nd; d++) inv[perm[d]] = d;
    tsr_tensor *u = tsr_view_unsqueeze(r, -1), *p = NULL;
    tsr_tensor_release(r);
    if (u) p = tsr_view_permute(u, nd, inv);
    tsr_tensor_release(u);
    return p;
}

tsr_tensor *tsr_linalg_matrix_norm(const tsr_tensor *a, const char *ord_str, double ord, const tsr_dims *dims,
                                   bool keepdim, tsr_dtype dtype, tsr_tensor *out)
{
    double ab = fabs(ord);
    bool nuc = ord_str && !strcmp(ord_str, "nuc");
    if (ord_str ? strcmp(ord_str, "fro") && !nuc : ab != 2 && ab != 1 && ab != INFINITY) {
        char o[64];
        if (ord_str) snprintf(o, sizeof o, "%s", ord_str);
        else if (ord == (double)(int64_t)ord) snprintf(o, sizeof o, "%ld", (long)ord);
        else snprintf(o, sizeof o, "%g", ord);
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.matrix_norm: Order %s not supported.", o);
        return NULL;
    }
    if (a->ndim < 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.matrix_norm: The input tensor A must have at least 2 dimensions.");
        return NULL;
    }
    bool low = ord_str ? !nuc : ab != 2;
    tsr_dtype d = a->dtype;
    if (!tsr_dtype_is_floating(d) && !tsr_dtype_is_complex(d)) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.matrix_norm: Expected a floating point or complex tensor as input. Got %s",
                      tsr_dtype_scalar_name(d));
        return NULL;
    }
    if (!low && (d == TSR_FLOAT16 || d == TSR_BFLOAT16)) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.matrix_norm: Low precision dtypes not supported. Got %s",
                      tsr_dtype_scalar_name(d));
        return NULL;
    }
    if (dims->n != 2) {   /* a std::vector streamed: the items with spaces, no brackets */
        char buf[256] = "";
        size_t k = 0;
        for (int i = 0; i < dims->n && k < sizeof buf - 24; i++)
            k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%ld", i ? " " : "", (long)dims->d[i]);
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.matrix_norm: dim must be a 2-tuple. Got %s", buf);
        return NULL;
    }
    int64_t d0 = tsr_wrap_dim(dims->d[0], a->ndim), d1 = d0 < 0 ? -1 : tsr_wrap_dim(dims->d[1], a->ndim);
    if (d0 < 0 || d1 < 0) return NULL;
    if (d0 == d1) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.matrix_norm: dims must be different. Got (%ld, %ld)", (long)d0, (long)d1);
        return NULL;
    }
    if (dtype != TSR_DTYPE_UNDEFINED && !tsr_dtype_is_floating(dtype) && !tsr_dtype_is_complex(dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.matrix_norm: dtype should be floating point or complex, but got %s",
                      tsr_dtype_scalar_name(dtype));
        return NULL;
    }
    if (dtype != TSR_DTYPE_UNDEFINED && tsr_dtype_is_complex(d) != tsr_dtype_is_complex(dtype)) {   /* check_linalg_norm_dtype */
        bool cx = tsr_dtype_is_complex(d);
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.matrix_norm: dtype should be %s for %s inputs, but got %s",
                      cx ? "complex" : "real", cx ? "complex" : "real", tsr_dtype_scalar_name(dtype));
        return NULL;
    }
    if (dtype != TSR_DTYPE_UNDEFINED && tsr_promote_types(d, dtype) != dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.matrix_norm: the dtype of the input (%s) should be convertible without "
                      "narrowing to the specified dtype (%s)", tsr_dtype_scalar_name(d), tsr_dtype_scalar_name(dtype));
        return NULL;
    }
    if (ord_str && !nuc) {
        tsr_dims w = {.n = 2, .d = {d0, d1}};
        return tsr_linalg_vector_norm(a, 2, &w, keepdim, dtype, out);
    }
    /* the SVD computes on cuda (cuSOLVER) for the real dtypes */
    if ((nuc || ab == 2) && tsr_dtype_is_complex(a->dtype) && reduce_device_refuse(a, "aten::_linalg_svd") < 0)
        return NULL;
    if (nuc || ab == 2) {   /* svdvals of A with the two dims moved last, then sum or max/min */
        int64_t perm[TSR_MAX_DIMS];
        int nd = backshift(a->ndim, d0, d1, perm);
        tsr_tensor *ac = dtype != TSR_DTYPE_UNDEFINED ? tsr_to_dtype(a, dtype, false) : tsr_tensor_retain((tsr_tensor *)a);
        tsr_tensor *pa = ac ? tsr_view_permute(ac, nd, perm) : NULL, *s = NULL, *r = NULL;
        tsr_tensor_release(ac);
        if (!pa) return NULL;
        int rc = tsr_linalg_svd(pa, false, NULL, &s, NULL);
        tsr_tensor_release(pa);
        if (rc < 0) return NULL;
        tsr_dims last = {.n = 1, .d = {-1}};
        if (nuc) r = tsr_sum(s, &last, keepdim, TSR_DTYPE_UNDEFINED, NULL);
        else r = tsr_amax(s, &last, keepdim, ord > 0, NULL);
        tsr_tensor_release(s);
        if (r && keepdim) r = unshift(r, nd, perm);
        return r && out ? tsr_linalg_out(r, out) : r;
    }
    /* 1 / inf: the max (min) over one dim of the 1-norm over the other */
    int64_t e0 = d0, e1 = d1;
    if (ab == INFINITY) { e0 = d1; e1 = d0; }
    if (!keepdim && e0 < e1) e1--;
    tsr_dims first = {.n = 1, .d = {e0}}, second = {.n = 1, .d = {e1}};
    tsr_tensor *v = tsr_linalg_vector_norm(a, 1, &first, keepdim, dtype, NULL);
    if (!v) return NULL;
    tsr_tensor *r = tsr_amax(v, &second, keepdim, ord > 0, out);
    tsr_tensor_release(v);
    return r;
}

tsr_tensor *tsr_linalg_norm(const tsr_tensor *x, bool has_ord, const char *ord_str, double ord, const tsr_dims *dims,
                            bool keepdim, tsr_dtype dtype, tsr_tensor *out)
{
    if (dims->n >= 0 && dims->n != 1 && dims->n != 2) {
        char buf[256];
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.norm: If dim is specified, it m%s be of length 1 or 2. Got %s",
                      ord_str ? "ut" : "ust", tsr__fmt_list(buf, sizeof buf, dims->n, dims->d));
        return NULL;
    }
    if (dims->n < 0 && has_ord && x->ndim != 1 && x->ndim != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
                      "Got %dD.", x->ndim);
        return NULL;
    }
    if (ord_str || (has_ord && (dims->n == 2 || (dims->n < 0 && x->ndim == 2)))) {
        tsr_dims md = dims->n < 0 ? (tsr_dims){.n = 2, .d = {0, 1}} : *dims;
        return tsr_linalg_matrix_norm(x, ord_str, ord, &md, keepdim, dtype, out);
    }
    return tsr_linalg_vector_norm(x, has_ord ? ord : 2, dims, keepdim, dtype, out);
}
