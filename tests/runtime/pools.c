/*
** pools.c -- a program with allocators of its own, annotated as their
** authors would: a slab of 32-byte slots in 4 KiB chunks from malloc, told
** through Valgrind's mempool macros (valgrind/memcheck.h, emheap's through
** `emheap-config --cflags`); a frame arena carved from one 64 KiB block and
** reset every frame, told through emheap_pool.h; malloc-like blocks in a
** static buffer; plain malloc beside them; and the misuses a program makes.
**
** Each allocator keeps its own count of its live objects, bytes and chunks
** inside the annotated functions; the program prints them (PLAN) with a
** snapshot (SNAPSHOT) for tests/e2e/pools.test.js to compare.
*/
#include <emscripten.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <valgrind/memcheck.h>

#include "emheap.h"
#include "emheap_pool.h"

/* ---- a slab: 32-byte slots, chunks of 128 from malloc ---- */
#define SLOT 32
#define CHUNK 4096
typedef struct slab {
  void *free_list;
  int chunks, objects;
  size_t bytes;
} slab;

static __attribute__((noinline)) void slab_new_chunk(slab *s) {
  char *c = malloc(CHUNK);
  s->chunks++;
  for (int i = CHUNK / SLOT - 1; i >= 0; i--) {
    void **slot = (void **)(c + i * SLOT);
    *slot = s->free_list;
    s->free_list = slot;
  }
}

static __attribute__((noinline)) void *slab_alloc(slab *s, size_t n) {
  if (!s->free_list) slab_new_chunk(s);
  void **slot = s->free_list;
  s->free_list = *slot;
  VALGRIND_MEMPOOL_ALLOC(s, slot, n);
  s->objects++;
  s->bytes += n;
  return slot;
}

static __attribute__((noinline)) void slab_free(slab *s, void *p, size_t n) {
  VALGRIND_MEMPOOL_FREE(s, p);
  s->objects--;
  s->bytes -= n;
  *(void **)p = s->free_list;
  s->free_list = p;
}

static slab shapes;

typedef struct point { double x, y, z; } point; /* 24 bytes */
typedef struct pair { void *a, *b; int tag, pad; } pair; /* 16 bytes */

static __attribute__((noinline)) point *make_point(int i) {
  point *p = slab_alloc(&shapes, sizeof(point));
  p->x = i, p->y = 2 * i, p->z = 3 * i;
  return p;
}

static __attribute__((noinline)) pair *make_pair(int i) {
  pair *p = slab_alloc(&shapes, sizeof(pair));
  p->a = p->b = NULL;
  p->tag = i;
  return p;
}

#define POINTS 3000
#define PAIRS 1000
#define TEMPORARIES 5000
static point *points[POINTS];
static pair *pairs[PAIRS];

static __attribute__((noinline)) void keep_points(int from, int to) {
  for (int i = from; i < to; i++) points[i] = make_point(i);
}

static __attribute__((noinline)) void churn(void) {
  for (int i = 0; i < TEMPORARIES; i++) {
    pair *t = make_pair(i);
    slab_free(&shapes, t, sizeof(pair));
  }
  point *p = make_point(-1); /* (a second caller: make_point keeps its frame) */
  slab_free(&shapes, p, sizeof(point));
}

static __attribute__((noinline)) void keep_pairs(void) {
  for (int i = 0; i < PAIRS; i++) pairs[i] = make_pair(i);
}

/* ---- a frame arena: one block, reset at every frame ---- */
typedef struct arena {
  char *base, *next;
  int objects;
  size_t bytes;
} arena;

static arena frame;

static __attribute__((noinline)) void *frame_alloc(arena *a, size_t n) {
  char *p = a->next;
  a->next += (n + 7) & ~(size_t)7;
  EMHEAP_POOL_ALLOC(a, p, n);
  a->objects++;
  a->bytes += n;
  return p;
}

static __attribute__((noinline)) void frame_reset(arena *a) {
  EMHEAP_POOL_TRIM(a, a->base, 0);
  a->next = a->base;
  a->objects = 0;
  a->bytes = 0;
}

#define FRAMES 10
#define PARTICLES 100
typedef struct particle { float pos[4], vel[4], life, pad; } particle; /* 40 bytes */

static __attribute__((noinline)) particle *make_particle(int i) {
  particle *p = frame_alloc(&frame, sizeof(particle));
  p->life = (float)i;
  return p;
}

