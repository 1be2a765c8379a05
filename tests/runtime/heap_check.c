/*
** heap_check.c -- a module checked by heap budgets in tests
** (tests/e2e/heap_check.test.js): parse(n) makes n tokens and frees them;
** built with -DLEAK it keeps every fourth one (remember_token), the leak a
** test suite must name. burst(bytes) holds a buffer for a moment (a peak
** that leaves nothing behind). Built with -DC_API it is a C test suite of
** its own: main checks keep_one, parse and burst with
** emheap_check_begin/end and prints each verdict; with -DTHREADS too
** (-pthread), its leak checks after a thread that allocated, kept a block
** and exited before they began.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <emscripten/emscripten.h>

#include "emheap.h"

static char *kept[1 << 16];
static int kept_count;

/* (two callers each, or Binaryen inlines them and the frames are gone) */
__attribute__((noinline)) static char *make_token(int i) {
  char *t = malloc(24 + i % 8);
  memset(t, 'a', 16);
  t[16] = 0;
  return t;
}

__attribute__((noinline)) static void remember_token(char *t) {
  if (kept_count < (int)(sizeof kept / sizeof kept[0])) kept[kept_count++] = t;
  else free(t);
}

EMSCRIPTEN_KEEPALIVE int parse(int n) {
  int sum = 0;
  for (int i = 0; i < n; i++) {
    char *t = make_token(i);
    sum += t[i % 16];
#ifdef LEAK
    if (i % 4 == 0) {
      remember_token(t);
      continue;
    }
#endif
    free(t);
  }
  return sum;
}

/* A second caller of both helpers. */
EMSCRIPTEN_KEEPALIVE void keep_one(void) { remember_token(make_token(1)); }

EMSCRIPTEN_KEEPALIVE int burst(int bytes) {
  char *b = malloc(bytes);
  memset(b, 1, bytes);
  int r = b[bytes - 1];
  free(b);
  return r;
}

#ifdef C_API
#ifdef THREADS
#include <pthread.h>

static void *before_the_checks(void *arg) {
  (void)arg;
  for (int i = 0; i < 100; i++) {
    char *t = make_token(i);
    if (i == 99) remember_token(t); /* kept: live before any check begins */
    else free(t);
  }
  return NULL;
}
#endif

static const emheap_limits NONE = {EMHEAP_NO_LIMIT, EMHEAP_NO_LIMIT, EMHEAP_NO_LIMIT, EMHEAP_NO_LIMIT, EMHEAP_NO_LIMIT};

static char message[4096];

static void verdict(const char *what, int status) { printf("%s: %d\n%s\n--\n", what, status, message); }

/* What the heap holds before the checks, in requested bytes (the limits'
** bytes): the runtime's own blocks, 0 but in Emscripten 6's threaded
** runtime (its main thread's mailbox, made before main). Printed for the
** test; the live limits count from it. */
static int64_t held_before_checks(void) {
  int64_t held = (int64_t)EM_ASM_DOUBLE({ return Module['emheap'].snapshot().summary.requestedLiveBytes; });
  printf("held before the checks: %lld\n\n--\n", (long long)held);
  return held;
}

int main(void) {
  /* The heap's live bytes first, while it holds only what these checks keep
  ** and what the runtime held already (a fresh runtime, before the thread:
  ** a threaded program's runtime can keep blocks of a thread that came and
  ** went): keep_one keeps token 1, 24 + 1 % 8 bytes, each time. */
  int64_t held = held_before_checks();
  emheap_limits live = NONE;
  live.live_bytes = held + 24 + 1 % 8;
  uint32_t check = emheap_check_begin("keep one, live");
  keep_one();
  verdict("keep one, its bytes live allowed", emheap_check_end(check, &live, message, sizeof message));
  live.live_bytes = held + 2 * (24 + 1 % 8) - 1;
  check = emheap_check_begin("keep another, live");
  keep_one();
  verdict("keep another, a byte less live allowed", emheap_check_end(check, &live, message, sizeof message));

  emheap_limits no_leak = NONE;
  no_leak.leaked_bytes = 0;
#ifdef THREADS
  pthread_t thread;
  pthread_create(&thread, NULL, before_the_checks, NULL);
  pthread_join(thread, NULL);
#endif
  parse(100); /* a warm-up */
  check = emheap_check_begin("parse");
  parse(1000);
  verdict("parse, no leak allowed", emheap_check_end(check, &no_leak, message, sizeof message));

  check = emheap_check_begin("keep one");
  keep_one();
  verdict("keep one, no leak allowed", emheap_check_end(check, &no_leak, message, sizeof message));

  emheap_counters now;
  emheap_get_counters(&now);
  emheap_limits peak = NONE;
  peak.peak_bytes = (int64_t)now.live_bytes + 512 * 1024;
  check = emheap_check_begin("small burst");
  burst(256 * 1024);
  verdict("small burst, peak 512 KiB over", emheap_check_end(check, &peak, message, sizeof message));
  check = emheap_check_begin("large burst");
  burst(1024 * 1024);
  verdict("large burst, peak 512 KiB over", emheap_check_end(check, &peak, message, sizeof message));

  emheap_limits allocs = NONE;
  allocs.allocs = 1000;
  check = emheap_check_begin("1000 tokens");
  parse(1000);
  verdict("1000 tokens, 1000 allocations allowed", emheap_check_end(check, &allocs, message, sizeof message));
  check = emheap_check_begin("1001 tokens");
  parse(1001);
  verdict("1001 tokens, 1000 allocations allowed", emheap_check_end(check, &allocs, message, sizeof message));

  /* the bytes parse(1000) asks for, as make_token asks them: the plan */
  int64_t planned = 0;
  for (int i = 0; i < 1000; i++) planned += 24 + i % 8;
  emheap_limits total = NONE;
  total.total_bytes = planned;
  check = emheap_check_begin("1000 tokens' bytes");
  parse(1000);
  verdict("1000 tokens, their bytes allowed", emheap_check_end(check, &total, message, sizeof message));
  total.total_bytes = planned - 1;
  check = emheap_check_begin("1000 tokens' bytes less one");
  parse(1000);
  verdict("1000 tokens, a byte less allowed", emheap_check_end(check, &total, message, sizeof message));

  char small[40];
  check = emheap_check_begin("small buffer");
  keep_one();
  int status = emheap_check_end(check, &no_leak, small, sizeof small);
  printf("small buffer: %d, %zu bytes: %s\n--\n", status, strlen(small), small);

  verdict("a check ended twice", emheap_check_end(check, &no_leak, message, sizeof message));
  return 0;
}
#endif
