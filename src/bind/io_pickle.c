/* src/bind/io_pickle.c — protocol-2 pickles of the language's values, as
 * torch.save writes them (CPython's Modules/_pickle.c: memo, batching,
 * the smallest int opcode) and as torch.load reads them: a strict machine
 * over the opcodes of torch/_weights_only_unpickler.py, every read bounded
 * by the data's end, every pop bounded by the last MARK. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/io_pickle.h"
#include "ops/sparse.h"
#include "bind/tensor.h"

/* ------------------------------------------------------------ a u64 → u64 map */

typedef struct { uint64_t *k, *v; size_t cap, n; } Map;   /* k stored + 1: 0 is empty */

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
    return x;
}

static int map_find(const Map *m, uint64_t key, uint64_t *val)
{
    if (!m->cap) return 0;
    for (size_t i = mix(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->k[i]) return 0;
        if (m->k[i] == key + 1) { *val = m->v[i]; return 1; }
    }
}

/* Sets key to val; *old receives the value replaced (found: 1). -1 MemoryError. */
static int map_set(Map *m, uint64_t key, uint64_t val, uint64_t *old)
{
    if (2 * (m->n + 1) > m->cap) {
        Map g = {0};
        g.cap = m->cap ? 2 * m->cap : 64;
        g.k = tsr_calloc(g.cap, sizeof *g.k);
        g.v = tsr_calloc(g.cap, sizeof *g.v);
        if (!g.k || !g.v) { tsr_free(g.k); tsr_free(g.v); tsr_error_clear(); return exc_seti("MemoryError", "%s", ""); }
        for (size_t i = 0; i < m->cap; i++)
            if (m->k[i]) map_set(&g, m->k[i] - 1, m->v[i], NULL);
        tsr_free(m->k);
        tsr_free(m->v);
        *m = g;
    }
    size_t i = mix(key) & (m->cap - 1);
    while (m->k[i] && m->k[i] != key + 1) i = (i + 1) & (m->cap - 1);
    int found = m->k[i] != 0;
    if (found && old) *old = m->v[i];
    if (!found) m->n++;
    m->k[i] = key + 1;
    m->v[i] = val;
    return found;
}

static void map_free(Map *m) { tsr_free(m->k); tsr_free(m->v); *m = (Map){0}; }

/* ------------------------------------------------------------ pickling */

typedef struct {
    PickleBuf *b;
    Map memo;               /* object address → memo index */
    PicklePersist persist;
    void *ctx;
    int depth;
} Pickler;

/* (protocol 2 names Python 3's builtins module __builtin__, as _pickle.c's
 * fix_imports does) */
/* the objects 1.13's pickles share through the memo: interned strings and
 * the globals (any distinct addresses do as keys) */
static const char K_STORAGE[] = "storage";
static const char G_SPARSE[] = "torch._utils\n_rebuild_sparse_tensor\n";
static const char G_REBUILD[] = "torch._utils\n_rebuild_tensor_v2\n", G_META[] = "torch._utils\n_rebuild_meta_tensor_no_storage\n",
                  G_ODICT[] = "collections\nOrderedDict\n", G_SIZE[] = "torch\nSize\n", G_COMPLEX[] = "__builtin__\ncomplex\n";
static char dtype_globals[TSR_DTYPE_SLOTS][40];

static int put(Pickler *p, const void *s, size_t n)
{
    PickleBuf *b = p->b;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n) cap *= 2;
        char *q = tsr_realloc(b->p, cap);
        if (!q) { tsr_error_clear(); return exc_seti("MemoryError", "%s", ""); }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    return 0;
}

static int op(Pickler *p, unsigned char c) { return put(p, &c, 1); }

static int put_u32(Pickler *p, unsigned char opc, uint32_t x)
{
    unsigned char s[5] = {opc, (unsigned char)x, (unsigned char)(x >> 8), (unsigned char)(x >> 16), (unsigned char)(x >> 24)};
    return put(p, s, 5);
}

/* BINGET of key when memoized: 1; 0 when not; -1 error */
static int memo_get(Pickler *p, const void *key)
{
    uint64_t idx;
    if (!map_find(&p->memo, (uint64_t)(uintptr_t)key, &idx)) return 0;
    if (idx < 256) {
        unsigned char s[2] = {'h', (unsigned char)idx};
        return put(p, s, 2) < 0 ? -1 : 1;
    }
    return put_u32(p, 'j', (uint32_t)idx) < 0 ? -1 : 1;
}

static int memo_put(Pickler *p, const void *key)
{
    uint64_t idx = p->memo.n;
    if (map_set(&p->memo, (uint64_t)(uintptr_t)key, idx, NULL) < 0) return -1;
    if (idx < 256) {
        unsigned char s[2] = {'q', (unsigned char)idx};
        return put(p, s, 2);
    }
    return put_u32(p, 'r', (uint32_t)idx);
}

static int save_int(Pickler *p, int64_t x)
{
    if (x >= 0 && x < 256) {
        unsigned char s[2] = {'K', (unsigned char)x};
        return put(p, s, 2);
    }
    if (x >= 0 && x < 65536) {
        unsigned char s[3] = {'M', (unsigned char)x, (unsigned char)(x >> 8)};
        return put(p, s, 3);
    }
    if (x >= INT32_MIN && x <= INT32_MAX) return put_u32(p, 'J', (uint32_t)(int32_t)x);
    /* LONG1: little-endian two's complement, as few bytes as keep the sign */
    unsigned char s[10] = {0x8a, 0};
    int n = 0;
    uint64_t u = (uint64_t)x;
    do {
        s[2 + n++] = (unsigned char)u;
        u = (uint64_t)((int64_t)u >> 8);
    } while (n < 8 && !((u == 0 && !(s[1 + n] & 0x80)) || (u == UINT64_MAX && (s[1 + n] & 0x80))));
    s[1] = (unsigned char)n;
    return put(p, s, (size_t)(2 + n));
}

static int save_float(Pickler *p, double f)
{
    uint64_t u;
    memcpy(&u, &f, 8);
    unsigned char s[9] = {'G'};
    for (int i = 0; i < 8; i++) s[1 + i] = (unsigned char)(u >> (56 - 8 * i));
    return put(p, s, 9);
}

static int save_str(Pickler *p, const void *key, const char *s, size_t n)
{
    int r = key ? memo_get(p, key) : 0;
    if (r) return r < 0 ? -1 : 0;
    if (n > UINT32_MAX) return exc_seti("OverflowError", "cannot serialize a string larger than 4GiB");
    if (put_u32(p, 'X', (uint32_t)n) < 0 || put(p, s, n) < 0) return -1;
    return key ? memo_put(p, key) : 0;
}

