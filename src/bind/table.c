/* src/bind/table.c — parses the rows' signature strings once and matches
 * calls against them the way torch/csrc/utils/python_arg_parser.cpp does
 * (overloads in order; with one plausible overload its precise TypeError,
 * else "received an invalid combination of arguments"), so argument errors
 * are PyTorch's for every row without per-function code. */
#include <stdlib.h>
#include <string.h>

#include "bind/bind.h"
#include "bind/table.h"
#include "bind/tensor.h"
#include "bind/torch_api.h"
#include "ops/dispatch.h"

/* How a signature string spells a type, and how messages name it. ORDER PTYPE */
static const struct { const char *spell, *spell2, *msg; } ptypes[BT_COUNT] = {
    [BT_TENSOR] = {"Tensor", NULL, "Tensor"},
    [BT_NUMBER] = {"Number", "Scalar", "Number"},
    [BT_INT] = {"int", "int64_t", "int"},
    [BT_FLOAT] = {"float", "double", "float"},
    [BT_BOOL] = {"bool", NULL, "bool"},
    [BT_STR] = {"str", "c10::string_view", "str"},
    [BT_DTYPE] = {"dtype", "ScalarType", "torch.dtype"},
    [BT_INT_LIST] = {"int[]", "IntArrayRef", "tuple of ints"},
    [BT_SYMINT_LIST] = {"SymInt[]", "SymIntArrayRef", "tuple of SymInts"},
    [BT_TENSOR_LIST] = {"Tensor[]", "TensorList", "tuple of Tensors"},
    [BT_GENERATOR] = {"Generator", NULL, "torch.Generator"},
    [BT_LAYOUT] = {"Layout", NULL, "torch.layout"},
    [BT_DEVICE] = {"Device", NULL, "torch.device"},
    [BT_MEMORY_FORMAT] = {"MemoryFormat", NULL, "torch.memory_format"},
    [BT_DIMNAME] = {"Dimname", NULL, "name"},
    [BT_DIMNAME_LIST] = {"Dimname[]", "DimnameList", "tuple of names"},
    [BT_SYMINT] = {"SymInt", NULL, "SymInt"},
    [BT_FLOAT_LIST] = {"float[]", "ArrayRef<double>", "tuple of floats"},
    [BT_STORAGE] = {"Storage", NULL, "torch.Storage"},
    [BT_OBJECT] = {"object", "PyObject*", "object"},
};

/* ------------------------------------------------------------ signatures */

static int parse_type(const char *ty, BindParam *q)
{
    char t[24];
    snprintf(t, sizeof t, "%s", ty);
    size_t tl = strlen(t);
    if (tl && t[tl - 1] == '?') { q->none = true; t[--tl] = 0; }
    q->size = 0;
    char *br = strchr(t, '[');
    if (br && !strcmp(t, "Tensor?[]")) {   /* index_put's indices: None items allowed (size marks it) */
        q->type = BT_TENSOR_LIST;
        q->size = 1;
        return 0;
    }
    if (br && (!strcmp(t, "Tensor[]") || !strcmp(t, "Dimname[]") || !strcmp(t, "float[]"))) {
        q->type = t[0] == 'T' ? BT_TENSOR_LIST : t[0] == 'D' ? BT_DIMNAME_LIST : BT_FLOAT_LIST;
        return 0;
    }
    if (br && !strncmp(t, "DimnameList[", 12)) {   /* DimnameList[1]: one name is accepted too */
        q->type = BT_DIMNAME_LIST;
        q->size = (signed char)atoi(br + 1);
        return 0;
    }
    if (br && br > t && (!strncmp(t, "int[", 4) || !strncmp(t, "SymInt[", 7))) {   /* int[], int[2], SymInt[] */
        q->type = t[0] == 'S' ? BT_SYMINT_LIST : BT_INT_LIST;
        q->size = (signed char)atoi(br + 1);
        return 0;
    }
    for (int k = 0; k < BT_COUNT; k++)
        if (!strcmp(t, ptypes[k].spell) || (ptypes[k].spell2 && !strcmp(t, ptypes[k].spell2))) {
            q->type = (unsigned char)k;
            return 0;
        }
    return -1;
}

static int parse_sig(const char *text, BindSig *s)
{
    memset(s, 0, sizeof *s);
    bool kwonly = false;
    int slot = 0;
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == ',') p++;
        if (!*p) break;
        if (*p == '*') { kwonly = true; p++; continue; }
        char ty[24], nm[40];
        int len = 0;
        if (s->n == BIND_MAXP || sscanf(p, "%23s %39[^, ]%n", ty, nm, &len) != 2) return -1;
        p += len;
        if (strchr(nm, '[') && !strchr(nm, ']')) {   /* a list default with commas: dim=[-2,-1] */
            const char *close = strchr(p, ']');
            if (!close) return -1;
            p = close + 1;
        }
        BindParam *q = &s->p[s->n++];
        if (parse_type(ty, q) < 0) return -1;
        char *eq = strchr(nm, '=');
        if (eq) { *eq = 0; q->opt = true; }
        if (strlen(nm) >= sizeof q->name) return -1;
        snprintf(q->name, sizeof q->name, "%s", nm);
        q->kwonly = kwonly;
        q->slot = (signed char)(!strcmp(nm, "out") ? BIND_OUT : slot++);
        if (slot > BIND_OUT) return -1;
        if (!q->opt) s->min_args++;
        if (!kwonly) s->max_pos++;
    }
    return 0;
}

/* The method form: without self (the first Tensor input) and without out. */
static bool method_sig(const BindSig *f, BindSig *m)
{
    if (!f->n || f->p[0].type != BT_TENSOR || (strcmp(f->p[0].name, "input") && strcmp(f->p[0].name, "self")))
        return false;
    memset(m, 0, sizeof *m);
    for (int i = 1; i < f->n; i++) {
        if (f->p[i].slot == BIND_OUT) continue;
        m->p[m->n++] = f->p[i];
        if (!f->p[i].opt) m->min_args++;
        if (!f->p[i].kwonly) m->max_pos++;
    }
    return true;
}

/* ------------------------------------------------------------ matching */

