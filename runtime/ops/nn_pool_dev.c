/* runtime/ops/nn_pool_dev.c — max / avg / adaptive pooling on a device
 * (cuda) and their backward, composed of device-aware ops: the input padded
 * (-inf for max, zeros for avg) by a fill and a copy into a narrowed view,
 * the windows as an as_strided view, max(dim) / sum on the device. What
 * depends on sizes only is built on the host and moved over: each window
 * element's flat plane index (the max kinds' indices, gathered at the
 * argmax; a padding element maps to the window's first valid one, where
 * 1.13's kernels start), each window's divisor. Adaptive windows differ in
 * size: one narrowed view per output position. Backward: a scatter-add of
 * grad_output at the indices (max), grad_output / divisor added into each
 * kernel offset's strided view of the padded gradient (avg). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn_pool_dev.h"
#include "binary.h"
#include "compare.h"
#include "rearrange.h"
#include "copy.h"
#include "factory.h"
#include "reduce.h"
#include "scatter.h"
#include "../device.h"
#include "../error.h"
#include "../internal.h"
#include "../view.h"

static tsr_tensor *take(tsr_tensor **t, tsr_tensor *r)
{
    tsr_tensor_release(*t);
    *t = r;
    return r;
}

static tsr_tensor *reshape(const tsr_tensor *t, int n, const int64_t *sizes)
{
    tsr_tensor *c = tsr_contiguous(t, TSR_MF_CONTIGUOUS), *r = c ? tsr_view_view(c, n, sizes) : NULL;
    tsr_tensor_release(c);
    return r;
}

/* n int64 (or, dt floating, double) host values as a tensor of sizes on dev */
static tsr_tensor *from_host(int nd, const int64_t *sizes, const int64_t *iv, const double *dv, tsr_dtype dt,
                             tsr_device dev)
{
    tsr_tensor *h = tsr_tensor_empty(nd, sizes, iv ? TSR_INT64 : TSR_FLOAT64, TSR_CPU);
    if (!h) return NULL;
    int64_t n = tsr_tensor_numel(h);
    if (n) memcpy(tsr_tensor_ptr(h, NULL), iv ? (const void *)iv : (const void *)dv, (size_t)n * 8);
    tsr_tensor *r = tsr_to_device(h, dev, dt, false);
    tsr_tensor_release(h);
    return r;
}

/* x (N, C, S...) widened by lo / hi (>= 0) per spatial dim, filled with v */
static tsr_tensor *pad_fill(const tsr_tensor *x, int nd, const int64_t *lo, const int64_t *hi, tsr_scalar v)
{
    bool same = true;
    for (int i = 0; i < nd; i++) same = same && lo[i] == 0 && hi[i] == 0;
    if (same) return tsr_tensor_retain((tsr_tensor *)x);
    int64_t sz[5] = {x->sizes[0], x->sizes[1]};
    for (int i = 0; i < nd; i++) sz[i + 2] = x->sizes[i + 2] + lo[i] + hi[i];
    tsr_tensor *r = tsr_tensor_empty(nd + 2, sz, x->dtype, x->device), *dst = NULL;
    if (!r || tsr_fill_(r, v) < 0) return take(&r, NULL);
    dst = tsr_tensor_retain(r);
    for (int i = 0; dst && i < nd; i++) take(&dst, tsr_view_narrow(dst, i + 2, lo[i], x->sizes[i + 2]));
    if (!dst || tsr_copy_(dst, x) < 0) take(&r, NULL);
    tsr_tensor_release(dst);
    return r;
}

/* (N, C, o..., k...) windows of the padded xp */
static tsr_tensor *windows(const tsr_tensor *xp, const tsr_pool_geom *g, const int64_t *dil)
{
    int nd = g->nd;
    int64_t sz[8] = {xp->sizes[0], xp->sizes[1]}, st[8] = {xp->strides[0], xp->strides[1]};
    for (int i = 0; i < nd; i++) {
        sz[2 + i] = g->o[i], st[2 + i] = g->s[i] * xp->strides[i + 2];
        sz[2 + nd + i] = g->k[i], st[2 + nd + i] = dil[i] * xp->strides[i + 2];
    }
    return tsr_view_as_strided(xp, 2 + 2 * nd, sz, st, TSR_VIEW_KEEP_OFFSET);
}

