/* tests/unit/test_runtime_copy.c — copy_ (broadcast, every dtype pair, overlap
 * rules), fill_, clone/contiguous/to with preserve_format (SEMANTICS.md §4.3),
 * meta behaviour, and a fault-simulation walk over a composite operation. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "tsr.h"

#define L(...) ((const int64_t[]){__VA_ARGS__})

static tsr_tensor *ar(int nd, const int64_t *sizes, tsr_dtype dt)
{
    int64_t n = 1;
    for (int i = 0; i < nd; i++) n *= sizes[i];
    tsr_tensor *a = tsr_arange(tsr_scalar_int(0), tsr_scalar_int(n), tsr_scalar_int(1), dt, TSR_CPU);
    tsr_tensor *v = tsr_view_view(a, nd, sizes);
    tsr_tensor_release(a);
    return v;
}

/* Every dtype pair: small integers survive any conversion (bool: != 0). */
TEST(copy_all_dtype_pairs)
{
    for (int i = 0; i < TSR_NDTYPES; i++)
        for (int j = 0; j < TSR_NDTYPES; j++) {
            tsr_dtype s = tsr_dtype_at_index(i), d = tsr_dtype_at_index(j);
            tsr_tensor *src = tsr_tensor_empty(1, L(5), s, TSR_CPU);
            for (int k = 0; k < 5; k++) tsr_tensor_set_at(src, k, tsr_scalar_int(s == TSR_BOOL ? k & 1 : k));
            tsr_tensor *dst = tsr_zeros(1, L(5), d, TSR_CPU);
            CHECK_EQ_INT(tsr_copy_(dst, src), 0);
            for (int k = 0; k < 5; k++) {
                double want = s == TSR_BOOL ? (k & 1) : k;
                if (d == TSR_BOOL) want = want != 0;
                if (!CHECK(tsr_tensor_get_double_at(dst, k) == want))
                    printf("    %s -> %s [%d]\n", tsr_dtype_name(s), tsr_dtype_name(d), k);
            }
            tsr_tensor_release(src);
            tsr_tensor_release(dst);
        }
}

TEST(copy_broadcast_and_strided)
{
    tsr_tensor *dst = tsr_zeros(2, L(3, 4), TSR_FLOAT64, TSR_CPU);
    tsr_tensor *row = ar(1, L(4), TSR_INT32);
    CHECK_EQ_INT(tsr_copy_(dst, row), 0);
    CHECK(tsr_tensor_get_double_at(dst, 11) == 3.0 && tsr_tensor_get_double_at(dst, 4) == 0.0);
    tsr_tensor *src = ar(2, L(4, 3), TSR_FLOAT32);
    tsr_tensor *st = tsr_view_t(src);
    CHECK_EQ_INT(tsr_copy_(dst, st), 0);
    CHECK(tsr_tensor_get_double_at(dst, 1) == 3.0 && tsr_tensor_get_double_at(dst, 4) == 1.0);
    tsr_tensor *bad = ar(1, L(3), TSR_FLOAT32);
    tsr_error_clear();
    CHECK_EQ_INT(tsr_copy_(dst, bad), -1);
    CHECK_STR(tsr_error_message(), "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 1");
    tsr_error_clear();
    tsr_tensor *narrow = tsr_view_narrow(dst, 1, 0, 1);
    CHECK_EQ_INT(tsr_copy_(narrow, st), -1);
    CHECK_STR(tsr_error_message(), "output with shape [3, 1] doesn't match the broadcast shape [3, 4]");
    tsr_error_clear();
    tsr_tensor *ex = tsr_view_expand(row, 2, L(2, 4));
    CHECK_EQ_INT(tsr_copy_(ex, row), -1);
    CHECK_STR(tsr_error_message(), "unsupported operation: more than one element of the written-to tensor refers to a "
                                   "single memory location. Please clone() the tensor before performing the operation.");
    tsr_error_clear();
    CHECK_EQ_INT(tsr_fill_(ex, tsr_scalar_int(7)), 0);       /* fill_ allows it */
    CHECK_EQ_INT(tsr_tensor_get_int64_at(row, 2), 7);
    tsr_tensor *all[] = {dst, row, src, st, bad, narrow, ex};
    for (size_t q = 0; q < sizeof all / sizeof all[0]; q++) tsr_tensor_release(all[q]);
}

