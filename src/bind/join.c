/* src/bind/join.c — the join/split/rearrange area of the binding table: cat,
 * stack and the stacks, the split family, flip/roll/rot90, repeat/tile,
 * tril/triu, diag*, broadcasting views (runtime/ops/join.c, rearrange.c).
 * torch.split, atleast_*, broadcast_tensors and meshgrid are Python defs in
 * 1.13 (torch/functional.py): their wrappers take *args, then call the rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/areas.h"
#include "bind/ops.h"
#include "bind/table.h"
#include "bind/tensor.h"

typedef enum {
    K_CAT, K_STACK, K_HSTACK, K_VSTACK, K_DSTACK, K_CSTACK, K_CHUNK, K_SPLIT, K_SPLIT_SIZES, K_TSPLIT, K_HSPLIT,
    K_VSPLIT, K_DSPLIT, K_UNBIND, K_ATLEAST, K_FLIP, K_FLIPLR, K_FLIPUD, K_ROLL, K_ROT90, K_REPEAT, K_TILE,
    K_REPEAT_INTERLEAVE, K_TRIL, K_TRIU, K_TRIL_INDICES, K_TRIU_INDICES, K_DIAG, K_DIAG_EMBED, K_DIAGFLAT,
    K_BROADCAST_TO, K_BROADCAST_TENSORS, K_MESHGRID, K_NARROW_COPY, K_RAVEL, K_SELECT_SCATTER, K_SLICE_SCATTER,
    K_DIAGONAL_SCATTER, K_AS_STRIDED_SCATTER, K_VIEW_AS_REAL, K_VIEW_AS_COMPLEX, K_COMPLEX, K_POLAR, K_COMBINATIONS,
    K_CARTESIAN_PROD, K_BLOCK_DIAG,
} Kind;

/* The tensors of a Tensor[] argument (borrowed) into ts; their count. */
static int tensor_list(Value *l, const tsr_tensor **ts, int max)
{
    int n = (int)seq_len(l);
    if (n > max) n = max;
    for (int i = 0; i < n; i++) ts[i] = tensor_of(seq_get(l, i));
    return n;
}

/* A tuple of n parts (stolen), freeing the array. */
static Value *parts_tuple(int n, tsr_tensor **parts)
{
    if (n < 0) return bind_runtime_error();
    Value *t = v_tuple((size_t)n);
    for (int i = 0; i < n; i++) t->u.seq.items[i] = v_tensor(parts[i]);
    free(parts);
    return t;
}

#define MAXT 1024

static Value *run_join(const BindRow *row, const char *fname, BindArgs *b)
{
    const tsr_tensor *ts[MAXT];
    int n = tensor_list(b->v[0], ts, MAXT);
    tsr_tensor *out = b->v[BIND_OUT] ? tensor_of(b->v[BIND_OUT]) : NULL, *r;
    int64_t dim = 0;
    if (row->kind == K_CAT && b->sig == 1) {   /* the name is looked up in the first tensor (1.13) */
        int d = n > 0 ? tsr_dim_of_name(ts[0], b->v[1]->u.s.p) : 0;
        if (d < 0) return bind_runtime_error();
        dim = d;
    } else if ((row->kind == K_CAT || row->kind == K_STACK) && bind_table_int(b, 1, 0, &dim) < 0) {
        return NULL;
    }
    switch ((Kind)row->kind) {
    case K_CAT: r = tsr_cat(n, ts, dim, out); break;
    case K_STACK: r = tsr_stack(n, ts, dim, out); break;
    case K_HSTACK: r = tsr_stack_kind('h', fname, n, ts, out); break;
    case K_VSTACK: r = tsr_stack_kind('v', "vstack", n, ts, out); break;
    case K_DSTACK: r = tsr_stack_kind('d', fname, n, ts, out); break;
    default: r = tsr_stack_kind('c', fname, n, ts, out); break;
    }
    if (out) ops_warn();
    return ops_finish(r, b->v[BIND_OUT]);
}

