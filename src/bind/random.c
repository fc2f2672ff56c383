/* src/bind/random.c — torch's random API in the language: the random
 * factories and in-place samplers as binding-table rows with 1.13's
 * signatures; manual_seed, seed, initial_seed, get/set_rng_state and
 * torch.Generator, which 1.13 writes in Python or as plain C methods (their
 * errors are Python's, not the argument parser's), parsed as Python does.
 * Streams are the runtime's (runtime/ops/random.c, SEMANTICS.md §6). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/table.h"
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

/* The calling conventions of the callables 1.13 does not give the argument
 * parser: Generator's methods are C methods (METH_NOARGS, METH_O) and the
 * torch.* seed functions are Python functions of torch/random.py, each with
 * CPython's messages. meth_args: exactly nargs (0 or 1) positional
 * arguments into *out. */
static int meth_args(CallArgs *a, const char *fname, int nargs, Value **out)
{
    char q[64];
    snprintf(q, sizeof q, "Generator.%s", fname);
    if ((nargs ? args_meth_o(a, q) : args_meth_noargs(a, q)) < 0) return -1;
    if (nargs) *out = a->pos[0];
    return 0;
}

/* def fname(param) (param NULL: no parameters) as CPython binds it. */
static int pydef_args(CallArgs *a, const char *fname, const char *param, Value **out)
{
    char spec[64];
    Value *v[1] = {NULL};
    snprintf(spec, sizeof spec, "def %s", param ? param : "");
    if (bind_args(a, fname, spec, v) < 0) return -1;
    if (param) *out = v[0];
    return 0;
}

static Value *m_manual_seed(Value *self, CallArgs *a, void *d)
{
    (void)d;
    Value *args[1] = {NULL};
    if (meth_args(a, "manual_seed", 1, args) < 0) return NULL;
    uint64_t s;
    if (seed_arg(args[0], false, &s) < 0) return NULL;
    tsr_generator_manual_seed(gen_of(self), s);
    return incref(self);
}

static Value *m_seed(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (meth_args(a, "seed", 0, NULL) < 0) return NULL;
    return v_seed(tsr_generator_seed(gen_of(self)));
}

static Value *m_initial_seed(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (meth_args(a, "initial_seed", 0, NULL) < 0) return NULL;
    return v_seed(tsr_generator_initial_seed(gen_of(self)));
}

static Value *m_get_state(Value *self, CallArgs *a, void *d)
{
    (void)d;
    if (meth_args(a, "get_state", 0, NULL) < 0) return NULL;
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
    Value *args[1] = {NULL};
    if (meth_args(a, "set_state", 1, args) < 0) return NULL;
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
    if (!strcmp(name, "device")) return v_device(tsr_generator_device(gen_of(v)));
    return NULL;
}

/* Whether tsr has a CUDA backend (a PyTorch built with CUDA), GPU or not. */
static bool cuda_built(void)
{
    const tsr_backend *b = tsr_device_backend((tsr_device){TSR_DEV_CUDA, 0});
    tsr_error_clear();
    return b != NULL;
}

/* torch.Generator(device='cpu'): THPGenerator_pynew's parser, a row of the
 * binding table without variants ("Generator(Device device=None)"). */
static Value *generator_new(const BindRow *row, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)row; (void)fname; (void)self; (void)inplace;
    tsr_device dev;
    if (bind_device_arg(b->v[0], TSR_CPU, &dev) < 0) return NULL;
    if (dev.type == TSR_DEV_CUDA && cuda_built()) {   /* make_generator<CUDAGeneratorImpl>(index): no CUDA init */
        tsr_generator *g = tsr_cuda_generator_new(dev.index);
        return g ? v_generator(g) : bind_runtime_error();
    }
    if (dev.type != TSR_DEV_CPU) {
        char up[32];
        snprintf(up, sizeof up, "%s", tsr_device_type_name(dev.type));
        for (char *p = up; *p; p++) if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 32);
        return exc_set("RuntimeError", "Device type %s is not supported for torch.Generator() api.", up);
    }
    tsr_generator *g = tsr_generator_new(TSR_DEFAULT_RNG_SEED);
    return g ? v_generator(g) : bind_runtime_error();
}
static BindRow generator_row[] = {{.name = "Generator", .sigs = "Device? device=None", .handler = generator_new}};

static Value *f_generator(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    return bind_table_call(&generator_row[0], a);
}

/* ------------------------------------------------------------ arguments */

