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
*/
#ifndef BENCH_REPETITIONS_H
#define BENCH_REPETITIONS_H

#include <stdlib.h>

#include <emscripten.h>

#define REPETITIONS_MAX 4096

typedef struct {
  int count;
  double ns_per_op[REPETITIONS_MAX];
  double total_ms;
  long total_ops;
  double started;
  long ops_at_start;
} repetitions;

static void repetition_begin(repetitions *r, long ops_now) {
  r->started = emscripten_get_now();
  r->ops_at_start = ops_now;
}

static void repetition_end(repetitions *r, long ops_now) {
  double ms = emscripten_get_now() - r->started;
  long ops = ops_now - r->ops_at_start;
  r->total_ms += ms;
  r->total_ops += ops;
  if (r->count < REPETITIONS_MAX && ops > 0) r->ns_per_op[r->count++] = ms * 1e6 / (double)ops;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The median repetition's ns per op (sorts the samples). */
static double repetitions_median(repetitions *r) {
  if (!r->count) return 0;
  qsort(r->ns_per_op, (size_t)r->count, sizeof r->ns_per_op[0], compare_doubles);
  return r->count % 2 ? r->ns_per_op[r->count / 2]
                      : (r->ns_per_op[r->count / 2 - 1] + r->ns_per_op[r->count / 2]) / 2;
}

static double repetitions_mean(const repetitions *r) {
  return r->total_ops ? r->total_ms * 1e6 / (double)r->total_ops : 0;
}

#endif /* BENCH_REPETITIONS_H */
