/*
** state_layout.h -- the profiler state in linear memory, as the JS library
** reads it.
**
** Everything here is plain data at fixed offsets so that JS can read it
** with typed arrays and never call into wasm while the app is running.
** JS never types an offset: runtime/layout_info.c prints every offset,
** size and constant JS reads, as emcc lays these structs out, into
** capture/layout_generated.js (`make layout`; a test builds it again and
** compares). Changing any offset or meaning below means bumping
** EMHEAP_LAYOUT_VERSION in emheap.h (a JS library of another layout
** refuses to read the tables) and `make layout`; the static asserts at the
** end pin the offsets, so that a change is seen at compile time.
**
** Addresses. The layout is the same in wasm32 and wasm64: one JS library
** reads both, and the static asserts hold for both targets.
** - A pointer field is 64 bits wide in both (EMHEAP_POINTER: the pointer,
**   and in wasm32 zeros above it).
** - Any other address is a uint64_t, except
** - the addresses kept per block (emheap_block.addr, the block tables'
**   directories), 32-bit *address words*: the address / 4. Everything
**   kept per block is 4-aligned (the allocators' blocks, the tables, the
**   pools' objects: pools.c refuses others), and a memory the JS API can
**   make is at most 16 GiB even in wasm64 (2^18 pages of 64 KiB), so the
**   word of any address in it is below 2^32 (block_table.c).
**
** Threads (-pthread builds, runtime compiled with -pthread): every field
** of emheap_state is guarded by `lock` (lock.h), JS included when it reads
** the tables; what a thread keeps for itself (sampling countdown, random
** state) is thread-local and never read by JS.
*/
#ifndef EMHEAP_STATE_LAYOUT_H
#define EMHEAP_STATE_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "emheap.h"

#define EMHEAP_MAGIC 0x50484d45u /* "EMHP" little-endian */

/* A pointer field, 8 bytes wide in wasm32 too (see above). C uses `name`;
** JS reads a uint64. */
#define EMHEAP_POINTER(T, name) union { T *name; uint64_t name##_bits; }

/* An address word (see above): the address / 4, and back. */
static inline uint32_t emheap_word(uintptr_t addr) { return (uint32_t)(addr >> 2); }
static inline uintptr_t emheap_word_addr(uint32_t word) { return (uintptr_t)word << 2; }

/* What is recorded. */
#define EMHEAP_MODE_EXACT 1   /* every allocation gets a site */
#define EMHEAP_MODE_SAMPLED 2 /* sampling by bytes; sites hold estimates */
#define EMHEAP_MODE_OFF 3     /* nothing: every entry point forwards */

/* Mean bytes between samples: Go's runtime.MemProfileRate. A sample costs
** a JS stack capture, 70-100 us in V8 (most of it V8 mapping each wasm
** frame's code offset to a byte offset), so the cost is samples per second:
** SQLite allocates ~190 MB/s, and against forwarding only it measured (node,
** interleaved, 9 rounds, 2026-11-23) 1.10x at 256 KiB, 1.02x at 512 KiB,
** 0.97x with no samples. A site holding B bytes in small blocks is then
** within about sqrt(interval / B): 17% at 16 MiB, 9% at 64 MiB. */
#define EMHEAP_DEFAULT_INTERVAL (512u * 1024u)

/* Site 0 collects allocations whose stack was recorded but could not be
** attributed (tracking paused, or the site table could not grow). */
#define EMHEAP_SITE_UNATTRIBUTED 0u

/* How a site's stack is stored. */
#define EMHEAP_STACK_NONE 0   /* site 0 */
#define EMHEAP_STACK_JS 1     /* stack_ref = JS stack id; JS holds the frames */
/* (2 is not used) */
#define EMHEAP_STACK_WASM 3   /* a worker's JS stack, as wasm code positions: stack_ref = offset
                                 in frame_pool, stack_depth words = (function index, byte offset
                                 in the module) pairs, root first; a function index with its top
                                 bit set stands for a folded direct recursion (capture/layout.js) */
#define EMHEAP_STACK_POOL 4   /* no stack: the chunks of pool stack_ref (emheap_site.pool), the heap
                                 blocks its objects were found in; its live bytes are the room in
                                 them that no live object takes (pools.c) */

/* In an EMHEAP_STACK_WASM pair's function word: the frames cut off a stack
** deeper than a worker hands over; JS names it "(stack truncated)". */
#define EMHEAP_FRAME_TRUNCATED 0xFFFFFFFFu
/* In an EMHEAP_STACK_WASM pair's function word: JS code (a worker's JS
** frames have no place in linear memory; JS names it "(JS on a worker)"). */
#define EMHEAP_FRAME_JS 0xFFFFFFFEu

