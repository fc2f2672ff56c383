/* runtime/ops/linalg_comp.c — the torch.linalg functions 1.13 composes from
 * others in LinearAlgebra.cpp: tensorinv and tensorsolve (reshapes around
 * inv_ex / solve), and the out= copy of such composites
 * (checkLinalgCompatibleDtype, resize_output, copy_). */
#include <stdio.h>
#include <string.h>

#include "linalg.h"
#include "copy.h"
#include "shape.h"
#include "../error.h"
#include "../internal.h"
#include "../op.h"
#include "../promote.h"
#include "../view.h"
#include "linalg_int.h"

/* ------------------------------------------------------------ out= of a composite */

int tsr_linalg_out_check(const tsr_tensor *out, tsr_dtype dt, const char *fn)
{
    if (!out || tsr_can_cast(dt, out->dtype)) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "%s: Expected result to be safely castable from %s dtype, but got result with "
                  "dtype %s", fn, tsr_dtype_scalar_name(dt), tsr_dtype_scalar_name(out->dtype));
    return -1;
}

tsr_tensor *tsr_linalg_out_cast(tsr_tensor *r, tsr_tensor *out, const char *fn)
{
    if (!r || !out) return r;
    if (tsr_linalg_out_check(out, r->dtype, fn) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return tsr_out_assign(r, out, false);
}

/* ------------------------------------------------------------ tensorinv, tensorsolve */

static int64_t prod(const int64_t *s, int n)
{
    int64_t p = 1;
    for (int i = 0; i < n; i++) p *= s[i];
    return p;
}

/* ArrayRef::slice past the end builds a std::vector of a wrapped-around
 * size in 1.13: its length_error. */
static int vector_error(void)
{
    tsr_error_set(TSR_ERR_RUNTIME, "cannot create std::vector larger than max_size()");
    return -1;
}

tsr_tensor *tsr_linalg_tensorinv(const tsr_tensor *a, int64_t ind)
{
    if (ind <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected a strictly positive integer for 'ind', but got %ld", (long)ind);
        return NULL;
    }
    if (ind > a->ndim) return vector_error(), NULL;
    int k = (int)ind, nd = a->ndim;
    int64_t p_end = prod(a->sizes + k, nd - k), p_start = prod(a->sizes, k);
    if (p_end != p_start) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                      "prod(self.shape[:ind]), but got %ld != %ld", (long)p_end, (long)p_start);
        return NULL;
    }
    int64_t shape[TSR_MAX_DIMS], sq[2] = {p_end, p_end};
    memcpy(shape, a->sizes + k, sizeof *shape * (size_t)(nd - k));
    memcpy(shape + nd - k, a->sizes, sizeof *shape * (size_t)k);
    tsr_tensor *m = tsr_reshape(a, 2, sq), *inv = NULL, *info = NULL, *r = NULL;
    if (!m) return NULL;
    int rc = tsr_linalg_inv_ex(m, NULL, &inv, &info);
    tsr_tensor_release(m);
    if (rc < 0) return NULL;
    if (tsr_linalg_check_errors(info, "inv", true) == 0) r = tsr_reshape(inv, nd, shape);
    tsr_tensor_release(inv);
    tsr_tensor_release(info);
    return r;
}

tsr_tensor *tsr_linalg_tensorsolve(const tsr_tensor *a, const tsr_tensor *b, int ndims, const int64_t *dims)
{
    int nd = a->ndim;
    tsr_tensor *s = NULL;
    if (ndims >= 0) {
        int64_t dest[TSR_MAX_DIMS];
        for (int i = 0; i < ndims && i < TSR_MAX_DIMS; i++) dest[i] = nd - ndims + i;
        s = tsr_view_movedim(a, ndims, dims, ndims, dest);
    } else {
        s = tsr_view_alias(a);
    }
    if (!s) return NULL;
    if (b->ndim > nd) {
        tsr_tensor_release(s);
        return vector_error(), NULL;
    }
    int rn = nd - b->ndim;
    int64_t rshape[TSR_MAX_DIMS];
    memcpy(rshape, s->sizes + b->ndim, sizeof *rshape * (size_t)rn);
    int64_t rp = prod(rshape, rn), bp = prod(b->sizes, b->ndim);
    if (rp != bp) {
        tsr_tensor_release(s);
        tsr_error_set(TSR_ERR_RUNTIME, "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                      "prod(self.shape[:other.ndim]), but got %ld != %ld", (long)rp, (long)bp);
        return NULL;
    }
    int64_t sq[2] = {rp, rp};
    tsr_tensor *m = tsr_reshape(s, 2, sq), *flat = m ? tsr_reshape(b, 1, &bp) : NULL, *x = NULL, *info = NULL;
    tsr_tensor *r = NULL;
    tsr_tensor_release(s);
    if (flat && tsr_linalg_solve_ex(m, flat, true, "torch.linalg.solve", &x, &info) == 0) {
        r = tsr_reshape(x, rn, rshape);
        tsr_tensor_release(x);
        tsr_tensor_release(info);
    }
    tsr_tensor_release(m);
    tsr_tensor_release(flat);
    return r;
}
