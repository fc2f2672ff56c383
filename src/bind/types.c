/* src/bind/types.c — the torch value types other than Tensor: dtype, device,
 * layout, memory_format, torch.Size, finfo/iinfo, and their torch.* names.
 * C-defined PyTorch types carry their tp_name ("torch.device") as the VType
 * name, so messages read as Python's; dtypes, layouts and formats are singletons. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/tensor.h"
#include "bind/areas.h"
#include "bind/table.h"

/* ------------------------------------------------------------ helpers */

/* PyTorch's python_arg_parser message for an unmatched call (first line). */
/* ------------------------------------------------------------ keyword order */

/* libstdc++'s std::hash<std::string>: _Hash_bytes (libsupc++ hash_bytes.cc,
 * the 64-bit murmur2 variant) with seed 0xc70f6907. */
static uint64_t shift_mix(uint64_t v) { return v ^ (v >> 47); }
static uint64_t std_string_hash(const char *s)
{
    const uint64_t mul = ((uint64_t)0xc6a4a793u << 32) + 0x5bd1e995u;
    size_t len = strlen(s), al = len & ~(size_t)7;
    uint64_t h = 0xc70f6907u ^ (len * mul);
    for (size_t i = 0; i < al; i += 8) {
        uint64_t d;
        memcpy(&d, s + i, 8);   /* little-endian, as the x86-64 / aarch64 builds */
        h ^= shift_mix(d * mul) * mul;
        h *= mul;
    }
    if (len & 7) {
        uint64_t d = 0;
        for (size_t k = len & 7; k-- > 0;) d = (d << 8) + (unsigned char)s[al + k];
        h ^= d;
        h *= mul;
    }
    return shift_mix(shift_mix(h) * mul);
}

/* The bucket counts libstdc++'s prime rehash policy goes through from an
 * empty map: 13 at the first insert (_M_next_bkt(12) of the small table),
 * then the next prime of its list at least twice as large. */
static const int umap_buckets[] = {13, 29, 59, 127, 257};

void bind_kwargs_order(int n, const char *const *names, int *order)
{
    if (n > BIND_MAXKW) n = BIND_MAXKW;
    int next[BIND_MAXKW + 1], bucket[257], head = n, nb = umap_buckets[0], pi = 0, size = 0;
    uint64_t h[BIND_MAXKW];
    for (int b = 0; b < nb; b++) bucket[b] = -1;
    next[head] = -1;
    for (int i = 0; i < n; i++) {
        h[i] = std_string_hash(names[i]);
        bool dup = false;
        for (int j = 0; j < i; j++) dup = dup || !strcmp(names[j], names[i]);
        if (dup) continue;   /* emplace keeps the first */
        if (size + 1 > umap_buckets[pi]) {   /* _M_rehash_aux: the list rebuilt bucket by bucket */
            nb = umap_buckets[++pi];
            for (int b = 0; b < nb; b++) bucket[b] = -1;
            int p = next[head], bb = 0;
            next[head] = -1;
            while (p >= 0) {
                int nx = next[p], b = (int)(h[p] % (uint64_t)nb);
                if (bucket[b] < 0) {
                    next[p] = next[head];
                    next[head] = p;
                    bucket[b] = head;
                    if (next[p] >= 0) bucket[bb] = p;
                    bb = b;
                } else {
                    next[p] = next[bucket[b]];
                    next[bucket[b]] = p;
                }
                p = nx;
            }
        }
        /* _M_insert_bucket_begin: first in its bucket's run, or first of all */
        int b = (int)(h[i] % (uint64_t)nb);
        if (bucket[b] >= 0) {
            next[i] = next[bucket[b]];
            next[bucket[b]] = i;
        } else {
            next[i] = next[head];
            next[head] = i;
            if (next[i] >= 0) bucket[(int)(h[next[i]] % (uint64_t)nb)] = i;
            bucket[b] = head;
        }
        size++;
    }
    int k = 0;
    for (int p = next[head]; p >= 0; p = next[p]) order[k++] = p;
    while (k < n) order[k++] = -1;
}

Value *bind_invalid_combination(const char *fname, CallArgs *a);
/* A type as the argument parser names it: Python classes with their module
 * (torch.storage.TypedStorage), C types and Tensor by name. */
static const char *arg_type_name(Value *v, char *buf, size_t n)
{
    if (v->type->module && !is_tensor(v)) {
        snprintf(buf, n, "%s.%s", v->type->module, v->type->name);
        return buf;
    }
    return type_name(v);
}

Value *bind_invalid_combination(const char *fname, CallArgs *a)
{
    char tn[96];
    char buf[512];
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < a->npos && n < sizeof buf - 64; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? ", " : "", arg_type_name(a->pos[i], tn, sizeof tn));
    /* keywords come out of a std::unordered_map (format_invalid_args) */
    int order[BIND_MAXKW];
    bind_kwargs_order(a->nkw, (const char *const *)a->kwnames, order);
    for (int k = 0; k < a->nkw && k < BIND_MAXKW && order[k] >= 0 && n < sizeof buf - 64; k++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s=%s", (k || a->npos) ? ", " : "",
                              a->kwnames[order[k]], arg_type_name(a->kw[order[k]], tn, sizeof tn));
    if (a->nkw && !a->npos && n < sizeof buf - 4) snprintf(buf + n, sizeof buf - n, ", ");
    return exc_set("TypeError", "%s() received an invalid combination of arguments - got (%s), but expected one of:",
                   fname, buf);
}

static Value *no_args(CallArgs *a, const char *fname)
{
    if (a->npos || a->nkw) return exc_set("TypeError", "%s() takes no arguments (%d given)", fname, a->npos + a->nkw);
    return NULL;
}

/* ------------------------------------------------------------ dtype */

static Value *dtype_vals[TSR_DTYPE_SLOTS];

static Value *dtype_repr(Value *v) { return v_strf("torch.%s", tsr_dtype_name(dtype_of(v))); }
static int dtype_eq(Value *a, Value *b) { return dtype_of(a) == dtype_of(b); }
static uint64_t dtype_hash(Value *v, int *ok) { (void)ok; return 0x9e3779b97f4a7c15ull * (uint64_t)(dtype_of(v) + 1); }

static Value *dtype_compare(int op, Value *a, Value *b, int reflected)
{
    (void)reflected;
    if (op != OP_EQ && op != OP_NE) return value_not_implemented();
    bool eq = is_dtype(b) && dtype_of(a) == dtype_of(b);
    return v_bool(op == OP_EQ ? eq : !eq);
}

