/* src/bind/nnf_misc2.c — more of torch.nn.functional (issue 19): prelu
 * (torch.prelu, Tensor.prelu, F.prelu). The ATen functions are binding
 * rows (python_arg_parser's messages); F's Python defs are builtins with
 * their own argument handling. Also embedding_bag (torch.embedding_bag,
 * F.embedding_bag), ctc_loss (torch.ctc_loss, F.ctc_loss) and
 * F.multi_head_attention_forward (functional.py's composition). Every tensor rule is runtime/ops/nn_misc2.h's;
 * the handlers record 1.13's graph nodes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "bind/areas.h"
#include "bind/bind.h"
#include "bind/ops.h"
#include "bind/table.h"
#include "bind/tensor.h"
#include "autograd.h"
#include "names.h"
#include "ops/compare.h"
#include "ops/copy.h"
#include "ops/factory.h"
#include "ops/nn.h"
#include "ops/nn_misc2.h"
#include "ops/shape.h"
#include "value.h"

#define MOD "torch.nn.functional"

/* r (NULL: the runtime's error) recorded as key over in[0..n) when one
 * needs a graph. NEW value or NULL. */
static Value *graphn(tsr_tensor *r, const char *key, int n, tsr_tensor *const *in, const tsr_ag_args *a)
{
    if (!r) return bind_runtime_error();
    if (tsr_ag_needed(n, in) && tsr_ag_record(key, n, in, a, r, false) < 0) {
        tsr_tensor_release(r);
        return bind_runtime_error();
    }
    return v_tensor(r);
}

/* 1.13's named-tensor refusal of the ATen op (schema) when one of in has
 * names; -1 then. */
static int named_refused(const char *schema, int n, tsr_tensor *const *in)
{
    for (int i = 0; i < n; i++)
        if (in[i] && in[i]->names) {
            tsr_names_refuse(schema);
            bind_runtime_error();
            return -1;
        }
    return 0;
}

/* ------------------------------------------------------------ ATen rows */

/* torch.embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode,
 * sparse, per_sample_weights, include_last_offset[, padding_idx]): the
 * 4-tuple (output, offset2bag, bag_size, max_indices), EmbeddingBagBackward0
 * on the output */
static Value *ebag_call(BindArgs *b)
{
    tsr_tensor *w = tensor_of(b->v[0]), *ix = tensor_of(b->v[1]), *off = tensor_of(b->v[2]);
    tsr_tensor *psw = b->v[6] ? tensor_of(b->v[6]) : NULL;
    int64_t mode = 0, pad = 0;
    bool freq = b->v[3] && value_truth(b->v[3]) > 0, sparse = b->v[5] && value_truth(b->v[5]) > 0;
    bool last = b->v[7] && value_truth(b->v[7]) > 0, has_pad = b->v[8] != NULL;
    if (bind_table_int(b, 4, 0, &mode) < 0 || (has_pad && bind_table_int(b, 8, 0, &pad) < 0)) return NULL;
    tsr_tensor *in[2] = {w, psw};
    if (named_refused("aten::_embedding_bag", 2, in) < 0 || named_refused("aten::_embedding_bag", 1, &ix) < 0 ||
        named_refused("aten::_embedding_bag", 1, &off) < 0)
        return NULL;
    bool g = tsr_ag_needed(2, in);
    tsr_tensor *o2b, *bs, *mi, *r = tsr_nn_embedding_bag(w, ix, off, (int)mode, psw, last, has_pad ? &pad : NULL, &o2b, &bs, &mi);
    if (!r) return bind_runtime_error();
    int rc = 0;
    if (g) {
        int64_t nw = w->ndim ? w->sizes[0] : 1;
        tsr_ag_args ga = {.i0 = mode, .i1 = has_pad ? (pad < 0 ? pad + nw : pad) : -1, .i2 = r->sizes[0], .flag = freq,
                        .keepdim = sparse /* a sparse COO gradient of weight */};
        tsr_tensor *kept[4] = {ix, off, bs, mi};
        rc = tsr_ag_record("embedding_bag", 2, in, &ga, r, false);
        for (int k = 0; k < 4 && rc == 0; k++) rc = tsr_ag_keep(r, kept[k]);
    }
    if (rc < 0) {
        tsr_tensor_release(r);
        tsr_tensor_release(o2b);
        tsr_tensor_release(bs);
        tsr_tensor_release(mi);
        return bind_runtime_error();
    }
    return v_tuple_of(4, v_tensor(r), v_tensor(o2b), v_tensor(bs), v_tensor(mi));
}

enum { K_PRELU, K_EBAG, K_CTC };

static Value *ctc_call(BindArgs *b);

static Value *misc2_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)fname; (void)inplace;
    switch (row->kind) {
    case K_PRELU: {
        tsr_tensor *in[2] = {tensor_of(self ? self : b->v[0]), tensor_of(b->v[1])};
        tsr_ag_args ga = {0};
        if (named_refused("aten::prelu", 2, in) < 0) return NULL;
        return graphn(tsr_nn_prelu(in[0], in[1]), "prelu", 2, in, &ga);
    }
    case K_EBAG:
        return ebag_call(b);
    case K_CTC:
        return ctc_call(b);
    }
    return NULL;
}

/* torch.NAME(args...) at the language level (its graph recorded as the
 * call path records it). NEW value or NULL. */
static Value *torch_call(const char *name, int n, Value **args)
{
    Value *f = value_getattr(bind_module("torch"), name), *r = NULL;
    if (f) r = value_call0(f, n, args);
    if (f) decref(f);
    return r;
}

