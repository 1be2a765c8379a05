// timeline.js -- live bytes and blocks over time, as a ring of the last N
// points: a timer adds one every 100 ms, so the cost is per tick, never per
// allocation; a snapshot carries the points, oldest first.
'use strict';

// A ring of `points` points; t is milliseconds since the first.
function createTimeline(points, start) {
  var t = new Float64Array(points);
  var bytes = new Float64Array(points);
  var blocks = new Float64Array(points);
  var count = 0;
  return {
    add: function (now, liveBytes, liveBlocks) {
      var i = count % points;
      t[i] = Math.max(0, now - start);
      bytes[i] = liveBytes;
      blocks[i] = liveBlocks;
      count++;
    },
    // [{t, liveBytes, liveBlocks}], oldest first; t rounded to a microsecond.
    points: function () {
      var out = [];
      for (var k = Math.max(0, count - points); k < count; k++) {
        var i = k % points;
        out.push({'t': Math.round(t[i] * 1000) / 1000, 'liveBytes': bytes[i], 'liveBlocks': blocks[i]});
      }
      return out;
    },
  };
}

// The profiled program's timeline: POINTS points, one every MS ms (the last
// 5 minutes), read by read() -> {liveBytes, liveBlocks}, or null while
// there is nothing to read; a read that throws (the runtime exited or
// aborted and its memory is gone) keeps what there is. timers: {now(),
// setInterval(fn, ms)}; under node the timer is unref()ed: it never keeps
// a finished program alive. start: the time t counts from (timers.now()'s
// clock; now, if not given). -> {sample(), points()}.
var POINTS = 3000;
var MS = 100;

function startTimeline(read, timers, start) {
  var timeline = createTimeline(POINTS, start === undefined ? timers.now() : start);
  var sample = function () {
    try {
      var c = read();
      if (c) timeline.add(timers.now(), c.liveBytes, c.liveBlocks);
    } catch (e) {
      // memory gone: keep what we have
    }
  };
  sample();
  var timer = timers.setInterval(sample, MS);
  if (timer && typeof timer.unref === 'function') timer.unref();
  return {sample: sample, points: timeline.points};
}

module.exports = {createTimeline: createTimeline, startTimeline: startTimeline, POINTS: POINTS, MS: MS};