static Value *dtype_getattr(Value *v, const char *name)
{
    tsr_dtype d = dtype_of(v);
    if (!strcmp(name, "is_floating_point")) return v_bool(tsr_dtype_is_floating(d));
    if (!strcmp(name, "is_complex")) return v_bool(tsr_dtype_is_complex(d));
    if (!strcmp(name, "is_signed")) return v_bool(tsr_dtype_is_signed(d));
    return NULL;
}

static const char *dtype_dir(Value *v, int i)
{
    (void)v;
    static const char *names[] = {"is_complex", "is_floating_point", "is_signed", NULL};
    return i < 3 ? names[i] : NULL;
}

const VType t_dtype = {.name = "torch.dtype", .repr = dtype_repr, .eq = dtype_eq, .hash = dtype_hash,
                       .compare = dtype_compare, .getattr = dtype_getattr, .dir = dtype_dir};

Value *v_dtype(tsr_dtype d)
{
    if (!tsr_dtype_valid(d)) d = TSR_FLOAT32;
    if (!dtype_vals[d]) {
        Value *v = value_alloc(&t_dtype);
        v->u.ext.a = d;
        dtype_vals[d] = v;
    }
    return incref(dtype_vals[d]);
}

int bind_dtype_arg(Value *v, const char *fname, tsr_dtype dflt, tsr_dtype *out)
{
    if (!v || is_none(v)) { *out = dflt; return 0; }
    if (is_dtype(v)) { *out = dtype_of(v); return 0; }
    return exc_seti("TypeError", "%s(): argument 'dtype' must be torch.dtype, not %s", fname, type_name(v));
}

/* ------------------------------------------------------------ finfo / iinfo */

typedef struct { bool is_i; tsr_finfo f; tsr_iinfo ii; } Info;

static void info_destroy(Value *v) { free(v->u.ext.ptr); }

static Value *finfo_repr(Value *v)
{
    Info *in = v->u.ext.ptr;
    if (in->is_i)
        return v_strf("iinfo(min=%g, max=%g, dtype=%s)", (double)in->ii.min, (double)in->ii.max,
                      tsr_dtype_name(in->ii.dtype));
    return v_strf("finfo(resolution=%g, min=%g, max=%g, eps=%g, smallest_normal=%g, tiny=%g, dtype=%s)",
                  in->f.resolution, in->f.min, in->f.max, in->f.eps, in->f.smallest_normal, in->f.tiny,
                  tsr_dtype_name(in->f.dtype));
}

static Value *finfo_getattr(Value *v, const char *name)
{
    Info *in = v->u.ext.ptr;
    if (in->is_i) {
        if (!strcmp(name, "bits")) return v_int(in->ii.bits);
        if (!strcmp(name, "min")) return v_int(in->ii.min);
        if (!strcmp(name, "max")) return v_int((int64_t)in->ii.max);
        if (!strcmp(name, "dtype")) return v_str(tsr_dtype_name(in->ii.dtype));
        return NULL;
    }
    if (!strcmp(name, "bits")) return v_int(in->f.bits);
    if (!strcmp(name, "eps")) return v_float(in->f.eps);
    if (!strcmp(name, "max")) return v_float(in->f.max);
    if (!strcmp(name, "min")) return v_float(in->f.min);
    if (!strcmp(name, "tiny")) return v_float(in->f.tiny);
    if (!strcmp(name, "smallest_normal")) return v_float(in->f.smallest_normal);
    if (!strcmp(name, "resolution")) return v_float(in->f.resolution);
    if (!strcmp(name, "dtype")) return v_str(tsr_dtype_name(in->f.dtype));
    return NULL;
}

static int finfo_eq(Value *a, Value *b)
{
    Info *x = a->u.ext.ptr, *y = b->u.ext.ptr;
    if (x->is_i != y->is_i) return 0;
    return x->is_i ? x->ii.dtype == y->ii.dtype : x->f.dtype == y->f.dtype;
}

static Value *finfo_compare(int op, Value *a, Value *b, int reflected)
{
    (void)reflected;
    if ((op != OP_EQ && op != OP_NE) || b->type != a->type) return value_not_implemented();
    bool eq = finfo_eq(a, b);
    return v_bool(op == OP_EQ ? eq : !eq);
}

static Value *c_finfo(Value *self, CallArgs *a, void *d);
static const VType t_finfo = {.name = "torch.finfo", .destroy = info_destroy, .repr = finfo_repr,
                              .getattr = finfo_getattr, .eq = finfo_eq, .compare = finfo_compare,
                              .construct = c_finfo};
static Value *c_iinfo(Value *self, CallArgs *a, void *d);
static const VType t_iinfo = {.name = "torch.iinfo", .destroy = info_destroy, .repr = finfo_repr,
                              .getattr = finfo_getattr, .eq = finfo_eq, .compare = finfo_compare,
                              .construct = c_iinfo};

/* torch.finfo / torch.iinfo / torch.device are parsed by python_arg_parser
 * (their own PythonArgParser in 1.13): rows of the binding table without
 * variants, called by the types' constructors. */
enum { CTOR_FINFO, CTOR_IINFO, CTOR_DEVICE };
static Value *ctor_run(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace);
static BindRow ctor_rows[] = {
    {.name = "finfo", .kind = CTOR_FINFO, .sigs = "ScalarType type|", .handler = ctor_run},
    {.name = "iinfo", .kind = CTOR_IINFO, .sigs = "ScalarType type", .handler = ctor_run},
    {.name = "Device", .kind = CTOR_DEVICE, .sigs = "Device device|str type, int? index=-1", .handler = ctor_run},
};

static Value *info_new(BindArgs *b, bool is_i)
{
    tsr_dtype d = bind_table_dtype(b->v[0], tsr_default_dtype());
    Info *in = value_xcalloc(1, sizeof *in);
    in->is_i = is_i;
    int r = is_i ? tsr_dtype_iinfo(d, &in->ii) : tsr_dtype_finfo(d, &in->f);
    if (r < 0) { free(in); return bind_runtime_error(); }
    Value *v = value_alloc(is_i ? &t_iinfo : &t_finfo);
    v->u.ext.ptr = in;
    return v;
}

