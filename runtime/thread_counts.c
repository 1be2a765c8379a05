/*
** thread_counts.c -- claiming, folding and summing the per-thread counting
** slots of threaded builds (the design and its invariant: thread_counts.h).
** In single-threaded builds only emheap_sum_counters is used, and it is a
** copy.
*/
#include <stddef.h>
#include <string.h>

#include "alloc_fast.h"

_Static_assert(sizeof(emheap_count_slot) == 64, "one cache line per slot; capture/layout.js reads them");
_Static_assert(offsetof(emheap_counters, free_calls) - offsetof(emheap_counters, malloc_calls) ==
                   (EMHEAP_CALL_KINDS - 1) * sizeof(uint64_t),
               "the call counters are consecutive, in the slot's order");

#if EMHEAP_THREADED
emheap_count_slot emheap_count_slots[EMHEAP_COUNT_SLOTS] __attribute__((aligned(64)));

emheap_count_slot *emheap_claim_count_slot(void) {
  emheap_self.count_slot_tried = 1;
  emheap_lock();
  emheap_count_slot *slot = NULL;
  for (uint32_t i = 0; i < EMHEAP_COUNT_SLOTS; i++) {
    if (!emheap_count_slots[i].in_use) {
      slot = &emheap_count_slots[i];
      slot->in_use = 1;
      emheap_watch_thread_exit();
      break;
    }
  }
  emheap_unlock();
  emheap_self.count_slot = slot;
  return slot;
}

/* Adds a slot's counts into c, live values modulo 2^64 / 2^32. */
static void add_slot(emheap_counters *c, const emheap_count_slot *slot) {
  for (uint32_t k = 0; k < EMHEAP_CALL_KINDS; k++) (&c->malloc_calls)[k] += slot->calls[k];
  c->live_bytes += (uint64_t)(int64_t)slot->live_bytes;
  c->live_blocks += (uint32_t)slot->live_blocks;
  c->total_bytes += slot->total_bytes;
}

/* Under the lock: adds the slot into emheap_g.counters and zeroes it. */
static void fold_count_slot(emheap_count_slot *slot) {
  add_slot(&emheap_g.counters, slot);
  emheap_note_peaks(&emheap_g.counters);
  uint32_t in_use = slot->in_use;
  memset(slot, 0, sizeof *slot);
  slot->in_use = in_use;
}

__attribute__((noinline)) void emheap_fold_now(emheap_count_slot *slot, uint32_t request) {
  emheap_lock();
  fold_count_slot(slot);
  emheap_note_heap_growth(EMHEAP_SITE_UNATTRIBUTED, request);
  emheap_unlock();
}

void emheap_release_count_slot(void) {
  emheap_count_slot *slot = emheap_self.count_slot;
  /* From here on (other keys' destructors may still allocate) this thread
  ** counts under the lock. */
  emheap_self.count_slot = NULL;
  emheap_self.count_slot_tried = 1;
  if (!slot) return;
  emheap_lock();
  fold_count_slot(slot);
  slot->in_use = 0;
  emheap_unlock();
}
#endif

void emheap_sum_counters(emheap_counters *out) {
  memcpy(out, &emheap_g.counters, sizeof *out);
#if EMHEAP_THREADED
  for (uint32_t i = 0; i < EMHEAP_COUNT_SLOTS; i++) add_slot(out, &emheap_count_slots[i]);
  if ((int64_t)out->live_bytes < 0) out->live_bytes = 0;
  if ((int32_t)out->live_blocks < 0) out->live_blocks = 0;
  if (out->live_bytes > out->peak_live_bytes) out->peak_live_bytes = out->live_bytes;
  if (out->live_blocks > out->peak_live_blocks) out->peak_live_blocks = out->live_blocks;
#endif
}