#define ARG(name) bind_table_arg(b, name)

/* The generator= of a matched call: NULL for the default generator. */
static tsr_generator *gen_arg(const BindArgs *b)
{
    Value *g = ARG("generator");
    return g ? gen_of(g) : NULL;
}

/* A float parameter, dflt when absent. */
static int float_arg(const BindArgs *b, const char *fname, const char *name, double dflt, double *out)
{
    Value *v = ARG(name);
    if (!v) { *out = dflt; return 0; }
    return bind_table_float(v, fname, name, out);
}

/* Creation keywords shared by the factories. */
typedef struct {
    tsr_dtype dtype;
    tsr_device device;
    bool requires_grad;
    tsr_generator *gen;
    Value *out;                 /* borrowed out= tensor value, or NULL */
    Value *names;               /* borrowed names= value, or NULL */
} Opts;

/* The creation keywords of a matched call; with out= they are checked
 * against it as check_out_type_matches does and dtype and device become its
 * own. dflt: the dtype without dtype= and out=. */
static int opts_of(const char *fname, const BindArgs *b, tsr_dtype dflt, Opts *o)
{
    Value *device = ARG("device"), *layout = ARG("layout"), *rg = ARG("requires_grad");
    o->out = b->v[BIND_OUT];
    o->names = ARG("names");
    tsr_tensor *ot = o->out ? tensor_of(o->out) : NULL;
    o->dtype = bind_table_dtype(ARG("dtype"), ot ? ot->dtype : dflt);
    if (bind_device_arg(device, ot ? ot->device : bind_default_device(), &o->device) < 0) return -1;
    o->device = tsr_device_normalize(o->device);
    o->requires_grad = rg && rg->u.i;
    o->gen = gen_arg(b);
    if (ot) {
        tsr_layout lay = layout ? (tsr_layout)layout->u.ext.a : ot->layout;
        if (tsr_check_out_options(ot, ARG("dtype") ? &o->dtype : NULL, &lay, device ? &o->device : NULL) < 0)
            return bind_runtime_errori();
    } else if (layout && ARG("names") && tsr_names_check_factory_layout(fname, (tsr_layout)layout->u.ext.a) < 0) {
        return bind_runtime_errori();
    } else if (layout && layout->u.ext.a != TSR_LAYOUT_STRIDED) {
        return exc_seti("NotImplementedError", "tsr: %s(): only the strided layout is supported", fname);
    }
    return 0;
}

/* requires_grad and names on a result: the new tensor t (stolen), or with
 * out= the out tensor that rc < 0 says was not filled. */
static Value *finish_rc(tsr_tensor *t, int rc, const Opts *o)
{
    if (o->out) {
        if (rc < 0) return bind_runtime_error();
        t = tsr_tensor_retain(tensor_of(o->out));
    }
    if (!t) return bind_runtime_error();
    if (o->requires_grad && tsr_factory_requires_grad(t) < 0) {
        tsr_tensor_release(t);
        return bind_runtime_error();
    }
    if (o->out) {
        tsr_tensor_release(t);
        return incref(o->out);
    }
    Value *v = v_tensor(t);
    if (v && o->names && tsr_names_check_factory(tensor_of(v)) < 0) {
        CLEAR(v);
        return bind_runtime_error();
    }
    if (v && o->names && value_setattr(v, "names", o->names) < 0) CLEAR(v);
    return v;
}

static Value *finish(tsr_tensor *t, const Opts *o) { return finish_rc(t, 0, o); }

/* A sampler's new result r (stolen), or with out (a tensor value, or NULL)
 * written into it as the *_out functions do: resized to r's shape. */
static Value *into_out(tsr_tensor *r, Value *out)
{
    if (!r) return bind_runtime_error();
    if (!out) return v_tensor(r);
    int rc = tsr_factory_out(tensor_of(out), r, false);
    tsr_tensor_release(r);
    return rc < 0 ? bind_runtime_error() : incref(out);
}

/* ------------------------------------------------------------ the handlers */

typedef enum {
    K_RAND, K_RANDN, K_RANDINT, K_RANDPERM, K_NORMAL, K_BERNOULLI, K_MULTINOMIAL, K_POISSON, K_BINOMIAL, K_RAND_LIKE,
    K_RANDN_LIKE, K_RANDINT_LIKE, K_UNIFORM_, K_NORMAL_, K_CAUCHY_, K_LOG_NORMAL_, K_EXPONENTIAL_, K_GEOMETRIC_,
    K_BERNOULLI_, K_RANDOM_,
} Kind;

