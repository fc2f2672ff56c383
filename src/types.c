/* src/types.c — Python's built-in types: None, bool, int, float, complex and
 * the type objects. Numbers follow Python 3 exactly (floor division and
 * modulo signs, true division, ** with negative exponents); int is 64-bit and
 * overflow raises OverflowError instead of growing. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctors.h"
#include "value.h"

/* ------------------------------------------------------------ None, ... */

static Value *none_repr(Value *v) { (void)v; return v_str("None"); }
static int false_truth(Value *v) { (void)v; return 0; }
static uint64_t const_hash(Value *v, int *ok) { (void)ok; return (uint64_t)(uintptr_t)v->type * 31u; }

const VType t_none = {.name = "NoneType", .repr = none_repr, .truth = false_truth, .hash = const_hash};

static Value *ellipsis_repr(Value *v) { (void)v; return v_str("Ellipsis"); }
const VType t_ellipsis = {.name = "ellipsis", .repr = ellipsis_repr, .hash = const_hash};

static Value *notimpl_repr(Value *v) { (void)v; return v_str("NotImplemented"); }
const VType t_notimpl = {.name = "NotImplementedType", .repr = notimpl_repr, .hash = const_hash};

/* ---------------------------------------------------------------- numbers */

typedef enum { K_INT, K_FLOAT, K_COMPLEX, K_OTHER } NumKind;

static NumKind kind_of(Value *v)
{
    if (v->type == &t_int || v->type == &t_bool) return K_INT;
    if (v->type == &t_float) return K_FLOAT;
    if (v->type == &t_complex) return K_COMPLEX;
    return K_OTHER;
}

static double as_dbl(Value *v) { return kind_of(v) == K_INT ? (double)v->u.i : v->u.f; }

static double complex as_cplx(Value *v)
{
    if (kind_of(v) == K_COMPLEX) return CMPLX(v->u.c.re, v->u.c.im);
    return CMPLX(as_dbl(v), 0.0);
}

static Value *overflow(void) { return exc_set("OverflowError", "Python int too large to convert to C int64_t (tsr ints are 64-bit)"); }

static Value *int_pow(int64_t a, int64_t b)
{
    if (b < 0) {
        if (a == 0) return exc_set("ZeroDivisionError", "0.0 cannot be raised to a negative power");
        return v_float(pow((double)a, (double)b));
    }
    int64_t r = 1, base = a;
    while (b) {
        if (b & 1 && __builtin_mul_overflow(r, base, &r)) return overflow();
        b >>= 1;
        if (b && __builtin_mul_overflow(base, base, &base)) return overflow();
    }
    return v_int(r);
}

static Value *int_binop(int op, int64_t a, int64_t b, bool both_bool)
{
    int64_t r;
    switch (op) {
    case OP_ADD: if (__builtin_add_overflow(a, b, &r)) return overflow(); return v_int(r);
    case OP_SUB: if (__builtin_sub_overflow(a, b, &r)) return overflow(); return v_int(r);
    case OP_MUL: if (__builtin_mul_overflow(a, b, &r)) return overflow(); return v_int(r);
    case OP_TRUEDIV:
        if (b == 0) return exc_set("ZeroDivisionError", "division by zero");
        return v_float((double)a / (double)b);
    case OP_FLOORDIV:
    case OP_MOD: {
        if (b == 0)
            return exc_set("ZeroDivisionError", op == OP_MOD ? "integer modulo by zero"
                                                              : "integer division or modulo by zero");
        if (a == INT64_MIN && b == -1) return op == OP_MOD ? v_int(0) : overflow();
        int64_t q = a / b, m = a % b;
        if (m != 0 && ((m < 0) != (b < 0))) { q--; m += b; }
        return v_int(op == OP_MOD ? m : q);
    }
    case OP_POW: return int_pow(a, b);
    case OP_LSHIFT:
        if (b < 0) return exc_set("ValueError", "negative shift count");
        if (a == 0) return v_int(0);
        if (b >= 63 || (a > 0 ? a > (INT64_MAX >> b) : a < (INT64_MIN >> b))) return overflow();
        return v_int((int64_t)((uint64_t)a << b));
    case OP_RSHIFT:
        if (b < 0) return exc_set("ValueError", "negative shift count");
        return v_int(b >= 63 ? (a < 0 ? -1 : 0) : a >> b);
    case OP_AND: return both_bool ? v_bool(a & b) : v_int(a & b);
    case OP_OR: return both_bool ? v_bool(a | b) : v_int(a | b);
    case OP_XOR: return both_bool ? v_bool(a ^ b) : v_int(a ^ b);
    }
    return value_not_implemented();
}

