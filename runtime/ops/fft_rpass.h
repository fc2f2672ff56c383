/* runtime/ops/fft_rpass.h — the real FFTPACK passes (radf2..5, radfg, radb2..5,
 * radbg) and their driver, included by fft_engine.h twice per precision: once
 * with RV = R for one line, once with RV a vector of R for FFT_VL lines at a
 * time (pocketfft's multi-line transforms: each lane does the scalar code's
 * operations in the same order, so every lane's bits are the one-line
 * result's). Twiddles stay scalar R (a scalar times a vector is a lane-wise
 * product). RF(name) names the instantiation. */

/* (a+ib) = conj(c+id) * (e+if) */
#define MULPM(a, b, c, d, e, f) { a = (c) * (e) + (d) * (f); b = (c) * (f) - (d) * (e); }
#define PM(a, b, c, d) { RV pm_c = (c), pm_d = (d); a = pm_c + pm_d; b = pm_c - pm_d; }
#define WA(x, i) wa[(i) + (x) * (ido - 1)]

#define CC(a, b, c) cc[(a) + ido * ((b) + l1 * (c))]
#define CH(a, b, c) ch[(a) + ido * ((b) + CDIM * (c))]
#define CDIM 2
static void RF(radf2)(size_t ido, size_t l1, const RV *restrict cc, RV *restrict ch, const R *restrict wa)
{
    for (size_t k = 0; k < l1; k++) PM(CH(0, 0, k), CH(ido - 1, 1, k), CC(0, k, 0), CC(0, k, 1));
    if ((ido & 1) == 0)
        for (size_t k = 0; k < l1; k++) {
            CH(0, 1, k) = -CC(ido - 1, k, 1);
            CH(ido - 1, 0, k) = CC(ido - 1, k, 0);
        }
    if (ido <= 2) return;
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 2; i < ido; i += 2) {
            size_t ic = ido - i;
            RV tr2, ti2;
            MULPM(tr2, ti2, WA(0, i - 2), WA(0, i - 1), CC(i - 1, k, 1), CC(i, k, 1));
            PM(CH(i - 1, 0, k), CH(ic - 1, 1, k), CC(i - 1, k, 0), tr2);
            PM(CH(i, 0, k), CH(ic, 1, k), ti2, CC(i, k, 0));
        }
}
#undef CDIM

#define REARRANGE(rx, ix, ry, iy) { RV t1 = rx + ry, t2 = ry - rx, t3 = ix + iy, t4 = ix - iy; rx = t1; ix = t3; ry = t4; iy = t2; }

#define CDIM 3
static void RF(radf3)(size_t ido, size_t l1, const RV *restrict cc, RV *restrict ch, const R *restrict wa)
{
    const R taur = (R)-0.5, taui = (R)0.8660254037844386467637231707529362L;
    for (size_t k = 0; k < l1; k++) {
        RV cr2 = CC(0, k, 1) + CC(0, k, 2);
        CH(0, 0, k) = CC(0, k, 0) + cr2;
        CH(0, 2, k) = taui * (CC(0, k, 2) - CC(0, k, 1));
        CH(ido - 1, 1, k) = CC(0, k, 0) + taur * cr2;
    }
    if (ido == 1) return;
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 2; i < ido; i += 2) {
            size_t ic = ido - i;
            RV di2, di3, dr2, dr3;
            MULPM(dr2, di2, WA(0, i - 2), WA(0, i - 1), CC(i - 1, k, 1), CC(i, k, 1));
            MULPM(dr3, di3, WA(1, i - 2), WA(1, i - 1), CC(i - 1, k, 2), CC(i, k, 2));
            REARRANGE(dr2, di2, dr3, di3);
            CH(i - 1, 0, k) = CC(i - 1, k, 0) + dr2;
            CH(i, 0, k) = CC(i, k, 0) + di2;
            RV tr2 = CC(i - 1, k, 0) + taur * dr2, ti2 = CC(i, k, 0) + taur * di2;
            RV tr3 = taui * dr3, ti3 = taui * di3;
            PM(CH(i - 1, 2, k), CH(ic - 1, 1, k), tr2, tr3);
            PM(CH(i, 2, k), CH(ic, 1, k), ti3, ti2);
        }
}
#undef CDIM

