/* src/bind/stats.c — the statistics of runtime/ops/stats.h (diff,
 * trapezoid, cov, corrcoef, quantile, bincount, histc, histogram, unique)
 * as rows of the binding table with 1.13's signatures. Rows only convert
 * arguments; every rule is the runtime's. */
#include <string.h>

#include "bind/areas.h"
#include "bind/ops.h"
#include "bind/table.h"
#include "bind/tensor.h"
#include "ops/stats.h"

typedef enum { K_DIFF, K_TRAPZ, K_COV, K_CORRCOEF, K_QUANTILE, K_BINCOUNT, K_HISTC, K_HISTOGRAM, K_HISTOGRAMDD, K_UNIQUE, K_GRADIENT } Kind;
enum { C_TRAPEZOID, C_TRAPZ, C_CUMTRAPZ };

#define ARG(name) bind_table_arg(b, name)

static tsr_tensor *tensor_arg(const BindArgs *b, const char *name)
{
    Value *v = ARG(name);
    return v && is_tensor(v) ? tensor_of(v) : NULL;
}

static bool flag(const BindArgs *b, const char *name, bool dflt)
{
    Value *v = ARG(name);
    return v ? v->u.i != 0 : dflt;
}

static int int_arg(const BindArgs *b, const char *fname, const char *name, int64_t dflt, int64_t *out)
{
    Value *v = ARG(name);
    *out = dflt;
    return v ? bind_table_int_value(v, fname, name, out) : 0;
}

static Value *unique_result(tsr_tensor *o, tsr_tensor *inv, tsr_tensor *cnt, bool want_inv, bool want_cnt)
{
    if (!want_inv && !want_cnt) {
        tsr_tensor_release(inv);
        tsr_tensor_release(cnt);
        return v_tensor(o);
    }
    Value *a = v_tensor(o), *i = want_inv ? v_tensor(inv) : NULL, *c = want_cnt ? v_tensor(cnt) : NULL;
    if (!want_inv) tsr_tensor_release(inv);
    if (!want_cnt) tsr_tensor_release(cnt);
    if (!a || (want_inv && !i) || (want_cnt && !c)) {
        decref(a);
        decref(i);
        decref(c);
        return NULL;
    }
    if (want_inv && want_cnt) return v_tuple_of(3, a, i, c);
    return v_tuple_of(2, a, want_inv ? i : c);
}

