/* src/show/ndarray_str.c — repr/str of NumPy arrays and scalars as NumPy 1.24
 * prints them with its default options (numpy/core/arrayprint.py: precision
 * 8, floatmode 'maxprec', linewidth 75, threshold 1000, edgeitems 3; scalars
 * as scalartypes.c's format_float). Dragon4's shortest digits are found as
 * the shortest printf rounding that reads back to the same value in the
 * array's dtype; cut-off digits are printf's correctly rounded ones. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "show/show.h"

#define PRECISION 8
#define LINEWIDTH 75
#define THRESHOLD 1000
#define EDGEITEMS 3

/* ---------------------------------------------------------- string buffer */

typedef struct { char *p; size_t n, cap; } Str;

static void add(Str *s, const char *t, size_t n)
{
    if (s->n + n + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 64;
        while (cap < s->n + n + 1) cap *= 2;
        s->p = value_xrealloc(s->p, cap);
        s->cap = cap;
    }
    memcpy(s->p + s->n, t, n);
    s->n += n;
    s->p[s->n] = 0;
}
static void adds(Str *s, const char *t) { add(s, t, strlen(t)); }
static void addc(Str *s, char c, size_t n) { for (size_t i = 0; i < n; i++) add(s, &c, 1); }

/* ---------------------------------------------------------- digits */

/* Whether the decimal text reads back as v in dtype dt. */
static bool reads_back(const char *txt, double v, tsr_dtype dt)
{
    if (dt == TSR_FLOAT32 || dt == TSR_COMPLEX64) return strtof(txt, NULL) == (float)v;
    if (dt == TSR_FLOAT16) return tsr_double_to_half(strtod(txt, NULL)) == tsr_double_to_half(v);
    return strtod(txt, NULL) == v;
}

/* The shortest significant digits of finite |v| (no sign, no dot) that read
 * back in dt, and the decimal exponent of the first digit. */
static void shortest(double v, tsr_dtype dt, char *dig, int *e10)
{
    char txt[64];
    v = fabs(v);
    if (v == 0) { strcpy(dig, "0"); *e10 = 0; return; }
    for (int p = 0; p < 17; p++) {
        snprintf(txt, sizeof txt, "%.*e", p, v);
        if (reads_back(txt, v, dt)) break;
    }
    char *e = strchr(txt, 'e');
    *e10 = atoi(e + 1);
    int k = 0;
    for (char *q = txt; q < e; q++)
        if (*q != '.') dig[k++] = *q;
    while (k > 1 && dig[k - 1] == '0') k--;
    dig[k] = 0;
}

/* Dragon4 positional, unique digits cut at PRECISION fractional digits:
 * integer part (with '-' or, when plus, '+') into ip, fraction into fp
 * (trailing zeros trimmed). */
static void positional(double v, tsr_dtype dt, bool plus, char *ip, char *fp)
{
    char dig[32], txt[400];
    int e10;
    shortest(v, dt, dig, &e10);
    int nd = (int)strlen(dig);
    int frac = nd - 1 - e10;                  /* fractional digits the shortest form needs */
    const char *sign = signbit(v) ? "-" : plus ? "+" : "";
    if (frac > PRECISION) {
        snprintf(txt, sizeof txt, "%s%.*f", sign, PRECISION, fabs(v));
    } else if (frac <= 0) {
        int k = snprintf(txt, sizeof txt, "%s%s", sign, dig);
        for (int i = 0; i < -frac && k < (int)sizeof txt - 2; i++) txt[k++] = '0';
        txt[k++] = '.';
        txt[k] = 0;
    } else {
        /* digits with the point frac places from the end */
        int k = snprintf(txt, sizeof txt, "%s", sign);
        if (e10 < 0) {
            k += snprintf(txt + k, sizeof txt - k, "0.");
            for (int i = 0; i < -e10 - 1; i++) txt[k++] = '0';
            k += snprintf(txt + k, sizeof txt - k, "%s", dig);
        } else {
            k += snprintf(txt + k, sizeof txt - k, "%.*s.%s", e10 + 1, dig, dig + e10 + 1);
        }
    }
    char *dot = strchr(txt, '.');
    *dot = 0;
    strcpy(ip, txt);
    strcpy(fp, dot + 1);
    size_t n = strlen(fp);
    while (n > 0 && fp[n - 1] == '0') fp[--n] = 0;
}

