/* runtime/io/npy.c — .npy files as NumPy 1.24 writes and reads them
 * (numpy/lib/format.py: write_array_header_1_0, _wrap_header,
 * read_array_header, _read_array_header). The header is a Python dict
 * literal; this reader accepts the three keys in any order with the value
 * forms NumPy writes, and rejects the rest with NumPy's messages. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "io/npy.h"
#include "ops/copy.h"
#include "view.h"

#define MAGIC "\x93NUMPY"
#define ARRAY_ALIGN 64
#define GROWTH_AXIS_MAX_DIGITS 21   /* spare room NumPy >= 1.23 leaves in the header */

/* ORDER DTYPE: descr by tsr dtype ("" where NumPy has none) */
static const char *const descrs[TSR_DTYPE_SLOTS] = {
    [TSR_UINT8] = "|u1", [TSR_INT8] = "|i1", [TSR_INT16] = "<i2", [TSR_INT32] = "<i4", [TSR_INT64] = "<i8",
    [TSR_FLOAT16] = "<f2", [TSR_FLOAT32] = "<f4", [TSR_FLOAT64] = "<f8", [TSR_COMPLEX64] = "<c8",
    [TSR_COMPLEX128] = "<c16", [TSR_BOOL] = "|b1",
};

const char *tsr_npy_descr(tsr_dtype d)
{
    if (!tsr_dtype_valid(d) || !descrs[d]) return NULL;
    return descrs[d];
}

tsr_dtype tsr_npy_dtype_of_descr(const char *descr, int *swap)
{
    *swap = 0;
    char order = descr[0];
    if (order != '<' && order != '>' && order != '|' && order != '=') return TSR_DTYPE_UNDEFINED;
    for (int d = 0; d < TSR_DTYPE_SLOTS; d++) {
        if (!descrs[d] || strcmp(descrs[d] + 1, descr + 1)) continue;
        int one = tsr_dtype_itemsize((tsr_dtype)d) == 1;
        if (one && order != '|' && order != '<' && order != '>' && order != '=') return TSR_DTYPE_UNDEFINED;
        *swap = order == '>' && !one;
        return (tsr_dtype)d;
    }
    return TSR_DTYPE_UNDEFINED;
}

/* ------------------------------------------------------------ writing */

int tsr_npy_encode(const tsr_tensor *t, void **out, size_t *n)
{
    const char *descr = tsr_npy_descr(t->dtype);
    if (!descr) {
        tsr_error_set(TSR_ERR_TYPE, "Got unsupported ScalarType %s", tsr_dtype_scalar_name(t->dtype));
        return -1;
    }
    /* header_data_from_array_1_0: C-contiguous arrays are written as they
     * are, Fortran-contiguous ones in their memory order (fortran_order
     * True), any other in C order */
    int64_t rs[TSR_MAX_DIMS], rst[TSR_MAX_DIMS];
    for (int d = 0; d < t->ndim; d++) { rs[d] = t->sizes[t->ndim - 1 - d]; rst[d] = t->strides[t->ndim - 1 - d]; }
    bool fortran = !tsr_geom_is_contiguous(t->ndim, t->sizes, t->strides) &&
                   tsr_geom_is_contiguous(t->ndim, rs, rst);
    char shape[TSR_MAX_DIMS * 24 + 8];
    size_t k = 0;
    shape[k++] = '(';
    for (int d = 0; d < t->ndim; d++)
        k += (size_t)snprintf(shape + k, sizeof shape - k, d ? ", %" PRId64 : "%" PRId64, t->sizes[d]);
    if (t->ndim == 1) shape[k++] = ',';
    shape[k++] = ')';
    shape[k] = 0;
    char head[sizeof shape + 160];
    int h = snprintf(head, sizeof head, "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", descr,
                     fortran ? "True" : "False", shape);
    if (t->ndim > 0) {
        char first[24];
        int fl = snprintf(first, sizeof first, "%" PRId64, t->sizes[fortran ? t->ndim - 1 : 0]);
        for (int i = fl; i < GROWTH_AXIS_MAX_DIGITS; i++) head[h++] = ' ';
        head[h] = 0;
    }
    size_t hlen = (size_t)h + 1;                        /* the closing '\n' */
    size_t pad = ARRAY_ALIGN - ((8 + 2 + hlen) % ARRAY_ALIGN);
    size_t total_head = 10 + hlen + pad;
    if (total_head - 10 > 65535) {
        tsr_error_set(TSR_ERR_VALUE, "Header length %zu too big for version=(1, 0)", hlen);
        return -1;
    }
    tsr_tensor *c;
    if (fortran) {
        tsr_tensor *rev = tsr_tensor_alias(t, t->ndim, rs, rst, t->storage_offset);
        if (!rev) return -1;
        c = tsr_contiguous(rev, TSR_MF_CONTIGUOUS);
        tsr_tensor_release(rev);
    } else {
        c = tsr_contiguous(t, TSR_MF_CONTIGUOUS);
    }
    if (!c) return -1;
    tsr_tensor *r = tsr_resolve_bits(c);
    tsr_tensor_release(c);
    if (!r) return -1;
    size_t nbytes = (size_t)tsr_tensor_nbytes(r);
    char *buf = tsr_malloc(total_head + nbytes + 1);
    if (!buf) { tsr_tensor_release(r); return -1; }
    memcpy(buf, MAGIC, 6);
    buf[6] = 1;
    buf[7] = 0;
    buf[8] = (char)((total_head - 10) & 0xff);
    buf[9] = (char)((total_head - 10) >> 8);
    memcpy(buf + 10, head, (size_t)h);
    memset(buf + 10 + h, ' ', pad);
    buf[total_head - 1] = '\n';
    if (nbytes) memcpy(buf + total_head, tsr_tensor_ptr(r, NULL), nbytes);
    tsr_tensor_release(r);
    *out = buf;
    *n = total_head + nbytes;
    return 0;
}

