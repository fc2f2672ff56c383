/* src/value.c — references, constructors, dicts, exceptions and the generic
 * protocol (repr, truth, operators, attributes, items, iteration) that the
 * evaluator and the bindings share. Type-specific behaviour is in the slots. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "value.h"

const char *const op_symbol[OP__COUNT] = {
    "+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "&", "|", "^",
    "-", "+", "~", "<", "<=", "==", "!=", ">", ">=",
};
const char *const op_dunder[OP__COUNT] = {
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul",
    "lshift", "rshift", "and", "or", "xor", "neg", "pos", "invert",
    "lt", "le", "eq", "ne", "gt", "ge",
};
_Static_assert(sizeof op_symbol / sizeof *op_symbol == OP__COUNT, "op_symbol");

int eval_depth;

/* ---------------------------------------------------------------- memory */

/* The constructors below cannot fail: when one finds no memory, a spare
 * block is given back and the allocation tried again, and the evaluator
 * raises MemoryError at its next check (value_memory_check); the spare is
 * taken again after the statement (value_memory_refill). Allocations whose
 * size the user controls go through value_malloc and fail at once. */
#define SPARE_BYTES ((size_t)8 << 20)
static void *spare;
bool value_memory_low;

/* A simulated failure (tsr_fault_sim) behaves as a real one that the spare
 * absorbed, even before the spare is taken. */
static bool give_back_spare(bool simulated)
{
    if (!spare && !simulated) return false;
    free(spare);
    spare = NULL;
    value_memory_low = true;
    return true;
}

void value_memory_refill(void)
{
    /* not counted: the spare is what lets a failure be survived, and a
     * failure to take it again is already handled (no spare: the next
     * failure raises at once) */
    if (!spare) spare = malloc(SPARE_BYTES);
    value_memory_low = false;
}

int value_memory_raise(void)
{
    value_memory_low = false;
    return exc_seti("MemoryError", "%s", "");
}

/* Every allocation of src/ counts toward the runtime's fault injection
 * (tsr_fault_sim): a simulated failure takes the same path as a real one. */
static void *xcalloc(size_t n, size_t sz)
{
    bool sim = tsr_fault_tick();
    void *p = sim ? NULL : calloc(n ? n : 1, sz);
    if (!p && give_back_spare(sim)) p = calloc(n ? n : 1, sz);
    if (!p) { fputs("tsr: out of memory\n", stderr); abort(); }
    return p;
}

void *value_xmalloc(size_t n) { return value_xrealloc(NULL, n); }

void *value_xrealloc(void *p, size_t n)
{
    bool sim = tsr_fault_tick();
    void *q = sim ? NULL : realloc(p, n ? n : 1);
    if (!q && give_back_spare(sim)) q = realloc(p, n ? n : 1);
    if (!q) { fputs("tsr: out of memory\n", stderr); abort(); }
    return q;
}

void *value_xcalloc(size_t n, size_t sz) { return xcalloc(n, sz); }

char *value_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(value_xmalloc(n), s, n);
}

void *value_malloc(size_t n)
{
    void *p = tsr_fault_tick() ? NULL : malloc(n ? n : 1);
    if (!p) exc_set("MemoryError", "%s", "");
    return p;
}

void *value_try_realloc(void *p, size_t n)
{
    return tsr_fault_tick() ? NULL : realloc(p, n ? n : 1);
}

void *value_realloc(void *p, size_t n)
{
    void *q = tsr_fault_tick() ? NULL : realloc(p, n ? n : 1);
    if (!q) exc_set("MemoryError", "%s", "");
    return q;
}

/* Freed Values are kept for reuse: the interpreter makes and drops one or
 * more per operation. */
static Value small_ints[262]; /* -5 .. 256, as CPython caches them */
static Value *free_values;
static size_t nfree_values;

static Value *live_containers; /* lists and dicts, linked through gc_prev/gc_next */

Value *value_alloc(const VType *t)
{
    Value *v = free_values;
    if (v) {
        free_values = *(Value **)v;
        nfree_values--;
        memset(v, 0, sizeof *v);
    } else {
        v = xcalloc(1, sizeof *v);
    }
    v->refcnt = 1;
    v->type = t;
    if (t == &t_list || t == &t_dict) {
        v->gc_next = live_containers;
        if (live_containers) live_containers->gc_prev = v;
        live_containers = v;
    }
    return v;
}

static void unlink_container(Value *v)
{
    if (v->gc_prev) v->gc_prev->gc_next = v->gc_next;
    else if (live_containers == v) live_containers = v->gc_next;
    if (v->gc_next) v->gc_next->gc_prev = v->gc_prev;
    v->gc_prev = v->gc_next = NULL;
}

