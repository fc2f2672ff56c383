/* src/bind/random.c — torch's random API in the language: manual_seed, seed,
 * initial_seed, get/set_rng_state, torch.Generator, the random factories and
 * the in-place samplers, each with a generator= keyword where 1.13 has one.
 * Streams are the runtime's (runtime/ops/random.c, SEMANTICS.md §6). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/tensor.h"
#include "bind/areas.h"
#include "ops/random.h"

/* ------------------------------------------------------------ Generator */

static void gen_destroy(Value *v) { tsr_generator_release(v->u.ext.ptr); }

static Value *gen_repr(Value *v) { return v_strf("<torch._C.Generator object at %p>", (void *)v); }

static Value *gen_getattr(Value *v, const char *name);

static Value *f_generator(Value *self, CallArgs *a, void *d);
const VType t_generator = {.name = "Generator", .module = "torch._C", .destroy = gen_destroy,
                           .repr = gen_repr, .getattr = gen_getattr, .construct = f_generator};

static Value *v_generator(tsr_generator *g)
{
    Value *v = value_alloc(&t_generator);
    v->u.ext.ptr = g;
    return v;
}

static Value *default_gen_value;       /* torch.default_generator */

static tsr_generator *gen_of(Value *v) { return v->u.ext.ptr; }

/* A 64-bit seed as a Python int; tsr's ints are int64 (LANGUAGE.md). */
static Value *v_seed(uint64_t s)
{
    if (s > (uint64_t)INT64_MAX)
        return exc_set("OverflowError", "Python int too large to convert to C int64_t (tsr ints are 64-bit)");
    return v_int((int64_t)s);
}

/* Generator.manual_seed's argument: an int (negative ones wrap to uint64).
 * torch.manual_seed applies int() first, so floats and strings pass there. */
static int seed_arg(Value *v, bool via_int, uint64_t *out)
{
    if (is_int_like(v)) { *out = (uint64_t)v->u.i; return 0; }
    if (via_int && v->type == &t_float) {
        if (!isfinite(v->u.f))
            return exc_seti(isnan(v->u.f) ? "ValueError" : "OverflowError",
                            isnan(v->u.f) ? "cannot convert float NaN to integer" : "cannot convert float infinity to integer");
        *out = (uint64_t)(int64_t)v->u.f;
        return 0;
    }
    if (via_int && v->type == &t_str) {
        char *end;
        long long x = strtoll(v->u.s.p, &end, 10);
        if (end == v->u.s.p || *end)
            return exc_seti("ValueError", "invalid literal for int() with base 10: '%s'", v->u.s.p);
        *out = (uint64_t)x;
        return 0;
    }
    if (via_int)
        return exc_seti("TypeError", "int() argument must be a string, a bytes-like object or a real number, not '%s'",
                        type_name(v));
    return exc_seti("RuntimeError", "manual_seed expected a long, but got %s", type_name(v));
}

static Value *m_manual_seed(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *args[1];
    if (bind_args(a, "manual_seed", "seed", args) < 0) return NULL;
    uint64_t s;
    if (seed_arg(args[0], false, &s) < 0) return NULL;
    tsr_generator_manual_seed(gen_of(self), s);
    return incref(self);
}

static Value *m_seed(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (bind_args(a, "seed", "", NULL) < 0) return NULL;
    return v_seed(tsr_generator_seed(gen_of(self)));
}

static Value *m_initial_seed(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (bind_args(a, "initial_seed", "", NULL) < 0) return NULL;
    return v_seed(tsr_generator_initial_seed(gen_of(self)));
}

static Value *m_get_state(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (bind_args(a, "get_state", "", NULL) < 0) return NULL;
    return v_tensor(tsr_generator_get_state(gen_of(self)));
}

static int set_state(tsr_generator *g, Value *st)
{
    if (!is_tensor(st)) return exc_seti("TypeError", "expected a torch.ByteTensor, but got %s", type_name(st));
    return tsr_generator_set_state(g, tensor_of(st)) < 0 ? bind_runtime_errori() : 0;
}

static Value *m_set_state(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *args[1];
    if (bind_args(a, "set_state", "new_state", args) < 0) return NULL;
    if (set_state(gen_of(self), args[0]) < 0) return NULL;
    return incref(self);
}

static Value *gen_getattr(Value *v, const char *name)
{
    static const struct { const char *name; BuiltinFn fn; } ms[] = {
        {"manual_seed", m_manual_seed}, {"seed", m_seed}, {"initial_seed", m_initial_seed},
        {"get_state", m_get_state}, {"set_state", m_set_state},
    };
    for (size_t i = 0; i < sizeof ms / sizeof *ms; i++)
        if (!strcmp(name, ms[i].name)) return v_builtin(ms[i].name, ms[i].fn, v, NULL);
    if (!strcmp(name, "device")) return v_device(TSR_CPU);
    return NULL;
}

