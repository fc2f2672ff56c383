/* src/show/info.c — the teaching views of one tensor: its metadata as a
 * two-column table (:info) and its storage as a flat row with the elements
 * the view reaches marked (:storage). Geometry words follow SEMANTICS.md §4. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "show/show.h"

Value *show_scalar_str(tsr_scalar s)
{
    Value *v = NULL;
    switch (s.kind) {
    case TSR_SCALAR_BOOL: v = v_bool(s.i != 0); break;
    case TSR_SCALAR_INT: v = v_int(s.i); break;
    case TSR_SCALAR_FLOAT: v = v_float(s.d); break;
    case TSR_SCALAR_COMPLEX: v = v_complex(s.re, s.im); break;
    }
    if (!v) v = v_none();
    Value *r = value_str(v);
    decref(v);
    return r;
}

static void ints_str(char *buf, size_t n, int k, const int64_t *v)
{
    size_t m = (size_t)snprintf(buf, n, "(");
    for (int i = 0; i < k && m < n; i++) m += (size_t)snprintf(buf + m, n - m, "%s%" PRId64, i ? ", " : "", v[i]);
    if (m < n) snprintf(buf + m, n - m, k == 1 ? ",)" : ")");
}

static const char *contiguity(const tsr_tensor *t, char *buf, size_t n)
{
    bool c = tsr_tensor_is_contiguous(t);
    bool cl = t->ndim == 4 && tsr_tensor_is_contiguous_as(t, TSR_MF_CHANNELS_LAST);
    bool cl3 = t->ndim == 5 && tsr_tensor_is_contiguous_as(t, TSR_MF_CHANNELS_LAST_3D);
    if (c && cl) snprintf(buf, n, "contiguous and channels_last");
    else if (c && cl3) snprintf(buf, n, "contiguous and channels_last_3d");
    else if (c) snprintf(buf, n, "contiguous");
    else if (cl) snprintf(buf, n, "channels_last");
    else if (cl3) snprintf(buf, n, "channels_last_3d");
    else if (tsr_tensor_is_non_overlapping_and_dense(t)) snprintf(buf, n, "non-contiguous (non-overlapping and dense)");
    else snprintf(buf, n, "non-contiguous");
    return buf;
}

/* A sparse COO tensor: its header, then the two strided tensors it owns. */
static void sparse_info(const tsr_tensor *t)
{
    char shape[512], buf[512], dev[32];
    const tsr_sparse *sp = t->sparse;
    ints_str(shape, sizeof shape, t->ndim, t->sizes);
    printf("%-16storch.%s\n", "dtype", tsr_dtype_name(t->dtype));
    printf("%-16s%s\n", "device", tsr_device_str(t->device, dev, sizeof dev));
    printf("%-16s%s\n", "layout", tsr_layout_name(t->layout));
    printf("%-16s%s\n", "shape", shape);
    printf("%-16s%d sparse + %d dense\n", "dims", sp->sparse_dim, sp->dense_dim);
    printf("%-16s%" PRId64 "\n", "nnz", sp->values->sizes[0]);
    printf("%-16s%s\n", "coalesced", sp->coalesced ? "yes (sorted unique indices)" : "no (indices may repeat, unsorted)");
    const tsr_tensor *parts[2] = {sp->indices, sp->values};
    static const char *const names[2] = {"indices", "values"};
    for (int k = 0; k < 2; k++) {
        const tsr_tensor *p = parts[k];
        char st[512];
        ints_str(buf, sizeof buf, p->ndim, p->sizes);
        ints_str(st, sizeof st, p->ndim, p->strides);
        int isz = tsr_dtype_itemsize(p->dtype);
        int64_t n = (int64_t)(p->storage->nbytes / (size_t)isz);
        printf("%-16storch.%s, shape %s, stride %s, storage %" PRId64 " element%s (%zu bytes)\n", names[k],
               tsr_dtype_name(p->dtype), buf, st, n, n == 1 ? "" : "s", p->storage->nbytes);
    }
}

