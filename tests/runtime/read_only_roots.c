/*
** read_only_roots.c -- read-only data holds no roots. A constant table
** (.rodata) lists every 8-aligned address of the heap's first MiB, as a
** table of numbers can happen to; a block whose address only that table
** holds is leaked, and one a writable global holds is reachable. The test
** (tests/e2e/heap_scan.test.js) reads the heap graph's states of both.
**
** Prints "BLOCKS {...}" (the two addresses and whether the table covers
** them) and "SNAPSHOT {...}" (emheap.snapshot({heap: true})).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <emscripten.h>

extern char __heap_base[];

#define COVERED (1 << 20)
#define A(k) (uintptr_t)(__heap_base + 8 * (k))
#define A4(k) A(k), A(k + 1), A(k + 2), A(k + 3)
#define A16(k) A4(k), A4(k + 4), A4(k + 8), A4(k + 12)
#define A64(k) A16(k), A16(k + 16), A16(k + 32), A16(k + 48)
#define A256(k) A64(k), A64(k + 64), A64(k + 128), A64(k + 192)
#define A1K(k) A256(k), A256(k + 256), A256(k + 512), A256(k + 768)
#define A4K(k) A1K(k), A1K(k + 1024), A1K(k + 2048), A1K(k + 3072)
#define A16K(k) A4K(k), A4K(k + 4096), A4K(k + 8192), A4K(k + 12288)
#define A64K(k) A16K(k), A16K(k + 16384), A16K(k + 32768), A16K(k + 49152)

/* Every 8-aligned address in [__heap_base, __heap_base + 1 MiB). */
__attribute__((used)) static const uintptr_t constant_table[COVERED / 8] = {A64K(0), A64K(65536)};

void *volatile held_by_global;

/* Two callers, so that binaryen keeps it a frame. */
__attribute__((noinline)) uintptr_t make_block(int n) {
  char *p = malloc(48 + n);
  for (int i = 0; i < 48 + n; i++) p[i] = (char)i;
  return (uintptr_t)p;
}

static int covered(uintptr_t a) {
  return a >= (uintptr_t)__heap_base && a < (uintptr_t)__heap_base + COVERED && a % 8 == 0 &&
         constant_table[(a - (uintptr_t)__heap_base) / 8] == a;
}

/* Called through a volatile pointer, so that it stays a function: its
** frame (printf's arguments hold both addresses) is gone from the stack
** the scan reads. */
static void make_blocks(void) {
  uintptr_t only_in_constants = make_block(0); /* its pointer dropped: leaked */
  uintptr_t held = make_block(1);
  held_by_global = (void *)held;
  printf("BLOCKS {\"leaked\":%lu,\"held\":%lu,\"covered\":%d}\n", (unsigned long)only_in_constants,
         (unsigned long)held, covered(only_in_constants) && covered(held));
}
static void (*volatile make_blocks_call)(void) = make_blocks;

int main(void) {
  make_blocks_call();
  EM_ASM({ console.log('SNAPSHOT ' + JSON.stringify(Module['emheap'].snapshot({heap: true}))); });
  return 0;
}
