/* runtime/ops/unique.c — unique / unique_consecutive as 1.13's Unique.cpp
 * computes them on the CPU. Without dim, the unique values are the
 * iteration order of a libstdc++ std::unordered_set filled one element at a
 * time (GCC 12's range insert): that order is what sorted=False returns, so
 * the table is simulated exactly — std::hash (identity for integers,
 * _Hash_bytes for floats), the prime bucket counts of _Prime_rehash_policy,
 * insertion at the front of a bucket and the rehash's relinking. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "../internal.h"
#include "../view.h"
#include "binary.h"
#include "compare.h"
#include "copy.h"
#include "factory.h"
#include "join.h"
#include "reduce.h"
#include "scan.h"
#include "scan_dev.h"
#include "scatter.h"
#include "shape.h"
#include "sort.h"
#include "stats.h"

/* libstdc++'s growth of an unordered_set filled element by element */
static const int64_t bucket_counts[] = {
    13, 29, 59, 127, 257, 541, 1109, 2357, 5087, 10273, 20753, 42043, 85229, 172933, 351061, 712697, 1447153,
    2938679, 5967347, 12117689, 24607243, 49969847, 101473717, 206062531, 418451333, 849749479, 1725587117,
    3504151727LL, 8589934583LL,
};

/* libstdc++ _Hash_bytes (hash_bytes.cc, 64-bit), seed 0xc70f6907 */
static uint64_t shift_mix(uint64_t v) { return v ^ (v >> 47); }

static uint64_t hash_bytes(const unsigned char *p, size_t len)
{
    const uint64_t mul = (((uint64_t)0xc6a4a793UL) << 32) + (uint64_t)0x5bd1e995UL;
    uint64_t h = (uint64_t)0xc70f6907UL ^ (len * mul);
    size_t al = len & ~(size_t)7;
    for (size_t i = 0; i < al; i += 8) {
        uint64_t d;
        memcpy(&d, p + i, 8);
        h ^= shift_mix(d * mul) * mul;
        h *= mul;
    }
    if (len & 7) {
        uint64_t d = 0;
        for (int i = (int)(len & 7) - 1; i >= 0; i--) d = (d << 8) + p[al + (size_t)i];
        h ^= d;
        h *= mul;
    }
    h = shift_mix(h) * mul;
    return shift_mix(h);
}

/* std::hash of element i as the set hashes it */
static uint64_t elem_hash(tsr_dtype dt, const double *f, const int64_t *iv, int64_t i)
{
    if (iv) return (uint64_t)iv[i];
    if (dt == TSR_BFLOAT16) return tsr_float_to_bfloat16((float)f[i]);   /* c10's hash of the bits */
    if (f[i] == 0) return 0;
    if (dt == TSR_FLOAT64) return hash_bytes((const unsigned char *)&f[i], 8);
    float v = (float)f[i];   /* float, and bfloat16 through its float value */
    return hash_bytes((const unsigned char *)&v, 4);
}

typedef struct {
    int64_t *next, *bkt, *first;   /* node links; bucket -> node before it (-1: before-begin, -2: empty) */
    uint64_t *code;
    int64_t head, nb, count, grow;
} table;

#define EMPTY (-2)
#define BB (-1)

static int64_t nxt(const table *t, int64_t i) { return i == BB ? t->head : t->next[i]; }
static void set_nxt(table *t, int64_t i, int64_t v)
{
    if (i == BB) t->head = v;
    else t->next[i] = v;
}

/* _M_rehash_aux(n, true_type) */
static int rehash(table *t, int64_t nb)
{
    int64_t *nbk = tsr_malloc((size_t)nb * sizeof *nbk);
    if (!nbk) return -1;
    for (int64_t b = 0; b < nb; b++) nbk[b] = EMPTY;
    int64_t p = t->head, bbegin = 0;
    t->head = -1;
    while (p >= 0) {
        int64_t next = t->next[p], b = (int64_t)(t->code[p] % (uint64_t)nb);
        if (nbk[b] == EMPTY) {
            t->next[p] = t->head;
            t->head = p;
            nbk[b] = BB;
            if (t->next[p] >= 0) nbk[bbegin] = p;
            bbegin = b;
        } else {
            t->next[p] = nxt(t, nbk[b]);
            set_nxt(t, nbk[b], p);
        }
        p = next;
    }
    tsr_free(t->bkt);
    t->bkt = nbk;
    t->nb = nb;
    return 0;
}

