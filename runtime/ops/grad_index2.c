/* runtime/ops/grad_index2.c — index_put's function form backward and the
 * graph of mixed basic + advanced indexing, as 1.13 records them
 * (grad_index2.h). */
#include "grad_index2.h"
#include "autograd.h"
#include "autograd_formula.h"
#include <string.h>
#include "error.h"
#include "ops/copy.h"
#include "ops/factory.h"
#include "view.h"

int tsr__bw_index_put_fn(tsr_node *n, const tsr_tensor *g, tsr_tensor **gin)
{
    const tsr_tensor *ix[TSR_MAX_DIMS] = {0};
    int ni = (int)n->a.i0, k = 0;
    for (int i = 0; i < ni; i++)
        if (n->a.i1 & (1 << i)) ix[i] = n->extra[k++];
    return tsr__bw_index_put_tensors(n, g, ni, ix, n->a.flag, gin);
}

int tsr__bw_index_put_tensors(tsr_node *n, const tsr_tensor *g, int ni, const tsr_tensor *const *ix, bool accumulate,
                              tsr_tensor **gin)
{
    F c0 = {0}, *c = &c0;
    if (n->released) {
        SAVED(TSR_AG_OUT);
        c->fail = true;
        return finish(c, n, gin);
    }
    if (NEED(0)) {
        if (accumulate) {
            give(c, gin, 0, (tsr_tensor *)g);
        } else {   /* grad.index_put(indices, zeros_like(values), false): IndexPutBackward0 with create_graph */
            tsr_tensor *z = keep(c, tsr_zeros(n->in_nd[1], n->in_sizes[1], g->dtype, g->device));
            tsr_tensor *r = c->fail ? NULL : keep(c, tsr_index_put(g, ni, ix, z, false));
            if (r && tsr__ag_creating() && tsr__ag_record_index_put_fn((tsr_tensor *)g, ni, ix, z, false, r, false) < 0)
                c->fail = true;
            give(c, gin, 0, r);
        }
    }
    if (NEED(1) && !c->fail) {   /* grad.index(indices): IndexBackward0 with create_graph */
        tsr_tensor *r = keep(c, tsr_index(g, ni, ix));
        if (r && tsr__ag_creating()) {
            const tsr_tensor *in[TSR_AG_MAXIN] = {g};
            if (ni + 1 > TSR_AG_MAXIN) {
                tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "create_graph=True: the derivative of IndexPutBackward0 with %d "
                              "indices is not implemented.", ni);
                c->fail = true;
            }
            for (int i = 0; i < ni && !c->fail; i++) in[i + 1] = ix[i];
            if (!c->fail) record_on(c, r, "index", ni + 1, in, NULL);
        }
        give(c, gin, 1, r);
    }
    return finish(c, n, gin);
}

int tsr__ag_record_index_put_fn(tsr_tensor *self, int n, const tsr_tensor *const *indices, const tsr_tensor *values,
                                bool accumulate, tsr_tensor *out, bool inplace)
{
    tsr_tensor *in[2] = {self, (tsr_tensor *)values};
    if (!tsr_ag_needed(2, in)) return 0;
    int nt = 0;
    for (int i = 0; i < n; i++) nt += indices[i] != NULL;
    if (nt > 4 || n > 30) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for 'index_put' with more than 4 index tensors is not "
                      "implemented.");
        return -1;
    }
    tsr_ag_args a = {0};
    a.ndims = -1;
    a.i0 = n;
    a.flag = accumulate;
    for (int i = 0; i < n; i++)
        if (indices[i]) a.i1 |= 1 << i;
    if (tsr_ag_record("index_put_fn", 2, in, &a, out, inplace) < 0) return -1;
    tsr_tensor *holder = inplace && out->base ? out->base : out;   /* a view: CopySlices' op node */
    for (int i = 0; i < n; i++)
        if (indices[i] && tsr_ag_keep(holder, indices[i]) < 0) return -1;
    return 0;
}

static bool is_adv(const tsr_sub *it) { return it->kind == TSR_SUB_TENSOR && it->t->ndim > 0 && it->t->dtype != TSR_BOOL; }

bool tsr__ag_mixed_key(int n, const tsr_sub *items)
{
    bool adv = false, basic = false;
    for (int i = 0; i < n; i++) {
        if (is_adv(&items[i])) adv = true;
        else if (items[i].kind == TSR_SUB_TENSOR || items[i].kind == TSR_SUB_BOOL) return false;
        else if (items[i].kind != TSR_SUB_ELLIPSIS) basic = true;
    }
    return adv && basic;
}

bool tsr__ag_slicing_key(int n, const tsr_sub *items)
{
    bool adv = false;
    for (int i = 0; i < n; i++) {
        if (is_adv(&items[i])) adv = true;
        else if (items[i].kind == TSR_SUB_TENSOR || items[i].kind == TSR_SUB_BOOL) return false;
    }
    return adv;
}

tsr_tensor *tsr__ag_subscript_mixed(const tsr_tensor *self, int n, const tsr_sub *items, tsr_tensor *r)
{
    const tsr_tensor *ix[TSR_MAX_DIMS + 1];
    int nix = 0;
    if (n > TSR_MAX_DIMS) {
        tsr_tensor_release(r);
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for 'index' by more than %d items is not implemented.",
                      TSR_MAX_DIMS);
        return NULL;
    }
    tsr_tensor *cur = tsr__ag_slicing(self, n, items, true, ix, &nix);
    if (!cur) {
        tsr_tensor_release(r);
        return NULL;
    }
    tsr_tensor *in[TSR_AG_MAXIN] = {cur};
    int k = 1;
    for (int i = 0; i < nix && k < TSR_AG_MAXIN; i++) in[k++] = (tsr_tensor *)ix[i];
    tsr_ag_args a = {0};
    int rc = nix + 1 > TSR_AG_MAXIN ? -1 : tsr_ag_record("index", k, in, &a, r, false);
    if (nix + 1 > TSR_AG_MAXIN)
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for 'index' by more than %d items is not implemented.",
                      TSR_AG_MAXIN - 1);
    tsr_tensor_release(cur);
    if (rc < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

int tsr__ag_record_setitem_mixed(tsr_tensor *self, int n, const tsr_sub *items, const tsr_tensor *value)
{
    const tsr_tensor *ix[TSR_MAX_DIMS + 1];
    int nix = 0;
    tsr_tensor *in[2] = {self, (tsr_tensor *)value};
    if (!tsr_ag_needed(2, in)) return 0;
    if (n > TSR_MAX_DIMS) {
        tsr_error_set(TSR_ERR_NOT_IMPLEMENTED, "the derivative for 'index_put_' by more than %d items is not "
                      "implemented.", TSR_MAX_DIMS);
        return -1;
    }
    tsr_tensor *region = tsr__ag_slicing(self, n, items, true, ix, &nix);
    if (!region) return -1;
    tsr_tensor *v = (tsr_tensor *)value, *z = NULL;
    if (!v && !(v = z = tsr_zeros(0, NULL, self->dtype, TSR_CPU))) {   /* a number: no edge */
        tsr_tensor_release(region);
        return -1;
    }
    int rc = tsr__ag_record_index_put_fn(region, nix, ix, v, false, region, true);
    tsr_tensor_release(z);
    tsr_tensor_release(region);
    return rc;
}
