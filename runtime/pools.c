/*
** pools.c -- the objects of the program's own allocators: pools, arenas
** and free lists that take memory from malloc (or a static buffer) in big
** pieces and hand out objects from it, told to emheap through emheap.h's
** pool calls or Valgrind's mempool client requests (the valgrind/ headers
** `emheap-config --cflags` puts first on the include path).
**
** The semantics are Valgrind's: a pool is named by an address of the
** program's (its anchor); objects are allocated in it, freed, changed
** (moved or resized), trimmed to a range, and all end when it is
** destroyed. Blocks made like malloc's by an allocator that never calls
** malloc (emheap_block_alloc) are objects of one built-in pool.
**
** An object is recorded as a heap block is (serial, site, size) in a
** table of its own (block_table.c OBJECTS: objects lie inside heap blocks,
** and may start where their block does), and charged to a site of its
** stack that belongs to its pool (emheap_site.pool; the stack's key mixed
** with the pool's number, record.c): every view of sites shows it as it
** shows a malloc block, with the pool's own functions left out of its
** stack as a malloc layer's are.
**
** No byte is counted twice: the heap block an object is found in (a
** chunk) leaves its site for the pool's chunk site (EMHEAP_STACK_POOL),
** whose live bytes are the chunks' less the objects placed in them: the
** room inside the chunks that no object takes. So the sites still add up
** to what the heap holds, at every moment the runtime keeps (now, the
** peak, each growth). A chunk is found when an object is recorded outside
** the pool's chunk of the object before: the thread's last heap block
** (an arena made and then carved), the chunks found before (a sorted
** array), or a search of the recorded blocks (the block table back from
** the address, or in footer mode a walk of dlmalloc's chunks up to it).
** An object in no recorded block (a static buffer, memory from the
** builtin allocator) is counted in its pool's objects but not placed.
**
** Misuse (a pool never created, an object that is none, a chunk freed
** with objects in it ...) is counted by kind (emheap_state.pool_misuse),
** said once on the console by JS, and never changes the program: the call
** is ignored, or the objects that can no longer be live end.
**
** Everything here runs under the lock. Invariants (checked in a build
** with EMHEAP_CHECKING): a pool's objects and bytes are its recorded
** objects' count and sum; placed_bytes <= bytes; the chunk array is
** sorted and its ranges do not overlap.
*/
#include <string.h>

#include "alloc_fast.h"
#include "allocator.h"
#include "footer.h"
#include "lock.h"
#include "site_charge.h"
#include "thread_state.h"

#include "emheap.h"

/* The chunks found, sorted by address: [addr, end) of pool `pool`. */
typedef struct chunk_range {
  uintptr_t addr, end;
  uint32_t pool;
} chunk_range;

static chunk_range *chunks;
static uint32_t chunk_count, chunk_capacity;

/* anchor -> pool number, open addressing (0: empty), rebuilt when a pool
** goes; twice as many slots as pool records. */
static uint32_t *anchors;
static uint32_t pool_capacity;
static uint32_t last_found; /* the pool of the last call: most calls name the pool of the one before */

/* How far back the block table is searched for a chunk: 256 KiB (a
** pymalloc arena). */
#define BACK_REGIONS 64u

/* A pool object of emheap_block_alloc (no pool of the program's). */
static const char MALLOCLIKE_ANCHOR; /* its anchor: an address no program pool has */

extern void emheap_js_pool_misuse(uint32_t kind, uintptr_t anchor, uintptr_t addr);

static inline emheap_pool *pool_at(uint32_t n) { return (emheap_pool *)(uintptr_t)emheap_g.pools + (n - 1u); }

static void misuse(uint32_t kind, uintptr_t anchor, uintptr_t addr) {
  if (emheap_g.pool_misuse[kind]++ == 0) emheap_js_pool_misuse(kind, anchor, addr);
}

static inline uint32_t anchor_slot(uintptr_t anchor, uint32_t mask) { return ((uint32_t)(anchor >> 2) * 0x9E3779B1u) & mask; }