/* torch.Generator(device='cpu') */
static Value *f_generator(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *args[1];
    if (bind_args(a, "Generator", "device=", args) < 0) return NULL;
    tsr_device dev;
    if (bind_device_arg(args[0], TSR_CPU, &dev) < 0) return NULL;
    if (dev.type != TSR_DEV_CPU) {
        char up[32];
        snprintf(up, sizeof up, "%s", tsr_device_type_name(dev.type));
        for (char *p = up; *p; p++) if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 32);
        return exc_set("RuntimeError", "Device type %s is not supported for torch.Generator() api.", up);
    }
    tsr_generator *g = tsr_generator_new(TSR_DEFAULT_RNG_SEED);
    return g ? v_generator(g) : bind_runtime_error();
}

/* ------------------------------------------------------------ arguments */

/* The generator= keyword: a Generator or None (-> NULL: the default). */
static int gen_arg(Value *v, const char *fname, tsr_generator **out)
{
    *out = NULL;
    if (!v || is_none(v)) return 0;
    if (v->type == &t_generator) { *out = gen_of(v); return 0; }
    return exc_seti("TypeError", "%s(): argument 'generator' must be torch.Generator, not %s", fname, type_name(v));
}

static int cmp_kw(const void *x, const void *y) { return strcmp(*(const char *const *)x, *(const char *const *)y); }

/* First line of python_arg_parser's message for a call no signature takes:
 * "f() received an invalid combination of arguments - got (int, generator=int),
 * but expected one of:" (keywords sorted, as PyTorch's map holds them). */
static int combo(const char *fname, CallArgs *a)
{
    char got[512], kws[16][64];
    const char *kp[16];
    size_t n = 0;
    got[0] = 0;
    for (int i = 0; i < a->npos && n < sizeof got - 80; i++)
        n += (size_t)snprintf(got + n, sizeof got - n, "%s%s", i ? ", " : "", type_name(a->pos[i]));
    int nk = a->nkw < 16 ? a->nkw : 16;
    for (int i = 0; i < nk; i++) {
        snprintf(kws[i], sizeof kws[i], "%s=%s", a->kwnames[i], type_name(a->kw[i]));
        kp[i] = kws[i];
    }
    qsort(kp, (size_t)nk, sizeof *kp, cmp_kw);
    for (int i = 0; i < nk && n < sizeof got - 80; i++)
        n += (size_t)snprintf(got + n, sizeof got - n, "%s%s", (i || a->npos) ? ", " : "", kp[i]);
    if (nk && !a->npos) snprintf(got + n, sizeof got - n, ", ");    /* sic, 1.13 */
    return exc_seti("TypeError",
                    "%s() received an invalid combination of arguments - got (%s), but expected one of:", fname, got);
}

/* A generator= of the wrong type in a function with several signatures. */
static int gen_combo(Value *g, const char *fname, CallArgs *a)
{
    if (g && !is_none(g) && g->type != &t_generator) return combo(fname, a);
    return 0;
}

static int float_arg(Value *v, const char *fname, const char *arg, double dflt, double *out)
{
    if (!v) { *out = dflt; return 0; }
    if (is_tensor(v) && tsr_tensor_numel(tensor_of(v)) == 1 && tensor_of(v)->ndim == 0) {
        *out = tsr_tensor_get_double_at(tensor_of(v), 0);
        return 0;
    }
    return bind_float(v, fname, arg, out);
}

static int int_arg(Value *v, const char *fname, const char *arg, int64_t *out)
{
    if (is_tensor(v) && tsr_dtype_is_integral(tensor_of(v)->dtype, true) && tsr_tensor_numel(tensor_of(v)) == 1 &&
        tensor_of(v)->ndim == 0) {
        *out = tsr_tensor_get_int64_at(tensor_of(v), 0);
        return 0;
    }
    return bind_int(v, fname, arg, out);
}

/* Creation keywords shared by the factories. */
typedef struct {
    tsr_dtype dtype;
    tsr_device device;
    bool requires_grad;
    tsr_generator *gen;
    Value *out;                 /* borrowed out= tensor value, or NULL */
} Opts;

/* The creation keywords; with out= (a tensor, or None for absent) they are
 * checked against it as check_out_type_matches does and dtype and device
 * become its own. */
