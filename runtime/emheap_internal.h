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

/* What is recorded. The stack source (JS or shadow) is per site. */
#define EMHEAP_MODE_EXACT 1   /* every allocation gets a site */
#define EMHEAP_MODE_SAMPLED 2 /* Poisson sampling by bytes; sites hold estimates */

/* Mean bytes between samples. Measured (make bench, SQLite workload, node):
** 64 KiB cost 1.14x, 512 KiB 1.02x; 256 KiB keeps a 16 MiB site within
** about 12% (relative error ~ sqrt(interval / site bytes)). */
#define EMHEAP_DEFAULT_INTERVAL (256u * 1024u)

/* Site 0 collects allocations whose stack was recorded but could not be
** attributed (tracking paused, or the site table could not grow). */
#define EMHEAP_SITE_UNATTRIBUTED 0u

/* How a site's stack is stored. */
#define EMHEAP_STACK_NONE 0   /* site 0 */
#define EMHEAP_STACK_JS 1     /* stack_ref = JS stack id; JS holds the frames */
#define EMHEAP_STACK_SHADOW 2 /* stack_ref = offset in frame_pool, stack_depth frames, root first */

/* One allocation site = one distinct call stack. All statistics are
** doubles holding integers (exact mode) or estimates rounded to integer
** bytes and 1/65536 blocks (sampled mode): sums of such values are exact
** in a double, so a site whose blocks are all freed returns to exactly 0.
** Invariant: live_bytes == sum over live blocks of this site of their
** weight; peak_live_bytes >= live_bytes. */
typedef struct emheap_site {
  uint64_t key;           /*  0 identity of the stack (tagged by source) */
  double live_bytes;      /*  8 */
  double total_bytes;     /* 16 bytes ever allocated here */
  double peak_live_bytes; /* 24 */
  double total_allocs;    /* 32 blocks ever allocated here */
  double live_blocks;     /* 40 */
  uint32_t stack_kind;    /* 48 EMHEAP_STACK_* */
  uint32_t stack_ref;     /* 52 */
  uint32_t stack_depth;   /* 56 */
  uint32_t reserved;      /* 60 */
} emheap_site;            /* 64 bytes */

/* A wasm memory growth that happened inside an allocation: who made the
** heap bigger, and by how much. Kept in a ring of the last N events. */
typedef struct emheap_growth {
  uint32_t from_bytes;
  uint32_t to_bytes;
  uint32_t site; /* 0 if the allocation had no recorded stack (unsampled) */
  uint32_t reserved;
} emheap_growth;

#define EMHEAP_GROWTH_LOG 64 /* power of two */

/* The shadow call stack, maintained by shadow_stack.c when the app is
** compiled with -finstrument-functions-after-inlining. fn[i] is the
** function pointer (table index) entered at depth i, root first; hash[d]
** identifies the path fn[0..d) and is valid for d <= hashed: entering a
** function only stores it (the hot path of every instrumented call), and
** the hashes are extended when an allocation needs them. depth keeps
** counting past the capacity (frames beyond it are not stored, and
** `truncated` counts them) so that it never drifts; JS restores depth after
** exceptions and longjmp (jslib/library_emheap.js). */
#define EMHEAP_SHADOW_CAPACITY 1024
typedef struct emheap_shadow {
  uint32_t depth;           /* logical depth */
  uint32_t linked;          /* nonzero if shadow_stack.o is in the program */
  uint32_t truncated;       /* pushes that did not fit */
  uint32_t unmatched_exits; /* exits that matched no frame (unwound or foreign) */
  uint32_t hashed;          /* hash[0..hashed] are valid, hashed <= capacity */
  uint32_t reserved[3];
  uint32_t fn[EMHEAP_SHADOW_CAPACITY];
  uint64_t hash[EMHEAP_SHADOW_CAPACITY + 1];
} emheap_shadow;

