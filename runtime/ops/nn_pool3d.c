/* runtime/ops/nn_pool3d.c — more pooling layers as 1.13's CPU kernels
 * compute them: max_unpool2d (MaxUnpooling.cpp's checks, MaxUnpoolKernel.cpp's
 * loop: an out-of-range index is remembered, the last one reported, after
 * the loop). The values are copied, not computed, so the kernel moves each
 * element's bytes; the dtype refusal is the float32/float64 dispatch's. */
#include <string.h>

#include "nn_conv.h"
#include "nn_pool3d.h"
#include "copy.h"
#include "../error.h"
#include "../internal.h"
#include "../named.h"

tsr_tensor *tsr_nn_max_unpool2d(const tsr_tensor *x, const tsr_tensor *indices, int n, const int64_t *osz)
{
    if (tsr__nn_cpu_only("max_unpool2d", x) < 0) return NULL;
    char b[256], c[256];
    if (x->names || indices->names) {
        tsr_names_refuse("aten::max_unpool2d");
        return NULL;
    }
    if (indices->dtype != TSR_INT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "elements in indices should be type int64 but got: %s",
                      tsr_dtype_scalar_name(indices->dtype));
        return NULL;
    }
    if (n != 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "There should be exactly two elements (height, width) in output_size, but "
                      "got %d elements.", n);
        return NULL;
    }
    if (x->ndim != 3 && x->ndim != 4) {
        tsr_error_set(TSR_ERR_RUNTIME, "Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with "
                      "%d dimensions.", x->ndim);
        return NULL;
    }
    bool same = x->ndim == indices->ndim;
    for (int i = 0; same && i < x->ndim; i++) same = x->sizes[i] == indices->sizes[i];
    if (!same) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected shape of indices to be same as that of the input tensor (%s) but got "
                      "indices tensor with shape: %s", tsr__fmt_list(b, sizeof b, x->ndim, x->sizes),
                      tsr__fmt_list(c, sizeof c, indices->ndim, indices->sizes));
        return NULL;
    }
    for (int i = 1; i < x->ndim; i++)
        if (x->sizes[i] <= 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "max_unpooling2d_forward_out_cpu(): Expected input to have non-zero size "
                          "for non-batch dimensions, but got %s with dimension %d being empty.",
                          tsr__fmt_list(b, sizeof b, x->ndim, x->sizes), i);
            return NULL;
        }
    bool batched = x->ndim == 4;
    tsr_memory_format mf = batched ? tsr_tensor_suggest_memory_format(x) : TSR_MF_CONTIGUOUS;
    int64_t shape[4], numel;
    for (int i = 0; i < x->ndim - 2; i++) shape[i] = x->sizes[i];
    shape[x->ndim - 2] = osz[0], shape[x->ndim - 1] = osz[1];
    if (tsr_check_sizes(x->ndim, shape, &numel) < 0) return NULL;
    tsr_tensor *out = tsr_tensor_empty_format(x->ndim, shape, x->dtype, x->device, mf);
    if (!out || tsr_zero_(out) < 0) goto fail;
    if (numel == 0 || tsr_tensor_is_meta(out)) return out;
    if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64) {
        tsr__not_implemented("max_unpool2d", x->dtype);
        goto fail;
    }
    if (tsr_tensor_has_bits(x)) {   /* a lazy conj/neg view: its values first */
        tsr_tensor *v = tsr_resolve_bits(x), *r = v ? tsr_nn_max_unpool2d(v, indices, n, osz) : NULL;
        tsr_tensor_release(v);
        tsr_tensor_release(out);
        return r;
    }
    int64_t N = batched ? x->sizes[0] : 1, C = x->sizes[x->ndim - 3], H = x->sizes[x->ndim - 2];
    int64_t W = x->sizes[x->ndim - 1], plane = osz[0] * osz[1], bad = 0;
    bool has_bad = false;
    int sz = tsr_dtype_itemsize(x->dtype), o = batched ? 1 : 0;
    const char *xb = tsr_tensor_ptr(x, NULL);
    const int64_t *ib = tsr_tensor_ptr(indices, NULL);
    char *ob = tsr_tensor_ptr(out, NULL);
    int64_t xs[4] = {0}, is[4] = {0}, os[4] = {0};
    for (int i = 0; i < 3; i++) xs[i + 1] = x->strides[i + o], is[i + 1] = indices->strides[i + o],
                                os[i + 1] = out->strides[i + o];
    if (batched) xs[0] = x->strides[0], is[0] = indices->strides[0], os[0] = out->strides[0];
    bool cl = mf == TSR_MF_CHANNELS_LAST;   /* 1.13's channels-last loop runs channels innermost */
    for (int64_t b0 = 0; b0 < N; b0++) {
        if (tsr_check_interrupt() < 0) goto fail;
        for (int64_t a = 0; a < (cl ? H * W : C); a++)
            for (int64_t e = 0; e < (cl ? C : H * W); e++) {
                int64_t ch = cl ? e : a, hw = cl ? a : e, h = hw / W, w = hw % W;
                int64_t m = ib[b0 * is[0] + ch * is[1] + h * is[2] + w * is[3]];
                if (m < 0 || m >= plane) {
                    bad = m, has_bad = true;
                    continue;
                }
                memcpy(ob + (b0 * os[0] + ch * os[1] + (m / osz[1]) * os[2] + (m % osz[1]) * os[3]) * sz,
                       xb + (b0 * xs[0] + ch * xs[1] + h * xs[2] + w * xs[3]) * sz, (size_t)sz);
            }
    }
    if (has_bad) {
        tsr_error_set(TSR_ERR_RUNTIME, "Found an invalid max index: %lld (output volumes are of size %lldx%lld",
                      (long long)bad, (long long)osz[0], (long long)osz[1]);
        goto fail;
    }
    return out;
