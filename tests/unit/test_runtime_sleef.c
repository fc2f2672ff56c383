/* tests/unit/test_runtime_sleef.c — float32/float64 transcendentals are
 * 1.13's AVX2 results: values pasted (as hex) from torch 1.13 where Sleef and
 * glibc's libm differ. vml ops take Sleef on every element (tails, strided
 * rows); sinh, cosh and sigmoid only on whole 2 * Vec::size() chunks of a
 * contiguous row, libm on the rest. Skipped on CPUs without AVX2 and FMA. */
#include <stdio.h>
#include "unit.h"
#include "tsr.h"

#define L(...) ((const int64_t[]){__VA_ARGS__})

/* x; torch.OP(torch.full((19,), x)) at [0] and [18]; OP of a step-2 slice of
 * length 19 at [0]. */
static const struct {
    const char *name;
    tsr_unop op;
    tsr_dtype dtype;
    double x, head, tail, strided;
} rows[] = {
    {"exp", TSR_UNOP_EXP, TSR_FLOAT32, 0x1.4c7ae20000000p+2, 0x1.68bc800000000p+7, 0x1.68bc800000000p+7, 0x1.68bc800000000p+7},
    {"expm1", TSR_UNOP_EXPM1, TSR_FLOAT32, 0x1.06b8520000000p+4, 0x1.9cbabe0000000p+23, 0x1.9cbabe0000000p+23, 0x1.9cbabe0000000p+23},
    {"log", TSR_UNOP_LOG, TSR_FLOAT32, 0x1.76a1620000000p-1, -0x1.3fe1c40000000p-2, -0x1.3fe1c40000000p-2, -0x1.3fe1c40000000p-2},
    {"log2", TSR_UNOP_LOG2, TSR_FLOAT32, 0x1.723d700000000p+4, 0x1.22117c0000000p+2, 0x1.22117c0000000p+2, 0x1.22117c0000000p+2},
    {"log10", TSR_UNOP_LOG10, TSR_FLOAT32, 0x1.40e6660000000p+8, 0x1.40d0b80000000p+1, 0x1.40d0b80000000p+1, 0x1.40d0b80000000p+1},
    {"log1p", TSR_UNOP_LOG1P, TSR_FLOAT32, 0x1.a560420000000p+0, 0x1.f2337e0000000p-1, 0x1.f2337e0000000p-1, 0x1.f2337e0000000p-1},
    {"sin", TSR_UNOP_SIN, TSR_FLOAT32, -0x1.f3f7ce0000000p+2, -0x1.ff8c840000000p-1, -0x1.ff8c840000000p-1, -0x1.ff8c840000000p-1},
    {"cos", TSR_UNOP_COS, TSR_FLOAT32, -0x1.cc28f60000000p+2, 0x1.3b86180000000p-1, 0x1.3b86180000000p-1, 0x1.3b86180000000p-1},
    {"tan", TSR_UNOP_TAN, TSR_FLOAT32, -0x1.064dd20000000p+3, 0x1.6668240000000p+1, 0x1.6668240000000p+1, 0x1.6668240000000p+1},
    {"asin", TSR_UNOP_ASIN, TSR_FLOAT32, -0x1.b2a3060000000p-1, -0x1.038efe0000000p+0, -0x1.038efe0000000p+0, -0x1.038efe0000000p+0},
    {"acos", TSR_UNOP_ACOS, TSR_FLOAT32, 0x1.1a02760000000p-2, 0x1.4ab2ca0000000p+0, 0x1.4ab2ca0000000p+0, 0x1.4ab2ca0000000p+0},
    {"atan", TSR_UNOP_ATAN, TSR_FLOAT32, 0x1.68418a0000000p+2, 0x1.651d5a0000000p+0, 0x1.651d5a0000000p+0, 0x1.651d5a0000000p+0},
    {"tanh", TSR_UNOP_TANH, TSR_FLOAT32, 0x1.19f3b60000000p+3, 0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x1.0000000000000p+0},
    {"erf", TSR_UNOP_ERF, TSR_FLOAT32, 0x1.0703b00000000p-1, 0x1.109e1e0000000p-1, 0x1.109e1e0000000p-1, 0x1.109e1e0000000p-1},
    {"erfc", TSR_UNOP_ERFC, TSR_FLOAT32, 0x1.0106240000000p+2, 0x1.d036860000000p-27, 0x1.d036860000000p-27, 0x1.d036860000000p-27},
    {"lgamma", TSR_UNOP_LGAMMA, TSR_FLOAT32, 0x1.511eb80000000p+6, 0x1.2021f00000000p+8, 0x1.2021f00000000p+8, 0x1.2021f00000000p+8},
    {"exp", TSR_UNOP_EXP, TSR_FLOAT64, 0x1.e7c73eee52589p-2, 0x1.9c34c25c8dfafp+0, 0x1.9c34c25c8dfafp+0, 0x1.9c34c25c8dfafp+0},
    {"expm1", TSR_UNOP_EXPM1, TSR_FLOAT64, 0x1.848c154c985f0p+3, 0x1.6e6a90db9e57bp+17, 0x1.6e6a90db9e57bp+17, 0x1.6e6a90db9e57bp+17},
    {"log", TSR_UNOP_LOG, TSR_FLOAT64, 0x1.3aa425aee6320p+6, 0x1.175e6e35d8804p+2, 0x1.175e6e35d8804p+2, 0x1.175e6e35d8804p+2},
    {"log2", TSR_UNOP_LOG2, TSR_FLOAT64, 0x1.bce52deca2553p-1, -0x1.9f15bbeb54d64p-3, -0x1.9f15bbeb54d64p-3, -0x1.9f15bbeb54d64p-3},
    {"log10", TSR_UNOP_LOG10, TSR_FLOAT64, 0x1.417fbe76c8b44p+8, 0x1.40eb431255e7bp+1, 0x1.40eb431255e7bp+1, 0x1.40eb431255e7bp+1},
    {"log1p", TSR_UNOP_LOG1P, TSR_FLOAT64, 0x1.1ec059210385cp+2, 0x1.b3817bcd8f411p+0, 0x1.b3817bcd8f411p+0, 0x1.b3817bcd8f411p+0},
    {"sin", TSR_UNOP_SIN, TSR_FLOAT64, -0x1.571e8e6080735p+0, -0x1.f275dabee3367p-1, -0x1.f275dabee3367p-1, -0x1.f275dabee3367p-1},
    {"cos", TSR_UNOP_COS, TSR_FLOAT64, 0x1.2e94121b35908p-8, 0x1.fffe9a5e79454p-1, 0x1.fffe9a5e79454p-1, 0x1.fffe9a5e79454p-1},
    {"tan", TSR_UNOP_TAN, TSR_FLOAT64, -0x1.e785c67dfe32ap+1, -0x1.93497df4e2c6cp-1, -0x1.93497df4e2c6cp-1, -0x1.93497df4e2c6cp-1},
    {"asin", TSR_UNOP_ASIN, TSR_FLOAT64, 0x1.77496aad1d042p-1, 0x1.a5385358da2ecp-1, 0x1.a5385358da2ecp-1, 0x1.a5385358da2ecp-1},
    {"acos", TSR_UNOP_ACOS, TSR_FLOAT64, -0x1.e1e646f156191p-1, 0x1.6603caa92248dp+1, 0x1.6603caa92248dp+1, 0x1.6603caa92248dp+1},
    {"atan", TSR_UNOP_ATAN, TSR_FLOAT64, -0x1.8ec4a4095f245p-3, -0x1.89d71feb2876dp-3, -0x1.89d71feb2876dp-3, -0x1.89d71feb2876dp-3},
    {"tanh", TSR_UNOP_TANH, TSR_FLOAT64, -0x1.52788db0574b4p-3, -0x1.4f6c2d3fdacfep-3, -0x1.4f6c2d3fdacfep-3, -0x1.4f6c2d3fdacfep-3},
    {"erf", TSR_UNOP_ERF, TSR_FLOAT64, 0x1.bc8e25c810a57p-1, 0x1.8fa0cf9361ea6p-1, 0x1.8fa0cf9361ea6p-1, 0x1.8fa0cf9361ea6p-1},
    {"erfc", TSR_UNOP_ERFC, TSR_FLOAT64, 0x1.01028a1dfb939p+2, 0x1.d10ea98ddb63dp-27, 0x1.d10ea98ddb63dp-27, 0x1.d10ea98ddb63dp-27},
    {"lgamma", TSR_UNOP_LGAMMA, TSR_FLOAT64, 0x1.512027525460bp+6, 0x1.202385ce07993p+8, 0x1.202385ce07993p+8, 0x1.202385ce07993p+8},
    {"sinh", TSR_UNOP_SINH, TSR_FLOAT32, 0x1.2547ae0000000p+4, 0x1.5c665a0000000p+25, 0x1.5c66580000000p+25, 0x1.5c66580000000p+25},
    {"cosh", TSR_UNOP_COSH, TSR_FLOAT32, 0x1.1ced920000000p+1, 0x1.2bdcc80000000p+2, 0x1.2bdcca0000000p+2, 0x1.2bdcca0000000p+2},
    {"sigmoid", TSR_UNOP_SIGMOID, TSR_FLOAT32, -0x1.3451ec0000000p+4, 0x1.25eace0000000p-28, 0x1.25eacc0000000p-28, 0x1.25eacc0000000p-28},
    {"sinh", TSR_UNOP_SINH, TSR_FLOAT64, 0x1.2558e219652bdp+4, 0x1.5dddbe3be8558p+25, 0x1.5dddbe3be8557p+25, 0x1.5dddbe3be8557p+25},
    {"cosh", TSR_UNOP_COSH, TSR_FLOAT64, 0x1.1cec95bff0457p+1, 0x1.2bda86f52f8c0p+2, 0x1.2bda86f52f8c1p+2, 0x1.2bda86f52f8c1p+2},
    {"sigmoid", TSR_UNOP_SIGMOID, TSR_FLOAT64, -0x1.29815a07b352bp+3, 0x1.808ffee91be39p-14, 0x1.808ffee91be3ap-14, 0x1.808ffee91be3ap-14},
};

