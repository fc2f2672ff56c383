/* src/bind/nnf_misc2.c — more of torch.nn.functional (issue 19): prelu
 * (torch.prelu, Tensor.prelu, F.prelu). The ATen functions are binding
 * rows (python_arg_parser's messages); F's Python defs are builtins with
 * their own argument handling. Every tensor rule is runtime/ops/nn_misc2.h's;
 * the handlers record 1.13's graph nodes. */
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
#include "ops/nn_misc2.h"
#include "value.h"

#define MOD "torch.nn.functional"

/* r (NULL: the runtime's error) recorded as key over in[0..n) when one
 * needs a graph. NEW value or NULL. */
static Value *graphn(tsr_tensor *r, const char *key, int n, tsr_tensor *const *in, const tsr_ag_args *a)
{
    if (!r) return bind_runtime_error();
    if (tsr_ag_needed(n, in) && tsr_ag_record(key, n, in, a, r, false) < 0) {
        tsr_tensor_release(r);
        return bind_runtime_error();
    }
    return v_tensor(r);
}

/* 1.13's named-tensor refusal of the ATen op (schema) when one of in has
 * names; -1 then. */
static int named_refused(const char *schema, int n, tsr_tensor *const *in)
{
    for (int i = 0; i < n; i++)
        if (in[i] && in[i]->names) {
            tsr_names_refuse(schema);
            bind_runtime_error();
            return -1;
        }
    return 0;
}

/* ------------------------------------------------------------ ATen rows */

enum { K_PRELU };

static Value *misc2_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)fname; (void)inplace;
    switch (row->kind) {
    case K_PRELU: {
        tsr_tensor *in[2] = {tensor_of(self ? self : b->v[0]), tensor_of(b->v[1])};
        tsr_ag_args ga = {0};
        if (named_refused("aten::prelu", 2, in) < 0) return NULL;
        return graphn(tsr_nn_prelu(in[0], in[1]), "prelu", 2, in, &ga);
    }
    }
    return NULL;
}

static BindRow misc2_rows[] = {
    {.name = "prelu", .kind = K_PRELU, .flags = BIND_FN | BIND_METHOD, .handler = misc2_call,
     .sigs = "Tensor input, Tensor weight"},
    {.name = "prelu", .kind = K_PRELU, .flags = BIND_FN, .handler = misc2_call, .module = MOD,
     .sigs = "Tensor input, Tensor weight"},
};

/* ------------------------------------------------------------ F's defs */

void bind_nnf_misc2_init(void)
{
    bind_table_register(misc2_rows, (int)(sizeof misc2_rows / sizeof misc2_rows[0]));
}