/* GLOBAL "module\nname\n", memoized by its text's address */
static int save_global(Pickler *p, const char *g)
{
    int r = memo_get(p, g);
    if (r) return r < 0 ? -1 : 0;
    if (op(p, 'c') < 0 || put(p, g, strlen(g)) < 0) return -1;
    return memo_put(p, g);
}

/* a fresh tuple of ints (never shared: not looked up, but memoized as
 * CPython memoizes every tuple it writes) */
static int fresh_put(Pickler *p);
static int save(Pickler *p, Value *v);

static int save_int_tuple(Pickler *p, int n, const int64_t *x)
{
    if (n == 0) return op(p, ')');
    if (n > 3 && op(p, '(') < 0) return -1;
    for (int i = 0; i < n; i++)
        if (save_int(p, x[i]) < 0) return -1;
    if (op(p, n > 3 ? 't' : (unsigned char)(0x85 + n - 1)) < 0) return -1;
    return fresh_put(p);
}

static int fresh_put(Pickler *p)
{
    uint64_t idx = p->memo.n;
    if (map_set(&p->memo, UINT64_MAX - idx, idx, NULL) < 0) return -1;
    if (idx < 256) return put(p, (unsigned char[]){'q', (unsigned char)idx}, 2);
    return put_u32(p, 'r', (uint32_t)idx);
}


/* ('storage', torch.FloatStorage, key, location, numel) BINPERSID */
static int save_persistent(Pickler *p, tsr_storage *s, tsr_dtype d)
{
    const char *key, *loc;
    if (p->persist(p->ctx, s, d, &key, &loc) < 0) return -1;
    if (op(p, '(') < 0 || save_str(p, K_STORAGE, K_STORAGE, 7) < 0) return -1;
    char *g = dtype_globals[d];
    if (!g[0]) snprintf(g, sizeof dtype_globals[d], "torch\n%s\n", tsr_dtype_traits_of(d)->storage_type);
    if (save_global(p, g) < 0 || save_str(p, key, key, strlen(key)) < 0 || save_str(p, loc, loc, strlen(loc)) < 0 ||
        save_int(p, (int64_t)(s->nbytes / (size_t)tsr_dtype_itemsize(d))) < 0 || op(p, 't') < 0 || fresh_put(p) < 0)
        return -1;
    return op(p, 'Q');
}

static char meta_dtype_globals[TSR_DTYPE_SLOTS][40];

/* torch.Tensor.__reduce_ex__ (torch/_tensor.py _reduce_ex_internal) */
static int save_tensor_key(Pickler *p, Value *v, const void *key);
static int save_tensor(Pickler *p, Value *v) { return save_tensor_key(p, v, v); }

/* A sparse tensor's indices or values: memoized under the runtime tensor,
 * which outlives the save (a temporary Value's address may be reused). */
static int save_part(Pickler *p, tsr_tensor *t)
{
    int r = memo_get(p, t);
    if (r) return r < 0 ? -1 : 0;
    Value *v = v_tensor(tsr_tensor_retain(t));
    if (!v) return -1;
    r = save_tensor_key(p, v, t);
    decref(v);
    return r;
}

/* torch.Tensor.__reduce_ex__, memoized under key. */
static int save_tensor_key(Pickler *p, Value *v, const void *key)
{
    tsr_tensor *t = tensor_of(v);
    if (t->sparse) {
        /* (torch._utils._rebuild_sparse_tensor, (layout, (indices, values, size))) */
        int rc = save_global(p, G_SPARSE) < 0 || op(p, '(') < 0 ||
                 save_global(p, "torch.serialization\n_get_layout\n") < 0 || op(p, '(') < 0 ||
                 save_str(p, "torch.sparse_coo", "torch.sparse_coo", 16) < 0 || op(p, 't') < 0 || fresh_put(p) < 0 ||
                 op(p, 'R') < 0 || fresh_put(p) < 0 || op(p, '(') < 0 || save_part(p, t->sparse->indices) < 0 || save_part(p, t->sparse->values) < 0 ||
                 save_int_tuple(p, t->ndim, t->sizes) < 0 || op(p, 't') < 0 || fresh_put(p) < 0 || op(p, 't') < 0 || fresh_put(p) < 0 ||
                 op(p, 'R') < 0 ? -1 : memo_put(p, key);   /* the size as a plain tuple: no temporary to memoize */
        return rc;
    }
    if (t->layout != TSR_LAYOUT_STRIDED)
        return exc_seti("NotImplementedError", "serialization of %s tensors is not implemented", tsr_layout_name(t->layout));
    if (tsr_device_is_meta(t->device)) {
        /* _rebuild_meta_tensor_no_storage(dtype, size, stride, requires_grad) */
        char *g = meta_dtype_globals[t->dtype];
        if (!g[0]) snprintf(g, sizeof meta_dtype_globals[t->dtype], "torch\n%s\n", tsr_dtype_name(t->dtype));
        if (save_global(p, G_META) < 0 || op(p, '(') < 0 || save_global(p, g) < 0 ||
            save_int_tuple(p, t->ndim, t->sizes) < 0 || save_int_tuple(p, t->ndim, t->strides) < 0 ||
            op(p, t->requires_grad ? 0x88 : 0x89) < 0 || op(p, 't') < 0 || fresh_put(p) < 0 || op(p, 'R') < 0)
            return -1;
        return memo_put(p, key);
    }
    if (save_global(p, G_REBUILD) < 0 || op(p, '(') < 0 || save_persistent(p, t->storage, t->dtype) < 0 ||
        save_int(p, t->storage_offset) < 0 || save_int_tuple(p, t->ndim, t->sizes) < 0 ||
        save_int_tuple(p, t->ndim, t->strides) < 0 || op(p, t->requires_grad ? 0x88 : 0x89) < 0 ||
        save_global(p, G_ODICT) < 0 || op(p, ')') < 0 || op(p, 'R') < 0 || fresh_put(p) < 0 || op(p, 't') < 0 ||
        fresh_put(p) < 0 || op(p, 'R') < 0)
        return -1;
    return memo_put(p, key);
}

/* _pickle.c batch_list_exact / batch_dict_exact: one item alone, else
 * batches of 1000 between MARK and APPENDS / SETITEMS */
