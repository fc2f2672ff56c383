/* runtime/ops/search.c — searchsorted / bucketize (1.13 Bucketization.cpp:
 * searchsorted_pre_check, cus_lower_bound / cus_upper_bound), isin
 * (TensorCompare.cpp: the brute-force kernel below numpy's size heuristic,
 * the stable-sort algorithm above it), take_along_dim and sum_to_size. The
 * kernels compare values as int64 or double after both operands are cast
 * to their common dtype, which keeps every order and equality exact. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../error.h"
#include "../op.h"
#include "../internal.h"
#include "../iter.h"
#include "../view.h"
#include "copy.h"
#include "compare.h"
#include "factory.h"
#include "index_dev.h"
#include "reduce.h"
#include "scan_dev.h"
#include "scatter.h"
#include "search.h"
#include "join.h"
#include "shape.h"
#include "sort.h"
#include "stats.h"
#include "blas.h"

/* A comparable key: int64 for integral dtypes, double for floating ones. */
typedef union { int64_t i; double d; } key;

/* t cast to dtype, then to int64 (integral) or float64 (floating), made
 * contiguous: its data read as key[]. NEW reference or NULL. */
static tsr_tensor *as_keys(const tsr_tensor *t, tsr_dtype dtype, bool *is_float)
{
    *is_float = tsr_dtype_is_floating(dtype);
    tsr_tensor *c = tsr_to_dtype(t, dtype, false);
    if (!c) return NULL;
    tsr_tensor *k = tsr_to_dtype(c, *is_float ? TSR_FLOAT64 : TSR_INT64, false);
    tsr_tensor_release(c);
    if (!k) return NULL;
    tsr_tensor *r = tsr_contiguous(k, TSR_MF_CONTIGUOUS);
    tsr_tensor_release(k);
    return r;
}

static const key *keys_of(const tsr_tensor *t) { return tsr_tensor_numel(t) ? tsr_tensor_ptr(t, NULL) : NULL; }

/* a < b and a <= b as C++ compares them (NaN: false) */
static inline bool key_lt(key a, key b, bool fl) { return fl ? a.d < b.d : a.i < b.i; }
static inline bool key_eq(key a, key b, bool fl) { return fl ? a.d == b.d : a.i == b.i; }

/* The operand as a tensor: a wrapped scalar becomes a 0-dim tensor of its
 * dtype (NEW reference). */
static tsr_tensor *operand_tensor(const tsr_operand *o, tsr_device dev)
{
    if (o->t) return tsr_tensor_retain((tsr_tensor *)o->t);
    return tsr_full(0, NULL, o->s, tsr_scalar_dtype(o->s), dev);
}

/* ------------------------------------------------------------ searchsorted */

static bool dims_matched_before_last(const tsr_tensor *bd, const tsr_tensor *in)
{
    if (bd->ndim != in->ndim) return false;
    for (int d = 0; d + 1 < bd->ndim; d++)
        if (bd->sizes[d] != in->sizes[d]) return false;
    return true;
}

