/* runtime/ops/fft_row.h — the butterflies of the radix-2, 4 and 8 passes of
 * one line for the outputs i >= 1 of one row k (the ones with twiddles), over
 * n consecutive i: input j of the first is at cc[j * cs], output j at
 * ch[j * hs], twiddle x at wa[x * ws]. Included by fft_pass.h for the scalar
 * form (one complex value at a time) and by fft_ipass.h for the vector form
 * (RSTEP neighbouring values of i at once, interleaved as in memory), with
 * the operations of fft_pass.h in the same order, so that both give the
 * same bits. The includer defines RROW(name), the value type RT, RL(p) and
 * RST(p, v) (load and store at a CX pointer), RLW(p) (a twiddle), RSTEP and
 * the operations RADD, RSUB, RSMUL, R90, R45, R135; RROW, RLW and RSMUL are
 * undefined at the end (the ones that differ between two instantiations of
 * one form). Each returns how many of the n it did (all of them for the
 * scalar form, the largest multiple of RSTEP for the vector form). */

static size_t RROW(row2)(size_t n, const CX *restrict cc, size_t cs, CX *restrict ch, size_t hs,
                         const CX *restrict wa, size_t ws)
{
    (void)ws;
    size_t i = 0;
    for (; i + RSTEP <= n; i += RSTEP) {
        RT c0 = RL(cc + i), c1 = RL(cc + i + cs);
        RST(ch + i, RADD(c0, c1));
        RST(ch + i + hs, RSMUL(RSUB(c0, c1), RLW(wa + i)));
    }
    return i;
}

static size_t RROW(row4)(size_t n, const CX *restrict cc, size_t cs, CX *restrict ch, size_t hs,
                         const CX *restrict wa, size_t ws)
{
    size_t i = 0;
    for (; i + RSTEP <= n; i += RSTEP) {
        RT c0 = RL(cc + i), c1 = RL(cc + i + cs), c2 = RL(cc + i + 2 * cs), c3 = RL(cc + i + 3 * cs);
        RT t1, t2, t3, t4;
        t2 = RADD(c0, c2); t1 = RSUB(c0, c2);
        t3 = RADD(c1, c3); t4 = RSUB(c1, c3);
        t4 = R90(t4);
        RST(ch + i, RADD(t2, t3));
        RST(ch + i + hs, RSMUL(RADD(t1, t4), RLW(wa + i)));
        RST(ch + i + 2 * hs, RSMUL(RSUB(t2, t3), RLW(wa + i + ws)));
        RST(ch + i + 3 * hs, RSMUL(RSUB(t1, t4), RLW(wa + i + 2 * ws)));
    }
    return i;
}

static size_t RROW(row8)(size_t n, const CX *restrict cc, size_t cs, CX *restrict ch, size_t hs,
                         const CX *restrict wa, size_t ws)
{
    size_t i = 0;
    for (; i + RSTEP <= n; i += RSTEP) {
        const CX *c = cc + i;
        CX *h = ch + i;
        const CX *w = wa + i;
        RT a0, a1, a2, a3, a4, a5, a6, a7, t;
        a1 = RADD(RL(c + cs), RL(c + 5 * cs)); a5 = RSUB(RL(c + cs), RL(c + 5 * cs));
        a3 = RADD(RL(c + 3 * cs), RL(c + 7 * cs)); a7 = RSUB(RL(c + 3 * cs), RL(c + 7 * cs));
        a7 = R90(a7);
        t = a1; a1 = RADD(a1, a3); a3 = RSUB(t, a3);
        a3 = R90(a3);
        t = a5; a5 = RADD(a5, a7); a7 = RSUB(t, a7);
        a5 = R45(a5);
        a7 = R135(a7);
        a0 = RADD(RL(c), RL(c + 4 * cs)); a4 = RSUB(RL(c), RL(c + 4 * cs));
        a2 = RADD(RL(c + 2 * cs), RL(c + 6 * cs)); a6 = RSUB(RL(c + 2 * cs), RL(c + 6 * cs));
        t = a0; a0 = RADD(a0, a2); a2 = RSUB(t, a2);
        RST(h, RADD(a0, a1));
        RST(h + 4 * hs, RSMUL(RSUB(a0, a1), RLW(w + 3 * ws)));
        RST(h + 2 * hs, RSMUL(RADD(a2, a3), RLW(w + ws)));
        RST(h + 6 * hs, RSMUL(RSUB(a2, a3), RLW(w + 5 * ws)));
        a6 = R90(a6);
        t = a4; a4 = RADD(a4, a6); a6 = RSUB(t, a6);
        RST(h + hs, RSMUL(RADD(a4, a5), RLW(w)));
        RST(h + 5 * hs, RSMUL(RSUB(a4, a5), RLW(w + 4 * ws)));
        RST(h + 3 * hs, RSMUL(RADD(a6, a7), RLW(w + 2 * ws)));
        RST(h + 7 * hs, RSMUL(RSUB(a6, a7), RLW(w + 6 * ws)));
    }
    return i;
}

#undef RROW
#undef RLW
#undef RSMUL
