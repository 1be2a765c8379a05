/*
** block_table.c -- the recorded live blocks: address -> site, size, serial.
**
** Every block in exact mode, the sampled ones in sampled mode. At a million
** live blocks this table is most of what emheap costs in memory, so it is
** built to take under 16 bytes per block, and never to need a large piece
** of memory at once (Emscripten's default heap is fixed: doubling one big
** table needs the old and the new one together).
**
** The address space is cut into 4 KiB regions. A directory
** (state.blocks.regions) holds, per region, the address word of that
** region's own table (state_layout.h), or 0 while no block there was
** recorded. Addresses are kept as words (the address / 4) here: 2^32 of
** them reach 16 GiB, all a wasm64 memory can have in JS. An entry keeps its
** block's offset in the region (10 bits: blocks are 4-aligned at least;
** mimalloc's smallest blocks on wasm32 are 4 bytes, 4 bytes apart) instead of
** the address: 12 bytes per block (emheap_slot). A table is sized to its
** region's blocks: its number of slots is one of a series 1.14x to 1.25x
** apart, and it moves to the next when 15/16 full, so entries take 12 /
** 0.94 to 12 / 0.79 bytes per block (12.8 to 15.2; make bench states what
** 1M live blocks take with everything else emheap keeps), and a growth
** copies one region's entries (at most 1,024). 8 bytes of header per table.
**
** Within a table: open addressing, in Robin Hood order (along a cluster,
** entries lie in the order of their home slots), deletion by backward
** shift (no tombstones, so lookups never slow down with churn). A block's
** home slot keeps the order of addresses: blocks made one after another
** have their entries one after another, in the same cache lines. Where a
** region's blocks crowd into part of it (the region at the top of the
** heap, filled from its start; small blocks beside a large one), their
** homes crowd into part of the table, and a cluster grows long: an
** insertion that walks more than LONG_CLUSTER slots grows the table, so
** such a region pays more slots for its blocks (Lua's heap on 16 MB:
** 57,699 blocks recorded before the budget ran out, against 60,967 with
** homes at a hash of the offset).
**
** What these tables cost in time is cache misses, measured on micro,
** exact against forwarding only, node (paired; bench/README.md): homes at
** a hash of the offset 2.0x-2.7x (the less full, the slower: 1/2 full
** 3.3x), lists per 64-byte bucket 2.2x-2.3x, homes in address order with
** no growth for long clusters 20x, and these 2.0x-2.06x; the 16-byte
** slots of one table at most half full, in address order, 1.84x for 33.6
** bytes per block.
**
** A table never shrinks: sized for the most blocks its region has held, it
** costs that much at most, and the many programs whose blocks come and go
** in the same places (micro's trees, Lua's strings) never pay for growing
** it again (shrinking below 3/10 full took micro from 1.9x to 4.9x).
**
** A block of EMHEAP_HUGE_BLOCK (128 MiB) or more does not fit an entry's
** 27-bit size; it takes one of EMHEAP_HUGE_SLOTS full-size slots
** (state.huge_blocks), searched one by one: at most 31 such blocks fit a
** 4 GiB memory, 127 a wasm64 one of 16 GiB.
**
** When a table cannot grow (no chunk: emheap_table_alloc refuses, a fixed
** heap with no room to spare), it fills on up to all but one slot, and a
** block that finds no room then is not recorded: the caller counts it as
** lost. The first refusal in exact mode turns it to sampling (emheap_thin),
** and opens the eighth of the tables' budget that chunks leave unused
** until then (emheap_table_alloc_reserving): what it samples needs room
** too. A refused chunk is asked for again only after the next (all
** slots / 64) tries: each asks JS for the heap's limit.
**
** Each recorded block gets a serial (state.block_serial + 1, from 1 to
** 2^31 - 1, so that 2 * serial + 1 is a heap snapshot node id that fits 32
** bits, odd as DevTools wants): its identity across snapshots, where an
** address is reused, and its age against the marks (marks.c). Serial 0
** marks an empty slot.
**
** Invariants (checked by check_table in a build with EMHEAP_CHECKING):
** every recorded block appears exactly once, at or after its home slot
** with no empty slot in between, and an entry's distance from its home is
** at most one more than the previous slot's entry's (Robin Hood); a
** table's count is its entries' number, below its slots; block_count is
** all tables' counts and the huge blocks'. With dlmalloc, a block is
** recorded iff its FLAG4 bit is set (allocator.h). Called under the lock.
**
** Where there is no such bit (threaded builds, emmalloc), free asks
** emheap_may_be_recorded first, without the lock: a count of recorded
** blocks per address bucket, changed here (under the lock) and read by
** any thread. A block is recorded before its pointer leaves malloc, so a
** thread that frees it has seen its bucket's count go up: a count of 0
** means "not recorded" for sure, and the free needs neither lock nor
** lookup (in sampled mode, nearly every free). A count that reaches 255
** stays there (the bucket then always asks the table).
*/
#include <string.h>

