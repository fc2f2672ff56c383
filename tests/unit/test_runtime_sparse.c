/* tests/unit/test_runtime_sparse.c — sparse COO against a dense reference:
 * coalesce() on random indices (duplicates, hybrid values, int64 wrap and
 * small-integer float64 so every summation order is exact) gives sorted
 * unique indices whose to_dense() equals the dense accumulation; to_sparse
 * round-trips; sparse + sparse and sparse @ dense equal their dense forms. */
#include <stdlib.h>
#include "unit.h"
#include "tsr.h"
#include "ops/sparse.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static int64_t rnd(int64_t n) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return (int64_t)(rng % (uint64_t)n); }

/* A random uncoalesced sparse tensor of sd sparse dims (sizes sz) and one
 * dense dim of dn (0: none), nnz entries with many duplicates; *ref gets
 * its dense accumulation computed here. */
static tsr_tensor *random_sparse(int sd, const int64_t *sz, int64_t dn, int64_t nnz, tsr_dtype dt, tsr_tensor **ref)
{
    int64_t isz[2] = {sd, nnz}, vsz[2] = {nnz, dn}, full[4];
    tsr_tensor *ind = tsr_tensor_empty(2, isz, TSR_INT64, TSR_CPU);
    tsr_tensor *val = tsr_tensor_empty(dn ? 2 : 1, vsz, dt, TSR_CPU);
    for (int d = 0; d < sd; d++) full[d] = sz[d];
    if (dn) full[sd] = dn;
    *ref = tsr_zeros(sd + (dn ? 1 : 0), full, dt, TSR_CPU);
    int64_t block = dn ? dn : 1;
    for (int64_t k = 0; k < nnz; k++) {
        int64_t idx[4];
        for (int d = 0; d < sd; d++) {
            idx[d] = rnd(sz[d]);
            tsr_tensor_set_at(ind, d * nnz + k, tsr_scalar_int(idx[d]));
        }
        for (int64_t e = 0; e < block; e++) {
            int64_t v = rnd(2000) - 1000;
            if (dt == TSR_INT64 && rnd(5) == 0) v = INT64_MAX - rnd(3);   /* sums wrap as int64 */
            tsr_tensor_set_at(val, k * block + e, tsr_scalar_int(v));
            if (dn) idx[sd] = e;
            tsr_scalar old;
            tsr_tensor_get(*ref, idx, &old);
            int64_t sum = (int64_t)((uint64_t)tsr_scalar_to_int64(old) + (uint64_t)v);
            tsr_tensor_set(*ref, idx, dt == TSR_INT64 ? tsr_scalar_int(sum)
                                                     : tsr_scalar_float(tsr_scalar_to_double(old) + (double)v));
        }
    }
    tsr_tensor *s = tsr_sparse_coo_tensor(ind, val, sd + (dn ? 1 : 0), full);
    tsr_tensor_release(ind);
    tsr_tensor_release(val);
    return s;
}

static bool equal(const tsr_tensor *a, const tsr_tensor *b)
{
    if (a->ndim != b->ndim || tsr_tensor_numel(a) != tsr_tensor_numel(b)) return false;
    for (int64_t i = 0; i < tsr_tensor_numel(a); i++) {
        tsr_scalar x, y;
        tsr_tensor_get_at(a, i, &x);
        tsr_tensor_get_at(b, i, &y);
        if (tsr_scalar_to_int64(x) != tsr_scalar_to_int64(y) || tsr_scalar_to_double(x) != tsr_scalar_to_double(y))
            return false;
    }
    return true;
}

