/* tests/unit/test_runtime_tensor.c — tensor headers: default and
 * memory-format strides (SEMANTICS.md §4.1), contiguity predicates (§4.2),
 * preserve_format strides (§4.3), overflow-checked sizes, element access,
 * storage refcounts and the block cache. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "tsr.h"

#define L(...) ((const int64_t[]){__VA_ARGS__})
#define NA(...) ((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))

static int strides_eq(int n, const int64_t *got, const int64_t *want)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) return 0;
    return 1;
}

TEST(tensor_default_strides)
{
    int64_t s[5];
    tsr_strides_contiguous(2, L(2, 0), s);
    CHECK(strides_eq(2, s, L(1, 1)));
    tsr_strides_contiguous(2, L(0, 3), s);
    CHECK(strides_eq(2, s, L(3, 1)));
    tsr_strides_contiguous(3, L(2, 3, 4), s);
    CHECK(strides_eq(3, s, L(12, 4, 1)));
    CHECK_EQ_INT(tsr_strides_for_format(4, L(2, 3, 4, 5), TSR_MF_CHANNELS_LAST, s), 0);
    CHECK(strides_eq(4, s, L(60, 1, 15, 3)));
    tsr_strides_for_format(4, L(2, 3, 1, 1), TSR_MF_CHANNELS_LAST, s);
    CHECK(strides_eq(4, s, L(3, 1, 3, 3)));
    tsr_strides_for_format(4, L(2, 1, 4, 5), TSR_MF_CHANNELS_LAST, s);
    CHECK(strides_eq(4, s, L(20, 1, 5, 1)));
    tsr_strides_for_format(4, L(2, 0, 3, 4), TSR_MF_CHANNELS_LAST, s);
    CHECK(strides_eq(4, s, L(0, 1, 0, 0)));
    tsr_strides_for_format(4, L(0, 3, 4, 5), TSR_MF_CHANNELS_LAST, s);
    CHECK(strides_eq(4, s, L(60, 1, 15, 3)));
    tsr_strides_for_format(5, L(2, 3, 4, 5, 6), TSR_MF_CHANNELS_LAST_3D, s);
    CHECK(strides_eq(5, s, L(360, 1, 90, 18, 3)));
    tsr_error_clear();
    CHECK_EQ_INT(tsr_strides_for_format(3, L(2, 3, 4), TSR_MF_CHANNELS_LAST, s), -1);
    CHECK_STR(tsr_error_message(), "required rank 4 tensor to use channels_last format");
    tsr_error_clear();
    CHECK_EQ_INT(tsr_strides_for_format(4, L(2, 3, 4, 5), TSR_MF_CHANNELS_LAST_3D, s), -1);
    CHECK_STR(tsr_error_message(), "required rank 5 tensor to use channels_last_3d format");
    tsr_error_clear();
    CHECK(tsr_tensor_empty_format(2, L(2, 3), TSR_FLOAT32, TSR_CPU, TSR_MF_PRESERVE) == NULL);
    CHECK_STR(tsr_error_message(), "unsupported memory format Preserve");
    tsr_error_clear();
}

TEST(tensor_predicates)
{
    /* (sizes, strides) → contiguous, channels_last, non_overlapping_and_dense, suggest */
    static const struct { int n; int64_t sz[5], st[5]; bool c, cl, nod; tsr_memory_format sug; } cases[] = {
        {2, {2, 3}, {3, 1}, true, false, true, TSR_MF_CONTIGUOUS},
        {2, {2, 3}, {1, 2}, false, false, true, TSR_MF_CONTIGUOUS},
        {2, {2, 3}, {6, 2}, false, false, false, TSR_MF_CONTIGUOUS},
        {2, {2, 0}, {7, 9}, true, false, true, TSR_MF_CONTIGUOUS},
        {4, {2, 3, 4, 5}, {60, 1, 15, 3}, false, true, true, TSR_MF_CHANNELS_LAST},
        {4, {1, 3, 1, 1}, {3, 1, 1, 1}, true, true, true, TSR_MF_CONTIGUOUS},
        {4, {2, 3, 1, 1}, {3, 1, 3, 3}, true, true, true, TSR_MF_CHANNELS_LAST},
        {4, {2, 1, 1, 1}, {1, 1, 1, 1}, true, true, true, TSR_MF_CONTIGUOUS},   /* N111 ambiguity → NCHW */
        {4, {4, 3, 1, 1}, {3, 1, 1, 1}, true, true, true, TSR_MF_CONTIGUOUS},
        {4, {4, 1, 3, 3}, {9, 1, 3, 1}, true, true, true, TSR_MF_CHANNELS_LAST},
        {4, {2, 3, 4, 5}, {192, 1, 48, 6}, false, false, false, TSR_MF_CHANNELS_LAST},
        {4, {2, 3, 4, 5}, {60, 20, 5, 1}, true, false, true, TSR_MF_CONTIGUOUS},
        {3, {3, 1, 4}, {4, 99, 1}, true, false, true, TSR_MF_CONTIGUOUS},
        {1, {5}, {2}, false, false, false, TSR_MF_CONTIGUOUS},
        {1, {1}, {7}, true, false, true, TSR_MF_CONTIGUOUS},
        {3, {4, 2, 3}, {1, 12, 4}, false, false, true, TSR_MF_CONTIGUOUS},
        {2, {3, 4}, {0, 1}, false, false, false, TSR_MF_CONTIGUOUS},
        {0, {0}, {0}, true, false, true, TSR_MF_CONTIGUOUS},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int64_t *sz = cases[i].sz, *st = cases[i].st;
        int n = cases[i].n;
        if (!CHECK_EQ_INT(tsr_geom_is_contiguous(n, sz, st), cases[i].c)) printf("    case %zu\n", i);
        if (!CHECK_EQ_INT(tsr_geom_is_channels_last(n, sz, st), cases[i].cl)) printf("    case %zu\n", i);
        if (!CHECK_EQ_INT(tsr_geom_is_non_overlapping_and_dense(n, sz, st), cases[i].nod)) printf("    case %zu\n", i);
        if (!CHECK_EQ_INT(tsr_geom_suggest_memory_format(n, sz, st), cases[i].sug)) printf("    case %zu\n", i);
    }
    int64_t s5[5];
    tsr_strides_for_format(5, L(2, 3, 4, 5, 6), TSR_MF_CHANNELS_LAST_3D, s5);
    CHECK(tsr_geom_is_channels_last_3d(5, L(2, 3, 4, 5, 6), s5));
    CHECK_EQ_INT(tsr_geom_suggest_memory_format(5, L(2, 3, 4, 5, 6), s5), TSR_MF_CHANNELS_LAST_3D);
}

