/* runtime/ops/random.c — CPUGeneratorImpl (mt19937, state layout, normal
 * caches) and the CPU distribution kernels of torch 1.13 (SEMANTICS.md §6);
 * CUDAGeneratorImpl (Philox seed and offset) and the host half of its
 * kernels (execution policy, offsets, element order; the draws are the
 * backend's, cuda/rng.h).
 * Rule: 1.13's cpu/ kernels are built for AVX2 with FMA contraction, so the
 * multiply-adds it fused are written here as explicit fma()/fmaf() calls and
 * nothing else may be contracted (the pragma below). */
#pragma GCC optimize("fp-contract=off")
#include "random.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../error.h"
#include "../internal.h"
#include "../iter.h"
#include "../view.h"
#include "binary.h"
#include "copy.h"
#include "factory.h"

#define MT_N 624
#define MT_M 397
#define PI_D 3.14159265358979323846

/* ------------------------------------------------------------ generator */

struct tsr_generator {
    int refcount;
    /* at::mt19937_data_pod */
    uint64_t seed;
    int left;
    int seeded;
    uint32_t next;
    uint32_t state[MT_N];
    /* CPUGeneratorImpl's caches */
    bool has_double, has_float;
    double next_double;
    float next_float;
    /* A CUDAGeneratorImpl instead (zero: a CPU generator): the Philox seed is
     * `seed` and philox_offset_per_thread where the next kernel starts. */
    bool is_cuda;
    int cuda_index;
    uint64_t philox_offset;
};

static void mt_init(tsr_generator *g, uint64_t seed)
{
    g->seed = seed;
    g->seeded = 1;
    g->state[0] = (uint32_t)(seed & 0xffffffffu);
    for (uint32_t j = 1; j < MT_N; j++)
        g->state[j] = 1812433253u * (g->state[j - 1] ^ (g->state[j - 1] >> 30)) + j;
    g->left = 1;
    g->next = 0;
    g->has_double = g->has_float = false;
}

static inline uint32_t mix_bits(uint32_t u, uint32_t v) { return (u & 0x80000000u) | (v & 0x7fffffffu); }
static inline uint32_t twist(uint32_t u, uint32_t v)
{
    return (mix_bits(u, v) >> 1) ^ ((v & 1u) ? 0x9908b0dfu : 0u);
}

/* MT19937RNGEngine.h next_state(): the same twist, written as PyTorch does. */
static void mt_next_state(tsr_generator *g)
{
    uint32_t *p = g->state;
    g->left = MT_N;
    g->next = 0;
    for (int j = MT_N - MT_M + 1; --j; p++) *p = p[MT_M] ^ twist(p[0], p[1]);
    for (int j = MT_M; --j; p++) *p = p[MT_M - MT_N] ^ twist(p[0], p[1]);
    *p = p[MT_M - MT_N] ^ twist(p[0], g->state[0]);
}

