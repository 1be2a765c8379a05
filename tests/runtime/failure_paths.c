/*
** failure_paths.c -- every way an allocation can fail, with and without
** emheap: requests no memory could meet (sizes near 4 GiB, an overflowing
** calloc or reallocarray, impossible alignments), bad arguments, and a
** memory that is really full. Built without emheap (-DPLAIN) and with it
** (exact and sampled modes, both allocators, the -pthread runtime) by
** tests/tests.mk; tests/e2e/failure_paths.test.js checks that every RESULT
** line (what the call returned, errno) is the same in both, and that with
** emheap a failed realloc leaves its block as it was: counted, at its site.
**
** Linked on a fixed heap with ABORTING_MALLOC=0, so that a full memory
** returns NULL instead of aborting.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>

#ifndef PLAIN
#include <emscripten.h>
#include "emheap.h"
#endif

/* Newer libcs have it (musl's calls realloc); Emscripten 3.1.6's does not. */
#pragma weak reallocarray

/* More than a wasm32 memory of this program can ever hold. */
#define BEYOND_LIMIT ((size_t)3 << 30)

static void *volatile sink;

static void result(const char *what, const void *p) {
  printf("RESULT %s: %s errno=%d\n", what, p ? "memory" : "NULL", errno);
}

static void counters(const char *tag) {
#ifndef PLAIN
  emheap_counters c;
  emheap_get_counters(&c);
  printf("%s {\"liveBytes\":%llu,\"liveBlocks\":%u,\"failedAllocs\":%llu,\"reallocCalls\":%llu}\n", tag,
         (unsigned long long)c.live_bytes, (unsigned)c.live_blocks, (unsigned long long)c.failed_allocs,
         (unsigned long long)c.realloc_calls);
#else
  (void)tag;
#endif
}

/* A kept block's first 1000 bytes are `c`. Each keeper fills its block
** in a loop of its own and has two callers, so that binaryen keeps it as
** a frame. */
static void *filled(unsigned char *p, int c) {
  for (int k = 0; p && k < 1000; k++) p[k] = (unsigned char)c;
  return p;
}
__attribute__((noinline)) void *keep_malloc(size_t n, int c) { return filled(malloc(n), c); }
__attribute__((noinline)) void *keep_calloc(size_t n, int c) { return filled(calloc(1, n), c); }
__attribute__((noinline)) void *keep_memalign(size_t n, int c) { return filled(memalign(64, n), c); }

static void *kept[6];

static void keep_blocks(void) {
  kept[0] = keep_malloc(1000, 'a');
  kept[1] = keep_malloc(1001, 'b');
  kept[2] = keep_calloc(2000, 'c');
  kept[3] = keep_calloc(2001, 'd');
  kept[4] = keep_memalign(3000, 'e');
  kept[5] = keep_memalign(3001, 'f');
}

/* realloc of each kept block to a size no memory holds: NULL, the block
** intact. */
static void failed_reallocs(const char *how, size_t size) {
  char what[64];
  for (int i = 0; i < 6; i += 2) {
    errno = 0;
    void *p = realloc(kept[i], size);
    snprintf(what, sizeof what, "realloc(kept %d, %s)", i, how);
    result(what, p);
    unsigned char *b = kept[i];
    int intact = 1;
    for (int k = 0; k < 1000; k++) intact &= b[k] == 'a' + i;
    printf("RESULT kept %d intact: %d\n", i, intact);
  }
}

static void impossible_requests(void) {
  errno = 0;
  result("malloc(SIZE_MAX - 4)", sink = malloc(SIZE_MAX - 4));
  errno = 0;
  result("malloc(3 GiB)", sink = malloc(BEYOND_LIMIT));
  errno = 0;
  result("calloc(SIZE_MAX / 2, 4)", sink = calloc(SIZE_MAX / 2, 4));
  errno = 0;
  result("calloc(1, 3 GiB)", sink = calloc(1, BEYOND_LIMIT));
  errno = 0;
  result("memalign(64, 3 GiB)", sink = memalign(64, BEYOND_LIMIT));
  errno = 0;
  result("memalign(1 << 31, 16)", sink = memalign((size_t)1 << 31, 16));
  errno = 0;
  result("aligned_alloc(64, 3 GiB)", sink = aligned_alloc(64, BEYOND_LIMIT));
  errno = 0;
  result("aligned_alloc(3, 9)", sink = aligned_alloc(3, 9));
  errno = 0;
  result("aligned_alloc(16, 24)", sink = aligned_alloc(16, 24));
  void *p = NULL;
  errno = 0;
  int r = posix_memalign(&p, 64, BEYOND_LIMIT);
  printf("RESULT posix_memalign(64, 3 GiB): %d errno=%d\n", r, errno);
  errno = 0;
  r = posix_memalign(&p, 3, 16);
  printf("RESULT posix_memalign(3, 16): %d errno=%d\n", r, errno);
  if (reallocarray) {
    errno = 0;
    result("reallocarray(kept 0, SIZE_MAX / 2, 4)", reallocarray(kept[0], SIZE_MAX / 2, 4));
  }
  failed_reallocs("3 GiB", BEYOND_LIMIT);
  failed_reallocs("SIZE_MAX - 4", SIZE_MAX - 4);
}

/* Fills the memory with 1 MiB aligned blocks until one fails (a real out
** of memory: the request would fit under the limit; the first, so the
** report names it and its alignment), then asks realloc for more than is
** left. fill_block has two callers, so that it stays a frame. */
static void *fill[64];

__attribute__((noinline)) void *fill_block(void) { return memalign(4096, 1 << 20); }

static void full_memory(void) {
  int n = 0;
  while (n < 64 && (fill[n] = fill_block())) n++;
  printf("RESULT memory filled: %d\n", n < 64);
  errno = 0;
  result("fill_block() once more", sink = fill_block());
  counters("FULL");
  errno = 0;
  void *p = realloc(kept[0], 4 << 20);
  result("realloc(kept 0, 4 MiB) in a full memory", p);
  counters("FULL_REALLOC");
  for (int i = 0; i < n; i++) free(fill[i]);
}

int main(void) {
  counters("START");
  keep_blocks();
  counters("KEPT");
  impossible_requests();
  counters("AFTER_FAILURES");
#ifndef PLAIN
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
#endif
  full_memory();
  for (int i = 0; i < 6; i++) free(kept[i]);
  counters("END");
  return 0;
}
