/* tests/unit/test_runtime_promote.c — promote_types (all 13×13 cells),
 * result_type over every (dtype, tier) pair under both default dtypes, and
 * can_cast over every pair, against tables pasted from torch 1.13 (generated
 * by a script running torch.promote_types / result_type / can_cast), plus the
 * explanation record. */
#include <stdio.h>
#include "unit.h"
#include "tsr.h"

#define u1 TSR_UINT8
#define i1 TSR_INT8
#define i2 TSR_INT16
#define i4 TSR_INT32
#define i8 TSR_INT64
#define f2 TSR_FLOAT16
#define f4 TSR_FLOAT32
#define f8 TSR_FLOAT64
#define c2 TSR_COMPLEX32
#define c4 TSR_COMPLEX64
#define c8 TSR_COMPLEX128
#define b1 TSR_BOOL
#define bf TSR_BFLOAT16
/* promote_types over the 13 dtypes in ScalarType order (rows a, columns b), from torch 1.13 */
static const tsr_dtype oracle_promote[13][13] = {
    {u1, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, u1, bf},
    {i2, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i1, bf},
    {i2, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, i2, bf},
    {i4, i4, i4, i4, i8, f2, f4, f8, c2, c4, c8, i4, bf},
    {i8, i8, i8, i8, i8, f2, f4, f8, c2, c4, c8, i8, bf},
    {f2, f2, f2, f2, f2, f2, f4, f8, c2, c4, c8, f2, f4},
    {f4, f4, f4, f4, f4, f4, f4, f8, c4, c4, c8, f4, f4},
    {f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, c8, f8, f8},
    {c2, c2, c2, c2, c2, c2, c4, c8, c2, c4, c8, c2, c4},
    {c4, c4, c4, c4, c4, c4, c4, c8, c4, c4, c8, c4, c4},
    {c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf},
    {bf, bf, bf, bf, bf, f4, f4, f8, c4, c4, c8, bf, bf},
};
/* can_cast(from=row, to=column) */
static const unsigned char oracle_can_cast[13][13] = {
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1},
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1},
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1},
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1},
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1},
    {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 1},
    {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 1},
    {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 1},
    {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0},
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
    {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 1},
};
/* result_type(op_i, op_j) with default dtype f32; operands: 13 dimensioned tensors, 13 zero-dim tensors, then Python bool/int/float/complex */
static const tsr_dtype oracle_result_f32[30][30] = {
    {u1, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, u1, bf, u1, u1, u1, u1, u1, f2, f4, f8, c2, c4, c8, u1, bf, u1, u1, f4, c4},
    {i2, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i1, bf, i1, i1, i1, i1, i1, f2, f4, f8, c2, c4, c8, i1, bf, i1, i1, f4, c4},
    {i2, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, i2, bf, i2, i2, i2, i2, i2, f2, f4, f8, c2, c4, c8, i2, bf, i2, i2, f4, c4},
    {i4, i4, i4, i4, i8, f2, f4, f8, c2, c4, c8, i4, bf, i4, i4, i4, i4, i4, f2, f4, f8, c2, c4, c8, i4, bf, i4, i4, f4, c4},
    {i8, i8, i8, i8, i8, f2, f4, f8, c2, c4, c8, i8, bf, i8, i8, i8, i8, i8, f2, f4, f8, c2, c4, c8, i8, bf, i8, i8, f4, c4},
    {f2, f2, f2, f2, f2, f2, f4, f8, c2, c4, c8, f2, f4, f2, f2, f2, f2, f2, f2, f2, f2, c2, c2, c2, f2, f2, f2, f2, f2, c2},
    {f4, f4, f4, f4, f4, f4, f4, f8, c4, c4, c8, f4, f4, f4, f4, f4, f4, f4, f4, f4, f4, c4, c4, c4, f4, f4, f4, f4, f4, c4},
    {f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, c8, f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, c8, f8, f8, f8, f8, f8, c8},
    {c2, c2, c2, c2, c2, c2, c4, c8, c2, c4, c8, c2, c4, c2, c2, c2, c2, c2, c2, c2, c2, c2, c2, c2, c2, c2, c2, c2, c2, c2},
    {c4, c4, c4, c4, c4, c4, c4, c8, c4, c4, c8, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4},
    {c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf, u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf, b1, i8, f4, c4},
    {bf, bf, bf, bf, bf, f4, f4, f8, c4, c4, c8, bf, bf, bf, bf, bf, bf, bf, bf, bf, bf, c4, c4, c4, bf, bf, bf, bf, bf, c4},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, u1, bf, u1, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, u1, bf, u1, u1, f4, c4},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i1, bf, i2, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i1, bf, i1, i1, f4, c4},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i2, bf, i2, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, i2, bf, i2, i2, f4, c4},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i4, bf, i4, i4, i4, i4, i8, f2, f4, f8, c2, c4, c8, i4, bf, i4, i4, f4, c4},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i8, bf, i8, i8, i8, i8, i8, f2, f4, f8, c2, c4, c8, i8, bf, i8, i8, f4, c4},
    {f2, f2, f2, f2, f2, f2, f4, f8, c2, c4, c8, f2, bf, f2, f2, f2, f2, f2, f2, f4, f8, c2, c4, c8, f2, f4, f2, f2, f2, c2},
    {f4, f4, f4, f4, f4, f2, f4, f8, c2, c4, c8, f4, bf, f4, f4, f4, f4, f4, f4, f4, f8, c4, c4, c8, f4, f4, f4, f4, f4, c4},
    {f8, f8, f8, f8, f8, f2, f4, f8, c2, c4, c8, f8, bf, f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, c8, f8, f8, f8, f8, f8, c8},
    {c2, c2, c2, c2, c2, c2, c4, c8, c2, c4, c8, c2, c4, c2, c2, c2, c2, c2, c2, c4, c8, c2, c4, c8, c2, c4, c2, c2, c2, c2},
    {c4, c4, c4, c4, c4, c2, c4, c8, c2, c4, c8, c4, c4, c4, c4, c4, c4, c4, c4, c4, c8, c4, c4, c8, c4, c4, c4, c4, c4, c4},
    {c8, c8, c8, c8, c8, c2, c4, c8, c2, c4, c8, c8, c4, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf, u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf, b1, i8, f4, c4},
    {bf, bf, bf, bf, bf, f2, f4, f8, c2, c4, c8, bf, bf, bf, bf, bf, bf, bf, f4, f4, f8, c4, c4, c8, bf, bf, bf, bf, bf, c4},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf, u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf, b1, i8, f4, c4},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i8, bf, u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i8, bf, i8, i8, f4, c4},
    {f4, f4, f4, f4, f4, f2, f4, f8, c2, c4, c8, f4, bf, f4, f4, f4, f4, f4, f2, f4, f8, c2, c4, c8, f4, bf, f4, f4, f4, c4},
    {c4, c4, c4, c4, c4, c2, c4, c8, c2, c4, c8, c4, c4, c4, c4, c4, c4, c4, c2, c4, c8, c2, c4, c8, c4, c4, c4, c4, c4, c4},
};
/* result_type(op_i, op_j) with default dtype f64; operands: 13 dimensioned tensors, 13 zero-dim tensors, then Python bool/int/float/complex */
static const tsr_dtype oracle_result_f64[30][30] = {
    {u1, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, u1, bf, u1, u1, u1, u1, u1, f2, f4, f8, c2, c4, c8, u1, bf, u1, u1, f8, c8},
    {i2, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i1, bf, i1, i1, i1, i1, i1, f2, f4, f8, c2, c4, c8, i1, bf, i1, i1, f8, c8},
    {i2, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, i2, bf, i2, i2, i2, i2, i2, f2, f4, f8, c2, c4, c8, i2, bf, i2, i2, f8, c8},
    {i4, i4, i4, i4, i8, f2, f4, f8, c2, c4, c8, i4, bf, i4, i4, i4, i4, i4, f2, f4, f8, c2, c4, c8, i4, bf, i4, i4, f8, c8},
    {i8, i8, i8, i8, i8, f2, f4, f8, c2, c4, c8, i8, bf, i8, i8, i8, i8, i8, f2, f4, f8, c2, c4, c8, i8, bf, i8, i8, f8, c8},
    {f2, f2, f2, f2, f2, f2, f4, f8, c2, c4, c8, f2, f4, f2, f2, f2, f2, f2, f2, f2, f2, c2, c2, c2, f2, f2, f2, f2, f2, c2},
    {f4, f4, f4, f4, f4, f4, f4, f8, c4, c4, c8, f4, f4, f4, f4, f4, f4, f4, f4, f4, f4, c4, c4, c4, f4, f4, f4, f4, f4, c4},
    {f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, c8, f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, c8, f8, f8, f8, f8, f8, c8},
    {c2, c2, c2, c2, c2, c2, c4, c8, c2, c4, c8, c2, c4, c2, c2, c2, c2, c2, c2, c2, c2, c2, c2, c2, c2, c2, c2, c2, c2, c2},
    {c4, c4, c4, c4, c4, c4, c4, c8, c4, c4, c8, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4, c4},
    {c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf, u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf, b1, i8, f8, c8},
    {bf, bf, bf, bf, bf, f4, f4, f8, c4, c4, c8, bf, bf, bf, bf, bf, bf, bf, bf, bf, bf, c4, c4, c4, bf, bf, bf, bf, bf, c4},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, u1, bf, u1, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, u1, bf, u1, u1, f8, c8},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i1, bf, i2, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i1, bf, i1, i1, f8, c8},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i2, bf, i2, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, i2, bf, i2, i2, f8, c8},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i4, bf, i4, i4, i4, i4, i8, f2, f4, f8, c2, c4, c8, i4, bf, i4, i4, f8, c8},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i8, bf, i8, i8, i8, i8, i8, f2, f4, f8, c2, c4, c8, i8, bf, i8, i8, f8, c8},
    {f2, f2, f2, f2, f2, f2, f4, f8, c2, c4, c8, f2, bf, f2, f2, f2, f2, f2, f2, f4, f8, c2, c4, c8, f2, f4, f2, f2, f2, c2},
    {f4, f4, f4, f4, f4, f2, f4, f8, c2, c4, c8, f4, bf, f4, f4, f4, f4, f4, f4, f4, f8, c4, c4, c8, f4, f4, f4, f4, f4, c4},
    {f8, f8, f8, f8, f8, f2, f4, f8, c2, c4, c8, f8, bf, f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, c8, f8, f8, f8, f8, f8, c8},
    {c2, c2, c2, c2, c2, c2, c4, c8, c2, c4, c8, c2, c4, c2, c2, c2, c2, c2, c2, c4, c8, c2, c4, c8, c2, c4, c2, c2, c2, c2},
    {c4, c4, c4, c4, c4, c2, c4, c8, c2, c4, c8, c4, c4, c4, c4, c4, c4, c4, c4, c4, c8, c4, c4, c8, c4, c4, c4, c4, c4, c4},
    {c8, c8, c8, c8, c8, c2, c4, c8, c2, c4, c8, c8, c4, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf, u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf, b1, i8, f8, c8},
    {bf, bf, bf, bf, bf, f2, f4, f8, c2, c4, c8, bf, bf, bf, bf, bf, bf, bf, f4, f4, f8, c4, c4, c8, bf, bf, bf, bf, bf, c4},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf, u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf, b1, i8, f8, c8},
    {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i8, bf, u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i8, bf, i8, i8, f8, c8},
    {f8, f8, f8, f8, f8, f2, f4, f8, c2, c4, c8, f8, bf, f8, f8, f8, f8, f8, f2, f4, f8, c2, c4, c8, f8, bf, f8, f8, f8, c8},
    {c8, c8, c8, c8, c8, c2, c4, c8, c2, c4, c8, c8, c4, c8, c8, c8, c8, c8, c2, c4, c8, c2, c4, c8, c8, c4, c8, c8, c8, c8},
};

