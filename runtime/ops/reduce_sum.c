/* runtime/ops/reduce_sum.c — 1.13's cascade sum (aten/src/ATen/native/cpu/
 * SumKernel.cpp) for the float and complex dtypes, ported with AVX2's vector
 * widths (Vectorized<float> holds 8, <double> 4, <Half>/<BFloat16> 16) so
 * that lane for lane the same additions happen in the same order: each
 * output's partial sums are accumulated into the output, in its dtype.
 * Ctrl-C is polled once per chunk of the cascade's first level. */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "../dtype.h"
#include "../error.h"
#include "../internal.h"
#include "reduce_sum.h"

/* CeilLog2 of ATen/native/cpu/utils.h */
static int64_t ceil_log2(int64_t x)
{
    if (x <= 2) return 1;
    return (63 - __builtin_clzll((uint64_t)x - 1)) + 1;
}

/* multi_row_sum<acc, NR, Load>: NR rows of L lanes at once, in up to four
 * levels of chunks. LD(p, v) loads L lanes from p. */
#define DEF_MRS(name, A, L, NR, LD)                                                                      \
    static void name(const char *in, int64_t row_stride, int64_t col_stride, int64_t size, A ret[NR][L]) \
    {                                                                                                    \
        const int64_t level_power = ceil_log2(size) / 4 > 4 ? ceil_log2(size) / 4 : 4;                  \
        const int64_t level_step = (int64_t)1 << level_power, level_mask = level_step - 1;              \
        A acc[4][NR][L];                                                                                 \
        memset(acc, 0, sizeof acc);                                                                      \
        int64_t i = 0;                                                                                   \
        for (; i + level_step <= size;) {                                                                \
            for (int64_t j = 0; j < level_step; ++j, ++i) {                                              \
                const char *base = in + i * row_stride;                                                  \
                for (int k = 0; k < NR; k++) {                                                           \
                    A v[L];                                                                              \
                    LD(base + k * col_stride, v);                                                        \
                    for (int l = 0; l < L; l++) acc[0][k][l] += v[l];                                    \
                }                                                                                        \
            }                                                                                            \
            for (int j = 1; j < 4; ++j) {                                                                \
                for (int k = 0; k < NR; k++)                                                             \
                    for (int l = 0; l < L; l++) {                                                        \
                        acc[j][k][l] += acc[j - 1][k][l];                                                \
                        acc[j - 1][k][l] = 0;                                                            \
                    }                                                                                    \
                if ((i & (level_mask << (j * level_power))) != 0) break;                                 \
            }                                                                                            \
            if (tsr_interrupted) { /* the walk reports it; the sum is dropped */                         \
                memset(ret, 0, sizeof(A) * NR * L);                                                      \
                return;                                                                                  \
            }                                                                                            \
        }                                                                                                \
        for (; i < size; ++i) {                                                                          \
            const char *base = in + i * row_stride;                                                      \
            for (int k = 0; k < NR; k++) {                                                               \
                A v[L];                                                                                  \
                LD(base + k * col_stride, v);                                                            \
                for (int l = 0; l < L; l++) acc[0][k][l] += v[l];                                        \
            }                                                                                            \
        }                                                                                                \
        for (int j = 1; j < 4; ++j)                                                                      \
            for (int k = 0; k < NR; k++)                                                                 \
                for (int l = 0; l < L; l++) acc[0][k][l] += acc[j][k][l];                                \
        memcpy(ret, acc[0], sizeof(A) * NR * L);                                                         \
    }

