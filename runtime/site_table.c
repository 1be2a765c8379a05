/*
** site_table.c -- allocation sites: one record per distinct call stack.
**
** Sites live in chunks that never move (state_layout.h: emheap_site_at),
** numbered densely (JS walks them in order to build a snapshot), and are
** found by key through a separate open-addressing index of site numbers.
** Site numbers are stable for the life of the program: the block table
** stores them, so the table only ever grows, a chunk at a time, each as
** large as all the chunks before it.
**
** Invariant: site_index holds every site number 1..site_count-1 exactly
** once; 0 marks an empty index slot (site 0 is the unattributed site,
** which is never looked up by key).
**
** Worker sites (EMHEAP_STACK_WASM) keep their frames in
** frame_pool, appended once when the site is created; sites never move
** their frames, so JS can read them.
** All memory comes from emheap_table_alloc: when it refuses, a new stack is
** charged to site 0 and counted in counters.lost_sites.
**
** Called under the lock (lock.h).
*/
#include <string.h>

#include "emheap_internal.h"
#include "thread_state.h"

#ifdef EMHEAP_CHECKING
#include <assert.h>
#else
#define assert(x) ((void)0)
#endif

static inline uint32_t index_slot(uint64_t key, uint32_t mask) {
  uint64_t h = key * 0x9E3779B97F4A7C15ull;
  return (uint32_t)(h >> 32) & mask;
}

uintptr_t emheap_site_base[EMHEAP_SITE_CHUNKS];

/* The next chunk of sites, cleared; 0 if memory is not there. */
static int add_chunk(void) {
  uint32_t k = emheap_g.site_chunks;
  if (k >= EMHEAP_SITE_CHUNKS) return 0;
  uint32_t first = emheap_site_chunk_first(k), size = emheap_site_chunk_size(k);
  emheap_site *chunk = emheap_table_alloc((size_t)size * sizeof(emheap_site));
  if (!chunk) return 0;
  memset(chunk, 0, (size_t)size * sizeof(emheap_site));
  emheap_g.site_chunk_at[k] = (uintptr_t)chunk;
  emheap_site_base[k] = (uintptr_t)chunk - first * sizeof(emheap_site);
  emheap_g.site_chunks = k + 1;
  emheap_g.site_capacity = first + size;
  /* the chunk holds its sites, and only them */
  assert(emheap_site_at(first) == chunk && emheap_site_at(first + size - 1) == chunk + size - 1);
  assert(emheap_site_chunk(first) == k && emheap_site_chunk(first + size - 1) == k);
  return 1;
}

int emheap_sites_init(void) {
  emheap_g.counters.site_count = 1; /* site 0, unattributed */
  uint32_t slots = 2 * emheap_site_chunk_size(0);
  emheap_g.site_index = emheap_table_alloc(slots * sizeof(uint32_t));
  if (!emheap_g.site_index) return 0;
  if (!add_chunk()) {
    emheap_table_free(emheap_g.site_index, slots * sizeof(uint32_t));
    emheap_g.site_index = NULL;
    return 0;
  }
  memset(emheap_g.site_index, 0, slots * sizeof(uint32_t));
  emheap_g.site_index_mask = slots - 1;
  return 1;
}

/* Slow path: one more chunk, which doubles the sites there is room for,
** and a twice-as-large index, so the index stays at most half full.
** Returns 0 if memory is not there. */
static int grow(void) {
  uint32_t old_slots = emheap_g.site_index_mask + 1, slots = old_slots * 2;
  if (emheap_g.site_chunks >= EMHEAP_SITE_CHUNKS) return 0;
  uint32_t *index = emheap_table_alloc((size_t)slots * sizeof(uint32_t));
  if (!index) return 0;
  if (!add_chunk()) {
    emheap_table_free(index, (size_t)slots * sizeof(uint32_t));
    return 0;
  }
  memset(index, 0, (size_t)slots * sizeof(uint32_t));
  uint32_t mask = slots - 1;
  for (uint32_t s = 1; s < emheap_g.counters.site_count; s++) {
    uint32_t i = index_slot(emheap_site_at(s)->key, mask);
    while (index[i]) i = (i + 1) & mask;
    index[i] = s;
  }
  emheap_table_free(emheap_g.site_index, (size_t)old_slots * sizeof(uint32_t));
  emheap_g.site_index = index;
  emheap_g.site_index_mask = mask;
  return 1;
}