/* Dragon4 scientific, unique digits cut at PRECISION fractional digits:
 * "d" (with sign) into ip, the fraction (trimmed) into fp, the exponent. */
static void scientific(double v, tsr_dtype dt, bool plus, char *ip, char *fp, int *e10)
{
    char dig[32];
    shortest(v, dt, dig, e10);
    const char *sign = signbit(v) ? "-" : plus ? "+" : "";
    if ((int)strlen(dig) - 1 > PRECISION) {
        char txt[64];
        snprintf(txt, sizeof txt, "%.*e", PRECISION, fabs(v));
        char *e = strchr(txt, 'e');
        *e10 = atoi(e + 1);
        int k = 0;
        for (char *q = txt; q < e; q++)
            if (*q != '.') dig[k++] = *q;
        while (k > 1 && dig[k - 1] == '0') k--;
        dig[k] = 0;
    }
    sprintf(ip, "%s%c", sign, dig[0]);
    strcpy(fp, dig + 1);
}

/* ---------------------------------------------------------- FloatingFormat */

typedef struct {
    tsr_dtype dt;
    bool plus;              /* sign='+' (the imaginary parts) */
    bool exp;
    int pad_left, pad_right, precision, exp_size;
} FloatFmt;

/* fillFormat over the values shown (vals[0..n)). */
static void float_fill(FloatFmt *f, const double *vals, int64_t n, tsr_dtype dt, bool plus)
{
    memset(f, 0, sizeof *f);
    f->dt = dt;
    f->plus = plus;
    f->exp_size = -1;
    double maxv = 0, minv = INFINITY;
    int64_t nfinite = 0;
    bool nonfinite = false, neginf = plus;
    for (int64_t i = 0; i < n; i++) {
        double v = vals[i];
        if (!isfinite(v)) {
            nonfinite = true;
            if (isinf(v) && v < 0) neginf = true;
            continue;
        }
        nfinite++;
        if (v != 0) {
            if (fabs(v) > maxv) maxv = fabs(v);
            if (fabs(v) < minv) minv = fabs(v);
        }
    }
    if (minv != INFINITY) {
        double ratio = maxv / minv;       /* computed in the array's dtype */
        if (dt == TSR_FLOAT32 || dt == TSR_COMPLEX64) ratio = (float)maxv / (float)minv;
        else if (dt == TSR_FLOAT16) ratio = tsr_half_to_float(tsr_double_to_half((float)maxv / (float)minv));
        if (maxv >= 1e8 || minv < 0.0001 || ratio > 1000.) f->exp = true;
    }
    char ip[400], fp[400];
    if (nfinite == 0) {
        f->pad_left = f->pad_right = 0;
    } else if (f->exp) {
        int prec = 0, left = 0, esz = 0;
        for (int64_t i = 0; i < n; i++) {
            if (!isfinite(vals[i])) continue;
            int e10;
            scientific(vals[i], dt, plus, ip, fp, &e10);
            char es[16];
            int el = snprintf(es, sizeof es, "%d", abs(e10));
            if (el < 2) el = 2;
            if ((int)strlen(fp) > prec) prec = (int)strlen(fp);
            if ((int)strlen(ip) > left) left = (int)strlen(ip);
            if (el > esz) esz = el;
        }
        f->exp_size = esz;
        f->precision = prec;
        f->pad_left = left;
        f->pad_right = esz + 2 + prec;
    } else {
        int left = 0, right = 0;
        for (int64_t i = 0; i < n; i++) {
            if (!isfinite(vals[i])) continue;
            positional(vals[i], dt, plus, ip, fp);
            if ((int)strlen(ip) > left) left = (int)strlen(ip);
            if ((int)strlen(fp) > right) right = (int)strlen(fp);
        }
        f->pad_left = left;
        f->pad_right = right;
    }
    if (nonfinite) {
        int offset = f->pad_right + 1;
        int nanl = 3 - offset, infl = 3 + neginf - offset;
        if (nanl > f->pad_left) f->pad_left = nanl;
        if (infl > f->pad_left) f->pad_left = infl;
    }
}

