/*
** block_churn.c -- emheap's block table (runtime/block_table.c) under
** churn: blocks of every size made, resized and freed in random order over
** a few thousand 32 KiB regions, so that region tables are made, grow,
** shrink and wrap around, with a huge block (over 128 MiB, kept apart) in
** the middle. Built with the checking runtime (-DEMHEAP_CHECKING), whose
** asserts check each table's invariants after every change.
**
** At three moments it prints what the program holds (TALLY: per kind of
** allocation its live blocks and requested bytes, and a digest of every
** live block's address and size) and what emheap reads (SNAP: the same,
** from emheap.snapshot({heap: true})); tests/runtime.test.js wants them
** equal.
*/
#include <emscripten.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 30000
#define KINDS 3

static void *ptr[SLOTS];
static size_t req[SLOTS];
static int kind_of[SLOTS];
static uint32_t rng = 2463534242u;

static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

/* Sizes: mostly small, some medium, a few large, and 0. */
static size_t pick_size(void) {
  uint32_t r = rnd() % 100;
  if (r < 2) return 0;
  if (r < 70) return rnd() % 64 + 1;
  if (r < 95) return rnd() % 2048 + 64;
  return rnd() % 60000 + 2048;
}

/* One function per kind, each called through a pointer: one site each. */
__attribute__((noinline)) void *plain_block(size_t n) { return malloc(n); }
__attribute__((noinline)) void *zeroed_block(size_t n) { return calloc(1, n); }
__attribute__((noinline)) void *aligned_block(size_t n) { return aligned_alloc(64, (n + 63) & ~(size_t)63); }
static void *(*const makers[KINDS])(size_t) = {plain_block, zeroed_block, aligned_block};

/* A resized block is charged to the realloc's stack: a kind of its own. */
__attribute__((noinline)) void *resized_block(void *p, size_t n) { return realloc(p, n); }
static void *(*volatile resizer)(void *, size_t) = resized_block;

static size_t asked(int kind, size_t n) { return kind == 2 ? ((n + 63) & ~(size_t)63) : n; }

static void tally(const char *when) {
  uint64_t bytes[KINDS + 1] = {0};
  uint32_t blocks[KINDS + 1] = {0};
  uint32_t digest = 0;
  for (int i = 0; i < SLOTS; i++) {
    if (!ptr[i]) continue;
    bytes[kind_of[i]] += req[i];
    blocks[kind_of[i]]++;
    digest += (uint32_t)(uintptr_t)ptr[i] ^ (uint32_t)req[i] * 2654435761u;
  }
  printf("TALLY {\"when\":\"%s\",\"digest\":%u,\"kinds\":{", when, digest);
  static const char *names[KINDS + 1] = {"plain_block", "zeroed_block", "aligned_block", "resized_block"};
  for (int k = 0; k <= KINDS; k++)
    printf("%s\"%s\":[%u,%llu]", k ? "," : "", names[k], blocks[k], (unsigned long long)bytes[k]);
  printf("}}\n");
  EM_ASM({
    var s = Module['emheap'].snapshot({heap: true});
    var b = s.heap.blocks;
    var digest = 0;
    for (var k = 0; k < b.address.length; k++) digest = (digest + ((b.address[k] ^ Math.imul(b.size[k], 2654435761)) >>> 0)) >>> 0;
    var kinds = {};
    s.sites.forEach(function (site) {
      var names = site.stack.map(function (i) { return s.frames[i].name; });
      var kind = ['resized_block', 'plain_block', 'zeroed_block', 'aligned_block'].filter(function (n) {
        return names.some(function (f) { return f.indexOf(n) >= 0; });
      })[0] || 'other';
      var t = kinds[kind] || (kinds[kind] = [0, 0]);
      t[0] += site.liveBlocks;
      t[1] += site.liveBytes;
    });
    console.log('SNAP ' + JSON.stringify({when: UTF8ToString($0), digest: digest, kinds: kinds,
      blocks: b.address.length, liveBlocks: s.summary.liveBlocks, lost: s.summary.lostAllocs,
      liveBytes: s.summary.liveBytes, recordedUsable: s.summary.requestedLiveBytes + s.summary.allocatorRoundingBytes}));
  }, when);
}

static void churn(int steps) {
  for (int s = 0; s < steps; s++) {
    int i = (int)(rnd() % SLOTS);
    if (ptr[i] && rnd() % 4 == 0) {
      size_t n = pick_size();
      void *q = resizer(ptr[i], n);
      if (!q && n) continue;
      ptr[i] = q;
      req[i] = n;
      kind_of[i] = KINDS;
    } else if (ptr[i]) {
      free(ptr[i]);
      ptr[i] = NULL;
    } else {
      int k = (int)(rnd() % KINDS);
      size_t n = pick_size();
      ptr[i] = makers[k](n);
      req[i] = asked(k, n);
      kind_of[i] = k;
    }
  }
}

int main(void) {
  churn(200000);
  tally("churned");

  /* A huge block among them, and its address handed back and reused. */
  size_t huge_size = ((size_t)1 << 27) + 3;
  void *huge = plain_block(huge_size);
  if (!huge) {
    printf("no memory for the huge block\n");
    return 1;
  }
  if (ptr[0]) free(ptr[0]);
  ptr[0] = huge;
  req[0] = huge_size;
  kind_of[0] = 0;
  churn(50000);
  tally("huge");

  free(ptr[0]);
  ptr[0] = NULL;
  /* Most go: tables shrink. */
  for (int i = 0; i < SLOTS; i++) {
    if (ptr[i] && i % 8) {
      free(ptr[i]);
      ptr[i] = NULL;
    }
  }
  churn(20000);
  tally("emptied");
  return 0;
}