static int64_t prod(int n, const int64_t *v)
{
    int64_t p = 1;
    for (int i = 0; i < n; i++) p *= v[i];
    return p;
}

/* the i-th position of sizes (row-major) into idx */
static void unravel(int n, const int64_t *sizes, int64_t i, int64_t *idx)
{
    for (int d = n - 1; d >= 0; d--) {
        idx[d] = sizes[d] ? i % sizes[d] : 0;
        i = sizes[d] ? i / sizes[d] : 0;
    }
}

/* right padding so that every window fits (never negative) */
static void pads(const tsr_pool_geom *g, const int64_t *S, const int64_t *dil, int64_t *lo, int64_t *hi)
{
    for (int i = 0; i < g->nd; i++) {
        int64_t r = (g->o[i] - 1) * g->s[i] - g->p[i] + (g->k[i] - 1) * dil[i] + 1 - S[i];
        lo[i] = g->p[i], hi[i] = r > 0 ? r : 0;
    }
}

/* avg_pool's divisor of each output position (1 where the window holds no
 * input element: its sum is 0, and so is 1.13's output) */
static double *divisors(const tsr_pool_geom *g, const int64_t *S)
{
    int nd = g->nd;
    int64_t P = prod(nd, g->o), idx[3];
    double *dv = tsr_malloc((size_t)(P ? P : 1) * sizeof(double));
    if (!dv) return NULL;
    for (int64_t q = 0; q < P; q++) {
        unravel(nd, g->o, q, idx);
        int64_t size = 1, valid = 1;
        for (int i = 0; i < nd; i++) {
            int64_t a = idx[i] * g->s[i] - g->p[i], b = a + g->k[i];
            if (b > S[i] + g->p[i]) b = S[i] + g->p[i];
            size *= b - a;
            if (a < 0) a = 0;
            if (b > S[i]) b = S[i];
            valid *= b > a ? b - a : 0;
        }
        dv[q] = valid == 0 ? 1 : g->hasdiv ? (double)g->div : g->cip ? (double)size : (double)valid;
    }
    return dv;
}

static bool dtype_ok(tsr_dtype d)
{
    return d == TSR_FLOAT32 || d == TSR_FLOAT64 || d == TSR_FLOAT16 || d == TSR_BFLOAT16;
}

static tsr_memory_format format_of(const tsr_tensor *x, int nd)
{
    tsr_memory_format mf = tsr_tensor_suggest_memory_format(x);
    if ((nd == 2 && mf == TSR_MF_CHANNELS_LAST) || (nd == 3 && mf == TSR_MF_CHANNELS_LAST_3D)) return mf;
    return TSR_MF_CONTIGUOUS;
}

/* 1.13's max kernels keep the LAST NaN of a window (if (val > max ||
 * isnan(val))), the device's max(dim) the first: where the window (...,
 * K) holds a NaN, *j (argmax along it) becomes its last NaN's index. */
static int last_nan(const tsr_tensor *wr, tsr_tensor **j)
{
    int64_t K = wr->sizes[wr->ndim - 1], last = wr->ndim - 1;
    tsr_tensor *nan = tsr_predicate(TSR_PRED_ISNAN, wr, NULL), *nf = nan ? tsr_to_dtype(nan, TSR_FLOAT32, false) : NULL;
    tsr_tensor *fl = nf ? tsr_flip(nf, 1, &last) : NULL, *has = NULL, *rj = NULL, *lj = NULL, *hb = NULL, *r = NULL;
    if (fl && tsr_max_dim(fl, -1, false, true, NULL, NULL, &has, &rj) == 0) {
        tsr_operand a = tsr_operand_scalar(tsr_scalar_int(K - 1)), b = tsr_operand_tensor(rj);
        if ((lj = tsr_binary(TSR_BINOP_SUB, &a, &b, NULL, NULL)) && (hb = tsr_to_dtype(has, TSR_BOOL, false))) {
            tsr_operand ol = tsr_operand_tensor(lj), oj = tsr_operand_tensor(*j);
            r = tsr_where(hb, &ol, &oj, NULL);
        }
    }
    tsr_tensor_release(nan);
    tsr_tensor_release(nf);
    tsr_tensor_release(fl);
    tsr_tensor_release(has);
    tsr_tensor_release(rj);
    tsr_tensor_release(lj);
    tsr_tensor_release(hb);
    if (!r) return -1;
    take(j, r);
    return 0;
}

