// sliced_sort.js -- a stable sort in steps (model/steps.js): a page sorting
// a million sites never blocks for all of it (Array.prototype.sort is one
// uninterruptible call, about half a second for 1M sites with emheap's
// comparator).
'use strict';

// Generator: sorts `array` in place with `compare` (stable, like
// Array.prototype.sort since ES2019), yielding after about `step`
// comparisons. A bottom-up merge sort over runs first made by insertion
// sort; an array already in order costs one pass.
function* sortSteps(array, compare, step) {
  var n = array.length;
  var done = 1;
  var work = 0;
  // the pass that finds an array in order yields too: at 1M sites it took
  // 50-70 ms of one step in Chromium
  while (done < n && compare(array[done - 1], array[done]) <= 0) {
    done++;
    if (++work >= step) {
      work = 0;
      yield;
    }
  }
  if (done >= n) return array;
  var RUN = 16;
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

module.exports = {sortSteps: sortSteps};