static bool is_num(Value *v)
{
    return v->type == &t_int || v->type == &t_float || v->type == &t_bool || v->type == &t_complex;
}

static bool arg_is_int(Value *v)
{
    return v->type == &t_int || (is_tensor(v) && tensor_of(v)->ndim == 0 && tsr_dtype_is_integral(tensor_of(v)->dtype, false));
}

static bool py_scalar_type(Value *v);

/* FunctionParameter::check */
static bool check(const BindParam *p, Value *v, bool nums)
{
    switch ((BindType)p->type) {
    case BT_TENSOR: return is_tensor(v) || (nums && p->slot != BIND_OUT && is_num(v));
    case BT_NUMBER: return is_num(v) || (is_tensor(v) && tensor_of(v)->ndim == 0);
    case BT_INT: return arg_is_int(v);
    case BT_FLOAT:
        return v->type == &t_int || v->type == &t_float || v->type == &t_bool || (is_tensor(v) && tensor_of(v)->ndim == 0);
    case BT_BOOL: return v->type == &t_bool;
    case BT_STR: return v->type == &t_str;
    case BT_DTYPE: return is_dtype(v) || py_scalar_type(v);
    case BT_INT_LIST:
    case BT_SYMINT_LIST:
        /* is_int_or_symint_list: the first element decides; the rest are
         * checked when the list is read (bind_table_intlist) */
        if (p->size > 0 && arg_is_int(v)) return true;
        if (v->type != &t_tuple && v->type != &t_list && v->type != &t_size) return false;
        return seq_len(v) == 0 || arg_is_int(v->u.seq.items[0]);
    case BT_TENSOR_LIST: {
        if (v->type != &t_tuple && v->type != &t_list) return false;
        for (size_t i = 0; i < seq_len(v); i++)
            if (!is_tensor(v->u.seq.items[i]) && !(p->size && is_none(v->u.seq.items[i]))) return false;
        return true;
    }
    case BT_GENERATOR: return v->type->name && !strcmp(v->type->name, "Generator");
    case BT_LAYOUT: return v->type == &t_layout;
    case BT_DEVICE: return is_device(v) || v->type == &t_str || v->type == &t_int;
    case BT_MEMORY_FORMAT: return v->type == &t_memory_format;
    case BT_DIMNAME: return v->type == &t_str;
    case BT_DIMNAME_LIST:
        if (v->type == &t_str) return p->size == 1;
        if (v->type != &t_tuple && v->type != &t_list) return false;
        for (size_t i = 0; i < seq_len(v); i++)
            if (v->u.seq.items[i]->type != &t_str && !is_none(v->u.seq.items[i])) return false;
        return true;
    case BT_SYMINT: return arg_is_int(v);
    case BT_FLOAT_LIST:
        if (v->type == &t_float || v->type == &t_int) return p->size > 0;
        if (v->type != &t_tuple && v->type != &t_list) return false;
        for (size_t i = 0; i < seq_len(v); i++)
            if (v->u.seq.items[i]->type != &t_float && v->u.seq.items[i]->type != &t_int) return false;
        return true;
    case BT_STORAGE: return v->type->name && strstr(v->type->name, "Storage") != NULL;
    case BT_OBJECT: return true;
    case BT_COUNT: break;
    }
    return false;
}

static void extra_args(const char *fname, const BindSig *s, int nargs)
{
    if (s->min_args != s->max_pos)
        exc_set("TypeError", "%s() takes from %d to %d positional arguments but %d were given", fname, s->min_args,
                s->max_pos, nargs);
    else
        exc_set("TypeError", "%s() takes %d positional argument%s but %d %s given", fname, s->max_pos,
                s->max_pos == 1 ? "" : "s", nargs, nargs == 1 ? "was" : "were");
}

static void missing_args(const char *fname, const BindSig *s, int idx)
{
    char buf[256];
    size_t n = 0;
    int miss = 0;
    buf[0] = 0;
    for (int i = idx; i < s->n; i++)
        if (!s->p[i].opt) {
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s\"%s\"", miss ? ", " : "", s->p[i].name);
            miss++;
            if (n >= sizeof buf) n = sizeof buf - 1;
        }
    /* sic: python_arg_parser.cpp pluralises the wrong way round */
    exc_set("TypeError", "%s() missing %d required positional argument%s: %s", fname, miss, miss == 1 ? "s" : "", buf);
}

/* FunctionSignature::parse over a->pos[off..] and the keywords. -1 when the
 * call does not match (an error recorded when raise), -2 when a tensor list
 * holds something else: python_arg_parser raises that at once. */
