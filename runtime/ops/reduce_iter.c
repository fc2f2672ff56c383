/* runtime/ops/reduce_iter.c — the reduction iterator of 1.13
 * (aten/src/ATen/TensorIterator.cpp: reorder_dimensions with reduced dims
 * first, coalesce_dimensions, serial_for_each's 2-d slabs), which every
 * reduction kernel walks so that its accumulation order is PyTorch's. */
#include <string.h>

#include "../error.h"
#include "../internal.h"
#include "../iter.h"
#include "reduce_iter.h"

int reduce_mask(const tsr_tensor *x, const tsr_dims *dims, uint64_t *mask)
{
    int nd = x->ndim;
    *mask = 0;
    if (!dims || dims->n <= 0) {
        *mask = nd ? (nd == 64 ? ~0ull : ((1ull << nd) - 1)) : 0;
        return 0;
    }
    int lo = nd ? -nd : -1, hi = nd ? nd - 1 : 0;
    for (int i = 0; i < dims->n; i++) {
        int64_t d = dims->d[i];
        if (d < lo || d > hi) {
            tsr_error_set(TSR_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %lld)",
                          lo, hi, (long long)d);
            return -1;
        }
        if (d < 0) d += nd ? nd : 1;
        if (nd == 0) continue;
        if (*mask & (1ull << d)) {
            tsr_error_set(TSR_ERR_RUNTIME, "dim %lld appears multiple times in the list of dims", (long long)d);
            return -1;
        }
        *mask |= 1ull << d;
    }
    return 0;
}

int reduce_shape(const tsr_tensor *x, uint64_t mask, bool keepdim, int64_t *shape)
{
    int n = 0;
    for (int d = 0; d < x->ndim; d++) {
        if (mask & (1ull << d)) {
            if (keepdim) shape[n++] = 1;
        } else {
            shape[n++] = x->sizes[d];
        }
    }
    return n;
}

int64_t reduce_count(const tsr_tensor *x, uint64_t mask)
{
    int64_t n = 1;
    for (int d = 0; d < x->ndim; d++)
        if (mask & (1ull << d)) n *= x->sizes[d];
    return n;
}

tsr_tensor *reduce_result(const tsr_tensor *x, uint64_t mask, bool keepdim, tsr_dtype dtype, tsr_tensor *out)
{
    int64_t shape[TSR_MAX_DIMS];
    int n = reduce_shape(x, mask, keepdim, shape);
    if (!out) return tsr_tensor_empty(n, shape, dtype, x->device);
    if (tsr_resize_output(out, n, shape) < 0) return NULL;
    return tsr_tensor_retain(out);
}

/* should_swap of reorder_dimensions for two operands (output first). */
static int should_swap(const rplan *P, int d0, int d1)
{
    for (int a = 0; a < 2; a++) {
        int64_t s0 = P->st[a][d0], s1 = P->st[a][d1];
        if (a == 0 && ((s0 == 0) != (s1 == 0))) return s1 == 0 ? 1 : -1;
        if (s0 == 0 || s1 == 0) continue;
        if (s0 < s1) return -1;
        if (s0 > s1) return 1;
        if (P->shape[d0] > P->shape[d1]) return 1;
    }
    return 0;
}

void reduce_plan(rplan *P, const tsr_tensor *in, uint64_t mask, bool keepdim, const tsr_tensor *r)
{
    int nd = in->ndim, isz = tsr_dtype_itemsize(in->dtype), osz = tsr_dtype_itemsize(r->dtype);
    rplan Q;
    int k = 0;
    for (int d = 0; d < nd; d++) {
        Q.shape[d] = in->sizes[d];
        Q.st[1][d] = in->strides[d] * isz;
        if (mask & (1ull << d)) {
            Q.st[0][d] = 0;
            if (keepdim) k++;
        } else {
            Q.st[0][d] = r->strides[k++] * osz;
        }
    }
    /* perm[0] is the fastest dim: start from n-1 .. 0, insertion sort */
    int perm[TSR_MAX_DIMS];
    for (int i = 0; i < nd; i++) perm[i] = nd - 1 - i;
    for (int i = 1; i < nd; i++) {
        int d1 = i;
        for (int d0 = i - 1; d0 >= 0; d0--) {
            int c = should_swap(&Q, perm[d0], perm[d1]);
            if (c > 0) {
                int t = perm[d0];
                perm[d0] = perm[d1];
                perm[d1] = t;
                d1 = d0;
            } else if (c < 0) {
                break;
            }
        }
    }
    for (int i = 0; i < nd; i++) {
        P->shape[i] = Q.shape[perm[i]];
        P->st[0][i] = Q.st[0][perm[i]];
        P->st[1][i] = Q.st[1][perm[i]];
    }
    /* coalesce_dimensions */
    int prev = 0;
    for (int d = 1; d < nd; d++) {
        bool can = P->shape[prev] == 1 || P->shape[d] == 1;
        if (!can) {
            can = true;
            for (int a = 0; a < 2; a++)
                if (P->shape[prev] * P->st[a][prev] != P->st[a][d]) can = false;
        }
        if (can) {
            if (P->shape[prev] == 1) {
                P->st[0][prev] = P->st[0][d];
                P->st[1][prev] = P->st[1][d];
            }
            P->shape[prev] *= P->shape[d];
        } else {
            prev++;
            if (prev != d) {
                P->st[0][prev] = P->st[0][d];
                P->st[1][prev] = P->st[1][d];
                P->shape[prev] = P->shape[d];
            }
        }
    }
    P->nd = nd ? prev + 1 : 0;
    P->base[0] = tsr_tensor_ptr(r, NULL);
    P->base[1] = tsr_tensor_ptr(in, NULL);
}

