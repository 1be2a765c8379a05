/*
** valgrind/valgrind.h -- emheap's stand-in for Valgrind's header, first on
** the include path through `emheap-config --cflags`, so that code annotated
** for Valgrind builds unchanged under Emscripten (where Valgrind's own
** header has no client requests) and its allocator is seen by emheap.
**
** The heap requests (the mempool family, MALLOCLIKE, FREELIKE and
** RESIZEINPLACE blocks) record into emheap (emheap_pool.h; a no-op where
** emheap is not linked). Everything else does what Valgrind's header does
** when the program does not run under Valgrind: nothing, and returns the
** default. RUNNING_ON_VALGRIND is 0: code that changes its ways under
** Valgrind (a pool bypassed for plain malloc) keeps its own.
*/
#ifndef __VALGRIND_H
#define __VALGRIND_H

#include "../emheap_pool.h"

#define __VALGRIND_MAJOR__ 3
#define __VALGRIND_MINOR__ 22

#define NVALGRIND_EMHEAP 1 /* this is emheap's header, not Valgrind's */

#define VALGRIND_DO_CLIENT_REQUEST_EXPR(_zzq_default, _zzq_request, _zzq_arg1, _zzq_arg2, _zzq_arg3, _zzq_arg4, _zzq_arg5) \
  (_zzq_default)
#define VALGRIND_DO_CLIENT_REQUEST_STMT(_zzq_request, _zzq_arg1, _zzq_arg2, _zzq_arg3, _zzq_arg4, _zzq_arg5) \
  do { } while (0)
#define VALGRIND_DO_CLIENT_REQUEST(_zzq_rlval, _zzq_default, _zzq_request, _zzq_arg1, _zzq_arg2, _zzq_arg3, _zzq_arg4, _zzq_arg5) \
  do { (_zzq_rlval) = (_zzq_default); } while (0)

#define RUNNING_ON_VALGRIND 0
#define VALGRIND_DISCARD_TRANSLATIONS(_qzz_addr, _qzz_len) do { } while (0)
#define VALGRIND_INNER_THREADS(_qzz_addr) do { } while (0)
#define VALGRIND_COUNT_ERRORS 0u
#define VALGRIND_STACK_REGISTER(start, end) 0u
#define VALGRIND_STACK_DEREGISTER(id) do { } while (0)
#define VALGRIND_STACK_CHANGE(id, start, end) do { } while (0)
#define VALGRIND_LOAD_PDB_DEBUGINFO(fd, ptr, total_size, delta) do { } while (0)
#define VALGRIND_MAP_IP_TO_SRCLOC(addr, buf64) 0u
#define VALGRIND_DISABLE_ERROR_REPORTING do { } while (0)
#define VALGRIND_ENABLE_ERROR_REPORTING do { } while (0)
#define VALGRIND_MONITOR_COMMAND(command) 0u
#define VALGRIND_CLO_CHANGE(option) do { } while (0)
#define VALGRIND_NON_SIMD_CALL0(_qyy_fn) 0ul
#define VALGRIND_NON_SIMD_CALL1(_qyy_fn, _qyy_arg1) 0ul
#define VALGRIND_NON_SIMD_CALL2(_qyy_fn, _qyy_arg1, _qyy_arg2) 0ul
#define VALGRIND_NON_SIMD_CALL3(_qyy_fn, _qyy_arg1, _qyy_arg2, _qyy_arg3) 0ul
static inline int VALGRIND_PRINTF(const char *format, ...) { (void)format; return 0; }
static inline int VALGRIND_PRINTF_BACKTRACE(const char *format, ...) { (void)format; return 0; }

/* Pool flags of VALGRIND_CREATE_MEMPOOL_EXT: emheap keeps no red zones and
** finds a pool's chunks itself; a chunk freed with objects in it ends them
** in every case (said once, as a misuse, where AUTO_FREE was not asked). */
#define VALGRIND_MEMPOOL_AUTO_FREE 1
#define VALGRIND_MEMPOOL_METAPOOL 2

#define VALGRIND_MALLOCLIKE_BLOCK(addr, sizeB, rzB, is_zeroed) EMHEAP_BLOCK_ALLOC((addr), (sizeB))
#define VALGRIND_RESIZEINPLACE_BLOCK(addr, oldSizeB, newSizeB, rzB) EMHEAP_BLOCK_RESIZE((addr), (newSizeB))
#define VALGRIND_FREELIKE_BLOCK(addr, rzB) EMHEAP_BLOCK_FREE((addr))
#define VALGRIND_CREATE_MEMPOOL(pool, rzB, is_zeroed) EMHEAP_POOL_CREATE((pool), (const char *)0)
#define VALGRIND_CREATE_MEMPOOL_EXT(pool, rzB, is_zeroed, flags) EMHEAP_POOL_CREATE((pool), (const char *)0)
#define VALGRIND_DESTROY_MEMPOOL(pool) EMHEAP_POOL_DESTROY((pool))
#define VALGRIND_MEMPOOL_ALLOC(pool, addr, size) EMHEAP_POOL_ALLOC((pool), (addr), (size))
#define VALGRIND_MEMPOOL_FREE(pool, addr) EMHEAP_POOL_FREE((pool), (addr))
#define VALGRIND_MEMPOOL_TRIM(pool, addr, size) EMHEAP_POOL_TRIM((pool), (addr), (size))
#define VALGRIND_MOVE_MEMPOOL(poolA, poolB) EMHEAP_POOL_MOVE((poolA), (poolB))
#define VALGRIND_MEMPOOL_CHANGE(pool, addrA, addrB, size) EMHEAP_POOL_CHANGE((pool), (addrA), (addrB), (size))
#define VALGRIND_MEMPOOL_EXISTS(pool) EMHEAP_POOL_EXISTS((pool))

#endif /* __VALGRIND_H */
