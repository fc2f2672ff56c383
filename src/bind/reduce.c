/* src/bind/reduce.c — the reductions of runtime/ops/reduce.h (sum, mean,
 * prod, var/std and their _mean forms, amax/amin, max/min, argmax/argmin,
 * all/any, count_nonzero, aminmax) as rows of the binding table with 1.13's
 * signatures. Rows only convert arguments; every rule is the runtime's. */
#include <string.h>

#include "bind/areas.h"
#include "bind/ops.h"
#include "bind/table.h"
#include "bind/tensor.h"
#include "ops/copy.h"
#include "ops/reduce.h"
#include "ops/scan.h"
#include "ops/sort.h"
#include "iter.h"
#include "view.h"

typedef enum {
    K_SUM, K_NANSUM, K_MEAN, K_NANMEAN, K_PROD, K_VAR, K_VAR_MEAN, K_AMAX, K_MAX, K_ARGMAX, K_ALLANY, K_COUNT_NZ,
    K_AMINMAX, K_LOGSUMEXP, K_SOFTMAX, K_CUMSUM, K_LOGCUMSUMEXP, K_CUMMAX, K_SORT, K_ARGSORT, K_MSORT, K_MEDIAN, K_TOPK, K_KTHVALUE,
} Kind;

#define ARG(name) bind_table_arg(b, name)

static int slot_of(const BindArgs *b, const char *name)
{
    for (int i = 0; i < BIND_MAXP; i++)
        if (b->v[i] && b->param[i] && !strcmp(b->param[i]->name, name)) return i;
    return -1;
}

static bool flag(const BindArgs *b, const char *name, bool dflt)
{
    Value *v = ARG(name);
    return v ? v->u.i != 0 : dflt;
}

/* dim as int[1]? / int[] / DimnameList into dims (absent or None: all). */
static int get_dims(const BindArgs *b, const tsr_tensor *t, const char *fname, tsr_dims *dims)
{
    dims->n = -1;
    int s = slot_of(b, "dim");
    if (s < 0) return 0;
    if (b->type[s] == BT_DIMNAME_LIST && b->v[s] && b->v[s]->type == &t_str) {   /* DimnameList[1] */
        int d = tsr_dim_of_name(t, b->v[s]->u.s.p);
        if (d < 0) return bind_runtime_errori();
        dims->n = 1;
        dims->d[0] = d;
        return 0;
    }
    if (b->type[s] == BT_DIMNAME_LIST) {
        Value *l = b->v[s];
        dims->n = 0;
        for (size_t i = 0; i < seq_len(l); i++) {
            Value *n = seq_get(l, i);
            int d = tsr_dim_of_name(t, is_none(n) ? NULL : n->u.s.p);
            if (d < 0) return bind_runtime_errori();
            dims->d[dims->n++] = d;
        }
        if (dims->n == 0) dims->n = -1;
        return 0;
    }
    int n;
    if (bind_table_intlist(b, s, fname, dims->d, TSR_MAX_DIMS, &n) < 0) return -1;
    dims->n = n;
    return 0;
}

/* a single dim (int or Dimname) into *d; 0 absent, 1 present, -1 error */
static int get_dim(const BindArgs *b, const tsr_tensor *t, int64_t *d)
{
    int s = slot_of(b, "dim");
    if (s < 0) return 0;
    if (bind_table_dim(b, s, t, 0, d) < 0) return -1;
    return 1;
}

static tsr_tensor *out_arg(const BindArgs *b)
{
    Value *o = b->v[BIND_OUT];
    return o && is_tensor(o) ? tensor_of(o) : NULL;
}

static Value *pair(const ReturnType *rt, tsr_tensor *a, tsr_tensor *c, Value *outv)
{
    Value *items[2];
    if (outv) {
        tsr_tensor_release(a);
        tsr_tensor_release(c);
        items[0] = incref(seq_get(outv, 0));
        items[1] = incref(seq_get(outv, 1));
    } else {
        items[0] = v_tensor(a);
        items[1] = v_tensor(c);
        if (!items[0] || !items[1]) {
            decref(items[0]);
            decref(items[1]);
            return NULL;
        }
    }
    return v_return_type(rt, items);
}

static int out_pair(Value *outv, tsr_tensor **a, tsr_tensor **c)
{
    *a = *c = NULL;
    if (!outv) return 0;
    if (seq_len(outv) != 2) {
        exc_set("TypeError", "expected tuple of 2 elements but got %zu", seq_len(outv));
        return -1;
    }
    *a = tensor_of(seq_get(outv, 0));
    *c = tensor_of(seq_get(outv, 1));
    return 0;
}

