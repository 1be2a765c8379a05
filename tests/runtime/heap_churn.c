/*
** heap_churn.c -- a heap as real programs leave it: 200,000 random
** operations over 20,000 slots (malloc of 1-300 bytes, one in ten up to
** 5,000; calloc; realloc that grows, shrinks or moves; free), from a seed
** given as the first argument. Then what the allocator's own mallinfo()
** says of its heap, emheap's snapshot, and mallinfo() again (the snapshot
** must leave the heap as it found it): MALLINFO {...}, HEAP {...} (the
** snapshot's allocatorHeap and summary), MALLINFO_AFTER {...}, against
** which tests/e2e/allocator_heap.test.js checks emheap's reading of the
** heap (capture/allocator_walk.js). Built -DCHURN_THREAD, the churn runs on
** a pthread that ends before the snapshot.
*/
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <emscripten.h>
#ifdef CHURN_THREAD
#include <pthread.h>
#endif

#define SLOTS 20000
#define OPERATIONS 200000

static void *slots[SLOTS];
static unsigned state;

static unsigned next_random(void) {
  state = state * 1103515245u + 12345u;
  return state >> 8;
}

static size_t random_size(void) {
  return next_random() % 10 == 0 ? 1 + next_random() % 5000 : 1 + next_random() % 300;
}

static void *churn(void *arg) {
  (void)arg;
  for (int i = 0; i < OPERATIONS; i++) {
    unsigned s = next_random() % SLOTS;
    unsigned what = next_random() % 8;
    if (!slots[s]) {
      slots[s] = what == 0 ? calloc(1, random_size()) : malloc(random_size());
      if (slots[s]) memset(slots[s], 1, 1);
    } else if (what < 2) {
      void *moved = realloc(slots[s], random_size());
      if (moved) slots[s] = moved;
    } else {
      free(slots[s]);
      slots[s] = NULL;
    }
  }
  return NULL;
}

static void print_mallinfo(const char *tag) {
  struct mallinfo info = mallinfo();
  printf("%s {\"fordblks\": %d, \"ordblks\": %d, \"keepcost\": %d, \"uordblks\": %d, \"arena\": %d}\n", tag,
         (int)info.fordblks, (int)info.ordblks, (int)info.keepcost, (int)info.uordblks, (int)info.arena);
  fflush(stdout);
}

int main(int argc, char **argv) {
  state = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1u;
#ifdef CHURN_THREAD
  pthread_t thread;
  pthread_create(&thread, NULL, churn, NULL);
  pthread_join(thread, NULL);
#else
  churn(NULL);
#endif
  print_mallinfo("MALLINFO");
  EM_ASM({
    var s = Module['emheap'].snapshot();
    console.log('HEAP ' + JSON.stringify({heap: s['allocatorHeap'], summary: s['summary']}));
  });
  print_mallinfo("MALLINFO_AFTER");
  return 0;
}
