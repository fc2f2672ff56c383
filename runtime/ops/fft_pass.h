/* runtime/ops/fft_pass.h — the complex mixed-radix passes (2, 3, 4, 5, 7, 8,
 * 11, generic) of one precision R and one direction FWD, over one line
 * or several at once, instantiated by fft_engine.h. The butterflies follow pocketfft's C++ header (the version
 * PyTorch 1.13's CPU build compiles) operation for operation, so that the
 * rounding, and hence every bit of the result, is the same. */

#define PF(name) FCAT(FCAT(FCAT(name, RS), PV), FCAT(_, FWD))

/* the data type CV is CV for one line, or a pair of vectors of R for several
 * lines at once (fft_engine.h sets CV and the name suffix PV); twiddles are
 * always the scalar CV */
static inline CV PF(vadd)(CV a, CV b) { CV c = {a.r + b.r, a.i + b.i}; return c; }
static inline CV PF(vsub)(CV a, CV b) { CV c = {a.r - b.r, a.i - b.i}; return c; }

/* res = fwd ? v1*conj(w) : v1*w */
static inline CV PF(smul)(CV v, CX w)
{
    CV r;
    if (FWD) { r.r = v.r * w.r + v.i * w.i; r.i = v.i * w.r - v.r * w.i; }
    else { r.r = v.r * w.r - v.i * w.i; r.i = v.r * w.i + v.i * w.r; }
    return r;
}
static inline CV PF(rotx90)(CV a)
{
    CV r;
    if (FWD) { r.r = a.i; r.i = -a.r; }
    else { r.r = -a.i; r.i = a.r; }
    return r;
}
static inline CV PF(rotx45)(CV a)
{
    const R h = (R)0.707106781186547524400844362104849L;
    CV r;
    if (FWD) { r.r = h * (a.r + a.i); r.i = h * (a.i - a.r); }
    else { r.r = h * (a.r - a.i); r.i = h * (a.i + a.r); }
    return r;
}
static inline CV PF(rotx135)(CV a)
{
    const R h = (R)0.707106781186547524400844362104849L;
    CV r;
    if (FWD) { r.r = h * (a.i - a.r); r.i = h * (-a.r - a.i); }
    else { r.r = h * (-a.r - a.i); r.i = h * (a.r - a.i); }
    return r;
}

#ifdef PASS_ROWS
/* One line: the rows of the radix-2/4/8 passes (fft_row.h) in vector form
 * where AVX2 is at hand, the rest in scalar form; a long row goes through
 * 1 KiB tiles of its ip inputs and ip outputs, which otherwise lie a
 * multiple of 4 KiB apart and evict each other from the caches (a 2^20-point
 * transform spent three quarters of its first pass so). Moving values does
 * not change them: the bits are those of the plain loop. */
#define RROW(name) PF(name)
#define RT CV
#define RL(p) (*(p))
#define RST(p, v) (*(p) = (v))
#define RLW(p) (*(p))
#define RSTEP ((size_t)1)
#define RADD PF(vadd)
#define RSUB PF(vsub)
#define RSMUL PF(smul)
#define R90 PF(rotx90)
#define R45 PF(rotx45)
#define R135 PF(rotx135)
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

#define IVROW(name) FCAT(FCAT(FN(name), _iv), FCAT(_, FWD))
static void PF(run)(size_t ip, size_t n, const CX *cc, size_t cs, CX *ch, size_t hs, const CX *wa, size_t ws)
{
    size_t d = 0;
    if (FN(rvec_usable)())
        d = ip == 8 ? IVROW(row8)(n, cc, cs, ch, hs, wa, ws)
          : ip == 4 ? IVROW(row4)(n, cc, cs, ch, hs, wa, ws) : IVROW(row2)(n, cc, cs, ch, hs, wa, ws);
    if (d == n) return;
    n -= d; cc += d; ch += d; wa += d;
    if (ip == 8) PF(row8)(n, cc, cs, ch, hs, wa, ws);
    else if (ip == 4) PF(row4)(n, cc, cs, ch, hs, wa, ws);
    else PF(row2)(n, cc, cs, ch, hs, wa, ws);
}

/* A pass of short rows (ido a multiple of the vector width, below the
 * tiles) all in vectors, output 0 included; false where it does not apply. */
