/* cuda/reduce.h — the reductions' accumulators and per-output drivers,
 * written once for the device (nvcc) and the simulator (g++), beside the
 * elementwise bodies of kern.h. An accumulator (KAcc) holds a value in the
 * compute type C (sums and products: ints in int64 with wrap-around,
 * float16/bfloat16 in float, as ATen's acc_type<T, true>) and an int64
 * (the extreme's index, -1 before the first element; all/any's truth;
 * count_nonzero's count). Accumulators combine in any order: the extremes
 * break ties by index (the first NaN, else the first occurrence, as
 * ATen's greater_or_nan / less_or_nan), so a reduction split into partial
 * accumulators gives the one-thread result (sums up to rounding). The
 * launch record and op numbers are runtime/kernels.h's. */
#ifndef TSR_CUDA_REDUCE_H
#define TSR_CUDA_REDUCE_H
#include "kern.h"

template <typename C> struct KAcc {
    C v;          /* the sum, product, extreme, norm accumulator; Welford's mean */
    C m2;         /* Welford's sum of squared deviations */
    int64_t i;    /* the extreme's index; truth; count; Welford's n */
    float nf;     /* Welford's n as WelfordOps' combine_t (float) */
};

/* Whether reduction op has a body for compute type c (k_ctype): no complex. */
KHD bool kr_supported(int op, int c)
{
    if (c < 0 || c >= 4) return false;
    switch (op) {
    case TSR_KR_MEAN: case TSR_KR_VAR: case TSR_KR_VAR_MEAN: case TSR_KR_NORM: case TSR_KR_NANSUM:
        return c == 1 || c == 2;
    case TSR_KR_SUM: case TSR_KR_PROD: case TSR_KR_MAX: case TSR_KR_MIN: case TSR_KR_ARGMAX: case TSR_KR_ARGMIN:
    case TSR_KR_MAX_DIM: case TSR_KR_MIN_DIM: case TSR_KR_ALL: case TSR_KR_ANY: case TSR_KR_COUNT_NZ:
        return true;
    default:
        return false;
    }
}

KHD bool kr_nan(float x) { return x != x; }
KHD bool kr_nan(double x) { return x != x; }
KHD bool kr_nan(int64_t) { return false; }
KHD bool kr_nan(bool) { return false; }

KHD float kr_add(float a, float b) { return a + b; }
KHD double kr_add(double a, double b) { return a + b; }
KHD int64_t kr_add(int64_t a, int64_t b) { return k_wrap((uint64_t)a + (uint64_t)b); }
KHD bool kr_add(bool a, bool b) { return a || b; }

/* (k_pow, k_mul: kern.h's) */

/* The floating bodies (MEAN's projection, Welford, norms); the integral
 * and bool instances exist for the dispatch only (kr_supported). */
template <typename C> struct KFlt {
    static KHD C scale(C a, C f) { return a * f; }
    static KHD C div(C a, C b) { return a / b; }
    static KHD C abs(C a) { return k_fabs(a); }
    static KHD C sqrt(C a) { return k_sqrt(a); }
    static KHD C pow(C a, C b) { return k_pow(a, b); }
    static KHD C inf() { return (C)INFINITY; }
};
template <> struct KFlt<int64_t> {
    static KHD int64_t scale(int64_t a, int64_t) { return a; }
    static KHD int64_t div(int64_t a, int64_t) { return a; }
    static KHD int64_t abs(int64_t a) { return a; }
    static KHD int64_t sqrt(int64_t a) { return a; }
    static KHD int64_t pow(int64_t a, int64_t) { return a; }
    static KHD int64_t inf() { return 0; }
};
template <> struct KFlt<bool> {
    static KHD bool scale(bool a, bool) { return a; }
    static KHD bool div(bool a, bool) { return a; }
    static KHD bool abs(bool a) { return a; }
    static KHD bool sqrt(bool a) { return a; }
    static KHD bool pow(bool a, bool) { return a; }
    static KHD bool inf() { return false; }
};

