/*
** state.c -- the one profiler state, its lazy initialization, and the
** counters that do not belong to a single table.
**
** Initialization is lazy (first allocation, or the constructor below,
** whichever comes first) because libc and C++ constructors may allocate
** before any constructor of ours has run. It runs before any thread is
** started (the main thread's startup allocates), so it needs no lock.
**
** The mode is decided once, here, before the first block is recorded:
**   1. the page or environment (JS writes the state in emheap_js_attach:
**      Module.emheapOptions, ?emheap=..., EMHEAP_MODE=...),
**   2. else the link line (emheap-config --mode=..., mode_*.c),
**   3. else exact: calling contexts make it cheap (context.h). Where the
**      JS library could not rewrite the module for them, it turns this
**      default (not a mode the user chose) to sampled and says why:
**      exact JS stacks cost ~1000x a malloc.
*/
#include <string.h>

#include <emscripten/emscripten.h>
#include <emscripten/heap.h>

#include "allocator.h"
#include "alloc_fast.h"
#include "context.h"
#include "lock.h"
#include "thread_state.h"

emheap_state emheap_g;
uint32_t emheap_on;
uint32_t emheap_record_threshold;
uint32_t emheap_fast;

/* Before initialization the break reads as 0: every pointer is above it,
** so no pointer passes the block checks (allocator.h). */
static const uintptr_t no_break_yet = 0;
emheap_break_watch emheap_brk = {&no_break_yet, 0};

/* JS side (jslib/library_emheap.js): remembers where the state lives and
** may set mode, sampling_interval, seed and paused. */
extern void emheap_js_attach(emheap_state *state);
/* JS side: 1 if the module was rewritten to keep calling contexts, 2 to
** check them (context.h); 0 if not. */
extern uint32_t emheap_js_contexts_ready(void);
/* JS side: milliseconds on a clock every thread shares (capture/clock.js):
** growths are timed on the JS timeline's clock. */
extern double emheap_js_now(void);
/* JS side, when JS asked (log_growths): growth number `serial` (1 = the
** first) was just written. Under the lock: JS reads the ring without it. */
extern void emheap_js_memory_grew(uint32_t serial);

#if !EMHEAP_THREADED
/* The single-threaded runtime in a program with threads would count
** wrong when threads allocate at once: the JS library defines this only
** when the program has no threads, so that such a link fails, naming the
** flag to use (jslib/library_emheap.js). Its address is taken, never
** called: linked with -sERROR_ON_UNDEFINED_SYMBOLS=0 anyway, the program
** still runs (and emheap_js_attach warns). */
extern void emheap_single_threaded_runtime_in_a_threaded_program__link_with_emheap_config_pthread(void);
static void (*volatile threads_check)(void) =
    emheap_single_threaded_runtime_in_a_threaded_program__link_with_emheap_config_pthread;
#endif

/* Defined only when a mode_*.c is linked. */
extern const uint32_t emheap_link_mode __attribute__((weak));
/* Defined by wasm-ld: the end of the static data and stack, the start of
** what sbrk hands out. */
extern unsigned char __heap_base;

__attribute__((noinline)) void emheap_new_peak(void) {
  emheap_counters *c = &emheap_g.counters;
  c->peak_live_bytes = c->live_bytes;
  emheap_g.peak_epoch++;
  emheap_g.peak_break = *emheap_brk.sbrk_ptr;
  emheap_g.blocks_at_peak = c->live_blocks;
  emheap_g.total_at_peak = c->total_bytes;
  emheap_g.recorded_at_peak = emheap_g.recorded_bytes;
  emheap_g.usable_at_peak = emheap_g.recorded_usable;
  emheap_g.tables_at_peak = c->table_bytes;
  emheap_g.estimates_at_peak = emheap_g.estimates;
  emheap_g.estimates_at_peak.recorded = emheap_g.blocks.count;
}

