// site_timeline.js: a snapshot's series over time (snapshot.siteTimeline,
// made by capture/site_series.js). The timeline follows groups of call
// sites (those whose stacks are one chain of functions: the call sites a
// loop unrolled are one series), so a series is the sum of the live bytes
// of one site (`siteId`) or of several (`siteIds`); liveBytes[k] is that
// sum at snapshot.timeline[from + k], and before `from` the sites were not
// followed. Whenever sites merge (the snapshot's own merge of JS stacks,
// the allocation layer, a view's grouping) the series follow in one way,
// regroupSeries; read by model/growing.js and the report.
'use strict';

// The most groups a timeline follows at once (capture/site_series.js), and
// the most call sites one of them may hold: the views say it where a group
// had some of its sites unfollowed.
var MAX_SERIES = 24;
var MAX_SITES_PER_SERIES = 1024;

// The sites a series is the sum of.
function seriesSites(series) {
  return Array.isArray(series.siteIds) ? series.siteIds : [series.siteId];
}

// siteTimeline after the snapshot's sites were merged: kept(id) -> the id
// of the site that site `id` went into; partsOf(id) -> how many sites went
// into site `id` (1 if it merged nothing). A merged site's series is the
// sum of the series whose sites went into it, and exists only where those
// series hold every site that went into it (a sum that leaves one out would
// be wrong); series that reach several merged sites stay one series of
// those sites, whole or not at all. `incomplete`: how many merged sites
// lost their series so.
//
// When a sum is known: a part made at its start (newAtFrom) held 0 before
// it; another is unknown before its start. So the sum starts at the latest
// start of the parts of the second kind (the earliest start if all are of
// the first).
function regroupSeries(siteTimeline, kept, partsOf) {
  if (!siteTimeline || !Array.isArray(siteTimeline.series)) return siteTimeline;
  var list = siteTimeline.series;
  // series that reach a common merged site are one cluster (union-find)
  var parent = list.map(function (_, i) { return i; });
  var find = function (i) {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  var firstSeriesOf = new Map(); // merged site -> a series that reaches it
  list.forEach(function (s, i) {
    seriesSites(s).forEach(function (site) {
      var id = kept(site);
      var other = firstSeriesOf.get(id);
      if (other === undefined) firstSeriesOf.set(id, i);
      else parent[find(i)] = find(other);
    });
  });
  var clusters = new Map(); // root -> [series index]
  list.forEach(function (_, i) {
    var root = find(i);
    if (!clusters.has(root)) clusters.set(root, []);
    clusters.get(root).push(i);
  });
  var series = [];
  var incomplete = 0;
  clusters.forEach(function (members) {
    var followed = new Map(); // merged site -> its sites that are in these series
    members.forEach(function (i) {
      seriesSites(list[i]).forEach(function (site) {
        var id = kept(site);
        followed.set(id, (followed.get(id) || 0) + 1);
      });
    });
    var ids = Array.from(followed.keys());
    if (ids.some(function (id) { return followed.get(id) !== partsOf(id); })) {
      incomplete += ids.length;
      return;
    }
    ids.sort(function (a, b) { return a - b; });
    series.push(summed(members.map(function (i) { return list[i]; }), ids));
  });
  var out = Object.assign({}, siteTimeline, {series: series});
  if (incomplete) out.incomplete = incomplete;
  else delete out.incomplete;
  return out;
}

// The series `parts` added up, as the series of the sites `ids`.
function summed(parts, ids) {
  var one = ids.length === 1 ? {siteId: ids[0]} : {siteIds: ids};
  if (parts.length === 1) {
    var only = Object.assign({}, parts[0]);
    delete only.siteId;
    delete only.siteIds;
    return Object.assign(one, only);
  }
  var unknownBefore = parts.filter(function (p) { return !p.newAtFrom; }).map(function (p) { return p.from; });
  var from = unknownBefore.length ? Math.max.apply(null, unknownBefore)
    : Math.min.apply(null, parts.map(function (p) { return p.from; }));
  var end = Math.min.apply(null, parts.map(function (p) { return p.from + p.liveBytes.length; }));
  // (a part made at its start, newAtFrom, had allocated nothing before it)
  var sumOf = function (key) {
    var values = [];
    for (var k = from; k < end; k++) {
      var sum = 0;
      for (var j = 0; j < parts.length; j++) if (k >= parts[j].from) sum += parts[j][key][k - parts[j].from];
      values.push(sum);
    }
    return values;
  };
  one.from = from;
  one.liveBytes = sumOf('liveBytes');
  if (parts.every(function (p) { return Array.isArray(p.totalBytes) && Array.isArray(p.totalAllocs); })) {
    one.totalBytes = sumOf('totalBytes');
    one.totalAllocs = sumOf('totalAllocs');
  }
  if (parts.some(function (p) { return p.estimated; })) one.estimated = true;
  if (!unknownBefore.length) one.newAtFrom = true;
  return one;
}

// A view by site: the series of one site each. A series of several sites
// (the timeline follows functions: their call sites are summed) is not a
// series of any one of them; `together` counts the sites so left without
// one.
function perSiteSeries(siteTimeline) {
  if (!siteTimeline || !Array.isArray(siteTimeline.series)) return siteTimeline;
  var together = 0;
  var series = siteTimeline.series.filter(function (s) {
    if (!Array.isArray(s.siteIds)) return true;
    together += s.siteIds.length;
    return false;
  });
  if (!together) return siteTimeline;
  return Object.assign({}, siteTimeline, {series: series, together: together});
}

// One series as [{t (ms), liveBytes}]: its values at the timeline's points.
function seriesPoints(timeline, series) {
  return series.liveBytes.map(function (v, k) { return {t: timeline[series.from + k].t, liveBytes: v}; });
}

module.exports = {MAX_SERIES: MAX_SERIES, MAX_SITES_PER_SERIES: MAX_SITES_PER_SERIES,
  regroupSeries: regroupSeries, perSiteSeries: perSiteSeries, seriesPoints: seriesPoints};
