/* runtime/ops/combine.c — complex, polar, cartesian_prod, combinations,
 * block_diag. Values move by copy_ into views of the result, so every dtype
 * conversion is copy_'s. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../error.h"
#include "../iter.h"
#include "../promote.h"
#include "../view.h"
#include "binary.h"
#include "combine.h"
#include "blas.h"
#include "copy.h"
#include "join.h"
#include "rearrange.h"
#include "shape.h"
#include "unary.h"
#include "viewcopy.h"

static bool half_float_double(tsr_dtype d)
{
    return d == TSR_FLOAT16 || d == TSR_FLOAT32 || d == TSR_FLOAT64;
}

/* complex_check_dtype (TensorFactories.cpp). */
static int check_parts(const tsr_tensor *a, const tsr_tensor *b)
{
    if (!half_float_double(a->dtype) || !half_float_double(b->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected both inputs to be Half, Float or Double tensors but got %s and %s",
                      tsr_dtype_scalar_name(a->dtype), tsr_dtype_scalar_name(b->dtype));
        return -1;
    }
    if (a->dtype != b->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected object of scalar type %s but got scalar type %s for second argument",
                      tsr_dtype_scalar_name(a->dtype), tsr_dtype_scalar_name(b->dtype));
        return -1;
    }
    return 0;
}

tsr_tensor *tsr_complex(const tsr_tensor *re, const tsr_tensor *im)
{
    if (check_parts(re, im) < 0) return NULL;
    int ndims[2] = {re->ndim, im->ndim};
    const int64_t *sz[2] = {re->sizes, im->sizes};
    int64_t shape[TSR_MAX_DIMS], st[TSR_MAX_DIMS];
    int nd = tsr_broadcast_shapes(2, ndims, sz, shape);
    if (nd < 0) return NULL;
    tsr_operand in[2] = {tsr_operand_tensor(re), tsr_operand_tensor(im)};
    tsr_iter_output_strides(2, in, nd, shape, st);
    bool meta = tsr_device_is_meta(re->device) || tsr_device_is_meta(im->device);
    tsr_tensor *r = tsr_tensor_empty_strided(nd, shape, st, tsr_dtype_to_complex(re->dtype),
                                             meta ? (tsr_device){.type = TSR_DEV_META} : re->device);
    if (!r || meta) return r;
    tsr_tensor *v = tsr_view_as_real(r);
    for (int part = 0; v && part < 2; part++) {
        tsr_tensor *p = tsr_view_select(v, -1, part);
        int rc = p ? tsr_copy_(p, part ? im : re) : -1;
        tsr_tensor_release(p);
        if (rc < 0) {
            tsr_tensor_release(v);
            v = NULL;
        }
    }
    if (!v) {
        tsr_tensor_release(r);
        return NULL;
    }
    tsr_tensor_release(v);
    return r;
}

tsr_tensor *tsr_polar(const tsr_tensor *abs, const tsr_tensor *angle)
{
    if (check_parts(abs, angle) < 0) return NULL;
    tsr_tensor *c = tsr_unary(TSR_UNOP_COS, angle, NULL, NULL), *s = NULL, *re = NULL, *im = NULL, *r = NULL;
    if (c) s = tsr_unary(TSR_UNOP_SIN, angle, NULL, NULL);
    tsr_operand a = tsr_operand_tensor(abs);
    if (s) {
        tsr_operand co = tsr_operand_tensor(c), so = tsr_operand_tensor(s);
        re = tsr_binary(TSR_BINOP_MUL, &a, &co, NULL, NULL);
        if (re) im = tsr_binary(TSR_BINOP_MUL, &a, &so, NULL, NULL);
    }
    if (im) r = tsr_complex(re, im);
    tsr_tensor_release(c);
    tsr_tensor_release(s);
    tsr_tensor_release(re);
    tsr_tensor_release(im);
    return r;
}

tsr_tensor *tsr_complex_out(const tsr_tensor *a, const tsr_tensor *b, bool polar, tsr_tensor *out)
{
    tsr_tensor *r = polar ? tsr_polar(a, b) : tsr_complex(a, b);
    if (!r) return NULL;
    int e = 0;
    if (out->dtype != r->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected object of scalar type %s but got scalar type %s for argument 'out'",
                      tsr_dtype_scalar_name(r->dtype), tsr_dtype_scalar_name(out->dtype));
        e = -1;
    }
    bool same = out->ndim == r->ndim && !memcmp(out->sizes, r->sizes, sizeof(int64_t) * (size_t)r->ndim);
    if (e == 0 && !same) e = tsr_resize_output(out, r->ndim, r->sizes) < 0 ? -1 : 0;
    if (e == 0 && !tsr_tensor_is_meta(out)) e = tsr_copy_(out, r);
    tsr_tensor_release(r);
    return e < 0 ? NULL : tsr_tensor_retain(out);
}

static int check_vector(const tsr_tensor *t)
{
    if (t->ndim != 1) {
        char buf[512];
        int n = 0;
        buf[n++] = '[';
        for (int i = 0; i < t->ndim && n < 480; i++)
            n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%lld", i ? ", " : "", (long long)t->sizes[i]);
        snprintf(buf + n, sizeof buf - (size_t)n, "]");
        tsr_error_set(TSR_ERR_RUNTIME, "Expect a 1D vector, but got shape %s", buf);
        return -1;
    }
    return 0;
}

