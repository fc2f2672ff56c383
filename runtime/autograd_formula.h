/* runtime/autograd_formula.h — inside the autograd: what every backward
 * formula (autograd_fn.c, ops/grad_pointwise.c) is written with: the
 * temporaries record F and its helpers. */
#ifndef TSR_AUTOGRAD_FORMULA_H
#define TSR_AUTOGRAD_FORMULA_H
#include <stdbool.h>
#include "autograd.h"
#include "autograd_node.h"
#include "error.h"
#include "ops/binary.h"
#include "ops/reduce.h"
#include "ops/unary.h"

/* A formula's temporaries: every helper result is kept here and released
 * at the end; a NULL argument (an earlier failure) passes through. */
#define TSR_F_TEMPS 160   /* batchnorm_double_backward keeps about 110 */
typedef struct {
    tsr_tensor *t[TSR_F_TEMPS];
    int n;
    bool fail;
} F;

static inline tsr_tensor *keep(F *c, tsr_tensor *t)
{
    if (!t) {
        c->fail = true;
        return NULL;
    }
    if (c->n == TSR_F_TEMPS) {
        tsr_tensor_release(t);
        tsr_error_set(TSR_ERR_RUNTIME, "autograd formula: too many temporaries");
        c->fail = true;
        return NULL;
    }
    return c->t[c->n++] = t;
}

static inline int finish(F *c, tsr_node *n, tsr_tensor **gin)
{
    for (int i = 0; i < c->n; i++) tsr_tensor_release(c->t[i]);
    if (c->fail) {
        for (int i = 0; i < n->nnext; i++) {
            tsr_tensor_release(gin[i]);
            gin[i] = NULL;
        }
        return -1;
    }
    return 0;
}

#define NEED(i) (n->next[(i)].node != NULL)
/* gin[i] = t (a kept temporary) when input i needs a gradient */
static inline void give(F *c, tsr_tensor **gin, int i, tsr_tensor *t)
{
    if (!c->fail && t) gin[i] = tsr_tensor_retain(t);
}
#define SAVED(slot) keep_saved(c, n, (slot))
static inline tsr_tensor *keep_saved(F *c, tsr_node *n, int slot)
{
    if (c->fail) return NULL;
    tsr_tensor *t = tsr__ag_saved(n, slot);
    if (!t) c->fail = true;
    return t;
}

/* ---- create_graph (autograd_create.c) ----
 * The ops formulas compute with: the plain op, which while the engine runs
 * with create_graph is also recorded as the forward op would be (a
 * gradient then carries its own graph). NEW reference or NULL. */
