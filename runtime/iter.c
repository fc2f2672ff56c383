/* runtime/iter.c — the elementwise engine, after aten/src/ATen/TensorIterator.cpp:
 * broadcast, device and dtype checks, output allocation (§4.4 perm rule),
 * reorder + coalesce, then rows handed to a kernel; inputs of another dtype go
 * through BUF-element cast buffers, never a full-size copy. Work above
 * TSR_PARALLEL_GRAIN elements is split over a pthread pool. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "device.h"
#include "iter.h"
#include "kernels.h"
#include "named.h"
#include "error.h"
#include "internal.h"
#include "ops/copy.h"

#define NOPS (TSR_ITER_MAX_IN + 1)
#define BUF 512            /* elements per cast buffer */
#define POLL 65536         /* elements between interrupt polls */
#define KERR_INTERRUPT (-1)

/* ------------------------------------------------------------------ warnings */

static __thread char warn_buf[1024];
static __thread int warn_pending;

void tsr_warning_set(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(warn_buf, sizeof warn_buf, fmt, ap);
    va_end(ap);
    warn_pending = 1;
}

const char *tsr_warning_take(void)
{
    if (!warn_pending) return NULL;
    warn_pending = 0;
    return warn_buf;
}

/* --------------------------------------------------------------- thread pool */

static int num_threads;                 /* 0 until first use */
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t pool_done = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t pool_busy = PTHREAD_MUTEX_INITIALIZER;   /* one parallel_for at a time */
static int pool_workers;
static __thread int in_worker;
static struct {
    void (*fn)(void *, int64_t, int64_t);
    void *arg;
    int64_t total;
    int parts, next, remaining;
    unsigned gen;
} job;

/* PyTorch 1.13's default (ParallelCommon.cpp intraop_default_num_threads):
 * OMP_NUM_THREADS, else MKL_NUM_THREADS, else the hardware threads halved on
 * x86-64 (TaskThreadPoolBase::defaultNumThreads assumes hyper-threading). The
 * count decides where threads split the work, and so which elements a
 * kernel reaches in its scalar tail: matching it keeps results identical. */
static int env_threads(const char *name)
{
    const char *e = getenv(name);
    if (!e || !*e) return 0;
    char *end;
    long v = strtol(e, &end, 10);
    return *end == '\0' && v > 0 && v < 4096 ? (int)v : 0;
}

static void init_threads(void)
{
    if (num_threads) return;
    int n = env_threads("OMP_NUM_THREADS");
    if (n <= 0) n = env_threads("MKL_NUM_THREADS");
    if (n <= 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
#if defined(__x86_64__)
        c /= 2;
#endif
        n = c > 0 ? (int)c : 1;
    }
    __atomic_store_n(&num_threads, n, __ATOMIC_RELAXED);
}

int tsr_get_num_threads(void)
{
    init_threads();
    return num_threads;
}

int tsr_set_num_threads(int n)
{
    if (n < 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "set_num_threads expects a positive integer");
        return -1;
    }
    __atomic_store_n(&num_threads, n, __ATOMIC_RELAXED);
    return 0;
}

/* at::parallel_for's split (ParallelOpenMP.h invoke_parallel): chunks of
 * divup(total, parts) elements. Where a chunk ends decides which elements
 * a kernel reaches in its scalar tail, which for some float ops (Sleef in
 * the vector body, libm in the tail) shows in the last bit. */
static void run_part(int k)
{
    int64_t chunk = (job.total + job.parts - 1) / job.parts;
    int64_t lo = chunk * k, hi = lo + chunk < job.total ? lo + chunk : job.total;
    if (lo < hi) job.fn(job.arg, lo, hi);
}

/* Takes parts until none is left; called with pool_mu held, returns with it held. */
static void take_parts(void)
{
    while (job.next < job.parts) {
        int k = job.next++;
        pthread_mutex_unlock(&pool_mu);
        run_part(k);
        pthread_mutex_lock(&pool_mu);
        if (--job.remaining == 0) pthread_cond_broadcast(&pool_done);
    }
}

static void *worker_main(void *unused)
{
    in_worker = 1;
    pthread_mutex_lock(&pool_mu);
    unsigned seen = job.gen;
    for (;;) {
        while (job.gen == seen) pthread_cond_wait(&pool_work, &pool_mu);
        seen = job.gen;
        take_parts();
    }
    return NULL;
}

void tsr_parallel_for(int64_t total, int64_t grain, void (*fn)(void *, int64_t, int64_t), void *arg)
{
    int nt = tsr_get_num_threads();
    if (grain < 1) grain = 1;
    int64_t parts = (total + grain - 1) / grain;
    if (parts > nt) parts = nt;
    if (total <= grain) parts = 1;
    if (parts <= 1 || in_worker || pthread_mutex_trylock(&pool_busy) != 0) {
        if (total > 0) fn(arg, 0, total);
        return;
    }
    pthread_mutex_lock(&pool_mu);
    while (pool_workers < parts - 1) {
        pthread_t th;
        if (pthread_create(&th, NULL, worker_main, NULL) != 0) break;
        pthread_detach(th);
        pool_workers++;
    }
    if (pool_workers == 0) {
        pthread_mutex_unlock(&pool_mu);
        pthread_mutex_unlock(&pool_busy);
        fn(arg, 0, total);
        return;
    }
    job.fn = fn;
    job.arg = arg;
    job.total = total;
    job.parts = (int)parts;
    job.next = 0;
    job.remaining = (int)parts;
    job.gen++;
    pthread_cond_broadcast(&pool_work);
    in_worker = 1;                     /* nested parallel_for runs serially */
    take_parts();
    in_worker = 0;
    while (job.remaining > 0) pthread_cond_wait(&pool_done, &pool_mu);
    pthread_mutex_unlock(&pool_mu);
    pthread_mutex_unlock(&pool_busy);
}