static Value *run_var(const BindRow *row, const char *fname, BindArgs *b, tsr_tensor *x)
{
    tsr_dims dims;
    if (get_dims(b, x, fname, &dims) < 0) return NULL;
    int64_t corr = flag(b, "unbiased", true) ? 1 : 0;
    Value *cv = ARG("correction");
    if (cv && bind_table_int_value(cv, fname, "correction", &corr) < 0) return NULL;
    bool keepdim = flag(b, "keepdim", false), take_sqrt = row->code != 0;
    tsr_tensor *out = out_arg(b), *mean = NULL;
    tsr_tensor *r = tsr_var(x, &dims, corr, keepdim, take_sqrt, out, row->kind == K_VAR_MEAN ? &mean : NULL, fname);
    if (out) ops_warn();
    if (!r) return bind_runtime_error();
    if (row->kind != K_VAR_MEAN) return ops_finish(r, b->v[BIND_OUT]);
    Value *a = v_tensor(r), *c = v_tensor(mean);
    if (!a || !c) {
        decref(a);
        decref(c);
        return NULL;
    }
    return v_tuple_of(2, a, c);
}

static Value *run_max(const BindRow *row, const char *fname, BindArgs *b, tsr_tensor *x)
{
    bool is_max = row->code != 0;
    Value *other = ARG("other");
    if (other) {
        tsr_operand a = tsr_operand_tensor(x), o = tsr_operand_tensor(tensor_of(other));
        return ops_binary(is_max ? TSR_BINOP_MAXIMUM : TSR_BINOP_MINIMUM, fname, NULL, &a, &o, b->v[BIND_OUT], NULL,
                          NULL);
    }
    int64_t d;
    int has = get_dim(b, x, &d);
    if (has < 0) return NULL;
    if (!has) return v_tensor(tsr_max_all(x, is_max));
    tsr_tensor *ov, *oi, *v, *i;
    Value *outv = b->v[BIND_OUT];
    if (out_pair(outv, &ov, &oi) < 0) return NULL;
    if (tsr_max_dim(x, d, flag(b, "keepdim", false), is_max, ov, oi, &v, &i) < 0) return bind_runtime_error();
    if (outv) ops_warn();
    return pair(is_max ? (outv ? &rt_max_out : &rt_max) : (outv ? &rt_min_out : &rt_min), v, i, outv);
}