static Value *run_split(const BindRow *row, BindArgs *b, tsr_tensor *t)
{
    tsr_tensor **parts = NULL;
    int64_t a, dim = 0, idx[TSR_MAX_DIMS * 4];
    int n = 0, rc;
    switch ((Kind)row->kind) {
    case K_CHUNK: case K_SPLIT:
        if (bind_table_int(b, 1, 0, &a) < 0 || bind_table_int(b, 2, 0, &dim) < 0) return NULL;
        rc = row->kind == K_CHUNK ? tsr_chunk(t, a, dim, &parts) : tsr_split(t, a, dim, &parts);
        break;
    case K_SPLIT_SIZES:
        if (bind_table_intlist(b, 1, row->name, idx, TSR_MAX_DIMS * 4, &n) < 0 || bind_table_int(b, 2, 0, &dim) < 0)
            return NULL;
        rc = tsr_split_with_sizes(t, n, idx, dim, &parts);
        break;
    case K_TSPLIT:
        if (bind_table_int(b, 2, 0, &dim) < 0) return NULL;
        if (b->sig == 0) {
            rc = tsr_tensor_split_tensor(t, tensor_of(b->v[1]), dim, &parts);
        } else if (b->sig == 1) {
            if (bind_table_int(b, 1, 0, &a) < 0) return NULL;
            rc = tsr_tensor_split_sections(t, a, dim, &parts);
        } else {
            if (bind_table_intlist(b, 1, row->name, idx, TSR_MAX_DIMS * 4, &n) < 0) return NULL;
            rc = tsr_tensor_split_indices(t, n, idx, dim, &parts);
        }
        break;
    case K_HSPLIT: case K_VSPLIT: case K_DSPLIT: {
        char k = row->kind == K_HSPLIT ? 'h' : row->kind == K_VSPLIT ? 'v' : 'd';
        if (b->sig == 0) {
            if (bind_table_int(b, 1, 0, &a) < 0) return NULL;
            rc = tsr_dirsplit(k, t, a, 0, NULL, &parts);
        } else {
            if (bind_table_intlist(b, 1, row->name, idx, TSR_MAX_DIMS * 4, &n) < 0) return NULL;
            rc = tsr_dirsplit(k, t, -1, n, idx, &parts);
        }
        break;
    }
    default:   /* K_UNBIND */
        if (b->sig == 1) {
            int d = tsr_dim_of_name(t, b->v[1]->u.s.p);
            if (d < 0) return bind_runtime_error();
            dim = d;
        } else if (bind_table_int(b, 1, 0, &dim) < 0) {
            return NULL;
        }
        rc = tsr_unbind(t, dim, &parts);
        break;
    }
    if (row->code == 1)   /* unsafe_chunk / unsafe_split / unsafe_split_with_sizes: 1.13 tracks no views */
        for (int i = 0; i < rc; i++) tsr_tensor_unview(parts[i]);
    return parts_tuple(rc, parts);
}

static Value *run_indices(const BindRow *row, BindArgs *b)
{
    int64_t r, c, off;
    if (bind_table_int(b, 0, 0, &r) < 0 || bind_table_int(b, 1, 0, &c) < 0 || bind_table_int(b, 2, 0, &off) < 0)
        return NULL;
    tsr_dtype dt = bind_table_dtype(bind_table_arg(b, "dtype"), TSR_INT64);
    tsr_device dev = bind_default_device();
    Value *dv = bind_table_arg(b, "device");
    if (dv && bind_device_arg(dv, dev, &dev) < 0) return NULL;
    Value *lay = bind_table_arg(b, "layout");
    if (lay && lay->u.ext.a != TSR_LAYOUT_STRIDED)
        return exc_set("RuntimeError", "%s() only supports torch.strided layout", row->name);
    return v_tensor(tsr_tril_indices(r, c, off, row->kind == K_TRIU_INDICES, dt, dev));
}

