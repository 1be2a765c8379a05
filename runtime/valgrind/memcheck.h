/*
** valgrind/memcheck.h -- emheap's stand-in for Memcheck's header (see
** valgrind.h beside it): the heap requests record into emheap; the
** definedness and leak-check requests do what they do outside Valgrind:
** nothing, returning the default.
*/
#ifndef __MEMCHECK_H
#define __MEMCHECK_H

#include "valgrind.h"

#define VALGRIND_MAKE_MEM_NOACCESS(_qzz_addr, _qzz_len) 0
#define VALGRIND_MAKE_MEM_UNDEFINED(_qzz_addr, _qzz_len) 0
#define VALGRIND_MAKE_MEM_DEFINED(_qzz_addr, _qzz_len) 0
#define VALGRIND_MAKE_MEM_DEFINED_IF_ADDRESSABLE(_qzz_addr, _qzz_len) 0
#define VALGRIND_CREATE_BLOCK(_qzz_addr, _qzz_len, _qzz_desc) 0
#define VALGRIND_DISCARD(_qzz_blkindex) 0
#define VALGRIND_CHECK_MEM_IS_ADDRESSABLE(_qzz_addr, _qzz_len) 0
#define VALGRIND_CHECK_MEM_IS_DEFINED(_qzz_addr, _qzz_len) 0
#define VALGRIND_CHECK_VALUE_IS_DEFINED(__lvalue) 0
#define VALGRIND_DO_LEAK_CHECK do { } while (0)
#define VALGRIND_DO_ADDED_LEAK_CHECK do { } while (0)
#define VALGRIND_DO_CHANGED_LEAK_CHECK do { } while (0)
#define VALGRIND_DO_NEW_LEAK_CHECK do { } while (0)
#define VALGRIND_DO_QUICK_LEAK_CHECK do { } while (0)
#define VALGRIND_COUNT_LEAKS(leaked, dubious, reachable, suppressed) \
  do { (leaked) = 0; (dubious) = 0; (reachable) = 0; (suppressed) = 0; } while (0)
#define VALGRIND_COUNT_LEAK_BLOCKS(leaked, dubious, reachable, suppressed) \
  do { (leaked) = 0; (dubious) = 0; (reachable) = 0; (suppressed) = 0; } while (0)
#define VALGRIND_GET_VBITS(zza, zzvbits, zznbytes) 0
#define VALGRIND_SET_VBITS(zza, zzvbits, zznbytes) 0
#define VALGRIND_DISABLE_ADDR_ERROR_REPORTING_IN_RANGE(_qzz_addr, _qzz_len) 0
#define VALGRIND_ENABLE_ADDR_ERROR_REPORTING_IN_RANGE(_qzz_addr, _qzz_len) 0

#endif /* __MEMCHECK_H */