static int searchsorted_check(const tsr_tensor *bd, const tsr_tensor *in, tsr_dtype out_dtype, bool out_int32,
                              bool right, const char *side, const tsr_tensor *sorter)
{
    char a[512], b[512];
    if (side) {
        if (strcmp(side, "left") && strcmp(side, "right")) {
            tsr_error_set(TSR_ERR_RUNTIME, "torch.searchsorted(): side can only be 'left' or 'right' but got %s", side);
            return -1;
        }
        if (right && strcmp(side, "right")) {
            tsr_error_set(TSR_ERR_RUNTIME, "torch.searchsorted(): side and right can't be set to opposites, got side "
                                           "of %s while right was True", side);
            return -1;
        }
    }
    if (sorter) {
        bool same = sorter->ndim == bd->ndim && !memcmp(sorter->sizes, bd->sizes, sizeof(int64_t) * (size_t)bd->ndim);
        if (!same) {
            tsr_error_set(TSR_ERR_RUNTIME, "torch.searchsorted(): boundary and sorter must have the same size, but got "
                          "boundary tensor %sand got sorter tensor %s", tsr__fmt_list(a, sizeof a, bd->ndim, bd->sizes),
                          tsr__fmt_list(b, sizeof b, sorter->ndim, sorter->sizes));
            return -1;
        }
        if (sorter->dtype != TSR_INT64) {
            tsr_error_set(TSR_ERR_RUNTIME, "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype %s",
                          tsr_dtype_scalar_name(sorter->dtype));
            return -1;
        }
    }
    if (!(in->ndim > 0 || (tsr_tensor_numel(in) == 1 && bd->ndim == 1))) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.searchsorted(): input value can be a scalar only when boundaries tensor "
                      "dimension is 1, but we got boundaries tensor dim(%d) and input value's dim(%d) numel(%" PRId64 ")",
                      bd->ndim, in->ndim, tsr_tensor_numel(in));
        return -1;
    }
    if (bd->ndim == 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.searchsorted(): boundaries tensor should have positive dimension, but got "
                                       "0 dimension");
        return -1;
    }
    if (bd->ndim != 1 && !dims_matched_before_last(bd, in)) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                      "dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor "
                      "%s and input value tensor %s", tsr__fmt_list(a, sizeof a, bd->ndim, bd->sizes),
                      tsr__fmt_list(b, sizeof b, in->ndim, in->sizes));
        return -1;
    }
    if (!((out_dtype == TSR_INT64 && !out_int32) || (out_dtype == TSR_INT32 && out_int32))) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) "
                      "or Long(int64) depending on whether out_int32 flag is True, but we got output tensor's dtype %s "
                      "and out_int32 flag is %s", tsr_dtype_scalar_name(out_dtype), out_int32 ? "True" : "False");
        return -1;
    }
    if (out_int32 && bd->sizes[bd->ndim - 1] >= INT32_MAX) {
        tsr_error_set(TSR_ERR_RUNTIME, "torch.searchsorted(): the size of boundaries' last dimension should be less "
                      "than %d, but we got %" PRId64, INT32_MAX, bd->sizes[bd->ndim - 1]);
        return -1;
    }
    return 0;
}

/* cus_lower_bound / cus_upper_bound over bd[start, end), through sort[]
 * (row-relative positions) when given. */
static int64_t bound(int64_t start, int64_t end, key v, const key *bd, const int64_t *sort, bool right, bool fl)
{
    const int64_t orig = sort ? start : 0;
    while (start < end) {
        int64_t mid = start + ((end - start) >> 1);
        key m = sort ? bd[sort[mid] + orig] : bd[mid];
        /* lower: !(m >= v); upper: !(m > v) */
        bool go_right = right ? !key_lt(v, m, fl) : !(key_lt(v, m, fl) || key_eq(v, m, fl));
        if (go_right) start = mid + 1;
        else end = mid;
    }
    return start;
}

/* Whether a (device) sorter has a value outside [0, n): true with the
 * error set (that one, or the failed check's), else false. */
static bool sorter_out_of_range(const tsr_tensor *sk, int64_t n)
{
    tsr_operand a = tsr_operand_tensor(sk), lo = tsr_operand_scalar(tsr_scalar_int(0)),
                hi = tsr_operand_scalar(tsr_scalar_int(n));
    tsr_tensor *l = tsr_compare(TSR_CMP_LT, &a, &lo, NULL), *h = l ? tsr_compare(TSR_CMP_GE, &a, &hi, NULL) : NULL;
    tsr_operand ol = tsr_operand_tensor(l), oh = tsr_operand_tensor(h);
    tsr_tensor *o = h ? tsr_compare(TSR_CMP_LOGICAL_OR, &ol, &oh, NULL) : NULL;
    tsr_tensor *any = o ? tsr_all_any(o, NULL, false, false, NULL) : NULL;
    bool checked = any != NULL, bad = !checked || tsr_tensor_get_int64(any, NULL) != 0;
    tsr_tensor_release(l);
    tsr_tensor_release(h);
    tsr_tensor_release(o);
    tsr_tensor_release(any);
    if (bad && checked) tsr_error_set(TSR_ERR_RUNTIME, "torch.searchsorted(): sorter index out of range");
    return bad;
}

