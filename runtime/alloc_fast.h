/*
** alloc_fast.h -- the fast path shared by every allocation entry point:
** count a block, and decide whether it is recorded. Inline, so each entry
** point is one call into the allocator plus a few loads, adds and compares;
** everything that records a stack lives in record.c, out of line.
**
** The global counters count usable sizes (allocator.h): the only size free
** can learn of a block without a record, and what the block occupies in the
** heap. Sites count the bytes the program asked for (record.c), and so does
** the sampling countdown: an estimate is of what the program asked for.
*/
#ifndef EMHEAP_ALLOC_FAST_H
#define EMHEAP_ALLOC_FAST_H

#include "allocator.h"
#include "emheap_internal.h"
#include "footer.h"
#include "lock.h"
#include "thread_counts.h"
#include "thread_state.h"

/* The fast path is inlined into each entry point, always: left to the
** compiler, clang stopped inlining emheap_track_new into malloc when
** emheap_count_live grew by a branch, and micro cost 6.8% more (node,
** sampled mode, medians of 15 interleaved runs). */
#define EMHEAP_FAST_PATH static inline __attribute__((always_inline))

/* 1 once initialized and not off (state.c). The one check every entry
** point makes before its fast path; 0 sends it to its slow path, which
** initializes, or forwards when the mode is off. */
extern uint32_t emheap_on;
/* Blocks of at least this many requested bytes are always recorded: 0 in
** exact mode (every block), the sampling interval in sampled mode. */
extern uint32_t emheap_record_threshold;
/* 1 while every malloc, free and realloc can take exact mode's shortest
** path (alloc_hooks.c FAST_FOR): a single-threaded runtime,
** records in footers (so dlmalloc), not thinned, sites from calling
** contexts and not their checking mode, no pool of the program's own.
** state.c sets it at initialization; thinning (record.c) and the first
** pool (pools.c) clear it for the rest of the run. One load and branch
** instead of one for each of these: with each checked where it is used,
** alloc_only cost 8% more in node, 11% in Firefox and 20% in Chromium
** (bench/README.md). */
extern uint32_t emheap_fast;

/* Under the lock, after the block's site (if any) was charged: a new high
** of live bytes is a new peak moment, which includes this block. Signed
** compares: in threaded builds the global values may be below zero for a
** moment (thread_counts.h). */
EMHEAP_FAST_PATH void emheap_note_peaks(emheap_counters *c) {
  if (__builtin_expect((int64_t)c->live_bytes > (int64_t)c->peak_live_bytes, 0)) emheap_new_peak();
  if ((int32_t)c->live_blocks > (int32_t)c->peak_live_blocks) c->peak_live_blocks = c->live_blocks;
}

EMHEAP_FAST_PATH void emheap_count_live(uint32_t u) {
  emheap_counters *c = &emheap_g.counters;
  c->live_bytes += u;
  c->total_bytes += u;
  c->live_blocks++;
  emheap_note_peaks(c);
}

/* Saturates at 0: emmalloc can grow a live block when it pads an aligned
** neighbour (allocator.h), so its free may return more than was counted;
** and a block that never passed through emheap can reach free() (under
** -sMALLOC=mimalloc, C++ new goes to mimalloc directly). In threaded builds
** the global values are only part of the count (thread_counts.h): they
** wrap, and the readers' sums saturate instead. */
EMHEAP_FAST_PATH void emheap_count_dead(uint32_t u) {
  emheap_counters *c = &emheap_g.counters;
  if (EMHEAP_THREADED) {
    c->live_bytes -= u;
    c->live_blocks--;
    return;
  }
  uint64_t live = c->live_bytes;
  c->live_bytes = live > u ? live - u : 0;
  c->live_blocks -= c->live_blocks != 0;
}

/* One call of an entry point: calls is one of emheap_g.counters' call
** counters, or NULL for a step that is not a call of its own (realloc's
** old block). Under the lock. */
EMHEAP_FAST_PATH void emheap_count_one_call(uint64_t *calls) {
  if (calls) (*calls)++;
}

/* What taking a block out of the books took (realloc's old block), so
** that a failed resize can put it back as it was. */
typedef struct emheap_taken {
  emheap_block block; /* its record, when kind is EMHEAP_TAKEN_RECORDED */
  uint32_t usable;    /* the usable bytes counted dead */
  uint32_t kind;
  uint32_t ended;     /* what its site's lifetime counts got (record.c count_ended), or 0 */
} emheap_taken;
enum {
  EMHEAP_TAKEN_RECORDED,   /* its record was removed and its site charged */
  EMHEAP_TAKEN_UNRECORDED, /* counted dead, recorded nowhere (sampled out, or lost) */
  EMHEAP_TAKEN_UNSEEN,     /* exact mode: a block emheap never counted; nothing changed */
  EMHEAP_TAKEN_FOOTER      /* footer mode: as RECORDED, the record read from its footer */
};

