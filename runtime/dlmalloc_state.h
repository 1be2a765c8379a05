/*
** dlmalloc_state.h -- the parts of Emscripten's dlmalloc that emheap reads:
** a chunk's head, and its malloc_state up to the first segment record.
**
** Emscripten builds system/lib/dlmalloc.c with the same configuration in
** 3.1.6, 4.0.23 and 5.0.7 (FOOTERS 0, USE_SPIN_LOCKS 0, USE_LOCKS in
** -pthread builds only); the struct below is its malloc_state field for
** field, with dlmalloc's own types (so wasm64 lays it out as dlmalloc
** does). C reads it in footer mode (footer.h: the mutex and the segment
** record) and for a block's usable size (allocator.h); JS walks the heap
** with it (capture/allocator_walk.js, through capture/layout_generated.js).
** Nothing else in emheap knows dlmalloc's insides.
*/
#ifndef EMHEAP_DLMALLOC_STATE_H
#define EMHEAP_DLMALLOC_STATE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* A chunk's head word: its size with three flags in the low bits. */
#define DL_PINUSE 1u    /* the chunk before it is in use */
#define DL_CINUSE 2u    /* this chunk is in use */
#define DL_FLAG4 4u     /* unused by dlmalloc: emheap's mark on the blocks it records */
#define DL_SIZE_MASK (~(size_t)7)
#define DL_FENCEPOST (3u | sizeof(size_t)) /* FENCEPOST_HEAD: INUSE_BITS | SIZE_T_SIZE */

#define DL_NSMALLBINS 32u
#define DL_NTREEBINS 32u
#define DL_USE_LOCK_BIT 2u /* mflags: the state has a mutex */

/* struct malloc_chunk: a free chunk's links (an in-use chunk's payload
** starts at fd). */
typedef struct emheap_dl_chunk {
  size_t prev_foot, head;
  struct emheap_dl_chunk *fd, *bk;
} emheap_dl_chunk;
/* CHUNK_ALIGN_MASK (MALLOC_ALIGNMENT is max_align_t's, 8) and
** MIN_CHUNK_SIZE, the smallest chunk */
#define DL_ALIGN_MASK (_Alignof(max_align_t) - 1u)
#define DL_MIN_CHUNK ((sizeof(emheap_dl_chunk) + DL_ALIGN_MASK) & ~DL_ALIGN_MASK)

/* struct malloc_segment: where each segment lies; the last one's record
** sits in its top's footer. */
typedef struct emheap_dl_segment {
  char *base;
  size_t size;
  struct emheap_dl_segment *next;
  unsigned int sflags;
} emheap_dl_segment;
/* pad_request(sizeof(struct malloc_segment)), and TOP_FOOT_SIZE: what ends
** a segment after its top chunk */
#define DL_SEG_RECORD ((sizeof(emheap_dl_segment) + sizeof(size_t) + DL_ALIGN_MASK) & ~DL_ALIGN_MASK)
#define DL_TOP_FOOT (DL_SEG_RECORD + DL_MIN_CHUNK)

/* struct malloc_state up to its mutex: after mflags comes MLOCK_T mutex
** when USE_LOCKS (a pthread_mutex_t: USE_SPIN_LOCKS is 0), then `seg`,
** the first segment record. */
typedef struct emheap_dl_state {
  unsigned int smallmap, treemap;
  size_t dvsize, topsize;
  char *least_addr;
  emheap_dl_chunk *dv, *top;
  size_t trim_check, release_checks, magic;
  emheap_dl_chunk *smallbins[(DL_NSMALLBINS + 1) * 2];
  void *treebins[DL_NTREEBINS];
  size_t footprint, max_footprint, footprint_limit;
  unsigned int mflags;
} emheap_dl_state;

/* Where `seg` lies in malloc_state: without a lock (single-threaded
** builds), after an int spin lock (a build with USE_SPIN_LOCKS, which
** JS still recognizes), after a pthread mutex (-pthread builds). The lock
** follows mflags with no padding but its own alignment (in wasm64 an int
** lock fits in mflags' padding), and seg is aligned as a segment is. */
#define DL_ALIGN_UP(n, a) (((n) + (a) - 1) & ~((size_t)(a) - 1))
#define DL_AFTER_MFLAGS (offsetof(emheap_dl_state, mflags) + sizeof(unsigned int))
#define DL_SEG_NO_LOCK DL_ALIGN_UP(DL_AFTER_MFLAGS, _Alignof(emheap_dl_segment))
#define DL_SEG_SPIN_LOCK DL_ALIGN_UP(DL_AFTER_MFLAGS + sizeof(int), _Alignof(emheap_dl_segment))
#define DL_SEG_PTHREAD_LOCK \
  DL_ALIGN_UP(DL_ALIGN_UP(DL_AFTER_MFLAGS, _Alignof(pthread_mutex_t)) + sizeof(pthread_mutex_t), _Alignof(emheap_dl_segment))

/* What ends malloc_state from `seg` on: JS finds the struct by its shape,
** and its end bounds the search. */
typedef struct emheap_dl_state_tail {
  emheap_dl_segment seg;
  void *extp;
  size_t exts;
} emheap_dl_state_tail;

#endif /* EMHEAP_DLMALLOC_STATE_H */
