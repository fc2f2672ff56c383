/* runtime/ops/reduce_dev.c — the reductions on a device whose memory the
 * host cannot read (cuda): the geometry of the reduction (reduced dims
 * first, then the kept ones, each group fastest first and coalesced),
 * handed to the backend's reduce entry with device addresses. The CPU's
 * rules (result dtypes, out=, errors) stay with the callers in reduce.c
 * and reduce_cmp.c; what the backend cannot compute is the dispatcher's
 * "Could not run 'aten::X' with arguments from the 'CUDA' backend". */
#include <stdlib.h>
#include <string.h>

#include "../device.h"
#include "../error.h"
#include "../internal.h"
#include "../kernels.h"
#include "../view.h"
#include "reduce_iter.h"
#include "binary.h"
#include "compare.h"
#include "copy.h"
#include "viewcopy.h"

bool reduce_on_device(const tsr_tensor *x)
{
    return x->device.type != TSR_DEV_CPU && x->device.type != TSR_DEV_META;
}

int reduce_device_refuse(const tsr_tensor *x, const char *aten)
{
    if (!reduce_on_device(x)) return 0;
    tsr_error_no_kernel(aten, tsr_device_backend_name(x->device.type), "CPU, Meta");
    return -1;
}

/* Appends dim (size n, strides s[3] in bytes) to the group starting at g0,
 * merged into the group's last dim when every operand continues it. */
static void push_dim(tsr_kreduce *K, int g0, int64_t n, const int64_t *s)
{
    int last = K->nd - 1;
    if (last >= g0 && last < TSR_K_MAXDIMS) {
        bool can = true;
        for (int k = 0; k < 3; k++)
            if (K->shape[last] * K->stride[k][last] != s[k]) can = false;
        if (can) {
            K->shape[last] *= n;
            return;
        }
    }
    if (K->nd < TSR_K_MAXDIMS)
        for (int k = 0; k < 3; k++) K->stride[k][K->nd] = s[k];
    if (K->nd < TSR_K_MAXDIMS) K->shape[K->nd] = n;
    K->nd++;
}

int reduce_device(int op, const tsr_tensor *in, uint64_t mask, bool keepdim, tsr_tensor *r, tsr_tensor *ri,
                  tsr_dtype compute, const char *aten)
{
    return reduce_device_ex(op, in, mask, keepdim, r, ri, compute, aten, NULL);
}

/* A complex sum or mean on the device: the sums of the real and of the
 * imaginary parts, apart (complex addition is theirs), as the real
 * reduction over the views as real (a last dim of 2, kept). */
static int reduce_complex_parts(int op, const tsr_tensor *in, uint64_t mask, bool keepdim, tsr_tensor *r,
                                tsr_dtype compute, const char *aten)
{
    tsr_tensor *a = tsr_view_as_real(in), *b = a ? tsr_view_as_real(r) : NULL;
    int rc = b ? reduce_device_ex(op, a, mask, keepdim, b, NULL, tsr_dtype_to_real(compute), aten, NULL) : -1;
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    return rc;
}

/* A complex product on the device, as pairwise products of the complex
 * mul kernel: the input's reduced dims moved last and flattened into one
 * row of n per output element (contiguous), then halves multiplied into
 * new tensors until one column is left (an odd last element multiplied
 * into the first product), copied into r. */