uint32_t tsr_generator_random(tsr_generator *g)
{
    if (!g) g = tsr_default_generator();
    if (--g->left == 0) mt_next_state(g);
    uint32_t y = g->state[g->next++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

uint64_t tsr_generator_random64(tsr_generator *g)
{
    uint64_t hi = tsr_generator_random(g);
    uint64_t lo = tsr_generator_random(g);
    return (hi << 32) | lo;
}

tsr_generator *tsr_generator_new(uint64_t seed)
{
    tsr_generator *g = tsr_malloc(sizeof *g);
    if (!g) return NULL;
    g->refcount = 1;
    g->is_cuda = false;
    g->cuda_index = 0;
    g->philox_offset = 0;
    mt_init(g, seed);
    return g;
}

tsr_generator *tsr_generator_retain(tsr_generator *g)
{
    if (g) __atomic_add_fetch(&g->refcount, 1, __ATOMIC_RELAXED);
    return g;
}

void tsr_generator_release(tsr_generator *g)
{
    if (g && __atomic_sub_fetch(&g->refcount, 1, __ATOMIC_ACQ_REL) == 0) tsr_free(g);
}

/* c10::detail::getNonDeterministicRandom: bits from /dev/urandom. 1.13 keeps
 * 64; tsr keeps 63 so that seed() and initial_seed() fit the language's
 * int64 ints (a deliberate, statistically invisible deviation). */
static uint64_t nondeterministic_seed(void)
{
    uint64_t s = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t n = read(fd, &s, sizeof s);
        close(fd);
        if (n == (ssize_t)sizeof s) return s >> 1;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (((uint64_t)ts.tv_sec * 1000000007u) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32)) >> 1;
}

tsr_generator *tsr_default_generator(void)
{
    static tsr_generator g;
    static int ready;
    if (!ready) {
        g.refcount = 1 << 30;          /* never freed */
        mt_init(&g, nondeterministic_seed());
        ready = 1;
    }
    return &g;
}

static tsr_generator *gen_or_default(tsr_generator *g) { return g ? g : tsr_default_generator(); }

/* CUDAGeneratorImpl::set_current_seed: the seed, offset 0 (the mt19937
 * state follows the seed too, harmlessly: no CPU kernel takes a CUDA one). */
void tsr_generator_manual_seed(tsr_generator *g, uint64_t seed)
{
    g = gen_or_default(g);
    mt_init(g, seed);
    g->philox_offset = 0;
}

/* getNonDeterministicRandom(is_cuda=true) keeps 53 bits (exact in a double). */
uint64_t tsr_generator_seed(tsr_generator *g)
{
    g = gen_or_default(g);
    uint64_t s = nondeterministic_seed();
    if (g->is_cuda) s &= (UINT64_C(1) << 53) - 1;
    tsr_generator_manual_seed(g, s);
    return s;
}

tsr_device tsr_generator_device(const tsr_generator *g)
{
    if (g && g->is_cuda) return (tsr_device){TSR_DEV_CUDA, g->cuda_index};
    return TSR_CPU;
}

/* check_generator<T>: a sampler on device type want takes only a generator
 * of that type. The generator to use (the default CPU one for NULL), or
 * NULL with 1.13's error. */
static tsr_generator *gen_for(tsr_device_type want, tsr_generator *g)
{
    tsr_device_type have = g && g->is_cuda ? TSR_DEV_CUDA : TSR_DEV_CPU;
    if (g && have != want) {
        tsr_error_set(TSR_ERR_RUNTIME, "Expected a '%s' device type for generator but found '%s'",
                      tsr_device_type_name(want), tsr_device_type_name(have));
        return NULL;
    }
    return gen_or_default(g);
}

uint64_t tsr_generator_initial_seed(const tsr_generator *g)
{
    return (g ? g : tsr_default_generator())->seed;
}

/* CPUGeneratorImplState (CPUGeneratorImpl.cpp), little-endian, x86-64 padding. */
enum {
    ST_SEED = 0, ST_LEFT = 8, ST_SEEDED = 12, ST_NEXT = 16, ST_STATE = 24,
    ST_NORMAL_X = ST_STATE + 8 * MT_N, ST_NORMAL_Y = ST_NORMAL_X + 8, ST_NORMAL_RHO = ST_NORMAL_Y + 8,
    ST_NORMAL_VALID = ST_NORMAL_RHO + 8, ST_FLOAT = ST_NORMAL_VALID + 8, ST_FLOAT_VALID = ST_FLOAT + 4,
};
_Static_assert(ST_FLOAT_VALID + 4 == TSR_RNG_STATE_SIZE, "CPUGeneratorImplState layout");
_Static_assert(ST_FLOAT == TSR_RNG_STATE_SIZE_LEGACY, "THGeneratorState layout");

static tsr_tensor *cuda_get_state(const tsr_generator *g);
/* detail::check_rng_state (CPU and CUDA generators alike): a contiguous
 * uint8 CPU tensor. 0, or -1 with 1.13's error. */
static int check_rng_state(const tsr_tensor *st)
{
    if (st->layout != TSR_LAYOUT_STRIDED || st->device.type != TSR_DEV_CPU || st->dtype != TSR_UINT8) {
        tsr_error_set(TSR_ERR_TYPE, "RNG state must be a torch.ByteTensor");
        return -1;
    }
    if (!tsr_tensor_is_contiguous(st)) {
        tsr_error_set(TSR_ERR_RUNTIME, "RNG state must be contiguous");
        return -1;
    }
    return 0;
}

static int cuda_set_state(tsr_generator *g, const tsr_tensor *st);

tsr_tensor *tsr_generator_get_state(const tsr_generator *g)
{
    if (!g) g = tsr_default_generator();
    if (g->is_cuda) return cuda_get_state(g);
    int64_t n = TSR_RNG_STATE_SIZE;
    tsr_tensor *t = tsr_zeros(1, &n, TSR_UINT8, TSR_CPU);
    if (!t) return NULL;
    uint8_t *b = tsr_tensor_ptr(t, NULL);
    int32_t left = g->left, seeded = g->seeded, valid = g->has_double;
    uint64_t next = g->next;
    memcpy(b + ST_SEED, &g->seed, 8);
    memcpy(b + ST_LEFT, &left, 4);
    memcpy(b + ST_SEEDED, &seeded, 4);
    memcpy(b + ST_NEXT, &next, 8);
    for (int i = 0; i < MT_N; i++) {
        uint64_t v = g->state[i];
        memcpy(b + ST_STATE + 8 * i, &v, 8);
    }
    if (g->has_double) memcpy(b + ST_NORMAL_Y, &g->next_double, 8);
    memcpy(b + ST_NORMAL_VALID, &valid, 4);
    if (g->has_float) {
        memcpy(b + ST_FLOAT, &g->next_float, 4);
        b[ST_FLOAT_VALID] = 1;
    }
    return t;
}

int tsr_generator_set_state(tsr_generator *g, const tsr_tensor *st)
{
    g = gen_or_default(g);
    if (g->is_cuda) return cuda_set_state(g, st);
    if (check_rng_state(st) < 0) return -1;
    int64_t n = tsr_tensor_numel(st);
    if (n != TSR_RNG_STATE_SIZE && n != TSR_RNG_STATE_SIZE_LEGACY) {
        tsr_error_set(TSR_ERR_RUNTIME,
                      "Expected either a CPUGeneratorImplStateLegacy of size %d or a CPUGeneratorImplState of size %d"
                      " but found the input RNG state size to be %lld",
                      TSR_RNG_STATE_SIZE_LEGACY, TSR_RNG_STATE_SIZE, (long long)n);
        return -1;
    }
    const uint8_t *b = tsr_tensor_ptr(st, NULL);
    uint64_t seed, next;
    int32_t left, seeded, valid;
    memcpy(&seed, b + ST_SEED, 8);
    memcpy(&left, b + ST_LEFT, 4);
    memcpy(&seeded, b + ST_SEEDED, 4);
    memcpy(&next, b + ST_NEXT, 8);
    memcpy(&valid, b + ST_NORMAL_VALID, 4);
    bool has_double = false, has_float = false;
    double dnext = 0;
    float fnext = 0;
    if (n == TSR_RNG_STATE_SIZE_LEGACY) {
        if (valid) {            /* legacy kept (x, rho): the cached sample is rho*sin(2πx) */
            double x, rho;
            memcpy(&x, b + ST_NORMAL_X, 8);
            memcpy(&rho, b + ST_NORMAL_RHO, 8);
            dnext = rho * sin(2.0 * PI_D * x);
            has_double = true;
        }
    } else {
        if (b[ST_FLOAT_VALID]) { memcpy(&fnext, b + ST_FLOAT, 4); has_float = true; }
        if (valid) { memcpy(&dnext, b + ST_NORMAL_Y, 8); has_double = true; }
    }
    uint32_t next32 = (uint32_t)next;
    if (!((bool)seeded && left > 0 && left <= MT_N && next32 <= MT_N)) {
        tsr_error_set(TSR_ERR_RUNTIME, "Invalid mt19937 state");
        return -1;
    }
    for (int i = 0; i < MT_N; i++) {
        uint64_t v;
        memcpy(&v, b + ST_STATE + 8 * i, 8);
        g->state[i] = (uint32_t)v;
    }
    g->seed = seed;
    g->left = left;
    g->seeded = 1;
    g->next = next32;
    g->has_double = has_double;
    g->next_double = dnext;
    g->has_float = has_float;
    g->next_float = fnext;
    return 0;
}

/* ------------------------------------------------------------ CUDA generators */

#define CUDA_GENS 64    /* devices with a default generator (the backend's MAX_DEVICES) */

tsr_generator *tsr_cuda_generator_new(int index)
{
    tsr_generator *g = tsr_generator_new(TSR_DEFAULT_RNG_SEED);
    if (!g) return NULL;
    g->is_cuda = true;
    g->cuda_index = index;
    g->philox_offset = 0;
    return g;
}

static tsr_generator cuda_defaults[CUDA_GENS];   /* is_cuda once made */

static tsr_generator *cuda_default_slot(int index)
{
    if (index < 0 || index >= CUDA_GENS) index = index < 0 ? 0 : CUDA_GENS - 1;
    tsr_generator *g = &cuda_defaults[index];
    if (!g->is_cuda) {
        g->refcount = 1 << 30;          /* never freed */
        g->is_cuda = true;
        g->cuda_index = index;
        g->seed = 0;
    }
    return g;
}

/* getDefaultCUDAGenerator(index): made on first use, then seed(). */
tsr_generator *tsr_cuda_default_generator(int index)
{
    if (index < 0 || index >= CUDA_GENS) index = index < 0 ? 0 : CUDA_GENS - 1;
    bool fresh = !cuda_defaults[index].is_cuda;
    tsr_generator *g = cuda_default_slot(index);
    if (fresh) tsr_generator_seed(g);
    return g;
}

void tsr_cuda_manual_seed_all(uint64_t seed)
{
    for (int i = 0; i < CUDA_GENS; i++) tsr_generator_manual_seed(cuda_default_slot(i), seed);
}

/* CUDAGeneratorImpl::get_state: 800 bytes of 0xFF (the THC-era MTGP states,
 * 200 * sizeof(4120)), the seed, the offset as int64. */
enum { CUDA_ST_SEED = 800, CUDA_ST_OFFSET = 808 };
_Static_assert(CUDA_ST_OFFSET + 8 == TSR_CUDA_RNG_STATE_SIZE, "CUDAGeneratorImpl state layout");

static tsr_tensor *cuda_get_state(const tsr_generator *g)
{
    int64_t n = TSR_CUDA_RNG_STATE_SIZE;
    tsr_tensor *t = tsr_empty(1, &n, TSR_UINT8, TSR_CPU, TSR_MF_CONTIGUOUS);
    if (!t) return NULL;
    uint8_t *b = tsr_tensor_ptr(t, NULL);
    memset(b, 0xFF, CUDA_ST_SEED);
    int64_t off = (int64_t)g->philox_offset;
    memcpy(b + CUDA_ST_SEED, &g->seed, 8);
    memcpy(b + CUDA_ST_OFFSET, &off, 8);
    return t;
}

static int cuda_set_state(tsr_generator *g, const tsr_tensor *st)
{
    if (check_rng_state(st) < 0) return -1;
    int64_t n = tsr_tensor_numel(st);
    if (n != TSR_CUDA_RNG_STATE_SIZE && n != TSR_CUDA_RNG_STATE_SIZE - 8) {
        tsr_error_set(TSR_ERR_RUNTIME, "RNG state is wrong size");
        return -1;
    }
    const uint8_t *b = tsr_tensor_ptr(st, NULL);
    uint64_t seed;
    int64_t off = 0;
    memcpy(&seed, b + CUDA_ST_SEED, 8);
    if (n == TSR_CUDA_RNG_STATE_SIZE) memcpy(&off, b + CUDA_ST_OFFSET, 8);
    tsr_generator_manual_seed(g, seed);   /* set_current_seed, then the offset's check */
    if ((uint64_t)off % 4) {
        tsr_error_set(TSR_ERR_RUNTIME, "offset must be a multiple of 4");
        return -1;
    }
    g->philox_offset = (uint64_t)off;
    return 0;
}

/* ------------------------------------------------------------ draws */

/* uniform_real_distribution<T>(0, 1) before the from/to transformation. */
static inline double unif_double(tsr_generator *g)
{
    return (double)(tsr_generator_random64(g) & ((UINT64_C(1) << 53) - 1)) * (1.0 / 9007199254740992.0);
}
static inline float unif_bits(tsr_generator *g, int digits)
{
    return (float)(tsr_generator_random(g) & ((1u << digits) - 1)) * (1.0f / (float)(1u << digits));
}

/* at::normal_distribution<double>: Box–Muller with the sin sample cached in
 * the generator; the result is fma(sample, std, mean). */
static double normal_double(tsr_generator *g, double mean, double std)
{
    if (g->has_double) {
        g->has_double = false;
        return fma(g->next_double, std, mean);
    }
    double u1 = unif_double(g);
    double u2 = unif_double(g);
    double r = sqrt(-2.0 * log(1.0 - u2));
    double theta = 2.0 * PI_D * u1;
    g->next_double = r * sin(theta);
    g->has_double = true;
    return fma(r * cos(theta), std, mean);
}

/* ------------------------------------------------------------ element walk */

/* Elements of a tensor (and optionally a second operand of the same shape)
 * in TensorIterator's order: dimensions sorted by stride, smallest innermost
 * (TensorIterator::reorder_dimensions); size-1 dimensions dropped. */
typedef struct {
    int nd;
    int64_t sizes[TSR_MAX_DIMS];
    int64_t st[2][TSR_MAX_DIMS];     /* byte strides, innermost first */
    int64_t idx[TSR_MAX_DIMS];
    char *p[2];
    int64_t left;
    bool stop;                       /* Ctrl-C seen: the walk ended early */
} Walk;

/* TensorIterator's dimension order for a (and b): perm[0] innermost. */
static void iter_perm(const tsr_tensor *a, const tsr_tensor *b, int *perm)
{
    int nd = a->ndim, nops = b ? 2 : 1;
    const tsr_tensor *ops[2] = {a, b};
    for (int i = 0; i < nd; i++) perm[i] = nd - 1 - i;
    /* should_swap: >0 swap, <0 keep, 0 undecided */
    for (int i = 1; i < nd; i++) {
        int d1 = i;
        for (int d0 = i - 1; d0 >= 0; d0--) {
            int cmp = 0;
            for (int k = 0; k < nops && !cmp; k++) {
                int64_t s0 = ops[k]->strides[perm[d0]], s1 = ops[k]->strides[perm[d1]];
                if (s0 == 0 || s1 == 0) continue;
                if (s0 < s1) cmp = -1;
                else if (s0 > s1) cmp = 1;
                else if (a->sizes[perm[d0]] > a->sizes[perm[d1]]) cmp = 1;
            }
            if (cmp > 0) {
                int t = perm[d0]; perm[d0] = perm[d1]; perm[d1] = t;
                d1 = d0;
            } else if (cmp < 0) {
                break;
            }
        }
    }
}

static void walk_init(Walk *w, tsr_tensor *a, const tsr_tensor *b)
{
    int nd = a->ndim, perm[TSR_MAX_DIMS], nops = b ? 2 : 1;
    const tsr_tensor *ops[2] = {a, b};
    iter_perm(a, b, perm);
    w->nd = 0;
    w->stop = false;
    w->left = tsr_tensor_numel(a);
    for (int i = 0; i < nd; i++) {
        int d = perm[i];
        if (a->sizes[d] == 1) continue;
        w->sizes[w->nd] = a->sizes[d];
        for (int k = 0; k < nops; k++) w->st[k][w->nd] = ops[k]->strides[d] * tsr_dtype_itemsize(ops[k]->dtype);
        w->idx[w->nd] = 0;
        w->nd++;
    }
    w->p[0] = w->left ? tsr_tensor_ptr(a, NULL) : NULL;
    w->p[1] = b && w->left ? tsr_tensor_ptr(b, NULL) : NULL;
}

/* Advances after the current element; false at the end. */
static inline bool walk_next(Walk *w)
{
    if (--w->left <= 0) return false;
    if ((w->left & 0xffff) == 0 && tsr_interrupt_pending()) {
        w->stop = true;
        return false;
    }
    for (int d = 0; d < w->nd; d++) {
        w->p[0] += w->st[0][d];
        if (w->p[1]) w->p[1] += w->st[1][d];
        if (++w->idx[d] < w->sizes[d]) return true;
        w->p[0] -= w->st[0][d] * w->sizes[d];
        if (w->p[1]) w->p[1] -= w->st[1][d] * w->sizes[d];
        w->idx[d] = 0;
    }
    return true;
}

/* What a sampler returns after its walk: -1 with KeyboardInterrupt's error
 * when Ctrl-C ended it, else 0. */
static int walk_end(const Walk *w) { return w->stop ? tsr_check_interrupt() : 0; }

/* ------------------------------------------------------------ stores */

/* static_cast<scalar_t>(double) for every real dtype (halves via float), from
 * the dtype's traits. */
static void store_double(tsr_dtype d, void *p, double v) { tsr_dtype_traits_of(d)->store_double(p, v); }

/* static_cast<scalar_t>(int64_t): integers wrap, halves go through float. */
static void store_int(tsr_dtype d, void *p, int64_t v) { tsr_dtype_traits_of(d)->store_int64(p, v); }

static double load_double(tsr_dtype d, const void *p) { return tsr_dtype_traits_of(d)->load_double(p); }

/* v rounded to a floating dtype and read back (static_cast<scalar_t> and back). */
static double round_to(tsr_dtype d, double v)
{
    char buf[16];
    store_double(d, buf, v);
    return load_double(d, buf);
}

/* ------------------------------------------------------------ checks */

static int not_implemented(const char *kernel, tsr_dtype d)
{
    tsr_error_set(TSR_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, tsr_dtype_scalar_name(d));
    return -1;
}

static bool is_float(tsr_dtype d) { return tsr_dtype_is_floating(d); }

/* at::has_internal_overlap == YES: a stride-0 dimension of size > 1. */
static int check_internal_overlap(const tsr_tensor *t)
{
    if (tsr_tensor_is_non_overlapping_and_dense(t)) return 0;
    for (int d = 0; d < t->ndim; d++) {
        if (t->strides[d] == 0 && t->sizes[d] > 1) {
            tsr_error_set(TSR_ERR_RUNTIME,
                          "unsupported operation: more than one element of the written-to tensor refers to a single "
                          "memory location. Please clone() the tensor before performing the operation.");
            return -1;
        }
    }
    return 0;
}

/* Common prologue of the nullary in-place kernels: overlap check; returns 1
 * when there is nothing to draw (meta or empty), 0 to go on, -1 on error. */
static int prologue(tsr_tensor *t)
{
    if (check_internal_overlap(t) < 0) return -1;
    if (tsr_tensor_is_meta(t) || tsr_tensor_numel(t) == 0) return 1;
    if (t->device.type != TSR_DEV_CPU && t->device.type != TSR_DEV_CUDA) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: random sampling is implemented for CPU and CUDA tensors only");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ cuda */

static bool on_cuda(const tsr_tensor *t) { return t->device.type == TSR_DEV_CUDA; }

/* distribution_nullary_kernel (native/cuda/DistributionTemplates.h): r's
 * kind, parameters and width are the caller's; here the execution policy,
 * the generator's offset and the element order. Elements are numbered in
 * TensorIterator's order (a transposed output is drawn in memory order);
 * an output that is not contiguous in that order is drawn into a
 * contiguous temporary and copied in, which gives the same values. */
static int cuda_draw(tsr_tensor *t, tsr_krandom r, tsr_generator *g, const char *aten)
{
    if (g && !gen_for(TSR_DEV_CUDA, g)) return -1;
    const tsr_backend *be = tsr_device_backend(t->device);
    if (!be) return -1;
    /* can_use_32bit_indexing: numel and every byte offset below 2^31; past
     * that 1.13 splits the launch (with_32bit_indexing), which tsr does not */
    int64_t n = tsr_tensor_numel(t), extent = 1, item = (int64_t)tsr_dtype_itemsize(t->dtype);
    for (int d = 0; d < t->ndim && extent <= INT32_MAX; d++)
        extent += (t->sizes[d] - 1) * llabs(t->strides[d]) * item;
    if (!be->random || !be->properties || n > INT32_MAX || extent > INT32_MAX || 1 + (n - 1) * item > INT32_MAX) {
        tsr_error_no_kernel(aten, "CUDA", "CPU, Meta");
        return -1;
    }
    int index = t->device.index < 0 ? tsr_device_current(TSR_DEV_CUDA) : t->device.index;
    tsr_device_props props;
    if (be->properties(index, &props) < 0) return -1;
    /* calc_execution_policy: blocks of 256, at most a full device's worth */
    const uint64_t block = 256, unroll = 4;
    uint64_t grid = ((uint64_t)n + block - 1) / block;
    uint64_t full = (uint64_t)props.multi_processor_count * (uint64_t)(props.max_threads_per_multi_processor / (int)block);
    if (full < grid) grid = full;
    if (grid == 0) grid = 1;
    uint64_t counter_offset = (((uint64_t)n - 1) / (block * grid * unroll) + 1) * unroll;

    int perm[TSR_MAX_DIMS];
    int64_t dims[TSR_MAX_DIMS];
    iter_perm(t, NULL, perm);
    for (int i = 0; i < t->ndim; i++) dims[i] = perm[t->ndim - 1 - i];   /* outermost first */
    tsr_tensor *view = tsr_view_permute(t, t->ndim, dims), *dst = NULL;
    if (!view) return -1;
    dst = tsr_tensor_is_contiguous(view) ? tsr_tensor_retain(view)
                                         : tsr_empty(view->ndim, view->sizes, view->dtype, view->device, TSR_MF_CONTIGUOUS);
    int rc = -1;
    if (!dst) goto done;
    /* philox_cuda_state(counter_offset): this kernel's offset, the next one's after it */
    if (!g) g = tsr_cuda_default_generator(index);
    r.seed = g->seed;
    r.offset = g->philox_offset;
    g->philox_offset += (counter_offset + 3) / 4 * 4;
    r.dtype = (int32_t)t->dtype;
    r.numel = n;
    r.grid = (uint32_t)grid;
    r.block = (uint32_t)block;
    r.data = tsr_tensor_ptr(dst, NULL);
    if (be->random(&r, t->device.index < 0 ? 0 : t->device.index) < 0) goto done;
    rc = dst == view ? 0 : tsr_copy_(view, dst);
done:
    tsr_tensor_release(dst);
    tsr_tensor_release(view);
    return rc;
}

/* view_as_real of a complex tensor: a NEW real alias with a trailing dim 2. */
static tsr_tensor *as_real(const tsr_tensor *t)
{
    int64_t sizes[TSR_MAX_DIMS + 1], strides[TSR_MAX_DIMS + 1];
    if (t->ndim >= TSR_MAX_DIMS) { tsr_error_set(TSR_ERR_RUNTIME, "too many dimensions"); return NULL; }
    for (int d = 0; d < t->ndim; d++) { sizes[d] = t->sizes[d]; strides[d] = t->strides[d] * 2; }
    sizes[t->ndim] = 2;
    strides[t->ndim] = 1;
    return tsr_tensor_from_storage(t->storage, t->storage_offset * 2, t->ndim + 1, sizes, strides,
                                   tsr_dtype_to_real(t->dtype));
}


/* std::numeric_limits<T>::digits and ::max() of a floating dtype, from its finfo
 * (eps is 2^(1-digits)); float64's for anything else. */
static int float_digits(tsr_dtype d)
{
    tsr_finfo fi;
    return is_float(d) && tsr_dtype_finfo(d, &fi) == 0 ? 1 - ilogb(fi.eps) : 53;
}

static double float_max(tsr_dtype d)
{
    tsr_finfo fi;
    return is_float(d) && tsr_dtype_finfo(d, &fi) == 0 ? fi.max : 1.7976931348623157e308;
}

/* ------------------------------------------------------------ uniform */

int tsr_uniform_(tsr_tensor *t, double from, double to, tsr_generator *g)
{
    if (tsr_dtype_is_complex(t->dtype)) {
        tsr_tensor *r = as_real(t);
        if (!r) return -1;
        int rc = tsr_uniform_(r, from, to, g);
        tsr_tensor_release(r);
        return rc;
    }
    tsr_dtype dt = t->dtype;
    if (!is_float(dt)) return not_implemented("check_uniform_bounds", dt);
    double max = float_max(dt), min = -max;
    const char *tn = tsr_dtype_typemeta_name(dt);
    if (!(from >= min && from <= max)) { tsr_error_set(TSR_ERR_RUNTIME, "from is out of bounds for %s", tn); return -1; }
    if (!(to >= min && to <= max)) { tsr_error_set(TSR_ERR_RUNTIME, "to is out of bounds for %s", tn); return -1; }
    if (!(from <= to)) {
        tsr_error_set(TSR_ERR_RUNTIME, "uniform_ expects to return a [from, to) range, but found from=%g > to=%g", from, to);
        return -1;
    }
    if (!((to - from) <= max)) {
        tsr_error_set(TSR_ERR_RUNTIME,
                      "uniform_ expects to-from <= std::numeric_limits<%s>::max(), but found to=%g and from=%g which "
                      "result in to-from to exceed the limit",
                      tsr_dtype_scalar_name(dt), to, from);
        return -1;
    }
    int rc = prologue(t);
    if (rc) return rc < 0 ? -1 : 0;
    if (on_cuda(t)) {   /* uniform_kernel: range = to - from in scalar_t, then in accscalar_t */
        tsr_krandom r = {.kind = TSR_KRN_UNIFORM, .wide = dt == TSR_FLOAT64};
        if (dt == TSR_FLOAT64) {
            r.a = to - from;
            r.b = from;
        } else {
            float f = (float)round_to(dt, from);
            r.a = (float)round_to(dt, (float)round_to(dt, to) - f);
            r.b = f;
        }
        return cuda_draw(t, r, g, "aten::uniform_");
    }
    if (!(g = gen_for(TSR_DEV_CPU, g))) return -1;
    Walk w;
    walk_init(&w, t, NULL);
    if (dt == TSR_FLOAT64) {       /* uniform_real_distribution<double>: random64, 53 bits */
        double d = to - from;
        do *(double *)w.p[0] = fma(unif_double(g), d, from); while (walk_next(&w));
        return walk_end(&w);
    }
    /* float and the halves: digits bits of random(), arithmetic in float; for
     * the halves from, to and to - from are rounded to the dtype first. */
    int digits = float_digits(dt);
    float f = (float)round_to(dt, from);
    float d = (float)round_to(dt, (float)round_to(dt, to) - f);
    do store_double(dt, w.p[0], fmaf(unif_bits(g, digits), d, f)); while (walk_next(&w));
    return walk_end(&w);
}

/* ------------------------------------------------------------ normal */

static inline uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* One lane of avx_mathfun.h's log256_ps (Cephes logf) with the FMAs GCC 12
 * formed in 1.13's AVX2 build. */
static float cephes_logf(float x)
{
    bool invalid = !(x > 0.0f);
    if (x < bitsf(0x00800000u)) x = bitsf(0x00800000u);
    int32_t e_bits = (int32_t)(fbits(x) >> 23) - 0x7f;
    x = bitsf((fbits(x) & ~0x7f800000u) | fbits(0.5f));
    float e = (float)e_bits + 1.0f;
    bool small = x < 0.707106781186547524f;
    float tmp = small ? x : 0.0f;
    x = x - 1.0f;
    e = e - (small ? 1.0f : 0.0f);
    x = x + tmp;
    float z = x * x;
    static const float p[9] = {7.0376836292E-2f, -1.1514610310E-1f, 1.1676998740E-1f, -1.2420140846E-1f,
                               1.4249322787E-1f, -1.6668057665E-1f, 2.0000714765E-1f, -2.4999993993E-1f,
                               3.3333331174E-1f};
    float y = p[0];
    for (int i = 1; i < 9; i++) y = fmaf(y, x, p[i]);
    y = y * x;
    y = fmaf(y, z, e * -2.12194440e-4f);
    y = fmaf(-z, 0.5f, y);
    x = x + y;
    x = fmaf(e, 0.693359375f, x);
    return invalid ? bitsf(0xffffffffu) : x;
}

/* One lane of sincos256_ps (Cephes sinf/cosf with the same range reduction). */
static void cephes_sincosf(float xin, float *s, float *c)
{
    uint32_t sign_sin = fbits(xin) & 0x80000000u;
    float x = bitsf(fbits(xin) & 0x7fffffffu);
    int32_t j = (int32_t)(x * 1.27323954473516f);
    j = (j + 1) & ~1;
    float y = (float)j;
    uint32_t swap_sin = ((uint32_t)(j & 4)) << 29;
    bool poly = (j & 2) == 0;
    x = fmaf(y, -0.78515625f, x);
    x = fmaf(y, -2.4187564849853515625e-4f, x);
    x = fmaf(y, -3.77489497744594108e-8f, x);
    uint32_t sign_cos = ((uint32_t)(~(j - 2) & 4)) << 29;
    sign_sin ^= swap_sin;
    float z = x * x;
    float yc = 2.443315711809948E-005f;
    yc = fmaf(yc, z, -1.388731625493765E-003f);
    yc = fmaf(yc, z, 4.166664568298827E-002f);
    yc = yc * z;
    yc = fmaf(yc, z, -(z * 0.5f));
    yc = yc + 1.0f;
    float ys = -1.9515295891E-4f;
    ys = fmaf(ys, z, 8.3321608736E-3f);
    ys = fmaf(ys, z, -1.6666654611E-1f);
    ys = ys * z;
    ys = fmaf(ys, x, x);
    float s2 = poly ? ys : 0.0f, s1 = poly ? 0.0f : yc;
    ys = ys - s2;
    yc = yc - s1;
    *s = bitsf(fbits(s1 + s2) ^ sign_sin);
    *c = bitsf(fbits(yc + ys) ^ sign_cos);
}

/* normal_fill_16_AVX2 (float32). */
static void fill16_f32(float *d, float mean, float std)
{
    const float two_pi = (float)(2.0f * PI_D);
    for (int j = 0; j < 8; j++) {
        float u1 = 1.0f - d[j], u2 = d[j + 8];
        float radius = sqrtf(-2.0f * cephes_logf(u1));
        float s, c;
        cephes_sincosf(two_pi * u2, &s, &c);
        d[j] = fmaf(radius * c, std, mean);
        d[j + 8] = fmaf(radius * s, std, mean);
    }
}

/* normal_fill_16<double>. */
static void fill16_f64(double *d, double mean, double std)
{
    for (int j = 0; j < 8; j++) {
        double u1 = 1.0 - d[j], u2 = d[j + 8];
        double radius = sqrt(-2.0 * log(u1));
        double theta = 2.0 * PI_D * u2;
        d[j] = fma(radius * cos(theta), std, mean);
        d[j + 8] = fma(radius * sin(theta), std, mean);
    }
}

/* normal_fill_16<Half/BFloat16> on float copies of the 16 values: every
 * named intermediate is rounded to the 16-bit type, arithmetic is float. */
static float round16(tsr_dtype dt, float v) { return (float)round_to(dt, v); }
static float round16d(tsr_dtype dt, double v) { return round16(dt, (float)v); }
/* round16 that leaves float32 values alone. */
static float round16f(tsr_dtype dt, float v) { return dt == TSR_FLOAT32 ? v : round16(dt, v); }

/* For bfloat16, c10/util/BFloat16-math.h gives std::log/sqrt/cos/sin
 * BFloat16 results and BFloat16 operators return BFloat16: every step rounds. */
static void fill16_bf16(float *d, float mean, float std)
{
    const tsr_dtype b = TSR_BFLOAT16;
    for (int j = 0; j < 8; j++) {
        float u1 = round16(b, 1.0f - d[j]), u2 = d[j + 8];
        float radius = round16(b, sqrtf(round16(b, -2.0f * round16(b, logf(u1)))));
        float theta = round16d(b, (double)(2.0f * PI_D) * (double)u2);
        float c = round16(b, cosf(theta)), s = round16(b, sinf(theta));
        d[j] = round16(b, round16(b, round16(b, radius * c) * std) + mean);
        d[j + 8] = round16(b, round16(b, round16(b, radius * s) * std) + mean);
    }
}

static void fill16_half(tsr_dtype dt, float *d, float mean, float std)
{
    if (dt == TSR_BFLOAT16) { fill16_bf16(d, mean, std); return; }
    for (int j = 0; j < 8; j++) {
        float u1 = round16(dt, 1.0f - d[j]), u2 = d[j + 8];
        float radius = round16(dt, sqrtf(-2.0f * logf(u1)));
        float theta = round16d(dt, (double)(2.0f * PI_D) * (double)u2);
        d[j] = fmaf(radius * cosf(theta), std, mean);
        d[j + 8] = fmaf(radius * sinf(theta), std, mean);
    }
}

/* normal_fill: all uniforms first, then blocks of 16; a ragged tail redraws
 * the last 16 values and transforms them again (DistributionTemplates.h). */
static int normal_fill(tsr_tensor *t, double mean, double std, tsr_generator *g)
{
    int64_t n = tsr_tensor_numel(t);
    tsr_dtype dt = t->dtype;
    void *base = tsr_tensor_ptr(t, NULL);
    if (dt == TSR_FLOAT64) {
        double *d = base;
        for (int64_t i = 0; i < n; i++) {
            d[i] = unif_double(g);
            if ((i & 0xffff) == 0xffff && tsr_check_interrupt() < 0) return -1;
        }
        for (int64_t i = 0; i + 16 <= n; i += 16) fill16_f64(d + i, mean, std);
        if (n % 16) {
            d += n - 16;
            for (int i = 0; i < 16; i++) d[i] = unif_double(g);
            fill16_f64(d, mean, std);
        }
    } else if (dt == TSR_FLOAT32) {
        float *d = base, m = (float)mean, s = (float)std;
        for (int64_t i = 0; i < n; i++) {
            d[i] = unif_bits(g, 24);
            if ((i & 0xffff) == 0xffff && tsr_check_interrupt() < 0) return -1;
        }
        for (int64_t i = 0; i + 16 <= n; i += 16) fill16_f32(d + i, m, s);
        if (n % 16) {
            d += n - 16;
            for (int i = 0; i < 16; i++) d[i] = unif_bits(g, 24);
            fill16_f32(d, m, s);
        }
    } else {
        uint16_t *d = base;
        int digits = float_digits(dt);
        float m = round16d(dt, mean), s = round16d(dt, std), buf[16];
        for (int64_t i = 0; i < n; i++) {
            store_double(dt, d + i, unif_bits(g, digits));
            if ((i & 0xffff) == 0xffff && tsr_check_interrupt() < 0) return -1;
        }
        for (int64_t i = 0; i + 16 <= n; i += 16) {
            for (int k = 0; k < 16; k++) buf[k] = (float)load_double(dt, d + i + k);
            fill16_half(dt, buf, m, s);
            for (int k = 0; k < 16; k++) store_double(dt, d + i + k, buf[k]);
        }
        if (n % 16) {
            d += n - 16;
            for (int k = 0; k < 16; k++) buf[k] = unif_bits(g, digits);
            for (int k = 0; k < 16; k++) buf[k] = round16(dt, buf[k]);
            fill16_half(dt, buf, m, s);
            for (int k = 0; k < 16; k++) store_double(dt, d + k, buf[k]);
        }
    }
    return 0;
}

int tsr_normal_(tsr_tensor *t, double mean, double std, tsr_generator *g)
{
    if (!(std >= 0.0)) {
        tsr_error_set(TSR_ERR_RUNTIME, "normal expects std >= 0.0, but found std %g", std);
        return -1;
    }
    if (tsr_dtype_is_complex(t->dtype)) {
        tsr_tensor *r = as_real(t);
        if (!r) return -1;
        int rc = tsr_normal_(r, mean, std / sqrt(2.0), g);
        tsr_tensor_release(r);
        return rc;
    }
    if (!is_float(t->dtype)) return not_implemented(on_cuda(t) ? "normal_kernel_cuda" : "normal_kernel_cpu", t->dtype);
    int rc = prologue(t);
    if (rc) return rc < 0 ? -1 : 0;
    if (on_cuda(t)) {   /* normal_kernel: mean and std in accscalar_t */
        bool wide = t->dtype == TSR_FLOAT64;
        tsr_krandom r = {.kind = TSR_KRN_NORMAL, .wide = wide, .a = wide ? std : (float)std, .b = wide ? mean : (float)mean};
        return cuda_draw(t, r, g, "aten::normal_");
    }
    if (!(g = gen_for(TSR_DEV_CPU, g))) return -1;
    if (tsr_tensor_numel(t) >= 16 && tsr_tensor_is_contiguous(t)) {
        return normal_fill(t, mean, std, g);
    }
    Walk w;
    walk_init(&w, t, NULL);
    do store_double(t->dtype, w.p[0], normal_double(g, mean, std)); while (walk_next(&w));
    return walk_end(&w);
}

/* ------------------------------------------------------------ other floats */

typedef enum { D_EXPONENTIAL, D_CAUCHY, D_LOG_NORMAL, D_GEOMETRIC } DistKind;

/* The double-precision transformations of TransformationHelper.h. */
static int sample_each(tsr_tensor *t, DistKind kind, double a, double b, tsr_generator *g)
{
    if (on_cuda(t)) {   /* cauchy_, log_normal_, geometric_: no CUDA kernels yet */
        static const char *const aten[] = {"aten::exponential_", "aten::cauchy_", "aten::log_normal_", "aten::geometric_"};
        tsr_error_no_kernel(aten[kind], "CUDA", "CPU, Meta");
        return -1;
    }
    int rc = prologue(t);
    if (rc) return rc < 0 ? -1 : 0;
    if (!(g = gen_for(TSR_DEV_CPU, g))) return -1;
    Walk w;
    walk_init(&w, t, NULL);
    do {
        double v;
        switch (kind) {
        case D_EXPONENTIAL: v = (-1.0 / a) * log(1.0 - unif_double(g)); break;
        case D_CAUCHY: v = fma(b, tan(PI_D * (unif_double(g) - 0.5)), a); break;
        case D_LOG_NORMAL: v = exp(normal_double(g, a, b)); break;
        default: v = ceil(log(unif_double(g)) / log(1.0 - a)); break;
        }
        store_double(t->dtype, w.p[0], v);
    } while (walk_next(&w));
    return walk_end(&w);
}

int tsr_exponential_(tsr_tensor *t, double lambd, tsr_generator *g)
{
    if (!(lambd >= 0.0)) {
        tsr_error_set(TSR_ERR_RUNTIME, "exponential_ expects lambda >= 0.0, but found lambda=%g", lambd);
        return -1;
    }
    if (!is_float(t->dtype)) return not_implemented(on_cuda(t) ? "exponential_cuda" : "exponential_cpu", t->dtype);
    if (on_cuda(t)) {
        int rc = prologue(t);
        if (rc) return rc < 0 ? -1 : 0;
        tsr_krandom r = {.kind = TSR_KRN_EXPONENTIAL, .wide = t->dtype == TSR_FLOAT64, .a = lambd};
        return cuda_draw(t, r, g, "aten::exponential_");
    }
    return sample_each(t, D_EXPONENTIAL, lambd, 0, g);
}

int tsr_cauchy_(tsr_tensor *t, double median, double sigma, tsr_generator *g)
{
    if (!is_float(t->dtype)) return not_implemented(on_cuda(t) ? "cauchy_cuda" : "cauchy_cpu", t->dtype);
    if (on_cuda(t)) {   /* cauchy_kernel: median and sigma in accscalar_t */
        int rc = prologue(t);
        if (rc) return rc < 0 ? -1 : 0;
        bool wide = t->dtype == TSR_FLOAT64;
        tsr_krandom r = {.kind = TSR_KRN_CAUCHY, .wide = wide, .a = wide ? sigma : (float)sigma, .b = wide ? median : (float)median};
        return cuda_draw(t, r, g, "aten::cauchy_");
    }
    return sample_each(t, D_CAUCHY, median, sigma, g);
}

int tsr_log_normal_(tsr_tensor *t, double mean, double std, tsr_generator *g)
{
    if (!(std > 0.0)) {
        tsr_error_set(TSR_ERR_RUNTIME, "log_normal_ expects std > 0.0, but found std=%g", std);
        return -1;
    }
    if (!is_float(t->dtype)) return not_implemented(on_cuda(t) ? "log_normal_cuda" : "log_normal_cpu", t->dtype);
    if (on_cuda(t)) {   /* log_normal_kernel: mean and std in accscalar_t */
        int rc = prologue(t);
        if (rc) return rc < 0 ? -1 : 0;
        bool wide = t->dtype == TSR_FLOAT64;
        tsr_krandom r = {.kind = TSR_KRN_LOG_NORMAL, .wide = wide, .a = wide ? std : (float)std, .b = wide ? mean : (float)mean};
        return cuda_draw(t, r, g, "aten::log_normal_");
    }
    return sample_each(t, D_LOG_NORMAL, mean, std, g);
}

int tsr_geometric_(tsr_tensor *t, double p, tsr_generator *g)
{
    if (!(0 < p && p < 1)) {
        tsr_error_set(TSR_ERR_RUNTIME, "geometric_ expects p to be in (0, 1), but got p=%g", p);
        return -1;
    }
    if (t->dtype == TSR_BOOL || tsr_dtype_is_complex(t->dtype))
        return not_implemented(on_cuda(t) ? "geometric_cuda" : "geometric_cpu", t->dtype);
    if (on_cuda(t)) {   /* geometric_kernel: DiscreteDistributionType, float but for double */
        int rc = prologue(t);
        if (rc) return rc < 0 ? -1 : 0;
        bool wide = t->dtype == TSR_FLOAT64;
        tsr_krandom r = {.kind = TSR_KRN_GEOMETRIC, .wide = wide, .a = wide ? p : (float)p};
        return cuda_draw(t, r, g, "aten::geometric_");
    }
    return sample_each(t, D_GEOMETRIC, p, 0, g);
}

/* ------------------------------------------------------------ bernoulli */

static bool bernoulli_self_ok(tsr_dtype d) { return d != TSR_FLOAT16 && !tsr_dtype_is_complex(d); }

int tsr_bernoulli_(tsr_tensor *t, double p, tsr_generator *g)
{
    if (!(0 <= p && p <= 1)) {
        tsr_error_set(TSR_ERR_RUNTIME, "bernoulli_ expects p to be in [0, 1], but got p=%g", p);
        return -1;
    }
    if (check_internal_overlap(t) < 0) return -1;
    if (on_cuda(t)) {   /* bernoulli_scalar_cuda_: every real dtype, Half included */
        if (tsr_dtype_is_complex(t->dtype)) return not_implemented("bernoulli_scalar_cuda_", t->dtype);
        int rc = prologue(t);
        if (rc) return rc < 0 ? -1 : 0;
        tsr_krandom r = {.kind = TSR_KRN_BERNOULLI, .wide = t->dtype == TSR_FLOAT64, .a = p};
        return cuda_draw(t, r, g, "aten::bernoulli_.float");
    }
    if (!bernoulli_self_ok(t->dtype)) return not_implemented("bernoulli_scalar_cpu_", t->dtype);
    int rc = prologue(t);
    if (rc) return rc < 0 ? -1 : 0;
    if (!(g = gen_for(TSR_DEV_CPU, g))) return -1;
    Walk w;
    walk_init(&w, t, NULL);
    do store_int(t->dtype, w.p[0], unif_double(g) < p); while (walk_next(&w));
    return walk_end(&w);
}

static int p_in_range_error(void)
{
    tsr_error_set(TSR_ERR_RUNTIME, "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
                                   "message be improved?  If so, please report an enhancement request to PyTorch.)");
    return -1;
}

/* rearrangeDims (ATen/cuda/CUDAApplyUtils.cuh) over a and b of one shape:
 * dims i < j swap when every operand's stride grows from i to j (size-1
 * dims stay). perm gets the resulting order, outermost first. */
static void apply_rearrange(const tsr_tensor *a, const tsr_tensor *b, int64_t *perm)
{
    int nd = a->ndim;
    int64_t st[2][TSR_MAX_DIMS];
    for (int d = 0; d < nd; d++) {
        perm[d] = d;
        st[0][d] = a->strides[d];
        st[1][d] = b->strides[d];
    }
    for (int i = 0; i < nd - 1; i++) {
        if (a->sizes[perm[i]] == 1) continue;
        for (int j = i + 1; j < nd; j++) {
            if (a->sizes[perm[j]] == 1) continue;
            bool inc = false, dec = false;
            for (int k = 0; k < 2; k++) {
                if ((uint64_t)st[k][i] < (uint64_t)st[k][j]) inc = true;
                else if ((uint64_t)st[k][i] > (uint64_t)st[k][j]) dec = true;
            }
            if (inc && !dec) {
                for (int k = 0; k < 2; k++) {
                    int64_t x = st[k][i];
                    st[k][i] = st[k][j];
                    st[k][j] = x;
                }
                int64_t x = perm[i];
                perm[i] = perm[j];
                perm[j] = x;
            }
        }
    }
}

/* bernoulli_kernel(self, p_, gen) of native/cuda/DistributionTemplates.h:
 * philox_cuda_state(10) first (an offset of 12, whatever the size, even
 * for an error after it), p moved to self's device as float (double for a
 * double self) and expanded, then 4 elements a thread in
 * CUDA_tensor_apply2's order. p outside [0, 1] is not checked (1.13's
 * device-side assert has no host equivalent here). */
static int cuda_bernoulli_p(tsr_tensor *t, const tsr_tensor *p, tsr_generator *g)
{
    if (g && !gen_for(TSR_DEV_CUDA, g)) return -1;
    const tsr_backend *be = tsr_device_backend(t->device);
    if (!be) return -1;
    if (!be->random) {
        tsr_error_no_kernel("aten::bernoulli_.Tensor", "CUDA", "CPU, Meta");
        return -1;
    }
    int index = t->device.index < 0 ? 0 : t->device.index;
    if (!g) g = tsr_cuda_default_generator(index);
    tsr_krandom r = {.kind = TSR_KRN_BERNOULLI_P, .wide = t->dtype == TSR_FLOAT64, .seed = g->seed,
                     .offset = g->philox_offset};
    g->philox_offset += 12;
    if (!is_float(p->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "expected probabilities tensor to have floating type, got %s",
                      tsr_dtype_scalar_name(p->dtype));
        return -1;
    }
    tsr_dtype pt = r.wide ? TSR_FLOAT64 : TSR_FLOAT32;
    int64_t perm[TSR_MAX_DIMS];
    tsr_tensor *pd = tsr_empty(p->ndim, p->sizes, pt, t->device, TSR_MF_CONTIGUOUS), *pe = NULL, *pv = NULL,
               *pc = NULL, *view = NULL, *dst = NULL;
    int rc = -1;
    if (!pd || tsr_copy_(pd, p) < 0 || !(pe = tsr_view_expand(pd, t->ndim, t->sizes))) goto done;
    if (tsr_dtype_is_complex(t->dtype)) {
        not_implemented("bernoulli_tensor_cuda_self_", t->dtype);
        goto done;
    }
    int64_t n = tsr_tensor_numel(t);
    if (n == 0 || tsr_tensor_is_meta(t)) { rc = 0; goto done; }
    apply_rearrange(t, pe, perm);
    if (!(view = tsr_view_permute(t, t->ndim, perm)) || !(pv = tsr_view_permute(pe, t->ndim, perm)) ||
        !(pc = tsr_contiguous(pv, TSR_MF_CONTIGUOUS)))
        goto done;
    dst = tsr_tensor_is_contiguous(view) ? tsr_tensor_retain(view)
                                         : tsr_empty(view->ndim, view->sizes, view->dtype, view->device, TSR_MF_CONTIGUOUS);
    if (!dst) goto done;
    r.dtype = (int32_t)t->dtype;
    r.numel = n;
    r.block = 512;                                  /* getApplyBlock, getApplyGrid<4> */
    r.grid = (uint32_t)((n + 2047) / 2048);
    r.data = tsr_tensor_ptr(dst, NULL);
    r.prob = tsr_tensor_ptr(pc, NULL);
    if (be->random(&r, index) < 0) goto done;
    rc = dst == view ? 0 : tsr_copy_(view, dst);
done:
    tsr_tensor_release(dst);
    tsr_tensor_release(view);
    tsr_tensor_release(pc);
    tsr_tensor_release(pv);
    tsr_tensor_release(pe);
    tsr_tensor_release(pd);
    return rc;
}

int tsr_bernoulli_tensor_(tsr_tensor *t, const tsr_tensor *p, tsr_generator *g)
{
    if (check_internal_overlap(t) < 0) return -1;
    if (on_cuda(t)) return cuda_bernoulli_p(t, p, g);
    if (on_cuda(p)) {   /* the CPU kernel takes p_.to(kCPU) */
        tsr_tensor *pc = tsr_empty(p->ndim, p->sizes, p->dtype, TSR_CPU, TSR_MF_CONTIGUOUS);
        int rc = pc && tsr_copy_(pc, p) == 0 ? tsr_bernoulli_tensor_(t, pc, g) : -1;
        tsr_tensor_release(pc);
        return rc;
    }
    if (!bernoulli_self_ok(t->dtype)) return not_implemented("bernoulli_tensor_cpu_self_", t->dtype);
    if (p->dtype != TSR_FLOAT64 && p->dtype != TSR_FLOAT32 && p->dtype != TSR_BFLOAT16)
        return not_implemented("bernoulli_tensor_cpu_p_", p->dtype);
    tsr_tensor *pe = tsr_view_expand(p, t->ndim, t->sizes);
    if (!pe) return -1;
    int rc = prologue(t);
    if (rc) { tsr_tensor_release(pe); return rc < 0 ? -1 : 0; }
    if (tsr_tensor_is_meta(pe)) { tsr_tensor_release(pe); return 0; }
    if (!(g = gen_for(TSR_DEV_CPU, g))) { tsr_tensor_release(pe); return -1; }
    Walk w;
    walk_init(&w, t, pe);
    rc = 0;
    do {
        double pv = load_double(pe->dtype, w.p[1]);
        if (!(pv >= 0 && pv <= 1)) { rc = p_in_range_error(); break; }
        bool hit = pe->dtype == TSR_FLOAT64 ? unif_double(g) < pv : unif_bits(g, 24) < (float)pv;
        store_int(t->dtype, w.p[0], hit);
    } while (walk_next(&w));
    tsr_tensor_release(pe);
    return rc ? rc : walk_end(&w);
}

tsr_tensor *tsr_bernoulli(const tsr_tensor *p, tsr_generator *g)
{
    tsr_tensor *out = tsr_empty_like(p, TSR_DTYPE_UNDEFINED, p->device, TSR_MF_CONTIGUOUS);
    if (out && tsr_bernoulli_tensor_(out, p, g) < 0) {
        tsr_tensor_release(out);
        return NULL;
    }
    return out;
}

tsr_tensor *tsr_bernoulli_p(const tsr_tensor *t, double p, tsr_generator *g)
{
    tsr_tensor *out = tsr_empty_like(t, TSR_DTYPE_UNDEFINED, t->device, TSR_MF_CONTIGUOUS);
    if (out && tsr_bernoulli_(out, p, g) < 0) {
        tsr_tensor_release(out);
        return NULL;
    }
    return out;
}

/* ------------------------------------------------------------ integers */

static bool uses_random64(tsr_dtype d)
{
    return d == TSR_INT64 || d == TSR_FLOAT64 || d == TSR_FLOAT32 || d == TSR_BFLOAT16;
}

/* The value a float dtype gives an int64 (static_cast<scalar_t> and back). */
static int64_t through_dtype(tsr_dtype d, int64_t v)
{
    char buf[16];
    tsr_dtype_traits_of(d)->store_int64(buf, v);
    double x = load_double(d, buf);
    if (x >= 9223372036854775808.0 || x < -9223372036854775808.0) return INT64_MIN;
    return (int64_t)x;
}

/* update_from / update_to (native/DistributionTemplates.h). */
static int64_t update_from(tsr_dtype d, int64_t from)
{
    int64_t f1 = through_dtype(d, from + 1);
    if (f1 < from) {
        int64_t a = llabs(from + 1);
        int n = 0;
        while (a >>= 1) ++n;
        from = f1 + ((int64_t)1 << (n - float_digits(d) + 1));
    }
    return from;
}

static int64_t update_to(tsr_dtype d, int64_t to)
{
    int64_t t1 = through_dtype(d, to - 1);
    if (t1 >= to) {
        int64_t a = llabs(to - 1);
        int n = 0;
        while (a >>= 1) ++n;
        to = t1 - ((int64_t)1 << (n - float_digits(d) + 1));
    }
    return to;
}

static int check_from_to_in_range(tsr_dtype d, int64_t from, int64_t to_inc)
{
    const char *tn = tsr_dtype_typemeta_name(d);
    if (tsr_dtype_is_complex(d)) {
        tsr_error_set(TSR_ERR_RUNTIME, "check_random_bounds handles only integral, floating-point and boolean types");
        return -1;
    }
    if (is_float(d)) {
        double max = float_max(d);
        if (!((double)from >= -max && (double)from <= max)) goto from_bad;
        if (!((double)to_inc >= -max && (double)to_inc <= max)) goto to_bad;
        return 0;
    }
    tsr_iinfo ii;
    int64_t lo = 0, hi = 1;
    if (d != TSR_BOOL && tsr_dtype_iinfo(d, &ii) == 0) { lo = ii.min; hi = (int64_t)ii.max; }
    if (!(from >= lo && from <= hi)) goto from_bad;
    if (!(to_inc >= lo && to_inc <= hi)) goto to_bad;
    return 0;
from_bad:
    tsr_error_set(TSR_ERR_RUNTIME, "from is out of bounds for %s", tn);
    return -1;
to_bad:
    tsr_error_set(TSR_ERR_RUNTIME, "to - 1 is out of bounds for %s", tn);
    return -1;
}

static int random_from_range(tsr_tensor *t, uint64_t range, int64_t base, tsr_generator *g)
{
    int rc = prologue(t);
    if (rc) return rc < 0 ? -1 : 0;
    bool wide = uses_random64(t->dtype) && range >= (UINT64_C(1) << 32);
    if (on_cuda(t)) {   /* random_from_to_kernel: curand4's words, or pairs of them */
        tsr_krandom r = {.kind = TSR_KRN_FROM_TO, .wide = wide, .range = range, .base = base};
        return cuda_draw(t, r, g, "aten::random_.from");
    }
    if (!(g = gen_for(TSR_DEV_CPU, g))) return -1;
    Walk w;
    walk_init(&w, t, NULL);
    do {
        uint64_t v = wide ? tsr_generator_random64(g) : tsr_generator_random(g);
        store_int(t->dtype, w.p[0], (int64_t)(v % range + (uint64_t)base));
    } while (walk_next(&w));
    return walk_end(&w);
}

int tsr_random_from_to_(tsr_tensor *t, int64_t from, const int64_t *to_opt, tsr_generator *g)
{
    tsr_dtype d = t->dtype;
    if (to_opt) {
        int64_t to = *to_opt;
        if (!(from < to)) {
            tsr_error_set(TSR_ERR_RUNTIME, "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld",
                          (long long)from, (long long)to);
            return -1;
        }
        if (is_float(d)) {
            from = update_from(d, from);
            to = update_to(d, to);
            if (!(from < to)) {
                tsr_error_set(TSR_ERR_RUNTIME,
                              "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but got "
                              "from=%lld >= to=%lld", (long long)from, (long long)to);
                return -1;
            }
        }
        if (check_from_to_in_range(d, from, to - 1) < 0) return -1;
        return random_from_range(t, (uint64_t)to - (uint64_t)from, from, g);
    }
    if (from != INT64_MIN) {
        int64_t to_inc;
        if (tsr_dtype_is_complex(d)) {
            tsr_error_set(TSR_ERR_RUNTIME, "random_from_to_impl handles only integral, floating-point and boolean types");
            return -1;
        }
        if (is_float(d)) {
            int digits = float_digits(d);
            to_inc = digits >= 63 ? INT64_MAX : (int64_t)1 << digits;
            from = update_from(d, from);
            if (!(from < to_inc)) {
                tsr_error_set(TSR_ERR_RUNTIME,
                              "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to "
                              "dtype, but got from=%lld > to_inc=%lld", (long long)from, (long long)to_inc);
                return -1;
            }
        } else if (d == TSR_BOOL) {
            to_inc = 1;
        } else {
            tsr_iinfo ii;
            tsr_dtype_iinfo(d, &ii);
            to_inc = (int64_t)ii.max;
        }
        if (check_from_to_in_range(d, from, to_inc) < 0) return -1;
        return random_from_range(t, (uint64_t)to_inc - (uint64_t)from + 1, from, g);
    }
    const char *kfull = on_cuda(t) ? "random_full_64_bits_range_kernel_cuda" : "random_full_64_bits_range_kernel_cpu";
    if (d == TSR_BOOL || d == TSR_FLOAT16 || tsr_dtype_is_complex(d)) return not_implemented(kfull, d);
    if (!uses_random64(d)) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s handles only int64, double, float and bfloat16", kfull);
        return -1;
    }
    int rc = prologue(t);
    if (rc) return rc < 0 ? -1 : 0;
    if (on_cuda(t)) {
        tsr_krandom r = {.kind = TSR_KRN_FULL_RANGE, .wide = 1};
        return cuda_draw(t, r, g, "aten::random_.from");
    }
    if (!(g = gen_for(TSR_DEV_CPU, g))) return -1;
    Walk w;
    walk_init(&w, t, NULL);
    do store_int(d, w.p[0], (int64_t)tsr_generator_random64(g)); while (walk_next(&w));
    return walk_end(&w);
}

int tsr_random_(tsr_tensor *t, tsr_generator *g)
{
    tsr_dtype d = t->dtype;
    if (tsr_dtype_is_complex(d)) return not_implemented(on_cuda(t) ? "random_kernel_cuda" : "random_kernel_cpu", d);
    int rc = prologue(t);
    if (rc) return rc < 0 ? -1 : 0;
    if (on_cuda(t)) {   /* random_kernel: transformation::uniform_int's modulus */
        uint64_t m;
        if (d == TSR_BOOL) {
            m = 2;                                          /* val & 1 */
        } else if (is_float(d)) {
            m = (UINT64_C(1) << float_digits(d)) + 1;
        } else {
            tsr_iinfo ii;
            tsr_dtype_iinfo(d, &ii);
            m = (uint64_t)ii.max + 1;
        }
        tsr_krandom r = {.kind = TSR_KRN_FROM_TO, .wide = d == TSR_FLOAT64 || d == TSR_INT64, .range = m};
        return cuda_draw(t, r, g, "aten::random_");
    }
    if (!(g = gen_for(TSR_DEV_CPU, g))) return -1;
    Walk w;
    walk_init(&w, t, NULL);
    do {
        uint64_t v = (d == TSR_FLOAT64 || d == TSR_INT64) ? tsr_generator_random64(g) : tsr_generator_random(g);
        uint64_t r;
        if (d == TSR_BOOL) {
            r = v & 1;
        } else if (is_float(d)) {
            r = v % ((UINT64_C(1) << float_digits(d)) + 1);
        } else {                /* max + 1: 2^63 for int64 */
            tsr_iinfo ii;
            tsr_dtype_iinfo(d, &ii);
            r = v % (ii.max + 1);
        }
        store_int(d, w.p[0], (int64_t)r);
    } while (walk_next(&w));
    return walk_end(&w);
}

/* ------------------------------------------------------------ factories */

static tsr_tensor *fresh(int ndim, const int64_t *sizes, tsr_dtype dtype, tsr_device device)
{
    return tsr_empty(ndim, sizes, dtype, device, TSR_MF_CONTIGUOUS);
}

/* result.resize_(size) of the *_out factories: a tensor of that shape keeps
 * its strides, another shape gets contiguous ones. */
static int resize_out(tsr_tensor *out, int ndim, const int64_t *sizes)
{
    if (out->ndim == ndim && !memcmp(out->sizes, sizes, sizeof(int64_t) * (size_t)ndim)) return 0;
    return tsr_tensor_resize_(out, ndim, sizes);
}

/* A factory's functional form: empty(size) then its out= form. */
#define FUNCTIONAL(call)                                                  \
    do {                                                                  \
        tsr_tensor *t = fresh(ndim, sizes, dtype, device);                \
        if (t && (call) < 0) { tsr_tensor_release(t); return NULL; }      \
        return t;                                                         \
    } while (0)

int tsr_rand_out(tsr_tensor *out, int ndim, const int64_t *sizes, tsr_generator *g)
{
    if (resize_out(out, ndim, sizes) < 0) return -1;
    return tsr_uniform_(out, 0.0, 1.0, g);
}

int tsr_randn_out(tsr_tensor *out, int ndim, const int64_t *sizes, tsr_generator *g)
{
    if (resize_out(out, ndim, sizes) < 0) return -1;
    return tsr_normal_(out, 0.0, 1.0, g);
}

int tsr_randint_out(tsr_tensor *out, int64_t low, int64_t high, int ndim, const int64_t *sizes, tsr_generator *g)
{
    if (resize_out(out, ndim, sizes) < 0) return -1;
    return tsr_random_from_to_(out, low, &high, g);
}

int tsr_normal_size_out(tsr_tensor *out, double mean, double std, int ndim, const int64_t *sizes, tsr_generator *g)
{
    if (resize_out(out, ndim, sizes) < 0) return -1;
    return tsr_normal_(out, mean, std, g);
}

tsr_tensor *tsr_rand(int ndim, const int64_t *sizes, tsr_dtype dtype, tsr_device device, tsr_generator *g)
{
    FUNCTIONAL(tsr_uniform_(t, 0.0, 1.0, g));
}

tsr_tensor *tsr_randn(int ndim, const int64_t *sizes, tsr_dtype dtype, tsr_device device, tsr_generator *g)
{
    FUNCTIONAL(tsr_normal_(t, 0.0, 1.0, g));
}

tsr_tensor *tsr_randint(int64_t low, int64_t high, int ndim, const int64_t *sizes, tsr_dtype dtype,
                        tsr_device device, tsr_generator *g)
{
    FUNCTIONAL(tsr_random_from_to_(t, low, &high, g));
}

tsr_tensor *tsr_normal_size(double mean, double std, int ndim, const int64_t *sizes, tsr_dtype dtype,
                            tsr_device device, tsr_generator *g)
{
    FUNCTIONAL(tsr_normal_(t, mean, std, g));
}

/* randperm_out_cpu's checks (check_supported_max_int_with_precision), then
 * result.resize_({n}) and Fisher-Yates with 32-bit draws. */
int tsr_randperm_out(tsr_tensor *out, int64_t n, tsr_generator *g)
{
    tsr_dtype dtype = out->dtype;
    if (n < 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "n must be non-negative, got%lld", (long long)n);
        return -1;
    }
    if (tsr_scalar_check_fits(tsr_scalar_int(n > 0 ? n - 1 : n), dtype) < 0) return -1;
    if (on_cuda(out)) {
        tsr_error_no_kernel("aten::randperm.generator_out", "CUDA", "CPU, Meta");
        return -1;
    }
    if (out->device.type != TSR_DEV_CPU && !tsr_tensor_is_meta(out)) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: random sampling is implemented for CPU tensors only");
        return -1;
    }
    if (dtype == TSR_FLOAT16 && n > 2049) {
        tsr_error_set(TSR_ERR_RUNTIME, "n cannot be greater than 2049 for Half type.");
        return -1;
    }
    if (dtype == TSR_FLOAT32 && n > (INT64_C(1) << 24) + 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "n cannot be greater than 2^24+1 for Float type.");
        return -1;
    }
    if (resize_out(out, 1, &n) < 0) return -1;
    if (dtype == TSR_BOOL || tsr_dtype_is_complex(dtype)) return not_implemented("randperm", dtype);
    if (tsr_tensor_is_meta(out) || n == 0) return 0;
    if (!(g = gen_for(TSR_DEV_CPU, g))) return -1;
    int64_t *r = tsr_malloc(sizeof *r * (size_t)n);
    if (!r) return -1;
    for (int64_t i = 0; i < n; i++) r[i] = i;
    for (int64_t i = 0; i < n - 1; i++) {
        if ((i & 0xffff) == 0xffff && tsr_check_interrupt() < 0) {
            tsr_free(r);
            return -1;
        }
        int64_t z = (int64_t)(tsr_generator_random(g) % (uint64_t)(n - i));
        int64_t s = r[i];
        r[i] = r[z + i];
        r[z + i] = s;
    }
    char *p = tsr_tensor_ptr(out, NULL);
    int64_t step = out->strides[0] * tsr_dtype_itemsize(dtype);
    for (int64_t i = 0; i < n; i++) {
        store_int(dtype, p + i * step, r[i]);
        if ((i & 0xffff) == 0xffff && tsr_check_interrupt() < 0) {
            tsr_free(r);
            return -1;
        }
    }
    tsr_free(r);
    return 0;
}

