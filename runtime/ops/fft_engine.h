/* runtime/ops/fft_engine.h — one precision (R, suffix RS) of the transform
 * engine, included by fft.c once for float and once for double: pocketfft's
 * complex (cfftp) and real (rfftp) FFTPACK plans, Bluestein's algorithm for
 * lengths with a large prime factor, and the plan choice between them. The
 * arithmetic follows pocketfft's C++ header step by step (the twiddles are
 * computed in double and rounded to R, as there). */

#define CX FCAT(cpx, RS)
#define FN(name) FCAT(name, RS)

typedef struct { R r, i; } CX;
static inline CX FN(cadd)(CX a, CX b) { CX c = {a.r + b.r, a.i + b.i}; return c; }
static inline CX FN(csub)(CX a, CX b) { CX c = {a.r - b.r, a.i - b.i}; return c; }
#define cadd FN(cadd)
#define csub FN(csub)

typedef struct { size_t fct; CX *tw, *tws; } FN(cfct);
typedef struct { size_t length; int nfct; FN(cfct) fct[64]; CX *mem, *ch; } FN(cfftp);   /* ch: scratch */
typedef struct { size_t fct; R *tw, *tws; } FN(rfct);
typedef struct { size_t length; int nfct; FN(rfct) fct[64]; R *mem, *ch; } FN(rfftp);
typedef struct { size_t n, n2; FN(cfftp) plan; CX *mem, *bk, *bkf, *akf, *tmp; } FN(blue);

/* twiddle[idx] = exp(2 pi i idx / n), rounded to R (sincos_2pibyn) */
static CX FN(tw_get)(const twid *t, size_t idx)
{
    CX r;
    if (2 * idx <= t->n) {
        dcx x1 = t->v1[idx & t->mask], x2 = t->v2[idx >> t->shift];
        r.r = (R)(x1.r * x2.r - x1.i * x2.i);
        r.i = (R)(x1.r * x2.i + x1.i * x2.r);
        return r;
    }
    idx = t->n - idx;
    dcx x1 = t->v1[idx & t->mask], x2 = t->v2[idx >> t->shift];
    r.r = (R)(x1.r * x2.r - x1.i * x2.i);
    r.i = -(R)(x1.r * x2.i + x1.i * x2.r);
    return r;
}

static void FN(cfftp_free)(FN(cfftp) *p) { tsr_free(p->mem); tsr_free(p->ch); p->mem = p->ch = NULL; }

static int FN(cfftp_init)(FN(cfftp) *p, size_t length)
{
    memset(p, 0, sizeof *p);
    p->length = length;
    if (length == 1) return 0;
    size_t len = length;
    while ((len & 7) == 0) { p->fct[p->nfct++].fct = 8; len >>= 3; }
    while ((len & 3) == 0) { p->fct[p->nfct++].fct = 4; len >>= 2; }
    if ((len & 1) == 0) {
        len >>= 1;
        p->fct[p->nfct++].fct = 2;
        size_t t = p->fct[0].fct; p->fct[0].fct = p->fct[p->nfct - 1].fct; p->fct[p->nfct - 1].fct = t;
    }
    for (size_t d = 3; d * d <= len; d += 2)
        while (len % d == 0) { p->fct[p->nfct++].fct = d; len /= d; }
    if (len > 1) p->fct[p->nfct++].fct = len;
    size_t twsz = 0, l1 = 1;
    for (int k = 0; k < p->nfct; k++) {
        size_t ip = p->fct[k].fct, ido = length / (l1 * ip);
        twsz += (ip - 1) * (ido - 1);
        if (ip > 11) twsz += ip;
        l1 *= ip;
    }
    p->mem = tsr_malloc((twsz ? twsz : 1) * sizeof *p->mem);
    p->ch = tsr_malloc(length * sizeof *p->ch);
    twid t;
    if (!p->mem || !p->ch || twid_init(&t, length) < 0) { FN(cfftp_free)(p); return -1; }
    size_t ofs = 0;
    l1 = 1;
    for (int k = 0; k < p->nfct; k++) {
        size_t ip = p->fct[k].fct, ido = length / (l1 * ip);
        p->fct[k].tw = p->mem + ofs;
        ofs += (ip - 1) * (ido - 1);
        for (size_t j = 1; j < ip; j++)
            for (size_t i = 1; i < ido; i++) p->fct[k].tw[(j - 1) * (ido - 1) + i - 1] = FN(tw_get)(&t, j * l1 * i);
        if (ip > 11) {
            p->fct[k].tws = p->mem + ofs;
            ofs += ip;
            for (size_t j = 0; j < ip; j++) p->fct[k].tws[j] = FN(tw_get)(&t, j * l1 * ido);
        }
        l1 *= ip;
    }
    twid_free(&t);
    return 0;
}

#define FWD 1
#include "fft_pass.h"
#undef FWD
#define FWD 0
#include "fft_pass.h"
#undef FWD

static int FN(cfftp_exec)(const FN(cfftp) *p, CX *c, R fct, bool fwd)
{
    return fwd ? FCAT(FCAT(pass_all, RS), _1)(p, c, fct) : FCAT(FCAT(pass_all, RS), _0)(p, c, fct);
}