/* ------------------------------------------------------------ reading */

typedef struct { const char *p, *end; } cursor;

static void skip_ws(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) c->p++;
}

static int eat(cursor *c, char ch)
{
    skip_ws(c);
    if (c->p < c->end && *c->p == ch) { c->p++; return 1; }
    return 0;
}

/* A quoted string (no escapes) into buf; 0 or -1. */
static int quoted(cursor *c, char *buf, size_t n)
{
    skip_ws(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return -1;
    char q = *c->p++;
    size_t k = 0;
    while (c->p < c->end && *c->p != q) {
        if (*c->p == '\\' || k + 1 >= n) return -1;
        buf[k++] = *c->p++;
    }
    if (c->p >= c->end) return -1;
    c->p++;
    buf[k] = 0;
    return 0;
}

static int word(cursor *c, const char *w)
{
    skip_ws(c);
    size_t n = strlen(w);
    if ((size_t)(c->end - c->p) >= n && !memcmp(c->p, w, n)) { c->p += n; return 1; }
    return 0;
}

static tsr_tensor *header_error(const char *what, const char *head, size_t hn)
{
    tsr_error_set(TSR_ERR_VALUE, "%s: %.*s", what, (int)(hn > 200 ? 200 : hn), head);
    return NULL;
}

/* Skips one Python literal: a string, a bracketed group (strings inside
 * may hold brackets) or a bare word. 0, or -1 when it does not end. */
static int skip_value(cursor *c)
{
    int depth = 0;
    while (c->p < c->end) {
        char ch = *c->p;
        if (ch == '\'' || ch == '"') {
            c->p++;
            while (c->p < c->end && *c->p != ch) c->p += *c->p == '\\' ? 2 : 1;
            if (c->p >= c->end) return -1;
            c->p++;
            if (depth == 0) return 0;
            continue;
        }
        if (ch == '(' || ch == '[' || ch == '{') depth++;
        else if (ch == ')' || ch == ']' || ch == '}') {
            if (depth == 0) return 0;
            if (--depth == 0) { c->p++; return 0; }
        } else if (ch == ',' && depth == 0) return 0;
        c->p++;
    }
    return depth ? -1 : 0;
}

/* NumPy's "msg: {!r}" with the value's text as the header holds it */
static tsr_tensor *value_error(const char *what, const char *p, const char *end)
{
    int n = (int)(end - p);
    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\n')) n--;
    tsr_error_set(TSR_ERR_VALUE, "%s: %.*s", what, n > 200 ? 200 : n, p);
    return NULL;
}

/* Reverses each itemsize-byte group (complex: each half). */
static void byteswap(char *p, int64_t count, int isz, int complex)
{
    int part = complex ? isz / 2 : isz;
    int64_t groups = count * (complex ? 2 : 1);
    for (int64_t g = 0; g < groups; g++, p += part)
        for (int i = 0; i < part / 2; i++) { char tmp = p[i]; p[i] = p[part - 1 - i]; p[part - 1 - i] = tmp; }
}

tsr_tensor *tsr_npy_decode(const void *data, size_t n)
{
    const unsigned char *b = data;
    if (n < 6 || memcmp(b, MAGIC, 6)) {
        tsr_error_set(TSR_ERR_VALUE, "Cannot load file containing pickled data when allow_pickle=False");
        return NULL;
    }
    if (n < 8) { tsr_error_set(TSR_ERR_VALUE, "EOF: reading magic string, expected 8 bytes got %zu", n); return NULL; }
    int major = b[6], minor = b[7];
    if (!((major == 1 || major == 2 || major == 3) && minor == 0)) {
        tsr_error_set(TSR_ERR_VALUE, "we only support format version (1,0), (2,0), and (3,0), not (%d, %d)", major, minor);
        return NULL;
    }
    size_t lenbytes = major == 1 ? 2 : 4;
    if (n < 8 + lenbytes) {
        tsr_error_set(TSR_ERR_VALUE, "EOF: reading array header length, expected %zu bytes got %zu", lenbytes, n - 8);
        return NULL;
    }
    size_t hn = (size_t)b[8] | (size_t)b[9] << 8;
    if (lenbytes == 4) hn |= (size_t)b[10] << 16 | (size_t)b[11] << 24;
    size_t start = 8 + lenbytes;
    if (n - start < hn) {
        tsr_error_set(TSR_ERR_VALUE, "EOF: reading array header, expected %zu bytes got %zu", hn, n - start);
        return NULL;
    }
    const char *head = (const char *)b + start;
    cursor c = {head, head + hn};
    /* ast.literal_eval's dict first (keys and the text of each value),
     * then NumPy's checks in its order: the keys, shape, fortran_order,
     * descr */
    char key[32], keys[3][32];
    const char *val[3], *vend[3];
    int nkeys = 0;
    if (!eat(&c, '{')) return header_error("Cannot parse header", head, hn);
    for (;;) {
        if (eat(&c, '}')) break;
        if (nkeys == 3 || quoted(&c, key, sizeof key) < 0 || !eat(&c, ':'))
            return header_error(nkeys == 3 ? "Header does not contain the correct keys" : "Cannot parse header", head, hn);
        skip_ws(&c);
        strcpy(keys[nkeys], key);
        val[nkeys] = c.p;
        if (skip_value(&c) < 0) return header_error("Cannot parse header", head, hn);
        vend[nkeys++] = c.p;
        if (!eat(&c, ',')) { if (!eat(&c, '}')) return header_error("Cannot parse header", head, hn); break; }
    }
    int at[3] = {-1, -1, -1};   /* descr, fortran_order, shape */
    static const char *const want[3] = {"descr", "fortran_order", "shape"};
    for (int i = 0; i < nkeys; i++)
        for (int k = 0; k < 3; k++)
            if (!strcmp(keys[i], want[k]) && at[k] < 0) at[k] = i;
    if (nkeys != 3 || at[0] < 0 || at[1] < 0 || at[2] < 0) {
        /* sorted(d.keys()) as Python prints the list */
        char list[200] = "[";
        int rank[3] = {0, 0, 0};
        for (int i = 0; i < nkeys; i++)
            for (int j = 0; j < nkeys; j++)
                if (strcmp(keys[j], keys[i]) < 0 || (strcmp(keys[j], keys[i]) == 0 && j < i)) rank[i]++;
        for (int r = 0; r < nkeys; r++)
            for (int i = 0; i < nkeys; i++)
                if (rank[i] == r) {
                    size_t l = strlen(list);
                    snprintf(list + l, sizeof list - l, "%s'%s'", r ? ", " : "", keys[i]);
                }
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "]");
        tsr_error_set(TSR_ERR_VALUE, "Header does not contain the correct keys: %s", list);
        return NULL;
    }
    /* shape: a tuple of ints */
    cursor sc = {val[at[2]], vend[at[2]]};
    int ndim = 0, fortran;
    int64_t sizes[TSR_MAX_DIMS];
    bool shape_ok = eat(&sc, '(');
    while (shape_ok && !eat(&sc, ')')) {
        skip_ws(&sc);
        int64_t v = 0;
        int digits = 0;
        while (sc.p < sc.end && *sc.p >= '0' && *sc.p <= '9' && digits < 19) { v = v * 10 + (*sc.p++ - '0'); digits++; }
        if (!digits || ndim >= TSR_MAX_DIMS || (sc.p < sc.end && *sc.p >= '0' && *sc.p <= '9')) { shape_ok = false; break; }
        sizes[ndim++] = v;
        if (!eat(&sc, ',')) { if (!eat(&sc, ')')) shape_ok = false; break; }
    }
    skip_ws(&sc);
    if (!shape_ok || sc.p != sc.end) return value_error("shape is not valid", val[at[2]], vend[at[2]]);
    cursor fc = {val[at[1]], vend[at[1]]};
    if (word(&fc, "True")) fortran = 1;
    else if (word(&fc, "False")) fortran = 0;
    else fortran = -1;
    skip_ws(&fc);
    if (fortran < 0 || fc.p != fc.end) return value_error("fortran_order is not a valid bool", val[at[1]], vend[at[1]]);
    cursor dc = {val[at[0]], vend[at[0]]};
    char descr[32];
    if (quoted(&dc, descr, sizeof descr) < 0) return value_error("descr is not a valid dtype descriptor", val[at[0]], vend[at[0]]);
    int swap;
    tsr_dtype dt = tsr_npy_dtype_of_descr(descr, &swap);
    if (dt == TSR_DTYPE_UNDEFINED) return value_error("descr is not a valid dtype descriptor", val[at[0]], vend[at[0]]);
    int64_t numel;
    if (tsr_check_sizes(ndim, sizes, &numel) < 0) return NULL;
    int isz = tsr_dtype_itemsize(dt);
    size_t avail = (n - start - hn) / (size_t)isz;
    if ((uint64_t)numel > avail) {
        /* np.fromfile read fewer items; `array.shape = shape` then fails */
        char shape[TSR_MAX_DIMS * 24 + 8];
        size_t k = 0;
        shape[k++] = '(';
        for (int d = 0; d < ndim; d++)
            k += (size_t)snprintf(shape + k, sizeof shape - k, d ? ",%" PRId64 : "%" PRId64, sizes[d]);
        if (ndim == 1) shape[k++] = ',';
        shape[k++] = ')';
        shape[k] = 0;
        tsr_error_set(TSR_ERR_VALUE, "cannot reshape array of size %zu into shape %s", avail, shape);
        return NULL;
    }
    int64_t rsizes[TSR_MAX_DIMS];
    for (int d = 0; d < ndim; d++) rsizes[d] = fortran == 1 ? sizes[ndim - 1 - d] : sizes[d];
    tsr_tensor *t = tsr_tensor_empty(ndim, rsizes, dt, TSR_CPU);
    if (!t) return NULL;
    if (numel) {
        memcpy(tsr_tensor_ptr(t, NULL), b + start + hn, (size_t)numel * (size_t)isz);
        if (swap) byteswap(tsr_tensor_ptr(t, NULL), numel, isz, tsr_dtype_is_complex(dt));
    }
    if (fortran != 1 || ndim < 2) return t;
    /* Fortran order: the data is the C order of the reversed shape; its
     * transpose (all dims reversed) is the array, Fortran-strided as
     * np.load returns it (the bytes were copied out of the file) */
    int64_t perm[TSR_MAX_DIMS];
    for (int d = 0; d < ndim; d++) perm[d] = ndim - 1 - d;
    tsr_tensor *v = tsr_view_permute(t, ndim, perm);
    tsr_tensor_release(t);
    if (v) tsr_tensor_unview(v);
    return v;
}
