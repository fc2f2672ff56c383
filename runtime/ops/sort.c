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
#include "copy.h"
#include "sort.h"

typedef struct { double f; int64_t i; int64_t idx; } kv;   /* f: float key, i: integer key */

typedef struct { bool desc, integral; } cmp_t;

static bool less(const cmp_t *c, const kv *a, const kv *b)
{
    if (c->integral) return c->desc ? a->i > b->i : a->i < b->i;
    if (c->desc) return (isnan(a->f) && !isnan(b->f)) || a->f > b->f;
    return (!isnan(a->f) && isnan(b->f)) || a->f < b->f;
}

static void swap_kv(kv *a, kv *b) { kv t = *a; *a = *b; *b = t; }

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
    if (n > 16) {
        insertion_sort(c, first, first + 16);
        for (kv *i = first + 16; i != last; ++i) unguarded_linear_insert(c, i);
    } else {
        insertion_sort(c, first, last);
    }
}

/* a stable merge sort (std::stable_sort's order is the only stable one) */
static void merge_sort(const cmp_t *c, kv *a, kv *tmp, int64_t n)
{
    if (n < 2) return;
    int64_t h = n / 2;
    merge_sort(c, a, tmp, h);
    merge_sort(c, a + h, tmp, n - h);
    int64_t i = 0, j = h, k = 0;
    while (i < h && j < n) tmp[k++] = less(c, &a[j], &a[i]) ? a[j++] : a[i++];
    while (i < h) tmp[k++] = a[i++];
    while (j < n) tmp[k++] = a[j++];
    memcpy(a, tmp, (size_t)n * sizeof *a);
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
    if (!tsr_tensor_is_meta(x) && tsr_tensor_numel(x) > 0) {
        c = tsr_contiguous(x, TSR_MF_CONTIGUOUS);
        if (!c) goto fail;
        int64_t outer = 1, inner = 1, n = x->ndim ? x->sizes[dim] : 1;
        for (int d = 0; d < (int)dim; d++) outer *= x->sizes[d];
        for (int d = (int)dim + 1; d < x->ndim; d++) inner *= x->sizes[d];
        buf = tsr_malloc((size_t)n * sizeof *buf);
        tmp = stable ? tsr_malloc((size_t)n * sizeof *tmp) : NULL;
        if (!buf || (stable && !tmp)) goto fail;
        const tsr_dtype_traits *tr = tsr_dtype_traits_of(x->dtype);
        cmp_t cm = {.desc = descending, .integral = !tsr_dtype_is_floating(x->dtype)};
        const char *src = tsr_tensor_ptr(c, NULL);
        char *dv = tsr_tensor_ptr(v, NULL);
        int64_t *di = tsr_tensor_ptr(ix, NULL);
        int sz = tr->itemsize;
        for (int64_t a = 0; a < outer; a++) {
            for (int64_t k = 0; k < inner; k++) {
                for (int64_t j = 0; j < n; j++) {
                    const char *p = src + ((a * n + j) * inner + k) * sz;
                    buf[j].idx = j;
                    if (cm.integral) buf[j].i = tr->load_int64(p);
                    else buf[j].f = tr->load_double(p);
                }
                if (stable) merge_sort(&cm, buf, tmp, n);
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
    if (ov || oi) {
        /* out=(values, indices): resized and copied */
        if ((ov && (tsr_tensor_resize_(ov, v->ndim, v->sizes) < 0 || tsr_copy_(ov, v) < 0)) ||
            (oi && (tsr_tensor_resize_(oi, ix->ndim, ix->sizes) < 0 || tsr_copy_(oi, ix) < 0))) goto fail;
    }
    tsr_free(buf);
    tsr_free(tmp);
    tsr_tensor_release(c);
    *values = v;
    *indices = ix;
    return 0;
fail:
    tsr_free(buf);
    tsr_free(tmp);
    tsr_tensor_release(c);
    tsr_tensor_release(v);
    tsr_tensor_release(ix);
    return -1;
}