#define CDIM 4
static void RF(radf4)(size_t ido, size_t l1, const RV *restrict cc, RV *restrict ch, const R *restrict wa)
{
    const R hsqt2 = (R)0.707106781186547524400844362104849L;
    for (size_t k = 0; k < l1; k++) {
        RV tr1, tr2;
        PM(tr1, CH(0, 2, k), CC(0, k, 3), CC(0, k, 1));
        PM(tr2, CH(ido - 1, 1, k), CC(0, k, 0), CC(0, k, 2));
        PM(CH(0, 0, k), CH(ido - 1, 3, k), tr2, tr1);
    }
    if ((ido & 1) == 0)
        for (size_t k = 0; k < l1; k++) {
            RV ti1 = -hsqt2 * (CC(ido - 1, k, 1) + CC(ido - 1, k, 3));
            RV tr1 = hsqt2 * (CC(ido - 1, k, 1) - CC(ido - 1, k, 3));
            PM(CH(ido - 1, 0, k), CH(ido - 1, 2, k), CC(ido - 1, k, 0), tr1);
            PM(CH(0, 3, k), CH(0, 1, k), ti1, CC(ido - 1, k, 2));
        }
    if (ido <= 2) return;
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 2; i < ido; i += 2) {
            size_t ic = ido - i;
            RV ci2, ci3, ci4, cr2, cr3, cr4, ti1, ti2, ti3, ti4, tr1, tr2, tr3, tr4;
            MULPM(cr2, ci2, WA(0, i - 2), WA(0, i - 1), CC(i - 1, k, 1), CC(i, k, 1));
            MULPM(cr3, ci3, WA(1, i - 2), WA(1, i - 1), CC(i - 1, k, 2), CC(i, k, 2));
            MULPM(cr4, ci4, WA(2, i - 2), WA(2, i - 1), CC(i - 1, k, 3), CC(i, k, 3));
            PM(tr1, tr4, cr4, cr2);
            PM(ti1, ti4, ci2, ci4);
            PM(tr2, tr3, CC(i - 1, k, 0), cr3);
            PM(ti2, ti3, CC(i, k, 0), ci3);
            PM(CH(i - 1, 0, k), CH(ic - 1, 3, k), tr2, tr1);
            PM(CH(i, 0, k), CH(ic, 3, k), ti1, ti2);
            PM(CH(i - 1, 2, k), CH(ic - 1, 1, k), tr3, ti4);
            PM(CH(i, 2, k), CH(ic, 1, k), tr4, ti3);
        }
}
#undef CDIM

#define CDIM 5
static void RF(radf5)(size_t ido, size_t l1, const RV *restrict cc, RV *restrict ch, const R *restrict wa)
{
    const R tr11 = (R)0.3090169943749474241022934171828191L, ti11 = (R)0.9510565162951535721164393333793821L,
            tr12 = (R)-0.8090169943749474241022934171828191L, ti12 = (R)0.5877852522924731291687059546390728L;
    for (size_t k = 0; k < l1; k++) {
        RV cr2, cr3, ci4, ci5;
        PM(cr2, ci5, CC(0, k, 4), CC(0, k, 1));
        PM(cr3, ci4, CC(0, k, 3), CC(0, k, 2));
        CH(0, 0, k) = CC(0, k, 0) + cr2 + cr3;
        CH(ido - 1, 1, k) = CC(0, k, 0) + tr11 * cr2 + tr12 * cr3;
        CH(0, 2, k) = ti11 * ci5 + ti12 * ci4;
        CH(ido - 1, 3, k) = CC(0, k, 0) + tr12 * cr2 + tr11 * cr3;
        CH(0, 4, k) = ti12 * ci5 - ti11 * ci4;
    }
    if (ido == 1) return;
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 2, ic = ido - 2; i < ido; i += 2, ic -= 2) {
            RV di2, di3, di4, di5, dr2, dr3, dr4, dr5;
            MULPM(dr2, di2, WA(0, i - 2), WA(0, i - 1), CC(i - 1, k, 1), CC(i, k, 1));
            MULPM(dr3, di3, WA(1, i - 2), WA(1, i - 1), CC(i - 1, k, 2), CC(i, k, 2));
            MULPM(dr4, di4, WA(2, i - 2), WA(2, i - 1), CC(i - 1, k, 3), CC(i, k, 3));
            MULPM(dr5, di5, WA(3, i - 2), WA(3, i - 1), CC(i - 1, k, 4), CC(i, k, 4));
            REARRANGE(dr2, di2, dr5, di5);
            REARRANGE(dr3, di3, dr4, di4);
            CH(i - 1, 0, k) = CC(i - 1, k, 0) + dr2 + dr3;
            CH(i, 0, k) = CC(i, k, 0) + di2 + di3;
            RV tr2 = CC(i - 1, k, 0) + tr11 * dr2 + tr12 * dr3;
            RV ti2 = CC(i, k, 0) + tr11 * di2 + tr12 * di3;
            RV tr3 = CC(i - 1, k, 0) + tr12 * dr2 + tr11 * dr3;
            RV ti3 = CC(i, k, 0) + tr12 * di2 + tr11 * di3;
            RV tr5 = ti11 * dr5 + ti12 * dr4;
            RV ti5 = ti11 * di5 + ti12 * di4;
            RV tr4 = ti12 * dr5 - ti11 * dr4;
            RV ti4 = ti12 * di5 - ti11 * di4;
            PM(CH(i - 1, 2, k), CH(ic - 1, 1, k), tr2, tr5);
            PM(CH(i, 2, k), CH(ic, 1, k), ti5, ti2);
            PM(CH(i - 1, 4, k), CH(ic - 1, 3, k), tr3, tr4);
            PM(CH(i, 4, k), CH(ic, 3, k), ti4, ti3);
        }
}
#undef CDIM
#undef CC
#undef CH