static int sig_parse(const char *fname, const BindSig *s, CallArgs *a, int off, bool nums, BindArgs *b, bool raise)
{
    int nargs = a->npos - off, argpos = 0, used_kw = 0;
    /* a single positional int list takes varargs: view(2, 3) is view((2, 3)) */
    bool varargs = s->max_pos == 1 && (s->p[0].type == BT_INT_LIST || s->p[0].type == BT_SYMINT_LIST);
    if (nargs > s->max_pos && !varargs) {
        if (raise) extra_args(fname, s, nargs);
        return -1;
    }
    for (int i = 0; i < s->n; i++) {
        const BindParam *p = &s->p[i];
        Value *obj = NULL;
        bool kw = false;
        if (argpos < nargs && p->kwonly) {   /* extra positionals after a varargs int list: expand((2, 3), 1) */
            if (raise) extra_args(fname, s, nargs);
            return -1;
        }
        if (argpos < nargs) obj = a->pos[off + argpos];
        else {
            kw = true;
            for (int k = 0; k < a->nkw; k++)
                if (!strcmp(a->kwnames[k], p->name)) { obj = a->kw[k]; break; }
        }
        if (obj && p->type == BT_TENSOR_LIST && (obj->type == &t_tuple || obj->type == &t_list))
            for (size_t k = 0; k < seq_len(obj); k++)   /* is_tensor_list_and_append_overloaded throws */
                if (!is_tensor(seq_get(obj, k))) {
                    exc_set("TypeError", "expected Tensor as element %zu in argument %d, but got %s", k, i,
                            type_name(seq_get(obj, k)));
                    return -2;
                }
        if ((!obj && p->opt) || (obj && is_none(obj) && p->none)) {
            b->v[(int)p->slot] = NULL;
        } else if (!obj) {
            if (raise) missing_args(fname, s, i);
            return -1;
        } else if (check(p, obj, nums)) {
            b->v[(int)p->slot] = obj;
            b->type[(int)p->slot] = p->type;
            b->param[(int)p->slot] = p;
            b->bykw[(int)p->slot] = kw;
        } else if (varargs && argpos == 0 && !kw && arg_is_int(obj)) {
            Value *t = v_tuple((size_t)nargs);
            if (!t) return -1;
            for (int k = 0; k < nargs; k++) t->u.seq.items[k] = incref(a->pos[off + k]);
            if (b->varargs) decref(b->varargs);
            b->varargs = t;
            b->v[(int)p->slot] = t;
            b->type[(int)p->slot] = p->type;
            b->param[(int)p->slot] = p;
            argpos = nargs;
            continue;
        } else {
            if (raise) {
                if (kw) exc_set("TypeError", "%s(): argument '%s' must be %s, not %s", fname, p->name,
                                ptypes[p->type].msg, type_name(obj));
                else exc_set("TypeError", "%s(): argument '%s' (position %d) must be %s, not %s", fname, p->name,
                             argpos + 1, ptypes[p->type].msg, type_name(obj));
            }
            return -1;
        }
        if (!kw) argpos++;
        else if (obj) used_kw++;
    }
    if (used_kw < a->nkw) {
        if (raise)
            for (int k = 0; k < a->nkw; k++) {
                int idx = -1;
                for (int i = 0; i < s->n; i++)
                    if (!strcmp(s->p[i].name, a->kwnames[k])) idx = i;
                if (idx < 0) return exc_seti("TypeError", "%s() got an unexpected keyword argument '%s'", fname, a->kwnames[k]);
                if (idx < nargs) return exc_seti("TypeError", "%s() got multiple values for argument '%s'", fname, a->kwnames[k]);
            }
        return -1;
    }
    return 0;
}

/* A signature as the parser prints it: "Tensor input, *, Number alpha". */
static void sig_text(const BindSig *s, char *buf, size_t cap)
{
    size_t n = 0;
    bool star = false;
    buf[0] = 0;
    for (int i = 0; i < s->n && n < cap; i++) {
        if (s->p[i].kwonly && !star) {
            n += (size_t)snprintf(buf + n, cap - n, "%s*", i ? ", " : "");
            star = true;
        }
        if (n < cap)
            n += (size_t)snprintf(buf + n, cap - n, "%s%s %s", (i || star) ? ", " : "", ptypes[s->p[i].type].msg,
                                  s->p[i].name);
    }
}

Value *bind_invalid_combination(const char *fname, CallArgs *a); /* types.c */

/* invalid_arguments.cpp's Type::is_matching: the option's printed type
 * against the argument's Python type name ("Number" matches nothing). */
static bool type_matches(const BindParam *p, Value *v)
{
    if (p->none && is_none(v)) return true;
    switch ((BindType)p->type) {
    case BT_TENSOR: return is_tensor(v);
    case BT_INT: return v->type == &t_int;
    case BT_FLOAT: return v->type == &t_int || v->type == &t_float;
    case BT_BOOL: return v->type == &t_bool;
    case BT_STR: return v->type == &t_str;
    case BT_DTYPE: return is_dtype(v);
    case BT_LAYOUT: return v->type == &t_layout;
    case BT_DEVICE: return is_device(v);
    case BT_MEMORY_FORMAT: return v->type == &t_memory_format;
    default: return false;
    }
}

static size_t arg_desc(char *buf, size_t cap, Value *v)
{
    if (v->type != &t_tuple && v->type != &t_list) return (size_t)snprintf(buf, cap, "%s", type_name(v));
    bool tup = v->type == &t_tuple;
    size_t n = (size_t)snprintf(buf, cap, "%s of %s", type_name(v), tup ? "(" : "[");
    for (size_t i = 0; i < seq_len(v) && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? ", " : "", type_name(v->u.seq.items[i]));
    if (n < cap) n += (size_t)snprintf(buf + n, cap - n, "%s", tup ? (seq_len(v) == 1 ? ",)" : ")") : "]");
    return n;
}

/* format_invalid_args with one option (invalid_arguments.cpp): unknown
 * keywords, else each argument with the ones that do not match the option
 * between '!' marks when the count fits the option (_argcountMatch), else
 * the plain types (_argDesc). parseOption reads the printed option: a
 * keyword-only out first after '*' is the out argument (has_out, and both
 * leave the list); otherwise '*' stays in the list as an argument that
 * matches nothing (Tensor.add(1, t, 2) marks all three). */