static int save_items(Pickler *p, Value *v, bool dict)
{
    size_t n = dict ? dict_len(v) : seq_len(v);
    if (n == 0) return 0;
    size_t pos = 0, done = 0;
    Value *k = NULL, *x = NULL;
    if (n == 1) {
        if (dict) {
            dict_next(v, &pos, &k, &x);
            return save(p, k) < 0 || save(p, x) < 0 ? -1 : op(p, 's');
        }
        return save(p, seq_get(v, 0)) < 0 ? -1 : op(p, 'a');
    }
    while (done < n) {
        if (op(p, '(') < 0) return -1;
        for (int b = 0; b < 1000 && done < n; b++, done++) {
            if (dict) {
                if (!dict_next(v, &pos, &k, &x))
                    return exc_seti("RuntimeError", "dictionary changed size during iteration");
                if (save(p, k) < 0 || save(p, x) < 0) return -1;
            } else {
                if (done >= seq_len(v)) return exc_seti("RuntimeError", "list changed size during iteration");
                if (save(p, seq_get(v, done)) < 0) return -1;
            }
        }
        if (op(p, dict ? 'u' : 'e') < 0) return -1;
    }
    return 0;
}

static int save_inner(Pickler *p, Value *v)
{
    const VType *t = v->type;
    if (t == &t_none) return op(p, 'N');
    if (t == &t_bool) return op(p, v->u.i ? 0x88 : 0x89);
    if (t == &t_int) return save_int(p, v->u.i);
    if (t == &t_float) return save_float(p, v->u.f);
    if (t == &t_str) return save_str(p, v, v->u.s.p, v->u.s.n);
    int r = memo_get(p, v);
    if (r) return r < 0 ? -1 : 0;
    if (t == &t_complex)
        return save_global(p, G_COMPLEX) < 0 || save_float(p, v->u.c.re) < 0 || save_float(p, v->u.c.im) < 0 ||
                       op(p, 0x86) < 0 || fresh_put(p) < 0 || op(p, 'R') < 0 ? -1 : fresh_put(p);
    if (t == &t_tuple || t == &t_size) {
        size_t n = seq_len(v);
        if (t == &t_size && save_global(p, G_SIZE) < 0) return -1;
        if (n == 0) {
            if (op(p, ')') < 0) return -1;
            if (t == &t_tuple) return 0;
        } else {
            if (n > 3 && op(p, '(') < 0) return -1;
            for (size_t i = 0; i < n; i++)
                if (save(p, seq_get(v, i)) < 0) return -1;
            if (op(p, n > 3 ? 't' : (unsigned char)(0x85 + n - 1)) < 0) return -1;
            if (t == &t_tuple) return memo_put(p, v);
            if (fresh_put(p) < 0) return -1;
        }
        /* torch.Size.__reduce__: (torch.Size, (tuple(self),)) */
        return op(p, 0x85) < 0 || fresh_put(p) < 0 || op(p, 'R') < 0 ? -1 : memo_put(p, v);
    }
    if (t == &t_list) return op(p, ']') < 0 || memo_put(p, v) < 0 ? -1 : save_items(p, v, false);
    if (t == &t_dict) return op(p, '}') < 0 || memo_put(p, v) < 0 ? -1 : save_items(p, v, true);
    if (t == &t_tensor) return save_tensor(p, v);
    if (t == &t_storage) return save_persistent(p, storage_of(v), storage_dtype(v));
    if (t == &t_dtype) {
        tsr_dtype d = dtype_of(v);
        char *g = meta_dtype_globals[d];
        if (!g[0]) snprintf(g, sizeof meta_dtype_globals[d], "torch\n%s\n", tsr_dtype_name(d));
        return save_global(p, g);
    }
    return exc_seti("TypeError", "cannot pickle '%s' object", type_name(v));
}

static int save(Pickler *p, Value *v)
{
    if (++p->depth > MAX_EVAL_DEPTH) {
        p->depth--;
        return exc_seti("RecursionError", "maximum recursion depth exceeded while pickling an object");
    }
    int r = save_inner(p, v);
    p->depth--;
    return r;
}

int pickle_dump(Value *obj, PickleBuf *out, PicklePersist persist, void *ctx)
{
    Pickler p = {.b = out, .persist = persist, .ctx = ctx};
    int r = put(&p, "\x80\x02", 2) < 0 || save(&p, obj) < 0 || op(&p, '.') < 0 ? -1 : 0;
    map_free(&p.memo);
    return r;
}

/* ------------------------------------------------------------ unpickling */

/* The globals a file may name (_weights_only_unpickler._get_allowed_globals,
 * the subset tsr has): functions and classes as values of one small type. */
enum { G_REBUILD_V2, G_REBUILD_T, G_REBUILD_META, G_ORDERED_DICT, G_TORCH_SIZE, G_STORAGE_CLASS, G_COMPLEX_FN,
       G_REBUILD_SPARSE, G_GET_LAYOUT };

typedef struct { int kind; tsr_dtype dtype; } PGlobal;

static Value *pglobal_repr(Value *v)
{
    int kind = (int)v->u.ext.a;
    tsr_dtype d = (tsr_dtype)v->u.ext.b;
    switch (kind) {
    case G_REBUILD_V2: return v_str("<function _rebuild_tensor_v2>");
    case G_REBUILD_T: return v_str("<function _rebuild_tensor>");
    case G_REBUILD_META: return v_str("<function _rebuild_meta_tensor_no_storage>");
    case G_ORDERED_DICT: return v_str("<class 'collections.OrderedDict'>");
    case G_TORCH_SIZE: return v_str("<class 'torch.Size'>");
    case G_COMPLEX_FN: return v_str("<class 'complex'>");
    case G_REBUILD_SPARSE: return v_str("<function _rebuild_sparse_tensor>");
    case G_GET_LAYOUT: return v_str("<function _get_layout>");
    default: return v_strf("<class 'torch.%s'>", tsr_dtype_traits_of(d)->storage_type);
    }
}

static const VType t_pglobal = {.name = "type", .repr = pglobal_repr};

static Value *v_pglobal(int kind, tsr_dtype d)
{
    Value *v = value_alloc(&t_pglobal);
    v->u.ext.a = kind;
    v->u.ext.b = d;
    return v;
}

typedef struct {
    const unsigned char *d;
    size_t n, pos;
    bool wo;                /* weights_only */
    Value **stack;
    size_t sp, cap;
    size_t *marks;
    size_t nmarks, mcap;
    Map memo;               /* memo index → Value* */
    PickleLoad load;
    void *ctx;
} Unpickler;

/* the C unpickler's message, or the weights-only one's */
static Value *fail2(Unpickler *u, const char *ctype, const char *cmsg, const char *wtype, const char *wmsg)
{
    return u->wo ? exc_set(wtype, "%s", wmsg) : exc_set(ctype, "%s", cmsg);
}

static Value *truncated(Unpickler *u, const char *wtype, const char *wmsg)
{
    return fail2(u, "UnpicklingError", "pickle data was truncated", wtype, wmsg);
}