/* max_pool: values and flat plane indices of x4 (N, C, S...) */
static int max_pool(const tsr_tensor *x4, const tsr_pool_geom *g, tsr_tensor **out, tsr_tensor **ind)
{
    int nd = g->nd;
    const int64_t *S = x4->sizes + 2;
    int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, K = prod(nd, g->k), P = prod(nd, g->o);
    pads(g, S, g->d, lo, hi);
    tsr_tensor *xp = pad_fill(x4, nd, lo, hi, tsr_scalar_float(-INFINITY)), *w = xp ? windows(xp, g, g->d) : NULL;
    int64_t ws[6] = {x4->sizes[0], x4->sizes[1]};
    for (int i = 0; i < nd; i++) ws[2 + i] = g->o[i];
    ws[2 + nd] = K;
    tsr_tensor *wr = w ? reshape(w, nd + 3, ws) : NULL, *j = NULL, *tab = NULL, *te = NULL, *ju = NULL, *gi = NULL;
    int rc = -1;
    if (!wr || tsr_max_dim(wr, -1, false, true, NULL, NULL, out, &j) < 0 || last_nan(wr, &j) < 0) goto done;
    /* the flat index of each window element; padding: the window's first valid one */
    int64_t *iv = tsr_malloc((size_t)(P * K > 0 ? P * K : 1) * sizeof(int64_t)), oi[3], ki[3];
    if (!iv) goto done;
    for (int64_t q = 0; q < P; q++) {
        unravel(nd, g->o, q, oi);
        int64_t first = -1;
        for (int64_t e = 0; e < K; e++) {
            unravel(nd, g->k, e, ki);
            int64_t flat = 0;
            bool in = true;
            for (int i = 0; i < nd; i++) {
                int64_t c = oi[i] * g->s[i] - g->p[i] + ki[i] * g->d[i];
                in = in && c >= 0 && c < S[i];
                flat = flat * S[i] + c;
            }
            iv[q * K + e] = in ? flat : -1;
            if (in && first < 0) first = flat;
        }
        for (int64_t e = 0; e < K; e++)
            if (iv[q * K + e] < 0) iv[q * K + e] = first < 0 ? 0 : first;
    }
    int64_t ts[5];
    for (int i = 0; i < nd; i++) ts[i] = g->o[i];
    ts[nd] = K;
    tab = from_host(nd + 1, ts, iv, NULL, TSR_INT64, x4->device);
    tsr_free(iv);
    if (!tab || !(te = tsr_view_expand(tab, nd + 3, ws)) || !(ju = tsr_view_unsqueeze(j, -1)) ||
        !(gi = tsr_gather(te, -1, ju)) || !(*ind = tsr_view_squeeze_dim(gi, -1)))
        goto done;
    rc = 0;
done:
    tsr_tensor_release(xp);
    tsr_tensor_release(w);
    tsr_tensor_release(wr);
    tsr_tensor_release(j);
    tsr_tensor_release(tab);
    tsr_tensor_release(te);
    tsr_tensor_release(ju);
    tsr_tensor_release(gi);
    if (rc < 0) take(out, NULL);
    return rc;
}

static tsr_tensor *bin(tsr_binop op, const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_operand oa = tsr_operand_tensor(a), ob = tsr_operand_tensor(b);
    return tsr_binary(op, &oa, &ob, NULL, NULL);
}

