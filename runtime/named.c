/* runtime/named.c — names on tensors (SEMANTICS.md §2): setting and
 * validating a tensor's names, propagating computed names to a result or an
 * out= tensor, the elementwise ops' unify, resize_ and factory checks. The
 * algorithms on plain name arrays are runtime/names.c's. */
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "internal.h"
#include "named.h"

#define LIST_CAP 1024
static const char *fmt_list(char *buf, const tsr_name *names, int n)
{
    tsr_names_format(buf, LIST_CAP, names, n);
    return buf;
}


/* c10's TensorImpl warns once per process when a tensor first gets names */
static enum { NOT_YET, PENDING, TAKEN } named_warning;

static void warn_once(void)
{
    if (named_warning == NOT_YET) named_warning = PENDING;
}

const char *tsr_names_warning_take(void)
{
    if (named_warning != PENDING) return NULL;
    named_warning = TAKEN;
    return "Named tensors and all their associated APIs are an experimental feature and subject to change. Please "
           "do not use them for anything important until they are released as stable. (Triggered internally at  "
           "./c10/core/TensorImpl.h:1758.)";
}

int tsr_tensor_set_names(tsr_tensor *t, const tsr_name *names, int n)
{
    if (!names) {
        tsr_free((void *)t->names);
        t->names = NULL;
        return 0;
    }
    if (n != t->ndim) {
        char b[LIST_CAP];
        tsr_error_set(TSR_ERR_RUNTIME, "Number of names (%d) and number of dimensions in tensor (%d) do not match. "
                      "Attempted to create a tensor with names %s", n, t->ndim, fmt_list(b, names, n));
        return -1;
    }
    if (tsr_names_check_unique(names, n) < 0) return -1;
    if (!tsr_names_any(names, n)) return tsr_tensor_set_names(t, NULL, 0);
    warn_once();
    if (!t->names) {
        const char **p = tsr_malloc(sizeof *p * (size_t)(n ? n : 1));
        if (!p) return -1;
        t->names = p;
    }
    if (t->names != names) memmove((void *)t->names, names, sizeof *names * (size_t)n);
    return 0;
}

int tsr_names_propagate(tsr_tensor *result, const tsr_name *names, int n)
{
    if (!result || result->ndim == 0 || n != result->ndim) return 0;
    /* propagate_names_if_nonempty: nothing to give when every name is None
     * (a result still under the fallback keeps it, tsr_names_keep_fallback) */
    if (!tsr_names_any(names, n) && !tsr_names_any(result->names, n)) return 0;
    return tsr_tensor_set_names(result, names, n);
}

int tsr_names_check_out(const tsr_tensor *out, const tsr_name *computed, int n)
{
    if (!out || !tsr_names_any(out->names, out->ndim)) return 0;
    bool same = out->ndim == n;
    for (int i = 0; same && i < n; i++) same = out->names[i] == (computed ? computed[i] : NULL);
    if (same) return 0;
    char a[LIST_CAP], b[LIST_CAP];
    tsr_error_set(TSR_ERR_RUNTIME, "Name mismatch: specified out tensor with names %s are not the same as the "
                  "computed output names %s. Please rename the out tensor's dims with `Tensor.rename`.",
                  fmt_list(a, out->names, out->ndim), fmt_list(b, computed, n));
    return -1;
}

int tsr_names_elementwise(int nin, const tsr_tensor *const *in, const tsr_tensor *out, int nd, tsr_name *names,
                          bool *named)
{
    bool any = out && out->names;
    for (int k = 0; k < nin && !any; k++) any = in[k] && in[k]->names;
    *named = any;
    if (!any) {
        for (int i = 0; i < nd; i++) names[i] = NULL;
        return 0;
    }
    int have = -1;
    tsr_name tmp[TSR_MAX_NAMED_DIMS];
    for (int k = 0; k < nin; k++) {
        const tsr_tensor *t = in[k];
        if (!t) continue;
        if (have < 0) {
            for (int i = 0; i < t->ndim; i++) names[i] = t->names ? t->names[i] : NULL;
            have = t->ndim;
            continue;
        }
        if (tsr_names_unify(names, have, t->names, t->ndim, "broadcast", tmp) < 0) return -1;
        have = have > t->ndim ? have : t->ndim;
        memcpy(names, tmp, sizeof *tmp * (size_t)have);
    }
    if (have < 0) have = 0;
    if (have != nd) {   /* cannot happen after broadcasting; keep the names honest */
        for (int i = 0; i < nd; i++) names[i] = NULL;
        have = nd;
    }
    return tsr_names_check_out(out, names, nd);
}

int tsr_names_check_resize(const tsr_tensor *t, int nd, const int64_t *sizes)
{
    bool same = t->ndim == nd;
    for (int i = 0; same && i < nd; i++) same = t->sizes[i] == sizes[i];
    if (same || !tsr_names_any(t->names, t->ndim)) return 0;
    char a[LIST_CAP], x[LIST_CAP], y[LIST_CAP];
    size_t m = 0, k = 0;
    m += (size_t)snprintf(x + m, sizeof x - m, "[");
    for (int i = 0; i < t->ndim && m < sizeof x; i++)
        m += (size_t)snprintf(x + m, sizeof x - m, "%s%lld", i ? ", " : "", (long long)t->sizes[i]);
    if (m < sizeof x) snprintf(x + m, sizeof x - m, "]");
    k += (size_t)snprintf(y + k, sizeof y - k, "[");
    for (int i = 0; i < nd && k < sizeof y; i++)
        k += (size_t)snprintf(y + k, sizeof y - k, "%s%lld", i ? ", " : "", (long long)sizes[i]);
    if (k < sizeof y) snprintf(y + k, sizeof y - k, "]");
    tsr_error_set(TSR_ERR_RUNTIME, "Cannot resize named tensor with resize_ or resize_as_ (tried to resize "
                  "Tensor%s with size %s to %s). This may be caused by passing a named tensor as an `out=` "
                  "argument; please ensure that the sizes are the same. ", fmt_list(a, t->names, t->ndim), x, y);
    return -1;
}

