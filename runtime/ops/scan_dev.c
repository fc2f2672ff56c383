/* runtime/ops/scan_dev.c — cumulative ops, sorts and selections, and
 * searchsorted on a device the host cannot read (cuda): the input cast and
 * made contiguous with the device's own copies, its rows handed to the
 * backend's scan entry (cuda/scan.h) with device addresses. What the
 * backend cannot compute is the dispatcher's "Could not run 'aten::X' with
 * arguments from the 'CUDA' backend". */
#include <string.h>

#include "../device.h"
#include "../error.h"
#include "../internal.h"
#include "../kernels.h"
#include "copy.h"
#include "scan_dev.h"

bool scan_on_device(const tsr_tensor *x)
{
    return x->device.type != TSR_DEV_CPU && x->device.type != TSR_DEV_META;
}

static const tsr_backend *backend_for(const tsr_tensor *x, int op, tsr_dtype dt, const char *aten)
{
    const tsr_backend *be = tsr_device_backend(x->device);
    if (!be) return NULL;
    if (!be->scan || !be->has_scan || !be->has_scan(op, (int)dt)) {
        tsr_error_no_kernel(aten, tsr_device_backend_name(x->device.type), "CPU, Meta");
        return NULL;
    }
    return be;
}

static bool bits_refused(const tsr_tensor *x)
{
    if (!tsr_tensor_has_bits(x)) return false;
    tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: conjugate or negative views on %s are not supported yet; "
                  "call .resolve_conj() / .resolve_neg() first", tsr_device_type_name(x->device.type));
    return true;
}

int scan_device(int op, const tsr_tensor *x, int64_t dim, tsr_dtype dtype, tsr_tensor *v, tsr_tensor *ix,
                int64_t k, bool descending, const char *aten)
{
    const tsr_backend *be = backend_for(x, op, dtype, aten);
    if (!be) return -1;
    if (bits_refused(x) || bits_refused(v)) return -1;
    if (tsr_tensor_numel(x) == 0) return 0;
    tsr_tensor *in = tsr_to_dtype(x, dtype, false), *c = in ? tsr_contiguous(in, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor_release(in);
    if (!c) return -1;
    tsr_kscan K;
    memset(&K, 0, sizeof K);
    K.op = op;
    K.dtype = (int)dtype;
    K.descending = descending;
    K.k = k;
    K.outer = K.inner = 1;
    K.n = x->ndim ? x->sizes[dim] : 1;
    for (int d = 0; d < (int)dim; d++) K.outer *= x->sizes[d];
    for (int d = (int)dim + 1; d < x->ndim; d++) K.inner *= x->sizes[d];
    K.data[0] = tsr_tensor_ptr(v, NULL);
    K.data[1] = tsr_tensor_ptr(c, NULL);
    K.data[2] = ix ? tsr_tensor_ptr(ix, NULL) : NULL;
    int rc = be->scan(&K, x->device.index);
    tsr_tensor_release(c);
    return rc;
}

int search_device(const tsr_tensor *bk, const tsr_tensor *vk, const tsr_tensor *sk, bool shared, int64_t rows,
                  int64_t n, int64_t inner, bool right, tsr_tensor *r, const char *aten)
{
    const tsr_backend *be = backend_for(bk, TSR_KS_SEARCH, bk->dtype, aten);
    if (!be) return -1;
    if (rows * inner == 0) return 0;
    tsr_kscan K;
    memset(&K, 0, sizeof K);
    K.op = TSR_KS_SEARCH;
    K.dtype = (int)bk->dtype;
    K.right = right;
    K.out_int32 = r->dtype == TSR_INT32;
    K.shared = shared;
    K.outer = rows;
    K.n = n;
    K.inner = inner;
    K.data[0] = tsr_tensor_ptr(r, NULL);
    K.data[1] = n ? tsr_tensor_ptr(bk, NULL) : NULL;
    K.data[3] = tsr_tensor_ptr(vk, NULL);
    K.data[4] = sk && n ? tsr_tensor_ptr(sk, NULL) : NULL;
    return be->scan(&K, bk->device.index);
}
