/* src/bind/nnf_conv3d.c — torch.conv_tbc and torch.nn.functional.conv_tbc
 * (python_arg_parser rows): the runtime's conv_tbc (runtime/ops/nn_conv.h)
 * with its ConvTbcBackward0 node over (self, weight, bias). F.conv3d and
 * conv_transpose3d are rows of nnf_layers.c's convolution table. */
#include "bind/areas.h"
#include "bind/bind.h"
#include "bind/table.h"
#include "bind/tensor.h"
#include "autograd.h"
#include "ops/nn_conv.h"
#include "value.h"

static Value *tbc_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)row, (void)fname, (void)self, (void)inplace;
    int64_t pad = 0;
    if (bind_table_int(b, 3, 0, &pad) < 0) return NULL;
    tsr_tensor *ins[3] = {tensor_of(b->v[0]), tensor_of(b->v[1]), tensor_of(b->v[2])};
    tsr_tensor *r = tsr_nn_conv_tbc(ins[0], ins[1], ins[2], pad);
    if (!r) return bind_runtime_error();
    tsr_ag_args a = {.i0 = pad};
    if (tsr_ag_needed(3, ins) && tsr_ag_record("conv_tbc", 3, ins, &a, r, false) < 0) {
        tsr_tensor_release(r);
        return bind_runtime_error();
    }
    return v_tensor(r);
}

#define TBC_SIG "Tensor self, Tensor weight, Tensor bias, int pad=0"

static BindRow rows[] = {
    {.name = "conv_tbc", .flags = BIND_FN, .handler = tbc_call, .sigs = TBC_SIG},
    {.name = "conv_tbc", .flags = BIND_FN, .handler = tbc_call, .module = "torch.nn.functional", .sigs = TBC_SIG},
};

void bind_nnf_conv3d_init(void)
{
    bind_table_register(rows, (int)(sizeof rows / sizeof rows[0]));
}
