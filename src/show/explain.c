/* src/show/explain.c — the teaching views of type promotion as text: one
 * :explain step (how result_type and the op's rule gave its dtype, SEMANTICS.md
 * §1.2-1.5, seed 000) and the promote_types / can_cast tables. Formats only:
 * the trace is src/bind/explain.c, the commands src/cmd/explain.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "show/explain.h"
#include "show/show.h"

#define WIDTH 80               /* the printer keeps every line within this */

/* ------------------------------------------------------------ text helpers */

typedef struct { char *p; size_t n, cap; } Buf;

static void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void buf_printf(Buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    if (b->n + (size_t)k + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->n + (size_t)k + 1) cap *= 2;
        char *p = value_try_realloc(b->p, cap);
        if (!p) return;
        b->p = p;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}

static const char *buf_str(Buf *b) { return b->p ? b->p : ""; }

/* Starts a new sentence in b: a space after the previous one; returns where
 * the sentence begins, for cap(). */
static size_t sentence(Buf *b)
{
    if (b->n) buf_printf(b, " ");
    return b->n;
}

/* Capitalizes the sentence that begins at `at`. */
static void cap(Buf *b, size_t at)
{
    if (at < b->n && b->p[at] >= 'a' && b->p[at] <= 'z') b->p[at] = (char)(b->p[at] - 'a' + 'A');
}

/* A space that wrap() never breaks at (printed as a space): keeps
 * "promote_types(int32, float32) = float32" on one line. */
#define NBSP "\001"

/* Prints text word-wrapped within WIDTH: the first line after `first`, the
 * others indented by `indent`. */
static void wrap(const char *first, int indent, const char *text)
{
    int col = printf("%s", first);
    const char *p = text;
    bool line_empty = true;
    while (*p) {
        while (*p == ' ') p++;
        if (!*p) break;
        const char *e = p;
        while (*e && *e != ' ') e++;
        int w = (int)(e - p);
        if (!line_empty && col + 1 + w > WIDTH) {
            col = printf("\n%*s", indent, "") - 1;
            line_empty = true;
        }
        if (!line_empty) col += printf(" ");
        for (int i = 0; i < w; i++) putchar(p[i] == NBSP[0] ? ' ' : p[i]);
        col += w;
        line_empty = false;
        p = e;
    }
    printf("\n");
}

static void shape_str(Buf *b, int ndim, const int64_t *sizes)
{
    buf_printf(b, "(");
    for (int i = 0; i < ndim; i++) buf_printf(b, "%s%lld", i ? ", " : "", (long long)sizes[i]);
    buf_printf(b, ndim == 1 ? ",)" : ")");
}

/* The source text on one line: newlines and runs of blanks become one space. */
static void flat_text(Buf *b, const char *s)
{
    bool sp = false;
    for (; *s; s++) {
        if (*s == '\n' || *s == '\r' || *s == '\t' || *s == ' ') { sp = true; continue; }
        if (sp && b->n) buf_printf(b, " ");
        sp = false;
        buf_printf(b, "%c", *s);
    }
}

static void scalar_repr(Buf *b, tsr_scalar s)
{
    Value *r = show_scalar_str(s);      /* a Python number's str is its repr */
    if (r) buf_printf(b, "%s", r->u.s.p);
    else { exc_clear(); buf_printf(b, "?"); }
    decref(r);
}

static const char *letter[EXPLAIN_MAX_OPERANDS] = {"a", "b", "c", "d"};
_Static_assert(EXPLAIN_MAX_OPERANDS == 4, "one letter per operand");

static const char *dn(tsr_dtype d) { return tsr_dtype_name(d); }
static const char *cat(tsr_dtype d) { return tsr_category_name(tsr_dtype_category(d)); }

/* ------------------------------------------------------------ one step */

/* The operation as the user wrote it, from the operand texts (letters where
 * a text is missing). */
