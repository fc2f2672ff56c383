/* src/bind/builtins.c — Python's built-in functions and type constructors
 * (int, float, str, ...), with CPython 3.11's results and messages. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/bind.h"
#include "bind/exceptions.h"
#include "format.h"
#include "bind/areas.h"
#include "bind/tensor.h"
#include "bind/table.h"

/* --------------------------------------------------------------- output */

static Value *b_print(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    const char *sep = " ", *end = "\n";
    bool flush = false;
    for (int i = 0; i < a->nkw; i++) {
        Value *v = a->kw[i];
        if (!strcmp(a->kwnames[i], "sep") || !strcmp(a->kwnames[i], "end")) {
            const char *s;
            if (is_none(v)) s = !strcmp(a->kwnames[i], "sep") ? " " : "\n";
            else if (v->type == &t_str) s = v->u.s.p;
            else return exc_set("TypeError", "%s must be None or a string, not %s", a->kwnames[i], type_name(v));
            if (!strcmp(a->kwnames[i], "sep")) sep = s;
            else end = s;
        } else if (!strcmp(a->kwnames[i], "flush")) {
            flush = value_truth(v) > 0;
        } else if (!strcmp(a->kwnames[i], "file")) {
            if (!is_none(v)) return exc_set("TypeError", "print(): file= is not supported by tsr");
        } else {
            return exc_set("TypeError", "'%s' is an invalid keyword argument for print()", a->kwnames[i]);
        }
    }
    /* every str() first so a failing one prints nothing */
    Value **strs = value_xcalloc((size_t)a->npos + 1, sizeof *strs);
    for (int i = 0; i < a->npos; i++) {
        strs[i] = value_str(a->pos[i]);
        if (!strs[i]) {
            while (i--) decref(strs[i]);
            free(strs);
            return NULL;
        }
    }
    for (int i = 0; i < a->npos; i++) {
        if (i) fputs(sep, stdout);
        fwrite(strs[i]->u.s.p, 1, strs[i]->u.s.n, stdout);
        decref(strs[i]);
    }
    free(strs);
    fputs(end, stdout);
    if (flush) fflush(stdout);
    return v_none();
}

static Value *b_repr(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (bind_args(a, "repr", "obj, /", x)) return NULL;
    return value_repr(x[0]);
}

static Value *b_format(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[2];
    if (a->npos + a->nkw < 1 || a->npos + a->nkw > 2)
        return exc_set("TypeError", "format expected %s, got %d", a->npos + a->nkw < 1 ? "at least 1 argument" : "at most 2 arguments",
                       a->npos + a->nkw);
    if (bind_args(a, "format", "value, format_spec=, /", x)) return NULL;
    if (x[1] && x[1]->type != &t_str)
        return exc_set("TypeError", "format() argument 2 must be str, not %s", type_name(x[1]));
    return format_value(x[0], x[1] ? x[1]->u.s.p : "", x[1] ? x[1]->u.s.n : 0);
}

static Value *b_ascii(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (args_meth_o(a, "ascii") < 0) return NULL;
    x[0] = a->pos[0];
    return format_ascii(x[0]);
}

static Value *b_len(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (a->npos != 1 || a->nkw)
        return exc_set("TypeError", "len() takes exactly one argument (%d given)", a->npos + a->nkw);
    int64_t n = value_len(a->pos[0]);
    return n < 0 ? NULL : v_int(n);
}

/* ---------------------------------------------------------- predicates */

static bool is_subtype(const VType *t, const VType *of)
{
    return t == of || (t == &t_bool && of == &t_int) || (of == &t_tuple && !strcmp(t->name, "torch.Size")) ||
           bind_exc_subclass(t, of);
}

