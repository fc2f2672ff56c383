/* runtime/autograd.c — the graph and the engine (torch/csrc/autograd/engine.cpp):
 * nodes with next edges, AccumulateGrad for leaves, saved tensors checked
 * against the version counter, a ready queue taken highest sequence number
 * first, validate_outputs (sum_to the input's shape, cast to its dtype). */
#include <stdio.h>
#include <string.h>
#include "autograd.h"
#include "ops/viewcopy.h"
#include "autograd_node.h"
#include "error.h"
#include "internal.h"
#include "named.h"
#include "ops/advindex.h"
#include "ops/binary.h"
#include "ops/copy.h"
#include "ops/factory.h"
#include "ops/search.h"
#include "ops/sparse.h"
#include "view.h"

/* ------------------------------------------------------------ grad mode */

static _Thread_local bool grad_off, inference_on;
/* an in-place op's self before the op (a copy), for a formula that needs it */
static _Thread_local tsr_tensor *inplace_old;

/* the engine runs with create_graph=True (autograd_create.c) */
static _Thread_local bool creating;
/* while a formula runs with create_graph: its saved output unpacked (an
 * alias whose grad_fn is the node), released after the formula */
static _Thread_local tsr_tensor *saved_out;
bool tsr__ag_creating(void) { return creating; }
bool tsr__ag_set_creating(bool on)
{
    bool was = creating;
    creating = on;
    return was;
}

void tsr_ag_inplace_old(tsr_tensor *old)
{
    tsr_tensor_release(inplace_old);
    inplace_old = old ? tsr_tensor_retain(old) : NULL;
}
bool tsr_grad_enabled(void) { return !grad_off; }
void tsr_set_grad_enabled(bool on) { grad_off = !on; }
bool tsr_inference_mode(void) { return inference_on; }
void tsr_set_inference_mode(bool on)
{
    inference_on = on;
    tsr_storage_set_inference(on);
}

/* ------------------------------------------------------------ per-tensor state */

typedef struct hook {
    int64_t id;
    int nr;                     /* on a multi-output node: the output it is registered on */
    tsr_grad_hook fn;
    void *closure;
    void (*drop)(void *);
    struct hook *next;
} hook;

struct tsr_autograd {
    tsr_node *grad_fn;          /* owned */
    int output_nr;
    tsr_tensor *grad;           /* owned */
    tsr_node *acc;              /* weak: the leaf's AccumulateGrad while one lives */
    bool retains_grad;
    hook *hooks;                /* a leaf's hooks (a non-leaf's live on its grad_fn) */
    int64_t view_version;       /* a view's: the storage version when its grad_fn was set, else -1 */
};

static uint64_t next_seq = 1;
static int64_t next_hook_id = 1;

static void hooks_free(hook *h)
{
    while (h) {
        hook *n = h->next;
        if (h->drop) h->drop(h->closure);
        tsr_free(h);
        h = n;
    }
}

static void node_forget_retained(tsr_node *n, const tsr_tensor *t);

void tsr__autograd_free(struct tsr_autograd *ag)
{
    if (ag->grad_fn) node_forget_retained(ag->grad_fn, NULL);
    tsr_node_release(ag->grad_fn);
    tsr_tensor_release(ag->grad);
    hooks_free(ag->hooks);
    tsr_free(ag);
}

static struct tsr_autograd *meta(tsr_tensor *t)
{
    if (!t->autograd) t->autograd = tsr_calloc(1, sizeof *t->autograd);
    return t->autograd;
}

static int view_refresh(tsr_tensor *t);

tsr_node *tsr_tensor_grad_fn(const tsr_tensor *t)
{
    if (view_refresh((tsr_tensor *)t) < 0) tsr_error_clear();
    return t->autograd && t->autograd->grad_fn ? tsr_node_retain(t->autograd->grad_fn) : NULL;
}
int tsr_tensor_grad_fn_check(const tsr_tensor *t)
{
    return t->autograd && t->autograd->grad_fn && t->autograd->grad_fn->nout > 1 ? view_refresh((tsr_tensor *)t) : 0;
}
bool tsr_tensor_is_leaf(const tsr_tensor *t) { return !t->autograd || !t->autograd->grad_fn; }
int tsr_tensor_output_nr(const tsr_tensor *t) { return t->autograd && t->autograd->grad_fn ? t->autograd->output_nr : 0; }
void tsr_ag_set_output_nr(tsr_tensor *t, int nr)
{
    if (t && t->autograd && t->autograd->grad_fn) t->autograd->output_nr = nr;
}
bool tsr_tensor_requires_grad(const tsr_tensor *t) { return t->requires_grad || !tsr_tensor_is_leaf(t); }
tsr_tensor *tsr_tensor_grad(const tsr_tensor *t)
{
    return t->autograd && t->autograd->grad ? tsr_tensor_retain(t->autograd->grad) : NULL;
}
bool tsr_tensor_retains_grad(const tsr_tensor *t) { return t->autograd && t->autograd->retains_grad; }
int64_t tsr_tensor_version(const tsr_tensor *t) { return t->storage->version; }
void tsr_tensor_bump_version(tsr_tensor *t) { t->storage->version++; }

int tsr_tensor_set_grad(tsr_tensor *t, tsr_tensor *g)
{
    if (g) {
        if (g->dtype != t->dtype) {
            tsr_error_set(TSR_ERR_RUNTIME, "assigned grad has data of a different type");
            return -1;
        }
        bool same = g->ndim == t->ndim;
        for (int d = 0; same && d < t->ndim; d++) same = g->sizes[d] == t->sizes[d];
        if (!same) {
            tsr_error_set(TSR_ERR_RUNTIME, "assigned grad has data of a different size");
            return -1;
        }
    }
    if (!g && !t->autograd) return 0;
    struct tsr_autograd *m = meta(t);
    if (!m) return -1;
    tsr_tensor_release(m->grad);
    m->grad = g ? tsr_tensor_retain(g) : NULL;
    return 0;
}

int tsr_autograd_set_requires_grad(tsr_tensor *t, bool on, bool method)
{
    if (on && tsr_tensor_is_inference(t) && !inference_on) {
        tsr_error_set(TSR_ERR_RUNTIME, "Setting requires_grad=True on inference tensor outside InferenceMode is not "
                      "allowed.");
        return -1;
    }
    if (!tsr_tensor_is_leaf(t)) {
        if (on && method) return 0;
        if (on) {
            tsr_error_set(TSR_ERR_RUNTIME, "you can only change requires_grad flags of leaf variables.");
            return -1;
        }
        method = false;
        tsr_error_set(TSR_ERR_RUNTIME, "you can only change requires_grad flags of leaf variables.%s",
                      method ? "" : " If you want to use a computed variable in a subgraph that doesn't require "
                                    "differentiation use var_no_grad = var.detach().");
        return -1;
    }
    return tsr_tensor_set_requires_grad(t, on, method);
}

int tsr_autograd_move(tsr_tensor *src, tsr_tensor *dst)
{
    if (src->requires_grad && !tsr_dtype_is_floating(dst->dtype) && !tsr_dtype_is_complex(dst->dtype)) {
        tsr_error_set(TSR_ERR_RUNTIME, "data set to a tensor that requires gradients must be floating point or "
                      "complex dtype");
        return -1;
    }
    dst->requires_grad = src->requires_grad;
    dst->autograd = src->autograd;
    src->autograd = NULL;
    if (dst->autograd) dst->autograd->acc = NULL;   /* a new accumulator for the new header */
    return 0;
}

tsr_tensor *tsr_autograd_detach(const tsr_tensor *t)
{
    tsr_tensor *d = t->sparse ? tsr__sparse_alias(t) : tsr_view_alias(t);   /* sparse: same indices and values */
    if (d) d->requires_grad = false;
    if (d && !t->sparse) tsr_tensor_unview(d);   /* 1.13: x.detach()._is_view() is False (the storage is shared) */
    if (d && t->names && (tsr_names_any(t->names, t->ndim) ? tsr_tensor_set_names(d, t->names, t->ndim)
                                                           : tsr_names_keep_fallback(d)) < 0) {   /* detach keeps input names */
        tsr_tensor_release(d);
        return NULL;
    }
    return d;
}

int tsr_autograd_detach_(tsr_tensor *t)
{
    if (t->base) {
        tsr_error_set(TSR_ERR_RUNTIME, "Can't detach views in-place. Use detach() instead. If you are using "
                      "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, "
                      "gradients are views of DDP buckets, and hence detach_() cannot be called on these gradients. "
                      "To fix this error, please refer to the Optimizer.zero_grad() function in "
                      "torch/optim/optimizer.py as the solution.");
        return -1;
    }
    if (t->autograd && t->autograd->grad_fn) {
        node_forget_retained(t->autograd->grad_fn, t);
        tsr_node_release(t->autograd->grad_fn);
        t->autograd->grad_fn = NULL;
    }
    t->requires_grad = false;
    return 0;
}

/* ------------------------------------------------------------ nodes */

tsr_node *tsr_node_retain(tsr_node *n)
{
    if (n) n->refcount++;
    return n;
}