static bool elem_eq(const double *f, const int64_t *iv, int64_t a, int64_t b)
{
    return iv ? iv[a] == iv[b] : f[a] == f[b];
}

/* inserts element i (node i); *node: the node that holds its value */
static int insert(table *t, const double *f, const int64_t *iv, int64_t i, uint64_t code, int64_t *node)
{
    if (t->nb) {
        int64_t b = (int64_t)(code % (uint64_t)t->nb);
        if (t->bkt[b] != EMPTY)
            for (int64_t p = nxt(t, t->bkt[b]); p >= 0; p = t->next[p]) {
                if ((int64_t)(t->code[p] % (uint64_t)t->nb) != b) break;
                if (t->code[p] == code && elem_eq(f, iv, p, i)) {
                    *node = p;
                    return 0;
                }
            }
    }
    if (t->count + 1 > (t->nb ? t->nb : 0)) {
        if (rehash(t, bucket_counts[t->grow++]) < 0) return -1;
    }
    t->code[i] = code;
    int64_t b = (int64_t)(code % (uint64_t)t->nb);
    if (t->bkt[b] != EMPTY) {
        t->next[i] = nxt(t, t->bkt[b]);
        set_nxt(t, t->bkt[b], i);
    } else {
        t->next[i] = t->head;
        t->head = i;
        if (t->next[i] >= 0) t->bkt[t->code[t->next[i]] % (uint64_t)t->nb] = i;
        t->bkt[b] = BB;
    }
    t->count++;
    *node = i;
    return 0;
}

/* the elements of x (contiguous) as doubles or int64s; one is NULL */
static int load_all(const tsr_tensor *x, double **f, int64_t **iv)
{
    int64_t n = tsr_tensor_numel(x);
    bool fl = tsr_dtype_is_floating(x->dtype);
    tsr_tensor *c = tsr_contiguous(x, TSR_MF_CONTIGUOUS);
    if (!c) return -1;
    void *buf = tsr_malloc((size_t)(n ? n : 1) * 8);
    if (!buf) {
        tsr_tensor_release(c);
        return -1;
    }
    const tsr_dtype_traits *tr = tsr_dtype_traits_of(x->dtype);
    const char *src = tsr_tensor_ptr(c, NULL);
    for (int64_t i = 0; i < n; i++) {
        if (fl) ((double *)buf)[i] = tr->load_double(src + i * tr->itemsize);
        else ((int64_t *)buf)[i] = tr->load_int64(src + i * tr->itemsize);
    }
    tsr_tensor_release(c);
    *f = fl ? buf : NULL;
    *iv = fl ? NULL : buf;
    return 0;
}

/* element src_i of x into slot j of the 1-D tensor out */
static void copy_elem(const tsr_tensor *xc, int64_t src_i, tsr_tensor *out, int64_t j)
{
    int sz = tsr_tensor_itemsize(xc);
    memcpy((char *)tsr_tensor_ptr(out, NULL) + j * sz, (const char *)tsr_tensor_ptr(xc, NULL) + src_i * sz, (size_t)sz);
}

