// sliced_sort.js -- work that can stop between steps, so that a page
// handling a million sites never blocks for all of it: a stable sort in
// steps (Array.prototype.sort is one uninterruptible call, about half a
// second for 1M sites with emheap's comparator), and runSteps, which runs
// any such generator to its end at once (node, the CLI, snapshot()).
'use strict';

// Items (sites) a step handles before it yields. The slowest step, reading
// JS-stack sites whose stacks are new and must be parsed, took up to ~60 us
// a site (1M synthetic sites in headless Chromium): 500 sites are ~30 ms,
// a page's slice (library_emheap.js SLICE_MS). At 20,000 steps were
// 100-250 ms, and a driver can only stop between steps. Yielding costs
// nothing measurable.
var STEP_ITEMS = 500;

// Generator: sorts `array` in place with `compare` (stable, like
// Array.prototype.sort since ES2019), yielding after about `step`
// comparisons. A bottom-up merge sort over runs first made by insertion
// sort; an array already in order costs one pass.
function* sortSteps(array, compare, step) {
  var n = array.length;
  var done = 1;
  while (done < n && compare(array[done - 1], array[done]) <= 0) done++;
  if (done >= n) return array;
  var RUN = 16;
  var work = 0;
  for (var lo = 0; lo < n; lo += RUN) {
    var hi = Math.min(lo + RUN, n);
    for (var i = lo + 1; i < hi; i++) {
      var x = array[i];
      var j = i - 1;
      while (j >= lo && compare(array[j], x) > 0) {
        array[j + 1] = array[j];
        j--;
      }
      array[j + 1] = x;
    }
    work += RUN * 4;
    if (work >= step) {
      work = 0;
      yield;
    }
  }
  var src = array;
  var dst = new Array(n);
  for (var width = RUN; width < n; width *= 2) {
    for (var left = 0; left < n; left += 2 * width) {
      var mid = Math.min(left + width, n);
      var right = Math.min(left + 2 * width, n);
      var a = left;
      var b = mid;
      var k = left;
      while (a < mid && b < right) dst[k++] = compare(src[a], src[b]) <= 0 ? src[a++] : src[b++];
      while (a < mid) dst[k++] = src[a++];
      while (b < right) dst[k++] = src[b++];
      work += right - left;
      if (work >= step) {
        work = 0;
        yield;
      }
    }
    var t = src;
    src = dst;
    dst = t;
  }
  if (src !== array) for (var c = 0; c < n; c++) array[c] = src[c];
  return array;
}

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

module.exports = {STEP_ITEMS: STEP_ITEMS, sortSteps: sortSteps, runSteps: runSteps, stepsAsPauses: stepsAsPauses};
