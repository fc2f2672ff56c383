/* src/bind/index.c — the indexing functions as binding-table rows:
 * index_select, gather, scatter, scatter_add, take, masked_select, nonzero,
 * argwhere, index_put, index_add, index_copy, index_fill, put, masked_scatter.
 * The rules are the runtime's (runtime/ops/scatter.c,
 * runtime/ops/advindex.c); handlers only read arguments and wrap results. */
#include <string.h>

#include "bind/areas.h"
#include "bind/ops.h"
#include "bind/table.h"
#include "bind/tensor.h"
#include "ops/search.h"

typedef enum {
    K_INDEX_SELECT, K_GATHER, K_SCATTER, K_SCATTER_ADD, K_TAKE, K_MASKED_SELECT, K_NONZERO, K_ARGWHERE, K_INDEX_PUT,
    K_INDEX_ADD, K_INDEX_COPY, K_INDEX_FILL, K_PUT, K_MASKED_SCATTER, K_SCATTER_REDUCE, K_INDEX_REDUCE, K_SEARCHSORTED, K_BUCKETIZE,
    K_ISIN, K_TAKE_ALONG_DIM, K_SUM_TO_SIZE,
} Kind;

/* r into out= (resized as PyTorch's resize_output, then copied), or r. */
static Value *finish(tsr_tensor *r, Value *outv)
{
    if (!r) return bind_runtime_error();
    if (!outv) return v_tensor(r);
    tsr_tensor *out = tensor_of(outv);
    int e = tsr_resize_output(out, r->ndim, r->sizes) < 0 ? -1 : tsr_copy_(out, r);
    tsr_tensor_release(r);
    if (e < 0) return bind_runtime_error();
    ops_warn();
    return incref(outv);
}

/* A tuple of the columns of nonzero(c) (torch.nonzero(as_tuple=True)). */
static Value *nonzero_tuple(tsr_tensor *c)
{
    tsr_tensor *cols[TSR_MAX_DIMS];
    int nd;
    if (tsr_nonzero_tuple(c, &nd, cols) < 0) return bind_runtime_error();
    Value *tup = v_tuple((size_t)nd);
    for (int d = 0; d < nd; d++) tup->u.seq.items[d] = v_tensor(cols[d]);
    return tup;
}

static Value *run_scatter(const BindRow *row, const char *fname, BindArgs *b, tsr_tensor *t, int64_t d, bool inplace)
{
    Value *srcv = bind_table_arg(b, "src"), *valv = bind_table_arg(b, "value"), *redv = bind_table_arg(b, "reduce");
    tsr_tensor *index = tensor_of(b->v[2]);
    tsr_scatter_reduce red = row->kind == K_SCATTER_ADD ? TSR_SCATTER_ADD : TSR_SCATTER_NONE;
    tsr_scalar s;
    if (redv && tsr_scatter_reduce_of(redv->u.s.p, &red) < 0) return bind_runtime_error();
    if (valv && bind_scalar(valv, fname, "value", &s) < 0) return NULL;
    const tsr_tensor *src = srcv ? tensor_of(srcv) : NULL;
    if (inplace) {
        if (tsr_scatter_(t, d, index, src, src ? NULL : &s, red) < 0) return bind_runtime_error();
        return incref(b->v[0]);
    }
    return finish(tsr_scatter(t, d, index, src, src ? NULL : &s, red), b->v[BIND_OUT]);
}

static Value *run_index_put(BindArgs *b, bool inplace)
{
    tsr_tensor *t = tensor_of(b->v[0]);
    Value *list = b->v[1];
    int n = (int)list->u.seq.n;
    if (n > TSR_MAX_DIMS) n = TSR_MAX_DIMS + 1;
    const tsr_tensor *ix[TSR_MAX_DIMS + 1];
    for (int i = 0; i < n; i++) ix[i] = is_none(list->u.seq.items[i]) ? NULL : tensor_of(list->u.seq.items[i]);
    Value *acc = b->v[3];
    bool accumulate = acc && acc->u.i;
    if (inplace) {
        if (tsr_index_put_(t, n, ix, tensor_of(b->v[2]), accumulate) < 0) return bind_runtime_error();
        return incref(b->v[0]);
    }
    return v_tensor(tsr_index_put(t, n, ix, tensor_of(b->v[2]), accumulate));
}

