/* src/containers.c — str, tuple, list, dict, range, slice, iterators,
 * built-in functions and modules: Python's behaviour and messages. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctors.h"
#include "format.h"
#include "value.h"

typedef struct { const char *name; BuiltinFn fn; } Method;

static Value *find_method(const Method *m, Value *self, const char *name)
{
    for (; m->name; m++)
        if (!strcmp(m->name, name)) return v_builtin(m->name, m->fn, self, NULL);
    return NULL;
}

static const char *method_dir(const Method *m, int i)
{
    for (int k = 0; m[k].name; k++)
        if (k == i) return m[k].name;
    return NULL;
}

/* Checks a method's positional arity with Python's wording. */
static int arity(CallArgs *a, const char *name, int min, int max)
{
    if (a->nkw) return exc_seti("TypeError", "%s() takes no keyword arguments", name);
    if (a->npos < min || a->npos > max) {
        if (min == max && min == 0)
            return exc_seti("TypeError", "%s() takes no arguments (%d given)", name, a->npos);
        if (min == max)
            return exc_seti("TypeError", "%s() takes exactly one argument (%d given)", name, a->npos);
        if (a->npos < min)
            return exc_seti("TypeError", "%s expected at least %d argument%s, got %d", name, min,
                            min == 1 ? "" : "s", a->npos);
        return exc_seti("TypeError", "%s expected at most %d argument%s, got %d", name, max,
                        max == 1 ? "" : "s", a->npos);
    }
    return 0;
}

/* ------------------------------------------------------------- indexing */

int seq_index(Value *key, int64_t len, int64_t *out, const char *what)
{
    int64_t i;
    if (is_int_like(key)) i = key->u.i;
    else if (key->type->getattr) {
        Value *ix = key->type->getattr(key, "__index__"); /* one-element integer tensors */
        if (!ix) {
            if (exc_pending()) return -1;
            return exc_seti("TypeError", "%s indices must be integers or slices, not %s", what, type_name(key));
        }
        Value *r = value_call0(ix, 0, NULL);
        decref(ix);
        if (!r) return -1;
        i = r->u.i;
        decref(r);
    } else return exc_seti("TypeError", "%s indices must be integers or slices, not %s", what, type_name(key));
    if (i < 0) i += len;
    if (i < 0 || i >= len) return exc_seti("IndexError", "%s index out of range", what);
    *out = i;
    return 0;
}

static int slice_part(Value *v, int64_t *out)
{
    if (is_none(v)) return 1;
    if (!is_int_like(v))
        return exc_seti("TypeError", "slice indices must be integers or None or have an __index__ method");
    *out = v->u.i;
    return 0;
}

int slice_indices(Value *s, int64_t len, int64_t *start, int64_t *stop, int64_t *step, int64_t *count)
{
    int64_t st = 1, a = 0, b = 0;
    int r;
    if ((r = slice_part(s->u.slice.step, &st)) < 0) return -1;
    if (st == 0) return exc_seti("ValueError", "slice step cannot be zero");
    if ((r = slice_part(s->u.slice.start, &a)) < 0) return -1;
    if (r == 1) a = st < 0 ? len - 1 : 0;
    else {
        if (a < 0) { a += len; if (a < 0) a = st < 0 ? -1 : 0; }
        else if (a >= len) a = st < 0 ? len - 1 : len;
    }
    if ((r = slice_part(s->u.slice.stop, &b)) < 0) return -1;
    if (r == 1) b = st < 0 ? -1 : len;
    else {
        if (b < 0) { b += len; if (b < 0) b = st < 0 ? -1 : 0; }
        else if (b >= len) b = st < 0 ? len - 1 : len;
    }
    int64_t n = 0;
    if (st > 0 && b > a) n = (b - a - 1) / st + 1;
    if (st < 0 && a > b) n = (a - b - 1) / (-st) + 1;
    *start = a; *stop = b; *step = st; *count = n;
    return 0;
}

/* ---------------------------------------------------------------- str */

static void str_destroy(Value *v) { free(v->u.s.p); }
static Value *s_repr(Value *v) { return str_repr(v->u.s.p, v->u.s.n); }
static int64_t s_len(Value *v) { return (int64_t)v->u.s.n; }
static int s_eq(Value *a, Value *b) { return a->u.s.n == b->u.s.n && !memcmp(a->u.s.p, b->u.s.p, a->u.s.n); }

static uint64_t s_hash(Value *v, int *ok)
{
    (void)ok;
    if (v->u.s.h) return v->u.s.h;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < v->u.s.n; i++) h = (h ^ (unsigned char)v->u.s.p[i]) * 1099511628211ULL;
    if (!h) h = 1;
    v->u.s.h = h;
    return h;
}

static Value *s_concat(Value *a, Value *b)
{
    size_t n = a->u.s.n + b->u.s.n;
    char *p = value_malloc(n + 1);
    if (!p) return NULL;
    memcpy(p, a->u.s.p, a->u.s.n);
    memcpy(p + a->u.s.n, b->u.s.p, b->u.s.n);
    p[n] = 0;
    return v_str_take(p, n);
}

static Value *repeat_count(Value *n, int64_t *out)
{
    *out = n->u.i < 0 ? 0 : n->u.i;
    return NULL;
}

/* seq * x where x is no int but may have __index__ (a one-element integer
 * tensor): its count, or -1 with its error; 0 with *has = false when x has
 * no __index__ at all (the operator is then not ours). */
static int index_count(Value *x, int64_t *out, bool *has)
{
    Value *ix = x->type->getattr ? x->type->getattr(x, "__index__") : NULL;
    *has = ix != NULL;
    if (!ix) { exc_clear(); return 0; }
    decref(ix);
    if (value_as_int(x, out) < 0) return -1;
    if (*out < 0) *out = 0;
    return 0;
}

static Value *s_binop(int op, Value *self, Value *other, int reflected)
{
    if (op == OP_MOD && !reflected) return format_percent(self, other);
    if (op == OP_ADD) {
        if (other->type == &t_str) return reflected ? s_concat(other, self) : s_concat(self, other);
        if (!reflected)
            return exc_set("TypeError", "can only concatenate str (not \"%s\") to str", type_name(other));
    }
    if (op == OP_MUL && !is_int_like(other) && (other->type == &t_str || other->type == &t_float ||
                                                 other->type == &t_list || other->type == &t_tuple))
        return exc_set("TypeError", "can't multiply sequence by non-int of type '%s'", type_name(other));
    int64_t k = 0;
    bool has_index = false;
    if (op == OP_MUL && !is_int_like(other) && index_count(other, &k, &has_index) < 0) return NULL;
    if (op == OP_MUL && (is_int_like(other) || has_index)) {
        if (is_int_like(other)) repeat_count(other, &k);
        if (k && self->u.s.n > (size_t)(1 << 30) / (size_t)k)
            return exc_set("MemoryError", "repeated string is too long");
        size_t n = self->u.s.n * (size_t)k;
        char *p = value_malloc(n + 1);
        if (!p) return NULL;
        for (int64_t i = 0; i < k; i++) memcpy(p + (size_t)i * self->u.s.n, self->u.s.p, self->u.s.n);
        p[n] = 0;
        return v_str_take(p, n);
    }
    return value_not_implemented();
}

