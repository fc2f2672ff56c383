/* cuda/index.h — the index family's per-element bodies (runtime/kernels.h
 * TSR_INDEX_LIST), for the device (nvcc) and the simulator (g++): gathers
 * and scatters move raw elements, so every dtype works; ADD/MUL update in
 * the compute type with a compare-and-swap loop on the aligned 4- or 8-byte
 * word that holds the element (as PyTorch's gpuAtomicAdd does for the
 * types CUDA has no atomicAdd for), so that duplicate indices all land;
 * the simulator runs one thread at a time and updates in place. */
#ifndef TSR_CUDA_INDEX_H
#define TSR_CUDA_INDEX_H
#include "kern.h"

KHD int ki_itemsize(int dt)
{
    switch (dt) {
    case TSR_KD_UINT8: case TSR_KD_INT8: case TSR_KD_BOOL: return 1;
    case TSR_KD_INT16: case TSR_KD_FLOAT16: case TSR_KD_BFLOAT16: return 2;
    case TSR_KD_INT32: case TSR_KD_FLOAT32: case TSR_KD_COMPLEX32: return 4;
    case TSR_KD_INT64: case TSR_KD_FLOAT64: case TSR_KD_COMPLEX64: return 8;
    case TSR_KD_COMPLEX128: return 16;
    default: return 0;
    }
}

KHD bool ki_supported(int op, int dt)
{
    int c = k_ctype(dt);
    if (c < 0) return false;
    if (op == TSR_KI_MUL || op == TSR_KI_AMAX || op == TSR_KI_AMIN) return c <= 3;   /* not complex */
    if (op == TSR_KI_ADD) return c <= 6;   /* complex: the two parts added one at a time */
    if (op == TSR_KI_REPEAT_COUNT || op == TSR_KI_REPEAT) return dt == TSR_KD_INT32 || dt == TSR_KD_INT64;
    return op >= 0 && op < TSR_KI_COUNT;
}

/* Byte offsets of element i (linear over the launch's dims, fastest first). */
KHD void ki_offsets(const tsr_kindex &g, int64_t i, int64_t *off)
{
    int nops = 2 + g.nidx;
    for (int k = 0; k < nops; k++) off[k] = 0;
    for (int d = 0; d < g.nd; d++) {
        int64_t q = i / g.shape[d], idx = i - q * g.shape[d];
        i = q;
        for (int k = 0; k < nops; k++) off[k] += idx * g.stride[k][d];
    }
}

/* Whether index value v is in range for index k. */
KHD bool ki_in_range(const tsr_kindex &g, int k, int64_t v)
{
    return g.negative ? v >= -g.size[k] && v < g.size[k] : v >= 0 && v < g.size[k];
}

/* The byte offset element i's index values add; false when one is out of
 * range (the check kernel ran first: a guard, not a report). */
KHD bool ki_indexed(const tsr_kindex &g, const int64_t *off, int64_t *add)
{
    *add = 0;
    for (int k = 0; k < g.nidx; k++) {
        int64_t v = *(const int64_t *)(g.data[2 + k] + off[2 + k]);
        if (!ki_in_range(g, k, v)) return false;
        if (v < 0) v += g.size[k];
        *add += v * g.step[k];
    }
    return true;
}

KHD void ki_move(char *dst, const char *src, int n)
{
    for (int j = 0; j < n; j++) dst[j] = src[j];
}

/* a + alpha * b, as kern.h's ADD body computes it */
template <typename C> KHD C ki_add(C a, C b, const tsr_kindex &g) { return a + (C)g.alpha_d * b; }
template <> KHD int64_t ki_add<int64_t>(int64_t a, int64_t b, const tsr_kindex &g)
{
    return k_wrap((uint64_t)a + (uint64_t)b * (uint64_t)g.alpha_i);
}
template <> KHD bool ki_add<bool>(bool a, bool b, const tsr_kindex &g) { return a || (b && g.alpha_i); }

