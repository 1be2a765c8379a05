// growing.js: which sites keep growing, from their series over time
// (snapshot.siteTimeline, model/site_timeline.js), and in which way: a
// site that grows by about the same amount all through the run "grows
// without bound" (a leak, or a structure nobody trims); one that rose and
// then stayed flat "levels off" (a cache, a pool that reached its size).
// bytehound's per-backtrace series and its leak-versus-cache case study
// draw the same line. `emheap top --growing` and the report read it.
//
// The series is cut into up to TENTHS equal parts by point; a part "grew"
// when the site's bytes at its end are above those at the end of the part
// before by more than the noise (NOISE of the site's highest). Then:
//   grows without bound  it rose, ends at (about) its highest, grew in
//                        at least 60% of the parts, and in its last third
//                        still at half its mean rate or more;
//   levels off           it rose, ends at its highest, and its last third
//                        stayed within a tenth of the rise;
//   goes up and down     it gave back a quarter of its rise or more in two
//                        parts or more (its own churn), or ended below its
//                        highest;
//   shrinks / steady / grows, unevenly   otherwise.
// Words, not certainty: a run too short to show the bound reads as
// "grows without bound so far"; the numbers beside say how much and how
// steadily.
'use strict';

var MAX_SERIES = require('./site_timeline').MAX_SERIES;

var seriesPoints = require('./site_timeline').seriesPoints;
var rowWord = require('./grouping').rowWord;
var plural = require('./numbers').plural;

var TENTHS = 10;
var NOISE = 0.005;
var MIN_POINTS = 5;

var VERDICT_ORDER = ['grows without bound', 'grows, unevenly', 'levels off', 'goes up and down', 'steady', 'shrinks',
  'too few points'];

// One series' verdict: points [{t (ms), liveBytes}] -> {verdict, points,
// firstBytes, lastBytes, maxBytes, riseBytes, bytesPerSecond (least squares
// slope), grewIn (parts that grew / parts), segments (the parts), lateShare (the last
// third's rise over the whole rise)}.
function seriesVerdict(points) {
  var n = points.length;
  var out = {verdict: 'too few points', points: n, firstBytes: n ? points[0].liveBytes : 0,
    lastBytes: n ? points[n - 1].liveBytes : 0, maxBytes: 0, riseBytes: 0, bytesPerSecond: 0, grewIn: 0, segments: 0,
    lateShare: 0};
  if (!n) return out;
  var max = 0;
  var min = Infinity;
  points.forEach(function (p) { max = Math.max(max, p.liveBytes); min = Math.min(min, p.liveBytes); });
  out.maxBytes = max;
  out.riseBytes = out.lastBytes - out.firstBytes;
  out.bytesPerSecond = slope(points) * 1000;
  if (n < MIN_POINTS) return out;
  var noise = Math.max(1, NOISE * max);
  var parts = Math.min(TENTHS, n - 1);
  var grew = 0;
  var fell = 0; // parts that gave back a quarter of the rise or more
  var previous = points[0].liveBytes;
  var bigDrop = Math.max(noise, 0.25 * Math.abs(out.riseBytes));
  for (var k = 1; k <= parts; k++) {
    var end = points[Math.round(k * (n - 1) / parts)].liveBytes;
    if (end - previous > noise) grew++;
    if (previous - end >= bigDrop) fell++;
    previous = end;
  }
  out.segments = parts;
  out.grewIn = grew / parts;
  var from = Math.round(2 * (n - 1) / 3);
  var twoThirds = points[from].liveBytes;
  var lateLow = Infinity;
  var lateHigh = 0;
  for (var j = from; j < n; j++) {
    lateLow = Math.min(lateLow, points[j].liveBytes);
    lateHigh = Math.max(lateHigh, points[j].liveBytes);
  }
  var rise = out.riseBytes;
  out.lateShare = rise > noise ? (out.lastBytes - twoThirds) / rise : 0;
  if (rise > noise && fell < 2) {
    var atTop = out.lastBytes >= max - noise - 0.05 * rise;
    var flatLate = lateHigh - lateLow <= Math.max(noise, 0.1 * rise);
    if (atTop && out.grewIn >= 0.6 && out.lateShare >= 0.5 / 3) out.verdict = 'grows without bound';
    else if (atTop && flatLate) out.verdict = 'levels off';
    else if (atTop) out.verdict = 'grows, unevenly';
    else out.verdict = 'goes up and down';
  } else if (rise < -noise) {
    out.verdict = 'shrinks';
  } else {
    out.verdict = max - min > noise ? 'goes up and down' : 'steady';
  }
  return out;
}