static void float_format(const FloatFmt *f, double v, Str *out)
{
    char ip[400], fp[400];
    if (!isfinite(v)) {
        char ret[8];
        if (isnan(v)) snprintf(ret, sizeof ret, "%snan", f->plus ? "+" : "");
        else snprintf(ret, sizeof ret, "%sinf", v < 0 ? "-" : f->plus ? "+" : "");
        int w = f->pad_left + f->pad_right + 1 - (int)strlen(ret);
        if (w > 0) addc(out, ' ', (size_t)w);
        adds(out, ret);
        return;
    }
    if (f->exp) {
        /* min_digits = precision: past the unique digits Dragon4 goes on
         * with the exact value's digits, which printf gives correctly rounded */
        char txt[64];
        snprintf(txt, sizeof txt, "%s%.*e", signbit(v) ? "-" : f->plus ? "+" : "", f->precision, fabs(v));
        char *e = strchr(txt, 'e');
        int e10 = atoi(e + 1);
        *e = 0;
        char *dot = strchr(txt, '.');
        if (dot) *dot = 0;
        int w = f->pad_left - (int)strlen(txt);
        if (w > 0) addc(out, ' ', (size_t)w);
        adds(out, txt);
        adds(out, ".");
        if (dot) adds(out, dot + 1);
        char es[24];
        snprintf(es, sizeof es, "e%c%0*d", e10 < 0 ? '-' : '+', f->exp_size, abs(e10));
        adds(out, es);
        return;
    }
    positional(v, f->dt, f->plus, ip, fp);
    int w = f->pad_left - (int)strlen(ip);
    if (w > 0) addc(out, ' ', (size_t)w);
    adds(out, ip);
    adds(out, ".");
    adds(out, fp);
    addc(out, ' ', (size_t)(f->pad_right - (int)strlen(fp)));
}

/* ---------------------------------------------------------- element formats */

typedef struct {
    tsr_dtype dt;
    bool zerod;
    FloatFmt re, im;
    int int_width;
} Fmt;

/* Element i (row-major among the whole array) as double / int / complex. */
static void fmt_element(const Fmt *F, const tsr_tensor *t, const int64_t *idx, Str *out)
{
    tsr_dtype dt = F->dt;
    char buf[64];
    if (dt == TSR_BOOL) {
        adds(out, tsr_tensor_get_int64(t, idx) ? (F->zerod ? "True" : " True") : "False");
    } else if (tsr_dtype_is_complex(dt)) {
        double re, im;
        tsr_tensor_get_complex(t, idx, &re, &im);
        float_format(&F->re, re, out);
        Str s = {0};
        float_format(&F->im, im, &s);
        size_t sp = s.n;
        while (sp > 0 && s.p[sp - 1] == ' ') sp--;
        add(out, s.p, sp);
        adds(out, "j");
        addc(out, ' ', s.n - sp);
        free(s.p);
    } else if (tsr_dtype_is_floating(dt)) {
        float_format(&F->re, tsr_tensor_get_double(t, idx), out);
    } else {
        int n = dt == TSR_UINT8 ? snprintf(buf, sizeof buf, "%llu", (unsigned long long)tsr_tensor_get_int64(t, idx))
                                : snprintf(buf, sizeof buf, "%lld", (long long)tsr_tensor_get_int64(t, idx));
        if (F->int_width > n) addc(out, ' ', (size_t)(F->int_width - n));
        adds(out, buf);
    }
}

