/* src/ctors.c — the built-in types' constructors: int(), float(), complex(),
 * bool(), str(), tuple(), list(), dict(), range(), slice(), type(), with
 * CPython 3.11's results and messages. Each type's VType names its own
 * (the construct slot), so calling a type object needs no lookup. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "ctors.h"

static bool parse_int_text(const char *s, int base, int64_t *out)
{
    while (isspace((unsigned char)*s)) s++;
    bool neg = false;
    if (*s == '+' || *s == '-') neg = *s++ == '-';
    if (base == 0 || base == 16 || base == 8 || base == 2) {
        if (s[0] == '0' && s[1]) {
            char k = (char)tolower((unsigned char)s[1]);
            int b = k == 'x' ? 16 : k == 'o' ? 8 : k == 'b' ? 2 : 0;
            if (b && (base == 0 || base == b)) { base = b; s += 2; if (*s == '_') s++; }
        }
        if (base == 0) base = 10;
    }
    if (!*s) return false;
    uint64_t v = 0;
    bool any = false;
    for (; *s && !isspace((unsigned char)*s); s++) {
        if (*s == '_' && any && s[1] && s[1] != '_') continue;
        int dgt = isdigit((unsigned char)*s) ? *s - '0' : isalpha((unsigned char)*s) ? tolower((unsigned char)*s) - 'a' + 10 : 99;
        if (dgt >= base) return false;
        if (v > (UINT64_MAX - (uint64_t)dgt) / (uint64_t)base) return false;
        v = v * (uint64_t)base + (uint64_t)dgt;
        any = true;
    }
    while (isspace((unsigned char)*s)) s++;
    if (*s || !any || v > (uint64_t)INT64_MAX + neg) return false;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return true;
}

static Value *int_from(Value *x, int base)
{
    if (x->type == &t_str) {
        int64_t v;
        if (parse_int_text(x->u.s.p, base, &v)) return v_int(v);
        Value *r = value_repr(x);
        exc_set("ValueError", "invalid literal for int() with base %d: %s", base ? base : 10, r->u.s.p);
        decref(r);
        return NULL;
    }
    if (base != 10) return exc_set("TypeError", "int() can't convert non-string with explicit base");
    if (x->type == &t_bool) return v_int(x->u.i);
    if (x->type == &t_int) return incref(x);
    if (x->type == &t_float) {
        double f = x->u.f;
        if (isnan(f)) return exc_set("ValueError", "cannot convert float NaN to integer");
        if (isinf(f)) return exc_set("OverflowError", "cannot convert float infinity to integer");
        if (f >= 9223372036854775808.0 || f < -9223372036854775808.0)
            return exc_set("OverflowError", "Python int too large to convert to C int64_t (tsr ints are 64-bit)");
        return v_int((int64_t)f);
    }
    Value *m = x->type->getattr ? x->type->getattr(x, "__int__") : NULL;
    if (m) {
        Value *r = value_call0(m, 0, NULL);
        decref(m);
        return r;
    }
    if (exc_pending()) return NULL;
    return exc_set("TypeError", "int() argument must be a string, a bytes-like object or a real number, not '%s'",
                   type_name(x));
}

Value *ctor_int(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[2];
    if (args_parse(a, "int", "x=, /, base=", x)) return NULL;
    if (!x[0]) return v_int(0);
    int64_t base = 10;
    if (x[1] && args_int(x[1], "int", "base", &base) < 0) return NULL;
    if (x[1] && x[0]->type != &t_str) return exc_set("TypeError", "int() can't convert non-string with explicit base");
    return int_from(x[0], (int)base);
}

Value *ctor_float(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (args_parse(a, "float", "x=, /", x)) return NULL;
    if (!x[0]) return v_float(0);
    Value *v = x[0];
    if (v->type == &t_float) return incref(v);
    if (is_int_like(v)) return v_float((double)v->u.i);
    if (v->type == &t_str) {
        const char *s = v->u.s.p;
        while (isspace((unsigned char)*s)) s++;
        char buf[128];
        size_t k = 0;
        for (const char *p = s; *p && k < sizeof buf - 1; p++)
            if (*p != '_') buf[k++] = *p;
        buf[k] = 0;
        while (k && isspace((unsigned char)buf[k - 1])) buf[--k] = 0;
        char *end;
        errno = 0;
        double f = strtod(buf, &end);
        bool ok = k && *end == 0;
        /* strtod accepts hex floats and "infinity"/"nan(...)" forms Python also accepts */
        if (ok) return v_float(f);
        Value *r = value_repr(v);
        exc_set("ValueError", "could not convert string to float: %s", r->u.s.p);
        decref(r);
        return NULL;
    }
    Value *m = v->type->getattr ? v->type->getattr(v, "__float__") : NULL;
    if (m) {
        Value *r = value_call0(m, 0, NULL);
        decref(m);
        return r;
    }
    if (exc_pending()) return NULL;
    return exc_set("TypeError", "float() argument must be a string or a real number, not '%s'", type_name(v));
}

