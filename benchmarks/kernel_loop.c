/*
 * kernel_loop.c -- the C event loop alone, for benchmarks/bench_batch.py: runs
 * kernel_run_shot over shots read from a file, with no Python at all, so that the batch
 * entry's glue can be set against the loop it wraps. Built by bench_batch.py with the
 * extension's own flags against src/onered/physics/kernel.c and cushion.c.
 *
 * Input (native doubles and ints): int n_phys, n_geo, n_shots, n_balls, model, reps;
 * n_phys doubles (Params fields in _engine.c's PHYS_NAMES order); n_geo doubles (the
 * geometry layout of kernel.h); per shot n_balls * 2 positions, the cue ball's index and
 * the launch's 6 numbers. Output: one JSON line with the CPU microseconds a shot (the best
 * of reps passes), events a shot and a checksum of the durations.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "kernel.h"

static double cpu_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: kernel_loop FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    int h[6];
    if (!f || fread(h, sizeof(int), 6, f) != 6) return 2;
    const int np = h[0], ng = h[1], ns = h[2], n = h[3], model = h[4], reps = h[5];
    const int per = 2 * n + 1 + LAUNCH_SIZE;
    double *ph = malloc((size_t)np * sizeof(double)), *g = malloc((size_t)ng * sizeof(double));
    double *sh = malloc((size_t)ns * (size_t)per * sizeof(double));
    if (!ph || !g || !sh || fread(ph, sizeof(double), (size_t)np, f) != (size_t)np ||
        fread(g, sizeof(double), (size_t)ng, f) != (size_t)ng ||
        fread(sh, sizeof(double), (size_t)ns * (size_t)per, f) != (size_t)ns * (size_t)per)
        return 2;
    fclose(f);
    static Table tb;
    if (kernel_set_phys(&tb.ph, ph, model, 10000) || kernel_set_geometry(&tb, g, ng)) return 2;
    Ball *b = calloc((size_t)n, sizeof(Ball));
    Cand *st = calloc((size_t)n, sizeof(Cand));
    double *bl = calloc((size_t)n, sizeof(double)), *pair = calloc((size_t)(n * n), sizeof(double));
    int *pk = calloc((size_t)(n * n), sizeof(int));
    unsigned char *ov = calloc((size_t)(n * n), 1);
    Buf ev = {NULL, 0, 0};
    Sim S = {&tb, n, b, st, bl, pair, pk, ov, &ev, NULL, 0};
    double best = 1e300, sum = 0;
    long events = 0;
    for (int r = 0; r < reps; r++) {
        double t0 = cpu_now();
        sum = 0;
        events = 0;
        for (int k = 0; k < ns; k++) {
            const double *s = sh + (size_t)per * (size_t)k;
            double d = 0;
            ev.n = 0;
            if (kernel_run_shot(&S, s, (int)s[2 * n], s + 2 * n + 1, &d) != 0) return 3;
            sum += d;
            events += (long)(ev.n / 7);
        }
        double t = cpu_now() - t0;
        if (t < best) best = t;
    }
    printf("{\"us_per_shot\": %.6f, \"events_per_shot\": %.6f, \"checksum\": %.17g}\n",
           best * 1e6 / ns, (double)events / ns, sum);
    return 0;
}