static int reduce_complex_prod(const tsr_tensor *in, uint64_t mask, tsr_tensor *r)
{
    int64_t perm[TSR_MAX_DIMS], shape[TSR_MAX_DIMS], n = 1;
    int np = 0, nk = 0;
    for (int d = 0; d < in->ndim; d++)
        if (!((mask >> d) & 1)) {
            perm[np++] = d;
            shape[nk++] = in->sizes[d];
        }
    for (int d = 0; d < in->ndim; d++)
        if ((mask >> d) & 1) {
            perm[np++] = d;
            n *= in->sizes[d];
        }
    shape[nk] = n;
    tsr_tensor *p = tsr_view_permute(in, in->ndim, perm), *c = p ? tsr_contiguous(p, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *x = c ? tsr_view_view(c, nk + 1, shape) : NULL;
    tsr_tensor_release(p);
    tsr_tensor_release(c);
    while (x && n > 1) {
        int64_t h = n / 2;
        tsr_tensor *y = NULL, *a = tsr_view_narrow(x, nk, 0, h), *b = a ? tsr_view_narrow(x, nk, h, h) : NULL;
        if (b) {
            tsr_operand oa = tsr_operand_tensor(a), ob = tsr_operand_tensor(b);
            y = tsr_binary(TSR_BINOP_MUL, &oa, &ob, NULL, NULL);
        }
        tsr_tensor_release(a);
        tsr_tensor_release(b);
        if (y && n % 2) {   /* y[..., 0] *= x[..., n - 1] (y is new: x may be the input) */
            tsr_tensor *t = NULL;
            a = tsr_view_narrow(y, nk, 0, 1);
            b = a ? tsr_view_narrow(x, nk, n - 1, 1) : NULL;
            if (b) {
                tsr_operand ob = tsr_operand_tensor(b);
                t = tsr_binary_(TSR_BINOP_MUL, a, &ob, NULL);
            }
            tsr_tensor_release(a);
            tsr_tensor_release(b);
            if (!t) {
                tsr_tensor_release(y);
                y = NULL;
            }
            tsr_tensor_release(t);
        }
        tsr_tensor_release(x);
        x = y;
        n = h;
    }
    if (!x) return -1;
    tsr_tensor *v = tsr_view_view(x, r->ndim, r->sizes);
    int rc = v ? tsr_copy_(r, v) : -1;
    tsr_tensor_release(v);
    tsr_tensor_release(x);
    return rc;
}

int reduce_device_ex(int op, const tsr_tensor *in, uint64_t mask, bool keepdim, tsr_tensor *r, tsr_tensor *ri,
                     tsr_dtype compute, const char *aten, const reduce_dev_args *args)
{
    const tsr_backend *be = tsr_device_backend(in->device);
    if (!be) return -1;
    if (!tsr_device_equal(in->device, r->device) || (ri && !tsr_device_equal(in->device, ri->device))) {
        tsr_error_no_kernel(aten, tsr_device_backend_name(in->device.type), "CPU, Meta");
        return -1;
    }
    if (tsr_tensor_has_bits(in) && !tsr_tensor_has_bits(r) && !(ri && tsr_tensor_has_bits(ri))) {
        /* a conjugate or negative view: its values made plain on the device first */
        tsr_tensor *p = tsr_resolve_bits(in);
        int rc = p ? reduce_device_ex(op, p, mask, keepdim, r, ri, compute, aten, args) : -1;
        tsr_tensor_release(p);
        return rc;
    }
    if ((op == TSR_KR_ALL || op == TSR_KR_ANY || op == TSR_KR_COUNT_NZ) &&
        (in->dtype == TSR_COMPLEX64 || in->dtype == TSR_COMPLEX128)) {
        /* the truth of z != 0 (the complex ne kernel), reduced as bool:
         * CUDA's and/or kernels take static_cast<bool>(z), either part
         * nonzero (1.13's CPU casts through the real part first) */
        tsr_operand a = tsr_operand_tensor(in), zero = tsr_operand_scalar(tsr_scalar_int(0));
        tsr_tensor *nz = tsr_compare(TSR_CMP_NE, &a, &zero, NULL);
        int rc = nz ? reduce_device_ex(op, nz, mask, keepdim, r, ri, TSR_BOOL, aten, args) : -1;
        tsr_tensor_release(nz);
        return rc;
    }
    if (op == TSR_KR_PROD && (compute == TSR_COMPLEX64 || compute == TSR_COMPLEX128) && in->dtype == compute &&
        !ri && !tsr_tensor_has_bits(r) && tsr_tensor_numel(r) > 0)
        return reduce_complex_prod(in, mask, r);
    if ((op == TSR_KR_SUM || op == TSR_KR_MEAN) && (compute == TSR_COMPLEX64 || compute == TSR_COMPLEX128) &&
        tsr_dtype_is_complex(in->dtype) && tsr_dtype_is_complex(r->dtype) && !ri && !tsr_tensor_has_bits(r) &&
        tsr_tensor_numel(r) > 0)
        return reduce_complex_parts(op, in, mask, keepdim, r, compute, aten);
    if (!be->reduce || !be->has_reduce || !be->has_reduce(op, (int)compute) ||
        !tsr_device_equal(in->device, r->device) || (ri && !tsr_device_equal(in->device, ri->device))) {
        tsr_error_no_kernel(aten, tsr_device_backend_name(in->device.type), "CPU, Meta");
        return -1;
    }
    if (tsr_tensor_numel(r) == 0) return 0;
    if (tsr_tensor_has_bits(in) || tsr_tensor_has_bits(r) || (ri && tsr_tensor_has_bits(ri))) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: conjugate or negative views on %s are not supported yet; "
                      "call .resolve_conj() / .resolve_neg() first", tsr_device_type_name(in->device.type));
        return -1;
    }
    tsr_kreduce *K = calloc(1, sizeof *K);
    if (!K) {
        tsr_error_set(TSR_ERR_MEMORY, "out of memory");
        return -1;
    }
    K->op = op;
    K->compute = (int)compute;
    K->dtype[0] = (int)r->dtype;
    K->dtype[1] = (int)in->dtype;
    K->data[0] = tsr_tensor_ptr(r, NULL);
    K->data[1] = tsr_tensor_ptr(in, NULL);
    K->data[2] = ri ? tsr_tensor_ptr(ri, NULL) : NULL;
    if (args) {
        K->p = args->p;
        K->correction = args->correction;
        K->take_sqrt = args->take_sqrt;
    }
    int osz = tsr_dtype_itemsize(r->dtype), isz = tsr_dtype_itemsize(in->dtype),
        xsz = ri ? tsr_dtype_itemsize(ri->dtype) : 0;
    /* each input dim's strides in the output, input and indices */
    int64_t st[TSR_MAX_DIMS][3];
    for (int d = 0, k = 0; d < in->ndim; d++) {
        st[d][1] = in->strides[d] * isz;
        if (mask & (1ull << d)) {
            st[d][0] = st[d][2] = 0;
            if (keepdim) k++;
        } else {
            st[d][0] = r->strides[k] * osz;
            st[d][2] = ri ? ri->strides[k] * xsz : 0;
            k++;
        }
    }
    K->nreduce = 1;
    for (int pass = 0; pass < 2; pass++) {
        int g0 = K->nd;
        for (int d = in->ndim - 1; d >= 0; d--) {
            bool red = (mask >> d) & 1;
            if (red != (pass == 0) || in->sizes[d] == 1) continue;
            push_dim(K, g0, in->sizes[d], st[d]);
            if (red) K->nreduce *= in->sizes[d];
        }
        if (pass == 0) K->nred = K->nd;
    }
    K->nout = tsr_tensor_numel(r);
    int rc = -1;
    if (K->nd > TSR_K_MAXDIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr: a reduction on %s over more than %d dimensions that do not coalesce",
                      tsr_device_type_name(in->device.type), TSR_K_MAXDIMS);
    } else {
        rc = be->reduce(K, in->device.index);
    }
    free(K);
    return rc;
}