static Value *s_compare(int op, Value *self, Value *other, int reflected)
{
    (void)reflected;
    if (other->type != &t_str) return value_not_implemented();
    size_t n = self->u.s.n < other->u.s.n ? self->u.s.n : other->u.s.n;
    int c = memcmp(self->u.s.p, other->u.s.p, n);
    if (!c) c = self->u.s.n < other->u.s.n ? -1 : self->u.s.n > other->u.s.n;
    switch (op) {
    case OP_LT: return v_bool(c < 0);
    case OP_LE: return v_bool(c <= 0);
    case OP_EQ: return v_bool(c == 0);
    case OP_NE: return v_bool(c != 0);
    case OP_GT: return v_bool(c > 0);
    default: return v_bool(c >= 0);
    }
}

static Value *s_getitem(Value *v, Value *key)
{
    if (key->type == &t_slice) {
        int64_t a, b, st, n;
        if (slice_indices(key, (int64_t)v->u.s.n, &a, &b, &st, &n) < 0) return NULL;
        char *p = value_malloc((size_t)n + 1);
        if (!p) return NULL;
        for (int64_t i = 0; i < n; i++) p[i] = v->u.s.p[a + i * st];
        p[n] = 0;
        return v_str_take(p, (size_t)n);
    }
    int64_t i;
    if (seq_index(key, (int64_t)v->u.s.n, &i, "string") < 0) return NULL;
    return v_strn(v->u.s.p + i, 1);
}

static int s_contains(Value *v, Value *x)
{
    if (x->type != &t_str)
        return exc_seti("TypeError", "'in <string>' requires string as left operand, not %s", type_name(x));
    return memmem(v->u.s.p, v->u.s.n, x->u.s.p, x->u.s.n) != NULL;
}

static Value *s_map(Value *self, int (*f)(int))
{
    Value *r = v_strn_try(self->u.s.p, self->u.s.n);
    if (!r) return NULL;
    for (size_t i = 0; i < r->u.s.n; i++) r->u.s.p[i] = (char)f((unsigned char)r->u.s.p[i]);
    return r;
}

static Value *sm_upper(Value *s, CallArgs *a, void *d) { (void)d; return arity(a, "upper", 0, 0) ? NULL : s_map(s, toupper); }
static Value *sm_lower(Value *s, CallArgs *a, void *d) { (void)d; return arity(a, "lower", 0, 0) ? NULL : s_map(s, tolower); }

static Value *sm_strip_common(Value *s, CallArgs *a, const char *name, bool left, bool right)
{
    if (arity(a, name, 0, 1)) return NULL;
    const char *chars = " \t\n\r\v\f";
    if (a->npos && !is_none(a->pos[0])) {
        if (a->pos[0]->type != &t_str)
            return exc_set("TypeError", "%s arg must be None or str", name);
        chars = a->pos[0]->u.s.p;
    }
    size_t b = 0, e = s->u.s.n;
    while (left && b < e && strchr(chars, s->u.s.p[b]) && s->u.s.p[b]) b++;
    while (right && e > b && strchr(chars, s->u.s.p[e - 1]) && s->u.s.p[e - 1]) e--;
    return v_strn_try(s->u.s.p + b, e - b);
}
static Value *sm_strip(Value *s, CallArgs *a, void *d) { (void)d; return sm_strip_common(s, a, "strip", 1, 1); }
static Value *sm_lstrip(Value *s, CallArgs *a, void *d) { (void)d; return sm_strip_common(s, a, "lstrip", 1, 0); }
static Value *sm_rstrip(Value *s, CallArgs *a, void *d) { (void)d; return sm_strip_common(s, a, "rstrip", 0, 1); }

static Value *sm_split(Value *s, CallArgs *a, void *d)
{
    (void)d;
    if (arity(a, "split", 0, 2)) return NULL;
    Value *out = v_list(0);
    const char *p = s->u.s.p, *end = p + s->u.s.n;
    int64_t maxsplit = a->npos > 1 && is_int_like(a->pos[1]) ? a->pos[1]->u.i : -1;
    if (a->npos == 0 || is_none(a->pos[0])) {
        while (p < end) {
            while (p < end && isspace((unsigned char)*p)) p++;
            if (p >= end) break;
            const char *q = p;
            if (maxsplit == 0) q = end;
            else while (q < end && !isspace((unsigned char)*q)) q++;
            if (list_append_steal(out, v_strn(p, (size_t)(q - p))) < 0) { decref(out); return NULL; }
            if (maxsplit > 0) maxsplit--;
            p = q;
        }
        return out;
    }
    Value *sep = a->pos[0];
    if (sep->type != &t_str) { decref(out); return exc_set("TypeError", "must be str or None, not %s", type_name(sep)); }
    if (sep->u.s.n == 0) { decref(out); return exc_set("ValueError", "empty separator"); }
    for (;;) {
        const char *q = maxsplit == 0 ? NULL : memmem(p, (size_t)(end - p), sep->u.s.p, sep->u.s.n);
        if (!q) {
            if (list_append_steal(out, v_strn(p, (size_t)(end - p))) < 0) { decref(out); return NULL; }
            break;
        }
        if (list_append_steal(out, v_strn(p, (size_t)(q - p))) < 0) { decref(out); return NULL; }
        p = q + sep->u.s.n;
        if (maxsplit > 0) maxsplit--;
    }
    return out;
}

static Value *sm_join(Value *s, CallArgs *a, void *d)
{
    (void)d;
    if (arity(a, "join", 1, 1)) return NULL;
    Value *l = value_to_list(a->pos[0]);
    if (!l) return NULL;
    size_t n = 0;
    for (size_t i = 0; i < seq_len(l); i++) {
        Value *x = seq_get(l, i);
        if (x->type != &t_str) {
            decref(l);
            return exc_set("TypeError", "sequence item %zu: expected str instance, %s found", i, type_name(x));
        }
        n += x->u.s.n + (i ? s->u.s.n : 0);
    }
    char *p = value_malloc(n + 1), *o = p;
    if (!p) { decref(l); return NULL; }
    for (size_t i = 0; i < seq_len(l); i++) {
        if (i) { memcpy(o, s->u.s.p, s->u.s.n); o += s->u.s.n; }
        memcpy(o, seq_get(l, i)->u.s.p, seq_get(l, i)->u.s.n);
        o += seq_get(l, i)->u.s.n;
    }
    *o = 0;
    decref(l);
    return v_str_take(p, n);
}

/* Appends l bytes at s to the buffer *out (n used, cap allocated), keeping
 * room for a terminating NUL. -1 with MemoryError (the buffer unchanged). */