static Value *reduce_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)inplace;
    tsr_tensor *x = tensor_of(b->v[0]), *out = out_arg(b);
    tsr_dims dims;
    tsr_dtype dt = bind_table_dtype(ARG("dtype"), TSR_DTYPE_UNDEFINED);
    bool keepdim = flag(b, "keepdim", false);
    tsr_tensor *r = NULL;
    int64_t d;
    int has;
    switch ((Kind)row->kind) {
    case K_SUM: case K_NANSUM: case K_MEAN: case K_NANMEAN: {
        if (get_dims(b, x, fname, &dims) < 0) return NULL;
        tsr_tensor *(*fn)(const tsr_tensor *, const tsr_dims *, bool, tsr_dtype, tsr_tensor *) =
            row->kind == K_SUM ? tsr_sum : row->kind == K_NANSUM ? tsr_nansum : row->kind == K_MEAN ? tsr_mean
                                                                                               : tsr_nanmean;
        r = fn(x, &dims, keepdim, dt, out);
        break;
    }
    case K_PROD:
        if ((has = get_dim(b, x, &d)) < 0) return NULL;
        r = tsr_prod(x, has ? &d : NULL, keepdim, dt, out);
        break;
    case K_VAR: case K_VAR_MEAN: return run_var(row, fname, b, x);
    case K_AMAX:
        if (get_dims(b, x, fname, &dims) < 0) return NULL;
        r = tsr_amax(x, &dims, keepdim, row->code != 0, out);
        break;
    case K_MAX: return run_max(row, fname, b, x);
    case K_ARGMAX: {
        Value *dv = ARG("dim");
        if (dv && bind_table_int_value(dv, fname, "dim", &d) < 0) return NULL;
        r = tsr_argmax(x, dv ? &d : NULL, keepdim, row->code != 0, out);
        break;
    }
    case K_ALLANY:
        if ((has = get_dim(b, x, &d)) < 0) return NULL;
        r = tsr_all_any(x, has ? &d : NULL, keepdim, row->code != 0, out);
        break;
    case K_LOGSUMEXP:
        if (get_dims(b, x, fname, &dims) < 0) return NULL;
        r = tsr_logsumexp(x, &dims, keepdim, out);
        break;
    case K_SOFTMAX: {
        if (get_dim(b, x, &d) < 0) return NULL;
        r = tsr_softmax(x, d, dt, row->code != 0);
        if (r && out) {
            /* the out= form of 1.13's _softmax.out: copied into out */
            tsr_tensor *res = NULL;
            if (tsr_tensor_resize_(out, r->ndim, r->sizes) == 0 && tsr_copy_(out, r) == 0) res = tsr_tensor_retain(out);
            tsr_tensor_release(r);
            r = res;
        }
        break;
    }
    case K_CUMSUM:
        if (get_dim(b, x, &d) < 0) return NULL;
        if (inplace) {
            tsr_tensor *t = tensor_of(self);
            r = tsr_cumsum(t, d, dt, row->code != 0, t);
            if (!r) return bind_runtime_error();
            tsr_tensor_release(r);
            return incref(self);
        }
        r = tsr_cumsum(x, d, dt, row->code != 0, out);
        break;
    case K_LOGCUMSUMEXP:
        if (get_dim(b, x, &d) < 0) return NULL;
        r = tsr_logcumsumexp(x, d, out);
        break;
    case K_CUMMAX: {
        Value *outv = b->v[BIND_OUT];
        tsr_tensor *ov, *oi, *v, *i;
        if (get_dim(b, x, &d) < 0 || out_pair(outv, &ov, &oi) < 0) return NULL;
        if (tsr_cummax(x, d, row->code != 0, ov, oi, &v, &i) < 0) return bind_runtime_error();
        if (outv) ops_warn();
        return pair(row->code ? (outv ? &rt_cummax_out : &rt_cummax) : (outv ? &rt_cummin_out : &rt_cummin), v, i, outv);
    }
    case K_SORT: case K_ARGSORT: case K_MSORT: {
        Value *outv = row->kind == K_SORT ? b->v[BIND_OUT] : NULL;
        tsr_tensor *ov = NULL, *oi = NULL, *v, *i;
        d = row->kind == K_MSORT ? 0 : -1;
        if (row->kind != K_MSORT && get_dim(b, x, &d) < 0) return NULL;
        if (out_pair(outv, &ov, &oi) < 0) return NULL;
        Value *sv = ARG("stable");
        if (tsr_sort(x, d, flag(b, "descending", false), sv && sv->u.i, ov, oi, &v, &i) < 0) return bind_runtime_error();
        if (row->kind == K_ARGSORT) {
            tsr_tensor_release(v);
            return v_tensor(i);
        }
        if (row->kind == K_MSORT) {
            tsr_tensor_release(i);
            r = v;
            if (out) {
                tsr_tensor *res = NULL;
                if (tsr_tensor_resize_(out, r->ndim, r->sizes) == 0 && tsr_copy_(out, r) == 0) res = tsr_tensor_retain(out);
                tsr_tensor_release(r);
                r = res;
            }
            break;
        }
        if (outv) ops_warn();
        return pair(outv ? &rt_sort_out : &rt_sort, v, i, outv);
    }
    case K_MEDIAN: {
        Value *outv = b->v[BIND_OUT];
        tsr_tensor *ov, *oi, *v, *i;
        if ((has = get_dim(b, x, &d)) < 0 || out_pair(outv, &ov, &oi) < 0) return NULL;
        if (row->code == TSR_MODE && !has) d = -1, has = 1;
        if (tsr_median(x, has ? &d : NULL, keepdim, row->code, ov, oi, &v, &i) < 0) return bind_runtime_error();
        if (!has) return v_tensor(v);
        if (outv) ops_warn();
        static const ReturnType *const rts[3][2] = {{&rt_median, &rt_median_out}, {&rt_nanmedian, &rt_nanmedian_out},
                                                    {&rt_mode, &rt_mode_out}};
        return pair(rts[row->code][outv != NULL], v, i, outv);
    }
    case K_TOPK: {
        Value *outv = b->v[BIND_OUT];
        tsr_tensor *ov, *oi, *v, *i;
        int64_t k;
        d = -1;
        if (bind_table_int_value(ARG("k"), fname, "k", &k) < 0 || out_pair(outv, &ov, &oi) < 0) return NULL;
        Value *dv = ARG("dim");
        if (dv && bind_table_int_value(dv, fname, "dim", &d) < 0) return NULL;
        if (tsr_topk(x, k, d, flag(b, "largest", true), flag(b, "sorted", true), ov, oi, &v, &i) < 0)
            return bind_runtime_error();
        if (outv) ops_warn();
        return pair(outv ? &rt_topk_out : &rt_topk, v, i, outv);
    }
    case K_KTHVALUE: {
        Value *outv = b->v[BIND_OUT];
        tsr_tensor *ov, *oi, *v, *i;
        int64_t k;
        d = -1;
        if (bind_table_int_value(ARG("k"), fname, "k", &k) < 0 || out_pair(outv, &ov, &oi) < 0) return NULL;
        if (get_dim(b, x, &d) < 0) return NULL;
        if (tsr_kthvalue(x, k, d, keepdim, ov, oi, &v, &i) < 0) return bind_runtime_error();
        if (outv) ops_warn();
        return pair(outv ? &rt_kthvalue_out : &rt_kthvalue, v, i, outv);
    }
    case K_COUNT_NZ:
        if (get_dims(b, x, fname, &dims) < 0) return NULL;
        r = tsr_count_nonzero(x, &dims);
        break;
    case K_AMINMAX: {
        Value *dv = ARG("dim"), *outv = b->v[BIND_OUT];
        tsr_tensor *omin, *omax;
        if (dv && bind_table_int_value(dv, fname, "dim", &d) < 0) return NULL;
        if (out_pair(outv, &omin, &omax) < 0) return NULL;
        dims.n = dv ? 1 : -1;
        dims.d[0] = d;
        /* the CUDA kernels (ReduceAMinMaxKernel.cu) take float16 and bfloat16 */
        bool dev = x->device.type != TSR_DEV_CPU && x->device.type != TSR_DEV_META;
        if (tsr_dtype_is_complex(x->dtype) || (!dev && (x->dtype == TSR_FLOAT16 || (dv && x->dtype == TSR_BFLOAT16))))
            return exc_set("RuntimeError", "\"%s\" not implemented for '%s'",
                           dev ? (dv ? "aminmax_cuda" : "aminmax_all_cuda") : "aminmax_cpu",
                           tsr_dtype_scalar_name(x->dtype));
        if (tsr_tensor_numel(x) == 0 && !dv)
            return exc_set("RuntimeError", "aminmax(): cannot compute aminmax over an empty dimension as the "
                                           "operation has no identity.");
        tsr_tensor *mn = tsr_amax(x, &dims, keepdim, false, omin);
        tsr_tensor *mx = mn ? tsr_amax(x, &dims, keepdim, true, omax) : NULL;
        if (outv) ops_warn();
        if (!mx) {
            tsr_tensor_release(mn);
            return bind_runtime_error();
        }
        return pair(outv ? &rt_aminmax_out : &rt_aminmax, mn, mx, outv);
    }
    }
    if (out) ops_warn();
    (void)self;
    if (!r) return bind_runtime_error();
    return ops_finish(r, b->v[BIND_OUT]);
}