/* row_sum<acc, Load>: a row as (-1, 4) partial sums, then the tail. */
#define DEF_ROWSUM(name, mrs, A, L, LD)                                                \
    static void name(const char *in, int64_t in_stride, int64_t size, A out[L])       \
    {                                                                                  \
        const int64_t size_ilp = size / 4;                                             \
        A part[4][L];                                                                  \
        mrs(in, in_stride * 4, in_stride, size_ilp, part);                             \
        for (int64_t i = size_ilp * 4; i < size; ++i) {                                \
            A v[L];                                                                    \
            LD(in + i * in_stride, v);                                                 \
            for (int l = 0; l < L; l++) part[0][l] += v[l];                            \
        }                                                                              \
        for (int k = 1; k < 4; k++)                                                    \
            for (int l = 0; l < L; l++) part[0][l] += part[k][l];                      \
        memcpy(out, part[0], sizeof(A) * L);                                           \
    }

/* The outer reduction's groups of 4 * W columns (multi_row_sum<4> over the
 * reduced dim, one group after the other in 1.13) walked together instead:
 * each group keeps its own four cascade levels, and the rows are taken a
 * level step (16 at least) at a time for up to OB_GROUPS groups, so the
 * matrix is read in row blocks that stay in cache instead of column strips
 * that touch a page per row. Per group the additions are those of
 * multi_row_sum, in its order: the sums are bit-identical. Returns the
 * number of columns done (whole groups). */
#define OB_GROUPS 64
#define DEF_OUTER_BLOCKED(name, A, W, LO, ADD)                                                           \
    static int64_t name(char *out, int64_t out_stride, const char *in, int64_t row_stride, int64_t size,   \
                        int64_t ncols, int64_t esize)                                                     \
    {                                                                                                    \
        const int64_t level_power = ceil_log2(size) / 4 > 4 ? ceil_log2(size) / 4 : 4;                  \
        const int64_t level_step = (int64_t)1 << level_power, level_mask = level_step - 1;              \
        const int64_t ngroups = ncols / (4 * W);                                                         \
        A st[OB_GROUPS][4][4][W];                                                                        \
        for (int64_t g0 = 0; g0 < ngroups; g0 += OB_GROUPS) {                                            \
            const int64_t ng = ngroups - g0 < OB_GROUPS ? ngroups - g0 : OB_GROUPS;                      \
            memset(st, 0, sizeof st);                                                                    \
            int64_t i = 0;                                                                               \
            for (; i + level_step <= size; i += level_step) {                                            \
                for (int64_t g = 0; g < ng; g++) {                                                       \
                    const char *col = in + (g0 + g) * 4 * W * esize;                                     \
                    A a0[4][W];                                                                          \
                    memcpy(a0, st[g][0], sizeof a0);                                                     \
                    for (int64_t r = i; r < i + level_step; r++)                                         \
                        for (int k = 0; k < 4; k++) {                                                    \
                            A v[W];                                                                      \
                            LO(col + r * row_stride + k * W * esize, v);                                 \
                            for (int l = 0; l < W; l++) a0[k][l] += v[l];                                \
                        }                                                                                \
                    memcpy(st[g][0], a0, sizeof a0);                                                     \
                    for (int j = 1; j < 4; ++j) {                                                        \
                        for (int k = 0; k < 4; k++)                                                      \
                            for (int l = 0; l < W; l++) {                                                \
                                st[g][j][k][l] += st[g][j - 1][k][l];                                    \
                                st[g][j - 1][k][l] = 0;                                                  \
                            }                                                                            \
                        if (((i + level_step) & (level_mask << (j * level_power))) != 0) break;          \
                    }                                                                                    \
                }                                                                                        \
                if (tsr_interrupted) return ncols; /* the walk reports it; the sum is dropped */        \
            }                                                                                            \
            for (int64_t g = 0; g < ng; g++) {                                                           \
                const char *col = in + (g0 + g) * 4 * W * esize;                                         \
                for (int64_t r = i; r < size; r++)                                                       \
                    for (int k = 0; k < 4; k++) {                                                        \
                        A v[W];                                                                          \
                        LO(col + r * row_stride + k * W * esize, v);                                     \
                        for (int l = 0; l < W; l++) st[g][0][k][l] += v[l];                              \
                    }                                                                                    \
                for (int j = 1; j < 4; ++j)                                                              \
                    for (int k = 0; k < 4; k++)                                                          \
                        for (int l = 0; l < W; l++) st[g][0][k][l] += st[g][j][k][l];                    \
                for (int k = 0; k < 4; k++)                                                              \
                    for (int l = 0; l < W; l++)                                                          \
                        ADD(out + ((g0 + g) * 4 * W + k * W + l) * out_stride, st[g][0][k][l]);          \
            }                                                                                            \
        }                                                                                                \
        return ngroups * 4 * W;                                                                          \
    }

