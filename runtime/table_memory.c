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
** it). With memory growth the room is the growth limit (2 GiB by default)
** and the tables may take 1/8 of it: 1M sites and 1M live blocks need
** ~200 MiB (176-byte sites, the site index, ~15 bytes per block). The
** site table grows by chunks and copies nothing (site_table.c), so its
** growth never needs the old table and the new at once. A growth that
** fails returns NULL.
**
** emheap_table_alloc_reserving leaves an eighth of both limits unused: the
** block table's growth takes it while exact mode records every block, so
** that the blocks it samples once refused (block_table.c) still find room.
**
** Footers (footer.h) count as tables: 8 bytes a recorded block, granted
** in steps (footer.c), the granted ones not yet taken included.
**
** A request the allocator can serve from free chunks below the break would
** be safe too, but nothing says in advance that it can: the rule is
** conservative.
*/
#include <string.h>

#include "builtin_alloc.h"
#include <emscripten/heap.h>

#include "emheap_internal.h"
#include "footer.h"

int emheap_table_fits(size_t bytes, int reserve) {
  uintptr_t brk = *emheap_brk.sbrk_ptr;
  size_t max = emscripten_get_heap_max();
  size_t room = (max > brk ? max - brk : 0) / 8;
  size_t cap = max > emscripten_get_heap_size() ? max / 8 : max / 16; /* growable : fixed */
  if (reserve) {
    room -= room / 8;
    cap -= cap / 8;
  }
  return bytes <= room && emheap_g.counters.table_bytes + emheap_footers_unused_bytes() + bytes <= cap;
}

static void *take(size_t bytes, int reserve) {
  if (!emheap_table_fits(bytes, reserve)) return NULL;
  void *p = emscripten_builtin_malloc(bytes);
  if (p) emheap_g.counters.table_bytes += bytes;
  return p;
}

void *emheap_table_alloc(size_t bytes) { return take(bytes, 0); }

void *emheap_table_alloc_reserving(size_t bytes) { return take(bytes, 1); }

/* The memory is cleared before it goes back: an old block table is full of
** the addresses of live blocks, and the allocator hands it to the app,
** whose uninitialized blocks would then look, to the heap scan
** (model/heap_graph.js), as if they pointed at those blocks. Measured on 20,000
** nodes with a data block each: 14,124 of the 20,000 data blocks had such
** edges. */
void emheap_table_free(void *p, size_t bytes) {
  if (!p) return;
  emheap_g.counters.table_bytes -= bytes;
  memset(p, 0, bytes);
  emscripten_builtin_free(p);
}