static int opts(const char *fname, Value *dtype, Value *device, Value *layout, Value *rg, Value *gen, Value *out,
                tsr_dtype dflt, Opts *o)
{
    o->out = out && !is_none(out) ? out : NULL;
    tsr_tensor *ot = o->out ? tensor_of(o->out) : NULL;
    if (bind_dtype_arg(dtype, fname, ot ? ot->dtype : dflt, &o->dtype) < 0) return -1;
    if (bind_device_arg(device, ot ? ot->device : bind_default_device(), &o->device) < 0) return -1;
    o->device = tsr_device_normalize(o->device);
    o->requires_grad = false;
    if (rg && !is_none(rg) && bind_bool(rg, fname, "requires_grad", &o->requires_grad) < 0) return -1;
    bool has_layout = layout && !is_none(layout);
    if (has_layout && layout->type != &t_layout)
        return exc_seti("TypeError", "%s(): argument 'layout' must be torch.layout, not %s", fname, type_name(layout));
    if (ot) {
        tsr_layout lay = has_layout ? (tsr_layout)layout->u.ext.a : ot->layout;
        bool has_dtype = dtype && !is_none(dtype), has_dev = device && !is_none(device);
        if (tsr_check_out_options(ot, has_dtype ? &o->dtype : NULL, &lay, has_dev ? &o->device : NULL) < 0)
            return bind_runtime_errori();
    } else if (has_layout && layout->u.ext.a != TSR_LAYOUT_STRIDED) {
        return exc_seti("NotImplementedError", "tsr: %s(): only the strided layout is supported", fname);
    }
    return gen_arg(gen, fname, &o->gen);
}

/* requires_grad on a result: the new tensor t (stolen), or with out= the
 * out tensor that rc < 0 says was not filled. */
static Value *finish_rc(tsr_tensor *t, int rc, const Opts *o)
{
    if (o->out) {
        if (rc < 0) return bind_runtime_error();
        t = tsr_tensor_retain(tensor_of(o->out));
    }
    if (!t) return bind_runtime_error();
    if (o->requires_grad) {
        if (!tsr_dtype_is_floating(t->dtype) && !tsr_dtype_is_complex(t->dtype)) {
            tsr_tensor_release(t);
            return exc_set("RuntimeError", "Only Tensors of floating point and complex dtype can require gradients");
        }
        t->requires_grad = true;
    }
    if (o->out) {
        tsr_tensor_release(t);
        return incref(o->out);
    }
    return v_tensor(t);
}

static Value *finish(tsr_tensor *t, const Opts *o, const char *fname)
{
    (void)fname;
    return finish_rc(t, 0, o);
}

/* Splits keywords into the named slots (NULL when absent); others: TypeError. */
static int combo(const char *fname, CallArgs *a);

static int kwsplit(CallArgs *a, const char *fname, const char *const *names, Value **out, bool multi)
{
    for (int i = 0; names[i]; i++) out[i] = NULL;
    for (int j = 0; j < a->nkw; j++) {
        int k = -1;
        for (int i = 0; names[i]; i++)
            if (!strcmp(names[i], a->kwnames[j])) k = i;
        if (k < 0) {
            if (multi) return combo(fname, a);
            return exc_seti("TypeError", "%s() got an unexpected keyword argument '%s'", fname, a->kwnames[j]);
        }
        out[k] = a->kw[j];
    }
    return 0;
}

enum { O_GEN, O_DTYPE, O_LAYOUT, O_DEVICE, O_PIN, O_RG, O_SIZE, O_OUT, O_N };
static const char *const fact_kw[] = {"generator", "dtype", "layout", "device", "pin_memory", "requires_grad", "size",
                                      "out", NULL};

/* An out= that is not a tensor matches no signature. */
static int out_combo(Value *out, const char *fname, CallArgs *a)
{
    if (out && !is_none(out) && !is_tensor(out)) return combo(fname, a);
    return 0;
}

/* ------------------------------------------------------------ rand, randn */

static Value *sized(CallArgs *a, const char *fname, bool normal)
{
    Value *kv[O_N];
    if (kwsplit(a, fname, fact_kw, kv, true) < 0) return NULL;
    if (gen_combo(kv[O_GEN], fname, a) < 0 || out_combo(kv[O_OUT], fname, a) < 0) return NULL;
    int n;
    int64_t sizes[TSR_MAX_DIMS];
    if (kv[O_SIZE]) {
        if (a->npos) return exc_set("TypeError", "%s() got multiple values for argument 'size'", fname);
        CallArgs b = {&kv[O_SIZE], 1, NULL, NULL, 0};
        if (bind_shape(&b, 0, 1, fname, &n, sizes) < 0) return NULL;
    } else {
        if (a->npos == 0) return exc_set("TypeError", "%s() missing 1 required positional arguments: \"size\"", fname);
        if (bind_shape(a, 0, a->npos, fname, &n, sizes) < 0) return NULL;
    }
    Opts o;
    if (opts(fname, kv[O_DTYPE], kv[O_DEVICE], kv[O_LAYOUT], kv[O_RG], kv[O_GEN], kv[O_OUT], tsr_default_dtype(),
             &o) < 0)
        return NULL;
    if (o.out) {
        tsr_tensor *ot = tensor_of(o.out);
        int rc = normal ? tsr_randn_out(ot, n, sizes, o.gen) : tsr_rand_out(ot, n, sizes, o.gen);
        return finish_rc(NULL, rc, &o);
    }
    tsr_tensor *t = normal ? tsr_randn(n, sizes, o.dtype, o.device, o.gen) : tsr_rand(n, sizes, o.dtype, o.device, o.gen);
    return finish(t, &o, fname);
}