static int unique_flat(const tsr_tensor *x, bool sorted, bool want_inv, bool want_cnt, tsr_tensor **out,
                       tsr_tensor **inverse, tsr_tensor **counts)
{
    int64_t n = tsr_tensor_numel(x), z = 0;
    double *f = NULL;
    int64_t *iv = NULL, *order = NULL, *pos = NULL, *holder = NULL;
    table t = {0};
    tsr_tensor *xc = NULL;
    int rc = -1;
    if (load_all(x, &f, &iv) < 0) return -1;
    xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS);
    size_t cap = (size_t)(n ? n : 1);
    t.next = tsr_malloc(cap * sizeof *t.next);
    t.code = tsr_malloc(cap * sizeof *t.code);
    holder = tsr_malloc(cap * sizeof *holder);
    pos = tsr_malloc(cap * sizeof *pos);
    order = tsr_malloc(cap * sizeof *order);
    if (!xc || !t.next || !t.code || !holder || !pos || !order) goto done;
    t.head = -1;
    for (int64_t i = 0; i < n; i++) {
        if (insert(&t, f, iv, i, elem_hash(x->dtype, f, iv, i), &holder[i]) < 0) goto done;
        if ((i & 0xfffff) == 0 && tsr_check_interrupt() < 0) goto done;
    }
    int64_t k = 0;
    for (int64_t p = t.head; p >= 0; p = t.next[p]) order[k++] = p;
    if (sorted && tsr__std_sort_order(k, f, iv, order) < 0) goto done;
    for (int64_t j = 0; j < k; j++) pos[order[j]] = j;
    *out = tsr_tensor_empty(1, &k, x->dtype, x->device);
    if (!*out) goto done;
    for (int64_t j = 0; j < k; j++) copy_elem(xc, order[j], *out, j);
    *inverse = want_inv ? tsr_tensor_empty(x->ndim, x->sizes, TSR_INT64, x->device)
                        : tsr_tensor_empty(1, &z, TSR_INT64, x->device);
    *counts = want_cnt ? tsr_zeros(1, &k, TSR_INT64, x->device) : tsr_tensor_empty(1, &z, TSR_INT64, x->device);
    if (!*inverse || !*counts) goto done;
    if (want_inv) {
        int64_t *d = tsr_tensor_ptr(*inverse, NULL);
        for (int64_t i = 0; i < n; i++) d[i] = pos[holder[i]];
    }
    if (want_cnt) {
        /* counts_map[nan] never finds the output's NaNs: their counts stay 0 */
        int64_t *d = tsr_tensor_ptr(*counts, NULL);
        for (int64_t i = 0; i < n; i++)
            if (!f || !isnan(f[i])) d[pos[holder[i]]]++;
    }
    rc = 0;
done:
    tsr_free(f ? (void *)f : (void *)iv);
    tsr_free(t.next);
    tsr_free(t.code);
    tsr_free(t.bkt);
    tsr_free(holder);
    tsr_free(pos);
    tsr_free(order);
    tsr_tensor_release(xc);
    return rc;
}

static int unique_consecutive_flat(const tsr_tensor *x, bool want_inv, bool want_cnt, tsr_tensor **out,
                                   tsr_tensor **inverse, tsr_tensor **counts)
{
    int64_t n = tsr_tensor_numel(x), z = 0, k = 0;
    double *f = NULL;
    int64_t *iv = NULL, *first = NULL, *inv = NULL;
    tsr_tensor *xc = NULL;
    int rc = -1;
    if (load_all(x, &f, &iv) < 0) return -1;
    xc = tsr_contiguous(x, TSR_MF_CONTIGUOUS);
    first = tsr_malloc((size_t)(n ? n : 1) * sizeof *first);
    inv = tsr_malloc((size_t)(n ? n : 1) * sizeof *inv);
    if (!xc || !first || !inv) goto done;
    for (int64_t i = 0; i < n; i++) {
        if (i == 0 || !elem_eq(f, iv, first[k - 1], i)) first[k++] = i;
        inv[i] = k - 1;
    }
    *out = tsr_tensor_empty(1, &k, x->dtype, x->device);
    if (!*out) goto done;
    for (int64_t j = 0; j < k; j++) copy_elem(xc, first[j], *out, j);
    *inverse = want_inv && n ? tsr_tensor_empty(x->ndim, x->sizes, TSR_INT64, x->device)
                             : tsr_tensor_empty(1, &z, TSR_INT64, x->device);
    *counts = tsr_tensor_empty(1, want_cnt ? &k : &z, TSR_INT64, x->device);
    if (!*inverse || !*counts) goto done;
    if (want_inv && n) memcpy(tsr_tensor_ptr(*inverse, NULL), inv, (size_t)n * sizeof *inv);
    if (want_cnt)
        for (int64_t j = 0; j < k; j++)
            ((int64_t *)tsr_tensor_ptr(*counts, NULL))[j] = (j + 1 < k ? first[j + 1] : n) - first[j];
    rc = 0;
done:
    tsr_free(f ? (void *)f : (void *)iv);
    tsr_free(first);
    tsr_free(inv);
    tsr_tensor_release(xc);
    return rc;
}

