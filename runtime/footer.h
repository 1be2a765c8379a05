/*
** footer.h -- a recorded block's record kept in the block itself: the
** footer mode of exact mode (builds with dlmalloc).
**
** A block that will be recorded is asked of dlmalloc 8 bytes larger; its
** last 8 usable bytes hold the record (site, slack, serial) and its chunk
** head's FLAG4 says it has one (allocator.h). The program sees the block
** without them: malloc_usable_size says usable - 8 (alloc_hooks.c), and so
** do the counters. free reads the record at the block's end, which
** dlmalloc's free reads anyway (the next chunk's head follows it), instead
** of looking the address up in the block table, whose slot was the costliest
** cache miss of exact mode's free (bench/README.md).
**
** Why a footer and not a prefix: the program's pointer stays the
** allocator's, so alignment, memalign and blocks freed with the builtin
** allocator behave as without emheap, and 8 bytes keep dlmalloc's 8-byte
** alignment where a prefix would have to keep the block's.
**
** Why dlmalloc only: emmalloc has no spare bit, and snapshots find the
** footers by walking dlmalloc's chunks (capture/allocator_walk.js).
**
** With threads, dlmalloc rewrites an in-use chunk's head (its PINUSE bit,
** when the chunk before it is allocated or freed) with a plain
** read-modify-write under its own mutex. FLAG4 is therefore set (and,
** for realloc's old block, cleared) under that mutex
** (emheap_footer_flag_set below): written with
** atomic ORs instead, ~50 of 2.4M flags were lost in the threads bench
** (4 threads), each a block freed as if never seen. A thread takes that
** mutex outside emheap's lock, never inside it: an out-of-memory report is
** made inside dlmalloc, holding the mutex, and takes emheap's lock
** (capture/out_of_memory_moment.js). So the flag and the record are not changed at
** one moment, and the footer's serial says which is which: 0 while a
** flagged block is not (yet, or any more) a record. A new block's footer
** gets serial 0 and then its flag, and its record under emheap's lock; a
** block going away loses its record (serial 0) under emheap's lock, and
** keeps its flag for dlfree, which writes the chunk's head (realloc's old
** block loses it first: dlrealloc may keep the chunk). One chunk dlfree
** does not write: one it merges into the free chunk before it, whose old
** head, flag included, stays in the merged chunk's body, where a second
** free of the pointer finds it. Its serial stays 0 there: the serial is
** the footer's first word, and the second, the next chunk's prev_foot,
** is where dlfree writes the merged chunk's size. Walks of the chunks hold emheap's lock and the mutex
** (marks' in C, footer.c; snapshots' in JS, emheap_hold_allocator), and
** take a flagged chunk for a record only where its serial is not 0.
**
** Invariants (footer mode): a chunk with FLAG4 set and a footer whose
** serial is not 0 is a live block with a record (emheap_footer_record_at);
** every recorded block has one, and the block table holds none;
** block_count is the number of footers. A slack too large for the footer's
** 12 bits (which dlmalloc never makes: at most its 16-byte minimum chunk
** plus its 8-byte rounding) would leave its block unrecorded, counted as
** lost (record.c). counters.table_bytes counts 8 bytes per footer: they
** are emheap's memory, not the program's.
*/
#ifndef EMHEAP_FOOTER_H
#define EMHEAP_FOOTER_H

#include <stdint.h>

#include "allocator.h"
#include "emheap_internal.h"
#include "lock.h"

/* The serial first: the second word is the next chunk's prev_foot, which
** dlfree writes when it frees this chunk (above). */
typedef struct emheap_footer {
  uint32_t serial;     /* as emheap_block's, EMHEAP_BLOCK_WEIGHTED included; 0: no record */
  uint32_t site_slack; /* site | slack << EMHEAP_SITE_BITS; slack = usable - requested bytes */
} emheap_footer;
_Static_assert(__builtin_offsetof(emheap_footer, serial) == 0, "dlfree writes the footer's second word");

#define EMHEAP_FOOTER_BYTES 8u
/* Slacks from 0 to this fit a footer. */
#define EMHEAP_FOOTER_SLACK_MAX ((1u << (32u - EMHEAP_SITE_BITS)) - 1u)

