/* runtime/ops/sort.c — sort / argsort / msort as 1.13's SortingKernel.cpp
 * runs them: each line's (value, index) pairs sorted with NaN as the
 * largest value; stable=True is std::stable_sort (any stable sort gives its
 * order), stable=False is libstdc++'s std::sort (introsort: median of three,
 * unguarded partition, heapsort past 2*lg(n) levels, insertion sort below
 * 16), ported step for step so that equal values end in the same order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "../internal.h"
#include "../iter.h"
#include "../kernels.h"
#include "../view.h"
#include "binary.h"
#include "compare.h"
#include "copy.h"
#include "scan_dev.h"
#include "scatter.h"
#include "shape.h"
#include "sort.h"

typedef struct { double f; int64_t i; int64_t idx; } kv;

#define RADIX_MIN 256   /* lines at least this long sort stably by radix */   /* f: float key, i: integer key */

/* KIND_SORT: KeyValueComp{Asc,Desc}; KIND_MEDIAN / KIND_NANMEDIAN: the
 * index-tiebroken comparators of median_with_indices_impl; KIND_PLAIN:
 * mode's value-only operator<. */
enum { KIND_SORT, KIND_MEDIAN, KIND_NANMEDIAN, KIND_PLAIN };
typedef struct { bool desc, integral; int kind; } cmp_t;

static bool less(const cmp_t *c, const kv *a, const kv *b)
{
    if (c->kind == KIND_PLAIN) return c->integral ? a->i < b->i : a->f < b->f;
    if (c->kind != KIND_SORT) {
        if (c->integral) return a->i < b->i || (a->i == b->i && a->idx < b->idx);
        return a->f < b->f || (a->f == b->f && a->idx < b->idx) ||
               (c->kind == KIND_NANMEDIAN && isnan(b->f) && !isnan(a->f));
    }
    if (c->integral) return c->desc ? a->i > b->i : a->i < b->i;
    if (c->desc) return (isnan(a->f) && !isnan(b->f)) || a->f > b->f;
    return (!isnan(a->f) && isnan(b->f)) || a->f < b->f;
}

static void swap_kv(kv *a, kv *b) { kv t = *a; *a = *b; *b = t; }

/* Ctrl-C in a long line: the algorithms below return early (the line is
 * left a permutation of itself, unsorted) once a long step finds it
 * pending; the callers then poll and fail. Under an interrupt hold (out=)
 * nothing is pending and they run to the end. */
#define LONG_STEP 65536
static bool stop_now(int64_t n) { return n >= LONG_STEP && tsr_interrupt_pending(); }
#define STOP_IF_INTERRUPTED(j, stop)                                               \
    if (((j) & (LONG_STEP - 1)) == LONG_STEP - 1 && tsr_interrupt_pending()) { \
        (stop) = true;                                                             \
        break;                                                                     \
    }

/* Line (a, k) of a contiguous x along a dim of size n into buf as (value,
 * index) pairs: the one loop that sort, median, topk and kthvalue share.
 * False when Ctrl-C came during a long line (buf is then incomplete). */
static bool load_line(kv *buf, const char *src, int64_t a, int64_t n, int64_t inner, int64_t k,
                      const tsr_dtype_traits *tr, bool integral)
{
    int sz = tr->itemsize;
    bool stop = false;
    for (int64_t j = 0; j < n; j++) {
        STOP_IF_INTERRUPTED(j, stop);
        const char *p = src + ((a * n + j) * inner + k) * sz;
        buf[j].idx = j;
        if (integral) buf[j].i = tr->load_int64(p);
        else buf[j].f = tr->load_double(p);
    }
    return !stop;
}

/* out=(values, indices) resized and copied; then *values / *indices take v
 * and ix. 0, or -1 with v and ix still the caller's to release. */
static int finish_pair(tsr_tensor *ov, tsr_tensor *oi, tsr_tensor *v, tsr_tensor *ix, tsr_tensor **values,
                       tsr_tensor **indices)
{
    if ((ov && (tsr_tensor_resize_(ov, v->ndim, v->sizes) < 0 || tsr_copy_(ov, v) < 0)) ||
        (oi && (tsr_tensor_resize_(oi, ix->ndim, ix->sizes) < 0 || tsr_copy_(oi, ix) < 0))) return -1;
    *values = v;
    *indices = ix;
    return 0;
}

/* ---- libstdc++ bits/stl_algo.h and stl_heap.h ---- */
static void push_heap(const cmp_t *c, kv *first, int64_t hole, int64_t top, kv value)
{
    int64_t parent = (hole - 1) / 2;
    while (hole > top && less(c, &first[parent], &value)) {
        first[hole] = first[parent];
        hole = parent;
        parent = (hole - 1) / 2;
    }
    first[hole] = value;
}