static int grow_append(char **out, size_t *n, size_t *cap, const char *s, size_t l)
{
    if (*n + l + 1 > *cap) {
        size_t c = *cap;
        while (*n + l + 1 > c) c *= 2;
        char *p = value_realloc(*out, c);
        if (!p) return -1;
        *out = p;
        *cap = c;
    }
    memcpy(*out + *n, s, l);
    *n += l;
    return 0;
}

static Value *sm_replace(Value *s, CallArgs *a, void *d)
{
    (void)d;
    if (arity(a, "replace", 2, 3)) return NULL;
    Value *old = a->pos[0], *new = a->pos[1];
    if (old->type != &t_str || new->type != &t_str)
        return exc_set("TypeError", "replace() argument 1 must be str, not %s", type_name(old->type != &t_str ? old : new));
    int64_t count = a->npos > 2 && is_int_like(a->pos[2]) ? a->pos[2]->u.i : -1;
    size_t cap = s->u.s.n + 1, n = 0;
    char *out = value_malloc(cap);
    if (!out) return NULL;
    const char *p = s->u.s.p, *end = p + s->u.s.n;
#define EMIT(src, len) do { if (grow_append(&out, &n, &cap, src, len) < 0) goto fail; } while (0)
    if (old->u.s.n == 0) {
        for (size_t i = 0; i <= s->u.s.n; i++) {
            if (count != 0) { EMIT(new->u.s.p, new->u.s.n); if (count > 0) count--; }
            if (i < s->u.s.n) EMIT(p + i, 1);
        }
    } else {
        while (p < end) {
            const char *q = count == 0 ? NULL : memmem(p, (size_t)(end - p), old->u.s.p, old->u.s.n);
            if (!q) { EMIT(p, (size_t)(end - p)); break; }
            EMIT(p, (size_t)(q - p));
            EMIT(new->u.s.p, new->u.s.n);
            p = q + old->u.s.n;
            if (count > 0) count--;
        }
    }
#undef EMIT
    out[n] = 0;
    return v_str_take(out, n);
fail:
    free(out);
    return NULL;
}

static Value *sm_affix(Value *s, CallArgs *a, const char *name, bool start)
{
    if (arity(a, name, 1, 1)) return NULL;
    Value *x = a->pos[0];
    if (x->type == &t_tuple) {
        for (size_t i = 0; i < seq_len(x); i++) {
            CallArgs one = {&x->u.seq.items[i], 1, NULL, NULL, 0};
            Value *r = sm_affix(s, &one, name, start);
            if (!r || r->u.i) return r;
            decref(r);
        }
        return v_bool(false);
    }
    if (x->type != &t_str)
        return exc_set("TypeError", "%s first arg must be str or a tuple of str, not %s", name, type_name(x));
    if (x->u.s.n > s->u.s.n) return v_bool(false);
    const char *p = start ? s->u.s.p : s->u.s.p + s->u.s.n - x->u.s.n;
    return v_bool(!memcmp(p, x->u.s.p, x->u.s.n));
}
static Value *sm_startswith(Value *s, CallArgs *a, void *d) { (void)d; return sm_affix(s, a, "startswith", true); }
static Value *sm_endswith(Value *s, CallArgs *a, void *d) { (void)d; return sm_affix(s, a, "endswith", false); }

static Value *sm_find(Value *s, CallArgs *a, void *d)
{
    (void)d;
    if (arity(a, "find", 1, 1)) return NULL;
    if (a->pos[0]->type != &t_str)
        return exc_set("TypeError", "must be str, not %s", type_name(a->pos[0]));
    const char *q = memmem(s->u.s.p, s->u.s.n, a->pos[0]->u.s.p, a->pos[0]->u.s.n);
    return v_int(q ? q - s->u.s.p : -1);
}

static Value *sm_count(Value *s, CallArgs *a, void *d)
{
    (void)d;
    if (arity(a, "count", 1, 1)) return NULL;
    Value *x = a->pos[0];
    if (x->type != &t_str) return exc_set("TypeError", "must be str, not %s", type_name(x));
    if (x->u.s.n == 0) return v_int((int64_t)s->u.s.n + 1);
    int64_t n = 0;
    const char *p = s->u.s.p, *end = p + s->u.s.n, *q;
    while ((q = memmem(p, (size_t)(end - p), x->u.s.p, x->u.s.n))) { n++; p = q + x->u.s.n; }
    return v_int(n);
}

static Value *s_pred(Value *s, CallArgs *a, const char *name, int (*f)(int))
{
    if (arity(a, name, 0, 0)) return NULL;
    if (!s->u.s.n) return v_bool(false);
    for (size_t i = 0; i < s->u.s.n; i++)
        if (!f((unsigned char)s->u.s.p[i])) return v_bool(false);
    return v_bool(true);
}
static Value *sm_isdigit(Value *s, CallArgs *a, void *d) { (void)d; return s_pred(s, a, "isdigit", isdigit); }
static Value *sm_isalpha(Value *s, CallArgs *a, void *d) { (void)d; return s_pred(s, a, "isalpha", isalpha); }
static Value *sm_isspace(Value *s, CallArgs *a, void *d) { (void)d; return s_pred(s, a, "isspace", isspace); }

static Value *sm_format(Value *s, CallArgs *a, void *d) { (void)d; return format_method(s, a); }

static const Method str_methods[] = {
    {"count", sm_count}, {"endswith", sm_endswith}, {"find", sm_find}, {"format", sm_format}, {"isalpha", sm_isalpha},
    {"isdigit", sm_isdigit}, {"isspace", sm_isspace}, {"join", sm_join}, {"lower", sm_lower},
    {"lstrip", sm_lstrip}, {"replace", sm_replace}, {"rstrip", sm_rstrip}, {"split", sm_split},
    {"startswith", sm_startswith}, {"strip", sm_strip}, {"upper", sm_upper}, {NULL, NULL},
};
static Value *s_getattr(Value *v, const char *name) { return find_method(str_methods, v, name); }
static const char *s_dir(Value *v, int i) { (void)v; return method_dir(str_methods, i); }
static Value *s_iter(Value *v) { return v_seq_iter(v); }

const VType t_str = {.name = "str", .destroy = str_destroy, .repr = s_repr, .len = s_len, .eq = s_eq,
                     .hash = s_hash, .binop = s_binop, .compare = s_compare, .getitem = s_getitem,
                     .contains = s_contains, .getattr = s_getattr, .iter = s_iter, .dir = s_dir,
                     .construct = ctor_str};

/* -------------------------------------------------------- tuple and list */

static void seq_destroy(Value *v)
{
    for (size_t i = 0; i < v->u.seq.n; i++) decref(v->u.seq.items[i]);
    free(v->u.seq.items);
}

static Value *seq_repr_items(Value *v, const char *open, const char *close, bool one_comma);

/* Containers being printed, so that one holding itself prints [...] as
 * in Python (Py_ReprEnter). */
static Value *repr_stack[1024];
static int repr_n;

static bool repr_enter(Value *v)
{
    for (int i = 0; i < repr_n; i++)
        if (repr_stack[i] == v) return false;
    if (repr_n < 1024) repr_stack[repr_n++] = v;
    return true;
}