#include "allocator.h"
#include "emheap_internal.h"

#define REGION_SHIFT EMHEAP_REGION_SHIFT
#define ALIGN_SHIFT EMHEAP_ALIGN_SHIFT
#define OFFSET_BITS (REGION_SHIFT - ALIGN_SHIFT)
#define OFFSET_MASK ((1u << OFFSET_BITS) - 1u)
#define MAX_REGIONS (1u << (32u - OFFSET_BITS)) /* 16 GiB of address words */
#define SIZE_MASK (EMHEAP_HUGE_BLOCK - 1u)
#define SIZE_BITS (32u - EMHEAP_SLACK_BITS)

_Static_assert(sizeof(emheap_slot) == 12, "JS reads 12-byte entries");
_Static_assert(sizeof(region_table) == 8, "JS reads entries 8 bytes into a table");
_Static_assert(EMHEAP_SITE_BITS + OFFSET_BITS <= 32, "an entry's first word holds offset and site");
_Static_assert(ALIGN_SHIFT == 2, "an entry's offset counts address words (emheap_word)");

uint8_t emheap_recorded_filter[EMHEAP_FILTER_BUCKETS];

/* Two sets of tables are kept this way: the heap's recorded blocks, and
** the objects of the program's pools (pools.c), which lie inside heap
** blocks and so could share their addresses. They share the tables'
** memory (spare tables, chunks, the budget). */
typedef struct block_set {
  emheap_index *index;
  emheap_block *huge;
  uint32_t huge_slots;
  uint32_t *huge_count;
  int filtered; /* the recorded-address filter counts its blocks (free asks it) */
} block_set;

static emheap_block huge[EMHEAP_HUGE_SLOTS], pool_huge[EMHEAP_POOL_HUGE_SLOTS];
static uint32_t huge_count, pool_huge_count;
static const block_set BLOCKS = {&emheap_g.blocks, huge, EMHEAP_HUGE_SLOTS, &huge_count, 1};
static const block_set OBJECTS = {&emheap_g.pool_objects, pool_huge, EMHEAP_POOL_HUGE_SLOTS, &pool_huge_count, 0};
static uint32_t total_slots; /* all tables' slots */
static uint32_t quiet;       /* asks for memory refused without asking (ask_memory) */

/* Only where free asks the filter (alloc_fast.h: no dlmalloc flag). */
static inline int filter_used(void) {
  return !(EMHEAP_USE_FLAG && emheap_allocator == EMHEAP_ALLOCATOR_DLMALLOC);
}

static inline void filter_add(const block_set *set, uint32_t word) {
  if (!set->filtered || !filter_used()) return;
  uint8_t *c = &emheap_recorded_filter[emheap_filter_bucket(word)];
  if (*c != 255) __atomic_store_n(c, (uint8_t)(*c + 1), __ATOMIC_RELAXED);
}