/* index_add, index_copy, index_fill: slices of self along d picked by index. */
static Value *run_index_dim(const BindRow *row, const char *fname, BindArgs *b, tsr_tensor *t, int64_t d, bool inplace)
{
    tsr_tensor *index = tensor_of(b->v[2]), *r = NULL;
    Value *v3 = b->v[3], *alphav = bind_table_arg(b, "alpha");
    tsr_scalar s = tsr_scalar_int(1);
    int e = 0;
    if (row->kind == K_INDEX_ADD) {
        if (alphav && bind_scalar(alphav, fname, "alpha", &s) < 0) return NULL;
        if (inplace) e = tsr_index_add_(t, d, index, tensor_of(v3), s);
        else r = tsr_index_add(t, d, index, tensor_of(v3), s);
    } else if (row->kind == K_INDEX_COPY) {
        if (inplace) e = tsr_index_copy_(t, d, index, tensor_of(v3));
        else r = tsr_index_copy(t, d, index, tensor_of(v3));
    } else {
        const tsr_tensor *vt = is_tensor(v3) ? tensor_of(v3) : NULL;
        if (!vt && bind_scalar(v3, fname, "value", &s) < 0) return NULL;
        if (inplace) e = tsr_index_fill_(t, d, index, s, vt);
        else r = tsr_index_fill(t, d, index, s, vt);
    }
    if (inplace) return e < 0 ? bind_runtime_error() : incref(b->v[0]);
    return finish(r, row->kind == K_INDEX_FILL ? NULL : b->v[BIND_OUT]);
}

static bool flag(BindArgs *b, const char *name)
{
    Value *v = bind_table_arg(b, name);
    return v && v->u.i;
}

/* A Tensor-or-Number argument as a runtime operand (a number is wrapped). */
static int operand_of(Value *v, const char *fname, const char *pname, tsr_operand *o)
{
    if (is_tensor(v)) { *o = tsr_operand_tensor(tensor_of(v)); return 0; }
    tsr_scalar s;
    if (bind_scalar(v, fname, pname, &s) < 0) return -1;
    *o = tsr_operand_scalar(s);
    return 0;
}

/* searchsorted, bucketize, isin, take_along_dim, sum_to_size: the runtime's
 * functions hand back out itself when out= is given. */
static Value *run_search(const BindRow *row, const char *fname, BindArgs *b)
{
    Value *outv = b->v[BIND_OUT];
    tsr_tensor *out = outv ? tensor_of(outv) : NULL, *r = NULL;
    tsr_operand a, c;
    switch ((Kind)row->kind) {
    case K_SEARCHSORTED: {
        if (operand_of(b->v[1], fname, "self", &a) < 0) return NULL;
        Value *side = bind_table_arg(b, "side"), *sorter = bind_table_arg(b, "sorter");
        r = tsr_searchsorted(tensor_of(b->v[0]), &a, flag(b, "out_int32"), flag(b, "right"),
                             side ? side->u.s.p : NULL, sorter ? tensor_of(sorter) : NULL, out);
        break;
    }
    case K_BUCKETIZE:
        if (operand_of(b->v[0], fname, "self", &a) < 0) return NULL;
        r = tsr_bucketize(&a, tensor_of(b->v[1]), flag(b, "out_int32"), flag(b, "right"), out);
        break;
    case K_ISIN:
        if (operand_of(b->v[0], fname, "element", &a) < 0 || operand_of(b->v[1], fname, "test_element", &c) < 0)
            return NULL;
        r = tsr_isin(&a, &c, flag(b, "assume_unique"), flag(b, "invert"), out);
        break;
    case K_TAKE_ALONG_DIM: {
        int64_t d = 0;
        bool has = b->v[2] != NULL;
        if (has && bind_table_int(b, 2, 0, &d) < 0) return NULL;
        r = tsr_take_along_dim(tensor_of(b->v[0]), tensor_of(b->v[1]), has, d, out);
        break;
    }
    default: { /* K_SUM_TO_SIZE */
        int64_t size[TSR_MAX_DIMS + 1];
        int n;
        if (bind_table_intlist(b, 1, fname, size, TSR_MAX_DIMS + 1, &n) < 0) return NULL;
        tsr_tensor *t = tensor_of(b->v[0]);
        r = tsr_sum_to_size(t, n, size);
        if (r == t) { tsr_tensor_release(r); return incref(b->v[0]); } /* sum_to returns self */
        break;
    }
    }
    if (!r) return bind_runtime_error();
    if (out) ops_warn();
    if (out && r == out) { tsr_tensor_release(r); return incref(outv); }
    return v_tensor(r);
}