/* Which allocator is linked (allocator.c decides at startup). */
#define EMHEAP_ALLOCATOR_GENERIC 0  /* size from malloc_usable_size, records found by lookup */
#define EMHEAP_ALLOCATOR_DLMALLOC 1 /* size and record flag read from the chunk head */
#define EMHEAP_ALLOCATOR_EMMALLOC 2 /* size read from the region head, records found by lookup */
#define EMHEAP_ALLOCATOR_MIMALLOC 3 /* reported only: runs the generic path (current Emscripten's -sMALLOC=mimalloc) */

/* One allocation site = one distinct call stack. All statistics are
** doubles holding integers (exact mode) or estimates rounded to integer
** bytes and 1/65536 blocks (sampled mode): sums of such values are exact
** in a double, so a site whose blocks are all freed returns to exactly 0.
** Invariant: live_bytes == sum over recorded live blocks of this site of
** their weight; peak_live_bytes >= live_bytes.
**
** What the site held at the global peak (the first moment live bytes
** reached their highest: a later equal high does not move it;
** emheap_state.peak_epoch) is kept lazily, in O(1) per event
** (memray's high-water-mark idea): each new global peak adds 1 to
** peak_epoch, and a site is folded before it changes: if its peak_epoch is
** not the global one, it has not changed since that peak, so its live
** values are its values at the peak and are copied to *_at_peak. So a site
** held, at the peak: live_bytes if peak_epoch != the global peak_epoch,
** else live_at_peak / blocks_at_peak. */
/* A site's lifetime buckets (emheap_site.ended_by_*): log-16 of the
** blocks recorded after the ended one, and decades of seconds from the
** timeline's points (emheap_state.age_serial). */
#define EMHEAP_AGE_BUCKETS 8
#define EMHEAP_TIME_BUCKETS 4
#define EMHEAP_AGE_TIMES (EMHEAP_TIME_BUCKETS - 1)
/* The points the age clock keeps (capture/age_clock.js writes one per point
** of its timeline, every 100 ms or more): enough to reach 100 s back. */
#define EMHEAP_AGE_POINTS 1024

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
  uint32_t thread;        /* 60 JS stacks: 0 = main thread, else the serial of the worker
                             whose stack could not be taken (see stack_capture.c) */
  double live_at_peak;    /* 64 valid when peak_epoch == emheap_state.peak_epoch */
  double blocks_at_peak;  /* 72 */
  uint32_t peak_epoch;    /* 80 */
  uint32_t peak_blocks;   /* 84 live_blocks (rounded) when live_bytes last rose to peak_live_bytes:
                             DHAT's "max blocks" */
  double est_bytes;       /* 88 the part of live_bytes that is an estimate: blocks sampled with a
                             chance below 1 (sampled mode, or exact mode thinned: block_table.c) */
  double est_blocks;      /* 96 the part of live_blocks that is */
  double est_at_peak;     /* 104 est_bytes at the peak, valid as live_at_peak is */
  double est_blocks_at_peak; /* 112 */
  /* How long its blocks lived, counted at free in exact mode until it
  ** thins (record.c count_ended): never for blocks recorded by sampling.
  ** A block ends at free or when realloc moves or resizes it. Counts
  ** saturate at 2^32 - 1 (JS says "at least" then). */
  uint32_t ended_by_age[EMHEAP_AGE_BUCKETS];   /* 120 by the blocks recorded after it, of any
                                                  thread: 0, 1-15, 16-255, ... 16^6 and more */
  uint32_t ended_by_time[EMHEAP_TIME_BUCKETS]; /* 152 by time: under 1 s, 1-10 s, 10-100 s, 100 s
                                                  and more (emheap_state.age_serial) */
  uint32_t temporary;     /* 168 blocks freed before their thread allocated again (heaptrack's
                             temporary allocations; a realloc that moves or resizes ends one).
                             Threaded runtimes only: with one thread it is ended_by_age[0], which
                             JS reads instead (this word stays 0; record.c count_ended) */
  uint32_t alloc_type;    /* 172 the clang allocation token of its allocations + 1 (the type of the
                             `new`: alloc_token.c), 0 if none came with one, or
                             EMHEAP_ALLOC_TYPE_MIXED if they came with different ones */
  uint32_t pool;          /* 176 0: its blocks are the allocator's; else they are objects of pool
                             `pool` (pools.c, emheap_pool), or with stack_kind EMHEAP_STACK_POOL
                             that pool's chunks */
  uint32_t reserved;      /* 180 */
} emheap_site;            /* 184 bytes */
#define EMHEAP_ALLOC_TYPE_MIXED 0xFFFFFFFFu