static void saved_clear(tsr_node *n)
{
    for (int i = 0; i < TSR_AG_NSAVED; i++) {
        tsr_tensor_release(n->saved[i].t);
        tsr_tensor_release(n->saved[i].orig);
        n->saved[i].t = n->saved[i].orig = NULL;
    }
    for (int i = 0; i < n->nextra; i++) tsr_tensor_release(n->extra[i]);
    n->nextra = 0;
}

/* Frees one node whose count reached zero; the nodes it lets go of are
 * queued, not freed from here, so a long chain (a loop of 10^5 ops) is
 * freed in a loop instead of a recursion as deep as the graph. */
static _Thread_local tsr_node *pending;
static _Thread_local bool releasing;

static void node_free(tsr_node *n)
{
    for (int i = 0; i < n->nnext; i++) tsr_node_release(n->next[i].node);
    tsr_node_release(n->sub);
    saved_clear(n);
    if (n->leaf) {
        if (n->leaf->autograd && n->leaf->autograd->acc == n) n->leaf->autograd->acc = NULL;
        tsr_tensor_release(n->leaf);
    }
    hooks_free(n->hooks);
    tsr_free(n->retained_out);
    tsr_tensor_release(n->flow);
    tsr_free(n);
}

void tsr_node_release(tsr_node *n)
{
    if (!n || --n->refcount > 0) return;
    n->pending_next = pending;
    pending = n;
    if (releasing) return;
    releasing = true;
    while (pending) {
        tsr_node *x = pending;
        pending = x->pending_next;
        node_free(x);
    }
    releasing = false;
}

const char *tsr_node_name(const tsr_node *n) { return n->name; }
/* The inputs a formula takes that 1.13 does not list in next_functions
 * (not differentiable: an index, a mask, where's condition), as a bit mask. */
static unsigned nondiff_inputs(const tsr_node *n)
{
    static const struct { const char *key; unsigned mask; } rows[] = {
        {"gather", 2u}, {"index", ~1u}, {"index_put_impl", ~3u}, {"index_select", 2u}, {"masked_fill", 2u},
        {"masked_fill_tensor", 2u},
        {"where", 1u},
    };
    for (size_t i = 0; n->f && i < sizeof rows / sizeof rows[0]; i++)
        if (!strcmp(n->f->key, rows[i].key)) return rows[i].mask;
    return 0;
}
int tsr_node_num_next(const tsr_node *n)
{
    unsigned m = nondiff_inputs(n);
    int k = 0;
    for (int i = 0; i < n->nnext; i++) k += !(m >> i & 1u);
    return k;
}
tsr_node *tsr_node_next(const tsr_node *n, int i, int *input_nr)
{
    unsigned m = nondiff_inputs(n);
    int j = 0;
    for (int seen = -1; j < n->nnext; j++)
        if (!(m >> j & 1u) && ++seen == i) break;
    if (j >= n->nnext) {
        *input_nr = 0;
        return NULL;
    }
    *input_nr = n->next[j].nr;
    return tsr_node_retain(n->next[j].node);
}
tsr_tensor *tsr_node_variable(const tsr_node *n) { return n->leaf ? tsr_tensor_retain(n->leaf) : NULL; }
tsr_tensor *tsr_node_last_grad(const tsr_node *n) { return n->flow ? tsr_tensor_retain(n->flow) : NULL; }

int tsr_node_saved_shapes(const tsr_node *n, int max, int *nd, int64_t (*sizes)[TSR_MAX_DIMS])
{
    int k = 0;
    for (int i = 0; i < TSR_AG_NSAVED && k < max; i++) {
        const tsr_tensor *t = n->saved[i].t;
        if (!t) continue;
        nd[k] = t->ndim;
        memcpy(sizes[k], t->sizes, (size_t)t->ndim * sizeof(int64_t));
        k++;
    }
    return k;
}

static void node_forget_retained(tsr_node *n, const tsr_tensor *t)
{
    if (n->retained && (!t || n->retained == t)) n->retained = NULL;
    for (int k = 0; n->retained_out && k < n->nout; k++)
        if (n->retained_out[k] && (!t || n->retained_out[k] == t)) n->retained_out[k] = NULL;
}

static tsr_node *node_new(const char *name)
{
    tsr_node *n = tsr_calloc(1, sizeof *n);
    if (!n) return NULL;
    n->refcount = 1;
    n->name = name;
    n->seq = next_seq++;
    return n;
}

/* The leaf's AccumulateGrad (cached while it lives). NEW reference. */
static tsr_node *grad_accumulator(tsr_tensor *t)
{
    struct tsr_autograd *m = meta(t);
    if (!m) return NULL;
    if (m->acc) return tsr_node_retain(m->acc);
    tsr_node *n = node_new("torch::autograd::AccumulateGrad");
    if (!n) return NULL;
    n->seq = UINT64_MAX;   /* AccumulateGrad runs as soon as it is ready (engine.cpp) */
    n->leaf = tsr_tensor_retain(t);
    n->in_nd[0] = t->ndim;
    memcpy(n->in_sizes[0], t->sizes, (size_t)t->ndim * sizeof(int64_t));
    n->in_dtype[0] = t->dtype;
    n->in_device[0] = t->device;
    m->acc = n;
    return n;
}

/* The geometry of view v of base b in a's layout (sizes, strides, the
 * base's strides in dims; the offset in i0); -1 when it does not fit. */
static int view_args(const tsr_tensor *v, const tsr_tensor *b, tsr_ag_args *a)
{
    int nd = v->ndim;
    if (2 * nd + b->ndim > TSR_MAX_DIMS) return -1;
    memset(a, 0, sizeof *a);
    a->ndims = nd;
    for (int d = 0; d < nd; d++) a->dims[d] = v->sizes[d], a->dims[nd + d] = v->strides[d];
    for (int d = 0; d < b->ndim; d++) a->dims[2 * nd + d] = b->strides[d];
    a->i0 = v->storage_offset - b->storage_offset;
    return 0;
}

/* A view whose base was changed in place since the view's grad_fn was set
 * gets 1.13's regenerated one, AsStridedBackward0 over the base's grad_fn,
 * when it is next used (a stale one would send its gradient through the old
 * graph). A view with internal overlap (an expand) is refused. */
static int view_refresh(tsr_tensor *t)
{
    struct tsr_autograd *m = t ? t->autograd : NULL;
    if (!m || !m->grad_fn || !t->base || m->view_version < 0 || m->view_version == t->storage->version ||
        !tsr_tensor_requires_grad(t->base) || grad_off)
        return 0;
    if (m->grad_fn->nout > 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "Output %d of %s is a view and its base or another view of its base has been "
                      "modified inplace. This view is the output of a function that returns multiple views. Such "
                      "functions do not allow the output views to be modified inplace. You should replace the inplace "
                      "operation by an out-of-place one.", m->output_nr, m->grad_fn->name);
        return -1;
    }
    for (int d = 0; d < t->ndim; d++)
        if (t->strides[d] == 0 && t->sizes[d] > 1) {
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative of an expanded view whose base was changed in "
                          "place is not implemented.");
            return -1;
        }
    tsr_ag_args a;
    if (view_args(t, t->base, &a) < 0) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative of a view of more than %d dims whose base was "
                      "changed in place is not implemented.", TSR_MAX_DIMS / 3);
        return -1;
    }
    return tsr_ag_record("as_strided_view", 1, &t->base, &a, t, false);
}

/* The edge gradients of t flow into: its grad_fn, its accumulator, or none. */
static int edge_of(tsr_tensor *t, tsr_node **node, int *nr)
{
    *node = NULL;
    *nr = 0;
    if (!t) return 0;
    if (view_refresh(t) < 0) return -1;
    if (t->autograd && t->autograd->grad_fn) {
        *node = tsr_node_retain(t->autograd->grad_fn);
        *nr = t->autograd->output_nr;
        return 0;
    }
    if (!t->requires_grad) return 0;
    *node = grad_accumulator(t);
    return *node ? 0 : -1;
}

int tsr_tensor_retain_grad(tsr_tensor *t)
{
    if (!tsr_tensor_requires_grad(t)) {
        tsr_error_set(TSR_ERR_RUNTIME, "can't retain_grad on Tensor that has requires_grad=False");
        return -1;
    }
    if (tsr_tensor_is_leaf(t)) return 0;
    tsr_node *fn = t->autograd->grad_fn;
    if (fn->nout > 1) {   /* output output_nr's gradient */
        if (!fn->retained_out && !(fn->retained_out = tsr_calloc((size_t)fn->nout, sizeof *fn->retained_out)))
            return -1;
        fn->retained_out[t->autograd->output_nr] = t;
        t->autograd->retains_grad = true;
        return 0;
    }
    t->autograd->retains_grad = true;
    fn->retained = t;
    return 0;
}

int tsr_tensor_register_hook(tsr_tensor *t, tsr_grad_hook fn, void *closure, void (*drop)(void *), int64_t *id)
{
    if (!tsr_tensor_requires_grad(t)) {
        tsr_error_set(TSR_ERR_RUNTIME, "cannot register a hook on a tensor that doesn't require gradient");
        if (drop) drop(closure);
        return -1;
    }
    hook *h = tsr_calloc(1, sizeof *h);
    if (!h) {
        if (drop) drop(closure);
        return -1;
    }
    *h = (hook){next_hook_id++, t->autograd && t->autograd->grad_fn ? t->autograd->output_nr : 0, fn, closure, drop, NULL};
    *id = h->id;
    if (!meta(t)) {
        hooks_free(h);
        return -1;
    }
    hook **list = tsr_tensor_is_leaf(t) ? &t->autograd->hooks : &t->autograd->grad_fn->hooks;
    while (*list) list = &(*list)->next;
    *list = h;
    return 0;
}