static uint32_t find_pool(uintptr_t anchor) {
  if (!anchor || !anchors) return 0;
  if (last_found && pool_at(last_found)->anchor == anchor) return last_found;
  uint32_t mask = pool_capacity * 2u - 1u;
  for (uint32_t i = anchor_slot(anchor, mask);; i = (i + 1u) & mask) {
    uint32_t n = anchors[i];
    if (!n) return 0;
    if (pool_at(n)->anchor == anchor) return last_found = n;
  }
}

static void index_anchors(void) {
  uint32_t mask = pool_capacity * 2u - 1u;
  memset(anchors, 0, pool_capacity * 2u * sizeof(uint32_t));
  for (uint32_t n = 1; n <= emheap_g.pool_count; n++) {
    uintptr_t a = (uintptr_t)pool_at(n)->anchor;
    if (!a) continue;
    uint32_t i = anchor_slot(a, mask);
    while (anchors[i]) i = (i + 1u) & mask;
    anchors[i] = n;
  }
}

/* Room for one more pool record; 0 if there is none. */
static int pool_room(void) {
  if (emheap_g.pool_count < pool_capacity) return 1;
  uint32_t want = pool_capacity ? pool_capacity * 2u : 16u;
  if (want > 65536u) return 0;
  emheap_pool *records = emheap_table_alloc(want * sizeof(emheap_pool));
  uint32_t *index = emheap_table_alloc(want * 2u * sizeof(uint32_t));
  if (!records || !index) {
    if (records) emheap_table_free(records, want * sizeof(emheap_pool));
    if (index) emheap_table_free(index, want * 2u * sizeof(uint32_t));
    return 0;
  }
  memset(records, 0, want * sizeof(emheap_pool));
  if (emheap_g.pool_count) memcpy(records, (void *)(uintptr_t)emheap_g.pools, emheap_g.pool_count * sizeof(emheap_pool));
  emheap_table_free((void *)(uintptr_t)emheap_g.pools, pool_capacity * sizeof(emheap_pool));
  emheap_table_free(anchors, pool_capacity * 2u * sizeof(uint32_t));
  emheap_g.pools = (uintptr_t)records;
  anchors = index;
  pool_capacity = want;
  index_anchors();
  return 1;
}

static void copy_name(char *out, const char *name) {
  uint32_t n = 0;
  while (name && name[n] && n < EMHEAP_POOL_NAME - 1) n++;
  if (name && name[n]) /* cut: do not end inside a character */
    while (n && ((unsigned char)name[n] & 0xC0u) == 0x80u) n--;
  for (uint32_t i = 0; i < n; i++) out[i] = name[i];
  out[n] = 0;
}

/* Makes pool `anchor`, its creating stack `site`: a destroyed pool of the
** same stack and name is made again under its number (a program that
** makes a pool per request keeps one pool per place that makes them). */
static uint32_t create_locked(uintptr_t anchor, const char *name, uint32_t site, uint32_t flags) {
  if (find_pool(anchor)) {
    misuse(EMHEAP_POOL_CREATED_TWICE, anchor, 0);
    return 0;
  }
  char cut[EMHEAP_POOL_NAME];
  copy_name(cut, name);
  uint32_t n = 0;
  for (uint32_t k = 1; k <= emheap_g.pool_count && !n; k++) {
    emheap_pool *p = pool_at(k);
    if (!(p->flags & EMHEAP_POOL_LIVE) && p->site == site && !strcmp(p->name, cut)) n = k;
  }
  if (!n) {
    if (!pool_room()) {
      misuse(EMHEAP_POOL_TOO_MANY, anchor, 0);
      return 0;
    }
    n = ++emheap_g.pool_count;
    emheap_fast = 0; /* heap blocks may be a pool's chunks now (alloc_fast.h) */
    emheap_pool *p = pool_at(n);
    memset(p, 0, sizeof *p);
    p->site = site;
    memcpy(p->name, cut, sizeof cut);
  }
  emheap_pool *p = pool_at(n);
  p->anchor = anchor;
  p->flags = EMHEAP_POOL_LIVE | flags;
  index_anchors();
  return n;
}

/* ---- chunks ---- */

static chunk_range *chunk_holding(uintptr_t addr) {
  uint32_t lo = 0, hi = chunk_count;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2u;
    if (chunks[mid].end <= addr) lo = mid + 1u;
    else hi = mid;
  }
  return lo < chunk_count && chunks[lo].addr <= addr ? &chunks[lo] : NULL;
}

