/*
** worker_app.c -- an app that runs in a Web Worker (-sENVIRONMENT=worker):
** its page (worker_app.html) starts it with new Worker and talks to it
** with postMessage. It leaks from leak_in_worker (two callers, so that
** binaryen keeps it a function), tells the page it is ready, and on the
** page's "save" message saves a profile itself through emheap's API in the
** worker (Module.emheap.downloadSnapshot, format in the message).
*/
#include <emscripten.h>
#include <stdlib.h>

static void *volatile sink;

__attribute__((noinline)) void leak_in_worker(int n) {
  for (int i = 0; i < n; i++) sink = malloc(3000 + i);
}

int main(void) {
  leak_in_worker(40);
  leak_in_worker(24);
  EM_ASM({
    self.onmessage = function(e) {
      if (e.data && e.data.save) Module['emheap'].downloadSnapshot(e.data.save);
    };
    postMessage('ready');
  });
  return 0;
}