/* One dtype: T storage, A accumulator, W lanes of Vectorized<acc>, VN the
 * elements of one Vectorized<T> load, LS/LI/LO the scalar, inner-vector and
 * outer-vector load policies, ADD(p, a) the CastStoreAccumulate store. */
#define DEF_CASCADE(sfx, T, A, W, VN, LS, LI, LO, ADD)                                                       \
    DEF_MRS(mrs_s_##sfx, A, 1, 4, LS)                                                                        \
    DEF_ROWSUM(row_s_##sfx, mrs_s_##sfx, A, 1, LS)                                                           \
    DEF_MRS(mrs_i_##sfx, A, W, 4, LI)                                                                        \
    DEF_ROWSUM(row_i_##sfx, mrs_i_##sfx, A, W, LI)                                                           \
    DEF_MRS(mrs_o_##sfx, A, W, 4, LO)                                                                        \
    DEF_ROWSUM(row_o_##sfx, mrs_o_##sfx, A, W, LO)                                                           \
    DEF_OUTER_BLOCKED(ob_##sfx, A, W, LO, ADD)                                                               \
    static void cascade_##sfx(char **data, const int64_t *strides, int64_t size0, int64_t size1, void *ctx)  \
    {                                                                                                        \
        (void)ctx;                                                                                           \
        int64_t in_s[2] = {strides[1], strides[3]}, out_s[2] = {strides[0], strides[2]};                     \
        if (out_s[0] != 0 && out_s[1] == 0) {                                                                \
            int64_t t = in_s[0]; in_s[0] = in_s[1]; in_s[1] = t;                                             \
            t = out_s[0]; out_s[0] = out_s[1]; out_s[1] = t;                                                 \
            t = size0; size0 = size1; size1 = t;                                                             \
        }                                                                                                    \
        if (out_s[0] != 0 && out_s[1] != 0) { /* not a true reduction */                                     \
            for (int64_t j = 0; j < size1; j++)                                                              \
                for (int64_t i = 0; i < size0; i++) {                                                        \
                    char *o = data[0] + j * strides[2] + i * strides[0];                                     \
                    A v[1];                                                                                  \
                    LS(data[1] + j * strides[3] + i * strides[1], v);                                        \
                    ADD(o, v[0]);                                                                            \
                }                                                                                            \
            return;                                                                                          \
        }                                                                                                    \
        const int64_t out_stride = out_s[1];                                                                 \
        if (in_s[0] == (int64_t)sizeof(T) && size0 >= VN) {                                                  \
            const int64_t vec_size = size0 / VN;                                                             \
            for (int64_t j = 0; j < size1; j++) {                                                            \
                const char *row = data[1] + j * in_s[1];                                                     \
                A vacc[W];                                                                                   \
                row_i_##sfx(row, VN * (int64_t)sizeof(T), vec_size, vacc);                                   \
                A fin = 0;                                                                                   \
                for (int64_t k = vec_size * VN; k < size0; k++) {                                            \
                    A v[1];                                                                                  \
                    LS(row + k * (int64_t)sizeof(T), v);                                                     \
                    fin += v[0];                                                                             \
                }                                                                                            \
                for (int k = 0; k < W; k++) fin += vacc[k];                                                  \
                ADD(data[0] + j * out_stride, fin);                                                          \
            }                                                                                                \
        } else if (in_s[1] == (int64_t)sizeof(T) && size1 >= VN) {                                           \
            int64_t j = ob_##sfx(data[0], out_stride, data[1], in_s[0], size0, size1, (int64_t)sizeof(T));   \
            for (; j + 4 * W <= size1; j += 4 * W) {                                                         \
                A sums[4][W];                                                                                \
                mrs_o_##sfx(data[1] + j * (int64_t)sizeof(T), in_s[0], W * (int64_t)sizeof(T), size0, sums); \
                for (int i = 0; i < 4; i++)                                                                  \
                    for (int l = 0; l < W; l++) ADD(data[0] + (j + i * W + l) * out_stride, sums[i][l]);     \
            }                                                                                                \
            for (; j + W <= size1; j += W) {                                                                 \
                A sums[W];                                                                                   \
                row_o_##sfx(data[1] + j * (int64_t)sizeof(T), in_s[0], size0, sums);                         \
                for (int l = 0; l < W; l++) ADD(data[0] + (j + l) * out_stride, sums[l]);                    \
            }                                                                                                \
            for (; j < size1; j++) {                                                                         \
                A s[1];                                                                                      \
                row_s_##sfx(data[1] + j * (int64_t)sizeof(T), in_s[0], size0, s);                            \
                ADD(data[0] + j * out_stride, s[0]);                                                         \
            }                                                                                                \
        } else if (in_s[0] < in_s[1]) {                                                                      \
            for (int64_t j = 0; j < size1; j++) {                                                            \
                A s[1];                                                                                      \
                row_s_##sfx(data[1] + j * in_s[1], in_s[0], size0, s);                                       \
                ADD(data[0] + j * out_stride, s[0]);                                                         \
            }                                                                                                \
        } else {                                                                                             \
            int64_t j = 0;                                                                                   \
            for (; j + 3 < size1; j += 4) {                                                                  \
                A sums[4][1];                                                                                \
                mrs_s_##sfx(data[1] + j * in_s[1], in_s[0], in_s[1], size0, sums);                           \
                for (int k = 0; k < 4; k++) ADD(data[0] + (j + k) * out_stride, sums[k][0]);                 \
            }                                                                                                \
            for (; j < size1; j++) {                                                                         \
                A s[1];                                                                                      \
                row_s_##sfx(data[1] + j * in_s[1], in_s[0], size0, s);                                       \
                ADD(data[0] + j * out_stride, s[0]);                                                         \
            }                                                                                                \
        }                                                                                                    \
    }

/* ---- loads (NAN: nansum's masking policies) ---- */
#define NZ(x) (isnan(x) ? 0 : (x))
#define LS_PLAIN(T, p, v) { v[0] = *(const T *)(p); }
#define LV_PLAIN(T, W, p, v) { const T *q = (const T *)(p); for (int l = 0; l < W; l++) v[l] = q[l]; }

#define LS_f32(p, v) LS_PLAIN(float, p, v)
#define LV_f32(p, v) LV_PLAIN(float, 8, p, v)
#define LS_f64(p, v) LS_PLAIN(double, p, v)
#define LV_f64(p, v) LV_PLAIN(double, 4, p, v)
#define LS_c64(p, v) LS_PLAIN(float _Complex, p, v)
#define LV_c64(p, v) LV_PLAIN(float _Complex, 4, p, v)
#define LS_c128(p, v) LS_PLAIN(double _Complex, p, v)
#define LV_c128(p, v) LV_PLAIN(double _Complex, 2, p, v)
#define LS_f16(p, v) { v[0] = tsr_half_to_float(*(const tsr_half *)(p)); }
/* load_reduce_vec: lane l = (0 + h[2l]) + h[2l+1] */
#define LI_f16(p, v) { const tsr_half *q = (const tsr_half *)(p); \
    for (int l = 0; l < 8; l++) v[l] = (0.0f + tsr_half_to_float(q[2 * l])) + tsr_half_to_float(q[2 * l + 1]); }
#define LO_f16(p, v) { const tsr_half *q = (const tsr_half *)(p); for (int l = 0; l < 8; l++) v[l] = tsr_half_to_float(q[l]); }
#define LS_bf16(p, v) { v[0] = tsr_bfloat16_to_float(*(const tsr_bfloat16 *)(p)); }
/* load_fp32_from_bf16(first, second): lane l = b[l] + b[l+8] */
#define LI_bf16(p, v) { const tsr_bfloat16 *q = (const tsr_bfloat16 *)(p); \
    for (int l = 0; l < 8; l++) v[l] = tsr_bfloat16_to_float(q[l]) + tsr_bfloat16_to_float(q[l + 8]); }
#define LO_bf16(p, v) { const tsr_bfloat16 *q = (const tsr_bfloat16 *)(p); \
    for (int l = 0; l < 8; l++) v[l] = tsr_bfloat16_to_float(q[l]); }

#define NLS_f32(p, v) { float x = *(const float *)(p); v[0] = NZ(x); }
#define NLV_f32(p, v) { const float *q = (const float *)(p); for (int l = 0; l < 8; l++) v[l] = NZ(q[l]); }
#define NLS_f64(p, v) { double x = *(const double *)(p); v[0] = NZ(x); }
#define NLV_f64(p, v) { const double *q = (const double *)(p); for (int l = 0; l < 4; l++) v[l] = NZ(q[l]); }
#define NLS_f16(p, v) { float x = tsr_half_to_float(*(const tsr_half *)(p)); v[0] = NZ(x); }
#define NLI_f16(p, v) { const tsr_half *q = (const tsr_half *)(p); for (int l = 0; l < 8; l++) { \
    float a = 0.0f, b0 = tsr_half_to_float(q[2 * l]), b1 = tsr_half_to_float(q[2 * l + 1]); \
    a = isnan(b0) ? a : a + b0; a = isnan(b1) ? a : a + b1; v[l] = a; } }
#define NLO_f16(p, v) { const tsr_half *q = (const tsr_half *)(p); \
    for (int l = 0; l < 8; l++) { float x = tsr_half_to_float(q[l]); v[l] = NZ(x); } }

#define NLS_bf16(p, v) { float x = tsr_bfloat16_to_float(*(const tsr_bfloat16 *)(p)); v[0] = NZ(x); }
/* nansum's inner load is load_reduce_vec for bfloat16 too (pairs, as half) */
#define NLI_bf16(p, v) { const tsr_bfloat16 *q = (const tsr_bfloat16 *)(p); for (int l = 0; l < 8; l++) { \
    float a = 0.0f, b0 = tsr_bfloat16_to_float(q[2 * l]), b1 = tsr_bfloat16_to_float(q[2 * l + 1]); \
    a = isnan(b0) ? a : a + b0; a = isnan(b1) ? a : a + b1; v[l] = a; } }
