/*
** record.c -- the slow paths: recording a block with its stack, and
** forgetting it at free.
**
** A recorded block has a record (site, size, serial): in footer mode
** (dlmalloc, exact: footer.h) in the block's own last 8 bytes, flagged by
** its chunk's FLAG4 bit; else in the block table (address -> record,
** block_table.c), with dlmalloc flagged the same way so that free finds it
** without a lookup. It is charged to its site with its weight (sampler.c) in
** the bytes the program asked for. The global counters count usable sizes (alloc_fast.h);
** recorded_bytes and recorded_usable say what the recorded blocks asked for
** and what they got, so the allocator's rounding is known exactly. The stack is
** taken before the lock (a JS stack takes microseconds); everything shared
** is changed under it.
**
** When the block table cannot grow (fixed heap, table_memory.c), exact
** mode samples the blocks that come after (emheap_thin below); a block that
** finds no room even so is counted globally as always and recorded
** nowhere: counters.lost_allocs and lost_bytes say how many, and the
** snapshot shows it.
*/
#include <math.h>

#include <emscripten/heap.h>

#include "alloc_fast.h"
#include "context.h"
#include "footer.h"
#include "site_charge.h"
#include "thread_state.h"

/* A block recorded by sampling stands for size/p bytes and 1/p blocks
** (sampler.c): an estimate unless p is 1. The site keeps which part of it
** is estimated, the state the sums the ratio estimator needs
** (emheap_estimate_sums). Out of line: exact mode never comes here until
** it thins. */
__attribute__((noinline)) static void charge_sampled(uint32_t site, uint32_t size, uint32_t usable, int sign,
                                                     int fresh) {
  double inverse = emheap_inverse_chance(size);
  emheap_site *s = site_to_change(site);
  if (inverse == 1) {
    add_to_site(s, size, 1, sign, fresh);
    return;
  }
  double bytes = round(size * inverse), blocks = round(65536 * inverse) / 65536;
  add_to_site(s, bytes, blocks, sign, fresh);
  s->est_bytes += sign * bytes;
  s->est_blocks += sign * blocks;
  emheap_estimate_sums *e = &emheap_g.estimates;
  e->usable += sign * round(usable * inverse);
  e->blocks += sign * blocks;
  e->usable_actual += (int64_t)sign * usable;
  e->blocks_actual += sign;
}

/* Under the lock: a recorded block of `size` requested bytes and `usable`
** usable ones comes (sign 1) or goes (-1) at its site; weighted: recorded
** by sampling; fresh as add_to_site's. */
static inline void charge_block(uint32_t site, uint32_t size, uint32_t usable, int weighted, int sign, int fresh) {
  emheap_g.recorded_bytes += (int64_t)sign * size;
  if (emheap_g.recorded_bytes > emheap_g.recorded_peak) emheap_g.recorded_peak = emheap_g.recorded_bytes;
  emheap_g.recorded_usable += (int64_t)sign * usable;
  if (__builtin_expect(weighted, 0)) {
    charge_sampled(site, size, usable, sign, fresh);
    return;
  }
  add_to_site(site_to_change(site), size, 1, sign, fresh);
}

static inline void charge(uint32_t site, uint32_t size, uint32_t usable, int weighted, int sign) {
  charge_block(site, size, usable, weighted, sign, 1);
}


/* Exact mode whose block table cannot grow (block_table.c): the blocks it
** can no longer all record are sampled instead, as in sampled mode, with
** weights, so that every site stays exact or says that it holds an
** estimate; the blocks recorded so far stay exact. Once begun, for the
** rest of the run. Under the lock. */
void emheap_thin(void) {
  if (emheap_record_threshold || emheap_g.mode != EMHEAP_MODE_EXACT) return;
  emheap_fast = 0; /* (alloc_fast.h) */
  emheap_g.thinned_at = emheap_g.counters.total_bytes + 1;
  /* The interval: as fine as the room left can hold. The heap's blocks of
  ** fewer than R bytes hold at most `max` bytes, so about max / R of them
  ** are sampled and live at any time; R = 8 max / slots keeps that to an
  ** eighth of the slots there are now, which the reserve that the refusal
  ** opens and the room left in the tables hold (block_table.c; Lua on a
  ** 16 MB heap, ~69,000 slots: 2 KiB, so a 1 MiB site is within ~4%). */
  uint32_t slots = emheap_g.footers ? emheap_footer_slots : emheap_blocks_capacity();
  uint64_t want = (uint64_t)emscripten_get_heap_max() * 8 / (slots + 1);
  uint32_t interval = 256;
  while (interval < want && interval < (1u << 30)) interval *= 2;
  emheap_g.sampling_interval = interval;
  __atomic_store_n(&emheap_record_threshold, interval, __ATOMIC_RELAXED);
}

