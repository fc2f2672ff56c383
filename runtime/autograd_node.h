/* runtime/autograd_node.h — inside the autograd: the node record and the
 * formula table (derivatives.yaml's rows), for autograd.c and the formulas
 * of autograd_fn.c; users include autograd.h. */
#ifndef TSR_AUTOGRAD_NODE_H
#define TSR_AUTOGRAD_NODE_H
#include <stdbool.h>
#include <stdint.h>
#include "ops/advindex.h"
#include "tensor.h"

typedef struct tsr_node tsr_node;
#define TSR_AG_MAXIN 16
/* What a formula needs besides its tensor inputs. */
typedef struct {
    int64_t dims[TSR_MAX_DIMS]; /* dims / sizes / indices */
    int ndims;                  /* -1: all dims (sum(), mean()) */
    int64_t i0, i1, i2;         /* dim, start, step, ... */
    bool keepdim, flag;
    double d0, d1;              /* alpha, min, max, exponent ... */
    bool has_d0, has_d1;
    tsr_dtype dtype;            /* the forward's input dtype for casts */
} tsr_ag_args;

#define TSR_AG_OUT TSR_AG_MAXIN          /* the saved slot of the forward's result */
#define TSR_AG_NSAVED (TSR_AG_MAXIN + 1)
#define TSR_SAVE_OUT (1u << TSR_AG_OUT)

typedef struct {
    tsr_tensor *t;              /* an alias of what was saved (no autograd state), NULL when none */
    int64_t version;            /* the version counter when it was saved */
    bool is_output, was_leaf;
    const char *fn_name;        /* the saved input's grad_fn name, for the version error */
    int output_nr;
    tsr_tensor *orig;           /* a saved input itself (its grad_fn when the version error is raised) */
} tsr_saved;

typedef struct tsr_formula tsr_formula;

struct tsr_node {
    int refcount;
    const char *name;
    const tsr_formula *f;       /* NULL for AccumulateGrad */
    uint64_t seq;
    int nnext;
    struct { tsr_node *node; int nr; } next[TSR_AG_MAXIN];
    tsr_saved saved[TSR_AG_NSAVED];
    tsr_tensor *extra[4];       /* what a formula keeps besides inputs and output (indices) */
    int nextra;
    tsr_ag_args a;
    bool in_present[TSR_AG_MAXIN];
    int in_nd[TSR_AG_MAXIN];
    int64_t in_sizes[TSR_AG_MAXIN][TSR_MAX_DIMS];
    tsr_dtype in_dtype[TSR_AG_MAXIN];
    tsr_device in_device[TSR_AG_MAXIN];   /* where each input lives (set by the recorders of
                                             autograd.c; ToCopyBackward0 moves its gradient there) */
    int out_nd;
    int64_t out_sizes[TSR_MAX_DIMS];
    tsr_dtype out_dtype;
    tsr_tensor *leaf;           /* AccumulateGrad: the variable (owned) */
    tsr_tensor *retained;       /* weak: the non-leaf whose retain_grad() is on */
    tsr_tensor **retained_out;  /* a multi-output node's: per output (weak), or NULL */
    bool released;              /* backward ran without retain_graph */
    struct hook *hooks;         /* a non-leaf output's hooks (a multi-output node's: each for its output nr) */
    tsr_tensor *flow;           /* the last gradient through it (the :grad view) */
    tsr_node *pending_next;     /* the release queue (autograd.c) */
    tsr_node *sub;              /* owned: CopySlices' in-place op node (not in the graph itself) */
    int nout;                   /* a multi-output node's outputs (split, unbind); 0: one output */
    tsr_tensor **outg;          /* while a multi-output node's backward runs: each output's gradient, NULL: none */
};

/* g: the gradient of the forward's result; gin[i] receives the gradient of
 * input i (NULL: none; new references). 0 or -1. */
typedef int (*tsr_backward_fn)(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin);