/* Whether this run keeps records in footers: a load of emheap_state.footers,
** decided once at startup (the entry points ask for 8 bytes more for the
** blocks they record), not a build-time switch as EMHEAP_THREADED is. */
static inline int emheap_footers_on(void) { return emheap_g.footers != 0; }
/* The bytes to ask the allocator for: n, and the footer's when how (as
** emheap_footer_decide says) is nonzero. */
#define EMHEAP_FOOTER_REQUEST(n, how) ((how) ? (n) + EMHEAP_FOOTER_BYTES : (n))

/* The footer of a block of p whose usable size, as the program sees it,
** is u: it lies right after those u bytes. */
static inline emheap_footer *emheap_footer_at(void *p, uint32_t u) { return (emheap_footer *)((char *)p + u); }

/* Whether dlmalloc's block p holds a record in its footer: its flag set
** and its serial not 0. A flagged block with serial 0 holds none: its
** record is being made or found no room, or the block was freed and is
** passed again after dlfree consolidated it backward, which leaves its
** old head in place. *u gets the usable bytes before the footer. */
static inline int emheap_footer_record_at(void *p, uint32_t *u) {
  uint32_t head = (uint32_t)*emheap_head_word(p);
  if (!(head & DL_FLAG4)) return 0;
  *u = (head & DL_SIZE_MASK) - EMHEAP_HEAD_BYTES - EMHEAP_FOOTER_BYTES;
  return emheap_footer_at(p, *u)->serial != 0;
}

/* In threaded builds dlmalloc's mutex lies right before its first segment
** record (dlmalloc_state.h DL_SEG_PTHREAD_LOCK). A threaded runtime takes
** footer mode only where JS found the segment record there (state.c). */
#if EMHEAP_THREADED
static inline pthread_mutex_t *emheap_dl_mutex(void) {
  return (pthread_mutex_t *)(uintptr_t)(emheap_g.dl_seg - sizeof(pthread_mutex_t));
}
/* dlmalloc's heap held still (its mutex taken) or let go: around a write
** of a chunk head (outside emheap's lock), or a walk of the chunks (inside
** it, above). */
static inline void emheap_dl_hold(void) { pthread_mutex_lock(emheap_dl_mutex()); }
static inline void emheap_dl_release(void) { pthread_mutex_unlock(emheap_dl_mutex()); }
#else
static inline void emheap_dl_hold(void) {}
static inline void emheap_dl_release(void) {}
#endif

/* A block's footer flag: under dlmalloc's mutex with threads, outside
** emheap's lock (above). */
static inline void emheap_footer_flag_set(void *p) {
  emheap_dl_hold();
  emheap_flag_set(p);
  emheap_dl_release();
}
static inline void emheap_footer_flag_clear(void *p) {
  emheap_dl_hold();
  emheap_flag_clear(p);
  emheap_dl_release();
}

/* footer.c */
/* The footers the tables' budget has granted (table_memory.c): a record
** may take a footer while block_count is below it. Granted footers count
** against the budget whether taken or not, as a block table's empty slots
** do, so that the sites' growth cannot take the room they were given. */
extern uint32_t emheap_footer_slots;
/* Under the lock, when block_count reached emheap_footer_slots: 1 if the
** budget grants more, 0 if not. reserving: leave an eighth of the budget
** for later, as the block table's own growth does while every block is
** recorded. */
int emheap_footers_grant(int reserving);
/* The granted footers' bytes not in use: what table_memory.c counts on
** top of counters.table_bytes. */
static inline uint64_t emheap_footers_unused_bytes(void) {
  uint32_t slots = emheap_footer_slots, used = emheap_g.blocks.count;
  return emheap_g.footers && slots > used ? (uint64_t)(slots - used) * EMHEAP_FOOTER_BYTES : 0;
}
/* Calls fn(serial word, ctx) for every block with a footer (marks.c's
** renumbering): a walk of dlmalloc's chunks. */
void emheap_footers_each_serial(void (*fn)(uint32_t *serial, void *ctx), void *ctx);
/* The record of the block holding addr, by a walk of the chunks up to it. */
int emheap_footer_block_holding(uintptr_t addr, emheap_block *out);
/* The record of the block at p, if it has one. */
int emheap_footer_record(uintptr_t p, emheap_block *out);
/* Block p's record (it has one) gets another site. */
void emheap_footer_set_site(uintptr_t p, uint32_t site);

#endif /* EMHEAP_FOOTER_H */