static void remove_from(hook **list, int64_t id)
{
    for (; *list; list = &(*list)->next)
        if ((*list)->id == id) {
            hook *h = *list;
            *list = h->next;
            h->next = NULL;
            hooks_free(h);
            return;
        }
}

void tsr_tensor_remove_hook(tsr_tensor *t, int64_t id)
{
    if (!t->autograd) return;
    remove_from(&t->autograd->hooks, id);
    if (t->autograd->grad_fn) remove_from(&t->autograd->grad_fn->hooks, id);
}

/* ------------------------------------------------------------ recording */

bool tsr_ag_needed(int n, tsr_tensor *const *in)
{
    if (grad_off) return false;
    for (int i = 0; i < n; i++)
        if (in[i] && tsr_tensor_requires_grad(in[i])) return true;
    return false;
}

int tsr_ag_check_inplace(const tsr_tensor *t)
{
    tsr_node *fn = t->autograd ? t->autograd->grad_fn : NULL;
    if (!grad_off && t->base && fn && fn->nout > 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "Output %d of %s is a view and is being modified inplace. This view is the output "
                      "of a function that returns multiple views. Such functions do not allow the output views to be "
                      "modified inplace. You should replace the inplace operation by an out-of-place one.",
                      t->autograd->output_nr, fn->name);
        return -1;
    }
    if (!grad_off && t->requires_grad && tsr_tensor_is_leaf(t)) {
        tsr_error_set(TSR_ERR_RUNTIME, "a leaf Variable that requires grad is being used in an in-place operation.");
        return -1;
    }
    if (!grad_off && t->base && t->base->requires_grad && tsr_tensor_is_leaf(t->base)) {
        tsr_error_set(TSR_ERR_RUNTIME, "a view of a leaf Variable that requires grad is being used in an in-place "
                      "operation.");
        return -1;
    }
    return 0;
}

bool tsr_ag_has_formula(const char *formula) { return tsr__ag_formula(formula) != NULL; }

static int save(tsr_node *n, int slot, const tsr_tensor *t, bool is_output)
{
    tsr_saved *s = &n->saved[slot];
    s->t = t->sparse ? tsr__sparse_alias(t) : tsr_view_alias(t);   /* an alias: no autograd state, so no cycle through a saved output */
    if (!s->t) return -1;
    s->t->requires_grad = false;
    s->t->wrapped_number = t->wrapped_number;   /* 1.13 saves the wrapped number itself */
    tsr_tensor_unview(s->t);
    s->version = t->storage->version;
    s->is_output = is_output;
    s->was_leaf = tsr_tensor_is_leaf(t);
    s->fn_name = t->autograd && t->autograd->grad_fn ? t->autograd->grad_fn->name : NULL;
    s->orig = is_output ? NULL : tsr_tensor_retain((tsr_tensor *)t);
    s->output_nr = t->autograd ? t->autograd->output_nr : 0;
    return 0;
}

/* Saves an in-place op's self before the op (inplace_old) in slot 0: 1.13
 * saves self.clone(), which grad mode records as CloneBackward0 over self's
 * grad_fn before the op, so a create_graph backward differentiates through
 * the old self (PolygammaBackward1's polygamma(n + 1, self)). */
static int save_old(tsr_node *node, tsr_tensor *self)
{
    if (self && !tsr_tensor_requires_grad(inplace_old)) {
        /* the clone was taken before the op bumped the version: a view
         * current then keeps its grad_fn (no AsStridedBackward0 for it) */
        struct tsr_autograd *m = self->autograd;
        int64_t vv = m ? m->view_version : -1;
        if (m && self->base && vv >= 0 && vv == self->storage->version - 1) m->view_version = self->storage->version;
        int rc = tsr_ag_record("clone", 1, &self, NULL, inplace_old, false);
        if (m) m->view_version = vv;
        if (rc < 0) return -1;
    }
    return save(node, 0, inplace_old, false);
}

/* Makes node the grad_fn of t (output 0), dropping t's old one. */
static int attach(tsr_tensor *t, tsr_node *node)
{
    struct tsr_autograd *m = meta(t);
    if (!m) return -1;
    if (m->grad_fn) {
        node_forget_retained(m->grad_fn, t);
        tsr_node_release(m->grad_fn);
    }
    m->grad_fn = node;
    m->output_nr = 0;
    m->view_version = t->base ? t->storage->version : -1;
    if (m->retains_grad) node->retained = t;
    return 0;
}

/* The names of 1.13's view-copy nodes ("ExpandBackward0_copy"), made once. */
static const char *copy_name(const char *name)
{
    struct made_name { const char *from; char *to; };
    static struct made_name made[64];
    static int nmade;
    for (int i = 0; i < nmade; i++)
        if (made[i].from == name || !strcmp(made[i].from, name)) return made[i].to;
    size_t l = strlen(name);
    char *to = tsr_calloc(l + 6, 1);
    if (!to) return NULL;
    memcpy(to, name, l);
    memcpy(to + l, "_copy", 6);
    if (nmade < (int)(sizeof made / sizeof made[0])) made[nmade++] = (struct made_name){name, to};
    return to;
}

int tsr_ag_view_to_copy(tsr_tensor *view, tsr_tensor *copy)
{
    tsr_node *fn = view->autograd ? view->autograd->grad_fn : NULL;
    if (!fn) return 0;
    size_t l = strlen(fn->name);
    if (l < 5 || strcmp(fn->name + l - 5, "_copy")) {
        const char *nm = copy_name(fn->name);
        if (!nm) return -1;
        fn->name = nm;
    }
    int nr = view->autograd->output_nr;
    struct tsr_autograd *m = meta(copy);
    if (!m) return -1;
    tsr_node_retain(fn);
    if (m->grad_fn) {
        node_forget_retained(m->grad_fn, copy);
        tsr_node_release(m->grad_fn);
    }
    m->grad_fn = fn;
    m->output_nr = nr;
    m->view_version = -1;
    return 0;
}

/* An in-place op on view out of a base: 1.13's CopySlices on the base
 * around the op's node (fn, which is not in the graph: its input 0 is the
 * view's old values, whose gradient goes back into the base's), then the
 * view's grad_fn AsStridedBackward0 over it. */
static int record_view_inplace(const tsr_formula *f, int n, tsr_tensor *const *in, const tsr_ag_args *args,
                               tsr_tensor *out)
{
    tsr_tensor *base = out->base;
    if (base->requires_grad && tsr_tensor_is_leaf(base)) {
        tsr_error_set(TSR_ERR_RUNTIME, "a view of a leaf Variable that requires grad is being used in an in-place "
                      "operation.");
        return -1;
    }
    tsr_ag_args va;
    if (view_args(out, base, &va) < 0) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for '%s' of a view of more than %d dims is not "
                      "implemented.", f->key, TSR_MAX_DIMS / 3);
        return -1;
    }
    const tsr_formula *cf = tsr__ag_formula("copy_slices_fn");
    tsr_node *fn = node_new(f->name), *cs = fn ? node_new(cf->name) : NULL;
    if (!cs) goto fail;
    fn->f = f;
    if (args) fn->a = *args;
    cs->f = cf;
    cs->a = va;
    cs->sub = fn;
    fn->nnext = cs->nnext = n;
    if (edge_of(base, &cs->next[0].node, &cs->next[0].nr) < 0) goto fail;
    /* fn's input 0 takes a gradient exactly when the base's old graph does */
    fn->next[0].node = tsr_node_retain(cs->next[0].node);
    for (int i = 0; i < n; i++) {
        if (i > 0 && edge_of(in[i], &fn->next[i].node, &fn->next[i].nr) < 0) goto fail;
        if (i > 0) cs->next[i].node = tsr_node_retain(fn->next[i].node), cs->next[i].nr = fn->next[i].nr;
        if (!in[i]) continue;
        const tsr_tensor *t = i ? in[i] : base;
        fn->in_nd[i] = in[i]->ndim;
        memcpy(fn->in_sizes[i], in[i]->sizes, (size_t)in[i]->ndim * sizeof(int64_t));
        fn->in_dtype[i] = in[i]->dtype;
        fn->in_device[i] = in[i]->device;
        fn->in_present[i] = true;
        cs->in_nd[i] = t->ndim;
        memcpy(cs->in_sizes[i], t->sizes, (size_t)t->ndim * sizeof(int64_t));
        cs->in_dtype[i] = t->dtype;
        cs->in_device[i] = t->device;
        cs->in_present[i] = true;
    }
    for (int i = 1; i < n; i++) {
        if (in[i] && (f->save & (1u << i)) && save(fn, i, in[i], false) < 0) goto fail;
        if (in[i] && fn->saved[i].t && in[i]->storage == out->storage) {   /* as above */
            fn->saved[i].version--;
            tsr_tensor_release(fn->saved[i].orig);
            fn->saved[i].orig = NULL;
        }
    }
    if ((f->save & 1u) && inplace_old && save_old(fn, in[0]) < 0) goto fail;
    if ((f->save & TSR_SAVE_OUT) && save(fn, TSR_AG_OUT, out, true) < 0) goto fail;
    fn->out_nd = out->ndim;
    memcpy(fn->out_sizes, out->sizes, (size_t)out->ndim * sizeof(int64_t));
    fn->out_dtype = out->dtype;
    cs->out_nd = base->ndim;
    memcpy(cs->out_sizes, base->sizes, (size_t)base->ndim * sizeof(int64_t));
    cs->out_dtype = base->dtype;
    if (attach(base, cs) < 0) goto fail;
    return tsr_ag_record("as_strided_view", 1, &base, &va, out, false);