static Value *stats_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)self;
    (void)inplace;
    tsr_tensor *x = tensor_of(b->v[0]), *out = b->v[BIND_OUT] && is_tensor(b->v[BIND_OUT]) ? tensor_of(b->v[BIND_OUT]) : NULL;
    tsr_tensor *r = NULL;
    int64_t n, d;
    switch ((Kind)row->kind) {
    case K_DIFF:
        if (int_arg(b, fname, "n", 1, &n) < 0 || int_arg(b, fname, "dim", -1, &d) < 0) return NULL;
        r = tsr_diff(x, n, d, tensor_arg(b, "prepend"), tensor_arg(b, "append"), out);
        break;
    case K_TRAPZ: {
        double dx = 1;
        Value *dv = ARG("dx");
        if (int_arg(b, fname, "dim", -1, &d) < 0) return NULL;
        if (dv) {
            if (is_type(dv, &t_complex) || is_type(dv, &t_bool))
                return exc_set("RuntimeError", "%s: Currently, we only support dx as a real number.",
                               row->code == C_CUMTRAPZ ? "cumulative_trapezoid" : "trapezoid");
            if (bind_table_float(dv, fname, "dx", &dx) < 0) return NULL;
        }
        r = tsr_trapezoid(x, tensor_arg(b, "x"), dx, d, row->code == C_CUMTRAPZ);
        break;
    }
    case K_COV:
        if (int_arg(b, fname, "correction", 1, &n) < 0) return NULL;
        r = tsr_cov(x, n, tensor_arg(b, "fweights"), tensor_arg(b, "aweights"));
        break;
    case K_CORRCOEF:
        r = tsr_corrcoef(x);
        break;
    case K_QUANTILE: {
        Value *qv = ARG("q"), *dv = ARG("dim"), *iv = ARG("interpolation");
        double qs = 0;
        if (dv && bind_table_int_value(dv, fname, "dim", &d) < 0) return NULL;
        if (!is_tensor(qv) && bind_table_float(qv, fname, "q", &qs) < 0) return NULL;
        r = tsr_quantile(x, is_tensor(qv) ? tensor_of(qv) : NULL, qs, dv ? &d : NULL, flag(b, "keepdim", false),
                         iv ? iv->u.s.p : "linear", row->code != 0, out);
        break;
    }
    case K_BINCOUNT:
        if (int_arg(b, fname, "minlength", 0, &n) < 0) return NULL;
        r = tsr_bincount(x, tensor_arg(b, "weights"), n);
        break;
    case K_HISTC: {
        double lo = 0, hi = 0;
        Value *mn = ARG("min"), *mx = ARG("max");
        if (int_arg(b, fname, "bins", 100, &n) < 0) return NULL;
        if ((mn && bind_table_float(mn, fname, "min", &lo) < 0) || (mx && bind_table_float(mx, fname, "max", &hi) < 0))
            return NULL;
        r = tsr_histc(x, n, lo, hi, out);
        break;
    }
    case K_HISTOGRAM: {
        Value *bv = ARG("bins"), *rv = ARG("range"), *outv = b->v[BIND_OUT];
        double range[2];
        tsr_tensor *ho = NULL, *eo = NULL, *h, *e;
        n = 100;
        if (bv && !is_tensor(bv) && bind_table_int_value(bv, fname, "bins", &n) < 0) return NULL;
        if (rv) {
            if (seq_len(rv) != 2)
                return exc_set("RuntimeError", "torch.histogramdd: for a 1-dimensional histogram range should have 2 "
                                               "elements, but got %zu", seq_len(rv));
            if (bind_table_float(seq_get(rv, 0), fname, "range", &range[0]) < 0 ||
                bind_table_float(seq_get(rv, 1), fname, "range", &range[1]) < 0) return NULL;
        }
        if (outv) {
            if (seq_len(outv) != 2) return exc_set("TypeError", "expected tuple of 2 elements but got %zu", seq_len(outv));
            ho = tensor_of(seq_get(outv, 0));
            eo = tensor_of(seq_get(outv, 1));
        }
        if (tsr_histogram(x, bv && is_tensor(bv) ? tensor_of(bv) : NULL, n, rv ? range : NULL, tensor_arg(b, "weight"),
                          flag(b, "density", false), ho, eo, &h, &e) < 0)
            return bind_runtime_error();
        Value *items[2] = {v_tensor(h), v_tensor(e)};
        if (!items[0] || !items[1]) {
            decref(items[0]);
            decref(items[1]);
            return NULL;
        }
        return v_return_type(outv ? &rt_histogram_out : &rt_histogram, items);
    }
    case K_HISTOGRAMDD: {   /* bins: one count (every dim), counts, or edge tensors */
        Value *bv = ARG("bins"), *rv = ARG("range");
        double range[2 * TSR_MAX_DIMS];
        int64_t counts[TSR_MAX_DIMS];
        const tsr_tensor *edges_in[TSR_MAX_DIMS];
        int nb = 0, nr = rv ? (int)seq_len(rv) : 0, D = x->ndim ? (int)x->sizes[x->ndim - 1] : 0;
        if (b->sig == 0) {
            if (bind_table_int_value(bv, fname, "bins", &n) < 0) return NULL;
            nb = D < TSR_MAX_DIMS ? D : TSR_MAX_DIMS;
            for (int i = 0; i < nb; i++) counts[i] = n;
        } else {
            nb = (int)seq_len(bv);
            if (nb > TSR_MAX_DIMS && b->sig == 1) nb = TSR_MAX_DIMS;   /* counts: the first D are read */
            if (nb > TSR_MAX_DIMS) return exc_set("NotImplementedError", "tsr: histogramdd of more than %d dimensions",
                                                  TSR_MAX_DIMS);
            for (int i = 0; i < nb; i++) {
                Value *it = seq_get(bv, (size_t)i);
                if (b->sig == 2) edges_in[i] = tensor_of(it);
                else if (bind_table_int_value(it, fname, "bins", &counts[i]) < 0) return NULL;
            }
        }
        if (nr > 2 * TSR_MAX_DIMS) nr = 2 * TSR_MAX_DIMS + 1;
        for (int i = 0; i < nr && i < 2 * TSR_MAX_DIMS; i++)
            if (bind_table_float(seq_get(rv, (size_t)i), fname, "range", &range[i]) < 0) return NULL;
        tsr_tensor *h, *e[TSR_MAX_DIMS];
        if (tsr_histogramdd(x, nb, b->sig == 2 ? edges_in : NULL, counts, rv ? range : NULL, nr, tensor_arg(b, "weight"),
                            flag(b, "density", false), &h, e, &nb) < 0)
            return bind_runtime_error();
        Value *et = v_tuple((size_t)nb);
        for (int i = 0; i < nb; i++) et->u.seq.items[i] = v_tensor(e[i]);
        Value *items[2] = {v_tensor(h), et};
        return v_return_type(&rt_histogramdd, items);
    }
    case K_GRADIENT: {
        Value *sv = ARG("spacing"), *dv = ARG("dim");
        int slot = -1;
        for (int i = 0; i < BIND_MAXP; i++)
            if (b->v[i] && b->param[i] && !strcmp(b->param[i]->name, "dim")) slot = i;
        int64_t dims[TSR_MAX_DIMS], eo;
        int nd = 0, nsp = -1, nres = 0;
        tsr_scalar sp[TSR_MAX_DIMS];
        const tsr_tensor *co[TSR_MAX_DIMS];
        bool coords = false;
        if (int_arg(b, fname, "edge_order", 1, &eo) < 0) return NULL;
        if (dv) {
            if (b->type[slot] == BT_INT_LIST) {
                if (bind_table_intlist(b, slot, fname, dims, TSR_MAX_DIMS, &nd) < 0) return NULL;
            } else {
                if (bind_table_int_value(dv, fname, "dim", &dims[0]) < 0) return NULL;
                nd = 1;
            }
        }
        if (sv) {
            if (is_tensor(sv) || !(is_type(sv, &t_list) || is_type(sv, &t_tuple))) {
                /* one Scalar: a spacing per dim reduced (1.13 repeats it) */
                if (bind_scalar(sv, fname, "spacing", &sp[0]) < 0) return NULL;
                nsp = dv ? nd : x->ndim;
                for (int i = 1; i < nsp; i++) sp[i] = sp[0];
                if (nsp == 0) nsp = 1;
            } else {
                nsp = (int)seq_len(sv);
                if (nsp > TSR_MAX_DIMS) return exc_set("RuntimeError", "torch.gradient: too many spacing values");
                for (int i = 0; i < nsp; i++) {
                    Value *e = seq_get(sv, i);
                    if (is_tensor(e)) {
                        co[i] = tensor_of(e);
                        coords = true;
                    } else if (bind_scalar(e, fname, "spacing", &sp[i]) < 0) {
                        return NULL;
                    }
                }
            }
        }
        tsr_tensor *res[TSR_MAX_DIMS];
        if (tsr_gradient(x, nsp, sv && !coords ? sp : NULL, coords ? co : NULL, dv ? dims : NULL, nd, dv != NULL, eo,
                         res, &nres) < 0)
            return bind_runtime_error();
        Value *t = v_tuple(nres);
        for (int i = 0; i < nres; i++) {
            Value *e = v_tensor(res[i]);
            if (!t || !e) {
                for (int j = i + 1; j < nres; j++) tsr_tensor_release(res[j]);
                decref(e);
                decref(t);
                return NULL;
            }
            t->u.seq.items[i] = e;
        }
        return t;
    }
    case K_UNIQUE: {
        Value *dv = ARG("dim");
        bool consecutive = row->code != 0, inv = flag(b, "return_inverse", false), cnt = flag(b, "return_counts", false);
        tsr_tensor *o, *i, *c;
        if (dv && bind_table_int_value(dv, fname, "dim", &d) < 0) return NULL;
        if (tsr_unique(x, flag(b, "sorted", true), consecutive, inv, cnt, dv ? &d : NULL, &o, &i, &c) < 0)
            return bind_runtime_error();
        return unique_result(o, i, c, inv, cnt);
    }
    }
    if (!r) return bind_runtime_error();
    return ops_finish(r, b->v[BIND_OUT]);
}

