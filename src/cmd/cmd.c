/* src/cmd/cmd.c — the ':' commands: the one table of every command (name,
 * arguments, help line, handler), the dispatcher, and the commands that need
 * no tensor rules: :help, :vars, :reset, :load, :time, :timeit, :quit. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bind/bind.h"
#include "bind/tensor.h"
#include "cmd/cmd.h"
#include "eval.h"

bool cmd_quit_requested;

static int c_help(const char *arg);
static int c_vars(const char *arg);
static int c_load(const char *arg);
static int c_time(const char *arg);
static int c_timeit(const char *arg);
static int c_quit(const char *arg);
static int c_reset(const char *arg);

/* Every command, in the order :help lists them. */
static const struct {
    const char *name, *args, *help;
    int (*run)(const char *arg);    /* 0 ok, 1 failed (the error already printed) */
} commands[] = {
    {"help", "[TOPIC]", "this help, or help on a command, function or value", c_help},
    {"vars", NULL, "the names you have bound: type, shape and dtype, and the value", c_vars},
    {"reset", NULL, "forget every name you have bound", c_reset},
    {"load", "FILE", "run a script in this session", c_load},
    {"time", "STATEMENT", "run once and print the wall time", c_time},
    {"timeit", "STATEMENT", "run repeatedly; print the best and median time", c_timeit},
    {"quit", NULL, "leave tsr (as Ctrl-D does)", c_quit},
    {"explain", "EXPR", "how each operation in EXPR got its dtype", cmd_explain},
    {"table", "[can_cast]", "the promote_types table, or the can_cast matrix", cmd_table},
    {"info", "EXPR", "a tensor's dtype, device, shape, stride, storage, contiguity", cmd_info},
    {"storage", "EXPR", "the storage as a row, the view's elements marked", cmd_storage},
    {"plot", "EXPR", "a 1-D tensor as a line chart", cmd_plot},
    {"hist", "EXPR", "a histogram of a tensor's values", cmd_hist},
    {"show", "EXPR", "a 2-D tensor as a heatmap", cmd_show},
    {"mem", "[reset]", "tensor memory in use, its peak and the limit (--max-memory)", cmd_mem},
    {"grad", "EXPR", "backward from EXPR: the graph to the leaves, saved shapes, gradients", cmd_grad},
};
#define NCOMMANDS ((int)(sizeof commands / sizeof *commands))

/* Longer texts of ":help TOPIC". */
static const struct { const char *topic, *text; } topics[] = {
    {"promotion", cmd_help_promotion},
    {"names", cmd_help_names},
};
#define NTOPICS ((int)(sizeof topics / sizeof *topics))

/* ":help [TOPIC]": the usage line of command i. */
static const char *usage(int i, char *buf, size_t n)
{
    const char *args = commands[i].args;
    snprintf(buf, n, ":%s%s%s", commands[i].name, args ? " " : "", args ? args : "");
    return buf;
}

const char *cmd_name(int i) { return i >= 0 && i < NCOMMANDS ? commands[i].name : NULL; }

bool cmd_is_command(const char *line)
{
    return line[0] == ':' && ((line[1] >= 'a' && line[1] <= 'z') || (line[1] >= 'A' && line[1] <= 'Z'));
}

int cmd_run(const char *line)
{
    const char *p = line + 1, *e = p;
    while (*e && *e != ' ' && *e != '\t' && *e != '\n') e++;
    size_t n = (size_t)(e - p);
    while (*e == ' ' || *e == '\t') e++;
    char *arg = value_xstrdup(e);
    size_t l = strlen(arg);
    while (l && (arg[l - 1] == '\n' || arg[l - 1] == ' ' || arg[l - 1] == '\r')) arg[--l] = 0;
    int r = 1;
    bool found = false;
    for (int i = 0; i < NCOMMANDS; i++) {
        if (strlen(commands[i].name) == n && !strncmp(commands[i].name, p, n)) {
            found = true;
            r = commands[i].run(arg);
            break;
        }
    }
    if (!found) {
        fflush(stdout);
        fprintf(eval_opts.brief_errors ? stdout : stderr, "tsr: unknown command ':%.*s' (:help lists the commands)\n",
                (int)n, p);
    }
    free(arg);
    fflush(stdout);
    return r;
}