void emheap_count_call(uint64_t *calls, uint64_t *outcome) {
  emheap_lock();
  emheap_count_one_call(calls);
  if (outcome) (*outcome)++;
  emheap_unlock();
}

/* jslib/library_emheap.js: 1 if two JS stack references read as one stack
** once cleaned (raw stacks that differ only in glue or in the depth of a
** direct recursion are one site in every snapshot). */
extern uint32_t emheap_js_same_stack(uint32_t ref_a, uint32_t ref_b);

/* The checking mode (context.h): do two sites name one stack? */
static int same_stack(uint32_t a, uint32_t b) {
  const emheap_site *x = emheap_site_at(a), *y = emheap_site_at(b);
  if (x->stack_kind != EMHEAP_STACK_JS || y->stack_kind != EMHEAP_STACK_JS || x->thread != y->thread) return 0;
  return emheap_js_same_stack(x->stack_ref, y->stack_ref) != 0;
}

/* The usable size a record was made with, or (slack not kept) `now`. */
static inline uint32_t usable_of(const emheap_block *b, uint32_t now) {
  uint32_t slack = emheap_block_slack(b);
  return slack == EMHEAP_SLACK_UNKNOWN ? now : b->size + slack;
}

static inline int is_weighted(const emheap_block *b) { return (b->serial & EMHEAP_BLOCK_WEIGHTED) != 0; }

/* Under the lock: a recorded block ended (freed, or moved or resized by
** realloc); counts how long it lived at its site (emheap_site.ended_*).
** Only in exact mode before it thins, where every allocation is recorded
** and so serials count allocations; the caller checks that. Returns what
** it counted, for emheap_put_back to take back: 1 << 31 | age bucket |
** time bucket << 4 | temporary << 8.
**
** Kept to what free must do: most blocks are younger than a second (one
** compare, not three), and a single-threaded runtime counts no temporary
** apart, since there it is the age-0 bucket (emheap_site.temporary). As
** first written (three compares, a thread-local serial stored at every
** allocation and compared at every free) lifetimes cost micro 5.6% (node,
** paired against the runtime without them); this way 3-5% in node,
** Chromium and Firefox, Lua 0-8% as runs spread (bench/README.md). */
#define ENDED_COUNTED 0x80000000u
static inline uint32_t count_ended(const emheap_block *b) {
  uint32_t serial = b->serial;
  uint32_t age = emheap_g.block_serial - serial; /* blocks recorded after it */
  uint32_t by_age = age ? 1u + (31u - (uint32_t)__builtin_clz(age)) / 4u : 0u;
  if (by_age >= EMHEAP_AGE_BUCKETS) by_age = EMHEAP_AGE_BUCKETS - 1u;
  const uint32_t *older = emheap_g.age_serial; /* made at least 1 s, 10 s, 100 s before the newest point */
  uint32_t by_time = 0;
  if (__builtin_expect(serial <= older[0], 0)) by_time = 1u + (serial <= older[1]) + (serial <= older[2]);
  emheap_site *s = emheap_site_at(emheap_block_site(b));
  s->ended_by_age[by_age] += s->ended_by_age[by_age] != UINT32_MAX;
  s->ended_by_time[by_time] += s->ended_by_time[by_time] != UINT32_MAX;
  uint32_t temporary = 0;
#if EMHEAP_THREADED
  temporary = serial == emheap_self.last_serial && emheap_self.last_renumber == emheap_g.serial_renumbers;
  s->temporary += temporary & (s->temporary != UINT32_MAX);
#endif
  return ENDED_COUNTED | by_age | by_time << 4 | temporary << 8;
}

