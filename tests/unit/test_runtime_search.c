/* tests/unit/test_runtime_search.c — searchsorted / isin against plain
 * linear-scan references on pseudo-random data (both isin algorithms, with
 * and without a sorter), and the fast paths of gather, masked_select and the
 * tiled transposed copy against element-by-element answers. */
#include <stdio.h>
#include "unit.h"
#include "tsr.h"

#define L(...) ((const int64_t[]){__VA_ARGS__})

static uint64_t rng = 88172645463325252ull;
static int64_t next(int64_t mod)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (int64_t)(rng % (uint64_t)mod);
}

static tsr_tensor *random_ints(int64_t n, int64_t mod, tsr_dtype dt)
{
    tsr_tensor *t = tsr_tensor_empty(1, &n, dt, TSR_CPU);
    for (int64_t i = 0; i < n; i++) tsr_tensor_set_at(t, i, tsr_scalar_int(next(mod)));
    return t;
}

TEST(searchsorted_matches_linear_scan)
{
    int64_t n = 300;
    tsr_tensor *seq = tsr_tensor_empty(1, &n, TSR_FLOAT64, TSR_CPU);
    double acc = -50;
    for (int64_t i = 0; i < n; i++) { acc += (double)next(3); tsr_tensor_set_at(seq, i, tsr_scalar_float(acc)); }
    tsr_tensor *v = random_ints(500, 700, TSR_INT64);
    for (int right = 0; right < 2; right++) {
        tsr_operand o = tsr_operand_tensor(v);
        tsr_tensor *r = tsr_searchsorted(seq, &o, false, right, NULL, NULL, NULL);
        if (!CHECK(r != NULL)) return;
        for (int64_t i = 0; i < 500; i++) {
            double x = tsr_tensor_get_double_at(v, i);
            int64_t want = 0;
            while (want < n && (right ? tsr_tensor_get_double_at(seq, want) <= x : tsr_tensor_get_double_at(seq, want) < x))
                want++;
            if (!CHECK_EQ_INT(tsr_tensor_get_int64_at(r, i), want)) break;
        }
        tsr_tensor_release(r);
    }
    tsr_tensor_release(seq);
    tsr_tensor_release(v);
}

TEST(searchsorted_sorter_equals_sorted_sequence)
{
    tsr_tensor *seq = random_ints(64, 40, TSR_INT32), *vals = random_ints(100, 45, TSR_INT64);
    int64_t n = 64;
    /* a sorter by selection: indices of seq in ascending order */
    tsr_tensor *sorter = tsr_tensor_empty(1, &n, TSR_INT64, TSR_CPU), *sorted = tsr_tensor_empty(1, &n, TSR_INT32, TSR_CPU);
    bool used[64] = {0};
    for (int64_t k = 0; k < n; k++) {
        int64_t best = -1;
        for (int64_t i = 0; i < n; i++)
            if (!used[i] && (best < 0 || tsr_tensor_get_int64_at(seq, i) < tsr_tensor_get_int64_at(seq, best))) best = i;
        used[best] = true;
        tsr_tensor_set_at(sorter, k, tsr_scalar_int(best));
        tsr_tensor_set_at(sorted, k, tsr_scalar_int(tsr_tensor_get_int64_at(seq, best)));
    }
    tsr_operand o = tsr_operand_tensor(vals);
    tsr_tensor *a = tsr_searchsorted(seq, &o, true, false, "right", sorter, NULL);
    tsr_tensor *b = tsr_searchsorted(sorted, &o, true, true, NULL, NULL, NULL);
    CHECK(a && b && a->dtype == TSR_INT32 && tsr_equal(a, b) == 1);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    tsr_tensor_release(seq);
    tsr_tensor_release(vals);
    tsr_tensor_release(sorter);
    tsr_tensor_release(sorted);
}