/* ------------------------------------------------------------ real FFTPACK */

/* (a+ib) = conj(c+id) * (e+if) */
#define MULPM(a, b, c, d, e, f) { a = (c) * (e) + (d) * (f); b = (c) * (f) - (d) * (e); }
#define PM(a, b, c, d) { R pm_c = (c), pm_d = (d); a = pm_c + pm_d; b = pm_c - pm_d; }
#define WA(x, i) wa[(i) + (x) * (ido - 1)]

#define CC(a, b, c) cc[(a) + ido * ((b) + l1 * (c))]
#define CH(a, b, c) ch[(a) + ido * ((b) + CDIM * (c))]
#define CDIM 2
static void FN(radf2)(size_t ido, size_t l1, const R *restrict cc, R *restrict ch, const R *restrict wa)
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
            R tr2, ti2;
            MULPM(tr2, ti2, WA(0, i - 2), WA(0, i - 1), CC(i - 1, k, 1), CC(i, k, 1));
            PM(CH(i - 1, 0, k), CH(ic - 1, 1, k), CC(i - 1, k, 0), tr2);
            PM(CH(i, 0, k), CH(ic, 1, k), ti2, CC(i, k, 0));
        }
}
#undef CDIM

#define REARRANGE(rx, ix, ry, iy) { R t1 = rx + ry, t2 = ry - rx, t3 = ix + iy, t4 = ix - iy; rx = t1; ix = t3; ry = t4; iy = t2; }

#define CDIM 3
static void FN(radf3)(size_t ido, size_t l1, const R *restrict cc, R *restrict ch, const R *restrict wa)
{
    const R taur = (R)-0.5, taui = (R)0.8660254037844386467637231707529362L;
    for (size_t k = 0; k < l1; k++) {
        R cr2 = CC(0, k, 1) + CC(0, k, 2);
        CH(0, 0, k) = CC(0, k, 0) + cr2;
        CH(0, 2, k) = taui * (CC(0, k, 2) - CC(0, k, 1));
        CH(ido - 1, 1, k) = CC(0, k, 0) + taur * cr2;
    }
    if (ido == 1) return;
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 2; i < ido; i += 2) {
            size_t ic = ido - i;
            R di2, di3, dr2, dr3;
            MULPM(dr2, di2, WA(0, i - 2), WA(0, i - 1), CC(i - 1, k, 1), CC(i, k, 1));
            MULPM(dr3, di3, WA(1, i - 2), WA(1, i - 1), CC(i - 1, k, 2), CC(i, k, 2));
            REARRANGE(dr2, di2, dr3, di3);
            CH(i - 1, 0, k) = CC(i - 1, k, 0) + dr2;
            CH(i, 0, k) = CC(i, k, 0) + di2;
            R tr2 = CC(i - 1, k, 0) + taur * dr2, ti2 = CC(i, k, 0) + taur * di2;
            R tr3 = taui * dr3, ti3 = taui * di3;
            PM(CH(i - 1, 2, k), CH(ic - 1, 1, k), tr2, tr3);
            PM(CH(i, 2, k), CH(ic, 1, k), ti3, ti2);
        }
}
#undef CDIM