static tsr_tensor *avg_pool(const tsr_tensor *x4, const tsr_pool_geom *g)
{
    int nd = g->nd;
    const int64_t *S = x4->sizes + 2;
    int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, one[3] = {1, 1, 1};
    pads(g, S, one, lo, hi);
    tsr_dtype acc = x4->dtype == TSR_FLOAT64 ? TSR_FLOAT64 : TSR_FLOAT32;
    tsr_tensor *xp = pad_fill(x4, nd, lo, hi, tsr_scalar_float(0)), *w = xp ? windows(xp, g, one) : NULL;
    tsr_tensor *s = NULL, *dt = NULL, *q = NULL, *r = NULL;
    double *dv = w ? divisors(g, S) : NULL;
    if (!dv) goto done;
    tsr_dims dims = {.n = nd};
    for (int i = 0; i < nd; i++) dims.d[i] = 2 + nd + i;
    if (!(s = tsr_sum(w, &dims, false, acc, NULL)) || !(dt = from_host(nd, g->o, NULL, dv, acc, x4->device)) ||
        !(q = bin(TSR_BINOP_DIV, s, dt)))
        goto done;
    r = tsr_to_dtype(q, x4->dtype, false);
done:
    tsr_free(dv);
    tsr_tensor_release(xp);
    tsr_tensor_release(w);
    tsr_tensor_release(s);
    tsr_tensor_release(dt);
    tsr_tensor_release(q);
    return r;
}

/* adaptive windows: [start, end) of output i of o along an input of n */
static int64_t a_start(int64_t i, int64_t o, int64_t n) { return i * n / o; }
static int64_t a_end(int64_t i, int64_t o, int64_t n) { return ((i + 1) * n + o - 1) / o; }

/* t (N, C, S...) narrowed to output position q's adaptive window; lens,
 * starts receive its extent */
static tsr_tensor *a_window(const tsr_tensor *t, const tsr_pool_geom *g, const int64_t *S, int64_t q, int64_t *starts,
                            int64_t *lens)
{
    int64_t oi[3];
    unravel(g->nd, g->o, q, oi);
    tsr_tensor *v = tsr_tensor_retain((tsr_tensor *)t);
    for (int i = 0; v && i < g->nd; i++) {
        starts[i] = a_start(oi[i], g->o[i], S[i]), lens[i] = a_end(oi[i], g->o[i], S[i]) - starts[i];
        take(&v, tsr_view_narrow(v, i + 2, starts[i], lens[i]));
    }
    return v;
}

/* out (N, C, o...) at output position q: (N, C) */
static tsr_tensor *at_pos(const tsr_tensor *out, const tsr_pool_geom *g, int64_t q)
{
    int64_t oi[3];
    unravel(g->nd, g->o, q, oi);
    tsr_tensor *v = tsr_tensor_retain((tsr_tensor *)out);
    for (int i = 0; v && i < g->nd; i++) take(&v, tsr_view_select(v, 2, oi[i]));
    return v;
}

/* *t divided by each of n window lengths in turn (a NEW *t) */
static int divide_by(tsr_tensor **t, int n, const int64_t *len)
{
    for (int i = 0; i < n && *t; i++) {
        tsr_operand a = tsr_operand_tensor(*t), b = tsr_operand_scalar(tsr_scalar_int(len[i]));
        take(t, tsr_binary(TSR_BINOP_DIV, &a, &b, NULL, NULL));
    }
    return *t ? 0 : -1;
}

