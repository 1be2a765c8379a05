// timeline.js -- live bytes and blocks over time, as a ring of the last N
// points: a timer adds one every 100 ms (and a mark made on this thread
// one more), so the cost is per point, never per allocation; a snapshot
// carries the points, oldest first, and the series of the sites that
// matter at the same points (site_series.js).
'use strict';

// A ring of `points` points; t is milliseconds since the first.
function createTimeline(points, start) {
  var t = new Float64Array(points);
  var bytes = new Float64Array(points);
  var blocks = new Float64Array(points);
  var allocated = new Float64Array(points);
  var calls = new Float64Array(points);
  var count = 0;
  return {
    // c: {liveBytes, liveBlocks, totalBytes, and the calls: mallocCalls,
    // callocCalls, reallocCalls, memalignCalls}
    add: function (now, c) {
      var i = count % points;
      t[i] = Math.max(0, now - start);
      bytes[i] = c.liveBytes;
      blocks[i] = c.liveBlocks;
      allocated[i] = c.totalBytes;
      calls[i] = (c.mallocCalls || 0) + (c.callocCalls || 0) + (c.reallocCalls || 0) + (c.memalignCalls || 0);
      count++;
    },
    // The index the next point gets; the first still kept.
    count: function () { return count; },
    first: function () { return Math.max(0, count - points); },
    // [{t, liveBytes, liveBlocks, totalBytes, allocCalls}], oldest first;
    // t rounded to a microsecond. totalBytes (bytes ever allocated) tells
    // between which two points the peak came (summary.totalAtPeak); it
    // and allocCalls (allocation calls so far) give the allocation rate
    // (model/allocation_rate.js).
    points: function () {
      var out = [];
      for (var k = Math.max(0, count - points); k < count; k++) {
        var i = k % points;
        out.push({'t': Math.round(t[i] * 1000) / 1000, 'liveBytes': bytes[i], 'liveBlocks': blocks[i],
          'totalBytes': allocated[i], 'allocCalls': calls[i]});
      }
      return out;
    },
  };
}

// The profiled program's timeline: POINTS points, one every MS ms (the last
// 5 minutes at least), read by read(index, now) -> {liveBytes, liveBlocks,
// totalBytes}, or null while there is nothing to read (index: the point's
// number, for the site series read with it; atMark: see sample); a read that throws (the
// runtime exited or aborted and its memory is gone) keeps what there is.
// timers: {now(), setInterval(fn, ms)}; under node the timer is unref()ed:
// it never keeps a finished program alive. start: the time t counts from
// (timers.now()'s clock; now, if not given). sites: site_series.js's, or
// none. -> {sample(), points(), siteSeries()}.
var POINTS = 3000;
var MS = 100;

function startTimeline(read, timers, start, sites) {
  var timeline = createTimeline(POINTS, start === undefined ? timers.now() : start);
  // atMark: the point of a mark (read passes it on)
  var sample = function (atMark) {
    try {
      var now = timers.now();
      var c = read(timeline.count(), now, !!atMark);
      if (c) timeline.add(now, c);
    } catch (e) {
      // memory gone: keep what we have
    }
  };
  sample();
  var timer = timers.setInterval(function () { sample(false); }, MS);
  if (timer && typeof timer.unref === 'function') timer.unref();
  return {
    sample: sample,
    points: timeline.points,
    // the site series at the same points as points() (site_series.js read)
    siteSeries: function () { return sites ? sites.read(timeline.first(), timeline.count()) : null; },
  };
}

module.exports = {createTimeline: createTimeline, startTimeline: startTimeline, POINTS: POINTS};
