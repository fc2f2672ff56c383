/* bench/stream.c — a STREAM-like probe of the machine's memory bandwidth:
 * the "add" kernel c[i] = a[i] + b[i] on float32 arrays far larger than the
 * caches, over the requested number of threads. Prints the best GB/s,
 * counting 12 bytes per element (two reads, one write), as bench/run does
 * for tensor adds. Usage: stream [threads [elements]] (default 1e7 elements,
 * the workloads' size: the same arrays see the same caches). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : omp_get_max_threads();
    omp_set_num_threads(threads);
    const long n = argc > 2 ? atol(argv[2]) : 10000000L;
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    if (!a || !b || !c) return 1;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) { a[i] = 1.0f; b[i] = 2.0f; c[i] = 0.0f; }
    double best = 1e9;
    for (int r = 0; r < 10; r++) {
        double t0 = now();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) c[i] = a[i] + b[i];
        double t = now() - t0;
        if (t < best) best = t;
    }
    printf("%.3f\n", 12.0 * (double)n / best / 1e9);
    return c[n / 2] != 3.0f;
}