/* ------------------------------------------------------------ the table */

#define FM (BIND_FN | BIND_METHOD)
#define ROW(n, k, c, fl, s) {.name = n, .kind = k, .code = c, .flags = fl, .sigs = s, .handler = reduce_call}
#define DT "*, ScalarType? dtype=None"
#define SUMSIG "Tensor input, " DT "|Tensor input, int[1]? dim, bool keepdim=False, " DT ", Tensor? out=None|" \
               "Tensor input, DimnameList[1] dim, bool keepdim=False, " DT ", Tensor? out=None"
#define NANSIG "Tensor input, int[1]? dim=None, bool keepdim=False, " DT ", Tensor? out=None"
#define VARSIG(o) "Tensor input, int[1]? dim=None, *, int? correction=None, bool keepdim=False" o "|"                    \
                  "Tensor input, int[1]? dim, bool unbiased=True, bool keepdim=False" o "|Tensor input, bool unbiased=True|" \
                  "Tensor input, DimnameList[1] dim, *, int? correction=None, bool keepdim=False" o "|"                      \
                  "Tensor input, DimnameList[1] dim, bool unbiased=True, bool keepdim=False" o
#define VOUT ", *, Tensor? out=None"
#define VOUTK ", Tensor? out=None"
#define AMSIG "Tensor input, int[1]? dim=[], bool keepdim=False, *, Tensor? out=None"
#define MAXSIG "Tensor input|Tensor input, Tensor other, *, Tensor? out=None|" \
               "Tensor input, int dim, bool keepdim=False, *, Tensor[]? out=None|" \
               "Tensor input, Dimname dim, bool keepdim=False, *, Tensor[]? out=None"
