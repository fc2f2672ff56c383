/* runtime/names.c — name inference's algorithms over arrays of interned
 * names (SEMANTICS.md §2): aten/src/ATen/NamedTensorUtils.cpp
 * (unify_from_right, compute_matmul_outnames), TensorNames.cpp (the batch
 * dims' unify with each name's origin), native/NamedTensor.cpp (align_to)
 * and c10/core/Dimname.cpp (validity). Checked against the tables that
 * scripts/gen-name-cases draws from PyTorch 1.13. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "names.h"

/* ------------------------------------------------------------ interning */

/* An open-addressing set of the names seen, never shrunk: a program uses a
 * handful of names, and tensors hold them by pointer. */
static char **tab;
static size_t tab_cap, tab_n;

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int grow(void)
{
    size_t cap = tab_cap ? tab_cap * 2 : 64;
    char **t = tsr_calloc(cap, sizeof *t);
    if (!t) return -1;
    for (size_t i = 0; i < tab_cap; i++) {
        if (!tab[i]) continue;
        size_t j = hash_str(tab[i]) & (cap - 1);
        while (t[j]) j = (j + 1) & (cap - 1);
        t[j] = tab[i];
    }
    tsr_free(tab);
    tab = t;
    tab_cap = cap;
    return 0;
}

tsr_name tsr_name_intern(const char *s)
{
    if ((tab_n + 1) * 2 > tab_cap && grow() < 0) return NULL;
    size_t j = hash_str(s) & (tab_cap - 1);
    for (; tab[j]; j = (j + 1) & (tab_cap - 1))
        if (!strcmp(tab[j], s)) return tab[j];
    size_t len = strlen(s);
    char *copy = tsr_malloc(len + 1);
    if (!copy) return NULL;
    memcpy(copy, s, len + 1);
    tab[j] = copy;
    tab_n++;
    return copy;
}

/* ------------------------------------------------------------ validity and format */

static bool is_identifier(const char *s)
{
    if (!*s || (*s >= '0' && *s <= '9')) return false;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    }
    return true;
}

int tsr_name_from_str(const char *s, tsr_name *out)
{
    if (!strcmp(s, "*")) {
        *out = NULL;
        return 0;
    }
    if (!is_identifier(s)) {
        tsr_error_set(TSR_ERR_RUNTIME,
                      "Invalid name: a valid identifier contains only digits, alphabetical characters, and/or "
                      "underscore and starts with a non-digit. got: '%s'.",
                      s);
        return -1;
    }
    *out = tsr_name_intern(s);
    return *out ? 0 : -1;
}

bool tsr_names_any(const tsr_name *names, int n)
{
    if (!names) return false;
    for (int i = 0; i < n; i++)
        if (names[i]) return true;
    return false;
}

int tsr_names_find(const tsr_name *names, int n, tsr_name name)
{
    for (int i = 0; names && i < n; i++)
        if (names[i] == name) return i;
    return -1;
}

int tsr_names_format(char *buf, size_t cap, const tsr_name *names, int n)
{
    size_t len = 0;
    char tmp[1];
    if (!buf || !cap) { buf = tmp; cap = 1; }
    for (int i = -1; i <= n; i++) {
        const char *piece = i < 0 ? "[" : i == n ? "]" : NULL;
        tsr_name nm = i >= 0 && i < n && names ? names[i] : NULL;
        size_t room = len < cap ? cap - len : 0;
        int k = piece ? snprintf(buf + (cap - room), room, "%s", piece)
                : nm ? snprintf(buf + (cap - room), room, "%s'%s'", i ? ", " : "", nm)
                     : snprintf(buf + (cap - room), room, "%sNone", i ? ", " : "");
        if (k > 0) len += (size_t)k;
    }
    return (int)len;
}

/* A name list for a message, in a buffer of the caller's (truncated when
 * absurdly long: the message buffer is 4 KiB anyway). */
#define LIST_CAP 1024
static const char *fmt_list(char *buf, const tsr_name *names, int n)
{
    tsr_names_format(buf, LIST_CAP, names, n);
    return buf;
}

/* 'N' or None, as Dimname prints in messages */
static const char *fmt_name(char *buf, size_t cap, tsr_name n)
{
    if (n) snprintf(buf, cap, "'%s'", n);
    else snprintf(buf, cap, "None");
    return buf;
}