static Value *run_scatter(const BindRow *row, const char *fname, BindArgs *b, tsr_tensor *t)
{
    tsr_scatter_args sa = {.step = 1, .dim2 = 1, .storage_offset = TSR_VIEW_KEEP_OFFSET};
    int64_t sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    int ns = 0;
    tsr_scatter_view kind;
    switch ((Kind)row->kind) {
    case K_SELECT_SCATTER:
        kind = TSR_SV_SELECT;
        if (bind_table_int(b, 2, 0, &sa.dim) < 0 || bind_table_int(b, 3, 0, &sa.index) < 0) return NULL;
        break;
    case K_SLICE_SCATTER:
        kind = TSR_SV_SLICE;
        sa.has_start = b->v[3] != NULL;
        sa.has_end = b->v[4] != NULL;
        if (bind_table_int(b, 2, 0, &sa.dim) < 0 || bind_table_int(b, 3, 0, &sa.start) < 0 ||
            bind_table_int(b, 4, 0, &sa.end) < 0 || bind_table_int(b, 5, 1, &sa.step) < 0)
            return NULL;
        break;
    case K_DIAGONAL_SCATTER:
        kind = TSR_SV_DIAGONAL;
        if (bind_table_int(b, 2, 0, &sa.offset) < 0 || bind_table_int(b, 3, 0, &sa.dim1) < 0 ||
            bind_table_int(b, 4, 1, &sa.dim2) < 0)
            return NULL;
        break;
    default:
        kind = TSR_SV_AS_STRIDED;
        if (bind_table_intlist(b, 2, fname, sizes, TSR_MAX_DIMS, &sa.n) < 0 ||
            bind_table_intlist(b, 3, fname, strides, TSR_MAX_DIMS, &ns) < 0 ||
            bind_table_int(b, 4, TSR_VIEW_KEEP_OFFSET, &sa.storage_offset) < 0)
            return NULL;
        if (ns != sa.n) return exc_set("RuntimeError", "mismatch in length of strides and shape");
        sa.sizes = sizes;
        sa.strides = strides;
        break;
    }
    return v_tensor(tsr_view_scatter(kind, t, tensor_of(b->v[1]), &sa));
}