static inline void filter_remove(const block_set *set, uint32_t word) {
  if (!set->filtered || !filter_used()) return;
  uint8_t *c = &emheap_recorded_filter[emheap_filter_bucket(word)];
  if (*c != 255) __atomic_store_n(c, (uint8_t)(*c - 1), __ATOMIC_RELAXED);
}

/* Region r's table, or NULL; and setting it. */
static inline region_table *table_at(const block_set *set, uint32_t r) {
  return (region_table *)emheap_word_addr(set->index->regions[r]);
}
static inline void set_table(const block_set *set, uint32_t r, region_table *t) {
  set->index->regions[r] = emheap_word((uintptr_t)t);
}

/* The word of an address that can be recorded, or 0: blocks are 4-aligned
** at least (every allocator Emscripten ships aligns blocks to 4 at least:
** mimalloc its smallest, the others all to 8; an entry could not tell two
** blocks closer than that apart), and no memory in JS reaches 16 GiB. */
static inline uint32_t word_of(uintptr_t addr) {
  if (addr & ((1u << ALIGN_SHIFT) - 1u)) return 0;
#if UINTPTR_MAX > 0xFFFFFFFFu
  if (addr >> (32 + ALIGN_SHIFT)) return 0;
#endif
  return emheap_word(addr);
}

static inline uint32_t offset_of(const emheap_slot *s) { return s->offset_site & OFFSET_MASK; }

/* A block's home: its place in the region, scaled to the table, so that
** blocks made one after another have their entries one after another. */
static inline uint32_t home(uint32_t offset, uint32_t slots) {
  return (offset * slots) >> OFFSET_BITS;
}

/* An insertion that walks more slots than this grows the table at the next
** block: where a region's blocks are not spread evenly over it (filled in
** part, or around a large block), homes crowd together (see above). */
#define LONG_CLUSTER 12u

static inline uint32_t next_slot(uint32_t j, uint32_t slots) { return ++j == slots ? 0 : j; }

/* How far the entry in slot j lies from its home. */
static inline uint32_t distance(const region_table *t, uint32_t j) {
  uint32_t h = home(offset_of(&t->slot[j]), t->slots);
  return j >= h ? j - h : j + t->slots - h;
}

/* region_base: the region's first address word */
static inline emheap_block unpack(const emheap_slot *s, uint32_t region_base) {
  emheap_block b = {region_base + offset_of(s),
                    (s->offset_site >> OFFSET_BITS) | (s->size_slack >> SIZE_BITS) << EMHEAP_SITE_BITS,
                    s->size_slack & SIZE_MASK, s->serial};
  return b;
}

/* Robin Hood insertion of e, whose offset is not in t, from slot j where it
** would stand d slots from its home: an entry nearer its own home gives way
** and moves on. */
static uint32_t place(region_table *t, emheap_slot e, uint32_t j, uint32_t d) {
  uint32_t steps = 0;
  for (; t->slot[j].serial; j = next_slot(j, t->slots), d++, steps++) {
    uint32_t dj = distance(t, j);
    if (dj < d) {
      emheap_slot moved = t->slot[j];
      t->slot[j] = e;
      e = moved;
      d = dj;
    }
  }
  t->slot[j] = e;
  return steps;
}

#ifdef EMHEAP_CHECKING
#include <assert.h>
static void check_table(const region_table *t) {
  uint32_t n = 0;
  for (uint32_t j = 0; j < t->slots; j++) {
    if (!t->slot[j].serial) continue;
    n++;
    uint32_t prev = j ? j - 1 : t->slots - 1;
    assert(!distance(t, j) || t->slot[prev].serial);
    assert(distance(t, j) <= (t->slot[prev].serial ? distance(t, prev) + 1 : 0));
  }
  assert(n == t->count && n < t->slots);
}
/* A block put back was live all along: nothing else can be at its address. */
#define assert_no_stale(s) assert(!(s)->addr)
#else
#define check_table(t) ((void)0)
#define assert_no_stale(s) ((void)(s))
#endif