static Value *b_isinstance(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (a->npos != 2 || a->nkw) return exc_set("TypeError", "isinstance expected 2 arguments, got %d", a->npos);
    Value *cls = a->pos[1];
    if (cls->type == &t_type) return v_bool(is_subtype(a->pos[0]->type, cls->u.typeobj));
    if (cls->type == &t_tuple) {
        for (size_t i = 0; i < seq_len(cls); i++) {
            Value *c = seq_get(cls, i);
            if (c->type != &t_type)
                return exc_set("TypeError", "isinstance() arg 2 must be a type, a tuple of types, or a union");
            if (is_subtype(a->pos[0]->type, c->u.typeobj)) return v_bool(true);
        }
        return v_bool(false);
    }
    return exc_set("TypeError", "isinstance() arg 2 must be a type, a tuple of types, or a union");
}

static Value *b_callable(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (bind_args(a, "callable", "obj, /", x)) return NULL;
    return v_bool(value_is_callable(x[0]));
}

static Value *b_getattr(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (a->npos < 2 || a->npos > 3) return exc_set("TypeError", "getattr expected 2 or 3 arguments, got %d", a->npos);
    if (a->pos[1]->type != &t_str) return exc_set("TypeError", "attribute name must be string, not '%s'", type_name(a->pos[1]));
    Value *r = value_getattr(a->pos[0], a->pos[1]->u.s.p);
    if (!r && a->npos == 3 && exc_matches("AttributeError")) {
        exc_clear();
        return incref(a->pos[2]);
    }
    return r;
}

static Value *b_hasattr(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (a->npos != 2) return exc_set("TypeError", "hasattr expected 2 arguments, got %d", a->npos);
    if (a->pos[1]->type != &t_str) return exc_set("TypeError", "attribute name must be string, not '%s'", type_name(a->pos[1]));
    Value *r = value_getattr(a->pos[0], a->pos[1]->u.s.p);
    if (!r && exc_matches("AttributeError")) { exc_clear(); return v_bool(false); }
    if (!r) return NULL;
    decref(r);
    return v_bool(true);
}

static Value *b_setattr(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (a->npos != 3) return exc_set("TypeError", "setattr expected 3 arguments, got %d", a->npos);
    if (a->pos[1]->type != &t_str) return exc_set("TypeError", "attribute name must be string, not '%s'", type_name(a->pos[1]));
    if (value_setattr(a->pos[0], a->pos[1]->u.s.p, a->pos[2]) < 0) return NULL;
    return v_none();
}

static Value *b_hash(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (bind_args(a, "hash", "obj, /", x)) return NULL;
    int ok;
    uint64_t h = value_hash(x[0], &ok);
    if (!ok) return NULL;
    if (is_int_like(x[0])) return v_int(x[0]->u.i == -1 ? -2 : x[0]->u.i);
    return v_int((int64_t)(h >> 1));
}

static Value *b_id(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (bind_args(a, "id", "obj, /", x)) return NULL;
    return v_int((int64_t)(uintptr_t)x[0]);
}

/* ---------------------------------------------------------- numbers */

static Value *b_abs(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (bind_args(a, "abs", "x, /", x)) return NULL;
    Value *v = x[0];
    if (is_int_like(v)) {
        if (v->u.i == INT64_MIN) return exc_set("OverflowError", "Python int too large to convert to C int64_t (tsr ints are 64-bit)");
        return v_int(v->u.i < 0 ? -v->u.i : v->u.i);
    }
    if (v->type == &t_float) return v_float(fabs(v->u.f));
    if (v->type == &t_complex) return v_float(hypot(v->u.c.re, v->u.c.im));
    Value *m = v->type->getattr ? v->type->getattr(v, "__abs__") : NULL;
    if (m) {
        Value *r = value_call0(m, 0, NULL);
        decref(m);
        return r;
    }
    if (exc_pending()) return NULL;
    return exc_set("TypeError", "bad operand type for abs(): '%s'", type_name(v));
}