TEST(copy_overlap_rules)
{
    tsr_tensor *x = ar(1, L(6), TSR_FLOAT32);
    tsr_tensor *a = tsr_view_slice(x, 0, 1, TSR_SLICE_END, 1), *b = tsr_view_slice(x, 0, 0, 5, 1);
    CHECK_EQ_INT(tsr_copy_(a, b), -1);
    CHECK_STR(tsr_error_message(), "unsupported operation: some elements of the input tensor and the written-to tensor "
                                   "refer to a single memory location. Please clone() the tensor before performing the operation.");
    tsr_error_clear();
    CHECK_EQ_INT(tsr_copy_(x, x), 0);
    /* non-dense overlap is staged: x[::2] = x[1::2] */
    tsr_tensor *ev = tsr_view_slice(x, 0, 0, TSR_SLICE_END, 2), *od = tsr_view_slice(x, 0, 1, TSR_SLICE_END, 2);
    CHECK_EQ_INT(tsr_copy_(ev, od), 0);
    static const double want[6] = {1, 1, 3, 3, 5, 5};
    for (int i = 0; i < 6; i++) CHECK(tsr_tensor_get_double_at(x, i) == want[i]);
    /* m.copy_(m.t()): same bytes, other strides — 1.13 calls it partial */
    tsr_tensor *m = ar(2, L(3, 3), TSR_FLOAT32);
    tsr_tensor *mt = tsr_view_t(m);
    CHECK_EQ_INT(tsr_copy_(m, mt), -1);
    CHECK(strstr(tsr_error_message(), "some elements of the input tensor") != NULL);
    tsr_error_clear();
    /* non-dense views on one storage are staged: m[:, 0] = m[0, :] */
    tsr_tensor *c0 = tsr_view_select(m, 1, 0), *r0 = tsr_view_select(m, 0, 0);
    tsr_tensor *r0r = tsr_view_slice(r0, 0, 0, TSR_SLICE_END, 1);
    tsr_tensor *c0x = tsr_view_slice(c0, 0, 0, TSR_SLICE_END, 1);
    CHECK_EQ_INT(tsr_copy_(c0x, r0r), 0);
    CHECK(tsr_tensor_get_double_at(m, 3) == 1.0 && tsr_tensor_get_double_at(m, 6) == 2.0);
    tsr_tensor_release(c0);
    tsr_tensor_release(r0);
    tsr_tensor_release(r0r);
    tsr_tensor_release(c0x);
    tsr_tensor *all[] = {x, a, b, ev, od, m, mt};
    for (size_t q = 0; q < sizeof all / sizeof all[0]; q++) tsr_tensor_release(all[q]);
}

