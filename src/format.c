/* src/format.c — Python's string formatting: format(value, spec) with the
 * format-spec mini-language (CPython Python/formatter_unicode.c), `%` on
 * str (Objects/unicodeobject.c, PyUnicode_Format) and str.format
 * (Objects/stringlib/unicode_format.h), with CPython 3.11's messages. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

/* ------------------------------------------------------------ buffers */

typedef struct { char *p; size_t n, cap; } Buf;

static void put(Buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2 + 32;
        b->p = value_xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}
static void puts_(Buf *b, const char *s) { put(b, s, strlen(s)); }
static Value *buf_str(Buf *b)
{
    if (!b->p) return v_str("");
    return v_str_take(b->p, b->n);
}

static size_t cp_len(const char *s, size_t n) /* code points of UTF-8 text */
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) k++;
    return k;
}

static size_t cp_prefix(const char *s, size_t n, size_t k) /* bytes of the first k code points */
{
    size_t i = 0, c = 0;
    while (i < n) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            if (c == k) break;
            c++;
        }
        i++;
    }
    return i;
}

/* ------------------------------------------------------------ the spec */

typedef struct {
    char fill[5];
    char align;       /* 0: the type's default */
    char sign;        /* 0, '+', '-', ' ' */
    bool z, alt;
    int64_t width;    /* -1: none */
    char group;       /* 0, ',', '_' */
    int64_t prec;     /* -1: none */
    char type;        /* 0: none */
} Spec;

static int read_num(const char *s, size_t n, size_t *i, int64_t *out)
{
    size_t st = *i;
    int64_t v = 0;
    while (*i < n && isdigit((unsigned char)s[*i])) {
        if (v > (INT64_MAX - 9) / 10) return exc_seti("ValueError", "Too many decimal digits in format string");
        v = v * 10 + (s[*i] - '0');
        (*i)++;
    }
    *out = *i > st ? v : -1;
    return 0;
}

static bool is_align(char c) { return c == '<' || c == '>' || c == '=' || c == '^'; }

static int parse_spec(const char *s, size_t n, Spec *sp, char default_align, const char *tname)
{
    memset(sp, 0, sizeof *sp);
    strcpy(sp->fill, " ");
    sp->width = sp->prec = -1;
    size_t i = 0;
    size_t cl = 1;
    if (n && ((unsigned char)s[0] & 0x80)) while (cl < n && ((unsigned char)s[cl] & 0xC0) == 0x80) cl++;
    bool fill_given = false, align_given = false;
    if (n > cl && is_align(s[cl])) {
        memcpy(sp->fill, s, cl);
        sp->fill[cl] = 0;
        sp->align = s[cl];
        i = cl + 1;
        fill_given = align_given = true;
    } else if (n && is_align(s[0])) {
        sp->align = s[0];
        i = 1;
        align_given = true;
    }
    if (i < n && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) sp->sign = s[i++];
    if (i < n && s[i] == 'z') { sp->z = true; i++; }
    if (i < n && s[i] == '#') { sp->alt = true; i++; }
    if (i < n && s[i] == '0' && !fill_given) {
        strcpy(sp->fill, "0");
        if (!align_given && default_align == '>') sp->align = '=';
        i++;
    }
    if (read_num(s, n, &i, &sp->width) < 0) return -1;
    if (i < n && (s[i] == ',' || s[i] == '_')) {
        sp->group = s[i++];
        if (i < n && (s[i] == ',' || s[i] == '_')) {
            if (s[i] != sp->group) return exc_seti("ValueError", "Cannot specify both ',' and '_'.");
            return exc_seti("ValueError", "Cannot specify '%c' with '%c'.", s[i], s[i]);
        }
    }
    if (i < n && s[i] == '.') {
        i++;
        if (read_num(s, n, &i, &sp->prec) < 0) return -1;
        if (sp->prec < 0) return exc_seti("ValueError", "Format specifier missing precision");
    }
    if (n - i > 1) return exc_seti("ValueError", "Invalid format specifier '%.*s' for object of type '%s'", (int)n, s, tname);
    if (i < n) sp->type = s[i];
    if (sp->group) {
        const char *ok = sp->group == ',' ? "deEfFgG%" : "deEfFgG%boxX";
        if (sp->type && !strchr(ok, sp->type)) {
            if (sp->type == 'n' || strchr("deEfFgG%boxXcs", sp->type))
                return exc_seti("ValueError", "Cannot specify '%c' with '%c'.", sp->group, sp->type);
        }
    }
    if (!sp->align) sp->align = default_align;
    return 0;
}