static int size_arg(const BindArgs *b, const char *fname, int64_t *sizes, int *n)
{
    for (int i = 0; i < BIND_MAXP; i++)
        if (b->param[i] && !strcmp(b->param[i]->name, "size")) return bind_table_intlist(b, i, fname, sizes, TSR_MAX_DIMS, n);
    return exc_seti("RuntimeError", "internal error: %s() without size", fname);
}

static Value *run_rand(Kind k, const char *fname, const BindArgs *b)
{
    int n;
    int64_t sizes[TSR_MAX_DIMS];
    Opts o;
    if (size_arg(b, fname, sizes, &n) < 0 || opts_of(fname, b, tsr_default_dtype(), &o) < 0) return NULL;
    bool normal = k == K_RANDN;
    if (o.out) {
        tsr_tensor *ot = tensor_of(o.out);
        return finish_rc(NULL, normal ? tsr_randn_out(ot, n, sizes, o.gen) : tsr_rand_out(ot, n, sizes, o.gen), &o);
    }
    return finish(normal ? tsr_randn(n, sizes, o.dtype, o.device, o.gen) : tsr_rand(n, sizes, o.dtype, o.device, o.gen), &o);
}

static Value *run_randint(const char *fname, const BindArgs *b)
{
    int64_t low = 0, high;
    int n;
    int64_t sizes[TSR_MAX_DIMS];
    Opts o;
    if ((ARG("low") && bind_table_int_value(ARG("low"), fname, "low", &low) < 0) ||
        bind_table_int_value(ARG("high"), fname, "high", &high) < 0 || size_arg(b, fname, sizes, &n) < 0 ||
        opts_of(fname, b, TSR_INT64, &o) < 0)
        return NULL;
    if (o.out) return finish_rc(NULL, tsr_randint_out(tensor_of(o.out), low, high, n, sizes, o.gen), &o);
    return finish(tsr_randint(low, high, n, sizes, o.dtype, o.device, o.gen), &o);
}

static Value *run_randperm(const char *fname, const BindArgs *b)
{
    int64_t n;
    Opts o;
    if (bind_table_int_value(ARG("n"), fname, "n", &n) < 0 || opts_of(fname, b, TSR_INT64, &o) < 0) return NULL;
    if (o.out) return finish_rc(NULL, tsr_randperm_out(tensor_of(o.out), n, o.gen), &o);
    return finish(tsr_randperm(n, o.dtype, o.device, o.gen), &o);
}

/* normal's overloads in 1.13's order: (Tensor, Tensor), (Tensor, float),
 * (float, Tensor), (float, float, size). */
static Value *run_normal(const char *fname, const BindArgs *b)
{
    Value *outv = b->v[BIND_OUT];
    tsr_tensor *out = outv ? tensor_of(outv) : NULL;
    tsr_generator *g = gen_arg(b);
    double m, s;
    int rc = 0;
    tsr_tensor *r = NULL;
    switch (b->sig) {
    case 0:
        if (out) rc = tsr_normal_tt_out(out, tensor_of(ARG("mean")), tensor_of(ARG("std")), g);
        else r = tsr_normal_tt(tensor_of(ARG("mean")), tensor_of(ARG("std")), g);
        break;
    case 1:
        if (float_arg(b, fname, "std", 1.0, &s) < 0) return NULL;
        if (out) rc = tsr_normal_tf_out(out, tensor_of(ARG("mean")), s, g);
        else r = tsr_normal_tf(tensor_of(ARG("mean")), s, g);
        break;
    case 2:
        if (float_arg(b, fname, "mean", 0.0, &m) < 0) return NULL;
        if (out) rc = tsr_normal_ft_out(out, m, tensor_of(ARG("std")), g);
        else r = tsr_normal_ft(m, tensor_of(ARG("std")), g);
        break;
    default: {
        int n;
        int64_t sizes[TSR_MAX_DIMS];
        Opts o;
        if (float_arg(b, fname, "mean", 0.0, &m) < 0 || float_arg(b, fname, "std", 1.0, &s) < 0 ||
            size_arg(b, fname, sizes, &n) < 0 || opts_of(fname, b, tsr_default_dtype(), &o) < 0)
            return NULL;
        if (o.out) return finish_rc(NULL, tsr_normal_size_out(out, m, s, n, sizes, o.gen), &o);
        return finish(tsr_normal_size(m, s, n, sizes, o.dtype, o.device, o.gen), &o);
    }
    }
    if (out) return rc < 0 ? bind_runtime_error() : incref(outv);
    return r ? v_tensor(r) : bind_runtime_error();
}

