// snapshot_at_exit.js -- a `node -r` preload for tests/e2e/third_party.test.js:
// when the program exits, it saves emheap's snapshot as a user under node
// would, with emheap.downloadSnapshot() (a file in the working directory),
// so that the test reads what a user reads, through the CLI.
'use strict';

process.on('exit', () => {
  if (!globalThis.emheap) return;
  // a program linked with heap_probe.c: mallinfo() and emheap's reading of
  // the heap as it is at exit, before the snapshot
  // (the program's Module is its main module's exports; a preload's own
  // require.main is not that module)
  const program = process.mainModule && process.mainModule.exports;
  if (program && program._emheap_test_heap_probe) program._emheap_test_heap_probe();
  globalThis.emheap.downloadSnapshot('speedscope');
});