int tsr_names_check_factory(const tsr_tensor *t)
{
    if (!tsr_tensor_is_meta(t)) return 0;
    tsr_error_set(TSR_ERR_RUNTIME, "NYI: named tensors only support CPU and CUDA tensors");
    return -1;
}

int tsr_names_check_factory_layout(const char *factory, tsr_layout layout)
{
    if (layout == TSR_LAYOUT_STRIDED) return 0;
    if (layout == TSR_LAYOUT_SPARSE_COO && (!strcmp(factory, "zeros") || !strcmp(factory, "ones") ||
                                            !strcmp(factory, "full"))) {
        tsr_error_set(TSR_ERR_RUNTIME, "full(...) is not implemented for sparse layout");
        return -1;
    }
    tsr_error_set(TSR_ERR_RUNTIME, "NYI: named tensors only support strided layout");
    return -1;
}

int tsr_names_cosine_similarity(const tsr_tensor *a, const tsr_tensor *b, int64_t dim, tsr_name *out, int *n)
{
    *n = -1;
    if (!a->names && !b->names) return 0;
    /* 1.13 expands both to the broadcast shape first: new leading dims are None */
    int nd = a->ndim > b->ndim ? a->ndim : b->ndim;
    if (nd > TSR_MAX_NAMED_DIMS) return 0;
    tsr_name u[TSR_MAX_NAMED_DIMS], pa[TSR_MAX_NAMED_DIMS], pb[TSR_MAX_NAMED_DIMS];
    for (int i = 0; i < nd; i++) {
        int ia = i - (nd - a->ndim), ib = i - (nd - b->ndim);
        pa[i] = ia >= 0 && a->names ? a->names[ia] : NULL;
        pb[i] = ib >= 0 && b->names ? b->names[ib] : NULL;
    }
    if (tsr_names_unify(pa, nd, pb, nd, "broadcast", u) < 0) return -1;
    int64_t d = dim < 0 ? dim + nd : dim;
    if (d < 0 || d >= nd) return 0;
    bool removed[TSR_MAX_NAMED_DIMS] = {false};
    removed[d] = true;
    *n = tsr_names_remove(u, nd, removed, out);
    return 0;
}

int tsr_names_propagate_raw(tsr_tensor *result, const tsr_name *names, int n)
{
    if (!result || result->ndim == 0 || n != result->ndim) return 0;
    if (!tsr_names_any(names, n)) return tsr_tensor_set_names(result, NULL, 0);
    if (!result->names) {
        const char **p = tsr_malloc(sizeof *p * (size_t)n);
        if (!p) return -1;
        result->names = p;
    }
    memmove((void *)result->names, names, sizeof *names * (size_t)n);
    return 0;
}

/* a named tensor may be "resized" to its own shape only, and keeps its names */
tsr_tensor *tsr_tensor_resized_format(const tsr_tensor *t, int n, const int64_t *sizes, bool has_mf,
                                      tsr_memory_format mf)
{
    if (t->names && tsr_names_check_resize(t, n, sizes) < 0) return NULL;
    tsr_tensor *r = tsr__resized_format(t, n, sizes, has_mf, mf);
    if (r && t->names && tsr_tensor_set_names(r, t->names, t->ndim) < 0) {
        tsr_tensor_release(r);
        return NULL;
    }
    return r;
}

int tsr_names_keep_fallback(tsr_tensor *t)
{
    if (!t || t->ndim == 0) return 0;
    const char **p = tsr_malloc(sizeof *p * (size_t)t->ndim);
    if (!p) return -1;
    for (int i = 0; i < t->ndim; i++) p[i] = NULL;
    tsr_free((void *)t->names);
    t->names = p;
    return 0;
}

int tsr_names_check_print(const tsr_tensor *t, bool summarize)
{
    if (!t->names || tsr_names_any(t->names, t->ndim) || tsr_tensor_is_meta(t) || tsr_tensor_numel(t) == 0) return 0;
    /* _tensor_str: complex values print from self.real (view_as_real); half
     * and bfloat16 from self.float(), a new tensor; a summarized print
     * from slices joined by cat; the rest from the formatter's
     * tensor.reshape(-1), a view (_reshape_alias) unless it must copy */
    if (tsr_dtype_is_complex(t->dtype)) return tsr_names_refuse("aten::view_as_real");
    if (t->dtype == TSR_FLOAT16 || t->dtype == TSR_BFLOAT16 || summarize) return 0;
    /* computeStride to one dim (numel > 0): the dims other than size 1 must
     * chain, each stride the next one's times its size */
    int64_t want = -1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        if (t->sizes[d] == 1) continue;
        if (want >= 0 && t->strides[d] != want) return 0;
        want = t->strides[d] * t->sizes[d];
    }
    return tsr_names_refuse("aten::_reshape_alias");
}