/* rows of a (rows x m) buffer compared lexicographically with < and > */
typedef struct { const double *f; const int64_t *iv; int64_t m; } rows_t;
static int row_cmp(const rows_t *r, int64_t a, int64_t b)
{
    for (int64_t i = 0; i < r->m; i++) {
        if (r->iv) {
            int64_t x = r->iv[a * r->m + i], y = r->iv[b * r->m + i];
            if (x != y) return x < y ? -1 : 1;
        } else {
            double x = r->f[a * r->m + i], y = r->f[b * r->m + i];
            if (x < y) return -1;
            if (x > y) return 1;
        }
    }
    return 0;
}

static bool row_equal(const rows_t *r, int64_t a, int64_t b)
{
    for (int64_t i = 0; i < r->m; i++)
        if (r->iv ? r->iv[a * r->m + i] != r->iv[b * r->m + i] : !(r->f[a * r->m + i] == r->f[b * r->m + i]))
            return false;
    return true;
}

/* a stable merge sort of idx[0..n) by rows (equal rows keep their order) */
static void sort_rows(const rows_t *r, int64_t *idx, int64_t *tmp, int64_t n)
{
    if (n < 2) return;
    int64_t h = n / 2;
    sort_rows(r, idx, tmp, h);
    sort_rows(r, idx + h, tmp, n - h);
    int64_t i = 0, j = h, k = 0;
    while (i < h && j < n) tmp[k++] = row_cmp(r, idx[j], idx[i]) < 0 ? idx[j++] : idx[i++];
    while (i < h) tmp[k++] = idx[i++];
    while (j < n) tmp[k++] = idx[j++];
    memcpy(idx, tmp, (size_t)n * sizeof *idx);
}

