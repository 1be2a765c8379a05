/*
** repetitions.h -- per-repetition timing for the single-threaded workloads.
**
** A workload's timed part is a number of identical repetitions (a round of
** SQLite, an iteration of micro or of the Lua script). Each is timed on its
** own and the workload reports the MEDIAN of the repetitions' ns per op
** (and the overall mean beside it). Why: on this 2-core machine a run's
** total time carries the odd GC pause, page fault burst or neighbour
** process; a median over 10-40 repetitions inside one process drops those,
** and bench/run-bench.js then takes the median over interleaved processes.
** Measured on SQLite (node, 5 processes each): the spread of the total went
** from +-8% to +-2% (bench/README.md).
**
** Two ways to run them. Standalone (node file.js N, or bench/page.html),
** main runs N repetitions and prints the result line. Driven
** (Module.benchDriven, set by bench/paired/): main returns after the
** warm-up, and the bench's paired driver calls bench_repetition() of
** several builds of the workload in turn (one repetition each, ~50 ms),
** then bench_report(). Why: this VM's speed drifts by 10-30% over seconds,
** so builds timed in separate processes differ by more than the 5% the
** bench must read; repetitions of two builds 20-60 ms apart share the
** drift (bench/README.md, "Paired runs").
*/
#ifndef BENCH_REPETITIONS_H
#define BENCH_REPETITIONS_H

#include <stdio.h>
#include <stdlib.h>

#include <emscripten.h>

#define REPETITIONS_MAX 4096

typedef struct {
  int count;
  double ns_per_op[REPETITIONS_MAX];
  double total_ms;
  long total_ops;
} repetitions;

/* One repetition of the workload's timed part: returns the ops it did. */
typedef long (*repetition_fn)(void);
/* Prints the workload's result line from its repetitions. */
typedef void (*report_fn)(repetitions *);

static repetitions the_repetitions;
static repetition_fn the_repetition;
static report_fn the_report;

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Runs one repetition, keeps its ns per op and returns it (0 when it did
** no op). Exported: the paired driver calls it. */
EMSCRIPTEN_KEEPALIVE double bench_repetition(void) {
  repetitions *r = &the_repetitions;
  double started = emscripten_get_now();
  long ops = the_repetition();
  double ms = emscripten_get_now() - started;
  r->total_ms += ms;
  r->total_ops += ops;
  if (ops <= 0) return 0;
  double ns = ms * 1e6 / (double)ops;
  if (r->count < REPETITIONS_MAX) r->ns_per_op[r->count++] = ns;
  return ns;
}

/* Prints the result line. Exported: the paired driver calls it last. */
EMSCRIPTEN_KEEPALIVE void bench_report(void) { the_report(&the_repetitions); }

/* Call from main after the warm-up. Standalone: runs `count` repetitions
** and prints the result line. Driven: returns at once (the runtime stays
** alive: no EXIT_RUNTIME in these builds). */
static void run_repetitions(repetition_fn fn, int count, report_fn report) {
  the_repetition = fn;
  the_report = report;
  if (EM_ASM_INT({ return Module['benchDriven'] ? 1 : 0; })) return;
  for (int i = 0; i < count; i++) bench_repetition();
  bench_report();
}

/* The median repetition's ns per op (sorts a copy of the samples). */
static double repetitions_median(const repetitions *r) {
  static double sorted[REPETITIONS_MAX];
  if (!r->count) return 0;
  for (int i = 0; i < r->count; i++) sorted[i] = r->ns_per_op[i];
  qsort(sorted, (size_t)r->count, sizeof sorted[0], compare_doubles);
  return r->count % 2 ? sorted[r->count / 2] : (sorted[r->count / 2 - 1] + sorted[r->count / 2]) / 2;
}

static double repetitions_mean(const repetitions *r) {
  return r->total_ops ? r->total_ms * 1e6 / (double)r->total_ops : 0;
}

/* The start of a workload's result line, its name and timing: the
** workload's report adds its own fields and ends the line with "}\n". */
static void repetitions_print_timing(const char *workload, const repetitions *r) {
  printf("{\"workload\":\"%s\",\"ops\":%ld,\"ms\":%.3f,\"ns_per_op\":%.3f,\"ns_per_op_mean\":%.3f", workload,
         r->total_ops, r->total_ms, repetitions_median(r), repetitions_mean(r));
}

#endif /* BENCH_REPETITIONS_H */
