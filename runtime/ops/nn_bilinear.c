/* runtime/ops/nn_bilinear.c — at::_trilinear, its backward and at::bilinear
 * as 1.13's Linear.cpp and FunctionsManual.cpp compute them: every product
 * is a sumproduct_pair (permute + bmm, contract.c) per slice of the
 * unrolled dim, added into zeros in slice order, so float results round as
 * 1.13's do (0 + -0.0 included). */
#include <string.h>

#include "nn_bilinear.h"
#include "nn_conv.h"
#include "binary.h"
#include "contract.h"
#include "factory.h"
#include "shape.h"
#include "../error.h"
#include "../internal.h"
#include "../view.h"

tsr_tensor *tsr_trilinear(const tsr_tensor *i1_, const tsr_tensor *i2_, const tsr_tensor *i3_, uint64_t expand1,
                          uint64_t expand2, uint64_t expand3, uint64_t sumdim, int64_t unroll_dim)
{
    int n1 = 0;
    for (int i = 0; i < 64; i++) n1 += (int)(expand1 >> i & 1);
    int total = i1_->ndim + n1;
    if (unroll_dim < 0 || unroll_dim >= total) {
        tsr_error_set(TSR_ERR_RUNTIME, "unroll_dim must be in [0,%d]", total - 1);
        return NULL;
    }
    if (total > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "_trilinear: %d dimensions (at most %d)", total, TSR_MAX_DIMS);
        return NULL;
    }
    tsr_tensor *i1 = tsr_tensor_retain((tsr_tensor *)i1_), *i2 = tsr_tensor_retain((tsr_tensor *)i2_);
    tsr_tensor *i3 = tsr_tensor_retain((tsr_tensor *)i3_), *out = NULL, *buf = NULL, *a = NULL, *b = NULL;
    int64_t osize[TSR_MAX_DIMS], s12[TSR_MAX_DIMS], s23[TSR_MAX_DIMS], unroll_size = -1;
    int n12 = 0, n23 = 0;
    for (int i = 0; i < total; i++) {
        int64_t s = 0;
        if (expand1 >> i & 1) {
            if (!tsr__take(&i1, tsr_view_unsqueeze(i1, i))) goto fail;
        } else {
            if (i >= i1->ndim) goto dims;
            s = i1->sizes[i];
        }
        if (expand2 >> i & 1) {
            if (!tsr__take(&i2, tsr_view_unsqueeze(i2, i))) goto fail;
        } else {
            if (i >= i2->ndim) goto dims;
            s = i2->sizes[i];
        }
        if (expand3 >> i & 1) {
            if (!tsr__take(&i3, tsr_view_unsqueeze(i3, i))) goto fail;
            if ((sumdim >> i & 1) && i != unroll_dim) s12[n12++] = i;
        } else {
            if (i >= i3->ndim) goto dims;
            s = i3->sizes[i];
            if ((sumdim >> i & 1) && i != unroll_dim) s23[n23++] = i;
        }
        osize[i] = (sumdim >> i & 1) ? 1 : s;
        if (i == unroll_dim) unroll_size = s;
    }
    if (i1->ndim != total || i2->ndim != total || i3->ndim != total) goto dims;
    int64_t m1 = (expand1 >> unroll_dim & 1) ? 0 : 1, m2 = (expand2 >> unroll_dim & 1) ? 0 : 1;
    int64_t m3 = (expand3 >> unroll_dim & 1) ? 0 : 1;
    if (!(out = tsr_zeros(total, osize, i1->dtype, i1->device))) goto fail;
    if (tsr_tensor_numel(i1) && tsr_tensor_numel(i2) && tsr_tensor_numel(i3) && !tsr_tensor_is_meta(out)) {
        bool summed = sumdim >> unroll_dim & 1;
        for (int64_t k = 0; k < unroll_size; k++) {
            if (tsr_check_interrupt() < 0) goto fail;
            tsr_tensor *dst;
            if (!(a = tsr_view_narrow(i1, unroll_dim, k * m1, 1)) || !(b = tsr_view_narrow(i2, unroll_dim, k * m2, 1)) ||
                !(buf = tsr__sumproduct_pair(a, b, n12, s12)))
                goto fail;
            tsr__take(&a, NULL);
            if (!tsr__take(&b, tsr_view_narrow(i3, unroll_dim, k * m3, 1)) ||
                !tsr__take(&buf, tsr__sumproduct_pair(buf, b, n23, s23)))
                goto fail;
            tsr__take(&b, NULL);
            if (!(dst = summed ? tsr_tensor_retain(out) : tsr_view_narrow(out, unroll_dim, k, 1))) goto fail;
            tsr_operand ob = tsr_operand_tensor(buf);
            tsr_tensor *s = tsr_binary_(TSR_BINOP_ADD, dst, &ob, NULL);
            tsr_tensor_release(dst);
            if (!s) goto fail;
            tsr_tensor_release(s);
            tsr__take(&buf, NULL);
        }
    }
    /* output.squeeze_(i) for the summed dims, last first */
    int64_t fs[TSR_MAX_DIMS];
    int nf = 0;
    for (int i = 0; i < total; i++)
        if (!(sumdim >> i & 1)) fs[nf++] = osize[i];
    tsr__take(&out, tsr_view_view(out, nf, fs));
    tsr_tensor_release(i1);
    tsr_tensor_release(i2);
    tsr_tensor_release(i3);
    return out;
dims:
    tsr_error_set(TSR_ERR_RUNTIME, "_trilinear: the inputs' dimensions do not match the expand lists");
fail:
    tsr_tensor_release(i1);
    tsr_tensor_release(i2);
    tsr_tensor_release(i3);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    tsr_tensor_release(buf);
    tsr_tensor_release(out);
    return NULL;
}

