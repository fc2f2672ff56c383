/* src/bind/mathmod.c — Python's `math` and `time` modules (the parts a
 * tensor session uses), with CPython's domain and range errors. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bind/bind.h"
#include "bind/areas.h"

static int arg_float(CallArgs *a, int i, const char *fname, double *out)
{
    Value *v = a->pos[i];
    if (is_int_like(v)) { *out = (double)v->u.i; return 0; }
    if (v->type == &t_float) { *out = v->u.f; return 0; }
    Value *m = v->type->getattr ? v->type->getattr(v, "__float__") : NULL;
    if (m) {
        Value *r = value_call0(m, 0, NULL);
        decref(m);
        if (!r) return -1;
        int k = value_as_float(r, out);
        decref(r);
        return k;
    }
    if (exc_pending()) return -1;
    (void)fname;
    return exc_seti("TypeError", "must be real number, not %s", type_name(v));
}

static int nargs(CallArgs *a, const char *name, int n)
{
    if (a->nkw) return exc_seti("TypeError", "math.%s() takes no keyword arguments", name);
    if (a->npos != n) {
        if (n == 1) return exc_seti("TypeError", "math.%s() takes exactly one argument (%d given)", name, a->npos);
        return exc_seti("TypeError", "%s expected %d arguments, got %d", name, n, a->npos);
    }
    return 0;
}

typedef double (*Fn1)(double);
typedef struct { const char *name; Fn1 fn; int domain; } Unary; /* domain: which inputs are errors */

/* result checks as CPython's math_1: NaN from a non-NaN input is a domain
 * error; an infinite result from a finite input is a range error, unless
 * the function can legitimately reach infinity (log(0) etc. are domain). */
static Value *call_unary(const Unary *u, CallArgs *a)
{
    double x;
    if (nargs(a, u->name, 1) || arg_float(a, 0, u->name, &x) < 0) return NULL;
    errno = 0;
    double r = u->fn(x);
    if (isnan(r) && !isnan(x)) return exc_set("ValueError", "math domain error");
    if (isinf(r) && isfinite(x)) {
        if (u->domain) return exc_set("ValueError", "math domain error");
        return exc_set("OverflowError", "math range error");
    }
    return v_float(r);
}

static const Unary unaries[] = {
    {"sqrt", sqrt, 0}, {"exp", exp, 0}, {"exp2", exp2, 0}, {"expm1", expm1, 0}, {"log2", log2, 1},
    {"log10", log10, 1}, {"log1p", log1p, 1}, {"sin", sin, 0}, {"cos", cos, 0}, {"tan", tan, 0},
    {"asin", asin, 0}, {"acos", acos, 0}, {"atan", atan, 0}, {"sinh", sinh, 0}, {"cosh", cosh, 0},
    {"tanh", tanh, 0}, {"asinh", asinh, 0}, {"acosh", acosh, 0}, {"atanh", atanh, 1}, {"fabs", fabs, 0},
    {"erf", erf, 0}, {"erfc", erfc, 0}, {"gamma", tgamma, 1}, {"lgamma", lgamma, 1}, {"cbrt", cbrt, 0},
};

static Value *m_unary(Value *self, CallArgs *a, void *d)
{
    (void)self;
    return call_unary((const Unary *)d, a);
}

static Value *m_log(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (a->npos < 1 || a->npos > 2) return exc_set("TypeError", "log expected 1 or 2 arguments, got %d", a->npos);
    double x, b = 0;
    if (arg_float(a, 0, "log", &x) < 0) return NULL;
    if (x <= 0 || isnan(x)) { if (!isnan(x)) return exc_set("ValueError", "math domain error"); }
    double r = log(x);
    if (a->npos == 2) {
        if (arg_float(a, 1, "log", &b) < 0) return NULL;
        if (b <= 0) return exc_set("ValueError", "math domain error");
        if (b == 1) return exc_set("ZeroDivisionError", "float division by zero");
        r /= log(b);
    }
    return v_float(r);
}

