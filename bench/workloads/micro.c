/*
** micro.c -- the malloc-heavy micro benchmark: binary trees built and freed
** (the classic allocator stress), plus short strings duplicated, grown with
** realloc and freed. Prints "ns_per_op" for the timed part; one op = one
** malloc, calloc, realloc or free.
**
** Usage: micro [iterations]   (default 20)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <emscripten.h>

#include "repetitions.h"

static long ops;

#define TREE_ALLOC(size) (ops++, malloc(size))
#define TREE_FREE(p) (free(p), ops++)
#include "binary_trees.h"

static long strings(int count) {
  char **list = calloc((size_t)count, sizeof *list);
  long total = 0;
  ops++;
  for (int i = 0; i < count; i++) {
    char buf[32];
    int len = snprintf(buf, sizeof buf, "item-%d", i);
    list[i] = malloc((size_t)len + 1);
    memcpy(list[i], buf, (size_t)len + 1);
    ops++;
    if (i % 4 == 0) {
      list[i] = realloc(list[i], (size_t)len + 64);
      strcat(list[i], "-grown");
      ops++;
    }
    total += (long)strlen(list[i]);
  }
  for (int i = 0; i < count; i++) {
    free(list[i]);
    ops++;
  }
  free(list);
  ops++;
  return total;
}

static long checksum;

static long one_repetition(void) {
  long before = ops;
  node *keep = make_tree(16);
  for (int d = 4; d <= 14; d += 2) {
    node *t = make_tree(d);
    checksum += check_tree(t);
    free_tree(t);
  }
  checksum += check_tree(keep);
  free_tree(keep);
  checksum += strings(20000);
  return ops - before;
}

static void report(repetitions *reps) {
  repetitions_print_timing("micro", reps);
  printf(",\"checksum\":%ld}\n", checksum);
}

int main(int argc, char **argv) {
  int iterations = argc > 1 ? atoi(argv[1]) : 20;
  /* Warm-up: grow the heap and intern the stacks before timing. */
  free_tree(make_tree(14));
  checksum += strings(1000);
  run_repetitions(one_repetition, iterations, report);
  return 0;
}
