/* tests/unit/test_runtime_pointwise.c — the pointwise kernels added for 1.13's
 * missing functions, over whole tables: nextafter of every bfloat16 pattern,
 * frexp of every float16 pattern, gcd and lcm of every int8 pair. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "tsr.h"

#define L(...) ((const int64_t[]){__VA_ARGS__})

/* A contiguous 1-d tensor of n 16-bit patterns 0 .. n - 1 of dtype dt. */
static tsr_tensor *patterns16(tsr_dtype dt)
{
    tsr_tensor *t = tsr_tensor_empty(1, L(65536), dt, TSR_CPU);
    uint16_t *p = tsr_tensor_ptr(t, L(0));
    for (int i = 0; i < 65536; i++) p[i] = (uint16_t)i;
    return t;
}

/* musl's nextafter on the 16-bit pattern, as c10/util/BFloat16-math.h does. */
static uint16_t next_bits(uint16_t f, uint16_t t)
{
    if (f == t) return f;
    if (!(f & 0x7fff)) return (t & 0x7fff) ? (uint16_t)((t & 0x8000) | 1) : t;
    return ((f & 0x7fff) > (t & 0x7fff) || ((f ^ t) & 0x8000)) ? (uint16_t)(f - 1) : (uint16_t)(f + 1);
}

TEST(nextafter_bfloat16_every_pattern)
{
    tsr_tensor *x = patterns16(TSR_BFLOAT16);
    const uint16_t targets[2] = {0x7f80, 0xff80};   /* +inf, -inf */
    for (int k = 0; k < 2; k++) {
        tsr_tensor *to = tsr_tensor_empty(0, NULL, TSR_BFLOAT16, TSR_CPU);
        *(uint16_t *)tsr_tensor_ptr(to, NULL) = targets[k];
        tsr_operand a = tsr_operand_tensor(x), b = tsr_operand_tensor(to);
        tsr_tensor *r = tsr_binary(TSR_BINOP_NEXTAFTER, &a, &b, NULL, NULL);
        if (!CHECK(r != NULL)) return;
        const uint16_t *o = tsr_tensor_ptr(r, L(0));
        int bad = 0;
        for (int i = 0; i < 65536; i++) {
            bool nan = (i & 0x7f80) == 0x7f80 && (i & 0x7f);
            if (nan ? (o[i] & 0x7f80) != 0x7f80 || !(o[i] & 0x7f) : o[i] != next_bits((uint16_t)i, targets[k])) bad++;
        }
        CHECK_EQ_INT(bad, 0);
        tsr_tensor_release(r);
        tsr_tensor_release(to);
    }
    tsr_tensor_release(x);
}

TEST(frexp_float16_every_pattern)
{
    tsr_tensor *x = patterns16(TSR_FLOAT16), *e = NULL;
    tsr_tensor *m = tsr_frexp(x, NULL, NULL, &e);
    if (!CHECK(m && e)) return;
    CHECK_EQ_INT(m->dtype, TSR_FLOAT16);
    CHECK_EQ_INT(e->dtype, TSR_INT32);
    int bad = 0;
    for (int i = 0; i < 65536; i++) {
        double v = tsr_tensor_get_double_at(x, i), mv = tsr_tensor_get_double_at(m, i);
        int64_t ev = (int64_t)tsr_tensor_get_double_at(e, i);
        if (!isfinite(v)) {
            bad += !(isnan(v) ? isnan(mv) : mv == v);
            continue;
        }
        bool ok = ldexp(mv, (int)ev) == v && (v == 0 ? mv == 0 && ev == 0 : fabs(mv) >= 0.5 && fabs(mv) < 1);
        bad += !ok;
    }
    CHECK_EQ_INT(bad, 0);
    tsr_tensor_release(m);
    tsr_tensor_release(e);
    tsr_tensor_release(x);
}