/* Pads prefix+body (sign and base prefix, then the digits) to the width. */
static Value *pad(const Spec *sp, const char *prefix, const char *body, size_t bn)
{
    size_t pn = strlen(prefix), len = cp_len(prefix, pn) + cp_len(body, bn);
    size_t w = sp->width > 0 ? (size_t)sp->width : 0, fill = w > len ? w - len : 0;
    size_t left = 0, right = 0;
    switch (sp->align) {
    case '<': right = fill; break;
    case '^': left = fill / 2; right = fill - left; break;
    default: left = fill; break;
    }
    Buf b = {0};
    puts_(&b, "");
    if (sp->align == '=') puts_(&b, prefix);
    for (size_t i = 0; i < left; i++) puts_(&b, sp->fill);
    if (sp->align != '=') puts_(&b, prefix);
    put(&b, body, bn);
    for (size_t i = 0; i < right; i++) puts_(&b, sp->fill);
    return buf_str(&b);
}

/* digits with a separator every k digits (from the right) */
static void group_digits(Buf *out, const char *d, size_t n, char sep, int k)
{
    for (size_t i = 0; i < n; i++) {
        put(out, d + i, 1);
        size_t rest = n - 1 - i;
        if (sep && rest && rest % (size_t)k == 0) put(out, &sep, 1);
    }
}

/* The digits of a number's integer part grouped, zero-filled to the width
 * when the fill is '0' and the alignment '=' (CPython fills inside the
 * grouping). `tail` follows the integer part (".5", "e+10", "%"). */
static Value *finish_number(const Spec *sp, const char *prefix, const char *ip, size_t in, const char *tail, int k)
{
    Buf b = {0};
    puts_(&b, "");
    bool zero_fill = sp->align == '=' && !strcmp(sp->fill, "0") && sp->width > 0;
    if (sp->group || zero_fill) {
        size_t pn = strlen(prefix), tn = strlen(tail);
        char *d = value_xmalloc(in + (size_t)(sp->width > 0 ? sp->width : 0) + 2);
        memcpy(d, ip, in);
        size_t dn = in;
        for (;;) {
            Buf t = {0};
            puts_(&t, "");
            group_digits(&t, d, dn, sp->group, sp->group == '_' && k == 4 ? 4 : 3);
            if (!zero_fill || pn + t.n + tn >= (size_t)sp->width) {
                put(&b, t.p, t.n);
                free(t.p);
                break;
            }
            free(t.p);
            memmove(d + 1, d, dn++);
            d[0] = '0';
        }
        free(d);
    } else {
        put(&b, ip, in);
    }
    puts_(&b, tail);
    Value *r = pad(sp, prefix, b.p, b.n);
    free(b.p);
    return r;
}

static void sign_prefix(char *out, bool neg, char sign)
{
    out[0] = neg ? '-' : sign == '+' ? '+' : sign == ' ' ? ' ' : 0;
    out[1] = 0;
}

/* ------------------------------------------------------------ numbers */

static Value *format_double(double d, Spec *sp, const char *tname);

