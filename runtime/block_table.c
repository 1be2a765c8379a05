/*
** block_table.c -- the recorded live blocks: address -> site and size.
**
** Every block in exact mode, the sampled ones in sampled mode. Open
** addressing with linear probing on the address, kept in Robin Hood order
** (along a cluster, entries lie in the order of their home slots), deletion
** by backward shift (no tombstones, so lookups never slow down with churn).
** Homes keep the order of addresses within each 64 KiB of the heap (see
** home()), so most entries sit in their home slot: a lookup, an insertion
** and a deletion then touch one or two slots, next to those of the blocks
** made just before. The table doubles
** when half full. If it cannot (emheap_table_alloc refuses: a fixed heap
** with no room to spare), it keeps filling up to 3/4, where linear probing
** still takes ~8 probes for a miss and ~2.5 for a hit, and only then is a
** block not recorded: the caller counts it as lost. Doubling needs the old
** and the new table at once (48 bytes per slot of the old one), which is
** what a fixed heap most often cannot spare: on Lua with 85k live blocks
** in a 64 MB heap, half-full tables recorded about 65k of them, 3/4 all.
**
** Each recorded block gets a serial (state.block_serial + 1, kept below
** 2^31 so that 2 * serial + 1 is a heap snapshot node id, odd as DevTools
** wants): its identity across snapshots, where an address is reused.
**
** Invariant: every recorded block appears exactly once, at or after its
** home slot with no empty slot in between, and an entry's distance from its
** home is at most one more than the previous slot's entry's (Robin Hood);
** block_count is their number;
** block_count <= capacity / 2, or <= capacity * 3/4 once a doubling was
** refused. With dlmalloc, a block is recorded iff its
** FLAG4 bit is set (allocator.h). Called under the lock.
**
** Where there is no such bit (threaded builds, emmalloc), free asks
** emheap_may_be_recorded first, without the lock: a count of recorded
** blocks per address bucket, changed here (under the lock) and read by
** any thread. A block is recorded before its pointer leaves malloc, so a
** thread that frees it has seen its bucket's count go up: a count of 0
** means "not recorded" for sure, and the free needs neither lock nor
** lookup (in sampled mode, nearly every free). A count that reaches 255
** stays there (the bucket then always asks the table).
*/
#include <string.h>

#include "allocator.h"
#include "emheap_internal.h"

uint8_t emheap_recorded_filter[EMHEAP_FILTER_BUCKETS];

/* Only where free asks the filter (alloc_fast.h: no dlmalloc flag). */
static inline int filter_used(void) {
  return !(EMHEAP_USE_FLAG && emheap_allocator == EMHEAP_ALLOCATOR_DLMALLOC);
}

static inline void filter_add(uint32_t addr) {
  if (!filter_used()) return;
  uint8_t *c = &emheap_recorded_filter[emheap_filter_bucket(addr)];
  if (*c != 255) __atomic_store_n(c, (uint8_t)(*c + 1), __ATOMIC_RELAXED);
}

static inline void filter_remove(uint32_t addr) {
  if (!filter_used()) return;
  uint8_t *c = &emheap_recorded_filter[emheap_filter_bucket(addr)];
  if (*c != 255) __atomic_store_n(c, (uint8_t)(*c - 1), __ATOMIC_RELAXED);
}

#define INITIAL_BLOCKS 1024u /* power of two */

/* A block's home slot keeps the order of addresses within each 64 KiB of
** the heap (a region starts at a random place in the table): blocks made
** one after another mostly lie near each other, and so do their slots, so
** recording and forgetting them stays in cache (Lua, exact: 2.05x -> 1.34x
** of forwarding, node, against a plain hash). A dense region fills a long
** run of slots; the Robin Hood order keeps lookups and deletions short
** there (plain linear probing walked whole runs at every free: micro's
** binary trees, 9.5x). */
static inline uint32_t home(uint32_t addr, uint32_t mask) {
  uint32_t region = (addr >> 16) * 0x9E3779B1u;
  return ((addr >> 3) + (region >> 13)) & mask;
}

/* How far the entry in slot j lies from its home. */
static inline uint32_t distance(const emheap_block *t, uint32_t j, uint32_t mask) {
  return (j - home(t[j].addr, mask)) & mask;
}

/* Robin Hood insertion of b, whose address is not in t, from slot j where
** it would stand d slots from its home: an entry nearer its own home gives
** way and moves on. */
static void place(emheap_block *t, uint32_t mask, emheap_block b, uint32_t j, uint32_t d) {
  for (; t[j].addr; j = (j + 1) & mask, d++) {
    uint32_t dj = distance(t, j, mask);
    if (dj < d) {
      emheap_block moved = t[j];
      t[j] = b;
      b = moved;
      d = dj;
    }
  }
  t[j] = b;
}

