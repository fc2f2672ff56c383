/* src/main.c — the command line: the REPL on a terminal, a script file,
 * standard input that is not a terminal, or -e CODE.
 * Exit status: 0 success, 1 a statement failed (or output could not be
 * written), 2 usage, 130 interrupted. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "alloc.h"
#include "error.h"
#include "eval.h"
#include "repl.h"
#include "bind/bind.h"
#include "bind/table.h"
#include "bind/sysmod.h"

#ifndef TSR_VERSION
#define TSR_VERSION "0.0.0"
#endif

static const char *usage_line = "usage: tsr [-k] [-i] [--brief-errors] [-e CODE | FILE | -]\n";

static void usage(FILE *f)
{
    fputs(usage_line, f);
    if (f == stdout)
        fputs("\n"
              "tsr is a tensor calculator with PyTorch's rules: type Torch-like Python at\n"
              "the prompt, or run a .tsr script.\n"
              "\n"
              "  FILE               run a script (stops at the first error)\n"
              "  -                  read statements from standard input\n"
              "  -e CODE            run CODE\n"
              "  -i                 stay interactive after FILE or -e\n"
              "  -k, --keep-going   report each error and go on\n"
              "  --brief-errors     errors as one line 'Type: message' on standard output\n"
              "  --list-functions   print every torch callable tsr binds, one qualified name a line\n"
              "  --max-memory SIZE  limit live tensor memory (default: half of physical memory)\n"
              "  -h, --help         this help\n"
              "  -V, --version      print the version\n"
              "\n"
              "With no FILE, tsr starts the REPL on a terminal and reads standard input\n"
              "otherwise. See tsr(1).\n",
              f);
}

static int interrupted_status(void)
{
    return 130;
}

static volatile sig_atomic_t sigint_count;

/* Only sets flags: the statement running polls them and fails with
 * KeyboardInterrupt. A session at the prompt never exits on Ctrl-C; a
 * script that ignores three of them (a kernel that does not poll) ends with
 * status 130. */
static pthread_t main_thread;

/* A process-directed SIGINT may land on any thread that does not block it,
 * and OpenBLAS starts its workers before main with none blocked: such a
 * signal is passed on to the main thread, whose pselect at the prompt (and
 * whose sleeps) only it can interrupt. */
static void on_sigint(int sig)
{
    if (!pthread_equal(pthread_self(), main_thread)) {
        pthread_kill(main_thread, sig);
        return;
    }
    eval_interrupted = 1;
    tsr_interrupted = 1;
    repl_sigint = 1;
    if (!repl_session && ++sigint_count >= 3) _exit(130);
}

/* A failed write to standard output (a full disk, /dev/full) is reported
 * once, at the end, and makes the status 1; a closed pipe stays quiet. */
static int finish_output(int status)
{
    eval_flush_output();
    if (!ferror(stdout)) return status;
    int e = eval_output_errno;
    if (e != EPIPE) fprintf(stderr, "tsr: write error%s%s\n", e ? ": " : "", e ? strerror(e) : "");
    return status ? status : 1;
}

/* A script file: a doctest file runs statement by statement with its
 * ':' commands; with -k each statement is compiled alone (so each error is
 * reported); otherwise, as Python, the whole file is parsed before any of
 * it runs. Returns the number of failures. */
static int run_file(const char *file, char *text, size_t len, bool keep_going)
{
    int failed = 0;
    size_t dlen;
    char *doc = cmd_doctest(text, len, &dlen);
    if (doc) {
        cmd_run_text(file, doc, dlen, keep_going, &failed);
        free(doc);
        return failed;
    }
    if (!keep_going && eval_check_source(file, text, len)) return 1;
    return eval_source(file, text, len, keep_going, NULL);
}

/* TSR_DEFAULT_DEVICE=DEV: runs torch.set_default_device('DEV') before the
 * first statement (scripts/gpu-check runs the conformance cases on cuda so),
 * with DEV written as a string literal, so that a bad value fails exactly as
 * that call does. Returns the number of failures (0 or 1). */