/* Table sizes: 4, 5, 6, 7, 8, 10, 12 ... 1280 slots, 1.14x to 1.25x apart,
** enough for a region's 1,024 4-aligned blocks below grow_at. From 4: a
** region that holds one block (a pool's 4 KiB chunks, one per region)
** pays 56 bytes for it, not the 104 of a first table of 8 slots
** (tests/runtime/table_memory.c). A formula,
** not a table: a table of small numbers in the static data reads, two by
** two, as words that point into the heap, and the heap scan
** (model/heap_graph.js) took them for pointers. */
#define CLASSES 34u
static inline uint32_t class_slots(uint32_t cls) { return (4u + (cls & 3u)) << (cls >> 2); }

static inline uint32_t table_size(uint32_t cls) {
  return (uint32_t)(sizeof(region_table) + class_slots(cls) * sizeof(emheap_slot));
}

static uint32_t class_of(uint32_t slots) {
  uint32_t c = 0;
  while (class_slots(c) != slots) c++;
  return c;
}

/* Small tables (under 4 KiB) come from 64 KiB chunks of
** emheap_table_alloc (halved down to 4 KiB where the budget's last room
** is smaller, so that none of it goes unused) and go back to a list per class, never to the
** allocator: regions start and grow through them often, and this way
** rarely allocate between two of the app's blocks (where emmalloc would
** pad the app's block before, allocator.h). Larger tables are allocated
** and freed one by one: carved from chunks, the end of each chunk that no
** large table fits went unused (6% of the tables at 1M 32-byte blocks). */
#define CHUNK_BYTES (64u << 10)
#define LARGE_TABLE 4096u
typedef struct spare_table {
  struct spare_table *next;
} spare_table;
static spare_table *spare[CLASSES];
static uint8_t *chunk_next, *chunk_end;
static int refused_once; /* from then on, the reserve (table_memory.c) is used too */

static void keep_spare(void *t, uint32_t cls) {
  spare_table *s = t;
  s->next = spare[cls];
  spare[cls] = s;
}

/* What is left of a used-up chunk, as spare tables of the largest classes that fit. */
static void keep_rest_of_chunk(void) {
  for (uint32_t c = CLASSES; c-- > 0;) {
    for (; (size_t)(chunk_end - chunk_next) >= table_size(c); chunk_next += table_size(c)) keep_spare(chunk_next, c);
  }
}

/* The tables' memory: *bytes of it, or less (halving, down to `least`)
** where the budget has no room for *bytes (table_memory.c), so that the
** last of the budget is used too; NULL when not even `least` fits. The
** first refusal turns exact mode to sampling and opens the reserve; after
** a refusal with it open, the next (all slots / 64) asks are refused
** without asking. */
static void *ask_memory_down_to(uint32_t *bytes, uint32_t least) {
  if (quiet) {
    quiet--;
    return NULL;
  }
  for (int pass = 0; pass < 2; pass++) {
    for (uint32_t n = *bytes; n >= least; n /= 2) {
      void *p = refused_once ? emheap_table_alloc(n) : emheap_table_alloc_reserving(n);
      if (p) {
        *bytes = n;
        return p;
      }
    }
    if (refused_once) break;
    refused_once = 1;
    emheap_thin();
  }
  quiet = total_slots / 64 + 1;
  return NULL;
}

static void *ask_memory(uint32_t bytes) { return ask_memory_down_to(&bytes, bytes); }

static region_table *table_memory(uint32_t cls) {
  uint32_t size = table_size(cls);
  if (size >= LARGE_TABLE) return ask_memory(size);
  spare_table *s = spare[cls];
  if (s) {
    spare[cls] = s->next;
    return (region_table *)s;
  }
  if ((size_t)(chunk_end - chunk_next) < size) {
    uint32_t bytes = CHUNK_BYTES;
    uint8_t *c = ask_memory_down_to(&bytes, LARGE_TABLE);
    if (!c) return NULL;
    keep_rest_of_chunk();
    chunk_next = c;
    chunk_end = c + bytes;
  }
  region_table *t = (region_table *)chunk_next;
  chunk_next += size;
  return t;
}