static void op_text(Buf *b, const ExplainStep *s)
{
    Buf t[EXPLAIN_MAX_OPERANDS] = {{0}};
    for (int i = 0; i < s->noperands; i++) {
        if (s->operand_text[i]) flat_text(&t[i], s->operand_text[i]);
        else buf_printf(&t[i], "%s", letter[i]);
    }
    const char *op = s->op ? s->op : "?";
    if (s->symbol && s->noperands == 1) {
        buf_printf(b, "%s%s", s->symbol, buf_str(&t[0]));
    } else if (s->symbol && s->noperands == 2) {
        buf_printf(b, "%s %s %s", buf_str(&t[0]), s->symbol, buf_str(&t[1]));
    } else if (s->inplace && s->noperands >= 1) {
        buf_printf(b, "%s.%s(", buf_str(&t[0]), op);
        for (int i = 1; i < s->noperands; i++) buf_printf(b, "%s%s", i > 1 ? ", " : "", buf_str(&t[i]));
        buf_printf(b, ")");
    } else {
        buf_printf(b, "%s(", op);
        for (int i = 0; i < s->noperands; i++) buf_printf(b, "%s%s", i ? ", " : "", buf_str(&t[i]));
        buf_printf(b, "%s)", s->has_out ? ", out=..." : "");
    }
    for (int i = 0; i < s->noperands; i++) free(t[i].p);
}

/* "a", "a and b", "a, b and c": the operands of tier t. */
static void tier_letters(Buf *b, const ExplainStep *s, tsr_tier t)
{
    int n = 0, k = 0;
    for (int i = 0; i < s->noperands; i++) n += tsr_operand_tier(&s->operands[i]) == t;
    for (int i = 0; i < s->noperands; i++) {
        if (tsr_operand_tier(&s->operands[i]) != t) continue;
        k++;
        buf_printf(b, "%s%s", k == 1 ? "" : k == n ? " and " : ", ", letter[i]);
    }
}

/* "the Python scalar b", "the dimensioned tensors a and c". */
static void group(Buf *b, const ExplainStep *s, tsr_tier t)
{
    buf_printf(b, "the %s%s ", tsr_tier_name(t), s->promo.tier_count[t] > 1 ? "s" : "");
    tier_letters(b, s, t);
}

/* One side of combine_categories: a tier, or the zero-dim and scalar tiers
 * already combined (tier == TSR_TIER_COUNT). */
typedef struct { tsr_tier tier; tsr_dtype d; } Side;

static bool side_plural(const ExplainStep *s, Side x)
{
    return x.tier == TSR_TIER_COUNT || s->promo.tier_count[x.tier] > 1;
}

static void side_name(Buf *b, const ExplainStep *s, Side x)
{
    if (x.tier != TSR_TIER_COUNT) { group(b, s, x.tier); return; }
    group(b, s, TSR_TIER_ZERO_DIM);
    buf_printf(b, " and ");
    group(b, s, TSR_TIER_WRAPPED);
    buf_printf(b, " together (%s)", dn(x.d));
}

/* combine_categories(higher, lower) of TypeProperties.cpp (SEMANTICS §1.3),
 * saying in words what it does. Returns the dtype. */
static tsr_dtype combine_say(Buf *b, const ExplainStep *s, Side h, Side l)
{
    Buf H = {0}, L = {0};
    side_name(&H, s, h);
    side_name(&L, s, l);
    const char *hn = buf_str(&H), *ln = buf_str(&L);
    bool hp = side_plural(s, h), lp = side_plural(s, l);
    const char *lis = lp ? "are" : "is", *lit = lp ? "they" : "it", *lits = lp ? "their" : "its";
    size_t at = sentence(b);
    tsr_dtype r;
    if (tsr_dtype_is_complex(h.d)) {
        r = h.d;
        buf_printf(b, "%s %s complex, the highest category, so %s cannot raise it: %s" NBSP "stands.", hn,
                   hp ? "are" : "is", ln, dn(r));
    } else if (tsr_dtype_is_complex(l.d)) {
        if (tsr_dtype_is_floating(h.d)) {
            r = h.d == TSR_BFLOAT16 ? TSR_COMPLEX64 : tsr_dtype_to_complex(h.d);
            buf_printf(b, "%s %s complex, a higher category than %s (floating), so the result is the "
                       "complex type of %s: %s.", ln, lis, hn, dn(h.d), dn(r));
        } else {
            r = l.d;
            buf_printf(b, "%s %s complex, a higher category than %s (%s), so %s %s %s dtype: %s.", ln, lis,
                       hn, cat(h.d), lit, lp ? "contribute" : "contributes", lits, dn(r));
        }
    } else if (tsr_dtype_is_floating(h.d)) {
        r = h.d;
        buf_printf(b, "%s %s %s, not a higher category than %s (floating), so %s %s not count: %s" NBSP "stands.",
                   ln, lis, cat(l.d), hn, lit, lp ? "do" : "does", dn(r));
    } else if (h.d == TSR_BOOL) {
        r = tsr_promote_types(h.d, l.d);
        if (l.d == TSR_BOOL) buf_printf(b, "%s and %s are all bool: bool.", hn, ln);
        else buf_printf(b, "%s %s bool, the lowest category, so %s (%s) %s: promote_types(bool," NBSP "%s)" NBSP "=" NBSP "%s.", hn,
                        hp ? "are" : "is", ln, cat(l.d), lp ? "count" : "counts", dn(l.d), dn(r));
    } else if (tsr_dtype_is_floating(l.d)) {
        r = tsr_promote_types(h.d, l.d);
        buf_printf(b, "%s %s floating, a higher category than %s (%s), so %s %s %s dtype: "
                   "promote_types(%s," NBSP "%s)" NBSP "=" NBSP "%s.", ln, lis, hn, cat(h.d), lit, lp ? "contribute" : "contributes",
                   lits, dn(h.d), dn(l.d), dn(r));
    } else {
        r = h.d;
        buf_printf(b, "%s %s %s, not a higher category than %s (%s), so %s %s not count: %s" NBSP "stands.", ln, lis,
                   cat(l.d), hn, cat(h.d), lit, lp ? "do" : "does", dn(r));
    }
    cap(b, at);
    free(H.p);
    free(L.p);
    return r;
}