#define ARGSIG "Tensor input, int? dim=None, bool keepdim=False, *, Tensor? out=None"
#define ALLSIG "Tensor input, *, Tensor? out=None|Tensor input, int dim, bool keepdim=False, *, Tensor? out=None|" \
               "Tensor input, Dimname dim, bool keepdim=False, *, Tensor? out=None"

static BindRow rows[] = {
    ROW("sum", K_SUM, 0, FM, SUMSIG),
    ROW("nansum", K_NANSUM, 0, FM, NANSIG),
    ROW("mean", K_MEAN, 0, FM, SUMSIG),
    ROW("nanmean", K_NANMEAN, 0, FM, NANSIG),
    ROW("prod", K_PROD, 0, FM, "Tensor input, " DT "|Tensor input, int dim, bool keepdim=False, " DT ", Tensor? out=None|"
                               "Tensor input, Dimname dim, bool keepdim=False, " DT ", Tensor? out=None"),
    ROW("var", K_VAR, 0, FM, "Tensor input, int[1]? dim, *, int? correction=None, bool keepdim=False, Tensor? out=None|"
                             "Tensor input, int[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor? out=None|"
                             "Tensor input, bool unbiased=True|"
                             "Tensor input, DimnameList[1] dim, *, int? correction=None, bool keepdim=False, Tensor? out=None|"
                             "Tensor input, DimnameList[1] dim, bool unbiased=True, bool keepdim=False, *, Tensor? out=None"),
    ROW("std", K_VAR, 1, FM, "Tensor input, int[1]? dim, *, int? correction=None, bool keepdim=False, Tensor? out=None|"
                             "Tensor input, int[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor? out=None|"
                             "Tensor input, bool unbiased=True|"
                             "Tensor input, DimnameList[1] dim, *, int? correction=None, bool keepdim=False, Tensor? out=None|"
                             "Tensor input, DimnameList[1] dim, bool unbiased=True, bool keepdim=False, *, Tensor? out=None"),
    ROW("var_mean", K_VAR_MEAN, 0, BIND_FN, "Tensor input, int[1]? dim, *, int? correction=None, bool keepdim=False|"
                                            "Tensor input, int[1]? dim, bool unbiased=True, bool keepdim=False|"
                                            "Tensor input, bool unbiased=True|"
                                            "Tensor input, DimnameList[1] dim, *, int? correction=None, bool keepdim=False|"
                                            "Tensor input, DimnameList[1] dim, bool unbiased=True, bool keepdim=False"),
    ROW("std_mean", K_VAR_MEAN, 1, BIND_FN, "Tensor input, int[1]? dim, *, int? correction=None, bool keepdim=False|"
                                            "Tensor input, int[1]? dim, bool unbiased=True, bool keepdim=False|"
                                            "Tensor input, bool unbiased=True|"
                                            "Tensor input, DimnameList[1] dim, *, int? correction=None, bool keepdim=False|"
                                            "Tensor input, DimnameList[1] dim, bool unbiased=True, bool keepdim=False"),
    ROW("amax", K_AMAX, 1, FM, AMSIG),
    ROW("amin", K_AMAX, 0, FM, AMSIG),
    ROW("max", K_MAX, 1, FM, MAXSIG),
    ROW("min", K_MAX, 0, FM, MAXSIG),
    ROW("argmax", K_ARGMAX, 1, FM, ARGSIG),
    ROW("argmin", K_ARGMAX, 0, FM, ARGSIG),
    ROW("all", K_ALLANY, 1, FM, ALLSIG),
    ROW("any", K_ALLANY, 0, FM, ALLSIG),
    ROW("count_nonzero", K_COUNT_NZ, 0, FM, "Tensor input, int? dim=None|Tensor input, int[] dim"),
    ROW("aminmax", K_AMINMAX, 0, FM, "Tensor input, *, int? dim=None, bool keepdim=False, Tensor[]? out=None"),
    ROW("logsumexp", K_LOGSUMEXP, 0, FM, "Tensor input, int[1] dim, bool keepdim=False, *, Tensor? out=None|"
                                         "Tensor input, DimnameList[1] dim, bool keepdim=False, *, Tensor? out=None"),
    ROW("softmax", K_SOFTMAX, 0, FM, "Tensor input, int dim, ScalarType? dtype=None, *, Tensor? out=None|"
                                     "Tensor input, Dimname dim, *, ScalarType? dtype=None"),
    ROW("log_softmax", K_SOFTMAX, 1, FM, "Tensor input, int dim, ScalarType? dtype=None, *, Tensor? out=None|"
                                         "Tensor input, Dimname dim, *, ScalarType? dtype=None"),
    ROW("cumsum", K_CUMSUM, 0, FM | BIND_INPLACE, "Tensor input, int dim, *, ScalarType? dtype=None, Tensor? out=None|"
                                                  "Tensor input, Dimname dim, *, ScalarType? dtype=None, Tensor? out=None"),
    ROW("cumprod", K_CUMSUM, 1, FM | BIND_INPLACE, "Tensor input, int dim, *, ScalarType? dtype=None, Tensor? out=None|"
                                                   "Tensor input, Dimname dim, *, ScalarType? dtype=None, Tensor? out=None"),
    ROW("logcumsumexp", K_LOGCUMSUMEXP, 0, FM, "Tensor input, int dim, *, Tensor? out=None|"
                                               "Tensor input, Dimname dim, *, Tensor? out=None"),
    ROW("cummax", K_CUMMAX, 1, FM, "Tensor input, int dim, *, Tensor[]? out=None|Tensor input, Dimname dim, *, Tensor[]? out=None"),
    ROW("cummin", K_CUMMAX, 0, FM, "Tensor input, int dim, *, Tensor[]? out=None|Tensor input, Dimname dim, *, Tensor[]? out=None"),
    ROW("sort", K_SORT, 0, FM, "Tensor input, *, bool? stable, int dim=-1, bool descending=False, Tensor[]? out=None|"
                               "Tensor input, int dim=-1, bool descending=False, *, Tensor[]? out=None|"
                               "Tensor input, *, bool? stable, Dimname dim, bool descending=False, Tensor[]? out=None|"
                               "Tensor input, Dimname dim, bool descending=False, *, Tensor[]? out=None"),
    ROW("argsort", K_ARGSORT, 0, FM, "Tensor input, *, bool stable, int dim=-1, bool descending=False|"
                                     "Tensor input, int dim=-1, bool descending=False|"
                                     "Tensor input, Dimname dim, bool descending=False"),
    ROW("msort", K_MSORT, 0, FM, "Tensor input, *, Tensor? out=None"),
#define MEDSIG "Tensor input|Tensor input, int dim, bool keepdim=False, *, Tensor[]? out=None|" \
               "Tensor input, Dimname dim, bool keepdim=False, *, Tensor[]? out=None"
    ROW("median", K_MEDIAN, TSR_MEDIAN, FM, MEDSIG),
    ROW("nanmedian", K_MEDIAN, TSR_NANMEDIAN, FM, MEDSIG),
    ROW("mode", K_MEDIAN, TSR_MODE, FM, "Tensor input, int dim=-1, bool keepdim=False, *, Tensor[]? out=None|"
                                        "Tensor input, Dimname dim, bool keepdim=False, *, Tensor[]? out=None"),
    ROW("topk", K_TOPK, 0, FM, "Tensor input, int k, int dim=-1, bool largest=True, bool sorted=True, *, Tensor[]? out=None"),
    ROW("kthvalue", K_KTHVALUE, 0, FM, "Tensor input, int k, int dim=-1, bool keepdim=False, *, Tensor[]? out=None|"
                                       "Tensor input, int k, Dimname dim, bool keepdim=False, *, Tensor[]? out=None"),
    {.name = "softmax", .kind = K_SOFTMAX, .code = 0, .flags = BIND_FN, .handler = reduce_call,
     .sigs = "Tensor input, int dim, ScalarType? dtype=None", .module = "torch.special"},
    {.name = "log_softmax", .kind = K_SOFTMAX, .code = 1, .flags = BIND_FN, .handler = reduce_call,
     .sigs = "Tensor input, int dim, *, ScalarType? dtype=None", .module = "torch.special"},
    {.name = "logsumexp", .kind = K_LOGSUMEXP, .code = 0, .flags = BIND_FN, .handler = reduce_call,
     .sigs = "Tensor input, int[1] dim, bool keepdim=False, *, Tensor? out=None", .module = "torch.special"},
};

void bind_reduce_init(void)
{
    bind_table_register(rows, (int)(sizeof rows / sizeof rows[0]));
}