TEST(tensor_preserve_strides)
{
    int64_t out[4];
    tsr_strides_preserve(2, L(3, 2), L(1, 3), out);            /* empty(2,3).t() */
    CHECK(strides_eq(2, out, L(1, 3)));
    tsr_strides_preserve(4, L(2, 3, 2, 2), L(192, 1, 48, 6), out);   /* cl sliced [:, :, ::2, ::2] */
    CHECK(strides_eq(4, out, L(12, 1, 6, 3)));
    tsr_strides_preserve(4, L(2, 3, 4, 5), L(192, 1, 48, 6), out);
    CHECK(strides_eq(4, out, L(60, 1, 15, 3)));
    tsr_strides_preserve(3, L(2, 3, 2), L(1, 4, 12), out);
    CHECK(strides_eq(3, out, L(1, 2, 6)));
    tsr_strides_preserve(2, L(3, 4), L(1, 0), out);            /* expanded (3,1)→(3,4) */
    CHECK(strides_eq(2, out, L(4, 1)));
    tsr_strides_preserve(3, L(3, 1, 4), L(4, 99, 1), out);     /* dense: kept exactly */
    CHECK(strides_eq(3, out, L(4, 99, 1)));
}

TEST(tensor_sizes_overflow)
{
    int64_t n;
    CHECK_EQ_INT(tsr_check_sizes(3, L(2, 3, 4), &n), 0);
    CHECK_EQ_INT(n, 24);
    CHECK_EQ_INT(tsr_check_sizes(2, L(1LL << 40, 1LL << 40), &n), -1);
    CHECK_STR(tsr_error_message(), "Storage size calculation overflowed with sizes=[1099511627776, 1099511627776]");
    tsr_error_clear();
    CHECK_EQ_INT(tsr_check_sizes(3, L(1LL << 40, 1LL << 40, 0), &n), 0);
    CHECK_EQ_INT(n, 0);
    CHECK_EQ_INT(tsr_check_sizes(2, L(-3, -1), &n), -1);
    CHECK_STR(tsr_error_message(), "Trying to create tensor with negative dimension -3: [-3, -1]");
    tsr_error_clear();
    CHECK(tsr_tensor_empty_strided(2, L(2, 3), L(1, -1), TSR_FLOAT32, TSR_CPU) == NULL);
    CHECK_STR(tsr_error_message(), "Storage size calculation overflowed with sizes=[2, 3] and strides=[1, -1]");
    tsr_error_clear();
    int64_t m;
    CHECK_EQ_INT(tsr_mul_overflow(1LL << 62, 4, &m), -1);
    tsr_error_clear();
    tsr_tensor *t = tsr_tensor_empty_strided(2, L(2, 3), L(1, 2), TSR_FLOAT32, TSR_CPU);
    CHECK(t && t->storage->nbytes == 24);
    tsr_tensor_release(t);
    t = tsr_tensor_empty_strided(2, L(2, 0), L(1, 2), TSR_FLOAT32, TSR_CPU);
    CHECK(t && t->storage->nbytes == 0);
    tsr_tensor_release(t);
}

