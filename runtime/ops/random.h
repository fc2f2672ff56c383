/* runtime/ops/random.h — PyTorch's CPU generator (mt19937 seeded and laid out
 * as CPUGeneratorImpl) and the distributions drawn from it, bit for bit as
 * torch 1.13's CPU kernels (SEMANTICS.md §6, ATen DistributionTemplates.h);
 * on cuda tensors uniform_, normal_, exponential_, cauchy_, log_normal_,
 * geometric_, bernoulli_ and random_ draw as 1.13's CUDA kernels from the
 * CUDA generators below.
 * Every function taking a generator accepts NULL for the default generator.
 * In-place functions return 0 or -1; others a NEW reference or NULL + error. */
#ifndef TSR_OPS_RANDOM_H
#define TSR_OPS_RANDOM_H
#include <stdbool.h>
#include <stdint.h>
#include "../tensor.h"

/* The seed torch.Generator() starts from (c10 default_rng_seed_val). The
 * default generator itself is seeded non-deterministically, as in 1.13. */
#define TSR_DEFAULT_RNG_SEED UINT64_C(67280421310721)
/* Bytes of get_state()'s uint8 tensor (CPUGeneratorImplState), and of the
 * legacy layout set_state() also accepts. */
#define TSR_RNG_STATE_SIZE 5056
#define TSR_RNG_STATE_SIZE_LEGACY 5048

typedef struct tsr_generator tsr_generator;

/* A new generator seeded with `seed` (refcount 1), or NULL + error. */
tsr_generator *tsr_generator_new(uint64_t seed);
tsr_generator *tsr_generator_retain(tsr_generator *g);
void tsr_generator_release(tsr_generator *g);
/* The process's default CPU generator (borrowed; created on first use with a
 * seed from /dev/urandom, as getDefaultCPUGenerator does). */
tsr_generator *tsr_default_generator(void);
/* manual_seed: engine = mt19937(seed & 0xffffffff), initial_seed = seed,
 * both cached normal samples dropped. g NULL: the default generator. */
void tsr_generator_manual_seed(tsr_generator *g, uint64_t seed);
/* seed(): reseeds with a non-deterministic 64-bit value and returns it. */
uint64_t tsr_generator_seed(tsr_generator *g);
uint64_t tsr_generator_initial_seed(const tsr_generator *g);
/* get_state(): a NEW contiguous uint8 tensor of TSR_RNG_STATE_SIZE bytes. */
tsr_tensor *tsr_generator_get_state(const tsr_generator *g);
/* set_state(state): a contiguous CPU uint8 tensor of 5056 (or legacy 5048)
 * bytes. Errors as 1.13: TypeError "RNG state must be a torch.ByteTensor",
 * "RNG state must be contiguous", "Expected either a CPUGeneratorImplStateLegacy
 * of size 5048 or ...", "Invalid mt19937 state". */
int tsr_generator_set_state(tsr_generator *g, const tsr_tensor *state);
/* One 32-bit output; random64 is (first << 32) | second. */
uint32_t tsr_generator_random(tsr_generator *g);
uint64_t tsr_generator_random64(tsr_generator *g);

/* ---- CUDA generators (CUDAGeneratorImpl: a Philox seed and the offset
 * where the next kernel's draws start). The functions above act on them
 * too: manual_seed sets the seed and offset 0, seed() keeps 53 bits,
 * get_state() gives 816 bytes (800 x 0xFF, seed, offset as int64) and
 * set_state takes those (or 808: offset 0) with 1.13's errors ("RNG state
 * is wrong size", "offset must be a multiple of 4", the seed set first);
 * random()/random64() must not be given one. A sampler given a generator
 * of the other device type fails with "Expected a 'cuda' device type for
 * generator but found 'cpu'" (and the converse). ---- */
#define TSR_CUDA_RNG_STATE_SIZE 816
/* torch.Generator(device='cuda:index'): seed 67280421310721, offset 0. */
tsr_generator *tsr_cuda_generator_new(int index);
/* getDefaultCUDAGenerator(index) (borrowed): made on first use with a
 * non-deterministic seed; the caller checks the index (64 at most). */
tsr_generator *tsr_cuda_default_generator(int index);
/* manual_seed_all: every device's default generator. */
void tsr_cuda_manual_seed_all(uint64_t seed);
/* The device of a generator: cpu, or cuda:index. */
tsr_device tsr_generator_device(const tsr_generator *g);

/* ---- in-place samplers (Tensor methods); elements are drawn in
 * TensorIterator order (memory order for dense tensors) ---- */