tsr_tensor *tsr_cartesian_prod(int n, const tsr_tensor *const *ts)
{
    for (int i = 0; i < n; i++)
        if (check_vector(ts[i]) < 0) return NULL;
    if (n == 1) return tsr_tensor_retain((tsr_tensor *)ts[0]);
    if (n > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr supports at most %d dimensions, got %d", TSR_MAX_DIMS, n);
        return NULL;
    }
    tsr_tensor *grids[TSR_MAX_DIMS], *flat[TSR_MAX_DIMS];
    if (tsr_meshgrid(n, ts, "ij", grids) < 0) return NULL;
    int k = 0;
    tsr_tensor *r = NULL;
    for (; k < n; k++) {
        int64_t m1 = -1;
        flat[k] = tsr_reshape(grids[k], 1, &m1);
        if (!flat[k]) break;
    }
    if (k == n) r = tsr_stack(n, (const tsr_tensor *const *)flat, 1, NULL);
    for (int i = 0; i < n; i++) tsr_tensor_release(grids[i]);
    for (int i = 0; i < k; i++) tsr_tensor_release(flat[i]);
    return r;
}

tsr_tensor *tsr_combinations(const tsr_tensor *t, int64_t r, bool with_replacement)
{
    if (check_vector(t) < 0) return NULL;
    if (r < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expect a non-negative number, but got %lld", (long long)r);
        return NULL;
    }
    int64_t zero = 0;
    if (r == 0) return tsr_tensor_empty(1, &zero, t->dtype, t->device);
    if (r > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr supports at most %d dimensions, got %lld", TSR_MAX_DIMS, (long long)r);
        return NULL;
    }
    int64_t n = t->sizes[0], idx[TSR_MAX_DIMS], count = 0;
    /* tuples in row-major order of the r-dim grid, as masked_select visits them */
    for (int pass = 0; pass < 2; pass++) {
        tsr_tensor *out = NULL;
        if (pass == 1) {
            int64_t sizes[2] = {count, r};
            out = tsr_tensor_empty(2, sizes, t->dtype, t->device);
            if (!out || count == 0 || tsr_device_is_meta(out->device)) return out;
        }
        int64_t k = 0;
        for (int j = 0; j < r; j++) idx[j] = with_replacement ? 0 : j;
        bool more = with_replacement ? n > 0 : r <= n;
        while (more) {
            if (pass == 0) count++;
            else {
                for (int j = 0; j < r; j++) {
                    tsr_scalar v;
                    if (tsr_tensor_get(t, &idx[j], &v) < 0 || tsr_tensor_set_at(out, k * r + j, v) < 0) {
                        tsr_tensor_release(out);
                        return NULL;
                    }
                }
                k++;
            }
            /* next tuple: idx non-decreasing (with replacement) or increasing */
            int j = (int)r - 1;
            while (j >= 0 && idx[j] >= n - 1 - (with_replacement ? 0 : (r - 1 - j))) j--;
            if (j < 0) more = false;
            else {
                idx[j]++;
                for (int q = j + 1; q < r; q++) idx[q] = with_replacement ? idx[j] : idx[q - 1] + 1;
            }
        }
        if (pass == 1) return out;
    }
    return NULL;
}

tsr_tensor *tsr_block_diag(int n, const tsr_tensor *const *ts)
{
    if (n == 0) {
        int64_t sizes[2] = {1, 0};
        return tsr_tensor_empty(2, sizes, tsr_default_dtype(), (tsr_device){.type = TSR_DEV_CPU});
    }
    tsr_operand *ops = tsr_calloc((size_t)n, sizeof *ops);
    if (!ops) {
        return NULL;
    }
    for (int i = 0; i < n; i++) ops[i] = tsr_operand_tensor(ts[i]);
    tsr_dtype dt = tsr_result_type(n, ops, NULL);
    free(ops);
    int64_t rows = 0, cols = 0;
    for (int i = 0; i < n; i++) {
        const tsr_tensor *t = ts[i];
        if (t->ndim > 2) {
            tsr_error_set(TSR_ERR_RUNTIME, "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input %d "
                          "has %d dimensions", i, t->ndim);
            return NULL;
        }
        rows += t->ndim == 2 ? t->sizes[0] : 1;
        cols += t->ndim == 2 ? t->sizes[1] : t->ndim == 1 ? t->sizes[0] : 1;
    }
    int64_t sizes[2] = {rows, cols};
    tsr_tensor *r = tsr_tensor_empty(2, sizes, dt, ts[0]->device);
    if (!r || tsr_zero_(r) < 0) goto fail;
    int64_t r0 = 0, c0 = 0;
    for (int i = 0; i < n; i++) {
        const tsr_tensor *t = ts[i];
        int64_t h = t->ndim == 2 ? t->sizes[0] : 1, w = t->ndim == 2 ? t->sizes[1] : t->ndim == 1 ? t->sizes[0] : 1;
        tsr_tensor *a = tsr_view_narrow(r, 0, r0, h), *b = a ? tsr_view_narrow(a, 1, c0, w) : NULL;
        int rc = b ? tsr_copy_(b, t) : -1;
        tsr_tensor_release(a);
        tsr_tensor_release(b);
        if (rc < 0) goto fail;
        r0 += h;
        c0 += w;
    }
    return r;
fail:
    tsr_tensor_release(r);
    return NULL;
}