static int invalid_single(const char *fname, const BindSig *s, CallArgs *a)
{
    char got[1024], sig[512];
    const BindParam *opt[BIND_MAXP + 1];   /* NULL: the '*' */
    int nopt = 0, first_kw = -1;
    for (int i = 0; i < s->n; i++)
        if (s->p[i].kwonly && first_kw < 0) first_kw = i;
    bool has_out = first_kw >= 0 && s->p[first_kw].slot == BIND_OUT, out_kw = false;
    for (int i = 0; i < s->n; i++) {
        if (i == first_kw && !has_out) opt[nopt++] = NULL;
        if (!(has_out && i == first_kw)) opt[nopt++] = &s->p[i];
    }
    if (has_out) opt[nopt++] = &s->p[first_kw];   /* counted, found by name */
    size_t n = 0;
    int start = nopt - a->nkw;
    for (int k = 0; k < a->nkw; k++) out_kw = out_kw || !strcmp(a->kwnames[k], "out");
    if (has_out && !out_kw) start--;
    if (start < 0) start = 0;
    got[0] = 0;
    int order[BIND_MAXKW];   /* _tryMatchKwargs walks the std::unordered_map */
    bind_kwargs_order(a->nkw, (const char *const *)a->kwnames, order);
    for (int j = 0; j < a->nkw && j < BIND_MAXKW && order[j] >= 0; j++) {
        int k = order[j];
        bool found = false;
        for (int i = start; i < nopt; i++) found = found || (opt[i] && !strcmp(opt[i]->name, a->kwnames[k]));
        if (!found && n < sizeof got) n += (size_t)snprintf(got + n, sizeof got - n, "%s%s", n ? ", " : "", a->kwnames[k]);
    }
    if (n) {
        exc_set("TypeError", "%s() received an invalid combination of arguments - got unrecognized keyword arguments: %s",
                fname, got);
        return -1;
    }
    int ngot = a->npos + a->nkw;
    n = (size_t)snprintf(got, sizeof got, "(");
    if (!(ngot == nopt || (has_out && ngot == nopt - 1))) {
        for (int i = 0; i < a->npos && n < sizeof got - 64; i++)
            n += (size_t)snprintf(got + n, sizeof got - n, "%s%s", i ? ", " : "", type_name(a->pos[i]));
        for (int j = 0; j < a->nkw && j < BIND_MAXKW && order[j] >= 0 && n < sizeof got - 64; j++)   /* the map's order */
            n += (size_t)snprintf(got + n, sizeof got - n, "%s%s=%s", (j || a->npos) ? ", " : "",
                                  a->kwnames[order[j]], type_name(a->kw[order[j]]));
        if (a->nkw && !a->npos && n < sizeof got - 4) n += (size_t)snprintf(got + n, sizeof got - n, ", ");
    } else {
        for (int i = 0; i < ngot && n < sizeof got - 8; i++) {
            bool kw = i >= a->npos;
            const BindParam *p = i < nopt ? opt[i] : NULL;
            Value *v = NULL;
            if (!kw) v = a->pos[i];
            else
                for (int k = 0; k < a->nkw && p; k++)
                    if (!strcmp(a->kwnames[k], p->name)) v = a->kw[k];
            if (!v) v = a->kw[i - a->npos];
            bool ok = p && type_matches(p, v);
            n += (size_t)snprintf(got + n, sizeof got - n, "%s%s%s", i ? ", " : "", ok ? "" : "!",
                                  kw && p ? p->name : "");
            if (kw && p && n < sizeof got) n += (size_t)snprintf(got + n, sizeof got - n, "=");
            if (n < sizeof got) n += arg_desc(got + n, sizeof got - n, v);
            if (!ok && n < sizeof got) n += (size_t)snprintf(got + n, sizeof got - n, "!");
        }
    }
    if (n < sizeof got) snprintf(got + n, sizeof got - n, ")");
    sig_text(s, sig, sizeof sig);
    exc_set("TypeError", "%s() received an invalid combination of arguments - got %s, but expected (%s)", fname, got, sig);
    return -1;
}

/* PythonArgParser::raw_parse + print_error. off: 1 when a->pos[0] is self. */
/* The forms a row is called in: which of its signature sets parses. */
enum { FORM_FN, FORM_METHOD, FORM_FN_UNDERSCORE };

static int parse_call(const BindRow *d, const char *fname, CallArgs *a, int off, int form, BindArgs *b)
{
    bool method = form == FORM_METHOD;
    const BindSig *ss = method ? d->ms : form == FORM_FN_UNDERSCORE ? d->us : d->fs;
    int n = method ? d->nms : form == FORM_FN_UNDERSCORE ? d->nus : d->nfs;
    int hidden = method ? d->hidden_m : form == FORM_FN_UNDERSCORE ? 0 : d->hidden_f;
    bool nums = d->flags & BIND_NUMS;
    memset(b, 0, sizeof *b);
    if (method && n == 1 && ss[0].n == 0) {   /* METH_NOARGS */
        if (a->npos > off) return exc_seti("TypeError", "_TensorBase.%s() takes no arguments (%d given)", fname, a->npos - off);
        if (a->nkw) return exc_seti("TypeError", "_TensorBase.%s() takes no keyword arguments", fname);
        return 0;
    }
    if (n + hidden == 1) return sig_parse(fname, &ss[0], a, off, nums, b, true);
    for (int i = 0; i < n; i++) {
        int r = sig_parse(fname, &ss[i], a, off, nums, b, false);
        if (r == 0) {
            b->sig = i;
            return 0;
        }
        if (r == -2) return -1;   /* raised whatever the overload */
        Value *va = b->varargs;
        memset(b, 0, sizeof *b);
        b->varargs = va;   /* released by the caller */
    }
    int nargs = a->npos - off + a->nkw, plaus = -1, nplaus = 0;
    for (int i = 0; i < n; i++)
        if (!ss[i].hidden && nargs >= ss[i].min_args && nargs <= ss[i].n) { plaus = i; nplaus++; }
    if (nplaus == 1 && sig_parse(fname, &ss[plaus], a, off, nums, b, true) < 0) return -1;
    CallArgs rest = {a->pos + off, a->npos - off, a->kwnames, a->kw, a->nkw};
    int visible = 0, only = -1;
    for (int i = 0; i < n; i++)
        if (!ss[i].hidden) { visible++; only = i; }
    if (visible == 1) return invalid_single(fname, &ss[only], &rest);
    bind_invalid_combination(fname, &rest);
    return -1;
}

/* ------------------------------------------------------------ the math bits' fallback */

/* A conj view (or a neg view: x.conj().imag) does not hold its values in its
 * storage. The iterator, copy_, element access and the views know the bits
 * (runtime/tensor.h); every other row runs through call_resolved, the one
 * generic fallback of 1.13's MathBitsFallback.h: inputs with a bit are
 * materialised before the handler runs, and a written tensor (self of an
 * in-place form, out=) with a bit is replaced by a resolved clone that is
 * copied back (copy_ stores it conjugated) after the handler succeeded. */

/* Rows that see the bits themselves: 1.13's fallthroughs of the Conjugate
 * key (ConjugateFallback.cpp: views, metadata, clone, copy_, resolve_*) and
 * rows whose runtime calls are bit-aware (metadata queries, item, tolist, to,
 * the casts). Sorted (bsearch). */
