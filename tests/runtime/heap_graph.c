/*
** heap_graph.c -- a heap whose shape is known, for the heap scan
** (runtime/roots.c, model/heap_graph.js): blocks kept by a global list, a
** tree, an interior pointer, the C stack, a registered region, a pointer
** only JS holds, and (with -pthread) the stacks of two other threads, one
** of which never allocates (so roots.c never registered it); a leaked list
** (its head directly leaked, the rest indirectly), a leaked cycle, a block
** whose only pointer sits in memory nobody scans.
** Prints "SNAPSHOT {...}" (emheap.snapshot({heap: true})) from inside main,
** while every block above is live, then "DUMP {"file": ...}": the file
** emheap.dumpHeap() wrote at the same moment (in the working directory),
** and "LATER_DUMP {...}" a second dump after one block is freed and two made.
*/
#include <emscripten.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the allocator itself, under emheap: memory emheap never sees */
void *emscripten_builtin_malloc(size_t size);

#include "emheap.h"

#ifdef __EMSCRIPTEN_PTHREADS__
#include <pthread.h>
#endif

typedef struct node {
  struct node *next;
  char payload[40];
} node;

node *kept_list;        /* 5 nodes, reachable */
node *kept_tree[3];     /* a root and two children */
char *kept_middle;      /* points 100 bytes into a 1000-byte block */
void **hidden_region;   /* untracked memory holding a pointer: registered */
void **unseen_region;   /* untracked memory holding a pointer: not registered */
node *volatile sink_list; /* the list made after the first dump */

__attribute__((noinline)) static node *make_list(int n) {
  node *head = NULL;
#pragma clang loop unroll(disable)
  for (int i = 0; i < n; i++) {
    node *x = malloc(sizeof(node));
    memset(x, 0, sizeof(node));
    x->next = head;
    head = x;
  }
  return head;
}

__attribute__((noinline)) static void make_tree(void) {
  kept_tree[0] = malloc(sizeof(node));
  memset(kept_tree[0], 0, sizeof(node));
  node *left = malloc(sizeof(node));
  node *right = malloc(sizeof(node));
  memset(left, 0, sizeof(node));
  memset(right, 0, sizeof(node));
  kept_tree[0]->next = left;
  ((node **)kept_tree[0]->payload)[0] = right;
}

__attribute__((noinline)) static void leak_list(void) {
  node *lost = make_list(3);
  (void)lost; /* the last pointer to the list is dropped here */
}

__attribute__((noinline)) static void leak_cycle(void) {
  node *a = malloc(sizeof(node));
  node *b = malloc(sizeof(node));
  memset(a, 0, sizeof(node));
  memset(b, 0, sizeof(node));
  a->next = b;
  b->next = a;
}

__attribute__((noinline)) static void keep_middle(void) {
  char *block = malloc(1000);
  memset(block, 0, 1000);
  kept_middle = block + 100;
}

__attribute__((noinline)) static void keep_hidden(void) {
  hidden_region = emscripten_builtin_malloc(16);
  hidden_region[0] = malloc(72);
  emheap_add_root(hidden_region, 16);
  unseen_region = emscripten_builtin_malloc(16);
  unseen_region[0] = malloc(88);
}

__attribute__((noinline)) static void keep_in_js(void) {
  void *p = malloc(56);
  EM_ASM({ Module['emheap'].addRoot($0); }, p);
}

__attribute__((noinline)) static void *on_stack_block(void) {
  return malloc(120);
}

static node *(*volatile make_list_fn)(int) = make_list;
static void (*volatile make_tree_fn)(void) = make_tree;
static void (*volatile leak_list_fn)(void) = leak_list;
static void (*volatile leak_cycle_fn)(void) = leak_cycle;
static void (*volatile keep_middle_fn)(void) = keep_middle;
static void (*volatile keep_hidden_fn)(void) = keep_hidden;
static void (*volatile keep_in_js_fn)(void) = keep_in_js;
static void *(*volatile on_stack_block_fn)(void) = on_stack_block;

#ifdef __EMSCRIPTEN_PTHREADS__
static volatile int thread_ready, thread_release;

__attribute__((noinline)) static void *thread_block(void) {
  return malloc(136);
}
static void *(*volatile thread_block_fn)(void) = thread_block;

/* The second thread never calls malloc: the block it holds is handed over
** through `handoff`, which it clears, and freed by main after the join. */
static void *volatile handoff;
static volatile int idle_ready;

__attribute__((noinline)) static void hand_off_block(void) {
  handoff = malloc(152);
}
static void (*volatile hand_off_block_fn)(void) = hand_off_block;

static void *idle_main(void *arg) {
  (void)arg;
  void *volatile held[1];
  held[0] = handoff;
  handoff = NULL;
  __atomic_store_n(&idle_ready, 1, __ATOMIC_SEQ_CST);
  while (!__atomic_load_n(&thread_release, __ATOMIC_SEQ_CST)) {
  }
  return held[0];
}

static void *thread_main(void *arg) {
  (void)arg;
  void *volatile mine[1]; /* in the thread's C stack, not only in a wasm local */
  mine[0] = thread_block_fn();
  __atomic_store_n(&thread_ready, 1, __ATOMIC_SEQ_CST);
  while (!__atomic_load_n(&thread_release, __ATOMIC_SEQ_CST)) {
  }
  free(mine[0]);
  return NULL;
}
#endif

int main(void) {
  kept_list = make_list_fn(5);
  make_tree_fn();
  leak_list_fn();
  leak_cycle_fn();
  keep_middle_fn();
  keep_hidden_fn();
  keep_in_js_fn();
  void *volatile local[1]; /* in the C stack, not only in a wasm local */
  local[0] = on_stack_block_fn();
#ifdef __EMSCRIPTEN_PTHREADS__
  pthread_t t, idle;
  pthread_create(&t, NULL, thread_main, NULL);
  while (!__atomic_load_n(&thread_ready, __ATOMIC_SEQ_CST)) {
  }
  hand_off_block_fn();
  pthread_create(&idle, NULL, idle_main, NULL);
  while (!__atomic_load_n(&idle_ready, __ATOMIC_SEQ_CST)) {
  }
#endif
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot({heap: true}))); });
  /* the same moment as a heap dump, for the offline analysis */
  EM_ASM({ console.log('DUMP ' + JSON.stringify({file: Module['emheap'].dumpHeap()})); });
  /* a moment later: the 1000-byte block freed, a list of two made */
  free(kept_middle - 100);
  kept_middle = NULL;
  node *later = make_list_fn(2);
  EM_ASM({ console.log('LATER_DUMP ' + JSON.stringify({file: Module['emheap'].dumpHeap()})); });
  sink_list = later;
#ifdef __EMSCRIPTEN_PTHREADS__
  __atomic_store_n(&thread_release, 1, __ATOMIC_SEQ_CST);
  pthread_join(t, NULL);
  void *held = NULL;
  pthread_join(idle, &held);
  free(held);
#endif
  printf("done %p\n", local[0]);
  return 0;
}