static const tsr_dtype dense[13] = {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf};

TEST(promote_types_table)
{
    for (int a = 0; a < 13; a++)
        for (int b = 0; b < 13; b++)
            if (!CHECK_EQ_INT(tsr_promote_types(dense[a], dense[b]), oracle_promote[a][b]))
                fprintf(stderr, "  promote_types(%s, %s)\n", tsr_dtype_name(dense[a]), tsr_dtype_name(dense[b]));
    tsr_error_clear();
    CHECK_EQ_INT(tsr_promote_types_checked(TSR_DTYPE_UNDEFINED, TSR_FLOAT32), TSR_DTYPE_UNDEFINED);
    CHECK_STR(tsr_error_message(), "Promotion from Undefined and Float is unsupported.");
    tsr_error_clear();
}

TEST(promote_can_cast_table)
{
    for (int a = 0; a < 13; a++)
        for (int b = 0; b < 13; b++)
            if (!CHECK_EQ_INT(tsr_can_cast(dense[a], dense[b]), oracle_can_cast[a][b]))
                fprintf(stderr, "  can_cast(%s, %s)\n", tsr_dtype_name(dense[a]), tsr_dtype_name(dense[b]));
}

/* Operand k of the 30 kinds the tables use. */
static tsr_operand operand(int k, tsr_tensor **hold)
{
    static const int64_t two[1] = {2};
    *hold = NULL;
    if (k < 26) {
        tsr_dtype d = dense[k % 13];
        *hold = tsr_zeros(k < 13 ? 1 : 0, two, d, TSR_CPU);
        return tsr_operand_tensor(*hold);
    }
    switch (k - 26) {
    case 0: return tsr_operand_scalar(tsr_scalar_bool(true));
    case 1: return tsr_operand_scalar(tsr_scalar_int(3));
    case 2: return tsr_operand_scalar(tsr_scalar_float(2.5));
    default: return tsr_operand_scalar(tsr_scalar_complex(0, 1));
    }
}