/* _unique_dim_cpu_template */
static int unique_dim(const tsr_tensor *x, int64_t dim, bool consecutive, tsr_tensor **out, tsr_tensor **inverse,
                      tsr_tensor **counts)
{
    int wd = tsr_wrap_dim(dim, x->ndim);
    if (wd < 0) return -1;
    int64_t z = 0;
    if (tsr_tensor_numel(x) == 0) {
        int nz = 0;
        for (int d = 0; d < x->ndim; d++) nz += x->sizes[d] == 0;
        if (x->ndim && x->sizes[wd] == 0) {
            if (nz != 1) {
                tsr_error_set(TSR_ERR_RUNTIME, "Number of zero sized dimensions is more than one, so unique cannot be "
                              "applied ");
                return -1;
            }
            *out = tsr_tensor_empty(x->ndim, x->sizes, x->dtype, x->device);
            *inverse = *out ? tsr_tensor_empty(1, &z, TSR_INT64, x->device) : NULL;
            *counts = *inverse ? tsr_tensor_empty(1, &z, TSR_INT64, x->device) : NULL;
            return *counts ? 0 : -1;
        }
        tsr_error_set(TSR_ERR_RUNTIME, "There are 0 sized dimensions, and they aren't selected, so unique cannot "
                      "be applied");
        return -1;
    }
    /* rows: x.transpose(dim, 0) flattened (transposed back at the end) */
    tsr_tensor *mv = tsr_view_transpose(x, wd, 0);
    tsr_tensor *c = mv ? tsr_contiguous(mv, TSR_MF_CONTIGUOUS) : NULL, *res = NULL, *back = NULL;
    double *f = NULL;
    int64_t *iv = NULL, *idx = NULL, *tmp = NULL, *keepi = NULL;
    int rc = -1;
    if (!c || load_all(c, &f, &iv) < 0) goto done;
    int64_t rows = c->ndim ? c->sizes[0] : 1, m = rows ? tsr_tensor_numel(c) / rows : 0;
    rows_t r = {f, iv, m};
    idx = tsr_malloc((size_t)(rows ? rows : 1) * sizeof *idx);
    tmp = tsr_malloc((size_t)(rows ? rows : 1) * sizeof *tmp);
    keepi = tsr_malloc((size_t)(rows ? rows : 1) * sizeof *keepi);
    if (!idx || !tmp || !keepi) goto done;
    for (int64_t i = 0; i < rows; i++) idx[i] = i;
    if (!consecutive) sort_rows(&r, idx, tmp, rows);
    *inverse = tsr_tensor_empty(1, &rows, TSR_INT64, x->device);
    *counts = *inverse ? tsr_zeros(1, &rows, TSR_INT64, x->device) : NULL;
    if (!*counts) goto done;
    int64_t *inv = tsr_tensor_ptr(*inverse, NULL), *cnt = tsr_tensor_ptr(*counts, NULL), k = 0;
    for (int64_t i = 0; i < rows; i++) {
        if (i == 0 || !row_equal(&r, keepi[k - 1], idx[i])) keepi[k++] = idx[i];
        inv[idx[i]] = k - 1;
        cnt[k - 1]++;
    }
    int64_t sz[TSR_MAX_DIMS];
    memcpy(sz, c->sizes, sizeof(int64_t) * (size_t)c->ndim);
    sz[0] = k;
    res = tsr_tensor_empty(c->ndim, sz, x->dtype, x->device);
    if (!res) goto done;
    int isz = tsr_tensor_itemsize(c);
    for (int64_t j = 0; j < k; j++)
        memcpy((char *)tsr_tensor_ptr(res, NULL) + j * m * isz, (const char *)tsr_tensor_ptr(c, NULL) + keepi[j] * m * isz,
               (size_t)(m * isz));
    tsr_tensor *cn = tsr_view_narrow(*counts, 0, 0, k);
    if (!cn) goto done;
    tsr_tensor_release(*counts);
    *counts = cn;
    back = tsr_view_transpose(res, 0, wd);
    if (!back) goto done;
    *out = back;
    rc = 0;
done:
    if (rc < 0) {
        tsr_tensor_release(*inverse);
        tsr_tensor_release(*counts);
        *inverse = *counts = NULL;
    }
    tsr_tensor_release(res);
    tsr_tensor_release(mv);
    tsr_tensor_release(c);
    tsr_free(f ? (void *)f : (void *)iv);
    tsr_free(idx);
    tsr_free(tmp);
    tsr_free(keepi);
    return rc;
}

/* ------------------------------------------------------------ on a device */

/* Device tensors made along the way, released together. */
typedef struct { tsr_tensor *t[48]; int n; bool fail; } dpool;
static tsr_tensor *dk(dpool *p, tsr_tensor *t)
{
    if (!t || p->n == 48) {
        p->fail = true;
        tsr_tensor_release(t);
        return NULL;
    }
    return p->t[p->n++] = t;
}

/* The rows of c (rows x m, on a device) grouped as 1.13's unique_cuda /
 * unique_dim_cuda group them: sorted (a stable sort per column, last column
 * first: lexicographic, equal rows in their order) unless consecutive, then
 * a new group wherever a row differs from the one before (NaN differs from
 * everything, as `!=` says). *uidx: the rows that start the groups, in
 * order; *inv (rows): each row's group; *cnt: each group's size. New
 * references; 0 or -1. */
