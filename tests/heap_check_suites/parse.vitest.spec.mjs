// A vitest suite as a user writes one (docs/testing.md), run by
// tests/e2e/heap_check.test.js against the clean and the leaking build of
// tests/runtime/heap_check.c (HEAP_CHECK_MODULE: its path).
import { test } from 'vitest';
import { createRequire } from 'node:module';
import { heapCheck } from 'emheap/testing';

const createModule = createRequire(import.meta.url)(process.env.HEAP_CHECK_MODULE);

test('parse leaves nothing behind and stays within its budgets', async () => {
  const Module = await createModule();
  await heapCheck(Module, () => Module._parse(1000), { warmups: 1, leaks: true, maxAllocs: 1000, maxPeakBytes: 1 << 20 });
});
