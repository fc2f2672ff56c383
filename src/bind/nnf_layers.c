/* src/bind/nnf_layers.c — torch.nn.functional's layers: conv1d/conv2d
 * (python_arg_parser rows, also torch.conv1d/conv2d), the pooling family and
 * the normalization layers (1.13's Python defs in torch/nn/functional.py,
 * with their argument handling). Every tensor rule is runtime/ops/nn_conv.h's. */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "bind/areas.h"
#include "bind/bind.h"
#include "bind/ops.h"
#include "bind/table.h"
#include "bind/tensor.h"
#include "autograd.h"
#include "names.h"
#include "ops/nn_conv.h"

#define MOD "torch.nn.functional"

/* An int[N] slot with its default (one value repeated N times when absent). */
static int intlist_or(const BindArgs *b, int slot, const char *fname, int64_t dflt, int sz, int64_t *out, int *n)
{
    if (!b->v[slot]) {
        for (int i = 0; i < sz; i++) out[i] = dflt;
        *n = sz;
        return 0;
    }
    return bind_table_intlist(b, slot, fname, out, TSR_MAX_DIMS, n);
}

/* ------------------------------------------------------------ convolution */

static Value *conv_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)self; (void)inplace;
    int64_t st[TSR_MAX_DIMS], pd[TSR_MAX_DIMS], dl[TSR_MAX_DIMS], groups = 1;
    int ns, np = 0, nd;
    const char *mode = NULL;
    if (intlist_or(b, 3, fname, 1, row->kind, st, &ns) < 0 || intlist_or(b, 5, fname, 1, row->kind, dl, &nd) < 0 ||
        bind_table_int(b, 6, 1, &groups) < 0)
        return NULL;
    if (b->v[4] && b->type[4] == BT_STR) mode = b->v[4]->u.s.p;
    else if (intlist_or(b, 4, fname, 0, row->kind, pd, &np) < 0) return NULL;
    return v_tensor(tsr_nn_conv(tensor_of(b->v[0]), tensor_of(b->v[1]), b->v[2] ? tensor_of(b->v[2]) : NULL, row->kind,
                                ns, st, np, pd, nd, dl, groups, mode));
}

#define CONV_SIGS(N)                                                                                               \
    "Tensor input, Tensor weight, Tensor? bias=None, SymInt[" #N "] stride=1, SymInt[" #N "] padding=0, "          \
    "SymInt[" #N "] dilation=1, SymInt groups=1"                                                                   \
    "|Tensor input, Tensor weight, Tensor? bias=None, SymInt[" #N "] stride=1, str padding=\"valid\", "            \
    "SymInt[" #N "] dilation=1, SymInt groups=1"

static BindRow conv_rows[] = {
    {.name = "conv1d", .kind = 1, .flags = BIND_FN, .handler = conv_call, .sigs = CONV_SIGS(1)},
    {.name = "conv2d", .kind = 2, .flags = BIND_FN, .handler = conv_call, .sigs = CONV_SIGS(2)},
    {.name = "conv1d", .kind = 1, .flags = BIND_FN, .handler = conv_call, .module = MOD, .sigs = CONV_SIGS(1)},
    {.name = "conv2d", .kind = 2, .flags = BIND_FN, .handler = conv_call, .module = MOD, .sigs = CONV_SIGS(2)},
};

void bind_nnf_layers_init(void)
{
    bind_table_register(conv_rows, (int)(sizeof conv_rows / sizeof conv_rows[0]));
}
