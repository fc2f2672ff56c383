/* runtime/ops/nn_misc2.c — prelu (see nn_misc2.h). */
#include "nn_misc2.h"
#include <math.h>
#include <string.h>

#include "binary.h"
#include "compare.h"
#include "blas.h"
#include "copy.h"
#include "factory.h"
#include "nn.h"
#include "reduce.h"
#include "scatter.h"
#include "shape.h"
#include "sort.h"
#include "../view.h"
#include "grad_nn_dbl.h"
#include "../autograd_formula.h"
#include "../error.h"
#include "../internal.h"
#include "../promote.h"

/* w viewed to broadcast against x: [] for a shared w, [C, 1, ...] (x's
 * dims after 1) per channel. NEW or NULL. */
static tsr_tensor *prelu_weight_view(const tsr_tensor *x, const tsr_tensor *w)
{
    int64_t sizes[TSR_MAX_DIMS];
    int nd = 0;
    if (tsr_tensor_numel(w) != 1) {
        sizes[nd++] = tsr_tensor_numel(w);
        for (int i = 2; i < x->ndim; i++) sizes[nd++] = 1;
    }
    return tsr_reshape(w, nd, sizes);
}

static int prelu_check(const tsr_tensor *x, const tsr_tensor *w)
{
    int64_t wn = tsr_tensor_numel(w);
    if (wn != 1) {
        if (x->ndim == 0) return tsr_error_set(TSR_ERR_RUNTIME, "Not allow zero-dim input tensor."), -1;
        int64_t ch = x->ndim > 1 ? x->sizes[1] : 1;
        if (ch != wn)
            return tsr_error_set(TSR_ERR_RUNTIME, "Mismatch of parameter numbers and input channel size. Found parameter "
                                 "numbers = %lld and channel size = %lld.", (long long)wn, (long long)ch), -1;
    }
    if (w->ndim > 1)
        return tsr_error_set(TSR_ERR_RUNTIME, "prelu: Expected `weight` to be a scalar or 1D tensor, but got ndim = %d",
                             w->ndim), -1;
    if (w->dtype != x->dtype && !(x->dtype == TSR_BFLOAT16 && w->dtype == TSR_FLOAT32))
        return tsr_error_set(TSR_ERR_RUNTIME, "Found dtype %s but expected %s", tsr_dtype_scalar_name(w->dtype),
                             tsr_dtype_scalar_name(x->dtype)), -1;
    if (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64 && x->dtype != TSR_BFLOAT16)
        return tsr_error_set(TSR_ERR_RUNTIME, "\"prelu_cpu\" not implemented for '%s'", tsr_dtype_scalar_name(x->dtype)), -1;
    return 0;
}

/* a op b, both tensors; NEW or NULL */
static tsr_tensor *bin2(tsr_binop op, const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    return tsr_binary(op, &x, &y, NULL, NULL);
}

/* x > 0 */
static tsr_tensor *positive(const tsr_tensor *x)
{
    tsr_operand a = tsr_operand_tensor(x), z = tsr_operand_scalar(tsr_scalar_int(0));
    return tsr_compare(TSR_CMP_GT, &a, &z, NULL);
}

tsr_tensor *tsr_nn_prelu(const tsr_tensor *x, const tsr_tensor *w)
{
    if (prelu_check(x, w) < 0) return NULL;
    /* a bfloat16 x's float32 w is rounded to bfloat16 first */
    tsr_tensor *xc = tsr_contiguous(x, tsr_tensor_suggest_memory_format(x)), *wd = tsr_to_dtype(w, x->dtype, false);
    tsr_tensor *wv = xc && wd ? prelu_weight_view(x, wd) : NULL;
    tsr_tensor *prod = wv ? bin2(TSR_BINOP_MUL, xc, wv) : NULL, *pos = prod ? positive(xc) : NULL, *r = NULL;
    tsr_tensor_release(wd);
    if (pos && prod) {
        tsr_operand a = tsr_operand_tensor(xc), b = tsr_operand_tensor(prod);
        r = tsr_where(pos, &a, &b, NULL);
    }
    tsr_tensor_release(xc);
    tsr_tensor_release(wv);
    tsr_tensor_release(prod);
    tsr_tensor_release(pos);
    return r;
}

/* under create_graph: the kernel's two gradients, recorded as one
 * PreluBackwardBackward0 node over (grad, self, weight) */
static int prelu_bw_rec(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *w = SAVED(1), *gi[TSR_AG_MAXIN] = {0};
    bool was = tsr__ag_set_creating(false);
    if (!c->fail && tsr__bw_prelu(n, g, gi) < 0) c->fail = true;
    tsr__ag_set_creating(was);
    tsr_tensor *outs[2] = {gi[0], gi[1]};
    const tsr_tensor *in[3] = {g, x, w};
    if (!c->fail) tsr__ag_record_backward(c, "prelu_backward", 3, in, &n->a, 2, outs);
    for (int k = 0; k < 2; k++) give(c, gin, k, outs[k] ? keep(c, outs[k]) : NULL);
    for (int k = 2; k < TSR_AG_MAXIN; k++) tsr_tensor_release(gi[k]);
    return finish(c, n, gin);
}

int tsr__bw_prelu(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    if (tsr__ag_creating()) return prelu_bw_rec(n, g, gin);
    F c0 = {0}, *c = &c0;
    tsr_tensor *x = SAVED(0), *w = SAVED(1);
    if (c->fail) return finish(c, n, gin);
    tsr_memory_format mf = tsr_tensor_suggest_memory_format(x);
    tsr_tensor *gc = keep(c, tsr_contiguous(g, mf)), *xc = keep(c, tsr_contiguous(x, mf));
    tsr_tensor *pos = xc ? keep(c, positive(xc)) : NULL;
    if (NEED(0) && pos && gc) {
        tsr_tensor *wd = keep(c, tsr_to_dtype(w, x->dtype, false));
        tsr_tensor *wv = wd ? keep(c, prelu_weight_view(x, wd)) : NULL, *wg = wv ? keep(c, bin2(TSR_BINOP_MUL, wv, gc)) : NULL;
        if (wg) {
            tsr_operand a = tsr_operand_tensor(gc), b = tsr_operand_tensor(wg);
            give(c, gin, 0, keep(c, tsr_where(pos, &a, &b, NULL)));
        }
    }
    if (NEED(1) && pos && gc) {
        tsr_tensor *xg = keep(c, bin2(TSR_BINOP_MUL, xc, gc)), *col = NULL;
        if (xg) {
            tsr_operand a = tsr_operand_scalar(tsr_scalar_int(0)), b = tsr_operand_tensor(xg);
            col = keep(c, tsr_where(pos, &a, &b, NULL));
        }
        tsr_dims d = {.n = -1};
        if (col && tsr_tensor_numel(w) != 1 && x->ndim > 1) {
            d.n = 0;
            for (int i = 0; i < x->ndim; i++)
                if (i != 1) d.d[d.n++] = i;
        }
        tsr_tensor *s = col ? keep(c, tsr_sum(col, &d, false, col->dtype, NULL)) : NULL;
        if (s && s->dtype != w->dtype) s = keep(c, tsr_to_dtype(s, w->dtype, false));
        if (s) give(c, gin, 1, keep(c, tsr_reshape(s, w->ndim, w->sizes)));
    }
    return finish(c, n, gin);
}

#define B(op, a, b) bin(c, TSR_BINOP_##op, (a), (b))