void value_break_cycles(void)
{
    size_t n = 0;
    for (Value *v = live_containers; v; v = v->gc_next) n++;
    if (!n) return;
    /* not counted: the session's end (fault injection is off by then), where
     * a failure has no one to report to; a real one skips the break */
    Value **all = malloc(n * sizeof *all);
    if (!all) return;
    size_t i = 0;
    for (Value *v = live_containers; v; v = v->gc_next) all[i++] = incref(v);
    for (i = 0; i < n; i++) {
        Value *v = all[i];
        if (v->type == &t_list) {
            size_t k = v->u.seq.n;
            v->u.seq.n = 0;
            while (k) decref(v->u.seq.items[--k]);
        } else {
            Value *fresh = v_dict();
            Dict *old = v->u.dict;
            v->u.dict = fresh->u.dict;
            fresh->u.dict = old;
            decref(fresh); /* frees the old entries */
        }
    }
    for (i = 0; i < n; i++) decref(all[i]);
    free(all);
}

static Value none_v = {.refcnt = 1L << 40, .type = &t_none};
static Value true_v = {.refcnt = 1L << 40, .type = &t_bool, .u = {.i = 1}};
static Value false_v = {.refcnt = 1L << 40, .type = &t_bool, .u = {.i = 0}};
static Value ellipsis_v = {.refcnt = 1L << 40, .type = &t_ellipsis};
static Value notimpl_v = {.refcnt = 1L << 40, .type = &t_notimpl};

/* Freeing a value frees what it holds, which could recurse as deep as the
 * data is nested ([[[...]]] 10^6 levels): past a small depth the values
 * are queued and freed by the outermost call (CPython's trashcan). */
static int free_depth;
static Value **free_queue;
static size_t free_queue_n, free_queue_cap;

static void free_now(Value *v)
{
    if (v->type == &t_list || v->type == &t_dict) unlink_container(v);
    if (v->type->destroy) v->type->destroy(v);
    if (nfree_values < 4096) {
        *(Value **)v = free_values;
        free_values = v;
        nfree_values++;
        return;
    }
    free(v);
}

void value_free(Value *v)
{
    if (v == &none_v || v == &true_v || v == &false_v || v == &ellipsis_v || v == &notimpl_v) return;
    if (v >= small_ints && v < small_ints + 262) return;
    if (free_depth >= 64) {
        if (free_queue_n == free_queue_cap) {
            free_queue_cap = free_queue_cap * 2 + 256;
            free_queue = value_xrealloc(free_queue, free_queue_cap * sizeof *free_queue);
        }
        free_queue[free_queue_n++] = v;
        return;
    }
    free_depth++;
    free_now(v);
    if (free_depth == 1)
        while (free_queue_n) free_now(free_queue[--free_queue_n]);
    free_depth--;
}

/* ------------------------------------------------------------ exceptions */

static struct {
    bool pending;
    char type[64];
    char *msg;
    bool has_span;
    Span span;
    Value *obj;            /* the exception instance, when one was raised as a value */
} exc;

static void exc_vset(const char *type, const char *fmt, va_list ap)
{
    if (exc.pending) return; /* the first error wins */
    exc.pending = true;
    snprintf(exc.type, sizeof exc.type, "%s", type);
    free(exc.msg);
    exc.msg = NULL;
    if (vasprintf(&exc.msg, fmt, ap) < 0) exc.msg = NULL;
    exc.has_span = false;
    CLEAR(exc.obj);
}

Value *exc_set(const char *type, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    exc_vset(type, fmt, ap);
    va_end(ap);
    return NULL;
}

int exc_seti(const char *type, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    exc_vset(type, fmt, ap);
    va_end(ap);
    return -1;
}

bool exc_pending(void) { return exc.pending; }
const char *exc_type(void) { return exc.type; }
const char *exc_message(void) { return exc.msg ? exc.msg : ""; }
bool exc_matches(const char *type) { return exc.pending && strcmp(exc.type, type) == 0; }
bool exc_has_span(void) { return exc.has_span; }
Span exc_span(void) { return exc.span; }

void exc_clear(void)
{
    exc.pending = false;
    exc.has_span = false;
    free(exc.msg);
    exc.msg = NULL;
    CLEAR(exc.obj);
}

void exc_set_object(Value *obj, const char *type, const char *msg)
{
    if (exc.pending) return;
    exc_set(type, "%s", msg);
    exc.obj = incref(obj);
}

Value *exc_object(void) { return exc.pending ? exc.obj : NULL; }

void exc_save(ExcSaved *s)
{
    s->pending = exc.pending;
    snprintf(s->type, sizeof s->type, "%s", exc.type);
    s->msg = exc.msg;
    s->has_span = exc.has_span;
    s->span = exc.span;
    s->obj = exc.obj;
    exc.msg = NULL;
    exc.obj = NULL;
    exc.pending = exc.has_span = false;
}

void exc_restore(ExcSaved *s)
{
    exc_clear();
    exc.pending = s->pending;
    snprintf(exc.type, sizeof exc.type, "%s", s->type);
    exc.msg = s->msg;
    exc.has_span = s->has_span;
    exc.span = s->span;
    exc.obj = s->obj;
    s->msg = NULL;
    s->obj = NULL;
    s->pending = false;
}