static tsr_tensor *searchsorted_impl(const tsr_tensor *bd, const tsr_operand *values, bool out_int32, bool right,
                                     const char *side, const tsr_tensor *sorter, tsr_tensor *out, const char *op)
{
    if (tsr_tensor_is_meta(bd) || (values->t && tsr_tensor_is_meta(values->t)) || (out && tsr_tensor_is_meta(out))) {
        tsr_meta_refused(op);
        return NULL;
    }
    tsr_tensor *in = operand_tensor(values, bd->device), *r = NULL, *bk = NULL, *ik = NULL, *sk = NULL;
    if (!in) return NULL;
    tsr_dtype odt = out ? out->dtype : out_int32 ? TSR_INT32 : TSR_INT64;
    if (searchsorted_check(bd, in, odt, out_int32, right, side, sorter) < 0) goto done;
    const tsr_tensor *others[2] = {in, sorter};
    if ((tsr__dev_external(bd) || tsr__dev_external(in) || (sorter && tsr__dev_external(sorter))) &&
        tsr__dev_same_device(bd, 2, others) < 0) goto done;
    bool is_right = side ? !strcmp(side, "right") : right;
    r = tsr_tensor_empty(in->ndim, in->sizes, odt, bd->device);
    if (!r) goto done;
    int64_t n = tsr_tensor_numel(in);
    if (n == 0) goto finish;
    tsr_operand ops[2] = {tsr_operand_tensor(bd), values->t ? tsr_operand_tensor(in) : *values};
    tsr_dtype common = bd->dtype == in->dtype ? bd->dtype : tsr_result_type(2, ops, NULL);
    if (common == TSR_BOOL || tsr_dtype_is_complex(common)) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"searchsorted_out_cpu\" not implemented for '%s'", tsr_dtype_scalar_name(common));
        goto fail;
    }
    bool fl;
    bk = as_keys(bd, common, &fl);
    ik = bk ? as_keys(in, common, &fl) : NULL;
    sk = ik && sorter ? tsr_contiguous(sorter, TSR_MF_CONTIGUOUS) : NULL;
    if (!ik || (sorter && !sk)) goto fail;
    int64_t idim_in = in->ndim ? in->sizes[in->ndim - 1] : 1, idim_bd = bd->sizes[bd->ndim - 1];
    if (scan_on_device(bd)) {
        if (sk && sorter_out_of_range(sk, idim_bd)) goto fail;
        bool one = bd->ndim == 1;
        if (search_device(bk, ik, sk, one, one ? 1 : n / idim_in, idim_bd, one ? n : idim_in, is_right, r,
                          "aten::searchsorted.Tensor") < 0) goto fail;
        goto finish;
    }
    const key *b = keys_of(bk), *v = keys_of(ik);
    const int64_t *sort = sk && tsr_tensor_numel(sk) ? tsr_tensor_ptr(sk, NULL) : NULL;
    for (int64_t i = 0, ns = sort ? tsr_tensor_numel(sk) : 0; i < ns; i++)
        if (sort[i] < 0 || sort[i] >= idim_bd) {
            /* 1.13 reads outside the row here (undefined); later releases refuse it so */
            tsr_error_set(TSR_ERR_RUNTIME, "torch.searchsorted(): sorter index out of range");
            goto fail;
        }
    bool one_d = bd->ndim == 1;
    char *o = tsr_tensor_ptr(r, NULL);
    for (int64_t i = 0; i < n; i++) {
        int64_t start = one_d ? 0 : i / idim_in * idim_bd;
        int64_t pos = bound(start, start + idim_bd, v[i], b, sort, is_right, fl) - start;
        if (odt == TSR_INT32) ((int32_t *)o)[i] = (int32_t)pos;
        else ((int64_t *)o)[i] = pos;
        if ((i & 0xffff) == 0xffff && tsr_check_interrupt() < 0) goto fail;
    }
finish:
    r = tsr_out_assign(r, out, true);
    goto done;
fail:
    tsr_tensor_release(r);
    r = NULL;
done:
    tsr_tensor_release(in);
    tsr_tensor_release(bk);
    tsr_tensor_release(ik);
    tsr_tensor_release(sk);
    return r;
}

tsr_tensor *tsr_searchsorted(const tsr_tensor *seq, const tsr_operand *values, bool out_int32, bool right,
                             const char *side, const tsr_tensor *sorter, tsr_tensor *out)
{
    const char *op = !values->t ? "searchsorted.Scalar" : out ? "searchsorted.Tensor_out" : "searchsorted.Tensor";
    return searchsorted_impl(seq, values, out_int32, right, side, sorter, out, op);
}