static void adjust_heap(const cmp_t *c, kv *first, int64_t hole, int64_t len, kv value)
{
    const int64_t top = hole;
    int64_t second = hole;
    while (second < (len - 1) / 2) {
        second = 2 * (second + 1);
        if (less(c, &first[second], &first[second - 1])) second--;
        first[hole] = first[second];
        hole = second;
    }
    if ((len & 1) == 0 && second == (len - 2) / 2) {
        second = 2 * (second + 1);
        first[hole] = first[second - 1];
        hole = second - 1;
    }
    push_heap(c, first, hole, top, value);
}

static void heap_sort(const cmp_t *c, kv *first, kv *last)
{
    int64_t len = last - first;
    if (len >= 2) {
        for (int64_t parent = (len - 2) / 2;; parent--) {
            adjust_heap(c, first, parent, len, first[parent]);
            if (parent == 0) break;
        }
    }
    while (last - first > 1) {
        --last;
        kv value = *last;
        *last = *first;
        adjust_heap(c, first, 0, last - first, value);
    }
}

static void move_median_to_first(const cmp_t *c, kv *result, kv *a, kv *b, kv *cc)
{
    if (less(c, a, b)) {
        if (less(c, b, cc)) swap_kv(result, b);
        else if (less(c, a, cc)) swap_kv(result, cc);
        else swap_kv(result, a);
    } else if (less(c, a, cc)) {
        swap_kv(result, a);
    } else if (less(c, b, cc)) {
        swap_kv(result, cc);
    } else {
        swap_kv(result, b);
    }
}

static kv *unguarded_partition(const cmp_t *c, kv *first, kv *last, kv *pivot)
{
    for (;;) {
        while (less(c, first, pivot)) ++first;
        --last;
        while (less(c, pivot, last)) --last;
        if (!(first < last)) return first;
        swap_kv(first, last);
        ++first;
    }
}

static void introsort_loop(const cmp_t *c, kv *first, kv *last, int64_t depth)
{
    while (last - first > 16) {
        if (stop_now(last - first)) return;
        if (depth == 0) {
            heap_sort(c, first, last);
            return;
        }
        --depth;
        kv *mid = first + (last - first) / 2;
        move_median_to_first(c, first, first + 1, mid, last - 1);
        kv *cut = unguarded_partition(c, first + 1, last, first);
        introsort_loop(c, cut, last, depth);
        last = cut;
    }
}

static void unguarded_linear_insert(const cmp_t *c, kv *last)
{
    kv val = *last;
    kv *next = last - 1;
    while (less(c, &val, next)) {
        *last = *next;
        last = next;
        --next;
    }
    *last = val;
}

static void insertion_sort(const cmp_t *c, kv *first, kv *last)
{
    if (first == last) return;
    for (kv *i = first + 1; i != last; ++i) {
        if (less(c, i, first)) {
            kv val = *i;
            memmove(first + 1, first, (size_t)(i - first) * sizeof *first);
            *first = val;
        } else {
            unguarded_linear_insert(c, i);
        }
    }
}

static void std_sort(const cmp_t *c, kv *first, kv *last)
{
    int64_t n = last - first;
    if (n <= 1) return;
    introsort_loop(c, first, last, (63 - __builtin_clzll((uint64_t)n)) * 2);
    if (stop_now(n)) return;   /* (the insertion pass needs a finished introsort) */
    if (n > 16) {
        insertion_sort(c, first, first + 16);
        for (kv *i = first + 16; i != last; ++i) unguarded_linear_insert(c, i);
    } else {
        insertion_sort(c, first, last);
    }
}

/* std::nth_element (__introselect) */
static void nth_element(const cmp_t *c, kv *first, kv *nth, kv *last)
{
    if (first == last || nth == last) return;
    int64_t depth = (63 - __builtin_clzll((uint64_t)(last - first))) * 2;
    while (last - first > 3) {
        if (stop_now(last - first)) return;
        if (depth == 0) {
            /* __heap_select(first, nth + 1, last), then nth to its place */
            kv *middle = nth + 1;
            int64_t len = middle - first;
            if (len >= 2)
                for (int64_t parent = (len - 2) / 2;; parent--) {
                    adjust_heap(c, first, parent, len, first[parent]);
                    if (parent == 0) break;
                }
            for (kv *i = middle; i < last; ++i)
                if (less(c, i, first)) {
                    kv value = *i;
                    *i = *first;
                    adjust_heap(c, first, 0, len, value);
                }
            swap_kv(first, nth);
            return;
        }
        --depth;
        kv *mid = first + (last - first) / 2;
        move_median_to_first(c, first, first + 1, mid, last - 1);
        kv *cut = unguarded_partition(c, first + 1, last, first);
        if (cut <= nth) first = cut;
        else last = cut;
    }
    insertion_sort(c, first, last);
}

/* a stable merge sort (std::stable_sort's order is the only stable one) */
static void merge_sort(const cmp_t *c, kv *a, kv *tmp, int64_t n)
{
    if (n < 2) return;
    int64_t h = n / 2;
    merge_sort(c, a, tmp, h);
    merge_sort(c, a + h, tmp, n - h);
    if (stop_now(n)) return;
    int64_t i = 0, j = h, k = 0;
    while (i < h && j < n) tmp[k++] = less(c, &a[j], &a[i]) ? a[j++] : a[i++];
    while (i < h) tmp[k++] = a[i++];
    while (j < n) tmp[k++] = a[j++];
    memcpy(a, tmp, (size_t)n * sizeof *a);
}