static Value *f_rand(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return sized(a, "rand", false); }
static Value *f_randn(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return sized(a, "randn", true); }

/* ------------------------------------------------------------ randint, randperm */

static Value *f_randint(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    static const char *const kw[] = {"generator", "dtype", "layout", "device", "pin_memory", "requires_grad", "size",
                                     "out", "low", "high", NULL};
    Value *kv[O_N + 2];
    if (kwsplit(a, "randint", kw, kv, true) < 0 || gen_combo(kv[O_GEN], "randint", a) < 0 ||
        out_combo(kv[O_OUT], "randint", a) < 0)
        return NULL;
    Value *lowv = kv[O_N], *highv = kv[O_N + 1], *sizev = kv[O_SIZE];
    Value *pos[3] = {NULL, NULL, NULL};
    if (a->npos > 3) return exc_set("TypeError", "randint() takes from 2 to 3 positional arguments but %d were given", a->npos);
    for (int i = 0; i < a->npos; i++) pos[i] = a->pos[i];
    if (a->npos == 3) { lowv = pos[0]; highv = pos[1]; sizev = pos[2]; }
    else if (a->npos == 2) {
        if (sizev) { lowv = pos[0]; highv = pos[1]; }
        else { highv = pos[0]; sizev = pos[1]; }
    } else if (a->npos == 1) {
        if (highv) lowv = pos[0];
        else highv = pos[0];
    }
    if (!highv || !sizev)
        return exc_set("TypeError", "randint() missing required argument '%s'", !highv ? "high" : "size");
    int64_t low = 0, high;
    if (lowv && int_arg(lowv, "randint", "low", &low) < 0) return NULL;
    if (int_arg(highv, "randint", "high", &high) < 0) return NULL;
    int n;
    int64_t sizes[TSR_MAX_DIMS];
    if (sizev->type != &t_tuple && sizev->type != &t_list && sizev->type != &t_size)
        return exc_set("TypeError", "randint(): argument 'size' must be tuple of ints, not %s", type_name(sizev));
    CallArgs b = {&sizev, 1, NULL, NULL, 0};
    if (bind_shape(&b, 0, 1, "randint", &n, sizes) < 0) return NULL;
    Opts o;
    if (opts("randint", kv[O_DTYPE], kv[O_DEVICE], kv[O_LAYOUT], kv[O_RG], kv[O_GEN], kv[O_OUT], TSR_INT64, &o) < 0)
        return NULL;
    if (o.out) return finish_rc(NULL, tsr_randint_out(tensor_of(o.out), low, high, n, sizes, o.gen), &o);
    return finish(tsr_randint(low, high, n, sizes, o.dtype, o.device, o.gen), &o, "randint");
}

static Value *f_randperm(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    static const char *const kw[] = {"generator", "dtype", "layout", "device", "pin_memory", "requires_grad", "n",
                                     "out", NULL};
    Value *kv[O_N];
    if (kwsplit(a, "randperm", kw, kv, true) < 0 || gen_combo(kv[O_GEN], "randperm", a) < 0 ||
        out_combo(kv[O_OUT], "randperm", a) < 0)
        return NULL;
    Value *nv = kv[O_SIZE];
    if (a->npos > 1) return exc_set("TypeError", "randperm() takes 1 positional argument but %d were given", a->npos);
    if (a->npos == 1) {
        if (nv) return exc_set("TypeError", "randperm() got multiple values for argument 'n'");
        nv = a->pos[0];
    }
    if (!nv) return exc_set("TypeError", "randperm() missing 1 required positional arguments: \"n\"");
    int64_t n;
    if (int_arg(nv, "randperm", "n", &n) < 0) return NULL;
    Opts o;
    if (opts("randperm", kv[O_DTYPE], kv[O_DEVICE], kv[O_LAYOUT], kv[O_RG], kv[O_GEN], kv[O_OUT], TSR_INT64, &o) < 0)
        return NULL;
    if (o.out) return finish_rc(NULL, tsr_randperm_out(tensor_of(o.out), n, o.gen), &o);
    return finish(tsr_randperm(n, o.dtype, o.device, o.gen), &o, "randperm");
}

/* ------------------------------------------------------------ *_like */

enum { L_DTYPE, L_LAYOUT, L_DEVICE, L_PIN, L_RG, L_MF, L_INPUT, L_LOW, L_HIGH, L_N };
static const char *const like_kw[] = {"dtype", "layout", "device", "pin_memory", "requires_grad", "memory_format",
                                      "input", "low", "high", NULL};

typedef enum { LIKE_RAND, LIKE_RANDN, LIKE_RANDINT } LikeKind;

