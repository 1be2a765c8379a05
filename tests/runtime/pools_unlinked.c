/*
** pools_unlinked.c -- pool annotations in a program built without emheap
** (the emheap_pool.h and valgrind/ headers on the include path, emheap not
** linked): the calls are skipped and the program runs as it would without
** them. Prints RESULT {"sum": N, "exists": [a, b]}.
*/
#include <stdio.h>
#include <stdlib.h>

#include <valgrind/memcheck.h>

#include "emheap_pool.h"

static char arena[1024] __attribute__((aligned(8)));

int main(void) {
  VALGRIND_CREATE_MEMPOOL(arena, 0, 0);
  EMHEAP_POOL_CREATE(&arena[512], "second");
  long sum = 0;
  for (int i = 0; i < 16; i++) {
    int *p = (int *)(arena + 16 * i);
    VALGRIND_MEMPOOL_ALLOC(arena, p, sizeof *p);
    EMHEAP_POOL_ALLOC(&arena[512], arena + 512 + 16 * i, 8);
    *p = i;
    sum += *p;
  }
  VALGRIND_MEMPOOL_TRIM(arena, arena, 0);
  VALGRIND_MALLOCLIKE_BLOCK(arena + 900, 8, 0, 0);
  VALGRIND_FREELIKE_BLOCK(arena + 900, 0);
  int exists_a = VALGRIND_MEMPOOL_EXISTS(arena), exists_b = EMHEAP_POOL_EXISTS(&arena[512]);
  VALGRIND_DESTROY_MEMPOOL(arena);
  printf("RESULT {\"sum\": %ld, \"exists\": [%d, %d], \"running\": %d}\n", sum, exists_a, exists_b, RUNNING_ON_VALGRIND);
  return 0;
}
