/* cuda/philox.h — curand's Philox4x32-10 engine (curandStatePhilox4_32_10_t)
 * and the conversions PyTorch's CUDA distributions call, written for the
 * host from curand's own inline sources (curand_philox4x32_x.h,
 * curand_kernel.h: curand_init, curand4, skipahead; curand_uniform.h;
 * curand_normal.h), so that the simulator draws the GPU's streams. Plain
 * C and C++ (the unit tests check the engine against Random123's known
 * answers). Integer results and the uniform conversions are exact; the
 * Box-Muller ones use the host's logf/sinf/cosf where the device uses
 * logf/__sincosf, so normal values may differ from a GPU's in the last bits. */
#ifndef TSR_CUDA_PHILOX_H
#define TSR_CUDA_PHILOX_H
#include <math.h>
#include <stdint.h>

typedef struct { uint32_t x, y, z, w; } kphilox_u4;
typedef struct {
    kphilox_u4 ctr, output;
    uint32_t key[2];
    unsigned state;     /* next of the four outputs (curand's STATE) */
} kphilox;

#define KPHILOX_W32_0 0x9E3779B9u
#define KPHILOX_W32_1 0xBB67AE85u
#define KPHILOX_M4x32_0 0xD2511F53u
#define KPHILOX_M4x32_1 0xCD9E8D57u

static inline kphilox_u4 kphilox_round(kphilox_u4 c, uint32_t k0, uint32_t k1)
{
    uint64_t p0 = (uint64_t)KPHILOX_M4x32_0 * c.x, p1 = (uint64_t)KPHILOX_M4x32_1 * c.z;
    kphilox_u4 r = {(uint32_t)(p1 >> 32) ^ c.y ^ k0, (uint32_t)p1, (uint32_t)(p0 >> 32) ^ c.w ^ k1, (uint32_t)p0};
    return r;
}

/* curand_Philox4x32_10(counter, key): ten rounds, the key bumped between. */
static inline kphilox_u4 kphilox4x32_10(kphilox_u4 c, uint32_t k0, uint32_t k1)
{
    for (int i = 0; i < 9; i++) {
        c = kphilox_round(c, k0, k1);
        k0 += KPHILOX_W32_0;
        k1 += KPHILOX_W32_1;
    }
    return kphilox_round(c, k0, k1);
}

/* Philox_State_Incr(s, n) and Philox_State_Incr_hi(s, n). */
static inline void kphilox_incr(kphilox *s, uint64_t n)
{
    uint32_t nlo = (uint32_t)n, nhi = (uint32_t)(n >> 32);
    s->ctr.x += nlo;
    if (s->ctr.x < nlo) nhi++;
    s->ctr.y += nhi;
    if (nhi <= s->ctr.y) return;
    if (++s->ctr.z) return;
    ++s->ctr.w;
}

static inline void kphilox_incr_hi(kphilox *s, uint64_t n)
{
    uint32_t nlo = (uint32_t)n, nhi = (uint32_t)(n >> 32);
    s->ctr.z += nlo;
    if (s->ctr.z < nlo) nhi++;
    s->ctr.w += nhi;
}

/* curand_init(seed, subsequence, offset, &state). */
static inline void kphilox_init(kphilox *s, uint64_t seed, uint64_t subsequence, uint64_t offset)
{
    kphilox_u4 zero = {0, 0, 0, 0};
    s->ctr = zero;
    s->key[0] = (uint32_t)seed;
    s->key[1] = (uint32_t)(seed >> 32);
    s->state = 0;
    kphilox_incr_hi(s, subsequence);                       /* skipahead_sequence */
    s->output = kphilox4x32_10(s->ctr, s->key[0], s->key[1]);
    s->state += (unsigned)(offset & 3);                    /* skipahead */
    offset /= 4;
    if (s->state > 3) {
        offset += 1;
        s->state -= 4;
    }
    kphilox_incr(s, offset);
    s->output = kphilox4x32_10(s->ctr, s->key[0], s->key[1]);
}

/* curand4(&state): the next four 32-bit outputs. */
static inline kphilox_u4 kphilox_next4(kphilox *s)
{
    kphilox_u4 tmp = s->output, r;
    kphilox_incr(s, 1);
    s->output = kphilox4x32_10(s->ctr, s->key[0], s->key[1]);
    switch (s->state) {
    case 1: r.x = tmp.y; r.y = tmp.z; r.z = tmp.w; r.w = s->output.x; return r;
    case 2: r.x = tmp.z; r.y = tmp.w; r.z = s->output.x; r.w = s->output.y; return r;
    case 3: r.x = tmp.w; r.y = s->output.x; r.z = s->output.y; r.w = s->output.z; return r;
    default: return tmp;
    }
}

#define KCURAND_2POW32_INV 2.3283064e-10f                 /* 2^-32 exactly */
#define KCURAND_2POW53_INV_DOUBLE 1.1102230246251565e-16  /* 2^-53 */
#define KCURAND_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#define KCURAND_PI_DOUBLE 3.1415926535897932

/* _curand_uniform: (0, 1], x * 2^-32 + 2^-33 (exact in float). */
static inline float kcurand_uniform(uint32_t x) { return x * KCURAND_2POW32_INV + (KCURAND_2POW32_INV / 2.0f); }

/* _curand_uniform_double_hq(x, y): 53 bits from two outputs. */
static inline double kcurand_uniform_double_hq(uint32_t x, uint32_t y)
{
    uint64_t z = (uint64_t)x ^ ((uint64_t)y << (53 - 32));
    return z * KCURAND_2POW53_INV_DOUBLE + (KCURAND_2POW53_INV_DOUBLE / 2.0);
}

/* _curand_box_muller(x, y): the device contracts v's multiply-add (fmaf). */
static inline void kcurand_box_muller(uint32_t x, uint32_t y, float *r0, float *r1)
{
    float u = x * KCURAND_2POW32_INV + (KCURAND_2POW32_INV / 2);
    float v = fmaf((float)y, KCURAND_2POW32_INV_2PI, KCURAND_2POW32_INV_2PI / 2);
    float s = sqrtf(-2.0f * logf(u));
    *r0 = sinf(v) * s;
    *r1 = cosf(v) * s;
}

/* _curand_box_muller_double(x0, x1, y0, y1); the device uses sincospi(v). */
static inline void kcurand_box_muller_double(uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1, double *r0, double *r1)
{
    uint64_t zx = (uint64_t)x0 ^ ((uint64_t)x1 << (53 - 32)), zy = (uint64_t)y0 ^ ((uint64_t)y1 << (53 - 32));
    double u = zx * KCURAND_2POW53_INV_DOUBLE + (KCURAND_2POW53_INV_DOUBLE / 2.0);
    double v = zy * (KCURAND_2POW53_INV_DOUBLE * 2.0) + KCURAND_2POW53_INV_DOUBLE;
    double s = sqrt(-2.0 * log(u));
    *r0 = sin(v * KCURAND_PI_DOUBLE) * s;
    *r1 = cos(v * KCURAND_PI_DOUBLE) * s;
}

#endif