/* ------------------------------------------------------------ :help */

static const char *help_intro =
    "tsr evaluates Python with PyTorch's tensor rules. Type an expression to see\n"
    "its value, or a statement to run it; `torch` is already imported.\n"
    "\n"
    "Commands (only at the start of a line):\n";

static const char *help_outro =
    "\n"
    ":help TOPIC shows help on a command (:help time), a function or a value\n"
    "(:help len, :help torch.zeros). Ctrl-C abandons the input, Ctrl-D leaves.\n";

static int c_help(const char *arg)
{
    if (!*arg) {
        fputs(help_intro, stdout);
        char u[64];
        for (int i = 0; i < NCOMMANDS; i++) printf("  %-22s %s\n", usage(i, u, sizeof u), commands[i].help);
        printf("\nTopics:");
        for (int i = 0; i < NTOPICS; i++) printf(" %s", topics[i].topic);
        printf("\n");
        fputs(help_outro, stdout);
        return 0;
    }
    const char *t = arg[0] == ':' ? arg + 1 : arg;
    for (int i = 0; i < NTOPICS; i++)
        if (!strcmp(topics[i].topic, t)) { fputs(topics[i].text, stdout); return 0; }
    char u[64];
    for (int i = 0; i < NCOMMANDS; i++) {
        if (strcmp(commands[i].name, t)) continue;
        printf("%s\n    %s\n", usage(i, u, sizeof u), commands[i].help);
        return 0;
    }
    Value *v = eval_expression("<help>", arg);
    if (!v) return 1;
    Value *text = bind_help_text(v);
    decref(v);
    if (!text) { eval_report_error(); return 1; }
    printf("%s\n", text->u.s.p);
    decref(text);
    return 0;
}

/* ------------------------------------------------------------ :vars */

/* A session name :vars and :reset leave alone. */
static bool is_session_name(Value *k, Value *v)
{
    return !strcmp(k->u.s.p, "__name__") || (v->type == &t_module && !strcmp(k->u.s.p, "torch"));
}

/* One :vars row: type, shape and dtype (tensors), a one-line value. */
typedef struct { const char *name; char type[32], shape[48], dtype[24], value[64]; } VarRow;

static void var_row(Value *k, Value *v, VarRow *r)
{
    r->name = k->u.s.p;
    snprintf(r->type, sizeof r->type, "%s", type_name(v));
    r->shape[0] = r->dtype[0] = 0;
    if (is_tensor(v)) {
        tsr_tensor *t = tensor_of(v);
        size_t n = (size_t)snprintf(r->shape, sizeof r->shape, "(");
        for (int d = 0; d < t->ndim && n < sizeof r->shape; d++)
            n += (size_t)snprintf(r->shape + n, sizeof r->shape - n, "%s%lld", d ? ", " : "", (long long)t->sizes[d]);
        if (n < sizeof r->shape) snprintf(r->shape + n, sizeof r->shape - n, "%s)", t->ndim == 1 ? "," : "");
        snprintf(r->dtype, sizeof r->dtype, "%s", tsr_dtype_name(t->dtype));
    }
    Value *s = value_repr(v);
    if (!s) { exc_clear(); s = v_str("?"); }
    size_t n = 0, max = sizeof r->value - 4;
    for (size_t j = 0; j < s->u.s.n && n < max; j++) {
        char c = s->u.s.p[j];
        if (c == '\n') { while (j + 1 < s->u.s.n && s->u.s.p[j + 1] == ' ') j++; c = ' '; }
        r->value[n++] = c;
    }
    if (n >= max) { memcpy(r->value + n, "...", 3); n += 3; }
    r->value[n] = 0;
    decref(s);
}