/* The handler of every row of this area. */
static Value *join_call(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)self;
    int64_t a = 0, d1, d2, list[TSR_MAX_DIMS], list2[TSR_MAX_DIMS];
    int n = 0, n2 = 0;
    tsr_tensor *t = NULL;
    switch ((Kind)row->kind) {
    case K_CAT: case K_STACK: case K_HSTACK: case K_VSTACK: case K_DSTACK: case K_CSTACK:
        return run_join(row, fname, b);
    case K_TRIL_INDICES: case K_TRIU_INDICES: return run_indices(row, b);
    case K_BROADCAST_TENSORS: case K_MESHGRID: {
        const tsr_tensor *ts[TSR_MAX_DIMS];
        tsr_tensor *res[TSR_MAX_DIMS];
        if (seq_len(b->v[0]) > TSR_MAX_DIMS) return exc_set("RuntimeError", "tsr: too many tensors");
        n = tensor_list(b->v[0], ts, TSR_MAX_DIMS);
        int rc = row->kind == K_MESHGRID ? tsr_meshgrid(n, ts, b->v[1] ? b->v[1]->u.s.p : "ij", res)
                                         : tsr_broadcast_tensors(n, ts, res);
        if (rc < 0) return bind_runtime_error();
        Value *tup = v_tuple((size_t)n);
        for (int i = 0; i < n; i++) tup->u.seq.items[i] = v_tensor(res[i]);
        return tup;
    }
    case K_CARTESIAN_PROD: case K_BLOCK_DIAG: {
        const tsr_tensor *ts[MAXT];
        n = tensor_list(b->v[0], ts, MAXT);
        tsr_tensor *r = row->kind == K_BLOCK_DIAG ? tsr_block_diag(n, ts) : tsr_cartesian_prod(n, ts);
        if (r && n > 0 && r == ts[0]) {   /* one tensor: returned itself */
            tsr_tensor_release(r);
            return incref(seq_get(b->v[0], 0));
        }
        return v_tensor(r);
    }
    case K_COMPLEX: case K_POLAR:
        if (b->v[BIND_OUT]) {
            if (!tsr_complex_out(tensor_of(b->v[0]), tensor_of(b->v[1]), row->kind == K_POLAR, tensor_of(b->v[BIND_OUT])))
                return bind_runtime_error();
            tsr_tensor_release(tensor_of(b->v[BIND_OUT]));
            ops_warn();
            return incref(b->v[BIND_OUT]);
        }
        return v_tensor(row->kind == K_COMPLEX ? tsr_complex(tensor_of(b->v[0]), tensor_of(b->v[1]))
                                               : tsr_polar(tensor_of(b->v[0]), tensor_of(b->v[1])));
    case K_REPEAT_INTERLEAVE:
        if (b->sig == 2) {
            if (bind_table_int(b, 2, -1, &a) < 0) return NULL;
            return v_tensor(tsr_repeat_interleave(NULL, tensor_of(b->v[0]), 0, false, 0, a));
        }
        break;
    case K_ATLEAST:
        if (b->sig == 1) {
            const tsr_tensor *ts[MAXT];
            n = tensor_list(b->v[0], ts, MAXT);
            Value *tup = v_tuple((size_t)n);
            for (int i = 0; i < n; i++) {
                tsr_tensor *r = tsr_atleast(ts[i], row->code);
                if (!r) {
                    tup->u.seq.n = (size_t)i;
                    decref(tup);
                    return bind_runtime_error();
                }
                tup->u.seq.items[i] = r == ts[i] ? (tsr_tensor_release(r), incref(seq_get(b->v[0], i))) : v_tensor(r);
            }
            return tup;
        }
        break;
    default: break;
    }
    t = tensor_of(b->v[0]);
    tsr_tensor *out = b->v[BIND_OUT] ? tensor_of(b->v[BIND_OUT]) : NULL, *r;
    switch ((Kind)row->kind) {
    case K_CHUNK: case K_SPLIT: case K_SPLIT_SIZES: case K_TSPLIT: case K_HSPLIT: case K_VSPLIT: case K_DSPLIT:
    case K_UNBIND:
        return run_split(row, b, t);
    case K_ATLEAST: return ops_finish(tsr_atleast(t, row->code), b->v[0]);
    case K_FLIP:
        if (bind_table_intlist(b, 1, fname, list, TSR_MAX_DIMS, &n) < 0) return NULL;
        return v_tensor(tsr_flip(t, n, list));
    case K_FLIPLR: case K_FLIPUD: return v_tensor(tsr_flip_lr_ud(t, row->kind == K_FLIPLR));
    case K_ROLL:
        if (bind_table_intlist(b, 1, fname, list, TSR_MAX_DIMS, &n) < 0) return NULL;
        if (b->v[2] && bind_table_intlist(b, 2, fname, list2, TSR_MAX_DIMS, &n2) < 0) return NULL;
        return v_tensor(tsr_roll(t, n, list, n2, list2));
    case K_ROT90:
        if (bind_table_int(b, 1, 1, &a) < 0) return NULL;
        n = 2;
        list[0] = 0;
        list[1] = 1;
        if (b->v[2] && bind_table_intlist(b, 2, fname, list, TSR_MAX_DIMS, &n) < 0) return NULL;
        return v_tensor(tsr_rot90(t, a, n, list));
    case K_REPEAT: case K_TILE:
        if (bind_table_intlist(b, 1, fname, list, TSR_MAX_DIMS, &n) < 0) return NULL;
        return v_tensor(row->kind == K_REPEAT ? tsr_repeat(t, n, list) : tsr_tile(t, n, list));
    case K_REPEAT_INTERLEAVE: {
        int64_t os = -1;
        bool has_dim = b->v[2] != NULL;
        if (bind_table_int(b, 2, 0, &d1) < 0 || bind_table_int(b, 3, -1, &os) < 0) return NULL;
        if (b->sig == 0) return v_tensor(tsr_repeat_interleave(t, tensor_of(b->v[1]), 0, has_dim, d1, os));
        if (bind_table_int(b, 1, 0, &a) < 0) return NULL;
        return v_tensor(tsr_repeat_interleave(t, NULL, a, has_dim, d1, os));
    }
    case K_TRIL: case K_TRIU:
        if (bind_table_int(b, 1, 0, &a) < 0) return NULL;
        if (inplace) {
            if (tsr_tril_(t, a, row->kind == K_TRIU) < 0) return bind_runtime_error();
            return incref(b->v[0]);
        }
        r = tsr_tril(t, a, row->kind == K_TRIU, out);
        if (out) ops_warn();
        return ops_finish(r, b->v[BIND_OUT]);
    case K_DIAG:
        if (bind_table_int(b, 1, 0, &a) < 0) return NULL;
        r = tsr_diag(t, a, out);
        if (out) ops_warn();
        return ops_finish(r, b->v[BIND_OUT]);
    case K_DIAG_EMBED:
        if (bind_table_int(b, 1, 0, &a) < 0 || bind_table_int(b, 2, -2, &d1) < 0 || bind_table_int(b, 3, -1, &d2) < 0)
            return NULL;
        return v_tensor(tsr_diag_embed(t, a, d1, d2));
    case K_DIAGFLAT:
        if (bind_table_int(b, 1, 0, &a) < 0) return NULL;
        return v_tensor(tsr_diagflat(t, a));
    case K_BROADCAST_TO:
        if (bind_table_intlist(b, 1, fname, list, TSR_MAX_DIMS, &n) < 0) return NULL;
        return v_tensor(tsr_view_expand(t, n, list));
    case K_NARROW_COPY:
        if (bind_table_int(b, 1, 0, &d1) < 0 || bind_table_int(b, 2, 0, &a) < 0 || bind_table_int(b, 3, 0, &d2) < 0)
            return NULL;
        if (out) return ops_finish(tsr_narrow_copy_out(t, d1, a, d2, out), b->v[BIND_OUT]);
        return v_tensor(tsr_narrow_copy(t, d1, a, d2));
    case K_RAVEL: return v_tensor(tsr_ravel(t));
    case K_VIEW_AS_REAL: return v_tensor(tsr_view_as_real(t));
    case K_VIEW_AS_COMPLEX: return v_tensor(tsr_view_as_complex(t));
    case K_COMBINATIONS: {
        bool wr = b->v[2] && b->v[2]->u.i;
        if (bind_table_int(b, 1, 2, &a) < 0) return NULL;
        return v_tensor(tsr_combinations(t, a, wr));
    }
    case K_SELECT_SCATTER: case K_SLICE_SCATTER: case K_DIAGONAL_SCATTER: case K_AS_STRIDED_SCATTER:
        return run_scatter(row, fname, b, t);
    default: break;
    }
    return exc_set("RuntimeError", "internal error: join kind %d", row->kind);
}

