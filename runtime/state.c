/*
** state.c -- the one profiler state, its lazy initialization, and the
** counters that do not belong to a single table.
**
** Initialization is lazy (first allocation, or the constructor below,
** whichever comes first) because libc and C++ constructors may allocate
** before any constructor of ours has run.
**
** The mode is decided once, here, before the first block is recorded:
**   1. the page or environment (JS writes the state in emheap_js_attach:
**      Module.emheapOptions, ?emheap=..., EMHEAP_MODE=...),
**   2. else the link line (emheap-config --mode=..., mode_*.c),
**   3. else exact when the shadow stack is linked (exact stacks are cheap
**      there), sampled otherwise (exact JS stacks cost ~1000x a malloc).
*/
#include <string.h>

#include <emscripten/heap.h>

#include "emheap_internal.h"

emheap_state emheap_g;

/* Before initialization the break reads as 0: every pointer is above it,
** so block checks take their slow path (block_header.h). */
static const uintptr_t no_break_yet = 0;
emheap_break_watch emheap_brk = {&no_break_yet, 0};

/* JS side (jslib/library_emheap.js): remembers where the state lives and
** may set mode and sampling_interval. */
extern void emheap_js_attach(emheap_state *state);

/* Defined only when mode_*.c / shadow_stack.c are linked. */
extern const uint32_t emheap_link_mode __attribute__((weak));
extern void __cyg_profile_func_enter(void *, void *) __attribute__((weak));

static inline uint32_t heap_size_now(void) {
  return (uint32_t)__builtin_wasm_memory_size(0) * 65536u;
}

void emheap_init_slow(void) {
  if (emheap_g.magic == EMHEAP_MAGIC) return;
  emheap_g.layout_version = EMHEAP_LAYOUT_VERSION;
  emheap_g.shadow.linked = __cyg_profile_func_enter != NULL;
  if (&emheap_link_mode) emheap_g.mode = emheap_link_mode;
  else emheap_g.mode = emheap_g.shadow.linked ? EMHEAP_MODE_EXACT : EMHEAP_MODE_SAMPLED;
  emheap_g.sampling_interval = EMHEAP_DEFAULT_INTERVAL;
  emheap_g.rng = 0x853C49E6748FEA9Bull;
  int have_sites = emheap_sites_init();
  emheap_g.last_heap_size = heap_size_now();
  emheap_brk.sbrk_ptr = emscripten_get_sbrk_ptr();
  emheap_brk.last_break = *emheap_brk.sbrk_ptr;
  emheap_g.magic = EMHEAP_MAGIC;
  emheap_js_attach(&emheap_g);
  if (emheap_g.mode != EMHEAP_MODE_EXACT && emheap_g.mode != EMHEAP_MODE_SAMPLED)
    emheap_g.mode = EMHEAP_MODE_SAMPLED;
  if (!emheap_g.sampling_interval) emheap_g.sampling_interval = EMHEAP_DEFAULT_INTERVAL;
  emheap_g.sample_countdown = emheap_next_sample_distance();
  if (!have_sites) {
    /* No memory for even the first site table: count globally, never
    ** touch a site (sampled mode with a countdown that never runs out). */
    emheap_g.mode = EMHEAP_MODE_SAMPLED;
    emheap_g.sample_countdown = INT64_MAX;
  }
}

__attribute__((constructor(101))) static void emheap_constructor(void) {
  emheap_ensure_init();
}

/* Slow path of emheap_note_heap_growth (emheap_internal.h): the break
** moved, so the memory may have grown; if it did, log the event and charge
** it to the allocation's site. */
void emheap_break_moved(uint32_t site, uintptr_t now_break) {
  emheap_brk.last_break = now_break;
  uint32_t now = heap_size_now();
  if (now == emheap_g.last_heap_size) return;
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