struct tsr_formula {
    const char *key;            /* what the call path names: "mul", "sum", "view" */
    const char *name;           /* the node's name: "MulBackward0" */
    unsigned save;              /* bit i: input i is saved; TSR_SAVE_OUT: the result */
    tsr_backward_fn bw;
};

/* The formula for key, or NULL. */
const tsr_formula *tsr__ag_formula(const char *key);
/* Row i of the formula table, NULL past the end (the unit tests walk it). */
const tsr_formula *tsr__ag_formula_at(int i);
/* create_graph (autograd_create.c): whether the engine is recording the
 * backward; setting it (a formula computing a fused kernel's value with the
 * recording ops records its own node instead) returns the old state. */
bool tsr__ag_creating(void);
bool tsr__ag_set_creating(bool on);
/* at::sum_to(g, sizes), g.to(dt) and a + b, recorded while creating */
tsr_tensor *tsr__ag_sum_to(const tsr_tensor *g, int nd, const int64_t *sizes);
tsr_tensor *tsr__ag_to_dtype(const tsr_tensor *g, tsr_dtype dt);
tsr_tensor *tsr__ag_add(const tsr_tensor *a, const tsr_tensor *b);
/* Whether formula key is built only of the recording ops of
 * autograd_formula.h in 1.13's order (it may run with create_graph); row i
 * of that list (unit tests), NULL past the end (autograd_create.c). */
bool tsr__ag_dbl_ok(const char *key);
const char *tsr__ag_dbl_at(int i);
/* One node of formula over in[0..n) with nout outputs outs[k] (NULL: an
 * output not computed), each output's gradient in outg[k] when its
 * backward runs (a fused backward kernel's node under create_graph). */
int tsr__ag_record_outs(const char *formula, int n, tsr_tensor *const *in, const tsr_ag_args *args, int nout,
                        tsr_tensor *const *outs);
/* out = formula(in[0..n)) (n 1 or 2) recorded as 1.13 records the
 * in-place in[0].op_(...) inside a formula: for a unary op, or when in[1]
 * requires grad, the node's saved self is in[0].clone() (CloneBackward0
 * over in[0], its node sequenced after the op's, as 1.13 constructs them);
 * else a plain record. 0 or -1. */
int tsr__ag_record_inplace_of(const char *formula, int n, tsr_tensor *const *in, tsr_tensor *out);
/* The tensor in saved slot (borrowed), or NULL with the "backward through
 * the graph a second time" / version-counter error. */
tsr_tensor *tsr__ag_saved(tsr_node *n, int slot);

/* t (a tensor n keeps besides its saved ones) as output nr of n's nout
 * outputs, its grad_fn n: 1.13's saved result1 / result2 of a node whose
 * extra results the language never shows (native_group_norm's mean and
 * rstd); their gradients reach n's backward in outg. NEW reference or NULL. */
tsr_tensor *tsr__ag_output_alias(tsr_node *n, const tsr_tensor *t, int nr, int nout);

/* ops/grad_index2.c: self[items] for a key mixing basic and advanced items,
 * recorded as 1.13's applySlicing: the basic items' views (SelectBackward0,
 * SliceBackward0, UnsqueezeBackward0), then IndexBackward0 by the tensor
 * items at the dims they land on. r: the result (owned); NEW reference or
 * NULL. tsr__ag_mixed_key: whether items mix basic and advanced items that
 * it (and tsr__ag_record_setitem_mixed) takes. */
/* applySlicing of 1.13 (autograd.c): the basic items' views of x, each
 * recorded when record; the tensor items in ix[] at the result's dims they
 * index (NULL between), *nix of them. NEW reference or NULL. */
tsr_tensor *tsr__ag_slicing(const tsr_tensor *x, int n, const tsr_sub *items, bool record, const tsr_tensor **ix,
                            int *nix);
tsr_tensor *tsr__ag_subscript_mixed(const tsr_tensor *self, int n, const tsr_sub *items, tsr_tensor *r);
bool tsr__ag_mixed_key(int n, const tsr_sub *items);

#endif