int tsr_uniform_(tsr_tensor *t, double from, double to, tsr_generator *g);
int tsr_normal_(tsr_tensor *t, double mean, double std, tsr_generator *g);
/* random_(): [0, 2^mantissa] for floats, [0, max] for integers. */
int tsr_random_(tsr_tensor *t, tsr_generator *g);
/* random_(from, to): to NULL means "to=None" (up to the dtype's max). */
int tsr_random_from_to_(tsr_tensor *t, int64_t from, const int64_t *to, tsr_generator *g);
int tsr_exponential_(tsr_tensor *t, double lambd, tsr_generator *g);
int tsr_cauchy_(tsr_tensor *t, double median, double sigma, tsr_generator *g);
int tsr_log_normal_(tsr_tensor *t, double mean, double std, tsr_generator *g);
int tsr_geometric_(tsr_tensor *t, double p, tsr_generator *g);
int tsr_bernoulli_(tsr_tensor *t, double p, tsr_generator *g);
/* bernoulli_(p tensor): p broadcast to t's shape. */
int tsr_bernoulli_tensor_(tsr_tensor *t, const tsr_tensor *p, tsr_generator *g);

/* ---- functional forms ---- */
tsr_tensor *tsr_rand(int ndim, const int64_t *sizes, tsr_dtype dtype, tsr_device device, tsr_generator *g);
tsr_tensor *tsr_randn(int ndim, const int64_t *sizes, tsr_dtype dtype, tsr_device device, tsr_generator *g);
/* randint(low, high, size): empty(size).random_(low, high). */
tsr_tensor *tsr_randint(int64_t low, int64_t high, int ndim, const int64_t *sizes, tsr_dtype dtype,
                        tsr_device device, tsr_generator *g);
/* randperm(n): Fisher–Yates with 32-bit draws as randperm_cpu. */
tsr_tensor *tsr_randperm(int64_t n, tsr_dtype dtype, tsr_device device, tsr_generator *g);
/* normal overloads: (Tensor, Tensor), (Tensor, float), (float, Tensor), and
 * (float, float, size). */
tsr_tensor *tsr_normal_tt(const tsr_tensor *mean, const tsr_tensor *std, tsr_generator *g);
tsr_tensor *tsr_normal_tf(const tsr_tensor *mean, double std, tsr_generator *g);
tsr_tensor *tsr_normal_ft(double mean, const tsr_tensor *std, tsr_generator *g);
tsr_tensor *tsr_normal_size(double mean, double std, int ndim, const int64_t *sizes, tsr_dtype dtype,
                            tsr_device device, tsr_generator *g);
/* out= forms (rand_out, randn_out, randint_out, randperm_out, normal_out):
 * out (borrowed) is resized as 1.13's resize_ does when its shape differs
 * (the normal(Tensor) forms broadcast as normal_out_impl), then filled in
 * place with the same draws as the functional form; 0 or -1 + error. */
int tsr_rand_out(tsr_tensor *out, int ndim, const int64_t *sizes, tsr_generator *g);
int tsr_randn_out(tsr_tensor *out, int ndim, const int64_t *sizes, tsr_generator *g);
int tsr_randint_out(tsr_tensor *out, int64_t low, int64_t high, int ndim, const int64_t *sizes, tsr_generator *g);
int tsr_randperm_out(tsr_tensor *out, int64_t n, tsr_generator *g);
int tsr_normal_size_out(tsr_tensor *out, double mean, double std, int ndim, const int64_t *sizes, tsr_generator *g);
int tsr_normal_tt_out(tsr_tensor *out, const tsr_tensor *mean, const tsr_tensor *std, tsr_generator *g);
int tsr_normal_tf_out(tsr_tensor *out, const tsr_tensor *mean, double std, tsr_generator *g);
int tsr_normal_ft_out(tsr_tensor *out, double mean, const tsr_tensor *std, tsr_generator *g);
/* bernoulli(input): each element 1 with probability input[i], dtype of input. */
tsr_tensor *tsr_bernoulli(const tsr_tensor *p, tsr_generator *g);
/* bernoulli(input, p): input's shape and dtype, probability p. */
tsr_tensor *tsr_bernoulli_p(const tsr_tensor *t, double p, tsr_generator *g);
/* multinomial(input, n, replacement): int64 indices, 1-d or 2-d input. */
tsr_tensor *tsr_multinomial(const tsr_tensor *p, int64_t n, bool replacement, tsr_generator *g);
/* multinomial(..., out=out): out must be int64 ("multinomial expects Long
 * tensor out, got: Int", after the input checks); resized to the result. */
int tsr_multinomial_out(tsr_tensor *out, const tsr_tensor *p, int64_t n, bool replacement, tsr_generator *g);
/* poisson(rates): float32/float64 samples of input's shape. */
tsr_tensor *tsr_poisson(const tsr_tensor *rates, tsr_generator *g);
/* torch.binomial(count, prob, generator): 1.13's sample_binomial per element
 * (binomial inversion, or BTRS above count * prob = 10) in the result's
 * order; float / double (count's dtype, prob's must match), prob broadcast
 * to count's shape. */
tsr_tensor *tsr_binomial(const tsr_tensor *count, const tsr_tensor *prob, tsr_generator *g);

#endif
