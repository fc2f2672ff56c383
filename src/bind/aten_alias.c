/* src/bind/aten_alias.c — torch.* functions of 1.13 that are ATen's own
 * entry points to what torch.nn.functional (or a Tensor method) already
 * computes here: torch.batch_norm / layer_norm / group_norm / instance_norm /
 * embedding / celu / selu / kl_div / binary_cross_entropy_with_logits /
 * convolution / max_pool3d / adaptive_max_pool1d / max_pool1d_with_indices /
 * grid_sampler / affine_grid_generator, torch.detach / detach_, and
 * torch.is_inference / isreal with their Tensor methods; torch.vander, 1.13's
 * composite, through the same calls; torch.frobenius_norm / nuclear_norm
 * over torch.norm. Each row carries ATen's
 * signature (its positional order differs from F's: batch_norm(input, weight,
 * bias, running_mean, running_var, training, momentum, eps, cudnn_enabled);
 * reductions are ints; grid_sampler's modes are ints) and the handler calls
 * the F function (or method) with the arguments in F's terms, which computes
 * and records the same graph as 1.13's ATen op (F calls that op). */
#include <string.h>

#include "autograd.h"
#include "bind/areas.h"
#include "bind/bind.h"
#include "bind/table.h"
#include "bind/tensor.h"
#include "dtype.h"

typedef enum {
    A_BATCH_NORM, A_LAYER_NORM, A_GROUP_NORM, A_INSTANCE_NORM, A_EMBEDDING, A_CELU, A_SELU, A_KL_DIV, A_BCE_LOGITS,
    A_CONVOLUTION, A_MAX_POOL3D, A_ADAPTIVE_MAX_POOL1D, A_MAX_POOL1D_WI, A_GRID_SAMPLER, A_AFFINE_GRID, A_DETACH,
    A_DETACH_, A_IS_INFERENCE, A_ISREAL, A_VANDER, A_FROBENIUS_NORM, A_NUCLEAR_NORM
} Alias;

#define F_MOD "torch.nn.functional"
#define NKW 8

/* A call being built: positional values (a NULL slot is None) and keywords
 * (a NULL value is left out, F's default then applies). Values made here are
 * kept in own[] and released after the call. */
typedef struct {
    Value *pos[NKW], *kv[NKW], *own[2 * NKW];
    const char *kn[NKW];
    int np, nk, nown;
} Fwd;

static Value *mine(Fwd *f, Value *v)
{
    if (v) f->own[f->nown++] = v;
    return v;
}

static void pos(Fwd *f, Value *v) { f->pos[f->np++] = v ? v : mine(f, v_none()); }

static void kw(Fwd *f, const char *name, Value *v)
{
    if (!v) return;
    f->kn[f->nk] = name;
    f->kv[f->nk++] = v;
}

/* Calls attr of obj (a module or a tensor) with f's arguments; releases
 * what f made. NEW reference or NULL. */
static Value *fwd_call(Value *obj, const char *attr, Fwd *f)
{
    Value *fn = value_getattr(obj, attr), *r = NULL;
    if (fn) {
        CallArgs a = {.pos = f->pos, .npos = f->np, .kwnames = f->kn, .kw = f->kv, .nkw = f->nk};
        r = value_call(fn, &a);
        decref(fn);
    }
    for (int i = 0; i < f->nown; i++) decref(f->own[i]);
    return r;
}

/* ATen's int reduction as F's string. */
static const char *reduction_name(int64_t r) { return r == 0 ? "none" : r == 1 ? "mean" : "sum"; }

/* An int[] argument that is empty (max_pool3d's stride=[]): F's None. */
static bool empty_list(Value *v)
{
    return !v || ((v->type == &t_tuple || v->type == &t_list) && v->u.seq.n == 0);
}

/* obj.name(args...) with n positional arguments; NEW reference or NULL. */
static Value *meth(Value *obj, const char *name, int n, Value **args)
{
    Fwd f = {0};
    for (int i = 0; i < n; i++) pos(&f, args[i]);
    return fwd_call(obj, name, &f);
}

