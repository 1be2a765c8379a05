/*
** context.h -- the calling context of the allocation being made: which
** path of call sites led to it, as a 64-bit value that the JS library's
** load-time rewrite of the module keeps in a wasm global
** (contexts/wasm_instrument.js), and which JS stack lies outside the current
** wasm activation (JSID, a node of the JS stack table's trie; 0 while not
** known yet in this activation).
**
** The four placeholders are imports of the JS library; the rewrite turns
** every call of them into a global.get / global.set, so they cost a global
** read. In a module that was not rewritten they are JS functions that
** return 0, and emheap_contexts_on stays 0: nothing calls them.
*/
#ifndef EMHEAP_CONTEXT_H
#define EMHEAP_CONTEXT_H

#include <stdint.h>

#include "emheap_internal.h"
#include "lock.h"

extern uint32_t emheap_cc_lo(void);
extern uint32_t emheap_cc_hi(void);
extern uint32_t emheap_cc_js(void);
extern void emheap_cc_set_js(uint32_t jsid);

/* Nonzero when sites come from contexts (exact mode in a rewritten
** module): set once, at initialization. */
extern uint32_t emheap_contexts_on;

/* A checking mode for tests (EMHEAP_CONTEXTS=verify): every allocation
** also takes its JS stack, and a context whose site differs from the
** stack's is counted. JS reads the counts (library_emheap.js). */
typedef struct emheap_context_check {
  uint32_t verify;     /* nonzero in the checking mode */
  uint32_t checked;    /* allocations whose context had a site already */
  uint32_t mismatches; /* ... and whose JS stack named another site */
  uint32_t reserved;
} emheap_context_check;
extern emheap_context_check emheap_context_checks;

/* This thread's JS realm (0: the main thread's; single-threaded builds
** have no other). */
static inline uint32_t emheap_context_realm(void) {
#if EMHEAP_THREADED
  return emheap_js_thread_serial();
#else
  return 0;
#endif
}

/* The key of (context, JSID) on this thread: JSID nodes are per JS realm,
** so a worker's key includes its serial. Never 0 (the empty slot). */
static inline uint64_t emheap_context_key_of(uint32_t lo, uint32_t hi, uint32_t jsid, uint32_t thread) {
  uint64_t ctx = (uint64_t)hi << 32 | lo;
  uint64_t k = ctx ^ ((uint64_t)jsid * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)thread * 0xC2B2AE3D27D4EB4Full);
  return k ? k : 1;
}
static inline uint64_t emheap_context_key(uint32_t jsid, uint32_t thread) {
  return emheap_context_key_of(emheap_cc_lo(), emheap_cc_hi(), jsid, thread);
}

/* context_table.c, under the lock: the site of a key, or UINT32_MAX. */
uint32_t emheap_contexts_find(uint64_t key);
/* Remembers key -> site; when the table has no room, nothing (the next
** allocation from that context takes its JS stack again). */
void emheap_contexts_add(uint64_t key, uint32_t site);
int emheap_contexts_init(void);

#endif /* EMHEAP_CONTEXT_H */
