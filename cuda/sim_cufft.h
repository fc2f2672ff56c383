/* cuda/sim_cufft.h — the cuFFT calls cuda/backend.cu makes, emulated on the
 * host for the simulator (libtsr_cuda_sim.so): plans of cufftMakePlanMany64's
 * advanced data layout, executed by a direct DFT in long double, one
 * dimension after the other, on the arena's writable mapping (sim_host).
 * Not fast, plainly correct: C2R as cuFFT and pocketfft do it, the
 * dimensions before the last inverse-transformed complex to complex, then
 * the last one from its n/2+1 values (the imaginary parts of the first and,
 * for an even n, the middle one ignored). Twiddles at multiples of a twelfth
 * of a turn are exact and the others octant-symmetric, and x and n - x are
 * summed as a butterfly does, so that zeros come out exact where a GPU's
 * butterflies (and pocketfft's passes) give them. */
#ifndef TSR_CUDA_SIM_CUFFT_H
#define TSR_CUDA_SIM_CUFFT_H
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef int cufftHandle;
typedef enum {
    CUFFT_SUCCESS = 0, CUFFT_INVALID_PLAN = 1, CUFFT_ALLOC_FAILED = 2, CUFFT_INVALID_TYPE = 3,
    CUFFT_INVALID_VALUE = 4, CUFFT_INTERNAL_ERROR = 5, CUFFT_EXEC_FAILED = 6, CUFFT_SETUP_FAILED = 7,
    CUFFT_INVALID_SIZE = 8,
} cufftResult;
typedef enum {
    CUFFT_R2C = 0x2a, CUFFT_C2R = 0x2c, CUFFT_C2C = 0x29, CUFFT_D2Z = 0x6a, CUFFT_Z2D = 0x6c, CUFFT_Z2Z = 0x69,
} cufftType;
#define CUFFT_FORWARD -1
#define CUFFT_INVERSE 1
struct float2 { float x, y; };
struct double2 { double x, y; };
typedef float cufftReal;
typedef double cufftDoubleReal;
typedef float2 cufftComplex;
typedef double2 cufftDoubleComplex;

struct SimFftPlan {
    bool used, made;
    cufftType type;
    int rank;
    long long n[3], inembed[3], onembed[3], istride, idist, ostride, odist, batch;
    bool iembed, oembed;   /* false: the simple layout (inembed / onembed NULL) */
};
#define SIM_FFT_PLANS 64
static SimFftPlan sim_fft_plans[SIM_FFT_PLANS];

static inline cufftResult cufftCreate(cufftHandle *h)
{
    pthread_mutex_lock(&sim.lock);
    for (int i = 0; i < SIM_FFT_PLANS; i++)
        if (!sim_fft_plans[i].used) {
            memset(&sim_fft_plans[i], 0, sizeof sim_fft_plans[i]);
            sim_fft_plans[i].used = true;
            *h = i + 1;
            pthread_mutex_unlock(&sim.lock);
            return CUFFT_SUCCESS;
        }
    pthread_mutex_unlock(&sim.lock);
    return CUFFT_ALLOC_FAILED;
}

static inline SimFftPlan *sim_fft_plan(cufftHandle h)
{
    return h >= 1 && h <= SIM_FFT_PLANS && sim_fft_plans[h - 1].used ? &sim_fft_plans[h - 1] : NULL;
}

static inline cufftResult cufftDestroy(cufftHandle h)
{
    SimFftPlan *p = sim_fft_plan(h);
    if (!p) return CUFFT_INVALID_PLAN;
    p->used = false;
    return CUFFT_SUCCESS;
}

static inline cufftResult cufftMakePlanMany64(cufftHandle h, int rank, long long *n, long long *inembed,
                                              long long istride, long long idist, long long *onembed,
                                              long long ostride, long long odist, cufftType type, long long batch,
                                              size_t *work)
{
    SimFftPlan *p = sim_fft_plan(h);
    if (!p) return CUFFT_INVALID_PLAN;
    if (rank < 1 || rank > 3 || batch < 1) return CUFFT_INVALID_SIZE;
    for (int d = 0; d < rank; d++)
        if (n[d] < 1) return CUFFT_INVALID_SIZE;
    if (type != CUFFT_R2C && type != CUFFT_C2R && type != CUFFT_C2C && type != CUFFT_D2Z && type != CUFFT_Z2D &&
        type != CUFFT_Z2Z)
        return CUFFT_INVALID_TYPE;
    p->type = type;
    p->rank = rank;
    p->batch = batch;
    p->iembed = inembed != NULL;
    p->oembed = onembed != NULL;
    for (int d = 0; d < rank; d++) {
        p->n[d] = n[d];
        p->inembed[d] = inembed ? inembed[d] : 0;
        p->onembed[d] = onembed ? onembed[d] : 0;
    }
    p->istride = istride, p->idist = idist, p->ostride = ostride, p->odist = odist;
    p->made = true;
    if (work) *work = 0;
    return CUFFT_SUCCESS;
}

