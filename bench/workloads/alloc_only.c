/*
** alloc_only.c -- the pure-allocation benchmark: a program that does
** nothing but allocate. Binary trees built recursively and freed (no walk
** of them), plus short strings of 16-79 bytes made and freed, and no other
** work: every op is one malloc or one free, so what a profiler adds to a
** call is most of what is measured (micro.c walks its trees and copies and
** grows its strings between the calls). Prints "ns_per_op" for the timed
** part.
**
** Usage: alloc_only [iterations]   (default 20)
*/
#include <stdio.h>
#include <stdlib.h>

#include <emscripten.h>

#include "repetitions.h"

static long ops;

#define TREE_ALLOC(size) (ops++, malloc(size))
#define TREE_FREE(p) (free(p), ops++)
#include "binary_trees.h"

#define STRINGS 1000
static char *strings[STRINGS];

/* STRINGS blocks of 16-79 bytes, all live at once, then freed. The sizes
** vary as a string table's do; nothing is written to them. */
static void short_strings(void) {
  for (int i = 0; i < STRINGS; i++) {
    strings[i] = malloc(16 + (size_t)(i * 37 % 64));
    ops++;
  }
  for (int i = 0; i < STRINGS; i++) {
    free(strings[i]);
    ops++;
  }
}

static long checksum;

static long one_repetition(void) {
  long before = ops;
  for (int round = 0; round < 4; round++) {
    node *t = make_tree(14);
    checksum += t->value;
    free_tree(t);
    short_strings();
  }
  return ops - before;
}

static void report(repetitions *reps) {
  repetitions_print_timing("alloc_only", reps);
  printf(",\"checksum\":%ld}\n", checksum);
}

int main(int argc, char **argv) {
  int iterations = argc > 1 ? atoi(argv[1]) : 20;
  /* Warm-up: grow the heap and intern the stacks before timing. */
  free_tree(make_tree(14));
  short_strings();
  run_repetitions(one_repetition, iterations, report);
  return 0;
}