/* dst's new value from its old a and b: the reductions of ADD/MUL/AMAX/
 * AMIN (amax/amin: a NaN b wins, as the CPU kernel's scatter_reduce) */
template <typename C> KHD C ki_combine(C a, C b, int op, const tsr_kindex &g)
{
    switch (op) {
    case TSR_KI_MUL: return k_mul(a, b);
    case TSR_KI_AMAX: return b != b || a < b ? b : a;
    case TSR_KI_AMIN: return b != b || b < a ? b : a;
    default: return ki_add<C>(a, b, g);
    }
}

/* *p (dtype dt) = *p op v, atomically on the device. */
template <typename C> KHD void ki_update(char *p, int dt, C v, int op, const tsr_kindex &g)
{
#if defined(__CUDA_ARCH__)
    if (ki_itemsize(dt) == 8) {
        unsigned long long *w = (unsigned long long *)p, old = *w, assumed;
        do {
            assumed = old;
            unsigned long long nv = assumed;
            k_store<C>((char *)&nv, dt, ki_combine<C>(k_load<C>((const char *)&assumed, dt), v, op, g));
            old = atomicCAS(w, assumed, nv);
        } while (old != assumed);
        return;
    }
    uintptr_t a = (uintptr_t)p;
    unsigned int *w = (unsigned int *)(a & ~(uintptr_t)3), old = *w, assumed;
    int sh = (int)(a & 3);
    do {
        assumed = old;
        unsigned int nv = assumed;
        k_store<C>((char *)&nv + sh, dt, ki_combine<C>(k_load<C>((const char *)&assumed + sh, dt), v, op, g));
        old = atomicCAS(w, assumed, nv);
    } while (old != assumed);
#else
    k_store<C>(p, dt, ki_combine<C>(k_load<C>(p, dt), v, op, g));
#endif
}

/* *p = min(*p, v), atomically on the device. */
KHD void ki_min(unsigned long long *p, unsigned long long v)
{
#if defined(__CUDA_ARCH__)
    atomicMin(p, v);
#else
    if (v < *p) *p = v;
#endif
}

/* Element i of a GATHER/PUT/ADD/MUL/FILL launch; C is the compute type
 * of ADD/MUL (any for the others). */
template <typename C> KHD void ki_element(const tsr_kindex &g, int64_t i)
{
    int64_t off[2 + TSR_KI_MAXIDX], add;
    ki_offsets(g, i, off);
    if (!ki_indexed(g, off, &add)) return;
    int n = ki_itemsize(g.dtype);
    char *o = g.data[0] + off[0];
    switch (g.op) {
    case TSR_KI_GATHER: ki_move(o, g.data[1] + off[1] + add, n); return;
    case TSR_KI_PUT: ki_move(o + add, g.data[1] + off[1], n); return;
    case TSR_KI_FILL: ki_move(o + add, (const char *)g.value, n); return;
    case TSR_KI_ADD:
        if (k_ctype(g.dtype) >= 4) {   /* complex: re and im, each an atomic add of its part (gpuAtomicAdd) */
            int part = g.dtype == TSR_KD_COMPLEX32 ? TSR_KD_FLOAT16 : g.dtype == TSR_KD_COMPLEX64 ? TSR_KD_FLOAT32
                                                                                                   : TSR_KD_FLOAT64;
            for (int h = 0; h < 2; h++) {
                const char *v = g.data[1] + off[1] + h * n / 2;
                char *p = o + add + h * n / 2;
                if (part == TSR_KD_FLOAT64) ki_update<double>(p, part, k_load<double>(v, part), g.op, g);
                else ki_update<float>(p, part, k_load<float>(v, part), g.op, g);
            }
            return;
        }
        ki_update<C>(o + add, g.dtype, k_load<C>(g.data[1] + off[1], g.dtype), g.op, g);
        return;
    case TSR_KI_MUL: case TSR_KI_AMAX: case TSR_KI_AMIN:
        ki_update<C>(o + add, g.dtype, k_load<C>(g.data[1] + off[1], g.dtype), g.op, g);
        return;
    default: return;
    }
}

