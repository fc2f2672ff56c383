/* runtime/autograd.h — reverse-mode autograd: graph nodes named as 1.13's
 * (MulBackward0, AccumulateGrad, ...), the engine that runs backward() and
 * autograd.grad(), grad mode, version counters and tensor hooks.
 * The engine knows nothing of the language: a hook is a callback plus its
 * closure. Ownership: functions returning tsr_tensor* / tsr_node* return NEW
 * references; arguments are borrowed; NULL/-1 means an error is recorded. */
#ifndef TSR_AUTOGRAD_H
#define TSR_AUTOGRAD_H
#include <stdbool.h>
#include <stdint.h>
#include "autograd_node.h"
#include "ops/advindex.h"
#include "tensor.h"

/* ---- grad mode (torch.is_grad_enabled, no_grad, inference_mode) ---- */
bool tsr_grad_enabled(void);
void tsr_set_grad_enabled(bool on);
bool tsr_inference_mode(void);
void tsr_set_inference_mode(bool on);

/* ---- per-tensor state ---- */
/* The node that made t (a new reference), or NULL for a leaf / a tensor
 * that does not require grad. */
tsr_node *tsr_tensor_grad_fn(const tsr_tensor *t);
/* -1 with 1.13's error where reading t.grad_fn raises: an output of a
 * multi-output node (split, unbind) whose base was changed in place. */
int tsr_tensor_grad_fn_check(const tsr_tensor *t);
/* t.is_leaf: no grad_fn. */
bool tsr_tensor_is_leaf(const tsr_tensor *t);
/* Which output of its grad_fn t is (0 for a leaf). */
int tsr_tensor_output_nr(const tsr_tensor *t);
/* numbers t as output nr of its grad_fn (a node that 1.13 makes with more
 * outputs than the op returns: linalg_svdvals' S is output 1) */
void tsr_ag_set_output_nr(tsr_tensor *t, int nr);
/* t.requires_grad: the flag, or a grad_fn. */
bool tsr_tensor_requires_grad(const tsr_tensor *t);
/* t.grad: a new reference or NULL (None); no error either way. */
tsr_tensor *tsr_tensor_grad(const tsr_tensor *t);
/* t.grad = g (NULL: None). 0, or -1 with 1.13's "assigned grad has data of
 * a different size" / "assigned grad has data of a different type". */
int tsr_tensor_set_grad(tsr_tensor *t, tsr_tensor *g);
/* t.requires_grad = on as the attribute or requires_grad_() (method):
 * a non-leaf refuses off with 1.13's message; dtype checks as
 * tsr_tensor_set_requires_grad. */
int tsr_autograd_set_requires_grad(tsr_tensor *t, bool on, bool method);
/* t.retain_grad(): 0 (a leaf: nothing), or -1 with "can't retain_grad on
 * Tensor that has requires_grad=False". */
int tsr_tensor_retain_grad(tsr_tensor *t);
bool tsr_tensor_retains_grad(const tsr_tensor *t);
/* t._version */
int64_t tsr_tensor_version(const tsr_tensor *t);
/* Counts an in-place write of t (every view of its storage sees it). */
void tsr_tensor_bump_version(tsr_tensor *t);
/* x.data = y: dst (a new header over y's data) takes src's autograd state
 * (requires_grad, .grad, hooks, grad_fn); -1 with 1.13's "data set to a
 * tensor that requires gradients must be floating point or complex dtype"
 * when dst's dtype cannot require grad. */
int tsr_autograd_move(tsr_tensor *src, tsr_tensor *dst);
/* t.detach(): a new header on t's storage with no autograd state. */
tsr_tensor *tsr_autograd_detach(const tsr_tensor *t);
/* t.detach_(): drops t's grad_fn and requires_grad. -1 for a view:
 * "Can't detach views in-place. Use detach() instead. ..." */
int tsr_autograd_detach_(tsr_tensor *t);

/* A hook: called with the gradient flowing into t; returns a replacement
 * (a new reference), or NULL with *failed 0 to keep the gradient, or NULL
 * with *failed 1 when it raised (the caller's own error state). drop frees
 * the closure. */
