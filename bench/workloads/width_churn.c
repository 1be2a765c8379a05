/*
** width_churn.c -- bench/wasm64_cost.js's program: the allocation loop of
** churn.h, timed in repetitions, the median ns per allocator call printed
** as JSON. Built for wasm32 and for wasm64 (-m64), each without emheap,
** with emheap forwarding only (mode off) and in exact mode.
*/
#include <stdio.h>
#include <stdlib.h>

#include <emscripten.h>

#include "churn.h"

CHURN_FUNCTION(churn)

#define ROUNDS 200     /* per repetition: 102,400 allocator calls */
#define REPETITIONS 21

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(void) {
  static double ns[REPETITIONS];
  unsigned sum = churn(ROUNDS); /* warm-up */
  double calls = 2.0 * CHURN_BLOCKS * ROUNDS;
  for (int k = 0; k < REPETITIONS; k++) {
    double t0 = emscripten_get_now();
    sum += churn(ROUNDS);
    ns[k] = (emscripten_get_now() - t0) * 1e6 / calls;
  }
  qsort(ns, REPETITIONS, sizeof *ns, by_value);
  printf("{\"nsPerCall\": %.1f, \"sum\": %u}\n", ns[REPETITIONS / 2], sum);
  return 0;
}