static tsr_tensor *mask_of(F *c, tsr_cmpop op, const tsr_tensor *x)
{
    if (c->fail) return NULL;
    tsr_operand a = tsr_operand_tensor(x), z = tsr_operand_scalar(tsr_scalar_int(0));
    tsr_tensor *m = keep(c, tsr_compare(op, &a, &z, NULL));
    return m ? keep(c, tsr_to_dtype(m, x->dtype, false)) : NULL;
}
static tsr_tensor *expand_to(F *c, const tsr_tensor *a, const tsr_tensor *like)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_expand(a, like->ndim, like->sizes));
}
/* a.unsqueeze(1) k times, then expand_as(like) */
static tsr_tensor *unsq_expand(F *c, const tsr_tensor *a, int k, const tsr_tensor *like)
{
    tsr_tensor *t = (tsr_tensor *)a;
    for (int i = 0; i < k && !c->fail; i++) t = keep(c, tsr__ag_unsqueeze(t, 1));
    return expand_to(c, t, like);
}
static tsr_tensor *sum_dim(F *c, const tsr_tensor *a, int64_t d)
{
    if (c->fail || !a) return NULL;
    tsr_dims ds = {.n = 1};
    ds.d[0] = d;
    return keep(c, tsr__ag_sum(a, &ds, false));
}

int tsr__bw_prelu_dbl(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *gO = SAVED(0), *x = SAVED(1), *w = SAVED(2);
    const tsr_tensor *ggI = n->nout > 1 ? (n->outg ? n->outg[0] : NULL) : g;
    const tsr_tensor *ggW = n->nout > 1 && n->outg ? n->outg[1] : NULL;
    if (c->fail || !(ggI || ggW)) return finish(c, n, gin);
    /* undefined gradients: zeros({}).expand_as(...) */
    tsr_tensor *z = keep(c, tsr_zeros(0, NULL, x->dtype, TSR_CPU));
    if (!ggI) ggI = c->fail ? NULL : keep(c, tsr_view_expand(z, x->ndim, x->sizes));
    if (!ggW) ggW = c->fail ? NULL : keep(c, tsr_view_expand(z, w->ndim, w->sizes));
    tsr_tensor *pos = mask_of(c, TSR_CMP_GT, x), *npos = mask_of(c, TSR_CMP_LE, x);
    tsr_tensor *ggO = NULL, *gI = NULL, *gW = NULL;
    if (c->fail) return finish(c, n, gin);
    if (tsr_tensor_numel(w) == 1) {   /* one shared weight */
        tsr_tensor *mask = B(ADD, pos, B(MUL, npos, expand_to(c, w, x)));
        ggO = B(ADD, B(MUL, ggI, mask), B(MUL, expand_to(c, ggW, gO), B(MUL, npos, x)));
        tsr_dims all = {.n = -1};   /* the tuple's arguments, last first */
        tsr_tensor *s = B(MUL, B(MUL, ggI, gO), npos);
        gW = expand_to(c, c->fail ? NULL : keep(c, tsr__ag_sum(s, &all, false)), w);
        gI = B(MUL, B(MUL, expand_to(c, ggW, gO), gO), npos);
    } else {   /* per channel: ggW and weight unsqueezed to (C, 1, ...) and expanded */
        int k = x->ndim - 2 > 0 ? x->ndim - 2 : 0;
        tsr_tensor *ggWe = unsq_expand(c, ggW, k, ggI);
        gI = B(MUL, B(MUL, ggWe, gO), npos);
        gW = B(MUL, B(MUL, ggI, gO), npos);
        if (x->ndim > 1) gW = sum_dim(c, gW, 0);
        while (gW && gW->ndim > 1 && !c->fail) gW = sum_dim(c, gW, 1);
        tsr_tensor *mask = B(ADD, pos, B(MUL, npos, unsq_expand(c, w, k, x)));
        ggO = B(ADD, B(MUL, ggI, mask), B(MUL, B(MUL, ggWe, npos), x));
    }
    if (NEED(0)) give(c, gin, 0, ggO);
    if (NEED(1)) give(c, gin, 1, gI);
    if (NEED(2)) give(c, gin, 2, gW);
    return finish(c, n, gin);
}
#undef B

/* ------------------------------------------------------------ embedding_bag */

static int type_refused(const tsr_tensor *t, const char *arg, const char *allowed)
{
    char b[64];
    tsr_error_set(TSR_ERR_RUNTIME, "Expected tensor for argument #1 '%s' to have one of the following scalar types: %s; "
                  "but got %s instead (while checking arguments for embedding_bag)", arg, allowed,
                  tsr_dtype_aten_type_string(t->dtype, b, sizeof b));
    return -1;
}

typedef struct {
    int64_t n, nb, ddim, nw, pad;   /* indices, bags, features, embeddings, padding_idx (-1: none) */
    int mode;
    bool include_last, fast;
    int64_t *ix, *offs;             /* indices; offs[0..nb]: each bag's start, then the end */
    int64_t *o2b;                   /* each index's bag (the slow path's offset2bag) */
} ebag;

/* 1.13's index checks: the fast path's fallthrough walk (caffe2's
 * EmbeddingLookupIdx enforce messages), the slow path's idx check in order */
static int ebag_check_indices(const ebag *e)
{
    if (e->fast && e->mode != 2) {
        int64_t cur = 0;
        for (int64_t m = 0; m < e->nb; m++)
            for (int64_t i = e->offs[m]; i < e->offs[m + 1]; i++) {
                if (!(cur < e->n))
                    return tsr_error_set(TSR_ERR_RUNTIME, "[enforce fail at embedding_lookup_idx.cc:214] current < "
                                         "index_size. %lld vs %lld", (long long)cur, (long long)e->n), -1;
                int64_t idx = e->ix[cur];
                if (!(idx >= 0 && idx < e->nw))
                    return tsr_error_set(TSR_ERR_RUNTIME, "[enforce fail at embedding_lookup_idx.cc:214] 0 <= idx && idx "
                                         "< data_size. Index %lld is out of bounds: %lld, range 0 to %lld",
                                         (long long)cur, (long long)idx, (long long)e->nw), -1;
                cur++;
            }
        return 0;
    }
    for (int64_t i = 0; i < e->n; i++)
        if (!(e->ix[i] >= 0 && e->ix[i] < e->nw))
            return tsr_error_set(TSR_ERR_RUNTIME, "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found "
                                 "idx to be %lld", (long long)e->ix[i]), -1;
    return 0;
}

/* out[nb, ddim] from w[nw, ddim] (contiguous), scale (NULL: none): sum /
 * mean's sequential adds or max; bsz: the bag sizes (padding taken off);
 * mind: max's indices */