void exc_saved_free(ExcSaved *s)
{
    free(s->msg);
    s->msg = NULL;
    CLEAR(s->obj);
    s->pending = false;
}

void exc_set_span(Span sp)
{
    if (exc.pending && !exc.has_span) {
        exc.span = sp;
        exc.has_span = true;
    }
}

/* ---------------------------------------------------------- constructors */

Value *v_none(void) { return incref(&none_v); }
Value *v_bool(bool b) { return incref(b ? &true_v : &false_v); }
Value *v_ellipsis(void) { return incref(&ellipsis_v); }
Value *value_not_implemented(void) { return incref(&notimpl_v); }

Value *v_int(int64_t i)
{
    if (i >= -5 && i <= 256) {
        Value *c = &small_ints[i + 5];
        if (!c->type) {
            c->type = &t_int;
            c->refcnt = 1L << 40;
            c->u.i = i;
        }
        return incref(c);
    }
    Value *v = value_alloc(&t_int);
    v->u.i = i;
    return v;
}

Value *v_float(double f)
{
    Value *v = value_alloc(&t_float);
    v->u.f = f;
    return v;
}

Value *v_complex(double re, double im)
{
    Value *v = value_alloc(&t_complex);
    v->u.c.re = re;
    v->u.c.im = im;
    return v;
}

Value *v_str_take(char *s, size_t n)
{
    Value *v = value_alloc(&t_str);
    v->u.s.p = s;
    v->u.s.n = n;
    return v;
}

Value *v_strn(const char *s, size_t n)
{
    char *p = xcalloc(n + 1, 1);
    memcpy(p, s, n);
    return v_str_take(p, n);
}

Value *v_strn_try(const char *s, size_t n)
{
    char *p = value_malloc(n + 1);
    if (!p) return NULL;
    memcpy(p, s, n);
    p[n] = 0;
    return v_str_take(p, n);
}

Value *v_str(const char *s) { return v_strn(s, strlen(s)); }

Value *v_strf(const char *fmt, ...)
{
    va_list ap;
    char *p;
    va_start(ap, fmt);
    int n = vasprintf(&p, fmt, ap);
    va_end(ap);
    if (n < 0 && give_back_spare(false)) {
        va_start(ap, fmt);
        n = vasprintf(&p, fmt, ap);
        va_end(ap);
    }
    if (n < 0) { fputs("tsr: out of memory\n", stderr); abort(); }
    return v_str_take(p, (size_t)n);
}

static Value *new_seq(const VType *t, size_t n)
{
    Value *v = value_alloc(t);
    v->u.seq.items = xcalloc(n ? n : 1, sizeof(Value *));
    v->u.seq.n = n;
    v->u.seq.cap = n ? n : 1;
    return v;
}

Value *v_tuple(size_t n) { return new_seq(&t_tuple, n); }
Value *v_list(size_t n) { return new_seq(&t_list, n); }

static Value *new_seq_sized(const VType *t, size_t n)
{
    Value **items = n > SIZE_MAX / sizeof *items ? NULL : value_malloc((n ? n : 1) * sizeof *items);
    if (!items) return exc_set("MemoryError", "%s", "");
    memset(items, 0, (n ? n : 1) * sizeof *items);
    Value *v = value_alloc(t);
    v->u.seq.items = items;
    v->u.seq.n = n;
    v->u.seq.cap = n ? n : 1;
    return v;
}

Value *v_list_sized(size_t n) { return new_seq_sized(&t_list, n); }
Value *v_tuple_sized(size_t n) { return new_seq_sized(&t_tuple, n); }

Value *v_tuple_of(int n, ...)
{
    Value *t = v_tuple((size_t)n);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) t->u.seq.items[i] = va_arg(ap, Value *);
    va_end(ap);
    return t;
}

Value *v_range(int64_t start, int64_t stop, int64_t step)
{
    Value *v = value_alloc(&t_range);
    v->u.range.start = start;
    v->u.range.stop = stop;
    v->u.range.step = step;
    return v;
}

Value *v_slice(Value *start, Value *stop, Value *step)
{
    Value *v = value_alloc(&t_slice);
    v->u.slice.start = start ? incref(start) : v_none();
    v->u.slice.stop = stop ? incref(stop) : v_none();
    v->u.slice.step = step ? incref(step) : v_none();
    return v;
}

Value *v_builtin(const char *name, BuiltinFn fn, Value *self, void *data)
{
    Value *v = value_alloc(&t_builtin);
    v->u.bi.name = name;
    v->u.bi.fn = fn;
    v->u.bi.self = incref(self);
    v->u.bi.data = data;
    return v;
}

Value *v_typeobj(const VType *t)
{
    Value *v = value_alloc(&t_type);
    v->u.typeobj = t;
    return v;
}

bool is_int_like(Value *v) { return v->type == &t_int || v->type == &t_bool; }
bool is_number(Value *v) { return is_int_like(v) || v->type == &t_float; }

