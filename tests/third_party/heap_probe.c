/*
** heap_probe.c -- linked into a third-party program under test
** (tests/third_party/programs.mk): what dlmalloc's own mallinfo() says of
** its heap, and emheap's reading of the same heap at the same moment, as
** tagged lines (MALLINFO, HEAP). tests/third_party/snapshot_at_exit.js calls
** it when the program exits, the program's own main() having no hook.
*/
#include <emscripten.h>
#include <malloc.h>

/* (by console.log, as the HEAP line: at exit, after the runtime of a
** -sEXIT_RUNTIME program ended, C's stdout no longer reaches node's) */
static void print_mallinfo(int after) {
  struct mallinfo m = mallinfo();
  EM_ASM({
    console.log(($5 ? 'MALLINFO_AFTER ' : 'MALLINFO ') +
                JSON.stringify({fordblks: $0, ordblks: $1, smblks: $2, keepcost: $3, uordblks: $4}));
  }, m.fordblks, m.ordblks, m.smblks, m.keepcost, m.uordblks, after);
}

/* (mallinfo() again after: the snapshot must leave the heap as it was) */
EMSCRIPTEN_KEEPALIVE void emheap_test_heap_probe(void) {
  print_mallinfo(0);
  EM_ASM({
    var s = Module['emheap'].snapshot();
    console.log('HEAP ' + JSON.stringify({heap: s.allocatorHeap, summary: s.summary}));
  });
  print_mallinfo(1);
}