/* ------------------------------------------------------------- broadcasting */

int tsr_broadcast_shapes(int n, const int *ndims, const int64_t *const *sizes, int64_t *out)
{
    int nd = 0;
    int64_t acc[TSR_MAX_DIMS];
    for (int k = 0; k < n; k++) {
        int nb = ndims[k], nn = nd > nb ? nd : nb;
        int64_t tmp[TSR_MAX_DIMS];
        for (int i = nn - 1; i >= 0; i--) {
            int da = i - (nn - nd), db = i - (nn - nb);
            int64_t a = da >= 0 ? acc[da] : 1, b = db >= 0 ? sizes[k][db] : 1;
            if (a != b && a != 1 && b != 1) {
                tsr_error_set(TSR_ERR_RUNTIME, "The size of tensor a (%lld) must match the size of tensor b "
                              "(%lld) at non-singleton dimension %d", (long long)a, (long long)b, i);
                return -1;
            }
            tmp[i] = a == 1 ? b : a;
        }
        memcpy(acc, tmp, sizeof(int64_t) * (size_t)nn);
        nd = nn;
    }
    memcpy(out, acc, sizeof(int64_t) * (size_t)nd);
    return nd;
}

/* ------------------------------------------------------------ output strides */

/* Strides of operand o broadcast to (nd, shape): 0 where broadcast. */
static void bcast_strides(const tsr_tensor *t, int nd, const int64_t *shape, int64_t *st)
{
    for (int d = 0; d < nd; d++) st[d] = 0;
    if (!t) return;
    int off = nd - t->ndim;
    for (int i = 0; i < t->ndim; i++)
        st[off + i] = (t->sizes[i] == 1 && shape[off + i] != 1) ? 0 : t->strides[i];
}

/* reorder_dimensions: perm[0] is the fastest dim. st[k] are nops stride rows. */
static void compute_perm(int nd, const int64_t *shape, int nops, int64_t st[][TSR_MAX_DIMS], int *perm)
{
    for (int k = 0; k < nd; k++) perm[k] = nd - 1 - k;
    for (int i = 1; i < nd; i++) {
        int dim1 = i;
        for (int dim0 = i - 1; dim0 >= 0; dim0--) {
            int d0 = perm[dim0], d1 = perm[dim1], c = 0;
            for (int k = 0; k < nops; k++) {
                int64_t s0 = st[k][d0], s1 = st[k][d1];
                if (s0 == 0 || s1 == 0) continue;
                if (s0 < s1) { c = -1; break; }
                if (s0 > s1) { c = 1; break; }
                if (shape[d0] > shape[d1]) { c = 1; break; }
            }
            if (c > 0) {
                perm[dim0] = d1;
                perm[dim1] = d0;
                dim1 = dim0;
            } else if (c < 0) {
                break;
            }
        }
    }
}

void tsr_iter_output_strides(int nin, const tsr_operand *in, int nd, const int64_t *shape, int64_t *out)
{
    bool same = true, contig = true, cl = true, nod = true, eq = true;
    const tsr_tensor *last = NULL;
    for (int k = 0; k < nin; k++) {
        const tsr_tensor *t = in[k].t;
        if (!t || t->ndim != nd) { same = false; break; }
        for (int d = 0; d < nd && same; d++) same = t->sizes[d] == shape[d];
        if (!same) break;
        contig = contig && tsr_tensor_is_contiguous(t);
        cl = cl && tsr_tensor_is_contiguous_as(t, TSR_MF_CHANNELS_LAST);
        nod = nod && tsr_tensor_is_non_overlapping_and_dense(t);
        if (last) eq = eq && memcmp(last->strides, t->strides, sizeof(int64_t) * (size_t)nd) == 0;
        last = t;
    }
    if (same && nin > 0) {
        if (contig) { tsr_strides_contiguous(nd, shape, out); return; }
        if (cl) { tsr_strides_for_format(nd, shape, TSR_MF_CHANNELS_LAST, out); return; }
        if (nod && eq) { memcpy(out, last->strides, sizeof(int64_t) * (size_t)nd); return; }
    }
    if (nd == 0) return;
    static __thread int64_t st[TSR_ITER_MAX_IN][TSR_MAX_DIMS];
    int perm[TSR_MAX_DIMS];
    for (int k = 0; k < nin; k++) bcast_strides(in[k].t, nd, shape, st[k]);
    compute_perm(nd, shape, nin, st, perm);
    bool ident = true;
    for (int k = 0; k < nd; k++) ident = ident && perm[k] == nd - 1 - k;
    if (ident) { tsr_strides_contiguous(nd, shape, out); return; }
    int64_t acc = 1;
    for (int k = 0; k < nd; k++) {
        out[perm[k]] = acc;
        acc *= shape[perm[k]];
    }
}

/* ----------------------------------------------------------------- overlap */

static const char internal_overlap_msg[] =
    "unsupported operation: more than one element of the written-to tensor refers to a single memory "
    "location. Please clone() the tensor before performing the operation.";
static const char partial_overlap_msg[] =
    "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
    "memory location. Please clone() the tensor before performing the operation.";