tsr_tensor *tsr_randperm(int64_t n, tsr_dtype dtype, tsr_device device, tsr_generator *g)
{
    tsr_tensor *t = fresh(1, &n, dtype, device);
    if (t && tsr_randperm_out(t, n, g) < 0) {
        tsr_tensor_release(t);
        return NULL;
    }
    return t;
}

/* ------------------------------------------------------------ normal(Tensor) */

/* Broadcast of two shapes (infer_size) with PyTorch's message. */
static int infer_size2(const tsr_tensor *a, const tsr_tensor *b, int64_t *out)
{
    int nd = a->ndim > b->ndim ? a->ndim : b->ndim;
    for (int i = nd - 1; i >= 0; i--) {
        int ia = i - (nd - a->ndim), ib = i - (nd - b->ndim);
        int64_t sa = ia >= 0 ? a->sizes[ia] : 1, sb = ib >= 0 ? b->sizes[ib] : 1;
        if (sa != sb && sa != 1 && sb != 1) {
            tsr_error_set(TSR_ERR_RUNTIME,
                          "The size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton "
                          "dimension %d", (long long)sa, (long long)sb, i);
            return -1;
        }
        out[i] = sa == 1 ? sb : sa;
    }
    return nd;
}

static int check_std_tensor(const tsr_tensor *std)
{
    if (tsr_dtype_is_complex(std->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "normal expects standard deviation to be non-complex");
        return -1;
    }
    if (tsr_tensor_is_meta(std)) return 0;
    if (std->device.type != TSR_DEV_CPU) {   /* std.min().ge(0).item(): read on the host */
        tsr_tensor *c = tsr_empty(std->ndim, std->sizes, std->dtype, TSR_CPU, TSR_MF_CONTIGUOUS);
        int rc = c && tsr_copy_(c, std) == 0 ? check_std_tensor(c) : -1;
        tsr_tensor_release(c);
        return rc;
    }
    int64_t n = tsr_tensor_numel(std);
    for (int64_t i = 0; i < n; i++) {
        if (!(tsr_tensor_get_double_at(std, i) >= 0)) {
            tsr_error_set(TSR_ERR_RUNTIME, "normal expects all elements of std >= 0.0");
            return -1;
        }
    }
    return 0;
}