#define NLO_bf16(p, v) { const tsr_bfloat16 *q = (const tsr_bfloat16 *)(p); \
    for (int l = 0; l < 8; l++) { float x = tsr_bfloat16_to_float(q[l]); v[l] = NZ(x); } }

/* CastStoreAccumulate: *out += value, in the output's dtype; c10::Half has
 * only Half += Half, so the float partial is rounded to 16 bits first
 * (1.13 has no float buffer for these yet: pytorch#83149 came later). */
#define ADD_PLAIN(T, o, a) { *(T *)(o) += (a); }
#define ADD_f32(o, a) ADD_PLAIN(float, o, a)
#define ADD_f64(o, a) ADD_PLAIN(double, o, a)
#define ADD_c64(o, a) ADD_PLAIN(float _Complex, o, a)
#define ADD_c128(o, a) ADD_PLAIN(double _Complex, o, a)
#define ADD_f16(o, a) { *(tsr_half *)(o) = tsr_float_to_half(tsr_half_to_float(*(tsr_half *)(o)) + \
    tsr_half_to_float(tsr_float_to_half(a))); }
#define ADD_bf16(o, a) { *(tsr_bfloat16 *)(o) = tsr_float_to_bfloat16(tsr_bfloat16_to_float(*(tsr_bfloat16 *)(o)) + \
    tsr_bfloat16_to_float(tsr_float_to_bfloat16(a))); }

