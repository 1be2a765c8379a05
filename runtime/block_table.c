/*
** block_table.c -- the table of live blocks: pointer -> (size, site).
**
** Open addressing with linear probing and backward-shift deletion (no
** tombstones, so probe lengths do not decay under churn). Capacity is a
** power of two; the table doubles when it is 70% full. Slots are 12 bytes,
** so a live block costs 12-34 bytes of tracking memory depending on load.
**
** If doubling fails (the app is near the end of its memory), inserts keep
** going until the table is 15/16 full, then further blocks are counted as
** untracked instead of recorded: emheap never takes memory the app needs.
*/
#include <string.h>

#include <emscripten/emmalloc.h> /* emscripten_builtin_malloc/free */

#include "emheap_internal.h"

#define INITIAL_CAPACITY 4096u

/* Multiply then fold the high half down: every pointer bit reaches the
** low bits, so 8- or 16-byte aligned pointers still spread evenly. */
static inline uint32_t slot_of(uint32_t ptr, uint32_t mask) {
  uint32_t h = ptr * 0x9E3779B1u;
  return (h ^ (h >> 16)) & mask;
}

static emheap_block *alloc_slots(uint32_t capacity) {
  size_t bytes = (size_t)capacity * sizeof(emheap_block);
  if (bytes / sizeof(emheap_block) != capacity) return NULL;
  emheap_block *slots = emscripten_builtin_malloc(bytes);
  if (slots) memset(slots, 0, bytes);
  return slots;
}

int emheap_blocks_init(void) {
  emheap_g.blocks = alloc_slots(INITIAL_CAPACITY);
  if (!emheap_g.blocks) return 0;
  emheap_g.block_mask = INITIAL_CAPACITY - 1;
  emheap_g.block_count = 0;
  return 1;
}

static void place(emheap_block *slots, uint32_t mask, emheap_block b) {
  uint32_t i = slot_of(b.ptr, mask);
  while (slots[i].ptr) i = (i + 1) & mask;
  slots[i] = b;
}

/* Slow path: double the table. Returns 0 if memory for it is not there. */
static int grow(void) {
  uint32_t old_cap = emheap_g.block_mask + 1;
  if (old_cap >= 0x40000000u) return 0;
  uint32_t new_cap = old_cap * 2, new_mask = new_cap - 1;
  emheap_block *slots = alloc_slots(new_cap);
  if (!slots) return 0;
  emheap_block *old = emheap_g.blocks;
  for (uint32_t i = 0; i < old_cap; i++)
    if (old[i].ptr) place(slots, new_mask, old[i]);
  emscripten_builtin_free(old);
  emheap_g.blocks = slots;
  emheap_g.block_mask = new_mask;
  return 1;
}

int emheap_blocks_insert(uint32_t ptr, uint32_t size, uint32_t site) {
  uint32_t cap = emheap_g.block_mask + 1;
  if (__builtin_expect((uint64_t)(emheap_g.block_count + 1) * 10 > (uint64_t)cap * 7, 0)) {
    if (!grow()) {
      emheap_g.block_table_full = 1;
      if (emheap_g.block_count + 1 > cap - cap / 16) return 0;
    }
  }
  emheap_block b = {ptr, size, site};
  place(emheap_g.blocks, emheap_g.block_mask, b);
  emheap_g.block_count++;
  return 1;
}

emheap_block *emheap_blocks_find(uint32_t ptr) {
  uint32_t mask = emheap_g.block_mask;
  emheap_block *slots = emheap_g.blocks;
  if (!slots || !ptr) return NULL;
  for (uint32_t i = slot_of(ptr, mask);; i = (i + 1) & mask) {
    if (slots[i].ptr == ptr) return &slots[i];
    if (!slots[i].ptr) return NULL;
  }
}

int emheap_blocks_remove(uint32_t ptr, emheap_block *out) {
  emheap_block *hit = emheap_blocks_find(ptr);
  if (!hit) return 0;
  *out = *hit;
  /* Backward shift: pull later members of the probe run into the hole so
  ** that every entry stays reachable from its home slot without gaps. */
  uint32_t mask = emheap_g.block_mask;
  emheap_block *slots = emheap_g.blocks;
  uint32_t hole = (uint32_t)(hit - slots);
  for (uint32_t j = (hole + 1) & mask; slots[j].ptr; j = (j + 1) & mask) {
    uint32_t home = slot_of(slots[j].ptr, mask);
    /* Move j into the hole unless its home lies cyclically in (hole, j]. */
    int home_after_hole = ((j - home) & mask) < ((j - hole) & mask);
    if (!home_after_hole) {
      slots[hole] = slots[j];
      hole = j;
    }
  }
  slots[hole].ptr = 0;
  emheap_g.block_count--;
  return 1;
}