static region_table *new_table(uint32_t cls) {
  region_table *t = table_memory(cls);
  if (!t) return NULL;
  uint32_t slots = class_slots(cls);
  memset(t->slot, 0, slots * sizeof(emheap_slot));
  t->slots = (uint16_t)slots;
  t->count = 0;
  t->grow_at = (uint16_t)(slots - (slots < 32 ? 1 : slots / 16));
  t->padding = 0;
  total_slots += slots;
  return t;
}

static void free_table(region_table *t) {
  uint32_t cls = class_of(t->slots);
  total_slots -= t->slots;
  if (table_size(cls) >= LARGE_TABLE) emheap_table_free(t, table_size(cls));
  else keep_spare(t, cls);
}

/* Region r's table moved to one of `slots` slots; NULL (the old one stays)
** if there is no room for it. */
static region_table *resize(const block_set *set, uint32_t r, uint32_t cls) {
  region_table *old = table_at(set, r);
  region_table *t = new_table(cls);
  if (!t) return NULL;
  uint32_t slots = t->slots;
  for (uint32_t j = 0; j < old->slots; j++) {
    if (old->slot[j].serial) place(t, old->slot[j], home(offset_of(&old->slot[j]), slots), 0);
  }
  t->count = old->count;
  set_table(set, r, t);
  free_table(old);
  check_table(t);
  return t;
}

/* A directory that reaches region r (doubling from what covers the heap). */
static int cover(const block_set *set, uint32_t r) {
  uint32_t had = set->index->region_count;
  uint32_t n = had ? had : 64;
  while (n <= r) n *= 2;
  if (n > MAX_REGIONS) n = MAX_REGIONS;
  uint32_t *d = ask_memory(n * sizeof(uint32_t));
  if (!d) return 0;
  memset(d, 0, n * sizeof(uint32_t));
  if (had) memcpy(d, set->index->regions, had * sizeof(uint32_t));
  uint32_t *old = set->index->regions;
  set->index->regions = d;
  set->index->region_count = n;
  emheap_table_free(old, had * sizeof(uint32_t));
  return 1;
}

/* The directory, and in exact mode (which records the first block) a
** first chunk, before the app's first block. */
int emheap_blocks_init(void) {
  emheap_g.huge_blocks = huge;
  emheap_g.huge_slots = EMHEAP_HUGE_SLOTS;
  emheap_g.pool_huge = pool_huge;
  emheap_g.pool_huge_slots = EMHEAP_POOL_HUGE_SLOTS;
  if (!cover(&BLOCKS, (uint32_t)((emheap_heap_size_now() - 1) >> REGION_SHIFT))) return 0;
  if (emheap_g.mode == EMHEAP_MODE_EXACT) {
    spare_table *first = (spare_table *)table_memory(0);
    if (first) keep_spare(first, 0);
  }
  return 1;
}

uint32_t emheap_blocks_capacity(void) { return total_slots; }

/* Grows what region r needs for one more block: the directory, the table
** itself (first one), or a larger table. NULL if refused. */
static region_table *grown(const block_set *set, uint32_t r) {
  if (r >= set->index->region_count && !cover(set, r)) return NULL;
  region_table *t = table_at(set, r);
  if (!t) {
    set_table(set, r, t = new_table(0));
    return t;
  }
  uint32_t cls = class_of(t->slots);
  return cls + 1 < CLASSES ? resize(set, r, cls + 1) : NULL;
}

/* Slow path: region r has no table, or one at its grow_at. The table the
** block may go in, or NULL (no room). */
static __attribute__((noinline)) region_table *make_room(const block_set *set, uint32_t r) {
  region_table *t = grown(set, r);
  if (t) return t;
  t = r < set->index->region_count ? table_at(set, r) : NULL;
  return t && t->count + 1u < t->slots ? t : NULL;
}

