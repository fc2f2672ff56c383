/* src/cmd/plot.c — :plot EXPR (a 1-D tensor as a line chart in Unicode
 * braille), :hist EXPR (a histogram of a tensor's values in block bars) and
 * :show EXPR (a 2-D tensor as a heatmap). Axis labels give the value range;
 * colour only on a terminal that has it and when NO_COLOR is unset. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bind/tensor.h"
#include "cmd/cmd.h"
#include "eval.h"

#define PLOT_W 60      /* characters of chart */
#define PLOT_H 12      /* rows of chart */
#define HIST_BINS 20
#define HIST_W 50
#define SHOW_MAX_ROWS 40
#define SHOW_MAX_COLS 60

static bool colour(void)
{
    const char *term = getenv("TERM");
    return isatty(1) && !getenv("NO_COLOR") && term && strcmp(term, "dumb") != 0;
}

/* Evaluates arg to a tensor whose values can be drawn: real, with data, of
 * ndim dimensions (any when ndim < 0). New reference, or NULL with the
 * error reported. */
static Value *drawable(const char *cmd, const char *arg, int ndim)
{
    if (!*arg) {
        fflush(stdout);
        fprintf(eval_opts.brief_errors ? stdout : stderr, "usage: :%s EXPR\n", cmd);
        return NULL;
    }
    Value *v = eval_expression("<input>", arg);
    if (!v) return NULL;
    if (!is_tensor(v)) {
        exc_set("TypeError", ":%s needs a tensor, not %s", cmd, type_name(v));
    } else {
        tsr_tensor *t = tensor_of(v);
        if (ndim >= 0 && t->ndim != ndim)
            exc_set("ValueError", ":%s needs a %d-D tensor, not %d-D", cmd, ndim, t->ndim);
        else if (tsr_dtype_is_complex(t->dtype))
            exc_set("TypeError", ":%s needs real values, not %s", cmd, tsr_dtype_name(t->dtype));
        else if (tsr_tensor_is_meta(t))
            exc_set("ValueError", ":%s needs values; a meta tensor has none", cmd);
        else if (tsr_tensor_numel(t) == 0)
            exc_set("ValueError", ":%s needs at least one element", cmd);
        else
            return v;
    }
    decref(v);
    eval_report_error();
    return NULL;
}

/* The finite range of t's values; false when none is finite. */
static bool value_range(tsr_tensor *t, double *lo, double *hi)
{
    int64_t n = tsr_tensor_numel(t);
    bool any = false;
    for (int64_t i = 0; i < n; i++) {
        double x = tsr_tensor_get_double_at(t, i);
        if (!isfinite(x)) continue;
        if (!any || x < *lo) *lo = x;
        if (!any || x > *hi) *hi = x;
        any = true;
    }
    return any;
}

static void put_utf8(unsigned cp)
{
    char b[4];
    b[0] = (char)(0xe0 | (cp >> 12));
    b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    b[2] = (char)(0x80 | (cp & 0x3f));
    fwrite(b, 1, 3, stdout);
}

/* ------------------------------------------------------------ :plot */

/* Braille dot bits by (x % 2, y % 4), y counted from the top of a cell. */
static const unsigned char dot[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};

int cmd_plot(const char *arg)
{
    Value *v = drawable("plot", arg, 1);
    if (!v) return 1;
    tsr_tensor *t = tensor_of(v);
    int64_t n = t->sizes[0];
    double lo = 0, hi = 0;
    if (!value_range(t, &lo, &hi)) lo = 0, hi = 1;
    double span = hi - lo;
    int px = n == 1 ? 1 : 2 * PLOT_W, w = (px + 1) / 2, py = 4 * PLOT_H;
    unsigned char cells[PLOT_H][PLOT_W];
    memset(cells, 0, sizeof cells);
    int prev = -1;
    for (int x = 0; x < px; x++) {
        /* pixel column x: with fewer samples than columns, the line between
         * the two samples around it; with more, the lowest and highest value
         * of the samples that fall in it */
        double vmin = INFINITY, vmax = -INFINITY;
        if (n <= px) {
            double p = px > 1 ? (double)x * (double)(n - 1) / (px - 1) : 0;
            int64_t i = (int64_t)p;
            double f = p - (double)i, a = tsr_tensor_get_double_at(t, i);
            double val = i + 1 < n && f > 0 ? a + (tsr_tensor_get_double_at(t, i + 1) - a) * f : a;
            if (isfinite(val)) vmin = vmax = val;
        } else {
            int64_t a = x * n / px, b = (x + 1) * n / px;
            for (int64_t i = a; i < b; i++) {
                double val = tsr_tensor_get_double_at(t, i);
                if (!isfinite(val)) continue;
                if (val < vmin) vmin = val;
                if (val > vmax) vmax = val;
            }
        }
        if (vmin > vmax) { prev = -1; continue; }
        int y0 = span > 0 ? (int)lround((vmin - lo) / span * (py - 1)) : py / 2;
        int y1 = span > 0 ? (int)lround((vmax - lo) / span * (py - 1)) : py / 2;
        /* join to the previous column so the line has no gaps */
        if (prev >= 0 && prev < y0 - 1) y0 = prev + 1;
        if (prev >= 0 && prev > y1 + 1) y1 = prev - 1;
        for (int y = y0; y <= y1; y++) {
            int r = py - 1 - y;    /* from the top */
            cells[r / 4][x / 2] |= dot[x % 2][r % 4];
        }
        prev = span > 0 ? (int)lround(((vmin + vmax) / 2 - lo) / span * (py - 1)) : py / 2;
    }
    char top[32], bot[32];
    snprintf(top, sizeof top, "%.4g", hi);
    snprintf(bot, sizeof bot, "%.4g", lo);
    int lw = (int)(strlen(top) > strlen(bot) ? strlen(top) : strlen(bot));
    bool c = colour();
    for (int r = 0; r < PLOT_H; r++) {
        printf("%*s ", lw, r == 0 ? top : r == PLOT_H - 1 ? bot : "");
        put_utf8(r == 0 || r == PLOT_H - 1 ? 0x2524 : 0x2502);    /* ┤ at a label, │ between */
        if (c) fputs("\033[36m", stdout);
        for (int x = 0; x < w; x++) put_utf8(0x2800 + cells[r][x]);
        if (c) fputs("\033[0m", stdout);
        putchar('\n');
    }
    printf("%*s ", lw, "");
    put_utf8(0x2514);    /* └ */
    for (int x = 0; x < w; x++) put_utf8(0x2500);
    char last[32];
    snprintf(last, sizeof last, "%lld", (long long)(n - 1));
    printf("\n%*s  0%*s\n", lw, "", w - 1 > (int)strlen(last) ? w - 1 : (int)strlen(last) + 1, last);
    decref(v);
    return 0;
}

