/*
** fixed_heap.c -- Emscripten's defaults: a fixed 16 MB heap (no
** ALLOW_MEMORY_GROWTH) where any allocation that does not fit aborts the
** program (ABORTING_MALLOC). emheap must never be the reason: its tables
** stop growing while the app still needs the room, and it says what it
** could not record. Built in the default mode (exact), in sampled mode and
** with exact shadow stacks; run by tests/runtime.test.js.
**
** 1. 32,768 distinct call stacks (15 levels of two-way branching, two
**    functions of its own per level: no function calls itself, whose
**    frames emheap would fold), a 12-byte block freed at once at each (a
**    parser's temporary strings): in exact mode far more sites than a
**    small heap should spend on tables, so the site table fills.
** 2. 300,000 blocks of 16 bytes held at once: 8.4 MB without emheap, so
**    the block table fills; the 16-byte header of earlier versions made
**    this abort.
*/
#include <stdio.h>
#include <stdlib.h>

#include <emscripten.h>

#include "emheap.h"

static void *volatile sink;
static volatile int tag; /* keeps binaryen from merging functions whose bodies would be equal */

/* Two functions per level so that every path is its own stack: level L's
** branch_a_L and branch_b_L call level L + 1's through a table (so that
** binaryen inlines none of them). */
typedef void (*branch_fn)(unsigned bits);
static branch_fn branches[16][2];
static void descend(int level, unsigned bits) {
  if (level == 15) {
    sink = malloc(12);
    free(sink);
    return;
  }
  branches[level + 1][bits >> level & 1](bits);
}
#define LEVEL(L)                                                                                   \
  __attribute__((noinline)) static void branch_a_##L(unsigned bits) { descend(L, bits); tag = 2 * L; } \
  __attribute__((noinline)) static void branch_b_##L(unsigned bits) { descend(L, bits); tag = 2 * L + 1; }
LEVEL(1) LEVEL(2) LEVEL(3) LEVEL(4) LEVEL(5) LEVEL(6) LEVEL(7) LEVEL(8)
LEVEL(9) LEVEL(10) LEVEL(11) LEVEL(12) LEVEL(13) LEVEL(14) LEVEL(15)
#define SET(L) branches[L][0] = branch_a_##L, branches[L][1] = branch_b_##L
static void set_branches(void) {
  SET(1); SET(2); SET(3); SET(4); SET(5); SET(6); SET(7); SET(8);
  SET(9); SET(10); SET(11); SET(12); SET(13); SET(14); SET(15);
}

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
  print_counters("START");
  set_branches();
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
  print_counters("FREED");
  return 0;
}