/* out op= x broadcast to out's shape, rounded to out's dtype (any strides). */
static int apply_broadcast(tsr_tensor *out, const tsr_tensor *x, bool mul)
{
    if (tsr_tensor_is_meta(out)) return 0;
    if (on_cuda(out)) {   /* output.mul_(std) / .add_(mean): the device's kernels */
        tsr_operand o = {.t = x};
        tsr_tensor *r = tsr_binary_(mul ? TSR_BINOP_MUL : TSR_BINOP_ADD, out, &o, NULL);
        tsr_tensor_release(r);
        return r ? 0 : -1;
    }
    tsr_tensor *xe = tsr_view_expand(x, out->ndim, out->sizes);
    if (!xe) return -1;
    int64_t n = tsr_tensor_numel(out), idx[TSR_MAX_DIMS];
    for (int64_t i = 0; i < n; i++) {
        tsr_unravel(out->ndim, out->sizes, i, idx);
        char *p = tsr_tensor_ptr(out, idx);
        double a = load_double(out->dtype, p);
        double b = load_double(xe->dtype, tsr_tensor_ptr(xe, idx));
        store_double(out->dtype, p, mul ? a * b : a + b);
    }
    tsr_tensor_release(xe);
    return 0;
}

/* at::native::resize_output to the broadcast of a and b's shapes. */
static int resize_broadcast(tsr_tensor *out, const tsr_tensor *a, const tsr_tensor *b)
{
    int64_t shape[TSR_MAX_DIMS];
    int nd = infer_size2(a, b, shape);
    if (nd < 0) return -1;
    return resize_out(out, nd, shape);
}

