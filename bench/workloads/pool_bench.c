/*
** pool_bench.c -- micro's binary trees, their nodes from a pool of the
** program's own (a slab of 32-byte slots in 64 KiB chunks from malloc),
** told to emheap through emheap_pool.h: what recording a pool object
** costs. Prints "ns_per_op" for the timed part; one op = one object handed
** out or taken back by the pool.
**
** Built without emheap (baseline, forwarding only) the macros call
** nothing (emheap_pool.h: weak functions that no one defines), so the
** ratio exact / forwarding only is the cost of the records alone.
**
** Usage: pool_bench [iterations]   (default 20)
*/
#include <stdio.h>
#include <stdlib.h>

#include <emscripten.h>

#include "emheap_pool.h"
#include "repetitions.h"

#define SLOT 32
#define CHUNK (64 * 1024)

typedef struct slab {
  void *free_list;
} slab;

static slab nodes;
static long ops;

static __attribute__((noinline)) void slab_grow(slab *s) {
  char *c = malloc(CHUNK);
  if (!c) abort();
  for (int i = CHUNK / SLOT - 1; i >= 0; i--) {
    void **slot = (void **)(c + i * SLOT);
    *slot = s->free_list;
    s->free_list = slot;
  }
}

static __attribute__((noinline)) void *slab_alloc(slab *s, size_t n) {
  if (!s->free_list) slab_grow(s);
  void **slot = s->free_list;
  s->free_list = *slot;
  EMHEAP_POOL_ALLOC(s, slot, n);
  ops++;
  return slot;
}

static __attribute__((noinline)) void slab_free(slab *s, void *p) {
  EMHEAP_POOL_FREE(s, p);
  *(void **)p = s->free_list;
  s->free_list = p;
  ops++;
}

#define TREE_ALLOC(size) slab_alloc(&nodes, size)
#define TREE_FREE(p) slab_free(&nodes, p)
#include "binary_trees.h"

static long checksum;

/* Eight of micro's rounds of trees: a pool op costs a third of a malloc,
** and a repetition as short as micro's (2 ms) read +-25% between runs. */
static long one_repetition(void) {
  long before = ops;
  for (int round = 0; round < 8; round++) {
    node *keep = make_tree(16);
    for (int d = 4; d <= 14; d += 2) {
      node *t = make_tree(d);
      checksum += check_tree(t);
      free_tree(t);
    }
    checksum += check_tree(keep);
    free_tree(keep);
  }
  return ops - before;
}

static void report(repetitions *reps) {
  repetitions_print_timing("pool", reps);
  printf(",\"checksum\":%ld}\n", checksum);
}

int main(int argc, char **argv) {
  int iterations = argc > 1 ? atoi(argv[1]) : 20;
  EMHEAP_POOL_CREATE(&nodes, "nodes");
  /* Warm-up: the pool's chunks and the stacks before timing. */
  free_tree(make_tree(16));
  run_repetitions(one_repetition, iterations, report);
  return 0;
}