/* record.c: the slow paths. */
void *emheap_record_new(void *p, uint32_t u, uint32_t n, uint64_t *calls);
void emheap_forget(void *p, uint32_t u, uint64_t *calls);
/* realloc's old block (u usable bytes) out of the books, and back in if
** the resize failed (which counts a failed call of `calls`). */
void emheap_take_out(void *p, uint32_t u, emheap_taken *taken);
void emheap_put_back(void *p, const emheap_taken *taken, uint64_t *calls);
/* Footer mode (footer.h): p was allocated 8 bytes larger than the n
** asked for; records it with its footer. */
void *emheap_record_footer(void *p, uint32_t n, int weighted, uint64_t *calls);
/* A block with a footer (u usable bytes before it) goes, or leaves the
** books for a resize (emheap_put_back brings it back). */
void emheap_forget_footer(void *p, uint32_t u, uint64_t *calls);
void emheap_take_out_footer(void *p, uint32_t u, emheap_taken *taken);
/* The sampling countdown just went below 0 (n bytes asked for): 1 if the
** block is sampled, 0 if not (a thread's first draw); resets it. */
int emheap_countdown_ran_out(uint32_t n);
/* Counts a call that allocated or freed nothing, and its outcome counter
** (failed_allocs, invalid_frees) unless NULL. */
void emheap_count_call(uint64_t *calls, uint64_t *outcome);

#if EMHEAP_THREADED
/* The calling thread's counting slot, or NULL: count under the lock. */
EMHEAP_FAST_PATH emheap_count_slot *emheap_my_slot(void) {
  emheap_count_slot *slot = emheap_self.count_slot;
  if (__builtin_expect(!slot && !emheap_self.count_slot_tried, 0)) slot = emheap_claim_count_slot();
  return slot;
}

EMHEAP_FAST_PATH void emheap_slot_call(emheap_count_slot *slot, uint64_t *calls) {
  if (calls) slot->calls[calls - &emheap_g.counters.malloc_calls]++;
}
#endif

/* Counts a new block (n bytes asked for, u usable) that gets no site;
** returns it. */
EMHEAP_FAST_PATH void *emheap_count_unrecorded(void *p, uint32_t u, uint32_t n, uint64_t *calls) {
#if EMHEAP_THREADED
  emheap_count_slot *slot = emheap_my_slot();
  if (__builtin_expect(slot != NULL, 1)) {
    emheap_slot_call(slot, calls);
    slot->live_bytes += (int32_t)u;
    slot->live_blocks++;
    uint32_t total = slot->total_bytes += u;
    if (__builtin_expect(total >= EMHEAP_FOLD_BYTES || *emheap_brk.sbrk_ptr != emheap_brk.last_break, 0))
      emheap_fold_now(slot, n);
    return p;
  }
#endif
  emheap_lock();
  emheap_count_one_call(calls);
  emheap_count_live(u);
  emheap_note_heap_growth(EMHEAP_SITE_UNATTRIBUTED, n);
  emheap_unlock();
  return p;
}

/* Counts a block going away that has no record (sampled mode's unsampled
** blocks, found by dlmalloc's flag). */
EMHEAP_FAST_PATH void emheap_count_unrecorded_free(uint32_t u, uint64_t *calls) {
#if EMHEAP_THREADED
  emheap_count_slot *slot = emheap_my_slot();
  if (__builtin_expect(slot != NULL, 1)) {
    emheap_slot_call(slot, calls);
    slot->live_bytes -= (int32_t)u;
    slot->live_blocks--;
    if (__builtin_expect((slot->freed_bytes += u) >= EMHEAP_FOLD_BYTES, 0)) emheap_fold_now(slot, 0);
    return;
  }
#endif
  emheap_lock();
  emheap_count_one_call(calls);
  emheap_count_dead(u);
  emheap_unlock();
}

