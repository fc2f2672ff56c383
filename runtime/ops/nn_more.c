/* runtime/ops/nn_more.c — glu, pixel_shuffle / pixel_unshuffle,
 * channel_shuffle, hardshrink / softshrink, rrelu, im2col / col2im and
 * their backward kernels. The pointwise ones are compositions of tsr's ops
 * in the order 1.13's kernels evaluate them; where 1.13 computes bfloat16 in
 * float and rounds once (glu, softshrink, glu's backward) so do they, as
 * checked against 1.13. The shuffles are one strided copy; im2col and col2im
 * are 1.13's loops (Im2Col.h), col2im summing in the same order. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn_more.h"
#include "binary.h"
#include "compare.h"
#include "copy.h"
#include "factory.h"
#include "nn.h"
#include "scatter.h"
#include "unary.h"
#include "../error.h"
#include "../internal.h"
#include "../view.h"

static tsr_tensor *bin(tsr_binop op, const tsr_tensor *a, const tsr_tensor *b)
{
    if (!a || !b) return NULL;
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    return tsr_binary(op, &x, &y, NULL, NULL);
}

static tsr_tensor *un(tsr_unop op, const tsr_tensor *a) { return a ? tsr_unary(op, a, NULL, NULL) : NULL; }

/* The sizes as 1.13 prints an IntArrayRef: "[2, 2]". */
static const char *fmt_sizes(char *buf, size_t n, const tsr_tensor *t)
{
    size_t k = (size_t)snprintf(buf, n, "[");
    for (int i = 0; i < t->ndim && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? ", " : "", (long long)t->sizes[i]);
    if (k < n) snprintf(buf + k, n - k, "]");
    return buf;
}

static bool float_kernel(const tsr_tensor *x, const char *kname)
{
    if (x->dtype == TSR_FLOAT32 || x->dtype == TSR_FLOAT64 || x->dtype == TSR_BFLOAT16) return true;
    tsr__not_implemented(kname, x->dtype);
    return false;
}

/* ------------------------------------------------------------ glu */

/* glu's meta checks; the wrapped dim, or -1. */
static int glu_dim(const tsr_tensor *x, int64_t dim)
{
    if (x->ndim == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "glu does not support scalars because halving size must be even");
        return -1;
    }
    int d = tsr_wrap_dim(dim, x->ndim);
    if (d < 0) return -1;
    if (x->sizes[d] % 2) {
        tsr_error_set(TSR_ERR_RUNTIME, "Halving dimension must be even, but dimension %d is size %lld", d,
                      (long long)x->sizes[d]);
        return -1;
    }
    return d;
}

tsr_tensor *tsr_nn_glu(const tsr_tensor *x, int64_t dim)
{
    int d = glu_dim(x, dim);
    /* cuda: float16 too, in float as bfloat16 */
    bool dev = tsr__nn_on_device(x), half = x->dtype == TSR_BFLOAT16 || (dev && x->dtype == TSR_FLOAT16);
    if (d < 0 || (!half && !float_kernel(x, dev ? "glu_cuda" : "glu_cpu"))) return NULL;
    int64_t h = x->sizes[d] / 2;
    tsr_tensor *a = tsr_view_narrow(x, d, 0, h), *b = tsr_view_narrow(x, d, h, h), *s = NULL, *r = NULL;
    if (a && b && half) {
        /* bfloat16: a * sigmoid(b) in float, rounded once (as 1.13 gives) */
        tsr_tensor *af = tsr_to_dtype(a, TSR_FLOAT32, false), *bf = tsr_to_dtype(b, TSR_FLOAT32, false), *p;
        p = af && bf && (s = un(TSR_UNOP_SIGMOID, bf)) ? bin(TSR_BINOP_MUL, af, s) : NULL;
        r = p ? tsr_to_dtype(p, x->dtype, false) : NULL;
        tsr_tensor_release(af), tsr_tensor_release(bf), tsr_tensor_release(p);
    } else if (a && b && (s = un(TSR_UNOP_SIGMOID, b))) {
        r = bin(TSR_BINOP_MUL, a, s);
    }
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    tsr_tensor_release(s);
    return r;
}

tsr_tensor *tsr_nn_glu_backward(const tsr_tensor *g, const tsr_tensor *x, int64_t dim)
{
    int d = glu_dim(x, dim);
    bool dev = tsr__nn_on_device(x);
    if (d < 0 || (!(dev && x->dtype == TSR_FLOAT16) && !float_kernel(x, dev ? "glu_backward_cuda" : "glu_backward_cpu")))
        return NULL;
    int64_t h = x->sizes[d] / 2;
    tsr_tensor *a = tsr_view_narrow(x, d, 0, h), *b = tsr_view_narrow(x, d, h, h), *s = NULL, *t = NULL, *ga = NULL;
    tsr_tensor *r = tsr_empty(x->ndim, x->sizes, x->dtype, x->device, TSR_MF_CONTIGUOUS), *r0 = NULL, *r1 = NULL;
    if (!a || !b || !r || !(s = un(TSR_UNOP_SIGMOID, b))) goto fail;
    /* glu_backward_kernel: (1 - sig) * sig * first * g, left to right;
     * bfloat16 in float from the rounded sigmoid, rounded once */
    bool bf = x->dtype == TSR_BFLOAT16 || x->dtype == TSR_FLOAT16;
    /* (cuda: the sigmoid of the float second half, as its kernel's opmath) */
    tsr_tensor *sf = bf && dev ? tsr_to_dtype(b, TSR_FLOAT32, false) : bf ? tsr_to_dtype(s, TSR_FLOAT32, false)
                                                                       : tsr_tensor_retain(s);
    if (sf && bf && dev) tsr__take(&sf, un(TSR_UNOP_SIGMOID, sf));
    tsr_tensor *af = bf ? tsr_to_dtype(a, TSR_FLOAT32, false) : tsr_tensor_retain(a);
    tsr_tensor *gf = bf ? tsr_to_dtype(g, TSR_FLOAT32, false) : tsr_tensor_retain((tsr_tensor *)g);
    if (sf && af && gf) {
        tsr_operand os = tsr_operand_tensor(sf), one = tsr_operand_scalar(tsr_scalar_int(1));
        if ((t = tsr_binary(TSR_BINOP_SUB, &one, &os, NULL, NULL)) && tsr__take(&t, bin(TSR_BINOP_MUL, t, sf)) &&
            tsr__take(&t, bin(TSR_BINOP_MUL, t, af)))
            tsr__take(&t, bin(TSR_BINOP_MUL, t, gf));
    }
    tsr_tensor_release(sf), tsr_tensor_release(af), tsr_tensor_release(gf);
    if (!t) goto fail;
    if (!(ga = bin(TSR_BINOP_MUL, s, g))) goto fail;
    if (!(r0 = tsr_view_narrow(r, d, 0, h)) || !(r1 = tsr_view_narrow(r, d, h, h)) || tsr_copy_(r0, ga) < 0 ||
        tsr_copy_(r1, t) < 0)
        goto fail;
    tsr_tensor_release(a), tsr_tensor_release(b), tsr_tensor_release(s), tsr_tensor_release(t);
    tsr_tensor_release(ga), tsr_tensor_release(r0), tsr_tensor_release(r1);
    return r;
fail:
    tsr_tensor_release(a), tsr_tensor_release(b), tsr_tensor_release(s), tsr_tensor_release(t);
    tsr_tensor_release(ga), tsr_tensor_release(r0), tsr_tensor_release(r1), tsr_tensor_release(r);
    return NULL;
}

