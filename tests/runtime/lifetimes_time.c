/*
** lifetimes_time.c -- blocks that live a known time: hold_long keeps 10
** blocks from the start, hold_short 10 more from 1.4 s, and at 1.6 s both
** groups are freed (the event loop runs in between, so the timeline's
** points come every 100 ms). Prints the snapshot then (SNAPSHOT {...}).
** Run by tests/e2e/lifetimes.test.js: hold_long's blocks must count in
** "1-10 s", hold_short's under 1 s.
*/
#include <stdlib.h>
#include <string.h>
#include <emscripten.h>
#include <emscripten/eventloop.h>

#define GROUP 10

static void *longer[GROUP], *shorter[GROUP];

static void *hold_long(int i) {
  char *p = malloc(48);
  if (p) memset(p, i, 8);
  return p;
}

static void *hold_short(int i) {
  char *p = malloc(40);
  if (p) memset(p, i + 1, 4); /* not hold_long's code: binaryen would merge the two */
  return p;
}

static void *(*volatile make_long)(int) = hold_long;
static void *(*volatile make_short)(int) = hold_short;

static void free_all(void *arg) {
  (void)arg;
  for (int i = 0; i < GROUP; i++) free(longer[i]);
  for (int i = 0; i < GROUP; i++) free(shorter[i]);
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
}

static void make_shorter(void *arg) {
  (void)arg;
  for (int i = 0; i < GROUP; i++) shorter[i] = make_short(i);
}

int main(void) {
  for (int i = 0; i < GROUP; i++) longer[i] = make_long(i);
  emscripten_set_timeout(make_shorter, 1400, NULL);
  emscripten_set_timeout(free_all, 1600, NULL);
  return 0;
}
