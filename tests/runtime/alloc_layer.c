/*
** alloc_layer.c -- a program with its own allocation layer, shaped like
** Lua 5.2's (tests/runtime.test.js, model/wrappers.js): every allocation of
** the "interpreter" goes through l_alloc (the lua_Alloc: realloc/free),
** called only by mem_realloc (luaM_realloc_), itself called by new_object
** (luaC_newobj) and by the vector helpers. Twelve constructors in several
** callers each allocate through it, and leave blocks live. A recursive tree
** builder calls malloc itself: it is a real site, not a layer (a few
** sites, as in Lua, where almost everything goes through the layer).
** Prints "SNAPSHOT {...}" (the page's snapshot) and "EXPECT {...}".
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <emscripten.h>

static void *volatile sink;

__attribute__((noinline)) static void *l_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, nsize);
}

__attribute__((noinline)) static void *mem_realloc(void *block, size_t osize, size_t nsize) {
  void *p = l_alloc(NULL, block, osize, nsize);
  if (!p && nsize) abort();
  return p;
}

__attribute__((noinline)) static void *new_object(int type, size_t size) {
  char *o = mem_realloc(NULL, 0, size);
  o[0] = (char)type;
  return o;
}

__attribute__((noinline)) static void *grow_vector(void *v, size_t *n, size_t item) {
  size_t bigger = *n ? *n * 2 : 4;
  v = mem_realloc(v, *n * item, bigger * item);
  *n = bigger;
  return v;
}

#define CONSTRUCTOR(name, type, size) \
  __attribute__((noinline)) static void *name(int k) { return new_object(type, (size) + (size_t)k); }
CONSTRUCTOR(new_table, 1, 56)
CONSTRUCTOR(new_string, 2, 24)
CONSTRUCTOR(new_closure, 3, 40)
CONSTRUCTOR(new_proto, 4, 120)
CONSTRUCTOR(new_userdata, 5, 64)
CONSTRUCTOR(new_upvalue, 6, 32)
CONSTRUCTOR(new_thread, 7, 200)
CONSTRUCTOR(new_cclosure, 8, 48)

__attribute__((noinline)) static void *table_resize(int k) {
  size_t n = 0;
  void *v = NULL;
  for (int i = 0; i < 3 + k; i++) v = grow_vector(v, &n, 16);
  return v;
}
__attribute__((noinline)) static void *code_grow(int k) {
  size_t n = 0;
  void *v = NULL;
  for (int i = 0; i < 2 + k; i++) v = grow_vector(v, &n, 4);
  return v;
}

typedef struct node { struct node *l, *r; } node;
__attribute__((noinline)) static node *make_tree(int depth) {
  node *n = malloc(sizeof *n);
  n->l = depth ? make_tree(depth - 1) : NULL;
  n->r = depth ? make_tree(depth - 1) : NULL;
  return n;
}

/* Callers: each constructor from two or three places, so that the layer is
** passed through by many different functions. */
__attribute__((noinline)) static void parse_chunk(int k) { sink = new_proto(k); sink = new_string(k); sink = code_grow(k); }
__attribute__((noinline)) static void exec_op(int k) { sink = new_table(k); sink = table_resize(k); sink = new_closure(k); }
__attribute__((noinline)) static void open_libs(int k) { sink = new_cclosure(k); sink = new_table(k); sink = new_string(k); }
__attribute__((noinline)) static void call_c(int k) { sink = new_userdata(k); sink = new_upvalue(k); }
__attribute__((noinline)) static void start_coroutine(int k) { sink = new_thread(k); sink = new_closure(k); }
__attribute__((noinline)) static void concat_strings(int k) { sink = new_string(k); sink = code_grow(k); }

int main(void) {
  for (int k = 0; k < 4; k++) {
    parse_chunk(k);
    exec_op(k);
    open_libs(k);
    call_c(k);
    start_coroutine(k);
    concat_strings(k);
  }
  sink = make_tree(3);
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot())); });
  printf("EXPECT {\"layer\":[\"l_alloc\",\"mem_realloc\",\"new_object\"]}\n");
  return 0;
}
