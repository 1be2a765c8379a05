/*
** dylink_main.c -- a -sMAIN_MODULE=2 program with one side module linked at
** load time (dylink_side.wasm), one opened with dlopen (dylink_opened.wasm)
** and one with emscripten_dlopen, asynchronously (dylink_async.wasm),
** profiled with emheap-config --main-module (tests/e2e/dylink.test.js).
** Each module leaks from a function of its own (dylink_plan.h); blocks
** cross between the modules both ways and are all freed; the module opened
** with dlopen is closed before the snapshot.
*/
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <emscripten.h>

#include "dylink_plan.h"

void side_plant_leak(void);
void side_keep(void);
void (*side_pointer(void))(void);
char *side_make_block(size_t n);
void side_free_block(void *p);

/* Two callers, so that binaryen keeps its frame. */
__attribute__((noinline)) void *main_leak_block(size_t n) {
  void *p = malloc(n);
  if (p) memset(p, 0x11, n);
  return p;
}

static void *opened(void *lib, const char *name) {
  void *f = dlsym(lib, name);
  if (!f) {
    printf("not ok dlsym %s: %s\n", name, dlerror());
    exit(1);
  }
  return f;
}

static void report(void) {
  printf("ok planted\n");
  EM_ASM({
    if (typeof document === 'undefined') {
      console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot()));
      console.log('GRAPH ' + JSON.stringify(Module['emheap'].snapshot({heap: true})));
    }
    else document.title = 'planted';
  });
}

static void async_opened(void *user_data, void *lib) {
  (void)user_data;
  ((void (*)(void))opened(lib, "async_plant_leak"))();
  ((void (*)(void))opened(lib, "async_plant_one"))();
  report();
}

static void async_failed(void *user_data) {
  (void)user_data;
  printf("not ok emscripten_dlopen: %s\n", dlerror());
}

int main(void) {
  side_plant_leak();
  side_keep();
  EM_ASM({ wasmTable.get($0)(); }, side_pointer()); /* JS calls a side module's function */
  for (int i = 0; i < CROSSINGS; i++) {
    free(side_make_block(CROSS_BYTES));           /* made in the side module, freed here */
    side_free_block(main_leak_block(CROSS_BYTES)); /* made here, freed in the side module */
  }

  void *lib = dlopen("dylink_opened.wasm", RTLD_NOW);
  if (!lib) {
    printf("not ok dlopen: %s\n", dlerror());
    return 1;
  }
  void (*plant)(void) = (void (*)(void))opened(lib, "opened_plant_leak");
  void *(*make)(size_t) = (void *(*)(size_t))opened(lib, "opened_make_block");
  plant();
  ((void (*)(void))opened(lib, "opened_keep"))();
  for (int i = 0; i < CROSSINGS; i++) free(make(CROSS_BYTES));
  dlclose(lib);

  for (int i = 0; i < MAIN_BLOCKS; i++) main_leak_block(MAIN_BYTES);
  emscripten_dlopen("dylink_async.wasm", RTLD_NOW, NULL, async_opened, async_failed);
  return 0;
}