static bool PF(rows_all)(size_t ip, size_t ido, size_t l1, const CX *cc, CX *ch, const CX *wa)
{
    const size_t vw = 32 / sizeof(CX);
    if (ido < vw || ido % vw != 0 || ido >= 256 || !FN(rvec_usable)()) return false;
    if (ip == 8) IVROW(rowsk8)(ido, l1, cc, ch, wa);
    else if (ip == 4) IVROW(rowsk4)(ido, l1, cc, ch, wa);
    else IVROW(rowsk2)(ido, l1, cc, ch, wa);
    return true;
}
#undef IVROW

/* n values from s to d in 16-byte moves (GCC expands a memcpy of a
 * variable size into `rep movsq`, slow for these 1 KiB pieces) */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
static inline void PF(tcopy)(CX *restrict d, const CX *restrict s, size_t n)
{
    size_t b = n * sizeof(CX), o = 0;
    for (; o + 16 <= b; o += 16) {
        char t[16];
        memcpy(t, (const char *)s + o, 16);
        memcpy((char *)d + o, t, 16);
    }
    if (o < b) memcpy((char *)d + o, (const char *)s + o, b - o);
}

#define FFT_TILE ((size_t)1024 / sizeof(CX))
/* outputs i = 1 .. ido-1 of row k: cc = &CC(0, 0, k), ch = &CH(0, k, 0) */
static void PF(rows)(size_t ip, size_t ido, size_t l1, const CX *cc, CX *ch, const CX *wa)
{
    size_t n = ido - 1, cs = ido, hs = ido * l1, ws = ido - 1;
    if (n < 2 * FFT_TILE) { PF(run)(ip, n, cc + 1, cs, ch + 1, hs, wa, ws); return; }
    CX bin[8 * FFT_TILE] __attribute__((aligned(64))), bout[8 * FFT_TILE] __attribute__((aligned(64)));
    for (size_t i0 = 0; i0 < n; i0 += FFT_TILE) {
        size_t m = n - i0 < FFT_TILE ? n - i0 : FFT_TILE;
        for (size_t j = 0; j < ip; j++) PF(tcopy)(bin + j * FFT_TILE, cc + 1 + i0 + j * cs, m);
        PF(run)(ip, m, bin, FFT_TILE, bout, FFT_TILE, wa + i0, ws);
        for (size_t j = 0; j < ip; j++) PF(tcopy)(ch + 1 + i0 + j * hs, bout + j * FFT_TILE, m);
    }
}
#undef FFT_TILE
#endif

#define CH(a, b, c) ch[(a) + ido * ((b) + l1 * (c))]
#define CC(a, b, c) cc[(a) + ido * ((b) + CDIM * (c))]
#define WA(x, i) wa[(i) - 1 + (x) * (ido - 1)]

#define CDIM 2
static void PF(pass2)(size_t ido, size_t l1, const CV *restrict cc, CV *restrict ch, const CX *restrict wa)
{
#ifdef PASS_ROWS
    if (PF(rows_all)(2, ido, l1, cc, ch, wa)) return;
#endif
    for (size_t k = 0; k < l1; k++) {
#ifdef PASS_ROWS
#endif
        CH(0, k, 0) = PF(vadd)(CC(0, 0, k), CC(0, 1, k));
        CH(0, k, 1) = PF(vsub)(CC(0, 0, k), CC(0, 1, k));
#ifdef PASS_ROWS
        if (ido > 1) { PF(rows)(2, ido, l1, &CC(0, 0, k), &CH(0, k, 0), wa); continue; }
#endif
        for (size_t i = 1; i < ido; i++) {
            CH(i, k, 0) = PF(vadd)(CC(i, 0, k), CC(i, 1, k));
            CH(i, k, 1) = PF(smul)(PF(vsub)(CC(i, 0, k), CC(i, 1, k)), WA(0, i));
        }
    }
}
#undef CDIM

#define CDIM 3
static void PF(pass3)(size_t ido, size_t l1, const CV *restrict cc, CV *restrict ch, const CX *restrict wa)
{
    const R tw1r = (R)-0.5, tw1i = (FWD ? -1 : 1) * (R)0.8660254037844386467637231707529362L;
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 0; i < ido; i++) {
            CV t0 = CC(i, 0, k), t1 = PF(vadd)(CC(i, 1, k), CC(i, 2, k)), t2 = PF(vsub)(CC(i, 1, k), CC(i, 2, k));
            CH(i, k, 0) = PF(vadd)(t0, t1);
            CV ca = {t0.r + t1.r * tw1r, t0.i + t1.i * tw1r}, cb = {-t2.i * tw1i, t2.r * tw1i};
            if (i == 0) { CH(0, k, 1) = PF(vadd)(ca, cb); CH(0, k, 2) = PF(vsub)(ca, cb); }
            else { CH(i, k, 1) = PF(smul)(PF(vadd)(ca, cb), WA(0, i)); CH(i, k, 2) = PF(smul)(PF(vsub)(ca, cb), WA(1, i)); }
        }
}
#undef CDIM