/* The handler of every row of this area. */
static Value *index_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)self;
    tsr_tensor *t = tensor_of(b->v[0]);
    int64_t d = 0;
    bool dim_rows = row->kind <= K_SCATTER_ADD || row->kind == K_INDEX_ADD || row->kind == K_INDEX_COPY;
    if (dim_rows && b->v[1] && b->v[1]->type == &t_str) /* 1.13's reportNYIDimnameOverload */
        return exc_set("RuntimeError", "%s: You passed a dimname (string) to this op in place of a dimension index but "
                       "it does not yet support this behavior. Please pass a dimension index to work around this.",
                       row->name);
    switch ((Kind)row->kind) {
    case K_INDEX_SELECT:
        if (bind_table_dim(b, 1, t, 0, &d) < 0) return NULL;
        return finish(tsr_index_select(t, d, tensor_of(b->v[2])), b->v[BIND_OUT]);
    case K_GATHER:
        if (bind_table_dim(b, 1, t, 0, &d) < 0) return NULL;
        if (b->v[BIND_OUT]) {
            tsr_tensor *r = tsr_gather_out(t, d, tensor_of(b->v[2]), tensor_of(b->v[BIND_OUT]));
            if (!r) return bind_runtime_error();
            tsr_tensor_release(r);
            ops_warn();
            return incref(b->v[BIND_OUT]);
        }
        return finish(tsr_gather(t, d, tensor_of(b->v[2])), NULL);
    case K_SCATTER: case K_SCATTER_ADD:
        if (bind_table_dim(b, 1, t, 0, &d) < 0) return NULL;
        return run_scatter(row, fname, b, t, d, inplace);
    case K_SCATTER_REDUCE: {
        if (bind_table_dim(b, 1, t, 0, &d) < 0) return NULL;
        Value *inc = bind_table_arg(b, "include_self");
        bool include_self = !inc || inc->u.i;
        const char *red = b->v[4]->u.s.p;
        if (inplace) {
            if (tsr_scatter_reduce_two_(t, d, tensor_of(b->v[2]), tensor_of(b->v[3]), red, include_self) < 0)
                return bind_runtime_error();
            return incref(b->v[0]);
        }
        return finish(tsr_scatter_reduce_two(t, d, tensor_of(b->v[2]), tensor_of(b->v[3]), red, include_self),
                      b->v[BIND_OUT]);
    }
    case K_INDEX_REDUCE: {   /* 1.13 warns once that it is in beta */
        static bool warned;
        if (!warned && !bind_warnings_ignored())
            fprintf(stderr, "UserWarning: index_reduce() is in beta and the API may change at any time. (Triggered "
                            "internally at  ./aten/src/ATen/native/TensorAdvancedIndexing.cpp:1008.)\n");
        warned = true;
        Value *inc = bind_table_arg(b, "include_self");
        bool include_self = !inc || inc->u.i;
        const char *red = b->v[4]->u.s.p;
        if (bind_table_dim(b, 1, t, 0, &d) < 0) return NULL;
        if (inplace) {
            if (tsr_index_reduce_(t, d, tensor_of(b->v[2]), tensor_of(b->v[3]), red, include_self) < 0)
                return bind_runtime_error();
            return incref(b->v[0]);
        }
        return finish(tsr_index_reduce(t, d, tensor_of(b->v[2]), tensor_of(b->v[3]), red, include_self),
                      b->v[BIND_OUT]);
    }
    case K_SEARCHSORTED: case K_BUCKETIZE: case K_ISIN: case K_TAKE_ALONG_DIM: case K_SUM_TO_SIZE:
        return run_search(row, fname, b);
    case K_TAKE: return finish(tsr_take(t, tensor_of(b->v[1])), b->v[BIND_OUT]);
    case K_MASKED_SELECT: return finish(tsr_masked_select(t, tensor_of(b->v[1])), b->v[BIND_OUT]);
    case K_NONZERO: {
        Value *as_tuple = bind_table_arg(b, "as_tuple");
        if (as_tuple && as_tuple->u.i) return nonzero_tuple(t);
        return finish(tsr_nonzero(t), b->v[BIND_OUT]);
    }
    case K_ARGWHERE: return v_tensor(tsr_nonzero(t));
    case K_INDEX_PUT: return run_index_put(b, inplace);
    case K_INDEX_ADD: case K_INDEX_COPY: case K_INDEX_FILL:
        if (bind_table_dim(b, 1, t, 0, &d) < 0) return NULL;
        return run_index_dim(row, fname, b, t, d, inplace);
    case K_PUT: case K_MASKED_SCATTER: {
        tsr_tensor *a1 = tensor_of(b->v[1]), *a2 = tensor_of(b->v[2]);
        bool acc = row->kind == K_PUT && b->v[3] && b->v[3]->u.i;
        if (inplace) {
            int r = row->kind == K_PUT ? tsr_put_(t, a1, a2, acc) : tsr_masked_scatter_(t, a1, a2);
            return r < 0 ? bind_runtime_error() : incref(b->v[0]);
        }
        return v_tensor(row->kind == K_PUT ? tsr_put(t, a1, a2, acc) : tsr_masked_scatter(t, a1, a2));
    }
    }
    return exc_set("RuntimeError", "internal error: index kind %d", row->kind);
}

#define FM (BIND_FN | BIND_METHOD)
#define FMI (BIND_FN | BIND_METHOD | BIND_INPLACE)
#define ROW(n, k, fl, s) {.name = n, .kind = k, .flags = fl, .sigs = s, .handler = index_call}

