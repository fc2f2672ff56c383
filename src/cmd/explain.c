/* src/cmd/explain.c — the promotion commands: :explain EXPR (runs EXPR with
 * the trace of src/bind/explain.c on; each step prints as it is recorded),
 * :table [promote_types | can_cast] and the text of :help promotion. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bind/explain.h"
#include "cmd/cmd.h"
#include "eval.h"

int cmd_explain(const char *arg)
{
    if (!*arg) {
        fflush(stdout);
        fprintf(eval_opts.brief_errors ? stdout : stderr, "usage: :explain EXPR\n");
        return 1;
    }
    size_t len = strlen(arg);   /* :explain y.backward() draws the graph (:grad y) */
    static const char bw[] = ".backward()";
    if (len > sizeof bw - 1 && !strcmp(arg + len - (sizeof bw - 1), bw)) {
        char expr[4096];
        snprintf(expr, sizeof expr, "%.*s", (int)(len - (sizeof bw - 1)), arg);
        return cmd_grad(expr);
    }
    const char *term = getenv("TERM");
    explain_begin(isatty(1) && !getenv("NO_COLOR") && term && strcmp(term, "dumb") != 0);
    Value *v = eval_expression("<input>", arg);
    long total = explain_stop();
    if (v && total == 0) printf("no tensor operations\n");
    if (total > EXPLAIN_SHOW_MAX)
        printf("... and %ld more operation%s, not shown\n", total - EXPLAIN_SHOW_MAX,
               total - EXPLAIN_SHOW_MAX == 1 ? "" : "s");
    int r = 1;
    if (v) {
        r = 0;
        if (!is_none(v)) {
            Value *rep = value_repr(v);
            if (rep) {
                fwrite(rep->u.s.p, 1, rep->u.s.n, stdout);
                fputc('\n', stdout);
                decref(rep);
            } else {
                eval_report_error();
                r = 1;
            }
        }
        decref(v);
    }
    explain_end();
    fflush(stdout);
    return r;
}

int cmd_table(const char *arg)
{
    bool cast = false;
    if (!strcmp(arg, "can_cast")) cast = true;
    else if (*arg && strcmp(arg, "promote_types")) {
        fflush(stdout);
        fprintf(eval_opts.brief_errors ? stdout : stderr, "usage: :table [promote_types | can_cast]\n");
        return 1;
    }
    show_promotion_table(cast);
    return 0;
}

const char cmd_help_promotion[] =
    "Type promotion: the dtype of an arithmetic result (torch.result_type)\n"
    "\n"
    "When the operands of an operation have different dtypes, PyTorch promotes to\n"
    "the minimum dtype that satisfies these rules. Categories are ordered\n"
    "complex > floating > integral > bool. Operands come in three tiers, highest\n"
    "first: dimensioned tensors, zero-dim tensors, Python scalars.\n"
    "\n"
    "  1. If a Python scalar is of a higher category than the tensor operands,\n"
    "     promote to a dtype large enough to hold all scalars of that category.\n"
    "  2. If a zero-dim tensor has a higher category than the dimensioned\n"
    "     operands, promote to a dtype of the size and category that hold all\n"
    "     zero-dim tensors of that category.\n"
    "  3. If there are no higher-category zero-dim operands, promote to a dtype\n"
    "     of the size and category that hold all dimensioned operands.\n"
    "\n"
    "A float scalar counts as torch.get_default_dtype(), a complex one as the\n"
    "default complex dtype, an int as int64, a bool as bool; values are never\n"
    "inspected. Within a tier, dtypes combine by torch.promote_types (:table).\n"
    "A complex scalar or zero-dim tensor with a floating tensor gives that\n"
    "float's complex type: a float16 tensor + 1j is complex32.\n"
    "\n"
    "Each op then applies its own rule to this common dtype: / and float\n"
    "functions (sqrt, exp, ...) give the default dtype for integral or bool\n"
    "operands; comparisons give bool. out= and in-place ops compute in the\n"
    "common dtype and cast into the output, except that (torch.can_cast):\n"
    "  - an integral output cannot accept a floating-point result,\n"
    "  - a boolean output cannot accept a non-boolean result,\n"
    "  - a non-complex output cannot accept a complex result\n"
    "(RuntimeError: result type Float can't be cast to the desired output type Int).\n"
    "\n"
    "  >>> (torch.ones(2, dtype=torch.int32) + 5).dtype      # same category\n"
    "  torch.int32\n"
    "  >>> (torch.ones(2, dtype=torch.int32) + 5.0).dtype    # higher category\n"
    "  torch.float32\n"
    "  >>> (torch.ones(2, dtype=torch.int32) + torch.tensor(1.0)).dtype\n"
    "  torch.float32\n"
    "  >>> torch.promote_types(torch.uint8, torch.int8)\n"
    "  torch.int16\n"
    "\n"
    ":explain EXPR shows these steps for each operation in EXPR; :table prints\n"
    "the promote_types table, :table can_cast the can_cast matrix.\n";