static void repr_leave(Value *v)
{
    if (repr_n && repr_stack[repr_n - 1] == v) repr_n--;
}

static Value *seq_repr_common(Value *v, const char *open, const char *close, bool one_comma)
{
    if (!repr_enter(v)) return v_strf("%s...%s", open, close);
    Value *r = seq_repr_items(v, open, close, one_comma);
    repr_leave(v);
    return r;
}

static Value *seq_repr_items(Value *v, const char *open, const char *close, bool one_comma)
{
    size_t cap = 64, n = 0;
    char *buf = value_malloc(cap);
    if (!buf) return NULL;
#define APPEND(s, l) do { if (grow_append(&buf, &n, &cap, s, l) < 0) goto fail; } while (0)
    APPEND(open, strlen(open));
    for (size_t i = 0; i < v->u.seq.n; i++) {
        if (i) APPEND(", ", 2);
        Value *r = value_repr(v->u.seq.items[i]);
        if (!r) goto fail;
        int rc = grow_append(&buf, &n, &cap, r->u.s.p, r->u.s.n);
        decref(r);
        if (rc < 0) goto fail;
    }
    if (one_comma && v->u.seq.n == 1) APPEND(",", 1);
    APPEND(close, strlen(close));
#undef APPEND
    buf[n] = 0;
    return v_str_take(buf, n);
fail:
    free(buf);
    return NULL;
}

static Value *tuple_repr(Value *v) { return seq_repr_common(v, "(", ")", true); }
static Value *list_repr(Value *v) { return seq_repr_common(v, "[", "]", false); }
static int64_t seq_len_slot(Value *v) { return (int64_t)v->u.seq.n; }

uint64_t seq_hash(Value *v, int *ok)
{
    uint64_t h = 0x345678;
    for (size_t i = 0; i < v->u.seq.n; i++) {
        uint64_t x = value_hash(v->u.seq.items[i], ok);
        if (!*ok) return 0;
        h = (h ^ x) * 1000003u;
    }
    return h;
}

int seq_eq(Value *a, Value *b)
{
    if (a->u.seq.n != b->u.seq.n) return 0;
    for (size_t i = 0; i < a->u.seq.n; i++) {
        int e = value_eq(a->u.seq.items[i], b->u.seq.items[i]);
        if (e <= 0) return e;
    }
    return 1;
}

/* NULL with MemoryError when n items do not fit */
static Value *seq_new_like(Value *v, size_t n) { return v->type == &t_list ? v_list_sized(n) : v_tuple_sized(n); }

static Value *seq_concat(Value *a, Value *b)
{
    Value *r = seq_new_like(a, a->u.seq.n + b->u.seq.n);
    if (!r) return NULL;
    for (size_t i = 0; i < a->u.seq.n; i++) r->u.seq.items[i] = incref(a->u.seq.items[i]);
    for (size_t i = 0; i < b->u.seq.n; i++) r->u.seq.items[a->u.seq.n + i] = incref(b->u.seq.items[i]);
    return r;
}

static Value *seq_binop(int op, Value *self, Value *other, int reflected)
{
    const char *tn = self->type == &t_list ? "list" : "tuple";
    if (op == OP_ADD) {
        if (other->type == self->type) return reflected ? seq_concat(other, self) : seq_concat(self, other);
        if (!reflected && other->type->binop && other->type != &t_list && other->type != &t_tuple &&
            other->type != &t_str) {
            /* a tuple subtype (torch.Size) or an operand with __radd__ goes first, as in CPython */
            Value *r = other->type->binop(op, other, self, 1);
            if (!r || r->type != &t_notimpl) return r;
            decref(r);
        }
        if (!reflected)
            return exc_set("TypeError", "can only concatenate %s (not \"%s\") to %s", tn, type_name(other), tn);
    }
    if (op == OP_MUL && !is_int_like(other) && (other->type == &t_str || other->type == &t_float ||
                                                 other->type == &t_list || other->type == &t_tuple))
        return exc_set("TypeError", "can't multiply sequence by non-int of type '%s'", type_name(other));
    int64_t k = 0;
    bool has_index = false;
    if (op == OP_MUL && !is_int_like(other) && index_count(other, &k, &has_index) < 0) return NULL;
    if (op == OP_MUL && (is_int_like(other) || has_index)) {
        if (is_int_like(other)) repeat_count(other, &k);
        if (k && self->u.seq.n > (size_t)(1 << 28) / (size_t)k) return exc_set("MemoryError", "%s", "");
        size_t n = self->u.seq.n;
        Value *r = seq_new_like(self, n * (size_t)k);
        if (!r) return NULL;
        for (int64_t j = 0; j < k; j++)
            for (size_t i = 0; i < n; i++) r->u.seq.items[(size_t)j * n + i] = incref(self->u.seq.items[i]);
        return r;
    }
    return value_not_implemented();
}

static Value *list_inplace(int op, Value *self, Value *other)
{
    if (op == OP_ADD) {
        Value *l = value_to_list(other);
        if (!l) return NULL;
        for (size_t i = 0; i < seq_len(l); i++)
            if (list_append(self, seq_get(l, i)) < 0) { decref(l); return NULL; }
        decref(l);
        return incref(self);
    }
    return value_not_implemented();
}

/* Lexicographic comparison of two item sequences (tuple, list, torch.Size). */
Value *seq_compare_items(int op, Value *self, Value *other)
{
    size_t n = self->u.seq.n < other->u.seq.n ? self->u.seq.n : other->u.seq.n, i;
    for (i = 0; i < n; i++) {
        int e = value_eq(self->u.seq.items[i], other->u.seq.items[i]);
        if (e < 0) return NULL;
        if (!e) break;
    }
    if (i == n) {
        size_t a = self->u.seq.n, b = other->u.seq.n;
        switch (op) {
        case OP_LT: return v_bool(a < b);
        case OP_LE: return v_bool(a <= b);
        case OP_EQ: return v_bool(a == b);
        case OP_NE: return v_bool(a != b);
        case OP_GT: return v_bool(a > b);
        default: return v_bool(a >= b);
        }
    }
    if (op == OP_EQ) return v_bool(false);
    if (op == OP_NE) return v_bool(true);
    return value_compare(op, self->u.seq.items[i], other->u.seq.items[i]);
}

static Value *seq_compare(int op, Value *self, Value *other, int reflected)
{
    (void)reflected;
    if (other->type != self->type) return value_not_implemented();
    return seq_compare_items(op, self, other);
}

static Value *seq_getitem(Value *v, Value *key)
{
    const char *what = v->type == &t_list ? "list" : "tuple";
    if (key->type == &t_slice) {
        int64_t a, b, st, n;
        if (slice_indices(key, (int64_t)v->u.seq.n, &a, &b, &st, &n) < 0) return NULL;
        Value *r = seq_new_like(v, (size_t)n);
        if (!r) return NULL;
        for (int64_t i = 0; i < n; i++) r->u.seq.items[i] = incref(v->u.seq.items[a + i * st]);
        return r;
    }
    int64_t i;
    if (seq_index(key, (int64_t)v->u.seq.n, &i, what) < 0) return NULL;
    return incref(v->u.seq.items[i]);
}

