/*
** quickjs_pools.c -- QuickJS (third_party/quickjs, its small-block
** allocator annotated by tests/third_party/annotate_quickjs.js) running a
** script that keeps known objects after churning many temporaries, a
** native function that keeps N objects from js_malloc, and plain malloc
** beside it. The annotations call qjs_count_* here: the test's own count
** of the pool's live objects and bytes, kept without emheap. Prints PLAN
** (that count and the script's numbers) and SNAPSHOT at the same moment.
*/
#include <emscripten.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "quickjs.h"

/* ---- the count: live objects by address, open addressing ---- */
#define COUNT_SLOTS (1u << 19)
typedef struct counted {
  uintptr_t addr; /* 0: empty */
  size_t size;
} counted;
static counted table[COUNT_SLOTS];
static long live_objects;
static long long live_bytes;

static uint32_t slot_of(uintptr_t p) { return (uint32_t)((p >> 3) * 2654435761u) & (COUNT_SLOTS - 1u); }

static counted *find(uintptr_t p) {
  uint32_t i = slot_of(p);
  while (table[i].addr && table[i].addr != p) i = (i + 1u) & (COUNT_SLOTS - 1u);
  return &table[i];
}

void qjs_count_alloc(void *p, size_t n) {
  counted *c = find((uintptr_t)p);
  if (c->addr) abort(); /* an object where one lives: the annotations are wrong */
  c->addr = (uintptr_t)p;
  c->size = n;
  live_objects++;
  live_bytes += n;
}

void qjs_count_free(void *p) {
  counted *c = find((uintptr_t)p);
  if (!c->addr) abort();
  live_objects--;
  live_bytes -= c->size;
  /* backward shift: the entries after the hole that can move back do */
  uint32_t hole = (uint32_t)(c - table);
  for (uint32_t j = (hole + 1u) & (COUNT_SLOTS - 1u); table[j].addr; j = (j + 1u) & (COUNT_SLOTS - 1u)) {
    uint32_t home = slot_of(table[j].addr);
    if (((j - home) & (COUNT_SLOTS - 1u)) >= ((j - hole) & (COUNT_SLOTS - 1u))) {
      table[hole] = table[j];
      hole = j;
    }
  }
  table[hole].addr = 0;
}

void qjs_count_change(void *p, size_t n) {
  counted *c = find((uintptr_t)p);
  if (!c->addr) abort();
  live_bytes += (long long)n - (long long)c->size;
  c->size = n;
}

/* ---- objects kept by native code ---- */
#define NATIVE 700
#define NATIVE_BYTES 40
static void *native[NATIVE];
static int native_count;

static __attribute__((noinline)) void keep_native_objects(JSContext *ctx, int n) {
  for (int i = 0; i < n && native_count < NATIVE; i++) native[native_count++] = js_malloc(ctx, NATIVE_BYTES);
}

static JSValue js_keep_native(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  (void)this_val;
  int n = 0;
  if (argc > 0) JS_ToInt32(ctx, &n, argv[0]);
  keep_native_objects(ctx, n / 2); /* (two callers: its frame stays) */
  keep_native_objects(ctx, n - n / 2);
  return JS_UNDEFINED;
}

/* ---- plain malloc ---- */
#define PLAIN 5
#define PLAIN_BYTES 300
static void *plain[PLAIN];
static __attribute__((noinline)) void leak_plain(int from, int to) {
  for (int i = from; i < to; i++) plain[i] = malloc(PLAIN_BYTES);
}

#define POINTS 30000
#define STRINGS 20000
#define MAPS 5000
#define TEMPORARIES 200000

#define STR(x) #x
#define XSTR(x) STR(x)
static const char script[] =
  "class Point { constructor(x, y) { this.x = x; this.y = y; } }\n"
  "var kept = {points: [], strings: [], maps: []};\n"
  "for (var i = 0; i < " XSTR(TEMPORARIES) "; i++) { var t = {a: i, b: [i, i + 1]}; }\n"
  "for (var i = 0; i < " XSTR(POINTS) "; i++) kept.points.push(new Point(i, -i));\n"
  "for (var i = 0; i < " XSTR(STRINGS) "; i++) kept.strings.push('s' + i + '-' + 'x'.repeat(i % 50));\n"
  "for (var i = 0; i < " XSTR(MAPS) "; i++) { var m = new Map(); m.set(i, 'v' + i); kept.maps.push(m); }\n"
  "keepNative(" XSTR(NATIVE) ");\n"
  "globalThis.kept = kept;\n";

int main(void) {
  JSRuntime *rt = JS_NewRuntime();
  JSContext *ctx = JS_NewContext(rt);
  JSValue global = JS_GetGlobalObject(ctx);
  JS_SetPropertyStr(ctx, global, "keepNative", JS_NewCFunction(ctx, js_keep_native, "keepNative", 1));
  JS_FreeValue(ctx, global);
  JSValue r = JS_Eval(ctx, script, sizeof script - 1, "<script>", JS_EVAL_TYPE_GLOBAL);
  if (JS_IsException(r)) {
    JSValue e = JS_GetException(ctx);
    const char *text = JS_ToCString(ctx, e);
    fprintf(stderr, "script failed: %s\n", text ? text : "?");
    return 1;
  }
  JS_FreeValue(ctx, r);
  JS_RunGC(rt);
  leak_plain(0, 2);
  leak_plain(2, PLAIN);
  printf("PLAN {\"objects\": %ld, \"bytes\": %lld, \"native\": %d, \"points\": %d, \"maps\": %d}\n", live_objects,
         live_bytes, native_count, POINTS, MAPS);
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  return 0;
}