/* stable=True on a long line: an LSD radix sort of order-preserving keys
 * (NaN one largest key, -0.0 the key of 0.0, descending the complement), which
 * gives exactly the order of a stable comparison sort with SortingKernel.cpp's
 * comparators: equal values keep their index order. Passes whose byte is the
 * same in every key are skipped. Only buf[j].idx is written. tmp holds
 * 4n + 2048 uint64s (keys, indices, the eight byte histograms). */
static void radix_sort(const cmp_t *c, kv *buf, uint64_t *tmp, int64_t n)
{
    uint64_t *key = tmp, *key2 = tmp + n, *ix = tmp + 2 * n, *ix2 = tmp + 3 * n;
    for (int64_t j = 0; j < n; j++) {
        uint64_t u;
        if (c->integral) {
            u = (uint64_t)buf[j].i ^ ((uint64_t)1 << 63);
        } else if (isnan(buf[j].f)) {
            u = UINT64_MAX;
        } else {
            double f = buf[j].f == 0 ? 0.0 : buf[j].f;
            memcpy(&u, &f, 8);
            u = (u >> 63) ? ~u : u | ((uint64_t)1 << 63);
        }
        key[j] = c->desc ? ~u : u;
        ix[j] = (uint64_t)buf[j].idx;
    }
    int64_t *cnt = (int64_t *)(tmp + 4 * n);
    memset(cnt, 0, 8 * 256 * sizeof(int64_t));
    for (int64_t j = 0; j < n; j++)
        for (int b = 0; b < 8; b++) cnt[b * 256 + ((key[j] >> (8 * b)) & 0xff)]++;
    for (int b = 0; b < 8; b++) {
        int64_t *h = cnt + b * 256, sum = 0;
        if (h[(key[0] >> (8 * b)) & 0xff] == n) continue;   /* one digit everywhere: nothing moves */
        for (int d = 0; d < 256; d++) {
            int64_t t = h[d];
            h[d] = sum;
            sum += t;
        }
        for (int64_t j = 0; j < n; j++) {
            int64_t at = h[(key[j] >> (8 * b)) & 0xff]++;
            key2[at] = key[j];
            ix2[at] = ix[j];
        }
        uint64_t *t = key; key = key2; key2 = t;
        t = ix; ix = ix2; ix2 = t;
    }
    for (int64_t j = 0; j < n; j++) buf[j].idx = (int64_t)ix[j];
}

int tsr_sort(const tsr_tensor *x, int64_t dim, bool descending, bool stable, tsr_tensor *ov, tsr_tensor *oi,
             tsr_tensor **values, tsr_tensor **indices)
{
    tsr_tensor *v = NULL, *ix = NULL, *c = NULL;
    kv *buf = NULL, *tmp = NULL;
    int nd = x->ndim ? x->ndim : 1;
    if (dim < -nd || dim >= nd) {
        tsr_error_set(TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %lld)",
                      -nd, nd - 1, (long long)dim);
        return -1;
    }
    if (dim < 0) dim += nd;
    if (tsr_dtype_is_complex(x->dtype)) {
        tsr__not_implemented("sorting_kernel_method_name", x->dtype);   /* sic, 1.13 */
        return -1;
    }
    v = tsr_tensor_empty(x->ndim, x->sizes, x->dtype, x->device);
    ix = v ? tsr_tensor_empty(x->ndim, x->sizes, TSR_INT64, x->device) : NULL;
    if (!ix) goto fail;
    if (scan_on_device(x)) {
        /* always stable on the device (1.13's CUDA sort of a short row without
         * stable=True is a bitonic sort whose order of equal values differs) */
        if (scan_device(TSR_KS_SORT, x, dim, x->dtype, v, ix, 0, descending, "aten::sort.values_stable") < 0) goto fail;
    } else if (!tsr_tensor_is_meta(x) && tsr_tensor_numel(x) > 0) {
        c = tsr_contiguous(x, TSR_MF_CONTIGUOUS);
        if (!c) goto fail;
        int64_t outer = 1, inner = 1, n = x->ndim ? x->sizes[dim] : 1;
        for (int d = 0; d < (int)dim; d++) outer *= x->sizes[d];
        for (int d = (int)dim + 1; d < x->ndim; d++) inner *= x->sizes[d];
        buf = tsr_malloc((size_t)n * sizeof *buf);
        /* the radix sort's keys and indices (4n words) or merge_sort's n kv */
        tmp = stable ? tsr_malloc(n >= RADIX_MIN ? (size_t)(4 * n + 2048) * sizeof(uint64_t) : (size_t)n * sizeof *tmp) : NULL;
        if (!buf || (stable && !tmp)) goto fail;
        const tsr_dtype_traits *tr = tsr_dtype_traits_of(x->dtype);
        cmp_t cm = {.desc = descending, .integral = !tsr_dtype_is_floating(x->dtype)};
        const char *src = tsr_tensor_ptr(c, NULL);
        char *dv = tsr_tensor_ptr(v, NULL);
        int64_t *di = tsr_tensor_ptr(ix, NULL);
        int sz = tr->itemsize;
        bool stop = false;
        for (int64_t a = 0; a < outer && !stop; a++) {
            for (int64_t k = 0; k < inner && !stop; k++) {
                if (tsr_interrupt_pending()) break;   /* many short lines: a poll each */
                if (!load_line(buf, src, a, n, inner, k, tr, cm.integral)) { stop = true; break; }
                if (stable && n >= RADIX_MIN) radix_sort(&cm, buf, (uint64_t *)tmp, n);
                else if (stable) merge_sort(&cm, buf, tmp, n);
                else std_sort(&cm, buf, buf + n);
                for (int64_t j = 0; j < n; j++) {
                    int64_t at = (a * n + j) * inner + k;
                    memcpy(dv + at * sz, src + ((a * n + buf[j].idx) * inner + k) * sz, (size_t)sz);
                    di[at] = buf[j].idx;
                }
            }
            if (tsr_check_interrupt() < 0) goto fail;
        }
    }
    if (finish_pair(ov, oi, v, ix, values, indices) < 0) goto fail;
    tsr_free(buf);
    tsr_free(tmp);
    tsr_tensor_release(c);
    return 0;