TEST(tensor_element_access)
{
    tsr_tensor *t = tsr_tensor_empty(2, L(2, 3), TSR_INT64, TSR_CPU);
    for (int i = 0; i < 6; i++) tsr_tensor_set_at(t, i, tsr_scalar_int((int64_t)1 << (50 + i)));
    CHECK_EQ_INT(tsr_tensor_get_int64(t, L(1, 2)), (int64_t)1 << 55);
    CHECK_EQ_INT(tsr_tensor_get_int64_at(t, 4), (int64_t)1 << 54);
    CHECK(tsr_tensor_get_double(t, L(0, 1)) == (double)((int64_t)1 << 51));
    tsr_tensor_release(t);
    t = tsr_tensor_empty(1, L(2), TSR_COMPLEX64, TSR_CPU);
    tsr_tensor_set_at(t, 1, tsr_scalar_complex(1.5, -2.0));
    double re, im;
    tsr_tensor_get_complex_at(t, 1, &re, &im);
    CHECK(re == 1.5 && im == -2.0);
    tsr_scalar s;
    tsr_tensor_get_at(t, 1, &s);
    CHECK(s.kind == TSR_SCALAR_COMPLEX && s.re == 1.5 && s.im == -2.0);
    tsr_tensor_release(t);
    t = tsr_tensor_empty(0, NULL, TSR_BOOL, TSR_CPU);
    CHECK_EQ_INT(tsr_tensor_numel(t), 1);
    tsr_tensor_set(t, NULL, tsr_scalar_float(0.5));
    tsr_tensor_get(t, NULL, &s);
    CHECK(s.kind == TSR_SCALAR_BOOL && s.i == 1);
    tsr_tensor_release(t);
    t = tsr_tensor_empty(1, L(3), TSR_FLOAT16, TSR_CPU);
    tsr_tensor_set_at(t, 2, tsr_scalar_float(0.1));
    CHECK(tsr_tensor_get_double_at(t, 2) == 0.0999755859375);
    tsr_tensor_release(t);
}

TEST(tensor_from_storage_bounds)
{
    tsr_tensor *base = tsr_zeros(2, L(3, 4), TSR_FLOAT32, TSR_CPU);
    tsr_tensor *v = tsr_tensor_from_storage(base->storage, 2, 1, L(2), L(2), TSR_FLOAT32);
    CHECK(v && v->storage == base->storage && v->storage_offset == 2);
    CHECK_EQ_INT(base->storage->refcount, 2);
    tsr_tensor_release(v);
    CHECK_EQ_INT(base->storage->refcount, 1);
    CHECK(tsr_tensor_from_storage(base->storage, 20, 2, L(3, 3), L(1, 2), TSR_FLOAT32) == NULL);
    CHECK_STR(tsr_error_message(), "setStorage: sizes [3, 3], strides [1, 2], storage offset 20, and itemsize 4 "
                                   "requiring a storage size of 108 are out of bounds for storage of size 48");
    tsr_error_clear();
    tsr_tensor_release(base);
}

TEST(storage_cache_reuses_blocks)
{
    tsr_storage_cache_trim();
    tsr_cache_stats a = tsr_storage_cache_stats();
    int64_t n = 1 << 20;
    tsr_tensor *t = tsr_tensor_empty(1, &n, TSR_FLOAT32, TSR_CPU);
    void *p = t->storage->data;
    tsr_tensor_release(t);
    tsr_cache_stats b = tsr_storage_cache_stats();
    CHECK_EQ_INT(b.blocks, 1);
    t = tsr_tensor_empty(1, &n, TSR_INT32, TSR_CPU);
    CHECK(t->storage->data == p);
    tsr_cache_stats c = tsr_storage_cache_stats();
    CHECK_EQ_INT(c.hits, a.hits + 1);
    CHECK_EQ_INT(c.blocks, 0);
    tsr_tensor_release(t);
    tsr_storage_cache_trim();
    CHECK_EQ_INT(tsr_storage_cache_stats().blocks, 0);
    /* a block of 1 MiB or more is mmap'd on a 2 MiB boundary (huge pages) */
    t = tsr_tensor_empty(1, &n, TSR_FLOAT32, TSR_CPU);
    CHECK(((uintptr_t)t->storage->data & ((2u << 20) - 1)) == 0);
    tsr_tensor_release(t);
    tsr_storage_cache_trim();
    /* the cache keeps at most a quarter of the budget: with 8 MiB, a freed
     * 4 MiB block goes back to the system */
    tsr_mem_set_limit((size_t)8 << 20);
    t = tsr_tensor_empty(1, &n, TSR_FLOAT32, TSR_CPU);
    tsr_tensor_release(t);
    CHECK_EQ_INT(tsr_storage_cache_stats().blocks, 0);
    tsr_mem_set_limit(0);
    /* resize keeps the prefix */
    tsr_storage *s = tsr_storage_new(8, TSR_FLOAT32, TSR_CPU);
    ((float *)s->data)[1] = 3.0f;
    CHECK_EQ_INT(tsr_storage_resize(s, 400), 0);
    CHECK(((float *)s->data)[1] == 3.0f && tsr_storage_size(s) == 100);
    tsr_storage_release(s);
}