static Value *b_round(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[2];
    if (bind_args(a, "round", "number, ndigits=", x)) return NULL;
    Value *v = x[0];
    bool has_nd = x[1] && !is_none(x[1]);
    int64_t nd = 0;
    if (has_nd && value_as_int(x[1], &nd) < 0) return NULL;
    if (is_int_like(v)) {
        if (!has_nd || nd >= 0) return v_int(v->u.i);
        if (nd < -18) return v_int(0);
        int64_t p = 1;
        for (int64_t i = 0; i < -nd; i++) p *= 10;
        int64_t q = v->u.i / p, r = v->u.i % p;
        if (r < 0) { q--; r += p; }
        if (2 * r > p || (2 * r == p && (q & 1))) q++;
        return v_int(q * p);
    }
    if (v->type == &t_float) {
        double f = v->u.f;
        if (!has_nd) {
            if (isnan(f)) return exc_set("ValueError", "cannot convert float NaN to integer");
            if (isinf(f)) return exc_set("OverflowError", "cannot convert float infinity to integer");
            double r = nearbyint(f);
            if (fabs(r) >= 9.2e18) return exc_set("OverflowError", "Python int too large to convert to C int64_t (tsr ints are 64-bit)");
            return v_int((int64_t)r);
        }
        if (!isfinite(f)) return v_float(f);
        if (nd > 330) return v_float(f);
        if (nd >= 0) {
            char buf[512];
            snprintf(buf, sizeof buf, "%.*f", (int)nd, f);
            return v_float(strtod(buf, NULL));
        }
        if (nd < -330) return v_float(0.0 * f);
        double p = pow(10.0, (double)-nd), y = f / p, z = nearbyint(y);
        if (fabs(y - z) == 0.5) z = 2.0 * nearbyint(y / 2.0);
        return v_float(z * p);
    }
    Value *m = v->type->getattr ? v->type->getattr(v, "__round__") : NULL;
    if (m) {
        Value *r = value_call0(m, has_nd ? 1 : 0, &x[1]);
        decref(m);
        return r;
    }
    if (exc_pending()) return NULL;
    return exc_set("TypeError", "type %s doesn't define __round__ method", type_name(v));
}

static Value *b_divmod(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[2];
    if (bind_args(a, "divmod", "a, b, /", x)) return NULL;
    Value *q = value_binop(OP_FLOORDIV, x[0], x[1]);
    if (!q) {
        if (exc_matches("TypeError")) {
            exc_clear();
            return exc_set("TypeError", "unsupported operand type(s) for divmod(): '%s' and '%s'", type_name(x[0]),
                           type_name(x[1]));
        }
        return NULL;
    }
    Value *r = value_binop(OP_MOD, x[0], x[1]);
    if (!r) { decref(q); return NULL; }
    return v_tuple_of(2, q, r);
}

static Value *b_pow(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[3];
    if (bind_args(a, "pow", "base, exp, mod=", x)) return NULL;
    if (x[2] && !is_none(x[2])) {
        int64_t b, e, m;
        if (!is_int_like(x[0]) || !is_int_like(x[1]) || !is_int_like(x[2]))
            return exc_set("TypeError", "pow() 3rd argument not allowed unless all arguments are integers");
        b = x[0]->u.i; e = x[1]->u.i; m = x[2]->u.i;
        if (m == 0) return exc_set("ValueError", "pow() 3rd argument cannot be 0");
        if (e < 0) return exc_set("ValueError", "base is not invertible for the given modulus");
        __int128 r = 1, bb = ((b % m) + m) % m;
        while (e) { if (e & 1) r = r * bb % m; bb = bb * bb % m; e >>= 1; }
        int64_t res = (int64_t)r;
        if (m < 0 && res > 0) res += m;
        return v_int(res);
    }
    return value_binop(OP_POW, x[0], x[1]);
}