/* ------------------------------------------------------------ shuffles */

/* The result of a shuffle: an empty tensor of osizes in x's suggested
 * memory format, then out_view (the result seen with n dims of sizes vs
 * and strides from ostr) = in_view (x seen as vs with strides xstr). */
static tsr_tensor *shuffle(const tsr_tensor *x, int on, const int64_t *osizes, int n, const int64_t *vs,
                           const int64_t *xstr, void (*ostr)(const tsr_tensor *out, int64_t *st, int64_t r),
                           int64_t r)
{
    tsr_memory_format mf = x->ndim == on ? tsr_tensor_suggest_memory_format(x) : TSR_MF_CONTIGUOUS;
    tsr_tensor *out = tsr_empty(on, osizes, x->dtype, x->device, mf), *iv = NULL, *ov = NULL;
    if (!out) return NULL;
    int64_t st[TSR_MAX_DIMS + 2];
    ostr(out, st, r);
    if (!(iv = tsr_view_as_strided(x, n, vs, xstr, TSR_VIEW_KEEP_OFFSET)) ||
        !(ov = tsr_view_as_strided(out, n, vs, st, TSR_VIEW_KEEP_OFFSET)) || tsr_copy_(ov, iv) < 0)
        tsr__take(&out, NULL);
    tsr_tensor_release(iv);
    tsr_tensor_release(ov);
    return out;
}

/* pixel_shuffle's result (b..., C, H*r, W*r) seen as (b..., C, H, r, W, r) */
static void ps_out(const tsr_tensor *o, int64_t *st, int64_t r)
{
    int k = o->ndim - 3;
    for (int i = 0; i < k; i++) st[i] = o->strides[i];
    st[k] = o->strides[k];
    st[k + 1] = o->strides[k + 1] * r, st[k + 2] = o->strides[k + 1];
    st[k + 3] = o->strides[k + 2] * r, st[k + 4] = o->strides[k + 2];
}

/* pixel_unshuffle's result (b..., C*r*r, H, W) seen as (b..., C, r, r, H, W) */
static void pu_out(const tsr_tensor *o, int64_t *st, int64_t r)
{
    int k = o->ndim - 3;
    for (int i = 0; i < k; i++) st[i] = o->strides[i];
    st[k] = o->strides[k] * r * r, st[k + 1] = o->strides[k] * r, st[k + 2] = o->strides[k];
    st[k + 3] = o->strides[k + 1], st[k + 4] = o->strides[k + 2];
}

static bool shuffle_checks(const tsr_tensor *x, int64_t r, bool up)
{
    const char *name = up ? "pixel_shuffle" : "pixel_unshuffle";
    if (x->ndim < 3) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s expects input to have at least 3 dimensions, but got input with %d "
                      "dimension(s)", name, x->ndim);
        return false;
    }
    if (r <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s expects a positive %s, but got %lld", name,
                      up ? "upscale_factor" : "downscale_factor", (long long)r);
        return false;
    }
    int k = x->ndim - 3;
    if (up && x->sizes[k] % (r * r)) {
        tsr_error_set(TSR_ERR_RUNTIME, "pixel_shuffle expects its input's 'channel' dimension to be divisible by the "
                      "square of upscale_factor, but input.size(-3)=%lld is not divisible by %lld",
                      (long long)x->sizes[k], (long long)(r * r));
        return false;
    }
    if (!up && x->sizes[k + 1] % r) {
        tsr_error_set(TSR_ERR_RUNTIME, "pixel_unshuffle expects height to be divisible by downscale_factor, but "
                      "input.size(-2)=%lld is not divisible by %lld", (long long)x->sizes[k + 1], (long long)r);
        return false;
    }
    if (!up && x->sizes[k + 2] % r) {
        tsr_error_set(TSR_ERR_RUNTIME, "pixel_unshuffle expects width to be divisible by downscale_factor, but "
                      "input.size(-1)=%lld is not divisible by %lld", (long long)x->sizes[k + 2], (long long)r);
        return false;
    }
    return true;
}