fail:
    if (cs) tsr_node_release(cs);
    else tsr_node_release(fn);
    return -1;
}

int tsr_ag_record(const char *formula, int n, tsr_tensor *const *in, const tsr_ag_args *args, tsr_tensor *out,
                  bool inplace)
{
    if (!tsr_ag_needed(n, in)) return 0;
    if (!tsr_dtype_is_floating(out->dtype) && !tsr_dtype_is_complex(out->dtype)) return 0;
    const tsr_formula *f = tsr__ag_formula(formula);
    if (!f) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for '%s' is not implemented.", formula);
        return -1;
    }
    if (n > TSR_AG_MAXIN) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for '%s' is not implemented for more than %d inputs.",
                      formula, TSR_AG_MAXIN);
        return -1;
    }
    bool others = false;   /* in place, self's old values are gone unless the binding kept a copy (inplace_old):
                              without one, only a formula that needs them for another input fails */
    for (int i = 1; i < n; i++) others |= in[i] && tsr_tensor_requires_grad(in[i]);
    if (inplace && (f->save & 1u) && others && !inplace_old) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for '%s_' in place is not implemented.", formula);
        return -1;
    }
    if (inplace && out->base) return record_view_inplace(f, n, in, args, out);
    tsr_node *node = node_new(f->name);
    if (!node) return -1;
    node->f = f;
    if (args) node->a = *args;
    node->nnext = n;
    for (int i = 0; i < n; i++) {
        if (edge_of(in[i], &node->next[i].node, &node->next[i].nr) < 0) goto fail;
        if (!in[i]) continue;
        node->in_nd[i] = in[i]->ndim;
        memcpy(node->in_sizes[i], in[i]->sizes, (size_t)in[i]->ndim * sizeof(int64_t));
        node->in_dtype[i] = in[i]->dtype;
        node->in_device[i] = in[i]->device;
        node->in_present[i] = true;
    }
    for (int i = inplace ? 1 : 0; i < n; i++) {
        if (in[i] && (f->save & (1u << i)) && save(node, i, in[i], false) < 0) goto fail;
        /* an input that shares self's storage was saved after the op wrote it: 1.13 saved it before (at
           the version before the op's bump), so its backward fails on the version */
        if (inplace && i > 0 && in[i] && node->saved[i].t && in[i]->storage == out->storage) {
            node->saved[i].version--;
            /* no reference back to it (it may be out itself, whose grad_fn is this node: a cycle); the
               version error names it by the grad_fn it had */
            tsr_tensor_release(node->saved[i].orig);
            node->saved[i].orig = NULL;
        }
    }
    if (inplace && (f->save & 1u) && inplace_old && save_old(node, in[0]) < 0) goto fail;
    if ((f->save & TSR_SAVE_OUT) && save(node, TSR_AG_OUT, out, true) < 0) goto fail;
    node->out_nd = out->ndim;
    memcpy(node->out_sizes, out->sizes, (size_t)out->ndim * sizeof(int64_t));
    node->out_dtype = out->dtype;
    if (attach(out, node) < 0) goto fail;
    return 0;
fail:
    tsr_node_release(node);
    return -1;
}

int tsr_ag_keep(tsr_tensor *out, const tsr_tensor *x)
{
    tsr_node *n = out->autograd ? out->autograd->grad_fn : NULL;
    if (n && n->sub) n = n->sub;   /* in place on a view: CopySlices' op node */
    if (!n || n->nextra == 4) return 0;
    n->extra[n->nextra] = tsr_view_alias(x);
    if (!n->extra[n->nextra]) return -1;
    n->nextra++;
    return 0;
}

/* the clone's node cl sequenced after the op's node n (1.13 builds the op's node, then clones self) */
static void clone_after(tsr_node *cl, tsr_node *n)
{
    uint64_t seq = cl->seq;
    cl->seq = n->seq;
    n->seq = seq;
}

int tsr_ag_record_inplace_act(const char *formula, tsr_tensor *x, const tsr_ag_args *args, tsr_tensor *old)
{
    const tsr_formula *f = tsr__ag_formula(formula);
    bool of_self = f && (f->save & 1u);
    if (of_self) {   /* self.clone(), recorded before x's grad_fn becomes the in-place node */
        if (tsr_ag_record("clone", 1, &x, NULL, old, false) < 0) return -1;
        tsr_ag_inplace_old(old);
    }
    int rc = tsr_ag_record(formula, 1, &x, args, x, true);
    if (of_self) tsr_ag_inplace_old(NULL);
    tsr_node *n = rc == 0 && x->autograd ? x->autograd->grad_fn : NULL;
    if (of_self && n && !n->sub && old->autograd && old->autograd->grad_fn) clone_after(old->autograd->grad_fn, n);
    if (rc == 0) rc = tsr_ag_keep(x, old);
    return rc;
}

int tsr__ag_record_inplace_of(const char *formula, int n, tsr_tensor *const *in, tsr_tensor *out)
{
    bool of_self = n == 1 || (in[1] && tsr_tensor_requires_grad(in[1]));
    if (!of_self || !tsr_ag_needed(1, in)) return tsr_ag_record(formula, n, in, NULL, out, false);
    tsr_tensor *cl = tsr_view_alias(in[0]);
    if (!cl) return -1;
    tsr_tensor_unview(cl);
    int rc = tsr_ag_record("clone", 1, in, NULL, cl, false);
    if (rc == 0) {
        tsr_ag_inplace_old(cl);
        rc = tsr_ag_record(formula, n, in, NULL, out, true);
        tsr_ag_inplace_old(NULL);
    }
    if (rc == 0 && cl->autograd && cl->autograd->grad_fn && out->autograd && out->autograd->grad_fn)
        clone_after(cl->autograd->grad_fn, out->autograd->grad_fn);
    tsr_tensor_release(cl);
    return rc;
}

int tsr_ag_record_multi(const char *formula, tsr_tensor *in, const tsr_ag_args *args, int nout, tsr_tensor *const *outs)
{
    if (!tsr_ag_needed(1, &in) || nout == 0) return 0;
    const tsr_formula *f = tsr__ag_formula(formula);
    if (!f) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for '%s' is not implemented.", formula);
        return -1;
    }
    tsr_node *node = node_new(f->name);
    if (!node) return -1;
    node->f = f;
    if (args) node->a = *args;
    node->nnext = 1;
    node->nout = nout > 1 ? nout : 0;
    if (edge_of(in, &node->next[0].node, &node->next[0].nr) < 0) goto fail;
    node->in_nd[0] = in->ndim;
    memcpy(node->in_sizes[0], in->sizes, (size_t)in->ndim * sizeof(int64_t));
    node->in_dtype[0] = in->dtype;
    node->in_device[0] = in->device;
    node->in_present[0] = true;
    node->out_nd = outs[0]->ndim;
    memcpy(node->out_sizes, outs[0]->sizes, (size_t)outs[0]->ndim * sizeof(int64_t));
    node->out_dtype = outs[0]->dtype;
    for (int k = 0; k < nout; k++) {
        if (k) tsr_node_retain(node);
        if (attach(outs[k], node) < 0) {
            if (k) tsr_node_release(node);
            return -1;
        }
        outs[k]->autograd->output_nr = k;
    }
    return 0;
fail:
    tsr_node_release(node);
    return -1;
}

int tsr__ag_record_outs(const char *formula, int n, tsr_tensor *const *in, const tsr_ag_args *args, int nout,
                        tsr_tensor *const *outs)
{
    int first = 0;
    while (first < nout && !outs[first]) first++;
    if (first == nout) return 0;
    if (tsr_ag_record(formula, n, in, args, outs[first], false) < 0) return -1;
    tsr_node *node = outs[first]->autograd ? outs[first]->autograd->grad_fn : NULL;
    if (!node || nout < 2) return 0;
    node->nout = nout;
    outs[first]->autograd->output_nr = first;
    for (int k = first + 1; k < nout; k++) {
        if (!outs[k]) continue;
        tsr_node_retain(node);
        if (attach(outs[k], node) < 0) {
            tsr_node_release(node);
            return -1;
        }
        outs[k]->autograd->output_nr = k;
    }
    return 0;
}

int tsr_ag_record_outs(const char *formula, int n, tsr_tensor *const *in, const tsr_ag_args *args, int nout,
                       tsr_tensor *const *outs)
{
    return tsr__ag_record_outs(formula, n, in, args, nout, outs);
}