static __attribute__((noinline)) int insert_huge(const block_set *set, emheap_block b, emheap_block *stale) {
  emheap_block *free_slot = NULL, *huge = set->huge;
  for (uint32_t k = 0; k < set->huge_slots; k++) {
    if (huge[k].addr == b.addr) {
      *stale = huge[k];
      huge[k] = b;
      return 1;
    }
    if (!huge[k].addr && !free_slot) free_slot = &huge[k];
  }
  if (!free_slot) return 0;
  *free_slot = b;
  (*set->huge_count)++;
  set->index->count++;
  filter_add(set, b.addr);
  return 1;
}

static __attribute__((noinline)) int remove_huge(const block_set *set, uint32_t word, emheap_block *out) {
  emheap_block *huge = set->huge;
  for (uint32_t k = 0; *set->huge_count && k < set->huge_slots; k++) {
    if (huge[k].addr != word) continue;
    *out = huge[k];
    huge[k].addr = 0;
    (*set->huge_count)--;
    set->index->count--;
    filter_remove(set, word);
    return 1;
  }
  return 0;
}

static void each_serial(const block_set *set, void (*fn)(uint32_t *serial, void *ctx), void *ctx) {
  for (uint32_t r = 0; r < set->index->region_count; r++) {
    region_table *t = table_at(set, r);
    if (!t || !t->count) continue;
    for (uint32_t j = 0; j < t->slots; j++)
      if (t->slot[j].serial) fn(&t->slot[j].serial, ctx);
  }
  for (uint32_t k = 0; *set->huge_count && k < set->huge_slots; k++)
    if (set->huge[k].addr) fn(&set->huge[k].serial, ctx);
}

void emheap_blocks_each_serial(void (*fn)(uint32_t *serial, void *ctx), void *ctx) {
  each_serial(&BLOCKS, fn, ctx);
  each_serial(&OBJECTS, fn, ctx);
}

/* Records b (its serial given); the rest as emheap_blocks_insert. Inlined
** by force: with two callers clang kept it a function of its own, and
** micro cost 2.37x forwarding only against 2.12x (paired, node). */
static inline __attribute__((always_inline)) int insert(const block_set *set, emheap_block b, emheap_block *stale) {
  stale->addr = 0;
  uint32_t word = b.addr, site = emheap_block_site(&b), slack = emheap_block_slack(&b);
  if (__builtin_expect(b.size >= EMHEAP_HUGE_BLOCK, 0)) return insert_huge(set, b, stale);
  uint32_t r = word >> OFFSET_BITS;
  region_table *t = r < set->index->region_count ? table_at(set, r) : NULL;
  if (__builtin_expect(!t || t->count >= t->grow_at, 0) && !(t = make_room(set, r))) return 0;
  uint32_t offset = word & OFFSET_MASK;
  emheap_slot e = {offset | site << OFFSET_BITS, b.size | slack << SIZE_BITS, b.serial};
  uint32_t slots = t->slots, i = home(offset, slots), d = 0;
  for (; t->slot[i].serial && distance(t, i) >= d; i = next_slot(i, slots), d++) {
    if (offset_of(&t->slot[i]) == offset) {
      *stale = unpack(&t->slot[i], word & ~OFFSET_MASK);
      t->slot[i] = e;
      return 1;
    }
  }
  uint32_t steps = d + place(t, e, i, d);
  t->count++;
  if (__builtin_expect(steps > LONG_CLUSTER, 0)) t->grow_at = t->count; /* a long cluster: grow at the next block */
  set->index->count++;
  filter_add(set, word);
  check_table(t);
  return 1;
}

int emheap_blocks_insert(uintptr_t addr, uint32_t site, uint32_t size, uint32_t usable, uint32_t weighted,
                         emheap_block *stale) {
  uint32_t word = word_of(addr);
  if (__builtin_expect(!word, 0)) {
    stale->addr = 0;
    return 0;
  }
  uint32_t slack = usable - size < EMHEAP_SLACK_UNKNOWN ? usable - size : EMHEAP_SLACK_UNKNOWN;
  emheap_block b = {word, site | slack << EMHEAP_SITE_BITS, size, emheap_next_serial() | (weighted ? EMHEAP_BLOCK_WEIGHTED : 0)};
  return insert(&BLOCKS, b, stale);
}