static const char *py_class_name(Value *v, char *buf, size_t n)
{
    const VType *t = v->type;
    if (t == &t_tensor) snprintf(buf, n, "<class 'torch.Tensor'>");
    else if (t->module) snprintf(buf, n, "<class '%s.%s'>", t->module, t->name);
    else snprintf(buf, n, "<class '%s'>", t->name);
    return buf;
}

/* Every level of nesting a pickle builds keeps at least one value on the
 * stack while it is built, so this bounds the depth of what is built (and
 * of the recursion that frees or prints it); PyTorch's pickles stay within a
 * few thousand (lists are appended in batches of 1000). */
#define MAX_STACK 20000

static int push(Unpickler *u, Value *v)   /* steals v */
{
    if (!v) return -1;
    if (u->sp >= MAX_STACK) {
        decref(v);
        return exc_seti("UnpicklingError", "the pickle's stack is deeper than tsr's limit of %d", MAX_STACK);
    }
    if (u->sp == u->cap) {
        size_t cap = u->cap ? 2 * u->cap : 64;
        Value **s = tsr_realloc(u->stack, cap * sizeof *s);
        if (!s) { decref(v); tsr_error_clear(); return exc_seti("MemoryError", "%s", ""); }
        u->stack = s;
        u->cap = cap;
    }
    u->stack[u->sp++] = v;
    return 0;
}

static size_t fence(Unpickler *u) { return u->nmarks ? u->marks[u->nmarks - 1] : 0; }

/* pops the top (a new reference for the caller), or NULL with the error */
static Value *pop(Unpickler *u)
{
    if (u->sp <= fence(u)) return fail2(u, "UnpicklingError", "unpickling stack underflow", "IndexError", "pop from empty list");
    return u->stack[--u->sp];
}

/* the top, borrowed */
static Value *top(Unpickler *u)
{
    if (u->sp <= fence(u)) return fail2(u, "UnpicklingError", "unpickling stack underflow", "IndexError", "list index out of range");
    return u->stack[u->sp - 1];
}

/* pop_mark: the items since the last MARK, as a new tuple */
static Value *pop_mark(Unpickler *u)
{
    if (!u->nmarks) return fail2(u, "UnpicklingError", "could not find MARK", "IndexError", "pop from empty list");
    size_t m = u->marks[--u->nmarks], n = u->sp - m;
    Value *t = v_tuple_sized(n);
    if (!t) return NULL;
    for (size_t i = 0; i < n; i++) t->u.seq.items[i] = u->stack[m + i];
    u->sp = m;
    return t;
}

/* reads n bytes: NULL when fewer are left (the caller reports) */
static const unsigned char *take(Unpickler *u, size_t n)
{
    if (u->n - u->pos < n) return NULL;
    const unsigned char *p = u->d + u->pos;
    u->pos += n;
    return p;
}

static uint32_t le32(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

static int valid_utf8(const unsigned char *s, size_t n, size_t *bad, const char **why)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        int k = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 && c >= 0xc2 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 && c <= 0xf4 ? 3 : -1;
        if (k < 0) { *bad = i; *why = "invalid start byte"; return 0; }
        if (i + (size_t)k >= n && k) { *bad = i; *why = "unexpected end of data"; return 0; }
        for (int j = 1; j <= k; j++)
            if ((s[i + (size_t)j] & 0xc0) != 0x80) { *bad = i; *why = "invalid continuation byte"; return 0; }
        if (k == 2 && ((c == 0xe0 && s[i + 1] < 0xa0)))
            { *bad = i; *why = "invalid continuation byte"; return 0; }
        if (k == 3 && ((c == 0xf0 && s[i + 1] < 0x90) || (c == 0xf4 && s[i + 1] >= 0x90)))
            { *bad = i; *why = "invalid continuation byte"; return 0; }
        i += (size_t)k + 1;
    }
    return 1;
}

static Value *str_value(Unpickler *u, const unsigned char *s, size_t n)
{
    size_t bad;
    const char *why;
    if (!valid_utf8(s, n, &bad, &why))
        return exc_set("UnicodeDecodeError", "'utf-8' codec can't decode byte 0x%02x in position %zu: %s", s[bad], bad, why);
    return v_strn_try((const char *)s, n);
}

/* GLOBAL module\nname\n: readline()[:-1] twice */
static Value *load_global(Unpickler *u)
{
    char full[256];
    size_t start[2], len[2];
    for (int k = 0; k < 2; k++) {
        const unsigned char *nl = memchr(u->d + u->pos, '\n', u->n - u->pos);
        if (!nl) {
            if (!u->wo) return truncated(u, "", "");
            start[k] = u->pos;
            len[k] = u->n - u->pos ? u->n - u->pos - 1 : 0;   /* readline()[:-1] without the newline */
            u->pos = u->n;
        } else {
            start[k] = u->pos;
            len[k] = (size_t)(nl - (u->d + u->pos));
            u->pos += len[k] + 1;
        }
    }
    snprintf(full, sizeof full, "%.*s.%.*s", (int)(len[0] > 100 ? 100 : len[0]), (const char *)u->d + start[0],
             (int)(len[1] > 100 ? 100 : len[1]), (const char *)u->d + start[1]);
    if (len[0] > 100 || len[1] > 100) goto refuse;
    static const struct { const char *name; int kind; } fixed[] = {
        {"torch._utils._rebuild_tensor_v2", G_REBUILD_V2}, {"torch._utils._rebuild_tensor", G_REBUILD_T},
        {"torch._utils._rebuild_meta_tensor_no_storage", G_REBUILD_META},
        {"torch._utils._rebuild_sparse_tensor", G_REBUILD_SPARSE},
        {"torch.serialization._get_layout", G_GET_LAYOUT},
        {"collections.OrderedDict", G_ORDERED_DICT}, {"torch.Size", G_TORCH_SIZE},
    };
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        if (!strcmp(full, fixed[i].name)) return v_pglobal(fixed[i].kind, TSR_FLOAT32);
    if (!u->wo && (!strcmp(full, "builtins.complex") || !strcmp(full, "__builtin__.complex"))) return v_pglobal(G_COMPLEX_FN, TSR_FLOAT32);
    if (!strcmp(full, "torch.sparse_coo")) return v_layout(TSR_LAYOUT_SPARSE_COO);   /* torch.layout's __reduce__ */
    if (!strncmp(full, "torch.", 6)) {
        const char *name = full + 6;
        for (int d = 0; d < TSR_DTYPE_SLOTS; d++) {
            if (!tsr_dtype_valid((tsr_dtype)d)) continue;
            const char *st = tsr_dtype_traits_of((tsr_dtype)d)->storage_type;
            if (st && !strcmp(name, st)) return v_pglobal(G_STORAGE_CLASS, (tsr_dtype)d);
            /* dtypes: the allow-list has the float, complex and signed int ones */
            if (!strcmp(name, tsr_dtype_name((tsr_dtype)d)) &&
                (!u->wo || (d != TSR_UINT8 && d != TSR_BOOL && d != TSR_BFLOAT16)))
                return v_dtype((tsr_dtype)d);
        }
    }
refuse:
    if (u->wo) return exc_set("RuntimeError", "Unsupported class %s", full);
    return exc_set("UnpicklingError", "tsr loads tensors, storages and Python's containers only, not %s", full);
}