/* Sites are numbered densely from 0 (site 0 = unattributed) and kept in
** chunks that never move: chunk 0 holds sites 0-255 and chunk k >= 1 sites
** 2^(k+7) to 2^(k+8) - 1, so that each new chunk doubles the table and
** nothing is copied (site_table.c). A doubled array would need the old
** and the new at once: at 176 bytes a site, the 1/8 of a 2 GiB heap that
** tables may take stopped it at 524,288 sites; chunked, it holds all
** 2^20. JS copies the chunks end to end (capture/layout.js), where site s is
** at s * 176 again. */
#define EMHEAP_SITE_CHUNK0_BITS 8u
#define EMHEAP_SITE_CHUNKS (EMHEAP_SITE_BITS - EMHEAP_SITE_CHUNK0_BITS + 1u)
static inline uint32_t emheap_site_chunk(uint32_t s) {
  return (32u - EMHEAP_SITE_CHUNK0_BITS) - (uint32_t)__builtin_clz(s | ((1u << EMHEAP_SITE_CHUNK0_BITS) - 1u));
}
static inline uint32_t emheap_site_chunk_first(uint32_t k) { return k ? 1u << (k + EMHEAP_SITE_CHUNK0_BITS - 1u) : 0u; }
static inline uint32_t emheap_site_chunk_size(uint32_t k) { return 1u << (k + EMHEAP_SITE_CHUNK0_BITS - (k != 0)); }

/* Sums over the live blocks charged with estimates (emheap_site.est_*),
** for the ratio estimator JS applies (capture/layout.js): what those blocks
** stand for in usable bytes and in blocks (the Horvitz-Thompson estimates,
** rounded as the sites' are), against what they are. The blocks nobody
** recorded are known only in total (counters: exact), so the sites'
** estimates are scaled to make them add up to that total. */
typedef struct emheap_estimate_sums {
  double usable;          /*  0 estimate of the usable bytes of the blocks they stand for */
  double blocks;          /*  8 estimate of their number */
  uint64_t usable_actual; /* 16 usable bytes of the blocks themselves */
  uint32_t blocks_actual; /* 24 their number */
  uint32_t recorded;      /* 28 all recorded live blocks: set in estimates_at_peak only (now, it
                             is block_count) */
} emheap_estimate_sums;   /* 32 bytes */

/* A wasm memory growth that happened inside an allocation: who made the
** heap bigger, when, by how much, and which sites held the most then. Kept
** in a ring of the last N events. The top sites are found by a pass over
** the site table under the lock (site_table.c emheap_top_sites): O(sites),
** but a growth is rare: the memory never shrinks, and Emscripten's default
** step (20% of the size, at most 96 MiB) takes about 35 growths from 16 MiB
** to 2 GiB. */
#define EMHEAP_GROWTH_TOP 3
typedef struct emheap_growth {
  uint64_t from_bytes;   /*  0 the memory before */
  uint64_t to_bytes;     /*  8 and after */
  uint32_t site;         /* 16 the allocation's site; 0 if it had no recorded stack (unsampled) */
  uint32_t request;      /* 20 the bytes that allocation asked for; 0 if not known (a thread's
                            counts folded at its exit) */
  double t;              /* 24 ms since emheap_state.start_ms */
  uint32_t top_site[EMHEAP_GROWTH_TOP]; /* 32 the sites with the most live bytes just after,
                            most first; a slot past the last live site is 0 with 0 bytes */
  uint32_t flags;        /* 44 EMHEAP_GROWTH_ESTIMATED */
  double top_bytes[EMHEAP_GROWTH_TOP];  /* 48 their live bytes */
} emheap_growth;         /* 72 bytes */

/* Some top_bytes hold estimates (sampled blocks: emheap_site.est_bytes). */
#define EMHEAP_GROWTH_ESTIMATED 1u

#define EMHEAP_GROWTH_LOG 64 /* power of two */

/* A moment the program named (emheap_mark, emheap.mark() in JS, or
** Ctrl+Shift+M): what was allocated after it and is still live is the
** recorded live blocks whose serial is above the mark's. Block serials
** only ever go up between marks: when they would pass 2^31 - 1, the live
** blocks are numbered again from 1 and the marks with them, in the same
** order (marks.c emheap_serials_renumber). Kept in a ring of the last N. */
#define EMHEAP_MARK_NAME 48
typedef struct emheap_mark_record {
  uint32_t serial;       /*  0 block_serial when the mark was made */
  uint32_t reserved;     /*  4 */
  double t;              /*  8 ms since emheap_state.start_ms */
  char name[EMHEAP_MARK_NAME]; /* 16 UTF-8, NUL-terminated (a longer name is cut at a character) */
} emheap_mark_record;    /* 64 bytes */

#define EMHEAP_MARK_LOG 128 /* power of two */