/* A pool object ended (pools.c), under the lock: its lifetime, counted as
** a block's is (only where serials count every allocation). */
void emheap_count_object_ended(const emheap_block *b) {
  if (emheap_record_threshold == 0) (void)count_ended(b);
}

/* A failed realloc's block lives on: what count_ended counted goes back
** (a saturated count stays). Under the lock. */
static void uncount_ended(const emheap_block *b, uint32_t ended) {
  emheap_site *s = emheap_site_at(emheap_block_site(b));
  uint32_t *age = &s->ended_by_age[ended & 15u], *time = &s->ended_by_time[(ended >> 4) & 15u];
  if (*age != UINT32_MAX) (*age)--;
  if (*time != UINT32_MAX) (*time)--;
  if ((ended >> 8) & 1u && s->temporary != UINT32_MAX) s->temporary--;
}

/* Under the lock: a block that should have been recorded finds no room
** (u usable bytes): it is counted, recorded nowhere, and exact mode thins. */
static void lose_record(uint32_t u) {
  emheap_g.counters.lost_allocs++;
  emheap_g.counters.lost_bytes += u;
  emheap_thin();
}

/* footer_fits' slow part. */
__attribute__((noinline)) static int footer_granted(void) {
  if (emheap_record_threshold == 0 && emheap_footers_grant(1)) return 1;
  emheap_thin(); /* (does nothing once thinned) */
  return emheap_footers_grant(0);
}

/* Footer mode: the budget has room for one more footer. While every
** block is recorded the footers leave an eighth of the budget, which the
** blocks sampled after it ran out take. */
static inline int footer_fits(void) {
  if (__builtin_expect(emheap_g.blocks.count < emheap_footer_slots, 1)) return 1;
  return footer_granted();
}

/* Under the lock, which it releases: the footer-mode record_locked. p's
** usable size is u + 8 (the footer's bytes, footer.h). */
static inline __attribute__((always_inline)) void *record_footer_locked(void *p, uint32_t u, uint32_t n,
                                                                       int weighted, uint64_t *calls, uint32_t site,
                                                                       int fast) {
  emheap_count_one_call(calls);
  if (EMHEAP_THREADED && !emheap_self.roots_added) emheap_roots_add_thread();
  uint32_t slack = u - n;
  if (__builtin_expect(!footer_fits() || (!fast && !emheap_g.site_chunks) || slack > EMHEAP_FOOTER_SLACK_MAX, 0)) {
    /* recorded nowhere: no flag (with threads the caller takes back the
    ** one it set), and the program may use the 8 bytes */
    u += EMHEAP_FOOTER_BYTES;
    if (EMHEAP_THREADED) emheap_self.last_serial = 0; /* as record_locked's */
    lose_record(u);
  } else {
    emheap_g.counters.table_bytes += EMHEAP_FOOTER_BYTES;
    emheap_footer *f = emheap_footer_at(p, u);
    f->site_slack = site | slack << EMHEAP_SITE_BITS;
    f->serial = emheap_next_serial() | (weighted ? EMHEAP_BLOCK_WEIGHTED : 0u);
    emheap_g.blocks.count++;
    charge(site, n, u, weighted, 1);
    emheap_g.counters.sampled_allocs++;
    emheap_self.last_block = (uintptr_t)p;
#if EMHEAP_THREADED
    emheap_self.last_serial = emheap_g.block_serial; /* the serial it just got */
    emheap_self.last_renumber = emheap_g.serial_renumbers;
#else
    emheap_flag_set(p); /* (with threads: before, footer.h) */
#endif
  }
  emheap_count_live(u); /* after the charge: a peak it makes includes this block */
  emheap_note_heap_growth(site, n);
  emheap_unlock();
  return p;
}