#define CDIM 4
static void PF(pass4)(size_t ido, size_t l1, const CV *restrict cc, CV *restrict ch, const CX *restrict wa)
{
#ifdef PASS_ROWS
    if (PF(rows_all)(4, ido, l1, cc, ch, wa)) return;
#endif
#ifdef PASS_ROWS
    const size_t iend = 1;
#else
    const size_t iend = ido;
#endif
    for (size_t k = 0; k < l1; k++) {
#ifdef PASS_ROWS
        if (ido > 1) PF(rows)(4, ido, l1, &CC(0, 0, k), &CH(0, k, 0), wa);
#endif
        for (size_t i = 0; i < iend; i++) {
            CV t1, t2, t3, t4;
            t2 = PF(vadd)(CC(i, 0, k), CC(i, 2, k)); t1 = PF(vsub)(CC(i, 0, k), CC(i, 2, k));
            t3 = PF(vadd)(CC(i, 1, k), CC(i, 3, k)); t4 = PF(vsub)(CC(i, 1, k), CC(i, 3, k));
            t4 = PF(rotx90)(t4);
            if (i == 0) {
                CH(0, k, 0) = PF(vadd)(t2, t3); CH(0, k, 2) = PF(vsub)(t2, t3);
                CH(0, k, 1) = PF(vadd)(t1, t4); CH(0, k, 3) = PF(vsub)(t1, t4);
            } else {
                CH(i, k, 0) = PF(vadd)(t2, t3);
                CH(i, k, 1) = PF(smul)(PF(vadd)(t1, t4), WA(0, i));
                CH(i, k, 2) = PF(smul)(PF(vsub)(t2, t3), WA(1, i));
                CH(i, k, 3) = PF(smul)(PF(vsub)(t1, t4), WA(2, i));
            }
        }
    }
}
#undef CDIM

/* One output pair of an odd radix: ca = t0 + sum x_j*t_j, cb from the differences. */
#define CDIM 5
static void PF(pass5)(size_t ido, size_t l1, const CV *restrict cc, CV *restrict ch, const CX *restrict wa)
{
    const R s = FWD ? -1 : 1;
    const R tw1r = (R)0.3090169943749474241022934171828191L, tw1i = s * (R)0.9510565162951535721164393333793821L,
            tw2r = (R)-0.8090169943749474241022934171828191L, tw2i = s * (R)0.5877852522924731291687059546390728L;
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 0; i < ido; i++) {
            CV t0 = CC(i, 0, k), t1, t2, t3, t4;
            t1 = PF(vadd)(CC(i, 1, k), CC(i, 4, k)); t4 = PF(vsub)(CC(i, 1, k), CC(i, 4, k));
            t2 = PF(vadd)(CC(i, 2, k), CC(i, 3, k)); t3 = PF(vsub)(CC(i, 2, k), CC(i, 3, k));
            CH(i, k, 0).r = t0.r + t1.r + t2.r;
            CH(i, k, 0).i = t0.i + t1.i + t2.i;
#define STEP5(u1, u2, twar, twbr, twai, twbi)                                                    \
            {                                                                                \
                CV ca, cb;                                                                   \
                ca.r = t0.r + twar * t1.r + twbr * t2.r;                                     \
                ca.i = t0.i + twar * t1.i + twbr * t2.i;                                     \
                cb.i = twai * t4.r twbi * t3.r;                                              \
                cb.r = -(twai * t4.i twbi * t3.i);                                           \
                if (i == 0) { CH(0, k, u1) = PF(vadd)(ca, cb); CH(0, k, u2) = PF(vsub)(ca, cb); }     \
                else {                                                                       \
                    CH(i, k, u1) = PF(smul)(PF(vadd)(ca, cb), WA(u1 - 1, i));                    \
                    CH(i, k, u2) = PF(smul)(PF(vsub)(ca, cb), WA(u2 - 1, i));                    \
                }                                                                            \
            }
            STEP5(1, 4, tw1r, tw2r, +tw1i, +tw2i)
            STEP5(2, 3, tw2r, tw1r, +tw2i, -tw1i)
#undef STEP5
        }
}
#undef CDIM