DEF_CASCADE(f32, float, float, 8, 8, LS_f32, LV_f32, LV_f32, ADD_f32)
DEF_CASCADE(f64, double, double, 4, 4, LS_f64, LV_f64, LV_f64, ADD_f64)
DEF_CASCADE(c64, float _Complex, float _Complex, 4, 4, LS_c64, LV_c64, LV_c64, ADD_c64)
DEF_CASCADE(c128, double _Complex, double _Complex, 2, 2, LS_c128, LV_c128, LV_c128, ADD_c128)
DEF_CASCADE(f16, tsr_half, float, 8, 16, LS_f16, LI_f16, LO_f16, ADD_f16)
DEF_CASCADE(bf16, tsr_bfloat16, float, 8, 16, LS_bf16, LI_bf16, LO_bf16, ADD_bf16)
DEF_CASCADE(nf32, float, float, 8, 8, NLS_f32, NLV_f32, NLV_f32, ADD_f32)
DEF_CASCADE(nf64, double, double, 4, 4, NLS_f64, NLV_f64, NLV_f64, ADD_f64)
DEF_CASCADE(nf16, tsr_half, float, 8, 16, NLS_f16, NLI_f16, NLO_f16, ADD_f16)
DEF_CASCADE(nbf16, tsr_bfloat16, float, 8, 16, NLS_bf16, NLI_bf16, NLO_bf16, ADD_bf16)

