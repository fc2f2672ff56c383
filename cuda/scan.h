/* cuda/scan.h — the scan and sort family's per-row bodies (runtime/
 * kernels_scan.h), for the device (nvcc) and the simulator (g++): one
 * thread per row, the row's elements `inner` apart in a contiguous input.
 * Plain sequential loops (a block-wide scan or a segmented radix sort
 * would be the fast forms on a GPU; these are the obviously correct ones).
 * Sorts are a stable bottom-up merge sort of (key, index) pairs in the
 * row's own part of a scratch buffer: keys are double for the floating
 * dtypes (exact for every float16/bfloat16/float32 value) and int64 for
 * the integral ones and bool, NaN ordered greatest. */
#ifndef TSR_CUDA_SCAN_H
#define TSR_CUDA_SCAN_H
#include "index.h"
#include "kern.h"

KHD bool ks_floating(int dt)
{
    return dt == TSR_KD_FLOAT16 || dt == TSR_KD_BFLOAT16 || dt == TSR_KD_FLOAT32 || dt == TSR_KD_FLOAT64;
}

/* The dtypes 1.13's CUDA kernels dispatch: cumsum/cumprod
 * ALL_TYPES_AND_COMPLEX_AND2(Half, BFloat16); logcumsumexp
 * FLOATING_TYPES_AND2(Half, BFloat16); cummax/cummin and the sorts
 * ALL_TYPES_AND3(Bool, Half, BFloat16). */
KHD bool ks_supported(int op, int dt)
{
    int c = k_ctype(dt);
    switch (op) {
    case TSR_KS_CUMSUM: case TSR_KS_CUMPROD:
        return c == 0 || c == 1 || c == 2 || dt == TSR_KD_COMPLEX64 || dt == TSR_KD_COMPLEX128;
    case TSR_KS_LOGCUMSUMEXP:
        return c == 1 || c == 2;
    case TSR_KS_CUMMAX: case TSR_KS_CUMMIN: case TSR_KS_SORT: case TSR_KS_KTHVALUE: case TSR_KS_MEDIAN:
    case TSR_KS_NANMEDIAN: case TSR_KS_MODE: case TSR_KS_SEARCH:
        return c >= 0 && c <= 3;
    default:
        return false;
    }
}

/* Row r's first element (in elements from the input's start). */
KHD int64_t ks_row_base(const tsr_kscan &g, int64_t r)
{
    int64_t a = r / g.inner, k = r - a * g.inner;
    return a * g.n * g.inner + k;
}

/* ------------------------------------------------------------ cumulative ops */

KHD float ks_add(float a, float b) { return a + b; }
KHD double ks_add(double a, double b) { return a + b; }
KHD int64_t ks_add(int64_t a, int64_t b) { return k_wrap((uint64_t)a + (uint64_t)b); }

/* 1.13's log_add_exp of logcumsumexp (LogcumsumexpKernel.cu); the
 * integral instance exists for the dispatch only (ks_supported). */
template <typename C> KHD C ks_lae_f(C x, C y)
{
    C mn = y != y ? y : (y < x ? y : x);
    C mx = y != y ? y : (x < y ? y : x);
    if (mn != mx || isfinite(mn)) return k_log1p(k_exp(mn - mx)) + mx;
    return x;
}
KHD float ks_lae(float x, float y) { return ks_lae_f<float>(x, y); }
KHD double ks_lae(double x, double y) { return ks_lae_f<double>(x, y); }
KHD int64_t ks_lae(int64_t x, int64_t) { return x; }

/* cumsum / cumprod / logcumsumexp of row r, accumulated in C (ATen's
 * acc_type<T, true>: float for float16/bfloat16/float32, double, int64
 * wrapping for the integers) and rounded only into the output. */