TEST(copy_clone_contiguous_to)
{
    tsr_tensor *x = tsr_tensor_empty(2, L(2, 3), TSR_FLOAT32, TSR_CPU);
    tsr_tensor *xt = tsr_view_t(x);
    tsr_tensor *c = tsr_clone(xt, TSR_MF_PRESERVE);
    CHECK(c && c->strides[0] == 1 && c->strides[1] == 3);
    tsr_tensor *cc = tsr_clone(xt, TSR_MF_CONTIGUOUS);
    CHECK(cc && cc->strides[0] == 2 && cc->strides[1] == 1);
    tsr_tensor *k = tsr_contiguous(xt, TSR_MF_CONTIGUOUS);
    CHECK(k && k != xt && k->strides[0] == 2);
    tsr_tensor *same = tsr_contiguous(x, TSR_MF_CONTIGUOUS);
    CHECK(same == x);
    tsr_error_clear();
    CHECK(tsr_contiguous(xt, TSR_MF_PRESERVE) == NULL);
    CHECK_STR(tsr_error_message(), "preserve memory format is unsupported by the contiguous operator");
    tsr_error_clear();
    tsr_tensor *kp = tsr_contiguous(x, TSR_MF_PRESERVE);      /* contiguous: returned as is */
    CHECK(kp == x);
    tsr_tensor_release(kp);
    CHECK(tsr_clone(x, TSR_MF_CHANNELS_LAST) == NULL);
    CHECK_STR(tsr_error_message(), "required rank 4 tensor to use channels_last format");
    tsr_error_clear();
    tsr_tensor *e = tsr_tensor_empty(2, L(2, 3), TSR_FLOAT32, TSR_CPU);
    tsr_tensor *e3 = tsr_view_expand(e, 3, L(2, 2, 3));
    tsr_tensor *ce = tsr_clone(e3, TSR_MF_PRESERVE);
    CHECK(ce && ce->strides[0] == 6 && ce->strides[1] == 3 && ce->strides[2] == 1);
    tsr_tensor *d = tsr_to_dtype(xt, TSR_INT64, false);
    CHECK(d && d->dtype == TSR_INT64 && d->strides[0] == 1 && d->strides[1] == 3);
    tsr_tensor *d2 = tsr_to_dtype(x, TSR_FLOAT32, false);
    CHECK(d2 == x);
    tsr_tensor *d3 = tsr_to_dtype(x, TSR_FLOAT32, true);
    CHECK(d3 && d3 != x && d3->storage != x->storage);
    tsr_tensor *all[] = {x, xt, c, cc, k, same, e, e3, ce, d, d2, d3};
    for (size_t q = 0; q < sizeof all / sizeof all[0]; q++) tsr_tensor_release(all[q]);
}

TEST(copy_meta)
{
    tsr_tensor *m = tsr_zeros(1, L(3), TSR_FLOAT32, TSR_META);
    tsr_tensor *c = tsr_ones(1, L(4), TSR_FLOAT32, TSR_CPU);
    CHECK(m && m->storage->data == NULL);
    CHECK_EQ_INT(tsr_copy_(m, c), 0);              /* 1.13 checks nothing into meta */
    CHECK_EQ_INT(tsr_copy_(c, m), -1);
    CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_NOT_IMPLEMENTED);
    CHECK_STR(tsr_error_message(), "Cannot copy out of meta tensor; no data!");
    tsr_error_clear();
    CHECK(tsr_to_device(m, TSR_CPU, TSR_DTYPE_UNDEFINED, false) == NULL);
    CHECK_STR(tsr_error_message(), "Cannot copy out of meta tensor; no data!");
    tsr_error_clear();
    tsr_tensor *mm = tsr_to_device(c, TSR_META, TSR_DTYPE_UNDEFINED, false);
    CHECK(mm && tsr_tensor_is_meta(mm) && mm->sizes[0] == 4);
    tsr_tensor *mc = tsr_clone(m, TSR_MF_PRESERVE);
    CHECK(mc && tsr_tensor_is_meta(mc));
    CHECK_EQ_INT(tsr_fill_(m, tsr_scalar_int(1)), 0);
    tsr_tensor *all[] = {m, c, mm, mc};
    for (size_t q = 0; q < sizeof all / sizeof all[0]; q++) tsr_tensor_release(all[q]);
}

TEST(copy_fill_values)
{
    tsr_tensor *t = tsr_zeros(2, L(2, 3), TSR_UINT8, TSR_CPU);
    CHECK_EQ_INT(tsr_fill_(t, tsr_scalar_int(-1)), 0);
    CHECK_EQ_INT(tsr_tensor_get_int64_at(t, 5), 255);
    tsr_tensor_release(t);
    t = tsr_zeros(1, L(3), TSR_COMPLEX128, TSR_CPU);
    tsr_fill_(t, tsr_scalar_complex(1, -2));
    double re, im;
    tsr_tensor_get_complex_at(t, 2, &re, &im);
    CHECK(re == 1 && im == -2);
    tsr_tensor_release(t);
    t = tsr_zeros(1, L(3), TSR_BFLOAT16, TSR_CPU);
    tsr_fill_(t, tsr_scalar_float(NAN));
    CHECK_EQ_INT(((tsr_bfloat16 *)tsr_tensor_ptr(t, NULL))[1], 0x7fc0);
    tsr_tensor_release(t);
}