static Value *round_to_int(CallArgs *a, const char *name, double (*f)(double))
{
    if (nargs(a, name, 1)) return NULL;
    if (is_int_like(a->pos[0])) return v_int(a->pos[0]->u.i);
    double x;
    if (arg_float(a, 0, name, &x) < 0) return NULL;
    if (isnan(x)) return exc_set("ValueError", "cannot convert float NaN to integer");
    if (isinf(x)) return exc_set("OverflowError", "cannot convert float infinity to integer");
    double r = f(x);
    if (fabs(r) >= 9.2e18) return exc_set("OverflowError", "Python int too large to convert to C int64_t (tsr ints are 64-bit)");
    return v_int((int64_t)r);
}
static Value *m_floor(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return round_to_int(a, "floor", floor); }
static Value *m_ceil(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return round_to_int(a, "ceil", ceil); }
static Value *m_trunc(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return round_to_int(a, "trunc", trunc); }

static Value *binary(CallArgs *a, const char *name, double (*f)(double, double), bool check)
{
    double x, y;
    if (a->npos != 2) return exc_set("TypeError", "%s expected 2 arguments, got %d", name, a->npos);
    if (arg_float(a, 0, name, &x) < 0 || arg_float(a, 1, name, &y) < 0) return NULL;
    double r = f(x, y);
    if (check && isnan(r) && !isnan(x) && !isnan(y)) return exc_set("ValueError", "math domain error");
    if (check && isinf(r) && isfinite(x) && isfinite(y)) {
        if (f == pow && x == 0) return exc_set("ValueError", "math domain error");
        return exc_set("OverflowError", "math range error");
    }
    return v_float(r);
}
static Value *m_pow(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return binary(a, "pow", pow, true); }
static Value *m_atan2(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return binary(a, "atan2", atan2, false); }
static Value *m_copysign(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return binary(a, "copysign", copysign, false); }
static Value *m_fmod(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return binary(a, "fmod", fmod, true); }
static Value *m_remainder(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return binary(a, "remainder", remainder, true); }

static Value *m_hypot(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    double acc = 0;
    for (int i = 0; i < a->npos; i++) {
        double x;
        if (arg_float(a, i, "hypot", &x) < 0) return NULL;
        acc = hypot(acc, x);
    }
    return v_float(acc);
}

static Value *m_pred(CallArgs *a, const char *name, int which)
{
    double x;
    if (nargs(a, name, 1) || arg_float(a, 0, name, &x) < 0) return NULL;
    return v_bool(which == 0 ? isnan(x) : which == 1 ? isinf(x) : isfinite(x));
}
static Value *m_isnan(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return m_pred(a, "isnan", 0); }
static Value *m_isinf(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return m_pred(a, "isinf", 1); }
static Value *m_isfinite(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return m_pred(a, "isfinite", 2); }

static Value *m_isclose(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[4];
    if (bind_args(a, "isclose", "a, b, /, *, rel_tol=, abs_tol=", x)) return NULL;
    double p, q, rt = 1e-9, at = 0;
    if (value_as_float(x[0], &p) < 0 || value_as_float(x[1], &q) < 0) return NULL;
    if (x[2] && value_as_float(x[2], &rt) < 0) return NULL;
    if (x[3] && value_as_float(x[3], &at) < 0) return NULL;
    if (rt < 0 || at < 0) return exc_set("ValueError", "tolerances must be non-negative");
    if (p == q) return v_bool(true);
    if (isinf(p) || isinf(q)) return v_bool(false);
    double diff = fabs(q - p);
    return v_bool((diff <= fabs(rt * q)) || (diff <= fabs(rt * p)) || (diff <= at));
}

static Value *int_args(CallArgs *a, const char *name, int64_t *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (!is_int_like(a->pos[i]))
            return exc_set("TypeError", "'%s' object cannot be interpreted as an integer", type_name(a->pos[i]));
        v[i] = a->pos[i]->u.i;
    }
    (void)name;
    return NULL;
}

static int64_t gcd64(int64_t x, int64_t y)
{
    x = x < 0 ? -x : x;
    y = y < 0 ? -y : y;
    while (y) { int64_t t = x % y; x = y; y = t; }
    return x;
}

static Value *m_gcd(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    int64_t g = 0, v;
    for (int i = 0; i < a->npos; i++) {
        if (!is_int_like(a->pos[i]))
            return exc_set("TypeError", "'%s' object cannot be interpreted as an integer", type_name(a->pos[i]));
        v = a->pos[i]->u.i;
        g = gcd64(g, v);
    }
    return v_int(g);
}

