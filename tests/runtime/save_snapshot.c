/*
** save_snapshot.c -- a program that saves its own snapshots
** (emheap_save_snapshot, emheap.h), run by tests/e2e/save_snapshot.test.js
** under node and in headless Chromium. The plan: keep_block keeps 40
** blocks of 1,000 bytes and one of 24 (its second caller, keep_small);
** then a speedscope file is saved (SAVE <status>), a format that is none
** is refused (BAD <status>), every other 1,000-byte block is freed, and a
** PerfView file is saved (PERFVIEW <status>). Built -DON_THREAD (with
** -pthread) the blocks are kept and the first save made on a pthread.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef ON_THREAD
#include <pthread.h>
#endif

#include "emheap.h"

#define BLOCKS 40

static void *volatile kept[BLOCKS + 1];
static volatile int blocks = BLOCKS;

/* (two callers, or binaryen inlines it and its frame is gone) */
__attribute__((noinline)) static void *keep_block(size_t n) {
  char *p = malloc(n);
  if (p) memset(p, 1, n);
  return p;
}

__attribute__((noinline)) static void keep_small(void) { kept[BLOCKS] = keep_block(24); }

static void *keep_and_save(void *arg) {
  (void)arg;
  for (int i = 0; i < blocks; i++) kept[i] = keep_block(1000);
  keep_small();
  printf("SAVE %d\n", emheap_save_snapshot(NULL));
  return NULL;
}

int main(void) {
#ifdef ON_THREAD
  pthread_t thread;
  pthread_create(&thread, NULL, keep_and_save, NULL);
  pthread_join(thread, NULL);
#else
  keep_and_save(NULL);
#endif
  printf("BAD %d\n", emheap_save_snapshot("no-such-format"));
  for (int i = 0; i < blocks; i += 2) free(kept[i]);
  printf("PERFVIEW %d\n", emheap_save_snapshot("perfview"));
  fflush(stdout);
  return 0;
}