/* One composite operation: factories, views, a staged copy, a reshape copy,
 * conversions. Returns 0 or -1; must free everything on every path. */
static int composite(void)
{
    int rc = -1;
    tsr_tensor *a = NULL, *b = NULL, *c = NULL, *d = NULL, *e = NULL, *f = NULL;
    a = tsr_arange(tsr_scalar_int(0), tsr_scalar_int(24), tsr_scalar_int(1), TSR_FLOAT32, TSR_CPU);
    if (!a) goto fail;
    b = tsr_view_view(a, 3, L(2, 3, 4));
    if (!b) goto fail;
    c = tsr_view_permute(b, 3, L(2, 0, 1));
    if (!c) goto fail;
    d = tsr_reshape(c, 2, L(4, 6));                 /* copies */
    if (!d) goto fail;
    e = tsr_to_dtype(d, TSR_BFLOAT16, false);
    if (!e) goto fail;
    f = tsr_linspace(tsr_scalar_int(0), tsr_scalar_int(1), 6, TSR_FLOAT64, TSR_CPU);
    if (!f) goto fail;
    if (tsr_copy_(e, f) < 0) goto fail;
    rc = 0;
fail:
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    tsr_tensor_release(c);
    tsr_tensor_release(d);
    tsr_tensor_release(e);
    tsr_tensor_release(f);
    return rc;
}

/* Walks tsr_fault_sim(n) for n = 1.. until the operation succeeds: every
 * failure is reported as MEMORY and (under ASan) nothing leaks. */
TEST(copy_fault_sim_walk)
{
    tsr_error_clear();
    CHECK_EQ_INT(composite(), 0);
    int n, failures = 0;
    for (n = 1; n < 200; n++) {
        tsr_error_clear();
        tsr_fault_sim(n);
        int rc = composite();
        int fired = tsr_fault_sim_fired();
        tsr_fault_sim(0);
        if (!fired) {
            CHECK_EQ_INT(rc, 0);
            break;
        }
        failures++;
        CHECK_EQ_INT(rc, -1);
        if (!CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_MEMORY)) printf("    n=%d: %s\n", n, tsr_error_message());
        CHECK(strncmp(tsr_error_message(), "DefaultCPUAllocator: can't allocate memory", 42) == 0);
    }
    CHECK(failures >= 10);
    CHECK(n < 200);
    tsr_error_clear();
}

/* fill_ with a tensor value must be 0-dim; the checked scalar fill refuses
 * values the dtype cannot hold (torch 1.13 wording). */
TEST(copy_fill_rules)
{
    tsr_tensor *x = tsr_zeros(1, L(3), TSR_INT8, TSR_CPU), *v = ar(1, L(2), TSR_INT8);
    tsr_tensor *s = tsr_full(0, NULL, tsr_scalar_int(7), TSR_INT64, TSR_CPU);
    tsr_error_clear();
    CHECK_EQ_INT(tsr_fill_tensor_(x, v), -1);
    CHECK_STR(tsr_error_message(), "fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.");
    tsr_error_clear();
    CHECK_EQ_INT(tsr_fill_tensor_(x, s), 0);
    CHECK_EQ_INT(tsr_tensor_get_int64_at(x, 2), 7);
    CHECK_EQ_INT(tsr_fill_checked_(x, tsr_scalar_int(1000)), -1);
    CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_RUNTIME);
    tsr_error_clear();
    CHECK_EQ_INT(tsr_fill_checked_(x, tsr_scalar_int(-5)), 0);
    CHECK_EQ_INT(tsr_tensor_get_int64_at(x, 0), -5);
    tsr_tensor *h = tsr_to_dtype_format(x, TSR_INT8, TSR_MF_PRESERVE);
    CHECK(h == x);
    tsr_tensor *f = tsr_to_dtype_format(x, TSR_FLOAT32, TSR_MF_CONTIGUOUS);
    CHECK(f && f->dtype == TSR_FLOAT32 && tsr_tensor_get_double_at(f, 1) == -5);
    tsr_tensor *all[] = {x, v, s, h, f};
    for (size_t q = 0; q < sizeof all / sizeof all[0]; q++) tsr_tensor_release(all[q]);
}
