/*
** free_bins.c -- a heap with free chunks of many sizes between blocks in
** use: small ones (dlmalloc's small bins), large ones of one size (a ring
** behind one node of a tree bin) and of many sizes (nodes with children),
** and the designated victim. Prints the snapshot (SNAPSHOT {...}) and what
** the allocator's own mallinfo() says of its heap at the same moment
** (MALLINFO {...}), against which tests/e2e/allocator_heap.test.js checks
** emheap's reading of that heap (capture/allocator_walk.js): dlmalloc's
** through its free bins, emmalloc's region by region.
*/
#include <stdio.h>
#include <stdlib.h>
#include <malloc.h>
#include <emscripten.h>

#define BLOCKS 3000

static void *volatile data[BLOCKS];
static void *volatile spacers[BLOCKS];
static volatile int count = BLOCKS; /* loops binaryen cannot unroll */

/* Sizes: small (8-248), one large size repeated (a ring), many large. */
static size_t size_of(int i) {
  switch (i % 4) {
  case 0: return 8 + (size_t)(i % 31) * 8;
  case 1: return 1000;
  case 2: return 256 + (size_t)(i % 97) * 40;
  default: return 24;
  }
}

int main(void) {
  for (int i = 0; i < count; i++) {
    data[i] = malloc(size_of(i));
    spacers[i] = malloc(8); /* kept: the free chunks cannot merge */
  }
  for (int i = 0; i < count; i++) {
    if (i % 5 == 0) continue;
    free(data[i]);
    data[i] = NULL;
  }
  /* a split of a free chunk leaves its rest as the designated victim */
  void *volatile small = malloc(200);
  (void)small;
  struct mallinfo info = mallinfo();
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  printf("MALLINFO {\"fordblks\": %d, \"ordblks\": %d, \"smblks\": %d, \"keepcost\": %d, \"uordblks\": %d}\n",
         (int)info.fordblks, (int)info.ordblks, (int)info.smblks, (int)info.keepcost, (int)info.uordblks);
  return 0;
}
