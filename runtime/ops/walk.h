/* runtime/ops/walk.h — private to the indexing files: a row-major walk over
 * one shape with several strided operands (byte strides), handing each
 * innermost row to a callback. The order is row-major so that duplicate
 * writes land as 1.13's single-threaded CPU kernels land them. */
#ifndef TSR_OPS_WALK_H
#define TSR_OPS_WALK_H
#include <stdbool.h>
#include <stdint.h>
#include "../error.h"
#include "../tensor.h"

#define WALK_MAX_OPS (TSR_MAX_DIMS + 2)

typedef struct {
    int nd;
    int64_t sizes[TSR_MAX_DIMS];
    int nop;
    char *base[WALK_MAX_OPS];
    int64_t st[WALK_MAX_OPS][TSR_MAX_DIMS]; /* bytes */
    bool split;   /* fn ignores row: a long row may be handed over in pieces */
} walk;

#define WALK_POLL 65536   /* elements between interrupt polls */

/* fn(p, inner, n, row, ctx): p[k] the first element of operand k in this
 * row, inner[k] its byte stride along the row, n elements, row the number
 * of rows done before. Returns 0 or -1 (error recorded). */
typedef int (*walk_fn)(char **p, const int64_t *inner, int64_t n, int64_t row, void *ctx);

/* Sets operand k to tensor t's data and geometry (t has w->nd dims, sizes
 * equal to w's or 1 where it broadcasts: the stride is then 0). */
static inline void walk_operand(walk *w, int k, const tsr_tensor *t)
{
    int item = tsr_dtype_itemsize(t->dtype);
    w->base[k] = tsr_tensor_is_meta(t) ? NULL : (char *)tsr_tensor_ptr(t, NULL);
    for (int d = 0; d < w->nd; d++) w->st[k][d] = t->sizes[d] == 1 ? 0 : t->strides[d] * item;
}

static inline int walk_run(const walk *w, walk_fn fn, void *ctx)
{
    int nd = w->nd;
    int64_t numel = 1;
    for (int d = 0; d < nd; d++) numel *= w->sizes[d];
    if (numel == 0) return 0;
    int64_t n = nd ? w->sizes[nd - 1] : 1, inner[WALK_MAX_OPS], ctr[TSR_MAX_DIMS] = {0};
    char *p[WALK_MAX_OPS];
    for (int k = 0; k < w->nop; k++) inner[k] = nd ? w->st[k][nd - 1] : 0;
    int64_t rows = numel / n, done = 0;
    for (int64_t r = 0; r < rows; r++) {
        for (int k = 0; k < w->nop; k++) {
            char *q = w->base[k];
            for (int d = 0; d < nd - 1; d++) q += ctr[d] * w->st[k][d];
            p[k] = q;
        }
        if (w->split && n > WALK_POLL) {
            for (int64_t k0 = 0; k0 < n; k0 += WALK_POLL) {
                char *q[WALK_MAX_OPS];
                for (int k = 0; k < w->nop; k++) q[k] = p[k] + k0 * inner[k];
                if (fn(q, inner, n - k0 < WALK_POLL ? n - k0 : WALK_POLL, r, ctx) < 0) return -1;
                if (tsr_check_interrupt() < 0) return -1;
            }
        } else if (fn(p, inner, n, r, ctx) < 0) {
            return -1;
        }
        for (int d = nd - 2; d >= 0; d--) {
            if (++ctr[d] < w->sizes[d]) break;
            ctr[d] = 0;
        }
        if ((done += n) >= WALK_POLL) {
            done = 0;
            if (tsr_check_interrupt() < 0) return -1;
        }
    }
    return tsr_check_interrupt();
}

#endif