#define EBAG_KERNEL(NAME, T, FMA, SLOW)                                                                                   \
    static int NAME(const ebag *e, const T *w, const T *scale, T *out, int64_t *bsz, int64_t *mind)              \
    {                                                                                                                 \
        for (int64_t k = 0; k < e->nb * e->ddim; k++) out[k] = 0;                                                     \
        if (e->mode != 2) {                                                                                           \
            for (int64_t m = 0; m < e->nb; m++) {                                                                     \
                if ((m & 255) == 0 && tsr_check_interrupt() < 0) return -1;                                           \
                for (int64_t i = e->offs[m]; i < e->offs[m + 1] && i < e->n; i++) {                                   \
                    int64_t idx = e->ix[i];                                                                           \
                    if (idx == e->pad) {                                                                              \
                        if (e->mode) bsz[m]--;                                                                        \
                        continue;                                                                                     \
                    }                                                                                                 \
                    const T *row = w + idx * e->ddim;                                                                 \
                    T *o = out + m * e->ddim;                                                                         \
                    if (scale && e->fast)                                                                             \
                        for (int64_t d = 0; d < e->ddim; d++) o[d] = FMA(scale[i], row[d], o[d]);                     \
                    else if (scale)                                                                                   \
                        for (int64_t d = 0; d < e->ddim; d++) o[d] = SLOW(scale[i], row[d], o[d]);                    \
                    else                                                                                              \
                        for (int64_t d = 0; d < e->ddim; d++) o[d] = o[d] + row[d];                                   \
                }                                                                                                     \
            }                                                                                                         \
            return 0;                                                                                                 \
        }                                                                                                             \
        bool *empty = tsr_malloc((size_t)(e->nb ? e->nb : 1));                                                     \
        if (!empty) return -1;                                                                                        \
        for (int64_t m = 0; m < e->nb; m++) empty[m] = true;                                                          \
        for (int64_t i = 0; i < e->n; i++) {                                                                          \
            if ((i & 255) == 0 && tsr_check_interrupt() < 0) {                                                        \
                tsr_free(empty);                                                                                  \
                return -1;                                                                                            \
            }                                                                                                         \
            int64_t m = e->o2b[i], idx = e->ix[i];                                                                    \
            if (m >= e->nb) continue;                                                                                 \
            if (idx == e->pad) {                                                                                      \
                bsz[m]--;                                                                                             \
                continue;                                                                                             \
            }                                                                                                         \
            for (int64_t d = 0; d < e->ddim; d++) {                                                                   \
                T *o = out + m * e->ddim + d, v = w[idx * e->ddim + d];                                               \
                if (empty[m] || v > *o) {                                                                             \
                    *o = v;                                                                                           \
                    mind[m * e->ddim + d] = idx;                                                                      \
                }                                                                                                     \
            }                                                                                                         \
            empty[m] = false;                                                                                         \
        }                                                                                                             \
        tsr_free(empty);                                                                                          \
        return 0;                                                                                                     \
    }
/* y + a * x rounded twice (the slow path's saxpy) */
static float muladdf(float a, float x, float y)
{
    float p = a * x;
    return y + p;
}
static double muladd(double a, double x, double y)
{
    double p = a * x;
    return y + p;
}
EBAG_KERNEL(ebag_f32, float, fmaf, muladdf)
EBAG_KERNEL(ebag_f64, double, fma, muladd)

/* an int64 copy of t's values (n of them) from the runtime allocator */
static int64_t *int_values(const tsr_tensor *t, int64_t n)
{
    int64_t *v = tsr_malloc((size_t)(n ? n : 1) * sizeof *v);
    for (int64_t i = 0; v && i < n; i++) v[i] = tsr_tensor_get_int64_at(t, i);
    return v;
}

/* a new contiguous tensor of dtype holding t's values. NEW or NULL. */
static tsr_tensor *contig_as(const tsr_tensor *t, tsr_dtype dt)
{
    tsr_tensor *c = tsr_to_dtype(t, dt, false);
    if (c) tsr__take(&c, tsr_contiguous(c, TSR_MF_CONTIGUOUS));
    return c;
}