/* The rules the Tensor methods used to decide in src/: item(), bool(x),
 * requires_grad's dtype check, set_ and resize_ headers (torch 1.13 wording). */
TEST(tensor_method_rules)
{
    tsr_tensor *one = tsr_full(0, NULL, tsr_scalar_int(3), TSR_INT64, TSR_CPU);
    tsr_tensor *two = tsr_zeros(1, L(2), TSR_FLOAT32, TSR_CPU), *none = tsr_zeros(1, L(0), TSR_FLOAT32, TSR_CPU);
    tsr_scalar s;
    tsr_error_clear();
    CHECK_EQ_INT(tsr_tensor_item(one, &s), 0);
    CHECK_EQ_INT(tsr_scalar_to_int64(s), 3);
    CHECK_EQ_INT(tsr_tensor_item(two, &s), -1);
    CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_VALUE);
    CHECK_STR(tsr_error_message(), "only one element tensors can be converted to Python scalars");
    tsr_error_clear();
    CHECK_EQ_INT(tsr_tensor_is_nonzero(one), 1);
    CHECK_EQ_INT(tsr_tensor_is_nonzero(two), -1);
    CHECK_STR(tsr_error_message(), "Boolean value of Tensor with more than one value is ambiguous");
    tsr_error_clear();
    CHECK_EQ_INT(tsr_tensor_is_nonzero(none), -1);
    CHECK_STR(tsr_error_message(), "Boolean value of Tensor with no values is ambiguous");
    tsr_error_clear();
    CHECK_EQ_INT(tsr_tensor_set_requires_grad(one, true, false), -1);
    CHECK_STR(tsr_error_message(), "only Tensors of floating point and complex dtype can require gradients");
    tsr_error_clear();
    CHECK_EQ_INT(tsr_tensor_set_requires_grad(one, true, true), -1);
    CHECK_STR(tsr_error_message(), "only Tensors of floating point dtype can require gradients");
    tsr_error_clear();
    CHECK_EQ_INT(tsr_tensor_set_requires_grad(one, false, true), 0);
    CHECK_EQ_INT(tsr_tensor_set_requires_grad(two, true, false), 0);
    CHECK(two->requires_grad);
    CHECK(tsr_tensor_set_source(two, one) == NULL);
    CHECK_STR(tsr_error_message(), "Expected object of scalar type Float but got scalar type Long for argument 'source'");
    tsr_error_clear();
    CHECK(tsr_tensor_set_storage(two, one->storage, one->dtype, 0, 1, L(1), 0, NULL) == NULL);
    CHECK_STR(tsr_error_message(),
              "Expected a Storage of type float or an UntypedStorage, but got type Long for argument 1 'storage'");
    tsr_error_clear();
    CHECK(tsr_tensor_set_storage(two, two->storage, two->dtype, 0, 2, L(1, 2), 1, L(1)) == NULL);
    CHECK_STR(tsr_error_message(), "unequal size length (2) and stride length (1)");
    tsr_error_clear();
    tsr_tensor *g = tsr_tensor_set_storage(two, two->storage, two->dtype, 1, 2, L(2, 2), 0, NULL);   /* grows */
    CHECK(g && g->storage->nbytes >= 5 * 4 && g->strides[0] == 2 && g->storage_offset == 1);
    CHECK(tsr_tensor_is_set_to(g, g) && !tsr_tensor_is_set_to(g, two));
    tsr_tensor *r = tsr_tensor_resized(two, 2, L(3, 3));
    CHECK(r && r->storage->nbytes >= 9 * 4 && r->sizes[1] == 3);
    CHECK(tsr_tensor_resized(two, 1, L(-1)) == NULL);
    CHECK_STR(tsr_error_message(), "numel: integer multiplication overflow");
    tsr_error_clear();
    tsr_tensor *all[] = {one, two, none, g, r};
    for (size_t q = 0; q < sizeof all / sizeof all[0]; q++) tsr_tensor_release(all[q]);
}