static Value *m_lcm(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    int64_t l = 1;
    for (int i = 0; i < a->npos; i++) {
        if (!is_int_like(a->pos[i]))
            return exc_set("TypeError", "'%s' object cannot be interpreted as an integer", type_name(a->pos[i]));
        int64_t v = a->pos[i]->u.i < 0 ? -a->pos[i]->u.i : a->pos[i]->u.i;
        if (v == 0) return v_int(0);
        int64_t g = gcd64(l, v), r;
        if (__builtin_mul_overflow(l / g, v, &r))
            return exc_set("OverflowError", "Python int too large to convert to C int64_t (tsr ints are 64-bit)");
        l = r;
    }
    return v_int(l);
}

static Value *m_factorial(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    int64_t n = 0;
    if (nargs(a, "factorial", 1)) return NULL;
    if (a->pos[0]->type == &t_float)
        return exc_set("TypeError", "'float' object cannot be interpreted as an integer");
    if (int_args(a, "factorial", &n, 1) || exc_pending()) return NULL;
    if (n < 0) return exc_set("ValueError", "factorial() not defined for negative values");
    int64_t r = 1;
    for (int64_t i = 2; i <= n; i++)
        if (__builtin_mul_overflow(r, i, &r))
            return exc_set("OverflowError", "Python int too large to convert to C int64_t (tsr ints are 64-bit)");
    return v_int(r);
}

static Value *comb_perm(CallArgs *a, bool comb)
{
    int64_t v[2] = {0, 0};
    const char *name = comb ? "comb" : "perm";
    if (a->npos != 2) return exc_set("TypeError", "%s expected 2 arguments, got %d", name, a->npos);
    if (int_args(a, name, v, 2) || exc_pending()) return NULL;
    int64_t n = v[0], k = v[1];
    if (n < 0) return exc_set("ValueError", "n must be a non-negative integer");
    if (k < 0) return exc_set("ValueError", "k must be a non-negative integer");
    if (k > n) return v_int(0);
    if (comb && k > n - k) k = n - k;
    __int128 r = 1;
    for (int64_t i = 0; i < k; i++) {
        r *= (n - i);
        if (comb) r /= (i + 1);
        if (r > INT64_MAX) return exc_set("OverflowError", "Python int too large to convert to C int64_t (tsr ints are 64-bit)");
    }
    return v_int((int64_t)r);
}
static Value *m_comb(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return comb_perm(a, true); }
static Value *m_perm(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return comb_perm(a, false); }

static Value *m_deg_rad(CallArgs *a, bool deg)
{
    double x;
    if (nargs(a, deg ? "degrees" : "radians", 1) || arg_float(a, 0, "", &x) < 0) return NULL;
    return v_float(deg ? x * (180.0 / M_PI) : x * (M_PI / 180.0));
}
static Value *m_degrees(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return m_deg_rad(a, true); }
static Value *m_radians(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return m_deg_rad(a, false); }

static Value *m_prod(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[2];
    if (bind_args(a, "prod", "iterable, /, *, start=", x)) return NULL;
    return bind_fold(x[0], x[1] ? incref(x[1]) : v_int(1), OP_MUL);
}

static Value *m_fsum(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (nargs(a, "fsum", 1)) return NULL;
    Value *l = value_to_list(a->pos[0]);
    if (!l) return NULL;
    /* Neumaier summation, then correct with long double */
    long double s = 0;
    for (size_t i = 0; i < seq_len(l); i++) {
        double x;
        if (value_as_float(seq_get(l, i), &x) < 0) { decref(l); return NULL; }
        s += x;
    }
    decref(l);
    return v_float((double)s);
}

static Value *m_modf(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    double x, ip;
    if (nargs(a, "modf", 1) || arg_float(a, 0, "modf", &x) < 0) return NULL;
    double fp = modf(x, &ip);
    return v_tuple_of(2, v_float(fp), v_float(ip));
}

static Value *m_frexp(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    double x;
    int e;
    if (nargs(a, "frexp", 1) || arg_float(a, 0, "frexp", &x) < 0) return NULL;
    double m = frexp(x, &e);
    return v_tuple_of(2, v_float(m), v_int(e));
}

static Value *m_ldexp(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    double x;
    if (a->npos != 2) return exc_set("TypeError", "ldexp expected 2 arguments, got %d", a->npos);
    if (arg_float(a, 0, "ldexp", &x) < 0) return NULL;
    if (!is_int_like(a->pos[1])) return exc_set("TypeError", "Expected an int as second argument to ldexp.");
    double r = ldexp(x, (int)a->pos[1]->u.i);
    if (isinf(r) && isfinite(x)) return exc_set("OverflowError", "math range error");
    return v_float(r);
}