static int set_default_device_env(const char *dev)
{
    static const char head[] = "torch.set_default_device('", tail[] = "')\n";
    size_t n = strlen(dev);
    char *code = malloc(sizeof head + 4 * n + sizeof tail);
    if (!code) { fputs("tsr: out of memory\n", stderr); return 1; }
    char *p = code + sizeof head - 1;
    memcpy(code, head, sizeof head - 1);
    for (const unsigned char *s = (const unsigned char *)dev; *s; s++) {
        if (*s < 0x20 || *s == 0x7f) p += sprintf(p, "\\x%02x", *s);
        else {
            if (*s == '\\' || *s == '\'') *p++ = '\\';
            *p++ = (char)*s;
        }
    }
    memcpy(p, tail, sizeof tail);
    int failed = eval_source("<TSR_DEFAULT_DEVICE>", code, strlen(code), false, NULL);
    free(code);
    return failed ? 1 : 0;
}

/* codes has room for argc entries: each -e CODE, in order. */
static int run_args(int argc, char **argv, const char **codes)
{
    bool keep_going = false, interactive_after = false, brief = false;
    const char *file = NULL, *max_memory = NULL;
    int ncode = 0;
    int i;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
        if (!strcmp(a, "-V") || !strcmp(a, "--version")) { printf("tsr %s\n", TSR_VERSION); return 0; }
        if (!strcmp(a, "-k") || !strcmp(a, "--keep-going")) { keep_going = true; continue; }
        if (!strcmp(a, "-i")) { interactive_after = true; continue; }
        if (!strcmp(a, "--brief-errors")) { brief = true; continue; }
        if (!strcmp(a, "--max-memory") || !strncmp(a, "--max-memory=", 13)) {
            if (!a[12] && i + 1 >= argc) { fprintf(stderr, "tsr: option --max-memory needs an argument\n%s", usage_line); return 2; }
            max_memory = a[12] ? a + 13 : argv[++i];
            continue;
        }
        if (!strcmp(a, "--list-functions")) {
            eval_init();
            bind_table_list(stdout);
            eval_fini();
            return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
        }
        if (!strcmp(a, "-e")) {
            if (i + 1 >= argc) { fprintf(stderr, "tsr: option -e needs an argument\n%s", usage_line); return 2; }
            codes[ncode++] = argv[++i];
            continue;
        }
        if (!strcmp(a, "--")) { i++; break; }
        if (a[0] == '-' && a[1]) { fprintf(stderr, "tsr: unknown option '%s'\n%s", a, usage_line); return 2; }
        break;
    }
    if (i < argc && !ncode) file = argv[i++];
    /* sys.argv: the script (or -e, -), then its arguments; options after the
     * script name that tsr knows belong to tsr (tsr demo.tsr --keep-going) */
    /* (the two argv copies are made before the interpreter exists, where no
     * MemoryError can be raised, and before fault injection is armed) */
    const char **sargv = calloc((size_t)argc + 2, sizeof *sargv);
    int sargc = 0;
    if (!sargv) return 2;
    sargv[sargc++] = ncode ? "-e" : file ? file : "";
    for (; i < argc; i++) {
        if (!strcmp(argv[i], "-k") || !strcmp(argv[i], "--keep-going")) keep_going = true;
        else if (!strcmp(argv[i], "--brief-errors")) brief = true;
        else sargv[sargc++] = argv[i];
    }

    /* the tensor memory budget: the option, else the variable, else the
     * runtime's default (half of physical memory) */
    if (!max_memory) max_memory = getenv("TSR_MAX_MEMORY");
    if (max_memory && *max_memory) {
        size_t lim;
        if (cmd_parse_size(max_memory, &lim) < 0) {
            fprintf(stderr, "tsr: invalid memory size '%s' (a number of bytes, or with K, M, G or T)\n", max_memory);
            free(sargv);
            return 2;
        }
        tsr_mem_set_limit(lim);
    }

    struct sigaction sa = {0};
    main_thread = pthread_self();
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);

    bool tty_in = isatty(0);
    eval_opts.brief_errors = brief;
    const char *term = getenv("TERM");
    eval_opts.color = isatty(2) && !getenv("NO_COLOR") && term && strcmp(term, "dumb") != 0;
    eval_opts.show_location = true;
    eval_init();
    bind_sys_set_argv(sargc, sargv);
    free(sargv);
    const char *default_device = getenv("TSR_DEFAULT_DEVICE");
    if (default_device && *default_device && set_default_device_env(default_device)) {
        eval_flush_output();
        eval_fini();
        return 1;
    }
    /* tests/fault/run: TSR_FAULT_AT=N fails the N-th allocation after startup
     * and after the script is read (that read is counted in a :load) */
    const char *fault = getenv("TSR_FAULT_AT");
    long fault_at = fault ? atol(fault) : 0;