static Value *minmax(CallArgs *a, const char *name, bool is_max)
{
    Value *key = NULL, *dflt = NULL;
    for (int i = 0; i < a->nkw; i++) {
        if (!strcmp(a->kwnames[i], "key")) key = is_none(a->kw[i]) ? NULL : a->kw[i];
        else if (!strcmp(a->kwnames[i], "default")) dflt = a->kw[i];
        else return exc_set("TypeError", "'%s' is an invalid keyword argument for %s()", a->kwnames[i], name);
    }
    Value *items;
    if (a->npos == 0) return exc_set("TypeError", "%s expected at least 1 argument, got 0", name);
    if (a->npos == 1) {
        items = value_to_list(a->pos[0]);
        if (!items) return NULL;
    } else {
        if (dflt) return exc_set("TypeError", "Cannot specify a default for %s() with multiple positional arguments", name);
        items = v_list(0);
        for (int i = 0; i < a->npos; i++) list_append(items, a->pos[i]);
    }
    if (seq_len(items) == 0) {
        decref(items);
        if (dflt) return incref(dflt);
        return exc_set("ValueError", "%s() arg is an empty sequence", name);
    }
    Value *best = NULL, *bestk = NULL;
    for (size_t i = 0; i < seq_len(items); i++) {
        Value *it = seq_get(items, i);
        Value *k = key ? value_call0(key, 1, &it) : incref(it);
        if (!k) { decref(bestk); decref(items); return NULL; }
        if (!best) { best = it; bestk = k; continue; }
        int better = is_max ? value_lt(bestk, k) : value_lt(k, bestk);
        if (better < 0) { decref(k); decref(bestk); decref(items); return NULL; }
        if (better) { decref(bestk); best = it; bestk = k; }
        else decref(k);
    }
    incref(best);
    decref(bestk);
    decref(items);
    return best;
}

static Value *b_min(Value *self, CallArgs *a, void *d) { (void)self; (void)d; return minmax(a, "min", false); }
static Value *b_max(Value *self, CallArgs *a, void *d) { (void)self; (void)d; return minmax(a, "max", true); }

static Value *b_sum(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[2];
    if (bind_args(a, "sum", "iterable, /, start=", x)) return NULL;
    if (x[1] && x[1]->type == &t_str)
        return exc_set("TypeError", "sum() can't sum strings [use ''.join(seq) instead]");
    Value *start = x[1] ? incref(x[1]) : v_int(0);
    return bind_fold(x[0], start, OP_ADD);
}

Value *bind_fold(Value *iterable, Value *acc, int op)
{
    Value *it = value_iter(iterable);
    if (!it) { decref(acc); return NULL; }
    Value *e;
    while ((e = value_next(it))) {
        Value *n = value_binop(op, acc, e);
        decref(acc);
        decref(e);
        acc = n;
        if (!acc) break;
    }
    decref(it);
    if (exc_pending()) { decref(acc); return NULL; }
    return acc;
}

static Value *b_any_all(CallArgs *a, const char *name, bool any)
{
    Value *x[1];
    if (bind_args(a, name, "iterable, /", x)) return NULL;
    Value *it = value_iter(x[0]);
    if (!it) return NULL;
    Value *e;
    bool result = !any;
    while ((e = value_next(it))) {
        int t = value_truth(e);
        decref(e);
        if (t < 0) break;
        if (any && t) { result = true; break; }
        if (!any && !t) { result = false; break; }
    }
    decref(it);
    if (exc_pending()) return NULL;
    return v_bool(result);
}
static Value *b_any(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return b_any_all(a, "any", true); }
static Value *b_all(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return b_any_all(a, "all", false); }

static Value *b_chr(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    int64_t c;
    if (bind_args(a, "chr", "i, /", x) || value_as_int(x[0], &c) < 0) return NULL;
    if (c < 0 || c > 0x10ffff) return exc_set("ValueError", "chr() arg not in range(0x110000)");
    char buf[5] = {0};
    if (c < 0x80) buf[0] = (char)c;
    else if (c < 0x800) { buf[0] = (char)(0xc0 | c >> 6); buf[1] = (char)(0x80 | (c & 0x3f)); }
    else if (c < 0x10000) { buf[0] = (char)(0xe0 | c >> 12); buf[1] = (char)(0x80 | ((c >> 6) & 0x3f)); buf[2] = (char)(0x80 | (c & 0x3f)); }
    else { buf[0] = (char)(0xf0 | c >> 18); buf[1] = (char)(0x80 | ((c >> 12) & 0x3f)); buf[2] = (char)(0x80 | ((c >> 6) & 0x3f)); buf[3] = (char)(0x80 | (c & 0x3f)); }
    return v_str(buf);
}