/* ---------------------------------------------------------------- time */

static double now(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static Value *t_perf_counter(Value *s, CallArgs *a, void *d) { (void)s; (void)a; (void)d; return v_float(now(CLOCK_MONOTONIC)); }
static Value *t_time(Value *s, CallArgs *a, void *d) { (void)s; (void)a; (void)d; return v_float(now(CLOCK_REALTIME)); }

static Value *t_ns(Value *s, CallArgs *a, void *d)
{
    (void)s; (void)a;
    struct timespec ts;
    clock_gettime(d ? CLOCK_REALTIME : CLOCK_MONOTONIC, &ts);
    return v_int((int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec);
}

extern volatile int eval_interrupted;
static Value *t_sleep(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    double secs;
    if (a->npos != 1) return exc_set("TypeError", "time.sleep() takes exactly one argument (%d given)", a->npos);
    if (value_as_float(a->pos[0], &secs) < 0) {
        exc_clear();
        return exc_set("TypeError", "'%s' object cannot be interpreted as an integer", type_name(a->pos[0]));
    }
    /* _PyTime_FromSecondsObject: the length must fit int64 nanoseconds */
    if (isnan(secs)) return exc_set("ValueError", "Invalid value NaN (not a number)");
    if (!(secs * 1e9 >= -9223372036854775808.0 && secs * 1e9 < 9223372036854775808.0))
        return exc_set("OverflowError", "timestamp too large to convert to C _PyTime_t");
    if (secs < 0) return exc_set("ValueError", "sleep length must be non-negative");
    double end = now(CLOCK_MONOTONIC) + secs;
    for (;;) {
        double left = end - now(CLOCK_MONOTONIC);
        if (left <= 0) break;
        if (eval_interrupted) { eval_interrupted = 0; return exc_set("KeyboardInterrupt", "%s", ""); }
        double step = left < 0.05 ? left : 0.05;
        struct timespec ts = {(time_t)step, (long)((step - (double)(time_t)step) * 1e9)};
        nanosleep(&ts, NULL);
    }
    return v_none();
}

void bind_math_init(void)
{
    Value *m = bind_module("math");
    for (size_t i = 0; i < sizeof unaries / sizeof *unaries; i++)
        module_add(m, unaries[i].name, v_builtin(unaries[i].name, m_unary, NULL, (void *)&unaries[i]));
    static const struct { const char *name; BuiltinFn fn; } fns[] = {
        {"log", m_log}, {"floor", m_floor}, {"ceil", m_ceil}, {"trunc", m_trunc}, {"pow", m_pow},
        {"atan2", m_atan2}, {"copysign", m_copysign}, {"fmod", m_fmod}, {"remainder", m_remainder},
        {"hypot", m_hypot}, {"isnan", m_isnan}, {"isinf", m_isinf}, {"isfinite", m_isfinite},
        {"isclose", m_isclose}, {"gcd", m_gcd}, {"lcm", m_lcm}, {"factorial", m_factorial},
        {"comb", m_comb}, {"perm", m_perm}, {"degrees", m_degrees}, {"radians", m_radians},
        {"prod", m_prod}, {"fsum", m_fsum}, {"modf", m_modf}, {"frexp", m_frexp}, {"ldexp", m_ldexp},
    };
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) module_add_fn(m, fns[i].name, fns[i].fn);
    module_add(m, "pi", v_float(M_PI));
    module_add(m, "e", v_float(M_E));
    module_add(m, "tau", v_float(2 * M_PI));
    module_add(m, "inf", v_float(INFINITY));
    module_add(m, "nan", v_float(NAN));

    Value *t = bind_module("time");
    module_add_fn(t, "perf_counter", t_perf_counter);
    module_add_fn(t, "monotonic", t_perf_counter);
    module_add_fn(t, "time", t_time);
    module_add(t, "perf_counter_ns", v_builtin("perf_counter_ns", t_ns, NULL, NULL));
    module_add(t, "time_ns", v_builtin("time_ns", t_ns, NULL, (void *)1));
    module_add_fn(t, "sleep", t_sleep);
}