tsr_tensor *tsr_nn_pixel_shuffle(const tsr_tensor *x, int64_t r)
{
    if (!shuffle_checks(x, r, true)) return NULL;
    int k = x->ndim - 3;
    int64_t C = x->sizes[k] / (r * r), H = x->sizes[k + 1], W = x->sizes[k + 2];
    int64_t os[TSR_MAX_DIMS], vs[TSR_MAX_DIMS + 2], xs[TSR_MAX_DIMS + 2];
    for (int i = 0; i < k; i++) os[i] = vs[i] = x->sizes[i], xs[i] = x->strides[i];
    os[k] = C, os[k + 1] = H * r, os[k + 2] = W * r;
    /* x's (C, r, r, H, W) permuted to (C, H, r, W, r) */
    int64_t sc = x->strides[k];
    vs[k] = C, vs[k + 1] = H, vs[k + 2] = r, vs[k + 3] = W, vs[k + 4] = r;
    xs[k] = sc * r * r, xs[k + 1] = x->strides[k + 1], xs[k + 2] = sc * r, xs[k + 3] = x->strides[k + 2], xs[k + 4] = sc;
    return shuffle(x, x->ndim, os, x->ndim + 2, vs, xs, ps_out, r);
}

tsr_tensor *tsr_nn_pixel_unshuffle(const tsr_tensor *x, int64_t r)
{
    if (!shuffle_checks(x, r, false)) return NULL;
    int k = x->ndim - 3;
    int64_t C = x->sizes[k], H = x->sizes[k + 1] / r, W = x->sizes[k + 2] / r;
    int64_t os[TSR_MAX_DIMS], vs[TSR_MAX_DIMS + 2], xs[TSR_MAX_DIMS + 2];
    for (int i = 0; i < k; i++) os[i] = vs[i] = x->sizes[i], xs[i] = x->strides[i];
    os[k] = C * r * r, os[k + 1] = H, os[k + 2] = W;
    /* x's (C, H, r, W, r) permuted to (C, r, r, H, W) */
    int64_t sh = x->strides[k + 1], sw = x->strides[k + 2];
    vs[k] = C, vs[k + 1] = r, vs[k + 2] = r, vs[k + 3] = H, vs[k + 4] = W;
    xs[k] = x->strides[k], xs[k + 1] = sh, xs[k + 2] = sw, xs[k + 3] = sh * r, xs[k + 4] = sw * r;
    return shuffle(x, x->ndim, os, x->ndim + 2, vs, xs, pu_out, r);
}

/* channel_shuffle's result (b, C, *) seen as (b, C/g, g, *) */
static void cs_out(const tsr_tensor *o, int64_t *st, int64_t g)
{
    st[0] = o->strides[0];
    st[1] = o->strides[1] * g, st[2] = o->strides[1];
    for (int i = 2; i < o->ndim; i++) st[i + 1] = o->strides[i];
}

tsr_tensor *tsr_nn_channel_shuffle(const tsr_tensor *x, int64_t groups)
{
    if (tsr_tensor_is_meta(x)) {   /* a CPU and QuantizedCPU kernel only in 1.13 */
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED,
                      "Could not run 'aten::channel_shuffle' with arguments from the 'Meta' backend. This could be "
                      "because the operator doesn't exist for this backend, or was omitted during the selective/custom "
                      "build process (if using custom build). If you are a Facebook employee using PyTorch on mobile, "
                      "please visit https://fburl.com/ptmfixes for possible resolutions. 'aten::channel_shuffle' is only "
                      "available for these backends: [CPU, QuantizedCPU, BackendSelect, Python, "
                      "FuncTorchDynamicLayerBackMode, Functionalize, Named, Conjugate, Negative, ZeroTensor, "
                      "ADInplaceOrView, AutogradOther, AutogradCPU, AutogradCUDA, AutogradHIP, AutogradXLA, AutogradMPS, "
                      "AutogradIPU, AutogradXPU, AutogradHPU, AutogradVE, AutogradLazy, AutogradMeta, "
                      "AutogradPrivateUse1, AutogradPrivateUse2, AutogradPrivateUse3, AutogradNestedTensor, Tracer, "
                      "AutocastCPU, AutocastCUDA, FuncTorchBatched, FuncTorchVmapMode, Batched, VmapMode, "
                      "FuncTorchGradWrapper, PythonTLSSnapshot, FuncTorchDynamicLayerFrontMode, PythonDispatcher].");
        return NULL;
    }
    if (x->ndim <= 2) {
        char buf[256];
        tsr_error_set(TSR_ERR_RUNTIME, "channel_shuffle expects input with > 2 dims, but got input with sizes %s",
                      fmt_sizes(buf, sizeof buf, x));
        return NULL;
    }
    if (groups <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "Number of groups to divide channels in must be positive. Value of groups:%lld",
                      (long long)groups);
        return NULL;
    }
    int64_t c = x->sizes[1];
    if (c % groups) {
        tsr_error_set(TSR_ERR_RUNTIME, "Number of channels must be divisible by groups. Got %lld channels and %lld "
                      "groups.", (long long)c, (long long)groups);
        return NULL;
    }
    /* out[i * g + j] = x[j * (C / g) + i] */
    int64_t vs[TSR_MAX_DIMS + 1], xs[TSR_MAX_DIMS + 1];
    vs[0] = x->sizes[0], xs[0] = x->strides[0];
    vs[1] = c / groups, xs[1] = x->strides[1];
    vs[2] = groups, xs[2] = x->strides[1] * (c / groups);
    for (int i = 2; i < x->ndim; i++) vs[i + 1] = x->sizes[i], xs[i + 1] = x->strides[i];
    return shuffle(x, x->ndim, x->sizes, x->ndim + 1, vs, xs, cs_out, groups);
}

/* ------------------------------------------------------------ shrink */

/* lambd.to<scalar_t>() as a 0-dim tensor of x's dtype, and its negation. */
static int lambd_of(const tsr_tensor *x, double lambd, tsr_tensor **l, tsr_tensor **nl)
{
    *l = tsr_full(0, NULL, tsr_scalar_float(lambd), x->dtype, x->device);
    *nl = *l ? un(TSR_UNOP_NEG, *l) : NULL;
    if (*nl) return 0;
    tsr_tensor_release(*l);
    return -1;
}

static tsr_tensor *cmp(tsr_cmpop op, const tsr_tensor *a, const tsr_tensor *b)
{
    if (!a || !b) return NULL;
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    return tsr_compare(op, &x, &y, NULL);
}