static BindRow defs[] = {
    ROW("index_select", K_INDEX_SELECT, FM,
        "Tensor input, int dim, Tensor index, *, Tensor? out=None|Tensor input, Dimname dim, Tensor index, *, Tensor? out=None"),
    ROW("gather", K_GATHER, FM,
        "Tensor input, int dim, Tensor index, *, bool sparse_grad=False, Tensor? out=None|"
        "Tensor input, Dimname dim, Tensor index, *, bool sparse_grad=False, Tensor? out=None"),
    ROW("scatter", K_SCATTER, FMI,
        "Tensor input, int dim, Tensor index, Tensor src, *, Tensor? out=None|"
        "Tensor input, int dim, Tensor index, Tensor src, *, str reduce, Tensor? out=None|"
        "Tensor input, Dimname dim, Tensor index, Tensor src|"
        "Tensor input, int dim, Tensor index, Number value, *, Tensor? out=None|"
        "Tensor input, int dim, Tensor index, Number value, *, str reduce, Tensor? out=None|"
        "Tensor input, Dimname dim, Tensor index, Number value"),
    ROW("scatter_add", K_SCATTER_ADD, FMI,
        "Tensor input, int dim, Tensor index, Tensor src, *, Tensor? out=None|Tensor input, Dimname dim, Tensor index, Tensor src"),
    ROW("take", K_TAKE, FM, "Tensor input, Tensor index, *, Tensor? out=None"),
    ROW("masked_select", K_MASKED_SELECT, FM, "Tensor input, Tensor mask, *, Tensor? out=None"),
    ROW("nonzero", K_NONZERO, FM, "Tensor input, *, Tensor? out=None|Tensor input, *, bool as_tuple"),
    ROW("argwhere", K_ARGWHERE, FM, "Tensor input"),
    ROW("index_put", K_INDEX_PUT, FMI | BIND_FN_UNDERSCORE, "Tensor input, Tensor?[] indices, Tensor values, bool accumulate=False"),
    ROW("index_add", K_INDEX_ADD, FMI,
        "Tensor input, int dim, Tensor index, Tensor source, *, Number alpha=1, Tensor? out=None|"
        "Tensor input, Dimname dim, Tensor index, Tensor source, *, Number alpha=1"),
    ROW("index_copy", K_INDEX_COPY, FMI,
        "Tensor input, int dim, Tensor index, Tensor source, *, Tensor? out=None|"
        "Tensor input, Dimname dim, Tensor index, Tensor source"),
    ROW("index_fill", K_INDEX_FILL, FMI,
        "Tensor input, int dim, Tensor index, Tensor value|Tensor input, Dimname dim, Tensor index, Tensor value|"
        "Tensor input, int dim, Tensor index, Number value|Tensor input, Dimname dim, Tensor index, Number value"),
    ROW("put", K_PUT, FMI, "Tensor input, Tensor index, Tensor source, bool accumulate=False"),
    ROW("masked_scatter", K_MASKED_SCATTER, FMI, "Tensor input, Tensor mask, Tensor source"),
    ROW("scatter_reduce", K_SCATTER_REDUCE, FMI,
        "Tensor input, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True, Tensor? out=None"),
    ROW("index_reduce", K_INDEX_REDUCE, FMI,
        "Tensor input, int dim, Tensor index, Tensor source, str reduce, *, bool include_self=True, "
        "Tensor? out=None"),
    ROW("searchsorted", K_SEARCHSORTED, BIND_FN,
        "Tensor sorted_sequence, Tensor input, *, bool out_int32=False, bool right=False, str? side=None, "
        "Tensor? sorter=None, Tensor? out=None|"
        "Tensor sorted_sequence, Number self, *, bool out_int32=False, bool right=False, str? side=None, "
        "Tensor? sorter=None"),
    ROW("bucketize", K_BUCKETIZE, BIND_FN,
        "Tensor input, Tensor boundaries, *, bool out_int32=False, bool right=False, Tensor? out=None|"
        "Number self, Tensor boundaries, *, bool out_int32=False, bool right=False"),
    ROW("isin", K_ISIN, BIND_FN,
        "Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False, Tensor? out=None|"
        "Number element, Tensor test_elements, *, bool assume_unique=False, bool invert=False, Tensor? out=None|"
        "Tensor elements, Number test_element, *, bool assume_unique=False, bool invert=False, Tensor? out=None"),
    ROW("take_along_dim", K_TAKE_ALONG_DIM, FM, "Tensor input, Tensor indices, int? dim=None, *, Tensor? out=None"),
    ROW("sum_to_size", K_SUM_TO_SIZE, BIND_METHOD, "Tensor input, int[] size"),
};

void bind_index_init(void) { bind_table_register(defs, (int)(sizeof defs / sizeof *defs)); }
