/*
** lua_bench.c -- a real interpreter with its own allocation layer: Lua 5.2
** (the C sources in npm's lua.vm.js, fetched by `make bench`) running a
** script that builds and drops tables, strings and binary trees. Every
** allocation of the interpreter goes through its lua_Alloc, which here is
** luaL_newstate's own (realloc/free), counted. One op = one call of the
** allocator function (realloc or free). Prints one JSON line.
**
** Usage: lua_bench [iterations]   (default 5)
*/
#include <stdio.h>
#include <stdlib.h>

#include <emscripten.h>

#include "repetitions.h"
#include <emscripten/heap.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

static long alloc_calls;

/* luaL_newstate's l_alloc, counted. */
static void *counted_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  alloc_calls++;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, nsize);
}

static const char *SCRIPT =
    "local function run(n)\n"
    "  local t = {}\n"
    "  for i = 1, n do t[i] = {id = i, name = 'item' .. i, tags = {i % 7, i % 11}} end\n"
    "  for i = 1, n, 3 do t[i] = nil end\n"
    "  local parts = {}\n"
    "  for i = 1, math.floor(n / 10) do parts[#parts + 1] = string.format('%d:%s', i, t[i * 2] and t[i * 2].name or '-') end\n"
    "  local joined = table.concat(parts, ',')\n"
    "  local function tree(d) if d == 0 then return {} end d = d - 1 return {tree(d), tree(d)} end\n"
    "  local function check(x) if x[1] then return 1 + check(x[1]) + check(x[2]) end return 1 end\n"
    "  local s = 0\n"
    "  for d = 4, 12, 2 do s = s + check(tree(d)) end\n"
    "  return s + #joined\n"
    "end\n"
    "return run\n";

static lua_State *L;
static long checksum;

static long one_repetition(void) {
  long before = alloc_calls;
  lua_getglobal(L, "run");
  lua_pushinteger(L, 20000);
  lua_call(L, 1, 1);
  checksum += (long)lua_tointeger(L, -1);
  lua_pop(L, 1);
  /* Each repetition ends with a full collection, so that each does the
  ** same work: otherwise Lua's incremental collector carries its debt from
  ** one repetition to the next, and repetitions alternated between 140 and
  ** 420 ns/op in one process (a paired run compares single repetitions). */
  lua_gc(L, LUA_GCCOLLECT, 0);
  return alloc_calls - before;
}

static void report(repetitions *reps) {
  repetitions_print_timing("lua", reps);
  printf(",\"checksum\":%ld,\"heap_bytes\":%zu}\n", checksum, emscripten_get_heap_size());
  lua_close(L);
}

int main(int argc, char **argv) {
  int iterations = argc > 1 ? atoi(argv[1]) : 5;
  L = lua_newstate(counted_alloc, NULL);
  luaL_openlibs(L);
  if (luaL_loadstring(L, SCRIPT) != LUA_OK) {
    fprintf(stderr, "lua: %s\n", lua_tostring(L, -1));
    return 1;
  }
  lua_call(L, 0, 1); /* the run function */
  lua_setglobal(L, "run");
  /* Warm-up: grow the heap and intern the stacks before timing. */
  one_repetition();
  checksum = 0;
  run_repetitions(one_repetition, iterations, report);
  return 0;
}
