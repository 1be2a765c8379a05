// allocation_rate.js: how fast the program allocated over the run, in all
// and for each followed group, from the timeline's points (their bytes and
// calls allocated so far: snapshot.timeline[k].totalBytes, allocCalls) and
// the site series (siteTimeline.series[i].totalBytes, totalAllocs). A rate
// is the change between two points over the time between them; drawn by
// the report under the live bytes.
'use strict';

// rates of cumulative `values` at times `t` (ms): one per point from the
// second, per second; null where a value is missing or no time passed.
function ratesOf(t, values) {
  var out = [];
  for (var k = 1; k < t.length; k++) {
    var dt = (t[k] - t[k - 1]) / 1000;
    var a = values[k - 1];
    var b = values[k];
    out.push(typeof a === 'number' && typeof b === 'number' && dt > 0 ? Math.max(0, b - a) / dt : null);
  }
  return out;
}

// -> {t: seconds at each point from the second, bytesPerSecond,
// callsPerSecond (all allocation calls), groups: [{siteId or siteIds,
// bytesPerSecond, allocsPerSecond (null before the group was followed),
// estimated?}]}, or null without the numbers (files before layout 15 have
// no allocCalls nor series totals).
function allocationRate(snapshot) {
  var timeline = snapshot.timeline || [];
  if (timeline.length < 2 || !timeline.every(function (p) { return typeof p.totalBytes === 'number' && typeof p.allocCalls === 'number'; })) {
    return null;
  }
  var t = timeline.map(function (p) { return p.t; });
  var series = (snapshot.siteTimeline && snapshot.siteTimeline.series) || [];
  var groups = series.filter(function (s) { return Array.isArray(s.totalBytes) && Array.isArray(s.totalAllocs); }).map(function (s) {
    var at = function (values) {
      return timeline.map(function (p, k) { return k >= s.from && k - s.from < values.length ? values[k - s.from] : null; });
    };
    var one = s.siteIds ? {siteIds: s.siteIds} : {siteId: s.siteId};
    one.bytesPerSecond = ratesOf(t, at(s.totalBytes));
    one.allocsPerSecond = ratesOf(t, at(s.totalAllocs));
    if (s.estimated) one.estimated = true;
    return one;
  });
  return {
    t: t.slice(1).map(function (ms) { return ms / 1000; }),
    bytesPerSecond: ratesOf(t, timeline.map(function (p) { return p.totalBytes; })),
    callsPerSecond: ratesOf(t, timeline.map(function (p) { return p.allocCalls; })),
    groups: groups,
  };
}

module.exports = {allocationRate: allocationRate, ratesOf: ratesOf};