static const char *const bits_aware_rows[] = {
    "__complex__", "__float__", "__format__", "__index__", "__int__", "adjoint", "align_as", "align_to", "as_strided",
    "as_strided_", "as_tensor", "asarray", "bfloat16", "bool", "byte", "cdouble", "cfloat", "chalf", "char", "chunk", "clone", "conj", "contiguous", "copy_",
    "cpu", "cuda", "data_ptr", "detach", "detach_", "diagonal", "dim", "double", "dsplit", "element_size", "expand",
    "expand_as", "flatten", "float", "get_device", "half", "hsplit", "imag", "int", "is_complex", "is_conj",
    "is_contiguous", "is_floating_point", "is_neg", "is_set_to", "is_signed", "item", "long", "moveaxis", "movedim",
    "narrow", "ndimension", "nelement", "numel", "permute", "real", "refine_names", "rename", "rename_",
    "requires_grad_", "reshape", "reshape_as", "resolve_conj", "resolve_neg", "select", "set_", "short", "size",
    "split", "split_with_sizes", "squeeze", "squeeze_", "storage_offset", "stride", "swapaxes", "swapaxes_",
    "swapdims", "swapdims_", "t", "t_", "tensor_split", "to", "tolist", "transpose", "transpose_", "type",
    "type_as", "unbind", "unflatten", "unfold", "unsqueeze", "unsqueeze_", "view", "view_as", "view_as_complex",
    "view_as_real", "vsplit",
};

/* Rows whose runtime reads inputs with bits itself (1.13's fallthroughs for
 * dot, vdot, mm, addmm and the matmul that decomposes into them): only a
 * written tensor with a bit still goes through the fallback. Sorted. */
static const char *const bits_input_rows[] = {"addmm", "dot", "matmul", "mm", "vdot"};

static int cmp_name(const void *a, const void *b) { return strcmp(a, *(const char *const *)b); }

static bool bits_aware(const BindRow *d)
{
    return bsearch(d->name, bits_aware_rows, sizeof bits_aware_rows / sizeof bits_aware_rows[0],
                   sizeof bits_aware_rows[0], cmp_name) != NULL;
}

static bool bits_inputs(const BindRow *d)
{
    return bsearch(d->name, bits_input_rows, sizeof bits_input_rows / sizeof bits_input_rows[0],
                   sizeof bits_input_rows[0], cmp_name) != NULL;
}

static bool has_bits(Value *v) { return v && is_tensor(v) && tsr_tensor_has_bits(tensor_of(v)); }

/* v with its tensors resolved (a tensor, or a tuple/list of tensors):
 * NEW reference, v itself (a new reference) when nothing carries a bit,
 * NULL with the error. */
static Value *resolved(Value *v)
{
    if (is_tensor(v)) return has_bits(v) ? v_tensor(tsr_resolve_bits(tensor_of(v))) : incref(v);
    if (v->type != &t_list && v->type != &t_tuple) return incref(v);
    size_t n = v->u.seq.n, k;
    for (k = 0; k < n && !has_bits(v->u.seq.items[k]); k++) {}
    if (k == n) return incref(v);
    Value *c = v->type == &t_list ? v_list_sized(n) : v_tuple_sized(n);
    if (!c) return NULL;
    for (k = 0; k < n; k++)
        if (!(c->u.seq.items[k] = resolved(v->u.seq.items[k]))) {
            decref(c);   /* the items not set yet are NULL */
            return NULL;
        }
    return c;
}

#define MAXMUT 4
typedef struct { Value *orig, *tmp; } Mut;

/* The handler on b with every tensor argument resolved. self is b->v[0]
 * for a method; the written tensors (self in place, out= or its tuple) are
 * resolved clones copied back afterwards. NEW reference or NULL. */
static Value *call_resolved(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    size_t fl = strlen(fname);
    bool writes_self = self && (inplace || (fl && fname[fl - 1] == '_'));
    Value *owned[BIND_MAXP + MAXMUT + 1], *r = NULL, *outv = b->v[BIND_OUT];
    int nowned = 0, nmut = 0;
    Mut mut[MAXMUT];
    bool any = has_bits(self) || (outv && (has_bits(outv) || outv->type == &t_tuple));
    for (int i = 0; i < BIND_MAXP && !any; i++)
        any = b->v[i] && (has_bits(b->v[i]) || b->v[i]->type == &t_list || b->v[i]->type == &t_tuple);
    if (!any) return d->handler(d, fname, b, self, inplace);
    Value *old_self = self;
    bool inputs_aware = bits_inputs(d);
    for (int i = 0; i < BIND_MAXP; i++) {
        Value *v = b->v[i];
        if (!v) continue;
        bool mutable = i == BIND_OUT || (writes_self && i == 0 && v == old_self);
        Value *nv = NULL;
        if (mutable && is_tensor(v)) {
            if (!has_bits(v)) continue;
            nv = v_tensor(tsr_resolve_bits(tensor_of(v)));
            if (!nv) goto done;
            mut[nmut++] = (Mut){v, nv};
        } else if (mutable && v->type == &t_tuple) {   /* out=(values, indices) */
            nv = resolved(v);
            if (!nv) goto done;
            for (size_t k = 0; k < v->u.seq.n && nmut < MAXMUT - 1; k++)
                if (nv->u.seq.items[k] != v->u.seq.items[k])
                    mut[nmut++] = (Mut){v->u.seq.items[k], nv->u.seq.items[k]};
            if (nv != v) mut[nmut++] = (Mut){v, nv};
        } else if (inputs_aware) {
            continue;
        } else {
            nv = resolved(v);
            if (!nv) goto done;
        }
        owned[nowned++] = nv;
        b->v[i] = nv;
        if (i == 0 && v == old_self) self = nv;
    }
    r = d->handler(d, fname, b, self, inplace);
    for (int m = 0; r && m < nmut; m++) {
        if (is_tensor(mut[m].orig)) {
            tsr_tensor *o = tensor_of(mut[m].orig), *t = tensor_of(mut[m].tmp);
            bool same = o->ndim == t->ndim;
            for (int k = 0; same && k < o->ndim; k++) same = o->sizes[k] == t->sizes[k];
            if ((!same && tsr_tensor_resize_(o, t->ndim, t->sizes) < 0) || tsr_copy_(o, t) < 0) {
                decref(r);
                r = bind_runtime_error();
            }
        }
        if (r == mut[m].tmp) {   /* the written tensor is the result: the caller's own value */
            decref(r);
            r = incref(mut[m].orig);
        }
    }
done:
    for (int k = 0; k < nowned; k++) decref(owned[k]);
    return r;
}