/* The record a failed realloc took out comes back as it was (serial, site,
** size): its block never left the program. Its region's table had room for
** it a moment ago; if another thread filled it since and it cannot grow, 0. */
int emheap_blocks_put_back(const emheap_block *b) {
  emheap_block stale;
  int done = insert(&BLOCKS, *b, &stale);
  assert_no_stale(&stale);
  return done;
}

/* The slot of word in its region's table t, or -1. */
static inline int32_t find_slot(const region_table *t, uint32_t word) {
  uint32_t offset = word & OFFSET_MASK;
  uint32_t slots = t->slots, i = home(offset, slots);
  for (uint32_t d = 0;; i = next_slot(i, slots), d++) {
    if (!t->slot[i].serial || distance(t, i) < d) return -1;
    if (offset_of(&t->slot[i]) == offset) return (int32_t)i;
  }
}

/* word: an address word, 0 for an address that cannot be recorded */
static inline __attribute__((always_inline)) int remove_from(const block_set *set, uint32_t word, emheap_block *out) {
  if (__builtin_expect(!word, 0)) return 0;
  uint32_t r = word >> OFFSET_BITS;
  region_table *t = r < set->index->region_count ? table_at(set, r) : NULL;
  if (!t) return remove_huge(set, word, out);
  int32_t found = find_slot(t, word);
  if (found < 0) return remove_huge(set, word, out);
  uint32_t slots = t->slots, i = (uint32_t)found;
  *out = unpack(&t->slot[i], word & ~OFFSET_MASK);
  /* Backward shift: the entries after the hole that are not in their home
  ** slot move one slot back (Robin Hood order: the first one at home, or
  ** an empty slot, ends the run). */
  for (uint32_t j = next_slot(i, slots); t->slot[j].serial && distance(t, j) > 0; j = next_slot(j, slots)) {
    t->slot[i] = t->slot[j];
    i = j;
  }
  t->slot[i].serial = 0;
  t->count--;
  set->index->count--;
  filter_remove(set, word);
  check_table(t);
  return 1;
}

int emheap_blocks_remove(uintptr_t addr, emheap_block *out) { return remove_from(&BLOCKS, word_of(addr), out); }

/* The record of addr in set, without taking it out: 0 if none. */
static int find(const block_set *set, uintptr_t addr, emheap_block *out) {
  uint32_t word = word_of(addr), r = word >> OFFSET_BITS;
  if (!word) return 0;
  region_table *t = r < set->index->region_count ? table_at(set, r) : NULL;
  int32_t i = t ? find_slot(t, word) : -1;
  if (i >= 0) {
    *out = unpack(&t->slot[i], word & ~OFFSET_MASK);
    return 1;
  }
  for (uint32_t k = 0; *set->huge_count && k < set->huge_slots; k++) {
    if (set->huge[k].addr == word) {
      *out = set->huge[k];
      return 1;
    }
  }
  return 0;
}

int emheap_blocks_find(uintptr_t addr, emheap_block *out) { return find(&BLOCKS, addr, out); }

int emheap_blocks_set_site(uintptr_t addr, uint32_t site) {
  const block_set *set = &BLOCKS;
  uint32_t word = word_of(addr), r = word >> OFFSET_BITS;
  if (!word) return 0;
  region_table *t = r < set->index->region_count ? table_at(set, r) : NULL;
  int32_t i = t ? find_slot(t, word) : -1;
  if (i >= 0) {
    emheap_slot *e = &t->slot[i];
    e->offset_site = offset_of(e) | site << OFFSET_BITS;
    return 1;
  }
  for (uint32_t k = 0; *set->huge_count && k < set->huge_slots; k++) {
    if (set->huge[k].addr != word) continue;
    set->huge[k].site_slack = site | (set->huge[k].site_slack & ~(EMHEAP_MAX_SITES - 1u));
    return 1;
  }
  return 0;
}