static int c_vars(const char *arg)
{
    (void)arg;
    Value *g = eval_globals(), *k, *v;
    size_t nrows = 0;
    for (size_t i = 0; dict_next(g, &i, &k, &v);) nrows += !is_session_name(k, v);
    if (!nrows) { printf("(no variables)\n"); return 0; }
    VarRow *rows = value_xmalloc(nrows * sizeof *rows);
    int w[4] = {4, 4, 5, 5};    /* name, type, shape, dtype: at least the header */
    size_t m = 0;
    for (size_t i = 0; dict_next(g, &i, &k, &v);) {
        if (is_session_name(k, v)) continue;
        VarRow *r = &rows[m++];
        var_row(k, v, r);
        const char *cols[4] = {r->name, r->type, r->shape, r->dtype};
        for (int c = 0; c < 4; c++) {
            int l = (int)strlen(cols[c]);
            if (l > w[c]) w[c] = l > 24 ? 24 : l;
        }
    }
    printf("%-*s  %-*s  %-*s  %-*s  %s\n", w[0], "name", w[1], "type", w[2], "shape", w[3], "dtype", "value");
    for (size_t i = 0; i < m; i++)
        printf("%-*s  %-*s  %-*s  %-*s  %s\n", w[0], rows[i].name, w[1], rows[i].type, w[2], rows[i].shape, w[3],
               rows[i].dtype, rows[i].value);
    free(rows);
    return 0;
}

/* ------------------------------------------------------------ :reset */

static int c_reset(const char *arg)
{
    (void)arg;
    Value *g = eval_globals(), *k, *v, *names = v_list(0);
    for (size_t i = 0; dict_next(g, &i, &k, &v);)
        if (!is_session_name(k, v)) list_append(names, k);
    for (size_t i = 0; i < seq_len(names); i++) dict_del(g, seq_get(names, i));
    Value *torch = bind_find_module("torch");
    if (torch) dict_set_str(g, "torch", torch);
    Value *last = v_str("_");
    if (dict_del(bind_builtins(), last) < 0) exc_clear();
    decref(last);
    size_t n = seq_len(names);
    decref(names);
    printf("(%zu name%s removed)\n", n, n == 1 ? "" : "s");
    return 0;
}

/* ------------------------------------------------------------ :load */

char *cmd_read_source(FILE *f, const char *path, size_t *len, char *msg, size_t msgn)
{
    const char *q = path ? "'" : "", *name = path ? path : "standard input";
    size_t cap = 1 << 16, n = 0;
    char *buf = value_malloc(cap + 1);
    if (!buf) goto nomem;
    for (;;) {
        size_t k = fread(buf + n, 1, cap - n, f);
        const char *nul = memchr(buf + n, 0, k);
        if (nul) {
            snprintf(msg, msgn, "tsr: %s%s%s is not a text file (a NUL byte at offset %zu)", q, name, q, (size_t)(nul - buf));
            goto fail;
        }
        n += k;
        if (n > CMD_MAX_SOURCE) {
            snprintf(msg, msgn, "tsr: %s%s%s is too large (a script is at most %zu MiB)", q, name, q, CMD_MAX_SOURCE >> 20);
            goto fail;
        }
        if (k == 0) break;
        if (n == cap) {
            /* one byte past the limit is enough to tell it is too large */
            size_t ncap = cap * 2 > CMD_MAX_SOURCE ? CMD_MAX_SOURCE + 1 : cap * 2;
            char *nb = value_realloc(buf, ncap + 1);
            if (!nb) goto nomem;
            buf = nb;
            cap = ncap;
        }
    }
    if (ferror(f)) {
        snprintf(msg, msgn, "tsr: cannot read %s%s%s: %s", q, name, q, strerror(errno));
        goto fail;
    }
    buf[n] = 0;
    *len = n;
    return buf;
nomem:   /* (value_malloc's MemoryError is reported as the message) */
    exc_clear();
    snprintf(msg, msgn, "tsr: cannot read %s%s%s: MemoryError", q, name, q);
fail:
    free(buf);
    return NULL;
}