static void RF(radfg)(size_t ido, size_t ip, size_t l1, RV *restrict cc, RV *restrict ch, const R *restrict wa,
                      const R *restrict csarr)
{
    const size_t cdim = ip, ipph = (ip + 1) / 2, idl1 = ido * l1;
#define CC(a, b, c) cc[(a) + ido * ((b) + cdim * (c))]
#define CH(a, b, c) ch[(a) + ido * ((b) + l1 * (c))]
#define C1(a, b, c) cc[(a) + ido * ((b) + l1 * (c))]
#define C2(a, b) cc[(a) + idl1 * (b)]
#define CH2(a, b) ch[(a) + idl1 * (b)]
    if (ido > 1) {
        for (size_t j = 1, jc = ip - 1; j < ipph; j++, jc--) {
            size_t is = (j - 1) * (ido - 1), is2 = (jc - 1) * (ido - 1);
            for (size_t k = 0; k < l1; k++) {
                size_t idij = is, idij2 = is2;
                for (size_t i = 1; i <= ido - 2; i += 2) {
                    RV t1 = C1(i, k, j), t2 = C1(i + 1, k, j), t3 = C1(i, k, jc), t4 = C1(i + 1, k, jc);
                    RV x1 = wa[idij] * t1 + wa[idij + 1] * t2, x2 = wa[idij] * t2 - wa[idij + 1] * t1,
                      x3 = wa[idij2] * t3 + wa[idij2 + 1] * t4, x4 = wa[idij2] * t4 - wa[idij2 + 1] * t3;
                    PM(C1(i, k, j), C1(i + 1, k, jc), x3, x1);
                    PM(C1(i + 1, k, j), C1(i, k, jc), x2, x4);
                    idij += 2;
                    idij2 += 2;
                }
            }
        }
    }
    for (size_t j = 1, jc = ip - 1; j < ipph; j++, jc--)
        for (size_t k = 0; k < l1; k++) {
            RV a = C1(0, k, jc), b = C1(0, k, j);
            C1(0, k, jc) = a - b;
            C1(0, k, j) = a + b;
        }
    for (size_t l = 1, lc = ip - 1; l < ipph; l++, lc--) {
        for (size_t ik = 0; ik < idl1; ik++) {
            CH2(ik, l) = C2(ik, 0) + csarr[2 * l] * C2(ik, 1) + csarr[4 * l] * C2(ik, 2);
            CH2(ik, lc) = csarr[2 * l + 1] * C2(ik, ip - 1) + csarr[4 * l + 1] * C2(ik, ip - 2);
        }
        size_t iang = 2 * l, j = 3, jc = ip - 3;
        for (; j < ipph - 3; j += 4, jc -= 4) {
            iang += l; if (iang >= ip) iang -= ip;
            R ar1 = csarr[2 * iang], ai1 = csarr[2 * iang + 1];
            iang += l; if (iang >= ip) iang -= ip;
            R ar2 = csarr[2 * iang], ai2 = csarr[2 * iang + 1];
            iang += l; if (iang >= ip) iang -= ip;
            R ar3 = csarr[2 * iang], ai3 = csarr[2 * iang + 1];
            iang += l; if (iang >= ip) iang -= ip;
            R ar4 = csarr[2 * iang], ai4 = csarr[2 * iang + 1];
            for (size_t ik = 0; ik < idl1; ik++) {
                CH2(ik, l) += ar1 * C2(ik, j) + ar2 * C2(ik, j + 1) + ar3 * C2(ik, j + 2) + ar4 * C2(ik, j + 3);
                CH2(ik, lc) += ai1 * C2(ik, jc) + ai2 * C2(ik, jc - 1) + ai3 * C2(ik, jc - 2) + ai4 * C2(ik, jc - 3);
            }
        }
        for (; j < ipph - 1; j += 2, jc -= 2) {
            iang += l; if (iang >= ip) iang -= ip;
            R ar1 = csarr[2 * iang], ai1 = csarr[2 * iang + 1];
            iang += l; if (iang >= ip) iang -= ip;
            R ar2 = csarr[2 * iang], ai2 = csarr[2 * iang + 1];
            for (size_t ik = 0; ik < idl1; ik++) {
                CH2(ik, l) += ar1 * C2(ik, j) + ar2 * C2(ik, j + 1);
                CH2(ik, lc) += ai1 * C2(ik, jc) + ai2 * C2(ik, jc - 1);
            }
        }
        for (; j < ipph; j++, jc--) {
            iang += l; if (iang >= ip) iang -= ip;
            R ar = csarr[2 * iang], ai = csarr[2 * iang + 1];
            for (size_t ik = 0; ik < idl1; ik++) {
                CH2(ik, l) += ar * C2(ik, j);
                CH2(ik, lc) += ai * C2(ik, jc);
            }
        }
    }
    for (size_t ik = 0; ik < idl1; ik++) CH2(ik, 0) = C2(ik, 0);
    for (size_t j = 1; j < ipph; j++)
        for (size_t ik = 0; ik < idl1; ik++) CH2(ik, 0) += C2(ik, j);
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 0; i < ido; i++) CC(i, 0, k) = CH(i, k, 0);
    for (size_t j = 1, jc = ip - 1; j < ipph; j++, jc--) {
        size_t j2 = 2 * j - 1;
        for (size_t k = 0; k < l1; k++) {
            CC(ido - 1, j2, k) = CH(0, k, j);
            CC(0, j2 + 1, k) = CH(0, k, jc);
        }
    }
    if (ido == 1) return;
    for (size_t j = 1, jc = ip - 1; j < ipph; j++, jc--) {
        size_t j2 = 2 * j - 1;
        for (size_t k = 0; k < l1; k++)
            for (size_t i = 1, ic = ido - i - 2; i <= ido - 2; i += 2, ic -= 2) {
                CC(i, j2 + 1, k) = CH(i, k, j) + CH(i, k, jc);
                CC(ic, j2, k) = CH(i, k, j) - CH(i, k, jc);
                CC(i + 1, j2 + 1, k) = CH(i + 1, k, j) + CH(i + 1, k, jc);
                CC(ic + 1, j2, k) = CH(i + 1, k, jc) - CH(i + 1, k, j);
            }
    }
