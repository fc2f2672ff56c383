/* src/bind/factory.c — tensor creation as the language sees it: torch.tensor,
 * as_tensor, asarray (tensor_new.cpp's inference and stores), zeros/ones/full/empty/arange/
 * linspace/logspace/eye/empty_strided, the *_like and new_* families, and
 * Torch7's legacy constructors (torch.FloatTensor(3, 4), x.new(...)).
 * Argument errors use python_arg_parser's wording (SEMANTICS.md §1.6, §7). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/factory.h"
#include "bind/areas.h"

/* ------------------------------------------------------------ arguments */

/* Python type names as python_arg_parser prints them. */
static const char *pytype(Value *v)
{
    if (v->type == &t_type) return "type";
    return type_name(v);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* "f() received an invalid combination of arguments - got (int, foo=int),
 * but expected one of:\n * (sig)\n..."; keywords sorted as PyTorch's map. */
static Value *combo(const char *fname, CallArgs *a, const char *const *sigs)
{
    char buf[2048] = "";   /* stays empty when there are no arguments at all */
    size_t n = 0;
    for (int i = 0; i < a->npos && n < sizeof buf - 128; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? ", " : "", pytype(a->pos[i]));
    const char *kws[32];
    int nk = a->nkw < 32 ? a->nkw : 32;
    char kwtxt[32][96];
    for (int i = 0; i < nk; i++) {
        snprintf(kwtxt[i], sizeof kwtxt[i], "%s=%s", a->kwnames[i], pytype(a->kw[i]));
        kws[i] = kwtxt[i];
    }
    qsort(kws, (size_t)nk, sizeof *kws, cmp_str);
    for (int i = 0; i < nk && n < sizeof buf - 128; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", (i || a->npos) ? ", " : "", kws[i]);
    if (nk && !a->npos && n < sizeof buf - 4) n += (size_t)snprintf(buf + n, sizeof buf - n, ", ");
    char msg[4096];
    size_t m = (size_t)snprintf(msg, sizeof msg,
                                "%s() received an invalid combination of arguments - got (%s), but expected one of:\n",
                                fname, buf);
    for (int i = 0; sigs && sigs[i] && m < sizeof msg - 8; i++)
        m += (size_t)snprintf(msg + m, sizeof msg - m, " * %s\n", sigs[i]);
    return exc_set("TypeError", "%s", msg);
}

typedef struct {
    char name[24];
    bool optional, kwonly;
} TParam;

/* A single-signature parse with python_arg_parser's messages. spec as
 * bind_args ("input, fill_value, *, dtype="); out[i] borrowed or NULL;
 * pos[i] is the 1-based position the argument came at, 0 for a keyword. */
static int targs(CallArgs *a, const char *fname, const char *spec, Value **out, int *pos)
{
    TParam ps[24];
    int n = 0, npos = 0, nreq = 0;
    bool kwonly = false;
    for (const char *p = spec; *p && n < 24;) {
        while (*p == ' ' || *p == ',') p++;
        if (!*p) break;
        size_t len = strcspn(p, ",");
        const char *e = p + len;
        while (len && p[len - 1] == ' ') len--;
        if (len == 1 && *p == '*') { kwonly = true; p = e; continue; }
        TParam *q = &ps[n++];
        q->optional = len && p[len - 1] == '=';
        if (q->optional) len--;
        snprintf(q->name, sizeof q->name, "%.*s", (int)len, p);
        q->kwonly = kwonly;
        if (!kwonly) { npos++; if (!q->optional) nreq++; }
        p = e;
    }
    for (int i = 0; i < n; i++) { out[i] = NULL; if (pos) pos[i] = 0; }
    if (a->npos > npos) {
        if (nreq != npos)
            return exc_seti("TypeError", "%s() takes from %d to %d positional arguments but %d were given", fname,
                            nreq, npos, a->npos);
        return exc_seti("TypeError", "%s() takes %d positional argument%s but %d %s given", fname, npos,
                        npos == 1 ? "" : "s", a->npos, a->npos == 1 ? "was" : "were");
    }
    for (int i = 0; i < a->npos; i++) { out[i] = a->pos[i]; if (pos) pos[i] = i + 1; }
    for (int j = 0; j < a->nkw; j++) {
        int idx = -1;
        for (int i = 0; i < n; i++)
            if (!strcmp(ps[i].name, a->kwnames[j])) idx = i;
        if (idx < 0) return exc_seti("TypeError", "%s() got an unexpected keyword argument '%s'", fname, a->kwnames[j]);
        if (out[idx]) return exc_seti("TypeError", "%s() got multiple values for argument '%s'", fname, a->kwnames[j]);
        out[idx] = a->kw[j];
    }
    char missing[256];
    size_t mn = 0;
    int nmiss = 0;
    missing[0] = 0;
    for (int i = 0; i < n; i++) {
        if (out[i] || ps[i].optional || ps[i].kwonly) continue;
        mn += (size_t)snprintf(missing + mn, sizeof missing - mn, "%s\"%s\"", nmiss ? ", " : "", ps[i].name);
        nmiss++;
    }
    /* python_arg_parser.cpp pluralizes backwards: "1 required positional arguments" */
    if (nmiss)
        return exc_seti("TypeError", "%s() missing %d required positional argument%s: %s", fname, nmiss,
                        nmiss == 1 ? "s" : "", missing);
    return 0;
}

static int argerr(const char *fname, const char *arg, int pos, const char *want, Value *v)
{
    if (pos) return exc_seti("TypeError", "%s(): argument '%s' (position %d) must be %s, not %s", fname, arg, pos, want, pytype(v));
    return exc_seti("TypeError", "%s(): argument '%s' must be %s, not %s", fname, arg, want, pytype(v));
}

/* A dtype argument: torch.dtype, None, or the Python types int/float/bool/complex. */
static int dtype_arg(Value *v, const char *fname, int pos, tsr_dtype *out)
{
    if (!v || is_none(v)) return 0;
    if (is_dtype(v)) { *out = dtype_of(v); return 0; }
    if (v->type == &t_type) {
        const VType *t = v->u.typeobj;
        if (t == &t_int) { *out = TSR_INT64; return 0; }
        if (t == &t_float) { *out = TSR_FLOAT64; return 0; }
        if (t == &t_bool) { *out = TSR_BOOL; return 0; }
        if (t == &t_complex) { *out = TSR_COMPLEX128; return 0; }
    }
    return argerr(fname, "dtype", pos, "torch.dtype", v);
}

/* Creation options shared by the factories. */
typedef struct {
    tsr_dtype dtype;           /* UNDEFINED: the function's default */
    tsr_device device;
    bool requires_grad;
    Value *out;                /* borrowed tensor value or NULL */
    Value *names;              /* borrowed, NULL or None when absent */
    tsr_memory_format mf;
    bool keep_numel;           /* out= keeps its shape when the count fits (ranges) */
} Opts;

enum { K_DTYPE, K_LAYOUT, K_DEVICE, K_PIN, K_RG, K_OUT, K_NAMES, K_MF, K_N };
static const char *const kw_names[K_N] = {"dtype", "layout", "device", "pin_memory", "requires_grad",
                                          "out", "names", "memory_format"};

/* Fills o from the option values kv[K_*] (borrowed, NULL when absent);
 * dflt_dev is used when no device is given. Type errors become the
 * invalid-combination message when sigs is not NULL. */
static int opts_parse(Value **kv, const char *fname, CallArgs *a, const char *const *sigs, tsr_device dflt_dev, Opts *o)
{
    o->dtype = TSR_DTYPE_UNDEFINED;
    o->device = dflt_dev;
    o->requires_grad = false;
    o->out = NULL;
    o->names = NULL;
    o->mf = TSR_MF_CONTIGUOUS;
    o->keep_numel = false;
    bool bad = false;
    if (kv[K_DTYPE] && !is_none(kv[K_DTYPE])) {
        if (dtype_arg(kv[K_DTYPE], fname, 0, &o->dtype) < 0) { if (!sigs) return -1; exc_clear(); bad = true; }
    }
    if (kv[K_LAYOUT] && !is_none(kv[K_LAYOUT])) {
        if (kv[K_LAYOUT]->type != &t_layout) {
            if (!sigs) return argerr(fname, "layout", 0, "torch.layout", kv[K_LAYOUT]);
            bad = true;
        } else if (kv[K_LAYOUT]->u.ext.a != TSR_LAYOUT_STRIDED && !(kv[K_OUT] && is_tensor(kv[K_OUT]))) {
            return exc_seti("NotImplementedError", "tsr: %s(): only the strided layout is supported, not %s", fname,
                            tsr_layout_name((tsr_layout)kv[K_LAYOUT]->u.ext.a));
        }
    }
    if (kv[K_DEVICE] && !is_none(kv[K_DEVICE])) {
        Value *d = kv[K_DEVICE];
        if (d->type != &t_str && d->type != &t_int && !is_device(d)) {
            if (!sigs) return argerr(fname, "device", 0, "torch.device", d);
            bad = true;
        } else if (bind_device_arg(d, dflt_dev, &o->device) < 0) {
            return -1;
        }
    }
    if (kv[K_RG] && !is_none(kv[K_RG])) {
        if (kv[K_RG]->type != &t_bool) {
            if (!sigs) return argerr(fname, "requires_grad", 0, "bool", kv[K_RG]);
            bad = true;
        } else o->requires_grad = kv[K_RG]->u.i != 0;
    } else if (kv[K_RG] && !sigs) {
        return argerr(fname, "requires_grad", 0, "bool", kv[K_RG]);
    }
    if (kv[K_PIN] && !is_none(kv[K_PIN])) {
        if (kv[K_PIN]->type != &t_bool) {
            if (!sigs) return argerr(fname, "pin_memory", 0, "bool", kv[K_PIN]);
            bad = true;
        } else if (kv[K_PIN]->u.i) {
            if (bad) { combo(fname, a, sigs); return -1; }
            return exc_seti("RuntimeError",
                            "Pinned memory requires CUDA. PyTorch splits its backend into two shared libraries: a CPU "
                            "library and a CUDA library; this error has occurred because you are trying to use some "
                            "CUDA functionality, but the CUDA library has not been loaded by the dynamic linker for "
                            "some reason.  The CUDA library MUST be loaded, EVEN IF you don't directly use any symbols "
                            "from the CUDA library! One common culprit is a lack of -Wl,--no-as-needed in your link "
                            "arguments; many dynamic linkers will delete dynamic library dependencies if you don't "
                            "depend on any of their symbols.  You can check if this has occurred by using ldd on your "
                            "binary to see if there is a dependency on *_cuda.so library.");
        }
    }
    if (kv[K_OUT] && !is_none(kv[K_OUT])) {
        if (!is_tensor(kv[K_OUT])) {
            if (!sigs) return argerr(fname, "out", 0, "Tensor", kv[K_OUT]);
            bad = true;
        } else o->out = kv[K_OUT];
    }
    if (kv[K_NAMES] && !is_none(kv[K_NAMES])) o->names = kv[K_NAMES];
    if (kv[K_MF] && !is_none(kv[K_MF])) {
        if (kv[K_MF]->type != &t_memory_format) {
            if (!sigs) return argerr(fname, "memory_format", 0, "torch.memory_format", kv[K_MF]);
            bad = true;
        } else o->mf = (tsr_memory_format)kv[K_MF]->u.ext.a;
    }
    if (bad) { combo(fname, a, sigs); return -1; }
    if (o->out) {
        tsr_tensor *ot = tensor_of(o->out);
        bool has_dev = kv[K_DEVICE] && !is_none(kv[K_DEVICE]);
        tsr_layout lay = kv[K_LAYOUT] && !is_none(kv[K_LAYOUT]) ? (tsr_layout)kv[K_LAYOUT]->u.ext.a : ot->layout;
        if (tsr_check_out_options(ot, o->dtype != TSR_DTYPE_UNDEFINED ? &o->dtype : NULL, &lay,
                                  has_dev ? &o->device : NULL) < 0)
            return bind_runtime_errori();
        o->dtype = ot->dtype;
        if (!has_dev) o->device = ot->device;
    }
    o->device = tsr_device_normalize(o->device);
    return 0;
}

/* Splits a call into positional arguments (kept in a) and the option
 * keywords of `allowed` (a bitmask over K_*), plus up to 4 other named
 * keywords (`extra`, NULL-terminated) into ev[]. Returns 1 when a keyword is
 * unknown or repeated (the caller decides which message), else 0. */
static int split_kw(CallArgs *a, unsigned allowed, const char *const *extra, Value **kv, Value **ev)
{
    for (int i = 0; i < K_N; i++) kv[i] = NULL;
    for (int i = 0; extra && extra[i]; i++) ev[i] = NULL;
    for (int j = 0; j < a->nkw; j++) {
        Value **slot = NULL;
        for (int i = 0; i < K_N; i++)
            if ((allowed >> i & 1) && !strcmp(kw_names[i], a->kwnames[j])) slot = &kv[i];
        for (int i = 0; extra && extra[i]; i++)
            if (!strcmp(extra[i], a->kwnames[j])) slot = &ev[i];
        if (!slot || *slot) return 1;
        *slot = a->kw[j];
    }
    return 0;
}

/* The runtime's pending error as an exception. An allocation failure gets
 * the CAFFE_ENFORCE prefix that 1.13's alloc_cpu.cpp puts before it. */
static Value *rt_error(void)
{
    if (tsr_error_kind() == TSR_ERR_MEMORY && !strncmp(tsr_error_message(), "DefaultCPUAllocator", 19)) {
        exc_set("RuntimeError", "[enforce fail at alloc_cpu.cpp:75] err == 0. %s", tsr_error_message());
        tsr_error_clear();
        return NULL;
    }
    return bind_runtime_error();
}

#define KB(k) (1u << (k))
#define K_COMMON (KB(K_DTYPE) | KB(K_LAYOUT) | KB(K_DEVICE) | KB(K_PIN) | KB(K_RG))

/* Wraps a new tensor into a value after the options that apply to results:
 * requires_grad, names, out= (steals r). */
static Value *finish(tsr_tensor *r, Opts *o)
{
    if (!r) return rt_error();
    if (o->requires_grad) {
        if (!tsr_dtype_is_floating(r->dtype) && !tsr_dtype_is_complex(r->dtype)) {
            tsr_tensor_release(r);
            return exc_set("RuntimeError", "Only Tensors of floating point and complex dtype can require gradients");
        }
        r->requires_grad = true;
    }
    if (o->out) {
        int rc = tsr_factory_out(tensor_of(o->out), r, o->keep_numel);
        tsr_tensor_release(r);
        if (rc < 0) return bind_runtime_error();
        return incref(o->out);
    }
    Value *v = v_tensor(r);
    if (v && o->names && value_setattr(v, "names", o->names) < 0) CLEAR(v);
    return v;
}

/* ------------------------------------------------------------ torch.tensor */

static bool is_str(Value *v) { return v->type == &t_str; }

/* c10::promoteTypes (SEMANTICS.md §1.2) by its rules: bool is the identity,
 * uint8 x int8 is int16, float16 x bfloat16 is float32, complex wins with
 * the promoted real part. */
static tsr_dtype promote(tsr_dtype a, tsr_dtype b)
{
    if (a == b || b == TSR_BOOL) return a;
    if (a == TSR_BOOL) return b;
    bool ca = tsr_dtype_is_complex(a), cb = tsr_dtype_is_complex(b);
    if (ca || cb) return tsr_dtype_to_complex(promote(tsr_dtype_to_real(a), tsr_dtype_to_real(b)));
    bool fa = tsr_dtype_is_floating(a), fb = tsr_dtype_is_floating(b);
    if (fa && fb) {
        if ((a == TSR_FLOAT16 && b == TSR_BFLOAT16) || (a == TSR_BFLOAT16 && b == TSR_FLOAT16)) return TSR_FLOAT32;
        return tsr_dtype_itemsize(a) >= tsr_dtype_itemsize(b) ? a : b;
    }
    if (fa) return a;
    if (fb) return b;
    if ((a == TSR_UINT8 && b == TSR_INT8) || (a == TSR_INT8 && b == TSR_UINT8)) return TSR_INT16;
    return tsr_dtype_itemsize(a) >= tsr_dtype_itemsize(b) ? a : b;
}

/* PySequence_Check as tensor_new.cpp meets it: lists, tuples, Size, range,
 * storages and strings (a Tensor is not one there). */
static bool is_pyseq(Value *v)
{
    return v->type == &t_list || v->type == &t_tuple || v->type == &t_size || v->type == &t_range ||
           is_storage(v) || is_str(v);
}

static int64_t pyseq_len(Value *v)
{
    if (is_storage(v)) return storage_len(v);
    if (v->type == &t_range || is_str(v)) return value_len(v);
    return (int64_t)seq_len(v);
}

/* Item i of a sequence, or row i of a tensor; new reference. */
static Value *pyseq_item(Value *v, int64_t i)
{
    if (is_storage(v)) return storage_item(v, i);
    if (v->type == &t_range) return v_int(v->u.range.start + i * v->u.range.step);
    if (is_str(v)) return v_strn(v->u.s.p + i, 1);
    if (is_tensor(v)) return v_tensor(tsr_view_select(tensor_of(v), 0, i));
    return incref(seq_get(v, (size_t)i));
}

static int infer_dtype(Value *v, tsr_dtype *out)
{
    if (v->type == &t_float) { *out = tsr_default_dtype(); return 0; }
    if (v->type == &t_int) { *out = TSR_INT64; return 0; }
    if (v->type == &t_bool) { *out = TSR_BOOL; return 0; }
    if (v->type == &t_complex) {
        /* tensor_new.cpp asks for the default complex type, which has none for Half */
        if (tsr_default_dtype() == TSR_FLOAT16)
            return exc_seti("RuntimeError", "invalid default scalar type for complex");
        *out = tsr_dtype_to_complex(tsr_default_dtype());
        return 0;
    }
    if (is_tensor(v)) { *out = tensor_of(v)->dtype; return 0; }
    if (is_str(v)) return exc_seti("TypeError", "new(): invalid data type 'str'");
    if (is_storage(v)) { *out = storage_dtype(v); return 0; }   /* every element has it */
    if (is_pyseq(v)) {
        int64_t n = pyseq_len(v);
        if (n == 0) { *out = tsr_default_dtype(); return 0; }
        /* a cycle through other lists is a RecursionError here (1.13 overflows its stack) */
        if (eval_depth > MAX_EVAL_DEPTH) return exc_seti("RecursionError", "maximum recursion depth exceeded");
        tsr_dtype acc = TSR_DTYPE_UNDEFINED;
        for (int64_t i = 0; i < n; i++) {
            Value *it = pyseq_item(v, i);
            if (!it) return -1;
            if (it == v) {   /* infer_scalar_type (tensor_new.cpp) */
                decref(it);
                return exc_seti("TypeError", "new(): self-referential lists are incompatible");
            }
            tsr_dtype d;
            eval_depth++;
            int rc = infer_dtype(it, &d);
            eval_depth--;
            decref(it);
            if (rc < 0) return -1;
            acc = acc == TSR_DTYPE_UNDEFINED ? d : promote(acc, d);
            if (acc == TSR_COMPLEX128) break;
        }
        *out = acc;
        return 0;
    }
    return exc_seti("RuntimeError", "Could not infer dtype of %s", pytype(v));
}

static int compute_sizes(Value *data, int *ndim, int64_t *sizes)
{
    int n = 0;
    Value *v = incref(data);
    while (is_pyseq(v)) {
        if (is_str(v) || n >= TSR_MAX_DIMS) {
            exc_set("ValueError", "too many dimensions '%s'", pytype(v));
            decref(v);
            return -1;
        }
        int64_t len = pyseq_len(v);
        sizes[n++] = len;
        if (len == 0) break;
        Value *next = pyseq_item(v, 0);
        decref(v);
        if (!next) return -1;
        v = next;
    }
    decref(v);
    *ndim = n;
    return 0;
}

/* c10::checked_convert's bound check as tensor_new.cpp names the types. */
static int check_integral(double x, bool is_float, int64_t i, tsr_dtype d)
{
    tsr_iinfo ii;
    if (tsr_dtype_iinfo(d, &ii) < 0) return bind_runtime_errori();
    /* an unsigned type accepts -max..max */
    double lo = ii.min ? (double)ii.min : -(double)ii.max, hi = (double)ii.max;
    bool bad;
    if (is_float) bad = !(x >= lo && x <= hi) || (d == TSR_INT64 && x >= 9223372036854775808.0);
    else bad = d != TSR_INT64 && (i < (int64_t)lo || i > (int64_t)hi);
    if (bad) return exc_seti("RuntimeError", "value cannot be converted to type %s without overflow", tsr_dtype_name(d));
    return 0;
}

/* Tensor.__index__ / __float__ / __complex__ of a tensor met as a scalar. */
static int tensor_scalar(Value *v, bool index, tsr_scalar *s)
{
    tsr_tensor *t = tensor_of(v);
    if (index) {
        if (!tsr_dtype_is_integral(t->dtype, true) || tsr_tensor_numel(t) != 1)
            return exc_seti("TypeError", "only integer tensors of a single element can be converted to an index");
    } else if (tsr_tensor_numel(t) != 1) {
        return exc_seti("ValueError", "only one element tensors can be converted to Python scalars");
    }
    if (tsr_tensor_is_meta(t))
        return exc_seti("NotImplementedError",
                        "Could not run 'aten::_local_scalar_dense' with arguments from the 'Meta' backend. This could "
                        "be because the operator doesn't exist for this backend, or was omitted during the "
                        "selective/custom build process (if using custom build).");
    if (tsr_tensor_get_at(t, 0, s) < 0) return bind_runtime_errori();
    return 0;
}

/* store_scalar (torch/csrc/utils/python_scalars.h): one Python value into
 * element p of dtype d. */
static int store_scalar(void *p, tsr_dtype d, Value *v)
{
    tsr_scalar s;
    if (tsr_dtype_is_integral(d, false) || d == TSR_BOOL) {
        if (v->type == &t_float) {
            if (d == TSR_BOOL) s = tsr_scalar_bool(v->u.f != 0);
            else {
                if (check_integral(v->u.f, true, 0, d) < 0) return -1;
                s = tsr_scalar_int((int64_t)v->u.f);
            }
        } else if (d == TSR_BOOL && v->type == &t_complex) {
            s = tsr_scalar_bool(v->u.c.re != 0 || v->u.c.im != 0);
        } else if (is_int_like(v)) {
            if (d != TSR_BOOL && check_integral(0, false, v->u.i, d) < 0) return -1;
            s = tsr_scalar_int(v->u.i);
        } else if (is_tensor(v)) {
            if (tensor_scalar(v, true, &s) < 0) return -1;
            if (d != TSR_BOOL && check_integral(0, false, tsr_scalar_to_int64(s), d) < 0) return -1;
        } else {
            return exc_seti("TypeError", "'%s' object cannot be interpreted as an integer", pytype(v));
        }
    } else if (tsr_dtype_is_complex(d)) {
        if (v->type == &t_complex) s = tsr_scalar_complex(v->u.c.re, v->u.c.im);
        else if (v->type == &t_float) s = tsr_scalar_float(v->u.f);
        else if (is_int_like(v)) s = tsr_scalar_float((double)v->u.i);
        else if (is_tensor(v)) { if (tensor_scalar(v, false, &s) < 0) return -1; }
        else return exc_seti("TypeError", "must be real number, not %s", pytype(v));
    } else {
        if (v->type == &t_float) s = tsr_scalar_float(v->u.f);
        else if (is_int_like(v)) s = tsr_scalar_float((double)v->u.i);
        else if (is_tensor(v)) {
            if (tensor_scalar(v, false, &s) < 0) return -1;
            if (s.kind == TSR_SCALAR_COMPLEX && s.im != 0)   /* item<double>(): c10::checked_convert */
                return exc_seti("RuntimeError", "value cannot be converted to type double without overflow");
            s = tsr_scalar_float(tsr_scalar_to_double(s));
        } else return exc_seti("TypeError", "must be real number, not %s", pytype(v));
    }
    tsr_scalar_store(d, p, s);
    return 0;
}

static int recursive_store(char *p, int ndim, const int64_t *sizes, const int64_t *strides, int dim, tsr_dtype d,
                           int isz, Value *v)
{
    if (dim == ndim) return store_scalar(p, d, v);
    int64_t n = sizes[dim], len;
    if (v->type == &t_list || v->type == &t_tuple || v->type == &t_size || v->type == &t_range || is_storage(v) ||
        is_str(v))
        len = pyseq_len(v);
    else if (is_tensor(v) && tensor_of(v)->ndim > 0)
        len = tensor_of(v)->sizes[0];
    else
        return exc_seti("TypeError", "not a sequence");
    if (len != n)
        return exc_seti("ValueError", "expected sequence of length %" PRId64 " at dim %d (got %" PRId64 ")", n, dim, len);
    for (int64_t i = 0; i < n; i++) {
        Value *it = pyseq_item(v, i);
        if (!it) return -1;
        int rc = recursive_store(p, ndim, sizes, strides, dim + 1, d, isz, it);
        decref(it);
        if (rc < 0) return -1;
        p += strides[dim] * isz;
    }
    return 0;
}

tsr_tensor *factory_from_data(Value *data, tsr_dtype dtype)
{
    if (is_str(data)) { exc_set("TypeError", "new(): invalid data type 'str'"); return NULL; }
    if (is_tensor(data)) {
        tsr_tensor *t = tensor_of(data);
        tsr_tensor *r = tsr_to_device(t, t->device, dtype == TSR_DTYPE_UNDEFINED ? t->dtype : dtype, true);
        if (!r) bind_runtime_error();
        return r;
    }
    if (is_storage(data)) {
        /* internal_new_from_data set_()s a typed storage: the tensor shares it */
        tsr_dtype want = dtype != TSR_DTYPE_UNDEFINED ? dtype : tsr_default_dtype();
        if (want != storage_dtype(data)) {
            exc_set("RuntimeError", "Expected a Storage of type %s or an UntypedStorage, but got %s",
                    tsr_dtype_scalar_name(want), tsr_dtype_scalar_name(storage_dtype(data)));
            return NULL;
        }
        int64_t len = storage_len(data);
        tsr_tensor *r = tsr_tensor_from_storage(storage_of(data), 0, 1, &len, NULL, storage_dtype(data));
        if (!r) rt_error();
        return r;
    }
    int ndim;
    int64_t sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    if (compute_sizes(data, &ndim, sizes) < 0) return NULL;
    if (dtype == TSR_DTYPE_UNDEFINED && infer_dtype(data, &dtype) < 0) return NULL;
    tsr_tensor *t = tsr_tensor_empty(ndim, sizes, dtype, TSR_CPU);
    if (!t) { rt_error(); return NULL; }
    if (tsr_tensor_numel(t) == 0) return t;
    tsr_strides_contiguous(ndim, sizes, strides);
    if (recursive_store(tsr_tensor_ptr(t, NULL), ndim, sizes, strides, 0, dtype, tsr_dtype_itemsize(dtype), data) < 0) {
        tsr_tensor_release(t);
        return NULL;
    }
    return t;
}

/* Moves a freshly made CPU tensor to device (steals t). */
static tsr_tensor *to_device(tsr_tensor *t, tsr_device dev)
{
    if (!t || dev.type == TSR_DEV_CPU) return t;
    tsr_tensor *r = tsr_to_device(t, dev, t->dtype, false);
    tsr_tensor_release(t);
    if (!r) bind_runtime_error();
    return r;
}

static Value *f_tensor(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[6];
    int pos[6];
    if (targs(a, "tensor", "data, *, dtype=, device=, requires_grad=, pin_memory=", x, pos) < 0) return NULL;
    Value *kv[K_N] = {0};
    kv[K_DTYPE] = x[1]; kv[K_DEVICE] = x[2]; kv[K_RG] = x[3]; kv[K_PIN] = x[4];
    Opts o;
    if (opts_parse(kv, "tensor", a, NULL, bind_default_device(), &o) < 0) return NULL;
    tsr_tensor *t = factory_from_data(x[0], o.dtype);
    if (!t) return NULL;
    t = to_device(t, o.device);
    if (!t) return NULL;
    return finish(t, &o);
}

/* ------------------------------------------------------------ as_tensor, asarray */

/* The device= of as_tensor/asarray: *has false when absent or None. */
static int opt_device(Value *v, tsr_device dflt, bool *has, tsr_device *out)
{
    *has = v && !is_none(v);
    *out = dflt;
    if (!*has) return 0;
    if (bind_device_arg(v, dflt, out) < 0) return -1;
    *out = tsr_device_normalize(*out);
    return 0;
}

/* A tensor converted as Tensor.to(device, dtype, copy) does; the same value
 * when nothing changes (new reference). */
static Value *tensor_to(Value *v, tsr_device dev, tsr_dtype dt, bool copy)
{
    tsr_tensor *t = tensor_of(v);
    tsr_tensor *r = tsr_to_device(t, dev, dt, copy);
    if (!r) return bind_runtime_error();
    if (r == t) {
        tsr_tensor_release(r);
        return incref(v);
    }
    return v_tensor(r);
}

/* torch.as_tensor(data, *, dtype=None, device=None) (tensor_new.cpp
 * as_tensor): a tensor is returned itself, or converted, sharing memory when
 * dtype and device match; other data is copied as torch.tensor does. */
static Value *f_as_tensor(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[3];
    int pos[3];
    if (targs(a, "as_tensor", "data, *, dtype=, device=", x, pos) < 0) return NULL;
    tsr_dtype dt = TSR_DTYPE_UNDEFINED;
    if (dtype_arg(x[1], "as_tensor", 0, &dt) < 0) return NULL;
    bool has_dev;
    tsr_device dev;
    if (is_tensor(x[0])) {
        tsr_tensor *t = tensor_of(x[0]);
        if (opt_device(x[2], t->device, &has_dev, &dev) < 0) return NULL;
        return tensor_to(x[0], dev, dt == TSR_DTYPE_UNDEFINED ? t->dtype : dt, false);
    }
    if (opt_device(x[2], bind_default_device(), &has_dev, &dev) < 0) return NULL;
    tsr_tensor *t = factory_from_data(x[0], dt);
    if (!t) return NULL;
    t = to_device(t, dev);
    return t ? v_tensor(t) : NULL;
}

/* torch.asarray(obj, *, dtype=None, device=None, copy=None,
 * requires_grad=False) (tensor_new.cpp asarray): a tensor is aliased unless
 * copy=True or (copy=None) its dtype or device differ; copy=False refuses
 * to convert or to alias a sequence. requires_grad is set on the result,
 * which may be obj itself. */
static Value *f_asarray(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[5];
    int pos[5];
    if (targs(a, "asarray", "obj, *, dtype=, device=, copy=, requires_grad=", x, pos) < 0) return NULL;
    tsr_dtype dt = TSR_DTYPE_UNDEFINED;
    if (dtype_arg(x[1], "asarray", 0, &dt) < 0) return NULL;
    bool has_copy = x[3] && !is_none(x[3]), copy = false, rg = false;
    if (has_copy) {
        if (x[3]->type != &t_bool) return argerr("asarray", "copy", 0, "bool", x[3]) ? NULL : NULL;
        copy = x[3]->u.i != 0;
    }
    if (x[4] && !is_none(x[4])) {
        if (x[4]->type != &t_bool) return argerr("asarray", "requires_grad", 0, "bool", x[4]) ? NULL : NULL;
        rg = x[4]->u.i != 0;
    }
    bool has_dev;
    tsr_device dev;
    Value *r;
    if (is_tensor(x[0])) {
        tsr_tensor *t = tensor_of(x[0]);
        if (opt_device(x[2], t->device, &has_dev, &dev) < 0) return NULL;
        bool wrong_dev = has_dev && (dev.type != t->device.type || dev.index != t->device.index);
        bool wrong_dt = dt != TSR_DTYPE_UNDEFINED && dt != t->dtype;
        if (copy || (!has_copy && (wrong_dev || wrong_dt))) {
            if (wrong_dev || wrong_dt) {
                r = tensor_to(x[0], dev, dt == TSR_DTYPE_UNDEFINED ? t->dtype : dt, copy);
            } else {
                tsr_tensor *c = tsr_clone(t, TSR_MF_PRESERVE);
                r = c ? v_tensor(c) : bind_runtime_error();
            }
            if (!r) return NULL;
        } else {
            char s1[32], s2[32];
            if (wrong_dev)
                return exc_set("ValueError", "can't alias tensor from device '%s' to '%s'.",
                               tsr_device_str(t->device, s1, sizeof s1), tsr_device_str(dev, s2, sizeof s2));
            if (wrong_dt)
                return exc_set("ValueError", "can't alias tensor with dtype '%s' into dtype '%s'.",
                               tsr_dtype_scalar_name(t->dtype), tsr_dtype_scalar_name(dt));
            r = incref(x[0]);
        }
    } else {
        if (has_copy && !copy) return exc_set("ValueError", "can't alias arbitrary sequence into a tensor.");
        if (opt_device(x[2], bind_default_device(), &has_dev, &dev) < 0) return NULL;
        tsr_tensor *t = factory_from_data(x[0], dt);
        if (!t) return NULL;
        t = to_device(t, dev);
        if (!t) return NULL;
        r = v_tensor(t);
        if (!r) return NULL;
    }
    tsr_tensor *rt = tensor_of(r);
    if (rg && !tsr_dtype_is_floating(rt->dtype) && !tsr_dtype_is_complex(rt->dtype)) {
        decref(r);
        return exc_set("RuntimeError", "Only Tensors of floating point and complex dtype can require gradients");
    }
    rt->requires_grad = rg;
    return r;
}

/* ------------------------------------------------------------ zeros, ones, full, empty */

static const char *const sigs_zeros[] = {
    "(tuple of ints size, *, tuple of names names, torch.dtype dtype, torch.layout layout, torch.device device, bool pin_memory, bool requires_grad)",
    "(tuple of SymInts size, *, Tensor out, torch.dtype dtype, torch.layout layout, torch.device device, bool pin_memory, bool requires_grad)",
    NULL};
static const char *const sigs_empty[] = {
    "(tuple of ints size, *, tuple of names names, torch.memory_format memory_format, torch.dtype dtype, torch.layout layout, torch.device device, bool pin_memory, bool requires_grad)",
    "(tuple of SymInts size, *, torch.memory_format memory_format, Tensor out, torch.dtype dtype, torch.layout layout, torch.device device, bool pin_memory, bool requires_grad)",
    NULL};
static const char *const sigs_full[] = {
    "(tuple of ints size, Number fill_value, *, tuple of names names, torch.dtype dtype, torch.layout layout, torch.device device, bool pin_memory, bool requires_grad)",
    "(tuple of SymInts size, Number fill_value, *, Tensor out, torch.dtype dtype, torch.layout layout, torch.device device, bool pin_memory, bool requires_grad)",
    NULL};

/* An int, or a one-element integer tensor, as a dimension size. */
static bool dim_of(Value *v, int64_t *out)
{
    if (is_int_like(v) && v->type != &t_bool) { *out = v->u.i; return true; }
    if (is_tensor(v) && tsr_tensor_numel(tensor_of(v)) == 1 && tsr_dtype_is_integral(tensor_of(v)->dtype, false) &&
        !tsr_tensor_is_meta(tensor_of(v))) {
        *out = tsr_tensor_get_int64_at(tensor_of(v), 0);
        return true;
    }
    return false;
}

static bool is_shape_seq(Value *v) { return v->type == &t_tuple || v->type == &t_list || v->type == &t_size; }

/* The size of zeros(2, 3) / zeros((2, 3)) / zeros(size=...), with 1.13's
 * "tuple of SymInts" wording; positions are 1-based. Returns 1 when the
 * call matches no signature (the caller reports the combination). */
static int size_arg(CallArgs *a, int first, int count, Value *kwsize, const char *fname, int *n, int64_t *sizes)
{
    Value *one = kwsize ? kwsize : count == 1 ? a->pos[first] : NULL;
    Value **items;
    int k;
    if (one) {
        if (is_shape_seq(one)) {
            items = one->u.seq.items;
            k = (int)seq_len(one);
        } else if (!kwsize && dim_of(one, &sizes[0])) {
            *n = 1;
            return 0;
        } else {
            return argerr(fname, "size", kwsize ? 0 : first + 1, "tuple of SymInts", one);
        }
    } else {
        if (count > 1 && is_shape_seq(a->pos[first])) return 1;
        items = a->pos + first;
        k = count;
    }
    if (k > TSR_MAX_DIMS) return exc_seti("RuntimeError", "%s(): too many dimensions (%d > %d)", fname, k, TSR_MAX_DIMS);
    for (int i = 0; i < k; i++)
        if (!dim_of(items[i], &sizes[i]))
            return exc_seti("TypeError", "%s(): argument 'size' must be tuple of SymInts, but found element of type %s at pos %d",
                            fname, pytype(items[i]), i + 1);
    *n = k;
    return 0;
}

typedef enum { FILL_ZEROS, FILL_ONES, FILL_EMPTY, FILL_FULL } FillKind;

static Value *sized_factory(CallArgs *a, const char *fname, FillKind kind)
{
    const char *const *sigs = kind == FILL_EMPTY ? sigs_empty : kind == FILL_FULL ? sigs_full : sigs_zeros;
    unsigned allowed = K_COMMON | KB(K_OUT) | KB(K_NAMES) | (kind == FILL_EMPTY ? KB(K_MF) : 0);
    static const char *const ex_zeros[] = {"size", NULL}, *const ex_full[] = {"size", "fill_value", NULL};
    Value *kv[K_N], *ev[2];
    if (split_kw(a, allowed, kind == FILL_FULL ? ex_full : ex_zeros, kv, ev)) return combo(fname, a, sigs);
    int nsize = a->npos;
    Value *fill = NULL;
    if (kind == FILL_FULL) {
        if (ev[1]) fill = ev[1];
        else if (a->npos >= 1) { fill = a->pos[a->npos - 1]; nsize--; }
        if (!fill || (ev[0] && nsize) || (!ev[0] && nsize != 1)) return combo(fname, a, sigs);
        Value *sz = ev[0] ? ev[0] : a->pos[0];
        if (is_int_like(sz) || is_tensor(sz) || (sz->type != &t_tuple && sz->type != &t_list && sz->type != &t_size))
            return argerr(fname, "size", ev[0] ? 0 : 1, "tuple of SymInts", sz) ? NULL : NULL;
    } else if ((ev[0] && nsize) || (!ev[0] && nsize == 0)) {
        return combo(fname, a, sigs);
    }
    int n, rc;
    int64_t sizes[TSR_MAX_DIMS];
    if ((rc = size_arg(a, 0, nsize, ev[0], fname, &n, sizes)) != 0) return rc > 0 ? combo(fname, a, sigs) : NULL;
    tsr_scalar fv = tsr_scalar_int(0);
    if (fill && bind_scalar(fill, fname, "fill_value", &fv) < 0) {
        if (exc_matches("TypeError")) {
            exc_clear();
            argerr(fname, "fill_value", ev[1] ? 0 : 2, "Number", fill);
        }
        return NULL;
    }
    if (fill && is_tensor(fill) && tensor_of(fill)->ndim > 0) return argerr(fname, "fill_value", ev[1] ? 0 : 2, "Number", fill) ? NULL : NULL;
    if (kind != FILL_EMPTY && kv[K_MF]) return combo(fname, a, sigs);
    Opts o;
    if (opts_parse(kv, fname, a, sigs, bind_default_device(), &o) < 0) return NULL;
    if (o.out && o.names) return combo(fname, a, sigs);
    tsr_dtype dt = o.dtype;
    if (dt == TSR_DTYPE_UNDEFINED) {
        /* 1.13 infers full()'s dtype in the CPU/CUDA kernels only: meta gets the default */
        if (kind != FILL_FULL || o.device.type == TSR_DEV_META) dt = tsr_default_dtype();
        else switch (fv.kind) {
            case TSR_SCALAR_BOOL: dt = TSR_BOOL; break;
            case TSR_SCALAR_INT: dt = TSR_INT64; break;
            case TSR_SCALAR_FLOAT: dt = tsr_default_dtype(); break;
            case TSR_SCALAR_COMPLEX: /* 1.13's full() gives complex64 when the default is float16 */
                dt = tsr_default_dtype() == TSR_FLOAT16 ? TSR_COMPLEX64 : tsr_dtype_to_complex(tsr_default_dtype());
                break;
            }
    }
    tsr_tensor *t = NULL;
    switch (kind) {
    case FILL_ZEROS: t = tsr_zeros(n, sizes, dt, o.device); break;
    case FILL_ONES: t = tsr_ones(n, sizes, dt, o.device); break;
    case FILL_EMPTY: t = tsr_empty(n, sizes, dt, o.device, o.mf); break;
    case FILL_FULL:
        if (tsr_scalar_check_fits(fv, dt) < 0) return bind_runtime_error();
        t = tsr_full(n, sizes, fv, dt, o.device);
        break;
    }
    return finish(t, &o);
}

static Value *f_zeros(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return sized_factory(a, "zeros", FILL_ZEROS); }
static Value *f_ones(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return sized_factory(a, "ones", FILL_ONES); }
static Value *f_empty(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return sized_factory(a, "empty", FILL_EMPTY); }
static Value *f_full(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return sized_factory(a, "full", FILL_FULL); }

/* ------------------------------------------------------------ arange, linspace, logspace, eye */

static const char *const sigs_arange[] = {
    "(Number end, *, Tensor out, torch.dtype dtype, torch.layout layout, torch.device device, bool pin_memory, bool requires_grad)",
    "(Number start, Number end, *, torch.dtype dtype, torch.layout layout, torch.device device, bool pin_memory, bool requires_grad)",
    "(Number start, Number end, Number step, *, Tensor out, torch.dtype dtype, torch.layout layout, torch.device device, bool pin_memory, bool requires_grad)",
    NULL};

static int number_arg(Value *v, const char *fname, const char *arg, int pos, tsr_scalar *s)
{
    if (!is_number(v) && v->type != &t_complex && !(is_tensor(v) && tensor_of(v)->ndim == 0))
        return argerr(fname, arg, pos, "Number", v);
    return bind_scalar(v, fname, arg, s);
}

static Value *f_arange(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    static const char *const ex[] = {"start", "end", "step", NULL};
    Value *kv[K_N], *ev[3];
    if (a->npos > 3 || split_kw(a, K_COMMON | KB(K_OUT), ex, kv, ev)) return combo("arange", a, sigs_arange);
    Value *se[3] = {NULL, NULL, NULL};   /* start, end, step */
    int pos[3] = {0, 0, 0};
    if (a->npos == 1) { se[1] = a->pos[0]; pos[1] = 1; }
    else for (int i = 0; i < a->npos; i++) { se[i] = a->pos[i]; pos[i] = i + 1; }
    for (int i = 0; i < 3; i++) {
        if (!ev[i]) continue;
        if (se[i]) return combo("arange", a, sigs_arange);
        se[i] = ev[i];
    }
    bool ok = (se[1] && !se[0] && !se[2]) || (se[0] && se[1] && !se[2]) || (se[0] && se[1] && se[2]);
    if (!ok) return combo("arange", a, sigs_arange);
    static const char *nm[3] = {"start", "end", "step"};
    tsr_scalar sv[3] = {tsr_scalar_int(0), tsr_scalar_int(0), tsr_scalar_int(1)};
    bool all_int = true;
    for (int i = 0; i < 3; i++) {
        if (!se[i]) continue;
        if (number_arg(se[i], "arange", nm[i], pos[i], &sv[i]) < 0) return NULL;
        if (sv[i].kind != TSR_SCALAR_INT && sv[i].kind != TSR_SCALAR_BOOL) all_int = false;
    }
    for (int i = 0; i < 3; i++) {
        if (sv[i].kind == TSR_SCALAR_COMPLEX)
            return exc_set("RuntimeError", "value cannot be converted to type double without overflow");
        if (sv[i].kind == TSR_SCALAR_BOOL) sv[i] = tsr_scalar_int(sv[i].i);
    }
    Opts o;
    if (opts_parse(kv, "arange", a, sigs_arange, bind_default_device(), &o) < 0) return NULL;
    tsr_dtype dt = o.dtype != TSR_DTYPE_UNDEFINED ? o.dtype : all_int ? TSR_INT64 : tsr_default_dtype();
    o.keep_numel = true;
    return finish(tsr_arange(sv[0], sv[1], sv[2], dt, o.device), &o);
}

static Value *space(CallArgs *a, bool log)
{
    const char *fname = log ? "logspace" : "linspace";
    Value *x[11];
    int pos[11];
    const char *spec = log ? "start, end, steps, base=, *, out=, dtype=, layout=, device=, pin_memory=, requires_grad="
                           : "start, end, steps, *, out=, dtype=, layout=, device=, pin_memory=, requires_grad=";
    if (targs(a, fname, spec, x, pos) < 0) return NULL;
    int k = log ? 4 : 3;
    Value *kv[K_N] = {0};
    kv[K_OUT] = x[k]; kv[K_DTYPE] = x[k + 1]; kv[K_LAYOUT] = x[k + 2]; kv[K_DEVICE] = x[k + 3];
    kv[K_PIN] = x[k + 4]; kv[K_RG] = x[k + 5];
    tsr_scalar s0, s1;
    if (number_arg(x[0], fname, "start", pos[0], &s0) < 0 || number_arg(x[1], fname, "end", pos[1], &s1) < 0) return NULL;
    if (!is_int_like(x[2]) || x[2]->type == &t_bool) return argerr(fname, "steps", pos[2], "int", x[2]) ? NULL : NULL;
    double base = 10.0;
    if (log && x[3]) {
        if (!is_number(x[3]) || x[3]->type == &t_bool) return argerr(fname, "base", pos[3], "float", x[3]) ? NULL : NULL;
        base = x[3]->type == &t_float ? x[3]->u.f : (double)x[3]->u.i;
    }
    Opts o;
    if (opts_parse(kv, fname, a, NULL, bind_default_device(), &o) < 0) return NULL;
    tsr_dtype dt = o.dtype;
    int64_t steps = x[2]->u.i;
    if (!o.out && tsr_space_dtype(s0, s1, steps, o.dtype, log ? "torch.logspace()" : "torch.linspace()", &dt) < 0)
        return rt_error();
    o.keep_numel = true;
    return finish(log ? tsr_logspace(s0, s1, steps, base, dt, o.device) : tsr_linspace(s0, s1, steps, dt, o.device), &o);
}

static Value *f_linspace(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return space(a, false); }
static Value *f_logspace(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return space(a, true); }

static const char *const sigs_eye[] = {
    "(int n, *, Tensor out, torch.dtype dtype, torch.layout layout, torch.device device, bool pin_memory, bool requires_grad)",
    "(int n, int m, *, Tensor out, torch.dtype dtype, torch.layout layout, torch.device device, bool pin_memory, bool requires_grad)",
    NULL};

static Value *f_eye(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    static const char *const ex[] = {"n", "m", NULL};
    Value *kv[K_N], *ev[2];
    if (split_kw(a, K_COMMON | KB(K_OUT), ex, kv, ev) || a->npos > 2) return combo("eye", a, sigs_eye);
    Value *nm[2] = {NULL, NULL};
    for (int i = 0; i < a->npos; i++) nm[i] = a->pos[i];
    for (int i = 0; i < 2; i++) {
        if (!ev[i]) continue;
        if (nm[i]) return combo("eye", a, sigs_eye);
        nm[i] = ev[i];
    }
    if (!nm[0]) return combo("eye", a, sigs_eye);
    static const char *names[2] = {"n", "m"};
    int64_t v[2] = {0, -1};
    for (int i = 0; i < 2; i++) {
        if (!nm[i]) continue;
        if (!is_int_like(nm[i]) || nm[i]->type == &t_bool) {
            if (is_tensor(nm[i]) && tensor_of(nm[i])->ndim == 0 && tsr_dtype_is_integral(tensor_of(nm[i])->dtype, false)) {
                tsr_scalar s;
                if (bind_scalar(nm[i], "eye", names[i], &s) < 0) return NULL;
                v[i] = s.i;
                continue;
            }
            return argerr("eye", names[i], ev[i] ? 0 : i + 1, "int", nm[i]) ? NULL : NULL;
        }
        v[i] = nm[i]->u.i;
    }
    if (v[0] < 0) return exc_set("RuntimeError", "n must be greater or equal to 0, got %" PRId64, v[0]);
    if (nm[1] && v[1] < 0) return exc_set("RuntimeError", "m must be greater or equal to 0, got %" PRId64, v[1]);
    Opts o;
    if (opts_parse(kv, "eye", a, sigs_eye, bind_default_device(), &o) < 0) return NULL;
    tsr_dtype dt = o.dtype != TSR_DTYPE_UNDEFINED ? o.dtype : tsr_default_dtype();
    return finish(tsr_eye(v[0], nm[1] ? v[1] : -1, dt, o.device), &o);
}

/* ------------------------------------------------------------ empty_strided */

static Value *f_empty_strided(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[7];
    int pos[7];
    if (targs(a, "empty_strided", "size, stride, *, dtype=, layout=, device=, pin_memory=, requires_grad=", x, pos) < 0)
        return NULL;
    Value *kv[K_N] = {0};
    kv[K_DTYPE] = x[2]; kv[K_LAYOUT] = x[3]; kv[K_DEVICE] = x[4]; kv[K_PIN] = x[5]; kv[K_RG] = x[6];
    int n, ns;
    int64_t sizes[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    if (bind_int_list(x[0], "empty_strided", "size", &n, sizes, TSR_MAX_DIMS) < 0) return NULL;
    if (bind_int_list(x[1], "empty_strided", "stride", &ns, strides, TSR_MAX_DIMS) < 0) return NULL;
    Opts o;
    if (opts_parse(kv, "empty_strided", a, NULL, bind_default_device(), &o) < 0) return NULL;
    if (n != ns)
        return exc_set("RuntimeError", "dimensionality of sizes (%d) must match dimensionality of strides (%d)", n, ns);
    for (int i = 0; i < n; i++) {
        if (strides[i] >= 0) continue;
        char b1[512], b2[512];
        size_t k1 = 0, k2 = 0;
        for (int j = 0; j < n; j++) {
            k1 += (size_t)snprintf(b1 + k1, sizeof b1 - k1, "%s%" PRId64, j ? ", " : "", sizes[j]);
            k2 += (size_t)snprintf(b2 + k2, sizeof b2 - k2, "%s%" PRId64, j ? ", " : "", strides[j]);
        }
        return exc_set("RuntimeError", "Storage size calculation overflowed with sizes=[%s] and strides=[%s]", b1, b2);
    }
    tsr_dtype dt = o.dtype != TSR_DTYPE_UNDEFINED ? o.dtype : tsr_default_dtype();
    return finish(tsr_tensor_empty_strided(n, sizes, strides, dt, o.device), &o);
}

/* ------------------------------------------------------------ *_like */

static Value *like(CallArgs *a, const char *fname, FillKind kind)
{
    Value *x[9];
    int pos[9];
    const char *spec = kind == FILL_FULL
        ? "input, fill_value, *, dtype=, layout=, device=, pin_memory=, requires_grad=, memory_format="
        : "input, *, dtype=, layout=, device=, pin_memory=, requires_grad=, memory_format=";
    if (targs(a, fname, spec, x, pos) < 0) return NULL;
    int k = kind == FILL_FULL ? 2 : 1;
    if (!is_tensor(x[0])) return argerr(fname, "input", pos[0], "Tensor", x[0]) ? NULL : NULL;
    tsr_tensor *t = tensor_of(x[0]);
    tsr_scalar fv;
    if (kind == FILL_FULL && number_arg(x[1], fname, "fill_value", pos[1], &fv) < 0) return NULL;
    Value *kv[K_N] = {0};
    kv[K_DTYPE] = x[k]; kv[K_LAYOUT] = x[k + 1]; kv[K_DEVICE] = x[k + 2]; kv[K_PIN] = x[k + 3];
    kv[K_RG] = x[k + 4]; kv[K_MF] = x[k + 5];
    Opts o;
    if (opts_parse(kv, fname, a, NULL, t->device, &o) < 0) return NULL;
    if (!kv[K_MF] || is_none(kv[K_MF])) o.mf = TSR_MF_PRESERVE;
    tsr_dtype dt = o.dtype != TSR_DTYPE_UNDEFINED ? o.dtype : t->dtype;
    tsr_tensor *r = NULL;
    switch (kind) {
    case FILL_ZEROS: r = tsr_zeros_like(t, dt, o.device, o.mf); break;
    case FILL_ONES: r = tsr_ones_like(t, dt, o.device, o.mf); break;
    case FILL_EMPTY: r = tsr_empty_like(t, dt, o.device, o.mf); break;
    case FILL_FULL:
        if (tsr_scalar_check_fits(fv, dt) < 0) return bind_runtime_error();
        r = tsr_full_like(t, fv, dt, o.device, o.mf);
        break;
    }
    return finish(r, &o);
}

static Value *f_zeros_like(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return like(a, "zeros_like", FILL_ZEROS); }
static Value *f_ones_like(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return like(a, "ones_like", FILL_ONES); }
static Value *f_empty_like(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return like(a, "empty_like", FILL_EMPTY); }
static Value *f_full_like(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return like(a, "full_like", FILL_FULL); }

/* ------------------------------------------------------------ new_* methods */

static Value *new_sized(Value *self, CallArgs *a, const char *fname, FillKind kind)
{
    tsr_tensor *t = tensor_of(self);
    static const char *const ex_z[] = {"size", NULL}, *const ex_f[] = {"size", "fill_value", NULL};
    Value *kv[K_N], *ev[2];
    if (split_kw(a, K_COMMON, kind == FILL_FULL ? ex_f : ex_z, kv, ev)) {
        for (int j = 0; j < a->nkw; j++) {
            bool known = !strcmp(a->kwnames[j], "size") || (kind == FILL_FULL && !strcmp(a->kwnames[j], "fill_value"));
            for (int i = 0; i < K_N; i++) if ((K_COMMON >> i & 1) && !strcmp(kw_names[i], a->kwnames[j])) known = true;
            if (!known) return exc_set("TypeError", "%s() got an unexpected keyword argument '%s'", fname, a->kwnames[j]);
        }
        return exc_set("TypeError", "%s() got multiple values for argument '%s'", fname, a->kwnames[0]);
    }
    int nsize = a->npos;
    Value *fill = NULL;
    if (kind == FILL_FULL) {
        if (a->npos > 2) return exc_set("TypeError", "%s() takes 2 positional arguments but %d were given", fname, a->npos);
        fill = ev[1] ? ev[1] : a->npos == 2 ? a->pos[1] : NULL;
        if (a->npos == 2) nsize = 1;
        Value *sz = ev[0] ? ev[0] : a->npos ? a->pos[0] : NULL;
        if (!sz || !fill) {
            if (!sz && !fill) return exc_set("TypeError", "%s() missing 2 required positional argument: \"size\", \"fill_value\"", fname);
            return exc_set("TypeError", "%s() missing 1 required positional arguments: \"%s\"", fname, sz ? "fill_value" : "size");
        }
        if (sz->type != &t_tuple && sz->type != &t_list && sz->type != &t_size)
            return argerr(fname, "size", ev[0] ? 0 : 1, "tuple of SymInts", sz) ? NULL : NULL;
    } else if (!ev[0] && nsize == 0) {
        return exc_set("TypeError", "%s() missing 1 required positional arguments: \"size\"", fname);
    }
    int n, rc;
    int64_t sizes[TSR_MAX_DIMS];
    if ((rc = size_arg(a, 0, nsize, ev[0], fname, &n, sizes)) != 0) {
        if (rc > 0) exc_set("TypeError", "%s(): argument 'size' must be tuple of SymInts, but found element of type tuple at pos 1", fname);
        return NULL;
    }
    tsr_scalar fv = tsr_scalar_int(0);
    if (fill && number_arg(fill, fname, "fill_value", ev[1] ? 0 : 2, &fv) < 0) return NULL;
    Opts o;
    if (opts_parse(kv, fname, a, NULL, t->device, &o) < 0) return NULL;
    tsr_dtype dt = o.dtype != TSR_DTYPE_UNDEFINED ? o.dtype : t->dtype;
    tsr_tensor *r = NULL;
    switch (kind) {
    case FILL_ZEROS: r = tsr_zeros(n, sizes, dt, o.device); break;
    case FILL_ONES: r = tsr_ones(n, sizes, dt, o.device); break;
    case FILL_EMPTY: r = tsr_empty(n, sizes, dt, o.device, TSR_MF_CONTIGUOUS); break;
    case FILL_FULL:
        if (tsr_scalar_check_fits(fv, dt) < 0) return bind_runtime_error();
        r = tsr_full(n, sizes, fv, dt, o.device);
        break;
    }
    return finish(r, &o);
}

static Value *m_new_zeros(Value *s, CallArgs *a, void *d) { (void)d; return new_sized(s, a, "new_zeros", FILL_ZEROS); }
static Value *m_new_ones(Value *s, CallArgs *a, void *d) { (void)d; return new_sized(s, a, "new_ones", FILL_ONES); }
static Value *m_new_empty(Value *s, CallArgs *a, void *d) { (void)d; return new_sized(s, a, "new_empty", FILL_EMPTY); }
static Value *m_new_full(Value *s, CallArgs *a, void *d) { (void)d; return new_sized(s, a, "new_full", FILL_FULL); }

static Value *m_new_tensor(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *x[5];
    int pos[5];
    if (targs(a, "new_tensor", "data, *, dtype=, device=, requires_grad=, pin_memory=", x, pos) < 0) return NULL;
    tsr_tensor *t = tensor_of(self);
    Value *kv[K_N] = {0};
    kv[K_DTYPE] = x[1]; kv[K_DEVICE] = x[2]; kv[K_RG] = x[3]; kv[K_PIN] = x[4];
    Opts o;
    if (opts_parse(kv, "new_tensor", a, NULL, t->device, &o) < 0) return NULL;
    tsr_tensor *r = factory_from_data(x[0], o.dtype != TSR_DTYPE_UNDEFINED ? o.dtype : t->dtype);
    if (!r) return NULL;
    r = to_device(r, o.device);
    if (!r) return NULL;
    return finish(r, &o);
}

/* ------------------------------------------------------------ legacy constructors */

static const char *const sigs_new[] = {
    "(*, torch.device device)", "(torch.Storage storage)", "(Tensor other)",
    "(tuple of ints size, *, torch.device device)", "(object data, *, torch.device device)", NULL};


static void options_str(char *buf, size_t n, tsr_dtype d, tsr_device dev)
{
    char ds[32];
    snprintf(buf, n,
             "TensorOptions(dtype=%s, device=%s, layout=Strided, requires_grad=false (default), pinned_memory=false "
             "(default), memory_format=(nullopt))",
             tsr_dtype_typemeta_name(d), tsr_device_str(dev, ds, sizeof ds));
}

/* legacy_tensor_generic_ctor_new (torch/csrc/utils/tensor_new.cpp): the
 * constructor of torch.FloatTensor & co. and of x.new(...). */
static Value *legacy_new(CallArgs *a, const char *fname, tsr_dtype dtype, tsr_device dev, bool is_new)
{
    static const char *const ex[] = {"size", NULL};
    Value *kv[K_N], *ev[1];
    if (split_kw(a, KB(K_DEVICE), ex, kv, ev)) return combo(fname, a, sigs_new);
    if (!ev[0] && a->npos == 1 && is_tensor(a->pos[0]) && kv[K_DEVICE]) {   /* the hidden (Tensor other, *, device) */
        if (is_new)
            return exc_set("RuntimeError", "Legacy tensor new of the form tensor.new(tensor, device=device) is not "
                                           "supported.  Use torch.as_tensor(...) instead.");
        return exc_set("RuntimeError", "Legacy tensor constructor of the form torch.Tensor(tensor, device=device) is "
                                       "not supported.  Use torch.tensor(...) or torch.as_tensor(...) instead.");
    }
    if (ev[0]) {   /* new(size=(2, 3)) */
        if (a->npos || !is_shape_seq(ev[0])) return combo(fname, a, sigs_new);
        int n;
        int64_t sizes[TSR_MAX_DIMS];
        if (bind_int_list(ev[0], "new", "size", &n, sizes, TSR_MAX_DIMS) < 0) return NULL;
        tsr_tensor *t = tsr_tensor_empty(n, sizes, dtype, dev);
        return t ? v_tensor(t) : rt_error();
    }
    tsr_device want = dev;
    if (kv[K_DEVICE] && !is_none(kv[K_DEVICE])) {
        if (bind_device_arg(kv[K_DEVICE], dev, &want) < 0) return NULL;
        if (want.type != dev.type)
            return exc_set("RuntimeError", "legacy constructor expects device type: %s but device type: %s was passed",
                           tsr_device_type_name(dev.type), tsr_device_type_name(want.type));
    }
    if (a->npos == 0) return v_tensor(tsr_tensor_empty(1, (int64_t[]){0}, dtype, dev));
    Value *first = a->pos[0];
    if (is_storage(first)) {
        if (a->npos > 1 || kv[K_DEVICE]) return combo(fname, a, sigs_new);
        if (storage_dtype(first) != dtype)
            return exc_set("RuntimeError",
                           "Expected a Storage of type %s or an UntypedStorage, but got type %s for argument 1 'storage'",
                           tsr_dtype_scalar_name(dtype), tsr_dtype_scalar_name(storage_dtype(first)));
        tsr_storage *s = storage_of(first);
        int64_t len = storage_len(first);
        return v_tensor(tsr_tensor_from_storage(s, 0, 1, &len, NULL, dtype));
    }
    if (is_tensor(first)) {
        if (a->npos > 1) return combo(fname, a, sigs_new);
        tsr_tensor *t = tensor_of(first);
        if (t->dtype != dtype || t->device.type != dev.type) {
            char w[256], g[256];
            options_str(w, sizeof w, dtype, dev);
            options_str(g, sizeof g, t->dtype, t->device);
            return exc_set("TypeError", "expected %s (got %s)", w, g);
        }
        return v_tensor(tsr_view_alias(t));
    }
    if (is_int_like(first) && first->type != &t_bool) {
        int n = 0;
        int64_t sizes[TSR_MAX_DIMS];
        for (int i = 0; i < a->npos; i++) {
            Value *v = a->pos[i];
            if (!is_int_like(v) || v->type == &t_bool)
                return exc_set("TypeError", "new(): argument 'size' must be tuple of ints, but found element of type %s at pos %d",
                               pytype(v), i + 1);
            if (n >= TSR_MAX_DIMS) return exc_set("RuntimeError", "new(): too many dimensions");
            sizes[n++] = v->u.i;
        }
        {
            tsr_tensor *t = tsr_tensor_empty(n, sizes, dtype, dev);
            return t ? v_tensor(t) : rt_error();
        }
    }
    if (first->type == &t_size) {
        if (a->npos > 1) return combo(fname, a, sigs_new);
        int n;
        int64_t sizes[TSR_MAX_DIMS];
        if (bind_int_list(first, "new", "size", &n, sizes, TSR_MAX_DIMS) < 0) return NULL;
        {
            tsr_tensor *t = tsr_tensor_empty(n, sizes, dtype, dev);
            return t ? v_tensor(t) : rt_error();
        }
    }
    if (a->npos > 1) return combo(fname, a, sigs_new);
    if (is_str(first)) return exc_set("TypeError", "new(): invalid data type 'str'");
    if (!is_pyseq(first)) return exc_set("TypeError", "new(): data must be a sequence (got %s)", pytype(first));
    tsr_tensor *t = factory_from_data(first, dtype);
    if (!t) return NULL;
    return v_tensor(to_device(t, dev));
}

/* x.new(...): the legacy constructor with x's dtype and device. */
static Value *m_new(Value *self, CallArgs *a, void *d)
{
    (void)d;
    tsr_tensor *t = tensor_of(self);
    return legacy_new(a, "new", t->dtype, t->device, true);
}

/* The legacy classes: one VType per (dtype, cuda) that 1.13 has. */
static VType legacy_vt[2][TSR_DTYPE_SLOTS];
static char legacy_names[2][TSR_DTYPE_SLOTS][48];

static bool legacy_has(tsr_dtype d) { return tsr_dtype_valid(d) && !tsr_dtype_is_complex(d); }

bool legacy_class_of(Value *v, tsr_dtype *dtype, bool *cuda)
{
    if (v->type != &t_type) return false;
    const VType *t = v->u.typeobj;
    for (int c = 0; c < 2; c++) {
        if (t >= legacy_vt[c] && t < legacy_vt[c] + TSR_DTYPE_SLOTS) {
            if (dtype) *dtype = (tsr_dtype)(t - legacy_vt[c]);
            if (cuda) *cuda = c != 0;
            return true;
        }
    }
    return false;
}

/* The construct slot of the legacy classes: torch.FloatTensor(2, 3). */
static Value *legacy_call(Value *type, CallArgs *a, void *data)
{
    tsr_dtype d = TSR_FLOAT32;
    bool cuda = false;
    legacy_class_of(type, &d, &cuda);
    if (cuda)
        return exc_set("TypeError", "type %s not available. Torch not compiled with CUDA enabled.", type->u.typeobj->name);
    return legacy_new(a, "new", d, TSR_CPU, false);
}

Value *factory_tensor_new(Value *self, CallArgs *a, void *data)
{
    return legacy_new(a, "new", tsr_default_dtype(), TSR_CPU, false);
}

/* ------------------------------------------------------------ registration */

void bind_factory_init(void)
{
    Value *torch = bind_module("torch");
    static const struct { const char *name; BuiltinFn fn; } fns[] = {
        {"tensor", f_tensor}, {"zeros", f_zeros}, {"ones", f_ones}, {"full", f_full}, {"empty", f_empty},
        {"arange", f_arange}, {"linspace", f_linspace}, {"logspace", f_logspace}, {"eye", f_eye},
        {"empty_strided", f_empty_strided}, {"zeros_like", f_zeros_like}, {"ones_like", f_ones_like},
        {"empty_like", f_empty_like}, {"full_like", f_full_like}, {"as_tensor", f_as_tensor},
        {"asarray", f_asarray},
    };
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) module_add_fn(torch, fns[i].name, fns[i].fn);
    /* is_tensor, numel and as_strided are tensor.c's */
    Value *attrs = torch->u.mod->attrs;
    static const struct { const char *name; BuiltinFn fn; } methods[] = {
        {"new_zeros", m_new_zeros}, {"new_ones", m_new_ones}, {"new_empty", m_new_empty},
        {"new_full", m_new_full}, {"new_tensor", m_new_tensor}, {"new", m_new},
    };
    for (size_t i = 0; i < sizeof methods / sizeof *methods; i++) bind_tensor_method(methods[i].name, methods[i].fn);

    Value *cuda = bind_module("torch.cuda");
    for (int c = 0; c < 2; c++) {
#define X(ID, ...)                                                           \
        if (legacy_has(TSR_##ID)) {                                                                         \
            const tsr_dtype_traits *tr = tsr_dtype_traits_of(TSR_##ID);                                     \
            snprintf(legacy_names[c][TSR_##ID], sizeof legacy_names[c][TSR_##ID], "torch.%s%s",            \
                     c ? "cuda." : "", tr->tensor_type);                                                    \
            legacy_vt[c][TSR_##ID] = (VType){.name = legacy_names[c][TSR_##ID], .construct = legacy_call}; \
            module_add(c ? cuda : torch, tr->tensor_type, v_typeobj(&legacy_vt[c][TSR_##ID]));              \
        }
        TSR_DTYPES(X)
#undef X
    }
    if (!dict_get_str(attrs, "Tensor")) module_add(torch, "Tensor", v_typeobj(&t_tensor));
}