Value *ctor_complex(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[2];
    if (args_parse(a, "complex", "real=, imag=", x)) return NULL;
    /* CPython's complex_new: cr + ci*1j with each part taken as given */
    if (x[0] && !x[1] && !is_number(x[0]) && x[0]->type != &t_complex && x[0]->type != &t_str && x[0]->type->getattr) {
        Value *m = x[0]->type->getattr(x[0], "__complex__"); /* one-element tensors */
        if (m) {
            Value *r = value_call0(m, 0, NULL);
            decref(m);
            return r;
        }
        if (exc_pending()) return NULL;
    }
    double part[2][2] = {{0, 0}, {0, 0}};
    bool is_cplx[2] = {false, false};
    for (int i = 0; i < 2; i++) {
        Value *v = x[i];
        if (!v) continue;
        double r2 = 0, i2 = 0;
        if (v->type == &t_complex) { r2 = v->u.c.re; i2 = v->u.c.im; is_cplx[i] = true; }
        else if (is_number(v)) value_as_float(v, &r2);
        else if (v->type == &t_str && i == 0 && !x[1]) {
            char *end;
            const char *s = v->u.s.p;
            while (*s == ' ' || *s == '(') s++;
            double p1 = strtod(s, &end);
            if (end != s && (*end == 'j' || *end == 'J')) { i2 = p1; end++; }
            else if (end != s && (*end == '+' || *end == '-')) {
                const char *s2 = end;
                double p2 = strtod(s2, &end);
                if (end == s2 && (*s2 == '+' || *s2 == '-') && (s2[1] == 'j' || s2[1] == 'J')) {
                    p2 = *s2 == '-' ? -1 : 1;
                    end = (char *)s2 + 1;
                }
                if (*end != 'j' && *end != 'J') return exc_set("ValueError", "complex() arg is a malformed string");
                end++;
                r2 = p1;
                i2 = p2;
            } else if (end != s) r2 = p1;
            else return exc_set("ValueError", "complex() arg is a malformed string");
            while (*end == ' ' || *end == ')') end++;
            if (*end) return exc_set("ValueError", "complex() arg is a malformed string");
            is_cplx[i] = true;
        } else {
            return exc_set("TypeError", "complex() %s must be a string or a number, not '%s'",
                           i ? "second argument" : "first argument", type_name(v));
        }
        part[i][0] = r2;
        part[i][1] = i2;
    }
    double re = part[0][0], im = part[1][0];
    if (is_cplx[1]) re -= part[1][1];
    if (is_cplx[0] && x[1]) im += part[0][1];
    else if (is_cplx[0]) im = part[0][1];
    return v_complex(re, im);
}

Value *ctor_bool(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (args_parse(a, "bool", "x=, /", x)) return NULL;
    if (!x[0]) return v_bool(false);
    int t = value_truth(x[0]);
    return t < 0 ? NULL : v_bool(t);
}