#undef CC
#undef CH
#undef C1
#undef C2
#undef CH2
}

#define CC(a, b, c) cc[(a) + ido * ((b) + CDIM * (c))]
#define CH(a, b, c) ch[(a) + ido * ((b) + l1 * (c))]
#define CDIM 2
static void RF(radb2)(size_t ido, size_t l1, const RV *restrict cc, RV *restrict ch, const R *restrict wa)
{
    for (size_t k = 0; k < l1; k++) PM(CH(0, k, 0), CH(0, k, 1), CC(0, 0, k), CC(ido - 1, 1, k));
    if ((ido & 1) == 0)
        for (size_t k = 0; k < l1; k++) {
            CH(ido - 1, k, 0) = 2 * CC(ido - 1, 0, k);
            CH(ido - 1, k, 1) = -2 * CC(0, 1, k);
        }
    if (ido <= 2) return;
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 2; i < ido; i += 2) {
            size_t ic = ido - i;
            RV ti2, tr2;
            PM(CH(i - 1, k, 0), tr2, CC(i - 1, 0, k), CC(ic - 1, 1, k));
            PM(ti2, CH(i, k, 0), CC(i, 0, k), CC(ic, 1, k));
            MULPM(CH(i, k, 1), CH(i - 1, k, 1), WA(0, i - 2), WA(0, i - 1), ti2, tr2);
        }
}
#undef CDIM