/* A recorded live block: every block in exact mode, the sampled ones in
** sampled mode, as block_table.c hands it out (it keeps most of them packed,
** in 12 bytes: see there; blocks of EMHEAP_HUGE_BLOCK bytes or more as they
** are here, 16). size is the size the program asked for (what its site is
** charged); the allocator's usable size at allocation is size + the slack
** in the top bits of site_slack, kept so that the recorded usable bytes
** stay exact and a block freed behind emheap's back (Emscripten 3.1.6 frees
** thread stacks with its builtin allocator) can be discharged in full when
** its address comes back. A slack of EMHEAP_SLACK_UNKNOWN or more is
** stored as EMHEAP_SLACK_UNKNOWN (the usable size is then read again at
** free); dlmalloc's slack is at most 27 (4 bytes of header, 7 of rounding,
** a remainder under its 16-byte minimum chunk left unsplit). */
typedef struct emheap_block {
  uint32_t addr;       /* its address word (emheap_word); 0 = empty slot */
  uint32_t site_slack; /* site | slack << EMHEAP_SITE_BITS */
  uint32_t size;       /* requested bytes */
  uint32_t serial;     /* the block's identity across snapshots (an address is reused), from 1
                          to 2^31 - 1; EMHEAP_BLOCK_WEIGHTED added when its site got an estimate */
} emheap_block;

#define EMHEAP_BLOCK_WEIGHTED 0x80000000u

#define EMHEAP_SITE_BITS 20u
#define EMHEAP_MAX_SITES (1u << EMHEAP_SITE_BITS) /* site numbers fit a block's site field */
#define EMHEAP_SLACK_BITS 5u
#define EMHEAP_SLACK_UNKNOWN ((1u << EMHEAP_SLACK_BITS) - 1u)
/* Blocks this large keep their whole size in a slot of their own (at most
** 31 of them fit a 4 GiB memory, 127 wasm64's 16 GiB); smaller ones, in 27
** bits. */
#define EMHEAP_HUGE_BLOCK (1u << (32u - EMHEAP_SLACK_BITS))
#define EMHEAP_HUGE_SLOTS (__SIZEOF_POINTER__ == 8 ? 128u : 32u)
#define EMHEAP_POOL_HUGE_SLOTS 8u

static inline uint32_t emheap_block_site(const emheap_block *b) { return b->site_slack & (EMHEAP_MAX_SITES - 1u); }
static inline uint32_t emheap_block_slack(const emheap_block *b) { return b->site_slack >> EMHEAP_SITE_BITS; }

/* A table of recorded blocks by address (block_table.c): per 4 KiB of
** addresses, the address of that region's table, or 0. */
typedef struct emheap_index {
  EMHEAP_POINTER(uint32_t, regions); /*  0 per region, the address word of its table, or 0 */
  uint32_t region_count; /*  8 how many regions it covers, from address 0 */
  uint32_t count;        /* 12 blocks recorded in it */
} emheap_index;

/* A region's table (block_table.c): the recorded blocks whose address
** lies in one EMHEAP_REGION_SHIFT-sized region of the memory, each an
** emheap_block packed in 12 bytes. Blocks are 4-aligned at least, so an
** offset in the region needs REGION_SHIFT - ALIGN_SHIFT bits. */
#define EMHEAP_REGION_SHIFT 12u /* 4 KiB */
#define EMHEAP_ALIGN_SHIFT 2u
typedef struct emheap_slot {
  uint32_t offset_site; /* (addr % 4 KiB) / 4 | site << (REGION_SHIFT - ALIGN_SHIFT) */
  uint32_t size_slack;  /* requested bytes (< EMHEAP_HUGE_BLOCK) | slack << (32 - EMHEAP_SLACK_BITS) */
  uint32_t serial;      /* as emheap_block's; 0 = empty slot */
} emheap_slot;

/* One region's table; JS reads `slots` and the entries. */
typedef struct region_table {
  uint16_t slots;     /* 0 */
  uint16_t count;     /* 2 */
  uint16_t grow_at;   /* 4 the count at which it grows: 15/16 of slots, leaving one free at least */
  uint16_t padding;   /* 6 (entries start 4-aligned) */
  emheap_slot slot[]; /* 8 */
} region_table;