static Value *format_int(int64_t v, Spec *sp, const char *tname)
{
    char t = sp->type ? sp->type : 'd';
    if (strchr("eEfFgG%", t)) return format_double((double)v, sp, tname);
    if (!strchr("bcdoxXn", t))
        return exc_set("ValueError", "Unknown format code '%c' for object of type '%s'", t, tname);
    if (sp->prec >= 0) return exc_set("ValueError", "Precision not allowed in integer format specifier");
    if (t == 'c') {
        if (sp->sign) return exc_set("ValueError", "Sign not allowed with integer format specifier 'c'");
        if (sp->alt) return exc_set("ValueError", "Alternate form (#) not allowed with integer format specifier 'c'");
        if (v < 0 || v > 0x10FFFF) return exc_set("OverflowError", "%%c arg not in range(0x110000)");
        char u[5];
        unsigned cp = (unsigned)v;
        int n;
        if (cp < 0x80) { u[0] = (char)cp; n = 1; }
        else if (cp < 0x800) { u[0] = (char)(0xC0 | cp >> 6); u[1] = (char)(0x80 | (cp & 63)); n = 2; }
        else if (cp < 0x10000) { u[0] = (char)(0xE0 | cp >> 12); u[1] = (char)(0x80 | (cp >> 6 & 63)); u[2] = (char)(0x80 | (cp & 63)); n = 3; }
        else { u[0] = (char)(0xF0 | cp >> 18); u[1] = (char)(0x80 | (cp >> 12 & 63)); u[2] = (char)(0x80 | (cp >> 6 & 63)); u[3] = (char)(0x80 | (cp & 63)); n = 4; }
        if (sp->align == '=') sp->align = '>';
        return pad(sp, "", u, (size_t)n);
    }
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    int base = t == 'b' ? 2 : t == 'o' ? 8 : (t == 'x' || t == 'X') ? 16 : 10;
    char digits[80];
    int n = 0;
    const char *dig = t == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    do { digits[n++] = dig[m % (uint64_t)base]; m /= (uint64_t)base; } while (m);
    for (int i = 0; i < n / 2; i++) { char c = digits[i]; digits[i] = digits[n - 1 - i]; digits[n - 1 - i] = c; }
    char prefix[8];
    sign_prefix(prefix, v < 0, sp->sign);
    if (sp->alt && base != 10) strcat(prefix, t == 'b' ? "0b" : t == 'o' ? "0o" : t == 'x' ? "0x" : "0X");
    return finish_number(sp, prefix, digits, (size_t)n, "", base == 10 ? 3 : 4);
}

static Value *format_double(double d, Spec *sp, const char *tname)
{
    char t = sp->type;
    if (t && !strchr("eEfFgGn%", t))
        return exc_set("ValueError", "Unknown format code '%c' for object of type '%s'", t, tname);
    bool neg = signbit(d) && !isnan(d);
    double a = fabs(d);
    char body[512];
    if (t == '%') a *= 100;
    if (!t && sp->prec < 0) {
        format_float_repr(a, body, sizeof body);
        if (sp->alt && !strpbrk(body, ".en")) strcat(body, ".");
    } else {
        int p = sp->prec >= 0 ? (int)(sp->prec > 300 ? 300 : sp->prec) : 6;
        char ct = !t || t == 'n' ? 'g' : t == '%' ? 'f' : t;
        char f[16];
        snprintf(f, sizeof f, "%%%s.*%c", sp->alt ? "#" : "", ct);
        snprintf(body, sizeof body, f, p, a);
        if (!t && !strpbrk(body, ".eEn")) strcat(body, ".0"); /* Py_DTSF_ADD_DOT_0 */
    }
    if (sp->z && neg) {
        bool zero = true;
        for (const char *q = body; *q && *q != 'e' && *q != 'E'; q++)
            if (*q >= '1' && *q <= '9') zero = false;
        if (zero) neg = false;
    }
    char prefix[4];
    sign_prefix(prefix, neg, sp->sign);
    size_t in = strspn(body, "0123456789");
    char tail[520];
    snprintf(tail, sizeof tail, "%s%s", body + in, t == '%' ? "%" : "");
    return finish_number(sp, prefix, body, in, tail, 3); /* inf, nan: no digits, all tail */
}

static Value *format_string(Value *v, Spec *sp)
{
    if (sp->type && sp->type != 's')
        return exc_set("ValueError", "Unknown format code '%c' for object of type 'str'", sp->type);
    if (sp->sign) return exc_set("ValueError", "Sign not allowed in string format specifier");
    if (sp->alt) return exc_set("ValueError", "Alternate form (#) not allowed in string format specifier");
    if (sp->align == '=') return exc_set("ValueError", "'=' alignment not allowed in string format specifier");
    size_t n = v->u.s.n;
    if (sp->prec >= 0) n = cp_prefix(v->u.s.p, n, (size_t)sp->prec);
    return pad(sp, "", v->u.s.p, n);
}