/* _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad,
 * backward_hooks[, metadata]) and _rebuild_tensor(storage, offset, size, stride) */
static Value *rebuild_tensor(Unpickler *u, Value *args, int kind)
{
    size_t n = seq_len(args), need = kind == G_REBUILD_V2 ? 6 : 4;
    const char *fname = kind == G_REBUILD_V2 ? "_rebuild_tensor_v2" : "_rebuild_tensor";
    static const char *const pnames[] = {"storage", "storage_offset", "size", "stride", "requires_grad", "backward_hooks"};
    if (n > need + (kind == G_REBUILD_V2))
        return kind == G_REBUILD_V2 ? exc_set("TypeError", "%s() takes from 6 to 7 positional arguments but %zu were given", fname, n)
                                    : exc_set("TypeError", "%s() takes 4 positional arguments but %zu were given", fname, n);
    if (n < need) {
        /* CPython's "missing 3 required positional arguments: 'a', 'b', and 'c'" */
        char list[200] = "";
        size_t miss = need - n, len = 0;
        for (size_t i = n; i < need; i++) {
            size_t k = i - n;
            len += (size_t)snprintf(list + len, sizeof list - len, "%s'%s'",
                                    k == 0 ? "" : miss == 2 ? " and " : k + 1 == miss ? ", and " : ", ", pnames[i]);
        }
        return exc_set("TypeError", "%s() missing %zu required positional argument%s: %s", fname, miss, miss > 1 ? "s" : "", list);
    }
    Value *st = seq_get(args, 0);
    if (st->type != &t_storage) return exc_set("AttributeError", "'%s' object has no attribute 'dtype'", type_name(st));
    int64_t offset, sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    int nd, ns;
    if (value_as_int(seq_get(args, 1), &offset) < 0) return NULL;
    if (bind_int_list(seq_get(args, 2), "set_", "size", &nd, sizes, TSR_MAX_DIMS) < 0 ||
        bind_int_list(seq_get(args, 3), "set_", "stride", &ns, strides, TSR_MAX_DIMS) < 0)
        return NULL;
    if (nd != ns)
        return exc_set("RuntimeError", "mismatch in length of strides and shape");
    /* set_ grows a storage that is too small; a loaded one cannot grow */
    int64_t span = 1;
    for (int i = 0; i < nd && span; i++) {
        if (sizes[i] == 0) span = 0;
        else if (strides[i] > 0 && sizes[i] - 1 > (INT64_MAX / 2) / strides[i]) span = INT64_MAX / 2;
        else if (strides[i] > 0) span += (sizes[i] - 1) * strides[i];
    }
    int64_t have = storage_len(st);
    if (span && (offset < 0 || offset > INT64_MAX / 4 || span > INT64_MAX / 4 || offset + span > have) &&
        !tsr_device_is_meta(storage_of(st)->device))
        return exc_set("RuntimeError", "Trying to resize storage that is not resizable");
    tsr_tensor *t = tsr_tensor_from_storage(storage_of(st), offset, nd, sizes, strides, storage_dtype(st));
    if (!t) return bind_runtime_error();
    Value *v = v_tensor(t);
    if (v && kind == G_REBUILD_V2) {
        int rg = value_truth(seq_get(args, 4));
        if (rg < 0 || (rg && tsr_tensor_set_requires_grad(t, true, false) < 0)) {
            decref(v);
            return rg < 0 ? NULL : bind_runtime_error();
        }
    }
    (void)u;
    return v;
}

