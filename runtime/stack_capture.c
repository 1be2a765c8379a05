/*
** stack_capture.c -- which call stack is allocating right now.
**
** Exact-JS mode: JS captures `new Error().stack`, interns it, and returns a
** small stack id (>= 1); the id is the site key. The JS side cleans the
** stack, dropping the runtime's own frames: this function and the public
** entry point that called it, which is why it must not be inlined and
** must be called directly from malloc, calloc, realloc, etc.
*/
#include "emheap_internal.h"

/* jslib/emheap_runtime.js: 0 if no stack could be captured. */
extern uint32_t emheap_js_capture_stack(void);

__attribute__((noinline)) uint32_t emheap_current_site(void) {
  if (emheap_g.paused) return EMHEAP_SITE_UNATTRIBUTED;
  uint32_t stack_id = emheap_js_capture_stack();
  if (!stack_id) return EMHEAP_SITE_UNATTRIBUTED;
  return emheap_sites_intern(stack_id, stack_id);
}