int list_append_steal(Value *l, Value *x)
{
    if (value_memory_check() < 0) { decref(x); return -1; }
    if (l->u.seq.n == l->u.seq.cap) {
        size_t cap = l->u.seq.cap * 2 + 4;
        Value **p = cap > SIZE_MAX / sizeof *p ? NULL : value_realloc(l->u.seq.items, cap * sizeof *p);
        if (!p) { decref(x); return exc_seti("MemoryError", "%s", ""); }
        l->u.seq.items = p;
        l->u.seq.cap = cap;
    }
    l->u.seq.items[l->u.seq.n++] = x;
    return 0;
}

int list_append(Value *l, Value *x) { return list_append_steal(l, incref(x)); }

/* ------------------------------------------------------------------ dicts */

struct Dict {
    Value **keys, **vals;
    uint64_t *hashes;
    size_t n, cap;
    uint32_t *index; /* entry + 1, 0 = empty; size icap (power of two) */
    size_t icap;
};

static void dict_reindex(Dict *d)
{
    free(d->index);
    d->icap = 8;
    while (d->icap < d->n * 2 + 2) d->icap *= 2;
    d->index = xcalloc(d->icap, sizeof *d->index);
    for (size_t e = 0; e < d->n; e++) {
        size_t j = d->hashes[e] & (d->icap - 1);
        while (d->index[j]) j = (j + 1) & (d->icap - 1);
        d->index[j] = (uint32_t)(e + 1);
    }
}

Value *v_dict(void)
{
    Value *v = value_alloc(&t_dict);
    v->u.dict = xcalloc(1, sizeof(Dict));
    return v;
}

/* Returns the entry index, -1 if absent, -2 on error. */
static long dict_find(Dict *d, Value *key, uint64_t h)
{
    if (!d->index) return -1;
    size_t j = h & (d->icap - 1);
    while (d->index[j]) {
        size_t e = d->index[j] - 1;
        if (d->hashes[e] == h) {
            int eq = d->keys[e] == key ? 1 : value_eq(d->keys[e], key);
            if (eq < 0) return -2;
            if (eq) return (long)e;
        }
        j = (j + 1) & (d->icap - 1);
    }
    return -1;
}

Value *dict_get(Value *dv, Value *key)
{
    int ok;
    uint64_t h = value_hash(key, &ok);
    if (!ok) return NULL;
    long e = dict_find(dv->u.dict, key, h);
    return e >= 0 ? dv->u.dict->vals[e] : NULL;
}

Value *dict_get_str(Value *dv, const char *key)
{
    Value *k = v_str(key);
    Value *r = dict_get(dv, k);
    decref(k);
    return r;
}

int dict_set(Value *dv, Value *key, Value *x)
{
    Dict *d = dv->u.dict;
    int ok;
    uint64_t h = value_hash(key, &ok);
    if (!ok) return -1;
    long e = dict_find(d, key, h);
    if (e == -2) return -1;
    if (e >= 0) {
        Value *old = d->vals[e];
        d->vals[e] = incref(x);
        decref(old);
        return 0;
    }
    if (d->n == d->cap) {
        size_t cap = d->cap * 2 + 8;
        /* each array keeps its old contents until all three have grown */
        Value **k = value_realloc(d->keys, cap * sizeof *d->keys);
        if (!k) return -1;
        d->keys = k;
        Value **vs = value_realloc(d->vals, cap * sizeof *d->vals);
        if (!vs) return -1;
        d->vals = vs;
        uint64_t *hs = value_realloc(d->hashes, cap * sizeof *d->hashes);
        if (!hs) return -1;
        d->hashes = hs;
        d->cap = cap;
    }
    d->keys[d->n] = incref(key);
    d->vals[d->n] = incref(x);
    d->hashes[d->n] = h;
    d->n++;
    if (d->n * 2 + 2 > d->icap) {
        dict_reindex(d);
    } else {
        size_t j = h & (d->icap - 1);
        while (d->index[j]) j = (j + 1) & (d->icap - 1);
        d->index[j] = (uint32_t)d->n;
    }
    return 0;
}

int dict_set_str(Value *d, const char *key, Value *x)
{
    Value *k = v_str(key);
    int r = dict_set(d, k, x);
    decref(k);
    return r;
}

int dict_del(Value *dv, Value *key)
{
    Dict *d = dv->u.dict;
    int ok;
    uint64_t h = value_hash(key, &ok);
    if (!ok) return -1;
    long e = dict_find(d, key, h);
    if (e == -2) return -1;
    if (e < 0) return 1;
    decref(d->keys[e]);
    decref(d->vals[e]);
    size_t rest = d->n - (size_t)e - 1;
    memmove(d->keys + e, d->keys + e + 1, rest * sizeof *d->keys);
    memmove(d->vals + e, d->vals + e + 1, rest * sizeof *d->vals);
    memmove(d->hashes + e, d->hashes + e + 1, rest * sizeof *d->hashes);
    d->n--;
    dict_reindex(d);
    return 0;
}