/* r[:, 1:] (at::slice(r, 1, 1): one SliceBackward0) */
static Value *cols_from_1(Value *r)
{
    Value *one = v_int(1), *key = v_tuple_of(2, v_slice(NULL, NULL, NULL), v_slice(one, NULL, NULL));
    Value *s = value_getitem(r, key);
    decref(key);
    decref(one);
    return s;
}

/* torch.vander(x, N=None, increasing=False), 1.13's composite (LinearAlgebra.cpp) step by step, so that
 * values and graph are its: empty [len(x), N] of promote_types(x.dtype, long), fill_(1), then
 * slice(1, 1).copy_(x.unsqueeze(1)), slice(1, 1).copy_(cumprod(slice(1, 1), 1)), flipped along 1
 * unless increasing. */
static Value *vander(BindArgs *b)
{
    Value *x = b->v[0], *torch = bind_module("torch");
    tsr_tensor *t = tensor_of(x);
    int64_t n = t->ndim == 1 ? t->sizes[0] : 0;
    int inc = b->v[2] ? value_truth(b->v[2]) : 0;
    if (inc < 0) return NULL;
    if (t->ndim != 1) return exc_set("RuntimeError", "x must be a one-dimensional tensor.");
    if (b->v[1] && bind_table_int(b, 1, 0, &n) < 0) return NULL;
    if (n < 0) return exc_set("RuntimeError", "N must be non-negative.");
    Value *dt = v_dtype(tsr_promote_types(t->dtype, TSR_INT64)), *dev = value_getattr(x, "device"), *r = NULL;
    if (!dt || !dev) goto out;
    {
        Fwd f = {0};
        pos(&f, mine(&f, v_tuple_of(2, v_int(t->sizes[0]), v_int(n))));
        kw(&f, "dtype", dt);
        kw(&f, "device", dev);
        r = fwd_call(torch, "empty", &f);
    }
    if (r && n > 0) {
        Value *one = v_int(1), *ok = meth(r, "fill_", 1, &one);
        decref(one);
        if (!ok) goto fail;
        decref(ok);
    }
    if (r && n > 1) {
        Value *one = v_int(1), *u = meth(x, "unsqueeze", 1, &one), *s = u ? cols_from_1(r) : NULL;
        Value *ok = s ? meth(s, "copy_", 1, &u) : NULL;
        decref(one);
        decref(u);
        decref(s);
        if (!ok) goto fail;
        decref(ok);
        Value *s1 = cols_from_1(r), *s2 = s1 ? cols_from_1(r) : NULL, *c = NULL;
        if (s2) {
            Value *args[2] = {s2, v_int(1)};
            c = meth(torch, "cumprod", 2, args);
            decref(args[1]);
        }
        ok = c ? meth(s1, "copy_", 1, &c) : NULL;
        decref(s1);
        decref(s2);
        decref(c);
        if (!ok) goto fail;
        decref(ok);
    }
    if (r && !inc) {
        Value *args[2] = {r, v_tuple_of(1, v_int(1))}, *fl = meth(torch, "flip", 2, args);
        decref(args[1]);
        decref(r);
        r = fl;
    }
    goto out;
fail:
    decref(r);
    r = NULL;
out:
    decref(dt);
    decref(dev);
    return r;
}

/* torch.frobenius_norm(input) / (input, dim, keepdim=False) and
 * torch.nuclear_norm(input, keepdim=False) / (input, dim, keepdim=False):
 * 1.13's at::frobenius_norm and at::nuclear_norm are what torch.norm(x,
 * 'fro' / 'nuc', dim, keepdim) runs, but for frobenius_norm(input), which is
 * at::norm(input): its node NormBackward0 (the same formula over every dim). */
