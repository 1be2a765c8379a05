/*
** table_memory.c -- what emheap's tables take per live block, in the two
** shapes a heap has: many small blocks side by side (32 bytes each), and
** blocks a page apart, one per 4 KiB of heap (a pool allocator's 4 KiB
** chunks, tinyxml2's and Lua's). Prints "TABLES {...}": for each shape the
** blocks kept live and the growth of summary.tableBytes they caused.
** tests/e2e/table_memory.test.js holds docs/using.md to these numbers.
*/
#include <stdio.h>
#include <stdlib.h>

#include <emscripten.h>

#define SMALL 100000
#define POOL 4000

static void *small[SMALL], *pool[POOL];

static double table_bytes(void) {
  return EM_ASM_DOUBLE({ return JSON.parse(Module['emheap'].getSnapshotJson()).tableBytes; });
}

/* Two callers each (the loops below and main's warm-up), so that they stay
** frames of their own. */
__attribute__((noinline)) void *small_block(int i) { return malloc(32 + (i & 0)); }
__attribute__((noinline)) void *pool_chunk(int i) { return malloc(4096 - 8 + (i & 0)); }

int main(void) {
  free(small_block(0)); /* the site tables exist before the first count */
  free(pool_chunk(0));
  double before = table_bytes();
  for (int i = 0; i < SMALL; i++) small[i] = small_block(i);
  double after_small = table_bytes();
  for (int i = 0; i < POOL; i++) pool[i] = pool_chunk(i);
  double after_pool = table_bytes();
  printf("TABLES {\"small\":{\"blocks\":%d,\"bytes\":%.0f},\"pool\":{\"blocks\":%d,\"bytes\":%.0f}}\n", SMALL,
         after_small - before, POOL, after_pool - after_small);
  for (int i = 0; i < SMALL; i++) free(small[i]);
  for (int i = 0; i < POOL; i++) free(pool[i]);
  return 0;
}