/* The evaluator's names: str keys with a cached hash. A hit on the hinted
 * entry costs a pointer compare (names are interned, see str_intern) or,
 * for a key made elsewhere (a binding's dict_set_str), a hash and memcmp. */
static inline bool hint_hits(Dict *d, size_t e, Value *key)
{
    if (e >= d->n) return false;
    Value *k = d->keys[e];
    return k == key || (d->hashes[e] == key->u.s.h && k->type == &t_str && k->u.s.n == key->u.s.n &&
                        !memcmp(k->u.s.p, key->u.s.p, key->u.s.n));
}

Value *dict_get_hinted(Value *dv, Value *key, int *hint)
{
    Dict *d = dv->u.dict;
    if (hint_hits(d, (size_t)*hint, key)) return d->vals[*hint];
    int ok;
    long e = dict_find(d, key, value_hash(key, &ok));
    if (e < 0) return NULL;
    *hint = (int)e;
    return d->vals[e];
}

int dict_set_hinted(Value *dv, Value *key, Value *x, int *hint)
{
    Dict *d = dv->u.dict;
    if (hint_hits(d, (size_t)*hint, key)) {
        Value *old = d->vals[*hint];
        d->vals[*hint] = incref(x);
        decref(old);
        return 0;
    }
    if (dict_set(dv, key, x) < 0) return -1;
    long e = dict_find(d, key, key->u.s.h);
    if (e >= 0) *hint = (int)e;
    return 0;
}

/* One str per distinct name, alive until str_intern_clear (the session's
 * end): the evaluator's dict keys then compare by pointer. */
static Value *interned;

Value *str_intern(const char *s)
{
    Value *k = v_str(s);
    int ok;
    uint64_t h = value_hash(k, &ok);
    (void)h;
    if (!interned) interned = v_dict();
    Value *x = dict_get(interned, k);
    if (x) {
        decref(k);
        return incref(x);
    }
    if (dict_set(interned, k, k) < 0) exc_clear(); /* out of memory: an uninterned key is still correct */
    return k;
}

void str_intern_clear(void)
{
    CLEAR(interned);
}

void dict_clear(Value *dv)
{
    Dict *d = dv->u.dict;
    size_t n = d->n;
    d->n = 0;
    if (d->icap > 64) {   /* a big table is not kept for the next few keys */
        free(d->index);
        d->index = NULL;
        d->icap = 0;
    } else if (d->index) {
        memset(d->index, 0, d->icap * sizeof *d->index);
    }
    for (size_t i = 0; i < n; i++) {
        decref(d->keys[i]);
        decref(d->vals[i]);
    }
}

size_t dict_len(Value *d) { return d->u.dict->n; }

bool dict_next(Value *dv, size_t *pos, Value **k, Value **v)
{
    Dict *d = dv->u.dict;
    if (*pos >= d->n) return false;
    if (k) *k = d->keys[*pos];
    if (v) *v = d->vals[*pos];
    (*pos)++;
    return true;
}

Value *dict_copy(Value *src)
{
    Value *d = v_dict();
    Value *k, *v;
    for (size_t i = 0; dict_next(src, &i, &k, &v);)
        if (dict_set(d, k, v) < 0) { decref(d); return NULL; }   /* MemoryError */
    return d;
}

void dict_destroy_payload(Value *v);
void dict_destroy_payload(Value *v)
{
    Dict *d = v->u.dict;
    for (size_t i = 0; i < d->n; i++) {
        decref(d->keys[i]);
        decref(d->vals[i]);
    }
    free(d->keys);
    free(d->vals);
    free(d->hashes);
    free(d->index);
    free(d);
}

/* ---------------------------------------------------------------- modules */

void module_destroy_payload(Value *v);
void module_destroy_payload(Value *v)
{
    free(v->u.mod->name);
    decref(v->u.mod->attrs);
    free(v->u.mod);
}

Value *v_module(const char *name)
{
    Value *v = value_alloc(&t_module);
    v->u.mod = xcalloc(1, sizeof(Module));
    v->u.mod->name = value_xstrdup(name);
    v->u.mod->attrs = v_dict();
    return v;
}

void module_add(Value *mod, const char *name, Value *x)
{
    dict_set_str(mod->u.mod->attrs, name, x);
    decref(x);
}

void module_add_fn(Value *mod, const char *name, BuiltinFn fn)
{
    module_add(mod, name, v_builtin(name, fn, NULL, NULL));
}

/* --------------------------------------------------------- float formats */

/* tmp ([-]d.ddde[+-]XX, the correctly rounded digits of f, which do not
 * round-trip) replaced by the string one unit away in its last digit that
 * does, if one does: the shortest round-tripping string need not be the
 * correctly rounded one (Python's dtoa mode 0). */