static Value *call_global(Unpickler *u, Value *fn, Value *args)
{
    if (fn->type != &t_pglobal) {
        if (u->wo) {
            Value *s = value_str(fn);
            if (!s) return NULL;
            exc_set("RuntimeError", "Trying to call reduce for unrecognized function %s", s->u.s.p);
            decref(s);
            return NULL;
        }
        return exc_set("TypeError", "'%s' object is not callable", type_name(fn));
    }
    if (args->type != &t_tuple) {
        if (!u->wo) return exc_set("TypeError", "argument list must be a tuple");
        Value *l = value_to_list(args);   /* func(*args) */
        if (!l) {
            static const char *const qn[] = {"_rebuild_tensor_v2", "_rebuild_tensor", "_rebuild_meta_tensor_no_storage",
                                             "collections.OrderedDict", "torch.Size", "complex", "storage"};
            if (!exc_matches("TypeError")) return NULL;
            exc_clear();
            return exc_set("TypeError", "%s() argument after * must be an iterable, not %s", qn[fn->u.ext.a], type_name(args));
        }
        Value *t = v_tuple_sized(seq_len(l));
        if (t) for (size_t i = 0; i < seq_len(l); i++) t->u.seq.items[i] = incref(seq_get(l, i));
        decref(l);
        if (!t) return NULL;
        Value *r = call_global(u, fn, t);
        decref(t);
        return r;
    }
    size_t n = seq_len(args);
    switch ((int)fn->u.ext.a) {
    case G_REBUILD_V2:
    case G_REBUILD_T:
        return rebuild_tensor(u, args, (int)fn->u.ext.a);
    case G_ORDERED_DICT:
        if (n > 1) return exc_set("TypeError", "expected at most 1 argument, got %zu", n);
        if (n == 0) return v_dict();
        return exc_set("UnpicklingError", "tsr builds an OrderedDict from no arguments only");
    case G_TORCH_SIZE: {
        int64_t sz[TSR_MAX_DIMS];
        int nd = 0;
        if (n > 1) return exc_set("TypeError", "Size() takes at most 1 argument (%zu given)", n);
        if (n == 1 && bind_int_list(seq_get(args, 0), "Size", "sizes", &nd, sz, TSR_MAX_DIMS) < 0) return NULL;
        return v_size(nd, sz);
    }
    case G_GET_LAYOUT: {   /* _get_layout("torch.sparse_coo"): how torch.layout pickles */
        Value *nm = n == 1 ? seq_get(args, 0) : NULL;
        if (!nm || nm->type != &t_str) return exc_set("UnpicklingError", "tsr: _get_layout expects a layout's name");
        for (int l = 0; l < TSR_LAYOUT_COUNT; l++)
            if (!strcmp(nm->u.s.p, tsr_layout_name((tsr_layout)l))) return v_layout((tsr_layout)l);
        return exc_set("KeyError", "'%s'", nm->u.s.p);
    }
    case G_REBUILD_SPARSE: {   /* _rebuild_sparse_tensor(layout, (indices, values, size)) */
        Value *lay = n == 2 ? seq_get(args, 0) : NULL, *data = n == 2 ? seq_get(args, 1) : NULL;
        if (!lay || lay->type != &t_layout || lay->u.ext.a != TSR_LAYOUT_SPARSE_COO || data->type != &t_tuple ||
            seq_len(data) != 3 || !is_tensor(seq_get(data, 0)) || !is_tensor(seq_get(data, 1)))
            return exc_set("UnpicklingError", "tsr rebuilds sparse_coo tensors from (indices, values, size) only");
        int64_t sz[TSR_MAX_DIMS];
        int nd;
        if (bind_int_list(seq_get(data, 2), "sparse_coo_tensor", "size", &nd, sz, TSR_MAX_DIMS) < 0) return NULL;
        tsr_tensor *ind = tensor_of(seq_get(data, 0)), *ind64 = ind->dtype == TSR_INT64 ? tsr_tensor_retain(ind)
                                                                                      : tsr_to_dtype(ind, TSR_INT64, false);
        tsr_tensor *t = ind64 ? tsr_sparse_coo_tensor(ind64, tensor_of(seq_get(data, 1)), nd, sz) : NULL;
        tsr_tensor_release(ind64);
        return t ? v_tensor(t) : bind_runtime_error();
    }
    case G_REBUILD_META: {
        if (n != 4)
            return exc_set("TypeError", "_rebuild_meta_tensor_no_storage() takes 4 positional arguments but %zu were given", n);
        Value *dt = seq_get(args, 0);
        int64_t sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
        int nd, ns;
        if (!is_dtype(dt)) return exc_set("TypeError", "empty_strided(): argument 'dtype' must be torch.dtype, not %s", type_name(dt));
        if (bind_int_list(seq_get(args, 1), "empty_strided", "size", &nd, sizes, TSR_MAX_DIMS) < 0 ||
            bind_int_list(seq_get(args, 2), "empty_strided", "stride", &ns, strides, TSR_MAX_DIMS) < 0)
            return NULL;
        if (nd != ns) return exc_set("RuntimeError", "mismatch in length of strides and shape");
        tsr_tensor *t = tsr_tensor_empty_strided(nd, sizes, strides, dtype_of(dt), TSR_META);
        if (!t) return bind_runtime_error();
        int rg = value_truth(seq_get(args, 3));
        if (rg < 0 || (rg && tsr_tensor_set_requires_grad(t, true, false) < 0)) {
            tsr_tensor_release(t);
            return rg < 0 ? NULL : bind_runtime_error();
        }
        return v_tensor(t);
    }
    case G_COMPLEX_FN: {
        double re = 0, im = 0;
        if (n > 2) return exc_set("TypeError", "complex() takes at most 2 arguments (%zu given)", n);
        if ((n > 0 && value_as_float(seq_get(args, 0), &re) < 0) || (n > 1 && value_as_float(seq_get(args, 1), &im) < 0))
            return NULL;
        return v_complex(re, im);
    }
    default:
        return exc_set("TypeError", "cannot create 'torch.%s' instances from a pickle",
                       tsr_dtype_traits_of((tsr_dtype)fn->u.ext.b)->storage_type);
    }
}

static int64_t as_text(Value *v, char *buf, size_t n)
{
    if (v->type == &t_str) { snprintf(buf, n, "%s", v->u.s.p); return 0; }
    Value *s = value_str(v);
    if (!s) return -1;
    snprintf(buf, n, "%s", s->u.s.p);
    decref(s);
    return 0;
}

/* BINPERSID: the weights-only check, then torch/serialization.py _load's
 * persistent_load */
static Value *persistent(Unpickler *u, Value *pid)
{
    char buf[200];
    if (!u->load)   /* the legacy format's magic-number pickle is loaded without a persistent_load */
        return u->wo ? exc_set("UnpicklingError", "unsupported persistent id encountered")
                     : exc_set("UnpicklingError", "A load persistent id instruction was encountered,\nbut no "
                               "persistent_load function was specified.");
    bool tup = pid->type == &t_tuple;
    if (u->wo && !tup && is_type(pid, &t_int))
        return exc_set("RuntimeError", "persistent_load id must be tuple or int, but got <class 'int'>");
    if (u->wo && tup && seq_len(pid) > 0) {
        Value *k = seq_get(pid, 0);
        if (k->type != &t_str || strcmp(k->u.s.p, "storage")) {
            if (as_text(k, buf, sizeof buf) < 0) return NULL;
            return exc_set("RuntimeError", "Only persistent_load of storage is allowed, but got %s", buf);
        }
    }
    if (!tup) return exc_set("AssertionError", "%s", "");
    if (seq_len(pid) == 0) return exc_set("IndexError", "tuple index out of range");
    Value *k = seq_get(pid, 0);
    if (k->type != &t_str || strcmp(k->u.s.p, "storage")) {
        if (as_text(k, buf, sizeof buf) < 0) return NULL;
        return exc_set("AssertionError", "Unknown typename for persistent_load, expected 'storage' but got '%s'", buf);
    }
    size_t n = seq_len(pid) - 1;
    if (n != 4)
        return n < 4 ? exc_set("ValueError", "not enough values to unpack (expected 4, got %zu)", n)
                     : exc_set("ValueError", "too many values to unpack (expected 4)");
    Value *cls = seq_get(pid, 1), *key = seq_get(pid, 2), *loc = seq_get(pid, 3), *numel = seq_get(pid, 4);
    if (cls->type != &t_pglobal || cls->u.ext.a != G_STORAGE_CLASS)
        return exc_set("AttributeError", "'%s' object has no attribute 'dtype'", type_name(cls));
    tsr_dtype d = (tsr_dtype)cls->u.ext.b;
    char kbuf[64], lbuf[64];
    if (as_text(key, kbuf, sizeof kbuf) < 0) return NULL;
    if (loc->type != &t_str) return exc_set("TypeError", "location must be a str, not %s", type_name(loc));
    snprintf(lbuf, sizeof lbuf, "%s", loc->u.s.p);
    int64_t ne;
    if (value_as_int(numel, &ne) < 0) return NULL;
    if (ne < 0 || ne > INT64_MAX / 16)
        return exc_set("RuntimeError", "Storage size calculation overflowed with sizes=[%" PRId64 "]", ne);
    return u->load(u->ctx, d, kbuf, lbuf, ne);
}