static Value *b_ord(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (bind_args(a, "ord", "c, /", x)) return NULL;
    if (x[0]->type != &t_str) return exc_set("TypeError", "ord() expected string of length 1, but %s found", type_name(x[0]));
    const unsigned char *p = (const unsigned char *)x[0]->u.s.p;
    size_t n = x[0]->u.s.n;
    unsigned cp;
    size_t len;
    if (n && p[0] < 0x80) { cp = p[0]; len = 1; }
    else if (n >= 2 && p[0] < 0xe0) { cp = (p[0] & 0x1fu) << 6 | (p[1] & 0x3fu); len = 2; }
    else if (n >= 3 && p[0] < 0xf0) { cp = (p[0] & 0x0fu) << 12 | (p[1] & 0x3fu) << 6 | (p[2] & 0x3fu); len = 3; }
    else if (n >= 4) { cp = (p[0] & 0x07u) << 18 | (p[1] & 0x3fu) << 12 | (p[2] & 0x3fu) << 6 | (p[3] & 0x3fu); len = 4; }
    else { cp = 0; len = 0; }
    if (!n || len != n)
        return exc_set("TypeError", "ord() expected a character, but string of length %zu found", n);
    return v_int(cp);
}

static Value *radix(CallArgs *a, const char *name, int base, const char *prefix)
{
    Value *x[1];
    int64_t v;
    if (bind_args(a, name, "number, /", x) || value_as_int(x[0], &v) < 0) return NULL;
    char buf[80], *o = buf + sizeof buf - 1;
    *o = 0;
    uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
    do { *--o = "0123456789abcdef"[u % (uint64_t)base]; u /= (uint64_t)base; } while (u);
    return v_strf("%s%s%s", v < 0 ? "-" : "", prefix, o);
}
static Value *b_hex(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return radix(a, "hex", 16, "0x"); }
static Value *b_oct(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return radix(a, "oct", 8, "0o"); }
static Value *b_bin(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return radix(a, "bin", 2, "0b"); }

/* ---------------------------------------------------------- iteration */

static Value *b_iter(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (bind_args(a, "iter", "object, /", x)) return NULL;
    return value_iter(x[0]);
}

static Value *b_next(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[2];
    if (bind_args(a, "next", "iterator, default=, /", x)) return NULL;
    if (!x[0]->type->next) return exc_set("TypeError", "'%s' object is not an iterator", type_name(x[0]));
    Value *r = value_next(x[0]);
    if (r || exc_pending()) return r;
    if (x[1]) return incref(x[1]);
    return exc_set("StopIteration", "%s", "");
}

static Value *b_enumerate(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[2];
    if (bind_args(a, "enumerate", "iterable, start=", x)) return NULL;
    int64_t start = 0;
    if (x[1] && value_as_int(x[1], &start) < 0) return NULL;
    Value *l = value_to_list(x[0]);
    if (!l) return NULL;
    Value *out = v_list_sized(seq_len(l));
    if (!out) { decref(l); return NULL; }
    for (size_t i = 0; i < seq_len(l); i++)
        out->u.seq.items[i] = v_tuple_of(2, v_int(start + (int64_t)i), incref(seq_get(l, i)));
    decref(l);
    if (value_memory_check() < 0) { decref(out); return NULL; }
    Value *it = v_seq_iter(out);
    decref(out);
    return it;
}