/* normal_out_impl (DistributionTemplates.h): mean's shape broadcast with the
 * output's own, N(0, std) draws, then + mean. */
int tsr_normal_tf_out(tsr_tensor *out, const tsr_tensor *mean, double std, tsr_generator *g)
{
    if (!(std >= 0.0)) {
        tsr_error_set(TSR_ERR_RUNTIME, "normal expects std >= 0.0, but found std %g", std);
        return -1;
    }
    if (resize_broadcast(out, mean, out) < 0) return -1;
    if (tsr_normal_(out, 0.0, std, g) < 0) return -1;
    return apply_broadcast(out, mean, false);
}

int tsr_normal_ft_out(tsr_tensor *out, double mean, const tsr_tensor *std, tsr_generator *g)
{
    if (check_std_tensor(std) < 0 || resize_out(out, std->ndim, std->sizes) < 0) return -1;
    tsr_tensor *m = tsr_full(0, NULL, tsr_scalar_float(mean), out->dtype, out->device);
    if (!m || tsr_normal_(out, 0.0, 1.0, g) < 0 || apply_broadcast(out, std, true) < 0 ||
        apply_broadcast(out, m, false) < 0) {
        tsr_tensor_release(m);
        return -1;
    }
    tsr_tensor_release(m);
    return 0;
}