static Value *c_finfo(Value *self, CallArgs *a, void *d) { (void)self; (void)d; return bind_table_call(&ctor_rows[CTOR_FINFO], a); }
static Value *c_iinfo(Value *self, CallArgs *a, void *d) { (void)self; (void)d; return bind_table_call(&ctor_rows[CTOR_IINFO], a); }

/* ------------------------------------------------------------ device */

static Value *device_repr(Value *v)
{
    tsr_device d = device_of(v);
    if (d.index < 0) return v_strf("device(type='%s')", tsr_device_type_name(d.type));
    return v_strf("device(type='%s', index=%d)", tsr_device_type_name(d.type), d.index);
}

static Value *device_str(Value *v)
{
    char buf[64];
    return v_str(tsr_device_str(device_of(v), buf, sizeof buf));
}

static int device_eq(Value *a, Value *b) { return tsr_device_equal(device_of(a), device_of(b)); }
static uint64_t device_hash(Value *v, int *ok)
{
    (void)ok;
    tsr_device d = device_of(v);
    return ((uint64_t)d.type << 16) ^ (uint64_t)(d.index + 1) ^ 0x51ed27f3ull;
}

static Value *device_compare(int op, Value *a, Value *b, int reflected)
{
    (void)reflected;
    if (op != OP_EQ && op != OP_NE) {
        if (is_device(b)) return exc_set("TypeError", "comparison not implemented");
        return value_not_implemented();
    }
    bool eq = is_device(b) && device_eq(a, b);
    return v_bool(op == OP_EQ ? eq : !eq);
}

static Value *device_getattr(Value *v, const char *name)
{
    tsr_device d = device_of(v);
    if (!strcmp(name, "type")) return v_str(tsr_device_type_name(d.type));
    if (!strcmp(name, "index")) return d.index < 0 ? v_none() : v_int(d.index);
    return NULL;
}

/* `with torch.device(...)`: the factories' default device (newer PyTorch,
 * torch/utils/_device.py; SEMANTICS.md §8). Nesting restores the outer one. */
#define MAX_DEVICE_CTX 64
static tsr_device device_ctx[MAX_DEVICE_CTX];
static int ndevice_ctx, device_ctx_overflow;
static tsr_device global_default_device = {TSR_DEV_CPU, -1};

tsr_device bind_default_device(void)
{
    if (ndevice_ctx > 0) return device_ctx[ndevice_ctx - 1];
    return global_default_device;
}

static Value *device_enter(Value *v)
{
    if (ndevice_ctx < MAX_DEVICE_CTX) device_ctx[ndevice_ctx++] = device_of(v);
    else device_ctx_overflow++;
    return incref(v);
}

static int device_exit(Value *v)
{
    (void)v;
    if (device_ctx_overflow) device_ctx_overflow--;
    else if (ndevice_ctx > 0) ndevice_ctx--;
    return 0;
}

static const char *device_dir(Value *v, int i)
{
    (void)v;
    static const char *names[] = {"index", "type", NULL};
    return i < 2 ? names[i] : NULL;
}

static Value *c_device(Value *self, CallArgs *a, void *dd);
const VType t_device = {.name = "torch.device", .repr = device_repr, .str = device_str, .eq = device_eq,
                        .hash = device_hash, .compare = device_compare, .getattr = device_getattr,
                        .enter = device_enter, .exit = device_exit, .dir = device_dir, .construct = c_device};

Value *v_device(tsr_device d)
{
    Value *v = value_alloc(&t_device);
    v->u.ext.a = d.type;
    v->u.ext.b = d.index;
    return v;
}

tsr_device device_of(Value *v) { return (tsr_device){(tsr_device_type)v->u.ext.a, (int)v->u.ext.b}; }

int bind_device_arg(Value *v, tsr_device dflt, tsr_device *out)
{
    if (!v || is_none(v)) { *out = dflt; return 0; }
    if (is_device(v)) { *out = device_of(v); return 0; }
    if (v->type == &t_str) return tsr_device_parse(v->u.s.p, out) < 0 ? bind_runtime_errori() : 0;
    if (v->type == &t_int) {
        if (v->u.i < 0) return exc_seti("RuntimeError", "Device index must not be negative");
        if (v->u.i > 127) return exc_seti("RuntimeError", "Device index %" PRId64 " is out of range (tsr allows up to 127)", v->u.i);
        *out = (tsr_device){TSR_DEV_CUDA, (int)v->u.i};
        return 0;
    }
    return exc_seti("TypeError", "expected a torch.device, a string or an int, not %s", type_name(v));
}

static Value *device_new(BindArgs *b)
{
    tsr_device d;
    if (b->sig == 0) {   /* Device(Device device): a device, a string or a cuda index */
        if (is_device(b->v[0])) return incref(b->v[0]);
        if (bind_device_arg(b->v[0], TSR_CPU, &d) < 0) return NULL;
        return v_device(d);
    }
    const char *type = b->v[0]->u.s.p;
    Value *ix = b->v[1];
    if (!ix) {
        if (tsr_device_parse(type, &d) < 0) return bind_runtime_error();
        return v_device(d);
    }
    if (ix->u.i > 127 && ix->u.i < INT32_MAX)
        return exc_set("RuntimeError", "Device index %" PRId64 " is out of range (tsr allows up to 127)", ix->u.i);
    if (tsr_device_make(type, ix->u.i, &d) < 0) return bind_runtime_error();
    return v_device(d);
}

static Value *ctor_run(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)fname; (void)self; (void)inplace;
    switch (row->kind) {
    case CTOR_FINFO: return info_new(b, false);
    case CTOR_IINFO: return info_new(b, true);
    default: return device_new(b);
    }
}

static Value *c_device(Value *self, CallArgs *a, void *dd) { (void)self; (void)dd; return bind_table_call(&ctor_rows[CTOR_DEVICE], a); }

static Value *f_set_default_device(Value *self, CallArgs *a, void *dd)
{
    (void)self; (void)dd;
    Value *x[1];
    if (bind_args(a, "set_default_device", "def device", x)) return NULL;
    tsr_device d;
    if (bind_device_arg(x[0], TSR_CPU, &d) < 0) return NULL;
    global_default_device = d;
    return v_none();
}

static Value *f_get_default_device(Value *self, CallArgs *a, void *dd)
{
    (void)self; (void)dd;
    if (no_args(a, "get_default_device") || exc_pending()) return NULL;
    tsr_device d = bind_default_device();
    if (d.type == TSR_DEV_CUDA && d.index < 0) d.index = 0;
    return v_device(d);
}