#define CDIM 7
static void PF(pass7)(size_t ido, size_t l1, const CV *restrict cc, CV *restrict ch, const CX *restrict wa)
{
    const R s = FWD ? -1 : 1;
    const R tw1r = (R)0.6234898018587335305250048840042398L, tw1i = s * (R)0.7818314824680298087084445266740578L,
            tw2r = (R)-0.2225209339563144042889025644967948L, tw2i = s * (R)0.9749279121818236070181316829939312L,
            tw3r = (R)-0.9009688679024191262361023195074451L, tw3i = s * (R)0.433883739117558120475768332848359L;
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 0; i < ido; i++) {
            CV t1 = CC(i, 0, k), t2, t3, t4, t5, t6, t7;
            t2 = PF(vadd)(CC(i, 1, k), CC(i, 6, k)); t7 = PF(vsub)(CC(i, 1, k), CC(i, 6, k));
            t3 = PF(vadd)(CC(i, 2, k), CC(i, 5, k)); t6 = PF(vsub)(CC(i, 2, k), CC(i, 5, k));
            t4 = PF(vadd)(CC(i, 3, k), CC(i, 4, k)); t5 = PF(vsub)(CC(i, 3, k), CC(i, 4, k));
            CH(i, k, 0).r = t1.r + t2.r + t3.r + t4.r;
            CH(i, k, 0).i = t1.i + t2.i + t3.i + t4.i;
#define STEP7(u1, u2, x1, x2, x3, y1, y2, y3)                                                    \
            {                                                                                \
                CV ca, cb;                                                                   \
                ca.r = t1.r + x1 * t2.r + x2 * t3.r + x3 * t4.r;                             \
                ca.i = t1.i + x1 * t2.i + x2 * t3.i + x3 * t4.i;                             \
                cb.i = y1 * t7.r y2 * t6.r y3 * t5.r;                                        \
                cb.r = -(y1 * t7.i y2 * t6.i y3 * t5.i);                                     \
                if (i == 0) { CH(0, k, u1) = PF(vadd)(ca, cb); CH(0, k, u2) = PF(vsub)(ca, cb); }     \
                else {                                                                       \
                    CH(i, k, u1) = PF(smul)(PF(vadd)(ca, cb), WA(u1 - 1, i));                    \
                    CH(i, k, u2) = PF(smul)(PF(vsub)(ca, cb), WA(u2 - 1, i));                    \
                }                                                                            \
            }
            STEP7(1, 6, tw1r, tw2r, tw3r, +tw1i, +tw2i, +tw3i)
            STEP7(2, 5, tw2r, tw3r, tw1r, +tw2i, -tw3i, -tw1i)
            STEP7(3, 4, tw3r, tw1r, tw2r, +tw3i, -tw1i, +tw2i)
#undef STEP7
        }
}
#undef CDIM

