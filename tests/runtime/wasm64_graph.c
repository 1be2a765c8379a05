/*
** wasm64_graph.c -- a wasm64 (-m64) heap whose shape is known, laid out
** above 4 GiB, for the heap graph and the allocator's view of the heap:
** BIG_COUNT blocks of BIG bytes push the break past 4 GiB, then
**   - a list of KEPT nodes hangs from a global (reachable),
**   - a list of LOST nodes whose head pointer is dropped (one direct leak,
**     the rest indirect),
**   - a cycle of CYCLE nodes nothing points to (all indirect),
** every node above 4 GiB (a pointer's high word is not 0: the free chunks
** below are drained first, and given back after), then the big blocks
** are freed (dlmalloc joins them into one free chunk of more than 4 GiB;
** built for emmalloc, -DKEEP_MIDDLE keeps one, see below). With -DON_THREAD (-pthread) the lists are made on a thread.
** It prints its plan (PLAN), what mallinfo() says (MALLINFO), the snapshot
** with its heap graph (SNAPSHOT) and a heap dump's file name (DUMP), which
** tests/e2e/wasm64.test.js compares; in a page it titles the page
** "planted" instead.
*/
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <emscripten.h>
#ifdef ON_THREAD
#include <pthread.h>
#endif

#define BIG ((size_t)130 << 20)
#define BIG_COUNT 33 /* 4.2 GiB */
#define KEPT 5
#define LOST 4
#define CYCLE 3

typedef struct node {
  struct node *next;
  char payload[];
} node;

static void *big[BIG_COUNT];
node *kept_list; /* the root of the reachable list */
/* the lowest node's 4 KiB page: its address itself, in a global, would be
** a root that keeps that node (a conservative scan takes any word) */
static uintptr_t lowest_page = UINTPTR_MAX;

/* n bytes from above 4 GiB: what dlmalloc hands out below is held, and
** freed once the lists are made. */
#define FOUR_GIB ((uintptr_t)1 << 32)
#define HELD_MAX (1 << 16)
static void *held[HELD_MAX];
static int held_count;
static node *above_4gib(size_t n) {
  for (;;) {
    void *p = malloc(n);
    if (!p || (uintptr_t)p >= FOUR_GIB || held_count == HELD_MAX) {
      if (p && ((uintptr_t)p >> 12) < lowest_page) lowest_page = (uintptr_t)p >> 12;
      return p;
    }
    held[held_count++] = p;
  }
}

/* Each maker has two callers (a list's head and the rest), so that
** binaryen keeps it a function of its own. */
__attribute__((noinline)) node *kept_node(node *next) {
  node *n = above_4gib(sizeof(node) + 40);
  if (n) n->next = next;
  return n;
}
__attribute__((noinline)) node *lost_node(node *next) {
  node *n = above_4gib(sizeof(node) + 56);
  if (n) n->next = next;
  return n;
}
__attribute__((noinline)) node *cycle_node(node *next) {
  node *n = above_4gib(sizeof(node) + 72);
  if (n) n->next = next;
  return n;
}

static void *make_lists(void *unused) {
  (void)unused;
  node *k = kept_node(NULL);
  for (int i = 1; i < KEPT; i++) k = kept_node(k);
  kept_list = k;
  node *volatile lost = lost_node(NULL);
  for (int i = 1; i < LOST; i++) lost = lost_node(lost);
  lost = NULL; /* the last pointer to the list's head */
  node *first = cycle_node(NULL);
  node *c = first;
  for (int i = 1; i < CYCLE; i++) c = cycle_node(c);
  first->next = c; /* closed: each node is pointed to by another */
  c = first = NULL;
  for (int i = 0; i < held_count; i++) free(held[i]);
  return NULL;
}

int main(void) {
  for (int i = 0; i < BIG_COUNT; i++)
    if (!(big[i] = malloc(BIG))) return 1;
#ifdef ON_THREAD
  pthread_t thread;
  if (pthread_create(&thread, NULL, make_lists, NULL) || pthread_join(thread, NULL)) return 1;
#else
  make_lists(NULL);
#endif
#ifdef KEEP_MIDDLE
  /* emmalloc (-DKEEP_MIDDLE): one big block stays, so that no free region
  ** reaches 4 GiB. emmalloc's free() clears its free flag with a 32-bit
  ** mask (`size & ~FREE_REGION_FLAG`, FREE_REGION_FLAG 0x1u), which drops a
  ** wasm64 size's high bits: it then merges the wrong region and its own
  ** emmalloc_validate_memory_regions() calls the heap corrupt. */
  for (int i = 0; i < BIG_COUNT; i++)
    if (i != BIG_COUNT / 2) free(big[i]);
#else
  for (int i = 0; i < BIG_COUNT; i++) free(big[i]);
#endif
  printf("PLAN {\"kept\": [%d, %zu], \"lost\": [%d, %zu], \"cycle\": [%d, %zu], \"lowest\": %llu}\n", KEPT,
         sizeof(node) + 40, LOST, sizeof(node) + 56, CYCLE, sizeof(node) + 72, (unsigned long long)lowest_page << 12);
  struct mallinfo info = mallinfo();
  printf("MALLINFO {\"fordblks\": %llu, \"ordblks\": %llu, \"keepcost\": %llu, \"uordblks\": %llu}\n",
         (unsigned long long)info.fordblks, (unsigned long long)info.ordblks, (unsigned long long)info.keepcost,
         (unsigned long long)info.uordblks);
  fflush(stdout);
  EM_ASM({
    if (typeof document === 'object') { /* a page: the test presses Ctrl+Shift+X now */
      document.title = 'planted';
      return;
    }
    var s = Module['emheap'].snapshot({heap: true});
    console.log('SNAPSHOT ' + JSON.stringify(s));
    console.log('DUMP ' + JSON.stringify({file: Module['emheap'].dumpHeap()}));
  });
  return 0;
}
