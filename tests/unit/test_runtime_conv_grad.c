/* tests/unit/test_runtime_conv_grad.c — ConvolutionBackward0's kernels
 * (runtime/ops/nn_conv_grad.c): every allocation failure of the backward on
 * each backend (oneDNN, slow_conv2d, slow_conv_dilated2d per group,
 * slow_conv_transpose2d) is a MEMORY error with nothing returned; the
 * gradients themselves are the conformance cases' (bits of 1.13). */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "tsr.h"
#include "ops/nn_conv.h"

#define L(...) ((const int64_t[]){__VA_ARGS__})

typedef struct {
    tsr_dtype dt;
    int64_t xs[4], ws[4], gs[4], st[2], pd[2], dl[2], groups;
    bool transposed;
} Conv;

static const Conv convs[] = {
    {TSR_FLOAT32, {2, 3, 6, 5}, {4, 3, 3, 3}, {2, 4, 6, 5}, {1, 1}, {1, 1}, {1, 1}, 1, false},   /* oneDNN */
    {TSR_FLOAT64, {1, 4, 7, 6}, {6, 2, 2, 3}, {1, 6, 4, 5}, {1, 1}, {0, 1}, {2, 1}, 2, false},   /* dilated, groups */
    {TSR_FLOAT64, {2, 2, 5, 5}, {3, 2, 3, 3}, {2, 3, 2, 2}, {2, 2}, {0, 0}, {1, 1}, 1, false},   /* slow_conv2d */
    {TSR_FLOAT64, {2, 4, 3, 3}, {4, 2, 2, 2}, {2, 4, 6, 6}, {2, 2}, {0, 0}, {1, 1}, 2, true},    /* transposed */
};

/* -1 with the error recorded, else 0 (the three gradients made and released) */
static int backward(const Conv *c)
{
    tsr_tensor *x = tsr_ones(4, c->xs, c->dt, TSR_CPU), *w = x ? tsr_ones(4, c->ws, c->dt, TSR_CPU) : NULL;
    tsr_tensor *g = w ? tsr_ones(4, c->gs, c->dt, TSR_CPU) : NULL, *gi = NULL, *gw = NULL, *gb = NULL;
    bool mask[3] = {true, true, true};
    int rc = g ? tsr_nn_conv_backward(g, x, w, 2, c->st, c->pd, c->dl, c->transposed, L(0, 0), c->groups, mask, &gi,
                                      &gw, &gb)
               : -1;
    if (rc == 0 && (!gi || !gw || !gb)) rc = -2;
    if (rc == 0 && (gi->ndim != 4 || memcmp(gi->sizes, c->xs, sizeof c->xs) || memcmp(gw->sizes, c->ws, sizeof c->ws)))
        rc = -2;
    tsr_tensor_release(x);
    tsr_tensor_release(w);
    tsr_tensor_release(g);
    tsr_tensor_release(gi);
    tsr_tensor_release(gw);
    tsr_tensor_release(gb);
    return rc;
}

TEST(conv_grad_fault_sim_walk)
{
    for (size_t k = 0; k < sizeof convs / sizeof *convs; k++) {
        tsr_error_clear();
        if (!CHECK_EQ_INT(backward(&convs[k]), 0)) printf("    case %zu: %s\n", k, tsr_error_message());
        int n, failures = 0;
        for (n = 1; n < 400; n++) {
            tsr_error_clear();
            tsr_fault_sim(n);
            int rc = backward(&convs[k]);
            int fired = tsr_fault_sim_fired();
            tsr_fault_sim(0);
            if (!fired) {
                CHECK_EQ_INT(rc, 0);
                break;
            }
            failures++;
            CHECK_EQ_INT(rc, -1);
            if (!CHECK_EQ_INT(tsr_error_kind(), TSR_ERR_MEMORY)) printf("    case %zu n=%d: %s\n", k, n, tsr_error_message());
        }
        CHECK(failures >= 3);
        CHECK(n < 400);
    }
    tsr_error_clear();
}
