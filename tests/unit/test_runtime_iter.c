/* tests/unit/test_runtime_iter.c — the elementwise engine and its kernels:
 * output strides of TensorIterator (SEMANTICS §4.4 examples), broadcasting
 * and overlap messages, out= resize, in-place checks, casting buffers and
 * threads, and the numerics of every unary/binary op on every dtype against
 * values pasted from torch 1.13 (exact, except a few ulps where tsr's libm
 * and 1.13's kernels still differ: listed in ulp_ok()). */
#include <math.h>
#include <complex.h>
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "tsr.h"

#define L(...) ((const int64_t[]){__VA_ARGS__})

static tsr_tensor *empty_strided(int nd, const int64_t *sizes, const int64_t *strides)
{
    return tsr_tensor_empty_strided(nd, sizes, strides, TSR_FLOAT32, TSR_CPU);
}

static int strides_are(const tsr_tensor *t, int nd, const int64_t *want)
{
    if (t->ndim != nd) return 0;
    for (int d = 0; d < nd; d++)
        if (t->strides[d] != want[d]) return 0;
    return 1;
}

static tsr_tensor *add2(const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    return tsr_binary(TSR_BINOP_ADD, &x, &y, NULL, NULL);
}

static tsr_tensor *add_scalar(const tsr_tensor *a, double v)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_scalar(tsr_scalar_float(v));
    return tsr_binary(TSR_BINOP_ADD, &x, &y, NULL, NULL);
}

TEST(iter_output_strides)
{
    tsr_tensor *cl = tsr_tensor_empty_format(4, L(2, 3, 4, 5), TSR_FLOAT32, TSR_CPU, TSR_MF_CHANNELS_LAST);
    tsr_tensor *c = tsr_tensor_empty(4, L(2, 3, 4, 5), TSR_FLOAT32, TSR_CPU);
    tsr_tensor *r = add_scalar(cl, 1);
    CHECK(strides_are(r, 4, L(60, 1, 15, 3)));
    tsr_tensor_release(r);
    r = tsr_unary(TSR_UNOP_ABS, cl, NULL, NULL);
    CHECK(strides_are(r, 4, L(60, 1, 15, 3)));
    tsr_tensor_release(r);
    r = add2(cl, c);                           /* first operand wins ties */
    CHECK(strides_are(r, 4, L(60, 1, 15, 3)));
    tsr_tensor_release(r);
    r = add2(c, cl);
    CHECK(strides_are(r, 4, L(60, 20, 5, 1)));
    tsr_tensor_release(r);
    tsr_tensor *ones5 = tsr_ones(1, L(5), TSR_FLOAT32, TSR_CPU);
    r = add2(cl, ones5);                       /* broadcast operand */
    CHECK(strides_are(r, 4, L(60, 1, 15, 3)));
    tsr_tensor_release(r);
    tsr_tensor *t = empty_strided(2, L(3, 4), L(1, 3));    /* empty(4,3).t() */
    tsr_tensor *u = tsr_tensor_empty(2, L(3, 4), TSR_FLOAT32, TSR_CPU);
    r = add2(t, u);
    CHECK(strides_are(r, 2, L(1, 3)));
    tsr_tensor_release(r);
    r = add2(u, t);
    CHECK(strides_are(r, 2, L(4, 1)));
    tsr_tensor_release(r);
    tsr_tensor *p = empty_strided(3, L(4, 2, 3), L(1, 12, 4));
    r = add_scalar(p, 1);
    CHECK(strides_are(r, 3, L(1, 12, 4)));
    tsr_tensor_release(r);
    tsr_tensor *nar = empty_strided(2, L(4, 3), L(6, 2));   /* empty(4,6)[:, ::2] */
    r = add_scalar(nar, 1);
    CHECK(strides_are(r, 2, L(3, 1)));
    tsr_tensor_release(r);
    tsr_tensor *amb = empty_strided(4, L(4, 3, 1, 1), L(3, 1, 3, 3));
    r = add_scalar(amb, 1);
    CHECK(strides_are(r, 4, L(3, 1, 3, 3)));
    tsr_tensor_release(r);
    r = tsr_unary(TSR_UNOP_NEG, amb, NULL, NULL);
    CHECK(strides_are(r, 4, L(3, 1, 1, 1)));
    tsr_tensor_release(r);
    tsr_tensor *amb2 = empty_strided(4, L(4, 1, 3, 3), L(9, 1, 3, 1));
    r = add_scalar(amb2, 1);
    CHECK(strides_are(r, 4, L(9, 1, 3, 1)));
    tsr_tensor_release(r);
    r = tsr_unary(TSR_UNOP_NEG, amb2, NULL, NULL);
    CHECK(strides_are(r, 4, L(9, 9, 3, 1)));
    tsr_tensor_release(r);
    /* meta: shapes, dtypes and strides only */
    tsr_tensor *m = tsr_tensor_empty_format(4, L(2, 3, 4, 5), TSR_INT32, TSR_META, TSR_MF_CHANNELS_LAST);
    r = add_scalar(m, 1.5);
    CHECK(r && tsr_tensor_is_meta(r) && r->dtype == TSR_FLOAT32 && strides_are(r, 4, L(60, 1, 15, 3)));
    tsr_tensor_release(r);
    tsr_tensor *cpu = tsr_ones(1, L(5), TSR_FLOAT32, TSR_CPU);
    tsr_error_clear();
    CHECK(add2(m, cpu) == NULL);
    CHECK_STR(tsr_error_message(), "Expected all tensors to be on the same device, but found at least two devices, meta and cpu!");
    tsr_error_clear();
    tsr_tensor *zero = tsr_ones(0, NULL, TSR_FLOAT64, TSR_CPU);   /* a zero-dim cpu tensor may join */
    r = add2(m, zero);
    CHECK(r && tsr_tensor_is_meta(r));
    tsr_tensor_release(r);
    tsr_tensor *list[] = {cl, c, ones5, t, u, p, nar, amb, amb2, m, cpu, zero};
    for (size_t k = 0; k < sizeof list / sizeof list[0]; k++) tsr_tensor_release(list[k]);
}

TEST(iter_broadcast_and_overlap)
{
    tsr_tensor *a = tsr_ones(1, L(2), TSR_FLOAT32, TSR_CPU), *b = tsr_ones(1, L(3), TSR_FLOAT32, TSR_CPU);
    tsr_error_clear();
    CHECK(add2(a, b) == NULL);
    CHECK_STR(tsr_error_message(), "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0");
    tsr_error_clear();
    /* in-place: the broadcast shape must be self's */
    tsr_tensor *big = tsr_ones(2, L(3, 2), TSR_FLOAT32, TSR_CPU);
    tsr_operand ob = tsr_operand_tensor(big);
    CHECK(tsr_binary_(TSR_BINOP_ADD, a, &ob, NULL) == NULL);
    CHECK_STR(tsr_error_message(), "output with shape [2] doesn't match the broadcast shape [3, 2]");
    tsr_error_clear();
    /* written-to tensor with a stride-0 dim */
    tsr_tensor *x = tsr_ones(1, L(1), TSR_FLOAT32, TSR_CPU);
    tsr_tensor *ex = tsr_view_expand(x, 1, L(3));
    tsr_operand one = tsr_operand_scalar(tsr_scalar_int(1));
    CHECK(tsr_binary_(TSR_BINOP_ADD, ex, &one, NULL) == NULL);
    CHECK_STR(tsr_error_message(), "unsupported operation: more than one element of the written-to tensor refers to a "
              "single memory location. Please clone() the tensor before performing the operation.");
    tsr_error_clear();
    /* partial overlap of out= and an input */
    tsr_tensor *four = tsr_ones(1, L(4), TSR_FLOAT32, TSR_CPU);
    tsr_tensor *lo = tsr_view_narrow(four, 0, 0, 3), *hi = tsr_view_narrow(four, 0, 1, 3);
    tsr_operand olo = tsr_operand_tensor(lo);
    CHECK(tsr_binary(TSR_BINOP_ADD, &olo, &olo, hi, NULL) == NULL);
    CHECK_STR(tsr_error_message(), "unsupported operation: some elements of the input tensor and the written-to tensor "
              "refer to a single memory location. Please clone() the tensor before performing the operation.");
    tsr_error_clear();
    /* dtype checks */
    tsr_tensor *i32 = tsr_ones(1, L(2), TSR_INT32, TSR_CPU);
    tsr_operand half = tsr_operand_scalar(tsr_scalar_float(1.5));
    CHECK(tsr_binary_(TSR_BINOP_ADD, i32, &half, NULL) == NULL);
    CHECK_STR(tsr_error_message(), "result type Float can't be cast to the desired output type Int");
    tsr_error_clear();
    CHECK(tsr_unary(TSR_UNOP_NEG, i32, a, NULL) == NULL);
    CHECK_STR(tsr_error_message(), "Found dtype Float but expected Int");
    tsr_error_clear();
    /* out= resize with PyTorch's warning; a 0-element out= is resized silently */
    tsr_tensor *o = tsr_ones(1, L(2), TSR_FLOAT32, TSR_CPU);
    tsr_operand ob3 = tsr_operand_tensor(b);
    tsr_warning_take();
    tsr_tensor *r = tsr_binary(TSR_BINOP_ADD, &ob3, &ob3, o, NULL);
    CHECK(r == o && o->ndim == 1 && o->sizes[0] == 3 && tsr_tensor_get_double_at(o, 2) == 2);
    const char *w = tsr_warning_take();
    CHECK(w && strncmp(w, "An output with one or more elements was resized since it had shape [2], which does not "
                       "match the required output shape [3].", 112) == 0);
    tsr_tensor_release(r);
    tsr_tensor *e = tsr_tensor_empty(1, L(0), TSR_FLOAT32, TSR_CPU);
    r = tsr_binary(TSR_BINOP_ADD, &ob, &ob, e, NULL);
    CHECK(r == e && e->ndim == 2 && e->sizes[0] == 3 && e->sizes[1] == 2 && tsr_warning_take() == NULL);
    tsr_tensor_release(r);
    /* comparison: any out dtype receives the bool result */
    tsr_tensor *of = tsr_tensor_empty(1, L(3), TSR_FLOAT16, TSR_CPU);
    r = tsr_compare(TSR_CMP_EQ, &ob3, &one, of);
    CHECK(r == of && tsr_tensor_get_double_at(of, 0) == 1);
    tsr_tensor_release(r);
    /* u8 += i32 computes in int32 and casts back */
    tsr_tensor *u8 = tsr_full(1, L(2), tsr_scalar_int(250), TSR_UINT8, TSR_CPU);
    tsr_tensor *ten = tsr_full(1, L(2), tsr_scalar_int(10), TSR_INT32, TSR_CPU);
    tsr_operand oten = tsr_operand_tensor(ten);
    r = tsr_binary_(TSR_BINOP_ADD, u8, &oten, NULL);
    CHECK(r == u8 && tsr_tensor_get_int64_at(u8, 0) == 4);
    tsr_tensor_release(r);
    /* integer division by zero */
    tsr_operand zero = tsr_operand_scalar(tsr_scalar_int(0)), oi = tsr_operand_tensor(i32);
    CHECK(tsr_binary(TSR_BINOP_DIV_FLOOR, &oi, &zero, NULL, NULL) == NULL);
    CHECK_STR(tsr_error_message(), "ZeroDivisionError");
    tsr_error_clear();
    tsr_operand m1 = tsr_operand_scalar(tsr_scalar_int(-1));
    CHECK(tsr_binary(TSR_BINOP_POW, &oi, &m1, NULL, NULL) == NULL);
    CHECK_STR(tsr_error_message(), "Integers to negative integer powers are not allowed.");
    tsr_error_clear();
    tsr_tensor *list[] = {a, b, big, x, ex, four, lo, hi, i32, o, e, of, u8, ten};
    for (size_t k = 0; k < sizeof list / sizeof list[0]; k++) tsr_tensor_release(list[k]);
}

TEST(iter_threads_and_casts)
{
    int saved = tsr_get_num_threads();
    CHECK(saved >= 1);
    tsr_error_clear();
    CHECK_EQ_INT(tsr_set_num_threads(0), -1);
    CHECK_STR(tsr_error_message(), "set_num_threads expects a positive integer");
    tsr_error_clear();
    int64_t n = 1000003;
    tsr_tensor *a = tsr_arange(tsr_scalar_int(0), tsr_scalar_int(n), tsr_scalar_int(1), TSR_FLOAT32, TSR_CPU);
    tsr_tensor *b = tsr_arange(tsr_scalar_int(0), tsr_scalar_int(n), tsr_scalar_int(1), TSR_INT64, TSR_CPU);
    for (int th = 1; th <= 4; th *= 2) {
        tsr_set_num_threads(th);
        tsr_tensor *r = add2(a, b);                       /* int64 input cast in chunks */
        CHECK(r && r->dtype == TSR_FLOAT32);
        int bad = 0;
        for (int64_t k = 0; k < n; k += 997) bad += tsr_tensor_get_double_at(r, k) != (double)(float)(2.0f * k);
        CHECK_EQ_INT(bad, 0);
        tsr_tensor_release(r);
    }
    /* transposed int64 → float32 against a contiguous reference */
    tsr_tensor *m = tsr_arange(tsr_scalar_int(0), tsr_scalar_int(600 * 500), tsr_scalar_int(1), TSR_INT64, TSR_CPU);
    tsr_tensor *mv = tsr_view_view(m, 2, L(600, 500));
    tsr_tensor *mt = tsr_view_t(mv);
    tsr_tensor *r = add_scalar(mt, 0.5);
    CHECK(r && strides_are(r, 2, L(1, 500)));
    CHECK(tsr_tensor_get_double_at(r, 1) == 500.5);
    tsr_tensor_release(r);
    tsr_set_num_threads(saved);
    tsr_tensor *list[] = {a, b, m, mv, mt};
    for (size_t k = 0; k < sizeof list / sizeof list[0]; k++) tsr_tensor_release(list[k]);
}

/* ------------------------------------------------------------- numerics */

typedef struct {
    const char *op;
    int arity;
    tsr_dtype in, out;
    const char *err;
    double v[16];       /* 8 values as (re, im) pairs */
} num_case;

