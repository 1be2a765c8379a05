/*
** asyncify.c -- a program linked with -sASYNCIFY (Emscripten runs
** binaryen's wasm-emscripten-finalize for it): it allocates before and
** after emscripten_sleep, which unwinds the wasm stack to the event loop
** and rewinds it, so that exact mode's calling contexts must come through
** an unwind and a rewind. Each function has two callers or a loop, so that
** binaryen keeps it. Prints "SNAPSHOT {...}".
*/
#include <emscripten.h>
#include <stdlib.h>

static void *volatile sink;

__attribute__((noinline)) void before_sleep(int n) {
  for (int i = 0; i < n; i++) sink = malloc(1000 + i);
}

__attribute__((noinline)) void after_sleep(int n) {
  for (int i = 0; i < n; i++) sink = malloc(2000 + i);
}

__attribute__((noinline)) void round_trip(int n) {
  before_sleep(n);
  before_sleep(1);
  emscripten_sleep(1);
  after_sleep(n);
  emscripten_sleep(1);
  after_sleep(1);
}

int main(void) {
  round_trip(10);
  round_trip(5);
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  return 0;
}