#define CDIM 3
static void RF(radb3)(size_t ido, size_t l1, const RV *restrict cc, RV *restrict ch, const R *restrict wa)
{
    const R taur = (R)-0.5, taui = (R)0.8660254037844386467637231707529362L;
    for (size_t k = 0; k < l1; k++) {
        RV tr2 = 2 * CC(ido - 1, 1, k);
        RV cr2 = CC(0, 0, k) + taur * tr2;
        CH(0, k, 0) = CC(0, 0, k) + tr2;
        RV ci3 = 2 * taui * CC(0, 2, k);
        PM(CH(0, k, 2), CH(0, k, 1), cr2, ci3);
    }
    if (ido == 1) return;
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 2, ic = ido - 2; i < ido; i += 2, ic -= 2) {
            RV tr2 = CC(i - 1, 2, k) + CC(ic - 1, 1, k);
            RV ti2 = CC(i, 2, k) - CC(ic, 1, k);
            RV cr2 = CC(i - 1, 0, k) + taur * tr2;
            RV ci2 = CC(i, 0, k) + taur * ti2;
            CH(i - 1, k, 0) = CC(i - 1, 0, k) + tr2;
            CH(i, k, 0) = CC(i, 0, k) + ti2;
            RV cr3 = taui * (CC(i - 1, 2, k) - CC(ic - 1, 1, k));
            RV ci3 = taui * (CC(i, 2, k) + CC(ic, 1, k));
            RV di2, di3, dr2, dr3;
            PM(dr3, dr2, cr2, ci3);
            PM(di2, di3, ci2, cr3);
            MULPM(CH(i, k, 1), CH(i - 1, k, 1), WA(0, i - 2), WA(0, i - 1), di2, dr2);
            MULPM(CH(i, k, 2), CH(i - 1, k, 2), WA(1, i - 2), WA(1, i - 1), di3, dr3);
        }
}
#undef CDIM

#define CDIM 4
static void RF(radb4)(size_t ido, size_t l1, const RV *restrict cc, RV *restrict ch, const R *restrict wa)
{
    const R sqrt2 = (R)1.414213562373095048801688724209698L;
    for (size_t k = 0; k < l1; k++) {
        RV tr1, tr2;
        PM(tr2, tr1, CC(0, 0, k), CC(ido - 1, 3, k));
        RV tr3 = 2 * CC(ido - 1, 1, k);
        RV tr4 = 2 * CC(0, 2, k);
        PM(CH(0, k, 0), CH(0, k, 2), tr2, tr3);
        PM(CH(0, k, 3), CH(0, k, 1), tr1, tr4);
    }
    if ((ido & 1) == 0)
        for (size_t k = 0; k < l1; k++) {
            RV tr1, tr2, ti1, ti2;
            PM(ti1, ti2, CC(0, 3, k), CC(0, 1, k));
            PM(tr2, tr1, CC(ido - 1, 0, k), CC(ido - 1, 2, k));
            CH(ido - 1, k, 0) = tr2 + tr2;
            CH(ido - 1, k, 1) = sqrt2 * (tr1 - ti1);
            CH(ido - 1, k, 2) = ti2 + ti2;
            CH(ido - 1, k, 3) = -sqrt2 * (tr1 + ti1);
        }
    if (ido <= 2) return;
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 2; i < ido; i += 2) {
            RV ci2, ci3, ci4, cr2, cr3, cr4, ti1, ti2, ti3, ti4, tr1, tr2, tr3, tr4;
            size_t ic = ido - i;
            PM(tr2, tr1, CC(i - 1, 0, k), CC(ic - 1, 3, k));
            PM(ti1, ti2, CC(i, 0, k), CC(ic, 3, k));
            PM(tr4, ti3, CC(i, 2, k), CC(ic, 1, k));
            PM(tr3, ti4, CC(i - 1, 2, k), CC(ic - 1, 1, k));
            PM(CH(i - 1, k, 0), cr3, tr2, tr3);
            PM(CH(i, k, 0), ci3, ti2, ti3);
            PM(cr4, cr2, tr1, tr4);
            PM(ci2, ci4, ti1, ti4);
            MULPM(CH(i, k, 1), CH(i - 1, k, 1), WA(0, i - 2), WA(0, i - 1), ci2, cr2);
            MULPM(CH(i, k, 2), CH(i - 1, k, 2), WA(1, i - 2), WA(1, i - 1), ci3, cr3);
            MULPM(CH(i, k, 3), CH(i - 1, k, 3), WA(2, i - 2), WA(2, i - 1), ci4, cr4);
        }
}
#undef CDIM