/* The elements a (possibly summarized) print shows, gathered in order:
 * calls visit for each index. */
typedef struct { double *re, *im; int64_t n, cap; int64_t imax, imin; bool any; } Shown;

static void gather(const tsr_tensor *t, int64_t *idx, int d, bool summary, Shown *s)
{
    if (d == t->ndim) {
        if (s->n == s->cap) {
            s->cap = s->cap ? s->cap * 2 : 64;
            s->re = value_xrealloc(s->re, (size_t)s->cap * sizeof(double));
            s->im = value_xrealloc(s->im, (size_t)s->cap * sizeof(double));
        }
        if (tsr_dtype_is_complex(t->dtype)) {
            tsr_tensor_get_complex(t, idx, &s->re[s->n], &s->im[s->n]);
        } else if (tsr_dtype_is_floating(t->dtype)) {
            s->re[s->n] = tsr_tensor_get_double(t, idx);
        } else {
            int64_t v = tsr_tensor_get_int64(t, idx);
            if (!s->any || v > s->imax) s->imax = v;
            if (!s->any || v < s->imin) s->imin = v;
            s->any = true;
        }
        s->n++;
        return;
    }
    int64_t len = t->sizes[d];
    bool sum = summary && 2 * EDGEITEMS < len;
    for (int64_t i = 0; i < len; i++) {
        if (sum && i == EDGEITEMS) i = len - EDGEITEMS;
        idx[d] = i;
        gather(t, idx, d + 1, summary, s);
    }
}

static void fmt_fill(Fmt *F, const tsr_tensor *t, bool summary)
{
    memset(F, 0, sizeof *F);
    F->dt = t->dtype;
    F->zerod = t->ndim == 0;
    if (t->dtype == TSR_BOOL) return;
    int64_t idx[TSR_MAX_DIMS];
    Shown s = {0};
    gather(t, idx, 0, summary, &s);
    if (tsr_dtype_is_complex(t->dtype)) {
        float_fill(&F->re, s.re, s.n, t->dtype, false);
        float_fill(&F->im, s.im, s.n, t->dtype, true);
    } else if (tsr_dtype_is_floating(t->dtype)) {
        float_fill(&F->re, s.re, s.n, t->dtype, false);
    } else {
        char a[32], b[32];
        int la = snprintf(a, sizeof a, t->dtype == TSR_UINT8 ? "%lld" : "%lld", (long long)s.imax);
        int lb = snprintf(b, sizeof b, "%lld", (long long)s.imin);
        F->int_width = la > lb ? la : lb;
    }
    free(s.re);
    free(s.im);
}

/* ---------------------------------------------------------- _formatArray */

/* _extendLine: wrap before word when it would pass width (unless the line
 * holds only the indent). */
static void extend_line(Str *s, Str *line, const char *word, size_t wn, int width, const char *indent)
{
    size_t il = strlen(indent);
    bool wrap = (int)(line->n + wn) > width && line->n > il;
    if (wrap) {
        size_t n = line->n;
        while (n > 0 && line->p[n - 1] == ' ') n--;
        add(s, line->p, n);
        adds(s, "\n");
        line->n = 0;
        adds(line, indent);
    }
    add(line, word, wn);
}