fail:
    tsr_free(buf);
    tsr_free(tmp);
    tsr_tensor_release(c);
    tsr_tensor_release(v);
    tsr_tensor_release(ix);
    return -1;
}

/* Lines of x along dim (contiguous copy): fn(ctx, buf, n, src line) per line. */
static int dim_lines(const tsr_tensor *x, int64_t dim, tsr_tensor *v, tsr_tensor *ix, int kind)
{
    tsr_tensor *c = tsr_contiguous(x, TSR_MF_CONTIGUOUS);
    if (!c) return -1;
    int64_t outer = 1, inner = 1, n = x->ndim ? x->sizes[dim] : 1;
    for (int d = 0; d < (int)dim; d++) outer *= x->sizes[d];
    for (int d = (int)dim + 1; d < x->ndim; d++) inner *= x->sizes[d];
    kv *buf = tsr_malloc((size_t)(n ? n : 1) * sizeof *buf);
    if (!buf) {
        tsr_tensor_release(c);
        return -1;
    }
    const tsr_dtype_traits *tr = tsr_dtype_traits_of(x->dtype);
    cmp_t cm = {.integral = !tsr_dtype_is_floating(x->dtype), .kind = kind};
    const char *src = tsr_tensor_ptr(c, NULL);
    int sz = tr->itemsize;
    int64_t o = 0;
    bool stop = false;
    for (int64_t a = 0; a < outer && !stop; a++)
        for (int64_t k = 0; k < inner && !stop; k++, o++) {
            if (tsr_interrupt_pending()) break;   /* many short lines: a poll each */
            int64_t nnan = 0, firstnan = -1;
            for (int64_t j = 0; j < n; j++) {
                STOP_IF_INTERRUPTED(j, stop);
                const char *p = src + ((a * n + j) * inner + k) * sz;
                buf[j].idx = j;
                if (cm.integral) {
                    buf[j].i = tr->load_int64(p);
                } else {
                    buf[j].f = tr->load_double(p);
                    if (isnan(buf[j].f) && nnan++ == 0) firstnan = j;
                }
            }
            if (stop) break;   /* the line is left unsorted: the poll below raises */
            int64_t pick;
            if (kind == KIND_PLAIN) {   /* mode */
                std_sort(&cm, buf, buf + n);
                int64_t best = 0, freq = 0, maxf = 0;
                for (int64_t j = 0; j < n; j++) {
                    freq++;
                    bool end = j == n - 1 || (cm.integral ? buf[j].i != buf[j + 1].i : buf[j].f != buf[j + 1].f);
                    if (end) {
                        if (freq > maxf) best = j, maxf = freq;
                        freq = 0;
                    }
                }
                pick = buf[best].idx;
            } else if (kind == KIND_MEDIAN && nnan) {
                pick = firstnan;
            } else {
                int64_t m = kind == KIND_NANMEDIAN ? (n - nnan - 1) / 2 : (n - 1) / 2;
                if (m < 0) m = 0;
                nth_element(&cm, buf, buf + m, buf + n);
                pick = buf[m].idx;
            }
            memcpy((char *)tsr_tensor_ptr(v, NULL) + o * sz, src + ((a * n + pick) * inner + k) * sz, (size_t)sz);
            ((int64_t *)tsr_tensor_ptr(ix, NULL))[o] = pick;
        }
    tsr_free(buf);
    tsr_tensor_release(c);
    return tsr_check_interrupt();
}