#define CDIM 4
static void FN(radf4)(size_t ido, size_t l1, const R *restrict cc, R *restrict ch, const R *restrict wa)
{
    const R hsqt2 = (R)0.707106781186547524400844362104849L;
    for (size_t k = 0; k < l1; k++) {
        R tr1, tr2;
        PM(tr1, CH(0, 2, k), CC(0, k, 3), CC(0, k, 1));
        PM(tr2, CH(ido - 1, 1, k), CC(0, k, 0), CC(0, k, 2));
        PM(CH(0, 0, k), CH(ido - 1, 3, k), tr2, tr1);
    }
    if ((ido & 1) == 0)
        for (size_t k = 0; k < l1; k++) {
            R ti1 = -hsqt2 * (CC(ido - 1, k, 1) + CC(ido - 1, k, 3));
            R tr1 = hsqt2 * (CC(ido - 1, k, 1) - CC(ido - 1, k, 3));
            PM(CH(ido - 1, 0, k), CH(ido - 1, 2, k), CC(ido - 1, k, 0), tr1);
            PM(CH(0, 3, k), CH(0, 1, k), ti1, CC(ido - 1, k, 2));
        }
    if (ido <= 2) return;
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 2; i < ido; i += 2) {
            size_t ic = ido - i;
            R ci2, ci3, ci4, cr2, cr3, cr4, ti1, ti2, ti3, ti4, tr1, tr2, tr3, tr4;
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
static void FN(radf5)(size_t ido, size_t l1, const R *restrict cc, R *restrict ch, const R *restrict wa)
{
    const R tr11 = (R)0.3090169943749474241022934171828191L, ti11 = (R)0.9510565162951535721164393333793821L,
            tr12 = (R)-0.8090169943749474241022934171828191L, ti12 = (R)0.5877852522924731291687059546390728L;
    for (size_t k = 0; k < l1; k++) {
        R cr2, cr3, ci4, ci5;
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
            R di2, di3, di4, di5, dr2, dr3, dr4, dr5;
            MULPM(dr2, di2, WA(0, i - 2), WA(0, i - 1), CC(i - 1, k, 1), CC(i, k, 1));
            MULPM(dr3, di3, WA(1, i - 2), WA(1, i - 1), CC(i - 1, k, 2), CC(i, k, 2));
            MULPM(dr4, di4, WA(2, i - 2), WA(2, i - 1), CC(i - 1, k, 3), CC(i, k, 3));
            MULPM(dr5, di5, WA(3, i - 2), WA(3, i - 1), CC(i - 1, k, 4), CC(i, k, 4));
            REARRANGE(dr2, di2, dr5, di5);
            REARRANGE(dr3, di3, dr4, di4);
            CH(i - 1, 0, k) = CC(i - 1, k, 0) + dr2 + dr3;
            CH(i, 0, k) = CC(i, k, 0) + di2 + di3;
            R tr2 = CC(i - 1, k, 0) + tr11 * dr2 + tr12 * dr3;
            R ti2 = CC(i, k, 0) + tr11 * di2 + tr12 * di3;
            R tr3 = CC(i - 1, k, 0) + tr12 * dr2 + tr11 * dr3;
            R ti3 = CC(i, k, 0) + tr12 * di2 + tr11 * di3;
            R tr5 = ti11 * dr5 + ti12 * dr4;
            R ti5 = ti11 * di5 + ti12 * di4;
            R tr4 = ti12 * dr5 - ti11 * dr4;
            R ti4 = ti12 * di5 - ti11 * di4;
            PM(CH(i - 1, 2, k), CH(ic - 1, 1, k), tr2, tr5);
            PM(CH(i, 2, k), CH(ic, 1, k), ti5, ti2);
            PM(CH(i - 1, 4, k), CH(ic - 1, 3, k), tr3, tr4);
            PM(CH(i, 4, k), CH(ic, 3, k), ti4, ti3);
        }
}
#undef CDIM
#undef CC
#undef CH

static void FN(radfg)(size_t ido, size_t ip, size_t l1, R *restrict cc, R *restrict ch, const R *restrict wa,
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
                    R t1 = C1(i, k, j), t2 = C1(i + 1, k, j), t3 = C1(i, k, jc), t4 = C1(i + 1, k, jc);
                    R x1 = wa[idij] * t1 + wa[idij + 1] * t2, x2 = wa[idij] * t2 - wa[idij + 1] * t1,
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
            R a = C1(0, k, jc), b = C1(0, k, j);
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
static void FN(radb2)(size_t ido, size_t l1, const R *restrict cc, R *restrict ch, const R *restrict wa)
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
            R ti2, tr2;
            PM(CH(i - 1, k, 0), tr2, CC(i - 1, 0, k), CC(ic - 1, 1, k));
            PM(ti2, CH(i, k, 0), CC(i, 0, k), CC(ic, 1, k));
            MULPM(CH(i, k, 1), CH(i - 1, k, 1), WA(0, i - 2), WA(0, i - 1), ti2, tr2);
        }
}
#undef CDIM

#define CDIM 3
static void FN(radb3)(size_t ido, size_t l1, const R *restrict cc, R *restrict ch, const R *restrict wa)
{
    const R taur = (R)-0.5, taui = (R)0.8660254037844386467637231707529362L;
    for (size_t k = 0; k < l1; k++) {
        R tr2 = 2 * CC(ido - 1, 1, k);
        R cr2 = CC(0, 0, k) + taur * tr2;
        CH(0, k, 0) = CC(0, 0, k) + tr2;
        R ci3 = 2 * taui * CC(0, 2, k);
        PM(CH(0, k, 2), CH(0, k, 1), cr2, ci3);
    }
    if (ido == 1) return;
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 2, ic = ido - 2; i < ido; i += 2, ic -= 2) {
            R tr2 = CC(i - 1, 2, k) + CC(ic - 1, 1, k);
            R ti2 = CC(i, 2, k) - CC(ic, 1, k);
            R cr2 = CC(i - 1, 0, k) + taur * tr2;
            R ci2 = CC(i, 0, k) + taur * ti2;
            CH(i - 1, k, 0) = CC(i - 1, 0, k) + tr2;
            CH(i, k, 0) = CC(i, 0, k) + ti2;
            R cr3 = taui * (CC(i - 1, 2, k) - CC(ic - 1, 1, k));
            R ci3 = taui * (CC(i, 2, k) + CC(ic, 1, k));
            R di2, di3, dr2, dr3;
            PM(dr3, dr2, cr2, ci3);
            PM(di2, di3, ci2, cr3);
            MULPM(CH(i, k, 1), CH(i - 1, k, 1), WA(0, i - 2), WA(0, i - 1), di2, dr2);
            MULPM(CH(i, k, 2), CH(i - 1, k, 2), WA(1, i - 2), WA(1, i - 1), di3, dr3);
        }
}
#undef CDIM