KHD bool kr_is_max(int op) { return op == TSR_KR_MAX || op == TSR_KR_ARGMAX || op == TSR_KR_MAX_DIM; }
KHD bool kr_is_extreme(int op)
{
    return op == TSR_KR_MAX || op == TSR_KR_MIN || op == TSR_KR_ARGMAX || op == TSR_KR_ARGMIN ||
           op == TSR_KR_MAX_DIM || op == TSR_KR_MIN_DIM;
}

/* Whether b replaces a as the extreme: NaN first, then the larger (max) or
 * smaller (min), the lower index on equal values. */
template <bool MAX, typename C> KHD bool kr_better(const KAcc<C> &b, const KAcc<C> &a)
{
    if (b.i < 0) return false;
    if (a.i < 0) return true;
    bool an = kr_nan(a.v), bn = kr_nan(b.v);
    if (an || bn) return an && bn ? b.i < a.i : bn;
    if (a.v == b.v) return b.i < a.i;
    return MAX ? a.v < b.v : b.v < a.v;
}

/* max_propagate_nan / min_propagate_nan of the norms of inf and -inf */
template <typename C> KHD C kr_maxnan(C a, C b) { return kr_nan(a) ? a : kr_nan(b) ? b : a < b ? b : a; }
template <typename C> KHD C kr_minnan(C a, C b) { return kr_nan(a) ? a : kr_nan(b) ? b : b < a ? b : a; }

template <int OP, typename C> KHD void kr_init(const tsr_kreduce &g, KAcc<C> &a)
{
    a.v = OP == TSR_KR_PROD ? (C)1 : (C)0;
    if (OP == TSR_KR_NORM && g.p == -INFINITY) a.v = KFlt<C>::inf();
    a.m2 = (C)0;
    a.nf = 0;
    a.i = kr_is_extreme(OP) ? -1 : OP == TSR_KR_ALL ? 1 : 0;
}

template <int OP, typename C> KHD void kr_combine(const tsr_kreduce &g, KAcc<C> &a, const KAcc<C> &b)
{
    switch (OP) {
    case TSR_KR_SUM: case TSR_KR_MEAN: a.v = kr_add(a.v, b.v); return;
    case TSR_KR_PROD: a.v = k_mul(a.v, b.v); return;
    case TSR_KR_ALL: a.i = a.i && b.i; return;
    case TSR_KR_ANY: a.i = a.i || b.i; return;
    case TSR_KR_COUNT_NZ: a.i += b.i; return;
    case TSR_KR_NANSUM: a.v = kr_add(a.v, b.v); return;   /* NaN made zero by kr_step */
    case TSR_KR_NORM:
        if (g.p == INFINITY) a.v = kr_maxnan(a.v, b.v);
        else if (g.p == -INFINITY) a.v = kr_minnan(a.v, b.v);
        else a.v = kr_add(a.v, b.v);
        return;
    case TSR_KR_VAR: case TSR_KR_VAR_MEAN: {
        /* WelfordOps::combine */
        if (a.nf == 0) {
            a = b;
            return;
        }
        if (b.nf == 0) return;
        C delta = b.v - a.v;
        float new_count = a.nf + b.nf;
        C nb_over_n = (C)(b.nf / new_count);
        a.v = a.v + delta * nb_over_n;
        a.m2 = a.m2 + b.m2 + delta * delta * (C)a.nf * nb_over_n;
        a.i = -1;
        a.nf = new_count;
        return;
    }
    default:
        if (kr_is_max(OP) ? kr_better<true, C>(b, a) : kr_better<false, C>(b, a)) a = b;
        return;
    }
}