/* A pool of the program's own allocator (emheap.h emheap_pool_create):
** its objects are recorded like blocks, each charged to a site of its own
** stack whose `pool` is the pool's number, and the heap blocks found to
** hold them (its chunks) leave their sites for the pool's chunk site. */
#define EMHEAP_POOL_NAME 40
#define EMHEAP_POOL_LIVE 1u      /* created and not destroyed */
#define EMHEAP_POOL_MALLOCLIKE 2u /* the pool of emheap_block_alloc's blocks (no pool of the program's) */
typedef struct emheap_pool {
  uint64_t anchor;        /*   0 the program's handle (Valgrind's `pool`); 0 when destroyed */
  uint32_t flags;         /*   8 EMHEAP_POOL_* */
  uint32_t site;          /*  12 the site of the stack that created it (EMHEAP_SITE_UNATTRIBUTED if none) */
  uint32_t chunk_site;    /*  16 its chunks' site (EMHEAP_STACK_POOL), 0 until one is found: its live
                             bytes are the chunks' requested bytes less placed_bytes (the room in
                             them no live object takes), its live blocks the chunks */
  uint32_t placed;        /*  20 the live objects found in a chunk */
  uint64_t objects;       /*  24 live objects */
  uint64_t bytes;         /*  32 their bytes */
  uint64_t placed_bytes;  /*  40 the bytes of those found in a chunk */
  uint64_t cached_chunk;  /*  48 the chunk its last object was found in, [cached_chunk, cached_end) */
  uint64_t cached_end;    /*  56 */
  uint32_t lost;          /*  64 objects ever made that found no room in the tables: in no count
                             here (their frees are no misuse: they have no record to find) */
  char name[EMHEAP_POOL_NAME]; /*  68 UTF-8, NUL-terminated; "" for a pool known by its stack */
} emheap_pool;            /* 112 bytes */

/* Misuses of the pool calls, counted by kind (emheap_state.pool_misuse);
** each is said once on the console, and none changes the program. */
#define EMHEAP_POOL_NO_POOL 0        /* an object call for a pool never created, or destroyed */
#define EMHEAP_POOL_NOT_AN_OBJECT 1  /* free / change of an address that is no live object of the pool */
#define EMHEAP_POOL_CREATED_TWICE 2  /* create of a pool that exists: the call is ignored */
#define EMHEAP_POOL_OBJECT_TWICE 3   /* an object where one of the pool lives: the old one ends */
#define EMHEAP_POOL_CHUNK_FREED 4    /* a chunk freed or moved with objects in it: they end */
#define EMHEAP_POOL_TOO_MANY 5       /* no room for another pool: its objects go unrecorded */
#define EMHEAP_POOL_NO_ROOM 6        /* an object the tables had no room for: in no count (pool.lost) */
#define EMHEAP_POOL_UNALIGNED 7      /* an object at an address not 4-aligned: not recorded (pool.lost) */
#define EMHEAP_POOL_MISUSES 8