tsr_tensor *tsr_nn_embedding_bag(const tsr_tensor *weight, const tsr_tensor *indices, const tsr_tensor *offsets,
                                 int mode, const tsr_tensor *psw, bool include_last, const int64_t *padding_idx,
                                 tsr_tensor **o2b, tsr_tensor **bag_size, tsr_tensor **max_ind)
{
    *o2b = *bag_size = *max_ind = NULL;
    ebag e = {.mode = mode, .include_last = include_last, .pad = -1};
    e.nw = weight->ndim ? weight->sizes[0] : 1;
    if (padding_idx) {
        if (*padding_idx < -e.nw || *padding_idx >= e.nw)
            return tsr_error_set(TSR_ERR_RUNTIME, "padding_idx must be within the number of embeddings, -%lld through "
                                 "%lld, but got %lld", (long long)e.nw, (long long)(e.nw - 1), (long long)*padding_idx), NULL;
        e.pad = *padding_idx < 0 ? *padding_idx + e.nw : *padding_idx;
    }
    tsr_dtype it = tsr_promote_types(indices->dtype, offsets->dtype);
    if (it != TSR_INT64 && it != TSR_INT32) {
        const tsr_tensor *shown = indices->dtype == it ? indices : offsets;
        tsr_tensor tmp = *shown;
        tmp.dtype = it;
        return type_refused(&tmp, "indices", "Long, Int"), NULL;
    }
    tsr_dtype wt = weight->dtype;
    if (wt != TSR_FLOAT16 && wt != TSR_FLOAT32 && wt != TSR_FLOAT64)
        return type_refused(weight, "weight", "Half, Float, Double"), NULL;
    e.n = tsr_tensor_numel(indices);
    int64_t no = offsets->ndim ? offsets->sizes[0] : 1;
    if (tsr_tensor_is_meta(weight) || tsr_tensor_is_meta(indices) || tsr_tensor_is_meta(offsets)) {
        /* the shapes alone: output (bags, features), offset2bag (indices), bag_size (bags),
         * max_indices (bags, features) for max, (bags) for mean, (0) for sum */
        int64_t nb = no - (include_last ? 1 : 0), dd = 1, os[2], z = 0;
        for (int i = 1; i < weight->ndim; i++) dd *= weight->sizes[i];
        os[0] = nb, os[1] = dd;
        tsr_tensor *r = tsr_empty(2, os, wt, TSR_META, TSR_MF_CONTIGUOUS);
        *o2b = tsr_empty(1, &e.n, it, TSR_META, TSR_MF_CONTIGUOUS);
        *bag_size = tsr_empty(1, &nb, it, TSR_META, TSR_MF_CONTIGUOUS);
        *max_ind = mode == 2 ? tsr_empty(2, os, it, TSR_META, TSR_MF_CONTIGUOUS)
                             : tsr_empty(1, mode == 1 ? &nb : &z, it, TSR_META, TSR_MF_CONTIGUOUS);
        if (!r || !*o2b || !*bag_size || !*max_ind) {
            tsr__take(&r, NULL);
            tsr__take(o2b, NULL);
            tsr__take(bag_size, NULL);
            tsr__take(max_ind, NULL);
        }
        return r;
    }
    if (no > 0) {
        int64_t o0 = tsr_tensor_get_int64_at(offsets, 0), on = tsr_tensor_get_int64_at(offsets, no - 1);
        if (o0 != 0)
            return tsr_error_set(TSR_ERR_RUNTIME, "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has "
                                 "to start from position 0. However, got %lld\n[ torch.%s{} ]", (long long)o0,
                                 tsr_dtype_traits_of(it)->tensor_type), NULL;
        if (on > e.n)
            return tsr_error_set(TSR_ERR_RUNTIME, "offsets[-1] can not be greater than input's length %lld but got "
                                 "offsets[-1] of %lld", (long long)e.n, (long long)on), NULL;
    }
    if (psw) {
        if (mode != 0)
            return tsr_error_set(TSR_ERR_RUNTIME, "embedding_bag: per_sample_weights only supported with mode='sum'"), NULL;
        char b1[64], b2[64];
        if (psw->dtype != wt)
            return tsr_error_set(TSR_ERR_RUNTIME, "Expected tensor for argument #1 'weight' to have the same type as "
                                 "tensor for argument #1 'per_sample_weights'; but type %s does not equal %s "
                                 "(while checking arguments for embedding_bag)", tsr_dtype_aten_type_string(wt, b1, sizeof b1),
                                 tsr_dtype_aten_type_string(psw->dtype, b2, sizeof b2)), NULL;
    }
    if (include_last && no < 1)
        return tsr_error_set(TSR_ERR_RUNTIME, "include_last_offset: number of offset should be at least 1"), NULL;
    e.nb = no - (include_last ? 1 : 0);
    e.ddim = 1;
    for (int i = 1; i < weight->ndim; i++) e.ddim *= weight->sizes[i];
    e.fast = (wt == TSR_FLOAT32 || wt == TSR_FLOAT16) && (weight->ndim < 2 || weight->strides[1] == 1 || weight->sizes[1] == 1) &&
             (!psw || psw->strides[0] == 1 || psw->sizes[0] == 1) && e.pad < 0;
    bool full_o2b = mode != 0 || !e.fast;
    tsr_tensor *out = NULL, *wc = NULL, *sc = NULL;
    int64_t *offv = int_values(offsets, no);
    e.ix = int_values(indices, e.n);
    e.offs = tsr_malloc((size_t)(e.nb + 1) * sizeof *e.offs);
    e.o2b = tsr_malloc((size_t)(e.n + 1) * sizeof *e.o2b);
    int64_t *bsz = tsr_malloc((size_t)(no + 1) * sizeof *bsz), *mind = NULL;
    int64_t osz[2] = {e.nb, e.ddim};
    if (!offv || !e.ix || !e.offs || !e.o2b || !bsz) goto fail;
    for (int64_t m = 0; m < e.nb; m++) e.offs[m] = offv[m];
    e.offs[e.nb] = include_last ? offv[e.nb] : e.n;
    /* make_offset2bag: ones added at every offset, minus one at 0, cumsum */
    for (int64_t i = 0; i <= e.n; i++) e.o2b[i] = 0;
    for (int64_t m = 0; m < no; m++)
        if (offv[m] >= 0 && offv[m] <= e.n) e.o2b[offv[m]]++;
    e.o2b[0]--;
    for (int64_t i = 1; i <= e.n; i++) e.o2b[i] += e.o2b[i - 1];
    /* make_bag_size: mean and max count each bag (the last to the end) */
    for (int64_t m = 0; m <= no; m++) bsz[m] = 0;
    if (mode != 0) {
        for (int64_t m = 0; m + 1 < e.nb; m++) bsz[m] = offv[m + 1] - offv[m];
        if (e.nb > 0) bsz[e.nb - 1] = e.n - offv[e.nb - 1];
    }
    if (ebag_check_indices(&e) < 0) goto fail;
    bool dbl = wt == TSR_FLOAT64;
    if (!(wc = contig_as(weight, dbl ? TSR_FLOAT64 : TSR_FLOAT32))) goto fail;
    if (psw && !(sc = contig_as(psw, dbl ? TSR_FLOAT64 : TSR_FLOAT32))) goto fail;
    if (!(out = tsr_empty(2, osz, dbl ? TSR_FLOAT64 : TSR_FLOAT32, TSR_CPU, TSR_MF_CONTIGUOUS))) goto fail;
    if (mode == 2) {
        if (!(*max_ind = tsr_zeros(2, osz, it, TSR_CPU))) goto fail;
        mind = tsr_malloc((size_t)(e.nb * e.ddim + 1) * sizeof *mind);
        if (!mind) goto fail;
        for (int64_t k = 0; k < e.nb * e.ddim; k++) mind[k] = 0;
    }
    int rc = dbl ? ebag_f64(&e, tsr_tensor_ptr(wc, NULL), sc ? tsr_tensor_ptr(sc, NULL) : NULL, tsr_tensor_ptr(out, NULL), bsz, mind)
                 : ebag_f32(&e, tsr_tensor_ptr(wc, NULL), sc ? tsr_tensor_ptr(sc, NULL) : NULL, tsr_tensor_ptr(out, NULL), bsz, mind);
    if (rc < 0) goto fail;
    if (wt == TSR_FLOAT16 && !tsr__take(&out, tsr_to_dtype(out, wt, false))) goto fail;
    if (mode == 1) {   /* output /= max(bag_size, 1), in the output's dtype */
        int64_t bs[2] = {e.nb, 1};
        tsr_tensor *d = tsr_empty(2, bs, wt, TSR_CPU, TSR_MF_CONTIGUOUS);
        if (!d) goto fail;
        for (int64_t m = 0; m < e.nb; m++) tsr_tensor_set_at(d, m, tsr_scalar_int(bsz[m] > 1 ? bsz[m] : 1));
        tsr__take(&out, bin2(TSR_BINOP_DIV, out, d));
        tsr_tensor_release(d);
        if (!out) goto fail;
    }
    /* the other results: offset2bag (empty on the fast sum path), bag_size
     * (zeros of offsets' size for sum), max_indices (sum: zeros, mean: bag_size) */
    int64_t n1 = full_o2b ? e.n : 0, nbs = mode == 0 ? no : e.nb;
    if (!(*o2b = tsr_empty(1, &n1, it, TSR_CPU, TSR_MF_CONTIGUOUS)) ||
        !(*bag_size = tsr_empty(1, &nbs, it, TSR_CPU, TSR_MF_CONTIGUOUS)))
        goto fail;
    for (int64_t i = 0; i < n1; i++) tsr_tensor_set_at(*o2b, i, tsr_scalar_int(e.o2b[i]));
    for (int64_t m = 0; m < nbs; m++) tsr_tensor_set_at(*bag_size, m, tsr_scalar_int(bsz[m]));
    if (mode == 2) {
        for (int64_t k = 0; k < e.nb * e.ddim; k++) tsr_tensor_set_at(*max_ind, k, tsr_scalar_int(mind[k]));
    } else if (!(*max_ind = mode == 0 ? tsr_zeros(1, &nbs, it, TSR_CPU) : tsr_clone(*bag_size, TSR_MF_CONTIGUOUS))) {
        goto fail;
    }
    goto done;
fail:
    tsr__take(&out, NULL);
    tsr__take(o2b, NULL);
    tsr__take(bag_size, NULL);
    tsr__take(max_ind, NULL);
done:
    tsr_free(offv);
    tsr_free(e.ix);
    tsr_free(e.offs);
    tsr_free(e.o2b);
    tsr_free(bsz);
    tsr_free(mind);
    tsr_tensor_release(wc);
    tsr_tensor_release(sc);
    return out;
}

/* EmbeddingBagBackward0: 1.13's _embedding_bag_dense_backward (sum / mean:
 * the indices in sorted order, each row of the gradient added with
 * fma(scale, g[bag], .); max: index_add_ of each non-empty bag's gradient at
 * its max_indices) and _embedding_bag_per_sample_weights_backward (the dot
 * of g[bag] with weight[index], in order). Computed in float for float32 /
 * float16 and double for float64. */
