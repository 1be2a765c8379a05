/*
** out_of_memory.c -- a program that leaks at one site until the memory
** runs out, on Emscripten's defaults: a fixed 16 MB heap, and malloc that
** aborts the program when it cannot be met (ABORTING_MALLOC); built also
** with ABORTING_MALLOC=0, where malloc returns NULL and the program says so
** and exits with status 3. Run by tests/e2e/out_of_memory.test.js, which
** expects emheap to name leak_entry as the site that filled the memory.
**
** make_table keeps 1 MB from a site of its own; leak_entry is called in a
** loop (so binaryen keeps its frame) and leaks 64 KiB a call. Built with
** -DLEAK_ON_THREAD -pthread, the leak runs on a pthread (leak_thread), and
** the memory runs out on a worker; with -DBUSY_THREAD too, while another
** (busy_thread) allocates and frees small blocks without pause: the report,
** made inside dlmalloc, must not wait for a thread that waits for dlmalloc
** (runtime/footer.h).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef LEAK_ON_THREAD
#include <pthread.h>
#endif

static void *volatile sink;
static volatile int tag; /* sizes binaryen cannot fold */

__attribute__((noinline)) static void *make_table(int count) {
  void *p = 0;
  for (int i = 0; i < count; i++) p = malloc((1 << 20) + (tag & 1));
  return p;
}

__attribute__((noinline)) static void *leak_entry(int i) {
  char *p = malloc(65536 + (tag & 1));
  if (p) memset(p, i, 64);
  return p;
}

/* 3 when malloc returned NULL (ABORTING_MALLOC=0); never returns otherwise. */
static int leak_until_full(void) {
  for (int i = 0;; i++) {
    void *p = leak_entry(i);
    if (!p) {
      printf("malloc returned NULL after %d blocks\n", i);
      return 3;
    }
    sink = p;
  }
}

#ifdef LEAK_ON_THREAD
static void *leak_thread(void *arg) {
  (void)arg;
  return (void *)(long)leak_until_full();
}

#ifdef BUSY_THREAD
static void *volatile ring[64];
static volatile int busy_started;

static void *busy_thread(void *arg) {
  (void)arg;
  for (unsigned i = 0;; i++) {
    unsigned slot = i & 63;
    free(ring[slot]);
    ring[slot] = malloc(16 + (i & 127));
    busy_started = 1;
  }
  return NULL;
}
#endif
#endif

int main(void) {
  sink = make_table(1);
#ifdef LEAK_ON_THREAD
  pthread_t thread;
  void *status;
#ifdef BUSY_THREAD
  pthread_t busy;
  pthread_create(&busy, NULL, busy_thread, NULL);
  while (!busy_started) {
  }
#endif
  pthread_create(&thread, NULL, leak_thread, NULL);
  pthread_join(thread, &status);
  return (int)(long)status;
#else
  return leak_until_full();
#endif
}