static int device_groups(const tsr_tensor *c, bool consecutive, tsr_tensor **uidx, tsr_tensor **inv, tsr_tensor **cnt)
{
    dpool P = {0}, *p = &P;
    int64_t rows = c->sizes[0], m = c->sizes[1], z = 0;
    tsr_device dev = c->device;
    *uidx = *inv = *cnt = NULL;
    if (rows == 0) {
        *uidx = tsr_tensor_empty(1, &z, TSR_INT64, dev);
        *inv = tsr_tensor_empty(1, &z, TSR_INT64, dev);
        *cnt = tsr_tensor_empty(1, &z, TSR_INT64, dev);
        return *uidx && *inv && *cnt ? 0 : -1;
    }
    tsr_tensor *perm = dk(p, tsr_arange(tsr_scalar_int(0), tsr_scalar_int(rows), tsr_scalar_int(1), TSR_INT64, dev));
    for (int64_t j = m - 1; !consecutive && !P.fail && j >= 0; j--) {
        tsr_tensor *col = dk(p, tsr_view_select(c, 1, j));
        tsr_tensor *key = col ? dk(p, tsr_index_select(col, 0, perm)) : NULL, *sv = NULL, *si = NULL;
        if (!key || tsr_sort(key, 0, false, true, NULL, NULL, &sv, &si) < 0) {
            P.fail = true;
            break;
        }
        dk(p, sv);
        dk(p, si);
        perm = dk(p, tsr_index_select(perm, 0, si));
    }
    tsr_tensor *s = P.fail ? NULL : dk(p, tsr_index_select(c, 0, perm)), *first = NULL;
    int64_t one = 1;
    tsr_tensor *head = dk(p, tsr_ones(1, &one, TSR_BOOL, dev));
    if (s && head && rows > 1) {
        tsr_tensor *a = dk(p, tsr_view_narrow(s, 0, 1, rows - 1)), *b = dk(p, tsr_view_narrow(s, 0, 0, rows - 1));
        tsr_operand oa = tsr_operand_tensor(a), ob = tsr_operand_tensor(b);
        tsr_tensor *ne = a && b ? dk(p, tsr_compare(TSR_CMP_NE, &oa, &ob, NULL)) : NULL;
        int64_t d1 = 1;
        tsr_tensor *d = ne ? dk(p, tsr_all_any(ne, &d1, false, false, NULL)) : NULL;
        const tsr_tensor *parts[2] = {head, d};
        first = d ? dk(p, tsr_cat(2, parts, 0, NULL)) : NULL;
    } else if (s && head) {
        first = head;
    }
    tsr_tensor *g1 = first ? dk(p, tsr_cumsum(first, 0, TSR_INT64, false, NULL)) : NULL;
    tsr_operand og = tsr_operand_tensor(g1), o1 = tsr_operand_scalar(tsr_scalar_int(1));
    tsr_tensor *g = g1 ? dk(p, tsr_binary(TSR_BINOP_SUB, &og, &o1, NULL, NULL)) : NULL;
    int64_t k = g ? tsr_tensor_get_int64_at(g1, rows - 1) : 0;
    if (!g) goto fail;
    *uidx = tsr_masked_select(perm, first);
    tsr_tensor *e = *uidx ? dk(p, tsr_tensor_empty(1, &rows, TSR_INT64, dev)) : NULL;
    *inv = e ? tsr_scatter(e, 0, perm, g, NULL, TSR_SCATTER_NONE) : NULL;
    tsr_tensor *zk = *inv ? dk(p, tsr_zeros(1, &k, TSR_INT64, dev)) : NULL;
    tsr_tensor *ones = zk ? dk(p, tsr_ones(1, &rows, TSR_INT64, dev)) : NULL;
    *cnt = ones ? tsr_scatter(zk, 0, g, ones, NULL, TSR_SCATTER_ADD) : NULL;
    if (!*cnt) goto fail;
    for (int i = 0; i < P.n; i++) tsr_tensor_release(P.t[i]);
    return 0;
fail:
    for (int i = 0; i < P.n; i++) tsr_tensor_release(P.t[i]);
    tsr_tensor_release(*uidx);
    tsr_tensor_release(*inv);
    tsr_tensor_release(*cnt);
    *uidx = *inv = *cnt = NULL;
    return -1;
}

/* unique / unique_consecutive on a device, flat or along dim: the rows
 * (elements, or x.transpose(dim, 0)'s slices) grouped by device_groups,
 * the groups' first rows gathered. The CPU's checks ran before. */