int tsr_median(const tsr_tensor *x, const int64_t *dimp, bool keepdim, int kind, tsr_tensor *ov, tsr_tensor *oi,
               tsr_tensor **values, tsr_tensor **indices)
{
    const char *fname = kind == TSR_MODE ? "mode" : "median";
    int ikind = kind == TSR_MODE ? KIND_PLAIN : kind == TSR_NANMEDIAN ? KIND_NANMEDIAN : KIND_MEDIAN;
    tsr_tensor *v = NULL, *ix = NULL;
    bool fl = tsr_dtype_is_floating(x->dtype);
    bool dev = scan_on_device(x);
    if (!dimp) {   /* median() / nanmedian() of everything: the value only */
        if (tsr_dtype_is_complex(x->dtype) || x->dtype == TSR_BOOL || (x->dtype == TSR_FLOAT16 && !dev)) {
            tsr__not_implemented(dev ? "median_out_impl" : "median_cpu", x->dtype);
            return -1;
        }
        v = tsr_tensor_empty(0, NULL, x->dtype, x->device);
        if (!v) return -1;
        *values = v;
        *indices = NULL;
        int64_t n = tsr_tensor_numel(x);
        if (tsr_tensor_is_meta(x)) return 0;
        if (n == 0) return tsr_fill_(v, tsr_scalar_float(NAN));
        if (dev) {   /* the flattened input's one row */
            tsr_tensor *flat = tsr_reshape(x, 1, &n), *i0 = tsr_tensor_empty(0, NULL, TSR_INT64, x->device);
            int rc = flat && i0 ? scan_device(kind == TSR_NANMEDIAN ? TSR_KS_NANMEDIAN : TSR_KS_MEDIAN, flat, 0, x->dtype, v,
                                              i0, 0, false, "aten::median") : -1;
            tsr_tensor_release(flat);
            tsr_tensor_release(i0);
            if (rc < 0) {
                tsr_tensor_release(v);
                *values = NULL;
            }
            return rc;
        }
        tsr_tensor *c = tsr_contiguous(x, TSR_MF_CONTIGUOUS);
        kv *buf = c ? tsr_malloc((size_t)n * sizeof *buf) : NULL;
        if (!buf) {
            tsr_tensor_release(c);
            goto fail;
        }
        const tsr_dtype_traits *tr = tsr_dtype_traits_of(x->dtype);
        int64_t m = 0, nnan = 0;
        for (int64_t j = 0; j < n; j++) {
            const char *p = (const char *)tsr_tensor_ptr(c, NULL) + j * tr->itemsize;
            kv e = {.idx = j};
            if (fl) e.f = tr->load_double(p); else e.i = tr->load_int64(p);
            if (fl && isnan(e.f)) nnan++;
            else buf[m++] = e;
        }
        int rc;
        if ((nnan && kind == TSR_MEDIAN) || m == 0) {
            rc = tsr_fill_(v, tsr_scalar_float(NAN));
        } else {
            cmp_t cm = {.integral = !fl, .kind = KIND_PLAIN};
            int64_t k = (m - 1) / 2;
            nth_element(&cm, buf, buf + k, buf + m);
            rc = tsr_tensor_set_at(v, 0, fl ? tsr_scalar_float(buf[k].f) : tsr_scalar_int(buf[k].i));
        }
        tsr_free(buf);
        tsr_tensor_release(c);
        return rc;
    }
    int64_t dim = *dimp;
    int nd = x->ndim ? x->ndim : 1;
    if (dim < -nd || dim >= nd) {
        tsr_error_set(TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %lld)",
                      -nd, nd - 1, (long long)dim);
        return -1;
    }
    if (dim < 0) dim += nd;
    if (x->ndim && x->sizes[dim] == 0) {
        tsr_error_set(TSR_ERR_INDEX, "%s(): Expected reduction dim %lld to have non-zero size.", fname, (long long)dim);
        return -1;
    }
    if (tsr_dtype_is_complex(x->dtype) ||
        (kind != TSR_MODE && (x->dtype == TSR_BOOL || (x->dtype == TSR_FLOAT16 && !dev)))) {
        tsr__not_implemented(kind == TSR_MODE ? (dev ? "cuda_mode" : "mode_cpu") : dev ? "median_out_impl" : "median_out",
                             x->dtype);
        return -1;
    }
    int64_t shape[TSR_MAX_DIMS];
    int n = 0;
    for (int d = 0; d < x->ndim; d++)
        if (d != dim) shape[n++] = x->sizes[d];
        else if (keepdim) shape[n++] = 1;
    v = tsr_tensor_empty(n, shape, x->dtype, x->device);
    ix = v ? tsr_tensor_empty(n, shape, TSR_INT64, x->device) : NULL;
    if (!ix) goto fail;
    if (dev) {
        int op = kind == TSR_MODE ? TSR_KS_MODE : kind == TSR_NANMEDIAN ? TSR_KS_NANMEDIAN : TSR_KS_MEDIAN;
        if (scan_device(op, x, dim, x->dtype, v, ix, 0, false, kind == TSR_MODE ? "aten::mode" : "aten::median.dim") < 0)
            goto fail;
    } else if (!tsr_tensor_is_meta(x) && tsr_tensor_numel(x) > 0 && dim_lines(x, dim, v, ix, ikind) < 0) goto fail;
    if (finish_pair(ov, oi, v, ix, values, indices) < 0) goto fail;
    return 0;