#define CDIM 5
static void RF(radb5)(size_t ido, size_t l1, const RV *restrict cc, RV *restrict ch, const R *restrict wa)
{
    const R tr11 = (R)0.3090169943749474241022934171828191L, ti11 = (R)0.9510565162951535721164393333793821L,
            tr12 = (R)-0.8090169943749474241022934171828191L, ti12 = (R)0.5877852522924731291687059546390728L;
    for (size_t k = 0; k < l1; k++) {
        RV ti5 = CC(0, 2, k) + CC(0, 2, k);
        RV ti4 = CC(0, 4, k) + CC(0, 4, k);
        RV tr2 = CC(ido - 1, 1, k) + CC(ido - 1, 1, k);
        RV tr3 = CC(ido - 1, 3, k) + CC(ido - 1, 3, k);
        CH(0, k, 0) = CC(0, 0, k) + tr2 + tr3;
        RV cr2 = CC(0, 0, k) + tr11 * tr2 + tr12 * tr3;
        RV cr3 = CC(0, 0, k) + tr12 * tr2 + tr11 * tr3;
        RV ci4, ci5;
        MULPM(ci5, ci4, ti5, ti4, ti11, ti12);
        PM(CH(0, k, 4), CH(0, k, 1), cr2, ci5);
        PM(CH(0, k, 3), CH(0, k, 2), cr3, ci4);
    }
    if (ido == 1) return;
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 2, ic = ido - 2; i < ido; i += 2, ic -= 2) {
            RV tr2, tr3, tr4, tr5, ti2, ti3, ti4, ti5;
            PM(tr2, tr5, CC(i - 1, 2, k), CC(ic - 1, 1, k));
            PM(ti5, ti2, CC(i, 2, k), CC(ic, 1, k));
            PM(tr3, tr4, CC(i - 1, 4, k), CC(ic - 1, 3, k));
            PM(ti4, ti3, CC(i, 4, k), CC(ic, 3, k));
            CH(i - 1, k, 0) = CC(i - 1, 0, k) + tr2 + tr3;
            CH(i, k, 0) = CC(i, 0, k) + ti2 + ti3;
            RV cr2 = CC(i - 1, 0, k) + tr11 * tr2 + tr12 * tr3;
            RV ci2 = CC(i, 0, k) + tr11 * ti2 + tr12 * ti3;
            RV cr3 = CC(i - 1, 0, k) + tr12 * tr2 + tr11 * tr3;
            RV ci3 = CC(i, 0, k) + tr12 * ti2 + tr11 * ti3;
            RV ci4, ci5, cr5, cr4;
            MULPM(cr5, cr4, tr5, tr4, ti11, ti12);
            MULPM(ci5, ci4, ti5, ti4, ti11, ti12);
            RV dr2, dr3, dr4, dr5, di2, di3, di4, di5;
            PM(dr4, dr3, cr3, ci4);
            PM(di3, di4, ci3, cr4);
            PM(dr5, dr2, cr2, ci5);
            PM(di2, di5, ci2, cr5);
            MULPM(CH(i, k, 1), CH(i - 1, k, 1), WA(0, i - 2), WA(0, i - 1), di2, dr2);
            MULPM(CH(i, k, 2), CH(i - 1, k, 2), WA(1, i - 2), WA(1, i - 1), di3, dr3);
            MULPM(CH(i, k, 3), CH(i - 1, k, 3), WA(2, i - 2), WA(2, i - 1), di4, dr4);
            MULPM(CH(i, k, 4), CH(i - 1, k, 4), WA(3, i - 2), WA(3, i - 1), di5, dr5);
        }
}
#undef CDIM
#undef CC
#undef CH