/* The recorded block with the highest address at or below addr, if it
** reaches past addr: the block that holds addr, if a recorded one does.
** Looks back region by region, at most `regions` of them. */
int emheap_blocks_holding(uintptr_t addr, uint32_t regions, emheap_block *out) {
  const block_set *set = &BLOCKS;
  emheap_block best = {0, 0, 0, 0};
  uint32_t word = emheap_word(addr); /* (addr's own word: a block starts at a word) */
  for (uint32_t k = 0; k < *set->huge_count; k++) {
    const emheap_block *h = &set->huge[k];
    if (h->addr && h->addr <= word && h->addr > best.addr) best = *h;
  }
  uint32_t r = word >> OFFSET_BITS;
  if (r >= set->index->region_count) r = set->index->region_count - 1u; /* (none: the loop does not run) */
  for (uint32_t n = 0; n <= regions && r < set->index->region_count; n++, r--) {
    region_table *t = table_at(set, r);
    uint32_t base = r << OFFSET_BITS, top = 0;
    int32_t at = -1;
    for (uint32_t j = 0; t && j < t->slots; j++) {
      if (!t->slot[j].serial) continue;
      uint32_t a = base + offset_of(&t->slot[j]);
      if (a <= word && (at < 0 || a > top)) top = a, at = (int32_t)j;
    }
    if (at >= 0) {
      emheap_block b = unpack(&t->slot[at], base);
      if (b.addr > best.addr) best = b;
      break;
    }
    if (!r) break;
  }
  if (!best.addr || addr - emheap_word_addr(best.addr) >= best.size) return 0;
  *out = best;
  return 1;
}

/* The pools' objects (pools.c): their records, as the blocks' (slack 1
** says an object was found inside a chunk, emheap_pool.placed_bytes). */
int emheap_objects_put(const emheap_block *b, emheap_block *stale) { return insert(&OBJECTS, *b, stale); }

int emheap_objects_remove(uintptr_t addr, emheap_block *out) { return remove_from(&OBJECTS, word_of(addr), out); }

int emheap_objects_find(uintptr_t addr, emheap_block *out) { return find(&OBJECTS, addr, out); }

/* Calls fn for every object in [lo, hi) whose site `keep` does not keep
** (keep(site, ctx) == 0), after taking it out; lo = 0, hi = 0: everywhere. */
void emheap_objects_end_where(uintptr_t lo, uintptr_t hi, int (*keep)(uint32_t site, void *ctx),
                              void (*ended)(const emheap_block *b, void *ctx), void *ctx) {
  const block_set *set = &OBJECTS;
  uintptr_t r0 = lo >> REGION_SHIFT, r1 = hi ? (hi - 1u) >> REGION_SHIFT : set->index->region_count - 1u;
  for (uint32_t r = (uint32_t)r0; r0 < set->index->region_count && r <= r1 && r < set->index->region_count; r++) {
    region_table *t = table_at(set, r);
    uint32_t base = r << OFFSET_BITS;
    for (uint32_t j = 0; t && t->count && j < t->slots;) {
      emheap_block b = unpack(&t->slot[j], base);
      uintptr_t a = emheap_word_addr(b.addr);
      if (!t->slot[j].serial || a < lo || (hi && a >= hi) || keep(emheap_block_site(&b), ctx)) {
        j++;
        continue;
      }
      emheap_block out;
      remove_from(set, b.addr, &out); /* (a backward shift may bring another entry into slot j: look again) */
      ended(&out, ctx);
    }
  }
  for (uint32_t k = 0; *set->huge_count && k < set->huge_slots; k++) {
    emheap_block b = set->huge[k];
    uintptr_t a = emheap_word_addr(b.addr);
    if (!b.addr || a < lo || (hi && a >= hi) || keep(emheap_block_site(&b), ctx)) continue;
    emheap_block out;
    remove_from(set, b.addr, &out);
    ended(&out, ctx);
  }
}