/* The whole profiler state; one static instance, handed to JS once. */
typedef struct emheap_state {
  uint32_t magic;             /*     0 EMHEAP_MAGIC once initialized */
  uint32_t layout_version;    /*     4 EMHEAP_LAYOUT_VERSION */
  uint32_t mode;              /*     8 EMHEAP_MODE_* (JS may set it in emheap_js_attach) */
  uint32_t paused;            /*    12 nonzero: new blocks get no site (JS may write it) */
  emheap_counters counters;   /*    16 */
  uint32_t site_chunks;       /*   160 chunks of the site table made (site_chunk_at); 0: no table */
  uint32_t site_capacity;     /*   164 sites they hold */
  EMHEAP_POINTER(uint32_t, site_index); /*   168 open addressing on key: site number, 0 = empty */
  uint32_t site_index_mask;   /*   176 capacity - 1 */
  uint32_t frame_pool_used;   /*   180 */
  EMHEAP_POINTER(uint32_t, frame_pool); /*   184 frames of workers' sites (EMHEAP_STACK_WASM) */
  uint32_t frame_pool_capacity; /*   192 */
  uint32_t sampling_interval; /*   196 mean bytes between samples (JS may set it) */
  emheap_index blocks;        /*   200 the recorded live blocks (block_table.c) */
  uint32_t allocator;         /*   216 EMHEAP_ALLOCATOR_* */
  uint32_t lock;              /*   220 the lock of -pthread builds (lock.h): 0 free, 1 held, 2 held with waiters */
  EMHEAP_POINTER(emheap_block, huge_blocks); /*   224 recorded blocks of EMHEAP_HUGE_BLOCK bytes or more */
  uint32_t threaded;          /*   232 nonzero in a runtime built with -pthread */
  uint32_t huge_slots;        /*   236 EMHEAP_HUGE_SLOTS */
  uint64_t seed;              /*   240 random seed (JS may set it; 0 = JS did not) */
  uint64_t last_heap_size;    /*   248 heap size when the break last moved */
  uint64_t count_slots;       /*   256 address of the per-thread counting slots (thread_counts.h),
                                 0 in single-threaded builds: readers add them to counters */
  emheap_growth growth[EMHEAP_GROWTH_LOG]; /*   264 ring; event i at growth[i % LOG] */
  uint64_t peak_break;        /*  4872 the allocator's break (sbrk top) at the high of live bytes */
  uint64_t heap_base;         /*  4880 where the allocator's memory starts (wasm-ld's __heap_base) */
  uint64_t sbrk_ptr_addr;     /*  4888 where the break is kept: JS reads the break there */
  uint64_t roots;             /*  4896 address of emheap_roots (roots.c): where a scan starts */
  uint64_t context_checks;    /*  4904 address of emheap_context_checks (context.h) */
  uint32_t peak_epoch;        /*  4912 +1 at each new high of counters.live_bytes (emheap_site) */
  uint32_t blocks_at_peak;    /*  4916 counters.live_blocks at the high of live bytes */
  uint32_t block_serial;      /*  4920 serial of the last recorded block, < 2^31 */
  uint32_t count_slot_count;  /*  4924 EMHEAP_COUNT_SLOTS in threaded builds, else 0 */
  uint64_t total_at_peak;     /*  4928 counters.total_bytes at the high of live bytes: when the
                                 peak came, in bytes allocated (DHAT's t-gmax) */
  uint32_t log_growths;       /*  4936 nonzero: tell JS at each growth (emheap_js_memory_grew;
                                 JS may write it) */
  uint32_t mark_count;        /*  4940 marks ever made; mark n (from 1) is marks[(n - 1) % LOG] */
  uint64_t recorded_bytes;    /*  4944 requested bytes of the recorded live blocks (in exact mode,
                                 every live block but the lost ones): exact */
  uint64_t recorded_usable;   /*  4952 their usable bytes at allocation: the allocator's rounding
                                 of them is recorded_usable - recorded_bytes */
  uint64_t recorded_at_peak;  /*  4960 recorded_bytes at the high of live bytes */
  uint64_t usable_at_peak;    /*  4968 recorded_usable then */
  emheap_estimate_sums estimates;         /*  4976 */
  emheap_estimate_sums estimates_at_peak; /*  5008 */
  uint64_t thinned_at;        /*  5040 0, or counters.total_bytes + 1 when exact mode began to sample
                                 for want of room (block_table.c) */
  uint64_t unseen_frees;      /*  5048 exact mode, before thinning: frees of blocks emheap never saw
                                 allocated (something allocated around malloc); not counted dead,
                                 for they were never counted live */
  uint64_t unseen_bytes;      /*  5056 their usable bytes */
  double start_ms;            /*  5064 emheap_js_now() at initialization: the origin of growths' t
                                 (and of the JS timeline's) */
  emheap_mark_record marks[EMHEAP_MARK_LOG]; /*  5072 ring (JS writes it too, under the lock) */
  uint32_t serial_renumbers;  /* 13264 times the live blocks' serials were numbered again */
  /* The age clock (JS writes it under the lock at each point of its
  ** timeline, capture/age_clock.js): a block whose serial is at most
  ** age_serial[i] was made at least 1, 10, 100 s (i = 0, 1, 2) before the
  ** newest point; 0 = no point that old yet. Serials in age_points and
  ** age_serial are renumbered with the blocks' (marks.c). */
  uint32_t age_serial[EMHEAP_AGE_TIMES]; /* 13268 */
  uint32_t age_point_count;   /* 13280 points ever written; point k at age_points[k % N] */
  uint32_t age_points[EMHEAP_AGE_POINTS]; /* 13284 block_serial at each point */
  uint64_t site_chunk_at[EMHEAP_SITE_CHUNKS]; /* 17384 where chunk k of the site table starts:
                                 site s is at site_chunk_at[k] + (s - its first site) * 184 */
  uint64_t dl_state;          /* 17488 dlmalloc's malloc_state, found by JS at attach (jslib/
                                 allocator_walk.js findDlmallocState); 0: not known, no footers */
  uint64_t dl_seg;            /* 17496 its first segment record (gm->seg) */
  uint32_t footers;           /* 17504 nonzero: recorded blocks keep their record in the block
                                 (footer.h), flagged by dlmalloc's FLAG4; the block table holds
                                 only those whose footer says so */
  uint32_t peak_since_mark;   /* 17508 0, or the mark at which the peak was last restarted
                                 (emheap_restart_peak): the peak is the highest since then */
  uint64_t recorded_peak;     /* 17512 the highest recorded_bytes since the peak was last restarted
                                 (or since the start): in exact mode the most the program ever had
                                 asked for at once, which heap checks limit. The peak moment above
                                 is the usable bytes' high; recorded_at_peak, what was asked for
                                 then, can be a little under this when a smaller request got more
                                 rounding. Invariant: recorded_peak >= recorded_bytes */
  uint64_t tables_at_peak;    /* 17520 counters.table_bytes at the high of live bytes: with
                                 peak_break, what the allocator's memory held then is all named */
  emheap_index pool_objects;  /* 17528 the live objects of the program's pools (pools.c), as blocks
                                 are kept: they lie inside blocks, so they need a table of their own */
  EMHEAP_POINTER(emheap_block, pool_huge); /* 17544 pool objects of EMHEAP_HUGE_BLOCK bytes or more */
  uint64_t pools;             /* 17552 address of the pool records (emheap_pool[pool_capacity]), 0
                                 until a pool is made; pool n is at pools + (n - 1) * 112 */
  uint32_t pool_huge_slots;   /* 17560 EMHEAP_POOL_HUGE_SLOTS */
  uint32_t pool_count;        /* 17564 pools made (numbers 1 .. pool_count; a destroyed one keeps its
                                 record, and is made again by the same stack and name) */
  uint32_t pool_misuse[EMHEAP_POOL_MISUSES]; /* 17568 misuses of the pool calls, by kind (pools.c) */
  uint32_t pointer_bytes;     /* 17600 sizeof(void *): 4 in wasm32, 8 in wasm64; the width of the words of
                                 Emscripten's and the allocator's own that JS reads (the break,
                                 dlmalloc's chunk heads), which this layout does not hold */
  uint32_t giant_blocks;      /* 17604 wasm64: blocks of 4 GiB or more made, whose sizes the records (32
                                 bits) cannot hold: nonzero, and JS makes no snapshot (its numbers
                                 would be wrong; capture/layout.js checkState) */
} emheap_state;

