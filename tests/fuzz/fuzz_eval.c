/* tests/fuzz/fuzz_eval.c — libFuzzer target: lex, parse and evaluate one
 * program in a fresh interpreter state. Guarded against itself: live tensor
 * memory is capped at 64 MiB, a program gets one second before a
 * KeyboardInterrupt ends it, output goes to /dev/null and the process works
 * in a fresh temporary directory (nothing in the language writes files). */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "alloc.h"
#include "error.h"
#include "eval.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void on_alarm(int sig)
{
    (void)sig;
    eval_interrupted = 1;
    tsr_interrupted = 1;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    char dir[] = "/tmp/tsr-fuzz-XXXXXX";
    /* an empty directory, removed at once: nothing can be created in it */
    if (mkdtemp(dir) && chdir(dir) == 0) rmdir(dir);
    if (!freopen("/dev/null", "w", stdout)) return 0;
    tsr_mem_set_limit((size_t)64 << 20);
    struct sigaction sa = {0};
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    eval_opts.brief_errors = true;   /* errors to stdout, that is nowhere */
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) return 0;   /* long inputs only repeat short ones, slowly */
    eval_init();
    struct itimerval one = {{0, 0}, {1, 0}}, off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &one, NULL);
    eval_source("<fuzz>", (const char *)data, size, true, NULL);
    setitimer(ITIMER_REAL, &off, NULL);
    eval_interrupted = 0;
    tsr_interrupted = 0;
    eval_fini();
    return 0;
}