static Value *b_zip(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (a->nkw) return exc_set("TypeError", "zip() takes no keyword arguments");
    Value **lists = value_xcalloc((size_t)a->npos + 1, sizeof *lists);
    size_t n = SIZE_MAX;
    for (int i = 0; i < a->npos; i++) {
        lists[i] = value_to_list(a->pos[i]);
        if (!lists[i]) {
            for (int j = 0; j < i; j++) decref(lists[j]);
            free(lists);
            if (exc_matches("TypeError")) {
                exc_clear();
                return exc_set("TypeError", "'%s' object is not iterable", type_name(a->pos[i]));
            }
            return NULL;
        }
        if (seq_len(lists[i]) < n) n = seq_len(lists[i]);
    }
    if (!a->npos) n = 0;
    Value *out = v_list_sized(n);
    for (size_t k = 0; out && k < n; k++) {
        Value *t = v_tuple((size_t)a->npos);
        for (int i = 0; i < a->npos; i++) t->u.seq.items[i] = incref(seq_get(lists[i], k));
        out->u.seq.items[k] = t;
    }
    for (int i = 0; i < a->npos; i++) decref(lists[i]);
    free(lists);
    if (!out) return NULL;
    if (value_memory_check() < 0) { decref(out); return NULL; }
    Value *it = v_seq_iter(out);
    decref(out);
    return it;
}

static Value *b_sorted(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[3];
    if (bind_args(a, "sorted", "iterable, /, *, key=, reverse=", x)) return NULL;
    Value *l = value_to_list(x[0]);
    if (!l) return NULL;
    bool rev = x[2] && value_truth(x[2]) > 0;
    if (sort_values(l->u.seq.items, seq_len(l), x[1] && !is_none(x[1]) ? x[1] : NULL, rev) < 0) {
        decref(l);
        return NULL;
    }
    return l;
}

static Value *b_reversed(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (bind_args(a, "reversed", "sequence, /", x)) return NULL;
    if (x[0]->type == &t_tensor) {   /* Tensor.__reversed__ (torch/_tensor.py) */
        Value *f = value_getattr(x[0], "__reversed__"), *r = f ? value_call0(f, 0, NULL) : NULL;
        if (f) decref(f);
        return r;
    }
    if (x[0]->type == &t_dict || !x[0]->type->getitem)
        return exc_set("TypeError", "'%s' object is not reversible", type_name(x[0]));
    Value *l = value_to_list(x[0]);
    if (!l) return NULL;
    size_t n = seq_len(l);
    for (size_t i = 0; i < n / 2; i++) {
        Value *t = l->u.seq.items[i];
        l->u.seq.items[i] = l->u.seq.items[n - 1 - i];
        l->u.seq.items[n - 1 - i] = t;
    }
    Value *it = v_seq_iter(l);
    decref(l);
    return it;
}

static Value *b_map_filter(CallArgs *a, bool is_map)
{
    if (a->npos < 2) return exc_set("TypeError", "%s expected 2 arguments, got %d", is_map ? "map()" : "filter", a->npos);
    Value *fn = a->pos[0];
    Value *out = v_list(0);
    if (is_map && a->npos > 2) {
        CallArgs z = {a->pos + 1, a->npos - 1, NULL, NULL, 0};
        Value *zi = b_zip(NULL, &z, NULL);
        if (!zi) { decref(out); return NULL; }
        Value *t;
        while ((t = value_next(zi))) {
            Value *r = value_call0(fn, (int)seq_len(t), t->u.seq.items);
            decref(t);
            if (!r || list_append_steal(out, r) < 0) break;
        }
        decref(zi);
    } else {
        Value *it = value_iter(a->pos[1]);
        if (!it) { decref(out); return NULL; }
        Value *e;
        while ((e = value_next(it))) {
            Value *r = is_none(fn) ? incref(e) : value_call0(fn, 1, &e);
            if (!r) { decref(e); break; }
            if (is_map) {
                decref(e);
                if (list_append_steal(out, r) < 0) break;
                continue;
            }
            int t = value_truth(r);
            decref(r);
            if (t > 0) { if (list_append_steal(out, e) < 0) break; }
            else decref(e);
            if (t < 0) break;
        }
        decref(it);
    }
    if (exc_pending()) { decref(out); return NULL; }
    Value *it = v_seq_iter(out);
    decref(out);
    return it;
}
static Value *b_map(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return b_map_filter(a, true); }
static Value *b_filter(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return b_map_filter(a, false); }