/* The names step (table_names.c) around the row's handler (or the conj
 * fallback); the autograd step (table_grad.c) records around both. */
static Value *names_step(const BindRow *d, const char *fname, BindArgs *b, Value *self, bool inplace)
{
    if (!bind_sparse_row(d) && bind_sparse_args(b, self))   /* the sparse step: SparseCPU or refused */
        return bind_sparse_call(d, fname, b, self, inplace, d->handler);
    return bind_names_call(d, fname, b, self, inplace, bits_aware(d) ? d->handler : call_resolved);
}

/* One call of a row in one of its forms. self: the tensor of a method call
 * (a->pos does not hold it), NULL for the function form. */
static Value *row_call_form(const BindRow *d, Value *self, CallArgs *a, bool inplace, const void *ctx, int form);
static Value *row_call_ctx(const BindRow *d, Value *self, CallArgs *a, bool inplace, const void *ctx)
{
    return row_call_form(d, self, a, inplace, ctx, self ? FORM_METHOD : FORM_FN);
}
static Value *row_call(const BindRow *d, Value *self, CallArgs *a, bool inplace) { return row_call_ctx(d, self, a, inplace, NULL); }

static Value *row_call_form(const BindRow *d, Value *self, CallArgs *a, bool inplace, const void *ctx, int form)
{
    const char *fname = inplace || form == FORM_FN_UNDERSCORE ? d->iname : self ? d->name : d->pname;
    BindArgs b;
    Value *stack[16], **pos = stack;
    CallArgs ca = *a;
    int off = 0;
    if (self) {   /* positions in messages do not count self */
        if (a->npos + 1 > 16) return exc_set("TypeError", "%s(): too many arguments", fname);
        pos[0] = self;
        for (int i = 0; i < a->npos; i++) pos[i + 1] = a->pos[i];
        ca.pos = pos;
        ca.npos = a->npos + 1;
        off = 1;
    }
    if (parse_call(d, fname, &ca, off, form, &b) < 0) {
        if (b.varargs) decref(b.varargs);
        return NULL;
    }
    if (self && !ctx) {
        b.v[0] = self;
        b.type[0] = BT_TENSOR;
    }
    if (!self && ((d->flags & BIND_FN_INPLACE) || form == FORM_FN_UNDERSCORE)) {   /* torch.clamp_(x, ...) */
        self = b.v[0];
        inplace = true;
    }
    b.ctx = ctx;
    /* in-place, NAME_ methods and out=: the tensor is written whole or not at all */
    size_t fl = strlen(fname);
    bool writes = inplace || (fl && fname[fl - 1] == '_') || (b.v[BIND_OUT] && !is_none(b.v[BIND_OUT]));
    Value *r = NULL;
    if (writes && tsr_interrupt_hold() < 0) r = bind_runtime_error();
    else {
        r = bind_grad_call(d, fname, &b, self, inplace, names_step);
        if (writes) tsr_interrupt_unhold();
    }
    const char *w = tsr_warning_take();   /* a UserWarning the runtime left (resize_output, ...) */
    if (w && !bind_warnings_ignored()) fprintf(stderr, "UserWarning: %s\n", w);
    if (b.varargs) decref(b.varargs);
    return r;
}

int bind_table_intlist(const BindArgs *b, int slot, const char *fname, int64_t *out, int max, int *n)
{
    Value *v = b->v[slot];
    const BindParam *p = b->param[slot];
    const char *pname = p ? p->name : "size", *tname = ptypes[p ? p->type : BT_INT_LIST].msg;
    if (arg_is_int(v)) {
        int64_t x;
        if (bind_table_int_value(v, fname, pname, &x) < 0) return -1;
        for (int i = 0; i < (p && p->size > 0 ? p->size : 1) && i < max; i++) out[i] = x;
        *n = p && p->size > 0 ? p->size : 1;
        return 0;
    }
    size_t len = seq_len(v);
    if ((int)len > max) return exc_seti("RuntimeError", "%s(): too many dimensions (%zu > %d)", fname, len, max);
    for (size_t i = 0; i < len; i++) {
        Value *x = v->u.seq.items[i];
        if (!arg_is_int(x))
            return exc_seti("TypeError", "%s(): argument '%s' must be %s, but found element of type %s at pos %zu", fname,
                            pname, tname, type_name(x), i + 1);
        if (bind_table_int_value(x, fname, pname, &out[i]) < 0) return -1;
    }
    *n = (int)len;
    return 0;
}

static Value *fn_call(Value *self, CallArgs *a, void *data)
{
    (void)self;
    const BindRow *d = data;
    return d->pydef && d->pydef(a, BIND_FN) < 0 ? NULL : row_call(d, NULL, a, false);
}
static Value *method_call(Value *self, CallArgs *a, void *data)
{
    const BindRow *d = data;
    return d->pydef && d->pydef(a, BIND_METHOD) < 0 ? NULL : row_call(d, self, a, false);
}
static Value *inplace_call(Value *self, CallArgs *a, void *data) { return row_call(data, self, a, true); }
static Value *fn_underscore_call(Value *self, CallArgs *a, void *data)
{
    (void)self;
    return row_call_form(data, NULL, a, true, NULL, FORM_FN_UNDERSCORE);
}

/* ------------------------------------------------------------ registry */

typedef struct { BindRow *rows; int n; } Area;
static Area *areas;
static int nareas, capareas;

/* The bsearch lists must stay sorted: checked at every start-up (a
 * programming error caught by every test run). */
static void check_sorted(const char *const *names, size_t n, const char *what)
{
    for (size_t i = 1; i < n; i++)
        if (strcmp(names[i - 1], names[i]) >= 0) {
            fprintf(stderr, "tsr: %s not sorted at \"%s\"\n", what, names[i]);
            abort();
        }
}