static int add_chunk(uintptr_t addr, uintptr_t end, uint32_t pool) {
  if (chunk_count == chunk_capacity) {
    uint32_t want = chunk_capacity ? chunk_capacity * 2u : 64u;
    chunk_range *more = emheap_table_alloc(want * sizeof(chunk_range));
    if (!more) return 0;
    if (chunk_count) memcpy(more, chunks, chunk_count * sizeof(chunk_range));
    emheap_table_free(chunks, chunk_capacity * sizeof(chunk_range));
    chunks = more;
    chunk_capacity = want;
  }
  uint32_t i = chunk_count;
  while (i && chunks[i - 1u].addr > addr) {
    chunks[i] = chunks[i - 1u];
    i--;
  }
  chunk_range c = {addr, end, pool};
  chunks[i] = c;
  chunk_count++;
  return 1;
}

static void remove_chunk(chunk_range *c) {
  uint32_t i = (uint32_t)(c - chunks);
  memmove(c, c + 1, (chunk_count - i - 1u) * sizeof(chunk_range));
  chunk_count--;
}

/* The record of the recorded heap block that holds addr, if one does. */
static int block_holding(uintptr_t addr, emheap_block *out) {
  uintptr_t brk = *emheap_brk.sbrk_ptr;
  if (addr < (uintptr_t)&__heap_base || addr >= brk) return 0; /* static data, a stack: no heap block */
  uintptr_t last = emheap_self.last_block;
  if (last && last <= addr) {
    int recorded = emheap_g.footers ? emheap_footer_record(last, out) : emheap_blocks_find(last, out);
    if (recorded && addr - last < out->size) return 1;
  }
  return emheap_g.footers ? emheap_footer_block_holding(addr, out) : emheap_blocks_holding(addr, BACK_REGIONS, out);
}

/* The site of pool n's chunks, made with its first chunk. */
static uint32_t chunk_site(uint32_t n) {
  emheap_pool *p = pool_at(n);
  if (!p->chunk_site) {
    uint32_t s = emheap_sites_intern(0x504F4F4C00000000ull | n, EMHEAP_STACK_POOL, n, NULL, 0, 0);
    if (s == EMHEAP_SITE_UNATTRIBUTED) return 0;
    emheap_site_at(s)->pool = n;
    p->chunk_site = s;
  }
  return p->chunk_site;
}

/* Block b becomes pool n's chunk: its bytes leave its site (live and
** total) for the pool's chunk site. */
static int adopt(uint32_t n, const emheap_block *b) {
  uint32_t cs = chunk_site(n);
  if (!cs || (b->serial & EMHEAP_BLOCK_WEIGHTED)) return 0; /* (a sampled block stands for others too) */
  uintptr_t at = emheap_word_addr(b->addr);
  if (!add_chunk(at, at + b->size, n)) return 0;
  if (emheap_g.footers) emheap_footer_set_site(at, cs); /* (in footer mode the table holds no block: footer.h) */
  else emheap_blocks_set_site(at, cs);
  /* the site never counts it, its totals included: it is the pool's from
  ** the start, and the objects in it are the allocations */
  emheap_charge_site(emheap_block_site(b), b->size, 1, -1, 0);
  emheap_charge_site(cs, b->size, 1, 1, 1);
  emheap_site *old = emheap_site_at(emheap_block_site(b));
  old->total_bytes -= b->size;
  old->total_allocs -= 1;
  return 1;
}

/* Whether an object of pool n at [addr, addr + size) lies in one of its
** chunks, finding (and adopting) the chunk if need be. */
static int place(uint32_t n, uintptr_t addr, uint32_t size) {
  emheap_pool *p = pool_at(n);
  if (addr >= p->cached_chunk && addr < p->cached_end) return size <= p->cached_end - addr;
  chunk_range *c = chunk_holding(addr);
  if (!c) {
    emheap_block b;
    if (!block_holding(addr, &b)) return 0;
    const emheap_site *s = emheap_site_at(emheap_block_site(&b));
    if (s->stack_kind == EMHEAP_STACK_POOL || !adopt(n, &b)) return 0; /* (another pool's chunk: not nested) */
    c = chunk_holding(addr);
  }
  if (!c || c->pool != n) return 0;
  p->cached_chunk = c->addr;
  p->cached_end = c->end;
  return size <= c->end - addr;
}