#define CDIM 8
static void PF(pass8)(size_t ido, size_t l1, const CV *restrict cc, CV *restrict ch, const CX *restrict wa)
{
#ifdef PASS_ROWS
    if (PF(rows_all)(8, ido, l1, cc, ch, wa)) return;
#endif
    for (size_t k = 0; k < l1; k++) {
#ifdef PASS_ROWS
#endif
        {
            CV a0, a1, a2, a3, a4, a5, a6, a7, t;
            a1 = PF(vadd)(CC(0, 1, k), CC(0, 5, k)); a5 = PF(vsub)(CC(0, 1, k), CC(0, 5, k));
            a3 = PF(vadd)(CC(0, 3, k), CC(0, 7, k)); a7 = PF(vsub)(CC(0, 3, k), CC(0, 7, k));
            t = a1; a1 = PF(vadd)(a1, a3); a3 = PF(vsub)(t, a3);
            a3 = PF(rotx90)(a3);
            a7 = PF(rotx90)(a7);
            t = a5; a5 = PF(vadd)(a5, a7); a7 = PF(vsub)(t, a7);
            a5 = PF(rotx45)(a5);
            a7 = PF(rotx135)(a7);
            a0 = PF(vadd)(CC(0, 0, k), CC(0, 4, k)); a4 = PF(vsub)(CC(0, 0, k), CC(0, 4, k));
            a2 = PF(vadd)(CC(0, 2, k), CC(0, 6, k)); a6 = PF(vsub)(CC(0, 2, k), CC(0, 6, k));
            CV s02 = PF(vadd)(a0, a2), d02 = PF(vsub)(a0, a2);
            CH(0, k, 0) = PF(vadd)(s02, a1); CH(0, k, 4) = PF(vsub)(s02, a1);
            CH(0, k, 2) = PF(vadd)(d02, a3); CH(0, k, 6) = PF(vsub)(d02, a3);
            a6 = PF(rotx90)(a6);
            CV s46 = PF(vadd)(a4, a6), d46 = PF(vsub)(a4, a6);
            CH(0, k, 1) = PF(vadd)(s46, a5); CH(0, k, 5) = PF(vsub)(s46, a5);
            CH(0, k, 3) = PF(vadd)(d46, a7); CH(0, k, 7) = PF(vsub)(d46, a7);
        }
#ifdef PASS_ROWS
        if (ido > 1) { PF(rows)(8, ido, l1, &CC(0, 0, k), &CH(0, k, 0), wa); continue; }
#endif
        for (size_t i = 1; i < ido; i++) {
            CV a0, a1, a2, a3, a4, a5, a6, a7, t;
            a1 = PF(vadd)(CC(i, 1, k), CC(i, 5, k)); a5 = PF(vsub)(CC(i, 1, k), CC(i, 5, k));
            a3 = PF(vadd)(CC(i, 3, k), CC(i, 7, k)); a7 = PF(vsub)(CC(i, 3, k), CC(i, 7, k));
            a7 = PF(rotx90)(a7);
            t = a1; a1 = PF(vadd)(a1, a3); a3 = PF(vsub)(t, a3);
            a3 = PF(rotx90)(a3);
            t = a5; a5 = PF(vadd)(a5, a7); a7 = PF(vsub)(t, a7);
            a5 = PF(rotx45)(a5);
            a7 = PF(rotx135)(a7);
            a0 = PF(vadd)(CC(i, 0, k), CC(i, 4, k)); a4 = PF(vsub)(CC(i, 0, k), CC(i, 4, k));
            a2 = PF(vadd)(CC(i, 2, k), CC(i, 6, k)); a6 = PF(vsub)(CC(i, 2, k), CC(i, 6, k));
            t = a0; a0 = PF(vadd)(a0, a2); a2 = PF(vsub)(t, a2);
            CH(i, k, 0) = PF(vadd)(a0, a1);
            CH(i, k, 4) = PF(smul)(PF(vsub)(a0, a1), WA(3, i));
            CH(i, k, 2) = PF(smul)(PF(vadd)(a2, a3), WA(1, i));
            CH(i, k, 6) = PF(smul)(PF(vsub)(a2, a3), WA(5, i));
            a6 = PF(rotx90)(a6);
            t = a4; a4 = PF(vadd)(a4, a6); a6 = PF(vsub)(t, a6);
            CH(i, k, 1) = PF(smul)(PF(vadd)(a4, a5), WA(0, i));
            CH(i, k, 5) = PF(smul)(PF(vsub)(a4, a5), WA(4, i));
            CH(i, k, 3) = PF(smul)(PF(vadd)(a6, a7), WA(2, i));
            CH(i, k, 7) = PF(smul)(PF(vsub)(a6, a7), WA(6, i));
        }
    }
}
#undef CDIM