static int load_file(const char *path, bool keep_going)
{
    FILE *err = eval_opts.brief_errors ? stdout : stderr;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fflush(stdout);
        fprintf(err, "tsr: cannot open '%s': %s\n", path, strerror(errno));
        return -1;
    }
    size_t n;
    char msg[512];
    char *buf = cmd_read_source(f, path, &n, msg, sizeof msg);
    fclose(f);
    if (!buf) {
        fflush(stdout);
        fprintf(err, "%s\n", msg);
        return -1;
    }
    bool saved = eval_opts.show_location;
    eval_opts.show_location = true;
    /* as `tsr FILE`: a doctest file statement by statement with its ':'
     * commands; a script parsed whole before any of it runs */
    int failed = 0;
    size_t dlen;
    char *doc = cmd_doctest(buf, n, &dlen);
    if (doc) cmd_run_text(path, doc, dlen, keep_going, &failed);
    else if (keep_going || !eval_check_source(path, buf, n)) failed = eval_source(path, buf, n, keep_going, NULL);
    else failed = 1;
    free(doc);
    eval_opts.show_location = saved;
    free(buf);
    return failed;
}

static int c_load(const char *arg)
{
    if (!*arg) {
        fprintf(stderr, "usage: :load FILE\n");
        return 1;
    }
    return load_file(arg, false) != 0;
}

/* ------------------------------------------------------------ :time */

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fmt_time(double s, char *buf, size_t n)
{
    if (s < 1e-6) snprintf(buf, n, "%.3g ns", s * 1e9);
    else if (s < 1e-3) snprintf(buf, n, "%.3g us", s * 1e6);
    else if (s < 1) snprintf(buf, n, "%.3g ms", s * 1e3);
    else snprintf(buf, n, "%.3g s", s);
}

static int c_time(const char *arg)
{
    if (!*arg) { fprintf(stderr, "usage: :time STATEMENT\n"); return 1; }
    double t0 = mono();
    int failed = eval_source("<time>", arg, strlen(arg), false, NULL);
    double dt = mono() - t0;
    char buf[32];
    fmt_time(dt, buf, sizeof buf);
    printf("wall time: %s\n", buf);
    return failed != 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int c_timeit(const char *arg)
{
    if (!*arg) { fprintf(stderr, "usage: :timeit STATEMENT\n"); return 1; }
    /* the statement's values are not printed: run it as `_ = (STMT)` would
     * be wrong for statements, so silence stdout by suppressing with ';' */
    size_t n = strlen(arg);
    char *src = value_xmalloc(n + 2);
    memcpy(src, arg, n);
    src[n] = ';';
    src[n + 1] = 0;
    long loops = 1;
    double per[7];
    /* find a loop count that runs for at least 0.2 s */
    for (;;) {
        double t0 = mono();
        for (long i = 0; i < loops; i++)
            if (eval_source("<timeit>", src, n + 1, false, NULL)) { free(src); return 1; }
        double dt = mono() - t0;
        if (dt >= 0.2 || loops >= 100000000) { per[0] = dt / (double)loops; break; }
        loops *= dt < 0.02 ? 10 : 2;
    }
    int reps = 5;
    for (int r = 1; r < reps; r++) {
        double t0 = mono();
        for (long i = 0; i < loops; i++)
            if (eval_source("<timeit>", src, n + 1, false, NULL)) { free(src); return 1; }
        per[r] = (mono() - t0) / (double)loops;
    }
    free(src);
    qsort(per, (size_t)reps, sizeof *per, cmp_double);
    char b1[32], b2[32];
    fmt_time(per[0], b1, sizeof b1);
    fmt_time(per[reps / 2], b2, sizeof b2);
    printf("%ld loop%s, best: %s, median: %s\n", loops, loops == 1 ? "" : "s", b1, b2);
    return 0;
}

static int c_quit(const char *arg)
{
    (void)arg;
    cmd_quit_requested = true;
    return 0;
}