template <typename C> KHD void ks_cum_row(const tsr_kscan &g, int64_t r)
{
    int sz = ki_itemsize(g.dtype);
    int64_t base = ks_row_base(g, r);
    const char *in = g.data[1] + base * sz;
    char *out = g.data[0] + base * sz;
    int64_t step = g.inner * sz;
    C acc = g.op == TSR_KS_CUMPROD ? (C)1 : g.op == TSR_KS_LOGCUMSUMEXP ? (C)-INFINITY : (C)0;
    for (int64_t j = 0; j < g.n; j++) {
        C x = k_load<C>(in + j * step, g.dtype);
        if (g.op == TSR_KS_CUMSUM) acc = ks_add(acc, x);
        else if (g.op == TSR_KS_CUMPROD) acc = k_mul(acc, x);
        else acc = ks_lae(acc, x);
        k_store<C>(out + j * step, g.dtype, acc);
    }
}

/* complex<F>: the parts in F, as c10::complex<F>'s + and * */
template <typename F> KHD void ks_cum_row_complex(const tsr_kscan &g, int64_t r)
{
    int64_t base = ks_row_base(g, r);
    const F *in = (const F *)g.data[1] + 2 * base;
    F *out = (F *)g.data[0] + 2 * base;
    int64_t step = 2 * g.inner;
    F re = g.op == TSR_KS_CUMPROD ? (F)1 : (F)0, im = 0;
    for (int64_t j = 0; j < g.n; j++) {
        F xr = in[j * step], xi = in[j * step + 1];
        if (g.op == TSR_KS_CUMSUM) {
            re = re + xr;
            im = im + xi;
        } else {
            F nr = re * xr - im * xi, ni = re * xi + im * xr;
            re = nr;
            im = ni;
        }
        out[j * step] = re;
        out[j * step + 1] = im;
    }
}

/* cummax / cummin (ScanUtils.cuh's scan_with_indices with greater_equal /
 * less_equal): the later of equal values; a NaN wins and stays. */
template <typename C> KHD void ks_cummax_row(const tsr_kscan &g, int64_t r)
{
    int sz = ki_itemsize(g.dtype);
    int64_t base = ks_row_base(g, r);
    const char *in = g.data[1] + base * sz;
    char *out = g.data[0] + base * sz;
    int64_t *ix = (int64_t *)g.data[2] + base;
    int64_t step = g.inner * sz;
    bool max = g.op == TSR_KS_CUMMAX;
    C best = (C)0;
    int64_t at = 0;
    for (int64_t j = 0; j < g.n; j++) {
        C x = k_load<C>(in + j * step, g.dtype);
        if (j == 0 || x != x || (best == best && (max ? x >= best : x <= best))) {
            best = x;
            at = j;
        }
        k_store<C>(out + j * step, g.dtype, best);
        ix[j * g.inner] = at;
    }
}

/* ------------------------------------------------------------ sorts */

template <typename K> KHD bool ks_isnan(K v) { return v != v; }

/* Whether a comes strictly before b: NaN greatest. */
template <typename K> KHD bool ks_before(K a, K b, bool desc)
{
    if (desc) return (ks_isnan(a) && !ks_isnan(b)) || a > b;
    return (!ks_isnan(a) && ks_isnan(b)) || a < b;
}

/* Sorts row r's (key, index) pairs; returns where the sorted pairs are
 * (key[0] / idx[0] or key[1] / idx[1], each the row's n slots). */
template <typename K> KHD int ks_sort_row(const tsr_kscan &g, int64_t r, K *key[2], int64_t *idx[2], bool desc)
{
    int sz = ki_itemsize(g.dtype);
    int64_t base = ks_row_base(g, r), n = g.n;
    const char *in = g.data[1] + base * sz;
    for (int64_t j = 0; j < n; j++) {
        key[0][j] = k_load<K>(in + j * g.inner * sz, g.dtype);
        idx[0][j] = j;
    }
    int s = 0;
    for (int64_t w = 1; w < n; w *= 2, s ^= 1) {
        const K *ks = key[s];
        const int64_t *is = idx[s];
        K *kd = key[s ^ 1];
        int64_t *id = idx[s ^ 1];
        for (int64_t lo = 0; lo < n; lo += 2 * w) {
            int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int64_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) {
                if (ks_before<K>(ks[j], ks[i], desc)) kd[o] = ks[j], id[o++] = is[j++];
                else kd[o] = ks[i], id[o++] = is[i++];
            }
            while (i < mid) kd[o] = ks[i], id[o++] = is[i++];
            while (j < hi) kd[o] = ks[j], id[o++] = is[j++];
        }
    }
    return s;
}

