/* src/main.c — the command line: the REPL on a terminal, a script file,
 * standard input that is not a terminal, or -e CODE.
 * Exit status: 0 success, 1 a statement failed (or output could not be
 * written), 2 usage, 130 interrupted. */
#include <errno.h>
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
#include "bind/table.h"

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

static void on_sigint(int sig)
{
    (void)sig;
    eval_interrupted = 1;
    tsr_interrupted = 1;
    repl_sigint = 1;
    if (++sigint_count >= 3 && !repl_active) _exit(130); /* a kernel that does not poll */
}

/* Standard input: REPL semantics without prompts. ':' command lines run in
 * order with the statements around them. */
static int run_text_with_commands(const char *name, char *text, size_t len, bool keep_going, int *failed)
{
    size_t seg = 0, pos = 0;
    int line = 1, seg_line = 1;
    while (pos <= len) {
        bool at_end = pos == len;
        bool is_cmd = !at_end && cmd_is_command(text + pos);
        if (is_cmd || at_end) {
            if (pos > seg) {
                /* pad with newlines so line numbers stay those of the input */
                size_t pad = (size_t)(seg_line - 1);
                char *buf = value_xmalloc(pad + (pos - seg) + 1);
                memset(buf, '\n', pad);
                memcpy(buf + pad, text + seg, pos - seg);
                *failed += eval_source(name, buf, pad + (pos - seg), keep_going, NULL);
                free(buf);
                if (*failed && !keep_going) return 1;
            }
            if (at_end) break;
            char *nl = memchr(text + pos, '\n', len - pos);
            size_t end = nl ? (size_t)(nl - text) : len;
            char save = text[end];
            text[end] = 0;
            if (cmd_run(text + pos)) (*failed)++;
            text[end] = save;
            if (cmd_quit_requested) return 1;
            if (*failed && !keep_going) return 1;
            pos = nl ? end + 1 : len;
            line++;
            seg = pos;
            seg_line = line;
            continue;
        }
        char *nl = memchr(text + pos, '\n', len - pos);
        pos = nl ? (size_t)(nl - text) + 1 : len;
        line++;
    }
    return 0;
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

static int run(int argc, char **argv)
{
    bool keep_going = false, interactive_after = false, brief = false;
    const char *code = NULL, *file = NULL, *max_memory = NULL;
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
            code = argv[++i];
            continue;
        }
        if (!strcmp(a, "--")) { i++; break; }
        if (a[0] == '-' && a[1]) { fprintf(stderr, "tsr: unknown option '%s'\n%s", a, usage_line); return 2; }
        break;
    }
    if (i < argc && !code) file = argv[i++];
    /* options after the script name belong to tsr too (tsr demo.tsr --keep-going) */
    for (; i < argc; i++) {
        if (!strcmp(argv[i], "-k") || !strcmp(argv[i], "--keep-going")) keep_going = true;
        else if (!strcmp(argv[i], "--brief-errors")) brief = true;
    }

    /* the tensor memory budget: the option, else the variable, else the
     * runtime's default (half of physical memory) */
    if (!max_memory) max_memory = getenv("TSR_MAX_MEMORY");
    if (max_memory && *max_memory) {
        size_t lim;
        if (cmd_parse_size(max_memory, &lim) < 0) {
            fprintf(stderr, "tsr: invalid memory size '%s' (a number of bytes, or with K, M, G or T)\n", max_memory);
            return 2;
        }
        tsr_mem_set_limit(lim);
    }

    struct sigaction sa = {0};
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);

    bool tty_in = isatty(0);
    eval_opts.brief_errors = brief;
    const char *term = getenv("TERM");
    eval_opts.color = isatty(2) && !getenv("NO_COLOR") && term && strcmp(term, "dumb") != 0;
    eval_opts.show_location = true;
    eval_init();
    /* tests/fault/run: TSR_FAULT_AT=N fails the N-th allocation after startup */
    const char *fault = getenv("TSR_FAULT_AT");
    long fault_at = fault ? atol(fault) : 0;
    if (fault_at > 0) tsr_fault_sim(fault_at);

    int failed = 0, status = 0;
    if (code) {
        failed = eval_source("<string>", code, strlen(code), keep_going, NULL);
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
        failed = eval_source(file, text, len, keep_going, NULL);
        free(text);
    } else if (!tty_in || (file && !strcmp(file, "-"))) {
        size_t len;
        char msg[512];
        char *text = cmd_read_source(stdin, NULL, &len, msg, sizeof msg);
        if (!text) { fprintf(stderr, "%s\n", msg); eval_fini(); return 2; }
        run_text_with_commands("<stdin>", text, len, true, &failed);
        if (eval_saw_interrupt) status = 130;
        free(text);
    } else {
        status = repl_run();
        eval_fini();
        return status;
    }
    if (eval_saw_interrupt) status = interrupted_status();
    else status = failed ? 1 : 0;
    if (interactive_after && tty_in && status != 130) {
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

int main(int argc, char **argv)
{
    return finish_output(run(argc, argv));
}