/* ------------------------------------------------------------ layout, memory_format */

static Value *layout_vals[TSR_LAYOUT_COUNT];
static Value *mf_vals[4];

static Value *layout_repr(Value *v)
{
    if (v->u.ext.a == TSR_LAYOUT_MKLDNN) return v_str("torch._mkldnn");
    return v_str(tsr_layout_name((tsr_layout)v->u.ext.a));
}
static Value *mf_repr(Value *v) { return v_str(tsr_memory_format_name((tsr_memory_format)v->u.ext.a)); }
static int ext_a_eq(Value *a, Value *b) { return a->u.ext.a == b->u.ext.a; }
static uint64_t ext_a_hash(Value *v, int *ok) { (void)ok; return 0x2545f4914f6cdd1dull * (uint64_t)(v->u.ext.a + 7); }
static Value *ext_a_compare(int op, Value *a, Value *b, int reflected)
{
    (void)reflected;
    if (op != OP_EQ && op != OP_NE) return value_not_implemented();
    bool eq = a->type == b->type && a->u.ext.a == b->u.ext.a;
    return v_bool(op == OP_EQ ? eq : !eq);
}

const VType t_layout = {.name = "torch.layout", .repr = layout_repr, .eq = ext_a_eq, .hash = ext_a_hash,
                        .compare = ext_a_compare};
const VType t_memory_format = {.name = "torch.memory_format", .repr = mf_repr, .eq = ext_a_eq,
                               .hash = ext_a_hash, .compare = ext_a_compare};

/* The one object of type t for the enum value k (made on first use and
 * kept in cache[k]), a new reference. */
static Value *enum_object(Value **cache, const VType *t, int k)
{
    if (!cache[k]) {
        cache[k] = value_alloc(t);
        cache[k]->u.ext.a = k;
    }
    return incref(cache[k]);
}

Value *v_layout(tsr_layout l)
{
    return enum_object(layout_vals, &t_layout, (unsigned)l < TSR_LAYOUT_COUNT ? (int)l : TSR_LAYOUT_STRIDED);
}

Value *v_memory_format(tsr_memory_format mf)
{
    return enum_object(mf_vals, &t_memory_format, (unsigned)mf < 4 ? (int)mf : TSR_MF_CONTIGUOUS);
}

int bind_memory_format_arg(Value *v, tsr_memory_format dflt, tsr_memory_format *out)
{
    if (!v || is_none(v)) { *out = dflt; return 0; }
    if (v->type == &t_memory_format) { *out = (tsr_memory_format)v->u.ext.a; return 0; }
    return exc_seti("TypeError", "argument 'memory_format' must be torch.memory_format, not %s", type_name(v));
}

/* ------------------------------------------------------------ torch.Size */

static void size_destroy(Value *v)
{
    for (size_t i = 0; i < v->u.seq.n; i++) decref(v->u.seq.items[i]);
    free(v->u.seq.items);
}

static Value *size_from_items(size_t n)
{
    Value *v = value_alloc(&t_size);
    v->u.seq.items = value_xcalloc(n + 1, sizeof *v->u.seq.items);
    v->u.seq.n = v->u.seq.cap = n;
    return v;
}

Value *v_size(int n, const int64_t *sizes)
{
    Value *v = size_from_items((size_t)n);
    for (int i = 0; i < n; i++) v->u.seq.items[i] = v_int(sizes[i]);
    return v;
}

static Value *size_repr(Value *v)
{
    size_t cap = 32 + v->u.seq.n * 24, n = 0;
    char *buf = value_xmalloc(cap);
    n += (size_t)snprintf(buf, cap, "torch.Size([");
    for (size_t i = 0; i < v->u.seq.n; i++) {
        Value *r = value_repr(v->u.seq.items[i]);
        if (!r) { free(buf); return NULL; }
        if (n + r->u.s.n + 8 > cap) { cap = (n + r->u.s.n + 8) * 2; buf = value_xrealloc(buf, cap); }
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? ", " : "", r->u.s.p);
        decref(r);
    }
    n += (size_t)snprintf(buf + n, cap - n, "])");
    return v_str_take(buf, n);
}

static bool is_tuple_like(Value *v) { return v->type == &t_tuple || v->type == &t_size; }
static int64_t size_len(Value *v) { return (int64_t)v->u.seq.n; }
static Value *size_iter(Value *v) { return v_seq_iter(v); }

/* the tuple hash and equality, so that Size and an equal tuple hash alike */
#define size_hash seq_hash
#define size_eq seq_eq

static Value *size_compare(int op, Value *self, Value *other, int reflected)
{
    (void)reflected;
    if (!is_tuple_like(other)) return value_not_implemented();
    return seq_compare_items(op, self, other);
}

static Value *concat(Value *a, Value *b, bool as_size)
{
    size_t n = a->u.seq.n + b->u.seq.n;
    Value *r = as_size ? size_from_items(n) : v_tuple(n);
    for (size_t i = 0; i < a->u.seq.n; i++) r->u.seq.items[i] = incref(a->u.seq.items[i]);
    for (size_t i = 0; i < b->u.seq.n; i++) r->u.seq.items[a->u.seq.n + i] = incref(b->u.seq.items[i]);
    return r;
}

static Value *size_binop(int op, Value *self, Value *other, int reflected)
{
    if (op == OP_ADD) {
        /* Size.__add__ returns a Size; tuple + Size is tuple.__add__: a tuple */
        if (is_tuple_like(other)) return reflected ? concat(other, self, other->type == &t_size) : concat(self, other, true);
        if (!reflected)
            return exc_set("TypeError", "can only concatenate tuple (not \"%s\") to tuple", type_name(other));
    }
    if (op == OP_MUL && !is_int_like(other) && other->type != &t_float) {
        /* a one-element integer tensor repeats by its __index__; others say why not */
        Value *ix = other->type->getattr ? other->type->getattr(other, "__index__") : NULL;
        if (!ix && exc_pending()) exc_clear();
        if (ix) {
            decref(ix);
            int64_t k;
            if (value_as_int(other, &k) < 0) return NULL;
            Value *kv = v_int(k);
            Value *r = size_binop(op, self, kv, reflected);
            decref(kv);
            return r;
        }
    }
    if (op == OP_MUL && is_int_like(other)) {
        int64_t k = other->u.i < 0 ? 0 : other->u.i;
        size_t n = self->u.seq.n;
        if (k && n > (size_t)(1 << 24) / (size_t)k) return exc_set("MemoryError", "%s", "");
        Value *r = size_from_items(n * (size_t)k);
        for (int64_t j = 0; j < k; j++)
            for (size_t i = 0; i < n; i++) r->u.seq.items[(size_t)j * n + i] = incref(self->u.seq.items[i]);
        return r;
    }
    return value_not_implemented();
}

