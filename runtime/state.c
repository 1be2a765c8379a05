/*
** state.c -- the one profiler state, its lazy initialization, and the
** counters that do not belong to a single table.
**
** Initialization is lazy (first allocation, or the constructor below,
** whichever comes first) because libc and C++ constructors may allocate
** before any constructor of ours has run.
*/
#include <string.h>

#include "emheap_internal.h"

emheap_state emheap_g;

/* JS side (jslib/emheap_runtime.js): remembers where the state lives. */
extern void emheap_js_attach(emheap_state *state);

static inline uint32_t heap_size_now(void) {
  return (uint32_t)__builtin_wasm_memory_size(0) * 65536u;
}

void emheap_init_slow(void) {
  if (emheap_g.magic == EMHEAP_MAGIC) return;
  emheap_g.layout_version = EMHEAP_LAYOUT_VERSION;
  emheap_g.mode = EMHEAP_MODE_EXACT_JS;
  /* Without its tables emheap cannot track; the hooks then only forward
  ** (block_table_full makes every insert fail cleanly). */
  if (!emheap_sites_init() || !emheap_blocks_init()) emheap_g.block_table_full = 1;
  emheap_g.last_heap_size = heap_size_now();
  emheap_g.magic = EMHEAP_MAGIC;
  emheap_js_attach(&emheap_g);
}

__attribute__((constructor(101))) static void emheap_constructor(void) {
  emheap_ensure_init();
}

/* Called after an allocation. A memory.grow can only have happened inside
** the real allocator, so comparing sizes here catches every growth that an
** allocation caused and charges it to that allocation's site. */
void emheap_note_heap_growth(uint32_t site) {
  uint32_t now = heap_size_now();
  if (__builtin_expect(now == emheap_g.last_heap_size, 1)) return;
  if (now > emheap_g.last_heap_size) {
    emheap_growth *g = &emheap_g.growth[emheap_g.counters.heap_growths % EMHEAP_GROWTH_LOG];
    g->from_bytes = emheap_g.last_heap_size;
    g->to_bytes = now;
    g->site = site;
    emheap_g.counters.heap_growths++;
  }
  emheap_g.last_heap_size = now;
}

void emheap_get_counters(emheap_counters *out) {
  emheap_ensure_init();
  emheap_g.counters.heap_size = heap_size_now();
  memcpy(out, &emheap_g.counters, sizeof *out);
}