KHD void ks_copy_elem(char *dst, const char *src, int sz)
{
    for (int b = 0; b < sz; b++) dst[b] = src[b];
}

/* SORT and the selections: the row's scratch is key[2][n], idx[2][n]. */
template <typename K> KHD void ks_sort_op(const tsr_kscan &g, int64_t r, char *scratch)
{
    int64_t n = g.n;
    K *kbase = (K *)scratch;
    int64_t *ibase = (int64_t *)(scratch + (size_t)2 * g.outer * g.inner * n * sizeof(K));
    K *key[2] = {kbase + 2 * r * n, kbase + 2 * r * n + n};
    int64_t *idx[2] = {ibase + 2 * r * n, ibase + 2 * r * n + n};
    bool desc = g.op == TSR_KS_SORT && g.descending;
    int s = ks_sort_row<K>(g, r, key, idx, desc);
    const K *k = key[s];
    const int64_t *ix = idx[s];
    int sz = ki_itemsize(g.dtype);
    int64_t base = ks_row_base(g, r);
    const char *in = g.data[1] + base * sz;
    if (g.op == TSR_KS_SORT) {
        char *out = g.data[0] + base * sz;
        int64_t *oi = (int64_t *)g.data[2] + base;
        for (int64_t j = 0; j < n; j++) {
            ks_copy_elem(out + j * g.inner * sz, in + ix[j] * g.inner * sz, sz);
            oi[j * g.inner] = ix[j];
        }
        return;
    }
    int64_t pick = 0;
    if (g.op == TSR_KS_KTHVALUE) {
        pick = g.k;
    } else if (g.op == TSR_KS_MODE) {
        int64_t freq = 0, maxf = 0;
        for (int64_t j = 0; j < n; j++) {
            freq++;
            if (j == n - 1 || k[j] != k[j + 1]) {
                if (freq > maxf) pick = j, maxf = freq;
                freq = 0;
            }
        }
    } else {
        int64_t nnan = 0;
        while (nnan < n && ks_isnan(k[n - 1 - nnan])) nnan++;
        if (g.op == TSR_KS_MEDIAN && nnan) pick = n - nnan;
        else pick = g.op == TSR_KS_NANMEDIAN ? (n - nnan - 1) / 2 : (n - 1) / 2;
        if (pick < 0) pick = 0;
    }
    ks_copy_elem(g.data[0] + r * sz, in + ix[pick] * g.inner * sz, sz);
    ((int64_t *)g.data[2])[r] = ix[pick];
}

/* ------------------------------------------------------------ searches */

/* searchsorted of value element i (row i / inner): cus_searchsorted's
 * lower_bound / upper_bound, plain IEEE comparisons (a NaN value goes to
 * the end). */
template <typename K> KHD void ks_search(const tsr_kscan &g, int64_t i)
{
    int sz = ki_itemsize(g.dtype);
    int64_t row = g.shared ? 0 : i / g.inner;
    const char *bd = g.data[1] + row * g.n * sz;
    const int64_t *sorter = g.data[4] ? (const int64_t *)g.data[4] + row * g.n : 0;
    K v = k_load<K>(g.data[3] + i * sz, g.dtype);
    int64_t lo = 0, hi = g.n;
    while (lo < hi) {
        int64_t mid = lo + ((hi - lo) >> 1);
        K b = k_load<K>(bd + (sorter ? sorter[mid] : mid) * sz, g.dtype);
        bool go_right = g.right ? !(b > v) : !(b >= v);
        if (go_right) lo = mid + 1;
        else hi = mid;
    }
    if (g.out_int32) ((int32_t *)g.data[0])[i] = (int32_t)lo;
    else ((int64_t *)g.data[0])[i] = lo;
}

#endif