/* A lengths argument of ctc_loss (slot) as a contiguous int64 tensor: an
 * int list, or an integral tensor ("input_lengths must be integral"). */
static tsr_tensor *ctc_lengths(BindArgs *b, int slot, const char *what)
{
    Value *v = b->v[slot];
    if (is_tensor(v)) {
        tsr_tensor *t = tensor_of(v);
        if (!tsr_dtype_is_integral(t->dtype, false)) return exc_set("RuntimeError", "%s must be integral", what), NULL;
        tsr_tensor *l = tsr_to_dtype(t, TSR_INT64, false), *lc = l ? tsr_contiguous(l, TSR_MF_CONTIGUOUS) : NULL;
        tsr_tensor_release(l);
        if (!lc) bind_runtime_error();
        return lc;
    }
    int n = 0, max = 1 << 16;
    int64_t *buf = malloc((size_t)max * sizeof *buf);
    if (!buf) return exc_set("MemoryError", "out of memory"), NULL;
    tsr_tensor *l = NULL;
    if (bind_table_intlist(b, slot, "ctc_loss", buf, max, &n) == 0) {
        int64_t nn = n;
        l = tsr_empty(1, &nn, TSR_INT64, TSR_CPU, TSR_MF_CONTIGUOUS);
        for (int i = 0; l && i < n; i++) tsr_tensor_set_at(l, i, tsr_scalar_int(buf[i]));
        if (!l) bind_runtime_error();
    }
    free(buf);
    return l;
}

/* torch.ctc_loss(log_probs, targets, input_lengths, target_lengths,
 * blank=0, reduction=Mean, zero_infinity=False) as 1.13's at::ctc_loss:
 * _ctc_loss (CtcLossBackward0) of log_probs (unsqueezed at 1 when 2-D)
 * and targets as int64, then where(res == inf, 0, res) for zero_infinity,
 * (res / target_lengths.clamp_min(1)).mean() or res.sum() */
static Value *ctc_call(BindArgs *b)
{
    int64_t blank = 0, red = 1;
    bool zinf = b->v[6] && value_truth(b->v[6]) > 0;
    if (bind_table_int(b, 4, 0, &blank) < 0 || bind_table_int(b, 5, 0, &red) < 0) return NULL;   /* 1.13 parses the default at::Reduction::Mean as 0 */
    tsr_tensor *ilt = ctc_lengths(b, 2, "input_lengths"), *tlt = ilt ? ctc_lengths(b, 3, "target_lengths") : NULL;
    Value *lpv = NULL, *res = NULL, *r = NULL;
    tsr_tensor *tg = NULL, *la = NULL, *nll = NULL;
    if (!tlt) goto done;
    tsr_tensor *lp0 = tensor_of(b->v[0]);
    bool batched = lp0->ndim == 3;
    if (batched) {
        lpv = incref(b->v[0]);
    } else {
        Value *args[2] = {b->v[0], v_int(1)};
        lpv = torch_call("unsqueeze", 2, args);
        decref(args[1]);
        if (!lpv) goto done;
    }
    tsr_tensor *lp = tensor_of(lpv);
    if (!(tg = tsr_to_dtype(tensor_of(b->v[1]), TSR_INT64, false))) {
        bind_runtime_error();
        goto done;
    }
    nll = tsr_nn_ctc_loss(lp, tg, tsr_tensor_numel(ilt), tsr_tensor_ptr(ilt, NULL), tsr_tensor_numel(tlt),
                          tsr_tensor_ptr(tlt, NULL), blank, &la);
    if (!nll) {
        bind_runtime_error();
        goto done;
    }
    if (tsr_ag_needed(1, &lp)) {
        tsr_ag_args ga = {.i0 = blank, .flag = zinf};
        tsr_tensor *kept[4] = {tg, la, ilt, tlt};
        int rc = tsr_ag_record("ctc_loss", 1, &lp, &ga, nll, false);
        for (int k = 0; k < 4 && rc == 0; k++) rc = tsr_ag_keep(nll, kept[k]);
        if (rc < 0) {
            tsr_tensor_release(nll);
            bind_runtime_error();
            goto done;
        }
    }
    res = v_tensor(nll);
    if (zinf) {
        tsr_operand a = tsr_operand_tensor(nll), inf = tsr_operand_scalar(tsr_scalar_float(INFINITY));
        tsr_tensor *cond = tsr_compare(TSR_CMP_EQ, &a, &inf, NULL), *z = cond ? tsr_zeros(0, NULL, nll->dtype, TSR_CPU) : NULL;
        if (!z) {
            tsr_tensor_release(cond);
            bind_runtime_error();
            goto done;
        }
        Value *args[3] = {v_tensor(cond), res, v_tensor(z)}, *w;
        Value *a2[3] = {args[0], args[2], args[1]};
        w = torch_call("where", 3, a2);
        decref(args[0]);
        decref(args[2]);
        decref(res);
        res = w;
        if (!res) goto done;
    }
    if (red == 1) {   /* (res / tensor(target_lengths).clamp_min(1)).mean() */
        tsr_tensor *rt = tensor_of(res), *d = tsr_empty(tlt->ndim, tlt->sizes, rt->dtype, TSR_CPU, TSR_MF_CONTIGUOUS);
        if (!d) {
            bind_runtime_error();
            goto done;
        }
        for (int64_t i = 0; i < tsr_tensor_numel(tlt); i++) {
            int64_t v = tsr_tensor_get_int64_at(tlt, i);
            tsr_tensor_set_at(d, i, tsr_scalar_int(v > 1 ? v : 1));
        }
        Value *args[2] = {res, v_tensor(d)};
        Value *q = torch_call("div", 2, args);
        decref(args[1]);
        if (q) {
            r = torch_call("mean", 1, &q);
            decref(q);
        }
    } else if (red == 2) {
        r = torch_call("sum", 1, &res);
    } else if (!batched) {
        Value *args[2] = {res, v_int(0)};
        r = torch_call("squeeze", 2, args);
        decref(args[1]);
    } else {
        r = incref(res);
    }
done:
    if (res) decref(res);
    if (lpv) decref(lpv);
    tsr_tensor_release(tg);
    tsr_tensor_release(la);
    tsr_tensor_release(ilt);
    tsr_tensor_release(tlt);
    return r;
}