/* Below and above numpy's size heuristic: the same membership answers. */
TEST(isin_both_algorithms_agree_with_scan)
{
    tsr_tensor *el = random_ints(200, 60, TSR_INT16);
    for (int64_t nt = 3; nt <= 90; nt += 87) {
        tsr_tensor *te = random_ints(nt, 60, TSR_INT64);
        for (int invert = 0; invert < 2; invert++) {
            tsr_operand a = tsr_operand_tensor(el), b = tsr_operand_tensor(te);
            tsr_tensor *r = tsr_isin(&a, &b, false, invert, NULL);
            if (!CHECK(r != NULL && r->dtype == TSR_BOOL)) return;
            for (int64_t i = 0; i < 200; i++) {
                bool in = false;
                for (int64_t j = 0; j < nt; j++) in |= tsr_tensor_get_int64_at(el, i) == tsr_tensor_get_int64_at(te, j);
                if (!CHECK_EQ_INT(tsr_tensor_get_int64_at(r, i), in != invert)) break;
            }
            tsr_tensor_release(r);
        }
        tsr_tensor_release(te);
    }
    tsr_tensor_release(el);
}

TEST(masked_select_fast_fill_edges)
{
    for (int last = 0; last < 2; last++) {
        tsr_tensor *x = tsr_arange(tsr_scalar_int(0), tsr_scalar_int(1000), tsr_scalar_int(1), TSR_FLOAT32, TSR_CPU);
        int64_t n = 1000;
        tsr_tensor *m = tsr_tensor_empty(1, &n, TSR_BOOL, TSR_CPU);
        int64_t cnt = 0;
        for (int64_t i = 0; i < n; i++) {
            bool on = i == n - 1 ? last : next(3) == 0;
            tsr_tensor_set_at(m, i, tsr_scalar_bool(on));
            cnt += on;
        }
        tsr_tensor *r = tsr_masked_select(x, m);
        if (!CHECK(r && tsr_tensor_numel(r) == cnt)) return;
        int64_t k = 0;
        for (int64_t i = 0; i < n; i++)
            if (tsr_tensor_get_int64_at(m, i) && !CHECK(tsr_tensor_get_double_at(r, k++) == (double)i)) break;
        tsr_tensor_release(r);
        tsr_tensor_release(m);
        tsr_tensor_release(x);
    }
}

TEST(gather_fast_path_matches_definition)
{
    int64_t n = 6 * 50 * 7;
    tsr_tensor *a = tsr_arange(tsr_scalar_int(0), tsr_scalar_int(n), tsr_scalar_int(1), TSR_FLOAT64, TSR_CPU);
    tsr_tensor *x = tsr_view_view(a, 3, L(6, 50, 7));
    tsr_tensor *ix0 = random_ints(6 * 9 * 7, 50, TSR_INT64), *ix = tsr_view_view(ix0, 3, L(6, 9, 7));
    tsr_tensor *r = tsr_gather(x, 1, ix);
    if (!CHECK(r != NULL)) return;
    for (int64_t i = 0; i < 6; i++)
        for (int64_t j = 0; j < 9; j++)
            for (int64_t k = 0; k < 7; k++) {
                int64_t v = tsr_tensor_get_int64_at(ix, (i * 9 + j) * 7 + k);
                if (!CHECK(tsr_tensor_get_double_at(r, (i * 9 + j) * 7 + k) == (double)((i * 50 + v) * 7 + k))) return;
            }
    tsr_tensor_release(r);
    tsr_tensor_release(ix);
    tsr_tensor_release(ix0);
    tsr_tensor_release(x);
    tsr_tensor_release(a);
}

/* The 4x4 register tiles and their ragged edges, every shape from 32 to 41. */
TEST(transposed_copy_tiles_every_edge)
{
    for (int64_t r = 32; r <= 41; r++)
        for (int64_t c = 32; c <= 41; c += 3) {
            tsr_tensor *a = tsr_arange(tsr_scalar_int(0), tsr_scalar_int(r * c), tsr_scalar_int(1), TSR_INT32, TSR_CPU);
            tsr_tensor *v = tsr_view_view(a, 2, L(r, c)), *t = tsr_view_t(v);
            tsr_tensor *d = tsr_contiguous(t, TSR_MF_CONTIGUOUS);
            for (int64_t i = 0; i < c; i++)
                for (int64_t j = 0; j < r; j++)
                    if (!CHECK_EQ_INT(tsr_tensor_get_int64_at(d, i * r + j), j * c + i)) goto next;
        next:
            tsr_tensor_release(d);
            tsr_tensor_release(t);
            tsr_tensor_release(v);
            tsr_tensor_release(a);
        }
}