/* Where a heap scan starts (roots.c emheap_roots_now fills it): the static
** data, every thread's stack and thread-locals, and the ranges the program
** added (emheap_add_root). */
#define EMHEAP_MAX_THREADS 256
#define EMHEAP_MAX_ROOTS 1024

typedef struct emheap_thread_roots {
  uint64_t stack_lo, stack_hi; /* [lo, hi): the thread's whole C stack */
  uint64_t tls_lo, tls_hi;     /* its thread-locals (0, 0: in the static data) */
  uint64_t self;               /* its emheap_thread_state, skipped */
  uint64_t pthread;            /* its struct pthread */
} emheap_thread_roots;

typedef struct emheap_root_region {
  uint64_t start, size;
} emheap_root_region;

typedef struct emheap_roots {
  uint64_t data_lo, data_hi;          /*     0 the static data */
  uint64_t sp, stack_lo, stack_hi;    /*    16 the thread that called emheap_roots_now */
  uint64_t self;                      /*    40 its emheap_thread_state */
  uint64_t state;                     /*    48 emheap_g, skipped */
  uint64_t pthread;                   /*    56 the calling thread's struct pthread */
  uint32_t self_size;                 /*    64 sizeof(emheap_thread_state) */
  uint32_t state_size;                /*    68 sizeof(emheap_g) */
  uint32_t size;                      /*    72 sizeof(emheap_roots), skipped */
  uint32_t thread_count;              /*    76 */
  uint32_t threads_dropped;           /*    80 threads not registered: the table was full */
  uint32_t region_count;              /*    84 */
  uint32_t regions_dropped;           /*    88 emheap_add_root calls refused: the table was full */
  emheap_thread_roots threads[EMHEAP_MAX_THREADS]; /*    96 */
  emheap_root_region regions[EMHEAP_MAX_ROOTS];    /* 12384 */
} emheap_roots;

extern emheap_state emheap_g;