tsr_tensor *tsr_bucketize(const tsr_operand *input, const tsr_tensor *boundaries, bool out_int32, bool right,
                          tsr_tensor *out)
{
    const char *op = !input->t ? "bucketize.Scalar" : out ? "bucketize.Tensor_out" : "bucketize.Tensor";
    if (tsr_tensor_is_meta(boundaries) || (input->t && tsr_tensor_is_meta(input->t))) {
        tsr_meta_refused(op);
        return NULL;
    }
    if (boundaries->ndim != 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "boundaries tensor must be 1 dimension, but got dim(%d)", boundaries->ndim);
        return NULL;
    }
    return searchsorted_impl(boundaries, input, out_int32, right, NULL, NULL, out, op);
}

/* ------------------------------------------------------------ isin */

static int isin_dtype_check(tsr_dtype d)
{
    if (d == TSR_BOOL || d == TSR_BFLOAT16 || tsr_dtype_is_complex(d)) {
        tsr_error_set(TSR_ERR_RUNTIME, "Unsupported input type encountered for isin(): %s", tsr_dtype_scalar_name(d));
        return -1;
    }
    return 0;
}

typedef struct { key k; int64_t i; } entry;
static bool g_sort_float; /* the comparators' dtype kind (single-threaded runtime) */

/* ascending, NaN last, stable by position */
static int entry_cmp(const void *pa, const void *pb)
{
    const entry *a = pa, *b = pb;
    if (g_sort_float) {
        bool na = a->k.d != a->k.d, nb = b->k.d != b->k.d;
        if (na != nb) return na ? 1 : -1;
        if (!na && a->k.d != b->k.d) return a->k.d < b->k.d ? -1 : 1;
    } else if (a->k.i != b->k.i) {
        return a->k.i < b->k.i ? -1 : 1;
    }
    return a->i < b->i ? -1 : a->i > b->i;
}

/* A scratch block of n entries, owned by the returned tensor. */
static tsr_tensor *scratch(int64_t n, entry **p)
{
    int64_t bytes = (n ? n : 1) * (int64_t)sizeof(entry);
    tsr_tensor *t = tsr_tensor_empty(1, &bytes, TSR_UINT8, (tsr_device){.type = TSR_DEV_CPU});
    *p = t ? tsr_tensor_ptr(t, NULL) : NULL;
    return t;
}

/* Membership: out[i] = (e[i] equals some t[j]) != invert. */
static int isin_member(const key *e, int64_t ne, const key *t, int64_t nt, bool fl, bool invert, bool *out)
{
    entry *s;
    tsr_tensor *buf = scratch(nt, &s);
    if (!buf) return -1;
    for (int64_t j = 0; j < nt; j++) s[j] = (entry){t[j], j};
    g_sort_float = fl;
    qsort(s, (size_t)nt, sizeof *s, entry_cmp);
    for (int64_t i = 0; i < ne; i++) {
        int64_t lo = 0, hi = nt;
        while (lo < hi) {
            int64_t mid = lo + ((hi - lo) >> 1);
            if (key_lt(s[mid].k, e[i], fl)) lo = mid + 1; /* NaNs sort last and are never less */
            else hi = mid;
        }
        out[i] = (lo < nt && key_eq(s[lo].k, e[i], fl)) != invert;
    }
    tsr_tensor_release(buf);
    return 0;
}

/* isin_sorting with assume_unique: elements then tests stably sorted; a
 * place is in when the next sorted value equals it (1.13's algorithm, whose
 * answer for repeated elements it keeps). */
static int isin_sorted_unique(const key *e, int64_t ne, const key *t, int64_t nt, bool fl, bool invert, bool *out)
{
    int64_t n = ne + nt;
    entry *s;
    tsr_tensor *buf = scratch(n, &s);
    if (!buf) return -1;
    for (int64_t i = 0; i < ne; i++) s[i] = (entry){e[i], i};
    for (int64_t j = 0; j < nt; j++) s[ne + j] = (entry){t[j], ne + j};
    g_sort_float = fl;
    qsort(s, (size_t)n, sizeof *s, entry_cmp);
    for (int64_t k = 0; k < n; k++) {
        if (s[k].i >= ne) continue;
        bool v = k + 1 < n ? key_eq(s[k + 1].k, s[k].k, fl) != invert : invert;
        out[s[k].i] = v;
    }
    tsr_tensor_release(buf);
    return 0;
}

/* isin on a device: (elements.unsqueeze(-1) == test.flatten()).any(-1),
 * 1.13's isin_default_kernel_gpu (its sorting form for a large test set
 * gives the same answer), in the common dtype; NEW reference or NULL. */