static void check_result_table(const tsr_dtype table[30][30], const char *dflt)
{
    for (int i = 0; i < 30; i++)
        for (int j = 0; j < 30; j++) {
            tsr_tensor *ha, *hb;
            tsr_operand ops[2] = {operand(i, &ha), operand(j, &hb)};
            tsr_promotion ex;
            tsr_dtype r = tsr_result_type(2, ops, &ex);
            if (!CHECK_EQ_INT(r, table[i][j]))
                fprintf(stderr, "  default %s: result_type(op %d, op %d)\n", dflt, i, j);
            CHECK_EQ_INT(ex.result, r);
            CHECK(ex.deciding_operand >= 0 && ex.deciding_operand < 2);
            tsr_tensor_release(ha);
            tsr_tensor_release(hb);
        }
}

TEST(promote_result_type_tiers)
{
    check_result_table(oracle_result_f32, "float32");
    CHECK_EQ_INT(tsr_set_default_dtype(TSR_FLOAT64), 0);
    check_result_table(oracle_result_f64, "float64");
    tsr_set_default_dtype(TSR_FLOAT32);
}

TEST(promote_explain)
{
    static const int64_t one[1] = {1};
    tsr_tensor *i32 = tsr_zeros(1, one, TSR_INT32, TSR_CPU), *f16 = tsr_zeros(1, one, TSR_FLOAT16, TSR_CPU);
    tsr_tensor *z64 = tsr_zeros(0, NULL, TSR_FLOAT64, TSR_CPU), *b = tsr_zeros(1, one, TSR_BOOL, TSR_CPU);
    tsr_promotion ex;
    /* i32 + 5: the scalar is not of a higher category */
    tsr_operand o1[2] = {tsr_operand_tensor(i32), tsr_operand_scalar(tsr_scalar_int(5))};
    CHECK_EQ_INT(tsr_result_type(2, o1, &ex), TSR_INT32);
    CHECK_EQ_INT(ex.rule, TSR_RULE_HIGHER_TIER);
    CHECK_EQ_INT(ex.deciding_tier, TSR_TIER_DIM);
    CHECK_EQ_INT(ex.deciding_operand, 0);
    /* i32 + 5.0: float scalar takes the default dtype and wins by category */
    tsr_operand o2[2] = {tsr_operand_tensor(i32), tsr_operand_scalar(tsr_scalar_float(5))};
    CHECK_EQ_INT(tsr_result_type(2, o2, &ex), TSR_FLOAT32);
    CHECK_EQ_INT(ex.rule, TSR_RULE_LOWER_CATEGORY);
    CHECK_EQ_INT(ex.deciding_tier, TSR_TIER_WRAPPED);
    CHECK_EQ_INT(ex.deciding_operand, 1);
    CHECK(ex.scalar_defaulted);
    /* f16 + 1j → complex32 */
    tsr_operand o3[2] = {tsr_operand_tensor(f16), tsr_operand_scalar(tsr_scalar_complex(0, 1))};
    CHECK_EQ_INT(tsr_result_type(2, o3, &ex), TSR_COMPLEX32);
    CHECK_EQ_INT(ex.rule, TSR_RULE_TO_COMPLEX);
    CHECK(ex.complex32);
    /* i32 + zero-dim float64 → float64 from the zero-dim tier */
    tsr_operand o4[2] = {tsr_operand_tensor(i32), tsr_operand_tensor(z64)};
    CHECK_EQ_INT(tsr_result_type(2, o4, &ex), TSR_FLOAT64);
    CHECK_EQ_INT(ex.deciding_tier, TSR_TIER_ZERO_DIM);
    CHECK_EQ_INT(ex.deciding_operand, 1);
    /* b + 5 → int64: bool higher tier promoted */
    tsr_operand o5[2] = {tsr_operand_tensor(b), tsr_operand_scalar(tsr_scalar_int(5))};
    CHECK_EQ_INT(tsr_result_type(2, o5, &ex), TSR_INT64);
    CHECK_EQ_INT(ex.rule, TSR_RULE_BOOL_PROMOTED);
    /* i32 + i32 (one tier) */
    tsr_operand o6[2] = {tsr_operand_tensor(i32), tsr_operand_tensor(i32)};
    CHECK_EQ_INT(tsr_result_type(2, o6, &ex), TSR_INT32);
    CHECK_EQ_INT(ex.rule, TSR_RULE_SAME_TIER);
    CHECK_EQ_INT(ex.tier_count[TSR_TIER_DIM], 2);
    CHECK_EQ_INT(tsr_result_type(0, NULL, &ex), TSR_DTYPE_UNDEFINED);
    CHECK_EQ_INT(ex.rule, TSR_RULE_NONE);
    for (int r = 0; r < TSR_RULE_COUNT; r++) CHECK(tsr_promo_rule_text(r)[0] != '?');
    CHECK_STR(tsr_tier_name(TSR_TIER_ZERO_DIM), "zero-dim tensor");
    CHECK_STR(tsr_category_name(TSR_CAT_FLOATING), "floating");
    tsr_tensor_release(i32);
    tsr_tensor_release(f16);
    tsr_tensor_release(z64);
    tsr_tensor_release(b);
}