#define EBAG_BW(NAME, T, FMA, RND)                                                                                       \
    static void NAME(const ebag *e, const int64_t *bsz, const int64_t *mind, const int64_t *order,                   \
                     const int64_t *counts, const T *g, const T *scale, T *gw, bool freq)                             \
    {                                                                                                                 \
        if (gw && e->mode == 2) {                                                                                     \
            for (int64_t m = 0; m < e->nb; m++)                                                                       \
                if (bsz[m] != 0)                                                                                      \
                    for (int64_t d = 0; d < e->ddim; d++) {                                                           \
                        T *o = gw + mind[m * e->ddim + d] * e->ddim + d;                                              \
                        *o = RND(*o + g[m * e->ddim + d]);                                                            \
                    }                                                                                                 \
        } else if (gw) {                                                                                              \
            int64_t grp = -1;                                                                                         \
            for (int64_t k = 0; k < e->n; k++) {                                                                      \
                int64_t i = order[k], idx = e->ix[i], bag = e->o2b[i];                                                \
                if (k == 0 || idx != e->ix[order[k - 1]]) grp++;                                                      \
                if (idx == e->pad || bag >= e->nb) continue;                                                          \
                double s = scale ? (double)scale[i] : 1.0;                                                            \
                /* 1.13 divides by counts[sorted_indices[group ordinal]] */                                           \
                if (freq) s /= (double)counts[e->ix[order[grp]]];                                                     \
                if (e->mode == 1 && bsz[bag] != 0) s /= (double)bsz[bag];                                             \
                T st = RND((T)s), *o = gw + idx * e->ddim;                                                            \
                const T *gr = g + bag * e->ddim;                                                                      \
                for (int64_t d = 0; d < e->ddim; d++) o[d] = FMA(st, gr[d], o[d]);                                    \
            }                                                                                                         \
        }                                                                                                             \
    }
static inline float ident_f(float x) { return x; }
static inline double ident_d(double x) { return x; }
/* float16 in float: each result rounded to half (c10::Half arithmetic) */
static inline float hround(float x) { return tsr_half_to_float(tsr_float_to_half(x)); }
static inline float half_muladd(float a, float x, float y) { return hround(y + hround(a * x)); }
EBAG_BW(ebag_bw_f32, float, fmaf, ident_f)
EBAG_BW(ebag_bw_f16, float, half_muladd, hround)
EBAG_BW(ebag_bw_f64, double, fma, ident_d)

/* _embedding_bag_sparse_backward: index_grad = grad.index_select(0,
 * offset2bag), times (1 / bag_size) at each row's bag for mean
 * (apply_bag_size_backward) and per_sample_weights.unsqueeze(1) for sum,
 * each in the gradient's dtype, then embedding_sparse_backward (the rows at
 * padding_idx dropped). NEW sparse COO tensor or NULL. */
static tsr_tensor *ebag_sparse_grad(const ebag *e, const tsr_tensor *g, const tsr_tensor *ix, const tsr_tensor *bs,
                                    const tsr_tensor *psw, int64_t num_weights)
{
    tsr_tensor *o2b = tsr_tensor_empty(1, &e->n, TSR_INT64, TSR_CPU), *ig = NULL, *t = NULL, *r = NULL;
    if (!o2b) return NULL;
    int64_t *ov = tsr_tensor_ptr(o2b, NULL);
    for (int64_t i = 0; i < e->n; i++) ov[i] = e->o2b[i];
    if (!(ig = tsr_index_select(g, 0, o2b))) goto out;
    if (e->mode == 1) {   /* (1 / bag_size.to(grad)).unsqueeze(1).index_select(0, offset2bag) */
        tsr_operand one = tsr_operand_scalar(tsr_scalar_int(1)), b;
        int64_t col[2] = {-1, 1};
        if (!(t = tsr_to_dtype(bs, g->dtype, false))) goto out;
        b = tsr_operand_tensor(t);
        if (!tsr__take(&t, tsr_binary(TSR_BINOP_DIV, &one, &b, NULL, NULL)) || !tsr__take(&t, tsr_reshape(t, 2, col)) ||
            !tsr__take(&t, tsr_index_select(t, 0, o2b)))
            goto out;
    } else if (psw) {   /* index_grad.mul_(per_sample_weights.unsqueeze(1)) */
        int64_t col[2] = {-1, 1};
        if (!(t = tsr_reshape(psw, 2, col))) goto out;
    }
    if (t) {
        tsr_operand b = tsr_operand_tensor(t);
        tsr_tensor *m = tsr_binary_(TSR_BINOP_MUL, ig, &b, NULL);
        if (!m) goto out;
        tsr_tensor_release(m);
    }
    r = tsr_nn_embedding_sparse_backward(ig, ix, num_weights, e->pad);
out:
    tsr_tensor_release(o2b);
    tsr_tensor_release(ig);
    tsr_tensor_release(t);
    return r;
}

int tsr__bw_embedding_bag(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (n->released) {
        SAVED(0);
        c->fail = true;
    }
    if (!c->fail && n->nextra < 4) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: the indices were not kept", n->name);
        c->fail = true;
    }
    if (c->fail) return finish(c, n, gin);
    tsr_tensor *w = SAVED(0), *psw = NEED(1) || n->saved[1].t ? SAVED(1) : NULL;
    if (c->fail) return finish(c, n, gin);
    const tsr_tensor *ix = n->extra[0], *off = n->extra[1], *bs = n->extra[2], *mi = n->extra[3];
    ebag e = {.mode = (int)n->a.i0, .pad = n->a.i1, .nb = n->a.i2};
    e.n = tsr_tensor_numel(ix);
    e.nw = w->ndim ? w->sizes[0] : 1;
    e.ddim = 1;
    for (int i = 1; i < w->ndim; i++) e.ddim *= w->sizes[i];
    int64_t no = off->ndim ? off->sizes[0] : 1, nbs = tsr_tensor_numel(bs);
    int64_t *offv = int_values(off, no), *bsz = int_values(bs, nbs), *mind = e.mode == 2 ? int_values(mi, e.nb * e.ddim) : NULL;
    e.ix = int_values(ix, e.n);
    e.o2b = tsr_malloc((size_t)(e.n + 1) * sizeof *e.o2b);
    int64_t *order = tsr_malloc((size_t)(e.n + 1) * sizeof *order), *counts = tsr_calloc((size_t)(e.nw + 1), sizeof *counts);
    bool dbl = w->dtype == TSR_FLOAT64;
    tsr_dtype ct = dbl ? TSR_FLOAT64 : TSR_FLOAT32;
    tsr_tensor *gc = keep(c, contig_as(g, ct)), *wc = keep(c, contig_as(w, ct)), *sc = psw ? keep(c, contig_as(psw, ct)) : NULL;
    tsr_tensor *gw = NEED(0) ? keep(c, tsr_zeros(w->ndim, w->sizes, ct, TSR_CPU)) : NULL;
    tsr_tensor *gs = NEED(1) ? keep(c, tsr_zeros(1, &e.n, ct, TSR_CPU)) : NULL;
    if (!offv || !bsz || (e.mode == 2 && !mind) || !e.ix || !e.o2b || !order || !counts || c->fail) {
        c->fail = true;
        goto done;
    }
    for (int64_t i = 0; i <= e.n; i++) e.o2b[i] = 0;
    for (int64_t m = 0; m < no; m++)
        if (offv[m] >= 0 && offv[m] <= e.n) e.o2b[offv[m]]++;
    e.o2b[0]--;
    for (int64_t i = 1; i <= e.n; i++) e.o2b[i] += e.o2b[i - 1];
    /* the positions in the order of 1.13's indices.sort() (std::sort) */
    for (int64_t i = 0; i < e.n; i++) counts[e.ix[i]]++;
    if (gw && e.mode != 2) {
        tsr_tensor *sv = NULL, *si = NULL, *i64 = keep(c, tsr_to_dtype(ix, TSR_INT64, false));
        if (!i64 || tsr_sort(i64, 0, false, false, NULL, NULL, &sv, &si) < 0) {
            c->fail = true;
            goto done;
        }
        keep(c, sv);
        keep(c, si);
        for (int64_t k = 0; k < e.n; k++) order[k] = tsr_tensor_get_int64_at(si, k);
    }
    if (n->a.keepdim && NEED(0)) {   /* sparse=True */
        if (n->a.flag) {
            tsr_error_set(TSR_ERR_RUNTIME, "embedding_backward: scale_grad_by_freq not supported with sparse gradients");
            c->fail = true;
            goto done;
        }
        tsr_tensor *gd = keep(c, tsr_contiguous(g, TSR_MF_CONTIGUOUS));
        give(c, gin, 0, gd ? keep(c, ebag_sparse_grad(&e, gd, ix, bs, psw, e.nw)) : NULL);
        gw = NULL;
    }
    if (gw && dbl)
        ebag_bw_f64(&e, bsz, mind, order, counts, tsr_tensor_ptr(gc, NULL), sc ? tsr_tensor_ptr(sc, NULL) : NULL,
                    tsr_tensor_ptr(gw, NULL), n->a.flag);
    else if (gw && w->dtype == TSR_FLOAT16)
        ebag_bw_f16(&e, bsz, mind, order, counts, tsr_tensor_ptr(gc, NULL), sc ? tsr_tensor_ptr(sc, NULL) : NULL,
                    tsr_tensor_ptr(gw, NULL), n->a.flag);
    else if (gw)
        ebag_bw_f32(&e, bsz, mind, order, counts, tsr_tensor_ptr(gc, NULL), sc ? tsr_tensor_ptr(sc, NULL) : NULL,
                    tsr_tensor_ptr(gw, NULL), n->a.flag);
    /* per_sample_weights: dot(g[bag], weight[index]) as torch.dot computes it,
     * over the gradient's and weight's own strides (1.13's dot_impl gets
     * grad.strides(): a stride-0 gradient from sum() takes BLAS's strided
     * path) */
    const tsr_tensor *gd = g->dtype == ct ? g : gc, *wd = w->dtype == ct ? w : wc;
    for (int64_t i = 0; gs && i < e.n && !c->fail; i++) {
        int64_t idx = e.ix[i], bag = e.o2b[i];
        if (idx == e.pad || bag >= e.nb) continue;
        tsr_tensor *gr = tsr_view_select(gd, 0, bag), *wr = gr ? tsr_view_select(wd, 0, idx) : NULL;
        tsr_tensor *dt = wr ? tsr_dot(gr, wr, NULL) : NULL;
        if (dt) tsr_tensor_set_at(gs, i, tsr_scalar_float(tsr_tensor_get_double_at(dt, 0)));
        else c->fail = true;
        tsr_tensor_release(gr);
        tsr_tensor_release(wr);
        tsr_tensor_release(dt);
    }
    if (gw) give(c, gin, 0, w->dtype == ct ? gw : keep(c, tsr_to_dtype(gw, w->dtype, false)));
    if (gs) give(c, gin, 1, psw->dtype == ct ? gs : keep(c, tsr_to_dtype(gs, psw->dtype, false)));