/* Sizes of a side (the one-sided complex side of R2C / C2R) and the offset
 * of its row-major element i, in elements of the side's type. */
static inline void sim_fft_side(const SimFftPlan *p, bool out, long long *sz)
{
    bool r2c = p->type == CUFFT_R2C || p->type == CUFFT_D2Z, c2r = p->type == CUFFT_C2R || p->type == CUFFT_Z2D;
    for (int d = 0; d < p->rank; d++) sz[d] = p->n[d];
    if ((out && r2c) || (!out && c2r)) sz[p->rank - 1] = p->n[p->rank - 1] / 2 + 1;
}

static inline long long sim_fft_offset(const SimFftPlan *p, bool out, const long long *sz, long long i)
{
    long long idx[3], lin, numel = 1;
    for (int d = p->rank - 1; d >= 0; d--) {
        idx[d] = i % sz[d];
        i /= sz[d];
        numel *= sz[d];
    }
    bool embed = out ? p->oembed : p->iembed;
    if (!embed) {   /* simple layout: contiguous signals, stride and dist ignored */
        lin = idx[0];
        for (int d = 1; d < p->rank; d++) lin = lin * sz[d] + idx[d];
        return i * numel + lin;
    }
    const long long *e = out ? p->onembed : p->inembed;
    lin = idx[0];
    for (int d = 1; d < p->rank; d++) lin = lin * e[d] + idx[d];
    return i * (out ? p->odist : p->idist) + lin * (out ? p->ostride : p->istride);
}

typedef struct { long double r, i; } SimCx;

/* exp(sign * 2 pi i m / n) for m in [0, n), exact at multiples of 1/12 turn. */
static inline void sim_fft_twiddles(long long n, int sign, SimCx *tw)
{
    const long double pi = 3.141592653589793238462643383279502884197L;
    for (long long m = 0; m < n; m++) {
        long double c, s;
        if ((12 * m) % n == 0) {
            static const long double h = 0.866025403784438646763723170752936183L;   /* sqrt(3)/2 */
            static const long double cs[12][2] = {{1, 0}, {h, 0.5L}, {0.5L, h}, {0, 1}, {-0.5L, h}, {-h, 0.5L},
                                                  {-1, 0}, {-h, -0.5L}, {-0.5L, -h}, {0, -1}, {0.5L, -h}, {h, -0.5L}};
            int k = (int)((12 * m) / n);
            c = cs[k][0], s = cs[k][1];
        } else {
            /* from the first octant, as pocketfft's sincos_2pibyn, so that
             * the table is exactly symmetric (tw[n-m] = conj(tw[m]), ...) */
            long double ang = 0.25L * pi / (long double)n;
            long long x = 8 * m;
            bool lower = x >= 4 * n;
            if (lower) x = 8 * n - x;
            if (x < 2 * n) {
                if (x < n) c = cosl(x * ang), s = sinl(x * ang);
                else c = sinl((2 * n - x) * ang), s = cosl((2 * n - x) * ang);
            } else {
                x -= 2 * n;
                if (x < n) c = -sinl(x * ang), s = cosl(x * ang);
                else c = -cosl((2 * n - x) * ang), s = sinl((2 * n - x) * ang);
            }
            if (lower) s = -s;
        }
        tw[m].r = c;
        tw[m].i = sign * s;
    }
}

/* The complex DFT along dim d of a row-major array a of sizes sz (rank dims). */
static inline void sim_fft_dim(SimCx *a, const long long *sz, int rank, int d, long long n, int sign, SimCx *tmp,
                               SimCx *tw)
{
    long long inner = 1, outer = 1;
    for (int k = d + 1; k < rank; k++) inner *= sz[k];
    for (int k = 0; k < d; k++) outer *= sz[k];
    sim_fft_twiddles(n, sign, tw);
    for (long long o = 0; o < outer; o++)
        for (long long in = 0; in < inner; in++) {
            SimCx *line = a + o * n * inner + in;
            /* x and n - x together, as a butterfly does (pocketfft's
             * passes): a[x] w + a[n-x] conj(w) = s w.r + i d w.i with
             * s, d their sum and difference, so that symmetric signals
             * cancel exactly */
            for (long long k = 0; k < n; k++) {
                long double r = line[0].r, i = line[0].i;
                for (long long x = 1; 2 * x < n; x++) {
                    const SimCx u = line[x * inner], v = line[(n - x) * inner], w = tw[(k * x) % n];
                    long double sr = u.r + v.r, si = u.i + v.i, dr = u.r - v.r, di = u.i - v.i;
                    if (k == 0) {   /* a plain sum (the signs of zeros as a butterfly keeps them) */
                        r += sr;
                        i += si;
                        continue;
                    }
                    r += sr * w.r;
                    r -= di * w.i;
                    i += si * w.r;
                    i += dr * w.i;
                }
                if (n % 2 == 0) {
                    const SimCx m = line[(n / 2) * inner];
                    r += k % 2 ? -m.r : m.r;
                    i += k % 2 ? -m.i : m.i;
                }
                tmp[k].r = r, tmp[k].i = i;
            }
            for (long long k = 0; k < n; k++) line[k * inner] = tmp[k];
        }
}