Value *format_value(Value *v, const char *spec, size_t n)
{
    Spec sp;
    if (v->type == &t_str) {
        if (n == 0) return incref(v);
        if (parse_spec(spec, n, &sp, '<', "str") < 0) return NULL;
        if (sp.group) return exc_set("ValueError", "Cannot specify '%c' with 's'.", sp.group);
        return format_string(v, &sp);
    }
    if (v->type == &t_int || v->type == &t_bool) {
        if (n == 0) return value_str(v);
        if (parse_spec(spec, n, &sp, '>', "int") < 0) return NULL;
        return format_int(v->u.i, &sp, "int");
    }
    if (v->type == &t_float) {
        if (n == 0) return value_str(v);
        if (parse_spec(spec, n, &sp, '>', "float") < 0) return NULL;
        return format_double(v->u.f, &sp, "float");
    }
    Value *m = v->type->getattr ? v->type->getattr(v, "__format__") : NULL;
    if (m) {
        Value *s = v_strn(spec, n);
        Value *r = value_call0(m, 1, &s);
        decref(s);
        decref(m);
        if (r && r->type != &t_str) {
            exc_set("TypeError", "__format__ must return a str, not %s", type_name(r));
            CLEAR(r);
        }
        return r;
    }
    if (exc_pending()) return NULL;
    if (n) return exc_set("TypeError", "unsupported format string passed to %s.__format__", type_name(v));
    return value_str(v);
}

Value *format_ascii(Value *v)
{
    Value *r = value_repr(v);
    if (!r) return NULL;
    Buf b = {0};
    puts_(&b, "");
    const unsigned char *p = (const unsigned char *)r->u.s.p, *end = p + r->u.s.n;
    while (p < end) {
        if (*p < 0x80) { put(&b, (const char *)p, 1); p++; continue; }
        unsigned cp;
        int k = *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : 2;
        cp = *p & (k == 4 ? 7 : k == 3 ? 15 : 31);
        for (int i = 1; i < k && p + i < end; i++) cp = cp << 6 | (p[i] & 63);
        p += k;
        char e[16];
        if (cp < 0x100) snprintf(e, sizeof e, "\\x%02x", cp);
        else if (cp < 0x10000) snprintf(e, sizeof e, "\\u%04x", cp);
        else snprintf(e, sizeof e, "\\U%08x", cp);
        puts_(&b, e);
    }
    decref(r);
    return buf_str(&b);
}

/* ------------------------------------------------------------ str % args */

/* The number a %d / %f conversion takes: an int or float, or what the
 * value's __int__ / __float__ gives (tensors). New reference or NULL. */
static Value *as_number(Value *x, const char *dunder)
{
    if (x->type == &t_int || x->type == &t_bool || x->type == &t_float) return incref(x);
    Value *m = x->type->getattr ? x->type->getattr(x, dunder) : NULL;
    if (!m) return NULL;
    Value *r = value_call0(m, 0, NULL);
    decref(m);
    return r;
}

