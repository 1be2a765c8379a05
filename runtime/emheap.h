/*
** emheap.h -- public C API of the emheap heap profiler.
**
** Linking emheap (see `bin/emheap-config --ldflags`) replaces malloc, free,
** calloc, realloc, memalign, posix_memalign, aligned_alloc, valloc and
** pvalloc with tracking versions that forward to the real allocator
** (dlmalloc or emmalloc) and return the allocator's own pointers. Nothing
** has to change in the app: this header is only for programs that want to
** read the counters themselves or leave a region out of the profile.
**
** All functions are safe to call at any time and from any thread,
** including before main and from inside allocation-heavy code; none of
** them allocates.
*/
#ifndef EMHEAP_H
#define EMHEAP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the in-memory layout that the JS library reads. A JS library
** that does not know this number refuses to read the tables. */
#define EMHEAP_LAYOUT_VERSION 23

/* Global counters, copied out of the profiler state. Every field is exact
** in every mode (sampling only thins the per-site data); all are zero in
** mode off, which counts nothing. Sizes here are usable sizes: what the
** allocator reserved for the block (malloc_usable_size), at least what the
** app asked for, and what the block really occupies in the heap. (Sites
** count the bytes the app asked for; the difference is the allocator's
** rounding, which snapshots report on its own.) */
typedef struct emheap_counters {
  uint64_t live_bytes;       /* bytes of blocks allocated and not yet freed */
  uint64_t peak_live_bytes;  /* highest live_bytes seen */
  uint64_t total_bytes;      /* bytes ever allocated */
  uint32_t live_blocks;      /* blocks allocated and not yet freed */
  uint32_t peak_live_blocks;
  uint64_t malloc_calls;     /* malloc, plus operator new through malloc */
  uint64_t calloc_calls;
  uint64_t realloc_calls;
  uint64_t memalign_calls;   /* memalign, posix_memalign, aligned_alloc, valloc, pvalloc */
  uint64_t free_calls;       /* free(NULL) included */
  uint64_t failed_allocs;    /* calls that returned NULL (out of memory, overflow, bad alignment) */
  uint64_t invalid_frees;    /* frees of blocks that are not live (double frees, foreign pointers): ignored */
  uint64_t sampled_allocs;   /* allocations whose call stack was recorded (all, in exact mode) */
  uint32_t site_count;       /* distinct allocation call stacks */
  uint32_t heap_growths;     /* times the wasm memory grew during an allocation */
  uint64_t heap_size;        /* current size of the wasm memory, bytes */
  uint64_t lost_allocs;      /* allocations that should have been recorded but emheap's own tables
                                had no room (fixed heap): counted globally, charged to no site */
  uint64_t lost_bytes;       /* their bytes */
  uint32_t lost_sites;       /* new call stacks charged to "(unattributed)" for want of room */
  uint32_t truncated_stacks; /* recorded stacks deeper than a worker hands over (leaf end kept) */
  uint64_t table_bytes;      /* heap bytes emheap's own tables hold */
} emheap_counters;

/* Copies the current counters into *out. */
void emheap_get_counters(emheap_counters *out);

/* Stop and restart attributing new allocations to call stacks (a region
** you do not want in the profile). Blocks allocated while paused are still
** counted globally and freed correctly; they belong to no site. Global to
** all threads. */
void emheap_pause(void);
void emheap_resume(void);

/* Names this moment: snapshots list the marks with their times, and rank
** what was allocated after a mark and is still live (`emheap top FILE
** --since NAME`, `--between A B`), exactly in exact mode. name: UTF-8, cut
** at 47 bytes; NULL or "" names it "mark N". The last 128 marks are kept.
** From any thread; the same as emheap.mark(name) in JS. */
void emheap_mark(const char *name);

