/* src/cmd/mem.c — :mem (live tensor memory, its peak and the budget that
 * --max-memory / TSR_MAX_MEMORY set) and the parser of those SIZE strings.
 * The counting itself is the runtime's (runtime/alloc.c). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cmd/cmd.h"
#include "eval.h"

int cmd_parse_size(const char *s, size_t *out)
{
    if (!s || !isdigit((unsigned char)*s)) return -1;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (errno || end == s) return -1;
    double mul = 1;
    switch (toupper((unsigned char)*end)) {
    case 'K': mul = 1024.0; end++; break;
    case 'M': mul = 1024.0 * 1024; end++; break;
    case 'G': mul = 1024.0 * 1024 * 1024; end++; break;
    case 'T': mul = 1024.0 * 1024 * 1024 * 1024; end++; break;
    default: break;
    }
    if (mul > 1 && (*end == 'i' || *end == 'I')) end++;
    if (*end == 'B' || *end == 'b') end++;
    if (*end) return -1;
    v *= mul;
    if (!(v >= 1) || v >= 18446744073709551615.0) return -1;
    *out = (size_t)v;
    return 0;
}

/* "1.50 GiB (1610612736 bytes)" */
static void show_size(const char *label, size_t n)
{
    static const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)n;
    int u = 0;
    while (v >= 1024 && u < 4) { v /= 1024; u++; }
    if (u == 0) printf("%-8s %zu bytes\n", label, n);
    else printf("%-8s %.2f %s (%zu bytes)\n", label, v, units[u], n);
}

int cmd_mem(const char *arg)
{
    if (*arg && strcmp(arg, "reset")) {
        fflush(stdout);
        fprintf(eval_opts.brief_errors ? stdout : stderr, "usage: :mem [reset]\n");
        return 1;
    }
    if (*arg) tsr_mem_reset_peak();
    tsr_mem_usage u = tsr_mem_usage_now();
    show_size("in use", u.current);
    show_size("peak", u.peak);
    show_size("limit", u.limit);
    return 0;
}