done:
    tsr_free(offv);
    tsr_free(bsz);
    tsr_free(mind);
    tsr_free(e.ix);
    tsr_free(e.o2b);
    tsr_free(order);
    tsr_free(counts);
    return finish(c, n, gin);
}

/* ------------------------------------------------------------ ctc_loss */

typedef struct {
    int64_t T, N, C, S;             /* input length bound, batch, labels, 2 * max target length + 1 */
    int64_t blank, tstride;
    const int64_t *il, *tl, *toff;  /* per batch: lengths, offset of its targets */
    const int64_t *tg;              /* the targets (int64, strided by tstride) */
} ctc;

static inline int64_t ctc_prime(const ctc *k, int64_t b, int64_t s)
{
    return s % 2 == 0 ? k->blank : k->tg[k->toff[b] + k->tstride * (s / 2)];
}

/* alpha (forward) and the nll of every batch item; lp[(b * T + t) * C + c]
 * (the (N, T, C) copy), la[(b * T + t) * S + s] */
#define CTC_FWD(NAME, T_, EXP, LOG)                                                                                    \
    static int NAME(const ctc *k, const T_ *lp, T_ *la, T_ *nll)                                                      \
    {                                                                                                                  \
        const T_ ninf = -(T_)INFINITY;                                                                                 \
        for (int64_t b = 0; b < k->N; b++)                                                                             \
            for (int64_t s = 0; s < k->S; s++) la[(b * k->T) * k->S + s] = ninf;                                     \
        for (int64_t b = 0; b < k->N; b++) {                                                                           \
            if (tsr_check_interrupt() < 0) return -1;                                                                  \
            int64_t in = k->il[b], tn = k->tl[b];                                                                      \
            const T_ *lpb = lp + b * k->T * k->C;                                                                      \
            T_ *lab = la + b * k->T * k->S;                                                                            \
            lab[0] = lpb[k->blank];                                                                                    \
            if (tn > 0) lab[1] = lpb[ctc_prime(k, b, 1)];                                                              \
            for (int64_t t = 1; t < in; t++)                                                                           \
                for (int64_t s = 0; s < 2 * tn + 1; s++) {                                                             \
                    int64_t cur = ctc_prime(k, b, s);                                                                  \
                    T_ la1 = lab[(t - 1) * k->S + s], lamax = la1, la2, la3;                                           \
                    if (s > 0) {                                                                                       \
                        la2 = lab[(t - 1) * k->S + s - 1];                                                             \
                        if (la2 > lamax) lamax = la2;                                                                  \
                    } else {                                                                                           \
                        la2 = ninf;                                                                                    \
                    }                                                                                                  \
                    if (s > 1 && ctc_prime(k, b, s - 2) != cur) {                                                      \
                        la3 = lab[(t - 1) * k->S + s - 2];                                                             \
                        if (la3 > lamax) lamax = la3;                                                                  \
                    } else {                                                                                           \
                        la3 = ninf;                                                                                    \
                    }                                                                                                  \
                    if (lamax == ninf) lamax = 0;                                                                      \
                    lab[t * k->S + s] = LOG(EXP(la1 - lamax) + EXP(la2 - lamax) + EXP(la3 - lamax)) + lamax +          \
                                        lpb[t * k->C + cur];                                                           \
                }                                                                                                      \
            if (tn == 0) {                                                                                             \
                nll[b] = -lab[(in - 1) * k->S];                                                                        \
            } else {                                                                                                   \
                T_ l1 = lab[(in - 1) * k->S + tn * 2], l2 = lab[(in - 1) * k->S + tn * 2 - 1];                         \
                T_ m = l1 > l2 ? l1 : l2;                                                                              \
                m = m == ninf ? 0 : m;                                                                                 \
                nll[b] = -(LOG(EXP(l1 - m) + EXP(l2 - m)) + m);                                                        \
            }                                                                                                          \
        }                                                                                                              \
        return 0;                                                                                                      \
    }
CTC_FWD(ctc_fwd_f32, float, expf, logf)
CTC_FWD(ctc_fwd_f64, double, exp, log)

/* the backward: beta, the log-sums of alpha * beta per label, then
 * grad = (exp(lp) - exp(res + nll - lp)) * g[b]; gr (N, T, C) */