static tsr_tensor *isin_device(const tsr_tensor *el, const tsr_tensor *te, tsr_dtype common, bool invert)
{
    const tsr_tensor *others[1] = {te};
    if (tsr__dev_same_device(el, 1, others) < 0) return NULL;
    int64_t ne = tsr_tensor_numel(el), nt = tsr_tensor_numel(te), sz[2] = {ne, 1};
    tsr_tensor *e = tsr_to_dtype(el, common, false), *t = e ? tsr_to_dtype(te, common, false) : NULL;
    tsr_tensor *e2 = t ? tsr_reshape(e, 2, sz) : NULL, *t1 = e2 ? tsr_reshape(t, 1, &nt) : NULL, *eq = NULL, *any = NULL,
               *r = NULL;
    tsr_operand a = tsr_operand_tensor(e2), b = tsr_operand_tensor(t1);
    eq = t1 ? tsr_compare(TSR_CMP_EQ, &a, &b, NULL) : NULL;
    int64_t d1 = 1;
    any = eq ? tsr_all_any(eq, &d1, false, false, NULL) : NULL;
    if (any && invert) {
        tsr_tensor *nt_ = tsr_predicate(TSR_PRED_LOGICAL_NOT, any, NULL);
        tsr_tensor_release(any);
        any = nt_;
    }
    r = any ? tsr_reshape(any, el->ndim, el->sizes) : NULL;
    tsr_tensor_release(e);
    tsr_tensor_release(t);
    tsr_tensor_release(e2);
    tsr_tensor_release(t1);
    tsr_tensor_release(eq);
    tsr_tensor_release(any);
    return r;
}

/* isin on a device above the brute-force size: 1.13's isin_sorting (a
 * composite, the same on both devices): the elements (their unique values
 * unless assume_unique) and the test's unique values concatenated, sorted
 * stably, each marked by whether the next sorted value equals it (differs,
 * for invert; the last: invert), the marks put back in place. NEW
 * reference or NULL. */
static tsr_tensor *isin_sorting_device(const tsr_tensor *el, const tsr_tensor *te, tsr_dtype common, bool assume_unique,
                                       bool invert)
{
    const tsr_tensor *others[1] = {te};
    if (tsr__dev_same_device(el, 1, others) < 0) return NULL;
    tsr_tensor *t[24] = {0}, *r = NULL;
    int n = 0;
#define K(x) (t[n++] = (x))
    tsr_tensor *e = K(tsr_to_dtype(el, common, false)), *tt = e ? K(tsr_to_dtype(te, common, false)) : NULL;
    tsr_tensor *ef = NULL, *tf = NULL, *order = NULL;
    int64_t ne = tsr_tensor_numel(el), nt = tsr_tensor_numel(te);
    if (!tt) goto done;
    if (assume_unique) {
        ef = K(tsr_reshape(e, 1, &ne));
        tf = ef ? K(tsr_reshape(tt, 1, &nt)) : NULL;
    } else {
        tsr_tensor *u1 = NULL, *i1 = NULL, *c1 = NULL, *u2 = NULL, *i2 = NULL, *c2 = NULL;
        int rc = tsr_unique(e, false, false, true, false, NULL, &u1, &i1, &c1);
        K(u1), K(i1), K(c1);
        if (rc == 0) rc = tsr_unique(tt, false, false, false, false, NULL, &u2, &i2, &c2);
        K(u2), K(i2), K(c2);
        if (rc < 0) goto done;
        ef = u1, tf = u2, order = i1;
    }
    if (!tf) goto done;
    const tsr_tensor *parts[2] = {ef, tf};
    tsr_tensor *all = K(tsr_cat(2, parts, 0, NULL)), *sv = NULL, *so = NULL;
    if (!all || tsr_sort(all, 0, false, true, NULL, NULL, &sv, &so) < 0) goto done;
    K(sv), K(so);
    int64_t N = tsr_tensor_numel(all);
    tsr_tensor *dm = K(tsr_full(1, &N, tsr_scalar_bool(invert), TSR_BOOL, el->device));
    if (!dm) goto done;
    if (N > 1) {
        tsr_tensor *a = K(tsr_view_narrow(sv, 0, 1, N - 1)), *b = a ? K(tsr_view_narrow(sv, 0, 0, N - 1)) : NULL;
        tsr_operand oa = tsr_operand_tensor(a), ob = tsr_operand_tensor(b);
        tsr_tensor *m = b ? K(tsr_compare(invert ? TSR_CMP_NE : TSR_CMP_EQ, &oa, &ob, NULL)) : NULL;
        tsr_tensor *head = m ? K(tsr_view_narrow(dm, 0, 0, N - 1)) : NULL;
        if (!head || tsr_copy_(head, m) < 0) goto done;
    }
    tsr_tensor *mask = K(tsr_scatter(dm, 0, so, dm, NULL, TSR_SCATTER_NONE));
    if (!mask) goto done;
    if (assume_unique) {
        tsr_tensor *head = K(tsr_view_narrow(mask, 0, 0, ne));
        r = head ? tsr_reshape(head, el->ndim, el->sizes) : NULL;
    } else {
        tsr_tensor *flat = K(tsr_reshape(order, 1, &ne));
        tsr_tensor *sel = flat ? K(tsr_index_select(mask, 0, flat)) : NULL;
        r = sel ? tsr_reshape(sel, el->ndim, el->sizes) : NULL;
    }
#undef K
done:
    for (int i = 0; i < n; i++) tsr_tensor_release(t[i]);
    return r;
}