static void RF(radbg)(size_t ido, size_t ip, size_t l1, RV *restrict cc, RV *restrict ch, const R *restrict wa,
                      const R *restrict csarr)
{
    const size_t cdim = ip, ipph = (ip + 1) / 2, idl1 = ido * l1;
#define CC(a, b, c) cc[(a) + ido * ((b) + cdim * (c))]
#define CH(a, b, c) ch[(a) + ido * ((b) + l1 * (c))]
#define C1(a, b, c) cc[(a) + ido * ((b) + l1 * (c))]
#define C2(a, b) cc[(a) + idl1 * (b)]
#define CH2(a, b) ch[(a) + idl1 * (b)]
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 0; i < ido; i++) CH(i, k, 0) = CC(i, 0, k);
    for (size_t j = 1, jc = ip - 1; j < ipph; j++, jc--) {
        size_t j2 = 2 * j - 1;
        for (size_t k = 0; k < l1; k++) {
            CH(0, k, j) = 2 * CC(ido - 1, j2, k);
            CH(0, k, jc) = 2 * CC(0, j2 + 1, k);
        }
    }
    if (ido != 1)
        for (size_t j = 1, jc = ip - 1; j < ipph; j++, jc--) {
            size_t j2 = 2 * j - 1;
            for (size_t k = 0; k < l1; k++)
                for (size_t i = 1, ic = ido - i - 2; i <= ido - 2; i += 2, ic -= 2) {
                    CH(i, k, j) = CC(i, j2 + 1, k) + CC(ic, j2, k);
                    CH(i, k, jc) = CC(i, j2 + 1, k) - CC(ic, j2, k);
                    CH(i + 1, k, j) = CC(i + 1, j2 + 1, k) - CC(ic + 1, j2, k);
                    CH(i + 1, k, jc) = CC(i + 1, j2 + 1, k) + CC(ic + 1, j2, k);
                }
        }
    for (size_t l = 1, lc = ip - 1; l < ipph; l++, lc--) {
        for (size_t ik = 0; ik < idl1; ik++) {
            C2(ik, l) = CH2(ik, 0) + csarr[2 * l] * CH2(ik, 1) + csarr[4 * l] * CH2(ik, 2);
            C2(ik, lc) = csarr[2 * l + 1] * CH2(ik, ip - 1) + csarr[4 * l + 1] * CH2(ik, ip - 2);
        }
        size_t iang = 2 * l, j = 3, jc = ip - 3;
        for (; j < ipph - 3; j += 4, jc -= 4) {
            iang += l; if (iang > ip) iang -= ip;
            R ar1 = csarr[2 * iang], ai1 = csarr[2 * iang + 1];
            iang += l; if (iang > ip) iang -= ip;
            R ar2 = csarr[2 * iang], ai2 = csarr[2 * iang + 1];
            iang += l; if (iang > ip) iang -= ip;
            R ar3 = csarr[2 * iang], ai3 = csarr[2 * iang + 1];
            iang += l; if (iang > ip) iang -= ip;
            R ar4 = csarr[2 * iang], ai4 = csarr[2 * iang + 1];
            for (size_t ik = 0; ik < idl1; ik++) {
                C2(ik, l) += ar1 * CH2(ik, j) + ar2 * CH2(ik, j + 1) + ar3 * CH2(ik, j + 2) + ar4 * CH2(ik, j + 3);
                C2(ik, lc) += ai1 * CH2(ik, jc) + ai2 * CH2(ik, jc - 1) + ai3 * CH2(ik, jc - 2) + ai4 * CH2(ik, jc - 3);
            }
        }
        for (; j < ipph - 1; j += 2, jc -= 2) {
            iang += l; if (iang > ip) iang -= ip;
            R ar1 = csarr[2 * iang], ai1 = csarr[2 * iang + 1];
            iang += l; if (iang > ip) iang -= ip;
            R ar2 = csarr[2 * iang], ai2 = csarr[2 * iang + 1];
            for (size_t ik = 0; ik < idl1; ik++) {
                C2(ik, l) += ar1 * CH2(ik, j) + ar2 * CH2(ik, j + 1);
                C2(ik, lc) += ai1 * CH2(ik, jc) + ai2 * CH2(ik, jc - 1);
            }
        }
        for (; j < ipph; j++, jc--) {
            iang += l; if (iang > ip) iang -= ip;
            R war = csarr[2 * iang], wai = csarr[2 * iang + 1];
            for (size_t ik = 0; ik < idl1; ik++) {
                C2(ik, l) += war * CH2(ik, j);
                C2(ik, lc) += wai * CH2(ik, jc);
            }
        }
    }
    for (size_t j = 1; j < ipph; j++)
        for (size_t ik = 0; ik < idl1; ik++) CH2(ik, 0) += CH2(ik, j);
    for (size_t j = 1, jc = ip - 1; j < ipph; j++, jc--)
        for (size_t k = 0; k < l1; k++) PM(CH(0, k, jc), CH(0, k, j), C1(0, k, j), C1(0, k, jc));
    if (ido == 1) return;
    for (size_t j = 1, jc = ip - 1; j < ipph; j++, jc--)
        for (size_t k = 0; k < l1; k++)
            for (size_t i = 1; i <= ido - 2; i += 2) {
                CH(i, k, j) = C1(i, k, j) - C1(i + 1, k, jc);
                CH(i, k, jc) = C1(i, k, j) + C1(i + 1, k, jc);
                CH(i + 1, k, j) = C1(i + 1, k, j) + C1(i, k, jc);
                CH(i + 1, k, jc) = C1(i + 1, k, j) - C1(i, k, jc);
            }
    for (size_t j = 1; j < ip; j++) {
        size_t is = (j - 1) * (ido - 1);
        for (size_t k = 0; k < l1; k++) {
            size_t idij = is;
            for (size_t i = 1; i <= ido - 2; i += 2) {
                RV t1 = CH(i, k, j), t2 = CH(i + 1, k, j);
                CH(i, k, j) = wa[idij] * t1 - wa[idij + 1] * t2;
                CH(i + 1, k, j) = wa[idij] * t2 + wa[idij + 1] * t1;
                idij += 2;
            }
        }
    }
