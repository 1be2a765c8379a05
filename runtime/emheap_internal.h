/*
** emheap_internal.h -- what the runtime's C files share beyond the state JS
** reads (state_layout.h): the allocator's break, and the functions each
** file offers the others, grouped by the file that defines them.
**
** Memory for the tables comes only from emheap_table_alloc (table_memory.c),
** which takes it from the builtin allocator and only when the heap has room
** to spare: the tracking code never calls the malloc it replaces, so it
** cannot recurse, never shows up in its own numbers, and never makes an app
** with a fixed heap run out of memory.
*/
#ifndef EMHEAP_INTERNAL_H
#define EMHEAP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "state_layout.h"

/* The allocator's break (sbrk's top), for the fast paths; C only, JS never
** reads it, so it is not part of state_layout.h. Both of Emscripten's
** allocators take all their memory from sbrk, so every block lies below the
** break, and the wasm memory only grows when the break passes its end.
** Reading the break is a plain load; memory.size is not everywhere:
** Firefox compiles it to a call (~2-3 ns each, measured on micro). */
typedef struct emheap_break_watch {
  const uintptr_t *sbrk_ptr; /* emscripten_get_sbrk_ptr() once initialized; until then a zero */
  uintptr_t last_break;      /* *sbrk_ptr after the previous allocation */
} emheap_break_watch;

extern emheap_break_watch emheap_brk;

/* state.c */
void emheap_init_slow(void);
/* Under the lock, when counters.live_bytes passes its peak: the new peak
** moment (emheap_site). Out of line: it runs only at a new high, and keeps
** the fast path that every entry point inlines small (alloc_fast.h). */
void emheap_new_peak(void);
void emheap_break_moved(uint32_t site, uint32_t request, uintptr_t now);
/* Called (under the lock) after every allocation (of `request` bytes; 0 if
** not known): one load and a compare. A memory.grow can only happen inside
** the allocator's sbrk, which moves the break: so this catches every growth
** an allocation caused and charges it to its site, and reads memory.size
** only when the break moved. */
static inline void emheap_note_heap_growth(uint32_t site, uint32_t request) {
  uintptr_t now = *emheap_brk.sbrk_ptr;
  if (__builtin_expect(now != emheap_brk.last_break, 0)) emheap_break_moved(site, request, now);
}
static inline uint64_t emheap_heap_size_now(void) {
  return (uint64_t)__builtin_wasm_memory_size(0) * 65536u;
}

/* table_memory.c: memory for emheap's own tables, or NULL when taking it
** could starve the app (see there). */
void *emheap_table_alloc(size_t bytes);
/* The same, leaving an eighth of the limits to later calls of the first. */
void *emheap_table_alloc_reserving(size_t bytes);
void emheap_table_free(void *p, size_t bytes);
/* 1 if the tables may take `bytes` more now (the rule above; reserve:
** leaving the eighth), without taking them. */
int emheap_table_fits(size_t bytes, int reserve);

/* site_table.c: chunk k's address less its first site's offset (mod the
** address space): what emheap_site_at adds to, one load on every
** allocation's path (emheap_state.site_chunk_at holds the chunks' own
** addresses, for JS). */
extern uintptr_t emheap_site_base[EMHEAP_SITE_CHUNKS];
/* Site s (s < site_capacity), wherever its chunk is. */
static inline emheap_site *emheap_site_at(uint32_t s) {
  return (emheap_site *)(emheap_site_base[emheap_site_chunk(s)] + s * sizeof(emheap_site));
}

/* site_table.c: key -> site number (under the lock). */
int emheap_sites_init(void);
/* Finds or creates the site for key; a new worker site copies `depth`
** frames from `frames`. Returns EMHEAP_SITE_UNATTRIBUTED (and counts a lost
** site) if the table cannot grow. */
uint32_t emheap_sites_intern(uint64_t key, uint32_t stack_kind, uint32_t stack_ref,
                             const uint32_t *frames, uint32_t depth, uint32_t thread);
/* The n sites with the most live bytes, most first, into ids and bytes (0
** and 0 past the last site that holds any); nonzero if any of those bytes
** are estimates. A pass over every site. */
int emheap_top_sites(uint32_t *ids, double *bytes, uint32_t n);

/* record.c (its slow paths for the entry points: alloc_fast.h): when the
** block table cannot grow in exact mode, block_table.c calls this; from
** then on blocks are sampled, as in sampled mode. */
void emheap_thin(void);

/* record.c, under the lock (a site's counts changing: site_charge.h). *//* The site of the allocation being made (a heap block's with pool 0, else
** an object's of that pool): returns with the lock held. */
uint32_t emheap_site_of_call_locked(uint32_t pool);
/* A pool object ended: its lifetime counted as a block's. */
void emheap_count_object_ended(const emheap_block *b);

/* pools.c, under the lock: a recorded heap block is freed or moved; if it
** is a pool's chunk, the objects still in it end first (a misuse). */
void emheap_pool_block_ends(const emheap_block *b);

/* block_table.c: recorded live blocks (under the lock). */
int emheap_blocks_init(void);
/* How many blocks the tables have room for now (all regions' slots). */
uint32_t emheap_blocks_capacity(void);
/* 0 if the table has no room (the block then stays unrecorded); the block
** gets the next serial. If addr
** was recorded already (its block was freed behind emheap's back), *stale
** gets that record and 1 is still returned; else stale->addr = 0. */
int emheap_blocks_insert(uintptr_t addr, uint32_t site, uint32_t size, uint32_t usable, uint32_t weighted,
                         emheap_block *stale);