/* Within one tier: promote_types over its operands' dtypes. */
static void tier_fold_say(Buf *b, const ExplainStep *s, tsr_tier t)
{
    if (s->promo.tier_count[t] < 2) return;
    tsr_dtype seen[EXPLAIN_MAX_OPERANDS];
    int n = 0;
    for (int i = 0; i < s->noperands; i++) {
        if (tsr_operand_tier(&s->operands[i]) != t) continue;
        tsr_dtype d = tsr_operand_promo_dtype(&s->operands[i]);
        bool dup = false;
        for (int j = 0; j < n; j++) dup |= seen[j] == d;
        if (!dup) seen[n++] = d;
    }
    size_t at = sentence(b);
    Buf g = {0};
    group(&g, s, t);
    if (n == 1) {
        buf_printf(b, "%s %s have dtype %s.", buf_str(&g), s->promo.tier_count[t] == 2 ? "both" : "all", dn(seen[0]));
    } else {
        buf_printf(b, "Among %s: promote_types(", buf_str(&g));
        for (int j = 0; j < n; j++) buf_printf(b, "%s%s", j ? "," NBSP : "", dn(seen[j]));
        buf_printf(b, ")" NBSP "=" NBSP "%s.", dn(s->promo.tier_dtype[t]));
    }
    cap(b, at);
    free(g.p);
}

/* The whole of result_type in words; false when the words would disagree
 * with the record (then only the rule's name is printed). */
static bool result_type_say(Buf *b, const ExplainStep *s)
{
    const tsr_promotion *e = &s->promo;
    int present = 0;
    for (int t = 0; t < TSR_TIER_COUNT; t++) present += e->tier_count[t] > 0;
    for (int t = 0; t < TSR_TIER_COUNT; t++) tier_fold_say(b, s, (tsr_tier)t);
    if (present == 1) {
        int t = 0;
        while (e->tier_count[t] == 0) t++;
        if (e->tier_count[t] == 1) buf_printf(b, "One operand, %s: its dtype, %s, is the common dtype.",
                                             letter[e->deciding_operand >= 0 ? e->deciding_operand : 0],
                                             dn(e->tier_dtype[t]));
        return e->tier_dtype[t] == e->result;
    }
    Side dim = {TSR_TIER_DIM, e->tier_dtype[TSR_TIER_DIM]};
    Side zero = {TSR_TIER_ZERO_DIM, e->tier_dtype[TSR_TIER_ZERO_DIM]};
    Side wrapped = {TSR_TIER_WRAPPED, e->tier_dtype[TSR_TIER_WRAPPED]};
    Side lower;
    if (e->tier_count[TSR_TIER_ZERO_DIM] && e->tier_count[TSR_TIER_WRAPPED])
        lower = (Side){TSR_TIER_COUNT, combine_say(b, s, zero, wrapped)};
    else
        lower = e->tier_count[TSR_TIER_ZERO_DIM] ? zero : wrapped;
    tsr_dtype r = lower.d;
    if (e->tier_count[TSR_TIER_DIM]) r = combine_say(b, s, dim, lower);
    return r == e->result;
}

