/* runtime/ops/nn_dev.c — torch.nn.functional on cuda, composed of the
 * runtime's device-aware ops (nn_dev.h). Every step is a launch on the
 * device; the host never reads the tensors' memory. The CPU's checks stay
 * with the callers, before their device branch. */
#include "../device.h"
#include "../error.h"
#include "../internal.h"
#include "binary.h"
#include "copy.h"
#include "nn_dev.h"
#include "reduce.h"
#include "unary.h"

bool tsr__nn_on_device(const tsr_tensor *x)
{
    return x && x->device.type != TSR_DEV_CPU && x->device.type != TSR_DEV_META;
}

static bool half_like(tsr_dtype d) { return d == TSR_FLOAT16 || d == TSR_BFLOAT16; }

/* x in the kernels' compute type: float for the halves, else x itself */
static tsr_tensor *acc(const tsr_tensor *x)
{
    return half_like(x->dtype) ? tsr_to_dtype(x, TSR_FLOAT32, false) : tsr_tensor_retain((tsr_tensor *)x);
}

/* the *_own forms consume their tensor arguments; NULL passes through */
static tsr_tensor *bin_own(tsr_binop op, tsr_tensor *a, tsr_tensor *b)
{
    tsr_tensor *r = NULL;
    if (a && b) {
        tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
        r = tsr_binary(op, &x, &y, NULL, NULL);
    }
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    return r;
}

static tsr_tensor *un_own(tsr_unop op, tsr_tensor *a)
{
    tsr_tensor *r = a ? tsr_unary(op, a, NULL, NULL) : NULL;
    tsr_tensor_release(a);
    return r;
}

static tsr_tensor *ret(tsr_tensor *t) { return t ? tsr_tensor_retain(t) : NULL; }

/* sum (is_max false) or amax of a over dim, kept */
static tsr_tensor *red_own(tsr_tensor *a, int64_t dim, bool is_max)
{
    if (!a) return NULL;
    tsr_dims d = {1, {dim}};
    tsr_tensor *r = is_max ? tsr_amax(a, &d, true, true, NULL) : tsr_sum(a, &d, true, TSR_DTYPE_UNDEFINED, NULL);
    tsr_tensor_release(a);
    return r;
}

/* a new contiguous tensor of dtype dt holding a's values; consumes a */
static tsr_tensor *settle(tsr_tensor *a, tsr_dtype dt)
{
    if (!a) return NULL;
    tsr_tensor *r = tsr_tensor_empty(a->ndim, a->sizes, dt, a->device);
    if (r && tsr_copy_(r, a) < 0) {
        tsr_tensor_release(r);
        r = NULL;
    }
    tsr_tensor_release(a);
    return r;
}

/* a 0-dim tensor as a 1-element vector (a view), so that dim 0 exists */
static tsr_tensor *as_1d(const tsr_tensor *x)
{
    if (x->ndim) return tsr_tensor_retain((tsr_tensor *)x);
    int64_t one = 1, st = 1;
    return tsr_tensor_alias(x, 1, &one, &st, x->storage_offset);
}

static tsr_tensor *back_0d(tsr_tensor *r, const tsr_tensor *like)
{
    if (!r || like->ndim) return r;
    tsr_tensor *v = tsr_tensor_alias(r, 0, NULL, NULL, r->storage_offset);
    tsr_tensor_release(r);
    return v;
}

tsr_tensor *tsr__softmax_dev(const tsr_tensor *in, int64_t dim, bool lg)
{
    tsr_dtype dt = in->dtype;
    if (dt != TSR_FLOAT32 && dt != TSR_FLOAT64 && !half_like(dt)) {
        tsr__not_implemented("host_softmax", dt);
        return NULL;
    }
    tsr_tensor *v = as_1d(in), *x = v ? acc(v) : NULL, *r = NULL;
    tsr_tensor_release(v);
    if (!x) return NULL;
    tsr_tensor *s = bin_own(TSR_BINOP_SUB, ret(x), red_own(ret(x), dim, true));
    if (lg) r = bin_own(TSR_BINOP_SUB, ret(s), un_own(TSR_UNOP_LOG, red_own(un_own(TSR_UNOP_EXP, ret(s)), dim, false)));
    else {
        tsr_tensor *e = un_own(TSR_UNOP_EXP, ret(s));
        r = bin_own(TSR_BINOP_DIV, ret(e), red_own(ret(e), dim, false));
        tsr_tensor_release(e);
    }
    tsr_tensor_release(s);
    tsr_tensor_release(x);
    return back_0d(settle(r, dt), in);
}

tsr_tensor *tsr__softmax_backward_dev(const tsr_tensor *g, const tsr_tensor *y, int64_t dim, bool lg)
{
    tsr_dtype dt = y->dtype;
    if (dt != TSR_FLOAT32 && dt != TSR_FLOAT64 && !half_like(dt)) {
        tsr__not_implemented("host_softmax_backward", dt);
        return NULL;
    }
    tsr_tensor *g1 = as_1d(g), *y1 = g1 ? as_1d(y) : NULL;
    tsr_tensor *gf = y1 ? acc(g1) : NULL, *yf = gf ? acc(y1) : NULL, *r = NULL;
    tsr_tensor_release(g1);
    tsr_tensor_release(y1);
    if (yf) {
        if (lg)
            r = bin_own(TSR_BINOP_SUB, ret(gf),
                        bin_own(TSR_BINOP_MUL, un_own(TSR_UNOP_EXP, ret(yf)), red_own(ret(gf), dim, false)));
        else
            r = bin_own(TSR_BINOP_MUL, ret(yf),
                        bin_own(TSR_BINOP_SUB, ret(gf), red_own(bin_own(TSR_BINOP_MUL, ret(gf), ret(yf)), dim, false)));
    }
    tsr_tensor_release(gf);
    tsr_tensor_release(yf);
    return back_0d(settle(r, dt), y);
}