/* ------------------------------------------------------------ the engine */

static const char *hint = "Hint: enable anomaly detection to find the operation that failed to compute its "
                          "gradient, with torch.autograd.set_detect_anomaly(True).";

static void type_string(const tsr_tensor *t, char *buf, size_t cap)
{
    const tsr_dtype_traits *tr = tsr_dtype_traits_of(t->dtype);
    char dims[512];
    snprintf(buf, cap, "torch.%s %s", tr ? tr->tensor_type : "Tensor", tsr__fmt_list(dims, sizeof dims, t->ndim, t->sizes));
}

tsr_tensor *tsr__ag_saved(tsr_node *n, int slot)
{
    tsr_saved *s = &n->saved[slot];
    if (n->released || !s->t) {
        tsr_error_set(TSR_ERR_RUNTIME,
                      "Trying to backward through the graph a second time (or directly access saved tensors after "
                      "they have already been freed). Saved intermediate values of the graph are freed when you "
                      "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
                      "through the graph a second time or if you need to access saved tensors after calling backward.");
        return NULL;
    }
    if (s->t->storage->version != s->version) {
        char ty[600];
        type_string(s->t, ty, sizeof ty);
        if (s->is_output)
            tsr_error_set(TSR_ERR_RUNTIME, "one of the variables needed for gradient computation has been modified by "
                          "an inplace operation: [%s], which is output 0 of %s, is at version %lld; expected version "
                          "%lld instead. %s", ty, n->name, (long long)s->t->storage->version, (long long)s->version, hint);
        else if (s->orig && s->orig->autograd && s->orig->autograd->grad_fn)
            tsr_error_set(TSR_ERR_RUNTIME, "one of the variables needed for gradient computation has been modified by "
                          "an inplace operation: [%s], which is output %d of %s, is at version %lld; expected version "
                          "%lld instead. %s", ty, s->orig->autograd->output_nr, s->orig->autograd->grad_fn->name,
                          (long long)s->t->storage->version, (long long)s->version, hint);
        else if (s->fn_name)
            tsr_error_set(TSR_ERR_RUNTIME, "one of the variables needed for gradient computation has been modified by "
                          "an inplace operation: [%s], which is output %d of %s, is at version %lld; expected version "
                          "%lld instead. %s", ty, s->output_nr, s->fn_name, (long long)s->t->storage->version,
                          (long long)s->version, hint);
        else
            tsr_error_set(TSR_ERR_RUNTIME, "one of the variables needed for gradient computation has been modified by "
                          "an inplace operation: [%s] is at version %lld; expected version %lld instead. %s", ty,
                          (long long)s->t->storage->version, (long long)s->version, hint);
        return NULL;
    }
    if (creating && s->orig) return s->orig;   /* SavedVariable::unpack: the input with its graph */
    if (creating && s->is_output) {   /* the output, its grad_fn this node */
        if (!saved_out) saved_out = tsr__ag_output_alias(n, s->t, s->output_nr, 0);
        return saved_out;
    }
    return s->t;
}

tsr_tensor *tsr__ag_output_alias(tsr_node *n, const tsr_tensor *t, int nr, int nout)
{
    tsr_tensor *o = tsr_view_alias(t);
    if (!o) return NULL;
    tsr_tensor_unview(o);
    if (attach(o, tsr_node_retain(n)) < 0) {
        tsr_node_release(n);
        tsr_tensor_release(o);
        return NULL;
    }
    o->autograd->output_nr = nr;
    if (n->nout < nout) n->nout = nout;
    return o;
}

/* validate_outputs: g summed to the input's shape and cast to its dtype.
 * Steals g; NEW reference or NULL. */
static tsr_tensor *validate(tsr_node *n, int i, tsr_tensor *g)
{
    int nd = n->in_nd[i];
    const int64_t *sz = n->in_sizes[i];
    bool same = g->ndim == nd;
    for (int d = 0; same && d < nd; d++) same = g->sizes[d] == sz[d];
    if (!same) {
        tsr_tensor *s = tsr__ag_sum_to(g, nd, sz);
        if (!s) {
            tsr_error_clear();
            char a[512], b[512];
            tsr_error_set(TSR_ERR_RUNTIME, "Function %s returned an invalid gradient at index %d - got %s but "
                          "expected shape compatible with %s", n->name, i, tsr__fmt_list(a, sizeof a, g->ndim, g->sizes),
                          tsr__fmt_list(b, sizeof b, nd, sz));
        }
        tsr_tensor_release(g);
        if (!s) return NULL;
        g = s;
    }
    if (g->dtype != n->in_dtype[i]) {
        tsr_tensor *c = g->sparse ? tsr_sparse_to_dtype(g, n->in_dtype[i], false) : tsr__ag_to_dtype(g, n->in_dtype[i]);
        tsr_tensor_release(g);
        g = c;
    }
    return g;
}

/* buf += g (steals g). */
static int accumulate(tsr_tensor **buf, tsr_tensor *g)
{
    if (!*buf) {
        *buf = g;
        return 0;
    }
    tsr_operand a = tsr_operand_tensor(*buf), b = tsr_operand_tensor(g);
    /* InputBuffer::accumulate: a sparse old gradient is added to the new one (new + old), a dense one takes the new */
    tsr_tensor *s = (*buf)->sparse ? tsr_sparse_add(g, *buf, tsr_scalar_int(1))
                  : g->sparse ? tsr_sparse_add(*buf, g, tsr_scalar_int(1))
                  : creating ? tsr__ag_add(*buf, g)   /* InputBuffer: old + new, recorded */
                  : tsr_binary(TSR_BINOP_ADD, &a, &b, NULL, NULL);
    tsr_tensor_release(g);
    if (!s) return -1;
    tsr_tensor_release(*buf);
    *buf = s;
    return 0;
}

static tsr_tensor *recorded(tsr_tensor *out, const char *key, int n, tsr_tensor *const *in);

/* retain_grad's hook: the retained non-leaf's .grad = buf (cloned), or
 * += buf; recorded (clone / add) with grad mode on. 0 or -1. */
static int retain_into(tsr_tensor *retained, tsr_tensor *buf, bool creating, bool keep_flow)
{
    struct tsr_autograd *m = retained->autograd;
    if (!m || keep_flow) return 0;
    if (creating) {
        tsr_tensor *in[1] = {buf};
        tsr_tensor *r = !m->grad ? recorded(tsr_clone(buf, TSR_MF_CONTIGUOUS), "clone", 1, in) : tsr__ag_add(m->grad, buf);
        if (!r) return -1;
        tsr_tensor_release(m->grad);
        m->grad = r;
        return 0;
    }
    if (!m->grad) return (m->grad = tsr_clone(buf, TSR_MF_CONTIGUOUS)) ? 0 : -1;
    tsr_operand b = tsr_operand_tensor(buf);
    tsr_tensor *r = tsr_binary_(TSR_BINOP_ADD, m->grad, &b, NULL);
    if (!r) return -1;
    tsr_tensor_release(r);
    return 0;
}

/* Runs the hooks of list on *g (replacing it when one returns a tensor);
 * nr >= 0: only those of output nr. */
static int run_hooks_nr(hook *list, tsr_tensor **g, int nr)
{
    for (hook *h = list; h; h = h->next) {
        if (nr >= 0 && h->nr != nr) continue;
        int failed = 0;
        tsr_tensor *r = h->fn(h->closure, *g, &failed);
        if (failed) return -1;
        if (r) {
            tsr_tensor_release(*g);
            *g = r;
        }
    }
    return 0;
}
static int run_hooks(hook *list, tsr_tensor **g) { return run_hooks_nr(list, g, -1); }

/* out (NULL: a failure) recorded as key over in[0..n), or NULL released. */
static tsr_tensor *recorded(tsr_tensor *out, const char *key, int n, tsr_tensor *const *in)
{
    if (out && tsr_ag_record(key, n, in, NULL, out, false) < 0) {
        tsr_tensor_release(out);
        return NULL;
    }
    return out;
}

/* AccumulateGrad::apply: .grad = *gp, or .grad += *gp in place. A hook's
 * replacement takes *gp's place (the caller releases *gp). */
