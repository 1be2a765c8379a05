/*
** stack_capture.c -- which call stack is allocating right now.
**
** Shadow stack first: when the app's code is compiled with
** -finstrument-functions, shadow_stack.c keeps the chain of functions and a
** hash of it, so finding the site is one hash-table lookup with no call
** into JS. Otherwise (system code, startup, blocks JS asks for) the stack
** comes from JS: `new Error().stack`, interned into a small id.
*/
#include "emheap_internal.h"

/* jslib/library_emheap.js: a JS stack id >= 1, or 0 if none was taken. */
extern uint32_t emheap_js_capture_stack(void);

#define JS_KEY_TAG (1ull << 63) /* JS stack ids and shadow hashes never collide */

__attribute__((noinline)) uint32_t emheap_current_site(void) {
  if (emheap_g.paused) return EMHEAP_SITE_UNATTRIBUTED;
  emheap_shadow *s = &emheap_g.shadow;
  uint32_t depth = s->depth;
  if (depth) {
    uint32_t stored = depth < EMHEAP_SHADOW_CAPACITY ? depth : EMHEAP_SHADOW_CAPACITY;
    /* Hash only the frames pushed since the last allocation (see the
    ** invariant on emheap_shadow). */
    for (uint32_t i = s->hashed; i < stored; i++) s->hash[i + 1] = emheap_shadow_mix(s->hash[i], s->fn[i]);
    if (stored > s->hashed) s->hashed = stored;
    uint64_t key = s->hash[stored] & ~JS_KEY_TAG;
    return emheap_sites_intern(key, EMHEAP_STACK_SHADOW, 0, s->fn, stored);
  }
  uint32_t stack_id = emheap_js_capture_stack();
  if (!stack_id) return EMHEAP_SITE_UNATTRIBUTED;
  return emheap_sites_intern(JS_KEY_TAG | stack_id, EMHEAP_STACK_JS, stack_id, NULL, 0);
}