/* ---- objects ---- */

/* An object of `bytes` at `site` comes into pool p's books (sign 1) or goes
** (-1): its site, the pool's counts, and (placed) the room in its chunk,
** which the object takes. fresh: a new object, which the site's totals
** count too. */
static inline void object_counts(emheap_pool *p, uint32_t site, uint32_t bytes, uint32_t placed, int sign, int fresh) {
  emheap_charge_site(site, bytes, 1, sign, fresh);
  p->objects += sign;
  p->bytes += (int64_t)sign * bytes;
  if (placed) {
    p->placed += sign;
    p->placed_bytes += (int64_t)sign * bytes;
    if (p->chunk_site) emheap_charge_site(p->chunk_site, bytes, 0, -sign, 0);
  }
}

/* Object b of pool n ends: its lifetime counted, and out of the books. */
static void object_ends(uint32_t n, const emheap_block *b) {
  emheap_count_object_ended(b);
  object_counts(pool_at(n), emheap_block_site(b), b->size, emheap_block_slack(b), -1, 0);
}

static inline uint32_t pool_of_site(uint32_t site) { return emheap_site_at(site)->pool; }

/* An object that lived where a new one is made ended unsaid (a misuse). */
static void replaced(const emheap_block *stale, uintptr_t anchor, uintptr_t addr) {
  misuse(EMHEAP_POOL_OBJECT_TWICE, anchor, addr);
  uint32_t was = pool_of_site(emheap_block_site(stale));
  if (was) object_ends(was, stale);
}

/* Records an object of pool `anchor` (n: its number when the caller found
** it before taking the stack) made by the call being made. */
static void object_made(uintptr_t anchor, uint32_t n, uintptr_t addr, uint32_t size) {
  uint32_t site = emheap_site_of_call_locked(n); /* takes the lock */
  if (find_pool(anchor) != n) { /* destroyed meanwhile, by another thread */
    misuse(EMHEAP_POOL_NO_POOL, anchor, addr);
    emheap_unlock();
    return;
  }
  emheap_pool *p = pool_at(n);
  if (addr & 3u) { /* the table keeps 4-aligned addresses (block_table.c) */
    p->lost++;
    misuse(EMHEAP_POOL_UNALIGNED, anchor, addr);
    emheap_unlock();
    return;
  }
  uint32_t placed = place(n, addr, size);
  emheap_block object = {emheap_word(addr), site | placed << EMHEAP_SITE_BITS, size, emheap_next_serial()}, stale;
  if (!emheap_objects_put(&object, &stale)) {
    p->lost++;
    misuse(EMHEAP_POOL_NO_ROOM, anchor, addr);
    emheap_unlock();
    return;
  }
  if (stale.addr) replaced(&stale, anchor, addr);
  object_counts(p, site, size, placed, 1, 1);
#if EMHEAP_THREADED
  emheap_self.last_serial = emheap_g.block_serial; /* freed before its thread allocates again: temporary */
  emheap_self.last_renumber = emheap_g.serial_renumbers;
#endif
  emheap_unlock();
}

/* Under the lock: object addr of pool n out of the books into *b; 0 (and a
** misuse said) if it is none. One walk of the table: an object of another
** pool (a misuse) goes back as it was. */
static int take_object(uint32_t n, uintptr_t anchor, uintptr_t addr, emheap_block *b) {
  int found = emheap_objects_remove(addr, b);
  if (!found || pool_of_site(emheap_block_site(b)) != n) {
    if (found) {
      emheap_block stale;
      emheap_objects_put(b, &stale); /* (its slot was free a moment ago) */
    }
    if (!pool_at(n)->lost) misuse(EMHEAP_POOL_NOT_AN_OBJECT, anchor, addr);
    return 0;
  }
  object_ends(n, b);
  return 1;
}

/* Pools are recorded in exact mode only: sampled mode's sites are
** estimates scaled to the exact global counts of malloc's blocks
** (model/estimates.js), which pool objects are not part of, and its chunks
** are mostly not sampled, so their objects could not be placed. */
static int pool_on(void) {
  if (emheap_g.magic != EMHEAP_MAGIC) emheap_init_slow();
  return emheap_g.mode == EMHEAP_MODE_EXACT && emheap_g.site_chunks;
}