int tsr_check_no_internal_overlap(const tsr_tensor *t)
{
    if (tsr_tensor_is_non_overlapping_and_dense(t)) return 0;
    for (int d = 0; d < t->ndim; d++)
        if (t->strides[d] == 0 && t->sizes[d] > 1) {
            tsr_error_set(TSR_ERR_RUNTIME, "%s", internal_overlap_msg);
            return -1;
        }
    return 0;
}

int tsr_check_no_partial_overlap(const tsr_tensor *a, const tsr_tensor *b)
{
    if (a == b || tsr_tensor_numel(a) == 0 || tsr_tensor_numel(b) == 0) return 0;
    if (a->storage != b->storage || !a->storage->data) return 0;
    if (!tsr_tensor_is_non_overlapping_and_dense(a) || !tsr_tensor_is_non_overlapping_and_dense(b)) return 0;
    const char *as = (const char *)a->storage->data + a->storage_offset * tsr_tensor_itemsize(a);
    const char *bs = (const char *)b->storage->data + b->storage_offset * tsr_tensor_itemsize(b);
    const char *ae = as + tsr_tensor_nbytes(a), *be = bs + tsr_tensor_nbytes(b);
    bool partial;
    if (as == bs && ae == be)
        partial = a->ndim != b->ndim || memcmp(a->strides, b->strides, sizeof(int64_t) * (size_t)a->ndim) != 0;
    else
        partial = as < be && bs < ae;
    if (partial) {
        tsr_error_set(TSR_ERR_RUNTIME, "%s", partial_overlap_msg);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ resize */

/* Points t's sizes/strides at room for nd dims: its own block when it is big
 * enough, else a separate one (freed by tsr_tensor_release). */
static int set_ndim(tsr_tensor *t, int nd)
{
    if (nd <= t->ndim) {
        t->strides = t->sizes + nd;
        t->ndim = nd;
        return 0;
    }
    int64_t *blk = tsr_malloc(2 * sizeof(int64_t) * (size_t)nd);
    if (!blk) return -1;
    if (t->sizes != t->dims) tsr_free(t->sizes);
    t->sizes = blk;
    t->strides = blk + nd;
    t->ndim = nd;
    return 0;
}

/* Resizes to (nd, sizes, strides); strides NULL → contiguous. */
static int resize_strided(tsr_tensor *t, int nd, const int64_t *sizes, const int64_t *strides)
{
    int64_t numel, st[TSR_MAX_DIMS];
    if (tsr_check_sizes(nd, sizes, &numel) < 0) return -1;
    if (strides) memcpy(st, strides, sizeof(int64_t) * (size_t)nd);
    else tsr_strides_contiguous(nd, sizes, st);
    uint64_t need;
    if (tsr__storage_nbytes(nd, sizes, st, t->storage_offset, tsr_tensor_itemsize(t), &need) < 0) return -1;
    if (need > t->storage->nbytes && tsr_storage_resize(t->storage, need) < 0) return -1;
    if (set_ndim(t, nd) < 0) return -1;
    memcpy(t->sizes, sizes, sizeof(int64_t) * (size_t)nd);
    memcpy(t->strides, st, sizeof(int64_t) * (size_t)nd);
    return 0;
}

int tsr_tensor_resize_(tsr_tensor *t, int nd, const int64_t *sizes)
{
    if (t->names && tsr_names_check_resize(t, nd, sizes) < 0) return -1;
    return resize_strided(t, nd, sizes, NULL);
}

/* -------------------------------------------------------------- execution */

typedef struct {
    int nops, nd;                        /* operands (out first), coalesced dims */
    int64_t shape[TSR_MAX_DIMS];         /* fastest dim first */
    int64_t st[NOPS][TSR_MAX_DIMS];      /* byte strides, fastest first */
    char *data[NOPS];
    tsr_dtype have[NOPS], want[NOPS];    /* dtype in memory, dtype the loop takes */
    bool cast[NOPS];
    bool any_cast;
    bool bf16_vec_nan;                   /* tsr_iter_config's */
    bool fconj[NOPS], fneg[NOPS];        /* math bits to apply in the cast buffer (tensor.h) */
    tsr_loop_fn loop;
    const void *ctx;
    int err;                             /* first kernel error, shared by threads */
    unsigned char scal[TSR_ITER_MAX_IN][16] __attribute__((aligned(16)));
} plan;

/* bf16_vec_nan: the NaNs of a row outside 1.13's vector blocks as the
 * scalar BFloat16 conversion writes them. */
static void bf16_tail_nans(const plan *P, char *o, const int64_t *s, int64_t n)
{
    bool vec = s[0] == 2;
    int bcast = 0;
    for (int k = 1; k < P->nops && vec; k++) {
        if (s[k] == 0) bcast++;
        else if (s[k] != 2) vec = false;
    }
    for (int64_t i = vec && bcast < 2 ? n - n % 32 : 0; i < n; i++) {
        uint16_t *q = (uint16_t *)(o + i * s[0]);
        if ((*q & 0x7fffu) > 0x7f80u) *q = 0x7fc0;
    }
}

/* Runs n elements from pointers p with the plan's strides. */
static int run_row(plan *P, char **p, int64_t n)
{
    int64_t s[NOPS];
    for (int k = 0; k < P->nops; k++) s[k] = P->st[k][0];
    if (!P->any_cast) {
        for (int64_t off = 0; off < n; off += POLL) {
            int64_t m = n - off < POLL ? n - off : POLL;
            char *q[NOPS];
            for (int k = 0; k < P->nops; k++) q[k] = p[k] + off * s[k];
            int r = P->loop(q, s, m, P->ctx);
            if (r) return r;
            if (tsr_interrupt_pending() || __atomic_load_n(&P->err, __ATOMIC_RELAXED)) return KERR_INTERRUPT;
        }
        return 0;
    }
    _Alignas(64) unsigned char bufs[NOPS][BUF * 16];
    int64_t bs[NOPS];
    char *q[NOPS];
    for (int k = 0; k < P->nops; k++) bs[k] = P->cast[k] ? tsr_dtype_itemsize(P->want[k]) : s[k];
    for (int64_t off = 0, polled = 0; off < n; off += BUF) {
        int64_t m = n - off < BUF ? n - off : BUF;
        for (int k = 0; k < P->nops; k++) {
            if (!P->cast[k]) { q[k] = p[k] + off * s[k]; continue; }
            q[k] = (char *)bufs[k];
            if (k == 0) continue;
            tsr_convert(P->want[k], q[k], bs[k], P->have[k], p[k] + off * s[k], s[k], m);
            if (P->fconj[k] || P->fneg[k]) tsr_flip_signs(P->want[k], P->fconj[k], P->fneg[k], q[k], bs[k], m);
        }
        int r = P->loop(q, bs, m, P->ctx);
        if (r) return r;
        if (P->fconj[0] || P->fneg[0]) tsr_flip_signs(P->want[0], P->fconj[0], P->fneg[0], q[0], bs[0], m);
        if (P->cast[0]) tsr_convert(P->have[0], p[0] + off * s[0], s[0], P->want[0], q[0], bs[0], m);
        if ((polled += m) >= POLL) {
            polled = 0;
            if (tsr_interrupt_pending() || __atomic_load_n(&P->err, __ATOMIC_RELAXED)) return KERR_INTERRUPT;
        }
    }
    if (P->bf16_vec_nan) bf16_tail_nans(P, p[0], s, n);
    return 0;
}

static void run_range(void *arg, int64_t begin, int64_t end)
{
    plan *P = arg;
    int64_t idx[TSR_MAX_DIMS], rem = begin;
    for (int d = 0; d < P->nd; d++) {
        idx[d] = rem % P->shape[d];
        rem /= P->shape[d];
    }
    int64_t pos = begin;
    while (pos < end) {
        int64_t n = P->shape[0] - idx[0];
        if (n > end - pos) n = end - pos;
        char *p[NOPS];
        for (int k = 0; k < P->nops; k++) {
            int64_t o = 0;
            for (int d = 0; d < P->nd; d++) o += idx[d] * P->st[k][d];
            p[k] = P->data[k] + o;
        }
        int r = run_row(P, p, n);
        if (r) {
            int zero = 0;
            __atomic_compare_exchange_n(&P->err, &zero, r, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
            return;
        }
        pos += n;
        idx[0] += n;
        for (int d = 0; d < P->nd - 1 && idx[d] == P->shape[d]; d++) {
            idx[d] = 0;
            idx[d + 1]++;
        }
    }
}

static int same_device(tsr_device a, tsr_device b) { return a.type == b.type && a.index == b.index; }

static bool is_cpu_scalar(const tsr_tensor *t) { return t->ndim == 0 && t->device.type == TSR_DEV_CPU; }

/* TensorIterator's compute_types device rule: the first tensor that is not a
 * zero-dim CPU tensor fixes the device; *dev receives it. */
static int check_devices(const tsr_iter_config *cfg, const tsr_operand *in, const tsr_tensor *out, tsr_device *dev)
{
    const tsr_tensor *ts[NOPS];
    int n = 0;
    if (out) ts[n++] = out;
    for (int k = 0; k < cfg->nin; k++)
        if (in[k].t) ts[n++] = in[k].t;
    bool have = false;
    *dev = TSR_CPU;
    for (int k = 0; k < n; k++) {
        if (is_cpu_scalar(ts[k]) && !(k == 0 && out)) continue;
        if (!have) { *dev = ts[k]->device; have = true; continue; }
        if (!same_device(*dev, ts[k]->device)) {
            char a[64], b[64];
            tsr_error_set(TSR_ERR_RUNTIME, "Expected all tensors to be on the same device, but found at least "
                          "two devices, %s and %s!", tsr_device_str(*dev, a, sizeof a),
                          tsr_device_str(ts[k]->device, b, sizeof b));
            return -1;
        }
    }
    if (!have && n > 0) *dev = ts[0]->device;
    return 0;
}

static void coalesce(plan *P)
{
    int n = 0;
    for (int d = 0; d < P->nd; d++) {
        if (n > 0) {
            int p = n - 1;
            bool ok = true;
            if (P->shape[d] != 1 && P->shape[p] != 1)
                for (int k = 0; k < P->nops && ok; k++) ok = P->st[k][p] * P->shape[p] == P->st[k][d];
            if (ok) {
                if (P->shape[p] == 1)
                    for (int k = 0; k < P->nops; k++) P->st[k][p] = P->st[k][d];
                P->shape[p] *= P->shape[d];
                continue;
            }
        }
        P->shape[n] = P->shape[d];
        for (int k = 0; k < P->nops; k++) P->st[k][n] = P->st[k][d];
        n++;
    }
    if (n == 0) {
        P->shape[0] = 1;
        for (int k = 0; k < P->nops; k++) P->st[k][0] = 0;
        n = 1;
    }
    P->nd = n;
}

/* The common small case without the general machinery: no out=, every
 * tensor operand on the CPU with the same shape, the default (row-major)
 * strides with no size-1 dimension unless 1-D (so no layout question arises and the
 * output is plainly contiguous), already of the dtype the loop takes, and
 * little enough work for one thread. Returns NULL with no error recorded
 * when the case does not apply. */
static tsr_tensor *run_simple(const tsr_iter_config *cfg, const tsr_operand *in, tsr_loop_fn loop,
                              const void *ctx, bool *done)
{
    const tsr_tensor *first = NULL;
    *done = false;
    for (int k = 0; k < cfg->nin; k++) {
        const tsr_tensor *t = in[k].t;
        if (!t) continue;
        if (t->device.type != TSR_DEV_CPU || t->dtype != cfg->in_dtype[k] || tsr_tensor_has_bits(t) || t->names)
            return NULL;
        if (!first) {
            first = t;
            if (t->ndim > 8) return NULL;
            int64_t expect = 1;
            for (int d = t->ndim - 1; d >= 0; d--) {
                if ((t->sizes[d] < 2 && t->ndim > 1) || t->strides[d] != expect) return NULL;
                expect *= t->sizes[d];
            }
            if (expect > TSR_PARALLEL_GRAIN) return NULL;
            continue;
        }
        if (t->ndim != first->ndim) return NULL;
        for (int d = 0; d < t->ndim; d++)
            if (t->sizes[d] != first->sizes[d] || t->strides[d] != first->strides[d]) return NULL;
    }
    if (!first) return NULL;
    tsr_tensor *res = tsr_tensor_empty(first->ndim, first->sizes, cfg->out_dtype, TSR_CPU);
    *done = true;
    if (!res) return NULL;
    int64_t numel = tsr_tensor_numel(res);
    if (numel == 0) return res; /* kernels never see an empty row */
    char *data[NOPS];
    int64_t st[NOPS];
    unsigned char scal[TSR_ITER_MAX_IN][16] __attribute__((aligned(16)));
    data[0] = tsr_tensor_ptr(res, NULL);
    st[0] = tsr_dtype_itemsize(cfg->out_dtype);
    for (int k = 0; k < cfg->nin; k++) {
        if (in[k].t) {
            data[k + 1] = tsr_tensor_ptr(in[k].t, NULL);
            st[k + 1] = tsr_dtype_itemsize(in[k].t->dtype);
        } else {
            tsr_scalar_store(cfg->in_dtype[k], scal[k], in[k].s);
            data[k + 1] = (char *)scal[k];
            st[k + 1] = 0;
        }
    }
    int r = loop(data, st, numel, ctx);
    if (r) {
        if (r == TSR_KERR_ZERODIV) tsr_error_set(TSR_ERR_RUNTIME, "ZeroDivisionError");
        else tsr_error_set(TSR_ERR_RUNTIME, "kernel error %d", r);
        tsr_tensor_release(res);
        return NULL;
    }
    return res;
}

/* ------------------------------------------------------------ device kernels */

#define KD_(A, ID, num, ...) _Static_assert(TSR_KD_##ID == num && TSR_##ID == num, "ORDER DTYPE");
TSR_DTYPE_LIST(KD_, )
#undef KD_

/* The dispatcher's "Could not run" for an op without a kernel on the
 * device of res: aten::NAME from cfg->aten, else from the kernel name
 * ("add_cpu" → "add"). */
static void device_no_kernel(const tsr_iter_config *cfg, tsr_device dev)
{
    char op[128];
    if (cfg->aten) {
        snprintf(op, sizeof op, "aten::%s", cfg->aten);
    } else {
        const char *k = cfg->kname ? cfg->kname : "kernel";
        size_t n = strlen(k);
        if (n > 4 && !strcmp(k + n - 4, "_cpu")) n -= 4;
        if (n > 4 && !strcmp(k + n - 4, "_vml")) n -= 4;
        snprintf(op, sizeof op, "aten::%.*s", (int)n, k);
    }
    tsr_error_no_kernel(op, tsr_device_backend_name(dev.type), "CPU, Meta");
}

static int run_device(const tsr_iter_config *cfg, const tsr_operand *in, tsr_tensor *res, int nd,
                      const int64_t *shape, bool host_loop);

/* run_device with conjugate or negative views among its tensors, as the
 * CPU's iterator reads and writes them: each such input made plain on the
 * device first (resolve_conj / resolve_neg: a copy and a negation there),
 * and a result with bits computed into a plain tensor of its geometry,
 * then copied in (which stores the bits' view of the values). */
static int run_device_resolved(const tsr_iter_config *cfg, const tsr_operand *in, tsr_tensor *res, int nd,
                               const int64_t *shape, bool host_loop)
{
    tsr_operand r[TSR_ITER_MAX_IN];
    tsr_tensor *own[TSR_ITER_MAX_IN] = {0}, *tmp = NULL;
    int rc = -1;
    for (int k = 0; k < cfg->nin; k++) {
        r[k] = in[k];
        if (in[k].t && in[k].t->device.type == res->device.type && tsr_tensor_has_bits(in[k].t)) {
            if (!(own[k] = tsr_resolve_bits(in[k].t))) goto done;
            r[k].t = own[k];
        }
    }
    tsr_tensor *dst = res;
    if (tsr_tensor_has_bits(res)) {
        int64_t st[TSR_MAX_DIMS];
        tsr_strides_preserve(res->ndim, res->sizes, res->strides, st);
        if (!(tmp = tsr_tensor_empty_strided(res->ndim, res->sizes, st, res->dtype, res->device))) goto done;
        dst = tmp;
    }
    rc = run_device(cfg, r, dst, nd, shape, host_loop);
    if (rc == 0 && tmp) rc = tsr_copy_(res, tmp);
done:
    for (int k = 0; k < cfg->nin; k++) tsr_tensor_release(own[k]);
    tsr_tensor_release(tmp);
    return rc;
}

/* The elementwise op on a device whose memory the host cannot read: the
 * same geometry as the CPU plan (broadcast strides, TensorIterator's
 * order, coalesced dims), handed to the backend's kernel with device
 * addresses; Python numbers and zero-dim CPU tensors travel as values. */
static int run_device(const tsr_iter_config *cfg, const tsr_operand *in, tsr_tensor *res, int nd,
                      const int64_t *shape, bool host_loop)
{
    const tsr_backend *be = tsr_device_backend(res->device);
    if (!be) return -1;
    int first = cfg->dev_skip < cfg->nin ? cfg->dev_skip : 0;
    tsr_dtype compute = cfg->nin ? cfg->in_dtype[first] : cfg->out_dtype;
    for (int k = first + 1; k < cfg->nin; k++)
        if (cfg->in_dtype[k] != compute) compute = TSR_DTYPE_UNDEFINED;
    if (!cfg->dev_kernel || !be->launch || !be->has_kernel || compute == TSR_DTYPE_UNDEFINED ||
        !be->has_kernel(cfg->dev_kernel, (int)compute)) {
        /* a real dtype the CPU kernel does not take either: the CUDA
         * kernel's dispatch refuses it too ("bitwise_and_cuda" not
         * implemented for 'Float'); else the op has no kernel here */
        if (cfg->dev_kernel && !host_loop && cfg->kname && compute != TSR_DTYPE_UNDEFINED &&
            !tsr_dtype_is_complex(compute) && res->device.type == TSR_DEV_CUDA) {
            char kn[128];
            size_t n = strlen(cfg->kname);
            if (n > 4 && !strcmp(cfg->kname + n - 4, "_cpu")) n -= 4;
            if (n > 4 && !strcmp(cfg->kname + n - 4, "_vml")) n -= 4;
            snprintf(kn, sizeof kn, "%.*s_cuda", (int)n, cfg->kname);
            tsr__not_implemented(kn, compute);
            return -1;
        }
        device_no_kernel(cfg, res->device);
        return -1;
    }
    if (tsr_tensor_numel(res) == 0) return 0;
    bool bits = tsr_tensor_has_bits(res);
    for (int k = 0; k < cfg->nin; k++)
        if (in[k].t && in[k].t->device.type == res->device.type && tsr_tensor_has_bits(in[k].t)) bits = true;
    if (bits) return run_device_resolved(cfg, in, res, nd, shape, host_loop);
    /* per thread, not per launch: a 1-element op's host time is mostly
     * this path's (the backend copies the record into the launch) */
    static __thread plan Pbuf;
    static __thread tsr_klaunch Kbuf;
    plan *P = &Pbuf;
    tsr_klaunch *K = &Kbuf;
    memset(K, 0, sizeof *K);
    int rc = -1;
    K->kernel = cfg->dev_kernel;
    K->compute = (int)compute;
    K->nops = P->nops = cfg->nin + 1;
    K->alpha_d = cfg->dev_alpha;
    K->alpha_i = cfg->dev_alpha_i;
    K->p = cfg->dev_params;
    static __thread int64_t est[NOPS][TSR_MAX_DIMS];
    bcast_strides(res, nd, shape, est[0]);
    K->data[0] = tsr_tensor_ptr(res, NULL);
    K->dtype[0] = (int)res->dtype;
    for (int k = 0; k < cfg->nin; k++) {
        const tsr_tensor *t = in[k].t;
        tsr_dtype want = cfg->in_dtype[k];
        if (t && t->device.type == res->device.type && t->device.index == res->device.index) {
            bcast_strides(t, nd, shape, est[k + 1]);
            K->data[k + 1] = tsr_tensor_ptr(t, NULL);
            K->dtype[k + 1] = (int)t->dtype;
            continue;
        }
        bcast_strides(NULL, nd, shape, est[k + 1]);
        K->dtype[k + 1] = (int)want;
        if (t) {   /* a zero-dim CPU tensor beside device tensors: its value */
            tsr_convert(want, K->scalar[k + 1].b, 0, t->dtype, tsr_tensor_ptr(t, NULL), 0, 1);
            tsr_flip_signs(want, t->conj, t->neg, K->scalar[k + 1].b, 0, 1);
        } else {
            tsr_scalar_store(want, K->scalar[k + 1].b, in[k].s);
        }
    }
    int perm[TSR_MAX_DIMS];
    compute_perm(nd, shape, P->nops, est, perm);
    P->nd = nd;
    for (int k = 0; k < P->nops; k++) {
        int isz = tsr_dtype_itemsize((tsr_dtype)K->dtype[k]);
        for (int j = 0; j < nd; j++) P->st[k][j] = est[k][perm[j]] * (K->data[k] ? isz : 0);
    }
    for (int j = 0; j < nd; j++) P->shape[j] = shape[perm[j]];
    coalesce(P);
    if (P->nd > TSR_K_MAXDIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "tsr: an elementwise op on %s over more than %d dimensions that do not "
                      "coalesce", tsr_device_type_name(res->device.type), TSR_K_MAXDIMS);
        goto done;
    }
    K->nd = P->nd;
    K->numel = tsr_tensor_numel(res);
    for (int j = 0; j < P->nd; j++) {
        K->shape[j] = P->shape[j];
        for (int k = 0; k < P->nops; k++) K->stride[k][j] = P->st[k][j];
    }
    rc = be->launch(K, res->device.index);
done:
    return rc;
}

tsr_tensor *tsr_iter_run(const tsr_iter_config *cfg, const tsr_operand *in, tsr_tensor *out,
                         tsr_loop_fn loop, const void *ctx)
{
    for (int k = 0; k < cfg->nin; k++)   /* strided kernels only: a sparse operand holds no data */
        if (in[k].t && in[k].t->sparse) return tsr__sparse_refused(in[k].t), NULL;
    if (out && out->sparse) return tsr__sparse_refused(out), NULL;
    if (!out && loop && !cfg->loop_writes_float32) {
        bool done;
        tsr_tensor *r = run_simple(cfg, in, loop, ctx, &done);
        if (done) return r;
    }
    int nin = cfg->nin;
    int ndims[TSR_ITER_MAX_IN + 1] = {0};
    const int64_t *sz[TSR_ITER_MAX_IN + 1] = {0};
    int64_t shape[TSR_MAX_DIMS];
    tsr_tensor *res = NULL;
    /* The plan lives on the stack: a heap block of this size per operation
     * costs more than a small operation itself (malloc_consolidate). Only
     * the fields used are initialised; st[][] is written up to nd below. */
    plan Pbuf;
    plan *P = &Pbuf;

    /* 1. overlap (compute_mem_overlaps), 2. shape, 3. dtypes and devices. */
    if (out && !tsr_device_is_meta(out->device)) {
        if (tsr_check_no_internal_overlap(out) < 0) return NULL;
        for (int k = 0; k < nin; k++)
            if (in[k].t && tsr_check_no_partial_overlap(out, in[k].t) < 0) return NULL;
    }
    for (int k = 0; k < nin; k++) {
        ndims[k] = in[k].t ? in[k].t->ndim : 0;
        sz[k] = in[k].t ? in[k].t->sizes : NULL;
    }
    int nd = tsr_broadcast_shapes(nin, ndims, sz, shape);
    if (nd < 0) return NULL;
    /* names (TensorIterator compute_names), before anything is written */
    tsr_name nm[TSR_MAX_DIMS];
    bool named = false;
    if (out && out->names) named = true;
    for (int k = 0; k < nin && !named; k++) named = in[k].t && in[k].t->names;
    if (named) {
        const tsr_tensor *ins[TSR_ITER_MAX_IN];
        for (int k = 0; k < nin; k++) ins[k] = in[k].t;
        if (tsr_names_elementwise(nin, ins, NULL, nd, nm, &named) < 0) return NULL;
        named = true;   /* a named out= is checked once it has its shape */
    }
    bool resize = false;
    if (out) {
        bool same = out->ndim == nd;
        for (int d = 0; same && d < nd; d++) same = out->sizes[d] == shape[d];
        if (!same) {
            char x[512], y[512];
            if (cfg->inplace) {
                tsr_error_set(TSR_ERR_RUNTIME, "output with shape %s doesn't match the broadcast shape %s",
                              tsr__fmt_list(x, sizeof x, out->ndim, out->sizes), tsr__fmt_list(y, sizeof y, nd, shape));
                return NULL;
            }
            resize = true;
        }
        tsr_dtype chk = cfg->check_dtype == TSR_DTYPE_UNDEFINED ? cfg->out_dtype : cfg->check_dtype;
        if (cfg->check == TSR_CHECK_CAN_CAST && !tsr_can_cast(chk, out->dtype)) {
            tsr_error_set(TSR_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                          tsr_dtype_scalar_name(chk), tsr_dtype_scalar_name(out->dtype));
            return NULL;
        }
        if (cfg->check == TSR_CHECK_SAME_DTYPE && chk != out->dtype) {
            tsr_error_set(TSR_ERR_RUNTIME, "Found dtype %s but expected %s",
                          tsr_dtype_scalar_name(out->dtype), tsr_dtype_scalar_name(chk));
            return NULL;
        }
    }
    tsr_device dev;
    if (check_devices(cfg, in, out, &dev) < 0) return NULL;

    int64_t ostr[TSR_MAX_DIMS];
    if (!out || resize) tsr_iter_output_strides(nin, in, nd, shape, ostr);
    if (!out) {
        res = tsr_tensor_empty_strided(nd, shape, ostr, cfg->out_dtype, dev);
        if (!res) return NULL;
    } else {
        if (resize) {
            if (out->names && tsr_names_check_resize(out, nd, shape) < 0) return NULL;
            if (tsr_tensor_numel(out) != 0) tsr_warn_output_resized(out, nd, shape);
            if (resize_strided(out, nd, shape, ostr) < 0) return NULL;
        }
        res = tsr_tensor_retain(out);
    }
    if (named && (tsr_names_check_out(out, nm, nd) < 0 || tsr_names_propagate(res, nm, nd) < 0)) goto fail;
    int64_t numel = tsr_tensor_numel(res);
    if (tsr_device_is_meta(res->device)) return res;
    for (int k = 0; k < nin; k++)
        if (in[k].t && tsr_device_is_meta(in[k].t->device)) return res;
    if (res->device.type != TSR_DEV_CPU) {
        if (run_device(cfg, in, res, nd, shape, loop != NULL) < 0) goto fail;
        return res;
    }
    if (!loop) {
        tsr__not_implemented(cfg->kname ? cfg->kname : "kernel", cfg->kdtype);
        goto fail;
    }
    if (numel == 0) return res;

    P->any_cast = false;
    P->bf16_vec_nan = cfg->bf16_vec_nan && cfg->loop_writes_float32 && res->dtype == TSR_BFLOAT16;
    P->err = 0;
    P->nops = nin + 1;
    P->loop = loop;
    P->ctx = ctx;
    /* Geometry in TensorIterator's order: bcast strides, perm, then bytes. */
    static __thread int64_t est[NOPS][TSR_MAX_DIMS];
    bcast_strides(res, nd, shape, est[0]);
    P->data[0] = tsr_tensor_ptr(res, NULL);
    P->have[0] = res->dtype;
    P->fconj[0] = res->conj;   /* an out= / in-place conj view stores conjugates */
    P->fneg[0] = res->neg;
    P->want[0] = cfg->loop_writes_float32 ? TSR_FLOAT32 : cfg->out_dtype;
    for (int k = 0; k < nin; k++) {
        const tsr_tensor *t = in[k].t;
        tsr_dtype want = cfg->in_dtype[k];
        bcast_strides(t, nd, shape, est[k + 1]);
        P->want[k + 1] = want;
        bool all0 = true;
        for (int d = 0; d < nd; d++) all0 = all0 && est[k + 1][d] == 0;
        P->fconj[k + 1] = P->fneg[k + 1] = false;
        if (t && all0 && tsr_tensor_has_bits(t)) {
            /* one element with a math bit: its value once, resolved */
            tsr_convert(want, P->scal[k], 0, t->dtype, tsr_tensor_ptr(t, NULL), 0, 1);
            tsr_flip_signs(want, t->conj, t->neg, P->scal[k], 0, 1);
            P->data[k + 1] = (char *)P->scal[k];
            P->have[k + 1] = want;
        } else if (!t) {
            tsr_scalar_store(want, P->scal[k], in[k].s);
            P->data[k + 1] = (char *)P->scal[k];
            P->have[k + 1] = want;
        } else if (all0 && t->dtype != want) {
            /* one element broadcast everywhere: cast it once */
            tsr_convert(want, P->scal[k], 0, t->dtype, tsr_tensor_ptr(t, NULL), 0, 1);
            P->data[k + 1] = (char *)P->scal[k];
            P->have[k + 1] = want;
        } else {
            P->data[k + 1] = tsr_tensor_ptr(t, NULL);
            P->have[k + 1] = t->dtype;
            P->fconj[k + 1] = t->conj;   /* resolved while loading, in the cast buffer */
            P->fneg[k + 1] = t->neg;
        }
    }
    int perm[TSR_MAX_DIMS];
    compute_perm(nd, shape, P->nops, est, perm);
    P->nd = nd;
    for (int k = 0; k < P->nops; k++) {
        int isz = tsr_dtype_itemsize(P->have[k]);
        for (int j = 0; j < nd; j++) P->st[k][j] = est[k][perm[j]] * isz;
        P->cast[k] = P->have[k] != P->want[k] || P->fconj[k] || P->fneg[k];
        P->any_cast = P->any_cast || P->cast[k];
    }
    for (int j = 0; j < nd; j++) P->shape[j] = shape[perm[j]];
    coalesce(P);

    /* an existing output (in-place, out=) is written whole or not at all */
    if (out && tsr_interrupt_hold() < 0) goto fail;
    if (numel > TSR_PARALLEL_GRAIN) tsr_parallel_for(numel, TSR_PARALLEL_GRAIN, run_range, P);
    else run_range(P, 0, numel);
    if (out) tsr_interrupt_unhold();

    if (P->err) {
        if (tsr_check_interrupt() < 0) goto fail;
        if (P->err == TSR_KERR_ZERODIV) tsr_error_set(TSR_ERR_RUNTIME, "ZeroDivisionError");
        else if (P->err != KERR_INTERRUPT) tsr_error_set(TSR_ERR_RUNTIME, "kernel error %d", P->err);
        else tsr_error_set(TSR_ERR_INTERRUPTED, "%s", "");
        goto fail;
    }
    return res;
fail:
    tsr_tensor_release(res);
    return NULL;
}

void tsr_warn_output_resized(const tsr_tensor *out, int nd, const int64_t *sizes)
{
    char x[512], y[512];
    tsr_warning_set("An output with one or more elements was resized since it had shape %s, which does not "
                    "match the required output shape %s. This behavior is deprecated, and in a future PyTorch "
                    "release outputs will not be resized unless they have zero elements. You can explicitly "
                    "reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0). "
                    "(Triggered internally at  ./aten/src/ATen/native/Resize.cpp:17.)",
                    tsr__fmt_list(x, sizeof x, out->ndim, out->sizes), tsr__fmt_list(y, sizeof y, nd, sizes));
}

int tsr_resize_output(tsr_tensor *out, int nd, const int64_t *sizes)
{
    bool same = out->ndim == nd;
    for (int d = 0; same && d < nd; d++) same = out->sizes[d] == sizes[d];
    if (same) return 0;
    if (tsr_tensor_numel(out) != 0) tsr_warn_output_resized(out, nd, sizes);
    return tsr_tensor_resize_(out, nd, sizes) < 0 ? -1 : 1;
}