/* The same in wasm32 and wasm64 (the addresses above). */
_Static_assert(sizeof(emheap_site) == 184, "layout");
_Static_assert(sizeof(emheap_pool) == 112, "layout");
_Static_assert(sizeof(emheap_growth) == 72, "layout");
_Static_assert(sizeof(emheap_mark_record) == 64, "layout");
_Static_assert(sizeof(emheap_counters) == 144, "layout");
_Static_assert(sizeof(emheap_estimate_sums) == 32, "layout");
_Static_assert(sizeof(emheap_block) == 16, "layout");
_Static_assert(sizeof(emheap_index) == 16, "layout");
_Static_assert(sizeof(emheap_roots) == 28768, "layout");
_Static_assert(sizeof(emheap_thread_roots) == 48, "layout");
_Static_assert(sizeof(emheap_root_region) == 16, "layout");
_Static_assert(offsetof(emheap_state, counters) == 16, "layout");
_Static_assert(offsetof(emheap_state, site_chunks) == 160, "layout");
_Static_assert(offsetof(emheap_state, frame_pool) == 184, "layout");
_Static_assert(offsetof(emheap_state, sampling_interval) == 196, "layout");
_Static_assert(offsetof(emheap_state, blocks) == 200, "layout");
_Static_assert(offsetof(emheap_state, lock) == 220, "layout");
_Static_assert(offsetof(emheap_state, huge_blocks) == 224, "layout");
_Static_assert(offsetof(emheap_state, seed) == 240, "layout");
_Static_assert(offsetof(emheap_state, count_slots) == 256, "layout");
_Static_assert(offsetof(emheap_state, growth) == 264, "layout");
_Static_assert(offsetof(emheap_state, peak_break) == 4872, "layout");
_Static_assert(offsetof(emheap_state, heap_base) == 4880, "layout");
_Static_assert(offsetof(emheap_state, sbrk_ptr_addr) == 4888, "layout");
_Static_assert(offsetof(emheap_state, roots) == 4896, "layout");
_Static_assert(offsetof(emheap_state, context_checks) == 4904, "layout");
_Static_assert(offsetof(emheap_state, peak_epoch) == 4912, "layout");
_Static_assert(offsetof(emheap_state, total_at_peak) == 4928, "layout");
_Static_assert(offsetof(emheap_state, log_growths) == 4936, "layout");
_Static_assert(offsetof(emheap_state, recorded_bytes) == 4944, "layout");
_Static_assert(offsetof(emheap_state, estimates) == 4976, "layout");
_Static_assert(offsetof(emheap_state, estimates_at_peak) == 5008, "layout");
_Static_assert(offsetof(emheap_state, thinned_at) == 5040, "layout");
_Static_assert(offsetof(emheap_state, unseen_frees) == 5048, "layout");
_Static_assert(offsetof(emheap_state, start_ms) == 5064, "layout");
_Static_assert(offsetof(emheap_state, marks) == 5072, "layout");
_Static_assert(offsetof(emheap_state, age_serial) == 13268, "layout");
_Static_assert(offsetof(emheap_state, age_points) == 13284, "layout");
_Static_assert(offsetof(emheap_state, site_chunk_at) == 17384, "layout");
_Static_assert(offsetof(emheap_state, dl_state) == 17488, "layout");
_Static_assert(offsetof(emheap_state, dl_seg) == 17496, "layout");
_Static_assert(offsetof(emheap_state, footers) == 17504, "layout");
_Static_assert(offsetof(emheap_state, recorded_peak) == 17512, "layout");
_Static_assert(offsetof(emheap_state, tables_at_peak) == 17520, "layout");
_Static_assert(offsetof(emheap_state, pool_objects) == 17528, "layout");
_Static_assert(offsetof(emheap_state, pool_huge) == 17544, "layout");
_Static_assert(offsetof(emheap_state, pools) == 17552, "layout");
_Static_assert(offsetof(emheap_state, pool_misuse) == 17568, "layout");
_Static_assert(offsetof(emheap_site, est_bytes) == 88, "layout");
_Static_assert(offsetof(emheap_site, live_at_peak) == 64, "layout");
_Static_assert(offsetof(emheap_site, peak_blocks) == 84, "layout");
_Static_assert(offsetof(emheap_site, ended_by_age) == 120, "layout");
_Static_assert(offsetof(emheap_site, ended_by_time) == 152, "layout");
_Static_assert(offsetof(emheap_site, temporary) == 168, "layout");
_Static_assert(offsetof(emheap_site, alloc_type) == 172, "layout");
_Static_assert(offsetof(emheap_site, pool) == 176, "layout");
_Static_assert(offsetof(emheap_counters, site_count) == 96, "layout");
_Static_assert(offsetof(emheap_counters, lost_allocs) == 112, "layout");
_Static_assert(offsetof(emheap_counters, table_bytes) == 136, "layout");
_Static_assert(offsetof(emheap_growth, from_bytes) == 0, "layout");
_Static_assert(offsetof(emheap_growth, to_bytes) == 8, "layout");
_Static_assert(offsetof(emheap_growth, site) == 16, "layout");
_Static_assert(offsetof(emheap_growth, t) == 24, "layout");
_Static_assert(offsetof(emheap_growth, top_site) == 32, "layout");
_Static_assert(offsetof(emheap_growth, flags) == 44, "layout");
_Static_assert(offsetof(emheap_growth, top_bytes) == 48, "layout");
_Static_assert(offsetof(emheap_pool, flags) == 8, "layout");
_Static_assert(offsetof(emheap_pool, objects) == 24, "layout");
_Static_assert(offsetof(emheap_pool, lost) == 64, "layout");
_Static_assert(offsetof(emheap_pool, name) == 68, "layout");
_Static_assert(offsetof(emheap_roots, data_lo) == 0, "layout");
_Static_assert(offsetof(emheap_roots, pthread) == 56, "layout");
_Static_assert(offsetof(emheap_roots, self_size) == 64, "layout");
_Static_assert(offsetof(emheap_roots, threads) == 96, "layout");
_Static_assert(offsetof(emheap_roots, regions) == 12384, "layout");
_Static_assert(offsetof(emheap_index, regions) == 0, "layout");
_Static_assert(offsetof(emheap_index, region_count) == 8, "layout");
_Static_assert(offsetof(emheap_index, count) == 12, "layout");
#endif /* EMHEAP_STATE_LAYOUT_H */