void emheap_init_slow(void) {
  if (emheap_g.magic == EMHEAP_MAGIC) return;
#if !EMHEAP_THREADED
  (void)threads_check; /* read, so that the linker keeps it */
#endif

  emheap_brk.sbrk_ptr = emscripten_get_sbrk_ptr();
  emheap_brk.last_break = *emheap_brk.sbrk_ptr;
  emheap_g.heap_base = (uintptr_t)&__heap_base;
  emheap_g.sbrk_ptr_addr = (uintptr_t)emheap_brk.sbrk_ptr;
  emheap_g.peak_break = emheap_brk.last_break;
  emheap_allocator_detect();
  emheap_roots_init();
  emheap_g.layout_version = EMHEAP_LAYOUT_VERSION;
  emheap_g.threaded = EMHEAP_THREADED;
  emheap_g.pointer_bytes = sizeof(void *);
#if EMHEAP_THREADED
  emheap_g.count_slots = (uintptr_t)emheap_count_slots;
  emheap_g.count_slot_count = EMHEAP_COUNT_SLOTS;
#endif
  emheap_g.mode = &emheap_link_mode ? emheap_link_mode : EMHEAP_MODE_EXACT;
  emheap_g.sampling_interval = EMHEAP_DEFAULT_INTERVAL;
  emheap_g.last_heap_size = emheap_heap_size_now();
  emheap_g.start_ms = emheap_js_now();
  emheap_g.magic = EMHEAP_MAGIC;
  emheap_js_attach(&emheap_g);
  uint32_t mode = emheap_g.mode;
  if (mode != EMHEAP_MODE_EXACT && mode != EMHEAP_MODE_SAMPLED && mode != EMHEAP_MODE_OFF)
    emheap_g.mode = mode = EMHEAP_MODE_SAMPLED;
  if (!emheap_g.sampling_interval) emheap_g.sampling_interval = EMHEAP_DEFAULT_INTERVAL;
  if (!emheap_g.seed) emheap_g.seed = 0x853C49E6748FEA9Bull ^ (uint64_t)(uintptr_t)&emheap_g;
  if (mode == EMHEAP_MODE_OFF) return; /* no tables, nothing counted: every entry point forwards */
  /* Without room for the first tables, blocks are counted globally and
  ** recorded nowhere (lost_*). */
  emheap_sites_init();
  emheap_blocks_init();
  /* Calling contexts name exact sites where the JS library rewrote the
  ** module (contexts/wasm_instrument.js). */
  emheap_g.context_checks = (uintptr_t)&emheap_context_checks;
  if (mode == EMHEAP_MODE_EXACT) {
    uint32_t ready = emheap_js_contexts_ready();
    emheap_context_checks.verify = ready == 2;
    if (ready) emheap_contexts_on = emheap_contexts_init();
  }
  emheap_record_threshold = mode == EMHEAP_MODE_EXACT ? 0 : emheap_g.sampling_interval;
  /* Footer mode (footer.h) where it can be: JS found dlmalloc's state at
  ** attach (and was not told to leave footers off); with threads, its
  ** mutex where footer.h takes it. The footers' walk reads wasm32's chunk
  ** heads: a wasm64 runtime keeps the block table. */
  emheap_g.footers = __SIZEOF_POINTER__ == 4 && mode == EMHEAP_MODE_EXACT && emheap_allocator == EMHEAP_ALLOCATOR_DLMALLOC &&
                     emheap_g.dl_state && emheap_g.dl_seg && emheap_g.site_chunks &&
                     (!EMHEAP_THREADED || emheap_g.dl_seg - emheap_g.dl_state == DL_SEG_PTHREAD_LOCK);
  emheap_fast = !EMHEAP_THREADED && emheap_g.footers && emheap_contexts_on && !emheap_context_checks.verify &&
                !emheap_g.pool_count;
  emheap_on = 1;
}

__attribute__((constructor(101))) static void emheap_constructor(void) {
  if (!emheap_on) emheap_init_slow();
}

/* Slow path of emheap_note_heap_growth (emheap_internal.h): the break
** moved, so the memory may have grown; if it did, log the event, charged to
** the allocation's site (`request` bytes asked for, 0 if not known), with
** the time and the sites that hold the most. Under the lock. */
void emheap_break_moved(uint32_t site, uint32_t request, uintptr_t now_break) {
  emheap_brk.last_break = now_break;
  uint64_t now = emheap_heap_size_now();
  if (now == emheap_g.last_heap_size) return;
  if (now > emheap_g.last_heap_size) {
    emheap_growth *g = &emheap_g.growth[emheap_g.counters.heap_growths % EMHEAP_GROWTH_LOG];
    g->from_bytes = emheap_g.last_heap_size;
    g->to_bytes = now;
    g->site = site;
    g->request = request;
    g->t = emheap_js_now() - emheap_g.start_ms;
    g->flags = emheap_top_sites(g->top_site, g->top_bytes, EMHEAP_GROWTH_TOP) ? EMHEAP_GROWTH_ESTIMATED : 0;
    emheap_g.counters.heap_growths++;
    if (emheap_g.log_growths) emheap_js_memory_grew(emheap_g.counters.heap_growths);
  }
  emheap_g.last_heap_size = now;
}

void emheap_get_counters(emheap_counters *out) {
  if (!emheap_g.magic) emheap_init_slow();
  emheap_lock();
  emheap_g.counters.heap_size = emheap_heap_size_now();
  emheap_sum_counters(out);
  emheap_unlock();
}

/* For JS on a pthread (jslib: stateAddress): emheap_js_attach told only the
** realm that initialized the runtime. NULL before initialization. */
EMSCRIPTEN_KEEPALIVE emheap_state *emheap_state_address(void) {
  return emheap_g.magic == EMHEAP_MAGIC ? &emheap_g : NULL;
}

void emheap_pause(void) { __atomic_store_n(&emheap_g.paused, 1u, __ATOMIC_RELAXED); }
void emheap_resume(void) { __atomic_store_n(&emheap_g.paused, 0u, __ATOMIC_RELAXED); }
