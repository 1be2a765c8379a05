/*
** pause.c -- region gating: emheap_pause()/emheap_resume() in C and
** emheap.pause()/resume() in JS. Allocations made while paused belong to
** no site (site 0, "(unattributed)"), yet the global counters stay exact
** and freeing those blocks later (after resume) is correct. Built in exact
** mode and run under node by tests/runtime.test.js, which reads the
** "COUNTERS {...}" and "SNAPSHOT {...}" lines printed at the end.
*/
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

#include <emscripten.h>

#include "emheap.h"

#define N 8

static void *volatile sink;

__attribute__((noinline)) void *tracked_site(size_t n) { return malloc(n); }
__attribute__((noinline)) void *paused_site_c(size_t n) { return malloc(n); }
__attribute__((noinline)) void *paused_site_js(size_t n) { return malloc(n); }

int main(void) {
  void *tracked[N], *paused_c[N], *paused_js[N];
  emheap_counters base;
  emheap_get_counters(&base); /* whatever libc allocated before main */
  for (int i = 0; i < N; i++) tracked[i] = tracked_site(1000);

  emheap_pause();
  for (int i = 0; i < N; i++) paused_c[i] = paused_site_c(300);
  emheap_resume();

  EM_ASM({ Module['emheap'].pause(); });
  for (int i = 0; i < N; i++) paused_js[i] = paused_site_js(70);
  EM_ASM({ Module['emheap'].resume(); });

  /* Free half of the blocks made while paused, after resuming: their
  ** headers say site 0, so site 0 shrinks and nothing is invalid. */
  for (int i = 0; i < N / 2; i++) {
    free(paused_c[i]);
    free(paused_js[i]);
  }
  sink = tracked[0];
  sink = paused_c[N - 1];
  sink = paused_js[N - 1];
  /* Usable sizes, what emheap counts: tracked, paused still live, paused ever. */
  unsigned long long t = 0, live = 0, ever = 0;
  for (int i = 0; i < N; i++) {
    t += malloc_usable_size(tracked[i]);
    if (i >= N / 2) live += malloc_usable_size(paused_c[i]) + malloc_usable_size(paused_js[i]);
  }
  ever = live * 2; /* the freed halves had the same sizes (same requests, fresh heap) */
  printf("SIZES {\"tracked\":%llu,\"pausedLive\":%llu,\"pausedEver\":%llu}\n", t, live, ever);

  emheap_counters c;
  emheap_get_counters(&c);
  printf("BASE {\"liveBytes\":%llu,\"totalBytes\":%llu,\"liveBlocks\":%u,\"mallocCalls\":%llu,\"freeCalls\":%llu}\n",
         (unsigned long long)base.live_bytes, (unsigned long long)base.total_bytes, base.live_blocks, (unsigned long long)base.malloc_calls,
         (unsigned long long)base.free_calls);
  printf("COUNTERS {\"liveBytes\":%llu,\"liveBlocks\":%u,\"totalBytes\":%llu,\"mallocCalls\":%llu,"
         "\"freeCalls\":%llu,\"invalidFrees\":%llu}\n",
         (unsigned long long)c.live_bytes, c.live_blocks, (unsigned long long)c.total_bytes,
         (unsigned long long)c.malloc_calls, (unsigned long long)c.free_calls,
         (unsigned long long)c.invalid_frees);
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  return 0;
}