/* nansum's "not a true reduction" adds a_notnan + b_notnan: the output
 * starts at zero and the input is masked, which the NLS loads do. */

/* The float and double cascades again for AVX2 (Vectorized<float>'s own
 * width, so that one 8-lane accumulator is one register): only additions,
 * in the same order, so the sums are those of the baseline build. */
#if TSR_AVX2_BUILD
#pragma GCC push_options
#pragma GCC target("avx2")
DEF_CASCADE(f32_avx2, float, float, 8, 8, LS_f32, LV_f32, LV_f32, ADD_f32)
DEF_CASCADE(f64_avx2, double, double, 4, 4, LS_f64, LV_f64, LV_f64, ADD_f64)
DEF_CASCADE(nf32_avx2, float, float, 8, 8, NLS_f32, NLV_f32, NLV_f32, ADD_f32)
DEF_CASCADE(nf64_avx2, double, double, 4, 4, NLS_f64, NLV_f64, NLV_f64, ADD_f64)
#pragma GCC pop_options
#endif

static const rloop2d sum_loops[TSR_DTYPE_SLOTS] = {
    [TSR_FLOAT32] = cascade_f32, [TSR_FLOAT64] = cascade_f64, [TSR_FLOAT16] = cascade_f16,
    [TSR_BFLOAT16] = cascade_bf16, [TSR_COMPLEX64] = cascade_c64, [TSR_COMPLEX128] = cascade_c128,
};
static const rloop2d nansum_loops[TSR_DTYPE_SLOTS] = {
    [TSR_FLOAT32] = cascade_nf32, [TSR_FLOAT64] = cascade_nf64, [TSR_FLOAT16] = cascade_nf16,
    [TSR_BFLOAT16] = cascade_nbf16,
};

rloop2d reduce_sum_loop(tsr_dtype d, bool nan)
{
    if (!tsr_dtype_valid(d)) return NULL;
#if TSR_AVX2_BUILD
    if ((d == TSR_FLOAT32 || d == TSR_FLOAT64) && tsr__cpu_avx2()) {
        if (d == TSR_FLOAT32) return nan ? cascade_nf32_avx2 : cascade_f32_avx2;
        return nan ? cascade_nf64_avx2 : cascade_f64_avx2;
    }
#endif
    return nan ? nansum_loops[d] : sum_loops[d];
}