static Value *run_like(Kind k, const char *fname, const BindArgs *b)
{
    tsr_tensor *src = tensor_of(b->v[0]);
    int64_t low = 0, high = 0;
    if (k == K_RANDINT_LIKE && ((ARG("low") && bind_table_int_value(ARG("low"), fname, "low", &low) < 0) ||
                                bind_table_int_value(ARG("high"), fname, "high", &high) < 0))
        return NULL;
    Value *mfv = ARG("memory_format"), *rg = ARG("requires_grad");
    Opts o = {bind_table_dtype(ARG("dtype"), src->dtype), src->device, rg && rg->u.i, NULL, NULL, NULL};
    tsr_memory_format mf;
    if (bind_device_arg(ARG("device"), src->device, &o.device) < 0) return NULL;
    if (bind_memory_format_arg(mfv, TSR_MF_PRESERVE, &mf) < 0) return NULL;
    o.device = tsr_device_normalize(o.device);
    tsr_tensor *t = tsr_empty_like(src, o.dtype, o.device, mf);
    if (!t) return bind_runtime_error();
    int rc = k == K_RAND_LIKE ? tsr_uniform_(t, 0, 1, NULL)
           : k == K_RANDN_LIKE ? tsr_normal_(t, 0, 1, NULL)
                               : tsr_random_from_to_(t, low, &high, NULL);
    if (rc < 0) { tsr_tensor_release(t); return bind_runtime_error(); }
    return finish(t, &o);
}

/* Runs an in-place sampler and returns self (new reference). */
static Value *done(Value *self, int rc) { return rc < 0 ? bind_runtime_error() : incref(self); }

/* The samplers of the form x.NAME_(a=A, b=B, *, generator=None). */
static Value *run_inplace(Kind k, const char *fname, const BindArgs *b, Value *self)
{
    tsr_tensor *t = tensor_of(self);
    tsr_generator *g = gen_arg(b);
    double x, y;
    switch (k) {
    case K_UNIFORM_:
        if (float_arg(b, fname, "from", 0, &x) < 0 || float_arg(b, fname, "to", 1, &y) < 0) return NULL;
        return done(self, tsr_uniform_(t, x, y, g));
    case K_NORMAL_:
        if (float_arg(b, fname, "mean", 0, &x) < 0 || float_arg(b, fname, "std", 1, &y) < 0) return NULL;
        return done(self, tsr_normal_(t, x, y, g));
    case K_CAUCHY_:
        if (float_arg(b, fname, "median", 0, &x) < 0 || float_arg(b, fname, "sigma", 1, &y) < 0) return NULL;
        return done(self, tsr_cauchy_(t, x, y, g));
    case K_LOG_NORMAL_:
        if (float_arg(b, fname, "mean", 1, &x) < 0 || float_arg(b, fname, "std", 2, &y) < 0) return NULL;
        return done(self, tsr_log_normal_(t, x, y, g));
    case K_EXPONENTIAL_:
        if (float_arg(b, fname, "lambd", 1, &x) < 0) return NULL;
        return done(self, tsr_exponential_(t, x, g));
    case K_GEOMETRIC_:
        if (float_arg(b, fname, "p", 0, &x) < 0) return NULL;
        return done(self, tsr_geometric_(t, x, g));
    case K_BERNOULLI_:
        if (b->sig == 0) return done(self, tsr_bernoulli_tensor_(t, tensor_of(ARG("p")), g));
        if (float_arg(b, fname, "p", 0.5, &x) < 0) return NULL;
        return done(self, tsr_bernoulli_(t, x, g));
    case K_RANDOM_: {
        /* (*, generator), (from, to?, *, generator), (to, *, generator) */
        int64_t from = 0, to;
        if (b->sig == 0) return done(self, tsr_random_(t, g));
        if (ARG("from") && bind_table_int_value(ARG("from"), fname, "from", &from) < 0) return NULL;
        if (!ARG("to")) return done(self, tsr_random_from_to_(t, from, NULL, g));
        if (bind_table_int_value(ARG("to"), fname, "to", &to) < 0) return NULL;
        return done(self, tsr_random_from_to_(t, from, &to, g));
    }
    default: break;
    }
    return exc_set("RuntimeError", "internal error: random kind %d", (int)k);
}