static int accumulate_grad(tsr_tensor *leaf, tsr_tensor **gp)
{
    struct tsr_autograd *m = meta(leaf);
    if (!m) return -1;
    if (run_hooks(m->hooks, gp) < 0) return -1;
    tsr_tensor *g = *gp;
    if (!m->grad && g->sparse) {   /* a sparse gradient is kept as it is, or cloned where its parts are not contiguous */
        bool plain = tsr_tensor_is_contiguous(g->sparse->indices) && tsr_tensor_is_contiguous(g->sparse->values);
        m->grad = plain ? tsr_tensor_retain(g) : tsr_sparse_clone(g);
        return m->grad ? 0 : -1;
    }
    if (creating && !g->sparse && (!m->grad || !m->grad->sparse)) {
        /* grad mode on (create_graph): .grad keeps the gradient's graph. The first one is
           clone_obey_contract's new_empty_strided(...).copy_(grad) (CopyBackwards) or
           clone (CloneBackward0); later ones replace .grad by .grad + grad (AddBackward0) */
        tsr_tensor *c;
        if (!m->grad) {
            if (tsr_tensor_is_non_overlapping_and_dense(leaf)) {
                c = tsr_tensor_empty_strided(leaf->ndim, leaf->sizes, leaf->strides, g->dtype, g->device);
                if (c && tsr_copy_(c, g) < 0) {
                    tsr_tensor_release(c);
                    c = NULL;
                }
                tsr_tensor *in[2] = {c, g};
                c = recorded(c, "copy_backwards", 2, in);
            } else {
                tsr_tensor *in[1] = {g};
                c = recorded(tsr_clone(g, TSR_MF_CONTIGUOUS), "clone", 1, in);
            }
        } else {
            c = tsr__ag_add(m->grad, g);
        }
        if (!c) return -1;
        tsr_tensor_release(m->grad);
        m->grad = c;
        return 0;
    }
    if (!m->grad) {
        /* the layout contract (AccumulateGrad.h): a dense leaf's grad has its strides */
        bool dense = tsr_tensor_is_non_overlapping_and_dense(leaf), same = g->ndim == leaf->ndim;
        for (int d = 0; same && d < g->ndim; d++) same = g->sizes[d] < 2 || g->strides[d] == leaf->strides[d];
        tsr_tensor *c;
        if (dense && !same) {
            c = tsr_tensor_empty_strided(leaf->ndim, leaf->sizes, leaf->strides, g->dtype, g->device);
            if (c && tsr_copy_(c, g) < 0) {
                tsr_tensor_release(c);
                c = NULL;
            }
        } else if (g->refcount > 1 || g->base || (!dense && !tsr_tensor_is_contiguous(g))) {
            c = tsr_clone(g, TSR_MF_CONTIGUOUS);
        } else {
            c = tsr_tensor_retain(g);
        }
        if (!c) return -1;
        tsr_tensor_unview(c);
        m->grad = c;
        return 0;
    }
    if (m->grad->sparse && g->sparse) {   /* .grad += g: the sparse sum takes .grad's place in place */
        tsr_tensor *s = tsr_sparse_add(m->grad, g, tsr_scalar_int(1));
        if (!s) return -1;
        tsr_sparse tmp = *m->grad->sparse;
        *m->grad->sparse = *s->sparse;
        *s->sparse = tmp;
        tsr_tensor_release(s);
        return 0;
    }
    if (m->grad->sparse || g->sparse) {
        /* a sparse .grad with a dense g: .grad = g + .grad; a dense one: .grad += g in place */
        tsr_tensor *s = m->grad->sparse ? tsr_sparse_add(g, m->grad, tsr_scalar_int(1))
                                        : tsr_sparse_add(m->grad, g, tsr_scalar_int(1));
        int rc = s && (m->grad->sparse || tsr_copy_(m->grad, s) == 0) ? 0 : -1;
        if (rc == 0 && m->grad->sparse) {
            tsr_tensor_release(m->grad);
            m->grad = s;
        } else {
            tsr_tensor_release(s);
        }
        return rc;
    }
    tsr_operand b = tsr_operand_tensor(g);
    tsr_tensor *r = tsr_binary_(TSR_BINOP_ADD, m->grad, &b, NULL);
    if (!r) return -1;
    tsr_tensor_release(r);
    return 0;
}

typedef struct {
    tsr_node *node;
    int deps;
    tsr_tensor *buf;
    bool done;
    tsr_tensor **bufs;          /* a multi-output node's: per output */
    bool needed;                /* with inputs: on a path to one of them (1.13's exec_info needed_) */
} task;

/* v (stolen) added into t's gradient of output nr. 0 or -1. */
static int accumulate_nr(task *t, int nr, tsr_tensor *v)
{
    if (t->node->nout <= 1) return accumulate(&t->buf, v);
    if (!t->bufs && !(t->bufs = tsr_calloc((size_t)t->node->nout, sizeof *t->bufs))) {
        tsr_tensor_release(v);
        return -1;
    }
    if (accumulate(&t->bufs[nr], v) < 0) return -1;
    if (!t->buf) t->buf = tsr_tensor_retain(t->bufs[nr]);   /* marks the task as reached */
    return 0;
}

static void bufs_free(task *t)
{
    for (int k = 0; t->bufs && k < t->node->nout; k++) tsr_tensor_release(t->bufs[k]);
    tsr_free(t->bufs);
    t->bufs = NULL;
}

typedef struct {
    task *t;
    int n, cap;
} graph;

static int find(graph *g, tsr_node *n)
{
    for (int i = 0; i < g->n; i++)
        if (g->t[i].node == n) return i;
    return -1;
}

/* Adds every node reachable from n, counting the edges into each. */
static int collect(graph *g, tsr_node *n)
{
    tsr_node **stack = NULL;
    int sp = 0, cap = 0, rc = 0;
#define PUSH(x)                                                                     \
    do {                                                                            \
        if (sp == cap) {                                                            \
            cap = cap ? 2 * cap : 64;                                               \
            tsr_node **ns = tsr_realloc(stack, (size_t)cap * sizeof *ns);          \
            if (!ns) { rc = -1; goto out; }                                         \
            stack = ns;                                                             \
        }                                                                           \
        stack[sp++] = (x);                                                          \
    } while (0)
    if (find(g, n) >= 0) return 0;
    PUSH(n);
    while (sp) {
        tsr_node *x = stack[--sp];
        if (find(g, x) < 0) {
            if (g->n == g->cap) {
                g->cap = g->cap ? 2 * g->cap : 32;
                task *nt = tsr_realloc(g->t, (size_t)g->cap * sizeof *nt);
                if (!nt) { rc = -1; goto out; }
                g->t = nt;
            }
            g->t[g->n++] = (task){x, 0, NULL, false};
        }
        for (int i = 0; i < x->nnext; i++) {
            tsr_node *y = x->next[i].node;
            if (!y) continue;
            int k = find(g, y);
            if (k < 0) {
                PUSH(y);
                if (g->n == g->cap) {
                    g->cap = g->cap ? 2 * g->cap : 32;
                    task *nt = tsr_realloc(g->t, (size_t)g->cap * sizeof *nt);
                    if (!nt) { rc = -1; goto out; }
                    g->t = nt;
                }
                g->t[g->n++] = (task){y, 0, NULL, false};
                k = g->n - 1;
            }
            g->t[k].deps++;
        }
    }
out:
#undef PUSH
    tsr_free(stack);
    return rc;
}

static bool same_shape(const tsr_tensor *a, const tsr_tensor *b)
{
    if (a->ndim != b->ndim) return false;
    for (int d = 0; d < a->ndim; d++)
        if (a->sizes[d] != b->sizes[d]) return false;
    return true;
}

static void size_string(const tsr_tensor *t, char *buf, size_t cap)
{
    char l[512];
    snprintf(buf, cap, "torch.Size(%s)", tsr__fmt_list(l, sizeof l, t->ndim, t->sizes));
}

/* With inputs (autograd.grad, backward(inputs=)) only the nodes with a path
 * to an input's node run, as 1.13's exec_info marks them: a node is needed
 * when one of its next nodes is needed or is an input's; an input's node
 * itself runs only when it leads to another input, except that
 * backward(inputs=) runs it (accumulate: its AccumulateGrad, or the
 * retain_grad of a non-leaf input). Seq order puts a node's next nodes
 * first, so one ascending pass settles almost every graph; it repeats
 * until nothing changes. */
static void mark_needed(graph *g, int ni, tsr_node *const *in_nodes, bool accumulate)
{
    for (int i = 0; i < g->n; i++) {
        g->t[i].needed = false;
        for (int k = 0; k < ni && accumulate; k++)
            if (in_nodes[k] == g->t[i].node) g->t[i].needed = true;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < g->n; i++) {
            task *t = &g->t[i];
            if (t->needed) continue;
            for (int e = 0; e < t->node->nnext && !t->needed; e++) {
                tsr_node *y = t->node->next[e].node;
                if (!y) continue;
                bool hit = g->t[find(g, y)].needed;
                for (int k = 0; k < ni && !hit; k++) hit = in_nodes[k] == y;
                if (hit) t->needed = changed = true;
            }
        }
    }
}

static int run_graph(int n, tsr_tensor *const *outputs, tsr_tensor *const *grads, bool retain_graph, int ni,
                     tsr_tensor *const *inputs, bool allow_unused, tsr_tensor **results, bool keep_flow,
                     bool accumulate);

/* Whether node's formula, run on gradient g, gives a result that needs a
 * graph: g or a saved tensor requires grad. */
static bool needs_graph(const tsr_node *node, const tsr_tensor *g)
{
    if (tsr_tensor_requires_grad(g)) return true;
    for (int i = 0; i < TSR_AG_NSAVED; i++) {
        const tsr_saved *s = &node->saved[i];
        if (s->t && (s->is_output || (s->orig && tsr_tensor_requires_grad(s->orig)))) return true;
    }
    return false;
}

/* The engine with grad mode set to create_graph for the run, as 1.13's
 * GraphTask does; with create_graph the backward is recorded. */