static Value *like(CallArgs *a, const char *fname, LikeKind kind)
{
    Value *kv[L_N];
    if (kwsplit(a, fname, like_kw, kv, false) < 0) return NULL;
    if (kind != LIKE_RANDINT && (kv[L_LOW] || kv[L_HIGH]))
        return exc_set("TypeError", "%s() got an unexpected keyword argument '%s'", fname, kv[L_LOW] ? "low" : "high");
    Value *pos[3] = {kv[L_INPUT], NULL, NULL};
    int np = 0, maxp = kind == LIKE_RANDINT ? 3 : 1;
    if (a->npos > maxp) return exc_set("TypeError", "%s() takes %d positional argument%s but %d were given", fname, maxp,
                                       maxp == 1 ? "" : "s", a->npos);
    for (int i = 0; i < a->npos; i++) pos[np++] = a->pos[i];
    if (kv[L_INPUT] && a->npos) return exc_set("TypeError", "%s() got multiple values for argument 'input'", fname);
    Value *input = kv[L_INPUT] ? kv[L_INPUT] : pos[0];
    if (!input) return exc_set("TypeError", "%s() missing 1 required positional arguments: \"input\"", fname);
    if (!is_tensor(input))
        return exc_set("TypeError", "%s(): argument 'input' (position 1) must be Tensor, not %s", fname, type_name(input));
    tsr_tensor *src = tensor_of(input);
    int64_t low = 0, high = 0;
    if (kind == LIKE_RANDINT) {
        Value *lowv = kv[L_LOW], *highv = kv[L_HIGH];
        if (a->npos == 3) { lowv = a->pos[1]; highv = a->pos[2]; }
        else if (a->npos == 2) { if (highv) lowv = a->pos[1]; else highv = a->pos[1]; }
        if (!highv) return exc_set("TypeError", "%s() missing required argument 'high'", fname);
        if (lowv && int_arg(lowv, fname, "low", &low) < 0) return NULL;
        if (int_arg(highv, fname, "high", &high) < 0) return NULL;
    }
    tsr_dtype dt;
    tsr_device dev;
    tsr_memory_format mf;
    if (bind_dtype_arg(kv[L_DTYPE], fname, src->dtype, &dt) < 0) return NULL;
    if (bind_device_arg(kv[L_DEVICE], src->device, &dev) < 0) return NULL;
    if (bind_memory_format_arg(kv[L_MF], TSR_MF_PRESERVE, &mf) < 0) return NULL;
    Opts o = {dt, tsr_device_normalize(dev), false, NULL, NULL};
    if (kv[L_RG] && !is_none(kv[L_RG]) && bind_bool(kv[L_RG], fname, "requires_grad", &o.requires_grad) < 0) return NULL;
    tsr_tensor *t = tsr_empty_like(src, dt, o.device, mf);
    if (!t) return bind_runtime_error();
    int rc = kind == LIKE_RAND ? tsr_uniform_(t, 0, 1, NULL)
           : kind == LIKE_RANDN ? tsr_normal_(t, 0, 1, NULL)
                                : tsr_random_from_to_(t, low, &high, NULL);
    if (rc < 0) { tsr_tensor_release(t); return bind_runtime_error(); }
    return finish(t, &o, fname);
}

static Value *f_rand_like(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return like(a, "rand_like", LIKE_RAND); }
static Value *f_randn_like(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return like(a, "randn_like", LIKE_RANDN); }
static Value *f_randint_like(Value *s, CallArgs *a, void *d) { (void)s; (void)d; return like(a, "randint_like", LIKE_RANDINT); }

/* ------------------------------------------------------------ normal */

static const char *const sigs_normal =
    "normal() received an invalid combination of arguments - got (%s), but expected one of:\n"
    " * (Tensor mean, Tensor std, *, torch.Generator generator, Tensor out)\n"
    " * (Tensor mean, float std, *, torch.Generator generator, Tensor out)\n"
    " * (float mean, Tensor std, *, torch.Generator generator, Tensor out)\n"
    " * (float mean, float std, tuple of ints size, *, torch.Generator generator, Tensor out, torch.dtype dtype, "
    "torch.layout layout, torch.device device, bool pin_memory, bool requires_grad)\n";

static Value *normal_combo(CallArgs *a)
{
    char got[512];
    size_t n = 0;
    got[0] = 0;
    for (int i = 0; i < a->npos && n < sizeof got - 64; i++)
        n += (size_t)snprintf(got + n, sizeof got - n, "%s%s", i ? ", " : "", type_name(a->pos[i]));
    char kws[16][64];
    const char *kp[16];
    int nk = a->nkw < 16 ? a->nkw : 16;
    for (int i = 0; i < nk; i++) {
        snprintf(kws[i], sizeof kws[i], "%s=%s", a->kwnames[i], type_name(a->kw[i]));
        kp[i] = kws[i];
    }
    qsort(kp, (size_t)nk, sizeof *kp, cmp_kw);   /* PyTorch's keyword map is sorted */
    for (int i = 0; i < nk && n < sizeof got - 64; i++)
        n += (size_t)snprintf(got + n, sizeof got - n, "%s%s", (i || a->npos) ? ", " : "", kp[i]);
    return exc_set("TypeError", sigs_normal, got);
}