/* ---- malloc-like blocks from a static buffer ---- */
#define STATIC_BLOCKS 10
static char region[STATIC_BLOCKS * 64] __attribute__((aligned(8)));
static int static_blocks;

static __attribute__((noinline)) void *static_block(int k) {
  void *p = region + k * 64;
  VALGRIND_MALLOCLIKE_BLOCK(p, 48, 0, 0);
  static_blocks++;
  return p;
}

/* ---- plain malloc ---- */
#define PLAIN 7
static void *plain[PLAIN];
static __attribute__((noinline)) void leak_plain(int from, int to) {
  for (int i = from; i < to; i++) plain[i] = malloc(100);
}

/* ---- pool objects no pointer keeps: leaked, as a malloc block would be ---- */
#define LEAKED 6
static __attribute__((noinline)) void leak_objects(int from, int to) {
  for (int i = from; i < to; i++) {
    pair *p = make_pair(-i);
    p->a = p->b = NULL;
  }
}

/* ---- a pool made and destroyed with objects in it ---- */
static slab scratch;
static __attribute__((noinline)) void scratch_work(void) {
  VALGRIND_CREATE_MEMPOOL(&scratch, 0, 0);
  for (int i = 0; i < 50; i++) slab_alloc(&scratch, 20);
  VALGRIND_DESTROY_MEMPOOL(&scratch); /* its 50 objects end with it */
  scratch.objects = 0;
  scratch.bytes = 0;
}

int main(void) {
  VALGRIND_CREATE_MEMPOOL(&shapes, 0, 0);
  frame.base = frame.next = malloc(64 * 1024);
  EMHEAP_POOL_CREATE(&frame, "frame arena");
  keep_points(0, POINTS / 2); /* (two callers: make_point keeps its frame) */
  keep_points(POINTS / 2, POINTS);
  churn();
  emheap_mark("pairs"); /* what comes after: the kept pairs and the frames */
  keep_pairs();
  for (int f = 0; f < FRAMES; f++) {
    frame_reset(&frame);
    for (int i = 0; i < PARTICLES; i++) make_particle(f * PARTICLES + i);
  }
  for (int k = 0; k < STATIC_BLOCKS; k++) static_block(k);
  VALGRIND_FREELIKE_BLOCK(region, 0); /* the first one goes back */
  static_blocks--;
  leak_objects(0, LEAKED / 2);
  leak_objects(LEAKED / 2, LEAKED);
  leak_plain(0, 3);
  leak_plain(3, PLAIN);
  scratch_work();

  /* misuses: each said once, counted, and without effect */
  int on_stack;
  VALGRIND_MEMPOOL_FREE(&shapes, &on_stack);   /* no object of the pool */
  VALGRIND_MEMPOOL_FREE(&shapes, &on_stack);   /* (the same kind again: counted, not said) */
  VALGRIND_MEMPOOL_ALLOC(&on_stack, region, 8); /* a pool never created */
  VALGRIND_CREATE_MEMPOOL(&shapes, 0, 0);      /* created twice */

  printf("PLAN {\"slab\": {\"objects\": %d, \"bytes\": %zu, \"chunks\": %d, \"chunkBytes\": %d},"
         " \"scratchChunks\": %d, \"frame\": {\"objects\": %d, \"bytes\": %zu, \"chunkBytes\": %d},"
         " \"static\": {\"objects\": %d, \"bytes\": %d}, \"exists\": [%d, %d]}\n",
         shapes.objects, shapes.bytes, shapes.chunks, shapes.chunks * CHUNK, scratch.chunks, frame.objects, frame.bytes,
         64 * 1024, static_blocks, static_blocks * 48, VALGRIND_MEMPOOL_EXISTS(&shapes),
         VALGRIND_MEMPOOL_EXISTS(&scratch));
  EM_ASM({
    var snapshot = Module['emheap'].snapshot();
    console.log('SNAPSHOT ' + JSON.stringify(snapshot));
    console.log('MEMORY ' + JSON.stringify(Module['emheap'].memory()));
    /* (the heap graph needs exact mode) */
    if (snapshot.mode === 'exact') console.log('GRAPH ' + JSON.stringify(Module['emheap'].snapshot({heap: true})));
  });
  return 0;
}
