/*
** emheap_internal.h -- the profiler state in linear memory, shared by the
** runtime's C files and read directly by the JS library (jslib/layout.js).
**
** Everything here is plain data at fixed offsets so that JS can read it
** with typed arrays and never call into wasm while the app is running.
** Changing any offset or meaning below means bumping EMHEAP_LAYOUT_VERSION
** in emheap.h and jslib/layout.js together; the static asserts at the end
** pin the offsets that JS relies on.
**
** Memory for the tables comes only from emscripten_builtin_malloc/free:
** the tracking code never calls the malloc it replaces, so it cannot
** recurse and never shows up in its own numbers.
*/
#ifndef EMHEAP_INTERNAL_H
#define EMHEAP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "emheap.h"

#define EMHEAP_MAGIC 0x50484d45u /* "EMHP" little-endian */

/* Stack sources. Written into every snapshot so a reader knows what the
** per-site numbers mean. */
#define EMHEAP_MODE_EXACT_JS 1 /* every allocation, stack from JS new Error().stack */

/* Site 0 collects allocations whose stack was not captured (tracking
** paused, or the site table could not grow). Its blocks are still tracked,
** so their frees stay correct and the global counters stay exact. */
#define EMHEAP_SITE_UNATTRIBUTED 0u

/* One live block. Invariant: ptr == 0 marks an empty slot (the allocators
** never return address 0). `size` is the size the app asked for. */
typedef struct emheap_block {
  uint32_t ptr;
  uint32_t size;
  uint32_t site;
} emheap_block;

/* One allocation site = one distinct call stack.
** Invariants: live_bytes == sum of sizes of live blocks with this site;
** live_blocks likewise; peak_live_bytes >= live_bytes. */
typedef struct emheap_site {
  uint64_t key;             /*  0 identity of the stack; exact-js: JS stack id */
  uint64_t live_bytes;      /*  8 */
  uint64_t total_bytes;     /* 16 bytes ever allocated here */
  uint64_t peak_live_bytes; /* 24 */
  uint64_t total_allocs;    /* 32 blocks ever allocated here */
  uint32_t live_blocks;     /* 40 */
  uint32_t stack_ref;       /* 44 exact-js: JS stack id (JS holds the frames) */
  uint32_t reserved[2];     /* 48 */
} emheap_site;              /* 56 bytes */

/* A wasm memory growth that happened inside an allocation: who made the
** heap bigger, and by how much. Kept in a ring of the last N events. */
typedef struct emheap_growth {
  uint32_t from_bytes;
  uint32_t to_bytes;
  uint32_t site;
  uint32_t reserved;
} emheap_growth;

#define EMHEAP_GROWTH_LOG 64 /* power of two */

/* The whole profiler state; one static instance, handed to JS once.
** Invariant: counters.live_blocks == block_count == sum(site.live_blocks)
** and counters.live_bytes == sum(site.live_bytes). */
typedef struct emheap_state {
  uint32_t magic;             /*   0 EMHEAP_MAGIC once initialized */
  uint32_t layout_version;    /*   4 EMHEAP_LAYOUT_VERSION */
  uint32_t mode;              /*   8 EMHEAP_MODE_* */
  uint32_t paused;            /*  12 nonzero: new blocks go to site 0 (JS may write it) */
  emheap_counters counters;   /*  16 .. 128 */
  emheap_site *sites;         /* 128 dense array, sites[0] = unattributed */
  uint32_t site_capacity;     /* 132 */
  uint32_t *site_index;       /* 136 open addressing on key: site number, 0 = empty */
  uint32_t site_index_mask;   /* 140 capacity - 1 */
  emheap_block *blocks;       /* 144 open addressing on ptr, linear probing */
  uint32_t block_mask;        /* 148 capacity - 1 */
  uint32_t block_count;       /* 152 occupied slots */
  uint32_t block_table_full;  /* 156 nonzero once growing the table failed */
  emheap_growth growth[EMHEAP_GROWTH_LOG]; /* 160 ring; event i at growth[i % LOG] */
  uint32_t last_heap_size;    /* heap size after the previous allocation */
  uint32_t in_hook;           /* reentrancy guard (see alloc_hooks.c) */
} emheap_state;

extern emheap_state emheap_g;

/* state.c */
void emheap_init_slow(void);
static inline void emheap_ensure_init(void) {
  if (__builtin_expect(emheap_g.magic != EMHEAP_MAGIC, 0)) emheap_init_slow();
}
void emheap_note_heap_growth(uint32_t site);

/* block_table.c: pointer -> (size, site). */
int emheap_blocks_init(void);
/* Returns 1 if recorded, 0 if the table could not grow (block untracked). */
int emheap_blocks_insert(uint32_t ptr, uint32_t size, uint32_t site);
/* Removes ptr; returns its slot contents in *out. 0 if ptr is not live. */
int emheap_blocks_remove(uint32_t ptr, emheap_block *out);
/* Returns the slot of a live ptr, or NULL. */
emheap_block *emheap_blocks_find(uint32_t ptr);

/* site_table.c: key -> site number. */
int emheap_sites_init(void);
/* Finds or creates the site for key. Returns EMHEAP_SITE_UNATTRIBUTED if the
** table is exhausted. */
uint32_t emheap_sites_intern(uint64_t key, uint32_t stack_ref);

/* stack_capture.c: the site of the allocation being made now. Called
** directly from each public allocation entry point (the JS side relies on
** that call depth to drop the runtime's own frames). */
uint32_t emheap_current_site(void);

/* Bookkeeping shared by every entry point (alloc_hooks.c). */
void emheap_record_alloc(void *ptr, size_t size, uint32_t site);

_Static_assert(sizeof(emheap_block) == 12, "JS reads 12-byte blocks");
_Static_assert(sizeof(emheap_site) == 56, "JS reads 56-byte sites");
_Static_assert(sizeof(emheap_counters) == 112, "JS reads 112 bytes of counters");
_Static_assert(offsetof(emheap_state, counters) == 16, "layout");
_Static_assert(offsetof(emheap_state, sites) == 128, "layout");
_Static_assert(offsetof(emheap_state, blocks) == 144, "layout");
_Static_assert(offsetof(emheap_state, growth) == 160, "layout");
_Static_assert(offsetof(emheap_counters, site_count) == 96, "layout");
_Static_assert(offsetof(emheap_counters, heap_size) == 104, "layout");

#endif /* EMHEAP_INTERNAL_H */