static int list_setitem(Value *v, Value *key, Value *x)
{
    if (key->type == &t_slice) {
        int64_t a, b, st, n;
        if (slice_indices(key, (int64_t)v->u.seq.n, &a, &b, &st, &n) < 0) return -1;
        Value *src = value_to_list(x);
        if (!src) {
            exc_clear();
            return exc_seti("TypeError", "can only assign an iterable");
        }
        size_t m = seq_len(src);
        if (st != 1) {
            if ((int64_t)m != n) {
                decref(src);
                return exc_seti("ValueError", "attempt to assign sequence of size %zu to extended slice of size %lld",
                                m, (long long)n);
            }
            for (int64_t i = 0; i < n; i++) {
                Value *old = v->u.seq.items[a + i * st];
                v->u.seq.items[a + i * st] = incref(seq_get(src, (size_t)i));
                decref(old);
            }
            decref(src);
            return 0;
        }
        if (b < a) b = a;
        size_t old_n = v->u.seq.n, cut = (size_t)(b - a), new_n = old_n - cut + m;
        Value **items = value_malloc(new_n * sizeof *items);
        if (!items) { decref(src); return -1; }
        for (int64_t i = 0; i < a; i++) items[i] = v->u.seq.items[i];
        for (size_t i = 0; i < m; i++) items[a + (int64_t)i] = incref(seq_get(src, i));
        for (size_t i = (size_t)b; i < old_n; i++) items[i - cut + m] = v->u.seq.items[i];
        for (int64_t i = a; i < b; i++) decref(v->u.seq.items[i]);
        free(v->u.seq.items);
        v->u.seq.items = items;
        v->u.seq.n = new_n;
        v->u.seq.cap = new_n ? new_n : 1;
        decref(src);
        return 0;
    }
    int64_t i;
    if (!is_int_like(key))
        return exc_seti("TypeError", "list indices must be integers or slices, not %s", type_name(key));
    if (seq_index(key, (int64_t)v->u.seq.n, &i, "list assignment") < 0) return -1;
    Value *old = v->u.seq.items[i];
    v->u.seq.items[i] = incref(x);
    decref(old);
    return 0;
}

static void list_remove_at(Value *v, int64_t i)
{
    decref(v->u.seq.items[i]);
    memmove(v->u.seq.items + i, v->u.seq.items + i + 1, (v->u.seq.n - (size_t)i - 1) * sizeof(Value *));
    v->u.seq.n--;
}

static int list_delitem(Value *v, Value *key)
{
    if (key->type == &t_slice) {
        int64_t a, b, st, n;
        if (slice_indices(key, (int64_t)v->u.seq.n, &a, &b, &st, &n) < 0) return -1;
        if (st < 0) { a = a + (n - 1) * st; st = -st; }
        for (int64_t k = n - 1; k >= 0; k--) list_remove_at(v, a + k * st);
        return 0;
    }
    int64_t i;
    if (seq_index(key, (int64_t)v->u.seq.n, &i, "list assignment") < 0) return -1;
    list_remove_at(v, i);
    return 0;
}

static Value *lm_append(Value *l, CallArgs *a, void *d)
{
    (void)d;
    if (arity(a, "list.append", 1, 1)) return NULL;
    if (list_append(l, a->pos[0]) < 0) return NULL;
    return v_none();
}

static Value *lm_extend(Value *l, CallArgs *a, void *d)
{
    (void)d;
    if (arity(a, "list.extend", 1, 1)) return NULL;
    Value *r = list_inplace(OP_ADD, l, a->pos[0]);
    if (!r) return NULL;
    decref(r);
    return v_none();
}

static Value *lm_pop(Value *l, CallArgs *a, void *d)
{
    (void)d;
    if (arity(a, "pop", 0, 1)) return NULL;
    if (!l->u.seq.n) return exc_set("IndexError", "pop from empty list");
    int64_t i = (int64_t)l->u.seq.n - 1;
    if (a->npos) {
        if (!is_int_like(a->pos[0]))
            return exc_set("TypeError", "'%s' object cannot be interpreted as an integer", type_name(a->pos[0]));
        if (seq_index(a->pos[0], (int64_t)l->u.seq.n, &i, "pop") < 0) return NULL;
    }
    Value *x = incref(l->u.seq.items[i]);
    list_remove_at(l, i);
    return x;
}

static Value *lm_insert(Value *l, CallArgs *a, void *d)
{
    (void)d;
    if (a->npos != 2) return exc_set("TypeError", "insert expected 2 arguments, got %d", a->npos);
    int64_t i, n = (int64_t)l->u.seq.n;
    if (value_as_int(a->pos[0], &i) < 0) return NULL;
    if (i < 0) i += n;
    if (i < 0) i = 0;
    if (i > n) i = n;
    if (list_append(l, a->pos[1]) < 0) return NULL;
    memmove(l->u.seq.items + i + 1, l->u.seq.items + i, (size_t)(n - i) * sizeof(Value *));
    l->u.seq.items[i] = incref(a->pos[1]);
    decref(a->pos[1]);
    return v_none();
}

static Value *sq_index(Value *l, CallArgs *a, void *d)
{
    (void)d;
    if (arity(a, "index", 1, 1)) return NULL;
    for (size_t i = 0; i < l->u.seq.n; i++) {
        int e = value_eq(l->u.seq.items[i], a->pos[0]);
        if (e < 0) return NULL;
        if (e) return v_int((int64_t)i);
    }
    if (l->type == &t_tuple) return exc_set("ValueError", "tuple.index(x): x not in tuple");
    Value *r = value_repr(a->pos[0]);
    if (!r) return NULL;
    exc_set("ValueError", "%s is not in list", r->u.s.p);
    decref(r);
    return NULL;
}

static Value *sq_count(Value *l, CallArgs *a, void *d)
{
    (void)d;
    if (arity(a, "count", 1, 1)) return NULL;
    int64_t n = 0;
    for (size_t i = 0; i < l->u.seq.n; i++) {
        int e = value_eq(l->u.seq.items[i], a->pos[0]);
        if (e < 0) return NULL;
        n += e;
    }
    return v_int(n);
}

static Value *lm_remove(Value *l, CallArgs *a, void *d)
{
    (void)d;
    if (arity(a, "list.remove", 1, 1)) return NULL;
    for (size_t i = 0; i < l->u.seq.n; i++) {
        int e = value_eq(l->u.seq.items[i], a->pos[0]);
        if (e < 0) return NULL;
        if (e) { list_remove_at(l, (int64_t)i); return v_none(); }
    }
    return exc_set("ValueError", "list.remove(x): x not in list");
}