void bind_table_register(BindRow *rows, int n)
{
    if (!nareas) {
        check_sorted(bits_aware_rows, sizeof bits_aware_rows / sizeof bits_aware_rows[0], "bits_aware_rows");
        check_sorted(bits_input_rows, sizeof bits_input_rows / sizeof bits_input_rows[0], "bits_input_rows");
    }
    if (nareas == capareas) {
        capareas = capareas * 2 + 8;
        areas = value_xrealloc(areas, (size_t)capareas * sizeof *areas);
    }
    areas[nareas++] = (Area){rows, n};
    for (int i = 0; i < n; i++) {
        BindRow *d = &rows[i];
        char *buf = value_xstrdup(d->sigs);
        d->nfs = d->nms = 0;
        d->names_rule = bind_names_rule_of(d->name);
        d->pydef = bind_pydef_of(d);
        /* strsep keeps an empty overload: "ScalarType type|" is (type) and () */
        for (char *s, *rest = buf; (s = strsep(&rest, "|"));) {
            bool hidden = *s == '!';
            BindSig *f = &d->fs[d->nfs];
            if (d->nfs == BIND_MAXSIG || parse_sig(s + hidden, f) < 0 || (hidden && !d->nfs)) {
                fprintf(stderr, "tsr: bad signature for %s: %s\n", d->name, s);
                abort();
            }
            f->hidden = hidden;
            /* a deprecated alias (add(input, alpha, other)) names only the
             * first overload's parameters: they keep their slots */
            bool alias = hidden;
            for (int i = 0; alias && i < f->n; i++) {
                bool found = false;
                for (int j = 0; j < d->fs[0].n; j++) found = found || !strcmp(f->p[i].name, d->fs[0].p[j].name);
                alias = found;
            }
            for (int i = 0; alias && i < f->n; i++)
                for (int j = 0; j < d->fs[0].n; j++)
                    if (!strcmp(f->p[i].name, d->fs[0].p[j].name)) f->p[i].slot = d->fs[0].p[j].slot;
            if (method_sig(f, &d->ms[d->nms])) d->ms[d->nms++].hidden = hidden;
            d->nfs++;
        }
        free(buf);
        free(d->us);   /* a second registration (a fresh interpreter state) starts over */
        d->us = NULL;
        d->nus = 0;
        if (d->flags & BIND_FN_UNDERSCORE) {   /* torch.exp_(input): the function signatures less out= */
            d->us = value_xcalloc((size_t)d->nfs, sizeof *d->us);
            for (int k = 0; k < d->nfs; k++) {
                if (d->fs[k].hidden) continue;
                BindSig *u = &d->us[d->nus++];
                *u = d->fs[k];
                u->n = 0;
                for (int i = 0; i < d->fs[k].n; i++)
                    if (d->fs[k].p[i].slot != BIND_OUT) u->p[u->n++] = d->fs[k].p[i];
            }
        }
        if (d->op && !(d->desc = tsr_op_find(d->op))) {
            fprintf(stderr, "tsr: no runtime op %s for %s\n", d->op, d->name);
            abort();
        }
        snprintf(d->iname, sizeof d->iname, "%s_", d->name);
        snprintf(d->pname, sizeof d->pname, "%s%s",
                 d->module && !strcmp(d->module, "torch.special") ? "special_"
                 : d->module && !strcmp(d->module, "torch.linalg") ? "linalg_"
                 : d->module && !strcmp(d->module, "torch.fft") ? "fft_" : "", d->name);
        if (d->flags & BIND_FN) module_add(bind_module(d->module ? d->module : "torch"), d->name,
                                           v_builtin(d->pname, fn_call, NULL, d));
        if (d->flags & BIND_METHOD) bind_tensor_method_data(d->name, method_call, d);
        if (d->flags & BIND_INPLACE) bind_tensor_method_data(d->iname, inplace_call, d);
        if (d->flags & BIND_FN_UNDERSCORE)
            module_add(bind_module(d->module ? d->module : "torch"), d->iname, v_builtin(d->iname, fn_underscore_call, NULL, d));
    }
}

void bind_table_alias_method(const char *alias, BindRow *row) { bind_tensor_method_data(alias, method_call, row); }

const BindRow *bind_table_row_of(Value *callable, unsigned *form)
{
    if (callable->type != &t_builtin) return NULL;
    BuiltinFn fn = callable->u.bi.fn;
    if (fn != fn_call && fn != method_call && fn != inplace_call && fn != fn_underscore_call) return NULL;
    *form = fn == fn_call ? BIND_FN : fn == method_call ? BIND_METHOD : fn == inplace_call ? BIND_INPLACE
                                                                                       : BIND_FN_UNDERSCORE;
    return callable->u.bi.data;
}