/* ---------------------------------------------------------- introspection */

static int cmp_cstr(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

Value *bind_dir_of(Value *v)
{
    const char *names[2048];
    int n = 0;
    if (v->type->dir)
        for (const char *s; n < 2048 && (s = v->type->dir(v, n));) names[n++] = s;
    qsort(names, (size_t)n, sizeof *names, cmp_cstr);
    Value *l = v_list(0);
    for (int i = 0; i < n; i++)
        if (i == 0 || strcmp(names[i], names[i - 1])) list_append_steal(l, v_str(names[i]));
    return l;
}

Value *bind_help_text(Value *v)
{
    unsigned form;
    const BindRow *row = bind_table_row_of(v, &form);
    if (row) return bind_table_help_text(row, form);
    const char *doc = v->type == &t_builtin && dict_get_str(bind_builtins(), v->u.bi.name) == v
                          ? bind_builtin_doc(v->u.bi.name) : NULL;
    if (doc) return v_strf("Help on built-in function %s in module builtins:\n\n%s", v->u.bi.name, doc);
    Value *r = value_repr(v);
    if (!r) return NULL;
    Value *out = v_strf("Help on %s object: %s", type_name(v), r->u.s.p);
    decref(r);
    return out;
}

static Value *b_help(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (a->npos > 1)   /* help is a pydoc Helper instance: self counts */
        return exc_set("TypeError", "Helper.__call__() takes from 1 to 2 positional arguments but %d were given",
                       a->npos + 1);
    if (bind_args(a, "Helper.__call__", "request=", x)) return NULL;
    if (!x[0]) {
        printf("tsr has no interactive help utility; :help lists the commands and help(x) describes x.\n");
        return v_none();
    }
    Value *t = bind_help_text(x[0]);
    if (!t) return NULL;
    printf("%s\n", t->u.s.p);
    decref(t);
    return v_none();
}

/* ---------------------------------------------------------- registration */

void bind_builtins_init(void)
{
    static const struct { const char *name; BuiltinFn fn; } fns[] = {
        {"print", b_print}, {"repr", b_repr}, {"len", b_len}, {"isinstance", b_isinstance},
        {"callable", b_callable}, {"getattr", b_getattr}, {"hasattr", b_hasattr}, {"setattr", b_setattr},
        {"hash", b_hash}, {"id", b_id}, {"abs", b_abs}, {"round", b_round}, {"divmod", b_divmod},
        {"pow", b_pow}, {"min", b_min}, {"max", b_max}, {"sum", b_sum}, {"any", b_any}, {"all", b_all},
        {"chr", b_chr}, {"ord", b_ord}, {"hex", b_hex}, {"oct", b_oct}, {"bin", b_bin},
        {"iter", b_iter}, {"next", b_next}, {"enumerate", b_enumerate}, {"zip", b_zip},
        {"sorted", b_sorted}, {"reversed", b_reversed}, {"map", b_map}, {"filter", b_filter},
        {"help", b_help}, {"format", b_format}, {"ascii", b_ascii},
    };
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) bind_builtin_fn(fns[i].name, fns[i].fn);

    static const VType *const types[] = {
        &t_int, &t_float, &t_complex, &t_bool, &t_str, &t_tuple, &t_list, &t_dict, &t_range, &t_slice, &t_type,
    };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
        Value *tv = v_typeobj(types[i]);
        dict_set_str(bind_builtins(), types[i]->name, tv);
        decref(tv);
    }
    Value *ell = v_ellipsis();
    dict_set_str(bind_builtins(), "Ellipsis", ell);
    decref(ell);
    Value *ni = value_not_implemented();
    dict_set_str(bind_builtins(), "NotImplemented", ni);
    decref(ni);
}