static int run_mode(int n, tsr_tensor *const *outputs, tsr_tensor *const *grads, bool retain_graph, int ni,
                    tsr_tensor *const *inputs, bool allow_unused, tsr_tensor **results, unsigned flags, bool accumulate)
{
    bool old_off = grad_off, old_creating = creating, create = (flags & TSR_AG_CREATE_GRAPH) != 0;
    tsr_tensor *old_saved = saved_out;
    grad_off = !create;
    creating = create;
    saved_out = NULL;
    int rc = run_graph(n, outputs, grads, retain_graph, ni, inputs, allow_unused, results,
                       (flags & TSR_AG_KEEP_FLOW) != 0, accumulate);
    tsr_tensor_release(saved_out);
    saved_out = old_saved;
    grad_off = old_off;
    creating = old_creating;
    return rc;
}

int tsr_autograd_run(int n, tsr_tensor *const *outputs, tsr_tensor *const *grads, bool retain_graph,
                     int ni, tsr_tensor *const *inputs, bool allow_unused, tsr_tensor **results, unsigned flags)
{
    return run_mode(n, outputs, grads, retain_graph, ni, inputs, allow_unused, results, flags, ni == 0);
}

int tsr_autograd_backward_inputs(int n, tsr_tensor *const *outputs, tsr_tensor *const *grads, bool retain_graph,
                                 int ni, tsr_tensor *const *inputs, bool create_graph)
{
    for (int k = 0; k < ni; k++)
        if (tsr_tensor_retain_grad(inputs[k]) < 0) return -1;
    return run_mode(n, outputs, grads, retain_graph, ni, inputs, true, NULL, create_graph ? TSR_AG_CREATE_GRAPH : 0,
                    true);
}

static int run_graph(int n, tsr_tensor *const *outputs, tsr_tensor *const *grads, bool retain_graph, int ni,
                     tsr_tensor *const *inputs, bool allow_unused, tsr_tensor **results, bool keep_flow,
                     bool accumulate)
{
    bool capture = ni > 0 && !accumulate, prune = ni > 0 && !keep_flow;
    graph g = {0};
    int rc = -1;
    tsr_node **in_nodes = NULL;
    int *in_nrs = NULL;
    for (int k = 0; k < ni && capture; k++) results[k] = NULL;
    for (int k = 0; k < n; k++) {
        tsr_tensor *o = outputs[k];
        if (!tsr_tensor_requires_grad(o)) {
            tsr_error_set(TSR_ERR_RUNTIME, "element %d of tensors does not require grad and does not have a grad_fn", k);
            goto done;
        }
        if (grads && grads[k]) {
            if (!same_shape(grads[k], o)) {
                char a[600], b[600];
                size_string(grads[k], a, sizeof a);
                size_string(o, b, sizeof b);
                tsr_error_set(TSR_ERR_RUNTIME, "Mismatch in shape: grad_output[%d] has a shape of %s and output[%d] has a "
                              "shape of %s.", k, a, k, b);
                goto done;
            }
        } else if (tsr_tensor_numel(o) != 1) {
            tsr_error_set(TSR_ERR_RUNTIME, "grad can be implicitly created only for scalar outputs");
            goto done;
        }
    }
    if (ni) {
        in_nodes = tsr_calloc((size_t)ni, sizeof *in_nodes);
        in_nrs = tsr_calloc((size_t)ni, sizeof *in_nrs);
        if (!in_nodes || !in_nrs) goto done;
        for (int k = 0; k < ni; k++) {
            if (!tsr_tensor_requires_grad(inputs[k])) {
                tsr_error_set(TSR_ERR_RUNTIME, "One of the differentiated Tensors does not require grad");
                goto done;
            }
            if (edge_of(inputs[k], &in_nodes[k], &in_nrs[k]) < 0) goto done;
        }
    }
    /* the roots */
    for (int k = 0; k < n; k++) {
        tsr_node *root;
        int nr;
        if (edge_of(outputs[k], &root, &nr) < 0) goto done;
        int r = collect(&g, root);
        tsr_node_release(root);
        if (r < 0) goto done;
    }
    for (int k = 0; k < n; k++) {
        tsr_node *root;
        int nr;
        if (edge_of(outputs[k], &root, &nr) < 0) goto done;
        int i = find(&g, root);
        tsr_node_release(root);
        tsr_tensor *seed = grads && grads[k] ? tsr_tensor_retain(grads[k])
                                             : tsr_ones(outputs[k]->ndim, outputs[k]->sizes, outputs[k]->dtype,
                                                        outputs[k]->device);
        if (!seed || accumulate_nr(&g.t[i], nr, seed) < 0) goto done;
    }
    if (prune) mark_needed(&g, ni, in_nodes, accumulate);
    for (;;) {
        int best = -1;
        for (int i = 0; i < g.n; i++)
            if (!g.t[i].done && g.t[i].deps == 0 && (best < 0 || g.t[i].node->seq > g.t[best].node->seq)) best = i;
        if (best < 0) break;
        task *t = &g.t[best];
        t->done = true;
        tsr_node *node = t->node;
        tsr_tensor *buf = t->buf;
        t->buf = NULL;
        tsr_tensor *gin[TSR_AG_MAXIN] = {0};
        int fail = 0;
        bool run = !prune || t->needed;
        /* an input's gradient is captured as it arrives, before the tensor's hooks (1.13) */
        for (int k = 0; buf && capture && k < ni; k++)
            if (in_nodes[k] == node) {
                tsr_tensor_release(results[k]);
                tsr_tensor *src = node->nout > 1 && t->bufs ? t->bufs[in_nrs[k]] : buf;
                results[k] = src ? tsr_tensor_retain(src) : NULL;
            }
        if (buf && run) {
            if (node->nout > 1 && t->bufs) {   /* a multi-output node: each output's hooks and retain_grad */
                for (int k = 0; k < node->nout && !fail; k++) {
                    if (!t->bufs[k]) continue;
                    if (run_hooks_nr(node->hooks, &t->bufs[k], k) < 0) fail = 1;
                    else if (node->retained_out && node->retained_out[k] &&
                             retain_into(node->retained_out[k], t->bufs[k], creating, keep_flow) < 0)
                        fail = 1;
                }
            } else {
                if (!node->leaf && run_hooks(node->hooks, &buf) < 0) fail = 1;
                if (!fail && node->retained && retain_into(node->retained, buf, creating, keep_flow) < 0) fail = 1;
            }
            if (!fail && keep_flow) {
                tsr_tensor_release(node->flow);
                node->flow = tsr_tensor_retain(buf);
            }
            if (!fail && node->leaf) {
                if (accumulate && !keep_flow && accumulate_grad(node->leaf, &buf) < 0) fail = 1;
            } else if (!fail && node->f) {
                /* a NotImplemented node raises 1.13's error in either mode */
                if (creating && !tsr__ag_dbl_ok(node->f->key) && strcmp(node->name, "torch::autograd::NotImplemented") &&
                    needs_graph(node, buf)) {
                    tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative of %s (a higher-order gradient, "
                                  "create_graph=True) is not implemented.", node->name);
                    fail = 1;
                } else {
                    node->outg = t->bufs;
                    if (node->f->bw(node, buf, gin) < 0) fail = 1;
                    node->outg = NULL;
                }
                tsr_tensor_release(saved_out);
                saved_out = NULL;
            }
        }
        tsr_tensor_release(buf);
        bufs_free(t);
        if (!fail && run && !node->leaf && !retain_graph) node->released = true;
        for (int i = 0; i < node->nnext; i++) {
            tsr_node *y = node->next[i].node;
            if (!y) {
                tsr_tensor_release(gin[i]);
                continue;
            }
            int k = find(&g, y);
            g.t[k].deps--;
            if (fail || !gin[i]) {
                tsr_tensor_release(gin[i]);
                continue;
            }
            tsr_tensor *v = validate(node, i, gin[i]);
            if (!v || accumulate_nr(&g.t[k], node->next[i].nr, v) < 0) fail = 1;
        }
        if (fail) goto done;
        if (run && !retain_graph && !node->leaf) {
            saved_clear(node);
            if (node->sub) saved_clear(node->sub), node->sub->released = true;
        }
    }
    for (int k = 0; k < ni && capture; k++)
        if (!results[k] && !allow_unused) {
            tsr_error_set(TSR_ERR_RUNTIME, "One of the differentiated Tensors appears to not have been used in the "
                          "graph. Set allow_unused=True if this is the desired behavior.");
            goto done;
        }
    rc = 0;
done:
    for (int i = 0; i < g.n; i++) {
        tsr_tensor_release(g.t[i].buf);
        bufs_free(&g.t[i]);
    }
    tsr_free(g.t);
    for (int k = 0; k < ni && in_nodes; k++) tsr_node_release(in_nodes[k]);
    tsr_free(in_nodes);
    tsr_free(in_nrs);
    if (rc < 0)
        for (int k = 0; k < ni && capture; k++) {
            tsr_tensor_release(results[k]);
            results[k] = NULL;
        }
    return rc;
}

/* ------------------------------------------------------------ indexing */