/* Under the lock, which it releases: charges the new block p (n bytes
** asked for, u usable) to site; weighted: recorded by sampling. */
static inline __attribute__((always_inline)) void *record_locked(void *p, uint32_t u, uint32_t n, int weighted,
                                                                 uint64_t *calls, uint32_t site, int footer, int fast) {
  if (footer) return record_footer_locked(p, u, n, weighted, calls, site, fast);
  emheap_count_one_call(calls);
  if (EMHEAP_THREADED && !emheap_self.roots_added) emheap_roots_add_thread();
  emheap_block stale;
  if (emheap_g.site_chunks && emheap_blocks_insert((uintptr_t)p, site, n, u, weighted, &stale)) {
    if (stale.addr) { /* freed behind emheap's back, and handed out again */
      uint32_t stale_usable = usable_of(&stale, u);
      emheap_count_dead(stale_usable);
      charge(emheap_block_site(&stale), stale.size, stale_usable, is_weighted(&stale), -1);
    }
    charge(site, n, u, weighted, 1);
    emheap_g.counters.sampled_allocs++;
    emheap_self.last_block = (uintptr_t)p;
#if EMHEAP_THREADED
    emheap_self.last_serial = emheap_g.block_serial; /* the serial it just got */
    emheap_self.last_renumber = emheap_g.serial_renumbers;
#endif
    if (EMHEAP_USE_FLAG && emheap_allocator == EMHEAP_ALLOCATOR_DLMALLOC) emheap_flag_set(p);
  } else {
    if (EMHEAP_THREADED) emheap_self.last_serial = 0; /* it allocated: its block before is no longer its last */
    /* (No site table at all, it could not be made: exact mode can no
    ** longer tell a block it never saw from this one, emheap_forget.) */
    lose_record(u);
  }
  emheap_count_live(u); /* after the charge: a peak it makes includes this block */
  emheap_note_heap_growth(site, n);
  emheap_unlock();
  return p;
}

__attribute__((noinline)) int emheap_countdown_ran_out(uint32_t n) {
  int first = !emheap_self.countdown_started;
  emheap_self.countdown_started = 1;
  emheap_reset_countdown();
  /* A thread's countdown starts at 0: draw it, then decide afresh. */
  return !(first && (emheap_self.countdown -= n) >= 0);
}

/* The site of the allocation being made, named by its calling context or
** its stack: a heap block's (pool 0), or an object of pool `pool`, whose
** stacks are sites of their own (the key and the context mixed with the
** pool's number). Returns with the lock held. */
static inline __attribute__((always_inline)) uint32_t site_of_call_locked(uint32_t pool, int fast) {
  int paused = __atomic_load_n(&emheap_g.paused, __ATOMIC_RELAXED) != 0;
  /* Calling contexts: a context seen before names its site (context.h). */
  uint64_t context = 0;
  uint32_t expected = UINT32_MAX; /* the checking mode: what the context said */
  uint64_t salt = pool ? (uint64_t)pool * 0xD6E8FEB86659FD93ull : 0;
  if ((fast || emheap_contexts_on) && !paused) {
    uint32_t jsid = emheap_cc_js();
    if (jsid) {
      uint32_t lo = emheap_cc_lo(), hi = emheap_cc_hi();
      int verify = !fast && emheap_context_checks.verify != 0;
      /* the context of this thread's last allocation (thread_state.h) */
      if (lo == emheap_self.ctx_lo && hi == emheap_self.ctx_hi && jsid == emheap_self.ctx_js && !pool &&
          emheap_self.ctx_site && __builtin_expect(!verify, 1)) {
        emheap_lock();
        return emheap_self.ctx_site;
      }
      context = emheap_context_key_of(lo, hi, jsid, emheap_context_realm()) ^ salt;
      emheap_lock();
      uint32_t site = emheap_contexts_find(context);
      if (site != UINT32_MAX) {
        if (__builtin_expect(!verify, 1)) {
          if (!pool) {
            emheap_self.ctx_lo = lo;
            emheap_self.ctx_hi = hi;
            emheap_self.ctx_js = jsid;
            emheap_self.ctx_site = site;
          }
          return site;
        }
        expected = site;
      }
      emheap_unlock();
    }
  }
  emheap_stack st;
  st.kind = EMHEAP_STACK_NONE;
  uint32_t root = 0;
  if (!paused) emheap_capture_stack(&st, emheap_contexts_on ? &root : NULL);
  if (root) {
    emheap_cc_set_js(root);
    context = emheap_context_key(root, emheap_context_realm()) ^ salt;
  }

  emheap_lock();
  uint32_t site = EMHEAP_SITE_UNATTRIBUTED;
  if (st.kind != EMHEAP_STACK_NONE) {
    site = emheap_sites_intern(pool ? emheap_frame_mix(st.key, pool) : st.key, st.kind, st.ref, st.frames, st.depth,
                               st.thread);
    if (pool && site != EMHEAP_SITE_UNATTRIBUTED) emheap_site_at(site)->pool = pool;
    if (st.kind != EMHEAP_STACK_JS && st.depth && st.frames[0] == EMHEAP_FRAME_TRUNCATED)
      emheap_g.counters.truncated_stacks++;
    if (root && context) emheap_contexts_add(context, site);
    if (expected != UINT32_MAX) {
      emheap_context_checks.checked++;
      emheap_context_checks.mismatches += expected != site && !same_stack(expected, site);
    }
  }
  return site;
}