/* cond ? a : b, a or b NULL: zero of the dtype */
static tsr_tensor *sel(const tsr_tensor *cond, const tsr_tensor *a, const tsr_tensor *b)
{
    if (!cond) return NULL;
    tsr_operand z = tsr_operand_scalar(tsr_scalar_int(0));
    tsr_operand x = a ? tsr_operand_tensor(a) : z, y = b ? tsr_operand_tensor(b) : z;
    return tsr_where(cond, &x, &y, NULL);
}

/* -lambd <= x <= lambd */
static tsr_tensor *inside(const tsr_tensor *x, const tsr_tensor *l, const tsr_tensor *nl)
{
    tsr_tensor *ge = cmp(TSR_CMP_GE, x, nl), *le = cmp(TSR_CMP_LE, x, l), *r = cmp(TSR_CMP_LOGICAL_AND, ge, le);
    tsr_tensor_release(ge);
    tsr_tensor_release(le);
    return r;
}

tsr_tensor *tsr_nn_hardshrink(const tsr_tensor *x, double lambd)
{
    if (tsr__nn_on_device(x)) return tsr__act_dev(TSR_DACT_HARDSHRINK, (tsr_tensor *)x, lambd, 0, 0, false);
    if (!float_kernel(x, "hardshrink_cpu")) return NULL;
    tsr_tensor *l, *nl;
    if (lambd_of(x, lambd, &l, &nl) < 0) return NULL;
    /* (self_val >= -lambd && self_val <= lambd) ? 0 : self_val */
    tsr_tensor *in = inside(x, l, nl), *r = sel(in, NULL, x);
    tsr_tensor_release(in);
    tsr_tensor_release(l);
    tsr_tensor_release(nl);
    return r;
}

tsr_tensor *tsr_nn_softshrink(const tsr_tensor *x, double lambd)
{
    if (!(lambd >= 0)) {
        tsr_error_set(TSR_ERR_RUNTIME, "lambda must be greater or equal to 0, but found to be %g.", lambd);
        return NULL;
    }
    if (tsr__nn_on_device(x)) return tsr__act_dev(TSR_DACT_SOFTSHRINK, (tsr_tensor *)x, lambd, 0, 0, false);
    if (!float_kernel(x, "softshrink_cpu")) return NULL;
    if (x->dtype == TSR_BFLOAT16) {   /* in float with a float lambd, rounded once (1.13) */
        tsr_tensor *xf = tsr_to_dtype(x, TSR_FLOAT32, false), *rf = xf ? tsr_nn_softshrink(xf, lambd) : NULL;
        tsr_tensor *r = rf ? tsr_to_dtype(rf, TSR_BFLOAT16, false) : NULL;
        tsr_tensor_release(xf);
        tsr_tensor_release(rf);
        return r;
    }
    tsr_tensor *l, *nl;
    if (lambd_of(x, lambd, &l, &nl) < 0) return NULL;
    /* a > lambd ? a - lambd : (a < -lambd ? a + lambd : 0) */
    tsr_tensor *gt = cmp(TSR_CMP_GT, x, l), *lt = cmp(TSR_CMP_LT, x, nl);
    tsr_tensor *sub = bin(TSR_BINOP_SUB, x, l), *add = bin(TSR_BINOP_ADD, x, l);
    tsr_tensor *lo = sel(lt, add, NULL), *r = lo ? sel(gt, sub, lo) : NULL;
    tsr_tensor_release(gt), tsr_tensor_release(lt), tsr_tensor_release(sub), tsr_tensor_release(add);
    tsr_tensor_release(lo), tsr_tensor_release(l), tsr_tensor_release(nl);
    return r;
}

tsr_tensor *tsr_nn_shrink_backward(const tsr_tensor *g, const tsr_tensor *x, double lambd, const char *kname)
{
    if (!float_kernel(x, kname)) return NULL;
    tsr_tensor *l, *nl;
    if (lambd_of(x, lambd, &l, &nl) < 0) return NULL;
    tsr_tensor *in = inside(x, l, nl), *r = sel(in, NULL, g);
    tsr_tensor_release(in);
    tsr_tensor_release(l);
    tsr_tensor_release(nl);
    return r;
}

/* ------------------------------------------------------------ rrelu */

/* at::uniform_real_distribution<double>(from, to) on one random64() */
static double uniform_real(tsr_generator *gen, double from, double to)
{
    uint64_t v = tsr_generator_random64(gen) & ((UINT64_C(1) << 53) - 1);
    double x = (double)v * (1.0 / (double)(UINT64_C(1) << 53));
    double span = to - from, y = x * span;
    return y + from;
}

