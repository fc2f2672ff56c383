/* runtime/ops/fft_ipass.h — the vector form of fft_row.h for one line, one
 * precision (R, with RI the integer of its width and RLANES lanes in 32
 * bytes) and one direction FWD: RLANES / 2 neighbouring complex values in
 * one vector, interleaved (r0, i0, r1, i1, ...) as they lie in memory.
 * Each operation gives in every lane the bits of the scalar operation of
 * fft_pass.h: the same operands in the same order, sums and differences
 * taken as such and blended (never a difference as the sum of a negation,
 * which differs in the sign of zero and of NaN), negation as a sign flip. */

#define IV FN(rvec)
#define IM FN(rmask)
#define IF(name) FCAT(FCAT(FN(name), _iv), FCAT(_, FWD))

#if RLANES == 8
#define IM_EVEN 0, 0, 2, 2, 4, 4, 6, 6
#define IM_ODD 1, 1, 3, 3, 5, 5, 7, 7
#define IM_SWAP 1, 0, 3, 2, 5, 4, 7, 6
#define IM_BLEND 0, 9, 2, 11, 4, 13, 6, 15
#define IM_FIRST 0, 1, 10, 11, 12, 13, 14, 15
#define IM_SIGNODD {0, INT32_MIN, 0, INT32_MIN, 0, INT32_MIN, 0, INT32_MIN}
#define IM_SIGNEVEN {INT32_MIN, 0, INT32_MIN, 0, INT32_MIN, 0, INT32_MIN, 0}
#define IM_SIGNALL {INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN}
#else
#define IM_EVEN 0, 0, 2, 2
#define IM_ODD 1, 1, 3, 3
#define IM_SWAP 1, 0, 3, 2
#define IM_BLEND 0, 5, 2, 7
#define IM_FIRST 0, 1, 6, 7
#define IM_SIGNODD {0, INT64_MIN, 0, INT64_MIN}
#define IM_SIGNEVEN {INT64_MIN, 0, INT64_MIN, 0}
#define IM_SIGNALL {INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN}
#endif

static inline IV IF(ld)(const CX *p) { IV v; memcpy(&v, p, sizeof v); return v; }
static inline void IF(st)(CX *p, IV v) { memcpy(p, &v, sizeof v); }
static inline IV IF(add)(IV a, IV b) { return a + b; }
static inline IV IF(sub)(IV a, IV b) { return a - b; }
/* even lanes (real parts) of a, odd lanes (imaginary parts) of b */
static inline IV IF(blend)(IV a, IV b) { return __builtin_shufflevector(a, b, IM_BLEND); }
static inline IV IF(swap)(IV a) { return __builtin_shufflevector(a, a, IM_SWAP); }
static inline IV IF(flip)(IV a, IM sign) { return (IV)((IM)a ^ sign); }

/* v * conj(w) forward, v * w backward (PF(smul)) */
static inline IV IF(smul)(IV v, IV w)
{
    IV a = v * __builtin_shufflevector(w, w, IM_EVEN), b = IF(swap)(v) * __builtin_shufflevector(w, w, IM_ODD);
    /* a = (v.r w.r, v.i w.r), b = (v.i w.i, v.r w.i) */
    return FWD ? IF(blend)(a + b, a - b) : IF(blend)(a - b, b + a);
}
static inline IV IF(r90)(IV a)
{
    const IM so = IM_SIGNODD, se = IM_SIGNEVEN;
    return IF(flip)(IF(swap)(a), FWD ? so : se);
}
static inline IV IF(r45)(IV a)
{
    const R h = (R)0.707106781186547524400844362104849L;
    IV s = IF(swap)(a);
    return h * (FWD ? IF(blend)(a + s, a - s) : IF(blend)(a - s, a + s));
}
static inline IV IF(r135)(IV a)
{
    const R h = (R)0.707106781186547524400844362104849L;
    const IM sa = IM_SIGNALL;
    IV s = IF(swap)(a);
    /* forward (a.i - a.r, -a.r - a.i); backward (-a.r - a.i, a.r - a.i) */
    return h * (FWD ? IF(blend)(s - a, IF(flip)(s, sa) - a) : IF(blend)(IF(flip)(a, sa) - s, s - a));
}

static inline IV IF(smulz)(IV v, IV w) { return __builtin_shufflevector(v, IF(smul)(v, w), IM_FIRST); }

#define RT IV
#define RL(p) IF(ld)(p)
#define RST(p, v) IF(st)((p), (v))
#define RSTEP ((size_t)RLANES / 2)
#define RADD IF(add)
#define RSUB IF(sub)
#define R90 IF(r90)
#define R45 IF(r45)
#define R135 IF(r135)
/* the first RSTEP outputs (i = 0 ..) of a row: output 0 has no twiddle,
 * and its lane keeps the value before the product (the twiddles given
 * have something finite in lane 0) */
#define RROW(name) FCAT(IF(name), z)
#define RLW(p) IF(ld)(p)
#define RSMUL IF(smulz)
#include "fft_row.h"
#define RROW(name) IF(name)
#define RLW(p) IF(ld)(p)
#define RSMUL IF(smul)
#include "fft_row.h"
#undef RT
#undef RL
#undef RST
#undef RSTEP
#undef RADD
#undef RSUB
#undef R90
#undef R45
#undef R135

/* every row k of a pass whose ido is a multiple of RSTEP, output 0 in
 * vectors too (cc, ch, wa: the pass's arrays) */
#define ROWSK(ip)                                                                                          \
    static void IF(FCAT(rowsk, ip))(size_t ido, size_t l1, const CX *cc, CX *ch, const CX *wa)              \
    {                                                                                                      \
        const size_t vw = RLANES / 2;                                                                      \
        CX zt[(ip - 1) * (RLANES / 2)];                                                                    \
        for (size_t x = 0; x + 1 < ip; x++) {                                                              \
            zt[x * vw].r = 1; zt[x * vw].i = 0;                                                            \
            memcpy(zt + x * vw + 1, wa + x * (ido - 1), (vw - 1) * sizeof(CX));                            \
        }                                                                                                  \
        for (size_t k = 0; k < l1; k++) {                                                                  \
            const CX *c = cc + ido * ip * k;                                                               \
            CX *h = ch + ido * k;                                                                          \
            FCAT(IF(FCAT(row, ip)), z)(vw, c, ido, h, ido * l1, zt, vw);                                   \
            if (ido > vw) IF(FCAT(row, ip))(ido - vw, c + vw, ido, h + vw, ido * l1, wa + vw - 1, ido - 1); \
        }                                                                                                  \
    }
ROWSK(2)
ROWSK(4)
ROWSK(8)
#undef ROWSK

#undef IM_EVEN
#undef IM_ODD
#undef IM_SWAP
#undef IM_BLEND
#undef IM_FIRST
#undef IM_SIGNODD
#undef IM_SIGNEVEN
#undef IM_SIGNALL
#undef IF
#undef IM
#undef IV
