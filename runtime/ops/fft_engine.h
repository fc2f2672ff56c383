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

/* the vector form of the radix-2/4/8 rows of one line (fft_ipass.h), used
 * by the one-line passes below where the CPU has AVX2 */
typedef R FN(rvec) __attribute__((vector_size(32)));
typedef RI FN(rmask) __attribute__((vector_size(32)));
static bool FN(rvec_usable)(void) { return !TSR_AVX2_BUILD || tsr__cpu_avx2(); }
#if TSR_AVX2_BUILD
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
#define FWD 1
#include "fft_ipass.h"
#undef FWD
#define FWD 0
#include "fft_ipass.h"
#undef FWD
#if TSR_AVX2_BUILD
#pragma GCC pop_options
#endif

#define CV CX
#define PV
#define PASS_ROWS 1
#define FWD 1
#include "fft_pass.h"
#undef FWD
#define FWD 0
#include "fft_pass.h"
#undef FWD
#undef PASS_ROWS
#undef CV
#undef PV

static int FN(cfftp_exec)(const FN(cfftp) *p, CX *c, R fct, bool fwd)
{
    return fwd ? FCAT(FCAT(pass_all, RS), _1)(p, c, c, p->ch, fct) : FCAT(FCAT(pass_all, RS), _0)(p, c, c, p->ch, fct);
}

/* the same from in to c (no overlap), without copying in first */
static int FN(cfftp_exec_from)(const FN(cfftp) *p, const CX *in, CX *c, R fct, bool fwd)
{
    return fwd ? FCAT(FCAT(pass_all, RS), _1)(p, in, c, p->ch, fct)
               : FCAT(FCAT(pass_all, RS), _0)(p, in, c, p->ch, fct);
}

/* ------------------------------------------------------------ real FFTPACK */

#define RV R
#define RF(name) FN(name)
#include "fft_rpass.h"
#undef RV
#undef RF

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
    return FN(rfftp_run)(p, c, p->ch, fct, r2hc);
}

/* The same passes over FFT_VL lines at once (pocketfft's multi-line
 * transforms), in 32-byte vectors: built for AVX2 and chosen at run time
 * where the compiler can target it, else as generic vector code. */
#define FFT_VL (32 / (int)sizeof(R))
#if TSR_AVX2_BUILD
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
#define RV FN(rvec)
#define RF(name) FCAT(FN(name), _v)
#include "fft_rpass.h"
#undef RV
#undef RF
typedef struct { FN(rvec) r, i; } FN(cvec);
#define CV FN(cvec)
#define PV _v
#define FWD 1
#include "fft_pass.h"
#undef FWD
#define FWD 0
#include "fft_pass.h"
#undef FWD
#undef CV
#undef PV
#if TSR_AVX2_BUILD
#pragma GCC pop_options
#endif



/* 2 * len vectors (lines and scratch), 32-byte aligned inside *mem (malloc
 * aligns to 16); NULL on allocation failure. */
