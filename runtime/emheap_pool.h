/*
** emheap_pool.h -- macros that tell emheap of a program's own allocator
** (pools, arenas, free lists; emheap.h's emheap_pool_* calls), and compile
** to nothing useful where emheap is not linked: a library keeps the lines
** in every build.
**
** Each macro calls its function only if it is linked in: the functions are
** declared weak, and a weak function that nothing defines has address 0
** (wasm-ld), so the call is skipped; EMHEAP_NO_POOLS defined makes every
** macro nothing at all. Semantics (Valgrind's mempool requests): see
** emheap.h and docs/pools.md.
**
**   EMHEAP_POOL_CREATE(pool, name)              a pool known by the address `pool`
**   EMHEAP_POOL_DESTROY(pool)                   it ends, with its objects
**   EMHEAP_POOL_ALLOC(pool, addr, size)         an object handed out
**   EMHEAP_POOL_FREE(pool, addr)                ... taken back
**   EMHEAP_POOL_CHANGE(pool, old, addr, size)   ... moved or resized
**   EMHEAP_POOL_TRIM(pool, addr, size)          objects outside the range end (size 0: all)
**   EMHEAP_POOL_MOVE(from, to)                  the pool is known by `to`
**   EMHEAP_POOL_EXISTS(pool)                    1 if it lives (0 without emheap)
**   EMHEAP_BLOCK_ALLOC(addr, size)              a malloc-like block of an allocator with no malloc
**   EMHEAP_BLOCK_FREE(addr)
**   EMHEAP_BLOCK_RESIZE(addr, size)
*/
#ifndef EMHEAP_POOL_H
#define EMHEAP_POOL_H

#include <stddef.h>

#if defined(__EMSCRIPTEN__) && !defined(EMHEAP_NO_POOLS)

#ifdef __cplusplus
extern "C" {
#endif
__attribute__((weak)) void emheap_pool_create(const void *pool, const char *name);
__attribute__((weak)) void emheap_pool_destroy(const void *pool);
__attribute__((weak)) void emheap_pool_alloc(const void *pool, const void *addr, size_t size);
__attribute__((weak)) void emheap_pool_free(const void *pool, const void *addr);
__attribute__((weak)) void emheap_pool_change(const void *pool, const void *old, const void *addr, size_t size);
__attribute__((weak)) void emheap_pool_trim(const void *pool, const void *addr, size_t size);
__attribute__((weak)) void emheap_pool_move(const void *from, const void *to);
__attribute__((weak)) int emheap_pool_exists(const void *pool);
__attribute__((weak)) void emheap_block_alloc(const void *addr, size_t size);
__attribute__((weak)) void emheap_block_free(const void *addr);
__attribute__((weak)) void emheap_block_resize(const void *addr, size_t size);
#ifdef __cplusplus
}
#endif

#define EMHEAP_POOL_CALL_(fn, args) (fn ? fn args : (void)0)
#define EMHEAP_POOL_CREATE(pool, name) EMHEAP_POOL_CALL_(emheap_pool_create, ((pool), (name)))
#define EMHEAP_POOL_DESTROY(pool) EMHEAP_POOL_CALL_(emheap_pool_destroy, ((pool)))
#define EMHEAP_POOL_ALLOC(pool, addr, size) EMHEAP_POOL_CALL_(emheap_pool_alloc, ((pool), (addr), (size)))
#define EMHEAP_POOL_FREE(pool, addr) EMHEAP_POOL_CALL_(emheap_pool_free, ((pool), (addr)))
#define EMHEAP_POOL_CHANGE(pool, old, addr, size) EMHEAP_POOL_CALL_(emheap_pool_change, ((pool), (old), (addr), (size)))
#define EMHEAP_POOL_TRIM(pool, addr, size) EMHEAP_POOL_CALL_(emheap_pool_trim, ((pool), (addr), (size)))
#define EMHEAP_POOL_MOVE(from, to) EMHEAP_POOL_CALL_(emheap_pool_move, ((from), (to)))
#define EMHEAP_POOL_EXISTS(pool) (emheap_pool_exists ? emheap_pool_exists((pool)) : 0)
#define EMHEAP_BLOCK_ALLOC(addr, size) EMHEAP_POOL_CALL_(emheap_block_alloc, ((addr), (size)))
#define EMHEAP_BLOCK_FREE(addr) EMHEAP_POOL_CALL_(emheap_block_free, ((addr)))
#define EMHEAP_BLOCK_RESIZE(addr, size) EMHEAP_POOL_CALL_(emheap_block_resize, ((addr), (size)))

#else

#define EMHEAP_POOL_CREATE(pool, name) ((void)0)
#define EMHEAP_POOL_DESTROY(pool) ((void)0)
#define EMHEAP_POOL_ALLOC(pool, addr, size) ((void)0)
#define EMHEAP_POOL_FREE(pool, addr) ((void)0)
#define EMHEAP_POOL_CHANGE(pool, old, addr, size) ((void)0)
#define EMHEAP_POOL_TRIM(pool, addr, size) ((void)0)
#define EMHEAP_POOL_MOVE(from, to) ((void)0)
#define EMHEAP_POOL_EXISTS(pool) 0
#define EMHEAP_BLOCK_ALLOC(addr, size) ((void)0)
#define EMHEAP_BLOCK_FREE(addr) ((void)0)
#define EMHEAP_BLOCK_RESIZE(addr, size) ((void)0)

#endif

#endif /* EMHEAP_POOL_H */