tsr_tensor *tsr_nn_rrelu(tsr_tensor *x, double lower, double upper, bool training, bool inplace, tsr_generator *gen,
                         tsr_tensor **noise)
{
    if (noise) *noise = NULL;
    if (tsr_tensor_is_meta(x)) return tsr_meta_refused("rrelu_with_noise"), NULL;
    bool dev = tsr__nn_on_device(x);
    if (!training) {
        if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64 && x->dtype != TSR_BFLOAT16 &&
            (x->dtype != TSR_FLOAT16 || !dev)) {
            tsr__not_implemented(dev ? "leaky_relu_cuda" : "leaky_relu_cpu", x->dtype);
            return NULL;
        }
        tsr_tensor *r = tsr_nn_leaky_relu(x, (lower + upper) / 2, inplace);
        if (r && noise && !(*noise = tsr_empty(1, (int64_t[]){0}, x->dtype, x->device, TSR_MF_CONTIGUOUS)))
            tsr__take(&r, NULL);
        return r;
    }
    if (dev) {   /* the noise is drawn on the host from the CPU's generator */
        tsr_error_no_kernel("aten::rrelu_with_noise", tsr_device_backend_name(x->device.type), "CPU, Meta");
        return NULL;
    }
    if (!float_kernel(x, "rrelu_with_noise_out_cpu")) return NULL;
    tsr_tensor *xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS);
    tsr_tensor *o = xc ? tsr_empty(x->ndim, x->sizes, x->dtype, x->device, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor *nz = o ? tsr_empty(x->ndim, x->sizes, x->dtype, x->device, TSR_MF_CONTIGUOUS) : NULL;
    if (!nz) goto fail;
    int64_t n = tsr_tensor_numel(x);
    if (n && tsr_tensor_is_meta(x)) n = 0;
    char *xp = n ? tsr_tensor_ptr(xc, NULL) : NULL, *op = n ? tsr_tensor_ptr(o, NULL) : NULL;
    char *np = n ? tsr_tensor_ptr(nz, NULL) : NULL;
    for (int64_t i = 0; i < n; i++) {
        if ((i & 0xffff) == 0 && tsr_check_interrupt() < 0) goto fail;
        switch (x->dtype) {
        case TSR_FLOAT64: {
            double v = ((double *)xp)[i];
            if (v <= 0) {
                double r = uniform_real(gen, lower, upper);
                ((double *)op)[i] = v * r, ((double *)np)[i] = r;
            } else {
                ((double *)op)[i] = v, ((double *)np)[i] = 1;
            }
            break;
        }
        case TSR_FLOAT32: {
            float v = ((float *)xp)[i];
            if (v <= 0) {
                float r = (float)uniform_real(gen, (float)lower, (float)upper);
                ((float *)op)[i] = v * r, ((float *)np)[i] = r;
            } else {
                ((float *)op)[i] = v, ((float *)np)[i] = 1;
            }
            break;
        }
        default: {   /* bfloat16: lower, upper and r in bfloat16, the product rounded */
            float v = tsr_bfloat16_to_float(((tsr_bfloat16 *)xp)[i]);
            if (v <= 0) {
                float lo = tsr_bfloat16_to_float(tsr_double_to_bfloat16(lower));
                float hi = tsr_bfloat16_to_float(tsr_double_to_bfloat16(upper));
                float r = tsr_bfloat16_to_float(tsr_double_to_bfloat16(uniform_real(gen, lo, hi)));
                ((tsr_bfloat16 *)op)[i] = tsr_float_to_bfloat16(v * r);
                ((tsr_bfloat16 *)np)[i] = tsr_float_to_bfloat16(r);
            } else {
                ((tsr_bfloat16 *)op)[i] = ((tsr_bfloat16 *)xp)[i];
                ((tsr_bfloat16 *)np)[i] = tsr_float_to_bfloat16(1);
            }
        }
        }
    }
    tsr_tensor_release(xc);
    if (inplace) {
        if (tsr_copy_(x, o) < 0) goto fail2;
        tsr__take(&o, tsr_tensor_retain(x));
    }
    if (noise) *noise = nz;
    else tsr_tensor_release(nz);
    return o;
fail:
    tsr_tensor_release(xc);
fail2:
    tsr_tensor_release(o);
    tsr_tensor_release(nz);
    return NULL;
}

tsr_tensor *tsr_nn_rrelu_backward(const tsr_tensor *g, const tsr_tensor *x, const tsr_tensor *noise, double lower,
                                  double upper, bool training)
{
    if (training && upper - lower > 1e-6) return bin(TSR_BINOP_MUL, g, noise);
    if (tsr__nn_on_device(x)) return tsr__act_backward_dev(TSR_DACT_LEAKY, g, x, (lower + upper) / 2, 0, 0, false);
    if (g->dtype == TSR_BFLOAT16) {   /* leaky_relu_backward's BFloat16 path: in float, rounded once */
        tsr_tensor *gf = tsr_to_dtype(g, TSR_FLOAT32, false), *xf = gf ? tsr_to_dtype(x, TSR_FLOAT32, false) : NULL;
        tsr_tensor *rf = xf ? tsr_nn_rrelu_backward(gf, xf, noise, lower, upper, training) : NULL;
        tsr_tensor *r = rf ? tsr_to_dtype(rf, TSR_BFLOAT16, false) : NULL;
        tsr_tensor_release(gf);
        tsr_tensor_release(xf);
        tsr_tensor_release(rf);
        return r;
    }
    /* leaky_relu_backward: self > 0 ? grad : grad * negval */
    tsr_operand z = tsr_operand_scalar(tsr_scalar_int(0)), ox = tsr_operand_tensor(x);
    tsr_operand s = tsr_operand_scalar(tsr_scalar_float((lower + upper) / 2)), og = tsr_operand_tensor(g);
    tsr_tensor *pos = tsr_compare(TSR_CMP_GT, &ox, &z, NULL), *m = tsr_binary(TSR_BINOP_MUL, &og, &s, NULL, NULL);
    tsr_tensor *r = pos && m ? sel(pos, g, m) : NULL;
    tsr_tensor_release(pos);
    tsr_tensor_release(m);
    return r;
}

/* ------------------------------------------------------------ im2col / col2im */

static int64_t div_rtn(int64_t a, int64_t b)
{
    int64_t q = a / b, r = a % b;
    return r != 0 && ((r < 0) != (b < 0)) ? q - 1 : q;
}

/* The checks shared by im2col_shape_check and col2im_shape_check, in the
 * order each makes them (col2im tests stride before dilation). */
static bool window_checks(const int64_t *k, const int64_t *dl, const int64_t *pd, const int64_t *st, bool col2im)
{
    if (!(k[1] > 0 && k[0] > 0)) {
        tsr_error_set(TSR_ERR_RUNTIME, "kernel size should be greater than zero, but got kernel_height: %lld "
                      "kernel_width: %lld", (long long)k[0], (long long)k[1]);
        return false;
    }
    for (int pass = 0; pass < 2; pass++) {
        bool stride = (pass == 0) == col2im;
        if (stride && !(st[1] > 0 && st[0] > 0)) {
            tsr_error_set(TSR_ERR_RUNTIME, "stride should be greater than zero, but got stride_height: %lld "
                          "stride_width: %lld", (long long)st[0], (long long)st[1]);
            return false;
        }
        if (!stride && !(dl[1] > 0 && dl[0] > 0)) {
            tsr_error_set(TSR_ERR_RUNTIME, "dilation should be greater than zero, but got dilation_height: %lld "
                          "dilation_width: %lld", (long long)dl[0], (long long)dl[1]);
            return false;
        }
        if (pass == 0 && !col2im && !(pd[1] >= 0 && pd[0] >= 0)) {
            tsr_error_set(TSR_ERR_RUNTIME, "padding should be non-negative, but got pad_height: %lld pad_width: %lld",
                          (long long)pd[0], (long long)pd[1]);
            return false;
        }
    }
    if (col2im && !(pd[1] >= 0 && pd[0] >= 0)) {
        tsr_error_set(TSR_ERR_RUNTIME, "padding should be non-negative, but got pad_height: %lld pad_width: %lld",
                      (long long)pd[0], (long long)pd[1]);
        return false;
    }
    return true;
}