int tsr_normal_tt_out(tsr_tensor *out, const tsr_tensor *mean, const tsr_tensor *std, tsr_generator *g)
{
    if (check_std_tensor(std) < 0 || resize_broadcast(out, mean, std) < 0) return -1;
    if (tsr_normal_(out, 0.0, 1.0, g) < 0 || apply_broadcast(out, std, true) < 0) return -1;
    return apply_broadcast(out, mean, false);
}

/* The functional forms write into empty_like(mean or std, contiguous). */
tsr_tensor *tsr_normal_tf(const tsr_tensor *mean, double std, tsr_generator *g)
{
    if (!(std >= 0.0)) {
        tsr_error_set(TSR_ERR_RUNTIME, "normal expects std >= 0.0, but found std %g", std);
        return NULL;
    }
    tsr_tensor *out = tsr_empty(mean->ndim, mean->sizes, mean->dtype, mean->device, TSR_MF_CONTIGUOUS);
    if (out && tsr_normal_tf_out(out, mean, std, g) < 0) { tsr_tensor_release(out); return NULL; }
    return out;
}

tsr_tensor *tsr_normal_ft(double mean, const tsr_tensor *std, tsr_generator *g)
{
    if (check_std_tensor(std) < 0) return NULL;
    tsr_tensor *out = tsr_empty(std->ndim, std->sizes, std->dtype, std->device, TSR_MF_CONTIGUOUS);
    if (out && tsr_normal_ft_out(out, mean, std, g) < 0) { tsr_tensor_release(out); return NULL; }
    return out;
}