static Value *lm_reverse(Value *l, CallArgs *a, void *d)
{
    (void)d;
    if (arity(a, "reverse", 0, 0)) return NULL;
    for (size_t i = 0, j = l->u.seq.n; i + 1 < j; i++, j--) {
        Value *t = l->u.seq.items[i];
        l->u.seq.items[i] = l->u.seq.items[j - 1];
        l->u.seq.items[j - 1] = t;
    }
    return v_none();
}

static Value *lm_clear(Value *l, CallArgs *a, void *d)
{
    (void)d;
    if (arity(a, "clear", 0, 0)) return NULL;
    while (l->u.seq.n) list_remove_at(l, (int64_t)l->u.seq.n - 1);
    return v_none();
}

static Value *lm_copy(Value *l, CallArgs *a, void *d)
{
    (void)d;
    if (arity(a, "copy", 0, 0)) return NULL;
    return value_to_list(l);
}


/* ------------------------------------------------------------ sorting */

static int merge_sort(Value **items, Value **keys, Value **tmpi, Value **tmpk, size_t n, ValueBefore before,
                      void *ctx)
{
    if (n < 2) return 0;
    size_t h = n / 2;
    if (merge_sort(items, keys, tmpi, tmpk, h, before, ctx) < 0) return -1;
    if (merge_sort(items + h, keys + h, tmpi, tmpk, n - h, before, ctx) < 0) return -1;
    size_t i = 0, j = h, o = 0;
    while (i < h && j < n) {
        /* stable: take from the right only when strictly before */
        int lt = before(keys[j], keys[i], ctx);
        if (lt < 0) return -1;
        if (lt) { tmpi[o] = items[j]; tmpk[o++] = keys[j++]; }
        else { tmpi[o] = items[i]; tmpk[o++] = keys[i++]; }
    }
    while (i < h) { tmpi[o] = items[i]; tmpk[o++] = keys[i++]; }
    while (j < n) { tmpi[o] = items[j]; tmpk[o++] = keys[j++]; }
    memcpy(items, tmpi, n * sizeof *items);
    memcpy(keys, tmpk, n * sizeof *keys);
    return 0;
}

int seq_sort(Value **items, Value **keys, size_t n, ValueBefore before, void *ctx)
{
    Value **ti = value_malloc((n + 1) * sizeof *ti), **tk = ti ? value_malloc((n + 1) * sizeof *tk) : NULL;
    int r = ti && tk ? merge_sort(items, keys, ti, tk, n, before, ctx) : (exc_set("MemoryError", "%s", ""), -1);
    free(ti);
    free(tk);
    return r;
}

/* Python's order for sorted(): a before b when a < b (reverse: b < a). */
static int py_before(Value *a, Value *b, void *ctx)
{
    return *(const bool *)ctx ? value_lt(b, a) : value_lt(a, b);
}

int sort_values(Value **items, size_t n, Value *key, bool reverse)
{
    Value **keys = value_malloc((n + 1) * sizeof *keys);
    Value **copy = keys ? value_malloc((n + 1) * sizeof *copy) : NULL;
    if (keys) memset(keys, 0, (n + 1) * sizeof *keys);
    if (!keys || !copy) {
        free(keys);
        free(copy);
        return exc_seti("MemoryError", "%s", "");
    }
    int r = 0;
    size_t made = 0;
    for (; made < n; made++) {
        keys[made] = key ? value_call0(key, 1, &items[made]) : incref(items[made]);
        if (!keys[made]) { r = -1; break; }
    }
    if (r == 0) {
        memcpy(copy, items, n * sizeof *copy);
        r = seq_sort(copy, keys, n, py_before, &reverse);
        if (r == 0) memcpy(items, copy, n * sizeof *items);
    }
    for (size_t i = 0; i < made; i++) decref(keys[i]);
    free(keys);
    free(copy);
    return r;
}

static Value *lm_sort(Value *l, CallArgs *a, void *d)
{
    (void)d;
    if (a->npos) return exc_set("TypeError", "sort() takes no positional arguments");
    Value *key = NULL;
    bool rev = false;
    for (int i = 0; i < a->nkw; i++) {
        if (!strcmp(a->kwnames[i], "key")) key = is_none(a->kw[i]) ? NULL : a->kw[i];
        else if (!strcmp(a->kwnames[i], "reverse")) rev = value_truth(a->kw[i]) > 0;
        else return exc_set("TypeError", "'%s' is an invalid keyword argument for sort()", a->kwnames[i]);
    }
    if (sort_values(l->u.seq.items, l->u.seq.n, key, rev) < 0) return NULL;
    return v_none();
}

static const Method list_methods[] = {
    {"append", lm_append}, {"clear", lm_clear}, {"copy", lm_copy}, {"count", sq_count},
    {"extend", lm_extend}, {"index", sq_index}, {"insert", lm_insert}, {"pop", lm_pop},
    {"remove", lm_remove}, {"reverse", lm_reverse}, {"sort", lm_sort}, {NULL, NULL},
};
static const Method tuple_methods[] = {{"count", sq_count}, {"index", sq_index}, {NULL, NULL}};

static Value *list_getattr(Value *v, const char *name) { return find_method(list_methods, v, name); }
static Value *tuple_getattr(Value *v, const char *name) { return find_method(tuple_methods, v, name); }
static const char *list_dir(Value *v, int i) { (void)v; return method_dir(list_methods, i); }
static const char *tuple_dir(Value *v, int i) { (void)v; return method_dir(tuple_methods, i); }
static Value *seq_iter_slot(Value *v) { return v_seq_iter(v); }

static int seq_contains(Value *v, Value *x)
{
    for (size_t i = 0; i < v->u.seq.n; i++) {
        int e = value_eq(v->u.seq.items[i], x);
        if (e) return e;
    }
    return 0;
}

const VType t_tuple = {.name = "tuple", .destroy = seq_destroy, .repr = tuple_repr, .len = seq_len_slot,
                       .hash = seq_hash, .eq = seq_eq, .binop = seq_binop, .compare = seq_compare,
                       .getitem = seq_getitem, .getattr = tuple_getattr, .iter = seq_iter_slot,
                       .contains = seq_contains, .dir = tuple_dir, .construct = ctor_tuple};
const VType t_list = {.name = "list", .destroy = seq_destroy, .repr = list_repr, .len = seq_len_slot,
                      .binop = seq_binop, .inplace = list_inplace, .compare = seq_compare,
                      .getitem = seq_getitem, .setitem = list_setitem, .delitem = list_delitem,
                      .getattr = list_getattr, .iter = seq_iter_slot, .contains = seq_contains,
                      .dir = list_dir, .construct = ctor_list};

/* ------------------------------------------------------------------ dict */

static Value *dict_repr_items(Value *v);

static Value *dict_repr(Value *v)
{
    if (!repr_enter(v)) return v_str("{...}");
    Value *r = dict_repr_items(v);
    repr_leave(v);
    return r;
}