/* x.size(d) as ATen reads it: IndexError past the dims. */
static bool size_at(const tsr_tensor *x, int d, int64_t *out)
{
    if (x->ndim == 0) {
        tsr_error_set(TSR_ERR_INDEX, "Dimension specified as %d but tensor has no dimensions", d);
        return false;
    }
    if (d >= x->ndim) {
        tsr_error_set(TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %d)",
                      -x->ndim, x->ndim - 1, d);
        return false;
    }
    *out = x->sizes[d];
    return true;
}

static bool window_dtype(const tsr_tensor *x, const char *kname)
{
    switch (x->dtype) {
    case TSR_FLOAT32: case TSR_FLOAT64: case TSR_FLOAT16: case TSR_BFLOAT16: case TSR_COMPLEX64: case TSR_COMPLEX128:
        return true;
    default:
        tsr__not_implemented(kname, x->dtype);
        return false;
    }
}

/* One element of isz bytes: constant-size copies the compiler inlines. */
static inline void put(char *o, const char *in, size_t isz)
{
    switch (isz) {
    case 2: if (in) memcpy(o, in, 2); else memset(o, 0, 2); break;
    case 4: if (in) memcpy(o, in, 4); else memset(o, 0, 4); break;
    case 8: if (in) memcpy(o, in, 8); else memset(o, 0, 8); break;
    default: if (in) memcpy(o, in, 16); else memset(o, 0, 16);
    }
}

static bool tsr__window_external(const tsr_tensor *t)
{
    return t->device.type != TSR_DEV_CPU && t->device.type != TSR_DEV_META;
}

/* im2col on a device: the zero-padded input's (C, kh, kw, oh, ow) windows,
 * an as_strided view, copied contiguous by the device copy kernel */
static tsr_tensor *im2col_dev(const tsr_tensor *x, const int64_t *k, const int64_t *dl, const int64_t *pd,
                              const int64_t *st, int64_t oh, int64_t ow)
{
    bool batched = x->ndim == 4;
    int64_t padnd[4] = {pd[1], pd[1], pd[0], pd[0]};
    tsr_tensor *x4 = batched ? tsr_tensor_retain((tsr_tensor *)x) : tsr_view_unsqueeze(x, 0);
    tsr_tensor *xp = x4 ? tsr_constant_pad_nd(x4, 4, padnd, tsr_scalar_int(0)) : NULL, *w = NULL, *c = NULL, *r = NULL;
    if (xp) {
        int64_t n = xp->sizes[0], ch = xp->sizes[1];
        int64_t sz[6] = {n, ch, k[0], k[1], oh, ow};
        int64_t sd[6] = {xp->strides[0], xp->strides[1], dl[0] * xp->strides[2], dl[1] * xp->strides[3],
                         st[0] * xp->strides[2], st[1] * xp->strides[3]};
        int64_t os[3] = {n, ch * k[0] * k[1], oh * ow};
        if ((w = tsr_view_as_strided(xp, 6, sz, sd, TSR_VIEW_KEEP_OFFSET)) && (c = tsr_contiguous(w, TSR_MF_CONTIGUOUS)))
            r = tsr_view_view(c, batched ? 3 : 2, batched ? os : os + 1);
    }
    tsr_tensor_release(x4);
    tsr_tensor_release(xp);
    tsr_tensor_release(w);
    tsr_tensor_release(c);
    return r;
}

/* col2im on a device: each kernel offset's (bh, bw) block added into its
 * strided view of the zero-padded output (in float for the halves, as the
 * CUDA kernel accumulates), then the padding cropped */
static tsr_tensor *col2im_dev(const tsr_tensor *x, const int64_t *os, const int64_t *k, const int64_t *dl,
                              const int64_t *pd, const int64_t *st, int64_t bh, int64_t bw)
{
    bool batched = x->ndim == 3, half = x->dtype == TSR_FLOAT16 || x->dtype == TSR_BFLOAT16;
    tsr_tensor *x3 = batched ? tsr_tensor_retain((tsr_tensor *)x) : tsr_view_unsqueeze(x, 0);
    tsr_tensor *xf = x3 ? tsr_to_dtype(x3, half ? TSR_FLOAT32 : x->dtype, false) : NULL, *xv = NULL, *o = NULL;
    tsr_tensor *r = NULL;
    if (!xf) goto done;
    int64_t n = xf->sizes[0], c = xf->sizes[1] / (k[0] * k[1]);
    int64_t vs[6] = {n, c, k[0], k[1], bh, bw}, ps[4] = {n, c, os[0] + 2 * pd[0], os[1] + 2 * pd[1]};
    tsr_tensor *xc = tsr_contiguous(xf, TSR_MF_CONTIGUOUS);
    xv = xc ? tsr_view_view(xc, 6, vs) : NULL;
    tsr_tensor_release(xc);
    if (!xv || !(o = tsr_zeros(4, ps, xf->dtype, xf->device))) goto done;
    int64_t bsz[4] = {n, c, bh, bw}, bst[4] = {o->strides[0], o->strides[1], st[0] * o->strides[2], st[1] * o->strides[3]};
    for (int64_t i = 0; i < k[0]; i++)
        for (int64_t j = 0; j < k[1]; j++) {
            int64_t off = o->storage_offset + i * dl[0] * o->strides[2] + j * dl[1] * o->strides[3];
            tsr_tensor *dst = tsr_view_as_strided(o, 4, bsz, bst, off), *s1 = dst ? tsr_view_select(xv, 2, i) : NULL;
            tsr_tensor *s2 = s1 ? tsr_view_select(s1, 2, j) : NULL, *a = NULL;
            if (s2) {
                tsr_operand os2 = tsr_operand_tensor(s2);
                a = tsr_binary_(TSR_BINOP_ADD, dst, &os2, NULL);
            }
            tsr_tensor_release(dst);
            tsr_tensor_release(s1);
            tsr_tensor_release(s2);
            if (!a) goto done;
            tsr_tensor_release(a);
        }
    r = tsr_view_narrow(o, 2, pd[0], os[0]);
    if (r) tsr__take(&r, tsr_view_narrow(r, 3, pd[1], os[1]));
    if (r) tsr__take(&r, tsr_to_dtype_format(r, x->dtype, TSR_MF_CONTIGUOUS));
    if (r && !batched) tsr__take(&r, tsr_view_squeeze_dim(r, 0));
done:
    tsr_tensor_release(x3);
    tsr_tensor_release(xf);
    tsr_tensor_release(xv);
    tsr_tensor_release(o);
    return r;
}