/* A block of n requested bytes the allocator just handed out: count it (and
** record it when its size or the sampling countdown says so); returns it. */
EMHEAP_FAST_PATH void *emheap_track_new(void *p, size_t n, uint64_t *calls) {
  size_t wide = emheap_usable_size_wide(p);
  uint32_t u = (uint32_t)wide;
#if SIZE_MAX > 0xFFFFFFFFu
  /* wasm64: a block of 4 GiB or more has a size the records cannot hold;
  ** from then on JS makes no snapshot (emheap_state.giant_blocks) */
  if (__builtin_expect(wide > 0xFFFFFFFFu, 0)) __atomic_fetch_add(&emheap_g.giant_blocks, 1u, __ATOMIC_RELAXED);
#endif
  if (__builtin_expect(n >= emheap_record_threshold || (emheap_self.countdown -= n) < 0, 0))
    return emheap_record_new(p, u, (uint32_t)n, calls);
  return emheap_count_unrecorded(p, u, (uint32_t)n, calls);
}

/* 0 if p's block surely has no record and is counted only globally; 1 if
** the block table must say. Exact mode records every block until it thins
** (record.c): there a block with no record was never counted, and the
** table says so. */
EMHEAP_FAST_PATH int emheap_needs_lookup(void *p) {
  int recorded = EMHEAP_USE_FLAG && __builtin_expect(emheap_allocator == EMHEAP_ALLOCATOR_DLMALLOC, 1)
                     ? emheap_flag_is_set(p) : emheap_may_be_recorded(p);
  return recorded || __builtin_expect(__atomic_load_n(&emheap_record_threshold, __ATOMIC_RELAXED) == 0, 0);
}

/* A live block about to go back to the allocator; calls is NULL where
** the program made no call (a thread's exit). */
EMHEAP_FAST_PATH void emheap_track_free(void *p, uint64_t *calls) {
  uint32_t u = emheap_usable_size(p);
  if (!emheap_needs_lookup(p)) {
    emheap_count_unrecorded_free(u, calls);
    return;
  }
  emheap_forget(p, u, calls); /* recorded, or may be: the table says */
}

/* Footer mode (footer.h), before the allocator is asked for n bytes:
** 0 if the block will not be recorded (ask for n), 1 if it will be (ask
** for n + 8), 2 if it will be by sampling (weighted). */
EMHEAP_FAST_PATH int emheap_footer_decide(size_t n) {
  uint32_t threshold = emheap_record_threshold;
  if (__builtin_expect(threshold == 0 || n >= threshold, 1)) return n <= SIZE_MAX - EMHEAP_FOOTER_BYTES;
  if ((emheap_self.countdown -= n) >= 0) return 0;
  return emheap_countdown_ran_out((uint32_t)n) ? 2 : 0;
}

/* Footer mode: the block p, asked for as emheap_footer_decide said (how),
** for n bytes. */
EMHEAP_FAST_PATH void *emheap_footer_track_new(void *p, size_t n, int how, uint64_t *calls) {
  if (__builtin_expect(how != 0, 1)) return emheap_record_footer(p, (uint32_t)n, how == 2, calls);
  return emheap_count_unrecorded(p, emheap_usable_size(p), (uint32_t)n, calls);
}

/* record.c: emheap_record_footer (its block asked for n + 8 bytes) and
** emheap_forget_footer as emheap_fast allows: no weight, no pool, no check
** of what it guarantees. */
void *emheap_record_footer_fast(void *p, uint32_t n, uint64_t *calls);
void emheap_forget_footer_fast(void *p, uint32_t u, uint64_t *calls);

/* Footer mode: a live block going back to the allocator (fast: as
** emheap_fast allows). */
EMHEAP_FAST_PATH void emheap_footer_free_as(void *p, uint64_t *calls, int fast) {
  uint32_t u;
  if (__builtin_expect(emheap_footer_record_at(p, &u), 1)) {
#if !EMHEAP_THREADED
    if (fast) {
      emheap_forget_footer_fast(p, u, calls);
      return;
    }
#else
    (void)fast; /* (emheap_fast is 0 with threads) */
#endif
    emheap_forget_footer(p, u, calls);
    return;
  }
  emheap_track_free(p, calls); /* no record in a footer: unrecorded, or never seen */
}
EMHEAP_FAST_PATH void emheap_footer_track_free(void *p, uint64_t *calls) { emheap_footer_free_as(p, calls, 0); }

/* A live block going back to the allocator, from whichever books hold it
** (free, and a thread's exit: thread_exit.c). */
EMHEAP_FAST_PATH void emheap_track_any_free(void *p, uint64_t *calls) {
  if (emheap_footers_on()) emheap_footer_track_free(p, calls);
  else emheap_track_free(p, calls);
}

#endif /* EMHEAP_ALLOC_FAST_H */