static Value *size_getitem(Value *v, Value *key)
{
    if (key->type == &t_slice) {
        int64_t a, b, st, n;
        if (slice_indices(key, (int64_t)v->u.seq.n, &a, &b, &st, &n) < 0) return NULL;
        Value *r = size_from_items((size_t)n);
        for (int64_t i = 0; i < n; i++) r->u.seq.items[i] = incref(v->u.seq.items[a + i * st]);
        return r;
    }
    int64_t i;
    if (is_tensor(key)) {
        Value *ix = value_getattr(key, "__index__");
        if (!ix) return NULL;
        Value *k = value_call0(ix, 0, NULL);
        decref(ix);
        if (!k) return NULL;
        int r = seq_index(k, (int64_t)v->u.seq.n, &i, "tuple");
        decref(k);
        if (r < 0) return NULL;
        return incref(v->u.seq.items[i]);
    }
    if (seq_index(key, (int64_t)v->u.seq.n, &i, "tuple") < 0) return NULL;
    return incref(v->u.seq.items[i]);
}

static int size_contains(Value *v, Value *x)
{
    for (size_t i = 0; i < v->u.seq.n; i++) {
        int e = value_eq(v->u.seq.items[i], x);
        if (e) return e;
    }
    return 0;
}

static Value *sm_numel(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (no_args(a, "numel") || exc_pending()) return NULL;
    int64_t n = 1;
    for (size_t i = 0; i < self->u.seq.n; i++) {
        Value *x = self->u.seq.items[i];
        if (__builtin_mul_overflow(n, x->u.i, &n)) return exc_set("RuntimeError", "numel: integer multiplication overflow");
    }
    return v_int(n);
}

static Value *sm_count(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (a->nkw || a->npos != 1)
        return exc_set("TypeError", "count() takes exactly one argument (%d given)", a->npos + a->nkw);
    int64_t c = 0;
    for (size_t i = 0; i < self->u.seq.n; i++) {
        int e = value_eq(self->u.seq.items[i], a->pos[0]);
        if (e < 0) return NULL;
        c += e;
    }
    return v_int(c);
}

static Value *sm_index(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (a->nkw || a->npos < 1 || a->npos > 3)
        return exc_set("TypeError", "index expected at least 1 argument, got %d", a->npos);
    for (size_t i = 0; i < self->u.seq.n; i++) {
        int e = value_eq(self->u.seq.items[i], a->pos[0]);
        if (e < 0) return NULL;
        if (e) return v_int((int64_t)i);
    }
    return exc_set("ValueError", "tuple.index(x): x not in tuple");
}

static Value *size_getattr(Value *v, const char *name)
{
    if (!strcmp(name, "numel")) return v_builtin("numel", sm_numel, v, NULL);
    if (!strcmp(name, "count")) return v_builtin("count", sm_count, v, NULL);
    if (!strcmp(name, "index")) return v_builtin("index", sm_index, v, NULL);
    return NULL;
}

static const char *size_dir(Value *v, int i)
{
    (void)v;
    static const char *names[] = {"count", "index", "numel", NULL};
    return i < 3 ? names[i] : NULL;
}

static Value *c_size(Value *self, CallArgs *a, void *d);
const VType t_size = {.name = "torch.Size", .destroy = size_destroy, .repr = size_repr, .len = size_len,
                      .hash = size_hash, .eq = size_eq, .compare = size_compare, .binop = size_binop,
                      .getitem = size_getitem, .iter = size_iter, .contains = size_contains,
                      .getattr = size_getattr, .dir = size_dir, .construct = c_size};

/* ------------------------------------------------------------ torch.return_types */

static void rt_destroy(Value *v)
{
    for (size_t i = 0; i < v->u.seq.n; i++) decref(v->u.seq.items[i]);
    free(v->u.seq.items);
}

/* torch/csrc/utils/structseq.cpp returned_structseq_repr: one field a line */
static Value *rt_repr(Value *v)
{
    const ReturnType *rt = (const ReturnType *)v->type;
    size_t cap = 128, n = 0;
    char *buf = value_malloc(cap);
    if (!buf) return NULL;
    n += (size_t)snprintf(buf, cap, "%s.%s(\n", rt->type.module, rt->type.name);
    for (size_t i = 0; i < v->u.seq.n; i++) {
        Value *r = value_repr(v->u.seq.items[i]);
        if (!r) { free(buf); return NULL; }
        size_t need = n + strlen(rt->fields[i]) + r->u.s.n + 8;
        if (need > cap) {
            char *nb = value_realloc(buf, cap = need * 2);
            if (!nb) { free(buf); decref(r); return NULL; }
            buf = nb;
        }
        n += (size_t)snprintf(buf + n, cap - n, "%s=%s%s", rt->fields[i], r->u.s.p, i + 1 < v->u.seq.n ? ",\n" : ")");
        decref(r);
    }
    return v_str_take(buf, n);
}

static int64_t rt_len(Value *v) { return (int64_t)v->u.seq.n; }
static Value *rt_iter(Value *v) { return v_seq_iter(v); }

static Value *rt_getitem(Value *v, Value *key)
{
    int64_t i;
    if (seq_index(key, (int64_t)v->u.seq.n, &i, "tuple") < 0) return NULL;
    return incref(v->u.seq.items[i]);
}

static Value *rt_getattr(Value *v, const char *name)
{
    const ReturnType *rt = (const ReturnType *)v->type;
    for (int i = 0; i < rt->n; i++)
        if (!strcmp(name, rt->fields[i])) return incref(v->u.seq.items[i]);
    return NULL;
}

static const char *rt_dir(Value *v, int i)
{
    const ReturnType *rt = (const ReturnType *)v->type;
    return i < rt->n ? rt->fields[i] : NULL;
}

#define RETURN_TYPE(nm, ...)                                                                      \
    {.type = {.name = nm, .module = "torch.return_types", .destroy = rt_destroy, .repr = rt_repr,  \
              .len = rt_len, .iter = rt_iter, .getitem = rt_getitem, .getattr = rt_getattr,        \
              .dir = rt_dir},                                                                      \
     .n = 2, .fields = {__VA_ARGS__}}