/* Appends depth frames to the pool; returns their offset, or -1. */
static int64_t pool_append(const uint32_t *frames, uint32_t depth) {
  uint32_t used = emheap_g.frame_pool_used;
  if (depth > emheap_g.frame_pool_capacity - used) {
    uint64_t want = (uint64_t)emheap_g.frame_pool_capacity * 2 + depth + 1024;
    if (want > 0x20000000u) return -1;
    uint32_t *pool = emheap_table_alloc((size_t)want * sizeof(uint32_t));
    if (!pool) return -1;
    if (used) memcpy(pool, emheap_g.frame_pool, (size_t)used * sizeof(uint32_t));
    emheap_table_free(emheap_g.frame_pool, (size_t)emheap_g.frame_pool_capacity * sizeof(uint32_t));
    emheap_g.frame_pool = pool;
    emheap_g.frame_pool_capacity = (uint32_t)want;
  }
  memcpy(emheap_g.frame_pool + used, frames, (size_t)depth * sizeof(uint32_t));
  emheap_g.frame_pool_used = used + depth;
  return used;
}

/* The type the allocation being made comes with (alloc_token.c), onto its
** site: one call site passes one token, so a site with two is not one
** `new` (a stack cut short, a new_handler's allocation) and says so. */
static uint32_t with_alloc_type(uint32_t s) {
  uint32_t type = emheap_self.alloc_type;
  emheap_site *site = emheap_site_at(s);
  if (type && site->alloc_type != type) site->alloc_type = site->alloc_type ? EMHEAP_ALLOC_TYPE_MIXED : type;
  return s;
}

uint32_t emheap_sites_intern(uint64_t key, uint32_t stack_kind, uint32_t stack_ref,
                             const uint32_t *frames, uint32_t depth, uint32_t thread) {
  if (!emheap_g.site_chunks) {
    emheap_g.counters.lost_sites++;
    return EMHEAP_SITE_UNATTRIBUTED;
  }
  uint32_t mask = emheap_g.site_index_mask;
  uint32_t i = index_slot(key, mask);
  for (;; i = (i + 1) & mask) {
    uint32_t s = emheap_g.site_index[i];
    if (!s) break;
    if (emheap_site_at(s)->key == key) return with_alloc_type(s);
  }
  /* Miss: a new site. */
  if (emheap_g.counters.site_count == emheap_g.site_capacity) {
    if (!grow()) {
      emheap_g.counters.lost_sites++;
      return EMHEAP_SITE_UNATTRIBUTED;
    }
    mask = emheap_g.site_index_mask;
    for (i = index_slot(key, mask); emheap_g.site_index[i]; i = (i + 1) & mask) {}
  }
  if (stack_kind == EMHEAP_STACK_WASM) {
    int64_t at = pool_append(frames, depth);
    if (at < 0) {
      emheap_g.counters.lost_sites++;
      return EMHEAP_SITE_UNATTRIBUTED;
    }
    stack_ref = (uint32_t)at;
  }
  uint32_t s = emheap_g.counters.site_count++;
  emheap_site *site = emheap_site_at(s);
  memset(site, 0, sizeof *site);
  site->key = key;
  site->stack_kind = stack_kind;
  site->stack_ref = stack_ref;
  site->stack_depth = depth;
  site->thread = thread;
  emheap_g.site_index[i] = s;
  return with_alloc_type(s);
}

int emheap_top_sites(uint32_t *ids, double *bytes, uint32_t n) {
  for (uint32_t k = 0; k < n; k++) {
    ids[k] = 0;
    bytes[k] = 0;
  }
  int estimated = 0;
  uint32_t count = emheap_g.site_chunks ? emheap_g.counters.site_count : 0;
  for (uint32_t s = 0; s < count; s++) {
    double live = emheap_site_at(s)->live_bytes;
    if (!(live > bytes[n - 1])) continue;
    uint32_t k = n - 1;
    for (; k > 0 && live > bytes[k - 1]; k--) {
      ids[k] = ids[k - 1];
      bytes[k] = bytes[k - 1];
    }
    ids[k] = s;
    bytes[k] = live;
  }
  for (uint32_t k = 0; k < n; k++) estimated |= bytes[k] > 0 && emheap_site_at(ids[k])->est_bytes > 0;
  return estimated;
}