tsr_tensor *tsr_isin(const tsr_operand *elements, const tsr_operand *test, bool assume_unique, bool invert,
                     tsr_tensor *out)
{
    tsr_device dev = elements->t ? elements->t->device : test->t->device;
    tsr_tensor *el = elements->t ? tsr_tensor_retain((tsr_tensor *)elements->t)
                                 : tsr_full(0, NULL, elements->s, tsr_scalar_dtype(elements->s), dev);
    tsr_tensor *te = test->t ? tsr_tensor_retain((tsr_tensor *)test->t)
                             : tsr_full(0, NULL, test->s, tsr_scalar_dtype(test->s), dev);
    tsr_tensor *r = NULL, *ek = NULL, *tk = NULL;
    if (!el || !te || isin_dtype_check(el->dtype) < 0 || isin_dtype_check(te->dtype) < 0) goto done;
    if (out && out->dtype != TSR_BOOL) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected out tensor to have dtype bool, but got %s instead",
                      tsr_dtype_typemeta_name(out->dtype));
        goto done;
    }
    r = tsr_tensor_empty(el->ndim, el->sizes, TSR_BOOL, el->device);
    int64_t ne = tsr_tensor_numel(el), nt = tsr_tensor_numel(te);
    if (!r || ne == 0 || tsr_tensor_is_meta(el)) goto finish;
    /* isin(Tensor, Scalar) is eq / ne against the wrapped scalar */
    tsr_operand ops[2] = {elements->t ? tsr_operand_tensor(el) : *elements, test->t ? tsr_operand_tensor(te) : *test};
    tsr_dtype common = tsr_result_type(2, ops, NULL);
    bool brute = !test->t || (double)nt < (double)(int64_t)(10.0 * pow((double)ne, 0.145));
    if (!brute && !assume_unique && (el->dtype == TSR_FLOAT16 || te->dtype == TSR_FLOAT16)) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"unique\" not implemented for 'Half'"); /* at::_unique */
        goto fail;
    }
    if (brute && test->t && (common == TSR_FLOAT16 || common == TSR_BFLOAT16 || common == TSR_BOOL ||
                  tsr_dtype_is_complex(common))) {
        tsr_error_set(TSR_ERR_RUNTIME, "\"isin_default_cpu\" not implemented for '%s'", tsr_dtype_scalar_name(common));
        goto fail;
    }
    if (tsr__dev_external(el) || tsr__dev_external(te)) {
        tsr_tensor *d = brute ? isin_device(el, te, common, invert) : isin_sorting_device(el, te, common, assume_unique, invert);
        if (!d) goto fail;
        tsr_tensor_release(r);
        r = d;
        goto finish;
    }
    bool fl;
    ek = as_keys(el, common, &fl);
    tk = ek ? as_keys(te, common, &fl) : NULL;
    if (!tk) goto fail;
    bool *o = tsr_tensor_ptr(r, NULL);
    int e = !brute && assume_unique ? isin_sorted_unique(keys_of(ek), ne, keys_of(tk), nt, fl, invert, o)
                                    : isin_member(keys_of(ek), ne, keys_of(tk), nt, fl, invert, o);
    if (e < 0) goto fail;