TEST(sparse_coalesce_matches_dense_reference_on_random_indices)
{
    for (int it = 0; it < 200; it++) {
        int sd = 1 + (int)rnd(3);
        int64_t sz[3] = {1 + rnd(6), 1 + rnd(6), 1 + rnd(6)}, dn = rnd(3), nnz = rnd(40);
        tsr_dtype dt = it % 2 ? TSR_INT64 : TSR_FLOAT64;
        tsr_tensor *ref = NULL, *s = random_sparse(sd, sz, dn, nnz, dt, &ref);
        CHECK(s != NULL);
        if (!s) { tsr_error_clear(); tsr_tensor_release(ref); continue; }
        tsr_tensor *c = tsr_sparse_coalesce(s);
        CHECK(c != NULL && c->sparse->coalesced);
        /* sorted, unique row-major keys */
        int64_t n = tsr_sparse_nnz(c), prev = -1;
        bool sorted = true;
        for (int64_t k = 0; k < n; k++) {
            int64_t key = 0;
            for (int d = 0; d < sd; d++) key = key * sz[d] + tsr_tensor_get_int64_at(c->sparse->indices, d * n + k);
            sorted = sorted && key > prev;
            prev = key;
        }
        CHECK(sorted);
        CHECK(n <= nnz);
        tsr_tensor *d1 = tsr_sparse_to_dense(c), *d2 = tsr_sparse_to_dense(s);
        CHECK(equal(d1, ref));
        CHECK(equal(d2, ref));
        /* dense -> sparse -> dense round trip, coalesced */
        tsr_tensor *back = tsr_to_sparse(ref, sd, true), *d3 = back ? tsr_sparse_to_dense(back) : NULL;
        CHECK(back && back->sparse->coalesced && d3 && equal(d3, ref));
        /* s + s equals 2 * ref */
        tsr_tensor *ss = tsr_sparse_add(c, s, tsr_scalar_int(1)), *d4 = ss ? tsr_sparse_to_dense(ss) : NULL;
        tsr_operand a = tsr_operand_tensor(ref), two = tsr_operand_scalar(tsr_scalar_int(2));
        tsr_tensor *ref2 = tsr_binary(TSR_BINOP_MUL, &a, &two, NULL, NULL);
        CHECK(d4 && equal(d4, ref2));
        tsr_tensor_release(ss); tsr_tensor_release(d4); tsr_tensor_release(ref2);
        tsr_tensor_release(back); tsr_tensor_release(d3);
        tsr_tensor_release(d1); tsr_tensor_release(d2);
        tsr_tensor_release(c); tsr_tensor_release(s); tsr_tensor_release(ref);
    }
}

TEST(sparse_mm_matches_dense_mm)
{
    for (int it = 0; it < 60; it++) {
        int64_t sz[2] = {1 + rnd(7), 1 + rnd(7)}, p = 1 + rnd(5), nnz = rnd(30);
        tsr_tensor *ref = NULL, *s = random_sparse(2, sz, 0, nnz, TSR_FLOAT64, &ref);
        int64_t dsz[2] = {sz[1], p};
        tsr_tensor *d = tsr_tensor_empty(2, dsz, TSR_FLOAT64, TSR_CPU);
        for (int64_t i = 0; i < sz[1] * p; i++) tsr_tensor_set_at(d, i, tsr_scalar_int(rnd(9) - 4));
        tsr_tensor *r = tsr_sparse_mm(s, d), *e = tsr_mm(ref, d, NULL);
        CHECK(r && e && equal(r, e));
        tsr_tensor_release(r); tsr_tensor_release(e); tsr_tensor_release(d);
        tsr_tensor_release(s); tsr_tensor_release(ref);
    }
}

TEST(sparse_tensor_refuses_strided_paths)
{
    int64_t sz[1] = {3};
    tsr_tensor *s = tsr_sparse_empty(1, sz, TSR_FLOAT32, TSR_CPU);
    CHECK(s != NULL);
    tsr_tensor *v = tsr_view_narrow(s, 0, 0, 1);
    CHECK(v == NULL);
    CHECK(tsr_error_kind() == TSR_ERR_NOT_IMPLEMENTED);
    tsr_error_clear();
    tsr_tensor *n = tsr_unary(TSR_UNOP_EXP, s, NULL, NULL);
    CHECK(n == NULL);
    tsr_error_clear();
    tsr_tensor_release(s);
}