/* The dtype the op computes in (the runtime's step says it); without out=
 * or in place it is the result's dtype. */
static tsr_dtype computed_dtype(const ExplainStep *s)
{
    if (!s->inplace && !s->has_out && s->result != TSR_DTYPE_UNDEFINED) return s->result;
    return s->compute == TSR_DTYPE_UNDEFINED ? s->result : s->compute;
}

/* Why can_cast(from, to) is false, in the words of seed 000. */
static const char *cast_refusal(tsr_dtype from, tsr_dtype to)
{
    if (tsr_dtype_is_complex(from) && !tsr_dtype_is_complex(to))
        return "a non-complex output cannot accept a complex result";
    if (tsr_dtype_is_floating(from) && tsr_dtype_is_integral(to, false))
        return "an integral output cannot accept a floating-point result";
    if (from != TSR_BOOL && to == TSR_BOOL) return "a boolean output cannot accept a non-boolean result";
    return NULL;
}

/* A labelled line: "   rule:        text", wrapped under the text. */
#define LABEL_W 13
static void labelled(const char *label, const char *text)
{
    char first[32];
    snprintf(first, sizeof first, "   %-*s", LABEL_W, label);
    wrap(first, 3 + LABEL_W, text);
}

/* A note when an int scalar does not fit the integral dtype it is cast to:
 * PyTorch never inspects values, and the conversion wraps (SEMANTICS §1.4). */
static void wraparound_note(Buf *b, const ExplainStep *s, tsr_dtype to)
{
    tsr_iinfo ii;
    if (!tsr_dtype_is_integral(to, false) || tsr_dtype_iinfo(to, &ii) < 0) return;
    for (int i = 0; i < s->noperands; i++) {
        const tsr_operand *o = &s->operands[i];
        if (o->t || o->s.kind != TSR_SCALAR_INT) continue;
        int64_t v = o->s.i;
        if (v >= ii.min && (v < 0 || (uint64_t)v <= ii.max)) continue;
        buf_printf(b, "%s%lld does not fit %s, but values are never inspected: it is converted with "
                   "wrap-around.", b->n ? " " : "", (long long)v, dn(to));
    }
}

/* One name as the tuple prints it: 'N' or None. */
static void name_text(Buf *b, tsr_name n)
{
    if (n) buf_printf(b, "'%s'", n);
    else buf_printf(b, "None");
}

static void names_list(Buf *b, const tsr_name *names, int n)
{
    buf_printf(b, "(");
    for (int i = 0; i < n; i++) {
        buf_printf(b, "%s", i ? ", " : "");
        name_text(b, names ? names[i] : NULL);
    }
    buf_printf(b, n == 1 ? ",)" : ")");
}

/* One row of a names table: prefix ("a ", "= "), then the n names (NULL:
 * all None) lined up from the right in maxn columns of width w; printed
 * indented, as columns (not reflowed). b is the caller's scratch buffer. */
static void names_row(Buf *b, const char *prefix, const tsr_name *names, int n, int maxn, int w)
{
    b->n = 0;
    buf_printf(b, "%s", prefix);
    for (int c = 0; c < maxn; c++) {
        int d = c - (maxn - n);
        Buf one = {0};
        if (d >= 0) name_text(&one, names ? names[d] : NULL);
        buf_printf(b, " %*s", w, d >= 0 ? buf_str(&one) : "");
        free(one.p);
    }
    printf("%16s%s\n", "", buf_str(b));
}

/* The rule of the seed's "out function and in-place variants" for the
 * tensor written (n: the computed names' count; names NULL: all None). */
static void out_names_note(Buf *b, const tsr_tensor *w, const tsr_name *names, int n, bool inplace)
{
    if (!w) return;
    const char *who = inplace ? "self" : "the out= tensor";
    if (!w->names) {
        if (!names || !tsr_names_any(names, n)) return;
        buf_printf(b, "%s has no names, so it receives the computed names.", who);
        return;
    }
    bool same = w->ndim == n;
    for (int i = 0; same && i < n; i++) same = w->names[i] == (names ? names[i] : NULL);
    buf_printf(b, "%s has names ", who);
    names_list(b, w->names, w->ndim);
    if (same) buf_printf(b, ", equal to the computed ones, as a named output must be.");
    else {
        buf_printf(b, ", which differ from the computed ");
        names_list(b, names, n);
        buf_printf(b, ": a named output must carry exactly the computed names, so the op fails.");
    }
}

