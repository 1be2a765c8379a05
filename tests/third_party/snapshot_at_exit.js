// snapshot_at_exit.js -- a `node -r` preload for tests/e2e/third_party.test.js:
// when the program exits, it saves emheap's snapshot as a user under node
// would, with emheap.downloadSnapshot() (a file in the working directory),
// so that the test reads what a user reads, through the CLI.
'use strict';

process.on('exit', () => {
  if (globalThis.emheap) globalThis.emheap.downloadSnapshot('speedscope');
});