const ReturnType rt_frexp = RETURN_TYPE("frexp", "mantissa", "exponent");
const ReturnType rt_frexp_out = RETURN_TYPE("frexp_out", "mantissa", "exponent");
const ReturnType rt_max = RETURN_TYPE("max", "values", "indices");
const ReturnType rt_max_out = RETURN_TYPE("max_out", "values", "indices");
const ReturnType rt_min = RETURN_TYPE("min", "values", "indices");
const ReturnType rt_min_out = RETURN_TYPE("min_out", "values", "indices");
const ReturnType rt_aminmax = RETURN_TYPE("aminmax", "min", "max");
const ReturnType rt_aminmax_out = RETURN_TYPE("aminmax_out", "min", "max");
const ReturnType rt_cummax = RETURN_TYPE("cummax", "values", "indices");
const ReturnType rt_cummax_out = RETURN_TYPE("cummax_out", "values", "indices");
const ReturnType rt_cummin = RETURN_TYPE("cummin", "values", "indices");
const ReturnType rt_cummin_out = RETURN_TYPE("cummin_out", "values", "indices");
const ReturnType rt_sort = RETURN_TYPE("sort", "values", "indices");
const ReturnType rt_sort_out = RETURN_TYPE("sort_out", "values", "indices");
const ReturnType rt_median = RETURN_TYPE("median", "values", "indices");
const ReturnType rt_median_out = RETURN_TYPE("median_out", "values", "indices");
const ReturnType rt_nanmedian = RETURN_TYPE("nanmedian", "values", "indices");
const ReturnType rt_nanmedian_out = RETURN_TYPE("nanmedian_out", "values", "indices");
const ReturnType rt_mode = RETURN_TYPE("mode", "values", "indices");
const ReturnType rt_mode_out = RETURN_TYPE("mode_out", "values", "indices");
const ReturnType rt_topk = RETURN_TYPE("topk", "values", "indices");
const ReturnType rt_topk_out = RETURN_TYPE("topk_out", "values", "indices");
const ReturnType rt_kthvalue = RETURN_TYPE("kthvalue", "values", "indices");
const ReturnType rt_kthvalue_out = RETURN_TYPE("kthvalue_out", "values", "indices");
const ReturnType rt_histogram = RETURN_TYPE("histogram", "hist", "bin_edges");
const ReturnType rt_histogram_out = RETURN_TYPE("histogram_out", "hist", "bin_edges");
const ReturnType rt_histogramdd = RETURN_TYPE("histogramdd", "hist", "bin_edges");
#define RETURN_TYPE3(nm, ...)                                                                     \
    {.type = {.name = nm, .module = "torch.return_types", .destroy = rt_destroy, .repr = rt_repr,  \
              .len = rt_len, .iter = rt_iter, .getitem = rt_getitem, .getattr = rt_getattr,        \
              .dir = rt_dir},                                                                      \
     .n = 3, .fields = {__VA_ARGS__}}
const ReturnType rt_linalg_inv_ex = RETURN_TYPE("linalg_inv_ex", "inverse", "info");
const ReturnType rt_linalg_slogdet = RETURN_TYPE("linalg_slogdet", "sign", "logabsdet");
const ReturnType rt_slogdet = RETURN_TYPE("slogdet", "sign", "logabsdet");
const ReturnType rt_linalg_solve_ex = RETURN_TYPE("linalg_solve_ex", "result", "info");
const ReturnType rt_linalg_cholesky_ex = RETURN_TYPE("linalg_cholesky_ex", "L", "info");
const ReturnType rt_linalg_qr = RETURN_TYPE("linalg_qr", "Q", "R");
const ReturnType rt_qr = RETURN_TYPE("qr", "Q", "R");
const ReturnType rt_linalg_eigh = RETURN_TYPE("linalg_eigh", "eigenvalues", "eigenvectors");
const ReturnType rt_linalg_svd = RETURN_TYPE3("linalg_svd", "U", "S", "Vh");
const ReturnType rt_svd = RETURN_TYPE3("svd", "U", "S", "V");
const ReturnType rt_linalg_lu_factor = RETURN_TYPE("linalg_lu_factor", "LU", "pivots");
const ReturnType rt_linalg_lu_factor_ex = RETURN_TYPE3("linalg_lu_factor_ex", "LU", "pivots", "info");
const ReturnType rt_lu_with_info = RETURN_TYPE3("_lu_with_info", "LU", "pivots", "info");
const ReturnType rt_linalg_lu = RETURN_TYPE3("linalg_lu", "P", "L", "U");
const ReturnType rt_lu_unpack = RETURN_TYPE3("lu_unpack", "P", "L", "U");
const ReturnType rt_triangular_solve = RETURN_TYPE("triangular_solve", "solution", "cloned_coefficient");
const ReturnType rt_linalg_eig = RETURN_TYPE("linalg_eig", "eigenvalues", "eigenvectors");
const ReturnType rt_geqrf = RETURN_TYPE("geqrf", "a", "tau");
#define RETURN_TYPE4(nm, ...)                                                                     \
    {.type = {.name = nm, .module = "torch.return_types", .destroy = rt_destroy, .repr = rt_repr,  \
              .len = rt_len, .iter = rt_iter, .getitem = rt_getitem, .getattr = rt_getattr,        \
              .dir = rt_dir},                                                                      \
     .n = 4, .fields = {__VA_ARGS__}}
