/* tests/unit/test_runtime_conj.c — the math bits (conjugate, negative) on
 * the runtime's bit-aware paths: the iterator resolving them in its cast
 * buffers (chunks, broadcast scalars, mixed dtypes, out= into a conj view),
 * copy_, element access, clone/resolve, and the views that keep the bit. */
#include <complex.h>
#include <stdio.h>
#include "unit.h"
#include "tsr.h"

#define L(...) ((const int64_t[]){__VA_ARGS__})
#define N 1300   /* more than two of the iterator's 512-element cast buffers */

/* x[k] = k + (2k - 7)i in complex64 (exact in float32). */
static tsr_tensor *ramp(void)
{
    tsr_tensor *x = tsr_tensor_empty(1, L(N), TSR_COMPLEX64, TSR_CPU);
    for (int64_t k = 0; k < N; k++) tsr_tensor_set_at(x, k, tsr_scalar_complex((double)k, 2.0 * k - 7));
    return x;
}

/* Every element of t equals re(k) + im(k) i. */
static int all_are(const tsr_tensor *t, double (*re)(int64_t), double (*im)(int64_t))
{
    for (int64_t k = 0; k < tsr_tensor_numel(t); k++) {
        double a, b;
        tsr_tensor_get_complex_at(t, k, &a, &b);
        if (a != re(k) || b != im(k)) {
            fprintf(stderr, "  element %lld: %g%+gi, expected %g%+gi\n", (long long)k, a, b, re(k), im(k));
            return 0;
        }
    }
    return 1;
}

static double id(int64_t k) { return (double)k; }
static double neg_im(int64_t k) { return -(2.0 * k - 7); }
static double im(int64_t k) { return 2.0 * k - 7; }
static double twice(int64_t k) { return 2.0 * k; }
static double zero(int64_t k) { (void)k; return 0; }
static double id_plus1(int64_t k) { return k + 1.0; }
static double minus_one(int64_t k) { (void)k; return -1; }

TEST(conj_view_shares_and_reads_conjugates)
{
    tsr_tensor *x = ramp(), *y = tsr_conj(x);
    CHECK(y && y->conj && !x->conj);
    CHECK(y->storage == x->storage);
    CHECK(all_are(y, id, neg_im));      /* element access applies the bit */
    tsr_tensor *z = tsr_conj(y);        /* conj of conj: a view with the bit clear */
    CHECK(!z->conj && z->storage == x->storage && all_are(z, id, im));
    tsr_tensor *v = tsr_view_narrow(y, 0, 3, 10);   /* views keep it */
    CHECK(v->conj);
    tsr_tensor_release(v);
    tsr_tensor_release(z);
    tsr_tensor_release(y);
    tsr_tensor_release(x);
}

TEST(conj_iterator_loads_resolved)
{
    tsr_tensor *x = ramp(), *y = tsr_conj(x);
    tsr_operand a = tsr_operand_tensor(y), b = tsr_operand_tensor(x);
    tsr_tensor *r = tsr_binary(TSR_BINOP_ADD, &a, &b, NULL, NULL);   /* conj(x) + x = 2 re(x) */
    CHECK(r && !r->conj && all_are(r, twice, zero));
    tsr_tensor_release(r);
    /* a mixed dtype: the conj input is cast to complex128 in the buffer, then conjugated */
    tsr_tensor *one = tsr_full(1, L(N), tsr_scalar_float(1), TSR_FLOAT64, TSR_CPU);
    tsr_operand c = tsr_operand_tensor(one);
    r = tsr_binary(TSR_BINOP_ADD, &a, &c, NULL, NULL);
    CHECK(r && r->dtype == TSR_COMPLEX128 && all_are(r, id_plus1, neg_im));
    tsr_tensor_release(r);
    /* a broadcast 0-dim conj input, of the compute dtype and of another */
    tsr_tensor *s = tsr_full(0, NULL, tsr_scalar_complex(0, 1), TSR_COMPLEX64, TSR_CPU), *sc = tsr_conj(s);
    tsr_operand d = tsr_operand_tensor(sc), e = tsr_operand_tensor(one);
    r = tsr_binary(TSR_BINOP_ADD, &e, &d, NULL, NULL);   /* 1 + conj(i) */
    CHECK(r != NULL);
    for (int64_t k = 0; r && k < N; k++) {
        double re, imv;
        tsr_tensor_get_complex_at(r, k, &re, &imv);
        if (re != 1 || imv != -1) { CHECK(0); break; }
    }
    tsr_tensor_release(r);
    tsr_tensor_release(sc);
    tsr_tensor_release(s);
    tsr_tensor_release(one);
    tsr_tensor_release(y);
    tsr_tensor_release(x);
}