static bool last_digit_neighbour(char *tmp, double f)
{
    char *e = strchr(tmp, 'e');
    if (!e) return false;
    for (int step = -1; step <= 1; step += 2) {
        char t[40];
        memcpy(t, tmp, sizeof t);
        int first = *t == '-', i = (int)(e - tmp) - 1;
        bool done = false;
        for (; i >= first && !done; i--) {   /* +-1 in the last digit, carrying */
            if (t[i] == '.') continue;
            done = step > 0 ? t[i] < '9' : t[i] > '0';
            t[i] = done ? (char)(t[i] + step) : step > 0 ? '0' : '9';
        }
        if (!done || t[first] == '0') continue;   /* a carry out of the first digit */
        if (strtod(t, NULL) == f) {
            memcpy(tmp, t, sizeof t);
            return true;
        }
    }
    return false;
}

/* Python's repr(float): the shortest string that round-trips, fixed notation
 * for decimal exponents in [-4, 16), else d.ddde+XX. */
void format_float_repr(double f, char *buf, size_t n)
{
    if (isnan(f)) { snprintf(buf, n, "nan"); return; }
    if (isinf(f)) { snprintf(buf, n, f < 0 ? "-inf" : "inf"); return; }
    char tmp[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*e", prec - 1, f);
        if (strtod(tmp, NULL) == f || last_digit_neighbour(tmp, f)) break;
    }
    /* tmp = [-]d.ddde[+-]XX */
    char digits[24];
    int nd = 0;
    const char *p = tmp;
    bool neg = false;
    if (*p == '-') { neg = true; p++; }
    for (; *p && *p != 'e'; p++)
        if (*p != '.') digits[nd++] = *p;
    digits[nd] = 0;
    int exp10 = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0') digits[--nd] = 0;
    char *o = buf;
    size_t left = n;
#define PUT(...) do { int w_ = snprintf(o, left, __VA_ARGS__); if (w_ > 0 && (size_t)w_ < left) { o += w_; left -= (size_t)w_; } } while (0)
    if (neg) PUT("-");
    if (exp10 >= -4 && exp10 < 16) {
        if (exp10 < 0) {
            PUT("0.");
            for (int i = 0; i < -exp10 - 1; i++) PUT("0");
            PUT("%s", digits);
        } else {
            for (int i = 0; i <= exp10; i++) PUT("%c", i < nd ? digits[i] : '0');
            PUT(".");
            if (nd > exp10 + 1) PUT("%s", digits + exp10 + 1);
            else PUT("0");
        }
    } else {
        PUT("%c", digits[0]);
        if (nd > 1) PUT(".%s", digits + 1);
        PUT("e%c%02d", exp10 < 0 ? '-' : '+', abs(exp10));
    }
#undef PUT
}

Value *float_repr_str(double f)
{
    char buf[64];
    format_float_repr(f, buf, sizeof buf);
    return v_str(buf);
}

/* repr of a complex part: like float repr but integral values lose ".0". */
static void complex_part(double f, char *buf, size_t n)
{
    format_float_repr(f, buf, n);
    size_t l = strlen(buf);
    if (l > 2 && strcmp(buf + l - 2, ".0") == 0) buf[l - 2] = 0;
}

void format_complex_repr(double re, double im, char *buf, size_t n)
{
    char a[64], b[64];
    complex_part(im, b, sizeof b);
    if (re == 0 && !signbit(re)) {
        snprintf(buf, n, "%sj", b);
        return;
    }
    complex_part(re, a, sizeof a);
    bool plus = !(signbit(im) || b[0] == '-') && !isnan(im);
    if (isnan(im)) plus = true;
    snprintf(buf, n, "(%s%s%sj)", a, plus ? "+" : "", b);
}

Value *str_repr(const char *s, size_t n)
{
    bool sq = memchr(s, '\'', n) != NULL, dq = memchr(s, '"', n) != NULL;
    char q = (sq && !dq) ? '"' : '\'';
    size_t cap = n * 4 + 3, o = 0;
    char *buf = value_malloc(cap + 1);
    if (!buf) return NULL;
    buf[o++] = q;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == (unsigned char)q || c == '\\') { buf[o++] = '\\'; buf[o++] = (char)c; }
        else if (c == '\n') { buf[o++] = '\\'; buf[o++] = 'n'; }
        else if (c == '\t') { buf[o++] = '\\'; buf[o++] = 't'; }
        else if (c == '\r') { buf[o++] = '\\'; buf[o++] = 'r'; }
        else if (c < 0x20 || c == 0x7f) o += (size_t)sprintf(buf + o, "\\x%02x", c);
        else buf[o++] = (char)c;
    }
    buf[o++] = q;
    buf[o] = 0;
    return v_str_take(buf, o);
}

/* ------------------------------------------------------------- protocol */

const char *type_name(Value *v) { return v->type->name; }

