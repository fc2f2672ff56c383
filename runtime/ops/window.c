/* runtime/ops/window.c — hann, hamming, blackman, bartlett and kaiser windows
 * (1.13's TensorFactories.cpp): arange in the window's dtype, then the same
 * elementwise ops 1.13 applies in the same order, so the roundings (and the
 * vectorised cos of long windows) are the tensor ops' own. */
#include <math.h>
#include "../device.h"
#include "../error.h"
#include "../promote.h"
#include "../view.h"
#include "bessel.h"
#include "binary.h"
#include "copy.h"
#include "factory.h"
#include "fft.h"
#include "unary.h"

static const char *const win_name[] = {"hann_window", "hamming_window", "blackman_window", "bartlett_window",
                                       "kaiser_window"};   /* ORDER WINDOW */

/* x op s for a Python number s; steals x. */
static tsr_tensor *op_s(tsr_binop op, tsr_tensor *x, tsr_scalar s)
{
    if (!x) return NULL;
    tsr_operand a = tsr_operand_tensor(x), b = tsr_operand_scalar(s);
    tsr_tensor *r = tsr_binary(op, &a, &b, NULL, NULL);
    tsr_tensor_release(x);
    return r;
}

static tsr_tensor *cos_of(tsr_tensor *x)
{
    if (!x) return NULL;
    tsr_tensor *r = tsr_unary(TSR_UNOP_COS, x, NULL, NULL);
    tsr_tensor_release(x);
    return r;
}

static tsr_tensor *arange_of(int64_t n, tsr_dtype dtype, tsr_device device)
{
    return tsr_arange(tsr_scalar_int(0), tsr_scalar_int(n), tsr_scalar_int(1), dtype, device);
}

tsr_tensor *tsr_window(tsr_window_kind kind, int64_t length, bool periodic, double a, double b, tsr_dtype dtype,
                       tsr_device device)
{
    const char *fname = win_name[kind];
    if (dtype == TSR_DTYPE_UNDEFINED) dtype = tsr_default_dtype();
    if (!tsr_dtype_is_floating(dtype)) {
        char ds[32];
        tsr_error_set(TSR_ERR_RUNTIME, "%s expects floating point dtypes, got: TensorOptions(dtype=%s, device=%s, "
                      "layout=Strided (default), requires_grad=false (default), pinned_memory=false, "
                      "memory_format=(nullopt))", fname, tsr_dtype_typemeta_name(dtype),
                      tsr_device_str(device, ds, sizeof ds));
        return NULL;
    }
    if (length < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s requires non-negative window_length, got window_length=%lld", fname,
                      (long long)length);
        return NULL;
    }
    if (length == 0) return tsr_tensor_empty(1, &length, dtype, device);
    if (length == 1) return tsr_ones(1, &length, dtype, device);
    int64_t L = periodic ? length + 1 : length;
    if (device.type == TSR_DEV_META) return tsr_tensor_empty(1, &length, dtype, device);
    if (kind == TSR_WIN_KAISER && device.type != TSR_DEV_CPU) {   /* its fill runs on the host */
        tsr_error_no_kernel("aten::kaiser_window", tsr_device_backend_name(device.type), "CPU, Meta");
        return NULL;
    }
    tsr_tensor *w = NULL;
    switch (kind) {
    case TSR_WIN_HANN:
    case TSR_WIN_HAMMING: {
        double alpha = kind == TSR_WIN_HANN ? 0.5 : a, beta = kind == TSR_WIN_HANN ? 0.5 : b;
        w = op_s(TSR_BINOP_MUL, arange_of(L, dtype, device), tsr_scalar_float(M_PI * 2. / (double)(L - 1)));
        w = cos_of(w);
        w = op_s(TSR_BINOP_MUL, w, tsr_scalar_float(-beta));
        w = op_s(TSR_BINOP_ADD, w, tsr_scalar_float(alpha));
        break;
    }
    case TSR_WIN_BLACKMAN: {
        tsr_tensor *x = op_s(TSR_BINOP_MUL, arange_of(L, dtype, device), tsr_scalar_float(M_PI / (double)(L - 1)));
        if (!x) return NULL;
        tsr_tensor *c4 = op_s(TSR_BINOP_MUL, cos_of(op_s(TSR_BINOP_MUL, tsr_tensor_retain(x), tsr_scalar_int(4))),
                              tsr_scalar_float(0.08));
        tsr_tensor *c2 = op_s(TSR_BINOP_MUL, cos_of(op_s(TSR_BINOP_MUL, x, tsr_scalar_int(2))),
                              tsr_scalar_float(0.5));
        if (c4 && c2) {
            tsr_operand p = tsr_operand_tensor(c4), q = tsr_operand_tensor(c2);
            w = op_s(TSR_BINOP_ADD, tsr_binary(TSR_BINOP_SUB, &p, &q, NULL, NULL), tsr_scalar_float(0.42));
        }
        tsr_tensor_release(c4);
        tsr_tensor_release(c2);
        break;
    }
    case TSR_WIN_BARTLETT: {
        w = op_s(TSR_BINOP_MUL, arange_of(L, dtype, device), tsr_scalar_float(2. / (double)(L - 1)));
        if (!w) return NULL;
        int64_t first = ((L - 1) >> 1) + 1;
        tsr_tensor *tail = tsr_view_narrow(w, 0, first, L - first), *t2 = NULL;
        tsr_operand m1 = tsr_operand_scalar(tsr_scalar_int(-1)), two = tsr_operand_scalar(tsr_scalar_int(2));
        int rc = -1;
        if (tail && (t2 = tsr_binary_(TSR_BINOP_MUL, tail, &m1, NULL))) {
            tsr_tensor *t3 = tsr_binary_(TSR_BINOP_ADD, tail, &two, NULL);
            rc = t3 ? 0 : -1;
            tsr_tensor_release(t3);
        }
        tsr_tensor_release(t2);
        tsr_tensor_release(tail);
        if (rc < 0) { tsr_tensor_release(w); return NULL; }
        break;
    }
    case TSR_WIN_KAISER:
        /* bfloat16 computes in bfloat16, as 1.13's kernel does (bessel.c) */
        w = tsr_tensor_empty(1, &L, dtype, device);
        if (w && tsr_kaiser_fill(w, L, L, a) < 0) { tsr_tensor_release(w); return NULL; }
        break;
    }
    if (!w || !periodic) return w;
    tsr_tensor *r = tsr_view_narrow(w, 0, 0, length);
    tsr_tensor_release(w);
    return r;
}
