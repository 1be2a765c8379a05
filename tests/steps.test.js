// steps.test.js -- model/steps.js: work in steps, run at once, inside a
// file writer, or a slice per task as a page runs it.
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const {runSteps, stepsAsPauses, runInSlices, FRESH_TASK, FRESH_TASK_MS} = require('../model/steps');

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

test('runInSlices starts the step after FRESH_TASK in a task of its own once the slice has run a while', async () => {
  const log = [];
  const queue = [];
  const nextTask = (fn) => { log.push('task'); queue.push(fn); };
  function* work(busyMs) {
    log.push('quick');
    const until = Date.now() + busyMs;
    while (Date.now() < until) { /* work */ }
    yield;
    log.push('quick');
    yield FRESH_TASK;
    log.push('long, at once');
    yield;
    return 'read';
  }
  // the slice has run FRESH_TASK_MS and more: the long step waits for a task of its own
  let done = runInSlices(work(FRESH_TASK_MS + 2), 1000, nextTask);
  while (queue.length) queue.shift()();
  assert.equal(await done, 'read');
  assert.deepEqual(log, ['quick', 'quick', 'task', 'long, at once']);
  // a slice just begun runs it at once, in the task that asked
  log.length = 0;
  done = runInSlices(work(0), 1000, nextTask);
  assert.deepEqual(log, ['quick', 'quick', 'long, at once']);
  assert.equal(await done, 'read');
  // runSteps takes it as a step
  log.length = 0;
  assert.equal(runSteps(work(0)), 'read');
  assert.deepEqual(log, ['quick', 'quick', 'long, at once']);
});

test('runInSlices rejects with what a step throws', async () => {
  function* failing() {
    yield;
    throw new Error('step 2 failed');
  }
  await assert.rejects(runInSlices(failing(), 5, (fn) => fn()), /step 2 failed/);
});
