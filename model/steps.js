// steps.js -- work that can stop between steps, so that a page handling a
// million sites never blocks for all of it. Long work (building a snapshot,
// sorting sites, writing a file) is a generator that yields between steps;
// runSteps runs one to its end at once (node, the CLI, snapshot()),
// runInSlices a few milliseconds per task (the page), stepsAsPauses inside
// a file writer.
'use strict';

// Items (sites) a step handles before it yields. The slowest step, reading
// JS-stack sites whose stacks are new and must be parsed, took up to ~60 us
// a site (1M synthetic sites in headless Chromium): 500 sites are ~30 ms,
// a page's slice (jslib/page.js SLICE_MS). At 20,000 steps were
// 100-250 ms, and a driver can only stop between steps. Yielding costs
// nothing measurable.
var STEP_ITEMS = 500;

// What a generator of steps yields before a step that must run whole and
// is long (reading the runtime's tables and the allocator's free blocks at
// once): runInSlices starts it in a task of its
// own, not at the end of a slice that has already run for FRESH_TASK_MS
// or more. A slice just begun runs it (a small heap is then read in the
// task that asked, at the moment of the call). Other drivers take it as
// any step.
var FRESH_TASK = {freshTask: true};
var FRESH_TASK_MS = 4;

// Runs a generator of steps to its end; returns what it returns.
function runSteps(steps) {
  for (;;) {
    var next = steps.next();
    if (next.done) return next.value;
  }
}

// Runs the step generator `steps` inside a generator of file chunks
// (formats/index.js): each step becomes the chunk `pause` ('' or an empty
// Uint8Array), a point where a page's writer may stop, writing nothing.
// Returns what `steps` returns.
function* stepsAsPauses(steps, pause) {
  for (;;) {
    var next = steps.next();
    if (next.done) return next.value;
    yield pause;
  }
}

// Runs the generator `steps` sliceMs at a time, one slice per task
// (nextTask(fn) runs fn in a task of its own); a Promise of what it returns.
function runInSlices(steps, sliceMs, nextTask) {
  return new Promise(function (resolve, reject) {
    function slice() {
      var start = Date.now();
      try {
        for (;;) {
          var next = steps.next();
          if (next.done) return resolve(next.value);
          var ran = Date.now() - start;
          if (ran > sliceMs || (next.value === FRESH_TASK && ran >= FRESH_TASK_MS)) return nextTask(slice);
        }
      } catch (e) {
        reject(e);
      }
    }
    slice();
  });
}

module.exports = {STEP_ITEMS: STEP_ITEMS, FRESH_TASK: FRESH_TASK, FRESH_TASK_MS: FRESH_TASK_MS, runSteps: runSteps, runInSlices: runInSlices, stepsAsPauses: stepsAsPauses};