fail:
    tsr_tensor_release(v);
    tsr_tensor_release(ix);
    return -1;
}

/* std::partial_sort(first, middle, last): __heap_select, then __sort_heap */
static void partial_sort(const cmp_t *c, kv *first, kv *middle, kv *last)
{
    int64_t len = middle - first;
    if (len >= 2)
        for (int64_t parent = (len - 2) / 2;; parent--) {
            adjust_heap(c, first, parent, len, first[parent]);
            if (parent == 0) break;
        }
    for (kv *i = middle; i < last; ++i) {
        if (((i - middle) & (LONG_STEP - 1)) == LONG_STEP - 1 && tsr_interrupt_pending()) return;
        if (less(c, i, first)) {
            kv value = *i;
            *i = *first;
            adjust_heap(c, first, 0, len, value);
        }
    }
    while (middle - first > 1) {
        --middle;
        kv value = *middle;
        *middle = *first;
        adjust_heap(c, first, 0, middle - first, value);
    }
}

/* topk on a device: the row sorted stably (descending for largest), its
 * first k. Unsorted, the k come as 1.13's gatherTopK writes them: those
 * strictly beyond the k-th value in index order, then the ones equal to it
 * in index order (key: index, plus n for the equal ones, argsorted). */
static int topk_device(const tsr_tensor *x, int64_t k, int64_t dim, bool largest, bool sorted, tsr_tensor *ov,
                       tsr_tensor *oi, tsr_tensor **values, tsr_tensor **indices)
{
    tsr_tensor *sv = NULL, *si = NULL, *nv = NULL, *ni = NULL, *v = NULL, *ix = NULL;
    tsr_tensor *kth = NULL, *eq = NULL, *key = NULL, *kv_ = NULL, *order = NULL, *ord_i = NULL;
    int rc = -1;
    int64_t n = x->ndim ? x->sizes[dim] : 1;
    sv = tsr_tensor_empty(x->ndim, x->sizes, x->dtype, x->device);
    si = sv ? tsr_tensor_empty(x->ndim, x->sizes, TSR_INT64, x->device) : NULL;
    if (!si || scan_device(TSR_KS_SORT, x, dim, x->dtype, sv, si, 0, largest, "aten::topk.values") < 0) goto done;
    nv = x->ndim ? tsr_view_narrow(sv, dim, 0, k) : tsr_tensor_retain(sv);
    ni = nv ? (x->ndim ? tsr_view_narrow(si, dim, 0, k) : tsr_tensor_retain(si)) : NULL;
    if (!ni) goto done;
    if (sorted || k <= 1 || !x->ndim) {
        v = tsr_contiguous(nv, TSR_MF_CONTIGUOUS);
        ix = v ? tsr_contiguous(ni, TSR_MF_CONTIGUOUS) : NULL;
    } else {
        kth = tsr_view_narrow(sv, dim, k - 1, 1);
        tsr_operand a = tsr_operand_tensor(nv), b = tsr_operand_tensor(kth);
        eq = kth ? tsr_compare(TSR_CMP_EQ, &a, &b, NULL) : NULL;
        tsr_operand e = tsr_operand_tensor(eq), nn = tsr_operand_scalar(tsr_scalar_int(n));
        kv_ = eq ? tsr_binary(TSR_BINOP_MUL, &e, &nn, NULL, NULL) : NULL;
        tsr_operand p = tsr_operand_tensor(kv_), q = tsr_operand_tensor(ni);
        key = kv_ ? tsr_binary(TSR_BINOP_ADD, &p, &q, NULL, NULL) : NULL;
        if (!key || tsr_sort(key, dim, false, true, NULL, NULL, &order, &ord_i) < 0) goto done;
        v = tsr_gather(nv, dim, ord_i);
        ix = v ? tsr_gather(ni, dim, ord_i) : NULL;
    }
    if (!ix || finish_pair(ov, oi, v, ix, values, indices) < 0) goto done;
    v = ix = NULL;
    rc = 0;
done:
    tsr_tensor_release(sv);
    tsr_tensor_release(si);
    tsr_tensor_release(nv);
    tsr_tensor_release(ni);
    tsr_tensor_release(v);
    tsr_tensor_release(ix);
    tsr_tensor_release(kth);
    tsr_tensor_release(eq);
    tsr_tensor_release(kv_);
    tsr_tensor_release(key);
    tsr_tensor_release(order);
    tsr_tensor_release(ord_i);
    return rc;
}