/* Element i of a TRIL/TRIU launch: zero it where it lies off the triangle. */
KHD void ki_tri_element(const tsr_kindex &g, int64_t i)
{
    int64_t off = 0, row = 0, col = 0;
    for (int d = 0; d < g.nd; d++) {
        int64_t q = i / g.shape[d], idx = i - q * g.shape[d];
        i = q;
        off += idx * g.stride[0][d];
        if (d == g.row_dim) row = idx;
        if (d == g.col_dim) col = idx;
    }
    bool zero = g.op == TSR_KI_TRIL ? col - row > g.diag : col - row < g.diag;
    if (zero)
        for (int j = 0, n = ki_itemsize(g.dtype); j < n; j++) g.data[0][off + j] = 0;
}

/* Element i of operand 1, over the launch's (uncoalesced) dims. */
KHD const char *ki_operand1_at(const tsr_kindex &g, int64_t i)
{
    int64_t off = 0;
    for (int d = 0; d < g.nd; d++) {
        int64_t q = i / g.shape[d], idx = i - q * g.shape[d];
        i = q;
        off += idx * g.stride[1][d];
    }
    return g.data[1] + off;
}

/* Whether p (dtype dt) is nonzero (NaN is; -0.0 is not). */
KHD bool ki_nonzero_at(const char *p, int dt)
{
    switch (dt) {
    case TSR_KD_COMPLEX32:
        return k_half_to_float(*(const uint16_t *)p) != 0 || k_half_to_float(*(const uint16_t *)(p + 2)) != 0;
    case TSR_KD_COMPLEX64: return *(const float *)p != 0 || *(const float *)(p + 4) != 0;
    case TSR_KD_COMPLEX128: return *(const double *)p != 0 || *(const double *)(p + 8) != 0;
    case TSR_KD_FLOAT16: case TSR_KD_BFLOAT16: case TSR_KD_FLOAT32: case TSR_KD_FLOAT64:
        return k_load<double>(p, dt) != 0;
    default: return k_load<int64_t>(p, dt) != 0;
    }
}

/* Chunk c of the NONZERO/REPEAT ops: elements [c * per, (c + 1) * per),
 * each weighing 0 or 1 (nonzero) or its value (repeats). With out NULL,
 * returns the chunk's total weight (-1 when a repeat is negative); else
 * writes from row start on: the coordinates of each nonzero (int64 rows
 * of nd), or i repeated (dtype's elements, below limit). */
KHD int64_t ki_nonzero_chunk(const tsr_kindex &g, int64_t c, int64_t per, char *out, int64_t start)
{
    bool repeat = g.op == TSR_KI_REPEAT_COUNT || g.op == TSR_KI_REPEAT;
    int64_t lo = c * per, hi = lo + per < g.numel ? lo + per : g.numel, n = 0;
    for (int64_t i = lo; i < hi; i++) {
        const char *p = ki_operand1_at(g, i);
        int64_t w = repeat ? k_load<int64_t>(p, g.dtype) : ki_nonzero_at(p, g.dtype) ? 1 : 0;
        if (w < 0) return -1;
        if (out && repeat) {
            int sz = ki_itemsize(g.dtype);
            for (int64_t j = 0; j < w && start + n + j < g.limit; j++)
                k_store<int64_t>(out + (start + n + j) * sz, g.dtype, i);
        } else if (out && w) {
            int64_t *row = (int64_t *)out + (start + n) * g.nd, r = i;
            for (int d = 0; d < g.nd; d++) {   /* launch dim d is the tensor's dim nd-1-d */
                int64_t q = r / g.shape[d];
                row[g.nd - 1 - d] = r - q * g.shape[d];
                r = q;
            }
        }
        n += w;
    }
    return n;
}

#endif
