/*
** roots.c -- where a scan for pointers into the heap starts: what LSan
** calls roots. The JS library reads emheap_roots at snapshot time, after
** emheap_roots_now() noted the calling thread's stack pointer, and scans
** every aligned 4-byte word of these ranges for pointers into live blocks
** (model/heap_graph.js):
**   - the static data [__dso_handle, __data_end): globals, .bss, and the
**     thread-locals of a program without threads;
**   - the calling thread's C stack, from its stack pointer to its base;
**   - every other thread that recorded a block: its whole stack (another
**     thread's stack pointer cannot be read, so dead frames may keep blocks
**     reachable, as in Emscripten's own LSan) and its thread-locals;
**   - each thread's `struct pthread` (pthread_self()): Emscripten keeps a
**     thread's mailbox there, and from 3.1.2x it puts the struct, the
**     thread-locals and the pthread_setspecific slots in one block of its
**     builtin allocator, which emheap never sees. The JS library knows the
**     struct's size (C_STRUCTS) and the threads that recorded nothing;
**   - the regions the app registers (emheap_add_root).
** Left out of the scan: emheap's own state and each thread's
** emheap_thread_state (random hashes that look like pointers), listed in
** `skip`. Not seen at all: pointers held only in wasm locals of running
** frames (a snapshot from the event loop has none), and JS values not
** registered (emheap.addRoot in JS).
**
** Invariants: thread_count <= EMHEAP_MAX_THREADS, region_count <=
** EMHEAP_MAX_ROOTS; changed under the lock. Layout read by
** capture/layout.js (readRoots): keep the two in step.
*/
#include <emscripten/emscripten.h>
#include <emscripten/stack.h>
#include <pthread.h>
#include <stddef.h>

#include "emheap_internal.h"
#include "lock.h"
#include "thread_state.h"


static emheap_roots roots;

/* Defined by wasm-ld: the static data's bounds. __dso_handle is where the
** data starts (__global_base, which a position-independent link does not
** define). Side modules' data lies in heap blocks of their own. */
extern char __dso_handle[];
extern char __data_end[];

void emheap_roots_init(void) {
  roots.data_lo = (uintptr_t)__dso_handle;
  roots.data_hi = (uintptr_t)__data_end;
  roots.self_size = sizeof(emheap_thread_state);
  roots.state = (uintptr_t)&emheap_g;
  roots.state_size = sizeof(emheap_state);
  roots.size = sizeof(emheap_roots);
  emheap_g.roots = (uintptr_t)&roots;
}

void emheap_roots_remove_thread(void) {
  uint64_t self = (uintptr_t)&emheap_self;
  emheap_lock();
  for (uint32_t i = 0; i < roots.thread_count; i++) {
    if (roots.threads[i].self == self) {
      roots.threads[i] = roots.threads[--roots.thread_count];
      break;
    }
  }
  emheap_unlock();
}

void emheap_roots_add_thread(void) {
  emheap_self.roots_added = 1;
#if EMHEAP_THREADED
  if (roots.thread_count >= EMHEAP_MAX_THREADS) {
    roots.threads_dropped++;
    return;
  }
  emheap_thread_roots *t = &roots.threads[roots.thread_count++];
  t->stack_lo = (uintptr_t)emscripten_stack_get_end();
  t->stack_hi = (uintptr_t)emscripten_stack_get_base();
  t->tls_lo = (uintptr_t)__builtin_wasm_tls_base();
  t->tls_hi = t->tls_lo + __builtin_wasm_tls_size();
  t->self = (uintptr_t)&emheap_self;
  t->pthread = (uintptr_t)pthread_self();
  emheap_watch_thread_exit();
#endif
}

/* Exported: the JS library calls it when it takes a snapshot. */
EMSCRIPTEN_KEEPALIVE emheap_roots *emheap_roots_now(void) {
  emheap_lock();
  roots.sp = (uintptr_t)emscripten_stack_get_current();
  roots.stack_lo = (uintptr_t)emscripten_stack_get_end();
  roots.stack_hi = (uintptr_t)emscripten_stack_get_base();
  roots.self = (uintptr_t)&emheap_self;
  roots.pthread = (uintptr_t)pthread_self();
  emheap_unlock();
  return &roots;
}

void emheap_add_root(const void *start, size_t size) {
  if (!emheap_g.magic) emheap_init_slow();
  emheap_lock();
  if (roots.region_count < EMHEAP_MAX_ROOTS) {
    roots.regions[roots.region_count].start = (uintptr_t)start;
    roots.regions[roots.region_count].size = size;
    roots.region_count++;
  } else {
    roots.regions_dropped++;
  }
  emheap_unlock();
}

void emheap_remove_root(const void *start) {
  emheap_lock();
  for (uint32_t i = 0; i < roots.region_count; i++) {
    if (roots.regions[i].start == (uintptr_t)start) {
      roots.regions[i] = roots.regions[--roots.region_count];
      break;
    }
  }
  emheap_unlock();
}