/* The whole profiler state; one static instance, handed to JS once. */
typedef struct emheap_state {
  uint32_t magic;             /*    0 EMHEAP_MAGIC once initialized */
  uint32_t layout_version;    /*    4 EMHEAP_LAYOUT_VERSION */
  uint32_t mode;              /*    8 EMHEAP_MODE_* (JS may set it in emheap_js_attach) */
  uint32_t paused;            /*   12 nonzero: new blocks get no site (JS may write it) */
  emheap_counters counters;   /*   16 .. 128 */
  emheap_site *sites;         /*  128 dense array, sites[0] = unattributed */
  uint32_t site_capacity;     /*  132 */
  uint32_t *site_index;       /*  136 open addressing on key: site number, 0 = empty */
  uint32_t site_index_mask;   /*  140 capacity - 1 */
  uint32_t *frame_pool;       /*  144 frames of shadow-stack sites */
  uint32_t frame_pool_used;   /*  148 */
  uint32_t frame_pool_capacity; /* 152 */
  uint32_t sampling_interval; /*  156 mean bytes between samples (JS may set it) */
  emheap_growth growth[EMHEAP_GROWTH_LOG]; /* 160 ring; event i at growth[i % LOG] */
  uint32_t last_heap_size;    /* 1184 heap size when the break last moved */
  uint32_t reserved;          /* 1188 */
  int64_t sample_countdown;   /* 1192 bytes until the next sampled byte */
  uint64_t rng;               /* 1200 xorshift64* state */
  emheap_shadow shadow;       /* 1208 */
} emheap_state;

extern emheap_state emheap_g;

/* The allocator's break (sbrk's top), for the fast paths; C only, JS never
** reads it, so it is not part of the layout above. Both of Emscripten's
** allocators take all their memory from sbrk, so every block lies below the
** break, and the wasm memory only grows when the break passes its end.
** Reading the break is a plain load; memory.size is not everywhere:
** Firefox compiles it to a call (~2-3 ns each, measured on micro), and the
** fast paths used to run it on every malloc and free. */
typedef struct emheap_break_watch {
  const uintptr_t *sbrk_ptr; /* emscripten_get_sbrk_ptr() once initialized; until then a zero */
  uintptr_t last_break;      /* *sbrk_ptr after the previous allocation */
} emheap_break_watch;

extern emheap_break_watch emheap_brk;

/* state.c */
void emheap_init_slow(void);
static inline void emheap_ensure_init(void) {
  if (__builtin_expect(emheap_g.magic != EMHEAP_MAGIC, 0)) emheap_init_slow();
}
void emheap_break_moved(uint32_t site, uintptr_t now);
/* Called after every allocation (so inline: one load and a compare). A
** memory.grow can only happen inside the allocator's sbrk, which moves the
** break: so this catches every growth an allocation caused and charges it
** to its site, and reads memory.size only when the break moved. (A growth
** from elsewhere, JS growing the memory say, is logged at the next move.) */
static inline void emheap_note_heap_growth(uint32_t site) {
  uintptr_t now = *emheap_brk.sbrk_ptr;
  if (__builtin_expect(now != emheap_brk.last_break, 0)) emheap_break_moved(site, now);
}

/* site_table.c: key -> site number. */
int emheap_sites_init(void);
/* Finds or creates the site for key; a new shadow site copies `depth`
** frames from `frames`. Returns EMHEAP_SITE_UNATTRIBUTED if the table is
** exhausted. */
uint32_t emheap_sites_intern(uint64_t key, uint32_t stack_kind, uint32_t stack_ref,
                             const uint32_t *frames, uint32_t depth);

/* stack_capture.c: the site of the allocation being made now. Called
** directly from each public allocation entry point (the JS side drops the
** runtime's frames by name, or by this call depth in builds without names). */
uint32_t emheap_current_site(void);

/* shadow_stack.c hashing, shared with stack_capture.c: hash[d + 1] from
** hash[d] and the function entered at depth d. */
static inline uint64_t emheap_shadow_mix(uint64_t h, uint32_t fn) {
  h = (h ^ fn) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

/* sampler.c */
int64_t emheap_next_sample_distance(void);
/* Weight of one sampled block of `size` bytes in sampled mode: what it
** stands for. */
void emheap_sample_weight(uint32_t size, double *bytes, double *blocks);

_Static_assert(sizeof(emheap_site) == 64, "JS reads 64-byte sites");
_Static_assert(sizeof(emheap_counters) == 112, "JS reads 112 bytes of counters");
_Static_assert(offsetof(emheap_state, counters) == 16, "layout");
_Static_assert(offsetof(emheap_state, sites) == 128, "layout");
_Static_assert(offsetof(emheap_state, frame_pool) == 144, "layout");
_Static_assert(offsetof(emheap_state, sampling_interval) == 156, "layout");
_Static_assert(offsetof(emheap_state, growth) == 160, "layout");
_Static_assert(offsetof(emheap_state, shadow) == 1208, "layout");
_Static_assert(offsetof(emheap_shadow, fn) == 32, "layout");
_Static_assert(offsetof(emheap_counters, site_count) == 96, "layout");
_Static_assert(offsetof(emheap_counters, heap_size) == 104, "layout");

#endif /* EMHEAP_INTERNAL_H */