#define CDIM 11
static void PF(pass11)(size_t ido, size_t l1, const CV *restrict cc, CV *restrict ch, const CX *restrict wa)
{
    const R s = FWD ? -1 : 1;
    const R tw1r = (R)0.8412535328311811688618116489193677L, tw1i = s * (R)0.5406408174555975821076359543186917L,
            tw2r = (R)0.4154150130018864255292741492296232L, tw2i = s * (R)0.9096319953545183714117153830790285L,
            tw3r = (R)-0.1423148382732851404437926686163697L, tw3i = s * (R)0.9898214418809327323760920377767188L,
            tw4r = (R)-0.6548607339452850640569250724662936L, tw4i = s * (R)0.7557495743542582837740358439723444L,
            tw5r = (R)-0.9594929736144973898903680570663277L, tw5i = s * (R)0.2817325568414296977114179153466169L;
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 0; i < ido; i++) {
            CV t1 = CC(i, 0, k), t2, t3, t4, t5, t6, t7, t8, t9, t10, t11;
            t2 = PF(vadd)(CC(i, 1, k), CC(i, 10, k)); t11 = PF(vsub)(CC(i, 1, k), CC(i, 10, k));
            t3 = PF(vadd)(CC(i, 2, k), CC(i, 9, k)); t10 = PF(vsub)(CC(i, 2, k), CC(i, 9, k));
            t4 = PF(vadd)(CC(i, 3, k), CC(i, 8, k)); t9 = PF(vsub)(CC(i, 3, k), CC(i, 8, k));
            t5 = PF(vadd)(CC(i, 4, k), CC(i, 7, k)); t8 = PF(vsub)(CC(i, 4, k), CC(i, 7, k));
            t6 = PF(vadd)(CC(i, 5, k), CC(i, 6, k)); t7 = PF(vsub)(CC(i, 5, k), CC(i, 6, k));
            CH(i, k, 0).r = t1.r + t2.r + t3.r + t4.r + t5.r + t6.r;
            CH(i, k, 0).i = t1.i + t2.i + t3.i + t4.i + t5.i + t6.i;
            /* ca = t1 + t2*x1 + ... as cmplx operator+ chains: left to right */
#define STEP11(u1, u2, x1, x2, x3, x4, x5, y1, y2, y3, y4, y5)                                   \
            {                                                                                \
                CV ca, cb;                                                                   \
                ca.r = t1.r + t2.r * x1 + t3.r * x2 + t4.r * x3 + t5.r * x4 + t6.r * x5;     \
                ca.i = t1.i + t2.i * x1 + t3.i * x2 + t4.i * x3 + t5.i * x4 + t6.i * x5;     \
                cb.i = y1 * t11.r y2 * t10.r y3 * t9.r y4 * t8.r y5 * t7.r;                  \
                cb.r = -(y1 * t11.i y2 * t10.i y3 * t9.i y4 * t8.i y5 * t7.i);               \
                if (i == 0) { CH(0, k, u1) = PF(vadd)(ca, cb); CH(0, k, u2) = PF(vsub)(ca, cb); }     \
                else {                                                                       \
                    CH(i, k, u1) = PF(smul)(PF(vadd)(ca, cb), WA(u1 - 1, i));                    \
                    CH(i, k, u2) = PF(smul)(PF(vsub)(ca, cb), WA(u2 - 1, i));                    \
                }                                                                            \
            }
            STEP11(1, 10, tw1r, tw2r, tw3r, tw4r, tw5r, +tw1i, +tw2i, +tw3i, +tw4i, +tw5i)
            STEP11(2, 9, tw2r, tw4r, tw5r, tw3r, tw1r, +tw2i, +tw4i, -tw5i, -tw3i, -tw1i)
            STEP11(3, 8, tw3r, tw5r, tw2r, tw1r, tw4r, +tw3i, -tw5i, -tw2i, +tw1i, +tw4i)
            STEP11(4, 7, tw4r, tw3r, tw1r, tw5r, tw2r, +tw4i, -tw3i, +tw1i, +tw5i, -tw2i)
            STEP11(5, 6, tw5r, tw1r, tw4r, tw2r, tw3r, +tw5i, -tw1i, +tw4i, -tw2i, +tw3i)
#undef STEP11
        }
}
#undef CDIM
#undef CC
#undef CH
#undef WA