/* python_arg_parser's "float": a Python number or a zero-dim tensor that
 * does not require grad. */
static bool is_float_like(Value *v)
{
    if (is_number(v)) return true;
    return is_tensor(v) && tensor_of(v)->ndim == 0 && !tensor_of(v)->requires_grad;
}

static Value *f_normal(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    static const char *const kw[] = {"generator", "dtype", "layout", "device", "pin_memory", "requires_grad", "size",
                                     "out", "mean", "std", NULL};
    Value *kv[O_N + 2];
    if (kwsplit(a, "normal", kw, kv, true) < 0 || gen_combo(kv[O_GEN], "normal", a) < 0) return NULL;
    Value *mean = kv[O_N], *std = kv[O_N + 1], *size = kv[O_SIZE], *outv = kv[O_OUT];
    if (a->npos > 3) return normal_combo(a);
    if (a->npos >= 1) { if (mean) return normal_combo(a); mean = a->pos[0]; }
    if (a->npos >= 2) { if (std) return normal_combo(a); std = a->pos[1]; }
    if (a->npos >= 3) { if (size) return normal_combo(a); size = a->pos[2]; }
    if (!mean) return normal_combo(a);
    if (outv && is_none(outv)) outv = NULL;
    if (outv && !is_tensor(outv)) return normal_combo(a);
    tsr_tensor *out = outv ? tensor_of(outv) : NULL;
    bool mt = is_tensor(mean), st = std && is_tensor(std);
    tsr_generator *g;
    if (gen_arg(kv[O_GEN], "normal", &g) < 0) return NULL;
    if (!size && (mt || st)) {
        /* (Tensor, Tensor), (Tensor, float), (float, Tensor), tried in that order */
        if (kv[O_DTYPE] || kv[O_DEVICE] || kv[O_LAYOUT] || kv[O_PIN] || kv[O_RG]) return normal_combo(a);
        int rc = 0;
        tsr_tensor *r = NULL;
        double x;
        if (mt && st) {
            if (out) rc = tsr_normal_tt_out(out, tensor_of(mean), tensor_of(std), g);
            else r = tsr_normal_tt(tensor_of(mean), tensor_of(std), g);
        } else if (mt) {
            if (std && !is_number(std)) return normal_combo(a);
            if (float_arg(std, "normal", "std", 1.0, &x) < 0) return NULL;
            if (out) rc = tsr_normal_tf_out(out, tensor_of(mean), x, g);
            else r = tsr_normal_tf(tensor_of(mean), x, g);
        } else {
            if (!is_float_like(mean)) return normal_combo(a);
            if (float_arg(mean, "normal", "mean", 0.0, &x) < 0) return NULL;
            if (out) rc = tsr_normal_ft_out(out, x, tensor_of(std), g);
            else r = tsr_normal_ft(x, tensor_of(std), g);
        }
        if (out) return rc < 0 ? bind_runtime_error() : incref(outv);
        return r ? v_tensor(r) : bind_runtime_error();
    }
    if (!std || !size || !is_float_like(mean) || !is_float_like(std)) return normal_combo(a);
    double m, s;
    if (float_arg(mean, "normal", "mean", 0, &m) < 0 || float_arg(std, "normal", "std", 1, &s) < 0) return NULL;
    int n;
    int64_t sizes[TSR_MAX_DIMS];
    if (size->type != &t_tuple && size->type != &t_list && size->type != &t_size) return normal_combo(a);
    CallArgs b = {&size, 1, NULL, NULL, 0};
    if (bind_shape(&b, 0, 1, "normal", &n, sizes) < 0) return NULL;
    Opts o;
    if (opts("normal", kv[O_DTYPE], kv[O_DEVICE], kv[O_LAYOUT], kv[O_RG], kv[O_GEN], outv, tsr_default_dtype(), &o) < 0)
        return NULL;
    if (o.out) return finish_rc(NULL, tsr_normal_size_out(out, m, s, n, sizes, o.gen), &o);
    return finish(tsr_normal_size(m, s, n, sizes, o.dtype, o.device, o.gen), &o, "normal");
}

/* ------------------------------------------------------------ bernoulli, multinomial, poisson */

static Value *f_bernoulli(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *args[3];
    if (bind_args(a, "bernoulli", "input, p=, *, generator=", args) < 0 || gen_combo(args[2], "bernoulli", a) < 0)
        return NULL;
    if (!is_tensor(args[0]))
        return exc_set("TypeError", "bernoulli(): argument 'input' (position 1) must be Tensor, not %s", type_name(args[0]));
    tsr_generator *g;
    if (gen_arg(args[2], "bernoulli", &g) < 0) return NULL;
    (void)self;
    if (args[1] && !is_none(args[1])) {
        double p;
        if (float_arg(args[1], "bernoulli", "p", 0.5, &p) < 0) return NULL;
        return v_tensor(tsr_bernoulli_p(tensor_of(args[0]), p, g));
    }
    return v_tensor(tsr_bernoulli(tensor_of(args[0]), g));
}

