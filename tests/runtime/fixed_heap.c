/*
** fixed_heap.c -- Emscripten's defaults: a fixed 16 MB heap (no
** ALLOW_MEMORY_GROWTH) where any allocation that does not fit aborts the
** program (ABORTING_MALLOC). emheap must never be the reason: its tables
** stop growing while the app still needs the room, and it says what it
** could not record. Built in the default mode (sampled) and with exact
** shadow stacks; run by tests/runtime.test.js.
**
** 1. 32,768 distinct call stacks (15 levels of two-way branching), 12
**    bytes each: in exact-shadow mode far more sites than a small heap
**    should spend on tables.
** 2. 300,000 blocks of 16 bytes held at once: 8.4 MB without emheap; the
**    16-byte header of earlier versions made this abort.
*/
#include <stdio.h>
#include <stdlib.h>

#include <emscripten.h>

#include "emheap.h"

static void *volatile sink;
static void **paths;
static int path_count;

/* Two functions per level so that every path is its own stack. */
__attribute__((noinline)) void branch_a(int level, unsigned bits);
__attribute__((noinline)) void branch_b(int level, unsigned bits);
static void descend(int level, unsigned bits) {
  if (level == 15) {
    paths[path_count++] = malloc(12);
    return;
  }
  if (bits >> level & 1) branch_a(level + 1, bits);
  else branch_b(level + 1, bits);
}
void branch_a(int level, unsigned bits) { descend(level, bits); sink = &level; }
void branch_b(int level, unsigned bits) { descend(level, bits); sink = &level; }

static void print_counters(const char *tag) {
  emheap_counters c;
  emheap_get_counters(&c);
  printf("%s {\"liveBlocks\":%u,\"liveBytes\":%llu,\"siteCount\":%u,\"lostSites\":%u,\"lostAllocs\":%llu,"
         "\"tableBytes\":%llu,\"heapSize\":%llu,\"failedAllocs\":%llu}\n",
         tag, c.live_blocks, (unsigned long long)c.live_bytes, c.site_count, c.lost_sites,
         (unsigned long long)c.lost_allocs, (unsigned long long)c.table_bytes, (unsigned long long)c.heap_size,
         (unsigned long long)c.failed_allocs);
  fflush(stdout);
}

int main(void) {
  paths = malloc(32768 * sizeof(void *));
  for (unsigned bits = 0; bits < 32768; bits++) descend(0, bits);
  print_counters("STACKS");
  enum { N = 300000 };
  void **blocks = malloc(N * sizeof(void *));
  for (int i = 0; i < N; i++) blocks[i] = malloc(16);
  print_counters("HELD");
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  /* the heap graph (exact modes): it says what it could not see */
  EM_ASM({
    try {
      var heap = Module['emheap'].snapshot({heap: true}).heap;
      console.log('HEAPSCAN ' + JSON.stringify({notScanned: heap.notScanned, blocks: heap.blocks.address.length}));
    } catch (e) {
      console.log('HEAPSCAN ' + JSON.stringify({error: String(e.message)}));
    }
  });
  for (int i = 0; i < N; i++) free(blocks[i]);
  for (int i = 0; i < path_count; i++) free(paths[i]);
  print_counters("FREED");
  return 0;
}