TEST(conj_iterator_writes_conjugated)
{
    tsr_tensor *x = ramp(), *base = tsr_zeros(1, L(N), TSR_COMPLEX64, TSR_CPU), *z = tsr_conj(base);
    tsr_operand a = tsr_operand_tensor(x), b = tsr_operand_scalar(tsr_scalar_int(0));
    tsr_tensor *r = tsr_binary(TSR_BINOP_ADD, &a, &b, z, NULL);   /* add(x, 0, out=z) */
    CHECK(r == z);
    CHECK(all_are(z, id, im) && all_are(base, id, neg_im));
    tsr_tensor_release(r);
    /* in place on a conj view: z += z reads and writes through the bit */
    tsr_operand zz = tsr_operand_tensor(z);
    r = tsr_binary_(TSR_BINOP_ADD, z, &zz, NULL);
    CHECK(r == z);
    for (int64_t k = 0; k < N; k++) {
        double re, imv;
        tsr_tensor_get_complex_at(base, k, &re, &imv);
        if (re != 2.0 * k || imv != -2 * (2.0 * k - 7)) { CHECK(0); break; }
    }
    tsr_tensor_release(r);
    tsr_tensor_release(z);
    tsr_tensor_release(base);
    tsr_tensor_release(x);
}

TEST(conj_copy_clone_resolve)
{
    tsr_tensor *x = ramp(), *y = tsr_conj(x);
    tsr_tensor *w = tsr_zeros(1, L(N), TSR_COMPLEX128, TSR_CPU);
    CHECK(tsr_copy_(w, y) == 0 && all_are(w, id, neg_im));     /* copy_ out of a conj view */
    tsr_tensor *c = tsr_clone(y, TSR_MF_PRESERVE);                /* clone resolves (1.13) */
    CHECK(!c->conj && c->storage != x->storage && all_are(c, id, neg_im));
    tsr_tensor *r = tsr_resolve_conj(y);
    CHECK(!r->conj && r->storage != x->storage && all_are(r, id, neg_im));
    tsr_tensor *same = tsr_resolve_conj(x);
    CHECK(same == x);
    CHECK(tsr_copy_(x, y) == 0 && all_are(x, id, neg_im));     /* x.copy_(x.conj()): same memory */
    tsr_tensor_release(same);
    tsr_tensor_release(r);
    tsr_tensor_release(c);
    tsr_tensor_release(w);
    tsr_tensor_release(y);
    tsr_tensor_release(x);
}

TEST(neg_bit_of_imag)
{
    tsr_tensor *x = ramp(), *y = tsr_conj(x), *i = tsr_view_imag(y), *re = tsr_view_real(y);
    CHECK(i->neg && !i->conj && !re->neg && !re->conj);
    tsr_operand a = tsr_operand_tensor(i), b = tsr_operand_scalar(tsr_scalar_int(0));
    tsr_tensor *r = tsr_binary(TSR_BINOP_ADD, &a, &b, NULL, NULL);
    for (int64_t k = 0; r && k < N; k++)
        if (tsr_tensor_get_double_at(r, k) != neg_im(k)) { CHECK(0); break; }
    CHECK(tsr_fill_(i, tsr_scalar_int(5)) == 0);
    double re0, im0;
    tsr_tensor_get_complex_at(x, 0, &re0, &im0);
    CHECK(tsr_tensor_get_double_at(i, 0) == 5 && im0 == -5);   /* fill_ stores through the bit */
    tsr_tensor *m1 = tsr_full(1, L(N), tsr_scalar_float(-1), TSR_FLOAT32, TSR_CPU);
    CHECK(tsr_copy_(i, m1) == 0);           /* the values of y.imag become -1: x's imag holds -1 */
    CHECK(all_are(y, id, minus_one));
    tsr_tensor_release(m1);
    tsr_tensor_release(r);
    tsr_tensor_release(re);
    tsr_tensor_release(i);
    tsr_tensor_release(y);
    tsr_tensor_release(x);
}

TEST(conj_view_as_real_refused)
{
    tsr_tensor *x = ramp(), *y = tsr_conj(x);
    CHECK(tsr_view_as_real(y) == NULL);
    CHECK(tsr_error_kind() == TSR_ERR_RUNTIME);
    tsr_error_clear();
    tsr_tensor_release(y);
    tsr_tensor_release(x);
}