/* Named operands: how the result's names are decided (SEMANTICS.md §2.2,
 * "unifies names from inputs"): the lists lined up from the right, a None
 * matching anything, then the unified names or the pair that failed. */
static void names_section(const ExplainStep *s)
{
    int maxn = 0, w = 4;
    bool any = false;
    for (int i = 0; i < s->noperands; i++) {
        const tsr_tensor *t = s->operands[i].t;
        if (!t) continue;
        any = any || t->names;
        if (t->ndim > maxn) maxn = t->ndim;
        for (int d = 0; t->names && d < t->ndim; d++)
            if (t->names[d] && (int)strlen(t->names[d]) + 2 > w) w = (int)strlen(t->names[d]) + 2;
    }
    if (!any) return;
    int ntensors = 0;
    for (int i = 0; i < s->noperands; i++) ntensors += s->operands[i].t != NULL;
    if (ntensors == 1) {
        labelled("names:", "rule: keeps input names. The result has the names of its one tensor operand.");
        const tsr_tensor *t = NULL;
        for (int i = 0; i < s->noperands && !t; i++) t = s->operands[i].t;
        Buf b = {0};
        if (s->out_t && !s->inplace) {
            buf_printf(&b, "out=: ");
            out_names_note(&b, s->out_t, t->names, t->ndim, false);
            if (b.n == 6) b.n = 0;
        }
        if (b.n) wrap("                ", 16, buf_str(&b));
        free(b.p);
        return;
    }
    labelled("names:", "rule: unifies names from inputs. The name lists are lined up from the right (the last "
                       "dims first, as broadcasting lines up shapes); in each column a None (an unnamed dim) takes "
                       "the other name, equal names stay, different names are an error.");
    Buf b = {0};
    tsr_name acc[TSR_MAX_DIMS], tmp[TSR_MAX_DIMS];
    int nacc = -1;
    /* the op's own error is pending when it failed: unify here must not lose it */
    bool had = tsr_error_occurred();
    tsr_errkind kind = had ? tsr_error_kind() : TSR_ERR_RUNTIME;
    char saved[1024] = "";
    if (had) snprintf(saved, sizeof saved, "%s", tsr_error_message());
    bool failed = false;
    for (int i = 0; i < s->noperands; i++) {
        const tsr_tensor *t = s->operands[i].t;
        if (!t) continue;
        char prefix[8];
        snprintf(prefix, sizeof prefix, "%s ", letter[i]);
        names_row(&b, prefix, t->names, t->ndim, maxn, w);
        if (failed) continue;
        if (nacc < 0) {
            for (int d = 0; d < t->ndim; d++) acc[d] = t->names ? t->names[d] : NULL;
            nacc = t->ndim;
        } else if (tsr_names_unify(acc, nacc, t->names, t->ndim, "broadcast", tmp) < 0) {
            failed = true;
        } else {
            nacc = nacc > t->ndim ? nacc : t->ndim;
            memcpy(acc, tmp, sizeof *tmp * (size_t)nacc);
        }
    }
    b.n = 0;
    if (failed) {
        buf_printf(&b, "no result: %s", tsr_error_message());
        tsr_error_clear();
        if (had) tsr_error_set(kind, "%s", saved);
    } else {
        names_row(&b, "= ", acc, nacc, maxn, w);
        b.n = 0;
        if (s->inplace || s->out_t) buf_printf(&b, "%s", s->inplace ? "in-place: " : "out=: ");
        size_t at = b.n;
        if (s->inplace) out_names_note(&b, s->operands[0].t, acc, nacc, true);
        else if (s->out_t) out_names_note(&b, s->out_t, acc, nacc, false);
        if (b.n == at) {
            free(b.p);
            return;
        }
    }
    wrap("                ", 16, buf_str(&b));
    free(b.p);
}