static int adaptive(bool is_max, const tsr_tensor *x4, const tsr_pool_geom *g, tsr_tensor *out, tsr_tensor *ind)
{
    int nd = g->nd;
    const int64_t *S = x4->sizes + 2;
    int64_t N = x4->sizes[0], C = x4->sizes[1], P = prod(nd, g->o);
    for (int64_t q = 0; q < P; q++) {
        if (tsr_check_interrupt() < 0) return -1;
        int64_t st[3], ln[3], K = 1;
        tsr_tensor *w = a_window(x4, g, S, q, st, ln), *ov = w ? at_pos(out, g, q) : NULL, *r = NULL, *j = NULL;
        tsr_tensor *iv = NULL, *tab = NULL, *jf = NULL, *sel = NULL, *selv = NULL;
        for (int i = 0; i < nd; i++) K *= ln[i];
        int rc = -1;
        if (!ov) goto next;
        if (!is_max) {   /* sum / kT / kH / kW in the accumulate type, as 1.13's CUDA kernels */
            tsr_dims dims = {.n = nd};
            for (int i = 0; i < nd; i++) dims.d[i] = 2 + i;
            tsr_dtype acc = x4->dtype == TSR_FLOAT64 ? TSR_FLOAT64 : TSR_FLOAT32;
            if (!(r = tsr_sum(w, &dims, false, acc, NULL)) || divide_by(&r, nd, ln) < 0 || tsr_copy_(ov, r) < 0)
                goto next;
            rc = 0;
            goto next;
        }
        int64_t ws[3] = {N, C, K}, *flat = tsr_malloc((size_t)K * sizeof(int64_t)), ki[3];
        if (!flat) goto next;
        for (int64_t e = 0; e < K; e++) {
            unravel(nd, ln, e, ki);
            int64_t f = 0;
            for (int i = 0; i < nd; i++) f = f * S[i] + st[i] + ki[i];
            flat[e] = f;
        }
        tab = from_host(1, &K, flat, NULL, TSR_INT64, x4->device);
        tsr_free(flat);
        int64_t nc = N * C, ncs[2] = {N, C};
        tsr_tensor *wr = tab ? reshape(w, 3, ws) : NULL;
        if (wr && tsr_max_dim(wr, -1, false, true, NULL, NULL, &r, &j) == 0 && last_nan(wr, &j) == 0 &&
            tsr_copy_(ov, r) == 0 &&
            (jf = reshape(j, 1, &nc)) && (sel = tsr_index_select(tab, 0, jf)) && (selv = tsr_view_view(sel, 2, ncs)) &&
            (iv = at_pos(ind, g, q)) && tsr_copy_(iv, selv) == 0)
            rc = 0;
        tsr_tensor_release(wr);
    next:
        tsr_tensor_release(w);
        tsr_tensor_release(ov);
        tsr_tensor_release(r);
        tsr_tensor_release(j);
        tsr_tensor_release(iv);
        tsr_tensor_release(tab);
        tsr_tensor_release(jf);
        tsr_tensor_release(sel);
        tsr_tensor_release(selv);
        if (rc < 0) return -1;
    }
    return 0;
}

tsr_tensor *tsr__pool_dev(tsr_pool_kind kind, const char *kname, const tsr_tensor *x, const tsr_pool_geom *g,
                          tsr_tensor **indices)
{
    if (indices) *indices = NULL;
    if (!dtype_ok(x->dtype)) {
        tsr__not_implemented(kname, x->dtype);
        return NULL;
    }
    int nd = g->nd;
    bool batched = x->ndim == nd + 2, is_max = kind == TSR_POOL_MAX || kind == TSR_POOL_ADAPTIVE_MAX;
    /* 1.13's CUDA 3-d pooling has a channels_last_3d kernel for max_pool3d only */
    tsr_memory_format mf = batched && (nd == 2 || kind == TSR_POOL_MAX) ? format_of(x, nd) : TSR_MF_CONTIGUOUS;
    tsr_tensor *x4 = batched ? tsr_tensor_retain((tsr_tensor *)x) : tsr_view_unsqueeze(x, 0), *out = NULL, *ind = NULL;
    if (!x4) return NULL;
    int64_t osz[5] = {x4->sizes[0], x4->sizes[1]};
    for (int i = 0; i < nd; i++) osz[2 + i] = g->o[i];
    if (tsr_tensor_numel(x4) == 0 || prod(nd + 2, osz) == 0) {   /* nothing to compute */
        out = tsr_tensor_empty(nd + 2, osz, x->dtype, x->device);
        if (out && is_max) ind = tsr_tensor_empty(nd + 2, osz, TSR_INT64, x->device);
        if (!out || (is_max && !ind)) goto fail;
    } else if (kind == TSR_POOL_MAX) {
        if (max_pool(x4, g, &out, &ind) < 0) goto fail;
    } else if (kind == TSR_POOL_AVG) {
        if (!(out = avg_pool(x4, g))) goto fail;
    } else {
        if (!(out = tsr_tensor_empty(nd + 2, osz, x->dtype, x->device))) goto fail;
        if (is_max && !(ind = tsr_tensor_empty(nd + 2, osz, TSR_INT64, x->device))) goto fail;
        if (adaptive(is_max, x4, g, out, ind) < 0) goto fail;
    }
    if (mf != TSR_MF_CONTIGUOUS) {
        if (!take(&out, tsr_contiguous(out, mf))) goto fail;
        if (ind && !take(&ind, tsr_contiguous(ind, mf))) goto fail;
    }
    if (!batched) {
        if (!take(&out, tsr_view_squeeze_dim(out, 0))) goto fail;
        if (ind && !take(&ind, tsr_view_squeeze_dim(ind, 0))) goto fail;
    }
    tsr_tensor_release(x4);
    if (indices) *indices = ind;
    else tsr_tensor_release(ind);
    return out;
fail:
    tsr_tensor_release(x4);
    tsr_tensor_release(out);
    tsr_tensor_release(ind);
    return NULL;
}