tsr_tensor *tsr_normal_tt(const tsr_tensor *mean, const tsr_tensor *std, tsr_generator *g)
{
    if (check_std_tensor(std) < 0) return NULL;
    int64_t shape[TSR_MAX_DIMS];
    int nd = infer_size2(mean, std, shape);
    if (nd < 0) return NULL;
    tsr_tensor *out = tsr_empty(nd, shape, mean->dtype, mean->device, TSR_MF_CONTIGUOUS);
    if (out && tsr_normal_tt_out(out, mean, std, g) < 0) { tsr_tensor_release(out); return NULL; }
    return out;
}

/* ------------------------------------------------------------ multinomial */

/* multinomial_with_replacement_apply: per row, a cumulative sum in the
 * input's dtype (float for bfloat16 is 1.13's scalar_t arithmetic), then a
 * binary search for each double uniform. */
static int multinomial_replace(const tsr_tensor *p, tsr_tensor *out, int64_t n, tsr_generator *g)
{
    int64_t ncat = p->sizes[p->ndim - 1], ndist = p->ndim > 1 ? p->sizes[0] : 1;
    tsr_dtype dt = p->dtype;
    double *cum = tsr_malloc(sizeof *cum * (size_t)ncat);
    if (!cum) return -1;
    int64_t *res = tsr_tensor_ptr(out, NULL);
    const char *base = tsr_tensor_ptr(p, NULL);
    int item = tsr_dtype_itemsize(dt);
    int64_t s0 = p->ndim > 1 ? p->strides[0] : 0, s1 = p->strides[p->ndim - 1];
    for (int64_t i = 0; i < ndist; i++) {
        double sum = 0;
        for (int64_t j = 0; j < ncat; j++) {
            double v = load_double(dt, base + (i * s0 + j * s1) * item);
            if (!(v >= 0)) {
                tsr_error_set(TSR_ERR_RUNTIME, "invalid multinomial distribution (encountering probability entry < 0)");
                goto fail;
            }
            if (!isfinite(v)) {
                tsr_error_set(TSR_ERR_RUNTIME,
                              "invalid multinomial distribution (encountering probability entry = infinity or NaN)");
                goto fail;
            }
            sum = dt == TSR_FLOAT64 ? sum + v : (double)round16f(dt, (float)sum + (float)v);
            cum[j] = sum;
        }
        if (!(sum > 0)) {
            tsr_error_set(TSR_ERR_RUNTIME, "invalid multinomial distribution (sum of probabilities <= 0)");
            goto fail;
        }
        for (int64_t j = 0; j < ncat; j++)
            cum[j] = dt == TSR_FLOAT64 ? cum[j] / sum : (double)round16f(dt, (float)cum[j] / (float)sum);
        for (int64_t j = 0; j < n; j++) {
            double u = unif_double(g);
            int64_t lo = 0, hi = ncat;
            cum[ncat - 1] = 1;
            while (hi - lo > 0) {
                int64_t mid = lo + (hi - lo) / 2;
                if (cum[mid] < u) lo = mid + 1;
                else hi = mid;
            }
            res[i * n + j] = lo;
        }
    }
    tsr_free(cum);
    return 0;
fail:
    tsr_free(cum);
    return -1;
}

/* Without replacement: argmax/topk of p / q with q ~ Exp(1) drawn in p's
 * dtype (Distributions.cpp, the Gumbel trick); ties keep the lower index. */
static int multinomial_noreplace(const tsr_tensor *p, tsr_tensor *out, int64_t n, tsr_generator *g)
{
    int64_t ncat = p->sizes[p->ndim - 1], ndist = p->ndim > 1 ? p->sizes[0] : 1;
    int64_t total = tsr_tensor_numel(p);
    for (int64_t i = 0; i < total; i++) {
        double v = tsr_tensor_get_double_at(p, i);
        if (!(v < INFINITY && v >= 0)) {
            tsr_error_set(TSR_ERR_RUNTIME, "probability tensor contains either `inf`, `nan` or element < 0");
            return -1;
        }
    }
    for (int64_t i = 0; i < ndist; i++) {
        double sum = 0;
        for (int64_t j = 0; j < ncat; j++) sum += tsr_tensor_get_double_at(p, i * ncat + j);
        if (sum == 0) {
            tsr_error_set(TSR_ERR_RUNTIME, "invalid multinomial distribution (sum of probabilities <= 0)");
            return -1;
        }
    }
    tsr_tensor *q = tsr_empty_like(p, TSR_DTYPE_UNDEFINED, p->device, TSR_MF_PRESERVE);
    if (!q) return -1;
    if (tsr_exponential_(q, 1.0, g) < 0) { tsr_tensor_release(q); return -1; }
    double *key = tsr_malloc(sizeof *key * (size_t)ncat);
    int64_t *ord = tsr_malloc(sizeof *ord * (size_t)ncat);
    if (!key || !ord) { tsr_free(key); tsr_free(ord); tsr_tensor_release(q); return -1; }
    int64_t *res = tsr_tensor_ptr(out, NULL), idx[2];
    for (int64_t i = 0; i < ndist; i++) {
        for (int64_t j = 0; j < ncat; j++) {
            idx[0] = p->ndim > 1 ? i : j;
            idx[1] = j;
            double a = tsr_tensor_get_double(p, idx), b = tsr_tensor_get_double(q, idx);
            char tmp[8];
            store_double(p->dtype, tmp, a / b);
            key[j] = load_double(p->dtype, tmp);
            ord[j] = j;
        }
        /* selection of the n largest, stable (insertion into a sorted prefix) */
        for (int64_t j = 1; j < ncat; j++) {
            int64_t o = ord[j], k = j;
            while (k > 0 && key[ord[k - 1]] < key[o]) { ord[k] = ord[k - 1]; k--; }
            ord[k] = o;
        }
        for (int64_t j = 0; j < n; j++) res[i * n + j] = ord[j];
    }
    tsr_free(key);
    tsr_free(ord);
    tsr_tensor_release(q);
    return 0;
}