static void recurse(const tsr_tensor *t, const Fmt *F, int64_t *idx, int d, const char *indent, int width,
                    const char *sep, bool summary, Str *out)
{
    if (d == t->ndim) { fmt_element(F, t, idx, out); return; }
    int axes_left = t->ndim - d;
    size_t il = strlen(indent);
    char *next_indent = value_xmalloc(il + 2);
    memcpy(next_indent, indent, il);
    next_indent[il] = ' ';
    next_indent[il + 1] = 0;
    int next_width = width - 1;
    int64_t len = t->sizes[d];
    bool show_summary = summary && 2 * EDGEITEMS < len;
    int64_t lead = show_summary ? EDGEITEMS : 0, trail = show_summary ? EDGEITEMS : len;
    Str s = {0};
    adds(&s, "");
    size_t seplen = strlen(sep);
    size_t sep_strip = seplen;
    while (sep_strip > 0 && sep[sep_strip - 1] == ' ') sep_strip--;
    if (axes_left == 1) {
        int elem_width = width - (int)(sep_strip > 1 ? sep_strip : 1);
        Str line = {0};
        adds(&line, indent);
        for (int64_t k = 0; k < lead + trail; k++) {
            int64_t i = k < lead ? k : len - (lead + trail - k);
            if (show_summary && k == lead) {
                extend_line(&s, &line, "...", 3, elem_width, indent);
                add(&line, sep, seplen);
            }
            idx[d] = i;
            Str w = {0};
            adds(&w, "");
            recurse(t, F, idx, d + 1, next_indent, next_width, sep, summary, &w);
            extend_line(&s, &line, w.p, w.n, elem_width, indent);
            free(w.p);
            if (k + 1 < lead + trail) add(&line, sep, seplen);
        }
        add(&s, line.p, line.n);
        free(line.p);
    } else {
        for (int64_t k = 0; k < lead + trail; k++) {
            int64_t i = k < lead ? k : len - (lead + trail - k);
            if (show_summary && k == lead) {
                adds(&s, indent);
                adds(&s, "...");
                add(&s, sep, sep_strip);
                addc(&s, '\n', (size_t)(axes_left - 1));
            }
            idx[d] = i;
            adds(&s, indent);
            recurse(t, F, idx, d + 1, next_indent, next_width, sep, summary, &s);
            if (k + 1 < lead + trail) {
                add(&s, sep, sep_strip);
                addc(&s, '\n', (size_t)(axes_left - 1));
            }
        }
    }
    adds(out, "[");
    add(out, s.p + il, s.n - il);
    adds(out, "]");
    free(s.p);
    free(next_indent);
}

/* array2string(a, separator, prefix) with linewidth reduced by the suffix. */
static void array2string(const tsr_tensor *t, const char *sep, const char *prefix, int suffix_len, Str *out)
{
    int64_t numel = tsr_tensor_numel(t);
    if (numel == 0) { adds(out, "[]"); return; }
    bool summary = numel > THRESHOLD;
    Fmt F;
    fmt_fill(&F, t, summary);
    size_t pl = strlen(prefix);
    char *indent = value_xmalloc(pl + 2);
    indent[0] = ' ';
    memset(indent + 1, ' ', pl);
    indent[pl + 1] = 0;
    int64_t idx[TSR_MAX_DIMS];
    recurse(t, &F, idx, 0, indent, LINEWIDTH - suffix_len, sep, summary, out);
    free(indent);
}

/* dtype_is_implied: int64, float64, complex128 and bool print no dtype= */
static bool dtype_implied(tsr_dtype d)
{
    return d == TSR_INT64 || d == TSR_FLOAT64 || d == TSR_COMPLEX128 || d == TSR_BOOL;
}