static FN(rvec) *FN(rvec_buf)(size_t len, void **mem)
{
    *mem = tsr_malloc((2 * len + 1) * sizeof(FN(rvec)));
    if (!*mem) return NULL;
    uintptr_t a = ((uintptr_t)*mem + sizeof(FN(rvec)) - 1) & ~(uintptr_t)(sizeof(FN(rvec)) - 1);
    return (FN(rvec) *)a;
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
        /* FFT_VL lines at a time while that many are left (FFTPACK plans
         * only), then as below */
        if (!p.isblue && len > 1 && it.left >= FFT_VL && FN(rvec_usable)()) {
            void *vmem = tsr_malloc((2 * len + 1) * sizeof(FN(cvec)));
            if (!vmem) { tsr_free(buf); FN(plan_put)(&p); return -1; }
            FN(cvec) *vb = (FN(cvec) *)(((uintptr_t)vmem + 31) & ~(uintptr_t)31);
            while (rc == 0 && it.left >= FFT_VL) {
                for (int b = 0; b < FFT_VL; b++) { lineit_next(&it); io[b] = it.ioff; oo[b] = it.ooff; }
                for (size_t i = 0; i < len; i++) {
                    const CX *s = src + (int64_t)i * ss[ax];
                    for (int b = 0; b < FFT_VL; b++) { vb[i].r[b] = s[io[b]].r; vb[i].i[b] = s[io[b]].i; }
                }
                int prc = fwd ? FCAT(FCAT(pass_all, RS), _v_1)(&p.c, vb, vb, vb + len, fct)
                              : FCAT(FCAT(pass_all, RS), _v_0)(&p.c, vb, vb, vb + len, fct);
                if (prc < 0 || lineit_poll(&it, len * FFT_VL) < 0) { rc = -1; break; }
                for (size_t i = 0; i < len; i++) {
                    CX *d = out + (int64_t)i * os[ax];
                    for (int b = 0; b < FFT_VL; b++) { d[oo[b]].r = vb[i].r[b]; d[oo[b]].i = vb[i].i[b]; }
                }
            }
            tsr_free(vmem);
        }
        while (rc == 0) {
            int nb = 0;
            while (nb < nbmax && lineit_next(&it)) { io[nb] = it.ioff; oo[nb] = it.ooff; nb++; }
            if (nb == 0) break;
            if (nbmax == 1) {
                CX *d = out + oo[0];
                const CX *s = src + io[0];
                int xrc;
                if (s != d && !p.isblue && (s + len <= d || d + len <= s)) xrc = FN(cfftp_exec_from)(&p.c, s, d, fct, fwd);
                else {
                    if (s != d) memmove(d, s, len * sizeof *d);
                    xrc = FN(plan_exec_c)(&p, d, fct, fwd);
                }
                if (xrc < 0 || lineit_poll(&it, len) < 0) { rc = -1; break; }
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
    /* FFT_VL lines at a time while that many are left (FFTPACK plans only),
     * then one at a time */
    if (!p.isblue && len > 1 && it.left >= FFT_VL && FN(rvec_usable)()) {
        void *vmem;
        FN(rvec) *vb = FN(rvec_buf)(len, &vmem);
        if (!vb) { tsr_free(buf); FN(plan_put)(&p); return -1; }
        int64_t st = os[ax];
        while (rc == 0 && it.left >= FFT_VL) {
            int64_t io[FFT_VL], oo[FFT_VL];
            for (int b = 0; b < FFT_VL; b++) { lineit_next(&it); io[b] = it.ioff; oo[b] = it.ooff; }
            for (size_t i = 0; i < len; i++) {
                const R *s = in + (int64_t)i * is[ax];
                for (int b = 0; b < FFT_VL; b++) vb[i][b] = s[io[b]];
            }
            FCAT(FN(rfftp_run), _v)(&p.r, vb, vb + len, fct, true);
            if (lineit_poll(&it, len * FFT_VL) < 0) { rc = -1; break; }
            for (int b = 0; b < FFT_VL; b++) {
                CX *d = out + oo[b];
                d[0].r = vb[0][b]; d[0].i = 0;
                size_t i = 1, ii = 1;
                for (; i + 1 < len; i += 2, ii++) { d[ii * st].r = vb[i][b]; d[ii * st].i = vb[i + 1][b]; }
                if (i < len) { d[ii * st].r = vb[i][b]; d[ii * st].i = 0; }
            }
        }
        tsr_free(vmem);
    }
    while (rc == 0 && lineit_next(&it)) {
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
    if (!p.isblue && len > 1 && it.left >= FFT_VL && FN(rvec_usable)()) {
        void *vmem;
        FN(rvec) *vb = FN(rvec_buf)(len, &vmem);
        if (!vb) { tsr_free(buf); FN(plan_put)(&p); return -1; }
        int64_t st = is[ax];
        while (rc == 0 && it.left >= FFT_VL) {
            int64_t io[FFT_VL], oo[FFT_VL];
            for (int b = 0; b < FFT_VL; b++) {
                lineit_next(&it);
                io[b] = it.ioff;
                oo[b] = it.ooff;
                const CX *s = in + io[b];
                vb[0][b] = s[0].r;
                size_t i = 1, ii = 1;
                for (; i + 1 < len; i += 2, ii++) { vb[i][b] = s[ii * st].r; vb[i + 1][b] = s[ii * st].i; }
                if (i < len) vb[i][b] = s[ii * st].r;
            }
            FCAT(FN(rfftp_run), _v)(&p.r, vb, vb + len, fct, false);
            if (lineit_poll(&it, len * FFT_VL) < 0) { rc = -1; break; }
            for (size_t k = 0; k < len; k++) {
                int64_t o = (int64_t)k * os[ax];
                for (int b = 0; b < FFT_VL; b++) out[oo[b] + o] = vb[k][b];
            }
        }
        tsr_free(vmem);
    }
    while (rc == 0 && lineit_next(&it)) {
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

#undef FFT_VL
#undef cadd
#undef csub
#undef CX
#undef FN
