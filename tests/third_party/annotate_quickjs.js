#!/usr/bin/env node
// annotate_quickjs.js -- QuickJS's small-block allocator (third_party/
// quickjs/quickjs.c: __js_malloc, __js_free, __js_realloc) annotated as a
// user would, with Valgrind's mempool macros (docs/pools.md), and with the
// test's own count of the pool's live objects and bytes beside each
// annotation (tests/runtime/quickjs_pools.c keeps it). Writes the copy to
// the path given; fails on any place it cannot find, so that another
// QuickJS is never annotated half.
//
// Usage: annotate_quickjs.js SOURCE OUT
'use strict';

const fs = require('fs');

const EDITS = [
  // the headers, after QuickJS's own
  ['#include "dtoa.h"\n',
    '#include "dtoa.h"\n#include <valgrind/memcheck.h>\n' +
    'void qjs_count_alloc(void *p, size_t n);\nvoid qjs_count_free(void *p);\nvoid qjs_count_change(void *p, size_t n);\n'],
  // the pool: the runtime's malloc context
  ['static void js_malloc_init(JSMallocContext *s)\n{\n    int i;\n    memset(s, 0, sizeof(*s));\n',
    'static void js_malloc_init(JSMallocContext *s)\n{\n    int i;\n    memset(s, 0, sizeof(*s));\n' +
    '    VALGRIND_CREATE_MEMPOOL(s, 0, 0);\n'],
  // a small block handed out
  ['#endif\n            return b->user_data;\n',
    '#endif\n            VALGRIND_MEMPOOL_ALLOC(s, b->user_data, size);\n            qjs_count_alloc(b->user_data, size);\n' +
    '            return b->user_data;\n'],
  // ... taken back (before its arena may go back to malloc)
  ['        JSMallocArena *ar = (JSMallocArena *)((uint8_t *)b - block_size * block_idx - sizeof(JSMallocArena));\n',
    '        JSMallocArena *ar = (JSMallocArena *)((uint8_t *)b - block_size * block_idx - sizeof(JSMallocArena));\n' +
    '        VALGRIND_MEMPOOL_FREE(s, ptr);\n        qjs_count_free(ptr);\n'],
  // ... resized in place
  ['        if (total_size <= block_size)\n            return ptr;\n',
    '        if (total_size <= block_size) {\n            VALGRIND_MEMPOOL_CHANGE(s, ptr, ptr, size);\n' +
    '            qjs_count_change(ptr, size);\n            return ptr;\n        }\n'],
];

function annotate(text) {
  for (const [from, to] of EDITS) {
    const at = text.indexOf(from);
    if (at < 0 || text.indexOf(from, at + 1) >= 0) {
      throw new Error(`annotate_quickjs: ${at < 0 ? 'not found' : 'found twice'}: ${JSON.stringify(from.slice(0, 80))}`);
    }
    text = text.slice(0, at) + to + text.slice(at + from.length);
  }
  return text;
}

if (require.main === module) {
  const [source, out] = process.argv.slice(2);
  if (!source || !out) {
    console.error('usage: annotate_quickjs.js SOURCE OUT');
    process.exit(2);
  }
  try {
    fs.writeFileSync(out + '.tmp', annotate(fs.readFileSync(source, 'utf8')));
    fs.renameSync(out + '.tmp', out);
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}

module.exports = {annotate};
