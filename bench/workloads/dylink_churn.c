/*
** dylink_churn.c -- bench/side_module_cost.js's program: a -sMAIN_MODULE=2
** program running the allocation loop of churn.h in itself and in its side
** module (side_churn.c), in turns, and printing the median ns per
** allocator call of each (JSON). Built with emheap (exact mode, the
** default) and without.
*/
#include <stdio.h>
#include <stdlib.h>

#include <emscripten.h>

#include "churn.h"

unsigned side_churn(int rounds);
CHURN_FUNCTION(main_churn)

#define ROUNDS 200     /* per repetition: 102,400 allocator calls */
#define REPETITIONS 21 /* of each, in turns */

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, n, sizeof *v, by_value);
  return v[n / 2];
}

int main(void) {
  static double in_main[REPETITIONS], in_side[REPETITIONS];
  unsigned sum = main_churn(ROUNDS) + side_churn(ROUNDS); /* warm-up: each path seen once */
  double calls = 2.0 * CHURN_BLOCKS * ROUNDS;
  for (int k = 0; k < REPETITIONS; k++) {
    double t0 = emscripten_get_now();
    sum += main_churn(ROUNDS);
    double t1 = emscripten_get_now();
    sum += side_churn(ROUNDS);
    double t2 = emscripten_get_now();
    in_main[k] = (t1 - t0) * 1e6 / calls;
    in_side[k] = (t2 - t1) * 1e6 / calls;
  }
  printf("{\"mainNsPerCall\": %.1f, \"sideNsPerCall\": %.1f, \"sum\": %u}\n", median(in_main, REPETITIONS),
         median(in_side, REPETITIONS), sum);
  return 0;
}
