/*
** churn.h -- one allocation loop, compiled into a side module and into
** the main module of bench/side_module_cost.js's program
** (side_churn.c, dylink_churn.c): the same code in both, so that the two
** differ only in which module calls malloc and free.
*/
#ifndef BENCH_CHURN_H
#define BENCH_CHURN_H

#include <stdlib.h>

#define CHURN_BLOCKS 256

/* Each round allocates CHURN_BLOCKS blocks of 16 to 1039 bytes, then frees
** them: 2 * CHURN_BLOCKS allocator calls. Returns a sum of the addresses,
** so that nothing is left out. */
#define CHURN_FUNCTION(name)                                                \
  __attribute__((noinline)) unsigned name(int rounds) {                     \
    static void *blocks[CHURN_BLOCKS];                                      \
    unsigned sum = 0;                                                       \
    for (int r = 0; r < rounds; r++) {                                      \
      for (int i = 0; i < CHURN_BLOCKS; i++) {                              \
        blocks[i] = malloc(16 + (unsigned)(i * 37 + r) % 1024);             \
        sum += (unsigned)(size_t)blocks[i];                                 \
      }                                                                     \
      for (int i = 0; i < CHURN_BLOCKS; i++) free(blocks[i]);               \
    }                                                                       \
    return sum;                                                             \
  }

#endif