static const num_case cases[] = {
    {"add", 2, TSR_UINT8, TSR_UINT8, NULL, {251, 0, 251, 0, 0, 0, 255, 0, 4, 0, 1, 0, 1, 0, 103, 0}},
    {"add", 2, TSR_INT8, TSR_INT8, NULL, {-5, 0, -5, 0, 0, 0, -1, 0, 4, 0, 1, 0, 1, 0, 103, 0}},
    {"add", 2, TSR_INT16, TSR_INT16, NULL, {-5, 0, -5, 0, 0, 0, -1, 0, 4, 0, 1, 0, 1, 0, 103, 0}},
    {"add", 2, TSR_INT32, TSR_INT32, NULL, {-5, 0, -5, 0, 0, 0, -1, 0, 4, 0, 1, 0, 1, 0, 103, 0}},
    {"add", 2, TSR_INT64, TSR_INT64, NULL, {-5, 0, -5, 0, 0, 0, -1, 0, 4, 0, 1, 0, 1, 0, 103, 0}},
    {"add", 2, TSR_FLOAT16, TSR_FLOAT16, NULL, {-5.5, 0, -5, 0, 0.25, 0, -1.5, 0, 4.25, 0, 1.5, 0, 1, 0, 103.9375, 0}},
    {"add", 2, TSR_FLOAT32, TSR_FLOAT32, NULL, {-5.5, 0, -5, 0, 0.25, 0, -1.5, 0, 4.25, 0, 1.5, 0, 1, 0, 103.94999694824219, 0}},
    {"add", 2, TSR_FLOAT64, TSR_FLOAT64, NULL, {-5.5, 0, -5, 0, 0.25, 0, -1.5, 0, 4.25, 0, 1.5, 0, 1, 0, 103.95, 0}},
    {"add", 2, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {-5.5, -5.5, -5, -5, 0.25, 0.25, -1.5, -1.5, 4.25, 4.25, 1.5, 1.5, 1, 1, 103.94999694824219, 103.94999694824219}},
    {"add", 2, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {-5.5, -5.5, -5, -5, 0.25, 0.25, -1.5, -1.5, 4.25, 4.25, 1.5, 1.5, 1, 1, 103.95, 103.95}},
    {"add", 2, TSR_BOOL, TSR_BOOL, NULL, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
    {"add", 2, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-5.5, 0, -5, 0, 0.25, 0, -1.5, 0, 4.25, 0, 1.5, 0, 1, 0, 104, 0}},
    {"sub", 2, TSR_UINT8, TSR_UINT8, NULL, {247, 0, 1, 0, 0, 0, 1, 0, 252, 0, 1, 0, 5, 0, 97, 0}},
    {"sub", 2, TSR_INT8, TSR_INT8, NULL, {-9, 0, 1, 0, 0, 0, 1, 0, -4, 0, 1, 0, 5, 0, 97, 0}},
    {"sub", 2, TSR_INT16, TSR_INT16, NULL, {-9, 0, 1, 0, 0, 0, 1, 0, -4, 0, 1, 0, 5, 0, 97, 0}},
    {"sub", 2, TSR_INT32, TSR_INT32, NULL, {-9, 0, 1, 0, 0, 0, 1, 0, -4, 0, 1, 0, 5, 0, 97, 0}},
    {"sub", 2, TSR_INT64, TSR_INT64, NULL, {-9, 0, 1, 0, 0, 0, 1, 0, -4, 0, 1, 0, 5, 0, 97, 0}},
    {"sub", 2, TSR_FLOAT16, TSR_FLOAT16, NULL, {-9.5, 0, 1, 0, -1.25, 0, 1.5, 0, -3.75, 0, 0.5, 0, 5, 0, 97.4375, 0}},
    {"sub", 2, TSR_FLOAT32, TSR_FLOAT32, NULL, {-9.5, 0, 1, 0, -1.25, 0, 1.5, 0, -3.75, 0, 0.5, 0, 5, 0, 97.449996948242188, 0}},
    {"sub", 2, TSR_FLOAT64, TSR_FLOAT64, NULL, {-9.5, 0, 1, 0, -1.25, 0, 1.5, 0, -3.75, 0, 0.5, 0, 5, 0, 97.450000000000003, 0}},
    {"sub", 2, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {-9.5, 9.5, 1, -1, -1.25, 1.25, 1.5, -1.5, -3.75, 3.75, 0.5, -0.5, 5, -5, 97.449996948242188, -97.449996948242188}},
    {"sub", 2, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {-9.5, 9.5, 1, -1, -1.25, 1.25, 1.5, -1.5, -3.75, 3.75, 0.5, -0.5, 5, -5, 97.450000000000003, -97.450000000000003}},
    {"sub", 2, TSR_BOOL, TSR_DTYPE_UNDEFINED, "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.", {0}},
    {"sub", 2, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-9.5, 0, 1, 0, -1.25, 0, 1.5, 0, -3.75, 0, 0.5, 0, 5, 0, 97, 0}},
    {"mul", 2, TSR_UINT8, TSR_UINT8, NULL, {242, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 250, 0, 44, 0}},
    {"mul", 2, TSR_INT8, TSR_INT8, NULL, {-14, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, -6, 0, 44, 0}},
    {"mul", 2, TSR_INT16, TSR_INT16, NULL, {-14, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, -6, 0, 300, 0}},
    {"mul", 2, TSR_INT32, TSR_INT32, NULL, {-14, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, -6, 0, 300, 0}},
    {"mul", 2, TSR_INT64, TSR_INT64, NULL, {-14, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, -6, 0, 300, 0}},
    {"mul", 2, TSR_FLOAT16, TSR_FLOAT16, NULL, {-15, 0, 6, 0, -0.375, 0, -0, 0, 1, 0, 0.5, 0, -6, 0, 327.25, 0}},
    {"mul", 2, TSR_FLOAT32, TSR_FLOAT32, NULL, {-15, 0, 6, 0, -0.375, 0, -0, 0, 1, 0, 0.5, 0, -6, 0, 327.27499389648438, 0}},
    {"mul", 2, TSR_FLOAT64, TSR_FLOAT64, NULL, {-15, 0, 6, 0, -0.375, 0, -0, 0, 1, 0, 0.5, 0, -6, 0, 327.27500000000003, 0}},
    {"mul", 2, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {0, 60.25, 0, 13, 0, 0.8125, 0, 2.25, 0, 16.0625, 0, 1.25, 0, 13, 0, 10151.0517578125}},
    {"mul", 2, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {0, 60.25, 0, 13, 0, 0.8125, 0, 2.25, 0, 16.0625, 0, 1.25, 0, 13, 0, 10151.0525}},
    {"mul", 2, TSR_BOOL, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0}},
    {"mul", 2, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-15, 0, 6, 0, -0.375, 0, -0, 0, 1, 0, 0.5, 0, -6, 0, 326, 0}},
    {"div", 2, TSR_UINT8, TSR_FLOAT32, NULL, {124.5, 0, 1.0039526224136353, 0, NAN, 0, 0, 0, 0, 0, INFINITY, 0, 0.011811023578047752, 0, 33.333332061767578, 0}},
    {"div", 2, TSR_INT8, TSR_FLOAT32, NULL, {-3.5, 0, 0.66666668653488159, 0, NAN, 0, -0, 0, 0, 0, INFINITY, 0, -1.5, 0, 33.333332061767578, 0}},
    {"div", 2, TSR_INT16, TSR_FLOAT32, NULL, {-3.5, 0, 0.66666668653488159, 0, NAN, 0, -0, 0, 0, 0, INFINITY, 0, -1.5, 0, 33.333332061767578, 0}},
    {"div", 2, TSR_INT32, TSR_FLOAT32, NULL, {-3.5, 0, 0.66666668653488159, 0, NAN, 0, -0, 0, 0, 0, INFINITY, 0, -1.5, 0, 33.333332061767578, 0}},
    {"div", 2, TSR_INT64, TSR_FLOAT32, NULL, {-3.5, 0, 0.66666668653488159, 0, NAN, 0, -0, 0, 0, 0, INFINITY, 0, -1.5, 0, 33.333332061767578, 0}},
    {"div", 2, TSR_FLOAT16, TSR_FLOAT16, NULL, {-3.75, 0, 0.66650390625, 0, -0.66650390625, 0, -0, 0, 0.0625, 0, 2, 0, -1.5, 0, 30.984375, 0}},
    {"div", 2, TSR_FLOAT32, TSR_FLOAT32, NULL, {-3.75, 0, 0.66666668653488159, 0, -0.66666668653488159, 0, -0, 0, 0.0625, 0, 2, 0, -1.5, 0, 30.984615325927734, 0}},
    {"div", 2, TSR_FLOAT64, TSR_FLOAT64, NULL, {-3.75, 0, 0.66666666666666663, 0, -0.66666666666666663, 0, -0, 0, 0.0625, 0, 2, 0, -1.5, 0, 30.984615384615385, 0}},
    {"div", 2, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {-0.49792531132698059, -0.86721992492675781, 0.92307692766189575, 0.38461539149284363, -0.92307692766189575, 0.38461539149284363, -0, 1, 0.12451361864805222, 0.99221789836883545, 0.80000001192092896, -0.60000002384185791, -0.92307692766189575, -0.38461539149284363, 0.064481005072593689, -0.99791896343231201}},
    {"div", 2, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {-0.49792531120331951, -0.86721991701244816, 0.92307692307692313, 0.38461538461538464, -0.92307692307692313, 0.38461538461538464, -0, 1, 0.1245136186770428, 0.99221789883268485, 0.80000000000000004, -0.59999999999999998, -0.92307692307692313, -0.38461538461538464, 0.064480998398934508, -0.9979189350069857}},
    {"div", 2, TSR_BOOL, TSR_FLOAT32, NULL, {0, 0, NAN, 0, 0, 0, NAN, 0, 0, 0, INFINITY, 0, INFINITY, 0, 1, 0}},
    {"div", 2, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-3.75, 0, 0.66796875, 0, -0.66796875, 0, -0, 0, 0.0625, 0, 2, 0, -1.5, 0, 30.875, 0}},
    {"div_trunc", 2, TSR_UINT8, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"div_trunc", 2, TSR_INT8, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"div_trunc", 2, TSR_INT16, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"div_trunc", 2, TSR_INT32, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"div_trunc", 2, TSR_INT64, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"div_trunc", 2, TSR_FLOAT16, TSR_FLOAT16, NULL, {-3, 0, 0, 0, -0, 0, -0, 0, 0, 0, 2, 0, -1, 0, 30, 0}},
    {"div_trunc", 2, TSR_FLOAT32, TSR_FLOAT32, NULL, {-3, 0, 0, 0, -0, 0, -0, 0, 0, 0, 2, 0, -1, 0, 30, 0}},
    {"div_trunc", 2, TSR_FLOAT64, TSR_FLOAT64, NULL, {-3, 0, 0, 0, -0, 0, -0, 0, 0, 0, 2, 0, -1, 0, 30, 0}},
    {"div_trunc", 2, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"div_trunc_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"div_trunc", 2, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"div_trunc_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"div_trunc", 2, TSR_BOOL, TSR_DTYPE_UNDEFINED, "\"div_trunc_cpu\" not implemented for 'Bool'", {0}},
    {"div_trunc", 2, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-3, 0, 0, 0, -0, 0, -0, 0, 0, 0, 2, 0, -1, 0, 30, 0}},
    {"div_floor", 2, TSR_UINT8, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"div_floor", 2, TSR_INT8, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"div_floor", 2, TSR_INT16, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"div_floor", 2, TSR_INT32, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"div_floor", 2, TSR_INT64, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"div_floor", 2, TSR_FLOAT16, TSR_FLOAT16, NULL, {-4, 0, 0, 0, -1, 0, -0, 0, 0, 0, 2, 0, -2, 0, 30, 0}},
    {"div_floor", 2, TSR_FLOAT32, TSR_FLOAT32, NULL, {-4, 0, 0, 0, -1, 0, -0, 0, 0, 0, 2, 0, -2, 0, 30, 0}},
    {"div_floor", 2, TSR_FLOAT64, TSR_FLOAT64, NULL, {-4, 0, 0, 0, -1, 0, -0, 0, 0, 0, 2, 0, -2, 0, 30, 0}},
    {"div_floor", 2, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"div_floor_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"div_floor", 2, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"div_floor_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"div_floor", 2, TSR_BOOL, TSR_DTYPE_UNDEFINED, "\"div_floor_cpu\" not implemented for 'Bool'", {0}},
    {"div_floor", 2, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-4, 0, 0, 0, -1, 0, -0, 0, 0, 0, 2, 0, -2, 0, 30, 0}},
    {"remainder", 2, TSR_UINT8, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"remainder", 2, TSR_INT8, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"remainder", 2, TSR_INT16, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"remainder", 2, TSR_INT32, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"remainder", 2, TSR_INT64, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"remainder", 2, TSR_FLOAT16, TSR_FLOAT16, NULL, {0.5, 0, -2, 0, 0.25, 0, 0, 0, 0.25, 0, 0, 0, -1, 0, 3.1875, 0}},
    {"remainder", 2, TSR_FLOAT32, TSR_FLOAT32, NULL, {0.5, 0, -2, 0, 0.25, 0, 0, 0, 0.25, 0, 0, 0, -1, 0, 3.1999969482421875, 0}},
    {"remainder", 2, TSR_FLOAT64, TSR_FLOAT64, NULL, {0.5, 0, -2, 0, 0.25, 0, 0, 0, 0.25, 0, 0, 0, -1, 0, 3.2000000000000028, 0}},
    {"remainder", 2, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"remainder_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"remainder", 2, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"remainder_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"remainder", 2, TSR_BOOL, TSR_DTYPE_UNDEFINED, "\"remainder_cpu\" not implemented for 'Bool'", {0}},
    {"remainder", 2, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {0.5, 0, -2, 0, 0.25, 0, 0, 0, 0.25, 0, 0, 0, -1, 0, 3, 0}},
    {"fmod", 2, TSR_UINT8, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"fmod", 2, TSR_INT8, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"fmod", 2, TSR_INT16, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"fmod", 2, TSR_INT32, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"fmod", 2, TSR_INT64, TSR_DTYPE_UNDEFINED, "ZeroDivisionError", {0}},
    {"fmod", 2, TSR_FLOAT16, TSR_FLOAT16, NULL, {-1.5, 0, -2, 0, -0.5, 0, 0, 0, 0.25, 0, 0, 0, 1, 0, 3.1875, 0}},
    {"fmod", 2, TSR_FLOAT32, TSR_FLOAT32, NULL, {-1.5, 0, -2, 0, -0.5, 0, 0, 0, 0.25, 0, 0, 0, 1, 0, 3.1999969482421875, 0}},
    {"fmod", 2, TSR_FLOAT64, TSR_FLOAT64, NULL, {-1.5, 0, -2, 0, -0.5, 0, 0, 0, 0.25, 0, 0, 0, 1, 0, 3.2000000000000028, 0}},
    {"fmod", 2, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"fmod_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"fmod", 2, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"fmod_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"fmod", 2, TSR_BOOL, TSR_DTYPE_UNDEFINED, "\"fmod_cpu\" not implemented for 'Bool'", {0}},
    {"fmod", 2, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-1.5, 0, -2, 0, -0.5, 0, 0, 0, 0.25, 0, 0, 0, 1, 0, 3, 0}},
    {"pow", 2, TSR_UINT8, TSR_UINT8, NULL, {49, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 57, 0, 64, 0}},
    {"pow", 2, TSR_INT8, TSR_INT8, NULL, {49, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 64, 0}},
    {"pow", 2, TSR_INT16, TSR_INT16, NULL, {49, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 16960, 0}},
    {"pow", 2, TSR_INT32, TSR_INT32, NULL, {49, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1000000, 0}},
    {"pow", 2, TSR_INT64, TSR_INT64, NULL, {49, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1000000, 0}},
    {"pow", 2, TSR_FLOAT16, TSR_FLOAT16, NULL, {56.25, 0, -0.125, 0, NAN, 0, INFINITY, 0, 0.00390625, 0, 1, 0, 0.111083984375, 0, INFINITY, 0}},
    {"pow", 2, TSR_FLOAT32, TSR_FLOAT32, NULL, {56.25, 0, -0.125, 0, NAN, 0, INFINITY, 0, 0.00390625, 0, 1, 0, 0.1111111119389534, 0, 3234787.25, 0}},
    {"pow", 2, TSR_FLOAT64, TSR_FLOAT64, NULL, {56.25, 0, -0.125, 0, NAN, 0, INFINITY, 0, 0.00390625, 0, 1, 0, 0.1111111111111111, 0, 3234787.6718800422, 0}},
    {"pow", 2, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {-143436873728, 26490578944, -0.00020422441593836993, -0.00019797234563156962, -0.27236810326576233, 2.7087979316711426, -0.38490018248558044, 0.38490018248558044, 176.1138916015625, 17.205465316772461, 0.62624186277389526, 0.22392028570175171, 0.13738739490509033, -0.42736566066741943, 117919.9453125, -43767.3828125}},
    {"pow", 2, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {-143436726946.94678, 26490461917.595364, -0.00020422438638691823, -0.00019797238427375153, -0.27236836319541979, 2.7087979686815116, -0.38490017945975047, 0.38490017945975052, 176.11388264300214, 17.205396526783652, 0.62624190759742904, 0.22392028112971765, 0.13738732934006698, -0.4273656600910955, 117921.9393491589, -43762.32452770284}},
    {"pow", 2, TSR_BOOL, TSR_DTYPE_UNDEFINED, "\"pow\" not implemented for 'Bool'", {0}},
    {"pow", 2, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {56.25, 0, -0.125, 0, NAN, 0, INFINITY, 0, 0.00390625, 0, 1, 0, 0.111328125, 0, 3211264, 0}},
    {"atan2", 2, TSR_UINT8, TSR_FLOAT32, NULL, {1.5627644062042236, 0, 0.78737056255340576, 0, 0, 0, 0, 0, 0, 0, 1.5707963705062866, 0, 0.011810474097728729, 0, 1.5408053398132324, 0}},
    {"atan2", 2, TSR_INT8, TSR_FLOAT32, NULL, {-1.2924966812133789, 0, -2.5535900592803955, 0, 0, 0, 3.1415927410125732, 0, 0, 0, 1.5707963705062866, 0, 2.1587989330291748, 0, 1.5408053398132324, 0}},
    {"atan2", 2, TSR_INT16, TSR_FLOAT32, NULL, {-1.2924966812133789, 0, -2.5535900592803955, 0, 0, 0, 3.1415927410125732, 0, 0, 0, 1.5707963705062866, 0, 2.1587989330291748, 0, 1.5408053398132324, 0}},
    {"atan2", 2, TSR_INT32, TSR_FLOAT32, NULL, {-1.2924966812133789, 0, -2.5535900592803955, 0, 0, 0, 3.1415927410125732, 0, 0, 0, 1.5707963705062866, 0, 2.1587989330291748, 0, 1.5408053398132324, 0}},
    {"atan2", 2, TSR_INT64, TSR_FLOAT32, NULL, {-1.2924966812133789, 0, -2.5535900592803955, 0, 0, 0, 3.1415927410125732, 0, 0, 0, 1.5707963705062866, 0, 2.1587989330291748, 0, 1.5408053398132324, 0}},
    {"atan2", 2, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"atan2_cpu\" not implemented for 'Half'", {0}},
    {"atan2", 2, TSR_FLOAT32, TSR_FLOAT32, NULL, {-1.3101938962936401, 0, -2.5535900592803955, 0, -0.58800262212753296, 0, 3.1415927410125732, 0, 0.062418811023235321, 0, 1.1071487665176392, 0, 2.1587989330291748, 0, 1.5385334491729736, 0}},
    {"atan2", 2, TSR_FLOAT64, TSR_FLOAT64, NULL, {-1.3101939350475555, 0, -2.5535900500422257, 0, -0.5880026035475675, 0, 3.1415926535897931, 0, 0.06241880999595735, 0, 1.1071487177940904, 0, 2.1587989303424644, 0, 1.53853344410364, 0}},
    {"atan2", 2, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"atan2_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"atan2", 2, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"atan2_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"atan2", 2, TSR_BOOL, TSR_FLOAT32, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.5707963705062866, 0, 1.5707963705062866, 0, 0.78539818525314331, 0}},
    {"atan2", 2, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-1.3125, 0, -2.546875, 0, -0.58984375, 0, 3.140625, 0, 0.0625, 0, 1.109375, 0, 2.15625, 0, 1.5390625, 0}},
    {"hypot", 2, TSR_UINT8, TSR_DTYPE_UNDEFINED, "\"hypot_cpu\" not implemented for 'Byte'", {0}},
    {"hypot", 2, TSR_INT8, TSR_DTYPE_UNDEFINED, "\"hypot_cpu\" not implemented for 'Char'", {0}},
    {"hypot", 2, TSR_INT16, TSR_DTYPE_UNDEFINED, "\"hypot_cpu\" not implemented for 'Short'", {0}},
    {"hypot", 2, TSR_INT32, TSR_DTYPE_UNDEFINED, "\"hypot_cpu\" not implemented for 'Int'", {0}},
    {"hypot", 2, TSR_INT64, TSR_DTYPE_UNDEFINED, "\"hypot_cpu\" not implemented for 'Long'", {0}},
    {"hypot", 2, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"hypot_cpu\" not implemented for 'Half'", {0}},
    {"hypot", 2, TSR_FLOAT32, TSR_FLOAT32, NULL, {7.762087345123291, 0, 3.6055512428283691, 0, 0.90138781070709229, 0, 1.5, 0, 4.0078048706054688, 0, 1.1180340051651001, 0, 3.6055512428283691, 0, 100.75242614746094, 0}},
    {"hypot", 2, TSR_FLOAT64, TSR_FLOAT64, NULL, {7.7620873481300121, 0, 3.6055512754639891, 0, 0.90138781886599728, 0, 1.5, 0, 4.0078048854703496, 0, 1.1180339887498949, 0, 3.6055512754639891, 0, 100.75243173244009, 0}},
    {"hypot", 2, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"hypot_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"hypot", 2, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"hypot_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"hypot", 2, TSR_BOOL, TSR_DTYPE_UNDEFINED, "\"hypot_cpu\" not implemented for 'Bool'", {0}},
    {"hypot", 2, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {7.75, 0, 3.609375, 0, 0.90234375, 0, 1.5, 0, 4, 0, 1.1171875, 0, 3.609375, 0, 100.5, 0}},
    {"maximum", 2, TSR_UINT8, TSR_UINT8, NULL, {249, 0, 254, 0, 0, 0, 255, 0, 4, 0, 1, 0, 254, 0, 100, 0}},
    {"maximum", 2, TSR_INT8, TSR_INT8, NULL, {2, 0, -2, 0, 0, 0, 0, 0, 4, 0, 1, 0, 3, 0, 100, 0}},
    {"maximum", 2, TSR_INT16, TSR_INT16, NULL, {2, 0, -2, 0, 0, 0, 0, 0, 4, 0, 1, 0, 3, 0, 100, 0}},
    {"maximum", 2, TSR_INT32, TSR_INT32, NULL, {2, 0, -2, 0, 0, 0, 0, 0, 4, 0, 1, 0, 3, 0, 100, 0}},
    {"maximum", 2, TSR_INT64, TSR_INT64, NULL, {2, 0, -2, 0, 0, 0, 0, 0, 4, 0, 1, 0, 3, 0, 100, 0}},
    {"maximum", 2, TSR_FLOAT16, TSR_FLOAT16, NULL, {2, 0, -2, 0, 0.75, 0, 0, 0, 4, 0, 1, 0, 3, 0, 100.6875, 0}},
    {"maximum", 2, TSR_FLOAT32, TSR_FLOAT32, NULL, {2, 0, -2, 0, 0.75, 0, 0, 0, 4, 0, 1, 0, 3, 0, 100.69999694824219, 0}},
    {"maximum", 2, TSR_FLOAT64, TSR_FLOAT64, NULL, {2, 0, -2, 0, 0.75, 0, 0, 0, 4, 0, 1, 0, 3, 0, 100.7, 0}},
    {"maximum", 2, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "maximum not implemented for complex tensors.", {0}},
    {"maximum", 2, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "maximum not implemented for complex tensors.", {0}},
    {"maximum", 2, TSR_BOOL, TSR_BOOL, NULL, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
    {"maximum", 2, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {2, 0, -2, 0, 0.75, 0, 0, 0, 4, 0, 1, 0, 3, 0, 100.5, 0}},
    {"minimum", 2, TSR_UINT8, TSR_UINT8, NULL, {2, 0, 253, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 3, 0}},
    {"minimum", 2, TSR_INT8, TSR_INT8, NULL, {-7, 0, -3, 0, 0, 0, -1, 0, 0, 0, 0, 0, -2, 0, 3, 0}},
    {"minimum", 2, TSR_INT16, TSR_INT16, NULL, {-7, 0, -3, 0, 0, 0, -1, 0, 0, 0, 0, 0, -2, 0, 3, 0}},
    {"minimum", 2, TSR_INT32, TSR_INT32, NULL, {-7, 0, -3, 0, 0, 0, -1, 0, 0, 0, 0, 0, -2, 0, 3, 0}},
    {"minimum", 2, TSR_INT64, TSR_INT64, NULL, {-7, 0, -3, 0, 0, 0, -1, 0, 0, 0, 0, 0, -2, 0, 3, 0}},
    {"minimum", 2, TSR_FLOAT16, TSR_FLOAT16, NULL, {-7.5, 0, -3, 0, -0.5, 0, -1.5, 0, 0.25, 0, 0.5, 0, -2, 0, 3.25, 0}},
    {"minimum", 2, TSR_FLOAT32, TSR_FLOAT32, NULL, {-7.5, 0, -3, 0, -0.5, 0, -1.5, 0, 0.25, 0, 0.5, 0, -2, 0, 3.25, 0}},
    {"minimum", 2, TSR_FLOAT64, TSR_FLOAT64, NULL, {-7.5, 0, -3, 0, -0.5, 0, -1.5, 0, 0.25, 0, 0.5, 0, -2, 0, 3.25, 0}},
    {"minimum", 2, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "minimum not implemented for complex tensors.", {0}},
    {"minimum", 2, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "minimum not implemented for complex tensors.", {0}},
    {"minimum", 2, TSR_BOOL, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0}},
    {"minimum", 2, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-7.5, 0, -3, 0, -0.5, 0, -1.5, 0, 0.25, 0, 0.5, 0, -2, 0, 3.25, 0}},
    {"fmax", 2, TSR_UINT8, TSR_UINT8, NULL, {249, 0, 254, 0, 0, 0, 255, 0, 4, 0, 1, 0, 254, 0, 100, 0}},
    {"fmax", 2, TSR_INT8, TSR_INT8, NULL, {2, 0, -2, 0, 0, 0, 0, 0, 4, 0, 1, 0, 3, 0, 100, 0}},
    {"fmax", 2, TSR_INT16, TSR_INT16, NULL, {2, 0, -2, 0, 0, 0, 0, 0, 4, 0, 1, 0, 3, 0, 100, 0}},
    {"fmax", 2, TSR_INT32, TSR_INT32, NULL, {2, 0, -2, 0, 0, 0, 0, 0, 4, 0, 1, 0, 3, 0, 100, 0}},
    {"fmax", 2, TSR_INT64, TSR_INT64, NULL, {2, 0, -2, 0, 0, 0, 0, 0, 4, 0, 1, 0, 3, 0, 100, 0}},
    {"fmax", 2, TSR_FLOAT16, TSR_FLOAT16, NULL, {2, 0, -2, 0, 0.75, 0, 0, 0, 4, 0, 1, 0, 3, 0, 100.6875, 0}},
    {"fmax", 2, TSR_FLOAT32, TSR_FLOAT32, NULL, {2, 0, -2, 0, 0.75, 0, 0, 0, 4, 0, 1, 0, 3, 0, 100.69999694824219, 0}},
    {"fmax", 2, TSR_FLOAT64, TSR_FLOAT64, NULL, {2, 0, -2, 0, 0.75, 0, 0, 0, 4, 0, 1, 0, 3, 0, 100.7, 0}},
    {"fmax", 2, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "fmax not implemented for complex tensors.", {0}},
    {"fmax", 2, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "fmax not implemented for complex tensors.", {0}},
    {"fmax", 2, TSR_BOOL, TSR_BOOL, NULL, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
    {"fmax", 2, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {2, 0, -2, 0, 0.75, 0, 0, 0, 4, 0, 1, 0, 3, 0, 100.5, 0}},
    {"fmin", 2, TSR_UINT8, TSR_UINT8, NULL, {2, 0, 253, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 3, 0}},
    {"fmin", 2, TSR_INT8, TSR_INT8, NULL, {-7, 0, -3, 0, 0, 0, -1, 0, 0, 0, 0, 0, -2, 0, 3, 0}},
    {"fmin", 2, TSR_INT16, TSR_INT16, NULL, {-7, 0, -3, 0, 0, 0, -1, 0, 0, 0, 0, 0, -2, 0, 3, 0}},
    {"fmin", 2, TSR_INT32, TSR_INT32, NULL, {-7, 0, -3, 0, 0, 0, -1, 0, 0, 0, 0, 0, -2, 0, 3, 0}},
    {"fmin", 2, TSR_INT64, TSR_INT64, NULL, {-7, 0, -3, 0, 0, 0, -1, 0, 0, 0, 0, 0, -2, 0, 3, 0}},
    {"fmin", 2, TSR_FLOAT16, TSR_FLOAT16, NULL, {-7.5, 0, -3, 0, -0.5, 0, -1.5, 0, 0.25, 0, 0.5, 0, -2, 0, 3.25, 0}},
    {"fmin", 2, TSR_FLOAT32, TSR_FLOAT32, NULL, {-7.5, 0, -3, 0, -0.5, 0, -1.5, 0, 0.25, 0, 0.5, 0, -2, 0, 3.25, 0}},
    {"fmin", 2, TSR_FLOAT64, TSR_FLOAT64, NULL, {-7.5, 0, -3, 0, -0.5, 0, -1.5, 0, 0.25, 0, 0.5, 0, -2, 0, 3.25, 0}},
    {"fmin", 2, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "fmin not implemented for complex tensors.", {0}},
    {"fmin", 2, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "fmin not implemented for complex tensors.", {0}},
    {"fmin", 2, TSR_BOOL, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0}},
    {"fmin", 2, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-7.5, 0, -3, 0, -0.5, 0, -1.5, 0, 0.25, 0, 0.5, 0, -2, 0, 3.25, 0}},
    {"bitwise_and", 2, TSR_UINT8, TSR_UINT8, NULL, {0, 0, 252, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0}},
    {"bitwise_and", 2, TSR_INT8, TSR_INT8, NULL, {0, 0, -4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0}},
    {"bitwise_and", 2, TSR_INT16, TSR_INT16, NULL, {0, 0, -4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0}},
    {"bitwise_and", 2, TSR_INT32, TSR_INT32, NULL, {0, 0, -4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0}},
    {"bitwise_and", 2, TSR_INT64, TSR_INT64, NULL, {0, 0, -4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0}},
    {"bitwise_and", 2, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"bitwise_and_cpu\" not implemented for 'Half'", {0}},
    {"bitwise_and", 2, TSR_FLOAT32, TSR_DTYPE_UNDEFINED, "\"bitwise_and_cpu\" not implemented for 'Float'", {0}},
    {"bitwise_and", 2, TSR_FLOAT64, TSR_DTYPE_UNDEFINED, "\"bitwise_and_cpu\" not implemented for 'Double'", {0}},
    {"bitwise_and", 2, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"bitwise_and_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"bitwise_and", 2, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"bitwise_and_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"bitwise_and", 2, TSR_BOOL, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0}},
    {"bitwise_and", 2, TSR_BFLOAT16, TSR_DTYPE_UNDEFINED, "\"bitwise_and_cpu\" not implemented for 'BFloat16'", {0}},
    {"bitwise_or", 2, TSR_UINT8, TSR_UINT8, NULL, {251, 0, 255, 0, 0, 0, 255, 0, 4, 0, 1, 0, 255, 0, 103, 0}},
    {"bitwise_or", 2, TSR_INT8, TSR_INT8, NULL, {-5, 0, -1, 0, 0, 0, -1, 0, 4, 0, 1, 0, -1, 0, 103, 0}},
    {"bitwise_or", 2, TSR_INT16, TSR_INT16, NULL, {-5, 0, -1, 0, 0, 0, -1, 0, 4, 0, 1, 0, -1, 0, 103, 0}},
    {"bitwise_or", 2, TSR_INT32, TSR_INT32, NULL, {-5, 0, -1, 0, 0, 0, -1, 0, 4, 0, 1, 0, -1, 0, 103, 0}},
    {"bitwise_or", 2, TSR_INT64, TSR_INT64, NULL, {-5, 0, -1, 0, 0, 0, -1, 0, 4, 0, 1, 0, -1, 0, 103, 0}},
    {"bitwise_or", 2, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"bitwise_or_cpu\" not implemented for 'Half'", {0}},
    {"bitwise_or", 2, TSR_FLOAT32, TSR_DTYPE_UNDEFINED, "\"bitwise_or_cpu\" not implemented for 'Float'", {0}},
    {"bitwise_or", 2, TSR_FLOAT64, TSR_DTYPE_UNDEFINED, "\"bitwise_or_cpu\" not implemented for 'Double'", {0}},
    {"bitwise_or", 2, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"bitwise_or_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"bitwise_or", 2, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"bitwise_or_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"bitwise_or", 2, TSR_BOOL, TSR_BOOL, NULL, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
    {"bitwise_or", 2, TSR_BFLOAT16, TSR_DTYPE_UNDEFINED, "\"bitwise_or_cpu\" not implemented for 'BFloat16'", {0}},
    {"bitwise_xor", 2, TSR_UINT8, TSR_UINT8, NULL, {251, 0, 3, 0, 0, 0, 255, 0, 4, 0, 1, 0, 253, 0, 103, 0}},
    {"bitwise_xor", 2, TSR_INT8, TSR_INT8, NULL, {-5, 0, 3, 0, 0, 0, -1, 0, 4, 0, 1, 0, -3, 0, 103, 0}},
    {"bitwise_xor", 2, TSR_INT16, TSR_INT16, NULL, {-5, 0, 3, 0, 0, 0, -1, 0, 4, 0, 1, 0, -3, 0, 103, 0}},
    {"bitwise_xor", 2, TSR_INT32, TSR_INT32, NULL, {-5, 0, 3, 0, 0, 0, -1, 0, 4, 0, 1, 0, -3, 0, 103, 0}},
    {"bitwise_xor", 2, TSR_INT64, TSR_INT64, NULL, {-5, 0, 3, 0, 0, 0, -1, 0, 4, 0, 1, 0, -3, 0, 103, 0}},
    {"bitwise_xor", 2, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"bitwise_xor_cpu\" not implemented for 'Half'", {0}},
    {"bitwise_xor", 2, TSR_FLOAT32, TSR_DTYPE_UNDEFINED, "\"bitwise_xor_cpu\" not implemented for 'Float'", {0}},
    {"bitwise_xor", 2, TSR_FLOAT64, TSR_DTYPE_UNDEFINED, "\"bitwise_xor_cpu\" not implemented for 'Double'", {0}},
    {"bitwise_xor", 2, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"bitwise_xor_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"bitwise_xor", 2, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"bitwise_xor_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"bitwise_xor", 2, TSR_BOOL, TSR_BOOL, NULL, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0}},
    {"bitwise_xor", 2, TSR_BFLOAT16, TSR_DTYPE_UNDEFINED, "\"bitwise_xor_cpu\" not implemented for 'BFloat16'", {0}},
    {"bitwise_left_shift", 2, TSR_UINT8, TSR_UINT8, NULL, {228, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 32, 0}},
    {"bitwise_left_shift", 2, TSR_INT8, TSR_INT8, NULL, {-28, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 32, 0}},
    {"bitwise_left_shift", 2, TSR_INT16, TSR_INT16, NULL, {-28, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 800, 0}},
    {"bitwise_left_shift", 2, TSR_INT32, TSR_INT32, NULL, {-28, 0, -1073741824, 0, 0, 0, 0, 0, 0, 0, 1, 0, -1073741824, 0, 800, 0}},
    {"bitwise_left_shift", 2, TSR_INT64, TSR_INT64, NULL, {-28, 0, -4.6116860184273879e+18, 0, 0, 0, 0, 0, 0, 0, 1, 0, -4.6116860184273879e+18, 0, 800, 0}},
    {"bitwise_left_shift", 2, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"lshift_cpu\" not implemented for 'Half'", {0}},
    {"bitwise_left_shift", 2, TSR_FLOAT32, TSR_DTYPE_UNDEFINED, "\"lshift_cpu\" not implemented for 'Float'", {0}},
    {"bitwise_left_shift", 2, TSR_FLOAT64, TSR_DTYPE_UNDEFINED, "\"lshift_cpu\" not implemented for 'Double'", {0}},
    {"bitwise_left_shift", 2, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"lshift_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"bitwise_left_shift", 2, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"lshift_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"bitwise_left_shift", 2, TSR_BOOL, TSR_DTYPE_UNDEFINED, "\"lshift_cpu\" not implemented for 'Bool'", {0}},
    {"bitwise_left_shift", 2, TSR_BFLOAT16, TSR_DTYPE_UNDEFINED, "\"lshift_cpu\" not implemented for 'BFloat16'", {0}},
    {"bitwise_right_shift", 2, TSR_UINT8, TSR_UINT8, NULL, {62, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 12, 0}},
    {"bitwise_right_shift", 2, TSR_INT8, TSR_INT8, NULL, {-2, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 12, 0}},
    {"bitwise_right_shift", 2, TSR_INT16, TSR_INT16, NULL, {-2, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 12, 0}},
    {"bitwise_right_shift", 2, TSR_INT32, TSR_INT32, NULL, {-2, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 12, 0}},
    {"bitwise_right_shift", 2, TSR_INT64, TSR_INT64, NULL, {-2, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 12, 0}},
    {"bitwise_right_shift", 2, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"rshift_cpu\" not implemented for 'Half'", {0}},
    {"bitwise_right_shift", 2, TSR_FLOAT32, TSR_DTYPE_UNDEFINED, "\"rshift_cpu\" not implemented for 'Float'", {0}},
    {"bitwise_right_shift", 2, TSR_FLOAT64, TSR_DTYPE_UNDEFINED, "\"rshift_cpu\" not implemented for 'Double'", {0}},
    {"bitwise_right_shift", 2, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"rshift_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"bitwise_right_shift", 2, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"rshift_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"bitwise_right_shift", 2, TSR_BOOL, TSR_DTYPE_UNDEFINED, "\"rshift_cpu\" not implemented for 'Bool'", {0}},
    {"bitwise_right_shift", 2, TSR_BFLOAT16, TSR_DTYPE_UNDEFINED, "\"rshift_cpu\" not implemented for 'BFloat16'", {0}},
    {"eq", 2, TSR_UINT8, TSR_BOOL, NULL, {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"eq", 2, TSR_INT8, TSR_BOOL, NULL, {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"eq", 2, TSR_INT16, TSR_BOOL, NULL, {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"eq", 2, TSR_INT32, TSR_BOOL, NULL, {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"eq", 2, TSR_INT64, TSR_BOOL, NULL, {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"eq", 2, TSR_FLOAT16, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"eq", 2, TSR_FLOAT32, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"eq", 2, TSR_FLOAT64, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"eq", 2, TSR_COMPLEX64, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"eq", 2, TSR_COMPLEX128, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"eq", 2, TSR_BOOL, TSR_BOOL, NULL, {0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0}},
    {"eq", 2, TSR_BFLOAT16, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"lt", 2, TSR_UINT8, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0}},
    {"lt", 2, TSR_INT8, TSR_BOOL, NULL, {1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}},
    {"lt", 2, TSR_INT16, TSR_BOOL, NULL, {1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}},
    {"lt", 2, TSR_INT32, TSR_BOOL, NULL, {1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}},
    {"lt", 2, TSR_INT64, TSR_BOOL, NULL, {1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}},
    {"lt", 2, TSR_FLOAT16, TSR_BOOL, NULL, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}},
    {"lt", 2, TSR_FLOAT32, TSR_BOOL, NULL, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}},
    {"lt", 2, TSR_FLOAT64, TSR_BOOL, NULL, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}},
    {"lt", 2, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"lt_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"lt", 2, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"lt_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"lt", 2, TSR_BOOL, TSR_BOOL, NULL, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}},
    {"lt", 2, TSR_BFLOAT16, TSR_BOOL, NULL, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}},
    {"ge", 2, TSR_UINT8, TSR_BOOL, NULL, {1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0}},
    {"ge", 2, TSR_INT8, TSR_BOOL, NULL, {0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"ge", 2, TSR_INT16, TSR_BOOL, NULL, {0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"ge", 2, TSR_INT32, TSR_BOOL, NULL, {0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"ge", 2, TSR_INT64, TSR_BOOL, NULL, {0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"ge", 2, TSR_FLOAT16, TSR_BOOL, NULL, {0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"ge", 2, TSR_FLOAT32, TSR_BOOL, NULL, {0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"ge", 2, TSR_FLOAT64, TSR_BOOL, NULL, {0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"ge", 2, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"ge_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"ge", 2, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"ge_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"ge", 2, TSR_BOOL, TSR_BOOL, NULL, {0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"ge", 2, TSR_BFLOAT16, TSR_BOOL, NULL, {0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"logical_and", 2, TSR_UINT8, TSR_BOOL, NULL, {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0}},
    {"logical_and", 2, TSR_INT8, TSR_BOOL, NULL, {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0}},
    {"logical_and", 2, TSR_INT16, TSR_BOOL, NULL, {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0}},
    {"logical_and", 2, TSR_INT32, TSR_BOOL, NULL, {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0}},
    {"logical_and", 2, TSR_INT64, TSR_BOOL, NULL, {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0}},
    {"logical_and", 2, TSR_FLOAT16, TSR_BOOL, NULL, {1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
    {"logical_and", 2, TSR_FLOAT32, TSR_BOOL, NULL, {1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
    {"logical_and", 2, TSR_FLOAT64, TSR_BOOL, NULL, {1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
    {"logical_and", 2, TSR_COMPLEX64, TSR_BOOL, NULL, {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
    {"logical_and", 2, TSR_COMPLEX128, TSR_BOOL, NULL, {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
    {"logical_and", 2, TSR_BOOL, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0}},
    {"logical_and", 2, TSR_BFLOAT16, TSR_BOOL, NULL, {1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
    {"logical_xor", 2, TSR_UINT8, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0}},
    {"logical_xor", 2, TSR_INT8, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0}},
    {"logical_xor", 2, TSR_INT16, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0}},
    {"logical_xor", 2, TSR_INT32, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0}},
    {"logical_xor", 2, TSR_INT64, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0}},
    {"logical_xor", 2, TSR_FLOAT16, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"logical_xor", 2, TSR_FLOAT32, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"logical_xor", 2, TSR_FLOAT64, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"logical_xor", 2, TSR_COMPLEX64, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"logical_xor", 2, TSR_COMPLEX128, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"logical_xor", 2, TSR_BOOL, TSR_BOOL, NULL, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0}},
    {"logical_xor", 2, TSR_BFLOAT16, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"neg", 1, TSR_UINT8, TSR_UINT8, NULL, {7, 0, 2, 0, 0, 0, 0, 0, 0, 0, 255, 0, 253, 0, 156, 0}},
    {"neg", 1, TSR_INT8, TSR_INT8, NULL, {7, 0, 2, 0, 0, 0, 0, 0, 0, 0, -1, 0, -3, 0, -100, 0}},
    {"neg", 1, TSR_INT16, TSR_INT16, NULL, {7, 0, 2, 0, 0, 0, 0, 0, 0, 0, -1, 0, -3, 0, -100, 0}},
    {"neg", 1, TSR_INT32, TSR_INT32, NULL, {7, 0, 2, 0, 0, 0, 0, 0, 0, 0, -1, 0, -3, 0, -100, 0}},
    {"neg", 1, TSR_INT64, TSR_INT64, NULL, {7, 0, 2, 0, 0, 0, 0, 0, 0, 0, -1, 0, -3, 0, -100, 0}},
    {"neg", 1, TSR_FLOAT16, TSR_FLOAT16, NULL, {7.5, 0, 2, 0, 0.5, 0, -0, 0, -0.25, 0, -1, 0, -3, 0, -100.6875, 0}},
    {"neg", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {7.5, 0, 2, 0, 0.5, 0, -0, 0, -0.25, 0, -1, 0, -3, 0, -100.69999694824219, 0}},
    {"neg", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {7.5, 0, 2, 0, 0.5, 0, -0, 0, -0.25, 0, -1, 0, -3, 0, -100.7, 0}},
    {"neg", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {7.5, -2, 2, 3, 0.5, -0.75, 0, 1.5, -0.25, -4, -1, -0.5, -3, 2, -100.69999694824219, -3.25}},
    {"neg", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {7.5, -2, 2, 3, 0.5, -0.75, 0, 1.5, -0.25, -4, -1, -0.5, -3, 2, -100.7, -3.25}},
    {"neg", 1, TSR_BOOL, TSR_DTYPE_UNDEFINED, "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.", {0}},
    {"neg", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {7.5, 0, 2, 0, 0.5, 0, -0, 0, -0.25, 0, -1, 0, -3, 0, -100.5, 0}},
    {"abs", 1, TSR_UINT8, TSR_UINT8, NULL, {249, 0, 254, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"abs", 1, TSR_INT8, TSR_INT8, NULL, {7, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"abs", 1, TSR_INT16, TSR_INT16, NULL, {7, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"abs", 1, TSR_INT32, TSR_INT32, NULL, {7, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"abs", 1, TSR_INT64, TSR_INT64, NULL, {7, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"abs", 1, TSR_FLOAT16, TSR_FLOAT16, NULL, {7.5, 0, 2, 0, 0.5, 0, 0, 0, 0.25, 0, 1, 0, 3, 0, 100.6875, 0}},
    {"abs", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {7.5, 0, 2, 0, 0.5, 0, 0, 0, 0.25, 0, 1, 0, 3, 0, 100.69999694824219, 0}},
    {"abs", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {7.5, 0, 2, 0, 0.5, 0, 0, 0, 0.25, 0, 1, 0, 3, 0, 100.7, 0}},
    {"abs", 1, TSR_COMPLEX64, TSR_FLOAT32, NULL, {7.762087345123291, 0, 3.6055512428283691, 0, 0.90138781070709229, 0, 1.5, 0, 4.0078048706054688, 0, 1.1180340051651001, 0, 3.6055512428283691, 0, 100.75242614746094, 0}},
    {"abs", 1, TSR_COMPLEX128, TSR_FLOAT64, NULL, {7.7620873481300121, 0, 3.6055512754639891, 0, 0.90138781886599728, 0, 1.5, 0, 4.0078048854703496, 0, 1.1180339887498949, 0, 3.6055512754639891, 0, 100.75243173244009, 0}},
    {"abs", 1, TSR_BOOL, TSR_DTYPE_UNDEFINED, "\"abs_cpu\" not implemented for 'Bool'", {0}},
    {"abs", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {7.5, 0, 2, 0, 0.5, 0, 0, 0, 0.25, 0, 1, 0, 3, 0, 100.5, 0}},
    {"sign", 1, TSR_UINT8, TSR_UINT8, NULL, {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"sign", 1, TSR_INT8, TSR_INT8, NULL, {-1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"sign", 1, TSR_INT16, TSR_INT16, NULL, {-1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"sign", 1, TSR_INT32, TSR_INT32, NULL, {-1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"sign", 1, TSR_INT64, TSR_INT64, NULL, {-1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"sign", 1, TSR_FLOAT16, TSR_FLOAT16, NULL, {-1, 0, -1, 0, -1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
    {"sign", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-1, 0, -1, 0, -1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
    {"sign", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-1, 0, -1, 0, -1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
    {"sign", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead.", {0}},
    {"sign", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead.", {0}},
    {"sign", 1, TSR_BOOL, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"sign", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-1, 0, -1, 0, -1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
    {"sgn", 1, TSR_UINT8, TSR_UINT8, NULL, {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"sgn", 1, TSR_INT8, TSR_INT8, NULL, {-1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"sgn", 1, TSR_INT16, TSR_INT16, NULL, {-1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"sgn", 1, TSR_INT32, TSR_INT32, NULL, {-1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"sgn", 1, TSR_INT64, TSR_INT64, NULL, {-1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"sgn", 1, TSR_FLOAT16, TSR_FLOAT16, NULL, {-1, 0, -1, 0, -1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
    {"sgn", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-1, 0, -1, 0, -1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
    {"sgn", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-1, 0, -1, 0, -1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
    {"sgn", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {-0.96623492240905762, 0.25766265392303467, -0.55470019578933716, -0.83205032348632812, -0.55470019578933716, 0.83205032348632812, 0, -1, 0.062378287315368652, 0.99805259704589844, 0.89442718029022217, 0.44721359014511108, 0.83205032348632812, -0.55470019578933716, 0.99947965145111084, 0.032257288694381714}},
    {"sgn", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {-0.96623493960124629, 0.25766265056033233, -0.55470019622522915, -0.83205029433784372, -0.55470019622522915, 0.83205029433784372, 0, -1, 0.062378286155180533, 0.99805257848288853, 0.89442719099991586, 0.44721359549995793, 0.83205029433784372, -0.55470019622522915, 0.99947959834280409, 0.032257285944529424}},
    {"sgn", 1, TSR_BOOL, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"sgn", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-1, 0, -1, 0, -1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
    {"reciprocal", 1, TSR_UINT8, TSR_FLOAT32, NULL, {0.0040160641074180603, 0, 0.0039370078593492508, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, 1, 0, 0.3333333432674408, 0, 0.0099999997764825821, 0}},
    {"reciprocal", 1, TSR_INT8, TSR_FLOAT32, NULL, {-0.1428571492433548, 0, -0.5, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, 1, 0, 0.3333333432674408, 0, 0.0099999997764825821, 0}},
    {"reciprocal", 1, TSR_INT16, TSR_FLOAT32, NULL, {-0.1428571492433548, 0, -0.5, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, 1, 0, 0.3333333432674408, 0, 0.0099999997764825821, 0}},
    {"reciprocal", 1, TSR_INT32, TSR_FLOAT32, NULL, {-0.1428571492433548, 0, -0.5, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, 1, 0, 0.3333333432674408, 0, 0.0099999997764825821, 0}},
    {"reciprocal", 1, TSR_INT64, TSR_FLOAT32, NULL, {-0.1428571492433548, 0, -0.5, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, 1, 0, 0.3333333432674408, 0, 0.0099999997764825821, 0}},
    {"reciprocal", 1, TSR_FLOAT16, TSR_FLOAT16, NULL, {-0.13330078125, 0, -0.5, 0, -2, 0, INFINITY, 0, 4, 0, 1, 0, 0.333251953125, 0, 0.0099334716796875, 0}},
    {"reciprocal", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-0.13333334028720856, 0, -0.5, 0, -2, 0, INFINITY, 0, 4, 0, 1, 0, 0.3333333432674408, 0, 0.0099304867908358574, 0}},
    {"reciprocal", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-0.13333333333333333, 0, -0.5, 0, -2, 0, INFINITY, 0, 4, 0, 1, 0, 0.33333333333333331, 0, 0.0099304865938430985, 0}},
    {"reciprocal", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {-0.12448132783174515, -0.033195022493600845, -0.15384615957736969, 0.23076923191547394, -0.61538463830947876, -0.92307692766189575, 0, 0.66666668653488159, 0.015564202331006527, -0.24902723729610443, 0.80000001192092896, -0.40000000596046448, 0.23076923191547394, 0.15384615957736969, 0.0099201537668704987, -0.00032016387558542192}},
    {"reciprocal", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {-0.12448132780082988, -0.033195020746887967, -0.15384615384615385, 0.23076923076923078, -0.61538461538461542, -0.92307692307692313, 0, 0.66666666666666663, 0.01556420233463035, -0.24902723735408561, 0.80000000000000004, -0.40000000000000002, 0.23076923076923078, 0.15384615384615385, 0.0099201535998360759, -0.00032016384507911865}},
    {"reciprocal", 1, TSR_BOOL, TSR_FLOAT32, NULL, {INFINITY, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, 1, 0, 1, 0, 1, 0}},
    {"reciprocal", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-0.1337890625, 0, -0.5, 0, -2, 0, INFINITY, 0, 4, 0, 1, 0, 0.333984375, 0, 0.00994873046875, 0}},
    {"square", 1, TSR_UINT8, TSR_UINT8, NULL, {49, 0, 4, 0, 0, 0, 0, 0, 0, 0, 1, 0, 9, 0, 16, 0}},
    {"square", 1, TSR_INT8, TSR_INT8, NULL, {49, 0, 4, 0, 0, 0, 0, 0, 0, 0, 1, 0, 9, 0, 16, 0}},
    {"square", 1, TSR_INT16, TSR_INT16, NULL, {49, 0, 4, 0, 0, 0, 0, 0, 0, 0, 1, 0, 9, 0, 10000, 0}},
    {"square", 1, TSR_INT32, TSR_INT32, NULL, {49, 0, 4, 0, 0, 0, 0, 0, 0, 0, 1, 0, 9, 0, 10000, 0}},
    {"square", 1, TSR_INT64, TSR_INT64, NULL, {49, 0, 4, 0, 0, 0, 0, 0, 0, 0, 1, 0, 9, 0, 10000, 0}},
    {"square", 1, TSR_FLOAT16, TSR_FLOAT16, NULL, {56.25, 0, 4, 0, 0.25, 0, 0, 0, 0.0625, 0, 1, 0, 9, 0, 10136, 0}},
    {"square", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {56.25, 0, 4, 0, 0.25, 0, 0, 0, 0.0625, 0, 1, 0, 9, 0, 10140.4892578125, 0}},
    {"square", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {56.25, 0, 4, 0, 0.25, 0, 0, 0, 0.0625, 0, 1, 0, 9, 0, 10140.49, 0}},
    {"square", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {52.25, -30, -5, 12, -0.3125, -0.75, -2.25, -0, -15.9375, 2, 0.75, 1, 5, -12, 10129.9267578125, 654.54998779296875}},
    {"square", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {52.25, -30, -5, 12, -0.3125, -0.75, -2.25, -0, -15.9375, 2, 0.75, 1, 5, -12, 10129.9275, 654.55000000000007}},
    {"square", 1, TSR_BOOL, TSR_INT64, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"square", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {56.25, 0, 4, 0, 0.25, 0, 0, 0, 0.0625, 0, 1, 0, 9, 0, 10112, 0}},
    {"acos", 1, TSR_UINT8, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 1.5707963705062866, 0, 1.5707963705062866, 0, 1.5707963705062866, 0, 0, 0, NAN, 0, NAN, 0}},
    {"acos", 1, TSR_INT8, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 1.5707963705062866, 0, 1.5707963705062866, 0, 1.5707963705062866, 0, 0, 0, NAN, 0, NAN, 0}},
    {"acos", 1, TSR_INT16, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 1.5707963705062866, 0, 1.5707963705062866, 0, 1.5707963705062866, 0, 0, 0, NAN, 0, NAN, 0}},
    {"acos", 1, TSR_INT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 1.5707963705062866, 0, 1.5707963705062866, 0, 1.5707963705062866, 0, 0, 0, NAN, 0, NAN, 0}},
    {"acos", 1, TSR_INT64, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 1.5707963705062866, 0, 1.5707963705062866, 0, 1.5707963705062866, 0, 0, 0, NAN, 0, NAN, 0}},
    {"acos", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"acos_vml_cpu\" not implemented for 'Half'", {0}},
    {"acos", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 2.0943951606750488, 0, 1.5707963705062866, 0, 1.3181160688400269, 0, 0, 0, NAN, 0, NAN, 0}},
    {"acos", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {NAN, 0, NAN, 0, 2.0943951023931957, 0, 1.5707963267948966, 0, 1.318116071652818, 0, 0, 0, NAN, 0, NAN, 0}},
    {"acos", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {2.8789017200469971, -2.7387869358062744, 2.141448974609375, 1.9833869934082031, 1.9690741300582886, -0.74332040548324585, 1.5707963705062866, 1.19476318359375, 1.5102300643920898, -2.0964932441711426, 0.67488890886306763, -0.73285764455795288, 0.60613787174224854, 1.9686379432678223, 0.032264471054077148, -5.3057889938354492}},
    {"acos", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {2.878901637417159, -2.7387870235049596, 2.1414491111159961, 1.9833870299165355, 1.9690742003332049, -0.74332042632527828, 1.5707963267948966, 1.1947632172871094, 1.5102300523741321, -2.0964931062567529, 0.67488884558600637, -0.73285767597364515, 0.60613782238729375, 1.9686379257930964, 0.03226447084565498, -5.3057889397592621}},
    {"acos", 1, TSR_BOOL, TSR_FLOAT32, NULL, {1.5707963705062866, 0, 1.5707963705062866, 0, 1.5707963705062866, 0, 1.5707963705062866, 0, 1.5707963705062866, 0, 0, 0, 0, 0, 0, 0}},
    {"acos", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {NAN, 0, NAN, 0, 2.09375, 0, 1.5703125, 0, 1.3203125, 0, 0, 0, NAN, 0, NAN, 0}},
    {"acosh", 1, TSR_UINT8, TSR_FLOAT32, NULL, {6.2105960845947266, 0, 6.2304773330688477, 0, NAN, 0, NAN, 0, NAN, 0, 0, 0, 1.7627471685409546, 0, 5.2982921600341797, 0}},
    {"acosh", 1, TSR_INT8, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, NAN, 0, NAN, 0, NAN, 0, 0, 0, 1.7627471685409546, 0, 5.2982921600341797, 0}},
    {"acosh", 1, TSR_INT16, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, NAN, 0, NAN, 0, NAN, 0, 0, 0, 1.7627471685409546, 0, 5.2982921600341797, 0}},
    {"acosh", 1, TSR_INT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, NAN, 0, NAN, 0, NAN, 0, 0, 0, 1.7627471685409546, 0, 5.2982921600341797, 0}},
    {"acosh", 1, TSR_INT64, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, NAN, 0, NAN, 0, NAN, 0, 0, 0, 1.7627471685409546, 0, 5.2982921600341797, 0}},
    {"acosh", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"acosh_cpu\" not implemented for 'Half'", {0}},
    {"acosh", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, NAN, 0, NAN, 0, NAN, 0, 0, 0, 1.7627471685409546, 0, 5.3052682876586914, 0}},
    {"acosh", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {NAN, 0, NAN, 0, NAN, 0, NAN, 0, NAN, 0, 0, 0, 1.7627471740390861, 0, 5.3052683257317117, 0}},
    {"acosh", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {2.7387869358062744, 2.8789017200469971, 1.9833869934082031, -2.141448974609375, 0.74332040548324585, 1.9690741300582886, 1.19476318359375, -1.5707963705062866, 2.0964932441711426, 1.5102300643920898, 0.73285764455795288, 0.67488890886306763, 1.9686379432678223, -0.60613787174224854, 5.3057889938354492, 0.032264471054077148}},
    {"acosh", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {2.7387870235049574, 2.8789016374171577, 1.9833870299165355, -2.1414491111159961, 0.7433204263252785, 1.9690742003332049, 1.1947632172871094, -1.5707963267948966, 2.0964931062567529, 1.5102300523741323, 0.73285767597364526, 0.67488884558600637, 1.9686379257930964, -0.60613782238729386, 5.305788939759668, 0.032264470845612694}},
    {"acosh", 1, TSR_BOOL, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, NAN, 0, NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0}},
    {"acosh", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {NAN, 0, NAN, 0, NAN, 0, NAN, 0, NAN, 0, 0, 0, 1.765625, 0, 5.3125, 0}},
    {"asin", 1, TSR_UINT8, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, 1.5707963705062866, 0, NAN, 0, NAN, 0}},
    {"asin", 1, TSR_INT8, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, 1.5707963705062866, 0, NAN, 0, NAN, 0}},
    {"asin", 1, TSR_INT16, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, 1.5707963705062866, 0, NAN, 0, NAN, 0}},
    {"asin", 1, TSR_INT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, 1.5707963705062866, 0, NAN, 0, NAN, 0}},
    {"asin", 1, TSR_INT64, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, 1.5707963705062866, 0, NAN, 0, NAN, 0}},
    {"asin", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"asin_vml_cpu\" not implemented for 'Half'", {0}},
    {"asin", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -0.52359879016876221, 0, 0, 0, 0.25268024206161499, 0, 1.5707963705062866, 0, NAN, 0, NAN, 0}},
    {"asin", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {NAN, 0, NAN, 0, -0.52359877559829893, 0, 0, 0, 0.25268025514207865, 0, 1.5707963267948966, 0, NAN, 0, NAN, 0}},
    {"asin", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {-1.3081048727035522, 2.7387878894805908, -0.57065278291702271, -1.9833869934082031, -0.3982778787612915, 0.74332040548324585, 0, -1.19476318359375, 0.060566302388906479, 2.0964946746826172, 0.89590746164321899, 0.73285764455795288, 0.96465849876403809, -1.9686379432678223, 1.5385478734970093, 5.3060097694396973}},
    {"asin", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {-1.3081053106222622, 2.7387870235049596, -0.57065278432109945, -1.9833870299165355, -0.39827787353830835, 0.74332042632527828, 0, -1.1947632172871094, 0.060566274420764468, 2.0964931062567529, 0.89590748120889019, 0.73285767597364515, 0.96465850440760281, -1.9686379257930964, 1.5385318559492416, 5.3057889397592621}},
    {"asin", 1, TSR_BOOL, TSR_FLOAT32, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.5707963705062866, 0, 1.5707963705062866, 0, 1.5707963705062866, 0}},
    {"asin", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {NAN, 0, NAN, 0, -0.5234375, 0, 0, 0, 0.251953125, 0, 1.5703125, 0, NAN, 0, NAN, 0}},
    {"asinh", 1, TSR_UINT8, TSR_FLOAT32, NULL, {6.210604190826416, 0, 6.2304854393005371, 0, 0, 0, 0, 0, 0, 0, 0.88137358427047729, 0, 1.8184465169906616, 0, 5.298342227935791, 0}},
    {"asinh", 1, TSR_INT8, TSR_FLOAT32, NULL, {-2.6441206932067871, 0, -1.4436354637145996, 0, 0, 0, 0, 0, 0, 0, 0.88137358427047729, 0, 1.8184465169906616, 0, 5.298342227935791, 0}},
    {"asinh", 1, TSR_INT16, TSR_FLOAT32, NULL, {-2.6441206932067871, 0, -1.4436354637145996, 0, 0, 0, 0, 0, 0, 0, 0.88137358427047729, 0, 1.8184465169906616, 0, 5.298342227935791, 0}},
    {"asinh", 1, TSR_INT32, TSR_FLOAT32, NULL, {-2.6441206932067871, 0, -1.4436354637145996, 0, 0, 0, 0, 0, 0, 0, 0.88137358427047729, 0, 1.8184465169906616, 0, 5.298342227935791, 0}},
    {"asinh", 1, TSR_INT64, TSR_FLOAT32, NULL, {-2.6441206932067871, 0, -1.4436354637145996, 0, 0, 0, 0, 0, 0, 0, 0.88137358427047729, 0, 1.8184465169906616, 0, 5.298342227935791, 0}},
    {"asinh", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"asinh_cpu\" not implemented for 'Half'", {0}},
    {"asinh", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-2.7124652862548828, 0, -1.4436354637145996, 0, -0.48121184110641479, 0, 0, 0, 0.24746647477149963, 0, 0.88137358427047729, 0, 1.8184465169906616, 0, 5.3053174018859863, 0}},
    {"asinh", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-2.7124653051843439, 0, -1.4436354751788103, 0, -0.48121182505960347, 0, 0, 0, 0.24746646154726346, 0, 0.88137358701954305, 0, 1.8184464592320668, 0, 5.3053176330138063, 0}},
    {"asinh", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {-2.7459838390350342, 0.25855836272239685, -1.9686379432678223, -0.96465849876403809, -0.60633498430252075, 0.68220394849777222, 0.96242362260818481, -1.5707963705062866, 2.0655834674835205, 1.5063449144363403, 0.92613309621810913, 0.34943905472755432, 1.9833869934082031, -0.57065278291702271, 5.3058381080627441, 0.03226129338145256}},
    {"asinh", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {-2.7459838726565358, 0.25855837961952755, -1.9686379257930964, -0.96465850440760281, -0.60633499988735129, 0.68220396558343233, 0.96242365011920694, -1.5707963267948966, 2.0655835152052973, 1.506344919991575, 0.92613303135018255, 0.34943906285721327, 1.9833870299165355, -0.57065278432109945, 5.3058380932310438, 0.032261294771073243}},
    {"asinh", 1, TSR_BOOL, TSR_FLOAT32, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.88137358427047729, 0, 0.88137358427047729, 0, 0.88137358427047729, 0}},
    {"asinh", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-2.71875, 0, -1.4453125, 0, -0.48046875, 0, 0, 0, 0.2470703125, 0, 0.8828125, 0, 1.8203125, 0, 5.3125, 0}},
    {"atan", 1, TSR_UINT8, TSR_FLOAT32, NULL, {1.5667803287506104, 0, 1.5668593645095825, 0, 0, 0, 0, 0, 0, 0, 0.78539812564849854, 0, 1.249045729637146, 0, 1.5607966184616089, 0}},
    {"atan", 1, TSR_INT8, TSR_FLOAT32, NULL, {-1.4288992881774902, 0, -1.1071487665176392, 0, 0, 0, 0, 0, 0, 0, 0.78539812564849854, 0, 1.249045729637146, 0, 1.5607966184616089, 0}},
    {"atan", 1, TSR_INT16, TSR_FLOAT32, NULL, {-1.4288992881774902, 0, -1.1071487665176392, 0, 0, 0, 0, 0, 0, 0, 0.78539812564849854, 0, 1.249045729637146, 0, 1.5607966184616089, 0}},
    {"atan", 1, TSR_INT32, TSR_FLOAT32, NULL, {-1.4288992881774902, 0, -1.1071487665176392, 0, 0, 0, 0, 0, 0, 0, 0.78539812564849854, 0, 1.249045729637146, 0, 1.5607966184616089, 0}},
    {"atan", 1, TSR_INT64, TSR_FLOAT32, NULL, {-1.4288992881774902, 0, -1.1071487665176392, 0, 0, 0, 0, 0, 0, 0, 0.78539812564849854, 0, 1.249045729637146, 0, 1.5607966184616089, 0}},
    {"atan", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"atan_vml_cpu\" not implemented for 'Half'", {0}},
    {"atan", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-1.4382448196411133, 0, -1.1071487665176392, 0, -0.46364760398864746, 0, 0, 0, 0.24497866630554199, 0, 0.78539812564849854, 0, 1.249045729637146, 0, 1.560866117477417, 0}},
    {"atan", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-1.4382447944982226, 0, -1.1071487177940904, 0, -0.46364760900080609, 0, 0, 0, 0.24497866312686414, 0, 0.78539816339744828, 0, 1.2490457723982544, 0, 1.5608661666119423, 0}},
    {"atan", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {-1.4468189477920532, 0.032699607312679291, -1.4099210500717163, -0.2290726900100708, -0.69272416830062866, 0.59021353721618652, 1.5707963705062866, -0.80471897125244141, 1.5542049407958984, 0.25430691242218018, 0.84757566452026367, 0.23887786269187927, 1.3389725685119629, -0.14694665372371674, 1.5608764886856079, 0.00032014914904721081}},
    {"atan", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {-1.4468189043870512, 0.032699600942113473, -1.4099210495965755, -0.22907268296853875, -0.69272418839960093, 0.59021350027950537, 1.5707963267948966, -0.80471895621705014, 1.5542049087116474, 0.25430692122149867, 0.84757566067082901, 0.23887786125685911, 1.3389725222944935, -0.14694666622552979, 1.5608764975714615, 0.00032013235196527793}},
    {"atan", 1, TSR_BOOL, TSR_FLOAT32, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.78539812564849854, 0, 0.78539812564849854, 0, 0.78539812564849854, 0}},
    {"atan", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-1.4375, 0, -1.109375, 0, -0.462890625, 0, 0, 0, 0.2451171875, 0, 0.78515625, 0, 1.25, 0, 1.5625, 0}},
    {"atanh", 1, TSR_UINT8, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"atanh", 1, TSR_INT8, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"atanh", 1, TSR_INT16, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"atanh", 1, TSR_INT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"atanh", 1, TSR_INT64, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"atanh", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"atanh_cpu\" not implemented for 'Half'", {0}},
    {"atanh", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -0.54930615425109863, 0, 0, 0, 0.25541281700134277, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"atanh", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {NAN, 0, NAN, 0, -0.54930614433405478, 0, 0, 0, 0.25541281188299536, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"atanh", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {-0.12498898804187775, 1.5370922088623047, -0.14694666862487793, -1.3389725685119629, -0.31042826175689697, 0.72322064638137817, 0, -0.98279368877410889, 0.014656211249530315, 1.3266799449920654, 0.70830333232879639, 0.90788745880126953, 0.2290726900100708, -1.4099210500717163, 0.0099204778671264648, 1.5704761743545532}},
    {"atanh", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {-0.1249889878822717, 1.5370921945997555, -0.14694666622552974, -1.3389725222944935, -0.31042828307719578, 0.72322066612406755, 0, -0.98279372324732905, 0.014656210836880889, 1.3266799176095636, 0.70830333601405404, 0.90788749496088039, 0.22907268296853878, -1.4099210495965755, 0.0099204780142654256, 1.5704761314505153}},
    {"atanh", 1, TSR_BOOL, TSR_FLOAT32, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0}},
    {"atanh", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {NAN, 0, NAN, 0, -0.55078125, 0, 0, 0, 0.255859375, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"ceil", 1, TSR_UINT8, TSR_UINT8, NULL, {249, 0, 254, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"ceil", 1, TSR_INT8, TSR_INT8, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"ceil", 1, TSR_INT16, TSR_INT16, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"ceil", 1, TSR_INT32, TSR_INT32, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"ceil", 1, TSR_INT64, TSR_INT64, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"ceil", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"ceil_vml_cpu\" not implemented for 'Half'", {0}},
    {"ceil", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-7, 0, -2, 0, -0, 0, 0, 0, 1, 0, 1, 0, 3, 0, 101, 0}},
    {"ceil", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-7, 0, -2, 0, -0, 0, 0, 0, 1, 0, 1, 0, 3, 0, 101, 0}},
    {"ceil", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "ceil is not supported for complex inputs", {0}},
    {"ceil", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "ceil is not supported for complex inputs", {0}},
    {"ceil", 1, TSR_BOOL, TSR_DTYPE_UNDEFINED, "\"ceil_vml_cpu\" not implemented for 'Bool'", {0}},
    {"ceil", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-7, 0, -2, 0, -0, 0, 0, 0, 1, 0, 1, 0, 3, 0, 101, 0}},
    {"cos", 1, TSR_UINT8, TSR_FLOAT32, NULL, {-0.68646460771560669, 0, -0.89201849699020386, 0, 1, 0, 1, 0, 1, 0, 0.5403023362159729, 0, -0.98999249935150146, 0, 0.86231887340545654, 0}},
    {"cos", 1, TSR_INT8, TSR_FLOAT32, NULL, {0.75390225648880005, 0, -0.41614684462547302, 0, 1, 0, 1, 0, 1, 0, 0.5403023362159729, 0, -0.98999249935150146, 0, 0.86231887340545654, 0}},
    {"cos", 1, TSR_INT16, TSR_FLOAT32, NULL, {0.75390225648880005, 0, -0.41614684462547302, 0, 1, 0, 1, 0, 1, 0, 0.5403023362159729, 0, -0.98999249935150146, 0, 0.86231887340545654, 0}},
    {"cos", 1, TSR_INT32, TSR_FLOAT32, NULL, {0.75390225648880005, 0, -0.41614684462547302, 0, 1, 0, 1, 0, 1, 0, 0.5403023362159729, 0, -0.98999249935150146, 0, 0.86231887340545654, 0}},
    {"cos", 1, TSR_INT64, TSR_FLOAT32, NULL, {0.75390225648880005, 0, -0.41614684462547302, 0, 1, 0, 1, 0, 1, 0, 0.5403023362159729, 0, -0.98999249935150146, 0, 0.86231887340545654, 0}},
    {"cos", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"cos_vml_cpu\" not implemented for 'Half'", {0}},
    {"cos", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {0.34663531184196472, 0, -0.41614684462547302, 0, 0.87758255004882812, 0, 1, 0, 0.96891242265701294, 0, 0.5403023362159729, 0, -0.98999249935150146, 0, 0.9857480525970459, 0}},
    {"cos", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {0.34663531783502582, 0, -0.41614683654714241, 0, 0.87758256189037276, 0, 1, 0, 0.96891242171064473, 0, 0.54030230586813977, 0, -0.98999249660044542, 0, 0.98574755462956465, 0}},
    {"cos", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {1.3041099309921265, 3.4019949436187744, -4.1896257400512695, -9.109227180480957, 1.1361914873123169, 0.3942396342754364, 2.3524096012115479, 0, 26.459283828735352, -6.7516341209411621, 0.60925889015197754, -0.43848654627799988, -3.7245457172393799, 0.51182252168655396, 12.730500221252441, -2.1660704612731934}},
    {"cos", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {1.3041098991363391, 3.4019949783257237, -4.189625690968807, -9.109227893755337, 1.1361914738033483, 0.3942396421115833, 2.3524096152432472, 0, 26.459286009782883, -6.7516335622974983, 0.60925890915779424, -0.43848657989259532, -3.7245455049153224, 0.51182256998738462, 12.730493043495564, -2.166109238209819}},
    {"cos", 1, TSR_BOOL, TSR_FLOAT32, NULL, {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0.5403023362159729, 0, 0.5403023362159729, 0, 0.5403023362159729, 0}},
    {"cos", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {0.345703125, 0, -0.416015625, 0, 0.87890625, 0, 1, 0, 0.96875, 0, 0.5390625, 0, -0.98828125, 0, 1, 0}},
    {"cosh", 1, TSR_UINT8, TSR_FLOAT32, NULL, {INFINITY, 0, INFINITY, 0, 1, 0, 1, 0, 1, 0, 1.5430805683135986, 0, 10.067662239074707, 0, INFINITY, 0}},
    {"cosh", 1, TSR_INT8, TSR_FLOAT32, NULL, {548.3170166015625, 0, 3.7621958255767822, 0, 1, 0, 1, 0, 1, 0, 1.5430805683135986, 0, 10.067662239074707, 0, INFINITY, 0}},
    {"cosh", 1, TSR_INT16, TSR_FLOAT32, NULL, {548.3170166015625, 0, 3.7621958255767822, 0, 1, 0, 1, 0, 1, 0, 1.5430805683135986, 0, 10.067662239074707, 0, INFINITY, 0}},
    {"cosh", 1, TSR_INT32, TSR_FLOAT32, NULL, {548.3170166015625, 0, 3.7621958255767822, 0, 1, 0, 1, 0, 1, 0, 1.5430805683135986, 0, 10.067662239074707, 0, INFINITY, 0}},
    {"cosh", 1, TSR_INT64, TSR_FLOAT32, NULL, {548.3170166015625, 0, 3.7621958255767822, 0, 1, 0, 1, 0, 1, 0, 1.5430805683135986, 0, 10.067662239074707, 0, INFINITY, 0}},
    {"cosh", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"cosh_cpu\" not implemented for 'Half'", {0}},
    {"cosh", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {904.021484375, 0, 3.7621958255767822, 0, 1.1276259422302246, 0, 1, 0, 1.0314130783081055, 0, 1.5430805683135986, 0, 10.067662239074707, 0, INFINITY, 0}},
    {"cosh", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {904.02148377021672, 0, 3.7621956910836314, 0, 1.1276259652063807, 0, 1, 0, 1.0314130998795732, 0, 1.5430806348152437, 0, 10.067661995777765, 0, 2.7066015861650284e+43, 0}},
    {"cosh", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {-376.2056884765625, -822.02386474609375, -3.7245457172393799, 0.51182252168655396, 0.82507133483886719, -0.35519874095916748, 0.070737197995185852, -0, -0.67417657375335693, -0.19117763638496399, 1.3541805744171143, 0.56342148780822754, -4.1896257400512695, -9.109227180480957, -INFINITY, -INFINITY}},
    {"cosh", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {-376.2056806416295, -822.02390606919823, -3.7245455049153224, 0.51182256998738462, 0.82507136699460726, -0.35519875789073846, 0.070737201667702906, -0, -0.67417659321144641, -0.19117763170593868, 1.3541806567045842, 0.5634214652309818, -4.189625690968807, -9.109227893755337, -2.6907129581333326e+43, -2.9284112273452997e+42}},
    {"cosh", 1, TSR_BOOL, TSR_FLOAT32, NULL, {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1.5430805683135986, 0, 1.5430805683135986, 0, 1.5430805683135986, 0}},
    {"cosh", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {904, 0, 3.765625, 0, 1.125, 0, 1, 0, 1.03125, 0, 1.546875, 0, 10.0625, 0, INFINITY, 0}},
    {"deg2rad", 1, TSR_UINT8, TSR_FLOAT32, NULL, {4.3458700180053711, 0, 4.4331364631652832, 0, 0, 0, 0, 0, 0, 0, 0.01745329238474369, 0, 0.052359879016876221, 0, 1.7453292608261108, 0}},
    {"deg2rad", 1, TSR_INT8, TSR_FLOAT32, NULL, {-0.12217304855585098, 0, -0.034906584769487381, 0, 0, 0, 0, 0, 0, 0, 0.01745329238474369, 0, 0.052359879016876221, 0, 1.7453292608261108, 0}},
    {"deg2rad", 1, TSR_INT16, TSR_FLOAT32, NULL, {-0.12217304855585098, 0, -0.034906584769487381, 0, 0, 0, 0, 0, 0, 0, 0.01745329238474369, 0, 0.052359879016876221, 0, 1.7453292608261108, 0}},
    {"deg2rad", 1, TSR_INT32, TSR_FLOAT32, NULL, {-0.12217304855585098, 0, -0.034906584769487381, 0, 0, 0, 0, 0, 0, 0, 0.01745329238474369, 0, 0.052359879016876221, 0, 1.7453292608261108, 0}},
    {"deg2rad", 1, TSR_INT64, TSR_FLOAT32, NULL, {-0.12217304855585098, 0, -0.034906584769487381, 0, 0, 0, 0, 0, 0, 0, 0.01745329238474369, 0, 0.052359879016876221, 0, 1.7453292608261108, 0}},
    {"deg2rad", 1, TSR_FLOAT16, TSR_FLOAT16, NULL, {-0.130859375, 0, -0.034912109375, 0, -0.00872802734375, 0, 0, 0, 0.004364013671875, 0, 0.0174560546875, 0, 0.0523681640625, 0, 1.7578125, 0}},
    {"deg2rad", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-0.13089969754219055, 0, -0.034906584769487381, 0, -0.0087266461923718452, 0, 0, 0, 0.0043633230961859226, 0, 0.01745329238474369, 0, 0.052359879016876221, 0, 1.7575465440750122, 0}},
    {"deg2rad", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-0.1308996938995747, 0, -0.034906585039886591, 0, -0.0087266462599716477, 0, 0, 0, 0.0043633231299858239, 0, 0.017453292519943295, 0, 0.05235987755982989, 0, 1.75754655675829, 0}},
    {"deg2rad", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "deg2rad is not supported for complex tensors.", {0}},
    {"deg2rad", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "deg2rad is not supported for complex tensors.", {0}},
    {"deg2rad", 1, TSR_BOOL, TSR_FLOAT32, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.01745329238474369, 0, 0.01745329238474369, 0, 0.01745329238474369, 0}},
    {"deg2rad", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-0.130859375, 0, -0.034912109375, 0, -0.00872802734375, 0, 0, 0, 0.004364013671875, 0, 0.0174560546875, 0, 0.05224609375, 0, 1.7578125, 0}},
    {"digamma", 1, TSR_UINT8, TSR_FLOAT32, NULL, {5.5154433250427246, 0, 5.5353646278381348, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, -0.57721590995788574, 0, 0.92278420925140381, 0, 4.6001620292663574, 0}},
    {"digamma", 1, TSR_INT8, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, -0.57721590995788574, 0, 0.92278420925140381, 0, 4.6001620292663574, 0}},
    {"digamma", 1, TSR_INT16, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, -0.57721590995788574, 0, 0.92278420925140381, 0, 4.6001620292663574, 0}},
    {"digamma", 1, TSR_INT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, -0.57721590995788574, 0, 0.92278420925140381, 0, 4.6001620292663574, 0}},
    {"digamma", 1, TSR_INT64, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, -0.57721590995788574, 0, 0.92278420925140381, 0, 4.6001620292663574, 0}},
    {"digamma", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"digamma\" not implemented for 'Half'", {0}},
    {"digamma", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {2.0800909996032715, 0, NAN, 0, 0.036489915102720261, 0, -INFINITY, 0, -4.2274541854858398, 0, -0.57721590995788574, 0, 0.92278420925140381, 0, 4.6071724891662598, 0}},
    {"digamma", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {2.0800908175794204, 0, NAN, 0, 0.036489973978576389, 0, -INFINITY, 0, -4.2274535333762655, 0, -0.57721566490153275, 0, 0.92278433509846702, 0, 4.607172338628299, 0}},
    {"digamma", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"digamma\" not implemented for 'ComplexFloat'", {0}},
    {"digamma", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"digamma\" not implemented for 'ComplexDouble'", {0}},
    {"digamma", 1, TSR_BOOL, TSR_FLOAT32, NULL, {-INFINITY, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, -0.57721590995788574, 0, -0.57721590995788574, 0, -0.57721590995788574, 0}},
    {"digamma", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {2.078125, 0, NAN, 0, 0.036376953125, 0, -INFINITY, 0, -4.21875, 0, -0.578125, 0, 0.921875, 0, 4.59375, 0}},
    {"erf", 1, TSR_UINT8, TSR_FLOAT32, NULL, {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0.8427007794380188, 0, 0.99997788667678833, 0, 1, 0}},
    {"erf", 1, TSR_INT8, TSR_FLOAT32, NULL, {-1, 0, -0.99532228708267212, 0, 0, 0, 0, 0, 0, 0, 0.8427007794380188, 0, 0.99997788667678833, 0, 1, 0}},
    {"erf", 1, TSR_INT16, TSR_FLOAT32, NULL, {-1, 0, -0.99532228708267212, 0, 0, 0, 0, 0, 0, 0, 0.8427007794380188, 0, 0.99997788667678833, 0, 1, 0}},
    {"erf", 1, TSR_INT32, TSR_FLOAT32, NULL, {-1, 0, -0.99532228708267212, 0, 0, 0, 0, 0, 0, 0, 0.8427007794380188, 0, 0.99997788667678833, 0, 1, 0}},
    {"erf", 1, TSR_INT64, TSR_FLOAT32, NULL, {-1, 0, -0.99532228708267212, 0, 0, 0, 0, 0, 0, 0, 0.8427007794380188, 0, 0.99997788667678833, 0, 1, 0}},
    {"erf", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"erf_vml_cpu\" not implemented for 'Half'", {0}},
    {"erf", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-1, 0, -0.99532228708267212, 0, -0.52049988508224487, 0, 0, 0, 0.27632638812065125, 0, 0.8427007794380188, 0, 0.99997788667678833, 0, 1, 0}},
    {"erf", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-1, 0, -0.99532226501895271, 0, -0.52049987781304652, 0, 0, 0, 0.27632639016823696, 0, 0.84270079294971489, 0, 0.99997790950300136, 0, 1, 0}},
    {"erf", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"erf_vml_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"erf", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"erf_vml_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"erf", 1, TSR_BOOL, TSR_FLOAT32, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.8427007794380188, 0, 0.8427007794380188, 0, 0.8427007794380188, 0}},
    {"erf", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-1, 0, -0.99609375, 0, -0.51953125, 0, 0, 0, 0.275390625, 0, 0.84375, 0, 1, 0, 1, 0}},
    {"erfc", 1, TSR_UINT8, TSR_FLOAT32, NULL, {0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0.15729920566082001, 0, 2.2090496713644825e-05, 0, 0, 0}},
    {"erfc", 1, TSR_INT8, TSR_FLOAT32, NULL, {2, 0, 1.9953222274780273, 0, 1, 0, 1, 0, 1, 0, 0.15729920566082001, 0, 2.2090496713644825e-05, 0, 0, 0}},
    {"erfc", 1, TSR_INT16, TSR_FLOAT32, NULL, {2, 0, 1.9953222274780273, 0, 1, 0, 1, 0, 1, 0, 0.15729920566082001, 0, 2.2090496713644825e-05, 0, 0, 0}},
    {"erfc", 1, TSR_INT32, TSR_FLOAT32, NULL, {2, 0, 1.9953222274780273, 0, 1, 0, 1, 0, 1, 0, 0.15729920566082001, 0, 2.2090496713644825e-05, 0, 0, 0}},
    {"erfc", 1, TSR_INT64, TSR_FLOAT32, NULL, {2, 0, 1.9953222274780273, 0, 1, 0, 1, 0, 1, 0, 0.15729920566082001, 0, 2.2090496713644825e-05, 0, 0, 0}},
    {"erfc", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"erfc_vml_cpu\" not implemented for 'Half'", {0}},
    {"erfc", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {2, 0, 1.9953222274780273, 0, 1.5204999446868896, 0, 1, 0, 0.72367358207702637, 0, 0.15729920566082001, 0, 2.2090496713644825e-05, 0, 0, 0}},
    {"erfc", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {2, 0, 1.9953222650189528, 0, 1.5204998778130465, 0, 1, 0, 0.7236736098317631, 0, 0.15729920705028513, 0, 2.2090496998585441e-05, 0, 0, 0}},
    {"erfc", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"erfc_vml_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"erfc", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"erfc_vml_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"erfc", 1, TSR_BOOL, TSR_FLOAT32, NULL, {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0.15729920566082001, 0, 0.15729920566082001, 0, 0.15729920566082001, 0}},
    {"erfc", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {2, 0, 1.9921875, 0, 1.5234375, 0, 1, 0, 0.72265625, 0, 0.1572265625, 0, 2.2053718566894531e-05, 0, 0, 0}},
    {"erfinv", 1, TSR_UINT8, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"erfinv", 1, TSR_INT8, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"erfinv", 1, TSR_INT16, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"erfinv", 1, TSR_INT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"erfinv", 1, TSR_INT64, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"erfinv", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"erfinv_vml_cpu\" not implemented for 'Half'", {0}},
    {"erfinv", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -0.47693628072738647, 0, 0, 0, 0.22531205415725708, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"erfinv", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {NAN, 0, NAN, 0, -0.47693627620446988, 0, 0, 0, 0.2253120550121781, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"erfinv", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"erfinv_vml_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"erfinv", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"erfinv_vml_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"erfinv", 1, TSR_BOOL, TSR_FLOAT32, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0}},
    {"erfinv", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {NAN, 0, NAN, 0, -0.4765625, 0, 0, 0, 0.2255859375, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"exp", 1, TSR_UINT8, TSR_FLOAT32, NULL, {INFINITY, 0, INFINITY, 0, 1, 0, 1, 0, 1, 0, 2.7182817459106445, 0, 20.085536956787109, 0, INFINITY, 0}},
    {"exp", 1, TSR_INT8, TSR_FLOAT32, NULL, {0.00091188197256997228, 0, 0.1353352814912796, 0, 1, 0, 1, 0, 1, 0, 2.7182817459106445, 0, 20.085536956787109, 0, INFINITY, 0}},
    {"exp", 1, TSR_INT16, TSR_FLOAT32, NULL, {0.00091188197256997228, 0, 0.1353352814912796, 0, 1, 0, 1, 0, 1, 0, 2.7182817459106445, 0, 20.085536956787109, 0, INFINITY, 0}},
    {"exp", 1, TSR_INT32, TSR_FLOAT32, NULL, {0.00091188197256997228, 0, 0.1353352814912796, 0, 1, 0, 1, 0, 1, 0, 2.7182817459106445, 0, 20.085536956787109, 0, INFINITY, 0}},
    {"exp", 1, TSR_INT64, TSR_FLOAT32, NULL, {0.00091188197256997228, 0, 0.1353352814912796, 0, 1, 0, 1, 0, 1, 0, 2.7182817459106445, 0, 20.085536956787109, 0, INFINITY, 0}},
    {"exp", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"exp_vml_cpu\" not implemented for 'Half'", {0}},
    {"exp", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {0.00055308436276391149, 0, 0.1353352814912796, 0, 0.60653066635131836, 0, 1, 0, 1.2840254306793213, 0, 2.7182817459106445, 0, 20.085536956787109, 0, INFINITY, 0}},
    {"exp", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {0.00055308437014783363, 0, 0.1353352832366127, 0, 0.60653065971263342, 0, 1, 0, 1.2840254166877414, 0, 2.7182818284590451, 0, 20.085536923187668, 0, 5.4132031723300568e+43, 0}},
    {"exp", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {-0.0002301643107784912, 0.00050291814841330051, -0.13398091495037079, -0.019098514690995216, 0.4437917172908783, 0.41343483328819275, 0.070737197995185852, -0.99749499559402466, -0.83929502964019775, -0.97175365686416626, 2.3855166435241699, 1.3032137155532837, -8.3585329055786133, -18.263727188110352, -INFINITY, -INFINITY}},
    {"exp", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {-0.00023016431098068973, 0.00050291819459292802, -0.13398091492954262, -0.019098516261135196, 0.44379173234242913, 0.41343480680265426, 0.070737201667702906, -0.99749498660405445, -0.83929502264468336, -0.97175363938808512, 2.3855167309591354, 1.3032137296869954, -8.3585326509353717, -18.263727040666765, -5.3814259162666652e+43, -5.8568224546905994e+42}},
    {"exp", 1, TSR_BOOL, TSR_FLOAT32, NULL, {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 2.7182817459106445, 0, 2.7182817459106445, 0, 2.7182817459106445, 0}},
    {"exp", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {0.000553131103515625, 0, 0.1357421875, 0, 0.60546875, 0, 1, 0, 1.28125, 0, 2.71875, 0, 20.125, 0, INFINITY, 0}},
    {"expm1", 1, TSR_UINT8, TSR_FLOAT32, NULL, {INFINITY, 0, INFINITY, 0, 0, 0, 0, 0, 0, 0, 1.7182818651199341, 0, 19.085536956787109, 0, INFINITY, 0}},
    {"expm1", 1, TSR_INT8, TSR_FLOAT32, NULL, {-0.9990881085395813, 0, -0.86466473340988159, 0, 0, 0, 0, 0, 0, 0, 1.7182818651199341, 0, 19.085536956787109, 0, INFINITY, 0}},
    {"expm1", 1, TSR_INT16, TSR_FLOAT32, NULL, {-0.9990881085395813, 0, -0.86466473340988159, 0, 0, 0, 0, 0, 0, 0, 1.7182818651199341, 0, 19.085536956787109, 0, INFINITY, 0}},
    {"expm1", 1, TSR_INT32, TSR_FLOAT32, NULL, {-0.9990881085395813, 0, -0.86466473340988159, 0, 0, 0, 0, 0, 0, 0, 1.7182818651199341, 0, 19.085536956787109, 0, INFINITY, 0}},
    {"expm1", 1, TSR_INT64, TSR_FLOAT32, NULL, {-0.9990881085395813, 0, -0.86466473340988159, 0, 0, 0, 0, 0, 0, 0, 1.7182818651199341, 0, 19.085536956787109, 0, INFINITY, 0}},
    {"expm1", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"expm1_vml_cpu\" not implemented for 'Half'", {0}},
    {"expm1", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-0.99944692850112915, 0, -0.86466473340988159, 0, -0.39346933364868164, 0, 0, 0, 0.28402543067932129, 0, 1.7182818651199341, 0, 19.085536956787109, 0, INFINITY, 0}},
    {"expm1", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-0.99944691562985222, 0, -0.8646647167633873, 0, -0.39346934028736658, 0, 0, 0, 0.28402541668774151, 0, 1.7182818284590453, 0, 19.085536923187668, 0, 5.4132031723300568e+43, 0}},
    {"expm1", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"expm1_vml_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"expm1", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"expm1_vml_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"expm1", 1, TSR_BOOL, TSR_FLOAT32, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.7182818651199341, 0, 1.7182818651199341, 0, 1.7182818651199341, 0}},
    {"expm1", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-1, 0, -0.86328125, 0, -0.392578125, 0, 0, 0, 0.283203125, 0, 1.71875, 0, 19.125, 0, INFINITY, 0}},
    {"floor", 1, TSR_UINT8, TSR_UINT8, NULL, {249, 0, 254, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"floor", 1, TSR_INT8, TSR_INT8, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"floor", 1, TSR_INT16, TSR_INT16, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"floor", 1, TSR_INT32, TSR_INT32, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"floor", 1, TSR_INT64, TSR_INT64, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"floor", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"floor_vml_cpu\" not implemented for 'Half'", {0}},
    {"floor", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-8, 0, -2, 0, -1, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"floor", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-8, 0, -2, 0, -1, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"floor", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "floor is not supported for complex inputs", {0}},
    {"floor", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "floor is not supported for complex inputs", {0}},
    {"floor", 1, TSR_BOOL, TSR_DTYPE_UNDEFINED, "\"floor_vml_cpu\" not implemented for 'Bool'", {0}},
    {"floor", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-8, 0, -2, 0, -1, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"frac", 1, TSR_UINT8, TSR_DTYPE_UNDEFINED, "\"frac_cpu\" not implemented for 'Byte'", {0}},
    {"frac", 1, TSR_INT8, TSR_DTYPE_UNDEFINED, "\"frac_cpu\" not implemented for 'Char'", {0}},
    {"frac", 1, TSR_INT16, TSR_DTYPE_UNDEFINED, "\"frac_cpu\" not implemented for 'Short'", {0}},
    {"frac", 1, TSR_INT32, TSR_DTYPE_UNDEFINED, "\"frac_cpu\" not implemented for 'Int'", {0}},
    {"frac", 1, TSR_INT64, TSR_DTYPE_UNDEFINED, "\"frac_cpu\" not implemented for 'Long'", {0}},
    {"frac", 1, TSR_FLOAT16, TSR_FLOAT16, NULL, {-0.5, 0, 0, 0, -0.5, 0, 0, 0, 0.25, 0, 0, 0, 0, 0, 0.6875, 0}},
    {"frac", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-0.5, 0, 0, 0, -0.5, 0, 0, 0, 0.25, 0, 0, 0, 0, 0, 0.6999969482421875, 0}},
    {"frac", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-0.5, 0, 0, 0, -0.5, 0, 0, 0, 0.25, 0, 0, 0, 0, 0, 0.70000000000000284, 0}},
    {"frac", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"frac_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"frac", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"frac_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"frac", 1, TSR_BOOL, TSR_DTYPE_UNDEFINED, "\"frac_cpu\" not implemented for 'Bool'", {0}},
    {"frac", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-0.5, 0, 0, 0, -0.5, 0, 0, 0, 0.25, 0, 0, 0, 0, 0, 0.5, 0}},
    {"log", 1, TSR_UINT8, TSR_FLOAT32, NULL, {5.5174527168273926, 0, 5.5373344421386719, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, 0, 0, 1.0986123085021973, 0, 4.6051702499389648, 0}},
    {"log", 1, TSR_INT8, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, 0, 0, 1.0986123085021973, 0, 4.6051702499389648, 0}},
    {"log", 1, TSR_INT16, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, 0, 0, 1.0986123085021973, 0, 4.6051702499389648, 0}},
    {"log", 1, TSR_INT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, 0, 0, 1.0986123085021973, 0, 4.6051702499389648, 0}},
    {"log", 1, TSR_INT64, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, 0, 0, 1.0986123085021973, 0, 4.6051702499389648, 0}},
    {"log", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"log_vml_cpu\" not implemented for 'Half'", {0}},
    {"log", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, NAN, 0, -INFINITY, 0, -1.3862943649291992, 0, 0, 0, 1.0986123085021973, 0, 4.6121459007263184, 0}},
    {"log", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {NAN, 0, NAN, 0, NAN, 0, -INFINITY, 0, -1.3862943611198906, 0, 0, 0, 1.0986122886681098, 0, 4.6121457997245168, 0}},
    {"log", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {2.0492513179779053, 2.8809902667999268, 1.2824746370315552, -2.1587989330291748, -0.10381968319416046, 2.1587989330291748, 0.40546509623527527, -1.5707963705062866, 1.3882436752319336, 1.5083775520324707, 0.1115717738866806, 0.46364760398864746, 1.2824746370315552, -0.58800262212753296, 4.612666130065918, 0.032262884080410004}},
    {"log", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {2.0492512861853824, 2.8809902618424523, 1.2824746787307684, -2.158798930342464, -0.10381968238912226, 2.158798930342464, 0.40546510810816438, -1.5707963267948966, 1.3882436813277192, 1.5083775167989393, 0.11157177565710488, 0.46364760900080609, 1.2824746787307684, -0.5880026035475675, 4.612666336837651, 0.032262882691256649}},
    {"log", 1, TSR_BOOL, TSR_FLOAT32, NULL, {-INFINITY, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, 0, 0, 0, 0, 0, 0}},
    {"log", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {NAN, 0, NAN, 0, NAN, 0, -INFINITY, 0, -1.3828125, 0, 0, 0, 1.1015625, 0, 4.625, 0}},
    {"log10", 1, TSR_UINT8, TSR_FLOAT32, NULL, {2.3961994647979736, 0, 2.4048337936401367, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, 0, 0, 0.4771212637424469, 0, 2, 0}},
    {"log10", 1, TSR_INT8, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, 0, 0, 0.4771212637424469, 0, 2, 0}},
    {"log10", 1, TSR_INT16, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, 0, 0, 0.4771212637424469, 0, 2, 0}},
    {"log10", 1, TSR_INT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, 0, 0, 0.4771212637424469, 0, 2, 0}},
    {"log10", 1, TSR_INT64, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, 0, 0, 0.4771212637424469, 0, 2, 0}},
    {"log10", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"log10_vml_cpu\" not implemented for 'Half'", {0}},
    {"log10", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, NAN, 0, -INFINITY, 0, -0.60206001996994019, 0, 0, 0, 0.4771212637424469, 0, 2.0030293464660645, 0}},
    {"log10", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {NAN, 0, NAN, 0, NAN, 0, -INFINITY, 0, -0.6020599913279624, 0, 0, 0, 0.47712125471966244, 0, 2.003029470553618, 0}},
    {"log10", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {0.88997852802276611, 1.2511981725692749, 0.55697166919708252, -0.93755447864532471, -0.045088313519954681, 0.93755447864532471, 0.17609125375747681, -0.68218821287155151, 0.60290658473968506, 0.65508002042770386, 0.048455003648996353, 0.20135959982872009, 0.55697166919708252, -0.25536629557609558, 2.0032553672790527, 0.014011592604219913}},
    {"log10", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {0.88997852562345303, 1.2511981731351816, 0.55697167615341836, -0.93755446298637457, -0.045088315174544008, 0.93755446298637457, 0.17609125905568124, -0.6821881769209206, 0.6029065703376848, 0.65508003217270883, 0.048455006504028203, 0.20135959813668655, 0.55697167615341836, -0.25536628606545397, 2.003255536949478, 0.014011591923104695}},
    {"log10", 1, TSR_BOOL, TSR_FLOAT32, NULL, {-INFINITY, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, 0, 0, 0, 0, 0, 0}},
    {"log10", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {NAN, 0, NAN, 0, NAN, 0, -INFINITY, 0, -0.6015625, 0, 0, 0, 0.4765625, 0, 2, 0}},
    {"log1p", 1, TSR_UINT8, TSR_FLOAT32, NULL, {5.521461009979248, 0, 5.5412635803222656, 0, 0, 0, 0, 0, 0, 0, 0.69314718246459961, 0, 1.3862943649291992, 0, 4.6151204109191895, 0}},
    {"log1p", 1, TSR_INT8, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, 0.69314718246459961, 0, 1.3862943649291992, 0, 4.6151204109191895, 0}},
    {"log1p", 1, TSR_INT16, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, 0.69314718246459961, 0, 1.3862943649291992, 0, 4.6151204109191895, 0}},
    {"log1p", 1, TSR_INT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, 0.69314718246459961, 0, 1.3862943649291992, 0, 4.6151204109191895, 0}},
    {"log1p", 1, TSR_INT64, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, 0.69314718246459961, 0, 1.3862943649291992, 0, 4.6151204109191895, 0}},
    {"log1p", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"log1p_vml_cpu\" not implemented for 'Half'", {0}},
    {"log1p", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -0.69314718246459961, 0, 0, 0, 0.22314354777336121, 0, 0.69314718246459961, 0, 1.3862943649291992, 0, 4.6220273971557617, 0}},
    {"log1p", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {NAN, 0, NAN, 0, -0.69314718055994529, 0, 0, 0, 0.22314355131420976, 0, 0.69314718055994529, 0, 1.3862943611198906, 0, 4.622027303054514, 0}},
    {"log1p", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"log1p_vml_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"log1p", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"log1p_vml_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"log1p", 1, TSR_BOOL, TSR_FLOAT32, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.69314718246459961, 0, 0.69314718246459961, 0, 0.69314718246459961, 0}},
    {"log1p", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {NAN, 0, NAN, 0, -0.69140625, 0, 0, 0, 0.22265625, 0, 0.69140625, 0, 1.3828125, 0, 4.625, 0}},
    {"log2", 1, TSR_UINT8, TSR_FLOAT32, NULL, {7.9600019454956055, 0, 7.9886846542358398, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, 0, 0, 1.5849624872207642, 0, 6.6438560485839844, 0}},
    {"log2", 1, TSR_INT8, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, 0, 0, 1.5849624872207642, 0, 6.6438560485839844, 0}},
    {"log2", 1, TSR_INT16, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, 0, 0, 1.5849624872207642, 0, 6.6438560485839844, 0}},
    {"log2", 1, TSR_INT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, 0, 0, 1.5849624872207642, 0, 6.6438560485839844, 0}},
    {"log2", 1, TSR_INT64, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, 0, 0, 1.5849624872207642, 0, 6.6438560485839844, 0}},
    {"log2", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"log2_vml_cpu\" not implemented for 'Half'", {0}},
    {"log2", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, NAN, 0, -INFINITY, 0, -2, 0, 0, 0, 1.5849624872207642, 0, 6.6539196968078613, 0}},
    {"log2", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {NAN, 0, NAN, 0, NAN, 0, -INFINITY, 0, -2, 0, 0, 0, 1.5849625007211561, 0, 6.6539198731194222, 0}},
    {"log2", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {2.9564447402954102, 4.1563901901245117, 1.8502198457717896, -3.1144886016845703, -0.14978013932704926, 3.1144886016845703, 0.58496248722076416, -2.2661800384521484, 2.0028121471405029, 2.1761288642883301, 0.16096404194831848, 0.66890209913253784, 1.8502198457717896, -0.84830844402313232, 6.6546707153320312, 0.046545501798391342}},
    {"log2", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {2.9564446681149814, 4.1563903636095025, 1.8502198590705461, -3.1144885110814715, -0.14978014092945394, 3.1144885110814715, 0.58496250072115619, -2.2661800709135971, 2.002812274596939, 2.1761287632742388, 0.16096404744368117, 0.66890210622548807, 1.8502198590705461, -0.84830844016787488, 6.65467084943114, 0.046545500863458343}},
    {"log2", 1, TSR_BOOL, TSR_FLOAT32, NULL, {-INFINITY, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, 0, 0, 0, 0, 0, 0}},
    {"log2", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {NAN, 0, NAN, 0, NAN, 0, -INFINITY, 0, -2, 0, 0, 0, 1.5859375, 0, 6.65625, 0}},
    {"rad2deg", 1, TSR_UINT8, TSR_FLOAT32, NULL, {14266.6494140625, 0, 14553.1279296875, 0, 0, 0, 0, 0, 0, 0, 57.295780181884766, 0, 171.88734436035156, 0, 5729.578125, 0}},
    {"rad2deg", 1, TSR_INT8, TSR_FLOAT32, NULL, {-401.07046508789062, 0, -114.59156036376953, 0, 0, 0, 0, 0, 0, 0, 57.295780181884766, 0, 171.88734436035156, 0, 5729.578125, 0}},
    {"rad2deg", 1, TSR_INT16, TSR_FLOAT32, NULL, {-401.07046508789062, 0, -114.59156036376953, 0, 0, 0, 0, 0, 0, 0, 57.295780181884766, 0, 171.88734436035156, 0, 5729.578125, 0}},
    {"rad2deg", 1, TSR_INT32, TSR_FLOAT32, NULL, {-401.07046508789062, 0, -114.59156036376953, 0, 0, 0, 0, 0, 0, 0, 57.295780181884766, 0, 171.88734436035156, 0, 5729.578125, 0}},
    {"rad2deg", 1, TSR_INT64, TSR_FLOAT32, NULL, {-401.07046508789062, 0, -114.59156036376953, 0, 0, 0, 0, 0, 0, 0, 57.295780181884766, 0, 171.88734436035156, 0, 5729.578125, 0}},
    {"rad2deg", 1, TSR_FLOAT16, TSR_FLOAT16, NULL, {-429.5, 0, -114.5625, 0, -28.640625, 0, 0, 0, 14.3203125, 0, 57.28125, 0, 171.875, 0, 5768, 0}},
    {"rad2deg", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-429.71835327148438, 0, -114.59156036376953, 0, -28.647890090942383, 0, 0, 0, 14.323945045471191, 0, 57.295780181884766, 0, 171.88734436035156, 0, 5769.68505859375, 0}},
    {"rad2deg", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-429.71834634811739, 0, -114.59155902616465, 0, -28.647889756541161, 0, 0, 0, 14.323944878270581, 0, 57.295779513082323, 0, 171.88733853924697, 0, 5769.6849969673904, 0}},
    {"rad2deg", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "rad2deg is not supported for complex tensors.", {0}},
    {"rad2deg", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "rad2deg is not supported for complex tensors.", {0}},
    {"rad2deg", 1, TSR_BOOL, TSR_FLOAT32, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 57.295780181884766, 0, 57.295780181884766, 0, 57.295780181884766, 0}},
    {"rad2deg", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-430, 0, -114.5, 0, -28.625, 0, 0, 0, 14.3125, 0, 57.25, 0, 172, 0, 5760, 0}},
    {"round", 1, TSR_UINT8, TSR_UINT8, NULL, {249, 0, 254, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"round", 1, TSR_INT8, TSR_INT8, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"round", 1, TSR_INT16, TSR_INT16, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"round", 1, TSR_INT32, TSR_INT32, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"round", 1, TSR_INT64, TSR_INT64, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"round", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"round_vml_cpu\" not implemented for 'Half'", {0}},
    {"round", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-8, 0, -2, 0, -0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 101, 0}},
    {"round", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-8, 0, -2, 0, -0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 101, 0}},
    {"round", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"round_vml_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"round", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"round_vml_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"round", 1, TSR_BOOL, TSR_DTYPE_UNDEFINED, "\"round_vml_cpu\" not implemented for 'Bool'", {0}},
    {"round", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-8, 0, -2, 0, -0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"rsqrt", 1, TSR_UINT8, TSR_FLOAT32, NULL, {0.063372425734996796, 0, 0.062745586037635803, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, 1, 0, 0.57735025882720947, 0, 0.10000000149011612, 0}},
    {"rsqrt", 1, TSR_INT8, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, 1, 0, 0.57735025882720947, 0, 0.10000000149011612, 0}},
    {"rsqrt", 1, TSR_INT16, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, 1, 0, 0.57735025882720947, 0, 0.10000000149011612, 0}},
    {"rsqrt", 1, TSR_INT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, 1, 0, 0.57735025882720947, 0, 0.10000000149011612, 0}},
    {"rsqrt", 1, TSR_INT64, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, 1, 0, 0.57735025882720947, 0, 0.10000000149011612, 0}},
    {"rsqrt", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"rsqrt_cpu\" not implemented for 'Half'", {0}},
    {"rsqrt", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, NAN, 0, INFINITY, 0, 2, 0, 1, 0, 0.57735025882720947, 0, 0.099651828408241272, 0}},
    {"rsqrt", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {NAN, 0, NAN, 0, NAN, 0, INFINITY, 0, 2, 0, 1, 0, 0.57735026918962584, 0, 0.099651826846491376, 0}},
    {"rsqrt", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {0.046636886894702911, -0.35588809847831726, 0.24849942326545715, 0.4643254280090332, 0.49699884653091431, -0.92865085601806641, 0.57735025882720947, 0.57735025882720947, 0.36405861377716064, -0.34201532602310181, 0.92044216394424438, -0.21728691458702087, 0.5040433406829834, 0.15261204540729523, 0.099612928926944733, -0.0016070394776761532}},
    {"rsqrt", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {0.046636881753266343, -0.3558880814813809, 0.24849944091130335, 0.46432545265081493, 0.49699888182260671, -0.92865090530162986, 0.57735026918962584, 0.57735026918962584, 0.36405861269536838, -0.3420153083460532, 0.920442065259926, -0.21728689675164015, 0.50404331603635277, 0.15261203645745602, 0.099612931770927643, -0.001607039564980254}},
    {"rsqrt", 1, TSR_BOOL, TSR_FLOAT32, NULL, {INFINITY, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, 1, 0, 1, 0, 1, 0}},
    {"rsqrt", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {NAN, 0, NAN, 0, NAN, 0, INFINITY, 0, 2, 0, 1, 0, 0.578125, 0, 0.10009765625, 0}},
    {"sigmoid", 1, TSR_UINT8, TSR_FLOAT32, NULL, {1, 0, 1, 0, 0.5, 0, 0.5, 0, 0.5, 0, 0.73105859756469727, 0, 0.95257413387298584, 0, 1, 0}},
    {"sigmoid", 1, TSR_INT8, TSR_FLOAT32, NULL, {0.00091105117462575436, 0, 0.11920291930437088, 0, 0.5, 0, 0.5, 0, 0.5, 0, 0.73105859756469727, 0, 0.95257413387298584, 0, 1, 0}},
    {"sigmoid", 1, TSR_INT16, TSR_FLOAT32, NULL, {0.00091105117462575436, 0, 0.11920291930437088, 0, 0.5, 0, 0.5, 0, 0.5, 0, 0.73105859756469727, 0, 0.95257413387298584, 0, 1, 0}},
    {"sigmoid", 1, TSR_INT32, TSR_FLOAT32, NULL, {0.00091105117462575436, 0, 0.11920291930437088, 0, 0.5, 0, 0.5, 0, 0.5, 0, 0.73105859756469727, 0, 0.95257413387298584, 0, 1, 0}},
    {"sigmoid", 1, TSR_INT64, TSR_FLOAT32, NULL, {0.00091105117462575436, 0, 0.11920291930437088, 0, 0.5, 0, 0.5, 0, 0.5, 0, 0.73105859756469727, 0, 0.95257413387298584, 0, 1, 0}},
    {"sigmoid", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"sigmoid_cpu\" not implemented for 'Half'", {0}},
    {"sigmoid", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {0.00055277865612879395, 0, 0.11920291930437088, 0, 0.37754067778587341, 0, 0.5, 0, 0.56217652559280396, 0, 0.73105859756469727, 0, 0.95257413387298584, 0, 1, 0}},
    {"sigmoid", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {0.00055277863692359955, 0, 0.11920292202211755, 0, 0.37754066879814541, 0, 0.5, 0, 0.56217650088579807, 0, 0.7310585786300049, 0, 0.95257412682243336, 0, 1, 0}},
    {"sigmoid", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {-0.00022996420739218593, 0.00050314964028075337, -0.15414765477180481, -0.025452680885791779, 0.35986900329589844, 0.18330375850200653, 0.5, -0.46579822897911072, 0.83434724807739258, -1.0016723871231079, 0.74274361133575439, 0.099027723073959351, 1.0189794301986694, -0.047106459736824036, 1, -1.4012984643248171e-45}},
    {"sigmoid", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {-0.00022996419741570307, 0.00050314965486554552, -0.15414764961396776, -0.025452681163614307, 0.35986899691693902, 0.18330374919009856, 0.5, -0.46579822997203629, 0.83434717577792328, -1.0016723654850268, 0.74274364051206776, 0.099027724975674775, 1.0189793914289662, -0.047106460064772197, 1, -1.9987266519600613e-45}},
    {"sigmoid", 1, TSR_BOOL, TSR_FLOAT32, NULL, {0.5, 0, 0.5, 0, 0.5, 0, 0.5, 0, 0.5, 0, 0.73105859756469727, 0, 0.73105859756469727, 0, 0.73105859756469727, 0}},
    {"sigmoid", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {0.000553131103515625, 0, 0.119140625, 0, 0.376953125, 0, 0.5, 0, 0.5625, 0, 0.73046875, 0, 0.953125, 0, 1, 0}},
    {"sin", 1, TSR_UINT8, TSR_FLOAT32, NULL, {-0.72716319561004639, 0, 0.45199888944625854, 0, 0, 0, 0, 0, 0, 0, 0.84147095680236816, 0, 0.14112000167369843, 0, -0.50636565685272217, 0}},
    {"sin", 1, TSR_INT8, TSR_FLOAT32, NULL, {-0.65698659420013428, 0, -0.9092974066734314, 0, 0, 0, 0, 0, 0, 0, 0.84147095680236816, 0, 0.14112000167369843, 0, -0.50636565685272217, 0}},
    {"sin", 1, TSR_INT16, TSR_FLOAT32, NULL, {-0.65698659420013428, 0, -0.9092974066734314, 0, 0, 0, 0, 0, 0, 0, 0.84147095680236816, 0, 0.14112000167369843, 0, -0.50636565685272217, 0}},
    {"sin", 1, TSR_INT32, TSR_FLOAT32, NULL, {-0.65698659420013428, 0, -0.9092974066734314, 0, 0, 0, 0, 0, 0, 0, 0.84147095680236816, 0, 0.14112000167369843, 0, -0.50636565685272217, 0}},
    {"sin", 1, TSR_INT64, TSR_FLOAT32, NULL, {-0.65698659420013428, 0, -0.9092974066734314, 0, 0, 0, 0, 0, 0, 0, 0.84147095680236816, 0, 0.14112000167369843, 0, -0.50636565685272217, 0}},
    {"sin", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"sin_vml_cpu\" not implemented for 'Half'", {0}},
    {"sin", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-0.93799996376037598, 0, -0.9092974066734314, 0, -0.47942554950714111, 0, 0, 0, 0.24740396440029144, 0, 0.84147095680236816, 0, 0.14112000167369843, 0, 0.16822825372219086, 0}},
    {"sin", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-0.9379999767747389, 0, -0.90929742682568171, 0, -0.47942553860420301, 0, 0, 0, 0.24740395925452294, 0, 0.8414709848078965, 0, 0.14112000805986721, 0, 0.16823126505448824, 0}},
    {"sin", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {-3.5289394855499268, 1.2571978569030762, -9.1544990539550781, 4.1689071655273438, -0.6207042932510376, 0.72165077924728394, 0, -2.1292793750762939, 6.75616455078125, 26.44154167175293, 0.94886445999145508, 0.28154897689819336, 0.53092110157012939, 3.590564489364624, 2.172593355178833, 12.692277908325195}},
    {"sin", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {-3.5289394708584689, 1.2571979102173227, -9.1544991469114301, 4.1689069599665647, -0.62070423107805506, 0.72165082429756455, 0, -2.1292794550948173, 6.7561649238748478, 26.441539759752018, 0.94886453143716798, 0.28154899513533443, 0.53092108624851975, 3.5905645899857799, 2.1726322722448352, 12.692271462942745}},
    {"sin", 1, TSR_BOOL, TSR_FLOAT32, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.84147095680236816, 0, 0.84147095680236816, 0, 0.84147095680236816, 0}},
    {"sin", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-0.9375, 0, -0.91015625, 0, -0.478515625, 0, 0, 0, 0.2470703125, 0, 0.83984375, 0, 0.1416015625, 0, -0.031005859375, 0}},
    {"sinh", 1, TSR_UINT8, TSR_FLOAT32, NULL, {INFINITY, 0, INFINITY, 0, 0, 0, 0, 0, 0, 0, 1.1752011775970459, 0, 10.017874717712402, 0, INFINITY, 0}},
    {"sinh", 1, TSR_INT8, TSR_FLOAT32, NULL, {-548.316162109375, 0, -3.6268603801727295, 0, 0, 0, 0, 0, 0, 0, 1.1752011775970459, 0, 10.017874717712402, 0, INFINITY, 0}},
    {"sinh", 1, TSR_INT16, TSR_FLOAT32, NULL, {-548.316162109375, 0, -3.6268603801727295, 0, 0, 0, 0, 0, 0, 0, 1.1752011775970459, 0, 10.017874717712402, 0, INFINITY, 0}},
    {"sinh", 1, TSR_INT32, TSR_FLOAT32, NULL, {-548.316162109375, 0, -3.6268603801727295, 0, 0, 0, 0, 0, 0, 0, 1.1752011775970459, 0, 10.017874717712402, 0, INFINITY, 0}},
    {"sinh", 1, TSR_INT64, TSR_FLOAT32, NULL, {-548.316162109375, 0, -3.6268603801727295, 0, 0, 0, 0, 0, 0, 0, 1.1752011775970459, 0, 10.017874717712402, 0, INFINITY, 0}},
    {"sinh", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"sinh_cpu\" not implemented for 'Half'", {0}},
    {"sinh", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-904.02093505859375, 0, -3.6268603801727295, 0, -0.52109527587890625, 0, 0, 0, 0.25261232256889343, 0, 1.1752011775970459, 0, 10.017874717712402, 0, INFINITY, 0}},
    {"sinh", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-904.02093068584657, 0, -3.6268604078470186, 0, -0.52109530549374738, 0, 0, 0, 0.25261231680816831, 0, 1.1752011936438014, 0, 10.017874927409903, 0, 2.7066015861650284e+43, 0}},
    {"sinh", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {376.20547485351562, 822.0244140625, 3.590564489364624, -0.53092110157012939, -0.38127961754798889, 0.76863354444503784, 0, -0.99749499559402466, -0.16511842608451843, -0.78057599067687988, 1.0313360691070557, 0.73979222774505615, -4.1689071655273438, -9.1544990539550781, -INFINITY, -INFINITY}},
    {"sinh", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {376.20545047731855, 822.02440898739269, 3.5905645899857799, -0.53092108624851975, -0.38127963465217818, 0.76863356469339261, 0, -0.99749498660405445, -0.16511842943323699, -0.78057600768214641, 1.0313360742545512, 0.73979226445601376, -4.1689069599665647, -9.1544991469114301, -2.6907129581333326e+43, -2.9284112273452997e+42}},
    {"sinh", 1, TSR_BOOL, TSR_FLOAT32, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.1752011775970459, 0, 1.1752011775970459, 0, 1.1752011775970459, 0}},
    {"sinh", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-904, 0, -3.625, 0, -0.51953125, 0, 0, 0, 0.251953125, 0, 1.171875, 0, 10, 0, INFINITY, 0}},
    {"sqrt", 1, TSR_UINT8, TSR_FLOAT32, NULL, {15.779733657836914, 0, 15.937376976013184, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1.7320507764816284, 0, 10, 0}},
    {"sqrt", 1, TSR_INT8, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1.7320507764816284, 0, 10, 0}},
    {"sqrt", 1, TSR_INT16, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1.7320507764816284, 0, 10, 0}},
    {"sqrt", 1, TSR_INT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1.7320507764816284, 0, 10, 0}},
    {"sqrt", 1, TSR_INT64, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1.7320507764816284, 0, 10, 0}},
    {"sqrt", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"sqrt_vml_cpu\" not implemented for 'Half'", {0}},
    {"sqrt", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, NAN, 0, 0, 0, 0.5, 0, 1, 0, 1.7320507764816284, 0, 10.034938812255859, 0}},
    {"sqrt", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {NAN, 0, NAN, 0, NAN, 0, 0, 0, 0.5, 0, 1, 0, 1.7320508075688772, 0, 10.034938963441681, 0}},
    {"sqrt", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {0.36199957132339478, 2.7624342441558838, 0.8959774374961853, -1.6741492748260498, 0.44798871874809265, 0.8370746374130249, 0.86602538824081421, -0.86602538824081421, 1.459075927734375, 1.3707306385040283, 1.0290855169296265, 0.24293413758277893, 1.8173539638519287, -0.55025053024291992, 10.036245346069336, 0.16191314160823822}},
    {"sqrt", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {0.36199954981326415, 2.7624343746168898, 0.89597747612983814, -1.6741492280355401, 0.44798873806491907, 0.83707461401777006, 0.8660254037844386, -0.8660254037844386, 1.4590758865580553, 1.3707306236949601, 1.0290855136357462, 0.24293413587832283, 1.8173540210239707, -0.55025052270033747, 10.036245107918601, 0.16191314406200327}},
    {"sqrt", 1, TSR_BOOL, TSR_FLOAT32, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"sqrt", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {NAN, 0, NAN, 0, NAN, 0, 0, 0, 0.5, 0, 1, 0, 1.734375, 0, 10, 0}},
    {"tan", 1, TSR_UINT8, TSR_FLOAT32, NULL, {1.0592871904373169, 0, -0.50671470165252686, 0, 0, 0, 0, 0, 0, 0, 1.5574077367782593, 0, -0.14254654943943024, 0, -0.58721393346786499, 0}},
    {"tan", 1, TSR_INT8, TSR_FLOAT32, NULL, {-0.87144798040390015, 0, 2.185039758682251, 0, 0, 0, 0, 0, 0, 0, 1.5574077367782593, 0, -0.14254654943943024, 0, -0.58721393346786499, 0}},
    {"tan", 1, TSR_INT16, TSR_FLOAT32, NULL, {-0.87144798040390015, 0, 2.185039758682251, 0, 0, 0, 0, 0, 0, 0, 1.5574077367782593, 0, -0.14254654943943024, 0, -0.58721393346786499, 0}},
    {"tan", 1, TSR_INT32, TSR_FLOAT32, NULL, {-0.87144798040390015, 0, 2.185039758682251, 0, 0, 0, 0, 0, 0, 0, 1.5574077367782593, 0, -0.14254654943943024, 0, -0.58721393346786499, 0}},
    {"tan", 1, TSR_INT64, TSR_FLOAT32, NULL, {-0.87144798040390015, 0, 2.185039758682251, 0, 0, 0, 0, 0, 0, 0, 1.5574077367782593, 0, -0.14254654943943024, 0, -0.58721393346786499, 0}},
    {"tan", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"tan_vml_cpu\" not implemented for 'Half'", {0}},
    {"tan", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-2.7060139179229736, 0, 2.185039758682251, 0, -0.54630249738693237, 0, 0, 0, 0.25534191727638245, 0, 1.5574077367782593, 0, -0.14254654943943024, 0, 0.17066049575805664, 0}},
    {"tan", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-2.706013866772691, 0, 2.1850398632615189, 0, -0.54630248984379048, 0, 0, 0, 0.25534192122103627, 0, 1.5574077246549023, 0, -0.1425465430742778, 0, 0.17066363924961303, 0}},
    {"tan", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {-0.024494290351867676, 1.0279251337051392, 0.003764025866985321, -1.0032386779785156, -0.29089349508285522, 0.7360842227935791, 0, -0.90514826774597168, 0.00032146935700438917, 0.99941122531890869, 0.80687743425369263, 1.0428307056427002, -0.0098843742161989212, -0.96538591384887695, 0.00099444214720278978, 0.99716687202453613}},
    {"tan", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {-0.024494293078559128, 1.0279251565807437, 0.0037640256415042484, -1.0032386273536096, -0.29089346182961806, 0.73608417055119091, 0, -0.90514825364486651, 0.00032146938724942286, 0.99941132929585108, 0.80687741216308495, 1.0428307283443607, -0.0098843750383224918, -0.96538587902213302, 0.00099445947366463968, 0.99716684400386868}},
    {"tan", 1, TSR_BOOL, TSR_FLOAT32, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.5574077367782593, 0, 1.5574077367782593, 0, 1.5574077367782593, 0}},
    {"tan", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-2.703125, 0, 2.1875, 0, -0.546875, 0, 0, 0, 0.255859375, 0, 1.5546875, 0, -0.142578125, 0, -0.031005859375, 0}},
    {"tanh", 1, TSR_UINT8, TSR_FLOAT32, NULL, {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0.76159417629241943, 0, 0.99505478143692017, 0, 1, 0}},
    {"tanh", 1, TSR_INT8, TSR_FLOAT32, NULL, {-0.99999833106994629, 0, -0.96402758359909058, 0, 0, 0, 0, 0, 0, 0, 0.76159417629241943, 0, 0.99505478143692017, 0, 1, 0}},
    {"tanh", 1, TSR_INT16, TSR_FLOAT32, NULL, {-0.99999833106994629, 0, -0.96402758359909058, 0, 0, 0, 0, 0, 0, 0, 0.76159417629241943, 0, 0.99505478143692017, 0, 1, 0}},
    {"tanh", 1, TSR_INT32, TSR_FLOAT32, NULL, {-0.99999833106994629, 0, -0.96402758359909058, 0, 0, 0, 0, 0, 0, 0, 0.76159417629241943, 0, 0.99505478143692017, 0, 1, 0}},
    {"tanh", 1, TSR_INT64, TSR_FLOAT32, NULL, {-0.99999833106994629, 0, -0.96402758359909058, 0, 0, 0, 0, 0, 0, 0, 0.76159417629241943, 0, 0.99505478143692017, 0, 1, 0}},
    {"tanh", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"tanh_vml_cpu\" not implemented for 'Half'", {0}},
    {"tanh", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-0.99999940395355225, 0, -0.96402758359909058, 0, -0.46211716532707214, 0, 0, 0, 0.24491865932941437, 0, 0.76159417629241943, 0, 0.99505478143692017, 0, 1, 0}},
    {"tanh", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-0.99999938819554612, 0, -0.9640275800758169, 0, -0.46211715726000974, 0, 0, 0, 0.24491866240370913, 0, 0.76159415595576485, 0, 0.99505475368673046, 0, 1, 0}},
    {"tanh", 1, TSR_COMPLEX64, TSR_COMPLEX64, NULL, {-1.0000003576278687, -4.6301545353344409e-07, -0.96538591384887695, 0.0098843742161989212, -0.72821176052093506, 0.61809647083282471, 0, -14.101420402526855, 0.53057897090911865, 1.00736403465271, 0.84296613931655884, 0.19557732343673706, 1.0032386779785156, 0.003764025866985321, 1, 0}},
    {"tanh", 1, TSR_COMPLEX128, TSR_COMPLEX128, NULL, {-1.0000003999021736, -4.6301546411339456e-07, -0.96538587902213302, 0.0098843750383224918, -0.72821180128047225, 0.61809639480620204, 0, -14.101419947171721, 0.53057890931779139, 1.0073639387724151, 0.84296620484578333, 0.19557731006593401, 1.0032386273536096, 0.0037640256415042484, 1, 1.46825708611364e-88}},
    {"tanh", 1, TSR_BOOL, TSR_FLOAT32, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.76159417629241943, 0, 0.76159417629241943, 0, 0.76159417629241943, 0}},
    {"tanh", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-1, 0, -0.96484375, 0, -0.462890625, 0, 0, 0, 0.2451171875, 0, 0.76171875, 0, 0.99609375, 0, 1, 0}},
    {"trunc", 1, TSR_UINT8, TSR_UINT8, NULL, {249, 0, 254, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"trunc", 1, TSR_INT8, TSR_INT8, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"trunc", 1, TSR_INT16, TSR_INT16, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"trunc", 1, TSR_INT32, TSR_INT32, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"trunc", 1, TSR_INT64, TSR_INT64, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"trunc", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"trunc_vml_cpu\" not implemented for 'Half'", {0}},
    {"trunc", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-7, 0, -2, 0, -0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"trunc", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-7, 0, -2, 0, -0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"trunc", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "trunc is not supported for complex inputs", {0}},
    {"trunc", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "trunc is not supported for complex inputs", {0}},
    {"trunc", 1, TSR_BOOL, TSR_DTYPE_UNDEFINED, "\"trunc_vml_cpu\" not implemented for 'Bool'", {0}},
    {"trunc", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-7, 0, -2, 0, -0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"exp2", 1, TSR_UINT8, TSR_FLOAT32, NULL, {INFINITY, 0, INFINITY, 0, 1, 0, 1, 0, 1, 0, 2, 0, 8, 0, 1.2676506002282294e+30, 0}},
    {"exp2", 1, TSR_INT8, TSR_FLOAT32, NULL, {0.0078125, 0, 0.25, 0, 1, 0, 1, 0, 1, 0, 2, 0, 8, 0, 1.2676506002282294e+30, 0}},
    {"exp2", 1, TSR_INT16, TSR_FLOAT32, NULL, {0.0078125, 0, 0.25, 0, 1, 0, 1, 0, 1, 0, 2, 0, 8, 0, 1.2676506002282294e+30, 0}},
    {"exp2", 1, TSR_INT32, TSR_FLOAT32, NULL, {0.0078125, 0, 0.25, 0, 1, 0, 1, 0, 1, 0, 2, 0, 8, 0, 1.2676506002282294e+30, 0}},
    {"exp2", 1, TSR_INT64, TSR_FLOAT32, NULL, {0.0078125, 0, 0.25, 0, 1, 0, 1, 0, 1, 0, 2, 0, 8, 0, 1.2676506002282294e+30, 0}},
    {"exp2", 1, TSR_FLOAT16, TSR_FLOAT16, NULL, {0.005523681640625, 0, 0.25, 0, 0.70703125, 0, 1, 0, 1.189453125, 0, 2, 0, 8, 0, INFINITY, 0}},
    {"exp2", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {0.0055242716334760189, 0, 0.25, 0, 0.70710676908493042, 0, 1, 0, 1.1892070770263672, 0, 2, 0, 8, 0, 2.0593001082829418e+30, 0}},
    {"exp2", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {0.0055242717280199029, 0, 0.25, 0, 0.70710678118654757, 0, 1, 0, 1.189207115002721, 0, 2, 0, 8, 0, 2.0593044755556034e+30, 0}},
    {"exp2", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"exp2\" not implemented for 'ComplexFloat'", {0}},
    {"exp2", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"exp2\" not implemented for 'ComplexDouble'", {0}},
    {"exp2", 1, TSR_BOOL, TSR_FLOAT32, NULL, {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 2, 0, 2, 0, 2, 0}},
    {"exp2", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {0.005523681640625, 0, 0.25, 0, 0.70703125, 0, 1, 0, 1.1875, 0, 2, 0, 8, 0, 1.7925371768852306e+30, 0}},
    {"lgamma", 1, TSR_UINT8, TSR_FLOAT32, NULL, {1123.00634765625, 0, 1150.633544921875, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, 0, 0, 0.69314718246459961, 0, 359.13421630859375, 0}},
    {"lgamma", 1, TSR_INT8, TSR_FLOAT32, NULL, {INFINITY, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, 0, 0, 0.69314718246459961, 0, 359.13421630859375, 0}},
    {"lgamma", 1, TSR_INT16, TSR_FLOAT32, NULL, {INFINITY, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, 0, 0, 0.69314718246459961, 0, 359.13421630859375, 0}},
    {"lgamma", 1, TSR_INT32, TSR_FLOAT32, NULL, {INFINITY, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, 0, 0, 0.69314718246459961, 0, 359.13421630859375, 0}},
    {"lgamma", 1, TSR_INT64, TSR_FLOAT32, NULL, {INFINITY, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, 0, 0, 0.69314718246459961, 0, 359.13421630859375, 0}},
    {"lgamma", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"lgamma_vml_cpu\" not implemented for 'Half'", {0}},
    {"lgamma", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-8.4045372009277344, 0, INFINITY, 0, 1.2655121088027954, 0, INFINITY, 0, 1.288022518157959, 0, 0, 0, 0.69314718246459961, 0, 362.35675048828125, 0}},
    {"lgamma", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-8.4045373714515978, 0, INFINITY, 0, 1.2655121234846454, 0, INFINITY, 0, 1.2880225246980774, 0, 0, 0, 0.69314718055994529, 0, 362.35677520343057, 0}},
    {"lgamma", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"lgamma_vml_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"lgamma", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"lgamma_vml_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"lgamma", 1, TSR_BOOL, TSR_FLOAT32, NULL, {INFINITY, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0, 0, 0, 0, 0, 0, 0}},
    {"lgamma", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-8.375, 0, INFINITY, 0, 1.265625, 0, INFINITY, 0, 1.2890625, 0, 0, 0, 0.69140625, 0, 362, 0}},
    {"logit", 1, TSR_UINT8, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"logit", 1, TSR_INT8, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"logit", 1, TSR_INT16, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"logit", 1, TSR_INT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"logit", 1, TSR_INT64, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"logit", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"logit_cpu\" not implemented for 'Half'", {0}},
    {"logit", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {NAN, 0, NAN, 0, NAN, 0, -INFINITY, 0, -1.0986123085021973, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"logit", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {NAN, 0, NAN, 0, NAN, 0, -INFINITY, 0, -1.0986122886681098, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"logit", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"logit_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"logit", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"logit_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"logit", 1, TSR_BOOL, TSR_FLOAT32, NULL, {-INFINITY, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, -INFINITY, 0, INFINITY, 0, INFINITY, 0, INFINITY, 0}},
    {"logit", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {NAN, 0, NAN, 0, NAN, 0, -INFINITY, 0, -1.09375, 0, INFINITY, 0, NAN, 0, NAN, 0}},
    {"relu", 1, TSR_UINT8, TSR_UINT8, NULL, {249, 0, 254, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"relu", 1, TSR_INT8, TSR_INT8, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"relu", 1, TSR_INT16, TSR_INT16, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"relu", 1, TSR_INT32, TSR_INT32, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"relu", 1, TSR_INT64, TSR_INT64, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"relu", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"clamp_min_cpu\" not implemented for 'Half'", {0}},
    {"relu", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0.25, 0, 1, 0, 3, 0, 100.69999694824219, 0}},
    {"relu", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0.25, 0, 1, 0, 3, 0, 100.7, 0}},
    {"relu", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "clamp is not supported for complex types", {0}},
    {"relu", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "clamp is not supported for complex types", {0}},
    {"relu", 1, TSR_BOOL, TSR_DTYPE_UNDEFINED, "Boolean inputs not supported for relu", {0}},
    {"relu", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0.25, 0, 1, 0, 3, 0, 100.5, 0}},
    {"bitwise_not", 1, TSR_UINT8, TSR_UINT8, NULL, {6, 0, 1, 0, 255, 0, 255, 0, 255, 0, 254, 0, 252, 0, 155, 0}},
    {"bitwise_not", 1, TSR_INT8, TSR_INT8, NULL, {6, 0, 1, 0, -1, 0, -1, 0, -1, 0, -2, 0, -4, 0, -101, 0}},
    {"bitwise_not", 1, TSR_INT16, TSR_INT16, NULL, {6, 0, 1, 0, -1, 0, -1, 0, -1, 0, -2, 0, -4, 0, -101, 0}},
    {"bitwise_not", 1, TSR_INT32, TSR_INT32, NULL, {6, 0, 1, 0, -1, 0, -1, 0, -1, 0, -2, 0, -4, 0, -101, 0}},
    {"bitwise_not", 1, TSR_INT64, TSR_INT64, NULL, {6, 0, 1, 0, -1, 0, -1, 0, -1, 0, -2, 0, -4, 0, -101, 0}},
    {"bitwise_not", 1, TSR_FLOAT16, TSR_DTYPE_UNDEFINED, "\"bitwise_not_cpu\" not implemented for 'Half'", {0}},
    {"bitwise_not", 1, TSR_FLOAT32, TSR_DTYPE_UNDEFINED, "\"bitwise_not_cpu\" not implemented for 'Float'", {0}},
    {"bitwise_not", 1, TSR_FLOAT64, TSR_DTYPE_UNDEFINED, "\"bitwise_not_cpu\" not implemented for 'Double'", {0}},
    {"bitwise_not", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"bitwise_not_cpu\" not implemented for 'ComplexFloat'", {0}},
    {"bitwise_not", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"bitwise_not_cpu\" not implemented for 'ComplexDouble'", {0}},
    {"bitwise_not", 1, TSR_BOOL, TSR_BOOL, NULL, {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0}},
    {"bitwise_not", 1, TSR_BFLOAT16, TSR_DTYPE_UNDEFINED, "\"bitwise_not_cpu\" not implemented for 'BFloat16'", {0}},
    {"nan_to_num", 1, TSR_UINT8, TSR_UINT8, NULL, {249, 0, 254, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"nan_to_num", 1, TSR_INT8, TSR_INT8, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"nan_to_num", 1, TSR_INT16, TSR_INT16, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"nan_to_num", 1, TSR_INT32, TSR_INT32, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"nan_to_num", 1, TSR_INT64, TSR_INT64, NULL, {-7, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0}},
    {"nan_to_num", 1, TSR_FLOAT16, TSR_FLOAT16, NULL, {-7.5, 0, -2, 0, -0.5, 0, 0, 0, 0.25, 0, 1, 0, 3, 0, 100.6875, 0}},
    {"nan_to_num", 1, TSR_FLOAT32, TSR_FLOAT32, NULL, {-7.5, 0, -2, 0, -0.5, 0, 0, 0, 0.25, 0, 1, 0, 3, 0, 100.69999694824219, 0}},
    {"nan_to_num", 1, TSR_FLOAT64, TSR_FLOAT64, NULL, {-7.5, 0, -2, 0, -0.5, 0, 0, 0, 0.25, 0, 1, 0, 3, 0, 100.7, 0}},
    {"nan_to_num", 1, TSR_COMPLEX64, TSR_DTYPE_UNDEFINED, "\"nan_to_num\" not implemented for 'ComplexFloat'", {0}},
    {"nan_to_num", 1, TSR_COMPLEX128, TSR_DTYPE_UNDEFINED, "\"nan_to_num\" not implemented for 'ComplexDouble'", {0}},
    {"nan_to_num", 1, TSR_BOOL, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0}},
    {"nan_to_num", 1, TSR_BFLOAT16, TSR_BFLOAT16, NULL, {-7.5, 0, -2, 0, -0.5, 0, 0, 0, 0.25, 0, 1, 0, 3, 0, 100.5, 0}},
    {"isnan", 1, TSR_UINT8, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"isnan", 1, TSR_INT8, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"isnan", 1, TSR_INT16, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"isnan", 1, TSR_INT32, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"isnan", 1, TSR_INT64, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"isnan", 1, TSR_FLOAT16, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"isnan", 1, TSR_FLOAT32, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"isnan", 1, TSR_FLOAT64, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"isnan", 1, TSR_COMPLEX64, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"isnan", 1, TSR_COMPLEX128, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"isnan", 1, TSR_BOOL, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"isnan", 1, TSR_BFLOAT16, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"logical_not", 1, TSR_UINT8, TSR_BOOL, NULL, {0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0}},
    {"logical_not", 1, TSR_INT8, TSR_BOOL, NULL, {0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0}},
    {"logical_not", 1, TSR_INT16, TSR_BOOL, NULL, {0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0}},
    {"logical_not", 1, TSR_INT32, TSR_BOOL, NULL, {0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0}},
    {"logical_not", 1, TSR_INT64, TSR_BOOL, NULL, {0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0}},
    {"logical_not", 1, TSR_FLOAT16, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"logical_not", 1, TSR_FLOAT32, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"logical_not", 1, TSR_FLOAT64, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"logical_not", 1, TSR_COMPLEX64, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"logical_not", 1, TSR_COMPLEX128, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"logical_not", 1, TSR_BOOL, TSR_BOOL, NULL, {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0}},
    {"logical_not", 1, TSR_BFLOAT16, TSR_BOOL, NULL, {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
};

static const double A[8] = {-7.5, -2.0, -0.5, 0.0, 0.25, 1.0, 3.0, 100.7};
static const double B[8] = {2.0, -3.0, 0.75, -1.5, 4.0, 0.5, -2.0, 3.25};

static tsr_tensor *input(tsr_dtype d, int which)
{
    const double *re = which ? B : A, *im = which ? A : B;
    tsr_tensor *t;
    if (tsr_dtype_is_complex(d)) {
        t = tsr_tensor_empty(1, L(8), TSR_COMPLEX128, TSR_CPU);
        for (int k = 0; k < 8; k++) tsr_tensor_set_at(t, k, tsr_scalar_complex(re[k], im[k]));
    } else if (d == TSR_BOOL) {
        t = tsr_tensor_empty(1, L(8), TSR_BOOL, TSR_CPU);
        for (int k = 0; k < 8; k++) tsr_tensor_set_at(t, k, tsr_scalar_bool(re[k] > 0.6));
    } else {
        t = tsr_tensor_empty(1, L(8), TSR_FLOAT64, TSR_CPU);
        for (int k = 0; k < 8; k++) tsr_tensor_set_at(t, k, tsr_scalar_float(re[k]));
    }
    tsr_tensor *r = tsr_to_dtype(t, d, false);
    tsr_tensor_release(t);
    return r;
}

static const struct { const char *name; tsr_binop op; } binmap[] = {
    {"add", TSR_BINOP_ADD}, {"sub", TSR_BINOP_SUB}, {"mul", TSR_BINOP_MUL}, {"div", TSR_BINOP_DIV},
    {"div_trunc", TSR_BINOP_DIV_TRUNC}, {"div_floor", TSR_BINOP_DIV_FLOOR}, {"remainder", TSR_BINOP_REMAINDER},
    {"fmod", TSR_BINOP_FMOD}, {"pow", TSR_BINOP_POW}, {"atan2", TSR_BINOP_ATAN2}, {"hypot", TSR_BINOP_HYPOT},
    {"maximum", TSR_BINOP_MAXIMUM}, {"minimum", TSR_BINOP_MINIMUM}, {"fmax", TSR_BINOP_FMAX},
    {"fmin", TSR_BINOP_FMIN}, {"bitwise_and", TSR_BINOP_BITWISE_AND}, {"bitwise_or", TSR_BINOP_BITWISE_OR},
    {"bitwise_xor", TSR_BINOP_BITWISE_XOR}, {"bitwise_left_shift", TSR_BINOP_LSHIFT},
    {"bitwise_right_shift", TSR_BINOP_RSHIFT},
};
static const struct { const char *name; tsr_cmpop op; } cmpmap[] = {
    {"eq", TSR_CMP_EQ}, {"lt", TSR_CMP_LT}, {"ge", TSR_CMP_GE}, {"logical_and", TSR_CMP_LOGICAL_AND},
    {"logical_xor", TSR_CMP_LOGICAL_XOR},
};

static tsr_tensor *run_case(const num_case *c, const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
    if (c->arity == 2) {
        for (size_t k = 0; k < sizeof binmap / sizeof binmap[0]; k++)
            if (!strcmp(binmap[k].name, c->op)) return tsr_binary(binmap[k].op, &x, &y, NULL, NULL);
        for (size_t k = 0; k < sizeof cmpmap / sizeof cmpmap[0]; k++)
            if (!strcmp(cmpmap[k].name, c->op)) return tsr_compare(cmpmap[k].op, &x, &y, NULL);
        return NULL;
    }
    if (!strcmp(c->op, "isnan")) return tsr_predicate(TSR_PRED_ISNAN, a, NULL);
    if (!strcmp(c->op, "logical_not")) return tsr_predicate(TSR_PRED_LOGICAL_NOT, a, NULL);
    for (int k = 0; k < TSR_UNOP_COUNT; k++)
        if (!strcmp(tsr_unop_name(k), c->op)) return tsr_unary(k, a, NULL, NULL);
    return NULL;
}

/* Ops where 1.13 runs Sleef / its own vectorised code for float32 and the
 * C library can differ in the last bits. */
static int ulp_ok(const char *op, tsr_dtype in)
{
    static const char *const loose[] = {
        "acosh", "asinh", "atanh", "digamma", "erfinv", "exp2",
        "logit", "pow", "atan2", "hypot", "rsqrt", "reciprocal", "div", "sgn", "abs", "sqrt", NULL};
    /* exact for real dtypes on AVX2+FMA CPUs, where tsr calls Sleef as
     * 1.13 does (test_runtime_sleef.c) */
    static const char *const loose_complex[] = {
        "acos", "asin", "atan", "cos", "cosh", "erf", "erfc", "exp", "expm1", "lgamma", "log", "log10",
        "log1p", "log2", "sigmoid", "sin", "sinh", "tan", "tanh", NULL};
    for (int k = 0; loose[k]; k++)
        if (!strcmp(loose[k], op)) return 1;
    int sleef = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    for (int k = 0; (tsr_dtype_is_complex(in) || !sleef) && loose_complex[k]; k++)
        if (!strcmp(loose_complex[k], op)) return 1;
    return 0;
}

static int close_enough(double got, double want, tsr_dtype d, int loose)
{
    if (isnan(want)) return isnan(got);
    if (got == want) return 1;
    if (!loose || tsr_dtype_is_integral(d, true)) return 0;
    double eps = d == TSR_FLOAT64 || d == TSR_COMPLEX128 ? 2.3e-16 : d == TSR_FLOAT16 ? 9.8e-4
               : d == TSR_BFLOAT16 ? 7.9e-3 : 1.2e-7;
    return fabs(got - want) <= 4 * eps * fabs(want) + 1e-300;
}

TEST(iter_numerics_every_dtype)
{
    int total = 0, failed = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const num_case *c = &cases[k];
        tsr_tensor *a = input(c->in, 0), *b = input(c->in, 1);
        tsr_error_clear();
        tsr_tensor *r = run_case(c, a, b);
        total++;
        int ok = 1;
        if (c->err) {
            ok = r == NULL && !strcmp(tsr_error_message(), c->err);
            if (!ok) fprintf(stderr, "  %s(%s): want error \"%s\", got \"%s\"\n", c->op, tsr_dtype_name(c->in), c->err,
                             r ? "a result" : tsr_error_message());
        } else if (!r) {
            ok = 0;
            fprintf(stderr, "  %s(%s): unexpected error \"%s\"\n", c->op, tsr_dtype_name(c->in), tsr_error_message());
        } else if (r->dtype != c->out) {
            ok = 0;
            fprintf(stderr, "  %s(%s): dtype %s, want %s\n", c->op, tsr_dtype_name(c->in), tsr_dtype_name(r->dtype),
                    tsr_dtype_name(c->out));
        } else {
            for (int i = 0; i < 8; i++) {
                double re, im;
                tsr_tensor_get_complex_at(r, i, &re, &im);
                /* 1.13's complex acos/asin/atan use their own formulas (Vectorized<complex>),
                 * glibc's casin/cacos/catan differ by up to ~5e-5 relative (complex64): a known deviation. */
                bool inv_trig = tsr_dtype_is_complex(c->in) && (!strcmp(c->op, "acos") || !strcmp(c->op, "asin") ||
                                                               !strcmp(c->op, "atan"));
                double mag = fabs(c->v[2 * i]) + fabs(c->v[2 * i + 1]);
                if (inv_trig && fabs(re - c->v[2 * i]) <= 1e-4 * mag && fabs(im - c->v[2 * i + 1]) <= 1e-4 * mag) continue;
                if (!close_enough(re, c->v[2 * i], r->dtype, ulp_ok(c->op, c->in)) ||
                    !close_enough(im, c->v[2 * i + 1], r->dtype, ulp_ok(c->op, c->in))) {
                    if (ok) fprintf(stderr, "  %s(%s)[%d]: got %.17g%+.17gj, want %.17g%+.17gj\n", c->op,
                                    tsr_dtype_name(c->in), i, re, im, c->v[2 * i], c->v[2 * i + 1]);
                    ok = 0;
                }
            }
        }
        failed += !ok;
        tsr_tensor_release(r);
        tsr_tensor_release(a);
        tsr_tensor_release(b);
    }
    tsr_error_clear();
    if (failed) fprintf(stderr, "  %d of %d op/dtype cases differ\n", failed, total);
    CHECK_EQ_INT(failed, 0);
}