#undef CC
#undef CH
#undef C1
#undef C2
#undef CH2
}
#undef MULPM
#undef PM
#undef WA
#undef REARRANGE

static int RF(rfftp_run)(const FN(rfftp) *p, RV *c, RV *ch, R fct, bool r2hc)
{
    size_t len = p->length;
    if (len == 1) { c[0] *= fct; return 0; }
    RV *p1 = c, *p2 = ch, *t;
    int nf = p->nfct;
    if (r2hc)
        for (int k1 = 0, k; k1 < nf; k1++) {
            k = nf - k1 - 1;
            size_t ip = p->fct[k].fct, l1 = len, ido;
            for (int q = nf - 1; q >= k; q--) l1 /= p->fct[q].fct;
            ido = len / (l1 * ip);
            switch (ip) {
            case 4: RF(radf4)(ido, l1, p1, p2, p->fct[k].tw); break;
            case 2: RF(radf2)(ido, l1, p1, p2, p->fct[k].tw); break;
            case 3: RF(radf3)(ido, l1, p1, p2, p->fct[k].tw); break;
            case 5: RF(radf5)(ido, l1, p1, p2, p->fct[k].tw); break;
            default: RF(radfg)(ido, ip, l1, p1, p2, p->fct[k].tw, p->fct[k].tws); t = p1; p1 = p2; p2 = t;
            }
            t = p1; p1 = p2; p2 = t;
        }
    else
        for (int k = 0; k < nf; k++) {
            size_t ip = p->fct[k].fct, l1 = 1, ido;
            for (int q = 0; q < k; q++) l1 *= p->fct[q].fct;
            ido = len / (ip * l1);
            switch (ip) {
            case 4: RF(radb4)(ido, l1, p1, p2, p->fct[k].tw); break;
            case 2: RF(radb2)(ido, l1, p1, p2, p->fct[k].tw); break;
            case 3: RF(radb3)(ido, l1, p1, p2, p->fct[k].tw); break;
            case 5: RF(radb5)(ido, l1, p1, p2, p->fct[k].tw); break;
            default: RF(radbg)(ido, ip, l1, p1, p2, p->fct[k].tw, p->fct[k].tws);
            }
            t = p1; p1 = p2; p2 = t;
        }
    if (p1 != c) {
        if (fct != 1)
            for (size_t i = 0; i < len; i++) c[i] = fct * p1[i];
        else
            memcpy(c, p1, len * sizeof *c);
    } else if (fct != 1)
        for (size_t i = 0; i < len; i++) c[i] *= fct;
    return 0;
}