static BindRow misc2_rows[] = {
    {.name = "prelu", .kind = K_PRELU, .flags = BIND_FN | BIND_METHOD, .handler = misc2_call,
     .sigs = "Tensor input, Tensor weight"},
    {.name = "prelu", .kind = K_PRELU, .flags = BIND_FN, .handler = misc2_call, .module = MOD,
     .sigs = "Tensor input, Tensor weight"},
    {.name = "embedding_bag", .kind = K_EBAG, .flags = BIND_FN, .handler = misc2_call,
     .sigs = "Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int64_t mode=0, "
             "bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False|"
             "Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq, int64_t mode, bool sparse, "
             "Tensor? per_sample_weights, bool include_last_offset, int64_t? padding_idx"},
    {.name = "ctc_loss", .kind = K_CTC, .flags = BIND_FN, .handler = misc2_call,
     .sigs = "Tensor log_probs, Tensor targets, IntArrayRef input_lengths, IntArrayRef target_lengths, int64_t blank=0, "
             "int64_t reduction=at::Reduction::Mean, bool zero_infinity=False|"
             "Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, int64_t blank=0, "
             "int64_t reduction=at::Reduction::Mean, bool zero_infinity=False"},
};

/* ------------------------------------------------------------ F's defs */

static void warn(const char *msg)
{
    if (!bind_warnings_ignored()) fprintf(stderr, "UserWarning: %s\n", msg);
}

/* x.size() as Python prints it: "torch.Size([2, 3])" */
static const char *size_repr(char *buf, size_t n, const tsr_tensor *t)
{
    char s[160];
    snprintf(buf, n, "torch.Size(%s)", bind_sizes_str(s, sizeof s, t));
    return buf;
}

/* F.embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2,
 * scale_grad_by_freq=False, mode='mean', sparse=False,
 * per_sample_weights=None, include_last_offset=False, padding_idx=None):
 * functional.py's checks, then torch.embedding_bag's output */