typedef tsr_tensor *(*tsr_grad_hook)(void *closure, const tsr_tensor *grad, int *failed);
/* t.register_hook(fn): 0, or -1 with "cannot register a hook on a tensor
 * that doesn't require gradient". The closure is owned from then on. *id
 * receives the handle's id. */
int tsr_tensor_register_hook(tsr_tensor *t, tsr_grad_hook fn, void *closure, void (*drop)(void *), int64_t *id);
/* handle.remove(). */
void tsr_tensor_remove_hook(tsr_tensor *t, int64_t id);

/* ---- recording (called by the language's call path after an op ran) ---- */


/* Any input needs a graph: grad mode on and one of in[0..n-1] requires grad. */
bool tsr_ag_needed(int n, tsr_tensor *const *in);
/* Records out = formula(in...) with args: out gets a grad_fn whose next
 * edges are in's. formula: a key of the formula table (autograd_fn.c:
 * "mul", "sum", "view", ...). An unknown formula records 1.13's
 * NotImplementedError "the derivative for 'name' is not implemented." and
 * returns -1. inplace: out is in[0] written in place (a leaf refuses).
 * Non-floating outputs are left alone. 0 or -1. */
int tsr_ag_record(const char *formula, int n, tsr_tensor *const *in, const tsr_ag_args *args, tsr_tensor *out,
                  bool inplace);
/* Keeps x (indices of max(dim)) with out's grad_fn for its formula. 0 or -1. */
int tsr_ag_keep(tsr_tensor *out, const tsr_tensor *x);
/* An in-place activation: x (already written) recorded as formula over
 * itself, old a copy of x's values before the op (borrowed). A formula of
 * self saves old as 1.13 saves self.clone() (CloneBackward0 over x's
 * history before the op, so create_graph differentiates through it); a
 * formula of the result saves x. old is also kept as the node's extra[0].
 * 0 or -1. */
int tsr_ag_record_inplace_act(const char *formula, tsr_tensor *x, const tsr_ag_args *args, tsr_tensor *old);
/* Records one node of formula with nout outputs (1.13's multi-output
 * nodes: split, unbind), outs[k] its output k; input in. 0 or -1. */
/* The *_copy functions of 1.13 (expand_copy, split_copy, ...): copy, a new
 * tensor holding the values of view (a view op's result with its grad_fn),
 * takes view's grad_fn and output number; the node is renamed
 * "<name>_copy" ("ExpandBackward0_copy") as 1.13's view-copy nodes are
 * named. Nothing happens when view has no grad_fn. 0 or -1. */
int tsr_ag_view_to_copy(tsr_tensor *view, tsr_tensor *copy);
/* x.real / x.imag of a complex x that needs a graph, as 1.13 records them:
 * select(view_as_real(x), -1, 0 or 1) (ViewAsRealBackward0 under
 * SelectBackward0) onto r, the part's view. 0 or -1. */
int tsr_ag_record_part(tsr_tensor *x, tsr_tensor *r, bool imag);
int tsr_ag_record_multi(const char *formula, tsr_tensor *in, const tsr_ag_args *args, int nout, tsr_tensor *const *outs);
/* One node of formula over in[0..n) with nout outputs outs[k] (1.13's
 * multi-output nodes with saved tensors: var_mean, std_mean); its backward
 * gets each output's gradient. 0 or -1. */
int tsr_ag_record_outs(const char *formula, int n, tsr_tensor *const *in, const tsr_ag_args *args, int nout,
                       tsr_tensor *const *outs);
/* The checks of an in-place write of t before it happens: a leaf that
 * requires grad (grad mode on) refuses with 1.13's message. 0 or -1. */
int tsr_ag_check_inplace(const tsr_tensor *t);
/* self[items] as tsr_subscript, recording 1.13's chain: one SelectBackward0 /
 * SliceBackward0 / UnsqueezeBackward0 per item (applySlicing), or one
 * IndexBackward0 for advanced indices. NEW reference or NULL. */
tsr_tensor *tsr_ag_subscript(const tsr_tensor *self, int n, const tsr_sub *items);
/* The checks of self[...] = value before it writes: "a view of a leaf
 * Variable that requires grad is being used in an in-place operation.", and
 * NotImplementedError for a graph through an assignment tsr cannot record
 * (advanced: by an advanced-indexing key). 0 or -1. */