/* The stack or context of the allocation being made names its site, and
** the block is recorded: in the block table, or (footer) in its footer. */
static inline __attribute__((always_inline)) void *record_new_as(void *p, uint32_t u, uint32_t n, int weighted,
                                                                 uint64_t *calls, int footer, int fast) {
  uint32_t site = site_of_call_locked(0, fast);
  return record_locked(p, u, n, weighted, calls, site, footer, fast);
}

uint32_t emheap_site_of_call_locked(uint32_t pool) { return site_of_call_locked(pool, 0); }

__attribute__((noinline)) void *emheap_record_new(void *p, uint32_t u, uint32_t n, uint64_t *calls) {
  /* sampled (or thinned exact) mode: a block below the interval is here by
  ** the countdown, and stands for more than itself */
  int weighted = n < __atomic_load_n(&emheap_record_threshold, __ATOMIC_RELAXED);
  if (weighted && !emheap_countdown_ran_out(n)) return emheap_count_unrecorded(p, u, n, calls);
  return record_new_as(p, u, n, weighted, calls, 0, 0);
}

__attribute__((noinline)) void *emheap_record_footer(void *p, uint32_t n, int weighted, uint64_t *calls) {
  uint32_t u = emheap_usable_size(p) - EMHEAP_FOOTER_BYTES;
#if EMHEAP_THREADED
  /* flagged, and not a record until its serial is set (footer.h) */
  emheap_footer *f = emheap_footer_at(p, u);
  f->serial = 0;
  emheap_footer_flag_set(p);
  record_new_as(p, u, n, weighted, calls, 1, 0);
  if (!f->serial) emheap_footer_flag_clear(p); /* it found no room: no record, no flag */
  return p;
#else
  return record_new_as(p, u, n, weighted, calls, 1, 0);
#endif
}

#if !EMHEAP_THREADED
__attribute__((noinline)) void *emheap_record_footer_fast(void *p, uint32_t n, uint64_t *calls) {
  uint32_t u = (uint32_t)emheap_dl_usable_size(p) - EMHEAP_FOOTER_BYTES;
  return record_new_as(p, u, n, 0, calls, 1, 1);
}
#endif