/* avg_pool's backward on x4-shaped zeros gi: go / divisor added into each
 * kernel offset's strided view of the padded gradient, then cropped */
static tsr_tensor *avg_backward(const tsr_tensor *go, const tsr_tensor *x4, const tsr_pool_geom *g)
{
    int nd = g->nd;
    const int64_t *S = x4->sizes + 2;
    int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, one[3] = {1, 1, 1}, K = prod(nd, g->k), sz[5] = {x4->sizes[0], x4->sizes[1]};
    pads(g, S, one, lo, hi);
    for (int i = 0; i < nd; i++) sz[i + 2] = S[i] + lo[i] + hi[i];
    double *dv = divisors(g, S);
    tsr_tensor *dt = dv ? from_host(nd, g->o, NULL, dv, go->dtype, go->device) : NULL;
    tsr_tensor *gd = dt ? bin(TSR_BINOP_DIV, go, dt) : NULL, *gp = gd ? tsr_zeros(nd + 2, sz, go->dtype, go->device) : NULL;
    tsr_tensor *r = NULL;
    tsr_free(dv);
    if (!gp) goto done;
    int64_t vs[5] = {sz[0], sz[1]}, vst[5] = {gp->strides[0], gp->strides[1]}, ki[3];
    for (int i = 0; i < nd; i++) vs[i + 2] = g->o[i], vst[i + 2] = g->s[i] * gp->strides[i + 2];
    for (int64_t e = 0; e < K; e++) {
        unravel(nd, g->k, e, ki);
        int64_t off = gp->storage_offset;
        for (int i = 0; i < nd; i++) off += ki[i] * gp->strides[i + 2];
        tsr_tensor *v = tsr_view_as_strided(gp, nd + 2, vs, vst, off);
        tsr_operand od = tsr_operand_tensor(gd);
        tsr_tensor *a = v ? tsr_binary_(TSR_BINOP_ADD, v, &od, NULL) : NULL;
        tsr_tensor_release(v);
        if (!a) goto done;
        tsr_tensor_release(a);
    }
    r = tsr_tensor_retain(gp);
    for (int i = 0; r && i < nd; i++) take(&r, tsr_view_narrow(r, i + 2, lo[i], S[i]));
done:
    tsr_tensor_release(dt);
    tsr_tensor_release(gd);
    tsr_tensor_release(gp);
    return r;
}