static Value *matrix_norms(const BindRow *row, BindArgs *b)
{
    bool nuc = row->kind == A_NUCLEAR_NORM, has_dim = nuc ? b->sig == 0 : b->sig == 1;
    Value *x = b->v[0];
    Fwd f = {0};
    if (!nuc && has_dim) {
        Value *dv = b->v[1];
        size_t n = dv && (dv->type == &t_tuple || dv->type == &t_list) ? dv->u.seq.n : 1;
        if (n > 2) return exc_set("RuntimeError", "Expected at most 2 dimensions, but got %zu dimensions instead.", n);
        if (n == 2) {
            int64_t d[2];
            int nd = tensor_of(x)->ndim;
            for (int i = 0; i < 2; i++) {
                Value *it = dv->u.seq.items[i];
                if (it->type != &t_int) break;
                d[i] = it->u.i < 0 ? it->u.i + nd : it->u.i;
                if (i == 1 && d[0] == d[1])
                    return exc_set("RuntimeError", "Expected dims to be different, got [%lld, %lld] instead",
                                   (long long)dv->u.seq.items[0]->u.i, (long long)dv->u.seq.items[1]->u.i);
            }
        }
    }
    tsr_tensor *in = tensor_of(x);
    bool norm0 = !nuc && !has_dim && tsr_ag_needed(1, &in);
    Value *xd = norm0 ? meth(x, "detach", 0, NULL) : NULL;   /* the value without a graph; NormBackward0 below */
    if (norm0 && !xd) return NULL;
    pos(&f, xd ? xd : x);
    pos(&f, mine(&f, v_str(nuc ? "nuc" : "fro")));
    if (has_dim) pos(&f, b->v[1]);
    kw(&f, "keepdim", has_dim ? b->v[2] : nuc ? b->v[1] : NULL);
    Value *r = fwd_call(bind_module("torch"), "norm", &f);
    decref(xd);
    if (r && norm0 && tsr_ag_record("norm0", 1, &in, &(tsr_ag_args){.d0 = 2.0, .ndims = -1}, tensor_of(r), false) < 0) {
        decref(r);
        return bind_runtime_error();
    }
    return r;
}