static Value *f_multinomial(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *args[4];
    if (bind_args(a, "multinomial", "input, num_samples, replacement=, *, generator=", args) < 0) return NULL;
    if (!is_tensor(args[0]))
        return exc_set("TypeError", "multinomial(): argument 'input' (position 1) must be Tensor, not %s", type_name(args[0]));
    int64_t n;
    bool repl = false;
    tsr_generator *g;
    if (int_arg(args[1], "multinomial", "num_samples", &n) < 0) return NULL;
    if (args[2] && bind_bool(args[2], "multinomial", "replacement", &repl) < 0) return NULL;
    if (gen_arg(args[3], "multinomial", &g) < 0) return NULL;
    return v_tensor(tsr_multinomial(tensor_of(args[0]), n, repl, g));
}

static Value *f_poisson(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *args[2];
    if (bind_args(a, "poisson", "input, generator=", args) < 0) return NULL;
    if (!is_tensor(args[0]))
        return exc_set("TypeError", "poisson(): argument 'input' (position 1) must be Tensor, not %s", type_name(args[0]));
    tsr_generator *g;
    if (gen_arg(args[1], "poisson", &g) < 0) return NULL;
    return v_tensor(tsr_poisson(tensor_of(args[0]), g));
}

/* ------------------------------------------------------------ in-place methods */

/* Runs an in-place sampler and returns self (new reference). */
static Value *done(Value *self, int rc) { return rc < 0 ? bind_runtime_error() : incref(self); }

static Value *m_uniform_(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *v[3];
    double from, to;
    tsr_generator *g;
    if (bind_args(a, "uniform_", "from=, to=, *, generator=", v) < 0 || float_arg(v[0], "uniform_", "from", 0, &from) < 0 ||
        float_arg(v[1], "uniform_", "to", 1, &to) < 0 || gen_arg(v[2], "uniform_", &g) < 0)
        return NULL;
    return done(self, tsr_uniform_(tensor_of(self), from, to, g));
}

static Value *m_normal_(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *v[3];
    double mean, std;
    tsr_generator *g;
    if (bind_args(a, "normal_", "mean=, std=, *, generator=", v) < 0 || float_arg(v[0], "normal_", "mean", 0, &mean) < 0 ||
        float_arg(v[1], "normal_", "std", 1, &std) < 0 || gen_arg(v[2], "normal_", &g) < 0)
        return NULL;
    return done(self, tsr_normal_(tensor_of(self), mean, std, g));
}

static Value *m_cauchy_(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *v[3];
    double median, sigma;
    tsr_generator *g;
    if (bind_args(a, "cauchy_", "median=, sigma=, *, generator=", v) < 0 ||
        float_arg(v[0], "cauchy_", "median", 0, &median) < 0 || float_arg(v[1], "cauchy_", "sigma", 1, &sigma) < 0 ||
        gen_arg(v[2], "cauchy_", &g) < 0)
        return NULL;
    return done(self, tsr_cauchy_(tensor_of(self), median, sigma, g));
}

static Value *m_log_normal_(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *v[3];
    double mean, std;
    tsr_generator *g;
    if (bind_args(a, "log_normal_", "mean=, std=, *, generator=", v) < 0 ||
        float_arg(v[0], "log_normal_", "mean", 1, &mean) < 0 || float_arg(v[1], "log_normal_", "std", 2, &std) < 0 ||
        gen_arg(v[2], "log_normal_", &g) < 0)
        return NULL;
    return done(self, tsr_log_normal_(tensor_of(self), mean, std, g));
}

static Value *m_exponential_(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *v[2];
    double l;
    tsr_generator *g;
    if (bind_args(a, "exponential_", "lambd=, *, generator=", v) < 0 || float_arg(v[0], "exponential_", "lambd", 1, &l) < 0 ||
        gen_arg(v[1], "exponential_", &g) < 0)
        return NULL;
    return done(self, tsr_exponential_(tensor_of(self), l, g));
}

static Value *m_geometric_(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *v[2];
    double p;
    tsr_generator *g;
    if (bind_args(a, "geometric_", "p, *, generator=", v) < 0 || float_arg(v[0], "geometric_", "p", 0, &p) < 0 ||
        gen_arg(v[1], "geometric_", &g) < 0)
        return NULL;
    return done(self, tsr_geometric_(tensor_of(self), p, g));
}

static Value *m_bernoulli_(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *v[2];
    tsr_generator *g;
    if (bind_args(a, "bernoulli_", "p=, *, generator=", v) < 0 || gen_combo(v[1], "bernoulli_", a) < 0 ||
        gen_arg(v[1], "bernoulli_", &g) < 0)
        return NULL;
    if (v[0] && is_tensor(v[0]) && tensor_of(v[0])->ndim > 0)
        return done(self, tsr_bernoulli_tensor_(tensor_of(self), tensor_of(v[0]), g));
    if (v[0] && is_tensor(v[0])) return done(self, tsr_bernoulli_tensor_(tensor_of(self), tensor_of(v[0]), g));
    double p;
    if (float_arg(v[0], "bernoulli_", "p", 0.5, &p) < 0) return NULL;
    return done(self, tsr_bernoulli_(tensor_of(self), p, g));
}