#define FN BIND_FN
#define FM (BIND_FN | BIND_METHOD)
#define FMI (BIND_FN | BIND_METHOD | BIND_INPLACE)
#define ROW(n, k, fl, s) {.name = n, .kind = k, .flags = fl, .sigs = s, .handler = join_call}
#define CAT "Tensor[] tensors, int dim=0, *, Tensor? out=None|Tensor[] tensors, Dimname dim, *, Tensor? out=None"
#define STK "Tensor[] tensors, *, Tensor? out=None"
#define DSPL "Tensor input, int sections|Tensor input, int[] indices"
#define IDX "int row, int col, int offset=0, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, " \
            "bool? pin_memory=False, bool? requires_grad=False"

static BindRow defs[] = {
    ROW("cat", K_CAT, FN, CAT),
    ROW("concat", K_CAT, FN, CAT),
    ROW("concatenate", K_CAT, FN, CAT),
    ROW("stack", K_STACK, FN, "Tensor[] tensors, int dim=0, *, Tensor? out=None"),
    ROW("hstack", K_HSTACK, FN, STK),
    ROW("vstack", K_VSTACK, FN, STK),
    ROW("row_stack", K_VSTACK, FN, STK),
    ROW("dstack", K_DSTACK, FN, STK),
    ROW("column_stack", K_CSTACK, FN, STK),
    ROW("chunk", K_CHUNK, FM, "Tensor input, int chunks, int dim=0"),
    ROW("split_with_sizes", K_SPLIT_SIZES, FM, "Tensor input, int[] split_sizes, int dim=0"),
    /* code 1: the pieces share storage but are not views (UnsafeSplitBackward0, UnsafeSplitWithSizesBackward0) */
    {.name = "unsafe_chunk", .kind = K_CHUNK, .code = 1, .flags = FM, .sigs = "Tensor input, int chunks, int dim=0",
     .handler = join_call},
    {.name = "unsafe_split", .kind = K_SPLIT, .code = 1, .flags = FM, .sigs = "Tensor input, int split_size, int dim=0",
     .handler = join_call},
    {.name = "unsafe_split_with_sizes", .kind = K_SPLIT_SIZES, .code = 1, .flags = FM,
     .sigs = "Tensor input, int[] split_sizes, int dim=0", .handler = join_call},
    ROW("tensor_split", K_TSPLIT, FM, "Tensor input, Tensor tensor_indices_or_sections, int dim=0|"
                                      "Tensor input, int sections, int dim=0|Tensor input, int[] indices, int dim=0"),
    ROW("hsplit", K_HSPLIT, FM, DSPL),
    ROW("vsplit", K_VSPLIT, FM, DSPL),
    ROW("dsplit", K_DSPLIT, FM, DSPL),
    ROW("unbind", K_UNBIND, FM, "Tensor input, int dim=0|Tensor input, Dimname dim"),
    {.name = "atleast_1d", .kind = K_ATLEAST, .code = 1, .flags = 0, .sigs = "Tensor input|Tensor[] tensors",
     .handler = join_call},
    {.name = "atleast_2d", .kind = K_ATLEAST, .code = 2, .flags = 0, .sigs = "Tensor input|Tensor[] tensors",
     .handler = join_call},
    {.name = "atleast_3d", .kind = K_ATLEAST, .code = 3, .flags = 0, .sigs = "Tensor input|Tensor[] tensors",
     .handler = join_call},
    ROW("split", K_SPLIT, 0, "Tensor input, int split_size, int dim=0"),
    ROW("broadcast_tensors", K_BROADCAST_TENSORS, 0, "Tensor[] tensors"),
    ROW("meshgrid", K_MESHGRID, 0, "Tensor[] tensors, *, str indexing"),
    ROW("flip", K_FLIP, FM, "Tensor input, int[] dims"),
    ROW("fliplr", K_FLIPLR, FM, "Tensor input"),
    ROW("flipud", K_FLIPUD, FM, "Tensor input"),
    ROW("roll", K_ROLL, FM, "Tensor input, int[1] shifts, int[1] dims=None"),
    ROW("rot90", K_ROT90, FM, "Tensor input, int k=1, int[] dims=None"),
    ROW("repeat", K_REPEAT, BIND_METHOD, "Tensor input, SymInt[] repeats"),
    ROW("tile", K_TILE, FM, "Tensor input, int[] dims"),
    ROW("repeat_interleave", K_REPEAT_INTERLEAVE, FM,
        "Tensor input, Tensor repeats, int? dim=None, *, int? output_size=None|"
        "Tensor input, int repeats, int? dim=None, *, int? output_size=None|Tensor repeats, *, int? output_size=None"),
    ROW("tril", K_TRIL, FMI, "Tensor input, int diagonal=0, *, Tensor? out=None"),
    ROW("triu", K_TRIU, FMI, "Tensor input, int diagonal=0, *, Tensor? out=None"),
    ROW("tril_indices", K_TRIL_INDICES, FN, IDX),
    ROW("triu_indices", K_TRIU_INDICES, FN, IDX),
    ROW("diag", K_DIAG, FM, "Tensor input, int diagonal=0, *, Tensor? out=None"),
    ROW("diag_embed", K_DIAG_EMBED, FM, "Tensor input, int offset=0, int dim1=-2, int dim2=-1"),
    ROW("diagflat", K_DIAGFLAT, FM, "Tensor input, int offset=0"),
    ROW("broadcast_to", K_BROADCAST_TO, FM, "Tensor input, SymInt[] size"),
    ROW("narrow_copy", K_NARROW_COPY, FM, "Tensor input, int dim, SymInt start, SymInt length, *, Tensor? out=None"),
    ROW("ravel", K_RAVEL, FM, "Tensor input"),
    ROW("select_scatter", K_SELECT_SCATTER, FM, "Tensor input, Tensor src, int dim, SymInt index"),
    ROW("slice_scatter", K_SLICE_SCATTER, FM,
        "Tensor input, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1"),
    ROW("diagonal_scatter", K_DIAGONAL_SCATTER, FM, "Tensor input, Tensor src, int offset=0, int dim1=0, int dim2=1"),
    ROW("as_strided_scatter", K_AS_STRIDED_SCATTER, FM,
        "Tensor input, Tensor src, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None"),
    ROW("view_as_real", K_VIEW_AS_REAL, FN, "Tensor input"),
    ROW("view_as_complex", K_VIEW_AS_COMPLEX, FN, "Tensor input"),
    ROW("complex", K_COMPLEX, FN, "Tensor real, Tensor imag, *, Tensor? out=None"),
    ROW("polar", K_POLAR, FN, "Tensor abs, Tensor angle, *, Tensor? out=None"),
    ROW("combinations", K_COMBINATIONS, FN, "Tensor input, int r=2, bool with_replacement=False"),
    ROW("cartesian_prod", K_CARTESIAN_PROD, 0, "Tensor[] tensors"),
    ROW("block_diag", K_BLOCK_DIAG, 0, "Tensor[] tensors"),
};