int tsr_topk(const tsr_tensor *x, int64_t k, int64_t dim, bool largest, bool sorted, tsr_tensor *ov, tsr_tensor *oi,
             tsr_tensor **values, tsr_tensor **indices)
{
    tsr_tensor *v = NULL, *ix = NULL, *c = NULL;
    kv *buf = NULL;
    int nd = x->ndim ? x->ndim : 1;
    if (dim < -nd || dim >= nd) {
        tsr_error_set(TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %lld)",
                      -nd, nd - 1, (long long)dim);
        return -1;
    }
    if (dim < 0) dim += nd;
    int64_t n = x->ndim ? x->sizes[dim] : 1;
    if (k < 0 || k > n) {
        tsr_error_set(TSR_ERR_RUNTIME, "selected index k out of range");
        return -1;
    }
    bool dev = scan_on_device(x);
    if (tsr_dtype_is_complex(x->dtype) || x->dtype == TSR_BOOL || (x->dtype == TSR_FLOAT16 && !dev)) {
        tsr__not_implemented(dev ? "topk_out_cuda" : "topk_cpu", x->dtype);
        return -1;
    }
    if (dev) return topk_device(x, k, dim, largest, sorted, ov, oi, values, indices);
    int64_t shape[TSR_MAX_DIMS];
    for (int d = 0; d < x->ndim; d++) shape[d] = d == dim ? k : x->sizes[d];
    v = tsr_tensor_empty(x->ndim, shape, x->dtype, x->device);
    ix = v ? tsr_tensor_empty(x->ndim, shape, TSR_INT64, x->device) : NULL;
    if (!ix) goto fail;
    if (!tsr_tensor_is_meta(x) && tsr_tensor_numel(v) > 0) {
        c = tsr_contiguous(x, TSR_MF_CONTIGUOUS);
        buf = c ? tsr_malloc((size_t)n * sizeof *buf) : NULL;
        if (!buf) goto fail;
        int64_t outer = 1, inner = 1;
        for (int d = 0; d < (int)dim; d++) outer *= x->sizes[d];
        for (int d = (int)dim + 1; d < x->ndim; d++) inner *= x->sizes[d];
        const tsr_dtype_traits *tr = tsr_dtype_traits_of(x->dtype);
        cmp_t cm = {.desc = largest, .integral = !tsr_dtype_is_floating(x->dtype), .kind = KIND_SORT};
        const char *src = tsr_tensor_ptr(c, NULL);
        char *dv = tsr_tensor_ptr(v, NULL);
        int64_t *di = tsr_tensor_ptr(ix, NULL);
        int sz = tr->itemsize;
        bool stop = false;
        for (int64_t a = 0; a < outer && !stop; a++)
            for (int64_t kk = 0; kk < inner && !stop; kk++) {
                if (tsr_interrupt_pending()) break;   /* many short lines: a poll each */
                if (!load_line(buf, src, a, n, inner, kk, tr, cm.integral)) { stop = true; break; }
                if (k * 64 <= n) {
                    partial_sort(&cm, buf, buf + k, buf + n);
                } else {
                    nth_element(&cm, buf, buf + k - 1, buf + n);
                    if (sorted) std_sort(&cm, buf, buf + k - 1);
                }
                for (int64_t j = 0; j < k; j++) {
                    int64_t at = (a * k + j) * inner + kk;
                    memcpy(dv + at * sz, src + ((a * n + buf[j].idx) * inner + kk) * sz, (size_t)sz);
                    di[at] = buf[j].idx;
                }
            }
        if (tsr_check_interrupt() < 0) goto fail;
    }
    if (finish_pair(ov, oi, v, ix, values, indices) < 0) goto fail;
    tsr_free(buf);
    tsr_tensor_release(c);
    return 0;
fail:
    tsr_free(buf);
    tsr_tensor_release(c);
    tsr_tensor_release(v);
    tsr_tensor_release(ix);
    return -1;
}

/* kthvalue: Sorting.cpp's quick_select_template (Sedgewick's partition,
 * median of three) on (value, index) pairs, NaN largest. */
static bool gt_or_nan(const kv *a, const kv *b, bool integral)
{
    if (integral) return a->i > b->i;
    return (isnan(a->f) && !isnan(b->f)) || a->f > b->f;
}

static void quick_select(kv *arr, int64_t sz, int64_t k, bool integral)
{
    int64_t L = 0, R = sz - 1;
    for (;;) {
        if (R <= L || stop_now(R - L)) return;
        if (R == L + 1) {
            if (gt_or_nan(&arr[L], &arr[R], integral)) swap_kv(&arr[L], &arr[R]);
            return;
        }
        int64_t P = (L + R) >> 1;
        swap_kv(&arr[P], &arr[L + 1]);
        if (gt_or_nan(&arr[L + 1], &arr[R], integral)) swap_kv(&arr[L + 1], &arr[R]);
        if (gt_or_nan(&arr[L], &arr[R], integral)) swap_kv(&arr[L], &arr[R]);
        if (gt_or_nan(&arr[L + 1], &arr[L], integral)) swap_kv(&arr[L + 1], &arr[L]);
        int64_t i = L + 1, j = R;
        kv piv = arr[L];
        for (;;) {
            do i++; while (gt_or_nan(&piv, &arr[i], integral));
            do j--; while (gt_or_nan(&arr[j], &piv, integral));
            if (j < i) break;
            swap_kv(&arr[i], &arr[j]);
        }
        swap_kv(&arr[L], &arr[j]);
        if (j <= k) L = i;
        if (j >= k) R = j - 1;
    }
}