static Value *float_binop(int op, double a, double b)
{
    switch (op) {
    case OP_ADD: return v_float(a + b);
    case OP_SUB: return v_float(a - b);
    case OP_MUL: return v_float(a * b);
    case OP_TRUEDIV:
        if (b == 0) return exc_set("ZeroDivisionError", "float division by zero");
        return v_float(a / b);
    case OP_FLOORDIV:
    case OP_MOD: {
        if (b == 0)
            return exc_set("ZeroDivisionError", op == OP_MOD ? "float modulo" : "float floor division by zero");
        /* CPython's float_divmod */
        double mod = fmod(a, b), div = (a - mod) / b, floordiv;
        if (mod) {
            if ((b < 0) != (mod < 0)) { mod += b; div -= 1.0; }
        } else {
            mod = copysign(0.0, b);
        }
        if (div) {
            floordiv = floor(div);
            if (div - floordiv > 0.5) floordiv += 1.0;
        } else {
            floordiv = copysign(0.0, a / b);
        }
        return v_float(op == OP_MOD ? mod : floordiv);
    }
    case OP_POW:
        if (a == 0 && b < 0) return exc_set("ZeroDivisionError", "0.0 cannot be raised to a negative power");
        if (a < 0 && b != floor(b) && isfinite(b)) {
            double complex r = cpow(CMPLX(a, 0), CMPLX(b, 0));
            return v_complex(creal(r), cimag(r));
        }
        {
            double r = pow(a, b);
            if (isinf(r) && isfinite(a) && isfinite(b))
                return exc_set("OverflowError", "(34, 'Numerical result out of range')");
            return v_float(r);
        }
    }
    return value_not_implemented();
}

static double complex cmul(double complex a, double complex b)
{
    double ar = creal(a), ai = cimag(a), br = creal(b), bi = cimag(b);
    return CMPLX(ar * br - ai * bi, ar * bi + ai * br);
}

static Value *num_binop(int op, Value *self, Value *other, int reflected);

static Value *complex_binop(int op, double complex a, double complex b)
{
    switch (op) {
    case OP_ADD: return v_complex(creal(a + b), cimag(a + b));
    case OP_SUB: return v_complex(creal(a - b), cimag(a - b));
    case OP_MUL: {
        double ar = creal(a), ai = cimag(a), br = creal(b), bi = cimag(b);
        return v_complex(ar * br - ai * bi, ar * bi + ai * br);
    }
    case OP_TRUEDIV: {
        double ar = creal(a), ai = cimag(a), br = creal(b), bi = cimag(b);
        if (br == 0 && bi == 0) return exc_set("ZeroDivisionError", "complex division by zero");
        /* CPython's _Py_c_quot (Smith's algorithm) */
        double abs_br = fabs(br), abs_bi = fabs(bi), re, im;
        if (abs_br >= abs_bi) {
            double ratio = bi / br, den = br + bi * ratio;
            re = (ar + ai * ratio) / den;
            im = (ai - ar * ratio) / den;
        } else {
            double ratio = br / bi, den = br * ratio + bi;
            re = (ar * ratio + ai) / den;
            im = (ai * ratio - ar) / den;
        }
        return v_complex(re, im);
    }
    case OP_POW: {
        if (creal(b) == 0 && cimag(b) == 0) return v_complex(1, 0);
        if (creal(a) == 0 && cimag(a) == 0) {
            if (cimag(b) != 0 || creal(b) < 0)
                return exc_set("ZeroDivisionError", "0.0 to a negative or complex power");
            return v_complex(0, 0);
        }
        /* CPython: integral exponents up to 100 by repeated squaring (c_powi) */
        if (cimag(b) == 0 && creal(b) == floor(creal(b)) && fabs(creal(b)) <= 100) {
            long n = (long)creal(b);
            double complex r = 1, x = a;
            long m = n < 0 ? -n : n;
            while (m) {
                if (m & 1) r = cmul(r, x);
                x = cmul(x, x);
                m >>= 1;
            }
            if (n < 0) {
                Value *one = v_complex(1, 0), *rv = v_complex(creal(r), cimag(r));
                Value *q = num_binop(OP_TRUEDIV, one, rv, 0);
                decref(one);
                decref(rv);
                return q;
            }
            return v_complex(creal(r), cimag(r));
        }
        double complex r = cpow(a, b);
        return v_complex(creal(r), cimag(r));
    }
    }
    return value_not_implemented();
}