int reduce_walk(const rplan *P, rloop2d loop, void *ctx)
{
    int64_t strides[4] = {0, 0, 0, 0};
    char *data[2] = {P->base[0], P->base[1]};
    if (P->nd <= 1) {
        int64_t n = P->nd ? P->shape[0] : 1;
        if (n == 0) return 0;
        if (P->nd) {
            strides[0] = P->st[0][0];
            strides[1] = P->st[1][0];
        }
        loop(data, strides, n, 1, ctx);
        return tsr_check_interrupt();
    }
    for (int d = 0; d < P->nd; d++)
        if (P->shape[d] == 0) return 0;
    strides[0] = P->st[0][0], strides[1] = P->st[1][0];
    strides[2] = P->st[0][1], strides[3] = P->st[1][1];
    int64_t idx[TSR_MAX_DIMS] = {0};
    for (;;) {
        char *p[2] = {P->base[0], P->base[1]};
        for (int d = 2; d < P->nd; d++) {
            p[0] += idx[d] * P->st[0][d];
            p[1] += idx[d] * P->st[1][d];
        }
        loop(p, strides, P->shape[0], P->shape[1], ctx);
        if (tsr_check_interrupt() < 0) return -1;
        int d = 2;
        for (; d < P->nd; d++) {
            if (++idx[d] < P->shape[d]) break;
            idx[d] = 0;
        }
        if (d == P->nd) return 0;
    }
}

int reduce_foreach(const rplan *P, const relt_ops *ops, void *ctx)
{
    int nr = 0;        /* reduced dims lead */
    while (nr < P->nd && P->st[0][nr] == 0) nr++;
    for (int d = 0; d < P->nd; d++)
        if (P->shape[d] == 0) return 0;
    int64_t oidx[TSR_MAX_DIMS] = {0};
    int64_t chunk = 0;   /* elements since the last poll */
    enum { ROW_CHUNK = 1 << 20 };
    for (;;) {
        char *o = P->base[0], *in0 = P->base[1];
        for (int d = nr; d < P->nd; d++) {
            o += oidx[d] * P->st[0][d];
            in0 += oidx[d] * P->st[1][d];
        }
        ops->begin(ctx);
        int64_t ridx[TSR_MAX_DIMS] = {0}, lin = 0;
        for (;;) {
            const char *p = in0;
            for (int d = 0; d < nr; d++) p += ridx[d] * P->st[1][d];
            if (ops->row && nr > 0) {
                /* a long row in pieces (a row continues where it ended),
                 * with a poll between them */
                for (int64_t k = 0; k < P->shape[0]; k += ROW_CHUNK) {
                    int64_t m = P->shape[0] - k < ROW_CHUNK ? P->shape[0] - k : ROW_CHUNK;
                    ops->row(ctx, p + k * P->st[1][0], P->st[1][0], m, lin);
                    lin += m;
                    if ((chunk += m) >= ROW_CHUNK) {
                        chunk = 0;
                        if (tsr_check_interrupt() < 0) return -1;
                    }
                }
                ridx[0] = P->shape[0] - 1;
            } else {
                ops->step(ctx, p, lin++);
                if (++chunk >= ROW_CHUNK) {
                    chunk = 0;
                    if (tsr_check_interrupt() < 0) return -1;
                }
            }
            int d = 0;
            for (; d < nr; d++) {
                if (++ridx[d] < P->shape[d]) break;
                ridx[d] = 0;
            }
            if (d == nr) break;
        }
        ops->end(ctx, o);
        int d = nr;
        for (; d < P->nd; d++) {
            if (++oidx[d] < P->shape[d]) break;
            oidx[d] = 0;
        }
        if (d == P->nd) return tsr_check_interrupt();
    }
}
