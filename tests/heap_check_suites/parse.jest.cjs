// A jest suite as a user writes one (docs/testing.md), run by
// tests/e2e/heap_check.test.js against the clean and the leaking build of
// tests/runtime/heap_check.c (HEAP_CHECK_MODULE: its path). (Not *.test.cjs:
// the node:test runner of `make test` would take it for one of its own.)
const { heapCheck } = require('emheap/testing');
const createModule = require(process.env.HEAP_CHECK_MODULE);

test('parse leaves nothing behind and stays within its budgets', async () => {
  const Module = await createModule();
  await heapCheck(Module, () => Module._parse(1000), { warmups: 1, leaks: true, maxAllocs: 1000, maxPeakBytes: 1 << 20 });
});