/* The copy of an in-place op's self made before the op (NULL: none), which
 * the next in-place record saves where its formula needs self; the binding
 * sets it before the op and clears it after the record. */
void tsr_ag_inplace_old(tsr_tensor *old);
int tsr_ag_check_setitem(const tsr_tensor *t, const tsr_tensor *value, bool advanced);
/* After t[key] = value (value NULL for a number): records 1.13's
 * CopySlices on dst (t, or t's base when t is a view) when dst or value
 * needs a gradient. region: the view t[key] of a basic key
 * (tsr_ag_check_setitem refused the others). 0 or -1. */
/* After t[items] = value by a key with advanced indices (value NULL for a
 * number): records 1.13's IndexPutBackward0 on t (not a view). 0 or -1. */
int tsr_ag_record_index_put(tsr_tensor *t, int n, const tsr_sub *items, const tsr_tensor *value);
int tsr_ag_record_setitem(tsr_tensor *dst, const tsr_tensor *region, const tsr_tensor *value);
/* Whether the formula table knows formula. */
bool tsr_ag_has_formula(const char *formula);

/* ---- nodes ---- */
tsr_node *tsr_node_retain(tsr_node *n);
void tsr_node_release(tsr_node *n);
/* "MulBackward0", "AccumulateGrad" */
const char *tsr_node_name(const tsr_node *n);
/* grad_fn.next_functions: the number of edges and edge i's node (a new
 * reference, NULL for an input that needs no grad) and input number; as in
 * 1.13, an input that is not differentiable (an index, a mask) has no edge. */
int tsr_node_num_next(const tsr_node *n);
tsr_node *tsr_node_next(const tsr_node *n, int i, int *input_nr);
/* AccumulateGrad.variable: the leaf (new reference), else NULL. */
tsr_tensor *tsr_node_variable(const tsr_node *n);
/* For :grad's drawing: the shapes of the tensors node n saved (up to max)
 * into nd[k] / sizes[k]; returns how many. */
int tsr_node_saved_shapes(const tsr_node *n, int max, int *nd, int64_t (*sizes)[TSR_MAX_DIMS]);
/* The gradient that last flowed into n (a new reference) when the engine
 * ran with keep_flow, else NULL. */
tsr_tensor *tsr_node_last_grad(const tsr_node *n);

/* ---- the engine ---- */
/* outputs[k].backward(grads[k]) for k < n (grads[k] NULL: implicit ones,
 * only for one-element outputs: "grad can be implicitly created only for
 * scalar outputs"). inputs (ni > 0): autograd.grad — the gradients of the
 * inputs are returned in results[] (new references, NULL when unused and
 * allow_unused) and nothing accumulates into .grad. flags:
 * TSR_AG_KEEP_FLOW remembers the gradient flowing through each node (the
 * :grad view); TSR_AG_CREATE_GRAPH records the backward itself (1.13's
 * create_graph: the gradients and .grad carry a graph; a formula tsr
 * cannot record refuses with NotImplementedError naming its node). Grad
 * mode is on during the run only with TSR_AG_CREATE_GRAPH (hooks run
 * under it). 0 or -1. */
#define TSR_AG_KEEP_FLOW 1u
#define TSR_AG_CREATE_GRAPH 2u
int tsr_autograd_run(int n, tsr_tensor *const *outputs, tsr_tensor *const *grads, bool retain_graph,
                     int ni, tsr_tensor *const *inputs, bool allow_unused, tsr_tensor **results, unsigned flags);
/* outputs[k].backward(grads[k], inputs=inputs): each input is retained
 * (retain_grad: "can't retain_grad on Tensor that has requires_grad=False")
 * and only the inputs' .grad accumulate; only the nodes on a path to an
 * input run. 0 or -1. */
int tsr_autograd_backward_inputs(int n, tsr_tensor *const *outputs, tsr_tensor *const *grads, bool retain_graph,
                                 int ni, tsr_tensor *const *inputs, bool create_graph);

#endif