static Value *percent_one(char c, Value *x, Spec *sp, int64_t iprec)
{
    switch (c) {
    case 's': case 'r': case 'a': {
        Value *s = c == 's' ? value_str(x) : c == 'r' ? value_repr(x) : format_ascii(x);
        if (!s) return NULL;
        size_t n = s->u.s.n;
        if (iprec >= 0) n = cp_prefix(s->u.s.p, n, (size_t)iprec);
        Value *r = pad(sp, "", s->u.s.p, n);
        decref(s);
        return r;
    }
    case 'c': {
        if (x->type == &t_str && cp_len(x->u.s.p, x->u.s.n) == 1) return pad(sp, "", x->u.s.p, x->u.s.n);
        if (x->type != &t_int && x->type != &t_bool) return exc_set("TypeError", "%%c requires int or char");
        sp->type = 'c';
        return format_int(x->u.i, sp, "int");
    }
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': {
        bool intonly = c == 'o' || c == 'x' || c == 'X';
        Value *num = intonly && x->type == &t_float ? NULL : as_number(x, intonly ? "__index__" : "__int__");
        if (!num) {
            if (exc_pending()) return NULL;
            return exc_set("TypeError", "%%%c format: %s is required, not %s", c,
                           intonly ? "an integer" : "a real number", type_name(x));
        }
        int64_t v;
        if (num->type == &t_float) {
            double f = num->u.f;
            if (!isfinite(f)) { decref(num); return exc_set(isnan(f) ? "ValueError" : "OverflowError", isnan(f) ? "cannot convert float NaN to integer" : "cannot convert float infinity to integer"); }
            v = (int64_t)f;
        } else {
            v = num->u.i;
        }
        decref(num);
        sp->type = c == 'o' || c == 'x' || c == 'X' ? c : 'd';
        Value *r = format_int(v, sp, "int");
        if (r && iprec > 0) { /* %.3d: at least that many digits */
            Spec s2 = *sp;
            s2.width = -1;
            Value *bare = format_int(v < 0 ? -v : v, &s2, "int");
            size_t have = bare ? bare->u.s.n : 0;
            decref(bare);
            if ((int64_t)have < iprec) {
                decref(r);
                Buf b = {0};
                puts_(&b, v < 0 ? "-" : sp->sign == '+' ? "+" : sp->sign == ' ' ? " " : "");
                for (int64_t i = (int64_t)have; i < iprec; i++) puts_(&b, "0");
                Spec s3 = *sp;
                s3.sign = 0;
                s3.width = -1;
                Value *dg = format_int(v < 0 ? -v : v, &s3, "int");
                put(&b, dg->u.s.p, dg->u.s.n);
                decref(dg);
                r = pad(sp, "", b.p, b.n);
                free(b.p);
            }
        }
        return r;
    }
    default: { /* e E f F g G */
        Value *num = as_number(x, "__float__");
        if (!num) {
            if (exc_pending()) return NULL;
            return exc_set("TypeError", "must be real number, not %s", type_name(x));
        }
        double d = num->type == &t_float ? num->u.f : (double)num->u.i;
        decref(num);
        sp->type = c;
        sp->prec = iprec >= 0 ? iprec : 6;
        return format_double(d, sp, "float");
    }
    }
}

