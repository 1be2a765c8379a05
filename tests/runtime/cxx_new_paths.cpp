// cxx_new_paths.cpp -- C++'s operator new where malloc fails, and an app's
// own operator new: emheap's operator new (runtime/cxx_new_delete.c) must
// behave as libc++'s. Built on a fixed heap with -sABORTING_MALLOC=0, so
// that malloc can return NULL, with emheap and without, with JS and with
// wasm exceptions; tests/runtime.test.js compares the two runs' RESULT line
// and reads emheap's sites. Prints "RESULT {...}" and, with emheap,
// "SNAPSHOT {...}".
#include <emscripten.h>
#include <stdio.h>
#include <stdlib.h>

#include <new>

// Blocks that fill the heap, handed back one at a time by the new_handler.
static void *reserve[64];
static int reserved, handler_calls;

static void give_back_one(void) {
  handler_calls++;
  if (reserved > 0) free(reserve[--reserved]);
  else std::set_new_handler(nullptr);
}

// Fills the heap with 1 MiB blocks until malloc says no.
static void fill_heap(void) {
  while (reserved < 64 && (reserve[reserved] = malloc(1 << 20)) != nullptr) reserved++;
}

static volatile size_t huge = (size_t)1 << 30;

__attribute__((noinline)) char *make_buffer(size_t n) { return new char[n]; }
__attribute__((noinline)) int *make_aligned(void) {
  struct alignas(64) Line { int x[16]; };
  return (new Line)->x;
}

int main() {
  fill_heap();
  int filled = reserved;
  // 1. malloc fails; the handler frees a reserve block and new tries again.
  std::set_new_handler(give_back_one);
  char *buffer = make_buffer(2 << 20);
  int after_retry = handler_calls;
  int *line = make_aligned();
  // 2. No handler: bad_alloc, caught.
  std::set_new_handler(nullptr);
  int threw = 0;
  try {
    char *p = make_buffer(huge);
    p[0] = 1;
  } catch (const std::bad_alloc &) {
    threw = 1;
  }
  // 3. nothrow: NULL, no exception.
  char *none = new (std::nothrow) char[huge];
  printf("RESULT {\"filled\": %d, \"retried\": %d, \"got\": %d, \"aligned\": %d, \"threw\": %d, \"nothrowNull\": %d}\n",
         filled > 1, after_retry >= 1, buffer != nullptr, ((size_t)line & 63) == 0, threw, none == nullptr);
  delete[] buffer;
  EM_ASM({ if (Module['emheap']) console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  return 0;
}
