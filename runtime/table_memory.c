/*
** table_memory.c -- memory for emheap's own tables (sites, frames, recorded
** blocks), taken so that profiling never starves the app.
**
** Emscripten's default heap is fixed (no ALLOW_MEMORY_GROWTH) and aborts
** the program when an allocation needs more than it has (ABORTING_MALLOC).
** So a table may grow only while the heap keeps plenty for the app: all of
** emheap's tables together stay under 1/16 of the largest heap the program
** may have (emscripten_get_heap_max: 1 MiB of Emscripten's default 16 MiB),
** and a growth takes at most 1/8 of the room left between the allocator's
** break and that limit. Past that, tables stop growing and emheap
** degrades: new stacks go to "(unattributed)", blocks go unrecorded, and
** counters.lost_* say how much (the snapshot, the CLI and the page show
** it). With memory growth the room is the growth limit (2 GiB by default):
** the check then never refuses, and a growth that fails returns NULL.
**
** A request the allocator can serve from free chunks below the break would
** be safe too, but nothing says in advance that it can: the rule is
** conservative.
*/
#include <emscripten/emmalloc.h>
#include <emscripten/heap.h>

#include "emheap_internal.h"

void *emheap_table_alloc(size_t bytes) {
  uintptr_t brk = *emheap_brk.sbrk_ptr;
  size_t max = emscripten_get_heap_max();
  size_t room = max > brk ? max - brk : 0;
  if (bytes > room / 8 || emheap_g.counters.table_bytes + bytes > max / 16) return NULL;
  void *p = emscripten_builtin_malloc(bytes);
  if (p) emheap_g.counters.table_bytes += bytes;
  return p;
}

void emheap_table_free(void *p, size_t bytes) {
  if (!p) return;
  emheap_g.counters.table_bytes -= bytes;
  emscripten_builtin_free(p);
}
