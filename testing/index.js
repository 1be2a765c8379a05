// emheap/testing: heap budgets inside a JS test suite (node:test, vitest,
// jest), for an Emscripten module linked with emheap. docs/testing.md is
// its manual.
//
//   const {heapCheck} = require('emheap/testing');
//   await heapCheck(Module, () => Module._parse_document(ptr), {warmups: 1, leaks: true});
//
// runs fn `warmups` times, then once between a check's begin and end
// (Module.emheap.checkBegin / checkEnd: jslib/check_runs.js), and throws
// an AssertionError whose message names the limit passed (leaked, live,
// peak or total), by how much, and the functions responsible, as `emheap
// top` groups them. The checks themselves: model/heap_check.js.
'use strict';

const { AssertionError } = require('node:assert');
const { checkLimits } = require('../model/heap_check');

// options: {warmups (default 0), name, by ('function' | 'line' | 'site' | 'module' | 'type'),
// leaks, maxLiveBytes, maxPeakBytes, maxAllocs, maxTotalBytes}. -> a
// promise of the check's result ({ok: true, allocs, totalBytes, liveBytes,
// peakBytes, bytes: 'requested' (exact mode) or 'usable', failures: []});
// rejected with an AssertionError when a limit
// is passed, with an Error when the check cannot be made.
async function heapCheck(Module, fn, options = {}) {
  const api = Module && Module.emheap;
  if (!api || typeof api.checkBegin !== 'function') {
    throw new Error('heapCheck: this module has no emheap API (Module.emheap): link it with emheap ' +
      '(`emcc ... $(emheap-config --ldflags)`, docs/testing.md), and pass the module instance');
  }
  if (typeof fn !== 'function') throw new TypeError('heapCheck: the second argument is the function to check');
  checkLimits(options); // a bad limit is said before anything runs
  const warmups = options.warmups === undefined ? 0 : options.warmups;
  if (!Number.isInteger(warmups) || warmups < 0) throw new TypeError('heapCheck: warmups: give a whole number >= 0');
  // every run through one named frame: the stacks shown stop there, and
  // leave the test framework's frames out
  const heapCheckedRun = () => fn();
  for (let i = 0; i < warmups; i++) await heapCheckedRun();
  const check = api.checkBegin(options.name);
  try {
    await heapCheckedRun();
  } catch (e) {
    api.checkEnd(check); // closed, unchecked: the test fails with fn's own error
    throw e;
  }
  const result = api.checkEnd(check, options, { warmups, cutAt: 'heapCheckedRun', testName: fn.name });
  if (!result.ok) {
    const first = result.failures[0];
    throw new AssertionError({ message: result.text, actual: first.value, expected: first.max, operator: '<=',
      stackStartFn: heapCheck });
  }
  return result;
}

module.exports = { heapCheck };