const ReturnType rt_linalg_lstsq = RETURN_TYPE4("linalg_lstsq", "solution", "residuals", "rank", "singular_values");
const ReturnType rt_linalg_ldl_factor = RETURN_TYPE("linalg_ldl_factor", "LD", "pivots");
const ReturnType rt_linalg_ldl_factor_ex = RETURN_TYPE3("linalg_ldl_factor_ex", "LD", "pivots", "info");
/* the same tuples as out= variants return them (torch.return_types.NAME_out) */
const ReturnType rt_linalg_inv_ex_out = RETURN_TYPE("linalg_inv_ex_out", "inverse", "info");
const ReturnType rt_linalg_slogdet_out = RETURN_TYPE("linalg_slogdet_out", "sign", "logabsdet");
const ReturnType rt_slogdet_out = RETURN_TYPE("slogdet_out", "sign", "logabsdet");
const ReturnType rt_linalg_solve_ex_out = RETURN_TYPE("linalg_solve_ex_out", "result", "info");
const ReturnType rt_linalg_cholesky_ex_out = RETURN_TYPE("linalg_cholesky_ex_out", "L", "info");
const ReturnType rt_linalg_qr_out = RETURN_TYPE("linalg_qr_out", "Q", "R");
const ReturnType rt_qr_out = RETURN_TYPE("qr_out", "Q", "R");
const ReturnType rt_linalg_eigh_out = RETURN_TYPE("linalg_eigh_out", "eigenvalues", "eigenvectors");
const ReturnType rt_linalg_svd_out = RETURN_TYPE3("linalg_svd_out", "U", "S", "Vh");
const ReturnType rt_svd_out = RETURN_TYPE3("svd_out", "U", "S", "V");
const ReturnType rt_linalg_lu_factor_out = RETURN_TYPE("linalg_lu_factor_out", "LU", "pivots");
const ReturnType rt_linalg_lu_factor_ex_out = RETURN_TYPE3("linalg_lu_factor_ex_out", "LU", "pivots", "info");
const ReturnType rt_linalg_lu_out = RETURN_TYPE3("linalg_lu_out", "P", "L", "U");
const ReturnType rt_lu_unpack_out = RETURN_TYPE3("lu_unpack_out", "P", "L", "U");
const ReturnType rt_triangular_solve_out = RETURN_TYPE("triangular_solve_out", "solution", "cloned_coefficient");
const ReturnType rt_linalg_eig_out = RETURN_TYPE("linalg_eig_out", "eigenvalues", "eigenvectors");
const ReturnType rt_geqrf_out = RETURN_TYPE("geqrf_out", "a", "tau");
const ReturnType rt_linalg_lstsq_out = RETURN_TYPE4("linalg_lstsq_out", "solution", "residuals", "rank",
                                                    "singular_values");
const ReturnType rt_linalg_ldl_factor_out = RETURN_TYPE("linalg_ldl_factor_out", "LD", "pivots");
const ReturnType rt_linalg_ldl_factor_ex_out = RETURN_TYPE3("linalg_ldl_factor_ex_out", "LD", "pivots", "info");

Value *v_return_type(const ReturnType *rt, Value **items)
{
    Value *v = value_alloc(&rt->type);
    Value **it = v ? value_malloc((size_t)rt->n * sizeof *it) : NULL;
    if (!it) {
        for (int i = 0; i < rt->n; i++) decref(items[i]);
        decref(v);
        return NULL;
    }
    for (int i = 0; i < rt->n; i++) it[i] = items[i];
    v->u.seq.items = it;
    v->u.seq.n = v->u.seq.cap = (size_t)rt->n;
    return v;
}

/* An int from an int, or from a one-element integer tensor (PyTorch takes
 * those wherever it takes an int: torch.Size([torch.tensor(2)])). */
static int int_of(Value *v, int64_t *out)
{
    if (is_int_like(v)) { *out = v->u.i; return 0; }
    if (is_tensor(v) && tsr_tensor_numel(tensor_of(v)) == 1 && tsr_dtype_is_integral(tensor_of(v)->dtype, true)) {
        tsr_scalar s;
        if (tsr_tensor_get_at(tensor_of(v), 0, &s) < 0) return bind_runtime_errori();
        *out = tsr_scalar_to_int64(s);
        return 0;
    }
    return 1;
}

static Value *c_size(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *x[1];
    /* torch.Size is a tuple subclass: tuple's own checks */
    if (a->nkw) return exc_set("TypeError", "tuple() takes no keyword arguments");
    if (a->npos > 1) return exc_set("TypeError", "tuple expected at most 1 argument, got %d", a->npos);
    x[0] = a->npos ? a->pos[0] : NULL;
    if (!x[0]) return v_size(0, NULL);
    Value *l = value_to_list(x[0]);
    if (!l) return NULL;
    Value *r = size_from_items(seq_len(l));
    for (size_t i = 0; i < seq_len(l); i++) {
        int64_t k;
        int e = int_of(seq_get(l, i), &k);
        if (e) {
            if (e > 0)
                exc_set("TypeError", "torch.Size() takes an iterable of 'int' (item %zu is '%s')", i,
                        type_name(seq_get(l, i)));
            r->u.seq.n = i;
            decref(r);
            decref(l);
            return NULL;
        }
        r->u.seq.items[i] = v_int(k);
    }
    decref(l);
    return r;
}

int bind_int_list(Value *v, const char *fname, const char *arg, int *n, int64_t *out, int max)
{
    if (is_int_like(v)) { *n = 1; out[0] = v->u.i; return 0; }
    if (v->type != &t_tuple && v->type != &t_list && v->type != &t_size)
        return exc_seti("TypeError", "%s(): argument '%s' must be tuple of ints, not %s", fname, arg, type_name(v));
    size_t len = seq_len(v);
    if ((int)len > max) return exc_seti("RuntimeError", "%s(): too many dimensions (%zu > %d)", fname, len, max);
    for (size_t i = 0; i < len; i++) {
        int e = int_of(seq_get(v, i), &out[i]);
        if (e < 0) return -1;
        if (e)
            return exc_seti("TypeError", "%s(): argument '%s' must be tuple of ints, but found element of type %s at pos %zu",
                            fname, arg, type_name(seq_get(v, i)), i);
    }
    *n = (int)len;
    return 0;
}

int bind_shape(CallArgs *a, int first, int count, const char *fname, int *n, int64_t *sizes)
{
    if (count == 1) {
        Value *v = a->pos[first];
        if (v->type == &t_tuple || v->type == &t_list || v->type == &t_size)
            return bind_int_list(v, fname, "size", n, sizes, TSR_MAX_DIMS);
    }
    if (count > TSR_MAX_DIMS)
        return exc_seti("RuntimeError", "%s(): too many dimensions (%d > %d)", fname, count, TSR_MAX_DIMS);
    for (int i = 0; i < count; i++) {
        Value *v = a->pos[first + i];
        int e = int_of(v, &sizes[i]);
        if (e < 0) return -1;
        if (e) {
            if (count == 1)
                return exc_seti("TypeError", "%s(): argument 'size' must be tuple of ints, not %s", fname, type_name(v));
            return exc_seti("TypeError", "%s(): argument 'size' must be tuple of ints, but found element of type %s at pos %d",
                            fname, type_name(v), i + 1);
        }
    }
    *n = count;
    return 0;
}

