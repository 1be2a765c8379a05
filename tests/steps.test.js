// steps.test.js -- model/steps.js: work in steps, run at once, inside a
// file writer, or a slice per task as a page runs it.
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const {runSteps, stepsAsPauses, runInSlices} = require('../model/steps');

function* count(n, log) {
  for (let i = 0; i < n; i++) {
    log.push(i);
    yield;
  }
  return 'done after ' + n;
}

test('runSteps runs every step and returns what the generator returns', () => {
  const log = [];
  assert.equal(runSteps(count(5, log)), 'done after 5');
  assert.deepEqual(log, [0, 1, 2, 3, 4]);
});

test('stepsAsPauses turns each step into a pause chunk and returns the result', () => {
  const g = stepsAsPauses(count(3, []), '');
  const seen = [];
  let next;
  for (next = g.next(); !next.done; next = g.next()) seen.push(next.value);
  assert.deepEqual(seen, ['', '', '']);
  assert.equal(next.value, 'done after 3');
});

test('runInSlices stops when a slice has run sliceMs, goes on in the next task, and resolves', async () => {
  let tasks = 0;
  const queue = [];
  const nextTask = (fn) => { tasks++; queue.push(fn); };
  // Each step takes ~2 ms: a 5 ms slice holds a few of them.
  function* slow(n) {
    for (let i = 0; i < n; i++) {
      const until = Date.now() + 2;
      while (Date.now() < until) { /* work */ }
      yield;
    }
    return n;
  }
  const done = runInSlices(slow(20), 5, nextTask);
  while (queue.length) queue.shift()();
  assert.equal(await done, 20);
  assert.ok(tasks >= 3 && tasks < 20, `${tasks} tasks for 20 steps of 2 ms in 5 ms slices`);
});

test('runInSlices rejects with what a step throws', async () => {
  function* failing() {
    yield;
    throw new Error('step 2 failed');
  }
  await assert.rejects(runInSlices(failing(), 5, (fn) => fn()), /step 2 failed/);
});