template <typename R>
static cufftResult sim_fft_exec(cufftHandle h, const void *in, void *out, int dir, bool in_cplx, bool out_cplx)
{
    const SimFftPlan *p = sim_fft_plan(h);
    if (!p || !p->made) return CUFFT_INVALID_PLAN;
    const R *src = (const R *)sim_host(in);
    R *dst = (R *)sim_host(out);
    bool c2r = in_cplx && !out_cplx;
    int rank = p->rank;
    long long isz[3], osz[3], ni = 1, no = 1, big = 1;
    sim_fft_side(p, false, isz);
    sim_fft_side(p, true, osz);
    for (int d = 0; d < rank; d++) {
        ni *= isz[d];
        no *= osz[d];
        if (p->n[d] > big) big = p->n[d];
    }
    long long nbuf = c2r ? ni : 1;
    if (!c2r)
        for (int d = 0; d < rank; d++) nbuf *= p->n[d];
    SimCx *a = (SimCx *)malloc(sizeof(SimCx) * (size_t)(nbuf + 2 * big));
    if (!a) return CUFFT_ALLOC_FAILED;
    SimCx *tmp = a + nbuf, *tw = tmp + big;
    for (long long b = 0; b < p->batch; b++) {
        /* load (the buffer holds the input's sizes: full, or one-sided for C2R) */
        for (long long j = 0; j < ni; j++) {
            long long o = sim_fft_offset(p, false, isz, b * ni + j);
            a[j].r = in_cplx ? src[2 * o] : src[o];
            a[j].i = in_cplx ? src[2 * o + 1] : 0;
        }
        if (!c2r) {
            int sign = (in_cplx && dir == CUFFT_INVERSE) ? 1 : -1;
            for (int d = 0; d < rank; d++) sim_fft_dim(a, p->n, rank, d, p->n[d], sign, tmp, tw);
            for (long long j = 0; j < no; j++) {
                /* an output element's index in the full array */
                long long idx = j, full = 0, mul = 1;
                for (int d = rank - 1; d >= 0; d--) {
                    full += (idx % osz[d]) * mul;
                    idx /= osz[d];
                    mul *= p->n[d];
                }
                long long o = sim_fft_offset(p, true, osz, b * no + j);
                if (out_cplx) {
                    dst[2 * o] = (R)a[full].r;
                    dst[2 * o + 1] = (R)a[full].i;
                } else {
                    dst[o] = (R)a[full].r;
                }
            }
            continue;
        }
        for (int d = 0; d + 1 < rank; d++) sim_fft_dim(a, isz, rank, d, p->n[d], 1, tmp, tw);
        long long n = p->n[rank - 1], h2 = n / 2 + 1, lines = ni / h2;
        sim_fft_twiddles(n, 1, tw);
        for (long long l = 0; l < lines; l++) {
            const SimCx *X = a + l * h2;
            for (long long x = 0; x < n; x++) {
                long double v = X[0].r;
                if (n % 2 == 0) v += (x % 2 ? -1 : 1) * X[n / 2].r;
                for (long long k = 1; k <= (n - 1) / 2; k++) {
                    const SimCx w = tw[(k * x) % n];
                    v += 2 * (X[k].r * w.r - X[k].i * w.i);
                }
                long long o = sim_fft_offset(p, true, osz, b * no + l * n + x);
                dst[o] = (R)v;
            }
        }
    }
    free(a);
    return CUFFT_SUCCESS;
}

static inline cufftResult cufftExecC2C(cufftHandle h, cufftComplex *in, cufftComplex *out, int dir)
{
    return sim_fft_exec<float>(h, in, out, dir, true, true);
}
static inline cufftResult cufftExecR2C(cufftHandle h, cufftReal *in, cufftComplex *out)
{
    return sim_fft_exec<float>(h, in, out, CUFFT_FORWARD, false, true);
}
static inline cufftResult cufftExecC2R(cufftHandle h, cufftComplex *in, cufftReal *out)
{
    return sim_fft_exec<float>(h, in, out, CUFFT_INVERSE, true, false);
}
static inline cufftResult cufftExecZ2Z(cufftHandle h, cufftDoubleComplex *in, cufftDoubleComplex *out, int dir)
{
    return sim_fft_exec<double>(h, in, out, dir, true, true);
}
static inline cufftResult cufftExecD2Z(cufftHandle h, cufftDoubleReal *in, cufftDoubleComplex *out)
{
    return sim_fft_exec<double>(h, in, out, CUFFT_FORWARD, false, true);
}
static inline cufftResult cufftExecZ2D(cufftHandle h, cufftDoubleComplex *in, cufftDoubleReal *out)
{
    return sim_fft_exec<double>(h, in, out, CUFFT_INVERSE, true, false);
}
#endif