static Value *memo_lookup(Unpickler *u, uint64_t idx)
{
    uint64_t p;
    if (!map_find(&u->memo, idx, &p)) {
        if (u->wo) return exc_set("KeyError", "%" PRIu64, idx);
        return exc_set("UnpicklingError", "Memo value not found at index %" PRIu64, idx);
    }
    return incref((Value *)(uintptr_t)p);
}

static int memo_store(Unpickler *u, uint64_t idx)
{
    Value *v = top(u);
    if (!v) {
        /* BINPUT on an empty stack: the C unpickler's underflow */
        return -1;
    }
    uint64_t old;
    int r = map_set(&u->memo, idx, (uint64_t)(uintptr_t)incref(v), &old);
    if (r < 0) { decref(v); return -1; }
    if (r == 1) decref((Value *)(uintptr_t)old);
    return 0;
}

static void quote_key(int c, char *buf, size_t n)
{
    if (c == '\'') snprintf(buf, n, "\"'\"");
    else if (c == '\\') snprintf(buf, n, "'\\\\'");
    else if (c >= 0x20 && c < 0x7f) snprintf(buf, n, "'%c'", c);
    else if (c == '\n') snprintf(buf, n, "'\\n'");
    else if (c == '\t') snprintf(buf, n, "'\\t'");
    else if (c == '\r') snprintf(buf, n, "'\\r'");
    else snprintf(buf, n, "'\\x%02x'", c);
}