#define CTC_BWD(NAME, T_, EXP, LOG)                                                                                    \
    static int NAME(const ctc *k, const T_ *lp, const T_ *la, const T_ *nll, const T_ *go, T_ *lb, T_ *gr, bool zinf) \
    {                                                                                                                  \
        const T_ ninf = -(T_)INFINITY;                                                                                 \
        for (int64_t q = 0; q < k->N * k->T * k->C; q++) gr[q] = ninf;                                                \
        for (int64_t b = 0; b < k->N; b++) {                                                                           \
            if (tsr_check_interrupt() < 0) return -1;                                                                  \
            T_ *grb = gr + b * k->T * k->C;                                                                            \
            T_ nl = nll[b];                                                                                            \
            if (zinf && nl == (T_)INFINITY) {                                                                          \
                for (int64_t q = 0; q < k->T * k->C; q++) grb[q] = 0;                                                  \
                continue;                                                                                              \
            }                                                                                                          \
            int64_t in = k->il[b], tn = k->tl[b];                                                                      \
            const T_ *lpb = lp + b * k->T * k->C, *lab = la + b * k->T * k->S;                                         \
            T_ *lbb = lb + b * k->T * k->S;                                                                            \
            if (in > 0) {                                                                                              \
                for (int64_t s = 0; s < k->S; s++) lbb[(in - 1) * k->S + s] = ninf;                                   \
                lbb[(in - 1) * k->S + 2 * tn] = lpb[(in - 1) * k->C + k->blank];                                      \
                grb[(in - 1) * k->C + k->blank] = lab[(in - 1) * k->S + 2 * tn] + lbb[(in - 1) * k->S + 2 * tn];       \
                if (tn > 0) {                                                                                          \
                    int64_t cur = ctc_prime(k, b, 2 * tn - 1);                                                         \
                    lbb[(in - 1) * k->S + 2 * tn - 1] = lpb[(in - 1) * k->C + cur];                                    \
                    grb[(in - 1) * k->C + cur] = lab[(in - 1) * k->S + 2 * tn - 1] + lbb[(in - 1) * k->S + 2 * tn - 1]; \
                }                                                                                                      \
            }                                                                                                          \
            for (int64_t t = in - 2; t >= 0; t--)                                                                      \
                for (int64_t s = 2 * tn; s >= 0; s--) {                                                                \
                    T_ lb1 = lbb[(t + 1) * k->S + s], lbmax = lb1, lb2, lb3;                                           \
                    int64_t cur = ctc_prime(k, b, s);                                                                  \
                    if (s < 2 * tn) {                                                                                  \
                        lb2 = lbb[(t + 1) * k->S + s + 1];                                                             \
                        if (lb2 > lbmax) lbmax = lb2;                                                                  \
                    } else {                                                                                           \
                        lb2 = ninf;                                                                                    \
                    }                                                                                                  \
                    if (s < 2 * tn - 1 && ctc_prime(k, b, s + 2) != cur) {                                             \
                        lb3 = lbb[(t + 1) * k->S + s + 2];                                                             \
                        if (lb3 > lbmax) lbmax = lb3;                                                                  \
                    } else {                                                                                           \
                        lb3 = ninf;                                                                                    \
                    }                                                                                                  \
                    if (lbmax == ninf) lbmax = 0;                                                                      \
                    lbb[t * k->S + s] = LOG(EXP(lb1 - lbmax) + EXP(lb2 - lbmax) + EXP(lb3 - lbmax)) + lbmax +          \
                                        lpb[t * k->C + cur];                                                           \
                    T_ lab_ = lab[t * k->S + s] + lbb[t * k->S + s], *lcab = &grb[t * k->C + cur];                     \
                    if (*lcab == ninf) {                                                                               \
                        *lcab = lab_;                                                                                  \
                    } else {                                                                                           \
                        T_ mx = *lcab > lab_ ? *lcab : lab_;                                                           \
                        *lcab = LOG(EXP(*lcab - mx) + EXP(lab_ - mx)) + mx;                                            \
                    }                                                                                                  \
                }                                                                                                      \
            T_ g = go[b];                                                                                              \
            for (int64_t t = 0; t < in; t++)                                                                           \
                for (int64_t c = 0; c < k->C; c++) {                                                                   \
                    T_ *res = &grb[t * k->C + c], l = lpb[t * k->C + c];                                               \
                    *res = (EXP(l) - EXP(*res + nl - l)) * g;                                                          \
                }                                                                                                      \
            for (int64_t q = (in > 0 ? in : 0) * k->C; q < k->T * k->C; q++) grb[q] = 0;                               \
        }                                                                                                              \
        return 0;                                                                                                      \
    }
CTC_BWD(ctc_bwd_f32, float, expf, logf)
CTC_BWD(ctc_bwd_f64, double, exp, log)

/* the (N, T, C) contiguous copy of log_probs (T, N, C) */
static tsr_tensor *ctc_ntc(const tsr_tensor *lp)
{
    tsr_tensor *v = tsr_view_transpose(lp, 0, 1), *r = v ? tsr_contiguous(v, TSR_MF_CONTIGUOUS) : NULL;
    tsr_tensor_release(v);
    return r;
}

/* 1.13's checks; fills k (toff: n entries the caller provides). 0 or -1. */
static int ctc_setup(ctc *k, const tsr_tensor *lp, const tsr_tensor *tg, int64_t nil, const int64_t *il, int64_t ntl,
                     const int64_t *tl, int64_t blank, int64_t *toff)
{
    const char *c = "ctc_loss_cpu";
    if (lp->dtype != TSR_FLOAT32 && lp->dtype != TSR_FLOAT64)
        return tsr_error_set(TSR_ERR_RUNTIME, "\"ctc_loss_cpu\" not implemented for '%s'", tsr_dtype_scalar_name(lp->dtype)), -1;
    if (lp->ndim != 3)
        return tsr_error_set(TSR_ERR_RUNTIME, "Expected 3-dimensional tensor, but got %d-dimensional tensor for argument "
                             "#1 'log_probs' (while checking arguments for %s)", lp->ndim, c), -1;
    if (tg->ndim < 1 || tg->ndim > 2)
        return tsr_error_set(TSR_ERR_RUNTIME, "Expected 1 to 2 dimensions, but got %d-dimensional tensor for argument #2 "
                             "'targets' (while checking arguments for %s)", tg->ndim, c), -1;
    k->T = lp->sizes[0];
    k->N = lp->sizes[1];
    k->C = lp->sizes[2];
    if (!(blank >= 0 && blank < k->C)) return tsr_error_set(TSR_ERR_RUNTIME, "blank must be in label range"), -1;
    if (nil != k->N) return tsr_error_set(TSR_ERR_RUNTIME, "input_lengths must be of size batch_size"), -1;
    if (ntl != k->N) return tsr_error_set(TSR_ERR_RUNTIME, "target_lengths must be of size batch_size"), -1;
    int64_t maxt = 0;
    if (tg->ndim == 1) {
        int64_t pos = 0;
        for (int64_t b = 0; b < k->N; b++) {
            toff[b] = pos;
            pos += tl[b];
            if (maxt < tl[b]) maxt = tl[b];
        }
        k->tstride = tg->strides[0];
        if (tg->sizes[0] != pos)
            return tsr_error_set(TSR_ERR_RUNTIME, "Expected tensor to have size %lld at dimension 0, but got size %lld for "
                                 "argument #2 'targets' (while checking arguments for %s)", (long long)pos,
                                 (long long)tg->sizes[0], c), -1;
    } else {
        for (int64_t b = 0; b < k->N; b++) {
            toff[b] = b * tg->strides[0];
            if (maxt < tl[b]) maxt = tl[b];
        }
        k->tstride = tg->strides[1];
        if (tg->sizes[0] != k->N)
            return tsr_error_set(TSR_ERR_RUNTIME, "Expected tensor to have size %lld at dimension 0, but got size %lld for "
                                 "argument #2 'targets' (while checking arguments for %s)", (long long)k->N,
                                 (long long)tg->sizes[0], c), -1;
        if (tg->sizes[1] < maxt)
            return tsr_error_set(TSR_ERR_RUNTIME, "Expected tensor to have size at least %lld at dimension 1, but got size "
                                 "%lld for argument #2 'targets' (while checking arguments for %s)", (long long)maxt,
                                 (long long)tg->sizes[1], c), -1;
    }
    for (int64_t b = 0; b < k->N; b++)
        if (il[b] > k->T)
            return tsr_error_set(TSR_ERR_RUNTIME, "Expected input_lengths to have value at most %lld, but got value %lld "
                                 "(while checking arguments for %s)", (long long)k->T, (long long)il[b], c), -1;
    for (int64_t b = 0; b < k->N; b++)
        if (il[b] < 1 || tl[b] < 0)
            return tsr_error_set(TSR_ERR_RUNTIME, "ctc_loss: tsr needs input_lengths >= 1 and target_lengths >= 0 "
                                 "(1.13 reads outside log_alpha)"), -1;
    k->S = 2 * maxt + 1;
    k->blank = blank;
    k->il = il;
    k->tl = tl;
    k->toff = toff;
    k->tg = tsr_tensor_ptr(tg, NULL);
    return 0;
}