void show_explain_names(const ExplainNames *s, int number, bool color)
{
    if (number > 1) printf("\n");
    const char *bold = color ? "\033[1m" : "", *plain = color ? "\033[0m" : "";
    printf("%s%d. %s: name inference%s\n", bold, number, s->op ? s->op : "?", plain);
    int n = s->noperands < EXPLAIN_MAX_OPERANDS ? s->noperands : EXPLAIN_MAX_OPERANDS;
    int lw = 0, maxn = s->nresult > 0 ? s->nresult : 0, w = 4;
    for (int i = 0; i < n; i++) {
        const tsr_tensor *t = s->operands[i];
        if (s->label[i] && (int)strlen(s->label[i]) > lw) lw = (int)strlen(s->label[i]);
        if (t->ndim > maxn) maxn = t->ndim;
        for (int d = 0; t->names && d < t->ndim; d++)
            if (t->names[d] && (int)strlen(t->names[d]) + 2 > w) w = (int)strlen(t->names[d]) + 2;
    }
    for (int d = 0; d < s->nresult; d++)
        if (s->result[d] && (int)strlen(s->result[d]) + 2 > w) w = (int)strlen(s->result[d]) + 2;
    Buf b = {0};
    for (int i = 0; i < n; i++) {
        const tsr_tensor *t = s->operands[i];
        b.n = 0;
        buf_printf(&b, "tensor, shape ");
        shape_str(&b, t->ndim, t->sizes);
        buf_printf(&b, ", names ");
        names_list(&b, t->names, t->ndim);
        printf("   %s  %-*s  %s\n", letter[i], lw, s->label[i] ? s->label[i] : "", buf_str(&b));
    }
    b.n = 0;
    buf_printf(&b, "%s. %s", s->family ? s->family : "?", s->rule ? s->rule : "");
    labelled("names:", buf_str(&b));
    if (s->detail) labelled("here:", s->detail);
    if (maxn > 8) maxn = 8 > s->nresult ? 8 : s->nresult;   /* wide tensors: the table would not fit */
    bool table = maxn * (w + 1) + 2 <= WIDTH - 16 && n > 0;
    for (int i = 0; table && i < n; i++) {
        const tsr_tensor *t = s->operands[i];
        if (t->ndim > maxn) continue;
        char prefix[8];
        snprintf(prefix, sizeof prefix, "%s ", letter[i]);
        names_row(&b, prefix, t->names, t->ndim, maxn, w);
    }
    int kept = 0;
    if (s->removed && n > 0)
        for (int d = 0; d < s->operands[0]->ndim; d++) kept += !s->removed[d];
    bool by_column = s->removed && n > 0 && kept == s->nresult && s->operands[0]->ndim <= maxn;
    if (table && s->nresult > 0 && !s->error) {
        b.n = 0;
        buf_printf(&b, "= ");
        int nd0 = by_column ? s->operands[0]->ndim : 0;
        for (int c = 0, k = 0; c < maxn; c++) {
            int d = c - (maxn - (by_column ? nd0 : s->nresult));
            Buf one = {0};
            bool show = d >= 0 && (!by_column || !s->removed[d]);
            if (show) name_text(&one, s->result[by_column ? k++ : d]);
            buf_printf(&b, " %*s", w, buf_str(&one));
            free(one.p);
        }
        while (b.n && b.p[b.n - 1] == ' ') b.p[--b.n] = 0;
        printf("%16s%s\n", "", buf_str(&b));
    }
    b.n = 0;
    if (s->written && s->nresult >= 0) out_names_note(&b, s->written, s->result, s->nresult, s->inplace);
    if (b.n) labelled(s->inplace ? "in-place:" : "out=:", buf_str(&b));
    b.n = 0;
    if (s->refused) {
        labelled("result:", "none: 1.13 refuses the named input (the error follows)");
    } else if (s->error) {
        labelled("result:", "none: the operation fails with");
        wrap("                ", 16, s->error);
    } else if (s->nresult > 0) {
        buf_printf(&b, "names ");
        names_list(&b, s->result, s->nresult);
        labelled("result:", buf_str(&b));
    } else if (s->nresult == 0) {
        labelled("result:", "a 0-dim tensor: it has no dims, so no names");
    }
    free(b.p);
}