static int avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

static double at(const tsr_tensor *t, int64_t i)
{
    tsr_scalar s;
    return tsr_tensor_get_at(t, i, &s) == 0 ? tsr_scalar_to_double(s) : -1.0;
}

static tsr_tensor *filled(tsr_dtype d, int64_t n, double x)
{
    tsr_tensor *t = tsr_tensor_empty(1, L(n), d, TSR_CPU);
    for (int64_t i = 0; i < n; i++) tsr_tensor_set_at(t, i, tsr_scalar_float(x));
    return t;
}

TEST(sleef_rows_match_torch)
{
    if (!avx2()) return;
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        tsr_tensor *c = filled(rows[k].dtype, 19, rows[k].x);
        tsr_tensor *w = filled(rows[k].dtype, 38, rows[k].x);
        tsr_tensor *s = tsr_view_slice(w, 0, 0, 38, 2);
        tsr_tensor *rc = tsr_unary(rows[k].op, c, NULL, NULL);
        tsr_tensor *rs = tsr_unary(rows[k].op, s, NULL, NULL);
        int ok = rc && rs;
        for (int64_t i = 0; ok && i < 19; i++) {
            double want = i < 16 ? rows[k].head : rows[k].tail;  /* 16: 2 * 8 floats, 4 * 2 * 4 doubles */
            ok = at(rc, i) == want && at(rs, i) == rows[k].strided;
        }
        if (!CHECK(ok)) fprintf(stderr, "  %s(%s %a)\n", rows[k].name, tsr_dtype_name(rows[k].dtype), rows[k].x);
        tsr_tensor_release(rc);
        tsr_tensor_release(rs);
        tsr_tensor_release(s);
        tsr_tensor_release(w);
        tsr_tensor_release(c);
    }
}

/* In place, a row of 20 float32 (one chunk of 16, a tail of 4). */
TEST(sleef_inplace_tail)
{
    if (!avx2()) return;
    tsr_tensor *t = filled(TSR_FLOAT32, 20, 18.33);
    tsr_tensor *r = tsr_unary_(TSR_UNOP_SINH, t, NULL);
    CHECK(r == t);
    tsr_tensor_release(r);
    CHECK(at(t, 15) == 0x1.5c665ap+25);
    CHECK(at(t, 16) == 0x1.5c6658p+25 && at(t, 19) == 0x1.5c6658p+25);
    tsr_tensor_release(t);
}