/* The handler of every row of this area. */
static Value *rand_call(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    (void)inplace;
    Kind k = (Kind)d->kind;
    switch (k) {
    case K_RAND: case K_RANDN: return run_rand(k, fname, b);
    case K_RANDINT: return run_randint(fname, b);
    case K_RANDPERM: return run_randperm(fname, b);
    case K_NORMAL: return run_normal(fname, b);
    case K_BERNOULLI: {
        tsr_tensor *x = tensor_of(b->v[0]);
        double p;
        if (b->sig == 0) return into_out(tsr_bernoulli(x, gen_arg(b)), b->v[BIND_OUT]);
        if (float_arg(b, fname, "p", 0.5, &p) < 0) return NULL;
        return into_out(tsr_bernoulli_p(x, p, gen_arg(b)), NULL);
    }
    case K_MULTINOMIAL: {
        int64_t n;
        Value *repl = ARG("replacement");
        if (bind_table_int_value(ARG("num_samples"), fname, "num_samples", &n) < 0) return NULL;
        tsr_tensor *x = tensor_of(b->v[0]);
        Value *out = b->v[BIND_OUT];
        if (out) return tsr_multinomial_out(tensor_of(out), x, n, repl && repl->u.i, gen_arg(b)) < 0 ? bind_runtime_error() : incref(out);
        return into_out(tsr_multinomial(x, n, repl && repl->u.i, gen_arg(b)), NULL);
    }
    case K_POISSON: return into_out(tsr_poisson(tensor_of(b->v[0]), gen_arg(b)), NULL);
    case K_BINOMIAL: return into_out(tsr_binomial(tensor_of(b->v[0]), tensor_of(b->v[1]), gen_arg(b)), NULL);
    case K_RAND_LIKE: case K_RANDN_LIKE: case K_RANDINT_LIKE: return run_like(k, fname, b);
    default: return run_inplace(k, fname, b, self);
    }
}

/* ------------------------------------------------------------ the table */

/* python_arg_parser's text for 1.13's random functions (generated from
 * native_functions.yaml; out= merged into the functional overload), in the
 * order 1.13 tries them. */
#define OPTS "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, " \
             "bool? requires_grad=False"
#define SIZED "IntArrayRef size, *, Generator? generator, DimnameList? names, " OPTS "|"                     \
              "IntArrayRef size, *, Generator? generator, Tensor? out=None, " OPTS "|"                       \
              "IntArrayRef size, *, Tensor? out=None, " OPTS "|IntArrayRef size, *, DimnameList? names, " OPTS
#define LIKE "Tensor input, *, MemoryFormat? memory_format=None, " OPTS
#define GEN "*, Generator? generator=None"
#define ROW(n, k, fl, s) {.name = n, .kind = k, .flags = fl, .sigs = s, .handler = rand_call}

