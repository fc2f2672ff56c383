/* src/cmd/grad.c — :grad EXPR (and :explain y.backward()): evaluates EXPR,
 * runs the backward pass from it without touching any .grad (the engine's
 * autograd.grad form, keeping the graph) and draws the graph back to the
 * leaves: each node with the shapes it saved and the gradient that flowed
 * into it. */
#include <stdio.h>
#include <string.h>

#include "autograd.h"
#include "bind/tensor.h"
#include "cmd/cmd.h"
#include "eval.h"
#include "show/show.h"

#define MAXSEEN 256

static void print_shape(int nd, const int64_t *sizes)
{
    putchar('[');
    for (int i = 0; i < nd; i++) printf("%s%lld", i ? ", " : "", (long long)sizes[i]);
    putchar(']');
}

/* repr(t) with every line after the first indented by pad */
static void print_tensor(const tsr_tensor *t, const char *pad)
{
    Value *r = show_tensor_repr(t);
    if (!r) {
        printf("?");
        return;
    }
    for (size_t i = 0; i < r->u.s.n; i++) {
        putchar(r->u.s.p[i]);
        if (r->u.s.p[i] == '\n') fputs(pad, stdout);
    }
    decref(r);
}

static void draw(tsr_node *n, int nr, const char *prefix, bool last, bool root, tsr_node **seen, int *nseen)
{
    char pad[512];
    printf("%s%s", prefix, root ? "" : last ? "└─ " : "├─ ");
    snprintf(pad, sizeof pad, "%s%s", prefix, root ? "   " : last ? "   " : "│  ");
    if (!n) {
        printf("(no gradient: the input does not require grad)\n");
        return;
    }
    const char *nm = tsr_node_name(n), *colon = strrchr(nm, ':');
    printf("%s", colon ? colon + 1 : nm);
    if (nr) printf(" (output %d)", nr);
    for (int i = 0; i < *nseen; i++)
        if (seen[i] == n) {
            printf("  (drawn above)\n");
            return;
        }
    if (*nseen < MAXSEEN) seen[(*nseen)++] = n;
    tsr_tensor *leaf = tsr_node_variable(n);
    if (leaf) {
        printf("  leaf ");
        print_shape(leaf->ndim, leaf->sizes);
        printf(" %s", tsr_dtype_name(leaf->dtype));
        tsr_tensor_release(leaf);
    }
    int nd[8];
    int64_t sizes[8][TSR_MAX_DIMS];
    int k = tsr_node_saved_shapes(n, 8, nd, sizes);
    if (k) {
        printf("  saved ");
        for (int i = 0; i < k; i++) {
            if (i) printf(", ");
            print_shape(nd[i], sizes[i]);
        }
    }
    putchar('\n');
    tsr_tensor *g = tsr_node_last_grad(n);
    char gpad[600];
    snprintf(gpad, sizeof gpad, "%s        ", pad);
    printf("%sgrad: ", pad);
    if (g) print_tensor(g, gpad);
    else printf("(none reached it)");
    putchar('\n');
    tsr_tensor_release(g);
    int m = tsr_node_num_next(n);
    for (int i = 0; i < m; i++) {
        int inr;
        tsr_node *x = tsr_node_next(n, i, &inr);
        draw(x, inr, pad, i == m - 1, false, seen, nseen);
        tsr_node_release(x);
    }
}

int cmd_grad(const char *arg)
{
    if (!*arg) {
        fflush(stdout);
        fprintf(eval_opts.brief_errors ? stdout : stderr, "usage: :grad EXPR\n");
        return 1;
    }
    Value *v = eval_expression("<input>", arg);
    if (!v) return 1;
    if (!is_tensor(v)) {
        exc_set("TypeError", ":grad needs a tensor, not %s", type_name(v));
        decref(v);
        eval_report_error();
        return 1;
    }
    tsr_tensor *t = tensor_of(v), *res = NULL;
    /* inputs = the output itself: nothing accumulates into .grad and the graph is kept */
    if (tsr_autograd_run(1, &t, NULL, true, 1, &t, true, &res, TSR_AG_KEEP_FLOW) < 0) {
        decref(v);
        if (!exc_pending()) bind_runtime_error();
        eval_report_error();
        return 1;
    }
    tsr_tensor_release(res);
    tsr_node *root = tsr_tensor_grad_fn(t);
    tsr_node *seen[MAXSEEN];
    int nseen = 0;
    if (root) {
        printf("the graph of %s, from the output back to the leaves:\n", arg);
        draw(root, 0, "", true, true, seen, &nseen);
    } else {
        printf("%s is a leaf: its gradient is the seed itself\n", arg);
    }
    tsr_node_release(root);
    decref(v);
    return 0;
}