static Value *num_binop(int op, Value *self, Value *other, int reflected)
{
    Value *a = reflected ? other : self, *b = reflected ? self : other;
    NumKind ka = kind_of(a), kb = kind_of(b);
    if (ka == K_OTHER || kb == K_OTHER) return value_not_implemented();
    NumKind k = ka > kb ? ka : kb;
    if (k == K_INT) return int_binop(op, a->u.i, b->u.i, a->type == &t_bool && b->type == &t_bool);
    if (op >= OP_MATMUL) return value_not_implemented();
    if (k == K_FLOAT) return float_binop(op, as_dbl(a), as_dbl(b));
    if (op == OP_FLOORDIV || op == OP_MOD) return value_not_implemented();
    return complex_binop(op, as_cplx(a), as_cplx(b));
}

static Value *num_unop(int op, Value *v)
{
    switch (kind_of(v)) {
    case K_INT:
        if (op == OP_NEG) return v->u.i == INT64_MIN ? overflow() : v_int(-v->u.i);
        if (op == OP_POS) return v_int(v->u.i);
        return v_int(~v->u.i);
    case K_FLOAT:
        if (op == OP_NEG) return v_float(-v->u.f);
        if (op == OP_POS) return v_float(v->u.f);
        break;
    case K_COMPLEX:
        if (op == OP_NEG) return v_complex(-v->u.c.re, -v->u.c.im);
        if (op == OP_POS) return v_complex(v->u.c.re, v->u.c.im);
        break;
    default: break;
    }
    return value_not_implemented();
}

static int cmp_result(int op, int c) /* c: -1, 0, 1 */
{
    switch (op) {
    case OP_LT: return c < 0;
    case OP_LE: return c <= 0;
    case OP_EQ: return c == 0;
    case OP_NE: return c != 0;
    case OP_GT: return c > 0;
    default: return c >= 0;
    }
}

/* int-to-float comparisons are exact, as in Python */
static int cmp_int_float(int64_t i, double f)
{
    if (isnan(f)) return 2;
    if (f >= 9223372036854775808.0) return -1;
    if (f < -9223372036854775808.0) return 1;
    double fl = floor(f);
    int64_t fi = (int64_t)fl;
    if (i < fi) return -1;
    if (i > fi) return 1;
    return f > fl ? -1 : 0;
}

