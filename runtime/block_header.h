/*
** block_header.h -- the 16 bytes emheap keeps in front of every block.
**
** The header holds what free needs: the requested size (global counters
** stay exact in every mode), the site the block is charged to, and the way
** back to the allocator's own pointer. It makes free O(1) with no lookup:
** a hash table of live blocks cost ~3x a malloc-heavy loop in measurements,
** the header ~1.1x. 16 bytes keeps the allocator's 16-byte alignment.
**
**   real (from the allocator)      user pointer (returned to the app)
**   |<----------- back ----------->|
**   [ ... padding ... ][ header   ][ size bytes of the app ... ]
**
** Invariant: a live block's header has magic == EMHEAP_BLOCK_MAGIC ^ ptr.
** free clears it before handing the block back, so a double free, a
** pointer into the middle of a block or a pointer emheap never returned
** fails the check and is counted instead of corrupting the allocator.
*/
#ifndef EMHEAP_BLOCK_HEADER_H
#define EMHEAP_BLOCK_HEADER_H

#include <stdint.h>

#include "emheap_internal.h"

#define EMHEAP_HEADER_SIZE 16u
#define EMHEAP_BLOCK_MAGIC 0xE5A11C0Bu
/* Set in site_word when the block is charged to a site (every block in
** exact mode, sampled blocks in sampled mode); low bits: the site number. */
#define EMHEAP_CHARGED 0x80000000u

typedef struct emheap_header {
  uint32_t size;      /* bytes the app asked for */
  uint32_t site_word; /* EMHEAP_CHARGED | site, or 0 */
  uint32_t back;      /* user pointer - real pointer: 16, or the alignment */
  uint32_t magic;     /* EMHEAP_BLOCK_MAGIC ^ user pointer; last, next to the data */
} emheap_header;

_Static_assert(sizeof(emheap_header) == EMHEAP_HEADER_SIZE, "header size");

static inline emheap_header *emheap_header_of(void *ptr) {
  return (emheap_header *)((char *)ptr - EMHEAP_HEADER_SIZE);
}

/* The header of ptr if ptr is a live block from emheap, else NULL. Never
** reads outside the wasm memory, whatever ptr is: every live block lies
** below the allocator's break (a load, emheap_internal.h); a pointer above
** it is checked against memory.size before its header is read. */
static inline emheap_header *emheap_live_header(void *ptr) {
  uintptr_t p = (uintptr_t)ptr;
  if ((p & 7) || p < 2 * EMHEAP_HEADER_SIZE) return NULL;
  if (__builtin_expect(p > *emheap_brk.sbrk_ptr, 0) &&
      p > (uintptr_t)__builtin_wasm_memory_size(0) * 65536u) return NULL;
  emheap_header *h = emheap_header_of(ptr);
  if (h->magic != (EMHEAP_BLOCK_MAGIC ^ (uint32_t)p)) return NULL;
  if (h->back < EMHEAP_HEADER_SIZE || h->back > p) return NULL;
  return h;
}

#endif /* EMHEAP_BLOCK_HEADER_H */