static tsr_tensor *adaptive_avg_backward(const tsr_tensor *go, const tsr_tensor *x4, const tsr_pool_geom *g)
{
    int nd = g->nd;
    const int64_t *S = x4->sizes + 2;
    tsr_tensor *gi = tsr_zeros(x4->ndim, x4->sizes, go->dtype, go->device);
    int64_t P = prod(nd, g->o);
    for (int64_t q = 0; gi && q < P; q++) {
        int64_t st[3], ln[3], bs[5] = {x4->sizes[0], x4->sizes[1], 1, 1, 1};
        tsr_tensor *w = a_window(gi, g, S, q, st, ln), *gq = w ? at_pos(go, g, q) : NULL;
        tsr_tensor *gv = gq ? tsr_view_view(gq, nd + 2, bs) : NULL, *gd = gv ? tsr_tensor_retain(gv) : NULL, *a = NULL;
        if (gd && divide_by(&gd, nd, ln) == 0) {
            tsr_operand od = tsr_operand_tensor(gd);
            a = tsr_binary_(TSR_BINOP_ADD, w, &od, NULL);
        }
        if (!a) take(&gi, NULL);
        tsr_tensor_release(a);
        tsr_tensor_release(w);
        tsr_tensor_release(gq);
        tsr_tensor_release(gv);
        tsr_tensor_release(gd);
    }
    return gi;
}

tsr_tensor *tsr__pool_dev_backward(tsr_pool_kind kind, const char *kname, const tsr_tensor *go, const tsr_tensor *x,
                                   const tsr_tensor *indices, const tsr_pool_geom *g)
{
    if (!dtype_ok(x->dtype)) {
        tsr__not_implemented(kname, x->dtype);
        return NULL;
    }
    int nd = g->nd;
    bool batched = x->ndim == nd + 2;
    tsr_memory_format mf = batched && (nd == 2 || kind == TSR_POOL_MAX) ? format_of(x, nd) : TSR_MF_CONTIGUOUS;
    tsr_tensor *x4 = batched ? tsr_tensor_retain((tsr_tensor *)x) : tsr_view_unsqueeze(x, 0);
    tsr_tensor *g4 = !x4 ? NULL : batched ? tsr_tensor_retain((tsr_tensor *)go) : tsr_view_unsqueeze(go, 0);
    tsr_tensor *i4 = NULL, *gi = NULL;
    if (!g4) goto done;
    tsr_pool_geom gg = *g;
    for (int i = 0; i < nd; i++) gg.o[i] = g4->sizes[2 + i];
    if (tsr_tensor_numel(x4) == 0 || tsr_tensor_numel(g4) == 0) {
        gi = tsr_zeros(x4->ndim, x4->sizes, x->dtype, x->device);
    } else if (kind == TSR_POOL_MAX || kind == TSR_POOL_ADAPTIVE_MAX) {
        int64_t N = x4->sizes[0], C = x4->sizes[1], fs[3] = {N, C, prod(nd, x4->sizes + 2)}, gs[3] = {N, C, prod(nd, gg.o)};
        i4 = batched ? tsr_tensor_retain((tsr_tensor *)indices) : tsr_view_unsqueeze(indices, 0);
        tsr_tensor *z = i4 ? tsr_zeros(3, fs, x->dtype, x->device) : NULL, *gf = z ? reshape(g4, 3, gs) : NULL;
        tsr_tensor *inf = gf ? reshape(i4, 3, gs) : NULL;
        if (inf && tsr_scatter_(z, 2, inf, gf, NULL, TSR_SCATTER_ADD) == 0) gi = tsr_view_view(z, x4->ndim, x4->sizes);
        tsr_tensor_release(z);
        tsr_tensor_release(gf);
        tsr_tensor_release(inf);
    } else if (kind == TSR_POOL_AVG) {
        gi = avg_backward(g4, x4, &gg);
    } else {
        gi = adaptive_avg_backward(g4, x4, &gg);
    }
    if (gi) take(&gi, tsr_contiguous(gi, mf));
    if (gi && !batched) take(&gi, tsr_view_squeeze_dim(gi, 0));
done:
    tsr_tensor_release(x4);
    tsr_tensor_release(g4);
    tsr_tensor_release(i4);
    return gi;
}