void show_explain_step(const ExplainStep *s, int number, bool color)
{
    const tsr_promotion *e = &s->promo;
    Buf b = {0};
    /* header: "1. add: x + 5.0" */
    if (number > 1) printf("\n");
    op_text(&b, s);
    char head[WIDTH + 1];
    int hl = snprintf(head, sizeof head, "%d. %s: ", number, s->op ? s->op : "?");
    if (hl > WIDTH - 10) hl = WIDTH - 10;
    int room = WIDTH - hl;
    const char *bold = color ? "\033[1m" : "", *plain = color ? "\033[0m" : "";
    if ((int)b.n > room) printf("%s%.*s%.*s...%s\n", bold, hl, head, room - 3, buf_str(&b), plain);
    else printf("%s%.*s%s%s\n", bold, hl, head, buf_str(&b), plain);
    b.n = 0;

    /* operands: what, dtype as result_type counts it, tier, category */
    Buf what[EXPLAIN_MAX_OPERANDS] = {{0}};
    int ww = 0, dw = 0, tw = 0;
    for (int i = 0; i < s->noperands; i++) {
        const tsr_operand *o = &s->operands[i];
        if (o->t) {
            buf_printf(&what[i], "tensor, shape ");
            shape_str(&what[i], o->t->ndim, o->t->sizes);
        } else {
            scalar_repr(&what[i], o->s);
        }
        if (what[i].n > 30) {
            what[i].n = 27;
            buf_printf(&what[i], "...");
        }
        int l = (int)what[i].n;
        if (l > ww) ww = l;
        l = (int)strlen(dn(tsr_operand_promo_dtype(o)));
        if (l > dw) dw = l;
        l = (int)strlen(tsr_tier_name(tsr_operand_tier(o)));
        if (l > tw) tw = l;
    }
    for (int i = 0; i < s->noperands; i++) {
        const tsr_operand *o = &s->operands[i];
        tsr_dtype pd = tsr_operand_promo_dtype(o);
        printf("   %s  %-*s  %-*s  %-*s  %s\n", letter[i], ww, buf_str(&what[i]), dw, dn(pd), tw,
               tsr_tier_name(tsr_operand_tier(o)), cat(pd));
        if (!o->t && o->s.kind == TSR_SCALAR_INT) printf("      a Python int counts as int64\n");
        else if (!o->t && o->s.kind == TSR_SCALAR_FLOAT)
            printf("      a Python float counts as the default dtype, %s\n", dn(pd));
        else if (!o->t && o->s.kind == TSR_SCALAR_COMPLEX)
            printf("      a Python complex counts as the default complex dtype, %s\n", dn(pd));
        free(what[i].p);
    }

    /* result_type: by which rule, why, and which tier decided */
    if (e->rule != TSR_RULE_NONE && s->noperands > 0) {
        labelled("rule:", tsr_promo_rule_text(e->rule));
        if (result_type_say(&b, s) && b.n) labelled("why:", buf_str(&b));
        b.n = 0;
        buf_printf(&b, "%s", dn(e->result));
        if (e->deciding_operand >= 0 && e->deciding_operand < s->noperands) {
            buf_printf(&b, ", decided by ");
            group(&b, s, e->deciding_tier);
        }
        labelled("result_type:", buf_str(&b));
        b.n = 0;
        if (e->complex32)
            buf_printf(&b, "complex32 (ComplexHalf) is experimental in PyTorch 1.13, which warns when it is "
                           "created.");
        wraparound_note(&b, s, e->result);
        if (b.n) labelled("note:", buf_str(&b));
        b.n = 0;
    }
    if (s->dtype_rule) {
        buf_printf(&b, "%s", s->dtype_rule);
        tsr_dtype c = computed_dtype(s);
        if (e->rule != TSR_RULE_NONE && c != TSR_DTYPE_UNDEFINED && e->result != c)
            buf_printf(&b, ": %s" NBSP "->" NBSP "%s", dn(e->result), dn(c));
        labelled("op rule:", buf_str(&b));
        b.n = 0;
    }

    /* in-place and out=: can the computed dtype be cast into the output? */
    if (s->inplace || s->has_out) {
        const char *into = s->inplace ? "self" : "the out= tensor";
        tsr_dtype from = computed_dtype(s);
        if (s->refused) {
            buf_printf(&b, "REFUSED: %s", s->refused);
            if (b.p[b.n - 1] != '.') buf_printf(&b, ".");
            const char *why = cast_refusal(from, s->out_dtype);
            if (!strncmp(s->refused, "result type ", 12) && why)
                buf_printf(&b, " The result is %s and %s is %s: can_cast(%s," NBSP "%s)" NBSP "is" NBSP "False because %s.", dn(from),
                           into, dn(s->out_dtype), dn(from), dn(s->out_dtype), why);
            else if (strstr(s->refused, "broadcast shape"))
                buf_printf(&b, " An in-place op cannot change self's shape: the broadcast shape must be "
                               "self's own.");
            else if (!strncmp(s->refused, "Found dtype ", 12))
                buf_printf(&b, " This op does not promote: %s must have the input's dtype.", into);
        } else if (from == s->out_dtype) {
            buf_printf(&b, "writes into %s (%s)", into, dn(s->out_dtype));
        } else if (s->out_check == TSR_CHECK_NONE) {
            buf_printf(&b, "computed as bool, then cast into %s (%s): comparisons accept an output of any "
                           "dtype", into, dn(s->out_dtype));
        } else if (s->out_castable) {
            buf_printf(&b, "computed in %s, then cast into %s (%s): can_cast(%s," NBSP "%s)" NBSP "is" NBSP "True", dn(from), into,
                       dn(s->out_dtype), dn(from), dn(s->out_dtype));
        } else {
            buf_printf(&b, "computed in %s, then cast into %s (%s)", dn(from), into, dn(s->out_dtype));
        }
        labelled(s->inplace ? "in-place:" : "out=:", buf_str(&b));
        b.n = 0;
    }
    names_section(s);
    if (s->refused) { free(b.p); return; }
    if (s->result == TSR_DTYPE_UNDEFINED) {
        labelled("result:", "none: the operation fails (the error follows)");
        free(b.p);
        return;
    }

    /* result: dtype, broadcast shape, device */
    int ntensor = 0;
    bool differ = false;
    const tsr_tensor *t0 = NULL;
    for (int i = 0; i < s->noperands; i++) {
        const tsr_tensor *t = s->operands[i].t;
        if (!t) continue;
        ntensor++;
        if (!t0) t0 = t;
        else if (t->ndim != t0->ndim || memcmp(t->sizes, t0->sizes, (size_t)t->ndim * sizeof *t->sizes)) differ = true;
    }
    buf_printf(&b, "%s, shape ", dn(s->inplace || s->has_out ? s->out_dtype : s->result));
    shape_str(&b, s->ndim, s->shape);
    if (differ) {
        buf_printf(&b, ", broadcast from");
        for (int i = 0, k = 0; i < s->noperands; i++) {
            const tsr_tensor *t = s->operands[i].t;
            if (!t) continue;
            buf_printf(&b, "%s %s ", k++ ? (k == ntensor ? " and" : ",") : "", letter[i]);
            shape_str(&b, t->ndim, t->sizes);
        }
    }
    if (s->device.type != TSR_DEV_CPU) {
        char dev[32];
        buf_printf(&b, ", device %s", tsr_device_str(s->device, dev, sizeof dev));
    }
    labelled("result:", buf_str(&b));
    free(b.p);
}