Value *value_repr(Value *v)
{
    if (value_memory_check() < 0) return NULL;
    if (eval_depth > MAX_EVAL_DEPTH)
        return exc_set("RecursionError", "maximum recursion depth exceeded while getting the repr of an object");
    if (v->type->repr) {
        eval_depth++;
        Value *r = v->type->repr(v);
        eval_depth--;
        return r;
    }
    return v_strf("<%s object at %p>", v->type->name, (void *)v);
}

Value *value_str(Value *v)
{
    if (v->type == &t_str) return incref(v);
    if (v->type->str) return v->type->str(v);
    return value_repr(v);
}

int value_truth(Value *v)
{
    if (v->type->truth) return v->type->truth(v);
    if (v->type->len) {
        int64_t n = v->type->len(v);
        return n < 0 ? -1 : n > 0;
    }
    return 1;
}

static Value *binop_type_error(int op, Value *a, Value *b)
{
    if (op == OP_POW)
        return exc_set("TypeError", "unsupported operand type(s) for ** or pow(): '%s' and '%s'",
                       type_name(a), type_name(b));
    return exc_set("TypeError", "unsupported operand type(s) for %s: '%s' and '%s'",
                   op_symbol[op], type_name(a), type_name(b));
}

Value *value_binop(int op, Value *a, Value *b)
{
    Value *r;
    if (a->type->binop) {
        r = a->type->binop(op, a, b, 0);
        if (!r || r != &notimpl_v) return r;
        decref(r);
    }
    if (b->type != a->type && b->type->binop) {
        r = b->type->binop(op, b, a, 1);
        if (!r || r != &notimpl_v) return r;
        decref(r);
    }
    return binop_type_error(op, a, b);
}

Value *value_inplace(int op, Value *a, Value *b)
{
    if (a->type->inplace) {
        Value *r = a->type->inplace(op, a, b);
        if (!r || r != &notimpl_v) return r;
        decref(r);
    }
    return value_binop(op, a, b);
}

Value *value_unop(int op, Value *a)
{
    if (a->type->unop) {
        Value *r = a->type->unop(op, a);
        if (!r || r != &notimpl_v) return r;
        decref(r);
    }
    const char *name = op == OP_NEG ? "unary -" : op == OP_POS ? "unary +" : "unary ~";
    return exc_set("TypeError", "bad operand type for %s: '%s'", name, type_name(a));
}

static Value *value_compare_inner(int op, Value *a, Value *b);

static int swapped_op(int op)
{
    switch (op) {
    case OP_LT: return OP_GT;
    case OP_LE: return OP_GE;
    case OP_GT: return OP_LT;
    case OP_GE: return OP_LE;
    default: return op;
    }
}

Value *value_compare(int op, Value *a, Value *b)
{
    if (eval_depth > MAX_EVAL_DEPTH * 4)
        return exc_set("RecursionError", "maximum recursion depth exceeded in comparison");
    eval_depth++;
    Value *r = value_compare_inner(op, a, b);
    eval_depth--;
    return r;
}

static Value *value_compare_inner(int op, Value *a, Value *b)
{
    Value *r;
    if (a->type->compare) {
        r = a->type->compare(op, a, b, 0);
        if (!r || r != &notimpl_v) return r;
        decref(r);
    }
    if (b->type->compare && b->type != a->type) {
        r = b->type->compare(swapped_op(op), b, a, 1);
        if (!r || r != &notimpl_v) return r;
        decref(r);
    }
    if (op == OP_EQ) return v_bool(a == b);
    if (op == OP_NE) return v_bool(a != b);
    return exc_set("TypeError", "'%s' not supported between instances of '%s' and '%s'",
                   op_symbol[op], type_name(a), type_name(b));
}

int value_eq(Value *a, Value *b)
{
    if (a == b) return 1;
    if (a->type->eq && a->type == b->type) {
        if (eval_depth > MAX_EVAL_DEPTH * 4)
            return exc_seti("RecursionError", "maximum recursion depth exceeded in comparison");
        eval_depth++;
        int r = a->type->eq(a, b);
        eval_depth--;
        return r;
    }
    Value *r = value_compare(OP_EQ, a, b);
    if (!r) return -1;
    int t = value_truth(r);
    decref(r);
    return t;
}

int value_lt(Value *a, Value *b)
{
    Value *r = value_compare(OP_LT, a, b);
    if (!r) return -1;
    int t = value_truth(r);
    decref(r);
    return t;
}

Value *value_getattr(Value *v, const char *name)
{
    Value *r = v->type->getattr ? v->type->getattr(v, name) : NULL;
    if (r || exc_pending()) return r;
    if (v->type == &t_module)
        return exc_set("AttributeError", "module '%s' has no attribute '%s'", v->u.mod->name, name);
    if (v->type == &t_type)
        return exc_set("AttributeError", "type object '%s' has no attribute '%s'", v->u.typeobj->name, name);
    return exc_set("AttributeError", "'%s' object has no attribute '%s'", type_name(v), name);
}