/* The pool of anchor, under the lock; 0 (said) if there is none. */
static uint32_t pool_named(uintptr_t anchor, uintptr_t addr) {
  uint32_t n = find_pool(anchor);
  if (!n) misuse(EMHEAP_POOL_NO_POOL, anchor, addr);
  return n;
}

void emheap_pool_create(const void *pool, const char *name) {
  if (!pool_on() || !pool) return;
  uint32_t site = emheap_site_of_call_locked(0);
  create_locked((uintptr_t)pool, name, site, 0);
  emheap_unlock();
}

int emheap_pool_exists(const void *pool) {
  if (!pool_on()) return 0;
  emheap_lock();
  int n = find_pool((uintptr_t)pool) != 0;
  emheap_unlock();
  return n;
}

void emheap_pool_alloc(const void *pool, const void *addr, size_t size) {
  if (!pool_on() || !addr) return;
  uintptr_t anchor = (uintptr_t)pool;
  emheap_lock();
  uint32_t n = pool_named(anchor, (uintptr_t)addr);
  emheap_unlock();
  if (n) object_made(anchor, n, (uintptr_t)addr, size > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)size);
}

void emheap_pool_free(const void *pool, const void *addr) {
  if (!pool_on() || !addr) return;
  uintptr_t anchor = (uintptr_t)pool;
  emheap_lock();
  uint32_t n = pool_named(anchor, (uintptr_t)addr);
  emheap_block b;
  if (n) take_object(n, anchor, (uintptr_t)addr, &b);
  emheap_unlock();
}

/* Valgrind's MEMPOOL_CHANGE: the object at old is now at addr, `size`
** bytes. It keeps its stack and serial (a realloc in place, or a move the
** pool makes): its age and its site stay; its bytes change there. */
void emheap_pool_change(const void *pool, const void *old, const void *addr, size_t size) {
  if (!pool_on() || !old) return;
  uintptr_t anchor = (uintptr_t)pool, from = (uintptr_t)old, to = (uintptr_t)addr;
  uint32_t bytes = size > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)size;
  emheap_lock();
  uint32_t n = pool_named(anchor, from);
  emheap_block b;
  if (!n || !emheap_objects_find(from, &b) || pool_of_site(emheap_block_site(&b)) != n) {
    if (n && !pool_at(n)->lost) misuse(EMHEAP_POOL_NOT_AN_OBJECT, anchor, from);
    emheap_unlock();
    return;
  }
  emheap_pool *p = pool_at(n);
  uint32_t site = emheap_block_site(&b);
  emheap_objects_remove(from, &b);
  /* out of the books as it was, back in as it is: same site, same serial */
  object_counts(p, site, b.size, emheap_block_slack(&b), -1, 0);
  uint32_t placed = to && !(to & 3u) ? place(n, to, bytes) : 0;
  emheap_block moved = {emheap_word(to), site | placed << EMHEAP_SITE_BITS, bytes, b.serial}, stale;
  if (!to || (to & 3u) || !emheap_objects_put(&moved, &stale)) {
    emheap_count_object_ended(&b);
    if (to) {
      p->lost++;
      misuse(to & 3u ? EMHEAP_POOL_UNALIGNED : EMHEAP_POOL_NO_ROOM, anchor, to);
    }
    emheap_unlock();
    return;
  }
  if (stale.addr) replaced(&stale, anchor, to);
  object_counts(p, site, bytes, placed, 1, 0);
  emheap_unlock();
}

typedef struct ending {
  uint32_t pool;
  uint32_t count;
} ending;

static int keep_other_pools(uint32_t site, void *ctx) { return pool_of_site(site) != ((ending *)ctx)->pool; }
static int keep_none(uint32_t site, void *ctx) { (void)site, (void)ctx; return 0; }

static void end_object(const emheap_block *b, void *ctx) {
  ending *e = ctx;
  uint32_t n = pool_of_site(emheap_block_site(b));
  if (n) object_ends(n, b);
  e->count++;
}

