/* runtime/ops/nn_out.c — out= of the torch._C._nn activations that 1.13
 * accepts it on (F.gelu, F.softplus, F.logsigmoid): the checks of out in
 * 1.13's order, then the values of the functional form written into out. */
#include <string.h>

#include "nn.h"
#include "copy.h"
#include "../error.h"
#include "../internal.h"
#include "../iter.h"
#include "../op.h"

/* build_borrowing_unary_op's TensorIterator over (out, x): out's internal
 * overlap and its partial overlap with x, then (out the first operand) its
 * dtype, which must be x's, and the one device. */
static int unary_out_check(const tsr_tensor *x, const tsr_tensor *out)
{
    if (tsr_check_no_internal_overlap(out) < 0 || tsr_check_no_partial_overlap(out, x) < 0) return -1;
    if (out->dtype != x->dtype) {
        tsr_error_set(TSR_ERR_RUNTIME, "Found dtype %s but expected %s", tsr_dtype_scalar_name(out->dtype),
                      tsr_dtype_scalar_name(x->dtype));
        return -1;
    }
    if (!tsr_device_equal(out->device, x->device)) {
        char a[64], b[64];
        tsr_error_set(TSR_ERR_RUNTIME, "Expected all tensors to be on the same device, but found at least two devices, "
                      "%s and %s!", tsr_device_str(out->device, a, sizeof a), tsr_device_str(x->device, b, sizeof b));
        return -1;
    }
    return 0;
}

tsr_tensor *tsr_nn_gelu_out(const tsr_tensor *x, const char *approximate, tsr_tensor *out)
{
    if (unary_out_check(x, out) < 0) return NULL;
    return tsr_out_assign(tsr_nn_gelu(x, approximate), out, false);
}

tsr_tensor *tsr_nn_softplus_out(const tsr_tensor *x, double beta, double threshold, tsr_tensor *out)
{
    if (unary_out_check(x, out) < 0) return NULL;
    return tsr_out_assign(tsr_nn_softplus(x, beta, threshold), out, false);
}

/* log_sigmoid_forward_out_cpu: out.resize_as_(x) (no warning), the kernel
 * dispatched on x's dtype reads out's data as that type ("expected scalar
 * type Float but found Double"), a non-contiguous out receives a copy_ of
 * the contiguous result (its internal overlap refused there). */
tsr_tensor *tsr_nn_log_sigmoid_out(const tsr_tensor *x, tsr_tensor *out)
{
    bool same = out->ndim == x->ndim && !memcmp(out->sizes, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
    if (!same && tsr_tensor_resize_(out, x->ndim, x->sizes) < 0) return NULL;
    tsr_tensor *r = tsr_nn_log_sigmoid(x);
    if (!r) return NULL;
    if (out->dtype != x->dtype) {
        tsr_tensor_release(r);
        tsr_error_set(TSR_ERR_RUNTIME, "expected scalar type %s but found %s", tsr_dtype_scalar_name(x->dtype),
                      tsr_dtype_scalar_name(out->dtype));
        return NULL;
    }
    if (!tsr_tensor_is_contiguous(out) && tsr_check_no_internal_overlap(out) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return tsr_out_assign(r, out, false);
}