static Value *num_compare(int op, Value *self, Value *other, int reflected)
{
    Value *a = reflected ? other : self, *b = reflected ? self : other;
    if (reflected) { /* undo the swap done by value_compare */
        switch (op) {
        case OP_LT: op = OP_GT; break;
        case OP_GT: op = OP_LT; break;
        case OP_LE: op = OP_GE; break;
        case OP_GE: op = OP_LE; break;
        }
    }
    NumKind ka = kind_of(a), kb = kind_of(b);
    if (ka == K_OTHER || kb == K_OTHER) return value_not_implemented();
    if (ka == K_COMPLEX || kb == K_COMPLEX) {
        if (op != OP_EQ && op != OP_NE) return value_not_implemented();
        double complex x = as_cplx(a), y = as_cplx(b);
        bool eq = creal(x) == creal(y) && cimag(x) == cimag(y);
        return v_bool(op == OP_EQ ? eq : !eq);
    }
    int c;
    if (ka == K_INT && kb == K_INT) {
        c = a->u.i < b->u.i ? -1 : a->u.i > b->u.i;
    } else if (ka == K_INT) {
        c = cmp_int_float(a->u.i, b->u.f);
    } else if (kb == K_INT) {
        c = cmp_int_float(b->u.i, a->u.f);
        if (c != 2) c = -c;
    } else {
        double x = a->u.f, y = b->u.f;
        c = isnan(x) || isnan(y) ? 2 : x < y ? -1 : x > y;
    }
    if (c == 2) return v_bool(op == OP_NE); /* NaN */
    return v_bool(cmp_result(op, c));
}

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

static uint64_t num_hash(Value *v, int *ok)
{
    (void)ok;
    switch (kind_of(v)) {
    case K_INT: return mix((uint64_t)v->u.i);
    case K_FLOAT: {
        double f = v->u.f;
        if (f == floor(f) && fabs(f) < 9.2e18) return mix((uint64_t)(int64_t)f);
        uint64_t bits;
        memcpy(&bits, &f, 8);
        return mix(bits);
    }
    default: {
        if (v->u.c.im == 0) {
            Value tmp = {.refcnt = 1, .type = &t_float, .u = {.f = v->u.c.re}};
            return num_hash(&tmp, ok);
        }
        uint64_t a, b;
        memcpy(&a, &v->u.c.re, 8);
        memcpy(&b, &v->u.c.im, 8);
        return mix(a * 1000003u ^ b);
    }
    }
}

static Value *bool_repr(Value *v) { return v_str(v->u.i ? "True" : "False"); }
static Value *int_repr(Value *v) { return v_strf("%lld", (long long)v->u.i); }
static Value *float_repr(Value *v) { return float_repr_str(v->u.f); }

static Value *complex_repr(Value *v)
{
    char buf[160];
    format_complex_repr(v->u.c.re, v->u.c.im, buf, sizeof buf);
    return v_str(buf);
}

static int int_truth(Value *v) { return v->u.i != 0; }
static int float_truth(Value *v) { return v->u.f != 0; }
static int complex_truth(Value *v) { return v->u.c.re != 0 || v->u.c.im != 0; }

static Value *num_attr(Value *v, const char *name);

const VType t_bool = {.name = "bool", .repr = bool_repr, .binop = num_binop, .unop = num_unop,
                      .compare = num_compare, .truth = int_truth, .hash = num_hash, .getattr = num_attr,
                      .construct = ctor_bool};
const VType t_int = {.name = "int", .repr = int_repr, .binop = num_binop, .unop = num_unop,
                     .compare = num_compare, .truth = int_truth, .hash = num_hash, .getattr = num_attr,
                     .construct = ctor_int};
const VType t_float = {.name = "float", .repr = float_repr, .binop = num_binop, .unop = num_unop,
                       .compare = num_compare, .truth = float_truth, .hash = num_hash, .getattr = num_attr,
                       .construct = ctor_float};
const VType t_complex = {.name = "complex", .repr = complex_repr, .binop = num_binop, .unop = num_unop,
                         .compare = num_compare, .truth = complex_truth, .hash = num_hash,
                         .getattr = num_attr, .construct = ctor_complex};

static Value *m_conjugate(Value *self, CallArgs *a, void *d)
{
    (void)a; (void)d;
    if (self->type == &t_complex) return v_complex(self->u.c.re, -self->u.c.im);
    return incref(self);
}

static Value *m_is_integer(Value *self, CallArgs *a, void *d)
{
    (void)a; (void)d;
    return v_bool(isfinite(self->u.f) && self->u.f == floor(self->u.f));
}