int tsr_ag_check_setitem(const tsr_tensor *t, const tsr_tensor *value, bool advanced)
{
    const tsr_tensor *b = t->base ? t->base : t;
    if (!grad_off && ((t->requires_grad && tsr_tensor_is_leaf(t)) || (b->requires_grad && tsr_tensor_is_leaf(b)))) {
        tsr_error_set(TSR_ERR_RUNTIME, "a view of a leaf Variable that requires grad is being used in an in-place "
                      "operation.");
        return -1;
    }
    tsr_tensor *ts[3] = {(tsr_tensor *)t, (tsr_tensor *)b, (tsr_tensor *)value};
    if (advanced && t->base && tsr_ag_needed(3, ts)) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for 'index_put_' (an assignment by advanced indexing) "
                      "into a view is not implemented.");
        return -1;
    }
    return 0;
}

int tsr_ag_record_index_put(tsr_tensor *dst, int n, const tsr_sub *items, const tsr_tensor *value)
{
    tsr_tensor *in[2] = {dst, (tsr_tensor *)value};
    if (grad_off || !tsr_ag_needed(2, in)) return 0;
    int nt = 0;
    for (int k = 0; k < n; k++) nt += items[k].kind == TSR_SUB_TENSOR;
    if (6 * n > TSR_MAX_DIMS || nt > 4) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for 'index_put_' with a key of more than %d items or "
                      "more than 4 tensors is not implemented.", TSR_MAX_DIMS / 6);
        return -1;
    }
    tsr_ag_args a = {0};
    a.ndims = n;
    for (int k = 0; k < n; k++) {
        int64_t *e = a.dims + 6 * k;
        e[0] = items[k].kind, e[1] = items[k].i, e[2] = items[k].start, e[3] = items[k].stop, e[4] = items[k].step;
        e[5] = items[k].bare;
    }
    if (tsr_ag_record("index_put_key", 2, in, &a, dst, true) < 0) return -1;
    for (int k = 0; k < n; k++)
        if (items[k].kind == TSR_SUB_TENSOR && tsr_ag_keep(dst, items[k].t) < 0) return -1;
    return 0;
}

int tsr_ag_record_setitem(tsr_tensor *dst, const tsr_tensor *region, const tsr_tensor *value)
{
    tsr_tensor *in[2] = {dst, (tsr_tensor *)value};   /* a number: FillBackward0's None edge */
    int n = 2;
    if (grad_off || !tsr_ag_needed(n, in)) return 0;
    tsr_ag_args a;
    if (view_args(region, dst, &a) < 0) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for 'copy_' into a region of more than %d dims is not "
                      "implemented.", TSR_MAX_DIMS / 3);
        return -1;
    }
    return tsr_ag_record("copy_slices_view", n, in, &a, dst, true);
}

/* applySlicing of 1.13: the basic items' views of x (recorded when
 * record), the tensor items in ix[] at the dims of the result they index
 * (NULL between); *nix their count. NEW reference or NULL. */
tsr_tensor *tsr__ag_slicing(const tsr_tensor *x, int n, const tsr_sub *items, bool record, const tsr_tensor **ix,
                            int *nix)
{
    int consumed = 0;
    for (int i = 0; i < n; i++)
        if (items[i].kind == TSR_SUB_INT || items[i].kind == TSR_SUB_SLICE || items[i].kind == TSR_SUB_TENSOR) consumed++;
    tsr_tensor *cur = tsr_tensor_retain((tsr_tensor *)x);
    int64_t dim = 0;
    *nix = 0;
    for (int i = 0; i < n && cur; i++) {
        tsr_tensor *nx = NULL;
        const tsr_sub *it = &items[i];
        tsr_ag_args a = {0};
        const char *key = NULL;
        switch (it->kind) {
        case TSR_SUB_INT:
            a.i0 = dim;
            a.i1 = it->i < 0 ? it->i + cur->sizes[dim] : it->i;
            nx = tsr_view_select(cur, dim, it->i);
            key = "select";
            break;
        case TSR_SUB_SLICE: {
            if (!it->bare && it->start == 0 && it->stop == cur->sizes[dim] && it->step == 1) {
                dim++;
                continue;
            }
            nx = tsr_view_slice(cur, dim, it->start, it->stop, it->step);
            if (!nx) break;
            int64_t st = cur->strides[dim] ? (nx->storage_offset - cur->storage_offset) / cur->strides[dim] : 0;
            if (cur->sizes[dim] == 0 || nx->sizes[dim] == 0) st = 0;
            a.i0 = dim;
            a.i1 = st;
            a.dims[0] = st + (nx->sizes[dim] ? (nx->sizes[dim] - 1) * it->step + 1 : 0);
            a.dims[1] = it->step;
            a.i2 = 1;
            key = "slice";
            dim++;
            break;
        }
        case TSR_SUB_NONE:
            a.i0 = dim;
            nx = tsr_view_unsqueeze(cur, dim);
            key = "unsqueeze";
            dim++;
            break;
        case TSR_SUB_ELLIPSIS:
            dim += x->ndim - consumed;
            continue;
        case TSR_SUB_TENSOR:
            while (*nix < dim) ix[(*nix)++] = NULL;
            ix[(*nix)++] = it->t;
            dim++;
            continue;
        default:
            break;
        }
        if (!nx || !key || (record && tsr_ag_record(key, 1, &cur, &a, nx, false) < 0)) {
            if (!nx && !key && !tsr_error_kind()) tsr_error_set(TSR_ERR_RUNTIME, "tsr: bad index item");
            tsr_tensor_release(nx);
            tsr_tensor_release(cur);
            return NULL;
        }
        tsr_tensor_release(cur);
        cur = nx;
    }
    return cur;
}

tsr_tensor *tsr_ag_subscript(const tsr_tensor *self, int n, const tsr_sub *items)
{
    if (self->sparse) {   /* ints select (SelectBackward0, whose backward 1.13 has no sparse kernel for) */
        tsr_tensor *r = tsr_sparse_subscript(self, n, items), *x = (tsr_tensor *)self;
        if (!r || r == x || !tsr_ag_needed(1, &x) || !(tsr_dtype_is_floating(r->dtype) || tsr_dtype_is_complex(r->dtype)))
            return r;
        bool ints = true;
        for (int i = 0; i < n; i++) ints &= items[i].kind == TSR_SUB_INT;
        if (!ints) {
            tsr_tensor_release(r);
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "tsr: the derivative of indexing a sparse tensor other than by "
                          "integers is not implemented");
            return NULL;
        }
        if (tsr_ag_record("select_sparse", 1, &x, NULL, r, false) < 0) {
            tsr_tensor_release(r);
            return NULL;
        }
        return r;
    }
    tsr_tensor *r = tsr_subscript(self, n, items);
    tsr_tensor *x = (tsr_tensor *)self;
    if (!r || !tsr_ag_needed(1, &x) || !(tsr_dtype_is_floating(r->dtype) || tsr_dtype_is_complex(r->dtype))) return r;
    bool adv = false, basic = false;
    for (int i = 0; i < n; i++) {
        if (items[i].kind == TSR_SUB_TENSOR && items[i].t->ndim > 0) adv = true;
        else if (items[i].kind == TSR_SUB_TENSOR || items[i].kind == TSR_SUB_BOOL) basic = adv = true;
        else if (items[i].kind != TSR_SUB_ELLIPSIS) basic = true;
    }
    tsr_ag_args a = {0};
    if (adv) {
        tsr_tensor *in[TSR_AG_MAXIN] = {x};
        int k = 1;
        bool ok = !basic;
        for (int i = 0; ok && i < n; i++) {
            if (k == TSR_AG_MAXIN || (items[i].kind == TSR_SUB_TENSOR && items[i].t->dtype == TSR_BOOL && n > 1)) ok = false;
            else in[k++] = (tsr_tensor *)items[i].t;
        }
        if (!ok && basic && tsr__ag_mixed_key(n, items)) return tsr__ag_subscript_mixed(x, n, items, r);
        if (!ok) {
            tsr_tensor_release(r);
            tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for 'index' mixing basic and advanced indices is "
                          "not implemented.");
            return NULL;
        }
        if (tsr_ag_record("index", k, in, &a, r, false) < 0) {
            tsr_tensor_release(r);
            return NULL;
        }
        return r;
    }
    /* basic indexing, one view per item as applySlicing makes them */
    const tsr_tensor *ix[TSR_MAX_DIMS + 1];
    int nix = 0;
    tsr_tensor *cur = tsr__ag_slicing(x, n, items, true, ix, &nix);
    if (!cur) {
        tsr_tensor_release(r);
        return NULL;
    }
    if (cur == x) {   /* x[...]: 1.13 answers an alias (AliasBackward0) */
        tsr_tensor_release(cur);
        if (tsr_ag_record("alias", 1, &x, &a, r, false) < 0) {
            tsr_tensor_release(r);
            return NULL;
        }
        return r;
    }
    tsr_tensor_release(r);
    return cur;
}

int tsr_ag_record_part(tsr_tensor *x, tsr_tensor *r, bool imag)
{
    tsr_ag_args a = {0};
    tsr_tensor *v = tsr_view_as_real(x);
    if (!v) return -1;
    if (tsr_ag_record("view_as_real", 1, &x, &a, v, false) < 0) {
        tsr_tensor_release(v);
        return -1;
    }
    a.i0 = v->ndim - 1;
    a.i1 = imag;
    a.i2 = 0;
    int rc = tsr_ag_record("select", 1, &v, &a, r, false);
    tsr_tensor_release(v);
    return rc;
}
