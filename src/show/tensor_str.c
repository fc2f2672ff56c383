/* src/show/tensor_str.c — repr(t) of a tensor, byte for byte as PyTorch 1.13's
 * torch/_tensor_str.py prints it (SEMANTICS.md §3), and torch.set_printoptions.
 * Only the elements a summarized print shows are ever read or measured. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "show/show.h"
#include "autograd.h"
#include "named.h"

/* ------------------------------------------------------------ options §3.1 */

/* PRINT_OPTS. threshold is a double so that profile='full' can hold inf;
 * linewidth is a double because Python only does arithmetic with it. */
typedef struct {
    int64_t precision;
    double threshold;
    int64_t edgeitems;
    double linewidth;
    int sci_mode;               /* -1 None, 0 False, 1 True */
} PrintOpts;

static PrintOpts opts = {4, 1000, 3, 80, -1};

/* The runtime's pending error as the language's exception (the same
 * conversion as bind_runtime_error, which show/ must not call up to). */
static void runtime_error(void)
{
    tsr_errkind k = tsr_error_kind();
    if (k == TSR_OK) {
        if (!exc_pending()) exc_set("RuntimeError", "internal error: operation failed without a message");
        return;
    }
    exc_set(tsr_error_kind_name(k), "%s", tsr_error_message());
    tsr_error_clear();
}

/* ---------------------------------------------------------- string buffer */

typedef struct { char *p; size_t n, cap; bool failed; } Buf;