/* A record whose usable size is not the block's is stale: its block was
** freed behind emheap's back and the address handed out again (Emscripten
** up to 3.1.13 takes a thread's struct and stack from malloc and frees
** them with its builtin allocator). Both are gone now. Under the lock;
** fills *taken (what was taken out of the books, for emheap_put_back).
** Inlined into both callers by force: left to clang, free's path took a
** call more and micro cost 1-2% more (paired, node). */
static inline __attribute__((always_inline)) void forget_locked(void *p, uint32_t u, uint64_t *calls,
                                                                emheap_taken *taken) {
  emheap_block *b = &taken->block;
  emheap_count_one_call(calls);
  uint32_t gone = u;
  int found = emheap_blocks_remove((uintptr_t)p, b);
  uint32_t exact = emheap_record_threshold == 0; /* exact mode, not thinned */
  taken->ended = 0;
  if (!found && exact) {
    /* Exact mode, not thinned: every block emheap counted has a record,
    ** so this one was allocated around malloc (mimalloc's nothrow new,
    ** an app's operator new that calls the allocator itself). It was
    ** never counted live; counting it dead would take its bytes off the
    ** blocks emheap did see. */
    emheap_g.unseen_frees++;
    emheap_g.unseen_bytes += u;
    taken->kind = EMHEAP_TAKEN_UNSEEN;
    return;
  }
  if (found) {
    uint32_t was = usable_of(b, u);
    if (__builtin_expect(emheap_g.pool_count != 0, 0)) emheap_pool_block_ends(b);
    charge(emheap_block_site(b), b->size, was, is_weighted(b), -1);
    if (exact && !is_weighted(b)) taken->ended = count_ended(b);
    /* emmalloc grows a live block when it pads an aligned neighbour
    ** (allocator.h): the pad was never counted live, and goes back to free
    ** space with the block; what was counted goes. Elsewhere a record of
    ** another size is stale (above): in threaded builds its block's count
    ** goes too. */
    if (emheap_allocator == EMHEAP_ALLOCATOR_EMMALLOC) gone = was;
    else if (EMHEAP_THREADED && was != u) emheap_count_dead(was);
  }
  emheap_count_dead(gone);
  taken->kind = found ? EMHEAP_TAKEN_RECORDED : EMHEAP_TAKEN_UNRECORDED;
  taken->usable = gone;
}

__attribute__((noinline)) void emheap_forget(void *p, uint32_t u, uint64_t *calls) {
  emheap_taken taken;
  emheap_lock();
  forget_locked(p, u, calls, &taken);
  emheap_unlock();
  if (EMHEAP_USE_FLAG && emheap_allocator == EMHEAP_ALLOCATOR_DLMALLOC) emheap_flag_clear(p);
}

/* A footer read back is one emheap wrote: a site that exists, a serial it
** gave, a slack within the block (checking builds). */
#ifdef EMHEAP_CHECKING
#include <assert.h>
static void assert_footer(const emheap_block *b, uint32_t u) {
  uint32_t serial = b->serial & ~EMHEAP_BLOCK_WEIGHTED;
  assert(emheap_block_site(b) < emheap_g.counters.site_count || emheap_block_site(b) == EMHEAP_SITE_UNATTRIBUTED);
  assert(serial && serial <= emheap_g.block_serial);
  assert(b->size <= u);
}
#else
#define assert_footer(b, u) ((void)0)
#endif

/* A heap block ended that may be a pool's chunk (pools.c): out of line,
** and its record passed as words, so that free's path keeps it in locals
** (the struct's address taken there cost a stack frame and four stores). */
__attribute__((noinline)) static void pool_block_ends(uint32_t addr, uint32_t site_slack, uint32_t size,
                                                      uint32_t serial) {
  emheap_block b = {addr, site_slack, size, serial};
  emheap_pool_block_ends(&b);
}

/* Footer mode, under the lock: the block p (u usable bytes, a footer
** after them) out of the books; *b gets its record, and the result is what
** its lifetime counted (count_ended, or 0). The footer is left as it is:
** a failed realloc puts it back (emheap_put_back). */
static inline __attribute__((always_inline)) uint32_t footer_take_locked(void *p, uint32_t u, emheap_block *b,
                                                                        int fast) {
  emheap_footer *f = emheap_footer_at(p, u);
  b->addr = emheap_word((uintptr_t)p);
  b->site_slack = f->site_slack;
  b->serial = f->serial;
  b->size = u - (f->site_slack >> EMHEAP_SITE_BITS);
  assert_footer(b, u);
  int weighted = is_weighted(b);
  if (!fast && __builtin_expect(emheap_g.pool_count != 0, 0))
    pool_block_ends(b->addr, b->site_slack, b->size, b->serial);
  charge(emheap_block_site(b), b->size, u, weighted, -1);
  uint32_t ended = (fast || emheap_record_threshold == 0) && !weighted ? count_ended(b) : 0;
  emheap_count_dead(u);
  emheap_g.blocks.count--;
  emheap_g.counters.table_bytes -= EMHEAP_FOOTER_BYTES;
  f->serial = 0; /* no record any more (footer.h) */
  return ended;
}