#define ARM_FAULT() do { if (fault_at > 0) tsr_fault_sim(fault_at); } while (0)

    int failed = 0, status = 0;
    if (ncode) {
        ARM_FAULT();
        for (int k = 0; k < ncode && (keep_going || !failed) && !eval_saw_interrupt && !eval_exit_requested; k++)
            failed += eval_source("<string>", codes[k], strlen(codes[k]), keep_going, NULL);
    } else if (file && strcmp(file, "-") != 0) {
        FILE *f = fopen(file, "rb");
        struct stat st;
        if (f && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
            fclose(f);
            f = NULL;
            errno = EISDIR;
        }
        if (!f) {
            fprintf(stderr, "tsr: cannot open '%s': %s\n", file, strerror(errno));
            eval_fini();
            return 2;
        }
        size_t len;
        char msg[512];
        char *text = cmd_read_source(f, file, &len, msg, sizeof msg);
        fclose(f);
        if (!text) { fprintf(stderr, "%s\n", msg); eval_fini(); return 2; }
        ARM_FAULT();
        failed = run_file(file, text, len, keep_going);
        free(text);
    } else if (!tty_in || (file && !strcmp(file, "-"))) {
        size_t len;
        char msg[512];
        char *text = cmd_read_source(stdin, NULL, &len, msg, sizeof msg);
        if (!text) { fprintf(stderr, "%s\n", msg); eval_fini(); return 2; }
        ARM_FAULT();
        size_t dlen;
        char *doc = cmd_doctest(text, len, &dlen);
        if (doc) { free(text); text = doc; len = dlen; }
        cmd_run_text("<stdin>", text, len, true, &failed);
        if (eval_saw_interrupt) status = 130;
        free(text);
    } else {
        ARM_FAULT();
        status = repl_run();
        tsr_fault_sim(0);
        eval_fini();
        return status;
    }
    if (eval_exit_requested) status = eval_exit_status;
    else if (eval_saw_interrupt) status = interrupted_status();
    else status = failed ? 1 : 0;
    if (interactive_after && tty_in && status != 130 && !eval_exit_requested) {
        int s = repl_run();
        if (s) status = s;
    }
    eval_flush_output();
    if (fault_at > 0 && !tsr_fault_sim_fired())
        fprintf(stderr, "tsr: TSR_FAULT_AT: not reached (%ld allocations)\n", fault_at - tsr_fault_sim_left());
    tsr_fault_sim(0);
    eval_fini();
    return status;
}

static int run(int argc, char **argv)
{
    const char **codes = calloc((size_t)argc, sizeof *codes);
    if (!codes) { fputs("tsr: out of memory\n", stderr); return 1; }
    int status = run_args(argc, argv, codes);
    free(codes);
    return status;
}

int main(int argc, char **argv)
{
    return finish_output(run(argc, argv));
}