static Value *alias_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)self; (void)inplace;
    Value **v = b->v, *F = bind_module(F_MOD);
    Fwd f = {0};
    int64_t n = 0;
    switch ((Alias)row->kind) {
    case A_BATCH_NORM: case A_INSTANCE_NORM:   /* (input, weight, bias, rm, rv, training, momentum, eps, cudnn) */
        pos(&f, v[0]);
        kw(&f, "running_mean", v[3]);
        kw(&f, "running_var", v[4]);
        kw(&f, "weight", v[1]);
        kw(&f, "bias", v[2]);
        kw(&f, row->kind == A_BATCH_NORM ? "training" : "use_input_stats", v[5]);
        kw(&f, "momentum", v[6]);
        kw(&f, "eps", v[7]);
        return fwd_call(F, row->name, &f);
    case A_LAYER_NORM: case A_GROUP_NORM:   /* (input, normalized_shape / num_groups, weight, bias, eps, cudnn) */
        pos(&f, v[0]);
        pos(&f, v[1]);
        kw(&f, "weight", v[2]);
        kw(&f, "bias", v[3]);
        kw(&f, "eps", v[4]);
        return fwd_call(F, row->name, &f);
    case A_EMBEDDING:   /* (weight, indices, padding_idx=-1, scale_grad_by_freq, sparse): -1 is no padding */
        if (bind_table_int(b, 2, -1, &n) < 0) return NULL;
        pos(&f, v[1]);
        pos(&f, v[0]);
        if (n >= 0) kw(&f, "padding_idx", v[2]);
        kw(&f, "scale_grad_by_freq", v[3]);
        kw(&f, "sparse", v[4]);
        return fwd_call(F, "embedding", &f);
    case A_CELU: case A_SELU:
        pos(&f, v[0]);
        if (row->kind == A_CELU) kw(&f, "alpha", v[1]);
        return fwd_call(F, row->name, &f);
    case A_KL_DIV: {   /* 1.13's apply_loss_reduction: the unreduced loss, then mean() / sum() */
        if (bind_table_int(b, 2, 0, &n) < 0) return NULL;
        pos(&f, v[0]);
        pos(&f, v[1]);
        kw(&f, "reduction", mine(&f, v_str("none")));
        kw(&f, "log_target", v[3]);
        Value *r = fwd_call(F, "kl_div", &f);
        if (!r || n == 0) return r;
        Fwd g = {0};
        Value *red = fwd_call(r, n == 1 ? "mean" : "sum", &g);
        decref(r);
        return red;
    }
    case A_BCE_LOGITS:   /* (input, target, weight, pos_weight, reduction) */
        if (bind_table_int(b, 4, 0, &n) < 0) return NULL;
        pos(&f, v[0]);
        pos(&f, v[1]);
        kw(&f, "weight", v[2]);
        kw(&f, "pos_weight", v[3]);
        kw(&f, "reduction", mine(&f, v_str(reduction_name(n))));
        return fwd_call(F, "binary_cross_entropy_with_logits", &f);
    case A_CONVOLUTION: {   /* (input, weight, bias, stride, padding, dilation, transposed, output_padding, groups) */
        int t = value_truth(v[6]), nd = tensor_of(v[1])->ndim - 2;
        char name[32];
        if (t < 0) return NULL;
        if (nd < 1 || nd > 3)
            return exc_set("RuntimeError", "Expected %d-dimensional input for %d-dimensional weight [...], but got "
                           "%d-dimensional input", nd + 2, nd + 2, tensor_of(v[0])->ndim);
        snprintf(name, sizeof name, t ? "conv_transpose%dd" : "conv%dd", nd);
        pos(&f, v[0]);
        pos(&f, v[1]);
        pos(&f, v[2]);
        kw(&f, "stride", v[3]);
        kw(&f, "padding", v[4]);
        kw(&f, "dilation", v[5]);
        if (t) kw(&f, "output_padding", v[7]);
        kw(&f, "groups", v[8]);
        return fwd_call(F, name, &f);
    }
    case A_MAX_POOL3D: case A_MAX_POOL1D_WI:   /* (input, kernel_size, stride=[], padding, dilation, ceil_mode) */
        pos(&f, v[0]);
        pos(&f, v[1]);
        if (!empty_list(v[2])) kw(&f, "stride", v[2]);
        kw(&f, "padding", v[3]);
        kw(&f, "dilation", v[4]);
        kw(&f, "ceil_mode", v[5]);
        return fwd_call(F, row->kind == A_MAX_POOL3D ? "max_pool3d" : "max_pool1d_with_indices", &f);
    case A_ADAPTIVE_MAX_POOL1D:   /* the (values, indices) pair */
        pos(&f, v[0]);
        pos(&f, v[1]);
        kw(&f, "return_indices", mine(&f, v_bool(true)));
        return fwd_call(F, "adaptive_max_pool1d", &f);
    case A_GRID_SAMPLER: {   /* (input, grid, interpolation_mode, padding_mode, align_corners): enum ints */
        static const char *const modes[] = {"bilinear", "nearest", "bicubic"}, *const pads[] = {"zeros", "border",
                                                                                               "reflection"};
        int64_t im, pm;
        if (bind_table_int(b, 2, 0, &im) < 0 || bind_table_int(b, 3, 0, &pm) < 0) return NULL;
        if (im < 0 || im > 2) return exc_set("RuntimeError", "interpolation_mode %lld is not supported", (long long)im);
        if (pm < 0 || pm > 2) return exc_set("RuntimeError", "padding_mode %lld is not supported", (long long)pm);
        pos(&f, v[0]);
        pos(&f, v[1]);
        kw(&f, "mode", mine(&f, v_str(modes[im])));
        kw(&f, "padding_mode", mine(&f, v_str(pads[pm])));
        kw(&f, "align_corners", v[4]);
        return fwd_call(F, "grid_sample", &f);
    }
    case A_AFFINE_GRID:   /* (theta, size, align_corners) */
        pos(&f, v[0]);
        pos(&f, v[1]);
        kw(&f, "align_corners", v[2]);
        return fwd_call(F, "affine_grid", &f);
    case A_DETACH: case A_DETACH_:
        return fwd_call(v[0], row->name, &f);
    case A_IS_INFERENCE: return v_bool(tsr_tensor_is_inference(tensor_of(v[0])));
    case A_VANDER: return vander(b);
    case A_FROBENIUS_NORM: case A_NUCLEAR_NORM: return matrix_norms(row, b);
    case A_ISREAL: {   /* 1.13: not complex → ones_like(bool); else imag == 0 */
        tsr_tensor *t = tensor_of(v[0]);
        if (!tsr_dtype_is_complex(t->dtype)) {
            Fwd g = {0};
            pos(&g, v[0]);
            kw(&g, "dtype", mine(&g, v_dtype(TSR_BOOL)));
            return fwd_call(bind_module("torch"), "ones_like", &g);
        }
        Value *im = value_getattr(v[0], "imag");
        if (!im) return NULL;
        Fwd g = {0};
        pos(&g, im);
        pos(&g, mine(&g, v_int(0)));
        Value *r = fwd_call(bind_module("torch"), "eq", &g);
        decref(im);
        return r;
    }
    }
    (void)fname;
    return exc_set("RuntimeError", "internal error: alias kind %d", row->kind);
}

