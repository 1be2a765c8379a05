/*
** memory_growth.c -- a program whose wasm memory grows, and what makes it
** grow is known: load_assets keeps 2 MiB at the start, then grow_cache
** keeps 3 MiB a call until the memory has grown past 16 MiB several times.
** Built with memory growth (-sALLOW_MEMORY_GROWTH) and both allocators;
** with -DGROW_ON_THREAD -pthread, grow_cache runs on a pthread (the growths
** happen on a worker); with -DTWO_CALL_SITES, grow_cache allocates from
** two call sites in turn (one function, two sites). Prints the snapshot at the end (SNAPSHOT {...}),
** and what the allocator's own mallinfo() says of its heap at the same
** moment (MALLINFO {...}), against which the test checks emheap's walk of
** that heap (capture/allocator_walk.js).
** Run by tests/e2e/memory_growth.test.js.
**
** Both are called in loops that cannot be unrolled: each is one site.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>
#include <emscripten.h>
#ifdef GROW_ON_THREAD
#include <pthread.h>
#endif

#define CACHE_STEPS 12

static void *volatile kept[2 + CACHE_STEPS];
static volatile int tag;                   /* sizes binaryen cannot fold */
static volatile int steps = CACHE_STEPS;   /* loops it cannot unroll: one call site each */
static volatile int assets = 2;

static void *load_assets(int i) {
  char *p = malloc((1 << 20) + (tag & 1));
  if (p) memset(p, i, 64);
  return p;
}

static void *grow_cache(int i) {
#ifdef TWO_CALL_SITES
  /* two call sites, one function: every other block from each */
  char *p = (i & 1) ? calloc(1, (3 << 20) + (tag & 1)) : malloc((3 << 20) + (tag & 1));
#else
  char *p = malloc((3 << 20) + (tag & 1));
#endif
  if (p) memset(p, i, 64);
  return p;
}

/* Called through pointers binaryen cannot see through: it inlines a
** function called from one place, noinline or not, and its frame would be
** gone. */
static void *(*volatile load)(int) = load_assets;
static void *(*volatile grow)(int) = grow_cache;

static void *fill_cache(void *arg) {
  (void)arg;
  for (int i = 0; i < steps; i++) kept[2 + i] = grow(i);
  return NULL;
}

int main(void) {
  for (int i = 0; i < assets; i++) kept[i] = load(i);
#ifdef GROW_ON_THREAD
  pthread_t thread;
  pthread_create(&thread, NULL, fill_cache, NULL);
  pthread_join(thread, NULL);
#else
  fill_cache(NULL);
#endif
  printf("memory now %lu bytes\n", (unsigned long)EM_ASM_INT({ return HEAP8.length; }));
  /* nothing allocates between the two */
  struct mallinfo info = mallinfo();
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  printf("MALLINFO {\"fordblks\": %d, \"ordblks\": %d, \"smblks\": %d, \"keepcost\": %d}\n", (int)info.fordblks,
         (int)info.ordblks, (int)info.smblks, (int)info.keepcost);
  return 0;
}
