// timeline.js -- live bytes and blocks over time, as a ring of the last N
// points: a timer in the library adds one every 100 ms, so the cost is per
// tick, never per allocation; a snapshot carries the points, oldest first.
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

module.exports = {createTimeline: createTimeline};