/* random_(), random_(to), random_(from, to) with to=None allowed. */
static Value *m_random_(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *v[3];
    tsr_generator *g;
    if (bind_args(a, "random_", "from=, to=, *, generator=", v) < 0 || gen_combo(v[2], "random_", a) < 0 ||
        gen_arg(v[2], "random_", &g) < 0)
        return NULL;
    tsr_tensor *t = tensor_of(self);
    if (!v[0] && !v[1]) return done(self, tsr_random_(t, g));
    int64_t from = 0, to;
    if (v[0] && !v[1] && a->npos == 1) {          /* random_(to) */
        if (int_arg(v[0], "random_", "to", &to) < 0) return NULL;
        return done(self, tsr_random_from_to_(t, 0, &to, g));
    }
    if (v[0] && int_arg(v[0], "random_", "from", &from) < 0) return NULL;
    if (!v[1] || is_none(v[1])) return done(self, tsr_random_from_to_(t, from, NULL, g));
    if (int_arg(v[1], "random_", "to", &to) < 0) return NULL;
    return done(self, tsr_random_from_to_(t, from, &to, g));
}

/* x.bernoulli(p=None) and x.multinomial(...) as methods. */
static Value *m_bernoulli(Value *self, CallArgs *a, void *d)
{
    Value *stack[8];
    if (a->npos > 6) return exc_set("TypeError", "bernoulli() takes at most 2 positional arguments");
    stack[0] = self;
    for (int i = 0; i < a->npos; i++) stack[i + 1] = a->pos[i];
    CallArgs b = {stack, a->npos + 1, a->kwnames, a->kw, a->nkw};
    return f_bernoulli(NULL, &b, d);
}

/* ------------------------------------------------------------ torch.* seeds and state */

static Value *f_manual_seed(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *args[1];
    if (bind_args(a, "manual_seed", "seed", args) < 0) return NULL;
    uint64_t s;
    if (seed_arg(args[0], true, &s) < 0) return NULL;
    tsr_generator_manual_seed(NULL, s);
    return incref(default_gen_value);
}

static Value *f_seed(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (bind_args(a, "seed", "", NULL) < 0) return NULL;
    return v_seed(tsr_generator_seed(NULL));
}

static Value *f_initial_seed(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (bind_args(a, "initial_seed", "", NULL) < 0) return NULL;
    return v_seed(tsr_generator_initial_seed(NULL));
}

static Value *f_get_rng_state(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (bind_args(a, "get_rng_state", "", NULL) < 0) return NULL;
    return v_tensor(tsr_generator_get_state(NULL));
}

static Value *f_set_rng_state(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *args[1];
    if (bind_args(a, "set_rng_state", "new_state", args) < 0) return NULL;
    if (set_state(tsr_default_generator(), args[0]) < 0) return NULL;
    return v_none();
}

void bind_random_init(void)
{
    Value *torch = bind_module("torch");
    default_gen_value = v_generator(tsr_generator_retain(tsr_default_generator()));
    module_add(torch, "default_generator", incref(default_gen_value));
    Value *gt = v_typeobj(&t_generator);
    module_add(torch, "Generator", gt);
    static const struct { const char *name; BuiltinFn fn; bool method; } fns[] = {
        {"manual_seed", f_manual_seed, false}, {"seed", f_seed, false}, {"initial_seed", f_initial_seed, false},
        {"get_rng_state", f_get_rng_state, false}, {"set_rng_state", f_set_rng_state, false},
        {"rand", f_rand, false}, {"randn", f_randn, false}, {"randint", f_randint, false},
        {"randperm", f_randperm, false}, {"rand_like", f_rand_like, false}, {"randn_like", f_randn_like, false},
        {"randint_like", f_randint_like, false}, {"normal", f_normal, false},
        {"bernoulli", f_bernoulli, false}, {"multinomial", f_multinomial, true}, {"poisson", f_poisson, false},
    };
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) bind_torch_function(fns[i].name, fns[i].fn, fns[i].method);
    static const struct { const char *name; BuiltinFn fn; } ms[] = {
        {"uniform_", m_uniform_}, {"normal_", m_normal_}, {"random_", m_random_}, {"exponential_", m_exponential_},
        {"cauchy_", m_cauchy_}, {"log_normal_", m_log_normal_}, {"geometric_", m_geometric_},
        {"bernoulli_", m_bernoulli_}, {"bernoulli", m_bernoulli},
    };
    for (size_t i = 0; i < sizeof ms / sizeof *ms; i++) bind_tensor_method(ms[i].name, ms[i].fn);
}
