/*
** allocator.h -- what emheap reads from the linked allocator's own block
** headers: a block's usable size, and (dlmalloc) one spare bit that marks
** recorded blocks.
**
** emheap returns the allocator's pointers unchanged and keeps nothing in
** front of a block. So at free it learns the size from the allocator, and
** whether the block is recorded (has a site) either from that spare bit or
** by looking the address up in the block table. In footer mode (footer.h:
** dlmalloc, no threads, exact mode) the bit says the block's record is in
** its last 8 usable bytes. allocator.c picks the
** variant at startup and checks it on a real block first; an allocator it
** does not know (mimalloc in newer Emscripten, a custom one) gets the
** generic variant: malloc_usable_size, which emheap does not replace, and
** a lookup.
**
** The words read are size_t's: 4 bytes in wasm32, 8 in wasm64 (W below).
**
** dlmalloc (2.8.6, FOOTERS off, no mmap): the head word sits right before
** the user pointer: chunk size | FLAG4 | CINUSE | PINUSE. Usable size =
** chunk size - W. FLAG4_BIT is "not used by this malloc";
** chunksize() masks it, and dlmalloc only ever ORs PINUSE into or clears it
** from the head of an in-use neighbour, so the bit survives until the chunk
** itself is freed, reallocated in place or trimmed by memalign, all of
** which go through emheap, which clears and sets it around them.
**
** emmalloc: the region's size word sits right before the user pointer;
** usable size = size - 2W (the size again at the region's end). No bit of
** it is spare (emmalloc walks regions by the raw value), so recorded blocks
** are found by lookup. One drift emheap cannot see: to align a block,
** emmalloc may grow the live block just before it by the padding, so that
** block is freed with more bytes than it was allocated with. A recorded block is discharged with what it was
** counted with (record.c); an unrecorded one (sampled mode) with its size
** then, and live bytes run low by the padding (never below 0).
*/
#ifndef EMHEAP_ALLOCATOR_H
#define EMHEAP_ALLOCATOR_H

#include <malloc.h>
#include <stdint.h>

#include "dlmalloc_state.h"
#include "emheap_internal.h"
#include "lock.h"

/* Set once by emheap_allocator_detect, before the first block. */
extern uint32_t emheap_allocator;

void emheap_allocator_detect(void);
/* emmalloc serves the app's blocks (under mimalloc it is linked for mimalloc's own pages). */
int emheap_app_uses_emmalloc(void);
/* The allocator's own malloc_usable_size (mimalloc's, emmalloc's, or
** dlmalloc's as dlmalloc computes it): emheap replaces the public one
** (alloc_hooks.c). */
size_t emheap_allocator_usable_size(void *p);

#define EMHEAP_HEAD_BYTES ((uint32_t)sizeof(size_t)) /* W above */
static inline size_t *emheap_head_word(void *p) { return (size_t *)p - 1; }

/* Usable size of a live dlmalloc block (its chunk less its head). */
static inline size_t emheap_dl_usable_size(void *p) { return (*emheap_head_word(p) & DL_SIZE_MASK) - EMHEAP_HEAD_BYTES; }

/* Usable size of a live block the allocator handed out, all of it (a
** wasm64 block may pass 4 GiB), and as the records keep it. */
static inline size_t emheap_usable_size_wide(void *p) {
  if (__builtin_expect(emheap_allocator == EMHEAP_ALLOCATOR_DLMALLOC, 1)) return emheap_dl_usable_size(p);
  if (emheap_allocator == EMHEAP_ALLOCATOR_EMMALLOC) return *emheap_head_word(p) - 2u * EMHEAP_HEAD_BYTES;
  return emheap_allocator_usable_size(p);
}
static inline uint32_t emheap_usable_size(void *p) { return (uint32_t)emheap_usable_size_wide(p); }

/* Whether p can be a live block: inside the memory, aligned (8 bytes for
** dlmalloc and emmalloc; 4 for others: mimalloc gives 4-aligned blocks of
** 0 to 4 bytes on wasm32), and (where the allocator's header says so) in
** use. A double free of a dlmalloc chunk
** that is still the start of a free chunk fails here, and so does a
** pointer above the heap; an interior or foreign pointer into live data is
** not always caught (the allocator itself would not catch it either). */
extern unsigned char __heap_base; /* wasm-ld: where the heap starts (data and stack lie below) */

/* emheap_plausible_block (below) where the allocator is dlmalloc. */
static inline int emheap_plausible_dl_block(void *p) {
  uintptr_t a = (uintptr_t)p, brk = *emheap_brk.sbrk_ptr;
  if (a < (uintptr_t)&__heap_base + 8 || a > brk || (a & 7)) return 0; /* every block lies below the break */
  size_t head = *emheap_head_word(p);
  size_t size = head & DL_SIZE_MASK;
  return (head & DL_CINUSE) && size >= DL_MIN_CHUNK && size <= brk - a + 2 * EMHEAP_HEAD_BYTES;
}

static inline int emheap_plausible_block(void *p) {
  if (emheap_allocator == EMHEAP_ALLOCATOR_DLMALLOC) return emheap_plausible_dl_block(p);
  uintptr_t a = (uintptr_t)p;
  if (a < (uintptr_t)&__heap_base + 8) return 0;
  if (__builtin_expect(a > *emheap_brk.sbrk_ptr, 0)) return 0; /* every block lies below the break */
  if (emheap_allocator == EMHEAP_ALLOCATOR_EMMALLOC) {
    if (a & 7) return 0;
    size_t size = *emheap_head_word(p);
    if ((size & 3) || size < 4 * EMHEAP_HEAD_BYTES || size > *emheap_brk.sbrk_ptr - a + EMHEAP_HEAD_BYTES) return 0;
    return *(size_t *)((char *)p - EMHEAP_HEAD_BYTES + size - EMHEAP_HEAD_BYTES) == size; /* ceiling word: used region */
  }
  return !(a & 3);
}

/* The record flag (dlmalloc only; elsewhere the block table is asked).
** Single-threaded builds only: dlmalloc updates the PINUSE bit of an in-use
** neighbour's head (a plain read-modify-write, under its own lock), which
** would race with emheap setting FLAG4 on the same word from another
** thread; a lost PINUSE update corrupts the heap. Threaded builds look
** recorded blocks up instead (measured in make bench's threaded rows). */
#define EMHEAP_USE_FLAG (!EMHEAP_THREADED)
static inline int emheap_flag_is_set(void *p) { return (*emheap_head_word(p) & DL_FLAG4) != 0; }
static inline void emheap_flag_set(void *p) { *emheap_head_word(p) |= DL_FLAG4; }
static inline void emheap_flag_clear(void *p) { *emheap_head_word(p) &= ~(size_t)DL_FLAG4; } /* (the whole word: a wasm64 size passes 32 bits) */

#endif /* EMHEAP_ALLOCATOR_H */
