/*
** thread_exit.c -- what happens when a thread ends: what it kept in
** emheap's tables is handed back, and the thread data that Emscripten
** frees behind emheap's back is taken out of the books.
**
** A thread that registered roots (roots.c) or claimed a counting slot
** (thread_counts.c) is watched: a pthread key destructor, which runs on the
** exiting thread, removes its roots and folds and frees its slot.
**
** Emscripten up to 3.1.13 allocates a new thread's struct and stack with
** malloc and memalign (so emheap counts them) and frees them with
** emscripten_builtin_free when the thread is gone (so emheap would count
** them live forever: a 64 KiB-2 MiB stack per thread ever created). Its JS
** calls _emscripten_thread_free_data(thread) just before; the JS library
** wraps that call and tells this file first. From 3.1.14 on, Emscripten
** takes all of a thread's memory from the builtin allocator (one block,
** never seen by emheap), so there is nothing to do: a version check, since
** no feature tells the two apart at run time.
**
** Its TSD array (the values of the thread's pthread keys, 512 bytes) is
** malloc'd in pthread_create too, and freed with the builtin allocator on
** the exiting thread itself, right after the key destructors. So every
** thread is watched there: the JS library calls emheap_thread_starts()
** before a thread's entry point, which sets emheap's key; its destructor
** (thread_gone) takes the array out of the books while it still exists.
** Without that, each thread that ever ran left 516 bytes counted live (and
** in the leak report) for good.
**
** Not handled: a stack the app passed in with pthread_attr_setstack and
** frees itself is untracked here too early.
*/
#define _GNU_SOURCE
#include <pthread.h>

#include <emscripten/emscripten.h>

#include "alloc_fast.h"

/* Emscripten's version: __EMSCRIPTEN_MAJOR__ & co. since 4.x (the
** lower-case names are deprecated there, a warning under -Werror), the
** lower-case ones before. Any version with the upper-case names is past
** 3.1.13. */
#if defined(__EMSCRIPTEN_MAJOR__)
#define THREAD_DATA_FROM_MALLOC 0
#elif EMHEAP_THREADED && defined(__EMSCRIPTEN_major__) &&                                     \
    (__EMSCRIPTEN_major__ < 3 || (__EMSCRIPTEN_major__ == 3 && __EMSCRIPTEN_minor__ < 1) || \
     (__EMSCRIPTEN_major__ == 3 && __EMSCRIPTEN_minor__ == 1 && __EMSCRIPTEN_tiny__ <= 13))
#define THREAD_DATA_FROM_MALLOC 1
#else
#define THREAD_DATA_FROM_MALLOC 0
#endif

static void untrack(void *p) {
  if (p && emheap_plausible_block(p)) emheap_track_any_free(p, NULL);
}

#if EMHEAP_THREADED
static pthread_key_t exit_key;
static int exit_key_made;

/* The calling thread's TSD array, or NULL. struct pthread is musl's
** internal layout, which emheap does not compile against, so the array is
** found by what it holds: the word of the thread's struct that points to a
** live block whose slot exit_key holds the value this thread just set. Only
** for a thread whose struct came from malloc (not the main thread's). */
static void *find_own_tsd(void) {
  uint32_t *self = (uint32_t *)pthread_self();
  if (!THREAD_DATA_FROM_MALLOC || !emheap_plausible_block(self)) return NULL;
  uint32_t words = emheap_usable_size(self) / 4;
  for (uint32_t i = 0; i < words; i++) {
    void **tsd = (void **)(uintptr_t)self[i];
    if (tsd != (void **)self && emheap_plausible_block(tsd) &&
        emheap_usable_size(tsd) > exit_key * sizeof(void *) && tsd[exit_key] == &emheap_self)
      return tsd;
  }
  return NULL;
}

static void thread_gone(void *self) {
  (void)self;
  /* first: the slot released below takes this count with it */
  untrack(emheap_self.tsd);
  emheap_self.tsd = NULL;
  emheap_roots_remove_thread();
  emheap_release_count_slot();
}

void emheap_watch_thread_exit(void) {
  if (emheap_self.exit_watched) return;
  emheap_self.exit_watched = 1;
  /* Called under emheap's lock, against lock.h's "no other lock inside"
  ** rule, and safe: musl's pthread_key_create and pthread_setspecific
  ** neither allocate nor wait for a thread that could hold our lock
  ** (key_lock is held around no malloc and released around destructors).
  ** The key is one of the app's PTHREAD_KEYS_MAX (128). */
  if (!exit_key_made) exit_key_made = pthread_key_create(&exit_key, thread_gone) == 0 ? 1 : -1;
  if (exit_key_made == 1 && pthread_setspecific(exit_key, &emheap_self) == 0) emheap_self.tsd = find_own_tsd();
}
#endif

/* Exported: the JS library calls it on a new thread, before its entry
** point (jslib/library_emheap.js), so that the thread's exit is watched
** even if it never allocates. */
EMSCRIPTEN_KEEPALIVE void emheap_thread_starts(void) {
#if EMHEAP_THREADED
  if (!THREAD_DATA_FROM_MALLOC || !emheap_on) return;
  emheap_lock();
  emheap_watch_thread_exit();
  emheap_unlock();
#endif
}

/* Exported: the JS library calls it (jslib/library_emheap.js). */
EMSCRIPTEN_KEEPALIVE void emheap_thread_data_freed(void *thread) {
  if (!THREAD_DATA_FROM_MALLOC || !emheap_on || !thread) return;
  pthread_attr_t attr;
  void *stack;
  size_t size;
  if (pthread_getattr_np((pthread_t)thread, &attr) == 0) {
    if (pthread_attr_getstack(&attr, &stack, &size) == 0) untrack(stack);
    pthread_attr_destroy(&attr);
  }
  untrack(thread);
}