static int unique_device(const tsr_tensor *x, const int64_t *dim, bool consecutive, bool want_inv, bool want_cnt,
                         tsr_tensor **out, tsr_tensor **inverse, tsr_tensor **counts)
{
    int64_t z = 0, n = tsr_tensor_numel(x);
    int wd = 0;
    tsr_tensor *mv = NULL, *c = NULL, *c2 = NULL, *uidx = NULL, *inv = NULL, *cnt = NULL, *res = NULL;
    int rc = -1;
    if (dim) {
        if ((wd = tsr_wrap_dim(*dim, x->ndim)) < 0) return -1;
        if (n == 0) return unique_dim(x, *dim, consecutive, out, inverse, counts);   /* no data read */
        mv = tsr_view_transpose(x, wd, 0);
        c = mv ? tsr_contiguous(mv, TSR_MF_CONTIGUOUS) : NULL;
        int64_t rows = c && c->ndim ? c->sizes[0] : 1, sz[2] = {rows, rows ? n / rows : 0};
        c2 = c ? tsr_reshape(c, 2, sz) : NULL;
    } else {
        int64_t sz[2] = {n, 1};
        c2 = tsr_reshape(x, 2, sz);
    }
    if (!c2 || device_groups(c2, consecutive, &uidx, &inv, &cnt) < 0) goto done;
    if (dim) {
        res = tsr_index_select(c, 0, uidx);
        *out = res ? tsr_view_transpose(res, 0, wd) : NULL;
        *inverse = tsr_tensor_retain(inv);
        *counts = tsr_tensor_retain(cnt);
    } else {
        tsr_tensor *col = tsr_view_select(c2, 1, 0);
        *out = col ? tsr_index_select(col, 0, uidx) : NULL;
        tsr_tensor_release(col);
        *inverse = want_inv && (n || !consecutive) ? tsr_reshape(inv, x->ndim, x->sizes)
                                                   : tsr_tensor_empty(1, &z, TSR_INT64, x->device);
        *counts = want_cnt ? tsr_tensor_retain(cnt) : tsr_tensor_empty(1, &z, TSR_INT64, x->device);
    }
    rc = *out && *inverse && *counts ? 0 : -1;
done:
    tsr_tensor_release(mv);
    tsr_tensor_release(c);
    tsr_tensor_release(c2);
    tsr_tensor_release(uidx);
    tsr_tensor_release(inv);
    tsr_tensor_release(cnt);
    tsr_tensor_release(res);
    return rc;
}

int tsr_unique(const tsr_tensor *x, bool sorted, bool consecutive, bool return_inverse, bool return_counts,
               const int64_t *dim, tsr_tensor **out, tsr_tensor **inverse, tsr_tensor **counts)
{
    *out = *inverse = *counts = NULL;
    const char *aten = dim ? (consecutive ? "unique_dim_consecutive" : "unique_dim")
                           : consecutive ? "unique_consecutive" : "_unique2";
    if (tsr_tensor_is_meta(x)) return tsr_meta_refused(aten);
    bool dev = scan_on_device(x);
    if (tsr_dtype_is_complex(x->dtype) || (x->dtype == TSR_FLOAT16 && !dev)) {
        tsr__not_implemented(dim ? (dev ? "unique_dim_cuda" : "unique_dim") : dev ? "unique_cuda" : "unique", x->dtype);
        return -1;
    }
    int rc;
    if (dev) rc = unique_device(x, dim, consecutive, return_inverse, return_counts, out, inverse, counts);
    else if (dim) rc = unique_dim(x, *dim, consecutive, out, inverse, counts);
    else if (consecutive) rc = unique_consecutive_flat(x, return_inverse, return_counts, out, inverse, counts);
    else rc = unique_flat(x, sorted, return_inverse, return_counts, out, inverse, counts);
    if (rc < 0) {
        tsr_tensor_release(*out);
        tsr_tensor_release(*inverse);
        tsr_tensor_release(*counts);
        *out = *inverse = *counts = NULL;
    }
    return rc;
}
