/* tests/unit/test_runtime_special.c — the torch.special descriptors
 * (runtime/ops/special.h) and values pasted (as hex) from torch 1.13 where
 * the FMA contraction of its AVX2 build or a C++ overload (BFloat16's log,
 * c10::pi<BFloat16>) decides the last bits. The value rows are skipped on
 * CPUs without AVX2 and FMA. */
#include <stdio.h>
#include "unit.h"
#include "tsr.h"
#include "ops/sleef.h"

TEST(special_descriptors_have_a_kernel_per_listed_dtype)
{
    for (int op = 0; op < TSR_SPECIAL_COUNT; op++) {
        const tsr_op *d = tsr_special_desc((tsr_special_op)op);
        CHECK(d != NULL && d->name && d->kname && d->kname[0]);
        CHECK_EQ_INT(d->arity, tsr_special_is_binary((tsr_special_op)op) ? 2 : 1);
        for (int dt = 0; dt < TSR_DTYPE_SLOTS; dt++)
            if (d->cpu_dtypes & TSR_OP_DTYPE_BIT(dt)) CHECK(tsr_op_kernel(d, (tsr_dtype)dt) != NULL);
        /* none of them runs on integers, bool or complex32 */
        CHECK(!(d->cpu_dtypes & (TSR_OP_DTYPE_BIT(TSR_INT64) | TSR_OP_DTYPE_BIT(TSR_BOOL) |
                                 TSR_OP_DTYPE_BIT(TSR_COMPLEX32))));
    }
    CHECK(tsr_special_desc(TSR_SPECIAL_COUNT) == NULL);
    CHECK_STR(tsr_polygamma_desc(0)->kname, "digamma");
    CHECK_STR(tsr_polygamma_desc(1)->kname, "trigamma");
    CHECK_STR(tsr_polygamma_desc(7)->kname, "polygamma");
}

static const struct {
    tsr_special_op op;
    tsr_dtype dtype;
    int nargs;
    double a, b, want;
} rows[] = {
    {TSR_SPECIAL_ERFCX, TSR_FLOAT32, 1, -0x1.6666660000000p-1, 0x0.0p+0, 0x1.5e8dca0000000p+1},
    {TSR_SPECIAL_ERFCX, TSR_FLOAT64, 1, 0x1.a666666666666p+1, 0x0.0p+0, 0x1.4fe30edb0c76bp-3},
    {TSR_SPECIAL_NDTRI, TSR_FLOAT64, 1, 0x1.3333333333333p-2, 0x0.0p+0, -0x1.0c7e39582c5fcp-1},
    {TSR_SPECIAL_LOG_NDTR, TSR_FLOAT32, 1, -0x1.b333340000000p+1, 0x0.0p+0, -0x1.ffb8880000000p+2},
    {TSR_SPECIAL_IGAMMA, TSR_FLOAT32, 2, 0x1.4000000000000p+1, 0x1.0000000000000p+2, 0x1.b001e20000000p-1},
    {TSR_SPECIAL_IGAMMAC, TSR_FLOAT64, 2, 0x1.9000000000000p+4, 0x1.8000000000000p+4, 0x1.1ba60c613fa7dp-1},
    {TSR_SPECIAL_ZETA, TSR_FLOAT32, 2, 0x1.8000000000000p+1, 0x1.0000000000000p+1, 0x1.9dd0020000000p-3},
    {TSR_SPECIAL_CHEBYSHEV_T, TSR_FLOAT32, 2, 0x1.6666660000000p-2, 0x1.4000000000000p+2, 0x1.f3fc660000000p-1},
    {TSR_SPECIAL_LEGENDRE_P, TSR_FLOAT64, 2, 0x1.8a3d70a3d70a4p-1, 0x1.8000000000000p+2, -0x1.553fa424742e5p-2},
    {TSR_SPECIAL_LAGUERRE_L, TSR_FLOAT32, 2, 0x1.4ccccc0000000p+0, 0x1.0000000000000p+2, -0x1.e714120000000p-2},
    {TSR_SPECIAL_XLOGY, TSR_BFLOAT16, 2, 0x1.b400000000000p+0, 0x1.a600000000000p+1, 0x1.0400000000000p+1},
    {TSR_SPECIAL_SINC, TSR_BFLOAT16, 1, 0x1.0000000000000p+0, 0x0.0p+0, 0x1.4400000000000p-12},
};

TEST(special_values_are_torch_113s)
{
    if (!tsr__sleef_usable()) return;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        tsr_tensor *a = tsr_full(0, NULL, tsr_scalar_float(rows[i].a), rows[i].dtype, TSR_CPU);
        tsr_tensor *b = tsr_full(0, NULL, tsr_scalar_float(rows[i].b), rows[i].dtype, TSR_CPU), *r;
        if (rows[i].nargs == 1) {
            r = tsr_special_unary(rows[i].op, a, NULL);
        } else {
            tsr_operand x = tsr_operand_tensor(a), y = tsr_operand_tensor(b);
            r = tsr_special_binary(rows[i].op, &x, &y, NULL);
        }
        tsr_scalar s = {0};
        CHECK(r != NULL && tsr_tensor_get_at(r, 0, &s) == 0);
        if (!unit_check(tsr_scalar_to_double(s) == rows[i].want, "value == torch 1.13's", __FILE__, __LINE__))
            fprintf(stderr, "  row %zu (%s): %a, want %a\n", i, tsr_special_desc(rows[i].op)->name,
                    tsr_scalar_to_double(s), rows[i].want);
        tsr_tensor_release(a);
        tsr_tensor_release(b);
        tsr_tensor_release(r);
    }
}

TEST(special_polygamma_and_mvlgamma_refuse_their_arguments)
{
    tsr_tensor *x = tsr_full(0, NULL, tsr_scalar_float(1.5), TSR_FLOAT32, TSR_CPU);
    CHECK(tsr_polygamma(-1, x, NULL, false) == NULL);
    CHECK_STR(tsr_error_message(), "polygamma(n, x) does not support negative n.");
    tsr_error_clear();
    CHECK(tsr_mvlgamma(x, 0, NULL, false) == NULL);
    CHECK_STR(tsr_error_message(), "p has to be greater than or equal to 1");
    tsr_error_clear();
    tsr_tensor_release(x);
}