/* The input element x, of reduced index j, into a. */
template <int OP, typename C> KHD void kr_step(const tsr_kreduce &g, KAcc<C> &a, C x, int64_t j)
{
    if (OP == TSR_KR_VAR || OP == TSR_KR_VAR_MEAN) {
        /* WelfordOps::reduce */
        C delta = x - a.v;
        C new_mean = a.v + KFlt<C>::div(delta, (C)(a.nf + 1));
        C new_delta = x - new_mean;
        a.v = new_mean;
        a.m2 = a.m2 + delta * new_delta;
        a.i = a.i + 1;
        a.nf = (float)a.i;
        return;
    }
    KAcc<C> b;
    if (OP == TSR_KR_NANSUM && kr_nan(x)) x = (C)0;
    b.v = x;
    b.m2 = (C)0;
    b.nf = 0;
    b.i = kr_is_extreme(OP) ? j : (x != (C)0);
    if (OP == TSR_KR_NORM) {
        C ax = KFlt<C>::abs(x);
        if (g.p == 0) b.v = (C)(x != (C)0);
        else if (g.p == 1 || g.p == INFINITY || g.p == -INFINITY) b.v = ax;
        else if (g.p == 2) b.v = k_mul(ax, ax);
        else b.v = KFlt<C>::pow(ax, (C)g.p);
    }
    kr_combine<OP, C>(g, a, b);
}

template <int OP, typename C> KHD void kr_store(const tsr_kreduce &g, char *o, char *oi, const KAcc<C> &a)
{
    switch (OP) {
    case TSR_KR_MEAN: {
        /* MeanOps: acc * factor, factor = num_output_elements / numel in
         * the accumulator's type */
        C factor = (C)((C)g.nout / (C)(g.nout * g.nreduce));
        k_store<C>(o, g.dtype[0], KFlt<C>::scale(a.v, factor));
        return;
    }
    case TSR_KR_VAR: case TSR_KR_VAR_MEAN: {
        /* WelfordOps::project: the divisor in combine_t (float) */
        float divisor = a.nf > (float)g.correction ? a.nf - (float)g.correction : 0.f;
        C var = KFlt<C>::div(a.m2, (C)divisor);
        k_store<C>(o, g.dtype[0], g.take_sqrt ? KFlt<C>::sqrt(var) : var);
        if (OP == TSR_KR_VAR_MEAN) k_store<C>(oi, g.dtype[0], a.v);
        return;
    }
    case TSR_KR_NORM: {
        C r = a.v;
        if (g.p == 2) r = KFlt<C>::sqrt(r);
        else if (g.p != 0 && g.p != 1 && g.p != INFINITY && g.p != -INFINITY)
            r = KFlt<C>::pow(r, KFlt<C>::div((C)1, (C)g.p));
        k_store<C>(o, g.dtype[0], r);
        return;
    }
    case TSR_KR_ARGMAX: case TSR_KR_ARGMIN: case TSR_KR_COUNT_NZ:
        k_store<int64_t>(o, g.dtype[0], a.i);
        return;
    case TSR_KR_ALL: case TSR_KR_ANY:
        k_store<bool>(o, g.dtype[0], a.i != 0);
        return;
    case TSR_KR_MAX_DIM: case TSR_KR_MIN_DIM:
        k_store<C>(o, g.dtype[0], a.v);
        *(int64_t *)oi = a.i;
        return;
    default:
        k_store<C>(o, g.dtype[0], a.v);
        return;
    }
}

/* Byte offsets of output element o (row-major over the kept dims, the
 * first kept dim fastest) in the output, the input and the indices. */
KHD void kr_out_offsets(const tsr_kreduce &g, int64_t o, int64_t *off)
{
    off[0] = off[1] = off[2] = 0;
    for (int d = g.nred; d < g.nd; d++) {
        int64_t q = o / g.shape[d], idx = o - q * g.shape[d];
        o = q;
        for (int k = 0; k < 3; k++) off[k] += idx * g.stride[k][d];
    }
}

/* Byte offset in the input of reduced element j. */
KHD int64_t kr_red_offset(const tsr_kreduce &g, int64_t j)
{
    if (g.nred == 1) return j * g.stride[1][0];
    int64_t off = 0;
    for (int d = 0; d < g.nred; d++) {
        int64_t q = j / g.shape[d], idx = j - q * g.shape[d];
        j = q;
        off += idx * g.stride[1][d];
    }
    return off;
}