int tsr_trilinear_backward(const tsr_tensor *g, const tsr_tensor *i1, const tsr_tensor *i2, const tsr_tensor *i3,
                           uint64_t expand1, uint64_t expand2, uint64_t expand3, uint64_t sumdim, const bool want[3],
                           tsr_tensor **g1, tsr_tensor **g2, tsr_tensor **g3)
{
    tsr_tensor *r[3] = {NULL, NULL, NULL};
    /* FunctionsManual.cpp's _trilinear_backward: unroll_dim keeps its default 1 */
    if ((want[0] && !(r[0] = tsr_trilinear(g, i2, i3, sumdim, expand2, expand3, expand1, 1))) ||
        (want[1] && !(r[1] = tsr_trilinear(i1, g, i3, expand1, sumdim, expand3, expand2, 1))) ||
        (want[2] && !(r[2] = tsr_trilinear(i1, i2, g, expand1, expand2, sumdim, expand3, 1)))) {
        for (int k = 0; k < 3; k++) tsr_tensor_release(r[k]);
        return -1;
    }
    if (want[0]) *g1 = r[0];
    if (want[1]) *g2 = r[1];
    if (want[2]) *g3 = r[2];
    return 0;
}

/* ------------------------------------------------------------ bilinear */

static int bilinear_check(const tsr_tensor *x1, const tsr_tensor *x2, const tsr_tensor *w, const tsr_tensor *bias)
{
    if (x1->ndim != x2->ndim) {
        tsr_error_set(TSR_ERR_RUNTIME, "bilinear(): input dimensions do not match: got %d and %d", x1->ndim, x2->ndim);
        return -1;
    }
    for (int i = 0; i + 1 < x1->ndim; i++)
        if (x1->sizes[i] != x2->sizes[i]) {
            tsr_error_set(TSR_ERR_RUNTIME, "bilinear(): input batch dimensions do not match at dim %d: got %lld and %lld",
                          i, (long long)x1->sizes[i], (long long)x2->sizes[i]);
            return -1;
        }
    if (x1->ndim < 1 || w->ndim != 3) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "bilinear of %d-D inputs and a %d-D weight is not supported by tsr yet",
                      x1->ndim, w->ndim);
        return -1;
    }
    if (x1->sizes[x1->ndim - 1] != w->sizes[1]) {
        tsr_error_set(TSR_ERR_RUNTIME, "bilinear(): input1 size does not match weight size: got %lld but expected %lld",
                      (long long)x1->sizes[x1->ndim - 1], (long long)w->sizes[1]);
        return -1;
    }
    if (x2->sizes[x2->ndim - 1] != w->sizes[2]) {
        tsr_error_set(TSR_ERR_RUNTIME, "bilinear(): input2 size does not match weight size: got %lld but expected %lld",
                      (long long)x2->sizes[x2->ndim - 1], (long long)w->sizes[2]);
        return -1;
    }
    if (bias && bias->ndim == 0) {   /* bias.size(0) */
        tsr_error_set(TSR_ERR_INDEX, "Dimension specified as 0 but tensor has no dimensions");
        return -1;
    }
    if (bias && bias->sizes[0] != w->sizes[0]) {
        tsr_error_set(TSR_ERR_RUNTIME, "bilinear(): bias size does not match weight size: got %lld but expected %lld",
                      (long long)bias->sizes[0], (long long)w->sizes[0]);
        return -1;
    }
    return 0;
}

tsr_tensor *tsr_nn_bilinear_ex(const tsr_tensor *x1, const tsr_tensor *x2, const tsr_tensor *w, const tsr_tensor *bias,
                               tsr_tensor **parts)
{
    if (parts)
        for (int i = 0; i < 4; i++) parts[i] = NULL;
    if (bilinear_check(x1, x2, w, bias) < 0) return NULL;
    int64_t f1[2] = {-1, x1->sizes[x1->ndim - 1]}, f2[2] = {-1, x2->sizes[x2->ndim - 1]}, osz[TSR_MAX_DIMS];
    for (int i = 0; i + 1 < x1->ndim; i++) osz[i] = x1->sizes[i];
    osz[x1->ndim - 1] = w->sizes[0];
    tsr_tensor *a1 = tsr_reshape(x1, 2, f1), *a2 = a1 ? tsr_reshape(x2, 2, f2) : NULL;
    tsr_tensor *t = a2 ? tsr_trilinear(a1, w, a2, TSR_BILINEAR_E1, TSR_BILINEAR_E2, TSR_BILINEAR_E3,
                                       TSR_BILINEAR_SUM, 1) : NULL;
    tsr_tensor *o = t ? tsr_reshape(t, x1->ndim, osz) : NULL, *r = NULL;
    if (o && bias) {
        tsr_operand oo = tsr_operand_tensor(o), ob = tsr_operand_tensor(bias);
        r = tsr_binary(TSR_BINOP_ADD, &oo, &ob, NULL, NULL);
    } else if (o) {
        r = tsr_tensor_retain(o);
    }
    if (r && parts) {
        parts[0] = a1, parts[1] = a2, parts[2] = t, parts[3] = o;
        return r;
    }
    tsr_tensor_release(a1);
    tsr_tensor_release(a2);
    tsr_tensor_release(t);
    tsr_tensor_release(o);
    return r;
}

tsr_tensor *tsr_nn_bilinear(const tsr_tensor *x1, const tsr_tensor *x2, const tsr_tensor *w, const tsr_tensor *bias)
{
    return tsr_nn_bilinear_ex(x1, x2, w, bias, NULL);
}
