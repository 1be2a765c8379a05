/*
** wasm64_heap.c -- a wasm64 (-m64) program that keeps more than 4 GiB live:
** BIG_COUNT blocks of BIG bytes from big_block (most of them above 4 GiB),
** SMALL_COUNT small blocks from small_block, a few of each freed; with
** -DON_THREAD (-pthread) half the big blocks come from a thread. It prints
** its plan (PLAN) and emheap's snapshot of it (SNAPSHOT: sites and
** summary; the whole of it in wasm64.emheap.json under node), which
** tests/e2e/wasm64.test.js compares; in a page it then titles the page
** "planted". The blocks are never written: the memory they take stays
** virtual.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <emscripten.h>
#ifdef ON_THREAD
#include <pthread.h>
#endif

/* Each big block takes one of the block table's huge slots (128 MiB or
** more: runtime/block_table.c), more of them than wasm32 has. */
#define BIG ((size_t)130 << 20)
#define BIG_COUNT 36
#define BIG_FREED 2
#define SMALL_COUNT 3000
#define SMALL_FREED 1000

static void *big[BIG_COUNT];
static void *small[SMALL_COUNT];

/* Two callers each, so that binaryen keeps them functions of their own. */
__attribute__((noinline)) void *big_block(int i) { return big[i] = malloc(BIG); }
__attribute__((noinline)) void *small_block(int i) { return small[i] = malloc(24 + (i % 3) * 8); }

#ifdef GIANT
/* Built with -DGIANT: one block of 4.5 GiB, whose size does not fit
** emheap's records (32 bits). The program runs on as it would (its bytes
** survive a realloc); emheap makes no snapshot, saying why (REFUSED). */
#define GIANT_BYTES ((size_t)9 << 29)
static int giant(void) {
  char *g = malloc(GIANT_BYTES);
  if (!g) return 2;
  g[GIANT_BYTES - 1] = 42;
  g = realloc(g, GIANT_BYTES + 4096);
  printf("GIANT {\"kept\": %s}\n", g && g[GIANT_BYTES - 1] == 42 ? "true" : "false");
  EM_ASM({
    try {
      Module['emheap'].snapshot();
      console.log('REFUSED {"refused": false}');
    } catch (e) {
      console.log('REFUSED ' + JSON.stringify({refused: true, message: String(e.message)}));
    }
  });
  free(g);
  return 0;
}
#endif

/* The second half of the big blocks (on a thread of its own when built
** with -DON_THREAD and -pthread). */
static void *second_half(void *unused) {
  (void)unused;
  for (int i = BIG_COUNT / 2; i < BIG_COUNT; i++)
    if (!big_block(i)) return (void *)1;
  return NULL;
}

int main(void) {
#ifdef GIANT
  return giant();
#endif
  for (int i = 0; i < BIG_COUNT / 2; i++)
    if (!big_block(i)) return 1;
#ifdef ON_THREAD
  pthread_t thread;
  void *failed = NULL;
  if (pthread_create(&thread, NULL, second_half, NULL) || pthread_join(thread, &failed) || failed) return 1;
#else
  if (second_half(NULL)) return 1;
#endif
  for (int i = 0; i < SMALL_COUNT; i += 2) small_block(i);
  for (int i = 1; i < SMALL_COUNT; i += 2) small_block(i);
  /* frees above 4 GiB (the last big blocks) and below */
  for (int i = BIG_COUNT - BIG_FREED; i < BIG_COUNT; i++) free(big[i]);
  for (int i = 0; i < SMALL_FREED; i++) free(small[i]);
  uintptr_t top = 0;
  for (int i = 0; i < BIG_COUNT - BIG_FREED; i++)
    if ((uintptr_t)big[i] > top) top = (uintptr_t)big[i];
  /* the small blocks' bytes as the plan has them */
  uint64_t small_bytes = 0;
  for (int i = SMALL_FREED; i < SMALL_COUNT; i++) small_bytes += 24 + (i % 3) * 8;
  printf("PLAN {\"big\": %zu, \"bigLive\": %d, \"smallLive\": %d, \"smallBytes\": %llu, \"topBlock\": %llu}\n", BIG,
         BIG_COUNT - BIG_FREED, SMALL_COUNT - SMALL_FREED, (unsigned long long)small_bytes,
         (unsigned long long)top);
  EM_ASM({
    var s = Module['emheap'].snapshot();
    if (typeof process === 'object' && process.versions && process.versions.node) /* for `emheap top` */
      require('fs').writeFileSync('wasm64.emheap.json', JSON.stringify(s));
    var names = function (site) { return site.stack.map(function (f) { return s.frames[f].name; }); };
    console.log('SNAPSHOT ' + JSON.stringify({mode: s.mode, summary: s.summary, sites: s.sites.map(function (site) {
      return {stack: names(site), liveBytes: site.liveBytes, liveBlocks: site.liveBlocks, totalBytes: site.totalBytes,
        estimatedLiveBytes: site.estimatedLiveBytes};
    })}));
  });
  /* a page: the test presses Ctrl+Shift+H now */
  EM_ASM({ if (typeof document === 'object') document.title = 'planted'; });
  return 0;
}