/* The block's flag stays for dlfree, which comes next (footer.h): serial
** 0 says the footer is no record until dlfree writes the chunk's head, and
** where it leaves it. With threads, the flag's clearing cost a take of
** dlmalloc's mutex at every free. */
__attribute__((noinline)) void emheap_forget_footer(void *p, uint32_t u, uint64_t *calls) {
  emheap_block b;
  emheap_lock();
  emheap_count_one_call(calls);
  (void)footer_take_locked(p, u, &b, 0);
  emheap_unlock();
}

#if !EMHEAP_THREADED
__attribute__((noinline)) void emheap_forget_footer_fast(void *p, uint32_t u, uint64_t *calls) {
  emheap_block b;
  emheap_count_one_call(calls);
  (void)footer_take_locked(p, u, &b, 1);
}
#endif

__attribute__((noinline)) void emheap_take_out_footer(void *p, uint32_t u, emheap_taken *taken) {
  emheap_lock();
  taken->ended = footer_take_locked(p, u, &taken->block, 0);
  taken->kind = EMHEAP_TAKEN_FOOTER;
  taken->usable = u;
  emheap_unlock();
  emheap_footer_flag_clear(p);
}

__attribute__((noinline)) void emheap_take_out(void *p, uint32_t u, emheap_taken *taken) {
  if (!emheap_needs_lookup(p)) {
    emheap_count_unrecorded_free(u, NULL);
    taken->kind = EMHEAP_TAKEN_UNRECORDED;
    taken->usable = u;
    taken->ended = 0;
    return;
  }
  emheap_lock();
  forget_locked(p, u, NULL, taken);
  emheap_unlock();
  if (EMHEAP_USE_FLAG && emheap_allocator == EMHEAP_ALLOCATOR_DLMALLOC && taken->kind == EMHEAP_TAKEN_RECORDED)
    emheap_flag_clear(p);
}

/* The block keeps its serial, so its age against the marks stays true;
** its site's totals counted it when it came, and do not count it again. */
__attribute__((noinline)) void emheap_put_back(void *p, const emheap_taken *taken, uint64_t *calls) {
  /* a footer's flag first, its record (serial) after (footer.h) */
  if (taken->kind == EMHEAP_TAKEN_FOOTER) emheap_footer_flag_set(p);
  emheap_lock();
  emheap_count_one_call(calls);
  emheap_g.counters.failed_allocs++;
  int flag = 0;
  if (taken->kind == EMHEAP_TAKEN_FOOTER) { /* its footer is still there, unchanged */
    const emheap_block *b = &taken->block;
    if (taken->ended) uncount_ended(b, taken->ended);
    emheap_g.blocks.count++;
    emheap_g.counters.table_bytes += EMHEAP_FOOTER_BYTES;
    charge_block(emheap_block_site(b), b->size, taken->usable, is_weighted(b), 1, 0);
    emheap_footer_at(p, taken->usable)->serial = b->serial;
  } else if (taken->kind == EMHEAP_TAKEN_RECORDED) {
    const emheap_block *b = &taken->block;
    if (taken->ended) uncount_ended(b, taken->ended);
    if (emheap_blocks_put_back(b)) {
      charge_block(emheap_block_site(b), b->size, usable_of(b, taken->usable), is_weighted(b), 1, 0);
      flag = 1;
    } else { /* as record_locked does when a block finds no room */
      emheap_g.counters.lost_allocs++;
      emheap_g.counters.lost_bytes += taken->usable;
      emheap_thin();
    }
  }
  if (taken->kind != EMHEAP_TAKEN_UNSEEN) {
    emheap_count_live(taken->usable);
    emheap_g.counters.total_bytes -= taken->usable; /* not a new block */
  }
  emheap_unlock();
  if (flag && EMHEAP_USE_FLAG && emheap_allocator == EMHEAP_ALLOCATOR_DLMALLOC) emheap_flag_set(p);
}