int value_setattr(Value *v, const char *name, Value *x)
{
    if (v->type->setattr) return v->type->setattr(v, name, x);
    Value *has = v->type->getattr ? v->type->getattr(v, name) : NULL;
    exc_clear();
    if (has) {
        decref(has);
        return exc_seti("AttributeError", "'%s' object attribute '%s' is read-only", type_name(v), name);
    }
    return exc_seti("AttributeError", "'%s' object has no attribute '%s'", type_name(v), name);
}

Value *value_getitem(Value *v, Value *key)
{
    if (v->type->getitem) return v->type->getitem(v, key);
    return exc_set("TypeError", "'%s' object is not subscriptable", type_name(v));
}

int value_setitem(Value *v, Value *key, Value *x)
{
    if (v->type->setitem) return v->type->setitem(v, key, x);
    return exc_seti("TypeError", "'%s' object does not support item assignment", type_name(v));
}

int value_delitem(Value *v, Value *key)
{
    if (v->type->delitem) return v->type->delitem(v, key);
    return exc_seti("TypeError", "'%s' object doesn't support item deletion", type_name(v));
}

bool value_is_callable(Value *v) { return v->type->call != NULL; }

Value *value_call(Value *f, CallArgs *a)
{
    if (!f->type->call) return exc_set("TypeError", "'%s' object is not callable", type_name(f));
    if (eval_depth > MAX_EVAL_DEPTH)
        return exc_set("RecursionError", "maximum recursion depth exceeded");
    eval_depth++;
    Value *r = f->type->call(f, a);
    eval_depth--;
    return r;
}

Value *value_call0(Value *f, int n, Value **args)
{
    CallArgs a = {args, n, NULL, NULL, 0};
    return value_call(f, &a);
}

Value *value_iter(Value *v)
{
    if (v->type->iter) return v->type->iter(v);
    return exc_set("TypeError", "'%s' object is not iterable", type_name(v));
}

Value *value_next(Value *it)
{
    if (!it->type->next) return exc_set("TypeError", "'%s' object is not an iterator", type_name(it));
    return it->type->next(it);
}

int64_t value_len(Value *v)
{
    if (v->type->len) return v->type->len(v);
    exc_set("TypeError", "object of type '%s' has no len()", type_name(v));
    return -1;
}

int value_contains(Value *c, Value *x)
{
    if (c->type->contains) return c->type->contains(c, x);
    Value *it = value_iter(c);
    if (!it) {
        exc_clear();
        return exc_seti("TypeError", "argument of type '%s' is not iterable", type_name(c));
    }
    int found = 0;
    Value *e;
    while ((e = value_next(it))) {
        int eq = value_eq(e, x);
        decref(e);
        if (eq) { found = eq; break; }
    }
    decref(it);
    if (exc_pending()) return -1;
    return found;
}

uint64_t value_hash(Value *v, int *ok)
{
    *ok = 1;
    if (v->type->hash) {
        if (eval_depth > MAX_EVAL_DEPTH * 4) {
            *ok = 0;
            exc_set("RecursionError", "maximum recursion depth exceeded while calling a Python object");
            return 0;
        }
        eval_depth++;
        uint64_t h = v->type->hash(v, ok);
        eval_depth--;
        return h;
    }
    if (v->type == &t_list || v->type == &t_dict) {
        *ok = 0;
        exc_set("TypeError", "unhashable type: '%s'", type_name(v));
        return 0;
    }
    uint64_t h = (uint64_t)(uintptr_t)v;
    return h ^ (h >> 17);
}

Value *value_to_list(Value *v)
{
    if (v->type == &t_list || v->type == &t_tuple) {
        Value *l = v_list_sized(v->u.seq.n);
        if (!l) return NULL;
        for (size_t i = 0; i < v->u.seq.n; i++) l->u.seq.items[i] = incref(v->u.seq.items[i]);
        return l;
    }
    Value *it = value_iter(v);
    if (!it) return NULL;
    Value *l = v_list(0), *e;
    while ((e = value_next(it)))
        if (list_append_steal(l, e) < 0) break;
    decref(it);
    if (exc_pending()) { decref(l); return NULL; }
    return l;
}

int value_as_int(Value *v, int64_t *out)
{
    if (is_int_like(v)) { *out = v->u.i; return 0; }
    Value *ix = v->type->getattr ? v->type->getattr(v, "__index__") : NULL; /* one-element integer tensors */
    if (ix) {
        Value *r = value_call0(ix, 0, NULL);
        decref(ix);
        if (!r) return -1;
        int ok = is_int_like(r);
        if (ok) *out = r->u.i;
        decref(r);
        if (ok) return 0;
    }
    if (exc_pending()) return -1;
    return exc_seti("TypeError", "'%s' object cannot be interpreted as an integer", type_name(v));
}

int value_as_float(Value *v, double *out)
{
    if (is_int_like(v)) { *out = (double)v->u.i; return 0; }
    if (v->type == &t_float) { *out = v->u.f; return 0; }
    return exc_seti("TypeError", "must be real number, not %s", type_name(v));
}
