/*
** heap_probe.c -- linked into a third-party program under test
** (tests/third_party/programs.mk): what dlmalloc's own mallinfo() says of
** its heap, and emheap's reading of the same heap at the same moment, as
** tagged lines (MALLINFO, HEAP). tests/third_party/snapshot_at_exit.js calls
** it when the program exits, the program's own main() having no hook.
*/
#include <emscripten.h>
#include <malloc.h>
#include <stdio.h>

static void print_mallinfo(const char *tag) {
  struct mallinfo info = mallinfo();
  printf("%s {\"fordblks\": %d, \"ordblks\": %d, \"smblks\": %d, \"keepcost\": %d, \"uordblks\": %d}\n", tag,
         (int)info.fordblks, (int)info.ordblks, (int)info.smblks, (int)info.keepcost, (int)info.uordblks);
  fflush(stdout);
}

/* (mallinfo() again after: the snapshot must leave the heap as it was) */
EMSCRIPTEN_KEEPALIVE void emheap_test_heap_probe(void) {
  print_mallinfo("MALLINFO");
  EM_ASM({
    var s = Module['emheap'].snapshot();
    console.log('HEAP ' + JSON.stringify({heap: s.allocatorHeap, summary: s.summary}));
  });
  print_mallinfo("MALLINFO_AFTER");
}