static bool buf_reserve(Buf *b, size_t extra)
{
    if (b->failed) return false;
    if (b->n + extra + 1 <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 128;
    while (cap < b->n + extra + 1) cap *= 2;
    char *p = value_try_realloc(b->p, cap);
    if (!p) { b->failed = true; return false; }
    b->p = p;
    b->cap = cap;
    return true;
}

static void buf_add(Buf *b, const char *s, size_t n)
{
    if (!buf_reserve(b, n)) return;
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void buf_puts(Buf *b, const char *s) { buf_add(b, s, strlen(s)); }

static void buf_fill(Buf *b, char c, int64_t n)
{
    if (n <= 0 || !buf_reserve(b, (size_t)n)) return;
    memset(b->p + b->n, c, (size_t)n);
    b->n += (size_t)n;
    b->p[b->n] = 0;
}

static void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void buf_printf(Buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !buf_reserve(b, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)n;
}

/* ------------------------------------------------------ number formatting */

/* Set when a format would have a negative precision: Python's format()
 * raises "Format specifier missing precision" then (checked after a print). */
static bool bad_precision;

/* Python's "{:.{p}f}" ('f') or "{:.{p}e}" ('e') of a double appended to b.
 * glibc's %f/%e round correctly from the binary value as Python does; only
 * NaN differs (Python never writes "-nan"). */
static void add_number(Buf *b, char conv, int64_t prec, double v)
{
    if (prec < 0) bad_precision = true;
    if (isnan(v)) { buf_puts(b, "nan"); return; }
    if (isinf(v)) { buf_puts(b, v > 0 ? "inf" : "-inf"); return; }
    int p = prec < 0 ? 0 : prec > 100000 ? 100000 : (int)prec;
    if (conv == 'e') buf_printf(b, "%.*e", p, v);
    else buf_printf(b, "%.*f", p, v);
}

/* Length of add_number's output, without keeping it. */
static int64_t number_len(char conv, int64_t prec, double v)
{
    if (prec < 0) bad_precision = true;
    if (isnan(v) || isinf(v)) return v < 0 ? 4 : 3;
    int p = prec < 0 ? 0 : prec > 100000 ? 100000 : (int)prec;
    return conv == 'e' ? snprintf(NULL, 0, "%.*e", p, v) : snprintf(NULL, 0, "%.*f", p, v);
}

/* ------------------------------------------------------- formatter §3.4 */

/* _Formatter. For a complex tensor the real and imaginary parts get one each. */
typedef struct {
    bool floating, int_mode, sci_mode;
    int64_t width;
    double amin, amax;          /* of the nonzero finite values */
    int64_t count;              /* how many nonzero finite values */
} Fmt;

static void fmt_init(Fmt *f, bool floating)
{
    *f = (Fmt){.floating = floating, .int_mode = true, .sci_mode = false, .width = 1};
}

/* First pass over a floating formatter's values: range and integrality. */
static void fmt_scan(Fmt *f, double v)
{
    if (!isfinite(v) || v == 0) return;
    double a = fabs(v);
    if (f->count == 0 || a < f->amin) f->amin = a;
    if (f->count == 0 || a > f->amax) f->amax = a;
    f->count++;
    if (v != ceil(v)) f->int_mode = false;
}

/* Between the passes: the automatic choice of scientific notation. */
static void fmt_decide(Fmt *f)
{
    if (!f->floating || f->count == 0) return;
    double ratio = f->amax / f->amin;
    if (f->int_mode)
        f->sci_mode = ratio > 1000.0 || f->amax > 1.0e8;
    else
        f->sci_mode = ratio > 1000.0 || f->amax > 1.0e8 || f->amin < 1.0e-4;
}

/* Second pass: widths, measured in the mode chosen automatically. */
static void fmt_measure(Fmt *f, double v)
{
    if (!isfinite(v) || v == 0) return;
    int64_t n = f->sci_mode ? number_len('e', opts.precision, v)
              : f->int_mode ? number_len('f', 0, v) + 1
                            : number_len('f', opts.precision, v);
    if (n > f->width) f->width = n;
}

/* The width of str() of an integer or bool element. */
static void fmt_measure_int(Fmt *f, tsr_scalar s)
{
    int64_t n = s.kind == TSR_SCALAR_BOOL ? (s.i ? 4 : 5) : snprintf(NULL, 0, "%lld", (long long)s.i);
    if (n > f->width) f->width = n;
}

/* After measuring: PRINT_OPTS.sci_mode overrides, except when there was no
 * nonzero finite value (PyTorch returns early from __init__ then). */
static void fmt_finish(Fmt *f)
{
    if (f->floating && f->count > 0 && opts.sci_mode >= 0) f->sci_mode = opts.sci_mode;
}

/* _Formatter.format of a float: left-padded to the width, never truncated. */
static void fmt_float(Buf *b, const Fmt *f, double v)
{
    Buf s = {0};
    if (f->sci_mode) add_number(&s, 'e', opts.precision, v);
    else if (f->int_mode) {
        add_number(&s, 'f', 0, v);
        if (isfinite(v)) buf_add(&s, ".", 1);
    } else add_number(&s, 'f', opts.precision, v);
    if (s.failed) { b->failed = true; free(s.p); return; }
    buf_fill(b, ' ', f->width - (int64_t)s.n);
    buf_add(b, s.p, s.n);
    free(s.p);
}

static void fmt_int(Buf *b, const Fmt *f, tsr_scalar s)
{
    char tmp[32];
    int n = s.kind == TSR_SCALAR_BOOL ? snprintf(tmp, sizeof tmp, "%s", s.i ? "True" : "False")
                                      : snprintf(tmp, sizeof tmp, "%lld", (long long)s.i);
    buf_fill(b, ' ', f->width - n);
    buf_add(b, tmp, (size_t)n);
}

/* ------------------------------------------------------- body §3.3, §3.6 */

/* What one print needs: the (CPU) tensor, whether it is summarized, the
 * formatters (im only for complex) and the kept index ranges per dim. */
typedef struct {
    const tsr_tensor *t;
    bool summarize, complex;
    Fmt re, im;
    int64_t head[TSR_MAX_DIMS];   /* a dim that is cut keeps [0, head) */
    int64_t tail[TSR_MAX_DIMS];   /* ... and [tail, size) with "..." between */
    bool cut[TSR_MAX_DIMS];
    int64_t idx[TSR_MAX_DIMS];
    bool stop;                    /* Ctrl-C seen: unwind, KeyboardInterrupt */
} Ctx;

/* Polled once per row: a full print of a huge tensor can take a while. */
static bool interrupted(Ctx *c)
{
    if (!c->stop && tsr_check_interrupt() < 0) c->stop = true;
    return c->stop;
}

/* The kept index ranges: self[:e] and self[-e:] (Python slices) for the last
 * dim, range(0, e) and range(n - e, n) for the others. Returns -1 with
 * PyTorch's error when get_summarized_data would stack nothing (edgeitems <= 0
 * with two or more dims). */
static int plan(Ctx *c)
{
    const tsr_tensor *t = c->t;
    int64_t e = opts.edgeitems;
    for (int d = 0; d < t->ndim; d++) {
        int64_t n = t->sizes[d];
        /* n > 2 * e (torch/_tensor_str.py) without overflowing for any e */
        c->cut[d] = c->summarize && (e < 0 || n - e > e);
        c->head[d] = n;
        c->tail[d] = n;
        if (!c->cut[d]) continue;
        if (d == t->ndim - 1) {
            c->head[d] = e >= 0 ? (e < n ? e : n) : (e > -n ? n + e : 0);
            c->tail[d] = e > 0 ? n - e : e == 0 ? 0 : (e > -n ? -e : n);
        } else {
            if (e <= 0) {
                exc_set("RuntimeError", "stack expects a non-empty TensorList");
                return -1;
            }
            c->head[d] = e;
            c->tail[d] = n - e;
        }
    }
    return 0;
}

static tsr_scalar element(Ctx *c)
{
    tsr_scalar s;
    tsr_tensor_get(c->t, c->t->ndim ? c->idx : NULL, &s);
    return s;
}

/* Visits the kept elements in order, for the formatters' passes. */
static void walk(Ctx *c, int d, int pass)
{
    const tsr_tensor *t = c->t;
    if (d == t->ndim) {
        tsr_scalar s = element(c);
        if (c->complex) {
            if (pass == 1) { fmt_scan(&c->re, s.re); fmt_scan(&c->im, s.im); }
            else { fmt_measure(&c->re, s.re); fmt_measure(&c->im, s.im); }
        } else if (c->re.floating) {
            if (pass == 1) fmt_scan(&c->re, s.d);
            else fmt_measure(&c->re, s.d);
        } else if (pass == 2) fmt_measure_int(&c->re, s);
        return;
    }
    if (d == t->ndim - 1 && interrupted(c)) return;
    int64_t n = t->sizes[d];
    /* a long last dim is polled every 65536 elements, not only per row */
    bool last = d == t->ndim - 1;
    for (int64_t i = 0; i < c->head[d] && !c->stop; i++) {
        if (last && (i & 0xffff) == 0xffff && interrupted(c)) break;
        c->idx[d] = i;
        walk(c, d + 1, pass);
    }
    for (int64_t i = c->tail[d]; i < n && !c->stop; i++) {
        if (last && (i & 0xffff) == 0xffff && interrupted(c)) break;
        c->idx[d] = i;
        walk(c, d + 1, pass);
    }
}

/* One element as _val_formatter / _scalar_str print it. */
static void cell(Buf *b, Ctx *c)
{
    tsr_scalar s = element(c);
    if (!c->complex) {
        if (c->re.floating) fmt_float(b, &c->re, s.d);
        else fmt_int(b, &c->re, s);
        return;
    }
    fmt_float(b, &c->re, s.re);
    Buf im = {0};
    fmt_float(&im, &c->im, s.im);
    buf_add(&im, "j", 1);
    if (im.failed) { b->failed = true; free(im.p); return; }
    const char *p = im.p;
    while (*p == ' ') p++;
    if (*p != '+' && *p != '-') buf_add(b, "+", 1);
    buf_puts(b, p);
    free(im.p);
}

/* _vector_str: the last dim, wrapped at the line width. */
static void vector(Buf *b, Ctx *c, int d, int64_t indent)
{
    int64_t el = c->re.width + 2 + (c->complex ? c->im.width + 1 : 0);
    double q = floor((opts.linewidth - (double)indent) / (double)el);
    int64_t per_line = q < 1 ? 1 : q > 1e15 ? (int64_t)1e15 : (int64_t)q;
    int64_t n = c->t->sizes[d], k = 0;
    if (interrupted(c)) return;
    buf_add(b, "[", 1);
#define SEP()                                                               \
    do {                                                                    \
        if (k > 0 && k % per_line == 0) { buf_add(b, ",\n", 2); buf_fill(b, ' ', indent + 1); } \
        else if (k > 0) buf_add(b, ", ", 2);                                \
        k++;                                                                \
    } while (0)
    for (int64_t i = 0; i < c->head[d] && !(((i & 0xffff) == 0xffff) && interrupted(c)); i++) { SEP(); c->idx[d] = i; cell(b, c); }
    if (c->cut[d]) { SEP(); buf_add(b, " ...", 4); }
    for (int64_t i = c->tail[d]; i < n && !(((i & 0xffff) == 0xffff) && interrupted(c)); i++) { SEP(); c->idx[d] = i; cell(b, c); }
#undef SEP
    buf_add(b, "]", 1);
}

/* _tensor_str_with_formatter from dim d on. */
static void body(Buf *b, Ctx *c, int d, int64_t indent)
{
    const tsr_tensor *t = c->t;
    if (t->ndim == 0) { cell(b, c); return; }
    if (d == t->ndim - 1) { vector(b, c, d, indent); return; }
    int nl = t->ndim - d - 1;
    int64_t n = t->sizes[d];
    bool first = true;
#define SEP()                                                               \
    do {                                                                    \
        if (!first) { buf_add(b, ",", 1); buf_fill(b, '\n', nl); buf_fill(b, ' ', indent + 1); } \
        first = false;                                                      \
    } while (0)
    buf_add(b, "[", 1);
    for (int64_t i = 0; i < c->head[d] && !b->failed && !c->stop; i++) { SEP(); c->idx[d] = i; body(b, c, d + 1, indent + 1); }
    if (c->cut[d]) { SEP(); buf_add(b, "...", 3); }
    for (int64_t i = c->tail[d]; i < n && !b->failed && !c->stop; i++) { SEP(); c->idx[d] = i; body(b, c, d + 1, indent + 1); }
#undef SEP
    buf_add(b, "]", 1);
}

/* _tensor_str(t, indent) for a CPU tensor with elements. -1 with an
 * exception set on an interrupt or PyTorch's edgeitems error. */
static int tensor_str(Buf *b, const tsr_tensor *t, int64_t indent)
{
    Ctx *c = value_try_realloc(NULL, sizeof *c);
    if (!c) { b->failed = true; return 0; }
    memset(c, 0, sizeof *c);
    c->t = t;
    c->summarize = (double)tsr_tensor_numel(t) > opts.threshold;
    c->complex = tsr_dtype_is_complex(t->dtype);
    bool floating = c->complex || tsr_dtype_is_floating(t->dtype);
    fmt_init(&c->re, floating);
    fmt_init(&c->im, floating);
    if (plan(c) < 0) { free(c); return -1; }
    bad_precision = false;
    if (floating) {
        walk(c, 0, 1);
        fmt_decide(&c->re);
        fmt_decide(&c->im);
    }
    walk(c, 0, 2);
    fmt_finish(&c->re);
    fmt_finish(&c->im);
    body(b, c, 0, indent);
    bool stop = c->stop;
    free(c);
    if (stop) {
        runtime_error();                  /* the recorded KeyboardInterrupt */
        return -1;
    }
    if (bad_precision) {
        exc_set("ValueError", "Format specifier missing precision");
        return -1;
    }
    return 0;
}

/* -------------------------------------------------------- top level §3.2 */

/* Python's tuple repr of a shape: (2, 3), (0,), (). */
static void add_shape(Buf *b, const tsr_tensor *t)
{
    buf_add(b, "(", 1);
    for (int d = 0; d < t->ndim; d++)
        buf_printf(b, d ? ", %lld" : "%lld", (long long)t->sizes[d]);
    buf_puts(b, t->ndim == 1 ? ",)" : ")");
}

static bool has_names(const tsr_tensor *t)
{
    if (!t->names) return false;
    for (int d = 0; d < t->ndim; d++)
        if (t->names[d]) return true;
    return false;
}

#define MAX_SUFFIXES 8

/* _add_suffixes: the first line is over-counted by 2, as in PyTorch. */
static void add_suffixes(Buf *b, Buf *suf, int nsuf, int64_t indent)
{
    const char *nl = NULL;
    for (size_t i = b->n; i > 0; i--)
        if (b->p[i - 1] == '\n') { nl = b->p + i - 1; break; }
    double last = (double)(nl ? (int64_t)(b->p + b->n - nl) + 1 : (int64_t)b->n + 2);
    for (int i = 0; i < nsuf; i++) {
        double len = (double)suf[i].n;
        if (last + len + 2 > opts.linewidth) {
            buf_add(b, ",\n", 2);
            buf_fill(b, ' ', indent);
            last = (double)indent + len;
        } else {
            buf_add(b, ", ", 2);
            last += len + 2;
        }
        buf_add(b, suf[i].p ? suf[i].p : "", suf[i].n);
    }
    buf_add(b, ")", 1);
}

/* _str_intern's sparse branch: indices and values printed as nested
 * tensors under their prefixes, size/nnz/dtype suffixes, then layout and
 * autograd, always from a new line (force_newline). */
static Value *sparse_repr(const tsr_tensor *t)
{
    const int64_t indent = 7;
    Buf b = {0}, suf[MAX_SUFFIXES] = {{0}};
    int nsuf = 0;
    Value *out = NULL;
    if (t->device.type != TSR_DEV_CPU) {
        char dev[64];
        buf_printf(&suf[nsuf++], "device='%s'", tsr_device_str(t->device, dev, sizeof dev));
    }
    tsr_dtype dflt = tsr_default_dtype();
    tsr_dtype dflt_complex = dflt == TSR_FLOAT64 ? TSR_COMPLEX128 : TSR_COMPLEX64;
    bool has_default_dtype = t->dtype == dflt || t->dtype == dflt_complex || t->dtype == TSR_INT64 || t->dtype == TSR_BOOL;
    buf_puts(&suf[nsuf], "size=");
    add_shape(&suf[nsuf++], t);
    if (!tsr_tensor_is_meta(t)) buf_printf(&suf[nsuf++], "nnz=%lld", (long long)t->sparse->values->sizes[0]);
    if (!has_default_dtype) buf_printf(&suf[nsuf++], "dtype=torch.%s", tsr_dtype_name(t->dtype));
    const tsr_tensor *parts[2] = {t->sparse->indices, t->sparse->values};
    static const char *const prefix[2] = {"indices=tensor(", "values=tensor("};
    buf_puts(&b, "tensor(");
    for (int k = 0; k < 2; k++) {
        const tsr_tensor *p = parts[k];
        if (k) {
            buf_puts(&b, "),\n");
            buf_fill(&b, ' ', indent);
        }
        buf_puts(&b, prefix[k]);
        if (tsr_tensor_numel(p) == 0) {
            buf_puts(&b, "[], size=");
            add_shape(&b, p);
        } else if (tsr_tensor_is_meta(p)) {
            buf_puts(&b, "...");
        } else if (tensor_str(&b, p, indent + (int64_t)strlen(prefix[k])) < 0) {
            goto fail;
        }
    }
    buf_puts(&b, ")");
    buf_printf(&suf[nsuf++], "layout=%s", tsr_layout_name(t->layout));
    tsr_node *gfn = tsr_tensor_grad_fn(t);
    if (gfn) {
        const char *nm = tsr_node_name(gfn), *colon = strrchr(nm, ':');
        buf_printf(&suf[nsuf++], "grad_fn=<%s>", colon ? colon + 1 : nm);
        tsr_node_release(gfn);
    } else if (t->requires_grad) buf_puts(&suf[nsuf++], "requires_grad=True");
    /* _add_suffixes with force_newline: the first suffix starts a line */
    double last = 0;
    for (int i = 0; i < nsuf; i++) {
        double len = (double)suf[i].n;
        if (i == 0) {
            buf_add(&b, ",\n", 2);
            buf_fill(&b, ' ', indent);
            last = (double)indent + len;
        } else if (last + len + 2 > opts.linewidth) {
            buf_add(&b, ",\n", 2);
            buf_fill(&b, ' ', indent);
            last = (double)indent + len;
        } else {
            buf_add(&b, ", ", 2);
            last += len + 2;
        }
        buf_add(&b, suf[i].p ? suf[i].p : "", suf[i].n);
    }
    buf_add(&b, ")", 1);
    for (int i = 0; i < nsuf; i++)
        if (suf[i].failed) b.failed = true;
    if (b.failed) {
        exc_set("MemoryError", "%s", "");
        goto fail;
    }
    out = v_str_take(b.p, b.n);
    b.p = NULL;
fail:
    free(b.p);
    for (int i = 0; i < MAX_SUFFIXES; i++) free(suf[i].p);
    return out;
}

Value *show_tensor_repr(const tsr_tensor *t)
{
    if (t->layout == TSR_LAYOUT_SPARSE_COO && t->sparse) return sparse_repr(t);

    const int64_t indent = 7;              /* len("tensor(") */
    Buf b = {0}, suf[MAX_SUFFIXES] = {{0}};
    int nsuf = 0;
    tsr_tensor *cpu = NULL;
    Value *out = NULL;

    buf_puts(&b, "tensor(");
    if (t->device.type != TSR_DEV_CPU) {
        char dev[64];
        buf_printf(&suf[nsuf++], "device='%s'", tsr_device_str(t->device, dev, sizeof dev));
    }
    tsr_dtype dflt = tsr_default_dtype();
    tsr_dtype dflt_complex = dflt == TSR_FLOAT64 ? TSR_COMPLEX128 : TSR_COMPLEX64;
    bool has_default_dtype = t->dtype == dflt || t->dtype == dflt_complex ||
                             t->dtype == TSR_INT64 || t->dtype == TSR_BOOL;
    int64_t numel = tsr_tensor_numel(t);

    if (tsr_tensor_is_meta(t)) {
        buf_puts(&suf[nsuf], "size=");
        add_shape(&suf[nsuf++], t);
        if (t->dtype != dflt) buf_printf(&suf[nsuf++], "dtype=torch.%s", tsr_dtype_name(t->dtype));
        buf_puts(&b, "...");
    } else if (numel == 0) {
        if (t->ndim != 1) {
            buf_puts(&suf[nsuf], "size=");
            add_shape(&suf[nsuf++], t);
        }
        if (t->dtype != dflt) buf_printf(&suf[nsuf++], "dtype=torch.%s", tsr_dtype_name(t->dtype));
        buf_puts(&b, "[]");
    } else {
        if (!has_default_dtype) buf_printf(&suf[nsuf++], "dtype=torch.%s", tsr_dtype_name(t->dtype));
        if (tsr_names_check_print(t, (double)numel > opts.threshold) < 0) {
            runtime_error();
            goto fail;
        }
        const tsr_tensor *src = t;
        if (t->device.type != TSR_DEV_CPU) {
            cpu = tsr_to_device(t, TSR_CPU, TSR_DTYPE_UNDEFINED, false);
            if (!cpu) {
                runtime_error();
                goto fail;
            }
            src = cpu;
        }
        if (tensor_str(&b, src, indent) < 0) goto fail;
    }
    if (t->layout != TSR_LAYOUT_STRIDED) buf_printf(&suf[nsuf++], "layout=%s", tsr_layout_name(t->layout));
    tsr_node *gfn = tsr_tensor_grad_fn(t);
    if (gfn) {
        const char *nm = tsr_node_name(gfn), *colon = strrchr(nm, ':');
        buf_printf(&suf[nsuf++], "grad_fn=<%s>", colon ? colon + 1 : nm);
        tsr_node_release(gfn);
    } else if (t->requires_grad) buf_puts(&suf[nsuf++], "requires_grad=True");
    if (has_names(t)) {
        Buf *s = &suf[nsuf++];
        buf_puts(s, "names=(");
        for (int d = 0; d < t->ndim; d++) {
            if (d) buf_add(s, ", ", 2);
            if (!t->names[d]) { buf_puts(s, "None"); continue; }
            Value *r = str_repr(t->names[d], strlen(t->names[d]));
            if (!r) goto fail;
            buf_add(s, r->u.s.p, r->u.s.n);
            decref(r);
        }
        buf_puts(s, t->ndim == 1 ? ",)" : ")");
    }
    add_suffixes(&b, suf, nsuf, indent);
    for (int i = 0; i < nsuf; i++)
        if (suf[i].failed) b.failed = true;
    if (b.failed) {
        exc_set("MemoryError", "%s", "");
        goto fail;
    }
    out = v_str_take(b.p, b.n);
    b.p = NULL;
fail:
    free(b.p);
    for (int i = 0; i < MAX_SUFFIXES; i++) free(suf[i].p);
    tsr_tensor_release(cpu);
    return out;
}

/* ------------------------------------------------- torch.set_printoptions */

void show_set_printoptions(int64_t precision, double threshold, int64_t edgeitems, double linewidth,
                           int sci_mode)
{
    opts = (PrintOpts){precision, threshold, edgeitems, linewidth, sci_mode};
}

void show_get_printoptions(int64_t *precision, double *threshold, int64_t *edgeitems, double *linewidth,
                           int *sci_mode)
{
    *precision = opts.precision;
    *threshold = opts.threshold;
    *edgeitems = opts.edgeitems;
    *linewidth = opts.linewidth;
    *sci_mode = opts.sci_mode;
}

void show_reset_printoptions(void)
{
    opts = (PrintOpts){4, 1000, 3, 80, -1};
}