Value *format_percent(Value *fmt, Value *args)
{
    const char *s = fmt->u.s.p;
    size_t n = fmt->u.s.n, argi = 0, nargs;
    bool tuple = args->type == &t_tuple;
    Value **items = tuple ? args->u.seq.items : &args;
    nargs = tuple ? seq_len(args) : 1;
    bool mapping = args->type == &t_dict;
    bool used_mapping = false;
    Buf b = {0};
    puts_(&b, "");
    for (size_t i = 0; i < n;) {
        if (s[i] != '%') {
            size_t j = i;
            while (j < n && s[j] != '%') j++;
            put(&b, s + i, j - i);
            i = j;
            continue;
        }
        i++;
        Value *x = NULL, *keyed = NULL;
        if (i < n && s[i] == '(') {
            if (!mapping) { free(b.p); return exc_set("TypeError", "format requires a mapping"); }
            size_t j = ++i;
            int depth = 1;
            while (j < n && depth) { if (s[j] == '(') depth++; else if (s[j] == ')') depth--; if (depth) j++; }
            if (j >= n) { free(b.p); return exc_set("ValueError", "incomplete format key"); }
            Value *k = v_strn(s + i, j - i);
            keyed = value_getitem(args, k);
            decref(k);
            if (!keyed) { free(b.p); return NULL; }
            used_mapping = true;
            i = j + 1;
        }
        Spec sp;
        memset(&sp, 0, sizeof sp);
        strcpy(sp.fill, " ");
        sp.align = '>';
        sp.width = sp.prec = -1;
        bool left = false, zero = false;
        while (i < n && strchr("-+ #0", s[i])) {
            switch (s[i]) {
            case '-': left = true; break;
            case '+': sp.sign = '+'; break;
            case ' ': if (sp.sign != '+') sp.sign = ' '; break;
            case '#': sp.alt = true; break;
            case '0': zero = true; break;
            }
            i++;
        }
        int64_t iprec = -1;
        for (int part = 0; part < 2; part++) {
            int64_t *dst = part ? &iprec : &sp.width;
            if (part) { if (i < n && s[i] == '.') { i++; *dst = 0; } else break; }
            if (i < n && s[i] == '*') {
                i++;
                if (argi >= nargs) { decref(keyed); free(b.p); return exc_set("TypeError", "not enough arguments for format string"); }
                Value *w = items[argi++];
                if (w->type != &t_int) { decref(keyed); free(b.p); return exc_set("TypeError", "* wants int"); }
                *dst = w->u.i;
                if (!part && *dst < 0) { left = true; *dst = -*dst; }
            } else {
                int64_t v = 0;
                bool any = false;
                while (i < n && isdigit((unsigned char)s[i])) { v = v * 10 + (s[i++] - '0'); any = true; }
                if (any || part) *dst = v;
            }
        }
        while (i < n && (s[i] == 'h' || s[i] == 'l' || s[i] == 'L')) i++;
        if (i >= n) { decref(keyed); free(b.p); return exc_set("ValueError", "incomplete format"); }
        char c = s[i++];
        if (c == '%') { decref(keyed); puts_(&b, "%"); continue; }
        if (!strchr("sracdiuoxXeEfFgG", c)) {
            decref(keyed);
            free(b.p);
            return exc_set("ValueError", "unsupported format character '%c' (0x%x) at index %zu", c, (unsigned)(unsigned char)c, i - 1);
        }
        if (keyed) x = keyed;
        else if (argi < nargs && !(used_mapping && !tuple)) x = incref(items[argi++]);
        else { free(b.p); return exc_set("TypeError", "not enough arguments for format string"); }
        if (left) sp.align = '<';
        else if (zero && !strchr("srac", c)) { strcpy(sp.fill, "0"); sp.align = '='; }
        Value *r = percent_one(c, x, &sp, iprec);
        decref(x);
        if (!r) { free(b.p); return NULL; }
        put(&b, r->u.s.p, r->u.s.n);
        decref(r);
    }
    if (argi < nargs && !used_mapping && !mapping) {
        free(b.p);
        return exc_set("TypeError", "not all arguments converted during string formatting");
    }
    return buf_str(&b);
}

/* ------------------------------------------------------------ str.format */

typedef struct { CallArgs *a; int auto_idx; int mode; /* 0 unknown, 1 auto, 2 manual */ } Fmt;

static Value *field_value(Fmt *f, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] != '.' && s[i] != '[') i++;
    Value *v = NULL;
    if (i == 0) {
        if (f->mode == 2)
            return exc_set("ValueError", "cannot switch from manual field specification to automatic field numbering");
        f->mode = 1;
        int k = f->auto_idx++;
        if (k >= f->a->npos) return exc_set("IndexError", "Replacement index %d out of range for positional args tuple", k);
        v = incref(f->a->pos[k]);
    } else {
        bool digits = true;
        for (size_t j = 0; j < i; j++) if (!isdigit((unsigned char)s[j])) digits = false;
        if (digits) {
            if (f->mode == 1)
                return exc_set("ValueError", "cannot switch from automatic field numbering to manual field specification");
            f->mode = 2;
            long k = strtol(s, NULL, 10);
            if (k >= f->a->npos) return exc_set("IndexError", "Replacement index %ld out of range for positional args tuple", k);
            v = incref(f->a->pos[k]);
        } else {
            for (int k = 0; k < f->a->nkw && !v; k++)
                if (strlen(f->a->kwnames[k]) == i && !memcmp(f->a->kwnames[k], s, i)) v = incref(f->a->kw[k]);
            if (!v) return exc_set("KeyError", "'%.*s'", (int)i, s);
        }
    }
    while (i < n) {
        if (s[i] == '.') {
            size_t j = ++i;
            while (j < n && s[j] != '.' && s[j] != '[') j++;
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(j - i), s + i);
            Value *x = value_getattr(v, name);
            decref(v);
            if (!x) return NULL;
            v = x;
            i = j;
        } else {
            size_t j = ++i;
            while (j < n && s[j] != ']') j++;
            if (j >= n) { decref(v); return exc_set("ValueError", "Missing ']' in format string"); }
            bool digits = j > i;
            for (size_t q = i; q < j; q++) if (!isdigit((unsigned char)s[q])) digits = false;
            Value *k = digits ? v_int(strtoll(s + i, NULL, 10)) : v_strn(s + i, j - i);
            Value *x = value_getitem(v, k);
            decref(k);
            decref(v);
            if (!x) return NULL;
            v = x;
            i = j + 1;
            if (i < n && s[i] != '.' && s[i] != '[') return exc_set("ValueError", "Only '.' or '[' may follow ']' in format field specifier");
        }
    }
    return v;
}

