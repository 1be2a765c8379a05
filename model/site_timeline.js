// site_timeline.js: a snapshot's per-site series over time
// (snapshot.siteTimeline, made by jslib/site_timeline.js): series i's
// liveBytes[k] is the site's live bytes at snapshot.timeline[from + k];
// before `from` the site was not tracked. Shared by the snapshot builder
// and the allocation-layer pass (sites that turn out to be one), and read
// by model/growing.js and the report.
'use strict';

// The most sites a timeline follows at once (jslib/site_timeline.js): the
// views say it where a group had some of its sites unfollowed.
var MAX_SERIES = 24;

// siteTimeline with the series of sites that became one added up: kept(id)
// -> the id a site was merged into (itself if none). A sum is known where
// every part is: a part made at its start (newAtFrom) held 0 before it,
// another is unknown before its start; so the sum starts at the latest
// start of the parts of the second kind (the earliest start if all are of
// the first).
function withMergedSeries(siteTimeline, kept) {
  if (!siteTimeline || !Array.isArray(siteTimeline.series)) return siteTimeline;
  var byId = new Map();
  siteTimeline.series.forEach(function (s) {
    var id = kept(s.siteId);
    var parts = byId.get(id);
    if (!parts) byId.set(id, parts = []);
    parts.push(s);
  });
  var series = [];
  byId.forEach(function (parts, id) {
    if (parts.length === 1) {
      series.push(parts[0].siteId === id ? parts[0] : Object.assign({}, parts[0], {siteId: id}));
      return;
    }
    var unknownBefore = parts.filter(function (p) { return !p.newAtFrom; }).map(function (p) { return p.from; });
    var from = unknownBefore.length ? Math.max.apply(null, unknownBefore)
      : Math.min.apply(null, parts.map(function (p) { return p.from; }));
    var end = Math.min.apply(null, parts.map(function (p) { return p.from + p.liveBytes.length; }));
    var values = [];
    for (var k = from; k < end; k++) {
      var sum = 0;
      for (var j = 0; j < parts.length; j++) if (k >= parts[j].from) sum += parts[j].liveBytes[k - parts[j].from];
      values.push(sum);
    }
    var one = {siteId: id, from: from, liveBytes: values};
    if (parts.some(function (p) { return p.estimated; })) one.estimated = true;
    if (!unknownBefore.length) one.newAtFrom = true;
    series.push(one);
  });
  return Object.assign({}, siteTimeline, {series: series});
}

// One series as [{t (ms), liveBytes}]: its values at the timeline's points.
function seriesPoints(timeline, series) {
  return series.liveBytes.map(function (v, k) { return {t: timeline[series.from + k].t, liveBytes: v}; });
}

module.exports = {MAX_SERIES: MAX_SERIES, withMergedSeries: withMergedSeries, seriesPoints: seriesPoints};