/* ------------------------------------------------------------ scalars */

int bind_scalar(Value *v, const char *fname, const char *arg, tsr_scalar *out)
{
    if (v->type == &t_bool) { *out = tsr_scalar_bool(v->u.i != 0); return 0; }
    if (v->type == &t_int) { *out = tsr_scalar_int(v->u.i); return 0; }
    if (v->type == &t_float) { *out = tsr_scalar_float(v->u.f); return 0; }
    if (v->type == &t_complex) { *out = tsr_scalar_complex(v->u.c.re, v->u.c.im); return 0; }
    if (is_tensor(v)) {
        tsr_tensor *t = tensor_of(v);
        if (tsr_tensor_numel(t) != 1)
            return exc_seti("ValueError", "only one element tensors can be converted to Python scalars");
        if (tsr_tensor_get_at(t, 0, out) < 0) return bind_runtime_errori();
        return 0;
    }
    return exc_seti("TypeError", "%s(): argument '%s' must be Number, not %s", fname, arg, type_name(v));
}

Value *v_from_scalar(tsr_scalar s)
{
    switch (s.kind) {
    case TSR_SCALAR_BOOL: return v_bool(s.i != 0);
    case TSR_SCALAR_INT: return v_int(s.i);
    case TSR_SCALAR_FLOAT: return v_float(s.d);
    case TSR_SCALAR_COMPLEX: return v_complex(s.re, s.im);
    }
    return v_none();
}

/* ------------------------------------------------------------ torch.* functions */

static Value *f_get_default_dtype(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (no_args(a, "get_default_dtype") || exc_pending()) return NULL;
    return v_dtype(tsr_default_dtype());
}

static Value *f_set_default_dtype(Value *self, CallArgs *a, void *dd)
{
    (void)self; (void)dd;
    Value *x[1];
    if (bind_args(a, "set_default_dtype", "def d", x)) return NULL;
    if (!is_dtype(x[0]))
        return exc_set("TypeError", "invalid dtype object: only floating-point types are supported as the default type");
    if (tsr_set_default_dtype(dtype_of(x[0])) < 0) return bind_runtime_error();
    return v_none();
}

static Value *f_set_default_tensor_type(Value *self, CallArgs *a, void *dd)
{
    (void)self; (void)dd;
    Value *x[1];
    if (bind_args(a, "set_default_tensor_type", "def t", x)) return NULL;
    Value *t = x[0];
    tsr_dtype d = TSR_DTYPE_UNDEFINED;
    bool cuda = false;
    if (t->type == &t_str) {
        const char *s = t->u.s.p;
        if (!strncmp(s, "torch.cuda.", 11)) { cuda = true; s += 11; }
        else if (!strncmp(s, "torch.", 6)) s += 6;
        else {
            char mod[128];
            snprintf(mod, sizeof mod, "%.*s", (int)strcspn(s, "."), s);
            return exc_set("ModuleNotFoundError", "No module named '%s'", mod);
        }
        d = tsr_dtype_from_tensor_type(s);
        if (d == TSR_DTYPE_UNDEFINED)
            return exc_set("AttributeError", "module '%s' has no attribute '%s'", cuda ? "torch.cuda" : "torch", s);
    } else if (t->type == &t_type) {
        const char *nm = t->u.typeobj->name;
        if (!strncmp(nm, "torch.", 6)) nm += 6;
        d = tsr_dtype_from_tensor_type(nm);
    }
    if (d == TSR_DTYPE_UNDEFINED)
        return exc_set("TypeError", "invalid type object: only floating-point types are supported as the default type");
    if (tsr_set_default_dtype(d) < 0) return bind_runtime_error();
    if (cuda) global_default_device = (tsr_device){TSR_DEV_CUDA, -1};
    else if (global_default_device.type == TSR_DEV_CUDA) global_default_device = TSR_CPU;
    return v_none();
}

/* ------------------------------------------------------------ registration */

static void add_type(Value *torch, const char *name, const VType *t)
{
    module_add(torch, name, v_typeobj(t));
}

void bind_types_init(void)
{
    Value *torch = bind_module("torch");
    bind_table_register(ctor_rows, (int)(sizeof ctor_rows / sizeof ctor_rows[0]));
    /* dtypes under their canonical names and aliases */
#define X(ID, num, name, alias, ...)                         \
    module_add(torch, name, v_dtype(TSR_##ID));                            \
    if (alias) module_add(torch, (const char *)(alias), v_dtype(TSR_##ID));
    TSR_DTYPES(X)
#undef X
    static const struct { const char *name; tsr_layout l; } layouts[] = {
        {"strided", TSR_LAYOUT_STRIDED}, {"sparse_coo", TSR_LAYOUT_SPARSE_COO},
        {"sparse_csr", TSR_LAYOUT_SPARSE_CSR}, {"sparse_csc", TSR_LAYOUT_SPARSE_CSC},
        {"sparse_bsr", TSR_LAYOUT_SPARSE_BSR}, {"sparse_bsc", TSR_LAYOUT_SPARSE_BSC},
        {"_mkldnn", TSR_LAYOUT_MKLDNN},
    };
    for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++)
        module_add(torch, layouts[i].name, v_layout(layouts[i].l));
    module_add(torch, "contiguous_format", v_memory_format(TSR_MF_CONTIGUOUS));
    module_add(torch, "preserve_format", v_memory_format(TSR_MF_PRESERVE));
    module_add(torch, "channels_last", v_memory_format(TSR_MF_CHANNELS_LAST));
    module_add(torch, "channels_last_3d", v_memory_format(TSR_MF_CHANNELS_LAST_3D));

    add_type(torch, "dtype", &t_dtype);
    add_type(torch, "device", &t_device);
    add_type(torch, "layout", &t_layout);
    add_type(torch, "memory_format", &t_memory_format);
    add_type(torch, "Size", &t_size);
    add_type(torch, "finfo", &t_finfo);
    add_type(torch, "iinfo", &t_iinfo);

    module_add_fn(torch, "get_default_dtype", f_get_default_dtype);
    module_add_fn(torch, "set_default_dtype", f_set_default_dtype);
    module_add_fn(torch, "set_default_tensor_type", f_set_default_tensor_type);
    module_add_fn(torch, "set_default_device", f_set_default_device);
    module_add_fn(torch, "get_default_device", f_get_default_device);
}