fail:
    tsr_tensor_release(out);
    return NULL;
}

tsr_tensor *tsr_nn_max_unpool2d_backward(const tsr_tensor *g, const tsr_tensor *indices)
{
    if (tsr_tensor_has_bits(g)) {
        tsr_tensor *v = tsr_resolve_bits(g), *r = v ? tsr_nn_max_unpool2d_backward(v, indices) : NULL;
        tsr_tensor_release(v);
        return r;
    }
    int nd = indices->ndim;
    if (nd < 2 || g->ndim != nd) {
        tsr_error_set(TSR_ERR_RUNTIME, "max_unpool2d backward: the gradient's and indices' dimensions differ");
        return NULL;
    }
    tsr_tensor *r = tsr_tensor_empty(nd, indices->sizes, g->dtype, g->device);
    if (!r || tsr_tensor_numel(r) == 0 || tsr_tensor_is_meta(r)) return r;
    int64_t lead = 1, H = indices->sizes[nd - 2], W = indices->sizes[nd - 1], OW = g->sizes[nd - 1];
    int64_t plane = g->sizes[nd - 2] * OW;
    for (int i = 0; i < nd - 2; i++) lead *= indices->sizes[i];
    int sz = tsr_dtype_itemsize(g->dtype);
    const char *gb = tsr_tensor_ptr(g, NULL);
    const int64_t *ib = tsr_tensor_ptr(indices, NULL);
    char *rb = tsr_tensor_ptr(r, NULL);
    for (int64_t l = 0; l < lead; l++) {
        if (tsr_check_interrupt() < 0) goto fail;
        int64_t go = 0, io = 0, rem = l;   /* the leading dims' offsets in g and indices */
        for (int i = nd - 3; i >= 0; i--) {
            int64_t c = rem % indices->sizes[i];
            rem /= indices->sizes[i];
            go += c * g->strides[i], io += c * indices->strides[i];
        }
        for (int64_t h = 0; h < H; h++)
            for (int64_t w = 0; w < W; w++) {
                int64_t m = ib[io + h * indices->strides[nd - 2] + w * indices->strides[nd - 1]];
                if (m < 0 || m >= plane) {
                    tsr_error_set(TSR_ERR_INDEX, "index %lld is out of bounds for dimension 2 with size %lld",
                                  (long long)m, (long long)plane);
                    goto fail;
                }
                int64_t src = go + (m / OW) * g->strides[nd - 2] + (m % OW) * g->strides[nd - 1];
                memcpy(rb + ((l * H + h) * W + w) * sz, gb + src * sz, (size_t)sz);
            }
    }
    return r;
fail:
    tsr_tensor_release(r);
    return NULL;
}