/* one opcode; 1 at STOP with *result set, 0 to go on, -1 error */
static int step(Unpickler *u, Value **result)
{
    if (u->pos >= u->n) {
        if (u->wo) exc_set("EOFError", "%s", "");
        else exc_set("EOFError", "Ran out of input");
        return -1;
    }
    int c = u->d[u->pos++];
    const unsigned char *p;
    Value *a, *b, *v;
    char cls[128];
    switch (c) {
    case 0x80:   /* PROTO */
        if (!(p = take(u, 1))) return truncated(u, "IndexError", "index out of range"), -1;
        if (!u->wo && p[0] > 5) return exc_seti("ValueError", "unsupported pickle protocol: %d", p[0]);
        return 0;
    case '.':    /* STOP */
        if (!(*result = pop(u))) return -1;
        return 1;
    case '(':    /* MARK */
        if (u->nmarks == u->mcap) {
            size_t cap = u->mcap ? 2 * u->mcap : 16;
            size_t *m = tsr_realloc(u->marks, cap * sizeof *m);
            if (!m) { tsr_error_clear(); return exc_seti("MemoryError", "%s", ""); }
            u->marks = m;
            u->mcap = cap;
        }
        u->marks[u->nmarks++] = u->sp;
        return 0;
    case '}': return push(u, v_dict());
    case ']': return push(u, v_list(0));
    case ')': return push(u, v_tuple(0));
    case 'N': return push(u, v_none());
    case 0x88: return push(u, v_bool(true));
    case 0x89: return push(u, v_bool(false));
    case 'K':
        if (!(p = take(u, 1))) return truncated(u, "IndexError", "index out of range"), -1;
        return push(u, v_int(p[0]));
    case 'M':
        if (!(p = take(u, 2))) return truncated(u, "error", "unpack requires a buffer of 2 bytes"), -1;
        return push(u, v_int(p[0] | p[1] << 8));
    case 'J':
        if (!(p = take(u, 4))) return truncated(u, "error", "unpack requires a buffer of 4 bytes"), -1;
        return push(u, v_int((int32_t)le32(p)));
    case 0x8a: { /* LONG1 */
        if (!(p = take(u, 1))) return truncated(u, "IndexError", "index out of range"), -1;
        size_t n = p[0];
        const unsigned char *q = take(u, n);
        if (!q) {
            if (!u->wo) return truncated(u, "", ""), -1;
            q = u->d + u->pos;
            n = u->n - u->pos;
            u->pos = u->n;
        }
        if (n > 8) {
            /* more than int64 unless it is only sign extension */
            for (size_t i = 8; i < n; i++)
                if (q[i] != ((q[7] & 0x80) ? 0xff : 0)) return exc_seti("OverflowError", "int too large for tsr (64 bits)");
            n = 8;
        }
        uint64_t x = 0;
        for (size_t i = 0; i < n; i++) x |= (uint64_t)q[i] << (8 * i);
        if (n && n < 8 && (q[n - 1] & 0x80)) x |= UINT64_MAX << (8 * n);
        return push(u, v_int((int64_t)x));
    }
    case 'G':
        if (u->wo) return exc_seti("RuntimeError", "Unsupported operand %d", c);
        if (!(p = take(u, 8))) return truncated(u, "", ""), -1;
        {
            uint64_t x = 0;
            for (int i = 0; i < 8; i++) x = x << 8 | p[i];
            double f;
            memcpy(&f, &x, 8);
            return push(u, v_float(f));
        }
    case 'X':    /* BINUNICODE */
    case 0x8c: { /* SHORT_BINUNICODE (protocol 4; the C unpickler only) */
        if (c == 0x8c && u->wo) return exc_seti("RuntimeError", "Unsupported operand %d", c);
        size_t w = c == 'X' ? 4 : 1;
        if (!(p = take(u, w))) return truncated(u, "error", "unpack requires a buffer of 4 bytes"), -1;
        size_t n = c == 'X' ? le32(p) : p[0];
        const unsigned char *s = take(u, n);
        if (!s) {
            if (!u->wo) return truncated(u, "", ""), -1;
            s = u->d + u->pos;   /* read(n) gives what is left */
            n = u->n - u->pos;
            u->pos = u->n;
        }
        return push(u, str_value(u, s, n));
    }
    case 'U': {  /* SHORT_BINSTRING, decoded as utf-8 (torch.load's encoding) */
        if (!(p = take(u, 1))) return truncated(u, "IndexError", "index out of range"), -1;
        size_t n = p[0];
        const unsigned char *s = take(u, n);
        if (!s) {
            if (!u->wo) return truncated(u, "", ""), -1;
            s = u->d + u->pos;
            n = u->n - u->pos;
            u->pos = u->n;
        }
        return push(u, str_value(u, s, n));
    }
    case 't':
        return push(u, pop_mark(u));
    case 0x85: case 0x86: case 0x87: {
        size_t n = (size_t)(c - 0x84);
        if (u->sp < fence(u) + n) {
            fail2(u, "UnpicklingError", "unpickling stack underflow", "IndexError", "list index out of range");
            return -1;
        }
        Value *t = v_tuple_sized(n);
        if (!t) return -1;
        for (size_t i = 0; i < n; i++) t->u.seq.items[i] = u->stack[u->sp - n + i];
        u->sp -= n;
        return push(u, t);
    }
    case 'a':    /* APPEND */
        if (!(v = pop(u))) return -1;
        if (!(a = top(u))) { decref(v); return -1; }
        if (a->type != &t_list) {
            decref(v);
            if (u->wo) return exc_seti("RuntimeError", "Can only append to lists, but got %s", py_class_name(a, cls, sizeof cls));
            return exc_seti("AttributeError", "'%s' object has no attribute 'append'", type_name(a));
        }
        return list_append_steal(a, v);
    case 'e': {  /* APPENDS */
        Value *items = pop_mark(u);
        if (!items) return -1;
        if (!(a = top(u))) { decref(items); return -1; }
        if (a->type != &t_list) {
            decref(items);
            if (u->wo) return exc_seti("RuntimeError", "Can only extend lists, but got %s", py_class_name(a, cls, sizeof cls));
            return exc_seti("AttributeError", "'%s' object has no attribute 'extend'", type_name(a));
        }
        for (size_t i = 0; i < seq_len(items); i++)
            if (list_append(a, seq_get(items, i)) < 0) { decref(items); return -1; }
        decref(items);
        return 0;
    }
    case 's':    /* SETITEM */
        if (!(v = pop(u))) return -1;
        if (!(b = pop(u))) { decref(v); return -1; }
        if (!(a = top(u))) { decref(v); decref(b); return -1; }
        {
            int r = value_setitem(a, b, v);
            decref(v);
            decref(b);
            return r;
        }
    case 'u': {  /* SETITEMS */
        Value *items = pop_mark(u);
        if (!items) return -1;
        if (!(a = top(u))) { decref(items); return -1; }
        size_t n = seq_len(items);
        if (n % 2 && !u->wo) {
            decref(items);
            return exc_seti("UnpicklingError", "odd number of items for SETITEMS");
        }
        for (size_t i = 0; i < n; i += 2) {
            if (i + 1 >= n) { decref(items); return exc_seti("IndexError", "list index out of range"); }
            if (value_setitem(a, seq_get(items, i), seq_get(items, i + 1)) < 0) { decref(items); return -1; }
        }
        decref(items);
        return 0;
    }
    case 'h':
        if (!(p = take(u, 1))) return truncated(u, "IndexError", "index out of range"), -1;
        return push(u, memo_lookup(u, p[0]));
    case 'j':
        if (!(p = take(u, 4))) return truncated(u, "error", "unpack requires a buffer of 4 bytes"), -1;
        return push(u, memo_lookup(u, le32(p)));
    case 'q':
        if (!(p = take(u, 1))) return truncated(u, "IndexError", "index out of range"), -1;
        return memo_store(u, p[0]);
    case 'r':
        if (!(p = take(u, 4))) return truncated(u, "error", "unpack requires a buffer of 4 bytes"), -1;
        return memo_store(u, le32(p));
    case 0x94:   /* MEMOIZE (protocol 4, the C unpickler only) */
        if (u->wo) return exc_seti("RuntimeError", "Unsupported operand %d", c);
        return memo_store(u, u->memo.n);
    case 'c':
        return push(u, load_global(u));
    case 'R':    /* REDUCE */
        if (!(b = pop(u))) return -1;
        if (!(a = top(u))) { decref(b); return -1; }
        v = call_global(u, a, b);
        decref(b);
        if (!v) return -1;
        decref(u->stack[u->sp - 1]);
        u->stack[u->sp - 1] = v;
        return 0;
    case 'Q':    /* BINPERSID */
        if (!(a = pop(u))) return -1;
        v = persistent(u, a);
        decref(a);
        return push(u, v);
    case 'b':    /* BUILD: an OrderedDict's empty state only */
        if (!(b = pop(u))) return -1;
        if (!(a = top(u))) { decref(b); return -1; }
        {
            /* an OrderedDict's __dict__ (a state_dict's _metadata): tsr's dict has none to update */
            bool ok = a->type == &t_dict && b->type == &t_dict;
            decref(b);
            if (ok) return 0;
            if (!u->wo) return exc_seti("AttributeError", "'%s' object has no attribute '__dict__'", type_name(a));
            return exc_seti("RuntimeError", "Can only build Tensor, parameter or dict objects, but got %s",
                            py_class_name(a, cls, sizeof cls));
        }
    case 0x95:   /* FRAME (protocol 4): an 8-byte length; frames are not checked */
        if (u->wo) return exc_seti("RuntimeError", "Unsupported operand %d", c);
        if (!take(u, 8)) return truncated(u, "", ""), -1;
        return 0;
    default:
        if (u->wo) return exc_seti("RuntimeError", "Unsupported operand %d", c);
        {
            /* a valid opcode of a later protocol or of Python objects tsr
             * has no value for, or no opcode at all */
            static const char known[] = "0123FIJKLMNPQRSVXabcdeghijlopqrstu}])(.\x80\x81\x82\x83\x84\x85\x86\x87"
                                        "\x88\x89\x8a\x8b\x8c\x8d\x8e\x8f\x90\x91\x92\x93\x94\x95\x96\x97\x98" "BCG";
            char key[16];
            if (c && memchr(known, c, sizeof known - 1)) {
                quote_key(c, key, sizeof key);
                return exc_seti("UnpicklingError", "tsr does not load pickle opcode %s", key);
            }
            quote_key(c, key, sizeof key);
            return exc_seti("UnpicklingError", "invalid load key, %s.", key);
        }
    }
}

Value *pickle_load(const char *data, size_t n, bool weights_only, PickleLoad load, void *ctx)
{
    Unpickler u = {.d = (const unsigned char *)data, .n = n, .wo = weights_only, .load = load, .ctx = ctx};
    Value *result = NULL;
    int r;
    size_t steps = 0;
    while ((r = step(&u, &result)) == 0) {
        if (++steps % 4096 == 0 && tsr_check_interrupt()) { bind_runtime_error(); break; }
    }
    for (size_t i = 0; i < u.sp; i++) decref(u.stack[i]);
    for (size_t i = 0; i < u.memo.cap; i++)
        if (u.memo.k[i]) decref((Value *)(uintptr_t)u.memo.v[i]);
    map_free(&u.memo);
    tsr_free(u.stack);
    tsr_free(u.marks);
    if (r != 1) {
        decref(result);
        if (!exc_pending()) exc_set("UnpicklingError", "pickle data was truncated");
        return NULL;
    }
    return result;
}