int tsr_kthvalue(const tsr_tensor *x, int64_t k, int64_t dim, bool keepdim, tsr_tensor *ov, tsr_tensor *oi,
                 tsr_tensor **values, tsr_tensor **indices)
{
    tsr_tensor *v = NULL, *ix = NULL, *c = NULL;
    kv *buf = NULL;
    int nd = x->ndim ? x->ndim : 1;
    if (dim < -nd || dim >= nd) {
        tsr_error_set(TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %lld)",
                      -nd, nd - 1, (long long)dim);
        return -1;
    }
    if (dim < 0) dim += nd;
    int64_t n = x->ndim ? x->sizes[dim] : 1;
    if (x->ndim && n == 0) {
        tsr_error_set(TSR_ERR_INDEX, "kthvalue(): Expected reduction dim %lld to have non-zero size.", (long long)dim);
        return -1;
    }
    if (k < 1 || k > n) {
        tsr_error_set(TSR_ERR_RUNTIME, "kthvalue(): selected number k out of range for dimension %lld", (long long)dim);
        return -1;
    }
    bool dev = scan_on_device(x);
    if (tsr_dtype_is_complex(x->dtype) || x->dtype == TSR_BOOL || (x->dtype == TSR_FLOAT16 && !dev)) {
        tsr__not_implemented(dev ? "kthvalue_cuda" : "kthvalue_cpu", x->dtype);
        return -1;
    }
    int64_t shape[TSR_MAX_DIMS];
    int m = 0;
    for (int d = 0; d < x->ndim; d++)
        if (d != dim) shape[m++] = x->sizes[d];
        else if (keepdim) shape[m++] = 1;
    v = tsr_tensor_empty(m, shape, x->dtype, x->device);
    ix = v ? tsr_tensor_empty(m, shape, TSR_INT64, x->device) : NULL;
    if (!ix) goto fail;
    if (dev) {
        if (scan_device(TSR_KS_KTHVALUE, x, dim, x->dtype, v, ix, k - 1, false, "aten::kthvalue.values") < 0) goto fail;
    } else if (!tsr_tensor_is_meta(x) && tsr_tensor_numel(v) > 0) {
        c = tsr_contiguous(x, TSR_MF_CONTIGUOUS);
        buf = c ? tsr_malloc((size_t)n * sizeof *buf) : NULL;
        if (!buf) goto fail;
        int64_t outer = 1, inner = 1;
        for (int d = 0; d < (int)dim; d++) outer *= x->sizes[d];
        for (int d = (int)dim + 1; d < x->ndim; d++) inner *= x->sizes[d];
        const tsr_dtype_traits *tr = tsr_dtype_traits_of(x->dtype);
        bool integral = !tsr_dtype_is_floating(x->dtype);
        const char *src = tsr_tensor_ptr(c, NULL);
        int sz = tr->itemsize;
        int64_t o = 0;
        bool stop = false;
        for (int64_t a = 0; a < outer && !stop; a++)
            for (int64_t kk = 0; kk < inner && !stop; kk++, o++) {
                if (tsr_interrupt_pending()) break;   /* many short lines: a poll each */
                if (!load_line(buf, src, a, n, inner, kk, tr, integral)) { stop = true; break; }
                quick_select(buf, n, k - 1, integral);
                memcpy((char *)tsr_tensor_ptr(v, NULL) + o * sz, src + ((a * n + buf[k - 1].idx) * inner + kk) * sz,
                       (size_t)sz);
                ((int64_t *)tsr_tensor_ptr(ix, NULL))[o] = buf[k - 1].idx;
            }
        if (tsr_check_interrupt() < 0) goto fail;
    }
    if (finish_pair(ov, oi, v, ix, values, indices) < 0) goto fail;
    tsr_free(buf);
    tsr_tensor_release(c);
    return 0;
fail:
    tsr_free(buf);
    tsr_tensor_release(c);
    tsr_tensor_release(v);
    tsr_tensor_release(ix);
    return -1;
}

int tsr__std_sort_order(int64_t n, const double *fkeys, const int64_t *ikeys, int64_t *order)
{
    kv *buf = tsr_malloc((size_t)(n ? n : 1) * sizeof *buf);
    if (!buf) return -1;
    for (int64_t j = 0; j < n; j++) {
        buf[j].idx = order[j];
        if (ikeys) buf[j].i = ikeys[order[j]];
        else buf[j].f = fkeys[order[j]];
    }
    cmp_t cm = {.integral = ikeys != NULL, .kind = KIND_PLAIN};
    std_sort(&cm, buf, buf + n);
    for (int64_t j = 0; j < n; j++) order[j] = buf[j].idx;
    tsr_free(buf);
    return 0;
}
