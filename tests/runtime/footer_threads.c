/*
** footer_threads.c -- footer mode with threads (runtime/footer.h): four
** threads replace blocks in rings of 256 at once (some freed on another
** thread) while the main thread marks and takes snapshots. Each snapshot
** with marks walks dlmalloc's chunks for the blocks' footers, holding the
** allocator still (capture/layout.js withLock); each must be whole: every
** site's blocks by mark add up to its live blocks, and the sites to the
** summary's. Once the threads are joined the counters must equal the kept
** blocks exactly.
**
** Prints TAP lines, "WALKS {...}" (what the snapshots saw), "SUMMARY
** {...}" (emheap's summary with every thread joined). Run by
** tests/e2e/footers.test.js.
*/
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <emscripten.h>

#include "emheap.h"

enum { THREADS = 4, RING = 256, SNAPSHOTS = 40 };

static int checks, failures;
#define CHECK(cond, msg)                                        \
  do {                                                          \
    checks++;                                                   \
    if (cond) printf("ok %d - %s\n", checks, msg);              \
    else printf("not ok %d - %s\n", checks, msg), failures++;   \
  } while (0)

static volatile int stop;
static volatile uint32_t ops[THREADS];
/* A block handed from each thread to the next, freed there. */
static void *volatile handed[THREADS];

static void *ring_worker(void *arg) {
  int id = (int)(intptr_t)arg;
  void *ring[RING] = {0};
  uint32_t x = 2463534242u + (uint32_t)id;
  while (!stop) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    int slot = x & (RING - 1);
    free(ring[slot]);
    ring[slot] = malloc(16 + (x >> 20) % 240);
    if ((x & 63) == 0) { /* hand one to the next thread; free what was handed here */
      void *mine = __atomic_exchange_n(&handed[id], NULL, __ATOMIC_ACQ_REL);
      free(mine);
      void *gift = malloc(48);
      void *old = __atomic_exchange_n(&handed[(id + 1) % THREADS], gift, __ATOMIC_ACQ_REL);
      free(old);
    }
    ops[id]++;
  }
  for (int i = 0; i < RING; i++) free(ring[i]);
  return NULL;
}

static uint32_t total_ops(void) {
  uint32_t n = 0;
  for (int i = 0; i < THREADS; i++) n += ops[i];
  return n;
}

static int live_blocks(void) {
  return EM_ASM_INT({ return JSON.parse(Module['emheap'].getSnapshotJson()).liveBlocks; });
}

int main(void) {
  int base = live_blocks();
  EM_ASM({ Module['emheap'].mark('start'); });
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, ring_worker, (void *)(intptr_t)i);
  while (total_ops() < 20000) {
  }
  int busy = 0;
  uint32_t after = total_ops();
  for (int s = 0; s < SNAPSHOTS; s++) {
    /* the threads allocate between every two snapshots: wait until they have */
    while (total_ops() == after) {
    }
    uint32_t before = total_ops();
    /* the snapshot's checks, in JS: 0 if whole, else what did not add up */
    int bad = EM_ASM_INT({
      var snap = Module['emheap'].snapshot();
      var sites = 0;
      var why = [];
      snap.sites.forEach(function (site) {
        sites += site.liveBlocks;
        if (!site.liveByMark) return;
        var byMark = 0;
        for (var i = 2; i < site.liveByMark.length; i += 4) byMark += site.liveByMark[i];
        if (byMark !== site.liveBlocks) why.push(site.key + ': ' + byMark + ' by mark, ' + site.liveBlocks + ' live');
      });
      if (sites !== snap.summary.liveBlocks) why.push('sites ' + sites + ', summary ' + snap.summary.liveBlocks);
      if (!snap.sites.some(function (site) { return site.liveByMark; })) why.push('no site has blocks by mark');
      if (why.length) console.log('# snapshot ' + $0 + ': ' + why.slice(0, 5).join('; '));
      return why.length;
    }, s);
    failures += bad != 0;
    after = total_ops();
    if (after != before) busy++; /* (they ran during this one too: how often is the scheduler's) */
    if (s % 8 == 7) EM_ASM({ Module['emheap'].mark('m' + $0); }, s);
  }
  stop = 1;
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  for (int i = 0; i < THREADS; i++) free(handed[i]);
  printf("WALKS {\"snapshots\": %d, \"busy\": %d, \"ops\": %u}\n", SNAPSHOTS, busy, total_ops());
  CHECK(failures == 0, "every snapshot taken while the threads ran was whole");
  CHECK(live_blocks() == base, "with the threads joined, the live blocks are those from before");
  EM_ASM({ console.log('SUMMARY ' + Module['emheap'].getSnapshotJson()); });
  printf("1..%d\n", checks);
  return failures != 0;
}