tsr_tensor *tsr__ag_binary(tsr_binop op, const tsr_tensor *a, const tsr_tensor *b);
/* a.op_(b) as a 1.13 formula writes it: the node saves a.clone() when b requires grad */
tsr_tensor *tsr__ag_binary_(tsr_binop op, const tsr_tensor *a, const tsr_tensor *b);
/* a op s; scalar_first: s op a */
tsr_tensor *tsr__ag_binary_s(tsr_binop op, const tsr_tensor *a, double s, bool scalar_first);
/* a op s recorded with s a wrapped number (MulBackward0, not MulBackward1) */
tsr_tensor *tsr__ag_binary_w(tsr_binop op, const tsr_tensor *a, double s);
/* a * (re + im i): MulBackward1 keeping the number; _w: the number wrapped (MulBackward0) */
tsr_tensor *tsr__ag_mul_complex(const tsr_tensor *a, double re, double im);
tsr_tensor *tsr__ag_mul_complex_w(const tsr_tensor *a, double re, double im);
tsr_tensor *tsr__ag_unary(tsr_unop op, const tsr_tensor *a);
/* a.op_() as a 1.13 formula writes it: the node saves a.clone() */
tsr_tensor *tsr__ag_unary_(tsr_unop op, const tsr_tensor *a);
/* where(cond, a, 0), or where(cond, 0, a) with zero_first */
tsr_tensor *tsr__ag_where0(const tsr_tensor *cond, const tsr_tensor *a, bool zero_first);
tsr_tensor *tsr__ag_expand(const tsr_tensor *a, int nd, const int64_t *sizes);
tsr_tensor *tsr__ag_unsqueeze(const tsr_tensor *a, int64_t d);
tsr_tensor *tsr__ag_squeeze_dim(const tsr_tensor *a, int64_t d);
tsr_tensor *tsr__ag_transpose(const tsr_tensor *a, int64_t d0, int64_t d1);
tsr_tensor *tsr__ag_t(const tsr_tensor *a);
tsr_tensor *tsr__ag_view(const tsr_tensor *a, int nd, const int64_t *sizes);
tsr_tensor *tsr__ag_diagonal(const tsr_tensor *a, int64_t offset, int64_t d1, int64_t d2);
tsr_tensor *tsr__ag_permute(const tsr_tensor *a, int nd, const int64_t *dims);
tsr_tensor *tsr__ag_mm(const tsr_tensor *a, const tsr_tensor *b);
tsr_tensor *tsr__ag_bmm(const tsr_tensor *a, const tsr_tensor *b);
tsr_tensor *tsr__ag_mv(const tsr_tensor *a, const tsr_tensor *b);
tsr_tensor *tsr__ag_outer(const tsr_tensor *a, const tsr_tensor *b);
tsr_tensor *tsr__ag_narrow(const tsr_tensor *a, int64_t dim, int64_t start, int64_t len);
tsr_tensor *tsr__ag_select(const tsr_tensor *a, int64_t dim, int64_t index);
tsr_tensor *tsr__ag_masked_fill0(const tsr_tensor *a, const tsr_tensor *mask);
tsr_tensor *tsr__ag_where(const tsr_tensor *cond, const tsr_tensor *a, const tsr_tensor *b);
tsr_tensor *tsr__ag_sum(const tsr_tensor *a, const tsr_dims *dims, bool keepdim);
tsr_tensor *tsr__ag_mean(const tsr_tensor *a, const tsr_dims *dims, bool keepdim);
tsr_tensor *tsr__ag_reshape(const tsr_tensor *a, int nd, const int64_t *sizes);
/* a.conj(): the lazy conjugate view (ConjBackward0) */
tsr_tensor *tsr__ag_conj(const tsr_tensor *a);
/* a.conj() materialized, recorded as ConjBackward0 with create_graph */
tsr_tensor *tsr__ag_conj_values(const tsr_tensor *a);
tsr_tensor *tsr__ag_matmul(const tsr_tensor *a, const tsr_tensor *b);
tsr_tensor *tsr__ag_linalg_solve(const tsr_tensor *A, const tsr_tensor *B, bool left);
tsr_tensor *tsr__ag_solve_triangular(const tsr_tensor *A, const tsr_tensor *B, bool upper, bool left, bool unit);
tsr_tensor *tsr__ag_tril(const tsr_tensor *a, int64_t k, bool upper);
tsr_tensor *tsr__ag_diag_embed(const tsr_tensor *a, int64_t offset, int64_t d1, int64_t d2);
tsr_tensor *tsr__ag_linalg_cross(const tsr_tensor *a, const tsr_tensor *b, int64_t dim);

static inline tsr_tensor *bin(F *c, tsr_binop op, const tsr_tensor *a, const tsr_tensor *b)
{
    if (c->fail || !a || !b) return NULL;
    return keep(c, tsr__ag_binary(op, a, b));
}
/* a.op_(b) (mul_, div_) inside a 1.13 formula */
static inline tsr_tensor *bin_(F *c, tsr_binop op, const tsr_tensor *a, const tsr_tensor *b)
{
    if (c->fail || !a || !b) return NULL;
    return keep(c, tsr__ag_binary_(op, a, b));
}
static inline tsr_tensor *bins(F *c, tsr_binop op, const tsr_tensor *a, double s)
{
    if (c->fail || !a) return NULL;
    return keep(c, tsr__ag_binary_s(op, a, s, false));
}

/* r (a kept temporary) recorded as key over in[0..n) while the engine
 * creates a graph; r itself otherwise */
static inline tsr_tensor *record_on(F *c, tsr_tensor *r, const char *key, int nin, const tsr_tensor *const *in,
                                    const tsr_ag_args *a)
{
    if (!r || c->fail || !tsr__ag_creating()) return r;
    tsr_ag_args d = {0};
    d.ndims = -1;
    if (tsr_ag_record(key, nin, (tsr_tensor *const *)in, a ? a : &d, r, false) < 0) {
        c->fail = true;
        return NULL;
    }
    return r;
}

#endif