static Value *dict_repr_items(Value *v)
{
    Value *parts = v_list(0), *k, *x;
    for (size_t i = 0; dict_next(v, &i, &k, &x);) {
        Value *rk = value_repr(k), *rv = rk ? value_repr(x) : NULL;
        if (!rv) { decref(rk); decref(parts); return NULL; }
        list_append_steal(parts, v_strf("%s: %s", rk->u.s.p, rv->u.s.p));
        decref(rk);
        decref(rv);
    }
    Value *sep = v_str(", ");
    CallArgs a = {&parts, 1, NULL, NULL, 0};
    Value *body = sm_join(sep, &a, NULL);
    Value *r = body ? v_strf("{%s}", body->u.s.p) : NULL;
    decref(body);
    decref(sep);
    decref(parts);
    return r;
}

static int64_t dict_len_slot(Value *v) { return (int64_t)dict_len(v); }

static Value *dict_getitem(Value *v, Value *key)
{
    Value *x = dict_get(v, key);
    if (x) return incref(x);
    if (exc_pending()) return NULL;
    Value *r = value_repr(key);
    if (!r) return NULL;
    exc_set("KeyError", "%s", r->u.s.p);
    decref(r);
    return NULL;
}

static int dict_setitem(Value *v, Value *key, Value *x) { return dict_set(v, key, x); }

static int dict_delitem(Value *v, Value *key)
{
    int r = dict_del(v, key);
    if (r == 1) {
        Value *s = value_repr(key);
        if (!s) return -1;
        exc_set("KeyError", "%s", s->u.s.p);
        decref(s);
        return -1;
    }
    return r;
}

static int dict_contains(Value *v, Value *x)
{
    Value *r = dict_get(v, x);
    return r ? 1 : exc_pending() ? -1 : 0;
}

static int dict_eq(Value *a, Value *b)
{
    if (dict_len(a) != dict_len(b)) return 0;
    Value *k, *x;
    for (size_t i = 0; dict_next(a, &i, &k, &x);) {
        Value *y = dict_get(b, k);
        if (!y) return exc_pending() ? -1 : 0;
        int e = value_eq(x, y);
        if (e <= 0) return e;
    }
    return 1;
}

static Value *dict_compare(int op, Value *self, Value *other, int reflected)
{
    (void)reflected;
    if (other->type != &t_dict || (op != OP_EQ && op != OP_NE)) return value_not_implemented();
    int e = dict_eq(self, other);
    if (e < 0) return NULL;
    return v_bool(op == OP_EQ ? e : !e);
}

/* dict views: keys(), values(), items() print as dict_keys([...]) */
static void view_destroy(Value *v) { decref(v->u.ext.ptr); }
static Value *view_repr(Value *v)
{
    Value *inner = list_repr(v->u.ext.ptr);
    if (!inner) return NULL;
    static const char *names[] = {"dict_keys", "dict_values", "dict_items"};
    Value *r = v_strf("%s(%s)", names[v->u.ext.a], inner->u.s.p);
    decref(inner);
    return r;
}
static int64_t view_len(Value *v) { return (int64_t)seq_len(v->u.ext.ptr); }
static Value *view_iter(Value *v) { return v_seq_iter(v->u.ext.ptr); }
static int view_contains(Value *v, Value *x) { return seq_contains(v->u.ext.ptr, x); }
static const VType t_dict_view = {.name = "dict_keys", .destroy = view_destroy, .repr = view_repr,
                                  .len = view_len, .iter = view_iter, .contains = view_contains};

static Value *dict_view(Value *d, int which)
{
    Value *l = v_list(0), *k, *x;
    for (size_t i = 0; dict_next(d, &i, &k, &x);) {
        int r = which == 0 ? list_append(l, k) : which == 1 ? list_append(l, x)
                           : list_append_steal(l, v_tuple_of(2, incref(k), incref(x)));
        if (r < 0) { decref(l); return NULL; }
    }
    Value *v = value_alloc(&t_dict_view);
    v->u.ext.ptr = l;
    v->u.ext.a = which;
    return v;
}

static Value *dm_keys(Value *d, CallArgs *a, void *u) { (void)u; return arity(a, "keys", 0, 0) ? NULL : dict_view(d, 0); }
static Value *dm_values(Value *d, CallArgs *a, void *u) { (void)u; return arity(a, "values", 0, 0) ? NULL : dict_view(d, 1); }
static Value *dm_items(Value *d, CallArgs *a, void *u) { (void)u; return arity(a, "items", 0, 0) ? NULL : dict_view(d, 2); }

static Value *dm_get(Value *d, CallArgs *a, void *u)
{
    (void)u;
    if (arity(a, "get", 1, 2)) return NULL;
    Value *x = dict_get(d, a->pos[0]);
    if (x) return incref(x);
    if (exc_pending()) return NULL;
    return a->npos > 1 ? incref(a->pos[1]) : v_none();
}

static Value *dm_pop(Value *d, CallArgs *a, void *u)
{
    (void)u;
    if (arity(a, "pop", 1, 2)) return NULL;
    Value *x = dict_get(d, a->pos[0]);
    if (!x) {
        if (exc_pending()) return NULL;
        if (a->npos > 1) return incref(a->pos[1]);
        return dict_getitem(d, a->pos[0]);
    }
    incref(x);
    dict_del(d, a->pos[0]);
    return x;
}

static Value *dm_update(Value *d, CallArgs *a, void *u)
{
    (void)u;
    if (a->npos > 1) return exc_set("TypeError", "update expected at most 1 argument, got %d", a->npos);
    if (a->npos) {
        Value *src = a->pos[0], *k, *x;
        if (src->type != &t_dict) return exc_set("TypeError", "'%s' object is not iterable", type_name(src));
        for (size_t i = 0; dict_next(src, &i, &k, &x);) dict_set(d, k, x);
    }
    for (int i = 0; i < a->nkw; i++) dict_set_str(d, a->kwnames[i], a->kw[i]);
    return v_none();
}

static Value *dm_copy(Value *d, CallArgs *a, void *u) { (void)u; return arity(a, "copy", 0, 0) ? NULL : dict_copy(d); }

static const Method dict_methods[] = {
    {"copy", dm_copy}, {"get", dm_get}, {"items", dm_items}, {"keys", dm_keys},
    {"pop", dm_pop}, {"update", dm_update}, {"values", dm_values}, {NULL, NULL},
};
static Value *dict_getattr(Value *v, const char *name) { return find_method(dict_methods, v, name); }
static const char *dict_dir(Value *v, int i) { (void)v; return method_dir(dict_methods, i); }
static Value *dict_iter(Value *v) { Value *k = dict_view(v, 0); Value *it = v_seq_iter(k->u.ext.ptr); decref(k); return it; }

/* dict_destroy lives in value.c with the table; reach it through a tiny shim */
extern void dict_destroy_payload(Value *v);
const VType t_dict = {.name = "dict", .destroy = dict_destroy_payload, .repr = dict_repr, .len = dict_len_slot,
                      .getitem = dict_getitem, .setitem = dict_setitem, .delitem = dict_delitem,
                      .contains = dict_contains, .compare = dict_compare, .eq = dict_eq,
                      .getattr = dict_getattr, .iter = dict_iter, .dir = dict_dir, .construct = ctor_dict};