tsr_tensor *tsr_nn_im2col(const tsr_tensor *x, const int64_t *k, const int64_t *dl, const int64_t *pd,
                          const int64_t *st)
{
    if (!window_checks(k, dl, pd, st, false)) return NULL;
    int64_t s1, s2;
    if (!size_at(x, 1, &s1) || !size_at(x, 2, &s2)) return NULL;
    bool ok = s1 != 0 && s2 != 0;
    if (x->ndim == 3) ok = ok && x->sizes[0] != 0;
    else if (x->ndim == 4) ok = ok && x->sizes[3] != 0;
    else ok = false;
    if (!ok) {
        char buf[256];
        tsr_error_set(TSR_ERR_RUNTIME, "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other "
                      "non-zero dimensions for input, but got: %s", fmt_sizes(buf, sizeof buf, x));
        return NULL;
    }
    bool batched = x->ndim == 4;
    int64_t n = batched ? x->sizes[0] : 1, c = x->sizes[batched], h = x->sizes[batched + 1], w = x->sizes[batched + 2];
    int64_t oh = div_rtn(h + 2 * pd[0] - (dl[0] * (k[0] - 1) + 1), st[0]) + 1;
    int64_t ow = div_rtn(w + 2 * pd[1] - (dl[1] * (k[1] - 1) + 1), st[1]) + 1;
    if (oh < 1 || ow < 1) {
        /* 1.13 prints the input height twice */
        tsr_error_set(TSR_ERR_RUNTIME, "Given input with spatial size (%lld, %lld), kernel_size=(%lld, %lld), "
                      "dilation=(%lld, %lld), padding=(%lld, %lld), calculated shape of the array of sliding blocks as "
                      "(%lld, %lld), but its components must be at least one.", (long long)h, (long long)h,
                      (long long)k[0], (long long)k[1], (long long)dl[0], (long long)dl[1], (long long)pd[0],
                      (long long)pd[1], (long long)oh, (long long)ow);
        return NULL;
    }
    if (!window_dtype(x, tsr__window_external(x) ? "im2col_out_cuda" : "im2col_out_cpu")) return NULL;
    if (tsr__window_external(x)) return im2col_dev(x, k, dl, pd, st, oh, ow);
    int64_t cc = c * k[0] * k[1], len = oh * ow;
    int64_t osz[3] = {n, cc, len};
    tsr_tensor *out = tsr_empty(batched ? 3 : 2, batched ? osz : osz + 1, x->dtype, x->device, TSR_MF_CONTIGUOUS);
    if (!out || tsr_tensor_numel(out) == 0 || tsr_tensor_is_meta(out)) return out;
    tsr_tensor *xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS);
    if (!xc) return tsr__take(&out, NULL);
    size_t isz = (size_t)tsr_dtype_itemsize(x->dtype);
    const char *src = tsr_tensor_ptr(xc, NULL);
    char *dst = tsr_tensor_ptr(out, NULL);
    for (int64_t b = 0; b < n; b++) {
        if (tsr_check_interrupt() < 0) {
            tsr_tensor_release(xc);
            return tsr__take(&out, NULL);
        }
        const char *im = src + (size_t)(b * c * h * w) * isz;
        char *col = dst + (size_t)(b * cc * len) * isz;
        for (int64_t cl = 0; cl < cc; cl++) {
            int64_t wo = cl % k[1], ho = (cl / k[1]) % k[0], ci = cl / k[0] / k[1];
            for (int64_t hc = 0; hc < oh; hc++) {
                int64_t hi = hc * st[0] - pd[0] + ho * dl[0];
                for (int64_t wc = 0; wc < ow; wc++) {
                    int64_t wi = wc * st[1] - pd[1] + wo * dl[1];
                    char *o = col + (size_t)((cl * oh + hc) * ow + wc) * isz;
                    put(o, hi >= 0 && wi >= 0 && hi < h && wi < w ? im + (size_t)((ci * h + hi) * w + wi) * isz : NULL, isz);
                }
            }
        }
    }
    tsr_tensor_release(xc);
    return out;
}

/* col2im's loop over one batch element: im[...] += col[...] in the dtype
 * (the halves and bfloat16 round after each sum), ORDER of 1.13's loop */
#define COL2IM_LOOP(NAME, T, ADD)                                                                               \
    static void NAME(const T *col, T *im, int64_t planes, int64_t bh, int64_t bw, int64_t h, int64_t w,         \
                     const int64_t *k, const int64_t *dl, const int64_t *pd, const int64_t *st)                 \
    {                                                                                                           \
        for (int64_t cl = 0; cl < planes; cl++) {                                                               \
            int64_t wo = cl % k[1], ho = (cl / k[1]) % k[0], ci = cl / k[0] / k[1];                             \
            for (int64_t hc = 0; hc < bh; hc++) {                                                               \
                int64_t hi = hc * st[0] - pd[0] + ho * dl[0];                                                   \
                for (int64_t wc = 0; wc < bw; wc++) {                                                           \
                    int64_t wi = wc * st[1] - pd[1] + wo * dl[1];                                               \
                    if (hi >= 0 && hi < h && wi >= 0 && wi < w) {                                               \
                        T *o = im + (ci * h + hi) * w + wi;                                                     \
                        const T *c = col + (cl * bh + hc) * bw + wc;                                            \
                        ADD;                                                                                    \
                    }                                                                                           \
                }                                                                                               \
            }                                                                                                   \
        }                                                                                                       \
    }
