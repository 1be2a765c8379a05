/*
** footer.c -- what footer mode (footer.h) needs beyond the entry points:
** the footers' share of the tables' budget, and a walk of dlmalloc's
** chunks that finds every footer (marks.c renumbers their serials).
**
** The walk reads dlmalloc 2.8.6's structures as capture/allocator_walk.js
** does (system/lib/dlmalloc.c, the same in Emscripten 3.1.6, 4.0.23 and
** 5.0.7): a segment record is {base, size, next}; chunks start 8-aligned
** in their payload, each head is size | FLAG4 | CINUSE | PINUSE; a
** segment ends at top (gm->top, word 6 of malloc_state) or, an older one,
** at a fencepost head (7). JS found malloc_state at attach
** (emheap_state.dl_state); footer mode is on only when it did.
**
** With threads, a walk holds dlmalloc's mutex (footer.h): other threads'
** mallocs and frees split and merge chunks.
*/
#include "footer.h"

#include <emscripten/emscripten.h>

#include "allocator.h"

uint32_t emheap_footer_slots;

/* Footers are granted a step at a time, so that the budget's rule (a few
** calls into JS for the heap's limits) runs once per 1,024 of them. */
#define GRANT_SLOTS 1024u

int emheap_footers_grant(int reserving) {
  if (!emheap_table_fits(GRANT_SLOTS * EMHEAP_FOOTER_BYTES, reserving)) return 0;
  emheap_footer_slots = emheap_g.blocks.count + GRANT_SLOTS;
  return 1;
}

/* dlmalloc's top chunk and first segment record (dlmalloc_state.h) */
static inline uint32_t dl_top(void) { return (uint32_t)(uintptr_t)((const emheap_dl_state *)(uintptr_t)emheap_g.dl_state)->top; }
static inline const emheap_dl_segment *dl_first_segment(void) { return (const emheap_dl_segment *)(uintptr_t)emheap_g.dl_seg; }

static void each_serial(void (*fn)(uint32_t *serial, void *ctx), void *ctx) {
  uint32_t top = dl_top();
  uint32_t brk = (uint32_t)*emheap_brk.sbrk_ptr;
  for (const emheap_dl_segment *seg = dl_first_segment(); seg; seg = seg->next) {
    uint32_t base = (uint32_t)(uintptr_t)seg->base, end = base + (uint32_t)seg->size;
    if (end > brk || end < base) return; /* not a segment: nothing more to trust */
    uint32_t q = base + ((8u - ((base + 8u) & 7u)) & 7u);
    while (q != top && q + 8u <= end) {
      uint32_t head = ((const uint32_t *)(uintptr_t)q)[1];
      if (head == DL_FENCEPOST) break;
      uint32_t size = head & DL_SIZE_MASK;
      if (size < DL_MIN_CHUNK || size > end - q) return; /* a damaged heap: stop, never run off it */
      if ((head & (DL_CINUSE | DL_FLAG4)) == (DL_CINUSE | DL_FLAG4)) {
        emheap_footer *f = (emheap_footer *)(uintptr_t)(q + size - 4u); /* the chunk's last 8 usable bytes */
        if (f->serial) fn(&f->serial, ctx); /* 0: not a record (yet, or any more), footer.h */
      }
      q += size;
    }
  }
}

/* The record in the footer of chunk q (head: its head word), if it has one:
** a chunk in use, flagged, with a serial (footer.h). */
static int chunk_record(uint32_t q, uint32_t head, emheap_block *out) {
  if ((head & (DL_CINUSE | DL_FLAG4)) != (DL_CINUSE | DL_FLAG4)) return 0;
  uint32_t usable = (head & DL_SIZE_MASK) - 12u; /* as the program sees it: less dlmalloc's head and the footer */
  const emheap_footer *f = emheap_footer_at((void *)(uintptr_t)(q + 8u), usable);
  if (!f->serial) return 0;
  out->addr = emheap_word(q + 8u);
  out->site_slack = f->site_slack;
  out->size = usable - (f->site_slack >> EMHEAP_SITE_BITS);
  out->serial = f->serial;
  return 1;
}

/* The footer-mode record of the block that holds addr, found by walking
** the chunks up to it (the caller holds emheap's lock, and in threaded
** builds dlmalloc's heap is held here): 0 if addr lies in no recorded
** block. A pool's new chunk (pools.c), once per chunk. */
int emheap_footer_block_holding(uintptr_t addr, emheap_block *out) {
  if (!emheap_g.footers) return 0;
  int found = 0;
  emheap_dl_hold();
  uint32_t top = dl_top();
  uint32_t brk = (uint32_t)*emheap_brk.sbrk_ptr;
  for (const emheap_dl_segment *seg = dl_first_segment(); seg && !found; seg = seg->next) {
    uint32_t base = (uint32_t)(uintptr_t)seg->base, end = base + (uint32_t)seg->size;
    if (end > brk || end < base) break;
    if (addr < base || addr >= end) continue;
    uint32_t q = base + ((8u - ((base + 8u) & 7u)) & 7u);
    while (q != top && q + 8u <= end) {
      uint32_t head = ((const uint32_t *)(uintptr_t)q)[1];
      if (head == DL_FENCEPOST) break;
      uint32_t size = head & DL_SIZE_MASK;
      if (size < DL_MIN_CHUNK || size > end - q) break;
      if (addr < q + size) {
        found = addr >= q + 8u && chunk_record(q, head, out) && addr < q + 8u + out->size;
        break;
      }
      q += size;
    }
  }
  emheap_dl_release();
  return found;
}

/* Footer mode: the record of the block at p (a live block's), or 0 if it
** has none. Under emheap's lock. */
int emheap_footer_record(uintptr_t p, emheap_block *out) {
  if (!emheap_g.footers || !emheap_plausible_block((void *)(uintptr_t)p)) return 0;
  return chunk_record(p - 8u, *emheap_head_word((void *)(uintptr_t)p), out);
}

/* Footer mode: block p's record gets another site (a pool's chunk). */
void emheap_footer_set_site(uintptr_t p, uint32_t site) {
  uint32_t usable = (*emheap_head_word((void *)(uintptr_t)p) & DL_SIZE_MASK) - 12u;
  emheap_footer *f = emheap_footer_at((void *)(uintptr_t)p, usable);
  f->site_slack = site | (f->site_slack & ~(EMHEAP_MAX_SITES - 1u));
}

void emheap_footers_each_serial(void (*fn)(uint32_t *serial, void *ctx), void *ctx) {
  if (!emheap_g.footers) return;
  emheap_dl_hold();
  each_serial(fn, ctx);
  emheap_dl_release();
}

/* Exported: JS holds the heap still around its walks of the chunks in a
** threaded program (capture/lock.js withLock), holding emheap's lock
** already. A no-op where there is nothing to hold. */
EMSCRIPTEN_KEEPALIVE void emheap_hold_allocator(int hold) {
  if (!EMHEAP_THREADED || !emheap_g.footers) return;
  if (hold) emheap_dl_hold();
  else emheap_dl_release();
}
