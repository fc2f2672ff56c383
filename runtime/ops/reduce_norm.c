/* runtime/ops/reduce_norm.c — linalg.vector_norm as 1.13's
 * norm_kernel_tensor_iterator_impl (ReduceOpsKernel.cpp) computes it: the
 * 2-norm of a contiguous last dim through the vectorised loop (eight or four
 * fused multiply-add lanes folded in order, then the tail), every other case
 * through binary_kernel_reduce's serial walk with the NormOps family of
 * SharedReduceOps.h (acc + |x|^2 fused, |x|, count, max/min |x|, |x|^p). */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../error.h"
#include "../internal.h"
#include "../view.h"
#include "copy.h"
#include "linalg.h"
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
    if (f->n.dbl) {
        const double *x = (const double *)in;
        double lane[4] = {0, 0, 0, 0};
        int64_t d = 0;
        for (; d < size - size % 4; d += 4)
            for (int j = 0; j < 4; j++) lane[j] = fma(x[d + j], x[d + j], lane[j]);
        for (int j = 1; j < 4; j++) lane[0] = lane[0] + lane[j];
        for (; d < size; d++) lane[0] = fma(x[d], x[d], lane[0]);
        f->n.acc = lane[0];
        return;
    }
    float lane[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int64_t d = 0;
    if (f->n.in == TSR_FLOAT32) {
        const float *x = (const float *)in;
        for (; d < size - size % 8; d += 8)
            for (int j = 0; j < 8; j++) lane[j] = fmaf(x[d + j], x[d + j], lane[j]);
        for (int j = 1; j < 8; j++) lane[0] = lane[0] + lane[j];
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
    if (out && out->dtype != rdt) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got %s instead",
                      tsr_dtype_typemeta_name(rdt), tsr_dtype_typemeta_name(out->dtype));
        return NULL;
    }
    tsr_tensor *r = reduce_result(x, mask, keepdim, rdt, out);
    if (!r) return NULL;
    if (tsr_device_is_meta(x->device)) return r;
    if (tsr_tensor_numel(x) == 0) {
        if (tsr_fill_(r, tsr_scalar_float(ord < 0 ? INFINITY : 0)) < 0) goto fail;
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
                   (rdt == TSR_FLOAT32 || rdt == TSR_FLOAT64 || rdt == TSR_BFLOAT16);
    relt_ops ops = {.begin = nb_begin, .step = nb_step, .end = nb_end, .row = lastdim ? nb_row : NULL};
    int rc = reduce_foreach(&P, &ops, &f);
    tsr_tensor_release(in);
    if (rc < 0) goto fail;
    return r;
fail:
    tsr_tensor_release(r);
    return NULL;
}
