/* tests/unit/main.c — runs every registered unit test; prints failures and
 * ends with "N passed, N failed". Optional argument: a substring of the
 * test names to run. */
#include <stdio.h>
#include <stdlib.h>
#include "unit.h"

typedef struct { const char *name, *file; unit_fn fn; int seq; } Test;
static Test *tests;
static int ntests, cap, cur_failed;

void unit_register(const char *name, const char *file, unit_fn fn)
{
    if (ntests == cap) {
        cap = cap ? cap * 2 : 64;
        tests = realloc(tests, cap * sizeof *tests);
        if (!tests) abort();
    }
    tests[ntests] = (Test){name, file, fn, ntests};
    ntests++;
}

int unit_check(int ok, const char *expr, const char *file, int line)
{
    if (!ok) {
        if (cur_failed < 10)
            printf("  %s:%d: check failed: %s\n", file, line, expr);
        cur_failed++;
    }
    return ok;
}

int unit_check_int(long long a, long long b, const char *ea, const char *eb, const char *file, int line)
{
    if (a != b && cur_failed < 10)
        printf("  %s:%d: %s == %s: %lld != %lld\n", file, line, ea, eb, a, b);
    if (a != b) cur_failed++;
    return a == b;
}

int unit_check_str(const char *a, const char *b, const char *ea, const char *eb, const char *file, int line)
{
    int ok = a && b && strcmp(a, b) == 0;
    if (!ok && cur_failed < 10)
        printf("  %s:%d: %s == %s:\n    got:      \"%s\"\n    expected: \"%s\"\n", file, line, ea, eb,
               a ? a : "(null)", b ? b : "(null)");
    if (!ok) cur_failed++;
    return ok;
}

static int by_file(const void *x, const void *y)
{
    const Test *a = x, *b = y;
    int c = strcmp(a->file, b->file);
    return c ? c : a->seq - b->seq;
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    qsort(tests, ntests, sizeof *tests, by_file);
    for (int i = 0; i < ntests; i++) {
        if (argc > 1 && !strstr(tests[i].name, argv[1])) continue;
        cur_failed = 0;
        tests[i].fn();
        if (cur_failed) {
            printf("FAIL %s (%s)\n", tests[i].name, tests[i].file);
            failed++;
        } else {
            passed++;
        }
    }
    free(tests);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