Value *ctor_str(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (args_parse(a, "str", "object=", x)) return NULL;
    if (!x[0]) return v_str("");
    return value_str(x[0]);
}

Value *ctor_tuple(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (args_parse(a, "tuple", "iterable=, /", x)) return NULL;
    if (!x[0]) return v_tuple(0);
    if (x[0]->type == &t_tuple) return incref(x[0]);
    Value *l = value_to_list(x[0]);
    if (!l) return NULL;
    Value *t = v_tuple_sized(seq_len(l));
    if (!t) { decref(l); return NULL; }
    for (size_t i = 0; i < seq_len(l); i++) t->u.seq.items[i] = incref(seq_get(l, i));
    decref(l);
    return t;
}

Value *ctor_list(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    if (args_parse(a, "list", "iterable=, /", x)) return NULL;
    if (!x[0]) return v_list(0);
    return value_to_list(x[0]);
}

Value *ctor_dict(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (a->npos > 1) return exc_set("TypeError", "dict expected at most 1 argument, got %d", a->npos);
    Value *r = v_dict();
    if (a->npos) {
        Value *src = a->pos[0];
        if (src->type == &t_dict) {
            decref(r);
            r = dict_copy(src);
        } else {
            Value *l = value_to_list(src);
            if (!l) { decref(r); return NULL; }
            for (size_t i = 0; i < seq_len(l); i++) {
                Value *p = seq_get(l, i), *pl = value_to_list(p);
                if (!pl) {   /* (a MemoryError stays one) */
                    if (!exc_matches("MemoryError")) {
                        exc_clear();
                        exc_set("TypeError", "cannot convert dictionary update sequence element #%zu to a sequence", i);
                    }
                    decref(l); decref(r);
                    return NULL;
                }
                if (seq_len(pl) != 2) {
                    exc_set("ValueError", "dictionary update sequence element #%zu has length %zu; 2 is required", i,
                            seq_len(pl));
                    decref(pl); decref(l); decref(r);
                    return NULL;
                }
                if (dict_set(r, seq_get(pl, 0), seq_get(pl, 1)) < 0) {   /* MemoryError */
                    decref(pl); decref(l); decref(r);
                    return NULL;
                }
                decref(pl);
            }
            decref(l);
        }
    }
    for (int i = 0; i < a->nkw; i++) dict_set_str(r, a->kwnames[i], a->kw[i]);
    return r;
}

Value *ctor_range(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (a->nkw) return exc_set("TypeError", "range() takes no keyword arguments");
    if (a->npos < 1 || a->npos > 3) {
        if (a->npos == 0) return exc_set("TypeError", "range expected at least 1 argument, got 0");
        return exc_set("TypeError", "range expected at most 3 arguments, got %d", a->npos);
    }
    int64_t v[3] = {0, 0, 1};
    for (int i = 0; i < a->npos; i++)
        if (value_as_int(a->pos[i], &v[i]) < 0) return NULL;
    if (a->npos == 1) return v_range(0, v[0], 1);
    if (a->npos == 3 && v[2] == 0) return exc_set("ValueError", "range() arg 3 must not be zero");
    return v_range(v[0], v[1], v[2]);
}

Value *ctor_slice(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (a->nkw) return exc_set("TypeError", "slice() takes no keyword arguments");
    if (a->npos < 1 || a->npos > 3)
        return exc_set("TypeError", "slice expected %s, got %d", a->npos ? "at most 3 arguments" : "at least 1 argument", a->npos);
    if (a->npos == 1) return v_slice(NULL, a->pos[0], NULL);
    return v_slice(a->pos[0], a->pos[1], a->npos > 2 ? a->pos[2] : NULL);
}

Value *ctor_type(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (a->npos != 1 || a->nkw) return exc_set("TypeError", "type() takes 1 or 3 arguments");
    return v_typeobj(a->pos[0]->type);
}
