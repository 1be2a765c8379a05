/*
** heap_check.c -- heap budgets for C test suites (emheap.h: emheap_check_begin
** and emheap_check_end), the same checks as emheap/testing's heapCheck.
**
** The work is JS's (jslib/check_runs.js, model/heap_check.js): a snapshot
** when the check begins, one when it ends, and the text that names the
** functions over a limit, as `emheap top` groups them. Here only the
** entry points a C program calls, and the restart of the peak that JS asks
** for at the beginning.
*/
#include <emscripten/emscripten.h>

#include "emheap_internal.h"
#include "lock.h"

/* jslib/library_emheap.js: a check begun (its number, 0 if none could be)
** and ended (0 within the limits, 1 over one, -1 not checkable; message
** written either way). */
extern uint32_t emheap_js_check_begin(const char *name);
extern int emheap_js_check_end(uint32_t check, const emheap_limits *limits, char *message, size_t size);

uint32_t emheap_check_begin(const char *name) {
  if (emheap_g.magic != EMHEAP_MAGIC) emheap_init_slow();
  return emheap_js_check_begin(name);
}

int emheap_check_end(uint32_t check, const emheap_limits *limits, char *message, size_t size) {
  if (message && size) message[0] = 0;
  return emheap_js_check_end(check, limits, message, size);
}

/* The peak of live bytes is the live bytes now, and the mark made last
** (the check's own) says since when: snapshots show the highest since it
** (capture/layout.js readCounters: peakSinceMark). Called by JS when a check
** begins. */
EMSCRIPTEN_KEEPALIVE void emheap_restart_peak(void) {
  emheap_lock();
  emheap_new_peak(); /* with threads, live bytes not yet folded come as a new peak when folded */
  emheap_g.counters.peak_live_blocks = emheap_g.counters.live_blocks;
  emheap_g.peak_since_mark = emheap_g.mark_count;
  emheap_g.recorded_peak = emheap_g.recorded_bytes;
  emheap_unlock();
}