int tsr_multinomial_out(tsr_tensor *out, const tsr_tensor *p, int64_t n, bool replacement, tsr_generator *g)
{
    if (p->ndim > 0 && p->ndim <= 2 && is_float(p->dtype) && out->dtype != TSR_INT64) {
        tsr_error_set(TSR_ERR_RUNTIME, "multinomial expects Long tensor out, got: %s", tsr_dtype_scalar_name(out->dtype));
        return -1;
    }
    tsr_tensor *r = tsr_multinomial(p, n, replacement, g);
    if (!r) return -1;
    int rc = tsr_factory_out(out, r, false);
    tsr_tensor_release(r);
    return rc;
}

tsr_tensor *tsr_multinomial(const tsr_tensor *p, int64_t n, bool replacement, tsr_generator *g)
{
    if (!(p->ndim > 0 && p->ndim <= 2)) {
        tsr_error_set(TSR_ERR_RUNTIME, "prob_dist must be 1 or 2 dim");
        return NULL;
    }
    if (!is_float(p->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "multinomial only supports floating-point dtypes for input, got: %s",
                      tsr_dtype_scalar_name(p->dtype));
        return NULL;
    }
    if (n <= 0) {
        tsr_error_set(TSR_ERR_RUNTIME, "cannot sample n_sample <= 0 samples");
        return NULL;
    }
    int64_t ncat = p->sizes[p->ndim - 1];
    if (!replacement && n > ncat) {
        tsr_error_set(TSR_ERR_RUNTIME, "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
        return NULL;
    }
    if (ncat > (INT64_C(1) << 24)) {
        tsr_error_set(TSR_ERR_RUNTIME, "number of categories cannot exceed 2^24");
        return NULL;
    }
    int64_t shape[2] = {p->ndim > 1 ? p->sizes[0] : n, n};
    tsr_tensor *out = tsr_empty(p->ndim, p->ndim > 1 ? shape : shape + 1, TSR_INT64, p->device, TSR_MF_CONTIGUOUS);
    if (!out) return NULL;
    if (tsr_tensor_numel(out) == 0 || tsr_tensor_is_meta(out)) return out;
    if (p->dtype == TSR_FLOAT16) {
        tsr_error_set(TSR_ERR_RUNTIME, "multinomial is not implemented for half on CPU");
        goto fail;
    }
    if (!(g = gen_for(TSR_DEV_CPU, g))) goto fail;
    if ((replacement ? multinomial_replace(p, out, n, g) : multinomial_noreplace(p, out, n, g)) < 0) goto fail;
    return out;
fail:
    tsr_tensor_release(out);
    return NULL;
}

/* ------------------------------------------------------------ poisson */

/* sample_poisson (Distributions.cpp, after NumPy): transformed rejection
 * (Hörmann 1993) for lambda >= 10, multiplication of uniforms below. */
/* static_cast<int64_t>(double) as x86-64 computes it (cvttsd2si): NaN and
 * values out of range give INT64_MIN (poisson(inf) in 1.13 returns it), with
 * no undefined conversion here. */
static int64_t cvt_int64(double x)
{
    return x >= -9223372036854775808.0 && x < 9223372036854775808.0 ? (int64_t)x : INT64_MIN;
}

static int64_t sample_poisson(double lambda, tsr_generator *g)
{
    if (lambda >= 10) {
        double slam = sqrt(lambda), loglam = log(lambda);
        double b = 0.931 + 2.53 * slam;
        double a = -0.059 + 0.02483 * b;
        double invalpha = 1.1239 + 1.1328 / (b - 3.4);
        double vr = 0.9277 - 3.6224 / (b - 2);
        for (;;) {
            double U = unif_double(g) - 0.5;
            double V = unif_double(g);
            double us = 0.5 - fabs(U);
            int64_t k = cvt_int64(floor((2 * a / us + b) * U + lambda + 0.43));
            if (us >= 0.07 && V <= vr) return k;
            if (k < 0 || (us < 0.013 && V > us)) continue;
            if ((log(V) + log(invalpha) - log(a / (us * us) + b)) <= (-lambda + k * loglam - lgamma((double)k + 1)))
                return k;
        }
    }
    if (lambda == 0) return 0;
    double enlam = exp(-lambda), prod = 1.0;
    int64_t x = 0;
    for (;;) {
        prod *= unif_double(g);
        if (prod > enlam) x += 1;
        else return x;
    }
}

tsr_tensor *tsr_poisson(const tsr_tensor *rates, tsr_generator *g)
{
    if (rates->dtype != TSR_FLOAT32 && rates->dtype != TSR_FLOAT64 && rates->dtype != TSR_BFLOAT16) {
        not_implemented("poisson_cpu", rates->dtype);
        return NULL;
    }
    tsr_tensor *out = tsr_zeros(rates->ndim, rates->sizes, rates->dtype, rates->device);
    if (!out || tsr_tensor_numel(out) == 0 || tsr_tensor_is_meta(out)) return out;
    if (!(g = gen_for(TSR_DEV_CPU, g))) { tsr_tensor_release(out); return NULL; }
    Walk w;
    walk_init(&w, out, rates);
    do {
        double lam = load_double(rates->dtype, w.p[1]);
        if (!(lam >= 0)) {
            tsr_error_set(TSR_ERR_RUNTIME, "invalid Poisson rate, expected rate to be non-negative");
            tsr_tensor_release(out);
            return NULL;
        }
        store_double(out->dtype, w.p[0], (double)sample_poisson(lam, g));
    } while (walk_next(&w));
    if (walk_end(&w) < 0) {
        tsr_tensor_release(out);
        return NULL;
    }
    return out;
}

/* ------------------------------------------------------------ binomial */

/* 1.13's sample_binomial (ATen/native/Distributions.h, after TensorFlow's
 * random_binomial_op): binomial inversion below count * prob 10, BTRS
 * (Hormann's transformed rejection) above, from the standard uniform
 * doubles of the generator. T is scalar_t: the count / prob arithmetic and
 * the float overloads of sqrt / floor / log1p stay in it, the rest is in
 * double as the template's accscalar_t. One function per dtype. */
static double stirling_tail(double k)
{
    static const double tail[] = {0.0810614667953272,  0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
                                  0.0166446911898211,  0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
                                  0.00925546218271273, 0.00833056343336287};
    if (k <= 9) return tail[(size_t)k];
    double kp1sq = (k + 1) * (k + 1);
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1);
}

#define BINOMIAL_FNS(T, SQRT, FLOOR, LOG1P)                                                                    \
    static T binomial_inversion_##T(T count, T prob, tsr_generator *g)                                         \
    {                                                                                                          \
        double geom_sum = 0, logprob = LOG1P(-prob);                                                           \
        T num_geom = 0;                                                                                        \
        for (;;) {                                                                                             \
            double u = unif_double(g), geom = ceil(log(u) / logprob);                                          \
            geom_sum += geom;                                                                                  \
            if (geom_sum > count) break;                                                                       \
            num_geom = num_geom + 1;                                                                           \
        }                                                                                                      \
        return num_geom;                                                                                       \
    }                                                                                                          \
    static T btrs_##T(T count, T prob, tsr_generator *g)                                                       \
    {                                                                                                          \
        const double stddev = SQRT(count * prob * (1 - prob));                                                 \
        const double b = 1.15 + 2.53 * stddev, a = -0.0873 + 0.0248 * b + 0.01 * prob;                         \
        const double c = count * prob + 0.5, v_r = 0.92 - 4.2 / b, r = prob / (1 - prob);                      \
        const double alpha = (2.83 + 5.1 / b) * stddev, m = FLOOR((count + 1) * prob);                         \
        for (;;) {                                                                                             \
            double U = unif_double(g) - 0.5, V = unif_double(g), us = 0.5 - fabs(U);                           \
            T k = (T)floor((2 * a / us + b) * U + c);                                                          \
            if (k < 0 || k > count) continue;                                                                  \
            if (us >= 0.07 && V <= v_r) return k;                                                              \
            V = log(V * alpha / (a / (us * us) + b));                                                          \
            double ub = ((m + 0.5) * log((m + 1) / (r * (count - m + 1))) +                                    \
                         (count + 1) * log((count - m + 1) / (count - k + 1)) +                                \
                         (k + 0.5) * log(r * (count - k + 1) / (k + 1)) + stirling_tail(m) +                   \
                         stirling_tail(count - m) - stirling_tail(k) - stirling_tail(count - k));              \
            if (V <= ub) return k;                                                                             \
        }                                                                                                      \
    }                                                                                                          \
    static T sample_binomial_##T(T count, T prob, tsr_generator *g)                                            \
    {                                                                                                          \
        if (count <= 0.0 || prob <= 0.0) return 0;                                                             \
        if (prob >= 1.0) return count;                                                                         \
        if (prob <= 0.5)                                                                                       \
            return count * prob >= 10.0 ? btrs_##T(count, prob, g) : binomial_inversion_##T(count, prob, g);   \
        if (prob > 0.5) {                                                                                      \
            T q = (T)(1.0 - prob);                                                                             \
            return count - (count * q >= 10.0 ? btrs_##T(count, q, g) : binomial_inversion_##T(count, q, g)); \
        }                                                                                                      \
        return (T)NAN;                                                                                         \
    }

BINOMIAL_FNS(float, sqrtf, floorf, log1pf)
BINOMIAL_FNS(double, sqrt, floor, log1p)

tsr_tensor *tsr_binomial(const tsr_tensor *count, const tsr_tensor *prob, tsr_generator *g)
{
    if (prob->dtype != count->dtype) {   /* the iterator's check: the result has count's dtype */
        tsr_error_set(TSR_ERR_RUNTIME, "Found dtype %s but expected %s", tsr_dtype_scalar_name(prob->dtype),
                      tsr_dtype_scalar_name(count->dtype));
        return NULL;
    }
    if (count->dtype != TSR_FLOAT32 && count->dtype != TSR_FLOAT64) {
        not_implemented("binomial_cpu", count->dtype);
        return NULL;
    }
    tsr_tensor *out = tsr_zeros(count->ndim, count->sizes, count->dtype, count->device), *pe = NULL, *pc = NULL,
               *cc = NULL;
    if (!out || tsr_tensor_numel(out) == 0 || tsr_tensor_is_meta(out)) return out;
    if (!(pe = tsr_view_expand(prob, count->ndim, count->sizes)) || !(pc = tsr_clone(pe, TSR_MF_CONTIGUOUS)) ||
        !(cc = tsr_clone(count, TSR_MF_CONTIGUOUS))) {
        tsr_tensor_release(out);
        out = NULL;
        goto done;
    }
    if (!(g = gen_for(TSR_DEV_CPU, g))) {
        tsr_tensor_release(out);
        out = NULL;
        goto done;
    }
    int64_t n = tsr_tensor_numel(out), z[TSR_MAX_DIMS] = {0};
    void *o = tsr_tensor_ptr(out, z), *c = tsr_tensor_ptr(cc, z), *p = tsr_tensor_ptr(pc, z);
    for (int64_t i = 0; i < n; i++) {   /* the iterator's order over the contiguous result */
        if (out->dtype == TSR_FLOAT32)
            ((float *)o)[i] = sample_binomial_float(((const float *)c)[i], ((const float *)p)[i], g);
        else
            ((double *)o)[i] = sample_binomial_double(((const double *)c)[i], ((const double *)p)[i], g);
    }
done:
    if (pe) tsr_tensor_release(pe);
    if (pc) tsr_tensor_release(pc);
    if (cc) tsr_tensor_release(cc);
    return out;
}