// Least squares slope of bytes over t (per ms).
function slope(points) {
  var n = points.length;
  if (n < 2) return 0;
  var mt = 0;
  var mb = 0;
  points.forEach(function (p) { mt += p.t; mb += p.liveBytes; });
  mt /= n;
  mb /= n;
  var num = 0;
  var den = 0;
  points.forEach(function (p) {
    num += (p.t - mt) * (p.liveBytes - mb);
    den += (p.t - mt) * (p.t - mt);
  });
  return den > 0 ? num / den : 0;
}

// Every tracked site of the snapshot with its verdict, the steadiest
// growers first: [{siteId, estimated?, ...seriesVerdict}]; [] when the
// snapshot has no site series (then `why` says so).
function growingSites(snapshot) {
  var st = snapshot.siteTimeline;
  var timeline = snapshot.timeline || [];
  if (!st || !Array.isArray(st.series) || !timeline.length) return [];
  // (a series of several sites is no one site's: grouping.js perSiteSeries)
  var rows = st.series.filter(function (s) { return s.siteId !== undefined; }).map(function (s) {
    var row = Object.assign({siteId: s.siteId}, seriesVerdict(seriesPoints(timeline, s)));
    if (s.estimated) row.estimated = true;
    return row;
  });
  rows.sort(function (a, b) {
    return VERDICT_ORDER.indexOf(a.verdict) - VERDICT_ORDER.indexOf(b.verdict) || b.grewIn - a.grewIn ||
      b.bytesPerSecond - a.bytesPerSecond || a.siteId - b.siteId;
  });
  return rows;
}

// Why a snapshot has no verdicts, or null when it has some.
function whyNoSeries(snapshot) {
  if (snapshot.view === 'peak') return 'a peak view has no series over time: leave --at peak out';
  if (!Array.isArray(snapshot.timeline) || !snapshot.timeline.length) {
    return 'this snapshot has no timeline (the page or program had emheapOptions.timeline = false, or it was made by an older emheap)';
  }
  if (!snapshot.siteTimeline) return 'this snapshot has no per-site series (made by an emheap older than this one)';
  if (!snapshot.siteTimeline.series.length && (snapshot.siteTimeline.incomplete || snapshot.siteTimeline.together)) {
    return incompleteNote(snapshot);
  }
  if (!snapshot.siteTimeline.series.length) return 'no site had live bytes at any point of the timeline';
  return null;
}

// Why some groups of a view have no series ('' if none have): the
// timeline follows call sites by their chain of functions (the largest
// and fastest growing, MAX_SERIES at most), so a group it did not follow
// whole has none (model/site_timeline.js regroupSeries), and a view by
// site has none for a site that was followed with others.
function incompleteNote(snapshot) {
  var st = snapshot.siteTimeline || {};
  var notes = [];
  var n = st.incomplete;
  if (n) {
    notes.push(plural(n, rowWord(snapshot)) + (n === 1 ? ' has' : ' have') +
      ' no series: the timeline follows the call sites of one chain of functions together (the largest and fastest growing, ' +
      MAX_SERIES + ' at most), and did not follow all of ' +
      (n === 1 ? 'its' : 'their') + ' call sites');
  }
  if (st.together) {
    notes.push(plural(st.together, rowWord(snapshot)) + (st.together === 1 ? ' was' : ' were') +
      ' followed only summed with others of the same chain of functions' +
      (snapshot.groupedBy === 'function' ? '' : ': --by function shows that series'));
  }
  return notes.join('; ');
}

module.exports = {growingSites: growingSites, seriesVerdict: seriesVerdict, whyNoSeries: whyNoSeries,
  incompleteNote: incompleteNote};