/* Valgrind's MEMPOOL_TRIM: the pool's objects outside [addr, addr + size)
** end (size 0: all of them: an arena reset at once, a frame allocator). */
void emheap_pool_trim(const void *pool, const void *addr, size_t size) {
  if (!pool_on()) return;
  uintptr_t anchor = (uintptr_t)pool, lo = (uintptr_t)addr;
  uintptr_t hi = size >= UINTPTR_MAX - lo ? UINTPTR_MAX : lo + size;
  emheap_lock();
  uint32_t n = pool_named(anchor, lo);
  if (n) {
    ending e = {n, 0};
    if (lo) emheap_objects_end_where(0, lo, keep_other_pools, end_object, &e);
    emheap_objects_end_where(hi, 0, keep_other_pools, end_object, &e);
    if (!size) emheap_objects_end_where(lo, hi, keep_other_pools, end_object, &e);
  }
  emheap_unlock();
}

void emheap_pool_destroy(const void *pool) {
  if (!pool_on()) return;
  uintptr_t anchor = (uintptr_t)pool;
  emheap_lock();
  uint32_t n = pool_named(anchor, 0);
  if (n) {
    ending e = {n, 0};
    if (pool_at(n)->objects) emheap_objects_end_where(0, 0, keep_other_pools, end_object, &e);
    emheap_pool *p = pool_at(n);
    p->anchor = 0;
    p->flags &= ~EMHEAP_POOL_LIVE;
    p->cached_chunk = p->cached_end = 0;
    last_found = 0;
    index_anchors();
  }
  emheap_unlock();
}

/* Valgrind's MOVE_MEMPOOL: the pool's anchor moved. */
void emheap_pool_move(const void *from, const void *to) {
  if (!pool_on()) return;
  emheap_lock();
  uint32_t n = pool_named((uintptr_t)from, 0);
  if (n && find_pool((uintptr_t)to)) misuse(EMHEAP_POOL_CREATED_TWICE, (uintptr_t)to, 0);
  else if (n) {
    pool_at(n)->anchor = (uintptr_t)to;
    last_found = 0;
    index_anchors();
  }
  emheap_unlock();
}

/* The built-in pool of emheap_block_alloc, made at its first block. */
static uint32_t malloclike_pool(void) {
  uintptr_t anchor = (uintptr_t)&MALLOCLIKE_ANCHOR;
  uint32_t n = find_pool(anchor);
  return n ? n : create_locked(anchor, "malloc-like blocks", EMHEAP_SITE_UNATTRIBUTED, EMHEAP_POOL_MALLOCLIKE);
}

void emheap_block_alloc(const void *addr, size_t size) {
  if (!pool_on() || !addr) return;
  emheap_lock();
  uint32_t n = malloclike_pool();
  emheap_unlock();
  if (n) object_made((uintptr_t)&MALLOCLIKE_ANCHOR, n, (uintptr_t)addr,
                     size > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)size);
}

void emheap_block_free(const void *addr) {
  if (!pool_on() || !addr) return;
  uintptr_t anchor = (uintptr_t)&MALLOCLIKE_ANCHOR;
  emheap_lock();
  uint32_t n = find_pool(anchor);
  emheap_block b;
  if (n) take_object(n, anchor, (uintptr_t)addr, &b);
  else misuse(EMHEAP_POOL_NOT_AN_OBJECT, anchor, (uintptr_t)addr);
  emheap_unlock();
}

void emheap_block_resize(const void *addr, size_t size) {
  emheap_pool_change(&MALLOCLIKE_ANCHOR, addr, addr, size);
}

/* ---- heap blocks ---- */

void emheap_pool_block_ends(const emheap_block *b) {
  const emheap_site *s = emheap_site_at(emheap_block_site(b));
  if (s->stack_kind != EMHEAP_STACK_POOL) return;
  uint32_t n = s->pool;
  uintptr_t at = emheap_word_addr(b->addr);
  chunk_range *c = chunk_holding(at);
  if (c && c->addr == at) remove_chunk(c);
  emheap_pool *p = pool_at(n);
  if (p->cached_chunk == at) p->cached_chunk = p->cached_end = 0;
  ending e = {n, 0};
  if (p->placed) emheap_objects_end_where(at, at + b->size, keep_none, end_object, &e);
  if (e.count) misuse(EMHEAP_POOL_CHUNK_FREED, (uintptr_t)p->anchor, at);
}