/* Records again, serial and all, a record emheap_blocks_remove gave (a
** failed realloc's block); 0 if there is no room. */
int emheap_blocks_put_back(const emheap_block *b);
/* Removes addr's record into *out; 0 if addr is not recorded. */
int emheap_blocks_remove(uintptr_t addr, emheap_block *out);
/* addr's record into *out, left in the table; 0 if addr is not recorded. */
int emheap_blocks_find(uintptr_t addr, emheap_block *out);
/* Gives addr's record another site; 0 if addr is not recorded. */
int emheap_blocks_set_site(uintptr_t addr, uint32_t site);
/* The recorded block that holds addr (the one at the highest address at or
** below it, if it reaches past addr), looking back at most `regions` 4 KiB
** regions; 0 if none. */
int emheap_blocks_holding(uintptr_t addr, uint32_t regions, emheap_block *out);
/* The pools' objects, in a table of their own (pools.c), as the blocks are;
** placed (0 or 1) is kept in the record's slack. Records b as it is (a
** new object with emheap_next_serial's serial, a moved one with its own):
** 0 if there is no room; *stale as emheap_blocks_insert's. b->addr must
** be 4-aligned (pools.c refuses others first). */
int emheap_objects_put(const emheap_block *b, emheap_block *stale);
int emheap_objects_remove(uintptr_t addr, emheap_block *out);
int emheap_objects_find(uintptr_t addr, emheap_block *out);
/* Takes out every object in [lo, hi) (0, 0: all) whose site keep() does not
** keep, and calls ended() for each. */
void emheap_objects_end_where(uintptr_t lo, uintptr_t hi, int (*keep)(uint32_t site, void *ctx),
                              void (*ended)(const emheap_block *b, void *ctx), void *ctx);
/* Calls fn(serial word, ctx) for every recorded block; the word holds the
** serial and EMHEAP_BLOCK_WEIGHTED, and fn may change the serial. */
void emheap_blocks_each_serial(void (*fn)(uint32_t *serial, void *ctx), void *ctx);

/* marks.c: when the next serial would pass 2^31 - 1, numbers the live
** blocks and the marks again from 1, keeping which blocks came after which
** mark; returns the last serial given (under the lock). */
uint32_t emheap_serials_renumber(void);
/* The serial of the next recorded block, under the lock. (Past 2^31 - 1
** the live blocks are numbered again: a serial reused while its first
** block lived would name two blocks, and blocks made after a mark would
** read as made before it.) */
static inline uint32_t emheap_next_serial(void) {
  uint32_t s = emheap_g.block_serial + 1u;
  if (__builtin_expect(s > 0x7FFFFFFFu, 0)) s = emheap_serials_renumber() + 1u;
  return emheap_g.block_serial = s;
}
/* Without the lock: 0 if no block at addr is recorded (see block_table.c);
** 1 if one may be. */
#define EMHEAP_FILTER_BUCKETS 16384u /* power of two */
extern uint8_t emheap_recorded_filter[EMHEAP_FILTER_BUCKETS];
static inline uint32_t emheap_filter_bucket(uint32_t word) {
  return ((word >> 1) * 0x9E3779B1u) >> 18; /* 32 - log2(EMHEAP_FILTER_BUCKETS); (8 bytes a step) */
}
static inline int emheap_may_be_recorded(void *p) {
  return __atomic_load_n(&emheap_recorded_filter[emheap_filter_bucket(emheap_word((uintptr_t)p))], __ATOMIC_RELAXED) != 0;
}

/* roots.c: where a scan for pointers into the heap starts. */
void emheap_roots_init(void);
/* Called (under the lock) by each thread's first recorded block in
** threaded builds: its stack and thread-locals become roots. */
void emheap_roots_add_thread(void);
/* At the thread's exit (thread_exit.c): its roots go. */
void emheap_roots_remove_thread(void);

/* thread_exit.c: under the lock, once per thread that keeps something
** (roots, a counting slot): at its exit, both are handed back. */
void emheap_watch_thread_exit(void);

/* stack_capture.c: the key and stack of the allocation being made now,
** taken outside the lock (a JS capture can take microseconds), interned
** under it. Called directly from each public allocation entry point's slow
** path (the JS side drops the runtime's frames by name). */
typedef struct emheap_stack {
  uint64_t key;
  uint32_t kind, ref, depth, thread;
  const uint32_t *frames;
} emheap_stack;
/* root: see emheap_js_capture_stack (stack_capture.c); NULL if unwanted. */
void emheap_capture_stack(emheap_stack *out, uint32_t *root);
/* 0 for the main thread's JS realm, a serial from 1 for each worker's. */
uint32_t emheap_js_thread_serial(void);

/* stack_capture.c: the hash of a stack's frames, one word at a time. */
static inline uint64_t emheap_frame_mix(uint64_t h, uint32_t fn) {
  h = (h ^ fn) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

/* sampler.c (thread-local state) */
void emheap_reset_countdown(void);
/* 1/p for a block of `size` requested bytes recorded by sampling, which
** recorded it with probability p: 1 for blocks of at least the interval
** (always recorded). Its site is charged round(size/p) bytes and 1/p
** blocks (rounded to 1/65536). */
double emheap_inverse_chance(uint32_t size);

#endif /* EMHEAP_INTERNAL_H */