static const BindRow *row_named(const char *name)
{
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        if (!strcmp(defs[i].name, name)) return &defs[i];
    return NULL;
}

/* Tensor.split (torch/_tensor.py): an int (or a tensor that int() accepts)
 * goes to _VF.split, anything else to split_with_sizes. */
static Value *do_split(Value *self, Value *size, Value *dim)
{
    Value *pos[3] = {self, size, dim};
    CallArgs c = {pos, dim ? 3 : 2, NULL, NULL, 0};
    bool as_int = size->type == &t_int || size->type == &t_bool;
    if (is_tensor(size) && tsr_tensor_numel(tensor_of(size)) == 1) as_int = true;
    return bind_table_call(row_named(as_int ? "split" : "split_with_sizes"), &c);
}

static Value *m_split(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *v[2];
    if (bind_args(a, "Tensor.split", "def self, split_size, dim=", v) < 0) return NULL;
    return do_split(self, v[0], v[1]);
}

static Value *f_split(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *v[3];
    if (bind_args(a, "split", "def tensor, split_size_or_sections, dim=", v) < 0) return NULL;
    if (!is_tensor(v[0]))
        return exc_set("AttributeError", "'%s' object has no attribute 'split'", v[0]->type->name);
    return do_split(v[0], v[1], v[2]);
}