/* ---------------------------------------------------------------- range */

static int64_t range_len(Value *v)
{
    int64_t a = v->u.range.start, b = v->u.range.stop, s = v->u.range.step;
    if (s > 0 && b > a) return (b - a - 1) / s + 1;
    if (s < 0 && a > b) return (a - b - 1) / (-s) + 1;
    return 0;
}

static Value *range_repr(Value *v)
{
    if (v->u.range.step == 1)
        return v_strf("range(%lld, %lld)", (long long)v->u.range.start, (long long)v->u.range.stop);
    return v_strf("range(%lld, %lld, %lld)", (long long)v->u.range.start, (long long)v->u.range.stop,
                  (long long)v->u.range.step);
}

static Value *range_getitem(Value *v, Value *key)
{
    int64_t n = range_len(v);
    if (key->type == &t_slice) {
        int64_t a, b, st, cnt;
        if (slice_indices(key, n, &a, &b, &st, &cnt) < 0) return NULL;
        int64_t s0 = v->u.range.start + a * v->u.range.step, step = st * v->u.range.step;
        return v_range(s0, s0 + cnt * step, step);
    }
    int64_t i;
    if (seq_index(key, n, &i, "range object") < 0) return NULL;
    return v_int(v->u.range.start + i * v->u.range.step);
}

static Value *range_iter(Value *v);

static int range_contains(Value *v, Value *x)
{
    if (!is_int_like(x)) return 0;
    int64_t i = x->u.i, a = v->u.range.start, b = v->u.range.stop, s = v->u.range.step;
    if (s > 0 ? (i < a || i >= b) : (i > a || i <= b)) return 0;
    return (i - a) % s == 0;
}

static int range_eq(Value *a, Value *b)
{
    int64_t na = range_len(a), nb = range_len(b);
    if (na != nb) return 0;
    if (na == 0) return 1;
    if (a->u.range.start != b->u.range.start) return 0;
    return na == 1 || a->u.range.step == b->u.range.step;
}

static Value *range_compare(int op, Value *self, Value *other, int reflected)
{
    (void)reflected;
    if (other->type != &t_range || (op != OP_EQ && op != OP_NE)) return value_not_implemented();
    int e = range_eq(self, other);
    return v_bool(op == OP_EQ ? e : !e);
}

static Value *range_getattr(Value *v, const char *name)
{
    if (!strcmp(name, "start")) return v_int(v->u.range.start);
    if (!strcmp(name, "stop")) return v_int(v->u.range.stop);
    if (!strcmp(name, "step")) return v_int(v->u.range.step);
    return NULL;
}

const VType t_range = {.name = "range", .repr = range_repr, .len = range_len, .getitem = range_getitem,
                       .iter = range_iter, .contains = range_contains, .eq = range_eq,
                       .compare = range_compare, .getattr = range_getattr, .construct = ctor_range};

/* ---------------------------------------------------------------- slice */

static void slice_destroy(Value *v)
{
    decref(v->u.slice.start);
    decref(v->u.slice.stop);
    decref(v->u.slice.step);
}

static Value *slice_repr(Value *v)
{
    Value *a = value_repr(v->u.slice.start), *b = value_repr(v->u.slice.stop), *c = value_repr(v->u.slice.step);
    Value *r = v_strf("slice(%s, %s, %s)", a->u.s.p, b->u.s.p, c->u.s.p);
    decref(a);
    decref(b);
    decref(c);
    return r;
}

static Value *slice_getattr(Value *v, const char *name)
{
    if (!strcmp(name, "start")) return incref(v->u.slice.start);
    if (!strcmp(name, "stop")) return incref(v->u.slice.stop);
    if (!strcmp(name, "step")) return incref(v->u.slice.step);
    return NULL;
}

const VType t_slice = {.name = "slice", .destroy = slice_destroy, .repr = slice_repr, .getattr = slice_getattr,
                       .construct = ctor_slice};

/* ------------------------------------------------------------ iterators */

static void iter_destroy(Value *v) { decref(v->u.it.seq); }

static Value *iter_next(Value *it)
{
    Value *s = it->u.it.seq;
    if (s->type == &t_range) {
        int64_t n = range_len(s);
        if (it->u.it.pos >= n) return NULL;
        return v_int(s->u.range.start + it->u.it.pos++ * s->u.range.step);
    }
    if (s->type == &t_str) {
        if ((size_t)it->u.it.pos >= s->u.s.n) return NULL;
        return v_strn(s->u.s.p + it->u.it.pos++, 1);
    }
    if ((size_t)it->u.it.pos >= s->u.seq.n) return NULL;
    return incref(s->u.seq.items[it->u.it.pos++]);
}

static Value *iter_self(Value *v) { return incref(v); }

const VType t_iter = {.name = "iterator", .destroy = iter_destroy, .next = iter_next, .iter = iter_self};

Value *v_seq_iter(Value *seq)
{
    Value *it = value_alloc(&t_iter);
    it->u.it.seq = incref(seq);
    return it;
}

static Value *range_iter(Value *v) { return v_seq_iter(v); }

/* ------------------------------------------------------ builtins, modules */

static void builtin_destroy(Value *v) { decref(v->u.bi.self); }

static Value *builtin_repr(Value *v)
{
    if (v->u.bi.self)
        return v_strf("<built-in method %s of %s object at %p>", v->u.bi.name, type_name(v->u.bi.self),
                      (void *)v->u.bi.self);
    return v_strf("<built-in function %s>", v->u.bi.name);
}

static Value *builtin_call(Value *v, CallArgs *a) { return v->u.bi.fn(v->u.bi.self, a, v->u.bi.data); }

static Value *builtin_getattr(Value *v, const char *name)
{
    if (!strcmp(name, "__name__")) return v_str(v->u.bi.name);
    return NULL;
}

const VType t_builtin = {.name = "builtin_function_or_method", .destroy = builtin_destroy,
                         .repr = builtin_repr, .call = builtin_call, .getattr = builtin_getattr};

extern void module_destroy_payload(Value *v);

static Value *module_repr(Value *v)
{
    return v_strf("<module '%s' (built-in)>", v->u.mod->name);
}

static Value *module_getattr(Value *v, const char *name)
{
    Value *x = dict_get_str(v->u.mod->attrs, name);
    if (x) return incref(x);
    if (!strcmp(name, "__name__")) return v_str(v->u.mod->name);
    return NULL;
}

static int module_setattr(Value *v, const char *name, Value *x) { return dict_set_str(v->u.mod->attrs, name, x); }

static const char *module_dir(Value *v, int i)
{
    Value *k;
    size_t pos = (size_t)i;
    if (!dict_next(v->u.mod->attrs, &pos, &k, NULL)) return NULL;
    return k->u.s.p;
}

const VType t_module = {.name = "module", .destroy = module_destroy_payload, .repr = module_repr,
                        .getattr = module_getattr, .setattr = module_setattr, .dir = module_dir};