/* calc_gcd and lcm's abs(a / g * b) in int8_t with C++'s promotions. */
static int8_t gcd8(int8_t a, int8_t b)
{
    a = (int8_t)abs(a);
    b = (int8_t)abs(b);
    while (a != 0) { int8_t c = a; a = (int8_t)(b % a); b = c; }
    return b;
}

TEST(gcd_lcm_int8_every_pair)
{
    tsr_tensor *a = tsr_tensor_empty(2, L(256, 256), TSR_INT8, TSR_CPU);
    tsr_tensor *b = tsr_tensor_empty(2, L(256, 256), TSR_INT8, TSR_CPU);
    int8_t *pa = tsr_tensor_ptr(a, L(0, 0)), *pb = tsr_tensor_ptr(b, L(0, 0));
    for (int i = 0; i < 65536; i++) {
        pa[i] = (int8_t)(i >> 8);
        pb[i] = (int8_t)(i & 0xff);
    }
    tsr_operand oa = tsr_operand_tensor(a), ob = tsr_operand_tensor(b);
    tsr_tensor *g = tsr_binary(TSR_BINOP_GCD, &oa, &ob, NULL, NULL), *l = tsr_binary(TSR_BINOP_LCM, &oa, &ob, NULL, NULL);
    if (!CHECK(g && l)) return;
    const int8_t *pg = tsr_tensor_ptr(g, L(0, 0)), *pl = tsr_tensor_ptr(l, L(0, 0));
    int bad = 0;
    for (int i = 0; i < 65536; i++) {
        int8_t x = pa[i], y = pb[i], gg = gcd8(x, y);
        int8_t ll = gg == 0 ? 0 : (int8_t)abs(x / gg * y);
        if (pg[i] != gg || pl[i] != ll) {
            if (bad++ < 3) printf("    gcd/lcm(%d, %d) = %d, %d; want %d, %d\n", x, y, pg[i], pl[i], gg, ll);
        }
    }
    CHECK_EQ_INT(bad, 0);
    tsr_tensor_release(g);
    tsr_tensor_release(l);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
}

/* The ATen-name index: every named descriptor of the binary and unary tables
 * is found under its own ATen name, name-only ops too, and runs through the
 * one entry as through its family's. */
TEST(op_find_and_run_by_aten_name)
{
    for (int i = 0; tsr_binary_op_at(i); i++) {
        const tsr_op *op = tsr_binary_op_at(i);
        const tsr_op *f = tsr_op_find(op->aten);
        CHECK(f != NULL && !strcmp(f->aten, op->aten));
    }
    for (int i = 0; tsr_unary_op_at(i); i++) CHECK(tsr_op_find(tsr_unary_op_at(i)->aten) != NULL);
    CHECK(tsr_op_find("no_such_op") == NULL);
    const tsr_op *angle = tsr_op_find("angle"), *lae = tsr_op_find("logaddexp");
    if (!CHECK(angle && lae)) return;
    tsr_tensor *x = tsr_tensor_empty(1, L(3), TSR_INT32, TSR_CPU);
    int32_t *p = tsr_tensor_ptr(x, L(0));
    p[0] = -2; p[1] = 0; p[2] = 5;
    tsr_operand in[2] = {tsr_operand_tensor(x), tsr_operand_scalar(tsr_scalar_float(1.0))};
    tsr_tensor *r = tsr_op_run(angle, in, NULL, false);
    if (CHECK(r != NULL)) {
        CHECK_EQ_INT(r->dtype, TSR_FLOAT32);
        const float *o = tsr_tensor_ptr(r, L(0));
        CHECK(o[0] == (float)M_PI && o[1] == 0 && o[2] == 0);
        tsr_tensor_release(r);
    }
    in[1] = tsr_operand_scalar(tsr_scalar_int(1));
    r = tsr_op_run(lae, in, NULL, false);   /* logaddexp is float-only: "logaddexp_cpu" not implemented for 'Int' */
    CHECK(r == NULL && tsr_error_kind() == TSR_ERR_RUNTIME && strstr(tsr_error_message(), "logaddexp_cpu"));
    tsr_error_clear();
    tsr_tensor_release(x);
}