void show_tensor_info(const tsr_tensor *t)
{
    if (t->sparse) {
        sparse_info(t);
        return;
    }
    char shape[512], stride[512], dev[32], ssz[96], cont[64], names[512];
    ints_str(shape, sizeof shape, t->ndim, t->sizes);
    ints_str(stride, sizeof stride, t->ndim, t->strides);
    int isz = tsr_dtype_itemsize(t->dtype);
    int64_t selems = (int64_t)(t->storage->nbytes / (size_t)isz);
    snprintf(ssz, sizeof ssz, "%" PRId64 " element%s (%zu bytes)", selems, selems == 1 ? "" : "s", t->storage->nbytes);
    if (t->names) {
        size_t m = (size_t)snprintf(names, sizeof names, "(");
        for (int i = 0; i < t->ndim && m < sizeof names; i++)
            m += (size_t)snprintf(names + m, sizeof names - m, t->names[i] ? "%s'%s'" : "%s%s", i ? ", " : "",
                                  t->names[i] ? t->names[i] : "None");
        if (m < sizeof names) snprintf(names + m, sizeof names - m, t->ndim == 1 ? ",)" : ")");
    } else {
        snprintf(names, sizeof names, "None");
    }
    char numel[64], off[32], elem[32];
    snprintf(numel, sizeof numel, "%" PRId64, tsr_tensor_numel(t));
    snprintf(off, sizeof off, "%" PRId64, tsr_tensor_is_meta(t) ? (int64_t)0 : t->storage_offset);
    snprintf(elem, sizeof elem, "%d byte%s", isz, isz == 1 ? "" : "s");
    char dtype[32];
    snprintf(dtype, sizeof dtype, "torch.%s", tsr_dtype_name(t->dtype));
    const struct { const char *k, *v; } rows[] = {
        {"dtype", dtype},
        {"device", tsr_device_str(t->device, dev, sizeof dev)},
        {"layout", tsr_layout_name(t->layout)},
        {"shape", shape},
        {"stride", stride},
        {"numel", numel},
        {"element size", elem},
        {"storage offset", off},
        {"storage size", ssz},
        {"contiguity", contiguity(t, cont, sizeof cont)},
        {"memory format", tsr_memory_format_name(tsr_tensor_suggest_memory_format(t))},
        {"names", names},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) printf("%-16s%s\n", rows[i].k, rows[i].v);
}

/* ------------------------------------------------------------ :storage */

#define STORAGE_SHOW_MAX 200   /* cells drawn before the middle is elided */
#define STORAGE_EDGE 96        /* cells kept at each end when elided */
#define MARK_WALK_MAX 50000000 /* view elements walked to mark; more: bounds only */

/* How often the view reaches each storage element (saturating at 255). */
static unsigned char *reach_counts(const tsr_tensor *t, int64_t n)
{
    unsigned char *cnt = value_try_realloc(NULL, (size_t)n + 1);
    if (!cnt) return NULL;
    memset(cnt, 0, (size_t)n + 1);
    int64_t numel = tsr_tensor_numel(t);
    if (numel == 0) return cnt;
    if (numel > MARK_WALK_MAX) return cnt;
    int64_t idx[TSR_MAX_DIMS] = {0};
    for (int64_t k = 0; k < numel; k++) {
        int64_t off = t->storage_offset;
        for (int d = 0; d < t->ndim; d++) off += idx[d] * t->strides[d];
        if (off >= 0 && off < n && cnt[off] < 255) cnt[off]++;
        for (int d = t->ndim - 1; d >= 0; d--) {
            if (++idx[d] < t->sizes[d]) break;
            idx[d] = 0;
        }
    }
    return cnt;
}