#define ROW(n, k, fl, s) {.name = n, .kind = k, .flags = fl, .sigs = s, .handler = alias_call}
#define NORM_SIG(stats)                                                                                             \
    "Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool " stats ", "     \
    "double momentum, double eps, bool cudnn_enabled"
#define POOL_SIG(N)                                                                                                 \
    "Tensor input, int[" #N "] kernel_size, int[" #N "] stride=[], int[" #N "] padding=0, int[" #N "] dilation=1, " \
    "bool ceil_mode=False"

static BindRow rows[] = {
    ROW("batch_norm", A_BATCH_NORM, BIND_FN, NORM_SIG("training")),
    ROW("instance_norm", A_INSTANCE_NORM, BIND_FN, NORM_SIG("use_input_stats")),
    ROW("layer_norm", A_LAYER_NORM, BIND_FN,
        "Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, double eps=1e-05, "
        "bool cudnn_enable=True"),
    ROW("group_norm", A_GROUP_NORM, BIND_FN,
        "Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, double eps=1e-05, "
        "bool cudnn_enabled=True"),
    ROW("embedding", A_EMBEDDING, BIND_FN,
        "Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False"),
    ROW("celu", A_CELU, BIND_FN, "Tensor input, Scalar alpha=1.0"),
    ROW("selu", A_SELU, BIND_FN, "Tensor input"),
    /* python_arg_parser reads the default "Mean" of these int reductions as 0 (1.13: no reduction) */
    ROW("kl_div", A_KL_DIV, BIND_FN, "Tensor input, Tensor target, int reduction=0, *, bool log_target=False"),
    ROW("binary_cross_entropy_with_logits", A_BCE_LOGITS, BIND_FN,
        "Tensor input, Tensor target, Tensor? weight=None, Tensor? pos_weight=None, int reduction=0"),
    ROW("convolution", A_CONVOLUTION, BIND_FN,
        "Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, SymInt[] dilation, "
        "bool transposed, SymInt[] output_padding, int groups"),
    ROW("max_pool3d", A_MAX_POOL3D, BIND_FN, POOL_SIG(3)),
    ROW("max_pool1d_with_indices", A_MAX_POOL1D_WI, BIND_FN, POOL_SIG(1)),
    ROW("adaptive_max_pool1d", A_ADAPTIVE_MAX_POOL1D, BIND_FN, "Tensor input, int[1] output_size"),
    ROW("grid_sampler", A_GRID_SAMPLER, BIND_FN,
        "Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners"),
    ROW("affine_grid_generator", A_AFFINE_GRID, BIND_FN, "Tensor theta, SymInt[] size, bool align_corners"),
    ROW("detach", A_DETACH, BIND_FN, "Tensor input"),
    ROW("detach_", A_DETACH_, BIND_FN, "Tensor input"),
    ROW("is_inference", A_IS_INFERENCE, BIND_FN | BIND_METHOD, "Tensor input"),
    ROW("isreal", A_ISREAL, BIND_FN | BIND_METHOD, "Tensor input"),
    ROW("vander", A_VANDER, BIND_FN, "Tensor x, int? N=None, bool increasing=False"),
    ROW("frobenius_norm", A_FROBENIUS_NORM, BIND_FN,
        "Tensor input|Tensor input, int[1] dim, bool keepdim=False, *, Tensor? out=None"),
    ROW("nuclear_norm", A_NUCLEAR_NORM, BIND_FN,
        "Tensor input, int[2] dim, bool keepdim=False, *, Tensor? out=None|"
        "Tensor input, bool keepdim=False, *, Tensor? out=None"),
};

void bind_aten_alias_init(void) { bind_table_register(rows, (int)(sizeof rows / sizeof rows[0])); }