/* def f(*tensors): the tuple of positional arguments; with unpack, one
 * sequence argument is the list itself (meshgrid's rule). */
static Value *star_tensors(bool unpack, CallArgs *a, Value **tup)
{
    if (unpack && a->npos == 1 && (a->pos[0]->type == &t_tuple || a->pos[0]->type == &t_list)) {
        *tup = incref(a->pos[0]);
        return *tup;
    }
    Value *t = v_tuple((size_t)a->npos);
    for (int i = 0; i < a->npos; i++) t->u.seq.items[i] = incref(a->pos[i]);
    *tup = t;
    return t;
}

static Value *f_atleast(Value *self, CallArgs *a, void *d)
{
    (void)self;
    const BindRow *row = d;
    if (a->nkw) return exc_set("TypeError", "%s() got an unexpected keyword argument '%s'", row->name, a->kwnames[0]);
    if (a->npos == 1) return bind_table_call(row, a);
    Value *tup;
    star_tensors(false, a, &tup);
    Value *pos[1] = {tup};
    CallArgs c = {pos, 1, NULL, NULL, 0};
    Value *r = bind_table_call(row, &c);
    decref(tup);
    return r;
}

/* def broadcast_tensors(*tensors), cartesian_prod, block_diag: the row
 * named by d receives the tuple. */
static Value *f_star(Value *self, CallArgs *a, void *d)
{
    (void)self;
    const BindRow *row = d;
    if (a->nkw) return exc_set("TypeError", "%s() got an unexpected keyword argument '%s'", row->name, a->kwnames[0]);
    Value *tup;
    star_tensors(false, a, &tup);
    Value *pos[1] = {tup};
    CallArgs c = {pos, 1, NULL, NULL, 0};
    Value *r = bind_table_call(row, &c);
    decref(tup);
    return r;
}

static Value *f_meshgrid(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *indexing = NULL;
    for (int k = 0; k < a->nkw; k++) {
        if (strcmp(a->kwnames[k], "indexing"))
            return exc_set("TypeError", "meshgrid() got an unexpected keyword argument '%s'", a->kwnames[k]);
        indexing = a->kw[k];
    }
    Value *tup;
    star_tensors(true, a, &tup);
    Value *pos[1] = {tup}, *kw[1] = {indexing};
    const char *kwn[1] = {"indexing"};
    Value *dflt = NULL;
    if (!indexing || is_none(indexing)) kw[0] = dflt = v_str("ij");
    CallArgs c = {pos, 1, kwn, kw, 1};
    Value *r = bind_table_call(row_named("meshgrid"), &c);
    decref(tup);
    if (dflt) decref(dflt);
    return r;
}

void bind_join_init(void)
{
    bind_table_register(defs, (int)(sizeof defs / sizeof defs[0]));
    bind_tensor_method("split", m_split);
    bind_torch_function("split", f_split, false);
    static const char *const star[] = {"broadcast_tensors", "cartesian_prod", "block_diag"};
    for (int k = 0; k < 3; k++)
        module_add(bind_module("torch"), star[k], v_builtin(star[k], f_star, NULL, (void *)row_named(star[k])));
    bind_torch_function("meshgrid", f_meshgrid, false);
    for (int k = 1; k <= 3; k++) {
        char nm[16];
        snprintf(nm, sizeof nm, "atleast_%dd", k);
        const BindRow *row = row_named(nm);   /* its name outlives nm: the builtin keeps the pointer */
        module_add(bind_module("torch"), nm, v_builtin(row->name, f_atleast, NULL, (void *)row));
    }
}
