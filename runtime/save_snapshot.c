/*
** save_snapshot.c -- emheap_save_snapshot (emheap.h): a C or C++ program
** saves a snapshot itself, as the key Ctrl+Shift+H does, in a page and
** under node alike.
**
** The work is JS's (jslib/page_files.js saveSnapshotAtCall): it reads the
** heap before it returns, so that the file shows the heap at the call;
** where the file goes is the sink's (a download, a new file, a
** collector). In -pthread builds the JS side runs on the main thread
** (__proxy: 'sync' in jslib/library_emheap.js), where the profiler lives.
*/
#include "emheap_internal.h"

/* jslib/library_emheap.js: 0 when the save began, -1 after saying why not. */
extern int emheap_js_save_snapshot(const char *format);

int emheap_save_snapshot(const char *format) {
  if (emheap_g.magic != EMHEAP_MAGIC) emheap_init_slow();
  return emheap_js_save_snapshot(format);
}
