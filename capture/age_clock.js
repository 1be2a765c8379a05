// age_clock.js -- tells the runtime how old a block serial is, so that free
// can count a block's lifetime in time (runtime/record.c count_ended)
// without reading a clock.
//
// At each point of the timeline (every 100 ms while the main thread is
// free, and at each mark) the block serial of the moment goes into a ring
// in linear memory (state age_points), and its time into a ring here at the
// same index; then for 1, 10 and 100 s, the serial of the newest point at
// least that old goes into state age_serial. A block with a serial at most
// that was made at least that long ago: counted so, it surely lived that
// long. One counted under a bound may have lived up to two gaps between
// points more (the gap in force at its free, and the one around its
// making): resolutionMs() says how much, from the largest gap seen.
// The runtime renumbers the serials of both arrays with the blocks'
// (runtime/marks.c); the times here stay as they are.
'use strict';

var L = require('./layout_generated');

var STATE = L.emheap_state;
var AGE_POINTS = L.constants.EMHEAP_AGE_POINTS;
var AGE_TIMES_MS = [1000, 10000, 100000]; // EMHEAP_AGE_TIMES bounds
// A point less than this after the one before replaces it, so that the
// ring reaches back 100 s however often marks come (1023 x 100 ms).
var MIN_SPACING_MS = 100;

function createAgeClock() {
  var times = new Float64Array(AGE_POINTS);
  var lastTick = -1;
  var largestGap = 0;
  return {
    // Under the runtime's lock: a point at `now` (ms, the timeline's clock).
    tick: function (view, statePtr, now) {
      if (lastTick >= 0) largestGap = Math.max(largestGap, now - lastTick);
      lastTick = now;
      var count = readAgePointCount(view, statePtr);
      var newest = count - 1;
      if (count > 0 && now - times[newest % AGE_POINTS] < MIN_SPACING_MS) count = newest; // replace it
      times[count % AGE_POINTS] = now;
      writeAgePoint(view, statePtr, count);
      var oldest = Math.max(0, count + 1 - AGE_POINTS);
      for (var i = 0; i < AGE_TIMES_MS.length; i++) {
        var k = newestAtOrBefore(times, oldest, count, now - AGE_TIMES_MS[i]);
        // none that old in the ring: the bound written before stays (older
        // than it need be, so what it counts as old still is)
        if (k >= 0) writeAgeSerial(view, statePtr, i, readAgePoint(view, statePtr, k));
      }
    },
    // How much longer than its bucket's bound a block counted under it may
    // have lived, at `now`: twice the largest gap between points (the last
    // one, up to now, included); null before any point.
    resolutionMs: function (now) {
      if (lastTick < 0) return null;
      return 2 * Math.max(largestGap, now - lastTick);
    },
  };
}

// The newest point k in [oldest, newest] with times[k] <= t, or -1 (times
// ascend with k).
function newestAtOrBefore(times, oldest, newest, t) {
  var lo = oldest;
  var hi = newest + 1;
  while (lo < hi) {
    var mid = (lo + hi) >>> 1;
    if (times[mid % AGE_POINTS] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1 >= oldest ? lo - 1 : -1;
}

// The runtime's age clock in linear memory: its points' count, point
// k's serial, point k made now (block_serial then; count k + 1), and
// bound i's serial. Under the lock.
function readAgePointCount(view, statePtr) {
  return view.getUint32(statePtr + STATE.age_point_count, true);
}
function readAgePoint(view, statePtr, k) {
  return view.getUint32(statePtr + STATE.age_points + (k % AGE_POINTS) * 4, true);
}
function writeAgePoint(view, statePtr, k) {
  view.setUint32(statePtr + STATE.age_points + (k % AGE_POINTS) * 4, view.getUint32(statePtr + STATE.block_serial, true), true);
  view.setUint32(statePtr + STATE.age_point_count, k + 1, true);
}
function writeAgeSerial(view, statePtr, i, serial) {
  view.setUint32(statePtr + STATE.age_serial + 4 * i, serial, true);
}

module.exports = {createAgeClock: createAgeClock, readAgePointCount: readAgePointCount, readAgePoint: readAgePoint,
  AGE_POINTS: AGE_POINTS};
