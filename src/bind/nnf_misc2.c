/* src/bind/nnf_misc2.c — more of torch.nn.functional (issue 19): prelu
 * (torch.prelu, Tensor.prelu, F.prelu). The ATen functions are binding
 * rows (python_arg_parser's messages); F's Python defs are builtins with
 * their own argument handling. Also embedding_bag (torch.embedding_bag,
 * F.embedding_bag) and ctc_loss (torch.ctc_loss, F.ctc_loss). Every tensor rule is runtime/ops/nn_misc2.h's;
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
    if (sparse && g)
        return exc_set("NotImplementedError", "embedding_bag(sparse=True): sparse gradients are not supported by tsr yet");
    tsr_tensor *o2b, *bs, *mi, *r = tsr_nn_embedding_bag(w, ix, off, (int)mode, psw, last, has_pad ? &pad : NULL, &o2b, &bs, &mi);
    if (!r) return bind_runtime_error();
    int rc = 0;
    if (g) {
        int64_t nw = w->ndim ? w->sizes[0] : 1;
        tsr_ag_args ga = {.i0 = mode, .i1 = has_pad ? (pad < 0 ? pad + nw : pad) : -1, .i2 = r->sizes[0], .flag = freq};
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
        tsr_tensor *xf = o ? tsr_reshape(x, 1, &m1) : NULL, *pf = xf && psw ? tsr_reshape(tensor_of(psw), 1, &m1) : NULL;
        if (!o || !xf || (psw && !pf)) {
            tsr_tensor_release(o);
            tsr_tensor_release(xf);
            return bind_runtime_error();
        }
        off2 = v_tensor(o);
        in2 = v_tensor(xf);
        psw2 = pf ? v_tensor(pf) : NULL;
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

void bind_nnf_misc2_init(void)
{
    bind_table_register(misc2_rows, (int)(sizeof misc2_rows / sizeof misc2_rows[0]));
    module_add(bind_module(MOD), "embedding_bag", v_builtin("embedding_bag", f_embedding_bag, NULL, NULL));
    module_add(bind_module(MOD), "ctc_loss", v_builtin("ctc_loss", f_ctc_loss, NULL, NULL));
}