int emheap_blocks_init(void) {
  emheap_block *t = emheap_table_alloc(INITIAL_BLOCKS * sizeof(emheap_block));
  if (!t) return 0;
  memset(t, 0, INITIAL_BLOCKS * sizeof(emheap_block));
  emheap_g.blocks = t;
  emheap_g.block_mask = INITIAL_BLOCKS - 1;
  return 1;
}

/* Slow path: a table twice as large. */
static int grow(void) {
  uint32_t old_cap = emheap_g.block_mask + 1;
  if (old_cap >= 0x10000000u) return 0;
  uint32_t cap = old_cap * 2;
  emheap_block *t = emheap_table_alloc((size_t)cap * sizeof(emheap_block));
  if (!t) return 0;
  memset(t, 0, (size_t)cap * sizeof(emheap_block));
  emheap_block *old = emheap_g.blocks;
  for (uint32_t i = 0; i < old_cap; i++) {
    if (old[i].addr) place(t, cap - 1, old[i], home(old[i].addr, cap - 1), 0);
  }
  emheap_g.blocks = t;
  emheap_g.block_mask = cap - 1;
  emheap_table_free(old, (size_t)old_cap * sizeof(emheap_block));
  return 1;
}

/* block_count when a doubling was last refused; 0: none since the last one. */
static uint32_t refused_at;

/* Slow path: the table is half full. Doubles it, or says whether one more
** block may go in without (up to 3/4). A refused doubling is tried again
** only every capacity/64 blocks: each try asks JS for the heap's limit.
** The first refusal in exact mode turns it to sampling (emheap_thin): the
** quarter of the table left then holds what it samples. */
static int make_room(void) {
  uint32_t cap = emheap_g.block_mask + 1;
  uint32_t n = emheap_g.block_count + 1;
  if (!refused_at || n >= refused_at + cap / 64) {
    if (grow()) {
      refused_at = 0;
      return 1;
    }
    refused_at = n;
    emheap_thin();
  }
  return n <= cap / 4 * 3;
}

int emheap_blocks_insert(uint32_t addr, uint32_t site, uint32_t size, uint32_t usable, uint32_t weighted,
                         emheap_block *stale) {
  stale->addr = 0;
  if (!emheap_g.blocks) return 0;
  if (__builtin_expect((emheap_g.block_count + 1) * 2 > emheap_g.block_mask + 1, 0) && !make_room()) return 0;
  emheap_block *t = emheap_g.blocks;
  uint32_t mask = emheap_g.block_mask;
  /* 31 bits, so that an id 2 * serial + 1 fits 32: after 2^31 recorded
  ** blocks ids repeat (README known limits) */
  uint32_t serial = emheap_g.block_serial = (emheap_g.block_serial + 1) & 0x7FFFFFFFu;
  uint32_t slack = usable - size < EMHEAP_SLACK_UNKNOWN ? usable - size : EMHEAP_SLACK_UNKNOWN;
  emheap_block b = {addr, site | slack << EMHEAP_SITE_BITS, size, serial | (weighted ? EMHEAP_BLOCK_WEIGHTED : 0)};
  uint32_t i = home(addr, mask), d = 0;
  for (; t[i].addr && distance(t, i, mask) >= d; i = (i + 1) & mask, d++) {
    if (t[i].addr == addr) {
      *stale = t[i];
      t[i] = b;
      return 1;
    }
  }
  place(t, mask, b, i, d);
  emheap_g.block_count++;
  filter_add(addr);
  return 1;
}

int emheap_blocks_remove(uint32_t addr, emheap_block *out) {
  emheap_block *t = emheap_g.blocks;
  if (!t) return 0;
  uint32_t mask = emheap_g.block_mask;
  uint32_t i = home(addr, mask);
  for (uint32_t d = 0; t[i].addr != addr; i = (i + 1) & mask, d++) {
    if (!t[i].addr || distance(t, i, mask) < d) return 0;
  }
  *out = t[i];
  /* Backward shift: the entries after the hole that are not in their home
  ** slot move one slot back (Robin Hood order: the first one at home, or
  ** an empty slot, ends the run). */
  for (uint32_t j = (i + 1) & mask; t[j].addr && distance(t, j, mask) > 0; j = (j + 1) & mask) {
    t[i] = t[j];
    i = j;
  }
  t[i].addr = 0;
  emheap_g.block_count--;
  filter_remove(addr);
  return 1;
}