/* ------------------------------------------------------------ tables */

/* Readable order: by category, then size (not ScalarType order). */
static const tsr_dtype table_order[] = {
    TSR_BOOL, TSR_UINT8, TSR_INT8, TSR_INT16, TSR_INT32, TSR_INT64, TSR_FLOAT16, TSR_BFLOAT16,
    TSR_FLOAT32, TSR_FLOAT64, TSR_COMPLEX32, TSR_COMPLEX64, TSR_COMPLEX128,
};
_Static_assert(sizeof table_order / sizeof *table_order == TSR_NDTYPES, "every dtype once");

static const char *short_name(tsr_dtype d)
{
    const tsr_dtype_traits *t = tsr_dtype_traits_of(d);
    return t ? t->short_name : "-";
}

void show_promotion_table(bool cast)
{
    if (cast)
        printf("torch.can_cast(row, column): y = the row's dtype casts to the column's, . = no\n");
    else
        printf("torch.promote_types(row, column)  (u=uint i=int f=float bf=bfloat c=complex)\n");
    printf("%-4s", "");
    for (int j = 0; j < TSR_NDTYPES; j++) printf(" %4s", short_name(table_order[j]));
    printf("\n");
    tsr_dtype promoted[TSR_NDTYPES * TSR_NDTYPES];
    bool castable[TSR_NDTYPES * TSR_NDTYPES];
    tsr_promotion_table(TSR_NDTYPES, table_order, promoted, castable);
    for (int i = 0; i < TSR_NDTYPES; i++) {
        printf("%-4s", short_name(table_order[i]));
        for (int j = 0; j < TSR_NDTYPES; j++) {
            int k = i * TSR_NDTYPES + j;
            printf(" %4s", cast ? (castable[k] ? "y" : ".") : short_name(promoted[k]));
        }
        printf("\n");
    }
}