#define CDIM 4
static void FN(radb4)(size_t ido, size_t l1, const R *restrict cc, R *restrict ch, const R *restrict wa)
{
    const R sqrt2 = (R)1.414213562373095048801688724209698L;
    for (size_t k = 0; k < l1; k++) {
        R tr1, tr2;
        PM(tr2, tr1, CC(0, 0, k), CC(ido - 1, 3, k));
        R tr3 = 2 * CC(ido - 1, 1, k);
        R tr4 = 2 * CC(0, 2, k);
        PM(CH(0, k, 0), CH(0, k, 2), tr2, tr3);
        PM(CH(0, k, 3), CH(0, k, 1), tr1, tr4);
    }
    if ((ido & 1) == 0)
        for (size_t k = 0; k < l1; k++) {
            R tr1, tr2, ti1, ti2;
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
            R ci2, ci3, ci4, cr2, cr3, cr4, ti1, ti2, ti3, ti4, tr1, tr2, tr3, tr4;
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
static void FN(radb5)(size_t ido, size_t l1, const R *restrict cc, R *restrict ch, const R *restrict wa)
{
    const R tr11 = (R)0.3090169943749474241022934171828191L, ti11 = (R)0.9510565162951535721164393333793821L,
            tr12 = (R)-0.8090169943749474241022934171828191L, ti12 = (R)0.5877852522924731291687059546390728L;
    for (size_t k = 0; k < l1; k++) {
        R ti5 = CC(0, 2, k) + CC(0, 2, k);
        R ti4 = CC(0, 4, k) + CC(0, 4, k);
        R tr2 = CC(ido - 1, 1, k) + CC(ido - 1, 1, k);
        R tr3 = CC(ido - 1, 3, k) + CC(ido - 1, 3, k);
        CH(0, k, 0) = CC(0, 0, k) + tr2 + tr3;
        R cr2 = CC(0, 0, k) + tr11 * tr2 + tr12 * tr3;
        R cr3 = CC(0, 0, k) + tr12 * tr2 + tr11 * tr3;
        R ci4, ci5;
        MULPM(ci5, ci4, ti5, ti4, ti11, ti12);
        PM(CH(0, k, 4), CH(0, k, 1), cr2, ci5);
        PM(CH(0, k, 3), CH(0, k, 2), cr3, ci4);
    }
    if (ido == 1) return;
    for (size_t k = 0; k < l1; k++)
        for (size_t i = 2, ic = ido - 2; i < ido; i += 2, ic -= 2) {
            R tr2, tr3, tr4, tr5, ti2, ti3, ti4, ti5;
            PM(tr2, tr5, CC(i - 1, 2, k), CC(ic - 1, 1, k));
            PM(ti5, ti2, CC(i, 2, k), CC(ic, 1, k));
            PM(tr3, tr4, CC(i - 1, 4, k), CC(ic - 1, 3, k));
            PM(ti4, ti3, CC(i, 4, k), CC(ic, 3, k));
            CH(i - 1, k, 0) = CC(i - 1, 0, k) + tr2 + tr3;
            CH(i, k, 0) = CC(i, 0, k) + ti2 + ti3;
            R cr2 = CC(i - 1, 0, k) + tr11 * tr2 + tr12 * tr3;
            R ci2 = CC(i, 0, k) + tr11 * ti2 + tr12 * ti3;
            R cr3 = CC(i - 1, 0, k) + tr12 * tr2 + tr11 * tr3;
            R ci3 = CC(i, 0, k) + tr12 * ti2 + tr11 * ti3;
            R ci4, ci5, cr5, cr4;
            MULPM(cr5, cr4, tr5, tr4, ti11, ti12);
            MULPM(ci5, ci4, ti5, ti4, ti11, ti12);
            R dr2, dr3, dr4, dr5, di2, di3, di4, di5;
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

static void FN(radbg)(size_t ido, size_t ip, size_t l1, R *restrict cc, R *restrict ch, const R *restrict wa,
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
                R t1 = CH(i, k, j), t2 = CH(i + 1, k, j);
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

static void FN(rfftp_free)(FN(rfftp) *p) { tsr_free(p->mem); tsr_free(p->ch); p->mem = p->ch = NULL; }

static int FN(rfftp_init)(FN(rfftp) *p, size_t length)
{
    memset(p, 0, sizeof *p);
    p->length = length;
    if (length == 1) return 0;
    size_t len = length;
    while (len % 4 == 0) { p->fct[p->nfct++].fct = 4; len >>= 2; }
    if (len % 2 == 0) {
        len >>= 1;
        p->fct[p->nfct++].fct = 2;
        size_t t = p->fct[0].fct; p->fct[0].fct = p->fct[p->nfct - 1].fct; p->fct[p->nfct - 1].fct = t;
    }
    for (size_t d = 3; d * d <= len; d += 2)
        while (len % d == 0) { p->fct[p->nfct++].fct = d; len /= d; }
    if (len > 1) p->fct[p->nfct++].fct = len;
    size_t twsz = 0, l1 = 1;
    for (int k = 0; k < p->nfct; k++) {
        size_t ip = p->fct[k].fct, ido = length / (l1 * ip);
        twsz += (ip - 1) * (ido - 1);
        if (ip > 5) twsz += 2 * ip;
        l1 *= ip;
    }
    p->mem = tsr_malloc((twsz ? twsz : 1) * sizeof *p->mem);
    p->ch = tsr_malloc(length * sizeof *p->ch);
    twid t;
    if (!p->mem || !p->ch || twid_init(&t, length) < 0) { FN(rfftp_free)(p); return -1; }
    R *ptr = p->mem;
    l1 = 1;
    for (int k = 0; k < p->nfct; k++) {
        size_t ip = p->fct[k].fct, ido = length / (l1 * ip);
        if (k < p->nfct - 1) {
            p->fct[k].tw = ptr;
            ptr += (ip - 1) * (ido - 1);
            for (size_t j = 1; j < ip; j++)
                for (size_t i = 1; i <= (ido - 1) / 2; i++) {
                    CX w = FN(tw_get)(&t, j * l1 * i);
                    p->fct[k].tw[(j - 1) * (ido - 1) + 2 * i - 2] = w.r;
                    p->fct[k].tw[(j - 1) * (ido - 1) + 2 * i - 1] = w.i;
                }
        }
        if (ip > 5) {
            R *ts = p->fct[k].tws = ptr;
            ptr += 2 * ip;
            ts[0] = 1;
            ts[1] = 0;
            for (size_t i = 2, ic = 2 * ip - 2; i <= ic; i += 2, ic -= 2) {
                CX w = FN(tw_get)(&t, i / 2 * (length / ip));
                ts[i] = w.r;
                ts[i + 1] = w.i;
                ts[ic] = w.r;
                ts[ic + 1] = -w.i;
            }
        }
        l1 *= ip;
    }
    twid_free(&t);
    return 0;
}

/* r2hc: real → FFTPACK halfcomplex order (r0, r1, i1, r2, i2, ...); else the inverse. */
static int FN(rfftp_exec)(const FN(rfftp) *p, R *c, R fct, bool r2hc)
{
    size_t len = p->length;
    if (len == 1) { c[0] *= fct; return 0; }
    R *ch = p->ch;
    R *p1 = c, *p2 = ch, *t;
    int nf = p->nfct;
    if (r2hc)
        for (int k1 = 0, k; k1 < nf; k1++) {
            k = nf - k1 - 1;
            size_t ip = p->fct[k].fct, l1 = len, ido;
            for (int q = nf - 1; q >= k; q--) l1 /= p->fct[q].fct;
            ido = len / (l1 * ip);
            switch (ip) {
            case 4: FN(radf4)(ido, l1, p1, p2, p->fct[k].tw); break;
            case 2: FN(radf2)(ido, l1, p1, p2, p->fct[k].tw); break;
            case 3: FN(radf3)(ido, l1, p1, p2, p->fct[k].tw); break;
            case 5: FN(radf5)(ido, l1, p1, p2, p->fct[k].tw); break;
            default: FN(radfg)(ido, ip, l1, p1, p2, p->fct[k].tw, p->fct[k].tws); t = p1; p1 = p2; p2 = t;
            }
            t = p1; p1 = p2; p2 = t;
        }
    else
        for (int k = 0; k < nf; k++) {
            size_t ip = p->fct[k].fct, l1 = 1, ido;
            for (int q = 0; q < k; q++) l1 *= p->fct[q].fct;
            ido = len / (ip * l1);
            switch (ip) {
            case 4: FN(radb4)(ido, l1, p1, p2, p->fct[k].tw); break;
            case 2: FN(radb2)(ido, l1, p1, p2, p->fct[k].tw); break;
            case 3: FN(radb3)(ido, l1, p1, p2, p->fct[k].tw); break;
            case 5: FN(radb5)(ido, l1, p1, p2, p->fct[k].tw); break;
            default: FN(radbg)(ido, ip, l1, p1, p2, p->fct[k].tw, p->fct[k].tws);
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

/* ------------------------------------------------------------ Bluestein */

static void FN(blue_free)(FN(blue) *b)
{
    FN(cfftp_free)(&b->plan);
    tsr_free(b->mem);
    tsr_free(b->akf);
    tsr_free(b->tmp);
    b->mem = b->akf = b->tmp = NULL;
}

static int FN(blue_init)(FN(blue) *b, size_t n)
{
    memset(b, 0, sizeof *b);
    b->n = n;
    b->n2 = good_size_cmplx(n * 2 - 1);
    if (FN(cfftp_init)(&b->plan, b->n2) < 0) return -1;
    size_t n2 = b->n2;
    b->mem = tsr_malloc((n + n2 / 2 + 1) * sizeof *b->mem);
    b->akf = tsr_malloc(n2 * sizeof *b->akf);
    b->tmp = tsr_malloc(n * sizeof *b->tmp);
    CX *tbkf = b->akf;
    twid t;
    int tok = -1;
    if (!b->mem || !tbkf || !b->tmp || (tok = twid_init(&t, 2 * n)) < 0) { FN(blue_free)(b); return -1; }
    b->bk = b->mem;
    b->bkf = b->mem + n;
    b->bk[0].r = 1; b->bk[0].i = 0;
    size_t coeff = 0;
    for (size_t m = 1; m < n; m++) {
        coeff += 2 * m - 1;
        if (coeff >= 2 * n) coeff -= 2 * n;
        b->bk[m] = FN(tw_get)(&t, coeff);
    }
    twid_free(&t);
    R xn2 = (R)1 / (R)n2;
    tbkf[0].r = b->bk[0].r * xn2; tbkf[0].i = b->bk[0].i * xn2;
    for (size_t m = 1; m < n; m++) {
        tbkf[m].r = b->bk[m].r * xn2; tbkf[m].i = b->bk[m].i * xn2;
        tbkf[n2 - m] = tbkf[m];
    }
    for (size_t m = n; m <= n2 - n; m++) { tbkf[m].r = 0; tbkf[m].i = 0; }
    if (FN(cfftp_exec)(&b->plan, tbkf, 1, true) < 0) { FN(blue_free)(b); return -1; }
    for (size_t i = 0; i < n2 / 2 + 1; i++) b->bkf[i] = tbkf[i];
    return 0;
}

static inline CX FN(smulf)(CX v, CX w, bool fwd)
{
    CX r;
    if (fwd) { r.r = v.r * w.r + v.i * w.i; r.i = v.i * w.r - v.r * w.i; }
    else { r.r = v.r * w.r - v.i * w.i; r.i = v.r * w.i + v.i * w.r; }
    return r;
}

static int FN(blue_fft)(const FN(blue) *b, CX *c, R fct, bool fwd)
{
    size_t n = b->n, n2 = b->n2;
    CX *akf = b->akf;
    for (size_t m = 0; m < n; m++) akf[m] = FN(smulf)(c[m], b->bk[m], fwd);
    CX zero = {akf[0].r * 0, akf[0].i * 0};
    for (size_t m = n; m < n2; m++) akf[m] = zero;
    if (FN(cfftp_exec)(&b->plan, akf, 1, true) < 0) goto fail;
    akf[0] = FN(smulf)(akf[0], b->bkf[0], !fwd);
    for (size_t m = 1; m < (n2 + 1) / 2; m++) {
        akf[m] = FN(smulf)(akf[m], b->bkf[m], !fwd);
        akf[n2 - m] = FN(smulf)(akf[n2 - m], b->bkf[m], !fwd);
    }
    if ((n2 & 1) == 0) akf[n2 / 2] = FN(smulf)(akf[n2 / 2], b->bkf[n2 / 2], !fwd);
    if (FN(cfftp_exec)(&b->plan, akf, 1, false) < 0) goto fail;
    for (size_t m = 0; m < n; m++) {
        CX v = FN(smulf)(akf[m], b->bk[m], fwd);
        c[m].r = v.r * fct;
        c[m].i = v.i * fct;
    }
    return 0;
fail:
    return -1;
}

static int FN(blue_exec_r)(const FN(blue) *b, R *c, R fct, bool fwd)
{
    size_t n = b->n;
    CX *tmp = b->tmp;
    int rc;
    if (fwd) {
        R zero = 0 * c[0];
        for (size_t m = 0; m < n; m++) { tmp[m].r = c[m]; tmp[m].i = zero; }
        rc = FN(blue_fft)(b, tmp, fct, true);
        c[0] = tmp[0].r;
        memcpy(c + 1, &tmp[1].r, (n - 1) * sizeof *c);
    } else {
        tmp[0].r = c[0]; tmp[0].i = c[0] * 0;
        memcpy(&tmp[1].r, c + 1, (n - 1) * sizeof *c);
        if ((n & 1) == 0) tmp[n / 2].i = 0 * c[0];
        for (size_t m = 1; 2 * m < n; m++) { tmp[n - m].r = tmp[m].r; tmp[n - m].i = -tmp[m].i; }
        rc = FN(blue_fft)(b, tmp, fct, false);
        for (size_t m = 0; m < n; m++) c[m] = tmp[m].r;
    }
    return rc;
}

/* ------------------------------------------------------------ plans */

typedef struct { size_t len; bool real, isblue; FN(cfftp) c; FN(rfftp) r; FN(blue) b; } FN(plan);

static void FN(plan_free)(FN(plan) *p)
{
    if (p->isblue) FN(blue_free)(&p->b);
    else if (p->real) FN(rfftp_free)(&p->r);
    else FN(cfftp_free)(&p->c);
}

/* pocketfft_c / pocketfft_r: FFTPACK unless a large prime factor makes
 * Bluestein cheaper by pocketfft's cost estimate. */
static int FN(plan_init)(FN(plan) *p, size_t len, bool real)
{
    memset(p, 0, sizeof *p);
    p->len = len;
    p->real = real;
    size_t lpf = len < 50 ? 0 : largest_prime_factor(len);
    if (lpf * lpf > len) {
        double comp1 = (real ? 0.5 : 1.0) * cost_guess(len);
        double comp2 = 2 * cost_guess(good_size_cmplx(2 * len - 1));
        comp2 *= 1.5;
        if (comp2 < comp1) { p->isblue = true; return FN(blue_init)(&p->b, len); }
    }
    return real ? FN(rfftp_init)(&p->r, len) : FN(cfftp_init)(&p->c, len);
}

static int FN(plan_exec_c)(const FN(plan) *p, CX *c, R fct, bool fwd)
{
    return p->isblue ? FN(blue_fft)(&p->b, c, fct, fwd) : FN(cfftp_exec)(&p->c, c, fct, fwd);
}

static int FN(plan_exec_r)(const FN(plan) *p, R *c, R fct, bool fwd)
{
    return p->isblue ? FN(blue_exec_r)(&p->b, c, fct, fwd) : FN(rfftp_exec)(&p->r, c, fct, fwd);
}


/* A small cache of plans, as pocketfft's get_plan keeps its last 16: a
 * transform takes its plan out of the cache (a plan's scratch is its own, so
 * no two transforms share one) and puts it back when done; the least recently
 * used plan goes when the cache is full or holds more than FFT_CACHE_BYTES. */
static struct { FN(plan) p; size_t bytes; uint64_t used; } FN(pcache)[FFT_CACHE_N];
static int FN(pcache_n);
static size_t FN(pcache_bytes);

static size_t FN(plan_bytes)(const FN(plan) *p)
{
    if (p->isblue) return (3 * p->b.n2 + 2 * p->b.n) * sizeof(CX);
    return 2 * p->len * (p->real ? sizeof(R) : sizeof(CX));
}

static int FN(plan_get)(FN(plan) *p, size_t len, bool real)
{
    pthread_mutex_lock(&fft_cache_lock);
    for (int k = 0; k < FN(pcache_n); k++)
        if (FN(pcache)[k].p.len == len && FN(pcache)[k].p.real == real) {
            *p = FN(pcache)[k].p;
            FN(pcache_bytes) -= FN(pcache)[k].bytes;
            FN(pcache)[k] = FN(pcache)[--FN(pcache_n)];
            pthread_mutex_unlock(&fft_cache_lock);
            return 0;
        }
    pthread_mutex_unlock(&fft_cache_lock);
    return FN(plan_init)(p, len, real);
}

static void FN(plan_put)(FN(plan) *p)
{
    size_t bytes = FN(plan_bytes)(p);
    if (bytes > FFT_CACHE_BYTES) { FN(plan_free)(p); return; }
    pthread_mutex_lock(&fft_cache_lock);
    while (FN(pcache_n) == FFT_CACHE_N || FN(pcache_bytes) + bytes > FFT_CACHE_BYTES) {
        int lru = 0;
        for (int k = 1; k < FN(pcache_n); k++)
            if (FN(pcache)[k].used < FN(pcache)[lru].used) lru = k;
        FN(plan_free)(&FN(pcache)[lru].p);
        FN(pcache_bytes) -= FN(pcache)[lru].bytes;
        FN(pcache)[lru] = FN(pcache)[--FN(pcache_n)];
    }
    FN(pcache)[FN(pcache_n)].p = *p;
    FN(pcache)[FN(pcache_n)].bytes = bytes;
    FN(pcache)[FN(pcache_n)].used = ++fft_cache_clock;
    FN(pcache_n)++;
    FN(pcache_bytes) += bytes;
    pthread_mutex_unlock(&fft_cache_lock);
}

/* Frees the cached plans at exit, so that leak checkers see a clean heap. */
__attribute__((destructor)) static void FN(pcache_drop)(void)
{
    pthread_mutex_lock(&fft_cache_lock);
    while (FN(pcache_n) > 0) FN(plan_free)(&FN(pcache)[--FN(pcache_n)].p);
    FN(pcache_bytes) = 0;
    pthread_mutex_unlock(&fft_cache_lock);
}

/* ------------------------------------------------------------ strided drivers */

#ifndef NB
#define NB 16
#endif

/* c2c along axes[0..na-1] in turn (pocketfft general_nd): the first reads in,
 * later ones work in place on out; fct scales the first axis only. */
static int FN(c2c_nd)(const CX *in, const int64_t *is, CX *out, const int64_t *os, int ndim, const int64_t *sizes,
                      int na, const int64_t *axes, R fct, bool fwd)
{
    for (int a = 0; a < na; a++) {
        int ax = (int)axes[a];
        size_t len = (size_t)sizes[ax];
        FN(plan) p;
        if (FN(plan_get)(&p, len, false) < 0) return -1;
        const CX *src = a == 0 ? in : out;
        const int64_t *ss = a == 0 ? is : os;
        /* lines along a strided axis go NB at a time, so that the gather and
         * the scatter read and write neighbouring elements together; a line
         * contiguous in both is copied into the output and transformed there
         * (pocketfft's in-place buffer) */
        int nbmax = (ss[ax] == 1 && os[ax] == 1) ? 1 : NB;
        CX *buf = nbmax == 1 ? NULL : tsr_malloc(len * (size_t)nbmax * sizeof *buf);
        if (nbmax > 1 && !buf) { FN(plan_put)(&p); return -1; }
        lineit it;
        lineit_init(&it, ndim, sizes, ax, ss, os);
        int rc = 0;
        int64_t io[NB], oo[NB];
        for (;;) {
            int nb = 0;
            while (nb < nbmax && lineit_next(&it)) { io[nb] = it.ioff; oo[nb] = it.ooff; nb++; }
            if (nb == 0) break;
            if (nbmax == 1) {
                CX *d = out + oo[0];
                if (src + io[0] != d) memmove(d, src + io[0], len * sizeof *d);
                if (FN(plan_exec_c)(&p, d, fct, fwd) < 0 || lineit_poll(&it, len) < 0) { rc = -1; break; }
                continue;
            }
            for (size_t i = 0; i < len; i++) {
                const CX *s = src + (int64_t)i * ss[ax];
                for (int b = 0; b < nb; b++) buf[(size_t)b * len + i] = s[io[b]];
            }
            for (int b = 0; b < nb && rc == 0; b++)
                if (FN(plan_exec_c)(&p, buf + (size_t)b * len, fct, fwd) < 0 || lineit_poll(&it, len) < 0) rc = -1;
            if (rc < 0) break;
            for (size_t i = 0; i < len; i++) {
                CX *d = out + (int64_t)i * os[ax];
                for (int b = 0; b < nb; b++) d[oo[b]] = buf[(size_t)b * len + i];
            }
        }
        tsr_free(buf);
        FN(plan_put)(&p);
        if (rc < 0) return -1;
        fct = 1;
    }
    return 0;
}

/* r2c along axes[na-1] (onesided into out, whose strides are os), then c2c
 * forward over the other axes in place (pocketfft r2c). */
static int FN(r2c_nd)(const R *in, const int64_t *is, CX *out, const int64_t *os, int ndim, const int64_t *sizes,
                      int na, const int64_t *axes, R fct)
{
    int ax = (int)axes[na - 1];
    size_t len = (size_t)sizes[ax];
    FN(plan) p;
    if (FN(plan_get)(&p, len, true) < 0) return -1;
    R *buf = tsr_malloc(len * sizeof *buf);
    if (!buf) { FN(plan_put)(&p); return -1; }
    lineit it;
    lineit_init(&it, ndim, sizes, ax, is, os);
    int rc = 0;
    while (lineit_next(&it)) {
        const R *s = in + it.ioff;
        CX *d = out + it.ooff;
        int64_t st = os[ax];
        for (size_t i = 0; i < len; i++) buf[i] = s[(int64_t)i * is[ax]];
        if (FN(plan_exec_r)(&p, buf, fct, true) < 0 || lineit_poll(&it, len) < 0) { rc = -1; break; }
        d[0].r = buf[0]; d[0].i = 0;
        size_t i = 1, ii = 1;
        for (; i + 1 < len; i += 2, ii++) { d[ii * st].r = buf[i]; d[ii * st].i = buf[i + 1]; }
        if (i < len) { d[ii * st].r = buf[i]; d[ii * st].i = 0; }
    }
    tsr_free(buf);
    FN(plan_put)(&p);
    if (rc < 0 || na == 1) return rc;
    int64_t osz[TSR_MAX_DIMS];
    memcpy(osz, sizes, sizeof(int64_t) * (size_t)ndim);
    osz[ax] = (int64_t)len / 2 + 1;
    return FN(c2c_nd)(out, os, out, os, ndim, osz, na - 1, axes, 1, true);
}

/* c2r along axis: osizes is the real output's shape (len = osizes[axis]). */
static int FN(c2r_1)(const CX *in, const int64_t *is, R *out, const int64_t *os, int ndim, const int64_t *osizes,
                     int ax, R fct)
{
    size_t len = (size_t)osizes[ax];
    FN(plan) p;
    if (FN(plan_get)(&p, len, true) < 0) return -1;
    R *buf = tsr_malloc(len * sizeof *buf);
    if (!buf) { FN(plan_put)(&p); return -1; }
    lineit it;
    lineit_init(&it, ndim, osizes, ax, is, os);
    int rc = 0;
    while (lineit_next(&it)) {
        const CX *s = in + it.ioff;
        R *d = out + it.ooff;
        int64_t st = is[ax];
        buf[0] = s[0].r;
        size_t i = 1, ii = 1;
        for (; i + 1 < len; i += 2, ii++) { buf[i] = s[ii * st].r; buf[i + 1] = s[ii * st].i; }
        if (i < len) buf[i] = s[ii * st].r;
        if (FN(plan_exec_r)(&p, buf, fct, false) < 0 || lineit_poll(&it, len) < 0) { rc = -1; break; }
        for (size_t k = 0; k < len; k++) d[(int64_t)k * os[ax]] = buf[k];
    }
    tsr_free(buf);
    FN(plan_put)(&p);
    return rc;
}

#undef cadd
#undef csub
#undef CX
#undef FN