/* float.hex(): CPython's format, 13 hex digits of mantissa always. */
static Value *m_float_hex(Value *self, CallArgs *a, void *d)
{
    (void)a; (void)d;
    double x = self->u.f;
    if (isnan(x)) return v_str("nan");
    if (isinf(x)) return v_str(x < 0 ? "-inf" : "inf");
    const char *sign = signbit(x) ? "-" : "";
    if (x == 0) return v_strf("%s0x0.0p+0", sign);
    uint64_t bits;
    memcpy(&bits, &x, 8);
    int e = (int)((bits >> 52) & 0x7ff);
    uint64_t m = bits & ((1ULL << 52) - 1);
    if (e == 0) return v_strf("%s0x0.%013llxp-1022", sign, (unsigned long long)m);
    return v_strf("%s0x1.%013llxp%+d", sign, (unsigned long long)m, e - 1023);
}

static Value *m_bit_length(Value *self, CallArgs *a, void *d)
{
    (void)a; (void)d;
    uint64_t x = self->u.i < 0 ? -(uint64_t)self->u.i : (uint64_t)self->u.i;
    return v_int(x ? 64 - __builtin_clzll(x) : 0);
}

static Value *num_attr(Value *v, const char *name)
{
    NumKind k = kind_of(v);
    if (!strcmp(name, "real")) return k == K_COMPLEX ? v_float(v->u.c.re) : incref(v);
    if (!strcmp(name, "imag"))
        return k == K_COMPLEX ? v_float(v->u.c.im) : k == K_FLOAT ? v_float(0) : v_int(0);
    if (!strcmp(name, "conjugate")) return v_builtin("conjugate", m_conjugate, v, NULL);
    if (k == K_FLOAT && !strcmp(name, "is_integer")) return v_builtin("is_integer", m_is_integer, v, NULL);
    if (k == K_FLOAT && !strcmp(name, "hex")) return v_builtin("hex", m_float_hex, v, NULL);
    if (k == K_INT && !strcmp(name, "bit_length")) return v_builtin("bit_length", m_bit_length, v, NULL);
    return NULL;
}

/* ----------------------------------------------------------- type objects */

static Value *type_repr(Value *v)
{
    const VType *t = v->u.typeobj;
    if (t->module) return v_strf("<class '%s.%s'>", t->module, t->name);
    return v_strf("<class '%s'>", t->name);
}

static int type_eq(Value *a, Value *b) { return a->u.typeobj == b->u.typeobj; }
static uint64_t type_hash(Value *v, int *ok) { (void)ok; return (uint64_t)(uintptr_t)v->u.typeobj; }

/* Calling a type object calls the constructor its VType names. */
static Value *type_call(Value *v, CallArgs *a)
{
    const VType *t = v->u.typeobj;
    if (t->construct) return t->construct(v, a, NULL);
    return exc_set("TypeError", "cannot create '%s' instances", t->name);
}

static Value *type_compare(int op, Value *a, Value *b, int reflected)
{
    (void)reflected;
    if (b->type != &t_type || (op != OP_EQ && op != OP_NE)) return value_not_implemented();
    bool eq = a->u.typeobj == b->u.typeobj;
    return v_bool(op == OP_EQ ? eq : !eq);
}

/* __name__, __qualname__ and __module__ from the VType's dotted name or
 * module ("torch.cuda.FloatTensor": module torch.cuda), then the class's own
 * attributes. */
static Value *type_getattr(Value *v, const char *name)
{
    const VType *t = v->u.typeobj;
    const char *n = t->name, *dot = strrchr(n, '.');
    if (!strcmp(name, "__name__") || !strcmp(name, "__qualname__")) return v_str(dot ? dot + 1 : n);
    if (!strcmp(name, "__module__")) {
        if (t->module) return v_str(t->module);
        return dot ? v_strn(n, (size_t)(dot - n)) : v_str("builtins");
    }
    return t->class_getattr ? t->class_getattr(t, name) : NULL;
}

const VType t_type = {.name = "type", .repr = type_repr, .eq = type_eq, .hash = type_hash,
                      .call = type_call, .compare = type_compare, .getattr = type_getattr,
                      .construct = ctor_type};