/* The generic radix ip (odd, > 11). Writes its result back into cc. */
static int PF(passg)(size_t ido, size_t ip, size_t l1, CV *restrict cc, CV *restrict ch, const CX *restrict wa,
                     const CX *restrict csarr)
{
    const size_t cdim = ip, ipph = (ip + 1) / 2, idl1 = ido * l1;
#define CH(a, b, c) ch[(a) + ido * ((b) + l1 * (c))]
#define CC(a, b, c) cc[(a) + ido * ((b) + cdim * (c))]
#define CX_(a, b, c) cc[(a) + ido * ((b) + l1 * (c))]
#define CX2(a, b) cc[(a) + idl1 * (b)]
#define CH2(a, b) ch[(a) + idl1 * (b)]
    CX *wal = tsr_malloc(ip * sizeof *wal);
    if (!wal) return -1;
    wal[0].r = 1; wal[0].i = 0;
    for (size_t i = 1; i < ip; i++) { wal[i].r = csarr[i].r; wal[i].i = FWD ? -csarr[i].i : csarr[i].i; }

    for (size_t k = 0; k < l1; k++)
        for (size_t i = 0; i < ido; i++) CH(i, k, 0) = CC(i, 0, k);
    for (size_t j = 1, jc = ip - 1; j < ipph; j++, jc--)
        for (size_t k = 0; k < l1; k++)
            for (size_t i = 0; i < ido; i++) {
                CV a = CC(i, j, k), b = CC(i, jc, k);
                CH(i, k, j) = PF(vadd)(a, b);
                CH(i, k, jc) = PF(vsub)(a, b);
            }
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 0; i < ido; i++) {
            CV tmp = CH(i, k, 0);
            for (size_t j = 1; j < ipph; j++) tmp = PF(vadd)(tmp, CH(i, k, j));
            CX_(i, k, 0) = tmp;
        }
    for (size_t l = 1, lc = ip - 1; l < ipph; l++, lc--) {
        for (size_t ik = 0; ik < idl1; ik++) {
            CX2(ik, l).r = CH2(ik, 0).r + wal[l].r * CH2(ik, 1).r + wal[2 * l].r * CH2(ik, 2).r;
            CX2(ik, l).i = CH2(ik, 0).i + wal[l].r * CH2(ik, 1).i + wal[2 * l].r * CH2(ik, 2).i;
            CX2(ik, lc).r = -wal[l].i * CH2(ik, ip - 1).i - wal[2 * l].i * CH2(ik, ip - 2).i;
            CX2(ik, lc).i = wal[l].i * CH2(ik, ip - 1).r + wal[2 * l].i * CH2(ik, ip - 2).r;
        }
        size_t iwal = 2 * l, j = 3, jc = ip - 3;
        for (; j < ipph - 1; j += 2, jc -= 2) {
            iwal += l; if (iwal > ip) iwal -= ip;
            CX xwal = wal[iwal];
            iwal += l; if (iwal > ip) iwal -= ip;
            CX xwal2 = wal[iwal];
            for (size_t ik = 0; ik < idl1; ik++) {
                CX2(ik, l).r += CH2(ik, j).r * xwal.r + CH2(ik, j + 1).r * xwal2.r;
                CX2(ik, l).i += CH2(ik, j).i * xwal.r + CH2(ik, j + 1).i * xwal2.r;
                CX2(ik, lc).r -= CH2(ik, jc).i * xwal.i + CH2(ik, jc - 1).i * xwal2.i;
                CX2(ik, lc).i += CH2(ik, jc).r * xwal.i + CH2(ik, jc - 1).r * xwal2.i;
            }
        }
        for (; j < ipph; j++, jc--) {
            iwal += l; if (iwal > ip) iwal -= ip;
            CX xwal = wal[iwal];
            for (size_t ik = 0; ik < idl1; ik++) {
                CX2(ik, l).r += CH2(ik, j).r * xwal.r;
                CX2(ik, l).i += CH2(ik, j).i * xwal.r;
                CX2(ik, lc).r -= CH2(ik, jc).i * xwal.i;
                CX2(ik, lc).i += CH2(ik, jc).r * xwal.i;
            }
        }
    }
    tsr_free(wal);
    /* shuffling and twiddling */
    if (ido == 1)
        for (size_t j = 1, jc = ip - 1; j < ipph; j++, jc--)
            for (size_t ik = 0; ik < idl1; ik++) {
                CV t1 = CX2(ik, j), t2 = CX2(ik, jc);
                CX2(ik, j) = PF(vadd)(t1, t2);
                CX2(ik, jc) = PF(vsub)(t1, t2);
            }
    else
        for (size_t j = 1, jc = ip - 1; j < ipph; j++, jc--)
            for (size_t k = 0; k < l1; k++) {
                CV t1 = CX_(0, k, j), t2 = CX_(0, k, jc);
                CX_(0, k, j) = PF(vadd)(t1, t2);
                CX_(0, k, jc) = PF(vsub)(t1, t2);
                for (size_t i = 1; i < ido; i++) {
                    CV x1 = PF(vadd)(CX_(i, k, j), CX_(i, k, jc)), x2 = PF(vsub)(CX_(i, k, j), CX_(i, k, jc));
                    CX_(i, k, j) = PF(smul)(x1, wa[(j - 1) * (ido - 1) + i - 1]);
                    CX_(i, k, jc) = PF(smul)(x2, wa[(jc - 1) * (ido - 1) + i - 1]);
                }
            }
    return 0;
#undef CH
#undef CC
#undef CX_
#undef CX2
#undef CH2
}

