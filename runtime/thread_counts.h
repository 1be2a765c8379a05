/*
** thread_counts.h -- in -pthread builds, each thread counts the blocks that
** get no site in a slot of its own, and folds the slot into the global
** counters now and then: the default mode's fast path takes no lock.
**
** Why: in sampled mode most allocations and frees are only counted (four
** adds). Under one global lock, 4 threads allocating at once ran 1.4-1.9x
** slower than a wrapper that only forwards (make bench, threads): every
** call moved the lock's cache line between cores, and with more threads
** than cores a thread preempted inside the lock stalls all others. A slot
** is a cache line that one thread writes.
**
** Invariant: the true counters are emheap_g.counters plus every slot. A
** slot is written only by its own thread: outside the lock by the fast path,
** under it when the thread folds it (adds it to emheap_g.counters and zeroes
** it). Readers (emheap_get_counters, capture/layout.js readCounters) add the
** slots up under the lock, so a fold is never seen half done; the fast
** path's adds may be a few behind, each field whole (aligned 32-bit words).
**
** A thread folds when its slot has counted FOLD_BYTES allocated or freed
** (so each field stays far below 2^31), when the allocator's break moved
** (so heap growth is logged at once), and when it exits (pthread key
** destructor, thread_exit.c); its slot is then free for a new thread. A
** thread that finds no free slot counts under the lock as before.
**
** Consequences, both in threaded builds only:
**   - emheap_g.counters.live_bytes and live_blocks are kept modulo 2^64 and
**     2^32 and may be below zero for a moment (a thread frees what another
**     allocated and has not folded yet): compared as signed, and readers
**     clamp the sums at 0;
**   - a new peak of live bytes is seen when a fold brings it: the peak is
**     found to within FOLD_BYTES per thread (sampled mode; in exact mode
**     every block is recorded under the lock and no slot is used).
*/
#ifndef EMHEAP_THREAD_COUNTS_H
#define EMHEAP_THREAD_COUNTS_H

#include <stdint.h>

#include "emheap.h"

#define EMHEAP_COUNT_SLOTS 64       /* threads counting at once without the lock */
#define EMHEAP_FOLD_BYTES (64 << 10)

/* Which of emheap_counters' call counters (malloc_calls .. free_calls, in
** that order there). */
#define EMHEAP_CALL_KINDS 5

typedef struct emheap_count_slot {
  int32_t live_bytes;                /*  0 allocated minus freed since the last fold */
  int32_t live_blocks;               /*  4 */
  uint32_t total_bytes;              /*  8 allocated since the last fold */
  uint32_t freed_bytes;              /* 12 freed since the last fold (decides when to fold) */
  uint32_t calls[EMHEAP_CALL_KINDS]; /* 16 */
  uint32_t in_use;                   /* 36 claimed by a live thread (changed under the lock) */
  uint32_t reserved[6];              /* 40 .. 64: one cache line per slot */
} emheap_count_slot;

extern emheap_count_slot emheap_count_slots[EMHEAP_COUNT_SLOTS];

/* thread_counts.c: the calling thread's slot, claimed now if it has none;
** NULL if none is free (or it exited): count under the lock. */
emheap_count_slot *emheap_claim_count_slot(void);
/* Takes the lock, folds, and logs a heap growth if the break moved (made by
** an allocation of `request` bytes; 0 from a free). */
void emheap_fold_now(emheap_count_slot *slot, uint32_t request);
/* At thread exit (thread_exit.c): folds the thread's slot and frees it. */
void emheap_release_count_slot(void);
/* Under the lock: emheap_g.counters plus every slot, live values clamped
** at 0 and the peaks at least the live values. */
void emheap_sum_counters(emheap_counters *out);

#endif /* EMHEAP_THREAD_COUNTS_H */