/* ------------------------------------------------------------ the table */

#define FM (BIND_FN | BIND_METHOD)
#define ROW(nm, k, c, fl, s) {.name = nm, .kind = k, .code = c, .flags = fl, .sigs = s, .handler = stats_call}
#define QSIG(q) "Tensor input, " q " q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\", Tensor? out=None"

static BindRow rows[] = {
    ROW("diff", K_DIFF, 0, FM, "Tensor input, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None, *, "
                               "Tensor? out=None"),
    ROW("trapezoid", K_TRAPZ, C_TRAPEZOID, BIND_FN, "Tensor y, Tensor x, *, int dim=-1|Tensor y, *, Number dx=1, int dim=-1"),
    ROW("trapz", K_TRAPZ, C_TRAPZ, BIND_FN, "Tensor y, Tensor x, *, int dim=-1|Tensor y, *, float dx=1, int dim=-1"),
    ROW("cumulative_trapezoid", K_TRAPZ, C_CUMTRAPZ, BIND_FN,
        "Tensor y, Tensor x, *, int dim=-1|Tensor y, *, Number dx=1, int dim=-1"),
    ROW("cov", K_COV, 0, FM, "Tensor input, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None"),
    ROW("corrcoef", K_CORRCOEF, 0, FM, "Tensor input"),
    ROW("quantile", K_QUANTILE, 0, FM, QSIG("Tensor") "|" QSIG("float")),
    ROW("nanquantile", K_QUANTILE, 1, FM, QSIG("Tensor") "|" QSIG("float")),
    ROW("bincount", K_BINCOUNT, 0, FM, "Tensor input, Tensor? weights=None, int minlength=0"),
    ROW("histc", K_HISTC, 0, FM, "Tensor input, int bins=100, Number min=0, Number max=0, *, Tensor? out=None"),
    ROW("histogram", K_HISTOGRAM, 0, FM, "Tensor input, Tensor bins, *, Tensor? weight=None, bool density=False, "
                                         "Tensor[]? out=None|Tensor input, int bins=100, *, float[]? range=None, "
                                         "Tensor? weight=None, bool density=False, Tensor[]? out=None"),
    ROW("histogramdd", K_HISTOGRAMDD, 0, BIND_FN,
        "Tensor input, int bins, float[]? range=None, Tensor? weight=None, bool density=False|"
        "Tensor input, int[] bins, float[]? range=None, Tensor? weight=None, bool density=False|"
        "Tensor input, Tensor[] bins, float[]? range=None, Tensor? weight=None, bool density=False"),
    ROW("gradient", K_GRADIENT, 0, BIND_FN,
        "Tensor input, *, Number? spacing=None, int? dim=None, int edge_order=1|"
        "Tensor input, *, Number spacing, int[] dim, int edge_order=1|Tensor input, *, int[] dim, int edge_order=1|"
        "Tensor input, *, float[] spacing, int? dim=None, int edge_order=1|"
        "Tensor input, *, float[] spacing, int[] dim, int edge_order=1|"
        "Tensor input, *, Tensor[] spacing, int? dim=None, int edge_order=1|"
        "Tensor input, *, Tensor[] spacing, int[] dim, int edge_order=1"),
    ROW("unique", K_UNIQUE, 0, FM, "Tensor input, bool sorted=True, bool return_inverse=False, bool return_counts=False, "
                                   "int? dim=None"),
    ROW("unique_consecutive", K_UNIQUE, 1, FM, "Tensor input, bool return_inverse=False, bool return_counts=False, "
                                               "int? dim=None"),
};

void bind_stats_init(void)
{
    bind_table_register(rows, (int)(sizeof rows / sizeof rows[0]));
}