Value *show_ndarray_repr(const tsr_tensor *t)
{
    int64_t numel = tsr_tensor_numel(t);
    bool skipdtype = dtype_implied(t->dtype) && numel > 0;
    Str out = {0};
    adds(&out, "array(");
    if (numel > 0 || (t->ndim == 1)) {
        array2string(t, ", ", "array(", 1, &out);
    } else {
        adds(&out, "[], shape=(");
        for (int d = 0; d < t->ndim; d++) {
            char b[32];
            snprintf(b, sizeof b, d ? ", %lld" : "%lld", (long long)t->sizes[d]);
            adds(&out, b);
        }
        adds(&out, t->ndim == 1 ? ",)" : ")");
    }
    if (skipdtype) {
        adds(&out, ")");
    } else {
        adds(&out, ",");
        char *nl = strrchr(out.p, '\n');
        size_t last = nl ? out.n - (size_t)(nl - out.p + 1) : out.n;
        char dts[48];
        int dl = snprintf(dts, sizeof dts, "dtype=%s)", tsr_dtype_name(t->dtype));
        if ((int)(last + (size_t)dl + 1) > LINEWIDTH) adds(&out, "\n      ");
        else adds(&out, " ");
        adds(&out, dts);
    }
    return v_str_take(out.p, out.n);
}

Value *show_ndarray_str(const tsr_tensor *t)
{
    if (t->ndim == 0) {
        tsr_scalar s;
        if (tsr_tensor_get(t, NULL, &s) < 0) return exc_set("RuntimeError", "%s", tsr_error_message());
        return show_npscalar_str(t->dtype, s);
    }
    Str out = {0};
    adds(&out, "");
    array2string(t, " ", "", 0, &out);
    return v_str_take(out.p, out.n);
}

/* ---------------------------------------------------------- scalars */

/* format_float of scalartypes.c: positional when 1e-4 <= |v| < 1e16 (or 0),
 * trimmed to one zero ("1.0"), else scientific without trailing zeros
 * ("1e+16"); nan, inf, -inf as Python. dpt: DptZeros positional ("1") as
 * the parts of a complex use. */
static void scalar_float(double v, tsr_dtype dt, bool dpt, Str *out)
{
    if (isnan(v)) { adds(out, "nan"); return; }
    if (isinf(v)) { adds(out, v < 0 ? "-inf" : "inf"); return; }
    char dig[32];
    int e10;
    shortest(v, dt, dig, &e10);
    double a = fabs(v);
    if (signbit(v)) adds(out, "-");
    int nd = (int)strlen(dig);
    if (a == 0 || (a >= 1e-4 && a < 1e16)) {
        if (e10 < 0) {
            adds(out, "0.");
            addc(out, '0', (size_t)(-e10 - 1));
            adds(out, dig);
        } else if (nd <= e10 + 1) {
            adds(out, dig);
            addc(out, '0', (size_t)(e10 + 1 - nd));
            if (!dpt) adds(out, ".0");
        } else {
            add(out, dig, (size_t)e10 + 1);
            adds(out, ".");
            adds(out, dig + e10 + 1);
        }
        return;
    }
    add(out, dig, 1);
    if (nd > 1) { adds(out, "."); adds(out, dig + 1); }
    char es[16];
    snprintf(es, sizeof es, "e%c%02d", e10 < 0 ? '-' : '+', abs(e10));
    adds(out, es);
}

Value *show_npscalar_str(tsr_dtype dt, tsr_scalar s)
{
    Str out = {0};
    adds(&out, "");
    if (dt == TSR_BOOL) {
        adds(&out, tsr_scalar_to_double(s) != 0 ? "True" : "False");
    } else if (tsr_dtype_is_complex(dt)) {
        double re, im;
        tsr_scalar_to_complex(s, &re, &im);
        if (re == 0 && !signbit(re)) {
            scalar_float(im, dt, true, &out);
            adds(&out, "j");
        } else {
            adds(&out, "(");
            scalar_float(re, dt, true, &out);
            if (!(im < 0 || signbit(im)) || isnan(im)) adds(&out, "+");
            scalar_float(im, dt, true, &out);
            adds(&out, "j)");
        }
    } else if (tsr_dtype_is_floating(dt)) {
        scalar_float(tsr_scalar_to_double(s), dt, false, &out);
    } else {
        char b[32];
        snprintf(b, sizeof b, "%lld", (long long)tsr_scalar_to_int64(s));
        adds(&out, b);
    }
    return v_str_take(out.p, out.n);
}