Value *bind_table_help_text(const BindRow *row, unsigned form)
{
    bool method = form == BIND_METHOD || form == BIND_INPLACE, under = form == BIND_FN_UNDERSCORE;
    const char *name = form == BIND_INPLACE || under ? row->iname : row->name;
    char q[96], *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return exc_set("MemoryError", "%s", "");
    const char *mod = row->module ? row->module : "torch";
    snprintf(q, sizeof q, "%s.%s", method ? "Tensor" : mod, name);
    const TorchApi *api = torch_api_find(q);
    if (method) fprintf(f, "Help on method %s of Tensor:\n\n", name);
    else fprintf(f, "Help on built-in function %s in module %s:\n\n", name, mod);
    if (api && api->signature[0]) fprintf(f, "%s\n", api->signature);
    if (api && api->summary[0]) fprintf(f, "    %s\n", api->summary);
    fprintf(f, "%sSignatures (what the argument parser accepts):\n", api && (api->signature[0] || api->summary[0]) ? "\n" : "");
    const BindSig *ss = method ? row->ms : under ? row->us : row->fs;
    int n = method ? row->nms : under ? row->nus : row->nfs;
    /* the row's own text, defaults included; the method form drops self and out= */
    const char *p = row->sigs;
    for (int i = 0; *p && i < row->nfs; i++) {
        const char *e = strchr(p, '|');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        bool hidden = *p == '!';
        if (!method && !under) fprintf(f, "    %s(%.*s)%s\n", row->name, (int)(l - hidden), p + hidden, hidden ? "  (deprecated)" : "");
        p += l + (e ? 1 : 0);
    }
    for (int i = 0; (method || under) && i < n; i++) {
        char sig[512];
        sig_text(&ss[i], sig, sizeof sig);
        fprintf(f, "    %s(%s)%s\n", name, sig, ss[i].hidden ? "  (deprecated)" : "");
    }
    fclose(f);
    if (len && text[len - 1] == '\n') text[--len] = 0;
    Value *r = v_str(text);
    free(text);
    return r;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static const char *const list_modules[] = {"torch", "torch.linalg", "torch.special", "torch.fft", "torch.nn.functional",
                                           "torch.sparse"};

static bool push(char ***names, int *m, int *cap, const char *a, const char *b)
{
    if (*m == *cap) {
        *cap = *cap * 2 + 256;
        char **p = value_try_realloc(*names, (size_t)*cap * sizeof **names);
        if (!p) return false;
        *names = p;
    }
    size_t n = strlen(a) + strlen(b) + 2;
    char *s = value_try_realloc(NULL, n);
    if (!s) return false;
    snprintf(s, n, "%s.%s", a, b);
    (*names)[(*m)++] = s;
    return true;
}

void bind_table_list(FILE *f)
{
    char **names = NULL;
    int m = 0, cap = 0;
    bool ok = true;
    for (size_t k = 0; ok && k < sizeof list_modules / sizeof *list_modules; k++) {
        Value *mod = bind_find_module(list_modules[k]), *key, *val;
        if (!mod) continue;
        for (size_t i = 0; ok && dict_next(mod->u.mod->attrs, &i, &key, &val);)
            if (val->type == &t_builtin || val->type == &t_func) ok = push(&names, &m, &cap, list_modules[k], key->u.s.p);
    }
    for (int i = 0; ok && bind_tensor_method_name(i); i++) {
        const char *n = bind_tensor_method_name(i);
        if (n[0] != '_') ok = push(&names, &m, &cap, "Tensor", n);
    }
    if (ok) {
        qsort(names, (size_t)m, sizeof *names, cmp_str);
        for (int i = 0; i < m; i++)
            if (i == 0 || strcmp(names[i], names[i - 1])) fprintf(f, "%s\n", names[i]);
    } else {
        fprintf(stderr, "tsr: out of memory\n");
    }
    for (int i = 0; i < m; i++) free(names[i]);
    free(names);
}

/* ------------------------------------------------------------ 1.13's list */

static int api_cmp(const void *key, const void *ent) { return strcmp(key, ((const TorchApi *)ent)->name); }

const TorchApi *torch_api_find(const char *qualified)
{
    return bsearch(qualified, torch_api, (size_t)torch_api_count, sizeof *torch_api, api_cmp);
}

/* ------------------------------------------------------------ shape and tensor attributes (migtensor) */

int bind_table_int(const BindArgs *b, int slot, int64_t dflt, int64_t *out)
{
    Value *v = b->v[slot];
    if (!v) { *out = dflt; return 0; }
    if (v->type == &t_int || v->type == &t_bool) { *out = v->u.i; return 0; }
    if (is_tensor(v)) {
        *out = tsr_tensor_get_int64_at(tensor_of(v), 0);
        return tsr_error_occurred() ? bind_runtime_errori() : 0;
    }
    return exc_seti("TypeError", "argument '%s' must be int, not %s", b->param[slot] ? b->param[slot]->name : "?",
                    type_name(v));
}

int bind_table_dim(const BindArgs *b, int slot, const struct tsr_tensor *t, int64_t dflt, int64_t *out)
{
    if (b->v[slot] && b->type[slot] == BT_DIMNAME) {
        int d = tsr_dim_of_name(t, b->v[slot]->u.s.p);
        if (d < 0) return bind_runtime_errori();
        *out = d;
        return 0;
    }
    return bind_table_int(b, slot, dflt, out);
}

Value *bind_table_call_method(const BindRow *row, Value *self, CallArgs *a) { return row_call(row, self, a, false); }

Value *bind_table_call(const BindRow *row, CallArgs *a) { return row_call(row, NULL, a, false); }

Value *bind_table_call_ctx(const BindRow *row, Value *self, CallArgs *a, const void *ctx)
{
    return row_call_ctx(row, self, a, false, ctx);
}

/* ------------------------------------------------------------ factory and random */

/* THPPythonScalarType_Check: the Python types int, float and bool stand for
 * int64, the default float dtype's double, and bool (complex does not). */
static bool py_scalar_type(Value *v)
{
    return v->type == &t_type && (v->u.typeobj == &t_int || v->u.typeobj == &t_float || v->u.typeobj == &t_bool);
}

Value *bind_table_arg(const BindArgs *b, const char *name)
{
    for (int i = 0; i < BIND_MAXP; i++)
        if (b->v[i] && b->param[i] && !strcmp(b->param[i]->name, name)) return b->v[i];
    return NULL;
}

tsr_dtype bind_table_dtype(Value *v, tsr_dtype dflt)
{
    if (!v) return dflt;
    if (is_dtype(v)) return dtype_of(v);
    return v->u.typeobj == &t_int ? TSR_INT64 : v->u.typeobj == &t_float ? TSR_FLOAT64 : TSR_BOOL;
}

int bind_table_int_value(Value *v, const char *fname, const char *pname, int64_t *out)
{
    if (is_tensor(v) && tensor_of(v)->ndim == 0 && tsr_dtype_is_integral(tensor_of(v)->dtype, false) &&
        !tsr_tensor_is_meta(tensor_of(v))) {
        *out = tsr_tensor_get_int64_at(tensor_of(v), 0);   /* Tensor.__index__ */
        return 0;
    }
    return bind_int(v, fname, pname, out);
}

int bind_table_float(Value *v, const char *fname, const char *pname, double *out)
{
    if (is_tensor(v) && tensor_of(v)->ndim == 0) {   /* Tensor.__float__ */
        tsr_scalar x;
        if (bind_scalar(v, fname, pname, &x) < 0) return -1;
        *out = tsr_scalar_to_double(x);
        return 0;
    }
    return bind_float(v, fname, pname, out);
}