tsr_tensor *tsr_nn_ctc_loss(const tsr_tensor *log_probs, const tsr_tensor *targets, int64_t nil, const int64_t *il,
                            int64_t ntl, const int64_t *tl, int64_t blank, tsr_tensor **log_alpha)
{
    *log_alpha = NULL;
    if (tsr_tensor_is_meta(log_probs) || tsr_tensor_is_meta(targets))
        return tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "Could not run 'aten::_ctc_loss' with arguments from the 'Meta' "
                             "backend. This could be because the operator doesn't exist for this backend, or was omitted "
                             "during the selective/custom build process (if using custom build). If you are a Facebook "
                             "employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes for possible "
                             "resolutions. 'aten::_ctc_loss' is only available for these backends: [CPU, BackendSelect, "
                             "Python, FuncTorchDynamicLayerBackMode, Functionalize, Named, Conjugate, Negative, ZeroTensor, "
                             "ADInplaceOrView, AutogradOther, AutogradCPU, AutogradCUDA, AutogradHIP, AutogradXLA, "
                             "AutogradMPS, AutogradIPU, AutogradXPU, AutogradHPU, AutogradVE, AutogradLazy, AutogradMeta, "
                             "AutogradPrivateUse1, AutogradPrivateUse2, AutogradPrivateUse3, AutogradNestedTensor, Tracer, "
                             "AutocastCPU, AutocastCUDA, FuncTorchBatched, FuncTorchVmapMode, Batched, VmapMode, "
                             "FuncTorchGradWrapper, PythonTLSSnapshot, FuncTorchDynamicLayerFrontMode, PythonDispatcher]."),
               NULL;
    ctc k = {0};
    int64_t n = log_probs->ndim == 3 ? log_probs->sizes[1] : 0;
    int64_t *toff = tsr_malloc((size_t)(n + 1) * sizeof *toff);
    tsr_tensor *lp = NULL, *nll = NULL;
    if (!toff || ctc_setup(&k, log_probs, targets, nil, il, ntl, tl, blank, toff) < 0) goto fail;
    int64_t asz[3] = {k.N, k.T, k.S};
    if (!(lp = ctc_ntc(log_probs)) || !(*log_alpha = tsr_empty(3, asz, log_probs->dtype, TSR_CPU, TSR_MF_CONTIGUOUS)) ||
        !(nll = tsr_empty(1, &k.N, log_probs->dtype, TSR_CPU, TSR_MF_CONTIGUOUS)))
        goto fail;
    /* the rows past each input length are never read: zeros rather than 1.13's uninitialised memory */
    memset(tsr_tensor_ptr(*log_alpha, NULL), 0, (size_t)tsr_tensor_nbytes(*log_alpha));
    int rc = log_probs->dtype == TSR_FLOAT64
                 ? ctc_fwd_f64(&k, tsr_tensor_ptr(lp, NULL), tsr_tensor_ptr(*log_alpha, NULL), tsr_tensor_ptr(nll, NULL))
                 : ctc_fwd_f32(&k, tsr_tensor_ptr(lp, NULL), tsr_tensor_ptr(*log_alpha, NULL), tsr_tensor_ptr(nll, NULL));
    if (rc < 0) goto fail;
    goto done;
fail:
    tsr__take(&nll, NULL);
    tsr__take(log_alpha, NULL);
done:
    tsr_tensor_release(lp);
    tsr_free(toff);
    return nll;
}

int tsr__bw_ctc_loss(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    tsr_tensor *lp = SAVED(0), *nll = SAVED(TSR_AG_OUT);
    if (!c->fail && tsr__ag_creating()) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for '_ctc_loss_backward' is not implemented.");
        c->fail = true;
    }
    if (!c->fail && n->nextra < 4) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s: the targets were not kept", n->name);
        c->fail = true;
    }
    if (c->fail || !NEED(0)) return finish(c, n, gin);
    const tsr_tensor *tg = n->extra[0], *la = n->extra[1], *ilt = n->extra[2], *tlt = n->extra[3];
    ctc k = {0};
    int64_t nb = tsr_tensor_numel(ilt), *toff = tsr_malloc((size_t)(nb + 1) * sizeof *toff);
    if (!toff || ctc_setup(&k, lp, tg, nb, tsr_tensor_ptr(ilt, NULL), tsr_tensor_numel(tlt), tsr_tensor_ptr(tlt, NULL),
                           n->a.i0, toff) < 0) {
        tsr_free(toff);
        c->fail = true;
        return finish(c, n, gin);
    }
    tsr_dtype dt = lp->dtype;
    tsr_tensor *lpc = keep(c, ctc_ntc(lp)), *gc = keep(c, contig_as(g, dt)), *nc = keep(c, contig_as(nll, dt));
    tsr_tensor *lb = keep(c, tsr_empty(la->ndim, la->sizes, dt, TSR_CPU, TSR_MF_CONTIGUOUS));
    int64_t gsz[3] = {k.N, k.T, k.C};
    tsr_tensor *gr = keep(c, tsr_empty(3, gsz, dt, TSR_CPU, TSR_MF_CONTIGUOUS));
    if (!c->fail) {
        memset(tsr_tensor_ptr(lb, NULL), 0, (size_t)tsr_tensor_nbytes(lb));
        int rc = dt == TSR_FLOAT64 ? ctc_bwd_f64(&k, tsr_tensor_ptr(lpc, NULL), tsr_tensor_ptr(la, NULL), tsr_tensor_ptr(nc, NULL),
                                                 tsr_tensor_ptr(gc, NULL), tsr_tensor_ptr(lb, NULL), tsr_tensor_ptr(gr, NULL), n->a.flag)
                                   : ctc_bwd_f32(&k, tsr_tensor_ptr(lpc, NULL), tsr_tensor_ptr(la, NULL), tsr_tensor_ptr(nc, NULL),
                                                 tsr_tensor_ptr(gc, NULL), tsr_tensor_ptr(lb, NULL), tsr_tensor_ptr(gr, NULL), n->a.flag);
        if (rc < 0) c->fail = true;
    }
    /* (N, T, C) back to log_probs' (T, N, C), contiguous */
    tsr_tensor *tr = gr ? keep(c, tsr_view_transpose(gr, 0, 1)) : NULL;
    if (tr) give(c, gin, 0, keep(c, tsr_contiguous(tr, TSR_MF_CONTIGUOUS)));
    tsr_free(toff);
    return finish(c, n, gin);
}