/* ------------------------------------------------------------ :hist */

int cmd_hist(const char *arg)
{
    Value *v = drawable("hist", arg, -1);
    if (!v) return 1;
    tsr_tensor *t = tensor_of(v);
    int64_t n = tsr_tensor_numel(t), count[HIST_BINS] = {0}, most = 0, skipped = 0;
    double lo = 0, hi = 0;
    if (!value_range(t, &lo, &hi)) lo = 0, hi = 1;
    int bins = HIST_BINS;
    if (hi == lo) bins = 1;
    double width = bins > 1 ? (hi - lo) / bins : 1;
    for (int64_t i = 0; i < n; i++) {
        double x = tsr_tensor_get_double_at(t, i);
        if (!isfinite(x)) { skipped++; continue; }
        int b = bins > 1 ? (int)((x - lo) / width) : 0;
        if (b >= bins) b = bins - 1;    /* the highest value goes in the last bin */
        if (b < 0) b = 0;
        if (++count[b] > most) most = count[b];
    }
    bool c = colour();
    for (int b = 0; b < bins; b++) {
        double a = lo + b * width, e = b == bins - 1 ? hi : lo + (b + 1) * width;
        printf("%11.4g %-11.4g ", a, e);
        put_utf8(0x2502);
        int eighths = most ? (int)(count[b] * HIST_W * 8 / most) : 0;
        if (c) fputs("\033[36m", stdout);
        for (int k = 0; k < eighths / 8; k++) put_utf8(0x2588);
        if (eighths % 8) put_utf8(0x2590 - eighths % 8);    /* ▏..▉ */
        if (c) fputs("\033[0m", stdout);
        printf("%*s %lld\n", HIST_W - eighths / 8 - (eighths % 8 ? 1 : 0), "", (long long)count[b]);
    }
    printf("%lld values in [%.4g, %.4g]", (long long)(n - skipped), lo, hi);
    if (skipped) printf(", %lld not finite (left out)", (long long)skipped);
    putchar('\n');
    decref(v);
    return 0;
}

/* ------------------------------------------------------------ :show */

static const char ramp[] = " .:-=+*#%@";

int cmd_show(const char *arg)
{
    Value *v = drawable("show", arg, 2);
    if (!v) return 1;
    tsr_tensor *t = tensor_of(v);
    int64_t rows = t->sizes[0], cols = t->sizes[1];
    double lo = 0, hi = 0;
    if (!value_range(t, &lo, &hi)) lo = 0, hi = 1;
    double span = hi > lo ? hi - lo : 1;
    int64_t sr = rows < SHOW_MAX_ROWS ? rows : SHOW_MAX_ROWS;
    int64_t sc = cols < SHOW_MAX_COLS ? cols : SHOW_MAX_COLS;
    bool c = colour();
    int levels = (int)strlen(ramp);
    for (int64_t r = 0; r < sr; r++) {
        int64_t i = r * rows / sr;
        for (int64_t k = 0; k < sc; k++) {
            int64_t j = k * cols / sc;
            double x = tsr_tensor_get_double_at(t, i * cols + j);
            if (!isfinite(x)) { fputs(c ? "\033[0m??" : "??", stdout); continue; }
            double f = (x - lo) / span;
            if (c) {
                /* the 24 steps of the 256-colour grey ramp */
                printf("\033[48;5;%dm  ", 232 + (int)lround(f * 23));
            } else {
                char ch = ramp[(int)lround(f * (levels - 1))];
                putchar(ch);
                putchar(ch);
            }
        }
        if (c) fputs("\033[0m", stdout);
        putchar('\n');
    }
    printf("%lld x %lld", (long long)rows, (long long)cols);
    if (sr < rows || sc < cols) printf(" (shown %lld x %lld, sampled)", (long long)sr, (long long)sc);
    printf(", values from %.4g (%s) to %.4g (%s)\n", lo, c ? "dark" : "' '", hi, c ? "light" : "'@'");
    decref(v);
    return 0;
}