static Value *render(Fmt *f, const char *s, size_t n, int depth);

Value *format_convert(Value *v, char conv)
{
    switch (conv) {
    case 'r': return value_repr(v);
    case 's': return value_str(v);
    case 'a': return format_ascii(v);
    default: return incref(v);
    }
}

static Value *render_field(Fmt *f, const char *s, size_t n, int depth)
{
    /* field_name [! conv] [: spec] */
    size_t i = 0;
    int br = 0;
    while (i < n && (br || (s[i] != '!' && s[i] != ':'))) {
        if (s[i] == '[') br = 1;
        else if (s[i] == ']') br = 0;
        i++;
    }
    char conv = 0;
    size_t name_n = i;
    if (i < n && s[i] == '!') {
        if (i + 1 >= n) return exc_set("ValueError", "end of string while looking for conversion specifier");
        conv = s[i + 1];
        i += 2;
        if (i < n && s[i] != ':') return exc_set("ValueError", "expected ':' after conversion specifier");
        if (conv != 'r' && conv != 's' && conv != 'a') return exc_set("ValueError", "Unknown conversion specifier %c", conv);
    }
    Value *spec = NULL;
    Value *v = field_value(f, s, name_n); /* before the spec's fields: auto numbering goes left to right */
    if (!v) return NULL;
    if (i < n && s[i] == ':') {
        if (depth >= 2) { decref(v); return exc_set("ValueError", "Max string recursion exceeded"); }
        spec = render(f, s + i + 1, n - i - 1, depth + 1);
        if (!spec) { decref(v); return NULL; }
    }
    Value *c = format_convert(v, conv);
    decref(v);
    Value *r = c ? format_value(c, spec ? spec->u.s.p : "", spec ? spec->u.s.n : 0) : NULL;
    decref(c);
    decref(spec);
    return r;
}

static Value *render(Fmt *f, const char *s, size_t n, int depth)
{
    Buf b = {0};
    puts_(&b, "");
    for (size_t i = 0; i < n;) {
        char ch = s[i];
        if (ch == '}' ) {
            if (i + 1 < n && s[i + 1] == '}') { puts_(&b, "}"); i += 2; continue; }
            free(b.p);
            return exc_set("ValueError", "Single '}' encountered in format string");
        }
        if (ch != '{') { put(&b, s + i, 1); i++; continue; }
        if (i + 1 < n && s[i + 1] == '{') { puts_(&b, "{"); i += 2; continue; }
        size_t j = i + 1;
        int nest = 1;
        bool brk = false;
        while (j < n) {
            if (s[j] == '[') brk = true;
            else if (s[j] == ']') brk = false;
            else if (!brk && s[j] == '{') nest++;
            else if (!brk && s[j] == '}' && --nest == 0) break;
            j++;
        }
        if (j >= n) {
            free(b.p);
            return exc_set("ValueError", brk ? "expected '}' before end of string" : "Single '{' encountered in format string");
        }
        Value *r = render_field(f, s + i + 1, j - i - 1, depth);
        if (!r) { free(b.p); return NULL; }
        put(&b, r->u.s.p, r->u.s.n);
        decref(r);
        i = j + 1;
    }
    return buf_str(&b);
}

Value *format_method(Value *fmt, CallArgs *a)
{
    Fmt f = {a, 0, 0};
    return render(&f, fmt->u.s.p, fmt->u.s.n, 0);
}