finish:
    r = tsr_out_assign(r, out, true);
    goto done;
fail:
    tsr_tensor_release(r);
    r = NULL;
done:
    tsr_tensor_release(el);
    tsr_tensor_release(te);
    tsr_tensor_release(ek);
    tsr_tensor_release(tk);
    return r;
}

/* ------------------------------------------------------------ take_along_dim, sum_to_size */

tsr_tensor *tsr_take_along_dim(const tsr_tensor *self, const tsr_tensor *indices, bool has_dim, int64_t dim,
                               tsr_tensor *out)
{
    tsr_tensor *s = NULL, *ix = NULL, *r = NULL;
    int64_t d = 0;
    if (!has_dim) {
        int64_t m1 = -1;
        s = tsr_view_view(self, 1, &m1);
        ix = s ? tsr_view_view(indices, 1, &m1) : NULL;
    } else {
        if (self->ndim != indices->ndim) {
            tsr_error_set(TSR_ERR_RUNTIME, "torch.take_along_dim(): input and indices should have the same number of "
                          "dimensions, but got %d dimensions for input, and %d dimensions for indices", self->ndim,
                          indices->ndim);
            return NULL;
        }
        if (indices->dtype != TSR_INT64) {
            tsr_error_set(TSR_ERR_RUNTIME, "torch.take_along_dim(): dtype of indices should be Long but got %s",
                          tsr_dtype_scalar_name(indices->dtype));
            return NULL;
        }
        int w = tsr_wrap_dim(dim, self->ndim);
        if (w < 0) return NULL;
        d = w;
        if (self->ndim == 0) { /* indices.size(dim) on a 0-dim tensor */
            tsr_error_set(TSR_ERR_INDEX, "Dimension specified as %d but tensor has no dimensions", w);
            return NULL;
        }
        int64_t a[TSR_MAX_DIMS], shape[TSR_MAX_DIMS];
        int nds[2] = {self->ndim, indices->ndim};
        const int64_t *sz[2] = {a, indices->sizes};
        memcpy(a, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
        a[d] = indices->sizes[d];
        int nd = tsr_broadcast_shapes(2, nds, sz, shape);
        if (nd < 0) return NULL;
        ix = tsr_view_expand(indices, nd, shape);
        if (!ix) return NULL;
        memcpy(a, indices->sizes, sizeof(int64_t) * (size_t)indices->ndim);
        a[d] = self->sizes[d];
        sz[0] = a;
        sz[1] = self->sizes;
        nd = tsr_broadcast_shapes(2, nds, sz, shape);
        s = nd < 0 ? NULL : tsr_view_expand(self, nd, shape);
    }
    if (s && ix) r = tsr_out_assign(tsr_gather(s, d, ix), out, true);
    tsr_tensor_release(s);
    tsr_tensor_release(ix);
    return r;
}

tsr_tensor *tsr_sum_to_size(const tsr_tensor *self, int n, const int64_t *size)
{
    bool ok = n <= self->ndim;
    for (int i = 0; ok && i < n; i++) {
        int64_t want = self->sizes[self->ndim - n + i];
        ok = size[i] == want || size[i] == 1;
    }
    if (!ok) {
        char a[512], b[512];
        tsr_error_set(TSR_ERR_RUNTIME, "size {%s} is not expandable to size {%s}.", tsr__fmt_list(a, sizeof a, n, size),
                      tsr__fmt_list(b, sizeof b, self->ndim, self->sizes));
        return NULL;
    }
    if (n == 0) {
        tsr_dims all = {.n = -1};
        return tsr_sum(self, &all, false, TSR_DTYPE_UNDEFINED, NULL);
    }
    int lead = self->ndim - n;
    tsr_dims dims = {0};
    for (int i = 0; i < self->ndim; i++)
        if (i < lead || (size[i - lead] == 1 && self->sizes[i] != 1)) dims.d[dims.n++] = i;
    tsr_tensor *t = dims.n ? tsr_sum(self, &dims, true, TSR_DTYPE_UNDEFINED, NULL) : tsr_tensor_retain((tsr_tensor *)self);
    if (!t || lead == 0) return t;
    tsr_tensor *v = tsr_view_view(t, n, size);
    tsr_tensor_release(t);
    return v;
}