/* Heap budgets for C test suites, the checks of emheap/testing's heapCheck
** (docs/testing.md). emheap_check_begin makes a mark ("check: NAME") and
** restarts the peak (so the peak is then the highest since; snapshots say
** so); emheap_check_end compares what the program did since with the
** limits, each EMHEAP_NO_LIMIT or a maximum:
**   leaked_bytes  blocks allocated since begin and still live (0: none may
**                 be); exact mode only
**   live_bytes    the whole heap's live bytes at the end
**   peak_bytes    the whole heap's highest live bytes since begin
**   allocs        allocations made since begin
**   total_bytes   bytes allocated since begin
** It returns 0 within the limits; 1 when one was passed, with `message`
** (size bytes, always NUL-terminated) saying which, by how much and the
** functions responsible, for the test to print; -1 when it cannot check
** (profiling off, a bad check number, leaks asked in sampled mode), with
** the reason. Main thread only. */
#define EMHEAP_NO_LIMIT (-1)
typedef struct emheap_limits {
  int64_t leaked_bytes;
  int64_t live_bytes;
  int64_t peak_bytes;
  int64_t allocs;
  int64_t total_bytes;
} emheap_limits;
uint32_t emheap_check_begin(const char *name);
int emheap_check_end(uint32_t check, const emheap_limits *limits, char *message, size_t size);

/* Saves a snapshot of the heap as it is at the call, as Ctrl+Shift+H saves
** one (emheap.downloadSnapshot(format) in JS): in a page the browser
** downloads the file; under node it is written into the working folder
** under a new name (never over a file); with a collector (`emheap serve`,
** EMHEAP_REMOTE) a speedscope or PerfView file is sent to it. format:
** "speedscope" (NULL: the same), "perfview", "pprof", "collapsed",
** "chrome-trace", "dhat", "heapsnapshot" ... (emheap.formats). Returns 0
** when the save began, -1 when it could not (an unknown format, profiling
** off), after one line on the console saying why. From any thread: a
** pthread's call is run by the main thread, which reads the heap while
** the calling thread waits. */
int emheap_save_snapshot(const char *format);

/* A region whose pointers keep blocks alive, for the heap scan behind the
** leak classes, retained sizes and the .heapsnapshot export: memory the
** scan does not see by itself (it sees static data, every thread's C stack
** and thread-locals), for example a buffer from mmap or a pointer table
** kept by a custom allocator. Up to 1024 regions; emheap_remove_root takes
** the region that starts at `start` out again. */
void emheap_add_root(const void *start, size_t size);
void emheap_remove_root(const void *start);

/* A program's own allocator: pools, arenas, free lists that take memory in
** big pieces (from malloc, or a static buffer) and hand out objects from
** it. Told of its objects, emheap records each one as it records a malloc
** block (its stack, bytes, age, in every view and export), with the
** semantics of Valgrind's mempool client requests; code annotated for
** Valgrind needs no change (docs/pools.md). The heap block an object lies
** in becomes its pool's chunk: its bytes leave the site that allocated it,
** so no byte is counted twice. Misuse (a pool never created, freeing what
** is no object of the pool ...) is counted, said once on the console, and
** ignored. Addresses are the program's; objects must be 4-aligned.
** Recorded in exact mode; in sampled mode (and off) the calls do nothing.
**
** emheap_pool.h has macros for these that compile to nothing where
** emheap is not linked. */
/* Makes a pool, known by `pool` (any address the allocator owns, as
** Valgrind's) and named `name` (NULL: by the stack that creates it; cut at
** 39 bytes). */
void emheap_pool_create(const void *pool, const char *name);
/* Ends every object still in the pool, and the pool. */
void emheap_pool_destroy(const void *pool);
/* An object of `size` bytes at addr was handed out / taken back. */
void emheap_pool_alloc(const void *pool, const void *addr, size_t size);
void emheap_pool_free(const void *pool, const void *addr);
/* The object at old is now at addr with `size` bytes (moved or resized);
** it keeps its stack and age. */
void emheap_pool_change(const void *pool, const void *old, const void *addr, size_t size);
/* The pool's objects outside [addr, addr + size) end; size 0: all of them
** (an arena reset at once). */
void emheap_pool_trim(const void *pool, const void *addr, size_t size);
/* The pool is known by `to` from now on. */
void emheap_pool_move(const void *from, const void *to);
/* 1 if `pool` names a live pool. */
int emheap_pool_exists(const void *pool);
/* Blocks of an allocator that never calls malloc (a static buffer, sbrk):
** malloc-like blocks, in a pool of their own ("malloc-like blocks"). */
void emheap_block_alloc(const void *addr, size_t size);
void emheap_block_free(const void *addr);
void emheap_block_resize(const void *addr, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* EMHEAP_H */
