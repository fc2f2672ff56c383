/* src/args.c — a call's arguments bound to parameters by Python's rules and
 * with CPython's messages: the language's calling convention, shared by the
 * built-in types' constructors (src/ctors.c) and every binding in src/bind/. */
#include <stdio.h>
#include <string.h>

#include "args.h"

typedef struct {
    char name[40];
    bool optional, kwonly, posonly, star, dstar;
} Param;

static int parse_spec(const char *spec, Param *ps, int max)
{
    int n = 0;
    bool kwonly = false;
    const char *p = spec;
    while (*p && n < max) {
        while (*p == ' ' || *p == ',') p++;
        if (!*p) break;
        const char *e = p;
        while (*e && *e != ',') e++;
        const char *te = e;
        while (te > p && te[-1] == ' ') te--;
        size_t len = (size_t)(te - p);
        if (len == 1 && *p == '*') { kwonly = true; p = e; continue; }
        if (len == 1 && *p == '/') {
            for (int i = 0; i < n; i++) ps[i].posonly = true;
            p = e;
            continue;
        }
        Param *q = &ps[n++];
        memset(q, 0, sizeof *q);
        if (len > 2 && p[0] == '*' && p[1] == '*') { q->dstar = true; p += 2; len -= 2; kwonly = true; }
        else if (*p == '*') { q->star = true; p++; len--; kwonly = true; }
        if (len && p[len - 1] == '=') { q->optional = true; len--; }
        snprintf(q->name, sizeof q->name, "%.*s", (int)len, p);
        q->kwonly = kwonly && !q->star;
        p = e;
    }
    return n;
}

int args_parse(CallArgs *a, const char *fname, const char *spec, Value **out)
{
    Param ps[32];
    /* "def " marks a function written in Python (1.13's torch.set_default_dtype):
     * missing arguments are counted and named as CPython words it for a def */
    bool def = !strncmp(spec, "def ", 4);
    /* "def self, ...": a method written in Python (Tensor.backward): self is
     * bound already, yet CPython's counts of positional arguments include it */
    int self_ = def && (!strncmp(spec + 4, "self, ", 6) || !strcmp(spec + 4, "self")) ? 1 : 0;
    const char *params = !def ? spec : !self_ ? spec + 4 : spec[8] ? spec + 10 : spec + 8;
    int n = parse_spec(params, ps, 32);
    int npos_params = 0, nreq = 0, star = -1;
    bool any_kw = false;
    for (int i = 0; i < n; i++) {
        out[i] = NULL;
        if (ps[i].star) star = i;
        else if (ps[i].dstar) any_kw = true;
        else if (!ps[i].kwonly) {
            npos_params++;
            if (!ps[i].optional) nreq++;
        }
    }
    if (a->npos > npos_params && star < 0) {
        int np = npos_params + self_, ng = a->npos + self_;
        const char *given = ng == 1 ? "was" : "were";
        if (nreq < npos_params)
            return exc_seti("TypeError", "%s() takes from %d to %d positional arguments but %d %s given", fname,
                            nreq + self_, np, ng, given);
        return exc_seti("TypeError", "%s() takes %d positional argument%s but %d %s given", fname, np,
                        np == 1 ? "" : "s", ng, given);
    }
    int k = 0;
    for (int i = 0; i < n && k < a->npos; i++) {
        if (ps[i].kwonly || ps[i].star) continue;
        out[i] = a->pos[k++];
    }
    if (star >= 0) {
        int extra = a->npos - k;
        Value *t = v_tuple((size_t)(extra > 0 ? extra : 0));
        for (int j = 0; j < extra; j++) t->u.seq.items[j] = incref(a->pos[k + j]);
        out[star] = t;
    }
    for (int j = 0; j < a->nkw; j++) {
        int idx = -1;
        for (int i = 0; i < n; i++)
            if (!ps[i].star && !ps[i].dstar && !ps[i].posonly && !strcmp(ps[i].name, a->kwnames[j])) idx = i;
        if (idx < 0 && any_kw) continue; /* "**name": other keywords are accepted and ignored */
        if (idx < 0) {
            if (star >= 0) decref(out[star]);
            return exc_seti("TypeError", "%s() got an unexpected keyword argument '%s'", fname, a->kwnames[j]);
        }
        if (out[idx]) {
            if (star >= 0) decref(out[star]);
            return exc_seti("TypeError", "%s() got multiple values for argument '%s'", fname, a->kwnames[j]);
        }
        out[idx] = a->kw[j];
    }
    if (def) {
        char names[256];
        size_t len = 0;
        int miss = 0, nmiss = 0;
        for (int i = 0; i < n; i++) nmiss += !out[i] && !ps[i].optional && !ps[i].star && !ps[i].dstar && !ps[i].kwonly;
        names[0] = 0;
        for (int i = 0; i < n && len < sizeof names - 48; i++) {
            if (out[i] || ps[i].optional || ps[i].star || ps[i].dstar || ps[i].kwonly) continue;
            miss++;
            const char *sep = miss == 1 ? "" : miss < nmiss ? ", " : nmiss == 2 ? " and " : ", and ";
            len += (size_t)snprintf(names + len, sizeof names - len, "%s'%s'", sep, ps[i].name);
        }
        if (miss) {
            if (star >= 0) decref(out[star]);
            return exc_seti("TypeError", "%s() missing %d required positional argument%s: %s", fname, miss,
                            miss == 1 ? "" : "s", names);
        }
    }
    for (int i = 0; i < n; i++) {
        if (out[i] || ps[i].optional || ps[i].star || ps[i].dstar) continue;
        if (star >= 0) decref(out[star]);
        if (ps[i].kwonly)
            return exc_seti("TypeError", "%s() missing required keyword-only argument: '%s'", fname, ps[i].name);
        return exc_seti("TypeError", "%s() missing required argument '%s' (pos %d)", fname, ps[i].name, i + 1);
    }
    return 0;
}

int args_check(CallArgs *a, const char *fname, const char *spec)
{
    Value *out[32];
    return args_parse(a, fname, spec, out) < 0 ? -1 : 0;
}

int args_meth_noargs(CallArgs *a, const char *qualname)
{
    if (a->nkw) return exc_seti("TypeError", "%s() takes no keyword arguments", qualname);
    if (a->npos) return exc_seti("TypeError", "%s() takes no arguments (%d given)", qualname, a->npos);
    return 0;
}

int args_meth_o(CallArgs *a, const char *qualname)
{
    if (a->nkw) return exc_seti("TypeError", "%s() takes no keyword arguments", qualname);
    if (a->npos != 1) return exc_seti("TypeError", "%s() takes exactly one argument (%d given)", qualname, a->npos);
    return 0;
}

int args_int(Value *v, const char *fname, const char *arg, int64_t *out)
{
    if (is_int_like(v)) { *out = v->u.i; return 0; }
    return exc_seti("TypeError", "%s(): argument '%s' must be int, not %s", fname, arg, type_name(v));
}

int args_float(Value *v, const char *fname, const char *arg, double *out)
{
    if (is_int_like(v)) { *out = (double)v->u.i; return 0; }
    if (v->type == &t_float) { *out = v->u.f; return 0; }
    return exc_seti("TypeError", "%s(): argument '%s' must be float, not %s", fname, arg, type_name(v));
}

int args_bool(Value *v, const char *fname, const char *arg, bool *out)
{
    if (v->type == &t_bool) { *out = v->u.i != 0; return 0; }
    return exc_seti("TypeError", "%s(): argument '%s' must be bool, not %s", fname, arg, type_name(v));
}