int tsr_names_check_unique(const tsr_name *names, int n)
{
    for (int i = 0; names && i < n; i++) {
        if (!names[i]) continue;
        for (int j = i + 1; j < n; j++) {
            if (names[j] == names[i]) {
                char l[LIST_CAP];
                tsr_error_set(TSR_ERR_RUNTIME, "Cannot construct a tensor with duplicate names. Got names: %s.",
                              fmt_list(l, names, n));
                return -1;
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------ unify from the right */

static tsr_name at(const tsr_name *names, int i) { return names ? names[i] : NULL; }

/* check_for_misalignment: a basic name of one list found in the other. */
static int misaligned(tsr_name dim, const tsr_name *names, int nn, const tsr_name *other, int no,
                      const char *action)
{
    if (!dim || tsr_names_find(other, no, dim) < 0) return 0;
    char a[LIST_CAP], b[LIST_CAP], d[256];
    tsr_error_set(TSR_ERR_RUNTIME,
                  "Misaligned dims when attempting to %s dims %s and dims %s: dim %s appears in a different "
                  "position from the right across both lists.",
                  action, fmt_list(a, names, nn), fmt_list(b, other, no), fmt_name(d, sizeof d, dim));
    return -1;
}

int tsr_names_unify(const tsr_name *a, int na, const tsr_name *b, int nb, const char *action, tsr_name *out)
{
    int n = na > nb ? na : nb;
    for (int k = 1; k <= n; k++) {
        tsr_name x = k <= na ? at(a, na - k) : NULL, y = k <= nb ? at(b, nb - k) : NULL;
        tsr_name u;
        if (!y) u = x;
        else if (!x || x == y) u = y;
        else {
            char la[LIST_CAP], lb[LIST_CAP], dx[256], dy[256];
            tsr_error_set(TSR_ERR_RUNTIME,
                          "Error when attempting to %s dims %s and dims %s: dim %s and dim %s are at the same "
                          "position from the right but do not match.",
                          action, fmt_list(la, a, na), fmt_list(lb, b, nb), fmt_name(dx, sizeof dx, x),
                          fmt_name(dy, sizeof dy, y));
            return -1;
        }
        out[n - k] = u;
        if (!x || !y) {
            if (misaligned(x, a, na, b, nb, action) < 0) return -1;
            if (misaligned(y, b, nb, a, na, action) < 0) return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------ matmul */

/* A batch name with where it came from (TensorNames' TensorName). */
typedef struct { tsr_name name; const tsr_name *origin; int norigin, idx; } TName;

static int tname_unify(TName p, TName q, TName *out)
{
    if ((!p.name && !q.name) || p.name == q.name) { *out = p; return 0; }
    if (!q.name) {
        if (tsr_names_find(q.origin, q.norigin, p.name) >= 0) {
            char pn[256], qn[256], po[LIST_CAP], qo[LIST_CAP];
            tsr_error_set(TSR_ERR_RUNTIME,
                          "matmul: Cannot match %s (index %d of %s) with %s (index %d of %s) because the latter "
                          "names already have %s. Are your tensors misaligned?",
                          fmt_name(pn, sizeof pn, p.name), p.idx, fmt_list(po, p.origin, p.norigin),
                          fmt_name(qn, sizeof qn, q.name), q.idx, fmt_list(qo, q.origin, q.norigin), pn);
            return -1;
        }
        *out = p;
        return 0;
    }
    if (!p.name) return tname_unify(q, p, out);
    char pn[256], qn[256], po[LIST_CAP], qo[LIST_CAP];
    tsr_error_set(TSR_ERR_RUNTIME,
                  "matmul: Expected %s (index %d of %s) to match %s (index %d of %s) but they do not match.",
                  fmt_name(pn, sizeof pn, p.name), p.idx, fmt_list(po, p.origin, p.norigin),
                  fmt_name(qn, sizeof qn, q.name), q.idx, fmt_list(qo, q.origin, q.norigin));
    return -1;
}

int tsr_names_matmul(const tsr_name *a, int na, const tsr_name *b, int nb, tsr_name *out, int *nout)
{
    if (na < 1 || nb < 1) {
        tsr_error_set(TSR_ERR_RUNTIME, "both arguments to matmul need to be at least 1D, but they are %dD and %dD",
                      na, nb);
        return -1;
    }
    /* the batch dims, unified in place into self's (unifyFromRightInplace):
     * self's name is always the first of each pair */
    int ba = na > 2 ? na - 2 : 0, bb = nb > 2 ? nb - 2 : 0;
    TName w[TSR_MAX_NAMED_DIMS];
    int nw = ba > bb ? ba : bb, diff = ba > bb ? ba - bb : bb - ba;
    if (nw > TSR_MAX_NAMED_DIMS) nw = TSR_MAX_NAMED_DIMS;
    for (int i = 0; i < nw; i++) {
        if (ba >= bb) {
            TName p = {at(a, i), a, na, i};
            if (i < diff) { w[i] = p; continue; }
            TName q = {at(b, i - diff), b, nb, i - diff};
            if (tname_unify(p, q, &w[i]) < 0) return -1;
        } else {
            TName q = {at(b, i), b, nb, i};
            if (i < diff) { w[i] = q; continue; }
            TName p = {at(a, i - diff), a, na, i - diff};
            if (tname_unify(p, q, &w[i]) < 0) return -1;
        }
    }
    int n = 0;
    for (int i = 0; i < nw; i++) out[n++] = w[i].name;
    if (na >= 2) out[n++] = at(a, na - 2);
    if (nb >= 2) out[n++] = at(b, nb - 1);
    *nout = n;
    /* check_feature_names_are_distinct */
    if (na >= 2 && nb >= 2 && out[n - 2] && out[n - 2] == out[n - 1]) {
        char la[LIST_CAP], lb[LIST_CAP], lo[LIST_CAP];
        tsr_error_set(TSR_ERR_RUNTIME,
                      "Matrix multiplying Tensor%s with Tensor%s would produce output tensor with duplicate names "
                      "%s. Please rename the input tensors with `Tensor.rename` to prevent this.",
                      fmt_list(la, a, na), fmt_list(lb, b, nb), fmt_list(lo, out, n));
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ align_to */

int tsr_names_align_to(const tsr_name *self, int n, const tsr_name *order, int norder, int ellipsis,
                       tsr_name *out, int *src, int *nout)
{
    char l1[LIST_CAP], l2[LIST_CAP], d[256];
    if (ellipsis < 0) {
        for (int i = 0; i < norder; i++) { out[i] = order[i]; src[i] = -1; }
        for (int i = 0; i < n; i++) {
            tsr_name dim = at(self, i);
            if (!dim) {
                tsr_error_set(TSR_ERR_RUNTIME,
                              "align_to: All input dims must be named. Found unnamed dim at index %d of Tensor%s", i,
                              fmt_list(l1, self, n));
                return -1;
            }
            int j = tsr_names_find(order, norder, dim);
            if (j < 0) {
                /* (1.13 prints the desired names twice) */
                tsr_error_set(TSR_ERR_RUNTIME, "align_to: Cannot find dim %s from Tensor%s in desired alignment %s.",
                              fmt_name(d, sizeof d, dim), fmt_list(l1, order, norder), fmt_list(l2, order, norder));
                return -1;
            }
            src[j] = i;
        }
        *nout = norder;
        return tsr_names_check_unique(out, norder);
    }
    int tensor_idx_for[TSR_MAX_NAMED_DIMS];
    bool has[TSR_MAX_NAMED_DIMS] = {false};
    if (norder > TSR_MAX_NAMED_DIMS || n > TSR_MAX_NAMED_DIMS) {
        tsr_error_set(TSR_ERR_RUNTIME, "align_to: at most %d dims can be named", TSR_MAX_NAMED_DIMS);
        return -1;
    }
    for (int i = 0; i < norder; i++) {
        if (!order[i]) {
            tsr_error_set(TSR_ERR_RUNTIME, "align_to: the desired order of dimensions cannot contain a None name, got %s",
                          fmt_list(l1, order, norder));
            return -1;
        }
        int k = tsr_names_find(self, n, order[i]);
        tensor_idx_for[i] = k;
        if (k >= 0) has[k] = true;
    }
    int k = 0;
    for (int i = 0; i < n; i++) k += !has[i];
    int m = norder + k;
    for (int i = 0; i < m; i++) { out[i] = NULL; src[i] = -1; }
    for (int i = 0; i < norder; i++) {
        int o = i >= ellipsis ? i + k : i;
        out[o] = order[i];
        src[o] = tensor_idx_for[i];
    }
    for (int i = 0, e = ellipsis; i < n; i++) {
        if (has[i]) continue;
        out[e] = at(self, i);
        src[e] = i;
        e++;
    }
    *nout = m;
    return tsr_names_check_unique(out, m);
}

/* ------------------------------------------------------------ names on tensors */

int tsr_names_remove(const tsr_name *names, int n, const bool *removed, tsr_name *out)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!removed[i]) out[k++] = names ? names[i] : NULL;
    return k;
}

int tsr_names_refine(const tsr_name *self, int nself, const tsr_name *names, int n)
{
    char a[LIST_CAP], b[LIST_CAP], x[256], y[256];
    if (n != nself) {
        tsr_error_set(TSR_ERR_RUNTIME, "refine_names: cannot coerce Tensor%s to Tensor%s because they have a "
                      "different number of dims (%d and %d respectively).", fmt_list(a, self, nself),
                      fmt_list(b, names, n), nself, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        tsr_name s = self ? self[i] : NULL;
        if (!s || s == names[i]) continue;
        if (!names[i])
            tsr_error_set(TSR_ERR_RUNTIME, "refine_names: cannot coerce Tensor%s to Tensor%s because %s is more "
                          "specific than None at index %d", fmt_list(a, self, nself), fmt_list(b, names, n),
                          fmt_name(x, sizeof x, s), i);
        else
            tsr_error_set(TSR_ERR_RUNTIME, "refine_names: cannot coerce Tensor%s to Tensor%s because %s is "
                          "different from %s at index %d", fmt_list(a, self, nself), fmt_list(b, names, n),
                          fmt_name(x, sizeof x, s), fmt_name(y, sizeof y, names[i]), i);
        return -1;
    }
    return 0;
}

int tsr_names_refuse(const char *schema)
{
    tsr_error_set(TSR_ERR_RUNTIME, "%s is not yet supported with named tensors. Please drop names via `tensor = "
                  "tensor.rename(None)`, call the op with an unnamed tensor, and set names on the result of the "
                  "operation.", schema);
    return -1;
}