/* The reduced elements j0, j0 + step, ... of output o's input (at in) into a. */
template <int OP, typename C>
KHD void kr_accumulate(const tsr_kreduce &g, const char *in, int64_t j0, int64_t step, KAcc<C> &a)
{
    if (g.nred == 1) {
        const int64_t st = g.stride[1][0];
        for (int64_t j = j0; j < g.nreduce; j += step) kr_step<OP, C>(g, a, k_load<C>(in + j * st, g.dtype[1]), j);
        return;
    }
    for (int64_t j = j0; j < g.nreduce; j += step)
        kr_step<OP, C>(g, a, k_load<C>(in + kr_red_offset(g, j), g.dtype[1]), j);
}

/* One thread, one output element: every reduced element in order. */
template <int OP, typename C> KHD void kr_output(const tsr_kreduce &g, int64_t o)
{
    int64_t off[3];
    kr_out_offsets(g, o, off);
    KAcc<C> a;
    kr_init<OP, C>(g, a);
    kr_accumulate<OP, C>(g, g.data[1] + off[1], 0, 1, a);
    kr_store<OP, C>(g, g.data[0] + off[0], g.data[2] ? g.data[2] + off[2] : 0, a);
}

/* Two passes: partial t (of parts) of output o takes the reduced elements
 * t, t + parts, ...; then one thread per output combines its parts. Thread
 * i is partial t of output o with t fastest when the reduced dim is the
 * input's faster (adjacent threads read adjacent elements of a row), with
 * o fastest when a kept dim is (adjacent threads read adjacent columns). */
template <int OP, typename C> KHD void kr_partial(const tsr_kreduce &g, KAcc<C> *part, int64_t parts, int64_t i)
{
    int64_t o, t, off[3];
    int64_t sr = g.nred > 0 ? g.stride[1][0] : 0, sk = g.nred < g.nd ? g.stride[1][g.nred] : 0;
    if (sr < 0) sr = -sr;
    if (sk < 0) sk = -sk;
    if (g.nred > 0 && g.nred < g.nd && sk < sr) {
        t = i / g.nout;
        o = i - t * g.nout;
    } else {
        o = i / parts;
        t = i - o * parts;
    }
    i = o * parts + t;
    kr_out_offsets(g, o, off);
    KAcc<C> a;
    kr_init<OP, C>(g, a);
    kr_accumulate<OP, C>(g, g.data[1] + off[1], t, parts, a);
    part[i] = a;
}

/* Between the passes when an output has many partials: partial t of
 * output o (of parts / group rounded up) combines that output's partials
 * t * group .. t * group + group - 1, so that no thread combines more
 * than group of them. */
template <int OP, typename C>
KHD void kr_regroup(const tsr_kreduce &g, const KAcc<C> *in, int64_t parts, KAcc<C> *out, int64_t group, int64_t i)
{
    int64_t nparts = (parts + group - 1) / group, o = i / nparts, t = i - o * nparts;
    int64_t end = (t + 1) * group < parts ? (t + 1) * group : parts;
    KAcc<C> a;
    kr_init<OP, C>(g, a);
    for (int64_t k = t * group; k < end; k++) kr_combine<OP, C>(g, a, in[o * parts + k]);
    out[i] = a;
}

template <int OP, typename C> KHD void kr_final(const tsr_kreduce &g, const KAcc<C> *part, int64_t parts, int64_t o)
{
    int64_t off[3];
    kr_out_offsets(g, o, off);
    KAcc<C> a;
    kr_init<OP, C>(g, a);
    for (int64_t t = 0; t < parts; t++) kr_combine<OP, C>(g, a, part[o * parts + t]);
    kr_store<OP, C>(g, g.data[0] + off[0], g.data[2] ? g.data[2] + off[2] : 0, a);
}

#endif