typedef struct { float re, im; } cf32;
typedef struct { double re, im; } cf64;
COL2IM_LOOP(col2im_f32, float, *o += *c)
COL2IM_LOOP(col2im_f64, double, *o += *c)
COL2IM_LOOP(col2im_f16, tsr_half, *o = tsr_float_to_half(tsr_half_to_float(*o) + tsr_half_to_float(*c)))
COL2IM_LOOP(col2im_bf16, tsr_bfloat16, *o = tsr_float_to_bfloat16(tsr_bfloat16_to_float(*o) + tsr_bfloat16_to_float(*c)))
COL2IM_LOOP(col2im_c64, cf32, (o->re += c->re, o->im += c->im))
COL2IM_LOOP(col2im_c128, cf64, (o->re += c->re, o->im += c->im))

tsr_tensor *tsr_nn_col2im(const tsr_tensor *x, const int64_t *os, const int64_t *k, const int64_t *dl,
                          const int64_t *pd, const int64_t *st)
{
    if (!window_checks(k, dl, pd, st, true)) return NULL;
    int nd = x->ndim;
    if (!((nd == 2 && x->sizes[0] != 0 && x->sizes[1] != 0) || (nd == 3 && x->sizes[1] != 0 && x->sizes[2] != 0))) {
        char buf[256];
        tsr_error_set(TSR_ERR_RUNTIME, "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and "
                      "non-zero dimensions for input, but got: %s", fmt_sizes(buf, sizeof buf, x));
        return NULL;
    }
    bool batched = nd == 3;
    int64_t planes = x->sizes[batched], len = x->sizes[batched + 1];
    if (planes % (k[0] * k[1])) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected size of input's dimension 1 to be divisible by the product of "
                      "kernel_size, but got input.size(1)=%lld and kernel_size=(%lld, %lld).", (long long)planes,
                      (long long)k[0], (long long)k[1]);
        return NULL;
    }
    int64_t bh = div_rtn(os[0] + 2 * pd[0] - dl[0] * (k[0] - 1) - 1, st[0]) + 1;
    int64_t bw = div_rtn(os[1] + 2 * pd[1] - dl[1] * (k[1] - 1) - 1, st[1]) + 1;
    char geom[256];
    snprintf(geom, sizeof geom, "Given output_size=(%lld, %lld), kernel_size=(%lld, %lld), dilation=(%lld, %lld), "
             "padding=(%lld, %lld), stride=(%lld, %lld), ", (long long)os[0], (long long)os[1], (long long)k[0],
             (long long)k[1], (long long)dl[0], (long long)dl[1], (long long)pd[0], (long long)pd[1], (long long)st[0],
             (long long)st[1]);
    if (len != bh * bw) {
        tsr_error_set(TSR_ERR_RUNTIME, "%sexpected size of input's dimension 2 to match the calculated number of "
                      "sliding blocks %lld * %lld = %lld, but got input.size(2)=%lld.", geom, (long long)bh,
                      (long long)bw, (long long)(bh * bw), (long long)len);
        return NULL;
    }
    if (!(bh >= 1 && bw >= 1)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%scalculated shape of the array of sliding blocks as (%lld, %lld), which is too "
                      "small (non-positive)", geom, (long long)bh, (long long)bw);
        return NULL;
    }
    if (os[1] < 1 || os[0] < 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected output spatial size to be positive, but got: output_size=(%lld, %lld).",
                      (long long)os[0], (long long)os[1]);
        return NULL;
    }
    if (!window_dtype(x, tsr__window_external(x) ? "col2im_out_cuda" : "col2im_out_cpu")) return NULL;
    if (tsr__window_external(x)) return col2im_dev(x, os, k, dl, pd, st, bh, bw);
    int64_t n = batched ? x->sizes[0] : 1, c = planes / (k[0] * k[1]), h = os[0], w = os[1];
    int64_t osz[4] = {n, c, h, w};
    tsr_tensor *out = tsr_zeros(batched ? 4 : 3, batched ? osz : osz + 1, x->dtype, x->device);
    if (!out || tsr_tensor_numel(out) == 0 || tsr_tensor_is_meta(out)) return out;
    tsr_tensor *xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS);
    if (!xc) return tsr__take(&out, NULL);
    size_t isz = (size_t)tsr_dtype_itemsize(x->dtype);
    const char *src = tsr_tensor_ptr(xc, NULL);
    char *dst = tsr_tensor_ptr(out, NULL);
    for (int64_t b = 0; b < n; b++) {
        if (tsr_check_interrupt() < 0) {
            tsr_tensor_release(xc);
            return tsr__take(&out, NULL);
        }
        const void *col = src + (size_t)(b * planes * len) * isz;
        void *im = dst + (size_t)(b * c * h * w) * isz;
        switch (x->dtype) {
        case TSR_FLOAT32: col2im_f32(col, im, planes, bh, bw, h, w, k, dl, pd, st); break;
        case TSR_FLOAT64: col2im_f64(col, im, planes, bh, bw, h, w, k, dl, pd, st); break;
        case TSR_FLOAT16: col2im_f16(col, im, planes, bh, bw, h, w, k, dl, pd, st); break;
        case TSR_BFLOAT16: col2im_bf16(col, im, planes, bh, bw, h, w, k, dl, pd, st); break;
        case TSR_COMPLEX64: col2im_c64(col, im, planes, bh, bw, h, w, k, dl, pd, st); break;
        default: col2im_c128(col, im, planes, bh, bw, h, w, k, dl, pd, st);
        }
    }
    tsr_tensor_release(xc);
    return out;
}