static BindRow defs[] = {
    ROW("rand", K_RAND, BIND_FN, SIZED),
    ROW("randn", K_RANDN, BIND_FN, SIZED),
    ROW("randint", K_RANDINT, BIND_FN,
        "int64_t high, IntArrayRef size, *, Generator? generator, Tensor? out=None, " OPTS "|"
        "int64_t high, IntArrayRef size, *, Tensor? out=None, " OPTS "|"
        "int64_t low, int64_t high, IntArrayRef size, *, Generator? generator, Tensor? out=None, " OPTS "|"
        "int64_t low, int64_t high, IntArrayRef size, *, Tensor? out=None, " OPTS),
    ROW("randperm", K_RANDPERM, BIND_FN,
        "int64_t n, *, Generator? generator, Tensor? out=None, " OPTS "|int64_t n, *, Tensor? out=None, " OPTS),
    ROW("normal", K_NORMAL, BIND_FN,
        "Tensor mean, Tensor std, " GEN ", Tensor? out=None|Tensor mean, double std=1, " GEN ", Tensor? out=None|"
        "double mean, Tensor std, " GEN ", Tensor? out=None|"
        "double mean, double std, IntArrayRef size, " GEN ", Tensor? out=None, " OPTS),
    ROW("bernoulli", K_BERNOULLI, BIND_FN | BIND_METHOD,
        "Tensor input, " GEN ", Tensor? out=None|Tensor input, double p, " GEN),
    ROW("multinomial", K_MULTINOMIAL, BIND_FN | BIND_METHOD,
        "Tensor input, int64_t num_samples, bool replacement=False, " GEN ", Tensor? out=None"),
    ROW("poisson", K_POISSON, BIND_FN, "Tensor input, Generator? generator=None"),
    ROW("binomial", K_BINOMIAL, BIND_FN, "Tensor count, Tensor prob, Generator? generator=None"),
    ROW("rand_like", K_RAND_LIKE, BIND_FN, LIKE),
    ROW("randn_like", K_RANDN_LIKE, BIND_FN, LIKE),
    ROW("randint_like", K_RANDINT_LIKE, BIND_FN,
        "Tensor input, int64_t high, *, MemoryFormat? memory_format=None, " OPTS "|"
        "Tensor input, int64_t low, int64_t high, *, MemoryFormat? memory_format=None, " OPTS),
    ROW("uniform_", K_UNIFORM_, BIND_METHOD, "Tensor self, double from=0, double to=1, " GEN),
    ROW("normal_", K_NORMAL_, BIND_METHOD, "Tensor self, double mean=0, double std=1, " GEN),
    ROW("cauchy_", K_CAUCHY_, BIND_METHOD, "Tensor self, double median=0, double sigma=1, " GEN),
    ROW("log_normal_", K_LOG_NORMAL_, BIND_METHOD, "Tensor self, double mean=1, double std=2, " GEN),
    ROW("exponential_", K_EXPONENTIAL_, BIND_METHOD, "Tensor self, double lambd=1, " GEN),
    ROW("geometric_", K_GEOMETRIC_, BIND_METHOD, "Tensor self, double p, " GEN),
    ROW("bernoulli_", K_BERNOULLI_, BIND_METHOD, "Tensor self, Tensor p, " GEN "|Tensor self, double p=0.5, " GEN),
    ROW("random_", K_RANDOM_, BIND_METHOD,
        "Tensor self, " GEN "|Tensor self, int64_t from, int64_t? to, " GEN "|Tensor self, int64_t to, " GEN),
};

/* ------------------------------------------------------------ torch.* seeds and state */

static Value *f_manual_seed(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *args[1];
    if (pydef_args(a, "manual_seed", "seed", args) < 0) return NULL;
    uint64_t s;
    if (seed_arg(args[0], true, &s) < 0) return NULL;
    tsr_cuda_manual_seed_all(s);     /* torch.cuda.manual_seed_all(seed), as 1.13's torch.manual_seed */
    tsr_generator_manual_seed(NULL, s);
    return incref(default_gen_value);
}

static Value *f_seed(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (pydef_args(a, "seed", NULL, NULL) < 0) return NULL;
    uint64_t s = tsr_generator_seed(NULL);
    tsr_cuda_manual_seed_all(s);     /* 1.13's torch.seed: torch.cuda.manual_seed_all(seed) */
    return v_seed(s);
}

static Value *f_initial_seed(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (pydef_args(a, "initial_seed", NULL, NULL) < 0) return NULL;
    return v_seed(tsr_generator_initial_seed(NULL));
}

static Value *f_get_rng_state(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    if (pydef_args(a, "get_rng_state", NULL, NULL) < 0) return NULL;
    return v_tensor(tsr_generator_get_state(NULL));
}

static Value *f_set_rng_state(Value *self, CallArgs *a, void *d)
{
    (void)self; (void)d;
    Value *args[1];
    if (pydef_args(a, "set_rng_state", "new_state", args) < 0) return NULL;
    if (set_state(tsr_default_generator(), args[0]) < 0) return NULL;
    return v_none();
}

void bind_random_init(void)
{
    bind_table_register(generator_row, 1);
    Value *torch = bind_module("torch");
    decref(default_gen_value);   /* a fresh interpreter state (the fuzzer) makes it again */
    default_gen_value = v_generator(tsr_generator_retain(tsr_default_generator()));
    module_add(torch, "default_generator", incref(default_gen_value));
    Value *gt = v_typeobj(&t_generator);
    module_add(torch, "Generator", gt);
    static const struct { const char *name; BuiltinFn fn; } fns[] = {
        {"manual_seed", f_manual_seed}, {"seed", f_seed}, {"initial_seed", f_initial_seed},
        {"get_rng_state", f_get_rng_state}, {"set_rng_state", f_set_rng_state},
    };
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) bind_torch_function(fns[i].name, fns[i].fn, false);
    bind_table_register(defs, (int)(sizeof defs / sizeof defs[0]));
}