static Value *f_embedding_bag(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[11];
    const char *fn = "embedding_bag";
    if (args_parse(a, fn, "def input, weight, offsets=, max_norm=, norm_type=, scale_grad_by_freq=, mode=, sparse=, "
                   "per_sample_weights=, include_last_offset=, padding_idx=", v) < 0)
        return NULL;
    Value *inp = v[0], *wv = v[1], *psw = v[8] && !is_none(v[8]) ? v[8] : NULL, *off = v[2] && !is_none(v[2]) ? v[2] : NULL;
    if (!is_tensor(wv)) return exc_set("AttributeError", "'%s' object has no attribute 'dtype'", wv->type->name);
    if (tensor_of(wv)->dtype == TSR_INT64 && is_tensor(inp) && tsr_dtype_is_floating(tensor_of(inp)->dtype)) {
        warn("Argument order of nn.functional.embedding_bag was changed. Usage `embedding_bag(weight, input, ...)` is "
             "deprecated, and should now be `embedding_bag(input, weight, ...)`.");
        Value *t = inp;
        inp = wv;
        wv = t;
    }
    if (!is_tensor(inp)) return exc_set("AttributeError", "'%s' object has no attribute 'size'", inp->type->name);
    tsr_tensor *x = tensor_of(inp);
    if (psw) {
        if (!is_tensor(psw)) return exc_set("AttributeError", "'%s' object has no attribute 'size'", psw->type->name);
        tsr_tensor *p = tensor_of(psw);
        bool same = p->ndim == x->ndim;
        for (int i = 0; same && i < x->ndim; i++) same = p->sizes[i] == x->sizes[i];
        if (!same) {
            char b1[200], b2[200];
            return exc_set("ValueError", "embedding_bag: If per_sample_weights (%s) is not None, then it must have the "
                           "same shape as the input (%s)", size_repr(b1, sizeof b1, p), size_repr(b2, sizeof b2, x));
        }
    }
    Value *in2 = NULL, *off2 = NULL, *psw2 = NULL, *r = NULL;
    if (x->ndim == 2) {
        if (off)
            return exc_set("ValueError", "if input is 2D, then offsets has to be None, as input is treated is a mini-batch "
                           "of fixed length sequences. However, found offsets of type <class '%s'>",
                           is_tensor(off) ? "torch.Tensor" : off->type->name);
        tsr_tensor *o = tsr_arange(tsr_scalar_int(0), tsr_scalar_int(tsr_tensor_numel(x)), tsr_scalar_int(x->sizes[1]),
                                   x->dtype, x->device);
        int64_t m1 = -1;
        tsr_tensor *xf = o ? tsr_reshape(x, 1, &m1) : NULL;
        if (!o || !xf) {
            tsr_tensor_release(o);
            tsr_tensor_release(xf);
            return bind_runtime_error();
        }
        off2 = v_tensor(o);
        in2 = v_tensor(xf);
        if (psw) {   /* per_sample_weights.reshape(-1), recorded (ReshapeAliasBackward0) */
            Value *f = value_getattr(psw, "reshape"), *m1v = v_int(-1);
            psw2 = f ? value_call0(f, 1, &m1v) : NULL;
            if (f) decref(f);
            decref(m1v);
            if (!psw2) goto done;
        }
    } else if (x->ndim == 1) {
        if (!off) return exc_set("ValueError", "offsets has to be a 1D Tensor but got None");
        if (!is_tensor(off)) return exc_set("AttributeError", "'%s' object has no attribute 'dim'", off->type->name);
        if (tensor_of(off)->ndim != 1) return exc_set("ValueError", "offsets has to be a 1D Tensor");
        in2 = incref(inp);
        off2 = incref(off);
        psw2 = psw ? incref(psw) : NULL;
    } else {
        return exc_set("ValueError", "input has to be 1D or 2D Tensor, but got Tensor of dimension %d", x->ndim);
    }
    const char *mode = v[6] ? (v[6]->type == &t_str ? v[6]->u.s.p : "") : "mean";
    int64_t menum = !strcmp(mode, "sum") ? 0 : !strcmp(mode, "mean") ? 1 : !strcmp(mode, "max") ? 2 : -1;
    if (menum < 0) {
        exc_set("ValueError", "mode has to be one of sum, mean or max");
        goto done;
    }
    if (menum == 2 && v[5] && value_truth(v[5]) > 0) {
        exc_set("ValueError", "max mode does not support scaling the gradient by the frequency");
        goto done;
    }
    if (menum == 2 && v[7] && value_truth(v[7]) > 0) {
        exc_set("ValueError", "max mode does not support sparse weights");
        goto done;
    }
    if (v[3] && !is_none(v[3])) {   /* _no_grad_embedding_renorm_(weight, input, max_norm, norm_type) */
        double mn, nt = 2.0;
        if (args_float(v[3], fn, "max_norm", &mn) < 0 || (v[4] && args_float(v[4], fn, "norm_type", &nt) < 0)) goto done;
        if (!is_tensor(wv)) {
            exc_set("TypeError", "embedding_renorm_(): argument 'input' (position 1) must be Tensor, not %s", wv->type->name);
            goto done;
        }
        if (tsr_nn_embedding_renorm_(tensor_of(wv), tensor_of(in2), mn, nt) < 0) {
            bind_runtime_error();
            goto done;
        }
        tsr_tensor_bump_version(tensor_of(wv));
    }
    if (psw && menum != 0) {
        exc_set("NotImplementedError", "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                "supported for mode='%s' (got mode='%s'). Please open a feature request on GitHub.", "sum", mode);
        goto done;
    }
    Value *f = value_getattr(bind_module("torch"), "embedding_bag");
    if (!f) goto done;
    Value *args[9] = {wv, in2, off2, v[5] ? v[5] : v_bool(false), v_int(menum), v[7] ? v[7] : v_bool(false),
                      psw2 ? psw2 : v_none(), v[9] ? v[9] : v_bool(false), v[10] ? v[10] : v_none()};
    bool own[9] = {false, false, false, !v[5], true, !v[7], !psw2, !v[9], !v[10]};
    Value *t = value_call0(f, 9, args);
    decref(f);
    for (int i = 0; i < 9; i++)
        if (own[i]) decref(args[i]);
    if (t) {
        r = t->type == &t_tuple ? incref(t->u.seq.items[0]) : NULL;
        decref(t);
    }
done:
    if (in2) decref(in2);
    if (off2) decref(off2);
    if (psw2) decref(psw2);
    return r;
}


/* F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0,
 * reduction='mean', zero_infinity=False): torch.ctc_loss with
 * _Reduction.get_enum(reduction) */
static Value *f_ctc_loss(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[7];
    if (args_parse(a, "ctc_loss", "def log_probs, targets, input_lengths, target_lengths, blank=, reduction=, "
                   "zero_infinity=", v) < 0)
        return NULL;
    int64_t red = 1;
    if (v[5]) {
        const char *s = v[5]->type == &t_str ? v[5]->u.s.p : NULL;
        if (s && !strcmp(s, "none")) red = 0;
        else if (s && !strcmp(s, "mean")) red = 1;
        else if (s && !strcmp(s, "sum")) red = 2;
        else if (s && !strcmp(s, "elementwise_mean"))
            warn("reduction='elementwise_mean' is deprecated, please use reduction='mean' instead.");
        else {
            Value *r = value_str(v[5]);
            exc_set("ValueError", "%s is not a valid value for reduction", r ? r->u.s.p : "?");
            if (r) decref(r);
            return NULL;
        }
    }
    Value *args[7] = {v[0], v[1], v[2], v[3], v[4] ? v[4] : v_int(0), v_int(red), v[6] ? v[6] : v_bool(false)};
    Value *r = torch_call("ctc_loss", 7, args);
    if (!v[4]) decref(args[4]);
    decref(args[5]);
    if (!v[6]) decref(args[6]);
    return r;
}

/* ------------------------------------------------------------ multi_head_attention_forward */

/* The temporaries of F.multi_head_attention_forward: every new value kept
 * here and released at the end. */
typedef struct {
    Value *t[160];
    int n;
} Pool;

static Value *pk(Pool *p, Value *v)
{
    if (v && p->n < 160) p->t[p->n++] = v;
    else if (v) { decref(v); v = exc_set("RuntimeError", "multi_head_attention_forward: too many temporaries"); }
    return v;
}

/* obj.name(args..., kw...) (obj a module or a tensor), kept in p */
static Value *pcall(Pool *p, Value *obj, const char *name, int n, Value **args, int nkw, const char **kwn, Value **kw)
{
    for (int i = 0; i < n; i++)
        if (!args[i]) return NULL;
    for (int i = 0; i < nkw; i++)
        if (!kw[i]) return NULL;
    Value *f = value_getattr(obj, name);
    if (!f) return NULL;
    CallArgs a = {.pos = args, .npos = n, .kwnames = kwn, .kw = kw, .nkw = nkw};
    Value *r = value_call(f, &a);
    decref(f);
    return pk(p, r);
}
#define TORCH(name, n, ...) pcall(p, bind_module("torch"), name, n, (Value *[]){__VA_ARGS__}, 0, NULL, NULL)
#define FNN(name, n, ...) pcall(p, bind_module(MOD), name, n, (Value *[]){__VA_ARGS__}, 0, NULL, NULL)
#define METH(obj, name, n, ...) pcall(p, obj, name, n, (Value *[]){__VA_ARGS__}, 0, NULL, NULL)
#define METH0(obj, name) pcall(p, obj, name, 0, NULL, 0, NULL, NULL)
#define INT(k) pk(p, v_int(k))

/* item i of a tuple value (borrowed) */
static Value *item(Value *t, int i) { return t && t->type == &t_tuple && (size_t)i < t->u.seq.n ? t->u.seq.items[i] : NULL; }

static bool given(Value *v) { return v && !is_none(v); }

/* repr(x.shape), into buf */
static const char *shape_repr(char *buf, size_t n, Value *x)
{
    Value *s = value_getattr(x, "shape"), *r = s ? value_repr(s) : NULL;
    snprintf(buf, n, "%s", r ? r->u.s.p : "?");
    if (s) decref(s);
    if (r) decref(r);
    return buf;
}

static bool same_shape(const tsr_tensor *a, int nd, const int64_t *sizes)
{
    if (a->ndim != nd) return false;
    for (int i = 0; i < nd; i++)
        if (a->sizes[i] != sizes[i]) return false;
    return true;
}

/* _mha_shape_check: 1 batched, 0 unbatched, -1 with the AssertionError */
static int mha_shape_check(Value *q, Value *k, Value *v, Value *kpm, Value *am, int64_t heads)
{
    int qd = tensor_of(q)->ndim, kd = tensor_of(k)->ndim, vd = tensor_of(v)->ndim;
    if (qd == 3) {
        if (kd != 3 || vd != 3)
            return exc_set("AssertionError", "For batched (3-D) `query`, expected `key` and `value` to be 3-D but found "
                           "%d-D and %d-D tensors respectively", kd, vd), -1;
        if (kpm && tensor_of(kpm)->ndim != 2)
            return exc_set("AssertionError", "For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D "
                           "but found %d-D tensor instead", tensor_of(kpm)->ndim), -1;
        if (am && tensor_of(am)->ndim != 2 && tensor_of(am)->ndim != 3)
            return exc_set("AssertionError", "For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D "
                           "but found %d-D tensor instead", tensor_of(am)->ndim), -1;
        return 1;
    }
    if (qd == 2) {
        if (kd != 2 || vd != 2)
            return exc_set("AssertionError", "For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found "
                           "%d-D and %d-D tensors respectively", kd, vd), -1;
        if (kpm && tensor_of(kpm)->ndim != 1)
            return exc_set("AssertionError", "For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or "
                           "1-D but found %d-D tensor instead", tensor_of(kpm)->ndim), -1;
        if (am && tensor_of(am)->ndim != 2 && tensor_of(am)->ndim != 3)
            return exc_set("AssertionError", "For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D "
                           "but found %d-D tensor instead", tensor_of(am)->ndim), -1;
        if (am && tensor_of(am)->ndim == 3) {
            int64_t e[3] = {heads, tensor_of(q)->sizes[0], tensor_of(k)->sizes[0]};
            if (!same_shape(tensor_of(am), 3, e)) {
                char b[200];
                return exc_set("AssertionError", "Expected `attn_mask` shape to be (%lld, %lld, %lld) but got %s",
                               (long long)e[0], (long long)e[1], (long long)e[2], shape_repr(b, sizeof b, am)), -1;
            }
        }
        return 0;
    }
    return exc_set("AssertionError", "query should be unbatched 2D or batched 3D tensor but received %d-D query tensor",
                   qd), -1;
}

/* F.multi_head_attention_forward as 1.13's torch/nn/functional.py composes
 * it: every step a torch call, so the graph is 1.13's */
static Value *f_mha(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[24];
    if (args_parse(a, "multi_head_attention_forward",
                   "def query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias, bias_k, bias_v, "
                   "add_zero_attn, dropout_p, out_proj_weight, out_proj_bias, training=, key_padding_mask=, "
                   "need_weights=, attn_mask=, use_separate_proj_weight=, q_proj_weight=, k_proj_weight=, "
                   "v_proj_weight=, static_k=, static_v=, average_attn_weights=", v) < 0)
        return NULL;
    Pool p0 = {.n = 0}, *p = &p0;
    Value *r = NULL;
    Value *query = v[0], *key = v[1], *value = v[2], *kpm = given(v[14]) ? v[14] : NULL, *am = given(v[16]) ? v[16] : NULL;
    Value *ipw = v[5], *ipb = given(v[6]) ? v[6] : NULL, *bk = given(v[7]) ? v[7] : NULL, *bv = given(v[8]) ? v[8] : NULL;
    Value *sk = given(v[21]) ? v[21] : NULL, *sv = given(v[22]) ? v[22] : NULL;
    int64_t heads, edc;
    double dropout_p;
    bool training = !v[13] || value_truth(v[13]) > 0, need_w = !v[15] || value_truth(v[15]) > 0;
    bool sep = v[17] && value_truth(v[17]) > 0, avg = !v[23] || value_truth(v[23]) > 0;
    bool zattn = value_truth(v[9]) > 0;
    char b1[200], b2[200];
    for (int i = 0; i < 3; i++)   /* _mha_shape_check's query.dim(), key.dim(), value.dim() */
        if (!is_tensor(v[i])) return exc_set("AttributeError", "'%s' object has no attribute 'dim'", v[i]->type->name);
    if (args_int(v[4], "multi_head_attention_forward", "num_heads", &heads) < 0 ||
        args_int(v[3], "multi_head_attention_forward", "embed_dim_to_check", &edc) < 0 ||
        args_float(v[10], "multi_head_attention_forward", "dropout_p", &dropout_p) < 0)
        return NULL;
    int batched = mha_shape_check(query, key, value, kpm, am, heads);
    if (batched < 0) return NULL;
    if (!batched) {
        query = METH(query, "unsqueeze", 1, INT(1));
        key = METH(key, "unsqueeze", 1, INT(1));
        value = METH(value, "unsqueeze", 1, INT(1));
        if (kpm) kpm = METH(kpm, "unsqueeze", 1, INT(0));
        if (!query || !key || !value || (given(v[14]) && !kpm)) goto done;
    }
    tsr_tensor *qt = tensor_of(query);
    int64_t tgt = qt->sizes[0], bsz = qt->sizes[1], E = qt->sizes[2], src = tensor_of(key)->sizes[0];
    if (kpm && tensor_of(kpm)->dtype != TSR_BOOL && !tsr_dtype_is_floating(tensor_of(kpm)->dtype)) {
        exc_set("AssertionError", "only bool and floating types of key_padding_mask are supported");
        goto done;
    }
    if (E != edc) {
        exc_set("AssertionError", "was expecting embedding dimension of %lld, but got %lld", (long long)edc, (long long)E);
        goto done;
    }
    if (heads == 0) {
        exc_set("ZeroDivisionError", "integer division or modulo by zero");
        goto done;
    }
    int64_t hd = E / heads;   /* E // num_heads */
    if (E % heads && ((E < 0) != (heads < 0))) hd--;
    if (hd * heads != E) {
        exc_set("AssertionError", "embed_dim %lld not divisible by num_heads %lld", (long long)E, (long long)heads);
        goto done;
    }
    tsr_tensor *kt = tensor_of(key), *vt = tensor_of(value);
    if (sep) {
        if (kt->sizes[0] != vt->sizes[0] || kt->sizes[1] != vt->sizes[1]) {
            exc_set("AssertionError", "key's sequence and batch dims torch.Size([%lld, %lld]) do not match value's "
                    "torch.Size([%lld, %lld])", (long long)kt->sizes[0], (long long)kt->sizes[1], (long long)vt->sizes[0],
                    (long long)vt->sizes[1]);
            goto done;
        }
    } else if (!same_shape(kt, vt->ndim, vt->sizes)) {
        exc_set("AssertionError", "key shape %s does not match value shape %s", shape_repr(b1, sizeof b1, key),
                shape_repr(b2, sizeof b2, value));
        goto done;
    }
    Value *q = NULL, *k = NULL, *vv = NULL;
    if (!sep) {   /* _in_projection_packed */
        if (!given(ipw)) {
            exc_set("AssertionError", "use_separate_proj_weight is False but in_proj_weight is None");
            goto done;
        }
        Value *none = pk(p, v_none()), *bq = ipb ? ipb : none;
        /* `k is v`, `q is k`: the unbatched inputs are new tensors after unsqueeze */
        if (batched && v[1] == v[2] && v[0] == v[1]) {   /* self-attention */
            Value *c = METH(FNN("linear", 3, query, ipw, bq), "chunk", 2, INT(3), INT(-1));
            q = item(c, 0), k = item(c, 1), vv = item(c, 2);
        } else if (batched && v[1] == v[2]) {   /* encoder-decoder attention */
            Value *sz = pk(p, v_tuple_of(2, v_int(E), v_int(E * 2)));
            Value *ws = METH(ipw, "split", 1, sz), *bs = ipb ? METH(ipb, "split", 1, sz) : NULL;
            if (!ws || (ipb && !bs)) goto done;
            q = FNN("linear", 3, query, item(ws, 0), ipb ? item(bs, 0) : none);
            Value *c = METH(FNN("linear", 3, key, item(ws, 1), ipb ? item(bs, 1) : none), "chunk", 2, INT(2), INT(-1));
            k = item(c, 0), vv = item(c, 1);
        } else {
            Value *ws = METH(ipw, "chunk", 1, INT(3)), *bs = ipb ? METH(ipb, "chunk", 1, INT(3)) : NULL;
            if (!ws || (ipb && !bs)) goto done;
            q = FNN("linear", 3, query, item(ws, 0), ipb ? item(bs, 0) : none);
            k = FNN("linear", 3, key, item(ws, 1), ipb ? item(bs, 1) : none);
            vv = FNN("linear", 3, value, item(ws, 2), ipb ? item(bs, 2) : none);
        }
    } else {   /* _in_projection */
        Value *w[3] = {v[18], v[19], v[20]}, *none = pk(p, v_none()), *bb[3] = {none, none, none};
        static const char *const wn[3] = {"q_proj_weight", "k_proj_weight", "v_proj_weight"};
        for (int i = 0; i < 3; i++)
            if (!given(w[i])) {
                exc_set("AssertionError", "use_separate_proj_weight is True but %s is None", wn[i]);
                goto done;
            }
        if (ipb) {
            Value *bs = METH(ipb, "chunk", 1, INT(3));
            if (!bs) goto done;
            for (int i = 0; i < 3; i++) bb[i] = item(bs, i);
        }
        int64_t Eq = E, Ek = kt->sizes[2], Ev = vt->sizes[2];
        int64_t ws[3][2] = {{Eq, Eq}, {Eq, Ek}, {Eq, Ev}};
        static const char *const nm[3] = {"query", "key", "value"};
        for (int i = 0; i < 3; i++)
            if (!is_tensor(w[i]) || !same_shape(tensor_of(w[i]), 2, ws[i])) {
                exc_set("AssertionError", "expecting %s weights shape of (%lld, %lld), but got %s", nm[i], (long long)ws[i][0],
                        (long long)ws[i][1], shape_repr(b1, sizeof b1, w[i]));
                goto done;
            }
        for (int i = 0; i < 3; i++)
            if (!is_none(bb[i]) && !same_shape(tensor_of(bb[i]), 1, &Eq)) {
                exc_set("AssertionError", "expecting %s bias shape of (%lld,), but got %s", nm[i], (long long)Eq,
                        shape_repr(b1, sizeof b1, bb[i]));
                goto done;
            }
        q = FNN("linear", 3, query, w[0], bb[0]);
        k = FNN("linear", 3, key, w[1], bb[1]);
        vv = FNN("linear", 3, value, w[2], bb[2]);
    }
    if (!q || !k || !vv) goto done;
    if (am) {
        tsr_tensor *m = tensor_of(am);
        if (m->dtype == TSR_UINT8) {
            warn("Byte tensor for attn_mask in nn.MultiheadAttention is deprecated. Use bool tensor instead.");
            Value *bt = pk(p, value_getattr(bind_module("torch"), "bool"));
            if (!(am = METH(am, "to", 1, bt))) goto done;
        } else if (!tsr_dtype_is_floating(m->dtype) && m->dtype != TSR_BOOL) {
            exc_set("AssertionError", "Only float, byte, and bool types are supported for attn_mask, not torch.%s",
                    tsr_dtype_name(m->dtype));
            goto done;
        }
        m = tensor_of(am);
        if (m->ndim == 2) {
            int64_t e2[2] = {tgt, src};
            if (!same_shape(m, 2, e2)) {
                exc_set("RuntimeError", "The shape of the 2D attn_mask is %s, but should be (%lld, %lld).",
                        shape_repr(b1, sizeof b1, am), (long long)tgt, (long long)src);
                goto done;
            }
            if (!(am = METH(am, "unsqueeze", 1, INT(0)))) goto done;
        } else if (m->ndim == 3) {
            int64_t e3[3] = {bsz * heads, tgt, src};
            if (!same_shape(m, 3, e3)) {
                exc_set("RuntimeError", "The shape of the 3D attn_mask is %s, but should be (%lld, %lld, %lld).",
                        shape_repr(b1, sizeof b1, am), (long long)e3[0], (long long)tgt, (long long)src);
                goto done;
            }
        } else {
            exc_set("RuntimeError", "attn_mask's dimension %d is not supported", m->ndim);
            goto done;
        }
    }
    Value *pad01 = pk(p, v_tuple_of(2, v_int(0), v_int(1)));
    if (bk && bv) {
        if (sk) {
            exc_set("AssertionError", "bias cannot be added to static key.");
            goto done;
        }
        if (sv) {
            exc_set("AssertionError", "bias cannot be added to static value.");
            goto done;
        }
        Value *rk = METH(bk, "repeat", 3, INT(1), INT(bsz), INT(1)), *rv = METH(bv, "repeat", 3, INT(1), INT(bsz), INT(1));
        if (!rk || !rv) goto done;
        Value *l1 = pk(p, v_tuple_of(2, incref(k), incref(rk))), *l2 = pk(p, v_tuple_of(2, incref(vv), incref(rv)));
        if (!(k = TORCH("cat", 1, l1)) || !(vv = TORCH("cat", 1, l2))) goto done;
        if (am && !(am = FNN("pad", 2, am, pad01))) goto done;
        if (kpm && !(kpm = FNN("pad", 2, kpm, pad01))) goto done;
    } else if (bk || bv) {
        exc_set("AssertionError", "%s", "");
        goto done;
    }
    Value *shp = pk(p, v_tuple_of(3, v_int(tgt), v_int(bsz * heads), v_int(hd)));
    if (!(q = METH(METH(METH0(q, "contiguous"), "view", 1, shp), "transpose", 2, INT(0), INT(1)))) goto done;
    Value *kv[2] = {k, vv}, *st[2] = {sk, sv};
    static const char *const kvn[2] = {"static_k", "static_v"};
    for (int i = 0; i < 2; i++) {
        if (!st[i]) {
            Value *s3 = pk(p, v_tuple_of(3, v_int(tensor_of(kv[i])->sizes[0]), v_int(bsz * heads), v_int(hd)));
            if (!(kv[i] = METH(METH(METH0(kv[i], "contiguous"), "view", 1, s3), "transpose", 2, INT(0), INT(1)))) goto done;
            continue;
        }
        tsr_tensor *s = tensor_of(st[i]);
        if (s->sizes[0] != bsz * heads) {
            exc_set("AssertionError", "expecting %s.size(0) of %lld, but got %lld", kvn[i], (long long)(bsz * heads), (long long)s->sizes[0]);
            goto done;
        }
        if (s->sizes[2] != hd) {
            exc_set("AssertionError", "expecting %s.size(2) of %lld, but got %lld", kvn[i], (long long)hd, (long long)s->sizes[2]);
            goto done;
        }
        kv[i] = st[i];
    }
    k = kv[0], vv = kv[1];
    if (zattn) {
        Value *zs = pk(p, v_tuple_of(3, v_int(bsz * heads), v_int(1), v_int(hd)));
        for (int i = 0; i < 2; i++) {
            Value *dt = pk(p, value_getattr(kv[i], "dtype"));
            const char *kn[1] = {"dtype"};
            Value *z = pcall(p, bind_module("torch"), "zeros", 1, (Value *[]){zs}, 1, kn, (Value *[]){dt});
            if (!z) goto done;
            Value *l = pk(p, v_tuple_of(2, incref(kv[i]), incref(z)));
            if (!(kv[i] = TORCH("cat", 2, l, INT(1)))) goto done;
        }
        k = kv[0], vv = kv[1];
        if (am && !(am = FNN("pad", 2, am, pad01))) goto done;
        if (kpm && !(kpm = FNN("pad", 2, kpm, pad01))) goto done;
    }
    src = tensor_of(k)->sizes[1];
    if (kpm) {
        int64_t e2[2] = {bsz, src};
        if (!same_shape(tensor_of(kpm), 2, e2)) {
            exc_set("AssertionError", "expecting key_padding_mask shape of (%lld, %lld), but got %s", (long long)bsz,
                    (long long)src, shape_repr(b1, sizeof b1, kpm));
            goto done;
        }
        Value *s4 = pk(p, v_tuple_of(4, v_int(bsz), v_int(1), v_int(1), v_int(src)));
        Value *ex = pk(p, v_tuple_of(4, v_int(-1), v_int(heads), v_int(-1), v_int(-1)));
        Value *s3 = pk(p, v_tuple_of(3, v_int(bsz * heads), v_int(1), v_int(src)));
        if (!(kpm = METH(METH(METH(kpm, "view", 1, s4), "expand", 1, ex), "reshape", 1, s3))) goto done;
        if (!am) am = kpm;
        else if (tensor_of(am)->dtype == TSR_BOOL) am = METH(am, "logical_or", 1, kpm);
        else am = METH(am, "masked_fill", 2, kpm, pk(p, v_float(-INFINITY)));
        if (!am) goto done;
    }
    if (am && tensor_of(am)->dtype == TSR_BOOL) {
        Value *dt = pk(p, value_getattr(q, "dtype"));
        const char *kn[1] = {"dtype"};
        Value *nm = pcall(p, bind_module("torch"), "zeros_like", 1, (Value *[]){am}, 1, kn, (Value *[]){dt});
        if (!nm || !METH(nm, "masked_fill_", 2, am, pk(p, v_float(-INFINITY)))) goto done;
        am = nm;
    }
    if (!training) dropout_p = 0.0;
    int64_t Eh = tensor_of(q)->sizes[2];
    Value *qs = TORCH("div", 2, q, pk(p, v_float(sqrt((double)Eh))));
    Value *kT = METH(k, "transpose", 2, INT(-2), INT(-1));
    Value *w = am ? TORCH("baddbmm", 3, am, qs, kT) : TORCH("bmm", 2, qs, kT);
    if (w) w = FNN("softmax", 2, w, INT(-1));
    if (w && dropout_p > 0.0) w = FNN("dropout", 2, w, pk(p, v_float(dropout_p)));
    Value *o = w ? TORCH("bmm", 2, w, vv) : NULL;
    if (o) o = METH(METH0(METH(o, "transpose", 2, INT(0), INT(1)), "contiguous"), "view", 2, INT(tgt * bsz), INT(E));
    if (o) o = FNN("linear", 3, o, v[11], v[12]);
    if (o) o = METH(o, "view", 3, INT(tgt), INT(bsz), INT(tensor_of(o)->sizes[1]));
    if (!o) goto done;
    Value *wo = pk(p, v_none());
    if (need_w) {
        Value *s4 = pk(p, v_tuple_of(4, v_int(bsz), v_int(heads), v_int(tgt), v_int(src)));
        if (!(wo = METH(w, "view", 1, s4))) goto done;
        if (avg) {
            const char *kn[1] = {"dim"};
            Value *s = pcall(p, wo, "sum", 0, NULL, 1, kn, (Value *[]){INT(1)});
            if (!s || !(wo = TORCH("div", 2, s, INT(heads)))) goto done;
        }
        if (!batched && !(wo = METH(wo, "squeeze", 1, INT(0)))) goto done;
    }
    if (!batched && !(o = METH(o, "squeeze", 1, INT(1)))) goto done;
    r = v_tuple_of(2, incref(o), incref(wo));
done:
    for (int i = p->n - 1; i >= 0; i--) decref(p->t[i]);
    return r;
}

void bind_nnf_misc2_init(void)
{
    bind_table_register(misc2_rows, (int)(sizeof misc2_rows / sizeof misc2_rows[0]));
    module_add(bind_module(MOD), "embedding_bag", v_builtin("embedding_bag", f_embedding_bag, NULL, NULL));
    module_add(bind_module(MOD), "ctc_loss", v_builtin("ctc_loss", f_ctc_loss, NULL, NULL));
    module_add(bind_module(MOD), "multi_head_attention_forward",
               v_builtin("multi_head_attention_forward", f_mha, NULL, NULL));
}