void show_storage(const tsr_storage *s, tsr_dtype dt, const tsr_tensor *t)
{
    int isz = tsr_dtype_itemsize(dt);
    int64_t n = (int64_t)(s->nbytes / (size_t)isz);
    bool meta = tsr_device_is_meta(s->device) || (!s->data && n);
    char dev[32];
    tsr_device_str(s->device, dev, sizeof dev);
    printf("storage: %" PRId64 " element%s of torch.%s on %s (%zu bytes)\n", n, n == 1 ? "" : "s", tsr_dtype_name(dt),
           dev, s->nbytes);
    unsigned char *cnt = NULL;
    if (t) {
        char shape[512], stride[512];
        ints_str(shape, sizeof shape, t->ndim, t->sizes);
        ints_str(stride, sizeof stride, t->ndim, t->strides);
        cnt = reach_counts(t, n);
        int64_t reached = 0, shared = 0;
        for (int64_t i = 0; cnt && i < n; i++) { reached += cnt[i] != 0; shared += cnt[i] > 1; }
        printf("view: offset %" PRId64 ", shape %s, stride %s reaches %" PRId64 " of them", t->storage_offset, shape,
               stride, reached);
        if (shared) printf(" (%" PRId64 " more than once, marked +)", shared);
        if (tsr_tensor_numel(t) > MARK_WALK_MAX) printf(" (too many elements to mark)");
        printf("\n");
    }
    if (n == 0) { free(cnt); return; }
    /* the cells drawn: all, or both ends around an ellipsis */
    bool elide = n > STORAGE_SHOW_MAX;
    int64_t ncell = elide ? 2 * STORAGE_EDGE + 1 : n;
    char **cells = value_xcalloc((size_t)ncell, sizeof *cells);
    int64_t *at = value_xcalloc((size_t)ncell, sizeof *at);
    int w = 1;
    for (int64_t c = 0; c < ncell; c++) {
        int64_t i = !elide ? c : c < STORAGE_EDGE ? c : c == STORAGE_EDGE ? -1 : n - (ncell - c);
        at[c] = i;
        if (i < 0) { cells[c] = value_xstrdup("..."); continue; }
        if (meta) { cells[c] = value_xstrdup("?"); }
        else {
            Value *str = show_scalar_str(tsr_scalar_load(dt, (char *)s->data + i * isz));
            cells[c] = value_xstrdup(str ? str->u.s.p : "?");
            decref(str);
        }
        char ib[24];
        int il = snprintf(ib, sizeof ib, "%" PRId64, i);
        int l = (int)strlen(cells[c]);
        if (l > w) w = l;
        if (il > w) w = il;
    }
    int per = (78 - 7) / (w + 1);
    if (per < 1) per = 1;
    for (int64_t c0 = 0; c0 < ncell; c0 += per) {
        int64_t c1 = c0 + per < ncell ? c0 + per : ncell;
        printf("%-7s", "index");
        for (int64_t c = c0; c < c1; c++) {
            if (at[c] < 0) printf(" %*s", w, "");
            else printf(" %*" PRId64, w, at[c]);
        }
        printf("\n%-7s", "value");
        for (int64_t c = c0; c < c1; c++) printf(" %*s", w, cells[c]);
        printf("\n");
        if (cnt) {
            char line[4096];
            int m = snprintf(line, sizeof line, "%-7s", "");
            bool any = false;
            for (int64_t c = c0; c < c1 && m < (int)sizeof line - w - 2; c++) {
                char mk = at[c] >= 0 && cnt[at[c]] ? (cnt[at[c]] > 1 ? '+' : '^') : ' ';
                any |= mk != ' ';
                m += snprintf(line + m, sizeof line - (size_t)m, " %*s", w, "");
                if (mk != ' ') memset(line + m - w, mk, (size_t)w);
            }
            while (m > 0 && line[m - 1] == ' ') line[--m] = 0;
            if (any) printf("%s\n", line);
        }
    }
    for (int64_t c = 0; c < ncell; c++) free(cells[c]);
    free(cells);
    free(at);
    free(cnt);
}