#ifdef PASS_ROWS
/* A pass of short rows (ido below a tile) over a long line, FFT_TILE
 * outputs' worth of rows k at a time into a buffer, then each output j's
 * run of them to its place: written straight, the ip outputs of a row lie
 * len / ip apart, a multiple of 4 KiB for the lengths that matter, and
 * evict each other from the caches. The same butterflies, the same bits. */
static void PF(pass_blocked)(size_t ip, size_t ido, size_t l1, const CX *cc, CX *ch, const CX *tw)
{
    const size_t tile = (size_t)1024 / sizeof(CX), kb = tile / ido;
    CX buf[11 * ((size_t)1024 / sizeof(CX))] __attribute__((aligned(64)));
    for (size_t k0 = 0; k0 < l1; k0 += kb) {
        size_t kk = l1 - k0 < kb ? l1 - k0 : kb;
        const CX *src = cc + ido * ip * k0;
        switch (ip) {
        case 2: PF(pass2)(ido, kk, src, buf, tw); break;
        case 3: PF(pass3)(ido, kk, src, buf, tw); break;
        case 4: PF(pass4)(ido, kk, src, buf, tw); break;
        case 5: PF(pass5)(ido, kk, src, buf, tw); break;
        case 7: PF(pass7)(ido, kk, src, buf, tw); break;
        case 8: PF(pass8)(ido, kk, src, buf, tw); break;
        default: PF(pass11)(ido, kk, src, buf, tw); break;
        }
        for (size_t j = 0; j < ip; j++) PF(tcopy)(ch + ido * (k0 + l1 * j), buf + ido * kk * j, ido * kk);
    }
}
#endif

/* cfftp::pass_all: the passes in factor order, then the scale factor. */
/* in: the input, c itself or (no generic radix among the factors) another
 * array, which the first pass then reads directly; the passes go between
 * c and ch so that the last one writes c. */
static int PF(pass_all)(const FCAT(cfftp, RS) *p, const CV *in, CV *c, CV *ch, R fct)
{
    size_t len = p->length;
    if (len == 1) { c[0].r = in[0].r * fct; c[0].i = in[0].i * fct; return 0; }
    for (int k = 0; k < p->nfct && in != c; k++)
        if (p->fct[k].fct > 11) { memcpy(c, in, len * sizeof *c); in = c; }
    /* an odd number of passes from in: the first writes c */
    CV *p1 = (CV *)in, *p2 = in == c || p->nfct % 2 == 0 ? ch : c, *t;
    size_t l1 = 1;
    for (int k = 0; k < p->nfct; k++) {
        size_t ip = p->fct[k].fct, l2 = ip * l1, ido = len / l2;
        const CX *tw = p->fct[k].tw;
        bool done = false;
#ifdef PASS_ROWS
        if ((ip <= 5 || ip == 7 || ip == 8 || ip == 11) && ido < (size_t)1024 / sizeof(CX) && l1 > 1 &&
            len * sizeof(CX) >= 65536) {
            PF(pass_blocked)(ip, ido, l1, p1, p2, tw);
            done = true;
        }
#endif
        if (!done) switch (ip) {
        case 4: PF(pass4)(ido, l1, p1, p2, tw); break;
        case 8: PF(pass8)(ido, l1, p1, p2, tw); break;
        case 2: PF(pass2)(ido, l1, p1, p2, tw); break;
        case 3: PF(pass3)(ido, l1, p1, p2, tw); break;
        case 5: PF(pass5)(ido, l1, p1, p2, tw); break;
        case 7: PF(pass7)(ido, l1, p1, p2, tw); break;
        case 11: PF(pass11)(ido, l1, p1, p2, tw); break;
        default:
            if (PF(passg)(ido, ip, l1, p1, p2, tw, p->fct[k].tws) < 0) return -1;
            t = p1; p1 = p2; p2 = t;
        }
        if (p1 == in && in != c) { p1 = p2; p2 = p1 == c ? ch : c; }
        else { t = p1; p1 = p2; p2 = t; }
        l1 = l2;
    }
    if (p1 != c) {
        if (fct != 1)
            for (size_t i = 0; i < len; i++) { c[i].r = ch[i].r * fct; c[i].i = ch[i].i * fct; }
        else
            memcpy(c, p1, len * sizeof *c);
    } else if (fct != 1)
        for (size_t i = 0; i < len; i++) { c[i].r *= fct; c[i].i *= fct; }
    return 0;
}

#undef PF
